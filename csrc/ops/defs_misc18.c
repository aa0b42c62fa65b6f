/* Built-in op definitions: remaining array, math and linalg ops of TF 2.21 (issue 18).
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry.
 * Kernels: csrc/kernels/cpu/misc18_kernels.c; shape rules:
 * csrc/ops/shape_infer_rules_misc18.c. */
#include "ops/ops_internal.h"

int tfe_ops_register_misc18_defs(void);

/* Filled in as the ops are implemented. An empty table registers nothing. */
static const tfe_builtin_op kOps[] = {
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_misc18_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
