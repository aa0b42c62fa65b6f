/* Batched dense linear algebra on the CPU, with TF 2.21's registrations
 * (float, double, complex64, complex128; MatrixInverse also half):
 * MatrixDeterminant, LogMatrixDeterminant, MatrixInverse, Cholesky,
 * MatrixSolve, MatrixTriangularSolve, Lu, Qr (Householder, Eigen's sign
 * conventions; also half) and SelfAdjointEigV2 (Eigen's tridiagonal QR
 * steps, so eigenvector signs match TF's). Matrices are the two innermost
 * dimensions.
 * float32 matrices are worked on in float with the operation order of
 * Eigen's unblocked algorithms (partial-pivoting LU, LLT, the triangular
 * solver's dot/axpy forms, the determinant as the product of the pivots),
 * so small float results equal TF's to the bit (QR too, for square and
 * tall matrices); LogMatrixDeterminant of float32, and half, work in
 * double and are rounded at the end, as are
 * float64 and complex matrices (whose own dtype is double). Errors follow
 * TF: "Input is not invertible." when an LU pivot is
 * zero (or a NaN pivot is the first on the diagonal), Cholesky of a
 * matrix that is not positive definite gives NaNs in the lower triangle
 * (TF logs a warning and does the same), and a triangular solve with a
 * zero on the diagonal divides by it. */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/complex_compat.h"
#include "kernels/cpu/kutil.h"

void tfe_register_nnlinalg_la_kernels(void);

typedef double _Complex la_c;

/* Output rank limit of MatrixTriangularSolve (TF allows any rank). */
#define TFE_MAX_LA_DIMS 32

#define LA_R double
#define LA_SQRT(x) sqrt(x)
#define LA_FABS(x) fabs(x)
#define LA_HYPOT(x, y) hypot(x, y)

#define LA_T double
#define LA_SUF _r
#define LA_ABS(x) fabs(x)
#define LA_ABS2(x) ((x) * (x))
#define LA_CONJ(x) (x)
#define LA_RE(x) (x)
#include "kernels/cpu/nnlinalg_la_impl.h"
#undef LA_T
#undef LA_SUF
#undef LA_ABS
#undef LA_ABS2
#undef LA_CONJ
#undef LA_RE

#define LA_T la_c
#define LA_SUF _c
#define LA_ABS(x) cabs(x)
#define LA_ABS2(x) (creal(x) * creal(x) + cimag(x) * cimag(x))
#define LA_CONJ(x) conj(x)
#define LA_RE(x) creal(x)
#include "kernels/cpu/nnlinalg_la_impl.h"
#undef LA_T
#undef LA_SUF
#undef LA_ABS
#undef LA_ABS2
#undef LA_CONJ
#undef LA_RE
#undef LA_R
#undef LA_SQRT
#undef LA_FABS
#undef LA_HYPOT

/* hypot as Eigen computes it in float (max * sqrt(1 + (min/max)^2)). */
static float la_hypotf(float x, float y) {
  float p, q;
  x = fabsf(x);
  y = fabsf(y);
  if (isinf(x) || isinf(y)) return INFINITY;
  if (isnan(x) || isnan(y)) return NAN;
  p = x > y ? x : y;
  q = x > y ? y : x;
  if (p == 0) return 0;
  q /= p;
  return p * sqrtf(1.0f + q * q);
}

/* float32 routines (all but QR): every step in float, as TF's. */
#define LA_SUBSET
#define LA_R float
#define LA_SQRT(x) sqrtf(x)
#define LA_FABS(x) fabsf(x)
#define LA_HYPOT(x, y) la_hypotf(x, y)
#define LA_T float
#define LA_SUF _f
#define LA_ABS(x) fabsf(x)
#define LA_ABS2(x) ((x) * (x))
#define LA_CONJ(x) (x)
#define LA_RE(x) (x)
#include "kernels/cpu/nnlinalg_la_impl.h"
#undef LA_T
#undef LA_SUF
#undef LA_ABS
#undef LA_ABS2
#undef LA_CONJ
#undef LA_RE
#undef LA_R
#undef LA_SQRT
#undef LA_FABS
#undef LA_HYPOT
#undef LA_SUBSET

static int is_cplx(TF_DataType dt) {
  return dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
}

/* Loads n elements starting at element off of t into double (real) or
 * la_c (complex) storage. */
static void load_n(const TF_Tensor* t, int64_t off, int64_t n, void* dst) {
  const void* d = kutil_data(t);
  int64_t i;
  switch (t->dtype) {
    case TF_FLOAT:
      for (i = 0; i < n; i++) ((double*)dst)[i] = ((const float*)d)[off + i];
      break;
    case TF_HALF:
      for (i = 0; i < n; i++) {
        ((double*)dst)[i] = kutil_f16_to_f32(((const uint16_t*)d)[off + i]);
      }
      break;
    case TF_DOUBLE:
      memcpy(dst, (const double*)d + off, (size_t)n * sizeof(double));
      break;
    case TF_COMPLEX64: {
      const float* f = (const float*)d + 2 * off;
      for (i = 0; i < n; i++) {
        ((la_c*)dst)[i] = CMPLX((double)f[2 * i], (double)f[2 * i + 1]);
      }
      break;
    }
    case TF_COMPLEX128: {
      const double* f = (const double*)d + 2 * off;
      for (i = 0; i < n; i++) ((la_c*)dst)[i] = CMPLX(f[2 * i], f[2 * i + 1]);
      break;
    }
    default: break;
  }
}

static void store_n(TF_Tensor* t, int64_t off, int64_t n, const void* src) {
  void* d = kutil_data(t);
  int64_t i;
  switch (t->dtype) {
    case TF_FLOAT:
      for (i = 0; i < n; i++) ((float*)d)[off + i] = (float)((const double*)src)[i];
      break;
    case TF_HALF:
      for (i = 0; i < n; i++) {
        ((uint16_t*)d)[off + i] =
            kutil_f32_to_f16((float)((const double*)src)[i]);
      }
      break;
    case TF_DOUBLE:
      memcpy((double*)d + off, src, (size_t)n * sizeof(double));
      break;
    case TF_COMPLEX64: {
      float* f = (float*)d + 2 * off;
      for (i = 0; i < n; i++) {
        f[2 * i] = (float)creal(((const la_c*)src)[i]);
        f[2 * i + 1] = (float)cimag(((const la_c*)src)[i]);
      }
      break;
    }
    case TF_COMPLEX128: {
      double* f = (double*)d + 2 * off;
      for (i = 0; i < n; i++) {
        f[2 * i] = creal(((const la_c*)src)[i]);
        f[2 * i + 1] = cimag(((const la_c*)src)[i]);
      }
      break;
    }
    default: break;
  }
}

static size_t work_esize(TF_DataType dt) {
  return is_cplx(dt) ? sizeof(la_c) : sizeof(double);
}

/* "Working precision": float32 tensors are worked on as float (so the
 * rounding is TF's), everything else as load_n/store_n convert it. */
static int is_f32(TF_DataType dt) { return dt == TF_FLOAT; }

static void load_w(const TF_Tensor* t, int64_t off, int64_t n, void* dst) {
  if (is_f32(t->dtype)) {
    memcpy(dst, (const float*)kutil_data(t) + off, (size_t)n * sizeof(float));
  } else {
    load_n(t, off, n, dst);
  }
}

static void store_w(TF_Tensor* t, int64_t off, int64_t n, const void* src) {
  if (is_f32(t->dtype)) {
    memcpy((float*)kutil_data(t) + off, src, (size_t)n * sizeof(float));
  } else {
    store_n(t, off, n, src);
  }
}

/* Replaces the n x n matrix a with its conjugate transpose. */
static void adjoint_sq(void* a, int64_t n, int cplx, int f32) {
  int64_t i, j;
  for (i = 0; i < n; i++) {
    for (j = cplx ? i : i + 1; j < n; j++) {
      if (f32) {
        float* m = (float*)a;
        float x = m[i * n + j];
        m[i * n + j] = m[j * n + i];
        m[j * n + i] = x;
      } else if (cplx) {
        la_c* m = (la_c*)a;
        la_c x = m[i * n + j], y = m[j * n + i];
        m[i * n + j] = conj(y);
        m[j * n + i] = conj(x);
      } else {
        double* m = (double*)a;
        double x = m[i * n + j];
        m[i * n + j] = m[j * n + i];
        m[j * n + i] = x;
      }
    }
  }
}

/* The checks of TF's single-input matrix ops; returns the batch count and
 * sets *n, or -1 after failing. */
static int64_t square_input(tfe_kernel_context* k, const TF_Tensor* in,
                            int64_t* n) {
  int r = in->num_dims, i;
  int64_t batch = 1;
  if (r < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor 0 must have rank >= 2, got %d", r);
    return -1;
  }
  if (in->dims[r - 1] != in->dims[r - 2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input matrix must be square.");
    return -1;
  }
  for (i = 0; i < r - 2; i++) batch *= in->dims[i];
  *n = in->dims[r - 1];
  return batch;
}

static void oom(tfe_kernel_context* k, const char* op) {
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", op);
}

/* ---- MatrixDeterminant / LogMatrixDeterminant ---- */

static void det_run(tfe_kernel_context* k, int log_form) {
  const TF_Tensor* in = k->inputs[0];
  int64_t n = 0, batch = square_input(k, in, &n), b;
  int cplx = is_cplx(in->dtype);
  TF_Tensor *o0, *o1 = NULL;
  void* a;
  int64_t* perm;
  if (batch < 0) return;
  o0 = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims, in->num_dims - 2);
  if (o0 == NULL) return;
  if (log_form) {
    o1 = tfe_kernel_alloc_output(k, 1, in->dtype, in->dims, in->num_dims - 2);
    if (o1 == NULL) return;
  }
  if (batch == 0) return;
  a = tfe_malloc((size_t)(n * n + 1) * work_esize(in->dtype));
  perm = (int64_t*)tfe_malloc((size_t)(n + 1) * sizeof(int64_t));
  if (a == NULL || perm == NULL) {
    oom(k, log_form ? "LogMatrixDeterminant" : "MatrixDeterminant");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    double logabs;
    if (is_f32(in->dtype) && !log_form) {
      /* float LU and pivot product, as TF (Eigen) in float */
      float dv;
      int ps;
      load_w(in, b * n * n, n * n, a);
      ps = la_lu_f((float*)a, n, perm);
      dv = la_det_f((const float*)a, n, ps);
      ((float*)kutil_data(o0))[b] = dv;
      continue;
    }
    load_n(in, b * n * n, n * n, a);
    if (cplx) {
      la_c sign, v[2];
      int ps = la_lu_c((la_c*)a, n, perm);
      la_slogdet_c((la_c*)a, n, ps, &sign, &logabs);
      if (log_form) {
        v[0] = sign;
        v[1] = CMPLX(logabs, 0.0);
        store_n(o0, b, 1, &v[0]);
        store_n(o1, b, 1, &v[1]);
      } else {
        v[0] = la_det_c((const la_c*)a, n, ps);
        store_n(o0, b, 1, &v[0]);
      }
    } else {
      double sign, v;
      int ps = la_lu_r((double*)a, n, perm);
      la_slogdet_r((double*)a, n, ps, &sign, &logabs);
      if (log_form) {
        store_n(o0, b, 1, &sign);
        store_n(o1, b, 1, &logabs);
      } else {
        v = la_det_r((const double*)a, n, ps);
        store_n(o0, b, 1, &v);
      }
    }
  }
done:
  tfe_free(a);
  tfe_free(perm);
}

static void det_compute(tfe_kernel_context* k) { det_run(k, 0); }
static void logdet_compute(tfe_kernel_context* k) { det_run(k, 1); }

/* ---- MatrixInverse / MatrixSolve ---- */

/* Factors the n x n matrix a (adjointed first when asked) and solves
 * against rhs (n x m; the identity when rhs is NULL) into x. Returns 0
 * when a pivot rules the matrix singular. */
static int lu_solve_one(void* a, int64_t n, int adjoint, int cplx, int f32,
                        int64_t* perm, const void* rhs, void* x, int64_t m,
                        void* ident) {
  int64_t i;
  if (adjoint) adjoint_sq(a, n, cplx, f32);
  if (f32) {
    la_lu_f((float*)a, n, perm);
    if (!(la_min_pivot_f((float*)a, n) > 0)) return 0;
  } else if (cplx) {
    la_lu_c((la_c*)a, n, perm);
    if (!(la_min_pivot_c((la_c*)a, n) > 0)) return 0;
  } else {
    la_lu_r((double*)a, n, perm);
    if (!(la_min_pivot_r((double*)a, n) > 0)) return 0;
  }
  if (rhs == NULL) {
    size_t es = f32 ? sizeof(float) : cplx ? sizeof(la_c) : sizeof(double);
    memset(ident, 0, (size_t)(n * n) * es);
    for (i = 0; i < n; i++) {
      if (f32) ((float*)ident)[i * n + i] = 1;
      else if (cplx) ((la_c*)ident)[i * n + i] = 1;
      else ((double*)ident)[i * n + i] = 1;
    }
    rhs = ident;
  }
  if (f32) {
    la_lu_solve_f((const float*)a, n, perm, (const float*)rhs, (float*)x, m);
  } else if (cplx) {
    la_lu_solve_c((const la_c*)a, n, perm, (const la_c*)rhs, (la_c*)x, m);
  } else {
    la_lu_solve_r((const double*)a, n, perm, (const double*)rhs, (double*)x,
                  m);
  }
  return 1;
}

static void inverse_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int64_t n = 0, batch = square_input(k, in, &n), b;
  int cplx = is_cplx(in->dtype), adj = kutil_attr_bool(k, "adjoint", 0);
  size_t es = work_esize(in->dtype);
  TF_Tensor* out;
  void *a = NULL, *x = NULL, *id = NULL;
  int64_t* perm = NULL;
  if (batch < 0) return;
  out = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims, in->num_dims);
  if (out == NULL || batch == 0 || n == 0) return;
  a = tfe_malloc((size_t)(n * n) * es);
  x = tfe_malloc((size_t)(n * n) * es);
  id = tfe_malloc((size_t)(n * n) * es);
  perm = (int64_t*)tfe_malloc((size_t)n * sizeof(int64_t));
  if (a == NULL || x == NULL || id == NULL || perm == NULL) {
    oom(k, "MatrixInverse");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    load_w(in, b * n * n, n * n, a);
    if (!lu_solve_one(a, n, adj, cplx, is_f32(in->dtype), perm, NULL, x, n,
                      id)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input is not invertible.");
      goto done;
    }
    store_w(out, b * n * n, n * n, x);
  }
done:
  tfe_free(a);
  tfe_free(x);
  tfe_free(id);
  tfe_free(perm);
}

static void solve_compute(tfe_kernel_context* k) {
  const TF_Tensor *mat = k->inputs[0], *rhs = k->inputs[1];
  int r = mat->num_dims, i, cplx = is_cplx(mat->dtype);
  int adj = kutil_attr_bool(k, "adjoint", 0);
  int64_t batch = 1, n, m, b;
  size_t es = work_esize(mat->dtype);
  TF_Tensor* out;
  void *a = NULL, *bb = NULL, *x = NULL;
  int64_t* perm = NULL;
  if (r < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor 0 must have rank >= 2, got %d", r);
    return;
  }
  if (rhs->num_dims != r) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "All input tensors must have the same rank.");
    return;
  }
  for (i = 0; i < r - 2; i++) {
    if (mat->dims[i] != rhs->dims[i]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "All input tensors must have the same outer dimensions.");
      return;
    }
    batch *= mat->dims[i];
  }
  if (mat->dims[r - 1] != mat->dims[r - 2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "First input (lhs) must be a square matrix.");
    return;
  }
  n = mat->dims[r - 1];
  if (rhs->dims[r - 2] != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input matrix and rhs are incompatible.");
    return;
  }
  m = rhs->dims[r - 1];
  out = tfe_kernel_alloc_output(k, 0, mat->dtype, rhs->dims, r);
  if (out == NULL || batch == 0 || n == 0) return;
  a = tfe_malloc((size_t)(n * n) * es);
  bb = tfe_malloc((size_t)(n * m + 1) * es);
  x = tfe_malloc((size_t)(n * m + 1) * es);
  perm = (int64_t*)tfe_malloc((size_t)n * sizeof(int64_t));
  if (a == NULL || bb == NULL || x == NULL || perm == NULL) {
    oom(k, "MatrixSolve");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    load_w(mat, b * n * n, n * n, a);
    load_w(rhs, b * n * m, n * m, bb);
    if (!lu_solve_one(a, n, adj, cplx, is_f32(mat->dtype), perm, bb, x, m,
                      NULL)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input matrix is not invertible.");
      goto done;
    }
    store_w(out, b * n * m, n * m, x);
  }
done:
  tfe_free(a);
  tfe_free(bb);
  tfe_free(x);
  tfe_free(perm);
}

/* ---- Cholesky ---- */

static void cholesky_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int64_t n = 0, batch = square_input(k, in, &n), b, i, j;
  int cplx = is_cplx(in->dtype);
  TF_Tensor* out;
  void* a;
  if (batch < 0) return;
  out = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims, in->num_dims);
  if (out == NULL || batch == 0 || n == 0) return;
  a = tfe_malloc((size_t)(n * n) * work_esize(in->dtype));
  if (a == NULL) {
    oom(k, "Cholesky");
    return;
  }
  for (b = 0; b < batch; b++) {
    int ok;
    load_w(in, b * n * n, n * n, a);
    ok = is_f32(in->dtype) ? la_cholesky_f((float*)a, n)
         : cplx            ? la_cholesky_c((la_c*)a, n)
                           : la_cholesky_r((double*)a, n);
    if (!ok) {
      /* Not positive definite: NaN below and on the diagonal. */
      for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
          if (is_f32(in->dtype)) {
            ((float*)a)[i * n + j] = j <= i ? NAN : 0.0f;
          } else if (cplx) {
            ((la_c*)a)[i * n + j] = j <= i ? CMPLX(NAN, NAN) : 0;
          } else {
            ((double*)a)[i * n + j] = j <= i ? NAN : 0.0;
          }
        }
      }
    }
    store_w(out, b * n * n, n * n, a);
  }
  tfe_free(a);
}

/* ---- MatrixTriangularSolve (batch dims broadcast) ---- */

static void trisolve_compute(tfe_kernel_context* k) {
  const TF_Tensor *mat = k->inputs[0], *rhs = k->inputs[1];
  int lower = kutil_attr_bool(k, "lower", 1);
  int adj = kutil_attr_bool(k, "adjoint", 0), cplx = is_cplx(mat->dtype);
  int rm = mat->num_dims, rr = rhs->num_dims, rb, i;
  int64_t od[TFE_MAX_LA_DIMS], n, m, batch = 1, b;
  size_t es = work_esize(mat->dtype);
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
  if (rb + 2 > TFE_MAX_LA_DIMS) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "MatrixTriangularSolve supports at most %d dimensions",
               TFE_MAX_LA_DIMS);
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
  if (mat->dims[rm - 1] != mat->dims[rm - 2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "In[0] matrices in the last dimensions must be square (%lld "
               "=/= %lld)",
               (long long)mat->dims[rm - 1], (long long)mat->dims[rm - 2]);
    return;
  }
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
  a = tfe_malloc((size_t)(n * n) * es);
  x = tfe_malloc((size_t)(n * m) * es);
  if (a == NULL || x == NULL) {
    oom(k, "MatrixTriangularSolve");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    /* Map the broadcast batch index to each input's own batch index. */
    int64_t rem = b, im = 0, ir = 0, sm = 1, sr = 1;
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
    load_w(mat, im * n * n, n * n, a);
    load_w(rhs, ir * n * m, n * m, x);
    if (is_f32(mat->dtype)) {
      la_trisolve_f((const float*)a, n, lower, adj, (float*)x, m);
    } else if (cplx) {
      la_trisolve_c((const la_c*)a, n, lower, adj, (la_c*)x, m);
    } else {
      la_trisolve_r((const double*)a, n, lower, adj, (double*)x, m);
    }
    store_w(out, b * n * m, n * m, x);
  }
done:
  tfe_free(a);
  tfe_free(x);
}

/* ---- Qr ---- */

static void qr_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int r = in->num_dims, i, cplx = is_cplx(in->dtype);
  int full = kutil_attr_bool(k, "full_matrices", 0);
  int64_t m, n, kk, kq, rr, batch = 1, b, qd[TFE_MAX_LA_DIMS],
                                     rd[TFE_MAX_LA_DIMS];
  size_t es = work_esize(in->dtype);
  double tol = (in->dtype == TF_DOUBLE || in->dtype == TF_COMPLEX128)
                   ? 2.2250738585072014e-308
               : in->dtype == TF_HALF ? 6.103515625e-05
                                      : 1.1754943508222875e-38;
  TF_Tensor *qo, *ro;
  void *a = NULL, *tau = NULL, *q = NULL;
  if (r < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor 0 must have rank >= 2, got %d", r);
    return;
  }
  if (r > TFE_MAX_LA_DIMS) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Qr supports at most %d dimensions",
               TFE_MAX_LA_DIMS);
    return;
  }
  m = in->dims[r - 2];
  n = in->dims[r - 1];
  kk = m < n ? m : n;
  kq = full ? m : kk;
  rr = full ? m : kk;
  for (i = 0; i < r - 2; i++) {
    batch *= in->dims[i];
    qd[i] = rd[i] = in->dims[i];
  }
  qd[r - 2] = m;
  qd[r - 1] = kq;
  rd[r - 2] = rr;
  rd[r - 1] = n;
  qo = tfe_kernel_alloc_output(k, 0, in->dtype, qd, r);
  if (qo == NULL) return;
  ro = tfe_kernel_alloc_output(k, 1, in->dtype, rd, r);
  if (ro == NULL || batch == 0) return;
  if (m == 0 || n == 0) {
    /* no reflectors: Q is the identity's first columns, R is empty or 0 */
    if (kutil_num_elements(qo) > 0) {
      void* id = tfe_calloc((size_t)(m * kq), es);
      if (id == NULL) {
        oom(k, "Qr");
        return;
      }
      for (i = 0; i < m && i < kq; i++) {
        if (cplx) ((la_c*)id)[i * kq + i] = 1;
        else ((double*)id)[i * kq + i] = 1;
      }
      for (b = 0; b < batch; b++) store_n(qo, b * m * kq, m * kq, id);
      tfe_free(id);
    }
    if (kutil_num_elements(ro) > 0) {
      memset(kutil_data(ro), 0,
             (size_t)kutil_num_elements(ro) * kutil_esize(in->dtype));
    }
    return;
  }
  a = tfe_malloc((size_t)(m * n) * es);
  tau = tfe_malloc((size_t)kk * es);
  q = tfe_malloc((size_t)(m * kq) * es);
  if (a == NULL || tau == NULL || q == NULL) {
    oom(k, "Qr");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    int64_t y, x;
    if (is_f32(in->dtype)) {
      load_w(in, b * m * n, m * n, a);
      la_qr_f((float*)a, m, n, (float*)tau, tol);
      la_qr_q_f((const float*)a, m, n, (const float*)tau, (float*)q, kq);
      for (y = 0; y < m; y++) {
        for (x = 0; x < y && x < n; x++) ((float*)a)[y * n + x] = 0;
      }
      store_w(qo, b * m * kq, m * kq, q);
      store_w(ro, b * rr * n, rr * n, a);
      continue;
    }
    load_n(in, b * m * n, m * n, a);
    if (cplx) {
      la_qr_c((la_c*)a, m, n, (la_c*)tau, tol);
      la_qr_q_c((const la_c*)a, m, n, (const la_c*)tau, (la_c*)q, kq);
      for (y = 0; y < m; y++) {
        for (x = 0; x < y && x < n; x++) ((la_c*)a)[y * n + x] = 0;
      }
    } else {
      la_qr_r((double*)a, m, n, (double*)tau, tol);
      la_qr_q_r((const double*)a, m, n, (const double*)tau, (double*)q, kq);
      for (y = 0; y < m; y++) {
        for (x = 0; x < y && x < n; x++) ((double*)a)[y * n + x] = 0;
      }
    }
    store_n(qo, b * m * kq, m * kq, q);
    store_n(ro, b * rr * n, rr * n, a);
  }
done:
  tfe_free(a);
  tfe_free(tau);
  tfe_free(q);
}

/* ---- SelfAdjointEigV2 ---- */

static void eig_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int64_t n = 0, batch = square_input(k, in, &n), b, i;
  int cplx = is_cplx(in->dtype), cv = kutil_attr_bool(k, "compute_v", 1);
  size_t es = work_esize(in->dtype);
  TF_Tensor *eo, *vo;
  void *a = NULL, *v = NULL, *w = NULL, *ev = NULL;
  double *d = NULL, *dw = NULL;
  int single = in->dtype == TF_FLOAT || in->dtype == TF_COMPLEX64;
  double eps = single ? 1.1920928955078125e-07 : 2.220446049250313e-16;
  double tiny = single ? 1.1754943508222875e-38 : 2.2250738585072014e-308;
  if (batch < 0) return;
  eo = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims, in->num_dims - 1);
  if (eo == NULL) return;
  /* Without compute_v TF returns a zero scalar for v. */
  vo = cv ? tfe_kernel_alloc_output(k, 1, in->dtype, in->dims, in->num_dims)
          : tfe_kernel_alloc_output(k, 1, in->dtype, NULL, 0);
  if (vo == NULL) return;
  if (!cv) memset(kutil_data(vo), 0, kutil_esize(in->dtype));
  if (batch == 0 || n == 0) return;
  a = tfe_malloc((size_t)(n * n) * es);
  v = tfe_malloc((size_t)(n * n) * es);
  w = tfe_malloc((size_t)(2 * n) * es);
  ev = tfe_malloc((size_t)n * es);
  d = (double*)tfe_malloc((size_t)n * sizeof(double));
  dw = (double*)tfe_malloc((size_t)(2 * n) * sizeof(double));
  if (a == NULL || v == NULL || w == NULL || ev == NULL || d == NULL ||
      dw == NULL) {
    oom(k, "SelfAdjointEigV2");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    int ok;
    if (in->dtype == TF_FLOAT) {
      /* float arithmetic throughout, on float copies of the buffers */
      float* fa = (float*)a;
      float* fv = (float*)v;
      float* fd = (float*)ev;
      memcpy(fa, (const float*)kutil_data(in) + b * n * n,
             (size_t)(n * n) * sizeof(float));
      ok = la_eigh_f(fa, n, fd, cv ? fv : NULL, (float*)w, (float*)dw,
                     (float)eps, (float)tiny);
      if (!ok) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Self-adjoint eigen decomposition was not successful. "
                   "The input might not be valid.");
        goto done;
      }
      memcpy((float*)kutil_data(eo) + b * n, fd, (size_t)n * sizeof(float));
      if (cv) {
        memcpy((float*)kutil_data(vo) + b * n * n, fv,
               (size_t)(n * n) * sizeof(float));
      }
      continue;
    }
    load_n(in, b * n * n, n * n, a);
    ok = cplx ? la_eigh_c((la_c*)a, n, d, cv ? (la_c*)v : NULL, (la_c*)w, dw,
                          eps, tiny)
              : la_eigh_r((double*)a, n, d, cv ? (double*)v : NULL,
                          (double*)w, dw, eps, tiny);
    if (!ok) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Self-adjoint eigen decomposition was not successful. The "
                 "input might not be valid.");
      goto done;
    }
    for (i = 0; i < n; i++) {
      if (cplx) ((la_c*)ev)[i] = d[i];
      else ((double*)ev)[i] = d[i];
    }
    store_n(eo, b * n, n, ev);
    if (cv) store_n(vo, b * n * n, n * n, v);
  }
done:
  tfe_free(a);
  tfe_free(v);
  tfe_free(w);
  tfe_free(ev);
  tfe_free(d);
  tfe_free(dw);
}

/* ---- Lu ---- */

/* lu holds L (unit diagonal, below) and U (on and above the diagonal) of
 * the row-permuted input; p[i] is the input row that ended up at row i. */
static void lu_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int r = in->num_dims, cplx = is_cplx(in->dtype);
  int64_t n, batch = 1, b, i;
  size_t es = work_esize(in->dtype);
  TF_DataType pt = TF_INT32;
  TF_Tensor *lo, *po;
  void* a = NULL;
  int64_t* perm = NULL;
  if (k->attrs != NULL) {
    tfe_attrs_get_type(k->attrs, "output_idx_type", &pt, NULL);
  }
  if (r < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor must have rank >= 2, got %d", r);
    return;
  }
  if (in->dims[r - 1] != in->dims[r - 2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input matrix must be square.");
    return;
  }
  n = in->dims[r - 1];
  for (i = 0; i < r - 2; i++) batch *= in->dims[i];
  lo = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims, r);
  if (lo == NULL) return;
  po = tfe_kernel_alloc_output(k, 1, pt, in->dims, r - 1);
  if (po == NULL || batch == 0 || n == 0) return;
  a = tfe_malloc((size_t)(n * n) * es);
  perm = (int64_t*)tfe_malloc((size_t)n * sizeof(int64_t));
  if (a == NULL || perm == NULL) {
    oom(k, "Lu");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    double mp;
    load_w(in, b * n * n, n * n, a);
    if (is_f32(in->dtype)) {
      la_lu_f((float*)a, n, perm);
      mp = la_min_pivot_f((const float*)a, n);
    } else if (cplx) {
      la_lu_c((la_c*)a, n, perm);
      mp = la_min_pivot_c((const la_c*)a, n);
    } else {
      la_lu_r((double*)a, n, perm);
      mp = la_min_pivot_r((const double*)a, n);
    }
    if (!(mp > 0)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input is not invertible.");
      goto done;
    }
    store_w(lo, b * n * n, n * n, a);
    for (i = 0; i < n; i++) {
      if (pt == TF_INT64) ((int64_t*)kutil_data(po))[b * n + i] = perm[i];
      else ((int32_t*)kutil_data(po))[b * n + i] = (int32_t)perm[i];
    }
  }
done:
  tfe_free(a);
  tfe_free(perm);
}

void tfe_register_nnlinalg_la_kernels(void) {
  static const TF_DataType kT[] = {TF_COMPLEX128, TF_COMPLEX64, TF_DOUBLE,
                                   TF_FLOAT};
  /* TF registers MatrixInverse for half as well. */
  static const TF_DataType kInv[] = {TF_COMPLEX128, TF_COMPLEX64, TF_DOUBLE,
                                     TF_FLOAT, TF_HALF};
  static const TF_DataType kQr[] = {TF_HALF, TF_FLOAT, TF_DOUBLE,
                                    TF_COMPLEX64, TF_COMPLEX128};
  tfe_kutil_register("SelfAdjointEigV2", eig_compute, "T", kT,
                     KUTIL_COUNT(kT), NULL, NULL, 0);
  {
    static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
    tfe_kutil_register("Lu", lu_compute, "T", kT, KUTIL_COUNT(kT),
                       "output_idx_type", kIdx, KUTIL_COUNT(kIdx));
  }
  tfe_kutil_register("Qr", qr_compute, "T", kQr, KUTIL_COUNT(kQr), NULL,
                     NULL, 0);
  tfe_kutil_register("MatrixDeterminant", det_compute, "T", kT,
                     KUTIL_COUNT(kT), NULL, NULL, 0);
  tfe_kutil_register("LogMatrixDeterminant", logdet_compute, "T", kT,
                     KUTIL_COUNT(kT), NULL, NULL, 0);
  tfe_kutil_register("MatrixInverse", inverse_compute, "T", kInv,
                     KUTIL_COUNT(kInv), NULL, NULL, 0);
  tfe_kutil_register("Cholesky", cholesky_compute, "T", kT, KUTIL_COUNT(kT),
                     NULL, NULL, 0);
  tfe_kutil_register("MatrixSolve", solve_compute, "T", kT, KUTIL_COUNT(kT),
                     NULL, NULL, 0);
  tfe_kutil_register("MatrixTriangularSolve", trisolve_compute, "T", kT,
                     KUTIL_COUNT(kT), NULL, NULL, 0);
}
