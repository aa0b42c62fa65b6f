/* TF_AddGradients through the array and nn gradients (grad_array.c,
 * grad_nn.c): each graph feeds a float64 x through a few of those ops to a
 * scalar loss, and the gradient subgraph's value is checked against
 * central differences of the same graph run in a session. */
#include <math.h>
#include <string.h>

#include "graph_test_util.h"

static TF_Tensor* dtensor(const double* v, const int64_t* dims, int nd) {
  size_t n = 1;
  int i;
  TF_Tensor* t;
  for (i = 0; i < nd; i++) n *= (size_t)dims[i];
  t = TF_AllocateTensor(TF_DOUBLE, dims, nd, n * sizeof(double));
  memcpy(TF_TensorData(t), v, n * sizeof(double));
  return t;
}

static TF_Operation* ivec(TF_Graph* g, const char* name, const int32_t* v, int64_t n) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, &n, 1, (size_t)n * sizeof(int32_t));
  memcpy(TF_TensorData(t), v, (size_t)n * sizeof(int32_t));
  return gt_const(g, name, t, NULL);
}

/* Sum(Square(t)) over all axes (axes given as an int32 vector of rank r). */
static TF_Operation* sum_squares(TF_Graph* g, TF_Output t, int rank) {
  int32_t axes[8];
  int i;
  for (i = 0; i < rank; i++) axes[i] = i;
  TF_Operation* sq = gt_unop(g, "Square", "sq", t);
  TF_Operation* ax = ivec(g, "loss_axes", axes, rank);
  return gt_binop(g, "Sum", "loss", gt_out(sq, 0), gt_out(ax, 0));
}

/* dloss/dx from TF_AddGradients against central differences. */
static void check(TF_Graph* g, TF_Operation* x, TF_Operation* loss, const double* xv,
                  const int64_t* dims, int nd) {
  TF_Status* s = TF_NewStatus();
  TF_Output y = gt_out(loss, 0), xo = gt_out(x, 0), dy;
  TF_Session* sess;
  TF_Tensor *feed, *out;
  double buf[64];
  size_t n = 1, i;
  int k;
  for (k = 0; k < nd; k++) n *= (size_t)dims[k];
  TF_AddGradients(g, &y, 1, &xo, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_OK);
  CHECK(dy.oper != NULL);
  sess = gt_session(g);
  feed = dtensor(xv, dims, nd);
  out = gt_run1(sess, &xo, feed, dy, NULL);
  TF_DeleteTensor(feed);
  CHECK(out != NULL);
  CHECK_EQ_INT(TF_TensorType(out), TF_DOUBLE);
  CHECK(TF_TensorElementCount(out) == (int64_t)n);
  for (i = 0; i < n; i++) {
    double lp, lm, numeric, got = ((double*)TF_TensorData(out))[i];
    TF_Tensor* r;
    memcpy(buf, xv, n * sizeof(double));
    buf[i] += 1e-6;
    feed = dtensor(buf, dims, nd);
    r = gt_run1(sess, &xo, feed, y, NULL);
    lp = *(double*)TF_TensorData(r);
    TF_DeleteTensor(r);
    TF_DeleteTensor(feed);
    buf[i] -= 2e-6;
    feed = dtensor(buf, dims, nd);
    r = gt_run1(sess, &xo, feed, y, NULL);
    lm = *(double*)TF_TensorData(r);
    TF_DeleteTensor(r);
    TF_DeleteTensor(feed);
    numeric = (lp - lm) / 2e-6;
    if (fabs(numeric - got) > 1e-5 * (1 + fabs(numeric))) {
      TFE_FAIL("element %zu: graph gradient %.10g, central differences %.10g", i, got, numeric);
    }
  }
  TF_DeleteTensor(out);
  gt_close(sess);
  TF_DeleteStatus(s);
}

static const double kX6[6] = {0.3, -0.7, 1.1, 0.25, -1.5, 0.9};

/* ConcatV2([x, sin(x)], 1) -> StridedSlice(., [0,1], [2,6], [1,2]) -> Tile
 * -> sum of squares. */
TEST(concat_strided_slice_tile) {
  static const int32_t kB[2] = {0, 1}, kE[2] = {2, 6}, kS[2] = {1, 2},
                       kM[2] = {2, 1};
  const int64_t dims[2] = {2, 3};
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_DOUBLE);
  TF_Operation* sn = gt_unop(g, "Sin", "sin", gt_out(x, 0));
  TF_Operation* ax = gt_const(g, "axis", gt_scalar_i32(1), NULL);
  TF_Output parts[2];
  TF_OperationDescription* d;
  TF_Operation *cat, *ss, *tile;
  parts[0] = gt_out(x, 0);
  parts[1] = gt_out(sn, 0);
  d = TF_NewOperation(g, "ConcatV2", "cat");
  TF_AddInputList(d, parts, 2);
  TF_AddInput(d, gt_out(ax, 0));
  cat = gt_finish(d);
  d = TF_NewOperation(g, "StridedSlice", "ss");
  TF_AddInput(d, gt_out(cat, 0));
  TF_AddInput(d, gt_out(ivec(g, "b", kB, 2), 0));
  TF_AddInput(d, gt_out(ivec(g, "e", kE, 2), 0));
  TF_AddInput(d, gt_out(ivec(g, "s", kS, 2), 0));
  ss = gt_finish(d);
  tile = gt_binop(g, "Tile", "tile", gt_out(ss, 0), gt_out(ivec(g, "m", kM, 2), 0));
  check(g, x, sum_squares(g, gt_out(tile, 0), 2), kX6, dims, 2);
  TF_DeleteGraph(g);
}

/* GatherV2(x, [2, 0, 2], axis 1) -> Pad -> Exp -> Prod over axis 1 -> Max
 * over axis 0 -> square. */
TEST(gather_pad_prod_max) {
  static const int32_t kIdx[3] = {2, 0, 2}, kPad[4] = {1, 0, 0, 2}, kAx1[1] = {1};
  const int64_t dims[2] = {2, 3};
  int64_t pd[2] = {2, 2};
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_DOUBLE);
  TF_Operation* ax = gt_const(g, "axis", gt_scalar_i32(1), NULL);
  TF_Operation *ga, *pads, *pad, *one, *ex, *prod, *mx;
  TF_Tensor* pt = TF_AllocateTensor(TF_INT32, pd, 2, sizeof kPad);
  TF_OperationDescription* d;
  memcpy(TF_TensorData(pt), kPad, sizeof kPad);
  d = TF_NewOperation(g, "GatherV2", "gather");
  TF_AddInput(d, gt_out(x, 0));
  TF_AddInput(d, gt_out(ivec(g, "idx", kIdx, 3), 0));
  TF_AddInput(d, gt_out(ax, 0));
  ga = gt_finish(d);
  pads = gt_const(g, "pads", pt, NULL);
  pad = gt_binop(g, "Pad", "pad", gt_out(ga, 0), gt_out(pads, 0));
  /* exp keeps the padded zeros out of the product */
  ex = gt_unop(g, "Exp", "exp", gt_out(pad, 0));
  one = ivec(g, "ax1", kAx1, 1);
  prod = gt_binop(g, "Prod", "prod", gt_out(ex, 0), gt_out(one, 0));
  mx = gt_binop(g, "Max", "max", gt_out(prod, 0),
                gt_out(gt_const(g, "ax0", gt_scalar_i32(0), NULL), 0));
  check(g, x, sum_squares(g, gt_out(mx, 0), 0), kX6, dims, 2);
  TF_DeleteGraph(g);
}

/* Conv2D (SAME, stride 2) -> MaxPool -> sum of squares, gradient in x. */
TEST(conv2d_max_pool) {
  const int64_t dims[4] = {1, 4, 4, 1};
  const int64_t fdims[4] = {2, 2, 1, 2};
  const double fv[8] = {0.5, -0.25, 1.0, 0.75, -0.5, 0.3, 0.2, -1.1};
  double xv[16];
  int64_t strides[4] = {1, 1, 1, 1}, ksize[4] = {1, 2, 2, 1}, pstr[4] = {1, 2, 2, 1};
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_DOUBLE);
  TF_Operation* f = gt_const(g, "f", dtensor(fv, fdims, 4), NULL);
  TF_Operation *conv, *pool;
  TF_OperationDescription* d;
  int i;
  for (i = 0; i < 16; i++) xv[i] = sin(1.7 * i + 0.3);
  d = TF_NewOperation(g, "Conv2D", "conv");
  TF_AddInput(d, gt_out(x, 0));
  TF_AddInput(d, gt_out(f, 0));
  TF_SetAttrIntList(d, "strides", strides, 4);
  TF_SetAttrString(d, "padding", "SAME", 4);
  conv = gt_finish(d);
  d = TF_NewOperation(g, "MaxPool", "pool");
  TF_AddInput(d, gt_out(conv, 0));
  TF_SetAttrIntList(d, "ksize", ksize, 4);
  TF_SetAttrIntList(d, "strides", pstr, 4);
  TF_SetAttrString(d, "padding", "VALID", 5);
  pool = gt_finish(d);
  check(g, x, sum_squares(g, gt_out(pool, 0), 4), xv, dims, 4);
  TF_DeleteGraph(g);
}

TFE_TEST_MAIN
