/* tfe: defining ops and their shape functions (TensorFlow 2.21's
 * tensorflow/c/ops.h).
 *
 *   TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("MyOp");
 *   TF_OpDefinitionBuilderAddInput(b, "x: T");
 *   TF_OpDefinitionBuilderAddOutput(b, "y: T");
 *   TF_OpDefinitionBuilderAddAttr(b, "T: {float, double}");
 *   TF_OpDefinitionBuilderSetShapeInferenceFunction(b, &my_shape_fn);
 *   TF_RegisterOpDefinition(b, status);   // consumes b
 *
 * Specs use TensorFlow's op definition grammar; the op goes into the same
 * registry as tfe's built-in ops, so it can be run with TFE_NewOp at once
 * (with kernels registered through kernels.h).
 *
 * Spec errors: the Add* functions have no status. A spec that does not
 * parse is remembered and reported by TF_RegisterOpDefinition as
 * INVALID_ARGUMENT naming the op and the spec; nothing is registered.
 *
 * Shape functions: tfe calls an op's shape function when shapes are
 * inferred (TFE_OpInferOutputShape in tfe/plugins.h; `python -m tfe_py
 * doctor` checks them against real outputs), with a TF_ShapeInferenceContext
 * that is valid during the call only. Shape and dimension handles are
 * plain values the caller owns: create them with TF_NewShapeHandle /
 * TF_NewDimensionHandle (or the functions documented to return new ones)
 * and free them with TF_DeleteShapeHandle / TF_DeleteDimensionHandle. */
#ifndef TENSORFLOW_C_OPS_H_
#define TENSORFLOW_C_OPS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TF_DimensionHandle TF_DimensionHandle;
typedef struct TF_OpDefinitionBuilder TF_OpDefinitionBuilder;
typedef struct TF_ShapeHandle TF_ShapeHandle;
typedef struct TF_ShapeInferenceContext TF_ShapeInferenceContext;

/* A new builder for op `op_name` (copied). Release it with exactly one of
 * TF_RegisterOpDefinition or TF_DeleteOpDefinitionBuilder. NULL when
 * op_name is NULL or memory runs out. */
TF_CAPI_EXPORT extern TF_OpDefinitionBuilder* TF_NewOpDefinitionBuilder(
    const char* op_name);

/* Registers the op and frees `builder` in every case. Errors:
 * INVALID_ARGUMENT (NULL builder, a spec that did not parse, an invalid
 * definition), ALREADY_EXISTS (an op of that name exists),
 * RESOURCE_EXHAUSTED. */
TF_CAPI_EXPORT extern void TF_RegisterOpDefinition(
    TF_OpDefinitionBuilder* builder, TF_Status* status);

/* Frees a builder that was not registered. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteOpDefinitionBuilder(
    TF_OpDefinitionBuilder* builder);

/* ---- specs ---- */

/* Adds an attr: "<name>: <type>" or "<name>: <type> = <default>", where
 * type is string, int, float, bool, type, shape, tensor, func, a type class
 * (numbertype, realnumbertype, quantizedtype, ...), a set of types
 * "{int32, int64}", a set of strings "{'a', 'b'}", list(...) of those,
 * optionally followed by ">= N" (a minimum value, or a minimum length for
 * lists). Defaults use protobuf text format, lists as [a, b]. An int attr
 * that gives the length of an input or output gets minimum 1 unless
 * another minimum is given. */
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderAddAttr(
    TF_OpDefinitionBuilder* builder, const char* attr_spec);

/* Adds an input / output: "<name>: <type-expr>" or
 * "<name>: Ref(<type-expr>)", where type-expr is a dtype ("float"), a type
 * attr ("T"), "<N> * <type>" with an int attr N, or a list(type) attr. */
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderAddInput(
    TF_OpDefinitionBuilder* builder, const char* input_spec);
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderAddOutput(
    TF_OpDefinitionBuilder* builder, const char* output_spec);

/* Flags of the op (all false by default). */
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetIsCommutative(
    TF_OpDefinitionBuilder* builder, bool is_commutative);
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetIsAggregate(
    TF_OpDefinitionBuilder* builder, bool is_aggregate);
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetIsStateful(
    TF_OpDefinitionBuilder* builder, bool is_stateful);
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetAllowsUninitializedInput(
    TF_OpDefinitionBuilder* builder, bool allows_uninitialized_input);

/* Marks the op deprecated from GraphDef version `version` on, with an
 * explanation (copied). Recorded in the OpDef; the op still runs. */
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderDeprecated(
    TF_OpDefinitionBuilder* builder, int version, const char* explanation);

/* Sets the op's shape function (NULL removes it). */
TF_CAPI_EXPORT extern void TF_OpDefinitionBuilderSetShapeInferenceFunction(
    TF_OpDefinitionBuilder* builder,
    void (*shape_inference_func)(TF_ShapeInferenceContext* ctx,
                                 TF_Status* status));

/* ---- shape inference context ---- */

/* Number of inputs of the node being inferred (0 for NULL). */
TF_CAPI_EXPORT extern int64_t TF_ShapeInferenceContextNumInputs(
    TF_ShapeInferenceContext* ctx);

/* A new, unknown shape handle (the caller frees it). */
TF_CAPI_EXPORT extern TF_ShapeHandle* TF_NewShapeHandle(void);

/* Copies the shape of input i into `handle`. INVALID_ARGUMENT for a bad
 * index or NULL arguments. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextGetInput(
    TF_ShapeInferenceContext* ctx, int i, TF_ShapeHandle* handle,
    TF_Status* status);

/* Sets output i to a copy of `handle` (the caller keeps it).
 * INVALID_ARGUMENT for a bad index. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextSetOutput(
    TF_ShapeInferenceContext* ctx, int i, TF_ShapeHandle* handle,
    TF_Status* status);

/* A new shape handle for a scalar (the caller frees it). */
TF_CAPI_EXPORT extern TF_ShapeHandle* TF_ShapeInferenceContextScalar(
    TF_ShapeInferenceContext* ctx);

/* A new shape handle for a vector of `size` elements (the caller frees
 * it). */
TF_CAPI_EXPORT extern TF_ShapeHandle* TF_ShapeInferenceContextVectorFromSize(
    TF_ShapeInferenceContext* ctx, size_t size);

/* A new, unknown dimension handle (the caller frees it). */
TF_CAPI_EXPORT extern TF_DimensionHandle* TF_NewDimensionHandle(void);

/* The type attr `attr_name` of the node. INVALID_ARGUMENT when it is
 * missing or not a type. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContext_GetAttrType(
    TF_ShapeInferenceContext* ctx, const char* attr_name, TF_DataType* val,
    TF_Status* status);

/* Rank of the shape, or -1 when unknown. */
TF_CAPI_EXPORT extern int64_t TF_ShapeInferenceContextRank(
    TF_ShapeInferenceContext* ctx, TF_ShapeHandle* handle);

/* 1 when the shape's rank is known, else 0. */
TF_CAPI_EXPORT extern int TF_ShapeInferenceContextRankKnown(
    TF_ShapeInferenceContext* ctx, TF_ShapeHandle* handle);

/* When `handle` has rank `rank` or an unknown rank, stores the shape with
 * that rank in *result (unknown dims where nothing is known); otherwise
 * INVALID_ARGUMENT ("Shape must be rank R but is rank S"). */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextWithRank(
    TF_ShapeInferenceContext* ctx, TF_ShapeHandle* handle, int64_t rank,
    TF_ShapeHandle* result, TF_Status* status);

/* Same with "at least rank" and "at most rank"; the result is the input
 * shape. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextWithRankAtLeast(
    TF_ShapeInferenceContext* ctx, TF_ShapeHandle* handle, int64_t rank,
    TF_ShapeHandle* result, TF_Status* status);
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextWithRankAtMost(
    TF_ShapeInferenceContext* ctx, TF_ShapeHandle* handle, int64_t rank,
    TF_ShapeHandle* result, TF_Status* status);

/* Dimension i of the shape into *result (negative i counts from the end).
 * An unknown rank or an index out of range gives an unknown dimension. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextDim(
    TF_ShapeInferenceContext* ctx, TF_ShapeHandle* shape_handle, int64_t i,
    TF_DimensionHandle* result);

/* Dimensions [start, end) of the shape into *result; negative indices
 * count from the end and indices past the rank are clamped to it.
 * INVALID_ARGUMENT when start > end after that. An unknown rank gives an
 * unknown result. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextSubshape(
    TF_ShapeInferenceContext* ctx, TF_ShapeHandle* shape_handle, int64_t start,
    int64_t end, TF_ShapeHandle* result, TF_Status* status);

/* Sets every output to an unknown shape. */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextSetUnknownShape(
    TF_ShapeInferenceContext* ctx, TF_Status* status);

/* 1 when the dimension is known, else 0. */
TF_CAPI_EXPORT extern int TF_DimensionHandleValueKnown(
    TF_DimensionHandle* dim_handle);

/* The dimension's value, -1 when unknown. */
TF_CAPI_EXPORT extern int64_t TF_DimensionHandleValue(
    TF_DimensionHandle* dim_handle);

/* *result = the dims of `first` followed by those of `second` (unknown if
 * either rank is unknown). */
TF_CAPI_EXPORT extern void TF_ShapeInferenceContextConcatenateShapes(
    TF_ShapeInferenceContext* ctx, TF_ShapeHandle* first,
    TF_ShapeHandle* second, TF_ShapeHandle* result, TF_Status* status);

/* Free handles; NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteShapeHandle(TF_ShapeHandle* handle);
TF_CAPI_EXPORT extern void TF_DeleteDimensionHandle(TF_DimensionHandle* handle);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_OPS_H_ */
