/* Broken filesystem plugin for the loader tests: TF_WritableFileOps.cleanup is NULL. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].writable_file_ops->cleanup = NULL;
}

FS_TEST_PLUGIN("brokenwfcleanup", 1, breaker)
