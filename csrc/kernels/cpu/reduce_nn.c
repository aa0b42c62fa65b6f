/* Row reductions used by neural networks: Softmax, LogSoftmax (over the
 * last axis) and L2Loss (sum of squares / 2).
 *
 * float rows use a vectorizable exp: x = n*ln2 + r with |r| <= ln2/2,
 * exp(r) from a degree-6 polynomial (the classic Cephes coefficients,
 * about 1 ulp), and 2^n assembled in the exponent bits. The loop has no
 * calls or branches, so the compiler turns it into SIMD code; it is built
 * for several ISA levels (KUTIL_CLONES). double uses libm's exp; 16-bit
 * floats are computed in float. */
#if defined(__GNUC__) && !defined(__clang__)
/* Hot loops rely on the loop vectorizer at full strength (GCC's -O2 only
 * vectorizes very cheap loops), whatever the build type. */
#pragma GCC optimize("O3")
#endif

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_common.h"

static inline float fast_expf(float x) {
  const float log2e = 1.44269504088896341f;
  const float ln2_hi = 0.693359375f, ln2_lo = -2.12194440e-4f;
  const float shifter = 12582912.0f; /* 1.5 * 2^23: rounds to an integer */
  float t, n, r, p;
  uint32_t bits;
  /* below -103.97 the result underflows to 0 anyway */
  x = x < -103.972f ? -103.972f : x;
  x = x > 88.72283f ? 88.72283f : x;
  t = x * log2e + shifter;
  n = t - shifter;
  memcpy(&bits, &t, 4);
  /* integer n, in two's complement. A NaN input (NaN, or inf - inf in
   * the caller) brings arbitrary bits here: the exponent arithmetic is
   * unsigned so that it cannot overflow, and p is NaN, which the
   * product below propagates whatever the scale factors are. */
  bits -= 0x4B400000u;
  r = x - n * ln2_hi;
  r = r - n * ln2_lo;
  p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  /* 2^n as two factors so that n = 128 and n < -126 (subnormal results)
   * both work */
  {
    int32_t nb = (int32_t)bits;
    int32_t h = nb / 2;
    uint32_t e1 = ((uint32_t)h + 127u) << 23,
             e2 = ((uint32_t)nb - (uint32_t)h + 127u) << 23;
    float s1, s2;
    memcpy(&s1, &e1, 4);
    memcpy(&s2, &e2, 4);
    return (p * s1) * s2;
  }
}

/* y = exp(x - m) for a row; returns the sum (in double). */
KUTIL_CLONES static double exp_row_f32(const float* x, float* y, int64_t n,
                                       float m) {
  float acc[16];
  int64_t i = 0;
  int j;
  double total = 0;
  for (j = 0; j < 16; j++) acc[j] = 0;
  for (; n - i >= 16; i += 16) {
    for (j = 0; j < 16; j++) {
      float e = fast_expf(x[i + j] - m);
      y[i + j] = e;
      acc[j] += e;
    }
  }
  for (; i < n; i++) {
    float e = fast_expf(x[i] - m);
    y[i] = e;
    total += e;
  }
  for (j = 0; j < 16; j++) total += acc[j];
  return total;
}

KUTIL_CLONES static float max_row_f32(const float* x, int64_t n) {
  float m[16];
  int64_t i = 0;
  int j;
  float r;
  for (j = 0; j < 16; j++) m[j] = -INFINITY;
  for (; n - i >= 16; i += 16) {
    for (j = 0; j < 16; j++) m[j] = x[i + j] > m[j] ? x[i + j] : m[j];
  }
  for (; i < n; i++) m[0] = x[i] > m[0] ? x[i] : m[0];
  r = m[0];
  for (j = 1; j < 16; j++) r = m[j] > r ? m[j] : r;
  return r;
}

KUTIL_CLONES static void log_row_f32(const float* x, float* y, int64_t n,
                                     float shift) {
  int64_t i;
  for (i = 0; i < n; i++) y[i] = x[i] - shift;
}

/* float Softmax/LogSoftmax as TensorFlow's CPU kernel evaluates them, so
 * that results agree to the last bit: shifted = x - max(row); softmax =
 * exp(shifted) (an elementwise pass over the whole tensor) times
 * 1 / sum(row) (float sum in Eigen's order); log-softmax = shifted -
 * log(sum(exp(shifted))) with the exp inside the row reduction and the
 * log over the vector of row sums. Which elements use Eigen's packet
 * exp/log and which libm's is decided by position (see nn_common.h). */
static void softmax_rows_f32(const float* x, float* y, int64_t rows,
                             int64_t n, int log_mode) {
  int64_t r, i, total = rows * n;
  int64_t flat_vec = total / 8 * 8, row_vec = n / 8 * 8, rows_vec = rows / 8 * 8;
  float* tmp = (float*)tfe_malloc(sizeof(float) * (size_t)n);
  if (tmp == NULL) {
    /* no scratch: the fast form, not bit-identical to TF */
    for (r = 0; r < rows; r++) {
      const float* xr = x + r * n;
      float* yr = y + r * n;
      float m = max_row_f32(xr, n);
      double sum = exp_row_f32(xr, yr, n, m);
      if (log_mode) {
        log_row_f32(xr, yr, n, m + (float)log(sum));
      } else {
        for (i = 0; i < n; i++) yr[i] = (float)(yr[i] / sum);
      }
    }
    return;
  }
  for (r = 0; r < rows; r++) {
    const float* xr = x + r * n;
    float* yr = y + r * n;
    float m = max_row_f32(xr, n);
    if (log_mode) {
      float lse;
      for (i = 0; i < n; i++) yr[i] = xr[i] - m;
      nn_tf_exp_span(yr, tmp, n, 0, row_vec);
      lse = nn_tf_logf(nn_tf_sumf(tmp, r * n, n), r, rows_vec);
      for (i = 0; i < n; i++) yr[i] = yr[i] - lse;
    } else {
      float inv;
      for (i = 0; i < n; i++) tmp[i] = xr[i] - m;
      nn_tf_exp_span(tmp, yr, n, r * n, flat_vec);
      inv = 1.0f / nn_tf_sumf(yr, r * n, n);
      for (i = 0; i < n; i++) yr[i] = yr[i] * inv;
    }
  }
  tfe_free(tmp);
}

static void softmax_rows_f64(const double* x, double* y, int64_t rows,
                             int64_t n, int log_mode) {
  int64_t r, i;
  for (r = 0; r < rows; r++) {
    const double* xr = x + r * n;
    double* yr = y + r * n;
    double m = -INFINITY, sum = 0;
    for (i = 0; i < n; i++) m = xr[i] > m ? xr[i] : m;
    for (i = 0; i < n; i++) {
      yr[i] = exp(xr[i] - m);
      sum += yr[i];
    }
    if (log_mode) {
      double shift = m + log(sum);
      for (i = 0; i < n; i++) yr[i] = xr[i] - shift;
    } else {
      for (i = 0; i < n; i++) yr[i] /= sum;
    }
  }
}

static void softmax_compute(tfe_kernel_context* k, int log_mode) {
  const TF_Tensor* x = k->inputs[0];
  kutil_shape_buf sa;
  int nd = x->num_dims;
  int64_t n, rows, total;
  TF_Tensor* y;
  if (nd < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "logits must have >= 1 dimension, got %s", kutil_tshape(x, &sa));
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, nd);
  if (y == NULL) return;
  total = kutil_num_elements(x);
  if (total == 0) return;
  n = x->dims[nd - 1];
  rows = total / n;
  switch (x->dtype) {
    case TF_FLOAT:
      softmax_rows_f32((const float*)kutil_data(x), (float*)kutil_data(y),
                       rows, n, log_mode);
      return;
    case TF_DOUBLE:
      softmax_rows_f64((const double*)kutil_data(x), (double*)kutil_data(y),
                       rows, n, log_mode);
      return;
    case TF_HALF:
    case TF_BFLOAT16: {
      float* buf = (float*)tfe_malloc(sizeof(float) * (size_t)total * 2);
      const uint16_t* s = (const uint16_t*)kutil_data(x);
      uint16_t* d = (uint16_t*)kutil_data(y);
      int64_t i;
      int half = x->dtype == TF_HALF;
      if (buf == NULL) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in softmax");
        return;
      }
      for (i = 0; i < total; i++) {
        buf[i] = half ? kutil_f16_to_f32(s[i]) : kutil_bf16_to_f32(s[i]);
      }
      softmax_rows_f32(buf, buf + total, rows, n, log_mode);
      for (i = 0; i < total; i++) {
        d[i] = half ? kutil_f32_to_f16(buf[total + i])
                    : kutil_f32_to_bf16(buf[total + i]);
      }
      tfe_free(buf);
      return;
    }
    default:
      KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Softmax not supported for %s",
                 tfe_dtype_enum_name(x->dtype));
  }
}

static void k_softmax(tfe_kernel_context* k) { softmax_compute(k, 0); }
static void k_log_softmax(tfe_kernel_context* k) { softmax_compute(k, 1); }

/* -------------------------------------------------------------- L2Loss */

KUTIL_CLONES static double sumsq_f32(const float* x, int64_t n) {
  float acc[16];
  int64_t i = 0;
  int j;
  double total = 0;
  while (n - i >= 16) {
    int64_t end = n - i >= 4096 ? i + 4096 : i + (n - i) / 16 * 16;
    for (j = 0; j < 16; j++) acc[j] = 0;
    for (; i < end; i += 16) {
      for (j = 0; j < 16; j++) acc[j] += x[i + j] * x[i + j];
    }
    for (j = 0; j < 16; j++) total += acc[j];
  }
  for (; i < n; i++) total += (double)x[i] * x[i];
  return total;
}

static void k_l2_loss(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int64_t n = kutil_num_elements(x), i;
  double s = 0;
  TF_Tensor* y = tfe_kernel_alloc_output(k, 0, x->dtype, NULL, 0);
  if (y == NULL) return;
  switch (x->dtype) {
    case TF_FLOAT:
      s = sumsq_f32((const float*)kutil_data(x), n);
      *(float*)kutil_data(y) = (float)(s * 0.5);
      return;
    case TF_DOUBLE: {
      const double* d = (const double*)kutil_data(x);
      for (i = 0; i < n; i++) s += d[i] * d[i];
      *(double*)kutil_data(y) = s * 0.5;
      return;
    }
    case TF_HALF:
    case TF_BFLOAT16: {
      const uint16_t* d = (const uint16_t*)kutil_data(x);
      for (i = 0; i < n; i++) {
        double v = x->dtype == TF_HALF ? kutil_f16_to_f32(d[i])
                                       : kutil_bf16_to_f32(d[i]);
        s += v * v;
      }
      *(uint16_t*)kutil_data(y) = x->dtype == TF_HALF
                                      ? kutil_f32_to_f16((float)(s * 0.5))
                                      : kutil_f32_to_bf16((float)(s * 0.5));
      return;
    }
    default:
      KUTIL_FAIL(k, TF_UNIMPLEMENTED, "L2Loss not supported for %s",
                 tfe_dtype_enum_name(x->dtype));
  }
}

void tfe_register_reduce_nn_kernels(void) {
  static const TF_DataType fl[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT, TF_DOUBLE};
  tfe_kutil_register("Softmax", k_softmax, "T", fl, 4, NULL, NULL, 0);
  tfe_kutil_register("LogSoftmax", k_log_softmax, "T", fl, 4, NULL, NULL, 0);
  tfe_kutil_register("L2Loss", k_l2_loss, "T", fl, 4, NULL, NULL, 0);
}
