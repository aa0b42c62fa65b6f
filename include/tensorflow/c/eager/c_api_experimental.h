/* tfe: the experimental eager C API (TensorFlow 2.21's
 * tensorflow/c/eager/c_api_experimental.h), written so that it compiles as
 * C99 and as C++.
 *
 * TF's own copy of this header only compiles as C++ (default member
 * initializers, a reference parameter). This one declares the same
 * functions with the same ABI:
 *   - TFE_CustomDevice / TFE_CustomDeviceTensorHandle have TF's layout
 *     (version 4). In C++ their members have TF's default initializers
 *     (`version` = TFE_CUSTOM_DEVICE_VERSION, the optional pointers
 *     nullptr); C has no such thing: set `version` to
 *     TFE_CUSTOM_DEVICE_VERSION and zero the optional pointers yourself
 *     (e.g. start from `= {0}` / memset).
 *   - TFE_GetTaskStates takes `const TF_Buffer*` in C (a C++ reference has
 *     the same ABI), and `const TF_Buffer&` in C++ as in TF.
 *   - TFE_MonitoringStringGaugeCellValue returns `const void` in C++ as in
 *     TF, and plain `void` in C (the same thing; C compilers warn about
 *     the qualifier).
 *
 * This header is not included by tensorflow/c/eager/c_api.h: C programs
 * written for TF often declare these functions and structs themselves.
 *
 * What tfe implements here: op reuse and attribute snapshots, device memory
 * access for host tensors, synchronous and asynchronous executors (see
 * TFE_NewExecutor and docs/ASYNC.md), cancellation managers, logical CPU
 * devices, soft and logged placement, the tensor-handle queries,
 * custom devices (TFE_RegisterCustomDevice; docs/CUSTOM_DEVICES.md),
 * monitoring metrics (TFE_Monitoring*; docs/MONITORING.md) and context
 * functions (TFE_ContextGetFunction/GetFunctionDef).
 * Deliberate stubs (distributed execution, the coordination service, graph
 * collection, TFE_ContextGetGraphDebugInfo) are declared so that programs
 * link and report TF_UNIMPLEMENTED naming the function; those without a
 * TF_Status do nothing and log a warning once. */
#ifndef TENSORFLOW_C_EAGER_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_C_EAGER_C_API_EXPERIMENTAL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Ops. */

/* Makes `op_to_reset` describe a fresh op named `op_or_function_name`
 * (inputs released, attrs cleared) on `raw_device_name` (NULL or "" for no
 * device). The op keeps its context. Unknown op: TF_NOT_FOUND; bad device
 * name: TF_INVALID_ARGUMENT; in both cases the op is left empty and must
 * be reset again before use. */
TF_CAPI_EXPORT extern void TFE_OpReset(TFE_Op* op_to_reset,
                                       const char* op_or_function_name,
                                       const char* raw_device_name,
                                       TF_Status* status);

/* Collecting the graphs that eager functions run: a deliberate tfe stub;
 * these two do nothing (and log a warning once). */
TF_CAPI_EXPORT extern void TFE_ContextEnableGraphCollection(TFE_Context* ctx);
TF_CAPI_EXPORT extern void TFE_ContextDisableGraphCollection(TFE_Context* ctx);

/* ------------------------------------------------------------------------
 * Monitoring (metrics); docs/MONITORING.md.
 *
 * New*: creates a metric; the caller owns it and releases it with the
 * matching Delete* (NULL is a no-op). `name`, `description` and the label
 * names are copied. Sets TF_OK on success. NULL name, description or label
 * name (or NULL buckets for samplers): TF_INVALID_ARGUMENT and NULL; out of
 * memory: TF_RESOURCE_EXHAUSTED and NULL; NULL status: NULL. A name that is
 * already in use is accepted (as in TF 2.21): a warning is logged and the
 * new metric takes the name over.
 *
 * GetCell*: the cell for the given label values, created on first use with
 * a zero value. The metric owns it: the same label values give the same
 * pointer until the metric is deleted. NULL for a NULL metric or a NULL
 * label value. Cells may be used from any number of threads.
 *
 * Cell functions ignore a NULL cell (value getters then return 0/false). */

/* IncrementBy adds `value`; a negative value subtracts (TF checks the sign
 * only in debug builds). */
typedef struct TFE_MonitoringCounterCell TFE_MonitoringCounterCell;
TF_CAPI_EXPORT extern void TFE_MonitoringCounterCellIncrementBy(
    TFE_MonitoringCounterCell* cell, int64_t value);
TF_CAPI_EXPORT extern int64_t TFE_MonitoringCounterCellValue(
    TFE_MonitoringCounterCell* cell);

typedef struct TFE_MonitoringCounter0 TFE_MonitoringCounter0;
TF_CAPI_EXPORT extern TFE_MonitoringCounter0* TFE_MonitoringNewCounter0(
    const char* name, TF_Status* status, const char* description);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteCounter0(
    TFE_MonitoringCounter0* counter);
TF_CAPI_EXPORT extern TFE_MonitoringCounterCell* TFE_MonitoringGetCellCounter0(
    TFE_MonitoringCounter0* counter);

typedef struct TFE_MonitoringCounter1 TFE_MonitoringCounter1;
TF_CAPI_EXPORT extern TFE_MonitoringCounter1* TFE_MonitoringNewCounter1(
    const char* name, TF_Status* status, const char* description,
    const char* label1);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteCounter1(
    TFE_MonitoringCounter1* counter);
TF_CAPI_EXPORT extern TFE_MonitoringCounterCell* TFE_MonitoringGetCellCounter1(
    TFE_MonitoringCounter1* counter, const char* label1);

typedef struct TFE_MonitoringCounter2 TFE_MonitoringCounter2;
TF_CAPI_EXPORT extern TFE_MonitoringCounter2* TFE_MonitoringNewCounter2(
    const char* name, TF_Status* status, const char* description,
    const char* label1, const char* label2);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteCounter2(
    TFE_MonitoringCounter2* counter);
TF_CAPI_EXPORT extern TFE_MonitoringCounterCell* TFE_MonitoringGetCellCounter2(
    TFE_MonitoringCounter2* counter, const char* label1, const char* label2);

typedef struct TFE_MonitoringIntGaugeCell TFE_MonitoringIntGaugeCell;
TF_CAPI_EXPORT extern void TFE_MonitoringIntGaugeCellSet(
    TFE_MonitoringIntGaugeCell* cell, int64_t value);
TF_CAPI_EXPORT extern int64_t TFE_MonitoringIntGaugeCellValue(
    TFE_MonitoringIntGaugeCell* cell);

typedef struct TFE_MonitoringIntGauge0 TFE_MonitoringIntGauge0;
TF_CAPI_EXPORT extern TFE_MonitoringIntGauge0* TFE_MonitoringNewIntGauge0(
    const char* name, TF_Status* out_status, const char* description);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteIntGauge0(
    TFE_MonitoringIntGauge0* gauge);
TF_CAPI_EXPORT extern TFE_MonitoringIntGaugeCell*
TFE_MonitoringGetCellIntGauge0(TFE_MonitoringIntGauge0* gauge);

typedef struct TFE_MonitoringIntGauge1 TFE_MonitoringIntGauge1;
TF_CAPI_EXPORT extern TFE_MonitoringIntGauge1* TFE_MonitoringNewIntGauge1(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteIntGauge1(
    TFE_MonitoringIntGauge1* gauge);
TF_CAPI_EXPORT extern TFE_MonitoringIntGaugeCell*
TFE_MonitoringGetCellIntGauge1(TFE_MonitoringIntGauge1* gauge,
                               const char* label1);

typedef struct TFE_MonitoringIntGauge2 TFE_MonitoringIntGauge2;
TF_CAPI_EXPORT extern TFE_MonitoringIntGauge2* TFE_MonitoringNewIntGauge2(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1, const char* label2);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteIntGauge2(
    TFE_MonitoringIntGauge2* gauge);
TF_CAPI_EXPORT extern TFE_MonitoringIntGaugeCell*
TFE_MonitoringGetCellIntGauge2(TFE_MonitoringIntGauge2* gauge,
                               const char* label1, const char* label2);

/* Set copies `value` (NULL: the gauge keeps its value). Value replaces the
 * contents of `buf` (releasing the old ones through buf's deallocator) with
 * a copy of the string, owned by `buf` and freed by TF_DeleteBuffer; NULL
 * buf: no effect. TF declares Value's return type as `const void`, which
 * C++ sees too; in C it is plain void (the same ABI). */
typedef struct TFE_MonitoringStringGaugeCell TFE_MonitoringStringGaugeCell;
TF_CAPI_EXPORT extern void TFE_MonitoringStringGaugeCellSet(
    TFE_MonitoringStringGaugeCell* cell, const char* value);
#ifdef __cplusplus
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
#endif
TF_CAPI_EXPORT extern const void TFE_MonitoringStringGaugeCellValue(
    TFE_MonitoringStringGaugeCell* cell, TF_Buffer* buf);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#else
TF_CAPI_EXPORT extern void TFE_MonitoringStringGaugeCellValue(
    TFE_MonitoringStringGaugeCell* cell, TF_Buffer* buf);
#endif

typedef struct TFE_MonitoringStringGauge0 TFE_MonitoringStringGauge0;
TF_CAPI_EXPORT extern TFE_MonitoringStringGauge0* TFE_MonitoringNewStringGauge0(
    const char* name, TF_Status* out_status, const char* description);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteStringGauge0(
    TFE_MonitoringStringGauge0* gauge);
TF_CAPI_EXPORT extern TFE_MonitoringStringGaugeCell*
TFE_MonitoringGetCellStringGauge0(TFE_MonitoringStringGauge0* gauge);

typedef struct TFE_MonitoringStringGauge1 TFE_MonitoringStringGauge1;
TF_CAPI_EXPORT extern TFE_MonitoringStringGauge1* TFE_MonitoringNewStringGauge1(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteStringGauge1(
    TFE_MonitoringStringGauge1* gauge);
TF_CAPI_EXPORT extern TFE_MonitoringStringGaugeCell*
TFE_MonitoringGetCellStringGauge1(TFE_MonitoringStringGauge1* gauge,
                                  const char* label1);

typedef struct TFE_MonitoringStringGauge2 TFE_MonitoringStringGauge2;
TF_CAPI_EXPORT extern TFE_MonitoringStringGauge2* TFE_MonitoringNewStringGauge2(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1, const char* label2);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteStringGauge2(
    TFE_MonitoringStringGauge2* gauge);
TF_CAPI_EXPORT extern TFE_MonitoringStringGaugeCell*
TFE_MonitoringGetCellStringGauge2(TFE_MonitoringStringGauge2* gauge,
                                  const char* label1, const char* label2);

typedef struct TFE_MonitoringStringGauge3 TFE_MonitoringStringGauge3;
TF_CAPI_EXPORT extern TFE_MonitoringStringGauge3* TFE_MonitoringNewStringGauge3(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1, const char* label2, const char* label3);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteStringGauge3(
    TFE_MonitoringStringGauge3* gauge);
TF_CAPI_EXPORT extern TFE_MonitoringStringGaugeCell*
TFE_MonitoringGetCellStringGauge3(TFE_MonitoringStringGauge3* gauge,
                                  const char* label1, const char* label2,
                                  const char* label3);

typedef struct TFE_MonitoringStringGauge4 TFE_MonitoringStringGauge4;
TF_CAPI_EXPORT extern TFE_MonitoringStringGauge4* TFE_MonitoringNewStringGauge4(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1, const char* label2, const char* label3,
    const char* label4);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteStringGauge4(
    TFE_MonitoringStringGauge4* gauge);
TF_CAPI_EXPORT extern TFE_MonitoringStringGaugeCell*
TFE_MonitoringGetCellStringGauge4(TFE_MonitoringStringGauge4* gauge,
                                  const char* label1, const char* label2,
                                  const char* label3, const char* label4);

typedef struct TFE_MonitoringBoolGaugeCell TFE_MonitoringBoolGaugeCell;
TF_CAPI_EXPORT extern void TFE_MonitoringBoolGaugeCellSet(
    TFE_MonitoringBoolGaugeCell* cell, bool value);
TF_CAPI_EXPORT extern bool TFE_MonitoringBoolGaugeCellValue(
    TFE_MonitoringBoolGaugeCell* cell);

typedef struct TFE_MonitoringBoolGauge0 TFE_MonitoringBoolGauge0;
TF_CAPI_EXPORT extern TFE_MonitoringBoolGauge0* TFE_MonitoringNewBoolGauge0(
    const char* name, TF_Status* out_status, const char* description);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteBoolGauge0(
    TFE_MonitoringBoolGauge0* gauge);
TF_CAPI_EXPORT extern TFE_MonitoringBoolGaugeCell*
TFE_MonitoringGetCellBoolGauge0(TFE_MonitoringBoolGauge0* gauge);

typedef struct TFE_MonitoringBoolGauge1 TFE_MonitoringBoolGauge1;
TF_CAPI_EXPORT extern TFE_MonitoringBoolGauge1* TFE_MonitoringNewBoolGauge1(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteBoolGauge1(
    TFE_MonitoringBoolGauge1* gauge);
TF_CAPI_EXPORT extern TFE_MonitoringBoolGaugeCell*
TFE_MonitoringGetCellBoolGauge1(TFE_MonitoringBoolGauge1* gauge,
                                const char* label1);

typedef struct TFE_MonitoringBoolGauge2 TFE_MonitoringBoolGauge2;
TF_CAPI_EXPORT extern TFE_MonitoringBoolGauge2* TFE_MonitoringNewBoolGauge2(
    const char* name, TF_Status* out_status, const char* description,
    const char* label1, const char* label2);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteBoolGauge2(
    TFE_MonitoringBoolGauge2* gauge);
TF_CAPI_EXPORT extern TFE_MonitoringBoolGaugeCell*
TFE_MonitoringGetCellBoolGauge2(TFE_MonitoringBoolGauge2* gauge,
                                const char* label1, const char* label2);

/* Add records one sample; samples at or above DBL_MAX, and NaN, count in
 * the last bucket. Value replaces the contents of `buf` (releasing the old
 * ones through buf's deallocator) with a serialized tensorflow.
 * HistogramProto (min, max, num, sum, sum_squares, one bucket_limit and
 * bucket entry per bucket), owned by `buf`; NULL buf: no effect. */
typedef struct TFE_MonitoringSamplerCell TFE_MonitoringSamplerCell;
TF_CAPI_EXPORT extern void TFE_MonitoringSamplerCellAdd(
    TFE_MonitoringSamplerCell* cell, double value);
TF_CAPI_EXPORT extern void TFE_MonitoringSamplerCellValue(
    TFE_MonitoringSamplerCell* cell, TF_Buffer* buf);

/* Exponential buckets with upper bounds scale * growth_factor^i for
 * i < bucket_count, plus DBL_MAX. Only the parameters are recorded here
 * (NULL only when out of memory); NewSampler* checks them (bucket_count > 0,
 * finite, strictly increasing bounds: else TF_INVALID_ARGUMENT) and keeps
 * its own copy. The caller owns the result: TFE_MonitoringDeleteBuckets
 * (NULL is a no-op), any time after the samplers are created. */
typedef struct TFE_MonitoringBuckets TFE_MonitoringBuckets;
TF_CAPI_EXPORT extern TFE_MonitoringBuckets*
TFE_MonitoringNewExponentialBuckets(double scale, double growth_factor,
                                    int bucket_count);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteBuckets(
    TFE_MonitoringBuckets* buckets);

typedef struct TFE_MonitoringSampler0 TFE_MonitoringSampler0;
TF_CAPI_EXPORT extern TFE_MonitoringSampler0* TFE_MonitoringNewSampler0(
    const char* name, TFE_MonitoringBuckets* buckets, TF_Status* out_status,
    const char* description);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteSampler0(
    TFE_MonitoringSampler0* sampler);
TF_CAPI_EXPORT extern TFE_MonitoringSamplerCell* TFE_MonitoringGetCellSampler0(
    TFE_MonitoringSampler0* sampler);

typedef struct TFE_MonitoringSampler1 TFE_MonitoringSampler1;
TF_CAPI_EXPORT extern TFE_MonitoringSampler1* TFE_MonitoringNewSampler1(
    const char* name, TFE_MonitoringBuckets* buckets, TF_Status* out_status,
    const char* description, const char* label1);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteSampler1(
    TFE_MonitoringSampler1* sampler);
TF_CAPI_EXPORT extern TFE_MonitoringSamplerCell* TFE_MonitoringGetCellSampler1(
    TFE_MonitoringSampler1* sampler, const char* label1);

typedef struct TFE_MonitoringSampler2 TFE_MonitoringSampler2;
TF_CAPI_EXPORT extern TFE_MonitoringSampler2* TFE_MonitoringNewSampler2(
    const char* name, TFE_MonitoringBuckets* buckets, TF_Status* out_status,
    const char* description, const char* label1, const char* label2);
TF_CAPI_EXPORT extern void TFE_MonitoringDeleteSampler2(
    TFE_MonitoringSampler2* sampler);
TF_CAPI_EXPORT extern TFE_MonitoringSamplerCell* TFE_MonitoringGetCellSampler2(
    TFE_MonitoringSampler2* sampler, const char* label1, const char* label2);

/* ------------------------------------------------------------------------
 * Context options and identity. */

/* TFRT is not part of tfe: the flag is accepted and ignored. */
TF_CAPI_EXPORT extern void TFE_ContextOptionsSetTfrt(TFE_ContextOptions*,
                                                     bool use_tfrt);

/* An id distinguishing this context from every other context of the process
 * (never 0 for a live context; 0 for NULL). */
TF_CAPI_EXPORT extern uint64_t TFE_GetContextId(TFE_Context* ctx);

/* ------------------------------------------------------------------------
 * Cancellation, with TF's semantics. A manager hands out tokens (0, 1, 2,
 * ...), to which callers attach callbacks; StartCancel runs every attached
 * callback once, on the calling thread, without holding the manager's lock.
 * An op given a manager with TFE_OpSetCancellationManager fails with
 * TF_CANCELLED instead of running its kernel when the manager is cancelled
 * by the time the kernel is due: at TFE_Execute for synchronous execution,
 * when the op reaches the head of the queue for asynchronous execution
 * (TFE_Execute then returned OK and the error surfaces at resolve or wait).
 * All functions may be called from any thread. */

#ifndef TFE_CANCELLATION_MANAGER_TYPEDEF_
#define TFE_CANCELLATION_MANAGER_TYPEDEF_
typedef struct TFE_CancellationManager TFE_CancellationManager;
#endif
typedef int64_t TFE_CancellationToken;
typedef struct TFE_CancelCallback {
  void (*callback)(void* context);
  void* context;
} TFE_CancelCallback;

/* New manager, not cancelled; the caller owns it
 * (TFE_DeleteCancellationManager). NULL only when memory runs out. */
TF_CAPI_EXPORT extern TFE_CancellationManager* TFE_NewCancellationManager(
    void);

/* True once StartCancel finished running the callbacks (false for NULL). */
TF_CAPI_EXPORT extern bool TFE_CancellationManagerIsCancelled(
    TFE_CancellationManager*);

/* True while StartCancel is running the callbacks (false for NULL). */
TF_CAPI_EXPORT extern bool TFE_CancellationManagerIsCancelling(
    TFE_CancellationManager*);

/* Cancels: runs each registered callback once and marks the manager
 * cancelled. A second call, or a call during a cancellation, does nothing.
 * NULL is a no-op. */
TF_CAPI_EXPORT extern void TFE_CancellationManagerStartCancel(
    TFE_CancellationManager*);

/* A new token for RegisterCallback (tokens count up from 0); -1 for NULL. */
TF_CAPI_EXPORT extern TFE_CancellationToken TFE_CancellationManagerGetToken(
    TFE_CancellationManager*);

/* Attaches c_callback (copied; callback_name is copied too and may be NULL)
 * to `token`, replacing a callback the token had. Returns false, attaching
 * nothing, when the manager is cancelled or being cancelled, or for NULL
 * arguments or a NULL callback function. */
TF_CAPI_EXPORT extern bool TFE_CancellationManagerRegisterCallback(
    TFE_CancellationManager*, TFE_CancellationToken token,
    const TFE_CancelCallback* c_callback, const char* callback_name);

/* Detaches token's callback and returns true (also when the token had
 * none). Once the manager is cancelled returns false; during a
 * cancellation it first waits until every callback has run, then returns
 * false, so the caller may free what its callback uses. */
TF_CAPI_EXPORT extern bool TFE_CancellationManagerDeregisterCallback(
    TFE_CancellationManager*, TFE_CancellationToken token);

/* Like DeregisterCallback but never waits: false during or after a
 * cancellation. */
TF_CAPI_EXPORT extern bool TFE_CancellationManagerTryDeregisterCallback(
    TFE_CancellationManager*, TFE_CancellationToken token);

/* Releases the manager. Like TF, a manager that still has callbacks is
 * cancelled first (they run now). Ops queued with the manager keep it
 * alive until they ran. NULL is a no-op. */
TF_CAPI_EXPORT extern void TFE_DeleteCancellationManager(
    TFE_CancellationManager*);

/* Makes `op` use the manager (borrowed: it must live until the op is
 * executed; a queued op holds its own reference). NULL detaches it;
 * TFE_OpReset and TFE_DeleteOp forget it. INVALID_ARGUMENT for a NULL or
 * dead op or a dead manager. */
TF_CAPI_EXPORT extern void TFE_OpSetCancellationManager(
    TFE_Op* op, TFE_CancellationManager* cancellation_manager,
    TF_Status* status);

/* ------------------------------------------------------------------------
 * Executors. An executor runs the ops of the threads that use it, in
 * order. A synchronous executor runs each op inside TFE_Execute. An
 * asynchronous one (TFE_NewExecutor(true, ...), or the default executor of
 * a context whose options set TFE_ContextOptionsSetAsync) validates the op
 * in TFE_Execute (placement, kernel, input dtypes: those errors still
 * surface there), then queues it and returns pending output handles; one
 * worker thread per executor runs the queue. Queries that need a value
 * (resolve, shape, device pointer, copies) wait for it.
 *
 * At most in_flight_nodes_limit ops are queued or running at a time
 * (default 32); TFE_Execute blocks, and does not fail, while the queue is
 * full. When a queued op fails, its outputs and the outputs of every op
 * queued behind it carry its error (TFE_TensorHandleGetStatus), the
 * executor enters an error state, and TFE_Execute on it fails at once with
 * that error until TFE_ExecutorClearError or TFE_ContextAsyncWait.
 * Statistics of the queue: include/tfe/executor.h. Threading rules:
 * docs/ASYNC.md. */

typedef struct TFE_Executor TFE_Executor;

/* New executor; the caller owns it (TFE_DeleteExecutor). For an
 * asynchronous executor in_flight_nodes_limit bounds the ops in flight
 * (<= 0 means 32, where TF would not bound them). enable_streaming_enqueue
 * only matters for remote execution and is recorded. NULL only when memory
 * runs out. */
TF_CAPI_EXPORT extern TFE_Executor* TFE_NewExecutor(
    bool is_async, bool enable_streaming_enqueue, int in_flight_nodes_limit);

/* Waits for the executor's pending ops (their errors stay on their output
 * handles), stops its worker thread and frees it. Threads that had chosen
 * it with TFE_ContextSetExecutorForThread go back to their context's
 * default executor. No other thread may be using it meanwhile. On a
 * wrapper from TFE_ContextGetExecutorForThread, frees only the wrapper.
 * NULL is a no-op. */
TF_CAPI_EXPORT extern void TFE_DeleteExecutor(TFE_Executor*);

/* The is_async flag it was created with (false for NULL). */
TF_CAPI_EXPORT extern bool TFE_ExecutorIsAsync(TFE_Executor*);

/* Waits until every op queued on the executor ran, or until it is in
 * error, and reports that error (TF_OK otherwise; always TF_OK for a
 * synchronous executor). The error state is not cleared.
 * TF_INVALID_ARGUMENT for NULL. */
TF_CAPI_EXPORT extern void TFE_ExecutorWaitForAllPendingNodes(
    TFE_Executor*, TF_Status* status);

/* Clears the executor's error state so it accepts ops again. NULL is a
 * no-op. */
TF_CAPI_EXPORT extern void TFE_ExecutorClearError(TFE_Executor*);

/* Makes the calling thread use `executor` for ops it runs in `ctx` (NULL,
 * or the context's default executor, restores the default). The context
 * does not take ownership. */
TF_CAPI_EXPORT extern void TFE_ContextSetExecutorForThread(TFE_Context*,
                                                           TFE_Executor*);

/* New wrapper of the executor the calling thread uses in `ctx` (the
 * context's default one unless TFE_ContextSetExecutorForThread chose
 * another). The caller owns the wrapper and releases it with
 * TFE_DeleteExecutor, which does not affect the executor it refers to; the
 * wrapper must not outlive that executor. NULL for a NULL context. */
TF_CAPI_EXPORT extern TFE_Executor* TFE_ContextGetExecutorForThread(
    TFE_Context*);

/* ------------------------------------------------------------------------
 * Distributed execution: a deliberate tfe stub, TF_UNIMPLEMENTED. */

TF_CAPI_EXPORT extern void TFE_ContextUpdateServerDef(TFE_Context* ctx,
                                                      int keep_alive_secs,
                                                      const void* proto,
                                                      size_t proto_len,
                                                      TF_Status* status);
TF_CAPI_EXPORT extern void TFE_ContextUpdateServerDefWithTimeout(
    TFE_Context* ctx, int keep_alive_secs, const void* proto, size_t proto_len,
    int64_t init_timeout_in_ms, TF_Status* status);
TF_CAPI_EXPORT extern void TFE_ContextSetServerDefWithTimeout(
    TFE_Context* ctx, int keep_alive_secs, const void* proto, size_t proto_len,
    int64_t init_timeout_in_ms, TF_Status* status,
    bool clear_existing_contexts);
TF_CAPI_EXPORT extern void TFE_ContextSetServerDefWithTimeoutAndRetries(
    TFE_Context* ctx, int keep_alive_secs, const void* proto, size_t proto_len,
    int64_t init_timeout_in_ms, int retries, TF_Status* status,
    bool clear_existing_contexts);
/* TF_UNIMPLEMENTED, returns false. */
TF_CAPI_EXPORT extern bool TFE_ContextCheckAlive(TFE_Context* ctx,
                                                 const char* worker_name,
                                                 TF_Status* status);

/* Waits for the ops queued on the context's default executor and on every
 * executor a thread chose for this context, returns the first error among
 * them and clears the error state of each (as TF does), so the context
 * accepts ops again. TF_OK for a synchronous context;
 * TF_INVALID_ARGUMENT for NULL. */
TF_CAPI_EXPORT extern void TFE_ContextAsyncWait(TFE_Context* ctx,
                                                TF_Status* status);

/* ------------------------------------------------------------------------
 * Tensor handles and device memory. */

/* Address of the handle's tensor data on its device (host memory for CPU).
 * Borrowed: valid while the handle lives. NULL and TF_INVALID_ARGUMENT for
 * a NULL handle; an empty tensor may give NULL with TF_OK. */
TF_CAPI_EXPORT extern void* TFE_TensorHandleDevicePointer(TFE_TensorHandle*,
                                                          TF_Status*);

/* Size in bytes of the memory TFE_TensorHandleDevicePointer points at. */
TF_CAPI_EXPORT extern size_t TFE_TensorHandleDeviceMemorySize(TFE_TensorHandle*,
                                                              TF_Status*);

/* New handle over `len` bytes at `data` on device `device_name`, with the
 * given dtype and shape. Takes ownership of the memory: `deallocator` (may
 * be NULL) runs once when tfe no longer needs it, and also right away when
 * the call fails (unknown device TF_INVALID_ARGUMENT, `len` too small for
 * the shape TF_INVALID_ARGUMENT). The caller owns the handle. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_NewTensorHandleFromDeviceMemory(
    TFE_Context* ctx, const char* device_name, TF_DataType, const int64_t* dims,
    int num_dims, void* data, size_t len,
    void (*deallocator)(void* data, size_t len, void* arg),
    void* deallocator_arg, TF_Status* status);

/* Replaces buf's contents with the local address space,
 * "/job:localhost/replica:0/task:0" (not NUL-terminated; buf->length gives
 * its size). The new bytes belong to buf (freed by TF_DeleteBuffer); earlier
 * contents are released first. NULL ctx or buf: no-op. */
TF_CAPI_EXPORT extern void TFE_HostAddressSpace(TFE_Context* ctx,
                                                TF_Buffer* buf);

/* ------------------------------------------------------------------------
 * Attribute snapshots. */

/* An op's name and attributes. Borrowed from an op: valid until the op is
 * changed, reset or deleted. */
typedef struct TFE_OpAttrs TFE_OpAttrs;

/* The op's current attributes (borrowed, see above). NULL for NULL. */
TF_CAPI_EXPORT extern const TFE_OpAttrs* TFE_OpGetAttrs(const TFE_Op* op);

/* Copies into `op` every attribute of `attrs` that `op` does not have yet
 * (existing values are kept). NULL arguments are a no-op. */
TF_CAPI_EXPORT extern void TFE_OpAddAttrs(TFE_Op* op, const TFE_OpAttrs* attrs);

/* Replaces buf's contents with a serialized tensorflow.NameAttrList: the op
 * name and every attribute as an AttrValue (tensors as TensorProto with
 * tensor_content). The bytes belong to buf. */
TF_CAPI_EXPORT extern void TFE_OpAttrsSerialize(const TFE_OpAttrs* attrs,
                                                TF_Buffer* buf,
                                                TF_Status* status);

/* Sets attr `attr_name` from a serialized tensorflow.AttrValue (s, i, f, b,
 * type, shape, tensor with tensor_content or typed values, func, and lists
 * of these). Malformed bytes or an empty value: TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern void TFE_OpSetAttrValueProto(const TFE_Op* op,
                                                   const char* attr_name,
                                                   const void* proto,
                                                   size_t proto_len,
                                                   TF_Status* status);

/* ------------------------------------------------------------------------
 * Custom devices (docs/CUSTOM_DEVICES.md). The structs have TF's layout. */

#define TFE_CUSTOM_DEVICE_VERSION 4

/* In C++ the members below get TF's default initializers, so that C++ code
 * written for TF that relies on them (`TFE_CustomDevice device;` then only
 * the required callbacks) registers the right version; C has no member
 * initializers and sees plain members. */
#ifdef __cplusplus
#define TFE_CXX_MEMBER_DEFAULT_(value) = value
#else
#define TFE_CXX_MEMBER_DEFAULT_(value)
#endif

/* Callbacks implementing a device in the caller's code. `version` must be
 * TFE_CUSTOM_DEVICE_VERSION; `pack` and `shall_pin_to_this_device` are
 * optional (NULL). */
typedef struct TFE_CustomDevice {
  int version TFE_CXX_MEMBER_DEFAULT_(TFE_CUSTOM_DEVICE_VERSION);
  TFE_TensorHandle* (*copy_tensor_to_device)(TFE_Context* context,
                                             TFE_TensorHandle* tensor,
                                             TF_Status* status,
                                             void* device_info);
  TFE_TensorHandle* (*copy_tensor_from_device)(TFE_Context* context,
                                               TFE_TensorHandle* tensor,
                                               const char* target_device_name,
                                               TF_Status* status,
                                               void* device_info);
  void (*execute)(const TFE_Op* op, int* num_outputs,
                  TFE_TensorHandle** outputs, TF_Status* s, void* device_info);
  void (*delete_device)(void* device_info);
  TFE_TensorHandle* (*pack)(TFE_Context* context, TFE_TensorHandle** handles,
                            int num_handles, TF_Status* s, void* device_info)
      TFE_CXX_MEMBER_DEFAULT_(nullptr);
  bool (*shall_pin_to_this_device)(const TFE_Op* op, TF_Status* s)
      TFE_CXX_MEMBER_DEFAULT_(nullptr);
} TFE_CustomDevice;

/* Registers a device implemented by `device`'s callbacks under the full
 * device name `device_name`; from then on ops placed there, or with an
 * input there, run through `device.execute`. The context keeps `device`
 * (copied) and `device_info` (borrowed) and calls delete_device(device_info)
 * exactly once: at TFE_DeleteContext, or at once if registration fails.
 * Errors: ALREADY_EXISTS for a name already in use (custom or physical);
 * INVALID_ARGUMENT for a name that is not a full device name, an unknown
 * `version`, or a missing required callback (the message names it). */
TF_CAPI_EXPORT extern void TFE_RegisterCustomDevice(TFE_Context* ctx,
                                                    TFE_CustomDevice device,
                                                    const char* device_name,
                                                    void* device_info,
                                                    TF_Status* status);

/* Whether `device_name` names a custom device registered with ctx. */
TF_CAPI_EXPORT extern bool TFE_IsCustomDevice(TFE_Context* ctx,
                                              const char* device_name);

/* Methods of a tensor that lives on a custom device. `version` must be
 * TFE_CUSTOM_DEVICE_VERSION; `summarize` is optional. */
typedef struct TFE_CustomDeviceTensorHandleMethods {
  int version TFE_CXX_MEMBER_DEFAULT_(TFE_CUSTOM_DEVICE_VERSION);
  int (*num_dims)(void* data, TF_Status* status);
  int64_t (*dim)(void* data, int dim_index, TF_Status* status);
  void (*deallocator)(void* data);
  TF_Buffer* (*summarize)(void* data, TF_Status* status)
      TFE_CXX_MEMBER_DEFAULT_(nullptr);
} TFE_CustomDeviceTensorHandle;

#undef TFE_CXX_MEMBER_DEFAULT_

/* New handle on custom device `device_name` wrapping device-owned `data`,
 * described by `methods`. The call owns `data`: methods.deallocator(data)
 * runs exactly once, when the last reference to the handle goes, or before
 * this returns NULL on failure. The caller owns the returned handle
 * (TFE_DeleteTensorHandle). */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_NewCustomDeviceTensorHandle(
    TFE_Context*, const char* device_name, TF_DataType, void* data,
    TFE_CustomDeviceTensorHandle methods, TF_Status* status);

/* ------------------------------------------------------------------------
 * Functions registered in the context. TFE_ContextGetFunctionDef replaces
 * buf's contents with the serialized FunctionDef; TFE_ContextGetFunction
 * returns a new TF_Function the caller owns (TF_DeleteFunction); an
 * unknown name gives TF_NOT_FOUND. TFE_ContextGetGraphDebugInfo is a
 * deliberate stub (TF_UNIMPLEMENTED, buf untouched). */

TF_CAPI_EXPORT extern void TFE_ContextGetFunctionDef(TFE_Context* ctx,
                                                     const char* function_name,
                                                     TF_Buffer* buf,
                                                     TF_Status* status);
TF_CAPI_EXPORT extern void TFE_ContextGetGraphDebugInfo(
    TFE_Context* ctx, const char* function_name, TF_Buffer* buf,
    TF_Status* status);
TF_CAPI_EXPORT extern TF_Function* TFE_ContextGetFunction(TFE_Context* ctx,
                                                          const char* name,
                                                          TF_Status* status);

/* ------------------------------------------------------------------------
 * Host tensors and handles. */

/* New host tensor of the given dtype and shape, allocated by the context
 * (contents unspecified; TF_STRING elements empty). The caller owns it
 * (TF_DeleteTensor). Negative dims: TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern TF_Tensor* TFE_AllocateHostTensor(TFE_Context* ctx,
                                                        TF_DataType dtype,
                                                        const int64_t* dims,
                                                        int num_dims,
                                                        TF_Status* status);

/* Like TFE_NewTensorHandle, but the handle belongs to `ctx` and sits on its
 * host CPU device. Shares t's buffer; the caller keeps `t` and owns the
 * handle. */
TF_CAPI_EXPORT TFE_TensorHandle* TFE_NewTensorHandleFromTensor(
    TFE_Context* ctx, TF_Tensor* t, TF_Status* status);

/* Packs handles that live on custom devices through the device's `pack`
 * callback; the caller owns the result. INVALID_ARGUMENT for no handles;
 * UNIMPLEMENTED when none of them is on a custom device (tfe has no
 * composite devices). */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_CreatePackedTensorHandle(
    TFE_Context* ctx, TFE_TensorHandle** handles, int* num_handles,
    TF_Status* status);

/* When enabled, an op whose requested device does not exist (or has no
 * kernel for it) runs on the default device instead of failing. Off by
 * default. */
TF_CAPI_EXPORT void TFE_ContextSetSoftDevicePlacement(TFE_Context* ctx,
                                                      unsigned char enable,
                                                      TF_Status* status);

/* When enabled, each executed op logs "Executing op NAME in device DEVICE"
 * and its name is recorded for TFE_GetExecutedOpNames. Off by default. */
TF_CAPI_EXPORT void TFE_ContextSetLogDevicePlacement(TFE_Context* ctx,
                                                     unsigned char enable,
                                                     TF_Status* status);

/* Recorded and ignored (tfe always runs ops directly). */
TF_CAPI_EXPORT void TFE_ContextSetRunEagerOpAsFunction(TFE_Context* ctx,
                                                       unsigned char enable,
                                                       TF_Status* status);
TF_CAPI_EXPORT void TFE_ContextSetJitCompileRewrite(TFE_Context* ctx,
                                                    unsigned char enable,
                                                    TF_Status* status);

/* Type of the device of the handle ("CPU"). Borrowed: valid while the
 * handle lives. */
TF_CAPI_EXPORT extern const char* TFE_TensorHandleDeviceType(
    TFE_TensorHandle* h, TF_Status* status);

/* Index of that device among the devices of its type (0 for "CPU:0"). */
TF_CAPI_EXPORT extern int TFE_TensorHandleDeviceID(TFE_TensorHandle* h,
                                                   TF_Status* status);

/* Copies the handle's own status into *status: TF_OK for a handle holding a
 * value, the producing op's error for a handle that failed to compute
 * (asynchronous execution). Does not wait: a handle whose op has not run
 * yet reports TF_OK. NULL h: TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern void TFE_TensorHandleGetStatus(TFE_TensorHandle* h,
                                                     TF_Status* status);

/* Replaces buf's contents with the names of the ops the context executed
 * while TFE_ContextSetLogDevicePlacement was on, each followed by ", "
 * (TF's format; empty when nothing was recorded). At most the last 4096
 * names are kept. The bytes belong to buf. */
TF_CAPI_EXPORT extern void TFE_GetExecutedOpNames(TFE_Context* ctx,
                                                  TF_Buffer* buf,
                                                  TF_Status* status);

/* Adds the logical CPU devices CPU:1 .. CPU:<num_cpus - 1> to the context
 * (CPU:0, the host CPU, is always there) in the address space `prefix`,
 * which must be the local one, "/job:localhost/replica:0/task:0" (NULL or
 * "" mean it). Like TF, when one of those names exists already nothing is
 * added and the result is TF_INVALID_ARGUMENT naming the conflict; also
 * TF_INVALID_ARGUMENT for num_cpus < 1 or above 1024 and for a remote
 * prefix. Logical CPUs share host memory: copies between them share
 * buffers. */
TF_CAPI_EXPORT extern void TFE_SetLogicalCpuDevices(TFE_Context* ctx,
                                                    int num_cpus,
                                                    const char* prefix,
                                                    TF_Status* status);

/* ------------------------------------------------------------------------
 * Coordination service: a deliberate tfe stub, TF_UNIMPLEMENTED. */

TF_CAPI_EXPORT extern void TFE_InsertConfigKeyValue(TFE_Context* ctx,
                                                    const char* key,
                                                    const char* value,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern void TFE_GetConfigKeyValue(TFE_Context* ctx,
                                                 const char* key,
                                                 int64_t timeout_in_ms,
                                                 TF_Buffer* value_buf,
                                                 TF_Status* status);
TF_CAPI_EXPORT extern void TFE_DeleteConfigKeyValue(TFE_Context* ctx,
                                                    const char* key,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern void TFE_ReportErrorToCluster(TFE_Context* ctx,
                                                    int error_code,
                                                    const char* error_message,
                                                    TF_Status* status);
#ifdef __cplusplus
TF_CAPI_EXPORT extern void TFE_GetTaskStates(TFE_Context* ctx,
                                             const TF_Buffer& tasks,
                                             void* states, TF_Status* status);
#else
TF_CAPI_EXPORT extern void TFE_GetTaskStates(TFE_Context* ctx,
                                             const TF_Buffer* tasks,
                                             void* states, TF_Status* status);
#endif
TF_CAPI_EXPORT extern void TFE_WaitAtBarrier(TFE_Context* ctx,
                                             const char* barrier_id,
                                             int64_t barrier_timeout_in_ms,
                                             TF_Status* status);
TF_CAPI_EXPORT extern void TFE_InitializeLocalOnlyContext(TFE_Context* ctx,
                                                          int keep_alive_secs,
                                                          const void* proto,
                                                          size_t proto_len,
                                                          TF_Status* status);

#ifdef __cplusplus
} /* end extern "C" */
#endif

#endif /* TENSORFLOW_C_EAGER_C_API_EXPERIMENTAL_H_ */
