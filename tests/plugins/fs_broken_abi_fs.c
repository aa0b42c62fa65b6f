/* Broken filesystem plugin for the loader tests: its filesystem_ops_abi is 1, not the core's 0. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].filesystem_ops_abi = 1;
}

FS_TEST_PLUGIN("brokenabifs", 1, breaker)
