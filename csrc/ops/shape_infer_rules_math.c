/* Shape rules: reductions, ArgMax/ArgMin, matrix products (MatMul,
 * BatchMatMul*, Einsum), Range/LinSpace, scans, segment reductions,
 * bincounts and linear algebra. */
#include <math.h>
#include <string.h>

#include "core/status_internal.h"
#include "ops/shape_infer_internal.h"

/* Sum/Mean/Max/Min/Prod/All/Any(input, reduction_indices). */
static int rule_reduction(si_ctx* c) {
  si_sh in, idx;
  int64_t axes[SI_MAX_RANK + 1];
  unsigned char reduced[SI_MAX_RANK];
  int keep = si_attr_bool(c, "keep_dims", 0);
  int n, i;
  si_sh o;
  si_in(c, 0, &in);
  si_in(c, 1, &idx);
  if (!si_with_rank_at_most(c, &idx, 1, &idx)) return 0;
  n = si_value_ints(c, 1, axes, SI_MAX_RANK + 1);
  if (n < 0 || in.rank < 0) {
    if (keep && in.rank >= 0) {
      si_unknown_of_rank(&o, in.rank);
      return si_set(c, 0, &o);
    }
    return 1;
  }
  memset(reduced, 0, sizeof reduced);
  for (i = 0; i < n; i++) {
    int64_t a = axes[i];
    if (a < -in.rank || a >= in.rank) {
      return si_err(c,
                    "Invalid reduction dimension %lld for input with %d "
                    "dimensions.",
                    (long long)a, in.rank);
    }
    if (a < 0) a += in.rank;
    reduced[a] = 1;
  }
  o.rank = 0;
  for (i = 0; i < in.rank; i++) {
    if (reduced[i]) {
      if (keep) o.d[o.rank++] = 1;
    } else {
      o.d[o.rank++] = in.d[i];
    }
  }
  return si_set(c, 0, &o);
}

/* ArgMax/ArgMin(input, dimension). */
static int rule_arg(si_ctx* c) {
  si_sh in, dim, o;
  int64_t a;
  int i;
  si_in(c, 1, &dim);
  if (!si_with_rank(c, &dim, 0, &dim)) return 0;
  si_in(c, 0, &in);
  if (in.rank < 0) return 1;
  if (in.rank <= 1) return si_set_scalar(c, 0);
  if (!si_value_scalar(c, 1, &a)) {
    si_unknown_of_rank(&o, in.rank - 1);
    return si_set(c, 0, &o);
  }
  if (a < -in.rank || a >= in.rank) {
    return si_err(c,
                  "Dimension (%lld) must be in the range [%d, %d), where %d "
                  "is the number of dimensions in the input.",
                  (long long)a, -in.rank, in.rank, in.rank);
  }
  if (a < 0) a += in.rank;
  o.rank = 0;
  for (i = 0; i < in.rank; i++) {
    if (i != a) o.d[o.rank++] = in.d[i];
  }
  return si_set(c, 0, &o);
}

static int rule_matmul(si_ctx* c) {
  si_sh a, b, o;
  int ta = si_attr_bool(c, "transpose_a", 0);
  int tb = si_attr_bool(c, "transpose_b", 0);
  si_in(c, 0, &a);
  si_in(c, 1, &b);
  if (!si_with_rank(c, &a, 2, &a)) return 0;
  if (!si_with_rank(c, &b, 2, &b)) return 0;
  if (!si_merge_dim(c, ta ? a.d[0] : a.d[1], tb ? b.d[1] : b.d[0], NULL)) {
    return 0;
  }
  si_matrix(&o, ta ? a.d[1] : a.d[0], tb ? b.d[0] : b.d[1]);
  return si_set(c, 0, &o);
}

/* BatchMatMul (batch dims merge) and V2/V3 (batch dims broadcast). */
static int batch_matmul(si_ctx* c, int broadcast) {
  si_sh a, b, ab, bb, o;
  int adj_x = si_attr_bool(c, "adj_x", 0), adj_y = si_attr_bool(c, "adj_y", 0);
  int64_t rows, cols;
  si_in(c, 0, &a);
  si_in(c, 1, &b);
  if (!si_with_rank_at_least(c, &a, 2, &a)) return 0;
  if (!si_with_rank_at_least(c, &b, 2, &b)) return 0;
  /* A dim of an unknown-rank side is unknown. */
  rows = a.rank < 0 ? -1 : a.d[a.rank - (adj_x ? 1 : 2)];
  cols = b.rank < 0 ? -1 : b.d[b.rank - (adj_y ? 2 : 1)];
  if (a.rank >= 0 && b.rank >= 0 &&
      !si_merge_dim(c, a.d[a.rank - (adj_x ? 2 : 1)],
                    b.d[b.rank - (adj_y ? 1 : 2)], NULL)) {
    return 0;
  }
  if (!si_subshape(c, &a, 0, -2, &ab)) return 0;
  if (!si_subshape(c, &b, 0, -2, &bb)) return 0;
  if (broadcast) {
    if (!si_broadcast(c, &ab, &bb, 1, &o)) return 0;
  } else {
    if (!si_merge(c, &ab, &bb)) return 0;
    o = ab;
  }
  si_append_dim(&o, rows);
  si_append_dim(&o, cols);
  return si_set(c, 0, &o);
}

static int rule_batch_matmul(si_ctx* c) { return batch_matmul(c, 0); }
static int rule_batch_matmul_v2(si_ctx* c) { return batch_matmul(c, 1); }

/* Einsum: labels give dims; an ellipsis broadcasts. The equation must be
 * explicit ("ij,jk->ik"; the Python layer rewrites implicit ones). */
static int rule_einsum(si_ctx* c) {
  const char* eq = si_attr_str(c, "equation", NULL);
  const char* arrow;
  const char* lab[2];
  size_t lab_len[2];
  int64_t label_dim[128];
  unsigned char seen[128];
  si_sh bcast[2], ob, o;
  int n_in = si_num_inputs(c), k, i;
  const char* out_lab;
  size_t out_len;
  if (eq == NULL) return 1;
  arrow = strstr(eq, "->");
  if (arrow == NULL || strstr(arrow + 2, "->") != NULL) {
    return si_err(c, "Expecting exactly one '->' in einsum equation: %s", eq);
  }
  if (n_in < 1 || n_in > 2) {
    return si_err(c, "Expected either 1 or 2 inputs but got: %d", n_in);
  }
  lab[0] = eq;
  {
    const char* comma = memchr(eq, ',', (size_t)(arrow - eq));
    if (comma != NULL) {
      if (n_in != 2) {
        return si_err(c, "Expected 2 inputs for equation %s but got: %d", eq,
                      n_in);
      }
      lab_len[0] = (size_t)(comma - eq);
      lab[1] = comma + 1;
      lab_len[1] = (size_t)(arrow - lab[1]);
    } else {
      if (n_in != 1) {
        return si_err(c, "Expected 1 inputs for equation %s but got: %d", eq,
                      n_in);
      }
      lab_len[0] = (size_t)(arrow - eq);
    }
  }
  out_lab = arrow + 2;
  out_len = strlen(out_lab);
  memset(seen, 0, sizeof seen);
  for (k = 0; k < n_in; k++) {
    si_sh in;
    size_t n_named = 0, j;
    int has_ell = 0, seen_ell = 0;
    for (j = 0; j < lab_len[k]; j++) {
      if (lab[k][j] == '.') has_ell = 1;
      else if (lab[k][j] != ' ') n_named++;
    }
    si_in(c, k, &in);
    if (in.rank >= 0) {
      if (has_ell) {
        if (!si_with_rank_at_least(c, &in, (int)n_named, &in)) {
          return si_err_context(c, " for %dth input and equation: %s", k, eq);
        }
      } else if (!si_with_rank(c, &in, (int)n_named, &in)) {
        return si_err_context(c, " for %dth input and equation: %s", k, eq);
      }
    }
    si_scalar(&bcast[k]);
    {
      int idx = 0;
      for (j = 0; j < lab_len[k]; j++) {
        unsigned char l = (unsigned char)lab[k][j];
        int64_t d;
        if (l == ' ') continue;
        if (l == '.') {
          int ell = in.rank >= 0 ? in.rank - (int)n_named : -1;
          if (ell < 0) {
            si_unknown(&bcast[k]);
          } else {
            int q;
            bcast[k].rank = ell;
            for (q = 0; q < ell; q++) bcast[k].d[q] = in.d[idx + q];
            idx += ell;
          }
          while (j + 1 < lab_len[k] && lab[k][j + 1] == '.') j++;
          seen_ell = 1;
          continue;
        }
        if (l >= 128) return 1;
        if (in.rank < 0 || (seen_ell && bcast[k].rank < 0)) {
          d = -1;
        } else {
          d = in.d[idx];
        }
        idx++;
        if (seen[l]) {
          if (!si_merge_dim(c, label_dim[l], d, &label_dim[l])) return 0;
        } else {
          seen[l] = 1;
          label_dim[l] = d;
        }
      }
    }
  }
  if (n_in == 2) {
    if (!si_broadcast(c, &bcast[0], &bcast[1], 1, &ob)) return 0;
  } else {
    ob = bcast[0];
  }
  o.rank = 0;
  for (i = 0; i < (int)out_len; i++) {
    unsigned char l = (unsigned char)out_lab[i];
    if (l == ' ') continue;
    if (l == '.') {
      if (ob.rank < 0) return 1; /* unknown rank output */
      si_concat(&o, &ob);
      while (i + 1 < (int)out_len && out_lab[i + 1] == '.') i++;
      continue;
    }
    if (l >= 128 || !seen[l]) {
      return si_err(c,
                    "Einsum output subscripts for equation '%s' has label "
                    "'%c' which is not present in the input subscripts",
                    eq, (char)l);
    }
    si_append_dim(&o, label_dim[l]);
  }
  return si_set(c, 0, &o);
}

/* Range(start, limit, delta). */
static int rule_range(si_ctx* c) {
  si_sh s;
  int i;
  TF_Tensor* v[3];
  double vals[3];
  for (i = 0; i < 3; i++) {
    si_in(c, i, &s);
    if (!si_with_rank(c, &s, 0, &s)) {
      static const char* names[3] = {"start", "limit", "delta"};
      return si_err_context(c, " for '%s'", names[i]);
    }
  }
  for (i = 0; i < 3; i++) {
    v[i] = si_value(c, i);
    if (v[i] == NULL || TF_TensorElementCount(v[i]) != 1) {
      return si_set_vector(c, 0, -1);
    }
    switch ((int)TF_TensorType(v[i])) {
      case TF_INT32: vals[i] = *(const int32_t*)TF_TensorData(v[i]); break;
      case TF_INT64:
        vals[i] = (double)*(const int64_t*)TF_TensorData(v[i]);
        break;
      case TF_FLOAT: vals[i] = *(const float*)TF_TensorData(v[i]); break;
      case TF_DOUBLE: vals[i] = *(const double*)TF_TensorData(v[i]); break;
      default: return si_set_vector(c, 0, -1);
    }
  }
  if (vals[2] == 0) return si_err(c, "Requires delta != 0");
  if (vals[2] > 0 && vals[0] > vals[1]) {
    return si_err(c, "Requires start <= limit when delta > 0: %g/%g", vals[0],
                  vals[1]);
  }
  if (vals[2] < 0 && vals[0] < vals[1]) {
    return si_err(c, "Requires start >= limit when delta < 0: %g/%g", vals[0],
                  vals[1]);
  }
  {
    int is_int = TF_TensorType(v[0]) == TF_INT32 ||
                 TF_TensorType(v[0]) == TF_INT64;
    double size;
    if (is_int) {
      int64_t st = (int64_t)vals[0], li = (int64_t)vals[1],
              de = (int64_t)vals[2];
      int64_t diff, ad;
      if (de == INT64_MIN ||
          __builtin_sub_overflow(li > st ? li : st, li > st ? st : li,
                                 &diff)) {
        return si_set_vector(c, 0, -1);
      }
      ad = de < 0 ? -de : de;
      size = (double)(diff / ad + (diff % ad != 0));
    } else {
      size = ceil(fabs((vals[1] - vals[0]) / vals[2]));
    }
    if (!(size >= 0) || size > 9.2e18) return si_set_vector(c, 0, -1);
    return si_set_vector(c, 0, (int64_t)size);
  }
}

/* LinSpace(start, stop, num). */
static int rule_linspace(si_ctx* c) {
  si_sh s;
  int64_t num;
  int i;
  for (i = 0; i < 3; i++) {
    si_in(c, i, &s);
    if (!si_with_rank(c, &s, 0, &s)) return 0;
  }
  if (!si_value_scalar(c, 2, &num)) return si_set_vector(c, 0, -1);
  return si_set_vector(c, 0, num < 0 ? -1 : num);
}

/* SegmentSum & co (data, segment_ids): [?] + data[1:]. */
static int rule_segment(si_ctx* c) {
  si_sh data, ids, o, rest;
  si_in(c, 0, &data);
  si_in(c, 1, &ids);
  if (!si_with_rank_at_least(c, &data, 1, &data)) return 0;
  if (!si_with_rank(c, &ids, 1, &ids)) return 0;
  if (data.rank >= 1 && !si_merge_dim(c, data.d[0], ids.d[0], NULL)) {
    return 0;
  }
  if (!si_subshape(c, &data, 1, INT64_MAX, &rest)) return 0;
  si_vector(&o, -1);
  si_concat(&o, &rest);
  return si_set(c, 0, &o);
}

/* UnsortedSegmentSum & co (data, segment_ids, num_segments). */
static int rule_unsorted_segment(si_ctx* c) {
  si_sh data, ids, num, o, rest;
  int64_t n;
  si_in(c, 0, &data);
  si_in(c, 1, &ids);
  si_in(c, 2, &num);
  if (!si_with_rank(c, &num, 0, &num)) return 0;
  if (ids.rank < 0) return 1;
  if (!si_merge_prefix(c, &data, &ids)) return 0;
  if (!si_dim_from_scalar(c, 2, &n)) return 0;
  if (!si_subshape(c, &data, ids.rank, INT64_MAX, &rest)) return 0;
  si_vector(&o, n);
  si_concat(&o, &rest);
  return si_set(c, 0, &o);
}

/* Bincount(arr, size, weights): [size]. */
static int rule_bincount(si_ctx* c) {
  si_sh s;
  int64_t n;
  si_in(c, 1, &s);
  if (!si_with_rank(c, &s, 0, &s)) return 0;
  if (!si_value_scalar(c, 1, &n)) return si_set_vector(c, 0, -1);
  if (n < 0) {
    return si_err(c, "Input size should be >= 0 but got %lld",
                  (long long)n);
  }
  return si_set_vector(c, 0, n);
}

/* DenseBincount(input, size, weights): [size] or [batch, size]. */
static int rule_dense_bincount(si_ctx* c) {
  si_sh in, s, o;
  int64_t n = -1;
  si_in(c, 0, &in);
  si_in(c, 1, &s);
  if (!si_with_rank_at_most(c, &in, 2, &in)) return 0;
  if (!si_with_rank(c, &s, 0, &s)) return 0;
  if (si_value_scalar(c, 1, &n) && n < 0) {
    return si_err(c, "Input size should be >= 0 but got %lld",
                  (long long)n);
  }
  if (in.rank < 0) return 1;
  if (in.rank <= 1) return si_set_vector(c, 0, n);
  si_matrix(&o, in.d[0], n);
  return si_set(c, 0, &o);
}

/* Square matrices: [..., n, n] -> same. */
static int square_input(si_ctx* c, si_sh* in) {
  int64_t m;
  si_in(c, 0, in);
  if (!si_with_rank_at_least(c, in, 2, in)) return 0;
  if (in->rank < 0) return 1;
  if (!si_merge_dim(c, in->d[in->rank - 2], in->d[in->rank - 1], &m)) {
    return 0;
  }
  in->d[in->rank - 2] = in->d[in->rank - 1] = m;
  return 1;
}

static int rule_square_unchanged(si_ctx* c) {
  si_sh in;
  if (!square_input(c, &in)) return 0;
  return si_set(c, 0, &in);
}

static int rule_determinant(si_ctx* c) {
  si_sh in;
  int i;
  if (!square_input(c, &in)) return 0;
  if (in.rank >= 0) in.rank -= 2;
  for (i = 0; i < si_num_outputs(c); i++) {
    if (!si_set(c, i, &in)) return 0;
  }
  return 1;
}

/* MatrixSolve(matrix, rhs) and MatrixTriangularSolve (batch broadcast). */
static int matrix_solve(si_ctx* c, int broadcast) {
  si_sh m, r, mb, rb, o;
  int64_t n;
  if (!square_input(c, &m)) return 0;
  si_in(c, 1, &r);
  if (!si_with_rank_at_least(c, &r, 2, &r)) return 0;
  if (m.rank < 0 || r.rank < 0) {
    if (!broadcast && r.rank >= 0) return si_set(c, 0, &r);
    return 1;
  }
  if (!si_merge_dim(c, m.d[m.rank - 1], r.d[r.rank - 2], &n)) return 0;
  if (!si_subshape(c, &m, 0, -2, &mb)) return 0;
  if (!si_subshape(c, &r, 0, -2, &rb)) return 0;
  if (broadcast) {
    if (!si_broadcast(c, &mb, &rb, 1, &o)) return 0;
  } else {
    if (!si_merge(c, &mb, &rb)) return 0;
    o = mb;
  }
  si_append_dim(&o, n);
  si_append_dim(&o, r.d[r.rank - 1]);
  return si_set(c, 0, &o);
}

static int rule_matrix_solve(si_ctx* c) { return matrix_solve(c, 0); }
static int rule_triangular_solve(si_ctx* c) { return matrix_solve(c, 1); }

/* Qr(input): q [..., m, p or m], r [..., p or m, n], p = min(m, n). */
static int rule_qr(si_ctx* c) {
  si_sh in, q, r;
  int full = si_attr_bool(c, "full_matrices", 0);
  int64_t m, n, p;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 2, &in)) return 0;
  if (in.rank < 0) return 1;
  m = in.d[in.rank - 2];
  n = in.d[in.rank - 1];
  p = (m < 0 || n < 0) ? -1 : (m < n ? m : n);
  q = in;
  q.rank -= 2;
  r = q;
  si_append_dim(&q, m);
  si_append_dim(&q, full ? m : p);
  si_append_dim(&r, full ? m : p);
  si_append_dim(&r, n);
  if (!si_set(c, 0, &q)) return 0;
  return si_set(c, 1, &r);
}

/* SelfAdjointEigV2(input): e [..., n], v [..., n, n] or [0]. */
static int rule_eig(si_ctx* c) {
  si_sh in, e;
  if (!square_input(c, &in)) return 0;
  if (in.rank < 0) return 1;
  e = in;
  e.rank -= 1;
  if (!si_set(c, 0, &e)) return 0;
  if (si_attr_bool(c, "compute_v", 1)) return si_set(c, 1, &in);
  return si_set_vector(c, 1, 0);
}

/* Lu(input): lu like the input, p [..., n]. */
static int rule_lu(si_ctx* c) {
  si_sh in, p;
  if (!square_input(c, &in)) return 0;
  if (!si_set(c, 0, &in)) return 0;
  if (in.rank < 0) return 1;
  p = in;
  p.rank -= 1;
  return si_set(c, 1, &p);
}

/* Cumsum/Cumprod/CumulativeLogsumexp(x, axis): shaped as x (TF checks
 * nothing more statically). */
static int rule_scan(si_ctx* c) { return si_set_input(c, 0, 0); }

#define REDUCTION(name) {name, rule_reduction}

const si_rule si_rules_math[] = {
    REDUCTION("Sum"), REDUCTION("Mean"), REDUCTION("Max"), REDUCTION("Min"),
    REDUCTION("Prod"), REDUCTION("All"), REDUCTION("Any"),
    REDUCTION("EuclideanNorm"), {"ArgMax", rule_arg}, {"ArgMin", rule_arg},
    {"MatMul", rule_matmul}, {"BatchMatMul", rule_batch_matmul},
    {"BatchMatMulV2", rule_batch_matmul_v2},
    {"BatchMatMulV3", rule_batch_matmul_v2}, {"Einsum", rule_einsum},
    {"Range", rule_range}, {"LinSpace", rule_linspace},
    {"Cumsum", rule_scan}, {"Cumprod", rule_scan},
    {"CumulativeLogsumexp", rule_scan}, {"SegmentSum", rule_segment},
    {"SegmentMean", rule_segment}, {"SegmentMax", rule_segment},
    {"SegmentMin", rule_segment}, {"SegmentProd", rule_segment},
    {"UnsortedSegmentSum", rule_unsorted_segment},
    {"UnsortedSegmentMax", rule_unsorted_segment},
    {"UnsortedSegmentMin", rule_unsorted_segment},
    {"UnsortedSegmentProd", rule_unsorted_segment},
    {"Bincount", rule_bincount}, {"DenseBincount", rule_dense_bincount},
    {"MatrixDeterminant", rule_determinant},
    {"LogMatrixDeterminant", rule_determinant},
    {"MatrixInverse", rule_square_unchanged},
    {"Cholesky", rule_square_unchanged},
    {"MatrixSolve", rule_matrix_solve},
    {"MatrixTriangularSolve", rule_triangular_solve}, {"Qr", rule_qr},
    {"SelfAdjointEigV2", rule_eig}, {"Lu", rule_lu},
    {NULL, NULL}};
