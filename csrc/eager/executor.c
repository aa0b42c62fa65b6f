/* Executors: synchronous ones (ops run inside TFE_Execute) and
 * asynchronous ones (a bounded queue of nodes and one worker thread each),
 * per-thread executor selection, the waits, and the statistics extension
 * (include/tfe/executor.h). See executor.h for how queued ops run.
 *
 * Objects:
 *   - TFE_Executor: what the API hands out. A real executor (from
 *     TFE_NewExecutor, or a context's default executor embedded in the
 *     context) or a wrapper (TFE_ContextGetExecutorForThread) that refers
 *     to a real one and owns nothing.
 *   - tfe_exec_core: the queue, worker and sticky error of an asynchronous
 *     executor. Reference counted: the executor holds one reference and the
 *     worker thread another, so a worker that finishes the last op of a
 *     context (which frees the context and its embedded default executor)
 *     keeps a valid core until it has left its loop.
 *   - Thread bindings: TFE_ContextSetExecutorForThread records (context id,
 *     thread, executor) in a process-wide table under g_reg_mu, which also
 *     lists the registered executors. A binding whose executor was deleted
 *     is dropped, so the thread falls back to the context's default
 *     executor (as in TF). Each thread caches its last lookup, validated
 *     by a global epoch bumped on every change of the table.
 *
 * Locks: g_reg_mu (registry) and each core's mu; never held together, and
 * no lock is held while a node runs, aborts or is freed. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fpenv.h"
#include "core/status_internal.h"
#include "eager/executor.h"
#include "tensorflow/c/logging.h"
#include "tfe/executor.h"

/* ------------------------------------------------------------------------
 * Cores: the queue and worker of an asynchronous executor. */

typedef struct tfe_exec_core {
  atomic_int refs;
  pthread_mutex_t mu;
  pthread_cond_t work_cv; /* worker: a node arrived, or shutdown */
  pthread_cond_t room_cv; /* callers: in_flight dropped, or an error */
  pthread_cond_t idle_cv; /* waiters: in_flight reached 0, or an error */
  tfe_async_node* head;   /* queued, not yet running */
  tfe_async_node* tail;
  int in_flight; /* queued + running */
  int limit;
  int high_water;
  int64_t enqueued;
  int64_t finished;
  int64_t blocked;
  /* Sticky error: set by a failed node, cleared by ClearError. */
  TF_Code err;
  char* err_msg;
  int started;
  int shutdown;
  pthread_t thread;
  /* Threads sleeping on each condition variable: signals are only sent
   * when someone sleeps, and callers waiting for room sleep until the
   * queue is half empty, so a full queue costs a few wake-ups per batch of
   * ops rather than one per op. */
  int worker_sleeping;
  int room_waiters;
  int idle_waiters;
} tfe_exec_core;

/* Worker threads mark themselves: ops they execute run inline. */
static _Thread_local int t_on_worker;

int tfe_executor_on_worker(void) { return t_on_worker; }

static tfe_exec_core* core_new(int limit) {
  tfe_exec_core* c = (tfe_exec_core*)tfe_calloc(1, sizeof(*c));
  if (c == NULL) return NULL;
  if (pthread_mutex_init(&c->mu, NULL) != 0) goto fail_mu;
  if (pthread_cond_init(&c->work_cv, NULL) != 0) goto fail_work;
  if (pthread_cond_init(&c->room_cv, NULL) != 0) goto fail_room;
  if (pthread_cond_init(&c->idle_cv, NULL) != 0) goto fail_idle;
  atomic_init(&c->refs, 1);
  c->limit = limit > 0 ? limit : TFE_EXECUTOR_DEFAULT_IN_FLIGHT_LIMIT;
  c->err = TF_OK;
  return c;
fail_idle:
  pthread_cond_destroy(&c->room_cv);
fail_room:
  pthread_cond_destroy(&c->work_cv);
fail_work:
  pthread_mutex_destroy(&c->mu);
fail_mu:
  tfe_free(c);
  return NULL;
}

static void core_unref(tfe_exec_core* c) {
  if (atomic_fetch_sub_explicit(&c->refs, 1, memory_order_acq_rel) != 1) {
    return;
  }
  pthread_cond_destroy(&c->idle_cv);
  pthread_cond_destroy(&c->room_cv);
  pthread_cond_destroy(&c->work_cv);
  pthread_mutex_destroy(&c->mu);
  tfe_free(c->err_msg);
  tfe_free(c);
}

static void core_ref(tfe_exec_core* c) {
  atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
}

/* Records the first failure (under mu) and detaches the queued nodes, which
 * the caller aborts outside the lock. */
static tfe_async_node* fail_locked(tfe_exec_core* c, TF_Code code,
                                   const char* msg) {
  tfe_async_node* dropped = c->head;
  if (c->err == TF_OK) {
    size_t n = strlen(msg) + 160;
    char* m = (char*)tfe_malloc(n);
    if (m != NULL) {
      /* TF's executor appends the same explanation to the error. */
      snprintf(m, n,
               "%s\nEncountered when executing an operation using "
               "EagerExecutor. This error cancels all future operations and "
               "poisons their output tensors.",
               msg);
    }
    c->err = code;
    c->err_msg = m;
  }
  c->head = c->tail = NULL;
  pthread_cond_broadcast(&c->room_cv);
  pthread_cond_broadcast(&c->idle_cv);
  return dropped;
}

/* In flight at or below which callers waiting for room are woken. */
static int resume_level(const tfe_exec_core* c) { return c->limit / 2; }

/* Marks n nodes finished (under mu). */
static void finished_locked(tfe_exec_core* c, int n) {
  c->in_flight -= n;
  c->finished += n;
  if (c->room_waiters > 0 && c->in_flight <= resume_level(c)) {
    pthread_cond_broadcast(&c->room_cv);
  }
  if (c->idle_waiters > 0 && c->in_flight == 0) {
    pthread_cond_broadcast(&c->idle_cv);
  }
}

static void* worker_main(void* arg) {
  tfe_exec_core* c = (tfe_exec_core*)arg;
  /* A status on the stack: the worker allocates nothing of its own. */
  TF_Status s = {TF_OK, NULL, NULL};
  t_on_worker = 1;
  /* Queued kernels run on this thread: keep it in the kernel FP modes so
   * each run finds them set already (core/fpenv.h). */
  tfe_fpenv_set_thread();
  pthread_mutex_lock(&c->mu);
  for (;;) {
    tfe_async_node *node, *dropped = NULL;
    int ndropped = 0;
    while (c->head == NULL && !c->shutdown) {
      c->worker_sleeping = 1;
      pthread_cond_wait(&c->work_cv, &c->mu);
      c->worker_sleeping = 0;
    }
    if (c->head == NULL) break; /* shutdown with nothing left */
    node = c->head;
    c->head = *tfe_async_node_next(node);
    if (c->head == NULL) c->tail = NULL;
    pthread_mutex_unlock(&c->mu);

    TF_SetStatus(&s, TF_OK, "");
    tfe_async_node_run(node, &s);
    if (s.code != TF_OK) {
      pthread_mutex_lock(&c->mu);
      dropped = fail_locked(c, s.code, TF_Message(&s));
      pthread_mutex_unlock(&c->mu);
    }
    /* Outputs of dropped nodes carry the failing node's own error. */
    while (dropped != NULL) {
      tfe_async_node* next = *tfe_async_node_next(dropped);
      tfe_async_node_abort(dropped, s.code, TF_Message(&s));
      tfe_async_node_free(dropped);
      ndropped++;
      dropped = next;
    }
    /* Freeing may drop the last reference of the context (and free the
     * executor embedded in it); only `c` is used afterwards. */
    tfe_async_node_free(node);
    pthread_mutex_lock(&c->mu);
    finished_locked(c, 1 + ndropped);
  }
  pthread_mutex_unlock(&c->mu);
  TF_SetStatus(&s, TF_OK, "");
  core_unref(c);
  return NULL;
}

/* Stops the worker once the queue is empty and drops the executor's
 * reference. Joins the worker unless called on it (then detaches). */
static void core_shutdown(tfe_exec_core* c) {
  int started;
  pthread_t th;
  pthread_mutex_lock(&c->mu);
  c->shutdown = 1;
  started = c->started;
  th = c->thread;
  pthread_cond_broadcast(&c->work_cv);
  pthread_cond_broadcast(&c->room_cv);
  pthread_mutex_unlock(&c->mu);
  if (started) {
    if (pthread_equal(th, pthread_self())) {
      pthread_detach(th);
    } else {
      pthread_join(th, NULL);
    }
  }
  core_unref(c);
}

/* The core of real executor ex, made on first use; NULL for a synchronous
 * executor or when memory runs out. */
static tfe_exec_core* core_of(TFE_Executor* ex, int create) {
  tfe_exec_core* c = atomic_load_explicit(&ex->core, memory_order_acquire);
  tfe_exec_core* expected = NULL;
  if (c != NULL || !create || !ex->is_async) return c;
  c = core_new(ex->in_flight_nodes_limit);
  if (c == NULL) return NULL;
  if (!atomic_compare_exchange_strong(&ex->core, &expected, c)) {
    core_unref(c); /* another thread made it first */
    return expected;
  }
  return c;
}

int tfe_executor_push(TFE_Executor* ex, tfe_async_node* node, TF_Status* s) {
  tfe_exec_core* c = core_of(ex, 1);
  if (c == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "TFE_Execute: out of memory creating the executor queue");
    return 0;
  }
  pthread_mutex_lock(&c->mu);
  if (c->err == TF_OK && c->in_flight >= c->limit) {
    /* Full: wait (not fail) until the queue drained to half, or an error
     * (room is never granted above the limit). */
    c->blocked++;
    c->room_waiters++;
    do {
      pthread_cond_wait(&c->room_cv, &c->mu);
    } while (c->err == TF_OK && c->in_flight > resume_level(c) &&
             !c->shutdown);
    c->room_waiters--;
    /* Several callers may wake together: each takes room only below the
     * limit. */
    while (c->err == TF_OK && c->in_flight >= c->limit && !c->shutdown) {
      c->room_waiters++;
      pthread_cond_wait(&c->room_cv, &c->mu);
      c->room_waiters--;
    }
  }
  if (c->err != TF_OK) {
    tfe_status_setf(s, c->err, "%s",
                    c->err_msg != NULL ? c->err_msg : "executor in error");
    pthread_mutex_unlock(&c->mu);
    return 0;
  }
  if (c->shutdown) {
    pthread_mutex_unlock(&c->mu);
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "TFE_Execute: the executor is being deleted");
    return 0;
  }
  if (!c->started) {
    int rc;
    core_ref(c); /* the worker's reference */
    rc = pthread_create(&c->thread, NULL, worker_main, c);
    if (rc != 0) {
      pthread_mutex_unlock(&c->mu);
      atomic_fetch_sub(&c->refs, 1); /* never the last: ex holds one */
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "TFE_Execute: cannot start the executor thread (%s)",
                      strerror(rc));
      return 0;
    }
    c->started = 1;
  }
  *tfe_async_node_next(node) = NULL;
  if (c->tail != NULL) {
    *tfe_async_node_next(c->tail) = node;
  } else {
    c->head = node;
  }
  c->tail = node;
  c->in_flight++;
  c->enqueued++;
  if (c->in_flight > c->high_water) c->high_water = c->in_flight;
  if (c->worker_sleeping) pthread_cond_signal(&c->work_cv);
  pthread_mutex_unlock(&c->mu);
  tfe_status_ok(s);
  return 1;
}

/* Waits until nothing is in flight or the core is in error; returns the
 * error (TF_OK when none) in s. */
static void core_wait(tfe_exec_core* c, TF_Status* s) {
  TF_Code code;
  pthread_mutex_lock(&c->mu);
  while (c->err == TF_OK && c->in_flight > 0) {
    c->idle_waiters++;
    pthread_cond_wait(&c->idle_cv, &c->mu);
    c->idle_waiters--;
  }
  code = c->err;
  if (code != TF_OK) {
    tfe_status_setf(s, code, "%s",
                    c->err_msg != NULL ? c->err_msg : "executor in error");
  }
  pthread_mutex_unlock(&c->mu);
  if (code == TF_OK) tfe_status_ok(s);
}

static void core_clear_error(tfe_exec_core* c) {
  pthread_mutex_lock(&c->mu);
  c->err = TF_OK;
  tfe_free(c->err_msg);
  c->err_msg = NULL;
  pthread_mutex_unlock(&c->mu);
}

/* ------------------------------------------------------------------------
 * Registry of executors and thread bindings. */

typedef struct binding {
  uint64_t ctx_id;
  uint64_t thread_id;
  TFE_Executor* ex;
} binding;

static pthread_mutex_t g_reg_mu = PTHREAD_MUTEX_INITIALIZER;
static binding* g_bindings; /* under g_reg_mu */
static int g_num_bindings;
static int g_cap_bindings;
static atomic_int g_any_bindings; /* g_num_bindings > 0, readable lock-free */
static atomic_uint_fast64_t g_epoch = 1;
static atomic_uint_fast64_t g_next_thread_id = 1;
static atomic_uint_fast64_t g_next_executor_id = 1;

static _Thread_local uint64_t t_thread_id;
/* The calling thread's last lookup: valid while g_epoch is unchanged. */
static _Thread_local struct {
  uint64_t ctx_id;
  uint64_t epoch;
  TFE_Executor* ex; /* NULL: the context's default executor */
} t_cache;

static uint64_t this_thread_id(void) {
  if (t_thread_id == 0) t_thread_id = atomic_fetch_add(&g_next_thread_id, 1);
  return t_thread_id;
}

static void bump_epoch_locked(void) {
  atomic_fetch_add_explicit(&g_epoch, 1, memory_order_release);
  atomic_store_explicit(&g_any_bindings, g_num_bindings > 0,
                        memory_order_release);
}

/* Removes binding i (under g_reg_mu). */
static void unbind_at_locked(int i) {
  g_bindings[i] = g_bindings[g_num_bindings - 1];
  g_num_bindings--;
}

/* Binds (ctx_id, this thread) to ex, or unbinds when ex is NULL. 0 on OOM. */
static int bind(uint64_t ctx_id, TFE_Executor* ex) {
  uint64_t tid = this_thread_id();
  int i;
  pthread_mutex_lock(&g_reg_mu);
  for (i = 0; i < g_num_bindings; i++) {
    if (g_bindings[i].ctx_id == ctx_id && g_bindings[i].thread_id == tid) {
      break;
    }
  }
  if (ex == NULL) {
    if (i < g_num_bindings) unbind_at_locked(i);
  } else if (i < g_num_bindings) {
    g_bindings[i].ex = ex;
  } else {
    if (g_num_bindings == g_cap_bindings) {
      int cap = g_cap_bindings == 0 ? 8 : g_cap_bindings * 2;
      binding* p =
          (binding*)tfe_realloc(g_bindings, sizeof(binding) * (size_t)cap);
      if (p == NULL) {
        pthread_mutex_unlock(&g_reg_mu);
        return 0;
      }
      g_bindings = p;
      g_cap_bindings = cap;
    }
    g_bindings[g_num_bindings].ctx_id = ctx_id;
    g_bindings[g_num_bindings].thread_id = tid;
    g_bindings[g_num_bindings].ex = ex;
    g_num_bindings++;
  }
  bump_epoch_locked();
  if (g_num_bindings == 0) {
    tfe_free(g_bindings);
    g_bindings = NULL;
    g_cap_bindings = 0;
  }
  pthread_mutex_unlock(&g_reg_mu);
  return 1;
}

/* Drops every binding to ex (an executor going away). */
static void unbind_executor(TFE_Executor* ex) {
  int i;
  pthread_mutex_lock(&g_reg_mu);
  for (i = 0; i < g_num_bindings;) {
    if (g_bindings[i].ex == ex) {
      unbind_at_locked(i);
    } else {
      i++;
    }
  }
  bump_epoch_locked();
  if (g_num_bindings == 0) {
    tfe_free(g_bindings);
    g_bindings = NULL;
    g_cap_bindings = 0;
  }
  pthread_mutex_unlock(&g_reg_mu);
}

/* The executor the calling thread uses in ctx (never NULL). */
static TFE_Executor* thread_executor(TFE_Context* ctx) {
  uint64_t epoch, tid;
  TFE_Executor* ex = NULL;
  int i;
  if (!atomic_load_explicit(&g_any_bindings, memory_order_acquire)) {
    return &ctx->default_executor;
  }
  epoch = atomic_load_explicit(&g_epoch, memory_order_acquire);
  if (t_cache.ctx_id == ctx->id && t_cache.epoch == epoch) {
    return t_cache.ex != NULL ? t_cache.ex : &ctx->default_executor;
  }
  tid = this_thread_id();
  pthread_mutex_lock(&g_reg_mu);
  epoch = atomic_load_explicit(&g_epoch, memory_order_relaxed);
  for (i = 0; i < g_num_bindings; i++) {
    if (g_bindings[i].ctx_id == ctx->id && g_bindings[i].thread_id == tid) {
      ex = g_bindings[i].ex;
      break;
    }
  }
  pthread_mutex_unlock(&g_reg_mu);
  t_cache.ctx_id = ctx->id;
  t_cache.epoch = epoch;
  t_cache.ex = ex;
  return ex != NULL ? ex : &ctx->default_executor;
}

TFE_Executor* tfe_executor_for_enqueue(TFE_Context* ctx) {
  TFE_Executor* ex;
  if (t_on_worker) return NULL;
  ex = thread_executor(ctx);
  return ex->is_async ? ex : NULL;
}

void tfe_executor_ctx_release(TFE_Context* ctx) {
  tfe_exec_core* c;
  int i, changed = 0;
  pthread_mutex_lock(&g_reg_mu);
  for (i = 0; i < g_num_bindings;) {
    if (g_bindings[i].ctx_id == ctx->id ||
        g_bindings[i].ex == &ctx->default_executor) {
      unbind_at_locked(i);
      changed = 1;
    } else {
      i++;
    }
  }
  if (changed) {
    bump_epoch_locked();
    if (g_num_bindings == 0) {
      tfe_free(g_bindings);
      g_bindings = NULL;
      g_cap_bindings = 0;
    }
  }
  pthread_mutex_unlock(&g_reg_mu);
  c = atomic_exchange(&ctx->default_executor.core, NULL);
  if (c != NULL) core_shutdown(c);
}

/* ------------------------------------------------------------------------
 * The API. */

TFE_Executor* TFE_NewExecutor(bool is_async, bool enable_streaming_enqueue,
                              int in_flight_nodes_limit) {
  TFE_Executor* ex = (TFE_Executor*)tfe_calloc(1, sizeof(*ex));
  if (ex == NULL) return NULL;
  ex->is_async = is_async;
  ex->streaming_enqueue = enable_streaming_enqueue;
  ex->in_flight_nodes_limit = in_flight_nodes_limit > 0
                                  ? in_flight_nodes_limit
                                  : TFE_EXECUTOR_DEFAULT_IN_FLIGHT_LIMIT;
  ex->error_code = TF_OK;
  atomic_init(&ex->core, NULL);
  atomic_init(&ex->id, atomic_fetch_add(&g_next_executor_id, 1));
  if (is_async && core_of(ex, 1) == NULL) {
    tfe_free(ex);
    return NULL;
  }
  return ex;
}

/* The executor a wrapper stands for. */
static TFE_Executor* real(TFE_Executor* ex) {
  return ex->target != NULL ? ex->target : ex;
}

void TFE_DeleteExecutor(TFE_Executor* executor) {
  tfe_exec_core* c;
  if (executor == NULL) return;
  if (executor->target != NULL) { /* a wrapper owns nothing */
    tfe_free(executor);
    return;
  }
  c = atomic_exchange(&executor->core, NULL);
  if (c != NULL) {
    /* Like TF: pending ops finish first (their errors are dropped here;
     * their output handles carry them). */
    TF_Status s = {TF_OK, NULL, NULL};
    core_wait(c, &s);
    TF_SetStatus(&s, TF_OK, "");
  }
  unbind_executor(executor);
  if (c != NULL) core_shutdown(c);
  tfe_free(executor);
}

bool TFE_ExecutorIsAsync(TFE_Executor* executor) {
  if (executor == NULL) return false;
  return real(executor)->is_async != 0;
}

void TFE_ExecutorWaitForAllPendingNodes(TFE_Executor* executor,
                                        TF_Status* status) {
  tfe_exec_core* c;
  if (executor == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ExecutorWaitForAllPendingNodes: executor is NULL");
    return;
  }
  c = core_of(real(executor), 0);
  if (c == NULL) {
    tfe_status_ok(status); /* synchronous, or nothing was ever queued */
    return;
  }
  core_wait(c, status);
}

void TFE_ExecutorClearError(TFE_Executor* executor) {
  tfe_exec_core* c;
  if (executor == NULL) return;
  c = core_of(real(executor), 0);
  if (c != NULL) core_clear_error(c);
}

void TFE_ContextSetExecutorForThread(TFE_Context* ctx,
                                     TFE_Executor* executor) {
  TFE_Executor* ex;
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) return;
  ex = executor == NULL ? NULL : real(executor);
  if (ex == &ctx->default_executor) ex = NULL;
  if (!bind(ctx->id, ex)) {
    TF_Log(TF_ERROR,
           "TFE_ContextSetExecutorForThread: out of memory; the thread keeps "
           "its previous executor");
  }
}

TFE_Executor* TFE_ContextGetExecutorForThread(TFE_Context* ctx) {
  TFE_Executor* w;
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) return NULL;
  w = (TFE_Executor*)tfe_calloc(1, sizeof(*w));
  if (w == NULL) return NULL;
  atomic_init(&w->core, NULL);
  atomic_init(&w->id, 0);
  w->target = thread_executor(ctx);
  return w;
}

void TFE_ContextAsyncWait(TFE_Context* ctx, TF_Status* status) {
  tfe_exec_core* inline_cores[16];
  tfe_exec_core** cores = inline_cores;
  int n = 0, cap = 16, i;
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ContextAsyncWait: context is NULL or not live");
    return;
  }
  /* The default executor and every executor a thread uses in ctx, each
   * with a core reference so none goes away while we wait. */
  pthread_mutex_lock(&g_reg_mu);
  for (i = -1; i < g_num_bindings; i++) {
    TFE_Executor* ex;
    tfe_exec_core* c;
    int j;
    if (i < 0) {
      ex = &ctx->default_executor;
    } else if (g_bindings[i].ctx_id == ctx->id) {
      ex = g_bindings[i].ex;
    } else {
      continue;
    }
    c = atomic_load_explicit(&ex->core, memory_order_acquire);
    if (c == NULL) continue;
    for (j = 0; j < n && cores[j] != c; j++) {
    }
    if (j < n) continue;
    if (n == cap) {
      tfe_exec_core** p = (tfe_exec_core**)tfe_malloc(
          sizeof(*p) * (size_t)cap * 2);
      if (p == NULL) break; /* wait for those we have */
      memcpy(p, cores, sizeof(*p) * (size_t)n);
      if (cores != inline_cores) tfe_free(cores);
      cores = p;
      cap *= 2;
    }
    core_ref(c);
    cores[n++] = c;
  }
  pthread_mutex_unlock(&g_reg_mu);

  /* Like TF: the first error is returned and every executor's error is
   * cleared, so the context accepts ops again. */
  tfe_status_ok(status);
  for (i = 0; i < n; i++) {
    TF_Status s = {TF_OK, NULL, NULL};
    core_wait(cores[i], &s);
    if (s.code != TF_OK && TFE_OK(status)) tfe_status_copy(status, &s);
    TF_SetStatus(&s, TF_OK, "");
    core_clear_error(cores[i]);
    core_unref(cores[i]);
  }
  if (cores != inline_cores) tfe_free(cores);
}

/* ------------------------------------------------------------------------
 * Statistics (include/tfe/executor.h). */

void TFE_ExecutorGetStats(TFE_Executor* executor, TFE_ExecutorStats* stats,
                          TF_Status* status) {
  TFE_Executor* ex;
  tfe_exec_core* c;
  if (executor == NULL || stats == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ExecutorGetStats: %s is NULL",
                    executor == NULL ? "executor" : "stats");
    return;
  }
  ex = real(executor);
  memset(stats, 0, sizeof(*stats));
  stats->is_async = ex->is_async != 0;
  if (ex->is_async) {
    stats->in_flight_limit = ex->in_flight_nodes_limit > 0
                                 ? ex->in_flight_nodes_limit
                                 : TFE_EXECUTOR_DEFAULT_IN_FLIGHT_LIMIT;
  }
  c = core_of(ex, 0);
  if (c != NULL) {
    pthread_mutex_lock(&c->mu);
    stats->nodes_enqueued = c->enqueued;
    stats->nodes_finished = c->finished;
    stats->blocked_enqueues = c->blocked;
    stats->in_flight = c->in_flight;
    stats->in_flight_high_water = c->high_water;
    stats->in_flight_limit = c->limit;
    pthread_mutex_unlock(&c->mu);
  }
  tfe_status_ok(status);
}

void TFE_ExecutorResetStats(TFE_Executor* executor) {
  tfe_exec_core* c;
  if (executor == NULL) return;
  c = core_of(real(executor), 0);
  if (c == NULL) return;
  pthread_mutex_lock(&c->mu);
  c->enqueued = 0;
  c->finished = 0;
  c->blocked = 0;
  c->high_water = c->in_flight;
  pthread_mutex_unlock(&c->mu);
}
