/* Broken filesystem plugin for the loader tests: every API number is 5 (the core's are 0): the plugin loads, with a warning. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].filesystem_ops_api = 5;
  info->ops[0].random_access_file_ops_api = 5;
  info->ops[0].writable_file_ops_api = 5;
  info->ops[0].read_only_memory_region_ops_api = 5;
}

FS_TEST_PLUGIN("warnapi", 1, breaker)
