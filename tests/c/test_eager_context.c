/* Eager contexts: options, ConfigProto reading, devices and logical CPUs,
 * placement policies (incl. per thread), the zombie lifetime, executors and
 * the small context settings of the experimental API. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "eager_test_util.h"

TEST(options_and_context_lifecycle) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  int i;
  for (i = 0; i < 3; i++) {
    TFE_Context* c = new_ctx(s);
    CHECK(c != NULL);
    CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_CONTEXT), before.ctx + 1);
    TFE_DeleteContext(c);
  }
  /* NULL options mean defaults. */
  {
    TFE_Context* c = TFE_NewContext(NULL, s);
    CHECK_CODE(s, TF_OK);
    CHECK(c != NULL);
    CHECK_EQ_INT(TFE_ContextGetDevicePlacementPolicy(c),
                 TFE_DEVICE_PLACEMENT_SILENT);
    TFE_DeleteContext(c);
  }
  /* Deletes accept NULL; setters ignore NULL options. */
  TFE_DeleteContext(NULL);
  TFE_DeleteContextOptions(NULL);
  TFE_ContextOptionsSetAsync(NULL, 1);
  TFE_ContextOptionsSetDevicePlacementPolicy(NULL, TFE_DEVICE_PLACEMENT_WARN);
  TFE_ContextOptionsSetTfrt(NULL, true);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(options_policy_and_async) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* c;
  TFE_Executor* ex;
  TFE_ContextOptionsSetDevicePlacementPolicy(o, TFE_DEVICE_PLACEMENT_EXPLICIT);
  /* Out-of-range values are ignored. */
  TFE_ContextOptionsSetDevicePlacementPolicy(
      o, (TFE_ContextDevicePlacementPolicy)17);
  TFE_ContextOptionsSetAsync(o, 1);
  TFE_ContextOptionsSetTfrt(o, false);
  c = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o); /* the context does not need them */
  CHECK_EQ_INT(TFE_ContextGetDevicePlacementPolicy(c),
               TFE_DEVICE_PLACEMENT_EXPLICIT);
  /* The async flag is reported by the context's executor. */
  ex = TFE_ContextGetExecutorForThread(c);
  CHECK(ex != NULL);
  CHECK(TFE_ExecutorIsAsync(ex));
  TFE_DeleteExecutor(ex);
  TFE_ContextAsyncWait(c, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

static int count_cpus(TFE_Context* c, TF_Status* s) {
  TF_DeviceList* l = TFE_ContextListDevices(c, s);
  int i, n, cpus = 0;
  CHECK_CODE(s, TF_OK);
  n = TF_DeviceListCount(l);
  for (i = 0; i < n; i++) {
    const char* type = TF_DeviceListType(l, i, s);
    CHECK_CODE(s, TF_OK);
    if (strcmp(type, "CPU") == 0) cpus++;
  }
  TF_DeleteDeviceList(l);
  return cpus;
}

TEST(config_proto_cpu_count_and_unknown_fields) {
  TF_Status* s = TF_NewStatus();
  /* device_count {"CPU": 3}, intra_op 4, inter_op 2, then unknown fields of
   * every wire type: a length-delimited message (6), fixed64 (20), fixed32
   * (21), a group (22) holding a varint; then allow_soft_placement (7), a
   * varint tfe reads. */
  static const unsigned char cfg[] = {
      0x0a, 0x07, 0x0a, 0x03, 'C', 'P', 'U', 0x10, 0x03,  /* device_count */
      0x10, 0x04,                                         /* intra */
      0x28, 0x02,                                         /* inter */
      0x32, 0x02, 0x08, 0x01,                             /* gpu_options */
      0xa1, 0x01, 1, 2, 3, 4, 5, 6, 7, 8,                 /* fixed64 */
      0xad, 0x01, 1, 2, 3, 4,                             /* fixed32 */
      0xb3, 0x01, 0x08, 0x05, 0xb4, 0x01,                 /* group */
      0x38, 0x01};                                /* allow_soft_placement */
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* c;
  TFE_ContextOptionsSetConfig(o, cfg, sizeof(cfg), s);
  CHECK_CODE(s, TF_OK);
  c = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(count_cpus(c, s), 3);
  TFE_DeleteContext(c);

  /* An empty config is valid and changes nothing... */
  TFE_ContextOptionsSetConfig(o, "", 0, s);
  CHECK_CODE(s, TF_OK);
  /* ...a map entry for another device type is ignored... */
  {
    static const unsigned char gpu[] = {0x0a, 0x07, 0x0a, 0x03, 'G', 'P',
                                        'U', 0x10, 0x02};
    TFE_ContextOptionsSetConfig(o, gpu, sizeof(gpu), s);
    CHECK_CODE(s, TF_OK);
  }
  c = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(count_cpus(c, s), 3);
  TFE_DeleteContext(c);
  /* ...and CPU: 0 still gives the host CPU. */
  {
    static const unsigned char zero[] = {0x0a, 0x07, 0x0a, 0x03, 'C', 'P',
                                         'U', 0x10, 0x00};
    TFE_ContextOptionsSetConfig(o, zero, sizeof(zero), s);
    CHECK_CODE(s, TF_OK);
    c = TFE_NewContext(o, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(count_cpus(c, s), 1);
    TFE_DeleteContext(c);
  }
  TFE_DeleteContextOptions(o);
  TF_DeleteStatus(s);
}

TEST(config_proto_malformed) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  static const struct {
    const char* bytes;
    size_t len;
  } bad[] = {
      {"\xff\xff\xff", 3},        /* unterminated varint tag */
      {"\x10\xff", 2},            /* truncated varint value */
      {"\x0a\x05\x01", 3},        /* length beyond the end */
      {"\x00\x01", 2},            /* field number 0 */
      {"\x0f", 1},                /* wire type 7 */
      {"\x0c", 1},                /* end group without start */
      {"\x0b\x08\x01", 3},        /* group never closed */
      {"\x09\x01\x02", 3},        /* truncated fixed64 */
      {"\x0d\x01", 2},            /* truncated fixed32 */
      {"\x0a\x02\x0a\x05", 4},    /* bad map entry */
      {"\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 11}, /* > 64 bits */
  };
  size_t i;
  for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    TFE_ContextOptionsSetConfig(o, bad[i].bytes, bad[i].len, s);
    if (TF_GetCode(s) != TF_INVALID_ARGUMENT) {
      TFE_FAIL("case %zu: code %d", i, (int)TF_GetCode(s));
    }
  }
  /* A failed parse leaves the options as they were: one CPU. */
  {
    TFE_Context* c = TFE_NewContext(o, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(count_cpus(c, s), 1);
    TFE_DeleteContext(c);
  }
  TFE_ContextOptionsSetConfig(NULL, "", 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextOptionsSetConfig(o, NULL, 4, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextOptionsSetConfig(o, NULL, 0, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  TF_DeleteStatus(s);
}

TEST(device_list) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx(s);
  TF_DeviceList* l = TFE_ContextListDevices(c, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_DeviceListCount(l), 1);
  CHECK_STR_EQ(TF_DeviceListName(l, 0, s), FULL_CPU(0));
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TF_DeviceListType(l, 0, s), "CPU");
  CHECK(TF_DeviceListMemoryBytes(l, 0, s) > 0);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_DeviceListIncarnation(l, 0, s) != 0);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_DeviceListName(l, 1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_DeviceListType(l, -1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TF_DeviceListMemoryBytes(l, 3, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TF_DeviceListIncarnation(l, 3, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TF_DeviceListCount(NULL), -1);
  CHECK(TF_DeviceListName(NULL, 0, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteDeviceList(l);
  TF_DeleteDeviceList(NULL);
  CHECK(TFE_ContextListDevices(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TEST(logical_cpu_devices) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx(s);
  TF_DeviceList* l;
  TFE_SetLogicalCpuDevices(c, 3, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(count_cpus(c, s), 3);
  l = TFE_ContextListDevices(c, s);
  CHECK_STR_EQ(TF_DeviceListName(l, 0, s), FULL_CPU(0));
  CHECK_STR_EQ(TF_DeviceListName(l, 1, s), FULL_CPU(1));
  CHECK_STR_EQ(TF_DeviceListName(l, 2, s), FULL_CPU(2));
  CHECK(TF_DeviceListIncarnation(l, 1, s) != TF_DeviceListIncarnation(l, 2, s));
  TF_DeleteDeviceList(l);
  /* Asking again for existing names is a conflict; nothing is added. */
  TFE_SetLogicalCpuDevices(c, 4, "/job:localhost/replica:0/task:0", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "CPU:1");
  CHECK_EQ_INT(count_cpus(c, s), 3);
  /* One CPU is the host CPU itself: nothing to add. */
  TFE_SetLogicalCpuDevices(c, 1, "", s);
  CHECK_CODE(s, TF_OK);
  TFE_SetLogicalCpuDevices(c, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_SetLogicalCpuDevices(c, 100000, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_SetLogicalCpuDevices(c, 5, "/job:worker/replica:0/task:1", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_SetLogicalCpuDevices(NULL, 2, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

typedef struct thread_arg {
  TFE_Context* ctx;
  int seen;
} thread_arg;

static void* policy_thread(void* p) {
  thread_arg* a = (thread_arg*)p;
  a->seen = (int)TFE_ContextGetDevicePlacementPolicy(a->ctx);
  return NULL;
}

TEST(thread_local_policy) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx(s);
  TFE_Context* c2 = new_ctx(s);
  pthread_t th;
  thread_arg a;
  CHECK_EQ_INT(TFE_ContextGetDevicePlacementPolicy(c),
               TFE_DEVICE_PLACEMENT_SILENT);
  TFE_ContextSetThreadLocalDevicePlacementPolicy(
      c, TFE_DEVICE_PLACEMENT_EXPLICIT);
  CHECK_EQ_INT(TFE_ContextGetDevicePlacementPolicy(c),
               TFE_DEVICE_PLACEMENT_EXPLICIT);
  /* Other contexts and other threads are not affected. */
  CHECK_EQ_INT(TFE_ContextGetDevicePlacementPolicy(c2),
               TFE_DEVICE_PLACEMENT_SILENT);
  a.ctx = c;
  a.seen = -1;
  CHECK(pthread_create(&th, NULL, policy_thread, &a) == 0);
  pthread_join(th, NULL);
  CHECK_EQ_INT(a.seen, TFE_DEVICE_PLACEMENT_SILENT);
  /* Invalid values and NULL contexts are ignored. */
  TFE_ContextSetThreadLocalDevicePlacementPolicy(
      c, (TFE_ContextDevicePlacementPolicy)-1);
  CHECK_EQ_INT(TFE_ContextGetDevicePlacementPolicy(c),
               TFE_DEVICE_PLACEMENT_EXPLICIT);
  TFE_ContextSetThreadLocalDevicePlacementPolicy(NULL,
                                                 TFE_DEVICE_PLACEMENT_WARN);
  CHECK_EQ_INT(TFE_ContextGetDevicePlacementPolicy(NULL),
               TFE_DEVICE_PLACEMENT_SILENT);
  TFE_DeleteContext(c);
  TFE_DeleteContext(c2);
  TF_DeleteStatus(s);
}

TEST(zombie_context_lives_until_last_handle_and_op) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* c = new_ctx(s);
  float v = 2.5f;
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(v));
  TFE_TensorHandle* h;
  TFE_TensorHandle* out[1];
  TFE_Op* op;
  int n = 1;
  memcpy(TF_TensorData(t), &v, sizeof(v));
  h = TFE_NewTensorHandleFromTensor(c, t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  op = TFE_NewOp(c, "AddV2", s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, h, s);
  TFE_OpAddInput(op, h, s);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);

  TFE_DeleteContext(c); /* zombie: handles and the op still hold it */
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_CONTEXT), before.ctx + 1);
  TFE_DeleteContext(c); /* a second delete is ignored */
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_CONTEXT), before.ctx + 1);
  /* Handles stay readable. */
  CHECK(read_f32(out[0], s) == 5.0f);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(h, s), FULL_CPU(0));
  /* New work on the deleted context is refused. */
  CHECK(TFE_NewOp(c, "AddV2", s) == NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  n = 1;
  TFE_Execute(op, out + 0, &n, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_CONTEXT), before.ctx + 1);
  TFE_DeleteTensorHandle(out[0]); /* the last child: the context goes */
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(executors_synchronous_form) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx(s);
  TFE_Executor* ex = TFE_NewExecutor(true, false, 4);
  TFE_Executor* cur;
  TFE_TensorHandle *a, *b, *r;
  CHECK(ex != NULL);
  CHECK(TFE_ExecutorIsAsync(ex));
  cur = TFE_ContextGetExecutorForThread(c);
  CHECK(!TFE_ExecutorIsAsync(cur)); /* the context's default is sync */
  TFE_DeleteExecutor(cur);
  TFE_ContextSetExecutorForThread(c, ex);
  cur = TFE_ContextGetExecutorForThread(c);
  CHECK(TFE_ExecutorIsAsync(cur));
  TFE_DeleteExecutor(cur); /* a wrapper: ex itself is unaffected */
  CHECK(TFE_ExecutorIsAsync(ex));
  /* The op is queued on the async executor; reading the value waits. */
  a = scalar_f32(1, s);
  b = scalar_f32(2, s);
  r = binary(c, "AddV2", a, b, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(r, s) == 3.0f);
  TFE_ExecutorWaitForAllPendingNodes(ex, s);
  CHECK_CODE(s, TF_OK);
  TFE_ExecutorClearError(ex);
  TFE_ContextAsyncWait(c, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextSetExecutorForThread(c, NULL);
  cur = TFE_ContextGetExecutorForThread(c);
  CHECK(!TFE_ExecutorIsAsync(cur));
  TFE_DeleteExecutor(cur);
  TFE_DeleteExecutor(ex);
  /* NULL handling. */
  TFE_DeleteExecutor(NULL);
  CHECK(!TFE_ExecutorIsAsync(NULL));
  TFE_ExecutorClearError(NULL);
  TFE_ExecutorWaitForAllPendingNodes(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextAsyncWait(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_ContextGetExecutorForThread(NULL) == NULL);
  TFE_ContextSetExecutorForThread(NULL, NULL);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TEST(context_settings_and_ids) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx(s);
  TFE_Context* c2 = new_ctx(s);
  TF_Buffer* buf = TF_NewBuffer();
  CHECK(TFE_GetContextId(c) != 0);
  CHECK(TFE_GetContextId(c) != TFE_GetContextId(c2));
  CHECK_EQ_INT(TFE_GetContextId(NULL), 0);
  TFE_HostAddressSpace(c, buf);
  CHECK_EQ_SIZE(buf->length, strlen("/job:localhost/replica:0/task:0"));
  CHECK(memcmp(buf->data, "/job:localhost/replica:0/task:0", buf->length) == 0);
  TFE_HostAddressSpace(c, buf); /* replaces (and frees) the old bytes */
  CHECK_EQ_SIZE(buf->length, strlen("/job:localhost/replica:0/task:0"));
  TFE_HostAddressSpace(NULL, buf);
  TFE_HostAddressSpace(c, NULL);

  TFE_ContextEnableRunMetadata(c);
  TFE_ContextExportRunMetadata(c, buf, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(buf->length, 0);
  TFE_ContextDisableRunMetadata(c);
  TFE_ContextExportRunMetadata(c, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextExportRunMetadata(NULL, buf, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextEnableRunMetadata(NULL);
  TFE_ContextDisableRunMetadata(NULL);

  TFE_ContextStartStep(c);
  TFE_ContextStartStep(c);
  TFE_ContextEndStep(c);
  TFE_ContextEndStep(c);
  TFE_ContextEndStep(c); /* unbalanced end: harmless */
  TFE_ContextStartStep(NULL);
  TFE_ContextEndStep(NULL);

  TFE_ContextSetSoftDevicePlacement(c, 1, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextSetLogDevicePlacement(c, 0, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextSetRunEagerOpAsFunction(c, 1, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextSetJitCompileRewrite(c, 1, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextSetSoftDevicePlacement(NULL, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextSetLogDevicePlacement(NULL, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextSetRunEagerOpAsFunction(NULL, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextSetJitCompileRewrite(NULL, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  TFE_ContextClearCaches(c);
  TFE_ContextClearCaches(NULL);
  CHECK(!TFE_ContextHasFunction(c, "f"));
  TF_DeleteBuffer(buf);
  TFE_DeleteContext(c);
  TFE_DeleteContext(c2);
  TF_DeleteStatus(s);
}

TEST(executed_op_names) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx(s);
  TF_Buffer* buf = TF_NewBuffer();
  TFE_TensorHandle* a = scalar_f32(1, s);
  TFE_TensorHandle* r;
  TFE_GetExecutedOpNames(c, buf, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(buf->length, 0);
  /* Not recorded while logging is off. */
  r = binary(c, "AddV2", a, a, NULL, s);
  TFE_DeleteTensorHandle(r);
  TFE_ContextSetLogDevicePlacement(c, 1, s);
  r = binary(c, "AddV2", a, a, NULL, s);
  TFE_DeleteTensorHandle(r);
  r = binary(c, "Mul", a, a, NULL, s);
  TFE_DeleteTensorHandle(r);
  TFE_GetExecutedOpNames(c, buf, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(buf->length, strlen("AddV2, Mul, "));
  CHECK(memcmp(buf->data, "AddV2, Mul, ", buf->length) == 0);
  TFE_GetExecutedOpNames(c, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_GetExecutedOpNames(NULL, buf, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(buf);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TEST(new_context_out_of_memory) {
  TF_Status* s = TF_NewStatus();
  live_counts before;
  int k, succeeded = 0;
  /* Make sure one-time registrations are done before counting. */
  TFE_DeleteContext(new_ctx(s));
  before = live_now();
  for (k = 0; k < 40 && !succeeded; k++) {
    TFE_Context* c;
    TFE_TestFailAllocationsAfter(k);
    c = TFE_NewContext(NULL, s);
    TFE_TestFailAllocationsAfter(-1);
    if (c == NULL) {
      CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    } else {
      succeeded = 1;
      TFE_DeleteContext(c);
    }
    CHECK_LIVE_EQ(live_now(), before);
  }
  CHECK(succeeded);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
