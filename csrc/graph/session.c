/* Sessions (TF_NewSession .. TF_DeleteSession, TF_SessionRun, partial
 * runs, device listing).
 *
 * A session holds its graph (tfe_graph_hold) and owns an eager context
 * made from the session options' ConfigProto: the session's devices,
 * kernel cache and resources (variables live per context, so per session)
 * are that context's. TF_SessionRun finds an execution plan (plan.h) in
 * the session's cache, keyed by feeds, fetches, targets and the graph's
 * generation (operations added after a run are seen by the next one), and
 * runs it. Closing cancels the session's cancellation manager: blocked
 * kernels wake up and every later run fails with CANCELLED. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "eager/eager_internal.h"
#include "graph/function_internal.h"
#include "graph/function_lib.h"
#include "graph/graph_internal.h"
#include "graph/plan.h"
#include "graph/session_internal.h"
#include "graph/session_priv.h"
#include "plugins/grappler_run.h"

#define TFE_SESSION_MAGIC 0x53455353u /* "SESS" */

/* ------------------------------------------------------------------------
 * The plan cache. */

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

static uint64_t key_hash(const TF_Output* in, int nin, const TF_Output* out,
                         int nout, const TF_Operation* const* tg, int nt,
                         uint64_t gen) {
  uint64_t h = mix(0x243F6A8885A308D3ull, gen);
  int i;
  h = mix(h, (uint64_t)nin * 1000003u + (uint64_t)nout * 1009u + (uint64_t)nt);
  for (i = 0; i < nin; i++) {
    h = mix(h, (uint64_t)(uintptr_t)in[i].oper ^ ((uint64_t)in[i].index << 48));
  }
  for (i = 0; i < nout; i++) {
    h = mix(h, (uint64_t)(uintptr_t)out[i].oper ^
                   ((uint64_t)out[i].index << 48));
  }
  for (i = 0; i < nt; i++) h = mix(h, (uint64_t)(uintptr_t)tg[i]);
  return h;
}

static int same_outputs(const TF_Output* a, const TF_Output* b, int n) {
  int i;
  for (i = 0; i < n; i++) {
    if (a[i].oper != b[i].oper || a[i].index != b[i].index) return 0;
  }
  return 1;
}

static int key_equal(const tfe_plan_entry* e, const TF_Output* in, int nin,
                     const TF_Output* out, int nout,
                     const TF_Operation* const* tg, int nt, uint64_t gen) {
  int i;
  if (e->gen != gen || e->nin != nin || e->nout != nout || e->nt != nt) {
    return 0;
  }
  if (!same_outputs(e->in, in, nin) || !same_outputs(e->out, out, nout)) {
    return 0;
  }
  for (i = 0; i < nt; i++) {
    if (e->tg[i] != tg[i]) return 0;
  }
  return 1;
}

static void entry_free(tfe_plan_entry* e) {
  if (e == NULL) return;
  tfe_plan_free(e->plan);
  if (e->optimized != NULL) TF_DeleteGraph(e->optimized);
  tfe_free(e->in);
  tfe_free(e->out);
  tfe_free(e->tg);
  tfe_free(e);
}

/* Drops cached plans of older graph generations that no run uses (under
 * s->mu). */
static void drop_stale(TF_Session* s, uint64_t gen) {
  tfe_plan_entry** pp = &s->plans;
  while (*pp != NULL) {
    tfe_plan_entry* e = *pp;
    if (e->gen != gen && atomic_load(&e->users) == 0) {
      *pp = e->next;
      if (s->last == e) s->last = NULL;
      entry_free(e);
      s->num_plans--;
      continue;
    }
    pp = &e->next;
  }
}

/* Function-call kernels find functions in the session context's library:
 * the graph's functions are added to it before a plan is built (the graph
 * may have gained functions since the last plan). */
static int share_functions(TF_Session* s, TF_Graph* g, TF_Status* status) {
  tfe_flib* lib;
  int ok = 1;
  pthread_mutex_lock(&g->mu);
  lib = g->flib;
  if (lib != NULL && tfe_flib_count(lib) > 0) {
    ok = tfe_flib_merge(tfe_ctx_flib(s->ctx), lib, status);
  }
  pthread_mutex_unlock(&g->mu);
  return ok;
}

/* Graph optimizer plugins (TP_Optimizer) see the session's graph before a
 * plan is built; the nodes named by feeds, fetches and targets are kept.
 * *opt is the optimized graph, or NULL when no optimizer applies. */
static int optimize(TF_Session* s, const TF_Output* in, int nin,
                    const TF_Output* out, int nout,
                    const TF_Operation* const* tg, int nt, TF_Graph** opt,
                    TF_Status* status) {
  const char** names;
  int i, n = nin + nout + nt, ok;
  *opt = NULL;
  names = (const char**)tfe_malloc(sizeof(char*) * (size_t)(n + 1));
  if (names == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory preparing a graph optimization");
    return 0;
  }
  for (i = 0; i < n; i++) {
    const TF_Operation* op = i < nin          ? in[i].oper
                             : i < nin + nout ? out[i - nin].oper
                                              : tg[i - nin - nout];
    names[i] = op != NULL ? op->name : "";
  }
  ok = tfe_grappler_optimize(s->graph, s->ctx, names, nin, names + nin,
                             nout + nt, opt, status);
  tfe_free(names);
  return ok;
}

/* The plan for the same feeds, fetches and targets, found by name in the
 * optimized graph. */
static tfe_plan* plan_on_optimized(TF_Session* s, TF_Graph* opt,
                                   const TF_Output* in, int nin,
                                   const TF_Output* out, int nout,
                                   const TF_Operation* const* tg, int nt,
                                   TF_Status* status) {
  TF_Output* in2 = (TF_Output*)tfe_calloc((size_t)nin + 1, sizeof(TF_Output));
  TF_Output* out2 =
      (TF_Output*)tfe_calloc((size_t)nout + 1, sizeof(TF_Output));
  TF_Operation** tg2 =
      (TF_Operation**)tfe_calloc((size_t)nt + 1, sizeof(TF_Operation*));
  tfe_plan* p = NULL;
  int i;
  if (in2 == NULL || out2 == NULL || tg2 == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory preparing a graph optimization");
    goto done;
  }
  pthread_mutex_lock(&opt->mu);
  for (i = 0; i < nin + nout + nt; i++) {
    const TF_Operation* op = i < nin          ? in[i].oper
                             : i < nin + nout ? out[i - nin].oper
                                              : tg[i - nin - nout];
    TF_Operation* o2 = op != NULL ? tfe_graph_find(opt, op->name) : NULL;
    if (o2 == NULL) {
      pthread_mutex_unlock(&opt->mu);
      tfe_status_setf(status, TF_INTERNAL,
                      "a graph optimizer plugin removed node '%s', which the "
                      "run feeds, fetches or targets",
                      op != NULL ? op->name : "(null)");
      goto done;
    }
    if (i < nin) {
      in2[i].oper = o2;
      in2[i].index = in[i].index;
    } else if (i < nin + nout) {
      out2[i - nin].oper = o2;
      out2[i - nin].index = out[i - nin].index;
    } else {
      tg2[i - nin - nout] = o2;
    }
  }
  pthread_mutex_unlock(&opt->mu);
  p = tfe_plan_new_shared(opt, s->ctx, s->node_states, in2, nin, out2, nout,
                          tg2, nt, status);
done:
  tfe_free(in2);
  tfe_free(out2);
  tfe_free(tg2);
  return p;
}

tfe_plan_entry* tfe_session_get_plan(TF_Session* s, const TF_Output* in,
                                     int nin, const TF_Output* out, int nout,
                                     const TF_Operation* const* tg, int nt,
                                     TF_Status* status) {
  uint64_t gen =
      atomic_load_explicit(&s->graph->generation, memory_order_acquire);
  uint64_t h;
  tfe_plan_entry* e;
  tfe_plan* p;
  if (s->frozen_gen_set) gen = s->frozen_gen;
  h = key_hash(in, nin, out, nout, tg, nt, gen);
  pthread_mutex_lock(&s->mu);
  e = s->last;
  if (e == NULL || e->hash != h ||
      !key_equal(e, in, nin, out, nout, tg, nt, gen)) {
    for (e = s->plans; e != NULL; e = e->next) {
      if (e->hash == h && key_equal(e, in, nin, out, nout, tg, nt, gen)) {
        break;
      }
    }
  }
  if (e != NULL) {
    atomic_fetch_add_explicit(&e->users, 1, memory_order_relaxed);
    s->last = e;
    pthread_mutex_unlock(&s->mu);
    return e;
  }
  pthread_mutex_unlock(&s->mu);

  if (!share_functions(s, s->graph, status)) return NULL;
  {
    TF_Graph* opt = NULL;
    if (!optimize(s, in, nin, out, nout, tg, nt, &opt, status)) return NULL;
    if (opt != NULL) {
      p = share_functions(s, opt, status)
              ? plan_on_optimized(s, opt, in, nin, out, nout, tg, nt, status)
              : NULL;
    } else {
      p = tfe_plan_new_shared(s->graph, s->ctx, s->node_states, in, nin, out,
                              nout, (TF_Operation* const*)tg, nt, status);
    }
    if (p == NULL) {
      if (opt != NULL) TF_DeleteGraph(opt);
      return NULL;
    }
    e = (tfe_plan_entry*)tfe_calloc(1, sizeof(*e));
    if (e == NULL) {
      if (opt != NULL) TF_DeleteGraph(opt);
      goto nomem;
    }
    e->optimized = opt;
  }
  e->plan = p;
  e->hash = h;
  e->gen = gen;
  e->nin = nin;
  e->nout = nout;
  e->nt = nt;
  e->in = (TF_Output*)tfe_malloc(sizeof(TF_Output) * (size_t)(nin + 1));
  e->out = (TF_Output*)tfe_malloc(sizeof(TF_Output) * (size_t)(nout + 1));
  e->tg = (const TF_Operation**)tfe_malloc(sizeof(TF_Operation*) *
                                           (size_t)(nt + 1));
  if (e->in == NULL || e->out == NULL || e->tg == NULL) {
    e->plan = NULL;
    entry_free(e);
    goto nomem;
  }
  if (nin > 0) memcpy(e->in, in, sizeof(TF_Output) * (size_t)nin);
  if (nout > 0) memcpy(e->out, out, sizeof(TF_Output) * (size_t)nout);
  if (nt > 0) memcpy((void*)e->tg, tg, sizeof(TF_Operation*) * (size_t)nt);
  atomic_init(&e->users, 1);
  pthread_mutex_lock(&s->mu);
  drop_stale(s, gen);
  e->next = s->plans;
  s->plans = e;
  s->num_plans++;
  s->last = e;
  pthread_mutex_unlock(&s->mu);
  return e;
nomem:
  tfe_plan_free(p);
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "out of memory caching an execution plan");
  return NULL;
}

void tfe_session_put_plan(TF_Session* s, tfe_plan_entry* e) {
  (void)s;
  atomic_fetch_sub_explicit(&e->users, 1, memory_order_release);
}

/* ------------------------------------------------------------------------
 * Creation and lifetime. */

/* The last value of varint field `want` of a message (0 when absent or
 * malformed). */
static int64_t pb_varint_field(const void* data, size_t len, int want) {
  tfe_pbr r;
  int field, wire;
  int64_t out = 0;
  r.p = (const uint8_t*)data;
  r.end = r.p + len;
  while (r.p < r.end) {
    if (!tfe_pbr_tag(&r, &field, &wire)) return 0;
    if (field == want && wire == 0) {
      uint64_t v;
      if (!tfe_pbr_varint(&r, &v)) return 0;
      out = (int64_t)v;
      continue;
    }
    if (!tfe_pbr_skip(&r, field, wire)) return 0;
  }
  return out;
}

/* ConfigProto fields the eager context reader does not look at:
 * log_device_placement (field 8). */
static int config_log_placement(const void* data, size_t len) {
  return pb_varint_field(data, len, 8) != 0;
}

TFE_Context* tfe_session_make_context(const TF_SessionOptions* opts,
                                      TF_Status* status) {
  TFE_ContextOptions* co;
  TFE_Context* ctx;
  if (opts != NULL && opts->target != NULL && opts->target[0] != '\0' &&
      strcmp(opts->target, "local") != 0) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "No session factory registered for the given session "
                    "options: {target: \"%s\"} (tfe runs local sessions "
                    "only)",
                    opts->target);
    return NULL;
  }
  co = TFE_NewContextOptions();
  if (co == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_NewSession: out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  if (opts != NULL && opts->config_len > 0) {
    TFE_ContextOptionsSetConfig(co, opts->config, opts->config_len, status);
    if (TF_GetCode(status) != TF_OK) {
      TFE_DeleteContextOptions(co);
      return NULL;
    }
  }
  ctx = TFE_NewContext(co, status);
  TFE_DeleteContextOptions(co);
  if (ctx == NULL) return NULL;
  if (opts != NULL && opts->config_len > 0 &&
      config_log_placement(opts->config, opts->config_len)) {
    atomic_store(&ctx->log_placement, 1);
  }
  return ctx;
}

TF_Session* tfe_session_new(TF_Graph* graph, const TF_SessionOptions* opts,
                            TF_Status* status) {
  TF_Session* s;
  TFE_Context* ctx = tfe_session_make_context(opts, status);
  if (ctx == NULL) return NULL;
  s = (TF_Session*)tfe_calloc(1, sizeof(*s));
  if (s == NULL) {
    TFE_DeleteContext(ctx);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_NewSession: out of memory");
    return NULL;
  }
  s->cancel = TFE_NewCancellationManager();
  s->node_states = tfe_node_states_new();
  if (s->cancel == NULL || s->node_states == NULL ||
      pthread_mutex_init(&s->mu, NULL) != 0) {
    TFE_DeleteCancellationManager(s->cancel);
    tfe_node_states_free(s->node_states);
    tfe_free(s);
    TFE_DeleteContext(ctx);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_NewSession: out of memory");
    return NULL;
  }
  s->magic = TFE_SESSION_MAGIC;
  s->ctx = ctx;
  if (opts != NULL && opts->config_len > 0) {
    /* operation_timeout_in_ms (field 11) */
    s->timeout_ms = pb_varint_field(opts->config, opts->config_len, 11);
  }
  s->graph = graph;
  tfe_graph_hold(graph);
  tfe_status_ok(status);
  return s;
}

TF_Session* TF_NewSession(TF_Graph* graph, const TF_SessionOptions* opts,
                          TF_Status* status) {
  if (graph == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_NewSession: graph is NULL");
    return NULL;
  }
  return tfe_session_new(graph, opts, status);
}

int tfe_session_check(const TF_Session* s, const char* fn, TF_Status* st) {
  if (s == NULL || s->magic != TFE_SESSION_MAGIC) {
    tfe_status_setf(st, TF_INVALID_ARGUMENT, "%s: %s", fn,
                    s == NULL ? "session is NULL" : "not a live session");
    return 0;
  }
  return 1;
}

void TF_CloseSession(TF_Session* session, TF_Status* status) {
  if (!tfe_session_check(session, "TF_CloseSession", status)) return;
  pthread_mutex_lock(&session->mu);
  session->closed = 1;
  pthread_mutex_unlock(&session->mu);
  /* Wakes kernels blocked in runs of this session (queues). */
  TFE_CancellationManagerStartCancel(session->cancel);
  tfe_status_ok(status);
}

void tfe_session_free(TF_Session* s) {
  tfe_plan_entry* e;
  tfe_prun* pr;
  if (!s->closed) {
    s->closed = 1;
    TFE_CancellationManagerStartCancel(s->cancel);
  }
  /* Partial runs first: they hold cached plans. */
  while ((pr = s->pruns) != NULL) {
    s->pruns = pr->next;
    tfe_prun_free(pr);
  }
  while ((e = s->plans) != NULL) {
    s->plans = e->next;
    entry_free(e);
  }
  TFE_DeleteCancellationManager(s->cancel);
  tfe_node_states_free(s->node_states); /* after the plans using it */
  TFE_DeleteContext(s->ctx);
  tfe_graph_release(s->graph);
  pthread_mutex_destroy(&s->mu);
  s->magic = 0;
  tfe_free(s);
}

void TF_DeleteSession(TF_Session* session, TF_Status* status) {
  if (session == NULL) {
    tfe_status_ok(status);
    return;
  }
  if (!tfe_session_check(session, "TF_DeleteSession", status)) return;
  tfe_session_free(session);
  tfe_status_ok(status);
}

/* ------------------------------------------------------------------------
 * Running. */

static void clear_tensors(TF_Tensor** values, int n) {
  int i;
  if (values == NULL) return;
  for (i = 0; i < n; i++) values[i] = NULL;
}

int tfe_session_check_run_options(const TF_Buffer* run_options,
                                  TF_Status* status) {
  if (run_options == NULL || run_options->length == 0) return 1;
  if (run_options->data == NULL ||
      !tfe_proto_wire_valid(run_options->data, run_options->length)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Unparseable RunOptions proto");
    return 0;
  }
  return 1;
}

/* Ops a session that stopped extending its graph (TF_ExtendSession) does
 * not know yet. */
static int check_known(const TF_Session* s, const TF_Output* in, int nin,
                       const TF_Output* out, int nout,
                       const TF_Operation* const* tg, int nt,
                       TF_Status* status) {
  int i;
  if (!s->frozen_gen_set) return 1;
  for (i = 0; i < nin + nout + nt; i++) {
    const TF_Operation* op = i < nin          ? in[i].oper
                             : i < nin + nout ? out[i - nin].oper
                                              : tg[i - nin - nout];
    if (op != NULL && op->id >= s->frozen_ops) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Operation %s was added after TF_ExtendSession and "
                      "is not in the session's graph",
                      op->name);
      return 0;
    }
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * Runs with a deadline (RunOptions.timeout_in_ms, or the session's
 * operation_timeout_in_ms): the run gets its own cancellation manager,
 * cancelled by a timer thread at the deadline or by the session's manager
 * when the session closes; a run the deadline cancelled fails with
 * DEADLINE_EXCEEDED. */

typedef struct timed_run {
  TFE_CancellationManager* cm;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;
  int fired;
  int64_t ms;
} timed_run;

static void* timer_main(void* arg) {
  timed_run* t = (timed_run*)arg;
  struct timespec dl;
  clock_gettime(CLOCK_REALTIME, &dl);
  dl.tv_sec += (time_t)(t->ms / 1000);
  dl.tv_nsec += (long)(t->ms % 1000) * 1000000L;
  if (dl.tv_nsec >= 1000000000L) {
    dl.tv_sec++;
    dl.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&t->mu);
  while (!t->done) {
    if (pthread_cond_timedwait(&t->cv, &t->mu, &dl) == ETIMEDOUT &&
        !t->done) {
      t->fired = 1;
      pthread_mutex_unlock(&t->mu);
      TFE_CancellationManagerStartCancel(t->cm);
      return NULL;
    }
  }
  pthread_mutex_unlock(&t->mu);
  return NULL;
}

static void forward_cancel(void* cm) {
  TFE_CancellationManagerStartCancel((TFE_CancellationManager*)cm);
}

static void run_with_deadline(TF_Session* session, tfe_plan* plan,
                              TF_Tensor* const* input_values,
                              TF_Tensor** output_values, int64_t ms,
                              TF_Status* status) {
  timed_run t;
  pthread_t th;
  TFE_CancellationToken token;
  TFE_CancelCallback cb;
  int started;
  memset(&t, 0, sizeof(t));
  t.ms = ms;
  t.cm = TFE_NewCancellationManager();
  if (t.cm == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_SessionRun: out of memory");
    return;
  }
  pthread_mutex_init(&t.mu, NULL);
  pthread_cond_init(&t.cv, NULL);
  cb.callback = forward_cancel;
  cb.context = t.cm;
  token = TFE_CancellationManagerGetToken(session->cancel);
  if (!TFE_CancellationManagerRegisterCallback(session->cancel, token, &cb,
                                               "session run deadline")) {
    tfe_status_setf(status, TF_CANCELLED, "Session has been closed.");
    goto out;
  }
  started = pthread_create(&th, NULL, timer_main, &t) == 0;
  if (!started) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_SessionRun: cannot start the deadline timer");
  } else {
    tfe_plan_run(plan, input_values, output_values, t.cm, status);
    pthread_mutex_lock(&t.mu);
    t.done = 1;
    pthread_cond_signal(&t.cv);
    pthread_mutex_unlock(&t.mu);
    pthread_join(th, NULL);
  }
  TFE_CancellationManagerDeregisterCallback(session->cancel, token);
  if (started && t.fired && TF_GetCode(status) == TF_CANCELLED &&
      !session->closed) {
    tfe_status_setf(status, TF_DEADLINE_EXCEEDED,
                    "Timed out waiting for notification (the run's deadline "
                    "of %lld ms passed)",
                    (long long)ms);
  }
out:
  pthread_cond_destroy(&t.cv);
  pthread_mutex_destroy(&t.mu);
  TFE_DeleteCancellationManager(t.cm);
}

void TF_SessionRun(TF_Session* session, const TF_Buffer* run_options,
                   const TF_Output* inputs, TF_Tensor* const* input_values,
                   int ninputs, const TF_Output* outputs,
                   TF_Tensor** output_values, int noutputs,
                   const TF_Operation* const* target_opers, int ntargets,
                   TF_Buffer* run_metadata, TF_Status* status) {
  tfe_plan_entry* e;
  (void)run_metadata; /* accepted; tfe collects no step statistics */
  if (noutputs > 0) clear_tensors(output_values, noutputs);
  if (!tfe_session_check(session, "TF_SessionRun", status)) return;
  if (ninputs < 0 || noutputs < 0 || ntargets < 0 ||
      (ninputs > 0 && (inputs == NULL || input_values == NULL)) ||
      (noutputs > 0 && (outputs == NULL || output_values == NULL)) ||
      (ntargets > 0 && target_opers == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SessionRun: inputs, outputs and targets must be "
                    "arrays of the given lengths");
    return;
  }
  if (!tfe_session_check_run_options(run_options, status)) return;
  if (session->closed) {
    tfe_status_setf(status, TF_CANCELLED, "Session has been closed.");
    return;
  }
  if (!check_known(session, inputs, ninputs, outputs, noutputs, target_opers,
                   ntargets, status)) {
    return;
  }
  e = tfe_session_get_plan(session, inputs, ninputs, outputs, noutputs,
                           target_opers, ntargets, status);
  if (e == NULL) return;
  {
    int64_t ms = session->timeout_ms;
    if (run_options != NULL && run_options->length > 0) {
      /* RunOptions.timeout_in_ms (field 2) */
      int64_t r = pb_varint_field(run_options->data, run_options->length, 2);
      if (r > 0) ms = r;
    }
    if (ms > 0) {
      run_with_deadline(session, e->plan, input_values, output_values, ms,
                        status);
    } else {
      tfe_plan_run(e->plan, input_values, output_values, session->cancel,
                   status);
    }
  }
  tfe_session_put_plan(session, e);
  if (TF_GetCode(status) == TF_CANCELLED && session->closed) {
    tfe_status_setf(status, TF_CANCELLED, "Session has been closed.");
  }
}

void TF_ExtendSession(TF_Session* session, TF_Status* status) {
  TF_Graph* g;
  if (!tfe_session_check(session, "TF_ExtendSession", status)) return;
  g = session->graph;
  pthread_mutex_lock(&g->mu);
  pthread_mutex_lock(&session->mu);
  session->frozen_ops = g->num_ops;
  session->frozen_gen = atomic_load(&g->generation);
  session->frozen_gen_set = 1;
  pthread_mutex_unlock(&session->mu);
  pthread_mutex_unlock(&g->mu);
  tfe_status_ok(status);
}

TF_DeviceList* TF_SessionListDevices(TF_Session* session, TF_Status* status) {
  if (!tfe_session_check(session, "TF_SessionListDevices", status)) {
    return NULL;
  }
  return TFE_ContextListDevices(session->ctx, status);
}
