/* CPU kernels: MatrixSolveLs (float, double, complex64, complex128) and
 * CholeskyGrad (float, double) with TF 2.21's semantics (issue 18,
 * session 8). Both work on the two innermost dimensions, batched over the
 * rest, and compute in double (double complex for MatrixSolveLs), rounding
 * at the end.
 *
 * MatrixSolveLs with fast=True solves the regularized normal equations by
 * Cholesky: (A^H A + l2 I) X = A^H B when rows >= cols, else
 * X = A^H (A A^H + l2 I)^-1 B; a Cholesky pivot that is not positive fails
 * like TF ("rank deficient or ill-conditioned"). With fast=False TF
 * ignores l2_regularizer and returns the minimum-norm least-squares
 * solution; here through a complete orthogonal decomposition: Householder
 * QR with column pivoting, the numerical rank from the pivots (threshold
 * eps * min(m, n) * |R00|), then Householder reflections from the right
 * that make the leading rows triangular.
 *
 * CholeskyGrad reads the lower triangles of L and grad and returns the
 * symmetric gradient with respect to A = L L^T:
 * Phi(X) = tril(X) with its diagonal halved; S = L^-T Phi(L^T tril(grad)) L^-1;
 * result 0.5 (S + S^T). */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/complex_compat.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_linalg2_common.h"

typedef double _Complex zc;

static double zabs2(zc z) { return creal(z) * creal(z) + cimag(z) * cimag(z); }

/* Batch count of the leading dims, after checking both tensors have rank
 * >= 2 and the same leading dims. -1 with status set on failure. */
static int64_t batch_of(tfe_kernel_context* k, const TF_Tensor* a,
                        const TF_Tensor* b) {
  int i;
  if (a->num_dims < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor 0 must have rank >= 2, got %d", a->num_dims);
    return -1;
  }
  if (b->num_dims < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor 1 must have rank >= 2, got %d", b->num_dims);
    return -1;
  }
  if (a->num_dims != b->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "All input tensors must have the same rank.");
    return -1;
  }
  for (i = 0; i < a->num_dims - 2; i++) {
    if (a->dims[i] != b->dims[i]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "All input tensors must have the same outer dimensions.");
      return -1;
    }
  }
  return kutil_dims_prod(a->dims, 0, a->num_dims - 2);
}

/* In-place Cholesky of the Hermitian n x n matrix g (lower factor);
 * 0 when a pivot is not positive. */
static int zchol(zc* g, int64_t n) {
  int64_t i, j, p;
  for (j = 0; j < n; j++) {
    double d = creal(g[j * n + j]);
    for (p = 0; p < j; p++) d -= zabs2(g[j * n + p]);
    if (!(d > 0)) return 0;
    d = sqrt(d);
    g[j * n + j] = d;
    for (i = j + 1; i < n; i++) {
      zc s = g[i * n + j];
      for (p = 0; p < j; p++) s -= g[i * n + p] * conj(g[j * n + p]);
      g[i * n + j] = s / d;
    }
  }
  return 1;
}

/* Solves (L L^H) x = b in place for k right-hand sides (b is n x k). */
static void zchol_solve(const zc* l, int64_t n, zc* b, int64_t k) {
  int64_t i, j, c;
  for (c = 0; c < k; c++) {
    for (i = 0; i < n; i++) {
      zc s = b[i * k + c];
      for (j = 0; j < i; j++) s -= l[i * n + j] * b[j * k + c];
      b[i * k + c] = s / l[i * n + i];
    }
    for (i = n - 1; i >= 0; i--) {
      zc s = b[i * k + c];
      for (j = i + 1; j < n; j++) s -= conj(l[j * n + i]) * b[j * k + c];
      b[i * k + c] = s / l[i * n + i];
    }
  }
}

/* Householder vector for x[0..len) (stride st): on return x holds v with
 * v[0] = 1 implied, *tau and *beta such that (I - tau v v^H) x = beta e1. */
static void house(zc* x, int64_t len, int64_t st, zc* tau, zc* beta) {
  double tail = 0, nrm;
  zc a = x[0];
  int64_t i;
  for (i = 1; i < len; i++) tail += zabs2(x[i * st]);
  if (tail == 0 && cimag(a) == 0) {
    *tau = 0;
    *beta = a;
    return;
  }
  nrm = sqrt(zabs2(a) + tail);
  *beta = creal(a) >= 0 ? -nrm : nrm;
  *tau = (*beta - a) / *beta;
  for (i = 1; i < len; i++) x[i * st] /= (a - *beta);
}

/* Minimum-norm least squares of the m x n a against m x k b through a
 * complete orthogonal decomposition; x is n x k. Scratch is allocated
 * here; 0 on OOM. */
static int cod_solve(zc* a, int64_t m, int64_t n, zc* b, int64_t k, zc* x) {
  int64_t mn = m < n ? m : n, i, j, c, r, rank = 0;
  int64_t* perm = (int64_t*)tfe_malloc((size_t)(n + 1) * sizeof(int64_t));
  double* cn = (double*)tfe_malloc((size_t)(n + 1) * sizeof(double));
  zc* tq = (zc*)tfe_malloc((size_t)(mn + 1) * sizeof(zc));
  zc* tz = (zc*)tfe_malloc((size_t)(mn + 1) * sizeof(zc));
  zc* y = (zc*)tfe_malloc((size_t)(n * k + 1) * sizeof(zc));
  double thr, r00 = 0;
  if (perm == NULL || cn == NULL || tq == NULL || tz == NULL || y == NULL) {
    tfe_free(perm);
    tfe_free(cn);
    tfe_free(tq);
    tfe_free(tz);
    tfe_free(y);
    return 0;
  }
  for (j = 0; j < n; j++) {
    perm[j] = j;
    cn[j] = 0;
    for (i = 0; i < m; i++) cn[j] += zabs2(a[i * n + j]);
  }
  /* QR with column pivoting */
  for (r = 0; r < mn; r++) {
    int64_t best = r;
    zc beta, tau;
    for (j = r + 1; j < n; j++) {
      if (cn[j] > cn[best]) best = j;
    }
    if (best != r) {
      int64_t tp = perm[r];
      double td = cn[r];
      perm[r] = perm[best];
      perm[best] = tp;
      cn[r] = cn[best];
      cn[best] = td;
      for (i = 0; i < m; i++) {
        zc t = a[i * n + r];
        a[i * n + r] = a[i * n + best];
        a[i * n + best] = t;
      }
    }
    house(&a[r * n + r], m - r, n, &tau, &beta);
    tq[r] = tau;
    /* apply (I - tau v v^H)^H ... to the trailing columns and to b */
    for (j = r + 1; j < n; j++) {
      zc s = a[r * n + j];
      for (i = r + 1; i < m; i++) s += conj(a[i * n + r]) * a[i * n + j];
      s *= conj(tau);
      a[r * n + j] -= s;
      for (i = r + 1; i < m; i++) a[i * n + j] -= s * a[i * n + r];
    }
    for (c = 0; c < k; c++) {
      zc s = b[r * k + c];
      for (i = r + 1; i < m; i++) s += conj(a[i * n + r]) * b[i * k + c];
      s *= conj(tau);
      b[r * k + c] -= s;
      for (i = r + 1; i < m; i++) b[i * k + c] -= s * a[i * n + r];
    }
    a[r * n + r] = beta;
    for (j = r + 1; j < n; j++) {
      cn[j] = 0;
      for (i = r + 1; i < m; i++) cn[j] += zabs2(a[i * n + j]);
    }
  }
  if (mn > 0) r00 = cabs(a[0]);
  thr = 2.220446049250313e-16 * (double)mn * r00;
  for (r = 0; r < mn; r++) {
    if (cabs(a[r * n + r]) > thr) rank++;
  }
  /* zero R12 of the rank x n upper trapezoid by reflections from the
   * right, last row first: row r gets (R[r][r], R[r][rank..n)) -> (t, 0) */
  for (r = rank - 1; r >= 0 && rank < n; r--) {
    int64_t len = n - rank + 1;
    zc* v = y; /* scratch: len entries */
    zc tau, beta;
    v[0] = conj(a[r * n + r]);
    for (j = 1; j < len; j++) v[j] = conj(a[r * n + rank + j - 1]);
    house(v, len, 1, &tau, &beta);
    tz[r] = tau;
    /* rows 0..r: R <- R (I - tau v v^H)^H over columns {r, rank..n) */
    for (i = 0; i <= r; i++) {
      zc s = a[i * n + r];
      for (j = 1; j < len; j++) s += a[i * n + rank + j - 1] * v[j];
      s *= tau;
      a[i * n + r] -= s;
      for (j = 1; j < len; j++) a[i * n + rank + j - 1] -= s * conj(v[j]);
    }
    for (j = 1; j < len; j++) a[r * n + rank + j - 1] = v[j]; /* keep v */
  }
  /* y = [T^-1 (Q^H b)[:rank]; 0] */
  for (c = 0; c < k; c++) {
    for (i = rank - 1; i >= 0; i--) {
      zc s = b[i * k + c];
      for (j = i + 1; j < rank; j++) s -= a[i * n + j] * y[j * k + c];
      y[i * k + c] = s / a[i * n + i];
    }
    for (i = rank; i < n; i++) y[i * k + c] = 0;
  }
  /* undo the right reflections: y <- Z^H y, first row's reflection last */
  for (r = 0; r < rank && rank < n; r++) {
    zc tau = tz[r];
    for (c = 0; c < k; c++) {
      zc s = y[r * k + c];
      for (j = rank; j < n; j++) s += conj(a[r * n + j]) * y[j * k + c];
      s *= tau;
      y[r * k + c] -= s;
      for (j = rank; j < n; j++) y[j * k + c] -= s * a[r * n + j];
    }
  }
  for (j = 0; j < n; j++) {
    for (c = 0; c < k; c++) x[perm[j] * k + c] = y[j * k + c];
  }
  tfe_free(perm);
  tfe_free(cn);
  tfe_free(tq);
  tfe_free(tz);
  tfe_free(y);
  return 1;
}

static void solve_ls_compute(tfe_kernel_context* k) {
  const TF_Tensor* ma = k->inputs[0];
  const TF_Tensor* rb = k->inputs[1];
  const TF_Tensor* l2t = k->inputs[2];
  int fast = kutil_attr_bool(k, "fast", 1), r;
  int64_t batch, m, n, kk, b, i, j, c, dims[TFE_MAX_DIMS];
  double l2;
  zc *a = NULL, *bb = NULL, *g = NULL, *x = NULL;
  TF_Tensor* out;
  kutil_shape_buf sb;
  if (l2t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "l2_regularizer must be scalar, got shape %s",
               kutil_tshape(l2t, &sb));
    return;
  }
  l2 = ((const double*)kutil_data(l2t))[0];
  batch = batch_of(k, ma, rb);
  if (batch < 0) return;
  r = ma->num_dims;
  m = ma->dims[r - 2];
  n = ma->dims[r - 1];
  kk = rb->dims[r - 1];
  if (rb->dims[r - 2] != m) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input matrix and rhs are incompatible.");
    return;
  }
  memcpy(dims, ma->dims, (size_t)r * sizeof(int64_t));
  dims[r - 2] = n;
  dims[r - 1] = kk;
  out = tfe_kernel_alloc_output(k, 0, ma->dtype, dims, r);
  if (out == NULL) return;
  if (kutil_num_elements(out) == 0) return;
  if (m == 0) {
    memset(kutil_data(out), 0,
           (size_t)kutil_num_elements(out) * kutil_esize(ma->dtype));
    return;
  }
  a = (zc*)tfe_malloc((size_t)(m * n) * sizeof(zc));
  bb = (zc*)tfe_malloc((size_t)(m * kk) * sizeof(zc));
  g = (zc*)tfe_malloc((size_t)(m > n ? m * m : n * n) * sizeof(zc) + 16);
  x = (zc*)tfe_malloc((size_t)((m > n ? m : n) * kk) * sizeof(zc) + 16);
  if (a == NULL || bb == NULL || g == NULL || x == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in MatrixSolveLs");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    for (i = 0; i < m * n; i++) {
      a[i] = nnl2_load_c(ma->dtype, kutil_data(ma), b * m * n + i);
    }
    for (i = 0; i < m * kk; i++) {
      bb[i] = nnl2_load_c(rb->dtype, kutil_data(rb), b * m * kk + i);
    }
    if (!fast) {
      if (!cod_solve(a, m, n, bb, kk, x)) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in MatrixSolveLs");
        goto done;
      }
    } else if (m >= n) {
      /* g = A^H A + l2 I (n x n); x = A^H B */
      for (i = 0; i < n; i++) {
        for (j = 0; j <= i; j++) {
          zc s = 0;
          int64_t p;
          for (p = 0; p < m; p++) s += conj(a[p * n + i]) * a[p * n + j];
          g[i * n + j] = s + (i == j ? l2 : 0);
          g[j * n + i] = conj(g[i * n + j]);
        }
        for (c = 0; c < kk; c++) {
          zc s = 0;
          int64_t p;
          for (p = 0; p < m; p++) s += conj(a[p * n + i]) * bb[p * kk + c];
          x[i * kk + c] = s;
        }
      }
      if (!zchol(g, n)) goto rank_fail;
      zchol_solve(g, n, x, kk);
    } else {
      /* g = A A^H + l2 I (m x m); x = A^H g^-1 B */
      for (i = 0; i < m; i++) {
        for (j = 0; j <= i; j++) {
          zc s = 0;
          int64_t p;
          for (p = 0; p < n; p++) s += a[i * n + p] * conj(a[j * n + p]);
          g[i * m + j] = s + (i == j ? l2 : 0);
          g[j * m + i] = conj(g[i * m + j]);
        }
      }
      if (!zchol(g, m)) goto rank_fail;
      zchol_solve(g, m, bb, kk);
      for (i = 0; i < n; i++) {
        for (c = 0; c < kk; c++) {
          zc s = 0;
          int64_t p;
          for (p = 0; p < m; p++) s += conj(a[p * n + i]) * bb[p * kk + c];
          x[i * kk + c] = s;
        }
      }
    }
    for (i = 0; i < n * kk; i++) {
      nnl2_store_c(ma->dtype, kutil_data(out), b * n * kk + i, x[i]);
    }
  }
  goto done;
rank_fail:
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Input matrix was rank deficient or ill-conditioned. Try setting "
             "fast=False or provide a larger l2_regularizer > 0.");
done:
  tfe_free(a);
  tfe_free(bb);
  tfe_free(g);
  tfe_free(x);
}

/* ---- CholeskyGrad ---- */

/* Solves L^T X = B (left) for lower triangular L, in place on the n x n B. */
static void lt_solve_left(const double* l, int64_t n, double* bm) {
  int64_t i, j, c;
  for (c = 0; c < n; c++) {
    for (i = n - 1; i >= 0; i--) {
      double s = bm[i * n + c];
      for (j = i + 1; j < n; j++) s -= l[j * n + i] * bm[j * n + c];
      bm[i * n + c] = s / l[i * n + i];
    }
  }
}

/* Solves X L = B (right) for lower triangular L, in place on B. */
static void l_solve_right(const double* l, int64_t n, double* bm) {
  int64_t i, j, r;
  for (r = 0; r < n; r++) {
    for (j = n - 1; j >= 0; j--) {
      double s = bm[r * n + j];
      for (i = j + 1; i < n; i++) s -= bm[r * n + i] * l[i * n + j];
      bm[r * n + j] = s / l[j * n + j];
    }
  }
}

static void cholesky_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor* lt = k->inputs[0];
  const TF_Tensor* gt = k->inputs[1];
  int r = lt->num_dims, d;
  int64_t n, batch, b, i, j, p;
  double *l = NULL, *g = NULL, *mid = NULL;
  TF_Tensor* out;
  if (r < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor 0 must have rank >= 2, got %d", r);
    return;
  }
  if (gt->num_dims < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor 1 must have rank >= 2, got %d", gt->num_dims);
    return;
  }
  if (gt->num_dims != r) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Inputs (L and grad) must have the same shape.");
    return;
  }
  for (d = 0; d < r; d++) {
    if (lt->dims[d] != gt->dims[d]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Inputs (L and grad) must have the same shape.");
      return;
    }
  }
  if (lt->dims[r - 1] != lt->dims[r - 2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Inputs must be a square matrices.");
    return;
  }
  n = lt->dims[r - 1];
  batch = kutil_dims_prod(lt->dims, 0, r - 2);
  out = tfe_kernel_alloc_output(k, 0, lt->dtype, lt->dims, r);
  if (out == NULL || batch == 0 || n == 0) return;
  l = (double*)tfe_malloc((size_t)(n * n) * sizeof(double));
  g = (double*)tfe_malloc((size_t)(n * n) * sizeof(double));
  mid = (double*)tfe_malloc((size_t)(n * n) * sizeof(double));
  if (l == NULL || g == NULL || mid == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in CholeskyGrad");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    for (i = 0; i < n; i++) {
      for (j = 0; j < n; j++) {
        int64_t e = b * n * n + i * n + j;
        l[i * n + j] = j <= i ? nnl2_load(lt->dtype, kutil_data(lt), e) : 0;
        g[i * n + j] = j <= i ? nnl2_load(gt->dtype, kutil_data(gt), e) : 0;
      }
    }
    /* mid = Phi(L^T tril(grad)) */
    for (i = 0; i < n; i++) {
      for (j = 0; j < n; j++) {
        double s = 0;
        if (j <= i) {
          for (p = i; p < n; p++) s += l[p * n + i] * g[p * n + j];
          if (j == i) s *= 0.5;
        }
        mid[i * n + j] = s;
      }
    }
    lt_solve_left(l, n, mid);
    l_solve_right(l, n, mid);
    for (i = 0; i < n; i++) {
      for (j = 0; j <= i; j++) {
        double v = 0.5 * (mid[i * n + j] + mid[j * n + i]);
        nnl2_store(lt->dtype, kutil_data(out), b * n * n + i * n + j, v);
        nnl2_store(lt->dtype, kutil_data(out), b * n * n + j * n + i, v);
      }
    }
  }
done:
  tfe_free(l);
  tfe_free(g);
  tfe_free(mid);
}

void tfe_nn_linalg2_register_la(void) {
  static const TF_DataType kLs[] = {TF_FLOAT, TF_DOUBLE, TF_COMPLEX64,
                                    TF_COMPLEX128};
  static const TF_DataType kFD[] = {TF_FLOAT, TF_DOUBLE};
  tfe_kutil_register("MatrixSolveLs", solve_ls_compute, "T", kLs, 4, NULL,
                     NULL, 0);
  tfe_kutil_register("CholeskyGrad", cholesky_grad_compute, "T", kFD, 2, NULL,
                     NULL, 0);
}
