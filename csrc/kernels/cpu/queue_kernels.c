/* CPU kernels: queues (FIFOQueueV2, PaddingFIFOQueueV2, RandomShuffleQueueV2,
 * PriorityQueueV2, their TF 1 forms, and the ops that use them), with
 * TensorFlow 2.21's semantics.
 *
 * A priority queue has one more component than its component_types: an
 * int64 scalar priority in front (its shapes get a [] in front too when
 * given). Its elements live in a binary heap ordered by priority, smallest
 * first; the heap is sifted exactly as libstdc++'s std::priority_queue
 * that TF uses, so elements of equal priority come out in TF's order. As
 * in TF, its DequeueMany waits until the whole batch is there, and a
 * DequeueUpTo on a closed queue holding fewer elements than asked takes
 * them and then fails (they are lost). A priority queue without shapes
 * never matches its own node (TF compares the stored shapes with the
 * requested ones plus the priority's []), so making one fails.
 *
 * A queue is a resource (kernels/resource.h, kind TFE_RESOURCE_QUEUE) whose
 * object is a tfe_queue: a bounded store of tuples of tensors plus two
 * lists of pending "attempts", one for enqueues (and closes) and one for
 * dequeues. As in TF, attempts are served strictly in arrival order within
 * each list: an attempt at the head of a list runs until it cannot make
 * progress, and nothing behind it runs before it completes. After any change
 * the queue "flushes": it runs the head of each list in turn until neither
 * makes progress. A DequeueMany takes elements one at a time as they arrive
 * (so it never needs more room than the queue has), and puts them back if
 * the queue is closed before it has enough.
 *
 * Kernels block the calling thread: a kernel adds its attempt, flushes, and
 * waits on the queue's condition variable until the attempt completed. A
 * cancellation manager (tfe_kernel_context.cancel) ends a waiting attempt
 * with CANCELLED through a callback registered for the wait.
 *
 * The kernels that make queues keep, per kernel instance, the queue they
 * made for each (context, node) they ran for, so running the same node
 * again returns the same queue (TF's ResourceOpKernel). A V2 queue without
 * a shared_name is private to that node and is not registered; one with a
 * shared_name is registered under (context, device, container, name), and
 * a second node asking for it must describe the same queue. TF 1's ops
 * (FIFOQueue, QueueEnqueue, ...) hand out a Ref(string) handle holding
 * [container, name] instead, so their queues are always registered (an
 * unnamed one as "_<n>_<node>") and the access ops look them up by name. */
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/dataflow2_common.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/tf_tstring.h"

enum { QK_FIFO = 0, QK_PADDING = 1, QK_SHUFFLE = 2, QK_PRIORITY = 3 };

/* TF's DT_STRING_REF, only for rendering signatures in messages. */
#define QUEUE_STRING_REF ((TF_DataType)(TF_STRING + 100))

/* Type names TF uses in messages and the op each kind is made by. */
static const char* const kTypeName[] = {"FIFOQueue", "PaddingFIFOQueue",
                                        "RandomShuffleQueue", "PriorityQueue"};

/* The name TF's closed-queue messages use: a padding queue reports as the
 * FIFO queue it derives from. */
static const char* closed_name(int kind) {
  return kTypeName[kind == QK_PADDING ? QK_FIFO : kind];
}

/* ------------------------------------------------------------------------
 * Philox-4x32-10 with TF's single-sample adapter: the random shuffle queue
 * picks element `next() % size`, as TF's does, so seeded queues dequeue in
 * TF's order. */

typedef struct qrng {
  uint32_t ctr[4];
  uint32_t key[2];
  uint32_t buf[4];
  int used;
} qrng;

static void qrng_block(qrng* g) {
  uint32_t c0 = g->ctr[0], c1 = g->ctr[1], c2 = g->ctr[2], c3 = g->ctr[3];
  uint32_t k0 = g->key[0], k1 = g->key[1];
  int r;
  for (r = 0; r < 10; r++) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c0;
    uint64_t p1 = (uint64_t)0xCD9E8D57u * c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1;
    c3 = (uint32_t)p0;
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  g->buf[0] = c0;
  g->buf[1] = c1;
  g->buf[2] = c2;
  g->buf[3] = c3;
  /* 128-bit counter + 1 */
  if (++g->ctr[0] == 0 && ++g->ctr[1] == 0 && ++g->ctr[2] == 0) ++g->ctr[3];
}

static void qrng_seed(qrng* g, uint64_t seed, uint64_t seed2) {
  g->key[0] = (uint32_t)seed;
  g->key[1] = (uint32_t)(seed >> 32);
  g->ctr[0] = 0;
  g->ctr[1] = 0;
  g->ctr[2] = (uint32_t)seed2;
  g->ctr[3] = (uint32_t)(seed2 >> 32);
  g->used = 4;
}

static uint32_t qrng_next(qrng* g) {
  if (g->used == 4) {
    qrng_block(g);
    g->used = 0;
  }
  return g->buf[g->used++];
}

/* A seed for queues whose seeds are both 0 ("random"). */
static uint64_t qrng_fresh_seed(void) {
  static _Atomic uint64_t counter;
  struct timespec ts;
  uint64_t z;
  clock_gettime(CLOCK_REALTIME, &ts);
  z = ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^
      (atomic_fetch_add(&counter, 1) * 0x9E3779B97F4A7C15ull) ^
      (uint64_t)(uintptr_t)&ts;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* ------------------------------------------------------------------------
 * Queue configuration (from the attrs of the op that makes the queue). */

typedef struct qconfig {
  int kind;
  int n;                /* components */
  TF_DataType* dtypes;  /* n */
  int num_shapes;       /* 0 (unconstrained) or n */
  tfe_shape* shapes;    /* num_shapes; dims -1 only for padding queues */
  int32_t capacity;     /* INT32_MAX when unbounded */
  int32_t min_after_dequeue;
  int64_t seed, seed2;
  char* container;
  char* shared_name;
  int v1; /* made by a TF 1 op (Ref(string) handle) */
} qconfig;

static void qconfig_free(qconfig* c) {
  int i;
  for (i = 0; i < c->num_shapes; i++) tfe_free(c->shapes[i].dims);
  tfe_free(c->shapes);
  tfe_free(c->dtypes);
  tfe_free(c->container);
  tfe_free(c->shared_name);
  memset(c, 0, sizeof(*c));
}

/* Appends TF's rendering of a partial shape: "[2,?]", "<unknown>". */
static void shape_text(const tfe_shape* s, char* buf, size_t cap) {
  size_t len = 0;
  int i;
  if (cap == 0) return;
  buf[0] = '\0';
  if (s->num_dims < 0) {
    snprintf(buf, cap, "<unknown>");
    return;
  }
  len += (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < s->num_dims && len < cap; i++) {
    if (s->dims[i] < 0) {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",?" : "?");
    } else {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                              (long long)s->dims[i]);
    }
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* "[[2], []]" */
static void shape_list_text(const tfe_shape* shapes, int n, char* buf,
                            size_t cap) {
  size_t len = 0;
  int i;
  char one[256];
  if (cap == 0) return;
  len += (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < n && len < cap; i++) {
    shape_text(&shapes[i], one, sizeof one);
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", one);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* "float, int32" (TF's DataTypeSliceString). */
static void dtype_list_text(const TF_DataType* t, int n, char* buf,
                            size_t cap) {
  size_t len = 0;
  int i;
  if (cap == 0) return;
  buf[0] = '\0';
  for (i = 0; i < n && len < cap; i++) {
    const char* name = t[i] == TF_RESOURCE       ? "resource"
                       : t[i] == QUEUE_STRING_REF ? "string_ref"
                                                  : tfe_dtype_short_name(t[i]);
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "",
                            name != NULL ? name : "unknown");
  }
}

static int qconfig_from_attrs(const tfe_op_def* def, const tfe_attrs* attrs,
                              qconfig* c, TF_Status* s) {
  const TF_DataType* types = NULL;
  const tfe_attr_value* shapes;
  const char* str;
  size_t len;
  int64_t v;
  int n = 0, i, pre;
  memset(c, 0, sizeof(*c));
  c->kind = strncmp(def->name, "PaddingFIFOQueue", 16) == 0     ? QK_PADDING
            : strncmp(def->name, "RandomShuffleQueue", 18) == 0 ? QK_SHUFFLE
            : strncmp(def->name, "PriorityQueue", 13) == 0      ? QK_PRIORITY
                                                                : QK_FIFO;
  /* TF 1's ops (FIFOQueue, ...) hand out a Ref(string) handle. */
  c->v1 = strcmp(def->name + strlen(def->name) - 2, "V2") != 0;
  if (!tfe_attrs_get_type_list(attrs, "component_types", &types, &n, s)) {
    return 0;
  }
  /* A priority queue's first component is the int64 priority. */
  pre = c->kind == QK_PRIORITY;
  c->n = n + pre;
  c->dtypes = (TF_DataType*)tfe_malloc(sizeof(TF_DataType) *
                                       (size_t)(c->n > 0 ? c->n : 1));
  if (c->dtypes == NULL) goto oom;
  if (pre) c->dtypes[0] = TF_INT64;
  if (n > 0) memcpy(c->dtypes + pre, types, sizeof(TF_DataType) * (size_t)n);
  if (!tfe_attrs_get_int(attrs, "capacity", &v, s)) goto fail;
  if (!tfe_fits_int32(v)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, TFE_ATTR_INT32_RANGE_FMT,
                    "capacity", (long long)v);
    goto fail;
  }
  c->capacity = v < 0 ? INT32_MAX : (int32_t)v;
  if (!tfe_attrs_get_string(attrs, "container", &str, &len, s)) goto fail;
  c->container = tfe_strdup(str);
  if (!tfe_attrs_get_string(attrs, "shared_name", &str, &len, s)) goto fail;
  c->shared_name = tfe_strdup(str);
  if (c->container == NULL || c->shared_name == NULL) goto oom;
  shapes = tfe_attrs_find(attrs, "shapes");
  if (shapes != NULL && shapes->is_list && shapes->list_size > 0) {
    if (shapes->type != TF_ATTR_SHAPE) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Attr shapes of %s is not a list of shapes", def->name);
      goto fail;
    }
    /* (calloc: a priority queue's leading shape is the scalar []) */
    c->shapes = (tfe_shape*)tfe_calloc((size_t)(shapes->list_size + pre),
                                       sizeof(tfe_shape));
    if (c->shapes == NULL) goto oom;
    c->num_shapes = shapes->list_size + pre;
    for (i = 0; i < shapes->list_size; i++) {
      const tfe_shape* src = &shapes->list.shape[i];
      tfe_shape* dst = &c->shapes[i + pre];
      int j;
      dst->num_dims = src->num_dims;
      if (src->num_dims > 0) {
        dst->dims =
            (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)src->num_dims);
        if (dst->dims == NULL) goto oom;
        memcpy(dst->dims, src->dims, sizeof(int64_t) * (size_t)src->num_dims);
      }
      /* FIFO, shuffle and priority queues read their shapes as fully
       * defined TensorShapes (an unknown rank reads as [], as in TF); a
       * padding queue allows unknown sizes (-1). */
      if (c->kind != QK_PADDING) {
        int bad = 0;
        if (src->num_dims < 0) dst->num_dims = 0;
        for (j = 0; j < src->num_dims; j++) bad |= src->dims[j] < 0;
        if (bad) {
          char t[256];
          shape_text(src, t, sizeof t);
          tfe_status_setf(s, TF_INVALID_ARGUMENT,
                          "Shape %s is not fully defined", t);
          goto fail;
        }
      } else {
        for (j = 0; j < src->num_dims; j++) {
          if (src->dims[j] < -1) {
            char t[256];
            shape_text(src, t, sizeof t);
            tfe_status_setf(s, TF_INVALID_ARGUMENT,
                            "Shape %s has dimensions with values below -1 "
                            "(where -1 means unknown)",
                            t);
            goto fail;
          }
        }
      }
    }
  }
  if (c->kind == QK_SHUFFLE) {
    if (!tfe_attrs_get_int(attrs, "min_after_dequeue", &v, s)) goto fail;
    if (!tfe_fits_int32(v)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, TFE_ATTR_INT32_RANGE_FMT,
                      "min_after_dequeue", (long long)v);
      goto fail;
    }
    c->min_after_dequeue = (int32_t)v;
    if (v < 0) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "min_after_dequeue %lld must be >= 0", (long long)v);
      goto fail;
    }
    if (v >= c->capacity) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "min_after_dequeue %lld must be < capacity %d",
                      (long long)v, (int)c->capacity);
      goto fail;
    }
    if (!tfe_attrs_get_int(attrs, "seed", &c->seed, s)) goto fail;
    if (!tfe_attrs_get_int(attrs, "seed2", &c->seed2, s)) goto fail;
  }
  return 1;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                  def->name);
fail:
  qconfig_free(c);
  return 0;
}

/* The checks TF makes when it initializes a new queue. */
static int qconfig_check_init(const qconfig* c, const char* name,
                              TF_Status* s) {
  if (c->n == 0) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Empty component types for queue %s", name);
    return 0;
  }
  if (c->num_shapes > 0 && c->num_shapes != c->n) {
    char types[512], shapes[1024];
    dtype_list_text(c->dtypes, c->n, types, sizeof types);
    shape_list_text(c->shapes, c->num_shapes, shapes, sizeof shapes);
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Different number of component types.  Types: %s, "
                    "Shapes: %s",
                    types, shapes);
    return 0;
  }
  if (c->kind == QK_PADDING && c->num_shapes != c->n) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Shapes must be provided for all components, but "
                    "received %d dtypes and %d shapes.",
                    c->n, c->num_shapes);
    return 0;
  }
  return 1;
}

static int shape_equal(const tfe_shape* a, const tfe_shape* b) {
  int i;
  if (a->num_dims != b->num_dims) return 0;
  for (i = 0; i < a->num_dims; i++) {
    if (a->dims[i] != b->dims[i]) return 0;
  }
  return 1;
}

static int shape_compatible(const tfe_shape* a, const tfe_shape* b) {
  int i;
  if (a->num_dims < 0 || b->num_dims < 0) return 1;
  if (a->num_dims != b->num_dims) return 0;
  for (i = 0; i < a->num_dims; i++) {
    if (a->dims[i] >= 0 && b->dims[i] >= 0 && a->dims[i] != b->dims[i]) {
      return 0;
    }
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * The queue. */

enum { A_ENQ, A_ENQ_MANY, A_CLOSE, A_DEQ, A_DEQ_MANY };
enum { RUN_NONE, RUN_PROGRESS, RUN_COMPLETE };

typedef struct qattempt qattempt;

typedef struct tfe_queue {
  qconfig cfg;
  char* name; /* as TF shows it: the shared name or "_<n>_<node>" */
  pthread_mutex_t mu;
  pthread_cond_t cv; /* broadcast whenever an attempt completes */
  /* Elements: a ring of tuples (each an array of cfg.n tensors). */
  TF_Tensor*** ring;
  int64_t head, count, cap;
  int closed;
  qattempt* enq; /* pending enqueue and close attempts, in order */
  qattempt* deq; /* pending dequeue attempts, in order */
  qrng rng;
} tfe_queue;

struct qattempt {
  qattempt* next;
  tfe_queue* q;
  int kind;
  int allow_small;
  int done;
  TF_Status* status; /* the kernel's status; written under q->mu */
  /* Enqueues: the components (borrowed from the kernel's inputs) and, for
   * EnqueueMany, the next row to enqueue. */
  TF_Tensor* const* comps;
  int64_t batch, next_row;
  /* Dequeues: elements still wanted, and the tuples taken so far. */
  int64_t remaining;
  TF_Tensor*** got;
  int64_t ngot, cap_got;
  /* Close */
  int cancel_pending;
};

static void tuple_free(TF_Tensor** t, int n) {
  int i;
  if (t == NULL) return;
  for (i = 0; i < n; i++) TF_DeleteTensor(t[i]);
  tfe_free(t);
}

static void queue_free(void* obj) {
  tfe_queue* q = (tfe_queue*)obj;
  int64_t i;
  if (q == NULL) return;
  for (i = 0; i < q->count; i++) {
    tuple_free(q->ring[(q->head + i) % q->cap], q->cfg.n);
  }
  tfe_free(q->ring);
  pthread_cond_destroy(&q->cv);
  pthread_mutex_destroy(&q->mu);
  tfe_free(q->name);
  qconfig_free(&q->cfg);
  tfe_free(q);
}

static tfe_queue* queue_new(const qconfig* c, const char* name) {
  tfe_queue* q = (tfe_queue*)tfe_calloc(1, sizeof(*q));
  int i;
  if (q == NULL) return NULL;
  q->name = tfe_strdup(name);
  q->cfg = *c;
  q->cfg.dtypes = (TF_DataType*)tfe_malloc(sizeof(TF_DataType) *
                                           (size_t)(c->n > 0 ? c->n : 1));
  q->cfg.container = tfe_strdup(c->container);
  q->cfg.shared_name = tfe_strdup(c->shared_name);
  q->cfg.shapes = NULL;
  q->cfg.num_shapes = 0;
  if (q->name == NULL || q->cfg.dtypes == NULL || q->cfg.container == NULL ||
      q->cfg.shared_name == NULL) {
    goto fail;
  }
  if (c->n > 0) {
    memcpy(q->cfg.dtypes, c->dtypes, sizeof(TF_DataType) * (size_t)c->n);
  }
  if (c->num_shapes > 0) {
    q->cfg.shapes =
        (tfe_shape*)tfe_calloc((size_t)c->num_shapes, sizeof(tfe_shape));
    if (q->cfg.shapes == NULL) goto fail;
    q->cfg.num_shapes = c->num_shapes;
    for (i = 0; i < c->num_shapes; i++) {
      q->cfg.shapes[i].num_dims = c->shapes[i].num_dims;
      if (c->shapes[i].num_dims > 0) {
        q->cfg.shapes[i].dims = (int64_t*)tfe_malloc(
            sizeof(int64_t) * (size_t)c->shapes[i].num_dims);
        if (q->cfg.shapes[i].dims == NULL) goto fail;
        memcpy(q->cfg.shapes[i].dims, c->shapes[i].dims,
               sizeof(int64_t) * (size_t)c->shapes[i].num_dims);
      }
    }
  }
  if (pthread_mutex_init(&q->mu, NULL) != 0) goto fail;
  if (pthread_cond_init(&q->cv, NULL) != 0) {
    pthread_mutex_destroy(&q->mu);
    goto fail;
  }
  if (c->kind == QK_SHUFFLE) {
    uint64_t s1 = (uint64_t)c->seed, s2 = (uint64_t)c->seed2;
    if (s1 == 0 && s2 == 0) {
      s1 = qrng_fresh_seed();
      s2 = qrng_fresh_seed();
    }
    qrng_seed(&q->rng, s1, s2);
  }
  return q;
fail:
  if (q->cfg.shapes != NULL) {
    for (i = 0; i < q->cfg.num_shapes; i++) tfe_free(q->cfg.shapes[i].dims);
    tfe_free(q->cfg.shapes);
  }
  tfe_free(q->cfg.dtypes);
  tfe_free(q->cfg.container);
  tfe_free(q->cfg.shared_name);
  tfe_free(q->name);
  tfe_free(q);
  return NULL;
}

/* Element i of the ring, counted from the front. */
static TF_Tensor*** ring_at(tfe_queue* q, int64_t i) {
  return &q->ring[(q->head + i) % q->cap];
}

/* ---- The priority queue's heap (q->ring from index 0, q->head 0):
 * dataflow2_common's df2_heap_*, TF's std::priority_queue order. */

static int64_t heap_key(const void* e) {
  TF_Tensor* const* t = *(TF_Tensor** const*)e;
  return *(const int64_t*)kutil_data(t[0]);
}

/* Takes the heap's top. */
static TF_Tensor** heap_pop(tfe_queue* q) {
  TF_Tensor** top;
  df2_heap_pop(q->ring, sizeof(TF_Tensor**), q->count, heap_key, &top);
  q->count--;
  return top;
}

static int ring_grow(tfe_queue* q) {
  int64_t ncap = q->cap < 8 ? 8 : q->cap * 2, i;
  TF_Tensor*** nr;
  if (q->count < q->cap) return 1;
  nr = (TF_Tensor***)tfe_malloc(sizeof(TF_Tensor**) * (size_t)ncap);
  if (nr == NULL) return 0;
  for (i = 0; i < q->count; i++) nr[i] = *ring_at(q, i);
  tfe_free(q->ring);
  q->ring = nr;
  q->cap = ncap;
  q->head = 0;
  return 1;
}

/* Adds an element at the back (a priority queue: into its heap). */
static int ring_push_back(tfe_queue* q, TF_Tensor** t) {
  if (!ring_grow(q)) return 0;
  if (q->cfg.kind == QK_PRIORITY) {
    q->ring[q->count++] = t;
    df2_heap_push(q->ring, sizeof(TF_Tensor**), q->count, heap_key);
    return 1;
  }
  q->ring[(q->head + q->count) % q->cap] = t;
  q->count++;
  return 1;
}

static int ring_push_front(tfe_queue* q, TF_Tensor** t) {
  if (!ring_grow(q)) return 0;
  q->head = (q->head + q->cap - 1) % q->cap;
  q->ring[q->head] = t;
  q->count++;
  return 1;
}

/* Takes the next element: the front one, the heap's top for a priority
 * queue, or for a shuffle queue a random one (replaced by the last, as TF
 * does). */
static TF_Tensor** ring_take(tfe_queue* q) {
  TF_Tensor** t;
  if (q->cfg.kind == QK_PRIORITY) return heap_pop(q);
  if (q->cfg.kind == QK_SHUFFLE) {
    int64_t idx = (int64_t)(qrng_next(&q->rng) % (uint64_t)q->count);
    TF_Tensor*** slot = ring_at(q, idx);
    t = *slot;
    *slot = *ring_at(q, q->count - 1);
    q->count--;
    return t;
  }
  t = q->ring[q->head];
  q->head = (q->head + 1) % q->cap;
  q->count--;
  return t;
}

static size_t elem_bytes(TF_DataType dt) { return kutil_esize(dt); }

/* New tensor holding row `row` of t (dims[1:]); NULL on OOM. */
static TF_Tensor* slice_row(const TF_Tensor* t, int64_t row) {
  size_t esz = elem_bytes(t->dtype);
  int64_t per = kutil_dims_prod(t->dims, 1, t->num_dims);
  TF_Tensor* out = TF_AllocateTensor(t->dtype, t->dims + 1, t->num_dims - 1,
                                     (size_t)per * esz);
  if (out == NULL) return NULL;
  if (per > 0) {
    kutil_copy(t->dtype, kutil_data(out),
               (const char*)kutil_data(t) + (size_t)(row * per) * esz, per);
  }
  return out;
}

/* Completes attempt a with an error (under q->mu). */
static void attempt_fail(qattempt* a, TF_Code code, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void attempt_fail(qattempt* a, TF_Code code, const char* fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  TF_SetStatus(a->status, code, msg);
}

/* Gives back the tuples a dequeue took (the queue closed before it had
 * enough): to the front for FIFO queues, to the back for shuffle queues,
 * in their original order. */
static void restore_taken(tfe_queue* q, qattempt* a) {
  int64_t i;
  for (i = a->ngot - 1; i >= 0; i--) {
    int ok = q->cfg.kind == QK_SHUFFLE ? ring_push_back(q, a->got[i])
                                       : ring_push_front(q, a->got[i]);
    if (!ok) {
      /* Only when the ring cannot grow: the element is lost, as TF loses
       * one it cannot copy back. */
      tuple_free(a->got[i], q->cfg.n);
      TF_SetStatus(a->status, TF_DATA_LOSS,
                   "Failed to restore element from partially-dequeued batch "
                   "to the queue: out of memory");
    }
    a->got[i] = NULL;
  }
  a->ngot = 0;
}

/* A priority element must be a scalar (TF checks it as it enqueues). */
static int priority_ok(qattempt* a, int rank, const int64_t* dims) {
  kutil_shape_buf b;
  if (rank == 0) return 1;
  attempt_fail(a, TF_INVALID_ARGUMENT,
               "Expected the priority element to be a scalar, but received "
               "shape: %s",
               kutil_shape_str(dims, rank, b.s, sizeof b.s));
  return 0;
}

/* A priority queue's DequeueMany / DequeueUpTo: waits for the whole batch
 * (or, closed with allow_small, takes what is there), as TF's does. */
static int run_priority_deq_many(tfe_queue* q, qattempt* a) {
  int64_t s = q->count;
  int result = RUN_NONE;
  if (q->closed && (s == 0 || (!a->allow_small && s < a->remaining))) {
    attempt_fail(a, TF_OUT_OF_RANGE,
                 "PriorityQueue '%s' is closed and has insufficient elements "
                 "(requested %lld, current size %lld)",
                 q->name, (long long)a->remaining, (long long)s);
    return RUN_COMPLETE;
  }
  if (s < a->remaining && (s == 0 || !(q->closed && a->allow_small))) {
    return RUN_NONE;
  }
  for (; s > 0; s--) {
    result = RUN_PROGRESS;
    a->got[a->ngot++] = ring_take(q);
    if (--a->remaining == 0) return RUN_COMPLETE;
  }
  return result;
}

static int run_attempt(tfe_queue* q, qattempt* a) {
  const int n = q->cfg.n;
  switch (a->kind) {
    case A_CLOSE:
      if (q->closed) {
        attempt_fail(a, TF_CANCELLED, "Queue '%s' is already closed.",
                     q->name);
      } else {
        q->closed = 1;
      }
      return RUN_COMPLETE;
    case A_ENQ: {
      TF_Tensor** t;
      int i;
      if (q->closed) {
        attempt_fail(a, TF_CANCELLED, "%s '%s' is closed.",
                     closed_name(q->cfg.kind),
                     q->name);
        return RUN_COMPLETE;
      }
      if (q->count >= q->cfg.capacity) return RUN_NONE;
      if (q->cfg.kind == QK_PRIORITY && !priority_ok(a, a->comps[0]->num_dims,
                                                     a->comps[0]->dims)) {
        return RUN_COMPLETE;
      }
      t = (TF_Tensor**)tfe_calloc((size_t)n, sizeof(TF_Tensor*));
      if (t == NULL) goto oom;
      for (i = 0; i < n; i++) {
        t[i] = df2_share(a->comps[i]);
        if (t[i] == NULL) {
          tuple_free(t, n);
          goto oom;
        }
      }
      if (!ring_push_back(q, t)) {
        tuple_free(t, n);
        goto oom;
      }
      return RUN_COMPLETE;
    }
    case A_ENQ_MANY: {
      int result = RUN_NONE;
      if (q->closed) {
        attempt_fail(a, TF_CANCELLED, "%s '%s' is closed.",
                     closed_name(q->cfg.kind),
                     q->name);
        return RUN_COMPLETE;
      }
      while (q->count < q->cfg.capacity) {
        TF_Tensor** t;
        int i;
        if (q->cfg.kind == QK_PRIORITY &&
            !priority_ok(a, a->comps[0]->num_dims - 1, a->comps[0]->dims + 1)) {
          return RUN_COMPLETE;
        }
        result = RUN_PROGRESS;
        t = (TF_Tensor**)tfe_calloc((size_t)n, sizeof(TF_Tensor*));
        if (t == NULL) goto oom;
        for (i = 0; i < n; i++) {
          t[i] = slice_row(a->comps[i], a->next_row);
          if (t[i] == NULL) {
            tuple_free(t, n);
            goto oom;
          }
        }
        if (!ring_push_back(q, t)) {
          tuple_free(t, n);
          goto oom;
        }
        if (++a->next_row == a->batch) return RUN_COMPLETE;
      }
      return result;
    }
    case A_DEQ: {
      int64_t avail = q->count;
      if (q->closed && avail == 0) {
        attempt_fail(a, TF_OUT_OF_RANGE,
                     "%s '%s' is closed and has insufficient elements "
                     "(requested 1, current size 0)",
                     closed_name(q->cfg.kind),
                     q->name);
        return RUN_COMPLETE;
      }
      if (q->cfg.kind == QK_SHUFFLE && !q->closed) {
        avail -= q->cfg.min_after_dequeue;
      }
      if (avail <= 0) return RUN_NONE;
      a->got[0] = ring_take(q);
      a->ngot = 1;
      return RUN_COMPLETE;
    }
    case A_DEQ_MANY: {
      int64_t avail = q->count;
      int result = RUN_NONE;
      if (q->cfg.kind == QK_PRIORITY) return run_priority_deq_many(q, a);
      if (q->closed && avail < a->remaining) {
        restore_taken(q, a);
        if (a->allow_small && q->count > 0) {
          /* DequeueUpTo on a closed queue: everything that is left. */
          avail = q->count;
          a->remaining = avail;
          if (a->cap_got < avail) {
            TF_Tensor*** g = (TF_Tensor***)tfe_realloc(
                a->got, sizeof(TF_Tensor**) * (size_t)avail);
            if (g == NULL) goto oom;
            a->got = g;
            a->cap_got = avail;
          }
        } else {
          /* Wait for enqueues still pending: they may add elements
           * (they fail at once on the closed queue). */
          if (a->allow_small && q->enq != NULL) return RUN_PROGRESS;
          if (TF_GetCode(a->status) == TF_OK) {
            attempt_fail(a, TF_OUT_OF_RANGE,
                         "%s '%s' is closed and has insufficient elements "
                         "(requested %lld, current size %lld)",
                         kTypeName[q->cfg.kind], q->name,
                         (long long)a->remaining, (long long)q->count);
          }
          return RUN_COMPLETE;
        }
      }
      if (q->cfg.kind == QK_SHUFFLE && !q->closed) {
        avail -= q->cfg.min_after_dequeue;
      }
      for (; avail > 0; avail--) {
        result = RUN_PROGRESS;
        a->got[a->ngot++] = ring_take(q);
        if (--a->remaining == 0) return RUN_COMPLETE;
      }
      return result;
    }
    default:
      return RUN_COMPLETE;
  }
oom:
  attempt_fail(a, TF_RESOURCE_EXHAUSTED, "out of memory in queue '%s'",
               q->name);
  return RUN_COMPLETE;
}

/* Runs the head of *list until it cannot progress; completed attempts
 * leave the list and are marked done. Returns 1 when anything changed. */
static int try_list(tfe_queue* q, qattempt** list) {
  int progress = 0;
  while (*list != NULL) {
    qattempt* a = *list;
    int r = run_attempt(q, a);
    if (r == RUN_NONE) break;
    progress = 1;
    if (r == RUN_PROGRESS) break;
    *list = a->next;
    a->next = NULL;
    a->done = 1;
    pthread_cond_broadcast(&q->cv);
  }
  return progress;
}

/* Hold q->mu. */
static void flush_locked(tfe_queue* q) {
  int changed;
  do {
    changed = try_list(q, &q->enq);
    changed = try_list(q, &q->deq) || changed;
  } while (changed);
}

static void list_append(qattempt** list, qattempt* a) {
  while (*list != NULL) list = &(*list)->next;
  *list = a;
}

static int list_remove(qattempt** list, qattempt* a) {
  while (*list != NULL) {
    if (*list == a) {
      *list = a->next;
      a->next = NULL;
      return 1;
    }
    list = &(*list)->next;
  }
  return 0;
}

static int is_enqueue_kind(int kind) {
  return kind == A_ENQ || kind == A_ENQ_MANY || kind == A_CLOSE;
}

/* Cancellation callback: ends the attempt if it is still pending. */
static void attempt_cancel(void* arg) {
  qattempt* a = (qattempt*)arg;
  tfe_queue* q = a->q;
  pthread_mutex_lock(&q->mu);
  if (list_remove(is_enqueue_kind(a->kind) ? &q->enq : &q->deq, a)) {
    TF_SetStatus(a->status, TF_CANCELLED,
                 is_enqueue_kind(a->kind) ? "Enqueue operation was cancelled"
                                          : "Dequeue operation was cancelled");
    a->done = 1;
    pthread_cond_broadcast(&q->cv);
    flush_locked(q);
  }
  pthread_mutex_unlock(&q->mu);
}

/* Adds the attempt, flushes and waits until it completed (or was
 * cancelled through cm). The attempt's status holds the outcome. */
static void attempt_run(tfe_queue* q, qattempt* a,
                        TFE_CancellationManager* cm) {
  TFE_CancellationToken token = -1;
  int registered = 0;
  a->q = q;
  pthread_mutex_lock(&q->mu);
  if (cm != NULL) {
    TFE_CancelCallback cb;
    cb.callback = attempt_cancel;
    cb.context = a;
    token = TFE_CancellationManagerGetToken(cm);
    /* Registered under q->mu: the callback takes q->mu, so it cannot look
     * for the attempt before the attempt is in its list. */
    registered = TFE_CancellationManagerRegisterCallback(cm, token, &cb,
                                                         "queue attempt");
    if (!registered) {
      pthread_mutex_unlock(&q->mu);
      TF_SetStatus(a->status, TF_CANCELLED,
                   is_enqueue_kind(a->kind)
                       ? "Enqueue operation was cancelled"
                       : "Dequeue operation was cancelled");
      return;
    }
  }
  list_append(is_enqueue_kind(a->kind) ? &q->enq : &q->deq, a);
  flush_locked(q);
  while (!a->done) pthread_cond_wait(&q->cv, &q->mu);
  pthread_mutex_unlock(&q->mu);
  /* Waits for a callback that is running, so `a` may then go away. */
  if (registered) TFE_CancellationManagerDeregisterCallback(cm, token);
}

/* Closing with cancel_pending_enqueues: close now and fail every pending
 * enqueue with CANCELLED. */
static void close_and_cancel(tfe_queue* q) {
  qattempt* a;
  pthread_mutex_lock(&q->mu);
  q->closed = 1;
  while ((a = q->enq) != NULL) {
    q->enq = a->next;
    a->next = NULL;
    TF_SetStatus(a->status, TF_CANCELLED, "Enqueue operation was cancelled");
    a->done = 1;
  }
  pthread_cond_broadcast(&q->cv);
  flush_locked(q);
  pthread_mutex_unlock(&q->mu);
}

/* ------------------------------------------------------------------------
 * Finding the queue behind a handle input. */

#define QUEUE_TYPE_NAME "N10tensorflow14QueueInterfaceE"

/* The queue of input 0 with a new reference on its resource (*res), or
 * NULL with k->status set. A TF 1 handle is a Ref(string) holding
 * [container, name] (TF's GetResourceFromContext). */
static tfe_queue* queue_from_input(tfe_kernel_context* k, tfe_resource** res) {
  const TF_Tensor* t = k->num_inputs >= 1 ? k->inputs[0] : NULL;
  tfe_resource* r;
  *res = NULL;
  if (k->num_inputs >= 1 && k->op_def->num_inputs > 0 &&
      k->op_def->inputs[0].is_ref) {
    if (t == NULL || t->dtype != TF_STRING) {
      KUTIL_FAIL(k, TF_FAILED_PRECONDITION,
                 "%s: the queue handle is not initialized", k->op_def->name);
      return NULL;
    }
  } else if (t == NULL || tfe_resource_of_tensor(t) == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: input 0 is not a queue handle (expected a DT_RESOURCE "
               "tensor made by a queue op)",
               k->op_def->name);
    return NULL;
  }
  r = df2_lookup_handle(k, t, QUEUE_TYPE_NAME);
  if (r == NULL) return NULL;
  if (!df2_check_kind(k, r, r->kind == TFE_RESOURCE_QUEUE && r->object != NULL,
                      "queue")) {
    return NULL;
  }
  *res = r;
  return (tfe_queue*)r->object;
}

static int check_timeout(tfe_kernel_context* k) {
  int64_t t = kutil_attr_int64(k, "timeout_ms", -1);
  if (t != -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Timeout not supported yet.");
    return 0;
  }
  return 1;
}

/* TF's OpKernelContext::MatchSignature for the queue ops. */
static int match_signature(tfe_kernel_context* k, const tfe_queue* q,
                           int extra_int32, int enqueue) {
  const int n = q->cfg.n;
  int i, mismatch = 0, nin_expect = 1 + extra_int32 + (enqueue ? n : 0);
  int nout_expect = enqueue ? 0 : n;
  TF_DataType have_in[64], want_in[64];
  char hi[1024], ho[1024], wi[1024], wo[1024];
  if (k->num_inputs != nin_expect || k->num_outputs != nout_expect) {
    mismatch = 1;
  }
  for (i = 0; !mismatch && enqueue && i < n; i++) {
    if (k->inputs[1 + i]->dtype != q->cfg.dtypes[i]) mismatch = 1;
  }
  for (i = 0; !mismatch && !enqueue && i < n; i++) {
    if (k->output_types[i] != q->cfg.dtypes[i]) mismatch = 1;
  }
  if (!mismatch) return 1;
  for (i = 0; i < k->num_inputs && i < 64; i++) {
    have_in[i] = k->inputs[i] != NULL ? k->inputs[i]->dtype : TF_RESOURCE;
  }
  have_in[0] = k->op_def->inputs[0].is_ref ? QUEUE_STRING_REF : TF_RESOURCE;
  want_in[0] = have_in[0];
  if (extra_int32) want_in[1] = TF_INT32;
  for (i = 0; enqueue && i < n && 1 + i < 64; i++) {
    want_in[1 + i] = q->cfg.dtypes[i];
  }
  dtype_list_text(have_in, k->num_inputs < 64 ? k->num_inputs : 64, hi,
                  sizeof hi);
  dtype_list_text(k->output_types, k->num_outputs, ho, sizeof ho);
  dtype_list_text(want_in, nin_expect < 64 ? nin_expect : 64, wi, sizeof wi);
  dtype_list_text(q->cfg.dtypes, nout_expect, wo, sizeof wo);
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Signature mismatch, have: %s->%s expected: %s->%s", hi, ho, wi,
             wo);
  return 0;
}

static void tensor_shape_of(const TF_Tensor* t, tfe_shape* s) {
  s->num_dims = t->num_dims;
  s->dims = t->dims;
}

/* QueueBase::ValidateTuple (and PaddingFIFOQueue's). */
static int validate_tuple(tfe_kernel_context* k, const tfe_queue* q) {
  int i;
  if (q->cfg.num_shapes == 0) return 1;
  for (i = 0; i < q->cfg.n; i++) {
    const TF_Tensor* t = k->inputs[1 + i];
    tfe_shape ts;
    int ok;
    tensor_shape_of(t, &ts);
    ok = q->cfg.kind == QK_PADDING ? shape_compatible(&q->cfg.shapes[i], &ts)
                                   : shape_equal(&q->cfg.shapes[i], &ts);
    if (!ok) {
      char want[256];
      kutil_shape_buf got;
      shape_text(&q->cfg.shapes[i], want, sizeof want);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shape mismatch in tuple component %d. Expected %s, got %s",
                 i, want, kutil_tshape(t, &got));
      return 0;
    }
  }
  return 1;
}

/* QueueBase::ValidateManyTuple (and PaddingFIFOQueue's). */
static int validate_many_tuple(tfe_kernel_context* k, const tfe_queue* q,
                               int64_t* batch) {
  int i;
  for (i = 0; i < q->cfg.n; i++) {
    if (k->inputs[1 + i]->num_dims < 1) {
      kutil_shape_buf got;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shape mismatch in tuple component %d. Expected a tensor of "
                 "rank >= 1 to enqueue many elements from, got %s",
                 i, kutil_tshape(k->inputs[1 + i], &got));
      return 0;
    }
  }
  *batch = k->inputs[1]->dims[0];
  if (q->cfg.num_shapes > 0) {
    for (i = 0; i < q->cfg.n; i++) {
      const TF_Tensor* t = k->inputs[1 + i];
      const tfe_shape* want = &q->cfg.shapes[i];
      int ok = 1, j;
      if (want->num_dims >= 0) {
        if (t->num_dims != want->num_dims + 1 || t->dims[0] != *batch) {
          ok = 0;
        }
        for (j = 0; ok && j < want->num_dims; j++) {
          if (want->dims[j] >= 0 && want->dims[j] != t->dims[j + 1]) ok = 0;
        }
      } else if (t->dims[0] != *batch) {
        ok = 0;
      }
      if (!ok) {
        char ws[256], full[300];
        kutil_shape_buf got;
        shape_text(want, ws, sizeof ws);
        if (want->num_dims < 0) {
          snprintf(full, sizeof full, "<unknown>");
        } else {
          snprintf(full, sizeof full, "[%lld%s%s", (long long)*batch,
                   want->num_dims > 0 ? "," : "", ws + 1);
        }
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Shape mismatch in tuple component %d. Expected %s, got %s",
                   i, full, kutil_tshape(t, &got));
        return 0;
      }
    }
  } else {
    for (i = 1; i < q->cfg.n; i++) {
      if (k->inputs[1 + i]->dims[0] != *batch) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "All input tensors must have the same size in the 0th "
                   "dimension. Component %d has %lld, and should have %lld",
                   i, (long long)k->inputs[1 + i]->dims[0],
                   (long long)*batch);
        return 0;
      }
    }
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * Kernels that use a queue. */

static void enqueue_compute(tfe_kernel_context* k, int many) {
  tfe_resource* res;
  tfe_queue* q;
  qattempt a;
  if (!check_timeout(k)) return;
  q = queue_from_input(k, &res);
  if (q == NULL) return;
  memset(&a, 0, sizeof a);
  if (!match_signature(k, q, 0, 1)) goto done;
  a.status = k->status;
  a.comps = k->inputs + 1;
  if (many) {
    if (!validate_many_tuple(k, q, &a.batch)) goto done;
    if (a.batch == 0) goto done;
    for (int i = 0; i < q->cfg.n; i++) {
      if (elem_bytes(q->cfg.dtypes[i]) == 0) {
        KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                   "CopySliceToElement Unhandled data type: %s",
                   tfe_dtype_enum_name(q->cfg.dtypes[i]));
        goto done;
      }
    }
    a.kind = A_ENQ_MANY;
  } else {
    if (!validate_tuple(k, q)) goto done;
    a.kind = A_ENQ;
  }
  attempt_run(q, &a, k->cancel);
done:
  tfe_resource_unref(res);
}

static void enqueue_one_compute(tfe_kernel_context* k) {
  enqueue_compute(k, 0);
}
static void enqueue_many_compute(tfe_kernel_context* k) {
  enqueue_compute(k, 1);
}

static void dequeue_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_queue* q;
  qattempt a;
  TF_Tensor** got[1] = {NULL};
  int i;
  if (!check_timeout(k)) return;
  q = queue_from_input(k, &res);
  if (q == NULL) return;
  if (!match_signature(k, q, 0, 0)) goto done;
  memset(&a, 0, sizeof a);
  a.kind = A_DEQ;
  a.status = k->status;
  a.remaining = 1;
  a.got = got;
  a.cap_got = 1;
  attempt_run(q, &a, k->cancel);
  if (a.ngot == 1 && got[0] != NULL) {
    if (KUTIL_OK(k)) {
      for (i = 0; i < q->cfg.n; i++) {
        tfe_kernel_set_output(k, i, got[0][i]);
        got[0][i] = NULL;
      }
    }
    tuple_free(got[0], q->cfg.n);
  }
done:
  tfe_resource_unref(res);
}

/* Output component c of a batch of `count` tuples: [count] + the queue's
 * shape, a padding queue's unknown sizes being the largest element's. */
static TF_Tensor* build_batch(tfe_kernel_context* k, const tfe_queue* q,
                              int c, TF_Tensor*** tuples, int64_t count) {
  const tfe_shape* want = q->cfg.num_shapes > 0 ? &q->cfg.shapes[c] : NULL;
  TF_DataType dt = q->cfg.dtypes[c];
  int64_t dims[TFE_MAX_DIMS + 1];
  int rank, j, padded = 0;
  int64_t t, per;
  size_t esz = elem_bytes(dt);
  TF_Tensor* out;
  char* base;
  if (want == NULL || want->num_dims < 0) {
    /* Not reachable for FIFO/shuffle queues (DequeueMany needs shapes);
     * a padding queue with an unknown-rank component. */
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s's DequeueMany and DequeueUpTo require the components to "
               "have specified shapes of known rank.",
               kTypeName[q->cfg.kind]);
    return NULL;
  }
  rank = want->num_dims;
  if (rank + 1 > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: batch of rank %d is too large",
               k->op_def->name, rank + 1);
    return NULL;
  }
  dims[0] = count;
  for (j = 0; j < rank; j++) {
    if (want->dims[j] >= 0) {
      dims[j + 1] = want->dims[j];
    } else {
      int64_t mx = 0;
      padded = 1;
      for (t = 0; t < count; t++) {
        const TF_Tensor* e = tuples[t][c];
        if (e->num_dims == rank && e->dims[j] > mx) mx = e->dims[j];
      }
      dims[j + 1] = mx;
    }
  }
  out = tfe_kernel_alloc_output(k, c, dt, dims, rank + 1);
  if (out == NULL) return NULL;
  if (esz == 0) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "CopyElementToSlice Unhandled data type: %s",
               tfe_dtype_enum_name(dt));
    return NULL;
  }
  per = kutil_dims_prod(dims, 1, rank + 1);
  base = (char*)kutil_data(out);
  if (padded && dt != TF_STRING && per > 0 && count > 0) {
    memset(base, 0, (size_t)(per * count) * esz);
  }
  for (t = 0; t < count; t++) {
    const TF_Tensor* e = tuples[t][c];
    char* slot = base + (size_t)(t * per) * esz;
    if (!padded) {
      kutil_copy(dt, slot, kutil_data(e), per);
    } else {
      /* Copy e (dims e->dims) into the top-left corner of a slot of dims
       * dims[1..]: one innermost row at a time. */
      int64_t rows = kutil_dims_prod(e->dims, 0, rank > 0 ? rank - 1 : 0);
      int64_t row_len = rank > 0 ? e->dims[rank - 1] : 1;
      int64_t idx[TFE_MAX_DIMS];
      int64_t r;
      if (kutil_num_elements(e) == 0) continue;
      memset(idx, 0, sizeof idx);
      for (r = 0; r < rows; r++) {
        int64_t off = 0;
        for (j = 0; j + 1 < rank; j++) off = off * dims[j + 1] + idx[j];
        if (rank > 0) off *= dims[rank];
        kutil_copy(dt, slot + (size_t)off * esz,
                   (const char*)kutil_data(e) + (size_t)(r * row_len) * esz,
                   row_len);
        for (j = rank - 2; j >= 0; j--) {
          if (++idx[j] < e->dims[j]) break;
          idx[j] = 0;
        }
      }
    }
  }
  return out;
}

static void dequeue_many_compute_impl(tfe_kernel_context* k,
                                      int allow_small) {
  tfe_resource* res;
  tfe_queue* q;
  qattempt a;
  int32_t want;
  int64_t i;
  int c;
  if (!check_timeout(k)) return;
  q = queue_from_input(k, &res);
  if (q == NULL) return;
  memset(&a, 0, sizeof a);
  if (k->num_inputs < 2 || k->inputs[1] == NULL ||
      k->inputs[1]->dtype != TF_INT32 ||
      kutil_num_elements(k->inputs[1]) < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: n must be an int32 tensor with one element",
               k->op_def->name);
    goto done;
  }
  want = ((const int32_t*)kutil_data(k->inputs[1]))[0];
  if (want < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s requested %d < 0 elements",
               allow_small ? "DequeueUpToOp" : "DequeueManyOp", (int)want);
    goto done;
  }
  if (!match_signature(k, q, 1, 0)) goto done;
  if (q->cfg.kind != QK_PADDING && q->cfg.num_shapes == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s's DequeueMany and DequeueUpTo require the components to "
               "have specified shapes.",
               kTypeName[q->cfg.kind]);
    goto done;
  }
  if (want > 0) {
    a.got = (TF_Tensor***)tfe_calloc((size_t)want, sizeof(TF_Tensor**));
    if (a.got == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      goto done;
    }
    a.cap_got = want;
    a.kind = A_DEQ_MANY;
    a.allow_small = allow_small;
    a.status = k->status;
    a.remaining = want;
    attempt_run(q, &a, k->cancel);
  }
  if (KUTIL_OK(k)) {
    for (c = 0; c < q->cfg.n; c++) {
      if (build_batch(k, q, c, a.got, a.ngot) == NULL) break;
    }
  }
  for (i = 0; i < a.ngot; i++) tuple_free(a.got[i], q->cfg.n);
  tfe_free(a.got);
done:
  tfe_resource_unref(res);
}

static void dequeue_many_compute(tfe_kernel_context* k) {
  dequeue_many_compute_impl(k, 0);
}
static void dequeue_up_to_compute(tfe_kernel_context* k) {
  dequeue_many_compute_impl(k, 1);
}

static void close_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_queue* q = queue_from_input(k, &res);
  if (q == NULL) return;
  if (kutil_attr_bool(k, "cancel_pending_enqueues", 0)) {
    close_and_cancel(q);
  } else {
    qattempt a;
    memset(&a, 0, sizeof a);
    a.kind = A_CLOSE;
    a.status = k->status;
    attempt_run(q, &a, k->cancel);
  }
  tfe_resource_unref(res);
}

static void size_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_queue* q = queue_from_input(k, &res);
  TF_Tensor* out;
  if (q == NULL) return;
  out = tfe_kernel_alloc_output(k, 0, TF_INT32, NULL, 0);
  if (out != NULL) {
    pthread_mutex_lock(&q->mu);
    *(int32_t*)kutil_data(out) = (int32_t)q->count;
    pthread_mutex_unlock(&q->mu);
  }
  tfe_resource_unref(res);
}

static void is_closed_compute(tfe_kernel_context* k) {
  tfe_resource* res;
  tfe_queue* q = queue_from_input(k, &res);
  TF_Tensor* out;
  if (q == NULL) return;
  out = tfe_kernel_alloc_output(k, 0, TF_BOOL, NULL, 0);
  if (out != NULL) {
    pthread_mutex_lock(&q->mu);
    *(unsigned char*)kutil_data(out) = (unsigned char)(q->closed != 0);
    pthread_mutex_unlock(&q->mu);
  }
  tfe_resource_unref(res);
}

/* ------------------------------------------------------------------------
 * Kernels that make queues. Per-instance state: the parsed attrs and the
 * queues made so far, one per (context, node). */

typedef struct made_queue {
  uint64_t ctx_id;
  char* node;     /* "" in eager */
  char* device;
  tfe_resource* r; /* reference held */
  tfe_ref_cell* cell; /* TF 1 ops: the Ref(string) handle (held) */
} made_queue;

typedef struct maker_state {
  qconfig cfg;
  pthread_mutex_t mu;
  made_queue* made;
  int num_made, cap_made;
} maker_state;

static void* maker_create(const tfe_op_def* def, const tfe_attrs* attrs,
                          void* user_data, TF_Status* status) {
  maker_state* st;
  (void)user_data;
  st = (maker_state*)tfe_calloc(1, sizeof(*st));
  if (st == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                    def->name);
    return NULL;
  }
  if (!qconfig_from_attrs(def, attrs, &st->cfg, status)) {
    tfe_free(st);
    return NULL;
  }
  if (pthread_mutex_init(&st->mu, NULL) != 0) {
    qconfig_free(&st->cfg);
    tfe_free(st);
    tfe_status_setf(status, TF_INTERNAL, "%s: cannot create a mutex",
                    def->name);
    return NULL;
  }
  return st;
}

static void maker_destroy(void* state, void* user_data) {
  maker_state* st = (maker_state*)state;
  int i;
  (void)user_data;
  if (st == NULL) return;
  for (i = 0; i < st->num_made; i++) {
    tfe_free(st->made[i].node);
    tfe_free(st->made[i].device);
    tfe_resource_unref(st->made[i].r);
    if (st->made[i].cell != NULL) tfe_ref_cell_unref(st->made[i].cell);
  }
  tfe_free(st->made);
  qconfig_free(&st->cfg);
  pthread_mutex_destroy(&st->mu);
  tfe_free(st);
}

/* A shared queue found under the name must be the one this node asks for
 * (TF's QueueBase::MatchesNodeDef). */
static int queue_matches(tfe_kernel_context* k, const tfe_queue* q,
                         const qconfig* c, const char* node) {
  const qconfig* h = &q->cfg;
  const tfe_shape* cs = c->shapes;
  tfe_shape scalar = {0, NULL};
  char a[1024], b[1024];
  int i, same = 1, ncs = c->num_shapes;
  if (h->kind != c->kind) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected %s, found %s",
               kTypeName[h->kind], k->op_def->name);
    return 0;
  }
  if (h->capacity != c->capacity) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shared queue '%s' has capacity %d but requested capacity "
               "was %d",
               q->name, (int)h->capacity, (int)c->capacity);
    return 0;
  }
  if (h->kind == QK_SHUFFLE) {
    if (h->min_after_dequeue != c->min_after_dequeue) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shared queue '%s' has min_after_dequeue %d but requested "
                 "min_after_dequeue was %d.",
                 q->name, (int)h->min_after_dequeue,
                 (int)c->min_after_dequeue);
      return 0;
    }
    if ((c->seed != 0 || c->seed2 != 0) &&
        (c->seed != h->seed || c->seed2 != h->seed2)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shared queue '%s' has random seeds (%lld, %lld) but "
                 "requested seeds are (%lld, %lld).",
                 q->name, (long long)h->seed, (long long)h->seed2,
                 (long long)c->seed, (long long)c->seed2);
      return 0;
    }
  }
  if (h->n != c->n) same = 0;
  for (i = 0; same && i < h->n; i++) same = h->dtypes[i] == c->dtypes[i];
  if (!same) {
    dtype_list_text(h->dtypes, h->n, a, sizeof a);
    dtype_list_text(c->dtypes, c->n, b, sizeof b);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shared queue '%s' has component types %s but requested "
               "component types were %s",
               q->name, a, b);
    return 0;
  }
  /* TF asks a priority queue for the node's shapes with the priority's []
   * in front even when the node gives none. */
  if (c->kind == QK_PRIORITY && c->num_shapes == 0) {
    cs = &scalar;
    ncs = 1;
  }
  same = h->num_shapes == ncs;
  for (i = 0; same && i < h->num_shapes; i++) {
    same = h->kind == QK_PADDING ? shape_compatible(&h->shapes[i], &cs[i])
                                 : shape_equal(&h->shapes[i], &cs[i]);
  }
  if (!same) {
    shape_list_text(h->shapes, h->num_shapes, a, sizeof a);
    shape_list_text(cs, ncs, b, sizeof b);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shared queue '%s' has component shapes %s but requested "
               "component shapes were %s",
               q->name, a, b);
    return 0;
  }
  (void)node;
  return 1;
}

/* TF checks a queue it just made against the node too; only a priority
 * queue can fail (see the top of the file). It stays registered then, as
 * in TF. Returns r, or NULL (r released) with k->status set. */
static tfe_resource* verify_new(tfe_kernel_context* k, tfe_resource* r,
                                const qconfig* c, const char* node) {
  if (c->kind == QK_PRIORITY &&
      !queue_matches(k, (tfe_queue*)r->object, c, node)) {
    tfe_resource_unref(r);
    return NULL;
  }
  return r;
}

/* Makes (or, for a shared name, finds) the queue this node stands for;
 * returns a new reference, or NULL with k->status set. */
static tfe_resource* make_queue(tfe_kernel_context* k, const qconfig* c,
                                uint64_t ctx_id, const char* device,
                                const char* node) {
  static _Atomic int64_t next_uid;
  const char* container =
      c->container[0] != '\0' ? c->container : TFE_RESOURCE_DEFAULT_CONTAINER;
  char gen[512];
  const char* name;
  tfe_queue* q;
  tfe_resource* r;
  int attempt;
  if (c->shared_name[0] == '\0') {
    snprintf(gen, sizeof gen, "_%lld_%s",
             (long long)atomic_fetch_add(&next_uid, 1), node);
    name = gen;
  } else {
    name = c->shared_name;
  }
  for (attempt = 0;; attempt++) {
    if (c->shared_name[0] != '\0') {
      r = tfe_resources_lookup(ctx_id, device, container, name);
      if (r != NULL) {
        if (r->kind != TFE_RESOURCE_QUEUE || r->object == NULL) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Resource %s/%s on %s exists and is not a queue",
                     container, name, device);
          tfe_resource_unref(r);
          return NULL;
        }
        if (!queue_matches(k, (tfe_queue*)r->object, c, node)) {
          tfe_resource_unref(r);
          return NULL;
        }
        return r;
      }
    }
    if (!qconfig_check_init(c, name, k->status)) return NULL;
    q = queue_new(c, name);
    if (q == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      return NULL;
    }
    r = tfe_plugin_resource_new(ctx_id, device, container, name, q,
                                queue_free);
    if (r == NULL) {
      queue_free(q);
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      return NULL;
    }
    r->kind = TFE_RESOURCE_QUEUE;
    if (c->shared_name[0] == '\0' && !c->v1) {
      /* Private to the node: handles refer to it directly. (TF 1 handles
       * name the queue, so those queues are always registered.) */
      r->anonymous = 1;
      return verify_new(k, r, c, node);
    }
    if (tfe_resources_insert(r, k->status)) return verify_new(k, r, c, node);
    tfe_resource_unref(r);
    /* Another thread registered the name first: use that one. */
    if (TF_GetCode(k->status) != TF_ALREADY_EXISTS || attempt > 3) {
      return NULL;
    }
    TF_SetStatus(k->status, TF_OK, "");
  }
}

static void maker_compute(tfe_kernel_context* k) {
  maker_state* st = (maker_state*)k->state;
  const char* device = k->device_name != NULL ? k->device_name : "";
  const char* node = k->node_name != NULL ? k->node_name : k->op_def->name;
  uint64_t ctx_id = tfe_resource_kernel_ctx_id(k);
  tfe_resource* r = NULL;
  tfe_ref_cell* cell = NULL;
  TF_Tensor* out;
  int i;
  if (st == NULL) {
    KUTIL_FAIL(k, TF_INTERNAL, "%s: kernel state missing", k->op_def->name);
    return;
  }
  pthread_mutex_lock(&st->mu);
  for (i = 0; i < st->num_made; i++) {
    made_queue* m = &st->made[i];
    if (m->ctx_id == ctx_id && strcmp(m->node, node) == 0 &&
        strcmp(m->device, device) == 0) {
      r = m->r;
      tfe_resource_ref(r);
      cell = m->cell;
      if (cell != NULL) tfe_ref_cell_ref(cell);
      break;
    }
  }
  if (r == NULL) {
    made_queue m;
    r = make_queue(k, &st->cfg, ctx_id, device, node);
    if (r == NULL) {
      pthread_mutex_unlock(&st->mu);
      return;
    }
    if (st->num_made == st->cap_made) {
      int ncap = st->cap_made ? st->cap_made * 2 : 2;
      made_queue* nm = (made_queue*)tfe_realloc(
          st->made, sizeof(made_queue) * (size_t)ncap);
      if (nm == NULL) goto oom;
      st->made = nm;
      st->cap_made = ncap;
    }
    m.ctx_id = ctx_id;
    m.node = tfe_strdup(node);
    m.device = tfe_strdup(device);
    m.r = r;
    m.cell = st->cfg.v1 ? df2_handle_cell(r) : NULL;
    if (m.node == NULL || m.device == NULL ||
        (st->cfg.v1 && m.cell == NULL)) {
      tfe_free(m.node);
      tfe_free(m.device);
      if (m.cell != NULL) tfe_ref_cell_unref(m.cell);
      goto oom;
    }
    tfe_resource_ref(r);
    cell = m.cell;
    if (cell != NULL) tfe_ref_cell_ref(cell);
    st->made[st->num_made++] = m;
  }
  pthread_mutex_unlock(&st->mu);
  if (st->cfg.v1) {
    /* TF 1: a Ref(string) output holding [container, name]. */
    tfe_resource_unref(r);
    tfe_kernel_set_output_ref(k, 0, cell);
    tfe_ref_cell_unref(cell);
    return;
  }
  out = tfe_resource_new_handle(r);
  tfe_resource_unref(r);
  if (out == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  tfe_kernel_set_output(k, 0, out);
  return;
oom:
  pthread_mutex_unlock(&st->mu);
  tfe_resource_unref(r);
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
             k->op_def->name);
}

/* ------------------------------------------------------------------------
 * Registration. */

static void reg(const char* op, void (*compute)(tfe_kernel_context*),
                int maker) {
  tfe_kernel_reg r;
  TF_Status* s = TF_NewStatus();
  memset(&r, 0, sizeof r);
  r.op_name = op;
  r.device_type = "CPU";
  r.compute = compute;
  if (maker) {
    r.create = maker_create;
    r.destroy = maker_destroy;
  }
  if (s != NULL) {
    tfe_kernel_register(&r, s);
    TF_DeleteStatus(s);
  }
}

void tfe_register_cpu_queue_kernels(void) {
  reg("FIFOQueueV2", maker_compute, 1);
  reg("PaddingFIFOQueueV2", maker_compute, 1);
  reg("RandomShuffleQueueV2", maker_compute, 1);
  reg("PriorityQueueV2", maker_compute, 1);
  reg("QueueEnqueueV2", enqueue_one_compute, 0);
  reg("QueueEnqueueManyV2", enqueue_many_compute, 0);
  reg("QueueDequeueV2", dequeue_compute, 0);
  reg("QueueDequeueManyV2", dequeue_many_compute, 0);
  reg("QueueDequeueUpToV2", dequeue_up_to_compute, 0);
  reg("QueueCloseV2", close_compute, 0);
  reg("QueueSizeV2", size_compute, 0);
  reg("QueueIsClosedV2", is_closed_compute, 0);
  /* TF 1's ops with a Ref(string) handle. */
  reg("FIFOQueue", maker_compute, 1);
  reg("PaddingFIFOQueue", maker_compute, 1);
  reg("RandomShuffleQueue", maker_compute, 1);
  reg("PriorityQueue", maker_compute, 1);
  reg("QueueEnqueue", enqueue_one_compute, 0);
  reg("QueueEnqueueMany", enqueue_many_compute, 0);
  reg("QueueDequeue", dequeue_compute, 0);
  reg("QueueDequeueMany", dequeue_many_compute, 0);
  reg("QueueDequeueUpTo", dequeue_up_to_compute, 0);
  reg("QueueClose", close_compute, 0);
  reg("QueueSize", size_compute, 0);
  reg("QueueIsClosed", is_closed_compute, 0);
}
