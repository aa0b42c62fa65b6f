/* Broken filesystem plugin for the loader tests: offers new_read_only_memory_region_from_file without a TF_ReadOnlyMemoryRegionOps table. */
#include "fs_broken_common.h"

static void noop_open(const TF_Filesystem* fs, const char* path,
                      TF_ReadOnlyMemoryRegion* region, TF_Status* status) {
  (void)fs;
  (void)path;
  (void)region;
  TF_SetStatus(status, TF_OK, "");
}
static void breaker(TF_FilesystemPluginInfo* info) {
  info->ops[0].filesystem_ops->new_read_only_memory_region_from_file =
      noop_open;
  fst_free(info->ops[0].read_only_memory_region_ops);
  info->ops[0].read_only_memory_region_ops = NULL;
}

FS_TEST_PLUGIN("brokendepromr", 1, breaker)
