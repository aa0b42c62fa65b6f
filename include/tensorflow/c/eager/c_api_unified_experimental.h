/* tfe: one op-building interface for eager execution and function tracing
 * (TensorFlow 2.21's tensorflow/c/eager/c_api_unified_experimental.h).
 *
 * The same code builds ops against either kind of TF_ExecutionContext:
 *   - an eager context (TF_NewEagerExecutionContext) runs each op at once,
 *     as TFE_Execute does;
 *   - a tracing context (TF_CreateFunction) adds each op as a node of a
 *     function body, which TF_FinalizeFunction turns into a TF_Function.
 *
 * Ownership, in tfe's words:
 *   - every object made by a TF_New... / TF_Create... / TF_Add... function
 *     here is the caller's, freed with the matching TF_Delete... function
 *     (all of which accept NULL);
 *   - an output list does not own the tensors in it: each tensor that
 *     TF_ExecuteOperation put there is the caller's, to free with
 *     TF_DeleteAbstractTensor;
 *   - strings passed in (op types, op names, attr names) are copied;
 *     TensorFlow only borrows them, so code written for TensorFlow, which
 *     keeps them alive, works unchanged.
 *
 * Where tfe goes beyond TensorFlow 2.21 (documented in docs/GRAPHS.md):
 *   - a tracing context can register a function too (TensorFlow says
 *     UNIMPLEMENTED), so a traced function can call another;
 *   - when an op has more outputs than the list was prepared for,
 *     TF_ExecuteOperation grows the list (TensorFlow writes past its end);
 *   - TF_NewOutputList is declared with (void), which C and C++ read alike.
 */
#ifndef TENSORFLOW_C_EAGER_C_API_UNIFIED_EXPERIMENTAL_H_
#define TENSORFLOW_C_EAGER_C_API_UNIFIED_EXPERIMENTAL_H_

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where ops go: an eager context or a function being traced. */
typedef struct TF_ExecutionContext TF_ExecutionContext;

/* A value ops consume and produce: an eager tensor handle, or an output of
 * a node in a traced function. */
typedef struct TF_AbstractTensor TF_AbstractTensor;

/* An op being built: its type, name and attrs, before it runs. */
typedef struct TF_AbstractOp TF_AbstractOp;

/* A finished traced function. */
typedef struct TF_AbstractFunction TF_AbstractFunction;

/* Picks the tracing engine later TF_CreateFunction calls use. tfe has one,
 * "graphdef" (the default); any other name is TF_INVALID_ARGUMENT listing
 * the engines there are. */
TF_CAPI_EXPORT extern void TF_SetTracingImplementation(const char* name,
                                                       TF_Status*);

/* A new tracing context for a function called fn_name (copied). Ops run
 * on it become the function's body; TF_FinalizeFunction ends it. */
TF_CAPI_EXPORT extern TF_ExecutionContext* TF_CreateFunction(
    const char* fn_name, TF_Status* status);

/* A new eager context, with a TFE_Context of its own made from the
 * options (the options stay the caller's). */
TF_CAPI_EXPORT extern TF_ExecutionContext* TF_NewEagerExecutionContext(
    TFE_ContextOptions*, TF_Status* s);
/* Frees a context (and, for an eager one, its TFE_Context). NULL is fine. */
TF_CAPI_EXPORT extern void TF_DeleteExecutionContext(TF_ExecutionContext*);

/* A shape that may be partly known: num_dims -1 for an unknown rank, else
 * num_dims sizes in dim_sizes, -1 for an unknown size. */
typedef struct TF_Shape {
  int num_dims;
  int64_t* dim_sizes;
} TF_Shape;

/* Adds an argument of the given dtype and shape to a function being
 * traced and returns its value inside the body (the caller's). Arguments
 * are numbered in the order they are added. TF_INVALID_ARGUMENT on an
 * eager context or a malformed shape. */
TF_CAPI_EXPORT extern TF_AbstractTensor* TF_AddFunctionParameter(
    TF_ExecutionContext* func, TF_DataType dtype, TF_Shape shape,
    TF_Status* s);

/* A new op for the context, without a type yet (the caller's). */
TF_CAPI_EXPORT extern TF_AbstractOp* TF_NewAbstractOp(TF_ExecutionContext* ctx);
/* Frees an op, run or not. NULL is fine. */
TF_CAPI_EXPORT extern void TF_DeleteAbstractOp(TF_AbstractOp*);

/* Sets the op's type: a registered op or a function the context knows.
 * On a traced op, only before TF_AbstractOpSetOpName. */
TF_CAPI_EXPORT extern void TF_AbstractOpSetOpType(TF_AbstractOp* op,
                                                  const char* const op_type,
                                                  TF_Status* s);
/* Names the node a traced op becomes (after its type, before its attrs
 * and inputs). TF_INVALID_ARGUMENT on an eager op. */
TF_CAPI_EXPORT extern void TF_AbstractOpSetOpName(TF_AbstractOp* op,
                                                  const char* const op_name,
                                                  TF_Status* s);
/* Sets a type attr. A traced op needs its type and name first
 * (TF_FAILED_PRECONDITION otherwise). */
TF_CAPI_EXPORT extern void TF_AbstractOpSetAttrType(
    TF_AbstractOp* op, const char* const attr_name, TF_DataType value,
    TF_Status* s);

/* Frees a tensor (an eager one deletes its handle). NULL is fine. */
TF_CAPI_EXPORT extern void TF_DeleteAbstractTensor(TF_AbstractTensor*);

/* A growable list of tensors: the outputs of an op, or the results of a
 * function. It never owns the tensors it lists. */
typedef struct TF_OutputList TF_OutputList;
/* A new empty list (the caller's). */
TF_CAPI_EXPORT extern TF_OutputList* TF_NewOutputList(void);
/* Frees the list, not the tensors in it. NULL is fine. */
TF_CAPI_EXPORT extern void TF_DeleteOutputList(TF_OutputList* o);
/* Empties the list and makes room for num_outputs entries, which is the
 * number of outputs TF_ExecuteOperation asks an op for. */
TF_CAPI_EXPORT extern void TF_OutputListSetNumOutputs(TF_OutputList* o,
                                                      int num_outputs,
                                                      TF_Status*);
/* Number of entries (0 for NULL). */
TF_CAPI_EXPORT extern int TF_OutputListNumOutputs(TF_OutputList* o);
/* Entry i (borrowed), or NULL when i is out of range. */
TF_CAPI_EXPORT extern TF_AbstractTensor* TF_OutputListGet(TF_OutputList* o,
                                                          int i);
/* Appends a tensor (still the caller's to free). */
TF_CAPI_EXPORT extern void TF_OutputListPushBack(TF_OutputList* o,
                                                 TF_AbstractTensor* tensor,
                                                 TF_Status*);

/* Runs the op on num_inputs inputs (each a single-tensor input of the op,
 * in order): eagerly on an eager context, as a new node on a tracing one.
 * The outputs replace the list's entries; each is the caller's. An op can
 * run once. */
TF_CAPI_EXPORT extern void TF_ExecuteOperation(TF_AbstractOp* op,
                                               int num_inputs,
                                               TF_AbstractTensor* const* inputs,
                                               TF_OutputList* o, TF_Status* s);

/* Ends tracing: the function whose results are the list's tensors (the
 * caller's). The context is freed by this call, even when it fails; on an
 * eager context it is TF_INVALID_ARGUMENT and the context stays. */
TF_CAPI_EXPORT extern TF_AbstractFunction* TF_FinalizeFunction(
    TF_ExecutionContext* ctx, TF_OutputList*, TF_Status*);

/* Frees a function. NULL is fine. */
TF_CAPI_EXPORT extern void TF_DeleteAbstractFunction(TF_AbstractFunction*);

/* Makes the function callable by name on the context: an op whose type is
 * the function's name runs it. The function stays the caller's. */
TF_CAPI_EXPORT extern void TF_ExecutionContextRegisterFunction(
    TF_ExecutionContext*, TF_AbstractFunction*, TF_Status*);

/* ---- eager contexts only ---- */

/* Wraps an eager handle, which the new tensor takes over:
 * TF_DeleteAbstractTensor deletes it. */
TF_CAPI_EXPORT extern TF_AbstractTensor* TF_CreateAbstractTensorFromEagerTensor(
    TFE_TensorHandle* t, TF_Status* s);
/* The handle inside an eager tensor, borrowed (the tensor keeps owning
 * it). TF_INVALID_ARGUMENT for a traced value. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TF_AbstractTensorGetEagerTensor(
    TF_AbstractTensor* at, TF_Status* s);
/* The TFE_Context of an eager context, borrowed. TF_INVALID_ARGUMENT for
 * a tracing context. */
TF_CAPI_EXPORT extern TFE_Context* TF_ExecutionContextGetTFEContext(
    TF_ExecutionContext*, TF_Status* s);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TENSORFLOW_C_EAGER_C_API_UNIFIED_EXPERIMENTAL_H_ */
