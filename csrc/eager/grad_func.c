/* Gradient functions: gradients of function calls and functional control flow (PartitionedCall, StatefulPartitionedCall, If, While). */
#include "eager/grad_local.h"

int tfe_grad_register_func(void) { return 1; }
