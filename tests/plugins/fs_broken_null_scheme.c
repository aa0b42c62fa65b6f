/* Broken filesystem plugin for the loader tests: its scheme is NULL. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  fst_free(info->ops[0].scheme);
  info->ops[0].scheme = NULL;
}

FS_TEST_PLUGIN("unused", 1, breaker)
