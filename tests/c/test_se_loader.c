#define _GNU_SOURCE 1
/* The StreamExecutor plugin loader: one broken plugin per rule
 * (tests/plugins/se_broken_*.c), each failing with its exact message,
 * registering nothing, and having what it allocated released with its own
 * destroy functions, newest first. */
#include "se_test_util.h"
#include "tensorflow/c/experimental/grappler/grappler.h"

/* The destroy log of a broken plugin (se_broken_common.h). */
static const char* destroy_log(const char* path) {
  void* h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  const char* (*fn)(void);
  CHECK(h != NULL);
  *(void**)&fn = dlsym(h, "se_test_log");
  CHECK(fn != NULL);
  dlclose(h);
  return fn();
}

static int platforms_loaded(void) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TFE_DescribePluggableDevices(s);
  size_t i;
  int n = 0;
  CHECK_CODE(s, TF_OK);
  for (i = 0; i + 7 < b->length; i++) {
    if (memcmp((const char*)b->data + i, "\"path\":", 7) == 0) n++;
  }
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
  return n;
}

static int context_has_type(const char* type) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TF_DeviceList* l = TFE_ContextListDevices(ctx, s);
  int i, found = 0;
  for (i = 0; i < TF_DeviceListCount(l); i++) {
    if (strcmp(TF_DeviceListType(l, i, s), type) == 0) found = 1;
  }
  TF_DeleteDeviceList(l);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  return found;
}

/* Loads plugin `name`, which must fail with `code` and exactly `msg`
 * (NULL: skip the message check), and leave the registry unchanged;
 * then its destroy log must equal `log` (NULL: skip). */
static void expect_failure(const char* name, TF_Code code, const char* msg,
                           const char* log) {
  char path[512];
  TF_Status* s = TF_NewStatus();
  int before = platforms_loaded();
  TF_Library* lib;
  snprintf(path, sizeof path, "%s/%s.so", TFE_TEST_PLUGIN_DIR, name);
  lib = TF_LoadPluggableDeviceLibrary(path, s);
  CHECK(lib == NULL);
  CHECK_CODE(s, code);
  if (msg != NULL) CHECK_STR_EQ(TF_Message(s), msg);
  CHECK_EQ_INT(platforms_loaded(), before);
  CHECK(!context_has_type("BROKEN_DEVICE"));
  if (log != NULL) CHECK_STR_EQ(destroy_log(path), log);
  TF_DeleteStatus(s);
}

static char g_msg[1024];

/* "device plugin '<dir>/<name>.so': <rest>" */
static const char* msg_for(const char* name, const char* rest) {
  snprintf(g_msg, sizeof g_msg, "device plugin '%s/%s.so': %s",
           TFE_TEST_PLUGIN_DIR, name, rest);
  return g_msg;
}

#define ALL_DESTROYED \
  "device1 device0 timer_fns stream_executor device_fns platform_fns platform"

TEST(null_and_missing_libraries) {
  TF_Status* s = TF_NewStatus();
  CHECK(TF_LoadPluggableDeviceLibrary(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_LoadPluggableDeviceLibrary("", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_LoadPluggableDeviceLibrary(SE_PLUGIN("does_not_exist"), s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "does_not_exist.so");
  TF_DeletePluggableDeviceLibraryHandle(NULL);
  TF_DeleteStatus(s);
}

TEST(missing_entry_point_is_not_found) {
  snprintf(g_msg, sizeof g_msg,
           "device plugin '%s/se_broken_no_entry.so' does not export the "
           "entry point SE_InitPlugin",
           TFE_TEST_PLUGIN_DIR);
  expect_failure("se_broken_no_entry", TF_NOT_FOUND, g_msg, NULL);
}

TEST(init_status_is_returned_unchanged) {
  expect_failure("se_broken_init_fails", TF_INTERNAL,
                 "the broken plugin refuses to start", "");
}

TEST(zero_params_size) {
  expect_failure("se_broken_params_size_zero", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_params_size_zero",
                         "struct_size field in SE_PlatformRegistrationParams "
                         "must be set to "
                         "SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE."),
                 "");
}

TEST(params_too_small) {
  char rest[256];
  snprintf(rest, sizeof rest,
           "SE_PlatformRegistrationParams is too small: expected at least "
           "%zu bytes, got %zu",
           (size_t)SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE,
           (size_t)TF_OFFSET_OF_END(SE_PlatformRegistrationParams,
                                    platform_fns));
  expect_failure("se_broken_params_too_small", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_params_too_small", rest), "");
}

TEST(zero_platform_size) {
  expect_failure("se_broken_platform_size_zero", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_platform_size_zero",
                         "struct_size field in SP_Platform must be set to "
                         "SP_PLATFORM_STRUCT_SIZE."),
                 "platform_fns platform");
}

TEST(platform_too_small) {
  char rest[256];
  snprintf(rest, sizeof rest,
           "SP_Platform is too small: expected at least %zu bytes, got %zu",
           (size_t)TF_OFFSET_OF_END(SP_Platform, type),
           (size_t)TF_OFFSET_OF_END(SP_Platform, name));
  expect_failure("se_broken_platform_too_small", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_platform_too_small", rest),
                 "platform_fns platform");
}

TEST(zero_platform_fns_size) {
  expect_failure("se_broken_platform_fns_size_zero", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_platform_fns_size_zero",
                         "struct_size field in SP_PlatformFns must be set to "
                         "SP_PLATFORM_FNS_STRUCT_SIZE."),
                 "platform_fns platform");
}

TEST(other_major_version_cannot_be_loaded) {
  snprintf(g_msg, sizeof g_msg,
           "device plugin '%s/se_broken_major_version.so' cannot be loaded: "
           "it implements the StreamExecutor C API version 1.0.1 and tfe "
           "implements 0.0.1 (the major versions differ)",
           TFE_TEST_PLUGIN_DIR);
  expect_failure("se_broken_major_version", TF_FAILED_PRECONDITION, g_msg,
                 "platform_fns platform");
}

TEST(other_minor_version_loads_with_a_warning) {
  TF_Status* s = TF_NewStatus();
  TF_Library* lib =
      TF_LoadPluggableDeviceLibrary(SE_PLUGIN("se_warn_minor_version"), s);
  TF_Buffer* b;
  char* json;
  CHECK_CODE(s, TF_OK);
  TF_DeletePluggableDeviceLibraryHandle(lib);
  CHECK(context_has_type("MINOR_DEVICE"));
  b = TFE_DescribePluggableDevices(s);
  json = (char*)malloc(b->length + 1);
  memcpy(json, b->data, b->length);
  json[b->length] = '\0';
  CHECK_STR_CONTAINS(json,
                     "built for the StreamExecutor C API version 0.3.1, tfe "
                     "implements 0.0.1; loading it anyway");
  CHECK_STR_CONTAINS(json, "\"version\": \"0.3.1\"");
  free(json);
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
}

TEST(missing_destroy_platform) {
  expect_failure("se_broken_no_destroy_platform", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_no_destroy_platform",
                         "'destroy_platform' field in "
                         "SE_PlatformRegistrationParams must be set."),
                 "platform_fns");
}

TEST(missing_platform_name) {
  expect_failure("se_broken_no_name", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_no_name",
                         "'name' field in SP_Platform must be set."),
                 "platform_fns platform");
}

TEST(lower_case_platform_name) {
  expect_failure("se_broken_bad_name", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_bad_name",
                         "Device name/type 'my_platform' must match "
                         "[A-Z][A-Z_]*. (SP_Platform.name)"),
                 "platform_fns platform");
}

TEST(device_type_with_a_colon) {
  expect_failure("se_broken_bad_type", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_bad_type",
                         "Device name/type 'GPU:1' must match [A-Z][A-Z_]*. "
                         "(SP_Platform.type)"),
                 "platform_fns platform");
}

TEST(missing_create_device) {
  expect_failure("se_broken_no_create_device", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_no_create_device",
                         "'create_device' field in SP_PlatformFns must be "
                         "set."),
                 "platform_fns platform");
}

TEST(device_type_cpu_is_taken) {
  expect_failure("se_broken_dup_type_cpu", TF_ALREADY_EXISTS,
                 msg_for("se_broken_dup_type_cpu",
                         "device type CPU is already registered by another "
                         "device kind"),
                 "platform_fns platform");
}

TEST(duplicate_platform_name) {
  char rest[512];
  load_test_device();
  snprintf(rest, sizeof rest,
           "platform TFE_TEST_PLATFORM (device type OTHER_DEVICE) conflicts "
           "with platform TFE_TEST_PLATFORM (device type MY_DEVICE) loaded "
           "from '%s'",
           TEST_DEVICE);
  expect_failure("se_broken_dup_platform", TF_ALREADY_EXISTS,
                 msg_for("se_broken_dup_platform", rest),
                 "platform_fns platform");
  CHECK(!context_has_type("OTHER_DEVICE"));
}

TEST(create_device_fns_failure) {
  expect_failure("se_broken_device_fns_fail", TF_UNAVAILABLE,
                 "no device functions today", "platform_fns platform");
}

TEST(zero_stream_executor_size) {
  expect_failure("se_broken_se_size_zero", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_se_size_zero",
                         "struct_size field in SP_StreamExecutor must be set "
                         "to SP_STREAMEXECUTOR_STRUCT_SIZE."),
                 "stream_executor device_fns platform_fns platform");
}

TEST(stream_executor_too_small) {
  char rest[256];
  snprintf(rest, sizeof rest,
           "SP_StreamExecutor is too small: expected at least %zu bytes, got "
           "%zu",
           (size_t)TF_OFFSET_OF_END(SP_StreamExecutor, host_callback),
           (size_t)TF_OFFSET_OF_END(SP_StreamExecutor,
                                    synchronize_all_activity));
  expect_failure("se_broken_se_too_small", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_se_too_small", rest),
                 "stream_executor device_fns platform_fns platform");
}

TEST(missing_allocate) {
  expect_failure("se_broken_no_allocate", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_no_allocate",
                         "'allocate' field in SP_StreamExecutor must be "
                         "set."),
                 "stream_executor device_fns platform_fns platform");
}

TEST(unified_memory_needs_its_functions) {
  expect_failure("se_broken_unified_dep", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_unified_dep",
                         "'unified_memory_deallocate' field in "
                         "SP_StreamExecutor must be set."),
                 "stream_executor device_fns platform_fns platform");
}

TEST(missing_nanoseconds) {
  expect_failure("se_broken_timer_no_ns", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_timer_no_ns",
                         "'nanoseconds' field in SP_TimerFns must be set."),
                 "timer_fns stream_executor device_fns platform_fns "
                 "platform");
}

TEST(negative_device_count) {
  expect_failure("se_broken_bad_count", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_bad_count",
                         "get_device_count reported -1 devices (tfe accepts "
                         "0 to 64)"),
                 "timer_fns stream_executor device_fns platform_fns "
                 "platform");
}

TEST(zero_device_size) {
  expect_failure("se_broken_device_size_zero", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_device_size_zero",
                         "struct_size field in SP_Device must be set to "
                         "SP_DEVICE_STRUCT_SIZE."),
                 "device0 timer_fns stream_executor device_fns platform_fns "
                 "platform");
}

TEST(failing_second_device_releases_the_first) {
  expect_failure("se_broken_second_device_fails", TF_RESOURCE_EXHAUSTED,
                 "device 1 is out of order",
                 "device0 timer_fns stream_executor device_fns platform_fns "
                 "platform");
}

TEST(graph_optimizer_without_optimize_func) {
  expect_failure("se_broken_graph_no_optimize", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_graph_no_optimize",
                         "'optimize_func' field in TP_Optimizer must be "
                         "set."),
                 ALL_DESTROYED);
  CHECK(!context_has_type("GRAPH_DEVICE"));
}

/* What TF_InitKernel registered before a later check failed is taken
 * back: no op, no kernel for the device type that never came to be. */
TEST(failed_load_takes_back_what_init_kernel_registered) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* kernels;
  expect_failure("se_broken_graph_after_kernels", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_graph_after_kernels",
                         "'optimize_func' field in TP_Optimizer must be "
                         "set."),
                 ALL_DESTROYED);
  CHECK(!context_has_type("KGRAPH_DEVICE"));
  TF_OpIsStateful("SeBrokenKernelOp", s);
  CHECK_CODE(s, TF_NOT_FOUND);
  kernels = TF_GetRegisteredKernelsForOp("SeBrokenKernelOp", s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT((int)kernels->length, 0);
  TF_DeleteBuffer(kernels);
  TF_DeleteStatus(s);
}

TEST(profiler_without_start) {
  expect_failure("se_broken_profiler_no_start", TF_FAILED_PRECONDITION,
                 msg_for("se_broken_profiler_no_start",
                         "'start' field in TP_ProfilerFns must be set."),
                 "profiler_fns profiler " ALL_DESTROYED);
  CHECK(!context_has_type("PROF_DEVICE"));
}

/* The grappler.h helpers work on the item an optimizer is given while a
 * session's graph is optimized (tests/c/test_grappler_run.c); without an
 * item they refuse the call. */
TEST(grappler_helpers_refuse_a_missing_item) {
  TF_Status* s = TF_NewStatus();
  int n = 5;
  size_t bytes = 5;
  TF_Buffer* buf = TF_NewBuffer();
  TF_GetNodesToPreserveListSize(NULL, &n, &bytes, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(n == 0 && bytes == 0);
  TF_GetNodesToPreserveList(NULL, NULL, NULL, 0, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GetFetchNodesListSize(NULL, &n, &bytes, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GetFetchNodesList(NULL, NULL, NULL, 0, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_NewGraphProperties(NULL) == NULL);
  TF_DeleteGraphProperties(NULL);
  TF_InferStatically(NULL, 0, 0, 0, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GetInputPropertiesListSize(NULL, "x", &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GetOutputPropertiesListSize(NULL, "x", &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GetInputPropertiesList(NULL, "x", NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GetOutputPropertiesList(NULL, "x", NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* An empty GraphDef has an empty function library. */
  {
    TF_FunctionLibraryDefinition* lib = TF_NewFunctionLibraryDefinition(buf,
                                                                        s);
    CHECK_CODE(s, TF_OK);
    CHECK(lib != NULL);
    TF_LookUpOpDef(lib, "AddV2", buf, s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteFunctionLibraryDefinition(lib);
  }
  TF_DeleteFunctionLibraryDefinition(NULL);
  TF_LookUpOpDef(NULL, "AddV2", buf, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(buf);
  TF_DeleteStatus(s);
}

TEST(loading_survives_out_of_memory) {
  /* A plugin that fails late (its second device) walks the whole loader;
   * under allocation failures it must fail cleanly, with the plugin's own
   * error or RESOURCE_EXHAUSTED, and register nothing. */
  TF_Status* s = TF_NewStatus();
  int n, oom = 0, plugin_error = 0;
  for (n = 0; n < 40; n++) {
    TF_Library* lib;
    TFE_TestFailAllocationsAfter(n);
    lib = TF_LoadPluggableDeviceLibrary(
        SE_PLUGIN("se_broken_second_device_fails"), s);
    TFE_TestFailAllocationsAfter(-1);
    CHECK(lib == NULL);
    if (TF_GetCode(s) == TF_RESOURCE_EXHAUSTED &&
        strstr(TF_Message(s), "out of order") == NULL) {
      oom++;
    } else {
      CHECK_STR_EQ(TF_Message(s), "device 1 is out of order");
      plugin_error++;
    }
  }
  CHECK(oom > 0);
  CHECK(plugin_error > 0);
  CHECK(!context_has_type("BROKEN_DEVICE"));
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
