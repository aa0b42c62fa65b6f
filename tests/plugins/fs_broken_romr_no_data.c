/* Broken filesystem plugin for the loader tests: TF_ReadOnlyMemoryRegionOps.data is NULL. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].read_only_memory_region_ops->data = NULL;
}

FS_TEST_PLUGIN("brokenromrdata", 1, breaker)
