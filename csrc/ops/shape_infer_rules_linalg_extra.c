/* Shape rules for the linalg_extra op group (linear-algebra ops of tf.linalg not in the older groups). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_linalg_extra[] = {
    {NULL, NULL},
};
