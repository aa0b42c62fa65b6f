/* CPU kernels: lookup tables (HashTableV2 and friends). */
#include "kernels/cpu/cpu_kernels.h"

void tfe_register_cpu_lookup_kernels(void) {}
