/* TF_Graph: creation and deletion (deferred while sessions hold the graph),
 * the name index, iteration, static shapes, versions, GraphDef export,
 * OpDefs, and the edits of finished operations that TF's experimental API
 * allows (TF_UpdateEdge, control inputs, requested devices, attrs).
 *
 * The name index is an open-addressing hash table of operation indices
 * (linear probing, kept at most half full), so lookups and insertions are
 * O(1) however large the graph grows. */
#include <stdint.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "eager/eager_internal.h"
#include "graph/function_lib.h"
#include "graph/graph_internal.h"
#include "graph/operation_internal.h"
#include "ops/proto_encode.h"

#define TFE_GRAPH_MAGIC 0x47525048u /* "GRPH" */

static int graph_live(const TF_Graph* g) {
  return g != NULL && g->magic == TFE_GRAPH_MAGIC;
}

TF_Graph* TF_NewGraph(void) {
  TF_Graph* g = (TF_Graph*)tfe_calloc(1, sizeof(*g));
  if (g == NULL) return NULL;
  if (pthread_mutex_init(&g->mu, NULL) != 0) {
    tfe_free(g);
    return NULL;
  }
  g->magic = TFE_GRAPH_MAGIC;
  g->producer = TFE_GRAPH_DEF_VERSION;
  g->min_consumer = TFE_GRAPH_DEF_VERSION_MIN_CONSUMER;
  atomic_init(&g->generation, 0);
  return g;
}

char tfe_graph_no_device[1] = "";

/* Operations made by TF_FinishOperation keep their per-input arrays in one
 * block (inputs, then input_types) and their per-output arrays in another
 * (output_shapes, consumers, output_types, num_consumers, cap_consumers). */
/* 1 when p is one of op's inline consumer lists. */
static int consumers_inline(const TF_Operation* op, const TF_Input* p) {
  return op->consumers_inline != NULL && p >= op->consumers_inline &&
         p < op->consumers_inline +
                 (size_t)op->num_outputs * TFE_OP_INLINE_CONSUMERS;
}

void tfe_graph_op_free(TF_Operation* op) {
  int i;
  if (op == NULL) return;
  /* A packed operation (operation.c op_alloc) holds its name, op type and
   * per-input/per-output arrays in its own block. */
  if (!op->packed) {
    tfe_free(op->name);
    tfe_free(op->op_type);
  }
  if (op->device != tfe_graph_no_device) tfe_free(op->device);
  tfe_attrs_destroy(&op->attrs);
  if (!op->packed) tfe_free(op->inputs);
  if (op->output_shapes != NULL) {
    for (i = 0; i < op->num_outputs; i++) {
      if (!tfe_op_dims_are_inline(op, i)) {
        tfe_free(op->output_shapes[i].dims);
      }
      if (!consumers_inline(op, op->consumers[i])) tfe_free(op->consumers[i]);
    }
    if (!op->packed) tfe_free(op->output_shapes);
  }
  if (op->handle_data != NULL) {
    for (i = 0; i < op->num_outputs; i++) {
      tfe_graph_handle_data_clear(&op->handle_data[i]);
    }
    tfe_free(op->handle_data);
  }
  tfe_free(op->full_type);
  tfe_free(op->control_inputs);
  tfe_free(op->control_outputs);
  if (op->packed != 2) tfe_free(op);
}

void tfe_graph_handle_data_clear(tfe_handle_data* h) {
  int i;
  if (h == NULL) return;
  for (i = 0; i < h->num; i++) tfe_free(h->shapes[i].dims);
  tfe_free(h->shapes);
  tfe_free(h->dtypes);
  memset(h, 0, sizeof(*h));
}

int tfe_graph_handle_data_copy(tfe_handle_data* dst,
                               const tfe_handle_data* src) {
  int i;
  memset(dst, 0, sizeof(*dst));
  if (src == NULL || src->num <= 0) return 1;
  dst->dtypes = (TF_DataType*)tfe_malloc((size_t)src->num * sizeof(TF_DataType));
  dst->shapes = (tfe_shape*)tfe_calloc((size_t)src->num, sizeof(tfe_shape));
  if (dst->dtypes == NULL || dst->shapes == NULL) {
    tfe_free(dst->dtypes);
    tfe_free(dst->shapes);
    memset(dst, 0, sizeof(*dst));
    return 0;
  }
  dst->num = src->num;
  for (i = 0; i < src->num; i++) {
    const tfe_shape* sh = &src->shapes[i];
    dst->dtypes[i] = src->dtypes[i];
    dst->shapes[i].num_dims = sh->num_dims;
    if (sh->num_dims > 0) {
      dst->shapes[i].dims =
          (int64_t*)tfe_malloc((size_t)sh->num_dims * sizeof(int64_t));
      if (dst->shapes[i].dims == NULL) {
        tfe_graph_handle_data_clear(dst);
        return 0;
      }
      memcpy(dst->shapes[i].dims, sh->dims,
             (size_t)sh->num_dims * sizeof(int64_t));
    }
  }
  return 1;
}

const tfe_handle_data* tfe_graph_handle_data_of(const TF_Operation* op,
                                                int index) {
  if (op == NULL || op->handle_data == NULL || index < 0 ||
      index >= op->num_outputs || op->handle_data[index].num <= 0) {
    return NULL;
  }
  return &op->handle_data[index];
}

int tfe_graph_handle_data_set(TF_Operation* op, int index,
                              tfe_handle_data* h) {
  if (index < 0 || index >= op->num_outputs) {
    tfe_graph_handle_data_clear(h);
    return 0;
  }
  if (op->handle_data == NULL) {
    op->handle_data = (tfe_handle_data*)tfe_calloc((size_t)op->num_outputs,
                                                   sizeof(tfe_handle_data));
    if (op->handle_data == NULL) {
      tfe_graph_handle_data_clear(h);
      return 0;
    }
  }
  tfe_graph_handle_data_clear(&op->handle_data[index]);
  op->handle_data[index] = *h;
  memset(h, 0, sizeof(*h));
  return 1;
}

/* ------------------------------------------------------------------------
 * Operation arena (see graph_internal.h). */

typedef struct tfe_graph_chunk {
  struct tfe_graph_chunk* next;
  size_t size, used; /* bytes of data */
} tfe_graph_chunk;

#define CHUNK_HDR ((sizeof(tfe_graph_chunk) + 15) & ~(size_t)15)
/* Chunks of deleted graphs kept for reuse, at most this many bytes. */
#define CHUNK_CACHE_MAX ((size_t)32 << 20)

static pthread_mutex_t chunk_cache_mu = PTHREAD_MUTEX_INITIALIZER;
static tfe_graph_chunk* chunk_cache;
static size_t chunk_cache_bytes;

int tfe_graph_arena_reserve(TF_Graph* g, size_t bytes) {
  tfe_graph_chunk *c = NULL, **pp;
  if (g->arena != NULL && g->arena->size - g->arena->used >= bytes) return 1;
  pthread_mutex_lock(&chunk_cache_mu);
  for (pp = &chunk_cache; *pp != NULL; pp = &(*pp)->next) {
    if ((*pp)->size >= bytes) {
      c = *pp;
      *pp = c->next;
      chunk_cache_bytes -= c->size;
      break;
    }
  }
  pthread_mutex_unlock(&chunk_cache_mu);
  if (c == NULL) {
    if (bytes > (size_t)PTRDIFF_MAX - CHUNK_HDR) return 0;
    c = (tfe_graph_chunk*)tfe_malloc(CHUNK_HDR + bytes);
    if (c == NULL) return 0;
    c->size = bytes;
  }
  c->used = 0;
  c->next = g->arena;
  g->arena = c;
  return 1;
}

void* tfe_graph_arena_alloc(TF_Graph* g, size_t n) {
  tfe_graph_chunk* c = g->arena;
  char* p;
  n = (n + 7) & ~(size_t)7;
  if (c == NULL || c->size - c->used < n) return NULL;
  p = (char*)c + CHUNK_HDR + c->used;
  c->used += n;
  memset(p, 0, n);
  return p;
}

void tfe_graph_arena_unalloc(TF_Graph* g, void* p, size_t n) {
  tfe_graph_chunk* c = g->arena;
  n = (n + 7) & ~(size_t)7;
  if (c != NULL && c->used >= n &&
      (char*)p == (char*)c + CHUNK_HDR + c->used - n) {
    c->used -= n;
  }
}

int tfe_graph_arena_grow(TF_Graph* g, size_t need) {
  size_t size = g->arena != NULL ? g->arena->size * 2 : 4096;
  if (size > ((size_t)1 << 20)) size = (size_t)1 << 20;
  if (size < need) size = need;
  return tfe_graph_arena_reserve(g, size);
}

static void arena_release(TF_Graph* g) {
  tfe_graph_chunk* c = g->arena;
  while (c != NULL) {
    tfe_graph_chunk* next = c->next;
    int keep = 0;
    pthread_mutex_lock(&chunk_cache_mu);
    if (chunk_cache_bytes + c->size <= CHUNK_CACHE_MAX) {
      c->next = chunk_cache;
      chunk_cache = c;
      chunk_cache_bytes += c->size;
      keep = 1;
    }
    pthread_mutex_unlock(&chunk_cache_mu);
    if (!keep) tfe_free(c);
    c = next;
  }
  g->arena = NULL;
}

static void graph_free(TF_Graph* g) {
  int i;
  g->magic = 0;
  for (i = 0; i < g->num_ops; i++) tfe_graph_op_free(g->ops[i]);
  arena_release(g);
  tfe_free(g->ops);
  tfe_free(g->name_index);
  tfe_flib_free(g->flib);
  pthread_mutex_destroy(&g->mu);
  tfe_free(g);
}

void TF_DeleteGraph(TF_Graph* g) {
  int later;
  if (!graph_live(g)) return;
  pthread_mutex_lock(&g->mu);
  later = g->sessions > 0;
  if (later) g->delete_requested = 1;
  pthread_mutex_unlock(&g->mu);
  if (!later) graph_free(g);
}

void tfe_graph_hold(TF_Graph* g) {
  if (!graph_live(g)) return;
  pthread_mutex_lock(&g->mu);
  g->sessions++;
  pthread_mutex_unlock(&g->mu);
}

void tfe_graph_release(TF_Graph* g) {
  int free_now;
  if (!graph_live(g)) return;
  pthread_mutex_lock(&g->mu);
  if (g->sessions > 0) g->sessions--;
  free_now = g->sessions == 0 && g->delete_requested;
  pthread_mutex_unlock(&g->mu);
  if (free_now) graph_free(g);
}

struct tfe_flib* tfe_graph_flib(TF_Graph* g) {
  if (g->flib == NULL) g->flib = tfe_flib_new();
  return g->flib;
}

/* ------------------------------------------------------------------------
 * Name index. */

static uint64_t name_hash(const char* s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  while (*s) {
    h ^= (unsigned char)*s++;
    h *= 1099511628211ull;
  }
  /* FNV's low bits cluster for names differing only in a suffix
   * ("n1", "n2", ...); a final avalanche spreads them over the table. */
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

/* The table holds name_index_cap slots of two ints each: the operation
 * index (-1: empty) and the name's 32-bit hash next to it (one cache line
 * per probe), so probes compare hashes before names and growing the table
 * never rehashes a name. */
TF_Operation* tfe_graph_find(TF_Graph* g, const char* name) {
  size_t mask, i;
  uint32_t h;
  const int* t;
  if (g == NULL || name == NULL || g->name_index_cap == 0) return NULL;
  mask = g->name_index_cap - 1;
  h = (uint32_t)name_hash(name);
  t = g->name_index;
  for (i = h & mask;; i = (i + 1) & mask) {
    int k = t[2 * i];
    if (k < 0) return NULL;
    if ((uint32_t)t[2 * i + 1] == h && strcmp(g->ops[k]->name, name) == 0) {
      return g->ops[k];
    }
  }
}

static void index_insert(int* table, size_t cap, uint32_t h, int k) {
  size_t mask = cap - 1, i;
  for (i = h & mask; table[2 * i] >= 0; i = (i + 1) & mask) {
  }
  table[2 * i] = k;
  table[2 * i + 1] = (int)h;
}

/* Room in the name index for `n` more names (load at most 1/2). */
static int index_reserve_n(TF_Graph* g, size_t n) {
  size_t cap, i;
  int* t;
  if (((size_t)g->num_ops + n) * 2 <= g->name_index_cap) return 1;
  cap = g->name_index_cap ? g->name_index_cap * 2 : 64;
  while (cap < ((size_t)g->num_ops + n) * 2) {
    if (cap > ((size_t)1 << 40)) return 0;
    cap *= 2;
  }
  t = (int*)tfe_malloc(cap * 2 * sizeof(int));
  if (t == NULL) return 0;
  for (i = 0; i < cap; i++) t[2 * i] = -1;
  for (i = 0; i < g->name_index_cap; i++) {
    if (g->name_index[2 * i] >= 0) {
      index_insert(t, cap, (uint32_t)g->name_index[2 * i + 1],
                   g->name_index[2 * i]);
    }
  }
  tfe_free(g->name_index);
  g->name_index = t;
  g->name_index_cap = cap;
  return 1;
}

/* Makes room for one more name. */
static int index_reserve(TF_Graph* g) { return index_reserve_n(g, 1); }

int tfe_graph_reserve(TF_Graph* g, int extra) {
  if (extra <= 0) return 1;
  if (extra > g->cap_ops - g->num_ops) {
    size_t want = (size_t)g->num_ops + (size_t)extra;
    TF_Operation** p;
    if (want > (size_t)INT_MAX) return 0;
    p = (TF_Operation**)tfe_realloc(g->ops, want * sizeof(*p));
    if (p == NULL) return 0;
    g->ops = p;
    g->cap_ops = (int)want;
  }
  return index_reserve_n(g, (size_t)extra);
}

/* ------------------------------------------------------------------------
 * Edges. */

/* Makes room for `need` consumers of output `index` of src. The count
 * may be inflated by a pending reservation (tfe_graph_add_op), so only
 * min(count, capacity) entries are real and copied. */
static int consumers_reserve_n(TF_Operation* src, int index, int need) {
  int cap, have;
  TF_Input* p;
  if (need <= src->cap_consumers[index]) return 1;
  cap = src->cap_consumers[index] ? src->cap_consumers[index] * 2 : 4;
  while (cap < need) cap *= 2;
  have = src->num_consumers[index];
  if (have > src->cap_consumers[index]) have = src->cap_consumers[index];
  if (consumers_inline(src, src->consumers[index])) {
    p = (TF_Input*)tfe_malloc((size_t)cap * sizeof(*p));
    if (p == NULL) return 0;
    if (have > 0) memcpy(p, src->consumers[index], (size_t)have * sizeof(*p));
  } else {
    p = (TF_Input*)tfe_realloc(src->consumers[index],
                               (size_t)cap * sizeof(*p));
    if (p == NULL) return 0;
  }
  src->consumers[index] = p;
  src->cap_consumers[index] = cap;
  return 1;
}

static int consumers_reserve(TF_Operation* src, int index) {
  return consumers_reserve_n(src, index, src->num_consumers[index] + 1);
}

static int control_outputs_reserve(TF_Operation* src) {
  int cap;
  TF_Operation** p;
  if (src->num_control_outputs < src->cap_control_outputs) return 1;
  cap = src->cap_control_outputs ? src->cap_control_outputs * 2 : 4;
  p = (TF_Operation**)tfe_realloc(src->control_outputs,
                                  (size_t)cap * sizeof(*p));
  if (p == NULL) return 0;
  src->control_outputs = p;
  src->cap_control_outputs = cap;
  return 1;
}

static void consumer_remove(TF_Operation* src, int index, TF_Operation* dst,
                            int dst_index) {
  int j, n = src->num_consumers[index];
  TF_Input* c = src->consumers[index];
  for (j = 0; j < n; j++) {
    if (c[j].oper == dst && c[j].index == dst_index) {
      memmove(&c[j], &c[j + 1], (size_t)(n - j - 1) * sizeof(*c));
      src->num_consumers[index]--;
      return;
    }
  }
}

static void control_output_remove(TF_Operation* src, TF_Operation* dst) {
  int j, n = src->num_control_outputs;
  for (j = 0; j < n; j++) {
    if (src->control_outputs[j] == dst) {
      memmove(&src->control_outputs[j], &src->control_outputs[j + 1],
              (size_t)(n - j - 1) * sizeof(TF_Operation*));
      src->num_control_outputs--;
      return;
    }
  }
}

void tfe_graph_prefetch_name(const TF_Graph* g, const char* name) {
#if defined(__GNUC__)
  if (g->name_index != NULL && g->name_index_cap > 0) {
    size_t i = (size_t)((uint32_t)name_hash(name) & (g->name_index_cap - 1));
    __builtin_prefetch(&g->name_index[2 * i], 0, 1);
  }
#else
  (void)g;
  (void)name;
#endif
}

int tfe_graph_probe(TF_Graph* g, const char* name, TF_Operation** found,
                    tfe_name_probe* p) {
  size_t mask, i;
  uint32_t h;
  const int* t;
  if (!index_reserve(g)) return 0;
  mask = g->name_index_cap - 1;
  h = (uint32_t)name_hash(name);
  t = g->name_index;
  for (i = h & mask;; i = (i + 1) & mask) {
    int k = t[2 * i];
    if (k < 0) break;
    if ((uint32_t)t[2 * i + 1] == h && strcmp(g->ops[k]->name, name) == 0) {
      *found = g->ops[k];
      return 1;
    }
  }
  *found = NULL;
  p->slot = i;
  p->cap = g->name_index_cap;
  p->hash = h;
  return 1;
}

static int add_op(TF_Graph* g, TF_Operation* op, const tfe_name_probe* p);

int tfe_graph_add_op(TF_Graph* g, TF_Operation* op) {
  return add_op(g, op, NULL);
}

int tfe_graph_add_op_probed(TF_Graph* g, TF_Operation* op,
                            const tfe_name_probe* p) {
  return add_op(g, op, p);
}

static int add_op(TF_Graph* g, TF_Operation* op, const tfe_name_probe* p) {
  int i;
  /* Reserve everything first, so that a failure leaves the graph as it
   * was (grown arrays are harmless). */
  if (g->num_ops == g->cap_ops) {
    int cap = g->cap_ops ? g->cap_ops * 2 : 64;
    TF_Operation** p =
        (TF_Operation**)tfe_realloc(g->ops, (size_t)cap * sizeof(*p));
    if (p == NULL) return 0;
    g->ops = p;
    g->cap_ops = cap;
  }
  if (!index_reserve(g)) return 0;
  /* Several inputs may come from one output: count them in the producers'
   * num_consumers while reserving, then take the counts back. */
  {
    int failed = -1, j;
    for (i = 0; i < op->num_inputs && failed < 0; i++) {
      TF_Operation* src = op->inputs[i].oper;
      int k = op->inputs[i].index;
      if (src == NULL) continue;
      src->num_consumers[k]++;
      if (!consumers_reserve_n(src, k, src->num_consumers[k])) failed = i;
    }
    for (j = 0; j < (failed < 0 ? op->num_inputs : failed + 1); j++) {
      TF_Operation* src = op->inputs[j].oper;
      if (src != NULL) src->num_consumers[op->inputs[j].index]--;
    }
    if (failed >= 0) return 0;
  }
  for (i = 0; i < op->num_control_inputs; i++) {
    if (!control_outputs_reserve(op->control_inputs[i])) return 0;
  }
  /* Commit (cannot fail). */
  for (i = 0; i < op->num_inputs; i++) {
    TF_Operation* src = op->inputs[i].oper;
    int k;
    if (src == NULL) continue;
    k = op->inputs[i].index;
    src->consumers[k][src->num_consumers[k]].oper = op;
    src->consumers[k][src->num_consumers[k]].index = i;
    src->num_consumers[k]++;
  }
  for (i = 0; i < op->num_control_inputs; i++) {
    TF_Operation* src = op->control_inputs[i];
    src->control_outputs[src->num_control_outputs++] = op;
  }
  op->graph = g;
  op->id = g->num_ops;
  g->ops[g->num_ops++] = op;
  /* The probed slot is still free unless the table grew or took another
   * name since (then probe again). */
  if (p != NULL && p->cap == g->name_index_cap &&
      g->name_index[2 * p->slot] < 0) {
    g->name_index[2 * p->slot] = op->id;
    g->name_index[2 * p->slot + 1] = (int)p->hash;
  } else {
    index_insert(g->name_index, g->name_index_cap,
                 p != NULL ? p->hash : (uint32_t)name_hash(op->name), op->id);
  }
  atomic_fetch_add(&g->generation, 1);
  return 1;
}

int tfe_graph_set_input(TF_Graph* g, TF_Operation* op, int index,
                        TF_Output src) {
  TF_Output old;
  if (index < 0 || index >= op->num_inputs) return 0;
  if (src.oper != NULL && !consumers_reserve(src.oper, src.index)) return 0;
  old = op->inputs[index];
  if (old.oper != NULL) consumer_remove(old.oper, old.index, op, index);
  op->inputs[index] = src;
  if (src.oper != NULL) {
    int k = src.index;
    src.oper->consumers[k][src.oper->num_consumers[k]].oper = op;
    src.oper->consumers[k][src.oper->num_consumers[k]].index = index;
    src.oper->num_consumers[k]++;
  }
  atomic_fetch_add(&g->generation, 1);
  return 1;
}

void tfe_graph_remove_ops_from(TF_Graph* g, int first) {
  int k, i;
  size_t j;
  if (g == NULL || first < 0 || first >= g->num_ops) return;
  for (k = g->num_ops - 1; k >= first; k--) {
    TF_Operation* op = g->ops[k];
    for (i = 0; i < op->num_inputs; i++) {
      TF_Operation* src = op->inputs[i].oper;
      if (src != NULL && src->id < first) {
        consumer_remove(src, op->inputs[i].index, op, i);
      }
    }
    for (i = 0; i < op->num_control_inputs; i++) {
      if (op->control_inputs[i]->id < first) {
        control_output_remove(op->control_inputs[i], op);
      }
    }
  }
  /* Older operations may also consume newer ones through back edges
   * (tfe_graph_set_input); drop those entries too. */
  for (k = 0; k < first; k++) {
    TF_Operation* op = g->ops[k];
    for (i = 0; i < op->num_inputs; i++) {
      if (op->inputs[i].oper != NULL && op->inputs[i].oper->id >= first) {
        op->inputs[i].oper = NULL;
      }
    }
  }
  for (k = g->num_ops - 1; k >= first; k--) tfe_graph_op_free(g->ops[k]);
  g->num_ops = first;
  /* Rebuild the name index from the remaining operations. */
  for (j = 0; j < g->name_index_cap; j++) g->name_index[2 * j] = -1;
  for (k = 0; k < g->num_ops; k++) {
    index_insert(g->name_index, g->name_index_cap,
                 (uint32_t)name_hash(g->ops[k]->name), k);
  }
  atomic_fetch_add(&g->generation, 1);
}

/* ------------------------------------------------------------------------
 * Lookup and iteration. */

TF_Operation* TF_GraphOperationByName(TF_Graph* graph, const char* oper_name) {
  TF_Operation* op;
  if (!graph_live(graph) || oper_name == NULL) return NULL;
  pthread_mutex_lock(&graph->mu);
  op = tfe_graph_find(graph, oper_name);
  pthread_mutex_unlock(&graph->mu);
  return op;
}

TF_Operation* TF_GraphNextOperation(TF_Graph* graph, size_t* pos) {
  TF_Operation* op = NULL;
  if (!graph_live(graph) || pos == NULL) return NULL;
  pthread_mutex_lock(&graph->mu);
  if (*pos < (size_t)graph->num_ops) op = graph->ops[(*pos)++];
  pthread_mutex_unlock(&graph->mu);
  return op;
}

/* ------------------------------------------------------------------------
 * Static shapes. */

/* Checks graph and output; INVALID_ARGUMENT / OUT_OF_RANGE otherwise. */
static int check_output(TF_Graph* g, TF_Output o, TF_Status* s) {
  if (!graph_live(g)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Invalid graph");
    return 0;
  }
  if (o.oper == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Invalid operation (NULL)");
    return 0;
  }
  if (o.oper->graph != g) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Node %s was not found in the graph", o.oper->name);
    return 0;
  }
  if (o.index < 0 || o.index >= o.oper->num_outputs) {
    tfe_status_setf(s, TF_OUT_OF_RANGE,
                    "Node '%s' (type: '%s', num of outputs: %d) does not "
                    "have output %d",
                    o.oper->name, o.oper->op_type, o.oper->num_outputs,
                    o.index);
    return 0;
  }
  return 1;
}

static void shape_text(const tfe_shape* sh, char* buf, size_t cap) {
  size_t len;
  int i;
  if (sh->num_dims < 0) {
    snprintf(buf, cap, "?");
    return;
  }
  len = (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < sh->num_dims && len < cap; i++) {
    if (sh->dims[i] < 0) {
      len += (size_t)snprintf(buf + len, cap - len, "%s?", i ? "," : "");
    } else {
      len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? "," : "",
                              (long long)sh->dims[i]);
    }
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

void TF_GraphSetTensorShape(TF_Graph* graph, TF_Output output,
                            const int64_t* dims, const int num_dims,
                            TF_Status* status) {
  tfe_shape* cur;
  int i;
  if (!check_output(graph, output, status)) return;
  if (num_dims < -1 || (num_dims > 0 && dims == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GraphSetTensorShape: invalid shape (num_dims %d%s)",
                    num_dims, num_dims > 0 ? ", dims NULL" : "");
    return;
  }
  for (i = 0; i < num_dims; i++) {
    if (dims[i] < -1) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Dimension %d of the shape is %lld; a dimension must "
                      "be >= 0, or -1 when unknown",
                      i, (long long)dims[i]);
      return;
    }
  }
  pthread_mutex_lock(&graph->mu);
  cur = &output.oper->output_shapes[output.index];
  if (num_dims < 0) { /* nothing new is known */
    pthread_mutex_unlock(&graph->mu);
    tfe_status_ok(status);
    return;
  }
  if (cur->num_dims < 0) {
    int64_t* d = NULL;
    if (num_dims > 0) {
      d = (int64_t*)tfe_malloc((size_t)num_dims * sizeof(int64_t));
      if (d == NULL) {
        pthread_mutex_unlock(&graph->mu);
        tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                        "TF_GraphSetTensorShape: out of memory");
        return;
      }
      memcpy(d, dims, (size_t)num_dims * sizeof(int64_t));
    }
    cur->dims = d;
    cur->num_dims = num_dims;
  } else {
    char a[256], b[256];
    tfe_shape given;
    given.num_dims = num_dims;
    given.dims = (int64_t*)dims;
    if (cur->num_dims != num_dims) {
      shape_text(cur, a, sizeof a);
      shape_text(&given, b, sizeof b);
      pthread_mutex_unlock(&graph->mu);
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Shapes must be equal rank, but are %d and %d",
                      cur->num_dims, num_dims);
      return;
    }
    for (i = 0; i < num_dims; i++) {
      if (cur->dims[i] >= 0 && dims[i] >= 0 && cur->dims[i] != dims[i]) {
        shape_text(cur, a, sizeof a);
        shape_text(&given, b, sizeof b);
        pthread_mutex_unlock(&graph->mu);
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Dimension %d in both shapes must be equal, but are "
                        "%lld and %lld. Shapes are %s and %s.",
                        i, (long long)cur->dims[i], (long long)dims[i], a, b);
        return;
      }
    }
    for (i = 0; i < num_dims; i++) {
      if (cur->dims[i] < 0) cur->dims[i] = dims[i];
    }
  }
  atomic_fetch_add(&graph->generation, 1);
  pthread_mutex_unlock(&graph->mu);
  tfe_status_ok(status);
}

int TF_GraphGetTensorNumDims(TF_Graph* graph, TF_Output output,
                             TF_Status* status) {
  int n;
  if (!check_output(graph, output, status)) return -1;
  pthread_mutex_lock(&graph->mu);
  n = output.oper->output_shapes[output.index].num_dims;
  pthread_mutex_unlock(&graph->mu);
  tfe_status_ok(status);
  return n < 0 ? -1 : n;
}

void TF_GraphGetTensorShape(TF_Graph* graph, TF_Output output, int64_t* dims,
                            int num_dims, TF_Status* status) {
  const tfe_shape* sh;
  int rank;
  if (!check_output(graph, output, status)) return;
  pthread_mutex_lock(&graph->mu);
  sh = &output.oper->output_shapes[output.index];
  rank = sh->num_dims < 0 ? -1 : sh->num_dims;
  if (num_dims != rank) {
    pthread_mutex_unlock(&graph->mu);
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Expected rank is %d but actual rank is %d", num_dims,
                    rank);
    return;
  }
  if (num_dims > 0) {
    if (dims == NULL) {
      pthread_mutex_unlock(&graph->mu);
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TF_GraphGetTensorShape: dims is NULL");
      return;
    }
    memcpy(dims, sh->dims, (size_t)num_dims * sizeof(int64_t));
  }
  pthread_mutex_unlock(&graph->mu);
  tfe_status_ok(status);
}

/* ------------------------------------------------------------------------
 * Serialization. */

static void put_input_name(tfe_pbw* out, TF_Output src) {
  char buf[32];
  const char* n = src.oper != NULL ? src.oper->name : "";
  size_t len = strlen(n);
  int k = 0;
  tfe_pbw_tag(out, 3, 2);
  if (src.index != 0) k = snprintf(buf, sizeof buf, ":%d", src.index);
  tfe_pbw_varint(out, len + (size_t)k);
  tfe_pbw_bytes(out, n, len);
  tfe_pbw_bytes(out, buf, (size_t)k);
}

static int cmp_op_name(const void* a, const void* b) {
  const TF_Operation* x = *(const TF_Operation* const*)a;
  const TF_Operation* y = *(const TF_Operation* const*)b;
  return strcmp(x->name, y->name);
}

/* NodeDef body; control inputs sorted by name when `sorted` (GraphDef
 * export does this, as TF's ToGraphDef does). */
static void encode_node(tfe_pbw* out, const TF_Operation* op, int sorted) {
  int i;
  TF_Operation* small[16];
  TF_Operation** ctl = op->control_inputs;
  tfe_pbw_str(out, 1, op->name);
  tfe_pbw_str(out, 2, op->op_type);
  for (i = 0; i < op->num_inputs; i++) put_input_name(out, op->inputs[i]);
  if (sorted && op->num_control_inputs > 1) {
    ctl = op->num_control_inputs <= 16
              ? small
              : (TF_Operation**)tfe_malloc((size_t)op->num_control_inputs *
                                           sizeof(TF_Operation*));
    if (ctl == NULL) {
      ctl = op->control_inputs; /* unsorted beats failing */
    } else {
      memcpy(ctl, op->control_inputs,
             (size_t)op->num_control_inputs * sizeof(TF_Operation*));
      qsort(ctl, (size_t)op->num_control_inputs, sizeof(TF_Operation*),
            cmp_op_name);
    }
  }
  for (i = 0; i < op->num_control_inputs; i++) {
    size_t len = strlen(ctl[i]->name);
    tfe_pbw_tag(out, 3, 2);
    tfe_pbw_varint(out, len + 1);
    tfe_pbw_bytes(out, "^", 1);
    tfe_pbw_bytes(out, ctl[i]->name, len);
  }
  if (ctl != op->control_inputs && ctl != small) tfe_free(ctl);
  if (op->device != NULL && op->device[0] != '\0') {
    tfe_pbw_str(out, 4, op->device);
  }
  for (i = 0; i < op->attrs.count; i++) {
    tfe_pbw entry = {0}, value = {0};
    tfe_pbw_str(&entry, 1, op->attrs.items[i].name);
    tfe_pb_attr_value(&value, &op->attrs.items[i].value);
    tfe_pbw_sub(&entry, 2, &value);
    tfe_pbw_sub(out, 5, &entry);
  }
  if (op->full_type != NULL) {
    tfe_pbw_lenfield(out, 7, op->full_type, op->full_type_len);
  }
}

void tfe_graph_encode_node_def(struct tfe_pbw* out, const TF_Operation* op) {
  encode_node(out, op, 0);
}

static void encode_versions(tfe_pbw* out, const TF_Graph* g) {
  if (g->producer != 0) tfe_pbw_uint(out, 1, (uint64_t)(int64_t)g->producer);
  if (g->min_consumer != 0) {
    tfe_pbw_uint(out, 2, (uint64_t)(int64_t)g->min_consumer);
  }
}

void tfe_graph_put_buffer(struct tfe_pbw* w, TF_Buffer* buf, TF_Status* s,
                          const char* fn) {
  TF_Buffer* tmp = tfe_pb_to_buffer(w);
  if (tmp == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "%s: out of memory", fn);
    return;
  }
  if (buf->data_deallocator != NULL) {
    buf->data_deallocator((void*)buf->data, buf->length);
  }
  buf->data = tmp->data;
  buf->length = tmp->length;
  buf->data_deallocator = tmp->data_deallocator;
  tmp->data = NULL;
  tmp->length = 0;
  tmp->data_deallocator = NULL;
  TF_DeleteBuffer(tmp);
  tfe_status_ok(s);
}

void TF_GraphToGraphDef(TF_Graph* graph, TF_Buffer* output_graph_def,
                        TF_Status* status) {
  tfe_pbw out = {0}, sub = {0};
  int i;
  if (!graph_live(graph) || output_graph_def == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GraphToGraphDef: %s is NULL",
                    graph_live(graph) ? "output_graph_def" : "graph");
    return;
  }
  pthread_mutex_lock(&graph->mu);
  for (i = 0; i < graph->num_ops && !out.oom; i++) {
    encode_node(&sub, graph->ops[i], 1);
    tfe_pbw_sub(&out, 1, &sub);
  }
  if (graph->flib != NULL) tfe_flib_encode(graph->flib, &sub);
  tfe_pbw_sub(&out, 2, &sub);
  encode_versions(&sub, graph);
  tfe_pbw_sub(&out, 4, &sub);
  pthread_mutex_unlock(&graph->mu);
  tfe_graph_put_buffer(&out, output_graph_def, status, "TF_GraphToGraphDef");
}

void TF_GraphGetOpDef(TF_Graph* graph, const char* op_name,
                      TF_Buffer* output_op_def, TF_Status* status) {
  const tfe_op_def* def;
  tfe_pbw out = {0};
  if (!graph_live(graph) || op_name == NULL || output_op_def == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GraphGetOpDef: graph, op_name and output_op_def "
                    "must not be NULL");
    return;
  }
  def = tfe_op_lookup(op_name);
  if (def == NULL) {
    pthread_mutex_lock(&graph->mu);
    def = tfe_flib_signature(graph->flib, op_name);
    pthread_mutex_unlock(&graph->mu);
  }
  if (def == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Op type not registered '%s' in binary running on tfe. "
                    "Make sure the Op and Kernel are registered in the "
                    "binary running in this process.",
                    op_name);
    return;
  }
  tfe_pb_op_def(&out, def);
  tfe_graph_put_buffer(&out, output_op_def, status, "TF_GraphGetOpDef");
}

void TF_GraphVersions(TF_Graph* graph, TF_Buffer* output_version_def,
                      TF_Status* status) {
  tfe_pbw out = {0};
  if (!graph_live(graph) || output_version_def == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GraphVersions: graph and output_version_def must "
                    "not be NULL");
    return;
  }
  pthread_mutex_lock(&graph->mu);
  encode_versions(&out, graph);
  pthread_mutex_unlock(&graph->mu);
  tfe_pbw_reserve(&out, 1); /* a buffer even for an empty message */
  tfe_graph_put_buffer(&out, output_version_def, status, "TF_GraphVersions");
}

/* ------------------------------------------------------------------------
 * Mutation of existing operations (TF_UpdateEdge and the functions TF's
 * Python layer uses). */

static int check_op_in(TF_Graph* g, const TF_Operation* op, const char* what,
                       TF_Status* s) {
  if (!graph_live(g)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Invalid graph");
    return 0;
  }
  if (op == NULL || op->graph != g) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s is %s", what,
                    op == NULL ? "NULL" : "not in this graph");
    return 0;
  }
  return 1;
}

static int base_dtype(int t) { return t > 100 ? t - 100 : t; }

void TF_UpdateEdge(TF_Graph* graph, TF_Output new_src, TF_Input dst,
                   TF_Status* status) {
  TF_DataType want, have;
  if (!check_op_in(graph, new_src.oper, "new_src", status) ||
      !check_op_in(graph, dst.oper, "dst", status)) {
    return;
  }
  if (new_src.index < 0 || new_src.index >= new_src.oper->num_outputs) {
    tfe_status_setf(status, TF_OUT_OF_RANGE,
                    "Node '%s' has %d outputs; output %d requested",
                    new_src.oper->name, new_src.oper->num_outputs,
                    new_src.index);
    return;
  }
  if (dst.index < 0 || dst.index >= dst.oper->num_inputs) {
    tfe_status_setf(status, TF_OUT_OF_RANGE,
                    "Node '%s' has %d inputs; input %d requested",
                    dst.oper->name, dst.oper->num_inputs, dst.index);
    return;
  }
  want = dst.oper->input_types[dst.index];
  have = new_src.oper->output_types[new_src.index];
  if (!(want == have || ((int)want < 100 && base_dtype((int)have) == (int)want))) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Input %d of node %s was passed %s from %s:%d "
                    "incompatible with expected %s.",
                    dst.index, dst.oper->name,
                    tfe_dtype_short_name((TF_DataType)base_dtype(have))
                        ? tfe_dtype_short_name(
                              (TF_DataType)base_dtype(have))
                        : "?",
                    new_src.oper->name, new_src.index,
                    tfe_dtype_short_name((TF_DataType)base_dtype(want))
                        ? tfe_dtype_short_name(
                              (TF_DataType)base_dtype(want))
                        : "?");
    return;
  }
  /* An edge from a later operation is allowed, as in TF: that is how a
   * loop's Merge gets its NextIteration input. */
  pthread_mutex_lock(&graph->mu);
  if (!tfe_graph_set_input(graph, dst.oper, dst.index, new_src)) {
    pthread_mutex_unlock(&graph->mu);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_UpdateEdge: out of memory");
    return;
  }
  pthread_mutex_unlock(&graph->mu);
  tfe_status_ok(status);
}

void TF_AddOperationControlInput(TF_Graph* graph, TF_Operation* op,
                                 TF_Operation* input) {
  int i;
  TF_Operation** p;
  if (!check_op_in(graph, op, "op", NULL) ||
      !check_op_in(graph, input, "input", NULL) || input == op) {
    return; /* no status to report through; nothing changes */
  }
  pthread_mutex_lock(&graph->mu);
  for (i = 0; i < op->num_control_inputs; i++) {
    if (op->control_inputs[i] == input) {
      pthread_mutex_unlock(&graph->mu);
      return;
    }
  }
  p = (TF_Operation**)tfe_realloc(
      op->control_inputs,
      (size_t)(op->num_control_inputs + 1) * sizeof(TF_Operation*));
  if (p == NULL || !control_outputs_reserve(input)) {
    if (p != NULL) op->control_inputs = p;
    pthread_mutex_unlock(&graph->mu);
    return;
  }
  op->control_inputs = p;
  p[op->num_control_inputs++] = input;
  input->control_outputs[input->num_control_outputs++] = op;
  atomic_fetch_add(&graph->generation, 1);
  pthread_mutex_unlock(&graph->mu);
}

void TF_RemoveAllControlInputs(TF_Graph* graph, TF_Operation* op) {
  int i;
  if (!check_op_in(graph, op, "op", NULL)) return;
  pthread_mutex_lock(&graph->mu);
  for (i = 0; i < op->num_control_inputs; i++) {
    control_output_remove(op->control_inputs[i], op);
  }
  op->num_control_inputs = 0;
  atomic_fetch_add(&graph->generation, 1);
  pthread_mutex_unlock(&graph->mu);
}

void TF_SetRequestedDevice(TF_Graph* graph, TF_Operation* op,
                           const char* device) {
  char* d;
  if (!check_op_in(graph, op, "op", NULL)) return;
  d = tfe_strdup(device != NULL ? device : "");
  if (d == NULL) return;
  pthread_mutex_lock(&graph->mu);
  if (op->device != tfe_graph_no_device) tfe_free(op->device);
  op->device = d;
  atomic_fetch_add(&graph->generation, 1);
  pthread_mutex_unlock(&graph->mu);
}

/* Inserts or replaces attr `name` of a finished operation, keeping the
 * set sorted by name. Takes *v's contents. Caller holds g->mu. */
static int op_put_attr_sorted(TF_Operation* op, const char* name,
                              tfe_attr_value* v) {
  int i, n;
  if (!tfe_attrs_put(&op->attrs, name, v)) return 0;
  /* tfe_attrs_put appends new names; move the last one into place. */
  n = op->attrs.count;
  for (i = n - 1; i > 0; i--) {
    tfe_attr_entry tmp;
    if (strcmp(op->attrs.items[i - 1].name, op->attrs.items[i].name) <= 0) {
      break;
    }
    tmp = op->attrs.items[i - 1];
    op->attrs.items[i - 1] = op->attrs.items[i];
    op->attrs.items[i] = tmp;
  }
  return 1;
}

void TF_SetAttr(TF_Graph* graph, TF_Operation* op, const char* attr_name,
                TF_Buffer* attr_value_proto, TF_Status* status) {
  tfe_attr_value v;
  if (!check_op_in(graph, op, "op", status)) return;
  if (attr_name == NULL || attr_value_proto == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SetAttr: attr_name and attr_value_proto must not be "
                    "NULL");
    return;
  }
  if (!tfe_attr_proto_decode(attr_value_proto->data, attr_value_proto->length,
                             &v, status)) {
    return;
  }
  pthread_mutex_lock(&graph->mu);
  if (!op_put_attr_sorted(op, attr_name, &v)) {
    pthread_mutex_unlock(&graph->mu);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "TF_SetAttr: out of memory");
    return;
  }
  atomic_fetch_add(&graph->generation, 1);
  pthread_mutex_unlock(&graph->mu);
  tfe_status_ok(status);
}

void TF_ClearAttr(TF_Graph* graph, TF_Operation* op, const char* attr_name,
                  TF_Status* status) {
  int i;
  if (!check_op_in(graph, op, "op", status)) return;
  if (attr_name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_ClearAttr: attr_name is NULL");
    return;
  }
  pthread_mutex_lock(&graph->mu);
  for (i = 0; i < op->attrs.count; i++) {
    if (strcmp(op->attrs.items[i].name, attr_name) == 0) {
      if (!op->attrs.items[i].name_static) {
        tfe_free(op->attrs.items[i].name);
      }
      tfe_attr_value_clear(&op->attrs.items[i].value);
      memmove(&op->attrs.items[i], &op->attrs.items[i + 1],
              (size_t)(op->attrs.count - i - 1) * sizeof(tfe_attr_entry));
      op->attrs.count--;
      atomic_fetch_add(&graph->generation, 1);
      break;
    }
  }
  pthread_mutex_unlock(&graph->mu);
  tfe_status_ok(status); /* clearing a missing attr is fine, as in TF */
}

/* Stores the FullTypeDef bytes as the node's experimental_type. TF has no
 * status here and ignores a proto it cannot parse; so does tfe. */
void TF_SetFullType(TF_Graph* graph, TF_Operation* op,
                    const TF_Buffer* full_type_proto) {
  unsigned char* copy = NULL;
  size_t len;
  if (!check_op_in(graph, op, "op", NULL) || full_type_proto == NULL) return;
  len = full_type_proto->length;
  if (len > 0 && (full_type_proto->data == NULL ||
                  !tfe_pb_well_formed(full_type_proto->data, len))) {
    return;
  }
  if (len > 0) {
    copy = (unsigned char*)tfe_malloc(len);
    if (copy == NULL) return;
    memcpy(copy, full_type_proto->data, len);
  }
  pthread_mutex_lock(&graph->mu);
  tfe_free(op->full_type);
  op->full_type = copy;
  op->full_type_len = len;
  if (copy == NULL) {
    /* an empty FullTypeDef is a present but empty message */
    op->full_type = (unsigned char*)tfe_malloc(1);
    op->full_type_len = 0;
  }
  atomic_fetch_add(&graph->generation, 1);
  pthread_mutex_unlock(&graph->mu);
}

void TF_SetRequireShapeInferenceFns(TF_Graph* graph, bool require) {
  if (!graph_live(graph)) return;
  pthread_mutex_lock(&graph->mu);
  graph->require_shape_fns = require ? 1 : 0;
  pthread_mutex_unlock(&graph->mu);
}

/* CppShapeInferenceResult.HandleData: is_set 1, shape_and_type 2
 * {shape 1 (TensorShapeProto), dtype 2, type 4 (FullTypeDef)}. */
TF_Buffer* TF_GetHandleShapeAndType(TF_Graph* graph, TF_Output output) {
  tfe_pbw out = {0};
  const tfe_handle_data* h;
  int i;
  if (!check_output(graph, output, NULL)) return NULL;
  pthread_mutex_lock(&graph->mu);
  h = tfe_graph_handle_data_of(output.oper, output.index);
  if (h == NULL) {
    pthread_mutex_unlock(&graph->mu);
    return NULL;
  }
  tfe_pbw_uint(&out, 1, 1);
  for (i = 0; i < h->num; i++) {
    tfe_pbw st = {0}, shape = {0};
    tfe_pb_shape(&shape, h->shapes[i].dims, h->shapes[i].num_dims);
    tfe_pbw_sub(&st, 1, &shape);
    if (h->dtypes[i] != 0) tfe_pbw_uint(&st, 2, (uint64_t)h->dtypes[i]);
    tfe_pbw_sub(&out, 2, &st);
  }
  pthread_mutex_unlock(&graph->mu);
  return tfe_pb_to_buffer(&out);
}

/* Reads one HandleShapeAndType message into entry k of *h. */
static int read_shape_and_type(tfe_pbr* r, tfe_handle_data* h, int k,
                               TF_Status* s) {
  int f, w;
  uint64_t u;
  h->shapes[k].num_dims = -1;
  h->dtypes[k] = (TF_DataType)0;
  while (r->p < r->end) {
    tfe_pbr sub;
    if (!tfe_pbr_tag(r, &f, &w)) return 0;
    if (f == 1 && w == 2) {
      tfe_attr_value v;
      if (!tfe_pbr_len(r, &sub) ||
          !tfe_graph_decode_shape_proto(sub.p, (size_t)(sub.end - sub.p), &v,
                                        s)) {
        return 0;
      }
      tfe_free(h->shapes[k].dims);
      h->shapes[k] = v.v.shape; /* taken */
      v.v.shape.dims = NULL;
      tfe_attr_value_clear(&v);
    } else if (f == 2 && w == 0) {
      if (!tfe_pbr_varint(r, &u)) return 0;
      h->dtypes[k] = (TF_DataType)u;
    } else if (!tfe_pbr_skip(r, f, w)) {
      return 0;
    }
  }
  return 1;
}

void TF_SetHandleShapeAndType(TF_Graph* graph, TF_Output output,
                              const void* proto, size_t proto_len,
                              TF_Status* status) {
  tfe_handle_data h;
  tfe_pbr r;
  int f, w, n = 0, ok = 1;
  memset(&h, 0, sizeof h);
  if (!check_output(graph, output, status)) return;
  if (proto == NULL && proto_len > 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SetHandleShapeAndType: proto is NULL");
    return;
  }
  /* First pass: count the entries. */
  r.p = (const unsigned char*)proto;
  r.end = proto == NULL ? r.p : r.p + proto_len;
  while (r.p < r.end && ok) {
    tfe_pbr sub;
    ok = tfe_pbr_tag(&r, &f, &w);
    if (!ok) break;
    if (f == 2 && w == 2) {
      ok = tfe_pbr_len(&r, &sub);
      n++;
    } else {
      ok = tfe_pbr_skip(&r, f, w);
    }
  }
  if (ok && n > 0) {
    h.dtypes = (TF_DataType*)tfe_calloc((size_t)n, sizeof(TF_DataType));
    h.shapes = (tfe_shape*)tfe_calloc((size_t)n, sizeof(tfe_shape));
    if (h.dtypes == NULL || h.shapes == NULL) {
      tfe_free(h.dtypes);
      tfe_free(h.shapes);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TF_SetHandleShapeAndType: out of memory");
      return;
    }
    h.num = n;
    r.p = (const unsigned char*)proto;
    n = 0;
    while (r.p < r.end && ok) {
      tfe_pbr sub;
      ok = tfe_pbr_tag(&r, &f, &w);
      if (!ok) break;
      if (f == 2 && w == 2) {
        ok = tfe_pbr_len(&r, &sub) && read_shape_and_type(&sub, &h, n++, NULL);
      } else {
        ok = tfe_pbr_skip(&r, f, w);
      }
    }
  }
  if (!ok) {
    tfe_graph_handle_data_clear(&h);
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Couldn't deserialize HandleData proto");
    return;
  }
  pthread_mutex_lock(&graph->mu);
  ok = tfe_graph_handle_data_set(output.oper, output.index, &h);
  if (ok) atomic_fetch_add(&graph->generation, 1);
  pthread_mutex_unlock(&graph->mu);
  if (!ok) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_SetHandleShapeAndType: out of memory");
    return;
  }
  tfe_status_ok(status);
}

/* As in TF: the new edge fills the While node's first data input that
 * has no edge (TF's graphs may hold a While node whose input types outnumber
 * its edges); when every input has one, TF's index check fails. */
void TF_AddWhileInputHack(TF_Graph* graph, TF_Output new_src,
                          TF_Operation* dst, TF_Status* status) {
  int i;
  if (!check_op_in(graph, dst, "dst", status)) return;
  if (strcmp(dst->op_type, "While") != 0 &&
      strcmp(dst->op_type, "StatelessWhile") != 0) {
    tfe_status_setf(status, TF_INTERNAL,
                    "dst argument to AddWhileEdgeHack should be a While op, "
                    "got: {name:'%s' op:'%s'}",
                    dst->name, dst->op_type);
    return;
  }
  if (!check_output(graph, new_src, status)) return;
  pthread_mutex_lock(&graph->mu);
  for (i = 0; i < dst->num_inputs; i++) {
    if (dst->inputs[i].oper == NULL) break;
  }
  if (i == dst->num_inputs) {
    pthread_mutex_unlock(&graph->mu);
    tfe_status_setf(status, TF_OUT_OF_RANGE,
                    "Node '%s' (type: '%s', num of inputs: %d) does not have "
                    "input %d",
                    dst->name, dst->op_type, dst->num_inputs, i);
    return;
  }
  if (!tfe_graph_set_input(graph, dst, i, new_src)) {
    pthread_mutex_unlock(&graph->mu);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_AddWhileInputHack: out of memory");
    return;
  }
  pthread_mutex_unlock(&graph->mu);
  tfe_status_ok(status);
}
