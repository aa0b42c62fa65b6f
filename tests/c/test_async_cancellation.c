/* Cancellation managers (TF's semantics) and ops that carry one, in
 * synchronous and asynchronous execution. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "async_test_util.h"

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static atomic_int g_calls[8];

static void count_cb(void* arg) {
  atomic_fetch_add(&g_calls[(intptr_t)arg], 1);
}

static TFE_CancelCallback cb(int slot) {
  TFE_CancelCallback c;
  c.callback = count_cb;
  c.context = (void*)(intptr_t)slot;
  return c;
}

static void reset_calls(void) {
  int i;
  for (i = 0; i < 8; i++) atomic_store(&g_calls[i], 0);
}

TEST(tokens_callbacks_and_states) {
  TFE_CancellationManager* cm = TFE_NewCancellationManager();
  TFE_CancelCallback c0 = cb(0), c1 = cb(1), c2 = cb(2), c3 = cb(3);
  TFE_CancellationToken t0, t1, t2;
  reset_calls();
  CHECK(cm != NULL);
  t0 = TFE_CancellationManagerGetToken(cm);
  t1 = TFE_CancellationManagerGetToken(cm);
  t2 = TFE_CancellationManagerGetToken(cm);
  CHECK_EQ_INT(t0, 0);
  CHECK_EQ_INT(t1, 1);
  CHECK_EQ_INT(t2, 2);
  CHECK(!TFE_CancellationManagerIsCancelled(cm));
  CHECK(!TFE_CancellationManagerIsCancelling(cm));
  CHECK(TFE_CancellationManagerRegisterCallback(cm, t0, &c0, "zero"));
  CHECK(TFE_CancellationManagerRegisterCallback(cm, t1, &c1, "one"));
  CHECK(TFE_CancellationManagerRegisterCallback(cm, t2, &c2, NULL));
  /* Registering a token again replaces its callback. */
  CHECK(TFE_CancellationManagerRegisterCallback(cm, t2, &c3, "three"));
  CHECK(TFE_CancellationManagerTryDeregisterCallback(cm, t1));
  CHECK(TFE_CancellationManagerDeregisterCallback(cm, 99)); /* unknown: ok */
  TFE_CancellationManagerStartCancel(cm);
  CHECK(TFE_CancellationManagerIsCancelled(cm));
  CHECK(!TFE_CancellationManagerIsCancelling(cm));
  CHECK_EQ_INT(atomic_load(&g_calls[0]), 1);
  CHECK_EQ_INT(atomic_load(&g_calls[1]), 0);
  CHECK_EQ_INT(atomic_load(&g_calls[2]), 0);
  CHECK_EQ_INT(atomic_load(&g_calls[3]), 1);
  /* After cancellation nothing registers or deregisters, and a second
   * cancellation runs nothing again. */
  CHECK(!TFE_CancellationManagerRegisterCallback(cm, 5, &c0, "late"));
  CHECK(!TFE_CancellationManagerDeregisterCallback(cm, t0));
  CHECK(!TFE_CancellationManagerTryDeregisterCallback(cm, t0));
  TFE_CancellationManagerStartCancel(cm);
  CHECK_EQ_INT(atomic_load(&g_calls[0]), 1);
  CHECK_EQ_INT(TFE_CancellationManagerGetToken(cm), 3);
  TFE_DeleteCancellationManager(cm);
}

TEST(delete_runs_registered_callbacks_once) {
  TFE_CancellationManager* cm = TFE_NewCancellationManager();
  TFE_CancelCallback c0 = cb(0);
  reset_calls();
  CHECK(TFE_CancellationManagerRegisterCallback(
      cm, TFE_CancellationManagerGetToken(cm), &c0, "on delete"));
  TFE_DeleteCancellationManager(cm);
  CHECK_EQ_INT(atomic_load(&g_calls[0]), 1);
  /* Without callbacks, deleting cancels nothing (and runs nothing). */
  cm = TFE_NewCancellationManager();
  TFE_DeleteCancellationManager(cm);
  CHECK_EQ_INT(atomic_load(&g_calls[0]), 1);
}

TEST(null_and_bad_arguments) {
  TFE_CancelCallback none;
  TFE_CancellationManager* cm = TFE_NewCancellationManager();
  TF_Status* s = TF_NewStatus();
  none.callback = NULL;
  none.context = NULL;
  CHECK(!TFE_CancellationManagerIsCancelled(NULL));
  CHECK(!TFE_CancellationManagerIsCancelling(NULL));
  TFE_CancellationManagerStartCancel(NULL);
  CHECK_EQ_INT(TFE_CancellationManagerGetToken(NULL), -1);
  CHECK(!TFE_CancellationManagerRegisterCallback(NULL, 0, &none, "x"));
  CHECK(!TFE_CancellationManagerRegisterCallback(cm, 0, NULL, "x"));
  CHECK(!TFE_CancellationManagerRegisterCallback(cm, 0, &none, "x"));
  CHECK(!TFE_CancellationManagerDeregisterCallback(NULL, 0));
  CHECK(!TFE_CancellationManagerTryDeregisterCallback(NULL, 0));
  TFE_DeleteCancellationManager(NULL);
  TFE_OpSetCancellationManager(NULL, cm, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteCancellationManager(cm);
  TF_DeleteStatus(s);
}

/* StartCancel on another thread with a slow callback. */
static atomic_int g_slow_done;
static void slow_cb(void* arg) {
  (void)arg;
  sleep_ms(100);
  atomic_store(&g_slow_done, 1);
}
static void* cancel_thread(void* arg) {
  TFE_CancellationManagerStartCancel((TFE_CancellationManager*)arg);
  return NULL;
}

TEST(deregister_during_cancellation_waits_for_callbacks) {
  TFE_CancellationManager* cm = TFE_NewCancellationManager();
  TFE_CancelCallback slow;
  TFE_CancellationToken t = TFE_CancellationManagerGetToken(cm);
  pthread_t th;
  int spins = 0;
  slow.callback = slow_cb;
  slow.context = NULL;
  atomic_store(&g_slow_done, 0);
  CHECK(TFE_CancellationManagerRegisterCallback(cm, t, &slow, "slow"));
  CHECK(pthread_create(&th, NULL, cancel_thread, cm) == 0);
  while (!TFE_CancellationManagerIsCancelling(cm) &&
         !TFE_CancellationManagerIsCancelled(cm) && spins++ < 5000) {
    sleep_ms(1);
  }
  if (TFE_CancellationManagerIsCancelling(cm)) {
    /* Registration is refused while cancelling. */
    CHECK(!TFE_CancellationManagerRegisterCallback(cm, 7, &slow, "late"));
  }
  /* Whether the callback is still running or done, DeregisterCallback
   * returns false only once it has run. */
  CHECK(!TFE_CancellationManagerDeregisterCallback(cm, t));
  CHECK_EQ_INT(atomic_load(&g_slow_done), 1);
  CHECK(TFE_CancellationManagerIsCancelled(cm));
  pthread_join(th, NULL);
  TFE_DeleteCancellationManager(cm);
}

TEST(op_with_cancelled_manager_fails_synchronously) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(0, s);
  TFE_CancellationManager* cm = TFE_NewCancellationManager();
  TFE_TensorHandle* x = scalar_f32(3, s);
  TFE_TensorHandle* out = NULL;
  TFE_Op* op = TFE_NewOp(c, "Mul", s);
  int n = 1;
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, x, s);
  TFE_OpSetCancellationManager(op, cm, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, &out, &n, s); /* not cancelled yet: runs */
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(out, s) == 9.0f);
  TFE_DeleteTensorHandle(out);
  out = NULL;
  TFE_CancellationManagerStartCancel(cm);
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_CANCELLED);
  CHECK(out == NULL);
  /* NULL detaches the manager. */
  TFE_OpSetCancellationManager(op, NULL, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(out);
  /* TFE_OpReset forgets it too. */
  TFE_OpSetCancellationManager(op, cm, s);
  TFE_OpReset(op, "Mul", NULL, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, x, s);
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteOp(op);
  TFE_DeleteCancellationManager(cm);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

static TFE_TensorHandle* exec2_cm(TFE_Context* c, const char* name,
                                  TFE_TensorHandle* a, TFE_TensorHandle* b,
                                  TFE_CancellationManager* cm, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(c, name, s);
  TFE_TensorHandle* out = NULL;
  int n = 1;
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, b, s);
  TFE_OpSetCancellationManager(op, cm, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, &out, &n, s);
  TFE_DeleteOp(op);
  return out;
}

TEST(queued_op_cancelled_before_it_runs_fails_with_cancelled) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(1, s);
  TFE_CancellationManager* cm = TFE_NewCancellationManager();
  TFE_TensorHandle* x = scalar_f32(3, s);
  TFE_TensorHandle *r, *after;
  TFE_CancellationManagerStartCancel(cm);
  /* Queued without error (TFE_Execute does not run it) ... */
  r = exec2_cm(c, "Mul", x, x, cm, s);
  CHECK_CODE(s, TF_OK);
  CHECK(r != NULL);
  /* ... and deleting the manager while the op is pending is fine. */
  TFE_DeleteCancellationManager(cm);
  /* The failure surfaces at resolve, with CANCELLED. */
  CHECK(TFE_TensorHandleResolve(r, s) == NULL);
  CHECK_CODE(s, TF_CANCELLED);
  /* It put the executor in error: the wait reports CANCELLED and clears. */
  TFE_ContextAsyncWait(c, s);
  CHECK_CODE(s, TF_CANCELLED);
  after = op2(c, "Mul", x, x, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(after, s) == 9.0f);
  TFE_DeleteTensorHandle(after);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

/* A square matrix of ones (values stay small under repeated MatMul when
 * scaled by 1/n). */
static TFE_TensorHandle* scaled_ones(int n, TF_Status* s) {
  float* v = (float*)malloc(sizeof(float) * (size_t)n * (size_t)n);
  int64_t dims[2] = {n, n};
  TFE_TensorHandle* h;
  int i;
  CHECK(v != NULL);
  for (i = 0; i < n * n; i++) v[i] = 1.0f / (float)n;
  h = make_handle(TF_FLOAT, dims, 2, v, sizeof(float) * (size_t)n * n, s);
  free(v);
  return h;
}

TEST(op_pending_behind_slow_work_is_cancelled) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(1, s);
  TFE_CancellationManager* cm = TFE_NewCancellationManager();
  TFE_TensorHandle* m = scaled_ones(512, s);
  TFE_TensorHandle *cur, *r, *x = scalar_f32(2, s);
  struct timespec t0, t1;
  double one_ms;
  int i, n;
  /* Time one MatMul, then queue about 400 ms of them (at most 30, so the
   * queue of 32 never makes this thread wait) ahead of an op that uses
   * cm: the cancellation below happens long before the op is due. */
  clock_gettime(CLOCK_MONOTONIC, &t0);
  cur = op2(c, "MatMul", m, m, s);
  CHECK_CODE(s, TF_OK);
  (void)read_f32(cur, s); /* waits for it */
  clock_gettime(CLOCK_MONOTONIC, &t1);
  one_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
           (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
  n = one_ms > 0 ? (int)(400.0 / one_ms) + 1 : 30;
  if (n < 4) n = 4;
  if (n > 30) n = 30;
  for (i = 0; i < n; i++) {
    TFE_TensorHandle* nx = op2(c, "MatMul", cur, m, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteTensorHandle(cur);
    cur = nx;
  }
  r = exec2_cm(c, "Mul", x, x, cm, s);
  CHECK_CODE(s, TF_OK);
  TFE_CancellationManagerStartCancel(cm);
  CHECK(TFE_TensorHandleResolve(r, s) == NULL);
  CHECK_CODE(s, TF_CANCELLED);
  /* The work queued before it was unaffected. */
  TFE_TensorHandleGetStatus(cur, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextAsyncWait(c, s);
  CHECK_CODE(s, TF_CANCELLED);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(cur);
  TFE_DeleteTensorHandle(m);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteCancellationManager(cm);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
