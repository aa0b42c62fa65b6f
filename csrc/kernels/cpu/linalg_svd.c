/* Svd CPU kernel (float, double, complex64, complex128; the half in the op
 * definition has no CPU kernel in TF either).
 *
 * One-sided Jacobi (Hestenes) in double precision: the columns of the
 * tall matrix W (A, or A^H when A is wide) are rotated pairwise until all
 * are orthogonal; the column norms are then the singular values, the
 * normalised columns the left singular vectors, and the accumulated
 * rotations the right ones. For complex input each rotation first turns
 * the pair's inner product real by a phase. The singular values come out
 * sorted descending; singular vectors for zero singular values, and the
 * extra columns full_matrices asks for, are completed to an orthonormal
 * basis by Gram-Schmidt over the unit vectors. Vectors may differ from
 * TF's (LAPACK-style) ones by a sign or phase per column, as any SVD may.
 *
 * Outputs as TF: s [..., p]; u [..., m, p] ([..., m, m] with
 * full_matrices) and v [..., n, p] ([..., n, n]) with A = u diag(s) v^H;
 * without compute_uv, u and v are scalars (TF's kernel allocates them as
 * such; tfe writes 0). An input with a NaN or infinity gives NaN
 * everywhere, as TF's does. */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/image_kernels.h"
#include "kernels/cpu/kutil.h"

typedef double _Complex zd;

static zd load(const TF_Tensor* t, int64_t i) {
  const void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_COMPLEX64: {
      const float* p = (const float*)d + 2 * i;
      return p[0] + p[1] * I;
    }
    case TF_COMPLEX128: {
      const double* p = (const double*)d + 2 * i;
      return p[0] + p[1] * I;
    }
    default: return 0;
  }
}

static void store(TF_Tensor* t, int64_t i, zd v) {
  void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: ((float*)d)[i] = (float)creal(v); break;
    case TF_DOUBLE: ((double*)d)[i] = creal(v); break;
    case TF_COMPLEX64:
      ((float*)d)[2 * i] = (float)creal(v);
      ((float*)d)[2 * i + 1] = (float)cimag(v);
      break;
    case TF_COMPLEX128:
      ((double*)d)[2 * i] = creal(v);
      ((double*)d)[2 * i + 1] = cimag(v);
      break;
    default: break;
  }
}

static double col_norm2(const zd* c, int64_t n) {
  double s = 0;
  int64_t i;
  for (i = 0; i < n; i++) s += creal(c[i]) * creal(c[i]) + cimag(c[i]) * cimag(c[i]);
  return s;
}

/* Makes column `col` of the M-row column-major Q (columns [0, M) of which
 * `valid[j]` are already orthonormal) a unit vector orthogonal to them. */
static void complete_column(zd* q, int64_t M, int64_t ncols, const char* valid,
                            int64_t col) {
  int64_t e, j, i;
  zd* c = q + col * M;
  for (e = 0; e < M; e++) {
    int pass;
    double nrm;
    for (i = 0; i < M; i++) c[i] = (i == e) ? 1.0 : 0.0;
    for (pass = 0; pass < 2; pass++) {
      for (j = 0; j < ncols; j++) {
        const zd* o = q + j * M;
        zd dot = 0;
        if (j == col || !valid[j]) continue;
        for (i = 0; i < M; i++) dot += conj(o[i]) * c[i];
        for (i = 0; i < M; i++) c[i] -= dot * o[i];
      }
    }
    nrm = sqrt(col_norm2(c, M));
    if (nrm > 0.5) {
      for (i = 0; i < M; i++) c[i] /= nrm;
      return;
    }
  }
}

typedef struct svd_ws {
  zd* w;     /* M x N working columns, later U (M x M when full) */
  zd* v;     /* N x N rotations */
  double* s; /* N */
  int64_t* order;
  char* valid;
  zd* tmp;
} svd_ws;

/* SVD of one tall M x N (M >= N) matrix held in ws->w (column-major).
 * Leaves s sorted descending, w's first N (or M when ucols == M) columns
 * orthonormal, v the right vectors, all in sorted order. */
static void jacobi_svd(svd_ws* ws, int64_t M, int64_t N, int64_t ucols) {
  zd* w = ws->w;
  zd* v = ws->v;
  int64_t i, j, p, q;
  int sweep;
  const double eps = 2.220446049250313e-16;
  for (i = 0; i < N * N; i++) v[i] = 0;
  for (i = 0; i < N; i++) v[i * N + i] = 1.0;
  for (sweep = 0; sweep < 80; sweep++) {
    int rotated = 0;
    for (p = 0; p + 1 < N; p++) {
      for (q = p + 1; q < N; q++) {
        zd* a = w + p * M;
        zd* b = w + q * M;
        double alpha = col_norm2(a, M), beta = col_norm2(b, M), g, zeta, t, c,
               sn;
        zd gamma = 0, ph;
        for (i = 0; i < M; i++) gamma += conj(a[i]) * b[i];
        g = cabs(gamma);
        if (g == 0 || !(g > eps * sqrt(alpha * beta))) continue;
        rotated = 1;
        ph = gamma / g; /* b * conj(ph) has a real inner product with a */
        zeta = (beta - alpha) / (2.0 * g);
        t = (zeta >= 0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1.0 + zeta * zeta));
        c = 1.0 / sqrt(1.0 + t * t);
        sn = c * t;
        for (i = 0; i < M; i++) {
          zd x = a[i], y = b[i] * conj(ph);
          a[i] = c * x - sn * y;
          b[i] = sn * x + c * y;
        }
        for (i = 0; i < N; i++) {
          zd x = v[p * N + i], y = v[q * N + i] * conj(ph);
          v[p * N + i] = c * x - sn * y;
          v[q * N + i] = sn * x + c * y;
        }
      }
    }
    if (!rotated) break;
  }
  for (j = 0; j < N; j++) {
    ws->s[j] = sqrt(col_norm2(w + j * M, M));
    ws->order[j] = j;
  }
  /* insertion sort by descending singular value (stable) */
  for (i = 1; i < N; i++) {
    int64_t o = ws->order[i];
    j = i;
    while (j > 0 && ws->s[ws->order[j - 1]] < ws->s[o]) {
      ws->order[j] = ws->order[j - 1];
      j--;
    }
    ws->order[j] = o;
  }
  /* permute columns of w and v into sorted order */
  memcpy(ws->tmp, w, sizeof(zd) * (size_t)(M * N));
  for (j = 0; j < N; j++) {
    memcpy(w + j * M, ws->tmp + ws->order[j] * M, sizeof(zd) * (size_t)M);
  }
  memcpy(ws->tmp, v, sizeof(zd) * (size_t)(N * N));
  for (j = 0; j < N; j++) {
    memcpy(v + j * N, ws->tmp + ws->order[j] * N, sizeof(zd) * (size_t)N);
  }
  for (j = 0; j < N; j++) ws->tmp[j] = ws->s[ws->order[j]];
  for (j = 0; j < N; j++) ws->s[j] = creal(ws->tmp[j]);
  /* normalise U columns; mark the ones that need completing */
  for (j = 0; j < ucols; j++) {
    ws->valid[j] = 0;
    if (j < N && ws->s[j] > 0) {
      double inv = 1.0 / ws->s[j];
      for (i = 0; i < M; i++) w[j * M + i] *= inv;
      ws->valid[j] = 1;
    }
  }
  for (j = 0; j < ucols; j++) {
    if (!ws->valid[j]) {
      complete_column(w, M, ucols, ws->valid, j);
      ws->valid[j] = 1;
    }
  }
}

static void svd_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType dt = in->dtype;
  int uv = kutil_attr_bool(k, "compute_uv", 1);
  int full = kutil_attr_bool(k, "full_matrices", 0);
  int r = in->num_dims, i;
  int64_t m, n, p, batch, b, M, N, ucols_m, vcols, sd[TFE_MAX_DIMS],
      ud[TFE_MAX_DIMS], vd[TFE_MAX_DIMS], x, y;
  TF_Tensor *so, *uo = NULL, *vo = NULL;
  svd_ws ws;
  if (r < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor 0 must have rank >= 2, got %d", r);
    return;
  }
  m = in->dims[r - 2];
  n = in->dims[r - 1];
  p = m < n ? m : n;
  batch = kutil_dims_prod(in->dims, 0, r - 2);
  for (i = 0; i < r - 2; i++) sd[i] = ud[i] = vd[i] = in->dims[i];
  sd[r - 2] = p;
  ucols_m = full ? m : p;
  vcols = full ? n : p;
  ud[r - 2] = m;
  ud[r - 1] = ucols_m;
  vd[r - 2] = n;
  vd[r - 1] = vcols;
  so = tfe_kernel_alloc_output(k, 0, dt, sd, r - 1);
  if (so == NULL) return;
  if (uv) {
    uo = tfe_kernel_alloc_output(k, 1, dt, ud, r);
    if (uo == NULL) return;
    vo = tfe_kernel_alloc_output(k, 2, dt, vd, r);
    if (vo == NULL) return;
  } else {
    uo = tfe_kernel_alloc_output(k, 1, dt, NULL, 0);
    if (uo == NULL) return;
    vo = tfe_kernel_alloc_output(k, 2, dt, NULL, 0);
    if (vo == NULL) return;
    store(uo, 0, 0);
    store(vo, 0, 0);
  }
  if (batch == 0) return;
  /* W is tall: M >= N. */
  M = m >= n ? m : n;
  N = m >= n ? n : m;
  memset(&ws, 0, sizeof ws);
  {
    int64_t wcols = full ? M : N; /* room for completing to M x M */
    ws.w = (zd*)tfe_malloc(sizeof(zd) * (size_t)(M * wcols + 1));
    ws.tmp = (zd*)tfe_malloc(sizeof(zd) * (size_t)(M * (N > 1 ? N : 1) + N * N + 1));
    ws.v = (zd*)tfe_malloc(sizeof(zd) * (size_t)(N * N + 1));
    ws.s = (double*)tfe_malloc(sizeof(double) * (size_t)(N + 1));
    ws.order = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(N + 1));
    ws.valid = (char*)tfe_malloc((size_t)(M + 1));
  }
  if (ws.w == NULL || ws.tmp == NULL || ws.v == NULL || ws.s == NULL ||
      ws.order == NULL || ws.valid == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Svd");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    int64_t base = b * m * n, wu;
    int finite = 1;
    for (x = 0; x < m * n; x++) {
      zd a = load(in, base + x);
      if (!isfinite(creal(a)) || !isfinite(cimag(a))) finite = 0;
    }
    if (!finite) {
      zd nanv = NAN + NAN * I;
      if (dt == TF_FLOAT || dt == TF_DOUBLE) nanv = NAN;
      for (x = 0; x < p; x++) store(so, b * p + x, NAN);
      if (uv) {
        for (x = 0; x < m * ucols_m; x++) store(uo, b * m * ucols_m + x, nanv);
        for (x = 0; x < n * vcols; x++) store(vo, b * n * vcols + x, nanv);
      }
      continue;
    }
    /* load W column-major: W = A (m >= n) or A^H */
    for (y = 0; y < m; y++) {
      for (x = 0; x < n; x++) {
        zd a = load(in, base + y * n + x);
        if (m >= n) {
          ws.w[x * M + y] = a;
        } else {
          ws.w[y * M + x] = conj(a);
        }
      }
    }
    /* columns of W's U needed: M when the tall side is full */
    wu = full ? M : N;
    jacobi_svd(&ws, M, N, wu);
    for (x = 0; x < p; x++) store(so, b * p + x, ws.s[x]);
    if (!uv) continue;
    if (m >= n) {
      /* u = W's U (m x ucols), v = V (n x vcols; vcols == n == N) */
      for (y = 0; y < m; y++) {
        for (x = 0; x < ucols_m; x++) {
          store(uo, b * m * ucols_m + y * ucols_m + x, ws.w[x * M + y]);
        }
      }
      for (y = 0; y < n; y++) {
        for (x = 0; x < vcols; x++) {
          store(vo, b * n * vcols + y * vcols + x, ws.v[x * N + y]);
        }
      }
    } else {
      /* A = V S U^H: u = V (m x m), v = W's U (n x vcols) */
      for (y = 0; y < m; y++) {
        for (x = 0; x < ucols_m; x++) {
          store(uo, b * m * ucols_m + y * ucols_m + x, ws.v[x * N + y]);
        }
      }
      for (y = 0; y < n; y++) {
        for (x = 0; x < vcols; x++) {
          store(vo, b * n * vcols + y * vcols + x, ws.w[x * M + y]);
        }
      }
    }
  }
done:
  tfe_free(ws.w);
  tfe_free(ws.tmp);
  tfe_free(ws.v);
  tfe_free(ws.s);
  tfe_free(ws.order);
  tfe_free(ws.valid);
}

void tfe_register_cpu_svd_kernels(void) {
  static const TF_DataType kT[] = {TF_FLOAT, TF_DOUBLE, TF_COMPLEX64,
                                   TF_COMPLEX128};
  tfe_kutil_register("Svd", svd_compute, "T", kT, KUTIL_COUNT(kT), NULL, NULL,
                     0);
}
