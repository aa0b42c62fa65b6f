/* Built-in op definitions: remaining array, math and linalg ops of TF 2.21 (issue 18).
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry.
 * Kernels: csrc/kernels/cpu/misc18_kernels.c; shape rules:
 * csrc/ops/shape_infer_rules_misc18.c. */
#include "ops/ops_internal.h"

int tfe_ops_register_misc18_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("TopK", "in: input: T",
           "out: values: T",
           "out: indices: int32",
           "attr: k: int >= 0",
           "attr: sorted: bool = true",
           "attr: T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}"),
    TFE_OP("InplaceAdd", "in: x: T",
           "in: i: int32",
           "in: v: T",
           "out: y: T",
           "attr: T: type"),
    TFE_OP("InplaceSub", "in: x: T",
           "in: i: int32",
           "in: v: T",
           "out: y: T",
           "attr: T: type"),
    TFE_OP("InplaceUpdate", "in: x: T",
           "in: i: int32",
           "in: v: T",
           "out: y: T",
           "attr: T: type"),
    TFE_OP("DataFormatDimMap", "in: x: T",
           "out: y: T",
           "attr: T: {int32, int64} = DT_INT32",
           "attr: src_format: string = 'NHWC'",
           "attr: dst_format: string = 'NCHW'"),
    TFE_OP("DataFormatVecPermute", "in: x: T",
           "out: y: T",
           "attr: T: {int32, int64} = DT_INT32",
           "attr: src_format: string = 'NHWC'",
           "attr: dst_format: string = 'NCHW'"),
    TFE_OP("NthElement", "in: input: T",
           "in: n: int32",
           "out: values: T",
           "attr: reverse: bool = false",
           "attr: T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}"),
    TFE_OP("TileGrad", "in: input: T",
           "in: multiples: int32",
           "out: output: T",
           "attr: T: type"),
    TFE_OP("BiasAddV1", "in: value: T",
           "in: bias: T",
           "out: output: T",
           "attr: T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}"),
    TFE_OP("UniqueV2", "in: x: T",
           "in: axis: Taxis",
           "out: y: T",
           "out: idx: out_idx",
           "attr: T: type",
           "attr: Taxis: {int32, int64} = DT_INT64",
           "attr: out_idx: {int32, int64} = DT_INT32"),
    TFE_OP("UniqueWithCountsV2", "in: x: T",
           "in: axis: Taxis",
           "out: y: T",
           "out: idx: out_idx",
           "out: count: out_idx",
           "attr: T: type",
           "attr: Taxis: {int32, int64} = DT_INT64",
           "attr: out_idx: {int32, int64} = DT_INT32"),
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_misc18_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
