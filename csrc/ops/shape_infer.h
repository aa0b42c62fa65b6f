/* Static shape inference for ops: the rules TF's shape functions apply,
 * shared by graph construction (TF_FinishOperation, imports,
 * TF_GraphSetTensorShape), functions and plugins (an op registered through
 * ops.h with a shape function runs that function here).
 *
 * Shapes use tfe_shape (ops/attr_value.h): num_dims -1 is unknown rank,
 * a dim of -1 is an unknown size. Implementation: csrc/ops/shape_infer*.c. */
#ifndef TFE_OPS_SHAPE_INFER_H_
#define TFE_OPS_SHAPE_INFER_H_

#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

typedef struct tfe_shape_infer_args {
  const tfe_op_def* def;
  const tfe_attrs* attrs; /* complete (defaults and inferred attrs set) */
  int num_inputs;         /* flat inputs */
  const tfe_shape* input_shapes;
  const TF_DataType* input_types;
  /* Constant value of flat input i when the graph knows it (its producer
   * is a Const, or it could be evaluated), else NULL. The array itself may
   * be NULL (nothing known). Borrowed. */
  TF_Tensor* const* input_values;
  /* Partial value of flat input i read as a shape when known: e.g. the
   * output of Shape/Pack of known dims (TF's InputTensorAsShape). NULL
   * array or entries with num_dims < 0 when unknown. */
  const tfe_shape* input_as_shapes;
  int num_outputs; /* flat outputs */
  /* Optional (may be NULL): names of the flat inputs as the NodeDef
   * spells them ("x", "split:1"), used only to quote the node in error
   * messages as TF does ("... = MatMul[...](x, w)'"). Borrowed. */
  const char* const* input_names;
  /* Optional (may be NULL): for a resource input, the shape of the value
   * the handle refers to when the graph knows it (TF's handle data, e.g.
   * the "shape" attr of the VarHandleOp producing it); num_dims < 0 when
   * unknown. ReadVariableOp and ResourceGather use it. Borrowed. */
  const tfe_shape* input_handle_shapes;
  /* Optional (may be NULL): room for the outputs' dims. Output i keeps
   * up to out_dims_inline_cap dims at out_dims_inline + i *
   * out_dims_inline_cap instead of in a tfe_malloc'd array; the caller
   * must not tfe_free such a dims pointer. A longer shape still gets its
   * own array. Graph operations built by imports use it
   * (csrc/graph/operation.c). */
  int64_t* out_dims_inline;
  int out_dims_inline_cap;
} tfe_shape_infer_args;

/* Fills out[0..num_outputs) (overwritten; the caller frees each dims array
 * with tfe_free, except those in a->out_dims_inline) with the shapes the
 * op's outputs must have. An output the rules cannot tell is unknown rank. Returns 1 on success; 0 with
 * INVALID_ARGUMENT (TF's code and wording where TF has a message) when the
 * input shapes or constant inputs are incompatible with the op, e.g.
 * "Dimensions must be equal, but are 3 and 2 for '{{node mm}} = MatMul
 * [...]' with input shapes: [?,3], [2,2].". `node_name` (may be NULL) is
 * used in messages. On failure every out entry is unknown rank. Also:
 * RESOURCE_EXHAUSTED when memory runs out; an op registered through ops.h
 * with a shape function runs that function (its status, with TF's node
 * context); inputs of rank > 254 (TF's limit) make every output unknown.
 * Thread-safe; the rule of an op is looked up once and cached on its
 * definition. */
int tfe_shape_infer(const tfe_shape_infer_args* a, const char* node_name,
                    tfe_shape* out, TF_Status* s);

/* 1 when the op has a specific shape function (built-in rules or a plugin's
 * function), 0 when tfe only returns unknown shapes for it. */
int tfe_shape_infer_known(const tfe_op_def* def);

#endif /* TFE_OPS_SHAPE_INFER_H_ */
