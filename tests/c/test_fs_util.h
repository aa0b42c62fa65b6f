/* Helpers shared by the filesystem tests (tests/c/test_fs_*.c). */
#ifndef TFE_TESTS_C_TEST_FS_UTIL_H_
#define TFE_TESTS_C_TEST_FS_UTIL_H_

/* Test files define _GNU_SOURCE before their first include. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/env.h"
#include "tensorflow/c/tf_status.h"
#include "tfe/filesystem.h"
#include "tfe_test.h"

/* A fresh local directory (absolute path, static storage per call site
 * is the caller's business: the result is malloc'd). */
static inline char* fs_make_tempdir(void) {
  char* d = strdup("/tmp/tfe-fs-test-XXXXXX");
  CHECK(d != NULL);
  CHECK(mkdtemp(d) != NULL);
  return d;
}

/* Removes a local tree through the API under test's twin, `rm -rf`. */
static inline void fs_remove_tree(const char* dir) {
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  CHECK(system(cmd) == 0);
}

/* "<a>/<b>" in a rotating set of static buffers. */
static inline const char* fs_join(const char* a, const char* b) {
  static char bufs[16][1024];
  static int k;
  k = (k + 1) % 16;
  snprintf(bufs[k], sizeof bufs[k], "%s/%s", a, b);
  return bufs[k];
}

/* Writes `data` to `path` with TF_NewWritableFile; checks every step. */
static inline void fs_write(const char* path, const char* data, size_t n) {
  TF_Status* s = TF_NewStatus();
  TF_WritableFileHandle* h = NULL;
  TF_NewWritableFile(path, &h, s);
  CHECK_CODE(s, TF_OK);
  CHECK(h != NULL);
  TF_AppendWritableFile(h, data, n, s);
  CHECK_CODE(s, TF_OK);
  TF_CloseWritableFile(h, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

static inline void fs_write_str(const char* path, const char* data) {
  fs_write(path, data, strlen(data));
}

/* Reads all of `path` through TFE_ReadRandomAccessFile into a malloc'd
 * buffer (NUL-terminated); the length goes to *len. */
static inline char* fs_read(const char* path, size_t* len) {
  TF_Status* s = TF_NewStatus();
  TFE_RandomAccessFile* f = TFE_NewRandomAccessFile(path, s);
  size_t cap = 64, n = 0;
  char* buf = (char*)malloc(cap + 1);
  CHECK_CODE(s, TF_OK);
  CHECK(f != NULL);
  for (;;) {
    int64_t got;
    if (n == cap) {
      cap *= 2;
      buf = (char*)realloc(buf, cap + 1);
      CHECK(buf != NULL);
    }
    got = TFE_ReadRandomAccessFile(f, n, cap - n, buf + n, s);
    CHECK(got >= 0);
    n += (size_t)got;
    if (TF_GetCode(s) == TF_OUT_OF_RANGE) break;
    CHECK_CODE(s, TF_OK);
  }
  buf[n] = '\0';
  TFE_DeleteRandomAccessFile(f);
  TF_DeleteStatus(s);
  if (len != NULL) *len = n;
  return buf;
}

/* The strings of a stream joined with ',' (then the stream is freed). */
static inline char* fs_stream_join(TF_StringStream* ss) {
  size_t cap = 256, n = 0;
  char* out = (char*)malloc(cap);
  const char* item;
  int count = 0;
  out[0] = '\0';
  while (TF_StringStreamNext(ss, &item)) {
    size_t l = strlen(item);
    while (n + l + 2 > cap) {
      cap *= 2;
      out = (char*)realloc(out, cap);
    }
    if (count++ > 0) out[n++] = ',';
    memcpy(out + n, item, l + 1);
    n += l;
  }
  TF_StringStreamDone(ss);
  return out;
}

/* Children of `path` as "a,b,c" (sorted by the API); checks TF_OK. */
static inline char* fs_children(const char* path) {
  TF_Status* s = TF_NewStatus();
  TF_StringStream* ss = TF_GetChildren(path, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  return fs_stream_join(ss);
}

/* The registered schemes as "a,b,c". */
static inline char* fs_schemes(void) {
  TF_Status* s = TF_NewStatus();
  TF_StringStream* ss = TFE_GetRegisteredFilesystemSchemes(s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  return fs_stream_join(ss);
}

#define CHECK_STR_EQ_FREE(expr, want) \
  do {                                \
    char* got_s_ = (expr);            \
    CHECK_STR_EQ(got_s_, want);       \
    free(got_s_);                     \
  } while (0)

/* Path of a test plugin built from tests/plugins/<name>.c. */
static inline const char* fs_plugin_path(const char* name) {
  static char bufs[4][1024];
  static int k;
  k = (k + 1) % 4;
  snprintf(bufs[k], sizeof bufs[k], "%s/%s.so", TFE_TEST_PLUGIN_DIR, name);
  return bufs[k];
}

/* Registers the directory-backed testfs plugin with its root in a fresh
 * temporary directory, which is returned (malloc'd). Within one process
 * the plugin is registered once; later calls return a copy of the same
 * root (recreated if an earlier test removed it). */
static inline char* fs_register_testfs(void) {
  static char* root;
  TF_Status* s;
  if (root != NULL) {
    (void)mkdir(root, 0700); /* an earlier test may have removed it */
    return strdup(root);
  }
  s = TF_NewStatus();
  root = fs_make_tempdir();
  CHECK(setenv("TFE_TESTFS_ROOT", root, 1) == 0);
  TF_RegisterFilesystemPlugin(fs_plugin_path("fs_testfs"), s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  return strdup(root);
}

#endif /* TFE_TESTS_C_TEST_FS_UTIL_H_ */
