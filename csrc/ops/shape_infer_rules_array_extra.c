/* Shape rules for the array_extra op group (array ops the tf.* Python API
 * needs beyond the existing array groups), as TF 2.21's shape functions. */
#include <stdint.h>

#include "tensorflow/c/tf_tensor.h"
#include "ops/shape_infer_internal.h"

/* DynamicPartition(data, partitions): data must start with partitions'
 * shape; every output is [?] + data.shape[rank(partitions):]. */
static int rule_dynamic_partition(si_ctx* c) {
  si_sh data, parts, rest, out;
  int i;
  si_in(c, 0, &data);
  si_in(c, 1, &parts);
  if (parts.rank == SI_UNKNOWN) return 1;
  if (!si_merge_prefix(c, &data, &parts)) return 0;
  if (!si_subshape(c, &data, parts.rank, INT64_MAX, &rest)) return 0;
  si_vector(&out, SI_UNKNOWN);
  si_concat(&out, &rest);
  for (i = 0; i < si_num_outputs(c); i++) {
    if (!si_set(c, i, &out)) return 0;
  }
  return 1;
}

/* DynamicStitch(indices[N], data[N]): [max(indices)+1 when all indices are
 * constant, else ?] + the merged data.shape[rank(indices[i]):]. */
static int rule_dynamic_stitch(si_ctx* c) {
  int64_t n = si_attr_int(c, "N", 0), i, j;
  int all_const = 1;
  int64_t max_index = -1;
  si_sh extra, out;
  si_unknown(&extra);
  for (i = 0; i < n; i++) {
    si_sh idx, data, rest;
    TF_Tensor* v = si_value(c, (int)i);
    if (v == NULL) all_const = 0;
    si_in(c, (int)i, &idx);
    si_in(c, (int)(i + n), &data);
    if (idx.rank == SI_UNKNOWN) continue;
    if (!si_merge_prefix(c, &data, &idx)) return 0;
    if (!si_subshape(c, &data, idx.rank, INT64_MAX, &rest)) return 0;
    if (!si_merge(c, &extra, &rest)) return 0;
    if (v != NULL && TF_TensorType(v) == TF_INT32) {
      int64_t count = TF_TensorElementCount(v);
      const int32_t* p = (const int32_t*)TF_TensorData(v);
      for (j = 0; j < count && p != NULL; j++) {
        if (p[j] > max_index) max_index = p[j];
      }
    }
  }
  si_vector(&out, all_const ? max_index + 1 : SI_UNKNOWN);
  si_concat(&out, &extra);
  return si_set(c, 0, &out);
}

/* HistogramFixedWidth(values, value_range, nbins): value_range a vector of
 * 2, nbins a scalar; [nbins] when nbins is constant (it must be > 0). */
static int rule_histogram_fixed_width(si_ctx* c) {
  si_sh range, nb;
  int64_t unused, nbins;
  si_in(c, 1, &range);
  if (!si_with_rank(c, &range, 1, &range)) return 0;
  if (!si_with_value(c, range.d[0], 2, &unused)) return 0;
  si_in(c, 2, &nb);
  if (!si_with_rank(c, &nb, 0, &nb)) return 0;
  if (si_value_scalar(c, 2, &nbins)) {
    if (nbins <= 0) {
      return si_err(c, "Requires nbins > 0: %lld", (long long)nbins);
    }
    return si_set_vector(c, 0, nbins);
  }
  return si_set_vector(c, 0, SI_UNKNOWN);
}

/* ExtractVolumePatches(input): rank 5; [batch, planes, rows, cols] from
 * TF's windowed output sizes, depth * ksize_planes * ksize_rows *
 * ksize_cols. */
static int rule_extract_volume_patches(si_ctx* c) {
  si_sh in, out;
  int nk = 0, ns = 0, i;
  const int64_t* ks = si_attr_ints(c, "ksizes", &nk);
  const int64_t* st = si_attr_ints(c, "strides", &ns);
  const char* padding = si_attr_str(c, "padding", "VALID");
  int same = padding != NULL && padding[0] == 'S';
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 5, &in)) return 0;
  if (!si_attr_ints32(c, "ksizes") || !si_attr_ints32(c, "strides")) return 0;
  if (nk != 5) {
    return si_err(c,
                  "ExtractVolumePatches requires the ksizes attribute to contain 5 "
                  "values, but got: %d",
                  nk);
  }
  if (ns != 5) {
    return si_err(c,
                  "ExtractVolumePatches requires the stride attribute to contain 5 "
                  "values, but got: %d",
                  ns);
  }
  out.rank = 5;
  out.d[0] = in.d[0];
  for (i = 1; i < 4; i++) {
    int64_t d = in.d[i];
    if (st[i] <= 0) return si_err(c, "Stride must be > 0, but got %lld", (long long)st[i]);
    if (d == SI_UNKNOWN) {
      out.d[i] = SI_UNKNOWN;
    } else if (same) {
      out.d[i] = (d + st[i] - 1) / st[i];
    } else {
      out.d[i] = (d - ks[i] + st[i]) / st[i];
      if (out.d[i] < 0) {
        return si_err(c,
                      "Computed output size would be negative: %lld [input_size: "
                      "%lld, effective_filter_size: %lld, stride: %lld]",
                      (long long)out.d[i], (long long)d, (long long)ks[i],
                      (long long)st[i]);
      }
    }
  }
  out.d[4] = in.d[4];
  for (i = 1; i < 4; i++) {
    if (ks[i] < 0) return si_err(c, "ksizes is out of range.");
    if (!si_dim_mul(c, out.d[4], ks[i], &out.d[4])) return 0;
  }
  return si_set(c, 0, &out);
}

const si_rule si_rules_array_extra[] = {
    {"ExtractVolumePatches", rule_extract_volume_patches},
    {"DynamicPartition", rule_dynamic_partition},
    {"DynamicStitch", rule_dynamic_stitch},
    {"ParallelDynamicStitch", rule_dynamic_stitch},
    {"HistogramFixedWidth", rule_histogram_fixed_width},
    {NULL, NULL},
};
