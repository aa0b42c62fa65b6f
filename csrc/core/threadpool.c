/* Intra-op thread pool (see threadpool.h).
 *
 * A pool is a set of worker threads sleeping on one condition variable
 * over a queue of jobs. A job is one tfe_parallel_for call: it lives on the
 * caller's stack and is split into chunks that workers and the caller
 * claim one at a time under the pool mutex. The caller returns once every
 * chunk has completed, which it checks under the same mutex; no worker
 * touches a job after completing its last claimed chunk, so the stack
 * frame can go away safely. Chunks are few (a handful per thread), so the
 * mutex is taken a few times per call, not per item. */
#include "core/threadpool.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/fpenv.h"
#include "eager/eager_internal.h"
#include "kernels/kernel.h"

/* Largest pool size handed out by tfe_threadpool_shared. */
#define TP_MAX_SHARED 256
/* Chunks per thread when the work allows it (helps uneven chunks). */
#define TP_CHUNKS_PER_THREAD 4

typedef struct tp_job {
  struct tp_job* next;
  tfe_parallel_fn fn;
  void* arg;
  int64_t n;
  int64_t chunk;      /* items per chunk (the last may be shorter) */
  int64_t nchunks;
  int64_t next_chunk; /* next unclaimed chunk; under the pool mutex */
  int64_t done;       /* completed chunks; under the pool mutex */
} tp_job;

struct tfe_threadpool {
  int size; /* workers + the caller */
  int num_workers;
  pthread_t* workers;
  pthread_mutex_t mu;
  pthread_cond_t work_cv; /* a job was queued, or shutdown */
  pthread_cond_t done_cv; /* some job completed */
  tp_job* head;
  tp_job* tail;
  int shutdown;
  int active_calls; /* tfe_parallel_for calls in progress */
};

/* Non-zero while this thread runs a chunk: nested calls then go inline. */
static _Thread_local int tp_in_chunk;

static void run_chunk(tp_job* j, int64_t c) {
  int64_t b = c * j->chunk;
  int64_t e = b + j->chunk;
  if (e > j->n) e = j->n;
  tp_in_chunk++;
  j->fn(j->arg, b, e);
  tp_in_chunk--;
}

/* Removes j from the queue (it may be anywhere in it). Under the mutex. */
static void unlink_job(tfe_threadpool* p, tp_job* j) {
  tp_job* prev = NULL;
  tp_job* it = p->head;
  while (it != NULL && it != j) {
    prev = it;
    it = it->next;
  }
  if (it == NULL) return;
  if (prev == NULL) {
    p->head = j->next;
  } else {
    prev->next = j->next;
  }
  if (p->tail == j) p->tail = prev;
  j->next = NULL;
}

/* Claims the next chunk of j; unlinks j once all its chunks are claimed.
 * Under the mutex; j must have an unclaimed chunk. */
static int64_t claim(tfe_threadpool* p, tp_job* j) {
  int64_t c = j->next_chunk++;
  if (j->next_chunk == j->nchunks) unlink_job(p, j);
  return c;
}

static void finish(tfe_threadpool* p, tp_job* j) {
  if (++j->done == j->nchunks) pthread_cond_broadcast(&p->done_cv);
}

static void* worker_main(void* arg) {
  tfe_threadpool* p = (tfe_threadpool*)arg;
  /* Chunks of kernels run here: same FP modes as on the kernel's caller. */
  tfe_fpenv_set_thread();
  pthread_mutex_lock(&p->mu);
  for (;;) {
    tp_job* j;
    int64_t c;
    while (!p->shutdown && p->head == NULL) {
      pthread_cond_wait(&p->work_cv, &p->mu);
    }
    if (p->head == NULL) break; /* shutdown with nothing left */
    j = p->head;
    c = claim(p, j);
    pthread_mutex_unlock(&p->mu);
    run_chunk(j, c);
    pthread_mutex_lock(&p->mu);
    finish(p, j);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* ---- CPU count ---- */

static int g_num_cpus = 1;
static pthread_once_t g_cpus_once = PTHREAD_ONCE_INIT;

static void count_cpus(void) {
  int n = 0;
#ifdef CPU_COUNT
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
#endif
  if (n < 1) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    n = c < 1 ? 1 : (int)c;
  }
  g_num_cpus = n;
}

int tfe_threadpool_num_cpus(void) {
  pthread_once(&g_cpus_once, count_cpus);
  return g_num_cpus;
}

/* ---- pools ---- */

tfe_threadpool* tfe_threadpool_new(int num_threads) {
  tfe_threadpool* p;
  int i;
  if (num_threads <= 0) num_threads = tfe_threadpool_num_cpus();
  p = (tfe_threadpool*)tfe_calloc(1, sizeof *p);
  if (p == NULL) return NULL;
  p->size = num_threads;
  if (pthread_mutex_init(&p->mu, NULL) != 0) goto fail_mu;
  if (pthread_cond_init(&p->work_cv, NULL) != 0) goto fail_work;
  if (pthread_cond_init(&p->done_cv, NULL) != 0) goto fail_done;
  if (num_threads > 1) {
    p->workers = (pthread_t*)tfe_calloc((size_t)(num_threads - 1),
                                        sizeof(pthread_t));
    if (p->workers == NULL) goto fail_threads;
    for (i = 0; i < num_threads - 1; i++) {
      if (pthread_create(&p->workers[i], NULL, worker_main, p) != 0) break;
      p->num_workers++;
    }
    if (p->num_workers == 0) {
      tfe_free(p->workers);
      p->workers = NULL;
    }
  }
  /* With fewer workers than asked (thread limits), the pool still works. */
  p->size = p->num_workers + 1;
  return p;

fail_threads:
  pthread_cond_destroy(&p->done_cv);
fail_done:
  pthread_cond_destroy(&p->work_cv);
fail_work:
  pthread_mutex_destroy(&p->mu);
fail_mu:
  tfe_free(p);
  return NULL;
}

void tfe_threadpool_delete(tfe_threadpool* p) {
  int i;
  if (p == NULL) return;
  pthread_mutex_lock(&p->mu);
  p->shutdown = 1;
  pthread_cond_broadcast(&p->work_cv);
  pthread_mutex_unlock(&p->mu);
  for (i = 0; i < p->num_workers; i++) pthread_join(p->workers[i], NULL);
  tfe_free(p->workers);
  pthread_cond_destroy(&p->done_cv);
  pthread_cond_destroy(&p->work_cv);
  pthread_mutex_destroy(&p->mu);
  tfe_free(p);
}

int tfe_threadpool_size(const tfe_threadpool* p) {
  return p == NULL ? 1 : p->size;
}

void tfe_parallel_for(tfe_threadpool* p, int64_t n, int64_t min_chunk,
                      tfe_parallel_fn fn, void* arg) {
  tp_job j;
  int64_t max_chunks;
  if (n <= 0 || fn == NULL) return;
  if (min_chunk < 1) min_chunk = 1;
  if (p == NULL || p->num_workers == 0 || tp_in_chunk > 0 ||
      n <= min_chunk) {
    tp_in_chunk++;
    fn(arg, 0, n);
    tp_in_chunk--;
    return;
  }
  max_chunks = (int64_t)p->size * TP_CHUNKS_PER_THREAD;
  j.nchunks = (n + min_chunk - 1) / min_chunk;
  if (j.nchunks > max_chunks) j.nchunks = max_chunks;
  j.chunk = (n + j.nchunks - 1) / j.nchunks;
  j.nchunks = (n + j.chunk - 1) / j.chunk;
  j.next = NULL;
  j.fn = fn;
  j.arg = arg;
  j.n = n;
  j.next_chunk = 0;
  j.done = 0;

  pthread_mutex_lock(&p->mu);
  p->active_calls++;
  if (p->tail == NULL) {
    p->head = p->tail = &j;
  } else {
    p->tail->next = &j;
    p->tail = &j;
  }
  if (j.nchunks - 1 >= p->num_workers) {
    pthread_cond_broadcast(&p->work_cv);
  } else {
    int64_t w;
    for (w = 0; w < j.nchunks - 1; w++) pthread_cond_signal(&p->work_cv);
  }
  while (j.next_chunk < j.nchunks) {
    int64_t c = claim(p, &j);
    pthread_mutex_unlock(&p->mu);
    run_chunk(&j, c);
    pthread_mutex_lock(&p->mu);
    finish(p, &j);
  }
  while (j.done < j.nchunks) pthread_cond_wait(&p->done_cv, &p->mu);
  p->active_calls--;
  pthread_mutex_unlock(&p->mu);
}

/* ---- shared pools ---- */

static pthread_mutex_t g_shared_mu = PTHREAD_MUTEX_INITIALIZER;
static tfe_threadpool* g_shared[TP_MAX_SHARED + 1];

tfe_threadpool* tfe_threadpool_shared(int num_threads) {
  tfe_threadpool* p;
  if (num_threads <= 0) num_threads = tfe_threadpool_num_cpus();
  if (num_threads > TP_MAX_SHARED) num_threads = TP_MAX_SHARED;
  if (num_threads == 1) return NULL; /* inline */
  pthread_mutex_lock(&g_shared_mu);
  p = g_shared[num_threads];
  if (p == NULL) {
    p = tfe_threadpool_new(num_threads);
    g_shared[num_threads] = p;
  }
  pthread_mutex_unlock(&g_shared_mu);
  return p;
}

tfe_threadpool* tfe_kernel_threadpool(const struct tfe_kernel_context* k) {
  int n = 0;
  if (k != NULL && k->eager_ctx != NULL) {
    const TFE_Context* ctx = (const TFE_Context*)k->eager_ctx;
    if (ctx->intra_op_threads > 0) n = ctx->intra_op_threads;
  }
  return tfe_threadpool_shared(n);
}

void tfe_threadpool_shutdown_all(void) {
  int i;
  pthread_mutex_lock(&g_shared_mu);
  for (i = 0; i <= TP_MAX_SHARED; i++) {
    tfe_threadpool* p = g_shared[i];
    int busy;
    if (p == NULL) continue;
    pthread_mutex_lock(&p->mu);
    busy = p->active_calls > 0;
    pthread_mutex_unlock(&p->mu);
    /* A pool still in use (another thread mid-call at exit) is left
     * alone rather than freed under it. */
    if (busy) continue;
    g_shared[i] = NULL;
    tfe_threadpool_delete(p);
  }
  pthread_mutex_unlock(&g_shared_mu);
}

#if defined(__GNUC__)
__attribute__((destructor)) static void tp_unload(void) {
  tfe_threadpool_shutdown_all();
}
#endif
