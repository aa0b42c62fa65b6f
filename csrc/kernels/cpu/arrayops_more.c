/* ConjugateTranspose, Cross, Empty, Bitcast, DenseBincount, UnravelIndex
 * and the pass-through/copy ops GuaranteeConst, DebugGradientIdentity,
 * PlaceholderWithDefault, Snapshot and DeepCopy. */
#include <complex.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/arrayops_common.h"
#include "kernels/cpu/kutil.h"

/* -------------------------------------------------- ConjugateTranspose */

static void k_conjugate_transpose(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int nd = x->num_dims, perm[TFE_MAX_DIMS], identity;
  int64_t odims[TFE_MAX_DIMS], n;
  TF_Tensor* y;
  if (!tfe_kutil_transpose_perm(k, x, k->inputs[1], perm, odims, &identity)) {
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, odims, nd);
  if (y == NULL) return;
  tfe_kutil_transpose(x->dtype, kutil_esize(x->dtype), kutil_data(x), x->dims,
                      perm, nd, kutil_data(y));
  /* only complex values have an imaginary part to negate */
  n = kutil_num_elements(y);
  if (x->dtype == TF_COMPLEX64) {
    float* p = (float*)kutil_data(y);
    int64_t j;
    for (j = 0; j < n; j++) p[2 * j + 1] = -p[2 * j + 1];
  } else if (x->dtype == TF_COMPLEX128) {
    double* p = (double*)kutil_data(y);
    int64_t j;
    for (j = 0; j < n; j++) p[2 * j + 1] = -p[2 * j + 1];
  }
}

/* --------------------------------------------------------------- Cross */

#define CROSS_INT(T)                                                        \
  do {                                                                      \
    const T* a = (const T*)kutil_data(k->inputs[0]);                        \
    const T* b = (const T*)kutil_data(k->inputs[1]);                        \
    T* o = (T*)kutil_data(y);                                               \
    for (i = 0; i < rows; i++, a += 3, b += 3, o += 3) {                    \
      o[0] = (T)((uint64_t)a[1] * (uint64_t)b[2] -                          \
                 (uint64_t)a[2] * (uint64_t)b[1]);                          \
      o[1] = (T)((uint64_t)a[2] * (uint64_t)b[0] -                          \
                 (uint64_t)a[0] * (uint64_t)b[2]);                          \
      o[2] = (T)((uint64_t)a[0] * (uint64_t)b[1] -                          \
                 (uint64_t)a[1] * (uint64_t)b[0]);                          \
    }                                                                       \
  } while (0)

#define CROSS_FLOAT(T)                                   \
  do {                                                   \
    const T* a = (const T*)kutil_data(k->inputs[0]);     \
    const T* b = (const T*)kutil_data(k->inputs[1]);     \
    T* o = (T*)kutil_data(y);                            \
    for (i = 0; i < rows; i++, a += 3, b += 3, o += 3) { \
      o[0] = a[1] * b[2] - a[2] * b[1];                  \
      o[1] = a[2] * b[0] - a[0] * b[2];                  \
      o[2] = a[0] * b[1] - a[1] * b[0];                  \
    }                                                    \
  } while (0)

/* 16-bit floats: every product and difference rounds to the type. */
static uint16_t r16(TF_DataType dt, float f) {
  return dt == TF_HALF ? kutil_f32_to_f16(f) : kutil_f32_to_bf16(f);
}
static float w16(TF_DataType dt, uint16_t v) {
  return dt == TF_HALF ? kutil_f16_to_f32(v) : kutil_bf16_to_f32(v);
}
static uint16_t cross16(TF_DataType dt, uint16_t a, uint16_t b, uint16_t c,
                        uint16_t d) {
  float p = w16(dt, r16(dt, w16(dt, a) * w16(dt, b)));
  float q = w16(dt, r16(dt, w16(dt, c) * w16(dt, d)));
  return r16(dt, p - q);
}

static void k_cross(tfe_kernel_context* k) {
  const TF_Tensor* a = k->inputs[0];
  const TF_Tensor* b = k->inputs[1];
  kutil_shape_buf s1, s2;
  int same = a->num_dims == b->num_dims, d;
  int64_t rows, i;
  TF_Tensor* y;
  for (d = 0; same && d < a->num_dims; d++) same = a->dims[d] == b->dims[d];
  if (!same) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Both inputs must be of same shape: %s vs. %s",
               kutil_tshape(a, &s1), kutil_tshape(b, &s2));
    return;
  }
  if (a->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input must be at least 1D%s",
               kutil_tshape(a, &s1));
    return;
  }
  if (a->dims[a->num_dims - 1] != 3) {
    KUTIL_FAIL(k, TF_FAILED_PRECONDITION,
               "Cross-products are only defined for 3-element vectors.");
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, a->dtype, a->dims, a->num_dims);
  if (y == NULL) return;
  rows = kutil_num_elements(a) / 3;
  switch (a->dtype) {
    case TF_FLOAT: CROSS_FLOAT(float); break;
    case TF_DOUBLE: CROSS_FLOAT(double); break;
    case TF_INT8: CROSS_INT(int8_t); break;
    case TF_INT16: CROSS_INT(int16_t); break;
    case TF_INT32: CROSS_INT(int32_t); break;
    case TF_INT64: CROSS_INT(int64_t); break;
    case TF_UINT8: CROSS_INT(uint8_t); break;
    case TF_UINT16: CROSS_INT(uint16_t); break;
    case TF_UINT32: CROSS_INT(uint32_t); break;
    case TF_UINT64: CROSS_INT(uint64_t); break;
    case TF_HALF:
    case TF_BFLOAT16: {
      const uint16_t* p = (const uint16_t*)kutil_data(a);
      const uint16_t* q = (const uint16_t*)kutil_data(b);
      uint16_t* o = (uint16_t*)kutil_data(y);
      for (i = 0; i < rows; i++, p += 3, q += 3, o += 3) {
        o[0] = cross16(a->dtype, p[1], q[2], p[2], q[1]);
        o[1] = cross16(a->dtype, p[2], q[0], p[0], q[2]);
        o[2] = cross16(a->dtype, p[0], q[1], p[1], q[0]);
      }
      break;
    }
    default: break;
  }
}

/* --------------------------------------------------------------- Empty */

static void k_empty(tfe_kernel_context* k) {
  const TF_Tensor* s = k->inputs[0];
  TF_DataType dt = k->output_types[0];
  kutil_shape_buf sb;
  int64_t dims[TFE_MAX_DIMS], i, n;
  TF_Tensor* y;
  if (s->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "shape must be a vector of int32, got shape %s",
               kutil_tshape(s, &sb));
    return;
  }
  n = s->dims[0];
  if (n > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Empty: too many dimensions");
    return;
  }
  for (i = 0; i < n; i++) {
    dims[i] = kutil_get_int(s, i);
    if (dims[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                 (long long)dims[i]);
      return;
    }
  }
  y = tfe_kernel_alloc_output(k, 0, dt, dims, (int)n);
  if (y == NULL) return;
  /* `init` asks for zeros; without it the contents are unspecified, and
   * zeros are as good as anything (strings are already empty). */
  if (dt != TF_STRING) tfe_ao_fill_zero(dt, kutil_data(y), kutil_num_elements(y));
}

/* ------------------------------------------------------------- Bitcast */

static void k_bitcast(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  TF_DataType ot = k->output_types[0];
  size_t in_sz = TF_DataTypeSize(x->dtype), out_sz = TF_DataTypeSize(ot);
  int64_t dims[TFE_MAX_DIMS];
  int nd = x->num_dims, i;
  for (i = 0; i < nd; i++) dims[i] = x->dims[i];
  if (in_sz < out_sz) {
    /* the last dimension holds exactly one output element */
    if (nd < 1 || (size_t)x->dims[nd - 1] * in_sz != out_sz) {
      /* TF prints the two DataType enum values. */
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Cannot bitcast from %d to %d",
                 (int)x->dtype, (int)ot);
      return;
    }
    nd--;
  } else if (in_sz > out_sz) {
    if (nd >= TFE_MAX_DIMS) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Bitcast: too many dimensions");
      return;
    }
    dims[nd++] = (int64_t)(in_sz / out_sz);
  }
  /* same bytes, output dtype (from the op's `type` attr) */
  tfe_kernel_alias_input(k, 0, 0, dims, nd);
}

/* -------------------------------------------------------- DenseBincount */

static void k_dense_bincount(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* sz = k->inputs[1];
  const TF_Tensor* w = k->inputs[2];
  TF_DataType dt = w->dtype;
  int binary = kutil_attr_bool(k, "binary_output", 0), has_w;
  int64_t size, rows, cols, n, i, dims[2];
  kutil_shape_buf sb;
  TF_Tensor* y;
  char* o;
  size_t esz = kutil_esize(dt);
  if (sz->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape must be rank 0 but is rank %d",
               sz->num_dims);
    return;
  }
  size = kutil_get_int(sz, 0);
  if (size < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "size (%lld) must be non-negative",
               (long long)size);
    return;
  }
  if (in->num_dims > 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shape must be at most rank 2 but is rank %d", in->num_dims);
    return;
  }
  has_w = kutil_num_elements(w) > 0;
  if (has_w) {
    int same = w->num_dims == in->num_dims, d;
    for (d = 0; same && d < in->num_dims; d++) same = w->dims[d] == in->dims[d];
    if (!same) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "`weights` must be the same shape as `arr` or a length-0 "
                 "`Tensor`, in which case it acts as all weights equal to 1. "
                 "Received %s",
                 kutil_tshape(w, &sb));
      return;
    }
  }
  n = kutil_num_elements(in);
  for (i = 0; i < n; i++) {
    int64_t v = kutil_get_int(in, i);
    if (v < 0) {
      if (in->num_dims == 2) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Input 'in' must be non-negative! Negative input value "
                   "found: %lld",
                   (long long)v);
      } else {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input arr must be non-negative!");
      }
      return;
    }
  }
  rows = in->num_dims == 2 ? in->dims[0] : 1;
  cols = in->num_dims == 2 ? in->dims[1] : n;
  dims[0] = rows;
  dims[1] = size;
  if (in->num_dims == 2) {
    y = tfe_kernel_alloc_output(k, 0, dt, dims, 2);
  } else {
    y = tfe_kernel_alloc_output(k, 0, dt, &size, 1);
  }
  if (y == NULL) return;
  o = (char*)kutil_data(y);
  tfe_ao_fill_zero(dt, o, rows * size);
  for (i = 0; i < n; i++) {
    int64_t v = kutil_get_int(in, i), r = i / (cols > 0 ? cols : 1);
    char* cell;
    if (v >= size) continue;
    cell = o + (size_t)(r * size + v) * esz;
    switch (dt) {
      case TF_INT32:
        *(int32_t*)cell = binary ? 1
                                 : (int32_t)((uint32_t)*(int32_t*)cell +
                                             (has_w ? (uint32_t)((const int32_t*)kutil_data(w))[i] : 1u));
        break;
      case TF_INT64:
        *(int64_t*)cell = binary ? 1
                                 : (int64_t)((uint64_t)*(int64_t*)cell +
                                             (has_w ? (uint64_t)((const int64_t*)kutil_data(w))[i] : 1u));
        break;
      case TF_FLOAT:
        *(float*)cell = binary ? 1.0f
                               : *(float*)cell + (has_w ? ((const float*)kutil_data(w))[i] : 1.0f);
        break;
      case TF_DOUBLE:
        *(double*)cell = binary ? 1.0
                                : *(double*)cell + (has_w ? ((const double*)kutil_data(w))[i] : 1.0);
        break;
      default: break;
    }
  }
}

/* ------------------------------------------------------- identity-likes */

/* GuaranteeConst, DebugGradientIdentity, PlaceholderWithDefault: the
 * input passes through (the shape attr of PlaceholderWithDefault only
 * matters to graph shape inference). */
static void k_pass(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  tfe_kutil_forward(k, 0, 0, x->dims, x->num_dims);
}

/* Snapshot and DeepCopy: a new buffer with the same values. */
static void k_copy(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  TF_Tensor* y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL) return;
  kutil_copy(x->dtype, kutil_data(y), kutil_data(x), kutil_num_elements(x));
}

/* -------------------------------------------------------- UnravelIndex */

static void k_unravel_index(tfe_kernel_context* k) {
  const TF_Tensor* ix = k->inputs[0];
  const TF_Tensor* dt = k->inputs[1];
  kutil_shape_buf sb;
  int64_t nd, n, i, j, prod = 1, odims[2];
  TF_Tensor* y;
  if (ix->num_dims > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The indices can only be scalar or vector, got \"%s\"",
               kutil_tshape(ix, &sb));
    return;
  }
  if (dt->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The indices can only be 1-D, got \"%s\"",
               kutil_tshape(dt, &sb));
    return;
  }
  nd = dt->dims[0];
  for (j = 0; j < nd; j++) {
    int64_t d = kutil_get_int(dt, j);
    if (d == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input dims cannot contain a dim of zero, but dims contains "
                 "zero at index %lld",
                 (long long)j);
      return;
    }
    if (d < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input dims cannot be negative. Got dim = %lld at index %lld",
                 (long long)d, (long long)j);
      return;
    }
    if (prod > INT64_MAX / d) prod = INT64_MAX; else prod *= d;
  }
  n = kutil_num_elements(ix);
  if (n == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "received empty tensor indices: Tensor<type: %s shape: %s "
               "values: >",
               tfe_dtype_short_name(ix->dtype), kutil_tshape(ix, &sb));
    return;
  }
  /* only indices past the end are refused (TF lets negative ones through
   * and divides them as C does) */
  for (i = 0; i < n; i++) {
    if (kutil_get_int(ix, i) >= prod) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "index is out of bound as with dims");
      return;
    }
  }
  odims[0] = nd;
  odims[1] = n;
  y = tfe_kernel_alloc_output(k, 0, ix->dtype, odims, ix->num_dims == 0 ? 1 : 2);
  if (y == NULL) return;
  for (i = 0; i < n; i++) {
    int64_t v = kutil_get_int(ix, i);
    for (j = nd - 1; j >= 0; j--) {
      int64_t d = kutil_get_int(dt, j), r = v % d;
      v /= d;
      if (ix->dtype == TF_INT32) {
        ((int32_t*)kutil_data(y))[j * n + i] = (int32_t)r;
      } else {
        ((int64_t*)kutil_data(y))[j * n + i] = r;
      }
    }
  }
}

void tfe_register_arrayops_more_kernels(void) {
  static const TF_DataType all[] = {KUTIL_POD_TYPES, TF_STRING};
  static const TF_DataType cross[] = {KUTIL_REAL_TYPES};
  static const TF_DataType bc[] = {TF_INT32, TF_INT64, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType pod[] = {KUTIL_POD_TYPES};
  {
    static const TF_DataType ct[] = {KUTIL_POD_TYPES, TF_STRING,
                                     TF_FLOAT8_E4M3FN, TF_FLOAT8_E5M2};
    tfe_kutil_register("ConjugateTranspose", k_conjugate_transpose, "T", ct,
                       KUTIL_COUNT(ct), NULL, NULL, 0);
  }
  tfe_kutil_register("Cross", k_cross, "T", cross, KUTIL_COUNT(cross), NULL,
                     NULL, 0);
  tfe_kutil_register("Empty", k_empty, "dtype", all, KUTIL_COUNT(all), NULL,
                     NULL, 0);
  tfe_kutil_register("Bitcast", k_bitcast, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("DenseBincount", k_dense_bincount, "T", bc,
                     KUTIL_COUNT(bc), NULL, NULL, 0);
  tfe_kutil_register("GuaranteeConst", k_pass, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("DebugGradientIdentity", k_pass, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("PlaceholderWithDefault", k_pass, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("DeepCopy", k_copy, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("Snapshot", k_copy, "T", pod, KUTIL_COUNT(pod), NULL,
                     NULL, 0);
  tfe_kutil_register("UnravelIndex", k_unravel_index, NULL, NULL, 0, NULL,
                     NULL, 0);
}
