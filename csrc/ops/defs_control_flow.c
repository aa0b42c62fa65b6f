/* Built-in op definitions: v1 control flow (Switch, Merge, Enter, Exit,
 * NextIteration, LoopCond, ControlTrigger and their Ref variants; Abort).
 * Names, arg and attr names, types, defaults and allowed dtypes follow
 * TensorFlow 2.21's op registry. The graph executor (csrc/graph/exec.c)
 * gives these ops their dataflow meaning (dead tensors, frames and
 * iterations); their kernels only serve eager calls. */
#include "ops/ops_internal.h"

int tfe_ops_register_control_flow_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("Switch", "in: data: T", "in: pred: bool", "out: output_false: T",
           "out: output_true: T", "attr: T: type"),
    TFE_OP("RefSwitch", "in: data: Ref(T)", "in: pred: bool",
           "out: output_false: Ref(T)", "out: output_true: Ref(T)",
           "attr: T: type", "allows_uninitialized_input"),
    TFE_OP("Merge", "in: inputs: N * T", "out: output: T",
           "out: value_index: int32", "attr: T: type", "attr: N: int >= 1"),
    TFE_OP("RefMerge", "in: inputs: Ref(N * T)", "out: output: Ref(T)",
           "out: value_index: int32", "attr: T: type", "attr: N: int >= 1"),
    TFE_OP("Enter", "in: data: T", "out: output: T", "attr: T: type",
           "attr: frame_name: string", "attr: is_constant: bool = false",
           "attr: parallel_iterations: int = 10"),
    TFE_OP("RefEnter", "in: data: Ref(T)", "out: output: Ref(T)",
           "attr: T: type", "attr: frame_name: string",
           "attr: is_constant: bool = false",
           "attr: parallel_iterations: int = 10"),
    TFE_OP("Exit", "in: data: T", "out: output: T", "attr: T: type"),
    TFE_OP("RefExit", "in: data: Ref(T)", "out: output: Ref(T)",
           "attr: T: type"),
    TFE_OP("NextIteration", "in: data: T", "out: output: T",
           "attr: T: type"),
    TFE_OP("RefNextIteration", "in: data: Ref(T)", "out: output: Ref(T)",
           "attr: T: type"),
    TFE_OP("LoopCond", "in: input: bool", "out: output: bool"),
    TFE_OP_NO_SPECS("ControlTrigger"),
    TFE_OP("Abort", "attr: error_msg: string = ''",
           "attr: exit_without_error: bool = false"),
};

int tfe_ops_register_control_flow_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof(kOps) / sizeof(kOps[0])));
}
