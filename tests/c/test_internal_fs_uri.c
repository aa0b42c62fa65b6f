/* White-box tests of the filesystem layer's path helpers (csrc/fs/uri.h):
 * URI splitting, scheme validity, lexical cleaning and joining. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "fs/uri.h"
#include "tfe_test.h"

static void parse_is(const char* uri, const char* scheme, const char* host,
                     const char* path) {
  tfe_uri u;
  tfe_uri_parse(uri, &u);
  CHECK_EQ_SIZE(u.scheme_len, strlen(scheme));
  CHECK(strncmp(u.scheme, scheme, u.scheme_len) == 0);
  CHECK_EQ_SIZE(u.host_len, strlen(host));
  CHECK(strncmp(u.host, host, u.host_len) == 0);
  CHECK_STR_EQ(u.path, path);
  CHECK_EQ_SIZE(u.prefix_len, (size_t)(u.path - uri));
}

TEST(parse) {
  parse_is("/tmp/x", "", "", "/tmp/x");
  parse_is("rel/x", "", "", "rel/x");
  parse_is("", "", "", "");
  parse_is("file:///tmp/x", "file", "", "/tmp/x");
  parse_is("gs://bucket/a/b", "gs", "bucket", "/a/b");
  parse_is("gs://bucket", "gs", "bucket", "");
  parse_is("s3.x://h/", "s3.x", "h", "/");
  /* Not a scheme: the whole string is a local path. */
  parse_is("my-fs://h/p", "", "", "my-fs://h/p");
  parse_is("1fs://h/p", "", "", "1fs://h/p");
  parse_is("ram:/x", "", "", "ram:/x");
  parse_is("://x", "", "", "://x");
}

TEST(scheme_validity) {
  CHECK(tfe_scheme_is_valid(""));
  CHECK(tfe_scheme_is_valid("gs"));
  CHECK(tfe_scheme_is_valid("a1.b2"));
  CHECK(!tfe_scheme_is_valid(NULL));
  CHECK(!tfe_scheme_is_valid("1a"));
  CHECK(!tfe_scheme_is_valid("my-fs"));
  CHECK(!tfe_scheme_is_valid("a+b"));
  CHECK(!tfe_scheme_is_valid("a b"));
  CHECK(!tfe_scheme_is_valid(".a"));
}

static void clean_is(const char* in, const char* want) {
  char* got = tfe_path_clean(in, strlen(in));
  CHECK_STR_EQ(got, want);
  tfe_free(got);
}

TEST(clean) {
  clean_is("", ".");
  clean_is(".", ".");
  clean_is("/", "/");
  clean_is("//", "/");
  clean_is("/a/b/", "/a/b");
  clean_is("/a//b", "/a/b");
  clean_is("/a/./b", "/a/b");
  clean_is("/a/../b", "/b");
  clean_is("/..", "/");
  clean_is("/../a", "/a");
  clean_is("a/..", ".");
  clean_is("a/../..", "..");
  clean_is("../a", "../a");
  clean_is("../../a/..", "../..");
  clean_is("a/b/../../c", "c");
  clean_is("./a", "a");
  clean_is("a/./b/.", "a/b");
  clean_is("/a/b/c/../../d", "/a/d");
}

static void join_is(const char* a, const char* b, const char* want) {
  char* got = tfe_uri_join(a, b);
  CHECK_STR_EQ(got, want);
  tfe_free(got);
}

TEST(join) {
  join_is("", "x", "x");
  join_is("/", "x", "/x");
  join_is("/a", "x", "/a/x");
  join_is("/a/", "x", "/a/x");
  join_is("a", "x", "a/x");
  join_is("ram://h", "x", "ram://h/x");
  join_is("ram://h/", "x", "ram://h/x");
  join_is("ram://h///", "x", "ram://h/x");
  join_is("file://", "x", "file:///x");
  join_is("file:///", "x", "file:///x");
  join_is("gs://b/dir", "x", "gs://b/dir/x");
}

TEST(basename) {
  CHECK_STR_EQ(tfe_path_basename("/a/b"), "b");
  CHECK_STR_EQ(tfe_path_basename("b"), "b");
  CHECK_STR_EQ(tfe_path_basename("/a/"), "");
}

TFE_TEST_MAIN
