/* tfe extension: forward-mode automatic differentiation of eager ops from C
 * (jacobian-vector products), TensorFlow's tf.autodiff.ForwardAccumulator
 * in the C core.
 *
 *   TFE_ForwardAccumulator* acc = TFE_NewForwardAccumulator(ctx, status);
 *   TFE_ForwardAccumulatorWatch(acc, x, tangent_of_x, status);
 *   ... run ops with TFE_Execute as usual ...
 *   TFE_TensorHandle* jvp = TFE_ForwardAccumulatorJvp(acc, y, status);
 *   TFE_DeleteForwardAccumulator(acc);
 *
 * While an accumulator records, every op that TFE_Execute runs on its
 * context with an input carrying a tangent gets tangents for its outputs
 * right after it ran: by a forward rule for the common ops (elementwise,
 * MatMul and other multilinear ops, reductions, reshapes and other linear
 * ops), otherwise from the op's reverse-mode gradient in the gradient
 * registry (include/tfe/gradients.h) with the double-vjp trick. An op
 * that needs a tangent and has no gradient makes TFE_Execute fail with
 * TF_UNIMPLEMENTED naming it (TF raises LookupError at that point too).
 *
 * Nesting follows TF: accumulators see the ops that compute the tangents
 * of accumulators created after them (so nested accumulators give higher
 * derivatives), not those of accumulators created before them; gradient
 * tapes record the tangent computations (reverse over forward), and an
 * accumulator around a tape sees the ops of its backward pass (forward
 * over reverse: Hessian-vector products).
 *
 * With no tape and no accumulator on a context, TFE_Execute pays one
 * atomic load for both. Nothing here exists in TensorFlow; guard its use
 * with #ifdef TFE_VERSION. docs/GRADIENTS.md describes the design. */
#ifndef TFE_FORWARD_H_
#define TFE_FORWARD_H_

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TFE_ForwardAccumulator TFE_ForwardAccumulator;

/* A new accumulator recording ops run on ctx (which must outlive it); it
 * records from creation on. The caller owns it. */
TF_CAPI_EXPORT extern TFE_ForwardAccumulator* TFE_NewForwardAccumulator(TFE_Context* ctx,
                                                                        TF_Status* status);

/* Stops recording and frees the accumulator with the references it holds
 * (to every tensor it gave a tangent and to the tangents). NULL is fine. */
TF_CAPI_EXPORT extern void TFE_DeleteForwardAccumulator(TFE_ForwardAccumulator* acc);

/* Gives primal the tangent `tangent` (same dtype and shape, except that a
 * resource primal, a variable's handle, takes a tangent shaped like the
 * variable's value). The accumulator keeps a reference to both; the caller
 * keeps its own. Watching a primal again adds the new tangent to the one
 * it has, as TF does. A dtype or shape mismatch is TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern void TFE_ForwardAccumulatorWatch(TFE_ForwardAccumulator* acc,
                                                       TFE_TensorHandle* primal,
                                                       TFE_TensorHandle* tangent,
                                                       TF_Status* status);

/* The tangent of `tensor` (a watched primal or a tensor computed while the
 * accumulator recorded): a new handle the caller owns, or NULL with an OK
 * status when the tensor does not depend on the watched primals. Can be
 * asked while recording or after. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_ForwardAccumulatorJvp(TFE_ForwardAccumulator* acc,
                                                                  TFE_TensorHandle* tensor,
                                                                  TF_Status* status);

/* Pauses and resumes recording (ops run in between get no tangents).
 * Pausing a paused accumulator or resuming a recording one is
 * TF_FAILED_PRECONDITION. */
TF_CAPI_EXPORT extern void TFE_ForwardAccumulatorStopRecording(TFE_ForwardAccumulator* acc,
                                                               TF_Status* status);
TF_CAPI_EXPORT extern void TFE_ForwardAccumulatorResumeRecording(TFE_ForwardAccumulator* acc,
                                                                 TF_Status* status);

/* Number of tensors that have a tangent (watched ones included; for tests
 * and tools). */
TF_CAPI_EXPORT extern int TFE_ForwardAccumulatorNumTangents(const TFE_ForwardAccumulator* acc);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TFE_FORWARD_H_ */
