/* CPU kernels: function calls and functional control flow (PartitionedCall, If, While, Case, _Arg, _Retval). */
#include "kernels/cpu/cpu_kernels.h"

void tfe_register_cpu_functional_kernels(void) {}
