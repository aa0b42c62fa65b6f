/* Built-in op definitions: function calls and functional control flow
 * (PartitionedCall, StatefulPartitionedCall, If, StatelessIf, While,
 * StatelessWhile, Case, StatelessCase, _Arg, _Retval). Names, arg and attr
 * names, types and defaults follow TensorFlow 2.21's op registry; the
 * kernels are in csrc/graph/function_exec.c. */
#include "ops/ops_internal.h"

int tfe_ops_register_functional_defs(void);

#define CALL_SPECS                                                     \
  "in: args: Tin", "out: output: Tout", "attr: Tin: list(type) >= 0",  \
      "attr: Tout: list(type) >= 0", "attr: f: func",                  \
      "attr: config: string = ''", "attr: config_proto: string = ''",  \
      "attr: executor_type: string = ''"
#define IF_SPECS                                                       \
  "in: cond: Tcond", "in: input: Tin", "out: output: Tout",            \
      "attr: Tcond: type", "attr: Tin: list(type) >= 0",               \
      "attr: Tout: list(type) >= 0", "attr: then_branch: func",        \
      "attr: else_branch: func", "attr: output_shapes: list(shape) = []"
#define WHILE_SPECS                                                    \
  "in: input: T", "out: output: T", "attr: T: list(type) >= 0",        \
      "attr: cond: func", "attr: body: func",                          \
      "attr: output_shapes: list(shape) = []",                         \
      "attr: parallel_iterations: int = 10"
#define CASE_SPECS                                                     \
  "in: branch_index: int32", "in: input: Tin", "out: output: Tout",    \
      "attr: Tin: list(type) >= 0", "attr: Tout: list(type) >= 0",     \
      "attr: branches: list(func) >= 1",                               \
      "attr: output_shapes: list(shape) = []"

static const tfe_builtin_op kOps[] = {
    TFE_OP("PartitionedCall", CALL_SPECS),
    TFE_OP("StatefulPartitionedCall", CALL_SPECS, "stateful"),
    TFE_OP("If", IF_SPECS, "stateful"),
    TFE_OP("StatelessIf", IF_SPECS),
    TFE_OP("While", WHILE_SPECS, "stateful"),
    TFE_OP("StatelessWhile", WHILE_SPECS),
    TFE_OP("Case", CASE_SPECS, "stateful"),
    TFE_OP("StatelessCase", CASE_SPECS),
    TFE_OP("_Arg", "out: output: T", "attr: T: type",
           "attr: index: int >= 0", "stateful"),
    TFE_OP("_Retval", "in: input: T", "attr: T: type",
           "attr: index: int >= 0", "stateful"),
};

int tfe_ops_register_functional_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]));
}
