/* Gradient functions: gradients of 3-D convolution and pooling, fused batch normalization and other nn ops. */
#include "eager/grad_local.h"

int tfe_grad_register_nn_extra(void) { return 1; }
