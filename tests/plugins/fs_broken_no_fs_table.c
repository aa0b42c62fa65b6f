/* Broken filesystem plugin for the loader tests: no TF_FilesystemOps table at all. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  fst_free(info->ops[0].filesystem_ops);
  info->ops[0].filesystem_ops = NULL;
}

FS_TEST_PLUGIN("brokennofstable", 1, breaker)
