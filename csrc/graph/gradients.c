/* Symbolic gradients of graphs: TF_AddGradients and
 * TF_AddGradientsWithPrefix.
 *
 * The gradient functions are the ones eager tapes use (the one registry of
 * csrc/eager/grad_registry.c), run on a tracing context that adds their
 * ops to the caller's graph under the prefix. The walk is TF's: the nodes
 * whose outputs need gradients are those a source x reaches forward along
 * data edges and that reach a target y; each waits until every consumer
 * on such a path has sent its gradient back (a count per node), then its
 * output gradients are summed (AddN), its gradient function runs, and the
 * results travel back along its input edges. A source the targets do not
 * depend on is TF's INVALID_ARGUMENT; an output nothing sends a gradient
 * to gets {NULL, -1} (TF's NoGradient). A node with a
 * TFE_CUSTOM_GRAD_FN_ATTR attr (tfe_py.custom_gradient traced into a graph)
 * has its own gradient, tfe_grad_custom_node (grad_func.c), instead of its
 * type's. A target other targets depend on gets the sum of its seed and
 * their gradients. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/grad_util.h"
#include "eager/tape.h"
#include "graph/function_lib.h"
#include "graph/graph_internal.h"

typedef struct glist {
  TF_Output* items;
  int n, cap;
} glist;

typedef struct node {
  TF_Operation* op;
  int reachable;     /* reaches a target */
  int has_backprop;  /* reached forward from a source */
  int pending;
  int is_output;
  glist* grads; /* one per output, when has_backprop */
  int ngrads;   /* entries of grads (a gradient function may give the
                   node more outputs later: grad_func.c) */
} node;

typedef struct walk {
  TF_Graph* g;
  TF_ExecutionContext* ec;
  node* nodes;
  int num_nodes;
  /* op address -> node index + 1 (open addressing) */
  TF_Operation** keys;
  int* vals;
  size_t cap;
  int* ready;
  int ready_head, ready_tail, ready_cap;
} walk;

static const TF_Output kNoGradient = {NULL, -1};

static size_t hash_ptr(const void* p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 31;
  x *= 0x9e3779b97f4a7c15ull;
  return (size_t)(x ^ (x >> 29));
}

static int index_of(const walk* w, const TF_Operation* op) {
  size_t i;
  for (i = hash_ptr(op) & (w->cap - 1); w->keys[i] != NULL; i = (i + 1) & (w->cap - 1)) {
    if (w->keys[i] == op) return w->vals[i] - 1;
  }
  return -1;
}

static int build_index(walk* w, TF_Status* s) {
  size_t pos = 0, i;
  TF_Operation* op;
  int n = 0;
  while ((op = TF_GraphNextOperation(w->g, &pos)) != NULL) n++;
  w->nodes = (node*)tfe_calloc((size_t)(n + 1), sizeof *w->nodes);
  for (w->cap = 16; w->cap < (size_t)n * 2 + 2; w->cap *= 2) {
  }
  w->keys = (TF_Operation**)tfe_calloc(w->cap, sizeof *w->keys);
  w->vals = (int*)tfe_calloc(w->cap, sizeof *w->vals);
  w->ready_cap = n + 1;
  w->ready = (int*)tfe_calloc((size_t)w->ready_cap * 4, sizeof *w->ready);
  w->ready_cap *= 4;
  if (w->nodes == NULL || w->keys == NULL || w->vals == NULL || w->ready == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
    return 0;
  }
  pos = 0;
  while ((op = TF_GraphNextOperation(w->g, &pos)) != NULL && w->num_nodes < n) {
    for (i = hash_ptr(op) & (w->cap - 1); w->keys[i] != NULL; i = (i + 1) & (w->cap - 1)) {
    }
    w->keys[i] = op;
    w->vals[i] = w->num_nodes + 1;
    w->nodes[w->num_nodes++].op = op;
  }
  return 1;
}

static void walk_free(walk* w) {
  int i, j;
  for (i = 0; i < w->num_nodes; i++) {
    node* n = &w->nodes[i];
    if (n->grads == NULL) continue;
    for (j = 0; j < n->ngrads; j++) tfe_free(n->grads[j].items);
    tfe_free(n->grads);
  }
  tfe_free(w->nodes);
  tfe_free(w->keys);
  tfe_free(w->vals);
  tfe_free(w->ready);
  TF_DeleteExecutionContext(w->ec);
}

static int push_ready(walk* w, int idx, TF_Status* s) {
  if (w->ready_tail == w->ready_cap) {
    int cap = w->ready_cap * 2;
    int* r = (int*)tfe_realloc(w->ready, (size_t)cap * sizeof *r);
    if (r == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
      return 0;
    }
    w->ready = r;
    w->ready_cap = cap;
  }
  w->ready[w->ready_tail++] = idx;
  return 1;
}

/* Sends gradient `grad` back to output `src`. */
static int backprop_edge(walk* w, TF_Output grad, TF_Output src, TF_Status* s) {
  int idx = index_of(w, src.oper);
  node* n;
  glist* l;
  if (idx < 0) {
    tfe_status_setf(s, TF_INTERNAL, "TF_AddGradients: an edge leads out of the graph");
    return 0;
  }
  n = &w->nodes[idx];
  if (!n->has_backprop || src.index >= n->ngrads) return 1;
  l = &n->grads[src.index];
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 4;
    TF_Output* items = (TF_Output*)tfe_realloc(l->items, (size_t)cap * sizeof *items);
    if (items == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
      return 0;
    }
    l->items = items;
    l->cap = cap;
  }
  l->items[l->n++] = grad;
  if (--n->pending == 0) return push_ready(w, idx, s);
  return 1;
}

/* A one-output node type(inputs) named under the prefix. */
static TF_Output add_node(walk* w, const char* type, const TF_Output* in, int n_in, int as_list,
                          TF_Status* s) {
  char name[512];
  TF_OperationDescription* d;
  TF_Operation* op;
  int i;
  tfe_unified_node_name(w->ec, type, name, sizeof name);
  d = TF_NewOperation(w->g, type, name);
  if (d == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
    return kNoGradient;
  }
  if (as_list) {
    TF_AddInputList(d, in, n_in);
  } else {
    for (i = 0; i < n_in; i++) TF_AddInput(d, in[i]);
  }
  op = TF_FinishOperation(d, s);
  if (op == NULL || TF_GetCode(s) != TF_OK) return kNoGradient;
  return (TF_Output){op, 0};
}

/* The sum of the gradients sent to output i of node n (NoGradient when
 * none came). */
static TF_Output sum_grads(walk* w, node* n, int i, TF_Status* s) {
  glist* l = &n->grads[i];
  TF_Output keep[64];
  TF_Output* k = keep;
  TF_Output r;
  int j, m = 0;
  if (l->n > 64) {
    k = (TF_Output*)tfe_calloc((size_t)l->n, sizeof *k);
    if (k == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
      return kNoGradient;
    }
  }
  for (j = 0; j < l->n; j++) {
    if (l->items[j].oper != NULL) k[m++] = l->items[j];
  }
  if (m == 0) {
    r = kNoGradient;
  } else if (m == 1) {
    r = k[0];
  } else {
    r = add_node(w, "AddN", k, m, 1, s);
  }
  if (k != keep) tfe_free(k);
  return r;
}

/* Runs the registered gradient of node n with output gradients dys. */
static int call_gradient(walk* w, node* n, TFE_GradientFunction fn, const TF_Output* dys,
                         TF_Status* s) {
  int ni = TF_OperationNumInputs(n->op), no = TF_OperationNumOutputs(n->op);
  int i, total = 2 * ni + 2 * no, ok = 0;
  TF_AbstractTensor** buf = (TF_AbstractTensor**)tfe_calloc((size_t)(total + 1), sizeof *buf);
  TFE_GradientContext gc;
  if (buf == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
    return 0;
  }
  gc.ec = w->ec;
  gc.op_type = n->op->op_type;
  gc.attrs = &n->op->attrs;
  gc.num_inputs = ni;
  gc.num_outputs = no;
  gc.inputs = buf;
  gc.in_grads = buf + ni;
  gc.outputs = buf + 2 * ni;
  gc.out_grads = buf + 2 * ni + no;
  for (i = 0; i < ni; i++) {
    TF_Output src = TF_OperationInput((TF_Input){n->op, i});
    if ((gc.inputs[i] = tfe_unified_wrap_output(w->ec, src)) == NULL) goto oom;
  }
  for (i = 0; i < no; i++) {
    if ((gc.outputs[i] = tfe_unified_wrap_output(w->ec, (TF_Output){n->op, i})) == NULL) {
      goto oom;
    }
    if (dys[i].oper != NULL &&
        (gc.out_grads[i] = tfe_unified_wrap_output(w->ec, dys[i])) == NULL) {
      goto oom;
    }
  }
  tfe_status_ok(s);
  fn(&gc, s);
  if (TF_GetCode(s) == TF_OK) {
    ok = 1;
    for (i = 0; i < ni && ok; i++) {
      TF_Output grad = kNoGradient;
      if (gc.in_grads[i] != NULL && !tfe_unified_output_of(gc.in_grads[i], &grad)) {
        grad = kNoGradient;
      }
      ok = backprop_edge(w, grad, TF_OperationInput((TF_Input){n->op, i}), s);
    }
  }
  goto done;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
done:
  for (i = 0; i < total; i++) TF_DeleteAbstractTensor(buf[i]);
  tfe_free(buf);
  return ok;
}

static int valid_output(TF_Output o) {
  return o.oper != NULL && o.index >= 0 && o.index < TF_OperationNumOutputs(o.oper);
}

/* Picks the prefix: the caller's (refused when a node already uses it), or
 * "gradients", "gradients_1", ... */
static int pick_prefix(TF_Graph* g, const char* prefix, char* out, size_t n, TF_Status* s) {
  int k = 0;
  for (;;) {
    size_t pos = 0, len;
    TF_Operation* op;
    const char* clash = NULL;
    if (prefix != NULL) {
      snprintf(out, n, "%s", prefix);
    } else if (k == 0) {
      snprintf(out, n, "gradients");
    } else {
      snprintf(out, n, "gradients_%d", k);
    }
    len = strlen(out);
    while ((op = TF_GraphNextOperation(g, &pos)) != NULL) {
      const char* name = TF_OperationName(op);
      if (strcmp(name, out) == 0 || (strncmp(name, out, len) == 0 && name[len] == '/')) {
        clash = name;
        break;
      }
    }
    if (clash == NULL) return 1;
    if (prefix != NULL) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "prefix [%s] conflicts with existing node in the graph named [%s]",
                      prefix, clash);
      return 0;
    }
    k++;
  }
}

static void add_gradients(TF_Graph* g, const char* prefix, TF_Output* y, int ny, TF_Output* x,
                          int nx, TF_Output* dx, int lenient, TF_Status* s, TF_Output* dy) {
  walk w;
  char pfx[256];
  int i, j, *queue = NULL, qh = 0, qt = 0;
  TF_Output* results = NULL;
  if (s == NULL) return;
  if (g == NULL || ny <= 0 || y == NULL || nx < 0 || (nx > 0 && (x == NULL || dy == NULL))) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_AddGradients: %s",
                    g == NULL ? "the graph is NULL"
                              : "y/ny, x/nx and dy must describe arrays (ny >= 1)");
    return;
  }
  for (i = 0; i < ny; i++) {
    if (!valid_output(y[i]) || (dx != NULL && !valid_output(dx[i]))) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "TF_AddGradients: %s %d is not a valid output",
                      valid_output(y[i]) ? "dx" : "y", i);
      return;
    }
  }
  for (i = 0; i < nx; i++) {
    if (!valid_output(x[i])) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "TF_AddGradients: x %d is not a valid output", i);
      return;
    }
    dy[i] = kNoGradient;
  }
  tfe_status_ok(s);
  if (!pick_prefix(g, prefix, pfx, sizeof pfx, s)) return;
  memset(&w, 0, sizeof w);
  w.g = g;
  w.ec = tfe_unified_borrow_graph(g, pfx);
  if (w.ec == NULL || !build_index(&w, s)) {
    if (w.ec == NULL) tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
    walk_free(&w);
    return;
  }
  queue = (int*)tfe_calloc((size_t)w.num_nodes + 1, sizeof *queue);
  results = (TF_Output*)tfe_calloc((size_t)nx + 1, sizeof *results);
  if (queue == NULL || results == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
    goto done;
  }
  for (i = 0; i < nx; i++) results[i] = kNoGradient;

  /* Nodes that reach a target, backwards along data edges. */
  for (i = 0; i < ny; i++) {
    int idx = index_of(&w, y[i].oper);
    if (!w.nodes[idx].reachable) {
      w.nodes[idx].reachable = 1;
      queue[qt++] = idx;
    }
    w.nodes[idx].is_output = 1;
  }
  while (qh < qt) {
    node* n = &w.nodes[queue[qh++]];
    for (j = 0; j < TF_OperationNumInputs(n->op); j++) {
      int src = index_of(&w, TF_OperationInput((TF_Input){n->op, j}).oper);
      if (src >= 0 && !w.nodes[src].reachable) {
        w.nodes[src].reachable = 1;
        queue[qt++] = src;
      }
    }
  }
  for (i = 0; i < nx && !lenient; i++) {
    if (!w.nodes[index_of(&w, x[i].oper)].reachable) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Cannot compute the partial derivative for node '%s' as it's "
                      "unreachable from the output node(s).",
                      TF_OperationName(x[i].oper));
      goto done;
    }
  }
  /* Nodes a source reaches forwards, with the number of gradients each
   * waits for. */
  qh = qt = 0;
  for (i = 0; i < nx; i++) {
    int idx = index_of(&w, x[i].oper);
    if (!w.nodes[idx].has_backprop) {
      w.nodes[idx].has_backprop = 1;
      queue[qt++] = idx;
    }
  }
  while (qh < qt) {
    node* n = &w.nodes[queue[qh++]];
    int no = TF_OperationNumOutputs(n->op);
    n->grads = (glist*)tfe_calloc((size_t)no + 1, sizeof *n->grads);
    n->ngrads = no;
    if (n->grads == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
      goto done;
    }
    if (n->is_output) {
      /* Its seeds; a target that other targets also depend on waits for
       * their gradients too (the sum, as tf.gradients). */
      for (i = 0; i < ny; i++) n->pending += y[i].oper == n->op;
    }
    for (i = 0; i < no; i++) {
      TF_Output out = {n->op, i};
      int nc = TF_OperationOutputNumConsumers(out), k;
      TF_Input* cons;
      if (nc <= 0) continue;
      cons = (TF_Input*)tfe_calloc((size_t)nc, sizeof *cons);
      if (cons == NULL) {
        tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
        goto done;
      }
      nc = TF_OperationOutputConsumers(out, cons, nc);
      for (k = 0; k < nc; k++) {
        int dst = index_of(&w, cons[k].oper);
        if (dst < 0 || !w.nodes[dst].reachable) continue;
        if (!w.nodes[dst].has_backprop) {
          w.nodes[dst].has_backprop = 1;
          queue[qt++] = dst;
        }
        n->pending++;
      }
      tfe_free(cons);
    }
  }
  /* The targets' starting gradients. */
  for (i = 0; i < ny; i++) {
    TF_Output seed = dx != NULL ? dx[i] : add_node(&w, "OnesLike", &y[i], 1, 0, s);
    if (TF_GetCode(s) != TF_OK || !backprop_edge(&w, seed, y[i], s)) goto done;
  }
  /* The backward pass. */
  while (w.ready_head < w.ready_tail) {
    node* n = &w.nodes[w.ready[w.ready_head++]];
    int no = TF_OperationNumOutputs(n->op), ni = TF_OperationNumInputs(n->op);
    int none = 0, feeds = 0;
    TF_Output small[16];
    TF_Output* dys = no <= 16 ? small : (TF_Output*)tfe_calloc((size_t)no, sizeof *dys);
    TFE_GradientFunction fn = NULL;
    int nd = 0, known, custom;
    if (dys == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddGradients: out of memory");
      goto done;
    }
    for (i = 0; i < no; i++) {
      dys[i] = sum_grads(&w, n, i, s);
      if (TF_GetCode(s) != TF_OK) break;
      if (dys[i].oper == NULL) none++;
      for (j = 0; j < nx; j++) {
        if (x[j].oper == n->op && x[j].index == i) results[j] = dys[i];
      }
    }
    for (i = 0; i < ni && TF_GetCode(s) == TF_OK; i++) {
      int src = index_of(&w, TF_OperationInput((TF_Input){n->op, i}).oper);
      if (src >= 0 && w.nodes[src].has_backprop) feeds = 1;
    }
    if (TF_GetCode(s) != TF_OK || !feeds) {
      if (dys != small) tfe_free(dys);
      if (TF_GetCode(s) != TF_OK) goto done;
      continue;
    }
    custom = tfe_attrs_find(&n->op->attrs, TFE_CUSTOM_GRAD_FN_ATTR) != NULL;
    known = tfe_grad_lookup(n->op->op_type, &fn, &nd);
    if (custom) {
      /* A per-node gradient override (tfe_py.custom_gradient in a graph):
       * a call of the traced grad_fn (grad_func.c). */
      known = 1;
      nd = 0;
      fn = tfe_grad_custom_node;
    } else if (!known && tfe_flib_find(tfe_graph_flib(w.g), n->op->op_type) != NULL) {
      /* A call of a function of the graph's library (grad_func.c). */
      known = 1;
      nd = 0;
      fn = tfe_grad_function_call;
    }
    if (strcmp(n->op->op_type, "Exit") == 0 || strcmp(n->op->op_type, "RefExit") == 0) {
      /* TF 2.21 builds a backprop loop for TF_NewWhile loops that fails
       * when run (its Merge mixes frames) or aborts; tfe builds none. */
      tfe_status_setf(s, TF_UNIMPLEMENTED,
                      "TF_AddGradients: gradients through a TF1 while loop (node '%s' "
                      "of type %s, as TF_NewWhile/TF_FinishWhile build them) are not "
                      "implemented; build the loop with the While op instead",
                      TF_OperationName(n->op), n->op->op_type);
    } else if (!known) {
      tfe_status_setf(s, TF_NOT_FOUND,
                      "No gradient defined for op: %s. tfe has no registered gradient for "
                      "it (TFE_RegisterGradient adds one)",
                      n->op->op_type);
    } else if (nd || none == no) {
      for (i = 0; i < ni && TF_GetCode(s) == TF_OK; i++) {
        backprop_edge(&w, kNoGradient, TF_OperationInput((TF_Input){n->op, i}), s);
      }
    } else {
      for (i = 0; i < no && TF_GetCode(s) == TF_OK && !custom; i++) {
        if (dys[i].oper == NULL) {
          TF_Output self = {n->op, i};
          dys[i] = add_node(&w, "ZerosLike", &self, 1, 0, s);
        }
      }
      if (TF_GetCode(s) == TF_OK) call_gradient(&w, n, fn, dys, s);
    }
    if (dys != small) tfe_free(dys);
    if (TF_GetCode(s) != TF_OK) goto done;
  }
  /* Sources whose node still waits (some of its outputs are not on a
   * path): their own sums. */
  for (i = 0; i < nx; i++) {
    node* n = &w.nodes[index_of(&w, x[i].oper)];
    if (n->pending > 0 && n->grads != NULL) {
      results[i] = sum_grads(&w, n, x[i].index, s);
      if (TF_GetCode(s) != TF_OK) goto done;
    }
  }
  for (i = 0; i < nx; i++) dy[i] = results[i];
  tfe_status_ok(s);
done:
  tfe_free(queue);
  tfe_free(results);
  walk_free(&w);
}

void TF_AddGradients(TF_Graph* g, TF_Output* y, int ny, TF_Output* x, int nx, TF_Output* dx,
                     TF_Status* status, TF_Output* dy) {
  add_gradients(g, NULL, y, ny, x, nx, dx, 0, status, dy);
}

void tfe_add_gradients_lenient(TF_Graph* g, const char* prefix, TF_Output* y, int ny,
                               TF_Output* x, int nx, TF_Output* dx, TF_Status* status,
                               TF_Output* dy) {
  add_gradients(g, prefix, y, ny, x, nx, dx, 1, status, dy);
}

void TF_AddGradientsWithPrefix(TF_Graph* g, const char* prefix, TF_Output* y, int ny,
                               TF_Output* x, int nx, TF_Output* dx, TF_Status* status,
                               TF_Output* dy) {
  if (status != NULL && prefix != NULL && prefix[0] == '\0') prefix = NULL;
  add_gradients(g, prefix, y, ny, x, nx, dx, 0, status, dy);
}
