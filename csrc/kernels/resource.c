/* Resources, DT_RESOURCE handles and resource managers (resource.h). */
#include "kernels/resource.h"

#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"

static _Atomic uint64_t g_order;

static tfe_resource* resource_new(uint64_t ctx_id, const char* device,
                                  const char* container, const char* name,
                                  int kind) {
  tfe_resource* r = (tfe_resource*)tfe_calloc(1, sizeof(*r));
  if (r == NULL) return NULL;
  r->device = tfe_strdup(device ? device : "");
  r->container = tfe_strdup(container ? container : "");
  r->name = tfe_strdup(name ? name : "");
  if (r->device == NULL || r->container == NULL || r->name == NULL ||
      pthread_mutex_init(&r->mu, NULL) != 0) {
    tfe_free(r->device);
    tfe_free(r->container);
    tfe_free(r->name);
    tfe_free(r);
    return NULL;
  }
  atomic_init(&r->refs, 1);
  r->kind = kind;
  r->ctx_id = ctx_id;
  r->order = atomic_fetch_add(&g_order, 1) + 1;
  return r;
}

tfe_resource* tfe_variable_new(uint64_t ctx_id, const char* device,
                               const char* container, const char* name,
                               TF_DataType dtype) {
  tfe_resource* r =
      resource_new(ctx_id, device, container, name, TFE_RESOURCE_VARIABLE);
  if (r != NULL) r->dtype = dtype;
  return r;
}

tfe_resource* tfe_plugin_resource_new(uint64_t ctx_id, const char* device,
                                      const char* container,
                                      const char* name, void* object,
                                      void (*del)(void*)) {
  tfe_resource* r =
      resource_new(ctx_id, device, container, name, TFE_RESOURCE_PLUGIN);
  if (r != NULL) {
    r->object = object;
    r->del = del;
  }
  return r;
}

void tfe_resource_ref(tfe_resource* r) {
  atomic_fetch_add_explicit(&r->refs, 1, memory_order_relaxed);
}

void tfe_resource_unref(tfe_resource* r) {
  if (r == NULL) return;
  if (atomic_fetch_sub_explicit(&r->refs, 1, memory_order_acq_rel) != 1) {
    return;
  }
  if (r->value != NULL) TF_DeleteTensor(r->value);
  if ((r->kind == TFE_RESOURCE_PLUGIN || r->kind == TFE_RESOURCE_QUEUE ||
       r->kind == TFE_RESOURCE_TENSOR_ARRAY || r->kind == TFE_RESOURCE_STACK ||
       r->kind == TFE_RESOURCE_LOOKUP_TABLE) &&
      r->del != NULL) {
    r->del(r->object);
  }
  pthread_mutex_destroy(&r->mu);
  tfe_free(r->device);
  tfe_free(r->container);
  tfe_free(r->name);
  tfe_free(r);
}

/* ------------------------------------------------------------------------
 * Handles. */

#define HANDLE_MAGIC 0x52534844u /* "RSHD" */

typedef struct handle_data {
  uint32_t magic;
  tfe_resource* r;
} handle_data;

static void handle_release(void* data, size_t len, void* arg) {
  handle_data* h = (handle_data*)data;
  (void)len;
  (void)arg;
  tfe_resource_unref(h->r);
  h->magic = 0;
  tfe_free(h);
}

TF_Tensor* tfe_resource_new_handle(tfe_resource* r) {
  handle_data* h;
  if (r == NULL) return NULL;
  h = (handle_data*)tfe_aligned_alloc(sizeof(*h));
  if (h == NULL) return NULL;
  h->magic = HANDLE_MAGIC;
  h->r = r;
  tfe_resource_ref(r);
  /* TF_NewTensor never copies DT_RESOURCE data, and calls handle_release
   * itself when it fails. */
  return TF_NewTensor(TF_RESOURCE, NULL, 0, h, sizeof(*h), handle_release,
                      NULL);
}

tfe_resource* tfe_resource_of_tensor(const TF_Tensor* t) {
  const handle_data* h;
  if (t == NULL || t->dtype != TF_RESOURCE || t->buf == NULL ||
      t->buf->dealloc != handle_release) {
    return NULL;
  }
  h = (const handle_data*)t->buf->data;
  return h != NULL && h->magic == HANDLE_MAGIC ? h->r : NULL;
}

/* ------------------------------------------------------------------------
 * Managers: one hash table for the process, keyed by (context, device,
 * container, name). A program may hold thousands of named resources. */

typedef struct entry {
  tfe_resource* r;
  struct entry* next;
} entry;

enum { NBUCKETS = 1024 };

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static entry* g_buckets[NBUCKETS];
static int g_count;

static uint64_t hash_str(uint64_t h, const char* s) {
  for (s = s ? s : ""; *s != '\0'; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (h ^ 0xff) * 1099511628211ull; /* separates "ab","c" from "a","bc" */
}

static entry** bucket_of(uint64_t ctx_id, const char* device, const char* container,
                         const char* name) {
  uint64_t h = 14695981039346656037ull ^ ctx_id;
  h = hash_str(h, device);
  h = hash_str(h, container);
  h = hash_str(h, name);
  return &g_buckets[(h ^ (h >> 29)) & (NBUCKETS - 1)];
}

static int same_key(const tfe_resource* r, uint64_t ctx_id, const char* device,
                    const char* container, const char* name) {
  return r->ctx_id == ctx_id && strcmp(r->device, device ? device : "") == 0 &&
         strcmp(r->container, container ? container : "") == 0 &&
         strcmp(r->name, name ? name : "") == 0;
}

tfe_resource* tfe_resources_lookup(uint64_t ctx_id, const char* device,
                                   const char* container, const char* name) {
  entry* e;
  tfe_resource* found = NULL;
  pthread_mutex_lock(&g_mu);
  for (e = *bucket_of(ctx_id, device, container, name); e != NULL; e = e->next) {
    if (same_key(e->r, ctx_id, device, container, name)) {
      found = e->r;
      tfe_resource_ref(found);
      break;
    }
  }
  pthread_mutex_unlock(&g_mu);
  return found;
}

tfe_resource* tfe_resources_lookup_handle(tfe_resource* h) {
  if (h->anonymous) {
    tfe_resource_ref(h);
    return h;
  }
  return tfe_resources_lookup(h->ctx_id, h->device, h->container, h->name);
}

int tfe_resources_insert(tfe_resource* r, TF_Status* s) {
  entry* e;
  entry** b;
  entry* n = (entry*)tfe_malloc(sizeof(*n));
  if (n == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory registering resource %s/%s", r->container,
                    r->name);
    return 0;
  }
  pthread_mutex_lock(&g_mu);
  b = bucket_of(r->ctx_id, r->device, r->container, r->name);
  for (e = *b; e != NULL; e = e->next) {
    if (same_key(e->r, r->ctx_id, r->device, r->container, r->name)) {
      pthread_mutex_unlock(&g_mu);
      tfe_free(n);
      tfe_status_setf(s, TF_ALREADY_EXISTS,
                      "Resource %s/%s already exists on device %s",
                      r->container, r->name, r->device);
      return 0;
    }
  }
  tfe_resource_ref(r);
  n->r = r;
  n->next = *b;
  *b = n;
  g_count++;
  pthread_mutex_unlock(&g_mu);
  tfe_status_ok(s);
  return 1;
}

int tfe_resources_remove(tfe_resource* r) {
  entry **pp, *found = NULL;
  pthread_mutex_lock(&g_mu);
  for (pp = bucket_of(r->ctx_id, r->device, r->container, r->name); *pp != NULL;
       pp = &(*pp)->next) {
    if ((*pp)->r == r) {
      found = *pp;
      *pp = found->next;
      g_count--;
      break;
    }
  }
  pthread_mutex_unlock(&g_mu);
  if (found == NULL) return 0;
  tfe_resource_unref(found->r);
  tfe_free(found);
  return 1;
}

/* Unlinks matching entries under the lock, releases them outside it (a
 * plugin's delete function may call back into tfe). */
static void clear_matching(int by_ctx, uint64_t ctx_id, const char* device) {
  entry **pp, *dead = NULL;
  int i;
  pthread_mutex_lock(&g_mu);
  for (i = 0; i < NBUCKETS && g_count > 0; i++) {
    pp = &g_buckets[i];
    while (*pp != NULL) {
      entry* e = *pp;
      int match = by_ctx ? e->r->ctx_id == ctx_id
                         : strcmp(e->r->device, device) == 0;
      if (match) {
        *pp = e->next;
        e->next = dead;
        dead = e;
        g_count--;
      } else {
        pp = &e->next;
      }
    }
  }
  pthread_mutex_unlock(&g_mu);
  while (dead != NULL) {
    entry* e = dead;
    dead = e->next;
    tfe_resource_unref(e->r);
    tfe_free(e);
  }
}

void tfe_resources_clear_context(uint64_t ctx_id) {
  clear_matching(1, ctx_id, NULL);
}

void tfe_resources_clear_device(const char* device) {
  if (device != NULL) clear_matching(0, 0, device);
}

int tfe_resources_count(void) {
  int n;
  pthread_mutex_lock(&g_mu);
  n = g_count;
  pthread_mutex_unlock(&g_mu);
  return n;
}
