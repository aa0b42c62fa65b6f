/* Graph optimizer plugins (TP_Optimizer) run on a session's graph before
 * it executes (grappler_run.h). The graph goes out as TF's serialized
 * GraphDef (TF_GraphToGraphDef) and the optimized GraphDef comes back
 * through GraphDef import into a new graph, which the session then plans
 * and runs instead of its own. */
#include "plugins/grappler_run.h"

#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "devices/pluggable_device.h"
#include "graph/graph_internal.h"

static atomic_llong g_runs;

long long tfe_grappler_run_count(void) { return atomic_load(&g_runs); }

/* ---- the item ---- */

static void item_free(TF_GrapplerItem* it) {
  int i;
  for (i = 0; i < it->num_fetch; i++) tfe_free(it->fetch[i]);
  for (i = 0; i < it->num_preserve; i++) tfe_free(it->preserve[i]);
  tfe_free(it->fetch);
  tfe_free(it->preserve);
  memset(it, 0, sizeof(*it));
}

/* Appends name to list (unless `unique` and already there). */
static int add_name(char*** list, int* n, const char* name, int unique) {
  char** grown;
  int i;
  if (unique) {
    for (i = 0; i < *n; i++) {
      if (strcmp((*list)[i], name) == 0) return 1;
    }
  }
  grown = (char**)tfe_realloc(*list, sizeof(char*) * (size_t)(*n + 1));
  if (grown == NULL) return 0;
  *list = grown;
  grown[*n] = tfe_strdup(name);
  if (grown[*n] == NULL) return 0;
  (*n)++;
  return 1;
}

static int item_init(TF_GrapplerItem* it, TF_Graph* g,
                     const char* const* feeds, int num_feeds,
                     const char* const* fetches, int num_fetches) {
  int i;
  memset(it, 0, sizeof(*it));
  it->graph = g;
  for (i = 0; i < num_fetches; i++) {
    const char* n = fetches[i] != NULL ? fetches[i] : "";
    if (!add_name(&it->fetch, &it->num_fetch, n, 0) ||
        !add_name(&it->preserve, &it->num_preserve, n, 1)) {
      return 0;
    }
  }
  for (i = 0; i < num_feeds; i++) {
    const char* n = feeds[i] != NULL ? feeds[i] : "";
    if (!add_name(&it->preserve, &it->num_preserve, n, 1)) return 0;
  }
  return 1;
}

/* ---- one optimizer ---- */

/* Runs p's optimizer on the GraphDef `in` (made from `cur`). Returns 1 with
 * *out a new graph, or NULL when the optimizer changed nothing; 0 with the
 * error in s. */
static int run_one(tfe_platform* p, TF_GrapplerItem* it, const TF_Buffer* in,
                   TF_Graph** out, TF_Status* s) {
  TF_Buffer* result = TF_NewBuffer();
  TF_Status* ps = TF_NewStatus();
  void* obj = NULL;
  TF_Graph* ng = NULL;
  int i, ok = 0;
  *out = NULL;
  if (result == NULL || ps == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory running the graph optimizer of '%s'",
                    p->path);
    goto done;
  }
  if (p->optimizer.create_func != NULL) obj = p->optimizer.create_func();
  atomic_fetch_add(&g_runs, 1);
  p->optimizer.optimize_func(obj, in, it, result, ps);
  if (p->optimizer.create_func != NULL && p->optimizer.destroy_func != NULL) {
    p->optimizer.destroy_func(obj);
  }
  if (TF_GetCode(ps) == TF_ABORTED) {
    /* TF's convention: the optimizer did nothing. */
    ok = 1;
    goto done;
  }
  if (TF_GetCode(ps) != TF_OK) {
    tfe_status_setf(s, TF_GetCode(ps),
                    "graph optimizer of plugin '%s' (device type %s) failed: "
                    "%s",
                    p->path, p->optimizer_device_type, TF_Message(ps));
    goto done;
  }
  if (result->length == 0) {
    ok = 1; /* nothing written: unchanged */
    goto done;
  }
  if (result->data == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "graph optimizer of plugin '%s' (device type %s) "
                    "returned a buffer of %zu bytes without data",
                    p->path, p->optimizer_device_type, result->length);
    goto done;
  }
  ng = TF_NewGraph();
  if (ng == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory importing the graph optimized by '%s'",
                    p->path);
    goto done;
  }
  {
    TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
    if (o == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "out of memory importing the graph optimized by '%s'",
                      p->path);
      goto done;
    }
    TF_GraphImportGraphDef(ng, result, o, ps);
    TF_DeleteImportGraphDefOptions(o);
  }
  if (TF_GetCode(ps) != TF_OK) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "graph optimizer of plugin '%s' (device type %s) "
                    "returned a graph tfe cannot import: %s",
                    p->path, p->optimizer_device_type, TF_Message(ps));
    goto done;
  }
  for (i = 0; i < it->num_preserve; i++) {
    if (TF_GraphOperationByName(ng, it->preserve[i]) == NULL) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "graph optimizer of plugin '%s' (device type %s) "
                      "returned a graph without node '%s', which must be "
                      "preserved (it is fed, fetched or a target)",
                      p->path, p->optimizer_device_type, it->preserve[i]);
      goto done;
    }
  }
  *out = ng;
  ng = NULL;
  ok = 1;
done:
  if (ng != NULL) TF_DeleteGraph(ng);
  TF_DeleteBuffer(result);
  TF_DeleteStatus(ps);
  return ok;
}

/* Runs the optimizers of plats[0..n) in turn. */
static int run_chain(tfe_platform* const* plats, int n, TF_Graph* g,
                     const char* const* feeds, int num_feeds,
                     const char* const* fetches, int num_fetches,
                     TF_Graph** optimized, TF_Status* s) {
  TF_GrapplerItem it;
  TF_Buffer* in = NULL;
  TF_Graph* cur = g; /* the graph `in` was made from */
  int i, ok = 0;
  *optimized = NULL;
  if (!item_init(&it, g, feeds, num_feeds, fetches, num_fetches)) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory preparing a graph optimization");
    item_free(&it);
    return 0;
  }
  for (i = 0; i < n; i++) {
    TF_Graph* next = NULL;
    if (in == NULL) {
      in = TF_NewBuffer();
      if (in == NULL) {
        tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                        "out of memory preparing a graph optimization");
        goto done;
      }
      TF_GraphToGraphDef(cur, in, s);
      if (TF_GetCode(s) != TF_OK) goto done;
    }
    it.graph = cur;
    if (!run_one(plats[i], &it, in, &next, s)) goto done;
    if (next != NULL) {
      if (cur != g) TF_DeleteGraph(cur);
      cur = next;
      TF_DeleteBuffer(in);
      in = NULL;
    }
  }
  ok = 1;
  tfe_status_ok(s);
done:
  TF_DeleteBuffer(in);
  item_free(&it);
  if (ok && cur != g) {
    *optimized = cur;
  } else if (cur != g) {
    TF_DeleteGraph(cur);
  }
  return ok;
}

int tfe_grappler_run_platform(struct tfe_platform* p, TF_Graph* g,
                              const char* const* feeds, int num_feeds,
                              const char* const* fetches, int num_fetches,
                              TF_Graph** optimized, TF_Status* s) {
  if (optimized == NULL) return 0;
  *optimized = NULL;
  if (p == NULL || g == NULL || !p->has_optimizer ||
      p->optimizer.optimize_func == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "tfe_grappler_run_platform: no graph optimizer");
    return 0;
  }
  return run_chain(&p, 1, g, feeds, num_feeds, fetches, num_fetches,
                   optimized, s);
}

/* 1 when the context has a device of type `type`. */
static int has_device_type(TF_DeviceList* devs, const char* type) {
  TF_Status* s = TF_NewStatus();
  int i, n = TF_DeviceListCount(devs), found = 0;
  if (s == NULL) return 0;
  for (i = 0; i < n && !found; i++) {
    const char* t = TF_DeviceListType(devs, i, s);
    if (TF_GetCode(s) == TF_OK && t != NULL && strcmp(t, type) == 0) {
      found = 1;
    }
  }
  TF_DeleteStatus(s);
  return found;
}

int tfe_grappler_optimize(TF_Graph* g, TFE_Context* ctx,
                          const char* const* feeds, int num_feeds,
                          const char* const* fetches, int num_fetches,
                          TF_Graph** optimized, TF_Status* s) {
  tfe_platform** plats = NULL;
  TF_DeviceList* devs = NULL;
  int i, n = 0, total, ok;
  if (optimized == NULL) return 0;
  *optimized = NULL;
  tfe_status_ok(s);
  total = tfe_platform_count();
  /* The common case: no plugin has an optimizer. */
  for (i = 0; i < total; i++) {
    tfe_platform* p = tfe_platform_at(i);
    if (p != NULL && !p->dead && p->has_optimizer) n++;
  }
  if (n == 0 || g == NULL || ctx == NULL) return 1;
  plats = (tfe_platform**)tfe_calloc((size_t)n, sizeof(*plats));
  if (plats == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory preparing a graph optimization");
    return 0;
  }
  devs = TFE_ContextListDevices(ctx, s);
  if (devs == NULL || TF_GetCode(s) != TF_OK) {
    tfe_free(plats);
    if (devs != NULL) TF_DeleteDeviceList(devs);
    return 0;
  }
  n = 0;
  for (i = 0; i < total; i++) {
    tfe_platform* p = tfe_platform_at(i);
    if (p != NULL && !p->dead && p->has_optimizer &&
        p->optimizer.optimize_func != NULL &&
        has_device_type(devs, p->optimizer_device_type)) {
      plats[n++] = p;
    }
  }
  TF_DeleteDeviceList(devs);
  ok = n == 0 ? 1
              : run_chain(plats, n, g, feeds, num_feeds, fetches, num_fetches,
                          optimized, s);
  tfe_free(plats);
  return ok;
}

int tfe_grappler_maybe_optimize(TF_Graph* g, TFE_Context* ctx,
                                const char* const* preserve,
                                int num_preserve, TF_Graph** optimized,
                                TF_Status* s) {
  return tfe_grappler_optimize(g, ctx, NULL, 0, preserve, num_preserve,
                               optimized, s);
}
