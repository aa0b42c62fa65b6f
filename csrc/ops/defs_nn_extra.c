/* Built-in op definitions: nn ops of tf.nn not in the older nn groups.
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_nn_extra_defs(void);

/* Filled in as the ops are implemented (issue 16). An empty table registers
 * nothing. */
static const tfe_builtin_op kOps[] = {
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_nn_extra_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
