/* Built-in op definitions: ops with no inputs or outputs.
 * Names, arg and attr names, types, defaults and allowed dtypes follow
 * TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_misc_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP_NO_SPECS("NoOp"),
};

int tfe_ops_register_misc_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]));
}
