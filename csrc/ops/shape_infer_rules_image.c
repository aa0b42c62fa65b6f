/* Shape rules for the image, linear algebra and random ops that exported models use. */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_image[] = {{NULL, NULL}};
