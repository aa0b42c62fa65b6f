/* The parts of the eager API that tfe declares without implementing yet
 * report TF_UNIMPLEMENTED naming the function (or, without a status,
 * return NULL/0/false), and never crash. */
#include <string.h>

#include "eager_test_util.h"

#define CHECK_UNIMPLEMENTED(s, name)                 \
  do {                                               \
    CHECK_CODE(s, TF_UNIMPLEMENTED);                 \
    CHECK_STR_CONTAINS(TF_Message(s), name);         \
  } while (0)

static TFE_TensorHandle* copy_cb(TFE_Context* c, TFE_TensorHandle* t,
                                 TF_Status* s, void* info) {
  (void)c; (void)s; (void)info;
  return t;
}
static TFE_TensorHandle* copy_from_cb(TFE_Context* c, TFE_TensorHandle* t,
                                      const char* d, TF_Status* s,
                                      void* info) {
  (void)c; (void)d; (void)s; (void)info;
  return t;
}
static void exec_cb(const TFE_Op* op, int* n, TFE_TensorHandle** o,
                    TF_Status* s, void* info) {
  (void)op; (void)n; (void)o; (void)s; (void)info;
}
static int g_deleted;
static void delete_cb(void* info) {
  (void)info;
  g_deleted++;
}

TEST(stubs_report_unimplemented) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TF_Buffer* buf = TF_NewBuffer();
  TFE_Op* op = TFE_NewOp(ctx, "AddV2", s);
  TFE_CustomDevice dev;

  TFE_ContextSetServerDef(ctx, 0, "", 0, s);
  CHECK_UNIMPLEMENTED(s, "TFE_ContextSetServerDef");
  TFE_ContextUpdateServerDef(ctx, 0, "", 0, s);
  CHECK_UNIMPLEMENTED(s, "TFE_ContextUpdateServerDef");
  TFE_ContextUpdateServerDefWithTimeout(ctx, 0, "", 0, 10, s);
  CHECK_UNIMPLEMENTED(s, "TFE_ContextUpdateServerDefWithTimeout");
  TFE_ContextSetServerDefWithTimeout(ctx, 0, "", 0, 10, s, false);
  CHECK_UNIMPLEMENTED(s, "TFE_ContextSetServerDefWithTimeout");
  TFE_ContextSetServerDefWithTimeoutAndRetries(ctx, 0, "", 0, 10, 2, s, false);
  CHECK_UNIMPLEMENTED(s, "TFE_ContextSetServerDefWithTimeoutAndRetries");
  CHECK(!TFE_ContextCheckAlive(ctx, "/job:w", s));
  CHECK_UNIMPLEMENTED(s, "TFE_ContextCheckAlive");
  /* Context functions work (tests/c/test_functions_eager.c). */
  TFE_ContextAddFunction(ctx, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextRemoveFunction(ctx, "f", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextGetFunctionDef(ctx, "f", buf, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  TFE_ContextGetGraphDebugInfo(ctx, "f", buf, s);
  CHECK_UNIMPLEMENTED(s, "TFE_ContextGetGraphDebugInfo");
  CHECK(TFE_ContextGetFunction(ctx, "f", s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  /* Packing needs a custom device's pack callback (custom_device tests);
   * with no handles it is a usage error. */
  CHECK(TFE_CreatePackedTensorHandle(ctx, NULL, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_InsertConfigKeyValue(ctx, "k", "v", s);
  CHECK_UNIMPLEMENTED(s, "TFE_InsertConfigKeyValue");
  TFE_GetConfigKeyValue(ctx, "k", 1, buf, s);
  CHECK_UNIMPLEMENTED(s, "TFE_GetConfigKeyValue");
  TFE_DeleteConfigKeyValue(ctx, "k", s);
  CHECK_UNIMPLEMENTED(s, "TFE_DeleteConfigKeyValue");
  TFE_ReportErrorToCluster(ctx, 3, "x", s);
  CHECK_UNIMPLEMENTED(s, "TFE_ReportErrorToCluster");
  TFE_GetTaskStates(ctx, buf, NULL, s);
  CHECK_UNIMPLEMENTED(s, "TFE_GetTaskStates");
  TFE_WaitAtBarrier(ctx, "b", 1, s);
  CHECK_UNIMPLEMENTED(s, "TFE_WaitAtBarrier");
  TFE_InitializeLocalOnlyContext(ctx, 0, "", 0, s);
  CHECK_UNIMPLEMENTED(s, "TFE_InitializeLocalOnlyContext");
  TFE_ContextEnableGraphCollection(ctx);
  TFE_ContextDisableGraphCollection(ctx);

  /* Custom devices: the structs have TF's layout (version 4). */
  memset(&dev, 0, sizeof(dev));
  dev.version = TFE_CUSTOM_DEVICE_VERSION;
  dev.copy_tensor_to_device = copy_cb;
  dev.copy_tensor_from_device = copy_from_cb;
  dev.execute = exec_cb;
  dev.delete_device = delete_cb;
  CHECK_EQ_INT(TFE_CUSTOM_DEVICE_VERSION, 4);
  CHECK_EQ_SIZE(sizeof(TFE_CustomDevice), 7 * sizeof(void*));
  CHECK_EQ_SIZE(sizeof(TFE_CustomDeviceTensorHandle), 5 * sizeof(void*));
  /* Registration and custom handles work: tests/c/test_custom_device.c. */

  /* Monitoring is implemented: tests/c/test_monitoring.c. Cancellation
   * too: tests/c/test_async_cancellation.c. */

  TF_DeleteBuffer(buf);
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
