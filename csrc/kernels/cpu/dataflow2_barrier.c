/* CPU kernels: TF 1 barriers (Barrier, BarrierInsertMany, BarrierTakeMany,
 * BarrierClose, BarrierReadySize, BarrierIncompleteSize) with TensorFlow
 * 2.21's semantics and messages.
 *
 * A barrier maps string keys to tuples of value components. InsertMany
 * fills one component for a batch of keys; a key whose components are all
 * filled becomes "ready" and moves to a priority queue ordered by the
 * barrier's insertion counter at the time the key was first seen (TF's
 * input_index, starting at INT64_MIN and advanced once per InsertMany that
 * introduced a new key); ties come out in the order of TF's heap. TakeMany waits for
 * enough ready elements and returns their insertion indices, keys and
 * values. Close stops new keys (and, with cancel_pending_enqueues, drops
 * the incomplete ones); the ready queue itself closes when the barrier
 * closes with nothing incomplete (or with cancellation), after which takes
 * that cannot be served fail with OUT_OF_RANGE. As in TF, a barrier closed
 * while keys were incomplete keeps its queue open, so a take asking for
 * more than ever becomes ready waits. Waits end by another op or by the
 * run's cancellation (CANCELLED). Barriers take a Ref(string) handle, so
 * they run in graphs only (TF refuses them eagerly too). */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_internal.h"
#include "core/variant.h"
#include "kernels/cpu/dataflow2_common.h"
#include "kernels/cpu/kutil.h"
#include "ops/attr_value.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/tf_tstring.h"

void tfe_register_cpu_dataflow2_barrier_kernels(void);

#define STRING_REF ((TF_DataType)-1)
#define BAR_MAX_RANK 64

typedef struct bar_elem {
  char* key;
  size_t klen;
  int64_t index;
  TF_Tensor** c; /* n components, NULL where not set */
} bar_elem;

typedef struct barrier {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  char* name;
  int n;
  TF_DataType* types;
  tfe_shape* shapes; /* n fully defined shapes */
  int closed, queue_closed, queue_cancelled, cancel_pending;
  int64_t input_index;
  bar_elem* inc; /* incomplete, sorted by key bytes */
  int64_t ninc, capinc;
  bar_elem* ready; /* a heap (see ready_push) */
  int64_t nready, capready;
} barrier;

static void elem_free(bar_elem* e, int n) {
  int i;
  if (e->c != NULL) {
    for (i = 0; i < n; i++) TF_DeleteTensor(e->c[i]);
  }
  tfe_free(e->c);
  tfe_free(e->key);
  memset(e, 0, sizeof(*e));
}

static void barrier_free(void* obj) {
  barrier* b = (barrier*)obj;
  int64_t i;
  if (b == NULL) return;
  for (i = 0; i < b->ninc; i++) elem_free(&b->inc[i], b->n);
  for (i = 0; i < b->nready; i++) elem_free(&b->ready[i], b->n);
  tfe_free(b->inc);
  tfe_free(b->ready);
  for (i = 0; i < b->n; i++) tfe_free(b->shapes[i].dims);
  tfe_free(b->shapes);
  tfe_free(b->types);
  tfe_free(b->name);
  pthread_cond_destroy(&b->cv);
  pthread_mutex_destroy(&b->mu);
  tfe_free(b);
}

/* ---- shapes and messages ---- */

static void shape_text(const int64_t* dims, int nd, char* buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  int i;
  for (i = 0; i < nd && len < cap; i++) {
    len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                            (long long)dims[i]);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

static void shape_list_text(const tfe_shape* s, int n, char* buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  char one[256];
  int i;
  for (i = 0; i < n && len < cap; i++) {
    shape_text(s[i].dims, s[i].num_dims, one, sizeof one);
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", one);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* The barrier attrs of the making node; 0 with k->status set. */
static int read_attrs(tfe_kernel_context* k, const TF_DataType** types,
                      int* n, const tfe_attr_value** shapes) {
  int64_t cap;
  const tfe_attr_value* sh;
  int i, j;
  if (!tfe_attrs_get_type_list(k->attrs, "component_types", types, n,
                               k->status)) {
    return 0;
  }
  sh = tfe_attrs_find(k->attrs, "shapes");
  *shapes = sh;
  if ((sh != NULL ? sh->list_size : 0) != *n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "All of the component shapes must be specified");
    return 0;
  }
  for (i = 0; i < *n; i++) {
    const tfe_shape* s = &sh->list.shape[i];
    int bad = s->num_dims < 0;
    for (j = 0; j < s->num_dims; j++) bad |= s->dims[j] < 0;
    if (bad) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Attr shapes has a shape that is not fully defined");
      return 0;
    }
  }
  cap = kutil_attr_int64(k, "capacity", -1);
  if (cap != -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Barrier only accepts capacity=-1.  Feed the inputs to your "
               "Barrier through a queue to enforce a limited capacity.");
    return 0;
  }
  return 1;
}

static void* barrier_make(tfe_kernel_context* k, const char* name) {
  const TF_DataType* types;
  const tfe_attr_value* sh;
  int n, i;
  barrier* b;
  if (!read_attrs(k, &types, &n, &sh)) return NULL;
  b = (barrier*)tfe_calloc(1, sizeof(*b));
  if (b == NULL) goto oom;
  if (!df2_sync_init(&b->mu, &b->cv)) {
    tfe_free(b);
    goto oom;
  }
  b->n = n;
  b->name = tfe_strdup(name);
  b->types = (TF_DataType*)tfe_calloc((size_t)(n > 0 ? n : 1),
                                      sizeof(TF_DataType));
  b->shapes = (tfe_shape*)tfe_calloc((size_t)(n > 0 ? n : 1),
                                     sizeof(tfe_shape));
  if (b->name == NULL || b->types == NULL || b->shapes == NULL) {
    barrier_free(b);
    goto oom;
  }
  for (i = 0; i < n; i++) {
    const tfe_shape* s = &sh->list.shape[i];
    b->types[i] = types[i];
    b->shapes[i].num_dims = s->num_dims;
    if (s->num_dims > 0) {
      b->shapes[i].dims =
          (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)s->num_dims);
      if (b->shapes[i].dims == NULL) {
        barrier_free(b);
        goto oom;
      }
      memcpy(b->shapes[i].dims, s->dims, sizeof(int64_t) * (size_t)s->num_dims);
    }
  }
  b->input_index = INT64_MIN;
  return b;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "Failed to allocate barrier");
  return NULL;
}

static int barrier_verify(tfe_kernel_context* k, void* obj, const char* name) {
  barrier* b = (barrier*)obj;
  const TF_DataType* types;
  const tfe_attr_value* sh;
  int n, i, j, same;
  char x[1024], y[1024];
  if (!read_attrs(k, &types, &n, &sh)) return 0;
  same = n == b->n;
  for (i = 0; same && i < n; i++) same = types[i] == b->types[i];
  if (!same) {
    df2_dtype_list(b->types, b->n, x, sizeof x);
    df2_dtype_list(types, n, y, sizeof y);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shared barrier '%s' has component types %s but requested "
               "component types were %s",
               name, x, y);
    return 0;
  }
  for (i = 0; same && i < n; i++) {
    const tfe_shape* s = &sh->list.shape[i];
    same = s->num_dims == b->shapes[i].num_dims;
    for (j = 0; same && j < s->num_dims; j++) {
      same = s->dims[j] == b->shapes[i].dims[j];
    }
  }
  if (!same) {
    shape_list_text(b->shapes, b->n, x, sizeof x);
    shape_list_text(sh->list.shape, n, y, sizeof y);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shared barrier '%s' has component shapes %s but requested "
               "component shapes were %s",
               name, x, y);
    return 0;
  }
  return 1;
}

static const df2_kind kBarrier = {"N10tensorflow7barrier7BarrierE",
                                  barrier_make, barrier_verify, barrier_free};

static void k_barrier(tfe_kernel_context* k) {
  const TF_DataType* types;
  const tfe_attr_value* sh;
  int n;
  /* TF checks the attrs when it builds the kernel, before any lookup. */
  if (!read_attrs(k, &types, &n, &sh)) return;
  df2_maker_compute(k, &kBarrier, 1);
}

/* ---- element storage ---- */

static int key_cmp(const char* a, size_t al, const char* b, size_t bl) {
  int c = memcmp(a, b, al < bl ? al : bl);
  if (c != 0) return c;
  return al < bl ? -1 : al > bl ? 1 : 0;
}

static int64_t inc_find(const barrier* b, const char* key, size_t kl,
                        int* hit) {
  int64_t lo = 0, hi = b->ninc;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (key_cmp(b->inc[mid].key, b->inc[mid].klen, key, kl) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  *hit = lo < b->ninc &&
         key_cmp(b->inc[lo].key, b->inc[lo].klen, key, kl) == 0;
  return lo;
}

static int grow(bar_elem** arr, int64_t* cap, int64_t n) {
  int64_t ncap;
  bar_elem* na;
  if (n < *cap) return 1;
  ncap = *cap ? *cap * 2 : 8;
  if (ncap > (int64_t)(SIZE_MAX / sizeof(bar_elem) / 2)) return 0;
  na = (bar_elem*)tfe_realloc(*arr, sizeof(bar_elem) * (size_t)ncap);
  if (na == NULL) return 0;
  *arr = na;
  *cap = ncap;
  return 1;
}

/* The ready queue is a binary min-heap on the insertion index, managed
 * exactly as TF's std::priority_queue does (df2_heap_*), so elements with
 * equal indices come out in TF's order. */
_Static_assert(sizeof(bar_elem) <= DF2_HEAP_MAX_ELEM, "bar_elem too large");

static int64_t elem_key(const void* e) { return ((const bar_elem*)e)->index; }

/* Adds e to the ready queue (taking it); 0 on OOM (e untouched). */
static int ready_push(barrier* b, const bar_elem* e) {
  if (!grow(&b->ready, &b->capready, b->nready)) return 0;
  b->ready[b->nready++] = *e;
  df2_heap_push(b->ready, sizeof(bar_elem), b->nready, elem_key);
  return 1;
}

/* Removes and returns the top of the ready queue (nready > 0). */
static bar_elem ready_pop(barrier* b) {
  bar_elem top;
  df2_heap_pop(b->ready, sizeof(bar_elem), b->nready, elem_key, &top);
  b->nready--;
  return top;
}

/* Copies n elements (variants by reference, strings deep). */
static void copy_elems(TF_DataType dt, void* dst, const void* src,
                       int64_t n) {
  if (dt == TF_VARIANT) {
    tfe_variant** d = (tfe_variant**)dst;
    tfe_variant* const* s = (tfe_variant* const*)src;
    int64_t i;
    for (i = 0; i < n; i++) {
      tfe_variant_ref(s[i]);
      tfe_variant_unref(d[i]);
      d[i] = s[i];
    }
    return;
  }
  kutil_copy(dt, dst, src, n);
}

static size_t elem_size(TF_DataType dt) {
  return dt == TF_VARIANT ? sizeof(tfe_variant*) : kutil_esize(dt);
}

static TF_Tensor* alloc_tensor(TF_DataType dt, const int64_t* dims, int nd) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  if (dt == TF_VARIANT) return TF_AllocateTensor(dt, dims, nd, 0);
  return TF_AllocateTensor(dt, dims, nd, (size_t)n * kutil_esize(dt));
}

static void* tensor_slots(TF_Tensor* t) {
  if (t->dtype == TF_VARIANT) return tfe_variant_slots(t);
  return kutil_data(t);
}

/* Row `row` of values (dims[1:]) as a new tensor; NULL on OOM. */
static TF_Tensor* slice_row(const TF_Tensor* v, int64_t row) {
  const int64_t* dims = v->num_dims > 0 ? v->dims + 1 : v->dims;
  int nd = v->num_dims > 0 ? v->num_dims - 1 : 0;
  int64_t per = kutil_dims_prod(dims, 0, nd);
  TF_Tensor* out = alloc_tensor(v->dtype, dims, nd);
  if (out == NULL) return NULL;
  if (per > 0) {
    copy_elems(v->dtype, tensor_slots(out),
               (const char*)tensor_slots((TF_Tensor*)v) +
                   (size_t)(row * per) * elem_size(v->dtype),
               per);
  }
  return out;
}

static barrier* barrier_from_input(tfe_kernel_context* k,
                                   tfe_resource** res) {
  return (barrier*)df2_object_from_input(k, &kBarrier, res);
}

/* ---- InsertMany ---- */

static void k_insert_many(tfe_kernel_context* k) {
  tfe_resource* res;
  barrier* b;
  const TF_Tensor *keys, *vals;
  int64_t ci = kutil_attr_int64(k, "component_index", 0);
  int64_t nk, i, rows;
  const TF_TString* kv;
  int new_elements = 0;
  bar_elem* readyv = NULL;
  int64_t nreadyv = 0, capreadyv = 0;
  b = barrier_from_input(k, &res);
  if (b == NULL) return;
  keys = k->inputs[1];
  vals = k->inputs[2];
  if (ci >= b->n || ci < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The component ID is out of range %lld > num_components "
               "(= %d)",
               (long long)ci, b->n);
    goto done;
  }
  if (vals->dtype != b->types[ci]) {
    TF_DataType have[3] = {STRING_REF, TF_STRING, vals->dtype};
    TF_DataType want[3] = {STRING_REF, TF_STRING, b->types[ci]};
    char h[256], w[256];
    df2_dtype_list(have, 3, h, sizeof h);
    df2_dtype_list(want, 3, w, sizeof w);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Signature mismatch, have: %s-> expected: %s->", h, w);
    goto done;
  }
  if (vals->dtype == TF_RESOURCE) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "BarrierInsertMany: resource values are not supported by "
               "tfe");
    goto done;
  }
  nk = kutil_num_elements(keys);
  {
    int64_t per = vals->num_dims > 0
                      ? kutil_dims_prod(vals->dims, 1, vals->num_dims)
                      : 1;
    if (nk != 0 && (kutil_num_elements(vals) == 0)) {
      kutil_shape_buf sb;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Tensors with no elements are not supported %s: received "
                 "shape %s",
                 b->name, kutil_tshape(vals, &sb));
      goto done;
    }
    rows = per > 0 ? kutil_num_elements(vals) / per : 0;
    if (rows < nk) {
      kutil_shape_buf sa, sb;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "BarrierInsertMany: values of shape %s hold fewer rows than "
                 "the %lld keys (shape %s)",
                 kutil_tshape(vals, &sa), (long long)nk,
                 kutil_tshape(keys, &sb));
      goto done;
    }
  }
  kv = (const TF_TString*)kutil_data(keys);
  pthread_mutex_lock(&b->mu);
  if (b->closed && (b->cancel_pending || (nk != 0 && b->ninc == 0))) {
    KUTIL_FAIL(k, TF_CANCELLED,
               "Barrier %s is closed.  Pending enqueues cancelled: %d.  "
               "Number of new insertions: %lld.  Number of incomplete "
               "keys: %lld.",
               b->name, b->cancel_pending, (long long)nk, (long long)b->ninc);
    goto unlock;
  }
  for (i = 0; i < nk; i++) {
    const char* key = TF_TString_GetDataPointer(&kv[i]);
    size_t kl = TF_TString_GetSize(&kv[i]);
    int hit, j, complete = 1;
    int64_t pos = inc_find(b, key, kl, &hit);
    bar_elem* e;
    if (!hit) {
      bar_elem ne;
      if (b->closed) {
        KUTIL_FAIL(k, TF_CANCELLED,
                   "Barrier %s is closed, but attempted to insert a brand "
                   "new key: %.*s.  Pending enqueues cancelled: %d.  "
                   "Insertion index: %lld.  Number of incomplete keys: "
                   "%lld.",
                   b->name, (int)kl, key, b->cancel_pending, (long long)i,
                   (long long)b->ninc);
        goto unlock;
      }
      memset(&ne, 0, sizeof ne);
      ne.key = (char*)tfe_malloc(kl + 1);
      ne.c = (TF_Tensor**)tfe_calloc((size_t)(b->n > 0 ? b->n : 1),
                                     sizeof(TF_Tensor*));
      if (ne.key == NULL || ne.c == NULL ||
          !grow(&b->inc, &b->capinc, b->ninc)) {
        elem_free(&ne, b->n);
        goto oom;
      }
      memcpy(ne.key, key, kl);
      ne.key[kl] = '\0';
      ne.klen = kl;
      ne.index = b->input_index;
      memmove(b->inc + pos + 1, b->inc + pos,
              sizeof(bar_elem) * (size_t)(b->ninc - pos));
      b->inc[pos] = ne;
      b->ninc++;
      new_elements = 1;
    }
    e = &b->inc[pos];
    if (e->c[ci] != NULL && kutil_num_elements(e->c[ci]) > 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Key %.*s already has a value for component %lld in "
                 "barrier %s",
                 (int)kl, key, (long long)ci, b->name);
      goto unlock;
    }
    TF_DeleteTensor(e->c[ci]);
    e->c[ci] = slice_row(vals, i);
    if (e->c[ci] == NULL) goto oom;
    for (j = 0; j < b->n; j++) {
      complete &= e->c[j] != NULL && kutil_num_elements(e->c[j]) > 0;
    }
    if (complete) {
      bar_elem done_e = *e;
      memmove(b->inc + pos, b->inc + pos + 1,
              sizeof(bar_elem) * (size_t)(b->ninc - pos - 1));
      b->ninc--;
      /* The ready queue checks the tuple against the barrier's shapes;
       * a mismatch loses the key, as in TF. */
      for (j = 0; j < b->n; j++) {
        const TF_Tensor* c = done_e.c[j];
        int same = c->num_dims == b->shapes[j].num_dims, d;
        for (d = 0; same && d < c->num_dims; d++) {
          same = c->dims[d] == b->shapes[j].dims[d];
        }
        if (!same) {
          char want[256];
          kutil_shape_buf got;
          shape_text(b->shapes[j].dims, b->shapes[j].num_dims, want,
                     sizeof want);
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Shape mismatch in tuple component %d. Expected %s, got "
                     "%s",
                     j + 2, want, kutil_tshape(c, &got));
          elem_free(&done_e, b->n);
          goto unlock;
        }
      }
      if (!grow(&readyv, &capreadyv, nreadyv)) {
        elem_free(&done_e, b->n);
        goto oom;
      }
      readyv[nreadyv++] = done_e;
    }
  }
  if (new_elements) ++b->input_index;
  if (b->input_index == INT64_MAX) {
    KUTIL_FAIL(k, TF_INTERNAL,
               "Barrier has had %lld insertions and can no longer keep track "
               "of new ones.",
               (long long)b->input_index);
    goto unlock;
  }
  for (i = 0; i < nreadyv; i++) {
    if (!ready_push(b, &readyv[i])) goto oom;
    readyv[i].c = NULL;
    readyv[i].key = NULL;
  }
  nreadyv = 0;
  pthread_cond_broadcast(&b->cv);
  goto unlock;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
             k->op_def->name);
unlock:
  pthread_mutex_unlock(&b->mu);
  for (i = 0; i < nreadyv; i++) elem_free(&readyv[i], b->n);
  tfe_free(readyv);
done:
  tfe_resource_unref(res);
}

/* ---- TakeMany ---- */

/* Output c of a batch: [m] + the component's shape. */
static int emit_batch(tfe_kernel_context* k, barrier* b, bar_elem* got,
                      int64_t m) {
  int64_t dims[1] = {m}, i;
  TF_Tensor* idx = tfe_kernel_alloc_output(k, 0, TF_INT64, dims, 1);
  TF_Tensor* keys;
  int c;
  if (idx == NULL) return 0;
  for (i = 0; i < m; i++) ((int64_t*)kutil_data(idx))[i] = got[i].index;
  keys = tfe_kernel_alloc_output(k, 1, TF_STRING, dims, 1);
  if (keys == NULL) return 0;
  for (i = 0; i < m; i++) {
    TF_TString_Copy(&((TF_TString*)kutil_data(keys))[i], got[i].key,
                    got[i].klen);
  }
  for (c = 0; c < b->n; c++) {
    const tfe_shape* s = &b->shapes[c];
    int64_t od[BAR_MAX_RANK];
    int nd = s->num_dims + 1, d;
    int64_t per = kutil_dims_prod(s->dims, 0, s->num_dims);
    TF_Tensor* o;
    if (nd > BAR_MAX_RANK) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "BarrierTakeMany: rank too large");
      return 0;
    }
    od[0] = m;
    for (d = 0; d < s->num_dims; d++) od[d + 1] = s->dims[d];
    o = alloc_tensor(b->types[c], od, nd);
    if (o == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      return 0;
    }
    for (i = 0; i < m && per > 0; i++) {
      copy_elems(b->types[c],
                 (char*)tensor_slots(o) +
                     (size_t)(i * per) * elem_size(b->types[c]),
                 tensor_slots(got[i].c[c]), per);
    }
    tfe_kernel_set_output(k, 2 + c, o);
  }
  return 1;
}

static void k_take_many(tfe_kernel_context* k) {
  tfe_resource* res;
  barrier* b;
  const TF_Tensor* nt;
  int32_t num, deliver;
  int allow_small = kutil_attr_bool(k, "allow_small_batch", 0);
  bar_elem* got = NULL;
  int64_t ngot = 0, i;
  df2_wait w;
  if (kutil_attr_int64(k, "timeout_ms", -1) != -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Timeout not supported yet.");
    return;
  }
  b = barrier_from_input(k, &res);
  if (b == NULL) return;
  nt = k->inputs[1];
  if (nt->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "num_elements must be a scalar.");
    goto done;
  }
  num = *(const int32_t*)kutil_data(nt);
  {
    int same = k->num_outputs == 2 + b->n;
    for (i = 0; same && i < b->n; i++) {
      same = k->output_types[2 + i] == b->types[i];
    }
    if (!same) {
      TF_DataType have_in[2] = {STRING_REF, TF_INT32};
      TF_DataType want_out[66];
      char hi[64], ho[1024], wo[1024];
      df2_dtype_list(have_in, 2, hi, sizeof hi);
      df2_dtype_list(k->output_types, k->num_outputs, ho, sizeof ho);
      want_out[0] = TF_INT64;
      want_out[1] = TF_STRING;
      for (i = 0; i < b->n && i < 64; i++) want_out[2 + i] = b->types[i];
      df2_dtype_list(want_out, 2 + (b->n < 64 ? b->n : 64), wo, sizeof wo);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Signature mismatch, have: %s->%s expected: %s->%s", hi, ho,
                 hi, wo);
      goto done;
    }
  }
  if (num < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "BarrierTakeMany requested %d < 0 elements", (int)num);
    goto done;
  }
  if (!df2_wait_begin(k, &w, &b->mu, &b->cv, "barrier take")) {
    KUTIL_FAIL(k, TF_CANCELLED, "Dequeue operation was cancelled");
    goto done;
  }
  pthread_mutex_lock(&b->mu);
  deliver = num;
  if (b->closed) {
    int64_t avail = b->nready;
    int32_t need;
    if (allow_small) {
      if (avail < deliver) deliver = (int32_t)avail;
    } else {
      avail += b->ninc;
    }
    need = deliver > 1 ? deliver : 1;
    if (avail < need) {
      KUTIL_FAIL(k, TF_OUT_OF_RANGE,
                 "Barrier '%s' is closed and has insufficient elements "
                 "(requested %d, total size %lld)",
                 b->name, (int)deliver, (long long)avail);
      goto unlock;
    }
  }
  for (;;) {
    if (deliver == 0 || b->nready >= deliver) {
      ngot = deliver;
      break;
    }
    if (b->queue_closed) {
      if (allow_small && b->nready > 0) {
        ngot = b->nready;
        break;
      }
      KUTIL_FAIL(k, TF_OUT_OF_RANGE,
                 "PriorityQueue '%s_queue' is closed and has insufficient "
                 "elements (requested %d, current size %lld)",
                 b->name, (int)deliver, (long long)b->nready);
      goto unlock;
    }
    if (w.cancelled) {
      KUTIL_FAIL(k, TF_CANCELLED, "Dequeue operation was cancelled");
      goto unlock;
    }
    pthread_cond_wait(&b->cv, &b->mu);
  }
  if (ngot > 0) {
    got = (bar_elem*)tfe_malloc(sizeof(bar_elem) * (size_t)ngot);
    if (got == NULL) {
      ngot = 0;
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      goto unlock;
    }
    for (i = 0; i < ngot; i++) got[i] = ready_pop(b);
  }
unlock:
  pthread_mutex_unlock(&b->mu);
  df2_wait_end(k, &w);
  if (KUTIL_OK(k)) emit_batch(k, b, got, ngot);
  for (i = 0; i < ngot; i++) elem_free(&got[i], b->n);
  tfe_free(got);
done:
  tfe_resource_unref(res);
}

/* ---- Close and sizes ---- */

static void close_queue_locked(barrier* b, int cancel) {
  if (!cancel && b->queue_closed) return;
  if (cancel && b->queue_cancelled) return;
  b->queue_closed = 1;
  if (cancel) b->queue_cancelled = 1;
  pthread_cond_broadcast(&b->cv);
}

static void k_close(tfe_kernel_context* k) {
  tfe_resource* res;
  barrier* b = barrier_from_input(k, &res);
  int cancel = kutil_attr_bool(k, "cancel_pending_enqueues", 0);
  int64_t i;
  if (b == NULL) return;
  pthread_mutex_lock(&b->mu);
  if (b->closed && (b->cancel_pending || !cancel)) {
    KUTIL_FAIL(k, TF_CANCELLED, "Barrier '%s' is already closed.", b->name);
  } else {
    b->cancel_pending = cancel;
    b->closed = 1;
    if (cancel || b->ninc == 0) {
      for (i = 0; i < b->ninc; i++) elem_free(&b->inc[i], b->n);
      b->ninc = 0;
      close_queue_locked(b, cancel);
    }
    pthread_cond_broadcast(&b->cv);
  }
  pthread_mutex_unlock(&b->mu);
  tfe_resource_unref(res);
}

static void size_impl(tfe_kernel_context* k, int ready) {
  tfe_resource* res;
  barrier* b = barrier_from_input(k, &res);
  TF_Tensor* o;
  int64_t n;
  if (b == NULL) return;
  pthread_mutex_lock(&b->mu);
  n = ready ? b->nready : b->ninc;
  pthread_mutex_unlock(&b->mu);
  tfe_resource_unref(res);
  o = tfe_kernel_alloc_output(k, 0, TF_INT32, NULL, 0);
  if (o != NULL) *(int32_t*)kutil_data(o) = (int32_t)n;
}

static void k_ready_size(tfe_kernel_context* k) { size_impl(k, 1); }
static void k_incomplete_size(tfe_kernel_context* k) { size_impl(k, 0); }

static void reg(const char* op, void (*fn)(tfe_kernel_context*), int maker) {
  tfe_kernel_reg r;
  TF_Status* s = TF_NewStatus();
  memset(&r, 0, sizeof r);
  r.op_name = op;
  r.device_type = "CPU";
  r.compute = fn;
  if (maker) {
    r.create = df2_maker_create;
    r.destroy = df2_maker_destroy;
  }
  if (s != NULL) {
    tfe_kernel_register(&r, s);
    TF_DeleteStatus(s);
  }
}

void tfe_register_cpu_dataflow2_barrier_kernels(void) {
  reg("Barrier", k_barrier, 1);
  reg("BarrierInsertMany", k_insert_many, 0);
  reg("BarrierTakeMany", k_take_many, 0);
  reg("BarrierClose", k_close, 0);
  reg("BarrierReadySize", k_ready_size, 0);
  reg("BarrierIncompleteSize", k_incomplete_size, 0);
}
