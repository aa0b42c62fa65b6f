/* Asynchronous execution through the public API: async contexts and
 * executors, pending handles, where errors surface and how they clear,
 * the in-flight bound, thread bindings, leaks. Deterministic checks only:
 * anything that depends on how far the worker got is asserted either way
 * it can legally go. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "async_test_util.h"

/* x_{i+1} = (x_i * one) + one, n times, deleting every intermediate handle
 * as soon as it is consumed (so pending handles are deleted too). */
static TFE_TensorHandle* chain(TFE_Context* c, TFE_TensorHandle* x0,
                               TFE_TensorHandle* one, int n, TF_Status* s) {
  TFE_TensorHandle* cur = x0;
  int i;
  for (i = 0; i < n; i++) {
    TFE_TensorHandle* m = op2(c, i % 3 == 0 ? "Mul" : "AddV2", cur, one, s);
    CHECK_CODE(s, TF_OK);
    if (cur != x0) TFE_DeleteTensorHandle(cur);
    cur = m;
  }
  return cur;
}

TEST(chain_of_10000_ops_matches_sync) {
  TF_Status* s = TF_NewStatus();
  const float x0v[3] = {0.0f, 0.5f, -3.0f};
  const float onev[3] = {1.0f, 1.0f, 1.0f};
  float sync_out[3], async_out[3];
  int64_t base = live_handles();
  int mode;
  for (mode = 0; mode < 2; mode++) {
    TFE_Context* c = new_ctx_async(mode, s);
    TFE_TensorHandle* x0 = vec_f32(x0v, 3, s);
    TFE_TensorHandle* one = vec_f32(onev, 3, s);
    TFE_Executor* ex = TFE_ContextGetExecutorForThread(c);
    TFE_TensorHandle* r;
    CHECK_EQ_INT(TFE_ExecutorIsAsync(ex), mode);
    r = chain(c, x0, one, 10000, s);
    if (mode == 1) {
      TFE_ExecutorStats st = stats_of(ex, s);
      CHECK_EQ_INT(st.nodes_enqueued, 10000);
      CHECK(st.in_flight_high_water >= 1);
      CHECK(st.in_flight_high_water <= 32);
      CHECK_EQ_INT(st.in_flight_limit, TFE_EXECUTOR_DEFAULT_IN_FLIGHT_LIMIT);
      /* Metadata waits for the value. */
      CHECK_EQ_INT(TFE_TensorHandleNumDims(r, s), 1);
      CHECK_CODE(s, TF_OK);
      CHECK_EQ_INT(TFE_TensorHandleDim(r, 0, s), 3);
      CHECK_CODE(s, TF_OK);
    }
    read_vec_f32(r, mode ? async_out : sync_out, 3, s);
    TFE_ContextAsyncWait(c, s);
    CHECK_CODE(s, TF_OK);
    if (mode == 1) {
      TFE_ExecutorStats st = stats_of(ex, s);
      CHECK_EQ_INT(st.nodes_finished, 10000);
      CHECK_EQ_INT(st.in_flight, 0);
    }
    TFE_DeleteExecutor(ex);
    TFE_DeleteTensorHandle(r);
    TFE_DeleteTensorHandle(x0);
    TFE_DeleteTensorHandle(one);
    TFE_DeleteContext(c);
  }
  CHECK(memcmp(sync_out, async_out, sizeof(sync_out)) == 0);
  /* Every third op multiplies by one: the sum of the additions. */
  CHECK(sync_out[0] == 6666.0f);
  CHECK(sync_out[1] == 6666.5f);
  CHECK(sync_out[2] == 6663.0f);
  CHECK_EQ_INT(live_handles(), base);
  TF_DeleteStatus(s);
}

/* MatMul of an n x n matrix by itself, k times in a chain. */
static TFE_TensorHandle* matmul_chain(TFE_Context* c, TFE_TensorHandle* m,
                                      int k, TF_Status* s) {
  TFE_TensorHandle* cur = m;
  int i;
  for (i = 0; i < k; i++) {
    TFE_TensorHandle* r = op2(c, "MatMul", cur, m, s);
    CHECK_CODE(s, TF_OK);
    if (cur != m) TFE_DeleteTensorHandle(cur);
    cur = r;
  }
  return cur;
}

static TFE_TensorHandle* identity_matrix(int n, TF_Status* s) {
  float* v = (float*)calloc((size_t)n * (size_t)n, sizeof(float));
  int64_t dims[2] = {n, n};
  TFE_TensorHandle* h;
  int i;
  CHECK(v != NULL);
  for (i = 0; i < n; i++) v[i * n + i] = 1.0f;
  h = make_handle(TF_FLOAT, dims, 2, v, sizeof(float) * (size_t)n * n, s);
  free(v);
  return h;
}

TEST(queue_ahead_never_exceeds_the_limit) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(0, s);
  TFE_TensorHandle* m = identity_matrix(48, s);
  int limits[3] = {1, 4, 0};
  int li;
  for (li = 0; li < 3; li++) {
    TFE_Executor* ex = TFE_NewExecutor(true, true, limits[li]);
    int want = limits[li] > 0 ? limits[li] : TFE_EXECUTOR_DEFAULT_IN_FLIGHT_LIMIT;
    TFE_ExecutorStats st;
    TFE_TensorHandle* r;
    float corner;
    CHECK(ex != NULL);
    st = stats_of(ex, s);
    CHECK_EQ_INT(st.in_flight_limit, want);
    CHECK_EQ_INT(st.is_async, 1);
    TFE_ContextSetExecutorForThread(c, ex);
    r = matmul_chain(c, m, 600, s);
    st = stats_of(ex, s);
    CHECK(st.in_flight_high_water <= want);
    CHECK(st.in_flight_high_water >= 1);
    CHECK(st.in_flight <= want);
    CHECK_EQ_INT(st.nodes_enqueued, 600);
    corner = read_f32(r, s); /* element [0][0] of the identity */
    CHECK(corner == 1.0f);
    TFE_ExecutorWaitForAllPendingNodes(ex, s);
    CHECK_CODE(s, TF_OK);
    st = stats_of(ex, s);
    CHECK_EQ_INT(st.nodes_finished, 600);
    CHECK_EQ_INT(st.in_flight, 0);
    CHECK(st.in_flight_high_water <= want);
    TFE_ExecutorResetStats(ex);
    st = stats_of(ex, s);
    CHECK_EQ_INT(st.nodes_enqueued, 0);
    CHECK_EQ_INT(st.in_flight_high_water, 0);
    TFE_ContextSetExecutorForThread(c, NULL);
    TFE_DeleteTensorHandle(r);
    TFE_DeleteExecutor(ex);
  }
  TFE_DeleteTensorHandle(m);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

/* A Reshape of 6 elements to [4]: valid to enqueue, fails in its kernel
 * with INVALID_ARGUMENT. */
static TFE_TensorHandle* bad_reshape(TFE_Context* c, TFE_TensorHandle* x,
                                     TF_Status* s) {
  int64_t one = 1;
  int32_t four = 4;
  TFE_TensorHandle* shape =
      make_handle(TF_INT32, &one, 1, &four, sizeof(four), s);
  TFE_TensorHandle* r = op2(c, "Reshape", x, shape, s);
  TFE_DeleteTensorHandle(shape);
  return r;
}

TEST(error_mid_chain_surfaces_at_resolve_and_wait_then_clears) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(1, s);
  const float v6[6] = {1, 2, 3, 4, 5, 6};
  const float onev[6] = {1, 1, 1, 1, 1, 1};
  TFE_TensorHandle* x = vec_f32(v6, 6, s);
  TFE_TensorHandle* one = vec_f32(onev, 6, s);
  TFE_TensorHandle *a, *bad, *after = NULL, *later;
  int64_t base = live_handles();
  float out[6];
  int i;

  a = chain(c, x, one, 50, s);
  /* The failing op is queued: TFE_Execute reports OK (as in TF). */
  bad = bad_reshape(c, a, s);
  CHECK_CODE(s, TF_OK);
  CHECK(bad != NULL);
  CHECK_EQ_INT(TFE_TensorHandleDataType(bad), TF_FLOAT);
  /* Ops after it either queue (the worker has not reached the failure yet)
   * or fail fast with the executor's error. */
  for (i = 0; i < 20; i++) {
    TFE_TensorHandle* n = op2(c, "AddV2", after ? after : a, one, s);
    if (TF_GetCode(s) != TF_OK) {
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
      CHECK(n == NULL);
      break;
    }
    if (after != NULL) TFE_DeleteTensorHandle(after);
    after = n;
  }
  /* The failed op's output carries the kernel's error. */
  CHECK(TFE_TensorHandleResolve(bad, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_TensorHandleGetStatus(bad, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(bad, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* Ops queued behind it were dropped: their outputs carry the same
   * error, whether or not they depend on the failed op. */
  if (after != NULL) {
    CHECK(TFE_TensorHandleResolve(after, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TFE_DeleteTensorHandle(after);
  }
  /* The wait reports the error, with TF's explanation appended ... */
  TFE_ContextAsyncWait(c, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Encountered when executing an operation "
                                    "using EagerExecutor");
  /* ... and clears it: the next wait is OK and ops run again. */
  TFE_ContextAsyncWait(c, s);
  CHECK_CODE(s, TF_OK);
  later = op2(c, "AddV2", a, one, s);
  CHECK_CODE(s, TF_OK);
  read_vec_f32(later, out, 6, s);
  CHECK(out[0] == 35.0f && out[5] == 40.0f); /* 1 + 33 additions + 1 */
  TFE_DeleteTensorHandle(later);
  TFE_DeleteTensorHandle(bad);
  TFE_DeleteTensorHandle(a);
  /* Once a wait returned, finished ops have released their handles. */
  TFE_ContextAsyncWait(c, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(live_handles(), base);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(one);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TEST(executor_error_fails_fast_until_cleared) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(0, s);
  TFE_Executor* ex = TFE_NewExecutor(true, true, 8);
  const float v6[6] = {1, 2, 3, 4, 5, 6};
  TFE_TensorHandle* x = vec_f32(v6, 6, s);
  TFE_TensorHandle *bad, *r;
  TFE_ContextSetExecutorForThread(c, ex);
  bad = bad_reshape(c, x, s);
  CHECK_CODE(s, TF_OK);
  TFE_ExecutorWaitForAllPendingNodes(ex, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "poisons their output tensors");
  /* Still in error: waits repeat it and new ops fail at TFE_Execute. */
  TFE_ExecutorWaitForAllPendingNodes(ex, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  r = op2(c, "AddV2", x, x, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(r == NULL);
  /* Validation errors still come first (they are checked before the
   * executor's state). */
  {
    TFE_TensorHandle* i1 = scalar_i32(1, s);
    r = op2(c, "AddV2", x, i1, s);
    TFE_DeleteTensorHandle(i1);
  }
  CHECK(r == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "expected to be a float tensor");
  TFE_ExecutorClearError(ex);
  TFE_ExecutorWaitForAllPendingNodes(ex, s);
  CHECK_CODE(s, TF_OK);
  r = op2(c, "AddV2", x, x, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(r, s) == 2.0f);
  /* Consuming a poisoned handle fails the new op (at run time). */
  TFE_DeleteTensorHandle(r);
  r = op2(c, "AddV2", bad, bad, s);
  CHECK_CODE(s, TF_OK);
  TFE_ExecutorWaitForAllPendingNodes(ex, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_TensorHandleGetStatus(r, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ExecutorClearError(ex);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(bad);
  TFE_ContextSetExecutorForThread(c, NULL);
  /* In a synchronous executor the same op fails at TFE_Execute and leaves
   * no error behind. */
  bad = bad_reshape(c, x, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(bad == NULL);
  r = op2(c, "AddV2", x, x, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteExecutor(ex);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TEST(deleting_everything_while_pending_leaks_nothing) {
  TF_Status* s = TF_NewStatus();
  int64_t base_h = live_handles();
  int64_t base_c = TFE_LiveObjectCount(TFE_OBJ_CONTEXT);
  int64_t base_o = TFE_LiveObjectCount(TFE_OBJ_OP);
  TFE_Context* c = new_ctx_async(1, s);
  const float v[4] = {1, 2, 3, 4};
  TFE_TensorHandle* x = vec_f32(v, 4, s);
  TFE_TensorHandle* r = chain(c, x, x, 3000, s);
  TFE_TensorHandle* keep;
  int spins = 0;
  /* Delete the result unread, the inputs and the context: the queued ops
   * keep what they need alive, then everything goes. */
  TFE_DeleteTensorHandle(r);
  keep = chain(c, x, x, 500, s);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(c);
  /* A handle of a deleted context still resolves (the context is a
   * zombie until its last handle goes). */
  CHECK(read_f32(keep, s) != 0.0f);
  TFE_DeleteTensorHandle(keep);
  /* The worker drops the last references; wait for it (bounded). */
  while ((live_handles() != base_h ||
          TFE_LiveObjectCount(TFE_OBJ_CONTEXT) != base_c) &&
         spins < 2000) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
    spins++;
  }
  CHECK_EQ_INT(live_handles(), base_h);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_CONTEXT), base_c);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_OP), base_o);
  TF_DeleteStatus(s);
}

TEST(executor_api_and_wrappers) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(1, s);
  TFE_Executor* ea = TFE_NewExecutor(true, false, 3);
  TFE_Executor* es = TFE_NewExecutor(false, true, 0);
  TFE_Executor* w;
  TFE_ExecutorStats st;
  const float v[2] = {1, 2};
  TFE_TensorHandle* x = vec_f32(v, 2, s);
  TFE_TensorHandle* r;
  CHECK(TFE_ExecutorIsAsync(ea));
  CHECK(!TFE_ExecutorIsAsync(es));
  st = stats_of(es, s);
  CHECK_EQ_INT(st.is_async, 0);
  CHECK_EQ_INT(st.in_flight_limit, 0);
  CHECK_EQ_INT(st.nodes_enqueued, 0);
  /* The default executor of an async context is async. */
  w = TFE_ContextGetExecutorForThread(c);
  CHECK(TFE_ExecutorIsAsync(w));
  TFE_DeleteExecutor(w);
  /* A sync executor inside an async context runs ops at once. */
  TFE_ContextSetExecutorForThread(c, es);
  w = TFE_ContextGetExecutorForThread(c);
  CHECK(!TFE_ExecutorIsAsync(w));
  r = op2(c, "AddV2", x, x, s);
  CHECK_CODE(s, TF_OK);
  TFE_ExecutorWaitForAllPendingNodes(w, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteExecutor(w);
  TFE_DeleteTensorHandle(r);
  /* Wrappers report the executor they stand for. */
  TFE_ContextSetExecutorForThread(c, ea);
  w = TFE_ContextGetExecutorForThread(c);
  CHECK(TFE_ExecutorIsAsync(w));
  st = stats_of(w, s);
  CHECK_EQ_INT(st.in_flight_limit, 3);
  TFE_DeleteExecutor(w); /* frees only the wrapper */
  r = chain(c, x, x, 200, s);
  /* Deleting an executor waits for its ops: r is ready afterwards. */
  TFE_ContextSetExecutorForThread(c, NULL);
  TFE_DeleteExecutor(ea);
  TFE_TensorHandleGetStatus(r, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_TensorHandleDevicePointer(r, s) != NULL);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteExecutor(es);
  /* NULL arguments. */
  TFE_DeleteExecutor(NULL);
  CHECK(!TFE_ExecutorIsAsync(NULL));
  TFE_ExecutorClearError(NULL);
  TFE_ExecutorResetStats(NULL);
  TFE_ExecutorWaitForAllPendingNodes(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ExecutorGetStats(NULL, &st, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  w = TFE_ContextGetExecutorForThread(c);
  TFE_ExecutorGetStats(w, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteExecutor(w);
  TFE_ContextAsyncWait(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextSetExecutorForThread(NULL, NULL);
  CHECK(TFE_ContextGetExecutorForThread(NULL) == NULL);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TEST(deleted_executor_binding_falls_back_to_default) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(0, s);
  TFE_Executor* ex = TFE_NewExecutor(true, true, 2);
  TFE_Executor* w;
  TFE_TensorHandle *x = scalar_f32(2, s), *r;
  TFE_ContextSetExecutorForThread(c, ex);
  r = op2(c, "Mul", x, x, s);
  CHECK_CODE(s, TF_OK);
  /* Deleted while still chosen for this thread: the thread goes back to
   * the context's (synchronous) default executor, as in TF. */
  TFE_DeleteExecutor(ex);
  w = TFE_ContextGetExecutorForThread(c);
  CHECK(!TFE_ExecutorIsAsync(w));
  TFE_DeleteExecutor(w);
  CHECK(read_f32(r, s) == 4.0f);
  TFE_DeleteTensorHandle(r);
  r = op2(c, "Mul", x, x, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(r, s) == 4.0f);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TEST(context_wait_covers_and_clears_thread_executors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(0, s);
  TFE_Executor* ex = TFE_NewExecutor(true, true, 0);
  const float v6[6] = {1, 2, 3, 4, 5, 6};
  TFE_TensorHandle* x = vec_f32(v6, 6, s);
  TFE_TensorHandle* bad;
  TFE_ContextSetExecutorForThread(c, ex);
  bad = bad_reshape(c, x, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextAsyncWait(c, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* Cleared by the context wait. */
  TFE_ExecutorWaitForAllPendingNodes(ex, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextSetExecutorForThread(c, NULL);
  TFE_DeleteTensorHandle(bad);
  TFE_DeleteExecutor(ex);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TEST(pending_inputs_across_executors_and_copies) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(1, s);
  TFE_Executor* other = TFE_NewExecutor(true, true, 4);
  TFE_TensorHandle *x = scalar_f32(1, s), *a, *b, *cp, *sh;
  /* a comes from the default executor, b from another one that reads a
   * while it may still be pending. */
  a = chain(c, x, x, 300, s);
  TFE_ContextSetExecutorForThread(c, other);
  b = op2(c, "AddV2", a, a, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextSetExecutorForThread(c, NULL);
  /* Copies and shared copies of pending handles wait for the value. */
  cp = TFE_TensorHandleCopyToDevice(b, c, FULL_CPU(0), s);
  CHECK_CODE(s, TF_OK);
  sh = TFE_TensorHandleCopySharingTensor(a, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(cp, s) == 2.0f * read_f32(sh, s));
  CHECK(read_f32(a, s) == 201.0f); /* 100 Mul-by-1 and 200 +1 steps */
  TFE_DeleteTensorHandle(cp);
  TFE_DeleteTensorHandle(sh);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteExecutor(other);
  TFE_ContextAsyncWait(c, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
