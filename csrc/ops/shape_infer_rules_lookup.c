/* Shape rules for the lookup tables (HashTableV2 and friends). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_lookup[] = {{NULL, NULL}};
