/* CPU kernels of the sparse2 group, part 2 (see sparse2_kernels.c). */
#include "kernels/cpu/sparse2_common.h"

void tfe_register_cpu_sparse2_more_kernels(void) {}
