/* Built-in op definitions: graph-only ops (Placeholder and friends).
 * Names, arg and attr names, types, defaults and allowed dtypes follow
 * TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_graph_defs(void);

int tfe_ops_register_graph_defs(void) {
  return 0;
}
