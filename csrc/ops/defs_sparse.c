/* Built-in op definitions: tf.sparse ops: SparseTensor arithmetic, reordering, segment reductions and serialization (issue 18).
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry.
 * Kernels: csrc/kernels/cpu/sparse_kernels.c; shape rules:
 * csrc/ops/shape_infer_rules_sparse.c. */
#include "ops/ops_internal.h"

int tfe_ops_register_sparse_defs(void);

/* Filled in as the ops are implemented. An empty table registers nothing. */
static const tfe_builtin_op kOps[] = {
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_sparse_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
