/* Gradients of the sparse op group (tf.sparse), as TF 2.21's Python
 * registry defines them: SparseTensorDenseMatMul, SparseToDense,
 * SparseTensorDenseAdd, SparseReorder, SparseAdd and the SparseSegment
 * Sum/Mean/SqrtN reductions (with and without num_segments). Integer
 * inputs (indices, shapes, segment ids) get no gradient. Cases:
 * tools/grad_cases/sparse.py. */
#include <stdint.h>

#include "eager/grad_local.h"
#include "eager/grad_util.h"

/* Column c of an [n, k] index matrix, as a vector of n. */
static TF_AbstractTensor* column(TFE_GradientContext* g, TF_AbstractTensor* ind, int c,
                                 TF_Status* s) {
  TF_AbstractTensor* ci = gl_i32(g, c, s);
  TF_AbstractTensor* one = gl_i32(g, 1, s);
  TF_AbstractOp* op = gl_op(g, "GatherV2", s);
  TF_AbstractTensor* r;
  gl_in(op, ind, s);
  gl_in(op, ci, s);
  gl_in(op, one, s);
  r = gl_fin(op, s);
  TF_DeleteAbstractTensor(ci);
  TF_DeleteAbstractTensor(one);
  return r;
}

/* GatherV2(params, indices, axis 0). */
static TF_AbstractTensor* gather0(TFE_GradientContext* g, TF_AbstractTensor* params,
                                  TF_AbstractTensor* indices, TF_Status* s) {
  TF_AbstractTensor* zero = gl_i32(g, 0, s);
  TF_AbstractOp* op = gl_op(g, "GatherV2", s);
  TF_AbstractTensor* r;
  gl_in(op, params, s);
  gl_in(op, indices, s);
  gl_in(op, zero, s);
  r = gl_fin(op, s);
  TF_DeleteAbstractTensor(zero);
  return r;
}

/* Transpose of a matrix, conjugated for complex values. */
static TF_AbstractTensor* adjoint(TFE_GradientContext* g, TF_AbstractTensor* x, TF_Status* s) {
  static const int32_t kPerm[2] = {1, 0};
  TF_AbstractTensor* perm = gu_const_i32(g, kPerm, 2, s);
  TF_AbstractTensor* t = GL_OK(s) ? gu_call2(g, "Transpose", x, perm, s) : NULL;
  TF_AbstractTensor* r = GL_OK(s) ? gu_conj(g, t, s) : NULL;
  TF_DeleteAbstractTensor(perm);
  TF_DeleteAbstractTensor(t);
  return r;
}

/* Sum of every element of x. */
static TF_AbstractTensor* sum_all(TFE_GradientContext* g, TF_AbstractTensor* x, TF_Status* s) {
  TF_AbstractTensor* zero = gl_i32(g, 0, s);
  TF_AbstractTensor* one = gl_i32(g, 1, s);
  TF_AbstractTensor* rank = GL_OK(s) ? gu_call1(g, "Rank", x, s) : NULL;
  TF_AbstractTensor* axes = gl_range(g, zero, rank, one, s);
  TF_AbstractTensor* r = gl_sum(g, x, axes, 0, s);
  TF_DeleteAbstractTensor(zero);
  TF_DeleteAbstractTensor(one);
  TF_DeleteAbstractTensor(rank);
  TF_DeleteAbstractTensor(axes);
  return r;
}

/* SparseTensorDenseMatMul(a_indices, a_values, a_shape, b) = op(A) op(B):
 * d b = op-adjusted A^H dy; d a_values[i] = sum_n dy[m_i, n] conj(op(B)[k_i, n])
 * (with adjoint_a the value enters conjugated, so the conjugate of that). */
static void grad_sparse_tensor_dense_matmul(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* ai = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* av = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* as = TFE_GradientContextInput(g, 2);
  TF_AbstractTensor* b = TFE_GradientContextInput(g, 3);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *bg, *rows, *cols, *opb, *pa, *pb, *prod, *one, *ag;
  int adj_a = 0, adj_b = 0;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  tfe_attrs_get_bool(g->attrs, "adjoint_a", &adj_a, NULL);
  tfe_attrs_get_bool(g->attrs, "adjoint_b", &adj_b, NULL);
  op = gl_op(g, "SparseTensorDenseMatMul", s);
  gl_in(op, ai, s);
  gl_in(op, av, s);
  gl_in(op, as, s);
  gl_in(op, dy, s);
  gl_set_bool(op, "adjoint_a", !adj_a, s);
  gl_set_bool(op, "adjoint_b", 0, s);
  bg = gl_fin(op, s);
  if (adj_b && bg != NULL) {
    TF_AbstractTensor* t = adjoint(g, bg, s);
    TF_DeleteAbstractTensor(bg);
    bg = t;
  }
  rows = column(g, ai, adj_a ? 1 : 0, s);
  cols = column(g, ai, adj_a ? 0 : 1, s);
  opb = adj_b ? adjoint(g, b, s) : (GL_OK(s) ? gu_call1(g, "Identity", b, s) : NULL);
  pa = gather0(g, dy, rows, s);
  pb = gather0(g, opb, cols, s);
  if (adj_a) {
    TF_AbstractTensor* c = GL_OK(s) ? gu_conj(g, pa, s) : NULL;
    prod = GL_OK(s) ? gu_call2(g, "Mul", c, pb, s) : NULL;
    TF_DeleteAbstractTensor(c);
  } else {
    TF_AbstractTensor* c = GL_OK(s) ? gu_conj(g, pb, s) : NULL;
    prod = GL_OK(s) ? gu_call2(g, "Mul", pa, c, s) : NULL;
    TF_DeleteAbstractTensor(c);
  }
  one = gl_i32(g, 1, s);
  ag = gl_sum(g, prod, one, 0, s);
  gu_give(g, 1, ag, s);
  gu_give(g, 3, bg, s);
  TF_DeleteAbstractTensor(rows);
  TF_DeleteAbstractTensor(cols);
  TF_DeleteAbstractTensor(opb);
  TF_DeleteAbstractTensor(pa);
  TF_DeleteAbstractTensor(pb);
  TF_DeleteAbstractTensor(prod);
  TF_DeleteAbstractTensor(one);
}

/* SparseToDense: the values' gradient is dy at their indices; the default
 * value's is everything else: sum(dy) - sum(values' gradient). */
static void grad_sparse_to_dense(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* ind = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *vg, *s1, *s2, *dg;
  if (dy == NULL) return;
  vg = gu_call2(g, "GatherNd", dy, ind, s);
  s1 = sum_all(g, dy, s);
  s2 = sum_all(g, vg, s);
  dg = GL_OK(s) ? gu_call2(g, "Sub", s1, s2, s) : NULL;
  gu_give(g, 2, vg, s);
  gu_give(g, 3, dg, s);
  TF_DeleteAbstractTensor(s1);
  TF_DeleteAbstractTensor(s2);
}

/* SparseTensorDenseAdd: dy at the sparse indices, dy for the dense side. */
static void grad_sparse_tensor_dense_add(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* ind = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *vg, *bg;
  if (dy == NULL) return;
  vg = gu_call2(g, "GatherNd", dy, ind, s);
  bg = GL_OK(s) ? gu_call1(g, "Identity", dy, s) : NULL;
  gu_give(g, 1, vg, s);
  gu_give(g, 3, bg, s);
}

/* SparseReorder: the values' gradient is the output values' gradient put
 * back through the inverse of the sorting permutation (found by
 * reordering the positions 0..nnz-1). */
static void grad_sparse_reorder(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* ind = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* vals = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* shp = TFE_GradientContextInput(g, 2);
  TF_AbstractTensor* dv = TFE_GradientContextOutputGradient(g, 1);
  TF_AbstractTensor *zero, *one, *n, *pos, *outs[2], *inv, *vg;
  TF_AbstractOp* op;
  if (dv == NULL) return;
  zero = gl_i32(g, 0, s);
  one = gl_i32(g, 1, s);
  n = GL_OK(s) ? gu_call1(g, "Size", vals, s) : NULL;
  pos = gl_range(g, zero, n, one, s);
  op = gl_op(g, "SparseReorder", s);
  gl_in(op, ind, s);
  gl_in(op, pos, s);
  gl_in(op, shp, s);
  gl_fin_n(op, 2, outs, s);
  inv = GL_OK(s) ? gu_call1(g, "InvertPermutation", outs[1], s) : NULL;
  vg = gather0(g, dv, inv, s);
  gu_give(g, 1, vg, s);
  TF_DeleteAbstractTensor(zero);
  TF_DeleteAbstractTensor(one);
  TF_DeleteAbstractTensor(n);
  TF_DeleteAbstractTensor(pos);
  TF_DeleteAbstractTensor(outs[0]);
  TF_DeleteAbstractTensor(outs[1]);
  TF_DeleteAbstractTensor(inv);
}

/* SparseAdd: SparseAddGrad splits the sum values' gradient between the
 * operands (entries dropped by the threshold get zero). */
static void grad_sparse_add(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dv = TFE_GradientContextOutputGradient(g, 1);
  TF_AbstractTensor* outs[2];
  TF_AbstractOp* op;
  if (dv == NULL) return;
  op = gl_op(g, "SparseAddGrad", s);
  gl_in(op, dv, s);
  gl_in(op, TFE_GradientContextInput(g, 0), s);
  gl_in(op, TFE_GradientContextInput(g, 3), s);
  gl_in(op, TFE_GradientContextOutput(g, 0), s);
  gl_fin_n(op, 2, outs, s);
  gu_give(g, 1, outs[0], s);
  gu_give(g, 4, outs[1], s);
}

/* SparseSegment{Sum,Mean,SqrtN}[WithNumSegments]: the matching *Grad op
 * scatters dy's segment rows back to data's rows. */
static void segment_grad(TFE_GradientContext* g, const char* grad_op, TF_Status* s) {
  TF_AbstractTensor* data = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *shp, *zero, *dim0, *r;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  shp = gl_shape(g, data, TF_INT32, s);
  zero = gl_i32(g, 0, s);
  dim0 = gather0(g, shp, zero, s);
  op = gl_op(g, grad_op, s);
  gl_in(op, dy, s);
  gl_in(op, TFE_GradientContextInput(g, 1), s);
  gl_in(op, TFE_GradientContextInput(g, 2), s);
  gl_in(op, dim0, s);
  r = gl_fin(op, s);
  gu_give(g, 0, r, s);
  TF_DeleteAbstractTensor(shp);
  TF_DeleteAbstractTensor(zero);
  TF_DeleteAbstractTensor(dim0);
}

static void grad_seg_sum(TFE_GradientContext* g, TF_Status* s) {
  segment_grad(g, "SparseSegmentSumGrad", s);
}
static void grad_seg_mean(TFE_GradientContext* g, TF_Status* s) {
  segment_grad(g, "SparseSegmentMeanGrad", s);
}
static void grad_seg_sqrtn(TFE_GradientContext* g, TF_Status* s) {
  segment_grad(g, "SparseSegmentSqrtNGrad", s);
}

int tfe_grad_register_sparse(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"SparseTensorDenseMatMul", grad_sparse_tensor_dense_matmul},
      {"SparseToDense", grad_sparse_to_dense},
      {"SparseTensorDenseAdd", grad_sparse_tensor_dense_add},
      {"SparseReorder", grad_sparse_reorder},
      {"SparseAdd", grad_sparse_add},
      {"SparseSegmentSum", grad_seg_sum},
      {"SparseSegmentMean", grad_seg_mean},
      {"SparseSegmentSqrtN", grad_seg_sqrtn},
      {"SparseSegmentSumWithNumSegments", grad_seg_sum},
      {"SparseSegmentMeanWithNumSegments", grad_seg_mean},
      {"SparseSegmentSqrtNWithNumSegments", grad_seg_sqrtn},
  };
  size_t i;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  return 1;
}
