/* tfe extension: reverse-mode automatic differentiation of eager ops from C.
 *
 * TensorFlow keeps its gradient tape inside its Python and C++ code; no C
 * program can take a gradient through its C API. tfe records ops in the C
 * core instead:
 *
 *   TFE_GradientTape* tape = TFE_NewGradientTape(ctx, 0, status);
 *   TFE_GradientTapeWatch(tape, x, status);
 *   ... run ops with TFE_Execute as usual ...
 *   TFE_GradientTapeGradient(tape, 1, &loss, NULL, 1, &x,
 *                            TFE_UNCONNECTED_NONE, &dx, status);
 *   TFE_DeleteGradientTape(tape);
 *
 * A tape records an op run with TFE_Execute on its context when one of the
 * op's inputs is watched or was produced by an op the tape recorded. With
 * no tape on a context, TFE_Execute pays one atomic load for this.
 * Ops placed on a custom device are recorded as the caller sees them (the
 * op with its custom-device handles), so their gradient ops run on that
 * device too; the ops a custom device runs internally on its own handles
 * are recorded only if a tape tracks those. TFE_GradientTapeRecordCustom
 * records a computation with a caller-supplied gradient
 * (tf.custom_gradient).
 *
 * Gradients come from one registry, keyed by op type. A gradient function
 * is written once against the unified API
 * (tensorflow/c/eager/c_api_unified_experimental.h and tfe/unified.h): it
 * reads the forward op's inputs, outputs, attrs and upstream gradients
 * from a TFE_GradientContext and builds ops on the context's
 * TF_ExecutionContext, so the same function can serve eager tapes and
 * graph gradients.
 *
 * Nothing here exists in TensorFlow; guard its use with #ifdef TFE_VERSION.
 * docs/GRADIENTS.md describes the design. */
#ifndef TFE_GRADIENTS_H_
#define TFE_GRADIENTS_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_unified_experimental.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- tapes ---- */

typedef struct TFE_GradientTape TFE_GradientTape;

/* What a source the targets do not depend on gets. */
typedef enum TFE_UnconnectedGradients {
  TFE_UNCONNECTED_NONE = 0, /* NULL */
  TFE_UNCONNECTED_ZERO = 1, /* zeros shaped like the source */
} TFE_UnconnectedGradients;

/* A new tape recording ops run on ctx (which must outlive it). A
 * persistent tape can be asked for gradients any number of times; a
 * non-persistent one once. The caller owns the tape. */
TF_CAPI_EXPORT extern TFE_GradientTape* TFE_NewGradientTape(TFE_Context* ctx,
                                                            unsigned char persistent,
                                                            TF_Status* status);
/* Stops recording and frees the tape and the tensors it kept. NULL is
 * fine. */
TF_CAPI_EXPORT extern void TFE_DeleteGradientTape(TFE_GradientTape* tape);

/* Watches a tensor: ops that use it are recorded from now on. The tape
 * keeps a reference to it; the caller keeps its own. Only floating and
 * complex tensors can be watched (others are ignored, as TF ignores
 * them). */
TF_CAPI_EXPORT extern void TFE_GradientTapeWatch(TFE_GradientTape* tape,
                                                 TFE_TensorHandle* tensor,
                                                 TF_Status* status);

/* Pauses and resumes recording (ops run in between are not recorded).
 * Pausing twice or resuming a running tape is TF_FAILED_PRECONDITION. */
TF_CAPI_EXPORT extern void TFE_GradientTapeStopRecording(TFE_GradientTape* tape,
                                                         TF_Status* status);
TF_CAPI_EXPORT extern void TFE_GradientTapeResumeRecording(TFE_GradientTape* tape,
                                                           TF_Status* status);

/* The gradients of the sum of the targets with respect to each source.
 *
 * output_gradients: NULL (each target's gradient is ones shaped like it)
 * or one tensor per target (NULL entries mean ones). gradients: an array
 * of num_sources the call fills with new handles the caller owns, or with
 * NULL for a source the targets do not depend on when unconnected is
 * TFE_UNCONNECTED_NONE. Stops recording on a non-persistent tape; asking
 * such a tape a second time is TF_FAILED_PRECONDITION. An op on the path
 * without a registered gradient is TF_UNIMPLEMENTED naming it (TF's
 * LookupError); an op registered as not differentiable stops the
 * gradient there, as in TF. */
TF_CAPI_EXPORT extern void TFE_GradientTapeGradient(
    TFE_GradientTape* tape, int num_targets, TFE_TensorHandle* const* targets,
    TFE_TensorHandle* const* output_gradients, int num_sources,
    TFE_TensorHandle* const* sources, TFE_UnconnectedGradients unconnected,
    TFE_TensorHandle** gradients, TF_Status* status);

/* Number of ops the tape holds (for tests and tools). */
TF_CAPI_EXPORT extern int TFE_GradientTapeNumRecordedOps(const TFE_GradientTape* tape);

/* ---- the gradient registry ---- */

typedef struct TFE_GradientContext TFE_GradientContext;

/* Computes the gradients of one forward op's inputs from the gradients of
 * its outputs, building ops on TFE_GradientContextExecutionContext(g). */
typedef void (*TFE_GradientFunction)(TFE_GradientContext* g, TF_Status* status);

/* Registers the gradient of op_type (copied). Registering an op twice is
 * TF_ALREADY_EXISTS; an empty name or NULL function TF_INVALID_ARGUMENT.
 * Plugins call this for their own ops. */
TF_CAPI_EXPORT extern void TFE_RegisterGradient(const char* op_type,
                                                TFE_GradientFunction fn,
                                                TF_Status* status);
/* Marks op_type as not differentiable (TF's NotDifferentiable): gradients
 * stop at it. */
TF_CAPI_EXPORT extern void TFE_RegisterNotDifferentiable(const char* op_type,
                                                         TF_Status* status);
/* 1 when op_type has a gradient function, 2 when it is registered as not
 * differentiable, 0 when it is unknown to the registry. */
TF_CAPI_EXPORT extern int TFE_GradientRegistryLookup(const char* op_type);

/* ---- custom gradients (tf.custom_gradient from C) ---- */

/* Computes the input gradients of one custom record.
 *
 * data: the pointer given to TFE_GradientTapeRecordCustom. ctx: the
 * context the record was made on. output_gradients[i] (borrowed, valid
 * during the call) is the gradient flowing into output i, or NULL when
 * nothing downstream depends on that output (a zero gradient).
 * input_gradients: num_inputs slots, all NULL on entry; set slot j to a
 * new handle for input j's gradient (the tape takes that reference over:
 * to put one handle in two slots, or to pass on an upstream gradient, add
 * a reference with TFE_TensorHandleNewReference) or leave it NULL (no
 * gradient). Build gradients with TFE_Execute on ctx as usual:
 * other tapes recording on ctx record those ops, so a gradient function
 * made of differentiable ops gives higher-order gradients (the function
 * places its ops itself: on the parallel device, which wants explicit
 * placement, set their device). Report failure through status; the tape
 * then releases the handles already set and the gradient call fails with
 * that status. */
typedef void (*TFE_CustomGradientFunction)(void* data, TFE_Context* ctx, int num_outputs,
                                           TFE_TensorHandle* const* output_gradients,
                                           int num_inputs, TFE_TensorHandle** input_gradients,
                                           TF_Status* status);

/* Records a computation from inputs to outputs whose gradient is fn (TF's
 * tf.custom_gradient): every tape recording on ctx that tracks one of the
 * inputs records one entry; when gradients reach its outputs, the tape
 * calls fn(data, ...) instead of looking up an op's gradient. The ops that
 * computed the outputs are not involved: pass output handles no tape knows
 * yet (typically TFE_TensorHandleCopySharingTensor of the values computed);
 * an output that is one of the inputs, or that a tape which records the
 * entry already tracks (a recorded op produced it, or it is watched), is
 * TF_INVALID_ARGUMENT. The tapes keep references to inputs and outputs,
 * as for ops; the caller keeps its own.
 *
 * Ownership of data passes to tfe in every case: deleter(data) (unless
 * deleter is NULL) runs exactly once, when no tape needs fn any more. That
 * is before this call returns when no tape recorded the entry (none
 * records, none tracks an input, or an error), else when the last tape
 * holding it answers (non-persistent) or is deleted; on the thread doing
 * that, never while tfe holds a lock (the deleter may call tfe).
 *
 * Returns the number of tapes that recorded the entry (0 too on error). */
TF_CAPI_EXPORT extern int TFE_GradientTapeRecordCustom(
    TFE_Context* ctx, int num_inputs, TFE_TensorHandle* const* inputs, int num_outputs,
    TFE_TensorHandle* const* outputs, TFE_CustomGradientFunction fn, void* data,
    void (*deleter)(void* data), TF_Status* status);

/* A new reference to the same handle object (not a copy: contrast
 * TFE_TensorHandleCopySharingTensor, which makes a new handle). Tapes track
 * handles by object, so a binding that wraps the upstream gradients of a
 * custom gradient function, or hands back a gradient it keeps, uses this
 * for ops on them to stay recorded (higher-order gradients). Release it
 * with TFE_DeleteTensorHandle. NULL with TF_INVALID_ARGUMENT for a NULL
 * handle or one that is not live. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_TensorHandleNewReference(TFE_TensorHandle* h,
                                                                     TF_Status* status);

/* ---- gradients of function calls from the forward pass's values ---- */

/* For function `fname` of ctx's library, adds to ctx (once per definition
 * of fname; later calls find it) a forward variant whose outputs are
 * fname's outputs followed by the forward values fname's gradient reads
 * (the variant's extra outputs), and returns how many extra outputs it
 * has (>= 0), writing its name (NUL-terminated) into name[0..cap). A call
 * of the variant recorded on a tape (or differentiated by
 * TF_AddGradients) gets its gradient from those saved values, through a
 * backward function also added to ctx, instead of running the forward
 * computation again: gradients through random ops, or through variables
 * read in the call and assigned later, are then those of the values the
 * call produced, as in TF (whose forward functions keep their
 * intermediates). A binding calls the variant instead of fname while a
 * tape may record and drops the extra outputs (the tape keeps them).
 * Returns -1 with status set on failure (TF_NOT_FOUND: no such function;
 * TF_INVALID_ARGUMENT: NULL arguments or a cap too small; TF_UNIMPLEMENTED:
 * the gradient itself would run a stateful op); the caller may then call
 * fname itself. */
TF_CAPI_EXPORT extern int TFE_ContextAddForwardFunction(TFE_Context* ctx, const char* fname,
                                                        char* name, size_t cap,
                                                        TF_Status* status);

/* ---- inside a gradient function ---- */

/* Where to build ops (borrowed). */
TF_CAPI_EXPORT extern TF_ExecutionContext* TFE_GradientContextExecutionContext(
    TFE_GradientContext* g);
/* The forward op's type (borrowed). */
TF_CAPI_EXPORT extern const char* TFE_GradientContextOpType(TFE_GradientContext* g);
TF_CAPI_EXPORT extern int TFE_GradientContextNumInputs(TFE_GradientContext* g);
TF_CAPI_EXPORT extern int TFE_GradientContextNumOutputs(TFE_GradientContext* g);
/* The forward op's input i / output i (borrowed; NULL out of range). */
TF_CAPI_EXPORT extern TF_AbstractTensor* TFE_GradientContextInput(TFE_GradientContext* g,
                                                                  int i);
TF_CAPI_EXPORT extern TF_AbstractTensor* TFE_GradientContextOutput(TFE_GradientContext* g,
                                                                   int i);
/* The gradient flowing into output i (borrowed), or NULL when nothing
 * downstream depends on that output (a zero gradient). */
TF_CAPI_EXPORT extern TF_AbstractTensor* TFE_GradientContextOutputGradient(
    TFE_GradientContext* g, int i);
/* Sets the gradient of input i; the context takes the tensor over. An
 * input left unset gets no gradient. */
TF_CAPI_EXPORT extern void TFE_GradientContextSetInputGradient(TFE_GradientContext* g,
                                                               int i,
                                                               TF_AbstractTensor* grad,
                                                               TF_Status* status);
/* Attrs of the forward op (its definition's defaults included). A
 * missing attr is TF_NOT_FOUND, one of another kind TF_INVALID_ARGUMENT,
 * with TF's GetNodeAttr messages; the result is then 0. */
TF_CAPI_EXPORT extern int64_t TFE_GradientContextAttrInt(TFE_GradientContext* g,
                                                         const char* name,
                                                         TF_Status* status);
TF_CAPI_EXPORT extern unsigned char TFE_GradientContextAttrBool(TFE_GradientContext* g,
                                                                const char* name,
                                                                TF_Status* status);
TF_CAPI_EXPORT extern float TFE_GradientContextAttrFloat(TFE_GradientContext* g,
                                                         const char* name,
                                                         TF_Status* status);
TF_CAPI_EXPORT extern TF_DataType TFE_GradientContextAttrType(TFE_GradientContext* g,
                                                              const char* name,
                                                              TF_Status* status);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TFE_GRADIENTS_H_ */
