/* Shape rules for the misc18 op group (remaining array, math and linalg ops of TF 2.21 (issue 18)). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_misc18[] = {
    {NULL, NULL},
};
