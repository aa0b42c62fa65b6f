/* CPU kernels: linear-algebra ops of tf.linalg not in the older groups.
 *
 * TridiagonalSolve (diagonals [..., 3, M], rhs [..., M, K]; Gaussian
 * elimination with partial pivoting as LAPACK's gtsv, optionally
 * perturbing zero pivots to eps * max|diagonals| (the smallest normal when
 * that is 0), or the Thomas algorithm without pivoting; a singular system
 * gives NaNs, as TF's CPU kernel), TridiagonalMatMul (superdiag, maindiag,
 * subdiag [..., 1, M], rhs [..., M, N]) and BandedTriangularSolve (bands
 * [..., K, M] in LEFT_RIGHT alignment, rhs [..., M, N], batch dimensions
 * broadcast; a zero on the diagonal is "Input matrix is not invertible.").
 * float, double, complex64 and complex128 (BandedTriangularSolve also
 * half, computed in float); every value is computed in the tensor's own
 * type, as TF's kernels do. MatrixSquareRoot and MatrixLogarithm work
 * in double complex on a complex Schur form (A = U T U^H): the triangular
 * square-root recurrence, and for the logarithm inverse scaling and
 * squaring with an 8-point Gauss-Legendre (Pade) approximant of
 * log(I + X); their results agree with TF's to the dtype's precision but
 * not always to the last bit. Errors and messages follow TF 2.21. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/complex_compat.h"
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_linalg_extra_kernels(void);

typedef float _Complex lx_cf;
typedef double _Complex lx_cd;

#define LX_T float
#define LX_R float
#define LX_SUF _f
#define LX_ABS(x) fabsf(x)
#define LX_CONJ(x) (x)
#include "kernels/cpu/linalg_extra_impl.h"
#undef LX_T
#undef LX_R
#undef LX_SUF
#undef LX_ABS
#undef LX_CONJ

#define LX_T double
#define LX_R double
#define LX_SUF _d
#define LX_ABS(x) fabs(x)
#define LX_CONJ(x) (x)
#include "kernels/cpu/linalg_extra_impl.h"
#undef LX_T
#undef LX_R
#undef LX_SUF
#undef LX_ABS
#undef LX_CONJ

#define LX_T lx_cf
#define LX_R float
#define LX_SUF _cf
#define LX_ABS(x) cabsf(x)
#define LX_CONJ(x) conjf(x)
#include "kernels/cpu/linalg_extra_impl.h"
#undef LX_T
#undef LX_R
#undef LX_SUF
#undef LX_ABS
#undef LX_CONJ

#define LX_T lx_cd
#define LX_R double
#define LX_SUF _cd
#define LX_ABS(x) cabs(x)
#define LX_CONJ(x) conj(x)
#include "kernels/cpu/linalg_extra_impl.h"
#undef LX_T
#undef LX_R
#undef LX_SUF
#undef LX_ABS
#undef LX_CONJ

/* Rank limit of the broadcast output of BandedTriangularSolve. */
#define LX_MAX_DIMS 32

static void lx_oom(tfe_kernel_context* k, const char* op) {
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", op);
}

/* TF's LinearAlgebraOp input checks: every input of rank >= 2, all of the
 * same rank and the same outer dimensions. Returns the batch count or
 * -1 after failing. */
static int64_t lx_same_batch(tfe_kernel_context* k, int nin) {
  int i, j, r = k->inputs[0]->num_dims;
  int64_t batch = 1;
  for (i = 0; i < nin; i++) {
    int ri = k->inputs[i]->num_dims;
    if (ri < 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input tensor %d must have rank >= 2, got %d", i, ri);
      return -1;
    }
    if (ri != r) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "All input tensors must have the same rank.");
      return -1;
    }
  }
  for (j = 0; j < r - 2; j++) {
    for (i = 1; i < nin; i++) {
      if (k->inputs[i]->dims[j] != k->inputs[0]->dims[j]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "All input tensors must have the same outer dimensions.");
        return -1;
      }
    }
    batch *= k->inputs[0]->dims[j];
  }
  return batch;
}

/* ---- TridiagonalSolve ---- */

static void tridiag_solve_compute(tfe_kernel_context* k) {
  const TF_Tensor *dg = k->inputs[0], *rhs = k->inputs[1];
  int piv = kutil_attr_bool(k, "partial_pivoting", 1);
  int pert = kutil_attr_bool(k, "perturb_singular", 0);
  int64_t batch = lx_same_batch(k, 2), b, n, m, i;
  int r;
  size_t es = kutil_esize(dg->dtype);
  TF_Tensor* out;
  void* u;
  if (batch < 0) return;
  r = dg->num_dims;
  if (dg->dims[r - 2] != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected diagonals to be provided as a matrix with 3 rows, "
               "got %lld rows.",
               (long long)dg->dims[r - 2]);
    return;
  }
  n = dg->dims[r - 1];
  if (rhs->dims[r - 2] != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected the same number of left-hand sides and right-hand "
               "sides, got %lld and %lld.",
               (long long)n, (long long)rhs->dims[r - 2]);
    return;
  }
  m = rhs->dims[r - 1];
  out = tfe_kernel_alloc_output(k, 0, rhs->dtype, rhs->dims, r);
  if (out == NULL || batch == 0 || n == 0 || m == 0) return;
  u = tfe_malloc((size_t)(3 * n) * es);
  if (u == NULL) {
    lx_oom(k, "TridiagonalSolve");
    return;
  }
  for (b = 0; b < batch; b++) {
    const char* d0 = (const char*)kutil_data(dg) + (size_t)(b * 3 * n) * es;
    const char* r0 = (const char*)kutil_data(rhs) + (size_t)(b * n * m) * es;
    char* x0 = (char*)kutil_data(out) + (size_t)(b * n * m) * es;
    double mx = 0;
    /* the perturbation: eps times the largest modulus among the
     * diagonals, the smallest normal when that is 0 */
    if (pert) {
      for (i = 0; i < 3 * n; i++) {
        double v;
        switch (dg->dtype) {
          case TF_FLOAT: v = fabsf(((const float*)d0)[i]); break;
          case TF_DOUBLE: v = fabs(((const double*)d0)[i]); break;
          case TF_COMPLEX64: v = cabsf(((const lx_cf*)d0)[i]); break;
          default: v = cabs(((const lx_cd*)d0)[i]); break;
        }
        if (v > mx || isnan(v)) mx = v;
      }
    }
    switch (dg->dtype) {
      case TF_FLOAT: {
        const float* d = (const float*)d0;
        float p = FLT_EPSILON * (float)mx;
        if (!(p >= FLT_MIN)) p = FLT_MIN;
        lx_tridiag_solve_f(d, d + n, d + 2 * n, (const float*)r0, (float*)x0,
                           (float*)u, n, m, piv, pert, p);
        break;
      }
      case TF_DOUBLE: {
        const double* d = (const double*)d0;
        double p = DBL_EPSILON * mx;
        if (!(p >= DBL_MIN)) p = DBL_MIN;
        lx_tridiag_solve_d(d, d + n, d + 2 * n, (const double*)r0,
                           (double*)x0, (double*)u, n, m, piv, pert, p);
        break;
      }
      case TF_COMPLEX64: {
        const lx_cf* d = (const lx_cf*)d0;
        float p = FLT_EPSILON * (float)mx;
        if (!(p >= FLT_MIN)) p = FLT_MIN;
        lx_tridiag_solve_cf(d, d + n, d + 2 * n, (const lx_cf*)r0,
                            (lx_cf*)x0, (lx_cf*)u, n, m, piv, pert, p);
        break;
      }
      default: {
        const lx_cd* d = (const lx_cd*)d0;
        double p = DBL_EPSILON * mx;
        if (!(p >= DBL_MIN)) p = DBL_MIN;
        lx_tridiag_solve_cd(d, d + n, d + 2 * n, (const lx_cd*)r0,
                            (lx_cd*)x0, (lx_cd*)u, n, m, piv, pert, p);
        break;
      }
    }
  }
  tfe_free(u);
}

/* ---- TridiagonalMatMul ---- */

static void tridiag_matmul_compute(tfe_kernel_context* k) {
  const TF_Tensor* rhs = k->inputs[3];
  static const char* const kWhat[3] = {"superdiagonal", "main diagonal",
                                       "subdiagonal"};
  int64_t batch = lx_same_batch(k, 4), b, n, m;
  int r, i;
  size_t es = kutil_esize(rhs->dtype);
  TF_Tensor* out;
  if (batch < 0) return;
  r = rhs->num_dims;
  n = rhs->dims[r - 2];
  m = rhs->dims[r - 1];
  for (i = 0; i < 3; i++) {
    const TF_Tensor* d = k->inputs[i];
    if (d->dims[r - 2] != 1 || d->dims[r - 1] != n) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid %s shape.", kWhat[i]);
      return;
    }
  }
  out = tfe_kernel_alloc_output(k, 0, rhs->dtype, rhs->dims, r);
  if (out == NULL || batch == 0 || n == 0 || m == 0) return;
  for (b = 0; b < batch; b++) {
    size_t dof = (size_t)(b * n) * es, rof = (size_t)(b * n * m) * es;
    const char* sp = (const char*)kutil_data(k->inputs[0]) + dof;
    const char* dp = (const char*)kutil_data(k->inputs[1]) + dof;
    const char* bp = (const char*)kutil_data(k->inputs[2]) + dof;
    const char* rp = (const char*)kutil_data(rhs) + rof;
    char* op = (char*)kutil_data(out) + rof;
    switch (rhs->dtype) {
      case TF_FLOAT:
        lx_tridiag_matmul_f((const float*)sp, (const float*)dp,
                            (const float*)bp, (const float*)rp, (float*)op, n,
                            m);
        break;
      case TF_DOUBLE:
        lx_tridiag_matmul_d((const double*)sp, (const double*)dp,
                            (const double*)bp, (const double*)rp, (double*)op,
                            n, m);
        break;
      case TF_COMPLEX64:
        lx_tridiag_matmul_cf((const lx_cf*)sp, (const lx_cf*)dp,
                             (const lx_cf*)bp, (const lx_cf*)rp, (lx_cf*)op,
                             n, m);
        break;
      default:
        lx_tridiag_matmul_cd((const lx_cd*)sp, (const lx_cd*)dp,
                             (const lx_cd*)bp, (const lx_cd*)rp, (lx_cd*)op,
                             n, m);
        break;
    }
  }
}

/* ---- BandedTriangularSolve ---- */

/* Loads n elements of t from element off as float (half/float) or as the
 * tensor's own type. */
static void lx_load(const TF_Tensor* t, int64_t off, int64_t n, void* dst) {
  if (t->dtype == TF_HALF) {
    const uint16_t* s = (const uint16_t*)kutil_data(t) + off;
    int64_t i;
    for (i = 0; i < n; i++) ((float*)dst)[i] = kutil_f16_to_f32(s[i]);
  } else {
    size_t es = kutil_esize(t->dtype);
    memcpy(dst, (const char*)kutil_data(t) + (size_t)off * es,
           (size_t)n * es);
  }
}

static void lx_store(TF_Tensor* t, int64_t off, int64_t n, const void* src) {
  if (t->dtype == TF_HALF) {
    uint16_t* d = (uint16_t*)kutil_data(t) + off;
    int64_t i;
    for (i = 0; i < n; i++) d[i] = kutil_f32_to_f16(((const float*)src)[i]);
  } else {
    size_t es = kutil_esize(t->dtype);
    memcpy((char*)kutil_data(t) + (size_t)off * es, src, (size_t)n * es);
  }
}

static int lx_diag_zero(const void* band, TF_DataType dt, int64_t kb,
                        int64_t n, int lower) {
  int64_t row = lower ? 0 : kb - 1, i;
  for (i = 0; i < n; i++) {
    int64_t at = row * n + i;
    int z;
    switch (dt) {
      case TF_DOUBLE: z = ((const double*)band)[at] == 0; break;
      case TF_COMPLEX64: z = ((const lx_cf*)band)[at] == 0; break;
      case TF_COMPLEX128: z = ((const lx_cd*)band)[at] == 0; break;
      default: z = ((const float*)band)[at] == 0; break;
    }
    if (z) return 1;
  }
  return 0;
}

static void banded_solve_compute(tfe_kernel_context* k) {
  const TF_Tensor *mat = k->inputs[0], *rhs = k->inputs[1];
  int lower = kutil_attr_bool(k, "lower", 1);
  int adj = kutil_attr_bool(k, "adjoint", 0);
  int rm = mat->num_dims, rr = rhs->num_dims, rb, i;
  int64_t od[LX_MAX_DIMS], kb, n, m, batch = 1, b;
  size_t ws = mat->dtype == TF_HALF ? sizeof(float) : kutil_esize(mat->dtype);
  TF_DataType wt = mat->dtype == TF_HALF ? TF_FLOAT : mat->dtype;
  TF_Tensor* out;
  void *a = NULL, *x = NULL;
  kutil_shape_buf s1, s2;
  if (rm < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "In[0] ndims must be >= 2: %d", rm);
    return;
  }
  if (rr < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "In[1] ndims must be >= 2: %d", rr);
    return;
  }
  rb = (rm > rr ? rm : rr) - 2;
  if (rb + 2 > LX_MAX_DIMS) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "BandedTriangularSolve supports at most %d dimensions",
               LX_MAX_DIMS);
    return;
  }
  for (i = 0; i < rb; i++) {
    int im = rm - 2 - rb + i, ir = rr - 2 - rb + i;
    int64_t dm = im >= 0 ? mat->dims[im] : 1;
    int64_t dr = ir >= 0 ? rhs->dims[ir] : 1;
    if (dm != dr && dm != 1 && dr != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "In[0] and In[1] must have compatible batch dimensions: %s "
                 "vs. %s",
                 kutil_tshape(mat, &s1), kutil_tshape(rhs, &s2));
      return;
    }
    od[i] = dm == 1 ? dr : dm;
    batch *= od[i];
  }
  kb = mat->dims[rm - 2];
  n = mat->dims[rm - 1];
  if (rhs->dims[rr - 2] != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "In[0] mismatch In[1] shape: %lld vs. %lld: %s %s %d %d",
               (long long)n, (long long)rhs->dims[rr - 2],
               kutil_tshape(mat, &s1), kutil_tshape(rhs, &s2), lower, adj);
    return;
  }
  m = rhs->dims[rr - 1];
  od[rb] = n;
  od[rb + 1] = m;
  out = tfe_kernel_alloc_output(k, 0, mat->dtype, od, rb + 2);
  if (out == NULL || batch == 0 || n == 0 || m == 0) return;
  if (kb == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input matrix is not invertible.");
    return;
  }
  a = tfe_malloc((size_t)(kb * n) * ws);
  x = tfe_malloc((size_t)(n * m) * ws);
  if (a == NULL || x == NULL) {
    lx_oom(k, "BandedTriangularSolve");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    /* the broadcast batch index as each input's own batch index */
    int64_t rem = b, im = 0, ir = 0, sm = 1, sr = 1, kk;
    for (i = rb - 1; i >= 0; i--) {
      int jm = rm - 2 - rb + i, jr = rr - 2 - rb + i;
      int64_t dm = jm >= 0 ? mat->dims[jm] : 1;
      int64_t dr = jr >= 0 ? rhs->dims[jr] : 1;
      int64_t c = rem % od[i];
      rem /= od[i];
      im += (dm == 1 ? 0 : c) * sm;
      ir += (dr == 1 ? 0 : c) * sr;
      sm *= dm;
      sr *= dr;
    }
    lx_load(mat, im * kb * n, kb * n, a);
    lx_load(rhs, ir * n * m, n * m, x);
    /* bands beyond the matrix size are never read */
    kk = kb < n ? kb : n;
    if (lx_diag_zero(a, wt, kb, n, lower)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input matrix is not invertible.");
      goto done;
    }
    /* for upper, row kb-1 is the diagonal: skip the unused top rows */
    switch (wt) {
      case TF_DOUBLE:
        lx_banded_solve_d((const double*)a + (lower ? 0 : (kb - kk) * n), kk,
                          n, lower, adj, (double*)x, m);
        break;
      case TF_COMPLEX64:
        lx_banded_solve_cf((const lx_cf*)a + (lower ? 0 : (kb - kk) * n), kk,
                           n, lower, adj, (lx_cf*)x, m);
        break;
      case TF_COMPLEX128:
        lx_banded_solve_cd((const lx_cd*)a + (lower ? 0 : (kb - kk) * n), kk,
                           n, lower, adj, (lx_cd*)x, m);
        break;
      default:
        lx_banded_solve_f((const float*)a + (lower ? 0 : (kb - kk) * n), kk,
                          n, lower, adj, (float*)x, m);
        break;
    }
    lx_store(out, b * n * m, n * m, x);
  }
done:
  tfe_free(a);
  tfe_free(x);
}

/* ---- MatrixSquareRoot ---- */

/* Complex Schur decomposition A = U T U^H of the n x n row-major matrix a
 * (overwritten with T, upper triangular; u gets U): Householder reduction
 * to Hessenberg form, then single-shift QR steps (Wilkinson shifts, an
 * exceptional shift every 10 stalled steps) with Givens rotations. w is n
 * scratch. Returns 0 when the iteration does not converge. */
static int lx_schur(lx_cd* a, lx_cd* u, lx_cd* w, int64_t n) {
  int64_t i, j, r, c, iu, il, iter = 0, total = 0;
#define LX_H(y, x) a[(y) * n + (x)]
#define LX_Q(y, x) u[(y) * n + (x)]
  for (r = 0; r < n; r++) {
    for (c = 0; c < n; c++) LX_Q(r, c) = r == c ? 1 : 0;
  }
  /* Hessenberg: reflector for column j below the subdiagonal */
  for (j = 0; j + 2 < n; j++) {
    double nrm = 0, alpha;
    lx_cd x0 = LX_H(j + 1, j), beta, tau;
    for (r = j + 1; r < n; r++) nrm += creal(LX_H(r, j) * conj(LX_H(r, j)));
    nrm = sqrt(nrm);
    if (nrm == 0) continue;
    alpha = cabs(x0);
    beta = alpha == 0 ? -nrm : -(x0 / alpha) * nrm;
    /* v = x - beta e1, H = I - tau v v^H with tau = 2 / |v|^2 */
    for (r = 0; r < n; r++) w[r] = 0;
    for (r = j + 1; r < n; r++) w[r] = LX_H(r, j);
    w[j + 1] -= beta;
    {
      double vn = 0;
      for (r = j + 1; r < n; r++) vn += creal(w[r] * conj(w[r]));
      if (vn == 0) continue;
      tau = 2.0 / vn;
    }
    /* A = H A */
    for (c = 0; c < n; c++) {
      lx_cd t = 0;
      for (r = j + 1; r < n; r++) t += conj(w[r]) * LX_H(r, c);
      t *= tau;
      for (r = j + 1; r < n; r++) LX_H(r, c) -= w[r] * t;
    }
    /* A = A H, U = U H */
    for (r = 0; r < n; r++) {
      lx_cd t = 0, q = 0;
      for (c = j + 1; c < n; c++) {
        t += LX_H(r, c) * w[c];
        q += LX_Q(r, c) * w[c];
      }
      t *= tau;
      q *= tau;
      for (c = j + 1; c < n; c++) {
        LX_H(r, c) -= t * conj(w[c]);
        LX_Q(r, c) -= q * conj(w[c]);
      }
    }
    for (r = j + 2; r < n; r++) LX_H(r, j) = 0;
  }
  /* QR iteration on the active window [il, iu] */
  iu = n - 1;
  while (iu > 0) {
    il = iu;
    while (il > 0) {
      double s = cabs(LX_H(il - 1, il - 1)) + cabs(LX_H(il, il));
      if (cabs(LX_H(il, il - 1)) <= DBL_EPSILON * s ||
          cabs(LX_H(il, il - 1)) < DBL_MIN) {
        LX_H(il, il - 1) = 0;
        break;
      }
      il--;
    }
    if (il == iu) {
      iu--;
      iter = 0;
      continue;
    }
    if (++total > 30 * n + 30) return 0;
    iter++;
    {
      lx_cd shift, x, y;
      if (iter % 10 == 0) {
        /* exceptional shift */
        shift = LX_H(iu, iu) + fabs(creal(LX_H(iu, iu - 1)));
        if (iu >= 2) shift += fabs(creal(LX_H(iu - 1, iu - 2)));
      } else {
        /* eigenvalue of the trailing 2 x 2 block closer to h[iu][iu] */
        lx_cd t = LX_H(iu - 1, iu - 1) + LX_H(iu, iu);
        lx_cd d = LX_H(iu - 1, iu - 1) * LX_H(iu, iu) -
                  LX_H(iu - 1, iu) * LX_H(iu, iu - 1);
        lx_cd disc = csqrt(t * t / 4.0 - d);
        lx_cd e1 = t / 2.0 + disc, e2 = t / 2.0 - disc;
        shift = cabs(e1 - LX_H(iu, iu)) < cabs(e2 - LX_H(iu, iu)) ? e1 : e2;
      }
      /* one implicit single-shift QR sweep by Givens rotations */
      x = LX_H(il, il) - shift;
      y = LX_H(il + 1, il);
      for (i = il; i < iu; i++) {
        double h = sqrt(creal(x * conj(x)) + creal(y * conj(y)));
        lx_cd cs, sn;
        if (h == 0) {
          cs = 1;
          sn = 0;
        } else {
          cs = x / h;
          sn = y / h;
        }
        /* rows i, i+1 (from column i-1 on, or il) */
        for (c = (i > il ? i - 1 : il); c < n; c++) {
          lx_cd p = LX_H(i, c), q = LX_H(i + 1, c);
          LX_H(i, c) = conj(cs) * p + conj(sn) * q;
          LX_H(i + 1, c) = -sn * p + cs * q;
        }
        /* columns i, i+1 */
        for (r = 0; r <= (i + 2 < iu ? i + 2 : iu); r++) {
          lx_cd p = LX_H(r, i), q = LX_H(r, i + 1);
          LX_H(r, i) = p * cs + q * sn;
          LX_H(r, i + 1) = -p * conj(sn) + q * conj(cs);
        }
        for (r = 0; r < n; r++) {
          lx_cd p = LX_Q(r, i), q = LX_Q(r, i + 1);
          LX_Q(r, i) = p * cs + q * sn;
          LX_Q(r, i + 1) = -p * conj(sn) + q * conj(cs);
        }
        if (i + 1 < iu) {
          x = LX_H(i + 1, i);
          y = LX_H(i + 2, i);
        }
      }
    }
  }
  for (r = 1; r < n; r++) {
    for (c = 0; c < r; c++) LX_H(r, c) = 0;
  }
#undef LX_H
#undef LX_Q
  return 1;
}

static void sqrtm_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int r = in->num_dims, cplx = in->dtype == TF_COMPLEX64 ||
                                in->dtype == TF_COMPLEX128;
  int64_t n, batch = 1, b, i, j, q;
  TF_Tensor* out;
  lx_cd *a = NULL, *u = NULL, *w = NULL, *s = NULL;
  if (r < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor 0 must have rank >= 2, got %d", r);
    return;
  }
  if (in->dims[r - 1] != in->dims[r - 2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input matrix must be square.");
    return;
  }
  n = in->dims[r - 1];
  for (i = 0; i < r - 2; i++) batch *= in->dims[i];
  out = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims, r);
  if (out == NULL || batch == 0 || n == 0) return;
  a = (lx_cd*)tfe_malloc((size_t)(n * n) * sizeof(lx_cd));
  u = (lx_cd*)tfe_malloc((size_t)(n * n) * sizeof(lx_cd));
  s = (lx_cd*)tfe_malloc((size_t)(n * n) * sizeof(lx_cd));
  w = (lx_cd*)tfe_malloc((size_t)n * sizeof(lx_cd));
  if (a == NULL || u == NULL || s == NULL || w == NULL) {
    lx_oom(k, "MatrixSquareRoot");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    const void* src = kutil_data(in);
    int finite = 1, bad = 0;
    double tn = 0;
    for (i = 0; i < n * n; i++) {
      int64_t at = b * n * n + i;
      switch (in->dtype) {
        case TF_FLOAT: a[i] = ((const float*)src)[at]; break;
        case TF_DOUBLE: a[i] = ((const double*)src)[at]; break;
        case TF_COMPLEX64: a[i] = ((const lx_cf*)src)[at]; break;
        default: a[i] = ((const lx_cd*)src)[at]; break;
      }
      if (!isfinite(creal(a[i])) || !isfinite(cimag(a[i]))) finite = 0;
    }
    if (!finite || !lx_schur(a, u, w, n)) {
      bad = 1;
    } else {
      for (i = 0; i < n; i++) {
        for (j = i; j < n; j++) tn += cabs(a[i * n + j]);
      }
      /* sqrt of the triangular factor: the principal root on the
       * diagonal, then the superdiagonals column by column */
      for (i = 0; i < n * n; i++) s[i] = 0;
      for (i = 0; i < n; i++) {
        lx_cd d = a[i * n + i];
        if (!cplx && creal(d) < 0 &&
            fabs(cimag(d)) <= 64 * DBL_EPSILON * (tn > 0 ? tn : 1)) {
          /* a negative real eigenvalue of a real matrix has no real
           * root: NaN, as TF's real Schur path gives */
          bad = 1;
        }
        s[i * n + i] = csqrt(d);
      }
      for (j = 1; j < n && !bad; j++) {
        for (i = j - 1; i >= 0; i--) {
          lx_cd t = a[i * n + j], den = s[i * n + i] + s[j * n + j];
          for (q = i + 1; q < j; q++) t -= s[i * n + q] * s[q * n + j];
          s[i * n + j] = t / den;
        }
      }
    }
    /* X = (U S) U^H: U S into a (T is no longer needed), X into s */
    for (i = 0; i < n && !bad; i++) {
      for (j = 0; j < n; j++) {
        lx_cd t = 0;
        for (q = 0; q <= j; q++) t += u[i * n + q] * s[q * n + j];
        a[i * n + j] = t;
      }
    }
    for (i = 0; i < n && !bad; i++) {
      for (j = 0; j < n; j++) {
        lx_cd t = 0;
        for (q = 0; q < n; q++) t += a[i * n + q] * conj(u[j * n + q]);
        w[j] = t;
      }
      for (j = 0; j < n; j++) s[i * n + j] = w[j];
    }
    for (i = 0; i < n * n; i++) {
      int64_t at = b * n * n + i;
      lx_cd v = bad ? CMPLX(NAN, NAN) : s[i];
      switch (out->dtype) {
        case TF_FLOAT: ((float*)kutil_data(out))[at] = (float)creal(v); break;
        case TF_DOUBLE: ((double*)kutil_data(out))[at] = creal(v); break;
        case TF_COMPLEX64:
          ((lx_cf*)kutil_data(out))[at] = (lx_cf)v;
          break;
        default: ((lx_cd*)kutil_data(out))[at] = v; break;
      }
    }
  }
done:
  tfe_free(a);
  tfe_free(u);
  tfe_free(s);
  tfe_free(w);
}

/* ---- MatrixLogarithm ---- */

/* Square root of the upper triangular n x n t into r (principal roots on
 * the diagonal, then the recurrence column by column). */
static void lx_tri_sqrt(const lx_cd* t, lx_cd* r, int64_t n) {
  int64_t i, j, q;
  for (i = 0; i < n * n; i++) r[i] = 0;
  for (i = 0; i < n; i++) r[i * n + i] = csqrt(t[i * n + i]);
  for (j = 1; j < n; j++) {
    for (i = j - 1; i >= 0; i--) {
      lx_cd v = t[i * n + j];
      for (q = i + 1; q < j; q++) v -= r[i * n + q] * r[q * n + j];
      r[i * n + j] = v / (r[i * n + i] + r[j * n + j]);
    }
  }
}

/* Gauss-Legendre nodes and weights of order m on [0, 1] (Newton on the
 * Legendre polynomial). */
static void lx_gauss_legendre(int m, double* x, double* w) {
  int i, it, k;
  for (i = 0; i < m; i++) {
    double z = cos(M_PI * (i + 0.75) / (m + 0.5)), dp = 1;
    for (it = 0; it < 100; it++) {
      double p0 = 1, p1 = z, z1;
      for (k = 2; k <= m; k++) {
        double p2 = ((2.0 * k - 1) * z * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      /* p1 = P_m(z), p0 = P_{m-1}(z) */
      dp = m * (z * p1 - p0) / (z * z - 1);
      z1 = z;
      z = z1 - p1 / dp;
      if (fabs(z - z1) < 1e-16) break;
    }
    x[i] = (1 - z) / 2;
    w[i] = 1 / ((1 - z * z) * dp * dp);
  }
}

/* Principal logarithm of the upper triangular t (n x n, destroyed) into
 * out: inverse scaling and squaring (square roots until T - I is small),
 * then log(I + X) as the 8-point Gauss-Legendre quadrature of
 * X (I + s X)^-1 over s in [0, 1] (a diagonal Pade approximant), times
 * 2^k. r and y are n x n scratch. */
static void lx_tri_log(lx_cd* t, lx_cd* out, lx_cd* r, lx_cd* y, int64_t n) {
  double gx[8], gw[8];
  int64_t i, j, q;
  int k = 0, g;
  lx_gauss_legendre(8, gx, gw);
  for (;;) {
    double nrm = 0;
    for (j = 0; j < n; j++) {
      double col = 0;
      for (i = 0; i <= j; i++) col += cabs(t[i * n + j] - (i == j ? 1 : 0));
      if (col > nrm) nrm = col;
    }
    if (!(nrm > 0.25) || k >= 64) break;
    lx_tri_sqrt(t, r, n);
    memcpy(t, r, (size_t)(n * n) * sizeof(lx_cd));
    k++;
  }
  for (i = 0; i < n; i++) t[i * n + i] -= 1; /* X = T - I */
  for (i = 0; i < n * n; i++) out[i] = 0;
  for (g = 0; g < 8; g++) {
    /* Y = (I + s X)^-1 X: solve the upper triangular system column by
     * column, then accumulate w Y */
    for (j = 0; j < n; j++) {
      for (i = j; i >= 0; i--) {
        lx_cd v = t[i * n + j];
        for (q = i + 1; q <= j; q++) v -= gx[g] * t[i * n + q] * y[q * n + j];
        y[i * n + j] = v / (1 + gx[g] * t[i * n + i]);
      }
      for (i = j + 1; i < n; i++) y[i * n + j] = 0;
    }
    for (i = 0; i < n * n; i++) out[i] += gw[g] * y[i];
  }
  for (i = 0; i < n * n; i++) out[i] *= ldexp(1.0, k);
}

static void logm_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int r = in->num_dims;
  int64_t n, batch = 1, b, i, j, q;
  TF_Tensor* out;
  lx_cd *a = NULL, *u = NULL, *w = NULL, *l = NULL, *s1 = NULL, *s2 = NULL;
  if (r < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor 0 must have rank >= 2, got %d", r);
    return;
  }
  if (in->dims[r - 1] != in->dims[r - 2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input matrix must be square.");
    return;
  }
  n = in->dims[r - 1];
  for (i = 0; i < r - 2; i++) batch *= in->dims[i];
  out = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims, r);
  if (out == NULL || batch == 0 || n == 0) return;
  a = (lx_cd*)tfe_malloc((size_t)(n * n) * sizeof(lx_cd));
  u = (lx_cd*)tfe_malloc((size_t)(n * n) * sizeof(lx_cd));
  l = (lx_cd*)tfe_malloc((size_t)(n * n) * sizeof(lx_cd));
  s1 = (lx_cd*)tfe_malloc((size_t)(n * n) * sizeof(lx_cd));
  s2 = (lx_cd*)tfe_malloc((size_t)(n * n) * sizeof(lx_cd));
  w = (lx_cd*)tfe_malloc((size_t)n * sizeof(lx_cd));
  if (a == NULL || u == NULL || l == NULL || s1 == NULL || s2 == NULL ||
      w == NULL) {
    lx_oom(k, "MatrixLogarithm");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    int bad = 0;
    for (i = 0; i < n * n; i++) {
      int64_t at = b * n * n + i;
      a[i] = in->dtype == TF_COMPLEX64 ? (lx_cd)((const lx_cf*)kutil_data(in))[at]
                                       : ((const lx_cd*)kutil_data(in))[at];
      if (!isfinite(creal(a[i])) || !isfinite(cimag(a[i]))) bad = 1;
    }
    if (!bad && !lx_schur(a, u, w, n)) bad = 1;
    if (!bad) {
      lx_tri_log(a, l, s1, s2, n);
      /* U L U^H */
      for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
          lx_cd t = 0;
          for (q = 0; q <= j; q++) t += u[i * n + q] * l[q * n + j];
          s1[i * n + j] = t;
        }
      }
      for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
          lx_cd t = 0;
          for (q = 0; q < n; q++) t += s1[i * n + q] * conj(u[j * n + q]);
          l[i * n + j] = t;
        }
      }
    }
    for (i = 0; i < n * n; i++) {
      int64_t at = b * n * n + i;
      lx_cd v = bad ? CMPLX(NAN, NAN) : l[i];
      if (out->dtype == TF_COMPLEX64) {
        ((lx_cf*)kutil_data(out))[at] = (lx_cf)v;
      } else {
        ((lx_cd*)kutil_data(out))[at] = v;
      }
    }
  }
done:
  tfe_free(a);
  tfe_free(u);
  tfe_free(l);
  tfe_free(s1);
  tfe_free(s2);
  tfe_free(w);
}

void tfe_register_cpu_linalg_extra_kernels(void) {
  static const TF_DataType kT[] = {TF_DOUBLE, TF_FLOAT, TF_COMPLEX64,
                                   TF_COMPLEX128};
  static const TF_DataType kBanded[] = {TF_DOUBLE, TF_FLOAT, TF_HALF,
                                        TF_COMPLEX64, TF_COMPLEX128};
  tfe_kutil_register("TridiagonalSolve", tridiag_solve_compute, "T", kT,
                     KUTIL_COUNT(kT), NULL, NULL, 0);
  tfe_kutil_register("TridiagonalMatMul", tridiag_matmul_compute, "T", kT,
                     KUTIL_COUNT(kT), NULL, NULL, 0);
  tfe_kutil_register("BandedTriangularSolve", banded_solve_compute, "T",
                     kBanded, KUTIL_COUNT(kBanded), NULL, NULL, 0);
  tfe_kutil_register("MatrixSquareRoot", sqrtm_compute, "T", kT,
                     KUTIL_COUNT(kT), NULL, NULL, 0);
  {
    static const TF_DataType kC[] = {TF_COMPLEX64, TF_COMPLEX128};
    tfe_kutil_register("MatrixLogarithm", logm_compute, "T", kC,
                       KUTIL_COUNT(kC), NULL, NULL, 0);
  }
}
