/* CPU kernels: optimizer apply ops on ref and resource variables, and the scatter families (issue 18). */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_train_apply_kernels(void);

void tfe_register_cpu_train_apply_kernels(void) {}
