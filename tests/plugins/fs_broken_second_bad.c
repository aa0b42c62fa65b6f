/* Broken filesystem plugin for the loader tests: two schemes; the first is fine, the second has a wrong ABI number, so neither may be registered (and no init may run). */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[1].filesystem_ops_abi = 9;
}

FS_TEST_PLUGIN("partial", 2, breaker)
