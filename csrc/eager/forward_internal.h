/* Internal interface of forward-mode accumulators (forward.c,
 * include/tfe/forward.h). */
#ifndef TFE_EAGER_FORWARD_INTERNAL_H_
#define TFE_EAGER_FORWARD_INTERNAL_H_

#include "eager/eager_internal.h"
#include "tfe/forward.h"

/* Called by TFE_Execute after op ran successfully and produced outs[0..n)
 * when ctx->num_tapes is non-zero (a recording accumulator counts there
 * like a recording tape). Returns at once, after one atomic load, when no
 * accumulator records anywhere. Otherwise every recording accumulator of
 * op's context for which one of op's inputs has a tangent computes the
 * tangents of the outputs. When that fails (an op on the path has no
 * gradient), sets `status`, deletes outs[0..n) and sets them to NULL, so
 * that the execution fails as a whole (TF raises at that point too). */
void tfe_forward_record(TFE_Op* op, TFE_TensorHandle** outs, int n, TF_Status* status);

#endif /* TFE_EAGER_FORWARD_INTERNAL_H_ */
