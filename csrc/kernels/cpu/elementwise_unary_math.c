/* Unary arithmetic and transcendental functions: Neg, Abs, Square,
 * Reciprocal (and its old name Inv), Sqrt, Rsqrt, Exp, Expm1, Log, Log1p,
 * Sigmoid, Tanh, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh,
 * Acosh, Atanh. Half and bfloat16 are computed in float and rounded once;
 * complex types use the C complex functions. */
#include <tgmath.h>

#include "kernels/cpu/elementwise_common.h"

/* Logistic function e / (1 + e) with e = exp(x), as TF's CPU kernels
 * compute it: float clamps x at 16.6355324 first (the result is then 1),
 * double maps an infinite e to 1. Same rounding as TF's. */
static inline float ew_sigmoid_f(float x) {
  const float hi = 16.6355324f;
  float e = expf(hi < x ? hi : x); /* NaN stays NaN */
  return e / (1.0f + e);
}
static inline double ew_sigmoid_d(double x) {
  double e = exp(x);
  if (isinf(e)) return 1.0;
  return e / (1.0 + e);
}
/* Half and bfloat16 evaluate e / (1 + e) with e = exp(x), rounding every
 * step to the element type (1 where e overflows), which is what TF's
 * 16-bit kernels compute. */
static inline float ew_sigmoid_h(float x) {
  float e = tfe_half_to_float(tfe_float_to_half(expf(x)));
  if (isinf(e)) return 1.0f;
  return e / tfe_half_to_float(tfe_float_to_half(1.0f + e));
}
static inline float ew_sigmoid_b(float x) {
  float e = tfe_bf16_to_float(tfe_float_to_bf16(expf(x)));
  if (isinf(e)) return 1.0f;
  return e / tfe_bf16_to_float(tfe_float_to_bf16(1.0f + e));
}
#define EW_SIGMOID_f32(x) ew_sigmoid_f(x)
#define EW_SIGMOID_f64(x) ew_sigmoid_d(x)
#define EW_SIGMOID_f16(x) ew_sigmoid_h(x)
#define EW_SIGMOID_bf16(x) ew_sigmoid_b(x)

/* log(1 + z) for complex z, accurate near 0 (Kahan's method). */
static inline tfe_c128 ew_log1p_c128(tfe_c128 z) {
  tfe_c128 u = 1.0 + z;
  if (u == 1.0) return z;
  return clog(u) * z / (u - 1.0);
}
static inline tfe_c64 ew_log1p_c64(tfe_c64 z) {
  return (tfe_c64)ew_log1p_c128((tfe_c128)z);
}
/* exp(z) - 1 for complex z: the real part as expm1(a)cos(b) - 2sin^2(b/2)
 * keeps accuracy near 0. */
static inline tfe_c128 ew_expm1_c128(tfe_c128 z) {
  double a = creal(z), b = cimag(z), s = sin(b / 2);
  double re = expm1(a) * cos(b) - 2 * s * s;
  return CMPLX(re, exp(a) * sin(b));
}
static inline tfe_c64 ew_expm1_c64(tfe_c64 z) {
  return (tfe_c64)ew_expm1_c128((tfe_c128)z);
}
#define EW_LOG1P_C(x) _Generic((x), tfe_c64: ew_log1p_c64, tfe_c128: ew_log1p_c128)(x)
#define EW_EXPM1_C(x) _Generic((x), tfe_c64: ew_expm1_c64, tfe_c128: ew_expm1_c128)(x)

/* ---- generators ---- */
#define UN_F(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_UNARY_T(OP##_##sfx, T, T, TC, LD, ST, EW_EXPR_F(x, LD, ST, sfx))
#define UN_C(OP, sfx, T, R, DT) \
  TFE_EW_UNARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, EW_EXPR_C(x))
#define UN_I(OP, sfx, T, U, DT) \
  TFE_EW_UNARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, EW_EXPR_I(T, U, x))

/* One op over floats and complex numbers: defines OP_f32 ... OP_c128. */
#define EW_FC_OP(OP)           \
  TFE_EW_FLOATS(UN_F, OP)      \
  TFE_EW_CPLX(UN_C, OP)
#define EW_FC_ENTRIES(OP) \
  TFE_EW_FLOATS(TFE_EW_ENT_F, OP) TFE_EW_CPLX(TFE_EW_ENT_C, OP)

/* ---- Neg ---- */
#define EW_EXPR_F(x, LD, ST, sfx) (-(x))
#define EW_EXPR_C(x) (-(x))
#define EW_EXPR_I(T, U, x) ((T)((U)0 - (U)(x)))
EW_FC_OP(neg)
TFE_EW_SINTS(UN_I, neg)
#undef EW_EXPR_F
#undef EW_EXPR_C
#undef EW_EXPR_I

/* ---- Abs (real types; the most negative integer stays as it is) ---- */
#define EW_EXPR_F(x, LD, ST, sfx) fabs(x)
#define EW_EXPR_I(T, U, x) ((x) < 0 ? (T)((U)0 - (U)(x)) : (x))
TFE_EW_FLOATS(UN_F, abs)
TFE_EW_SINTS(UN_I, abs)
#undef EW_EXPR_F
#undef EW_EXPR_I

/* ---- Square ---- */
#define EW_EXPR_F(x, LD, ST, sfx) ((x) * (x))
#define EW_EXPR_C(x) ((x) * (x))
#define EW_EXPR_I(T, U, x) ((T)((U)(x) * (U)(x)))
EW_FC_OP(square)
TFE_EW_SINTS(UN_I, square)
TFE_EW_UINTS(UN_I, square)
#undef EW_EXPR_F
#undef EW_EXPR_C
#undef EW_EXPR_I

/* ---- Reciprocal ---- */
#define EW_EXPR_F(x, LD, ST, sfx) ((tc_)1 / (x))
#define EW_EXPR_C(x) ((tc_)1 / (x))
EW_FC_OP(recip)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* ---- Sqrt / Rsqrt ---- */
#define EW_EXPR_F(x, LD, ST, sfx) sqrt(x)
#define EW_EXPR_C(x) sqrt(x)
EW_FC_OP(sqrt)
#undef EW_EXPR_F
#undef EW_EXPR_C
#define EW_EXPR_F(x, LD, ST, sfx) ((tc_)1 / sqrt(x))
#define EW_EXPR_C(x) ((tc_)1 / sqrt(x))
EW_FC_OP(rsqrt)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* ---- Exp / Expm1 / Log / Log1p ---- */
#define EW_EXPR_F(x, LD, ST, sfx) exp(x)
#define EW_EXPR_C(x) exp(x)
EW_FC_OP(exp)
#undef EW_EXPR_F
#undef EW_EXPR_C
#define EW_EXPR_F(x, LD, ST, sfx) expm1(x)
#define EW_EXPR_C(x) EW_EXPM1_C(x)
EW_FC_OP(expm1)
#undef EW_EXPR_F
#undef EW_EXPR_C
#define EW_EXPR_F(x, LD, ST, sfx) log(x)
#define EW_EXPR_C(x) log(x)
EW_FC_OP(log)
#undef EW_EXPR_F
#undef EW_EXPR_C
#define EW_EXPR_F(x, LD, ST, sfx) log1p(x)
#define EW_EXPR_C(x) EW_LOG1P_C(x)
EW_FC_OP(log1p)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* ---- Sigmoid / Tanh ---- */
#define EW_EXPR_F(x, LD, ST, sfx) EW_SIGMOID_##sfx(x)
#define EW_EXPR_C(x) ((tc_)1 / ((tc_)1 + exp(-(x))))
EW_FC_OP(sigmoid)
#undef EW_EXPR_F
#undef EW_EXPR_C
#define EW_EXPR_F(x, LD, ST, sfx) tanh(x)
#define EW_EXPR_C(x) tanh(x)
EW_FC_OP(tanh)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* ---- trigonometric and hyperbolic ---- */
#define EW_EXPR_F(x, LD, ST, sfx) EW_FN(x)
#define EW_EXPR_C(x) EW_FN(x)
#define EW_FN sin
EW_FC_OP(sin)
#undef EW_FN
#define EW_FN cos
EW_FC_OP(cos)
#undef EW_FN
#define EW_FN tan
EW_FC_OP(tan)
#undef EW_FN
#define EW_FN asin
EW_FC_OP(asin)
#undef EW_FN
#define EW_FN acos
EW_FC_OP(acos)
#undef EW_FN
#define EW_FN atan
EW_FC_OP(atan)
#undef EW_FN
#define EW_FN sinh
EW_FC_OP(sinh)
#undef EW_FN
#define EW_FN cosh
EW_FC_OP(cosh)
#undef EW_FN
#define EW_FN asinh
EW_FC_OP(asinh)
#undef EW_FN
#define EW_FN acosh
EW_FC_OP(acosh)
#undef EW_FN
#define EW_FN atanh
EW_FC_OP(atanh)
#undef EW_FN
#undef EW_EXPR_F
#undef EW_EXPR_C

#define EW_OP1(NAME, ENTRIES) \
  {NAME, 1, 0, 5, TF_OK, NULL, NULL, {ENTRIES}, 0}
/* ops that call libm per element */
#define EW_OP1H(NAME, ENTRIES) \
  {NAME, 1, 0, 5, TF_OK, NULL, NULL, {ENTRIES}, 1}

static const tfe_ew_op k_unary_math[] = {
    EW_OP1("Neg", EW_FC_ENTRIES(neg) TFE_EW_SINTS(TFE_EW_ENT_I, neg)),
    EW_OP1("Abs", TFE_EW_FLOATS(TFE_EW_ENT_F, abs)
                      TFE_EW_SINTS(TFE_EW_ENT_I, abs)),
    EW_OP1("Square", EW_FC_ENTRIES(square) TFE_EW_SINTS(TFE_EW_ENT_I, square)
                         TFE_EW_UINTS(TFE_EW_ENT_I, square)),
    EW_OP1("Reciprocal", EW_FC_ENTRIES(recip)),
    EW_OP1("Inv", EW_FC_ENTRIES(recip)),
    EW_OP1H("Sqrt", EW_FC_ENTRIES(sqrt)),
    EW_OP1H("Rsqrt", EW_FC_ENTRIES(rsqrt)),
    EW_OP1H("Exp", EW_FC_ENTRIES(exp)),
    EW_OP1H("Expm1", EW_FC_ENTRIES(expm1)),
    EW_OP1H("Log", EW_FC_ENTRIES(log)),
    EW_OP1H("Log1p", EW_FC_ENTRIES(log1p)),
    EW_OP1H("Sigmoid", EW_FC_ENTRIES(sigmoid)),
    EW_OP1H("Tanh", EW_FC_ENTRIES(tanh)),
    EW_OP1H("Sin", EW_FC_ENTRIES(sin)),
    EW_OP1H("Cos", EW_FC_ENTRIES(cos)),
    EW_OP1H("Tan", EW_FC_ENTRIES(tan)),
    EW_OP1H("Asin", EW_FC_ENTRIES(asin)),
    EW_OP1H("Acos", EW_FC_ENTRIES(acos)),
    EW_OP1H("Atan", EW_FC_ENTRIES(atan)),
    EW_OP1H("Sinh", EW_FC_ENTRIES(sinh)),
    EW_OP1H("Cosh", EW_FC_ENTRIES(cosh)),
    EW_OP1H("Asinh", EW_FC_ENTRIES(asinh)),
    EW_OP1H("Acosh", EW_FC_ENTRIES(acosh)),
    EW_OP1H("Atanh", EW_FC_ENTRIES(atanh)),
};

void tfe_ew_register_unary_math(void) {
  size_t i;
  for (i = 0; i < sizeof k_unary_math / sizeof k_unary_math[0]; i++) {
    tfe_ew_register(&k_unary_math[i]);
  }
}
