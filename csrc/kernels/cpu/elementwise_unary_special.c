/* Rounding, sign, special functions and float classification: Floor, Ceil,
 * Round (half to even), Rint, Sign, Erf, Erfc, Lgamma, Digamma, IsNan,
 * IsInf, IsFinite. */
#include <tgmath.h>

#include "kernels/cpu/elementwise_common.h"
#include "kernels/cpu/math_special.h"

/* lgamma without touching the global signgam (lgamma_r is thread-safe). */
static inline float ew_lgamma_f(float x) {
  int sign;
  return lgammaf_r(x, &sign);
}
static inline double ew_lgamma_d(double x) {
  int sign;
  return lgamma_r(x, &sign);
}
#define EW_LGAMMA(x) _Generic((x), float: ew_lgamma_f, double: ew_lgamma_d)(x)

/* Digamma (psi) in the element type, as TF's CPU kernel evaluates it
 * (math_special_kernels.c); poles and -inf give NaN. */
#define EW_DIGAMMA(x) \
  _Generic((x), float: tfe_sp_digamma_f, double: tfe_sp_digamma_d)(x)

static inline tfe_c128 ew_csign_d(tfe_c128 z) {
  double a = cabs(z);
  return a == 0 ? (tfe_c128)0 : z / a;
}
static inline tfe_c64 ew_csign_f(tfe_c64 z) {
  float a = cabs(z);
  return a == 0 ? (tfe_c64)0 : z / a;
}

#define UN_F(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_UNARY_T(OP##_##sfx, T, T, TC, LD, ST, EW_EXPR_F(x))
#define UN_I(OP, sfx, T, U, DT) \
  TFE_EW_UNARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, EW_EXPR_I(T, x))
#define UN_FB(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_UNARY_T(OP##_##sfx, T, uint8_t, TC, LD, TFE_EW_ID, EW_EXPR_F(x))

#define EW_EXPR_F(x) floor(x)
TFE_EW_FLOATS(UN_F, floor)
#undef EW_EXPR_F
#define EW_EXPR_F(x) ceil(x)
TFE_EW_FLOATS(UN_F, ceil)
#undef EW_EXPR_F
/* rint rounds half to even in the default rounding mode. */
#define EW_EXPR_F(x) rint(x)
TFE_EW_FLOATS(UN_F, rint)
#undef EW_EXPR_F
/* TF 2.21 registers Round for int32/int64 but its kernel returns 0 for
 * every element; tfe reproduces that observed behaviour. */
#define EW_EXPR_I(T, x) ((void)(x), (T)0)
UN_I(round, i32, int32_t, uint32_t, TF_INT32)
UN_I(round, i64, int64_t, uint64_t, TF_INT64)
#undef EW_EXPR_I

/* Sign: -1, 0 or 1 (also for -0); NaN stays NaN; z/|z| for complex. */
#define EW_EXPR_F(x) ((x) != (x) ? (x) : (tc_)(((x) > 0) - ((x) < 0)))
#define EW_EXPR_I(T, x) ((T)(((x) > 0) - ((x) < 0)))
TFE_EW_FLOATS(UN_F, sign)
TFE_EW_SINTS(UN_I, sign)
#undef EW_EXPR_F
#undef EW_EXPR_I
TFE_EW_UNARY_T(sign_c64, tfe_c64, tfe_c64, tfe_c64, TFE_EW_ID, TFE_EW_ID,
               ew_csign_f(x))
TFE_EW_UNARY_T(sign_c128, tfe_c128, tfe_c128, tfe_c128, TFE_EW_ID, TFE_EW_ID,
               ew_csign_d(x))

/* TF 2.21's double Erf returns NaN at +-inf (float and half give +-1);
 * reproduced. */
static inline double ew_erf_d(double x) { return isinf(x) ? NAN : erf(x); }
/* float erf and erfc as TF's CPU kernels compute them (in float, with
 * the rational approximations of its Eigen build), so results carry TF's
 * digits; double uses libm. */
static float ew_poly_f(float x, const float* c, int n) {
  float p = c[0];
  int i;
  for (i = 1; i < n; i++) p = p * x + c[i];
  return p;
}
static inline float ew_erf_f(float x) {
  /* x P(x^2) / Q(x^2), clamped to [-1, 1]; x^2 is capped at 16 (erf(4)
   * is 1 in float), which also sends NaN through the NaN numerator */
  static const float num[6] = {
      2.123732201653183437883853912353515625e-06f,
      2.861979592125862836837768554687500000e-04f,
      3.658048342913389205932617187500000000e-03f,
      5.243302136659622192382812500000000000e-02f,
      1.874160766601562500000000000000000000e-01f,
      1.128379106521606445312500000000000000e+00f};
  static const float den[6] = {
      3.89185734093189239501953125000e-05f, 1.14329601638019084930419921875e-03f,
      1.47520881146192550659179687500e-02f, 1.12945675849914550781250000000e-01f,
      4.99425798654556274414062500000e-01f, 1.0f};
  float xx = x * x, x2 = xx < 16.0f ? xx : 16.0f;
  float r = (x * ew_poly_f(x2, num, 6)) / ew_poly_f(x2, den, 6);
  r = 1.0f < r ? 1.0f : r;
  return r < -1.0f ? -1.0f : r;
}
static inline float ew_erfc_f(float x_in) {
  /* |x| <= 1: 1 + x S(x^2); else exp(-x^2) P(1/x^2) / (x Q(1/x^2)), with
   * the rounding error of x^2 folded into the exponential, plus 2 for
   * negative x; x is clamped to [-11, 11] */
  static const float small[6] = {
      5.61802298761904239654541015625e-04f, -4.91381669417023658752441406250e-03f,
      2.67075151205062866210937500000e-02f, -1.12800106406211853027343750000e-01f,
      3.76122951507568359375000000000e-01f, -1.12837910652160644531250000000e+00f};
  static const float num[4] = {
      1.0208116471767425537109375e-01f, 4.2920666933059692382812500e-01f,
      3.2379078865051269531250000e-01f, 5.3971976041793823242187500e-02f};
  static const float den[5] = {
      1.7251677811145782470703125e-02f, 3.9137163758277893066406250e-01f,
      1.0000000000000000000000000e+00f, 6.2173241376876831054687500e-01f,
      9.5662862062454223632812500e-02f};
  float x = x_in < -11.0f ? -11.0f : x_in, x2, lo, e, z, q2, r;
  x = 11.0f < x ? 11.0f : x;
  x2 = x * x;
  if (!(1.0f < x2)) return x * ew_poly_f(x2, small, 6) + 1.0f;
  lo = (float)((double)x * (double)x - (double)x2); /* exact */
  e = expf(-x2);
  z = e - e * lo;
  q2 = 1.0f / x2;
  r = ew_poly_f(q2, num, 4) / (x * ew_poly_f(q2, den, 5));
  return z * r + (x < 0.0f ? 2.0f : 0.0f);
}
#define EW_EXPR_F(x) _Generic((x), float: ew_erf_f, double: ew_erf_d)(x)
TFE_EW_FLOATS(UN_F, erf)
#undef EW_EXPR_F
#define EW_EXPR_F(x) _Generic((x), float: ew_erfc_f, double: erfc)(x)
TFE_EW_FLOATS(UN_F, erfc)
#undef EW_EXPR_F
#define EW_FLOATS_NO_BF16(X, OP) \
  TFE_EW_F32F64(X, OP)            \
  X(OP, f16, tfe_half, float, TFE_EW_H2F, TFE_EW_F2H, TF_HALF)
#define EW_EXPR_F(x) EW_LGAMMA(x)
EW_FLOATS_NO_BF16(UN_F, lgamma)
#undef EW_EXPR_F
#define EW_EXPR_F(x) EW_DIGAMMA(x)
EW_FLOATS_NO_BF16(UN_F, digamma)
#undef EW_EXPR_F

#define EW_EXPR_F(x) (isnan(x) != 0)
TFE_EW_FLOATS(UN_FB, isnan)
#undef EW_EXPR_F
#define EW_EXPR_F(x) (isinf(x) != 0)
TFE_EW_FLOATS(UN_FB, isinf)
#undef EW_EXPR_F
#define EW_EXPR_F(x) (isfinite(x) != 0)
TFE_EW_FLOATS(UN_FB, isfinite)
#undef EW_EXPR_F

#define EW_OP1(NAME, BOOL, ENTRIES) \
  {NAME, 1, BOOL, 5, TF_OK, NULL, NULL, {ENTRIES}, 0}
#define EW_OP1H(NAME, BOOL, ENTRIES) \
  {NAME, 1, BOOL, 5, TF_OK, NULL, NULL, {ENTRIES}, 1}
#define EW_F(OP) TFE_EW_FLOATS(TFE_EW_ENT_F, OP)
/* Lgamma and Digamma have no bfloat16 kernel in TF. */
#define EW_F_NO_BF16(OP) \
  TFE_EW_F32F64(TFE_EW_ENT_F, OP)[TF_HALF] = OP##_f16,
#define EW_ROUND_ENTRIES \
  EW_F(rint)[TF_INT32] = round_i32, [TF_INT64] = round_i64,

static const tfe_ew_op k_unary_special[] = {
    EW_OP1("Floor", 0, EW_F(floor)),
    EW_OP1("Ceil", 0, EW_F(ceil)),
    EW_OP1("Round", 0, EW_ROUND_ENTRIES),
    EW_OP1("Rint", 0, TFE_EW_F32F64(TFE_EW_ENT_F, rint)),
    EW_OP1("Sign", 0, EW_F(sign) TFE_EW_SINTS(TFE_EW_ENT_I, sign)
                          TFE_EW_CPLX(TFE_EW_ENT_C, sign)),
    EW_OP1H("Erf", 0, EW_F(erf)),
    EW_OP1H("Erfc", 0, EW_F(erfc)),
    EW_OP1H("Lgamma", 0, EW_F_NO_BF16(lgamma)),
    EW_OP1H("Digamma", 0, EW_F_NO_BF16(digamma)),
    EW_OP1("IsNan", 1, EW_F(isnan)),
    EW_OP1("IsInf", 1, EW_F(isinf)),
    EW_OP1("IsFinite", 1, EW_F(isfinite)),
};

void tfe_ew_register_unary_special(void) {
  size_t i;
  for (i = 0; i < sizeof k_unary_special / sizeof k_unary_special[0]; i++) {
    tfe_ew_register(&k_unary_special[i]);
  }
}
