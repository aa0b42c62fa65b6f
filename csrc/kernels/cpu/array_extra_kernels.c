/* CPU kernels: array ops the tf.* Python API needs beyond the existing
 * array groups: DynamicPartition, DynamicStitch (and ParallelDynamicStitch,
 * the same result on one CPU thread), HistogramFixedWidth and
 * ExtractVolumePatches, with
 * TensorFlow 2.21's checks, messages and numbers. Op definitions:
 * csrc/ops/defs_array_extra.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/kutil.h"

void tfe_register_cpu_array_extra_kernels(void);

/* Whether a's shape starts with b's (TF's TensorShapeUtils::StartsWith). */
static int starts_with(const TF_Tensor* a, const TF_Tensor* b) {
  int i;
  if (b->num_dims > a->num_dims) return 0;
  for (i = 0; i < b->num_dims; i++) {
    if (a->dims[i] != b->dims[i]) return 0;
  }
  return 1;
}

/* TF's SliceDebugString: the multi-index of flat element `flat` of a
 * tensor of shape dims ("" for a scalar, "[3]", "[1,0]"). */
static void slice_debug_string(const int64_t* dims, int nd, int64_t flat,
                               char* buf, size_t cap) {
  int64_t idx[TFE_MAX_DIMS];
  size_t len = 0;
  int i;
  buf[0] = '\0';
  if (nd == 0) return;
  for (i = nd - 1; i >= 0; i--) {
    idx[i] = dims[i] > 0 ? flat % dims[i] : 0;
    flat = dims[i] > 0 ? flat / dims[i] : 0;
  }
  len += (size_t)snprintf(buf + len, cap - len, "[");
  for (i = 0; i < nd && len < cap; i++) {
    len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                            (long long)idx[i]);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* ----------------------------------------------------- DynamicPartition */

static void k_dynamic_partition(tfe_kernel_context* k) {
  const TF_Tensor* data = k->inputs[0];
  const TF_Tensor* parts = k->inputs[1];
  const int32_t* p = (const int32_t*)kutil_data(parts);
  TF_DataType dt = data->dtype;
  size_t esz = kutil_esize(dt);
  kutil_shape_buf sa, sb;
  int64_t n, slice, i, *counts = NULL, *pos = NULL;
  int64_t dims[TFE_MAX_DIMS + 1];
  int32_t nparts;
  int j, nd;
  if (!kutil_attr_int32(k, "num_partitions", 1, &nparts)) return;
  if (nparts < 1 || nparts != k->num_outputs) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_partitions is %d but the op has %d outputs", (int)nparts,
               k->num_outputs);
    return;
  }
  if (!starts_with(data, parts)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "data.shape must start with partitions.shape, got data.shape "
               "= %s, partitions.shape = %s",
               kutil_tshape(data, &sa), kutil_tshape(parts, &sb));
    return;
  }
  n = kutil_num_elements(parts);
  slice = kutil_dims_prod(data->dims, parts->num_dims, data->num_dims);
  counts = (int64_t*)tfe_calloc((size_t)nparts, sizeof(int64_t));
  pos = (int64_t*)tfe_calloc((size_t)nparts, sizeof(int64_t));
  if (counts == NULL || pos == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in DynamicPartition");
    goto done;
  }
  for (i = 0; i < n; i++) {
    if (p[i] < 0 || p[i] >= nparts) {
      char where[512];
      slice_debug_string(parts->dims, parts->num_dims, i, where, sizeof where);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "partitions%s = %d is not in [0, %d)",
                 where, (int)p[i], (int)nparts);
      goto done;
    }
    counts[p[i]]++;
  }
  nd = data->num_dims - parts->num_dims + 1;
  for (j = 1; j < nd; j++) dims[j] = data->dims[parts->num_dims + j - 1];
  for (j = 0; j < nparts; j++) {
    dims[0] = counts[j];
    if (tfe_kernel_alloc_output(k, j, dt, dims, nd) == NULL) goto done;
  }
  for (i = 0; i < n && slice > 0; i++) {
    int32_t q = p[i];
    char* dst = (char*)kutil_data(k->outputs[q]);
    const char* src = (const char*)kutil_data(data);
    kutil_copy(dt, dst + (size_t)(pos[q] * slice) * esz,
               src + (size_t)(i * slice) * esz, slice);
    pos[q]++;
  }
done:
  tfe_free(counts);
  tfe_free(pos);
}

/* -------------------------------------------------------- DynamicStitch */

/* Whether data.shape[rank(idx):] equals data0.shape[rank(idx0):]. */
static int same_extra_shape(const TF_Tensor* d0, const TF_Tensor* i0,
                            const TF_Tensor* d, const TF_Tensor* i) {
  int e0 = d0->num_dims - i0->num_dims, e = d->num_dims - i->num_dims, j;
  if (e0 != e) return 0;
  for (j = 0; j < e; j++) {
    if (d0->dims[i0->num_dims + j] != d->dims[i->num_dims + j]) return 0;
  }
  return 1;
}

static void k_dynamic_stitch(tfe_kernel_context* k) {
  int n = k->num_inputs / 2, m, j, nd;
  int64_t max_index = -1, first, slice, i;
  int64_t dims[TFE_MAX_DIMS + 1];
  const TF_Tensor *i0, *d0;
  kutil_shape_buf s1, s2, s3, s4;
  TF_Tensor* out;
  size_t esz;
  if (n < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "DynamicStitchOp: Must have some inputs");
    return;
  }
  for (m = 0; m < n; m++) {
    const TF_Tensor* idx = k->inputs[m];
    const int32_t* p = (const int32_t*)kutil_data(idx);
    int64_t cnt = kutil_num_elements(idx);
    for (i = 0; i < cnt; i++) {
      if (p[i] > max_index) max_index = p[i];
    }
  }
  first = max_index + 1;
  for (m = 0; m < n; m++) {
    const TF_Tensor* idx = k->inputs[m];
    const int32_t* p = (const int32_t*)kutil_data(idx);
    int64_t cnt = kutil_num_elements(idx);
    for (i = 0; i < cnt; i++) {
      if (p[i] < 0 || p[i] >= first) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices[%lld] is out of range",
                   (long long)i);
        return;
      }
    }
  }
  i0 = k->inputs[0];
  d0 = k->inputs[n];
  for (m = 0; m < n; m++) {
    const TF_Tensor* idx = k->inputs[m];
    const TF_Tensor* d = k->inputs[n + m];
    if (!starts_with(d, idx)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "data[%d].shape = %s does not start with indices[%d].shape "
                 "= %s",
                 m, kutil_tshape(d, &s1), m, kutil_tshape(idx, &s2));
      return;
    }
    if (m > 0 && !same_extra_shape(d0, i0, d, idx)) {
      char b0[512];
      char b1[512];
      snprintf(b0, sizeof b0, "%s", kutil_tshape(d0, &s1));
      snprintf(b1, sizeof b1, "%s", kutil_tshape(d, &s2));
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Need data[0].shape[%d:] = data[%d].shape[%d:], got "
                 "data[0].shape = %s, data[%d].shape = %s, indices[0].shape "
                 "= %s, indices[%d].shape = %s",
                 i0->num_dims, m, idx->num_dims, b0, m, b1,
                 kutil_tshape(i0, &s3), m, kutil_tshape(idx, &s4));
      return;
    }
  }
  nd = d0->num_dims - i0->num_dims + 1;
  dims[0] = first;
  for (j = 1; j < nd; j++) dims[j] = d0->dims[i0->num_dims + j - 1];
  out = tfe_kernel_alloc_output(k, 0, d0->dtype, dims, nd);
  if (out == NULL) return;
  esz = kutil_esize(d0->dtype);
  slice = kutil_dims_prod(dims, 1, nd);
  /* Rows no index names stay zero (strings: empty, as allocated). */
  if (d0->dtype != TF_STRING && kutil_data(out) != NULL) {
    memset(kutil_data(out), 0, (size_t)(first * slice) * esz);
  }
  if (slice == 0) return;
  for (m = 0; m < n; m++) {
    const TF_Tensor* idx = k->inputs[m];
    const TF_Tensor* d = k->inputs[n + m];
    const int32_t* p = (const int32_t*)kutil_data(idx);
    int64_t cnt = kutil_num_elements(idx);
    for (i = 0; i < cnt; i++) {
      kutil_copy(d0->dtype, (char*)kutil_data(out) + (size_t)(p[i] * slice) * esz,
                 (const char*)kutil_data(d) + (size_t)(i * slice) * esz, slice);
    }
  }
}

/* -------------------------------------------------- HistogramFixedWidth */

/* TF prints the range values with StrCat: the shortest form that reads
 * back to the same value. */
static void fmt_value(double v, int is_float32, int is_int, char* buf,
                      size_t cap) {
  if (is_int) {
    snprintf(buf, cap, "%lld", (long long)v);
    return;
  }
  if (is_float32) {
    snprintf(buf, cap, "%.6g", v);
    if ((float)strtod(buf, NULL) != (float)v) snprintf(buf, cap, "%.9g", v);
  } else {
    snprintf(buf, cap, "%.15g", v);
    if (strtod(buf, NULL) != v) snprintf(buf, cap, "%.17g", v);
  }
}

/* Bin of each value: (max(v, lo) - lo), computed in the value's own type
 * (integers wrap as in TF), divided as a double by the step, capped at
 * nbins - 1 and truncated. Results outside [0, nbins) (only reachable when
 * an integer range overflows) are clamped rather than written out of
 * bounds. */
#define HIST_BIN(diff_expr)                                      \
  do {                                                           \
    double q = (double)(diff_expr) / step;                       \
    int64_t b;                                                   \
    if (q > nbins_minus_1) q = nbins_minus_1;                    \
    b = (q != q) ? 0 : (int64_t)(int32_t)(q < -2147483648.0 ? -2147483648.0 : q); \
    if (b < 0) b = 0;                                            \
    if (b >= nbins) b = nbins - 1;                               \
    counts[b]++;                                                 \
  } while (0)

static void k_histogram_fixed_width(tfe_kernel_context* k) {
  const TF_Tensor* values = k->inputs[0];
  const TF_Tensor* range = k->inputs[1];
  const TF_Tensor* nb = k->inputs[2];
  TF_DataType dt = values->dtype;
  TF_DataType ot = k->output_types != NULL ? k->output_types[0] : TF_INT32;
  int64_t n = kutil_num_elements(values), i, *counts = NULL;
  int32_t nbins;
  double lo, hi, step, nbins_minus_1;
  TF_Tensor* out;
  int ok;
  if (range->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "value_range should be a vector.");
    return;
  }
  if (range->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "value_range should be a vector of 2 elements.");
    return;
  }
  if (nb->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "nbins should be a scalar.");
    return;
  }
  nbins = *(const int32_t*)kutil_data(nb);
  if (nbins <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "nbins should be a positive number, but got '%d'", (int)nbins);
    return;
  }
  switch (dt) {
    case TF_FLOAT: {
      const float* r = (const float*)kutil_data(range);
      lo = r[0];
      hi = r[1];
      ok = r[0] < r[1];
      step = (double)(float)(r[1] - r[0]);
      break;
    }
    case TF_DOUBLE: {
      const double* r = (const double*)kutil_data(range);
      lo = r[0];
      hi = r[1];
      ok = r[0] < r[1];
      step = r[1] - r[0];
      break;
    }
    case TF_INT32: {
      const int32_t* r = (const int32_t*)kutil_data(range);
      lo = r[0];
      hi = r[1];
      ok = r[0] < r[1];
      step = (double)(int32_t)((uint32_t)r[1] - (uint32_t)r[0]);
      break;
    }
    case TF_INT64: {
      const int64_t* r = (const int64_t*)kutil_data(range);
      lo = (double)r[0];
      hi = (double)r[1];
      ok = r[0] < r[1];
      step = (double)(int64_t)((uint64_t)r[1] - (uint64_t)r[0]);
      break;
    }
    default:
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "HistogramFixedWidth: unsupported dtype");
      return;
  }
  if (!ok) {
    char a[64];
    char b[64];
    int is_int = dt == TF_INT32 || dt == TF_INT64;
    if (dt == TF_INT64) {
      const int64_t* r = (const int64_t*)kutil_data(range);
      snprintf(a, sizeof a, "%lld", (long long)r[0]);
      snprintf(b, sizeof b, "%lld", (long long)r[1]);
    } else {
      fmt_value(lo, dt == TF_FLOAT, is_int, a, sizeof a);
      fmt_value(hi, dt == TF_FLOAT, is_int, b, sizeof b);
    }
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "value_range should satisfy value_range[0] < value_range[1], "
               "but got '[%s, %s]'",
               a, b);
    return;
  }
  if (dt == TF_FLOAT || dt == TF_DOUBLE) {
    for (i = 0; i < n; i++) {
      double v = dt == TF_FLOAT ? ((const float*)kutil_data(values))[i]
                                : ((const double*)kutil_data(values))[i];
      if (isnan(v)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Histogram values must not contain NaN");
        return;
      }
    }
  }
  step /= (double)nbins;
  nbins_minus_1 = (double)(nbins - 1);
  counts = (int64_t*)tfe_calloc((size_t)nbins, sizeof(int64_t));
  if (counts == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in HistogramFixedWidth");
    return;
  }
  switch (dt) {
    case TF_FLOAT: {
      const float* v = (const float*)kutil_data(values);
      float flo = ((const float*)kutil_data(range))[0];
      for (i = 0; i < n; i++) HIST_BIN((float)((v[i] > flo ? v[i] : flo) - flo));
      break;
    }
    case TF_DOUBLE: {
      const double* v = (const double*)kutil_data(values);
      for (i = 0; i < n; i++) HIST_BIN((v[i] > lo ? v[i] : lo) - lo);
      break;
    }
    case TF_INT32: {
      const int32_t* v = (const int32_t*)kutil_data(values);
      int32_t ilo = ((const int32_t*)kutil_data(range))[0];
      for (i = 0; i < n; i++) {
        uint32_t x = (uint32_t)(v[i] > ilo ? v[i] : ilo);
        HIST_BIN((int32_t)(x - (uint32_t)ilo));
      }
      break;
    }
    default: {
      const int64_t* v = (const int64_t*)kutil_data(values);
      int64_t ilo = ((const int64_t*)kutil_data(range))[0];
      for (i = 0; i < n; i++) {
        uint64_t x = (uint64_t)(v[i] > ilo ? v[i] : ilo);
        HIST_BIN((int64_t)(x - (uint64_t)ilo));
      }
      break;
    }
  }
  {
    int64_t d = nbins;
    out = tfe_kernel_alloc_output(k, 0, ot, &d, 1);
  }
  if (out != NULL) {
    for (i = 0; i < nbins; i++) {
      if (ot == TF_INT64) {
        ((int64_t*)kutil_data(out))[i] = counts[i];
      } else {
        ((int32_t*)kutil_data(out))[i] = (int32_t)counts[i];
      }
    }
  }
  tfe_free(counts);
}

/* ------------------------------------------------- ExtractVolumePatches */

/* TF's ParseAttributeVec5: 5 values, 1 in the batch and depth slots, >= 1
 * in the three spatial ones. */
static int volume_attr(tfe_kernel_context* k, const char* name,
                       int64_t out[3]) {
  const int64_t* v;
  int n;
  if (!kutil_attr_int32_list(k, name, &v, &n)) return 0;
  if (n != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must have 5 elements, got %d", name, n);
    return 0;
  }
  if (v[0] != 1 || v[4] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Only support %s across space.", name);
    return 0;
  }
  if (v[1] < 1 || v[2] < 1 || v[3] < 1) {
    KUTIL_FAIL(k, TF_OUT_OF_RANGE, "%s is out of range.", name);
    return 0;
  }
  out[0] = v[1];
  out[1] = v[2];
  out[2] = v[3];
  return 1;
}

/* Output size and leading padding of one spatial dimension. The size and
 * its checks are TF's GetWindowedOutputSize; the leading padding of SAME is
 * the one of the Eigen volume-patch expression TF's kernel runs (it may be
 * negative: the window then starts inside the input). */
static int volume_dim(tfe_kernel_context* k, int64_t in, int64_t ksize,
                      int64_t stride, int same, int64_t* out, int64_t* pad) {
  if (same) {
    *out = (in + stride - 1) / stride;
    *pad = ((*out - 1) * stride + ksize - in) / 2;
  } else {
    *out = (in - ksize + stride) / stride;
    *pad = 0;
  }
  if (*out < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Computed output size would be negative: %lld [input_size: %lld, "
               "effective_filter_size: %lld, stride: %lld]",
               (long long)*out, (long long)in, (long long)ksize, (long long)stride);
    return 0;
  }
  return 1;
}

static void k_extract_volume_patches(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int64_t ks[3], st[3], in[3], out[3], pad[3], dims[5], depth, batch, pdepth;
  int64_t b, op, orow, oc, kp, kr, kc;
  const char* padding = NULL;
  size_t plen = 0, esz = kutil_esize(x->dtype);
  int same, i;
  TF_Tensor* y;
  char* dst;
  const char* src = (const char*)kutil_data(x);
  if (!volume_attr(k, "ksizes", ks) || !volume_attr(k, "strides", st)) return;
  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, "padding", &padding, &plen, NULL)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "ExtractVolumePatches needs a padding");
    return;
  }
  same = plen == 4 && memcmp(padding, "SAME", 4) == 0;
  if (x->num_dims != 5) {
    kutil_shape_buf sb;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 5-dimensional%s",
               kutil_tshape(x, &sb));
    return;
  }
  batch = x->dims[0];
  depth = x->dims[4];
  for (i = 0; i < 3; i++) {
    in[i] = x->dims[i + 1];
    if (!volume_dim(k, in[i], ks[i], st[i], same, &out[i], &pad[i])) return;
  }
  if (!tfe_checked_mul_i64(ks[0], ks[1], &pdepth) ||
      !tfe_checked_mul_i64(pdepth, ks[2], &pdepth) ||
      !tfe_checked_mul_i64(pdepth, depth, &pdepth)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "ExtractVolumePatches: patch size overflows");
    return;
  }
  dims[0] = batch;
  dims[1] = out[0];
  dims[2] = out[1];
  dims[3] = out[2];
  dims[4] = pdepth;
  if (tfe_shape_num_elements(dims, 5) < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Encountered overflow when multiplying shape dimensions");
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, dims, 5);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  dst = (char*)kutil_data(y);
  /* Patch elements in (plane, row, col, depth) order, zeros outside. */
  for (b = 0; b < batch; b++) {
    for (op = 0; op < out[0]; op++) {
      for (orow = 0; orow < out[1]; orow++) {
        for (oc = 0; oc < out[2]; oc++) {
          for (kp = 0; kp < ks[0]; kp++) {
            int64_t ip = op * st[0] - pad[0] + kp;
            for (kr = 0; kr < ks[1]; kr++) {
              int64_t ir = orow * st[1] - pad[1] + kr;
              for (kc = 0; kc < ks[2]; kc++) {
                int64_t ic = oc * st[2] - pad[2] + kc;
                size_t n = (size_t)depth * esz;
                if (ip < 0 || ip >= in[0] || ir < 0 || ir >= in[1] || ic < 0 ||
                    ic >= in[2]) {
                  memset(dst, 0, n);
                } else {
                  int64_t at = (((b * in[0] + ip) * in[1] + ir) * in[2] + ic) * depth;
                  memcpy(dst, src + (size_t)at * esz, n);
                }
                dst += n;
              }
            }
          }
        }
      }
    }
  }
}

void tfe_register_cpu_array_extra_kernels(void) {
  static const TF_DataType all[] = {KUTIL_POD_TYPES, TF_STRING};
  static const TF_DataType stitch[] = {KUTIL_POD_TYPES, TF_STRING, TF_QINT8,
                                       TF_QUINT8, TF_QINT32};
  static const TF_DataType hist[] = {TF_INT32, TF_INT64, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("DynamicPartition", k_dynamic_partition, "T", all,
                     KUTIL_COUNT(all), NULL, NULL, 0);
  tfe_kutil_register("DynamicStitch", k_dynamic_stitch, "T", stitch,
                     KUTIL_COUNT(stitch), NULL, NULL, 0);
  tfe_kutil_register("ParallelDynamicStitch", k_dynamic_stitch, "T", stitch,
                     KUTIL_COUNT(stitch), NULL, NULL, 0);
  tfe_kutil_register("HistogramFixedWidth", k_histogram_fixed_width, "T",
                     hist, KUTIL_COUNT(hist), "dtype", idx, 2);
  {
    static const TF_DataType vp[] = {
        TF_FLOAT,  TF_DOUBLE, TF_INT32,    TF_UINT8,  TF_INT16,  TF_INT8,
        TF_INT64,  TF_BFLOAT16, TF_UINT16, TF_HALF,   TF_UINT32, TF_UINT64};
    tfe_kutil_register("ExtractVolumePatches", k_extract_volume_patches, "T", vp,
                       KUTIL_COUNT(vp), NULL, NULL, 0);
  }
}
