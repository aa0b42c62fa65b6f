/* CPU kernels: checkpoint and file ops (SaveV2, RestoreV2, ReadFile, ...). */
#include "kernels/cpu/cpu_kernels.h"

void tfe_register_cpu_io_kernels(void) {}
