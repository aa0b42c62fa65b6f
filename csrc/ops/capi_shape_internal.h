/* Running an ops.h shape function (an op registered by a plugin with
 * TF_OpDefinitionBuilderSetShapeInferenceFunction) outside the C API:
 * shared by TFE_OpInferOutputShape (eager) and tfe_shape_infer (graphs).
 * Implementation: csrc/ops/capi_shape.c. */
#ifndef TFE_OPS_CAPI_SHAPE_INTERNAL_H_
#define TFE_OPS_CAPI_SHAPE_INTERNAL_H_

#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "tensorflow/c/tf_status.h"

/* Runs def->shape_fn (must be set) on the given input shapes (borrowed;
 * num_dims -1 is unknown rank) and complete attrs. Fills out[0..
 * num_outputs) with new dims arrays (freed by the caller with tfe_free;
 * an output the function did not set is unknown rank). Returns 1 on
 * success; 0 with the function's status (or RESOURCE_EXHAUSTED) on
 * failure, every out entry then unknown rank. */
int tfe_run_plugin_shape_fn(const tfe_op_def* def, const tfe_attrs* attrs,
                            int num_inputs, const tfe_shape* input_shapes,
                            int num_outputs, tfe_shape* out, TF_Status* s);

#endif /* TFE_OPS_CAPI_SHAPE_INTERNAL_H_ */
