/* Executors and the waits of the asynchronous API, in their synchronous
 * form: every op runs inside TFE_Execute, so there is never pending work
 * and waits return at once with the executor's (always clear) error. The
 * flags given at creation are kept so that the asynchronous implementation
 * can take over without changing the API's behaviour. */
#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/eager_internal.h"

TFE_Executor* TFE_NewExecutor(bool is_async, bool enable_streaming_enqueue,
                              int in_flight_nodes_limit) {
  TFE_Executor* ex = (TFE_Executor*)tfe_calloc(1, sizeof(*ex));
  if (ex == NULL) return NULL;
  ex->is_async = is_async;
  ex->streaming_enqueue = enable_streaming_enqueue;
  ex->in_flight_nodes_limit = in_flight_nodes_limit;
  ex->error_code = TF_OK;
  return ex;
}

/* The executor a wrapper stands for. */
static TFE_Executor* real(TFE_Executor* ex) {
  return ex->target != NULL ? ex->target : ex;
}

void TFE_DeleteExecutor(TFE_Executor* executor) {
  /* Nothing is ever pending, so there is nothing to wait for. */
  tfe_free(executor);
}

bool TFE_ExecutorIsAsync(TFE_Executor* executor) {
  if (executor == NULL) return false;
  return real(executor)->is_async != 0;
}

void TFE_ExecutorWaitForAllPendingNodes(TFE_Executor* executor,
                                        TF_Status* status) {
  if (executor == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ExecutorWaitForAllPendingNodes: executor is NULL");
    return;
  }
  tfe_status_ok(status);
}

void TFE_ExecutorClearError(TFE_Executor* executor) {
  if (executor != NULL) real(executor)->error_code = TF_OK;
}

void TFE_ContextSetExecutorForThread(TFE_Context* ctx,
                                     TFE_Executor* executor) {
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) return;
  tfe_ctx_set_thread_executor(ctx,
                              executor == NULL ? NULL : real(executor));
}

TFE_Executor* TFE_ContextGetExecutorForThread(TFE_Context* ctx) {
  TFE_Executor* w;
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) return NULL;
  w = (TFE_Executor*)tfe_calloc(1, sizeof(*w));
  if (w == NULL) return NULL;
  w->target = tfe_ctx_thread_executor(ctx);
  return w;
}

void TFE_ContextAsyncWait(TFE_Context* ctx, TF_Status* status) {
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ContextAsyncWait: context is NULL or not live");
    return;
  }
  tfe_status_ok(status);
}
