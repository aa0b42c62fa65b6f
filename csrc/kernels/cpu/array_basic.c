/* Shape-only and constant-producing array kernels: Identity, IdentityN,
 * Reshape, Shape, ShapeN, Size, Rank, ExpandDims, Squeeze, EnsureShape,
 * Const, Fill, ZerosLike, OnesLike, Range.
 *
 * Ops that only change the shape share the input's buffer (no copy), as
 * TensorFlow's kernels do. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"

/* Output `out` shares input `in`'s buffer under a new shape (any dtype,
 * including those without a fixed element size). */
TF_Tensor* tfe_kutil_forward(tfe_kernel_context* k, int out, int in,
                             const int64_t* dims, int nd) {
  const TF_Tensor* src = k->inputs[in];
  TF_Tensor* t = tfe_tensor_from_buffer(src->dtype, dims, nd, src->buf);
  if (t == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM when forwarding input %d", in);
    return NULL;
  }
  tfe_kernel_set_output(k, out, t);
  return t;
}

/* ------------------------------------------------------------ Identity */

static void k_identity(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  tfe_kutil_forward(k, 0, 0, x->dims, x->num_dims);
}

static void k_identity_n(tfe_kernel_context* k) {
  int i;
  for (i = 0; i < k->num_inputs && i < k->num_outputs; i++) {
    const TF_Tensor* x = k->inputs[i];
    if (tfe_kutil_forward(k, i, i, x->dims, x->num_dims) == NULL) return;
  }
}

/* ------------------------------------------------------------- Reshape */

static void k_reshape(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* sizes = k->inputs[1];
  kutil_shape_buf sb;
  int64_t nd, d, product = 1, n_in = kutil_num_elements(x), n_out = 1;
  int64_t* dims;
  int unknown = -1, has_zero = 0;

  if (!(sizes->num_dims == 1 || sizes->num_dims == 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "sizes input must be 1-D, not %s",
               kutil_tshape(sizes, &sb));
    return;
  }
  if (!kutil_is_int_index_type(sizes->dtype)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "desired shape must be a DT_INT32 or DT_INT64 vector, not a %s",
               tfe_dtype_short_name(sizes->dtype));
    return;
  }
  nd = kutil_num_elements(sizes);
  if (nd >= TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "too many dimensions: must be < %d, but received %lld",
               TFE_MAX_DIMS, (long long)nd);
    return;
  }
  dims = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(nd > 0 ? nd : 1));
  if (dims == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in Reshape");
    return;
  }
  for (d = 0; d < nd; d++) {
    int64_t s = kutil_get_int(sizes, d);
    if (s == -1) {
      if (unknown != -1) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Only one input size may be -1, not both %d and %lld",
                   unknown, (long long)d);
        goto done;
      }
      unknown = (int)d;
      dims[d] = 1;
    } else if (s < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Size %lld must be non-negative, not %lld", (long long)d,
                 (long long)s);
      goto done;
    } else if (s == 0) {
      dims[d] = 0;
      has_zero = 1;
    } else {
      if (product > INT64_MAX / s) {
        char buf[512];
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Shape %s has too many elements",
                   kutil_shape_str(dims, (int)d, buf, sizeof buf));
        goto done;
      }
      dims[d] = s;
      product *= s;
    }
  }
  if (unknown != -1) {
    int64_t in_count = 1, missing;
    int in_has_zero = 0, i;
    for (i = 0; i < x->num_dims; i++) {
      if (x->dims[i] > 0 || !has_zero) {
        in_count *= x->dims[i];
      } else {
        in_has_zero = 1;
      }
    }
    missing = in_count / product;
    if (!in_has_zero && product * missing != in_count) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input to reshape is a tensor with %lld values, but the "
                 "requested shape requires a multiple of %lld",
                 (long long)in_count, (long long)product);
      goto done;
    }
    dims[unknown] = missing;
  }
  for (d = 0; d < nd; d++) n_out *= dims[d];
  if (n_out != n_in) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input to reshape is a tensor with %lld values, but the "
               "requested shape has %lld",
               (long long)n_in, (long long)n_out);
    goto done;
  }
  tfe_kutil_forward(k, 0, 0, dims, (int)nd);
done:
  tfe_free(dims);
}

/* ------------------------------------------------- Shape, Size, Rank */

static TF_DataType out_type(tfe_kernel_context* k, int i) {
  TF_DataType t = TF_INT32;
  if (k->output_types != NULL) return k->output_types[i];
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, "out_type", &t, NULL);
  return t;
}

static int write_shape(tfe_kernel_context* k, int out, const TF_Tensor* x) {
  TF_DataType ot = out_type(k, out);
  int64_t n = x->num_dims;
  TF_Tensor* y = tfe_kernel_alloc_output(k, out, ot, &n, 1);
  int i;
  if (y == NULL) return 0;
  for (i = 0; i < x->num_dims; i++) {
    if (ot == TF_INT32) {
      if (x->dims[i] > INT32_MAX) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Shape output type is 32-bit  but dim %d is %lld", i,
                   (long long)x->dims[i]);
        return 0;
      }
      ((int32_t*)kutil_data(y))[i] = (int32_t)x->dims[i];
    } else {
      ((int64_t*)kutil_data(y))[i] = x->dims[i];
    }
  }
  return 1;
}

static void k_shape(tfe_kernel_context* k) { write_shape(k, 0, k->inputs[0]); }

static void k_shape_n(tfe_kernel_context* k) {
  int i;
  for (i = 0; i < k->num_inputs && i < k->num_outputs; i++) {
    if (!write_shape(k, i, k->inputs[i])) return;
  }
}

static void k_size(tfe_kernel_context* k) {
  TF_DataType ot = out_type(k, 0);
  int64_t n = kutil_num_elements(k->inputs[0]);
  TF_Tensor* y = tfe_kernel_alloc_output(k, 0, ot, NULL, 0);
  if (y == NULL) return;
  if (ot == TF_INT32) {
    if (n > INT32_MAX) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Number of elements was larger than representable by 32-bit "
                 "output type");
      return;
    }
    *(int32_t*)kutil_data(y) = (int32_t)n;
  } else {
    *(int64_t*)kutil_data(y) = n;
  }
}

static void k_rank(tfe_kernel_context* k) {
  TF_Tensor* y = tfe_kernel_alloc_output(k, 0, TF_INT32, NULL, 0);
  if (y != NULL) *(int32_t*)kutil_data(y) = k->inputs[0]->num_dims;
}

/* ------------------------------------------------ ExpandDims, Squeeze */

static void k_expand_dims(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* dim_t = k->inputs[1];
  int64_t dims[TFE_MAX_DIMS + 1];
  int64_t dim;
  int nd = x->num_dims, i, j;
  /* TF's kernel refuses variant tensors (its reshape cannot move them). */
  if (x->dtype == TF_VARIANT) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "ExpandDims on Variant not supported");
    return;
  }
  if (kutil_num_elements(dim_t) != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "'dim' must be a tensor with a single value");
    return;
  }
  dim = kutil_get_int(dim_t, 0);
  if (dim < -1 - nd || dim > nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tried to expand dim index %lld for tensor with %d dimensions.",
               (long long)dim, nd);
    return;
  }
  if (dim < 0) dim += nd + 1;
  if (nd + 1 > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many dimensions in ExpandDims");
    return;
  }
  for (i = 0, j = 0; i <= nd; i++) dims[i] = (i == dim) ? 1 : x->dims[j++];
  tfe_kutil_forward(k, 0, 0, dims, nd + 1);
}

static void k_squeeze(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const int64_t* sq = NULL;
  int nsq = 0, nd = x->num_dims, i, n = 0;
  unsigned char mark[TFE_MAX_DIMS];
  int64_t dims[TFE_MAX_DIMS];
  if (x->dtype == TF_VARIANT) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Squeeze on Variant not supported");
    return;
  }
  if (!kutil_attr_int32_list(k, "squeeze_dims", &sq, &nsq)) return;
  memset(mark, 0, sizeof mark);
  for (i = 0; i < nsq; i++) {
    int64_t d = sq[i];
    if (d < -nd || d >= nd) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Tried to squeeze dim index %lld for tensor with %d "
                 "dimensions.",
                 (long long)d, nd);
      return;
    }
    if (d < 0) d += nd;
    mark[d] = 1;
  }
  for (i = 0; i < nd; i++) {
    int64_t e = x->dims[i];
    if (nsq > 0) {
      if (mark[i]) {
        if (e != 1) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Can not squeeze dim[%d], expected a dimension of 1, got "
                     "%lld",
                     i, (long long)e);
          return;
        }
        continue;
      }
    } else if (e == 1) {
      continue;
    }
    dims[n++] = e;
  }
  tfe_kutil_forward(k, 0, 0, dims, n);
}

/* --------------------------------------------------------- EnsureShape */

static void k_ensure_shape(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const tfe_shape* want = NULL;
  int ok = 1, i;
  if (k->attrs != NULL) tfe_attrs_get_shape(k->attrs, "shape", &want, NULL);
  if (want != NULL && want->num_dims >= 0) {
    if (want->num_dims != x->num_dims) {
      ok = 0;
    } else {
      for (i = 0; i < x->num_dims; i++) {
        if (want->dims[i] >= 0 && want->dims[i] != x->dims[i]) ok = 0;
      }
    }
  }
  if (!ok) {
    kutil_shape_buf sb;
    char wb[512];
    size_t len = 0;
    wb[0] = '\0';
    len += (size_t)snprintf(wb, sizeof wb, "[");
    for (i = 0; i < want->num_dims && len < sizeof wb; i++) {
      if (want->dims[i] < 0) {
        len += (size_t)snprintf(wb + len, sizeof wb - len, i ? ",?" : "?");
      } else {
        len += (size_t)snprintf(wb + len, sizeof wb - len,
                                i ? ",%lld" : "%lld",
                                (long long)want->dims[i]);
      }
    }
    if (len < sizeof wb) snprintf(wb + len, sizeof wb - len, "]");
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shape of tensor input %s is not compatible with expected "
               "shape %s.",
               kutil_tshape(x, &sb), wb);
    return;
  }
  tfe_kutil_forward(k, 0, 0, x->dims, x->num_dims);
}

/* --------------------------------------------------------------- Const */

static void k_const(tfe_kernel_context* k) {
  const tfe_attr_value* v =
      k->attrs != NULL ? tfe_attrs_find(k->attrs, "value") : NULL;
  TF_DataType want;
  TF_Tensor* src;
  TF_Tensor* t;
  if (v == NULL || v->type != TF_ATTR_TENSOR || v->is_list ||
      v->v.tensor == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Const requires a tensor-valued attr 'value'");
    return;
  }
  src = v->v.tensor;
  want = k->output_types != NULL ? k->output_types[0] : src->dtype;
  if (want != src->dtype) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Type mismatch between value (%s) and dtype (%s)",
               tfe_dtype_short_name(src->dtype), tfe_dtype_short_name(want));
    return;
  }
  t = tfe_tensor_from_buffer(src->dtype, src->dims, src->num_dims, src->buf);
  if (t == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in Const");
    return;
  }
  tfe_kernel_set_output(k, 0, t);
}

/* ---------------------------------------- Fill, ZerosLike, OnesLike */

/* Writes the bytes of `one` (esz bytes) n times into dst. */
static void fill_bytes(char* dst, const char* one, size_t esz, int64_t n) {
  int64_t i;
  switch (esz) {
    case 1: memset(dst, *one, (size_t)n); return;
    case 2: {
      uint16_t v, *d = (uint16_t*)dst;
      memcpy(&v, one, 2);
      for (i = 0; i < n; i++) d[i] = v;
      return;
    }
    case 4: {
      uint32_t v, *d = (uint32_t*)dst;
      memcpy(&v, one, 4);
      for (i = 0; i < n; i++) d[i] = v;
      return;
    }
    case 8: {
      uint64_t v, *d = (uint64_t*)dst;
      memcpy(&v, one, 8);
      for (i = 0; i < n; i++) d[i] = v;
      return;
    }
    default:
      for (i = 0; i < n; i++) memcpy(dst + (size_t)i * esz, one, esz);
  }
}

/* Fills tensor y with the scalar value at src (same dtype). */
void tfe_kutil_fill(TF_Tensor* y, const void* src) {
  int64_t n = kutil_num_elements(y), i;
  if (y->dtype == TF_STRING) {
    TF_TString* d = (TF_TString*)kutil_data(y);
    for (i = 0; i < n; i++) TF_TString_Assign(&d[i], (const TF_TString*)src);
    return;
  }
  fill_bytes((char*)kutil_data(y), (const char*)src, kutil_esize(y->dtype), n);
}

static void k_fill(tfe_kernel_context* k) {
  const TF_Tensor* dims_t = k->inputs[0];
  const TF_Tensor* value = k->inputs[1];
  kutil_shape_buf sb;
  int64_t dims[TFE_MAX_DIMS];
  int64_t nd, i;
  TF_Tensor* y;
  /* As TF's kernel: dims a vector or a scalar (one dimension), value a
   * scalar or a vector of one element. */
  if (dims_t->num_dims > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "dims must represent a vector, got shape %s",
               kutil_tshape(dims_t, &sb));
    return;
  }
  if (value->num_dims > 1 || (value->num_dims == 1 && value->dims[0] != 1)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "value must represent a scalar, got shape %s",
               kutil_tshape(value, &sb));
    return;
  }
  nd = dims_t->num_dims == 0 ? 1 : dims_t->dims[0];
  if (nd > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Too many dimensions: %lld (at most %d)", (long long)nd,
               TFE_MAX_DIMS);
    return;
  }
  for (i = 0; i < nd; i++) {
    dims[i] = kutil_get_int(dims_t, i);
    if (dims[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                 (long long)dims[i]);
      return;
    }
  }
  if (tfe_shape_num_elements(dims, (int)nd) < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Encountered overflow when multiplying shape dimensions");
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, value->dtype, dims, (int)nd);
  if (y == NULL) return;
  tfe_kutil_fill(y, kutil_data(value));
}

/* The value 1 of dtype dt in *out (16 bytes suffices for complex128). */
static void one_of(TF_DataType dt, unsigned char out[16]) {
  memset(out, 0, 16);
  switch (dt) {
    case TF_FLOAT: case TF_COMPLEX64: { float f = 1.0f; memcpy(out, &f, 4); break; }
    case TF_DOUBLE: case TF_COMPLEX128: { double d = 1.0; memcpy(out, &d, 8); break; }
    case TF_HALF: { uint16_t h = 0x3c00; memcpy(out, &h, 2); break; }
    case TF_BFLOAT16: { uint16_t h = 0x3f80; memcpy(out, &h, 2); break; }
    case TF_INT8: case TF_UINT8: case TF_BOOL: out[0] = 1; break;
    case TF_INT16: case TF_UINT16: { uint16_t v = 1; memcpy(out, &v, 2); break; }
    case TF_INT32: case TF_UINT32: { uint32_t v = 1; memcpy(out, &v, 4); break; }
    case TF_INT64: case TF_UINT64: { uint64_t v = 1; memcpy(out, &v, 8); break; }
    default: break;
  }
}

static void k_zeros_like(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  TF_Tensor* y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL) return;
  if (x->dtype != TF_STRING) {
    size_t bytes = (size_t)kutil_num_elements(y) * kutil_esize(y->dtype);
    if (bytes) memset(kutil_data(y), 0, bytes);
  }
}

static void k_ones_like(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  unsigned char one[16];
  TF_Tensor* y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL) return;
  one_of(x->dtype, one);
  tfe_kutil_fill(y, one);
}

/* --------------------------------------------------------------- Range */

static int range_scalar_ok(tfe_kernel_context* k, const TF_Tensor* t,
                           const char* what) {
  kutil_shape_buf sb;
  if (t->num_dims == 0 || (t->num_dims == 1 && t->dims[0] == 1)) return 1;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be a scalar, not shape %s", what,
             kutil_tshape(t, &sb));
  return 0;
}

/* A float rounded to half or bfloat16 (Range's 16-bit float arithmetic:
 * each operation rounds its result back to the type). */
static float range_round16(TF_DataType dt, float v) {
  return dt == TF_HALF ? kutil_f16_to_f32(kutil_f32_to_f16(v))
                       : kutil_bf16_to_f32(kutil_f32_to_bf16(v));
}

static float range_load16(const TF_Tensor* t) {
  uint16_t b = *(const uint16_t*)kutil_data(t);
  return t->dtype == TF_HALF ? kutil_f16_to_f32(b) : kutil_bf16_to_f32(b);
}

static void k_range(tfe_kernel_context* k) {
  const TF_Tensor* ts = k->inputs[0];
  const TF_Tensor* tl = k->inputs[1];
  const TF_Tensor* td = k->inputs[2];
  TF_DataType dt = ts->dtype;
  TF_Tensor* y;
  int64_t size, i;
  if (!range_scalar_ok(k, ts, "start") || !range_scalar_ok(k, tl, "limit") ||
      !range_scalar_ok(k, td, "delta")) {
    return;
  }
  if (dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF ||
      dt == TF_BFLOAT16) {
    double s, l, d, sz;
    if (dt == TF_HALF || dt == TF_BFLOAT16) {
      s = range_load16(ts);
      l = range_load16(tl);
      d = range_load16(td);
    } else if (dt == TF_FLOAT) {
      s = *(const float*)kutil_data(ts);
      l = *(const float*)kutil_data(tl);
      d = *(const float*)kutil_data(td);
    } else {
      s = *(const double*)kutil_data(ts);
      l = *(const double*)kutil_data(tl);
      d = *(const double*)kutil_data(td);
    }
    if (d == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Requires delta != 0: %g", d);
      return;
    }
    if (d > 0 && !(s <= l)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Requires start <= limit when delta > 0: %g/%g", s, l);
      return;
    }
    if (d < 0 && !(s >= l)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Requires start >= limit when delta < 0: %g/%g", s, l);
      return;
    }
    if (dt == TF_HALF || dt == TF_BFLOAT16) {
      float diff = range_round16(dt, (float)l - (float)s);
      sz = ceil(fabs((double)range_round16(dt, diff / (float)d)));
    } else if (dt == TF_FLOAT) {
      sz = ceil(fabs((double)(((float)l - (float)s) / (float)d)));
    } else {
      sz = ceil(fabs((l - s) / d));
    }
    if (!(sz <= 9.2233720368547758e18)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Requires ((limit - start) / delta) <= %lld",
                 (long long)INT64_MAX);
      return;
    }
    size = (int64_t)sz;
    y = tfe_kernel_alloc_output(k, 0, dt, &size, 1);
    if (y == NULL) return;
    /* float and double: TF accumulates, each value is the previous one
     * plus delta. */
    if (dt == TF_HALF || dt == TF_BFLOAT16) {
      /* 16-bit floats do not accumulate: value i is start + i * delta,
       * the index converted to the type and each step rounded to it. */
      uint16_t* o = (uint16_t*)kutil_data(y);
      float fs = (float)s, fd = (float)d;
      for (i = 0; i < size; i++) {
        float fi = range_round16(dt, (float)i);
        float v = range_round16(dt, fs + range_round16(dt, fi * fd));
        o[i] = dt == TF_HALF ? kutil_f32_to_f16(v) : kutil_f32_to_bf16(v);
      }
    } else if (dt == TF_FLOAT) {
      float* o = (float*)kutil_data(y);
      float v = (float)s, fd = (float)d;
      for (i = 0; i < size; i++) {
        o[i] = v;
        v += fd;
      }
    } else {
      double* o = (double*)kutil_data(y);
      double v = s;
      for (i = 0; i < size; i++) {
        o[i] = v;
        v += d;
      }
    }
    return;
  }
  {
    int64_t s = kutil_get_int(ts, 0), l = kutil_get_int(tl, 0),
            d = kutil_get_int(td, 0);
    uint64_t span, ad;
    if (d == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Requires delta != 0: %lld",
                 (long long)d);
      return;
    }
    if (d > 0 && s > l) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Requires start <= limit when delta > 0: %lld/%lld",
                 (long long)s, (long long)l);
      return;
    }
    if (d < 0 && s < l) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Requires start >= limit when delta < 0: %lld/%lld",
                 (long long)s, (long long)l);
      return;
    }
    span = d > 0 ? (uint64_t)l - (uint64_t)s : (uint64_t)s - (uint64_t)l;
    ad = d > 0 ? (uint64_t)d : (uint64_t)0 - (uint64_t)d;
    size = (int64_t)(span / ad + (span % ad != 0));
    y = tfe_kernel_alloc_output(k, 0, dt, &size, 1);
    if (y == NULL) return;
    if (dt == TF_INT32) {
      int32_t* o = (int32_t*)kutil_data(y);
      for (i = 0; i < size; i++) {
        o[i] = (int32_t)(uint32_t)((uint64_t)s + (uint64_t)i * (uint64_t)d);
      }
    } else {
      int64_t* o = (int64_t*)kutil_data(y);
      for (i = 0; i < size; i++) {
        o[i] = (int64_t)((uint64_t)s + (uint64_t)i * (uint64_t)d);
      }
    }
  }
}

/* -------------------------------------------------------- registration */

void tfe_register_array_basic_kernels(void) {
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType fill_types[] = {KUTIL_POD_TYPES, TF_STRING,
                                           KUTIL_QUANTIZED_TYPES, TF_INT4,
                                           TF_UINT4};
  static const TF_DataType zeros_types[] = {KUTIL_POD_TYPES, TF_STRING};
  static const TF_DataType ones_types[] = {KUTIL_POD_TYPES};
  static const TF_DataType range_types[] = {TF_FLOAT, TF_DOUBLE, TF_INT32,
                                            TF_INT64, TF_HALF, TF_BFLOAT16};
  tfe_kutil_register("Identity", k_identity, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("IdentityN", k_identity_n, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("Reshape", k_reshape, "Tshape", idx, 2, NULL, NULL, 0);
  tfe_kutil_register("Shape", k_shape, "out_type", idx, 2, NULL, NULL, 0);
  tfe_kutil_register("ShapeN", k_shape_n, "out_type", idx, 2, NULL, NULL, 0);
  tfe_kutil_register("Size", k_size, "out_type", idx, 2, NULL, NULL, 0);
  tfe_kutil_register("Rank", k_rank, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("ExpandDims", k_expand_dims, "Tdim", idx, 2, NULL, NULL,
                     0);
  tfe_kutil_register("Squeeze", k_squeeze, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("EnsureShape", k_ensure_shape, NULL, NULL, 0, NULL, NULL,
                     0);
  tfe_kutil_register("Const", k_const, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("Fill", k_fill, "T", fill_types, KUTIL_COUNT(fill_types),
                     "index_type", idx, 2);
  tfe_kutil_register("ZerosLike", k_zeros_like, "T", zeros_types,
                     KUTIL_COUNT(zeros_types), NULL, NULL, 0);
  tfe_kutil_register("OnesLike", k_ones_like, "T", ones_types,
                     KUTIL_COUNT(ones_types), NULL, NULL, 0);
  tfe_kutil_register("Range", k_range, "Tidx", range_types,
                     KUTIL_COUNT(range_types), NULL, NULL, 0);
}
