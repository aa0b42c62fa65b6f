/* Shape rules for the sparse op group (tf.sparse ops: SparseTensor
 * arithmetic, reordering, segment reductions), as TF 2.21's shape
 * functions. */
#include <stdint.h>

#include "ops/shape_infer_internal.h"

/* Checks the (indices [?, r], values [?], shape [r]) triplet starting at
 * input i0; *rank gets r (unknown -1), *nnz the merged row count. */
static int sparse_triplet(si_ctx* c, int i0, int64_t* nnz, int64_t* rank) {
  si_sh ind, val, shp;
  si_in(c, i0, &ind);
  si_in(c, i0 + 1, &val);
  si_in(c, i0 + 2, &shp);
  if (!si_with_rank(c, &ind, 2, &ind)) return 0;
  if (!si_with_rank(c, &val, 1, &val)) return 0;
  if (!si_with_rank(c, &shp, 1, &shp)) return 0;
  if (!si_merge_dim(c, ind.d[0], val.d[0], nnz)) return 0;
  if (!si_merge_dim(c, ind.d[1], shp.d[0], rank)) return 0;
  return 1;
}

/* SparseTensorDenseMatMul: [a_shape[adj_a ? 1 : 0], b.dim(adj_b ? 0 : 1)]. */
static int rule_stdmm(si_ctx* c) {
  si_sh ind, val, ashp, b, ash;
  int64_t unused, inner;
  int adj_a = si_attr_bool(c, "adjoint_a", 0);
  int adj_b = si_attr_bool(c, "adjoint_b", 0);
  si_in(c, 0, &ind);
  si_in(c, 1, &val);
  si_in(c, 2, &ashp);
  si_in(c, 3, &b);
  if (!si_with_rank(c, &ind, 2, &ind)) return 0;
  if (!si_with_rank(c, &val, 1, &val)) return 0;
  if (!si_with_rank(c, &b, 2, &b)) return 0;
  if (!si_with_rank(c, &ashp, 1, &ashp)) return 0;
  if (!si_with_value(c, ashp.d[0], 2, &unused)) return 0;
  if (!si_shape_from_tensor(c, 2, &ash)) return 0;
  if (!si_with_rank(c, &ash, 2, &ash)) return 0;
  if (!si_merge_dim(c, ash.d[adj_a ? 0 : 1], b.d[adj_b ? 1 : 0], &inner)) {
    return 0;
  }
  {
    si_sh out;
    si_matrix(&out, ash.d[adj_a ? 1 : 0], b.d[adj_b ? 0 : 1]);
    return si_set(c, 0, &out);
  }
}

/* SparseToDense: the shape given by output_shape. */
static int rule_sparse_to_dense(si_ctx* c) {
  si_sh out;
  if (!si_shape_from_tensor(c, 1, &out)) return 0;
  return si_set(c, 0, &out);
}

/* SparseReorder: indices and values keep their shapes. */
static int rule_sparse_reorder(si_ctx* c) {
  si_sh ind, val, shp;
  si_in(c, 0, &ind);
  si_in(c, 1, &val);
  si_in(c, 2, &shp);
  if (!si_with_rank(c, &ind, 2, &ind)) return 0;
  if (!si_with_rank(c, &val, 1, &val)) return 0;
  if (!si_with_rank(c, &shp, 1, &shp)) return 0;
  if (!si_set(c, 0, &ind)) return 0;
  return si_set(c, 1, &val);
}

/* SparseReshape: [nnz, len(new_shape)] and [len(new_shape)]. */
static int rule_sparse_reshape(si_ctx* c) {
  si_sh ind, shp, ns, out;
  si_in(c, 0, &ind);
  si_in(c, 1, &shp);
  si_in(c, 2, &ns);
  if (!si_with_rank(c, &ind, 2, &ind)) return 0;
  if (!si_with_rank(c, &shp, 1, &shp)) return 0;
  if (!si_with_rank(c, &ns, 1, &ns)) return 0;
  si_matrix(&out, ind.d[0], ns.d[0]);
  if (!si_set(c, 0, &out)) return 0;
  return si_set(c, 1, &ns);
}

/* SparseTensorDenseAdd: the dense operand's shape. */
static int rule_sparse_tensor_dense_add(si_ctx* c) {
  return si_set_input(c, 0, 3);
}

/* SparseDenseCwise*: one value per non-zero. */
static int rule_sparse_dense_cwise(si_ctx* c) {
  si_sh ind;
  si_in(c, 0, &ind);
  if (!si_with_rank(c, &ind, 2, &ind)) return 0;
  return si_set_vector(c, 0, ind.d[0]);
}

/* SparseSegment*: [?] + data.shape[1:] (WithNumSegments: [num_segments]). */
static int segment_common(si_ctx* c, int has_num) {
  si_sh data, idx, seg, rest, out;
  int64_t unused, nseg = SI_UNKNOWN;
  si_in(c, 0, &data);
  si_in(c, 1, &idx);
  si_in(c, 2, &seg);
  if (!si_with_rank_at_least(c, &data, 1, &data)) return 0;
  if (!si_with_rank(c, &idx, 1, &idx)) return 0;
  if (!si_with_rank(c, &seg, 1, &seg)) return 0;
  if (!si_merge_dim(c, idx.d[0], seg.d[0], &unused)) return 0;
  if (has_num) {
    si_sh ns;
    si_in(c, 3, &ns);
    if (!si_with_rank(c, &ns, 0, &ns)) return 0;
    if (!si_dim_from_scalar(c, 3, &nseg)) return 0;
  }
  if (!si_subshape(c, &data, 1, INT64_MAX, &rest)) return 0;
  si_vector(&out, nseg);
  si_concat(&out, &rest);
  return si_set(c, 0, &out);
}

static int rule_segment(si_ctx* c) { return segment_common(c, 0); }
static int rule_segment_n(si_ctx* c) { return segment_common(c, 1); }

/* SparseSegment*Grad: [output_dim0] + grad.shape[1:]. */
static int rule_segment_grad(si_ctx* c) {
  si_sh g, idx, seg, d0, rest, out;
  int64_t unused, dim0;
  si_in(c, 0, &g);
  si_in(c, 1, &idx);
  si_in(c, 2, &seg);
  si_in(c, 3, &d0);
  if (!si_with_rank_at_least(c, &g, 1, &g)) return 0;
  if (!si_with_rank(c, &idx, 1, &idx)) return 0;
  if (!si_with_rank(c, &seg, 1, &seg)) return 0;
  if (!si_merge_dim(c, idx.d[0], seg.d[0], &unused)) return 0;
  if (!si_with_rank(c, &d0, 0, &d0)) return 0;
  if (!si_dim_from_scalar(c, 3, &dim0)) return 0;
  if (!si_subshape(c, &g, 1, INT64_MAX, &rest)) return 0;
  si_vector(&out, dim0);
  si_concat(&out, &rest);
  return si_set(c, 0, &out);
}

/* SparseReduceSum/Max: known when input_shape and reduction_axes are
 * constant (as TF's SparseReduceShapeFn). */
static int rule_sparse_reduce(si_ctx* c) {
  int64_t unused1, rank, shp[SI_MAX_RANK], axes[SI_MAX_RANK];
  int n, na, i, keep = si_attr_bool(c, "keep_dims", 0);
  unsigned char red[SI_MAX_RANK];
  si_sh out;
  if (!sparse_triplet(c, 0, &unused1, &rank)) return 0;
  n = si_value_ints(c, 2, shp, SI_MAX_RANK);
  na = si_value_ints(c, 3, axes, SI_MAX_RANK);
  if (n < 0 || na < 0) return 1;
  for (i = 0; i < n; i++) red[i] = 0;
  for (i = 0; i < na; i++) {
    int64_t a = axes[i] < 0 ? axes[i] + n : axes[i];
    if (a < 0 || a >= n) {
      return si_err(c, "Invalid reduction dimension %lld, for input with %d "
                    "dimensions.", (long long)axes[i], n);
    }
    red[a] = 1;
  }
  out.rank = 0;
  for (i = 0; i < n; i++) {
    if (!red[i]) {
      si_append_dim(&out, shp[i]);
    } else if (keep) {
      si_append_dim(&out, 1);
    }
  }
  return si_set(c, 0, &out);
}

/* SparseSoftmax: values' shape. */
static int rule_sparse_softmax(si_ctx* c) {
  int64_t nnz, rank;
  if (!sparse_triplet(c, 0, &nnz, &rank)) return 0;
  return si_set_vector(c, 0, nnz);
}

/* SparseAdd: [?, rank], [?], a_shape's shape. */
static int rule_sparse_add(si_ctx* c) {
  si_sh ashp, out;
  si_in(c, 2, &ashp);
  if (!si_with_rank(c, &ashp, 1, &ashp)) return 0;
  si_matrix(&out, SI_UNKNOWN, ashp.d[0]);
  if (!si_set(c, 0, &out)) return 0;
  if (!si_set_vector(c, 1, SI_UNKNOWN)) return 0;
  return si_set(c, 2, &ashp);
}

/* SparseSparseMaximum/Minimum: [?, rank], [?]. */
static int rule_sparse_sparse_minmax(si_ctx* c) {
  int64_t nnz_a, nnz_b, ra, rb, rank;
  si_sh out;
  if (!sparse_triplet(c, 0, &nnz_a, &ra)) return 0;
  if (!sparse_triplet(c, 3, &nnz_b, &rb)) return 0;
  if (!si_merge_dim(c, ra, rb, &rank)) return 0;
  si_matrix(&out, SI_UNKNOWN, rank);
  if (!si_set(c, 0, &out)) return 0;
  return si_set_vector(c, 1, SI_UNKNOWN);
}

/* SparseFillEmptyRows: [?, rank], [?], [dense_shape[0]], [nnz]. */
static int rule_sparse_fill_empty_rows(si_ctx* c) {
  int64_t nnz, rank;
  si_sh dv, shp, out;
  if (!sparse_triplet(c, 0, &nnz, &rank)) return 0;
  si_in(c, 3, &dv);
  if (!si_with_rank(c, &dv, 0, &dv)) return 0;
  si_matrix(&out, SI_UNKNOWN, rank);
  if (!si_set(c, 0, &out)) return 0;
  if (!si_set_vector(c, 1, SI_UNKNOWN)) return 0;
  if (!si_shape_from_tensor(c, 2, &shp)) return 0;
  if (!si_set_vector(c, 2, shp.rank > 0 ? shp.d[0] : SI_UNKNOWN)) return 0;
  return si_set_vector(c, 3, nnz);
}

/* SparseAddGrad: [nnz(a)], [nnz(b)]. */
static int rule_sparse_add_grad(si_ctx* c) {
  si_sh a, b;
  si_in(c, 1, &a);
  si_in(c, 2, &b);
  if (!si_with_rank(c, &a, 2, &a)) return 0;
  if (!si_with_rank(c, &b, 2, &b)) return 0;
  if (!si_set_vector(c, 0, a.d[0])) return 0;
  return si_set_vector(c, 1, b.d[0]);
}

const si_rule si_rules_sparse[] = {
    {"SparseTensorDenseMatMul", rule_stdmm},
    {"SparseToDense", rule_sparse_to_dense},
    {"SparseReorder", rule_sparse_reorder},
    {"SparseReshape", rule_sparse_reshape},
    {"SparseTensorDenseAdd", rule_sparse_tensor_dense_add},
    {"SparseDenseCwiseAdd", rule_sparse_dense_cwise},
    {"SparseDenseCwiseMul", rule_sparse_dense_cwise},
    {"SparseDenseCwiseDiv", rule_sparse_dense_cwise},
    {"SparseSegmentSum", rule_segment},
    {"SparseSegmentMean", rule_segment},
    {"SparseSegmentSqrtN", rule_segment},
    {"SparseSegmentSumWithNumSegments", rule_segment_n},
    {"SparseSegmentMeanWithNumSegments", rule_segment_n},
    {"SparseSegmentSqrtNWithNumSegments", rule_segment_n},
    {"SparseSegmentSumGrad", rule_segment_grad},
    {"SparseSegmentMeanGrad", rule_segment_grad},
    {"SparseSegmentSqrtNGrad", rule_segment_grad},
    {"SparseReduceSum", rule_sparse_reduce},
    {"SparseReduceMax", rule_sparse_reduce},
    {"SparseSoftmax", rule_sparse_softmax},
    {"SparseAdd", rule_sparse_add},
    {"SparseAddGrad", rule_sparse_add_grad},
    {"SparseFillEmptyRows", rule_sparse_fill_empty_rows},
    {"SparseSparseMaximum", rule_sparse_sparse_minmax},
    {"SparseSparseMinimum", rule_sparse_sparse_minmax},
    {NULL, NULL},
};
