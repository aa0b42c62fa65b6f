/* Shape rules for the containers op group (stateful containers: v1/v2 TensorArrays, stacks, staging areas, barriers and accumulators (issue 18)). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_containers[] = {
    {NULL, NULL},
};
