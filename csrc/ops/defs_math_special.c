/* Built-in op definitions: special math functions and math ops of tf.math not in the older groups (Zeta, Igamma, Betainc, ...).
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_math_special_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("Igamma", "in: a: T",
           "in: x: T",
           "out: z: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("Igammac", "in: a: T",
           "in: x: T",
           "out: z: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("Zeta", "in: x: T",
           "in: q: T",
           "out: z: T",
           "attr: T: {float, double}"),
    TFE_OP("Polygamma", "in: a: T",
           "in: x: T",
           "out: z: T",
           "attr: T: {float, double}"),
    TFE_OP("Betainc", "in: a: T",
           "in: b: T",
           "in: x: T",
           "out: z: T",
           "attr: T: {float, double}"),
    TFE_OP("EuclideanNorm", "in: input: T",
           "in: reduction_indices: Tidx",
           "out: output: T",
           "attr: keep_dims: bool = false",
           "attr: T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}",
           "attr: Tidx: {int32, int64} = DT_INT32"),
    TFE_OP("ApproxTopK", "in: input: T",
           "out: values: T",
           "out: indices: int32",
           "attr: k: int >= 0",
           "attr: reduction_dimension: int = -1",
           "attr: recall_target: float = 0.95",
           "attr: is_max_k: bool = true",
           "attr: reduction_input_size_override: int = -1",
           "attr: aggregate_to_topk: bool = true",
           "attr: T: {half, bfloat16, float}"),
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_math_special_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
