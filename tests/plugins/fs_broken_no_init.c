/* Broken filesystem plugin for the loader tests: TF_FilesystemOps.init is NULL. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].filesystem_ops->init = NULL;
}

FS_TEST_PLUGIN("brokennoinit", 1, breaker)
