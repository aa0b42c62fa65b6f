/* CPU kernels: special math functions and math ops of tf.math not in the
 * older groups: Igamma, Igammac, Zeta, Polygamma (broadcasting binary ops),
 * Betainc (scalars broadcast against one common shape), EuclideanNorm (a
 * reduction) and ApproxTopK (TF's CPU kernel: an exact top-k over the last
 * dimension).
 *
 * The scalar functions follow the algorithms TensorFlow's CPU kernels use
 * (Cephes' power series and continued fractions as Eigen evaluates them),
 * in the element type itself, so that float results match TF's digits and
 * not only their accuracy; edge cases (zeros, infinities, NaN, poles) give
 * what TF gives. Only float and double have kernels, as in TF (its Igamma
 * and Igammac half/bfloat16 kernels exist for XLA only). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/elementwise_common.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/math_special.h"

void tfe_register_cpu_math_special_kernels(void);

/* ------------------------------------------------------------------------
 * Scalar functions. SP_DEFINE instantiates the ones whose algorithm is the
 * same for both precisions; S is the suffix (f or d), T the type and the
 * remaining arguments the libm functions and constants of that type. */

/* Half the machine epsilon: 1 - MACHEP rounds to 1. */
#define SP_MACHEP_f (FLT_EPSILON / 2)
#define SP_MACHEP_d (DBL_EPSILON / 2)
/* Rescaling thresholds of the continued fractions. */
#define SP_BIG_f (1.0f / (FLT_EPSILON / 2))
#define SP_BIGINV_f (FLT_EPSILON / 2)
#define SP_BIG_d (1.0 / DBL_EPSILON)
#define SP_BIGINV_d DBL_EPSILON

static inline float sp_lgamma_f(float x) {
  int sign;
  return lgammaf_r(x, &sign);
}
static inline double sp_lgamma_d(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

/* Asymptotic tail of digamma for s >= 10: sum of B_2k / (2k s^2k) as a
 * polynomial in 1/s^2 (float keeps the first four terms). */
static inline float sp_digamma_tail_f(float s) {
  float z, p;
  if (!(s < 1.0e8f)) return 0.0f;
  z = 1.0f / (s * s);
  p = -1.0f / 240.0f;
  p = p * z + 1.0f / 252.0f;
  p = p * z - 1.0f / 120.0f;
  p = p * z + 1.0f / 12.0f;
  return z * p;
}
static inline double sp_digamma_tail_d(double s) {
  double z, p;
  if (!(s < 1.0e17)) return 0.0;
  z = 1.0 / (s * s);
  p = 1.0 / 12.0;
  p = p * z - 691.0 / 32760.0;
  p = p * z + 1.0 / 132.0;
  p = p * z - 1.0 / 240.0;
  p = p * z + 1.0 / 252.0;
  p = p * z - 1.0 / 120.0;
  p = p * z + 1.0 / 12.0;
  return z * p;
}

/* (2k)! / B_2k for k = 1..12: the Euler-Maclaurin correction terms of the
 * Hurwitz zeta function. */
static const double k_zeta_coef[12] = {
    12.0,
    -720.0,
    30240.0,
    -1209600.0,
    47900160.0,
    -1.8924375803183791606e9,
    7.47242496e10,
    -2.950130727918164224e12,
    1.1646782814350067249e14,
    -4.5979787224074726105e15,
    1.8152105401943546773e17,
    -7.1661652561756670113e18,
};

#define SP_DEFINE(S, T, LOG, EXP, POW, FLOOR, RINT, TAN, FABS, MAXV, PI)      \
  T tfe_sp_digamma_##S(T x) {                                                 \
    T p, nz = 0, s, w, y;                                                     \
    int negative = 0;                                                         \
    if (x <= 0) {                                                             \
      /* reflection: psi(x) = psi(1 - x) - pi / tan(pi x) */                  \
      negative = 1;                                                           \
      p = FLOOR(x);                                                           \
      if (p == x) return (T)NAN;                                              \
      nz = x - p;                                                             \
      if (nz != (T)0.5) {                                                     \
        if (nz > (T)0.5) {                                                    \
          p += 1;                                                             \
          nz = x - p;                                                         \
        }                                                                     \
        nz = PI / TAN(PI * nz);                                               \
      } else {                                                                \
        nz = 0;                                                               \
      }                                                                       \
      x = 1 - x;                                                              \
    }                                                                         \
    /* psi(x + 1) = psi(x) + 1 / x until the asymptotic series applies */    \
    s = x;                                                                    \
    w = 0;                                                                    \
    while (s < 10) {                                                          \
      w += 1 / s;                                                             \
      s += 1;                                                                 \
    }                                                                         \
    y = sp_digamma_tail_##S(s);                                               \
    y = LOG(s) - ((T)0.5 / s) - y - w;                                        \
    return negative ? y - nz : y;                                             \
  }                                                                           \
                                                                              \
  /* x^a e^-x / Gamma(a), or 0 when it underflows or is undefined. */        \
  static T sp_igamma_term_##S(T a, T x) {                                     \
    T logax = a * LOG(x) - x - sp_lgamma_##S(a);                              \
    if (logax < -LOG(MAXV) || isnan(logax)) return 0;                         \
    return EXP(logax);                                                        \
  }                                                                           \
                                                                              \
  /* Lower regularized gamma by its power series (x < a or x <= 1). */       \
  static T sp_igamma_series_##S(T a, T x) {                                   \
    T ax = sp_igamma_term_##S(a, x), r, c, ans;                               \
    int i;                                                                    \
    if (ax == 0) return 0;                                                    \
    ax /= a;                                                                  \
    r = a;                                                                    \
    c = 1;                                                                    \
    ans = 1;                                                                  \
    for (i = 0; i < 2000; i++) {                                              \
      r += 1;                                                                 \
      c *= x / r;                                                             \
      ans += c;                                                               \
      if (c <= SP_MACHEP_##S * ans) break;                                    \
    }                                                                         \
    return ans * ax;                                                          \
  }                                                                           \
                                                                              \
  /* Upper regularized gamma by its continued fraction (x > a, x > 1). */    \
  static T sp_igammac_cf_##S(T a, T x) {                                      \
    T ax, y, z, c, pkm2, qkm2, pkm1, qkm1, ans;                               \
    int i;                                                                    \
    if (isinf(x)) return 0;                                                   \
    ax = sp_igamma_term_##S(a, x);                                            \
    if (ax == 0) return 0;                                                    \
    y = 1 - a;                                                                \
    z = x + y + 1;                                                            \
    c = 0;                                                                    \
    pkm2 = 1;                                                                 \
    qkm2 = x;                                                                 \
    pkm1 = x + 1;                                                             \
    qkm1 = z * x;                                                             \
    ans = pkm1 / qkm1;                                                        \
    for (i = 0; i < 2000; i++) {                                              \
      T yc, pk, qk;                                                           \
      c += 1;                                                                 \
      y += 1;                                                                 \
      z += 2;                                                                 \
      yc = y * c;                                                             \
      pk = pkm1 * z - pkm2 * yc;                                              \
      qk = qkm1 * z - qkm2 * yc;                                              \
      if (qk != 0) {                                                          \
        T prev = ans;                                                         \
        ans = pk / qk;                                                        \
        if (FABS(prev - ans) <= SP_MACHEP_##S * FABS(ans)) break;             \
      }                                                                       \
      pkm2 = pkm1;                                                            \
      pkm1 = pk;                                                              \
      qkm2 = qkm1;                                                            \
      qkm1 = qk;                                                              \
      if (FABS(pk) > SP_BIG_##S) {                                            \
        pkm2 *= SP_BIGINV_##S;                                                \
        pkm1 *= SP_BIGINV_##S;                                                \
        qkm2 *= SP_BIGINV_##S;                                                \
        qkm1 *= SP_BIGINV_##S;                                                \
      }                                                                       \
    }                                                                         \
    return ans * ax;                                                          \
  }                                                                           \
                                                                              \
  T tfe_sp_igamma_##S(T a, T x) {                                             \
    if (x == 0) return 0;                                                     \
    if (x < 0 || a <= 0 || isnan(a) || isnan(x)) return (T)NAN;               \
    if (x > 1 && x > a) return 1 - sp_igammac_cf_##S(a, x);                   \
    return sp_igamma_series_##S(a, x);                                        \
  }                                                                           \
                                                                              \
  T tfe_sp_igammac_##S(T a, T x) {                                            \
    if (x < 0 || a <= 0 || isnan(a) || isnan(x)) return (T)NAN;               \
    if (x < 1 || x < a) return 1 - sp_igamma_series_##S(a, x);                \
    return sp_igammac_cf_##S(a, x);                                           \
  }                                                                           \
                                                                              \
  /* Hurwitz zeta: direct sum of the first terms, then Euler-Maclaurin. */   \
  T tfe_sp_zeta_##S(T x, T q) {                                               \
    T a, b, k, s, t, w;                                                       \
    int i, done = 0;                                                          \
    if (x == 1) return (T)INFINITY;                                           \
    if (x < 1) return (T)NAN;                                                 \
    if (q <= 0) {                                                             \
      if (q == FLOOR(q)) {                                                    \
        /* a pole of the terms: +inf for even x, undefined otherwise */       \
        return RINT((T)0.5 * x) == (T)0.5 * x ? (T)INFINITY : (T)NAN;         \
      }                                                                       \
      if (x != FLOOR(x)) return (T)NAN; /* q^-x is not real */                \
    }                                                                         \
    s = POW(q, -x);                                                           \
    a = q;                                                                    \
    b = 0;                                                                    \
    for (i = 0; SP_ZETA_MORE_##S(i, a); ) {                                   \
      i++;                                                                    \
      a += 1;                                                                 \
      b = POW(a, -x);                                                         \
      s += b;                                                                 \
      if (FABS(b / s) < SP_MACHEP_##S) {                                      \
        done = 1;                                                             \
        break;                                                                \
      }                                                                       \
    }                                                                         \
    if (done || b == 0) return s;                                             \
    w = a;                                                                    \
    s += b * w / (x - 1);                                                     \
    s -= (T)0.5 * b;                                                          \
    a = 1;                                                                    \
    k = 0;                                                                    \
    for (i = 0; i < 12; i++) {                                                \
      a *= x + k;                                                             \
      b /= w;                                                                 \
      t = a * b / (T)k_zeta_coef[i];                                          \
      s = s + t;                                                              \
      t = FABS(t / s);                                                        \
      if (t < SP_MACHEP_##S) break;                                           \
      k += 1;                                                                 \
      a *= x + k;                                                             \
      b /= w;                                                                 \
      k += 1;                                                                 \
    }                                                                         \
    return s;                                                                 \
  }                                                                           \
                                                                              \
  /* psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for integer n >= 1. */         \
  T tfe_sp_polygamma_##S(T n, T x) {                                          \
    T nplus = n + 1, factorial;                                               \
    if (FLOOR(n) != n || n < 0) return (T)NAN;                                \
    if (n == 0) return tfe_sp_digamma_##S(x);                                 \
    factorial = EXP(sp_lgamma_##S(nplus));                                    \
    return POW((T)-1, nplus) * factorial * tfe_sp_zeta_##S(nplus, x);         \
  }

/* The direct sum of zeta runs 9 terms in float; in double it also runs
 * until the term index passes 9. */
#define SP_ZETA_MORE_f(i, a) ((i) < 9)
#define SP_ZETA_MORE_d(i, a) ((i) < 9 || (a) <= 9.0)

SP_DEFINE(f, float, logf, expf, powf, floorf, rintf, tanf, fabsf, FLT_MAX,
          3.14159265358979323846f)
SP_DEFINE(d, double, log, exp, pow, floor, rint, tan, fabs, DBL_MAX,
          3.14159265358979323846)

/* The continued fraction of the incomplete beta function (two forms:
 * small_branch for x below the mean, the other in terms of x / (1 - x)). */
#define SP_INCBETA_CFE(S, T, FABS, ITERS, THRESH)                              \
  static T sp_incbeta_cfe_##S(T a, T b, T x, int small_branch) {              \
    T xk, pk, pkm1, pkm2, qk, qkm1, qkm2, k1, k2, k3, k4, k5, k6, k7, k8, kd; \
    T ans, r;                                                                 \
    int n = 0;                                                                \
    if (small_branch) {                                                       \
      k1 = a;                                                                 \
      k2 = a + b;                                                             \
      k3 = a;                                                                 \
      k4 = a + 1;                                                             \
      k5 = 1;                                                                 \
      k6 = b - 1;                                                             \
      k7 = k4;                                                                \
      k8 = a + 2;                                                             \
      kd = 1;                                                                 \
    } else {                                                                  \
      k1 = a;                                                                 \
      k2 = b - 1;                                                             \
      k3 = a;                                                                 \
      k4 = a + 1;                                                             \
      k5 = 1;                                                                 \
      k6 = a + b;                                                             \
      k7 = a + 1;                                                             \
      k8 = a + 2;                                                             \
      kd = -1;                                                                \
      x = x / (1 - x);                                                        \
    }                                                                         \
    pkm2 = 0;                                                                 \
    qkm2 = 1;                                                                 \
    pkm1 = 1;                                                                 \
    qkm1 = 1;                                                                 \
    ans = 1;                                                                  \
    do {                                                                      \
      xk = -(x * k1 * k2) / (k3 * k4);                                        \
      pk = pkm1 + pkm2 * xk;                                                  \
      qk = qkm1 + qkm2 * xk;                                                  \
      pkm2 = pkm1;                                                            \
      pkm1 = pk;                                                              \
      qkm2 = qkm1;                                                            \
      qkm1 = qk;                                                              \
      xk = (x * k5 * k6) / (k7 * k8);                                         \
      pk = pkm1 + pkm2 * xk;                                                  \
      qk = qkm1 + qkm2 * xk;                                                  \
      pkm2 = pkm1;                                                            \
      pkm1 = pk;                                                              \
      qkm2 = qkm1;                                                            \
      qkm1 = qk;                                                              \
      if (qk != 0) {                                                          \
        r = pk / qk;                                                          \
        if (FABS(ans - r) < FABS(r) * (THRESH)) return r;                     \
        ans = r;                                                              \
      }                                                                       \
      k1 += 1;                                                                \
      k2 += kd;                                                               \
      k3 += 2;                                                                \
      k4 += 2;                                                                \
      k5 += 1;                                                                \
      k6 -= kd;                                                               \
      k7 += 2;                                                                \
      k8 += 2;                                                                \
      if (FABS(qk) + FABS(pk) > SP_BIG_##S) {                                 \
        pkm2 *= SP_BIGINV_##S;                                                \
        pkm1 *= SP_BIGINV_##S;                                                \
        qkm2 *= SP_BIGINV_##S;                                                \
        qkm1 *= SP_BIGINV_##S;                                                \
      }                                                                       \
      if (FABS(qk) < SP_BIGINV_##S || FABS(pk) < SP_BIGINV_##S) {             \
        pkm2 *= SP_BIG_##S;                                                   \
        pkm1 *= SP_BIG_##S;                                                   \
        qkm2 *= SP_BIG_##S;                                                   \
        qkm1 *= SP_BIG_##S;                                                   \
      }                                                                       \
    } while (++n < (ITERS));                                                  \
    return ans;                                                               \
  }

SP_INCBETA_CFE(f, float, fabsf, 100, SP_MACHEP_f)
SP_INCBETA_CFE(d, double, fabs, 300, 3 * SP_MACHEP_d)

/* float: power series for small b * x / a. */
static float sp_incbps_f(float a, float b, float x) {
  float t, u, y, s;
  y = a * logf(x) + (b - 1.0f) * log1pf(-x) - logf(a);
  y -= sp_lgamma_f(a) + sp_lgamma_f(b);
  y += sp_lgamma_f(a + b);
  t = x / (1.0f - x);
  s = 0.0f;
  u = 1.0f;
  do {
    b -= 1.0f;
    if (b == 0.0f) break;
    a += 1.0f;
    u *= t * b / a;
    s += u;
  } while (fabsf(u) > SP_MACHEP_f);
  return expf(y) * (1.0f + s);
}

/* float, a > 1: continued fraction or series, with a and b swapped when x
 * is above the mean. */
static float sp_incbsa_f(float aa, float bb, float xx) {
  float ans, a, b, t, x, onemx = 1.0f - xx;
  int swapped = 0;
  if (xx > aa / (aa + bb)) {
    swapped = 1;
    a = bb;
    b = aa;
    t = xx;
    x = onemx;
  } else {
    a = aa;
    b = bb;
    t = onemx;
    x = xx;
  }
  if (b > 10.0f && fabsf(b * x / a) < 0.3f) {
    t = sp_incbps_f(a, b, x);
    return swapped ? 1.0f - t : t;
  }
  ans = x * (a + b - 2.0f) / (a - 1.0f);
  if (ans < 1.0f) {
    ans = sp_incbeta_cfe_f(a, b, x, 1);
    t = b * logf(t);
  } else {
    ans = sp_incbeta_cfe_f(a, b, x, 0);
    t = (b - 1.0f) * logf(t);
  }
  t += a * logf(x) + sp_lgamma_f(a + b) - sp_lgamma_f(a) - sp_lgamma_f(b);
  t += logf(ans / a);
  t = expf(t);
  return swapped ? 1.0f - t : t;
}

float tfe_sp_betainc_f(float a, float b, float x) {
  float ans, t;
  if (a <= 0.0f || b <= 0.0f) return NAN;
  if (x <= 0.0f || x >= 1.0f) {
    if (x == 0.0f) return 0.0f;
    if (x == 1.0f) return 1.0f;
    return NAN;
  }
  if (a <= 1.0f) {
    /* I_x(a, b) = I_x(a + 1, b) + x^a (1-x)^b / (a B(a, b)) */
    ans = sp_incbsa_f(a + 1.0f, b, x);
    t = a * logf(x) + b * log1pf(-x) + sp_lgamma_f(a + b) -
        sp_lgamma_f(a + 1.0f) - sp_lgamma_f(b);
    return ans + expf(t);
  }
  return sp_incbsa_f(a, b, x);
}

/* double: power series for b * x <= 1. */
static double sp_incbps_d(double a, double b, double x) {
  double s, t, u, v, n, t1, z, ai;
  ai = 1.0 / a;
  u = (1.0 - b) * x;
  v = u / (a + 1.0);
  t1 = v;
  t = u;
  n = 2.0;
  s = 0.0;
  z = SP_MACHEP_d * ai;
  while (fabs(v) > z) {
    u = (n - b) * x / n;
    t *= u;
    v = t / (a + n);
    s += v;
    n += 1.0;
  }
  s += t1;
  s += ai;
  u = a * log(x);
  t = sp_lgamma_d(a + b) - sp_lgamma_d(a) - sp_lgamma_d(b) + u + log(s);
  return exp(t);
}

double tfe_sp_betainc_d(double aa, double bb, double xx) {
  double a, b, t, x, xc, w, y;
  int swapped = 0;
  if (aa <= 0.0 || bb <= 0.0) return NAN;
  if (xx <= 0.0 || xx >= 1.0) {
    if (xx == 0.0) return 0.0;
    if (xx == 1.0) return 1.0;
    return NAN;
  }
  if (bb * xx <= 1.0 && xx <= 0.95) return sp_incbps_d(aa, bb, xx);
  w = 1.0 - xx;
  if (xx > aa / (aa + bb)) {
    swapped = 1;
    a = bb;
    b = aa;
    xc = xx;
    x = w;
  } else {
    a = aa;
    b = bb;
    xc = w;
    x = xx;
  }
  if (swapped && b * x <= 1.0 && x <= 0.95) {
    t = sp_incbps_d(a, b, x);
    return t <= SP_MACHEP_d ? 1.0 - SP_MACHEP_d : 1.0 - t;
  }
  y = x * (a + b - 2.0) - (a - 1.0);
  if (y < 0.0) {
    w = sp_incbeta_cfe_d(a, b, x, 1);
  } else {
    w = sp_incbeta_cfe_d(a, b, x, 0) / xc;
  }
  /* w * x^a (1-x)^b Gamma(a+b) / (a Gamma(a) Gamma(b)), in logarithms */
  y = a * log(x);
  t = b * log(xc);
  y += t + sp_lgamma_d(a + b) - sp_lgamma_d(a) - sp_lgamma_d(b);
  y += log(w / a);
  t = exp(y);
  if (swapped) t = t <= SP_MACHEP_d ? 1.0 - SP_MACHEP_d : 1.0 - t;
  return t;
}

/* ------------------------------------------------------------------------
 * Igamma, Igammac, Zeta, Polygamma: broadcasting binary ops. */

#define SP_BIN(OP, FN)                                                      \
  TFE_EW_BINARY_T(OP##_f32, float, float, float, TFE_EW_ID, TFE_EW_ID,      \
                  FN##_f(x, y))                                             \
  TFE_EW_BINARY_T(OP##_f64, double, double, double, TFE_EW_ID, TFE_EW_ID,   \
                  FN##_d(x, y))
SP_BIN(igamma, tfe_sp_igamma)
SP_BIN(igammac, tfe_sp_igammac)
SP_BIN(zeta, tfe_sp_zeta)
SP_BIN(polygamma, tfe_sp_polygamma)

#define SP_OP2(NAME, OP) \
  {NAME, 2, 0, 5, TF_OK, NULL, NULL, {[TF_FLOAT] = OP##_f32, [TF_DOUBLE] = OP##_f64}, 1}

static const tfe_ew_op k_binary_special[] = {
    SP_OP2("Igamma", igamma),
    SP_OP2("Igammac", igammac),
    SP_OP2("Zeta", zeta),
    SP_OP2("Polygamma", polygamma),
};

/* ------------------------------------------------------------------------
 * Betainc(a, b, x): every non-scalar input has one shape; scalars are
 * repeated. */

static int betainc_check(tfe_kernel_context* k, const TF_Tensor* p,
                         const TF_Tensor* q, const char* names) {
  kutil_shape_buf bp, bq;
  if (p->num_dims > 0 && q->num_dims > 0 && !tfe_ew_same_shape(p, q)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shapes of %s are inconsistent: %s vs. %s", names,
               kutil_tshape(p, &bp), kutil_tshape(q, &bq));
    return 0;
  }
  return 1;
}

static void k_betainc(tfe_kernel_context* k) {
  const TF_Tensor *a = k->inputs[0], *b = k->inputs[1], *x = k->inputs[2];
  const TF_Tensor* shape = a;
  TF_Tensor* out;
  int64_t n, i, sa, sb, sx;
  if (!tfe_ew_check_inputs(k, 3)) return;
  if (!betainc_check(k, a, b, "a and b") ||
      !betainc_check(k, a, x, "a and x") ||
      !betainc_check(k, b, x, "b and x")) {
    return;
  }
  if (b->num_dims > 0) shape = b;
  if (x->num_dims > 0) shape = x;
  out = tfe_kernel_alloc_output(k, 0, a->dtype, shape->dims, shape->num_dims);
  if (out == NULL) return;
  n = kutil_num_elements(out);
  /* a scalar input is read at index 0 for every element */
  sa = a->num_dims > 0;
  sb = b->num_dims > 0;
  sx = x->num_dims > 0;
  if (a->dtype == TF_FLOAT) {
    const float *pa = kutil_data(a), *pb = kutil_data(b), *px = kutil_data(x);
    float* po = kutil_data(out);
    for (i = 0; i < n; i++) {
      po[i] = tfe_sp_betainc_f(pa[i * sa], pb[i * sb], px[i * sx]);
    }
  } else {
    const double *pa = kutil_data(a), *pb = kutil_data(b), *px = kutil_data(x);
    double* po = kutil_data(out);
    for (i = 0; i < n; i++) {
      po[i] = tfe_sp_betainc_d(pa[i * sa], pb[i * sb], px[i * sx]);
    }
  }
}

/* ------------------------------------------------------------------------
 * EuclideanNorm(input, reduction_indices): sqrt(sum(x * conj(x))) over the
 * axes. Floating and complex inputs accumulate in double; integers
 * accumulate their squares with wrap-around in the element type and take
 * the truncated square root, as TF does. */

static int en_is_int(TF_DataType dt) {
  switch (dt) {
    case TF_INT8:
    case TF_INT16:
    case TF_INT32:
    case TF_INT64:
    case TF_UINT8:
    case TF_UINT16:
    case TF_UINT32:
    case TF_UINT64: return 1;
    default: return 0;
  }
}

/* Element i of a real (non-complex) tensor as a double. */
static double en_get_f(const TF_Tensor* t, int64_t i) {
  const void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[i]);
    default: return 0;
  }
}

/* The integer sum of squares (kept in 64 bits; only the element type's
 * low bits matter) as the element type's square root. */
static void en_store_int(TF_Tensor* out, int64_t i, uint64_t acc) {
  void* d = kutil_data(out);
  switch (out->dtype) {
    case TF_INT8: {
      int8_t v = (int8_t)acc;
      ((int8_t*)d)[i] = v < 0 ? 0 : (int8_t)sqrt((double)v);
      break;
    }
    case TF_INT16: {
      int16_t v = (int16_t)acc;
      ((int16_t*)d)[i] = v < 0 ? 0 : (int16_t)sqrt((double)v);
      break;
    }
    case TF_INT32: {
      int32_t v = (int32_t)acc;
      ((int32_t*)d)[i] = v < 0 ? 0 : (int32_t)sqrt((double)v);
      break;
    }
    case TF_INT64: {
      int64_t v = (int64_t)acc;
      ((int64_t*)d)[i] = v < 0 ? 0 : (int64_t)sqrt((double)v);
      break;
    }
    case TF_UINT8: ((uint8_t*)d)[i] = (uint8_t)sqrt((double)(uint8_t)acc); break;
    case TF_UINT16: ((uint16_t*)d)[i] = (uint16_t)sqrt((double)(uint16_t)acc); break;
    case TF_UINT32: ((uint32_t*)d)[i] = (uint32_t)sqrt((double)(uint32_t)acc); break;
    default: ((uint64_t*)d)[i] = (uint64_t)sqrt((double)acc); break;
  }
}

static void en_store_f(TF_Tensor* out, int64_t i, double v) {
  void* d = kutil_data(out);
  switch (out->dtype) {
    case TF_FLOAT: ((float*)d)[i] = (float)v; break;
    case TF_DOUBLE: ((double*)d)[i] = v; break;
    case TF_HALF: ((uint16_t*)d)[i] = kutil_f32_to_f16((float)v); break;
    case TF_BFLOAT16: ((uint16_t*)d)[i] = kutil_f32_to_bf16((float)v); break;
    case TF_COMPLEX64: {
      float* p = (float*)d + 2 * i;
      p[0] = (float)v;
      p[1] = 0;
      break;
    }
    case TF_COMPLEX128: {
      double* p = (double*)d + 2 * i;
      p[0] = v;
      p[1] = 0;
      break;
    }
    default: break;
  }
}

static void k_euclidean_norm(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* axes = k->inputs[1];
  int keep = kutil_attr_bool(k, "keep_dims", 0);
  int nd = x->num_dims, i, out_nd = 0, is_int = en_is_int(x->dtype);
  unsigned char reduced[TFE_MAX_DIMS];
  int64_t out_dims[TFE_MAX_DIMS], ostride[TFE_MAX_DIMS], idx[TFE_MAX_DIMS];
  int64_t naxes, a, n, nout, off, j;
  TF_Tensor* out;
  double* accf = NULL;
  uint64_t* acci = NULL;

  if (axes->num_dims > 1) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected scalar or vector reduction indices, got shape %s",
               kutil_tshape(axes, &b));
    return;
  }
  naxes = kutil_num_elements(axes);
  memset(reduced, 0, sizeof reduced);
  for (a = 0; a < naxes; a++) {
    int64_t ax = kutil_get_int(axes, a);
    if (ax < -nd || ax >= nd) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Invalid reduction dimension (%lld for input with %d "
                 "dimension(s)",
                 (long long)ax, nd);
      return;
    }
    ax = (ax + nd) % nd;
    if (reduced[ax]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Invalid reduction arguments: Axes contains duplicate "
                 "dimension: %lld",
                 (long long)ax);
      return;
    }
    reduced[ax] = 1;
  }
  for (i = 0; i < nd; i++) {
    if (!reduced[i]) {
      out_dims[out_nd++] = x->dims[i];
    } else if (keep) {
      out_dims[out_nd++] = 1;
    }
  }
  out = tfe_kernel_alloc_output(k, 0, x->dtype, out_dims, out_nd);
  if (out == NULL) return;
  nout = kutil_num_elements(out);
  n = kutil_num_elements(x);
  if (nout == 0) return;
  if (is_int) {
    acci = (uint64_t*)calloc((size_t)nout, sizeof *acci);
  } else {
    accf = (double*)calloc((size_t)nout, sizeof *accf);
  }
  if (acci == NULL && accf == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "EuclideanNorm: out of memory");
    return;
  }
  /* Output offset of each input element: kept dims advance it, reduced
   * dims do not. */
  {
    int64_t s = 1;
    for (i = nd - 1; i >= 0; i--) {
      if (reduced[i]) {
        ostride[i] = 0;
      } else {
        ostride[i] = s;
        s *= x->dims[i];
      }
      idx[i] = 0;
    }
  }
  off = 0;
  for (j = 0; j < n; j++) {
    if (is_int) {
      uint64_t v = (uint64_t)kutil_get_int(x, j);
      acci[off] += v * v;
    } else if (x->dtype == TF_COMPLEX64) {
      const float* p = (const float*)kutil_data(x) + 2 * j;
      accf[off] += (double)p[0] * p[0] + (double)p[1] * p[1];
    } else if (x->dtype == TF_COMPLEX128) {
      const double* p = (const double*)kutil_data(x) + 2 * j;
      accf[off] += p[0] * p[0] + p[1] * p[1];
    } else {
      double v = en_get_f(x, j);
      accf[off] += v * v;
    }
    for (i = nd - 1; i >= 0; i--) {
      off += ostride[i];
      if (++idx[i] < x->dims[i]) break;
      off -= ostride[i] * x->dims[i];
      idx[i] = 0;
    }
  }
  for (j = 0; j < nout; j++) {
    if (is_int) {
      en_store_int(out, j, acci[j]);
    } else {
      en_store_f(out, j, sqrt(accf[j]));
    }
  }
  free(acci);
  free(accf);
}

/* ------------------------------------------------------------------------
 * ApproxTopK. TF's CPU kernel computes the exact top k of the last
 * dimension (largest first, the lower index first among equal values);
 * other settings (is_max_k=false, another reduction dimension) have no CPU
 * kernel in TF and fail with NOT_FOUND here too. */

/* Row value j as a float (half and bfloat16 widen exactly). */
static float atk_get(const TF_Tensor* t, int64_t j) {
  const void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[j]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[j]);
    default: return ((const float*)d)[j];
  }
}

/* Whether (va, ia) comes before (vb, ib): larger first, NaN above all
 * numbers, then the lower index. */
static int atk_before(float va, int32_t ia, float vb, int32_t ib) {
  int na = isnan(va) != 0, nb = isnan(vb) != 0;
  if (na != nb) return na;
  if (!na && va != vb) return va > vb;
  return ia < ib;
}

/* Stable merge sort of idx[0..n) by the keys (tmp has room for n). */
static void atk_sort(const float* key, int32_t* idx, int32_t* tmp, int64_t n) {
  int64_t width, lo;
  for (width = 1; width < n; width *= 2) {
    for (lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n;
      int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t p = lo, q = mid, o = lo;
      while (p < mid && q < hi) {
        if (atk_before(key[idx[q]], idx[q], key[idx[p]], idx[p])) {
          tmp[o++] = idx[q++];
        } else {
          tmp[o++] = idx[p++];
        }
      }
      while (p < mid) tmp[o++] = idx[p++];
      while (q < hi) tmp[o++] = idx[q++];
    }
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
  }
}

static void k_approx_top_k(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int32_t kk, dim;
  int max_k = kutil_attr_bool(k, "is_max_k", 1);
  int64_t rows, cols, r, j;
  int64_t dims[TFE_MAX_DIMS];
  TF_Tensor *vals, *inds;
  float* key = NULL;
  int32_t *idx = NULL, *tmp = NULL;
  size_t esz = TF_DataTypeSize(x->dtype);
  if (!kutil_attr_int32(k, "k", 0, &kk)) return;
  if (!kutil_attr_int32(k, "reduction_dimension", -1, &dim)) return;
  if (!max_k || dim != -1) {
    KUTIL_FAIL(k, TF_NOT_FOUND,
               "No CPU kernel for ApproxTopK with is_max_k=%s and "
               "reduction_dimension=%d: as in TensorFlow, the CPU kernel "
               "only finds the largest values of the last dimension "
               "(is_max_k=true, reduction_dimension=-1)",
               max_k ? "true" : "false", (int)dim);
    return;
  }
  if (x->num_dims < 1) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be >= 1-D, got shape %s",
               kutil_tshape(x, &b));
    return;
  }
  cols = x->dims[x->num_dims - 1];
  if (cols < kk) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input must have at least k columns. Had %lld, needed %d",
               (long long)cols, (int)kk);
    return;
  }
  if (cols > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "ApproxTopK: the last dimension (%lld) does not fit int32 "
               "indices",
               (long long)cols);
    return;
  }
  memcpy(dims, x->dims, (size_t)x->num_dims * sizeof dims[0]);
  dims[x->num_dims - 1] = kk;
  vals = tfe_kernel_alloc_output(k, 0, x->dtype, dims, x->num_dims);
  if (vals == NULL) return;
  inds = tfe_kernel_alloc_output(k, 1, TF_INT32, dims, x->num_dims);
  if (inds == NULL) return;
  rows = kutil_num_elements(vals) == 0 || cols == 0
             ? 0
             : kutil_num_elements(x) / cols;
  if (rows == 0 || kk == 0) return;
  key = (float*)malloc((size_t)cols * sizeof *key);
  idx = (int32_t*)malloc((size_t)cols * sizeof *idx);
  tmp = (int32_t*)malloc((size_t)cols * sizeof *tmp);
  if (key == NULL || idx == NULL || tmp == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "ApproxTopK: out of memory");
    goto done;
  }
  for (r = 0; r < rows; r++) {
    const char* src = (const char*)kutil_data(x) + (size_t)(r * cols) * esz;
    char* vdst = (char*)kutil_data(vals) + (size_t)(r * kk) * esz;
    int32_t* idst = (int32_t*)kutil_data(inds) + r * kk;
    for (j = 0; j < cols; j++) {
      key[j] = atk_get(x, r * cols + j);
      idx[j] = (int32_t)j;
    }
    atk_sort(key, idx, tmp, cols);
    for (j = 0; j < kk; j++) {
      idst[j] = idx[j];
      memcpy(vdst + (size_t)j * esz, src + (size_t)idx[j] * esz, esz);
    }
  }
done:
  free(key);
  free(idx);
  free(tmp);
}

void tfe_register_cpu_math_special_kernels(void) {
  static const TF_DataType fd[] = {TF_FLOAT, TF_DOUBLE};
  static const TF_DataType num[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType atk[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT};
  size_t i;
  for (i = 0; i < sizeof k_binary_special / sizeof k_binary_special[0]; i++) {
    tfe_ew_register(&k_binary_special[i]);
  }
  tfe_ew_register_fn("Betainc", k_betainc, NULL, "T", fd, 2, NULL, NULL, 0);
  tfe_ew_register_fn("EuclideanNorm", k_euclidean_norm, NULL, "T", num,
                     KUTIL_COUNT(num), "Tidx", idx, 2);
  tfe_ew_register_fn("ApproxTopK", k_approx_top_k, NULL, "T", atk, 3, NULL,
                     NULL, 0);
}
