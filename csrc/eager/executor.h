/* Asynchronous execution inside the eager runtime: executor queues and
 * their worker threads (executor.c), queued ops ("nodes",
 * async_execute.c), pending tensor handles (pending_handle.c) and
 * cancellation managers (cancellation.c).
 *
 * How an op runs asynchronously:
 *   1. TFE_Execute validates the op synchronously exactly as in synchronous
 *      mode (placement, kernel lookup, input dtypes and placement policy),
 *      so those errors still surface at TFE_Execute.
 *   2. tfe_async_execute makes one PENDING output handle per output (dtype
 *      and device known, no value), takes references on the inputs and the
 *      outputs, and pushes a node on the executor's queue; it blocks while
 *      the executor has in_flight_nodes_limit nodes in flight.
 *   3. The executor's worker thread pops nodes in order, waits until the
 *      node's inputs are ready, runs the kernel and fulfils the outputs
 *      (READY), or poisons them (ERROR) with the failure.
 *   4. A failure puts the executor in error: the nodes still queued are
 *      dropped and their outputs poisoned with the same error, and
 *      TFE_Execute on that executor fails at once with the error until
 *      TFE_ExecutorClearError (or TFE_ContextAsyncWait, which clears).
 *
 * Ops executed from a worker thread (a kernel or a custom device calling
 * TFE_Execute) always run inline, so a worker never waits for itself. */
#ifndef TFE_EAGER_EXECUTOR_H_
#define TFE_EAGER_EXECUTOR_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "eager/eager_internal.h"

typedef struct tfe_async_node tfe_async_node;

/* ---- executors (executor.c) ---- */

/* The executor ops that the calling thread executes in ctx must be queued
 * on, or NULL when they run inline (synchronous executor, or the calling
 * thread is an executor's worker). */
TFE_Executor* tfe_executor_for_enqueue(TFE_Context* ctx);

/* Pushes `node` on ex's queue, waiting while the queue is full. On failure
 * (executor in error, no worker thread) returns 0 with the error in s; the
 * node is then not consumed. */
int tfe_executor_push(TFE_Executor* ex, tfe_async_node* node, TF_Status* s);

/* Releases the executor state of ctx (its default executor's worker, its
 * registrations). Called once by ctx_free; safe on a worker thread. */
void tfe_executor_ctx_release(TFE_Context* ctx);

/* 1 when the calling thread is the worker of some executor. */
int tfe_executor_on_worker(void);

/* ---- nodes (async_execute.c) ---- */

/* Queues op (already validated against the cache entry e: input count,
 * dtypes, placement policy) on ex and returns pending outputs in retvals.
 * Errors (out of memory, executor in error) leave retvals untouched. */
void tfe_async_execute(TFE_Executor* ex, TFE_Op* op,
                       const tfe_kcache_entry* e, TFE_TensorHandle** retvals,
                       int* num_retvals, TF_Status* status);

/* Runs a node (on the worker): waits for its inputs, checks its
 * cancellation manager, runs the kernel, fulfils its outputs. Returns the
 * result in s (scratch status owned by the caller); on failure the outputs
 * are poisoned with it. */
void tfe_async_node_run(tfe_async_node* node, TF_Status* s);
/* Poisons the outputs of a node that will not run. */
void tfe_async_node_abort(tfe_async_node* node, TF_Code code,
                          const char* msg);
/* Releases the node's references and frees it. */
void tfe_async_node_free(tfe_async_node* node);
/* Queue link. */
tfe_async_node** tfe_async_node_next(tfe_async_node* node);

/* ---- kernels (execute.c) ---- */

/* Runs e's kernel on `inputs` (e->num_inputs handles, waited for when
 * pending) and stores e->num_outputs new tensors in outs (which must hold
 * NULLs); on failure returns 0 with the error in status and outs all
 * NULL. Copies inputs to the memory the kernel needs and checks that the
 * kernel produced every output with the expected dtype. For an op with
 * Ref(T) args, out_refs (e->num_outputs NULLs) receives one cell
 * reference per Ref output (kernels/ref_var.h; outs[i] stays NULL there);
 * it may be NULL for other ops. */
int tfe_execute_kernel(TFE_Context* ctx, const tfe_kcache_entry* e,
                       TFE_TensorHandle* const* inputs, TF_Tensor** outs,
                       struct tfe_ref_cell** out_refs,
                       struct TFE_CancellationManager* cancel,
                       TF_Status* status);

/* ---- pending handles (pending_handle.c) ---- */

/* New PENDING handle of dtype on device (one reference, for the caller). */
TFE_TensorHandle* tfe_handle_new_pending(TFE_Context* ctx, TF_DataType dtype,
                                         const tfe_device* device);
/* Gives a PENDING handle its value (adopting t) and wakes its waiters. */
void tfe_handle_fulfil(TFE_TensorHandle* h, TF_Tensor* t);
/* Marks a PENDING handle failed with (code, msg) and wakes its waiters. */
void tfe_handle_poison(TFE_TensorHandle* h, TF_Code code, const char* msg);
/* Waits while h is PENDING; returns its final state. */
int tfe_handle_wait(TFE_TensorHandle* h);

/* ---- cancellation (cancellation.c) ---- */

void tfe_cancel_ref(struct TFE_CancellationManager* cm);
void tfe_cancel_unref(struct TFE_CancellationManager* cm);
/* 0 with CANCELLED in s when cm (may be NULL) was cancelled, 1 otherwise. */
int tfe_cancel_check(struct TFE_CancellationManager* cm, const char* op_name,
                     TF_Status* s);

#endif /* TFE_EAGER_EXECUTOR_H_ */
