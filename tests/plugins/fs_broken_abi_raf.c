/* Broken filesystem plugin for the loader tests: its random_access_file_ops_abi is 2, not the core's 0. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].random_access_file_ops_abi = 2;
}

FS_TEST_PLUGIN("brokenabiraf", 1, breaker)
