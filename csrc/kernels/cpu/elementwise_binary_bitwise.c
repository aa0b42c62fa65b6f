/* Bitwise ops on integers: BitwiseAnd, BitwiseOr, BitwiseXor, Invert,
 * LeftShift, RightShift. Shift amounts are clamped to [0, bits - 1] as in
 * TensorFlow, so shifting by a negative amount is a no-op and shifting by
 * the width or more acts like shifting by width - 1. Right shifts of signed
 * values are arithmetic. */
#include "kernels/cpu/elementwise_common.h"

#define EW_ALL_INTS(X, OP) TFE_EW_SINTS(X, OP) TFE_EW_UINTS(X, OP)
#define EW_ALL_INT_ENTRIES(OP) \
  TFE_EW_SINTS(TFE_EW_ENT_I, OP) TFE_EW_UINTS(TFE_EW_ENT_I, OP)

#define AND_I(OP, sfx, T, U, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, (T)(x & y))
#define OR_I(OP, sfx, T, U, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, (T)(x | y))
#define XOR_I(OP, sfx, T, U, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, (T)(x ^ y))
#define INV_I(OP, sfx, T, U, DT) \
  TFE_EW_UNARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, (T)~x)
EW_ALL_INTS(AND_I, band)
EW_ALL_INTS(OR_I, bor)
EW_ALL_INTS(XOR_I, bxor)
EW_ALL_INTS(INV_I, inv)

/* Shift amount clamped to [0, bits-1] (separate forms for signed and
 * unsigned amounts, so no comparison is always false). */
#define EW_BITS(T) ((int)(sizeof(T) * 8))
#define EW_SHIFT_S(T, y) \
  ((y) < 0 ? 0 : ((y) > EW_BITS(T) - 1 ? EW_BITS(T) - 1 : (int)(y)))
#define EW_SHIFT_U(T, y) \
  ((y) > (T)(EW_BITS(T) - 1) ? EW_BITS(T) - 1 : (int)(y))
/* Left shift done on the unsigned type so it wraps instead of being
 * undefined. */
#define SHL_S(OP, sfx, T, U, DT)                             \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, \
                  (T)((U)x << EW_SHIFT_S(T, y)))
#define SHL_U(OP, sfx, T, U, DT)                             \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, \
                  (T)((U)x << EW_SHIFT_U(T, y)))
/* Right shift: gcc's >> on negative values is arithmetic (documented
 * implementation-defined behaviour), which is what TF does. */
#define SHR_S(OP, sfx, T, U, DT)                             \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, \
                  (T)(x >> EW_SHIFT_S(T, y)))
#define SHR_U(OP, sfx, T, U, DT)                             \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, \
                  (T)(x >> EW_SHIFT_U(T, y)))
TFE_EW_SINTS(SHL_S, shl)
TFE_EW_UINTS(SHL_U, shl)
TFE_EW_SINTS(SHR_S, shr)
TFE_EW_UINTS(SHR_U, shr)

static const tfe_ew_op k_band = {"BitwiseAnd", 2, 0, 5, TF_OK, NULL, NULL,
                                 {EW_ALL_INT_ENTRIES(band)}, 0};
static const tfe_ew_op k_bor = {"BitwiseOr", 2, 0, 5, TF_OK, NULL, NULL,
                                {EW_ALL_INT_ENTRIES(bor)}, 0};
static const tfe_ew_op k_bxor = {"BitwiseXor", 2, 0, 5, TF_OK, NULL, NULL,
                                 {EW_ALL_INT_ENTRIES(bxor)}, 0};
static const tfe_ew_op k_inv = {"Invert", 1, 0, 5, TF_OK, NULL, NULL,
                                {EW_ALL_INT_ENTRIES(inv)}, 0};
static const tfe_ew_op k_shl = {"LeftShift", 2, 0, 5, TF_OK, NULL, NULL,
                                {EW_ALL_INT_ENTRIES(shl)}, 0};
static const tfe_ew_op k_shr = {"RightShift", 2, 0, 5, TF_OK, NULL, NULL,
                                {EW_ALL_INT_ENTRIES(shr)}, 0};

void tfe_ew_register_binary_bitwise(void) {
  tfe_ew_register(&k_band);
  tfe_ew_register(&k_bor);
  tfe_ew_register(&k_bxor);
  tfe_ew_register(&k_inv);
  tfe_ew_register(&k_shl);
  tfe_ew_register(&k_shr);
}
