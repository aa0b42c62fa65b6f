/* Binary compatibility with plugins built against TensorFlow.
 *
 * Such plugins carry a NEEDED entry for libtensorflow_framework.so.2 and
 * import the C API (TF_SetStatus, ...) from it. This test builds, at run
 * time, a stand-in "libtensorflow_framework.so.2" and links the testfs
 * plugin source against it, exactly as a plugin build against TensorFlow
 * would, then loads the plugin with libtfe: tfe's own
 * libtensorflow_framework.so.2 (built next to libtfe) must satisfy the
 * NEEDED entry, and the plugin's TF_* calls must land in libtfe.
 *
 * Two stand-ins are built: one that exports nothing, and one shaped like
 * TensorFlow's real library, whose TF_* functions carry the symbol
 * version "tensorflow" (so the plugin's references are versioned) and
 * abort if ever called. The plugin source is also compiled as C++, which
 * proves that a plugin written against filesystem_interface.h and
 * tf_status.h alone compiles unchanged against tfe's headers.
 *
 * Each TEST needs a process of its own (ctest runs them that way): they
 * register the same scheme, and the last one must run before any plugin
 * was loaded. */
#define _GNU_SOURCE 1
#include <sys/wait.h>

#include "test_fs_util.h"

#ifndef TFE_TEST_CC
#define TFE_TEST_CC "cc"
#endif
#ifndef TFE_TEST_CXX
#define TFE_TEST_CXX "c++"
#endif
#ifndef TFE_TEST_SOURCE_DIR
#define TFE_TEST_SOURCE_DIR "."
#endif

static char g_dir[256];

/* Runs a shell command; on failure prints its output and fails. */
static void run(const char* cmd) {
  char full[8192];
  int rc;
  snprintf(full, sizeof full, "(%s) >%s/cmd.log 2>&1", cmd, g_dir);
  rc = system(full);
  if (rc != 0) {
    char cat[512];
    snprintf(cat, sizeof cat, "cat %s/cmd.log >&2", g_dir);
    (void)system(cat);
    TFE_FAIL("command failed (%d): %s", rc, cmd);
  }
}

static void write_text(const char* name, const char* text) {
  FILE* f = fopen(fs_join(g_dir, name), "w");
  CHECK(f != NULL);
  fputs(text, f);
  fclose(f);
}

/* A stand-in framework library that exports nothing. */
static void build_empty_stub(void) {
  char cmd[2048];
  write_text("stub.c", "typedef int tfe_stub_exports_nothing;\n");
  snprintf(cmd, sizeof cmd,
           "%s -shared -fPIC -o %s/stub/libtensorflow_framework.so.2 "
           "-Wl,-soname,libtensorflow_framework.so.2 %s/stub.c",
           TFE_TEST_CC, g_dir, g_dir);
  run(cmd);
}

/* A stand-in shaped like TensorFlow's: the C API under version node
 * "tensorflow", each function aborting. */
static void build_versioned_stub(void) {
  char cmd[2048];
  write_text("vstub.c",
             "#include <stdlib.h>\n"
             "void TF_SetStatus(void) { abort(); }\n"
             "void TF_SetStatusFromIOError(void) { abort(); }\n"
             "void TF_GetCode(void) { abort(); }\n"
             "void TF_Message(void) { abort(); }\n"
             "void TF_NewStatus(void) { abort(); }\n"
             "void TF_DeleteStatus(void) { abort(); }\n");
  write_text("vstub.lds", "tensorflow {\n  global:\n    *;\n};\n");
  snprintf(cmd, sizeof cmd,
           "%s -shared -fPIC -o %s/vstub/libtensorflow_framework.so.2 "
           "-Wl,-soname,libtensorflow_framework.so.2 "
           "-Wl,--version-script=%s/vstub.lds %s/vstub.c",
           TFE_TEST_CC, g_dir, g_dir, g_dir);
  run(cmd);
}

/* Builds the testfs plugin source as `out`, linked against the stand-in
 * in `stubdir`, with compiler `cc` and extra flags. */
static const char* build_plugin(const char* cc, const char* lang,
                                const char* stubdir, const char* out) {
  static char path[1024];
  char cmd[4096];
  snprintf(path, sizeof path, "%s/%s", g_dir, out);
  snprintf(cmd, sizeof cmd,
           "%s %s -shared -fPIC -Wall -Wextra -Werror -I%s/include "
           "-o %s %s/tests/plugins/fs_testfs.c "
           "-Wl,--no-as-needed -L%s/%s -l:libtensorflow_framework.so.2",
           cc, lang, TFE_TEST_SOURCE_DIR, path, TFE_TEST_SOURCE_DIR, g_dir,
           stubdir);
  run(cmd);
  /* The plugin really depends on the framework library. */
  snprintf(cmd, sizeof cmd,
           "if command -v readelf >/dev/null; then readelf -d %s | "
           "grep -q 'NEEDED.*libtensorflow_framework.so.2'; fi",
           path);
  run(cmd);
  return path;
}

static void setup_dir(void) {
  char cmd[1024];
  snprintf(g_dir, sizeof g_dir, "/tmp/tfe-compat-XXXXXX");
  CHECK(mkdtemp(g_dir) != NULL);
  snprintf(cmd, sizeof cmd, "mkdir -p %s/stub %s/vstub %s/root", g_dir, g_dir,
           g_dir);
  run(cmd);
  CHECK(setenv("TFE_TESTFS_ROOT", fs_join(g_dir, "root"), 1) == 0);
}

/* The plugin works: files written through it land in its root. */
static void exercise_testfs(void) {
  TF_Status* s = TF_NewStatus();
  fs_write_str("testfs:///hello.txt", "hi from a TF-style plugin");
  CHECK_STR_EQ_FREE(fs_read("testfs:///hello.txt", NULL),
                    "hi from a TF-style plugin");
  CHECK(access(fs_join(g_dir, "root/hello.txt"), F_OK) == 0);
  /* The plugin's errors come through libtfe's TF_SetStatusFromIOError. */
  TF_DeleteFile("testfs:///missing", s);
  CHECK_CODE(s, TF_NOT_FOUND);
  TF_DeleteStatus(s);
}

static void cleanup_dir(void) { fs_remove_tree(g_dir); }

TEST(compat_library_is_built_next_to_libtfe) {
#ifdef TFE_TEST_COMPAT_LIB
  char cmd[1024];
  CHECK(access(TFE_TEST_COMPAT_LIB, F_OK) == 0);
  snprintf(g_dir, sizeof g_dir, "/tmp");
  /* Its SONAME is TensorFlow's and it defines the version node. */
  snprintf(cmd, sizeof cmd,
           "if command -v readelf >/dev/null; then "
           "readelf -d %s | grep -q 'SONAME.*libtensorflow_framework.so.2' && "
           "readelf -V %s | grep -q 'Name: tensorflow' && "
           "readelf -d %s | grep -q 'NEEDED.*libtfe.so'; fi",
           TFE_TEST_COMPAT_LIB, TFE_TEST_COMPAT_LIB, TFE_TEST_COMPAT_LIB);
  run(cmd);
#endif
}

TEST(plugin_linked_against_an_empty_framework_stub) {
  TF_Status* s = TF_NewStatus();
  const char* plugin;
  setup_dir();
  build_empty_stub();
  plugin = build_plugin(TFE_TEST_CC, "-x c -std=c99", "stub", "libplugc.so");
  TF_RegisterFilesystemPlugin(plugin, s);
  CHECK_CODE(s, TF_OK);
  exercise_testfs();
  cleanup_dir();
  TF_DeleteStatus(s);
}

TEST(plugin_in_cxx_linked_against_a_tf_shaped_framework) {
  TF_Status* s = TF_NewStatus();
  const char* plugin;
  setup_dir();
  build_versioned_stub();
  plugin = build_plugin(TFE_TEST_CXX, "-x c++ -std=c++11", "vstub",
                        "libplugcxx.so");
  {
    /* Its TF_* references carry the version "tensorflow". */
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "if command -v readelf >/dev/null; then readelf -V %s | "
             "grep -q 'Name: tensorflow'; fi",
             plugin);
    run(cmd);
  }
  TF_RegisterFilesystemPlugin(plugin, s);
  CHECK_CODE(s, TF_OK);
  exercise_testfs();
  cleanup_dir();
  TF_DeleteStatus(s);
}

TEST(without_the_compat_library_such_plugins_do_not_load) {
  TF_Status* s = TF_NewStatus();
  const char* plugin;
  char* before;
  setup_dir();
  build_empty_stub();
  plugin = build_plugin(TFE_TEST_CC, "-x c -std=c99", "stub", "libplugc.so");
  /* Switch the compatibility library off (before the first plugin load of
   * this process). */
  CHECK(setenv("TFE_FRAMEWORK_COMPAT_LIBRARY", "", 1) == 0);
  before = fs_schemes();
  TF_RegisterFilesystemPlugin(plugin, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "libtensorflow_framework.so.2");
  CHECK_STR_EQ_FREE(fs_schemes(), before);
  free(before);
  cleanup_dir();
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
