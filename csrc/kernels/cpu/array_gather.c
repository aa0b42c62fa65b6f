/* Index-driven kernels: GatherV2, GatherNd, ScatterNd, TensorScatterUpdate,
 * OneHot, Where. Indices are validated before anything is written; an
 * index outside its range is INVALID_ARGUMENT naming the offending
 * position, as in TF's CPU kernels. */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"

static int64_t prodr(const int64_t* d, int from, int to) {
  return kutil_dims_prod(d, from, to);
}

/* "[i,j,k]" position of flat index `flat` within dims (TF's
 * SliceDebugString). */
static void pos_str(const int64_t* dims, int nd, int64_t flat, char* buf,
                    size_t cap) {
  int64_t idx[TFE_MAX_DIMS];
  int i;
  size_t len = 0;
  for (i = nd - 1; i >= 0; i--) {
    idx[i] = dims[i] > 0 ? flat % dims[i] : 0;
    flat = dims[i] > 0 ? flat / dims[i] : 0;
  }
  buf[0] = '\0';
  if (nd == 0) return;
  len += (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < nd && len < cap; i++) {
    len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                            (long long)idx[i]);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* ------------------------------------------------------------- GatherV2 */

static void k_gather_v2(tfe_kernel_context* k) {
  const TF_Tensor* p = k->inputs[0];
  const TF_Tensor* ix = k->inputs[1];
  const TF_Tensor* at = k->inputs[2];
  kutil_shape_buf sa;
  int pr = p->num_dims, ir = ix->num_dims, i, on = 0;
  int32_t bd32;
  int64_t axis, bd;
  int64_t odims[TFE_MAX_DIMS], batch, outer, gdim, inner, nidx, b, o, n;
  size_t esz = kutil_esize(p->dtype);
  const char* src = (const char*)kutil_data(p);
  char* dst;
  TF_Tensor* y;

  if (!kutil_attr_int32(k, "batch_dims", 0, &bd32)) return;
  bd = bd32;
  if (at->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "axis must be scalar, but got %s",
               kutil_tshape(at, &sa));
    return;
  }
  axis = kutil_get_int(at, 0);
  if (axis < -pr || axis >= pr) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected axis in the range [%d, %d), but got %lld", -pr, pr,
               (long long)axis);
    return;
  }
  if (axis < 0) axis += pr;
  if (bd != 0) {
    if (bd < -ir || bd > ir) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected batch_dims in the range [%d, %d], but got %lld",
                 -ir, ir, (long long)bd);
      return;
    }
    if (bd < 0) bd += ir;
    if (bd > axis) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "batch_dims (%lld) must be less than or equal to axis (%lld).",
                 (long long)bd, (long long)axis);
      return;
    }
    for (i = 0; i < bd; i++) {
      if (p->dims[i] != ix->dims[i]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "params.shape[%d]: %lld should be equal to indices.shape"
                   "[%d]: %lld",
                   i, (long long)p->dims[i], i, (long long)ix->dims[i]);
        return;
      }
    }
  }
  for (i = 0; i < axis; i++) odims[on++] = p->dims[i];
  for (i = (int)bd; i < ir; i++) odims[on++] = ix->dims[i];
  for (i = (int)axis + 1; i < pr; i++) odims[on++] = p->dims[i];
  if (on > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "GatherV2: too many dimensions");
    return;
  }
  batch = prodr(p->dims, 0, (int)bd);
  outer = prodr(p->dims, (int)bd, (int)axis);
  gdim = p->dims[axis];
  inner = prodr(p->dims, (int)axis + 1, pr);
  nidx = prodr(ix->dims, (int)bd, ir);
  /* validate every index first */
  {
    int64_t total = kutil_num_elements(ix), t;
    for (t = 0; t < total; t++) {
      int64_t v = kutil_get_int(ix, t);
      if (v < 0 || v >= gdim) {
        char pos[512];
        pos_str(ix->dims, ir, t, pos, sizeof pos);
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "indices%s = %lld is not in [0, %lld)", pos, (long long)v,
                   (long long)gdim);
        return;
      }
    }
  }
  y = tfe_kernel_alloc_output(k, 0, p->dtype, odims, on);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  dst = (char*)kutil_data(y);
  for (b = 0; b < batch; b++) {
    for (o = 0; o < outer; o++) {
      for (n = 0; n < nidx; n++) {
        int64_t v = kutil_get_int(ix, b * nidx + n);
        kutil_copy(p->dtype, dst, src + (size_t)(((b * outer + o) * gdim + v) * inner) * esz,
                   inner);
        dst += (size_t)inner * esz;
      }
    }
  }
}

/* ------------------------------------------------------------- GatherNd */

/* Flat offset (in units of slices of `slice` elements) of index row r, or
 * -1 when out of bounds. */
static int64_t nd_offset(const TF_Tensor* ix, int64_t r, int64_t kdim,
                         const int64_t* pdims) {
  int64_t off = 0, j;
  for (j = 0; j < kdim; j++) {
    int64_t v = kutil_get_int(ix, r * kdim + j);
    if (v < 0 || v >= pdims[j]) return -1;
    off = off * pdims[j] + v;
  }
  return off;
}

static void bad_nd_index(tfe_kernel_context* k, const TF_Tensor* ix,
                         int64_t r, int64_t kdim, const char* what,
                         const int64_t* shape, int shape_nd) {
  char pos[512], vals[512], sh[512];
  size_t len = 0;
  int64_t j;
  pos_str(ix->dims, ix->num_dims - 1, r, pos, sizeof pos);
  vals[0] = '\0';
  for (j = 0; j < kdim && len < sizeof vals; j++) {
    len += (size_t)snprintf(vals + len, sizeof vals - len,
                            j ? ", %lld" : "%lld",
                            (long long)kutil_get_int(ix, r * kdim + j));
  }
  kutil_shape_str(shape, shape_nd, sh, sizeof sh);
  if (strcmp(what, "param shape") == 0) {
    /* GatherNd's message names the node (the op type in eager mode). */
    const char* node = k->node_name != NULL ? k->node_name
                       : k->op_def != NULL  ? k->op_def->name
                                            : "GatherNd";
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "indices%s = [%s] does not index into %s %s, node name: %s", pos,
               vals, what, sh, node);
    return;
  }
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices%s = [%s] does not index into %s %s",
             pos, vals, what, sh);
}

static int ignore_bad_indices(const tfe_kernel_context* k) {
  const char* s = NULL;
  size_t len = 0;
  if (k->attrs != NULL &&
      tfe_attrs_get_string(k->attrs, "bad_indices_policy", &s, &len, NULL)) {
    return len == 6 && memcmp(s, "IGNORE", 6) == 0;
  }
  return 0;
}

void tfe_gather_nd_compute(tfe_kernel_context* k, const TF_Tensor* p,
                           const TF_Tensor* ix) {
  int pr = p->num_dims, ir = ix->num_dims, i, on = 0;
  int64_t kdim, odims[TFE_MAX_DIMS], nrows, slice, r;
  size_t esz = kutil_esize(p->dtype);
  int ignore = ignore_bad_indices(k);
  TF_Tensor* y;
  char* dst;
  if (pr < 1 && !(ir >= 1 && ix->dims[ir - 1] == 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "params must be at least a vector");
    return;
  }
  if (ir < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices must be at least a vector");
    return;
  }
  kdim = ix->dims[ir - 1];
  if (kdim > pr) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "index innermost dimension length must be <= params rank; "
               "saw: %lld vs. %d",
               (long long)kdim, pr);
    return;
  }
  for (i = 0; i < ir - 1; i++) odims[on++] = ix->dims[i];
  for (i = (int)kdim; i < pr; i++) odims[on++] = p->dims[i];
  nrows = prodr(ix->dims, 0, ir - 1);
  slice = prodr(p->dims, (int)kdim, pr);
  if (!ignore && kutil_num_elements(p) > 0) {
    for (r = 0; r < nrows; r++) {
      if (nd_offset(ix, r, kdim, p->dims) < 0) {
        bad_nd_index(k, ix, r, kdim, "param shape", p->dims, pr);
        return;
      }
    }
  } else if (!ignore && nrows > 0 && kdim > 0) {
    /* empty params: any index is out of bounds */
    bad_nd_index(k, ix, 0, kdim, "param shape", p->dims, pr);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, p->dtype, odims, on);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  dst = (char*)kutil_data(y);
  for (r = 0; r < nrows; r++) {
    int64_t off = nd_offset(ix, r, kdim, p->dims);
    char* d = dst + (size_t)(r * slice) * esz;
    if (off < 0) {
      if (p->dtype != TF_STRING) memset(d, 0, (size_t)slice * esz);
    } else {
      kutil_copy(p->dtype, d, (const char*)kutil_data(p) + (size_t)(off * slice) * esz,
                 slice);
    }
  }
}

static void k_gather_nd(tfe_kernel_context* k) {
  tfe_gather_nd_compute(k, k->inputs[0], k->inputs[1]);
}

/* ------------------------------------------- ScatterNd, TensorScatterUpdate */

/* Adds (op 0) or assigns (op 1) one slice of `n` elements. */
static void scatter_slice(TF_DataType dt, char* d, const char* s, int64_t n,
                          int assign) {
  int64_t i;
  if (assign) {
    kutil_copy(dt, d, s, n);
    return;
  }
#define ADD_AS(T)                                             \
  for (i = 0; i < n; i++) ((T*)d)[i] += ((const T*)s)[i];     \
  return;
#define ADD_WRAP(T, U)                                                   \
  for (i = 0; i < n; i++) ((T*)d)[i] = (T)((U)((T*)d)[i] + (U)((const T*)s)[i]); \
  return;
  switch (dt) {
    case TF_FLOAT: ADD_AS(float)
    case TF_DOUBLE: ADD_AS(double)
    case TF_COMPLEX64:
      n *= 2;
      ADD_AS(float)
    case TF_COMPLEX128:
      n *= 2;
      ADD_AS(double)
    case TF_INT8: ADD_WRAP(int8_t, uint8_t)
    case TF_INT16: ADD_WRAP(int16_t, uint16_t)
    case TF_INT32: ADD_WRAP(int32_t, uint32_t)
    case TF_INT64: ADD_WRAP(int64_t, uint64_t)
    case TF_UINT8: ADD_WRAP(uint8_t, uint32_t)
    case TF_UINT16: ADD_WRAP(uint16_t, uint32_t)
    case TF_UINT32: ADD_WRAP(uint32_t, uint32_t)
    case TF_UINT64: ADD_WRAP(uint64_t, uint64_t)
    case TF_BOOL:
      for (i = 0; i < n; i++) ((unsigned char*)d)[i] |= ((const unsigned char*)s)[i];
      return;
    case TF_STRING: /* TF "adds" strings by appending, in update order */
      for (i = 0; i < n; i++) {
        TF_TString_Append((TF_TString*)d + i, (const TF_TString*)s + i);
      }
      return;
    case TF_HALF:
      for (i = 0; i < n; i++) {
        uint16_t* p = (uint16_t*)d + i;
        *p = kutil_f32_to_f16(kutil_f16_to_f32(*p) +
                              kutil_f16_to_f32(((const uint16_t*)s)[i]));
      }
      return;
    case TF_BFLOAT16:
      for (i = 0; i < n; i++) {
        uint16_t* p = (uint16_t*)d + i;
        *p = kutil_f32_to_bf16(kutil_bf16_to_f32(*p) +
                               kutil_bf16_to_f32(((const uint16_t*)s)[i]));
      }
      return;
    default: return;
  }
#undef ADD_AS
#undef ADD_WRAP
}

/* Shared validation and scatter into y (already holding the base values).
 * indices: [..., K]; updates: indices.shape[:-1] + shape[K:]. */
static void scatter_into(tfe_kernel_context* k, const TF_Tensor* ix,
                         const TF_Tensor* up, TF_Tensor* y, int assign) {
  kutil_shape_buf sa, sb, sc;
  int ir = ix->num_dims, yr = y->num_dims, i;
  int64_t kdim, nrows, slice, r;
  size_t esz = kutil_esize(y->dtype);
  int ignore = ignore_bad_indices(k);
  if (ir < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Indices shape must have rank at least one. Found:%s",
               kutil_tshape(ix, &sa));
    return;
  }
  kdim = ix->dims[ir - 1];
  if (kdim > yr) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Index innermost dimension length must be <= output rank; "
               "saw: %lld vs. %d",
               (long long)kdim, yr);
    return;
  }
  /* updates.shape must be indices.shape[:-1] + shape[K:] */
  {
    int ok = up->num_dims == ir - 1 + yr - (int)kdim;
    for (i = 0; ok && i < ir - 1; i++) ok = up->dims[i] == ix->dims[i];
    for (i = 0; ok && i < yr - kdim; i++) {
      ok = up->dims[ir - 1 + i] == y->dims[kdim + i];
    }
    if (!ok) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Dimensions of updates must match: updates shape %s, "
                 "indices shape %s, output shape %s",
                 kutil_tshape(up, &sa), kutil_tshape(ix, &sb),
                 kutil_tshape(y, &sc));
      return;
    }
  }
  nrows = prodr(ix->dims, 0, ir - 1);
  slice = prodr(y->dims, (int)kdim, yr);
  if (kutil_num_elements(y) == 0 && nrows > 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Indices and updates specified for empty %s",
               assign ? "input" : "output");
    return;
  }
  if (!ignore) {
    for (r = 0; r < nrows; r++) {
      if (nd_offset(ix, r, kdim, y->dims) < 0) {
        bad_nd_index(k, ix, r, kdim, "shape", y->dims, yr);
        return;
      }
    }
  }
  for (r = 0; r < nrows; r++) {
    int64_t off = nd_offset(ix, r, kdim, y->dims);
    if (off < 0) continue;
    scatter_slice(y->dtype, (char*)kutil_data(y) + (size_t)(off * slice) * esz,
                  (const char*)kutil_data(up) + (size_t)(r * slice) * esz,
                  slice, assign);
  }
}

static void k_scatter_nd(tfe_kernel_context* k) {
  const TF_Tensor* ix = k->inputs[0];
  const TF_Tensor* up = k->inputs[1];
  const TF_Tensor* st = k->inputs[2];
  kutil_shape_buf sa;
  int64_t odims[TFE_MAX_DIMS], i, nd;
  TF_Tensor* y;
  if (st->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape must be a vector, got %s",
               kutil_tshape(st, &sa));
    return;
  }
  nd = st->dims[0];
  if (nd > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "ScatterNd: too many dimensions");
    return;
  }
  for (i = 0; i < nd; i++) {
    odims[i] = kutil_get_int(st, i);
    if (odims[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                 (long long)odims[i]);
      return;
    }
  }
  y = tfe_kernel_alloc_output(k, 0, up->dtype, odims, (int)nd);
  if (y == NULL) return;
  if (up->dtype != TF_STRING) {
    memset(kutil_data(y), 0, (size_t)kutil_num_elements(y) * kutil_esize(up->dtype));
  }
  scatter_into(k, ix, up, y, 0);
}

static void k_tensor_scatter_update(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  TF_Tensor* y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL) return;
  kutil_copy(x->dtype, kutil_data(y), kutil_data(x), kutil_num_elements(x));
  scatter_into(k, k->inputs[1], k->inputs[2], y, 1);
}

/* --------------------------------------------------------------- OneHot */

static void k_one_hot(tfe_kernel_context* k) {
  const TF_Tensor* ix = k->inputs[0];
  const TF_Tensor* dt = k->inputs[1];
  const TF_Tensor* on = k->inputs[2];
  const TF_Tensor* off = k->inputs[3];
  kutil_shape_buf sa;
  int ir = ix->num_dims, i;
  int32_t axis32;
  int64_t axis, depth, odims[TFE_MAX_DIMS];
  int64_t outer, inner, o, d, t;
  size_t esz = kutil_esize(on->dtype);
  TF_Tensor* y;
  char* dst;
  if (!kutil_attr_int32(k, "axis", -1, &axis32)) return;
  axis = axis32;
  if (dt->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "depth must be a scalar, but got: %s",
               kutil_tshape(dt, &sa));
    return;
  }
  if (on->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "on_value must be a scalar, but got: %s",
               kutil_tshape(on, &sa));
    return;
  }
  if (off->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "off_value must be a scalar, but got: %s", kutil_tshape(off, &sa));
    return;
  }
  if (!(axis == -1 || (axis >= 0 && axis <= ir))) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected axis to be -1 or between [0, %d).  But received: %lld",
               ir + 1, (long long)axis);
    return;
  }
  depth = kutil_get_int(dt, 0);
  if (depth < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "depth must be non-negative, got: %lld",
               (long long)depth);
    return;
  }
  if (axis == -1) axis = ir;
  if (ir + 1 > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "OneHot: too many dimensions");
    return;
  }
  for (i = 0; i <= ir; i++) {
    odims[i] = i < axis ? ix->dims[i] : i == axis ? depth : ix->dims[i - 1];
  }
  y = tfe_kernel_alloc_output(k, 0, on->dtype, odims, ir + 1);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  outer = prodr(ix->dims, 0, (int)axis);
  inner = prodr(ix->dims, (int)axis, ir);
  dst = (char*)kutil_data(y);
  for (o = 0; o < outer; o++) {
    for (d = 0; d < depth; d++) {
      for (t = 0; t < inner; t++) {
        int64_t v = kutil_get_int(ix, o * inner + t);
        kutil_copy1(on->dtype, esz, dst, (const char*)kutil_data(v == d ? on : off));
        dst += esz;
      }
    }
  }
}

/* ---------------------------------------------------------------- Where */

static int elem_nonzero(const TF_Tensor* x, int64_t i) {
  const char* d = (const char*)kutil_data(x);
  switch (x->dtype) {
    case TF_BOOL: case TF_INT8: case TF_UINT8: case TF_QINT8: case TF_QUINT8:
      return d[i] != 0;
    case TF_INT16: case TF_UINT16: case TF_QINT16: case TF_QUINT16:
      return ((const uint16_t*)d)[i] != 0;
    case TF_HALF: case TF_BFLOAT16:
      return (((const uint16_t*)d)[i] & 0x7fffu) != 0;
    case TF_INT32: case TF_UINT32: case TF_QINT32:
      return ((const uint32_t*)d)[i] != 0;
    case TF_FLOAT: return ((const float*)d)[i] != 0.0f;
    case TF_DOUBLE: return ((const double*)d)[i] != 0.0;
    case TF_INT64: case TF_UINT64: return ((const uint64_t*)d)[i] != 0;
    case TF_COMPLEX64:
      return ((const float*)d)[2 * i] != 0.0f || ((const float*)d)[2 * i + 1] != 0.0f;
    case TF_COMPLEX128:
      return ((const double*)d)[2 * i] != 0.0 || ((const double*)d)[2 * i + 1] != 0.0;
    default: return 0;
  }
}

static void k_where(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int nd = x->num_dims, j;
  int64_t n = kutil_num_elements(x), i, cnt = 0, odims[2];
  TF_Tensor* y;
  int64_t* out;
  /* TF's CPU kernel handles ranks 1 to 8 only. */
  if (nd < 1 || nd > 8) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "WhereOp : Unhandled input dimensions: %d",
               nd);
    return;
  }
  for (i = 0; i < n; i++) cnt += elem_nonzero(x, i);
  odims[0] = cnt;
  odims[1] = nd;
  y = tfe_kernel_alloc_output(k, 0, TF_INT64, odims, 2);
  if (y == NULL) return;
  out = (int64_t*)kutil_data(y);
  for (i = 0; i < n; i++) {
    if (elem_nonzero(x, i)) {
      int64_t rem = i;
      for (j = nd - 1; j >= 0; j--) {
        out[j] = rem % x->dims[j];
        rem /= x->dims[j];
      }
      out += nd;
    }
  }
}

void tfe_register_array_gather_kernels(void) {
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType idx16[] = {TF_INT16, TF_INT32, TF_INT64};
  static const TF_DataType all[] = {KUTIL_POD_TYPES, TF_STRING,
                                    KUTIL_QUANTIZED_TYPES, TF_FLOAT8_E4M3FN,
                                    TF_FLOAT8_E5M2};
  static const TF_DataType upd[] = {KUTIL_POD_TYPES, TF_STRING};
  static const TF_DataType upd_idx[] = {TF_INT16, TF_INT32, TF_INT64,
                                        TF_UINT16};
  static const TF_DataType oh_idx[] = {TF_UINT8, TF_INT8, TF_INT32, TF_INT64};
  static const TF_DataType where_t[] = {KUTIL_POD_TYPES, TF_QINT8, TF_QUINT8,
                                        TF_QINT16, TF_QUINT16, TF_QINT32};
  tfe_kutil_register("GatherV2", k_gather_v2, "Tparams", all, KUTIL_COUNT(all),
                     "Tindices", idx16, 3);
  tfe_kutil_register("GatherNd", k_gather_nd, "Tparams", all, KUTIL_COUNT(all),
                     "Tindices", idx16, 3);
  tfe_kutil_register("ScatterNd", k_scatter_nd, "T", upd, KUTIL_COUNT(upd),
                     "Tindices", idx16, 3);
  tfe_kutil_register("TensorScatterUpdate", k_tensor_scatter_update, "T", upd,
                     KUTIL_COUNT(upd), "Tindices", upd_idx, 4);
  tfe_kutil_register("OneHot", k_one_hot, "T", upd, KUTIL_COUNT(upd), "TI",
                     oh_idx, 4);
  tfe_kutil_register("Where", k_where, "T", where_t, KUTIL_COUNT(where_t),
                     NULL, NULL, 0);
  (void)idx;
}
