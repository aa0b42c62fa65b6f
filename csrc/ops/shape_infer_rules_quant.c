/* Shape rules for the quant op group (fake quantization, quantize/dequantize and the quantized arithmetic ops (issue 18)). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_quant[] = {
    {NULL, NULL},
};
