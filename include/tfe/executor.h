/* tfe extension to TensorFlow's executors (TFE_NewExecutor and friends in
 * tensorflow/c/eager/c_api_experimental.h): statistics of an executor's
 * queue, so that programs and tests can see how far ahead of the device the
 * caller ran.
 *
 * Nothing here exists in TensorFlow; guard its use with #ifdef TFE_VERSION.
 * docs/ASYNC.md describes asynchronous execution in tfe. */
#ifndef TFE_EXECUTOR_H_
#define TFE_EXECUTOR_H_

#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The in-flight limit an asynchronous executor gets when it is created
 * with in_flight_nodes_limit <= 0 (and the limit of a context's default
 * executor). */
#define TFE_EXECUTOR_DEFAULT_IN_FLIGHT_LIMIT 32

/* Counters of one executor. "In flight" means enqueued and not finished:
 * waiting in the queue or running. */
typedef struct TFE_ExecutorStats {
  /* Ops accepted into the queue since creation or the last reset. */
  int64_t nodes_enqueued;
  /* Of those, ops that are finished: ran, failed, or were dropped because
   * an earlier op failed. */
  int64_t nodes_finished;
  /* Times a caller had to wait because the queue was at its limit. */
  int64_t blocked_enqueues;
  /* Ops in flight right now. */
  int32_t in_flight;
  /* The most ops ever in flight at once since creation or the last reset;
   * never more than in_flight_limit. */
  int32_t in_flight_high_water;
  /* The bound on in_flight (0 for a synchronous executor). */
  int32_t in_flight_limit;
  /* 1 for an asynchronous executor, 0 for a synchronous one. */
  int32_t is_async;
} TFE_ExecutorStats;

/* Fills *stats with the counters of `executor` (or of the executor a
 * wrapper from TFE_ContextGetExecutorForThread refers to). The counters of
 * a synchronous executor are all zero except is_async (0). Errors:
 * INVALID_ARGUMENT for a NULL executor or a NULL stats (*stats is then left
 * untouched). May be called from any thread at any time. */
TF_CAPI_EXPORT extern void TFE_ExecutorGetStats(TFE_Executor* executor,
                                                TFE_ExecutorStats* stats,
                                                TF_Status* status);

/* Resets nodes_enqueued, nodes_finished and blocked_enqueues to 0 and the
 * high-water mark to the number of ops in flight now. NULL is a no-op. */
TF_CAPI_EXPORT extern void TFE_ExecutorResetStats(TFE_Executor* executor);

#ifdef __cplusplus
}
#endif

#endif /* TFE_EXECUTOR_H_ */
