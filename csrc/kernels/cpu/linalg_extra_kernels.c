/* CPU kernels: linear-algebra ops of tf.linalg not in the older groups. */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_linalg_extra_kernels(void);

void tfe_register_cpu_linalg_extra_kernels(void) {}
