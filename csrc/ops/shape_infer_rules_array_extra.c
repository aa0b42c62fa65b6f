/* Shape rules for the array_extra op group (array ops the tf.* Python API needs beyond the existing array groups). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_array_extra[] = {
    {NULL, NULL},
};
