/* Op definitions the kernel tests rely on, in TF's grammar. They are only
 * registered when the built-in op library does not define the op yet, so
 * the tests use the real definitions whenever they exist. */
#ifndef TFE_TESTS_KERNEL_TEST_OPS_H_
#define TFE_TESTS_KERNEL_TEST_OPS_H_

#include "ops/op_registry.h"
#include "tensorflow/c/tf_status.h"

typedef struct {
  const char* name;
  const char* specs[12];
} kt_op_spec;

static const kt_op_spec kt_fallback_ops[] = {
    {"Identity", {"in: input: T", "out: output: T", "attr: T: type", NULL}},
    {"IdentityN",
     {"in: input: T", "out: output: T", "attr: T: list(type) >= 1", NULL}},
    {"Reshape",
     {"in: tensor: T", "in: shape: Tshape", "out: output: T", "attr: T: type",
      "attr: Tshape: {int32, int64} = DT_INT32", NULL}},
    {"Shape",
     {"in: input: T", "out: output: out_type", "attr: T: type",
      "attr: out_type: {int32, int64} = DT_INT32", NULL}},
    {"ShapeN",
     {"in: input: N * T", "out: output: N * out_type", "attr: N: int >= 1",
      "attr: T: type", "attr: out_type: {int32, int64} = DT_INT32", NULL}},
    {"Size",
     {"in: input: T", "out: output: out_type", "attr: T: type",
      "attr: out_type: {int32, int64} = DT_INT32", NULL}},
    {"Rank", {"in: input: T", "out: output: int32", "attr: T: type", NULL}},
    {"ExpandDims",
     {"in: input: T", "in: dim: Tdim", "out: output: T", "attr: T: type",
      "attr: Tdim: {int32, int64} = DT_INT32", NULL}},
    {"Squeeze",
     {"in: input: T", "out: output: T", "attr: T: type",
      "attr: squeeze_dims: list(int) >= 0 = []", NULL}},
    {"EnsureShape",
     {"in: input: T", "out: output: T", "attr: shape: shape", "attr: T: type",
      NULL}},
    {"Const",
     {"out: output: dtype", "attr: value: tensor", "attr: dtype: type", NULL}},
    {"Fill",
     {"in: dims: index_type", "in: value: T", "out: output: T",
      "attr: T: type", "attr: index_type: {int32, int64} = DT_INT32", NULL}},
    {"ZerosLike", {"in: x: T", "out: y: T", "attr: T: type", NULL}},
    {"OnesLike",
     {"in: x: T", "out: y: T",
      "attr: T: {bfloat16, half, float, double, int8, uint8, int16, uint16, "
      "int32, uint32, int64, uint64, complex64, complex128, bool}",
      NULL}},
    {"Range",
     {"in: start: Tidx", "in: limit: Tidx", "in: delta: Tidx",
      "out: output: Tidx",
      "attr: Tidx: {bfloat16, half, float, double, int8, int16, int32, "
      "int64, uint16, uint32} = DT_INT32",
      NULL}},
    {"ConcatV2",
     {"in: values: N * T", "in: axis: Tidx", "out: output: T",
      "attr: N: int >= 2", "attr: T: type",
      "attr: Tidx: {int32, int64} = DT_INT32", NULL}},
    {"Pack",
     {"in: values: N * T", "out: output: T", "attr: N: int >= 1",
      "attr: T: type", "attr: axis: int = 0", NULL}},
    {"Unpack",
     {"in: value: T", "out: output: num * T", "attr: num: int >= 0",
      "attr: T: type", "attr: axis: int = 0", NULL}},
    {"Split",
     {"in: split_dim: int32", "in: value: T", "out: output: num_split * T",
      "attr: num_split: int >= 1", "attr: T: type", NULL}},
    {"SplitV",
     {"in: value: T", "in: size_splits: Tlen", "in: split_dim: int32",
      "out: output: num_split * T", "attr: num_split: int >= 1",
      "attr: T: type", "attr: Tlen: {int8, int32, int64} = DT_INT64", NULL}},
    {"Transpose",
     {"in: x: T", "in: perm: Tperm", "out: y: T", "attr: T: type",
      "attr: Tperm: {int32, int64} = DT_INT32", NULL}},
    {"InvertPermutation",
     {"in: x: T", "out: y: T", "attr: T: {int32, int64} = DT_INT32", NULL}},
    {"Sum",
     {"in: input: T", "in: reduction_indices: Tidx", "out: output: T",
      "attr: keep_dims: bool = false", "attr: T: numbertype",
      "attr: Tidx: {int32, int64} = DT_INT32", NULL}},
    {"Mean",
     {"in: input: T", "in: reduction_indices: Tidx", "out: output: T",
      "attr: keep_dims: bool = false", "attr: T: numbertype",
      "attr: Tidx: {int32, int64} = DT_INT32", NULL}},
    {"Prod",
     {"in: input: T", "in: reduction_indices: Tidx", "out: output: T",
      "attr: keep_dims: bool = false", "attr: T: numbertype",
      "attr: Tidx: {int32, int64} = DT_INT32", NULL}},
    {"Max",
     {"in: input: T", "in: reduction_indices: Tidx", "out: output: T",
      "attr: keep_dims: bool = false", "attr: T: numbertype",
      "attr: Tidx: {int32, int64} = DT_INT32", NULL}},
    {"Min",
     {"in: input: T", "in: reduction_indices: Tidx", "out: output: T",
      "attr: keep_dims: bool = false", "attr: T: numbertype",
      "attr: Tidx: {int32, int64} = DT_INT32", NULL}},
    {"All",
     {"in: input: bool", "in: reduction_indices: Tidx", "out: output: bool",
      "attr: keep_dims: bool = false",
      "attr: Tidx: {int32, int64} = DT_INT32", NULL}},
    {"Any",
     {"in: input: bool", "in: reduction_indices: Tidx", "out: output: bool",
      "attr: keep_dims: bool = false",
      "attr: Tidx: {int32, int64} = DT_INT32", NULL}},
    {"MatMul",
     {"in: a: T", "in: b: T", "out: product: T",
      "attr: transpose_a: bool = false", "attr: transpose_b: bool = false",
      "attr: T: {bfloat16, half, float, double, int16, int32, int64, "
      "complex64, complex128}",
      "attr: grad_a: bool = false", "attr: grad_b: bool = false", NULL}},
    {"BatchMatMul",
     {"in: x: T", "in: y: T", "out: output: T",
      "attr: T: {bfloat16, half, float, double, int16, int32, int64, "
      "complex64, complex128}",
      "attr: adj_x: bool = false", "attr: adj_y: bool = false", NULL}},
    {"BatchMatMulV2",
     {"in: x: T", "in: y: T", "out: output: T",
      "attr: T: {bfloat16, half, float, double, int16, int32, int64, "
      "complex64, complex128}",
      "attr: adj_x: bool = false", "attr: adj_y: bool = false",
      "attr: grad_x: bool = false", "attr: grad_y: bool = false", NULL}},
};

static inline void kt_register_fallback_ops(void) {
  size_t i;
  TF_Status* s = TF_NewStatus();
  tfe_ops_ensure_builtins();
  for (i = 0; i < sizeof kt_fallback_ops / sizeof kt_fallback_ops[0]; i++) {
    if (tfe_op_lookup(kt_fallback_ops[i].name) == NULL) {
      tfe_op_register_specs(kt_fallback_ops[i].name, kt_fallback_ops[i].specs,
                            s);
    }
  }
  TF_DeleteStatus(s);
}

#endif /* TFE_TESTS_KERNEL_TEST_OPS_H_ */
