/* Asynchronous execution made deterministic: a test-only op,
 * TfeTestAsyncGate (float in, float out), whose kernel blocks until the
 * test opens the gate. With the worker held inside it the test can fill
 * the queue exactly, watch callers block, cancel queued ops, and query
 * pending handles, without depending on timing. White-box only in that
 * it registers the op and kernel through the internal registries; all
 * checks use the public API. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "async_test_util.h"
#include "core/tensor_internal.h"
#include "kernels/kernel.h"
#include "ops/op_registry.h"

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER;
static int g_open;     /* under g_mu */
static int g_entered;  /* kernels that reached the gate, under g_mu */

static void gate_compute(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  TF_Tensor* t;
  pthread_mutex_lock(&g_mu);
  g_entered++;
  pthread_cond_broadcast(&g_cv);
  while (!g_open) pthread_cond_wait(&g_cv, &g_mu);
  pthread_mutex_unlock(&g_mu);
  /* Forward the input unchanged. */
  t = tfe_tensor_from_buffer(x->dtype, x->dims, x->num_dims, x->buf);
  if (t == NULL) {
    TF_SetStatus(k->status, TF_RESOURCE_EXHAUSTED, "gate: out of memory");
    return;
  }
  tfe_kernel_set_output(k, 0, t);
}

static void register_gate(void) {
  static int done;
  TF_Status* s;
  tfe_kernel_reg reg;
  if (done) return;
  done = 1;
  s = TF_NewStatus();
  tfe_ops_ensure_builtins();
  CHECK(tfe_op_register_specs(
      "TfeTestAsyncGate",
      (const char* []){"in: x: float", "out: y: float", NULL}, s));
  CHECK_CODE(s, TF_OK);
  memset(&reg, 0, sizeof(reg));
  reg.op_name = "TfeTestAsyncGate";
  reg.device_type = "CPU";
  reg.compute = gate_compute;
  CHECK(tfe_kernel_register(&reg, s));
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

static void gate_close(void) {
  pthread_mutex_lock(&g_mu);
  g_open = 0;
  g_entered = 0;
  pthread_mutex_unlock(&g_mu);
}

static void gate_open(void) {
  pthread_mutex_lock(&g_mu);
  g_open = 1;
  pthread_cond_broadcast(&g_cv);
  pthread_mutex_unlock(&g_mu);
}

/* Waits until a kernel is blocked in the gate. */
static void gate_wait_entered(int n) {
  pthread_mutex_lock(&g_mu);
  while (g_entered < n) pthread_cond_wait(&g_cv, &g_mu);
  pthread_mutex_unlock(&g_mu);
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static TFE_TensorHandle* gate(TFE_Context* c, TFE_TensorHandle* x,
                              TF_Status* s) {
  TFE_Op* op = TFE_NewOp(c, "TfeTestAsyncGate", s);
  TFE_TensorHandle* out = NULL;
  int n = 1;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, x, s);
  TFE_Execute(op, &out, &n, s);
  TFE_DeleteOp(op);
  return out;
}

/* ------------------------------------------------------------------ */

typedef struct enqueue_arg {
  TFE_Context* ctx;
  TFE_Executor* ex;
  TFE_TensorHandle* x;
  TFE_TensorHandle* out;
  atomic_int done;
  TF_Code code;
} enqueue_arg;

static void* enqueue_thread(void* p) {
  enqueue_arg* a = (enqueue_arg*)p;
  TF_Status* s = TF_NewStatus();
  TFE_ContextSetExecutorForThread(a->ctx, a->ex);
  a->out = op2(a->ctx, "AddV2", a->x, a->x, s);
  a->code = TF_GetCode(s);
  TFE_ContextSetExecutorForThread(a->ctx, NULL);
  atomic_store(&a->done, 1);
  TF_DeleteStatus(s);
  return NULL;
}

TEST(queue_fills_to_the_limit_and_callers_block) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(0, s);
  TFE_Executor* ex = TFE_NewExecutor(true, true, 3);
  TFE_TensorHandle* x = scalar_f32(5, s);
  TFE_TensorHandle *g, *a1, *a2;
  TFE_ExecutorStats st;
  enqueue_arg arg;
  pthread_t th;
  register_gate();
  gate_close();
  TFE_ContextSetExecutorForThread(c, ex);
  g = gate(c, x, s); /* the worker blocks in here */
  CHECK_CODE(s, TF_OK);
  gate_wait_entered(1);
  a1 = op2(c, "AddV2", g, x, s);
  CHECK_CODE(s, TF_OK);
  a2 = op2(c, "AddV2", a1, x, s);
  CHECK_CODE(s, TF_OK);
  st = stats_of(ex, s);
  CHECK_EQ_INT(st.in_flight, 3);
  CHECK_EQ_INT(st.in_flight_high_water, 3);
  CHECK_EQ_INT(st.blocked_enqueues, 0);
  /* Pending handles: dtype known, status OK (not failed), no waiting. */
  CHECK_EQ_INT(TFE_TensorHandleDataType(a2), TF_FLOAT);
  TFE_TensorHandleGetStatus(a2, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_CONTAINS(TFE_TensorHandleDeviceName(a2, s), "CPU:0");
  /* A fourth op must wait for room: it blocks, it does not fail. */
  memset(&arg, 0, sizeof(arg));
  arg.ctx = c;
  arg.ex = ex;
  arg.x = x;
  CHECK(pthread_create(&th, NULL, enqueue_thread, &arg) == 0);
  do {
    sleep_ms(1);
    st = stats_of(ex, s);
  } while (st.blocked_enqueues == 0);
  sleep_ms(50);
  CHECK_EQ_INT(atomic_load(&arg.done), 0);
  st = stats_of(ex, s);
  CHECK_EQ_INT(st.in_flight, 3);
  CHECK_EQ_INT(st.blocked_enqueues, 1);
  gate_open();
  pthread_join(th, NULL);
  CHECK_EQ_INT(arg.code, TF_OK);
  CHECK(read_f32(a2, s) == 15.0f);
  CHECK(read_f32(arg.out, s) == 10.0f);
  TFE_ExecutorWaitForAllPendingNodes(ex, s);
  CHECK_CODE(s, TF_OK);
  st = stats_of(ex, s);
  CHECK_EQ_INT(st.in_flight_high_water, 3);
  CHECK_EQ_INT(st.nodes_enqueued, 4);
  CHECK_EQ_INT(st.nodes_finished, 4);
  TFE_ContextSetExecutorForThread(c, NULL);
  TFE_DeleteTensorHandle(arg.out);
  TFE_DeleteTensorHandle(a2);
  TFE_DeleteTensorHandle(a1);
  TFE_DeleteTensorHandle(g);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteExecutor(ex);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

typedef struct query_arg {
  TFE_TensorHandle* h;
  atomic_int done;
  int num_dims;
} query_arg;

static void* query_thread(void* p) {
  query_arg* a = (query_arg*)p;
  TF_Status* s = TF_NewStatus();
  a->num_dims = TFE_TensorHandleNumDims(a->h, s);
  atomic_store(&a->done, 1);
  TF_DeleteStatus(s);
  return NULL;
}

TEST(queries_on_pending_handles_wait_for_the_value) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(1, s);
  const float v[3] = {1, 2, 3};
  TFE_TensorHandle* x = vec_f32(v, 3, s);
  TFE_TensorHandle* g;
  query_arg q;
  pthread_t th;
  register_gate();
  gate_close();
  g = gate(c, x, s);
  CHECK_CODE(s, TF_OK);
  gate_wait_entered(1);
  memset(&q, 0, sizeof(q));
  q.h = g;
  CHECK(pthread_create(&th, NULL, query_thread, &q) == 0);
  sleep_ms(50);
  CHECK_EQ_INT(atomic_load(&q.done), 0); /* still waiting */
  gate_open();
  pthread_join(th, NULL);
  CHECK_EQ_INT(q.num_dims, 1);
  CHECK_EQ_INT(TFE_TensorHandleDim(g, 0, s), 3);
  TFE_DeleteTensorHandle(g);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TEST(cancel_while_queued) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(1, s);
  TFE_CancellationManager* cm = TFE_NewCancellationManager();
  TFE_TensorHandle* x = scalar_f32(2, s);
  TFE_TensorHandle *g, *r = NULL, *behind;
  TFE_Op* op;
  int n = 1;
  register_gate();
  gate_close();
  g = gate(c, x, s);
  gate_wait_entered(1);
  op = TFE_NewOp(c, "Mul", s);
  TFE_OpAddInput(op, g, s);
  TFE_OpAddInput(op, x, s);
  TFE_OpSetCancellationManager(op, cm, s);
  TFE_Execute(op, &r, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);
  behind = op2(c, "AddV2", x, x, s); /* queued behind the cancelled op */
  CHECK_CODE(s, TF_OK);
  TFE_CancellationManagerStartCancel(cm); /* while r is still queued */
  gate_open();
  CHECK(read_f32(g, s) == 2.0f); /* ran before the cancellation mattered */
  CHECK(TFE_TensorHandleResolve(r, s) == NULL);
  CHECK_CODE(s, TF_CANCELLED);
  /* The cancelled op put the executor in error, which drops later ops. */
  TFE_TensorHandleGetStatus(behind, s);
  CHECK(TF_GetCode(s) == TF_CANCELLED || TF_GetCode(s) == TF_OK);
  CHECK(TFE_TensorHandleResolve(behind, s) == NULL);
  CHECK_CODE(s, TF_CANCELLED);
  TFE_ContextAsyncWait(c, s);
  CHECK_CODE(s, TF_CANCELLED);
  TFE_DeleteTensorHandle(behind);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(g);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteCancellationManager(cm);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

typedef struct delete_arg {
  TFE_Executor* ex;
  atomic_int done;
} delete_arg;

static void* delete_thread(void* p) {
  delete_arg* a = (delete_arg*)p;
  TFE_DeleteExecutor(a->ex);
  atomic_store(&a->done, 1);
  return NULL;
}

TEST(delete_executor_waits_for_queued_ops) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(0, s);
  TFE_Executor* ex = TFE_NewExecutor(true, true, 0);
  TFE_TensorHandle *x = scalar_f32(4, s), *g, *r;
  delete_arg d;
  pthread_t th;
  register_gate();
  gate_close();
  TFE_ContextSetExecutorForThread(c, ex);
  g = gate(c, x, s);
  gate_wait_entered(1);
  r = op2(c, "Mul", g, x, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextSetExecutorForThread(c, NULL);
  memset(&d, 0, sizeof(d));
  d.ex = ex;
  CHECK(pthread_create(&th, NULL, delete_thread, &d) == 0);
  sleep_ms(50);
  CHECK_EQ_INT(atomic_load(&d.done), 0);
  gate_open();
  pthread_join(th, NULL);
  /* Everything ran before the executor went. */
  TFE_TensorHandleGetStatus(r, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(r, s) == 16.0f);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(g);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
