/* Reference (Ref(T)) tensors in eager execution: VariableV2,
 * TemporaryVariable, Assign, AssignAdd, AssignSub, RefIdentity,
 * IsVariableInitialized and DestroyTemporaryVariable on CPU and on the
 * example device (whose kernels use TF_TemporaryVariable,
 * TF_AssignRefVariable, TF_DestroyTemporaryVariable and
 * TF_OpKernelContext_ForwardRefInputToRefOutput), reference handles as
 * plain inputs, errors, argument validation and cleanup. */
#define _GNU_SOURCE 1
#include "se_test_util.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/ops.h"

static const int64_t k2[1] = {2};
static const int64_t k3[1] = {3};

static TFE_Op* new_op(TFE_Context* ctx, const char* name, const char* dev,
                      TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  if (dev != NULL) {
    TFE_OpSetDevice(op, dev, s);
    CHECK_CODE(s, TF_OK);
  }
  return op;
}

/* Runs op (deleted) and returns its single output, or NULL + status. */
static TFE_TensorHandle* exec1(TFE_Op* op, TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  if (TF_GetCode(s) != TF_OK) return NULL;
  CHECK_EQ_INT(n, 1);
  return out[0];
}

static TFE_TensorHandle* tmpvar(TFE_Context* ctx, const char* dev,
                                const int64_t* dims, int nd,
                                const char* name, TF_Status* s) {
  TFE_Op* op = new_op(ctx, "TemporaryVariable", dev, s);
  TFE_OpSetAttrShape(op, "shape", dims, nd, s);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  if (name != NULL) TFE_OpSetAttrString(op, "var_name", name, strlen(name));
  return exec1(op, s);
}

static TFE_TensorHandle* assign(TFE_Context* ctx, const char* op_name,
                                TFE_TensorHandle* ref, TFE_TensorHandle* v,
                                const char* dev, int validate_shape,
                                TF_Status* s) {
  TFE_Op* op = new_op(ctx, op_name, dev, s);
  TFE_OpAddInput(op, ref, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, v, s);
  CHECK_CODE(s, TF_OK);
  if (validate_shape >= 0) {
    TFE_OpSetAttrBool(op, "validate_shape", (unsigned char)validate_shape);
  }
  return exec1(op, s);
}

static TFE_TensorHandle* unary(TFE_Context* ctx, const char* op_name,
                               TFE_TensorHandle* x, const char* dev,
                               const char* var_name, TF_Status* s) {
  TFE_Op* op = new_op(ctx, op_name, dev, s);
  TFE_OpAddInput(op, x, s);
  CHECK_CODE(s, TF_OK);
  if (var_name != NULL) {
    TFE_OpSetAttrString(op, "var_name", var_name, strlen(var_name));
  }
  return exec1(op, s);
}

static void check_values(TFE_TensorHandle* h, const float* want, int n,
                         TF_Status* s) {
  float got[8];
  int i;
  CHECK_EQ_INT(TFE_TensorHandleNumElements(h, s), n);
  CHECK_CODE(s, TF_OK);
  read_f32s(h, got, n, s);
  for (i = 0; i < n; i++) CHECK(got[i] == want[i]);
}

/* TemporaryVariable -> Assign -> (AssignAdd) -> RefIdentity -> plain read
 * -> DestroyTemporaryVariable on device `dev`. */
static void run_sequence(TFE_Context* ctx, const char* dev, int with_add,
                         TF_Status* s) {
  const float a[2] = {1, 2}, b[2] = {10, 20};
  const float sum[2] = {11, 22}, twice[2] = {22, 44};
  const float* final = with_add ? sum : a;
  TFE_TensorHandle *va, *vb, *v, *r1, *r2, *r3, *plain, *dbl, *out;
  va = f32_handle(k2, 1, a, s);
  vb = f32_handle(k2, 1, b, s);
  if (strstr(dev, "CPU") == NULL) {
    TFE_TensorHandle* t = to_device(ctx, va, dev, s);
    TFE_DeleteTensorHandle(va);
    va = t;
    t = to_device(ctx, vb, dev, s);
    TFE_DeleteTensorHandle(vb);
    vb = t;
  }
  v = tmpvar(ctx, dev, k2, 1, "seq", s);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_TensorHandleDataType(v) == TF_FLOAT);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(v, s), 1);
  CHECK_EQ_INT(TFE_TensorHandleDim(v, 0, s), 2);
  r1 = assign(ctx, "Assign", v, va, dev, -1, s);
  CHECK_CODE(s, TF_OK);
  check_values(r1, a, 2, s);
  if (with_add) {
    r2 = assign(ctx, "AssignAdd", r1, vb, dev, -1, s);
    CHECK_CODE(s, TF_OK);
  } else {
    r2 = r1;
  }
  r3 = unary(ctx, "RefIdentity", r2, dev, NULL, s);
  CHECK_CODE(s, TF_OK);
  /* Every handle refers to the one variable. */
  check_values(v, final, 2, s);
  check_values(r3, final, 2, s);
  /* A reference given to a plain input is read (TF's dereference). */
  plain = unary(ctx, "Identity", r3, CPU0, NULL, s);
  CHECK_CODE(s, TF_OK);
  dbl = binary(ctx, "AddV2", r3, r3, dev, s);
  CHECK_CODE(s, TF_OK);
  check_values(dbl, with_add ? twice : (const float[]){2, 4}, 2, s);
  out = unary(ctx, "DestroyTemporaryVariable", r3, dev, "seq", s);
  CHECK_CODE(s, TF_OK);
  check_values(out, final, 2, s);
  /* The name is free again. */
  TFE_DeleteTensorHandle(out);
  {
    TFE_TensorHandle* again = tmpvar(ctx, dev, k2, 1, "seq", s);
    CHECK_CODE(s, TF_OK);
    out = unary(ctx, "DestroyTemporaryVariable", again, dev, "seq", s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteTensorHandle(again);
    TFE_DeleteTensorHandle(out);
  }
  /* The Identity taken before is a value, not a view of the variable. */
  check_values(plain, final, 2, s);
  TFE_DeleteTensorHandle(plain);
  TFE_DeleteTensorHandle(dbl);
  TFE_DeleteTensorHandle(r3);
  if (r2 != r1) TFE_DeleteTensorHandle(r2);
  TFE_DeleteTensorHandle(r1);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(va);
  TFE_DeleteTensorHandle(vb);
}

TEST(cpu_temporary_variable_sequence) {
  TF_Status* s = TF_NewStatus();
  int64_t cells = TFE_LiveObjectCount(TFE_OBJ_REF_CELL);
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  run_sequence(ctx, CPU0, 1, s);
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_REF_CELL), cells);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(device_temporary_variable_sequence) {
  TF_Status* s = TF_NewStatus();
  int64_t cells = TFE_LiveObjectCount(TFE_OBJ_REF_CELL);
  TFE_Context* ctx;
  long launches;
  load_test_device();
  ctx = new_ctx(s);
  launches = plugin_counter("launches");
  run_sequence(ctx, DEV0, 0, s);
  /* Assign copied on the device's stream. */
  CHECK(plugin_counter("launches") > launches);
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_REF_CELL), cells);
  TF_DeleteStatus(s);
}

/* An unplaced op with a reference input runs where the reference lives
 * (TF colocates reference edges), here on the example device although the
 * value comes from the host. */
TEST(unplaced_ops_follow_their_reference) {
  TF_Status* s = TF_NewStatus();
  const float a[2] = {3, 4};
  TFE_Context* ctx;
  TFE_TensorHandle *va, *v, *r, *out;
  load_test_device();
  ctx = new_ctx(s);
  va = f32_handle(k2, 1, a, s);
  v = tmpvar(ctx, DEV0, k2, 1, "follow", s);
  CHECK_CODE(s, TF_OK);
  r = assign(ctx, "Assign", v, va, NULL, -1, s);
  CHECK_CODE(s, TF_OK);
  CHECK(strcmp(TFE_TensorHandleDeviceName(r, s), DEV0) == 0);
  check_values(r, a, 2, s);
  out = unary(ctx, "DestroyTemporaryVariable", r, NULL, "follow", s);
  CHECK_CODE(s, TF_OK);
  CHECK(strcmp(TFE_TensorHandleDeviceName(out, s), DEV0) == 0);
  check_values(out, a, 2, s);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(va);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(assign_sub_and_shapes) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const float a[2] = {5, 7}, c[3] = {1, 2, 3}, d[2] = {1, 1};
  const float diff[2] = {4, 6};
  const int64_t k13[2] = {1, 3};
  TFE_TensorHandle *va = f32_handle(k2, 1, a, s), *vc = f32_handle(k3, 1, c, s);
  TFE_TensorHandle *vd = f32_handle(k2, 1, d, s), *vc13;
  TFE_TensorHandle *v = tmpvar(ctx, CPU0, k2, 1, "shapes", s), *r;
  CHECK_CODE(s, TF_OK);
  vc13 = make_handle(TF_FLOAT, k13, 2, c, sizeof c, s);
  r = assign(ctx, "Assign", v, va, CPU0, -1, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(r);
  r = assign(ctx, "AssignSub", v, vd, CPU0, -1, s);
  CHECK_CODE(s, TF_OK);
  check_values(v, diff, 2, s);
  TFE_DeleteTensorHandle(r);
  /* validate_shape (the default) rejects another shape, in TF's words. */
  CHECK(assign(ctx, "Assign", v, vc, CPU0, 1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Assign requires shapes of both tensors to match. lhs shape= "
               "[2] rhs shape= [3]");
  /* Without it the variable takes the new shape... */
  r = assign(ctx, "Assign", v, vc, CPU0, 0, s);
  CHECK_CODE(s, TF_OK);
  check_values(v, c, 3, s);
  TFE_DeleteTensorHandle(r);
  /* ...and with as many elements it is reshaped in place. */
  r = assign(ctx, "Assign", v, vc13, CPU0, 0, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(v, s), 2);
  CHECK_EQ_INT(TFE_TensorHandleDim(v, 1, s), 3);
  TFE_DeleteTensorHandle(r);
  /* AssignAdd needs the same shape. */
  CHECK(assign(ctx, "AssignAdd", v, vc, CPU0, -1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "must be the same size");
  r = unary(ctx, "DestroyTemporaryVariable", v, CPU0, "shapes", s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(va);
  TFE_DeleteTensorHandle(vc);
  TFE_DeleteTensorHandle(vc13);
  TFE_DeleteTensorHandle(vd);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(device_assign_validate_shape) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  const float c[3] = {4, 5, 6};
  TFE_TensorHandle *hc, *dc, *v, *r;
  load_test_device();
  ctx = new_ctx(s);
  hc = f32_handle(k3, 1, c, s);
  dc = to_device(ctx, hc, DEV0, s);
  v = tmpvar(ctx, DEV0, k2, 1, "dshape", s);
  CHECK_CODE(s, TF_OK);
  CHECK(assign(ctx, "Assign", v, dc, DEV0, 1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "lhs shape= [2] rhs shape= [3]");
  /* A new buffer from the device (TF_AllocateTemp through the core). */
  r = assign(ctx, "Assign", v, dc, DEV0, 0, s);
  CHECK_CODE(s, TF_OK);
  check_values(v, c, 3, s);
  TFE_DeleteTensorHandle(r);
  r = unary(ctx, "DestroyTemporaryVariable", v, DEV0, "dshape", s);
  CHECK_CODE(s, TF_OK);
  check_values(r, c, 3, s);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(dc);
  TFE_DeleteTensorHandle(hc);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(plain_handle_to_ref_input_is_rejected) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = scalar_f32(1, s);
  CHECK(unary(ctx, "RefIdentity", x, CPU0, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "input #0(zero-based) was expected to be a float_ref "
                     "tensor but is a float tensor");
  CHECK(assign(ctx, "Assign", x, x, CPU0, -1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(uninitialized_variable) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const float a[2] = {3, 4};
  TFE_TensorHandle *va = f32_handle(k2, 1, a, s), *v, *r, *init;
  TFE_Op* op = new_op(ctx, "VariableV2", CPU0, s);
  TFE_OpSetAttrShape(op, "shape", k2, 1, s);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  v = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_TensorHandleDataType(v) == TF_FLOAT);
  /* Reading fails as TF's "Attempting to use uninitialized value". */
  CHECK(TFE_TensorHandleResolve(v, s) == NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK_STR_CONTAINS(TF_Message(s), "uninitialized value");
  CHECK_EQ_INT(TFE_TensorHandleNumDims(v, s), -1);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK(unary(ctx, "Identity", v, CPU0, NULL, s) == NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK(assign(ctx, "AssignAdd", v, va, CPU0, -1, s) == NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  init = unary(ctx, "IsVariableInitialized", v, CPU0, NULL, s);
  CHECK_CODE(s, TF_OK);
  {
    TF_Tensor* t = TFE_TensorHandleResolve(init, s);
    CHECK(*(const unsigned char*)TF_TensorData(t) == 0);
    TF_DeleteTensor(t);
  }
  TFE_DeleteTensorHandle(init);
  /* Assign initializes it (allows_uninitialized_input). */
  r = assign(ctx, "Assign", v, va, CPU0, -1, s);
  CHECK_CODE(s, TF_OK);
  check_values(v, a, 2, s);
  init = unary(ctx, "IsVariableInitialized", r, CPU0, NULL, s);
  CHECK_CODE(s, TF_OK);
  {
    TF_Tensor* t = TFE_TensorHandleResolve(init, s);
    CHECK(*(const unsigned char*)TF_TensorData(t) == 1);
    TF_DeleteTensor(t);
  }
  TFE_DeleteTensorHandle(init);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(va);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(shared_variable_is_one_cell) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const float a[2] = {8, 9};
  TFE_TensorHandle *va = f32_handle(k2, 1, a, s), *v1, *v2, *r;
  int64_t cells = TFE_LiveObjectCount(TFE_OBJ_REF_CELL);
  int i;
  TFE_TensorHandle* vs[2];
  for (i = 0; i < 2; i++) {
    TFE_Op* op = new_op(ctx, "VariableV2", CPU0, s);
    TFE_OpSetAttrShape(op, "shape", k2, 1, s);
    TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
    TFE_OpSetAttrString(op, "shared_name", "w", 1);
    vs[i] = exec1(op, s);
    CHECK_CODE(s, TF_OK);
  }
  v1 = vs[0];
  v2 = vs[1];
  r = assign(ctx, "Assign", v1, va, CPU0, -1, s);
  CHECK_CODE(s, TF_OK);
  check_values(v2, a, 2, s);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_REF_CELL), cells + 1);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(v1);
  TFE_DeleteTensorHandle(v2);
  TFE_DeleteTensorHandle(va);
  /* The context keeps it until it goes. */
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_REF_CELL), cells + 1);
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_REF_CELL), cells);
  TF_DeleteStatus(s);
}

TEST(temporary_variable_names) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int64_t cells = TFE_LiveObjectCount(TFE_OBJ_REF_CELL);
  const float a[2] = {1, 1};
  TFE_TensorHandle *va = f32_handle(k2, 1, a, s), *r;
  TFE_TensorHandle* v = tmpvar(ctx, CPU0, k2, 1, "t1", s);
  CHECK_CODE(s, TF_OK);
  CHECK(tmpvar(ctx, CPU0, k2, 1, "t1", s) == NULL);
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  r = assign(ctx, "Assign", v, va, CPU0, -1, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(r);
  CHECK(unary(ctx, "DestroyTemporaryVariable", v, CPU0, "nope", s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "nope");
  /* var_name has no default. */
  CHECK(unary(ctx, "DestroyTemporaryVariable", v, CPU0, NULL, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "var_name");
  CHECK(unary(ctx, "DestroyTemporaryVariable", v, CPU0, "", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Missing var_name attribute");
  /* Handles and context gone: the variable goes with the context. */
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(va);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_REF_CELL), cells + 1);
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_REF_CELL), cells);
  TF_DeleteStatus(s);
}

TEST(async_executor_runs_reference_ops_in_order) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  const float a[2] = {1, 2}, b[2] = {10, 20}, sum[2] = {11, 22};
  TFE_TensorHandle *va, *vb, *v, *r1, *r2, *out;
  TFE_ContextOptionsSetAsync(o, 1);
  ctx = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  va = f32_handle(k2, 1, a, s);
  vb = f32_handle(k2, 1, b, s);
  v = tmpvar(ctx, CPU0, k2, 1, "async", s);
  CHECK_CODE(s, TF_OK);
  r1 = assign(ctx, "Assign", v, va, CPU0, -1, s);
  CHECK_CODE(s, TF_OK);
  r2 = assign(ctx, "AssignAdd", r1, vb, CPU0, -1, s);
  CHECK_CODE(s, TF_OK);
  out = unary(ctx, "DestroyTemporaryVariable", r2, CPU0, "async", s);
  CHECK_CODE(s, TF_OK);
  check_values(out, sum, 2, s);
  check_values(r1, sum, 2, s);
  /* A plain handle given as a reference fails at TFE_Execute. */
  CHECK(unary(ctx, "RefIdentity", va, CPU0, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(r2);
  TFE_DeleteTensorHandle(r1);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(va);
  TFE_DeleteTensorHandle(vb);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(reference_handle_queries) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const float a[2] = {6, 7};
  TFE_TensorHandle *va = f32_handle(k2, 1, a, s), *r, *c, *d;
  TFE_TensorHandle* v = tmpvar(ctx, CPU0, k2, 1, "q", s);
  TF_Tensor* t;
  CHECK_CODE(s, TF_OK);
  r = assign(ctx, "Assign", v, va, CPU0, -1, s);
  CHECK_CODE(s, TF_OK);
  /* Resolve gives a copy: later updates do not show through. */
  t = TFE_TensorHandleResolve(v, s);
  CHECK_CODE(s, TF_OK);
  c = TFE_TensorHandleCopySharingTensor(v, s); /* same reference */
  CHECK_CODE(s, TF_OK);
  d = TFE_TensorHandleCopyToDevice(v, ctx, CPU0, s); /* a plain copy */
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_TensorHandleDevicePointer(v, s) != NULL);
  CHECK_EQ_SIZE(TFE_TensorHandleDeviceMemorySize(v, s), 8);
  TFE_DeleteTensorHandle(r);
  r = assign(ctx, "AssignAdd", v, va, CPU0, -1, s);
  CHECK_CODE(s, TF_OK);
  CHECK(((const float*)TF_TensorData(t))[0] == 6);
  check_values(d, a, 2, s);
  {
    const float twice[2] = {12, 14};
    check_values(c, twice, 2, s);
    /* The copy still works as a reference input. */
    TFE_DeleteTensorHandle(r);
    r = unary(ctx, "DestroyTemporaryVariable", c, CPU0, "q", s);
    CHECK_CODE(s, TF_OK);
    check_values(r, twice, 2, s);
  }
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(c);
  TFE_DeleteTensorHandle(d);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(va);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- the C API's argument checks, from a kernel ---- */

static TF_Code g_codes[16];
static int g_is_ref[2];

static void copy_host(TF_OpKernelContext* ctx, TF_Tensor* src,
                      TF_Tensor* dst) {
  (void)ctx;
  memcpy(TF_TensorData(dst), TF_TensorData(src), TF_TensorByteSize(src));
}

static void probe_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  TF_StringView name = {"probe", 5}, empty = {"", 0};
  TF_Tensor* t = NULL;
  int64_t dims[1] = {2};
  (void)k;
  g_is_ref[0] = TF_IsRefInput(ctx, 0, st);
  g_is_ref[1] = TF_IsRefInput(ctx, 1, st);
  TF_IsRefInput(ctx, 7, st);
  g_codes[0] = TF_GetCode(st);
  TF_AssignRefVariable(ctx, 5, 0, 1, true, true, copy_host, st);
  g_codes[1] = TF_GetCode(st);
  TF_AssignRefVariable(ctx, 1, 0, 1, true, true, copy_host, st); /* plain */
  g_codes[2] = TF_GetCode(st);
  TF_AssignRefVariable(ctx, 0, 1, 1, true, true, copy_host, st); /* out 1 */
  g_codes[3] = TF_GetCode(st);
  TF_AssignRefVariable(ctx, 0, 0, 9, true, true, copy_host, st);
  g_codes[4] = TF_GetCode(st);
  TF_AssignRefVariable(ctx, 0, 0, 1, true, true, NULL, st);
  g_codes[5] = TF_GetCode(st);
  TF_DestroyTemporaryVariable(ctx, 1, &name, st); /* not a ref */
  g_codes[6] = TF_GetCode(st);
  TF_DestroyTemporaryVariable(ctx, -1, &name, st);
  g_codes[7] = TF_GetCode(st);
  TF_DestroyTemporaryVariable(ctx, 0, &empty, st);
  g_codes[8] = TF_GetCode(st);
  TF_TemporaryVariable(ctx, TF_FLOAT, dims, -1, &name, NULL, st);
  g_codes[9] = TF_GetCode(st);
  /* TF_GetInputTensorFromVariable on a reference: its tensor. */
  TF_GetInputTensorFromVariable(ctx, 0, false, false, false, copy_host, &t,
                                st);
  g_codes[10] = TF_GetCode(st);
  if (t != NULL) {
    g_codes[11] = TF_TensorElementCount(t) == 2 ? TF_OK : TF_INTERNAL;
    TF_DeleteTensor(t);
  }
  {
    int inputs[2] = {0, 1};
    TF_VariableInputLockHolder* h = NULL;
    TF_MaybeLockVariableInputMutexesInOrder(ctx, true, false, inputs, 2,
                                            copy_host, &h, st);
    g_codes[12] = TF_GetCode(st);
    /* The lock is held: lock_held reads do not block. */
    TF_GetInputTensorFromVariable(ctx, 0, true, false, false, copy_host, &t,
                                  st);
    TF_DeleteTensor(t);
    TF_ReleaseVariableInputLockHolder(h);
  }
  /* A plain tensor cannot be set on a Ref output. */
  TF_GetInput(ctx, 1, &t, st);
  TF_SetOutput(ctx, 0, t, st);
  g_codes[13] = TF_GetCode(st);
  TF_DeleteTensor(t);
  /* Misuse without a status fails the kernel: forward from a plain input. */
  TF_OpKernelContext_ForwardRefInputToRefOutput(ctx, 1, 0);
  TF_DeleteStatus(st);
}

TEST(c_api_argument_validation) {
  TF_Status* s = TF_NewStatus();
  TF_StringView name = {"x", 1};
  TFE_Context* ctx;
  TFE_TensorHandle *va, *v, *r;
  const float a[2] = {1, 2};
  TF_OpDefinitionBuilder* b;
  TF_KernelBuilder* kb;
  int i;
  /* NULL context: INVALID_ARGUMENT, no crash. */
  TF_AssignRefVariable(NULL, 0, 0, 1, true, true, copy_host, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_TemporaryVariable(NULL, TF_FLOAT, NULL, 0, &name, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DestroyTemporaryVariable(NULL, 0, &name, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_OpKernelContext_ForwardRefInputToRefOutput(NULL, 0, 0);

  b = TF_NewOpDefinitionBuilder("TfeRefProbe");
  TF_OpDefinitionBuilderAddInput(b, "ref: Ref(float)");
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_OpDefinitionBuilderAddOutput(b, "out: Ref(float)");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_OK);
  kb = TF_NewKernelBuilder("TfeRefProbe", "CPU", NULL, probe_compute, NULL);
  TF_RegisterKernelBuilder("TfeRefProbe", kb, s);
  CHECK_CODE(s, TF_OK);

  ctx = new_ctx(s);
  va = f32_handle(k2, 1, a, s);
  v = tmpvar(ctx, CPU0, k2, 1, "probe", s);
  CHECK_CODE(s, TF_OK);
  r = assign(ctx, "Assign", v, va, CPU0, -1, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 16; i++) g_codes[i] = TF_UNKNOWN;
  {
    TFE_TensorHandle* outs[2] = {NULL, NULL};
    int n = 2;
    TFE_Op* op = new_op(ctx, "TfeRefProbe", CPU0, s);
    TFE_OpAddInput(op, v, s);
    TFE_OpAddInput(op, va, s);
    TFE_Execute(op, outs, &n, s);
    TFE_DeleteOp(op);
    /* The forward from a plain input failed the kernel. */
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "not a reference");
  }
  CHECK_EQ_INT(g_is_ref[0], 1);
  CHECK_EQ_INT(g_is_ref[1], 0);
  CHECK_EQ_INT(g_codes[0], TF_OUT_OF_RANGE);
  for (i = 1; i <= 9; i++) CHECK_EQ_INT(g_codes[i], TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_codes[10], TF_OK);
  CHECK_EQ_INT(g_codes[11], TF_OK);
  CHECK_EQ_INT(g_codes[12], TF_OK);
  CHECK_EQ_INT(g_codes[13], TF_INVALID_ARGUMENT);
  /* Nothing was destroyed by the failed calls. */
  TFE_DeleteTensorHandle(r);
  r = unary(ctx, "DestroyTemporaryVariable", v, CPU0, "probe", s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(va);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
