/* Broken filesystem plugin for the loader tests: offers new_appendable_file without a TF_WritableFileOps table. */
#include "fs_broken_common.h"

static void noop_open(const TF_Filesystem* fs, const char* path,
                      TF_WritableFile* file, TF_Status* status) {
  (void)fs;
  (void)path;
  (void)file;
  TF_SetStatus(status, TF_OK, "");
}
static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].filesystem_ops->new_appendable_file = noop_open;
  fst_free(info->ops[0].writable_file_ops);
  info->ops[0].writable_file_ops = NULL;
}

FS_TEST_PLUGIN("brokendepwf", 1, breaker)
