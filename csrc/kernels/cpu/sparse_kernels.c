/* CPU kernels of the sparse op group (tf.sparse): SparseTensorDenseMatMul,
 * SparseToDense, SparseReorder, SparseReshape, SparseTensorDenseAdd and
 * SparseDenseCwiseAdd/Mul/Div here; segment reductions, SparseReduce*,
 * SparseSoftmax, SparseAdd and SparseAddGrad in sparse_reduce.c. Checks,
 * messages and results follow TensorFlow 2.21's kernels (values recorded
 * in tests/data/sparse_ops_tf221.json). Op definitions:
 * csrc/ops/defs_sparse.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/threadpool.h"
#include "kernels/cpu/sparse2_common.h"

void tfe_register_cpu_sparse_kernels(void);
void tfe_register_cpu_sparse_reduce_kernels(void);

/* ------------------------------------------------------------ utilities */

int64_t* tfe_sparse_read_i64(tfe_kernel_context* k, const TF_Tensor* t) {
  int64_t n = kutil_num_elements(t), i;
  int64_t* out = (int64_t*)tfe_malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  if (out == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM reading sparse indices");
    return NULL;
  }
  if (t->dtype == TF_INT64) {
    if (n > 0) memcpy(out, kutil_data(t), (size_t)n * sizeof(int64_t));
  } else {
    for (i = 0; i < n; i++) out[i] = kutil_get_int(t, i);
  }
  return out;
}

/* Merge sort of perm by the rows it names (stable). */
static void sort_merge(const int64_t* ind, int ndims, int64_t* a, int64_t* tmp,
                       int64_t n) {
  int64_t mid, i, j, o;
  if (n < 16) {
    for (i = 1; i < n; i++) {
      int64_t v = a[i];
      j = i;
      while (j > 0 && sp_cmp_rows(ind, a[j - 1], ind, v, ndims) > 0) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = v;
    }
    return;
  }
  mid = n / 2;
  sort_merge(ind, ndims, a, tmp, mid);
  sort_merge(ind, ndims, a + mid, tmp, n - mid);
  if (sp_cmp_rows(ind, a[mid - 1], ind, a[mid], ndims) <= 0) return;
  memcpy(tmp, a, (size_t)mid * sizeof(int64_t));
  i = 0;
  j = mid;
  o = 0;
  while (i < mid && j < n) {
    if (sp_cmp_rows(ind, a[j], ind, tmp[i], ndims) < 0) {
      a[o++] = a[j++];
    } else {
      a[o++] = tmp[i++];
    }
  }
  while (i < mid) a[o++] = tmp[i++];
}

/* Sorts (key, position) pairs by key, stably (LSD radix on 16-bit
 * digits, up to the highest digit maxkey uses). */
static int sort_keys(uint64_t* key, int64_t* perm, int64_t n, uint64_t maxkey) {
  uint64_t* k2 = (uint64_t*)tfe_malloc((size_t)n * sizeof(uint64_t));
  int64_t* p2 = (int64_t*)tfe_malloc((size_t)n * sizeof(int64_t));
  int64_t* cnt = (int64_t*)tfe_malloc(65536 * sizeof(int64_t));
  int shift;
  if (k2 == NULL || p2 == NULL || cnt == NULL) {
    tfe_free(k2);
    tfe_free(p2);
    tfe_free(cnt);
    return 0;
  }
  for (shift = 0; shift < 64 && (maxkey >> shift) != 0; shift += 16) {
    int64_t i, sum = 0;
    memset(cnt, 0, 65536 * sizeof(int64_t));
    for (i = 0; i < n; i++) cnt[(key[i] >> shift) & 0xffff]++;
    for (i = 0; i < 65536; i++) {
      int64_t c = cnt[i];
      cnt[i] = sum;
      sum += c;
    }
    for (i = 0; i < n; i++) {
      int64_t d = cnt[(key[i] >> shift) & 0xffff]++;
      k2[d] = key[i];
      p2[d] = perm[i];
    }
    memcpy(key, k2, (size_t)n * sizeof(uint64_t));
    memcpy(perm, p2, (size_t)n * sizeof(int64_t));
  }
  tfe_free(k2);
  tfe_free(p2);
  tfe_free(cnt);
  return 1;
}

int tfe_sparse_sort_rows(const int64_t* ind, int64_t n, int ndims,
                         int64_t* perm) {
  int64_t i;
  int d, sorted = 1, keyable = 1;
  int64_t maxd[64];
  uint64_t maxkey = 0;
  for (i = 0; i < n; i++) perm[i] = i;
  for (i = 1; i < n && sorted; i++) {
    if (sp_cmp_rows(ind, i - 1, ind, i, ndims) > 0) sorted = 0;
  }
  if (sorted || n < 2) return 1;
  /* Rows of non-negative coordinates whose mixed-radix number fits in 64
   * bits sort as integer keys (radix sort); others merge-sort. */
  if (ndims > 64 || ndims < 1) keyable = 0;
  for (d = 0; d < ndims && keyable; d++) maxd[d] = 0;
  for (i = 0; i < n && keyable; i++) {
    for (d = 0; d < ndims; d++) {
      int64_t v = ind[i * ndims + d];
      if (v < 0) {
        keyable = 0;
        break;
      }
      if (v > maxd[d]) maxd[d] = v;
    }
  }
  if (keyable) {
    uint64_t span = 1;
    for (d = ndims - 1; d >= 0; d--) {
      uint64_t r = (uint64_t)maxd[d] + 1;
      if (span > UINT64_MAX / r) {
        keyable = 0;
        break;
      }
      span *= r;
    }
    maxkey = span - 1;
  }
  if (keyable) {
    uint64_t* key = (uint64_t*)tfe_malloc((size_t)n * sizeof(uint64_t));
    if (key != NULL) {
      int ok;
      for (i = 0; i < n; i++) {
        uint64_t kv = 0;
        for (d = 0; d < ndims; d++) {
          kv = kv * ((uint64_t)maxd[d] + 1) + (uint64_t)ind[i * ndims + d];
        }
        key[i] = kv;
      }
      ok = sort_keys(key, perm, n, maxkey);
      tfe_free(key);
      if (ok) return 1;
      for (i = 0; i < n; i++) perm[i] = i;
    }
  }
  {
    int64_t* tmp = (int64_t*)tfe_malloc((size_t)(n / 2 + 1) * sizeof(int64_t));
    if (tmp == NULL) return 0;
    sort_merge(ind, ndims, perm, tmp, n);
    tfe_free(tmp);
  }
  return 1;
}

static int is_vector(const TF_Tensor* t) { return t->num_dims == 1; }
static int is_matrix(const TF_Tensor* t) { return t->num_dims == 2; }
static int is_scalar(const TF_Tensor* t) { return t->num_dims == 0; }

/* ------------------------------------------------ SparseTensorDenseMatMul */

typedef struct mm_args {
  const int64_t* ind;   /* [nnz, 2] */
  int mcol, kcol;       /* which index column is the output row / inner */
  const void* vals;     /* nnz values (conjugated into cvals when needed) */
  const void* b;        /* [K, N] (already transposed) */
  void* out;            /* [M, N] */
  int64_t nnz, n;
  TF_DataType dt;
} mm_args;

static void mm_cols_f32(void* arg, int64_t c0, int64_t c1) {
  const mm_args* a = (const mm_args*)arg;
  const float* v = (const float*)a->vals;
  const float* b = (const float*)a->b;
  float* o = (float*)a->out;
  int64_t i, n = a->n, w = c1 - c0;
  for (i = 0; i < a->nnz; i++) {
    int64_t m = a->ind[2 * i + a->mcol], kk = a->ind[2 * i + a->kcol];
    float s = v[i];
    float* restrict orow = o + m * n + c0;
    const float* restrict brow = b + kk * n + c0;
    int64_t j;
    for (j = 0; j < w; j++) orow[j] += s * brow[j];
  }
}

static void mm_cols_f64(void* arg, int64_t c0, int64_t c1) {
  const mm_args* a = (const mm_args*)arg;
  const double* v = (const double*)a->vals;
  const double* b = (const double*)a->b;
  double* o = (double*)a->out;
  int64_t i, n = a->n, w = c1 - c0;
  for (i = 0; i < a->nnz; i++) {
    int64_t m = a->ind[2 * i + a->mcol], kk = a->ind[2 * i + a->kcol];
    double s = v[i];
    double* restrict orow = o + m * n + c0;
    const double* restrict brow = b + kk * n + c0;
    int64_t j;
    for (j = 0; j < w; j++) orow[j] += s * brow[j];
  }
}

static void mm_cols_i32(void* arg, int64_t c0, int64_t c1) {
  const mm_args* a = (const mm_args*)arg;
  const int32_t* v = (const int32_t*)a->vals;
  const int32_t* b = (const int32_t*)a->b;
  int32_t* o = (int32_t*)a->out;
  int64_t i, n = a->n, w = c1 - c0;
  for (i = 0; i < a->nnz; i++) {
    int64_t m = a->ind[2 * i + a->mcol], kk = a->ind[2 * i + a->kcol];
    uint32_t s = (uint32_t)v[i];
    int32_t* orow = o + m * n + c0;
    const int32_t* brow = b + kk * n + c0;
    int64_t j;
    for (j = 0; j < w; j++) {
      orow[j] = (int32_t)((uint32_t)orow[j] + s * (uint32_t)brow[j]);
    }
  }
}

/* complex: interleaved pairs; T is float or double */
#define MM_COMPLEX(NAME, T)                                               \
  static void NAME(void* arg, int64_t c0, int64_t c1) {                  \
    const mm_args* a = (const mm_args*)arg;                              \
    const T* v = (const T*)a->vals;                                      \
    const T* b = (const T*)a->b;                                         \
    T* o = (T*)a->out;                                                   \
    int64_t i, n = a->n;                                                 \
    for (i = 0; i < a->nnz; i++) {                                       \
      int64_t m = a->ind[2 * i + a->mcol], kk = a->ind[2 * i + a->kcol]; \
      T sr = v[2 * i], si = v[2 * i + 1];                                \
      T* orow = o + 2 * m * n;                                           \
      const T* brow = b + 2 * kk * n;                                    \
      int64_t j;                                                         \
      for (j = c0; j < c1; j++) {                                        \
        T br = brow[2 * j], bi = brow[2 * j + 1];                        \
        orow[2 * j] += sr * br - si * bi;                                \
        orow[2 * j + 1] += sr * bi + si * br;                            \
      }                                                                  \
    }                                                                    \
  }
MM_COMPLEX(mm_cols_c64, float)
MM_COMPLEX(mm_cols_c128, double)

static void k_sparse_tensor_dense_matmul(tfe_kernel_context* k) {
  const TF_Tensor* ai = k->inputs[0];
  const TF_Tensor* av = k->inputs[1];
  const TF_Tensor* as = k->inputs[2];
  const TF_Tensor* b = k->inputs[3];
  int adj_a = kutil_attr_bool(k, "adjoint_a", 0);
  int adj_b = kutil_attr_bool(k, "adjoint_b", 0);
  TF_DataType dt = b->dtype;
  int64_t nnz, ash[2], outer_l, inner_l, outer_r, inner_r, i, dims[2];
  int64_t* ind = NULL;
  void* vals = NULL;
  void* bt = NULL;
  void* work = NULL;
  TF_Tensor* out;
  kutil_shape_buf sb;
  int cplx = dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
  int mcol = adj_a ? 1 : 0, kcol = adj_a ? 0 : 1;
  if (!is_vector(as)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Tensor 'a_shape' is not a vector");
    return;
  }
  if (kutil_num_elements(as) != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Tensor 'a_shape' must have 2 elements");
    return;
  }
  if (!is_vector(av)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Tensor 'a_values' is not a vector");
    return;
  }
  if (!is_matrix(b)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Tensor 'b' is not a matrix");
    return;
  }
  if (!is_matrix(ai)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Tensor 'a_indices' is not a matrix");
    return;
  }
  nnz = ai->dims[0];
  if (av->dims[0] != nnz) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of rows of a_indices does not match number of entries "
               "in a_values");
    return;
  }
  if (ai->dims[1] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of columns of a_indices does not match number of "
               "entries in a_shape");
    return;
  }
  ash[0] = kutil_get_int(as, 0);
  ash[1] = kutil_get_int(as, 1);
  outer_l = adj_a ? ash[1] : ash[0];
  inner_l = adj_a ? ash[0] : ash[1];
  outer_r = adj_b ? b->dims[0] : b->dims[1];
  inner_r = adj_b ? b->dims[1] : b->dims[0];
  if (inner_l != inner_r) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Cannot multiply A and B because inner dimension does not "
               "match: %lld vs. %lld.  Did you forget a transpose?  "
               "Dimensions of A: [%lld, %lld).  Dimensions of B: %s",
               (long long)inner_l, (long long)inner_r, (long long)ash[0],
               (long long)ash[1], kutil_tshape(b, &sb));
    return;
  }
  if (outer_l < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
               (long long)outer_l);
    return;
  }
  dims[0] = outer_l;
  dims[1] = outer_r;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, 2);
  if (out == NULL) return;
  if (outer_l == 0 || outer_r == 0) return;
  memset(kutil_data(out), 0, (size_t)(outer_l * outer_r) * kutil_esize(dt));
  if (nnz == 0) return;
  ind = tfe_sparse_read_i64(k, ai);
  if (ind == NULL) return;
  /* bounds first: the product only runs on valid indices */
  for (i = 0; i < nnz; i++) {
    int64_t m = ind[2 * i + mcol], kk = ind[2 * i + kcol];
    if (kk < 0 || kk >= inner_l) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "k (%lld) from index[%lld,%d] out of bounds (>=%lld)",
                 (long long)kk, (long long)i, kcol, (long long)inner_l);
      goto done;
    }
    if (m < 0 || m >= outer_l) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "m (%lld) from index[%lld,%d] out of bounds (>=%lld)",
                 (long long)m, (long long)i, mcol, (long long)outer_l);
      goto done;
    }
  }
  {
    /* Work type: half/bfloat16 compute in float. The B operand is laid
     * out [K, N] (transposed/conjugated for adjoint_b); values are
     * conjugated for adjoint_a. */
    TF_DataType wt = (dt == TF_HALF || dt == TF_BFLOAT16) ? TF_FLOAT : dt;
    size_t wsz = kutil_esize(wt);
    int64_t K = inner_r, N = outer_r, r, c;
    int need_b = adj_b || wt != dt;
    mm_args ma;
    vals = tfe_malloc((size_t)nnz * wsz);
    if (need_b) bt = tfe_malloc((size_t)(K * N) * wsz);
    if (wt != dt) work = tfe_malloc((size_t)(outer_l * N) * wsz);
    if (vals == NULL || (need_b && bt == NULL) || (wt != dt && work == NULL)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseTensorDenseMatMul");
      goto done;
    }
    for (i = 0; i < nnz; i++) {
      spv v;
      sp_load(dt, kutil_data(av), i, &v);
      if (adj_a) v.im = -v.im;
      sp_store(wt, vals, i, &v);
    }
    if (need_b) {
      for (r = 0; r < K; r++) {
        for (c = 0; c < N; c++) {
          spv v;
          sp_load(dt, kutil_data(b), adj_b ? c * K + r : r * N + c, &v);
          if (adj_b) v.im = -v.im;
          sp_store(wt, bt, r * N + c, &v);
        }
      }
    }
    if (work != NULL) memset(work, 0, (size_t)(outer_l * N) * wsz);
    ma.ind = ind;
    ma.mcol = mcol;
    ma.kcol = kcol;
    ma.vals = vals;
    ma.b = need_b ? bt : kutil_data(b);
    ma.out = work != NULL ? work : kutil_data(out);
    ma.nnz = nnz;
    ma.n = N;
    ma.dt = wt;
    {
      tfe_parallel_fn fn = wt == TF_FLOAT      ? mm_cols_f32
                           : wt == TF_DOUBLE   ? mm_cols_f64
                           : wt == TF_INT32    ? mm_cols_i32
                           : wt == TF_COMPLEX64 ? mm_cols_c64
                                               : mm_cols_c128;
      /* Split the columns over the pool when there is enough work; each
       * chunk owns its columns of every output row. */
      double work_items = (double)nnz * (double)N;
      if (work_items >= 65536.0 && N >= 32) {
        tfe_parallel_for(tfe_kernel_threadpool(k), N, cplx ? 16 : 32, fn,
                         &ma);
      } else {
        fn(&ma, 0, N);
      }
    }
    if (work != NULL) {
      int64_t cnt = outer_l * N;
      const float* w = (const float*)work;
      uint16_t* o = (uint16_t*)kutil_data(out);
      for (i = 0; i < cnt; i++) {
        o[i] = dt == TF_HALF ? kutil_f32_to_f16(w[i]) : kutil_f32_to_bf16(w[i]);
      }
    }
  }
done:
  tfe_free(ind);
  tfe_free(vals);
  tfe_free(bt);
  tfe_free(work);
}

/* --------------------------------------------------------- SparseToDense */

static void k_sparse_to_dense(tfe_kernel_context* k) {
  const TF_Tensor* si = k->inputs[0];
  const TF_Tensor* os = k->inputs[1];
  const TF_Tensor* sv = k->inputs[2];
  const TF_Tensor* dv = k->inputs[3];
  int validate = kutil_attr_bool(k, "validate_indices", 1);
  TF_DataType dt = sv->dtype;
  size_t esz = kutil_esize(dt);
  kutil_shape_buf b1;
  int64_t num_elems, num_dims, i, total;
  int64_t dims[TFE_MAX_DIMS];
  int64_t strides[TFE_MAX_DIMS];
  int64_t* owned = NULL;
  const int64_t* ind;
  int sorted2d = 1; /* 2-D, in bounds, strictly increasing */
  TF_Tensor* out;
  char* o;
  const char* vals = (const char*)kutil_data(sv);
  int d, scalar_vals;
  if (si->num_dims > 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "sparse_indices should be a scalar, vector, or matrix, got "
               "shape %s",
               kutil_tshape(si, &b1));
    return;
  }
  num_elems = si->num_dims > 0 ? si->dims[0] : 1;
  num_dims = si->num_dims > 1 ? si->dims[1] : 1;
  if (!is_vector(os)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "output_shape must be rank 1, got shape %s",
               kutil_tshape(os, &b1));
    return;
  }
  if (os->dims[0] != num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "output_shape has incorrect number of elements: %lld should "
               "be: %lld",
               (long long)os->dims[0], (long long)num_dims);
    return;
  }
  scalar_vals = is_scalar(sv);
  if (!scalar_vals && !(is_vector(sv) && sv->dims[0] == num_elems)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "sparse_values has incorrect shape %s, should be [] or [%lld]",
               kutil_tshape(sv, &b1), (long long)num_elems);
    return;
  }
  if (!is_scalar(dv)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "default_value should be a scalar.");
    return;
  }
  if (num_dims > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "output_shape has too many dimensions");
    return;
  }
  for (d = 0; d < num_dims; d++) {
    dims[d] = kutil_get_int(os, d);
    if (dims[d] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                 (long long)dims[d]);
      return;
    }
  }
  total = 1;
  for (d = 0; d < num_dims; d++) {
    if (!tfe_checked_mul_i64(total, dims[d], &total)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Encountered overflow when multiplying shape dimensions");
      return;
    }
  }
  if (si->dtype == TF_INT64) {
    ind = (const int64_t*)kutil_data(si);
  } else {
    owned = tfe_sparse_read_i64(k, si);
    if (owned == NULL) return;
    ind = owned;
  }
  /* validation: bounds, then strictly increasing order (a quick pass for
   * the common sorted, in-bounds 2-D case; the general loop reports) */
  i = 0;
  if (num_dims == 2) {
    const int64_t d0 = dims[0], d1 = dims[1];
    int64_t p0 = -1, p1 = -1;
    for (; i < num_elems; i++) {
      int64_t r0 = ind[2 * i], r1 = ind[2 * i + 1];
      if ((uint64_t)r0 >= (uint64_t)d0 || (uint64_t)r1 >= (uint64_t)d1) break;
      if (!(r0 > p0 || (r0 == p0 && r1 > p1))) {
        if (validate) break;
        sorted2d = 0;
      }
      p0 = r0;
      p1 = r1;
    }
    if (i < num_elems) sorted2d = 0;
  } else {
    sorted2d = 0;
  }
  if (i < num_elems && validate) {
    /* (rows before i passed the quick pass: TF's checks from the start
     * report the same first failure) */
    if (!sp2_indices_valid(k, ind, num_elems, (int)num_dims, dims)) goto done;
  }
  for (; i < num_elems && !validate; i++) {
    const int64_t* row = ind + i * num_dims;
    for (d = 0; d < num_dims; d++) {
      if (row[d] < 0 || row[d] >= dims[d]) {
        char s[512];
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Indices are not valid (out of bounds).  Shape: %s",
                   kutil_shape_str(dims, (int)num_dims, s, sizeof s));
        goto done;
      }
    }
  }
  out = tfe_kernel_alloc_output(k, 0, dt, dims, (int)num_dims);
  if (out == NULL) goto done;
  o = (char*)kutil_data(out);
  if (total == 0) goto done;
  if (sorted2d && dt != TF_STRING && !scalar_vals) {
    /* One pass over the output: default runs between the values (each
     * cache line is written once). */
    const char* dp = (const char*)kutil_data(dv);
    int all_zero = 1;
    size_t q;
    int64_t pos = 0, d1 = dims[1];
    for (q = 0; q < esz && all_zero; q++) all_zero = dp[q] == 0;
    for (i = 0; i <= num_elems; i++) {
      int64_t off = i < num_elems ? ind[2 * i] * d1 + ind[2 * i + 1] : total;
      int64_t gap = off - pos;
      if (gap > 0) {
        char* g0 = o + (size_t)pos * esz;
        if (all_zero) {
          memset(g0, 0, (size_t)gap * esz);
        } else if (esz == 4) {
          uint32_t v4, *g4 = (uint32_t*)(void*)g0;
          int64_t e;
          memcpy(&v4, dp, 4);
          for (e = 0; e < gap; e++) g4[e] = v4;
        } else {
          int64_t e;
          for (e = 0; e < gap; e++) memcpy(g0 + (size_t)e * esz, dp, esz);
        }
      }
      if (i < num_elems) {
        if (esz == 4) {
          ((uint32_t*)(void*)o)[off] = ((const uint32_t*)(const void*)vals)[i];
        } else if (esz == 8) {
          ((uint64_t*)(void*)o)[off] = ((const uint64_t*)(const void*)vals)[i];
        } else {
          memcpy(o + (size_t)off * esz, vals + (size_t)i * esz, esz);
        }
        pos = off + 1;
      }
    }
    goto done;
  }
  {
    /* fill with the default value */
    const char* dp = (const char*)kutil_data(dv);
    int all_zero = dt != TF_STRING;
    size_t q;
    for (q = 0; q < esz && all_zero; q++) all_zero = dp[q] == 0;
    if (dt == TF_STRING) {
      for (i = 0; i < total; i++) kutil_copy1(dt, esz, o + (size_t)i * esz, dp);
    } else if (all_zero) {
      memset(o, 0, (size_t)total * esz);
    } else if (esz == 1) {
      memset(o, *dp, (size_t)total);
    } else {
      int64_t filled = 1;
      memcpy(o, dp, esz);
      while (filled < total) {
        int64_t c = filled < total - filled ? filled : total - filled;
        memcpy(o + (size_t)filled * esz, o, (size_t)c * esz);
        filled += c;
      }
    }
  }
  strides[num_dims - 1] = 1;
  for (d = (int)num_dims - 2; d >= 0; d--) strides[d] = strides[d + 1] * dims[d + 1];
  if (num_dims == 2 && esz == 4 && !scalar_vals) {
    const int64_t s0 = strides[0];
    uint32_t* o4 = (uint32_t*)(void*)o;
    const uint32_t* v4 = (const uint32_t*)(const void*)vals;
    for (i = 0; i < num_elems; i++) o4[ind[2 * i] * s0 + ind[2 * i + 1]] = v4[i];
    goto done;
  }
  for (i = 0; i < num_elems; i++) {
    const int64_t* row = ind + i * num_dims;
    int64_t off = 0;
    for (d = 0; d < num_dims; d++) off += row[d] * strides[d];
    kutil_copy1(dt, esz, o + (size_t)off * esz,
                vals + (scalar_vals ? 0 : (size_t)i * esz));
  }
done:
  tfe_free(owned);
}

/* --------------------------------------------------------- SparseReorder */

/* The checks TF's SparseTensor::Create makes; returns 1 when they pass. */
static int check_sparse_tensor(tfe_kernel_context* k, const TF_Tensor* ind,
                               const TF_Tensor* vals, const TF_Tensor* shape) {
  kutil_shape_buf b1;
  if (!is_vector(shape)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input shape should be a vector but received shape %s",
               kutil_tshape(shape, &b1));
    return 0;
  }
  return sp2_validate(k, ind, vals, shape, SP2_VALIDATE_NONE);
}

static void k_sparse_reorder(tfe_kernel_context* k) {
  const TF_Tensor* ii = k->inputs[0];
  const TF_Tensor* iv = k->inputs[1];
  const TF_Tensor* is = k->inputs[2];
  TF_DataType dt = iv->dtype;
  size_t esz = kutil_esize(dt);
  int64_t nnz, nd, i, *perm = NULL;
  const int64_t* ind;
  TF_Tensor *oi, *ov;
  if (!check_sparse_tensor(k, ii, iv, is)) return;
  nnz = ii->dims[0];
  nd = ii->dims[1];
  ind = (const int64_t*)kutil_data(ii);
  oi = tfe_kernel_alloc_output(k, 0, TF_INT64, ii->dims, 2);
  if (oi == NULL) return;
  ov = tfe_kernel_alloc_output(k, 1, dt, iv->dims, 1);
  if (ov == NULL) return;
  if (nnz == 0) return;
  if (nd == 0) {
    kutil_copy(dt, kutil_data(ov), kutil_data(iv), nnz);
    return;
  }
  perm = (int64_t*)tfe_malloc((size_t)nnz * sizeof(int64_t));
  if (perm == NULL || !tfe_sparse_sort_rows(ind, nnz, (int)nd, perm)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseReorder");
    tfe_free(perm);
    return;
  }
  {
    int64_t* o = (int64_t*)kutil_data(oi);
    char* v = (char*)kutil_data(ov);
    const char* src = (const char*)kutil_data(iv);
    for (i = 0; i < nnz; i++) {
      memcpy(o + i * nd, ind + perm[i] * nd, (size_t)nd * sizeof(int64_t));
      kutil_copy1(dt, esz, v + (size_t)i * esz, src + (size_t)perm[i] * esz);
    }
  }
  tfe_free(perm);
}

/* --------------------------------------------------------- SparseReshape */

static void k_sparse_reshape(tfe_kernel_context* k) {
  const TF_Tensor* ii = k->inputs[0];
  const TF_Tensor* is = k->inputs[1];
  const TF_Tensor* ns = k->inputs[2];
  kutil_shape_buf b1;
  int64_t nnz, in_rank, out_rank, dense = 1, product = 1, i, unknown = -1;
  const int64_t* ind;
  const int64_t* ishape;
  const int64_t* req;
  int64_t* oshape;
  int64_t dims1[1];
  TF_Tensor *oi, *os;
  int d;
  if (!is_matrix(ii)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input must be a matrix.");
    return;
  }
  if (!is_vector(is)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input shape must be a vector.");
    return;
  }
  if (!is_vector(ns)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Target shape must be a vector.");
    return;
  }
  if (ii->dims[1] != is->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input tensor rank must match input shape length.");
    return;
  }
  nnz = ii->dims[0];
  in_rank = is->dims[0];
  out_rank = ns->dims[0];
  ind = (const int64_t*)kutil_data(ii);
  ishape = (const int64_t*)kutil_data(is);
  req = (const int64_t*)kutil_data(ns);
  for (d = 0; d < in_rank; d++) {
    if (ishape[d] < 0 || !tfe_checked_mul_i64(dense, ishape[d], &dense)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input shape %s is not valid",
                 kutil_shape_str(ishape, (int)in_rank, b1.s, sizeof b1.s));
      return;
    }
  }
  dims1[0] = out_rank;
  os = tfe_kernel_alloc_output(k, 1, TF_INT64, dims1, 1);
  if (os == NULL) return;
  oshape = (int64_t*)kutil_data(os);
  for (d = 0; d < out_rank; d++) {
    int64_t s = req[d];
    if (s == -1) {
      if (unknown != -1) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "only one output dimension may be -1, not both %lld and %d",
                   (long long)unknown, d);
        return;
      }
      unknown = d;
      oshape[d] = 1;
    } else {
      if (s < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "size %d must be non-negative, not %lld", d, (long long)s);
        return;
      }
      oshape[d] = s;
      if (!tfe_checked_mul_i64(product, s, &product)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Encountered overflow when multiplying shape dimensions");
        return;
      }
    }
  }
  if (unknown != -1) {
    char s1[512], s2[512];
    if (product <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "reshape cannot infer the missing input size for an empty "
                 "tensor unless all specified input sizes are non-zero");
      return;
    }
    if (dense % product != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input to reshape is a SparseTensor with %lld dense values, "
                 "but the requested shape requires a multiple of %lld. "
                 "input_shape=%s output_shape=%s",
                 (long long)dense, (long long)product,
                 kutil_shape_str(ishape, (int)in_rank, s1, sizeof s1),
                 kutil_shape_str(oshape, (int)out_rank, s2, sizeof s2));
      return;
    }
    oshape[unknown] = dense / product;
    product = dense;
  }
  if (product != dense) {
    char s1[512], s2[512];
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input to reshape is a tensor with %lld dense values, but the "
               "requested shape has %lld. input_shape=%s output_shape=%s",
               (long long)dense, (long long)product,
               kutil_shape_str(ishape, (int)in_rank, s1, sizeof s1),
               kutil_shape_str(oshape, (int)out_rank, s2, sizeof s2));
    return;
  }
  {
    int64_t odims[2];
    int64_t* o;
    odims[0] = nnz;
    odims[1] = out_rank;
    oi = tfe_kernel_alloc_output(k, 0, TF_INT64, odims, 2);
    if (oi == NULL) return;
    o = (int64_t*)kutil_data(oi);
    if (nnz == 0 || out_rank == 0) return;
    for (i = 0; i < nnz; i++) {
      /* linear position in the input's row-major order (wraps for
       * out-of-bounds indices, as TF does not check them) */
      uint64_t lin = 0;
      for (d = 0; d < in_rank; d++) {
        lin = lin * (uint64_t)ishape[d] + (uint64_t)ind[i * in_rank + d];
      }
      for (d = (int)out_rank - 1; d >= 0; d--) {
        uint64_t s = (uint64_t)oshape[d];
        o[i * out_rank + d] = s ? (int64_t)(lin % s) : 0;
        lin = s ? lin / s : 0;
      }
    }
  }
}

/* -------------------------------------------------- SparseTensorDenseAdd */

static void k_sparse_tensor_dense_add(tfe_kernel_context* k) {
  const TF_Tensor* ai = k->inputs[0];
  const TF_Tensor* av = k->inputs[1];
  const TF_Tensor* as = k->inputs[2];
  const TF_Tensor* b = k->inputs[3];
  TF_DataType dt = b->dtype;
  int kind = sp_kind(dt);
  kutil_shape_buf b1, b2;
  int64_t nnz, nd, i, strides[TFE_MAX_DIMS];
  int64_t* ind = NULL;
  TF_Tensor* out;
  int d;
  if (!is_matrix(ai)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input a_indices should be a matrix but received shape: %s",
               kutil_tshape(ai, &b1));
    return;
  }
  if (!is_vector(av) || !is_vector(as)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Inputs a_values and a_shape should be vectors but received "
               "shapes: %s and %s",
               kutil_tshape(av, &b1), kutil_tshape(as, &b2));
    return;
  }
  nnz = ai->dims[0];
  nd = ai->dims[1];
  if (av->dims[0] != nnz) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Dimensions %lld and %lld are not compatible", (long long)nnz,
               (long long)av->dims[0]);
    return;
  }
  if (as->dims[0] != b->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Two operands have different ranks; received: %lld and %d",
               (long long)as->dims[0], b->num_dims);
    return;
  }
  for (d = 0; d < b->num_dims; d++) {
    int64_t s = kutil_get_int(as, d);
    if (s != b->dims[d]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Dimension %d does not equal (no broadcasting is supported): "
                 "sparse side %lld vs dense side %lld",
                 d, (long long)s, (long long)b->dims[d]);
      return;
    }
  }
  if (nd != b->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Dimensions %lld and %d are not compatible", (long long)nd,
               b->num_dims);
    return;
  }
  if (b->num_dims < 1 || b->num_dims > 5) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Only tensors with ranks between 1 and 5 are currently "
               "supported.  Tensor rank: %d",
               b->num_dims);
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, dt, b->dims, b->num_dims);
  if (out == NULL) return;
  kutil_copy(dt, kutil_data(out), kutil_data(b), kutil_num_elements(b));
  if (nnz == 0) return;
  ind = tfe_sparse_read_i64(k, ai);
  if (ind == NULL) return;
  strides[nd - 1] = 1;
  for (d = (int)nd - 2; d >= 0; d--) strides[d] = strides[d + 1] * b->dims[d + 1];
  for (i = 0; i < nnz; i++) {
    int64_t off = 0;
    spv x, y;
    for (d = 0; d < nd; d++) {
      int64_t v = ind[i * nd + d];
      if (v < 0 || v >= b->dims[d]) {
        char s[512];
        size_t len = 0;
        int e;
        s[0] = '\0';
        for (e = 0; e < b->num_dims && len < sizeof s; e++) {
          len += (size_t)snprintf(s + len, sizeof s - len, e ? " %lld" : "%lld",
                                  (long long)b->dims[e]);
        }
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Sparse tensor has an invalid index on dimension %d: "
                   "a_indices(%lld,%d) = %lld, dense tensor shape: %s",
                   d, (long long)i, d, (long long)v, s);
        goto done;
      }
      off += v * strides[d];
    }
    sp_load(dt, kutil_data(out), off, &x);
    sp_load(dt, kutil_data(av), i, &y);
    sp_add(kind, &x, &y);
    sp_store(dt, kutil_data(out), off, &x);
  }
done:
  tfe_free(ind);
}

/* ----------------------------------------------- SparseDenseCwise{Add,Mul,Div} */

enum { CW_ADD, CW_MUL, CW_DIV };

static void cwise(tfe_kernel_context* k, int op) {
  const TF_Tensor* si = k->inputs[0];
  const TF_Tensor* sv = k->inputs[1];
  const TF_Tensor* ss = k->inputs[2];
  const TF_Tensor* dn = k->inputs[3];
  TF_DataType dt = sv->dtype;
  int kind = sp_kind(dt);
  kutil_shape_buf b1, b2;
  int64_t nnz, nd, i, shp[TFE_MAX_DIMS], dstr[TFE_MAX_DIMS];
  const int64_t* ind;
  TF_Tensor* out;
  int d, off;
  if (!is_matrix(si)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input sp_indices should be a matrix but received shape: %s",
               kutil_tshape(si, &b1));
    return;
  }
  if (!is_vector(sv) || !is_vector(ss)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Inputs sp_values and sp_shape should be vectors but received "
               "shapes: %s and %s",
               kutil_tshape(sv, &b1), kutil_tshape(ss, &b2));
    return;
  }
  nnz = si->dims[0];
  nd = ss->dims[0];
  if (sv->dims[0] != nnz) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The first dimension of values and indices should match. (%lld "
               "vs. %lld)",
               (long long)sv->dims[0], (long long)nnz);
    return;
  }
  if (si->dims[1] != nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The second dimension of indices and the length of the shape "
               "should match. (%lld vs. %lld)",
               (long long)si->dims[1], (long long)nd);
    return;
  }
  if (nd > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "sp_shape has too many dimensions");
    return;
  }
  for (d = 0; d < nd; d++) shp[d] = ((const int64_t*)kutil_data(ss))[d];
  /* dense must broadcast to sp_shape (right-aligned, dims equal or 1) */
  {
    int ok = dn->num_dims <= nd;
    off = (int)nd - dn->num_dims;
    for (d = 0; d < dn->num_dims && ok; d++) {
      int64_t a = shp[off + d], bb = dn->dims[d];
      if (bb != a && bb != 1) ok = 0;
    }
    for (d = 0; d < nd && ok; d++) {
      if (shp[d] < 0) ok = 0;
    }
    if (!ok) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "SparseDenseBinaryOpShared broadcasts dense to sparse only; "
                 "got incompatible shapes: %s vs. %s",
                 kutil_shape_str(shp, (int)nd, b1.s, sizeof b1.s),
                 kutil_tshape(dn, &b2));
      return;
    }
  }
  {
    int64_t s = 1;
    for (d = (int)nd - 1; d >= 0; d--) {
      int dd = d - off;
      if (dd >= 0 && dn->dims[dd] != 1) {
        dstr[d] = s;
        s *= dn->dims[dd];
      } else {
        dstr[d] = 0;
      }
    }
  }
  if (op == CW_DIV) {
    int64_t n = kutil_num_elements(dn);
    for (i = 0; i < n; i++) {
      spv v;
      sp_load(dt, kutil_data(dn), i, &v);
      if (sp_is_zero(kind, &v)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "SparseDenseCwiseDiv cannot divide by zero,but input dense "
                   "tensor contains zero ");
        return;
      }
    }
  }
  out = tfe_kernel_alloc_output(k, 0, dt, &nnz, 1);
  if (out == NULL) return;
  ind = (const int64_t*)kutil_data(si);
  for (i = 0; i < nnz; i++) {
    int64_t doff = 0;
    spv x, y;
    for (d = 0; d < nd; d++) {
      int64_t v = ind[i * nd + d];
      if (v < 0 || v >= shp[d]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Provided indices are out-of-bounds w.r.t. dense side with "
                   "broadcasted shape");
        return;
      }
      doff += v * dstr[d];
    }
    sp_load(dt, kutil_data(sv), i, &x);
    sp_load(dt, kutil_data(dn), doff, &y);
    if (op == CW_ADD) {
      sp_add(kind, &x, &y);
    } else if (op == CW_MUL) {
      sp_mul(kind, &x, &y);
    } else {
      sp_div(kind, &x, &y);
    }
    sp_store(dt, kutil_data(out), i, &x);
  }
}

static void k_cwise_add(tfe_kernel_context* k) { cwise(k, CW_ADD); }
static void k_cwise_mul(tfe_kernel_context* k) { cwise(k, CW_MUL); }
static void k_cwise_div(tfe_kernel_context* k) { cwise(k, CW_DIV); }

/* ------------------------------------------ SparseSparseMaximum/Minimum */

/* Shape values joined by spaces (TF's rendering of a shape vector). */
static void shape_values_str(const TF_Tensor* t, char* buf, size_t cap) {
  size_t len = 0;
  int64_t e, n = kutil_num_elements(t);
  buf[0] = '\0';
  for (e = 0; e < n && len < cap; e++) {
    len += (size_t)snprintf(buf + len, cap - len, e ? " %lld" : "%lld",
                            (long long)((const int64_t*)kutil_data(t))[e]);
  }
}

/* The union of two sparse tensors' indices, merged as if both were sorted
 * (as TF; unsorted inputs give TF's merge order), with max/min of the two
 * values where a side has no entry contributing an implicit zero. */
static void sparse_sparse_minmax(tfe_kernel_context* k, int is_max) {
  const TF_Tensor* ai = k->inputs[0];
  const TF_Tensor* av = k->inputs[1];
  const TF_Tensor* as = k->inputs[2];
  const TF_Tensor* bi = k->inputs[3];
  const TF_Tensor* bv = k->inputs[4];
  const TF_Tensor* bs = k->inputs[5];
  TF_DataType dt = av->dtype;
  int kind = sp_kind(dt);
  int64_t na, nb, nd, i = 0, j = 0, n = 0, dims2[2];
  int64_t* src = NULL;
  const int64_t *ia, *ib;
  TF_Tensor *toi, *tov;
  int d;
  if (!check_sparse_tensor(k, ai, av, as)) return;
  if (!check_sparse_tensor(k, bi, bv, bs)) return;
  if (as->dims[0] != bs->dims[0]) {
    char s1[512], s2[512];
    shape_values_str(as, s1, sizeof s1);
    shape_values_str(bs, s2, sizeof s2);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Operands do not have the same ranks; got shapes: %s and %s", s1,
               s2);
    return;
  }
  nd = as->dims[0];
  for (d = 0; d < nd; d++) {
    int64_t x = ((const int64_t*)kutil_data(as))[d];
    int64_t y = ((const int64_t*)kutil_data(bs))[d];
    if (x != y) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Operands' shapes do not match: got %lld and %lld for "
                 "dimension %d",
                 (long long)x, (long long)y, d);
      return;
    }
  }
  na = ai->dims[0];
  nb = bi->dims[0];
  ia = (const int64_t*)kutil_data(ai);
  ib = (const int64_t*)kutil_data(bi);
  src = (int64_t*)tfe_malloc((size_t)(na + nb + 1) * 2 * sizeof(int64_t));
  if (src == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in sparse-sparse min/max");
    return;
  }
  while (i < na || j < nb) {
    int c = i >= na ? 1 : j >= nb ? -1 : sp_cmp_rows(ia, i, ib, j, (int)nd);
    src[2 * n] = c <= 0 ? i++ : -1;
    src[2 * n + 1] = c >= 0 ? j++ : -1;
    n++;
  }
  dims2[0] = n;
  dims2[1] = nd;
  toi = tfe_kernel_alloc_output(k, 0, TF_INT64, dims2, 2);
  if (toi == NULL) goto done;
  tov = tfe_kernel_alloc_output(k, 1, dt, &n, 1);
  if (tov == NULL) goto done;
  for (i = 0; i < n; i++) {
    int64_t pa = src[2 * i], pb = src[2 * i + 1];
    spv x, y;
    sp_zero(&x);
    sp_zero(&y);
    if (pa >= 0) sp_load(dt, kutil_data(av), pa, &x);
    if (pb >= 0) sp_load(dt, kutil_data(bv), pb, &y);
    if (nd > 0) {
      memcpy((int64_t*)kutil_data(toi) + i * nd,
             pa >= 0 ? ia + pa * nd : ib + pb * nd, (size_t)nd * sizeof(int64_t));
    }
    if (is_max ? sp_gt(kind, &y, &x) : sp_gt(kind, &x, &y)) x = y;
    sp_store(dt, kutil_data(tov), i, &x);
  }
done:
  tfe_free(src);
}

static void k_sparse_sparse_max(tfe_kernel_context* k) {
  sparse_sparse_minmax(k, 1);
}
static void k_sparse_sparse_min(tfe_kernel_context* k) {
  sparse_sparse_minmax(k, 0);
}

/* --------------------------------------------------- SparseFillEmptyRows */

/* Rows of the dense shape with no entry get one at (row, 0, ..., 0) with
 * the default value; entries are grouped by row (stable within a row),
 * empty_row_indicator marks the filled rows and reverse_index_map gives
 * each input entry's output position. */
static void k_sparse_fill_empty_rows(tfe_kernel_context* k) {
  const TF_Tensor* ii = k->inputs[0];
  const TF_Tensor* iv = k->inputs[1];
  const TF_Tensor* ds = k->inputs[2];
  const TF_Tensor* dv = k->inputs[3];
  TF_DataType dt = iv->dtype;
  size_t esz = kutil_esize(dt);
  kutil_shape_buf b1;
  int64_t n, nd, rows, i, r, total, dims2[2];
  int64_t *start = NULL, *fill = NULL;
  const int64_t* ind;
  TF_Tensor *oi, *ov, *oe, *orv;
  if (!is_matrix(ii)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices must be a matrix, saw: %s",
               kutil_tshape(ii, &b1));
    return;
  }
  if (!is_vector(iv)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "values must be a vector, saw: %s",
               kutil_tshape(iv, &b1));
    return;
  }
  if (!is_vector(ds)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "dense_shape must be a vector, saw: %s",
               kutil_tshape(ds, &b1));
    return;
  }
  if (!is_scalar(dv)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "default_value must be a scalar, saw: %s",
               kutil_tshape(dv, &b1));
    return;
  }
  n = ii->dims[0];
  nd = ii->dims[1];
  if (iv->dims[0] != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The length of `values` (%lld) must match the first dimension "
               "of `indices` (%lld).",
               (long long)iv->dims[0], (long long)n);
    return;
  }
  if (ds->dims[0] == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dense shape cannot be empty.");
    return;
  }
  if (ds->dims[0] != nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The length of `dense_shape` (%lld) must match the second "
               "dimension of `indices` (%lld).",
               (long long)ds->dims[0], (long long)nd);
    return;
  }
  rows = ((const int64_t*)kutil_data(ds))[0];
  if (rows < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
               (long long)rows);
    return;
  }
  ind = (const int64_t*)kutil_data(ii);
  for (i = 0; i < n; i++) {
    int64_t row = ind[i * nd];
    if (row < 0 || row >= rows) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices(%lld, 0) is invalid: %lld >= %lld",
                 (long long)i, (long long)row, (long long)rows);
      return;
    }
  }
  start = (int64_t*)tfe_calloc((size_t)rows + 1, sizeof(int64_t));
  fill = (int64_t*)tfe_calloc((size_t)rows + 1, sizeof(int64_t));
  if (start == NULL || fill == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseFillEmptyRows");
    goto done;
  }
  for (i = 0; i < n; i++) start[ind[i * nd] + 1]++;
  /* an empty row gets one entry */
  for (r = 0; r < rows; r++) {
    if (start[r + 1] == 0) start[r + 1] = 1;
  }
  for (r = 0; r < rows; r++) start[r + 1] += start[r];
  total = start[rows];
  dims2[0] = total;
  dims2[1] = nd;
  oi = tfe_kernel_alloc_output(k, 0, TF_INT64, dims2, 2);
  if (oi == NULL) goto done;
  ov = tfe_kernel_alloc_output(k, 1, dt, &total, 1);
  if (ov == NULL) goto done;
  oe = tfe_kernel_alloc_output(k, 2, TF_BOOL, &rows, 1);
  if (oe == NULL) goto done;
  orv = tfe_kernel_alloc_output(k, 3, TF_INT64, &n, 1);
  if (orv == NULL) goto done;
  {
    int64_t* o = (int64_t*)kutil_data(oi);
    char* v = (char*)kutil_data(ov);
    unsigned char* e = (unsigned char*)kutil_data(oe);
    int64_t* rv = (int64_t*)kutil_data(orv);
    for (i = 0; i < n; i++) {
      int64_t row = ind[i * nd], pos = start[row] + fill[row]++;
      memcpy(o + pos * nd, ind + i * nd, (size_t)nd * sizeof(int64_t));
      kutil_copy1(dt, esz, v + (size_t)pos * esz,
                  (const char*)kutil_data(iv) + (size_t)i * esz);
      rv[i] = pos;
    }
    for (r = 0; r < rows; r++) {
      e[r] = fill[r] == 0;
      if (fill[r] == 0) {
        int64_t pos = start[r];
        memset(o + pos * nd, 0, (size_t)nd * sizeof(int64_t));
        o[pos * nd] = r;
        kutil_copy1(dt, esz, v + (size_t)pos * esz, (const char*)kutil_data(dv));
      }
    }
  }
done:
  tfe_free(start);
  tfe_free(fill);
}

/* ---------------------------------------------------------- registration */

void tfe_register_cpu_sparse_kernels(void) {
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType mm[] = {TF_FLOAT, TF_DOUBLE, TF_HALF, TF_BFLOAT16,
                                   TF_COMPLEX64, TF_COMPLEX128, TF_INT32};
  static const TF_DataType s2d[] = {KUTIL_NUMBER_TYPES, TF_BOOL, TF_STRING,
                                    TF_QINT8, TF_QUINT8, TF_QINT16,
                                    TF_QUINT16};
  /* TF also registers resource and variant values; tfe does not move
   * those through sparse tensors. */
  static const TF_DataType reorder[] = {KUTIL_NUMBER_TYPES, TF_BOOL,
                                        TF_STRING};
  static const TF_DataType num[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType real[] = {KUTIL_REAL_TYPES};
#define N_(a) (int)(sizeof a / sizeof a[0])
  tfe_kutil_register("SparseTensorDenseMatMul", k_sparse_tensor_dense_matmul,
                     "T", mm, N_(mm), "Tindices", idx, 2);
  tfe_kutil_register("SparseToDense", k_sparse_to_dense, "T", s2d, N_(s2d),
                     "Tindices", idx, 2);
  tfe_kutil_register("SparseReorder", k_sparse_reorder, "T", reorder,
                     N_(reorder), NULL, NULL, 0);
  tfe_kutil_register("SparseReshape", k_sparse_reshape, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("SparseTensorDenseAdd", k_sparse_tensor_dense_add, "T",
                     num, N_(num), "Tindices", idx, 2);
  tfe_kutil_register("SparseDenseCwiseAdd", k_cwise_add, "T", real, N_(real),
                     NULL, NULL, 0);
  tfe_kutil_register("SparseDenseCwiseMul", k_cwise_mul, "T", real, N_(real),
                     NULL, NULL, 0);
  tfe_kutil_register("SparseDenseCwiseDiv", k_cwise_div, "T", real, N_(real),
                     NULL, NULL, 0);
  tfe_kutil_register("SparseSparseMaximum", k_sparse_sparse_max, "T", real,
                     N_(real), NULL, NULL, 0);
  tfe_kutil_register("SparseSparseMinimum", k_sparse_sparse_min, "T", real,
                     N_(real), NULL, NULL, 0);
  tfe_kutil_register("SparseFillEmptyRows", k_sparse_fill_empty_rows, "T",
                     reorder, N_(reorder), NULL, NULL, 0);
#undef N_
  tfe_register_cpu_sparse_reduce_kernels();
}
