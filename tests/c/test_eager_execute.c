/* TFE_Execute: results, TF's error codes and messages (dtype, input count,
 * missing attrs, num_retvals, devices), placement by device and by input,
 * the four placement policies, soft placement, the kernel cache's steady
 * state (only outputs are allocated), and allocation failures. */
#include <string.h>

#include "eager_test_util.h"

TEST(execute_basics_and_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* f = scalar_f32(1.5f, s);
  TFE_TensorHandle* i = scalar_i32(2, s);
  TFE_TensorHandle* out[4] = {NULL, NULL, NULL, NULL};
  TFE_TensorHandle* r;
  TFE_Op* op;
  int n;

  r = binary(ctx, "AddV2", f, f, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(r, s) == 3.0f);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(r, s), FULL_CPU(0));
  TFE_DeleteTensorHandle(r);

  /* Wrong dtype: TF's message. */
  r = binary(ctx, "AddV2", f, i, NULL, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "cannot compute AddV2 as input #1(zero-based) was expected to "
               "be a float tensor but is a int32 tensor");

  /* Wrong number of inputs. */
  op = TFE_NewOp(ctx, "AddV2", s);
  TFE_OpAddInput(op, f, s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "expected 2 inputs, got 1");
  TFE_DeleteOp(op);
  op = TFE_NewOp(ctx, "AddV2", s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteOp(op);

  /* A required attr that nothing set: NOT_FOUND. */
  op = TFE_NewOp(ctx, "Cast", s);
  TFE_OpAddInput(op, f, s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "DstT");
  TFE_DeleteOp(op);

  /* A dtype the op does not allow, and an attr of the wrong kind. */
  {
    unsigned char t = 1;
    TFE_TensorHandle* b = make_handle(TF_BOOL, NULL, 0, &t, 1, s);
    r = binary(ctx, "AddV2", b, b, NULL, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TFE_DeleteTensorHandle(b);
  }
  op = TFE_NewOp(ctx, "MatMul", s);
  TFE_OpSetAttrFloat(op, "transpose_b", 1.0f);
  TFE_OpAddInput(op, f, s);
  TFE_OpAddInput(op, f, s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteOp(op);
  /* Unknown attr names are ignored, as in TF. */
  op = TFE_NewOp(ctx, "AddV2", s);
  TFE_OpSetAttrInt(op, "no_such_attr", 5);
  TFE_OpAddInput(op, f, s);
  TFE_OpAddInput(op, f, s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteOp(op);

  /* num_retvals. */
  op = TFE_NewOp(ctx, "AddV2", s);
  TFE_OpAddInput(op, f, s);
  TFE_OpAddInput(op, f, s);
  n = 0;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  n = 4;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 1);
  TFE_DeleteTensorHandle(out[0]);
  n = 1;
  TFE_Execute(op, NULL, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_Execute(op, out, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  n = -1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_Execute(op, out, &n, NULL); /* no status: nothing runs, no crash */
  TFE_DeleteOp(op);
  n = 1;
  TFE_Execute(NULL, out, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  {
    TFE_TensorHandle* l[2] = {f, i};
    op = TFE_NewOp(ctx, "IdentityN", s);
    TFE_OpAddInputList(op, l, 2, s);
    n = 1;
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    n = 2;
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(n, 2);
    CHECK(read_i32(out[1], s) == 2);
    TFE_DeleteTensorHandle(out[0]);
    TFE_DeleteTensorHandle(out[1]);
    TFE_DeleteOp(op);
  }
  /* The context is healthy after all that. */
  r = binary(ctx, "Mul", f, f, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(r, s) == 2.25f);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(f);
  TFE_DeleteTensorHandle(i);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(explicit_devices) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* f = scalar_f32(2, s);
  TFE_TensorHandle* r;
  static const char* unknown[] = {FULL_CPU(7), "/device:FOO:0",
                                  "/job:otherjob/replica:0/task:0/device:CPU:0",
                                  "/task:3/device:CPU:0", "GPU:0"};
  size_t k;
  for (k = 0; k < sizeof(unknown) / sizeof(unknown[0]); k++) {
    r = binary(ctx, "AddV2", f, f, unknown[k], s);
    CHECK(r == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "Could not satisfy device specification");
  }
  r = binary(ctx, "AddV2", f, f, "/cpu:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(r, s), FULL_CPU(0));
  TFE_DeleteTensorHandle(r);
  /* Soft placement: CPU:7 runs on a CPU, GPU on the default device. */
  TFE_ContextSetSoftDevicePlacement(ctx, 1, s);
  r = binary(ctx, "AddV2", f, f, FULL_CPU(7), s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(r, s), FULL_CPU(0));
  TFE_DeleteTensorHandle(r);
  r = binary(ctx, "AddV2", f, f, "/device:GPU:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(r, s) == 4.0f);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(f);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* a on CPU:1, b on CPU:0; AddV2 without a device runs where its first
 * input is (CPU:1), so b is on the "wrong" device. */
static TFE_TensorHandle* mixed_add(TFE_Context* ctx, TF_DataType dt,
                                   TF_Status* s) {
  TFE_TensorHandle *a0, *a, *b, *r;
  if (dt == TF_FLOAT) {
    a0 = scalar_f32(1, s);
    b = scalar_f32(2, s);
  } else {
    a0 = scalar_i32(1, s);
    b = scalar_i32(2, s);
  }
  a = TFE_TensorHandleCopyToDevice(a0, ctx, "CPU:1", s);
  CHECK_CODE(s, TF_OK);
  r = binary(ctx, "AddV2", a, b, NULL, s);
  TFE_DeleteTensorHandle(a0);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  return r;
}

/* As in TF, an op without a device request runs on the first device of
 * the best kind (CPU:0 here), not where its inputs are: an input on CPU:1
 * is copied under the placement policy. */
TEST(unplaced_ops_run_on_cpu0_and_policies_govern_copies) {
  TF_Status* s = TF_NewStatus();
  int policy;
  for (policy = 0; policy <= 3; policy++) {
    TFE_Context* ctx = new_ctx_policy(s, policy);
    TFE_TensorHandle* r;
    TFE_SetLogicalCpuDevices(ctx, 2, NULL, s);
    CHECK_CODE(s, TF_OK);
    r = mixed_add(ctx, TF_FLOAT, s);
    if (policy == TFE_DEVICE_PLACEMENT_SILENT ||
        policy == TFE_DEVICE_PLACEMENT_WARN) {
      CHECK_CODE(s, TF_OK);
      CHECK_STR_EQ(TFE_TensorHandleDeviceName(r, s), FULL_CPU(0));
      CHECK(read_f32(r, s) == 3.0f);
      TFE_DeleteTensorHandle(r);
    } else {
      CHECK(r == NULL);
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
      CHECK_STR_CONTAINS(TF_Message(s), "Tensors on conflicting devices");
      CHECK_STR_CONTAINS(TF_Message(s), "input #0");
    }
    r = mixed_add(ctx, TF_INT32, s);
    if (policy == TFE_DEVICE_PLACEMENT_EXPLICIT) {
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
    } else {
      CHECK_CODE(s, TF_OK);
      CHECK(read_i32(r, s) == 3);
      TFE_DeleteTensorHandle(r);
    }
    TFE_DeleteContext(ctx);
  }
  /* The thread's own policy overrides the context's. */
  {
    TFE_Context* ctx = new_ctx(s);
    TFE_TensorHandle* r;
    TFE_SetLogicalCpuDevices(ctx, 2, NULL, s);
    TFE_ContextSetThreadLocalDevicePlacementPolicy(
        ctx, TFE_DEVICE_PLACEMENT_EXPLICIT);
    r = mixed_add(ctx, TF_FLOAT, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TFE_ContextSetThreadLocalDevicePlacementPolicy(
        ctx, TFE_DEVICE_PLACEMENT_SILENT);
    r = mixed_add(ctx, TF_FLOAT, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteTensorHandle(r);
    TFE_DeleteContext(ctx);
  }
  /* An explicit device wins over the inputs' device. */
  {
    TFE_Context* ctx = new_ctx(s);
    TFE_TensorHandle* a = scalar_f32(5, s);
    TFE_TensorHandle* r;
    TFE_SetLogicalCpuDevices(ctx, 3, NULL, s);
    r = binary(ctx, "AddV2", a, a, "CPU:2", s);
    CHECK_CODE(s, TF_OK);
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(r, s), FULL_CPU(2));
    CHECK_EQ_INT(TFE_TensorHandleDeviceID(r, s), 2);
    /* ...but its output does not place the next op: an unplaced Mul runs
     * on CPU:0, as in TF. */
    {
      TFE_TensorHandle* r2 = binary(ctx, "Mul", r, r, NULL, s);
      CHECK_CODE(s, TF_OK);
      CHECK_STR_EQ(TFE_TensorHandleDeviceName(r2, s), FULL_CPU(0));
      CHECK(read_f32(r2, s) == 100.0f);
      TFE_DeleteTensorHandle(r2);
    }
    TFE_DeleteTensorHandle(r);
    TFE_DeleteTensorHandle(a);
    TFE_DeleteContext(ctx);
  }
  TF_DeleteStatus(s);
}

TEST(config_proto_devices_are_usable) {
  TF_Status* s = TF_NewStatus();
  static const unsigned char cfg[] = {0x0a, 0x07, 0x0a, 0x03, 'C',
                                      'P',  'U',  0x10, 0x02};
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  TFE_TensorHandle *a, *r;
  TFE_ContextOptionsSetConfig(o, cfg, sizeof(cfg), s);
  ctx = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  a = scalar_f32(1, s);
  r = binary(ctx, "AddV2", a, a, "/device:CPU:1", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(r, s), FULL_CPU(1));
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* One iteration of the dispatch benchmark's loop. */
static TF_Code add_iteration(TFE_Context* ctx, TFE_TensorHandle* a,
                             TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, "AddV2", s);
  TF_Code code;
  if (op == NULL) return TF_GetCode(s);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, a, s);
  TFE_OpSetAttrType(op, "T", TF_FLOAT);
  TFE_Execute(op, out, &n, s);
  code = TF_GetCode(s);
  TFE_DeleteOp(op);
  if (code == TF_OK) TFE_DeleteTensorHandle(out[0]);
  return code;
}

TEST(steady_state_allocates_only_outputs) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* a = scalar_f32(1, s);
  live_counts before;
  int i;
  for (i = 0; i < 10; i++) CHECK_EQ_INT(add_iteration(ctx, a, s), TF_OK);
  before = live_now();
  /* The output needs its tensor (two allocations in the core: the tensor,
   * and one block for buffer header and data) and its handle: three
   * allocations suffice for a whole iteration, so op, inputs, attrs,
   * placement and kernel lookup allocate nothing. */
  TFE_TestFailAllocationsAfter(3);
  for (i = 0; i < 1; i++) CHECK_EQ_INT(add_iteration(ctx, a, s), TF_OK);
  TFE_TestFailAllocationsAfter(-1);
  /* With fewer, the output cannot be made: a clean RESOURCE_EXHAUSTED. */
  for (i = 0; i < 3; i++) {
    TF_Code c;
    TFE_TestFailAllocationsAfter(i);
    c = add_iteration(ctx, a, s);
    TFE_TestFailAllocationsAfter(-1);
    CHECK_EQ_INT(c, TF_RESOURCE_EXHAUSTED);
    CHECK_LIVE_EQ(live_now(), before);
  }
  for (i = 0; i < 1000; i++) CHECK_EQ_INT(add_iteration(ctx, a, s), TF_OK);
  CHECK_LIVE_EQ(live_now(), before);
  /* Clearing the cache is harmless. */
  TFE_ContextClearCaches(ctx);
  CHECK_EQ_INT(add_iteration(ctx, a, s), TF_OK);
  TFE_ContextClearCaches(ctx);
  CHECK_EQ_INT(add_iteration(ctx, a, s), TF_OK);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(execute_out_of_memory_on_first_run) {
  TF_Status* s = TF_NewStatus();
  int k, ok = 0;
  for (k = 0; k < 200 && !ok; k++) {
    TFE_Context* ctx = new_ctx(s);
    float one = 1;
    int64_t d1[1] = {1};
    TFE_TensorHandle* a = make_handle(TF_FLOAT, d1, 1, &one, sizeof(one), s);
    TFE_TensorHandle* out[1];
    live_counts before = live_now();
    TFE_Op* op = TFE_NewOp(ctx, "ConcatV2", s);
    TFE_TensorHandle* ax = scalar_i32(0, s);
    TFE_TensorHandle* l[2];
    int n = 1;
    l[0] = a;
    l[1] = a;
    (void)before;
    TFE_OpAddInputList(op, l, 2, s);
    TFE_OpAddInput(op, ax, s);
    CHECK_CODE(s, TF_OK);
    TFE_TestFailAllocationsAfter(k);
    TFE_Execute(op, out, &n, s); /* cache miss: builds the entry */
    TFE_TestFailAllocationsAfter(-1);
    if (TF_GetCode(s) == TF_OK) {
      ok = 1;
      CHECK_EQ_INT(TFE_TensorHandleNumElements(out[0], s), 2);
      TFE_DeleteTensorHandle(out[0]);
    } else {
      CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    }
    TFE_DeleteOp(op);
    TFE_DeleteTensorHandle(ax);
    TFE_DeleteTensorHandle(a);
    TFE_DeleteContext(ctx);
    CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_CONTEXT), 0);
    CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR_HANDLE), 0);
    CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_OP), 0);
  }
  CHECK(ok);
  TF_DeleteStatus(s);
}

TEST(deferred_setter_failure_reported_by_execute) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* a = scalar_f32(1, s);
  TFE_TensorHandle* out[1];
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, "AddV2", s);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, a, s);
  TFE_TestFailAllocationsAfter(0);
  TFE_OpSetAttrString(op, "some_string", "abc", 3);
  TFE_TestFailAllocationsAfter(-1);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(inputs_outlive_their_api_handles) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* a = scalar_f32(4, s);
  TFE_TensorHandle* out[1];
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, "Mul", s);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, a, s);
  TFE_DeleteTensorHandle(a); /* the op still holds it */
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(out[0], s) == 16.0f);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR_HANDLE), 2);
  TFE_DeleteOp(op);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR_HANDLE), 1);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
