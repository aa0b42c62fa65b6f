/* CPU kernels: remaining sparse, set, count and ragged ops, and other array/image/debug ops (issue 18, session 8).
 * Definitions and shape rules come from TF 2.21's generated registry
 * (csrc/ops/defs_generated.c, shape_infer_rules_generated.c).
 *
 * This file: SparseConcat, SparseSlice, SparseSliceGrad, SparseSplit,
 * SparseReduceSumSparse and SparseReduceMaxSparse, plus the validation
 * helpers the other sparse2_*.c files share (sparse2_common.h). Checks,
 * messages and results follow TensorFlow 2.21 (values recorded in
 * tests/data/sparse2_ops_tf221.json by tools/record_sparse2_ops.py). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernels/cpu/sparse2_common.h"

void tfe_register_cpu_sparse2_kernels(void);

/* ------------------------------------------------------------ helpers */

const char* sp2_row_str(const int64_t* row, int nd, char* buf, size_t cap) {
  size_t len = 0;
  int i;
  if (cap == 0) return buf;
  buf[0] = '\0';
  len += (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < nd && len < cap; i++) {
    len += (size_t)snprintf(buf + len, cap - len, i ? ", %lld" : "%lld",
                            (long long)row[i]);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

int sp2_validate(tfe_kernel_context* k, const TF_Tensor* ind,
                 const TF_Tensor* vals, const TF_Tensor* shape, int mode) {
  int64_t nnz, nd, i;
  int d;
  const int64_t* ix;
  const int64_t* shp;
  if (ind->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sparse indices must be rank 2 but is rank %d", ind->num_dims);
    return 0;
  }
  if (vals->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sparse values must be rank 1 but is rank %d", vals->num_dims);
    return 0;
  }
  if (shape->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sparse shape must be rank 1 but is rank %d", shape->num_dims);
    return 0;
  }
  nnz = ind->dims[0];
  nd = ind->dims[1];
  if (vals->dims[0] != nnz) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of elements in indices (%lld) and values (%lld) do not "
               "match",
               (long long)nnz, (long long)vals->dims[0]);
    return 0;
  }
  if (shape->dims[0] != nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Index rank (%lld) and shape rank (%lld) do not match",
               (long long)nd, (long long)shape->dims[0]);
    return 0;
  }
  if (mode == SP2_VALIDATE_NONE || nnz == 0) return 1;
  ix = (const int64_t*)kutil_data(ind);
  shp = (const int64_t*)kutil_data(shape);
  for (i = 0; i < nnz; i++) {
    const int64_t* row = ix + i * nd;
    for (d = 0; d < nd; d++) {
      if (row[d] < 0 || row[d] >= shp[d]) {
        char rb[512];
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Sparse index tuple indices[%lld, :] = %s is out of bounds",
                   (long long)i, sp2_row_str(row, (int)nd, rb, sizeof rb));
        return 0;
      }
    }
    if (mode == SP2_VALIDATE_ORDERED && i > 0) {
      int c = sp_cmp_rows(ix, i - 1, ix, i, (int)nd);
      if (c >= 0) {
        char rb[512];
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   c > 0 ? "Sparse index tuple indices[%lld, :] = %s is out "
                           "of order. Many sparse ops require sorted indices.\n"
                           "    Use `tf.sparse.reorder` to create a correctly "
                           "ordered copy.\n\n"
                         : "Sparse index tuple indices[%lld, :] = %s is "
                           "repeated",
                   (long long)i, sp2_row_str(row, (int)nd, rb, sizeof rb));
        return 0;
      }
    }
  }
  return 1;
}

int sp2_create_check(tfe_kernel_context* k, const TF_Tensor* ind,
                      const TF_Tensor* vals, int64_t rank) {
  kutil_shape_buf b1;
  if (vals->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "vals must be a vec, but got: %s",
               kutil_tshape(vals, &b1));
    return 0;
  }
  if (ind->num_dims < 1 || ind->dims[0] != vals->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "indices and values rows (indexing dimension) must match. "
               "(indices = %lld, values = %lld)",
               (long long)(ind->num_dims < 1 ? 1 : ind->dims[0]),
               (long long)vals->dims[0]);
    return 0;
  }
  if (ind->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices must be a matrix, but got: %s",
               kutil_tshape(ind, &b1));
    return 0;
  }
  if (ind->dims[1] != rank) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Order length must be SparseTensor rank.");
    return 0;
  }
  return 1;
}

int sp2_indices_valid(tfe_kernel_context* k, const int64_t* ix, int64_t nnz,
                      int nd, const int64_t* shape) {
  int64_t i;
  int d;
  for (i = 0; i < nnz; i++) {
    const int64_t* row = ix + i * nd;
    int valid = 1, cmp = 1;
    for (d = 0; d < nd; d++) {
      if (row[d] < 0 || row[d] >= shape[d]) valid = 0;
    }
    if (i > 0) cmp = -sp_cmp_rows(ix, i - 1, ix, i, nd);
    if (!valid || cmp <= 0) {
      char rb[512], sb[512];
      kutil_shape_str(row, nd, rb, sizeof rb);
      if (!valid) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "indices[%lld] = %s is out of bounds: need 0 <= index < %s",
                   (long long)i, rb, kutil_shape_str(shape, nd, sb, sizeof sb));
      } else if (cmp < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "indices[%lld] = %s is out of order. Many sparse ops "
                   "require sorted indices.\n    Use `tf.sparse.reorder` to "
                   "create a correctly ordered copy.\n\n",
                   (long long)i, rb);
      } else {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices[%lld] = %s is repeated",
                   (long long)i, rb);
      }
      return 0;
    }
  }
  return 1;
}

int sp2_indices_in_bounds(tfe_kernel_context* k, const int64_t* ix,
                          int64_t nnz, int nd, const int64_t* shape) {
  int64_t i;
  int d;
  for (i = 0; i < nnz; i++) {
    const int64_t* row = ix + i * nd;
    for (d = 0; d < nd; d++) {
      if (row[d] < 0 || row[d] >= shape[d]) {
        char rb[512], sb[512];
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "indices[%lld] = %s is out of bounds: need 0 <= index < %s",
                   (long long)i, kutil_shape_str(row, nd, rb, sizeof rb),
                   kutil_shape_str(shape, nd, sb, sizeof sb));
        return 0;
      }
    }
  }
  return 1;
}

int sp2_reduction_axes(tfe_kernel_context* k, const TF_Tensor* ax, int64_t nd,
                       unsigned char* reduced) {
  int64_t naxes = kutil_num_elements(ax), i;
  memset(reduced, 0, (size_t)nd);
  for (i = 0; i < naxes; i++) {
    int64_t a = kutil_get_int(ax, i);
    if (a < -nd || a >= nd) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Invalid reduction dimension %lld, for input with %lld "
                 "dimensions.",
                 (long long)a, (long long)nd);
      return 0;
    }
    reduced[a < 0 ? a + nd : a] = 1;
  }
  return 1;
}

TF_Tensor* sp2_alloc_vec_i64(tfe_kernel_context* k, int index,
                             const int64_t* v, int64_t n) {
  int64_t dims[1];
  TF_Tensor* t;
  dims[0] = n;
  t = tfe_kernel_alloc_output(k, index, TF_INT64, dims, 1);
  if (t != NULL && n > 0) memcpy(kutil_data(t), v, (size_t)n * sizeof(int64_t));
  return t;
}

/* ------------------------------------------------------- SparseConcat */

static void k_sparse_concat(tfe_kernel_context* k) {
  int64_t nattr = 0;
  int n, i, d, rank, cdim;
  int32_t cattr;
  TF_DataType dt;
  size_t esz;
  int64_t total = 0, pos, odims[2];
  int64_t shp0[TFE_MAX_DIMS], oshape[TFE_MAX_DIMS];
  int64_t* ind = NULL;
  int64_t* perm = NULL;
  int64_t* src_in = NULL; /* input number of each gathered row */
  int64_t* src_row = NULL;
  TF_Tensor *oi, *ov;
  kutil_shape_buf b1;
  if (!tfe_attrs_get_int(k->attrs, "N", &nattr, NULL)) nattr = k->num_inputs / 3;
  n = (int)nattr;
  if (!kutil_attr_int32(k, "concat_dim", 0, &cattr)) return;
  for (i = 0; i < n; i++) {
    if (k->inputs[i]->num_dims != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input indices should be a matrix but received shape %s at "
                 "position %d",
                 kutil_tshape(k->inputs[i], &b1), i);
      return;
    }
  }
  for (i = 0; i < n; i++) {
    if (k->inputs[n + i]->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input values should be a vector but received shape %s at "
                 "position %d",
                 kutil_tshape(k->inputs[n + i], &b1), i);
      return;
    }
  }
  for (i = 0; i < n; i++) {
    if (k->inputs[2 * n + i]->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input shapes should be a vector but received shape %s at "
                 "position %d",
                 kutil_tshape(k->inputs[2 * n + i], &b1), i);
      return;
    }
  }
  dt = k->inputs[n]->dtype;
  esz = kutil_esize(dt);
  rank = (int)k->inputs[2 * n]->dims[0];
  if (rank > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input shape has too many dimensions");
    return;
  }
  memcpy(shp0, kutil_data(k->inputs[2 * n]), (size_t)rank * sizeof(int64_t));
  cdim = cattr < 0 ? rank + cattr : cattr;
  if (cdim < 0 || cdim >= rank) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Concat dimension must be in range [%d, %d), got %d", -rank,
               rank, (int)cattr);
    return;
  }
  memcpy(oshape, shp0, (size_t)rank * sizeof(int64_t));
  oshape[cdim] = 0;
  for (i = 0; i < n; i++) {
    const TF_Tensor* s = k->inputs[2 * n + i];
    const int64_t* sv = (const int64_t*)kutil_data(s);
    if (s->dims[0] != rank) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Ranks of all input tensors must match: expected %d but got "
                 "%lld at position %d",
                 rank, (long long)s->dims[0], i);
      return;
    }
    for (d = 0; d < rank; d++) {
      if (d != cdim && sv[d] != shp0[d]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Input shapes must match: expected %lld for dimension %d "
                   "but got %lld at position %d",
                   (long long)shp0[d], d, (long long)sv[d], i);
        return;
      }
    }
  }
  for (i = 0; i < n; i++) {
    const TF_Tensor* ii = k->inputs[i];
    const TF_Tensor* iv = k->inputs[n + i];
    const int64_t* sv = (const int64_t*)kutil_data(k->inputs[2 * n + i]);
    if (ii->dims[0] != iv->dims[0]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "indices and values rows (indexing dimension) must match. "
                 "(indices = %lld, values = %lld)",
                 (long long)ii->dims[0], (long long)iv->dims[0]);
      return;
    }
    if (ii->dims[1] != rank) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Order length must be SparseTensor rank.");
      return;
    }
    if (iv->dtype != dt) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "SparseConcat values differ in type");
      return;
    }
    if (!tfe_checked_add_i64(oshape[cdim], sv[cdim], &oshape[cdim]) ||
        !tfe_checked_add_i64(total, ii->dims[0], &total)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "SparseConcat: sizes overflow");
      return;
    }
  }
  odims[0] = total;
  odims[1] = rank;
  ind = (int64_t*)tfe_malloc((size_t)(total > 0 ? total : 1) * (size_t)(rank > 0 ? rank : 1) * sizeof(int64_t));
  perm = (int64_t*)tfe_malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
  src_in = (int64_t*)tfe_malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
  src_row = (int64_t*)tfe_malloc((size_t)(total > 0 ? total : 1) * sizeof(int64_t));
  if (ind == NULL || perm == NULL || src_in == NULL || src_row == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseConcat");
    goto done;
  }
  /* Gather every row with its concat-dim offset, then sort the whole set
   * into row-major order (stable, as each input keeps its own order among
   * equal indices). */
  pos = 0;
  {
    int64_t offset = 0;
    for (i = 0; i < n; i++) {
      const TF_Tensor* ii = k->inputs[i];
      const int64_t* src = (const int64_t*)kutil_data(ii);
      int64_t r, m = ii->dims[0];
      for (r = 0; r < m; r++) {
        memcpy(ind + pos * rank, src + r * rank, (size_t)rank * sizeof(int64_t));
        ind[pos * rank + cdim] += offset;
        src_in[pos] = i;
        src_row[pos] = r;
        pos++;
      }
      offset += ((const int64_t*)kutil_data(k->inputs[2 * n + i]))[cdim];
    }
  }
  if (!tfe_sparse_sort_rows(ind, total, rank, perm)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseConcat");
    goto done;
  }
  oi = tfe_kernel_alloc_output(k, 0, TF_INT64, odims, 2);
  if (oi == NULL) goto done;
  ov = tfe_kernel_alloc_output(k, 1, dt, odims, 1);
  if (ov == NULL) goto done;
  {
    int64_t* o = (int64_t*)kutil_data(oi);
    char* v = (char*)kutil_data(ov);
    for (pos = 0; pos < total; pos++) {
      int64_t p = perm[pos];
      const char* sv = (const char*)kutil_data(k->inputs[n + src_in[p]]);
      memcpy(o + pos * rank, ind + p * rank, (size_t)rank * sizeof(int64_t));
      kutil_copy1(dt, esz, v + (size_t)pos * esz, sv + (size_t)src_row[p] * esz);
    }
  }
  sp2_alloc_vec_i64(k, 2, oshape, rank);
done:
  tfe_free(ind);
  tfe_free(perm);
  tfe_free(src_in);
  tfe_free(src_row);
}

/* -------------------------------------------------------- SparseSlice */

static void k_sparse_slice(tfe_kernel_context* k) {
  const TF_Tensor* ii = k->inputs[0];
  const TF_Tensor* iv = k->inputs[1];
  const TF_Tensor* is = k->inputs[2];
  const TF_Tensor* ist = k->inputs[3];
  const TF_Tensor* isz = k->inputs[4];
  kutil_shape_buf b1;
  int64_t nd, nnz, i, cnt = 0, odims[2];
  int64_t oshape[TFE_MAX_DIMS], end[TFE_MAX_DIMS];
  const int64_t *ix, *st, *sz, *shp;
  TF_DataType dt = iv->dtype;
  size_t esz = kutil_esize(dt);
  TF_Tensor *oi, *ov;
  int d;
  if (!sp2_validate(k, ii, iv, is, SP2_VALIDATE_NONE)) return;
  if (ist->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input start should be a vector but received shape %s",
               kutil_tshape(ist, &b1));
    return;
  }
  if (isz->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input size should be a vector but received shape %s",
               kutil_tshape(isz, &b1));
    return;
  }
  nd = is->dims[0];
  if (ist->dims[0] != nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected start to be a vector of length %lld but got length "
               "%lld",
               (long long)nd, (long long)ist->dims[0]);
    return;
  }
  if (isz->dims[0] != nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected size to be a vector of length %lld but got length "
               "%lld",
               (long long)nd, (long long)isz->dims[0]);
    return;
  }
  if (nd > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input shape has too many dimensions");
    return;
  }
  ix = (const int64_t*)kutil_data(ii);
  st = (const int64_t*)kutil_data(ist);
  sz = (const int64_t*)kutil_data(isz);
  shp = (const int64_t*)kutil_data(is);
  for (d = 0; d < nd; d++) {
    if (sz[d] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected a non-negative size, got %lld", (long long)sz[d]);
      return;
    }
  }
  for (d = 0; d < nd; d++) {
    int64_t e;
    if (!tfe_checked_add_i64(st[d], sz[d], &e)) e = INT64_MAX;
    end[d] = e;
    if (e < shp[d]) {
      oshape[d] = sz[d];
    } else if (st[d] < shp[d]) {
      oshape[d] = shp[d] - st[d];
    } else {
      oshape[d] = 0;
    }
  }
  nnz = ii->dims[0];
  for (i = 0; i < nnz; i++) {
    const int64_t* row = ix + i * nd;
    for (d = 0; d < nd; d++) {
      if (row[d] < st[d] || row[d] >= end[d]) break;
    }
    if (d == nd) cnt++;
  }
  odims[0] = cnt;
  odims[1] = nd;
  oi = tfe_kernel_alloc_output(k, 0, TF_INT64, odims, 2);
  if (oi == NULL) return;
  ov = tfe_kernel_alloc_output(k, 1, dt, odims, 1);
  if (ov == NULL) return;
  {
    int64_t* o = (int64_t*)kutil_data(oi);
    char* v = (char*)kutil_data(ov);
    const char* src = (const char*)kutil_data(iv);
    int64_t p = 0;
    for (i = 0; i < nnz && p < cnt; i++) {
      const int64_t* row = ix + i * nd;
      for (d = 0; d < nd; d++) {
        if (row[d] < st[d] || row[d] >= end[d]) break;
      }
      if (d != nd) continue;
      for (d = 0; d < nd; d++) o[p * nd + d] = row[d] - st[d];
      kutil_copy1(dt, esz, v + (size_t)p * esz, src + (size_t)i * esz);
      p++;
    }
  }
  sp2_alloc_vec_i64(k, 2, oshape, nd);
}

/* ---------------------------------------------------- SparseSliceGrad */

static void k_sparse_slice_grad(tfe_kernel_context* k) {
  const TF_Tensor* g = k->inputs[0];
  const TF_Tensor* ii = k->inputs[1];
  const TF_Tensor* ist = k->inputs[2];
  const TF_Tensor* oi = k->inputs[3];
  kutil_shape_buf b1, b2;
  int64_t nd, nin, nout, i, j, dims[1];
  const int64_t *a, *b, *st;
  TF_DataType dt = g->dtype;
  size_t esz = kutil_esize(dt);
  TF_Tensor* out;
  if (ii->num_dims != 2 || oi->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input and output indices should be matrices but received "
               "shapes: %s and %s",
               kutil_tshape(ii, &b1), kutil_tshape(oi, &b2));
    return;
  }
  if (g->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input backprop_val_grad should be a vector but received "
               "shape: %s",
               kutil_tshape(g, &b1));
    return;
  }
  if (ii->dims[1] != oi->dims[1]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The input and output should have the same ndims: got: %lld "
               "and %lld",
               (long long)ii->dims[1], (long long)oi->dims[1]);
    return;
  }
  if (oi->dims[0] > ii->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "# rows of output_indices should be not greater than of "
               "input_indices, got %lld and %lld",
               (long long)oi->dims[0], (long long)ii->dims[0]);
    return;
  }
  if (g->dims[0] != oi->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "# elements of backprop_val_grad and # rows of output_indices "
               "should match (#nnz of sum): got %lld and %lld",
               (long long)g->dims[0], (long long)oi->dims[0]);
    return;
  }
  if (ist->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The input_start should be a vector but received shape %s",
               kutil_tshape(ist, &b1));
    return;
  }
  nd = ii->dims[1];
  if (ist->dims[0] != nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected input_start to be a vector of length %lld but got "
               "length %lld",
               (long long)nd, (long long)ist->dims[0]);
    return;
  }
  nin = ii->dims[0];
  nout = oi->dims[0];
  dims[0] = nin;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, 1);
  if (out == NULL) return;
  if (nin > 0) memset(kutil_data(out), 0, (size_t)nin * esz);
  a = (const int64_t*)kutil_data(ii);
  b = (const int64_t*)kutil_data(oi);
  st = (const int64_t*)kutil_data(ist);
  for (i = 0, j = 0; i < nin && j < nout; i++) {
    int64_t d;
    for (d = 0; d < nd; d++) {
      if (a[i * nd + d] != (int64_t)((uint64_t)b[j * nd + d] + (uint64_t)st[d])) break;
    }
    if (d == nd) {
      memcpy((char*)kutil_data(out) + (size_t)i * esz,
             (const char*)kutil_data(g) + (size_t)j * esz, esz);
      j++;
    }
  }
  if (j != nout) {
    KUTIL_FAIL(k, TF_INTERNAL,
               "Elements of backprop_val_grad aren't all propagated. Num "
               "elements:%lld, used: %lld",
               (long long)nout, (long long)j);
  }
}

/* -------------------------------------------------------- SparseSplit */

static void k_sparse_split(tfe_kernel_context* k) {
  const TF_Tensor* ia = k->inputs[0];
  const TF_Tensor* ii = k->inputs[1];
  const TF_Tensor* iv = k->inputs[2];
  const TF_Tensor* is = k->inputs[3];
  kutil_shape_buf b1;
  int32_t nsplit;
  int64_t axis, nd, nnz, dimsz, split_size, residual, i, s;
  const int64_t *ix, *shp;
  int64_t* counts = NULL;
  int64_t* fill = NULL;
  int64_t* fill_pos = NULL;
  int32_t* slice_of = NULL;
  TF_Tensor** ois = NULL;
  TF_Tensor** ovs = NULL;
  TF_DataType dt = iv->dtype;
  size_t esz = kutil_esize(dt);
  if (!kutil_attr_int32(k, "num_split", 1, &nsplit)) return;
  if (ia->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input axis should be a scalar but received shape %s",
               kutil_tshape(ia, &b1));
    return;
  }
  if (ii->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input indices should be a matrix but received shape %s",
               kutil_tshape(ii, &b1));
    return;
  }
  if (iv->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input values should be a vector but received shape %s",
               kutil_tshape(iv, &b1));
    return;
  }
  if (is->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input shape should be a vector but received shape %s",
               kutil_tshape(is, &b1));
    return;
  }
  nd = is->dims[0];
  axis = ((const int64_t*)kutil_data(ia))[0];
  if (axis < -nd || axis >= nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input axis should be in range [%lld, %lld), got %lld",
               (long long)-nd, (long long)nd, (long long)axis);
    return;
  }
  if (axis < 0) axis += nd;
  shp = (const int64_t*)kutil_data(is);
  dimsz = shp[axis];
  if (nsplit < 1 || nsplit > dimsz) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input num_split should be between 1 and the splitting "
               "dimension size (%lld), got %d",
               (long long)dimsz, (int)nsplit);
    return;
  }
  if (!sp2_validate(k, ii, iv, is, SP2_VALIDATE_BOUNDS)) return;
  if (k->num_outputs < 3 * nsplit) {
    KUTIL_FAIL(k, TF_INTERNAL, "SparseSplit: output count mismatch");
    return;
  }
  nnz = ii->dims[0];
  ix = (const int64_t*)kutil_data(ii);
  split_size = dimsz / nsplit;
  residual = dimsz % nsplit;
  counts = (int64_t*)tfe_calloc((size_t)nsplit, sizeof(int64_t));
  fill = (int64_t*)tfe_calloc((size_t)nsplit, sizeof(int64_t));
  fill_pos = (int64_t*)tfe_calloc((size_t)nsplit, sizeof(int64_t));
  ois = (TF_Tensor**)tfe_calloc((size_t)nsplit, sizeof(TF_Tensor*));
  ovs = (TF_Tensor**)tfe_calloc((size_t)nsplit, sizeof(TF_Tensor*));
  if (counts == NULL || fill == NULL || fill_pos == NULL || ois == NULL ||
      ovs == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseSplit");
    goto done;
  }
#define SP2_SLICE_OF(c)                                                    \
  ((c) < residual * (split_size + 1)                                       \
       ? (c) / (split_size + 1)                                            \
       : residual + ((c) - residual * (split_size + 1)) / split_size)
#define SP2_SLICE_START(sl)                                                \
  ((sl) < residual ? (sl) * (split_size + 1)                               \
                   : residual * (split_size + 1) + ((sl) - residual) * split_size)
  slice_of = (int32_t*)tfe_malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(int32_t));
  if (slice_of == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseSplit");
    goto done;
  }
  for (i = 0; i < nnz; i++) {
    int64_t c = ix[i * nd + axis];
    slice_of[i] = (int32_t)SP2_SLICE_OF(c);
    counts[slice_of[i]]++;
  }
  for (s = 0; s < nsplit; s++) {
    int64_t od[2];
    od[0] = counts[s];
    od[1] = nd;
    ois[s] = tfe_kernel_alloc_output(k, (int)s, TF_INT64, od, 2);
    if (ois[s] == NULL) goto done;
    ovs[s] = tfe_kernel_alloc_output(k, (int)(nsplit + s), dt, od, 1);
    if (ovs[s] == NULL) goto done;
  }
  /* fill: each slice's start along the axis; fill_pos: rows written */
  for (s = 0; s < nsplit; s++) fill[s] = SP2_SLICE_START(s);
  for (i = 0; i < nnz; i++) {
    const int64_t* row = ix + i * nd;
    int32_t sl = slice_of[i];
    int64_t p = fill_pos[sl]++;
    int64_t* o;
    int64_t d;
    o = (int64_t*)kutil_data(ois[sl]) + p * nd;
    for (d = 0; d < nd; d++) o[d] = row[d];
    o[axis] -= fill[sl];
    kutil_copy1(dt, esz, (char*)kutil_data(ovs[sl]) + (size_t)p * esz,
                (const char*)kutil_data(iv) + (size_t)i * esz);
  }
  for (s = 0; s < nsplit; s++) {
    TF_Tensor* os = sp2_alloc_vec_i64(k, (int)(2 * nsplit + s), shp, nd);
    if (os == NULL) goto done;
    ((int64_t*)kutil_data(os))[axis] = split_size + (s < residual ? 1 : 0);
  }
#undef SP2_SLICE_OF
#undef SP2_SLICE_START
done:
  tfe_free(counts);
  tfe_free(fill);
  tfe_free(fill_pos);
  tfe_free(slice_of);
  tfe_free(ois);
  tfe_free(ovs);
}

/* ------------------------------------------ SparseReduce{Sum,Max}Sparse */

/* 1 when rows i and j of keys ([n, stride]) differ in their first len
 * columns. */
static int prefix_differs(const int64_t* keys, int64_t stride, int64_t i,
                          int64_t j, int64_t len) {
  return memcmp(keys + i * stride, keys + j * stride,
                (size_t)len * sizeof(int64_t)) != 0;
}

static void sparse_reduce_sparse(tfe_kernel_context* k, int is_max) {
  const TF_Tensor* ii = k->inputs[0];
  const TF_Tensor* iv = k->inputs[1];
  const TF_Tensor* is = k->inputs[2];
  const TF_Tensor* ax = k->inputs[3];
  int keep = kutil_attr_bool(k, "keep_dims", 0);
  TF_DataType dt = iv->dtype;
  int kind = sp_kind(dt);
  kutil_shape_buf b1;
  int64_t nd, nnz, i, ngroups = 0, nkept = 0, ond;
  int d;
  unsigned char reduced[TFE_MAX_DIMS];
  int order[TFE_MAX_DIMS];
  int64_t oshape[TFE_MAX_DIMS];
  const int64_t *ix, *shp;
  int64_t* keys = NULL;
  int64_t* perm = NULL;
  TF_Tensor *oi, *ov;
  if (is->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected input_shape to be a vector; got shape: %s",
               kutil_tshape(is, &b1));
    return;
  }
  if (ax->num_dims > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected reduction_axes to be a scalar or a vector; got "
               "shape: %s",
               kutil_tshape(ax, &b1));
    return;
  }
  nd = is->dims[0];
  if (nd > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input_shape has too many dimensions");
    return;
  }
  if (!sp2_reduction_axes(k, ax, nd, reduced)) return;
  if (!sp2_create_check(k, ii, iv, nd)) return;
  nnz = ii->dims[0];
  ix = (const int64_t*)kutil_data(ii);
  shp = (const int64_t*)kutil_data(is);
  /* group order: kept dims first, then the reduced ones */
  for (d = 0; d < nd; d++) {
    if (!reduced[d]) order[nkept++] = d;
  }
  {
    int64_t m = nkept;
    for (d = 0; d < nd; d++) {
      if (reduced[d]) order[m++] = d;
    }
  }
  ond = 0;
  for (d = 0; d < nd; d++) {
    if (!reduced[d]) {
      oshape[ond++] = shp[d];
    } else if (keep) {
      oshape[ond++] = 1;
    }
  }
  keys = (int64_t*)tfe_malloc((size_t)(nnz > 0 ? nnz : 1) * (size_t)(nd > 0 ? nd : 1) * sizeof(int64_t));
  perm = (int64_t*)tfe_malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(int64_t));
  if (keys == NULL || perm == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in sparse reduction");
    goto done;
  }
  for (i = 0; i < nnz; i++) {
    for (d = 0; d < nd; d++) keys[i * nd + d] = ix[i * nd + order[d]];
  }
  if (!tfe_sparse_sort_rows(keys, nnz, (int)nd, perm)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in sparse reduction");
    goto done;
  }
  for (i = 0; i < nnz; i++) {
    if (i == 0 || prefix_differs(keys, nd, perm[i - 1], perm[i], nkept)) {
      ngroups++;
    }
  }
  {
    int64_t od[2];
    od[0] = ngroups;
    od[1] = ond;
    oi = tfe_kernel_alloc_output(k, 0, TF_INT64, od, 2);
    if (oi == NULL) goto done;
    ov = tfe_kernel_alloc_output(k, 1, dt, od, 1);
    if (ov == NULL) goto done;
  }
  {
    int64_t* o = (int64_t*)kutil_data(oi);
    int64_t g = -1;
    spv acc, v;
    int nan = 0;
    sp_zero(&acc);
    for (i = 0; i <= nnz; i++) {
      int newg = i == nnz || i == 0 ||
                 prefix_differs(keys, nd, perm[i - 1], perm[i], nkept);
      if (newg && g >= 0) {
        if (nan) acc.re = NAN;
        sp_store(dt, kutil_data(ov), g, &acc);
      }
      if (i == nnz) break;
      sp_load(dt, kutil_data(iv), perm[i], &v);
      if (newg) {
        int64_t p = 0;
        const int64_t* row = ix + perm[i] * nd;
        g++;
        for (d = 0; d < nd; d++) {
          if (!reduced[d]) {
            o[g * ond + p++] = row[d];
          } else if (keep) {
            o[g * ond + p++] = 0;
          }
        }
        acc = v;
        nan = kind == SPK_F && v.re != v.re;
      } else if (is_max) {
        if (kind == SPK_F && v.re != v.re) nan = 1;
        if (sp_gt(kind, &v, &acc)) acc = v;
      } else {
        sp_add(kind, &acc, &v);
      }
    }
  }
  sp2_alloc_vec_i64(k, 2, oshape, ond);
done:
  tfe_free(keys);
  tfe_free(perm);
}

static void k_reduce_sum_sparse(tfe_kernel_context* k) {
  sparse_reduce_sparse(k, 0);
}
static void k_reduce_max_sparse(tfe_kernel_context* k) {
  sparse_reduce_sparse(k, 1);
}

/* ------------------------------------------------------- registration */

void tfe_register_cpu_sparse2_kernels(void) {
  /* TF also registers resource and variant values for the type-agnostic
   * ops; tfe moves the 16 value dtypes below through sparse tensors. */
  static const TF_DataType all[] = {KUTIL_NUMBER_TYPES, TF_BOOL, TF_STRING};
  static const TF_DataType num[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType real[] = {KUTIL_REAL_TYPES};
#define N_(a) (int)(sizeof a / sizeof a[0])
  tfe_kutil_register("SparseConcat", k_sparse_concat, "T", all, N_(all), NULL,
                     NULL, 0);
  tfe_kutil_register("SparseSlice", k_sparse_slice, "T", all, N_(all), NULL,
                     NULL, 0);
  tfe_kutil_register("SparseSliceGrad", k_sparse_slice_grad, "T", num,
                     N_(num), NULL, NULL, 0);
  tfe_kutil_register("SparseSplit", k_sparse_split, "T", all, N_(all), NULL,
                     NULL, 0);
  tfe_kutil_register("SparseReduceSumSparse", k_reduce_sum_sparse, "T", num,
                     N_(num), NULL, NULL, 0);
  tfe_kutil_register("SparseReduceMaxSparse", k_reduce_max_sparse, "T", real,
                     N_(real), NULL, NULL, 0);
#undef N_
  tfe_register_cpu_sparse2_more_kernels();
  tfe_register_cpu_sparse2_set_kernels();
  tfe_register_cpu_sparse2_cross_kernels();
  tfe_register_cpu_sparse2_count_kernels();
  tfe_register_cpu_sparse2_misc_kernels();
}
