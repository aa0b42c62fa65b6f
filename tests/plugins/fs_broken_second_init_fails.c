/* Broken filesystem plugin for the loader tests: two schemes whose second init fails: the first, already initialised, must be cleaned up and neither registered. */
#include "fs_broken_common.h"

static void second_fails_init(TF_Filesystem* fs, TF_Status* status) {
  (void)fs;
  if (++fst_inits == 2) {
    TF_SetStatus(status, TF_UNAVAILABLE, "second filesystem is down");
  } else {
    TF_SetStatus(status, TF_OK, "");
  }
}
static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].filesystem_ops->init = second_fails_init;
  info->ops[1].filesystem_ops->init = second_fails_init;
}

FS_TEST_PLUGIN("partialinit", 2, breaker)
