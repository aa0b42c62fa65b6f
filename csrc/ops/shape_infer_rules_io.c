/* Shape rules for the checkpoint and file ops (SaveV2, RestoreV2, ReadFile, ...). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_io[] = {{NULL, NULL}};
