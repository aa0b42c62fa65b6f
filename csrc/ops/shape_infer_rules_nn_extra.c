/* Shape rules for the nn_extra op group (nn ops of tf.nn not in the older nn groups). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_nn_extra[] = {
    {NULL, NULL},
};
