/* LogicalAnd, LogicalOr (broadcasting) and LogicalNot on bool tensors.
 * Any nonzero byte counts as true; outputs are 0 or 1. */
#include "kernels/cpu/elementwise_common.h"

TFE_EW_BINARY_T(land_bool, uint8_t, uint8_t, uint8_t, TFE_EW_ID, TFE_EW_ID,
                (x != 0) & (y != 0))
TFE_EW_BINARY_T(lor_bool, uint8_t, uint8_t, uint8_t, TFE_EW_ID, TFE_EW_ID,
                (x != 0) | (y != 0))
TFE_EW_UNARY_T(lnot_bool, uint8_t, uint8_t, uint8_t, TFE_EW_ID, TFE_EW_ID,
               x == 0)

static const tfe_ew_op k_land = {"LogicalAnd", 2, 1, 5, TF_OK, NULL, NULL,
                                 {[TF_BOOL] = land_bool}, 0};
static const tfe_ew_op k_lor = {"LogicalOr", 2, 1, 5, TF_OK, NULL, NULL,
                                {[TF_BOOL] = lor_bool}, 0};
static const tfe_ew_op k_lnot = {"LogicalNot", 1, 1, 5, TF_OK, NULL, NULL,
                                 {[TF_BOOL] = lnot_bool}, 0};

void tfe_ew_register_logical(void) {
  /* The op definitions fix the dtype to bool: no type constraint. */
  tfe_ew_register_fn("LogicalAnd", tfe_ew_compute, (void*)&k_land, NULL, NULL,
                     0, NULL, NULL, 0);
  tfe_ew_register_fn("LogicalOr", tfe_ew_compute, (void*)&k_lor, NULL, NULL,
                     0, NULL, NULL, 0);
  tfe_ew_register_fn("LogicalNot", tfe_ew_compute, (void*)&k_lnot, NULL, NULL,
                     0, NULL, NULL, 0);
}
