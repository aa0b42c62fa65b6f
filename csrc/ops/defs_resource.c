/* Built-in op definitions: resource variables (DT_RESOURCE handles).
 * Names, arg and attr names, types, defaults and allowed dtypes follow
 * TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_resource_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("VarHandleOp", "out: resource: resource",
           "attr: container: string = ''",
           "attr: shared_name: string = ''",
           "attr: debug_name: string = ''",
           "attr: dtype: type",
           "attr: shape: shape",
           "attr: allowed_devices: list(string) = []",
           "stateful"),
    TFE_OP("ReadVariableOp", "in: resource: resource",
           "out: value: dtype",
           "attr: dtype: type",
           "stateful"),
    TFE_OP("AssignVariableOp", "in: resource: resource",
           "in: value: dtype",
           "attr: dtype: type",
           "attr: validate_shape: bool = false",
           "stateful"),
    TFE_OP("ResourceApplyGradientDescent", "in: var: resource",
           "in: alpha: T", "in: delta: T", "attr: T: numbertype",
           "attr: use_locking: bool = false", "stateful"),
    TFE_OP("AssignAddVariableOp", "in: resource: resource",
           "in: value: dtype",
           "attr: dtype: type",
           "stateful"),
    TFE_OP("AssignSubVariableOp", "in: resource: resource",
           "in: value: dtype",
           "attr: dtype: type",
           "stateful"),
    TFE_OP("VarIsInitializedOp", "in: resource: resource",
           "out: is_initialized: bool",
           "stateful"),
    TFE_OP("DestroyResourceOp", "in: resource: resource",
           "attr: ignore_lookup_error: bool = true",
           "stateful"),
    TFE_OP("ResourceGather", "in: resource: resource",
           "in: indices: Tindices",
           "out: output: dtype",
           "attr: batch_dims: int = 0",
           "attr: validate_indices: bool = true",
           "attr: dtype: type",
           "attr: Tindices: {int32, int64}",
           "stateful"),
    TFE_OP("ResourceScatterAdd", "in: resource: resource",
           "in: indices: Tindices",
           "in: updates: dtype",
           "attr: dtype: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}",
           "attr: Tindices: {int32, int64}",
           "stateful"),
    TFE_OP("ResourceScatterUpdate", "in: resource: resource",
           "in: indices: Tindices",
           "in: updates: dtype",
           "attr: dtype: type",
           "attr: Tindices: {int32, int64}",
           "stateful"),
};

int tfe_ops_register_resource_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]));
}
