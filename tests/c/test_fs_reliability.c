/* Filesystem promises under stress (issue 13, defect 6):
 *   - exclusive creation is atomic on the built-in filesystems: of several
 *     threads racing to create one file, exactly one wins, every time;
 *   - recursive delete is iterative and linear: a 10,000-level tree goes
 *     in well under a second, on a thread with a 256 KiB stack, on ram://
 *     and on local disk (which is deeper than PATH_MAX allows to name);
 *     the default used for plugins is iterative too;
 *   - glob with repeated "* /.." stays linear and returns each directory
 *     once;
 *   - a file truncated by another handle behaves the same on ram:// as on
 *     the POSIX local filesystem. */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <pthread.h>
#include <time.h>

#include "test_fs_util.h"
#include "tfe/tfe.h"

static double now_sec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------ exclusive create */

#define RACERS 4

typedef struct race {
  pthread_barrier_t* start;
  const char* path;
  int code;
  TF_WritableFileHandle* handle;
} race;

static void* racer(void* p) {
  race* r = (race*)p;
  TF_Status* s = TF_NewStatus();
  r->handle = NULL;
  pthread_barrier_wait(r->start);
  TFE_NewExclusiveWritableFile(r->path, &r->handle, s);
  r->code = (int)TF_GetCode(s);
  TF_DeleteStatus(s);
  return NULL;
}

/* `trials` rounds of RACERS threads creating `dir`/f<i>; exactly one
 * succeeds per round, the others get ALREADY_EXISTS. */
static void race_body(const char* dir, int trials) {
  double t0 = now_sec();
  for (int t = 0; t < trials; t++) {
    pthread_barrier_t start;
    pthread_t th[RACERS];
    race r[RACERS];
    char path[1024];
    int wins = 0;
    snprintf(path, sizeof path, "%s/f%d", dir, t);
    CHECK(pthread_barrier_init(&start, NULL, RACERS) == 0);
    for (int i = 0; i < RACERS; i++) {
      r[i].start = &start;
      r[i].path = path;
      CHECK(pthread_create(&th[i], NULL, racer, &r[i]) == 0);
    }
    for (int i = 0; i < RACERS; i++) CHECK(pthread_join(th[i], NULL) == 0);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < RACERS; i++) {
      if (r[i].code == TF_OK) {
        TF_Status* s = TF_NewStatus();
        CHECK(r[i].handle != NULL);
        wins++;
        TF_AppendWritableFile(r[i].handle, "w", 1, s);
        CHECK_CODE(s, TF_OK);
        TF_CloseWritableFile(r[i].handle, s);
        CHECK_CODE(s, TF_OK);
        TF_DeleteStatus(s);
      } else {
        CHECK_EQ_INT(r[i].code, TF_ALREADY_EXISTS);
        CHECK(r[i].handle == NULL);
      }
    }
    CHECK_EQ_INT(wins, 1);
  }
  CHECK(now_sec() - t0 < 20.0);
}

TEST(exclusive_create_race_ram) { race_body("ram://xrace", 300); }

TEST(exclusive_create_race_local) {
  char* dir = fs_make_tempdir();
  race_body(dir, 300);
  fs_remove_tree(dir);
  free(dir);
}

static void exclusive_semantics(const char* base) {
  TF_Status* s = TF_NewStatus();
  TF_WritableFileHandle* h = (TF_WritableFileHandle*)1;
  const char* f = fs_join(base, "new.txt");
  TFE_RecursivelyCreateDir(base, s);
  CHECK_CODE(s, TF_OK);
  TFE_NewExclusiveWritableFile(f, &h, s);
  CHECK_CODE(s, TF_OK);
  CHECK(h != NULL);
  TF_AppendWritableFile(h, "abc", 3, s);
  TF_CloseWritableFile(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ_FREE(fs_read(f, NULL), "abc");
  /* An existing file is left alone. */
  h = (TF_WritableFileHandle*)1;
  TFE_NewExclusiveWritableFile(f, &h, s);
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  CHECK(h == NULL);
  CHECK_STR_EQ_FREE(fs_read(f, NULL), "abc");
  /* So is a directory. */
  TFE_NewExclusiveWritableFile(base, &h, s);
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  CHECK(h == NULL);
  TFE_NewExclusiveWritableFile(NULL, &h, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_NewExclusiveWritableFile(f, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_NewExclusiveWritableFile("nosuchscheme://x/y", &h, s);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  TFE_NewExclusiveWritableFile(f, &h, NULL); /* NULL status: still runs */
  CHECK(h == NULL);
  TF_DeleteStatus(s);
}

TEST(exclusive_create_semantics_ram) { exclusive_semantics("ram://xsem/d"); }

TEST(exclusive_create_semantics_local) {
  char* dir = fs_make_tempdir();
  exclusive_semantics(dir);
  fs_remove_tree(dir);
  free(dir);
}

/* Plugins: check-then-create (not atomic, but correct without a race). */
TEST(exclusive_create_semantics_plugin) {
  char* root = fs_register_testfs();
  exclusive_semantics("testfs:///xsem");
  free(root);
}

/* ---------------------------------------------------- recursive delete */

typedef struct delete_job {
  const char* path;
  int64_t files, dirs;
  int code;
  double seconds;
} delete_job;

static void* delete_thread(void* p) {
  delete_job* j = (delete_job*)p;
  TF_Status* s = TF_NewStatus();
  double t0 = now_sec();
  TF_DeleteRecursively(j->path, &j->files, &j->dirs, s);
  j->seconds = now_sec() - t0;
  j->code = (int)TF_GetCode(s);
  TF_DeleteStatus(s);
  return NULL;
}

/* TF_DeleteRecursively(path) on a thread with a 256 KiB stack. */
static delete_job delete_on_small_stack(const char* path) {
  pthread_attr_t attr;
  pthread_t th;
  delete_job j;
  memset(&j, 0, sizeof j);
  j.path = path;
  CHECK(pthread_attr_init(&attr) == 0);
  CHECK(pthread_attr_setstacksize(&attr, 256 * 1024) == 0);
  CHECK(pthread_create(&th, &attr, delete_thread, &j) == 0);
  CHECK(pthread_join(th, NULL) == 0);
  pthread_attr_destroy(&attr);
  return j;
}

#define DEEP 10000

TEST(deep_tree_delete_ram) {
  TF_Status* s = TF_NewStatus();
  size_t n = strlen("ram://deep") + 2 * DEEP + 1;
  char* p = (char*)malloc(n + 16);
  delete_job j;
  char* end = p + strlen("ram://deep");
  strcpy(p, "ram://deep");
  for (int i = 0; i < DEEP; i++, end += 2) memcpy(end, "/x", 3);
  TFE_RecursivelyCreateDir(p, s);
  CHECK_CODE(s, TF_OK);
  /* Files along the way, and a sibling tree that must survive. */
  strcat(p, "/leaf.txt");
  fs_write_str(p, "leaf");
  fs_write_str("ram://deep/x/mid.txt", "mid");
  fs_write_str("ram://deepkeep/y.txt", "keep");
  j = delete_on_small_stack("ram://deep");
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(j.code, TF_OK);
  CHECK_EQ_INT(j.files, 0);
  CHECK_EQ_INT(j.dirs, 0);
  printf("ram:// %d levels deleted in %.3f s\n", DEEP, j.seconds);
  CHECK(j.seconds < 0.5);
  TFE_FileExists("ram://deep", s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ_FREE(fs_read("ram://deepkeep/y.txt", NULL), "keep");
  /* A missing path: 0 files, 1 directory, NOT_FOUND (as in TensorFlow). */
  j = delete_on_small_stack("ram://deep");
  CHECK_EQ_INT(j.code, TF_NOT_FOUND);
  CHECK_EQ_INT(j.files, 0);
  CHECK_EQ_INT(j.dirs, 1);
  free(p);
  TF_DeleteStatus(s);
}

/* A local tree deeper than PATH_MAX lets anyone name: built with mkdirat
 * relative to the previous level. */
TEST(deep_tree_delete_local) {
  /* On tmpfs when there is one: on a journaling disk the kernel itself
   * takes tens of seconds for this many nested directories (rm -rf too). */
  char* dir = strdup("/dev/shm/tfe-fs-deep-XXXXXX");
  if (mkdtemp(dir) == NULL) {
    free(dir);
    dir = fs_make_tempdir();
  }
  char top[1100];
  int fd;
  delete_job j;
  TF_Status* s = TF_NewStatus();
  snprintf(top, sizeof top, "%s/deep", dir);
  CHECK(mkdir(top, 0700) == 0);
  fd = open(top, O_RDONLY | O_DIRECTORY);
  CHECK(fd >= 0);
  for (int i = 0; i < DEEP; i++) {
    int next, f;
    CHECK(mkdirat(fd, "x", 0700) == 0);
    if (i % 1000 == 0) {
      f = openat(fd, "file.txt", O_WRONLY | O_CREAT, 0600);
      CHECK(f >= 0);
      close(f);
    }
    next = openat(fd, "x", O_RDONLY | O_DIRECTORY);
    CHECK(next >= 0);
    close(fd);
    fd = next;
  }
  close(fd);
  j = delete_on_small_stack(top);
  CHECK_EQ_INT(j.code, TF_OK);
  CHECK_EQ_INT(j.files, 0);
  CHECK_EQ_INT(j.dirs, 0);
  printf("local %d levels deleted in %.3f s\n", DEEP, j.seconds);
  CHECK(j.seconds < 3.0);
  TFE_FileExists(top, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  TF_DeleteStatus(s);
  fs_remove_tree(dir);
  free(dir);
}

/* Symbolic links inside the tree are removed, not followed. */
TEST(local_delete_does_not_follow_symlinks) {
  char* dir = fs_make_tempdir();
  char outside[900], tree[900], link[1000];
  delete_job j;
  snprintf(outside, sizeof outside, "%s/outside", dir);
  snprintf(tree, sizeof tree, "%s/tree/a", dir);
  TF_Status* s = TF_NewStatus();
  TFE_RecursivelyCreateDir(outside, s);
  TFE_RecursivelyCreateDir(tree, s);
  CHECK_CODE(s, TF_OK);
  fs_write_str(fs_join(outside, "precious.txt"), "keep");
  snprintf(link, sizeof link, "%s/link", tree);
  CHECK(symlink(outside, link) == 0);
  snprintf(tree, sizeof tree, "%s/tree", dir);
  j = delete_on_small_stack(tree);
  CHECK_EQ_INT(j.code, TF_OK);
  TFE_FileExists(tree, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ_FREE(fs_read(fs_join(outside, "precious.txt"), NULL), "keep");
  /* A file: deleted; a missing path: NOT_FOUND with 1 directory. */
  fs_write_str(fs_join(dir, "f"), "x");
  j = delete_on_small_stack(fs_join(dir, "f"));
  CHECK_EQ_INT(j.code, TF_OK);
  j = delete_on_small_stack(fs_join(dir, "f"));
  CHECK_EQ_INT(j.code, TF_NOT_FOUND);
  CHECK_EQ_INT(j.dirs, 1);
  TF_DeleteStatus(s);
  fs_remove_tree(dir);
  free(dir);
}

/* Failures are counted and the walk goes on: a directory the process
 * cannot write keeps its file; everything else goes. */
TEST(local_delete_counts_what_it_cannot_delete) {
  char* dir = fs_make_tempdir();
  char locked[900];
  delete_job j;
  TF_Status* s = TF_NewStatus();
  if (geteuid() == 0) { /* root ignores permissions: nothing to test */
    fs_remove_tree(dir);
    free(dir);
    TF_DeleteStatus(s);
    return;
  }
  snprintf(locked, sizeof locked, "%s/t/locked", dir);
  TFE_RecursivelyCreateDir(locked, s);
  TFE_RecursivelyCreateDir(fs_join(dir, "t/open/sub"), s);
  CHECK_CODE(s, TF_OK);
  fs_write_str(fs_join(locked, "stuck.txt"), "x");
  fs_write_str(fs_join(dir, "t/open/sub/gone.txt"), "x");
  CHECK(chmod(locked, 0500) == 0);
  j = delete_on_small_stack(fs_join(dir, "t"));
  CHECK_EQ_INT(j.code, TF_PERMISSION_DENIED);
  CHECK_EQ_INT(j.files, 1);
  CHECK_EQ_INT(j.dirs, 2); /* "locked" and "t" stay */
  TFE_FileExists(fs_join(dir, "t/open"), s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK(chmod(locked, 0700) == 0);
  TF_DeleteStatus(s);
  fs_remove_tree(dir);
  free(dir);
}

/* The default for plugins (get_children + deletes), on the testfs plugin,
 * as deep as its local backing directory allows, on a small stack. */
TEST(deep_tree_delete_plugin_default) {
  char* root = fs_register_testfs();
  TF_Status* s = TF_NewStatus();
  enum { LEVELS = 500 };
  char* p = (char*)malloc(32 + 2 * LEVELS);
  delete_job j;
  strcpy(p, "testfs:///deep");
  for (int i = 0; i < LEVELS; i++) strcat(p, "/x");
  TFE_RecursivelyCreateDir(p, s);
  CHECK_CODE(s, TF_OK);
  strcat(p, "/f.txt");
  fs_write_str(p, "x");
  fs_write_str("testfs:///deep/x/g.txt", "x");
  j = delete_on_small_stack("testfs:///deep");
  CHECK_EQ_INT(j.code, TF_OK);
  CHECK_EQ_INT(j.files, 0);
  CHECK_EQ_INT(j.dirs, 0);
  printf("testfs %d levels deleted in %.3f s\n", LEVELS, j.seconds);
  TFE_FileExists("testfs:///deep", s);
  CHECK_CODE(s, TF_NOT_FOUND);
  free(p);
  free(root);
  TF_DeleteStatus(s);
}

/* ----------------------------------------------------------------- glob */

static char* glob_join(const char* pattern) {
  TF_Status* s = TF_NewStatus();
  TF_StringStream* ss = TFE_GetMatchingPaths(pattern, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  return fs_stream_join(ss);
}

static void glob_dotdot_body(const char* base_in) {
  TF_Status* s = TF_NewStatus();
  char* base = strdup(base_in);
  char pattern[512], want[2048], path[1100];
  double t0;
  const char* names = "abcdefgh";
  want[0] = '\0';
  for (const char* c = names; *c; c++) {
    snprintf(path, sizeof path, "%s/%c/in", base, *c);
    TFE_RecursivelyCreateDir(path, s);
    CHECK_CODE(s, TF_OK);
    if (c != names) strcat(want, ",");
    snprintf(path, sizeof path, "%s/%c", base, *c);
    strcat(want, path);
  }
  snprintf(path, sizeof path, "%s/a/in/f.txt", base);
  fs_write_str(path, "x");
  /* 10 rounds of "* /..": 8^10 paths if nothing were merged. */
  snprintf(pattern, sizeof pattern, "%s/", base);
  for (int i = 0; i < 10; i++) strcat(pattern, "*/../");
  strcat(pattern, "*");
  t0 = now_sec();
  CHECK_STR_EQ_FREE(glob_join(pattern), want);
  printf("%zu-character pattern: %.3f s\n", strlen(pattern), now_sec() - t0);
  CHECK(now_sec() - t0 < 1.0);
  /* "x/.." resolves to the directory holding x; "." to itself. */
  snprintf(pattern, sizeof pattern, "%s/*/..", base);
  CHECK_STR_EQ_FREE(glob_join(pattern), base);
  snprintf(pattern, sizeof pattern, "%s/*/in/../in/./f.txt", base);
  snprintf(path, sizeof path, "%s/a/in/f.txt", base);
  CHECK_STR_EQ_FREE(glob_join(pattern), path);
  snprintf(pattern, sizeof pattern, "%s/?/*/../../b", base);
  snprintf(path, sizeof path, "%s/b", base);
  CHECK_STR_EQ_FREE(glob_join(pattern), path);
  /* ".." below a file, or a missing name, matches nothing. */
  snprintf(pattern, sizeof pattern, "%s/a/in/*/..", base);
  CHECK_STR_EQ_FREE(glob_join(pattern), "");
  snprintf(pattern, sizeof pattern, "%s/*/missing/..", base);
  CHECK_STR_EQ_FREE(glob_join(pattern), "");
  free(base);
  TF_DeleteStatus(s);
}

TEST(glob_repeated_dotdot_ram) { glob_dotdot_body("ram://globdd/t"); }

TEST(glob_repeated_dotdot_local) {
  char* dir = fs_make_tempdir();
  char base[1100];
  snprintf(base, sizeof base, "%s/t", dir);
  glob_dotdot_body(base);
  fs_remove_tree(dir);
  free(dir);
}

/* ------------------------------------------------ truncation by others */

static int64_t tell(TF_WritableFileHandle* h) {
  TF_Status* s = TF_NewStatus();
  int64_t pos = TFE_TellWritableFile(h, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  return pos;
}

static void append_flush(TF_WritableFileHandle* h, const char* data) {
  TF_Status* s = TF_NewStatus();
  TF_AppendWritableFile(h, data, strlen(data), s);
  CHECK_CODE(s, TF_OK);
  TF_FlushWritableFile(h, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

static void read_at(TFE_RandomAccessFile* r, uint64_t off, size_t n,
                    const char* want, size_t want_n, int want_code) {
  TF_Status* s = TF_NewStatus();
  char buf[64];
  int64_t got = TFE_ReadRandomAccessFile(r, off, n, buf, s);
  CHECK_CODE(s, want_code);
  CHECK_EQ_INT(got, (int64_t)want_n);
  CHECK(memcmp(buf, want, want_n) == 0);
  TF_DeleteStatus(s);
}

/* One script of handles sharing a file, with what POSIX gives. */
static void truncation_body(const char* dir) {
  TF_Status* s = TF_NewStatus();
  char* f = strdup(fs_join(dir, "shared.bin"));
  TF_WritableFileHandle *w1, *w2, *a, *w3;
  TFE_RandomAccessFile* r;
  TF_FileStatistics st;
  static const char k12[] = "abef\0\0\0\0\0\0cd";
  TFE_RecursivelyCreateDir(dir, s);
  CHECK_CODE(s, TF_OK);
  TF_NewWritableFile(f, &w1, s);
  CHECK_CODE(s, TF_OK);
  append_flush(w1, "0123456789");
  CHECK_EQ_INT(tell(w1), 10);
  TFE_NewAppendableFile(f, &a, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(tell(a), 10);
  r = TFE_NewRandomAccessFile(f, s);
  CHECK_CODE(s, TF_OK);
  read_at(r, 0, 10, "0123456789", 10, TF_OK);
  /* Another writer truncates. */
  TF_NewWritableFile(f, &w2, s);
  CHECK_CODE(s, TF_OK);
  TF_FileStat(f, &st, s);
  CHECK_EQ_INT(st.length, 0);
  /* Reads past the new end: nothing, OUT_OF_RANGE. */
  read_at(r, 5, 5, "", 0, TF_OUT_OF_RANGE);
  append_flush(w2, "ab");
  /* The appender writes at the end as it is now. */
  append_flush(a, "XY");
  CHECK_EQ_INT(tell(a), 4);
  read_at(r, 0, 10, "abXY", 4, TF_OUT_OF_RANGE);
  /* The first writer keeps its offset: a zero-filled gap, then its data. */
  append_flush(w1, "cd");
  CHECK_EQ_INT(tell(w1), 12);
  /* The second writer overwrites at its own offset. */
  append_flush(w2, "ef");
  CHECK_EQ_INT(tell(w2), 4);
  read_at(r, 0, 20, k12, 12, TF_OUT_OF_RANGE);
  TF_FileStat(f, &st, s);
  CHECK_EQ_INT(st.length, 12);
  /* Deleted while open: the handles go on with the unnamed file. */
  TF_DeleteFile(f, s);
  CHECK_CODE(s, TF_OK);
  append_flush(a, "Z");
  CHECK_EQ_INT(tell(a), 13);
  read_at(r, 10, 5, "cdZ", 3, TF_OUT_OF_RANGE);
  TFE_FileExists(f, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  /* A new file by that name is a different file. */
  TF_NewWritableFile(f, &w3, s);
  CHECK_CODE(s, TF_OK);
  append_flush(w3, "new");
  read_at(r, 0, 3, "abe", 3, TF_OK);
  CHECK_STR_EQ_FREE(fs_read(f, NULL), "new");
  TF_CloseWritableFile(w1, s);
  CHECK_CODE(s, TF_OK);
  TF_CloseWritableFile(w2, s);
  TF_CloseWritableFile(a, s);
  TF_CloseWritableFile(w3, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteRandomAccessFile(r);
  free(f);
  TF_DeleteStatus(s);
}

TEST(truncation_by_another_handle_local) {
  char* dir = fs_make_tempdir();
  truncation_body(dir);
  fs_remove_tree(dir);
  free(dir);
}

TEST(truncation_by_another_handle_ram) { truncation_body("ram://trunc"); }

/* ------------------------------------------------ allocation failures */

static void build_fault_trees(void) {
  TF_Status* s = TF_NewStatus();
  TFE_RecursivelyCreateDir("ram://fi/t/a/in", s);
  TFE_RecursivelyCreateDir("ram://fi/t/b/in", s);
  TFE_RecursivelyCreateDir("testfs:///fi/a/x", s);
  TFE_RecursivelyCreateDir("testfs:///fi/b", s);
  CHECK_CODE(s, TF_OK);
  fs_write_str("testfs:///fi/a/x/f", "x");
  TF_DeleteStatus(s);
}

/* Every core allocation in the new paths (glob levels, exclusive create,
 * the plugin default recursive delete) fails in turn: each call ends with
 * OK or RESOURCE_EXHAUSTED, never a crash or a leak (ASan checks). */
TEST(allocation_failures_are_clean) {
  char* root = fs_register_testfs();
  TF_Status* s = TF_NewStatus();
  int64_t files, dirs;
  bool done = false;
  int64_t n;
  for (n = 0; !done && n < 5000; n++) {
    TF_StringStream* ss;
    TF_WritableFileHandle* h = NULL;
    int codes[3];
    build_fault_trees();
    TFE_TestFailAllocationsAfter(n);
    ss = TFE_GetMatchingPaths("ram://fi/t/*/../*/in", s);
    codes[0] = (int)TF_GetCode(s);
    TF_StringStreamDone(ss);
    TFE_NewExclusiveWritableFile("ram://fi/new", &h, s);
    codes[1] = (int)TF_GetCode(s);
    TF_DeleteRecursively("testfs:///fi", &files, &dirs, s);
    codes[2] = (int)TF_GetCode(s);
    TFE_TestFailAllocationsAfter(-1);
    if (h != NULL) {
      TF_CloseWritableFile(h, s);
      CHECK_CODE(s, TF_OK);
    }
    for (int i = 0; i < 3; i++) {
      if (codes[i] != TF_OK && codes[i] != TF_RESOURCE_EXHAUSTED) {
        TFE_FAIL("n=%lld call %d: code %d", (long long)n, i, codes[i]);
      }
    }
    done = codes[0] == TF_OK && codes[1] == TF_OK && codes[2] == TF_OK;
    TF_DeleteRecursively("ram://fi", &files, &dirs, s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteRecursively("testfs:///fi", &files, &dirs, s);
  }
  CHECK(done);
  printf("completed once %lld allocations succeeded\n", (long long)n - 1);
  free(root);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
