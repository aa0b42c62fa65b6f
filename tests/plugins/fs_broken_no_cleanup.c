/* Broken filesystem plugin for the loader tests: TF_FilesystemOps.cleanup is NULL. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].filesystem_ops->cleanup = NULL;
}

FS_TEST_PLUGIN("brokennocleanup", 1, breaker)
