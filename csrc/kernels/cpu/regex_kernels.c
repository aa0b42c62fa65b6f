/* CPU kernels: regular-expression string ops. */
#include "kernels/cpu/cpu_kernels.h"

void tfe_register_cpu_regex_kernels(void) {}
