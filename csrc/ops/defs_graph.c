/* Built-in op definitions: graph-only ops (Placeholder and friends).
 * Names, arg and attr names, types, defaults and allowed dtypes follow
 * TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_graph_defs(void);

static const tfe_builtin_op kOps[] = {
    /* A value the caller feeds when running the graph; running it unfed
     * is an error (csrc/kernels/cpu/graph_kernels.c). */
    TFE_OP("Placeholder", "out: output: dtype",
           "attr: dtype: type",
           "attr: shape: shape = { unknown_rank: true }"),
    /* Deprecated at GraphDef version 23; same as Placeholder but the
     * shape attr has no default. */
    TFE_OP("PlaceholderV2", "out: output: dtype",
           "attr: dtype: type",
           "attr: shape: shape"),
};

int tfe_ops_register_graph_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]));
}
