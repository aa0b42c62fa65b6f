/* Spence's function for float tensors as one vectorizable loop (issue 18
 * speed work; the double kernel and the op's registration are in
 * misc18_kernels.c).
 *
 * Same formulas as the double kernel, Li2(1 - x) through the Bernoulli
 * series of Li2 in u = -log(1 - z), in double, but with no libm call or
 * branch per element, so that the compiler turns the loop into SIMD code:
 *   0.5 <= x <= 2:  Li2(z) = core(-log x)                         (z = 1 - x)
 *   x < 0.5:        pi^2/6 - log(1 - x) log(x) - core(-log(1 - x))
 *   x > 2:          -pi^2/6 - log(x - 1)^2 / 2 - core(-log(x / (x - 1)))
 * where core(u) = u - u^2/4 + sum B_m u^(m+1)/(m+1)!. The logarithm is
 * computed here: v = m 2^e with m in [sqrt(1/2), sqrt(2)), log m from the
 * atanh series in s = (m - 1)/(m + 1) (|s| <= 0.172, twelve terms, below
 * 1e-17 relative). The result is rounded to float, so it agrees with the
 * libm-based double evaluation except when that value lies within about
 * 1e-15 of a float rounding boundary. x = 0, 1, negative, inf and NaN are
 * set apart, as in the double kernel. */
#if defined(__GNUC__) && !defined(__clang__)
/* The loop relies on the loop vectorizer at full strength (GCC's -O2 only
 * vectorizes very cheap loops). */
#pragma GCC optimize("O3")
/* Without this GCC sinks the range-specific arithmetic into branches
 * (floating-point operations "could trap") and then cannot if-convert the
 * body; values are unaffected. */
#pragma GCC optimize("no-trapping-math")
#endif

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/kutil.h"

void tfe_spence_f32(const float* x, float* y, int64_t n);

/* log(v) for a positive normal double v. */
static inline double sp_log(double v) {
  const double ln2_hi = 6.93147180369123816490e-01; /* 32 significant bits */
  const double ln2_lo = 1.90821492927058770002e-10;
  uint64_t bits, mb, eb;
  double m, e, s, s2, p;
  memcpy(&bits, &v, sizeof bits);
  /* the exponent field as a double: 2^52 + field, minus 2^52 + bias (no
   * integer-to-double conversion, which not every vector ISA has) */
  eb = (bits >> 52) | 0x4330000000000000ull;
  memcpy(&e, &eb, sizeof e);
  e -= 4503599627371519.0; /* 2^52 + 1023 */
  mb = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
  memcpy(&m, &mb, sizeof m);
  /* m in [1, 2): fold the top half down to [sqrt(1/2), 1) (both values
   * computed, one selected: no conditional arithmetic) */
  {
    double e1 = e + 1, mh = m * 0.5;
    e = m > 1.4142135623730951 ? e1 : e;
    m = m > 1.4142135623730951 ? mh : m;
  }
  s = (m - 1) / (m + 1);
  s2 = s * s;
  p = 1.0 / 23;
  p = p * s2 + 1.0 / 21;
  p = p * s2 + 1.0 / 19;
  p = p * s2 + 1.0 / 17;
  p = p * s2 + 1.0 / 15;
  p = p * s2 + 1.0 / 13;
  p = p * s2 + 1.0 / 11;
  p = p * s2 + 1.0 / 9;
  p = p * s2 + 1.0 / 7;
  p = p * s2 + 1.0 / 5;
  p = p * s2 + 1.0 / 3;
  p = p * s2 + 1.0;
  return e * ln2_hi + (e * ln2_lo + 2.0 * s * p);
}

/* u - u^2/4 + sum_{m = 2, 4, ..., 20} B_m u^(m+1) / (m+1)! in Horner form
 * over u^2. */
static inline double sp_core(double u) {
  const double u2 = u * u;
  /* c_m = B_m / (m+1)! */
  double p = (-174611.0 / 330) / 51090942171709440000.0;
  p = p * u2 + (43867.0 / 798) / 121645100408832000.0;
  p = p * u2 + (-3617.0 / 510) / 355687428096000.0;
  p = p * u2 + (7.0 / 6) / 1307674368000.0;
  p = p * u2 + (-691.0 / 2730) / 6227020800.0;
  p = p * u2 + (5.0 / 66) / 39916800.0;
  p = p * u2 + (-1.0 / 30) / 362880.0;
  p = p * u2 + (1.0 / 42) / 5040.0;
  p = p * u2 + (-1.0 / 30) / 120.0;
  p = p * u2 + (1.0 / 6) / 6.0;
  return u - 0.25 * u2 + u * u2 * p;
}

KUTIL_CLONES void tfe_spence_f32(const float* x, float* y, int64_t n) {
  const double pi2_6 = 1.6449340668482264365;
  int64_t i;
  for (i = 0; i < n; i++) {
    double v = x[i], z = 1.0 - v, vm1 = v - 1.0, ratio = v / vm1;
    double a, b, r, rh, rl, rm;
    /* the two logarithm arguments of each range (1 where one is unused),
     * clamped to a positive normal value so that the special inputs
     * below go through harmless arithmetic. Every operation runs for
     * every element and the ranges only select among the results (a
     * branch-free body is what the vectorizer needs). */
    double p = z < -1 ? vm1 : z > 0.5 ? v : 1.0;
    double q = z < -1 ? ratio : z > 0.5 ? z : v;
    p = p >= 2.2250738585072014e-308 ? p : 1.0;
    p = p <= 1.7976931348623157e308 ? p : 1.0;
    q = q >= 2.2250738585072014e-308 ? q : 1.0;
    q = q <= 1.7976931348623157e308 ? q : 1.0;
    a = sp_log(p);
    b = sp_log(q);
    r = -sp_core(-b);
    rh = r - pi2_6 - 0.5 * a * a;
    rl = r + pi2_6 - a * b;
    rm = -r;
    r = z < -1 ? rh : z > 0.5 ? rl : rm;
    /* x = 0: Li2(1); x = 1: 0; x < 0, inf, NaN: NaN */
    r = v == 0.0 ? pi2_6 : r;
    r = v == 1.0 ? 0.0 : r;
    r = v < 0.0 ? NAN : r;
    r = v != v ? NAN : r;
    r = v == INFINITY ? NAN : r;
    y[i] = (float)r;
  }
}
