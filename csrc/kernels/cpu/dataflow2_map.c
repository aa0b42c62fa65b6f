/* CPU kernels: staging maps (MapStage, MapUnstage, MapUnstageNoKey,
 * MapPeek, MapSize, MapIncompleteSize, MapClear and their Ordered* forms),
 * with TensorFlow 2.21's semantics and messages.
 *
 * A staging map is a resource named by (context, device, container,
 * shared_name or the node's name), made on first use with the op's dtypes,
 * capacity and memory_limit. It holds int64 keys mapped to tuples of
 * tensors. An insert whose indices do not cover every dtype is "partial":
 * it goes to a second, incomplete map until the other indices arrive, and
 * then moves to the main map. Takes (MapUnstage, MapPeek, MapUnstageNoKey)
 * wait until their key (or any key) is in the main map; complete inserts
 * wait while the main map is at capacity or the bytes would pass
 * memory_limit. A wait ends only by another op or by the run's
 * cancellation (CANCELLED); an eager take of a key that never comes waits
 * forever, as in TF.
 *
 * Behaviour kept from TF on purpose (tests record it):
 *  - the bytes an insert counts are those of its LAST value tensor (TF's
 *    sum over optional tensors keeps only the last term), while a take
 *    subtracts the sum of what it returns, MapPeek included; the counter
 *    is unsigned and wraps as TF's size_t does;
 *  - a complete insert of a key already in the main map is dropped (the
 *    bytes are still counted);
 *  - an insert with as many indices as dtypes is complete whatever the
 *    index values are, and stores the values in order.
 * Both map kinds keep their keys sorted; MapUnstageNoKey takes the
 * smallest key (TF's unordered map takes the first in its hash order).
 * Where TF would read past a tuple (fewer values than indices, or an
 * output count that does not match) these kernels fail with
 * INVALID_ARGUMENT instead. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_internal.h"
#include "kernels/cpu/dataflow2_common.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "kernels/resource.h"
#include "ops/attr_value.h"
#include "tensorflow/c/eager/c_api_experimental.h"

void tfe_register_cpu_dataflow2_map_kernels(void);

typedef struct smap_entry {
  int64_t key;
  TF_Tensor* key_t; /* the key tensor as inserted (shared buffer) */
  TF_Tensor** v;    /* nv slots, NULL where empty */
  int nv;
} smap_entry;

typedef struct smap_list {
  smap_entry* e;
  int64_t n, cap;
} smap_list;

typedef struct smap {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int ndtypes;
  uint64_t capacity, memory_limit, bytes;
  smap_list done; /* complete tuples, sorted by key */
  smap_list inc;  /* incomplete tuples, sorted by key */
} smap;

static void entry_free(smap_entry* e) {
  int i;
  if (e->v != NULL) {
    for (i = 0; i < e->nv; i++) TF_DeleteTensor(e->v[i]);
  }
  tfe_free(e->v);
  TF_DeleteTensor(e->key_t);
  memset(e, 0, sizeof(*e));
}

static void list_clear(smap_list* l) {
  int64_t i;
  for (i = 0; i < l->n; i++) entry_free(&l->e[i]);
  l->n = 0;
}

static void smap_free(void* obj) {
  smap* m = (smap*)obj;
  if (m == NULL) return;
  list_clear(&m->done);
  list_clear(&m->inc);
  tfe_free(m->done.e);
  tfe_free(m->inc.e);
  pthread_cond_destroy(&m->cv);
  pthread_mutex_destroy(&m->mu);
  tfe_free(m);
}

/* Position of key in l (found: *hit 1), else where it would go. */
static int64_t list_find(const smap_list* l, int64_t key, int* hit) {
  int64_t lo = 0, hi = l->n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (l->e[mid].key < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  *hit = lo < l->n && l->e[lo].key == key;
  return lo;
}

/* Inserts e at pos (taking it); 0 on OOM (e untouched). */
static int list_insert(smap_list* l, int64_t pos, const smap_entry* e) {
  if (l->n == l->cap) {
    int64_t ncap = l->cap ? l->cap * 2 : 8;
    smap_entry* ne;
    if (ncap > (int64_t)(SIZE_MAX / sizeof(smap_entry) / 2)) return 0;
    ne = (smap_entry*)tfe_realloc(l->e, sizeof(smap_entry) * (size_t)ncap);
    if (ne == NULL) return 0;
    l->e = ne;
    l->cap = ncap;
  }
  memmove(l->e + pos + 1, l->e + pos,
          sizeof(smap_entry) * (size_t)(l->n - pos));
  l->e[pos] = *e;
  l->n++;
  return 1;
}

/* Removes the entry at pos without freeing it. */
static void list_remove_at(smap_list* l, int64_t pos) {
  memmove(l->e + pos, l->e + pos + 1,
          sizeof(smap_entry) * (size_t)(l->n - pos - 1));
  l->n--;
}

/* TF's Tensor::TotalBytes: 0 for an empty tensor. */
static uint64_t tensor_bytes(const TF_Tensor* t) {
  if (kutil_num_elements(t) == 0) return 0;
  return (uint64_t)TF_TensorByteSize(t);
}

/* A new, empty map with the node's dtypes, capacity and memory_limit;
 * NULL with k->status set (or still OK when out of memory). */
static void* smap_make(tfe_kernel_context* k, const char* name) {
  const TF_DataType* types = NULL;
  int nt = 0;
  smap* m;
  (void)name;
  if (!tfe_attrs_get_type_list(k->attrs, "dtypes", &types, &nt, k->status)) {
    return NULL;
  }
  m = (smap*)tfe_calloc(1, sizeof(*m));
  if (m == NULL) return NULL;
  if (!df2_sync_init(&m->mu, &m->cv)) {
    tfe_free(m);
    return NULL;
  }
  m->ndtypes = nt;
  /* The attrs have minimum 0; TF keeps them as size_t. */
  m->capacity = (uint64_t)kutil_attr_int64(k, "capacity", 0);
  m->memory_limit = (uint64_t)kutil_attr_int64(k, "memory_limit", 0);
  return m;
}

static const df2_kind kSmap = {"StagingMap", smap_make, NULL, smap_free};

/* The map this kernel names (made on first use); a new reference in *res,
 * or NULL with k->status set. Ordered and unordered maps of one name are
 * different resources, as in TF (they are different C++ types there). */
static smap* smap_lookup(tfe_kernel_context* k, int ordered,
                         tfe_resource** res) {
  const char *container, *shared;
  char name[600];
  df2_container_attrs(k, &container, &shared);
  if (shared[0] == '\0') {
    shared = k->node_name != NULL ? k->node_name : k->op_def->name;
  }
  snprintf(name, sizeof name, "%s\x1fStagingMap<%s>", shared,
           ordered ? "true" : "false");
  *res = df2_find_or_make(k, &kSmap, container, name, "staging map", shared);
  return *res != NULL ? (smap*)(*res)->object : NULL;
}

/* The scalar int64 key of input 0, with TF's messages. */
static int read_key(tfe_kernel_context* k, int stage, int64_t* key) {
  const TF_Tensor* t = k->inputs[0];
  kutil_shape_buf b;
  if (t->dtype != TF_INT64 || t->num_dims != 0) {
    if (stage) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "key must be an int64 scalar, got tensor with shape: %s",
                 kutil_tshape(t, &b));
    } else {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "key must be an int64 scalar: %s",
                 kutil_tshape(t, &b));
    }
    return 0;
  }
  *key = *(const int64_t*)kutil_data(t);
  return 1;
}

/* TF's index checks: not empty, strictly increasing. */
static int check_indices(tfe_kernel_context* k, const TF_Tensor* idx) {
  const int32_t* p = (const int32_t*)kutil_data(idx);
  int64_t n = kutil_num_elements(idx), i;
  if (n == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Indices are empty");
    return 0;
  }
  for (i = 0; i + 1 < n; i++) {
    if (p[i] >= p[i + 1]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Indices are not strictly ordered");
      return 0;
    }
  }
  return 1;
}

/* TF compares the index as size_t: a negative one shows as 2**64 - |i|. */
static int check_index(tfe_kernel_context* k, const smap* m, int64_t key,
                       int32_t index) {
  if (index < 0 || index >= m->ndtypes) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Index '%llu' for key '%lld' was out of bounds '%d'.",
               (unsigned long long)(uint64_t)(int64_t)index, (long long)key,
               m->ndtypes);
    return 0;
  }
  return 1;
}

static int would_exceed(const smap* m, uint64_t bytes) {
  return m->memory_limit > 0 && bytes + m->bytes > m->memory_limit;
}

/* Moves a complete tuple into the main map (dropped when the key is
 * there already, as TF's map insert does); frees e when not taken. */
static void put_complete(smap* m, smap_entry* e) {
  int hit;
  int64_t pos = list_find(&m->done, e->key, &hit);
  if (hit || !list_insert(&m->done, pos, e)) entry_free(e);
  pthread_cond_broadcast(&m->cv);
}

static void map_stage_compute_impl(tfe_kernel_context* k, int ordered) {
  tfe_resource* res;
  smap* m;
  int64_t key, nidx, i;
  const TF_Tensor* idx_t;
  const int32_t* idx;
  int nvals = k->num_inputs - 2, j;
  uint64_t bytes;
  df2_wait w;
  if (!read_key(k, 1, &key)) return;
  m = smap_lookup(k, ordered, &res);
  if (m == NULL) return;
  idx_t = k->inputs[1];
  idx = (const int32_t*)kutil_data(idx_t);
  nidx = kutil_num_elements(idx_t);
  if (!df2_wait_begin(k, &w, &m->mu, &m->cv, "staging map wait")) {
    KUTIL_FAIL(k, TF_CANCELLED, "%s operation was cancelled",
               k->op_def->name);
    tfe_resource_unref(res);
    return;
  }
  pthread_mutex_lock(&m->mu);
  if (!check_indices(k, idx_t)) goto unlock;
  /* TF counts only the last value's bytes (see the top of the file). */
  bytes = nvals > 0 ? tensor_bytes(k->inputs[k->num_inputs - 1]) : 0;
  if (m->memory_limit > 0 && bytes > m->memory_limit) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "Attempted to insert tensors with combined size of '%llu' "
               "bytes into Staging Area with a memory limit of '%llu'.",
               (unsigned long long)bytes,
               (unsigned long long)m->memory_limit);
    goto unlock;
  }
  if (nidx != m->ndtypes) {
    /* A partial insert. */
    int hit;
    int64_t pos;
    if (nidx > nvals) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s: %lld indices but only %d values", k->op_def->name,
                 (long long)nidx, nvals);
      goto unlock;
    }
    while (would_exceed(m, bytes) && !w.cancelled) {
      pthread_cond_wait(&m->cv, &m->mu);
    }
    if (w.cancelled) goto cancelled;
    pos = list_find(&m->inc, key, &hit);
    if (!hit) {
      smap_entry e;
      memset(&e, 0, sizeof e);
      e.key = key;
      e.nv = m->ndtypes;
      e.v = (TF_Tensor**)tfe_calloc((size_t)(e.nv > 0 ? e.nv : 1),
                                    sizeof(TF_Tensor*));
      e.key_t = df2_share(k->inputs[0]);
      if (e.v == NULL || e.key_t == NULL) {
        entry_free(&e);
        goto oom;
      }
      for (i = 0; i < nidx; i++) {
        if (!check_index(k, m, key, idx[i])) {
          entry_free(&e);
          goto unlock;
        }
        TF_DeleteTensor(e.v[idx[i]]);
        e.v[idx[i]] = df2_share(k->inputs[2 + i]);
        if (e.v[idx[i]] == NULL) {
          entry_free(&e);
          goto oom;
        }
      }
      if (!list_insert(&m->inc, pos, &e)) {
        entry_free(&e);
        goto oom;
      }
      m->bytes += bytes;
    } else {
      smap_entry* e = &m->inc.e[pos];
      int complete = 1;
      for (i = 0; i < nidx; i++) {
        if (!check_index(k, m, key, idx[i])) goto unlock;
        if (e->v[idx[i]] != NULL) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "The tensor for index '%d' for key '%lld' was already "
                     "initialized '%d'.",
                     (int)idx[i], (long long)key, m->ndtypes);
          goto unlock;
        }
        e->v[idx[i]] = df2_share(k->inputs[2 + i]);
        if (e->v[idx[i]] == NULL) goto oom;
      }
      m->bytes += bytes;
      for (j = 0; j < e->nv; j++) complete &= e->v[j] != NULL;
      if (complete) {
        smap_entry moved = *e;
        list_remove_at(&m->inc, pos);
        put_complete(m, &moved);
      }
    }
    goto unlock;
  }
  /* A complete insert: the values in order, whatever the indices. */
  while ((would_exceed(m, bytes) ||
          (m->capacity > 0 && (uint64_t)m->done.n >= m->capacity)) &&
         !w.cancelled) {
    pthread_cond_wait(&m->cv, &m->mu);
  }
  if (w.cancelled) goto cancelled;
  {
    smap_entry e;
    memset(&e, 0, sizeof e);
    e.key = key;
    e.nv = nvals;
    e.v = (TF_Tensor**)tfe_calloc((size_t)(nvals > 0 ? nvals : 1),
                                  sizeof(TF_Tensor*));
    e.key_t = df2_share(k->inputs[0]);
    if (e.v == NULL || e.key_t == NULL) {
      entry_free(&e);
      goto oom;
    }
    for (j = 0; j < nvals; j++) {
      e.v[j] = df2_share(k->inputs[2 + j]);
      if (e.v[j] == NULL) {
        entry_free(&e);
        goto oom;
      }
    }
    put_complete(m, &e);
    m->bytes += bytes;
  }
  goto unlock;
cancelled:
  KUTIL_FAIL(k, TF_CANCELLED, "%s operation was cancelled", k->op_def->name);
  goto unlock;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
             k->op_def->name);
unlock:
  pthread_mutex_unlock(&m->mu);
  df2_wait_end(k, &w);
  tfe_resource_unref(res);
}

/* Takes (copy 0) or copies (copy 1) the tensors at idx from e into outs
 * (caller frees). TF's order of checks; on failure the tensors taken so far
 * are lost, as in TF. Returns the count taken, or -1. */
static int take_from(tfe_kernel_context* k, smap* m, smap_entry* e,
                     const int32_t* idx, int64_t nidx, int copy,
                     TF_Tensor** outs) {
  int64_t i;
  for (i = 0; i < nidx; i++) {
    int32_t x = idx[i];
    if (!check_index(k, m, e->key, x)) return -1;
    if (x >= e->nv || e->v[x] == NULL) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Tensor at index '%d' for key '%lld' has already been "
                 "removed.",
                 (int)x, (long long)e->key);
      return -1;
    }
    if (copy) {
      outs[i] = df2_share(e->v[x]);
      if (outs[i] == NULL) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                   k->op_def->name);
        return -1;
      }
    } else {
      outs[i] = e->v[x];
      e->v[x] = NULL;
    }
  }
  return (int)nidx;
}

static int entry_empty(const smap_entry* e) {
  int j;
  for (j = 0; j < e->nv; j++) {
    if (e->v[j] != NULL) return 0;
  }
  return 1;
}

/* Sets outputs first..first+n-1 from outs (taking them), checking each
 * against the op's declared output types (TF's eager message). */
static void emit(tfe_kernel_context* k, int first, TF_Tensor** outs,
                 int64_t n) {
  int64_t i;
  if (first + n != k->num_outputs) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: %lld tensors taken for %d outputs (dtypes and indices "
               "must have the same length)",
               k->op_def->name, (long long)n, k->num_outputs - first);
    return;
  }
  for (i = 0; i < n; i++) {
    TF_DataType want = k->output_types[first + i];
    if (outs[i]->dtype != want) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Type mismatch: actual %s vs. expect %s",
                 tfe_dtype_short_name(outs[i]->dtype),
                 tfe_dtype_short_name(want));
      return;
    }
  }
  for (i = 0; i < n; i++) {
    tfe_kernel_set_output(k, first + (int)i, outs[i]);
    outs[i] = NULL;
  }
}

/* MapUnstage (copy 0), MapPeek (copy 1), MapUnstageNoKey (nokey 1). */
static void map_take_impl(tfe_kernel_context* k, int ordered, int copy,
                          int nokey) {
  tfe_resource* res;
  smap* m;
  int64_t key = 0, nidx, i, pos = 0;
  const TF_Tensor* idx_t;
  TF_Tensor** outs;
  TF_Tensor* key_out = NULL;
  df2_wait w;
  int hit = 0, got;
  uint64_t sum = 0;
  if (!nokey && !read_key(k, 0, &key)) return;
  idx_t = k->inputs[nokey ? 0 : 1];
  nidx = kutil_num_elements(idx_t);
  m = smap_lookup(k, ordered, &res);
  if (m == NULL) return;
  outs = (TF_Tensor**)tfe_calloc((size_t)(nidx > 0 ? nidx : 1),
                                 sizeof(TF_Tensor*));
  if (outs == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    tfe_resource_unref(res);
    return;
  }
  if (!df2_wait_begin(k, &w, &m->mu, &m->cv, "staging map wait")) {
    KUTIL_FAIL(k, TF_CANCELLED, "%s operation was cancelled",
               k->op_def->name);
    tfe_free(outs);
    tfe_resource_unref(res);
    return;
  }
  pthread_mutex_lock(&m->mu);
  if (!check_indices(k, idx_t)) goto unlock;
  for (;;) {
    if (nokey) {
      hit = m->done.n > 0;
      pos = 0;
    } else {
      pos = list_find(&m->done, key, &hit);
    }
    if (hit || w.cancelled) break;
    pthread_cond_wait(&m->cv, &m->mu);
  }
  if (!hit) {
    KUTIL_FAIL(k, TF_CANCELLED, "%s operation was cancelled",
               k->op_def->name);
    goto unlock;
  }
  {
    smap_entry* e = &m->done.e[pos];
    if (nokey) {
      key_out = df2_share(e->key_t);
      if (key_out == NULL) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                   k->op_def->name);
        goto unlock;
      }
    }
    got = take_from(k, m, e, (const int32_t*)kutil_data(idx_t), nidx, copy,
                    outs);
    if (got < 0) goto unlock;
    if (!copy && entry_empty(e)) {
      smap_entry gone = *e;
      list_remove_at(&m->done, pos);
      entry_free(&gone);
    }
    for (i = 0; i < nidx; i++) sum += tensor_bytes(outs[i]);
    m->bytes -= sum;
    if (!copy) pthread_cond_broadcast(&m->cv);
  }
unlock:
  pthread_mutex_unlock(&m->mu);
  df2_wait_end(k, &w);
  if (KUTIL_OK(k)) {
    if (nokey) {
      tfe_kernel_set_output(k, 0, key_out);
      key_out = NULL;
    }
    emit(k, nokey ? 1 : 0, outs, nidx);
  }
  TF_DeleteTensor(key_out);
  for (i = 0; i < nidx; i++) TF_DeleteTensor(outs[i]);
  tfe_free(outs);
  tfe_resource_unref(res);
}

static void map_size_impl(tfe_kernel_context* k, int ordered, int inc) {
  tfe_resource* res;
  smap* m = smap_lookup(k, ordered, &res);
  TF_Tensor* o;
  int64_t n;
  if (m == NULL) return;
  pthread_mutex_lock(&m->mu);
  n = inc ? m->inc.n : m->done.n;
  pthread_mutex_unlock(&m->mu);
  tfe_resource_unref(res);
  o = tfe_kernel_alloc_output(k, 0, TF_INT32, NULL, 0);
  if (o != NULL) *(int32_t*)kutil_data(o) = (int32_t)n;
}

static void map_clear_impl(tfe_kernel_context* k, int ordered) {
  tfe_resource* res;
  smap* m = smap_lookup(k, ordered, &res);
  if (m == NULL) return;
  pthread_mutex_lock(&m->mu);
  list_clear(&m->done);
  list_clear(&m->inc);
  m->bytes = 0;
  pthread_cond_broadcast(&m->cv);
  pthread_mutex_unlock(&m->mu);
  tfe_resource_unref(res);
}

static void k_map_stage(tfe_kernel_context* k) { map_stage_compute_impl(k, 0); }
static void k_omap_stage(tfe_kernel_context* k) { map_stage_compute_impl(k, 1); }
static void k_map_unstage(tfe_kernel_context* k) { map_take_impl(k, 0, 0, 0); }
static void k_omap_unstage(tfe_kernel_context* k) { map_take_impl(k, 1, 0, 0); }
static void k_map_peek(tfe_kernel_context* k) { map_take_impl(k, 0, 1, 0); }
static void k_omap_peek(tfe_kernel_context* k) { map_take_impl(k, 1, 1, 0); }
static void k_map_nokey(tfe_kernel_context* k) { map_take_impl(k, 0, 0, 1); }
static void k_omap_nokey(tfe_kernel_context* k) { map_take_impl(k, 1, 0, 1); }
static void k_map_size(tfe_kernel_context* k) { map_size_impl(k, 0, 0); }
static void k_omap_size(tfe_kernel_context* k) { map_size_impl(k, 1, 0); }
static void k_map_isize(tfe_kernel_context* k) { map_size_impl(k, 0, 1); }
static void k_omap_isize(tfe_kernel_context* k) { map_size_impl(k, 1, 1); }
static void k_map_clear(tfe_kernel_context* k) { map_clear_impl(k, 0); }
static void k_omap_clear(tfe_kernel_context* k) { map_clear_impl(k, 1); }

void tfe_register_cpu_dataflow2_map_kernels(void) {
  static const struct {
    const char* op;
    void (*fn)(tfe_kernel_context*);
  } regs[] = {
      {"MapStage", k_map_stage},
      {"OrderedMapStage", k_omap_stage},
      {"MapUnstage", k_map_unstage},
      {"OrderedMapUnstage", k_omap_unstage},
      {"MapPeek", k_map_peek},
      {"OrderedMapPeek", k_omap_peek},
      {"MapUnstageNoKey", k_map_nokey},
      {"OrderedMapUnstageNoKey", k_omap_nokey},
      {"MapSize", k_map_size},
      {"OrderedMapSize", k_omap_size},
      {"MapIncompleteSize", k_map_isize},
      {"OrderedMapIncompleteSize", k_omap_isize},
      {"MapClear", k_map_clear},
      {"OrderedMapClear", k_omap_clear},
  };
  int i;
  for (i = 0; i < KUTIL_COUNT(regs); i++) {
    tfe_kutil_register(regs[i].op, regs[i].fn, NULL, NULL, 0, NULL, NULL, 0);
  }
}
