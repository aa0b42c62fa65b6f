/* TF_LoadLibrary, TF_GetOpList, TF_DeleteLibraryHandle: argument checks,
 * missing and non-loadable files, plugins that bind to this runtime, live
 * counts and allocation failures. Plugins come from tests/plugins/. */
#define _GNU_SOURCE 1 /* memmem */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

#define PROBE_PLUGIN TFE_TEST_PLUGIN_DIR "/status_probe_plugin.so"
#define EMPTY_PLUGIN TFE_TEST_PLUGIN_DIR "/lib_empty.so"
#define UNRESOLVED_PLUGIN TFE_TEST_PLUGIN_DIR "/lib_unresolved.so"
#define BAD_OP_PLUGIN TFE_TEST_PLUGIN_DIR "/lib_bad_op_attr.so"
#define REDEF_PLUGIN TFE_TEST_PLUGIN_DIR "/lib_redefines_builtin.so"

static int64_t live_libraries(void) {
  return TFE_LiveObjectCount(TFE_OBJ_LIBRARY);
}

/* Makes a fresh temporary directory; the path is written to dir. */
static void make_temp_dir(char* dir, size_t cap) {
  const char* base = getenv("TMPDIR");
  snprintf(dir, cap, "%s/tfe_test_library_XXXXXX",
           base != NULL && base[0] != '\0' ? base : "/tmp");
  if (mkdtemp(dir) == NULL) TFE_FAIL("mkdtemp failed for %s", dir);
}

static void write_file(const char* path, const char* contents) {
  FILE* f = fopen(path, "wb");
  if (f == NULL) TFE_FAIL("cannot create %s", path);
  fputs(contents, f);
  fclose(f);
}

/* Loads `path` expecting failure with `code`; the message names the path
 * and nothing leaks. */
static void expect_load_failure(const char* path, TF_Code code) {
  TF_Status* s = TF_NewStatus();
  int64_t libs = live_libraries();
  TF_Library* lib = TF_LoadLibrary(path, s);
  CHECK(lib == NULL);
  CHECK_CODE(s, code);
  CHECK_STR_CONTAINS(TF_Message(s), path);
  CHECK_EQ_INT(live_libraries(), libs);
  TF_DeleteStatus(s);
}

TEST(null_and_empty_names_are_invalid) {
  TF_Status* s = TF_NewStatus();
  int64_t libs = live_libraries();
  CHECK(TF_LoadLibrary(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strlen(TF_Message(s)) > 0);
  TF_SetStatus(s, TF_OK, "");
  CHECK(TF_LoadLibrary("", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(live_libraries(), libs);
  TF_DeleteStatus(s);
}

TEST(missing_file_is_not_found) {
  expect_load_failure("/nonexistent/dir/libtfe_no_such_plugin.so",
                      TF_NOT_FOUND);
  expect_load_failure("libtfe_no_such_plugin_on_the_search_path.so",
                      TF_NOT_FOUND);
}

TEST(text_file_is_not_found) {
  char dir[512], path[600];
  make_temp_dir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/not_a_library.so", dir);
  write_file(path, "this is plain text, not an ELF shared object\n");
  expect_load_failure(path, TF_NOT_FOUND);
  /* An empty file as well. */
  write_file(path, "");
  expect_load_failure(path, TF_NOT_FOUND);
  unlink(path);
  /* A directory is not a library either. */
  expect_load_failure(dir, TF_NOT_FOUND);
  rmdir(dir);
}

TEST(unresolved_symbol_is_not_found) {
  TF_Status* s = TF_NewStatus();
  TF_Library* lib = TF_LoadLibrary(UNRESOLVED_PLUGIN, s);
  CHECK(lib == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), UNRESOLVED_PLUGIN);
  /* The loader's reason is passed on, naming the missing symbol. */
  CHECK_STR_CONTAINS(TF_Message(s), "tfe_test_symbol_that_nobody_defines");
  TF_DeleteStatus(s);
}

TEST(probe_plugin_binds_to_this_runtime) {
  TF_Status* s = TF_NewStatus();
  int64_t statuses, libs = live_libraries();
  TF_Library* lib;
  /* The probe's constructor only runs on the first load in a process. */
  void* already = dlopen(PROBE_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
  if (already != NULL) {
    dlclose(already);
    TFE_FAIL("probe plugin already loaded; run this test on its own");
  }
  TF_SetStatus(s, TF_INTERNAL, "stale error from before");
  statuses = TFE_LiveObjectCount(TFE_OBJ_STATUS);
  lib = TF_LoadLibrary(PROBE_PLUGIN, s);
  CHECK_CODE(s, TF_OK);
  CHECK(lib != NULL);
  /* The plugin made two statuses through our TF_NewStatus, deleted one
   * and kept the other: exactly one more is alive. */
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_STATUS), statuses + 1);
  CHECK_EQ_INT(live_libraries(), libs + 1);
  {
    TF_Buffer ops = TF_GetOpList(lib);
    CHECK_EQ_SIZE(ops.length, 0);
  }
  TF_DeleteLibraryHandle(lib);
  CHECK_EQ_INT(live_libraries(), libs);
  TF_DeleteStatus(s);
}

TEST(empty_plugin_loads_and_registers_nothing) {
  TF_Status* s = TF_NewStatus();
  int64_t libs = live_libraries();
  TF_Library* lib = TF_LoadLibrary(EMPTY_PLUGIN, s);
  TF_Buffer ops;
  void* h;
  int (*loads)(void);
  CHECK_CODE(s, TF_OK);
  CHECK(lib != NULL);
  CHECK_EQ_INT(live_libraries(), libs + 1);

  /* The library is really mapped and its constructor ran once. */
  h = dlopen(EMPTY_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
  CHECK(h != NULL);
  *(void**)&loads = dlsym(h, "tfe_test_lib_empty_loads");
  CHECK(loads != NULL);
  CHECK_EQ_INT(loads(), 1);

  ops = TF_GetOpList(lib);
  CHECK_EQ_SIZE(ops.length, 0);

  /* Loading it again gives a second handle; the constructor does not run
   * again. */
  {
    TF_Library* again = TF_LoadLibrary(EMPTY_PLUGIN, s);
    CHECK_CODE(s, TF_OK);
    CHECK(again != NULL);
    CHECK(again != lib);
    CHECK_EQ_INT(live_libraries(), libs + 2);
    CHECK_EQ_INT(loads(), 1);
    TF_DeleteLibraryHandle(again);
  }
  TF_DeleteLibraryHandle(lib);
  CHECK_EQ_INT(live_libraries(), libs);

  /* The code stays mapped after the handle is gone. */
  CHECK_EQ_INT(loads(), 1);
  dlclose(h);
  TF_DeleteStatus(s);
}

TEST(op_list_and_delete_accept_null) {
  TF_Buffer ops = TF_GetOpList(NULL);
  int64_t libs = live_libraries();
  CHECK(ops.data == NULL);
  CHECK_EQ_SIZE(ops.length, 0);
  CHECK(ops.data_deallocator == NULL);
  TF_DeleteLibraryHandle(NULL);
  CHECK_EQ_INT(live_libraries(), libs);
}

TEST(allocation_failure_is_resource_exhausted) {
  TF_Status* s = TF_NewStatus();
  int64_t libs = live_libraries();
  int saw_failure = 0, saw_success = 0;
  /* The built-in ops and kernels register on first use (TF_LoadLibrary
   * makes sure they are): do that before memory starts to fail. */
  TF_DeleteBuffer(TF_GetAllOpList());
  TF_DeleteBuffer(TF_GetAllRegisteredKernels(s));
  CHECK_CODE(s, TF_OK);
  for (int n = 0; n < 6; n++) {
    TF_Library* lib;
    TFE_TestFailAllocationsAfter(n);
    lib = TF_LoadLibrary(EMPTY_PLUGIN, s);
    TFE_TestFailAllocationsAfter(-1);
    if (lib == NULL) {
      saw_failure = 1;
      CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    } else {
      saw_success = 1;
      CHECK_CODE(s, TF_OK);
      TF_DeleteLibraryHandle(lib);
    }
    CHECK_EQ_INT(live_libraries(), libs);
  }
  CHECK(saw_failure);
  CHECK(saw_success);
  TF_DeleteStatus(s);
}

/* Whether op `name` is registered (TF_OpIsStateful looks it up). */
static int op_listed(const char* name) {
  TF_Status* s = TF_NewStatus();
  int found;
  TF_OpIsStateful(name, s);
  found = TF_GetCode(s) == TF_OK;
  CHECK(found || TF_GetCode(s) == TF_NOT_FOUND);
  TF_DeleteStatus(s);
  return found;
}

static int kernels_for(const char* op) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TF_GetRegisteredKernelsForOp(op, s);
  int n;
  CHECK_CODE(s, TF_OK);
  n = b->length > 0;
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
  return n;
}

static int bad_lib_int(const char* fn_name, int arg) {
  void* h = dlopen(BAD_OP_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
  int (*fn)(int);
  int v;
  CHECK(h != NULL);
  *(void**)&fn = dlsym(h, fn_name);
  CHECK(fn != NULL);
  v = fn(arg);
  dlclose(h);
  return v;
}

/* As in TF, a library whose op registration fails does not load:
 * INVALID_ARGUMENT with the registration's message, and NULL. tfe also
 * takes back what it registered before the failure (an op and its
 * kernel), and the op after it registers normally but is taken back too. */
TEST(library_with_a_malformed_attr_fails_and_registers_nothing) {
  TF_Status* s = TF_NewStatus();
  int64_t libs = live_libraries();
  int ops_before, kernels_before;
  TF_Buffer* all;
  TF_Library* lib;
  CHECK(!op_listed("TfeBadLibGood"));
  all = TF_GetAllRegisteredKernels(s);
  kernels_before = (int)all->length;
  TF_DeleteBuffer(all);
  all = TF_GetAllOpList();
  ops_before = (int)all->length;
  TF_DeleteBuffer(all);

  lib = TF_LoadLibrary(BAD_OP_PLUGIN, s);
  CHECK(lib == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "bad_attr:");
  CHECK_STR_CONTAINS(TF_Message(s), "TfeBadLibBroken");
  CHECK_EQ_INT(live_libraries(), libs);
  /* The constructor ran once and saw: OK, OK, the error, OK. */
  CHECK_EQ_INT(bad_lib_int("tfe_test_bad_lib_loads", 0), 1);
  CHECK_EQ_INT(bad_lib_int("tfe_test_bad_lib_code", 0), TF_OK);
  CHECK_EQ_INT(bad_lib_int("tfe_test_bad_lib_code", 1), TF_OK);
  CHECK_EQ_INT(bad_lib_int("tfe_test_bad_lib_code", 2), TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(bad_lib_int("tfe_test_bad_lib_code", 3), TF_OK);
  /* Nothing stays: no op, no kernel; the registries are as before. */
  CHECK(!op_listed("TfeBadLibGood"));
  CHECK(!op_listed("TfeBadLibBroken"));
  CHECK(!op_listed("TfeBadLibLater"));
  CHECK(!kernels_for("TfeBadLibGood"));
  TF_OpIsStateful("TfeBadLibGood", s);
  CHECK_CODE(s, TF_NOT_FOUND);
  all = TF_GetAllOpList();
  CHECK_EQ_INT((int)all->length, ops_before);
  TF_DeleteBuffer(all);
  all = TF_GetAllRegisteredKernels(s);
  CHECK_EQ_INT((int)all->length, kernels_before);
  TF_DeleteBuffer(all);

  /* Loading it again fails the same way (its constructor does not run
   * again), and other libraries still load. */
  lib = TF_LoadLibrary(BAD_OP_PLUGIN, s);
  CHECK(lib == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "bad_attr:");
  CHECK_EQ_INT(bad_lib_int("tfe_test_bad_lib_loads", 0), 1);
  lib = TF_LoadLibrary(EMPTY_PLUGIN, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteLibraryHandle(lib);
  CHECK(!op_listed("TfeBadLibGood"));
  TF_DeleteStatus(s);
}

/* A library that defines an op name already taken by a built-in loads,
 * as in TF (that definition is ignored; the built-in stays), and its own
 * ops are listed. */
TEST(redefining_a_builtin_op_does_not_fail_the_load) {
  TF_Status* s = TF_NewStatus();
  TF_Library* lib = TF_LoadLibrary(REDEF_PLUGIN, s);
  TF_Buffer ops;
  CHECK_CODE(s, TF_OK);
  CHECK(lib != NULL);
  CHECK(op_listed("TfeRedefOwn"));
  ops = TF_GetOpList(lib);
  CHECK(ops.length > 0);
  CHECK(memmem(ops.data, ops.length, "TfeRedefOwn", 11) != NULL);
  CHECK(memmem(ops.data, ops.length, "AddV2", 5) == NULL);
  TF_DeleteLibraryHandle(lib);
  TF_DeleteStatus(s);
}

TEST(version_is_2_21) {
  CHECK(TF_Version() != NULL);
  CHECK(strncmp(TF_Version(), "2.21", 4) == 0);
}

TFE_TEST_MAIN
