/* Unary special functions: the modified Bessel functions I0, I1, K0, K1
 * (plain and exponentially scaled), the Bessel functions of the first and
 * second kind J0, J1, Y0, Y1, the inverse normal CDF (Ndtri), the inverse
 * error function (Erfinv), Dawson's integral (Dawsn) and the exponential
 * integral Ei (Expint).
 *
 * Every function is evaluated in double precision, also for float and half
 * inputs (the result is rounded once to the element type), with methods
 * chosen for accuracy rather than speed: convergent power series where
 * their terms do not cancel, asymptotic expansions far out, an integral
 * representation for K, and Halley refinement for the two inverse functions.
 * Special values (0, negative arguments, infinities, NaN) follow what
 * TF 2.21's CPU kernels return. */
#include <float.h>
#include <math.h>

#include "kernels/cpu/elementwise_common.h"

void tfe_register_special_kernels(void);
void tfe_register_special_string_kernels(void); /* special_strings.c */
void tfe_register_special_scan_kernels(void);   /* special_scan.c */

#define SP_PI 3.14159265358979323846
#define SP_EULER 0.57721566490153286061
#define SP_SQRT2 1.41421356237309504880
/* log(sqrt(2 pi)) */
#define SP_LOG_SQRT_2PI 0.91893853320467274178

/* ---- modified Bessel functions of the first kind ---- */

/* Where I0 and I1 switch from the power series to the asymptotic
 * expansion. */
#ifndef SP_I_ASYM
#define SP_I_ASYM 20
#endif

/* exp(-|x|) I_nu(|x|) for nu = 0 or 1 and |x| >= 30 from the asymptotic
 * expansion 1/sqrt(2 pi x) * sum_k (-1)^k prod_j (mu - (2j-1)^2) /
 * (k! (8x)^k), mu = 4 nu^2; it is summed while the terms shrink, which at
 * x >= SP_I_ASYM leaves an error far below double precision. */
static double sp_ie_asym(int nu, double x) {
  double mu = 4.0 * nu * nu, term = 1, sum = 1, prev = INFINITY;
  int k;
  for (k = 1; k < 200; k++) {
    double odd = 2.0 * k - 1;
    term *= -(mu - odd * odd) / (k * 8.0 * x);
    if (fabs(term) >= prev) break;
    prev = fabs(term);
    sum += term;
    if (fabs(term) < 1e-17 * fabs(sum)) break;
  }
  return sum / sqrt(2 * SP_PI * x);
}

/* I_nu(x) for 0 <= x < SP_I_ASYM from the power series
 * (x/2)^nu sum_k (x^2/4)^k / (k! (k+nu)!), whose terms are all positive.
 * x^2/4 is split into its rounded value q and the rounding error ql (exact
 * through fma); term k carries q^k, so the error is put back to first
 * order as sum_k k term_k * ql/q. */
static double sp_i_series(int nu, double x) {
  double q = x * x, ql = fma(x, x, -q), term = nu == 0 ? 1.0 : 0.5 * x;
  double sum = term, dsum = 0;
  int k;
  q *= 0.25;
  ql *= 0.25;
  for (k = 1; k < 500; k++) {
    term = term * q / ((double)k * (k + nu));
    sum += term;
    dsum += k * term;
    if (term < 1e-17 * sum) break;
  }
  return q > 0 ? sum + dsum * (ql / q) : sum;
}

/* exp(-|x|) I_nu(x), nu = 0 or 1 (I1 is odd, I0 even). */
static double sp_bessel_ie(int nu, double x) {
  double ax = fabs(x), r;
  if (isnan(x)) return x;
  if (isinf(x)) return nu == 1 ? copysign(0.0, x) : 0.0;
  if (ax < SP_I_ASYM) {
    r = sp_i_series(nu, ax) * exp(-ax);
  } else {
    r = sp_ie_asym(nu, ax);
  }
  return nu == 1 ? copysign(r, x) : r;
}

/* True when exp(ax) overflows in the element type (float when isf): TF
 * computes I_nu as exp(|x|) * exp(-|x|) I_nu(x) there, so its result is
 * infinite from that point on even where the true value is finite. */
static int sp_exp_overflows(double ax, int isf) {
  return isf ? isinf(expf((float)ax)) : isinf(exp(ax));
}

/* I_nu(x): NaN at +-inf as in TF, infinite where exp(|x|) overflows. */
static double sp_bessel_i(int nu, double x, int isf) {
  double ax = fabs(x), r;
  if (isnan(x) || isinf(x)) return NAN;
  if (sp_exp_overflows(ax, isf)) {
    r = INFINITY;
  } else if (ax < SP_I_ASYM) {
    r = sp_i_series(nu, ax);
  } else {
    double h = exp(0.5 * ax);
    r = sp_ie_asym(nu, ax) * h * h;
  }
  return nu == 1 ? copysign(r, x) : r;
}

/* float (and half, through float): TF evaluates exp(-|x|) I_nu(x) in float
 * from Chebyshev expansions on [0, 8] and in 32/|x| beyond (the classic
 * Cephes float coefficients), and I_nu(x) as exp(|x|) times that. Doing
 * the same gives TF's digits. */
static const float k_i0e_lo_f[18] = {
    -1.30002500998624804212E-8f, 6.04699502254191894932E-8f,
    -2.67079385394061173391E-7f, 1.11738753912010371815E-6f,
    -4.41673835845875056359E-6f, 1.64484480707288970893E-5f,
    -5.75419501008210370398E-5f, 1.88502885095841655729E-4f,
    -5.76375574538582365885E-4f, 1.63947561694133579842E-3f,
    -4.32430999505057594430E-3f, 1.05464603945949983183E-2f,
    -2.37374148058994688156E-2f, 4.93052842396707084878E-2f,
    -9.49010970480476444210E-2f, 1.71620901522208775349E-1f,
    -3.04682672343198398683E-1f, 6.76795274409476084995E-1f};
static const float k_i0e_hi_f[7] = {
    3.39623202570838634515E-9f, 2.26666899049817806459E-8f,
    2.04891858946906374183E-7f, 2.89137052083475648297E-6f,
    6.88975834691682398426E-5f, 3.36911647825569408990E-3f,
    8.04490411014108831608E-1f};
static const float k_i1e_lo_f[17] = {
    9.38153738649577178388E-9f, -4.44505912879632808065E-8f,
    2.00329475355213526229E-7f, -8.56872026469545474066E-7f,
    3.47025130813767847674E-6f, -1.32731636560394358279E-5f,
    4.78156510755005422638E-5f, -1.61760815825896745588E-4f,
    5.12285956168575772895E-4f, -1.51357245063125314899E-3f,
    4.15642294431288815669E-3f, -1.05640848946261981558E-2f,
    2.47264490306265168283E-2f, -5.29459812080949914269E-2f,
    1.02643658689847095384E-1f, -1.76416518357834055153E-1f,
    2.52587186443633654823E-1f};
static const float k_i1e_hi_f[7] = {
    -3.83538038596423702205E-9f, -2.63146884688951950684E-8f,
    -2.51223623787020892529E-7f, -3.88256480887769039346E-6f,
    -1.10588938762623716291E-4f, -9.76109749136146840777E-3f,
    7.78576235018280120474E-1f};

/* Clenshaw's recurrence for a Chebyshev series (first coefficient the
 * highest order; the constant term counts half). */
static float sp_cheb_f(float x, const float* c, int n) {
  float b0 = c[0], b1 = 0.0f, b2 = 0.0f;
  int i;
  for (i = 1; i < n; i++) {
    b2 = b1;
    b1 = b0;
    b0 = (x * b1 + c[i]) - b2;
  }
  return 0.5f * (b0 - b2);
}

/* exp(-|x|) I_nu(x) in float; NaN stays NaN. */
static float sp_bessel_ie_f(int nu, float x) {
  float y = fabsf(x), r;
  if (y <= 8.0f) {
    r = nu == 0 ? sp_cheb_f(0.5f * y + -2.0f, k_i0e_lo_f, 18)
                : y * sp_cheb_f(0.5f * y + -2.0f, k_i1e_lo_f, 17);
  } else {
    r = sp_cheb_f(32.0f / y - 2.0f, nu == 0 ? k_i0e_hi_f : k_i1e_hi_f, 7) *
        (1.0f / sqrtf(y));
  }
  return nu == 1 && x < 0.0f ? -r : r;
}

static double sp_i0e(double x, int isf) {
  return isf ? (double)sp_bessel_ie_f(0, (float)x) : sp_bessel_ie(0, x);
}
static double sp_i1e(double x, int isf) {
  return isf ? (double)sp_bessel_ie_f(1, (float)x) : sp_bessel_ie(1, x);
}
static double sp_i0(double x, int isf) {
  if (isf) return (double)(expf(fabsf((float)x)) * sp_bessel_ie_f(0, (float)x));
  return sp_bessel_i(0, x, isf);
}
static double sp_i1(double x, int isf) {
  if (isf) return (double)(expf(fabsf((float)x)) * sp_bessel_ie_f(1, (float)x));
  return sp_bessel_i(1, x, isf);
}

/* ---- modified Bessel functions of the second kind ---- */

/* exp(x) K_nu(x) for x > 0, nu = 0 or 1, from the integral
 * exp(x) K_nu(x) = int_0^inf exp(-x (cosh t - 1)) cosh(nu t) dt
 * by the trapezoidal rule, which converges geometrically for an analytic,
 * rapidly decaying integrand like this one: with steps of 1/4 (narrowed
 * by sqrt(x) for large x, where the integrand concentrates near 0) the
 * discretization error is far below double precision, and all terms are
 * positive. cosh t - 1 is formed as 2 sinh(t/2)^2 to keep its precision. */
static double sp_kne(int nu, double x) {
  double h = x > 1 ? 0.25 / sqrt(x) : 0.25, s = 0.5;
  int k;
  for (k = 1; k < 100000; k++) {
    double t = k * h, sh = sinh(0.5 * t), e = 2 * x * sh * sh;
    double f = exp(-e);
    if (nu == 1) f *= cosh(t);
    s += f;
    if (f < 1e-18 * s && e > 1) break;
  }
  return s * h;
}

/* K_nu(x), scaled by exp(x) when `scaled`: +inf at 0 and for x < 0 (as in
 * TF), 0 at +inf. (Results that would be subnormal in the element type
 * flush to zero, as in TF, through the kernels' floating-point
 * environment: core/fpenv.h.) */
static double sp_bessel_k(int nu, int scaled, double x) {
  double ke, e;
  if (isnan(x)) return x;
  if (x <= 0) return INFINITY;
  if (isinf(x)) return 0.0;
  ke = sp_kne(nu, x);
  if (scaled) return ke;
  e = exp(-0.5 * x);
  return ke * e * e;
}

static double sp_k0(double x, int isf) { return (void)isf, sp_bessel_k(0, 0, x); }
static double sp_k1(double x, int isf) { return (void)isf, sp_bessel_k(1, 0, x); }
static double sp_k0e(double x, int isf) { return (void)isf, sp_bessel_k(0, 1, x); }
static double sp_k1e(double x, int isf) { return (void)isf, sp_bessel_k(1, 1, x); }

/* ---- Bessel functions of the first and second kind (C library) ----
 * TF returns NaN at +-inf for J0/J1 and at +inf for Y0/Y1, and -inf for
 * Y0/Y1 at negative x and -inf; at +-0 Y0 is -inf, Y1 -inf in double but
 * NaN in float and half. */
static double sp_j0(double x, int isf) {
  (void)isf;
  return isinf(x) ? NAN : j0(x);
}
static double sp_j1(double x, int isf) {
  (void)isf;
  return isinf(x) ? NAN : j1(x);
}
static double sp_y0(double x, int isf) {
  (void)isf;
  if (isnan(x) || x == INFINITY) return NAN;
  return x <= 0 ? -INFINITY : y0(x);
}
static double sp_y1(double x, int isf) {
  if (isnan(x) || x == INFINITY) return NAN;
  if (x == 0) return isf ? NAN : -INFINITY;
  return x < 0 ? -INFINITY : y1(x);
}

/* ---- inverse normal CDF ---- */

/* Phi(x) - p for x <= 0 (the lower tail, accurate through erfc). */
static double sp_ndtr_minus(double x, double p) {
  return 0.5 * erfc(-x / SP_SQRT2) - p;
}

/* Ndtri for 0 < p <= 0.5: a rough rational start (Abramowitz and Stegun
 * 26.2.23, error below 5e-4) refined by Halley steps on Phi(x) - p. The
 * step divides by the normal density phi(x), taken as
 * p * exp(log p + x^2/2 + log sqrt(2 pi)) / p to stay in range for
 * subnormal p. */
static double sp_ndtri_guess(double p) {
  double t = sqrt(-2 * log(p));
  return -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                   (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
}
static double sp_ndtri_lower(double p) {
  double x = sp_ndtri_guess(p);
  int i;
  for (i = 0; i < 4; i++) {
    double e = sp_ndtr_minus(x, p);
    double u = (e / p) * exp(log(p) + 0.5 * x * x + SP_LOG_SQRT_2PI);
    double dx = u / (1 + 0.5 * x * u);
    x -= dx;
    if (fabs(dx) <= 1e-17 * fabs(x)) break;
  }
  return x;
}

/* Ndtri for 0.25 <= p <= 0.75 through q = p - 0.5, which is exact there:
 * Halley steps on erf(x / sqrt 2) / 2 - q from the rough start, so that
 * results near 0 keep their full relative precision. */
static double sp_ndtri_central(double p) {
  double q = p - 0.5, x = p < 0.5 ? sp_ndtri_guess(p) : -sp_ndtri_guess(1 - p);
  int i;
  for (i = 0; i < 6; i++) {
    double f = 0.5 * erf(x / SP_SQRT2) - q;
    double u = f / (exp(-0.5 * x * x - SP_LOG_SQRT_2PI));
    double dx = u / (1 + 0.5 * x * u);
    x -= dx;
    if (fabs(dx) <= 1e-17 * fabs(x)) break;
  }
  return x;
}

/* Ndtri: -inf at 0, +inf at 1, NaN outside [0, 1]. 1 - p is exact for
 * p >= 0.5, so the upper tail reuses the lower one. */
static double sp_ndtri_d(double p) {
  if (isnan(p) || p < 0 || p > 1) return NAN;
  if (p == 0) return -INFINITY;
  if (p == 1) return INFINITY;
  if (p >= 0.25 && p <= 0.75) return sp_ndtri_central(p);
  if (p < 0.5) return sp_ndtri_lower(p);
  return -sp_ndtri_lower(1 - p);
}

/* ---- inverse error function ---- */

/* Erfinv for 0 < x < 1: start from Ndtri, then Halley steps on
 * erf(y) - x (written through erfc for x >= 0.5, where 1 - x is exact). */
static double sp_erfinv_pos(double x) {
  double y = -sp_ndtri_d(0.5 * (1 - x)) / SP_SQRT2;
  int i;
  for (i = 0; i < 3; i++) {
    double f = x < 0.5 ? erf(y) - x : (1 - x) - erfc(y);
    double u = f / (2 / sqrt(SP_PI) * exp(-y * y));
    double dy = u / (1 + y * u);
    if (!isfinite(dy)) break;
    y -= dy;
    if (fabs(dy) <= 1e-17 * fabs(y)) break;
  }
  return y;
}

/* Erfinv: odd, +-inf at +-1, NaN beyond. */
static double sp_erfinv_d(double x) {
  if (isnan(x) || fabs(x) > 1) return NAN;
  if (x == 0) return 0.0 * x; /* a flushed denormal gives a zero too */
  if (fabs(x) == 1) return copysign(INFINITY, x);
  return copysign(sp_erfinv_pos(fabs(x)), x);
}

/* ---- Dawson's integral F(x) = exp(-x^2) int_0^x exp(t^2) dt ---- */

/* Odd. Below 7: exp(-x^2) sum_k x^(2k+1) / (k! (2k+1)) (positive terms);
 * from 7 on the asymptotic series 1/(2x) sum_k (2k-1)!! / (2x^2)^k, whose
 * smallest term there is far below double precision. */
static double sp_dawsn_d(double x) {
  double ax = fabs(x), r;
  if (isnan(x)) return x;
  if (isinf(x)) return copysign(0.0, x);
  if (ax < 7) {
    double q = ax * ax, term = ax, sum = ax;
    int k;
    for (k = 1; k < 1000; k++) {
      term *= q / k;
      sum += term / (2 * k + 1);
      if (term < 1e-17 * sum * (2 * k + 1)) break;
    }
    r = exp(-q) * sum;
  } else {
    double inv = 1 / (2 * ax * ax), term = 1, sum = 1, prev = INFINITY;
    int k;
    for (k = 1; k < 200; k++) {
      term *= (2 * k - 1) * inv;
      if (term >= prev) break;
      prev = term;
      sum += term;
      if (term < 1e-17 * sum) break;
    }
    r = sum / (2 * ax);
  }
  return copysign(r, x);
}

/* ---- exponential integral Ei(x) ---- */

/* The positive zero of Ei, split into a double and the rest. */
#define SP_EI_ROOT_HI 0.3725074107813666
#define SP_EI_ROOT_LO 1.3140183414386028e-17

/* Ei(x) for x near its zero x0: the integral from x0 to x of
 * exp(t)/t = exp(x0)/x0 * sum_k c_k h^k (h = t - x0), where
 * c_k = sum_j (-1/x0)^(k-j) / j!, integrated term by term. The series in
 * gamma + log x form loses all relative precision there. */
static double sp_expint_near_root(double x) {
  double h = (x - SP_EI_ROOT_HI) - SP_EI_ROOT_LO;
  double c = 1, fact = 1, hp = h, sum = h;
  int k;
  for (k = 1; k < 200; k++) {
    double t;
    fact /= k;
    c = -c / SP_EI_ROOT_HI + fact;
    hp *= h;
    t = c * hp / (k + 1);
    sum += t;
    if (fabs(t) < 1e-17 * fabs(sum)) break;
  }
  return exp(SP_EI_ROOT_HI) / SP_EI_ROOT_HI * sum;
}

/* TF's Expint: -inf at 0, NaN for x < 0 and at +inf, and +inf from where
 * exp(x) overflows in the element type (TF's result does; the true value
 * is finite a little further). Below 40 the series
 * gamma + log x + sum_k x^k / (k k!); from 40 on the asymptotic series
 * exp(x)/x sum_k k!/x^k, with exp(x) applied in halves near overflow. */
static double sp_expint_d(double x, int isf) {
  if (isnan(x) || x < 0 || x == INFINITY) return NAN;
  if (x == 0) return -INFINITY;
  if (sp_exp_overflows(x, isf)) return INFINITY;
  if (x > 0.27 && x < 0.47) return sp_expint_near_root(x);
  if (x < 40) {
    double term = 1, sum = 0;
    int k;
    for (k = 1; k < 500; k++) {
      term *= x / k;
      sum += term / k;
      if (term < 1e-17 * fabs(sum) * k) break;
    }
    return SP_EULER + log(x) + sum;
  } else {
    double term = 1, sum = 1, prev = INFINITY, h;
    int k;
    for (k = 1; k < 200; k++) {
      term *= k / x;
      if (term >= prev) break;
      prev = term;
      sum += term;
      if (term < 1e-17 * sum) break;
    }
    h = exp(0.5 * x);
    return h * (sum / x) * h;
  }
}

/* ---- kernels ---- */

static double sp_ndtri(double x, int isf) { return (void)isf, sp_ndtri_d(x); }
/* TF evaluates Erfinv as Ndtri((x + 1) / 2) / sqrt 2, with x + 1 rounded
 * to the element type; its domain and its infinities follow that sum:
 * the largest value below 1 (and, in float, the smallest above 1) already
 * gives +inf, values whose sum exceeds 2 give NaN. tfe takes the special
 * values from the same sum and computes the finite ones accurately. */
static double sp_erfinv(double x, int isf) {
  double s = isf ? (double)((float)x + 1.0f) : x + 1.0;
  if (isnan(s) || s < 0 || s > 2) return NAN;
  if (s == 2) return INFINITY;
  if (s == 0) return -INFINITY;
  return sp_erfinv_d(x);
}
static double sp_dawsn(double x, int isf) { return (void)isf, sp_dawsn_d(x); }
static double sp_expint(double x, int isf) { return sp_expint_d(x, isf); }

#define SP_UN(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_UNARY_T(OP##_##sfx, T, T, TC, LD, ST,                    \
                 (tc_)sp_##OP((double)(x), sizeof(tc_) == sizeof(float)))
#define SP_F32F64(OP) TFE_EW_F32F64(SP_UN, OP)
#define SP_WITH_HALF(OP) \
  SP_F32F64(OP)          \
  SP_UN(OP, f16, tfe_half, float, TFE_EW_H2F, TFE_EW_F2H, TF_HALF)

SP_WITH_HALF(i0e)
SP_WITH_HALF(i1e)
SP_WITH_HALF(i0)
SP_WITH_HALF(i1)
SP_WITH_HALF(k0)
SP_WITH_HALF(k1)
SP_WITH_HALF(k0e)
SP_WITH_HALF(k1e)
SP_WITH_HALF(j0)
SP_WITH_HALF(j1)
SP_WITH_HALF(y0)
SP_WITH_HALF(y1)
SP_F32F64(ndtri)
SP_F32F64(erfinv)
SP_F32F64(dawsn)
SP_F32F64(expint)

/* The half kernel computes through float: the double result is rounded to
 * float first, then to half (the same as TF's, which works in float). */
#define SP_ENT_FD(OP) TFE_EW_F32F64(TFE_EW_ENT_F, OP)
#define SP_ENT_FDH(OP) SP_ENT_FD(OP)[TF_HALF] = OP##_f16,
#define SP_OP(NAME, ENTRIES) {NAME, 1, 0, 5, TF_OK, NULL, NULL, {ENTRIES}, 1}

static const tfe_ew_op k_special_unary[] = {
    SP_OP("BesselI0e", SP_ENT_FDH(i0e)),
    SP_OP("BesselI1e", SP_ENT_FDH(i1e)),
    SP_OP("BesselI0", SP_ENT_FDH(i0)),
    SP_OP("BesselI1", SP_ENT_FDH(i1)),
    SP_OP("BesselK0", SP_ENT_FDH(k0)),
    SP_OP("BesselK1", SP_ENT_FDH(k1)),
    SP_OP("BesselK0e", SP_ENT_FDH(k0e)),
    SP_OP("BesselK1e", SP_ENT_FDH(k1e)),
    SP_OP("BesselJ0", SP_ENT_FDH(j0)),
    SP_OP("BesselJ1", SP_ENT_FDH(j1)),
    SP_OP("BesselY0", SP_ENT_FDH(y0)),
    SP_OP("BesselY1", SP_ENT_FDH(y1)),
    SP_OP("Ndtri", SP_ENT_FD(ndtri)),
    SP_OP("Erfinv", SP_ENT_FD(erfinv)),
    SP_OP("Dawsn", SP_ENT_FD(dawsn)),
    SP_OP("Expint", SP_ENT_FD(expint)),
};

void tfe_register_special_kernels(void) {
  size_t i;
  for (i = 0; i < sizeof k_special_unary / sizeof k_special_unary[0]; i++) {
    tfe_ew_register(&k_special_unary[i]);
  }
  tfe_register_special_string_kernels();
  tfe_register_special_scan_kernels();
}
