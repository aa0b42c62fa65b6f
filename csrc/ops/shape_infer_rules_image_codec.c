/* Shape rules for the image_codec op group (image codecs, image gradients and audio ops (issue 18)). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_image_codec[] = {
    {NULL, NULL},
};
