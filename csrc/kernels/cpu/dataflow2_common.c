/* Shared pieces of the dataflow2 kernels: see dataflow2_common.h. */
#include "kernels/cpu/dataflow2_common.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_internal.h"
#include "kernels/cpu/kutil.h"
#include "kernels/ref_var.h"
#include "ops/attr_value.h"
#include "tensorflow/c/tf_tstring.h"

typedef struct df2_made {
  uint64_t ctx_id;
  char* node;
  char* device;
  tfe_resource* r;
  tfe_ref_cell* cell; /* TF 1 handle, made on first use */
} df2_made;

typedef struct df2_maker {
  pthread_mutex_t mu;
  df2_made* made;
  int n, cap;
} df2_maker;

void* df2_maker_create(const tfe_op_def* def, const tfe_attrs* attrs,
                       void* user_data, TF_Status* status) {
  df2_maker* st = (df2_maker*)tfe_calloc(1, sizeof(*st));
  (void)attrs;
  (void)user_data;
  if (st == NULL || pthread_mutex_init(&st->mu, NULL) != 0) {
    tfe_free(st);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                    def->name);
    return NULL;
  }
  return st;
}

void df2_maker_destroy(void* state, void* user_data) {
  df2_maker* st = (df2_maker*)state;
  int i;
  (void)user_data;
  if (st == NULL) return;
  for (i = 0; i < st->n; i++) {
    tfe_free(st->made[i].node);
    tfe_free(st->made[i].device);
    tfe_resource_unref(st->made[i].r);
    if (st->made[i].cell != NULL) tfe_ref_cell_unref(st->made[i].cell);
  }
  tfe_free(st->made);
  pthread_mutex_destroy(&st->mu);
  tfe_free(st);
}

tfe_ref_cell* df2_handle_cell(const tfe_resource* r) {
  static const int64_t dims[1] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  TF_TString* v;
  if (t == NULL) return NULL;
  v = (TF_TString*)kutil_data(t);
  TF_TString_Copy(&v[0], r->container, strlen(r->container));
  TF_TString_Copy(&v[1], r->name, strlen(r->name));
  return tfe_ref_cell_new(TF_STRING, t);
}

void df2_container_attrs(tfe_kernel_context* k, const char** container,
                         const char** shared) {
  size_t len;
  *container = "";
  *shared = "";
  tfe_attrs_get_string(k->attrs, "container", container, &len, NULL);
  tfe_attrs_get_string(k->attrs, "shared_name", shared, &len, NULL);
  if ((*container)[0] == '\0') *container = TFE_RESOURCE_DEFAULT_CONTAINER;
}

int df2_check_kind(tfe_kernel_context* k, tfe_resource* r, int ok,
                   const char* what) {
  if (ok) return 1;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Trying to access resource %s located in device %s as a %s, "
             "but it is not one",
             r->name, r->device, what);
  tfe_resource_unref(r);
  return 0;
}

tfe_resource* df2_find_or_make(tfe_kernel_context* k, const df2_kind* kind,
                               const char* container, const char* name,
                               const char* what, const char* shown) {
  const char* device = k->device_name != NULL ? k->device_name : "";
  uint64_t ctx = tfe_resource_kernel_ctx_id(k);
  int attempt;
  for (attempt = 0; attempt < 4; attempt++) {
    void* obj;
    tfe_resource* r = tfe_resources_lookup(ctx, device, container, name);
    if (r != NULL) {
      if (r->kind != TFE_RESOURCE_PLUGIN || r->del != kind->del ||
          r->object == NULL) {
        if (what != NULL) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Trying to access resource %s located in device %s as "
                     "a %s, but it is not one",
                     shown != NULL ? shown : r->name, r->device, what);
        } else {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Resource %s/%s of another kind exists on %s", container,
                     name, device);
        }
        tfe_resource_unref(r);
        return NULL;
      }
      if (kind->verify != NULL && !kind->verify(k, r->object, name)) {
        tfe_resource_unref(r);
        return NULL;
      }
      return r;
    }
    obj = kind->make(k, name);
    if (obj == NULL) {
      if (TF_GetCode(k->status) != TF_OK) return NULL;
      break;
    }
    r = tfe_plugin_resource_new(ctx, device, container, name, obj, kind->del);
    if (r == NULL) {
      kind->del(obj);
      break;
    }
    if (tfe_resources_insert(r, k->status)) return r;
    tfe_resource_unref(r);
    /* Another run registered the name first: use that one. */
    if (TF_GetCode(k->status) != TF_ALREADY_EXISTS) return NULL;
    TF_SetStatus(k->status, TF_OK, "");
  }
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
             k->op_def->name);
  return NULL;
}

/* Makes or finds the object; a new reference, or NULL with status. */
static tfe_resource* make_or_find(tfe_kernel_context* k, const df2_kind* kind,
                                  const char* node) {
  static _Atomic int64_t next_uid;
  const char *container, *shared;
  char gen[600];
  df2_container_attrs(k, &container, &shared);
  if (shared[0] == '\0') {
    snprintf(gen, sizeof gen, "_%lld_%s",
             (long long)atomic_fetch_add(&next_uid, 1), node);
    shared = gen;
  }
  return df2_find_or_make(k, kind, container, shared, NULL, NULL);
}

void df2_maker_compute(tfe_kernel_context* k, const df2_kind* kind,
                       int ref_handle) {
  df2_maker* st = (df2_maker*)k->state;
  const char* device = k->device_name != NULL ? k->device_name : "";
  const char* node = k->node_name != NULL ? k->node_name : k->op_def->name;
  uint64_t ctx = tfe_resource_kernel_ctx_id(k);
  tfe_resource* r = NULL;
  tfe_ref_cell* cell = NULL;
  int i;
  if (st == NULL) {
    KUTIL_FAIL(k, TF_INTERNAL, "%s: kernel state missing", k->op_def->name);
    return;
  }
  pthread_mutex_lock(&st->mu);
  for (i = 0; i < st->n; i++) {
    df2_made* m = &st->made[i];
    if (m->ctx_id == ctx && strcmp(m->node, node) == 0 &&
        strcmp(m->device, device) == 0) {
      r = m->r;
      break;
    }
  }
  if (r == NULL) {
    df2_made m;
    memset(&m, 0, sizeof m);
    r = make_or_find(k, kind, node);
    if (r == NULL) {
      pthread_mutex_unlock(&st->mu);
      return;
    }
    if (st->n == st->cap) {
      int ncap = st->cap ? st->cap * 2 : 2;
      df2_made* nm =
          (df2_made*)tfe_realloc(st->made, sizeof(df2_made) * (size_t)ncap);
      if (nm == NULL) {
        tfe_resource_unref(r);
        goto oom;
      }
      st->made = nm;
      st->cap = ncap;
    }
    m.ctx_id = ctx;
    m.node = tfe_strdup(node);
    m.device = tfe_strdup(device);
    m.r = r;
    if (m.node == NULL || m.device == NULL) {
      tfe_free(m.node);
      tfe_free(m.device);
      tfe_resource_unref(r);
      goto oom;
    }
    st->made[st->n++] = m;
    i = st->n - 1;
  }
  if (ref_handle) {
    if (st->made[i].cell == NULL) st->made[i].cell = df2_handle_cell(r);
    cell = st->made[i].cell;
    if (cell == NULL) goto oom;
    tfe_ref_cell_ref(cell);
    pthread_mutex_unlock(&st->mu);
    tfe_kernel_set_output_ref(k, 0, cell);
    tfe_ref_cell_unref(cell);
    return;
  }
  tfe_resource_ref(r);
  pthread_mutex_unlock(&st->mu);
  {
    TF_Tensor* out = tfe_resource_new_handle(r);
    tfe_resource_unref(r);
    if (out == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      return;
    }
    tfe_kernel_set_output(k, 0, out);
  }
  return;
oom:
  pthread_mutex_unlock(&st->mu);
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
             k->op_def->name);
}

tfe_resource* df2_lookup_handle(tfe_kernel_context* k, const TF_Tensor* t,
                                const char* type_name) {
  tfe_resource* r;
  char container[512], name[512];
  if (t->dtype == TF_RESOURCE) {
    tfe_resource* h = tfe_resource_of_tensor(t);
    if (h == NULL) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s: input 0 is not a resource handle made by tfe",
                 k->op_def->name);
      return NULL;
    }
    r = tfe_resources_lookup_handle(h);
    snprintf(container, sizeof container, "%s", h->container);
    snprintf(name, sizeof name, "%s", h->name);
  } else if (t->dtype == TF_STRING) {
    const TF_TString* v;
    if (kutil_num_elements(t) != 2) {
      kutil_shape_buf b;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Resource handle must have 2 elements, but had shape: %s",
                 kutil_tshape(t, &b));
      return NULL;
    }
    v = (const TF_TString*)kutil_data(t);
    snprintf(container, sizeof container, "%.*s",
             (int)TF_TString_GetSize(&v[0]), TF_TString_GetDataPointer(&v[0]));
    snprintf(name, sizeof name, "%.*s", (int)TF_TString_GetSize(&v[1]),
             TF_TString_GetDataPointer(&v[1]));
    r = tfe_resources_lookup(tfe_resource_kernel_ctx_id(k),
                             k->device_name != NULL ? k->device_name : "",
                             container, name);
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: input 0 is not a handle",
               k->op_def->name);
    return NULL;
  }
  if (r == NULL) {
    KUTIL_FAIL(k, TF_NOT_FOUND, "Resource %s/%s/%s does not exist.",
               container, name, type_name);
  }
  return r;
}

void* df2_object_from_input(tfe_kernel_context* k, const df2_kind* kind,
                            tfe_resource** res) {
  const TF_Tensor* t = k->num_inputs > 0 ? k->inputs[0] : NULL;
  tfe_resource* r;
  *res = NULL;
  if (t == NULL) {
    KUTIL_FAIL(k, TF_FAILED_PRECONDITION,
               "%s: the handle is not initialized", k->op_def->name);
    return NULL;
  }
  r = df2_lookup_handle(k, t, kind->type_name);
  if (r == NULL) return NULL;
  if (!df2_check_kind(k, r,
                      r->kind == TFE_RESOURCE_PLUGIN && r->del == kind->del &&
                          r->object != NULL,
                      kind->type_name)) {
    return NULL;
  }
  *res = r;
  return r->object;
}

/* ---- cancellable waits ---- */

static void df2_wait_cancel(void* arg) {
  df2_wait* w = (df2_wait*)arg;
  pthread_mutex_lock(w->mu);
  w->cancelled = 1;
  pthread_cond_broadcast(w->cv);
  pthread_mutex_unlock(w->mu);
}

/* ---- the heap ---- */

#define HEAP_AT(h, i) ((unsigned char*)(h) + (size_t)(i) * esz)

/* Moves v up from hole towards top (libstdc++'s __push_heap). */
static void heap_up(void* h, size_t esz, int64_t hole, int64_t top,
                    const void* v, int64_t (*key)(const void*)) {
  int64_t parent = (hole - 1) / 2, kv = key(v);
  while (hole > top && key(HEAP_AT(h, parent)) > kv) {
    memcpy(HEAP_AT(h, hole), HEAP_AT(h, parent), esz);
    hole = parent;
    parent = (hole - 1) / 2;
  }
  memcpy(HEAP_AT(h, hole), v, esz);
}

void df2_heap_push(void* h, size_t esz, int64_t n,
                   int64_t (*key)(const void* elem)) {
  unsigned char v[DF2_HEAP_MAX_ELEM];
  memcpy(v, HEAP_AT(h, n - 1), esz);
  heap_up(h, esz, n - 1, 0, v, key);
}

void df2_heap_pop(void* h, size_t esz, int64_t n,
                  int64_t (*key)(const void* elem), void* out) {
  unsigned char v[DF2_HEAP_MAX_ELEM];
  int64_t len = n - 1, hole = 0, child = 0;
  memcpy(out, HEAP_AT(h, 0), esz);
  if (len == 0) return;
  memcpy(v, HEAP_AT(h, len), esz);
  /* __adjust_heap: the hole goes down along the better children, then
   * the last element goes up from there. */
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (key(HEAP_AT(h, child)) > key(HEAP_AT(h, child - 1))) child--;
    memcpy(HEAP_AT(h, hole), HEAP_AT(h, child), esz);
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    memcpy(HEAP_AT(h, hole), HEAP_AT(h, child - 1), esz);
    hole = child - 1;
  }
  heap_up(h, esz, hole, 0, v, key);
}

int df2_sync_init(pthread_mutex_t* mu, pthread_cond_t* cv) {
  if (pthread_mutex_init(mu, NULL) != 0) return 0;
  if (pthread_cond_init(cv, NULL) != 0) {
    pthread_mutex_destroy(mu);
    return 0;
  }
  return 1;
}

int df2_wait_begin(tfe_kernel_context* k, df2_wait* w, pthread_mutex_t* mu,
                   pthread_cond_t* cv, const char* what) {
  TFE_CancelCallback cb;
  w->mu = mu;
  w->cv = cv;
  w->cancelled = 0;
  w->token = -1;
  if (k->cancel == NULL) return 1;
  cb.callback = df2_wait_cancel;
  cb.context = w;
  w->token = TFE_CancellationManagerGetToken(k->cancel);
  if (!TFE_CancellationManagerRegisterCallback(k->cancel, w->token, &cb,
                                               what)) {
    w->token = -1;
    return 0;
  }
  return 1;
}

void df2_wait_end(tfe_kernel_context* k, df2_wait* w) {
  if (w->token >= 0) {
    TFE_CancellationManagerDeregisterCallback(k->cancel, w->token);
    w->token = -1;
  }
}

void df2_dtype_list(const TF_DataType* t, int n, char* buf, size_t cap) {
  size_t len = 0;
  int i;
  if (cap == 0) return;
  buf[0] = '\0';
  for (i = 0; i < n && len < cap; i++) {
    const char* nm = (int)t[i] == -1         ? "string_ref"
                     : t[i] == TF_RESOURCE ? "resource"
                                           : tfe_dtype_short_name(t[i]);
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "",
                            nm != NULL ? nm : "unknown");
  }
}

TF_Tensor* df2_share(const TF_Tensor* t) {
  if (t->buf == NULL) return TF_AllocateTensor(t->dtype, t->dims, t->num_dims, 0);
  return tfe_tensor_from_buffer(t->dtype, t->dims, t->num_dims, t->buf);
}
