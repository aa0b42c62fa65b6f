/* Built-in op definitions: array ops the tf.* Python API needs beyond the existing array groups.
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry.
 * Kernels: csrc/kernels/cpu/array_extra_kernels.c; shape rules:
 * csrc/ops/shape_infer_rules_array_extra.c. */
#include "ops/ops_internal.h"

int tfe_ops_register_array_extra_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("DynamicPartition", "in: data: T",
           "in: partitions: int32",
           "out: outputs: num_partitions * T",
           "attr: num_partitions: int >= 1",
           "attr: T: type"),
    TFE_OP("DynamicStitch", "in: indices: N * int32",
           "in: data: N * T",
           "out: merged: T",
           "attr: N: int >= 1",
           "attr: T: type"),
    TFE_OP("ParallelDynamicStitch", "in: indices: N * int32",
           "in: data: N * T",
           "out: merged: T",
           "attr: N: int >= 1",
           "attr: T: type"),
    TFE_OP("HistogramFixedWidth", "in: values: T",
           "in: value_range: T",
           "in: nbins: int32",
           "out: out: dtype",
           "attr: T: {int32, int64, float, double}",
           "attr: dtype: {int32, int64} = DT_INT32"),
    TFE_OP("ExtractVolumePatches", "in: input: T",
           "out: patches: T",
           "attr: ksizes: list(int) >= 5",
           "attr: strides: list(int) >= 5",
           "attr: T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}",
           "attr: padding: {'SAME', 'VALID'}"),
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_array_extra_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
