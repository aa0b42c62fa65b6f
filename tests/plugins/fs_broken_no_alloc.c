/* Broken filesystem plugin for the loader tests: plugin_memory_allocate is NULL. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->plugin_memory_allocate = NULL;
}

FS_TEST_PLUGIN("brokennoalloc", 1, breaker)
