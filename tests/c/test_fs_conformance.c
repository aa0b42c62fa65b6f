/* One filesystem conformance body, run over every scheme: the local
 * filesystem (plain paths and file:// URIs), the built-in ram://, and the
 * testfs:// plugin loaded from a shared library. It checks creation,
 * writing, appending, stat, listing, reading (with the OUT_OF_RANGE rule),
 * memory regions, rename, copy, glob, deletion and the error codes of each.
 *
 * The only per-scheme difference is documented ram:// behaviour: creating
 * a file or directory there also creates missing parents. */
#define _GNU_SOURCE 1
#include "test_fs_util.h"

typedef struct scheme_case {
  const char* base;      /* a directory URI the body may fill */
  bool implicit_parents; /* creating x/y/z creates x and x/y */
} scheme_case;

static TF_Status* S;

static const char* P(const scheme_case* c, const char* rel) {
  return fs_join(c->base, rel);
}

static void stat_ok(const char* path, TF_FileStatistics* st) {
  memset(st, 0, sizeof *st);
  TF_FileStat(path, st, S);
  CHECK_CODE(S, TF_OK);
}

static void expect_content(const char* path, const char* want, size_t n) {
  size_t len = 0;
  char* got = fs_read(path, &len);
  CHECK_EQ_SIZE(len, n);
  CHECK(memcmp(got, want, n) == 0);
  free(got);
}

static void body_directories(const scheme_case* c) {
  TF_FileStatistics st;
  TFE_RecursivelyCreateDir(c->base, S);
  CHECK_CODE(S, TF_OK);
  TFE_RecursivelyCreateDir(c->base, S); /* already there: fine */
  CHECK_CODE(S, TF_OK);
  stat_ok(c->base, &st);
  CHECK(st.is_directory);

  TF_CreateDir(P(c, "d"), S);
  CHECK_CODE(S, TF_OK);
  TF_CreateDir(P(c, "d"), S);
  CHECK_CODE(S, TF_ALREADY_EXISTS);
  stat_ok(P(c, "d"), &st);
  CHECK(st.is_directory);
  CHECK(st.mtime_nsec > 0);
  CHECK(TFE_IsDirectory(P(c, "d"), S));
  CHECK_CODE(S, TF_OK);

  TF_CreateDir(P(c, "missing/child"), S);
  CHECK_CODE(S, c->implicit_parents ? TF_OK : TF_NOT_FOUND);

  TFE_RecursivelyCreateDir(P(c, "deep/er/est"), S);
  CHECK_CODE(S, TF_OK);
  CHECK(TFE_IsDirectory(P(c, "deep/er"), S));
  CHECK_CODE(S, TF_OK);
}

static void body_files(const scheme_case* c) {
  TF_FileStatistics st;
  TF_WritableFileHandle* h = NULL;

  fs_write_str(P(c, "d/a.txt"), "hello");
  stat_ok(P(c, "d/a.txt"), &st);
  CHECK_EQ_INT(st.length, 5);
  CHECK(!st.is_directory);
  CHECK(st.mtime_nsec > 0);
  CHECK_EQ_INT(TFE_GetFileSize(P(c, "d/a.txt"), S), 5);
  CHECK_CODE(S, TF_OK);

  /* A new writable file truncates. */
  fs_write_str(P(c, "d/a.txt"), "xy");
  expect_content(P(c, "d/a.txt"), "xy", 2);

  /* Appending keeps what is there; tell counts the whole file. */
  TFE_NewAppendableFile(P(c, "d/a.txt"), &h, S);
  CHECK_CODE(S, TF_OK);
  TF_AppendWritableFile(h, "z", 1, S);
  CHECK_CODE(S, TF_OK);
  CHECK_EQ_INT(TFE_TellWritableFile(h, S), 3);
  CHECK_CODE(S, TF_OK);
  TF_CloseWritableFile(h, S);
  CHECK_CODE(S, TF_OK);
  expect_content(P(c, "d/a.txt"), "xyz", 3);

  /* Appendable on a missing file creates it. */
  TFE_NewAppendableFile(P(c, "d/fresh.log"), &h, S);
  CHECK_CODE(S, TF_OK);
  TF_AppendWritableFile(h, "1", 1, S);
  TF_CloseWritableFile(h, S);
  CHECK_CODE(S, TF_OK);
  expect_content(P(c, "d/fresh.log"), "1", 1);

  /* Binary data, several appends, an empty append. */
  TF_NewWritableFile(P(c, "d/multi.bin"), &h, S);
  CHECK_CODE(S, TF_OK);
  for (int i = 0; i < 3; i++) {
    TF_AppendWritableFile(h, "ab\0c", 4, S);
    CHECK_CODE(S, TF_OK);
  }
  TF_AppendWritableFile(h, "", 0, S);
  CHECK_CODE(S, TF_OK);
  TF_AppendWritableFile(h, NULL, 0, S);
  CHECK_CODE(S, TF_OK);
  /* Flushed data is visible to readers before the file is closed. */
  TF_FlushWritableFile(h, S);
  CHECK_CODE(S, TF_OK);
  expect_content(P(c, "d/multi.bin"), "ab\0cab\0cab\0c", 12);
  TF_SyncWritableFile(h, S);
  CHECK_CODE(S, TF_OK);
  TF_CloseWritableFile(h, S);
  CHECK_CODE(S, TF_OK);
  expect_content(P(c, "d/multi.bin"), "ab\0cab\0cab\0c", 12);

  fs_write_str(P(c, "d/empty"), "");
  stat_ok(P(c, "d/empty"), &st);
  CHECK_EQ_INT(st.length, 0);

  /* Error codes when opening for writing. */
  h = (TF_WritableFileHandle*)1;
  TF_NewWritableFile(P(c, "d"), &h, S);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  CHECK(h == NULL);
  TF_NewWritableFile(P(c, "nodir/x.txt"), &h, S);
  if (c->implicit_parents) {
    CHECK_CODE(S, TF_OK);
    TF_CloseWritableFile(h, S);
    CHECK_CODE(S, TF_OK);
    CHECK(TFE_IsDirectory(P(c, "nodir"), S));
  } else {
    CHECK_CODE(S, TF_NOT_FOUND);
    CHECK(h == NULL);
  }
  /* A file used as a parent directory. */
  TF_NewWritableFile(P(c, "d/a.txt/inner"), &h, S);
  CHECK(TF_GetCode(S) == TF_FAILED_PRECONDITION ||
        TF_GetCode(S) == TF_NOT_FOUND);
  CHECK(h == NULL);
}

static void body_reading(const scheme_case* c) {
  char buf[16];
  int64_t n;
  TFE_RandomAccessFile* f;
  TFE_ReadOnlyMemoryRegion* r;

  f = TFE_NewRandomAccessFile(P(c, "d/a.txt"), S); /* "xyz" */
  CHECK_CODE(S, TF_OK);
  n = TFE_ReadRandomAccessFile(f, 1, 2, buf, S);
  CHECK_CODE(S, TF_OK);
  CHECK_EQ_INT(n, 2);
  CHECK(memcmp(buf, "yz", 2) == 0);
  /* A read cut short by the end of the file: OUT_OF_RANGE, with the bytes
   * that were there. */
  n = TFE_ReadRandomAccessFile(f, 2, 10, buf, S);
  CHECK_CODE(S, TF_OUT_OF_RANGE);
  CHECK_EQ_INT(n, 1);
  CHECK(buf[0] == 'z');
  n = TFE_ReadRandomAccessFile(f, 100, 4, buf, S);
  CHECK_CODE(S, TF_OUT_OF_RANGE);
  CHECK_EQ_INT(n, 0);
  n = TFE_ReadRandomAccessFile(f, 0, 0, buf, S);
  CHECK_CODE(S, TF_OK);
  CHECK_EQ_INT(n, 0);
  TFE_DeleteRandomAccessFile(f);

  CHECK(TFE_NewRandomAccessFile(P(c, "d/nope"), S) == NULL);
  CHECK_CODE(S, TF_NOT_FOUND);
  /* A directory is refused when opened, not at the first read. */
  CHECK(TFE_NewRandomAccessFile(P(c, "d"), S) == NULL);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);

  r = TFE_NewReadOnlyMemoryRegionFromFile(P(c, "d/multi.bin"), S);
  CHECK_CODE(S, TF_OK);
  CHECK_EQ_INT(TFE_ReadOnlyMemoryRegionLength(r), 12);
  CHECK(memcmp(TFE_ReadOnlyMemoryRegionData(r), "ab\0cab\0cab\0c", 12) == 0);
  TFE_DeleteReadOnlyMemoryRegion(r);
  CHECK(TFE_NewReadOnlyMemoryRegionFromFile(P(c, "d/empty"), S) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK(TFE_NewReadOnlyMemoryRegionFromFile(P(c, "d/nope"), S) == NULL);
  CHECK_CODE(S, TF_NOT_FOUND);
}

static void body_listing(const scheme_case* c) {
  TF_StringStream* ss;
  TF_FileStatistics st;
  st.length = -7;
  TF_CreateDir(P(c, "d/sub"), S);
  CHECK_CODE(S, TF_OK);
  CHECK_STR_EQ_FREE(fs_children(P(c, "d")),
                    "a.txt,empty,fresh.log,multi.bin,sub");
  CHECK_STR_EQ_FREE(fs_children(P(c, "d/sub")), "");

  ss = TF_GetChildren(P(c, "does_not_exist"), S);
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK_STR_EQ_FREE(fs_stream_join(ss), "");
  ss = TF_GetChildren(P(c, "d/a.txt"), S);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  TF_StringStreamDone(ss);

  TFE_FileExists(P(c, "d/a.txt"), S);
  CHECK_CODE(S, TF_OK);
  TFE_FileExists(P(c, "d/sub"), S);
  CHECK_CODE(S, TF_OK);
  TFE_FileExists(P(c, "d/nope"), S);
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK(!TFE_IsDirectory(P(c, "d/a.txt"), S));
  CHECK_CODE(S, TF_OK);
  CHECK(!TFE_IsDirectory(P(c, "d/nope"), S));
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK_EQ_INT(TFE_GetFileSize(P(c, "d/sub"), S), -1);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  TF_FileStat(P(c, "d/nope"), &st, S);
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK_EQ_INT(st.length, -7); /* untouched */
}

static void body_rename_copy(const scheme_case* c) {
  /* Rename across directories. */
  TFE_RenameFile(P(c, "d/a.txt"), P(c, "d/sub/b.txt"), false, S);
  CHECK_CODE(S, TF_OK);
  TFE_FileExists(P(c, "d/a.txt"), S);
  CHECK_CODE(S, TF_NOT_FOUND);
  expect_content(P(c, "d/sub/b.txt"), "xyz", 3);

  fs_write_str(P(c, "d/other.txt"), "other");
  TFE_RenameFile(P(c, "d/other.txt"), P(c, "d/sub/b.txt"), false, S);
  CHECK_CODE(S, TF_ALREADY_EXISTS);
  expect_content(P(c, "d/sub/b.txt"), "xyz", 3);
  TFE_RenameFile(P(c, "d/other.txt"), P(c, "d/sub/b.txt"), true, S);
  CHECK_CODE(S, TF_OK);
  expect_content(P(c, "d/sub/b.txt"), "other", 5);
  TFE_RenameFile(P(c, "d/nope"), P(c, "d/nope2"), true, S);
  CHECK_CODE(S, TF_NOT_FOUND);

  /* Renaming a directory moves what is inside. */
  TF_CreateDir(P(c, "d/sub/inner"), S);
  fs_write_str(P(c, "d/sub/inner/f"), "f");
  TFE_RenameFile(P(c, "d/sub/inner"), P(c, "d/moved"), false, S);
  CHECK_CODE(S, TF_OK);
  expect_content(P(c, "d/moved/f"), "f", 1);
  TFE_FileExists(P(c, "d/sub/inner"), S);
  CHECK_CODE(S, TF_NOT_FOUND);

  /* Copy. */
  TFE_CopyFile(P(c, "d/sub/b.txt"), P(c, "d/c.txt"), false, S);
  CHECK_CODE(S, TF_OK);
  expect_content(P(c, "d/c.txt"), "other", 5);
  expect_content(P(c, "d/sub/b.txt"), "other", 5);
  TFE_CopyFile(P(c, "d/multi.bin"), P(c, "d/c.txt"), false, S);
  CHECK_CODE(S, TF_ALREADY_EXISTS);
  expect_content(P(c, "d/c.txt"), "other", 5);
  TFE_CopyFile(P(c, "d/multi.bin"), P(c, "d/c.txt"), true, S);
  CHECK_CODE(S, TF_OK);
  expect_content(P(c, "d/c.txt"), "ab\0cab\0cab\0c", 12);
  /* Into a directory: the copy keeps the source's name. */
  TFE_CopyFile(P(c, "d/c.txt"), P(c, "d/moved"), false, S);
  CHECK_CODE(S, TF_OK);
  expect_content(P(c, "d/moved/c.txt"), "ab\0cab\0cab\0c", 12);
  TFE_CopyFile(P(c, "d/c.txt"), P(c, "d/moved"), false, S);
  CHECK_CODE(S, TF_ALREADY_EXISTS);
  TFE_CopyFile(P(c, "d/c.txt"), P(c, "d/c.txt"), true, S);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  expect_content(P(c, "d/c.txt"), "ab\0cab\0cab\0c", 12);
  TFE_CopyFile(P(c, "d/nope"), P(c, "d/x"), true, S);
  CHECK_CODE(S, TF_NOT_FOUND);
  TFE_CopyFile(P(c, "d/sub"), P(c, "d/x"), true, S);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
}

static void body_glob(const scheme_case* c) {
  TF_StringStream* ss;
  char want[4096];
  ss = TFE_GetMatchingPaths(P(c, "d/*.txt"), S);
  CHECK_CODE(S, TF_OK);
  snprintf(want, sizeof want, "%s", P(c, "d/c.txt"));
  CHECK_STR_EQ_FREE(fs_stream_join(ss), want);

  ss = TFE_GetMatchingPaths(P(c, "d/*/?.txt"), S);
  CHECK_CODE(S, TF_OK);
  snprintf(want, sizeof want, "%s,%s", P(c, "d/moved/c.txt"),
           P(c, "d/sub/b.txt"));
  CHECK_STR_EQ_FREE(fs_stream_join(ss), want);

  ss = TFE_GetMatchingPaths(P(c, "d/[ms]*"), S);
  CHECK_CODE(S, TF_OK);
  snprintf(want, sizeof want, "%s,%s,%s", P(c, "d/moved"),
           P(c, "d/multi.bin"), P(c, "d/sub"));
  CHECK_STR_EQ_FREE(fs_stream_join(ss), want);

  /* Below a missing directory: no matches, no error. */
  ss = TFE_GetMatchingPaths(P(c, "nothere/*"), S);
  CHECK_CODE(S, TF_OK);
  CHECK_STR_EQ_FREE(fs_stream_join(ss), "");
}

static void body_deletes(const scheme_case* c) {
  int64_t uf = -1, ud = -1;
  TF_DeleteFile(P(c, "d/empty"), S);
  CHECK_CODE(S, TF_OK);
  TF_DeleteFile(P(c, "d/empty"), S);
  CHECK_CODE(S, TF_NOT_FOUND);
  TF_DeleteFile(P(c, "d/sub"), S);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  TF_DeleteDir(P(c, "d"), S);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  TF_DeleteDir(P(c, "nope"), S);
  CHECK_CODE(S, TF_NOT_FOUND);
  TF_DeleteDir(P(c, "d/c.txt"), S);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
  TF_CreateDir(P(c, "emptydir"), S);
  CHECK_CODE(S, TF_OK);
  TF_DeleteDir(P(c, "emptydir"), S);
  CHECK_CODE(S, TF_OK);
  TFE_FileExists(P(c, "emptydir"), S);
  CHECK_CODE(S, TF_NOT_FOUND);

  TF_DeleteRecursively(P(c, "d"), &uf, &ud, S);
  CHECK_CODE(S, TF_OK);
  CHECK_EQ_INT(uf, 0);
  CHECK_EQ_INT(ud, 0);
  TFE_FileExists(P(c, "d"), S);
  CHECK_CODE(S, TF_NOT_FOUND);
  uf = ud = -1;
  TF_DeleteRecursively(P(c, "d"), &uf, &ud, S);
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK_EQ_INT(uf, 0);
  CHECK_EQ_INT(ud, 1);

  /* A plain file is simply deleted. */
  fs_write_str(P(c, "lonely"), "x");
  TF_DeleteRecursively(P(c, "lonely"), &uf, &ud, S);
  CHECK_CODE(S, TF_OK);
  CHECK_EQ_INT(uf + ud, 0);

  /* Recursive creation over a file fails. */
  fs_write_str(P(c, "plain"), "x");
  TFE_RecursivelyCreateDir(P(c, "plain/below"), S);
  CHECK_CODE(S, TF_FAILED_PRECONDITION);
}

/* A file larger than the core's copy chunk and the local write buffer,
 * written in uneven pieces. */
static void body_large(const scheme_case* c) {
  size_t total = 3 * 1024 * 1024 + 17, off = 0, piece = 1;
  char* data = (char*)malloc(total);
  TF_WritableFileHandle* h = NULL;
  TF_FileStatistics st;
  for (size_t i = 0; i < total; i++) data[i] = (char)(i * 131 + (i >> 13));
  TF_NewWritableFile(P(c, "large.bin"), &h, S);
  CHECK_CODE(S, TF_OK);
  while (off < total) {
    size_t n = piece < total - off ? piece : total - off;
    TF_AppendWritableFile(h, data + off, n, S);
    CHECK_CODE(S, TF_OK);
    off += n;
    piece = piece * 7 % 300007 + 1;
  }
  TF_CloseWritableFile(h, S);
  CHECK_CODE(S, TF_OK);
  stat_ok(P(c, "large.bin"), &st);
  CHECK_EQ_INT(st.length, (int64_t)total);
  expect_content(P(c, "large.bin"), data, total);
  TFE_CopyFile(P(c, "large.bin"), P(c, "large2.bin"), false, S);
  CHECK_CODE(S, TF_OK);
  expect_content(P(c, "large2.bin"), data, total);
  free(data);
}

static void conformance(const scheme_case* c) {
  S = TF_NewStatus();
  body_directories(c);
  body_files(c);
  body_reading(c);
  body_listing(c);
  body_rename_copy(c);
  body_glob(c);
  body_deletes(c);
  body_large(c);
  TF_DeleteStatus(S);
}

TEST(local_plain_paths) {
  char* dir = fs_make_tempdir();
  char base[1100];
  scheme_case c;
  snprintf(base, sizeof base, "%s/base", dir);
  c.base = base;
  c.implicit_parents = false;
  conformance(&c);
  fs_remove_tree(dir);
  free(dir);
}

TEST(local_file_uris) {
  char* dir = fs_make_tempdir();
  char base[1100];
  scheme_case c;
  snprintf(base, sizeof base, "file://%s/base", dir);
  c.base = base;
  c.implicit_parents = false;
  conformance(&c);
  fs_remove_tree(dir);
  free(dir);
}

TEST(ram) {
  scheme_case c = {"ram://bucket/base", true};
  conformance(&c);
}

TEST(ram_without_host) {
  scheme_case c = {"ram:///top/base", true};
  conformance(&c);
}

TEST(testfs_plugin) {
  char* root = fs_register_testfs();
  scheme_case c = {"testfs://host/base", false};
  conformance(&c);
  fs_remove_tree(root);
  free(root);
}

/* Copies between filesystems stream through the file tables. */
TEST(copy_between_schemes) {
  TF_Status* s = TF_NewStatus();
  char* root = fs_register_testfs();
  char* dir = fs_make_tempdir();
  size_t total = 2 * 1024 * 1024 + 5;
  char* data = (char*)malloc(total);
  char local[1100], back[1100];
  size_t n = 0;
  char* got;
  for (size_t i = 0; i < total; i++) data[i] = (char)(i % 251);
  snprintf(local, sizeof local, "%s/src.bin", dir);
  snprintf(back, sizeof back, "%s/back.bin", dir);
  fs_write(local, data, total);
  TFE_CopyFile(local, "ram://x/copy.bin", false, s);
  CHECK_CODE(s, TF_OK);
  TFE_CopyFile("ram://x/copy.bin", "testfs://h/copy.bin", false, s);
  CHECK_CODE(s, TF_NOT_FOUND); /* testfs needs its parent directory */
  TFE_RecursivelyCreateDir("testfs://h", s);
  CHECK_CODE(s, TF_OK);
  TFE_CopyFile("ram://x/copy.bin", "testfs://h/copy.bin", false, s);
  CHECK_CODE(s, TF_OK);
  TFE_CopyFile("testfs://h/copy.bin", back, false, s);
  CHECK_CODE(s, TF_OK);
  got = fs_read(back, &n);
  CHECK_EQ_SIZE(n, total);
  CHECK(memcmp(got, data, total) == 0);
  free(got);
  /* Rename cannot cross filesystems. */
  TFE_RenameFile("ram://x/copy.bin", "testfs://h/renamed.bin", false, s);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  free(data);
  fs_remove_tree(dir);
  fs_remove_tree(root);
  free(dir);
  free(root);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
