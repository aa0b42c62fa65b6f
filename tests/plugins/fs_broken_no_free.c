/* Broken filesystem plugin for the loader tests: plugin_memory_free is NULL (the core cannot release anything; the tables stay reachable from here so leak checkers stay quiet). */
#include "fs_broken_common.h"

/* Exported so the store cannot be optimised away. */
TF_CAPI_EXPORT TF_FilesystemPluginOps* fs_test_kept;
TF_FilesystemPluginOps* fs_test_kept;
static void breaker(TF_FilesystemPluginInfo* info) {
  fs_test_kept = info->ops;
  info->plugin_memory_free = NULL;
}

FS_TEST_PLUGIN("brokennofree", 1, breaker)
