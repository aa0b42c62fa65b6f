/* Glob semantics (TFE_GetMatchingPaths): '*', '?', bracket sets, escapes,
 * matching per path segment, the form of the results, and a missing
 * directory. Runs on ram:// and on the local filesystem, whose listing
 * code differs but whose results must not. */
#define _GNU_SOURCE 1
#include "test_fs_util.h"

static TF_Status* S;

/* Matches of `pattern` (relative to base) with base stripped, joined. */
static char* matches(const char* base, const char* pattern) {
  TF_StringStream* ss = TFE_GetMatchingPaths(fs_join(base, pattern), S);
  size_t bl = strlen(base) + 1, cap = 1024, n = 0;
  char* out = (char*)malloc(cap);
  const char* item;
  int count = 0;
  CHECK_CODE(S, TF_OK);
  out[0] = '\0';
  while (TF_StringStreamNext(ss, &item)) {
    size_t l;
    CHECK(strncmp(item, base, bl - 1) == 0 && item[bl - 1] == '/');
    item += bl;
    l = strlen(item);
    CHECK(n + l + 2 < cap);
    if (count++ > 0) out[n++] = ',';
    memcpy(out + n, item, l + 1);
    n += l;
  }
  TF_StringStreamDone(ss);
  return out;
}

static void make_tree(const char* base) {
  static const char* dirs[] = {"a", "a/x", "a/y", "b", "b/x", "c[1]", "d.d"};
  static const char* files[] = {"a/1.txt",   "a/2.txt",   "a/10.txt",
                                "a/x/deep.txt", "a/y/deep.log", "b/x/deep.txt",
                                "b/readme",  "c[1]/f",    "d.d/e",
                                "star*name", "q?mark",    ".hidden"};
  TFE_RecursivelyCreateDir(base, S);
  CHECK_CODE(S, TF_OK);
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    TF_CreateDir(fs_join(base, dirs[i]), S);
    CHECK_CODE(S, TF_OK);
  }
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    fs_write_str(fs_join(base, files[i]), "x");
  }
}

static void glob_body(const char* base) {
  S = TF_NewStatus();
  make_tree(base);
  CHECK_STR_EQ_FREE(matches(base, "a/*.txt"), "a/1.txt,a/10.txt,a/2.txt");
  CHECK_STR_EQ_FREE(matches(base, "a/?.txt"), "a/1.txt,a/2.txt");
  CHECK_STR_EQ_FREE(matches(base, "a/[12].txt"), "a/1.txt,a/2.txt");
  CHECK_STR_EQ_FREE(matches(base, "a/[0-1]*.txt"), "a/1.txt,a/10.txt");
  CHECK_STR_EQ_FREE(matches(base, "a/[!1]*"), "a/2.txt,a/x,a/y");
  CHECK_STR_EQ_FREE(matches(base, "a/[^1]*"), "a/2.txt,a/x,a/y");
  /* '*' never crosses a '/': one segment at a time. */
  CHECK_STR_EQ_FREE(matches(base, "*/deep.txt"), "");
  CHECK_STR_EQ_FREE(matches(base, "*/*/deep.txt"), "a/x/deep.txt,b/x/deep.txt");
  CHECK_STR_EQ_FREE(matches(base, "*/x/*"), "a/x/deep.txt,b/x/deep.txt");
  CHECK_STR_EQ_FREE(matches(base, "a/*/deep.*"), "a/x/deep.txt,a/y/deep.log");
  CHECK_STR_EQ_FREE(matches(base, "?/x"), "a/x,b/x");
  /* Escapes and literal specials. */
  CHECK_STR_EQ_FREE(matches(base, "star\\*name"), "star*name");
  CHECK_STR_EQ_FREE(matches(base, "q\\?mark"), "q?mark");
  CHECK_STR_EQ_FREE(matches(base, "c\\[1\\]/*"), "c[1]/f");
  CHECK_STR_EQ_FREE(matches(base, "c[[]1]/f"), "c[1]/f");
  CHECK_STR_EQ_FREE(matches(base, "d.d/*"), "d.d/e");
  /* Like TensorFlow (unlike a shell), '*' also matches dot files. */
  CHECK_STR_EQ_FREE(matches(base, ".h*"), ".hidden");
  /* No wildcard: the path itself, if it exists. */
  CHECK_STR_EQ_FREE(matches(base, "b/readme"), "b/readme");
  CHECK_STR_EQ_FREE(matches(base, "b/nothing"), "");
  /* Below a missing directory, or a file: nothing, and no error. */
  CHECK_STR_EQ_FREE(matches(base, "missing/*"), "");
  CHECK_STR_EQ_FREE(matches(base, "missing/*/x"), "");
  CHECK_STR_EQ_FREE(matches(base, "b/readme/*"), "");
  /* Unterminated bracket: a literal '['. */
  CHECK_STR_EQ_FREE(matches(base, "a/[1.txt"), "");
  /* Duplicate slashes are tolerated. */
  CHECK_STR_EQ_FREE(matches(base, "a//?.txt"), "a/1.txt,a/2.txt");
  TF_DeleteStatus(S);
}

TEST(ram_glob) { glob_body("ram://globs/tree"); }

TEST(local_glob) {
  char* dir = fs_make_tempdir();
  glob_body(dir);
  fs_remove_tree(dir);
  free(dir);
}

TEST(testfs_glob) {
  char* root = fs_register_testfs();
  glob_body("testfs://h/tree");
  fs_remove_tree(root);
  free(root);
}

TEST(relative_local_pattern) {
  char* dir = fs_make_tempdir();
  char old[1024];
  TF_StringStream* ss;
  S = TF_NewStatus();
  CHECK(getcwd(old, sizeof old) != NULL);
  CHECK(chdir(dir) == 0);
  fs_write_str("one.txt", "1");
  TF_CreateDir("sub", S);
  fs_write_str("sub/two.txt", "2");
  ss = TFE_GetMatchingPaths("*.txt", S);
  CHECK_CODE(S, TF_OK);
  CHECK_STR_EQ_FREE(fs_stream_join(ss), "one.txt");
  ss = TFE_GetMatchingPaths("*/*.txt", S);
  CHECK_STR_EQ_FREE(fs_stream_join(ss), "sub/two.txt");
  CHECK(chdir(old) == 0);
  fs_remove_tree(dir);
  free(dir);
  TF_DeleteStatus(S);
}

TEST(unregistered_scheme) {
  TF_Status* s = TF_NewStatus();
  CHECK(TFE_GetMatchingPaths("nope://x/*", s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
