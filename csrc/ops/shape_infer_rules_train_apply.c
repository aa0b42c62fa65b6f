/* Shape rules for the train_apply op group (optimizer apply ops on ref and resource variables, and the scatter families (issue 18)). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_train_apply[] = {
    {NULL, NULL},
};
