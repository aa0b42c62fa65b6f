/* CPU kernels that exist only to serve gradients (IgammaGradA,
 * SparseFillEmptyRowsGrad, ...), session 8. Definitions and shape rules
 * come from TF 2.21's generated registry. */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_grad_support_kernels(void);

void tfe_register_cpu_grad_support_kernels(void) {}
