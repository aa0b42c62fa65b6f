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
#define EW_EXPR_F(x) _Generic((x), float: erff, double: ew_erf_d)(x)
TFE_EW_FLOATS(UN_F, erf)
#undef EW_EXPR_F
#define EW_EXPR_F(x) erfc(x)
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
