/* Gradient tapes from C (tfe/gradients.h): values of the built-in
 * gradients against central differences in float64 (broadcasting
 * included), persistent and non-persistent tapes, nested tapes (second
 * derivatives), pausing, unconnected sources, ops that stop gradients,
 * integer inputs, missing gradients, a gradient registered from outside
 * (as a plugin would) with the unified API, and no leaks. */
#include <math.h>
#include <string.h>

#include "eager_test_util.h"
#include "tfe/gradients.h"
#include "tfe/unified.h"

static TFE_TensorHandle* f64(const double* v, const int64_t* dims, int nd, TF_Status* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return make_handle(TF_DOUBLE, dims, nd, v, (size_t)n * sizeof(double), s);
}

static double read_f64_at(TFE_TensorHandle* h, int i, TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  double v;
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_DOUBLE);
  v = ((const double*)TF_TensorData(t))[i];
  TF_DeleteTensor(t);
  return v;
}

static TFE_TensorHandle* unary(TFE_Context* ctx, const char* name, TFE_TensorHandle* a,
                               TF_Status* s) {
  TFE_TensorHandle* out = NULL;
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, a, s);
  TFE_Execute(op, &out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK ? out : NULL;
}

static TFE_TensorHandle* reduce_sum_all(TFE_Context* ctx, TFE_TensorHandle* x, TF_Status* s) {
  int rank = TFE_TensorHandleNumDims(x, s), i;
  int32_t axes[8];
  int64_t n1[1];
  TFE_TensorHandle* ax;
  TFE_TensorHandle* r;
  for (i = 0; i < rank; i++) axes[i] = i;
  n1[0] = rank;
  ax = make_handle(TF_INT32, n1, 1, axes, (size_t)rank * sizeof(int32_t), s);
  r = binary(ctx, "Sum", x, ax, NULL, s);
  TFE_DeleteTensorHandle(ax);
  return r;
}

/* f(x, y) -> a scalar, the function checked below. */
typedef TFE_TensorHandle* (*fn2)(TFE_Context*, TFE_TensorHandle*, TFE_TensorHandle*,
                                 TF_Status*);

/* sum(tanh(x * y) + exp(x) / y - x) with y broadcast along x's rows. */
static TFE_TensorHandle* f_mix(TFE_Context* ctx, TFE_TensorHandle* x, TFE_TensorHandle* y,
                               TF_Status* s) {
  TFE_TensorHandle* xy = binary(ctx, "Mul", x, y, NULL, s);
  TFE_TensorHandle* t = unary(ctx, "Tanh", xy, s);
  TFE_TensorHandle* e = unary(ctx, "Exp", x, s);
  TFE_TensorHandle* q = binary(ctx, "RealDiv", e, y, NULL, s);
  TFE_TensorHandle* a = binary(ctx, "AddV2", t, q, NULL, s);
  TFE_TensorHandle* d = binary(ctx, "Sub", a, x, NULL, s);
  TFE_TensorHandle* r = reduce_sum_all(ctx, d, s);
  TFE_DeleteTensorHandle(xy);
  TFE_DeleteTensorHandle(t);
  TFE_DeleteTensorHandle(e);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(d);
  return r;
}

/* sum(relu(x @ y) ^ 2 + sigmoid(x @ y)) with x [2,3], y [3,2]. */
static TFE_TensorHandle* f_mlp(TFE_Context* ctx, TFE_TensorHandle* x, TFE_TensorHandle* y,
                               TF_Status* s) {
  TFE_TensorHandle* m = binary(ctx, "MatMul", x, y, NULL, s);
  TFE_TensorHandle* r = unary(ctx, "Relu", m, s);
  TFE_TensorHandle* sq = unary(ctx, "Square", r, s);
  TFE_TensorHandle* sg = unary(ctx, "Sigmoid", m, s);
  TFE_TensorHandle* a = binary(ctx, "AddV2", sq, sg, NULL, s);
  TFE_TensorHandle* out = reduce_sum_all(ctx, a, s);
  TFE_DeleteTensorHandle(m);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(sq);
  TFE_DeleteTensorHandle(sg);
  TFE_DeleteTensorHandle(a);
  return out;
}

/* The tape's gradient of f against central differences, for each element
 * of x and of y. */
static void check_numeric(fn2 f, const double* xv, const int64_t* xd, int xnd, int xn,
                          const double* yv, const int64_t* yd, int ynd, int yn) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = f64(xv, xd, xnd, s);
  TFE_TensorHandle* y = f64(yv, yd, ynd, s);
  TFE_TensorHandle* srcs[2];
  TFE_TensorHandle* grads[2] = {NULL, NULL};
  TFE_GradientTape* tape = TFE_NewGradientTape(ctx, 0, s);
  TFE_TensorHandle* z;
  double pert[16];
  int k, i;
  const double eps = 1e-6;
  TFE_GradientTapeWatch(tape, x, s);
  TFE_GradientTapeWatch(tape, y, s);
  CHECK_CODE(s, TF_OK);
  z = f(ctx, x, y, s);
  CHECK_CODE(s, TF_OK);
  srcs[0] = x;
  srcs[1] = y;
  TFE_GradientTapeGradient(tape, 1, &z, NULL, 2, srcs, TFE_UNCONNECTED_NONE, grads, s);
  CHECK_CODE(s, TF_OK);
  for (k = 0; k < 2; k++) {
    const double* base = k == 0 ? xv : yv;
    int n = k == 0 ? xn : yn;
    CHECK(grads[k] != NULL);
    CHECK_EQ_INT(TFE_TensorHandleNumDims(grads[k], s), k == 0 ? xnd : ynd);
    for (i = 0; i < n; i++) {
      TFE_TensorHandle *hp, *hm, *zp, *zm;
      double numeric;
      memcpy(pert, base, (size_t)n * sizeof(double));
      pert[i] = base[i] + eps;
      hp = f64(pert, k == 0 ? xd : yd, k == 0 ? xnd : ynd, s);
      pert[i] = base[i] - eps;
      hm = f64(pert, k == 0 ? xd : yd, k == 0 ? xnd : ynd, s);
      zp = k == 0 ? f(ctx, hp, y, s) : f(ctx, x, hp, s);
      zm = k == 0 ? f(ctx, hm, y, s) : f(ctx, x, hm, s);
      numeric = (read_f64_at(zp, 0, s) - read_f64_at(zm, 0, s)) / (2 * eps);
      if (fabs(numeric - read_f64_at(grads[k], i, s)) > 1e-5 * (1 + fabs(numeric))) {
        TFE_FAIL("source %d element %d: tape %.10g, central differences %.10g", k, i,
                 read_f64_at(grads[k], i, s), numeric);
      }
      TFE_DeleteTensorHandle(hp);
      TFE_DeleteTensorHandle(hm);
      TFE_DeleteTensorHandle(zp);
      TFE_DeleteTensorHandle(zm);
    }
  }
  /* A non-persistent tape answers once. */
  {
    TFE_TensorHandle* more[2];
    TFE_GradientTapeGradient(tape, 1, &z, NULL, 2, srcs, TFE_UNCONNECTED_NONE, more, s);
    CHECK_CODE(s, TF_FAILED_PRECONDITION);
  }
  TFE_DeleteTensorHandle(grads[0]);
  TFE_DeleteTensorHandle(grads[1]);
  TFE_DeleteTensorHandle(z);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(numeric_broadcasting_elementwise) {
  const double xv[6] = {0.3, -0.7, 1.1, 0.25, -1.5, 0.9};
  const double yv[3] = {1.3, -0.6, 2.2};
  const int64_t xd[2] = {2, 3}, yd[1] = {3};
  live_counts before = live_now();
  check_numeric(f_mix, xv, xd, 2, 6, yv, yd, 1, 3);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(numeric_matmul_activations) {
  const double xv[6] = {0.3, -0.7, 1.1, 0.25, -1.5, 0.9};
  const double yv[6] = {1.3, -0.6, 0.2, 0.8, -0.4, 1.7};
  const int64_t xd[2] = {2, 3}, yd[2] = {3, 2};
  check_numeric(f_mlp, xv, xd, 2, 6, yv, yd, 2, 6);
}

TEST(persistent_nested_and_paused) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = scalar_f32(2.0f, s);
  TFE_GradientTape* outer = TFE_NewGradientTape(ctx, 1, s);
  TFE_GradientTape* inner = TFE_NewGradientTape(ctx, 0, s);
  TFE_TensorHandle *x2, *x3, *dx = NULL, *d2x = NULL, *again = NULL, *paused;
  TFE_GradientTapeWatch(outer, x, s);
  TFE_GradientTapeWatch(inner, x, s);
  x2 = binary(ctx, "Mul", x, x, NULL, s);
  x3 = binary(ctx, "Mul", x2, x, NULL, s); /* x^3 */
  /* d/dx x^3 = 3x^2 = 12; its ops are recorded by the outer tape. */
  TFE_GradientTapeGradient(inner, 1, &x3, NULL, 1, &x, TFE_UNCONNECTED_NONE, &dx, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(dx, s) == 12.0f);
  /* d2/dx2 x^3 = 6x = 12. */
  TFE_GradientTapeGradient(outer, 1, &dx, NULL, 1, &x, TFE_UNCONNECTED_NONE, &d2x, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(d2x, s) == 12.0f);
  /* A persistent tape answers again. */
  TFE_GradientTapeGradient(outer, 1, &x3, NULL, 1, &x, TFE_UNCONNECTED_NONE, &again, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(again, s) == 12.0f);
  /* Ops run while paused are not recorded: their result is unconnected. */
  TFE_GradientTapeStopRecording(outer, s);
  CHECK_CODE(s, TF_OK);
  TFE_GradientTapeStopRecording(outer, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  paused = binary(ctx, "Mul", x, x, NULL, s);
  TFE_GradientTapeResumeRecording(outer, s);
  CHECK_CODE(s, TF_OK);
  {
    TFE_TensorHandle* g = (TFE_TensorHandle*)1;
    TFE_GradientTapeGradient(outer, 1, &paused, NULL, 1, &x, TFE_UNCONNECTED_NONE, &g, s);
    CHECK_CODE(s, TF_OK);
    CHECK(g == NULL);
    TFE_GradientTapeGradient(outer, 1, &paused, NULL, 1, &x, TFE_UNCONNECTED_ZERO, &g, s);
    CHECK_CODE(s, TF_OK);
    CHECK(g != NULL && read_f32(g, s) == 0.0f);
    TFE_DeleteTensorHandle(g);
  }
  /* A non-persistent tape cannot resume after answering. */
  TFE_GradientTapeResumeRecording(inner, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  TFE_DeleteTensorHandle(paused);
  TFE_DeleteTensorHandle(again);
  TFE_DeleteTensorHandle(d2x);
  TFE_DeleteTensorHandle(dx);
  TFE_DeleteTensorHandle(x3);
  TFE_DeleteTensorHandle(x2);
  TFE_DeleteGradientTape(inner);
  TFE_DeleteGradientTape(outer);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(stops_integers_output_gradients_and_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = scalar_f32(3.0f, s);
  TFE_TensorHandle* zero = scalar_f32(0.0f, s);
  TFE_TensorHandle* i = scalar_i32(4, s);
  TFE_GradientTape* tape = TFE_NewGradientTape(ctx, 1, s);
  TFE_TensorHandle *gt, *mask, *y, *g = NULL, *seed, *sn;
  TFE_GradientTapeWatch(tape, x, s);
  TFE_GradientTapeWatch(tape, i, s); /* integers are not watched (ignored) */
  CHECK_CODE(s, TF_OK);
  /* y = x * cast(x > 0): Greater stops the gradient, so dy/dx = 1. */
  gt = binary(ctx, "Greater", x, zero, NULL, s);
  {
    TFE_Op* op = TFE_NewOp(ctx, "Cast", s);
    int n = 1;
    TFE_OpAddInput(op, gt, s);
    TFE_OpSetAttrType(op, "DstT", TF_FLOAT);
    TFE_Execute(op, &mask, &n, s);
    TFE_DeleteOp(op);
    CHECK_CODE(s, TF_OK);
  }
  y = binary(ctx, "Mul", x, mask, NULL, s);
  TFE_GradientTapeGradient(tape, 1, &y, NULL, 1, &x, TFE_UNCONNECTED_NONE, &g, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(g, s) == 1.0f);
  TFE_DeleteTensorHandle(g);
  /* An explicit output gradient scales the result. */
  seed = scalar_f32(2.5f, s);
  TFE_GradientTapeGradient(tape, 1, &y, &seed, 1, &x, TFE_UNCONNECTED_NONE, &g, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(g, s) == 2.5f);
  TFE_DeleteTensorHandle(g);
  /* The integer source gets nothing. */
  g = (TFE_TensorHandle*)1;
  TFE_GradientTapeGradient(tape, 1, &y, NULL, 1, &i, TFE_UNCONNECTED_NONE, &g, s);
  CHECK_CODE(s, TF_OK);
  CHECK(g == NULL);
  /* An op without a gradient on the path (TF registers none for Snapshot):
   * UNIMPLEMENTED naming it. */
  sn = unary(ctx, "Snapshot", x, s);
  TFE_GradientTapeGradient(tape, 1, &sn, NULL, 1, &x, TFE_UNCONNECTED_NONE, &g, s);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "Snapshot");
  CHECK(g == NULL);
  /* Argument checks. */
  TFE_GradientTapeGradient(NULL, 1, &y, NULL, 1, &x, TFE_UNCONNECTED_NONE, &g, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_GradientTapeGradient(tape, 1, &y, NULL, 1, &x, (TFE_UnconnectedGradients)7, &g, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_GradientTapeGradient(tape, 1, &y, NULL, 1, NULL, TFE_UNCONNECTED_NONE, &g, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_GradientTapeWatch(tape, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_NewGradientTape(NULL, 0, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_GradientTapeNumRecordedOps(tape) >= 3);
  TFE_DeleteGradientTape(NULL);
  TFE_DeleteTensorHandle(sn);
  TFE_DeleteTensorHandle(seed);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteTensorHandle(mask);
  TFE_DeleteTensorHandle(gt);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(zero);
  TFE_DeleteTensorHandle(i);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* A gradient registered from outside the core, as a plugin would register
 * one for its op: DeepCopy (which TF gives no gradient) passes dy through,
 * here as ones_like(x) * dy built with the unified API. */
static void my_deep_copy_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_ExecutionContext* ec = TFE_GradientContextExecutionContext(g);
  TF_OutputList* o = TF_NewOutputList();
  TF_AbstractTensor* in[2];
  TF_AbstractTensor* c;
  TF_AbstractOp* op = TF_NewAbstractOp(ec);
  TF_AbstractOpSetOpType(op, "OnesLike", s);
  in[0] = TFE_GradientContextInput(g, 0);
  TF_OutputListSetNumOutputs(o, 1, s);
  TF_ExecuteOperation(op, 1, in, o, s);
  TF_DeleteAbstractOp(op);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteOutputList(o);
    return;
  }
  c = TF_OutputListGet(o, 0);
  op = TF_NewAbstractOp(ec);
  TF_AbstractOpSetOpType(op, "Mul", s);
  in[0] = c;
  in[1] = TFE_GradientContextOutputGradient(g, 0);
  TF_ExecuteOperation(op, 2, in, o, s);
  TF_DeleteAbstractOp(op);
  TF_DeleteAbstractTensor(c);
  if (TF_GetCode(s) == TF_OK) {
    TFE_GradientContextSetInputGradient(g, 0, TF_OutputListGet(o, 0), s);
  }
  TF_DeleteOutputList(o);
}

TEST(registered_from_outside) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* x = scalar_f32(0.5f, s);
  TFE_GradientTape* tape;
  TFE_TensorHandle *y, *g = NULL;
  CHECK_EQ_INT(TFE_GradientRegistryLookup("DeepCopy"), 0);
  CHECK_EQ_INT(TFE_GradientRegistryLookup("MatMul"), 1);
  CHECK_EQ_INT(TFE_GradientRegistryLookup("Shape"), 2);
  /* a built-in gradient cannot be replaced */
  TFE_RegisterGradient("Cosh", my_deep_copy_grad, s);
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  TFE_RegisterGradient("DeepCopy", my_deep_copy_grad, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_GradientRegistryLookup("DeepCopy"), 1);
  TFE_RegisterGradient("DeepCopy", my_deep_copy_grad, s);
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  TFE_RegisterGradient("", my_deep_copy_grad, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_RegisterGradient("Sinh", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  tape = TFE_NewGradientTape(ctx, 0, s);
  TFE_GradientTapeWatch(tape, x, s);
  y = unary(ctx, "DeepCopy", x, s);
  TFE_GradientTapeGradient(tape, 1, &y, NULL, 1, &x, TFE_UNCONNECTED_NONE, &g, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(g, s) == 1.0f);
  TFE_DeleteTensorHandle(g);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
