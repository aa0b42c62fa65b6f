/* CPU kernels: stateful containers: v1/v2 TensorArrays, stacks, staging areas, barriers and accumulators (issue 18). */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_containers_kernels(void);

void tfe_register_cpu_containers_kernels(void) {}
