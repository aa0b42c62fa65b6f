/* Shape rules: array ops (Const, Placeholder, Identity, Reshape, Shape,
 * Fill, Concat, Split, Pack/Unpack, Squeeze/ExpandDims, Transpose,
 * Slice/StridedSlice, Gather, Tile, Pad, OneHot, Where, BroadcastTo,
 * diagonals, space/batch/depth rearrangements, scatters). */
#include <stdio.h>
#include <string.h>

#include "core/status_internal.h"
#include "ops/shape_infer_internal.h"

/* ---- sources ---- */

static int rule_const(si_ctx* c) {
  const tfe_attr_value* v = si_attr(c, "value");
  si_sh o;
  int i;
  if (v == NULL || v->is_list || v->type != TF_ATTR_TENSOR ||
      v->v.tensor == NULL) {
    return 1;
  }
  o.rank = TF_NumDims(v->v.tensor);
  if (o.rank > SI_MAX_RANK) return 1;
  for (i = 0; i < o.rank; i++) o.d[i] = TF_Dim(v->v.tensor, i);
  return si_set(c, 0, &o);
}

/* PlaceholderWithDefault(input): the "shape" attr, which the input must
 * be compatible with. */
static int rule_placeholder_with_default(si_ctx* c) {
  const tfe_attr_value* v = si_attr(c, "shape");
  si_sh in, sh;
  if (v == NULL || v->type != TF_ATTR_SHAPE || v->is_list) return 1;
  si_from_tfe(&sh, &v->v.shape);
  si_in(c, 0, &in);
  if (!si_merge(c, &in, &sh)) return 0;
  return si_set(c, 0, &sh);
}

/* EnsureShape(input): the input must have the "shape" attr's rank; the
 * output merges the two. */
static int rule_ensure_shape(si_ctx* c) {
  const tfe_attr_value* v = si_attr(c, "shape");
  si_sh in, sh;
  si_in(c, 0, &in);
  if (v == NULL || v->type != TF_ATTR_SHAPE || v->is_list) {
    return si_set(c, 0, &in);
  }
  si_from_tfe(&sh, &v->v.shape);
  if (sh.rank >= 0 && !si_with_rank(c, &in, sh.rank, &in)) return 0;
  if (!si_merge(c, &sh, &in)) return 0;
  return si_set(c, 0, &sh);
}

/* Fill(dims, value). */
static int rule_fill(si_ctx* c) {
  si_sh v, o;
  int64_t vals[SI_MAX_RANK];
  int n, i;
  si_in(c, 0, &v);
  if (!si_with_rank(c, &v, 1, &v)) return 0;
  si_in(c, 1, &v);
  if (!si_with_rank(c, &v, 0, &v)) return 0;
  n = si_value_ints(c, 0, vals, SI_MAX_RANK);
  for (i = 0; i < n; i++) {
    if (vals[i] < 0) return si_err(c, "Fill dimensions must be >= 0");
  }
  if (!si_shape_from_tensor(c, 0, &o)) return 0;
  return si_set(c, 0, &o);
}

/* ---- shapes of tensors ---- */

static int rule_shape(si_ctx* c) {
  int i;
  for (i = 0; i < si_num_outputs(c); i++) {
    if (!si_set_vector(c, i, si_in_rank(c, i))) return 0;
  }
  return 1;
}

/* ---- reshaping ---- */

static int rule_reshape(si_ctx* c) {
  si_sh in, out;
  si_in(c, 0, &in);
  if (!si_shape_from_tensor(c, 1, &out)) return 0;
  if (out.rank >= 0 && in.rank >= 0) {
    int too_many = 0, out_unknown = -1, in_unknown = -1, i;
    int64_t out_known = 1, in_known = 1;
    for (i = 0; i < out.rank && !too_many; i++) {
      if (out.d[i] < 0) {
        if (out_unknown >= 0) too_many = 1;
        out_unknown = i;
      } else if (!si_dim_mul(c, out_known, out.d[i], &out_known)) {
        return 0;
      }
    }
    for (i = 0; i < in.rank && !too_many; i++) {
      if (in.d[i] < 0) {
        if (in_unknown >= 0) too_many = 1;
        in_unknown = i;
      } else if (!si_dim_mul(c, in_known, in.d[i], &in_known)) {
        return 0;
      }
    }
    if (!too_many) {
      if (in_unknown < 0 && out_unknown < 0) {
        if (in_known != out_known) {
          char buf[256];
          si_debug_string(&out, buf, sizeof buf);
          return si_err(c,
                        "Cannot reshape a tensor with %lld elements to shape "
                        "%s (%lld elements)",
                        (long long)in_known, buf, (long long)out_known);
        }
      } else if (in_unknown < 0 && out_unknown >= 0 && out_known > 0) {
        int64_t d;
        if (!si_dim_div(c, in_known, out_known, 1, &d)) return 0;
        out.d[out_unknown] = d;
      } else if (in_unknown >= 0 && out_unknown < 0 && in_known != 0) {
        int64_t inferred;
        if (!si_dim_div(c, out_known, in_known, 1, &inferred)) return 0;
      } else if (in_unknown >= 0 && out_unknown >= 0 &&
                 in_known == out_known) {
        out.d[out_unknown] = in.d[in_unknown];
      }
    }
  }
  return si_set(c, 0, &out);
}

/* ExpandDims(input, dim). */
static int rule_expand_dims(si_ctx* c) {
  si_sh in, o;
  TF_Tensor* t = si_value(c, 1);
  int64_t dim;
  int i, min_dim;
  if (t != NULL && TF_TensorElementCount(t) != 1) {
    return si_err(c, "'dim' input must be a tensor with a single value");
  }
  si_in(c, 0, &in);
  if (t == NULL || in.rank < 0 || !si_value_scalar(c, 1, &dim)) return 1;
  min_dim = -in.rank - 1;
  if (dim < min_dim || dim > in.rank) {
    return si_err(c, "dim %lld not in the interval [%d, %d].",
                  (long long)dim, min_dim, in.rank);
  }
  if (dim < 0) dim += in.rank + 1;
  if (in.rank >= SI_MAX_RANK) return 1;
  o.rank = 0;
  for (i = 0; i <= in.rank; i++) {
    if (i == dim) o.d[o.rank++] = 1;
    if (i < in.rank) o.d[o.rank++] = in.d[i];
  }
  return si_set(c, 0, &o);
}

static int rule_squeeze(si_ctx* c) {
  si_sh in, o;
  int n, i;
  const int64_t* sq = si_attr_ints(c, "squeeze_dims", &n);
  unsigned char wanted[SI_MAX_RANK];
  if (!si_attr_ints32(c, "squeeze_dims")) return 0;
  si_in(c, 0, &in);
  if (in.rank < 0) return 1;
  memset(wanted, 0, sizeof wanted);
  for (i = 0; i < n; i++) {
    int64_t d = sq[i];
    if (d < -in.rank || d >= in.rank) {
      return si_err(c, "squeeze_dims[%d] not in [%d,%d).", i, -in.rank,
                    in.rank);
    }
    if (d < 0) d += in.rank;
    wanted[d] = 1;
  }
  o.rank = 0;
  for (i = 0; i < in.rank; i++) {
    int64_t d = in.d[i];
    if (d < 0) {
      if (n > 0 && wanted[i]) continue; /* assumed to be 1 */
      if (n == 0) return 1; /* could be 1: unknown output */
    } else if (d == 1) {
      if (n == 0 || wanted[i]) continue;
    } else if (wanted[i]) {
      return si_err(c,
                    "Can not squeeze dim[%d], expected a dimension of 1, got "
                    "%lld",
                    i, (long long)d);
    }
    o.d[o.rank++] = d;
  }
  return si_set(c, 0, &o);
}

/* ---- joining and splitting ---- */

/* TF's ConcatShapeHelper over inputs [start, end) with the axis input
 * dim_index. */
static int concat_shape(si_ctx* c, int start, int end, int dim_index) {
  si_sh ax, in, before, after, out_before, out_after, o;
  int64_t axis, middle, m2;
  int i, rank = -1, min_rank;
  si_in(c, dim_index, &ax);
  if (!si_with_rank(c, &ax, 0, &ax)) return 0;
  if (!si_value_scalar(c, dim_index, &axis)) {
    for (i = start; i < end && rank < 0; i++) rank = si_in_rank(c, i);
    if (rank < 0) return 1;
    if (rank == 0) {
      return si_err(c, "Can't concatenate scalars (use tf.stack instead)");
    }
    for (i = start; i < end; i++) {
      si_in(c, i, &in);
      if (!si_with_rank(c, &in, rank, &in)) return 0;
    }
    si_unknown_of_rank(&o, rank);
    return si_set(c, 0, &o);
  }
  if (axis > SI_MAX_RANK || axis < -SI_MAX_RANK) {
    unsigned long long need = axis < 0
                                  ? (unsigned long long)(-(axis + 1)) + 1u
                                  : (unsigned long long)axis + 1u;
    return si_err(c, "Shape must be at least rank %llu but is rank %d", need,
                  si_in_rank(c, end - 1));
  }
  min_rank = axis < 0 ? (int)-axis : (int)axis + 1;
  si_in(c, end - 1, &in);
  if (!si_with_rank_at_least(c, &in, min_rank, &in)) return 0;
  if (!si_subshape(c, &in, 0, axis, &out_before)) return 0;
  middle = in.rank < 0 ? -1 : in.d[axis < 0 ? in.rank + axis : axis];
  if (axis == -1) {
    si_scalar(&out_after);
  } else if (!si_subshape(c, &in, axis + 1, INT64_MAX, &out_after)) {
    return 0;
  }
  for (i = end - 2; i >= start; i--) {
    si_in(c, i, &in);
    if (!si_with_rank_at_least(c, &in, min_rank, &in)) return 0;
    if (!si_subshape(c, &in, 0, axis, &before)) return 0;
    m2 = in.rank < 0 ? -1 : in.d[axis < 0 ? in.rank + axis : axis];
    if (axis == -1) {
      si_scalar(&after);
    } else if (!si_subshape(c, &in, axis + 1, INT64_MAX, &after)) {
      return 0;
    }
    if (!si_merge(c, &before, &out_before)) return 0;
    out_before = before;
    if (!si_dim_add(c, middle, m2, &middle)) return 0;
    if (!si_merge(c, &after, &out_after)) return 0;
    out_after = after;
  }
  o = out_before;
  si_append_dim(&o, middle);
  si_concat(&o, &out_after);
  return si_set(c, 0, &o);
}

static int rule_concat_v2(si_ctx* c) {
  int n = si_num_inputs(c);
  return concat_shape(c, 0, n - 1, n - 1);
}

/* ConcatOffset(concat_dim, shape x N): offset i has shape i's shape. */
static int rule_concat_offset(si_ctx* c) {
  int i;
  for (i = 1; i < si_num_inputs(c) && i - 1 < si_num_outputs(c); i++) {
    si_sh sh;
    si_in(c, i, &sh);
    if (!si_set(c, i - 1, &sh)) return 0;
  }
  return 1;
}

static int rule_concat(si_ctx* c) {
  return concat_shape(c, 1, si_num_inputs(c), 0);
}

static int pack_axis(si_ctx* c, int rank_after, int64_t* axis) {
  int64_t a;
  if (!si_attr_int32(c, "axis", 0, &a)) return 0;
  if (a < -rank_after || a >= rank_after) {
    return si_err(c, "Invalid axis: %lld; must be in [%d,%d)", (long long)a,
                  -rank_after, rank_after);
  }
  if (a < 0) a += rank_after;
  *axis = a;
  return 1;
}

static int rule_pack(si_ctx* c) {
  si_sh cur, in, o;
  int n = si_num_inputs(c), i;
  int64_t axis = 0;
  if (n == 0) return 1;
  si_in(c, n - 1, &cur);
  for (i = n - 2; i >= 0; i--) {
    si_in(c, i, &in);
    if (!si_merge(c, &in, &cur)) {
      return si_err_context(c, "From merging shape %d with other shapes.", i);
    }
    cur = in;
  }
  if (cur.rank < 0 || cur.rank >= SI_MAX_RANK) return 1;
  if (!pack_axis(c, cur.rank + 1, &axis)) return 0;
  o.rank = 0;
  for (i = 0; i <= cur.rank; i++) {
    if (i == axis) o.d[o.rank++] = n;
    if (i < cur.rank) o.d[o.rank++] = cur.d[i];
  }
  return si_set(c, 0, &o);
}

static int rule_unpack(si_ctx* c) {
  si_sh s, o;
  int64_t axis = 0;
  int i;
  si_in(c, 0, &s);
  if (s.rank < 0) return 1;
  if (!pack_axis(c, s.rank, &axis)) return 0;
  if (!si_with_value(c, s.d[axis], si_num_outputs(c), NULL)) return 0;
  o.rank = 0;
  for (i = 0; i < s.rank; i++) {
    if (i != axis) o.d[o.rank++] = s.d[i];
  }
  for (i = 0; i < si_num_outputs(c); i++) {
    if (!si_set(c, i, &o)) return 0;
  }
  return 1;
}

/* A scalar axis input resolved against `rank` (TF's
 * MakeDimForScalarInputWithNegativeIndexing); -1 when not constant. */
static int axis_input(si_ctx* c, int i, int rank, int64_t* out) {
  int64_t v;
  *out = -1;
  if (!si_value_scalar(c, i, &v)) return 1;
  if (rank >= 0) {
    if (v < -rank || v >= rank) {
      return si_err(c,
                    "Dimension size, given by scalar input %lld must be in "
                    "range [%d, %d)",
                    (long long)v, -rank, rank);
    }
    if (v < 0) v += rank;
  } else if (v < 0) {
    return 1;
  }
  *out = v;
  return 1;
}

/* Split(split_dim, value). */
static int rule_split(si_ctx* c) {
  si_sh in, o;
  int64_t axis, d;
  int n = si_num_outputs(c), i;
  si_in(c, 1, &in);
  if (!axis_input(c, 0, in.rank, &axis)) return 0;
  if (axis < 0) {
    si_unknown_of_rank(&o, in.rank);
  } else {
    if (axis >= SI_MAX_RANK) return 1;
    if (!si_with_rank_at_least(c, &in, (int)axis + 1, &in)) return 0;
    o = in;
    if (in.rank >= 0) {
      if (!si_dim_div(c, in.d[axis], n, 1, &d)) {
        return si_err_context(c,
                              "Number of ways to split should evenly divide "
                              "the split dimension");
      }
      o.d[axis] = d;
    }
  }
  for (i = 0; i < n; i++) {
    if (!si_set(c, i, &o)) return 0;
  }
  return 1;
}

/* SplitV(value, size_splits, split_dim). */
static int rule_split_v(si_ctx* c) {
  si_sh in, o;
  int64_t axis, sizes[1024];
  int n = si_num_outputs(c), i, ns;
  si_in(c, 0, &in);
  if (!axis_input(c, 2, in.rank, &axis)) return 0;
  if (in.rank < 0) return 1;
  if (in.rank == 0) return si_err(c, "Can't split scalars");
  ns = si_value_ints(c, 1, sizes, 1024);
  if (ns < 0) {
    o = in;
    if (axis >= 0) {
      o.d[axis] = -1;
    } else {
      si_unknown_of_rank(&o, in.rank);
    }
    for (i = 0; i < n; i++) {
      if (!si_set(c, i, &o)) return 0;
    }
    return 1;
  }
  if (axis < 0) {
    si_unknown_of_rank(&o, in.rank);
    for (i = 0; i < n; i++) {
      if (!si_set(c, i, &o)) return 0;
    }
    return 1;
  }
  if (ns != n) {
    return si_err(c, "Length of size_splits should be equal to num_outputs");
  }
  {
    int64_t total = 0, dim = in.d[axis];
    int has_neg = 0;
    for (i = 0; i < ns; i++) {
      if (sizes[i] == -1) {
        if (has_neg) return si_err(c, "size_splits can only have one -1");
        has_neg = 1;
      } else if (__builtin_add_overflow(total, sizes[i], &total)) {
        return si_err(c, "Split sizes overflow");
      }
    }
    for (i = 0; i < n; i++) {
      int64_t sz = sizes[i];
      if (sz == -1 && dim >= 0 && __builtin_sub_overflow(dim, total, &sz)) {
        return si_err(c, "Split sizes overflow");
      }
      if (sz < -1 || (sz == -1 && dim >= 0)) {
        return si_err(c, "Split size at index %d must be >= 0. Got: %lld", i,
                      (long long)sz);
      }
      o = in;
      o.d[axis] = sz;
      if (!si_set(c, i, &o)) return 0;
    }
    if (dim >= 0 && (has_neg ? total > dim : total != dim)) {
      char list[512];
      size_t len = 0;
      for (i = 0; i < ns && len + 24 < sizeof list; i++) {
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%lld",
                                i > 0 ? "," : "", (long long)sizes[i]);
      }
      list[len] = '\0';
      return si_err(c, "can't split axis of size %lld into pieces of size [%s]",
                    (long long)dim, list);
    }
  }
  return 1;
}

/* ---- permuting and slicing ---- */

static int rule_transpose(si_ctx* c) {
  si_sh in, perm_sh, o;
  int64_t perm[SI_MAX_RANK];
  int64_t perm_elems;
  int np, rank, i;
  si_in(c, 0, &in);
  si_in(c, 1, &perm_sh);
  perm_elems = si_num_elements(&perm_sh);
  np = si_value_ints(c, 1, perm, SI_MAX_RANK);
  if (in.rank < 0 && perm_elems < 0 && np < 0) return 1;
  if (in.rank >= 0) {
    rank = in.rank;
  } else if (perm_elems >= 0) {
    if (perm_elems > SI_MAX_RANK) return 1;
    rank = (int)perm_elems;
  } else {
    rank = np;
  }
  if (in.rank < 0 && rank < 2) return si_set_input(c, 0, 0);
  if (!si_with_rank(c, &in, rank, &in)) return 0;
  if (!si_with_rank(c, &perm_sh, 1, &perm_sh)) return 0;
  if (!si_with_value(c, perm_sh.d[0], rank, NULL)) return 0;
  o.rank = rank;
  if (np >= 0) {
    for (i = 0; i < rank; i++) {
      int64_t k = i < np ? perm[i] : 0;
      if (k >= rank || k < -rank) {
        return si_err(c, "perm dim %lld is out of range of input rank %d",
                      (long long)k, rank);
      }
      o.d[i] = in.d[k < 0 ? k + rank : k];
    }
  } else {
    for (i = 0; i < rank; i++) o.d[i] = -1;
  }
  return si_set(c, 0, &o);
}

static int rule_invert_permutation(si_ctx* c) {
  si_sh in;
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 1, &in)) return 0;
  return si_set(c, 0, &in);
}

/* Slice(input, begin, size). */
static int rule_slice(si_ctx* c) {
  si_sh in, b, sz, begin_v, o;
  int64_t sizes[SI_MAX_RANK];
  int n, i;
  si_in(c, 0, &in);
  si_in(c, 1, &b);
  si_in(c, 2, &sz);
  if (!si_with_rank(c, &b, 1, &b)) return 0;
  if (!si_with_rank(c, &sz, 1, &sz)) return 0;
  if (!si_merge(c, &b, &sz)) return 0;
  if (b.d[0] >= 0) {
    if (b.d[0] > SI_MAX_RANK) return 1;
    if (!si_with_rank(c, &in, (int)b.d[0], &in)) return 0;
  }
  if (!si_shape_from_tensor(c, 1, &begin_v)) return 0;
  n = si_value_ints(c, 2, sizes, SI_MAX_RANK);
  if (n >= 0) {
    if (!si_with_rank(c, &begin_v, n, &begin_v)) return 0;
    o.rank = n;
    for (i = 0; i < n; i++) {
      int64_t dim = in.rank >= 0 ? in.d[i] : -1;
      if (sizes[i] != -1) {
        if (sizes[i] < 0) {
          return si_err(c,
                        "Out of bounds slicing on dimension %d of length "
                        "%lld: sizes vector cannot be < -1, but was %lld",
                        i, (long long)dim, (long long)sizes[i]);
        }
        o.d[i] = sizes[i];
      } else if (!si_dim_sub(c, dim, begin_v.d[i], &o.d[i])) {
        return 0;
      }
    }
    return si_set(c, 0, &o);
  }
  if (!si_shape_from_tensor(c, 2, &o)) return 0;
  if (o.rank >= 0) {
    if (!si_with_rank(c, &begin_v, o.rank, &begin_v)) return 0;
    return si_set(c, 0, &o);
  }
  if (in.rank >= 0) {
    si_unknown_of_rank(&o, in.rank);
    return si_set(c, 0, &o);
  }
  return 1;
}

/* StridedSlice(input, begin, end, strides) with TF's mask semantics. The
 * output is exact when the strides (and the rank of the input) are known;
 * unknown begin/end values give unknown sizes. */
static int rule_strided_slice(si_ctx* c) {
  si_sh in, bs, es, ss, o;
  int64_t begin[SI_MAX_RANK], end[SI_MAX_RANK], stride[SI_MAX_RANK];
  int nb, ne, ns, sparse_dims, i, full;
  int64_t begin_mask = si_attr_int(c, "begin_mask", 0);
  int64_t end_mask = si_attr_int(c, "end_mask", 0);
  int64_t ellipsis_mask = si_attr_int(c, "ellipsis_mask", 0);
  int64_t new_axis_mask = si_attr_int(c, "new_axis_mask", 0);
  int64_t shrink_mask = si_attr_int(c, "shrink_axis_mask", 0);
  /* Dense spec: per input dim, its sparse index (or -1 for an ellipsis
   * filler); and the output gather list (>= 0 input dim, -1 new axis). */
  int dense_from[SI_MAX_RANK];
  int gather[2 * SI_MAX_RANK + 2];
  int ngather = 0, num_add_after_ellipsis = 0, has_ellipsis = 0;
  si_in(c, 0, &in);
  si_in(c, 1, &bs);
  si_in(c, 2, &es);
  si_in(c, 3, &ss);
  if (!si_with_rank(c, &bs, 1, &bs)) return 0;
  if (!si_with_rank(c, &es, 1, &es)) return 0;
  if (!si_with_rank(c, &ss, 1, &ss)) return 0;
  if (!si_merge(c, &bs, &es)) return 0;
  if (!si_merge(c, &bs, &ss)) return 0;
  ns = si_value_ints(c, 3, stride, SI_MAX_RANK);
  if (in.rank < 0 || bs.d[0] < 0 || ns < 0) return 1;
  sparse_dims = ns;
  nb = si_value_ints(c, 1, begin, SI_MAX_RANK);
  ne = si_value_ints(c, 2, end, SI_MAX_RANK);
  if ((nb >= 0 && nb != sparse_dims) || (ne >= 0 && ne != sparse_dims)) {
    return si_err(c,
                  "Expected begin, end, and strides to be 1D equal size "
                  "tensors, but got shapes [%d], [%d], and [%d] instead.",
                  nb, ne, ns);
  }
  if (ellipsis_mask & (ellipsis_mask - 1)) {
    return si_err(c, "Multiple ellipses in slice spec not allowed");
  }
  if (sparse_dims >= 63) return 1;
  /* Without an ellipsis, one is implied after the last index. */
  for (i = 0; i < sparse_dims; i++) {
    if (has_ellipsis && ((new_axis_mask >> i) & 1)) num_add_after_ellipsis++;
    if ((ellipsis_mask >> i) & 1) has_ellipsis = 1;
  }
  if (!has_ellipsis) ellipsis_mask |= (int64_t)1 << sparse_dims;
  full = 0;
  for (i = 0; i <= sparse_dims; i++) {
    if ((ellipsis_mask >> i) & 1) {
      int next = in.rank - (sparse_dims + (has_ellipsis ? 0 : 1) - i) + 1 +
                 num_add_after_ellipsis;
      if (next > in.rank) next = in.rank;
      for (; full < next; full++) {
        dense_from[full] = -1;
        gather[ngather++] = full;
      }
    } else if (i == sparse_dims) {
      break;
    } else if ((new_axis_mask >> i) & 1) {
      gather[ngather++] = -1;
    } else {
      if (full >= in.rank) {
        return si_err(c,
                      "Index out of range using input dim %d; input has only "
                      "%d dims",
                      full, in.rank);
      }
      dense_from[full] = i;
      if (!((shrink_mask >> i) & 1)) gather[ngather++] = full;
      full++;
    }
  }
  o.rank = 0;
  for (i = 0; i < ngather && o.rank < SI_MAX_RANK; i++) {
    int k = gather[i];
    int sp;
    int64_t dim, st, b0, e0, len;
    if (k < 0) {
      o.d[o.rank++] = 1;
      continue;
    }
    sp = dense_from[k];
    dim = in.d[k];
    if (sp < 0) {
      o.d[o.rank++] = dim; /* covered by the ellipsis: whole dim */
      continue;
    }
    st = stride[sp];
    if (st == 0) return si_err(c, "strides[%d] must be non-zero", sp);
    if (dim < 0 || nb < 0 || ne < 0) {
      int bm = (int)((begin_mask >> sp) & 1), em = (int)((end_mask >> sp) & 1);
      if (dim >= 0 && bm && em && st != INT64_MIN) {
        /* full range with a known stride */
        int64_t a = st > 0 ? st : -st;
        o.d[o.rank++] = dim / a + (dim % a != 0);
      } else {
        o.d[o.rank++] = -1;
      }
      continue;
    }
    {
      int bm = (int)((begin_mask >> sp) & 1), em = (int)((end_mask >> sp) & 1);
      int64_t lo = st > 0 ? 0 : -1, hi = st > 0 ? dim : dim - 1;
      if (bm) {
        b0 = st > 0 ? lo : hi;
      } else {
        b0 = begin[sp] < 0 ? dim + begin[sp] : begin[sp];
        b0 = b0 < lo ? lo : (b0 > hi ? hi : b0);
      }
      if (em) {
        e0 = st > 0 ? hi : lo;
      } else {
        e0 = end[sp] < 0 ? dim + end[sp] : end[sp];
        e0 = e0 < lo ? lo : (e0 > hi ? hi : e0);
      }
      len = e0 - b0;
      if (len == 0 || ((len < 0) != (st < 0))) {
        o.d[o.rank++] = 0;
      } else {
        o.d[o.rank++] = len / st + (len % st != 0);
      }
    }
  }
  /* Shrunk dims: check their index is in range when known. */
  for (i = 0; i < full; i++) {
    int sp = dense_from[i];
    if (sp < 0 || !((shrink_mask >> sp) & 1)) continue;
    if (stride[sp] <= 0) {
      return si_err(c, "only stride 1 allowed on non-range indexing.");
    }
    if (nb >= 0 && in.d[i] >= 0) {
      int64_t x = begin[sp] < 0 ? in.d[i] + begin[sp] : begin[sp];
      if (x < 0 || x >= in.d[i]) {
        return si_err(c, "slice index %lld of dimension %d out of bounds.",
                      (long long)x, i);
      }
    }
  }
  return si_set(c, 0, &o);
}

/* ---- gathering ---- */

/* Gather(params, indices): indices.shape + params.shape[1:]. */
static int rule_gather(si_ctx* c) {
  si_sh p, idx, rest;
  si_in(c, 0, &p);
  si_in(c, 1, &idx);
  if (!si_with_rank_at_least(c, &p, 1, &p)) return 0;
  if (!si_subshape(c, &p, 1, INT64_MAX, &rest)) return 0;
  si_concat(&idx, &rest);
  return si_set(c, 0, &idx);
}

/* GatherV2(params, indices, axis) with batch_dims. */
static int rule_gather_v2(si_ctx* c) {
  si_sh p, idx, ax, o, part;
  int64_t axis, bd;
  if (!si_attr_int32(c, "batch_dims", 0, &bd)) return 0;
  si_in(c, 0, &p);
  si_in(c, 1, &idx);
  si_in(c, 2, &ax);
  if (!si_with_rank_at_least(c, &p, 1, &p)) return 0;
  if (!si_with_rank(c, &ax, 0, &ax)) return 0;
  if (!si_value_scalar(c, 2, &axis)) {
    if (p.rank >= 0 && idx.rank >= 0) {
      si_unknown_of_rank(&o, (int)(p.rank + idx.rank - 1 - bd));
      return si_set(c, 0, &o);
    }
    return 1;
  }
  if (axis > SI_MAX_RANK || axis < -SI_MAX_RANK || bd > SI_MAX_RANK ||
      bd < -SI_MAX_RANK) {
    return 1;
  }
  if (!si_with_rank_at_least(c, &p, (int)(axis < 0 ? -axis : axis + 1), &p)) {
    return 0;
  }
  if (!si_with_rank_at_least(c, &idx, (int)(bd < 0 ? -bd : bd), &idx)) {
    return 0;
  }
  if (bd < 0) {
    if (idx.rank < 0) return 1;
    bd += idx.rank;
  }
  if (!si_with_rank_at_least(c, &p, (int)bd + 1, &p)) return 0;
  if (!si_subshape(c, &p, 0, axis, &o)) return 0;
  if (!si_subshape(c, &idx, bd, INT64_MAX, &part)) return 0;
  si_concat(&o, &part);
  if (axis != -1) {
    if (!si_subshape(c, &p, axis + 1, INT64_MAX, &part)) return 0;
    si_concat(&o, &part);
  }
  return si_set(c, 0, &o);
}

/* GatherNd(params, indices). */
static int rule_gather_nd(si_ctx* c) {
  si_sh p, idx, o, rest;
  int64_t r;
  si_in(c, 0, &p);
  si_in(c, 1, &idx);
  if (!si_with_rank_at_least(c, &idx, 1, &idx)) return 0;
  if (p.rank < 0 || idx.rank < 0) return 1;
  r = idx.d[idx.rank - 1];
  if (r < 0) return 1;
  if (r > p.rank) {
    char b1[256], b2[256];
    si_debug_string(&idx, b1, sizeof b1);
    si_debug_string(&p, b2, sizeof b2);
    return si_err(c,
                  "indices.shape[-1] must be <= params.rank, but saw indices "
                  "shape: %s and params shape: %s",
                  b1, b2);
  }
  if (!si_subshape(c, &idx, 0, -1, &o)) return 0;
  if (!si_subshape(c, &p, r, INT64_MAX, &rest)) return 0;
  si_concat(&o, &rest);
  return si_set(c, 0, &o);
}

/* ScatterNd(indices, updates, shape). */
static int rule_scatter_nd(si_ctx* c) {
  si_sh o, idx, upd;
  si_in(c, 0, &idx);
  si_in(c, 1, &upd);
  if (!si_with_rank_at_least(c, &idx, 1, &idx)) return 0;
  if (!si_with_rank_at_least(c, &upd, 1, &upd)) return 0;
  if (!si_shape_from_tensor(c, 2, &o)) return 0;
  return si_set(c, 0, &o);
}

/* TensorScatter*(tensor, indices, updates): shaped as tensor. */
static int rule_tensor_scatter(si_ctx* c) {
  si_sh idx, upd;
  si_in(c, 1, &idx);
  si_in(c, 2, &upd);
  if (!si_with_rank_at_least(c, &idx, 1, &idx)) return 0;
  if (!si_with_rank_at_least(c, &upd, 1, &upd)) return 0;
  return si_set_input(c, 0, 0);
}

/* ---- tiling and padding ---- */

static int rule_tile(si_ctx* c) {
  si_sh in, mult, msh, vec, o;
  int i;
  si_in(c, 0, &in);
  if (!si_shape_from_tensor(c, 1, &mult)) return 0;
  if (in.rank >= 0) {
    if (!si_with_rank(c, &mult, in.rank, &mult)) return 0;
    si_in(c, 1, &msh);
    si_vector(&vec, in.rank);
    if (!si_merge(c, &msh, &vec)) return 0;
  }
  if (mult.rank < 0) return 1;
  if (!si_with_rank(c, &in, mult.rank, &in)) return 0;
  o.rank = mult.rank;
  for (i = 0; i < o.rank; i++) {
    if (!si_dim_mul(c, in.d[i], mult.d[i], &o.d[i])) return 0;
  }
  return si_set(c, 0, &o);
}

/* Pad/PadV2/MirrorPad(input, paddings[, constant_values]). */
static int rule_pad(si_ctx* c) {
  si_sh pads, in, o;
  int64_t n_dim, vals[2 * SI_MAX_RANK];
  int n, i;
  TF_Tensor* t;
  si_in(c, 1, &pads);
  if (!si_with_rank(c, &pads, 2, &pads)) return 0;
  if (!si_with_value(c, pads.d[1], 2, NULL)) return 0;
  si_in(c, 0, &in);
  n_dim = pads.d[0];
  if (n_dim >= 0) {
    if (n_dim > SI_MAX_RANK) return 1;
    if (!si_with_rank(c, &in, (int)n_dim, &in)) return 0;
  } else if (in.rank >= 0) {
    n_dim = in.rank;
  }
  if (si_num_inputs(c) > 2 && strcmp(c->a->def->name, "PadV2") == 0) {
    si_sh cv;
    si_in(c, 2, &cv);
    if (!si_with_rank(c, &cv, 0, &cv)) return 0;
  }
  t = si_value(c, 1);
  n = si_value_ints(c, 1, vals, 2 * SI_MAX_RANK);
  if (t == NULL || n < 0 || TF_NumDims(t) != 2) {
    if (n_dim >= 0) {
      si_unknown_of_rank(&o, (int)n_dim);
      return si_set(c, 0, &o);
    }
    return 1;
  }
  n /= 2;
  if (!si_with_rank(c, &in, n, &in)) return 0;
  o.rank = n;
  for (i = 0; i < n; i++) {
    if (vals[2 * i] < 0 || vals[2 * i + 1] < 0) {
      return si_err(c, "Paddings must be non-negative");
    }
    if (!si_dim_add(c, in.d[i], vals[2 * i], &o.d[i]) ||
        !si_dim_add(c, o.d[i], vals[2 * i + 1], &o.d[i])) {
      return 0;
    }
  }
  return si_set(c, 0, &o);
}

/* ---- misc ---- */

/* OneHot(indices, depth, on_value, off_value). */
static int rule_one_hot(si_ctx* c) {
  int64_t axis, depth;
  si_sh in, o;
  int i, k;
  if (!si_attr_int32(c, "axis", -1, &axis)) return 0;
  if (axis < -1) return si_err(c, "axis must be >= -1");
  if (!si_dim_from_scalar(c, 1, &depth)) return 0;
  si_in(c, 0, &in);
  if (in.rank < 0 || in.rank >= SI_MAX_RANK) return 1;
  k = (int)((axis + in.rank + 1) % (in.rank + 1));
  o.rank = 0;
  for (i = 0; i <= in.rank; i++) {
    if (i == k) o.d[o.rank++] = depth;
    if (i < in.rank) o.d[o.rank++] = in.d[i];
  }
  return si_set(c, 0, &o);
}

static int rule_where(si_ctx* c) {
  si_sh o;
  si_matrix(&o, -1, si_in_rank(c, 0));
  return si_set(c, 0, &o);
}

/* Unique(x): y [?], idx like x (a vector). */
static int rule_unique(si_ctx* c) {
  si_sh in;
  int i;
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 1, &in)) return 0;
  if (!si_set_vector(c, 0, -1)) return 0;
  if (!si_set(c, 1, &in)) return 0;
  for (i = 2; i < si_num_outputs(c); i++) {
    if (!si_set_vector(c, i, -1)) return 0;
  }
  return 1;
}

static int rule_broadcast_to(si_ctx* c) {
  si_sh sh, out, in;
  int i;
  si_in(c, 1, &sh);
  if (!si_with_rank(c, &sh, 1, &sh)) return 0;
  if (!si_shape_from_tensor(c, 1, &out)) return 0;
  if (out.rank < 0) return 1;
  si_in(c, 0, &in);
  if (in.rank < 0) return si_set(c, 0, &out);
  if (in.rank > out.rank) {
    return si_err(c,
                  "Rank of input (%d) must be no greater than rank of output "
                  "shape (%d).",
                  in.rank, out.rank);
  }
  for (i = 0; i < in.rank; i++) {
    int64_t di = in.d[in.rank - 1 - i];
    int64_t* dout = &out.d[out.rank - 1 - i];
    if (di > 1 && !si_merge_dim(c, di, *dout, dout)) return 0;
  }
  return si_set(c, 0, &out);
}

/* BroadcastArgs(s0, s1): a vector as long as the longer one. */
static int rule_broadcast_args(si_ctx* c) {
  si_sh a, b;
  si_in(c, 0, &a);
  si_in(c, 1, &b);
  if (!si_with_rank(c, &a, 1, &a)) return 0;
  if (!si_with_rank(c, &b, 1, &b)) return 0;
  if (a.d[0] < 0 || b.d[0] < 0) return si_set_vector(c, 0, -1);
  return si_set_vector(c, 0, a.d[0] > b.d[0] ? a.d[0] : b.d[0]);
}

static int rule_broadcast_grad_args(si_ctx* c) {
  si_sh a, b;
  si_in(c, 0, &a);
  si_in(c, 1, &b);
  if (!si_with_rank(c, &a, 1, &a)) return 0;
  if (!si_with_rank(c, &b, 1, &b)) return 0;
  if (!si_set_vector(c, 0, -1)) return 0;
  return si_set_vector(c, 1, -1);
}

/* Reverse(tensor, dims): dims is a bool vector as long as the rank. */
static int rule_reverse(si_ctx* c) {
  si_sh in, dims;
  si_in(c, 0, &in);
  si_in(c, 1, &dims);
  if (!si_with_rank(c, &dims, 1, &dims)) return 0;
  if (dims.d[0] >= 0) {
    if (dims.d[0] > SI_MAX_RANK) return 1;
    if (!si_with_rank(c, &in, (int)dims.d[0], &in)) return 0;
  }
  if (in.rank > 8) {
    return si_err(c,
                  "reverse does not work on tensors with more than 8 "
                  "dimensions");
  }
  return si_set(c, 0, &in);
}

/* ReverseV2(tensor, axis): constant axes must be in range and distinct. */
static int rule_reverse_v2(si_ctx* c) {
  si_sh in, axis;
  int64_t ax[SI_MAX_RANK];
  unsigned char seen[8];
  int n, i;
  si_in(c, 0, &in);
  si_in(c, 1, &axis);
  if (!si_with_rank(c, &axis, 1, &axis)) return 0;
  if (in.rank > 8) {
    return si_err(c,
                  "reverse does not work on tensors with more than 8 "
                  "dimensions");
  }
  n = si_value_ints(c, 1, ax, SI_MAX_RANK);
  if (in.rank >= 0 && n > 0) {
    memset(seen, 0, sizeof seen);
    for (i = 0; i < n; i++) {
      int64_t a = ax[i] < 0 ? in.rank + ax[i] : ax[i];
      if (a < 0 || a >= in.rank) {
        return si_err(c, "'axis'[%d] = %lld is out of valid range [0, %d", i,
                      (long long)ax[i], in.rank - 1);
      }
      if (seen[a]) {
        return si_err(c, "axis %lld specified more than once.", (long long)a);
      }
      seen[a] = 1;
    }
  }
  return si_set(c, 0, &in);
}

/* ---- diagonals ---- */

static int rule_diag(si_ctx* c) {
  si_sh in, o;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 1, &in)) return 0;
  if (in.rank < 0) return 1;
  o = in;
  si_concat(&o, &in);
  return si_set(c, 0, &o);
}

static int rule_diag_part(si_ctx* c) {
  si_sh in, o;
  int i, half;
  si_in(c, 0, &in);
  if (in.rank < 0) return 1;
  if (in.rank % 2 != 0) {
    return si_err(c, "Input must have even rank <= 6, input rank is %d",
                  in.rank);
  }
  half = in.rank / 2;
  o.rank = half;
  for (i = 0; i < half; i++) {
    if (!si_merge_dim(c, in.d[i], in.d[i + half], &o.d[i])) return 0;
  }
  return si_set(c, 0, &o);
}

static int rule_matrix_diag(si_ctx* c) {
  si_sh in;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 1, &in)) return 0;
  if (in.rank < 0) return 1;
  si_append_dim(&in, in.d[in.rank - 1]);
  return si_set(c, 0, &in);
}

/* k as (lower, upper) from a constant scalar or 2-vector: 1 when known, 0
 * when not constant, -1 after an error. */
static int diag_k(si_ctx* c, int i, int64_t* lo, int64_t* hi) {
  int64_t k[2];
  int n = si_value_ints(c, i, k, 2);
  if (n == 1) {
    *lo = *hi = k[0];
    return 1;
  }
  if (n == 2) {
    if (k[0] > k[1]) {
      si_err(c, "lower_diag_index must not be larger than upper_diag_index.");
      return -1;
    }
    *lo = k[0];
    *hi = k[1];
    return 1;
  }
  return 0; /* unknown */
}

/* MatrixDiagV2/V3(diagonal, k, num_rows, num_cols, padding_value). */
static int rule_matrix_diag_v2(si_ctx* c) {
  si_sh in, o;
  int64_t lo, hi, rows = -1, cols = -1, len;
  int r;
  si_in(c, 0, &in);
  r = diag_k(c, 1, &lo, &hi);
  if (r < 0) return 0;
  if (r == 0 || in.rank < 0) return 1;
  if (!si_value_scalar(c, 2, &rows)) rows = -2;
  if (!si_value_scalar(c, 3, &cols)) cols = -2;
  if (!si_with_rank_at_least(c, &in, lo == hi ? 1 : 2, &in)) return 0;
  len = in.d[in.rank - 1];
  o = in;
  o.rank -= lo == hi ? 1 : 2;
  {
    int64_t min_rows = len < 0 ? -1 : len + (hi < 0 ? -hi : 0);
    int64_t min_cols = len < 0 ? -1 : len + (lo > 0 ? lo : 0);
    /* both left to the op: the square matrix that fits (as TF) */
    if (rows == -1 && cols == -1 && min_rows >= 0) {
      rows = cols = min_rows > min_cols ? min_rows : min_cols;
    }
    if (rows == -1) rows = min_rows;
    if (cols == -1) cols = min_cols;
    if (rows == -2) rows = -1;
    if (cols == -2) cols = -1;
  }
  si_append_dim(&o, rows);
  si_append_dim(&o, cols);
  return si_set(c, 0, &o);
}

static int rule_matrix_diag_part(si_ctx* c) {
  si_sh in, o;
  int64_t m, n;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 2, &in)) return 0;
  if (in.rank < 0) return 1;
  m = in.d[in.rank - 2];
  n = in.d[in.rank - 1];
  o = in;
  o.rank -= 2;
  si_append_dim(&o, (m < 0 || n < 0) ? -1 : (m < n ? m : n));
  return si_set(c, 0, &o);
}

/* MatrixDiagPartV2/V3(input, k, padding_value). */
static int rule_matrix_diag_part_v2(si_ctx* c) {
  si_sh in, o;
  int64_t lo, hi, m, n, len;
  int r;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 2, &in)) return 0;
  r = diag_k(c, 1, &lo, &hi);
  if (r < 0) return 0;
  if (r == 0 || in.rank < 0) return 1;
  m = in.d[in.rank - 2];
  n = in.d[in.rank - 1];
  if (m < 0 || n < 0) {
    len = -1;
  } else {
    int64_t a = m + (hi < 0 ? hi : 0), b = n - (lo > 0 ? lo : 0);
    len = a < b ? a : b;
    if (len < 0) len = 0;
  }
  o = in;
  o.rank -= 2;
  if (lo != hi) si_append_dim(&o, hi - lo + 1);
  si_append_dim(&o, len);
  return si_set(c, 0, &o);
}

static int rule_matrix_set_diag(si_ctx* c) {
  si_sh in;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 2, &in)) return 0;
  return si_set(c, 0, &in);
}

/* ---- space/batch/depth ---- */

static int data_format_nchw(const si_ctx* c) {
  const char* f = si_attr_str(c, "data_format", "NHWC");
  return strncmp(f, "NCHW", 4) == 0;
}

static int depth_space(si_ctx* c, int to_space) {
  si_sh in, o;
  int64_t bs = si_attr_int(c, "block_size", 2), bs2;
  int nchw = data_format_nchw(c);
  int hi = nchw ? 2 : 1, wi = nchw ? 3 : 2, ci = nchw ? 1 : 3;
  si_in(c, 0, &in);
  if (strcmp(si_attr_str(c, "data_format", "NHWC"), "NCHW_VECT_C") == 0) {
    /* the vectorised layout is not modelled: rank only */
    if (!si_with_rank(c, &in, 5, &in)) return 0;
    return 1;
  }
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  if (bs < 2) return si_err(c, "block_size must be > 1");
  if (!si_dim_mul(c, bs, bs, &bs2)) return 0;
  o = in;
  if (to_space) {
    if (!si_dim_mul(c, in.d[hi], bs, &o.d[hi])) return 0;
    if (!si_dim_mul(c, in.d[wi], bs, &o.d[wi])) return 0;
    if (!si_dim_div(c, in.d[ci], bs2, 1, &o.d[ci])) return 0;
  } else {
    if (!si_dim_div(c, in.d[hi], bs, 1, &o.d[hi])) return 0;
    if (!si_dim_div(c, in.d[wi], bs, 1, &o.d[wi])) return 0;
    if (!si_dim_mul(c, in.d[ci], bs2, &o.d[ci])) return 0;
  }
  return si_set(c, 0, &o);
}

static int rule_depth_to_space(si_ctx* c) { return depth_space(c, 1); }
static int rule_space_to_depth(si_ctx* c) { return depth_space(c, 0); }

/* SpaceToBatchND / BatchToSpaceND (block shape from constant input
 * `block`, or, for the 4-D SpaceToBatch/BatchToSpace, [block_size,
 * block_size] when block < 0) with paddings/crops input `pads`. As TF: the
 * batch dim needs the block shape; a spatial dim needs the paddings too. */
static int space_batch(si_ctx* c, int to_batch, int block, int pads) {
  si_sh in, psh, mat, o, rest;
  int64_t bl[SI_MAX_RANK], pv[2 * SI_MAX_RANK], batch, nbl;
  int nblv, np, i;
  si_in(c, 0, &in);
  if (block >= 0) {
    si_sh bsh;
    si_in(c, block, &bsh);
    if (bsh.rank != 1) return si_err(c, "block_shape must have rank 1.");
    if (bsh.d[0] < 0) return si_err(c, "block_shape must have known size.");
    if (bsh.d[0] >= SI_MAX_RANK) return 1;
    nbl = bsh.d[0];
    nblv = si_value_ints(c, block, bl, SI_MAX_RANK);
    if (nblv != nbl) nblv = -1;
  } else {
    if (!si_with_rank(c, &in, 4, &in)) return 0;
    nbl = 2;
    bl[0] = bl[1] = si_attr_int(c, "block_size", 2);
    nblv = 2;
  }
  if (!si_with_rank_at_least(c, &in, (int)nbl + 1, &in)) return 0;
  si_in(c, pads, &psh);
  si_matrix(&mat, nbl, 2);
  if (!si_merge(c, &psh, &mat)) return 0;
  batch = in.rank >= 0 ? in.d[0] : -1;
  if (nblv >= 0) {
    for (i = 0; i < nbl; i++) {
      if (bl[i] < 1) return si_err(c, "block_shape must be positive");
      if (batch >= 0) {
        if (to_batch) {
          if (!si_dim_mul(c, batch, bl[i], &batch)) return 0;
        } else if (!si_dim_div(c, batch, bl[i], 1, &batch)) {
          return 0;
        }
      }
    }
  } else if (nbl > 0) {
    batch = -1;
  }
  o.rank = (int)nbl + 1;
  o.d[0] = batch;
  for (i = 0; i < nbl; i++) o.d[i + 1] = -1;
  np = si_value_ints(c, pads, pv, 2 * SI_MAX_RANK);
  if (np >= 0 && np == 2 * nbl) {
    for (i = 0; i < nbl; i++) {
      int64_t x = in.rank >= 0 ? in.d[i + 1] : -1;
      if (pv[2 * i] < 0 || pv[2 * i + 1] < 0) {
        return si_err(c, to_batch ? "paddings cannot be negative"
                                  : "crops cannot be negative");
      }
      if (nblv < 0) continue;
      if (to_batch) {
        if (!si_dim_add(c, x, pv[2 * i], &x)) return 0;
        if (!si_dim_add(c, x, pv[2 * i + 1], &x)) return 0;
        if (!si_dim_div(c, x, bl[i], 1, &o.d[i + 1])) return 0;
      } else {
        if (!si_dim_mul(c, x, bl[i], &x)) return 0;
        if (!si_dim_sub(c, x, pv[2 * i], &x)) return 0;
        if (!si_dim_sub(c, x, pv[2 * i + 1], &o.d[i + 1])) return 0;
      }
    }
  }
  if (!si_subshape(c, &in, 1 + nbl, INT64_MAX, &rest)) return 0;
  si_concat(&o, &rest);
  return si_set(c, 0, &o);
}

static int rule_space_to_batch_nd(si_ctx* c) { return space_batch(c, 1, 1, 2); }
static int rule_batch_to_space_nd(si_ctx* c) { return space_batch(c, 0, 1, 2); }
static int rule_space_to_batch(si_ctx* c) { return space_batch(c, 1, -1, 1); }
static int rule_batch_to_space(si_ctx* c) { return space_batch(c, 0, -1, 1); }

/* UnravelIndex(indices, dims). */
static int rule_unravel_index(si_ctx* c) {
  si_sh idx, dims, o;
  si_in(c, 0, &idx);
  si_in(c, 1, &dims);
  if (!si_with_rank_at_most(c, &idx, 1, &idx)) return 0;
  if (!si_with_rank(c, &dims, 1, &dims)) return 0;
  if (idx.rank == 0) return si_set_vector(c, 0, dims.d[0]);
  if (idx.rank < 0) return 1;
  si_matrix(&o, dims.d[0], idx.d[0]);
  return si_set(c, 0, &o);
}

/* LowerBound/UpperBound(sorted_inputs, values): shaped as values. */
static int rule_bound(si_ctx* c) {
  si_sh s, v;
  si_in(c, 0, &s);
  si_in(c, 1, &v);
  if (!si_with_rank(c, &s, 2, &s)) return 0;
  if (!si_with_rank(c, &v, 2, &v)) return 0;
  if (!si_merge_dim(c, s.d[0], v.d[0], &v.d[0])) return 0;
  return si_set(c, 0, &v);
}

static int rule_list_diff(si_ctx* c) {
  si_sh x, y;
  si_in(c, 0, &x);
  si_in(c, 1, &y);
  if (!si_with_rank(c, &x, 1, &x)) return 0;
  if (!si_with_rank(c, &y, 1, &y)) return 0;
  if (!si_set_vector(c, 0, -1)) return 0;
  return si_set_vector(c, 1, -1);
}

static int rule_reverse_sequence(si_ctx* c) {
  si_sh in, len;
  int64_t sd = si_attr_int(c, "seq_dim", 0), bd = si_attr_int(c, "batch_dim", 0);
  si_in(c, 0, &in);
  si_in(c, 1, &len);
  if (!si_with_rank(c, &len, 1, &len)) return 0;
  if (in.rank < 0) return 1;
  if (bd >= in.rank) {
    return si_err(c, "batch_dim must be < input rank: %lld vs. %d",
                  (long long)bd, in.rank);
  }
  if (sd >= in.rank) {
    return si_err(c, "seq_dim must be < input rank: %lld vs. %d",
                  (long long)sd, in.rank);
  }
  if (bd < 0) bd += in.rank; /* a dim counted from the end */
  if (bd < 0) return 1;
  if (!si_merge_dim(c, len.d[0], in.d[bd], &in.d[bd])) return 0;
  return si_set(c, 0, &in);
}

const si_rule si_rules_array[] = {
    {"Const", rule_const}, {"HostConst", rule_const},
    {"Placeholder", si_rule_explicit_shape},
    {"PlaceholderV2", si_rule_explicit_shape},
    {"PlaceholderWithDefault", rule_placeholder_with_default},
    {"EnsureShape", rule_ensure_shape}, {"Identity", si_rule_unchanged},
    {"IdentityN", si_rule_passthrough}, {"Snapshot", si_rule_unchanged},
    {"StopGradient", si_rule_unchanged},
    {"PreventGradient", si_rule_unchanged},
    {"CheckNumerics", si_rule_unchanged},
    {"CheckNumericsV2", si_rule_unchanged},
    {"GuaranteeConst", si_rule_unchanged}, {"DeepCopy", si_rule_unchanged},
    {"DebugGradientIdentity", si_rule_unchanged},
    {"ZerosLike", si_rule_unchanged}, {"OnesLike", si_rule_unchanged},
    {"Fill", rule_fill}, {"Empty", si_rule_shape_from_input0},
    {"Shape", rule_shape}, {"ShapeN", rule_shape},
    {"Size", si_rule_scalar}, {"Rank", si_rule_scalar},
    {"Reshape", rule_reshape}, {"ExpandDims", rule_expand_dims},
    {"Squeeze", rule_squeeze}, {"ConcatV2", rule_concat_v2},
    {"ConcatOffset", rule_concat_offset},
    {"Concat", rule_concat}, {"Pack", rule_pack}, {"Unpack", rule_unpack},
    {"Split", rule_split}, {"SplitV", rule_split_v},
    {"Transpose", rule_transpose}, {"ConjugateTranspose", rule_transpose},
    {"InvertPermutation", rule_invert_permutation}, {"Slice", rule_slice},
    {"StridedSlice", rule_strided_slice}, {"Gather", rule_gather},
    {"GatherV2", rule_gather_v2}, {"GatherNd", rule_gather_nd},
    {"ScatterNd", rule_scatter_nd},
    {"TensorScatterUpdate", rule_tensor_scatter},
    {"TensorScatterAdd", rule_tensor_scatter},
    {"TensorScatterSub", rule_tensor_scatter},
    {"TensorScatterMax", rule_tensor_scatter},
    {"TensorScatterMin", rule_tensor_scatter}, {"Tile", rule_tile},
    {"Pad", rule_pad}, {"PadV2", rule_pad}, {"MirrorPad", rule_pad},
    {"OneHot", rule_one_hot}, {"Where", rule_where},
    {"Unique", rule_unique}, {"UniqueWithCounts", rule_unique},
    {"BroadcastTo", rule_broadcast_to},
    {"BroadcastArgs", rule_broadcast_args},
    {"BroadcastGradientArgs", rule_broadcast_grad_args},
    {"Reverse", rule_reverse}, {"ReverseV2", rule_reverse_v2},
    {"Roll", si_rule_unchanged}, {"MatrixBandPart", si_rule_unchanged},
    {"Diag", rule_diag}, {"DiagPart", rule_diag_part},
    {"MatrixDiag", rule_matrix_diag}, {"MatrixDiagV2", rule_matrix_diag_v2},
    {"MatrixDiagV3", rule_matrix_diag_v2},
    {"MatrixDiagPart", rule_matrix_diag_part},
    {"MatrixDiagPartV2", rule_matrix_diag_part_v2},
    {"MatrixDiagPartV3", rule_matrix_diag_part_v2},
    {"MatrixSetDiag", rule_matrix_set_diag},
    {"MatrixSetDiagV2", rule_matrix_set_diag},
    {"MatrixSetDiagV3", rule_matrix_set_diag},
    {"DepthToSpace", rule_depth_to_space},
    {"SpaceToDepth", rule_space_to_depth},
    {"SpaceToBatchND", rule_space_to_batch_nd},
    {"BatchToSpaceND", rule_batch_to_space_nd},
    {"SpaceToBatch", rule_space_to_batch},
    {"BatchToSpace", rule_batch_to_space},
    {"UnravelIndex", rule_unravel_index}, {"LowerBound", rule_bound},
    {"UpperBound", rule_bound}, {"ListDiff", rule_list_diff},
    {"ReverseSequence", rule_reverse_sequence},
    {NULL, NULL}};
