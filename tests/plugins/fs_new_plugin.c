/* Test plugin "newfs": built against a newer version of the tables, which
 * has 8 more operations at the end of TF_FilesystemOps and of
 * TF_RandomAccessFileOps. The core must accept it and ignore the extra
 * fields (which hold garbage here). */
#include "fs_broken_common.h"

#define EXTRA (8 * sizeof(void*))

static void* grow(void* table, size_t size) {
  char* bigger = (char*)fst_alloc(size + EXTRA);
  memcpy(bigger, table, size);
  memset(bigger + size, 0xAB, EXTRA);
  fst_free(table);
  return bigger;
}

static void breaker(TF_FilesystemPluginInfo* info) {
  TF_FilesystemPluginOps* e = &info->ops[0];
  e->filesystem_ops =
      (TF_FilesystemOps*)grow(e->filesystem_ops, sizeof(TF_FilesystemOps));
  e->filesystem_ops_size = sizeof(TF_FilesystemOps) + EXTRA;
  e->random_access_file_ops = (TF_RandomAccessFileOps*)grow(
      e->random_access_file_ops, sizeof(TF_RandomAccessFileOps));
  e->random_access_file_ops_size = sizeof(TF_RandomAccessFileOps) + EXTRA;
}

FS_TEST_PLUGIN("newfs", 1, breaker)
