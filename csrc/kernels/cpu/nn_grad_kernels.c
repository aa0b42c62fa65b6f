/* CPU kernels: backprop ops of convolution, pooling and batch normalization (issue 17/18). */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_nn_grad_kernels(void);

void tfe_register_cpu_nn_grad_kernels(void) {}
