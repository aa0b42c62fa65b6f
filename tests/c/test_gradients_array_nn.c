/* Eager tapes through the array/nn/math gradients of grad_array.c and
 * grad_nn.c: float64 functions of x [2,3] built from multi-output ops
 * (Unpack, Split with an unused output), list inputs (Pack, ConcatV2),
 * MirrorPad, Cumprod, Pow, SelectV2, BatchMatMulV2, UnsortedSegmentSum
 * and ClipByValue, checked against central differences; the live object
 * counts prove the gradient functions free what they build. */
#include <math.h>
#include <string.h>

#include "eager_test_util.h"
#include "tfe/gradients.h"

static TFE_TensorHandle* f64(const double* v, const int64_t* dims, int nd, TF_Status* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return make_handle(TF_DOUBLE, dims, nd, v, (size_t)n * sizeof(double), s);
}

static TFE_TensorHandle* i32v(const int32_t* v, int64_t n, TF_Status* s) {
  return make_handle(TF_INT32, &n, 1, v, (size_t)n * sizeof(int32_t), s);
}

/* Runs op (inputs and attrs set) with nout outputs; deletes op. */
static void run(TFE_Op* op, TFE_TensorHandle** outs, int nout, TF_Status* s) {
  int n = nout;
  TFE_Execute(op, outs, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, nout);
  TFE_DeleteOp(op);
}

static TFE_TensorHandle* sum_all(TFE_Context* ctx, TFE_TensorHandle* x, TF_Status* s) {
  int32_t axes[8];
  int i, r = TFE_TensorHandleNumDims(x, s);
  TFE_TensorHandle *ax, *out;
  for (i = 0; i < r; i++) axes[i] = i;
  ax = i32v(axes, r, s);
  out = binary(ctx, "Sum", x, ax, NULL, s);
  TFE_DeleteTensorHandle(ax);
  return out;
}

typedef TFE_TensorHandle* (*fn1)(TFE_Context*, TFE_TensorHandle*, TF_Status*);

/* sum(pack([u0 * u1, x], axis 1)) with [u0, u1] = unpack(x, axis 0)
 * broadcast, then a split of the concat with one output unused. */
static TFE_TensorHandle* f_stack_split(TFE_Context* ctx, TFE_TensorHandle* x, TF_Status* s) {
  TFE_TensorHandle *u[2], *m, *pk, *parts[2], *cat, *sp[3], *ax, *t, *r;
  TFE_Op* op = TFE_NewOp(ctx, "Unpack", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpSetAttrInt(op, "num", 2);
  run(op, u, 2, s);
  m = binary(ctx, "Mul", u[0], u[1], NULL, s); /* [3] */
  op = TFE_NewOp(ctx, "Pack", s);
  parts[0] = m;
  parts[1] = u[0];
  TFE_OpAddInputList(op, parts, 2, s);
  TFE_OpSetAttrInt(op, "axis", 1);
  run(op, &pk, 1, s); /* [3, 2] */
  ax = scalar_i32(1, s);
  op = TFE_NewOp(ctx, "ConcatV2", s);
  parts[0] = pk;
  parts[1] = pk;
  TFE_OpAddInputList(op, parts, 2, s);
  TFE_OpAddInput(op, ax, s);
  run(op, &cat, 1, s); /* [3, 4] */
  TFE_DeleteTensorHandle(ax);
  ax = scalar_i32(0, s);
  op = TFE_NewOp(ctx, "Split", s);
  TFE_OpAddInput(op, ax, s);
  TFE_OpAddInput(op, cat, s);
  TFE_OpSetAttrInt(op, "num_split", 3);
  run(op, sp, 3, s);
  t = binary(ctx, "Mul", sp[0], sp[2], NULL, s); /* sp[1] unused */
  r = sum_all(ctx, t, s);
  TFE_DeleteTensorHandle(u[0]);
  TFE_DeleteTensorHandle(u[1]);
  TFE_DeleteTensorHandle(m);
  TFE_DeleteTensorHandle(pk);
  TFE_DeleteTensorHandle(cat);
  TFE_DeleteTensorHandle(ax);
  TFE_DeleteTensorHandle(sp[0]);
  TFE_DeleteTensorHandle(sp[1]);
  TFE_DeleteTensorHandle(sp[2]);
  TFE_DeleteTensorHandle(t);
  return r;
}

/* sum(square(cumprod(mirror_pad(x)))) */
static TFE_TensorHandle* f_pad_cumprod(TFE_Context* ctx, TFE_TensorHandle* x, TF_Status* s) {
  const int32_t pv[4] = {1, 0, 2, 1};
  int64_t pd[2] = {2, 2};
  TFE_TensorHandle* pads = make_handle(TF_INT32, pd, 2, pv, sizeof pv, s);
  TFE_TensorHandle *mp, *ax, *cp, *sq, *r;
  TFE_Op* op = TFE_NewOp(ctx, "MirrorPad", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, pads, s);
  TFE_OpSetAttrString(op, "mode", "REFLECT", 7);
  run(op, &mp, 1, s);
  ax = scalar_i32(1, s);
  op = TFE_NewOp(ctx, "Cumprod", s);
  TFE_OpAddInput(op, mp, s);
  TFE_OpAddInput(op, ax, s);
  TFE_OpSetAttrBool(op, "reverse", 1);
  run(op, &cp, 1, s);
  op = TFE_NewOp(ctx, "Square", s);
  TFE_OpAddInput(op, cp, s);
  run(op, &sq, 1, s);
  r = sum_all(ctx, sq, s);
  TFE_DeleteTensorHandle(pads);
  TFE_DeleteTensorHandle(mp);
  TFE_DeleteTensorHandle(ax);
  TFE_DeleteTensorHandle(cp);
  TFE_DeleteTensorHandle(sq);
  return r;
}

/* sum(select_v2(x > 0, pow(exp(x), x), clip(x))) + sum(x x^T)
 * + sum(unsorted_segment_sum(clip(x), [1, 0], 3)^2). */
static TFE_TensorHandle* f_math(TFE_Context* ctx, TFE_TensorHandle* x, TF_Status* s) {
  const double lo = -0.4, hi = 0.8;
  const int32_t ids[2] = {1, 0};
  TFE_TensorHandle *zero, *gt, *base, *pw, *sel, *bm, *hl, *hh, *cl, *idh, *n, *seg, *sq, *t[3],
      *a, *r;
  TFE_Op* op;
  int i;
  op = TFE_NewOp(ctx, "ZerosLike", s);
  TFE_OpAddInput(op, x, s);
  run(op, &zero, 1, s);
  gt = binary(ctx, "Greater", x, zero, NULL, s);
  op = TFE_NewOp(ctx, "Exp", s);
  TFE_OpAddInput(op, x, s);
  run(op, &base, 1, s);
  pw = binary(ctx, "Pow", base, x, NULL, s);
  hl = f64(&lo, NULL, 0, s);
  hh = f64(&hi, NULL, 0, s);
  op = TFE_NewOp(ctx, "ClipByValue", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, hl, s);
  TFE_OpAddInput(op, hh, s);
  run(op, &cl, 1, s);
  op = TFE_NewOp(ctx, "SelectV2", s);
  TFE_OpAddInput(op, gt, s);
  TFE_OpAddInput(op, pw, s);
  TFE_OpAddInput(op, cl, s);
  run(op, &sel, 1, s);
  op = TFE_NewOp(ctx, "BatchMatMulV2", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, x, s);
  TFE_OpSetAttrBool(op, "adj_y", 1);
  run(op, &bm, 1, s);
  idh = i32v(ids, 2, s);
  n = scalar_i32(3, s);
  op = TFE_NewOp(ctx, "UnsortedSegmentSum", s);
  TFE_OpAddInput(op, cl, s);
  TFE_OpAddInput(op, idh, s);
  TFE_OpAddInput(op, n, s);
  run(op, &seg, 1, s);
  sq = binary(ctx, "Mul", seg, seg, NULL, s);
  t[0] = sum_all(ctx, sel, s);
  t[1] = sum_all(ctx, bm, s);
  t[2] = sum_all(ctx, sq, s);
  a = binary(ctx, "AddV2", t[0], t[1], NULL, s);
  r = binary(ctx, "AddV2", a, t[2], NULL, s);
  {
    TFE_TensorHandle* all[] = {zero, gt, base, pw, sel, bm, hl, hh, cl, idh, n, seg, sq, a,
                               t[0], t[1], t[2]};
    for (i = 0; i < (int)(sizeof all / sizeof all[0]); i++) TFE_DeleteTensorHandle(all[i]);
  }
  return r;
}

static double value_of(TFE_Context* ctx, fn1 f, const double* xv, TF_Status* s) {
  const int64_t dims[2] = {2, 3};
  TFE_TensorHandle* x = f64(xv, dims, 2, s);
  TFE_TensorHandle* y = f(ctx, x, s);
  TF_Tensor* t = TFE_TensorHandleResolve(y, s);
  double v;
  CHECK_CODE(s, TF_OK);
  v = *(const double*)TF_TensorData(t);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
  return v;
}

static void check_fn(fn1 f) {
  const double xv[6] = {0.35, -0.7, 1.1, 0.25, -1.3, 0.6};
  const int64_t dims[2] = {2, 3};
  live_counts before = live_now();
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle *x, *y, *dx = NULL;
  TFE_GradientTape* tape;
  TF_Tensor* gt;
  int i;
  x = f64(xv, dims, 2, s);
  tape = TFE_NewGradientTape(ctx, 0, s);
  CHECK_CODE(s, TF_OK);
  TFE_GradientTapeWatch(tape, x, s);
  y = f(ctx, x, s);
  TFE_GradientTapeGradient(tape, 1, &y, NULL, 1, &x, TFE_UNCONNECTED_NONE, &dx, s);
  CHECK_CODE(s, TF_OK);
  CHECK(dx != NULL);
  gt = TFE_TensorHandleResolve(dx, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 6; i++) {
    double p[6], m[6], num, got = ((const double*)TF_TensorData(gt))[i];
    memcpy(p, xv, sizeof p);
    memcpy(m, xv, sizeof m);
    p[i] += 1e-6;
    m[i] -= 1e-6;
    num = (value_of(ctx, f, p, s) - value_of(ctx, f, m, s)) / 2e-6;
    if (fabs(num - got) > 1e-5 * (1 + fabs(num))) {
      TFE_FAIL("element %d: tape gradient %.10g, central differences %.10g", i, got, num);
    }
  }
  TF_DeleteTensor(gt);
  TFE_DeleteTensorHandle(dx);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(stack_unstack_concat_split) { check_fn(f_stack_split); }
TEST(mirror_pad_cumprod) { check_fn(f_pad_cumprod); }
TEST(pow_select_clip_batch_matmul_segment_sum) { check_fn(f_math); }

TFE_TEST_MAIN
