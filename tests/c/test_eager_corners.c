/* TF 2.21's behaviour in the corners of the eager runtime (issue 12, part
 * 4): canonical op device names, explicit placement on a device without a
 * kernel, TF's exact messages for NULL handles and unknown devices, and
 * input forwarding (an elementwise kernel writes its output into an input
 * buffer that nobody else can observe, and never into one that somebody
 * can). */
#include <stdlib.h>
#include <string.h>

#include "se_test_util.h"
#include "tensorflow/c/eager/dlpack.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"

#define N 1024

/* ------------------------------------------------------------------------
 * Helpers. */

/* A [n] float handle with x[i] = base + i; the TF_Tensor is deleted, so
 * the handle holds the only reference to the buffer. */
static TFE_TensorHandle* iota_f32(int64_t n, float base, TF_Status* s) {
  float* v = (float*)malloc(sizeof(float) * (size_t)n);
  TFE_TensorHandle* h;
  int64_t i;
  CHECK(v != NULL);
  for (i = 0; i < n; i++) v[i] = base + (float)i;
  h = make_handle(TF_FLOAT, &n, 1, v, sizeof(float) * (size_t)n, s);
  free(v);
  return h;
}

static void* data_of(TFE_TensorHandle* h, TF_Status* s) {
  void* p = TFE_TensorHandleDevicePointer(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK(p != NULL);
  return p;
}

/* The data pointer a TF_Tensor resolved from h shows (TF_TensorData). */
static void* resolved_data(TFE_TensorHandle* h, TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  void* p;
  CHECK_CODE(s, TF_OK);
  p = TF_TensorData(t);
  TF_DeleteTensor(t);
  return p;
}

/* Checks h == base + i (negated when neg) for i < n. */
static void check_iota(TFE_TensorHandle* h, int64_t n, float base, int neg,
                       TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  const float* v;
  int64_t i;
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), sizeof(float) * (size_t)n);
  v = (const float*)TF_TensorData(t);
  for (i = 0; i < n; i++) {
    float want = base + (float)i;
    if (neg) want = -want;
    if (v[i] != want) {
      TF_DeleteTensor(t);
      TFE_FAIL("element %lld is %g, expected %g", (long long)i, v[i], want);
    }
  }
  TF_DeleteTensor(t);
}

/* An op on ctx with the given inputs added (not executed). */
static TFE_Op* op_with(TFE_Context* ctx, const char* name,
                       TFE_TensorHandle** in, int n, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  int i;
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < n; i++) {
    TFE_OpAddInput(op, in[i], s);
    CHECK_CODE(s, TF_OK);
  }
  return op;
}

/* Executes an op without outputs and deletes it. */
static void run_no_outputs(TFE_Op* op, TF_Status* s) {
  TFE_TensorHandle* none[1] = {NULL};
  int n = 0;
  TFE_Execute(op, none, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);
}

/* Executes a one-output op and deletes it; the output or NULL. */
static TFE_TensorHandle* exec1(TFE_Op* op, TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK ? out[0] : NULL;
}

/* ------------------------------------------------------------------------
 * Device names. */

TEST(op_device_reads_back_in_tf_canonical_form) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = iota_f32(4, 1, s);
  TFE_TensorHandle* y;
  TFE_Op* op = op_with(ctx, "Neg", &x, 1, s);
  TFE_OpSetDevice(op, "/cpu:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_OpGetDevice(op, s), "/device:CPU:0");
  TFE_OpSetDevice(op, "cpu:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_OpGetDevice(op, s), "/device:CPU:0");
  TFE_OpSetDevice(op, "/job:localhost/device:CPU:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_OpGetDevice(op, s), "/job:localhost/device:CPU:0");
  TFE_OpSetDevice(op, "/device:CPU", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_OpGetDevice(op, s), "/device:CPU:*");
  /* The canonical name still places the op. */
  TFE_OpSetDevice(op, "/cpu:0", s);
  y = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(y, s), FULL_CPU(0));
  check_iota(y, 4, 1, 1, s);
  TFE_DeleteTensorHandle(y);
  /* TFE_OpReset canonicalizes too; "" clears the request. */
  op = TFE_NewOp(ctx, "Neg", s);
  TFE_OpReset(op, "Neg", "/gpu:1", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_OpGetDevice(op, s), "/device:GPU:1");
  TFE_OpReset(op, "Neg", "", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_OpGetDevice(op, s), "");
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Explicit placement on a device without a kernel. */

TEST(explicit_device_without_kernel_is_invalid_argument) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle *a, *b, *in[2], *out;
  load_test_device();
  ctx = new_ctx(s);
  a = scalar_f32(3, s);
  b = scalar_f32(1, s);
  in[0] = a;
  in[1] = b;
  /* The test device has an AddV2 kernel but none for Sub. */
  CHECK(run_op(ctx, "Sub", in, 2, "/job:localhost/replica:0/task:0/"
                                  "device:MY_DEVICE:0", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(
      TF_Message(s),
      "Could not satisfy device specification "
      "'/job:localhost/replica:0/task:0/device:MY_DEVICE:0'. "
      "enable_soft_placement=0. Supported device types [CPU]. "
      "All available devices [/job:localhost/replica:0/task:0/device:CPU:0");
  /* The request is printed in its canonical form. */
  CHECK(run_op(ctx, "Sub", in, 2, "MY_DEVICE:0", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "'/device:MY_DEVICE:0'");
  /* The same again (the kernel cache's fast path). */
  CHECK(run_op(ctx, "Sub", in, 2, "MY_DEVICE:0", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* A device the context does not have: the same error, naming the kinds
   * that have a kernel (CPU only for Sub). */
  CHECK(run_op(ctx, "Sub", in, 2, "/job:localhost/device:FOO:0", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Could not satisfy device specification "
                     "'/job:localhost/device:FOO:0'. enable_soft_placement=0."
                     " Supported device types [CPU]. All available devices "
                     "[/job:localhost/replica:0/task:0/device:CPU:0");
  /* AddV2 has kernels on both kinds. */
  CHECK(run_op(ctx, "AddV2", in, 2, "/device:CPU:7", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Supported device types [CPU, MY_DEVICE]");
  /* An unplaced Sub runs on the host. */
  out = run_op(ctx, "Sub", in, 2, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(out, s) == 2);
  TFE_DeleteTensorHandle(out);
  /* With soft placement the op falls back to a device that has one. */
  TFE_ContextSetSoftDevicePlacement(ctx, 1, s);
  CHECK_CODE(s, TF_OK);
  out = run_op(ctx, "Sub", in, 2, "MY_DEVICE:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(out, s), FULL_CPU(0));
  CHECK(read_f32(out, s) == 2);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteContext(ctx);
  /* ConfigProto.allow_soft_placement (field 7) turns it on too, as in TF. */
  {
    static const unsigned char cfg[] = {0x38, 0x01};
    TFE_ContextOptions* o = TFE_NewContextOptions();
    TFE_ContextOptionsSetConfig(o, cfg, sizeof cfg, s);
    CHECK_CODE(s, TF_OK);
    ctx = TFE_NewContext(o, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteContextOptions(o);
    out = run_op(ctx, "Sub", in, 2, "MY_DEVICE:0", s);
    CHECK_CODE(s, TF_OK);
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(out, s), FULL_CPU(0));
    TFE_DeleteTensorHandle(out);
    TFE_DeleteContext(ctx);
  }
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TF_DeleteStatus(s);
}

/* An op that no device kind has a kernel for stays TF's NOT_FOUND, placed
 * or not. */
TEST(op_without_any_kernel_is_not_found) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle* x;
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("CornersNoKernel");
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_OK);
  ctx = new_ctx(s);
  x = scalar_f32(1, s);
  CHECK(run_op(ctx, "CornersNoKernel", &x, 1, "/cpu:0", s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "Could not find device for node");
  CHECK(run_op(ctx, "CornersNoKernel", &x, 1, NULL, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  /* Also when the requested device does not exist (TF looks for kernels
   * first). */
  CHECK(run_op(ctx, "CornersNoKernel", &x, 1, "/device:FOO:0", s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "Could not find device for node");
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Messages TF's tests compare verbatim. */

#define CHECK_INVALID_HANDLE(s)                        \
  do {                                                 \
    CHECK_CODE(s, TF_INVALID_ARGUMENT);                \
    CHECK_STR_EQ(TF_Message(s), "Invalid handle");     \
    TF_SetStatus(s, TF_OK, "");                        \
  } while (0)

TEST(null_handle_is_invalid_handle) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(NULL, s), -1);
  CHECK_INVALID_HANDLE(s);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(NULL, s), -1);
  CHECK_INVALID_HANDLE(s);
  CHECK_EQ_INT(TFE_TensorHandleDim(NULL, 0, s), -1);
  CHECK_INVALID_HANDLE(s);
  CHECK(TFE_TensorHandleDeviceName(NULL, s) == NULL);
  CHECK_INVALID_HANDLE(s);
  CHECK(TFE_TensorHandleBackingDeviceName(NULL, s) == NULL);
  CHECK_INVALID_HANDLE(s);
  CHECK(TFE_TensorHandleResolve(NULL, s) == NULL);
  CHECK_INVALID_HANDLE(s);
  CHECK(TFE_TensorHandleCopySharingTensor(NULL, s) == NULL);
  CHECK_INVALID_HANDLE(s);
  CHECK(TFE_TensorHandleCopyToDevice(NULL, ctx, FULL_CPU(0), s) == NULL);
  CHECK_INVALID_HANDLE(s);
  CHECK(TFE_TensorHandleDevicePointer(NULL, s) == NULL);
  CHECK_INVALID_HANDLE(s);
  CHECK_EQ_SIZE(TFE_TensorHandleDeviceMemorySize(NULL, s), 0);
  CHECK_INVALID_HANDLE(s);
  CHECK(TFE_TensorHandleDeviceType(NULL, s) == NULL);
  CHECK_INVALID_HANDLE(s);
  CHECK_EQ_INT(TFE_TensorHandleDeviceID(NULL, s), -1);
  CHECK_INVALID_HANDLE(s);
  TFE_TensorHandleGetStatus(NULL, s);
  CHECK_INVALID_HANDLE(s);
  CHECK(TFE_TensorHandleTensorDebugInfo(NULL, s) == NULL);
  CHECK_INVALID_HANDLE(s);
  CHECK(TFE_TensorHandleDataType(NULL) == (TF_DataType)0);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

static int g_deallocated;
static void count_dealloc(void* data, size_t len, void* arg) {
  (void)data;
  (void)len;
  (void)arg;
  g_deallocated++;
}

TEST(unknown_device_messages) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = iota_f32(3, 0, s);
  TFE_TensorHandle* c;
  static float block[4];
  int64_t dim = 4;
  CHECK(TFE_TensorHandleCopyToDevice(x, ctx, "/device:CPU:9", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "/device:CPU:9 unknown device.");
  CHECK(TFE_TensorHandleCopyToDevice(x, ctx, "garbage::", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "garbage:: unknown device.");
  CHECK(TFE_TensorHandleCopyToDevice(x, ctx, "/device:FOO:0", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "/device:FOO:0 unknown device");
  /* No name is the host CPU, as in TF. */
  c = TFE_TensorHandleCopyToDevice(x, ctx, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(c, s), FULL_CPU(0));
  check_iota(c, 3, 0, 0, s);
  TFE_DeleteTensorHandle(c);
  c = TFE_TensorHandleCopyToDevice(x, ctx, "", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(c, s), FULL_CPU(0));
  TFE_DeleteTensorHandle(c);
  /* Memory for an unknown device goes back to its deallocator. */
  g_deallocated = 0;
  CHECK(TFE_NewTensorHandleFromDeviceMemory(ctx, "FOO:0", TF_FLOAT, &dim, 1,
                                            block, sizeof block,
                                            count_dealloc, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "FOO:0 unknown device.");
  CHECK_EQ_INT(g_deallocated, 1);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Input forwarding. */

/* The op holds the last reference to its input (the caller deleted its
 * handle after adding it): Neg writes into the input's buffer, visible as
 * the same data pointer through TF_TensorData. */
TEST(forwards_an_input_only_the_op_holds) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  live_counts before = live_now();
  TFE_TensorHandle* x = iota_f32(N, 1, s);
  void* px = data_of(x, s);
  TFE_Op* op = op_with(ctx, "Neg", &x, 1, s);
  TFE_TensorHandle* y;
  TFE_DeleteTensorHandle(x);
  y = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK(data_of(y, s) == px);
  CHECK(resolved_data(y, s) == px);
  check_iota(y, N, 1, 1, s);
  TFE_DeleteTensorHandle(y);
  CHECK_LIVE_EQ(live_now(), before);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* The op's forwarded input no longer holds its value: reading it back or
 * executing the op again fails instead of computing on the output's
 * values. Re-adding an input makes the op usable again. */
TEST(a_forwarded_input_is_consumed) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = iota_f32(N, 1, s);
  TFE_Op* op = op_with(ctx, "Neg", &x, 1, s);
  TFE_TensorHandle* out[1] = {NULL};
  TFE_TensorHandle* in;
  int n = 1;
  TFE_DeleteTensorHandle(x);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  check_iota(out[0], N, 1, 1, s);
  in = TFE_OpGetFlatInput(op, 0, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_TensorHandleResolve(in, s) == NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK_STR_CONTAINS(TF_Message(s), "input #0 of Neg was consumed");
  n = 1;
  TFE_Execute(op, out + 0, &n, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  /* The output is intact, and a reset op runs again. */
  TFE_OpReset(op, "Neg", NULL, s);
  CHECK_CODE(s, TF_OK);
  x = out[0];
  TFE_OpAddInput(op, x, s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  check_iota(out[0], N, 1, 0, s);
  check_iota(x, N, 1, 1, s); /* the caller kept x: not forwarded */
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* A chain: each intermediate result is dropped once it is an input, so
 * every op of the chain reuses the first buffer (one allocation). */
TEST(forwarding_along_a_chain) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = iota_f32(N, 0, s);
  TFE_TensorHandle* keep = TFE_TensorHandleCopySharingTensor(x, s);
  TFE_TensorHandle* cur;
  TFE_TensorHandle* two = scalar_f32(2, s);
  TFE_TensorHandle* in[2];
  void* p;
  int i;
  /* x is shared with `keep`: the first op cannot reuse it. */
  cur = exec1(op_with(ctx, "Neg", &x, 1, s), s);
  CHECK_CODE(s, TF_OK);
  CHECK(data_of(cur, s) != data_of(keep, s));
  p = data_of(cur, s);
  TFE_DeleteTensorHandle(x);
  for (i = 0; i < 3; i++) {
    TFE_Op* op;
    in[0] = cur;
    in[1] = two;
    op = op_with(ctx, "Mul", in, 2, s);
    TFE_DeleteTensorHandle(cur);
    cur = exec1(op, s);
    CHECK_CODE(s, TF_OK);
    CHECK(data_of(cur, s) == p);
  }
  /* -x * 8 */
  {
    TF_Tensor* t = TFE_TensorHandleResolve(cur, s);
    const float* v = (const float*)TF_TensorData(t);
    CHECK(v[0] == 0 && v[5] == -40 && v[N - 1] == -8.0f * (N - 1));
    TF_DeleteTensor(t);
  }
  check_iota(keep, N, 0, 0, s); /* untouched */
  TFE_DeleteTensorHandle(cur);
  TFE_DeleteTensorHandle(keep);
  TFE_DeleteTensorHandle(two);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Binary ops reuse whichever input has the output's size: the second one
 * when the first is broadcast. */
TEST(forwards_the_full_size_operand_of_a_broadcast) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = iota_f32(N, 0, s);
  TFE_TensorHandle* ten = scalar_f32(10, s);
  TFE_TensorHandle *in[2], *y;
  void* px = data_of(x, s);
  void* pten = data_of(ten, s);
  TFE_Op* op;
  in[0] = ten;
  in[1] = x;
  op = op_with(ctx, "AddV2", in, 2, s);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(ten); /* scalar: forwardable, but the wrong size */
  y = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK(data_of(y, s) == px);
  CHECK(data_of(y, s) != pten);
  check_iota(y, N, 10, 0, s);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* The gradient kernels (elementwise_extra.c) forward too: ReluGrad writes
 * into the incoming gradient when only the op holds it. */
TEST(gradient_kernels_forward_too) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* dy = iota_f32(N, 1, s);
  TFE_TensorHandle* feat = iota_f32(N, -10, s); /* -10 .. N-11 */
  TFE_TensorHandle *in[2], *g;
  void* pdy = data_of(dy, s);
  TFE_Op* op;
  in[0] = dy;
  in[1] = feat;
  op = op_with(ctx, "ReluGrad", in, 2, s);
  TFE_DeleteTensorHandle(dy);
  g = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK(data_of(g, s) == pdy);
  {
    TF_Tensor* t = TFE_TensorHandleResolve(g, s);
    const float* v = (const float*)TF_TensorData(t);
    CHECK(v[0] == 0 && v[10] == 0 && v[11] == 12 && v[N - 1] == (float)N);
    TF_DeleteTensor(t);
  }
  check_iota(feat, N, -10, 0, s); /* the caller kept it: untouched */
  TFE_DeleteTensorHandle(g);
  TFE_DeleteTensorHandle(feat);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* AddN reuses its first or second input (it adds the rest into the
 * output afterwards, so never a later one); Select and SelectV2 reuse
 * 'then' or 'else'. */
TEST(addn_and_select_forward) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle *a, *b, *c, *y, *in[3];
  TFE_Op* op;
  void* p;
  /* AddN([a, b, c]) with only the op holding b: into b. */
  a = iota_f32(N, 0, s);
  b = iota_f32(N, 0, s);
  c = iota_f32(N, 0, s);
  p = data_of(b, s);
  in[0] = a;
  in[1] = b;
  in[2] = c;
  op = TFE_NewOp(ctx, "AddN", s);
  TFE_OpAddInputList(op, in, 3, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(b);
  y = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK(data_of(y, s) == p);
  {
    TF_Tensor* t = TFE_TensorHandleResolve(y, s);
    const float* v = (const float*)TF_TensorData(t);
    CHECK(v[0] == 0 && v[7] == 21 && v[N - 1] == 3.0f * (N - 1));
    TF_DeleteTensor(t);
  }
  TFE_DeleteTensorHandle(y);
  /* Only the op holds c, the third: a new buffer, right values. */
  b = iota_f32(N, 0, s);
  p = data_of(c, s);
  in[1] = b;
  op = TFE_NewOp(ctx, "AddN", s);
  TFE_OpAddInputList(op, in, 3, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(c);
  y = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK(data_of(y, s) != p);
  {
    TF_Tensor* t = TFE_TensorHandleResolve(y, s);
    CHECK(((const float*)TF_TensorData(t))[7] == 21);
    TF_DeleteTensor(t);
  }
  TFE_DeleteTensorHandle(y);
  check_iota(a, N, 0, 0, s);
  check_iota(b, N, 0, 0, s);
  /* Select(cond, a, e) with only the op holding e: into e. */
  {
    unsigned char cond[N];
    int64_t dim = N;
    TFE_TensorHandle* ch;
    TFE_TensorHandle* e = iota_f32(N, 100, s);
    int i;
    for (i = 0; i < N; i++) cond[i] = (unsigned char)(i % 2);
    ch = make_handle(TF_BOOL, &dim, 1, cond, sizeof cond, s);
    p = data_of(e, s);
    in[0] = ch;
    in[1] = a;
    in[2] = e;
    op = op_with(ctx, "SelectV2", in, 3, s);
    TFE_DeleteTensorHandle(e);
    y = exec1(op, s);
    CHECK_CODE(s, TF_OK);
    CHECK(data_of(y, s) == p);
    {
      TF_Tensor* t = TFE_TensorHandleResolve(y, s);
      const float* v = (const float*)TF_TensorData(t);
      CHECK(v[0] == 100 && v[1] == 1 && v[2] == 102 && v[3] == 3);
      TF_DeleteTensor(t);
    }
    TFE_DeleteTensorHandle(y);
    e = iota_f32(N, 100, s);
    p = data_of(e, s);
    in[2] = e;
    op = op_with(ctx, "Select", in, 3, s);
    TFE_DeleteTensorHandle(e);
    y = exec1(op, s);
    CHECK_CODE(s, TF_OK);
    CHECK(data_of(y, s) == p);
    TFE_DeleteTensorHandle(y);
    TFE_DeleteTensorHandle(ch);
  }
  check_iota(a, N, 0, 0, s);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Nothing that anyone else can still observe is ever overwritten. */
TEST(never_forwards_an_observable_buffer) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle *x, *y, *in[2];
  TF_Tensor* held;
  TFE_Op* op;
  void* px;

  /* The caller keeps its handle. */
  x = iota_f32(N, 1, s);
  y = exec1(op_with(ctx, "Neg", &x, 1, s), s);
  CHECK_CODE(s, TF_OK);
  CHECK(data_of(y, s) != data_of(x, s));
  check_iota(x, N, 1, 0, s);
  check_iota(y, N, 1, 1, s);
  TFE_DeleteTensorHandle(y);

  /* The caller holds a TF_Tensor resolved from it. */
  held = TFE_TensorHandleResolve(x, s);
  op = op_with(ctx, "Neg", &x, 1, s);
  TFE_DeleteTensorHandle(x);
  y = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK(data_of(y, s) != TF_TensorData(held));
  CHECK(((const float*)TF_TensorData(held))[7] == 8);
  TFE_DeleteTensorHandle(y);
  TF_DeleteTensor(held);

  /* Another handle shares the buffer. */
  x = iota_f32(N, 1, s);
  {
    TFE_TensorHandle* twin = TFE_TensorHandleCopySharingTensor(x, s);
    op = op_with(ctx, "Neg", &x, 1, s);
    TFE_DeleteTensorHandle(x);
    y = exec1(op, s);
    CHECK_CODE(s, TF_OK);
    CHECK(data_of(y, s) != data_of(twin, s));
    check_iota(twin, N, 1, 0, s);
    TFE_DeleteTensorHandle(y);
    TFE_DeleteTensorHandle(twin);
  }

  /* The same handle twice: Mul(x, x) with only the op holding x. */
  x = iota_f32(N, 1, s);
  px = data_of(x, s);
  in[0] = x;
  in[1] = x;
  op = op_with(ctx, "Mul", in, 2, s);
  TFE_DeleteTensorHandle(x);
  y = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK(data_of(y, s) != px);
  {
    TF_Tensor* t = TFE_TensorHandleResolve(y, s);
    CHECK(((const float*)TF_TensorData(t))[3] == 16);
    TF_DeleteTensor(t);
  }
  TFE_DeleteTensorHandle(y);

  /* The caller's own memory (TF_NewTensor without a copy). */
  {
    static float mem[N] __attribute__((aligned(64)));
    int64_t dim = N;
    TF_Tensor* t;
    int i;
    for (i = 0; i < N; i++) mem[i] = (float)i;
    t = TF_NewTensor(TF_FLOAT, &dim, 1, mem, sizeof mem, count_dealloc,
                     NULL);
    x = TFE_NewTensorHandle(t, s);
    TF_DeleteTensor(t);
    op = op_with(ctx, "Neg", &x, 1, s);
    TFE_DeleteTensorHandle(x);
    y = exec1(op, s);
    CHECK_CODE(s, TF_OK);
    CHECK(data_of(y, s) != (void*)mem);
    CHECK(mem[9] == 9);
    TFE_DeleteTensorHandle(y);
  }

  /* A DLPack export. */
  {
    void* dl;
    x = iota_f32(N, 1, s);
    dl = TFE_HandleToDLPack(x, s);
    CHECK_CODE(s, TF_OK);
    op = op_with(ctx, "Neg", &x, 1, s);
    TFE_DeleteTensorHandle(x);
    y = exec1(op, s);
    CHECK_CODE(s, TF_OK);
    {
      /* DLManagedTensor starts with a DLTensor, whose first field is the
       * data pointer. */
      const float* v = *(float* const*)dl;
      CHECK(v != data_of(y, s));
      CHECK(v[4] == 5);
    }
    TFE_CallDLManagedTensorDeleter(dl);
    TFE_DeleteTensorHandle(y);
  }

  /* The output's dtype differs (Equal gives bool; Cast converts). */
  x = iota_f32(N, 1, s);
  in[0] = x;
  in[1] = x;
  op = op_with(ctx, "Equal", in, 2, s);
  TFE_DeleteTensorHandle(x);
  y = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_TensorHandleDataType(y) == TF_BOOL);
  TFE_DeleteTensorHandle(y);

  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* A resource variable's value shares its buffer with what reads return:
 * negating a read value the caller dropped leaves the variable intact. */
TEST(never_forwards_a_variable_value) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle *var, *x, *r, *y, *in[2];
  TFE_Op* op;
  int64_t dim = N;
  op = TFE_NewOp(ctx, "VarHandleOp", s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  TFE_OpSetAttrShape(op, "shape", &dim, 1, s);
  TFE_OpSetAttrString(op, "shared_name", "corners_v", 9);
  var = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  x = iota_f32(N, 1, s);
  in[0] = var;
  in[1] = x;
  op = op_with(ctx, "AssignVariableOp", in, 2, s);
  TFE_DeleteTensorHandle(x); /* the variable keeps the value */
  run_no_outputs(op, s);
  op = op_with(ctx, "ReadVariableOp", &var, 1, s);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  r = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  op = op_with(ctx, "Neg", &r, 1, s);
  TFE_DeleteTensorHandle(r);
  y = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  check_iota(y, N, 1, 1, s);
  TFE_DeleteTensorHandle(y);
  op = op_with(ctx, "ReadVariableOp", &var, 1, s);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  r = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  check_iota(r, N, 1, 0, s);
  TFE_DeleteTensorHandle(r);
  op = op_with(ctx, "DestroyResourceOp", &var, 1, s);
  run_no_outputs(op, s);
  TFE_DeleteTensorHandle(var);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* An integer op that fails on an element (division by zero) never writes
 * into its inputs: the op's input still reads back intact. */
TEST(failing_integer_op_leaves_its_inputs_intact) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int32_t xs[N], zeros[N];
  int64_t dim = N;
  TFE_TensorHandle *x, *z, *in[2], *again;
  TFE_TensorHandle* out[1] = {NULL};
  TFE_Op* op;
  int n = 1, i;
  for (i = 0; i < N; i++) {
    xs[i] = i + 1;
    zeros[i] = (i == N - 1) ? 0 : 1;
  }
  x = make_handle(TF_INT32, &dim, 1, xs, sizeof xs, s);
  z = make_handle(TF_INT32, &dim, 1, zeros, sizeof zeros, s);
  in[0] = x;
  in[1] = z;
  op = op_with(ctx, "FloorDiv", in, 2, s);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(z);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  again = TFE_OpGetFlatInput(op, 0, s);
  CHECK_CODE(s, TF_OK);
  {
    TF_Tensor* t = TFE_TensorHandleResolve(again, s);
    CHECK(memcmp(TF_TensorData(t), xs, sizeof xs) == 0);
    TF_DeleteTensor(t);
  }
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* In an asynchronous context the queued node holds the last reference
 * once the caller dropped the op and the handle; the results are right. */
TEST(forwarding_in_an_async_context) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  TFE_TensorHandle *x, *y, *keep;
  TFE_ContextOptionsSetAsync(o, 1);
  ctx = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  x = iota_f32(N, 1, s);
  keep = TFE_TensorHandleCopySharingTensor(x, s);
  y = exec1(op_with(ctx, "Neg", &x, 1, s), s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(x);
  x = y;
  y = exec1(op_with(ctx, "Neg", &x, 1, s), s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(x);
  check_iota(y, N, 1, 0, s);
  check_iota(keep, N, 1, 0, s);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteTensorHandle(keep);
  TFE_ContextAsyncWait(ctx, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* C-API kernels get the same mechanism through
 * TF_ForwardInputOrAllocateOutput. The kernel negates in place when its
 * input was forwarded. */
static int g_forwarded = -2;

static void neg_inplace_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  TF_Tensor *x, *out;
  int cand[1] = {0};
  int fwd = -1;
  const float* src;
  float* dst;
  int64_t i, n, dims[8];
  int nd;
  (void)kernel;
  TF_GetInput(ctx, 0, &x, st);
  if (TF_GetCode(st) != TF_OK) goto done;
  nd = TF_NumDims(x);
  for (i = 0; i < nd && i < 8; i++) dims[i] = TF_Dim(x, (int)i);
  n = TF_TensorElementCount(x);
  /* Holding x would keep the buffer shared (as in TF): let it go first;
   * the runtime still holds the input while the kernel runs. */
  TF_DeleteTensor(x);
  out = TF_ForwardInputOrAllocateOutput(ctx, cand, 1, 0, dims, nd, &fwd, st);
  if (TF_GetCode(st) != TF_OK) goto done;
  g_forwarded = fwd;
  dst = (float*)TF_TensorData(out);
  if (fwd == 0) {
    for (i = 0; i < n; i++) dst[i] = -dst[i];
  } else {
    TF_GetInput(ctx, 0, &x, st);
    src = (const float*)TF_TensorData(x);
    for (i = 0; i < n; i++) dst[i] = -src[i];
    TF_DeleteTensor(x);
  }
  TF_DeleteTensor(out);
done:
  if (TF_GetCode(st) != TF_OK) TF_OpKernelContext_Failure(ctx, st);
  TF_DeleteStatus(st);
}

TEST(c_api_kernels_forward_through_tf_forward_input) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle *x, *y;
  TFE_Op* op;
  void* px;
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("CornersNegInPlace");
  TF_KernelBuilder* kb;
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_OK);
  kb = TF_NewKernelBuilder("CornersNegInPlace", "CPU", NULL,
                           neg_inplace_compute, NULL);
  TF_RegisterKernelBuilder("CornersNegInPlaceCPU", kb, s);
  CHECK_CODE(s, TF_OK);
  ctx = new_ctx(s);
  /* The caller keeps x: a new buffer. */
  x = iota_f32(N, 1, s);
  y = exec1(op_with(ctx, "CornersNegInPlace", &x, 1, s), s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(g_forwarded, -1);
  check_iota(x, N, 1, 0, s);
  check_iota(y, N, 1, 1, s);
  TFE_DeleteTensorHandle(y);
  /* Only the op holds x: the kernel gets x's buffer. */
  px = data_of(x, s);
  op = op_with(ctx, "CornersNegInPlace", &x, 1, s);
  TFE_DeleteTensorHandle(x);
  y = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(g_forwarded, 0);
  CHECK(data_of(y, s) == px);
  check_iota(y, N, 1, 1, s);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
