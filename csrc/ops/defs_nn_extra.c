/* Built-in op definitions: nn ops of tf.nn not in the older nn groups.
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_nn_extra_defs(void);

/* Ops of tf.nn the older groups lack: 3-D pooling and convolution, and
 * grayscale dilation (tf.nn.dilation2d / erosion2d), isotonic regression,
 * the gradients of the depthwise convolution. */
static const tfe_builtin_op kOps[] = {
    TFE_OP("MaxPool3D", "in: input: T",
           "out: output: T",
           "attr: ksize: list(int) >= 5",
           "attr: strides: list(int) >= 5",
           "attr: padding: {'SAME', 'VALID'}",
           "attr: data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'",
           "attr: T: {half, bfloat16, float}"),
    TFE_OP("AvgPool3D", "in: input: T",
           "out: output: T",
           "attr: ksize: list(int) >= 5",
           "attr: strides: list(int) >= 5",
           "attr: padding: {'SAME', 'VALID'}",
           "attr: data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'",
           "attr: T: {half, bfloat16, float, double}"),
    TFE_OP("Conv3D", "in: input: T",
           "in: filter: T",
           "out: output: T",
           "attr: T: {half, bfloat16, float, double}",
           "attr: strides: list(int) >= 5",
           "attr: padding: {'SAME', 'VALID'}",
           "attr: data_format: {'NDHWC', 'NCDHW'} = 'NDHWC'",
           "attr: dilations: list(int) = [1, 1, 1, 1, 1]"),
    TFE_OP("Dilation2D", "in: input: T",
           "in: filter: T",
           "out: output: T",
           "attr: T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}",
           "attr: strides: list(int) >= 4",
           "attr: rates: list(int) >= 4",
           "attr: padding: {'SAME', 'VALID'}"),
    TFE_OP("IsotonicRegression", "in: input: T",
           "out: output: output_dtype",
           "out: segments: int32",
           "attr: T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}",
           "attr: output_dtype: {half, bfloat16, float, double} = DT_FLOAT"),
    TFE_OP("DepthwiseConv2dNativeBackpropInput", "in: input_sizes: int32",
           "in: filter: T",
           "in: out_backprop: T",
           "out: output: T",
           "attr: T: {half, bfloat16, float, double}",
           "attr: strides: list(int)",
           "attr: padding: {'SAME', 'VALID', 'EXPLICIT'}",
           "attr: explicit_paddings: list(int) = []",
           "attr: data_format: {'NHWC', 'NCHW'} = 'NHWC'",
           "attr: dilations: list(int) = [1, 1, 1, 1]"),
    TFE_OP("DepthwiseConv2dNativeBackpropFilter", "in: input: T",
           "in: filter_sizes: int32",
           "in: out_backprop: T",
           "out: output: T",
           "attr: T: {half, bfloat16, float, double}",
           "attr: strides: list(int)",
           "attr: padding: {'SAME', 'VALID', 'EXPLICIT'}",
           "attr: explicit_paddings: list(int) = []",
           "attr: data_format: {'NHWC', 'NCHW'} = 'NHWC'",
           "attr: dilations: list(int) = [1, 1, 1, 1]"),
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_nn_extra_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
