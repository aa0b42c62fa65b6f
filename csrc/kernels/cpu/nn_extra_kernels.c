/* CPU kernels: nn ops of tf.nn not in the older nn groups. */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_nn_extra_kernels(void);

void tfe_register_cpu_nn_extra_kernels(void) {}
