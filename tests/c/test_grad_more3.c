/* Eager tapes through the gradients of grad_more3.c (SparseMatMul,
 * SparseSlice, CTCLoss, BlockLSTM, BlockLSTMV2) with values known in
 * closed form or from central differences, CTCLoss's refused second
 * derivative, and the live object counts (the gradient functions free
 * what they build). The values against TF 2.21 are checked by
 * tests/python/test_grad_cases.py (group more3) and test_grad_more3.py;
 * this file runs the same code paths under the sanitizers. */
#include <math.h>
#include <string.h>

#include "eager_test_util.h"
#include "tfe/gradients.h"

#define MAXIN 9

/* One op on a tape watching input `w`; loss = sum over the outputs listed
 * in `used` of their elements (ReduceSum of each). Returns the gradient of
 * input w (NULL when none); *loss_out gets the loss (caller deletes). */
typedef void (*set_attrs_fn)(TFE_Op* op);

static TFE_TensorHandle* sum_all(TFE_Context* ctx, TFE_TensorHandle* x, TF_Status* s) {
  int32_t axes[8];
  int64_t n;
  int i, r = TFE_TensorHandleNumDims(x, s);
  TFE_TensorHandle *ax, *out;
  for (i = 0; i < r; i++) axes[i] = i;
  n = r;
  ax = make_handle(TF_INT32, &n, 1, axes, (size_t)r * sizeof(int32_t), s);
  out = binary(ctx, "Sum", x, ax, NULL, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(ax);
  return out;
}

/* Runs type(ins) with nout outputs; returns the loss over outputs `used`
 * (and the outputs in outs when outs != NULL, else they are deleted). */
static TFE_TensorHandle* run_loss(TFE_Context* ctx, const char* type, TFE_TensorHandle** ins,
                                  int nin, set_attrs_fn attrs, int nout, const int* used,
                                  int nused, TFE_TensorHandle** outs, TF_Status* s) {
  TFE_TensorHandle* o[8];
  TFE_TensorHandle *loss = NULL, *t, *sum;
  int i, n = nout;
  TFE_Op* op = TFE_NewOp(ctx, type, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < nin; i++) TFE_OpAddInput(op, ins[i], s);
  CHECK_CODE(s, TF_OK);
  if (attrs != NULL) attrs(op);
  TFE_Execute(op, o, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, nout);
  TFE_DeleteOp(op);
  for (i = 0; i < nused; i++) {
    t = sum_all(ctx, o[used[i]], s);
    if (loss == NULL) {
      loss = t;
    } else {
      sum = binary(ctx, "AddV2", loss, t, NULL, s);
      CHECK_CODE(s, TF_OK);
      TFE_DeleteTensorHandle(loss);
      TFE_DeleteTensorHandle(t);
      loss = sum;
    }
  }
  for (i = 0; i < nout; i++) {
    if (outs != NULL) {
      outs[i] = o[i];
    } else {
      TFE_DeleteTensorHandle(o[i]);
    }
  }
  return loss;
}

/* The gradient of the loss with respect to ins[w], resolved (caller
 * deletes). */
static TF_Tensor* grad_of(TFE_Context* ctx, const char* type, TFE_TensorHandle** ins, int nin,
                          set_attrs_fn attrs, int nout, const int* used, int nused, int w,
                          TF_Status* s) {
  TFE_GradientTape* tape = TFE_NewGradientTape(ctx, 0, s);
  TFE_TensorHandle *loss, *dx = NULL;
  TF_Tensor* t;
  CHECK_CODE(s, TF_OK);
  TFE_GradientTapeWatch(tape, ins[w], s);
  CHECK_CODE(s, TF_OK);
  loss = run_loss(ctx, type, ins, nin, attrs, nout, used, nused, NULL, s);
  TFE_GradientTapeGradient(tape, 1, &loss, NULL, 1, &ins[w], TFE_UNCONNECTED_NONE, &dx, s);
  CHECK_CODE(s, TF_OK);
  CHECK(dx != NULL);
  t = TFE_TensorHandleResolve(dx, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(dx);
  TFE_DeleteTensorHandle(loss);
  TFE_DeleteGradientTape(tape);
  return t;
}

static TFE_TensorHandle* f32h(const float* v, const int64_t* dims, int nd, TF_Status* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return make_handle(TF_FLOAT, dims, nd, v, (size_t)n * sizeof(float), s);
}

static void free_all(TFE_TensorHandle** h, int n) {
  int i;
  for (i = 0; i < n; i++) TFE_DeleteTensorHandle(h[i]);
}

/* ---- SparseMatMul: loss = sum(a b^T) -> da[i][k] = sum_j b[j][k],
 * db[j][k] = sum_i a[i][k] ---- */

static void smm_attrs(TFE_Op* op) {
  TFE_OpSetAttrBool(op, "transpose_b", 1);
  TFE_OpSetAttrBool(op, "b_is_sparse", 1);
}

TEST(sparse_matmul_transpose_b) {
  static const float a[6] = {1, 2, 3, 4, 5, 6};       /* [2, 3] */
  static const float b[6] = {0.5f, -1, 2, 0, 3, -2};  /* [2, 3] */
  const int64_t dims[2] = {2, 3};
  const int used[1] = {0};
  live_counts before = live_now();
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* ins[2];
  TF_Tensor *da, *db;
  int i, k;
  ins[0] = f32h(a, dims, 2, s);
  ins[1] = f32h(b, dims, 2, s);
  da = grad_of(ctx, "SparseMatMul", ins, 2, smm_attrs, 1, used, 1, 0, s);
  db = grad_of(ctx, "SparseMatMul", ins, 2, smm_attrs, 1, used, 1, 1, s);
  CHECK(TF_TensorType(da) == TF_FLOAT && TF_NumDims(da) == 2);
  for (i = 0; i < 2; i++) {
    for (k = 0; k < 3; k++) {
      const float* g = (const float*)TF_TensorData(da);
      const float* h = (const float*)TF_TensorData(db);
      CHECK(fabsf(g[i * 3 + k] - (b[k] + b[3 + k])) < 1e-6f);
      CHECK(fabsf(h[i * 3 + k] - (a[k] + a[3 + k])) < 1e-6f);
    }
  }
  TF_DeleteTensor(da);
  TF_DeleteTensor(db);
  free_all(ins, 2);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* ---- SparseSlice: the kept values get 1, the others 0 ---- */

TEST(sparse_slice_values) {
  static const int64_t ind[8] = {0, 1, 1, 0, 2, 2, 2, 0};
  static const double vals[4] = {1.5, -2, 3, 4};
  static const int64_t shape[2] = {3, 3}, start[2] = {1, 1}, size[2] = {2, 3};
  const int64_t idims[2] = {4, 2}, n4 = 4, n2 = 2;
  const int used[1] = {1};
  live_counts before = live_now();
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* ins[5];
  TF_Tensor* g;
  const double* gv;
  ins[0] = make_handle(TF_INT64, idims, 2, ind, sizeof ind, s);
  ins[1] = make_handle(TF_DOUBLE, &n4, 1, vals, sizeof vals, s);
  ins[2] = make_handle(TF_INT64, &n2, 1, shape, sizeof shape, s);
  ins[3] = make_handle(TF_INT64, &n2, 1, start, sizeof start, s);
  ins[4] = make_handle(TF_INT64, &n2, 1, size, sizeof size, s);
  g = grad_of(ctx, "SparseSlice", ins, 5, NULL, 3, used, 1, 1, s);
  CHECK_EQ_INT(TF_NumDims(g), 1);
  CHECK_EQ_INT(TF_Dim(g, 0), 4);
  gv = (const double*)TF_TensorData(g);
  /* rows 1..2, columns 1..2: only [2, 2] is kept */
  CHECK(gv[0] == 0 && gv[1] == 0 && gv[2] == 1 && gv[3] == 0);
  TF_DeleteTensor(g);
  free_all(ins, 5);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* ---- CTCLoss: d sum(loss) / d inputs = the op's second output ---- */

static TFE_TensorHandle* ctc_inputs(TFE_TensorHandle** ins, TF_Status* s) {
  static const int64_t ind[6] = {0, 0, 1, 0, 1, 1};
  static const int32_t lab[3] = {0, 1, 0}, seq[2] = {4, 3};
  double x[24];
  const int64_t xd[3] = {4, 2, 3}, idims[2] = {3, 2}, n3 = 3, n2 = 2;
  int i;
  for (i = 0; i < 24; i++) x[i] = sin(0.7 * i) * 1.5;
  ins[0] = make_handle(TF_DOUBLE, xd, 3, x, sizeof x, s);
  ins[1] = make_handle(TF_INT64, idims, 2, ind, sizeof ind, s);
  ins[2] = make_handle(TF_INT32, &n3, 1, lab, sizeof lab, s);
  ins[3] = make_handle(TF_INT32, &n2, 1, seq, sizeof seq, s);
  return ins[0];
}

TEST(ctc_loss_gradient_is_second_output) {
  const int used[1] = {0};
  live_counts before = live_now();
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle *ins[4], *outs[2], *loss;
  TF_Tensor *g, *want;
  int i;
  ctc_inputs(ins, s);
  g = grad_of(ctx, "CTCLoss", ins, 4, NULL, 2, used, 1, 0, s);
  loss = run_loss(ctx, "CTCLoss", ins, 4, NULL, 2, used, 1, outs, s);
  want = TFE_TensorHandleResolve(outs[1], s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT((int64_t)TF_TensorElementCount(g), 24);
  for (i = 0; i < 24; i++) {
    double a = ((const double*)TF_TensorData(g))[i];
    double b = ((const double*)TF_TensorData(want))[i];
    CHECK(fabs(a - b) < 1e-12);
  }
  TF_DeleteTensor(g);
  TF_DeleteTensor(want);
  TFE_DeleteTensorHandle(loss);
  free_all(outs, 2);
  free_all(ins, 4);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(ctc_loss_second_derivative_fails) {
  const int used[1] = {0};
  live_counts before = live_now();
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle *ins[4], *loss, *dx = NULL, *sq, *s2, *ddx = NULL;
  TFE_GradientTape *outer, *inner;
  ctc_inputs(ins, s);
  outer = TFE_NewGradientTape(ctx, 0, s);
  inner = TFE_NewGradientTape(ctx, 0, s);
  CHECK_CODE(s, TF_OK);
  TFE_GradientTapeWatch(outer, ins[0], s);
  TFE_GradientTapeWatch(inner, ins[0], s);
  loss = run_loss(ctx, "CTCLoss", ins, 4, NULL, 2, used, 1, NULL, s);
  TFE_GradientTapeGradient(inner, 1, &loss, NULL, 1, &ins[0], TFE_UNCONNECTED_NONE, &dx, s);
  CHECK_CODE(s, TF_OK);
  CHECK(dx != NULL);
  sq = binary(ctx, "Mul", dx, dx, NULL, s);
  CHECK_CODE(s, TF_OK);
  s2 = sum_all(ctx, sq, s);
  TFE_GradientTapeGradient(outer, 1, &s2, NULL, 1, &ins[0], TFE_UNCONNECTED_NONE, &ddx, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strstr(TF_Message(s), "Gradient explicitly disabled. Reason: Currently there is no way "
                              "to take the second  derivative of ctc_loss") != NULL);
  CHECK(ddx == NULL);
  TFE_DeleteTensorHandle(loss);
  TFE_DeleteTensorHandle(dx);
  TFE_DeleteTensorHandle(sq);
  TFE_DeleteTensorHandle(s2);
  TFE_DeleteGradientTape(inner);
  TFE_DeleteGradientTape(outer);
  free_all(ins, 4);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* ---- BlockLSTM / BlockLSTMV2: loss = sum(cs) + sum(h), the tape's
 * gradient of every float input against float32 central differences ---- */

enum { LT = 3, LB = 2, LI = 2, LH = 2 };

static void lstm_attrs(TFE_Op* op) {
  TFE_OpSetAttrBool(op, "use_peephole", 1);
  TFE_OpSetAttrFloat(op, "cell_clip", -1.0f);
}

static void lstm_inputs(TFE_TensorHandle** ins, float vals[MAXIN][64], TF_Status* s) {
  static const int64_t kDims[MAXIN][3] = {{0, 0, 0},  {LT, LB, LI}, {LB, LH, 0},
                                          {LB, LH, 0}, {LI + LH, 4 * LH, 0}, {LH, 0, 0},
                                          {LH, 0, 0},  {LH, 0, 0},   {4 * LH, 0, 0}};
  static const int kRank[MAXIN] = {0, 3, 2, 2, 2, 1, 1, 1, 1};
  const int64_t seq = LT;
  int i;
  ins[0] = make_handle(TF_INT64, NULL, 0, &seq, sizeof seq, s);
  for (i = 1; i < MAXIN; i++) ins[i] = f32h(vals[i], kDims[i], kRank[i], s);
}

static int64_t lstm_count(int i) {
  static const int64_t kCount[MAXIN] = {0, LT * LB * LI, LB * LH, LB * LH, (LI + LH) * 4 * LH,
                                        LH, LH, LH, 4 * LH};
  return kCount[i];
}

static double lstm_loss(TFE_Context* ctx, const char* type, float vals[MAXIN][64],
                        TF_Status* s) {
  const int used[2] = {1, 6};
  TFE_TensorHandle *ins[MAXIN], *loss;
  double v;
  lstm_inputs(ins, vals, s);
  loss = run_loss(ctx, type, ins, MAXIN, lstm_attrs, 7, used, 2, NULL, s);
  v = read_f32(loss, s);
  TFE_DeleteTensorHandle(loss);
  free_all(ins, MAXIN);
  return v;
}

static void check_lstm(const char* type) {
  const int used[2] = {1, 6};
  live_counts before = live_now();
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  static float vals[MAXIN][64];
  TFE_TensorHandle* ins[MAXIN];
  int i, j;
  for (i = 1; i < MAXIN; i++) {
    for (j = 0; j < 64; j++) vals[i][j] = 0.7f * (float)sin(1.3 * i + 0.9 * j);
  }
  lstm_inputs(ins, vals, s);
  for (i = 1; i < MAXIN; i++) {
    TF_Tensor* g = grad_of(ctx, type, ins, MAXIN, lstm_attrs, 7, used, 2, i, s);
    const float* gv = (const float*)TF_TensorData(g);
    CHECK_EQ_INT((int64_t)TF_TensorElementCount(g), lstm_count(i));
    for (j = 0; j < lstm_count(i); j++) {
      float keep = vals[i][j];
      double lp, lm, num;
      vals[i][j] = keep + 1e-2f;
      lp = lstm_loss(ctx, type, vals, s);
      vals[i][j] = keep - 1e-2f;
      lm = lstm_loss(ctx, type, vals, s);
      vals[i][j] = keep;
      num = (lp - lm) / 2e-2;
      if (fabs(num - gv[j]) > 2e-3 + 2e-2 * fabs(num)) {
        TFE_FAIL("%s input %d element %d: tape %.6g, central differences %.6g", type, i, j,
                 gv[j], num);
      }
    }
    TF_DeleteTensor(g);
  }
  free_all(ins, MAXIN);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(block_lstm_central_differences) { check_lstm("BlockLSTM"); }
TEST(block_lstm_v2_central_differences) { check_lstm("BlockLSTMV2"); }

TFE_TEST_MAIN
