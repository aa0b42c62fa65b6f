/* Serializing tfe's registries and values as TensorFlow's protocol
 * buffers: OpDef / OpList (TF_GetOpList, TF_GetAllOpList), KernelDef /
 * KernelList (TF_GetRegisteredKernelsForOp), NodeDef
 * (TF_OpKernelConstruction_GetNodeDef), AttrValue, TensorShapeProto,
 * ResourceHandleProto. Field numbers follow tensorflow/core/framework/
 * *.proto. Implementation: csrc/ops/proto_encode.c. */
#ifndef TFE_OPS_PROTO_ENCODE_H_
#define TFE_OPS_PROTO_ENCODE_H_

#include "kernels/kernel.h"
#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "core/pb.h"
#include "tensorflow/c/tf_buffer.h"

/* Message bodies (without the enclosing tag and length). */
void tfe_pb_attr_value(tfe_pbw* out, const tfe_attr_value* v);
void tfe_pb_shape(tfe_pbw* out, const int64_t* dims, int num_dims);
void tfe_pb_op_def(tfe_pbw* out, const tfe_op_def* def);
void tfe_pb_kernel_def(tfe_pbw* out, const tfe_kernel_reg* reg);
void tfe_pb_node_def(tfe_pbw* out, const char* name, const char* op,
                     const char* device, const tfe_attrs* attrs);

/* An OpList holding defs[0..n). */
void tfe_pb_op_list(tfe_pbw* out, const tfe_op_def* const* defs, int n);

/* Moves the bytes of `w` into a new TF_Buffer (TF_DeleteBuffer frees it);
 * NULL when w ran out of memory (w is released either way). */
TF_Buffer* tfe_pb_to_buffer(tfe_pbw* w);

/* Deprecation of op `name`: one recorded by
 * TF_OpDefinitionBuilderDeprecated, else TF's own (the generated table).
 * Returns 1 and fills *version / *explanation (static storage) when there
 * is one. */
int tfe_op_deprecation(const char* name, int* version,
                       const char** explanation);
/* TF's refusal to make a kernel for a removed op: 1 when op `name` is
 * usable at `graph_def_version` (the GraphDef's producer; the runtime's
 * own version in eager mode), else 0 with TF_UNIMPLEMENTED and TF's
 * message in `s`. */
int tfe_op_check_not_removed(const char* name, int graph_def_version,
                             TF_Status* s);
/* Records a deprecation (copies the text); 0 on OOM. */
int tfe_op_set_deprecation(const char* name, int version,
                           const char* explanation);

#endif /* TFE_OPS_PROTO_ENCODE_H_ */
