/* CPU kernels: special math functions and math ops of tf.math not in the older groups (Zeta, Igamma, Betainc, ...). */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_math_special_kernels(void);

void tfe_register_cpu_math_special_kernels(void) {}
