/* ArgMax and ArgMin: the index of the largest/smallest element along one
 * axis (the first one on ties). Floating-point inputs follow TF's CPU
 * kernel (Eigen's arg reducers): the running best starts as index 0 with
 * the dtype's lowest (ArgMax) or highest (ArgMin) finite value and is
 * replaced only by a strictly better element, so NaNs never win, and a
 * row of NaNs (or of values no better than that start, such as -inf for
 * ArgMax) gives 0. -0.0 and 0.0 tie (the first is kept). */
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"

static int64_t prodr(const int64_t* d, int from, int to) {
  return kutil_dims_prod(d, from, to);
}

/* Element as a comparable key: doubles for floats, int64 / uint64 else. */
typedef struct key {
  double f;
  int64_t s;
  uint64_t u;
} key;

static void load_key(const TF_Tensor* x, int64_t i, key* k) {
  const char* d = (const char*)kutil_data(x);
  switch (x->dtype) {
    case TF_FLOAT: k->f = ((const float*)d)[i]; break;
    case TF_DOUBLE: k->f = ((const double*)d)[i]; break;
    case TF_HALF: k->f = kutil_f16_to_f32(((const uint16_t*)d)[i]); break;
    case TF_BFLOAT16: k->f = kutil_bf16_to_f32(((const uint16_t*)d)[i]); break;
    case TF_BOOL: k->s = d[i] != 0; break;
    case TF_UINT64: k->u = ((const uint64_t*)d)[i]; break;
    case TF_QINT8: k->s = ((const int8_t*)d)[i]; break;
    case TF_QUINT8: k->s = ((const uint8_t*)d)[i]; break;
    case TF_QINT16: k->s = ((const int16_t*)d)[i]; break;
    case TF_QUINT16: k->s = ((const uint16_t*)d)[i]; break;
    case TF_QINT32: k->s = ((const int32_t*)d)[i]; break;
    default: k->s = kutil_get_int(x, i); break;
  }
}

/* 1 when a is strictly "better" than b (greater for max, less for min;
 * false whenever a NaN is involved). */
static int better(int kind, const key* a, const key* b, int is_max) {
  if (kind == 0) return is_max ? a->f > b->f : a->f < b->f;
  if (kind == 1) return is_max ? a->s > b->s : a->s < b->s;
  return is_max ? a->u > b->u : a->u < b->u;
}

static void arg_compute(tfe_kernel_context* k, int is_max) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* dt = k->inputs[1];
  kutil_shape_buf sa;
  TF_DataType ot = k->output_types != NULL ? k->output_types[0] : TF_INT64;
  int nd = x->num_dims, i, on = 0, kind;
  int64_t axis, odims[TFE_MAX_DIMS], outer, len, inner, o, j, t;
  double fmax;
  TF_Tensor* y;
  if (dt->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "dim must be a scalar, but received tensor of shape: %s",
               kutil_tshape(dt, &sa));
    return;
  }
  axis = kutil_get_int(dt, 0);
  if (axis < -nd || axis >= nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected dimension in the range [%d, %d), but got %lld", -nd,
               nd, (long long)axis);
    return;
  }
  if (axis < 0) axis += nd;
  if (x->dims[axis] == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Reduction axis %lld is empty in shape %s",
               (long long)axis, kutil_tshape(x, &sa));
    return;
  }
  for (i = 0; i < nd; i++) {
    if (i != axis) odims[on++] = x->dims[i];
  }
  y = tfe_kernel_alloc_output(k, 0, ot, odims, on);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  kind = (x->dtype == TF_FLOAT || x->dtype == TF_DOUBLE ||
          x->dtype == TF_HALF || x->dtype == TF_BFLOAT16)
             ? 0
             : x->dtype == TF_UINT64 ? 2 : 1;
  /* largest finite value of the float dtype */
  fmax = x->dtype == TF_DOUBLE ? DBL_MAX
         : x->dtype == TF_HALF ? 65504.0
         : x->dtype == TF_BFLOAT16 ? 3.3895313892515355e38
                                   : (double)FLT_MAX;
  outer = prodr(x->dims, 0, (int)axis);
  len = x->dims[axis];
  inner = prodr(x->dims, (int)axis + 1, nd);
  for (o = 0; o < outer; o++) {
    for (j = 0; j < inner; j++) {
      key best, cur;
      int64_t bi = 0, e = o * len * inner + j;
      load_key(x, e, &best);
      if (kind == 0) best.f = is_max ? -fmax : fmax;
      for (t = kind == 0 ? 0 : 1; t < len; t++) {
        load_key(x, e + t * inner, &cur);
        if (better(kind, &cur, &best, is_max)) {
          best = cur;
          bi = t;
        }
      }
      switch (ot) {
        case TF_INT16: ((int16_t*)kutil_data(y))[o * inner + j] = (int16_t)bi; break;
        case TF_UINT16: ((uint16_t*)kutil_data(y))[o * inner + j] = (uint16_t)bi; break;
        case TF_INT32: ((int32_t*)kutil_data(y))[o * inner + j] = (int32_t)bi; break;
        default: ((int64_t*)kutil_data(y))[o * inner + j] = bi; break;
      }
    }
  }
}

static void k_arg_max(tfe_kernel_context* k) { arg_compute(k, 1); }
static void k_arg_min(tfe_kernel_context* k) { arg_compute(k, 0); }

void tfe_register_reduce_index_kernels(void) {
  static const TF_DataType types[] = {KUTIL_REAL_TYPES, TF_BOOL};
  static const TF_DataType idx[] = {TF_INT16, TF_INT32, TF_INT64};
  tfe_kutil_register("ArgMax", k_arg_max, "T", types, KUTIL_COUNT(types),
                     "Tidx", idx, 3);
  tfe_kutil_register("ArgMin", k_arg_min, "T", types, KUTIL_COUNT(types),
                     "Tidx", idx, 3);
}
