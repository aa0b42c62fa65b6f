/* Test plugin "oldfs": built against an older, shorter version of the
 * tables. Its random-access table stops after `cleanup` and its filesystem
 * table after `stat`. The memory after those declared sizes holds pointers
 * the core must never call (here: functions that abort), so the test
 * proves that the core copies only the declared bytes and treats the rest
 * as NULL. */
#include "fs_broken_common.h"

static int64_t must_not_read(const TF_RandomAccessFile* f, uint64_t offset,
                             size_t n, char* buffer, TF_Status* status) {
  (void)f;
  (void)offset;
  (void)n;
  (void)buffer;
  (void)status;
  abort();
}

static int must_not_list(const TF_Filesystem* fs, const char* path,
                         char*** entries, TF_Status* status) {
  (void)fs;
  (void)path;
  (void)entries;
  (void)status;
  abort();
}

static void breaker(TF_FilesystemPluginInfo* info) {
  TF_FilesystemPluginOps* e = &info->ops[0];
  e->random_access_file_ops->read = must_not_read;
  e->random_access_file_ops_size =
      TF_OFFSET_OF_END(TF_RandomAccessFileOps, cleanup);
  e->filesystem_ops->get_children = must_not_list;
  e->filesystem_ops_size = TF_OFFSET_OF_END(TF_FilesystemOps, stat);
}

FS_TEST_PLUGIN("oldfs", 1, breaker)
