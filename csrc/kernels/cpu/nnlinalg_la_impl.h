/* Dense linear-algebra routines, instantiated by nnlinalg_la.c for real
 * matrices (LA_T = double), complex ones (LA_T = double _Complex) and,
 * with LA_SUBSET defined (all but la_slogdet), float32 ones
 * (LA_T = float), so that float results carry the float rounding of TF's
 * (Eigen's) float arithmetic. LA_SUF names the instance, LA_ABS is the
 * modulus, LA_ABS2 the squared modulus, LA_CONJ the conjugate, LA_RE the
 * real part; LA_R is the real scalar type of the arithmetic, with LA_SQRT,
 * LA_FABS and LA_HYPOT working in it. Matrices are row-major n x n (or
 * n x m for right-hand sides) in LA_T. */

#define LA_CAT2(a, b) a##b
#define LA_CAT(a, b) LA_CAT2(a, b)
#define LA_FN(name) LA_CAT(name, LA_SUF)

/* In-place LU with partial pivoting (the pivot is the first entry of
 * largest modulus in the column, as Eigen's PartialPivLU). perm[i] is the
 * original row now at row i; returns the permutation's sign (+1/-1). */
static int LA_FN(la_lu)(LA_T* a, int64_t n, int64_t* perm) {
  int64_t i, j, c, p;
  int sign = 1;
  for (i = 0; i < n; i++) perm[i] = i;
  for (c = 0; c < n; c++) {
    double best = LA_ABS(a[c * n + c]);
    p = c;
    for (i = c + 1; i < n; i++) {
      double v = LA_ABS(a[i * n + c]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (p != c) {
      for (j = 0; j < n; j++) {
        LA_T t = a[c * n + j];
        a[c * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
      {
        int64_t t = perm[c];
        perm[c] = perm[p];
        perm[p] = t;
      }
      sign = -sign;
    }
    /* A zero pivot leaves the column as it is (Eigen skips the division
     * too, so the factors stay finite and the singularity shows on the
     * diagonal). */
    if (a[c * n + c] != 0) {
      for (i = c + 1; i < n; i++) {
        LA_T l = a[i * n + c] / a[c * n + c];
        a[i * n + c] = l;
        for (j = c + 1; j < n; j++) a[i * n + j] -= l * a[c * n + j];
      }
    }
  }
  return sign;
}

/* The smallest |U_ii| folded left to right with "take the new one when it
 * is smaller", which is how a NaN on the diagonal is (or is not) seen. */
static double LA_FN(la_min_pivot)(const LA_T* a, int64_t n) {
  double m;
  int64_t i;
  if (n == 0) return 1.0;
  m = LA_ABS(a[0]);
  for (i = 1; i < n; i++) {
    double v = LA_ABS(a[i * n + i]);
    if (v < m) m = v;
  }
  return m;
}

/* Solves (LU) X = P B for X in place of b (n x m), given la_lu's output,
 * in the order of Eigen's triangular solver on row-major right-hand
 * sides: each unknown starts from its right-hand side, has the products
 * with the unknowns already solved subtracted one at a time in ascending
 * index order, and (upper solve) is multiplied by the pivot's reciprocal. */
static void LA_FN(la_lu_solve)(const LA_T* lu, int64_t n, const int64_t* perm,
                               const LA_T* b, LA_T* x, int64_t m) {
  int64_t i, j, c;
  for (i = 0; i < n; i++) {
    for (c = 0; c < m; c++) x[i * m + c] = b[perm[i] * m + c];
  }
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      LA_T l = lu[i * n + j];
      for (c = 0; c < m; c++) x[i * m + c] -= x[j * m + c] * l;
    }
  }
  for (i = n - 1; i >= 0; i--) {
    LA_T r = (LA_T)1 / lu[i * n + i];
    for (j = i + 1; j < n; j++) {
      LA_T u = lu[i * n + j];
      for (c = 0; c < m; c++) x[i * m + c] -= x[j * m + c] * u;
    }
    for (c = 0; c < m; c++) x[i * m + c] *= r;
  }
}

/* Determinant of an LU-factored matrix: the permutation's sign times the
 * product of the pivots, multiplied left to right (Eigen's order). */
static LA_T LA_FN(la_det)(const LA_T* lu, int64_t n, int psign) {
  LA_T p = 1;
  int64_t i;
  for (i = 0; i < n; i++) p *= lu[i * n + i];
  return (LA_T)psign * p;
}

#ifndef LA_SUBSET
/* sign and log|det| of an LU-factored matrix (sign 0 and -inf when a
 * pivot is zero). */
static void LA_FN(la_slogdet)(const LA_T* lu, int64_t n, int psign,
                              LA_T* sign, double* logabs) {
  int64_t i;
  LA_T s = (LA_T)psign;
  double la = 0;
  for (i = 0; i < n; i++) {
    LA_T d = lu[i * n + i];
    double ad = LA_ABS(d);
    if (ad == 0) {
      *sign = 0;
      *logabs = -INFINITY;
      return;
    }
    la += log(ad);
    s *= d / ad;
  }
  *sign = s;
  *logabs = la;
}

#endif /* LA_SUBSET */

/* Cholesky of the lower triangle in place (row-major), in the order of
 * Eigen's unblocked LLT: the diagonal is a_kk minus the squared norm of
 * the row so far, each entry below it a_ik minus a dot product, then
 * divided by the new diagonal. The upper triangle is zeroed. Returns 0
 * when a diagonal value is not positive. */
static int LA_FN(la_cholesky)(LA_T* a, int64_t n) {
  int64_t i, j, k;
  for (k = 0; k < n; k++) {
    LA_R x = LA_RE(a[k * n + k]), sq = 0;
    for (j = 0; j < k; j++) sq += LA_ABS2(a[k * n + j]);
    if (k > 0) x -= sq;
    if (x <= 0) return 0;
    x = LA_SQRT(x);
    a[k * n + k] = x;
    for (i = k + 1; i < n; i++) {
      LA_T s = 0;
      for (j = 0; j < k; j++) s += a[i * n + j] * LA_CONJ(a[k * n + j]);
      if (k > 0) a[i * n + k] -= s;
    }
    for (i = k + 1; i < n; i++) a[i * n + k] /= x;
    for (i = k + 1; i < n; i++) a[k * n + i] = 0;
  }
  return 1;
}

/* Triangular solve op(T) X = B: lower/upper, op = adjoint or not; b is
 * n x m and is overwritten with X. In the order of Eigen's triangular
 * solver on row-major right-hand sides (TF's layout): each unknown has the
 * products with the unknowns already solved subtracted one at a time in
 * ascending index order, then is multiplied by the reciprocal of the
 * diagonal entry. A zero diagonal gives inf/NaN. */
static void LA_FN(la_trisolve)(const LA_T* t, int64_t n, int lower,
                               int adjoint, LA_T* b, int64_t m) {
  int64_t k, j, c;
  /* op(T) is lower triangular when lower != adjoint. */
  int eff_lower = lower != adjoint;
#define LA_TEL(r, q) (adjoint ? LA_CONJ(t[(q) * n + (r)]) : t[(r) * n + (q)])
  for (k = 0; k < n; k++) {
    int64_t i = eff_lower ? k : n - 1 - k;
    int64_t lo = eff_lower ? 0 : i + 1, hi = eff_lower ? i : n;
    LA_T r = (LA_T)1 / LA_TEL(i, i);
    for (j = lo; j < hi; j++) {
      LA_T v = LA_TEL(i, j);
      for (c = 0; c < m; c++) b[i * m + c] -= b[j * m + c] * v;
    }
    for (c = 0; c < m; c++) b[i * m + c] *= r;
  }
#undef LA_TEL
}

/* Householder QR of the m x n matrix a in place, as Eigen's HouseholderQR:
 * for column j the reflector keeps the leading entry's direction out of
 * R (R_jj = -sign(re a_jj) * norm), or is skipped (tau 0, R_jj = re a_jj)
 * when the column below the diagonal is negligible (squared norm <= tol,
 * the dtype's smallest normal). On return the upper triangle holds R, the
 * part below the diagonal the reflector vectors (implicit leading 1).
 * Sums run in Eigen's order (the squared norm of the tail, then
 * w = v^H B before the reflector's top row is added). */
static void LA_FN(la_qr)(LA_T* a, int64_t m, int64_t n, LA_T* tau,
                         double tol) {
  int64_t k = m < n ? m : n, j, i, c;
  for (j = 0; j < k; j++) {
    LA_T c0 = a[j * n + j], beta_t, t;
    LA_R tail = 0, beta, im0 = LA_ABS(c0 - (LA_T)LA_RE(c0));
    for (i = j + 1; i < m; i++) tail += LA_ABS2(a[i * n + j]);
    if (tail <= tol && im0 * im0 <= tol) {
      tau[j] = 0;
      a[j * n + j] = LA_RE(c0);
      for (i = j + 1; i < m; i++) a[i * n + j] = 0;
    } else {
      beta = LA_SQRT(LA_ABS2(c0) + tail);
      if (LA_RE(c0) >= 0) beta = -beta;
      beta_t = (LA_T)beta;
      for (i = j + 1; i < m; i++) a[i * n + j] /= (c0 - beta_t);
      tau[j] = LA_CONJ((beta_t - c0) / beta_t);
      a[j * n + j] = beta_t;
    }
    /* apply (I - tau v v^H) to the columns on the right */
    for (c = j + 1; c < n; c++) {
      if (j == m - 1) {
        a[j * n + c] *= (LA_T)1 - tau[j];
        continue;
      }
      t = 0;
      for (i = j + 1; i < m; i++) t += LA_CONJ(a[i * n + j]) * a[i * n + c];
      t += a[j * n + c];
      a[j * n + c] -= tau[j] * t;
      for (i = j + 1; i < m; i++) a[i * n + c] -= tau[j] * a[i * n + j] * t;
    }
  }
}

/* Q (m x kq, the first kq columns of H_0 H_1 ... H_{k-1}, where
 * H_j = I - conj(tau_j) v_j v_j^H) from la_qr's output. */
static void LA_FN(la_qr_q)(const LA_T* a, int64_t m, int64_t n,
                           const LA_T* tau, LA_T* q, int64_t kq) {
  int64_t k = m < n ? m : n, j, i, c;
  for (i = 0; i < m; i++) {
    for (c = 0; c < kq; c++) q[i * kq + c] = (i == c) ? 1 : 0;
  }
  for (j = k - 1; j >= 0; j--) {
    LA_T h = LA_CONJ(tau[j]);
    if (h == 0) continue;
    for (c = 0; c < kq; c++) {
      LA_T t = 0;
      if (j == m - 1) {
        q[j * kq + c] *= (LA_T)1 - h;
        continue;
      }
      for (i = j + 1; i < m; i++) t += LA_CONJ(a[i * n + j]) * q[i * kq + c];
      t += q[j * kq + c];
      q[j * kq + c] -= h * t;
      for (i = j + 1; i < m; i++) q[i * kq + c] -= h * a[i * n + j] * t;
    }
  }
}


/* Eigen-decomposition of the self-adjoint n x n matrix a (only its lower
 * triangle is read), following the steps of Eigen's
 * SelfAdjointEigenSolver so that eigenvector signs come out the same:
 * scale by the largest |entry|, Householder tridiagonalization, implicit
 * symmetric QR steps with Wilkinson shifts and Givens rotations, then a
 * selection sort into ascending order. eps and tiny are the epsilon and
 * smallest normal of the tensor's dtype (they decide when an off-diagonal
 * entry counts as zero, hence the path taken). evals gets n values; vecs
 * (when not NULL) the eigenvectors as columns. work holds 2 n LA_T and
 * dwork 2 n LA_R.
 * Returns 0 when the iteration does not converge. */
static int LA_FN(la_eigh)(LA_T* a, int64_t n, LA_R* evals, LA_T* vecs,
                          LA_T* work, LA_R* dwork, LA_R eps,
                          LA_R tiny) {
  LA_T* h = work;       /* n - 1 Householder coefficients */
  LA_T* t = work + n;   /* n scratch */
  LA_R* d = evals;
  LA_R* e = dwork;    /* n - 1 subdiagonal */
  LA_R scale = 0;
  int64_t i, j, r, c, end, start, iter = 0;
#define LA_A(y, x) a[(y) * n + (x)]
  if (n == 1) {
    evals[0] = LA_RE(a[0]);
    if (vecs != NULL) vecs[0] = 1;
    return 1;
  }
  for (r = 0; r < n; r++) {
    for (c = 0; c <= r; c++) {
      LA_R v = LA_ABS(LA_A(r, c));
      /* a NaN or inf scale turns every entry into NaN: no convergence */
      if (!isfinite(v)) return 0;
      if (v > scale) scale = v;
    }
  }
  if (scale == 0) scale = 1;
  for (r = 0; r < n; r++) {
    for (c = 0; c <= r; c++) LA_A(r, c) /= scale;
    for (c = r + 1; c < n; c++) LA_A(r, c) = 0;
  }
  /* tridiagonalization; the lower triangle of the trailing block is the
   * live part, column i below the diagonal stores the reflector */
  for (i = 0; i < n - 1; i++) {
    int64_t L = n - i - 1;
    LA_T c0 = LA_A(i + 1, i), hh, dot = 0;
    LA_R tail = 0, beta, im0 = LA_ABS(c0 - (LA_T)LA_RE(c0));
    for (r = i + 2; r < n; r++) {
      LA_R v = LA_ABS(LA_A(r, i));
      tail += v * v;
    }
    if (tail <= tiny && im0 * im0 <= tiny) {
      hh = 0;
      beta = LA_RE(c0);
      for (r = i + 2; r < n; r++) LA_A(r, i) = 0;
    } else {
      LA_R a0 = LA_ABS(c0);
      beta = LA_SQRT(a0 * a0 + tail);
      if (LA_RE(c0) >= 0) beta = -beta;
      for (r = i + 2; r < n; r++) LA_A(r, i) /= (c0 - (LA_T)beta);
      hh = LA_CONJ(((LA_T)beta - c0) / (LA_T)beta);
    }
    LA_A(i + 1, i) = 1;
    /* t = B * (conj(hh) v), B the self-adjoint trailing block */
    for (r = 0; r < L; r++) {
      LA_T s = 0;
      for (c = 0; c < L; c++) {
        int64_t R = i + 1 + r, C = i + 1 + c;
        LA_T b = R >= C ? LA_A(R, C) : LA_CONJ(LA_A(C, R));
        s += b * (LA_CONJ(hh) * LA_A(i + 1 + c, i));
      }
      t[r] = s;
    }
    for (r = 0; r < L; r++) dot += LA_CONJ(t[r]) * LA_A(i + 1 + r, i);
    for (r = 0; r < L; r++) {
      t[r] += (LA_CONJ(hh) * (LA_R)-0.5 * dot) * LA_A(i + 1 + r, i);
    }
    /* B -= v t^H + t v^H (lower triangle) */
    for (r = 0; r < L; r++) {
      for (c = 0; c <= r; c++) {
        LA_T vr = LA_A(i + 1 + r, i), vc = LA_A(i + 1 + c, i);
        LA_A(i + 1 + r, i + 1 + c) -= vr * LA_CONJ(t[c]) + t[r] * LA_CONJ(vc);
      }
    }
    LA_A(i + 1, i) = beta;
    h[i] = hh;
  }
  for (i = 0; i < n; i++) d[i] = LA_RE(LA_A(i, i));
  for (i = 0; i < n - 1; i++) e[i] = LA_RE(LA_A(i + 1, i));
  if (vecs != NULL) {
    /* Q = H_0 ... H_{n-2}, H_j = I - conj(h_j) v_j v_j^H, v_j starting at
     * row j + 1 with a leading 1 */
    for (r = 0; r < n; r++) {
      for (c = 0; c < n; c++) vecs[r * n + c] = r == c ? 1 : 0;
    }
    for (j = n - 2; j >= 0; j--) {
      LA_T hj = LA_CONJ(h[j]);
      if (hj == 0) continue;
      for (c = 0; c < n; c++) {
        LA_T s = vecs[(j + 1) * n + c];
        for (r = j + 2; r < n; r++) s += LA_CONJ(LA_A(r, j)) * vecs[r * n + c];
        vecs[(j + 1) * n + c] -= hj * s;
        for (r = j + 2; r < n; r++) vecs[r * n + c] -= hj * LA_A(r, j) * s;
      }
    }
  }
#undef LA_A
  /* implicit QR on the tridiagonal (d, e) */
  end = n - 1;
  start = 0;
  while (end > 0) {
    for (i = start; i < end; i++) {
      if (LA_FABS(e[i]) < tiny) {
        e[i] = 0;
      } else {
        LA_R sc = e[i] / eps;
        if (sc * sc <= LA_FABS(d[i]) + LA_FABS(d[i + 1])) e[i] = 0;
      }
    }
    while (end > 0 && e[end - 1] == 0) end--;
    if (end <= 0) break;
    iter++;
    if (iter > 30 * n) return 0;
    start = end - 1;
    while (start > 0 && e[start - 1] != 0) start--;
    {
      LA_R td = (d[end - 1] - d[end]) * (LA_R)0.5, ee = e[end - 1], mu = d[end];
      LA_R x, z;
      int64_t k;
      if (td == 0) {
        mu -= LA_FABS(ee);
      } else if (ee != 0) {
        LA_R e2 = ee * ee, hy = LA_HYPOT(td, ee);
        if (e2 == 0) {
          mu -= ee / ((td + (td > 0 ? hy : -hy)) / ee);
        } else {
          mu -= e2 / (td + (td > 0 ? hy : -hy));
        }
      }
      x = d[start] - mu;
      z = e[start];
      for (k = start; k < end && z != 0; k++) {
        LA_R cs, sn, sdk, dkp1;
        /* Givens rotation for (x, z) */
        if (z == 0) {
          cs = x < 0 ? -1 : 1;
          sn = 0;
        } else if (x == 0) {
          cs = 0;
          sn = z < 0 ? 1 : -1;
        } else if (LA_FABS(x) > LA_FABS(z)) {
          LA_R tt = z / x, u = LA_SQRT(1 + tt * tt);
          if (x < 0) u = -u;
          cs = 1 / u;
          sn = -tt * cs;
        } else {
          LA_R tt = x / z, u = LA_SQRT(1 + tt * tt);
          if (z < 0) u = -u;
          sn = -1 / u;
          cs = -tt * sn;
        }
        sdk = sn * d[k] + cs * e[k];
        dkp1 = sn * e[k] + cs * d[k + 1];
        d[k] = cs * (cs * d[k] - sn * e[k]) - sn * (cs * e[k] - sn * d[k + 1]);
        d[k + 1] = sn * sdk + cs * dkp1;
        e[k] = cs * sdk - sn * dkp1;
        if (k > start) e[k - 1] = cs * e[k - 1] - sn * z;
        x = e[k];
        if (k < end - 1) {
          z = -sn * e[k + 1];
          e[k + 1] = cs * e[k + 1];
        }
        if (vecs != NULL) {
          for (r = 0; r < n; r++) {
            LA_T p0 = vecs[r * n + k], p1 = vecs[r * n + k + 1];
            vecs[r * n + k] = cs * p0 - sn * p1;
            vecs[r * n + k + 1] = sn * p0 + cs * p1;
          }
        }
      }
    }
  }
  /* ascending order by selection (first minimum wins) */
  for (i = 0; i < n - 1; i++) {
    int64_t kmin = i;
    for (j = i + 1; j < n; j++) {
      if (d[j] < d[kmin]) kmin = j;
    }
    if (kmin != i) {
      LA_R tv = d[i];
      d[i] = d[kmin];
      d[kmin] = tv;
      if (vecs != NULL) {
        for (r = 0; r < n; r++) {
          LA_T tq = vecs[r * n + i];
          vecs[r * n + i] = vecs[r * n + kmin];
          vecs[r * n + kmin] = tq;
        }
      }
    }
  }
  for (i = 0; i < n; i++) d[i] *= scale;
  return 1;
}

#undef LA_FN
#undef LA_CAT
#undef LA_CAT2
