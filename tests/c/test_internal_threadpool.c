/* Intra-op thread pool: every item runs exactly once whatever the chunking,
 * work really spreads over the workers, nested and concurrent calls,
 * inline pools, shared pools per size and shutdown. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/threadpool.h"
#include "kernels/kernel.h"
#include "tensorflow/c/eager/c_api.h"
#include "tfe_test.h"

typedef struct counts {
  atomic_int* hits;
  atomic_int calls;
  pthread_t threads[64];
  atomic_int nthreads;
  pthread_mutex_t mu;
} counts;

static void mark(void* arg, int64_t b, int64_t e) {
  counts* c = (counts*)arg;
  int64_t i;
  int t, seen = 0;
  atomic_fetch_add(&c->calls, 1);
  for (i = b; i < e; i++) atomic_fetch_add(&c->hits[i], 1);
  pthread_mutex_lock(&c->mu);
  for (t = 0; t < atomic_load(&c->nthreads); t++) {
    if (pthread_equal(c->threads[t], pthread_self())) seen = 1;
  }
  if (!seen && atomic_load(&c->nthreads) < 64) {
    c->threads[atomic_fetch_add(&c->nthreads, 1)] = pthread_self();
  }
  pthread_mutex_unlock(&c->mu);
}

static void run_case(tfe_threadpool* p, int64_t n, int64_t min_chunk) {
  counts c;
  int64_t i;
  memset(&c, 0, sizeof c);
  pthread_mutex_init(&c.mu, NULL);
  c.hits = (atomic_int*)calloc((size_t)(n > 0 ? n : 1), sizeof(atomic_int));
  tfe_parallel_for(p, n, min_chunk, mark, &c);
  for (i = 0; i < n; i++) CHECK_EQ_INT(atomic_load(&c.hits[i]), 1);
  if (n > 0 && min_chunk > 0) {
    CHECK(atomic_load(&c.calls) >= 1);
    CHECK(atomic_load(&c.calls) <= (n + min_chunk - 1) / min_chunk);
  }
  free(c.hits);
  pthread_mutex_destroy(&c.mu);
}

TEST(every_item_runs_exactly_once) {
  tfe_threadpool* p = tfe_threadpool_new(4);
  int64_t sizes[] = {0, 1, 2, 3, 7, 16, 100, 1001, 65537};
  int64_t chunks[] = {-1, 1, 3, 64, 100000};
  size_t i, j;
  CHECK(p != NULL);
  CHECK_EQ_INT(tfe_threadpool_size(p), 4);
  for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    for (j = 0; j < sizeof chunks / sizeof chunks[0]; j++) {
      run_case(p, sizes[i], chunks[j]);
      run_case(NULL, sizes[i], chunks[j]);
    }
  }
  tfe_threadpool_delete(p);
  tfe_threadpool_delete(NULL);
  CHECK_EQ_INT(tfe_threadpool_size(NULL), 1);
}

static void slow_mark(void* arg, int64_t b, int64_t e) {
  struct timespec ts = {0, 2000000};
  nanosleep(&ts, NULL);
  mark(arg, b, e);
}

TEST(work_spreads_over_threads) {
  tfe_threadpool* p = tfe_threadpool_new(3);
  counts c;
  memset(&c, 0, sizeof c);
  pthread_mutex_init(&c.mu, NULL);
  c.hits = (atomic_int*)calloc(64, sizeof(atomic_int));
  tfe_parallel_for(p, 64, 1, slow_mark, &c);
  CHECK(atomic_load(&c.nthreads) >= 2);
  free(c.hits);
  pthread_mutex_destroy(&c.mu);
  tfe_threadpool_delete(p);
}

typedef struct nested {
  tfe_threadpool* p;
  atomic_long sum;
} nested;

static void inner(void* arg, int64_t b, int64_t e) {
  nested* n = (nested*)arg;
  atomic_fetch_add(&n->sum, (long)(e - b));
}

static void outer(void* arg, int64_t b, int64_t e) {
  nested* n = (nested*)arg;
  int64_t i;
  for (i = b; i < e; i++) tfe_parallel_for(n->p, 100, 1, inner, n);
}

static void* caller(void* arg) {
  nested* n = (nested*)arg;
  int r;
  for (r = 0; r < 50; r++) tfe_parallel_for(n->p, 40, 1, outer, n);
  return NULL;
}

TEST(nested_and_concurrent_calls) {
  tfe_threadpool* p = tfe_threadpool_new(3);
  nested n;
  pthread_t th[3];
  int i;
  n.p = p;
  atomic_init(&n.sum, 0);
  for (i = 0; i < 3; i++) pthread_create(&th[i], NULL, caller, &n);
  for (i = 0; i < 3; i++) pthread_join(th[i], NULL);
  CHECK_EQ_INT(atomic_load(&n.sum), 3L * 50 * 40 * 100);
  tfe_threadpool_delete(p);
}

TEST(shared_pools_and_sizes) {
  tfe_threadpool* a = tfe_threadpool_shared(3);
  tfe_threadpool* b = tfe_threadpool_shared(3);
  tfe_threadpool* one = tfe_threadpool_shared(1);
  tfe_threadpool* dflt = tfe_threadpool_shared(0);
  CHECK(a != NULL && a == b);
  CHECK(one == NULL); /* size 1 runs inline */
  CHECK(tfe_threadpool_num_cpus() >= 1);
  if (tfe_threadpool_num_cpus() > 1) {
    CHECK(dflt != NULL);
    CHECK_EQ_INT(tfe_threadpool_size(dflt), tfe_threadpool_num_cpus());
  }
  run_case(a, 1000, 7);
  /* a kernel context without an eager context gets the default pool */
  CHECK(tfe_kernel_threadpool(NULL) == dflt);
  tfe_threadpool_shutdown_all();
  tfe_threadpool_shutdown_all();
  a = tfe_threadpool_shared(3);
  CHECK(a != NULL);
  run_case(a, 1000, 7);
  tfe_threadpool_shutdown_all();
  /* a pool of 1 thread has no workers and runs inline */
  {
    tfe_threadpool* p = tfe_threadpool_new(1);
    CHECK_EQ_INT(tfe_threadpool_size(p), 1);
    run_case(p, 100, 1);
    tfe_threadpool_delete(p);
  }
}

/* A kernel running in a context whose ConfigProto sets
 * intra_op_parallelism_threads gets the shared pool of that size. */
static tfe_threadpool* pool_for_config(const unsigned char* cfg, size_t len) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  tfe_kernel_context k;
  tfe_threadpool* p;
  TFE_ContextOptionsSetConfig(o, cfg, len, s);
  CHECK_CODE(s, TF_OK);
  ctx = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  memset(&k, 0, sizeof k);
  k.eager_ctx = ctx;
  p = tfe_kernel_threadpool(&k);
  TFE_DeleteContext(ctx);
  TFE_DeleteContextOptions(o);
  TF_DeleteStatus(s);
  return p;
}

TEST(pool_size_follows_the_context_config) {
  static const unsigned char three[] = {0x10, 0x03}; /* field 2 = 3 */
  static const unsigned char one[] = {0x10, 0x01};
  static const unsigned char zero[] = {0x10, 0x00}; /* 0: system default */
  tfe_threadpool* p = pool_for_config(three, sizeof three);
  CHECK(p != NULL && p == tfe_threadpool_shared(3));
  CHECK_EQ_INT(tfe_threadpool_size(p), 3);
  CHECK(pool_for_config(one, sizeof one) == NULL); /* inline */
  CHECK(pool_for_config(zero, sizeof zero) == tfe_threadpool_shared(0));
  CHECK(pool_for_config(NULL, 0) == tfe_threadpool_shared(0));
  tfe_threadpool_shutdown_all();
}

TFE_TEST_MAIN
