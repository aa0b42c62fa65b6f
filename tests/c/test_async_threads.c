/* One context used from many threads at once: 8 threads x 10,000 ops
 * (TFE_THREAD_TEST_OPS overrides the count) on a context that gains a
 * second CPU device while they run, mixing the shared asynchronous default executor, per-thread
 * asynchronous and synchronous executors, random deletes, shared copies and
 * copies between devices, while another thread lists devices, clears the
 * kernel cache and flips settings. Every value is checked against the same
 * arithmetic done in C. Built and run under ThreadSanitizer by
 * tools/test_all.sh (TFE_TSAN). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "async_test_util.h"

#define NTHREADS 8
#define POOL 8
#define LEN 4

static int num_ops(void) {
  const char* e = getenv("TFE_THREAD_TEST_OPS");
  int n = e != NULL ? atoi(e) : 0;
  return n > 0 ? n : 10000;
}

typedef struct worker {
  TFE_Context* ctx;
  int index;
  TFE_TensorHandle* half; /* shared by all threads */
  atomic_int* stop_chaos;
  atomic_int* have_cpu1; /* set once CPU:1 was registered */
  int ok;
  int64_t ops;
} worker;

typedef struct slot {
  TFE_TensorHandle* h;
  float v[LEN];
} slot;

static unsigned next_rand(unsigned* st) {
  *st = *st * 1103515245u + 12345u;
  return (*st >> 16) & 0x7fff;
}

static TFE_TensorHandle* fresh(unsigned* rs, float* v, TF_Status* s) {
  int i;
  for (i = 0; i < LEN; i++) v[i] = (float)((int)(next_rand(rs) % 201) - 100);
  return vec_f32(v, LEN, s);
}

/* One op: out = name(a, b), optionally placed on `device`. */
static TFE_TensorHandle* exec2(TFE_Context* c, const char* name,
                               TFE_TensorHandle* a, TFE_TensorHandle* b,
                               const char* device, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(c, name, s);
  TFE_TensorHandle* out = NULL;
  int n = 1;
  CHECK_CODE(s, TF_OK);
  if (device != NULL) TFE_OpSetDevice(op, device, s);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, b, s);
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);
  return out;
}

static void check_value(TFE_TensorHandle* h, const float* want, TF_Status* s) {
  float got[LEN];
  read_vec_f32(h, got, LEN, s);
  if (memcmp(got, want, sizeof(got)) != 0) {
    TFE_FAIL("value mismatch: got %g %g %g %g, want %g %g %g %g", got[0],
             got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
  }
}

static void* worker_main(void* p) {
  worker* w = (worker*)p;
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = w->ctx;
  TFE_Executor* own = NULL;
  slot pool[POOL];
  unsigned rs = 1234u + 977u * (unsigned)w->index;
  const int target = num_ops();
  const char* devs[2] = {FULL_CPU(0), FULL_CPU(1)};
  int i, k;

  /* Threads 0-3 share the context's (async) default executor; 4-5 have an
   * async executor each (4 with a tight limit); 6-7 a synchronous one. */
  if (w->index >= 4) {
    own = TFE_NewExecutor(w->index < 6, true, w->index == 4 ? 2 : 0);
    CHECK(own != NULL);
    TFE_ContextSetExecutorForThread(c, own);
  }
  for (i = 0; i < POOL; i++) pool[i].h = fresh(&rs, pool[i].v, s);

  while (w->ops < target) {
    unsigned r = next_rand(&rs) % 100;
    int a = (int)(next_rand(&rs) % POOL), b = (int)(next_rand(&rs) % POOL);
    /* CPU:1 is registered by another thread while this one runs. */
    int d = atomic_load(w->have_cpu1) ? (int)(next_rand(&rs) % 2) : 0;
    if (r < 60) {
      /* pool[a] = (pool[a] + pool[b]) * 0.5, or (pool[a] - pool[b]) * 0.5:
       * values stay within the starting range, and C float arithmetic
       * gives the exact expected result. */
      int sub = (next_rand(&rs) & 1) != 0;
      TFE_TensorHandle* t =
          exec2(c, sub ? "Sub" : "AddV2", pool[a].h, pool[b].h, devs[d], s);
      TFE_TensorHandle* u = exec2(c, "Mul", t, w->half, NULL, s);
      float nv[LEN];
      for (k = 0; k < LEN; k++) {
        float x = sub ? pool[a].v[k] - pool[b].v[k]
                      : pool[a].v[k] + pool[b].v[k];
        nv[k] = x * 0.5f;
      }
      TFE_DeleteTensorHandle(t);
      TFE_DeleteTensorHandle(pool[a].h);
      pool[a].h = u;
      memcpy(pool[a].v, nv, sizeof(nv));
      w->ops += 2;
    } else if (r < 72) {
      /* Random delete, replaced by a new constant. */
      TFE_DeleteTensorHandle(pool[a].h);
      pool[a].h = fresh(&rs, pool[a].v, s);
    } else if (r < 80) {
      /* Shared copy of another slot (may be pending). */
      TFE_TensorHandle* cp = TFE_TensorHandleCopySharingTensor(pool[b].h, s);
      CHECK_CODE(s, TF_OK);
      if (a != b) {
        TFE_DeleteTensorHandle(pool[a].h);
        pool[a].h = cp;
        memcpy(pool[a].v, pool[b].v, sizeof(pool[a].v));
      } else {
        TFE_DeleteTensorHandle(cp);
      }
    } else if (r < 92) {
      /* Copy to the other device (waits for pending values). */
      TFE_TensorHandle* cp = TFE_TensorHandleCopyToDevice(pool[a].h, c,
                                                          devs[d], s);
      CHECK_CODE(s, TF_OK);
      TFE_DeleteTensorHandle(pool[a].h);
      pool[a].h = cp;
    } else {
      check_value(pool[a].h, pool[a].v, s);
    }
  }
  for (i = 0; i < POOL; i++) {
    check_value(pool[i].h, pool[i].v, s);
    TFE_DeleteTensorHandle(pool[i].h);
  }
  if (own != NULL) {
    TFE_ExecutorWaitForAllPendingNodes(own, s);
    CHECK_CODE(s, TF_OK);
    TFE_ContextSetExecutorForThread(c, NULL);
    TFE_DeleteExecutor(own);
  }
  w->ok = 1;
  TF_DeleteStatus(s);
  return NULL;
}

/* Concurrent context-level calls while the workers run. */
static void* chaos_main(void* p) {
  worker* w = (worker*)p;
  TF_Status* s = TF_NewStatus();
  int n = 0;
  /* A device appears while the workers already execute (the first chaos
   * thread adds it; the second one's attempt conflicts, as in TF). */
  TFE_SetLogicalCpuDevices(w->ctx, 2, NULL, s);
  if (w->index == 0) {
    CHECK_CODE(s, TF_OK);
    atomic_store(w->have_cpu1, 1);
  }
  while (!atomic_load(w->stop_chaos)) {
    TF_DeviceList* l = TFE_ContextListDevices(w->ctx, s);
    TFE_Executor* ex;
    CHECK_CODE(s, TF_OK);
    CHECK(TF_DeviceListCount(l) >= 2);
    TF_DeleteDeviceList(l);
    if (n % 16 == 0) TFE_ContextClearCaches(w->ctx);
    TFE_ContextSetSoftDevicePlacement(w->ctx, (unsigned char)(n & 1), s);
    ex = TFE_ContextGetExecutorForThread(w->ctx);
    CHECK(TFE_ExecutorIsAsync(ex));
    TFE_DeleteExecutor(ex);
    TFE_ContextSetLogDevicePlacement(w->ctx, 0, s);
    TFE_ContextSetRunEagerOpAsFunction(w->ctx, (unsigned char)(n & 1), s);
    TFE_ContextSetJitCompileRewrite(w->ctx, (unsigned char)(n & 1), s);
    if (n & 1) {
      TFE_ContextEnableRunMetadata(w->ctx);
    } else {
      TFE_ContextDisableRunMetadata(w->ctx);
    }
    n++;
  }
  TF_DeleteStatus(s);
  return NULL;
}

TEST(eight_threads_share_one_context) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* c = new_ctx_async(1, s);
  worker w[NTHREADS], chaos[2];
  pthread_t th[NTHREADS], chaos_th[2];
  atomic_int stop = 0, have_cpu1 = 0;
  TFE_TensorHandle* half;
  const float halfv[LEN] = {0.5f, 0.5f, 0.5f, 0.5f};
  int64_t base = live_handles();
  int i;
  half = vec_f32(halfv, LEN, s);
  memset(chaos, 0, sizeof(chaos));
  for (i = 0; i < 2; i++) {
    chaos[i].ctx = c;
    chaos[i].index = i;
    chaos[i].stop_chaos = &stop;
    chaos[i].have_cpu1 = &have_cpu1;
  }
  for (i = 0; i < NTHREADS; i++) {
    memset(&w[i], 0, sizeof(w[i]));
    w[i].ctx = c;
    w[i].index = i;
    w[i].half = half;
    w[i].have_cpu1 = &have_cpu1;
    CHECK(pthread_create(&th[i], NULL, worker_main, &w[i]) == 0);
  }
  /* The second chaos thread starts after CPU:1 exists. */
  CHECK(pthread_create(&chaos_th[0], NULL, chaos_main, &chaos[0]) == 0);
  while (!atomic_load(&have_cpu1)) sched_yield();
  CHECK(pthread_create(&chaos_th[1], NULL, chaos_main, &chaos[1]) == 0);
  for (i = 0; i < NTHREADS; i++) {
    pthread_join(th[i], NULL);
    CHECK(w[i].ok);
    CHECK(w[i].ops >= num_ops());
  }
  atomic_store(&stop, 1);
  pthread_join(chaos_th[0], NULL);
  pthread_join(chaos_th[1], NULL);
  TFE_ContextAsyncWait(c, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(half);
  CHECK_EQ_INT(live_handles(), base);
  TFE_DeleteContext(c);
  TF_DeleteStatus(s);
}

/* Several threads each with their own async context and executors,
 * creating and deleting contexts while others run. */
static void* context_churn(void* p) {
  int idx = *(int*)p, round;
  TF_Status* s = TF_NewStatus();
  for (round = 0; round < 20; round++) {
    TFE_Context* c = new_ctx_async(round % 2, s);
    TFE_TensorHandle* x = scalar_f32((float)idx, s);
    TFE_TensorHandle* cur = x;
    int i;
    for (i = 0; i < 50; i++) {
      TFE_TensorHandle* n = op2(c, "AddV2", cur, x, s);
      CHECK_CODE(s, TF_OK);
      if (cur != x) TFE_DeleteTensorHandle(cur);
      cur = n;
    }
    /* Deleting the context first: the pending ops still finish. */
    TFE_DeleteContext(c);
    CHECK(read_f32(cur, s) == 51.0f * (float)idx);
    TFE_DeleteTensorHandle(cur);
    TFE_DeleteTensorHandle(x);
  }
  TF_DeleteStatus(s);
  return NULL;
}

TEST(threads_create_and_delete_contexts) {
  pthread_t th[4];
  int idx[4] = {1, 2, 3, 4};
  int i;
  for (i = 0; i < 4; i++) {
    CHECK(pthread_create(&th[i], NULL, context_churn, &idx[i]) == 0);
  }
  for (i = 0; i < 4; i++) pthread_join(th[i], NULL);
}

TFE_TEST_MAIN
