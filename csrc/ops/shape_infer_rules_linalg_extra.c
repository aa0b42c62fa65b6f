/* Shape rules for the linalg_extra op group (linear-algebra ops of tf.linalg not in the older groups). */
#include "ops/shape_infer_internal.h"

/* TridiagonalSolve(diagonals [..., 3, M], rhs [..., M, K]) -> rhs's shape,
 * with the batch dimensions and M merged. */
static int rule_tridiagonal_solve(si_ctx* c) {
  si_sh d, r, db, rb;
  int64_t x;
  si_in(c, 0, &d);
  si_in(c, 1, &r);
  if (!si_with_rank_at_least(c, &d, 2, &d)) return 0;
  if (!si_with_rank_at_least(c, &r, 2, &r)) return 0;
  if (d.rank >= 0 && !si_merge_dim(c, d.d[d.rank - 2], 3, &x)) return 0;
  if (d.rank < 0 || r.rank < 0) return si_set(c, 0, &r);
  if (!si_with_rank(c, &r, d.rank, &r)) return 0;
  if (!si_merge_dim(c, d.d[d.rank - 1], r.d[r.rank - 2], &x)) return 0;
  r.d[r.rank - 2] = x;
  if (!si_subshape(c, &d, 0, -2, &db)) return 0;
  if (!si_subshape(c, &r, 0, -2, &rb)) return 0;
  if (!si_merge(c, &rb, &db)) return 0;
  si_append_dim(&rb, x);
  si_append_dim(&rb, r.d[r.rank - 1]);
  return si_set(c, 0, &rb);
}

/* TridiagonalMatMul(superdiag, maindiag, subdiag [..., 1, M], rhs
 * [..., M, N]) -> rhs's shape. */
static int rule_tridiagonal_matmul(si_ctx* c) {
  si_sh r, d;
  int i;
  int64_t x;
  si_in(c, 3, &r);
  if (!si_with_rank_at_least(c, &r, 2, &r)) return 0;
  for (i = 0; i < 3; i++) {
    si_in(c, i, &d);
    if (!si_with_rank_at_least(c, &d, 2, &d)) return 0;
    if (d.rank < 0) continue;
    if (!si_merge_dim(c, d.d[d.rank - 2], 1, &x)) return 0;
    if (r.rank >= 0) {
      if (!si_merge_dim(c, d.d[d.rank - 1], r.d[r.rank - 2], &x)) return 0;
      r.d[r.rank - 2] = x;
    }
  }
  return si_set(c, 0, &r);
}

/* BandedTriangularSolve(matrix [..., K, M], rhs [..., M, N]): broadcast
 * batch dimensions + [M, N]. */
static int rule_banded_triangular_solve(si_ctx* c) {
  si_sh m, r, mb, rb, o;
  int64_t n;
  si_in(c, 0, &m);
  si_in(c, 1, &r);
  if (!si_with_rank_at_least(c, &m, 2, &m)) return 0;
  if (!si_with_rank_at_least(c, &r, 2, &r)) return 0;
  if (m.rank < 0 || r.rank < 0) return 1;
  if (!si_merge_dim(c, m.d[m.rank - 1], r.d[r.rank - 2], &n)) return 0;
  if (!si_subshape(c, &m, 0, -2, &mb)) return 0;
  if (!si_subshape(c, &r, 0, -2, &rb)) return 0;
  if (!si_broadcast(c, &mb, &rb, 1, &o)) return 0;
  si_append_dim(&o, n);
  si_append_dim(&o, r.d[r.rank - 1]);
  return si_set(c, 0, &o);
}

/* MatrixSquareRoot, MatrixLogarithm (input [..., M, M]) -> the same shape. */
static int rule_square(si_ctx* c) {
  si_sh in;
  int64_t m;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 2, &in)) return 0;
  if (in.rank >= 0) {
    if (!si_merge_dim(c, in.d[in.rank - 2], in.d[in.rank - 1], &m)) return 0;
    in.d[in.rank - 2] = in.d[in.rank - 1] = m;
  }
  return si_set(c, 0, &in);
}

const si_rule si_rules_linalg_extra[] = {
    {"TridiagonalSolve", rule_tridiagonal_solve},
    {"TridiagonalMatMul", rule_tridiagonal_matmul},
    {"BandedTriangularSolve", rule_banded_triangular_solve},
    {"MatrixSquareRoot", rule_square},
    {"MatrixLogarithm", rule_square},
    {NULL, NULL},
};
