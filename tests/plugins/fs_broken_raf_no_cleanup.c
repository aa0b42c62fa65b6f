/* Broken filesystem plugin for the loader tests: TF_RandomAccessFileOps.cleanup is NULL. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].random_access_file_ops->cleanup = NULL;
}

FS_TEST_PLUGIN("brokenrafcleanup", 1, breaker)
