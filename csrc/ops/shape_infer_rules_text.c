/* Shape rules for the string processing ops (split, hash buckets, joins, unicode). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_text[] = {{NULL, NULL}};
