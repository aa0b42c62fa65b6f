/* CumulativeLogsumexp: the running log(sum(exp(x))) along one axis, with
 * TF's exclusive/reverse attrs and its axis checks and messages.
 *
 * Each step combines the running value r with the next element v as TF's
 * reducer does: with hi = max(r, v), lo = min(r, v) in std::max/std::min
 * order (a NaN element compares false, so it leaves r in place of itself),
 * the result is hi when hi is -inf, else hi + log1p(exp(lo - hi)). The
 * running value starts at -inf. For half and bfloat16 every operation is
 * rounded back to the element type, as Eigen does for those types. */
#include <math.h>

#include "kernels/cpu/kutil.h"

void tfe_register_special_scan_kernels(void);

/* Element-type rounding after each operation (identity for float/double). */
typedef float (*sp_round_fn)(float);
static float sp_round_h(float v) {
  return kutil_f16_to_f32(kutil_f32_to_f16(v));
}
static float sp_round_b(float v) {
  return kutil_bf16_to_f32(kutil_f32_to_bf16(v));
}

static double sp_lse_d(double r, double v) {
  double hi = r < v ? v : r, lo = v < r ? v : r;
  if (hi == -INFINITY) return hi;
  return hi + log1p(exp(lo - hi));
}
static float sp_lse_f(float r, float v, sp_round_fn rd) {
  float hi = r < v ? v : r, lo = v < r ? v : r;
  if (hi == -INFINITY) return hi;
  if (rd == NULL) return hi + log1pf(expf(lo - hi));
  return rd(hi + rd(log1pf(rd(expf(rd(lo - hi))))));
}

static void sp_clse_compute(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* at = k->inputs[1];
  kutil_shape_buf sa;
  int nd = x->num_dims, i;
  int excl = kutil_attr_bool(k, "exclusive", 0);
  int rev = kutil_attr_bool(k, "reverse", 0);
  int64_t axis, adj, outer = 1, len, inner = 1, o, j, t;
  const void* src;
  void* dst;
  TF_Tensor* y;
  if (at->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "ScanOp: axis must be a scalar, not %s",
               kutil_tshape(at, &sa));
    return;
  }
  axis = kutil_get_int(at, 0);
  /* TF's message shows the axis after adding the rank to a negative one. */
  adj = axis < 0 ? axis + nd : axis;
  if (adj < 0 || adj >= nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "ScanOp: Expected scan axis in the range [%d, %d), but got %lld",
               -nd, nd, (long long)adj);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, nd);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  for (i = 0; i < adj; i++) outer *= x->dims[i];
  for (i = (int)adj + 1; i < nd; i++) inner *= x->dims[i];
  len = x->dims[adj];
  src = kutil_data(x);
  dst = kutil_data(y);
  for (o = 0; o < outer; o++) {
    for (j = 0; j < inner; j++) {
      double rd_ = -INFINITY;
      float rf = -INFINITY;
      for (t = 0; t < len; t++) {
        int64_t p = rev ? len - 1 - t : t;
        int64_t e = (o * len + p) * inner + j;
        switch (x->dtype) {
          case TF_DOUBLE: {
            double v = ((const double*)src)[e];
            if (excl) ((double*)dst)[e] = rd_;
            rd_ = sp_lse_d(rd_, v);
            if (!excl) ((double*)dst)[e] = rd_;
            break;
          }
          case TF_FLOAT: {
            float v = ((const float*)src)[e];
            if (excl) ((float*)dst)[e] = rf;
            rf = sp_lse_f(rf, v, NULL);
            if (!excl) ((float*)dst)[e] = rf;
            break;
          }
          case TF_HALF: {
            float v = kutil_f16_to_f32(((const uint16_t*)src)[e]);
            if (excl) ((uint16_t*)dst)[e] = kutil_f32_to_f16(rf);
            rf = sp_lse_f(rf, v, sp_round_h);
            if (!excl) ((uint16_t*)dst)[e] = kutil_f32_to_f16(rf);
            break;
          }
          default: { /* TF_BFLOAT16: the only other registered type */
            float v = kutil_bf16_to_f32(((const uint16_t*)src)[e]);
            if (excl) ((uint16_t*)dst)[e] = kutil_f32_to_bf16(rf);
            rf = sp_lse_f(rf, v, sp_round_b);
            if (!excl) ((uint16_t*)dst)[e] = kutil_f32_to_bf16(rf);
            break;
          }
        }
      }
    }
  }
}

void tfe_register_special_scan_kernels(void) {
  static const TF_DataType kT[] = {TF_FLOAT, TF_DOUBLE, TF_HALF, TF_BFLOAT16};
  static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("CumulativeLogsumexp", sp_clse_compute, "T", kT,
                     KUTIL_COUNT(kT), "Tidx", kIdx, KUTIL_COUNT(kIdx));
}
