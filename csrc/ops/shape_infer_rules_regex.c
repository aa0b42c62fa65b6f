/* Shape rules for the regular-expression string ops. */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_regex[] = {{NULL, NULL}};
