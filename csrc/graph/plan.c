/* Building execution plans (plan.h): pruning a graph to what the fetches
 * and targets need, placing every node with the eager runtime's rules,
 * resolving kernels through the context's kernel cache, and laying out
 * value slots (static plans) or frames (plans with v1 control flow).
 * Layout: plan_internal.h. Running: exec.c. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/checked.h"
#include "core/status_internal.h"
#include "graph/plan_internal.h"
#include "ops/proto_encode.h"
#include "tensorflow/c/logging.h"

/* ------------------------------------------------------------------------
 * Small helpers. */

static int is_op(const TF_Operation* op, const char* a, const char* b) {
  return strcmp(op->op_type, a) == 0 || (b != NULL && strcmp(op->op_type, b) == 0);
}

static int node_kind(const TF_Operation* op) {
  if (is_op(op, "Switch", "RefSwitch")) return PK_SWITCH;
  if (is_op(op, "Merge", "RefMerge")) return PK_MERGE;
  if (is_op(op, "Enter", "RefEnter")) return PK_ENTER;
  if (is_op(op, "Exit", "RefExit")) return PK_EXIT;
  if (is_op(op, "NextIteration", "RefNextIteration")) return PK_NEXT;
  if (is_op(op, "Placeholder", "PlaceholderV2")) return PK_PLACEHOLDER;
  return PK_NORMAL;
}

static int op_in_graph(TF_Graph* g, const TF_Operation* op) {
  return op != NULL && op->graph == g && op->id >= 0 && op->id < g->num_ops &&
         g->ops[op->id] == op;
}

static void oom(TF_Status* s) {
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "out of memory building an execution plan");
}

static void shape_text(const tfe_shape* sh, char* buf, size_t cap) {
  size_t pos;
  int i;
  if (sh == NULL || sh->num_dims < 0) {
    snprintf(buf, cap, "<unknown>");
    return;
  }
  pos = (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < sh->num_dims && pos + 24 < cap; i++) {
    if (sh->dims[i] < 0) {
      pos += (size_t)snprintf(buf + pos, cap - pos, "%s?", i ? "," : "");
    } else {
      pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? "," : "",
                              (long long)sh->dims[i]);
    }
  }
  snprintf(buf + pos, cap - pos, "]");
}

/* ------------------------------------------------------------------------
 * Placement. */

/* The device of ctx that TF's placer prefers for an op with attrs: among
 * device kinds with a kernel, highest kernel priority, then highest kind
 * priority, then smallest type name; the first device of that kind.
 * `skip` (may be NULL) is a kind known to have no kernel. NULL with the
 * host's NOT_FOUND when no kind has one. */
static const tfe_device* best_device(TFE_Context* ctx, const tfe_op_def* def,
                                     const tfe_attrs* attrs,
                                     const tfe_kernel_reg** reg,
                                     TF_Status* s) {
  const tfe_device* best = NULL;
  const tfe_kernel_reg* best_reg = NULL;
  int i, j, n = atomic_load(&ctx->num_devices);
  TF_Status* tmp = TF_NewStatus();
  if (tmp == NULL) {
    oom(s);
    return NULL;
  }
  for (i = 0; i < n; i++) {
    const tfe_device* d = ctx->devices[i];
    const tfe_kernel_reg* r;
    for (j = 0; j < i; j++) {
      if (ctx->devices[j]->factory == d->factory) break;
    }
    if (j < i) continue;
    r = tfe_kernel_find(def, d->type, attrs, tmp);
    if (r == NULL) continue;
    if (best == NULL || r->priority > best_reg->priority ||
        (r->priority == best_reg->priority &&
         (d->factory->priority > best->factory->priority ||
          (d->factory->priority == best->factory->priority &&
           strcmp(d->type, best->type) < 0)))) {
      best = d;
      best_reg = r;
    }
  }
  TF_DeleteStatus(tmp);
  if (best == NULL) {
    tfe_kernel_find(def, ctx->devices[0]->type, attrs, s);
    if (TF_GetCode(s) == TF_OK) {
      tfe_status_setf(s, TF_NOT_FOUND,
                      "Could not find device for node: {{node %s}}",
                      def->name);
    }
    return NULL;
  }
  *reg = best_reg;
  return best;
}

static void list_devices(TFE_Context* ctx, char* buf, size_t cap) {
  int i, n = atomic_load(&ctx->num_devices);
  size_t pos = 0;
  buf[0] = '\0';
  for (i = 0; i < n && pos + 4 < cap; i++) {
    int w = snprintf(buf + pos, cap - pos, "%s%s", i ? ", " : "",
                     ctx->devices[i]->name);
    if (w < 0) break;
    pos += (size_t)w;
  }
}

/* No device kind has a kernel for the node: TF's placer reports that as
 * INVALID_ARGUMENT naming the node and listing the registered kernels
 * (eager execution keeps the NOT_FOUND "Could not find device" form, as
 * TF's does). Other failures pass through. */
static void no_kernel(TFE_Context* ctx, const tfe_op_def* def, const TF_Operation* op,
                      const tfe_attrs* attrs, TF_Status* s) {
  char types[512];
  int i, j, n = atomic_load(&ctx->num_devices);
  size_t pos = 0;
  if (TF_GetCode(s) != TF_NOT_FOUND) return;
  types[0] = '\0';
  for (i = 0; i < n && pos + 4 < sizeof types; i++) {
    int w;
    for (j = 0; j < i; j++) {
      if (strcmp(ctx->devices[j]->type, ctx->devices[i]->type) == 0) break;
    }
    if (j < i) continue;
    w = snprintf(types + pos, sizeof types - pos, "%s%s", pos ? ", " : "",
                 ctx->devices[i]->type);
    if (w < 0) break;
    pos += (size_t)w;
  }
  tfe_kernel_set_no_kernel_for_node(def, op != NULL ? op->name : NULL, attrs, types, s);
}

/* The device an explicit request names: NULL with INVALID_ARGUMENT (TF's
 * placer message) when ctx has none and soft placement is off. */
static const tfe_device* requested_device(TFE_Context* ctx,
                                          const TF_Operation* op,
                                          const char* request,
                                          TF_Status* s) {
  tfe_device_spec spec;
  const tfe_device* d;
  char devs[1024];
  if (!tfe_device_spec_parse(request, &spec)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Malformed device specification '%s' in node {{node "
                    "%s}}",
                    request, op->name);
    return NULL;
  }
  d = tfe_ctx_find_device(ctx, &spec);
  if (d != NULL) return d;
  if (atomic_load(&ctx->soft_placement)) {
    if (spec.has_type) {
      tfe_device_spec kind;
      memset(&kind, 0, sizeof(kind));
      kind.has_type = 1;
      strcpy(kind.type, spec.type);
      d = tfe_ctx_find_device(ctx, &kind);
    }
    return d != NULL ? d : ctx->default_device;
  }
  list_devices(ctx, devs, sizeof(devs));
  tfe_status_setf(s, TF_INVALID_ARGUMENT,
                  "Cannot assign a device for operation %s: {{node %s}} was "
                  "explicitly assigned to %s but available devices are [ %s "
                  "]. Make sure the device specification refers to a valid "
                  "device.",
                  op->name, op->name, request, devs);
  return NULL;
}

/* The operation `op` is colocated with through its "_class" attr
 * ("loc:@name"), or NULL. */
static TF_Operation* colocated_with(TF_Graph* g, const TF_Operation* op) {
  const tfe_attr_value* v = tfe_attrs_find(&op->attrs, "_class");
  int i;
  if (v == NULL || v->type != TF_ATTR_STRING) return NULL;
  if (!v->is_list) {
    if (v->v.s.len > 5 && strncmp(v->v.s.data, "loc:@", 5) == 0) {
      return tfe_graph_find(g, v->v.s.data + 5);
    }
    return NULL;
  }
  for (i = 0; i < v->list_size; i++) {
    const char* str = v->list.s.data[i];
    if (v->list.s.len[i] > 5 && strncmp(str, "loc:@", 5) == 0) {
      TF_Operation* o = tfe_graph_find(g, str + 5);
      if (o != NULL && o != op) return o;
    }
  }
  return NULL;
}

/* The request that decides op's device: its own, else (transitively, a
 * few steps) that of the op it is colocated with. */
static const char* effective_request(TF_Graph* g, const TF_Operation* op) {
  int hops;
  for (hops = 0; hops < 8 && op != NULL; hops++) {
    TF_Operation* other;
    if (op->device != NULL && op->device[0] != '\0') return op->device;
    other = colocated_with(g, op);
    if (other == NULL || other == op) break;
    op = other;
  }
  return "";
}

/* TF places the whole graph when a session first runs it: a request no
 * device satisfies fails every run, whatever it fetches. */
static int check_requests(TF_Graph* g, TFE_Context* ctx, TF_Status* s) {
  int i;
  for (i = 0; i < g->num_ops; i++) {
    const TF_Operation* op = g->ops[i];
    if (op->device == NULL || op->device[0] == '\0') continue;
    if (requested_device(ctx, op, op->device, s) == NULL) return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * Kernels (through the context's kernel cache). */

static tfe_kcache_entry* resolve_kernel(TFE_Context* ctx, TF_Graph* g,
                                        plan_node* pn,
                                        const tfe_device* producer_dev,
                                        TF_Status* s) {
  const TF_Operation* op = pn->op;
  const tfe_op_def* def = op->def;
  const char* request = effective_request(g, op);
  const tfe_device* dev = NULL;
  const tfe_kernel_reg* reg = NULL;
  tfe_kcache_entry* e = NULL;
  tfe_attrs key;
  uint64_t ah = 0, hash;
  int i, n_in = 0, n_out = 0, k;

  tfe_attrs_init(&key);
  for (i = 0; i < def->num_attrs; i++) {
    const tfe_attr_value* v = tfe_attrs_find(&op->attrs, def->attrs[i].name);
    tfe_attr_value c;
    if (v == NULL) continue;
    if (!tfe_attr_value_copy(&c, v) ||
        !tfe_attrs_put(&key, def->attrs[i].name, &c)) {
      goto nomem;
    }
    ah += tfe_op_attr_entry_hash(i, v);
  }
  {
    const tfe_attr_value* label = tfe_attrs_find(&op->attrs, "_kernel");
    tfe_attr_value c;
    if (label != NULL) {
      if (!tfe_attr_value_copy(&c, label) ||
          !tfe_attrs_put(&key, "_kernel", &c)) {
        goto nomem;
      }
      ah += tfe_op_attr_entry_hash(def->num_attrs, label);
    }
  }

  if (request[0] != '\0') {
    dev = requested_device(ctx, op, request, s);
    if (dev == NULL) goto fail;
  } else if (producer_dev != NULL) {
    dev = producer_dev; /* resource/reference inputs decide */
  }

  if (dev != NULL) {
    hash = tfe_kcache_key_hash(def, dev, ah);
    e = tfe_kcache_find(&ctx->cache, def, dev, &key, hash);
    if (e != NULL) {
      tfe_attrs_destroy(&key);
      return e;
    }
  }

  e = (tfe_kcache_entry*)tfe_calloc(1, sizeof(*e));
  if (e == NULL) goto nomem;
  tfe_attrs_init(&e->key);
  tfe_attrs_init(&e->complete);
  if (!tfe_attrs_merge(&e->complete, &key)) goto nomem;
  if (!tfe_op_def_complete_attrs(def, &e->complete, s)) goto fail;

  if (dev == NULL) {
    dev = best_device(ctx, def, &e->complete, &reg, s);
    if (dev == NULL) {
      no_kernel(ctx, def, op, &e->complete, s);
      goto fail;
    }
    hash = tfe_kcache_key_hash(def, dev, ah);
    {
      tfe_kcache_entry* hit = tfe_kcache_find(&ctx->cache, def, dev, &key,
                                              hash);
      if (hit != NULL) {
        tfe_kcache_entry_free(e);
        tfe_attrs_destroy(&key);
        return hit;
      }
    }
  } else {
    hash = tfe_kcache_key_hash(def, dev, ah);
    reg = tfe_kernel_find(def, dev->type, &e->complete, s);
    if (reg == NULL && TF_GetCode(s) == TF_NOT_FOUND &&
        (request[0] == '\0' || atomic_load(&ctx->soft_placement))) {
      const tfe_device* d2;
      tfe_status_ok(s);
      d2 = best_device(ctx, def, &e->complete, &reg, s);
      if (d2 == NULL) {
        no_kernel(ctx, def, op, &e->complete, s);
        goto fail;
      }
      e->run_device = d2;
    }
    if (reg == NULL) {
      if (TF_GetCode(s) == TF_NOT_FOUND) {
        char devs[1024];
        list_devices(ctx, devs, sizeof(devs));
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "Cannot assign a device for operation %s: Could not "
                        "satisfy explicit device specification '%s' because "
                        "no supported kernel for %s devices is available. "
                        "All available devices [%s].",
                        op->name, request, dev->type, devs);
      }
      goto fail;
    }
  }
  if (e->run_device == NULL) e->run_device = dev;
  e->def = def;
  e->device = dev;
  e->hash = hash;
  e->reg = reg;
  for (i = 0; i < def->num_inputs; i++) {
    int len = 0;
    if (!tfe_op_def_arg_length(def, &def->inputs[i], &e->complete, &len, s)) {
      goto fail;
    }
    n_in += len;
  }
  if (!tfe_op_def_output_types(def, &e->complete, NULL, 0, &n_out, s)) {
    goto fail;
  }
  e->input_types =
      (TF_DataType*)tfe_malloc(sizeof(TF_DataType) * (size_t)(n_in + n_out + 1));
  if (e->input_types == NULL) goto nomem;
  e->output_types = e->input_types + n_in;
  e->num_inputs = n_in;
  e->num_outputs = n_out;
  e->has_ref = tfe_op_def_has_ref(def);
  k = 0;
  for (i = 0; i < def->num_inputs; i++) {
    int len = 0, j;
    tfe_op_def_arg_length(def, &def->inputs[i], &e->complete, &len, s);
    for (j = 0; j < len; j++) {
      if (!tfe_op_def_arg_dtype(def, &def->inputs[i], &e->complete, j,
                                &e->input_types[k++], s)) {
        goto fail;
      }
    }
  }
  if (!tfe_op_def_output_types(def, &e->complete, e->output_types, n_out,
                               &n_out, s)) {
    goto fail;
  }
  if (reg->create != NULL) {
    e->state = reg->create(def, &e->complete, reg->user_data, s);
    if (TF_GetCode(s) != TF_OK) {
      e->state = NULL;
      goto fail;
    }
  }
  e->key = key; /* moves */
  tfe_attrs_init(&key);
  e = tfe_kcache_insert(&ctx->cache, e);
  if (e == NULL) {
    oom(s);
    return NULL;
  }
  return e;

nomem:
  oom(s);
fail:
  if (TF_GetCode(s) == TF_OK) {
    tfe_status_setf(s, TF_INTERNAL, "preparing the kernel of %s failed",
                    op->name);
  }
  tfe_attrs_destroy(&key);
  tfe_kcache_entry_free(e);
  return NULL;
}

/* TF keeps the generator of a seeded stateful op (seed/seed2 attrs:
 * RandomUniform, Multinomial, the candidate samplers, ...) in the op's
 * kernel instance, one per node of each graph or function instantiation;
 * only eager ops with equal attrs share one (the context's kernel cache).
 * Ops that produce a resource or reference (RandomShuffleQueue) keep their
 * state elsewhere and are left alone. */
static int wants_node_state(const tfe_kcache_entry* e) {
  const tfe_op_def* d = e->def;
  int i, seed = 0, seed2 = 0;
  if (e->reg == NULL || e->reg->create == NULL || !d->is_stateful) return 0;
  for (i = 0; i < d->num_attrs; i++) {
    if (strcmp(d->attrs[i].name, "seed") == 0) seed = 1;
    if (strcmp(d->attrs[i].name, "seed2") == 0) seed2 = 1;
  }
  if (!seed || !seed2) return 0;
  for (i = 0; i < d->num_outputs; i++) {
    if (d->outputs[i].is_ref || d->outputs[i].type == TF_RESOURCE) return 0;
  }
  return 1;
}

/* A private copy of a cached entry with a fresh kernel state, owned by the
 * plan node (freed by tfe_plan_free), or NULL with s set. */
static tfe_kcache_entry* node_entry(const tfe_kcache_entry* e, TF_Status* s) {
  tfe_kcache_entry* c = (tfe_kcache_entry*)tfe_calloc(1, sizeof(*c));
  size_t nt = (size_t)(e->num_inputs + e->num_outputs + 1);
  if (c == NULL) goto nomem;
  *c = *e;
  c->next = NULL;
  c->state = NULL;
  tfe_attrs_init(&c->key);
  tfe_attrs_init(&c->complete);
  c->input_types = (TF_DataType*)tfe_malloc(sizeof(TF_DataType) * nt);
  if (c->input_types == NULL) goto nomem;
  memcpy(c->input_types, e->input_types, sizeof(TF_DataType) * nt);
  c->output_types = c->input_types + e->num_inputs;
  if (!tfe_attrs_merge(&c->key, &e->key) ||
      !tfe_attrs_merge(&c->complete, &e->complete)) {
    goto nomem;
  }
  c->state = e->reg->create(e->def, &c->complete, e->reg->user_data, s);
  if (TF_GetCode(s) != TF_OK) {
    c->state = NULL;
    tfe_kcache_entry_free(c);
    return NULL;
  }
  return c;
nomem:
  tfe_kcache_entry_free(c);
  oom(s);
  return NULL;
}

/* Node states kept across the plans of one session (TF's per-session
 * kernel segment): a list of named private entries. */
typedef struct node_state_item {
  struct node_state_item* next;
  char* name;
  tfe_kcache_entry* e;
} node_state_item;

struct tfe_node_states {
  pthread_mutex_t mu;
  node_state_item* head;
};

tfe_node_states* tfe_node_states_new(void) {
  tfe_node_states* st = (tfe_node_states*)tfe_calloc(1, sizeof(*st));
  if (st != NULL) pthread_mutex_init(&st->mu, NULL);
  return st;
}

void tfe_node_states_free(tfe_node_states* st) {
  node_state_item* it;
  if (st == NULL) return;
  while ((it = st->head) != NULL) {
    st->head = it->next;
    tfe_kcache_entry_free(it->e);
    tfe_free(it->name);
    tfe_free(it);
  }
  pthread_mutex_destroy(&st->mu);
  tfe_free(st);
}

/* The node's entry in the store (made from `e` on first use), or NULL
 * with s set. An entry is reused only for the same op definition, device
 * and attrs. */
static tfe_kcache_entry* stored_entry(tfe_node_states* st, const char* name,
                                      const tfe_kcache_entry* e,
                                      TF_Status* s) {
  node_state_item* it;
  tfe_kcache_entry* c;
  size_t len = strlen(name);
  pthread_mutex_lock(&st->mu);
  for (it = st->head; it != NULL; it = it->next) {
    if (strcmp(it->name, name) == 0 && it->e->def == e->def &&
        it->e->device == e->device && it->e->hash == e->hash) {
      pthread_mutex_unlock(&st->mu);
      return it->e;
    }
  }
  c = node_entry(e, s);
  it = c != NULL ? (node_state_item*)tfe_calloc(1, sizeof(*it)) : NULL;
  if (it != NULL) it->name = (char*)tfe_malloc(len + 1);
  if (c == NULL || it == NULL || it->name == NULL) {
    pthread_mutex_unlock(&st->mu);
    if (it != NULL) tfe_free(it->name);
    tfe_free(it);
    if (c != NULL) {
      tfe_kcache_entry_free(c);
      oom(s);
    }
    return NULL;
  }
  memcpy(it->name, name, len + 1);
  it->e = c;
  it->next = st->head;
  st->head = it;
  pthread_mutex_unlock(&st->mu);
  return c;
}

/* Where a node without a kernel of its own (control flow, unfed
 * Placeholder) sits: its request, else its first input's device, else the
 * host. */
static const tfe_device* place_plain(TFE_Context* ctx, TF_Graph* g,
                                     const plan_node* pn,
                                     const tfe_device* input_dev,
                                     TF_Status* s) {
  const char* request = effective_request(g, pn->op);
  if (request[0] != '\0') return requested_device(ctx, pn->op, request, s);
  return input_dev != NULL ? input_dev : ctx->devices[0];
}

/* ------------------------------------------------------------------------
 * Frames (plans with v1 control flow). */

static int frame_find_or_add(tfe_plan* p, const char* name, int parent,
                             TF_Status* s) {
  int i;
  for (i = 0; i < p->num_frames; i++) {
    if (strcmp(p->frames[i].name, name) == 0) return i;
  }
  {
    plan_frame* f = (plan_frame*)tfe_realloc(
        p->frames, sizeof(plan_frame) * (size_t)(p->num_frames + 1));
    if (f == NULL) {
      oom(s);
      return -1;
    }
    p->frames = f;
    memset(&f[p->num_frames], 0, sizeof(plan_frame));
    f[p->num_frames].name = tfe_strdup(name);
    f[p->num_frames].parent = parent;
    if (f[p->num_frames].name == NULL) {
      oom(s);
      return -1;
    }
    return p->num_frames++;
  }
}

static int build_frames(tfe_plan* p, TF_Status* s) {
  int n = p->num_nodes, i, head = 0, tail = 0;
  int* queue = (int*)tfe_malloc(sizeof(int) * (size_t)(n + 1));
  int* has_pred = (int*)tfe_calloc((size_t)n + 1, sizeof(int));
  int ok = 0;
  if (queue == NULL || has_pred == NULL) {
    oom(s);
    goto done;
  }
  if (frame_find_or_add(p, "", -1, s) != 0) goto done;
  for (i = 0; i < n; i++) p->nodes[i].frame = -1;
  for (i = 0; i < n; i++) {
    const plan_node* pn = &p->nodes[i];
    int j;
    for (j = 0; j < pn->num_edges; j++) {
      if (pn->edges[j].dst >= 0) has_pred[pn->edges[j].dst] = 1;
    }
    for (j = 0; j < pn->num_ctrl_out; j++) has_pred[pn->ctrl_out[j]] = 1;
  }
  /* Roots (no predecessor in the plan, or reading a feed) are in the root
   * frame. A node that reads feeds and also has predecessors takes the
   * root frame too: feeds live there. */
  for (i = 0; i < p->num_feeds; i++) {
    int j;
    for (j = 0; j < p->feeds[i].num_edges; j++) {
      int d = p->feeds[i].edges[j].dst;
      if (p->nodes[d].frame < 0) {
        p->nodes[d].frame = 0;
        queue[tail++] = d;
      }
    }
  }
  for (i = 0; i < n; i++) {
    if (!has_pred[i] && p->nodes[i].frame < 0) {
      p->nodes[i].frame = 0;
      queue[tail++] = i;
    }
  }
  while (head < tail) {
    plan_node* u = &p->nodes[queue[head++]];
    int out_frame = u->frame, j;
    if (u->kind == PK_ENTER) {
      const char* fname = "";
      size_t flen = 0;
      const tfe_attr_value* c = tfe_attrs_find(&u->op->attrs, "is_constant");
      if (!tfe_attrs_get_string(&u->op->attrs, "frame_name", &fname, &flen,
                                NULL)) {
        fname = "";
      }
      u->is_constant = c != NULL && c->type == TF_ATTR_BOOL && c->v.b;
      out_frame = frame_find_or_add(p, fname, u->frame, s);
      if (out_frame < 0) goto done;
      u->child_frame = out_frame;
    } else if (u->kind == PK_EXIT) {
      out_frame = p->frames[u->frame].parent;
      if (out_frame < 0) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "Exit node %s is not inside a while loop frame "
                        "(it has no Enter before it)",
                        u->name);
        goto done;
      }
    }
    for (j = 0; j < u->num_edges; j++) {
      int d = u->edges[j].dst;
      if (d >= 0 && p->nodes[d].frame < 0) {
        p->nodes[d].frame = out_frame;
        queue[tail++] = d;
      }
    }
    for (j = 0; j < u->num_ctrl_out; j++) {
      int d = u->ctrl_out[j];
      if (p->nodes[d].frame < 0) {
        p->nodes[d].frame = out_frame;
        queue[tail++] = d;
      }
    }
  }
  /* Every edge must stay in its frame (Enter and Exit edges change it by
   * one level), as TF's executor requires. */
  for (i = 0; i < n; i++) {
    const plan_node* u = &p->nodes[i];
    int out_frame = u->frame, j;
    if (u->frame < 0) continue;
    if (u->kind == PK_ENTER) out_frame = u->child_frame;
    if (u->kind == PK_EXIT) out_frame = p->frames[u->frame].parent;
    for (j = 0; j < u->num_edges + u->num_ctrl_out; j++) {
      int d = j < u->num_edges ? u->edges[j].dst : u->ctrl_out[j - u->num_edges];
      if (d < 0 || p->nodes[d].frame < 0 || p->nodes[d].frame == out_frame) {
        continue;
      }
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "%s has inputs from different frames. The input %s is "
                      "in frame '%s'. The input %s is in frame '%s'.",
                      p->nodes[d].name, u->name,
                      p->frames[out_frame].name[0] ? p->frames[out_frame].name
                                                   : "(root)",
                      p->nodes[d].name,
                      p->frames[p->nodes[d].frame].name[0]
                          ? p->frames[p->nodes[d].frame].name
                          : "(root)");
      goto done;
    }
  }
  /* Fetches come from the root frame. */
  for (i = 0; i < p->num_fetches; i++) {
    const plan_node* u = &p->nodes[p->fetch_node[i]];
    int out_frame = u->frame;
    if (u->kind == PK_ENTER) out_frame = u->child_frame;
    if (u->kind == PK_EXIT && u->frame >= 0) {
      out_frame = p->frames[u->frame].parent;
    }
    if (out_frame != 0) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "cannot fetch %s:%d: it is inside a while loop frame",
                      p->nodes[p->fetch_node[i]].name, p->fetch_out[i]);
      goto done;
    }
  }
  for (i = 0; i < n; i++) {
    plan_node* pn = &p->nodes[i];
    plan_frame* f;
    if (pn->frame < 0) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "node %s is only reachable through a cycle that does "
                      "not enter a while loop frame",
                      pn->name);
      goto done;
    }
    f = &p->frames[pn->frame];
    pn->local = f->num_nodes++;
    pn->in_off = f->num_in;
    f->num_in += pn->num_in;
    if (pn->kind == PK_ENTER) p->frames[pn->child_frame].num_enters++;
    if (pn->kind == PK_EXIT) pn->exit_idx = f->num_exits++;
  }
  for (i = 0; i < p->num_frames; i++) {
    plan_frame* f = &p->frames[i];
    f->nodes = (int*)tfe_malloc(sizeof(int) * (size_t)(f->num_nodes + 1));
    f->exits = (int*)tfe_malloc(sizeof(int) * (size_t)(f->num_exits + 1));
    if (f->nodes == NULL || f->exits == NULL) {
      oom(s);
      goto done;
    }
  }
  for (i = 0; i < n; i++) {
    plan_node* pn = &p->nodes[i];
    p->frames[pn->frame].nodes[pn->local] = i;
    if (pn->kind == PK_EXIT) p->frames[pn->frame].exits[pn->exit_idx] = i;
  }
  ok = 1;
done:
  tfe_free(queue);
  tfe_free(has_pred);
  return ok;
}

/* ------------------------------------------------------------------------
 * The plan. */

void tfe_plan_free(tfe_plan* p) {
  int i;
  if (p == NULL) return;
  for (i = 0; i < p->num_nodes; i++) {
    if (p->nodes[i].own_e) tfe_kcache_entry_free(p->nodes[i].e);
    tfe_free(p->nodes[i].in_slot);
    tfe_free(p->nodes[i].edges);
    tfe_free(p->nodes[i].ctrl_out);
  }
  tfe_free(p->nodes);
  for (i = 0; p->feeds != NULL && i < p->num_feeds; i++) {
    tfe_free(p->feeds[i].edges);
  }
  tfe_free(p->feeds);
  for (i = 0; i < p->num_frames; i++) {
    tfe_free(p->frames[i].name);
    tfe_free(p->frames[i].nodes);
    tfe_free(p->frames[i].exits);
  }
  tfe_free(p->frames);
  tfe_free(p->error_msg);
  tfe_free(p->init_uses);
  tfe_free(p->feed_slot);
  tfe_free(p->fetch_slot);
  tfe_free(p->fetch_node);
  tfe_free(p->fetch_out);
  tfe_free(p->pending0);
  tfe_free(p->order);
  tfe_free(p->steps);
  tfe_free(p->step_rel);
  tfe_free(p->fetch_take);
  tfe_free(p);
}

/* Feed index of output (op, index), or -1 (linear over the op's feeds). */
static int feed_of(const int* first_feed, const int* next_feed,
                   const TF_Output* feeds, const TF_Operation* op, int index) {
  int f;
  for (f = first_feed[op->id]; f >= 0; f = next_feed[f]) {
    if (feeds[f].index == index) return f;
  }
  return -1;
}

/* Arrays grow to the next power of two when full (n is a power of two
 * or 0), so a node with many consumers costs amortized O(1) per edge. */
static int full(int n) { return n == 0 || (n & (n - 1)) == 0; }

static int push_edge(plan_edge** arr, int* n, int dst, int dst_in,
                     int src_out) {
  plan_edge* a = *arr;
  if (full(*n)) {
    a = (plan_edge*)tfe_realloc(*arr, sizeof(plan_edge) *
                                          (size_t)(*n == 0 ? 1 : 2 * *n));
    if (a == NULL) return 0;
  }
  a[*n].dst = dst;
  a[*n].dst_in = dst_in;
  a[*n].src_out = src_out;
  *arr = a;
  (*n)++;
  return 1;
}

static int push_int(int** arr, int* n, int v) {
  int* a = *arr;
  if (full(*n)) {
    a = (int*)tfe_realloc(*arr, sizeof(int) * (size_t)(*n == 0 ? 1 : 2 * *n));
    if (a == NULL) return 0;
  }
  a[*n] = v;
  *arr = a;
  (*n)++;
  return 1;
}

/* Steps of sequential static runs (plan_internal.h): walks the order
 * once, counting down each slot's readers as a run would, so a run does
 * not count. Also which fetches hand their value over. */
static int build_steps(tfe_plan* p, TF_Status* s) {
  const int nn = p->num_nodes, first_feed = p->num_slots - p->num_feeds;
  int* rem = (int*)tfe_malloc(sizeof(int) * ((size_t)p->num_slots + 1));
  /* Per slot: dtype of a value known to be a plain host tensor, or -1. */
  int* known = (int*)tfe_malloc(sizeof(int) * ((size_t)p->num_slots + 1));
  size_t total_in = 0;
  int i, j, pos = 0;
  for (i = 0; i < nn; i++) total_in += (size_t)p->nodes[i].num_in;
  p->steps = (plan_step*)tfe_calloc((size_t)nn + 1, sizeof(plan_step));
  p->step_rel = (int*)tfe_malloc(sizeof(int) * (total_in + 1));
  p->fetch_take =
      (unsigned char*)tfe_calloc((size_t)p->num_fetches + 1, 1);
  if (rem == NULL || known == NULL || p->steps == NULL ||
      p->step_rel == NULL || p->fetch_take == NULL) {
    tfe_free(rem);
    tfe_free(known);
    oom(s);
    return 0;
  }
  memcpy(rem, p->init_uses, sizeof(int) * (size_t)p->num_slots);
  for (i = 0; i < p->num_slots; i++) known[i] = -1;
  for (i = 0; i < p->num_feeds; i++) {
    /* Runs check each fed tensor's dtype and treat it as host memory. */
    known[p->feed_slot[i]] = (int)p->feeds[i].dtype;
  }
  for (i = 0; i < nn; i++) {
    const plan_node* n = &p->nodes[p->order[i]];
    plan_step* st = &p->steps[i];
    int checked = n->host_fast;
    st->n = n;
    st->e = n->e;
    st->in_slot = n->in_slot;
    st->num_in = n->num_in;
    st->num_out = n->num_out;
    st->slot0 = n->slot0;
    st->rel = p->step_rel + pos;
    for (j = 0; j < n->num_in; j++) {
      int slot = n->in_slot[j];
      /* The only use left is this one: the node may reuse the value. */
      if (j < 64 && rem[slot] == 1 && slot < first_feed) {
        st->fwd |= (uint64_t)1 << j;
      }
      if (checked && (known[slot] < 0 ||
                      known[slot] != (int)n->e->input_types[j])) {
        checked = 0;
      }
    }
    for (j = 0; j < n->num_in; j++) {
      int slot = n->in_slot[j];
      if (--rem[slot] == 0 && slot < first_feed) {
        p->step_rel[pos++] = slot;
        st->num_rel++;
        if (j < 64) st->rel_in |= (uint64_t)1 << j;
      }
    }
    if (n->host_fast) st->flags |= STEP_FAST;
    if (checked) st->flags |= STEP_CHECKED;
    for (j = 0; j < n->num_out; j++) {
      /* A checked host_fast step never falls back to the general path, so
       * its outputs are plain host tensors of its kernel's output types. */
      if (checked) known[n->slot0 + j] = (int)n->e->output_types[j];
      if (p->init_uses[n->slot0 + j] == 0) st->flags |= STEP_DROP_OUT;
    }
  }
  /* After a complete run only the fetches still read a slot: the last
   * fetch of a slot that is not a feed takes the value itself. */
  for (i = 0; i < p->num_fetches; i++) {
    int slot = p->fetch_slot[i];
    if (--rem[slot] == 0 && slot < first_feed) p->fetch_take[i] = 1;
  }
  tfe_free(rem);
  tfe_free(known);
  return 1;
}

static void output_name(const TF_Output* o, char* buf, size_t cap) {
  snprintf(buf, cap, "%s:%d", o->oper != NULL ? o->oper->name : "(null)",
           o->index);
}

tfe_plan* tfe_plan_new(TF_Graph* g, TFE_Context* ctx, const TF_Output* feeds,
                       int num_feeds, const TF_Output* fetches,
                       int num_fetches, TF_Operation* const* targets,
                       int num_targets, TF_Status* s) {
  return tfe_plan_new_shared(g, ctx, NULL, feeds, num_feeds, fetches,
                             num_fetches, targets, num_targets, s);
}

tfe_plan* tfe_plan_new_shared(TF_Graph* g, TFE_Context* ctx,
                              tfe_node_states* states,
                              const TF_Output* feeds, int num_feeds,
                              const TF_Output* fetches, int num_fetches,
                              TF_Operation* const* targets, int num_targets,
                              TF_Status* s) {
  tfe_plan* p = NULL;
  int *first_feed = NULL, *next_feed = NULL, *pidx = NULL, *stack = NULL;
  unsigned char* in_plan = NULL;
  int n_ops, i, sp = 0, nn = 0;
  char nm[512];

  tfe_status_ok(s);
  if (g == NULL || ctx == NULL || num_feeds < 0 || num_fetches < 0 ||
      num_targets < 0 || (num_feeds > 0 && feeds == NULL) ||
      (num_fetches > 0 && fetches == NULL) ||
      (num_targets > 0 && targets == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "tfe_plan_new: invalid arguments");
    return NULL;
  }
  pthread_mutex_lock(&g->mu);
  n_ops = g->num_ops;
  p = (tfe_plan*)tfe_calloc(1, sizeof(*p));
  first_feed = (int*)tfe_malloc(sizeof(int) * (size_t)(n_ops + 1));
  next_feed = (int*)tfe_malloc(sizeof(int) * (size_t)(num_feeds + 1));
  pidx = (int*)tfe_malloc(sizeof(int) * (size_t)(n_ops + 1));
  stack = (int*)tfe_malloc(sizeof(int) * (size_t)(n_ops + 1));
  in_plan = (unsigned char*)tfe_calloc((size_t)n_ops + 1, 1);
  if (p == NULL || first_feed == NULL || next_feed == NULL || pidx == NULL ||
      stack == NULL || in_plan == NULL) {
    oom(s);
    goto fail;
  }
  p->ctx = ctx;
  p->num_feeds = num_feeds;
  p->num_fetches = num_fetches;
  p->inter_op = ctx->inter_op_threads;
  for (i = 0; i < n_ops; i++) first_feed[i] = -1;

  /* Feeds, fetches and targets must name outputs of this graph. */
  if (num_fetches == 0 && num_targets == 0) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Must specify at least one target to fetch or execute.");
    goto fail;
  }
  for (i = 0; i < num_feeds; i++) {
    const TF_Operation* op = feeds[i].oper;
    if (!op_in_graph(g, op)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "feed %d is not an operation of the session's graph",
                      i);
      goto fail;
    }
    if (feeds[i].index < 0 || feeds[i].index >= op->num_outputs) {
      tfe_status_setf(s, TF_OUT_OF_RANGE,
                      "Node '%s' (type: '%s', num of outputs: %d) does not "
                      "have output %d",
                      op->name, op->op_type, op->num_outputs, feeds[i].index);
      goto fail;
    }
    if (feed_of(first_feed, next_feed, feeds, op, feeds[i].index) >= 0) {
      output_name(&feeds[i], nm, sizeof(nm));
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s fed more than once.", nm);
      goto fail;
    }
    next_feed[i] = first_feed[op->id];
    first_feed[op->id] = i;
  }
  for (i = 0; i < num_fetches; i++) {
    const TF_Operation* op = fetches[i].oper;
    if (!op_in_graph(g, op)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "fetch %d is not an operation of the session's graph",
                      i);
      goto fail;
    }
    if (fetches[i].index < 0 || fetches[i].index >= op->num_outputs) {
      tfe_status_setf(s, TF_OUT_OF_RANGE,
                      "Node '%s' (type: '%s', num of outputs: %d) does not "
                      "have output %d",
                      op->name, op->op_type, op->num_outputs,
                      fetches[i].index);
      goto fail;
    }
    if (feed_of(first_feed, next_feed, feeds, op, fetches[i].index) >= 0) {
      output_name(&fetches[i], nm, sizeof(nm));
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "%s is both fed and fetched. A fed tensor cannot also "
                      "be fetched.",
                      nm);
      goto fail;
    }
    if (!in_plan[op->id]) {
      in_plan[op->id] = 1;
      stack[sp++] = op->id;
    }
  }
  for (i = 0; i < num_targets; i++) {
    const TF_Operation* op = targets[i];
    if (!op_in_graph(g, op)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "target %d is not an operation of the session's graph",
                      i);
      goto fail;
    }
    if (!in_plan[op->id]) {
      in_plan[op->id] = 1;
      stack[sp++] = op->id;
    }
  }
  if (!check_requests(g, ctx, s)) goto fail;

  /* Prune: everything the fetches and targets reach backwards, stopping
   * at fed outputs. */
  while (sp > 0) {
    const TF_Operation* op = g->ops[stack[--sp]];
    int j;
    for (j = 0; j < op->num_inputs; j++) {
      const TF_Output* src = &op->inputs[j];
      if (src->oper == NULL) continue;
      if (feed_of(first_feed, next_feed, feeds, src->oper, src->index) >= 0) {
        continue;
      }
      if (!in_plan[src->oper->id]) {
        in_plan[src->oper->id] = 1;
        stack[sp++] = src->oper->id;
      }
    }
    for (j = 0; j < op->num_control_inputs; j++) {
      const TF_Operation* c = op->control_inputs[j];
      if (!in_plan[c->id]) {
        in_plan[c->id] = 1;
        stack[sp++] = c->id;
      }
    }
  }
  for (i = 0; i < n_ops; i++) {
    pidx[i] = in_plan[i] ? nn++ : -1;
  }
  p->nodes = (plan_node*)tfe_calloc((size_t)nn + 1, sizeof(plan_node));
  p->feeds = (plan_feed*)tfe_calloc((size_t)num_feeds + 1, sizeof(plan_feed));
  p->fetch_node = (int*)tfe_malloc(sizeof(int) * (size_t)(num_fetches + 1));
  p->fetch_out = (int*)tfe_malloc(sizeof(int) * (size_t)(num_fetches + 1));
  if (p->nodes == NULL || p->feeds == NULL || p->fetch_node == NULL ||
      p->fetch_out == NULL) {
    oom(s);
    goto fail;
  }
  p->num_nodes = nn;
  for (i = 0; i < num_feeds; i++) {
    TF_DataType dt = feeds[i].oper->output_types[feeds[i].index];
    /* A fed reference output takes a value of its base dtype. */
    p->feeds[i].dtype = (int)dt > 100 ? (TF_DataType)((int)dt - 100) : dt;
  }

  /* Nodes, edges and placement, in creation order. */
  for (i = 0; i < n_ops; i++) {
    TF_Operation* op;
    plan_node* pn;
    const tfe_device* input_dev = NULL;
    int j;
    if (pidx[i] < 0) continue;
    op = g->ops[i];
    pn = &p->nodes[pidx[i]];
    pn->op = op;
    pn->name = op->name;
    pn->kind = node_kind(op);
    pn->is_trigger = strcmp(op->op_type, "ControlTrigger") == 0;
    pn->num_in = op->num_inputs;
    pn->num_out = op->num_outputs;
    if (pn->kind != PK_NORMAL && pn->kind != PK_PLACEHOLDER) p->dynamic = 1;
    if (pn->num_in > p->max_in) p->max_in = pn->num_in;
    if (pn->num_out > p->max_out) p->max_out = pn->num_out;
    for (j = 0; j < op->num_inputs; j++) {
      const TF_Output* src = &op->inputs[j];
      int f;
      if (src->oper == NULL) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "input %d of node %s is not connected", j, op->name);
        goto fail;
      }
      f = feed_of(first_feed, next_feed, feeds, src->oper, src->index);
      if (f >= 0) {
        if (!push_edge(&p->feeds[f].edges, &p->feeds[f].num_edges, pidx[i],
                       j, src->index)) {
          oom(s);
          goto fail;
        }
        continue;
      }
      {
        plan_node* src_pn = &p->nodes[pidx[src->oper->id]];
        if (!push_edge(&src_pn->edges, &src_pn->num_edges, pidx[i], j,
                       src->index)) {
          oom(s);
          goto fail;
        }
        /* A resource or reference input decides where the op runs (TF's
         * placer colocates them with the producer). The producer is
         * placed already unless this is a loop's back edge. */
        if (src_pn->op != NULL && src_pn->dev != NULL) {
          TF_DataType dt = src->oper->output_types[src->index];
          /* Resource handles, and references (Ref(T) dtypes are the base
           * dtype + 100 in a graph), stay with their producer. */
          if ((dt == TF_RESOURCE || (int)dt > 100) && input_dev == NULL &&
              strcmp(op->op_type, "IdentityN") != 0) {
            input_dev = src_pn->dev;
          }
        }
      }
    }
    for (j = 0; j < op->num_control_inputs; j++) {
      plan_node* c = &p->nodes[pidx[op->control_inputs[j]->id]];
      if (!push_int(&c->ctrl_out, &c->num_ctrl_out, pidx[i])) {
        oom(s);
        goto fail;
      }
      pn->num_ctrl_in++;
    }
    {
      /* A node colocated ("_class") with a node already placed in this
       * plan goes where that one went. */
      TF_Operation* other = colocated_with(g, op);
      if (other != NULL && pidx[other->id] >= 0 && other->id < op->id &&
          p->nodes[pidx[other->id]].dev != NULL) {
        input_dev = p->nodes[pidx[other->id]].dev;
      }
    }
    if (pn->kind == PK_NORMAL) {
      if (op->def == NULL) {
        tfe_status_setf(s, TF_NOT_FOUND,
                        "Op type not registered '%s' in binary (node %s)",
                        op->op_type, op->name);
        goto fail;
      }
      pn->e = resolve_kernel(ctx, g, pn, input_dev, s);
      /* Placed; TF then refuses to make the kernel of an op removed at or
       * before the graph's producer version. */
      if (pn->e != NULL &&
          !tfe_op_check_not_removed(op->def->name, g->producer, s)) {
        pn->e = NULL;
      }
      if (pn->e != NULL && wants_node_state(pn->e)) {
        if (states != NULL) {
          pn->e = stored_entry(states, op->name, pn->e, s);
        } else {
          pn->e = node_entry(pn->e, s);
          pn->own_e = pn->e != NULL;
        }
      }
      if (pn->e == NULL) {
        tfe_plan_annotate(s, op->name);
        goto fail;
      }
      pn->dev = pn->e->run_device;
      pn->host_fast = pn->e->run_device->is_host && !pn->e->has_ref &&
                      pn->num_in <= 16 && pn->num_out <= 16;
      if (pn->e->num_inputs != pn->num_in ||
          pn->e->num_outputs != pn->num_out) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "node %s has %d inputs and %d outputs but its op "
                        "needs %d and %d",
                        op->name, pn->num_in, pn->num_out,
                        pn->e->num_inputs, pn->e->num_outputs);
        goto fail;
      }
    } else {
      if (pn->num_in > 0 && op->inputs[0].oper != NULL &&
          pidx[op->inputs[0].oper->id] >= 0) {
        input_dev = p->nodes[pidx[op->inputs[0].oper->id]].dev;
      }
      pn->dev = place_plain(ctx, g, pn, input_dev, s);
      if (pn->dev == NULL) goto fail;
    }
    if (pn->kind == PK_PLACEHOLDER && p->error_code == TF_OK) {
      const tfe_attr_value* sh = tfe_attrs_find(&op->attrs, "shape");
      char shape[256], msg[1024];
      TF_DataType dt = op->num_outputs > 0 ? op->output_types[0] : TF_FLOAT;
      const char* dn = tfe_dtype_short_name(dt);
      if (sh != NULL && sh->type == TF_ATTR_SHAPE && !sh->is_list &&
          sh->v.shape.num_dims >= 0) {
        shape_text(&sh->v.shape, shape, sizeof(shape));
        snprintf(msg, sizeof(msg),
                 "You must feed a value for placeholder tensor '%s' with "
                 "dtype %s and shape %s\n\t [[{{node %s}}]]",
                 op->name, dn != NULL ? dn : "unknown", shape, op->name);
      } else {
        snprintf(msg, sizeof(msg),
                 "You must feed a value for placeholder tensor '%s' with "
                 "dtype %s\n\t [[{{node %s}}]]",
                 op->name, dn != NULL ? dn : "unknown", op->name);
      }
      p->error_code = TF_INVALID_ARGUMENT;
      p->error_msg = tfe_strdup(msg);
      if (p->error_msg == NULL) {
        oom(s);
        goto fail;
      }
    }
    if (atomic_load(&ctx->log_placement)) {
      TF_Log(TF_INFO, "%s: (%s): %s", op->name, op->op_type, pn->dev->name);
    }
  }
  for (i = 0; i < num_fetches; i++) {
    plan_node* pn = &p->nodes[pidx[fetches[i].oper->id]];
    p->fetch_node[i] = pidx[fetches[i].oper->id];
    p->fetch_out[i] = fetches[i].index;
    if (!push_edge(&pn->edges, &pn->num_edges, -(i + 1), 0,
                   fetches[i].index)) {
      oom(s);
      goto fail;
    }
  }

  if (p->dynamic) {
    if (!build_frames(p, s)) goto fail;
  } else {
    /* Slots: each node's outputs, then one per feed. */
    int slots = 0;
    for (i = 0; i < nn; i++) {
      p->nodes[i].slot0 = slots;
      slots += p->nodes[i].num_out;
    }
    p->num_slots = slots + num_feeds;
    p->init_uses = (int*)tfe_calloc((size_t)p->num_slots + 1, sizeof(int));
    p->feed_slot = (int*)tfe_malloc(sizeof(int) * (size_t)(num_feeds + 1));
    p->fetch_slot = (int*)tfe_malloc(sizeof(int) * (size_t)(num_fetches + 1));
    p->pending0 = (int*)tfe_calloc((size_t)nn + 1, sizeof(int));
    if (p->init_uses == NULL || p->feed_slot == NULL ||
        p->fetch_slot == NULL || p->pending0 == NULL) {
      oom(s);
      goto fail;
    }
    for (i = 0; i < num_feeds; i++) p->feed_slot[i] = slots + i;
    for (i = 0; i < nn; i++) {
      plan_node* pn = &p->nodes[i];
      if (pn->num_in > 0) {
        pn->in_slot = (int*)tfe_malloc(sizeof(int) * (size_t)pn->num_in);
        if (pn->in_slot == NULL) {
          oom(s);
          goto fail;
        }
      }
    }
    for (i = 0; i < nn; i++) {
      plan_node* pn = &p->nodes[i];
      int j;
      for (j = 0; j < pn->num_edges; j++) {
        const plan_edge* ed = &pn->edges[j];
        int slot = pn->slot0 + ed->src_out;
        if (ed->dst >= 0) {
          p->nodes[ed->dst].in_slot[ed->dst_in] = slot;
          p->pending0[ed->dst]++;
        } else {
          p->fetch_slot[-(ed->dst + 1)] = slot;
        }
        p->init_uses[slot]++;
      }
      for (j = 0; j < pn->num_ctrl_out; j++) p->pending0[pn->ctrl_out[j]]++;
    }
    for (i = 0; i < num_feeds; i++) {
      int j;
      for (j = 0; j < p->feeds[i].num_edges; j++) {
        const plan_edge* ed = &p->feeds[i].edges[j];
        p->nodes[ed->dst].in_slot[ed->dst_in] = p->feed_slot[i];
        p->init_uses[p->feed_slot[i]]++;
      }
    }
    /* A topological order (creation order, unless an edge was rewired to
     * a later operation); a cycle without loop frames cannot run. */
    p->order = (int*)tfe_malloc(sizeof(int) * (size_t)(nn + 1));
    if (p->order == NULL) {
      oom(s);
      goto fail;
    }
    {
      int* pend = (int*)tfe_malloc(sizeof(int) * (size_t)(nn + 1));
      int head = 0, tail = 0;
      if (pend == NULL) {
        oom(s);
        goto fail;
      }
      memcpy(pend, p->pending0, sizeof(int) * (size_t)nn);
      for (i = 0; i < nn; i++) {
        if (pend[i] == 0) p->order[tail++] = i;
      }
      while (head < tail) {
        const plan_node* pn = &p->nodes[p->order[head++]];
        int j;
        for (j = 0; j < pn->num_edges + pn->num_ctrl_out; j++) {
          int d = j < pn->num_edges ? pn->edges[j].dst
                                    : pn->ctrl_out[j - pn->num_edges];
          if (d >= 0 && --pend[d] == 0) p->order[tail++] = d;
        }
      }
      tfe_free(pend);
      if (tail != nn) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "Graph is invalid, contains a cycle with %d nodes "
                        "(a cycle needs a while loop's Enter, Merge and "
                        "NextIteration)",
                        nn - tail);
        goto fail;
      }
    }
    /* Worth the inter-op pool: enough nodes, and some node that does not
     * simply continue a chain (several roots or a fan-out). */
    if (nn >= 16 && p->inter_op != 1) {
      /* Longest chain (in topological order): a graph
       * whose nodes are mostly on one chain gains nothing from workers. */
      int* depth = (int*)tfe_calloc((size_t)nn + 1, sizeof(int));
      int crit = 0;
      if (depth != NULL) {
        for (i = 0; i < nn; i++) {
          const plan_node* pn = &p->nodes[p->order[i]];
          int j, d = depth[p->order[i]] + 1;
          if (d > crit) crit = d;
          for (j = 0; j < pn->num_edges; j++) {
            int t = pn->edges[j].dst;
            if (t >= 0 && depth[t] < d) depth[t] = d;
          }
          for (j = 0; j < pn->num_ctrl_out; j++) {
            int t = pn->ctrl_out[j];
            if (depth[t] < d) depth[t] = d;
          }
        }
        tfe_free(depth);
        p->wide = nn >= 2 * crit;
      }
    }
    if (!build_steps(p, s)) goto fail;
  }

  tfe_free(first_feed);
  tfe_free(next_feed);
  tfe_free(pidx);
  tfe_free(stack);
  tfe_free(in_plan);
  pthread_mutex_unlock(&g->mu);
  return p;

fail:
  pthread_mutex_unlock(&g->mu);
  if (TF_GetCode(s) == TF_OK) oom(s);
  tfe_free(first_feed);
  tfe_free(next_feed);
  tfe_free(pidx);
  tfe_free(stack);
  tfe_free(in_plan);
  tfe_plan_free(p);
  return NULL;
}
