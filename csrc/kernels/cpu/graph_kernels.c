/* CPU kernels: graph-only ops (Placeholder and friends). */
#include "kernels/cpu/cpu_kernels.h"

void tfe_register_cpu_graph_kernels(void) {}
