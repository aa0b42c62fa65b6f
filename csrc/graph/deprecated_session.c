/* The deprecated session API (TF_NewDeprecatedSession, TF_ExtendGraph,
 * TF_Run, TF_PRunSetup, TF_PRun, TF_Reset): a session over a graph of its
 * own that grows by importing GraphDefs, addressed by tensor names
 * ("node:index", or "node" for output 0). Runs go through the same plans
 * as TF_SessionRun. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/eager_internal.h"
#include "graph/session_internal.h"
#include "graph/session_priv.h"
#include "kernels/resource.h"

struct TF_DeprecatedSession {
  TF_Session* session;
  TF_Graph* graph; /* owned */
};

/* Live sessions (for TF_Reset). */
static pthread_mutex_t g_live_mu = PTHREAD_MUTEX_INITIALIZER;
typedef struct live_sess {
  struct live_sess* next;
  TF_DeprecatedSession* s;
} live_sess;
static live_sess* g_live;

TF_DeprecatedSession* TF_NewDeprecatedSession(const TF_SessionOptions* opts,
                                              TF_Status* status) {
  TF_DeprecatedSession* d;
  live_sess* l;
  d = (TF_DeprecatedSession*)tfe_calloc(1, sizeof(*d));
  l = (live_sess*)tfe_calloc(1, sizeof(*l));
  if (d == NULL || l == NULL) goto nomem;
  d->graph = TF_NewGraph();
  if (d->graph == NULL) goto nomem;
  d->session = tfe_session_new(d->graph, opts, status);
  if (d->session == NULL) {
    TF_DeleteGraph(d->graph);
    tfe_free(d);
    tfe_free(l);
    return NULL;
  }
  l->s = d;
  pthread_mutex_lock(&g_live_mu);
  l->next = g_live;
  g_live = l;
  pthread_mutex_unlock(&g_live_mu);
  tfe_status_ok(status);
  return d;
nomem:
  if (d != NULL && d->graph != NULL) TF_DeleteGraph(d->graph);
  tfe_free(d);
  tfe_free(l);
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "TF_NewDeprecatedSession: out of memory");
  return NULL;
}

static int check(const TF_DeprecatedSession* d, const char* fn,
                 TF_Status* status) {
  if (d == NULL || d->session == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s: session is NULL", fn);
    return 0;
  }
  return tfe_session_check(d->session, fn, status);
}

void TF_CloseDeprecatedSession(TF_DeprecatedSession* session,
                               TF_Status* status) {
  if (!check(session, "TF_CloseDeprecatedSession", status)) return;
  TF_CloseSession(session->session, status);
}

void TF_DeleteDeprecatedSession(TF_DeprecatedSession* session,
                                TF_Status* status) {
  live_sess** pp;
  if (session == NULL) {
    tfe_status_ok(status);
    return;
  }
  if (!check(session, "TF_DeleteDeprecatedSession", status)) return;
  pthread_mutex_lock(&g_live_mu);
  for (pp = &g_live; *pp != NULL; pp = &(*pp)->next) {
    if ((*pp)->s == session) {
      live_sess* l = *pp;
      *pp = l->next;
      tfe_free(l);
      break;
    }
  }
  pthread_mutex_unlock(&g_live_mu);
  tfe_session_free(session->session);
  TF_DeleteGraph(session->graph);
  tfe_free(session);
  tfe_status_ok(status);
}

void TF_Reset(const TF_SessionOptions* opt, const char** containers,
              int ncontainers, TF_Status* status) {
  live_sess* l;
  (void)containers;
  if (opt == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "TF_Reset: options is NULL");
    return;
  }
  if (ncontainers < 0 || (ncontainers > 0 && containers == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_Reset: containers must be an array of ncontainers "
                    "names");
    return;
  }
  if (opt->target != NULL && opt->target[0] != '\0' &&
      strcmp(opt->target, "local") != 0) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "No session factory registered for the given session "
                    "options: {target: \"%s\"} (tfe runs local sessions "
                    "only)",
                    opt->target);
    return;
  }
  /* Resources of the local deprecated sessions go. tfe keeps no per-
   * container index, so every container is cleared, whichever were
   * named. */
  pthread_mutex_lock(&g_live_mu);
  for (l = g_live; l != NULL; l = l->next) {
    tfe_resources_clear_context(l->s->session->ctx->id);
  }
  pthread_mutex_unlock(&g_live_mu);
  tfe_status_ok(status);
}

void TF_ExtendGraph(TF_DeprecatedSession* session, const void* proto,
                    size_t proto_len, TF_Status* status) {
  TF_Buffer* buf;
  TF_ImportGraphDefOptions* o;
  if (!check(session, "TF_ExtendGraph", status)) return;
  if (proto == NULL && proto_len > 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_ExtendGraph: proto is NULL but proto_len is %zu",
                    proto_len);
    return;
  }
  buf = TF_NewBufferFromString(proto != NULL ? proto : "", proto_len);
  o = TF_NewImportGraphDefOptions();
  if (buf == NULL || o == NULL) {
    TF_DeleteBuffer(buf);
    TF_DeleteImportGraphDefOptions(o);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_ExtendGraph: out of memory");
    return;
  }
  TF_GraphImportGraphDef(session->graph, buf, o, status);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteBuffer(buf);
}

/* "name:index" or "name" -> output of the session's graph. */
static int resolve_output(TF_Graph* g, const char* name, TF_Output* out,
                          TF_Status* status) {
  const char* colon;
  char* base;
  long idx = 0;
  size_t len;
  if (name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "tensor name is NULL");
    return 0;
  }
  colon = strrchr(name, ':');
  len = strlen(name);
  if (colon != NULL && colon[1] != '\0') {
    char* end;
    idx = strtol(colon + 1, &end, 10);
    if (*end != '\0' || idx < 0 || idx > 0x7fffffff) {
      colon = NULL;
      idx = 0;
    } else {
      len = (size_t)(colon - name);
    }
  }
  base = (char*)tfe_malloc(len + 1);
  if (base == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  memcpy(base, name, len);
  base[len] = '\0';
  pthread_mutex_lock(&g->mu);
  out->oper = tfe_graph_find(g, base);
  pthread_mutex_unlock(&g->mu);
  tfe_free(base);
  out->index = (int)idx;
  if (out->oper == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Tensor %s, specified in either feed_devices or "
                    "fetch_devices was not found in the Graph",
                    name);
    return 0;
  }
  return 1;
}

static int resolve_target(TF_Graph* g, const char* name, TF_Operation** op,
                          TF_Status* status) {
  if (name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "target name is NULL");
    return 0;
  }
  pthread_mutex_lock(&g->mu);
  *op = tfe_graph_find(g, name);
  pthread_mutex_unlock(&g->mu);
  if (*op == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Node '%s' is not in the graph", name);
    return 0;
  }
  return 1;
}

/* Resolves every name; arrays are allocated (caller frees). */
static int resolve_all(TF_Graph* g, const char** in_names, int nin,
                       const char** out_names, int nout,
                       const char** tg_names, int nt, TF_Output** in,
                       TF_Output** out, TF_Operation*** tg,
                       TF_Status* status) {
  int i;
  *in = (TF_Output*)tfe_calloc((size_t)nin + 1, sizeof(TF_Output));
  *out = (TF_Output*)tfe_calloc((size_t)nout + 1, sizeof(TF_Output));
  *tg = (TF_Operation**)tfe_calloc((size_t)nt + 1, sizeof(TF_Operation*));
  if (*in == NULL || *out == NULL || *tg == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  if ((nin > 0 && in_names == NULL) || (nout > 0 && out_names == NULL) ||
      (nt > 0 && tg_names == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "name arrays must match their lengths");
    return 0;
  }
  for (i = 0; i < nin; i++) {
    if (!resolve_output(g, in_names[i], &(*in)[i], status)) return 0;
  }
  for (i = 0; i < nout; i++) {
    if (!resolve_output(g, out_names[i], &(*out)[i], status)) return 0;
  }
  for (i = 0; i < nt; i++) {
    if (!resolve_target(g, tg_names[i], &(*tg)[i], status)) return 0;
  }
  return 1;
}

void TF_Run(TF_DeprecatedSession* session, const TF_Buffer* run_options,
            const char** input_names, TF_Tensor** inputs, int ninputs,
            const char** output_names, TF_Tensor** outputs, int noutputs,
            const char** target_oper_names, int ntargets,
            TF_Buffer* run_metadata, TF_Status* status) {
  TF_Output *in = NULL, *out = NULL;
  TF_Operation** tg = NULL;
  int i;
  if (outputs != NULL) {
    for (i = 0; i < noutputs; i++) outputs[i] = NULL;
  }
  if (!check(session, "TF_Run", status)) return;
  if (ninputs < 0 || noutputs < 0 || ntargets < 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "TF_Run: negative count");
    return;
  }
  if (resolve_all(session->graph, input_names, ninputs, output_names,
                  noutputs, target_oper_names, ntargets, &in, &out, &tg,
                  status)) {
    TF_SessionRun(session->session, run_options, in, inputs, ninputs, out,
                  outputs, noutputs, (const TF_Operation* const*)tg, ntargets,
                  run_metadata, status);
  }
  tfe_free(in);
  tfe_free(out);
  tfe_free(tg);
}

void TF_PRunSetup(TF_DeprecatedSession* session, const char** input_names,
                  int ninputs, const char** output_names, int noutputs,
                  const char** target_oper_names, int ntargets,
                  const char** handle, TF_Status* status) {
  TF_Output *in = NULL, *out = NULL;
  TF_Operation** tg = NULL;
  if (handle != NULL) *handle = NULL;
  if (!check(session, "TF_PRunSetup", status)) return;
  if (ninputs < 0 || noutputs < 0 || ntargets < 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_PRunSetup: negative count");
    return;
  }
  if (resolve_all(session->graph, input_names, ninputs, output_names,
                  noutputs, target_oper_names, ntargets, &in, &out, &tg,
                  status)) {
    TF_SessionPRunSetup(session->session, in, ninputs, out, noutputs,
                        (const TF_Operation* const*)tg, ntargets, handle,
                        status);
  }
  tfe_free(in);
  tfe_free(out);
  tfe_free(tg);
}

void TF_PRun(TF_DeprecatedSession* session, const char* handle,
             const char** input_names, TF_Tensor** inputs, int ninputs,
             const char** output_names, TF_Tensor** outputs, int noutputs,
             const char** target_oper_names, int ntargets, TF_Status* status) {
  TF_Output *in = NULL, *out = NULL;
  TF_Operation** tg = NULL;
  int i;
  if (outputs != NULL) {
    for (i = 0; i < noutputs; i++) outputs[i] = NULL;
  }
  if (!check(session, "TF_PRun", status)) return;
  if (ninputs < 0 || noutputs < 0 || ntargets < 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "TF_PRun: negative count");
    return;
  }
  if (resolve_all(session->graph, input_names, ninputs, output_names,
                  noutputs, target_oper_names, ntargets, &in, &out, &tg,
                  status)) {
    TF_SessionPRun(session->session, handle, in, inputs, ninputs, out,
                   outputs, noutputs, (const TF_Operation* const*)tg,
                   ntargets, status);
  }
  tfe_free(in);
  tfe_free(out);
  tfe_free(tg);
}

TF_DeviceList* TF_DeprecatedSessionListDevices(TF_DeprecatedSession* session,
                                               TF_Status* status) {
  if (!check(session, "TF_DeprecatedSessionListDevices", status)) return NULL;
  return TF_SessionListDevices(session->session, status);
}
