/* CPU kernels of the sparse op group, part 2: SparseSegmentSum/Mean/SqrtN
 * (and their WithNumSegments forms), SparseReduceSum/Max, SparseSoftmax,
 * SparseAdd and SparseAddGrad, with TensorFlow 2.21's checks, messages and
 * results. Registered from tfe_register_cpu_sparse_kernels
 * (sparse_kernels.c). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/threadpool.h"
#include "kernels/cpu/sparse2_common.h"

void tfe_register_cpu_sparse_reduce_kernels(void);

static int is_vector(const TF_Tensor* t) { return t->num_dims == 1; }
static int is_matrix(const TF_Tensor* t) { return t->num_dims == 2; }
static int is_scalar(const TF_Tensor* t) { return t->num_dims == 0; }

/* ------------------------------------------------ SparseSegment{Sum,Mean,SqrtN} */

enum { SEG_SUM, SEG_MEAN, SEG_SQRTN };

/* Adds row src (width w, dtype dt) into the float/double/int accumulator
 * row acc of the same width. */
static void seg_accumulate(TF_DataType dt, const void* data, int64_t row,
                           int64_t w, void* acc) {
  int64_t j;
  switch (dt) {
    case TF_FLOAT: {
      const float* restrict s = (const float*)data + row * w;
      float* restrict a = (float*)acc;
      for (j = 0; j < w; j++) a[j] += s[j];
      return;
    }
    case TF_DOUBLE: {
      const double* restrict s = (const double*)data + row * w;
      double* restrict a = (double*)acc;
      for (j = 0; j < w; j++) a[j] += s[j];
      return;
    }
    case TF_HALF: case TF_BFLOAT16: {
      const uint16_t* s = (const uint16_t*)data + row * w;
      float* a = (float*)acc;
      for (j = 0; j < w; j++) {
        a[j] += dt == TF_HALF ? kutil_f16_to_f32(s[j]) : kutil_bf16_to_f32(s[j]);
      }
      return;
    }
    default: {
      int64_t* a = (int64_t*)acc;
      for (j = 0; j < w; j++) {
        spv v;
        sp_load(dt, data, row * w + j, &v);
        a[j] = (int64_t)((uint64_t)a[j] + (uint64_t)v.i);
      }
      return;
    }
  }
}

typedef struct seg_args {
  TF_DataType dt;
  int mode;
  const void* data;
  char* out;
  const int64_t* ind;
  const int64_t* ids;
  const int64_t* runs;
  int64_t w;
} seg_args;

/* Runs [r0, r1) of a float or double segment reduction, summed straight
 * into their output rows (in the data type, as TF), then scaled. */
static void seg_runs(void* arg, int64_t r0, int64_t r1) {
  const seg_args* a = (const seg_args*)arg;
  int64_t r, j, w = a->w;
  for (r = r0; r < r1; r++) {
    int64_t s0 = a->runs[r], s1 = a->runs[r + 1], cnt = s1 - s0;
    int64_t row = a->ids[s0];
    if (a->dt == TF_FLOAT) {
      float* restrict o = (float*)a->out + row * w;
      for (j = s0; j < s1; j++) {
        const float* restrict src = (const float*)a->data + a->ind[j] * w;
        int64_t c;
        for (c = 0; c < w; c++) o[c] += src[c];
      }
      if (a->mode != SEG_SUM) {
        float d = a->mode == SEG_MEAN ? (float)cnt : sqrtf((float)cnt);
        int64_t c;
        for (c = 0; c < w; c++) o[c] /= d;
      }
    } else {
      double* restrict o = (double*)a->out + row * w;
      for (j = s0; j < s1; j++) {
        const double* restrict src = (const double*)a->data + a->ind[j] * w;
        int64_t c;
        for (c = 0; c < w; c++) o[c] += src[c];
      }
      if (a->mode != SEG_SUM) {
        double d = a->mode == SEG_MEAN ? (double)cnt : sqrt((double)cnt);
        int64_t c;
        for (c = 0; c < w; c++) o[c] /= d;
      }
    }
  }
}

static void segment_reduce(tfe_kernel_context* k, int mode, int has_num) {
  const TF_Tensor* data = k->inputs[0];
  const TF_Tensor* idx = k->inputs[1];
  const TF_Tensor* seg = k->inputs[2];
  TF_DataType dt = data->dtype;
  kutil_shape_buf b1;
  int64_t n, rows, w, out_rows, start, i, j, r, nruns = 0;
  int64_t dims[TFE_MAX_DIMS];
  int64_t* ind = NULL;
  int64_t* ids = NULL;
  int64_t* runs = NULL;
  void* acc = NULL;
  size_t asz;
  TF_Tensor* out;
  char* o;
  size_t esz = kutil_esize(dt);
  int d;
  if (!is_vector(idx)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices should be a vector.");
    return;
  }
  if (!is_vector(seg)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "segment_ids should be a vector.");
    return;
  }
  if (has_num && !is_scalar(k->inputs[3])) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_segments should be a scalar, not shape %s",
               kutil_tshape(k->inputs[3], &b1));
    return;
  }
  n = idx->dims[0];
  if (seg->dims[0] != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "segment_ids and indices should have same size.");
    return;
  }
  if (data->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape must be at least rank 1");
    return;
  }
  ind = tfe_sparse_read_i64(k, idx);
  if (ind == NULL) return;
  ids = tfe_sparse_read_i64(k, seg);
  if (ids == NULL) goto done;
  if (has_num) {
    out_rows = kutil_get_int(k->inputs[3], 0);
    if (out_rows < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input num_segments == %lld must not be negative.",
                 (long long)out_rows);
      goto done;
    }
    if (n > 0 && ids[n - 1] >= out_rows) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "segment ids must be < num_segments");
      goto done;
    }
  } else {
    out_rows = n > 0 ? ids[n - 1] + 1 : 0;
    if (out_rows < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "segment ids must be >= 0");
      goto done;
    }
  }
  rows = data->dims[0];
  w = kutil_dims_prod(data->dims, 1, data->num_dims);
  dims[0] = out_rows;
  for (d = 1; d < data->num_dims; d++) dims[d] = data->dims[d];
  out = tfe_kernel_alloc_output(k, 0, dt, dims, data->num_dims);
  if (out == NULL) goto done;
  o = (char*)kutil_data(out);
  if (out_rows > 0 && w > 0) memset(o, 0, (size_t)(out_rows * w) * esz);
  /* Pass 1 (sequential): the runs of equal ids, with TF's checks in its
   * order. runs[r] is the first position of run r; runs[nruns] = n. */
  runs = (int64_t*)tfe_malloc((size_t)(n + 1) * sizeof(int64_t));
  if (runs == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in sparse segment reduction");
    goto done;
  }
  start = 0;
  while (start < n) {
    int64_t out_index = ids[start], end = start + 1;
    while (end < n && ids[end] == out_index) end++;
    if (end < n && out_index >= ids[end]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "segment ids are not increasing");
      goto done;
    }
    if (out_index < 0 || out_index >= out_rows) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Segment id %lld out of range [0, %lld), possibly because "
                 "'segment_ids' input is not sorted.",
                 (long long)out_index, (long long)out_rows);
      goto done;
    }
    for (j = start; j < end; j++) {
      if (ind[j] < 0 || ind[j] >= rows) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Bad: indices[%lld] == %lld out of range [0, %lld)",
                   (long long)j, (long long)ind[j], (long long)rows);
        goto done;
      }
    }
    runs[nruns++] = start;
    start = end;
  }
  runs[nruns] = n;
  if (w == 0 || nruns == 0) goto done;
  if (dt == TF_FLOAT || dt == TF_DOUBLE) {
    /* Pass 2: every run writes only its own output row, so runs split
     * over the pool. */
    seg_args sa;
    sa.dt = dt;
    sa.mode = mode;
    sa.data = kutil_data(data);
    sa.out = o;
    sa.ind = ind;
    sa.ids = ids;
    sa.runs = runs;
    sa.w = w;
    if ((double)n * (double)w >= 262144.0) {
      tfe_parallel_for(tfe_kernel_threadpool(k), nruns,
                       w >= 256 ? 4 : 1024 / (w < 4 ? 4 : w) + 1, seg_runs, &sa);
    } else {
      seg_runs(&sa, 0, nruns);
    }
    goto done;
  }
  asz = (dt == TF_HALF || dt == TF_BFLOAT16) ? sizeof(float) : sizeof(int64_t);
  acc = tfe_malloc((size_t)w * asz);
  if (acc == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in sparse segment reduction");
    goto done;
  }
  for (r = 0; r < nruns; r++) {
    int64_t s0 = runs[r], s1 = runs[r + 1], out_index = ids[s0], cnt = s1 - s0;
    memset(acc, 0, (size_t)w * asz);
    for (j = s0; j < s1; j++) seg_accumulate(dt, kutil_data(data), ind[j], w, acc);
    for (i = 0; i < w; i++) {
      spv v;
      sp_zero(&v);
      if (asz == sizeof(int64_t)) {
        v.i = ((int64_t*)acc)[i];
      } else {
        float f = ((float*)acc)[i];
        if (mode == SEG_MEAN) {
          f = f / (float)cnt;
        } else if (mode == SEG_SQRTN) {
          f = f / sqrtf((float)cnt);
        }
        v.re = f;
      }
      sp_store(dt, o, out_index * w + i, &v);
    }
  }
done:
  tfe_free(ind);
  tfe_free(ids);
  tfe_free(acc);
  tfe_free(runs);
}

static void k_seg_sum(tfe_kernel_context* k) { segment_reduce(k, SEG_SUM, 0); }
static void k_seg_mean(tfe_kernel_context* k) { segment_reduce(k, SEG_MEAN, 0); }
static void k_seg_sqrtn(tfe_kernel_context* k) { segment_reduce(k, SEG_SQRTN, 0); }
static void k_seg_sum_n(tfe_kernel_context* k) { segment_reduce(k, SEG_SUM, 1); }
static void k_seg_mean_n(tfe_kernel_context* k) { segment_reduce(k, SEG_MEAN, 1); }
static void k_seg_sqrtn_n(tfe_kernel_context* k) { segment_reduce(k, SEG_SQRTN, 1); }

/* --------------------------------------- SparseSegment{Sum,Mean,SqrtN}Grad */

/* output[indices[i]] += grad[segment_ids[i]] * weight(segment_ids[i]):
 * weight 1 (Sum), 1 / count (Mean) or 1 / sqrt(count) (SqrtN), count being
 * how often the segment id occurs. Accumulates in double. */
static void segment_grad(tfe_kernel_context* k, int mode) {
  const TF_Tensor* g = k->inputs[0];
  const TF_Tensor* idx = k->inputs[1];
  const TF_Tensor* seg = k->inputs[2];
  const TF_Tensor* d0 = k->inputs[3];
  TF_DataType dt = g->dtype;
  int64_t n, m, w, out0, i, c;
  int64_t dims[TFE_MAX_DIMS];
  int64_t *ind = NULL, *ids = NULL, *cnt = NULL;
  double* acc = NULL;
  TF_Tensor* out;
  int d;
  if (!is_vector(idx)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices should be a vector.");
    return;
  }
  if (!is_vector(seg)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "segment_ids should be a vector.");
    return;
  }
  if (!is_scalar(d0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "output_dim0 should be a scalar.");
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
  if (out0 < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
               (long long)out0);
    return;
  }
  m = g->dims[0];
  w = kutil_dims_prod(g->dims, 1, g->num_dims);
  ind = tfe_sparse_read_i64(k, idx);
  if (ind == NULL) goto done;
  ids = tfe_sparse_read_i64(k, seg);
  if (ids == NULL) goto done;
  if (n > 0 && ids[n - 1] + 1 > m) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid number of segments");
    goto done;
  }
  for (i = 0; i < n; i++) {
    if (ids[i] < 0 || ids[i] >= m) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Segment id %lld out of range [0, %lld).",
                 (long long)ids[i], (long long)m);
      goto done;
    }
    if (ind[i] < 0 || ind[i] >= out0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Index %lld out of range [0, %lld).",
                 (long long)ind[i], (long long)out0);
      goto done;
    }
  }
  dims[0] = out0;
  for (d = 1; d < g->num_dims; d++) dims[d] = g->dims[d];
  out = tfe_kernel_alloc_output(k, 0, dt, dims, g->num_dims);
  if (out == NULL) goto done;
  if (out0 == 0 || w == 0) goto done;
  cnt = (int64_t*)tfe_calloc((size_t)(m > 0 ? m : 1), sizeof(int64_t));
  acc = (double*)tfe_calloc((size_t)(out0 * w), sizeof(double));
  if (cnt == NULL || acc == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in sparse segment gradient");
    goto done;
  }
  for (i = 0; i < n; i++) cnt[ids[i]]++;
  for (i = 0; i < n; i++) {
    double wt = mode == SEG_SUM    ? 1.0
                : mode == SEG_MEAN ? 1.0 / (double)cnt[ids[i]]
                                   : 1.0 / sqrt((double)cnt[ids[i]]);
    for (c = 0; c < w; c++) {
      spv v;
      sp_load(dt, kutil_data(g), ids[i] * w + c, &v);
      acc[ind[i] * w + c] += v.re * wt;
    }
  }
  for (i = 0; i < out0 * w; i++) {
    spv v;
    sp_zero(&v);
    v.re = acc[i];
    sp_store(dt, kutil_data(out), i, &v);
  }
done:
  tfe_free(ind);
  tfe_free(ids);
  tfe_free(cnt);
  tfe_free(acc);
}

static void k_seg_sum_grad(tfe_kernel_context* k) { segment_grad(k, SEG_SUM); }
static void k_seg_mean_grad(tfe_kernel_context* k) { segment_grad(k, SEG_MEAN); }
static void k_seg_sqrtn_grad(tfe_kernel_context* k) { segment_grad(k, SEG_SQRTN); }

/* ------------------------------------------------- SparseReduce{Sum,Max} */

/* Shared input checks of the sparse reductions and SparseSoftmax. */
static int check_reduce_inputs(tfe_kernel_context* k, const TF_Tensor* ind,
                               const TF_Tensor* vals, const TF_Tensor* shape) {
  kutil_shape_buf b1;
  if (!is_matrix(ind)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected input_indices to be a matrix; got shape %s",
               kutil_tshape(ind, &b1));
    return 0;
  }
  if (!is_vector(vals)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected input_values to be a vector; got shape %s",
               kutil_tshape(vals, &b1));
    return 0;
  }
  if (!is_vector(shape)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected input_shape to be a vector; got shape %s",
               kutil_tshape(shape, &b1));
    return 0;
  }
  if (ind->dims[0] != vals->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "indices and values rows (indexing dimension) must match. "
               "(indices = %lld, values = %lld)",
               (long long)ind->dims[0], (long long)vals->dims[0]);
    return 0;
  }
  if (ind->dims[1] != shape->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Index rank (%lld) and shape rank (%lld) do not match",
               (long long)ind->dims[1], (long long)shape->dims[0]);
    return 0;
  }
  return 1;
}

static void sparse_reduce(tfe_kernel_context* k, int is_max) {
  const TF_Tensor* ii = k->inputs[0];
  const TF_Tensor* iv = k->inputs[1];
  const TF_Tensor* is = k->inputs[2];
  const TF_Tensor* ax = k->inputs[3];
  int keep = kutil_attr_bool(k, "keep_dims", 0);
  TF_DataType dt = iv->dtype;
  int kind = sp_kind(dt);
  int64_t nnz, nd, i, total = 1;
  int64_t odims[TFE_MAX_DIMS], ostr[TFE_MAX_DIMS];
  const int64_t* shp;
  const int64_t* ind;
  unsigned char reduced[TFE_MAX_DIMS];
  unsigned char* seen = NULL;
  spv* acc = NULL;
  TF_Tensor* out;
  int d, ond = 0;
  if (!check_reduce_inputs(k, ii, iv, is)) return;
  nnz = ii->dims[0];
  nd = is->dims[0];
  if (nd > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input_shape has too many dimensions");
    return;
  }
  shp = (const int64_t*)kutil_data(is);
  ind = (const int64_t*)kutil_data(ii);
  if (!sp2_reduction_axes(k, ax, nd, reduced)) return;
  for (d = 0; d < nd; d++) {
    if (shp[d] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                 (long long)shp[d]);
      return;
    }
  }
  /* output strides over the kept dims */
  {
    int64_t s = 1;
    for (d = (int)nd - 1; d >= 0; d--) {
      if (reduced[d]) {
        ostr[d] = 0;
      } else {
        ostr[d] = s;
        if (!tfe_checked_mul_i64(s, shp[d], &s)) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Encountered overflow when multiplying shape dimensions");
          return;
        }
      }
    }
    total = s;
  }
  for (d = 0; d < nd; d++) {
    if (!reduced[d]) {
      odims[ond++] = shp[d];
    } else if (keep) {
      odims[ond++] = 1;
    }
  }
  /* indices must lie inside the shape (tfe rejects what TF leaves
   * undefined) */
  if (!sp2_indices_in_bounds(k, ind, nnz, (int)nd, shp)) return;
  out = tfe_kernel_alloc_output(k, 0, dt, odims, ond);
  if (out == NULL) return;
  if (total == 0) return;
  acc = (spv*)tfe_calloc((size_t)total, sizeof(spv));
  seen = (unsigned char*)tfe_calloc((size_t)total, 1);
  if (acc == NULL || seen == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in sparse reduction");
    goto done;
  }
  for (i = 0; i < nnz; i++) {
    int64_t off = 0;
    spv v;
    for (d = 0; d < nd; d++) off += ind[i * nd + d] * ostr[d];
    sp_load(dt, kutil_data(iv), i, &v);
    if (is_max) {
      if (!seen[off] || sp_gt(kind, &v, &acc[off]) ||
          (kind == SPK_F && v.re != v.re)) {
        if (!(seen[off] && acc[off].re != acc[off].re && kind == SPK_F)) {
          acc[off] = v;
        }
      }
    } else {
      sp_add(kind, &acc[off], &v);
    }
    seen[off] = 1;
  }
  for (i = 0; i < total; i++) sp_store(dt, kutil_data(out), i, &acc[i]);
done:
  tfe_free(acc);
  tfe_free(seen);
}

static void k_reduce_sum(tfe_kernel_context* k) { sparse_reduce(k, 0); }
static void k_reduce_max(tfe_kernel_context* k) { sparse_reduce(k, 1); }

/* --------------------------------------------------------- SparseSoftmax */

static void k_sparse_softmax(tfe_kernel_context* k) {
  const TF_Tensor* ii = k->inputs[0];
  const TF_Tensor* iv = k->inputs[1];
  const TF_Tensor* is = k->inputs[2];
  TF_DataType dt = iv->dtype;
  int64_t nnz, nd, start, i;
  const int64_t* ind;
  TF_Tensor* out;
  kutil_shape_buf b1;
  if (!is_matrix(ii)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input should be a matrix but received shape %s",
               kutil_tshape(ii, &b1));
    return;
  }
  if (!is_vector(iv) || !is_vector(is)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Inputs sp_values and sp_shape should be vectors but received "
               "shapes: %s and %s",
               kutil_tshape(iv, &b1), kutil_tshape(is, &b1));
    return;
  }
  if (is->dims[0] < 2) {
    char s[512];
    size_t len = 0;
    int64_t e;
    s[0] = '\0';
    for (e = 0; e < is->dims[0] && len < sizeof s; e++) {
      len += (size_t)snprintf(s + len, sizeof s - len, e ? " %lld" : "%lld",
                              (long long)((const int64_t*)kutil_data(is))[e]);
    }
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input should have rank >= 2, but received shape: %s", s);
    return;
  }
  if (ii->dims[0] != iv->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "indices and values rows (indexing dimension) must match. "
               "(indices = %lld, values = %lld)",
               (long long)ii->dims[0], (long long)iv->dims[0]);
    return;
  }
  if (ii->dims[1] != is->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Index rank (%lld) and shape rank (%lld) do not match",
               (long long)ii->dims[1], (long long)is->dims[0]);
    return;
  }
  nnz = ii->dims[0];
  nd = ii->dims[1];
  ind = (const int64_t*)kutil_data(ii);
  out = tfe_kernel_alloc_output(k, 0, dt, &nnz, 1);
  if (out == NULL) return;
  /* groups: runs of equal leading (rank - 1) coordinates */
  start = 0;
  while (start < nnz) {
    int64_t end = start + 1;
    double mx, sum = 0;
    spv v;
    while (end < nnz &&
           memcmp(ind + end * nd, ind + start * nd,
                  (size_t)(nd - 1) * sizeof(int64_t)) == 0) {
      end++;
    }
    sp_load(dt, kutil_data(iv), start, &v);
    mx = v.re;
    for (i = start + 1; i < end; i++) {
      sp_load(dt, kutil_data(iv), i, &v);
      if (v.re > mx) mx = v.re;
    }
    for (i = start; i < end; i++) {
      sp_load(dt, kutil_data(iv), i, &v);
      sum += exp(v.re - mx);
    }
    for (i = start; i < end; i++) {
      sp_load(dt, kutil_data(iv), i, &v);
      v.re = exp(v.re - mx) / sum;
      sp_store(dt, kutil_data(out), i, &v);
    }
    start = end;
  }
}

/* ------------------------------------------------------------- SparseAdd */

static void k_sparse_add(tfe_kernel_context* k) {
  const TF_Tensor* ai = k->inputs[0];
  const TF_Tensor* av = k->inputs[1];
  const TF_Tensor* as = k->inputs[2];
  const TF_Tensor* bi = k->inputs[3];
  const TF_Tensor* bv = k->inputs[4];
  const TF_Tensor* bs = k->inputs[5];
  const TF_Tensor* th = k->inputs[6];
  TF_DataType dt = av->dtype;
  int kind = sp_kind(dt);
  kutil_shape_buf b1, b2;
  int64_t na, nb, nd, i, j, n = 0, dims2[2];
  const int64_t *ia, *ib;
  int64_t* oind = NULL;
  int64_t* src = NULL; /* per output: a position, b position (-1 none) */
  double thresh;
  TF_Tensor *toi, *tov, *tos;
  int d;
  spv tv;
  if (!is_matrix(ai) || !is_matrix(bi)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input indices should be matrices but received shapes: %s and "
               "%s",
               kutil_tshape(ai, &b1), kutil_tshape(bi, &b2));
    return;
  }
  if (!is_vector(av) || !is_vector(bv)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input values should be vectors but received shapes: %s and %s",
               kutil_tshape(av, &b1), kutil_tshape(bv, &b2));
    return;
  }
  na = ai->dims[0];
  nb = bi->dims[0];
  if (av->dims[0] != na || bv->dims[0] != nb) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected %lld and %lld non-empty input values, got %lld and "
               "%lld",
               (long long)na, (long long)nb, (long long)av->dims[0],
               (long long)bv->dims[0]);
    return;
  }
  if (ai->dims[1] != bi->dims[1]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input indices must have the same dimension, got %lld and %lld",
               (long long)ai->dims[1], (long long)bi->dims[1]);
    return;
  }
  if (!is_vector(as) || !is_vector(bs)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input shapes should be a vector but received shapes %s and %s",
               kutil_tshape(as, &b1), kutil_tshape(bs, &b2));
    return;
  }
  if (as->dims[0] != bs->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Operands do not have the same ranks; got shapes: %s and %s",
               kutil_tshape(as, &b1), kutil_tshape(bs, &b2));
    return;
  }
  nd = ai->dims[1];
  if (nd != as->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Index rank (%lld) and shape rank (%lld) do not match",
               (long long)nd, (long long)as->dims[0]);
    return;
  }
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
  if (!is_scalar(th)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The magnitude threshold must be a scalar: got shape %s",
               kutil_tshape(th, &b1));
    return;
  }
  sp_load(th->dtype, kutil_data(th), 0, &tv);
  thresh = sp_kind(th->dtype) == SPK_F ? tv.re
           : sp_kind(th->dtype) == SPK_U ? (double)(uint64_t)tv.i
                                         : (double)tv.i;
  ia = (const int64_t*)kutil_data(ai);
  ib = (const int64_t*)kutil_data(bi);
  src = (int64_t*)tfe_malloc((size_t)(na + nb + 1) * 2 * sizeof(int64_t));
  if (src == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseAdd");
    return;
  }
  i = j = 0;
  while (i < na && j < nb) {
    int c = sp_cmp_rows(ia, i, ib, j, (int)nd);
    if (c < 0) {
      src[2 * n] = i++;
      src[2 * n + 1] = -1;
      n++;
    } else if (c > 0) {
      src[2 * n] = -1;
      src[2 * n + 1] = j++;
      n++;
    } else {
      spv x, y;
      sp_load(dt, kutil_data(av), i, &x);
      sp_load(dt, kutil_data(bv), j, &y);
      sp_add(kind, &x, &y);
      if (sp_abs(kind, &x) >= thresh) {
        src[2 * n] = i;
        src[2 * n + 1] = j;
        n++;
      }
      i++;
      j++;
    }
  }
  for (; i < na; i++, n++) {
    src[2 * n] = i;
    src[2 * n + 1] = -1;
  }
  for (; j < nb; j++, n++) {
    src[2 * n] = -1;
    src[2 * n + 1] = j;
  }
  dims2[0] = n;
  dims2[1] = nd;
  toi = tfe_kernel_alloc_output(k, 0, TF_INT64, dims2, 2);
  if (toi == NULL) goto done;
  tov = tfe_kernel_alloc_output(k, 1, dt, &n, 1);
  if (tov == NULL) goto done;
  tos = tfe_kernel_alloc_output(k, 2, TF_INT64, &nd, 1);
  if (tos == NULL) goto done;
  if (nd > 0) memcpy(kutil_data(tos), kutil_data(as), (size_t)nd * sizeof(int64_t));
  oind = (int64_t*)kutil_data(toi);
  for (i = 0; i < n; i++) {
    int64_t pa = src[2 * i], pb = src[2 * i + 1];
    spv x, y;
    sp_zero(&x);
    if (pa >= 0) {
      if (nd > 0) memcpy(oind + i * nd, ia + pa * nd, (size_t)nd * sizeof(int64_t));
      sp_load(dt, kutil_data(av), pa, &x);
    } else if (nd > 0) {
      memcpy(oind + i * nd, ib + pb * nd, (size_t)nd * sizeof(int64_t));
    }
    if (pb >= 0) {
      sp_load(dt, kutil_data(bv), pb, &y);
      if (pa >= 0) {
        sp_add(kind, &x, &y);
      } else {
        x = y;
      }
    }
    sp_store(dt, kutil_data(tov), i, &x);
  }
done:
  tfe_free(src);
}

/* --------------------------------------------------------- SparseAddGrad */

static void k_sparse_add_grad(tfe_kernel_context* k) {
  const TF_Tensor* g = k->inputs[0];
  const TF_Tensor* ai = k->inputs[1];
  const TF_Tensor* bi = k->inputs[2];
  const TF_Tensor* si = k->inputs[3];
  TF_DataType dt = g->dtype;
  kutil_shape_buf b1, b2, b3;
  int64_t na, nb, ns, nd, i = 0, j = 0, s = 0;
  const int64_t *ia, *ib, *is;
  TF_Tensor *ga, *gb;
  char *pa, *pb;
  const char* pg;
  size_t esz = kutil_esize(dt);
  if (!is_matrix(ai) || !is_matrix(bi) || !is_matrix(si)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input indices should be matrices but received shapes: %s, %s, "
               "%s",
               kutil_tshape(ai, &b1), kutil_tshape(bi, &b2),
               kutil_tshape(si, &b3));
    return;
  }
  if (!is_vector(g)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input backprop_val_grad should be a vector but received "
               "shape: %s",
               kutil_tshape(g, &b1));
    return;
  }
  if (ai->dims[1] != bi->dims[1] || ai->dims[1] != si->dims[1]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The densified operands should have the same ndims; for A, B, "
               "sum got: %lld%lld%lld",
               (long long)ai->dims[1], (long long)bi->dims[1],
               (long long)si->dims[1]);
    return;
  }
  if (g->dims[0] != si->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "# elements of backprop_val_grad and # rows of sum_indices "
               "should match (#nnz of sum): got %lld and %lld",
               (long long)g->dims[0], (long long)si->dims[0]);
    return;
  }
  na = ai->dims[0];
  nb = bi->dims[0];
  ns = si->dims[0];
  nd = ai->dims[1];
  ga = tfe_kernel_alloc_output(k, 0, dt, &na, 1);
  if (ga == NULL) return;
  gb = tfe_kernel_alloc_output(k, 1, dt, &nb, 1);
  if (gb == NULL) return;
  pa = (char*)kutil_data(ga);
  pb = (char*)kutil_data(gb);
  pg = (const char*)kutil_data(g);
  if (na > 0) memset(pa, 0, (size_t)na * esz);
  if (nb > 0) memset(pb, 0, (size_t)nb * esz);
  ia = (const int64_t*)kutil_data(ai);
  ib = (const int64_t*)kutil_data(bi);
  is = (const int64_t*)kutil_data(si);
  /* Walk A and B in merged order; an entry takes the sum's gradient when
   * the sum kept its position (entries that cancelled below the threshold
   * were dropped from the sum and get zero). */
  while (i < na || j < nb) {
    int c;
    if (i >= na) {
      c = 1;
    } else if (j >= nb) {
      c = -1;
    } else {
      c = sp_cmp_rows(ia, i, ib, j, (int)nd);
    }
    if (c <= 0) {
      int match = s < ns && sp_cmp_rows(ia, i, is, s, (int)nd) == 0;
      if (match) {
        memcpy(pa + (size_t)i * esz, pg + (size_t)s * esz, esz);
        if (c == 0) memcpy(pb + (size_t)j * esz, pg + (size_t)s * esz, esz);
        s++;
      }
      i++;
      if (c == 0) j++;
    } else {
      if (s < ns && sp_cmp_rows(ib, j, is, s, (int)nd) == 0) {
        memcpy(pb + (size_t)j * esz, pg + (size_t)s * esz, esz);
        s++;
      }
      j++;
    }
  }
}

/* ---------------------------------------------------------- registration */

void tfe_register_cpu_sparse_reduce_kernels(void) {
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType real[] = {KUTIL_REAL_TYPES};
  static const TF_DataType num[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType flt[] = {TF_FLOAT, TF_DOUBLE, TF_HALF, TF_BFLOAT16};
  static const TF_DataType sm[] = {TF_FLOAT, TF_DOUBLE, TF_HALF};
  static const TF_DataType add[] = {TF_FLOAT, TF_DOUBLE, TF_INT8, TF_INT16,
                                    TF_INT32, TF_INT64, TF_COMPLEX64,
                                    TF_COMPLEX128};
#define N_(a) (int)(sizeof a / sizeof a[0])
  tfe_kutil_register("SparseSegmentSum", k_seg_sum, "T", real, N_(real),
                     "Tidx", idx, 2);
  tfe_kutil_register("SparseSegmentMean", k_seg_mean, "T", flt, N_(flt),
                     "Tidx", idx, 2);
  tfe_kutil_register("SparseSegmentSqrtN", k_seg_sqrtn, "T", flt, N_(flt),
                     "Tidx", idx, 2);
  tfe_kutil_register("SparseSegmentSumWithNumSegments", k_seg_sum_n, "T",
                     real, N_(real), "Tidx", idx, 2);
  tfe_kutil_register("SparseSegmentMeanWithNumSegments", k_seg_mean_n, "T",
                     flt, N_(flt), "Tidx", idx, 2);
  tfe_kutil_register("SparseSegmentSqrtNWithNumSegments", k_seg_sqrtn_n, "T",
                     flt, N_(flt), "Tidx", idx, 2);
  tfe_kutil_register("SparseSegmentSumGrad", k_seg_sum_grad, "T", flt,
                     N_(flt), "Tidx", idx, 2);
  tfe_kutil_register("SparseSegmentMeanGrad", k_seg_mean_grad, "T", flt,
                     N_(flt), "Tidx", idx, 2);
  tfe_kutil_register("SparseSegmentSqrtNGrad", k_seg_sqrtn_grad, "T", flt,
                     N_(flt), "Tidx", idx, 2);
  tfe_kutil_register("SparseReduceSum", k_reduce_sum, "T", num, N_(num), NULL,
                     NULL, 0);
  tfe_kutil_register("SparseReduceMax", k_reduce_max, "T", real, N_(real),
                     NULL, NULL, 0);
  tfe_kutil_register("SparseSoftmax", k_sparse_softmax, "T", sm, N_(sm), NULL,
                     NULL, 0);
  tfe_kutil_register("SparseAdd", k_sparse_add, "T", add, N_(add), NULL, NULL,
                     0);
  tfe_kutil_register("SparseAddGrad", k_sparse_add_grad, "T", add, N_(add),
                     NULL, NULL, 0);
#undef N_
}
