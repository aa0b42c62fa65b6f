/* Segment reductions: SegmentSum/Mean/Max/Min/Prod (sorted ids, one output
 * row per id up to the largest) and UnsortedSegmentSum/Max/Min/Prod (ids in
 * any order, a given number of output rows, negative ids dropped). */
#include <stdint.h>

#include "kernels/cpu/arrayops_common.h"
#include "kernels/cpu/kutil.h"

typedef struct seg_kind {
  tfe_ao_kind fold;
  int mean;
} seg_kind;

/* Elements per row of data after its first `skip` dimensions. */
static int64_t inner_size(const TF_Tensor* t, int skip) {
  int64_t n = 1;
  int i;
  for (i = skip; i < t->num_dims; i++) n *= t->dims[i];
  return n;
}

static void sorted_segment(tfe_kernel_context* k, seg_kind kind) {
  const TF_Tensor* data = k->inputs[0];
  const TF_Tensor* ids = k->inputs[1];
  size_t esz = kutil_esize(data->dtype);
  int64_t n, rows, inner, start, end, prev_end = 0;
  int64_t dims[TFE_MAX_DIMS];
  TF_Tensor* out;
  char* o;
  const char* x;
  int i;
  if (data->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be at least rank 1");
    return;
  }
  if (ids->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "segment_ids should be a vector.");
    return;
  }
  n = ids->dims[0];
  if (n != data->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "segment_ids should be the same size as dimension 0 of input.");
    return;
  }
  rows = 0;
  if (n > 0 && !tfe_checked_add_i64(kutil_get_int(ids, n - 1), 1, &rows)) {
    /* the last id is INT64_MAX: no output can have that many rows */
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "segment id %lld is too large for an output row count",
               (long long)kutil_get_int(ids, n - 1));
    return;
  }
  if (n > 0 && rows <= 0) { /* the last (largest) id is negative */
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "segment ids must be >= 0");
    return;
  }
  inner = inner_size(data, 1);
  dims[0] = rows;
  for (i = 1; i < data->num_dims; i++) dims[i] = data->dims[i];
  out = tfe_kernel_alloc_output(k, 0, data->dtype, dims, data->num_dims);
  if (out == NULL) return;
  o = (char*)kutil_data(out);
  x = (const char*)kutil_data(data);
  /* Walk runs of equal ids; rows no id names keep the default (1 for
   * products, 0 otherwise). */
  for (start = 0; start < n; start = end) {
    int64_t id = kutil_get_int(ids, start), r;
    end = start + 1;
    while (end < n && kutil_get_int(ids, end) == id) end++;
    if (end < n && kutil_get_int(ids, end) < id) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "segment ids are not increasing");
      return;
    }
    if (id < 0 || id >= rows) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Segment id %lld out of range [0, %lld), possibly because "
                 "'segment_ids' input is not sorted.",
                 (long long)id, (long long)rows);
      return;
    }
    /* rows between the previous run and this one */
    if (id > prev_end) {
      if (kind.fold == TFE_AO_PROD) {
        tfe_ao_fill_identity(data->dtype, TFE_AO_PROD, o + prev_end * inner * esz,
                             (id - prev_end) * inner);
      } else {
        tfe_ao_fill_zero(data->dtype, o + prev_end * inner * esz,
                         (id - prev_end) * inner);
      }
    }
    memcpy(o + id * inner * esz, x + start * inner * esz,
           (size_t)inner * esz);
    for (r = start + 1; r < end; r++) {
      tfe_ao_combine(data->dtype, kind.fold, o + id * inner * esz,
                     x + r * inner * esz, inner);
    }
    if (kind.mean) {
      tfe_ao_divide(data->dtype, o + id * inner * esz, inner, end - start);
    }
    prev_end = id + 1;
  }
  if (rows > prev_end) {
    if (kind.fold == TFE_AO_PROD) {
      tfe_ao_fill_identity(data->dtype, TFE_AO_PROD, o + prev_end * inner * esz,
                           (rows - prev_end) * inner);
    } else {
      tfe_ao_fill_zero(data->dtype, o + prev_end * inner * esz,
                       (rows - prev_end) * inner);
    }
  }
}

/* Renders the position of flat element i of a tensor of the given shape as
 * TF prints it: "[1,2]". */
static void index_str(const TF_Tensor* t, int64_t i, char* buf, size_t cap) {
  int64_t idx[TFE_MAX_DIMS];
  int d;
  if (t->num_dims == 0) { /* a scalar's position prints as nothing */
    if (cap > 0) buf[0] = '\0';
    return;
  }
  for (d = t->num_dims - 1; d >= 0; d--) {
    idx[d] = t->dims[d] > 0 ? i % t->dims[d] : 0;
    i = t->dims[d] > 0 ? i / t->dims[d] : 0;
  }
  kutil_shape_str(idx, t->num_dims, buf, cap);
}

static void unsorted_segment(tfe_kernel_context* k, tfe_ao_kind fold) {
  const TF_Tensor* data = k->inputs[0];
  const TF_Tensor* ids = k->inputs[1];
  const TF_Tensor* nseg = k->inputs[2];
  size_t esz = kutil_esize(data->dtype);
  int64_t rows, inner, n, i;
  int64_t dims[TFE_MAX_DIMS];
  int d, nd;
  TF_Tensor* out;
  char* o;
  const char* x;
  kutil_shape_buf b1, b2;
  if (nseg->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_segments should be a scalar, not shape %s",
               kutil_tshape(nseg, &b1));
    return;
  }
  {
    int starts = ids->num_dims <= data->num_dims;
    for (d = 0; starts && d < ids->num_dims; d++) {
      if (ids->dims[d] != data->dims[d]) starts = 0;
    }
    if (!starts) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "data.shape = %s does not start with segment_ids.shape = %s",
                 kutil_tshape(data, &b1), kutil_tshape(ids, &b2));
      return;
    }
  }
  rows = kutil_get_int(nseg, 0);
  if (rows < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input num_segments == %lld must not be negative.",
               (long long)rows);
    return;
  }
  inner = inner_size(data, ids->num_dims);
  n = kutil_num_elements(ids);
  nd = 1 + data->num_dims - ids->num_dims;
  dims[0] = rows;
  for (d = 1; d < nd; d++) dims[d] = data->dims[ids->num_dims + d - 1];
  out = tfe_kernel_alloc_output(k, 0, data->dtype, dims, nd);
  if (out == NULL) return;
  o = (char*)kutil_data(out);
  x = (const char*)kutil_data(data);
  if (!tfe_ao_fill_identity(data->dtype, fold, o, rows * inner)) {
    KUTIL_FAIL(k, TF_INTERNAL, "unsupported dtype");
    return;
  }
  for (i = 0; i < n; i++) {
    int64_t id = kutil_get_int(ids, i);
    if (id < 0) continue;
    if (id >= rows) {
      char where[512];
      index_str(ids, i, where, sizeof where);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "segment_ids%s = %lld is out of range [0, %lld)", where,
                 (long long)id, (long long)rows);
      return;
    }
    tfe_ao_combine(data->dtype, fold, o + id * inner * esz,
                   x + i * inner * esz, inner);
  }
}

static void k_segment_sum(tfe_kernel_context* k) {
  seg_kind s = {TFE_AO_SUM, 0};
  sorted_segment(k, s);
}
static void k_segment_mean(tfe_kernel_context* k) {
  seg_kind s = {TFE_AO_SUM, 1};
  sorted_segment(k, s);
}
static void k_segment_prod(tfe_kernel_context* k) {
  seg_kind s = {TFE_AO_PROD, 0};
  sorted_segment(k, s);
}
static void k_segment_max(tfe_kernel_context* k) {
  seg_kind s = {TFE_AO_MAX, 0};
  sorted_segment(k, s);
}
static void k_segment_min(tfe_kernel_context* k) {
  seg_kind s = {TFE_AO_MIN, 0};
  sorted_segment(k, s);
}
static void k_unsorted_sum(tfe_kernel_context* k) {
  unsorted_segment(k, TFE_AO_SUM);
}
static void k_unsorted_prod(tfe_kernel_context* k) {
  unsorted_segment(k, TFE_AO_PROD);
}
static void k_unsorted_max(tfe_kernel_context* k) {
  unsorted_segment(k, TFE_AO_MAX);
}
static void k_unsorted_min(tfe_kernel_context* k) {
  unsorted_segment(k, TFE_AO_MIN);
}

void tfe_register_arrayops_segment_kernels(void) {
  static const TF_DataType num[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType real[] = {KUTIL_REAL_TYPES};
  tfe_kutil_register("SegmentSum", k_segment_sum, "T", num, KUTIL_COUNT(num),
                     NULL, NULL, 0);
  tfe_kutil_register("SegmentMean", k_segment_mean, "T", num,
                     KUTIL_COUNT(num), NULL, NULL, 0);
  tfe_kutil_register("SegmentProd", k_segment_prod, "T", num,
                     KUTIL_COUNT(num), NULL, NULL, 0);
  tfe_kutil_register("SegmentMax", k_segment_max, "T", real,
                     KUTIL_COUNT(real), NULL, NULL, 0);
  tfe_kutil_register("SegmentMin", k_segment_min, "T", real,
                     KUTIL_COUNT(real), NULL, NULL, 0);
  tfe_kutil_register("UnsortedSegmentSum", k_unsorted_sum, "T", num,
                     KUTIL_COUNT(num), NULL, NULL, 0);
  tfe_kutil_register("UnsortedSegmentProd", k_unsorted_prod, "T", num,
                     KUTIL_COUNT(num), NULL, NULL, 0);
  tfe_kutil_register("UnsortedSegmentMax", k_unsorted_max, "T", real,
                     KUTIL_COUNT(real), NULL, NULL, 0);
  tfe_kutil_register("UnsortedSegmentMin", k_unsorted_min, "T", real,
                     KUTIL_COUNT(real), NULL, NULL, 0);
}
