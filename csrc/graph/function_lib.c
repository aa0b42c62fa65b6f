/* Function libraries (function_lib.h): the functions of a graph or an
 * eager context, by name, with TF's rules for adding a name twice, and
 * the gradients recorded for them. Thread-safe (a read-write lock);
 * removed functions are retired, not freed, so pointers handed out stay
 * valid for the life of the library. A library is reference counted
 * (a session's context shares its graph's library). */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "graph/function_internal.h"

typedef struct flib_entry {
  TF_Function* fn;
  int refs; /* times added (eager contexts count adds and removes) */
} flib_entry;

struct tfe_flib {
  atomic_int refs;
  pthread_rwlock_t mu;
  flib_entry* items; /* live functions, insertion order */
  int count, cap;
  TF_Function** retired;
  int num_retired, cap_retired;
  tfe_fkv* grads; /* function name -> gradient function name, sorted */
  int num_grads;
  /* Name -> index in items (open addressing, -1 empty; cap a power of
   * two, 0 when there is none: lookups then scan items). */
  int* index;
  size_t index_cap;
};

static uint64_t name_hash(const char* s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h ^ (h >> 29);
}

/* Rebuilds the index for the current items (write lock held); without
 * memory the library goes on without one. */
static void index_rebuild(tfe_flib* lib) {
  size_t cap = 16, i;
  int* idx;
  while (cap < (size_t)lib->count * 2 + 2) cap *= 2;
  idx = (int*)tfe_malloc(sizeof(int) * cap);
  tfe_free(lib->index);
  lib->index = idx;
  lib->index_cap = idx != NULL ? cap : 0;
  if (idx == NULL) return;
  for (i = 0; i < cap; i++) idx[i] = -1;
  for (i = 0; i < (size_t)lib->count; i++) {
    size_t j = (size_t)name_hash(lib->items[i].fn->fd.name) & (cap - 1);
    while (idx[j] >= 0) j = (j + 1) & (cap - 1);
    idx[j] = (int)i;
  }
}

tfe_flib* tfe_flib_new(void) {
  tfe_flib* lib = (tfe_flib*)tfe_calloc(1, sizeof(*lib));
  if (lib == NULL) return NULL;
  if (pthread_rwlock_init(&lib->mu, NULL) != 0) {
    tfe_free(lib);
    return NULL;
  }
  atomic_init(&lib->refs, 1);
  return lib;
}

tfe_flib* tfe_flib_ref(tfe_flib* lib) {
  if (lib != NULL) atomic_fetch_add(&lib->refs, 1);
  return lib;
}

static void fn_free(TF_Function* fn) {
  if (fn == NULL) return;
  tfe_fdef_clear(&fn->fd);
  tfe_fdef_signature_free(fn->sig);
  fn->magic = 0;
  tfe_free(fn);
}

void tfe_flib_free(tfe_flib* lib) {
  int i;
  if (lib == NULL) return;
  if (atomic_fetch_sub(&lib->refs, 1) != 1) return;
  for (i = 0; i < lib->count; i++) fn_free(lib->items[i].fn);
  for (i = 0; i < lib->num_retired; i++) fn_free(lib->retired[i]);
  tfe_free(lib->items);
  tfe_free(lib->retired);
  tfe_fkv_free(lib->grads, lib->num_grads);
  tfe_free(lib->index);
  pthread_rwlock_destroy(&lib->mu);
  tfe_free(lib);
}

/* Caller holds the lock. */
static int find_index(const tfe_flib* lib, const char* name) {
  int i;
  if (lib->index_cap > 0) {
    size_t j = (size_t)name_hash(name) & (lib->index_cap - 1);
    while ((i = lib->index[j]) >= 0) {
      if (strcmp(lib->items[i].fn->fd.name, name) == 0) return i;
      j = (j + 1) & (lib->index_cap - 1);
    }
    return -1;
  }
  for (i = 0; i < lib->count; i++) {
    if (strcmp(lib->items[i].fn->fd.name, name) == 0) return i;
  }
  return -1;
}

/* Checks that fn may join lib (write lock held): 1 = add, 2 = already
 * there (equal), 0 = error. */
static int check_add(tfe_flib* lib, const TF_Function* fn, int* at,
                     TF_Status* s) {
  const char* name = fn->fd.name;
  int i = find_index(lib, name);
  *at = i;
  if (i >= 0) {
    if (!tfe_fdef_equal(&lib->items[i].fn->fd, &fn->fd)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Cannot add function '%s' because a different function "
                      "with the same name already exists.",
                      name);
      return 0;
    }
    return 2;
  }
  if (tfe_op_lookup(name) != NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Cannot add function '%s' because an op with the same "
                    "name already exists.",
                    name);
    return 0;
  }
  return 1;
}

static int reserve(tfe_flib* lib, int extra) {
  flib_entry* g;
  int cap;
  if (lib->count + extra <= lib->cap) return 1;
  cap = lib->cap ? lib->cap * 2 : 8;
  while (cap < lib->count + extra) cap *= 2;
  g = (flib_entry*)tfe_realloc(lib->items, sizeof(*g) * (size_t)cap);
  if (g == NULL) return 0;
  lib->items = g;
  lib->cap = cap;
  return 1;
}

/* Adds functions fns[0..n) (copies) all or nothing, and gradients
 * grads[0..ng) pairs; takes the write lock. `own` set: the array entries
 * are already private copies that the library adopts (or frees). */
static int add_many(tfe_flib* lib, TF_Function** fns, int n, int own,
                    const tfe_fkv* grads, int ng, TF_Status* s) {
  TF_Function** copies = NULL;
  int* where = NULL;
  int i, j, ok = 0;
  if (n > 0) {
    copies = (TF_Function**)tfe_calloc((size_t)n, sizeof(*copies));
    where = (int*)tfe_calloc((size_t)n, sizeof(*where));
    if (copies == NULL || where == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory adding "
                      "functions");
      goto done;
    }
  }
  for (i = 0; i < n; i++) {
    if (own) {
      copies[i] = fns[i];
      fns[i] = NULL;
    } else {
      copies[i] = tfe_function_copy(fns[i], s);
      if (copies[i] == NULL) goto done;
    }
  }
  /* Kernels for the new names (process-wide, idempotent) before any
   * function becomes visible. */
  for (i = 0; i < n; i++) {
    if (!tfe_fn_register_call_kernel(copies[i]->fd.name, s)) goto done;
  }
  pthread_rwlock_wrlock(&lib->mu);
  for (i = 0; i < n; i++) {
    int at, rc = check_add(lib, copies[i], &at, s);
    if (rc == 0) goto unlock;
    where[i] = rc == 2 ? at : -1;
    /* The same name twice in one batch follows the same rule. */
    for (j = 0; j < i && rc == 1; j++) {
      if (strcmp(copies[j]->fd.name, copies[i]->fd.name) == 0) {
        if (!tfe_fdef_equal(&copies[j]->fd, &copies[i]->fd)) {
          tfe_status_setf(s, TF_INVALID_ARGUMENT,
                          "Cannot add function '%s' because a different "
                          "function with the same name already exists.",
                          copies[i]->fd.name);
          goto unlock;
        }
        where[i] = -2; /* duplicate inside the batch: skip */
      }
    }
  }
  for (i = 0; i < ng; i++) {
    const tfe_fkv* have = tfe_fkv_find(lib->grads, lib->num_grads,
                                       grads[i].key);
    if (have != NULL && strcmp(have->val, grads[i].val) != 0) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Cannot assign gradient function '%s' to '%s' because "
                      "it already has gradient function '%s'",
                      grads[i].val, grads[i].key, have->val);
      goto unlock;
    }
  }
  if (!reserve(lib, n)) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory adding "
                    "functions");
    goto unlock;
  }
  for (i = 0; i < ng; i++) {
    if (tfe_fkv_find(lib->grads, lib->num_grads, grads[i].key) == NULL &&
        !tfe_fkv_set(&lib->grads, &lib->num_grads, grads[i].key,
                     grads[i].val, grads[i].len)) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory adding a "
                      "gradient");
      goto unlock;
    }
  }
  for (i = 0; i < n; i++) {
    if (where[i] >= 0) {
      lib->items[where[i]].refs++;
    } else if (where[i] == -1) {
      lib->items[lib->count].fn = copies[i];
      lib->items[lib->count].refs = 1;
      lib->count++;
      copies[i] = NULL;
    }
  }
  index_rebuild(lib);
  ok = 1;
  tfe_status_ok(s);
unlock:
  pthread_rwlock_unlock(&lib->mu);
done:
  if (copies != NULL) {
    for (i = 0; i < n; i++) fn_free(copies[i]);
  }
  if (own) {
    for (i = 0; i < n; i++) fn_free(fns[i]);
  }
  tfe_free(copies);
  tfe_free(where);
  return ok;
}

int tfe_flib_add(tfe_flib* lib, const TF_Function* fn, TF_Status* s) {
  TF_Function* one = (TF_Function*)fn;
  if (!tfe_function_valid(fn)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "no function to add");
    return 0;
  }
  if (lib == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory making a function library");
    return 0;
  }
  return add_many(lib, &one, 1, 0, NULL, 0, s);
}

int tfe_flib_add_gradient(tfe_flib* lib, const char* fn, const char* grad,
                          TF_Status* s) {
  tfe_fkv kv;
  kv.key = (char*)fn;
  kv.val = (char*)grad;
  kv.len = strlen(grad);
  return add_many(lib, NULL, 0, 0, &kv, 1, s);
}

int tfe_flib_add_fdef(tfe_flib* lib, const void* fdef, size_t len,
                      TF_Status* s) {
  tfe_fdef fd;
  TF_Function* fn;
  if (lib == NULL) {
    /* Callers pass what tfe_graph_flib / tfe_ctx_flib gave them, NULL
     * only when making the library ran out of memory. */
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory making a function library");
    return 0;
  }
  if (!tfe_fdef_parse(fdef, len, &fd, "the function library", s)) return 0;
  fn = tfe_function_from_fdef(&fd, s);
  if (fn == NULL) return 0;
  return add_many(lib, &fn, 1, 1, NULL, 0, s);
}

int tfe_flib_add_library(tfe_flib* lib, const void* data, size_t len,
                         TF_Status* s) {
  tfe_pbr r;
  int f, w, i, ok = 0, n = 0, ng = 0;
  TF_Function** fns = NULL;
  tfe_fkv* grads = NULL;
  if (lib == NULL) {
    /* Callers pass what tfe_graph_flib / tfe_ctx_flib gave them, NULL
     * only when making the library ran out of memory. */
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory making a function library");
    return 0;
  }
  if (data == NULL && len > 0) goto bad;
  r.p = (const unsigned char*)data;
  r.end = data == NULL ? r.p : r.p + len;
  while (r.p < r.end) {
    tfe_pbr sub;
    if (!tfe_pbr_tag(&r, &f, &w)) goto bad;
    if (w == 2 && f == 1) {
      tfe_fdef fd;
      TF_Function** g;
      if (!tfe_pbr_len(&r, &sub)) goto bad;
      if (!tfe_fdef_parse(sub.p, (size_t)(sub.end - sub.p), &fd,
                          "the function library", s)) {
        goto done;
      }
      g = (TF_Function**)tfe_realloc(fns, sizeof(*g) * (size_t)(n + 1));
      if (g == NULL) {
        tfe_fdef_clear(&fd);
        goto oom;
      }
      fns = g;
      fns[n] = tfe_function_from_fdef(&fd, s);
      if (fns[n] == NULL) goto done;
      n++;
    } else if (w == 2 && f == 2) {
      /* GradientDef: function_name 1, gradient_func 2. */
      tfe_pbr k = {NULL, NULL}, v = {NULL, NULL};
      int f2, w2;
      char *kn, *vn;
      if (!tfe_pbr_len(&r, &sub)) goto bad;
      while (sub.p < sub.end) {
        tfe_pbr t;
        if (!tfe_pbr_tag(&sub, &f2, &w2)) goto bad;
        if (w2 == 2 && (f2 == 1 || f2 == 2)) {
          if (!tfe_pbr_len(&sub, &t)) goto bad;
          if (f2 == 1) k = t; else v = t;
        } else if (!tfe_pbr_skip(&sub, f2, w2)) {
          goto bad;
        }
      }
      kn = tfe_strndup(k.p ? (const char*)k.p : "",
                       k.p ? (size_t)(k.end - k.p) : 0);
      vn = tfe_strndup(v.p ? (const char*)v.p : "",
                       v.p ? (size_t)(v.end - v.p) : 0);
      if (kn == NULL || vn == NULL ||
          !tfe_fkv_set(&grads, &ng, kn, vn, strlen(vn))) {
        tfe_free(kn);
        tfe_free(vn);
        goto oom;
      }
      tfe_free(kn);
      tfe_free(vn);
    } else if (!tfe_pbr_skip(&r, f, w)) {
      goto bad;
    }
  }
  ok = add_many(lib, fns, n, 1, grads, ng, s);
  tfe_free(fns);
  fns = NULL;
  n = 0;
  goto done;
bad:
  tfe_status_setf(s, TF_INVALID_ARGUMENT,
                  "Invalid FunctionDefLibrary: malformed bytes");
  goto done;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory reading a "
                  "function library");
done:
  for (i = 0; i < n; i++) fn_free(fns[i]);
  tfe_free(fns);
  tfe_fkv_free(grads, ng);
  return ok;
}

int tfe_flib_merge(tfe_flib* dst, const tfe_flib* src, TF_Status* s) {
  tfe_flib* m = (tfe_flib*)src;
  TF_Function** fns = NULL;
  tfe_fkv* grads = NULL;
  int n, ng, i, ok;
  if (dst == NULL) {
    /* Callers pass what tfe_graph_flib / tfe_ctx_flib gave them, NULL
     * only when making the library ran out of memory. */
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory making a function library");
    return 0;
  }
  if (src == NULL || src == dst) {
    tfe_status_ok(s);
    return 1;
  }
  pthread_rwlock_rdlock(&m->mu);
  n = m->count;
  ng = m->num_grads;
  fns = (TF_Function**)tfe_calloc((size_t)n + 1, sizeof(*fns));
  grads = (tfe_fkv*)tfe_calloc((size_t)ng + 1, sizeof(*grads));
  if (fns != NULL && grads != NULL) {
    for (i = 0; i < n; i++) fns[i] = m->items[i].fn;
    for (i = 0; i < ng; i++) grads[i] = m->grads[i];
  }
  pthread_rwlock_unlock(&m->mu);
  if (fns == NULL || grads == NULL) {
    tfe_free(fns);
    tfe_free(grads);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory merging "
                    "function libraries");
    return 0;
  }
  /* Function objects are never freed while src lives (only retired), and
   * a gradient's strings are never replaced once recorded, so the
   * borrowed pointers stay valid after the lock is released. */
  ok = add_many(dst, fns, n, 0, grads, ng, s);
  tfe_free(fns);
  tfe_free(grads);
  return ok;
}

static int remove_at(tfe_flib* lib, int i, TF_Status* s) {
  if (lib->num_retired == lib->cap_retired) {
    int cap = lib->cap_retired ? lib->cap_retired * 2 : 4;
    TF_Function** g = (TF_Function**)tfe_realloc(
        lib->retired, sizeof(*g) * (size_t)cap);
    if (g == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory removing a "
                      "function");
      return 0;
    }
    lib->retired = g;
    lib->cap_retired = cap;
  }
  lib->retired[lib->num_retired++] = lib->items[i].fn;
  memmove(&lib->items[i], &lib->items[i + 1],
          sizeof(lib->items[0]) * (size_t)(lib->count - i - 1));
  lib->count--;
  index_rebuild(lib);
  return 1;
}

static int remove_impl(tfe_flib* lib, const char* name, int counted,
                       TF_Status* s) {
  int i, ok = 1;
  if (lib == NULL || name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Tried to remove non-existent function '%s'.",
                    name ? name : "");
    return 0;
  }
  pthread_rwlock_wrlock(&lib->mu);
  i = find_index(lib, name);
  if (i < 0) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Tried to remove non-existent function '%s'.", name);
    ok = 0;
  } else if (counted && --lib->items[i].refs > 0) {
    ok = 1;
  } else {
    ok = remove_at(lib, i, s);
  }
  pthread_rwlock_unlock(&lib->mu);
  if (ok) tfe_status_ok(s);
  return ok;
}

int tfe_flib_remove(tfe_flib* lib, const char* name, TF_Status* s) {
  return remove_impl(lib, name, 0, s);
}

int tfe_flib_release(tfe_flib* lib, const char* name, TF_Status* s) {
  return remove_impl(lib, name, 1, s);
}

int tfe_flib_count(const tfe_flib* lib) {
  tfe_flib* m = (tfe_flib*)lib;
  int n;
  if (m == NULL) return 0;
  pthread_rwlock_rdlock(&m->mu);
  n = m->count;
  pthread_rwlock_unlock(&m->mu);
  return n;
}

const TF_Function* tfe_flib_at(const tfe_flib* lib, int i) {
  tfe_flib* m = (tfe_flib*)lib;
  const TF_Function* fn = NULL;
  if (m == NULL) return NULL;
  pthread_rwlock_rdlock(&m->mu);
  if (i >= 0 && i < m->count) fn = m->items[i].fn;
  pthread_rwlock_unlock(&m->mu);
  return fn;
}

const TF_Function* tfe_flib_find(const tfe_flib* lib, const char* name) {
  tfe_flib* m = (tfe_flib*)lib;
  const TF_Function* fn = NULL;
  int i;
  if (m == NULL || name == NULL) return NULL;
  pthread_rwlock_rdlock(&m->mu);
  i = find_index(m, name);
  if (i >= 0) fn = m->items[i].fn;
  pthread_rwlock_unlock(&m->mu);
  return fn;
}

const TF_Function* tfe_flib_find_def(const tfe_flib* lib,
                                     const tfe_op_def* def) {
  tfe_flib* m = (tfe_flib*)lib;
  const TF_Function* fn = NULL;
  int i;
  if (m == NULL || def == NULL) return NULL;
  pthread_rwlock_rdlock(&m->mu);
  i = find_index(m, def->name);
  if (i >= 0 && m->items[i].fn->sig == def) {
    fn = m->items[i].fn;
  } else {
    for (i = 0; i < m->num_retired; i++) {
      if (m->retired[i]->sig == def) {
        fn = m->retired[i];
        break;
      }
    }
  }
  pthread_rwlock_unlock(&m->mu);
  return fn;
}

const tfe_op_def* tfe_flib_signature(const tfe_flib* lib, const char* name) {
  const TF_Function* fn = tfe_flib_find(lib, name);
  return fn != NULL ? fn->sig : NULL;
}

const char* tfe_flib_gradient(const tfe_flib* lib, const char* name) {
  tfe_flib* m = (tfe_flib*)lib;
  const tfe_fkv* e;
  const char* g = NULL;
  if (m == NULL || name == NULL) return NULL;
  pthread_rwlock_rdlock(&m->mu);
  e = tfe_fkv_find(m->grads, m->num_grads, name);
  if (e != NULL) g = e->val;
  pthread_rwlock_unlock(&m->mu);
  return g;
}

void tfe_flib_encode(const tfe_flib* lib, tfe_pbw* out) {
  tfe_flib* m = (tfe_flib*)lib;
  int i;
  if (m == NULL) return;
  pthread_rwlock_rdlock(&m->mu);
  for (i = 0; i < m->count; i++) {
    tfe_pbw sub = {0};
    tfe_fdef_encode(&m->items[i].fn->fd, &sub);
    tfe_pbw_sub(out, 1, &sub);
  }
  for (i = 0; i < m->num_grads; i++) {
    tfe_pbw sub = {0};
    tfe_pbw_str(&sub, 1, m->grads[i].key);
    tfe_pbw_str(&sub, 2, m->grads[i].val);
    tfe_pbw_sub(out, 2, &sub);
  }
  pthread_rwlock_unlock(&m->mu);
}
