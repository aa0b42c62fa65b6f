/* CPU kernels: function calls and functional control flow
 * (PartitionedCall, StatefulPartitionedCall, If, StatelessIf, While,
 * StatelessWhile, Case, StatelessCase). They run function bodies as plans;
 * the implementation lives with the function runtime in
 * csrc/graph/function_exec.c. */
#include "graph/function_internal.h"
#include "kernels/cpu/cpu_kernels.h"

void tfe_register_cpu_functional_kernels(void) {
  tfe_fn_register_builtin_kernels();
}
