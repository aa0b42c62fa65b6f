/* Shape rules for the math_special op group (special math functions and math ops of tf.math not in the older groups (Zeta, Igamma, Betainc, ...)). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_math_special[] = {
    {NULL, NULL},
};
