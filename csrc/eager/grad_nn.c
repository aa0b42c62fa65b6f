/* Built-in gradients of nn ops (convolution, pooling, normalization, ...). */
#include "eager/grad_util.h"

int tfe_grad_register_nn(void) { return 1; }
