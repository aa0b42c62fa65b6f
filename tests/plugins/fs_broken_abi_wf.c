/* Broken filesystem plugin for the loader tests: its writable_file_ops_abi is 3, not the core's 0. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].writable_file_ops_abi = 3;
}

FS_TEST_PLUGIN("brokenabiwf", 1, breaker)
