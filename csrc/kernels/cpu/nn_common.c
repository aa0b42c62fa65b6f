/* Helpers shared by the neural-network kernels (see nn_common.h). */
#include "kernels/cpu/nn_common.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/blas.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/matmul_gemm.h"

static int read_ints(const tfe_kernel_context* k, const char* name,
                     const int64_t** v, int* n) {
  *v = NULL;
  *n = 0;
  if (k->attrs == NULL) return 0;
  return tfe_attrs_get_int_list(k->attrs, name, v, n, NULL);
}

static const char* read_str(const tfe_kernel_context* k, const char* name,
                            const char* dflt) {
  const char* s = NULL;
  size_t len = 0;
  if (k->attrs == NULL || !tfe_attrs_get_string(k->attrs, name, &s, &len,
                                                NULL)) {
    return dflt;
  }
  return s;
}

int nn_read_conv_window(tfe_kernel_context* k, const char* op, nn_window* w,
                        int check_dilations) {
  const int64_t *st, *dl, *ep;
  int nst, ndl, nep;
  const char* fmt = read_str(k, "data_format", "NHWC");
  const char* pad = read_str(k, "padding", "VALID");
  memset(w, 0, sizeof *w);
  /* strides and dilations are int32 lists in TF (explicit_paddings is
   * int64). */
  if (!kutil_attr_int32_list(k, "strides", &st, &nst)) return 0;
  if (nst != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window strides field must specify 4 dimensions");
    return 0;
  }
  if (strcmp(fmt, "NHWC") != 0) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "The %s op currently only supports the NHWC tensor format on "
               "the CPU. The op was given the format: %s",
               op, fmt);
    return 0;
  }
  if (st[0] != 1 || st[3] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Current implementation does not yet support strides in the "
               "batch and depth dimensions.");
    return 0;
  }
  if (st[1] <= 0 || st[2] <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Row and column strides should be larger than 0.");
    return 0;
  }
  w->stride_h = st[1];
  w->stride_w = st[2];
  w->dil_h = w->dil_w = 1;
  if (check_dilations && read_ints(k, "dilations", &dl, &ndl)) {
    if (!kutil_attr_int32_list(k, "dilations", &dl, &ndl)) return 0;
    if (ndl != 4) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Sliding window dilations field must specify 4 dimensions");
      return 0;
    }
    if (dl[0] != 1 || dl[3] != 1) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "Current implementation does not yet support dilations in "
                 "the batch and depth dimensions.");
      return 0;
    }
    if (dl[1] <= 0 || dl[2] <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Dilated rates should be larger than 0.");
      return 0;
    }
    w->dil_h = dl[1];
    w->dil_w = dl[2];
  }
  w->padding = strcmp(pad, "SAME") == 0    ? NN_PAD_SAME
               : strcmp(pad, "EXPLICIT") == 0 ? NN_PAD_EXPLICIT
                                              : NN_PAD_VALID;
  read_ints(k, "explicit_paddings", &ep, &nep);
  if (w->padding == NN_PAD_EXPLICIT) {
    int i;
    if (nep != 8) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "explicit_paddings attribute must contain 8 values, but "
                 "got: %d",
                 nep);
      return 0;
    }
    for (i = 0; i < 8; i++) {
      if (ep[i] < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "All elements of explicit_paddings must be nonnegative");
        return 0;
      }
    }
    if (ep[0] != 0 || ep[1] != 0 || ep[6] != 0 || ep[7] != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Nonzero explicit padding in the batch or depth dimensions "
                 "is not supported");
      return 0;
    }
    w->pad_top = ep[2];
    w->pad_bottom = ep[3];
    w->pad_left = ep[4];
    w->pad_right = ep[5];
  } else if (nep != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "explicit_paddings attribute must be empty if the padding "
               "attribute is not EXPLICIT");
    return 0;
  }
  return 1;
}

int nn_out_size(tfe_kernel_context* k, int64_t in, int64_t ksize,
                int64_t dilation, int64_t stride, nn_padding pad,
                int64_t explicit_before, int64_t explicit_after,
                int64_t* out, int64_t* pad_before) {
  /* Every operand may come from a user (dims, int32 attrs, int64
   * explicit paddings): all arithmetic is checked. */
  int64_t eff, t;
  int ok;
  if (stride <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Stride must be > 0, but got %lld",
               (long long)stride);
    return 0;
  }
  ok = tfe_checked_sub_i64(ksize, 1, &eff) &&
       tfe_checked_mul_i64(eff, dilation, &eff) &&
       tfe_checked_add_i64(eff, 1, &eff);
  if (ok) {
    switch (pad) {
      case NN_PAD_VALID:
        ok = tfe_checked_sub_i64(in, eff, &t) &&
             tfe_checked_add_i64(t, stride, &t);
        if (ok) *out = t / stride;
        *pad_before = 0;
        break;
      case NN_PAD_SAME: {
        int64_t total = 0;
        ok = tfe_checked_add_i64(in, stride - 1, &t);
        if (!ok) break;
        *out = t / stride;
        ok = tfe_checked_mul_i64(*out - 1, stride, &total) &&
             tfe_checked_add_i64(total, eff, &total) &&
             tfe_checked_sub_i64(total, in, &total);
        if (total < 0) total = 0;
        *pad_before = total / 2;
        break;
      }
      case NN_PAD_EXPLICIT:
        ok = tfe_checked_add_i64(in, explicit_before, &t) &&
             tfe_checked_add_i64(t, explicit_after, &t) &&
             tfe_checked_sub_i64(t, eff, &t) &&
             tfe_checked_add_i64(t, stride, &t);
        if (ok) *out = t / stride;
        *pad_before = explicit_before;
        break;
    }
  }
  if (!ok) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Computed output size overflows [input_size: %lld, "
               "filter_size: %lld, dilation: %lld, stride: %lld, padding: "
               "%lld + %lld]",
               (long long)in, (long long)ksize, (long long)dilation,
               (long long)stride, (long long)explicit_before,
               (long long)explicit_after);
    return 0;
  }
  if (*out < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Computed output size would be negative: %lld [input_size: "
               "%lld, effective_filter_size: %lld, stride: %lld]",
               (long long)*out, (long long)in, (long long)eff,
               (long long)stride);
    return 0;
  }
  return 1;
}

int nn_work_is_double(TF_DataType dt) {
  return dt == TF_DOUBLE || dt == TF_INT32 || dt == TF_INT64;
}

void* nn_to_work(const TF_Tensor* t, int is_double, int* owned) {
  int64_t n = kutil_num_elements(t), i;
  const void* d = kutil_data(t);
  void* w;
  *owned = 0;
  if ((!is_double && t->dtype == TF_FLOAT) ||
      (is_double && t->dtype == TF_DOUBLE)) {
    return (void*)d;
  }
  w = tfe_malloc((size_t)(n > 0 ? n : 1) * (is_double ? 8 : 4));
  if (w == NULL) return NULL;
  *owned = 1;
  for (i = 0; i < n; i++) {
    double v;
    switch (t->dtype) {
      case TF_FLOAT: v = ((const float*)d)[i]; break;
      case TF_DOUBLE: v = ((const double*)d)[i]; break;
      case TF_HALF: v = kutil_f16_to_f32(((const uint16_t*)d)[i]); break;
      case TF_BFLOAT16: v = kutil_bf16_to_f32(((const uint16_t*)d)[i]); break;
      default: v = (double)kutil_get_int(t, i); break;
    }
    if (is_double) {
      ((double*)w)[i] = v;
    } else {
      ((float*)w)[i] = (float)v;
    }
  }
  return w;
}

void nn_from_work(TF_Tensor* t, const void* work, int is_double, int64_t n) {
  void* d = kutil_data(t);
  int64_t i;
  if ((!is_double && t->dtype == TF_FLOAT) ||
      (is_double && t->dtype == TF_DOUBLE)) {
    if (d != work && n > 0) memcpy(d, work, (size_t)n * (is_double ? 8 : 4));
    return;
  }
  for (i = 0; i < n; i++) {
    double v = is_double ? ((const double*)work)[i]
                         : (double)((const float*)work)[i];
    switch (t->dtype) {
      case TF_FLOAT: ((float*)d)[i] = (float)v; break;
      case TF_DOUBLE: ((double*)d)[i] = v; break;
      case TF_HALF: ((uint16_t*)d)[i] = kutil_f32_to_f16((float)v); break;
      case TF_BFLOAT16: ((uint16_t*)d)[i] = kutil_f32_to_bf16((float)v); break;
      case TF_INT32: ((int32_t*)d)[i] = (int32_t)(int64_t)llround(v); break;
      case TF_INT64: ((int64_t*)d)[i] = (int64_t)llround(v); break;
      case TF_INT8: ((int8_t*)d)[i] = (int8_t)llround(v); break;
      case TF_INT16: ((int16_t*)d)[i] = (int16_t)llround(v); break;
      case TF_UINT8: ((uint8_t*)d)[i] = (uint8_t)llround(v); break;
      case TF_UINT16: ((uint16_t*)d)[i] = (uint16_t)llround(v); break;
      case TF_UINT32: ((uint32_t*)d)[i] = (uint32_t)llround(v); break;
      case TF_UINT64: ((uint64_t*)d)[i] = (uint64_t)llround(v); break;
      default: break;
    }
  }
}

int nn_have_blas(void) { return tfe_blas_available(); }

int nn_gemm(int is_double, int ta, int tb, int64_t M, int64_t N, int64_t K,
            const void* A, int64_t lda, const void* B, int64_t ldb, void* C,
            int64_t ldc) {
  if (M <= 0 || N <= 0) return 1;
  if (K <= 0) {
    int64_t i;
    for (i = 0; i < M; i++) {
      memset((char*)C + (size_t)(i * ldc) * (is_double ? 8 : 4), 0,
             (size_t)N * (is_double ? 8 : 4));
    }
    return 1;
  }
  if (is_double) {
    if (tfe_blas_dgemm(ta, tb, M, N, K, (const double*)A, lda,
                       (const double*)B, ldb, (double*)C, ldc)) {
      return 1;
    }
    return tfe_gemm_f64(ta, tb, M, N, K, (const double*)A, lda,
                        (const double*)B, ldb, (double*)C, ldc);
  }
  if (tfe_blas_sgemm(ta, tb, M, N, K, (const float*)A, lda, (const float*)B,
                     ldb, (float*)C, ldc)) {
    return 1;
  }
  return tfe_gemm_f32(ta, tb, M, N, K, (const float*)A, lda, (const float*)B,
                      ldb, (float*)C, ldc);
}

/* ---- float exp/log/sum in TensorFlow's evaluation order ---- */

/* exp(x) = 2^m * exp(r), m = floor(x * log2(e) + 1/2), r = x - m ln 2
 * (ln 2 in two pieces), exp(r) from a degree-6 polynomial evaluated as an
 * even and an odd part; each product and sum rounded on its own. */
float nn_tf_expf_packet(float x) {
  const float hi = 88.723f, lo = -104.0f;
  float xc, m, r, r2, pe, po, pl, y;
  if (isnan(x)) return x;
  xc = x < hi ? x : hi;
  m = floorf(xc * 1.44269504088896341f + 0.5f);
  r = m * -0.693359375f + xc;
  r = m * 2.12194440e-4f + r;
  r2 = r * r;
  pe = r2 * 1.37449637986719608306884765625e-3f + 4.166965186595916748046875e-2f;
  po = r2 * 8.36894474923610687255859375e-3f + 0.16666518151760101318359375f;
  pe = r2 * pe + 0.49999988079071044921875f;
  pl = r + 1.0f;
  y = r * po + pe;
  y = r2 * y + pl;
  if (fabsf(xc) <= 87.0f) {
    /* 2^m built in the exponent bits (m + 127 stays in 0..255 here) */
    int e = (int)m + 127;
    uint32_t bits;
    float scale;
    if (e < 0) e = 0;
    if (e > 255) e = 255;
    bits = (uint32_t)e << 23;
    memcpy(&scale, &bits, 4);
    y = y * scale;
  } else {
    if (x < lo) return 0.0f;
    y = ldexpf(y, (int)m);
  }
  return y > x ? y : x;
}

/* log(x) = e ln 2 + log(1 + f) with the mantissa moved to
 * [sqrt(1/2), sqrt(2)), log(1 + f) from a rational function. */
float nn_tf_logf_packet(float x) {
  int e2;
  float f, e, p, q;
  if (isnan(x) || x < 0.0f) return NAN;
  if (x == 0.0f) return -INFINITY;
  if (isinf(x)) return x;
  f = frexpf(x, &e2); /* f in [0.5, 1) */
  e = (float)e2;
  if (f < 0.707106781186547524f) {
    e = e - 1.0f;
    f = (f - 1.0f) + f;
  } else {
    f = f - 1.0f;
  }
  p = 0.18256296349849254f * f + 1.0000000190281063f;
  p = p * f + 1.0000000190281136f;
  p = f * p;
  q = 0.049616247954120038f * f + 0.59923249590823520f;
  q = q * f + 1.4999999999999927f;
  q = q * f + 1.0f;
  f = p / q;
  return e * 0.693147180559945309f + f;
}

/* The packet exp over a span, written without calls or branches so that
 * it vectorizes (the operations and their rounding are those of
 * nn_tf_expf_packet: no multiply-add is fused, the build is ISO C). Valid
 * for |x| <= 87; the caller redoes the other elements. */
KUTIL_CLONES static uint32_t tf_exp_packet_span(const float* x, float* y, int64_t n) {
  int64_t i;
  uint32_t bad = 0;
  /* For |x| <= 87 the clamps and the final max of nn_tf_expf_packet have
   * no effect (exp(x) > x) and 2^m is a normal float. Elements outside
   * that range (and NaN) are computed from 0 here and redone by the
   * caller. floor is taken with integer operations (a float compare or
   * floorf would keep GCC from vectorizing the loop). */
  for (i = 0; i < n; i++) {
    uint32_t xb, db, ok, bits;
    int32_t it, mi;
    float xs, v, d, m, r, r2, pe, po, pl, yy, scale;
    memcpy(&xb, &x[i], 4);
    ok = (xb & 0x7fffffffu) <= 0x42AE0000u; /* |x| <= 87 */
    bad |= ok ^ 1u;
    xb &= 0u - ok;
    memcpy(&xs, &xb, 4);
    v = xs * 1.44269504088896341f + 0.5f;
    it = (int32_t)v; /* |v| < 127.1 */
    d = v - (float)it;
    memcpy(&db, &d, 4);
    mi = it - (int32_t)((db >> 31) & (uint32_t)((db & 0x7fffffffu) != 0));
    m = (float)mi;
    r = m * -0.693359375f + xs;
    r = m * 2.12194440e-4f + r;
    r2 = r * r;
    pe = r2 * 1.37449637986719608306884765625e-3f + 4.166965186595916748046875e-2f;
    po = r2 * 8.36894474923610687255859375e-3f + 0.16666518151760101318359375f;
    pe = r2 * pe + 0.49999988079071044921875f;
    pl = r + 1.0f;
    yy = r * po + pe;
    yy = r2 * yy + pl;
    bits = (uint32_t)(mi + 127) << 23;
    memcpy(&scale, &bits, 4);
    y[i] = yy * scale;
  }
  return bad;
}

void nn_tf_exp_span(const float* x, float* y, int64_t n, int64_t first, int64_t packet_end) {
  int64_t np = packet_end - first, i;
  if (np < 0) np = 0;
  if (np > n) np = n;
  if (tf_exp_packet_span(x, y, np)) {
    for (i = 0; i < np; i++) {
      if (!(fabsf(x[i]) <= 87.0f)) y[i] = nn_tf_expf_packet(x[i]);
    }
  }
  for (i = np; i < n; i++) y[i] = expf(x[i]);
}

float nn_tf_expf(float x, int64_t index, int64_t packet_end) {
  return index < packet_end ? nn_tf_expf_packet(x) : expf(x);
}

float nn_tf_logf(float x, int64_t index, int64_t packet_end) {
  return index < packet_end ? nn_tf_logf_packet(x) : logf(x);
}

float nn_tf_sumf(const float* v, int64_t first, int64_t n) {
  float p[4][8], tail = 0.0f, l[4];
  int64_t start = 0, j;
  int i, q;
  if (n > 8 * 1024) {
    /* split at a packet boundary near the middle, as Eigen does */
    int64_t half = (n + 1) / 2;
    int64_t split = 8 * ((first + half + 7) / 8);
    int64_t left = split - first < n ? split - first : n;
    float s = 0.0f + nn_tf_sumf(v, first, left);
    if (left < n) s = s + nn_tf_sumf(v + left, split, n - left);
    return s;
  }
  for (q = 0; q < 4; q++) {
    for (i = 0; i < 8; i++) p[q][i] = 0.0f;
  }
  if (n >= 32) {
    /* four 8-lane accumulators over blocks of 32, folded into the first */
    int64_t end4 = n / 32 * 32;
    for (j = 0; j < end4; j += 32) {
      for (q = 0; q < 4; q++) {
        for (i = 0; i < 8; i++) p[q][i] += v[j + 8 * q + i];
      }
    }
    for (q = 1; q < 4; q++) {
      for (i = 0; i < 8; i++) p[0][i] += p[q][i];
    }
    start = end4;
  }
  if (n - start >= 8) {
    int64_t end = n / 8 * 8;
    for (j = start; j < end; j += 8) {
      for (i = 0; i < 8; i++) p[0][i] += v[j + i];
    }
    start = end;
  }
  for (j = start; j < n; j++) tail += v[j];
  for (i = 0; i < 4; i++) l[i] = p[0][i] + p[0][i + 4];
  return tail + ((l[0] + l[2]) + (l[1] + l[3]));
}
