/* Test plugin "mutating": its plugin_memory_free keeps the tables instead
 * of freeing them, and fs_test_scribble() (exported) later overwrites every
 * byte of them. The core works from its own copies, so the filesystem must
 * keep working afterwards. */
#include "fs_broken_common.h"

TF_CAPI_EXPORT void fs_test_scribble(void);

static TF_FilesystemOps* g_fs;
static TF_RandomAccessFileOps* g_raf;
static TF_WritableFileOps* g_wf;
static TF_ReadOnlyMemoryRegionOps* g_romr;

/* Frees everything except the four tables, which stay reachable above. */
static void keeping_free(void* p) {
  if (p == g_fs || p == g_raf || p == g_wf || p == g_romr) return;
  fst_free(p);
}

void fs_test_scribble(void) {
  memset(g_fs, 0xFF, sizeof *g_fs);
  memset(g_raf, 0xFF, sizeof *g_raf);
  memset(g_wf, 0xFF, sizeof *g_wf);
  memset(g_romr, 0xFF, sizeof *g_romr);
}

static void breaker(TF_FilesystemPluginInfo* info) {
  g_fs = info->ops[0].filesystem_ops;
  g_raf = info->ops[0].random_access_file_ops;
  g_wf = info->ops[0].writable_file_ops;
  g_romr = info->ops[0].read_only_memory_region_ops;
  info->plugin_memory_free = keeping_free;
}

FS_TEST_PLUGIN("mutating", 1, breaker)
