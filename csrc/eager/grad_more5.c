/* Gradient functions (session 9, group more5): gradients of the ops that
 * received kernels in csrc/kernels/cpu/more18_kernels.c, where TF 2.21
 * differentiates them.
 *
 * Cases: tools/grad_cases/more5.py. */
#include "eager/grad_local.h"

int tfe_grad_register_more5(void) { return 1; }
