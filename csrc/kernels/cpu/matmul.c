/* Matrix products: MatMul, BatchMatMul, BatchMatMulV2.
 *
 * float/double go to a CBLAS when one was loaded (blas.h) and otherwise to
 * the built-in blocked GEMM (matmul_gemm.h); half and bfloat16 are widened
 * to float, multiplied, and rounded back (as TF does on CPU); complex uses
 * the BLAS when it has cgemm/zgemm, else a straightforward loop; integer
 * products wrap on overflow. Large float/double products without a BLAS
 * are split by output rows over the kernel's intra-op thread pool. */
#include <stdint.h>
#include <string.h>

#include "core/threadpool.h"
#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/blas.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/matmul_gemm.h"

/* One product: C[m,n] = op(A) op(B) with A, B, C row-major. conj flags
 * apply to complex types (adjoint). */
typedef struct mm_args {
  int ta, tb, ca, cb;
  int64_t m, n, k;
  const void* a;
  int64_t lda;
  const void* b;
  int64_t ldb;
  void* c;
  int64_t ldc;
} mm_args;

/* ---------------------------------------------- threaded built-in GEMM */

typedef struct gemm_job {
  int is_double;
  const mm_args* g;
  int64_t unit; /* rows of C per parallel-for item */
  int failed;   /* set (racily, only ever to 1) when scratch runs out */
} gemm_job;

/* Rows [begin*unit, end*unit) of C. */
static void gemm_rows(void* arg, int64_t begin, int64_t end) {
  gemm_job* j = (gemm_job*)arg;
  const mm_args* g = j->g;
  int64_t r0 = begin * j->unit;
  int64_t r1 = end * j->unit < g->m ? end * j->unit : g->m;
  size_t esz = j->is_double ? 8 : 4;
  const char* a = (const char*)g->a + (size_t)(g->ta ? r0 : r0 * g->lda) * esz;
  char* c = (char*)g->c + (size_t)(r0 * g->ldc) * esz;
  int ok;
  if (r1 <= r0) return;
  if (j->is_double) {
    ok = tfe_gemm_f64(g->ta, g->tb, r1 - r0, g->n, g->k, (const double*)a,
                      g->lda, (const double*)g->b, g->ldb, (double*)c, g->ldc);
  } else {
    ok = tfe_gemm_f32(g->ta, g->tb, r1 - r0, g->n, g->k, (const float*)a,
                      g->lda, (const float*)g->b, g->ldb, (float*)c, g->ldc);
  }
  if (!ok) j->failed = 1;
}

/* Built-in GEMM, split by rows of C over the kernel's intra-op pool when
 * the product is big enough to pay for it. */
static int builtin_gemm(int is_double, const mm_args* g, tfe_threadpool* pool) {
  gemm_job job;
  double flops = 2.0 * (double)g->m * (double)g->n * (double)g->k;
  int nt = tfe_threadpool_size(pool);
  int64_t items;
  job.is_double = is_double;
  job.g = g;
  job.failed = 0;
  if (flops < 4.0e6 || g->m < 64 || nt <= 1) {
    job.unit = g->m;
    gemm_rows(&job, 0, 1);
    return !job.failed;
  }
  /* about one block of rows per thread, a multiple of 16 rows */
  job.unit = (g->m + nt - 1) / nt;
  job.unit = (job.unit + 15) / 16 * 16;
  items = (g->m + job.unit - 1) / job.unit;
  tfe_parallel_for(pool, items, 1, gemm_rows, &job);
  return !job.failed;
}

static int gemm_f32(const mm_args* g, tfe_threadpool* pool) {
  if (tfe_blas_sgemm(g->ta, g->tb, g->m, g->n, g->k, (const float*)g->a,
                     g->lda, (const float*)g->b, g->ldb, (float*)g->c,
                     g->ldc)) {
    return 1;
  }
  return builtin_gemm(0, g, pool);
}

static int gemm_f64(const mm_args* g, tfe_threadpool* pool) {
  if (tfe_blas_dgemm(g->ta, g->tb, g->m, g->n, g->k, (const double*)g->a,
                     g->lda, (const double*)g->b, g->ldb, (double*)g->c,
                     g->ldc)) {
    return 1;
  }
  return builtin_gemm(1, g, pool);
}

/* ------------------------------------------------ generic (ints, complex) */

#define DEF_INT_GEMM(S, T, U)                                                 \
  static void gemm_##S(const mm_args* g) {                                    \
    const T* A = (const T*)g->a;                                              \
    const T* B = (const T*)g->b;                                              \
    T* C = (T*)g->c;                                                          \
    int64_t i, j, p;                                                          \
    U* row = (U*)tfe_malloc(sizeof(U) * (size_t)(g->n > 0 ? g->n : 1));       \
    if (row == NULL) return;                                                  \
    for (i = 0; i < g->m; i++) {                                              \
      for (j = 0; j < g->n; j++) row[j] = 0;                                  \
      for (p = 0; p < g->k; p++) {                                            \
        U av = (U)(g->ta ? A[p * g->lda + i] : A[i * g->lda + p]);            \
        if (!g->tb) {                                                         \
          const T* brow = B + p * g->ldb;                                     \
          for (j = 0; j < g->n; j++) row[j] += av * (U)brow[j];               \
        } else {                                                              \
          for (j = 0; j < g->n; j++) row[j] += av * (U)B[j * g->ldb + p];     \
        }                                                                     \
      }                                                                       \
      for (j = 0; j < g->n; j++) C[i * g->ldc + j] = (T)row[j];               \
    }                                                                         \
    tfe_free(row);                                                            \
  }

DEF_INT_GEMM(i16, int16_t, uint16_t)
DEF_INT_GEMM(i32, int32_t, uint32_t)
DEF_INT_GEMM(i64, int64_t, uint64_t)

#define DEF_COMPLEX_GEMM(S, T)                                                \
  static void cgemm_##S(const mm_args* g) {                                   \
    const T* A = (const T*)g->a;                                              \
    const T* B = (const T*)g->b;                                              \
    T* C = (T*)g->c;                                                          \
    int64_t i, j, p;                                                          \
    for (i = 0; i < g->m; i++) {                                              \
      for (j = 0; j < g->n; j++) {                                            \
        T re = 0, im = 0;                                                     \
        for (p = 0; p < g->k; p++) {                                          \
          int64_t ai = g->ta ? p * g->lda + i : i * g->lda + p;               \
          int64_t bi = g->tb ? j * g->ldb + p : p * g->ldb + j;               \
          T ar = A[2 * ai], aim = g->ca ? -A[2 * ai + 1] : A[2 * ai + 1];     \
          T br = B[2 * bi], bim = g->cb ? -B[2 * bi + 1] : B[2 * bi + 1];     \
          re += ar * br - aim * bim;                                          \
          im += ar * bim + aim * br;                                          \
        }                                                                     \
        C[2 * (i * g->ldc + j)] = re;                                         \
        C[2 * (i * g->ldc + j) + 1] = im;                                     \
      }                                                                       \
    }                                                                         \
  }

DEF_COMPLEX_GEMM(c64, float)
DEF_COMPLEX_GEMM(c128, double)

/* Runs one product of dtype dt; returns 0 on allocation failure. */
static int gemm_any(TF_DataType dt, const mm_args* g, tfe_threadpool* pool) {
  switch (dt) {
    case TF_FLOAT: return gemm_f32(g, pool);
    case TF_DOUBLE: return gemm_f64(g, pool);
    case TF_INT16: gemm_i16(g); return 1;
    case TF_INT32: gemm_i32(g); return 1;
    case TF_INT64: gemm_i64(g); return 1;
    case TF_COMPLEX64:
      if (!tfe_blas_cgemm(g->ta, g->ca, g->tb, g->cb, g->m, g->n, g->k,
                          (const float*)g->a, g->lda, (const float*)g->b,
                          g->ldb, (float*)g->c, g->ldc)) {
        cgemm_c64(g);
      }
      return 1;
    case TF_COMPLEX128:
      if (!tfe_blas_zgemm(g->ta, g->ca, g->tb, g->cb, g->m, g->n, g->k,
                          (const double*)g->a, g->lda, (const double*)g->b,
                          g->ldb, (double*)g->c, g->ldc)) {
        cgemm_c128(g);
      }
      return 1;
    default: return 0;
  }
}

/* half/bfloat16 <-> float over whole buffers */
static void widen(TF_DataType dt, const uint16_t* s, float* d, int64_t n) {
  int64_t i;
  if (dt == TF_HALF) {
    for (i = 0; i < n; i++) d[i] = kutil_f16_to_f32(s[i]);
  } else {
    for (i = 0; i < n; i++) d[i] = kutil_bf16_to_f32(s[i]);
  }
}

static void narrow(TF_DataType dt, const float* s, uint16_t* d, int64_t n) {
  int64_t i;
  if (dt == TF_HALF) {
    for (i = 0; i < n; i++) d[i] = kutil_f32_to_f16(s[i]);
  } else {
    for (i = 0; i < n; i++) d[i] = kutil_f32_to_bf16(s[i]);
  }
}

/* ------------------------------------------------------------- kernels */

/* Shared body. x: [..., d0, d1], y: [..., d2, d3] with broadcast batch
 * dims (already validated), output allocated by the caller. */
static void batch_matmul(tfe_kernel_context* k, const TF_Tensor* x,
                         const TF_Tensor* y, int adj_x, int adj_y,
                         int is_complex_adj, TF_Tensor* out) {
  TF_DataType dt = x->dtype;
  int xr = x->num_dims, yr = y->num_dims, orank = out->num_dims;
  int64_t m = out->dims[orank - 2], n = out->dims[orank - 1];
  int64_t kk = adj_x ? x->dims[xr - 2] : x->dims[xr - 1];
  int64_t batch = 1, xb = 1, yb = 1, b;
  int nb = orank - 2, i;
  size_t esz = kutil_esize(dt);
  int half = dt == TF_HALF || dt == TF_BFLOAT16;
  float *fx = NULL, *fy = NULL, *fo = NULL;
  const char* xa = (const char*)kutil_data(x);
  const char* ya = (const char*)kutil_data(y);
  char* oa = (char*)kutil_data(out);
  int64_t x_mat = x->dims[xr - 2] * x->dims[xr - 1];
  int64_t y_mat = y->dims[yr - 2] * y->dims[yr - 1];
  int64_t o_mat = m * n;

  for (i = 0; i < nb; i++) batch *= out->dims[i];
  for (i = 0; i < xr - 2; i++) xb *= x->dims[i];
  for (i = 0; i < yr - 2; i++) yb *= y->dims[i];
  if (kutil_num_elements(out) == 0) return;
  if (kk == 0) {
    memset(oa, 0, (size_t)kutil_num_elements(out) * esz);
    return;
  }
  if (half) {
    fx = (float*)tfe_malloc(sizeof(float) * (size_t)(x_mat * xb));
    fy = (float*)tfe_malloc(sizeof(float) * (size_t)(y_mat * yb));
    fo = (float*)tfe_malloc(sizeof(float) * (size_t)(o_mat * batch));
    if (fx == NULL || fy == NULL || fo == NULL) goto oom;
    widen(dt, (const uint16_t*)xa, fx, x_mat * xb);
    widen(dt, (const uint16_t*)ya, fy, y_mat * yb);
    xa = (const char*)fx;
    ya = (const char*)fy;
    oa = (char*)fo;
    esz = sizeof(float);
  }
  for (b = 0; b < batch; b++) {
    /* batch index -> x and y batch indices with broadcasting */
    int64_t rem = b, xi = 0, yi = 0, xs = 1, ys = 1;
    mm_args g;
    int d;
    for (d = nb - 1; d >= 0; d--) {
      int64_t od = out->dims[d], idx = rem % od;
      int xd = d - (nb - (xr - 2)), yd = d - (nb - (yr - 2));
      rem /= od;
      if (xd >= 0) {
        if (x->dims[xd] != 1) xi += idx * xs;
        xs *= x->dims[xd];
      }
      if (yd >= 0) {
        if (y->dims[yd] != 1) yi += idx * ys;
        ys *= y->dims[yd];
      }
    }
    g.ta = adj_x;
    g.tb = adj_y;
    g.ca = adj_x && is_complex_adj;
    g.cb = adj_y && is_complex_adj;
    g.m = m;
    g.n = n;
    g.k = kk;
    g.a = xa + (size_t)(xi * x_mat) * esz;
    g.lda = x->dims[xr - 1];
    g.b = ya + (size_t)(yi * y_mat) * esz;
    g.ldb = y->dims[yr - 1];
    g.c = oa + (size_t)(b * o_mat) * esz;
    g.ldc = n;
    if (!gemm_any(half ? TF_FLOAT : dt, &g, tfe_kernel_threadpool(k))) {
      goto oom;
    }
  }
  if (half) narrow(dt, fo, (uint16_t*)kutil_data(out), o_mat * batch);
  tfe_free(fx);
  tfe_free(fy);
  tfe_free(fo);
  return;
oom:
  tfe_free(fx);
  tfe_free(fy);
  tfe_free(fo);
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in %s",
             k->op_def != NULL ? k->op_def->name : "MatMul");
}

static int is_complex(TF_DataType dt) {
  return dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
}

/* Common tail: checks inner dims, allocates [batch..., d0, d3], runs. */
static void finish_matmul(tfe_kernel_context* k, const TF_Tensor* x,
                          const TF_Tensor* y, int tx, int ty, int adjoint,
                          const int64_t* batch_dims, int nb) {
  kutil_shape_buf sa, sb;
  int xr = x->num_dims, yr = y->num_dims;
  int64_t d0 = x->dims[xr - 2], d1 = x->dims[xr - 1];
  int64_t d2 = y->dims[yr - 2], d3 = y->dims[yr - 1], t;
  int64_t odims[TFE_MAX_DIMS];
  TF_Tensor* out;
  if (tx) {
    t = d0;
    d0 = d1;
    d1 = t;
  }
  if (ty) {
    t = d2;
    d2 = d3;
    d3 = t;
  }
  if (d1 != d2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Matrix size-incompatible: In[0]: %s, In[1]: %s",
               kutil_tshape(x, &sa), kutil_tshape(y, &sb));
    return;
  }
  if (nb > 0) memcpy(odims, batch_dims, sizeof(int64_t) * (size_t)nb);
  odims[nb] = d0;
  odims[nb + 1] = d3;
  out = tfe_kernel_alloc_output(k, 0, x->dtype, odims, nb + 2);
  if (out == NULL) return;
  batch_matmul(k, x, y, tx, ty, adjoint && is_complex(x->dtype), out);
}

static void k_matmul(tfe_kernel_context* k) {
  const TF_Tensor* a = k->inputs[0];
  const TF_Tensor* b = k->inputs[1];
  kutil_shape_buf sa, sb;
  if (a->num_dims != b->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "In[0] and In[1] has different ndims: %s vs. %s",
               kutil_tshape(a, &sa), kutil_tshape(b, &sb));
    return;
  }
  if (a->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "In[0] and In[1] ndims must be == 2: %d", a->num_dims);
    return;
  }
  finish_matmul(k, a, b, kutil_attr_bool(k, "transpose_a", 0),
                kutil_attr_bool(k, "transpose_b", 0), 0, NULL, 0);
}

static void k_batch_matmul(tfe_kernel_context* k) {
  const TF_Tensor* a = k->inputs[0];
  const TF_Tensor* b = k->inputs[1];
  kutil_shape_buf sa, sb;
  int i, nd = a->num_dims;
  if (a->num_dims != b->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "In[0] and In[1] has different ndims: %s vs. %s",
               kutil_tshape(a, &sa), kutil_tshape(b, &sb));
    return;
  }
  if (nd < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "In[0] and In[1] ndims must be >= 2: %d", nd);
    return;
  }
  for (i = 0; i < nd - 2; i++) {
    if (a->dims[i] != b->dims[i]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "In[0].dim(%d) and In[1].dim(%d) must be the same: %s vs %s",
                 i, i, kutil_tshape(a, &sa), kutil_tshape(b, &sb));
      return;
    }
  }
  finish_matmul(k, a, b, kutil_attr_bool(k, "adj_x", 0),
                kutil_attr_bool(k, "adj_y", 0), 1, a->dims, nd - 2);
}

static void k_batch_matmul_v2(tfe_kernel_context* k) {
  const TF_Tensor* a = k->inputs[0];
  const TF_Tensor* b = k->inputs[1];
  kutil_shape_buf sa, sb;
  int ar = a->num_dims, br = b->num_dims, nb, i;
  int64_t bdims[TFE_MAX_DIMS];
  if (ar < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "In[0] ndims must be >= 2: %d", ar);
    return;
  }
  if (br < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "In[1] ndims must be >= 2: %d", br);
    return;
  }
  nb = (ar > br ? ar : br) - 2;
  for (i = 0; i < nb; i++) {
    int ai = i - (nb - (ar - 2)), bi = i - (nb - (br - 2));
    int64_t da = ai >= 0 ? a->dims[ai] : 1, db = bi >= 0 ? b->dims[bi] : 1;
    if (da != db && da != 1 && db != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "In[0] and In[1] must have compatible batch dimensions: %s "
                 "vs. %s",
                 kutil_tshape(a, &sa), kutil_tshape(b, &sb));
      return;
    }
    bdims[i] = da == 1 ? db : da;
  }
  finish_matmul(k, a, b, kutil_attr_bool(k, "adj_x", 0),
                kutil_attr_bool(k, "adj_y", 0), 1, bdims, nb);
}

/* BatchMatMulV3: inputs of dtypes Ta/Tb are converted to Tout first (the
 * CPU kernels exist for equal types and for 8-bit integers into int32 or
 * bfloat16). */
static TF_Tensor* convert_to(const TF_Tensor* x, TF_DataType to) {
  int64_t n = kutil_num_elements(x), i;
  TF_Tensor* t;
  if (x->dtype == to) {
    return tfe_tensor_from_buffer(x->dtype, x->dims, x->num_dims, x->buf);
  }
  t = TF_AllocateTensor(to, x->dims, x->num_dims,
                        (size_t)n * kutil_esize(to));
  if (t == NULL) return NULL;
  for (i = 0; i < n; i++) {
    int64_t v = kutil_get_int(x, i);
    if (to == TF_INT32) {
      ((int32_t*)kutil_data(t))[i] = (int32_t)v;
    } else {
      ((uint16_t*)kutil_data(t))[i] = kutil_f32_to_bf16((float)v);
    }
  }
  return t;
}

static void k_batch_matmul_v3(tfe_kernel_context* k) {
  TF_DataType to = k->output_types != NULL ? k->output_types[0]
                                           : k->inputs[0]->dtype;
  TF_Tensor* a = convert_to(k->inputs[0], to);
  TF_Tensor* b = convert_to(k->inputs[1], to);
  TF_Tensor* const* saved = k->inputs;
  TF_Tensor* conv[2];
  if (a == NULL || b == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in BatchMatMulV3");
  } else {
    conv[0] = a;
    conv[1] = b;
    k->inputs = conv;
    k_batch_matmul_v2(k);
    k->inputs = saved;
  }
  TF_DeleteTensor(a);
  TF_DeleteTensor(b);
}

static void register_v3(TF_DataType ta, TF_DataType tb, TF_DataType tout) {
  tfe_kernel_reg reg;
  TF_Status* s = TF_NewStatus();
  TF_DataType t[3] = {ta, tb, tout};
  memset(&reg, 0, sizeof reg);
  reg.op_name = "BatchMatMulV3";
  reg.device_type = "CPU";
  reg.compute = k_batch_matmul_v3;
  reg.constraints[0].attr = "Ta";
  reg.constraints[0].types = &t[0];
  reg.constraints[0].num_types = 1;
  reg.constraints[1].attr = "Tb";
  reg.constraints[1].types = &t[1];
  reg.constraints[1].num_types = 1;
  reg.constraints[2].attr = "Tout";
  reg.constraints[2].types = &t[2];
  reg.constraints[2].num_types = 1;
  reg.num_constraints = 3;
  if (s != NULL) {
    tfe_kernel_register(&reg, s);
    TF_DeleteStatus(s);
  }
}

void tfe_register_matmul_kernels(void) {
  static const TF_DataType types[] = {TF_FLOAT,   TF_DOUBLE, TF_HALF,
                                      TF_BFLOAT16, TF_INT16, TF_INT32,
                                      TF_INT64,   TF_COMPLEX64,
                                      TF_COMPLEX128};
  tfe_kutil_register("MatMul", k_matmul, "T", types, KUTIL_COUNT(types), NULL,
                     NULL, 0);
  tfe_kutil_register("BatchMatMul", k_batch_matmul, "T", types,
                     KUTIL_COUNT(types), NULL, NULL, 0);
  tfe_kutil_register("BatchMatMulV2", k_batch_matmul_v2, "T", types,
                     KUTIL_COUNT(types), NULL, NULL, 0);
  {
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; i++) {
      register_v3(types[i], types[i], types[i]);
    }
    register_v3(TF_INT8, TF_INT8, TF_INT32);
    register_v3(TF_UINT8, TF_INT8, TF_INT32);
    register_v3(TF_INT8, TF_UINT8, TF_INT32);
    register_v3(TF_UINT8, TF_UINT8, TF_INT32);
    register_v3(TF_BFLOAT16, TF_INT8, TF_BFLOAT16);
    register_v3(TF_BFLOAT16, TF_UINT8, TF_BFLOAT16);
    register_v3(TF_INT8, TF_BFLOAT16, TF_BFLOAT16);
    register_v3(TF_UINT8, TF_BFLOAT16, TF_BFLOAT16);
  }
}
