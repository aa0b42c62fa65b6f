/* Plugins built with older TensorFlow headers, whose tables have a smaller
 * struct_size and fields at older offsets, load with their functions and
 * settings read from the right slots (tests/plugins/se_old_layouts.c and
 * pd_old_device.c); a profiler names its device in TP_Profiler.device_type,
 * TensorFlow 2.21's field. */
#define _GNU_SOURCE 1
#include "se_test_util.h"
#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"

/* TFE_DescribePluggableDevices as a NUL-terminated string (caller frees). */
static char* describe(void) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TFE_DescribePluggableDevices(s);
  char* json;
  CHECK_CODE(s, TF_OK);
  json = (char*)malloc(b->length + 1);
  memcpy(json, b->data, b->length);
  json[b->length] = '\0';
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
  return json;
}

/* Whether a new context lists a device of `type`. */
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

TEST(layouts_this_test_relies_on) {
  /* TensorFlow 2.21's offsets (the full list is test_abi_layout.c). */
  CHECK_EQ_SIZE(offsetof(SP_StreamExecutor, mem_zero), 256);
  CHECK_EQ_SIZE(offsetof(SP_StreamExecutor, host_callback), 280);
  CHECK_EQ_SIZE(SP_STREAMEXECUTOR_STRUCT_SIZE, 288);
  CHECK_EQ_SIZE(
      offsetof(TP_OptimizerConfigs, auto_mixed_precision_onednn_bfloat16), 52);
  CHECK_EQ_SIZE(TP_OPTIMIZER_CONFIGS_STRUCT_SIZE, 92);
  CHECK_EQ_SIZE(offsetof(TP_Profiler, device_type), 16);
  CHECK_EQ_SIZE(TP_PROFILER_STRUCT_SIZE, 24);
}

TEST(old_stream_executor_and_optimizer_configs_are_read_at_old_offsets) {
  TF_Status* s = TF_NewStatus();
  TF_Library* lib = TF_LoadPluggableDeviceLibrary(SE_PLUGIN("se_old_layouts"), s);
  char* json;
  CHECK_CODE(s, TF_OK);
  CHECK(lib != NULL);
  TF_DeletePluggableDeviceLibraryHandle(lib);
  json = describe();
  /* host_callback came from the old slot (it is required: the load would
   * have failed otherwise); the fills count as absent and are emulated. */
  CHECK_STR_CONTAINS(json, "\"SP_StreamExecutor\": 264");
  CHECK_STR_CONTAINS(json, "\"mem_zero\": false");
  CHECK_STR_CONTAINS(json, "\"memset32\": false");
  CHECK_STR_CONTAINS(json,
                     "\"emulated\": [\"mem_zero\", \"memset\", \"memset32\"]");
  /* The configs moved to today's offsets. */
  CHECK_STR_CONTAINS(json, "\"remapping\": \"on\"");
  CHECK_STR_CONTAINS(json, "\"layout_optimizer\": \"off\"");
  CHECK_STR_CONTAINS(json, "\"auto_mixed_precision\": \"on\"");
  /* The profiler's device_type. */
  CHECK_STR_CONTAINS(json, "\"profiler\": {\"type\": \"OLD_ABI_DEVICE\"}");
  free(json);
  CHECK(context_has_type("OLD_ABI_DEVICE"));
  TF_DeleteStatus(s);
}

TEST(old_device_plugin_runs_host_callbacks_from_the_old_slot) {
  /* pd_old_device keeps its host_callback where mem_zero is today; a copy
   * to the device releases its staging buffer from a host callback, so a
   * round trip goes through the slot tfe read it from. */
  TF_Status* s = TF_NewStatus();
  TF_Library* lib = TF_LoadPluggableDeviceLibrary(SE_PLUGIN("pd_old_device"), s);
  TFE_Context* ctx;
  float x[3] = {1.5f, -2.0f, 4.0f}, y[3] = {0, 0, 0};
  int64_t n = 3;
  TFE_TensorHandle *h, *d;
  CHECK_CODE(s, TF_OK);
  TF_DeletePluggableDeviceLibraryHandle(lib);
  ctx = new_ctx(s);
  h = f32_handle(&n, 1, x, s);
  d = to_device(ctx, h, "OLD_DEVICE:0", s);
  read_f32s(d, y, 3, s);
  CHECK(y[0] == 1.5f && y[1] == -2.0f && y[2] == 4.0f);
  TFE_DeleteTensorHandle(d);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
