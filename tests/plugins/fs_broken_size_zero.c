/* Broken filesystem plugin for the loader tests: never set the writable table's size (as if it forgot TF_SetFilesystemVersionMetadata for it). */
#include "fs_broken_common.h"

static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].writable_file_ops_size = 0;
}

FS_TEST_PLUGIN("brokensizezero", 1, breaker)
