/* Shape rules for the nn_grad op group (backprop ops of convolution, pooling and batch normalization (issue 17/18)). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_nn_grad[] = {
    {NULL, NULL},
};
