/* TF_RegisterFilesystemPlugin: the broken-plugin corpus (one plugin per
 * loader rule, each rejected with its exact message, leaving the registry
 * as it was and its allocations released with its own free), plugins of
 * older and newer table versions, table copies, and argument checks. */
#define _GNU_SOURCE 1
#include <fcntl.h>

#include "test_fs_util.h"

/* Live allocations of a loaded test plugin, or -1 if it exports no
 * counter or is not loaded. */
static long plugin_counter(const char* path, const char* symbol) {
  void* h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  long value = -1;
  if (h != NULL) {
    long (*fn)(void);
    *(void**)(&fn) = dlsym(h, symbol);
    if (fn != NULL) value = fn();
    dlclose(h);
  }
  return value;
}

static int plugin_int(const char* path, const char* symbol) {
  void* h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  int value = -1;
  if (h != NULL) {
    int (*fn)(void);
    *(void**)(&fn) = dlsym(h, symbol);
    if (fn != NULL) value = fn();
    dlclose(h);
  }
  return value;
}

/* Registers the plugin `name` expecting `code` and exactly the message
 * `fmt` with the plugin's path substituted for its %s. The registry must
 * be unchanged and, unless `leaks_by_design`, every block the plugin
 * handed over must have been freed. */
static void expect_rejected(const char* name, TF_Code code, const char* fmt,
                            bool leaks_by_design) {
  TF_Status* s = TF_NewStatus();
  const char* path = fs_plugin_path(name);
  char* before = fs_schemes();
  char want[2048];
  snprintf(want, sizeof want, fmt, path, path);
  TF_RegisterFilesystemPlugin(path, s);
  CHECK_CODE(s, code);
  CHECK_STR_EQ(TF_Message(s), want);
  CHECK_STR_EQ_FREE(fs_schemes(), before);
  if (!leaks_by_design && code != TF_NOT_FOUND) {
    CHECK_EQ_INT(plugin_counter(path, "fs_test_live_allocations"), 0);
  }
  free(before);
  TF_DeleteStatus(s);
}

TEST(builtin_schemes_are_registered) {
  TF_Status* s = TF_NewStatus();
  const char* origin = NULL;
  CHECK_STR_EQ_FREE(fs_schemes(), ",file,ram");
  TFE_GetFilesystemForScheme("ram", &origin, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(origin, "built-in ram filesystem");
  TFE_GetFilesystemForScheme("", &origin, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(origin, "built-in local filesystem");
  TFE_GetFilesystemForScheme("gs", &origin, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK(origin == NULL);
  TFE_GetFilesystemForScheme(NULL, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteStatus(s);
}

TEST(unregistered_scheme_is_unimplemented) {
  TF_Status* s = TF_NewStatus();
  TF_FileStatistics st;
  TF_FileStat("gs://bucket/x", &st, s);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "File system scheme 'gs' not implemented");
  TF_DeleteStatus(s);
}

TEST(arguments) {
  TF_Status* s = TF_NewStatus();
  char* before = fs_schemes();
  TF_RegisterFilesystemPlugin(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* As in TF, an empty path is a library that cannot be loaded. */
  TF_RegisterFilesystemPlugin("", s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s),
               "filesystem plugin: could not load '': the path is empty");
  TF_RegisterFilesystemPlugin("", NULL); /* no status: no crash */
  TF_RegisterFilesystemPlugin(NULL, NULL);
  TF_RegisterFilesystemPlugin("/nonexistent/dir/libfs.so", s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK(strncmp(TF_Message(s),
                "filesystem plugin: could not load "
                "'/nonexistent/dir/libfs.so': ",
                strlen("filesystem plugin: could not load "
                       "'/nonexistent/dir/libfs.so': ")) == 0);
  CHECK_STR_EQ_FREE(fs_schemes(), before);
  free(before);
  TF_DeleteStatus(s);
}

/* ---------------------------------------------------- the broken corpus */

TEST(rule_entry_point_missing) {
  expect_rejected("fs_broken_no_entry", TF_NOT_FOUND,
                  "filesystem plugin '%s' does not export the entry point "
                  "TF_InitPlugin",
                  false);
}

TEST(rule_memory_free_missing) {
  expect_rejected("fs_broken_no_free", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s': "
                  "TF_FilesystemPluginInfo.plugin_memory_free is NULL; the "
                  "core needs it to release what the plugin allocated",
                  true);
}

TEST(rule_memory_allocate_missing) {
  expect_rejected("fs_broken_no_alloc", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s': "
                  "TF_FilesystemPluginInfo.plugin_memory_allocate is NULL",
                  false);
}

/* TF loads a plugin that declares no scheme and registers nothing; the
 * (empty) ops array it handed over is released with its own free. */
TEST(no_schemes_loads_and_registers_nothing) {
  TF_Status* s = TF_NewStatus();
  const char* path = fs_plugin_path("fs_broken_no_schemes");
  char* before = fs_schemes();
  TF_RegisterFilesystemPlugin(path, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ_FREE(fs_schemes(), before);
  CHECK_EQ_INT(plugin_counter(path, "fs_test_live_allocations"), 0);
  CHECK_EQ_INT(plugin_int(path, "fs_test_init_calls"), 0);
  /* Loading it again is just as harmless. */
  TF_RegisterFilesystemPlugin(path, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(plugin_counter(path, "fs_test_live_allocations"), 0);
  free(before);
  TF_DeleteStatus(s);
}

TEST(rule_size_not_set) {
  expect_rejected("fs_broken_size_zero", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokensizezero': "
                  "`writable_file_ops_size` field in TF_FilesystemPluginOps "
                  "must be set to TF_WRITABLE_FILE_OPS_SIZE (call "
                  "TF_SetFilesystemVersionMetadata)",
                  false);
}

TEST(rule_table_too_small) {
  char fmt[512];
  snprintf(fmt, sizeof fmt,
           "filesystem plugin '%%s', scheme 'brokentoosmall': table "
           "TF_FilesystemOps is too small: expected at least %zu bytes, got "
           "%zu",
           2 * sizeof(void*), sizeof(void*));
  expect_rejected("fs_broken_too_small", TF_FAILED_PRECONDITION, fmt, false);
}

TEST(rule_abi_filesystem) {
  expect_rejected("fs_broken_abi_fs", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokenabifs': table "
                  "TF_FilesystemOps has ABI version 1 but the core expects 0; "
                  "plugin cannot be loaded",
                  false);
}

TEST(rule_abi_random_access_file) {
  expect_rejected("fs_broken_abi_raf", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokenabiraf': table "
                  "TF_RandomAccessFileOps has ABI version 2 but the core "
                  "expects 0; plugin cannot be loaded",
                  false);
}

TEST(rule_abi_writable_file) {
  expect_rejected("fs_broken_abi_wf", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokenabiwf': table "
                  "TF_WritableFileOps has ABI version 3 but the core expects "
                  "0; plugin cannot be loaded",
                  false);
}

TEST(rule_abi_read_only_memory_region) {
  expect_rejected("fs_broken_abi_romr", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokenabiromr': table "
                  "TF_ReadOnlyMemoryRegionOps has ABI version 4 but the core "
                  "expects 0; plugin cannot be loaded",
                  false);
}

TEST(rule_filesystem_table_missing) {
  expect_rejected("fs_broken_no_fs_table", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokennofstable': "
                  "TF_FilesystemPluginOps.filesystem_ops is NULL; every "
                  "scheme needs a TF_FilesystemOps table",
                  false);
}

TEST(rule_required_init) {
  expect_rejected("fs_broken_no_init", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokennoinit': table "
                  "TF_FilesystemOps: required operation `init` is NULL",
                  false);
}

TEST(rule_required_cleanup) {
  expect_rejected("fs_broken_no_cleanup", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokennocleanup': table "
                  "TF_FilesystemOps: required operation `cleanup` is NULL",
                  false);
}

TEST(rule_required_random_access_cleanup) {
  expect_rejected("fs_broken_raf_no_cleanup", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokenrafcleanup': table "
                  "TF_RandomAccessFileOps: required operation `cleanup` is "
                  "NULL",
                  false);
}

TEST(rule_required_writable_cleanup) {
  expect_rejected("fs_broken_wf_no_cleanup", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokenwfcleanup': table "
                  "TF_WritableFileOps: required operation `cleanup` is NULL",
                  false);
}

TEST(rule_required_region_data) {
  expect_rejected("fs_broken_romr_no_data", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokenromrdata': table "
                  "TF_ReadOnlyMemoryRegionOps: required operation `data` is "
                  "NULL",
                  false);
}

TEST(rule_dependent_random_access_table) {
  expect_rejected("fs_broken_dep_raf", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokendepraf': "
                  "TF_FilesystemOps.new_random_access_file is set but "
                  "TF_FilesystemPluginOps.random_access_file_ops is NULL",
                  false);
}

TEST(rule_dependent_writable_table) {
  expect_rejected("fs_broken_dep_wf", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokendepwf': "
                  "TF_FilesystemOps.new_appendable_file is set but "
                  "TF_FilesystemPluginOps.writable_file_ops is NULL",
                  false);
}

TEST(rule_dependent_region_table) {
  expect_rejected("fs_broken_dep_romr", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'brokendepromr': "
                  "TF_FilesystemOps.new_read_only_memory_region_from_file is "
                  "set but TF_FilesystemPluginOps.read_only_memory_region_ops "
                  "is NULL",
                  false);
}

TEST(rule_scheme_null) {
  expect_rejected("fs_broken_null_scheme", TF_INVALID_ARGUMENT,
                  "filesystem plugin '%s': TF_FilesystemPluginOps[0].scheme "
                  "is NULL",
                  false);
}

TEST(rule_scheme_invalid) {
  expect_rejected("fs_broken_bad_scheme", TF_INVALID_ARGUMENT,
                  "filesystem plugin '%s': scheme 'my-fs' is not valid: use "
                  "\"\" for local paths, or a letter followed by letters, "
                  "digits or '.'",
                  false);
}

TEST(rule_scheme_taken_by_builtin) {
  expect_rejected("fs_broken_dup_builtin", TF_ALREADY_EXISTS,
                  "filesystem plugin '%s': scheme 'ram' is already "
                  "registered (by built-in ram filesystem)",
                  false);
}

TEST(rule_scheme_declared_twice) {
  expect_rejected("fs_broken_dup_self", TF_ALREADY_EXISTS,
                  "filesystem plugin '%s': scheme 'dupself' is declared twice "
                  "by the plugin",
                  false);
}

TEST(rule_scheme_taken_by_earlier_plugin) {
  TF_Status* s = TF_NewStatus();
  const char* path = fs_plugin_path("fs_new_plugin");
  char* schemes = fs_schemes();
  if (strstr(schemes, "newfs") == NULL) {
    TF_RegisterFilesystemPlugin(path, s);
    CHECK_CODE(s, TF_OK);
  }
  free(schemes);
  expect_rejected("fs_new_plugin", TF_ALREADY_EXISTS,
                  "filesystem plugin '%s': scheme 'newfs' is already "
                  "registered (by %s)",
                  false);
  TF_DeleteStatus(s);
}

TEST(rule_filesystem_init_status_is_returned_unchanged) {
  const char* path = fs_plugin_path("fs_broken_init_fails");
  expect_rejected("fs_broken_init_fails", TF_PERMISSION_DENIED,
                  "backend refused the credentials", false);
  CHECK_EQ_INT(plugin_int(path, "fs_test_init_calls"), 1);
}

TEST(all_or_nothing_when_a_later_scheme_is_bad) {
  const char* path = fs_plugin_path("fs_broken_second_bad");
  expect_rejected("fs_broken_second_bad", TF_FAILED_PRECONDITION,
                  "filesystem plugin '%s', scheme 'partial2': table "
                  "TF_FilesystemOps has ABI version 9 but the core expects 0; "
                  "plugin cannot be loaded",
                  false);
  /* Validation happens before any filesystem is brought up. */
  CHECK_EQ_INT(plugin_int(path, "fs_test_init_calls"), 0);
}

TEST(all_or_nothing_when_a_later_init_fails) {
  const char* path = fs_plugin_path("fs_broken_second_init_fails");
  expect_rejected("fs_broken_second_init_fails", TF_UNAVAILABLE,
                  "second filesystem is down", false);
  CHECK_EQ_INT(plugin_int(path, "fs_test_init_calls"), 2);
  /* The first filesystem had been initialised: it is cleaned up again. */
  CHECK_EQ_INT(plugin_int(path, "fs_test_cleanup_calls"), 1);
}

/* --------------------------------------------- plugins that do load */

/* Reads "<scheme>:///hello" through the core. */
static void expect_hello(const char* scheme) {
  char uri[64];
  size_t n = 0;
  char* got;
  snprintf(uri, sizeof uri, "%s:///hello", scheme);
  got = fs_read(uri, &n);
  CHECK_STR_EQ(got, "hello");
  free(got);
}

TEST(api_mismatch_loads_with_a_warning) {
  TF_Status* s = TF_NewStatus();
  const char* path = fs_plugin_path("fs_warn_api");
  char log_path[] = "/tmp/tfe-fs-log-XXXXXX";
  char want[1024], logbuf[8192];
  int fd = mkstemp(log_path), saved;
  ssize_t n;
  CHECK(fd >= 0);
  unsetenv("TF_CPP_MIN_LOG_LEVEL");
  fflush(stderr);
  saved = dup(2);
  CHECK(dup2(fd, 2) == 2);
  TF_RegisterFilesystemPlugin(path, s);
  fflush(stderr);
  CHECK(dup2(saved, 2) == 2);
  close(saved);
  CHECK_CODE(s, TF_OK);
  n = pread(fd, logbuf, sizeof logbuf - 1, 0);
  CHECK(n > 0);
  logbuf[n] = '\0';
  close(fd);
  unlink(log_path);
  snprintf(want, sizeof want,
           "filesystem plugin '%s', scheme 'warnapi': table TF_FilesystemOps "
           "has API version 5 but the core implements 0; loading it anyway, "
           "some operations may be missing",
           path);
  CHECK_STR_CONTAINS(logbuf, want);
  CHECK_STR_CONTAINS(logbuf, "table TF_WritableFileOps has API version 5");
  {
    char* schemes = fs_schemes();
    CHECK_STR_CONTAINS(schemes, "warnapi");
    free(schemes);
  }
  expect_hello("warnapi");
  CHECK_EQ_INT(plugin_counter(path, "fs_test_live_allocations"), 0);
  TF_DeleteStatus(s);
}

/* An older plugin: fields past its declared table sizes are NULL to the
 * core, whatever the memory there holds (its pointers would abort). */
TEST(older_plugin_missing_fields_count_as_null) {
  TF_Status* s = TF_NewStatus();
  TFE_RandomAccessFile* f;
  TF_StringStream* ss;
  TF_FileStatistics st;
  char buf[8];
  TF_RegisterFilesystemPlugin(fs_plugin_path("fs_old_plugin"), s);
  CHECK_CODE(s, TF_OK);
  TF_FileStat("oldfs:///hello", &st, s); /* stat is within the size */
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(st.length, 5);
  f = TFE_NewRandomAccessFile("oldfs:///hello", s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_ReadRandomAccessFile(f, 0, 5, buf, s), -1);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  {
    char want[512];
    snprintf(want, sizeof want,
             "filesystem for scheme 'oldfs' (%s) does not implement the "
             "`read` operation",
             fs_plugin_path("fs_old_plugin"));
    CHECK_STR_EQ(TF_Message(s), want);
  }
  TFE_DeleteRandomAccessFile(f);
  ss = TF_GetChildren("oldfs:///", s);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "`get_children`");
  TF_StringStreamDone(ss);
  /* Missing optional operations without a default: UNIMPLEMENTED. */
  TF_CreateDir("oldfs:///d", s);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "`create_dir` operation (path 'oldfs:///d')");
  TF_DeleteStatus(s);
}

TEST(newer_plugin_extra_fields_are_ignored) {
  TF_Status* s = TF_NewStatus();
  char* schemes = fs_schemes();
  /* Another test of this file may have registered it in this process. */
  if (strstr(schemes, "newfs") == NULL) {
    TF_RegisterFilesystemPlugin(fs_plugin_path("fs_new_plugin"), s);
    CHECK_CODE(s, TF_OK);
  }
  free(schemes);
  expect_hello("newfs");
  CHECK_STR_EQ_FREE(fs_children("newfs:///"), "hello");
  CHECK_EQ_INT(plugin_counter(fs_plugin_path("fs_new_plugin"),
                              "fs_test_live_allocations"),
               0);
  TF_DeleteStatus(s);
}

TEST(tables_are_copied_into_the_core) {
  TF_Status* s = TF_NewStatus();
  const char* path = fs_plugin_path("fs_mutating_plugin");
  void* h;
  void (*scribble)(void);
  TF_RegisterFilesystemPlugin(path, s);
  CHECK_CODE(s, TF_OK);
  h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  CHECK(h != NULL);
  *(void**)(&scribble) = dlsym(h, "fs_test_scribble");
  CHECK(scribble != NULL);
  scribble(); /* every byte of the plugin's tables is now 0xFF */
  expect_hello("mutating");
  CHECK_STR_EQ_FREE(fs_children("mutating:///"), "hello");
  dlclose(h);
  TF_DeleteStatus(s);
}

TEST(testfs_memory_is_released_with_the_plugin_free) {
  char* root = fs_register_testfs();
  const char* path = fs_plugin_path("fs_testfs");
  TF_Status* s = TF_NewStatus();
  TF_StringStream* ss;
  {
    char* schemes = fs_schemes();
    CHECK_STR_CONTAINS(schemes, "testfs");
    free(schemes);
  }
  fs_write_str("testfs:///a.txt", "a");
  TF_CreateDir("testfs:///dir", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ_FREE(fs_children("testfs:///"), "a.txt,dir");
  ss = TFE_GetMatchingPaths("testfs:///*", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ_FREE(fs_stream_join(ss), "testfs:///a.txt,testfs:///dir");
  /* Every translated name and listing went back through plugin_memory_free. */
  CHECK_EQ_INT(plugin_counter(path, "testfs_live_allocations"), 0);
  fs_remove_tree(root);
  free(root);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
