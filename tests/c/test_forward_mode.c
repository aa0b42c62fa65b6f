/* Forward mode from C (tfe/forward.h): jvps of single ops against TF 2.21's
 * (tests/c/forward_mode_tf221.h, recorded by tools/record_forward_mode.py:
 * elementwise, broadcasting binary ops, matmuls, reductions, reshapes and
 * other linear ops, and ops that go through the registry's double-vjp),
 * analytic values, nested accumulators, accumulators around tapes
 * (forward over reverse: Hessian-vector products) and tapes around
 * accumulators, the API's rules and errors, and no leaks. */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "eager_test_util.h"
#include "forward_mode_tf221.h"
#include "tfe/forward.h"
#include "tfe/gradients.h"

static TFE_TensorHandle* f64(const double* v, const int64_t* dims, int nd, TF_Status* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return make_handle(TF_DOUBLE, dims, nd, v, (size_t)n * sizeof(double), s);
}

static TFE_TensorHandle* vec(const double* v, int64_t n, TF_Status* s) {
  return f64(v, &n, 1, s);
}

/* Element i of a float64 handle. */
static double at(TFE_TensorHandle* h, int i, TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  double v;
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_DOUBLE);
  CHECK((size_t)i < TF_TensorByteSize(t) / sizeof(double));
  v = ((const double*)TF_TensorData(t))[i];
  TF_DeleteTensor(t);
  return v;
}

static void check_close(double got, double want, double tol, const char* what, int i) {
  if (!(fabs(got - want) <= tol * (1.0 + fabs(want)))) {
    TFE_FAIL("%s[%d]: got %.17g, want %.17g", what, i, got, want);
  }
}

static TFE_TensorHandle* unary(TFE_Context* ctx, const char* name, TFE_TensorHandle* a,
                               TF_Status* s) {
  TFE_TensorHandle* out = NULL;
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, a, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, &out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK ? out : NULL;
}

static TFE_TensorHandle* sum_all(TFE_Context* ctx, TFE_TensorHandle* x, TF_Status* s) {
  int32_t axes[4] = {0, 1, 2, 3};
  int64_t n = TFE_TensorHandleNumDims(x, s);
  TFE_TensorHandle* ax = make_handle(TF_INT32, &n, 1, axes, (size_t)n * sizeof(int32_t), s);
  TFE_TensorHandle* r = binary(ctx, "Sum", x, ax, NULL, s);
  TFE_DeleteTensorHandle(ax);
  return r;
}

/* ---- TF 2.21's jvps of single ops ---- */

static TFE_TensorHandle* case_tensor(const fm_tensor* t, const double* vals, TF_Status* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < t->nd; i++) n *= t->dims[i];
  if (t->dtype == FM_F64) return f64(vals, t->dims, t->nd, s);
  if (t->dtype == FM_I32) {
    int32_t buf[64];
    CHECK(n <= 64);
    for (i = 0; i < n; i++) buf[i] = (int32_t)vals[i];
    return make_handle(TF_INT32, t->dims, t->nd, buf, (size_t)n * sizeof(int32_t), s);
  } else {
    unsigned char buf[64];
    CHECK(n <= 64);
    for (i = 0; i < n; i++) buf[i] = vals[i] != 0.0;
    return make_handle(TF_BOOL, t->dims, t->nd, buf, (size_t)n, s);
  }
}

static void run_case(const fm_case* c) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* ins[16];
  TFE_TensorHandle* outs[8] = {NULL};
  TFE_ForwardAccumulator* acc;
  TFE_Op* op;
  int i, j, n = c->num_outputs;
  CHECK(c->num_inputs <= 16 && n <= 8);
  acc = TFE_NewForwardAccumulator(ctx, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < c->num_inputs; i++) {
    ins[i] = case_tensor(&c->inputs[i], c->inputs[i].vals, s);
    CHECK_CODE(s, TF_OK);
    if (c->inputs[i].tangent != NULL) {
      TFE_TensorHandle* t = case_tensor(&c->inputs[i], c->inputs[i].tangent, s);
      TFE_ForwardAccumulatorWatch(acc, ins[i], t, s);
      CHECK_CODE(s, TF_OK);
      TFE_DeleteTensorHandle(t);
    }
  }
  op = TFE_NewOp(ctx, c->op, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < c->num_attrs; i++) {
    const fm_attr* a = &c->attrs[i];
    if (a->kind == 'b') TFE_OpSetAttrBool(op, a->name, (unsigned char)a->i);
    if (a->kind == 'i') TFE_OpSetAttrInt(op, a->name, a->i);
    if (a->kind == 'f') TFE_OpSetAttrFloat(op, a->name, (float)a->f);
  }
  for (i = 0; i < c->num_inputs;) {
    if (c->inputs[i].is_list) {
      int k = i;
      while (k < c->num_inputs && c->inputs[k].arg == c->inputs[i].arg) k++;
      TFE_OpAddInputList(op, ins + i, k - i, s);
      i = k;
    } else {
      TFE_OpAddInput(op, ins[i], s);
      i++;
    }
    CHECK_CODE(s, TF_OK);
  }
  TFE_Execute(op, outs, &n, s);
  if (TF_GetCode(s) != TF_OK) TFE_FAIL("%s: %s", c->name, TF_Message(s));
  CHECK_EQ_INT(n, c->num_outputs);
  for (j = 0; j < n; j++) {
    TFE_TensorHandle* jvp = TFE_ForwardAccumulatorJvp(acc, outs[j], s);
    CHECK_CODE(s, TF_OK);
    if (jvp == NULL) TFE_FAIL("%s: output %d has no jvp", c->name, j);
    CHECK_EQ_INT(TFE_TensorHandleNumElements(jvp, s), c->outputs[j].n);
    for (i = 0; i < c->outputs[j].n; i++) {
      check_close(at(jvp, i, s), c->outputs[j].jvp[i], 1e-12, c->name, i);
    }
    TFE_DeleteTensorHandle(jvp);
    TFE_DeleteTensorHandle(outs[j]);
  }
  TFE_DeleteOp(op);
  for (i = 0; i < c->num_inputs; i++) TFE_DeleteTensorHandle(ins[i]);
  TFE_DeleteForwardAccumulator(acc);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(single_ops_match_tf) {
  live_counts before;
  size_t i;
  /* The first run makes what lives for the process (3 tensors some
   * kernel or registry keeps); the count is taken after it. */
  run_case(&k_fm_cases[0]);
  before = live_now();
  for (i = 0; i < sizeof k_fm_cases / sizeof k_fm_cases[0]; i++) run_case(&k_fm_cases[i]);
  CHECK_LIVE_EQ(live_now(), before);
}

/* ---- analytic values through a chain of ops ---- */

/* y = sum(exp(x @ w) * 0.5, axis 1) - softsign(x)[:, 0]-like terms are
 * covered by single ops; here: z = sum(exp(m)) with m = x @ w, and
 * dz = sum(exp(m) * (t @ w)). */
TEST(chain_matmul_exp_sum_analytic) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const double xv[4] = {0.3, -0.2, 0.5, 0.1}, wv[4] = {0.7, -0.4, 0.2, 0.9};
  const double tv[4] = {1.0, 0.5, -0.25, 2.0};
  const int64_t d2[2] = {2, 2};
  TFE_TensorHandle* x = f64(xv, d2, 2, s);
  TFE_TensorHandle* w = f64(wv, d2, 2, s);
  TFE_TensorHandle* t = f64(tv, d2, 2, s);
  TFE_ForwardAccumulator* acc = TFE_NewForwardAccumulator(ctx, s);
  TFE_TensorHandle *m, *e, *z, *jz, *jm;
  double want = 0.0;
  int i, j, k;
  CHECK_CODE(s, TF_OK);
  TFE_ForwardAccumulatorWatch(acc, x, t, s);
  CHECK_CODE(s, TF_OK);
  m = binary(ctx, "MatMul", x, w, NULL, s);
  e = unary(ctx, "Exp", m, s);
  z = sum_all(ctx, e, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 2; i++) {
    for (j = 0; j < 2; j++) {
      double mv = 0.0, tw = 0.0;
      for (k = 0; k < 2; k++) {
        mv += xv[i * 2 + k] * wv[k * 2 + j];
        tw += tv[i * 2 + k] * wv[k * 2 + j];
      }
      want += exp(mv) * tw;
    }
  }
  jz = TFE_ForwardAccumulatorJvp(acc, z, s);
  CHECK_CODE(s, TF_OK);
  CHECK(jz != NULL);
  check_close(at(jz, 0, s), want, 1e-13, "dz", 0);
  jm = TFE_ForwardAccumulatorJvp(acc, m, s);
  check_close(at(jm, 0, s), tv[0] * wv[0] + tv[1] * wv[2], 1e-14, "dm", 0);
  /* A primal's jvp is its tangent; w does not depend on x. */
  TFE_DeleteTensorHandle(jm);
  jm = TFE_ForwardAccumulatorJvp(acc, x, s);
  check_close(at(jm, 3, s), 2.0, 0, "dx", 3);
  CHECK(TFE_ForwardAccumulatorJvp(acc, w, s) == NULL);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_ForwardAccumulatorNumTangents(acc), 4); /* x, m, e, z */
  TFE_DeleteTensorHandle(jm);
  TFE_DeleteTensorHandle(jz);
  TFE_DeleteTensorHandle(m);
  TFE_DeleteTensorHandle(e);
  TFE_DeleteTensorHandle(z);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(w);
  TFE_DeleteTensorHandle(t);
  TFE_DeleteForwardAccumulator(acc);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* TF cannot give these (its double-vjp needs SoftsignGrad's gradient);
 * tfe's forward rules can: d softsign(x) = t / (1 + |x|)^2, and the others
 * at a few points. */
TEST(elementwise_analytic) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const double xv[3] = {-1.3, 0.4, 2.1}, tv[3] = {0.5, -2.0, 1.5};
  TFE_TensorHandle* x = vec(xv, 3, s);
  TFE_TensorHandle* t = vec(tv, 3, s);
  TFE_ForwardAccumulator* acc = TFE_NewForwardAccumulator(ctx, s);
  const char* ops[4] = {"Softsign", "Tanh", "Sigmoid", "Sin"};
  int k, i;
  TFE_ForwardAccumulatorWatch(acc, x, t, s);
  CHECK_CODE(s, TF_OK);
  for (k = 0; k < 4; k++) {
    TFE_TensorHandle* y = unary(ctx, ops[k], x, s);
    TFE_TensorHandle* j;
    CHECK_CODE(s, TF_OK);
    j = TFE_ForwardAccumulatorJvp(acc, y, s);
    CHECK(j != NULL);
    for (i = 0; i < 3; i++) {
      double v = xv[i], d;
      if (k == 0) {
        d = 1.0 / ((1.0 + fabs(v)) * (1.0 + fabs(v)));
      } else if (k == 1) {
        d = 1.0 - tanh(v) * tanh(v);
      } else if (k == 2) {
        double sg = 1.0 / (1.0 + exp(-v));
        d = sg * (1.0 - sg);
      } else {
        d = cos(v);
      }
      check_close(at(j, i, s), tv[i] * d, 1e-14, ops[k], i);
    }
    TFE_DeleteTensorHandle(j);
    TFE_DeleteTensorHandle(y);
  }
  TFE_DeleteForwardAccumulator(acc);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(t);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- nesting ---- */

TEST(nested_accumulators) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const double xv[2] = {1.5, -0.5}, v1[2] = {1.0, 2.0}, v2[2] = {3.0, -1.0};
  TFE_TensorHandle* x = vec(xv, 2, s);
  TFE_TensorHandle* t1 = vec(v1, 2, s);
  TFE_TensorHandle* t2 = vec(v2, 2, s);
  TFE_ForwardAccumulator* outer = TFE_NewForwardAccumulator(ctx, s);
  TFE_ForwardAccumulator* inner = TFE_NewForwardAccumulator(ctx, s);
  TFE_TensorHandle *x2, *y, *j_in, *j_out, *jj, *none;
  live_counts before = live_now();
  int i;
  TFE_ForwardAccumulatorWatch(outer, x, t1, s);
  TFE_ForwardAccumulatorWatch(inner, x, t2, s);
  CHECK_CODE(s, TF_OK);
  x2 = binary(ctx, "Mul", x, x, NULL, s);
  y = binary(ctx, "Mul", x2, x, NULL, s); /* x^3 */
  CHECK_CODE(s, TF_OK);
  j_in = TFE_ForwardAccumulatorJvp(inner, y, s);
  j_out = TFE_ForwardAccumulatorJvp(outer, y, s);
  /* The outer accumulator saw the inner one's tangent ops: d/dx along v1
   * of 3x^2 v2 is 6x v1 v2. */
  jj = TFE_ForwardAccumulatorJvp(outer, j_in, s);
  /* The inner one did not see the outer one's. */
  none = TFE_ForwardAccumulatorJvp(inner, j_out, s);
  CHECK_CODE(s, TF_OK);
  CHECK(jj != NULL);
  CHECK(none == NULL);
  for (i = 0; i < 2; i++) {
    check_close(at(j_in, i, s), 3 * xv[i] * xv[i] * v2[i], 1e-14, "inner", i);
    check_close(at(j_out, i, s), 3 * xv[i] * xv[i] * v1[i], 1e-14, "outer", i);
    check_close(at(jj, i, s), 6 * xv[i] * v1[i] * v2[i], 1e-14, "outer(inner)", i);
  }
  TFE_DeleteTensorHandle(jj);
  TFE_DeleteTensorHandle(j_in);
  TFE_DeleteTensorHandle(j_out);
  TFE_DeleteTensorHandle(x2);
  TFE_DeleteTensorHandle(y);
  /* Deleting the accumulators releases everything they held. */
  TFE_DeleteForwardAccumulator(inner);
  TFE_DeleteForwardAccumulator(outer);
  CHECK(live_now().handles <= before.handles);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(t1);
  TFE_DeleteTensorHandle(t2);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* f(x) = sum(tanh(x) * x * x) in float32 at x = [1, 2], v = [1, 0.5]:
 * H v recorded from TF 2.21 both ways round. */
static TFE_TensorHandle* f_hvp(TFE_Context* ctx, TFE_TensorHandle* x, TF_Status* s) {
  TFE_TensorHandle* th = unary(ctx, "Tanh", x, s);
  TFE_TensorHandle* a = binary(ctx, "Mul", th, x, NULL, s);
  TFE_TensorHandle* b = binary(ctx, "Mul", a, x, NULL, s);
  TFE_TensorHandle* r = sum_all(ctx, b, s);
  TFE_DeleteTensorHandle(th);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  return r;
}

static float at_f32(TFE_TensorHandle* h, int i, TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  float v;
  CHECK_CODE(s, TF_OK);
  v = ((const float*)TF_TensorData(t))[i];
  TF_DeleteTensor(t);
  return v;
}

static TFE_TensorHandle* vec_f32(const float* v, int64_t n, TF_Status* s) {
  return make_handle(TF_FLOAT, &n, 1, v, (size_t)n * sizeof(float), s);
}

TEST(forward_over_reverse_hvp) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const float xv[2] = {1.0f, 2.0f}, vv[2] = {1.0f, 0.5f};
  const double tf_hvp[2] = {2.5633857, 0.9741936}; /* TF 2.21 */
  TFE_TensorHandle* x = vec_f32(xv, 2, s);
  TFE_TensorHandle* v = vec_f32(vv, 2, s);
  TFE_ForwardAccumulator* acc = TFE_NewForwardAccumulator(ctx, s);
  TFE_GradientTape* tape;
  TFE_TensorHandle *y, *g = NULL, *hvp;
  live_counts before = live_now();
  int i;
  TFE_ForwardAccumulatorWatch(acc, x, v, s);
  tape = TFE_NewGradientTape(ctx, 0, s);
  TFE_GradientTapeWatch(tape, x, s);
  CHECK_CODE(s, TF_OK);
  y = f_hvp(ctx, x, s);
  CHECK_CODE(s, TF_OK);
  /* The backward pass runs under the accumulator: its ops get tangents. */
  TFE_GradientTapeGradient(tape, 1, &y, NULL, 1, &x, TFE_UNCONNECTED_NONE, &g, s);
  CHECK_CODE(s, TF_OK);
  hvp = TFE_ForwardAccumulatorJvp(acc, g, s);
  CHECK_CODE(s, TF_OK);
  CHECK(hvp != NULL);
  for (i = 0; i < 2; i++) check_close(at_f32(hvp, i, s), tf_hvp[i], 1e-6, "hvp", i);
  TFE_DeleteTensorHandle(hvp);
  TFE_DeleteTensorHandle(g);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteForwardAccumulator(acc);
  CHECK(live_now().handles <= before.handles);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(reverse_over_forward_hvp) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const float xv[2] = {1.0f, 2.0f}, vv[2] = {1.0f, 0.5f};
  const double tf_hvp[2] = {2.5633857, 0.9741936}; /* TF 2.21 */
  TFE_TensorHandle* x = vec_f32(xv, 2, s);
  TFE_TensorHandle* v = vec_f32(vv, 2, s);
  TFE_GradientTape* tape = TFE_NewGradientTape(ctx, 0, s);
  TFE_ForwardAccumulator* acc;
  TFE_TensorHandle *y, *j, *g = NULL;
  int i;
  TFE_GradientTapeWatch(tape, x, s);
  acc = TFE_NewForwardAccumulator(ctx, s);
  TFE_ForwardAccumulatorWatch(acc, x, v, s);
  CHECK_CODE(s, TF_OK);
  y = f_hvp(ctx, x, s);
  TFE_ForwardAccumulatorStopRecording(acc, s);
  CHECK_CODE(s, TF_OK);
  j = TFE_ForwardAccumulatorJvp(acc, y, s);
  CHECK(j != NULL);
  /* The tape recorded the tangent computations: d(jvp)/dx = H v. */
  TFE_GradientTapeGradient(tape, 1, &j, NULL, 1, &x, TFE_UNCONNECTED_NONE, &g, s);
  CHECK_CODE(s, TF_OK);
  CHECK(g != NULL);
  for (i = 0; i < 2; i++) check_close(at_f32(g, i, s), tf_hvp[i], 1e-6, "hvp", i);
  TFE_DeleteTensorHandle(g);
  TFE_DeleteTensorHandle(j);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteForwardAccumulator(acc);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- rules and errors ---- */

TEST(rules) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const double xv[3] = {1.0, 2.0, 3.0}, t1[3] = {1.0, 0.0, 0.0}, t2[3] = {2.0, 2.0, 2.0};
  TFE_TensorHandle* x = vec(xv, 3, s);
  TFE_TensorHandle* a = vec(t1, 3, s);
  TFE_TensorHandle* b = vec(t2, 3, s);
  TFE_ForwardAccumulator* acc = TFE_NewForwardAccumulator(ctx, s);
  TFE_TensorHandle *y, *j, *shape, *paused;
  live_counts before = live_now();
  TFE_ForwardAccumulatorWatch(acc, x, a, s);
  TFE_ForwardAccumulatorWatch(acc, x, b, s); /* watching again adds */
  CHECK_CODE(s, TF_OK);
  j = TFE_ForwardAccumulatorJvp(acc, x, s);
  check_close(at(j, 0, s), 3.0, 0, "sum of tangents", 0);
  check_close(at(j, 1, s), 2.0, 0, "sum of tangents", 1);
  TFE_DeleteTensorHandle(j);
  /* Integer outputs and ops marked not differentiable get no tangent. */
  shape = unary(ctx, "Shape", x, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_ForwardAccumulatorJvp(acc, shape, s) == NULL);
  y = unary(ctx, "StopGradient", x, s);
  CHECK(TFE_ForwardAccumulatorJvp(acc, y, s) == NULL);
  TFE_DeleteTensorHandle(y);
  /* Paused: no tangents; resumed: tangents again. */
  TFE_ForwardAccumulatorStopRecording(acc, s);
  CHECK_CODE(s, TF_OK);
  TFE_ForwardAccumulatorStopRecording(acc, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  paused = unary(ctx, "Neg", x, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_ForwardAccumulatorJvp(acc, paused, s) == NULL);
  TFE_ForwardAccumulatorResumeRecording(acc, s);
  CHECK_CODE(s, TF_OK);
  TFE_ForwardAccumulatorResumeRecording(acc, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  y = unary(ctx, "Neg", x, s);
  j = TFE_ForwardAccumulatorJvp(acc, y, s);
  CHECK(j != NULL);
  check_close(at(j, 0, s), -3.0, 0, "neg", 0);
  TFE_DeleteTensorHandle(j);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteTensorHandle(paused);
  TFE_DeleteTensorHandle(shape);
  (void)before;
  TFE_DeleteForwardAccumulator(acc);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const double xv[3] = {1.0, 2.0, 3.0};
  const float fv[3] = {1.0f, 2.0f, 3.0f};
  TFE_TensorHandle* x = vec(xv, 3, s);
  TFE_TensorHandle* x2 = vec(xv, 2, s);
  TFE_TensorHandle* xf = vec_f32(fv, 3, s);
  TFE_ForwardAccumulator* acc;
  TFE_TensorHandle* out = NULL;
  TFE_Op* op;
  int n = 1;
  live_counts before = live_now();
  TFE_DeleteForwardAccumulator(NULL);
  CHECK(TFE_NewForwardAccumulator(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  acc = TFE_NewForwardAccumulator(ctx, s);
  CHECK_CODE(s, TF_OK);
  TFE_ForwardAccumulatorWatch(NULL, x, x, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ForwardAccumulatorWatch(acc, x, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ForwardAccumulatorWatch(acc, x, x2, s); /* shape */
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ForwardAccumulatorWatch(acc, x, xf, s); /* dtype */
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_ForwardAccumulatorJvp(acc, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_ForwardAccumulatorJvp(NULL, x, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ForwardAccumulatorStopRecording(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_ForwardAccumulatorNumTangents(NULL), 0);
  /* An op that needs a tangent and has no gradient fails as a whole. */
  CHECK_EQ_INT(TFE_GradientRegistryLookup("Mod"), 0);
  TFE_ForwardAccumulatorWatch(acc, x, x, s);
  CHECK_CODE(s, TF_OK);
  op = TFE_NewOp(ctx, "Mod", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, x, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK(strstr(TF_Message(s), "Mod") != NULL);
  CHECK(out == NULL);
  TFE_DeleteOp(op);
  TFE_DeleteForwardAccumulator(acc);
  CHECK_LIVE_EQ(live_now(), before);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(x2);
  TFE_DeleteTensorHandle(xf);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* A variable's handle as the primal: ReadVariableOp passes its tangent. */
TEST(variable_primal) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const double xv[2] = {1.5, -2.0}, tv[2] = {1.0, 3.0};
  const int64_t dims[1] = {2};
  TFE_TensorHandle* init = vec(xv, 2, s);
  TFE_TensorHandle* t = vec(tv, 2, s);
  TFE_TensorHandle *var = NULL, *val = NULL, *sq, *j;
  TFE_ForwardAccumulator* acc;
  TFE_Op* op = TFE_NewOp(ctx, "VarHandleOp", s);
  int n = 1;
  TFE_OpSetAttrType(op, "dtype", TF_DOUBLE);
  TFE_OpSetAttrShape(op, "shape", dims, 1, s);
  TFE_OpSetAttrString(op, "shared_name", "fwd_v", 5);
  TFE_Execute(op, &var, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);
  op = TFE_NewOp(ctx, "AssignVariableOp", s);
  TFE_OpAddInput(op, var, s);
  TFE_OpAddInput(op, init, s);
  n = 0;
  TFE_Execute(op, NULL, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);
  acc = TFE_NewForwardAccumulator(ctx, s);
  TFE_ForwardAccumulatorWatch(acc, var, t, s);
  CHECK_CODE(s, TF_OK);
  op = TFE_NewOp(ctx, "ReadVariableOp", s);
  TFE_OpSetAttrType(op, "dtype", TF_DOUBLE);
  TFE_OpAddInput(op, var, s);
  n = 1;
  TFE_Execute(op, &val, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);
  sq = binary(ctx, "Mul", val, val, NULL, s);
  j = TFE_ForwardAccumulatorJvp(acc, sq, s);
  CHECK(j != NULL);
  check_close(at(j, 0, s), 2 * xv[0] * tv[0], 1e-15, "var", 0);
  check_close(at(j, 1, s), 2 * xv[1] * tv[1], 1e-15, "var", 1);
  TFE_DeleteTensorHandle(j);
  TFE_DeleteTensorHandle(sq);
  TFE_DeleteTensorHandle(val);
  TFE_DeleteForwardAccumulator(acc);
  TFE_DeleteTensorHandle(var);
  TFE_DeleteTensorHandle(init);
  TFE_DeleteTensorHandle(t);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* An asynchronous context: the tangents of pending outputs are computed as
 * the ops are enqueued, and come out right. */
TEST(async_context) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  const double xv[3] = {0.5, -1.0, 2.0}, tv[3] = {1.0, 2.0, -1.0};
  TFE_TensorHandle *x, *t, *a, *b, *c, *j;
  TFE_ForwardAccumulator* acc;
  int i;
  TFE_ContextOptionsSetAsync(o, 1);
  ctx = TFE_NewContext(o, s);
  TFE_DeleteContextOptions(o);
  CHECK_CODE(s, TF_OK);
  x = vec(xv, 3, s);
  t = vec(tv, 3, s);
  acc = TFE_NewForwardAccumulator(ctx, s);
  TFE_ForwardAccumulatorWatch(acc, x, t, s);
  CHECK_CODE(s, TF_OK);
  a = unary(ctx, "Exp", x, s);
  b = binary(ctx, "Mul", a, x, NULL, s); /* x e^x */
  c = binary(ctx, "AddV2", b, x, NULL, s);
  CHECK_CODE(s, TF_OK);
  j = TFE_ForwardAccumulatorJvp(acc, c, s);
  CHECK(j != NULL);
  for (i = 0; i < 3; i++) {
    check_close(at(j, i, s), tv[i] * ((1 + xv[i]) * exp(xv[i]) + 1), 1e-14, "async", i);
  }
  TFE_DeleteTensorHandle(j);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(c);
  TFE_DeleteForwardAccumulator(acc);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(t);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Several threads run ops under one accumulator at once (and one of them
 * under an accumulator of its own): every tangent is right. */
typedef struct thread_job {
  TFE_Context* ctx;
  TFE_ForwardAccumulator* acc;
  TFE_TensorHandle* x;
  int own; /* also under a private accumulator */
  int ok;
} thread_job;

static void* thread_main(void* arg) {
  thread_job* job = (thread_job*)arg;
  TF_Status* s = TF_NewStatus();
  TFE_ForwardAccumulator* mine = NULL;
  const double ones[2] = {1.0, 1.0};
  TFE_TensorHandle* one = vec(ones, 2, s);
  int k, good = 1;
  if (job->own) {
    mine = TFE_NewForwardAccumulator(job->ctx, s);
    TFE_ForwardAccumulatorWatch(mine, job->x, one, s);
  }
  for (k = 0; k < 50 && good; k++) {
    TFE_TensorHandle* y = binary(job->ctx, "Mul", job->x, job->x, NULL, s);
    TFE_TensorHandle* j = TFE_ForwardAccumulatorJvp(job->acc, y, s);
    /* x = [1, 2], tangent [3, 4]: d(x^2) = 2 x t = [6, 16]. */
    good = j != NULL && fabs(at(j, 0, s) - 6.0) < 1e-15 && fabs(at(j, 1, s) - 16.0) < 1e-15;
    if (mine != NULL) {
      TFE_TensorHandle* m = TFE_ForwardAccumulatorJvp(mine, y, s);
      good = good && m != NULL && fabs(at(m, 1, s) - 4.0) < 1e-15;
      TFE_DeleteTensorHandle(m);
    }
    TFE_DeleteTensorHandle(j);
    TFE_DeleteTensorHandle(y);
  }
  TFE_DeleteForwardAccumulator(mine);
  TFE_DeleteTensorHandle(one);
  job->ok = good && TF_GetCode(s) == TF_OK;
  TF_DeleteStatus(s);
  return NULL;
}

TEST(threads) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const double xv[2] = {1.0, 2.0}, tv[2] = {3.0, 4.0};
  TFE_TensorHandle* x = vec(xv, 2, s);
  TFE_TensorHandle* t = vec(tv, 2, s);
  TFE_ForwardAccumulator* acc = TFE_NewForwardAccumulator(ctx, s);
  pthread_t th[4];
  thread_job jobs[4];
  int i;
  TFE_ForwardAccumulatorWatch(acc, x, t, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 4; i++) {
    jobs[i].ctx = ctx;
    jobs[i].acc = acc;
    jobs[i].x = x;
    jobs[i].own = i == 0;
    jobs[i].ok = 0;
    CHECK(pthread_create(&th[i], NULL, thread_main, &jobs[i]) == 0);
  }
  for (i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    CHECK(jobs[i].ok);
  }
  TFE_DeleteForwardAccumulator(acc);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(t);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
