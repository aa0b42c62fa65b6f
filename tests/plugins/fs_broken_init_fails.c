/* Broken filesystem plugin for the loader tests: the filesystem's init reports PERMISSION_DENIED. */
#include "fs_broken_common.h"

static void failing_init(TF_Filesystem* fs, TF_Status* status) {
  (void)fs;
  fst_inits++;
  TF_SetStatus(status, TF_PERMISSION_DENIED, "backend refused the credentials");
}
static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].filesystem_ops->init = failing_init;
}

FS_TEST_PLUGIN("brokeninit", 1, breaker)
