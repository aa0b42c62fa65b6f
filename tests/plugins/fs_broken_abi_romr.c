/* Broken filesystem plugin for the loader tests: its read_only_memory_region_ops_abi is 4, not the core's 0. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].read_only_memory_region_ops_abi = 4;
}

FS_TEST_PLUGIN("brokenabiromr", 1, breaker)
