/* Shared by the fs_broken_*.c / fs_*_plugin.c test plugins: a tiny valid
 * filesystem (one read-only file "/hello" holding "hello") whose
 * TF_InitPlugin fills a complete, correct entry and then lets the including
 * file break exactly one thing.
 *
 * A plugin file defines the scheme and a breaker, then expands
 * FS_TEST_PLUGIN:
 *
 *   #include "fs_broken_common.h"
 *   static void breaker(TF_FilesystemPluginInfo* info) {
 *     info->ops[0].writable_file_ops_abi = 7;
 *   }
 *   FS_TEST_PLUGIN("brokenabi", 1, breaker)
 *
 * The second argument is the number of scheme entries filled (each with the
 * same valid tables; extra entries get the scheme "<scheme>2", ...).
 * Allocations go through a counting allocator; fs_test_live_allocations()
 * reports the blocks the core has not freed yet. */
#ifndef TFE_TESTS_PLUGINS_FS_BROKEN_COMMON_H_
#define TFE_TESTS_PLUGINS_FS_BROKEN_COMMON_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/experimental/filesystem/filesystem_interface.h"
#include "tensorflow/c/tf_status.h"

TF_CAPI_EXPORT long fs_test_live_allocations(void);
TF_CAPI_EXPORT int fs_test_init_calls(void);
TF_CAPI_EXPORT int fs_test_cleanup_calls(void);

static long fst_live;
static int fst_inits, fst_cleanups;

long fs_test_live_allocations(void) { return fst_live; }
int fs_test_init_calls(void) { return fst_inits; }
int fs_test_cleanup_calls(void) { return fst_cleanups; }

static void* fst_alloc(size_t n) {
  void* p = calloc(1, n ? n : 1);
  if (p != NULL) fst_live++;
  return p;
}

static void fst_free(void* p) {
  if (p == NULL) return;
  fst_live--;
  free(p);
}

static char* fst_strdup(const char* s) {
  char* d = (char*)fst_alloc(strlen(s) + 1);
  strcpy(d, s);
  return d;
}

static const char fst_content[] = "hello";

static void fst_init(TF_Filesystem* fs, TF_Status* status) {
  fst_inits++;
  fs->plugin_filesystem = NULL;
  TF_SetStatus(status, TF_OK, "");
}

static void fst_cleanup(TF_Filesystem* fs) {
  (void)fs;
  fst_cleanups++;
}

static void fst_raf_cleanup(TF_RandomAccessFile* f) { f->plugin_file = NULL; }

static int64_t fst_raf_read(const TF_RandomAccessFile* f, uint64_t offset,
                            size_t n, char* buffer, TF_Status* status) {
  size_t len = sizeof fst_content - 1, got = 0;
  (void)f;
  if (offset < len) {
    got = len - (size_t)offset;
    if (got > n) got = n;
    memcpy(buffer, fst_content + offset, got);
  }
  TF_SetStatus(status, got < n ? TF_OUT_OF_RANGE : TF_OK,
               got < n ? "end of file" : "");
  return (int64_t)got;
}

static void fst_new_raf(const TF_Filesystem* fs, const char* path,
                        TF_RandomAccessFile* file, TF_Status* status) {
  (void)fs;
  if (strcmp(path, "/hello") != 0) {
    TF_SetStatus(status, TF_NOT_FOUND, "only /hello exists");
    return;
  }
  file->plugin_file = (void*)fst_content;
  TF_SetStatus(status, TF_OK, "");
}

static void fst_stat(const TF_Filesystem* fs, const char* path,
                     TF_FileStatistics* stats, TF_Status* status) {
  (void)fs;
  if (strcmp(path, "/") == 0) {
    stats->length = 0;
    stats->mtime_nsec = 1;
    stats->is_directory = true;
  } else if (strcmp(path, "/hello") == 0) {
    stats->length = (int64_t)(sizeof fst_content - 1);
    stats->mtime_nsec = 1;
    stats->is_directory = false;
  } else {
    TF_SetStatus(status, TF_NOT_FOUND, "no such path");
    return;
  }
  TF_SetStatus(status, TF_OK, "");
}

static int fst_get_children(const TF_Filesystem* fs, const char* path,
                            char*** entries, TF_Status* status) {
  (void)fs;
  if (strcmp(path, "/") != 0) {
    TF_SetStatus(status, TF_NOT_FOUND, "no such directory");
    return -1;
  }
  *entries = (char**)fst_alloc(sizeof(char*));
  (*entries)[0] = fst_strdup("hello");
  TF_SetStatus(status, TF_OK, "");
  return 1;
}

static void fst_wf_cleanup(TF_WritableFile* f) { f->plugin_file = NULL; }
static void fst_romr_cleanup(TF_ReadOnlyMemoryRegion* r) {
  r->plugin_memory_region = NULL;
}
static const void* fst_romr_data(const TF_ReadOnlyMemoryRegion* r) {
  (void)r;
  return fst_content;
}
static uint64_t fst_romr_length(const TF_ReadOnlyMemoryRegion* r) {
  (void)r;
  return sizeof fst_content - 1;
}

/* A complete, valid entry for `scheme`. */
static void fst_fill(TF_FilesystemPluginOps* e, const char* scheme) {
  TF_FilesystemOps* fs =
      (TF_FilesystemOps*)fst_alloc(sizeof(TF_FilesystemOps));
  TF_RandomAccessFileOps* raf =
      (TF_RandomAccessFileOps*)fst_alloc(sizeof(TF_RandomAccessFileOps));
  TF_WritableFileOps* wf =
      (TF_WritableFileOps*)fst_alloc(sizeof(TF_WritableFileOps));
  TF_ReadOnlyMemoryRegionOps* romr = (TF_ReadOnlyMemoryRegionOps*)fst_alloc(
      sizeof(TF_ReadOnlyMemoryRegionOps));
  e->scheme = fst_strdup(scheme);
  TF_SetFilesystemVersionMetadata(e);
  fs->init = fst_init;
  fs->cleanup = fst_cleanup;
  fs->new_random_access_file = fst_new_raf;
  fs->stat = fst_stat;
  fs->get_children = fst_get_children;
  raf->cleanup = fst_raf_cleanup;
  raf->read = fst_raf_read;
  wf->cleanup = fst_wf_cleanup;
  romr->cleanup = fst_romr_cleanup;
  romr->data = fst_romr_data;
  romr->length = fst_romr_length;
  e->filesystem_ops = fs;
  e->random_access_file_ops = raf;
  e->writable_file_ops = wf;
  e->read_only_memory_region_ops = romr;
}

#define FS_TEST_PLUGIN(SCHEME, COUNT, BREAKER)                              \
  void TF_InitPlugin(TF_FilesystemPluginInfo* info) {                       \
    size_t i_;                                                              \
    info->plugin_memory_allocate = fst_alloc;                               \
    info->plugin_memory_free = fst_free;                                    \
    info->num_schemes = (COUNT);                                            \
    info->ops = (TF_FilesystemPluginOps*)fst_alloc(                         \
        (COUNT) * sizeof(TF_FilesystemPluginOps));                          \
    for (i_ = 0; i_ < info->num_schemes; i_++) {                            \
      char name_[64];                                                       \
      if (i_ == 0) {                                                        \
        snprintf(name_, sizeof name_, "%s", SCHEME);                        \
      } else {                                                              \
        snprintf(name_, sizeof name_, "%s%zu", SCHEME, i_ + 1);             \
      }                                                                     \
      fst_fill(&info->ops[i_], name_);                                      \
    }                                                                       \
    BREAKER(info);                                                          \
  }

#endif /* TFE_TESTS_PLUGINS_FS_BROKEN_COMMON_H_ */
