/* Built-in op definitions: TF 1's TensorArray ops (the V3 family that
 * tf.compat.v1 TensorArray, map_fn and dynamic_rnn graphs contain) and the
 * stack ops (StackV2 & co.) that gradients of v1 while loops use.
 * Names, arg and attr names, types, defaults and statefulness follow
 * TensorFlow 2.21's op registry. The older V1/V2 forms (Ref(string) or
 * string handles) are not defined. The kernels for both are in
 * csrc/kernels/cpu/tensor_array_kernels.c. */
#include "ops/ops_internal.h"

int tfe_ops_register_tensor_array_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("TensorArrayV3", "in: size: int32", "out: handle: resource",
           "out: flow: float", "attr: dtype: type",
           "attr: element_shape: shape = { unknown_rank: true }",
           "attr: dynamic_size: bool = false",
           "attr: clear_after_read: bool = true",
           "attr: identical_element_shapes: bool = false",
           "attr: tensor_array_name: string = ''", "stateful"),
    TFE_OP("TensorArrayGradV3", "in: handle: resource", "in: flow_in: float",
           "out: grad_handle: resource", "out: flow_out: float",
           "attr: source: string", "stateful"),
    TFE_OP("TensorArrayGradWithShape", "in: handle: resource",
           "in: flow_in: float", "in: shape_to_prepend: int32",
           "out: grad_handle: resource", "out: flow_out: float",
           "attr: source: string", "stateful"),
    TFE_OP("TensorArrayWriteV3", "in: handle: resource", "in: index: int32",
           "in: value: T", "in: flow_in: float", "out: flow_out: float",
           "attr: T: type", "stateful"),
    TFE_OP("TensorArrayReadV3", "in: handle: resource", "in: index: int32",
           "in: flow_in: float", "out: value: dtype", "attr: dtype: type",
           "stateful"),
    TFE_OP("TensorArrayGatherV3", "in: handle: resource",
           "in: indices: int32", "in: flow_in: float", "out: value: dtype",
           "attr: dtype: type",
           "attr: element_shape: shape = { unknown_rank: true }",
           "stateful"),
    TFE_OP("TensorArrayScatterV3", "in: handle: resource",
           "in: indices: int32", "in: value: T", "in: flow_in: float",
           "out: flow_out: float", "attr: T: type", "stateful"),
    TFE_OP("TensorArrayConcatV3", "in: handle: resource",
           "in: flow_in: float", "out: value: dtype", "out: lengths: int64",
           "attr: dtype: type",
           "attr: element_shape_except0: shape = { unknown_rank: true }",
           "stateful"),
    TFE_OP("TensorArraySplitV3", "in: handle: resource", "in: value: T",
           "in: lengths: int64", "in: flow_in: float", "out: flow_out: float",
           "attr: T: type", "stateful"),
    TFE_OP("TensorArraySizeV3", "in: handle: resource", "in: flow_in: float",
           "out: size: int32", "stateful"),
    TFE_OP("TensorArrayCloseV3", "in: handle: resource", "stateful"),
    TFE_OP("StackV2", "in: max_size: int32", "out: handle: resource",
           "attr: elem_type: type", "attr: stack_name: string = ''",
           "stateful"),
    TFE_OP("StackPushV2", "in: handle: resource", "in: elem: T",
           "out: output: T", "attr: T: type",
           "attr: swap_memory: bool = false", "stateful"),
    TFE_OP("StackPopV2", "in: handle: resource", "out: elem: elem_type",
           "attr: elem_type: type", "stateful"),
    TFE_OP("StackCloseV2", "in: handle: resource", "stateful"),
};

int tfe_ops_register_tensor_array_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof(kOps) / sizeof(kOps[0])));
}
