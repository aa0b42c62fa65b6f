/* CPU kernels: SparseBincount and RaggedBincount (T int32, int64, float,
 * double; Tidx int32, int64) with TF 2.21's semantics (issue 18,
 * session 8). Counts (or sums of weights) of the values per row:
 *  - SparseBincount: a 1-D sparse input gives a [size] result, any other
 *    rank a [dense_shape[0], size] result whose row is the first index
 *    component. Values >= size are skipped, and so are negative values
 *    except in the 1-D case, which fails on them (all as TF does).
 *  - RaggedBincount: row i holds values[splits[i]..splits[i+1]); values
 *    are walked in order, advancing the row while the position reaches the
 *    next split (TF's walk, so unsorted splits give TF's result). Negative
 *    values fail.
 * With binary_output the result is 1 where a value occurs (weights are
 * ignored). An empty weights tensor means weight 1; TF reads weights of any
 * other length past their end, so a length that differs from the values'
 * is refused here. */
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_linalg2_common.h"

static int check_weights(tfe_kernel_context* k, const TF_Tensor* w,
                         int64_t n) {
  int64_t nw = kutil_num_elements(w);
  if (nw == 0 || nw == n) return 1;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "weights must be empty or have as many elements as values "
             "(%lld), got %lld",
             (long long)n, (long long)nw);
  return 0;
}

static int read_size(tfe_kernel_context* k, const TF_Tensor* s,
                     int64_t* size) {
  if (s->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape must be rank 0 but is rank %d",
               s->num_dims);
    return 0;
  }
  *size = kutil_get_int(s, 0);
  if (*size < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "size (%lld) must be non-negative",
               (long long)*size);
    return 0;
  }
  return 1;
}

/* Adds weight i (or 1) into out[row * size + bin] (or sets 1). */
static void bump(TF_DataType dt, void* out, int64_t pos, const TF_Tensor* w,
                 int64_t i, int binary) {
  int64_t nw = kutil_num_elements(w);
  switch (dt) {
    case TF_INT32:
      if (binary) ((int32_t*)out)[pos] = 1;
      else ((int32_t*)out)[pos] += nw ? ((const int32_t*)kutil_data(w))[i] : 1;
      break;
    case TF_INT64:
      if (binary) ((int64_t*)out)[pos] = 1;
      else ((int64_t*)out)[pos] += nw ? ((const int64_t*)kutil_data(w))[i] : 1;
      break;
    case TF_FLOAT:
      if (binary) ((float*)out)[pos] = 1;
      else ((float*)out)[pos] += nw ? ((const float*)kutil_data(w))[i] : 1;
      break;
    case TF_DOUBLE:
      if (binary) ((double*)out)[pos] = 1;
      else ((double*)out)[pos] += nw ? ((const double*)kutil_data(w))[i] : 1;
      break;
    default:
      break;
  }
}

static void sparse_bincount_compute(tfe_kernel_context* k) {
  const TF_Tensor* ind = k->inputs[0];
  const TF_Tensor* val = k->inputs[1];
  const TF_Tensor* shp = k->inputs[2];
  const TF_Tensor* w = k->inputs[4];
  int binary = kutil_attr_bool(k, "binary_output", 0);
  TF_DataType dt = w->dtype;
  int64_t size, n, rank, rows, i, d, dims[2];
  const int64_t* ix = (const int64_t*)kutil_data(ind);
  const int64_t* sh = (const int64_t*)kutil_data(shp);
  int is_1d;
  TF_Tensor* out;
  if (!read_size(k, k->inputs[3], &size)) return;
  if (ind->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape must be rank 2 but is rank %d",
               ind->num_dims);
    return;
  }
  if (val->num_dims != 1 || shp->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape must be rank 1 but is rank %d",
               val->num_dims != 1 ? val->num_dims : shp->num_dims);
    return;
  }
  n = ind->dims[0];
  rank = ind->dims[1];
  if (n != val->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of elements in indices (%lld) and values (%lld) do not "
               "match",
               (long long)n, (long long)val->dims[0]);
    return;
  }
  if (shp->dims[0] != rank || rank < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "dense_shape must have as many elements (%lld) as indices has "
               "columns (%lld), at least 1",
               (long long)shp->dims[0], (long long)rank);
    return;
  }
  if (!check_weights(k, w, n)) return;
  for (i = 0; i < n; i++) {
    for (d = 0; d < rank; d++) {
      if (ix[i * rank + d] < 0 || ix[i * rank + d] >= sh[d]) {
        char buf[256];
        size_t len = 0;
        int64_t e;
        buf[0] = '\0';
        for (e = 0; e < rank && len + 24 < sizeof buf; e++) {
          len += (size_t)snprintf(buf + len, sizeof buf - len,
                                  e ? ", %lld" : "%lld",
                                  (long long)ix[i * rank + e]);
        }
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Sparse index tuple indices[%lld, :] = [%s] is out of "
                   "bounds",
                   (long long)i, buf);
        return;
      }
    }
  }
  is_1d = rank == 1;
  rows = is_1d ? 1 : sh[0];
  if (is_1d) {
    /* the 1-D case goes through TF's dense bincount, which refuses
     * negative values */
    for (i = 0; i < n; i++) {
      if (kutil_get_int(val, i) < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input arr must be non-negative!");
        return;
      }
    }
  }
  if (is_1d) {
    dims[0] = size;
    out = tfe_kernel_alloc_output(k, 0, dt, dims, 1);
  } else {
    dims[0] = rows;
    dims[1] = size;
    out = tfe_kernel_alloc_output(k, 0, dt, dims, 2);
  }
  if (out == NULL) return;
  if (kutil_num_elements(out) == 0) return;
  memset(kutil_data(out), 0,
         (size_t)kutil_num_elements(out) * kutil_esize(dt));
  for (i = 0; i < n; i++) {
    int64_t bin = kutil_get_int(val, i);
    int64_t row = is_1d ? 0 : ix[i * rank];
    if (bin < 0 || bin >= size) continue;
    bump(dt, kutil_data(out), row * size + bin, w, i, binary);
  }
}

static void ragged_bincount_compute(tfe_kernel_context* k) {
  const TF_Tensor* sp = k->inputs[0];
  const TF_Tensor* val = k->inputs[1];
  const TF_Tensor* w = k->inputs[3];
  int binary = kutil_attr_bool(k, "binary_output", 0);
  TF_DataType dt = w->dtype;
  int64_t size, n, ns, rows, i, b, dims[2];
  const int64_t* s = (const int64_t*)kutil_data(sp);
  TF_Tensor* out;
  if (!read_size(k, k->inputs[2], &size)) return;
  if (sp->num_dims != 1 || val->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape must be rank 1 but is rank %d",
               sp->num_dims != 1 ? sp->num_dims : val->num_dims);
    return;
  }
  ns = sp->dims[0];
  n = val->dims[0];
  if (ns == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Splits must be non-empty");
    return;
  }
  if (s[0] != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Splits must start with 0, not with %lld",
               (long long)s[0]);
    return;
  }
  if (s[ns - 1] != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Splits must end with the number of values, got %lld instead "
               "of %lld",
               (long long)s[ns - 1], (long long)n);
    return;
  }
  if (!check_weights(k, w, n)) return;
  rows = ns - 1;
  dims[0] = rows;
  dims[1] = size;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, 2);
  if (out == NULL) return;
  if (kutil_num_elements(out) > 0) {
    memset(kutil_data(out), 0,
           (size_t)kutil_num_elements(out) * kutil_esize(dt));
  }
  b = 0;
  for (i = 0; i < n; i++) {
    int64_t bin = kutil_get_int(val, i);
    while (b < ns && i >= s[b]) b++;
    if (bin < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input must be non-negative");
      return;
    }
    if (bin >= size || b < 1 || b - 1 >= rows) continue;
    bump(dt, kutil_data(out), (b - 1) * size + bin, w, i, binary);
  }
}

void tfe_nn_linalg2_register_bincount(void) {
  static const TF_DataType kT[] = {TF_INT32, TF_INT64, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("SparseBincount", sparse_bincount_compute, "T", kT, 4,
                     "Tidx", kIdx, 2);
  tfe_kutil_register("RaggedBincount", ragged_bincount_compute, "T", kT, 4,
                     "Tidx", kIdx, 2);
}
