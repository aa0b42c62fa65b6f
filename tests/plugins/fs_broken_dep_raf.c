/* Broken filesystem plugin for the loader tests: offers new_random_access_file without a TF_RandomAccessFileOps table. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  fst_free(info->ops[0].random_access_file_ops);
  info->ops[0].random_access_file_ops = NULL;
}

FS_TEST_PLUGIN("brokendepraf", 1, breaker)
