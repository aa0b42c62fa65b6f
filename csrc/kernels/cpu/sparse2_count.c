/* CPU kernels of the sparse2 group: per-batch value counts with a sparse
 * result (DenseCountSparseOutput, SparseCountSparseOutput,
 * RaggedCountSparseOutput), as TF 2.21's count_ops: values below 0 are
 * rejected, values at or above maxlength (when > 0) are dropped, counts
 * are 1 (binary_output), the sum of the weights, or the occurrences; each
 * batch lists its distinct values in ascending order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/sparse2_common.h"

/* One counted occurrence. */
typedef struct cnt_item {
  int64_t batch, value, order;
} cnt_item;

static int item_cmp(const void* x, const void* y) {
  const cnt_item* a = (const cnt_item*)x;
  const cnt_item* b = (const cnt_item*)y;
  if (a->batch != b->batch) return a->batch < b->batch ? -1 : 1;
  if (a->value != b->value) return a->value < b->value ? -1 : 1;
  return a->order < b->order ? -1 : (a->order > b->order ? 1 : 0);
}

/* TF's DebugString of a small int64 vector ("Tensor<type: int64 shape:
 * [2] values: 2 4>"). */
static void i64_debug(const TF_Tensor* t, char* out, size_t cap) {
  kutil_shape_buf b;
  size_t len;
  int64_t i, n = kutil_num_elements(t);
  len = (size_t)snprintf(out, cap, "Tensor<type: int64 shape: %s values: ",
                         kutil_tshape(t, &b));
  for (i = 0; i < n && i < 3 && len < cap; i++) {
    len += (size_t)snprintf(out + len, cap - len, i ? " %lld" : "%lld",
                            (long long)((const int64_t*)kutil_data(t))[i]);
  }
  if (n > 3 && len < cap) len += (size_t)snprintf(out + len, cap - len, "...");
  if (len < cap) snprintf(out + len, cap - len, ">");
}

/* Writes the dense-shape output (width from TF's GetOutputSize). */
static void emit_shape(tfe_kernel_context* k, int64_t nb, int64_t max_value,
                       int is_1d, int32_t minl, int32_t maxl) {
  int64_t shp[2], osize;
  /* TF computes the width in int */
  osize = maxl > 0 ? maxl
                   : ((int32_t)(max_value + 1) > minl ? (int32_t)(max_value + 1)
                                                      : minl);
  if (is_1d) {
    shp[0] = osize;
    sp2_alloc_vec_i64(k, 2, shp, 1);
  } else {
    shp[0] = nb;
    shp[1] = osize;
    sp2_alloc_vec_i64(k, 2, shp, 2);
  }
}

/* The fast path when items come batch by batch (dense and ragged inputs,
 * sorted sparse ones) and values are small: per batch, counts go into a
 * table indexed by value and are read back in value order. Returns 1 when
 * it handled the output (or failed with status set), 0 to sort instead. */
static int bucket_counts(tfe_kernel_context* k, const cnt_item* items,
                         int64_t n, const TF_Tensor* w, int binary, int64_t nb,
                         int64_t max_value, int is_1d, int32_t minl,
                         int32_t maxl) {
  TF_DataType wt = k->output_types != NULL ? k->output_types[1] : TF_INT64;
  int is_f = wt == TF_FLOAT || wt == TF_DOUBLE;
  int64_t i, groups = 0, span = max_value + 1, cells;
  int64_t* stamp = NULL;
  int64_t* acci = NULL;
  double* accd = NULL;
  TF_Tensor *oi, *ov;
  int64_t od[2];
  for (i = 1; i < n; i++) {
    if (items[i].batch < items[i - 1].batch) return 0;
  }
  if (!tfe_checked_mul_i64(nb > 0 ? nb : 1, span, &cells) ||
      cells > 8 * n + (1 << 20) || span > (1 << 24)) {
    return 0;
  }
  stamp = (int64_t*)tfe_malloc((size_t)span * sizeof(int64_t));
  if (is_f) {
    accd = (double*)tfe_malloc((size_t)span * sizeof(double));
  } else {
    acci = (int64_t*)tfe_malloc((size_t)span * sizeof(int64_t));
  }
  if (stamp == NULL || (accd == NULL && acci == NULL)) {
    tfe_free(stamp);
    tfe_free(accd);
    tfe_free(acci);
    return 0;
  }
  for (i = 0; i < span; i++) stamp[i] = -1;
  for (i = 0; i < n; i++) {
    if (stamp[items[i].value] != items[i].batch) {
      stamp[items[i].value] = items[i].batch;
      groups++;
    }
  }
  od[0] = groups;
  od[1] = is_1d ? 1 : 2;
  oi = tfe_kernel_alloc_output(k, 0, TF_INT64, od, 2);
  ov = oi != NULL ? tfe_kernel_alloc_output(k, 1, wt, od, 1) : NULL;
  if (ov != NULL) {
    int64_t s0 = 0, g = 0;
    int64_t* orow = (int64_t*)kutil_data(oi);
    for (i = 0; i < span; i++) stamp[i] = -1;
    while (s0 < n) {
      int64_t e = s0, b = items[s0].batch, v, bmax = 0;
      while (e < n && items[e].batch == b) e++;
      for (i = s0; i < e; i++) {
        int64_t val = items[i].value, o = items[i].order;
        if (val > bmax) bmax = val;
        if (stamp[val] != b) {
          stamp[val] = b;
          if (is_f) accd[val] = 0; else acci[val] = 0;
        }
        if (binary) {
          if (is_f) accd[val] = 1; else acci[val] = 1;
        } else if (w != NULL) {
          switch (wt) {
            case TF_FLOAT: accd[val] += ((const float*)kutil_data(w))[o]; break;
            case TF_DOUBLE: accd[val] += ((const double*)kutil_data(w))[o]; break;
            case TF_INT32:
              acci[val] = (int64_t)((uint64_t)acci[val] +
                                    (uint64_t)((const int32_t*)kutil_data(w))[o]);
              break;
            default:
              acci[val] = (int64_t)((uint64_t)acci[val] +
                                    (uint64_t)((const int64_t*)kutil_data(w))[o]);
          }
        } else {
          if (is_f) accd[val] += 1; else acci[val]++;
        }
      }
      for (v = 0; v <= bmax; v++) {
        if (stamp[v] != b) continue;
        if (is_1d) {
          orow[g] = v;
        } else {
          orow[2 * g] = b;
          orow[2 * g + 1] = v;
        }
        switch (wt) {
          case TF_FLOAT: ((float*)kutil_data(ov))[g] = (float)accd[v]; break;
          case TF_DOUBLE: ((double*)kutil_data(ov))[g] = accd[v]; break;
          case TF_INT32: ((int32_t*)kutil_data(ov))[g] = (int32_t)acci[v]; break;
          default: ((int64_t*)kutil_data(ov))[g] = acci[v];
        }
        g++;
      }
      s0 = e;
    }
    emit_shape(k, nb, max_value, is_1d, minl, maxl);
  }
  tfe_free(stamp);
  tfe_free(accd);
  tfe_free(acci);
  return 1;
}

/* Shared tail: items[0..n) (already filtered), weights (or NULL), output
 * of nb batches. */
static void emit_counts(tfe_kernel_context* k, cnt_item* items, int64_t n,
                        const TF_Tensor* w, int binary, int64_t nb,
                        int64_t max_value, int is_1d) {
  int32_t minl, maxl;
  int64_t i, groups = 0;
  TF_DataType wt = k->output_types != NULL ? k->output_types[1] : TF_INT64;
  int kind = sp_kind(wt);
  TF_Tensor *oi, *ov;
  int64_t od[2];
  if (!kutil_attr_int32(k, "minlength", -1, &minl)) return;
  if (!kutil_attr_int32(k, "maxlength", -1, &maxl)) return;
  if (bucket_counts(k, items, n, w, binary, nb, max_value, is_1d, minl, maxl)) {
    return;
  }
  if (n > 1) {
    /* stable sort by (batch, value): the radix/merge row sort of the
     * sparse group on a [n, 2] key matrix keeps each value's occurrences
     * in input order (so weights add up in TF's order) */
    int64_t* keys = (int64_t*)tfe_malloc((size_t)n * 2 * sizeof(int64_t));
    int64_t* perm = (int64_t*)tfe_malloc((size_t)n * sizeof(int64_t));
    cnt_item* sorted = (cnt_item*)tfe_malloc((size_t)n * sizeof(cnt_item));
    if (keys == NULL || perm == NULL || sorted == NULL) {
      tfe_free(keys);
      tfe_free(perm);
      tfe_free(sorted);
      qsort(items, (size_t)n, sizeof *items, item_cmp);
    } else {
      for (i = 0; i < n; i++) {
        keys[2 * i] = items[i].batch;
        keys[2 * i + 1] = items[i].value;
      }
      if (tfe_sparse_sort_rows(keys, n, 2, perm)) {
        for (i = 0; i < n; i++) sorted[i] = items[perm[i]];
        memcpy(items, sorted, (size_t)n * sizeof(cnt_item));
      } else {
        qsort(items, (size_t)n, sizeof *items, item_cmp);
      }
      tfe_free(keys);
      tfe_free(perm);
      tfe_free(sorted);
    }
  }
  for (i = 0; i < n; i++) {
    if (i == 0 || items[i].batch != items[i - 1].batch ||
        items[i].value != items[i - 1].value) {
      groups++;
    }
  }
  od[0] = groups;
  od[1] = is_1d ? 1 : 2;
  oi = tfe_kernel_alloc_output(k, 0, TF_INT64, od, 2);
  if (oi == NULL) return;
  ov = tfe_kernel_alloc_output(k, 1, wt, od, 1);
  if (ov == NULL) return;
  {
    int64_t g = -1;
    spv acc, one, v;
    sp_zero(&one);
    one.re = 1;
    one.i = 1;
    sp_zero(&acc);
    for (i = 0; i <= n; i++) {
      int newg = i == n || i == 0 || items[i].batch != items[i - 1].batch ||
                 items[i].value != items[i - 1].value;
      if (newg && g >= 0) sp_store(wt, kutil_data(ov), g, &acc);
      if (i == n) break;
      if (newg) {
        int64_t* row;
        g++;
        row = (int64_t*)kutil_data(oi) + g * od[1];
        if (is_1d) {
          row[0] = items[i].value;
        } else {
          row[0] = items[i].batch;
          row[1] = items[i].value;
        }
        sp_zero(&acc);
      }
      if (binary) {
        acc = one;
      } else if (w != NULL) {
        sp_load(wt, kutil_data(w), items[i].order, &v);
        sp_add(kind, &acc, &v);
      } else {
        sp_add(kind, &acc, &one);
      }
    }
  }
  emit_shape(k, nb, max_value, is_1d, minl, maxl);
}

/* Collects the value at flat position i of vals into items when it is
 * counted; returns 0 (status set) for a negative value. */
static int take(tfe_kernel_context* k, const TF_Tensor* vals, int64_t i,
                int64_t batch, int32_t maxl, cnt_item* items, int64_t* n,
                int64_t* max_value) {
  int64_t v = kutil_get_int(vals, i);
  if (v < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input values must all be non-negative");
    return 0;
  }
  if (maxl <= 0 || v < maxl) {
    items[*n].batch = batch;
    items[*n].value = v;
    items[*n].order = i;
    (*n)++;
    if (v > *max_value) *max_value = v;
  }
  return 1;
}

static void k_dense_count(tfe_kernel_context* k) {
  const TF_Tensor* data = k->inputs[0];
  const TF_Tensor* w = k->inputs[1];
  int binary = kutil_attr_bool(k, "binary_output", 0);
  int use_w = kutil_num_elements(w) > 0;
  int32_t maxl;
  kutil_shape_buf b1, b2;
  int64_t nb = 1, per, i, n = 0, maxv = 0, total;
  cnt_item* items;
  if (!kutil_attr_int32(k, "maxlength", -1, &maxl)) return;
  if (data->num_dims != 1 && data->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input must be a 1 or 2-dimensional tensor. Got: %s",
               kutil_tshape(data, &b1));
    return;
  }
  if (use_w && (w->num_dims != data->num_dims ||
                memcmp(w->dims, data->dims, (size_t)data->num_dims * sizeof(int64_t)) != 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Weights and data must have the same shape. Weight shape: %s; "
               "data shape: %s",
               kutil_tshape(w, &b1), kutil_tshape(data, &b2));
    return;
  }
  if (data->num_dims == 2) {
    if (data->dims[0] == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Invalid input: Shapes dimension cannot be 0.");
      return;
    }
    nb = data->dims[0];
  }
  total = kutil_num_elements(data);
  per = nb > 0 ? total / nb : 0;
  items = (cnt_item*)tfe_malloc((size_t)(total > 0 ? total : 1) * sizeof(cnt_item));
  if (items == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in DenseCountSparseOutput");
    return;
  }
  for (i = 0; i < total; i++) {
    if (!take(k, data, i, per > 0 ? i / per : 0, maxl, items, &n, &maxv)) goto done;
  }
  emit_counts(k, items, n, use_w ? w : NULL, binary, nb, maxv, data->num_dims == 1);
done:
  tfe_free(items);
}

static void k_sparse_count(tfe_kernel_context* k) {
  const TF_Tensor* ind = k->inputs[0];
  const TF_Tensor* vals = k->inputs[1];
  const TF_Tensor* shp = k->inputs[2];
  const TF_Tensor* w = k->inputs[3];
  int binary = kutil_attr_bool(k, "binary_output", 0);
  int use_w = kutil_num_elements(w) > 0;
  int32_t maxl;
  kutil_shape_buf b1, b2;
  int64_t nv, rank, i, j, n = 0, maxv = 0, nb;
  const int64_t *ix, *sv;
  int is_1d;
  cnt_item* items;
  if (!kutil_attr_int32(k, "maxlength", -1, &maxl)) return;
  if (ind->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input indices must be a 2-dimensional tensor. Got: %s",
               kutil_tshape(ind, &b1));
    return;
  }
  if (vals->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input values must be a vector. Got: %s",
               kutil_tshape(vals, &b1));
    return;
  }
  if (shp->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input shape must be a vector. Got: %s",
               kutil_tshape(shp, &b1));
    return;
  }
  if (vals->dims[0] != ind->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of values must match first dimension of indices.Got "
               "%lld values, indices shape: %s",
               (long long)vals->dims[0], kutil_tshape(ind, &b1));
    return;
  }
  if (shp->dims[0] != ind->dims[1]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of dimensions must match second dimension of "
               "indices.Got %lld dimensions, indices shape: %s",
               (long long)shp->dims[0], kutil_tshape(ind, &b1));
    return;
  }
  if (shp->dims[0] == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The shape argument requires at least one element.");
    return;
  }
  nv = vals->dims[0];
  rank = ind->dims[1];
  ix = (const int64_t*)kutil_data(ind);
  sv = (const int64_t*)kutil_data(shp);
  for (i = 0; i < nv; i++) {
    for (j = 0; j < rank; j++) {
      int64_t v = ix[i * rank + j];
      if (v < 0 || v >= sv[j]) {
        char dbg[256];
        i64_debug(shp, dbg, sizeof dbg);
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Invalid index value at %lld: dimension %lld has value %lld "
                   "which is not in [0, %lld) (as given by dense shape %s",
                   (long long)i, (long long)j, (long long)v, (long long)sv[j], dbg);
        return;
      }
    }
  }
  if (use_w && (w->num_dims != 1 || w->dims[0] != nv)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Weights and values must have the same shape. Weight shape: %s; "
               "values shape: %s",
               kutil_tshape(w, &b1), kutil_tshape(vals, &b2));
    return;
  }
  is_1d = shp->dims[0] == 1;
  nb = is_1d ? 1 : sv[0];
  if (!(0 < nb && nb < INT32_MAX)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Cannot allocate %lld batches, is the dense shape too wide?",
               (long long)(int32_t)nb);
    return;
  }
  for (j = 0; j < shp->dims[0]; j++) {
    if (sv[j] < 0) {
      char dbg[256];
      i64_debug(shp, dbg, sizeof dbg);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Elements in dense_shape must be >= 0. Instead got:%s", dbg);
      return;
    }
  }
  items = (cnt_item*)tfe_malloc((size_t)(nv > 0 ? nv : 1) * sizeof(cnt_item));
  if (items == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseCountSparseOutput");
    return;
  }
  for (i = 0; i < nv; i++) {
    if (!take(k, vals, i, is_1d ? 0 : ix[i * rank], maxl, items, &n, &maxv)) goto done;
  }
  emit_counts(k, items, n, use_w ? w : NULL, binary, nb, maxv, is_1d);
done:
  tfe_free(items);
}

static void k_ragged_count(tfe_kernel_context* k) {
  const TF_Tensor* sp = k->inputs[0];
  const TF_Tensor* vals = k->inputs[1];
  const TF_Tensor* w = k->inputs[2];
  int binary = kutil_attr_bool(k, "binary_output", 0);
  int use_w = kutil_num_elements(w) > 0;
  int32_t maxl;
  kutil_shape_buf b1, b2;
  int64_t nb, nv, i, n = 0, maxv = 0, bi = 0;
  const int64_t* s;
  cnt_item* items;
  if (!kutil_attr_int32(k, "maxlength", -1, &maxl)) return;
  nv = kutil_num_elements(vals);
  if (use_w && (w->num_dims != vals->num_dims ||
                memcmp(w->dims, vals->dims, (size_t)vals->num_dims * sizeof(int64_t)) != 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Weights and values must have the same shape. Weight shape: %s; "
               "values shape: %s",
               kutil_tshape(w, &b1), kutil_tshape(vals, &b2));
    return;
  }
  nb = kutil_num_elements(sp) - 1;
  if (nb <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Must provide at least 2 elements for the splits argument");
    return;
  }
  s = (const int64_t*)kutil_data(sp);
  if (s[0] != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Splits must start with 0, not with %lld",
               (long long)s[0]);
    return;
  }
  if (s[nb] != nv) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Splits must end with the number of values, got %lld instead of "
               "%lld",
               (long long)s[nb], (long long)nv);
    return;
  }
  items = (cnt_item*)tfe_malloc((size_t)(nv > 0 ? nv : 1) * sizeof(cnt_item));
  if (items == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in RaggedCountSparseOutput");
    return;
  }
  for (i = 0; i < nv; i++) {
    /* TF's walk: the batch is the first split above i (s[nb] == nv ends it) */
    while (bi <= nb && i >= s[bi]) bi++;
    if (!take(k, vals, i, bi - 1, maxl, items, &n, &maxv)) goto done;
  }
  emit_counts(k, items, n, use_w ? w : NULL, binary, nb, maxv, 0);
done:
  tfe_free(items);
}

void tfe_register_cpu_sparse2_count_kernels(void) {
  static const TF_DataType ti[] = {TF_INT32, TF_INT64};
  static const TF_DataType wt[] = {TF_INT32, TF_INT64, TF_FLOAT, TF_DOUBLE};
  tfe_kutil_register("DenseCountSparseOutput", k_dense_count, "T", ti, 2,
                     "output_type", wt, 4);
  tfe_kutil_register("SparseCountSparseOutput", k_sparse_count, "T", ti, 2,
                     "output_type", wt, 4);
  tfe_kutil_register("RaggedCountSparseOutput", k_ragged_count, "T", ti, 2,
                     "output_type", wt, 4);
}
