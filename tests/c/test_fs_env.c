/* env.h beyond the per-scheme conformance body: NULL arguments, status
 * handling, listing order, temporary directories and names, clocks,
 * threads and shared libraries. */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <time.h>

#include "test_fs_util.h"
#include "tfe/tfe.h"

TEST(null_arguments_are_rejected_not_crashed) {
  TF_Status* s = TF_NewStatus();
  TF_FileStatistics st;
  TF_WritableFileHandle* h = (TF_WritableFileHandle*)1;
  int64_t uf = -1, ud = -1;
  TF_CreateDir(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteDir(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteFile(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteRecursively(NULL, &uf, &ud, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(uf, 0);
  CHECK_EQ_INT(ud, 1);
  TF_FileStat(NULL, &st, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_FileStat("/tmp", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_NewWritableFile(NULL, &h, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(h == NULL);
  TF_NewWritableFile("/tmp/x", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_AppendWritableFile(NULL, "x", 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_FlushWritableFile(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_SyncWritableFile(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_CloseWritableFile(NULL, s); /* harmless no-op */
  CHECK_CODE(s, TF_OK);
  TF_StringStreamDone(TF_GetChildren(NULL, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(!TF_StringStreamNext(NULL, NULL));
  TF_StringStreamDone(NULL);
  TF_JoinThread(NULL);
  TF_DefaultThreadOptions(NULL);
  CHECK(TF_StartThread(NULL, "x", NULL, NULL) == NULL);
  CHECK(TF_LoadSharedLibrary(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_GetSymbolFromLibrary(NULL, "x", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* tfe's extensions. */
  TFE_FileExists(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(!TFE_IsDirectory(NULL, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_GetFileSize(NULL, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_RenameFile(NULL, "x", false, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_CopyFile("x", NULL, false, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_GetMatchingPaths(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_NewRandomAccessFile(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_ReadRandomAccessFile(NULL, 0, 1, NULL, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_TellWritableFile(NULL, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_NewReadOnlyMemoryRegionFromFile(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_ReadOnlyMemoryRegionData(NULL) == NULL);
  CHECK_EQ_INT(TFE_ReadOnlyMemoryRegionLength(NULL), 0);
  TFE_DeleteReadOnlyMemoryRegion(NULL);
  TFE_DeleteRandomAccessFile(NULL);
  TF_DeleteStatus(s);
}

TEST(null_status_is_allowed) {
  char* dir = fs_make_tempdir();
  TF_WritableFileHandle* h = NULL;
  TF_FileStatistics st;
  TF_CreateDir(fs_join(dir, "a"), NULL);
  TF_CreateDir(fs_join(dir, "a"), NULL); /* fails, silently */
  TF_NewWritableFile(fs_join(dir, "a/f"), &h, NULL);
  CHECK(h != NULL);
  TF_AppendWritableFile(h, "abc", 3, NULL);
  TF_FlushWritableFile(h, NULL);
  TF_SyncWritableFile(h, NULL);
  TF_CloseWritableFile(h, NULL);
  memset(&st, 0, sizeof st);
  TF_FileStat(fs_join(dir, "a/f"), &st, NULL);
  CHECK_EQ_INT(st.length, 3);
  TF_StringStreamDone(TF_GetChildren(dir, NULL));
  TF_DeleteRecursively(dir, NULL, NULL, NULL);
  TF_FileStat(dir, &st, NULL);
  CHECK(access(dir, F_OK) != 0);
  free(dir);
}

TEST(children_are_sorted_bytewise) {
  char* dir = fs_make_tempdir();
  const char* names[] = {"b", "B", "a10", "a2", "_", "a", "z.txt"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    fs_write_str(fs_join(dir, names[i]), "");
  }
  CHECK_STR_EQ_FREE(fs_children(dir), "B,_,a,a10,a2,b,z.txt");
  fs_remove_tree(dir);
  free(dir);
}

TEST(get_children_returns_a_list_even_on_error) {
  TF_Status* s = TF_NewStatus();
  TF_StringStream* ss = TF_GetChildren("/nonexistent/tfe/dir", s);
  const char* item = (const char*)1;
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK(ss != NULL);
  CHECK(!TF_StringStreamNext(ss, &item));
  CHECK(item == NULL);
  TF_StringStreamDone(ss);
  TF_DeleteStatus(s);
}

TEST(status_is_reset_on_success) {
  TF_Status* s = TF_NewStatus();
  char* dir = fs_make_tempdir();
  TF_SetStatus(s, TF_INTERNAL, "stale");
  TF_CreateDir(fs_join(dir, "x"), s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TF_Message(s), "");
  fs_remove_tree(dir);
  free(dir);
  TF_DeleteStatus(s);
}

TEST(relative_paths_use_the_working_directory) {
  char* dir = fs_make_tempdir();
  char old[1024];
  TF_Status* s = TF_NewStatus();
  CHECK(getcwd(old, sizeof old) != NULL);
  CHECK(chdir(dir) == 0);
  TF_CreateDir("rel", s);
  CHECK_CODE(s, TF_OK);
  fs_write_str("rel/./f.txt", "r");
  CHECK_STR_EQ_FREE(fs_children("rel"), "f.txt");
  CHECK_STR_EQ_FREE(fs_children("rel/../rel/"), "f.txt");
  CHECK(access("rel/f.txt", F_OK) == 0);
  CHECK(chdir(old) == 0);
  fs_remove_tree(dir);
  free(dir);
  TF_DeleteStatus(s);
}

TEST(unclosed_writable_file_buffers_reach_the_file_on_close) {
  char* dir = fs_make_tempdir();
  TF_Status* s = TF_NewStatus();
  TF_WritableFileHandle* h = NULL;
  struct stat st;
  TF_NewWritableFile(fs_join(dir, "f"), &h, s);
  CHECK_CODE(s, TF_OK);
  TF_AppendWritableFile(h, "small", 5, s);
  CHECK_CODE(s, TF_OK);
  /* Small appends may sit in a buffer until flushed or closed... */
  TF_FlushWritableFile(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK(stat(fs_join(dir, "f"), &st) == 0);
  CHECK_EQ_INT(st.st_size, 5);
  TF_AppendWritableFile(h, "more", 4, s);
  TF_CloseWritableFile(h, s);
  CHECK_CODE(s, TF_OK);
  /* ...and a closed file has everything. */
  CHECK(stat(fs_join(dir, "f"), &st) == 0);
  CHECK_EQ_INT(st.st_size, 9);
  fs_remove_tree(dir);
  free(dir);
  TF_DeleteStatus(s);
}

TEST(mmap_region_of_a_local_file) {
  char* dir = fs_make_tempdir();
  TF_Status* s = TF_NewStatus();
  TFE_ReadOnlyMemoryRegion* r;
  fs_write_str(fs_join(dir, "m"), "mapped bytes");
  r = TFE_NewReadOnlyMemoryRegionFromFile(fs_join(dir, "m"), s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_ReadOnlyMemoryRegionLength(r), 12);
  CHECK(memcmp(TFE_ReadOnlyMemoryRegionData(r), "mapped bytes", 12) == 0);
  TFE_DeleteReadOnlyMemoryRegion(r);
  CHECK(TFE_NewReadOnlyMemoryRegionFromFile(dir, s) == NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  fs_remove_tree(dir);
  free(dir);
  TF_DeleteStatus(s);
}

TEST(ram_host_is_the_first_directory) {
  TF_Status* s = TF_NewStatus();
  fs_write_str("ram://bucket/x/y.bin", "data");
  CHECK_STR_EQ_FREE(fs_read("ram:///bucket/x/y.bin", NULL), "data");
  CHECK_STR_EQ_FREE(fs_read("ram://bucket//x/./z/../y.bin", NULL), "data");
  CHECK_STR_EQ_FREE(fs_children("ram://"), "bucket");
  CHECK_STR_EQ_FREE(fs_children("ram://bucket"), "x");
  TF_DeleteDir("ram://", s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  TF_DeleteStatus(s);
}

TEST(ram_open_files_survive_delete_and_truncate) {
  TF_Status* s = TF_NewStatus();
  TFE_RandomAccessFile* f;
  TF_WritableFileHandle* h = NULL;
  char buf[8];
  fs_write_str("ram://t/f", "before");
  f = TFE_NewRandomAccessFile("ram://t/f", s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteFile("ram://t/f", s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_ReadRandomAccessFile(f, 0, 6, buf, s), 6);
  CHECK(memcmp(buf, "before", 6) == 0);
  TFE_DeleteRandomAccessFile(f);
  /* A writer whose file is renamed keeps writing into it. */
  TF_NewWritableFile("ram://t/g", &h, s);
  TF_AppendWritableFile(h, "ab", 2, s);
  TFE_RenameFile("ram://t/g", "ram://t/h", false, s);
  CHECK_CODE(s, TF_OK);
  TF_AppendWritableFile(h, "cd", 2, s);
  TF_CloseWritableFile(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ_FREE(fs_read("ram://t/h", NULL), "abcd");
  TF_DeleteStatus(s);
}

static void write_5k(void* p) {
  const char* path = (const char*)p;
  TF_Status* s = TF_NewStatus();
  TF_WritableFileHandle* h = NULL;
  TF_NewWritableFile(path, &h, s);
  for (int i = 0; i < 1000 && h != NULL; i++) {
    TF_AppendWritableFile(h, "abcde", 5, s);
  }
  TF_CloseWritableFile(h, s);
  TF_DeleteStatus(s);
}

TEST(threads_from_several_writers_on_ram) {
  /* Several threads append to their own ram:// files at once. */
  TF_Thread* threads[4];
  TF_ThreadOptions opts;
  static const char* paths[4] = {"ram://mt/0", "ram://mt/1", "ram://mt/2",
                                 "ram://mt/3"};
  TF_DefaultThreadOptions(&opts);
  opts.stack_size = 256 * 1024;
  for (int i = 0; i < 4; i++) {
    threads[i] = TF_StartThread(&opts, "writer", write_5k, (void*)paths[i]);
    CHECK(threads[i] != NULL);
  }
  for (int i = 0; i < 4; i++) TF_JoinThread(threads[i]);
  for (int i = 0; i < 4; i++) {
    size_t n = 0;
    char* got = fs_read(paths[i], &n);
    CHECK_EQ_SIZE(n, 1000 * 5);
    free(got);
  }
}

TEST(temp_directories_and_names) {
  TF_StringStream* ss = TF_GetLocalTempDirectories();
  const char* d;
  int n = 0;
  char *a, *b;
  size_t la;
  while (TF_StringStreamNext(ss, &d)) {
    struct stat st;
    CHECK(d[0] == '/');
    CHECK(stat(d, &st) == 0 && S_ISDIR(st.st_mode));
    n++;
  }
  TF_StringStreamDone(ss);
  CHECK(n >= 1);
  a = TF_GetTempFileName(".ext");
  b = TF_GetTempFileName(".ext");
  CHECK(a != NULL && b != NULL);
  la = strlen(a);
  CHECK(a[0] == '/');
  CHECK(la > 4 && strcmp(a + la - 4, ".ext") == 0);
  CHECK(strcmp(a, b) != 0);
  CHECK(access(a, F_OK) != 0); /* a name, not a file */
  free(a); /* plain free(), as TF documents */
  free(b);
  a = TF_GetTempFileName(NULL);
  CHECK(a != NULL);
  free(a);
}

TEST(temp_directories_honour_the_environment) {
  char* dir = fs_make_tempdir();
  TF_StringStream* ss;
  const char* first = NULL;
  CHECK(setenv("TEST_TMPDIR", dir, 1) == 0);
  ss = TF_GetLocalTempDirectories();
  CHECK(TF_StringStreamNext(ss, &first));
  CHECK_STR_EQ(first, dir);
  TF_StringStreamDone(ss);
  {
    char* name = TF_GetTempFileName("");
    CHECK(strncmp(name, dir, strlen(dir)) == 0);
    free(name);
  }
  unsetenv("TEST_TMPDIR");
  fs_remove_tree(dir);
  free(dir);
}

TEST(clocks_agree) {
  uint64_t s0 = TF_NowSeconds(), us = TF_NowMicros(), ns = TF_NowNanos();
  struct timespec ts;
  CHECK(us / 1000000 >= s0 && us / 1000000 <= s0 + 1);
  CHECK(ns / 1000 >= us && ns / 1000 <= us + 1000000);
  clock_gettime(CLOCK_REALTIME, &ts);
  CHECK((uint64_t)ts.tv_sec >= s0 && (uint64_t)ts.tv_sec <= s0 + 2);
}

static void record_name(void* p) {
  char* out = (char*)p;
  pthread_getname_np(pthread_self(), out, 16);
}

static void double_it(void* p) { *(int*)p *= 2; }

TEST(threads_run_and_join) {
  TF_ThreadOptions opts;
  TF_Thread* t;
  int value = 21;
  char name[16] = {0};
  memset(&opts, 0xff, sizeof opts);
  TF_DefaultThreadOptions(&opts);
  CHECK_EQ_SIZE(opts.stack_size, 0);
  CHECK_EQ_SIZE(opts.guard_size, 0);
  CHECK_EQ_INT(opts.numa_node, -1);
  t = TF_StartThread(&opts, "tfe-worker", double_it, &value);
  CHECK(t != NULL);
  TF_JoinThread(t);
  CHECK_EQ_INT(value, 42);
  /* Names longer than the kernel keeps are truncated, not refused. */
  t = TF_StartThread(NULL, "a-rather-long-thread-name", record_name, name);
  CHECK(t != NULL);
  TF_JoinThread(t);
  CHECK_STR_EQ(name, "a-rather-long-t");
  opts.stack_size = 1; /* below the minimum: raised, not refused */
  opts.guard_size = 8192;
  t = TF_StartThread(&opts, NULL, double_it, &value);
  CHECK(t != NULL);
  TF_JoinThread(t);
  CHECK_EQ_INT(value, 84);
}

TEST(shared_libraries) {
  TF_Status* s = TF_NewStatus();
  void* h = TF_LoadSharedLibrary("/nonexistent/libnothing.so", s);
  void* sym;
  CHECK(h == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "/nonexistent/libnothing.so");
  h = TF_LoadSharedLibrary(fs_plugin_path("fs_testfs"), s);
  CHECK_CODE(s, TF_OK);
  CHECK(h != NULL);
  sym = TF_GetSymbolFromLibrary(h, "TF_InitPlugin", s);
  CHECK_CODE(s, TF_OK);
  CHECK(sym != NULL);
  sym = TF_GetSymbolFromLibrary(h, "no_such_symbol_here", s);
  CHECK(sym == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "no_such_symbol_here");
  TF_DeleteStatus(s);
}

TEST(fault_injection_reports_resource_exhausted) {
  /* Every allocation the core makes can fail; each failure must surface
   * as an error (or a NULL return), never a crash or a leak. */
  char* dir = fs_make_tempdir();
  TF_Status* s = TF_NewStatus();
  for (int64_t n = 0; n < 40; n++) {
    TF_StringStream* ss;
    TFE_TestFailAllocationsAfter(n);
    ss = TF_GetChildren(dir, s);
    TF_StringStreamDone(ss);
    ss = TFE_GetMatchingPaths(fs_join(dir, "*"), s);
    TF_StringStreamDone(ss);
    TFE_RecursivelyCreateDir(fs_join(dir, "a/b/c"), s);
    TFE_TestFailAllocationsAfter(-1);
  }
  TFE_TestFailAllocationsAfter(-1);
  fs_remove_tree(dir);
  free(dir);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
