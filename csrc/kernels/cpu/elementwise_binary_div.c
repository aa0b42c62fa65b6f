/* Division family: RealDiv, Div, DivNoNan, FloorDiv, FloorMod, TruncateDiv,
 * TruncateMod, Mod.
 *
 * Integer semantics follow TensorFlow: Div and TruncateDiv truncate toward
 * zero, FloorDiv/FloorMod round toward negative infinity, Mod and
 * TruncateMod take the sign of the dividend. A zero divisor anywhere makes
 * Div, FloorDiv, FloorMod and Mod fail with INVALID_ARGUMENT "Integer
 * division by zero" and TruncateDiv/TruncateMod with INTERNAL (what TF 2.21
 * reports). The most negative value divided by -1 wraps around instead of
 * trapping. For half/bfloat16, an intermediate quotient is rounded to the
 * element type before floor/trunc, as TF's half arithmetic does. */
#include <tgmath.h>

#include "kernels/cpu/elementwise_common.h"

#define EW_INT_DIV_ZERO "Integer division by zero"
#define EW_TRUNC_DIV_ERROR \
  "Unexpected error in binary operator (only integer div and mod should " \
  "have errors)"

/* Signed truncating quotient and remainder, with y == -1 handled without
 * overflow; the caller has excluded y == 0. */
#define EW_SDIV(T, U, x, y) ((y) == -1 ? (T)((U)0 - (U)(x)) : (T)((x) / (y)))
#define EW_SREM(T, x, y) ((y) == -1 ? (T)0 : (T)((x) % (y)))

/* Floor division and modulo for signed integers. */
#define EW_SFLOORDIV(T, U, x, y)                                     \
  ((y) == -1 ? (T)((U)0 - (U)(x))                                    \
             : (T)((x) / (y) - (((x) % (y) != 0) && (((x) < 0) != ((y) < 0)))))
#define EW_SFLOORMOD(T, x, y)                                          \
  ((y) == -1 ? (T)0                                                    \
             : (T)((x) % (y) != 0 && (((x) % (y) < 0) != ((y) < 0))    \
                       ? (x) % (y) + (y)                               \
                       : (x) % (y)))

/* ---- RealDiv ---- */
#define RDIV_F(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_BIN_##sfx(OP##_##sfx, T, T, TC, LD, ST, x / y)
#define RDIV_C(OP, sfx, T, R, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, x / y)
TFE_EW_FLOATS(RDIV_F, rdiv)
TFE_EW_CPLX(RDIV_C, rdiv)

static const tfe_ew_op k_realdiv = {
    "RealDiv", 2, 0, 5, TF_OK, NULL, NULL,
    {TFE_EW_FLOATS(TFE_EW_ENT_F, rdiv) TFE_EW_CPLX(TFE_EW_ENT_C, rdiv)}, 0};

/* ---- Div: RealDiv for floats, truncating division for integers ---- */
#define DIV_S(OP, sfx, T, U, DT)                                       \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID,           \
                  y == 0 ? (err_ = 1, (T)0) : EW_SDIV(T, U, x, y))
#define DIV_U(OP, sfx, T, U, DT)                             \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, \
                  y == 0 ? (err_ = 1, (T)0) : (T)(x / y))
TFE_EW_SINTS(DIV_S, div)
TFE_EW_UINTS(DIV_U, div)

static const tfe_ew_op k_div = {
    "Div", 2, 0, 5, TF_INVALID_ARGUMENT, EW_INT_DIV_ZERO, NULL,
    {TFE_EW_SINTS(TFE_EW_ENT_I, div) TFE_EW_UINTS(TFE_EW_ENT_I, div)
         TFE_EW_FLOATS(TFE_EW_ENT_F, rdiv) TFE_EW_CPLX(TFE_EW_ENT_C, rdiv)}, 0};

/* ---- DivNoNan: 0 wherever y is 0 ---- */
#define DIVNN_F(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, TC, LD, ST, y == 0 ? (tc_)0 : x / y)
#define DIVNN_C(OP, sfx, T, R, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, \
                  y == 0 ? (tc_)0 : x / y)
TFE_EW_FLOATS(DIVNN_F, divnn)
TFE_EW_CPLX(DIVNN_C, divnn)

static const tfe_ew_op k_divnonan = {
    "DivNoNan", 2, 0, 5, TF_OK, NULL, NULL,
    {TFE_EW_FLOATS(TFE_EW_ENT_F, divnn) TFE_EW_CPLX(TFE_EW_ENT_C, divnn)}, 0};

/* ---- FloorDiv ---- */
#define FDIV_S(OP, sfx, T, U, DT)                                  \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID,       \
                  y == 0 ? (err_ = 1, (T)0) : EW_SFLOORDIV(T, U, x, y))
#define FDIV_F(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, TC, LD, ST, floor(LD(ST(x / y))))
TFE_EW_SINTS(FDIV_S, fdiv)
TFE_EW_FLOATS(FDIV_F, fdiv)

static const tfe_ew_op k_floordiv = {
    "FloorDiv", 2, 0, 5, TF_INVALID_ARGUMENT, EW_INT_DIV_ZERO, NULL,
    {TFE_EW_SINTS(TFE_EW_ENT_I, fdiv) TFE_EW_UINTS(TFE_EW_ENT_I, div)
         TFE_EW_FLOATS(TFE_EW_ENT_F, fdiv)}, 0};

/* ---- FloorMod: result has the sign of the divisor ---- */
#define FMOD_S(OP, sfx, T, U, DT)                            \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, \
                  y == 0 ? (err_ = 1, (T)0) : EW_SFLOORMOD(T, x, y))
#define FMOD_U(OP, sfx, T, U, DT)                            \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, \
                  y == 0 ? (err_ = 1, (T)0) : (T)(x % y))
/* t = fmod(x, y) rounded to T; t + y when t is nonzero and its sign
 * differs from y's. */
#define EW_FFLOORMOD(LD, ST, x, y, t)                                  \
  ((t) = LD(ST(fmod((x), (y)))),                                       \
   ((t) != 0 && (((y) < 0) != ((t) < 0))) ? (t) + (y) : (t))
#define FMOD_F(OP, sfx, T, TC, LD, ST, DT)                           \
  static inline TC OP##_##sfx##_scalar(TC x, TC y) {                 \
    TC t;                                                            \
    return EW_FFLOORMOD(LD, ST, x, y, t);                            \
  }                                                                  \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, TC, LD, ST, OP##_##sfx##_scalar(x, y))
TFE_EW_SINTS(FMOD_S, fmod)
TFE_EW_UINTS(FMOD_U, fmod)
TFE_EW_FLOATS(FMOD_F, fmod)

static const tfe_ew_op k_floormod = {
    "FloorMod", 2, 0, 5, TF_INVALID_ARGUMENT, EW_INT_DIV_ZERO, NULL,
    {TFE_EW_SINTS(TFE_EW_ENT_I, fmod) TFE_EW_UINTS(TFE_EW_ENT_I, fmod)
         TFE_EW_FLOATS(TFE_EW_ENT_F, fmod)}, 0};

/* ---- TruncateDiv ---- */
#define TDIV_F(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, TC, LD, ST, trunc(LD(ST(x / y))))
TFE_EW_FLOATS(TDIV_F, tdiv)

static const tfe_ew_op k_truncatediv = {
    "TruncateDiv", 2, 0, 5, TF_INTERNAL, EW_TRUNC_DIV_ERROR, NULL,
    {TFE_EW_SINTS(TFE_EW_ENT_I, div) TFE_EW_UINTS(TFE_EW_ENT_I, div)
         TFE_EW_FLOATS(TFE_EW_ENT_F, tdiv)}, 0};

/* ---- TruncateMod and Mod: remainder with the dividend's sign ---- */
#define TMOD_S(OP, sfx, T, U, DT)                            \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, \
                  y == 0 ? (err_ = 1, (T)0) : EW_SREM(T, x, y))
#define TMOD_F(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, TC, LD, ST, fmod(x, y))
TMOD_S(tmod, i32, int32_t, uint32_t, TF_INT32)
TMOD_S(tmod, i64, int64_t, uint64_t, TF_INT64)
TFE_EW_F32F64(TMOD_F, tmod)

static const tfe_ew_op k_truncatemod = {
    "TruncateMod", 2, 0, 5, TF_INTERNAL, EW_TRUNC_DIV_ERROR, NULL,
    {[TF_INT32] = tmod_i32, [TF_INT64] = tmod_i64,
     TFE_EW_F32F64(TFE_EW_ENT_F, tmod)}, 0};

static const tfe_ew_op k_mod = {
    "Mod", 2, 0, 5, TF_INVALID_ARGUMENT, EW_INT_DIV_ZERO, NULL,
    {[TF_INT32] = tmod_i32, [TF_INT64] = tmod_i64,
     TFE_EW_F32F64(TFE_EW_ENT_F, tmod)}, 0};

void tfe_ew_register_binary_div(void) {
  tfe_ew_register(&k_realdiv);
  tfe_ew_register(&k_div);
  tfe_ew_register(&k_divnonan);
  tfe_ew_register(&k_floordiv);
  tfe_ew_register(&k_floormod);
  tfe_ew_register(&k_truncatediv);
  tfe_ew_register(&k_truncatemod);
  tfe_ew_register(&k_mod);
}
