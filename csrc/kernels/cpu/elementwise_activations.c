/* Activation functions: Relu, Relu6, Elu, Selu, Softplus, Softsign,
 * LeakyRelu. Float versions keep NaN and -0 the way TF's do (Relu is
 * "x < 0 ? 0 : x", LeakyRelu "x > 0 ? x : alpha * x"). */
#include <float.h>
#include <tgmath.h>

#include "kernels/cpu/elementwise_common.h"

#define UN_F(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_UN_##sfx(OP##_##sfx, T, T, TC, LD, ST, EW_EXPR_F(x, LD, ST, sfx))
#define UN_I(OP, sfx, T, U, DT) \
  TFE_EW_UN_##sfx(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, EW_EXPR_I(T, x))
#define UN_U(OP, sfx, T, U, DT) \
  TFE_EW_UN_##sfx(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, EW_EXPR_U(T, x))

/* ---- Relu ---- */
#define EW_EXPR_F(x, LD, ST, sfx) ((x) < 0 ? (tc_)0 : (x))
#define EW_EXPR_I(T, x) ((x) < 0 ? (T)0 : (x))
#define EW_EXPR_U(T, x) (x)
TFE_EW_FLOATS(UN_F, relu)
TFE_EW_SINTS(UN_I, relu)
TFE_EW_UINTS(UN_U, relu)
#undef EW_EXPR_F
#undef EW_EXPR_I
#undef EW_EXPR_U

/* ---- Relu6: min(max(x, 0), 6) ---- */
#define EW_EXPR_F(x, LD, ST, sfx) \
  ((x) < 0 ? (tc_)0 : ((tc_)6 < (x) ? (tc_)6 : (x)))
#define EW_EXPR_I(T, x) ((x) < 0 ? (T)0 : ((x) > 6 ? (T)6 : (x)))
#define EW_EXPR_U(T, x) ((x) > 6 ? (T)6 : (x))
TFE_EW_FLOATS(UN_F, relu6)
TFE_EW_SINTS(UN_I, relu6)
TFE_EW_UINTS(UN_U, relu6)
#undef EW_EXPR_F
#undef EW_EXPR_I
#undef EW_EXPR_U

/* ---- Elu: x < 0 ? exp(x) - 1 : x ---- */
#define EW_EXPR_F(x, LD, ST, sfx) ((x) < 0 ? expm1(x) : (x))
TFE_EW_FLOATS(UN_F, elu)
#undef EW_EXPR_F

/* ---- Selu ----
 * float/double use expm1; half and bfloat16 follow TF's evaluation in the
 * element type: constants rounded to it and every step rounded. */
#define EW_SELU_SCALE 1.0507009873554804934193349852946
#define EW_SELU_ALPHA 1.6732632423543772848170429916717
#define EW_SELU_WIDE(x)                                               \
  ((x) < 0 ? (tc_)(EW_SELU_SCALE * EW_SELU_ALPHA) * expm1(x)          \
           : (tc_)EW_SELU_SCALE * (x))
#define EW_SELU_NARROW(x, LD, ST)                                          \
  ((x) < 0 ? LD(ST((float)(EW_SELU_SCALE * EW_SELU_ALPHA))) *             \
                 LD(ST(LD(ST(expf(x))) - 1.0f))                           \
           : LD(ST((float)EW_SELU_SCALE)) * (x))
#define EW_SELU_f32(x, LD, ST) EW_SELU_WIDE(x)
#define EW_SELU_f64(x, LD, ST) EW_SELU_WIDE(x)
#define EW_SELU_f16(x, LD, ST) EW_SELU_NARROW(x, LD, ST)
#define EW_SELU_bf16(x, LD, ST) EW_SELU_NARROW(x, LD, ST)
#define EW_EXPR_F(x, LD, ST, sfx) EW_SELU_##sfx(x, LD, ST)
TFE_EW_FLOATS(UN_F, selu)
#undef EW_EXPR_F

/* ---- Softplus: log(1 + exp(x)), switching to x or exp(x) where the
 * other term is below the type's epsilon (TF's thresholds). ---- */
#define EW_EPS_f32 FLT_EPSILON
#define EW_EPS_f64 DBL_EPSILON
#define EW_EPS_f16 0.0009765625  /* 2^-10 */
#define EW_EPS_bf16 0.0078125    /* 2^-7 */
static inline float ew_softplus_f(float x, float thr) {
  if (x > -thr) return x;
  if (x < thr) return expf(x);
  return log1pf(expf(x));
}
static inline double ew_softplus_d(double x, double thr) {
  if (x > -thr) return x;
  if (x < thr) return exp(x);
  return log1p(exp(x));
}
#define EW_EXPR_F(x, LD, ST, sfx)                                  \
  _Generic((x), float: ew_softplus_f, double: ew_softplus_d)(      \
      x, (tc_)(log((double)EW_EPS_##sfx) + 2.0))
TFE_EW_FLOATS(UN_F, softplus)
#undef EW_EXPR_F

/* ---- Softsign: x / (1 + |x|) ---- */
#define EW_EXPR_F(x, LD, ST, sfx) ((x) / ((tc_)1 + fabs(x)))
TFE_EW_FLOATS(UN_F, softsign)
#undef EW_EXPR_F

/* ---- LeakyRelu: alpha converted to the element type first ---- */
#define EW_EXPR_F(x, LD, ST, sfx) \
  ((x) > 0 ? (x) : (x) * (tc_)LD(ST((tc_)prm_.alpha_f)))
TFE_EW_FLOATS(UN_F, lrelu)
#undef EW_EXPR_F

static int read_alpha(tfe_kernel_context* k, tfe_ew_params* p) {
  const tfe_attr_value* v =
      k->attrs != NULL ? tfe_attrs_find(k->attrs, "alpha") : NULL;
  p->alpha_f = 0.2f;
  if (v != NULL) {
    if (v->type != TF_ATTR_FLOAT || v->is_list) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "AttrValue had value with wrong type when 'float' "
                      "expected\n\t for attr 'alpha'");
      return 0;
    }
    p->alpha_f = v->v.f;
  }
  p->alpha = p->alpha_f;
  return 1;
}

#define EW_F(OP) TFE_EW_FLOATS(TFE_EW_ENT_F, OP)
#define EW_ALL(OP) \
  EW_F(OP) TFE_EW_SINTS(TFE_EW_ENT_I, OP) TFE_EW_UINTS(TFE_EW_ENT_I, OP)

static const tfe_ew_op k_activations[] = {
    {"Relu", 1, 0, 5, TF_OK, NULL, NULL, {EW_ALL(relu)}, 0},
    {"Relu6", 1, 0, 5, TF_OK, NULL, NULL, {EW_ALL(relu6)}, 0},
    {"Elu", 1, 0, 5, TF_OK, NULL, NULL, {EW_F(elu)}, 1},
    {"Selu", 1, 0, 5, TF_OK, NULL, NULL, {EW_F(selu)}, 1},
    {"Softplus", 1, 0, 5, TF_OK, NULL, NULL, {EW_F(softplus)}, 1},
    {"Softsign", 1, 0, 5, TF_OK, NULL, NULL, {EW_F(softsign)}, 0},
    {"LeakyRelu", 1, 0, 5, TF_OK, NULL, read_alpha, {EW_F(lrelu)}, 0},
};

void tfe_ew_register_activations(void) {
  size_t i;
  for (i = 0; i < sizeof k_activations / sizeof k_activations[0]; i++) {
    tfe_ew_register(&k_activations[i]);
  }
}
