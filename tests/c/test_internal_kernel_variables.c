/* kernels_experimental.h and the kernel-side NextPluggableDevice API on
 * resource variables (csrc/kernels/resource.h). White-box: the test makes
 * variables and DT_RESOURCE handles with the internal API and runs kernels
 * (defined here with ops.h / kernels.h) that use the C API on them. */
#define _GNU_SOURCE 1
#include <string.h>

#include "eager/eager_internal.h"
#include "kernels/resource.h"
#include "tensorflow/c/experimental/next_pluggable_device/c_api.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/ops.h"
#include "tfe_test.h"

static TF_Status* g_s;

static void define(const char* name, const char* const* in,
                   const char* const* out, const char* const* attrs) {
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder(name);
  for (; in && *in; in++) TF_OpDefinitionBuilderAddInput(b, *in);
  for (; out && *out; out++) TF_OpDefinitionBuilderAddOutput(b, *out);
  for (; attrs && *attrs; attrs++) TF_OpDefinitionBuilderAddAttr(b, *attrs);
  TF_RegisterOpDefinition(b, g_s);
  CHECK_CODE(g_s, TF_OK);
}

static void kernel(const char* op, void (*fn)(void*, TF_OpKernelContext*)) {
  TF_KernelBuilder* b = TF_NewKernelBuilder(op, "CPU", NULL, fn, NULL);
  TF_RegisterKernelBuilder(op, b, g_s);
  CHECK_CODE(g_s, TF_OK);
}

static int g_copies, g_updates;

static void copy_fn(TF_OpKernelContext* ctx, TF_Tensor* src, TF_Tensor* dst) {
  (void)ctx;
  g_copies++;
  memcpy(TF_TensorData(dst), TF_TensorData(src), TF_TensorByteSize(src));
}

static void add_fn(TF_OpKernelContext* ctx, TF_Tensor* var, TF_Tensor* value,
                   int op) {
  float* v = (float*)TF_TensorData(var);
  const float* x = (const float*)TF_TensorData(value);
  int64_t i, n = TF_TensorElementCount(var);
  (void)ctx;
  g_updates++;
  CHECK_EQ_INT(op, 7);
  for (i = 0; i < n; i++) v[i] += x[i];
}

static void report(TF_OpKernelContext* ctx, TF_Status* st) {
  if (TF_GetCode(st) != TF_OK) TF_OpKernelContext_Failure(ctx, st);
}

static void assign_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  (void)k;
  TF_AssignVariable(ctx, 0, 1, true, copy_fn, st);
  report(ctx, st);
  TF_DeleteStatus(st);
}

static void update_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  (void)k;
  TF_AssignUpdateVariable(ctx, 0, 1, 7, 0, copy_fn, add_fn, st);
  report(ctx, st);
  TF_DeleteStatus(st);
}

static void read_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  TF_Tensor* t = NULL;
  (void)k;
  TF_GetInputTensorFromVariable(ctx, 0, false, false, false, copy_fn, &t, st);
  if (TF_GetCode(st) == TF_OK) TF_SetOutput(ctx, 0, t, st);
  report(ctx, st);
  TF_DeleteTensor(t);
  TF_DeleteStatus(st);
}

/* Sums two variables under their locks (taken in order). */
static void lock_sum_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  TF_VariableInputLockHolder* holder = NULL;
  const int inputs[3] = {1, 0, 1};
  TF_Tensor *a = NULL, *b = NULL, *out;
  (void)k;
  TF_MaybeLockVariableInputMutexesInOrder(ctx, true, true, inputs, 3, copy_fn,
                                          &holder, st);
  if (TF_GetCode(st) != TF_OK) goto done;
  TF_GetInputTensorFromVariable(ctx, 0, true, false, false, copy_fn, &a, st);
  if (TF_GetCode(st) == TF_OK) {
    TF_GetInputTensorFromVariable(ctx, 1, true, false, false, copy_fn, &b, st);
  }
  if (TF_GetCode(st) == TF_OK) {
    out = TF_AllocateOutput(ctx, 0, TF_FLOAT, NULL, 0, 4, st);
    *(float*)TF_TensorData(out) =
        ((float*)TF_TensorData(a))[0] + ((float*)TF_TensorData(b))[0];
    TF_DeleteTensor(out);
  }
  TF_DeleteTensor(a);
  TF_DeleteTensor(b);
  TF_ReleaseVariableInputLockHolder(holder);
done:
  report(ctx, st);
  TF_DeleteStatus(st);
}

/* VariableInfo: reads the old value, gives the variable a fresh tensor
 * filled with 5s. */
static void info_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  TF_VariableInfo* info = TF_CreateVariableInfoFromContext(ctx, 0, st);
  TF_VariableInfo* infos[1];
  TF_Tensor *old = NULL, *fresh = NULL;
  int64_t i;
  (void)k;
  if (info == NULL) goto done;
  TF_AllocateTempForVariableInfo(ctx, info, st);
  CHECK_CODE(st, TF_FAILED_PRECONDITION); /* not locked yet */
  infos[0] = info;
  TF_LockVariableInfos(infos, 1, st);
  CHECK_CODE(st, TF_OK);
  TF_LockVariableInfos(infos, 1, st);
  CHECK_CODE(st, TF_FAILED_PRECONDITION); /* twice */
  old = TF_GetTensorFromVariableInfo(info, st);
  CHECK_CODE(st, TF_OK);
  TF_SetOutput(ctx, 0, old, st);
  TF_AllocateTempForVariableInfo(ctx, info, st);
  CHECK_CODE(st, TF_OK);
  fresh = TF_GetTensorFromVariableInfo(info, st);
  CHECK(TF_TensorData(fresh) != TF_TensorData(old));
  for (i = 0; i < TF_TensorElementCount(fresh); i++) {
    ((float*)TF_TensorData(fresh))[i] = 5;
  }
done:
  TF_DeleteTensor(old);
  TF_DeleteTensor(fresh);
  TF_DeleteVariableInfo(info);
  report(ctx, st);
  TF_DeleteStatus(st);
}

/* Plugin resources and the rest of next_pluggable_device/c_api.h. */
static int g_created, g_deleted;
static int g_object = 42;

static void* create_res(void* arg) {
  g_created++;
  return arg;
}

static void delete_res(void* p) {
  CHECK(p == &g_object);
  g_deleted++;
}

static void plugin_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  void* got = NULL;
  TF_Buffer proto = {NULL, 0, NULL};
  TF_Tensor* out;
  (void)k;
  CHECK(TF_GetDevice(ctx) != NULL);
  CHECK(TF_GetCoordinationServiceAgent(ctx) == NULL);
  CHECK(!TF_CoordinationServiceIsInitialized(NULL));
  TF_CoordinationServiceInsertKeyValue("k", 1, "v", 1, NULL, st);
  CHECK_CODE(st, TF_FAILED_PRECONDITION);
  CHECK(TF_CoordinationServiceGetKeyValue("k", 1, NULL, st) == NULL);
  CHECK_CODE(st, TF_FAILED_PRECONDITION);
  TF_CoordinationServiceDeleteKeyValue("k", 1, NULL, st);
  CHECK_CODE(st, TF_FAILED_PRECONDITION);
  TF_LookupOrCreatePluginResource(ctx, "c", "r", &got, create_res, &g_object,
                                  delete_res, st);
  CHECK_CODE(st, TF_OK);
  CHECK(got == &g_object);
  TF_LookupOrCreatePluginResource(ctx, "c", "r", &got, create_res, NULL,
                                  delete_res, st);
  CHECK_CODE(st, TF_OK);
  CHECK(got == &g_object);
  TF_CreatePluginResource(ctx, "c", "r", &g_object, delete_res, st);
  CHECK_CODE(st, TF_ALREADY_EXISTS);
  TF_CreatePluginResource(ctx, NULL, "r", &g_object, delete_res, st);
  CHECK_CODE(st, TF_INVALID_ARGUMENT);
  /* The variable input's handle proto names the variable. */
  TF_GetSerializedResourceHandleProto(ctx, 0, &proto, st);
  CHECK_CODE(st, TF_OK);
  CHECK(proto.length > 0);
  CHECK(memmem(proto.data, proto.length, "my_var", 6) != NULL);
  CHECK(memmem(proto.data, proto.length, "my_container", 12) != NULL);
  proto.data_deallocator((void*)proto.data, proto.length);
  out = TF_AllocateOutput(ctx, 0, TF_FLOAT, NULL, 0, 4, st);
  *(float*)TF_TensorData(out) = (float)g_created;
  TF_DeleteTensor(out);
  report(ctx, st);
  TF_DeleteStatus(st);
}

static void setup_ops(void) {
  static int done;
  static const char* const res_value[] = {"resource: resource", "value: T",
                                          NULL};
  static const char* const res_only[] = {"resource: resource", NULL};
  static const char* const two_res[] = {"a: resource", "b: resource", NULL};
  static const char* const t_attr[] = {"T: type", NULL};
  static const char* const float_out[] = {"value: float", NULL};
  if (done) return;
  done = 1;
  define("VcAssign", res_value, NULL, t_attr);
  kernel("VcAssign", assign_compute);
  define("VcUpdate", res_value, NULL, t_attr);
  kernel("VcUpdate", update_compute);
  define("VcRead", res_only, float_out, NULL);
  kernel("VcRead", read_compute);
  define("VcLockSum", two_res, float_out, NULL);
  kernel("VcLockSum", lock_sum_compute);
  define("VcInfo", res_only, float_out, NULL);
  kernel("VcInfo", info_compute);
  define("VcPlugin", res_only, float_out, NULL);
  kernel("VcPlugin", plugin_compute);
}

static TFE_TensorHandle* var_handle(TFE_Context* ctx, const char* name,
                                    TF_DataType dtype) {
  tfe_resource* r =
      tfe_variable_new(ctx->id, ctx->devices[0]->name, "my_container", name,
                       dtype);
  TF_Tensor* t;
  TFE_TensorHandle* h;
  CHECK(r != NULL);
  CHECK(tfe_resources_insert(r, g_s));
  t = tfe_resource_new_handle(r);
  tfe_resource_unref(r);
  h = TFE_NewTensorHandleFromTensor(ctx, t, g_s);
  CHECK_CODE(g_s, TF_OK);
  TF_DeleteTensor(t);
  return h;
}

static TFE_TensorHandle* floats(const float* v, int64_t n) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, &n, 1, (size_t)n * 4);
  TFE_TensorHandle* h;
  memcpy(TF_TensorData(t), v, (size_t)n * 4);
  h = TFE_NewTensorHandle(t, g_s);
  TF_DeleteTensor(t);
  return h;
}

/* Runs op with inputs; returns its single output or NULL. */
static TFE_TensorHandle* run(TFE_Context* ctx, const char* name,
                             TFE_TensorHandle* a, TFE_TensorHandle* b,
                             int outputs) {
  TFE_Op* op = TFE_NewOp(ctx, name, g_s);
  TFE_TensorHandle* out = NULL;
  int n = outputs;
  CHECK_CODE(g_s, TF_OK);
  TFE_OpAddInput(op, a, g_s);
  if (b != NULL) TFE_OpAddInput(op, b, g_s);
  TFE_Execute(op, &out, &n, g_s);
  TFE_DeleteOp(op);
  return out;
}

static void read3(TFE_TensorHandle* h, float* out) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, g_s);
  CHECK_CODE(g_s, TF_OK);
  memcpy(out, TF_TensorData(t), TF_TensorByteSize(t));
  TF_DeleteTensor(t);
}

static TFE_Context* new_context(void) {
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* c = TFE_NewContext(o, g_s);
  TFE_DeleteContextOptions(o);
  CHECK_CODE(g_s, TF_OK);
  return c;
}

TEST(assign_read_and_update_variables) {
  TFE_Context* ctx;
  TFE_TensorHandle *v, *x, *y, *out, *bad;
  float a[3] = {1, 2, 3}, b[3] = {10, 20, 30}, got[3], wrong[2] = {0, 0};
  g_s = TF_NewStatus();
  setup_ops();
  ctx = new_context();
  v = var_handle(ctx, "my_var", TF_FLOAT);
  x = floats(a, 3);
  y = floats(b, 3);
  /* Reading before any assignment fails. */
  CHECK(run(ctx, "VcRead", v, NULL, 1) == NULL);
  CHECK_CODE(g_s, TF_FAILED_PRECONDITION);
  CHECK(run(ctx, "VcUpdate", v, y, 0) == NULL);
  CHECK_CODE(g_s, TF_FAILED_PRECONDITION);
  run(ctx, "VcAssign", v, x, 0);
  CHECK_CODE(g_s, TF_OK);
  CHECK_EQ_INT(g_copies, 1);
  out = run(ctx, "VcRead", v, NULL, 1);
  CHECK_CODE(g_s, TF_OK);
  read3(out, got);
  CHECK(got[0] == 1 && got[2] == 3);
  /* `out` shares the variable's buffer, so the update copies first: the
   * value read before does not change. */
  run(ctx, "VcUpdate", v, y, 0);
  CHECK_CODE(g_s, TF_OK);
  CHECK_EQ_INT(g_updates, 1);
  CHECK_EQ_INT(g_copies, 2);
  read3(out, got);
  CHECK(got[0] == 1);
  TFE_DeleteTensorHandle(out);
  out = run(ctx, "VcRead", v, NULL, 1);
  read3(out, got);
  CHECK(got[0] == 11 && got[1] == 22 && got[2] == 33);
  TFE_DeleteTensorHandle(out);
  /* Shape validation and dtype checks. */
  bad = floats(wrong, 2);
  CHECK(run(ctx, "VcAssign", v, bad, 0) == NULL);
  CHECK_CODE(g_s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(g_s), "wrong shape. Expected [3] got [2]");
  CHECK(run(ctx, "VcUpdate", v, bad, 0) == NULL);
  CHECK_CODE(g_s, TF_INVALID_ARGUMENT);
  {
    TFE_TensorHandle* iv = var_handle(ctx, "int_var", TF_INT32);
    CHECK(run(ctx, "VcAssign", iv, x, 0) == NULL);
    CHECK_CODE(g_s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(g_s), "wrong dtype");
    TFE_DeleteTensorHandle(iv);
  }
  /* A plain tensor where a resource is expected. */
  CHECK(run(ctx, "VcAssign", x, x, 0) == NULL);
  CHECK_EQ_INT(TF_GetCode(g_s) == TF_OK, 0);
  TFE_DeleteTensorHandle(bad);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(tfe_resources_count(), 0);
  TF_DeleteStatus(g_s);
}

TEST(locks_and_variable_infos) {
  TFE_Context* ctx;
  TFE_TensorHandle *v, *w, *x, *out;
  float a[3] = {1, 2, 3}, got[3];
  g_s = TF_NewStatus();
  setup_ops();
  ctx = new_context();
  v = var_handle(ctx, "v", TF_FLOAT);
  w = var_handle(ctx, "w", TF_FLOAT);
  x = floats(a, 3);
  run(ctx, "VcAssign", v, x, 0);
  run(ctx, "VcAssign", w, x, 0);
  CHECK_CODE(g_s, TF_OK);
  out = run(ctx, "VcLockSum", v, w, 1);
  CHECK_CODE(g_s, TF_OK);
  read3(out, got);
  CHECK(got[0] == 2);
  TFE_DeleteTensorHandle(out);
  out = run(ctx, "VcInfo", v, NULL, 1);
  CHECK_CODE(g_s, TF_OK);
  read3(out, got);
  CHECK(got[0] == 1 && got[2] == 3);
  TFE_DeleteTensorHandle(out);
  out = run(ctx, "VcRead", v, NULL, 1);
  read3(out, got);
  CHECK(got[0] == 5 && got[1] == 5 && got[2] == 5);
  TFE_DeleteTensorHandle(out);
  /* A non-resource input. */
  CHECK(run(ctx, "VcInfo", x, NULL, 1) == NULL);
  CHECK_CODE(g_s, TF_INVALID_ARGUMENT);
  TF_DeleteVariableInfo(NULL);
  TF_ReleaseVariableInputLockHolder(NULL);
  TF_LockVariableInfos(NULL, 1, g_s);
  CHECK_CODE(g_s, TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(w);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(g_s);
}

TEST(plugin_resources_are_deleted_once_with_their_context) {
  TFE_Context* ctx;
  TFE_TensorHandle *v, *out;
  g_s = TF_NewStatus();
  setup_ops();
  ctx = new_context();
  v = var_handle(ctx, "my_var", TF_FLOAT);
  out = run(ctx, "VcPlugin", v, NULL, 1);
  CHECK_CODE(g_s, TF_OK);
  CHECK_EQ_INT(g_created, 1);
  TFE_DeleteTensorHandle(out);
  out = run(ctx, "VcPlugin", v, NULL, 1);
  CHECK_CODE(g_s, TF_OK);
  CHECK_EQ_INT(g_created, 1);
  TFE_DeleteTensorHandle(out);
  CHECK_EQ_INT(g_deleted, 0);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(g_deleted, 1);
  CHECK_EQ_INT(tfe_resources_count(), 0);
  TF_DeleteStatus(g_s);
}

TEST(unsupported_variants_and_refs_are_unimplemented) {
  TF_Status* st = TF_NewStatus();
  /* The reference functions work (tests/c/test_ref_variables.c); without
   * a kernel context they report INVALID_ARGUMENT. */
  TF_AssignRefVariable(NULL, 0, 0, 1, true, true, copy_fn, st);
  CHECK_CODE(st, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(st), "TF_AssignRefVariable");
  TF_TemporaryVariable(NULL, TF_FLOAT, NULL, 0, NULL, NULL, st);
  CHECK_CODE(st, TF_INVALID_ARGUMENT);
  TF_DestroyTemporaryVariable(NULL, 0, NULL, st);
  CHECK_CODE(st, TF_INVALID_ARGUMENT);
  /* TF_AddNVariant / TF_ZerosLikeVariant work now
   * (tests/c/test_variant_lists.c); NULL arguments are rejected. */
  TF_AddNVariant(NULL, NULL, st);
  CHECK_CODE(st, TF_INVALID_ARGUMENT);
  TF_ZerosLikeVariant(NULL, NULL, st);
  CHECK_CODE(st, TF_INVALID_ARGUMENT);
  /* The DT_VARIANT paths of these two work now; NULL is rejected. */
  TF_AssignUpdateVariable(NULL, 0, 1, 0, 1, copy_fn, add_fn, st);
  CHECK_CODE(st, TF_INVALID_ARGUMENT);
  TF_GetInputTensorFromVariable(NULL, 0, false, true, false, copy_fn, NULL,
                                st);
  CHECK_CODE(st, TF_INVALID_ARGUMENT);
  TF_OpKernelContext_ForwardRefInputToRefOutput(NULL, 0, 0);
  TF_CreateAndSetPjRtCApiClient("X", st, NULL, 0);
  CHECK_CODE(st, TF_UNIMPLEMENTED);
  CHECK(TF_GetPjRtCClient("X", st) == NULL);
  CHECK_CODE(st, TF_UNIMPLEMENTED);
  CHECK(TF_GetPjRtCBuffer(NULL, st) == NULL);
  CHECK_CODE(st, TF_UNIMPLEMENTED);
  TF_CreatePjRtBuffer(NULL, NULL, "X", st);
  CHECK_CODE(st, TF_UNIMPLEMENTED);
  CHECK(TF_GetDevice(NULL) == NULL);
  TF_DeleteStatus(st);
}

TFE_TEST_MAIN
