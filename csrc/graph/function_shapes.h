/* Shape inference through function calls, as TF's shape refiner does for
 * call ops: the output shapes of a call (PartitionedCall,
 * StatefulPartitionedCall, or an op whose type is a library function) are
 * those of the function's return values when its body is built with the
 * call's input shapes on its arguments. Implementation:
 * csrc/graph/function_shapes.c. */
#ifndef TFE_GRAPH_FUNCTION_SHAPES_H_
#define TFE_GRAPH_FUNCTION_SHAPES_H_

#include "ops/shape_infer.h"
#include "tensorflow/c/c_api.h"

/* Makes `op` (may be NULL) the operation whose shapes are being inferred
 * on this thread: call-op rules look functions up in its graph's library
 * and read its inputs' handle data. Returns the previous one, which the
 * caller restores with tfe_fn_shapes_enter(prev) when done. Graph
 * construction sets it around each operation's shape inference
 * (csrc/graph/operation.c), with the graph's lock held. */
const TF_Operation* tfe_fn_shapes_enter(const TF_Operation* op);

/* Output shapes of a call of function `fname` (found in the thread's
 * library; when `def` is not NULL the function whose signature is `def`
 * is preferred) with the inputs a->input_shapes and call attrs `attrs`
 * (function attrs; may be NULL). Fills out[0..a->num_outputs) with
 * tfe_malloc'd dims for the outputs it can tell and leaves the others
 * untouched. Returns 1 also when nothing could be told (no library, no
 * such function, a body tfe cannot build, recursion, nesting deeper than
 * TFE_FN_SHAPES_MAX_DEPTH); 0 with INVALID_ARGUMENT only when shape
 * inference of a body node reports an error, as TF's refiner does (TF
 * gives the inner node's message). */
#define TFE_FN_SHAPES_MAX_DEPTH 32
int tfe_fn_shapes_call(const tfe_shape_infer_args* a, const char* fname,
                       const tfe_op_def* def, const tfe_attrs* attrs,
                       tfe_shape* out, TF_Status* s);

/* For an operation `op` whose type is a library function (not a
 * registered op): fills the outputs of `out` that shape inference left
 * unknown with what the body tells (tfe_fn_shapes_call). Returns 1 at once
 * for other operations. */
int tfe_fn_shapes_by_name(const tfe_shape_infer_args* a, tfe_shape* out,
                          TF_Status* s);

#endif /* TFE_GRAPH_FUNCTION_SHAPES_H_ */
