/* Broken filesystem plugin for the loader tests: its TF_FilesystemOps table claims to hold only `init`. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].filesystem_ops_size = sizeof(void*);
}

FS_TEST_PLUGIN("brokentoosmall", 1, breaker)
