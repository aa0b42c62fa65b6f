/* Broken filesystem plugin for the loader tests: declares the scheme "dupself" twice. */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  fst_free(info->ops[1].scheme);
  info->ops[1].scheme = fst_strdup("dupself");
}

FS_TEST_PLUGIN("dupself", 2, breaker)
