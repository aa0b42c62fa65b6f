/* CPU kernels that exist only to serve gradients, session 8:
 *
 * - IgammaGradA(a, x): d/da of the regularized lower incomplete gamma
 *   function P(a, x), broadcasting like the other binary special functions
 *   (Igamma's gradient with respect to a, csrc/eager/grad_more.c).
 * - SparseFillEmptyRowsGrad(reverse_index_map, grad_values): routes the
 *   gradient of SparseFillEmptyRows' output values back to the input
 *   values and to the default value (csrc/eager/grad_more2.c).
 *
 * Definitions and shape rules come from TF 2.21's generated registry. The
 * derivative is taken the way TF's CPU kernel takes it: the series and the
 * continued fraction that evaluate P(a, x) are differentiated term by term
 * with respect to a (forward mode), in the element type itself and with
 * the same stopping rules, so float results agree with TF's digits rather
 * than only with the true derivative's. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/elementwise_common.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/math_special.h"

void tfe_register_cpu_grad_support_kernels(void);

/* ------------------------------------------------------------------------
 * IgammaGradA. GS_IGAMMA_DA instantiates the scalar function for one
 * precision: S the suffix (f or d), T the type, LOG/EXP/LGAMMA/FABS its
 * libm functions, MAXV its largest finite value, EPS its epsilon and ITERS
 * the iteration cap TF uses for derivatives in that precision. */

static inline float gs_lgamma_f(float x) {
  int sign;
  return lgammaf_r(x, &sign);
}
static inline double gs_lgamma_d(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

#define GS_IGAMMA_DA(S, T, LOG, EXP, FABS, MAXV, EPS, BIG, ITERS)             \
  /* x^a e^-x / Gamma(a), or 0 when that underflows or is undefined. */     \
  static T gs_prefactor_##S(T a, T x) {                                      \
    T l = a * LOG(x) - x - gs_lgamma_##S(a);                                 \
    if (l < -LOG(MAXV) || isnan(l)) return 0;                                \
    return EXP(l);                                                           \
  }                                                                          \
                                                                             \
  /* d/da P(a, x) from the power series                                      \
   * P = x^a e^-x / Gamma(a + 1) * sum_k x^k / ((a+1)...(a+k)),              \
   * used when x <= 1 or x <= a. Each term c_k and its derivative dc_k are  \
   * updated together; the loop stops once dc_k no longer changes the sum. */ \
  static T gs_series_da_##S(T a, T x) {                                      \
    T pre = gs_prefactor_##S(a, x), r = a, c = 1, sum = 1, dc = 0, dsum = 0;  \
    T dlog;                                                                  \
    int i;                                                                   \
    if (pre == 0) return 0; /* P is flat (0) here: so is its derivative */  \
    pre /= a;                                                                \
    for (i = 0; i < ITERS; i++) {                                            \
      T f, df;                                                               \
      r += 1;                                                                \
      f = x / r;                                                             \
      df = -x / (r * r);                                                     \
      dc = f * dc + df * c;                                                  \
      dsum += dc;                                                            \
      c *= f;                                                                \
      sum += c;                                                              \
      if (FABS(dc) <= (EPS / 2) * FABS(dsum)) break;                         \
    }                                                                        \
    /* d/da log(x^a e^-x / Gamma(a + 1)) */                                  \
    dlog = LOG(x) - tfe_sp_digamma_##S(a + 1);                               \
    return sum * (pre * dlog) + dsum * pre;                                  \
  }                                                                          \
                                                                             \
  /* d/da Q(a, x) = -d/da P(a, x) from Q's continued fraction (x > 1 and    \
   * x > a): the convergents p_k / q_k follow the three-term recurrence and \
   * their derivatives follow its derivative (y = 1 - a and z = x + y + 1   \
   * both move with slope -1 in a). Stops once the derivative of the        \
   * fraction settles. */                                                    \
  static T gs_cf_da_##S(T a, T x) {                                          \
    T pre, y, z, c, p2, q2, p1, q1, frac, dp2, dq2, dp1, dq1, dfrac, dlog;   \
    int i;                                                                   \
    if (isinf(x)) return 0;                                                  \
    pre = gs_prefactor_##S(a, x);                                            \
    if (pre == 0) return 0;                                                  \
    y = 1 - a;                                                               \
    z = x + y + 1;                                                           \
    c = 0;                                                                   \
    p2 = 1;                                                                  \
    q2 = x;                                                                  \
    p1 = x + 1;                                                              \
    q1 = z * x;                                                              \
    frac = p1 / q1;                                                          \
    dp2 = 0;                                                                 \
    dq2 = 0;                                                                 \
    dp1 = 0;                                                                 \
    dq1 = -x;                                                                \
    dfrac = (dp1 - frac * dq1) / q1;                                         \
    for (i = 0; i < ITERS; i++) {                                            \
      T yc, pk, qk, dpk, dqk;                                                \
      c += 1;                                                                \
      y += 1;                                                                \
      z += 2;                                                                \
      yc = y * c;                                                            \
      pk = p1 * z - p2 * yc;                                                 \
      qk = q1 * z - q2 * yc;                                                 \
      dpk = dp1 * z - p1 - dp2 * yc + p2 * c;                                \
      dqk = dq1 * z - q1 - dq2 * yc + q2 * c;                                \
      if (qk != 0) {                                                         \
        T last = dfrac;                                                      \
        frac = pk / qk;                                                      \
        dfrac = (dpk - frac * dqk) / qk;                                     \
        if (FABS(dfrac - last) <= EPS / 2) break;                            \
      }                                                                      \
      p2 = p1;                                                               \
      p1 = pk;                                                               \
      q2 = q1;                                                               \
      q1 = qk;                                                               \
      dp2 = dp1;                                                             \
      dp1 = dpk;                                                             \
      dq2 = dq1;                                                             \
      dq1 = dqk;                                                             \
      if (FABS(pk) > BIG) {                                                  \
        /* keep the recurrence in range: a common factor cancels */          \
        p2 *= 1 / BIG;                                                       \
        p1 *= 1 / BIG;                                                       \
        q2 *= 1 / BIG;                                                       \
        q1 *= 1 / BIG;                                                       \
        dp2 *= 1 / BIG;                                                      \
        dp1 *= 1 / BIG;                                                      \
        dq2 *= 1 / BIG;                                                      \
        dq1 *= 1 / BIG;                                                      \
      }                                                                      \
    }                                                                        \
    dlog = LOG(x) - tfe_sp_digamma_##S(a);                                   \
    return frac * (pre * dlog) + dfrac * pre;                                \
  }                                                                          \
                                                                             \
  static T gs_igamma_da_##S(T a, T x) {                                      \
    if (x == 0) return 0;                                                    \
    if (x < 0 || a <= 0 || isnan(a) || isnan(x)) return (T)NAN;              \
    if (x > 1 && x > a) return -gs_cf_da_##S(a, x);                          \
    return gs_series_da_##S(a, x);                                           \
  }

/* BIG: where the recurrence is rescaled (1 / (eps / 2) for float, 1 / eps
 * for double, as the value kernels in math_special_kernels.c). */
GS_IGAMMA_DA(f, float, logf, expf, fabsf, FLT_MAX, FLT_EPSILON,
             (2.0f / FLT_EPSILON), 200)
GS_IGAMMA_DA(d, double, log, exp, fabs, DBL_MAX, DBL_EPSILON,
             (1.0 / DBL_EPSILON), 500)

TFE_EW_BINARY_T(igamma_grad_a_f32, float, float, float, TFE_EW_ID, TFE_EW_ID,
                gs_igamma_da_f(x, y))
TFE_EW_BINARY_T(igamma_grad_a_f64, double, double, double, TFE_EW_ID,
                TFE_EW_ID, gs_igamma_da_d(x, y))

static const tfe_ew_op k_igamma_grad_a = {
    "IgammaGradA", 2, 0, 5, TF_OK, NULL, NULL,
    {[TF_FLOAT] = igamma_grad_a_f32, [TF_DOUBLE] = igamma_grad_a_f64}, 1};

/* ------------------------------------------------------------------------
 * SparseFillEmptyRowsGrad(reverse_index_map [N] int64, grad_values
 * [N_full] T) -> (d_values [N], d_default_value scalar):
 * d_values[j] = grad_values[reverse_index_map[j]]; d_default_value sums
 * the grad_values no index of the map names (the rows the forward op
 * filled with the default value). Sums are taken in T (integers wrap,
 * half/bfloat16 round through float at each step). */

/* d_values[i] = grad_values[map[i]] for elements of one width (a plain
 * copy of the bits), marking each source position seen. */
#define GS_GATHER(TYPE)                                  \
  do {                                                   \
    const TYPE* src_ = (const TYPE*)kutil_data(gv);      \
    TYPE* dst_ = (TYPE*)kutil_data(dv);                  \
    for (i = 0; i < n; i++) {                            \
      dst_[i] = src_[map[i]];                            \
      seen[map[i]] = 1;                                  \
    }                                                    \
  } while (0)

/* The sum of the unseen grad_values, added one by one in the order of the
 * positions (as TF does) in the accumulator type ACC, stored as TYPE. */
#define GS_SUM(TYPE, ACC, LOAD, STORE)                   \
  do {                                                   \
    const TYPE* src_ = (const TYPE*)kutil_data(gv);      \
    TYPE acc_;                                           \
    STORE(acc_, (ACC)0);                                 \
    for (i = 0; i < n_full; i++) {                       \
      if (!seen[i]) {                                    \
        ACC v_ = (ACC)LOAD(acc_) + (ACC)LOAD(src_[i]);   \
        STORE(acc_, v_);                                 \
      }                                                  \
    }                                                    \
    *(TYPE*)kutil_data(dd) = acc_;                       \
  } while (0)

#define GS_LD(v) (v)
#define GS_ST(dst, v) ((dst) = (v))
#define GS_LD_F16(v) kutil_f16_to_f32(v)
#define GS_ST_F16(dst, v) ((dst) = kutil_f32_to_f16(v))
#define GS_LD_BF16(v) kutil_bf16_to_f32(v)
#define GS_ST_BF16(dst, v) ((dst) = kutil_f32_to_bf16(v))

static void k_sparse_fill_empty_rows_grad(tfe_kernel_context* k) {
  const TF_Tensor* rim = k->inputs[0];
  const TF_Tensor* gv = k->inputs[1];
  kutil_shape_buf b;
  int64_t n, n_full, i;
  TF_Tensor *dv, *dd;
  const int64_t* map;
  size_t esz;
  unsigned char* seen;
  if (rim->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "reverse_index_map must be a vector, saw: %s",
               kutil_tshape(rim, &b));
    return;
  }
  if (gv->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "grad_values must be a vector, saw: %s",
               kutil_tshape(gv, &b));
    return;
  }
  n = rim->dims[0];
  n_full = gv->dims[0];
  map = (const int64_t*)kutil_data(rim);
  for (i = 0; i < n; i++) {
    if (map[i] < 0 || map[i] >= n_full) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Elements in reverse index must be in [0, %lld) but got %lld",
                 (long long)n_full, (long long)map[i]);
      return;
    }
  }
  esz = kutil_esize(gv->dtype);
  dv = tfe_kernel_alloc_output(k, 0, gv->dtype, &n, 1);
  if (dv == NULL) return;
  dd = tfe_kernel_alloc_output(k, 1, gv->dtype, NULL, 0);
  if (dd == NULL) return;
  /* one flag per grad_values position (at least one byte to allocate) */
  seen = (unsigned char*)tfe_calloc((size_t)(n_full > 0 ? n_full : 1), 1);
  if (seen == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "SparseFillEmptyRowsGrad: out of memory");
    return;
  }
  switch (esz) {
    case 1: GS_GATHER(uint8_t); break;
    case 2: GS_GATHER(uint16_t); break;
    case 4: GS_GATHER(uint32_t); break;
    case 8: GS_GATHER(uint64_t); break;
    default: {
      const char* src = (const char*)kutil_data(gv);
      char* dst = (char*)kutil_data(dv);
      for (i = 0; i < n; i++) {
        memcpy(dst + (size_t)i * esz, src + (size_t)map[i] * esz, esz);
        seen[map[i]] = 1;
      }
    }
  }
  switch (gv->dtype) {
    case TF_FLOAT: GS_SUM(float, float, GS_LD, GS_ST); break;
    case TF_DOUBLE: GS_SUM(double, double, GS_LD, GS_ST); break;
    case TF_HALF: GS_SUM(uint16_t, float, GS_LD_F16, GS_ST_F16); break;
    case TF_BFLOAT16: GS_SUM(uint16_t, float, GS_LD_BF16, GS_ST_BF16); break;
    /* integers wrap: add in the unsigned type of the same width */
    case TF_INT8:
    case TF_UINT8: GS_SUM(uint8_t, uint32_t, GS_LD, GS_ST); break;
    case TF_INT16:
    case TF_UINT16: GS_SUM(uint16_t, uint32_t, GS_LD, GS_ST); break;
    case TF_INT32:
    case TF_UINT32: GS_SUM(uint32_t, uint32_t, GS_LD, GS_ST); break;
    case TF_INT64:
    case TF_UINT64: GS_SUM(uint64_t, uint64_t, GS_LD, GS_ST); break;
    case TF_COMPLEX64: GS_SUM(tfe_c64, tfe_c64, GS_LD, GS_ST); break;
    case TF_COMPLEX128: GS_SUM(tfe_c128, tfe_c128, GS_LD, GS_ST); break;
    default:
      KUTIL_FAIL(k, TF_UNIMPLEMENTED, "SparseFillEmptyRowsGrad: unsupported dtype %d",
                 (int)gv->dtype);
  }
  tfe_free(seen);
}

void tfe_register_cpu_grad_support_kernels(void) {
  static const TF_DataType num[] = {KUTIL_NUMBER_TYPES};
  tfe_ew_register(&k_igamma_grad_a);
  tfe_kutil_register("SparseFillEmptyRowsGrad", k_sparse_fill_empty_rows_grad, "T", num,
                     KUTIL_COUNT(num), NULL, NULL, 0);
}
