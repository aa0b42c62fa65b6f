/* CPU kernels: staging maps, barriers, conditional accumulators, priority queues, session tensors, TensorMap, mutexes and counters (issue 18, session 8).
 * Definitions and shape rules come from TF 2.21's generated registry
 * (csrc/ops/defs_generated.c, shape_infer_rules_generated.c). Each family
 * lives in its own dataflow2_*.c file; this one registers them all. */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_dataflow2_kernels(void);
void tfe_register_cpu_dataflow2_map_kernels(void);
void tfe_register_cpu_dataflow2_barrier_kernels(void);
void tfe_register_cpu_dataflow2_accum_kernels(void);
void tfe_register_cpu_dataflow2_tensor_map_kernels(void);
void tfe_register_cpu_dataflow2_counter_kernels(void);
void tfe_register_cpu_dataflow2_mutex_kernels(void);
void tfe_register_cpu_dataflow2_session_kernels(void);

void tfe_register_cpu_dataflow2_kernels(void) {
  tfe_register_cpu_dataflow2_map_kernels();
  tfe_register_cpu_dataflow2_barrier_kernels();
  tfe_register_cpu_dataflow2_accum_kernels();
  tfe_register_cpu_dataflow2_tensor_map_kernels();
  tfe_register_cpu_dataflow2_counter_kernels();
  tfe_register_cpu_dataflow2_mutex_kernels();
  tfe_register_cpu_dataflow2_session_kernels();
}
