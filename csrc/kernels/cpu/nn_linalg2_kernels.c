/* CPU kernels: remaining nn and linalg ops (issue 18, session 8).
 * Definitions and shape rules come from TF 2.21's generated registry
 * (csrc/ops/defs_generated.c, shape_infer_rules_generated.c).
 *
 * This file: the ops TF 2.21 still registers kernels for but refuses to
 * run because their GraphDef version has passed (the Batch* linalg ops,
 * SelfAdjointEig, MatrixExponential, BatchNormWithGlobalNormalization);
 * SparseMatMul; SparseSegment{Sum,Mean,SqrtN}GradV2; Eig.
 * The RNN block cells are in nn_linalg2_rnn.c, CTC in nn_linalg2_ctc.c,
 * the Fresnel integrals in nn_linalg2_special.c, MatrixSolveLs and
 * CholeskyGrad in nn_linalg2_la.c, Sparse/RaggedBincount in
 * nn_linalg2_bincount.c, FusedPadConv2D and FusedResizeAndPadConv2D in
 * nn_linalg2_fusedconv.c. */
#if defined(__GNUC__) && !defined(__clang__)
/* The Eig sweeps and the row loops rely on the loop vectorizer at full
 * strength (GCC's -O2 only vectorizes very cheap loops). */
#pragma GCC optimize("O3")
#endif

#include <complex.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/complex_compat.h"
#include "core/threadpool.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/matmul_gemm.h"
#include "kernels/cpu/nn_linalg2_common.h"

void tfe_register_cpu_nn_linalg2_kernels(void);

/* ------------------------------------------------------------------ removed
 * TF keeps CPU kernels for these ops, but its kernel constructor fails for
 * an op whose deprecation version is at or below the running GraphDef
 * version (2474 in TF 2.21), naming the version and the replacement. */

#define NNL2_GRAPH_DEF_VERSION 2474

typedef struct nnl2_removed {
  const char* name;
  int version;
  const char* advice;
} nnl2_removed;

static const nnl2_removed kRemoved[] = {
    {"BatchCholesky", 13, "Use Cholesky instead."},
    {"BatchMatrixDeterminant", 13, "Use MatrixDeterminant instead."},
    {"BatchMatrixInverse", 13, "Use MatrixInverse instead."},
    {"BatchMatrixSolve", 13, "Use MatrixSolve instead."},
    {"BatchMatrixSolveLs", 13, "Use MatrixSolveLs instead."},
    {"BatchMatrixTriangularSolve", 13, "Use MatrixTriangularSolve instead."},
    {"BatchSelfAdjointEig", 11, "Use SelfAdjointEigV2 instead."},
    {"BatchSelfAdjointEigV2", 13, "Use SelfAdjointEigV2 instead."},
    {"BatchSvd", 13, "Use Svd instead."},
    {"BatchCholeskyGrad", 13, "Use CholeskyGrad instead."},
    {"BatchMatrixBandPart", 14, "Use MatrixBandPart"},
    {"BatchMatrixDiag", 14, "Use MatrixDiag"},
    {"BatchMatrixDiagPart", 14, "Use MatrixDiagPart"},
    {"BatchMatrixSetDiag", 14, "Use MatrixSetDiag"},
    {"SelfAdjointEig", 11, "Use SelfAdjointEigV2 instead."},
    {"MatrixExponential", 27,
     "Use Python implementation tf.linalg.matrix_exponential instead."},
    {"BatchNormWithGlobalNormalization", 9, "Use tf.nn.batch_normalization()"},
    {"BatchNormWithGlobalNormalizationGrad", 9,
     "Use tf.nn.batch_normalization()"},
};

static void removed_compute(tfe_kernel_context* k) {
  const char* name = k->op_def != NULL ? k->op_def->name : "";
  int i;
  for (i = 0; i < KUTIL_COUNT(kRemoved); i++) {
    if (strcmp(kRemoved[i].name, name) == 0) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "Op %s is not available in GraphDef version %d. It has been "
                 "removed in version %d. %s.",
                 name, NNL2_GRAPH_DEF_VERSION, kRemoved[i].version,
                 kRemoved[i].advice);
      return;
    }
  }
  KUTIL_FAIL(k, TF_INTERNAL, "%s: not a removed op", name);
}

static void register_removed(void) {
  static const TF_DataType kFD[] = {TF_FLOAT, TF_DOUBLE};
  static const TF_DataType kFDC[] = {TF_FLOAT, TF_DOUBLE, TF_COMPLEX64,
                                     TF_COMPLEX128};
  static const TF_DataType kFDH[] = {TF_FLOAT, TF_DOUBLE, TF_HALF};
  static const TF_DataType kBand[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType kDiag[] = {KUTIL_NUMBER_TYPES, TF_BOOL};
  tfe_kutil_register("BatchCholesky", removed_compute, "T", kFD, 2, NULL,
                     NULL, 0);
  tfe_kutil_register("BatchMatrixDeterminant", removed_compute, "T", kFDC, 4,
                     NULL, NULL, 0);
  tfe_kutil_register("BatchMatrixInverse", removed_compute, "T", kFDH, 3,
                     NULL, NULL, 0);
  tfe_kutil_register("BatchMatrixSolve", removed_compute, "T", kFDC, 4, NULL,
                     NULL, 0);
  tfe_kutil_register("BatchMatrixSolveLs", removed_compute, "T", kFD, 2,
                     NULL, NULL, 0);
  tfe_kutil_register("BatchMatrixTriangularSolve", removed_compute, "T", kFDC,
                     4, NULL, NULL, 0);
  tfe_kutil_register("BatchSelfAdjointEig", removed_compute, "T", kFD, 2,
                     NULL, NULL, 0);
  tfe_kutil_register("BatchSelfAdjointEigV2", removed_compute, "T", kFDC, 4,
                     NULL, NULL, 0);
  tfe_kutil_register("BatchSvd", removed_compute, "T", kFDC, 4, NULL, NULL,
                     0);
  tfe_kutil_register("BatchCholeskyGrad", removed_compute, "T", kFD, 2, NULL,
                     NULL, 0);
  tfe_kutil_register("BatchMatrixBandPart", removed_compute, "T", kBand,
                     KUTIL_COUNT(kBand), NULL, NULL, 0);
  tfe_kutil_register("BatchMatrixDiag", removed_compute, "T", kDiag,
                     KUTIL_COUNT(kDiag), NULL, NULL, 0);
  tfe_kutil_register("BatchMatrixDiagPart", removed_compute, "T", kDiag,
                     KUTIL_COUNT(kDiag), NULL, NULL, 0);
  tfe_kutil_register("BatchMatrixSetDiag", removed_compute, "T", kDiag,
                     KUTIL_COUNT(kDiag), NULL, NULL, 0);
  tfe_kutil_register("SelfAdjointEig", removed_compute, "T", kFD, 2, NULL,
                     NULL, 0);
  tfe_kutil_register("MatrixExponential", removed_compute, "T", kFDC, 4, NULL,
                     NULL, 0);
  tfe_kutil_register("BatchNormWithGlobalNormalization", removed_compute, "T",
                     kFDH, 3, NULL, NULL, 0);
  tfe_kutil_register("BatchNormWithGlobalNormalizationGrad", removed_compute,
                     "T", kFDH, 3, NULL, NULL, 0);
}

/* ------------------------------------------------------------ shared GEMM */

typedef struct nnl2_gemm_job {
  int ta, tb;
  int64_t m, n, k, lda, ldb, ldc, unit;
  const float *a, *b;
  float* c;
  int failed;
} nnl2_gemm_job;

/* Columns [begin*unit, end*unit) of C. */
static void gemm_cols(void* arg, int64_t begin, int64_t end) {
  nnl2_gemm_job* j = (nnl2_gemm_job*)arg;
  int64_t c0 = begin * j->unit;
  int64_t c1 = end * j->unit < j->n ? end * j->unit : j->n;
  const float* b = j->tb ? j->b + c0 * j->ldb : j->b + c0;
  if (c1 <= c0) return;
  if (!tfe_gemm_f32(j->ta, j->tb, j->m, c1 - c0, j->k, j->a, j->lda, b,
                    j->ldb, j->c + c0, j->ldc)) {
    j->failed = 1;
  }
}

int nnl2_gemm(tfe_kernel_context* k, int ta, int tb, int64_t m, int64_t n,
              int64_t kk, const float* a, int64_t lda, const float* b,
              int64_t ldb, float* c, int64_t ldc) {
  nnl2_gemm_job job;
  tfe_threadpool* pool = k != NULL ? tfe_kernel_threadpool(k) : NULL;
  int nt = pool != NULL ? tfe_threadpool_size(pool) : 1;
  double flops = 2.0 * (double)m * (double)n * (double)kk;
  int64_t i;
  if (m == 0 || n == 0) return 1;
  if (kk == 0) {
    for (i = 0; i < m; i++) memset(c + i * ldc, 0, (size_t)n * sizeof(float));
    return 1;
  }
  job.ta = ta;
  job.tb = tb;
  job.m = m;
  job.n = n;
  job.k = kk;
  job.a = a;
  job.lda = lda;
  job.b = b;
  job.ldb = ldb;
  job.c = c;
  job.ldc = ldc;
  job.failed = 0;
  if (flops < 2.0e6 || nt <= 1 || n < 32) {
    job.unit = n;
    gemm_cols(&job, 0, 1);
    return !job.failed;
  }
  job.unit = (n + nt - 1) / nt;
  job.unit = (job.unit + 15) / 16 * 16;
  tfe_parallel_for(pool, (n + job.unit - 1) / job.unit, 1, gemm_cols, &job);
  return !job.failed;
}

/* ------------------------------------------------------------- SparseMatMul
 * A matrix product of float/bfloat16 operands with a float result. The
 * sparsity hints only choose an algorithm: a hinted operand that really is
 * mostly zeros is multiplied row by row over its nonzeros, else the
 * built-in GEMM runs. */

static float* to_f32(const TF_Tensor* t, int64_t n) {
  float* f;
  int64_t i;
  if (t->dtype == TF_FLOAT) return (float*)kutil_data(t);
  f = (float*)tfe_malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
  if (f == NULL) return NULL;
  for (i = 0; i < n; i++) {
    f[i] = kutil_bf16_to_f32(((const uint16_t*)kutil_data(t))[i]);
  }
  return f;
}

/* dst (cols x rows, row-major) = src^T, src rows x cols with row stride
 * lds; in tiles so that both sides stay in cache. */
static void transpose_f32(const float* src, int64_t rows, int64_t cols,
                          int64_t lds, float* dst) {
  int64_t i0, j0, i, j;
  for (i0 = 0; i0 < rows; i0 += 32) {
    int64_t i1 = i0 + 32 < rows ? i0 + 32 : rows;
    for (j0 = 0; j0 < cols; j0 += 32) {
      int64_t j1 = j0 + 32 < cols ? j0 + 32 : cols;
      for (i = i0; i < i1; i++) {
        for (j = j0; j < j1; j++) dst[j * rows + i] = src[i * lds + j];
      }
    }
  }
}

/* C = S D with S mostly zeros (the sparse hint): each row of S is
 * compressed to its nonzero (column, value) pairs, and C's row is built
 * from those rows of D in 64-column register-sized blocks. Zeros of S are
 * skipped, as in TF's sparse algorithm. */
typedef struct smm_job {
  const float* s; /* m x kk, row-major, contiguous */
  const float* d; /* kk x n, row-major, contiguous */
  float* c;       /* m x n, row-major, contiguous */
  int64_t kk, n;
  atomic_int oom;
} smm_job;

#define SMM_W 64
typedef float smm_v16 __attribute__((vector_size(64)));

KUTIL_CLONES static void smm_rows(void* arg, int64_t begin, int64_t end) {
  smm_job* j = (smm_job*)arg;
  int64_t kk = j->kk, n = j->n, i, p, q, j0, nz;
  int64_t* idx = (int64_t*)tfe_malloc((size_t)kk * sizeof(int64_t));
  float* val = (float*)tfe_malloc((size_t)kk * sizeof(float));
  if (idx == NULL || val == NULL) {
    atomic_store(&j->oom, 1);
    goto done;
  }
  for (i = begin; i < end; i++) {
    const float* srow = j->s + i * kk;
    float* crow = j->c + i * n;
    /* branch-free compression (the zeros are at random places) */
    nz = 0;
    for (p = 0; p < kk; p++) {
      idx[nz] = p;
      val[nz] = srow[p];
      nz += srow[p] != 0;
    }
    for (j0 = 0; j0 + SMM_W <= n; j0 += SMM_W) {
      /* two sets of four 16-float accumulators (two nonzeros per step, so
       * that the additions do not wait on each other), summed at the end */
      smm_v16 c0 = {0}, c1 = {0}, c2 = {0}, c3 = {0};
      smm_v16 e0 = {0}, e1 = {0}, e2 = {0}, e3 = {0};
      for (p = 0; p + 1 < nz; p += 2) {
        const float* dr = j->d + idx[p] * n + j0;
        const float* ds = j->d + idx[p + 1] * n + j0;
        smm_v16 x0, x1, x2, x3, y0, y1, y2, y3;
        float a = val[p], b = val[p + 1];
        memcpy(&x0, dr, sizeof x0);
        memcpy(&x1, dr + 16, sizeof x1);
        memcpy(&x2, dr + 32, sizeof x2);
        memcpy(&x3, dr + 48, sizeof x3);
        memcpy(&y0, ds, sizeof y0);
        memcpy(&y1, ds + 16, sizeof y1);
        memcpy(&y2, ds + 32, sizeof y2);
        memcpy(&y3, ds + 48, sizeof y3);
        c0 += a * x0;
        c1 += a * x1;
        c2 += a * x2;
        c3 += a * x3;
        e0 += b * y0;
        e1 += b * y1;
        e2 += b * y2;
        e3 += b * y3;
      }
      if (p < nz) {
        const float* dr = j->d + idx[p] * n + j0;
        smm_v16 x0, x1, x2, x3;
        float a = val[p];
        memcpy(&x0, dr, sizeof x0);
        memcpy(&x1, dr + 16, sizeof x1);
        memcpy(&x2, dr + 32, sizeof x2);
        memcpy(&x3, dr + 48, sizeof x3);
        c0 += a * x0;
        c1 += a * x1;
        c2 += a * x2;
        c3 += a * x3;
      }
      c0 += e0;
      c1 += e1;
      c2 += e2;
      c3 += e3;
      memcpy(crow + j0, &c0, sizeof c0);
      memcpy(crow + j0 + 16, &c1, sizeof c1);
      memcpy(crow + j0 + 32, &c2, sizeof c2);
      memcpy(crow + j0 + 48, &c3, sizeof c3);
    }
    if (j0 < n) {
      int64_t w = n - j0;
      float acc[SMM_W];
      for (q = 0; q < w; q++) acc[q] = 0;
      for (p = 0; p < nz; p++) {
        const float* drow = j->d + idx[p] * n + j0;
        float a = val[p];
        for (q = 0; q < w; q++) acc[q] += a * drow[q];
      }
      memcpy(crow + j0, acc, (size_t)w * sizeof(float));
    }
  }
done:
  tfe_free(idx);
  tfe_free(val);
}

/* C (m x n) = S (m x kk) D (kk x n), all contiguous row-major, on the
 * kernel's pool. 0 on OOM. */
static int sparse_left_product(tfe_kernel_context* k, const float* s,
                               const float* d, float* c, int64_t m,
                               int64_t kk, int64_t n) {
  smm_job job;
  job.s = s;
  job.d = d;
  job.c = c;
  job.kk = kk;
  job.n = n;
  atomic_init(&job.oom, 0);
  /* a chunk of rows is at least ~256k multiply-adds at full density */
  tfe_parallel_for(tfe_kernel_threadpool(k), m, 1 + 262144 / (kk * n + 1),
                   smm_rows, &job);
  return !atomic_load(&job.oom);
}

static int64_t count_nonzero(const float* x, int64_t n) {
  int64_t c = 0, i;
  for (i = 0; i < n; i++) c += x[i] != 0;
  return c;
}

static void sparse_matmul_compute(tfe_kernel_context* k) {
  const TF_Tensor* a = k->inputs[0];
  const TF_Tensor* b = k->inputs[1];
  int ta = kutil_attr_bool(k, "transpose_a", 0);
  int tb = kutil_attr_bool(k, "transpose_b", 0);
  int sa = kutil_attr_bool(k, "a_is_sparse", 0);
  int sb = kutil_attr_bool(k, "b_is_sparse", 0), use_sparse = 0;
  int64_t m, kk, kb, n, dims[2];
  float *fa = NULL, *fb = NULL, *t1 = NULL, *t2 = NULL, *t3 = NULL;
  TF_Tensor* out;
  kutil_shape_buf s1, s2;
  if (a->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "a is not a matrix");
    return;
  }
  if (b->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "b is not a matrix");
    return;
  }
  m = ta ? a->dims[1] : a->dims[0];
  kk = ta ? a->dims[0] : a->dims[1];
  kb = tb ? b->dims[1] : b->dims[0];
  n = tb ? b->dims[0] : b->dims[1];
  if (kk != kb) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Matrix size incompatible: a: %s, b: %s", kutil_tshape(a, &s1),
               kutil_tshape(b, &s2));
    return;
  }
  dims[0] = m;
  dims[1] = n;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, dims, 2);
  if (out == NULL || m == 0 || n == 0) return;
  if (kk == 0) {
    memset(kutil_data(out), 0, (size_t)(m * n) * sizeof(float));
    return;
  }
  fa = to_f32(a, m * kk);
  fb = to_f32(b, kk * n);
  if (fa == NULL || fb == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseMatMul");
    goto done;
  }
  /* A hinted operand that is at most 40% nonzero goes through the sparse
   * product (as the left factor: C = op(A) op(B), or C^T = op(B)^T op(A)^T
   * for a sparse b); anything else is a dense GEMM. */
  if (sa && count_nonzero(fa, m * kk) * 5 <= m * kk * 2) {
    use_sparse = 1;
  } else if (sb && count_nonzero(fb, kk * n) * 5 <= kk * n * 2) {
    use_sparse = 2;
  }
  if (use_sparse == 1) {
    /* S = op(A) (m x kk), D = op(B) (kk x n) */
    const float *s_ = fa, *d_ = fb;
    if (ta || tb) {
      t1 = (float*)tfe_malloc((size_t)(ta ? m * kk : 1) * sizeof(float));
      t2 = (float*)tfe_malloc((size_t)(tb ? kk * n : 1) * sizeof(float));
      if (t1 == NULL || t2 == NULL) goto oom;
      if (ta) {
        transpose_f32(fa, kk, m, m, t1);
        s_ = t1;
      }
      if (tb) {
        transpose_f32(fb, n, kk, kk, t2);
        d_ = t2;
      }
    }
    if (!sparse_left_product(k, s_, d_, (float*)kutil_data(out), m, kk, n)) {
      goto oom;
    }
  } else if (use_sparse == 2) {
    /* S = op(B)^T (n x kk), D = op(A)^T (kk x m), C^T (n x m) */
    const float *s_ = fb, *d_ = fa;
    t1 = (float*)tfe_malloc((size_t)(tb ? 1 : n * kk) * sizeof(float));
    t2 = (float*)tfe_malloc((size_t)(ta ? 1 : kk * m) * sizeof(float));
    t3 = (float*)tfe_malloc((size_t)(n * m) * sizeof(float));
    if (t1 == NULL || t2 == NULL || t3 == NULL) goto oom;
    if (!tb) {
      transpose_f32(fb, kk, n, n, t1);
      s_ = t1;
    }
    if (!ta) {
      transpose_f32(fa, m, kk, kk, t2);
      d_ = t2;
    }
    if (!sparse_left_product(k, s_, d_, t3, n, kk, m)) goto oom;
    transpose_f32(t3, n, m, m, (float*)kutil_data(out));
  } else if (!nnl2_gemm(k, ta, tb, m, n, kk, fa, a->dims[1], fb, b->dims[1],
                        (float*)kutil_data(out), n)) {
    goto oom;
  }
  goto done;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseMatMul");
done:
  if (fa != NULL && a->dtype != TF_FLOAT) tfe_free(fa);
  if (fb != NULL && b->dtype != TF_FLOAT) tfe_free(fb);
  tfe_free(t1);
  tfe_free(t2);
  tfe_free(t3);
}

/* ------------------------------------ SparseSegment{Sum,Mean,SqrtN}GradV2
 * Like the V1 gradients, but the output only has rows for the distinct
 * indices (sorted ascending), which come back as a second output. */

enum { SSG_SUM, SSG_MEAN, SSG_SQRTN };

static int cmp_i64(const void* x, const void* y) {
  int64_t a = *(const int64_t*)x, b = *(const int64_t*)y;
  return a < b ? -1 : a > b;
}

static void seg_grad_v2(tfe_kernel_context* k, int mode) {
  const TF_Tensor* g = k->inputs[0];
  const TF_Tensor* idx = k->inputs[1];
  const TF_Tensor* seg = k->inputs[2];
  const TF_Tensor* d0 = k->inputs[3];
  TF_DataType dt = g->dtype;
  int64_t n, m, w, out0, i, c, nu = 0;
  int64_t dims[TFE_MAX_DIMS];
  int64_t *ind = NULL, *ids = NULL, *cnt = NULL, *uniq = NULL, *pos = NULL;
  double* acc = NULL;
  TF_Tensor *out, *uo;
  int d;
  if (idx->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices should be a vector.");
    return;
  }
  if (seg->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "segment_ids should be a vector.");
    return;
  }
  if (d0->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "dense_output_dim0 should be a scalar.");
    return;
  }
  n = idx->dims[0];
  if (seg->dims[0] != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "segment_ids and indices should have same size.");
    return;
  }
  if (g->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape must be at least rank 1");
    return;
  }
  out0 = kutil_get_int(d0, 0);
  m = g->dims[0];
  w = kutil_dims_prod(g->dims, 1, g->num_dims);
  ind = nnl2_read_i64(idx);
  ids = nnl2_read_i64(seg);
  uniq = (int64_t*)tfe_malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  pos = (int64_t*)tfe_malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  if (ind == NULL || ids == NULL || uniq == NULL || pos == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in sparse segment gradient");
    goto done;
  }
  if (n > 0 && ids[n - 1] + 1 > m) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid number of segments");
    goto done;
  }
  for (i = 0; i < n; i++) {
    if (ids[i] < 0 || ids[i] >= m) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Segment id %lld out of range [0, %lld).",
                 (long long)ids[i], (long long)m);
      goto done;
    }
    if (ind[i] < 0 || ind[i] >= out0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Index %lld out of range [0, %lld).",
                 (long long)ind[i], (long long)out0);
      goto done;
    }
  }
  if (n > 0) {
    memcpy(uniq, ind, (size_t)n * sizeof(int64_t));
    qsort(uniq, (size_t)n, sizeof(int64_t), cmp_i64);
    nu = 1;
    for (i = 1; i < n; i++) {
      if (uniq[i] != uniq[nu - 1]) uniq[nu++] = uniq[i];
    }
    for (i = 0; i < n; i++) {
      int64_t* p = (int64_t*)bsearch(&ind[i], uniq, (size_t)nu,
                                     sizeof(int64_t), cmp_i64);
      pos[i] = p - uniq;
    }
  }
  dims[0] = nu;
  for (d = 1; d < g->num_dims; d++) dims[d] = g->dims[d];
  out = tfe_kernel_alloc_output(k, 0, dt, dims, g->num_dims);
  if (out == NULL) goto done;
  uo = tfe_kernel_alloc_output(k, 1, idx->dtype, &nu, 1);
  if (uo == NULL) goto done;
  for (i = 0; i < nu; i++) {
    if (idx->dtype == TF_INT64) ((int64_t*)kutil_data(uo))[i] = uniq[i];
    else ((int32_t*)kutil_data(uo))[i] = (int32_t)uniq[i];
  }
  if (nu == 0 || w == 0) goto done;
  cnt = (int64_t*)tfe_calloc((size_t)(m > 0 ? m : 1), sizeof(int64_t));
  acc = (double*)tfe_calloc((size_t)(nu * w), sizeof(double));
  if (cnt == NULL || acc == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in sparse segment gradient");
    goto done;
  }
  for (i = 0; i < n; i++) cnt[ids[i]]++;
  for (i = 0; i < n; i++) {
    double wt = mode == SSG_SUM    ? 1.0
                : mode == SSG_MEAN ? 1.0 / (double)cnt[ids[i]]
                                   : 1.0 / sqrt((double)cnt[ids[i]]);
    double* dst = acc + pos[i] * w;
    for (c = 0; c < w; c++) {
      dst[c] += nnl2_load(dt, kutil_data(g), ids[i] * w + c) * wt;
    }
  }
  for (i = 0; i < nu * w; i++) nnl2_store(dt, kutil_data(out), i, acc[i]);
done:
  tfe_free(ind);
  tfe_free(ids);
  tfe_free(uniq);
  tfe_free(pos);
  tfe_free(cnt);
  tfe_free(acc);
}

static void seg_sum_grad_v2(tfe_kernel_context* k) { seg_grad_v2(k, SSG_SUM); }
static void seg_mean_grad_v2(tfe_kernel_context* k) {
  seg_grad_v2(k, SSG_MEAN);
}
static void seg_sqrtn_grad_v2(tfe_kernel_context* k) {
  seg_grad_v2(k, SSG_SQRTN);
}

/* ---------------------------------------------------------------------- Eig
 * Complex input: eigen decomposition through the complex Schur form:
 * Householder reduction to Hessenberg form, shifted QR sweeps (Wilkinson
 * shifts) with Givens rotations, then eigenvectors of the triangular
 * factor by back substitution, mapped back and scaled to unit norm, all in
 * double complex; eigenvalues ordered by increasing modulus, as TF's
 * complex solver orders them. Real input: the real solver further down. */

typedef double _Complex nc;

static double cabs2(nc z) { return creal(z) * creal(z) + cimag(z) * cimag(z); }

/* Rotation [c s; -conj(s) c] mapping (x, y) to (r, 0). */
static void givens(nc x, nc y, double* c, nc* s) {
  double ax = cabs(x), r;
  if (cabs2(y) == 0) {
    *c = 1;
    *s = 0;
    return;
  }
  if (ax == 0) {
    *c = 0;
    *s = 1;
    return;
  }
  r = hypot(ax, cabs(y));
  *c = ax / r;
  *s = (x / ax) * conj(y) / r;
}

/* Reduces h (n x n, row-major) to upper triangular Schur form in place,
 * accumulating the unitary factor in z. Without `full` only the diagonal
 * (the eigenvalues) is wanted: z is left alone and the rotations only
 * touch the active block. Returns 0 when it does not converge. */
static int complex_schur(nc* h, nc* z, int64_t n, nc* v, int full) {
  int64_t i, j, kq, hi, l, iter = 0, total = 0;
  const double eps = 2.220446049250313e-16;
  for (i = 0; i < n * n; i++) z[i] = 0;
  for (i = 0; i < n; i++) z[i * n + i] = 1;
  /* Hessenberg reduction */
  for (kq = 0; kq + 2 < n; kq++) {
    double nx = 0, nv = 0;
    nc alpha, x0;
    int64_t len = n - kq - 1;
    for (i = 0; i < len; i++) {
      v[i] = h[(kq + 1 + i) * n + kq];
      nx += cabs2(v[i]);
    }
    nx = sqrt(nx);
    if (nx == 0) continue;
    x0 = v[0];
    alpha = cabs(x0) > 0 ? -(x0 / cabs(x0)) * nx : -nx;
    v[0] -= alpha;
    for (i = 0; i < len; i++) nv += cabs2(v[i]);
    if (nv == 0) continue;
    nv = sqrt(nv);
    for (i = 0; i < len; i++) v[i] /= nv;
    /* rows: H = (I - 2vv*) H */
    for (j = 0; j < n; j++) {
      nc dot = 0;
      for (i = 0; i < len; i++) dot += conj(v[i]) * h[(kq + 1 + i) * n + j];
      for (i = 0; i < len; i++) h[(kq + 1 + i) * n + j] -= 2 * v[i] * dot;
    }
    /* columns: H = H (I - 2vv*), Z = Z (I - 2vv*) */
    for (j = 0; j < n; j++) {
      nc dot = 0, dz = 0;
      for (i = 0; i < len; i++) dot += h[j * n + kq + 1 + i] * v[i];
      for (i = 0; i < len; i++) h[j * n + kq + 1 + i] -= 2 * dot * conj(v[i]);
      if (!full) continue;
      for (i = 0; i < len; i++) dz += z[j * n + kq + 1 + i] * v[i];
      for (i = 0; i < len; i++) z[j * n + kq + 1 + i] -= 2 * dz * conj(v[i]);
    }
    for (i = 1; i < len; i++) h[(kq + 1 + i) * n + kq] = 0;
  }
  hi = n - 1;
  while (hi > 0) {
    nc mu, a, b, c2, d, tr, det, disc, r1, r2;
    /* find the start of the active block */
    for (l = hi; l > 0; l--) {
      double s = cabs(h[l * n + l]) + cabs(h[(l - 1) * n + l - 1]);
      if (cabs(h[l * n + l - 1]) <= eps * s) {
        h[l * n + l - 1] = 0;
        break;
      }
    }
    if (l == hi) {
      hi--;
      iter = 0;
      continue;
    }
    iter++;
    total++;
    if (total > 30 * n) return 0;
    /* shift: the eigenvalue of the trailing 2x2 block nearer its corner */
    a = h[(hi - 1) * n + hi - 1];
    b = h[(hi - 1) * n + hi];
    c2 = h[hi * n + hi - 1];
    d = h[hi * n + hi];
    if (iter == 10 || iter == 30) {
      /* exceptional shift, to break a cycle */
      mu = d + fabs(creal(h[hi * n + hi - 1]));
      if (hi - 2 >= l) mu += fabs(creal(h[(hi - 1) * n + hi - 2]));
    } else {
      tr = (a + d) / 2;
      det = (a - tr) * (d - tr) - b * c2;
      disc = csqrt(-det);
      r1 = tr + disc;
      r2 = tr - disc;
      mu = cabs(r1 - d) < cabs(r2 - d) ? r1 : r2;
    }
    if (!isfinite(creal(mu)) || !isfinite(cimag(mu))) return 0;
    /* implicit single-shift sweep over rows/cols l..hi */
    for (kq = l; kq < hi; kq++) {
      double cc;
      nc ss, x, y;
      if (kq == l) {
        x = h[l * n + l] - mu;
        y = h[(l + 1) * n + l];
      } else {
        x = h[kq * n + kq - 1];
        y = h[(kq + 1) * n + kq - 1];
      }
      givens(x, y, &cc, &ss);
      for (j = (kq == l ? l : kq - 1); j < (full ? n : hi + 1); j++) {
        nc p = h[kq * n + j], q = h[(kq + 1) * n + j];
        h[kq * n + j] = cc * p + ss * q;
        h[(kq + 1) * n + j] = -conj(ss) * p + cc * q;
      }
      if (kq > l) h[(kq + 1) * n + kq - 1] = 0;
      for (i = full ? 0 : l; i <= (kq + 2 < hi ? kq + 2 : hi); i++) {
        nc p = h[i * n + kq], q = h[i * n + kq + 1];
        h[i * n + kq] = p * cc + q * conj(ss);
        h[i * n + kq + 1] = -p * ss + q * cc;
      }
      for (i = 0; i < (full ? n : 0); i++) {
        nc p = z[i * n + kq], q = z[i * n + kq + 1];
        z[i * n + kq] = p * cc + q * conj(ss);
        z[i * n + kq + 1] = -p * ss + q * cc;
      }
    }
  }
  return 1;
}

/* Eigenvectors of the triangular t (n x n) as the columns of x (unit upper
 * triangular), then v = z x with unit-norm columns. */
static void schur_vectors(const nc* t, const nc* z, int64_t n, nc* x, nc* v) {
  int64_t i, j, kq;
  double norm = 0;
  for (i = 0; i < n; i++) {
    for (j = i; j < n; j++) norm = fmax(norm, cabs(t[i * n + j]));
  }
  if (norm < 2.2250738585072014e-308) norm = 2.2250738585072014e-308;
  for (i = 0; i < n * n; i++) x[i] = 0;
  for (kq = n - 1; kq >= 0; kq--) {
    x[kq * n + kq] = 1;
    for (i = kq - 1; i >= 0; i--) {
      nc s = -t[i * n + kq], den;
      for (j = i + 1; j < kq; j++) s -= t[i * n + j] * x[j * n + kq];
      den = t[i * n + i] - t[kq * n + kq];
      if (den == 0) den = 2.220446049250313e-16 * norm;
      x[i * n + kq] = s / den;
    }
  }
  for (i = 0; i < n; i++) {
    for (kq = 0; kq < n; kq++) {
      nc s = 0;
      for (j = 0; j <= kq; j++) s += z[i * n + j] * x[j * n + kq];
      v[i * n + kq] = s;
    }
  }
  for (kq = 0; kq < n; kq++) {
    double s = 0;
    for (i = 0; i < n; i++) s += cabs2(v[i * n + kq]);
    s = sqrt(s);
    if (s > 0) {
      for (i = 0; i < n; i++) v[i * n + kq] /= s;
    }
  }
}

/* ---------------------------------------------------- Eig of real input
 * TF solves real matrices with a real solver (the eigenvalues of a real
 * Schur form, complex ones in conjugate pairs), so this one does too, in
 * double whatever the input precision:
 *   1. Householder reduction to upper Hessenberg form H = Q^T A Q;
 *   2. Francis double-shift QR sweeps (implicit, with 3-element Householder
 *      reflectors chasing the bulge) until H is quasi-triangular: 1x1
 *      blocks for real eigenvalues, 2x2 blocks for complex pairs (a 2x2
 *      block with real eigenvalues is rotated to triangular form);
 *   3. with vectors: back substitution for the eigenvectors of the
 *      quasi-triangular factor, multiplied by the accumulated orthogonal
 *      factor, each complex column scaled to unit norm.
 * The eigenvalues come out in the order of the Schur form's diagonal, as
 * TF's; a complex pair lists the positive imaginary part first. Without
 * vectors the sweeps only update the active window. */

/* The small helpers are inlined into the ISA-cloned callers. */
#if defined(__GNUC__)
#define NL2_INLINE static inline __attribute__((always_inline))
#else
#define NL2_INLINE static inline
#endif

/* Dot product of n doubles with independent partial sums (so that the
 * compiler can vectorize it without reassociating one sum). */
NL2_INLINE double ddot(const double* a, const double* b, int64_t n) {
  double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0}, s = 0;
  int64_t i = 0;
  int j;
  for (; n - i >= 8; i += 8) {
    for (j = 0; j < 8; j++) acc[j] += a[i + j] * b[i + j];
  }
  for (; i < n; i++) s += a[i] * b[i];
  for (j = 0; j < 8; j++) s += acc[j];
  return s;
}

/* rows[r] -= f[r] * w over columns [c0, c1) for the m rows starting at row
 * `first` of the row-major n-column matrix a, after w = sum_r v[r] rows[r]:
 * the product (I - beta v v^T) a on those rows. w is scratch of n. */
NL2_INLINE void reflect_rows(double* a, int64_t n, int64_t first, int64_t m,
                         const double* v, double beta, int64_t c0,
                         int64_t c1, double* w) {
  int64_t i, j;
  for (j = c0; j < c1; j++) w[j] = 0;
  for (i = 0; i < m; i++) {
    const double* row = a + (first + i) * n;
    double vi = v[i];
    for (j = c0; j < c1; j++) w[j] += vi * row[j];
  }
  for (i = 0; i < m; i++) {
    double* row = a + (first + i) * n;
    double f = beta * v[i];
    for (j = c0; j < c1; j++) row[j] -= f * w[j];
  }
}

/* Reduces h (n x n, row-major) to Hessenberg form in place; when zt is
 * given (the identity on entry), the orthogonal factor is accumulated in
 * it, transposed. v and w are scratch of n doubles. */
KUTIL_CLONES static void real_hessenberg(double* h, double* zt, int64_t n, double* v,
                            double* w) {
  int64_t k, i;
  for (k = 0; k + 2 < n; k++) {
    int64_t len = n - k - 1;
    double scale = 0, nx = 0, alpha, vv = 0, beta;
    for (i = 0; i < len; i++) scale = fmax(scale, fabs(h[(k + 1 + i) * n + k]));
    if (scale == 0) continue;
    for (i = 0; i < len; i++) {
      v[i] = h[(k + 1 + i) * n + k] / scale;
      nx += v[i] * v[i];
    }
    nx = sqrt(nx);
    alpha = v[0] >= 0 ? -nx : nx;
    v[0] -= alpha;
    for (i = 0; i < len; i++) vv += v[i] * v[i];
    if (vv == 0) continue;
    beta = 2.0 / vv;
    /* from the left, rows k+1.. (their columns before k are zero) */
    reflect_rows(h, n, k + 1, len, v, beta, k, n, w);
    /* from the right, columns k+1.. of every row */
    for (i = 0; i < n; i++) {
      double* row = h + i * n + k + 1;
      double s = beta * ddot(row, v, len);
      int64_t j;
      for (j = 0; j < len; j++) row[j] -= s * v[j];
    }
    h[(k + 1) * n + k] = alpha * scale;
    for (i = 1; i < len; i++) h[(k + 1 + i) * n + k] = 0;
    /* Z P is P Z^T on the transposed factor; its row 0 stays e_0 */
    if (zt != NULL) reflect_rows(zt, n, k + 1, len, v, beta, 1, n, w);
  }
}

/* Applies P = I - tau u u^T, u = (1, u1, u2) (u2 only when m = 3), acting
 * on indices k..k+m-1: to rows k.. of h over columns [c0, c1], to columns
 * k.. over rows [r0, r1], and to rows k.. of the transposed Schur factor
 * zt (all columns) when it is given. */
NL2_INLINE void apply_reflector(double* h, double* zt, int64_t n, int64_t k,
                            int m, double u1, double u2, double tau,
                            int64_t c0, int64_t c1, int64_t r0, int64_t r1) {
  int64_t i, j;
  double* h0 = h + k * n;
  double* h1 = h0 + n;
  double* h2 = h1 + n;
  if (m == 3) {
    for (j = c0; j <= c1; j++) {
      double s = tau * (h0[j] + u1 * h1[j] + u2 * h2[j]);
      h0[j] -= s;
      h1[j] -= s * u1;
      h2[j] -= s * u2;
    }
    for (i = r0; i <= r1; i++) {
      double* row = h + i * n + k;
      double s = tau * (row[0] + u1 * row[1] + u2 * row[2]);
      row[0] -= s;
      row[1] -= s * u1;
      row[2] -= s * u2;
    }
    if (zt != NULL) {
      double* z0 = zt + k * n;
      double* z1 = z0 + n;
      double* z2 = z1 + n;
      for (j = 0; j < n; j++) {
        double s = tau * (z0[j] + u1 * z1[j] + u2 * z2[j]);
        z0[j] -= s;
        z1[j] -= s * u1;
        z2[j] -= s * u2;
      }
    }
    return;
  }
  for (j = c0; j <= c1; j++) {
    double s = tau * (h0[j] + u1 * h1[j]);
    h0[j] -= s;
    h1[j] -= s * u1;
  }
  for (i = r0; i <= r1; i++) {
    double* row = h + i * n + k;
    double s = tau * (row[0] + u1 * row[1]);
    row[0] -= s;
    row[1] -= s * u1;
  }
  if (zt != NULL) {
    double* z0 = zt + k * n;
    double* z1 = z0 + n;
    for (j = 0; j < n; j++) {
      double s = tau * (z0[j] + u1 * z1[j]);
      z0[j] -= s;
      z1[j] -= s * u1;
    }
  }
}

/* The reflector I - tau u u^T, u = (1, u1, u2), mapping x (m = 2 or 3
 * entries) to (lead, 0, 0). Returns 0 when x[1..] is already zero. */
NL2_INLINE int make_reflector(const double* x, int m, double* u1, double* u2,
                          double* tau, double* lead) {
  double x0 = x[0], x1 = x[1], x2 = m == 3 ? x[2] : 0, s, a0, a1, a2, nx,
         alpha, d;
  if (x1 == 0 && x2 == 0) return 0;
  s = fmax(fabs(x0), fmax(fabs(x1), fabs(x2)));
  if (!(s > 0)) return 0;
  /* norm with one scaling division, safe from overflow */
  {
    double r = 1.0 / s;
    a0 = x0 * r;
    a1 = x1 * r;
    a2 = x2 * r;
  }
  nx = s * sqrt(a0 * a0 + a1 * a1 + a2 * a2);
  alpha = x0 >= 0 ? -nx : nx;
  d = x0 - alpha; /* |d| >= |x0|, never 0 here */
  *tau = (alpha - x0) / alpha;
  *u1 = x1 / d;
  *u2 = x2 / d;
  *lead = alpha;
  return 1;
}

/* Rows/columns p, p+1 hold a 2x2 block that split off. Complex
 * eigenvalues stay a block; real ones are rotated to triangular form (the
 * larger-magnitude root's offset first, as TF's solver does). `full`:
 * rotate the whole rows and columns (and z), else only the block. */
static void split_block(double* h, double* zt, int64_t n, int64_t p, int full,
                        double* wr, double* wi) {
  int64_t q = p + 1, i, j;
  double a = h[p * n + p], b = h[p * n + q], c = h[q * n + p],
         d = h[q * n + q];
  double hp = 0.5 * (a - d), disc = hp * hp + b * c;
  if (disc >= 0) {
    double zr = sqrt(disc), r, cs, sn;
    zr = hp >= 0 ? hp + zr : hp - zr;
    r = hypot(zr, c);
    if (r > 0) {
      cs = zr / r;
      sn = c / r;
      for (j = full ? p : p; j < (full ? n : q + 1); j++) {
        double u = h[p * n + j], t = h[q * n + j];
        h[p * n + j] = cs * u + sn * t;
        h[q * n + j] = -sn * u + cs * t;
      }
      for (i = full ? 0 : p; i <= q; i++) {
        double u = h[i * n + p], t = h[i * n + q];
        h[i * n + p] = cs * u + sn * t;
        h[i * n + q] = -sn * u + cs * t;
      }
      if (full && zt != NULL) {
        for (i = 0; i < n; i++) {
          double u = zt[p * n + i], t = zt[q * n + i];
          zt[p * n + i] = cs * u + sn * t;
          zt[q * n + i] = -sn * u + cs * t;
        }
      }
    }
    h[q * n + p] = 0;
    wr[p] = h[p * n + p];
    wr[q] = h[q * n + q];
    wi[p] = wi[q] = 0;
  } else {
    wr[p] = wr[q] = d + hp;
    wi[p] = sqrt(-disc);
    wi[q] = -wi[p];
  }
}

/* Francis double-shift QR on the Hessenberg h until it is quasi-
 * triangular; eigenvalues in wr/wi. With `full`, h becomes the real Schur
 * factor and z (holding the Hessenberg reduction's factor) the Schur
 * vectors. Returns 0 when it does not converge. */
KUTIL_CLONES static int real_schur(double* h, double* zt, int64_t n, int full, double* wr,
                      double* wi) {
  const double eps = 2.220446049250313e-16;
  int64_t nn = n - 1, l, k, i, j, iter = 0, total = 0;
  double norm = 0;
  for (i = 0; i < n; i++) {
    for (j = i > 0 ? i - 1 : 0; j < n; j++) norm = fmax(norm, fabs(h[i * n + j]));
  }
  while (nn >= 0) {
    double h11, h12, h21, h22, tr, det, x[3], u1, u2, tau, lead, s;
    for (l = nn; l > 0; l--) {
      s = fabs(h[(l - 1) * n + l - 1]) + fabs(h[l * n + l]);
      if (s == 0) s = norm;
      if (fabs(h[l * n + l - 1]) <= eps * s) {
        h[l * n + l - 1] = 0;
        break;
      }
    }
    if (l == nn) {
      wr[nn] = h[nn * n + nn];
      wi[nn] = 0;
      nn--;
      iter = 0;
      continue;
    }
    if (l == nn - 1) {
      split_block(h, zt, n, nn - 1, full, wr, wi);
      nn -= 2;
      iter = 0;
      continue;
    }
    if (++total > 40 * n) return 0;
    iter++;
    if (iter % 10 == 0) {
      /* exceptional shift, to break a cycle: from the bottom of the window,
       * or every other time from its top */
      int64_t m = (iter % 20 == 10) ? nn : l + 1;
      s = fabs(h[m * n + m - 1]) +
          fabs(m - 2 >= l ? h[(m - 1) * n + m - 2] : h[(m + 1) * n + m]);
      h11 = 0.75 * s + h[m * n + m];
      h12 = -0.4375 * s;
      h21 = s;
      h22 = h11;
    } else {
      h11 = h[(nn - 1) * n + nn - 1];
      h12 = h[(nn - 1) * n + nn];
      h21 = h[nn * n + nn - 1];
      h22 = h[nn * n + nn];
    }
    tr = h11 + h22;
    det = h11 * h22 - h12 * h21;
    /* first column of (H - s1 I)(H - s2 I) */
    {
      double a = h[l * n + l], b = h[l * n + l + 1], c = h[(l + 1) * n + l],
             d = h[(l + 1) * n + l + 1], e = h[(l + 2) * n + l + 1];
      double sc = fabs(a) + fabs(b) + fabs(c) + fabs(d) + fabs(tr) +
                  sqrt(fabs(det));
      if (sc == 0 || !isfinite(sc)) sc = 1;
      /* scaled against overflow; the reflector does not care */
      a /= sc;
      b /= sc;
      c /= sc;
      d /= sc;
      e /= sc;
      x[0] = a * a + b * c - (tr / sc) * a + det / (sc * sc);
      x[1] = c * (a + d - tr / sc);
      x[2] = c * e;
    }
    if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2])) return 0;
    for (k = l; k <= nn - 2; k++) {
      if (k > l) {
        x[0] = h[k * n + k - 1];
        x[1] = h[(k + 1) * n + k - 1];
        x[2] = h[(k + 2) * n + k - 1];
      }
      if (!make_reflector(x, 3, &u1, &u2, &tau, &lead)) continue;
      apply_reflector(h, full ? zt : NULL, n, k, 3, u1, u2, tau,
                      k > l ? k - 1 : l, full ? n - 1 : nn, full ? 0 : l,
                      k + 3 < nn ? k + 3 : nn);
      if (k > l) {
        h[k * n + k - 1] = lead;
        h[(k + 1) * n + k - 1] = 0;
        h[(k + 2) * n + k - 1] = 0;
      }
    }
    x[0] = h[(nn - 1) * n + nn - 2];
    x[1] = h[nn * n + nn - 2];
    if (make_reflector(x, 2, &u1, &u2, &tau, &lead)) {
      apply_reflector(h, full ? zt : NULL, n, nn - 1, 2, u1, u2, tau, nn - 2,
                      full ? n - 1 : nn, full ? 0 : l, nn);
      h[(nn - 1) * n + nn - 2] = lead;
      h[nn * n + nn - 2] = 0;
    }
  }
  return 1;
}

/* Complex division (a + ib) / (c + id) without needless overflow. */
static void cdiv(double a, double b, double c, double d, double* re,
                 double* im) {
  double r, den;
  if (fabs(c) >= fabs(d)) {
    r = d / c;
    den = c + d * r;
    *re = (a + b * r) / den;
    *im = (b - a * r) / den;
  } else {
    r = c / d;
    den = c * r + d;
    *re = (a * r + b) / den;
    *im = (b * r - a) / den;
  }
}

/* Eigenvectors of the quasi-triangular t into x (n x n, row-major): a
 * real eigenvalue's vector in its column; a complex pair (k, k+1) keeps
 * the real part of the vector for the eigenvalue with positive imaginary
 * part in column k and its imaginary part in column k+1. Rows below each
 * vector's block are zero. */
static void quasi_tri_vectors(const double* t, int64_t n, const double* wr,
                              const double* wi, double* x) {
  const double eps = 2.220446049250313e-16;
  double norm = 0, small;
  int64_t i, j, k;
  for (i = 0; i < n; i++) {
    for (j = i > 0 ? i - 1 : 0; j < n; j++) norm = fmax(norm, fabs(t[i * n + j]));
  }
  small = eps * (norm > 0 ? norm : 1);
  memset(x, 0, (size_t)(n * n) * sizeof(double));
  for (k = n - 1; k >= 0; k--) {
    if (wi[k] == 0) {
      double lam = wr[k];
      x[k * n + k] = 1;
      for (i = k - 1; i >= 0; i--) {
        if (i > 0 && t[i * n + i - 1] != 0) {
          /* rows i-1, i: a 2x2 block, solved together */
          double r1 = 0, r2 = 0, a11, a12, a21, a22, dt;
          for (j = i + 1; j <= k; j++) {
            r1 += t[(i - 1) * n + j] * x[j * n + k];
            r2 += t[i * n + j] * x[j * n + k];
          }
          a11 = t[(i - 1) * n + i - 1] - lam;
          a12 = t[(i - 1) * n + i];
          a21 = t[i * n + i - 1];
          a22 = t[i * n + i] - lam;
          dt = a11 * a22 - a12 * a21;
          if (dt == 0) dt = small;
          x[(i - 1) * n + k] = (-r1 * a22 + r2 * a12) / dt;
          x[i * n + k] = (-r2 * a11 + r1 * a21) / dt;
          i--;
        } else {
          double r = 0, den = t[i * n + i] - lam;
          for (j = i + 1; j <= k; j++) r += t[i * n + j] * x[j * n + k];
          if (den == 0) den = small;
          x[i * n + k] = -r / den;
        }
        /* keep the growing vector representable */
        {
          double big = fmax(fabs(x[i * n + k]),
                            i + 1 <= k ? fabs(x[(i + 1) * n + k]) : 0);
          if (big > 1e150) {
            for (j = i > 0 ? i - 1 : 0; j <= k; j++) x[j * n + k] /= big;
          }
        }
      }
    } else if (wi[k] < 0) {
      /* the pair (k-1, k); the vector for wr + i|wi| */
      int64_t p = k - 1;
      double lr = wr[p], li = wi[p];
      double a = t[p * n + p], b = t[p * n + k], c = t[k * n + p],
             d = t[k * n + k];
      if (fabs(c) >= fabs(b)) {
        x[k * n + p] = 1;
        x[k * n + k] = 0;
        x[p * n + p] = (lr - d) / c;
        x[p * n + k] = li / c;
      } else {
        x[p * n + p] = 1;
        x[p * n + k] = 0;
        x[k * n + p] = (lr - a) / b;
        x[k * n + k] = li / b;
      }
      for (i = p - 1; i >= 0; i--) {
        if (i > 0 && t[i * n + i - 1] != 0) {
          /* 2x2 block (i-1, i) against the complex lambda */
          double r1r = 0, r1i = 0, r2r = 0, r2i = 0;
          double a11r, a22r, a12, a21, dr, di, nr, ni;
          for (j = i + 1; j <= k; j++) {
            r1r += t[(i - 1) * n + j] * x[j * n + p];
            r1i += t[(i - 1) * n + j] * x[j * n + k];
            r2r += t[i * n + j] * x[j * n + p];
            r2i += t[i * n + j] * x[j * n + k];
          }
          a11r = t[(i - 1) * n + i - 1] - lr;
          a22r = t[i * n + i] - lr;
          a12 = t[(i - 1) * n + i];
          a21 = t[i * n + i - 1];
          /* det = (a11r - i li)(a22r - i li) - a12 a21 */
          dr = a11r * a22r - li * li - a12 * a21;
          di = -li * (a11r + a22r);
          if (dr == 0 && di == 0) dr = small;
          /* u1 = (-r1 a22 + r2 a12) / det, a22 = a22r - i li */
          nr = -(r1r * a22r + r1i * li) + r2r * a12;
          ni = -(r1i * a22r - r1r * li) + r2i * a12;
          cdiv(nr, ni, dr, di, &x[(i - 1) * n + p], &x[(i - 1) * n + k]);
          /* u2 = (-r2 a11 + r1 a21) / det */
          nr = -(r2r * a11r + r2i * li) + r1r * a21;
          ni = -(r2i * a11r - r2r * li) + r1i * a21;
          cdiv(nr, ni, dr, di, &x[i * n + p], &x[i * n + k]);
          i--;
        } else {
          double rr = 0, ri = 0, den = t[i * n + i] - lr;
          for (j = i + 1; j <= k; j++) {
            rr += t[i * n + j] * x[j * n + p];
            ri += t[i * n + j] * x[j * n + k];
          }
          if (den == 0 && li == 0) den = small;
          cdiv(-rr, -ri, den, -li, &x[i * n + p], &x[i * n + k]);
        }
        {
          double big = fmax(fabs(x[i * n + p]) + fabs(x[i * n + k]),
                            fabs(x[(i + 1) * n + p]) + fabs(x[(i + 1) * n + k]));
          if (big > 1e150) {
            for (j = i > 0 ? i - 1 : 0; j <= k; j++) {
              x[j * n + p] /= big;
              x[j * n + k] /= big;
            }
          }
        }
      }
    }
  }
}

typedef struct eig_real_job {
  const TF_Tensor* in;
  TF_Tensor *eo, *vo;
  TF_DataType tout;
  int cv;
  int64_t n;
  atomic_int failed, oom;
} eig_real_job;

static void eig_real_rows(void* arg, int64_t begin, int64_t end) {
  eig_real_job* jb = (eig_real_job*)arg;
  int64_t n = jb->n, nn2 = n * n, b, i, j;
  int cv = jb->cv;
  double *h, *z = NULL, *x = NULL, *v = NULL, *wr, *wi, *sc;
  h = (double*)tfe_malloc((size_t)nn2 * sizeof(double));
  sc = (double*)tfe_malloc((size_t)(4 * n) * sizeof(double));
  if (cv) {
    z = (double*)tfe_malloc((size_t)nn2 * sizeof(double));
    x = (double*)tfe_malloc((size_t)nn2 * sizeof(double));
    v = (double*)tfe_malloc((size_t)nn2 * sizeof(double));
  }
  if (h == NULL || sc == NULL || (cv && (z == NULL || x == NULL || v == NULL))) {
    atomic_store(&jb->oom, 1);
    goto done;
  }
  wr = sc + 2 * n;
  wi = sc + 3 * n;
  for (b = begin; b < end && !atomic_load(&jb->failed); b++) {
    const void* src = kutil_data(jb->in);
    int finite = 1, ex;
    double amax = 0;
    if (jb->in->dtype == TF_FLOAT) {
      const float* f = (const float*)src + b * nn2;
      for (i = 0; i < nn2; i++) h[i] = f[i];
    } else {
      memcpy(h, (const double*)src + b * nn2, (size_t)nn2 * sizeof(double));
    }
    for (i = 0; i < nn2; i++) {
      if (!isfinite(h[i])) finite = 0;
      amax = fmax(amax, fabs(h[i]));
    }
    /* scaled by a power of two (exact) to a largest entry in [0.5, 1), so
     * that products in the sweeps neither overflow nor underflow; the
     * eigenvalues are scaled back, the vectors do not change */
    ex = 0;
    if (finite && amax > 0) {
      double f;
      frexp(amax, &ex);
      f = ldexp(1.0, -ex);
      for (i = 0; i < nn2; i++) h[i] *= f;
    }
    if (cv) {
      memset(z, 0, (size_t)nn2 * sizeof(double));
      for (i = 0; i < n; i++) z[i * n + i] = 1;
    }
    real_hessenberg(h, z, n, sc, sc + n);
    if (!finite || !real_schur(h, z, n, cv, wr, wi)) {
      atomic_store(&jb->failed, 1);
      goto done;
    }
    for (i = 0; i < n; i++) {
      nnl2_store_c(jb->tout, kutil_data(jb->eo), b * n + i,
                   CMPLX(ldexp(wr[i], ex), ldexp(wi[i], ex)));
    }
    if (!cv) continue;
    quasi_tri_vectors(h, n, wr, wi, x);
    if (!tfe_gemm_f64(1, 0, n, n, n, z, n, x, n, v, n)) {
      atomic_store(&jb->oom, 1);
      goto done;
    }
    for (j = 0; j < n; j++) {
      double s = 0;
      if (wi[j] == 0) {
        for (i = 0; i < n; i++) s += v[i * n + j] * v[i * n + j];
        s = s > 0 ? 1.0 / sqrt(s) : 0;
        for (i = 0; i < n; i++) {
          nnl2_store_c(jb->tout, kutil_data(jb->vo), b * nn2 + i * n + j,
                       CMPLX(v[i * n + j] * s, 0.0));
        }
      } else if (wi[j] > 0) {
        for (i = 0; i < n; i++) {
          s += v[i * n + j] * v[i * n + j] + v[i * n + j + 1] * v[i * n + j + 1];
        }
        s = s > 0 ? 1.0 / sqrt(s) : 0;
        for (i = 0; i < n; i++) {
          double re = v[i * n + j] * s, im = v[i * n + j + 1] * s;
          nnl2_store_c(jb->tout, kutil_data(jb->vo), b * nn2 + i * n + j,
                       CMPLX(re, im));
          nnl2_store_c(jb->tout, kutil_data(jb->vo), b * nn2 + i * n + j + 1,
                       CMPLX(re, -im));
        }
      }
    }
  }
done:
  tfe_free(h);
  tfe_free(sc);
  tfe_free(z);
  tfe_free(x);
  tfe_free(v);
}

typedef struct eig_job {
  const TF_Tensor* in;
  TF_Tensor *eo, *vo;
  TF_DataType tout;
  int cv;
  int64_t n;
  atomic_int failed, oom; /* set by any worker, read after the loop */
} eig_job;

/* Matrices [begin, end) of the batch, with their own scratch. */
static void eig_rows(void* arg, int64_t begin, int64_t end) {
  eig_job* j_ = (eig_job*)arg;
  const TF_Tensor* in = j_->in;
  TF_Tensor *eo = j_->eo, *vo = j_->vo;
  TF_DataType tout = j_->tout;
  int cv = j_->cv;
  int64_t n = j_->n, b, i, j;
  nc *h, *z, *x, *v, *w;
  h = (nc*)tfe_malloc((size_t)(n * n) * sizeof(nc));
  z = (nc*)tfe_malloc((size_t)(n * n) * sizeof(nc));
  x = (nc*)tfe_malloc((size_t)(n * n) * sizeof(nc));
  v = (nc*)tfe_malloc((size_t)(n * n) * sizeof(nc));
  w = (nc*)tfe_malloc((size_t)n * sizeof(nc));
  if (h == NULL || z == NULL || x == NULL || v == NULL || w == NULL) {
    atomic_store(&j_->oom, 1);
    goto done;
  }
  for (b = begin; b < end && !atomic_load(&j_->failed); b++) {
    int finite = 1;
    for (i = 0; i < n * n; i++) {
      h[i] = nnl2_load_c(in->dtype, kutil_data(in), b * n * n + i);
      if (!isfinite(creal(h[i])) || !isfinite(cimag(h[i]))) finite = 0;
    }
    if (!finite || !complex_schur(h, z, n, w, cv)) {
      atomic_store(&j_->failed, 1);
      goto done;
    }
    for (i = 0; i < n; i++) w[i] = h[i * n + i];
    if (cv) schur_vectors(h, z, n, x, v);
    {
      /* order by increasing modulus (first minimum wins) */
      for (i = 0; i < n; i++) {
        int64_t best = i;
        for (j = i + 1; j < n; j++) {
          if (cabs(w[j]) < cabs(w[best])) best = j;
        }
        if (best != i) {
          nc t = w[i];
          w[i] = w[best];
          w[best] = t;
          if (cv) {
            for (j = 0; j < n; j++) {
              nc u = v[j * n + i];
              v[j * n + i] = v[j * n + best];
              v[j * n + best] = u;
            }
          }
        }
      }
    }
    for (i = 0; i < n; i++) nnl2_store_c(tout, kutil_data(eo), b * n + i, w[i]);
    if (cv) {
      for (i = 0; i < n * n; i++) {
        nnl2_store_c(tout, kutil_data(vo), b * n * n + i, v[i]);
      }
    }
  }
done:
  tfe_free(h);
  tfe_free(z);
  tfe_free(x);
  tfe_free(v);
  tfe_free(w);
}

static void eig_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType tout = TF_COMPLEX64, want;
  int cv = kutil_attr_bool(k, "compute_v", 1), r = in->num_dims;
  int cplx = in->dtype == TF_COMPLEX64 || in->dtype == TF_COMPLEX128;
  int64_t n, batch;
  TF_Tensor *eo, *vo;
  eig_job job;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, "Tout", &tout, NULL);
  want = (in->dtype == TF_FLOAT || in->dtype == TF_COMPLEX64) ? TF_COMPLEX64
                                                              : TF_COMPLEX128;
  if (tout != want) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid output dtype %d vs %d",
               (int)tout, (int)want);
    return;
  }
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
  batch = kutil_dims_prod(in->dims, 0, r - 2);
  eo = tfe_kernel_alloc_output(k, 0, tout, in->dims, r - 1);
  if (eo == NULL) return;
  vo = cv ? tfe_kernel_alloc_output(k, 1, tout, in->dims, r)
          : tfe_kernel_alloc_output(k, 1, tout, NULL, 0);
  if (vo == NULL) return;
  if (!cv) memset(kutil_data(vo), 0, kutil_esize(tout));
  if (batch == 0 || n == 0) return;
  if (!cplx) {
    eig_real_job rj;
    rj.in = in;
    rj.eo = eo;
    rj.vo = vo;
    rj.tout = tout;
    rj.cv = cv;
    rj.n = n;
    atomic_init(&rj.failed, 0);
    atomic_init(&rj.oom, 0);
    /* small matrices run inline: a chunk is at least ~1M flops */
    tfe_parallel_for(tfe_kernel_threadpool(k), batch,
                     n >= 64 ? 1 : 1 + 100000 / (n * n * n), eig_real_rows,
                     &rj);
    if (atomic_load(&rj.failed)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Eigen decomposition was not successful. The input might "
                 "not be valid.");
    } else if (atomic_load(&rj.oom)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in Eig");
    }
    return;
  }
  job.in = in;
  job.eo = eo;
  job.vo = vo;
  job.tout = tout;
  job.cv = cv;
  job.n = n;
  atomic_init(&job.failed, 0);
  atomic_init(&job.oom, 0);
  tfe_parallel_for(tfe_kernel_threadpool(k), batch, 1, eig_rows, &job);
  if (atomic_load(&job.failed)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Eigen decomposition was not successful. The input might not "
               "be valid.");
  } else if (atomic_load(&job.oom)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in Eig");
  }
}

void tfe_register_cpu_nn_linalg2_kernels(void) {
  static const TF_DataType kFB[] = {TF_FLOAT, TF_BFLOAT16};
  static const TF_DataType kSeg[] = {TF_FLOAT, TF_DOUBLE, TF_HALF,
                                     TF_BFLOAT16};
  static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
  static const TF_DataType kEig[] = {TF_FLOAT, TF_DOUBLE, TF_COMPLEX64,
                                     TF_COMPLEX128};
  register_removed();
  tfe_kutil_register("SparseMatMul", sparse_matmul_compute, "Ta", kFB, 2,
                     "Tb", kFB, 2);
  /* Tsegmentids is a third constraint; both index dtypes are accepted, so
   * leaving it unconstrained registers the same set. */
  tfe_kutil_register("SparseSegmentSumGradV2", seg_sum_grad_v2, "T", kSeg, 4,
                     "Tidx", kIdx, 2);
  tfe_kutil_register("SparseSegmentMeanGradV2", seg_mean_grad_v2, "T", kSeg,
                     4, "Tidx", kIdx, 2);
  tfe_kutil_register("SparseSegmentSqrtNGradV2", seg_sqrtn_grad_v2, "T", kSeg,
                     4, "Tidx", kIdx, 2);
  tfe_kutil_register("Eig", eig_compute, "T", kEig, 4, NULL, NULL, 0);
  tfe_nn_linalg2_register_rnn();
  tfe_nn_linalg2_register_ctc();
  tfe_nn_linalg2_register_special();
  tfe_nn_linalg2_register_la();
  tfe_nn_linalg2_register_bincount();
  tfe_nn_linalg2_register_fusedconv();
}
