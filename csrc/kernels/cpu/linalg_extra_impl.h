/* Per-dtype routines of linalg_extra_kernels.c, included once per element
 * type: LX_T is the element type (float, double, float _Complex, double
 * _Complex), LX_SUF names the instance, LX_ABS is the modulus (as LX_R),
 * LX_R the real type, LX_CONJ the conjugate. Everything is computed in
 * LX_T itself, as TF's kernels compute in the tensor's own type.
 * Matrices are row-major. */

#define LX_CAT2(a, b) a##b
#define LX_CAT(a, b) LX_CAT2(a, b)
#define LX_FN(name) LX_CAT(name, LX_SUF)

/* Tridiagonal solve of one system. sup, dia, sub hold the three
 * diagonals (n each; sup[n-1] and sub[0] are ignored), rhs is n x m, x
 * (n x m) receives the solution, u is 3 n scratch. With pivoting:
 * Gaussian elimination with partial (row) pivoting in the order of
 * LAPACK's gtsv; a zero pivot gives NaNs, or with perturb is replaced by
 * `pert` (signed as the zero). Without pivoting: the Thomas algorithm (NaNs on a zero
 * pivot). */
static void LX_FN(lx_tridiag_solve)(const LX_T* sup, const LX_T* dia,
                                    const LX_T* sub, const LX_T* rhs,
                                    LX_T* x, LX_T* u, int64_t n, int64_t m,
                                    int pivoting, int perturb, LX_R pert) {
  int64_t i, c;
  const LX_T zero = 0;
/* a zero pivot becomes `pert` with the zero's sign (of its real part) */
#define LX_PERT(z) ((LX_T)(signbit(creal(z)) ? -pert : pert))
#define LX_U(r, k) u[(r) * 3 + (k)]
#define LX_X(r, k) x[(r) * m + (k)]
#define LX_B(r, k) rhs[(r) * m + (k)]
  if (n == 0) return;
  if (!pivoting) {
    LX_T* v = u;
    if (dia[0] == zero) goto singular;
    v[0] = sup[0] / dia[0];
    for (c = 0; c < m; c++) LX_X(0, c) = LX_B(0, c) / dia[0];
    for (i = 1; i < n; i++) {
      LX_T den = dia[i] - sub[i] * v[i - 1];
      if (den == zero) goto singular;
      v[i] = sup[i] / den;
      for (c = 0; c < m; c++) {
        LX_X(i, c) = (LX_B(i, c) - sub[i] * LX_X(i - 1, c)) / den;
      }
    }
    for (i = n - 2; i >= 0; i--) {
      for (c = 0; c < m; c++) LX_X(i, c) -= v[i] * LX_X(i + 1, c);
    }
    return;
  }
  if (n == 1) {
    LX_T d = dia[0];
    if (d == zero) {
      if (!perturb) goto singular;
      d = LX_PERT(d);
    }
    for (c = 0; c < m; c++) LX_X(0, c) = LX_B(0, c) / d;
    return;
  }
  LX_U(0, 0) = dia[0];
  LX_U(0, 1) = sup[0];
  LX_U(0, 2) = 0;
  for (c = 0; c < m; c++) LX_X(0, c) = LX_B(0, c);
  for (i = 0; i < n - 1; i++) {
    LX_U(i + 1, 2) = 0;
    if (LX_ABS(LX_U(i, 0)) >= LX_ABS(sub[i + 1])) {
      /* no row interchange */
      LX_T f;
      if (LX_U(i, 0) == zero) {
        if (!perturb) goto singular;
        LX_U(i, 0) = LX_PERT(LX_U(i, 0));
      }
      f = sub[i + 1] / LX_U(i, 0);
      LX_U(i + 1, 0) = dia[i + 1] - f * LX_U(i, 1);
      for (c = 0; c < m; c++) LX_X(i + 1, c) = LX_B(i + 1, c) - f * LX_X(i, c);
      if (i != n - 2) {
        LX_U(i + 1, 1) = sup[i + 1];
        LX_U(i, 2) = 0;
      }
    } else {
      /* interchange rows i and i + 1 */
      LX_T f = LX_U(i, 0) / sub[i + 1];
      LX_U(i, 0) = sub[i + 1];
      LX_U(i + 1, 0) = LX_U(i, 1) - f * dia[i + 1];
      LX_U(i, 1) = dia[i + 1];
      for (c = 0; c < m; c++) {
        LX_X(i + 1, c) = LX_X(i, c) - f * LX_B(i + 1, c);
        LX_X(i, c) = LX_B(i + 1, c);
      }
      if (i != n - 2) {
        LX_U(i, 2) = sup[i + 1];
        LX_U(i + 1, 1) = -f * sup[i + 1];
      }
    }
  }
  if (LX_U(n - 1, 0) == zero) {
    if (!perturb) goto singular;
    LX_U(n - 1, 0) = LX_PERT(LX_U(n - 1, 0));
  }
  for (c = 0; c < m; c++) LX_X(n - 1, c) /= LX_U(n - 1, 0);
  for (c = 0; c < m; c++) {
    LX_X(n - 2, c) =
        (LX_X(n - 2, c) - LX_U(n - 2, 1) * LX_X(n - 1, c)) / LX_U(n - 2, 0);
  }
  for (i = n - 3; i >= 0; i--) {
    for (c = 0; c < m; c++) {
      LX_X(i, c) = (LX_X(i, c) - LX_U(i, 1) * LX_X(i + 1, c) -
                    LX_U(i, 2) * LX_X(i + 2, c)) /
                   LX_U(i, 0);
    }
  }
  return;
singular:
  for (i = 0; i < n * m; i++) x[i] = (LX_T)NAN;
#undef LX_PERT
#undef LX_U
#undef LX_X
#undef LX_B
}

/* One tridiagonal product: out (n x m) = T rhs. */
static void LX_FN(lx_tridiag_matmul)(const LX_T* sup, const LX_T* dia,
                                     const LX_T* sub, const LX_T* rhs,
                                     LX_T* out, int64_t n, int64_t m) {
  int64_t i, c;
  for (i = 0; i < n; i++) {
    for (c = 0; c < m; c++) {
      /* sub, main, super: the order TF's float sums come out in */
      LX_T v = dia[i] * rhs[i * m + c];
      if (i > 0) v = sub[i] * rhs[(i - 1) * m + c] + v;
      if (i + 1 < n) v += sup[i] * rhs[(i + 1) * m + c];
      out[i * m + c] = v;
    }
  }
}

/* Banded triangular solve of one system: band is k x n (LEFT_RIGHT
 * alignment: for lower, row j holds subdiagonal j with j leading pads;
 * for upper, row k-1-j holds superdiagonal j with j trailing pads), b
 * (n x m) is overwritten with X. Each unknown is (rhs - dot product with
 * the solved ones, ascending) divided by the diagonal; with adjoint the
 * products are subtracted from the rhs one at a time instead. */
static void LX_FN(lx_banded_solve)(const LX_T* band, int64_t k, int64_t n,
                                   int lower, int adjoint, LX_T* b,
                                   int64_t m) {
  int64_t s, i, j, c;
  /* A[r][q] for |r - q| < k inside the stored triangle */
#define LX_A(r, q)                                                      \
  (lower ? band[((r) - (q)) * n + (r)] : band[(k - 1 - ((q) - (r))) * n + (r)])
#define LX_OP(r, q) (adjoint ? LX_CONJ(LX_A(q, r)) : LX_A(r, q))
  int eff_lower = lower != adjoint;
  for (s = 0; s < n; s++) {
    int64_t lo, hi;
    i = eff_lower ? s : n - 1 - s;
    lo = eff_lower ? (i - (k - 1) > 0 ? i - (k - 1) : 0) : i + 1;
    hi = eff_lower ? i : (i + k < n ? i + k : n);
    for (c = 0; c < m; c++) {
      if (!adjoint) {
        LX_T acc = 0;
        for (j = lo; j < hi; j++) {
          if (j == lo) acc = LX_OP(i, j) * b[j * m + c];
          else acc += LX_OP(i, j) * b[j * m + c];
        }
        b[i * m + c] = (b[i * m + c] - acc) / LX_OP(i, i);
      } else {
        /* adjoint: the solved unknowns are subtracted one at a time */
        for (j = lo; j < hi; j++) b[i * m + c] -= LX_OP(i, j) * b[j * m + c];
        b[i * m + c] /= LX_OP(i, i);
      }
    }
  }
#undef LX_A
#undef LX_OP
}

#undef LX_FN
#undef LX_CAT
#undef LX_CAT2
