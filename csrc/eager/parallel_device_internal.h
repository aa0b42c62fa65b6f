/* The parallel device (include/tfe/parallel_device.h), built on the public
 * custom-device API.
 *
 * Files: parallel_device.c (the device's callbacks, its special ops and
 * the public functions), parallel_tensor.c (parallel tensors: the payload
 * of the device's tensor handles), parallel_device_workers.c (one worker
 * thread per component). Only public TFE_* functions are used on tensors
 * and ops, so components may be any devices, custom ones included. */
#ifndef TFE_EAGER_PARALLEL_DEVICE_INTERNAL_H_
#define TFE_EAGER_PARALLEL_DEVICE_INTERNAL_H_

#include <pthread.h>

#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/tf_status.h"

/* ---- workers (parallel_device_workers.c) ---- */

/* One component's share of an op: run op `op_name` with `attrs` on
 * `device`, inputs[0..num_inputs), at most max_outputs outputs. */
typedef struct pd_job {
  TFE_Context* ctx;
  const char* op_name;
  const TFE_OpAttrs* attrs;
  const char* device;
  TFE_TensorHandle* const* inputs;
  int num_inputs;
  TFE_TensorHandle** outputs; /* max_outputs slots; filled on success */
  int max_outputs;
  int num_outputs; /* set on success */
  TF_Status* status;
  /* The component's index: collectives run by the job count as a member
   * of their own (kernels/cpu/collective.h), also when two components run
   * their kernels on the same device. -1: none. */
  int replica;
} pd_job;

typedef struct pd_worker_arg {
  struct pd_pool* pool;
  int index;
  unsigned long seen; /* generation the worker last ran */
  /* The worker's own synchronous executor (as in TF: a component's op
   * must have finished, or failed, when the parallel op returns, even in
   * an asynchronous context), and the context it is bound in. */
  TFE_Executor* sync;
  TFE_Context* bound;
} pd_worker_arg;

/* n threads, started on first use; each runs job i of every batch. */
typedef struct pd_pool {
  int n;
  int started; /* threads running; only the dispatching thread changes it */
  pthread_t* threads;
  pd_worker_arg* args;
  pthread_mutex_t mu;
  pthread_cond_t work; /* a new batch (gen changed) or shutdown */
  pthread_cond_t done; /* pending reached 0 */
  unsigned long gen;
  int pending;
  int shutdown;
  pd_job* jobs;
} pd_pool;

/* 0 (nothing to undo) when memory runs out. */
int pd_pool_init(pd_pool* p, int n);
/* Runs jobs[0..n) at the same time and waits for all of them. Jobs whose
 * thread could not be started run on the calling thread. One batch at a
 * time: callers serialize. */
void pd_pool_run(pd_pool* p, pd_job* jobs);
/* Stops and joins the threads, frees the pool. */
void pd_pool_destroy(pd_pool* p);
/* Runs one job (in whatever thread calls it). */
void pd_job_run(pd_job* j);

/* ---- parallel tensors (parallel_tensor.c) ---- */

typedef struct pd_tensor {
  int n;
  TF_DataType dtype;
  /* The combined shape: rank, and dims with -1 where components differ.
   * When the shape cannot be known, rank is -1 and shape_code/shape_msg
   * say why. */
  int rank;
  int64_t* dims;
  TF_Code shape_code;
  char* shape_msg;
  TFE_TensorHandle* components[1]; /* n entries, owned */
} pd_tensor;

/* A parallel tensor adopting components[0..n) (released on failure too).
 * INTERNAL when their dtypes differ; their own errors (handle status)
 * are passed on. */
pd_tensor* pd_tensor_new(TFE_TensorHandle** components, int n, TF_Status* s);
void pd_tensor_free(pd_tensor* t);
/* A handle on the parallel device `device_name` of ctx wrapping t (which
 * it adopts, also on failure). */
TFE_TensorHandle* pd_tensor_to_handle(TFE_Context* ctx, const char* device_name,
                                      pd_tensor* t, TF_Status* s);

/* ---- the device (parallel_device.c) ---- */

typedef struct pd_device {
  char* name;
  int n;
  char** components;
  TF_Status** statuses; /* one per component, for its job */
  pthread_mutex_t exec_mu; /* one parallel op at a time */
  pd_pool pool;
} pd_device;

/* Registers TPUReplicatedInput, TPUReplicatedOutput and DeviceID unless
 * the op registry knows them already. 0 with status set on failure. */
int pd_ensure_ops(TF_Status* s);

#endif /* TFE_EAGER_PARALLEL_DEVICE_INTERNAL_H_ */
