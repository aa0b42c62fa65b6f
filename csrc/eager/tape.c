/* Gradient tapes (include/tfe/gradients.h): recording eager ops and running
 * their gradients backwards.
 *
 * Recording. Every live tape is on one process-wide list under g_mu, and
 * each context counts its recording tapes (TFE_Context.num_tapes), so
 * TFE_Execute only calls tfe_tape_record when a tape may want the op. A
 * tape tracks tensor handles by address: the ones it watches and the
 * outputs of the ops it recorded. It keeps a reference to each, so no
 * tracked address can be reused while the tape lives. An op is recorded
 * when one of its (flat) inputs is tracked; the record keeps the op type,
 * its completed attrs, and references to its inputs and outputs.
 *
 * Recording is cheap (benchmarks/c/bench_tape.c): a tape interns each
 * distinct (definition, attrs) it sees once, completed with the
 * definition's defaults, and its records point at that shared copy; the
 * handle arrays of records come from a per-tape arena freed with the
 * records; the global lock is held only for the tracked-set probes and
 * the record's bookkeeping.
 *
 * Gradients. Records are kept in execution order, which is a topological
 * order, so one pass over them in reverse sees every consumer of a tensor
 * before its producer: each record whose outputs have gradients calls its
 * op's gradient function (grad_registry.c), which builds ops on a borrowed
 * eager TF_ExecutionContext, and the input gradients are summed per
 * tensor. The tape being asked does not record its own gradient ops; other
 * tapes on the context do, which is what higher-order gradients need. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/grad_util.h"
#include "eager/custom_device.h"
#include "eager/tape.h"
#include "graph/function_internal.h"
#include "graph/function_lib.h"
#include "ops/op_registry.h"
#include "tensorflow/c/eager/c_api.h"

/* One distinct (op definition, attrs as set) a tape has seen, with the
 * attrs completed by the definition's defaults. Records share it, so
 * recording an op whose attrs the tape already knows copies nothing. */
typedef struct interned_attrs {
  struct interned_attrs* next; /* bucket chain */
  const tfe_op_def* def;
  uint64_t hash; /* the op's attrs_hash */
  tfe_attrs key;      /* the attrs as set (owned copy) */
  tfe_attrs complete; /* key plus defaults (owned) */
} interned_attrs;

#define TAPE_ATTR_BUCKETS 64 /* power of two */

/* Bump allocator for the records' handle arrays: freed all at once with
 * the tape's records. */
typedef struct arena_chunk {
  struct arena_chunk* next;
  size_t used, cap; /* in pointers */
  TFE_TensorHandle* slots[];
} arena_chunk;

#define TAPE_ARENA_CHUNK 4096 /* pointers per ordinary chunk */

/* A caller's gradient function for one custom record
 * (TFE_GradientTapeRecordCustom), shared by the records of every tape that
 * recorded it; the deleter runs when the last of them is released. */
typedef struct custom_grad {
  TFE_CustomGradientFunction fn;
  void* data;
  void (*deleter)(void*);
  atomic_int refs;
  struct custom_grad* next_dead; /* on a list of closures to delete */
} custom_grad;

typedef struct record {
  const char* op_type;          /* the op definition's name (lives for the process) */
  const tfe_attrs* attrs;       /* completed attrs (the tape's interned set); NULL for custom */
  custom_grad* custom;          /* a custom record's gradient (holds a reference), else NULL */
  const char* device;           /* the custom device the op ran on (its gradient ops go
                                   there too), else NULL */
  TFE_TensorHandle** inputs;    /* each holds a reference (arena memory) */
  int num_inputs;
  TFE_TensorHandle** outputs; /* each holds a reference (arena memory) */
  int num_outputs;
} record;

/* An address set (open addressing, linear probing). */
typedef struct ptrset {
  const void** slots;
  size_t cap, n;
} ptrset;

struct TFE_GradientTape {
  TFE_GradientTape* next; /* on g_tapes */
  TFE_Context* ctx;
  int persistent;
  int recording; /* counted in ctx->num_tapes while set */
  int used;      /* a non-persistent tape that answered once */
  ptrset tracked;
  TFE_TensorHandle** held; /* references to the watched handles */
  int num_held, cap_held;
  record* records;
  int num_records, cap_records;
  interned_attrs** attr_buckets; /* TAPE_ATTR_BUCKETS chains, or NULL */
  interned_attrs* last_attrs;    /* the set the last record used */
  arena_chunk* arena;            /* newest first */
  int oom; /* a record was dropped for lack of memory */
};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static TFE_GradientTape* g_tapes;

static size_t ptr_hash(const void* p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return (size_t)x;
}

static int ptrset_has(const ptrset* s, const void* p) {
  size_t i;
  if (s->cap == 0) return 0;
  for (i = ptr_hash(p) & (s->cap - 1); s->slots[i] != NULL; i = (i + 1) & (s->cap - 1)) {
    if (s->slots[i] == p) return 1;
  }
  return 0;
}

static int ptrset_add(ptrset* s, const void* p) {
  size_t i;
  /* Grows before probing (so one probe finds the slot or p); a set at the
   * threshold that already holds p grows a little early, harmlessly. */
  if ((s->n + 1) * 2 > s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 64, j;
    const void** slots = (const void**)tfe_calloc(cap, sizeof *slots);
    if (slots == NULL) return 0;
    for (j = 0; j < s->cap; j++) {
      if (s->slots[j] == NULL) continue;
      for (i = ptr_hash(s->slots[j]) & (cap - 1); slots[i] != NULL; i = (i + 1) & (cap - 1)) {
      }
      slots[i] = s->slots[j];
    }
    tfe_free(s->slots);
    s->slots = slots;
    s->cap = cap;
  }
  for (i = ptr_hash(p) & (s->cap - 1); s->slots[i] != NULL; i = (i + 1) & (s->cap - 1)) {
    if (s->slots[i] == p) return 1;
  }
  s->slots[i] = p;
  s->n++;
  return 1;
}

/* Drops a reference to c; when it was the last, puts c on *dead (its
 * deleter runs later, outside every lock: it may call back into tfe). */
static void custom_release(custom_grad* c, custom_grad** dead) {
  if (c == NULL) return;
  if (atomic_fetch_sub_explicit(&c->refs, 1, memory_order_acq_rel) == 1) {
    c->next_dead = *dead;
    *dead = c;
  }
}

/* Runs the deleters of a list made by custom_release. */
static void custom_delete_all(custom_grad* dead) {
  while (dead != NULL) {
    custom_grad* c = dead;
    dead = c->next_dead;
    if (c->deleter != NULL) c->deleter(c->data);
    tfe_free(c);
  }
}

static void record_free(record* r, custom_grad** dead) {
  int i;
  for (i = 0; i < r->num_inputs; i++) tfe_handle_unref(r->inputs[i]);
  for (i = 0; i < r->num_outputs; i++) tfe_handle_unref(r->outputs[i]);
  custom_release(r->custom, dead);
}

/* n pointers from t's arena, or NULL. */
static TFE_TensorHandle** arena_alloc(TFE_GradientTape* t, size_t n) {
  arena_chunk* c = t->arena;
  TFE_TensorHandle** p;
  if (c == NULL || c->cap - c->used < n) {
    size_t cap = n > TAPE_ARENA_CHUNK ? n : TAPE_ARENA_CHUNK;
    c = (arena_chunk*)tfe_malloc(sizeof *c + cap * sizeof c->slots[0]);
    if (c == NULL) return NULL;
    c->used = 0;
    c->cap = cap;
    c->next = t->arena;
    t->arena = c;
  }
  p = c->slots + c->used;
  c->used += n;
  return p;
}

/* The growable buffers of the last cleared tape (records array, tracked
 * set, one arena chunk), kept for the next new tape: a training loop makes
 * one tape per step, and growing these again each time (reallocs, the
 * rehashes of the tracked set, fresh pages from the system) cost more than
 * the recording itself (forward helper, issue 17). At most one of each,
 * bounded in size; g_spare_mu nests inside g_mu. */
#define TAPE_SPARE_MAX_RECORDS (1 << 14) /* about 1 MB */
#define TAPE_SPARE_MAX_SLOTS ((size_t)1 << 15) /* 256 KB */
static pthread_mutex_t g_spare_mu = PTHREAD_MUTEX_INITIALIZER;
static record* g_spare_records;
static int g_spare_cap_records;
static const void** g_spare_slots; /* all NULL */
static size_t g_spare_cap_slots;
static arena_chunk* g_spare_chunk; /* an ordinary chunk, unused */

/* Gives t (new and empty) the spare buffers. */
static void spare_take(TFE_GradientTape* t) {
  pthread_mutex_lock(&g_spare_mu);
  t->records = g_spare_records;
  t->cap_records = g_spare_cap_records;
  t->tracked.slots = g_spare_slots;
  t->tracked.cap = g_spare_cap_slots;
  t->arena = g_spare_chunk;
  g_spare_records = NULL;
  g_spare_cap_records = 0;
  g_spare_slots = NULL;
  g_spare_cap_slots = 0;
  g_spare_chunk = NULL;
  pthread_mutex_unlock(&g_spare_mu);
}

/* Keeps t's records array, tracked set and one ordinary arena chunk as the
 * spares when they are bigger than those kept (and not too big); frees the
 * rest. t's records must be released already. */
static void spare_put(TFE_GradientTape* t) {
  record* rs = t->records;
  const void** slots = t->tracked.slots;
  arena_chunk* chunk = NULL;
  if (t->tracked.n > 0) memset(slots, 0, t->tracked.cap * sizeof *slots);
  while (t->arena != NULL) {
    arena_chunk* c = t->arena;
    t->arena = c->next;
    if (chunk == NULL && c->cap == TAPE_ARENA_CHUNK) {
      chunk = c;
    } else {
      tfe_free(c);
    }
  }
  pthread_mutex_lock(&g_spare_mu);
  if (rs != NULL && t->cap_records > g_spare_cap_records &&
      t->cap_records <= TAPE_SPARE_MAX_RECORDS) {
    record* old = g_spare_records;
    g_spare_records = rs;
    g_spare_cap_records = t->cap_records;
    rs = old;
  }
  if (slots != NULL && t->tracked.cap > g_spare_cap_slots &&
      t->tracked.cap <= TAPE_SPARE_MAX_SLOTS) {
    const void** old = g_spare_slots;
    g_spare_slots = slots;
    g_spare_cap_slots = t->tracked.cap;
    slots = old;
  }
  if (chunk != NULL && g_spare_chunk == NULL) {
    chunk->used = 0;
    chunk->next = NULL;
    g_spare_chunk = chunk;
    chunk = NULL;
  }
  pthread_mutex_unlock(&g_spare_mu);
  tfe_free(rs);
  tfe_free((void*)slots);
  tfe_free(chunk);
}

/* Frees what t holds; the custom closures it released last go on *dead. */
static void tape_clear(TFE_GradientTape* t, custom_grad** dead) {
  int i;
  for (i = 0; i < t->num_records; i++) record_free(&t->records[i], dead);
  spare_put(t); /* frees (or keeps for the next tape) records, set, arena */
  t->records = NULL;
  t->num_records = t->cap_records = 0;
  if (t->attr_buckets != NULL) {
    for (i = 0; i < TAPE_ATTR_BUCKETS; i++) {
      while (t->attr_buckets[i] != NULL) {
        interned_attrs* a = t->attr_buckets[i];
        t->attr_buckets[i] = a->next;
        tfe_attrs_destroy(&a->key);
        tfe_attrs_destroy(&a->complete);
        tfe_free(a);
      }
    }
    tfe_free(t->attr_buckets);
    t->attr_buckets = NULL;
  }
  t->last_attrs = NULL;
  for (i = 0; i < t->num_held; i++) tfe_handle_unref(t->held[i]);
  tfe_free(t->held);
  t->held = NULL;
  t->num_held = t->cap_held = 0;
  memset(&t->tracked, 0, sizeof t->tracked); /* its slots went to spare_put */
}

/* Moves what tape_clear frees from t into *out (zeroed first), leaving t
 * empty, so that it can be freed without g_mu held: releasing handles may
 * run a custom device's deallocator, which may call back into tfe (a
 * Python one may even delete a tape). Keep in step with tape_clear. */
static void tape_take(TFE_GradientTape* t, TFE_GradientTape* out) {
  memset(out, 0, sizeof *out);
  out->tracked = t->tracked;
  out->held = t->held;
  out->num_held = t->num_held;
  out->records = t->records;
  out->num_records = t->num_records;
  out->attr_buckets = t->attr_buckets;
  out->arena = t->arena;
  memset(&t->tracked, 0, sizeof t->tracked);
  t->held = NULL;
  t->num_held = t->cap_held = 0;
  t->records = NULL;
  t->num_records = t->cap_records = 0;
  t->attr_buckets = NULL;
  t->last_attrs = NULL;
  t->arena = NULL;
}

/* Under g_mu. */
static void set_recording(TFE_GradientTape* t, int on) {
  if (t->recording == on) return;
  t->recording = on;
  atomic_fetch_add_explicit(&t->ctx->num_tapes, on ? 1 : -1, memory_order_relaxed);
}

TFE_GradientTape* TFE_NewGradientTape(TFE_Context* ctx, unsigned char persistent,
                                      TF_Status* s) {
  TFE_GradientTape* t;
  if (s == NULL) return NULL;
  if (ctx == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_NewGradientTape: the context is NULL");
    return NULL;
  }
  t = (TFE_GradientTape*)tfe_calloc(1, sizeof *t);
  if (t == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_NewGradientTape: out of memory");
    return NULL;
  }
  t->ctx = ctx;
  t->persistent = persistent != 0;
  spare_take(t);
  pthread_mutex_lock(&g_mu);
  t->next = g_tapes;
  g_tapes = t;
  set_recording(t, 1);
  pthread_mutex_unlock(&g_mu);
  tfe_status_ok(s);
  return t;
}

void TFE_DeleteGradientTape(TFE_GradientTape* t) {
  TFE_GradientTape** p;
  custom_grad* dead = NULL;
  if (t == NULL) return;
  pthread_mutex_lock(&g_mu);
  for (p = &g_tapes; *p != NULL; p = &(*p)->next) {
    if (*p == t) {
      *p = t->next;
      break;
    }
  }
  set_recording(t, 0);
  pthread_mutex_unlock(&g_mu);
  tape_clear(t, &dead);
  tfe_free(t);
  custom_delete_all(dead);
}

static int dtype_is_trainable(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT:
    case TF_DOUBLE:
    case TF_HALF:
    case TF_BFLOAT16:
    case TF_COMPLEX64:
    case TF_COMPLEX128:
    case TF_RESOURCE:
    case TF_VARIANT:
      return 1;
    default:
      return 0;
  }
}

void TFE_GradientTapeWatch(TFE_GradientTape* t, TFE_TensorHandle* h, TF_Status* s) {
  if (s == NULL) return;
  if (t == NULL || h == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_GradientTapeWatch: %s is NULL",
                    t == NULL ? "the tape" : "the tensor");
    return;
  }
  if (!tfe_handle_check(h, "TFE_GradientTapeWatch", s)) return;
  tfe_status_ok(s);
  if (!dtype_is_trainable(TFE_TensorHandleDataType(h))) return; /* as TF: ignored */
  pthread_mutex_lock(&g_mu);
  if (!ptrset_has(&t->tracked, h)) {
    if (t->num_held == t->cap_held) {
      int cap = t->cap_held ? 2 * t->cap_held : 8;
      TFE_TensorHandle** held =
          (TFE_TensorHandle**)tfe_realloc(t->held, (size_t)cap * sizeof *held);
      if (held == NULL) goto oom;
      t->held = held;
      t->cap_held = cap;
    }
    if (!ptrset_add(&t->tracked, h)) goto oom;
    tfe_handle_ref(h);
    t->held[t->num_held++] = h;
  }
  pthread_mutex_unlock(&g_mu);
  return;
oom:
  pthread_mutex_unlock(&g_mu);
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_GradientTapeWatch: out of memory");
}

void TFE_GradientTapeStopRecording(TFE_GradientTape* t, TF_Status* s) {
  if (s == NULL) return;
  if (t == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_GradientTapeStopRecording: the tape is NULL");
    return;
  }
  pthread_mutex_lock(&g_mu);
  if (!t->recording) {
    pthread_mutex_unlock(&g_mu);
    tfe_status_setf(s, TF_FAILED_PRECONDITION, "the tape is not recording");
    return;
  }
  set_recording(t, 0);
  pthread_mutex_unlock(&g_mu);
  tfe_status_ok(s);
}

void TFE_GradientTapeResumeRecording(TFE_GradientTape* t, TF_Status* s) {
  if (s == NULL) return;
  if (t == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_GradientTapeResumeRecording: the tape is NULL");
    return;
  }
  pthread_mutex_lock(&g_mu);
  if (t->recording || t->used) {
    pthread_mutex_unlock(&g_mu);
    tfe_status_setf(s, TF_FAILED_PRECONDITION, "%s",
                    t->used ? "a non-persistent tape cannot record after computing gradients"
                            : "the tape is already recording");
    return;
  }
  set_recording(t, 1);
  pthread_mutex_unlock(&g_mu);
  tfe_status_ok(s);
}

int TFE_GradientTapeNumRecordedOps(const TFE_GradientTape* t) {
  int n;
  if (t == NULL) return 0;
  pthread_mutex_lock(&g_mu);
  n = t->num_records;
  pthread_mutex_unlock(&g_mu);
  return n;
}

static int attrs_match(const interned_attrs* a, const TFE_Op* op) {
  return a->def == op->def && a->hash == op->attrs_hash && a->key.count == op->attrs.count &&
         tfe_attrs_equal(&a->key, &op->attrs);
}

/* Under g_mu: t's interned completed attrs for op, made on first sight.
 * NULL on allocation failure. */
static const tfe_attrs* intern_attrs(TFE_GradientTape* t, TFE_Op* op) {
  interned_attrs* a = t->last_attrs;
  size_t b;
  TF_Status* s;
  int ok;
  if (a != NULL && attrs_match(a, op)) return &a->complete;
  if (t->attr_buckets == NULL) {
    t->attr_buckets =
        (interned_attrs**)tfe_calloc(TAPE_ATTR_BUCKETS, sizeof *t->attr_buckets);
    if (t->attr_buckets == NULL) return NULL;
  }
  b = (size_t)((op->attrs_hash ^ (uint64_t)ptr_hash(op->def)) & (TAPE_ATTR_BUCKETS - 1));
  for (a = t->attr_buckets[b]; a != NULL; a = a->next) {
    if (attrs_match(a, op)) {
      t->last_attrs = a;
      return &a->complete;
    }
  }
  /* First sight: copy the attrs and add the definition's defaults, so that
   * gradient functions read every attr. */
  a = (interned_attrs*)tfe_calloc(1, sizeof *a);
  if (a == NULL) return NULL;
  a->def = op->def;
  a->hash = op->attrs_hash;
  tfe_attrs_init(&a->key);
  tfe_attrs_init(&a->complete);
  ok = tfe_attrs_merge(&a->key, &op->attrs) && tfe_attrs_merge(&a->complete, &op->attrs);
  if (ok) {
    s = TF_NewStatus();
    ok = s != NULL;
    if (ok) {
      tfe_op_def_complete_attrs(op->def, &a->complete, s);
      ok = TF_GetCode(s) != TF_RESOURCE_EXHAUSTED;
      TF_DeleteStatus(s);
    }
  }
  if (!ok) {
    tfe_attrs_destroy(&a->key);
    tfe_attrs_destroy(&a->complete);
    tfe_free(a);
    return NULL;
  }
  a->next = t->attr_buckets[b];
  t->attr_buckets[b] = a;
  t->last_attrs = a;
  return &a->complete;
}

/* Under g_mu: records op on t (which tracks one of its inputs). */
static void record_on(TFE_GradientTape* t, TFE_Op* op, TFE_TensorHandle* const* outs, int n,
                      const char* device) {
  record* r;
  const tfe_attrs* attrs;
  TFE_TensorHandle** hs;
  int i;
  if (t->num_records == t->cap_records) {
    int cap = t->cap_records ? 2 * t->cap_records : 64;
    record* rs = (record*)tfe_realloc(t->records, (size_t)cap * sizeof *rs);
    if (rs == NULL) goto oom;
    t->records = rs;
    t->cap_records = cap;
  }
  attrs = intern_attrs(t, op);
  if (attrs == NULL) goto oom;
  hs = arena_alloc(t, (size_t)op->num_inputs + (size_t)n);
  if (hs == NULL) goto oom;
  /* Outputs join the tracked set first: a failure leaves no reference
   * taken (the arena slots are simply unused). */
  for (i = 0; i < n; i++) {
    if (!ptrset_add(&t->tracked, outs[i])) goto oom;
  }
  r = &t->records[t->num_records];
  r->op_type = op->def->name;
  r->attrs = attrs;
  r->custom = NULL;
  r->device = device;
  r->inputs = hs;
  r->num_inputs = op->num_inputs;
  r->outputs = hs + op->num_inputs;
  r->num_outputs = n;
  for (i = 0; i < op->num_inputs; i++) {
    tfe_handle_ref(op->inputs[i]);
    hs[i] = op->inputs[i];
  }
  for (i = 0; i < n; i++) {
    tfe_handle_ref(outs[i]);
    hs[op->num_inputs + i] = outs[i];
  }
  t->num_records++;
  return;
oom:
  t->oom = 1;
}

void tfe_tape_record_on_device(TFE_Op* op, TFE_TensorHandle* const* outs, int n,
                               const char* device) {
  TFE_GradientTape* t;
  int i;
  if (op == NULL || op->def == NULL || n < 0) return;
  pthread_mutex_lock(&g_mu);
  for (t = g_tapes; t != NULL; t = t->next) {
    if (!t->recording || t->ctx != op->ctx) continue;
    for (i = 0; i < op->num_inputs; i++) {
      if (ptrset_has(&t->tracked, op->inputs[i])) break;
    }
    if (i < op->num_inputs) record_on(t, op, outs, n, device);
  }
  pthread_mutex_unlock(&g_mu);
}

void tfe_tape_record(TFE_Op* op, TFE_TensorHandle* const* outs, int n) {
  tfe_tape_record_on_device(op, outs, n, NULL);
}

int tfe_tape_would_record(const TFE_Op* op) {
  TFE_GradientTape* t;
  int i, hit = 0;
  if (op == NULL || op->def == NULL) return 0;
  pthread_mutex_lock(&g_mu);
  for (t = g_tapes; t != NULL && !hit; t = t->next) {
    if (!t->recording || t->ctx != op->ctx) continue;
    for (i = 0; i < op->num_inputs; i++) {
      if (ptrset_has(&t->tracked, op->inputs[i])) {
        hit = 1;
        break;
      }
    }
  }
  pthread_mutex_unlock(&g_mu);
  return hit;
}

/* ---- custom records (TFE_GradientTapeRecordCustom) ---- */

/* Under g_mu: records a custom entry on t (which tracks one of inputs).
 * Returns 0 when out of memory (nothing recorded, no reference taken). */
static int record_custom_on(TFE_GradientTape* t, custom_grad* c, int ni,
                            TFE_TensorHandle* const* inputs, int no,
                            TFE_TensorHandle* const* outs) {
  record* r;
  TFE_TensorHandle** hs;
  int i;
  if (t->num_records == t->cap_records) {
    int cap = t->cap_records ? 2 * t->cap_records : 64;
    record* rs = (record*)tfe_realloc(t->records, (size_t)cap * sizeof *rs);
    if (rs == NULL) return 0;
    t->records = rs;
    t->cap_records = cap;
  }
  hs = arena_alloc(t, (size_t)ni + (size_t)no + 1); /* +1: never a 0-slot request */
  if (hs == NULL) return 0;
  for (i = 0; i < no; i++) {
    if (!ptrset_add(&t->tracked, outs[i])) return 0;
  }
  r = &t->records[t->num_records];
  r->op_type = "CustomGradient";
  r->attrs = NULL;
  r->custom = c;
  r->device = NULL;
  atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
  r->inputs = hs;
  r->num_inputs = ni;
  r->outputs = hs + ni;
  r->num_outputs = no;
  for (i = 0; i < ni; i++) {
    tfe_handle_ref(inputs[i]);
    hs[i] = inputs[i];
  }
  for (i = 0; i < no; i++) {
    tfe_handle_ref(outs[i]);
    hs[ni + i] = outs[i];
  }
  t->num_records++;
  return 1;
}

static int tracks_any(const TFE_GradientTape* t, int n, TFE_TensorHandle* const* hs) {
  int i;
  for (i = 0; i < n; i++) {
    if (ptrset_has(&t->tracked, hs[i])) return 1;
  }
  return 0;
}

int TFE_GradientTapeRecordCustom(TFE_Context* ctx, int num_inputs,
                                 TFE_TensorHandle* const* inputs, int num_outputs,
                                 TFE_TensorHandle* const* outputs,
                                 TFE_CustomGradientFunction fn, void* data,
                                 void (*deleter)(void*), TF_Status* s) {
  static const char* const kName = "TFE_GradientTapeRecordCustom";
  custom_grad* c = NULL;
  custom_grad* dead = NULL;
  TFE_GradientTape* t;
  int i, j, n = 0;
  if (s == NULL) goto release;
  if (ctx == NULL || fn == NULL || num_inputs < 0 || num_outputs < 0 ||
      (num_inputs > 0 && inputs == NULL) || (num_outputs > 0 && outputs == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: %s", kName,
                    ctx == NULL  ? "the context is NULL"
                    : fn == NULL ? "the gradient function is NULL"
                                 : "inputs/outputs must describe arrays");
    goto release;
  }
  if (!tfe_ctx_check(ctx, kName, s)) goto release;
  for (i = 0; i < num_inputs + num_outputs; i++) {
    TFE_TensorHandle* h = i < num_inputs ? inputs[i] : outputs[i - num_inputs];
    if (h == NULL) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: %s %d is NULL", kName,
                      i < num_inputs ? "input" : "output",
                      i < num_inputs ? i : i - num_inputs);
      goto release;
    }
    if (!tfe_handle_check(h, kName, s)) goto release;
  }
  for (i = 0; i < num_outputs; i++) {
    for (j = 0; j < num_inputs; j++) {
      if (outputs[i] == inputs[j]) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "%s: output %d is also input %d; pass a new handle for it "
                        "(TFE_TensorHandleCopySharingTensor)",
                        kName, i, j);
        goto release;
      }
    }
    for (j = 0; j < i; j++) {
      if (outputs[i] == outputs[j]) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: outputs %d and %d are the same handle",
                        kName, j, i);
        goto release;
      }
    }
  }
  tfe_status_ok(s);
  if (atomic_load_explicit(&ctx->num_tapes, memory_order_relaxed) == 0) goto release;
  c = (custom_grad*)tfe_calloc(1, sizeof *c);
  if (c == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "%s: out of memory", kName);
    goto release;
  }
  c->fn = fn;
  c->data = data;
  c->deleter = deleter;
  atomic_init(&c->refs, 1); /* this call's own, dropped below */
  pthread_mutex_lock(&g_mu);
  /* First every tape that will record it must not know an output yet: a
   * tracked output was produced by a recorded op (or watched), and its
   * gradient would flow both ways. */
  for (t = g_tapes; t != NULL; t = t->next) {
    if (!t->recording || t->ctx != ctx || !tracks_any(t, num_inputs, inputs)) continue;
    for (i = 0; i < num_outputs; i++) {
      if (ptrset_has(&t->tracked, outputs[i])) {
        pthread_mutex_unlock(&g_mu);
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "%s: output %d is already known to a recording tape (an op it "
                        "recorded produced it, or it is watched); pass a new handle for it "
                        "(TFE_TensorHandleCopySharingTensor)",
                        kName, i);
        goto release_c;
      }
    }
  }
  for (t = g_tapes; t != NULL; t = t->next) {
    if (!t->recording || t->ctx != ctx || !tracks_any(t, num_inputs, inputs)) continue;
    if (record_custom_on(t, c, num_inputs, inputs, num_outputs, outputs)) {
      n++;
    } else {
      t->oom = 1;
    }
  }
  pthread_mutex_unlock(&g_mu);
release_c:
  custom_release(c, &dead);
  custom_delete_all(dead);
  return n;
release:
  if (deleter != NULL) deleter(data);
  return 0;
}

/* The gradient of a copy: the upstream gradient itself, wherever it is. */
static void copy_grad(void* data, TFE_Context* ctx, int no, TFE_TensorHandle* const* dys,
                      int ni, TFE_TensorHandle** dxs, TF_Status* s) {
  (void)data, (void)ctx;
  if (no == 1 && ni == 1 && dys[0] != NULL) dxs[0] = TFE_TensorHandleNewReference(dys[0], s);
}

void tfe_tape_record_copy(TFE_Context* ctx, TFE_TensorHandle* from, TFE_TensorHandle* to) {
  TF_Status* s = TF_NewStatus();
  if (s == NULL) return;
  TFE_GradientTapeRecordCustom(ctx, 1, &from, 1, &to, copy_grad, NULL, NULL, s);
  TF_DeleteStatus(s);
}

TFE_TensorHandle* TFE_TensorHandleNewReference(TFE_TensorHandle* h, TF_Status* s) {
  if (s == NULL) return NULL;
  if (h == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_TensorHandleNewReference: the handle is NULL");
    return NULL;
  }
  if (!tfe_handle_check(h, "TFE_TensorHandleNewReference", s)) return NULL;
  tfe_handle_ref(h);
  tfe_status_ok(s);
  return h;
}

/* ---- the backward pass ---- */

/* Accumulated gradients: handle address -> gradient handle (owned). */
typedef struct gradmap {
  const void** keys;
  TFE_TensorHandle** vals;
  size_t cap, n;
} gradmap;

static TFE_TensorHandle** gradmap_slot(gradmap* m, const void* key, int create) {
  size_t i;
  if (m->cap == 0 || (create && (m->n + 1) * 2 > m->cap)) {
    size_t cap, j;
    const void** keys;
    TFE_TensorHandle** vals;
    if (!create) return NULL;
    cap = m->cap ? m->cap * 2 : 64;
    keys = (const void**)tfe_calloc(cap, sizeof *keys);
    vals = (TFE_TensorHandle**)tfe_calloc(cap, sizeof *vals);
    if (keys == NULL || vals == NULL) {
      tfe_free(keys);
      tfe_free(vals);
      return NULL;
    }
    for (j = 0; j < m->cap; j++) {
      if (m->keys[j] == NULL) continue;
      for (i = ptr_hash(m->keys[j]) & (cap - 1); keys[i] != NULL; i = (i + 1) & (cap - 1)) {
      }
      keys[i] = m->keys[j];
      vals[i] = m->vals[j];
    }
    tfe_free(m->keys);
    tfe_free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
  }
  for (i = ptr_hash(key) & (m->cap - 1); m->keys[i] != NULL; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key) return &m->vals[i];
  }
  if (!create) return NULL;
  m->keys[i] = key;
  m->vals[i] = NULL;
  m->n++;
  return &m->vals[i];
}

static void gradmap_free(gradmap* m) {
  size_t i;
  for (i = 0; i < m->cap; i++) {
    if (m->keys[i] != NULL && m->vals[i] != NULL) TFE_DeleteTensorHandle(m->vals[i]);
  }
  tfe_free(m->keys);
  tfe_free(m->vals);
}

/* The custom device h is on (its full name), or NULL. */
static const char* custom_device_of(const TFE_TensorHandle* h) {
  return h != NULL && h->custom != NULL ? h->custom->device->base.name : NULL;
}

/* Runs a one-output op on ctx: op_type(a[, b]). New handle or NULL. An
 * input on a custom device places the op there (the parallel device wants
 * its ops placed explicitly). */
static TFE_TensorHandle* run_op(TFE_Context* ctx, const char* op_type, TFE_TensorHandle* a,
                                TFE_TensorHandle* b, TF_Status* s) {
  TFE_TensorHandle* out = NULL;
  int n = 1;
  const char* dev = custom_device_of(a) != NULL ? custom_device_of(a) : custom_device_of(b);
  TFE_Op* op = TFE_NewOp(ctx, op_type, s);
  if (op == NULL) return NULL;
  if (dev != NULL) TFE_OpSetDevice(op, dev, s);
  if (TF_GetCode(s) == TF_OK) TFE_OpAddInput(op, a, s);
  if (b != NULL && TF_GetCode(s) == TF_OK) TFE_OpAddInput(op, b, s);
  if (TF_GetCode(s) == TF_OK) TFE_Execute(op, &out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK ? out : NULL;
}

/* Adds g (taken over) to the gradient of key. */
static void accumulate(TFE_Context* ctx, gradmap* m, const void* key, TFE_TensorHandle* g,
                       TF_Status* s) {
  TFE_TensorHandle** slot = gradmap_slot(m, key, 1);
  TFE_TensorHandle* sum;
  if (slot == NULL) {
    TFE_DeleteTensorHandle(g);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_GradientTapeGradient: out of memory");
    return;
  }
  if (*slot == NULL) {
    *slot = g;
    return;
  }
  if (TFE_TensorHandleDataType(g) == TF_VARIANT) {
    /* TensorList / Optional gradients add with AddN's variant kernel. */
    TFE_TensorHandle* pair[2];
    TFE_Op* op = TFE_NewOp(ctx, "AddN", s);
    int n = 1;
    pair[0] = *slot;
    pair[1] = g;
    sum = NULL;
    if (op != NULL) {
      TFE_OpAddInputList(op, pair, 2, s);
      if (TF_GetCode(s) == TF_OK) TFE_Execute(op, &sum, &n, s);
      TFE_DeleteOp(op);
      if (TF_GetCode(s) != TF_OK) sum = NULL;
    }
  } else {
    sum = run_op(ctx, "AddV2", *slot, g, s);
  }
  TFE_DeleteTensorHandle(g);
  if (sum == NULL) return;
  TFE_DeleteTensorHandle(*slot);
  *slot = sum;
}

/* A custom record's gradient: the caller's function with eager handles. */
static void backprop_custom(TFE_GradientTape* t, record* r, gradmap* m, TF_Status* s) {
  TFE_TensorHandle* small[16];
  TFE_TensorHandle** buf = small;
  TFE_TensorHandle** dys;
  TFE_TensorHandle** dxs;
  int i, total = r->num_outputs + r->num_inputs;
  if (total > (int)(sizeof small / sizeof small[0])) {
    buf = (TFE_TensorHandle**)tfe_calloc((size_t)total, sizeof *buf);
    if (buf == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_GradientTapeGradient: out of memory");
      return;
    }
  } else {
    memset(small, 0, sizeof small);
  }
  dys = buf;
  dxs = buf + r->num_outputs;
  for (i = 0; i < r->num_outputs; i++) {
    TFE_TensorHandle** slot = gradmap_slot(m, r->outputs[i], 0);
    dys[i] = slot != NULL ? *slot : NULL;
  }
  tfe_status_ok(s);
  r->custom->fn(r->custom->data, t->ctx, r->num_outputs, dys, r->num_inputs, dxs, s);
  if (TF_GetCode(s) == TF_OK) {
    for (i = 0; i < r->num_inputs; i++) {
      if (dxs[i] != NULL && !tfe_handle_check(dxs[i], "a custom gradient function", s)) {
        dxs[i] = NULL; /* not a handle: never touched again */
        break;
      }
    }
  }
  for (i = 0; i < r->num_inputs; i++) {
    TFE_TensorHandle* h = dxs[i];
    if (h == NULL) continue;
    if (TF_GetCode(s) != TF_OK || !ptrset_has(&t->tracked, r->inputs[i]) ||
        !dtype_is_trainable(TFE_TensorHandleDataType(r->inputs[i]))) {
      TFE_DeleteTensorHandle(h); /* failed, or no gradient flows there */
      continue;
    }
    accumulate(t->ctx, m, r->inputs[i], h, s);
  }
  if (buf != small) tfe_free(buf);
}

/* Calls the gradient of record r with the output gradients it has. */
static void backprop_record(TFE_GradientTape* t, TF_ExecutionContext* ec, record* r,
                            gradmap* m, TF_Status* s) {
  TFE_GradientFunction fn = NULL;
  TFE_GradientContext g;
  TF_AbstractTensor* small[4 * 8];
  TF_AbstractTensor** buf = small;
  int i, any = 0, nd = 0, total = 2 * r->num_inputs + 2 * r->num_outputs;
  for (i = 0; i < r->num_outputs; i++) {
    TFE_TensorHandle** slot = gradmap_slot(m, r->outputs[i], 0);
    if (slot != NULL && *slot != NULL) any = 1;
  }
  if (!any) return;
  if (r->custom != NULL) {
    backprop_custom(t, r, m, s);
    return;
  }
  if (!tfe_grad_lookup(r->op_type, &fn, &nd) &&
      tfe_flib_find(tfe_ctx_flib(t->ctx), r->op_type) != NULL) {
    fn = tfe_grad_function_call; /* a call of a context function (grad_func.c) */
    nd = 0;
  } else if (fn == NULL && !nd) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "No gradient defined for operation of type %s: tfe has no registered "
                    "gradient for it (TFE_RegisterGradient adds one)",
                    r->op_type);
    return;
  }
  if (nd) return; /* the gradient stops here */
  if (total > (int)(sizeof small / sizeof small[0])) {
    buf = (TF_AbstractTensor**)tfe_calloc((size_t)total, sizeof *buf);
    if (buf == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_GradientTapeGradient: out of memory");
      return;
    }
  } else {
    memset(small, 0, sizeof small);
  }
  tfe_unified_set_eager_device(ec, r->device);
  g.ec = ec;
  g.op_type = r->op_type;
  g.attrs = r->attrs;
  g.num_inputs = r->num_inputs;
  g.num_outputs = r->num_outputs;
  g.inputs = buf;
  g.in_grads = buf + r->num_inputs;
  g.outputs = buf + 2 * r->num_inputs;
  g.out_grads = buf + 2 * r->num_inputs + r->num_outputs;
  for (i = 0; i < r->num_inputs; i++) {
    if ((g.inputs[i] = tfe_unified_wrap_handle(r->inputs[i])) == NULL) goto oom;
  }
  for (i = 0; i < r->num_outputs; i++) {
    TFE_TensorHandle** slot = gradmap_slot(m, r->outputs[i], 0);
    if ((g.outputs[i] = tfe_unified_wrap_handle(r->outputs[i])) == NULL) goto oom;
    if (slot != NULL && *slot != NULL &&
        (g.out_grads[i] = tfe_unified_wrap_handle(*slot)) == NULL) {
      goto oom;
    }
  }
  tfe_status_ok(s);
  fn(&g, s);
  if (TF_GetCode(s) == TF_OK) {
    for (i = 0; i < r->num_inputs && TF_GetCode(s) == TF_OK; i++) {
      TFE_TensorHandle* h = tfe_unified_handle_of(g.in_grads[i]);
      if (h == NULL) continue;
      if (!ptrset_has(&t->tracked, r->inputs[i]) ||
          !dtype_is_trainable(TFE_TensorHandleDataType(r->inputs[i]))) {
        continue; /* no gradient flows to untracked or integer tensors */
      }
      tfe_handle_ref(h);
      accumulate(t->ctx, m, r->inputs[i], h, s);
    }
  }
  goto done;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_GradientTapeGradient: out of memory");
done:
  for (i = 0; i < total; i++) TF_DeleteAbstractTensor(buf[i]);
  if (buf != small) tfe_free(buf);
}

void TFE_GradientTapeGradient(TFE_GradientTape* t, int num_targets,
                              TFE_TensorHandle* const* targets,
                              TFE_TensorHandle* const* output_gradients, int num_sources,
                              TFE_TensorHandle* const* sources,
                              TFE_UnconnectedGradients unconnected,
                              TFE_TensorHandle** gradients, TF_Status* s) {
  gradmap m;
  TF_ExecutionContext* ec;
  int i, was_recording;
  if (s == NULL) return;
  if (t == NULL || num_targets < 0 || num_sources < 0 ||
      (num_targets > 0 && targets == NULL) || (num_sources > 0 && (sources == NULL ||
                                                                   gradients == NULL))) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_GradientTapeGradient: %s",
                    t == NULL ? "the tape is NULL"
                              : "targets/sources/gradients must describe arrays");
    return;
  }
  if (unconnected != TFE_UNCONNECTED_NONE && unconnected != TFE_UNCONNECTED_ZERO) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_GradientTapeGradient: unconnected must be TFE_UNCONNECTED_NONE or "
                    "TFE_UNCONNECTED_ZERO, got %d",
                    (int)unconnected);
    return;
  }
  for (i = 0; i < num_sources; i++) gradients[i] = NULL;
  for (i = 0; i < num_targets; i++) {
    if (targets[i] == NULL || !tfe_handle_check(targets[i], "TFE_GradientTapeGradient", s)) {
      if (targets[i] == NULL) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_GradientTapeGradient: target %d is NULL",
                        i);
      }
      return;
    }
  }
  for (i = 0; i < num_sources; i++) {
    if (sources[i] == NULL || !tfe_handle_check(sources[i], "TFE_GradientTapeGradient", s)) {
      if (sources[i] == NULL) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_GradientTapeGradient: source %d is NULL",
                        i);
      }
      return;
    }
  }
  pthread_mutex_lock(&g_mu);
  if (t->used) {
    pthread_mutex_unlock(&g_mu);
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "A non-persistent GradientTape can only be used to compute one set of "
                    "gradients (or jacobians)");
    return;
  }
  if (t->oom) {
    pthread_mutex_unlock(&g_mu);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "the tape ran out of memory while recording; its gradients would be "
                    "wrong");
    return;
  }
  was_recording = t->recording;
  set_recording(t, 0); /* its own gradient ops are not recorded on it */
  if (!t->persistent) t->used = 1;
  pthread_mutex_unlock(&g_mu);

  memset(&m, 0, sizeof m);
  ec = tfe_unified_borrow_eager(t->ctx);
  if (ec == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_GradientTapeGradient: out of memory");
    goto finish;
  }
  tfe_status_ok(s);
  for (i = 0; i < num_targets && TF_GetCode(s) == TF_OK; i++) {
    TFE_TensorHandle* seed;
    if (output_gradients != NULL && output_gradients[i] != NULL) {
      tfe_handle_ref(output_gradients[i]);
      seed = output_gradients[i];
    } else {
      seed = run_op(t->ctx, "OnesLike", targets[i], NULL, s);
      if (seed == NULL) break;
    }
    accumulate(t->ctx, &m, targets[i], seed, s);
  }
  for (i = t->num_records - 1; i >= 0 && TF_GetCode(s) == TF_OK; i--) {
    backprop_record(t, ec, &t->records[i], &m, s);
  }
  for (i = 0; i < num_sources && TF_GetCode(s) == TF_OK; i++) {
    TFE_TensorHandle** slot = gradmap_slot(&m, sources[i], 0);
    if (slot != NULL && *slot != NULL) {
      tfe_handle_ref(*slot);
      gradients[i] = *slot;
    } else if (unconnected == TFE_UNCONNECTED_ZERO) {
      gradients[i] = run_op(t->ctx, "ZerosLike", sources[i], NULL, s);
    }
  }
  if (TF_GetCode(s) != TF_OK) {
    for (i = 0; i < num_sources; i++) {
      TFE_DeleteTensorHandle(gradients[i]);
      gradients[i] = NULL;
    }
  }
finish:
  gradmap_free(&m);
  TF_DeleteExecutionContext(ec);
  pthread_mutex_lock(&g_mu);
  if (t->persistent && was_recording) set_recording(t, 1);
  pthread_mutex_unlock(&g_mu);
  if (!t->persistent) {
    /* Nothing can use the records any more: release the tensors now. */
    custom_grad* dead = NULL;
    TFE_GradientTape old;
    pthread_mutex_lock(&g_mu);
    tape_take(t, &old);
    pthread_mutex_unlock(&g_mu);
    tape_clear(&old, &dead);
    custom_delete_all(dead);
  }
}
