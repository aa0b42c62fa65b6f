/* CPU kernels: lookup tables, with TensorFlow 2.21's semantics and messages.
 *
 * Tables: HashTableV2 (TF's static HashTable: initialized once, by
 * InitializeTableV2, LookupTableImportV2 or InitializeTableFromTextFileV2,
 * then read-only), MutableHashTableV2 (scalar values, insert/remove at any
 * time), MutableHashTableOfTensorsV2 (vector values of value_shape), their
 * Anonymous* forms (a new table per run, alive while its handles are) and
 * the TF 1 makers with a Ref(string) handle holding [container, name]
 * (HashTable, MutableHashTable, MutableHashTableOfTensors) used by the TF 1
 * access ops (LookupTableFind, InitializeTable, ...).
 *
 * A table is a resource (kernels/resource.h, kind TFE_RESOURCE_LOOKUP_TABLE)
 * of the context that ran the maker: in a session its tables persist
 * across runs and are not shared with another session; in eager they live
 * in the eager context. Naming follows TF's ContainerInfo: the container
 * attr or "localhost"; the shared_name attr, else the node name when
 * use_node_name_sharing is set (the op type in eager), else a name private
 * to the node, "_<n>_<node>". A shared table is looked up (or made) every
 * time the maker runs, so a table destroyed by DestroyResourceOp is made
 * again; a private one is made once per (context, node). A shared name
 * already used by a table of other dtypes is INVALID_ARGUMENT ("Conflicting
 * key/value dtypes ..."); unlike TF, a shared name already used by a
 * resource that is not a table (a variable, a queue) is INVALID_ARGUMENT
 * too, since tfe's resource names are not per type.
 *
 * The store is lookup_table.c's hash map; each table has a reader/writer
 * lock (finds share it). Export order is insertion order (TF's is its hash
 * map's order, which is unspecified). Where TF 2.21 aborts the process
 * (LookupTableExportV2 with Tkeys/Tvalues other than the table's dtypes,
 * a find with an empty default for no keys), tfe reports
 * INVALID_ARGUMENT or returns the empty result. MutableDenseHashTableV2 and
 * AnonymousMutableDenseHashTable use lookup_dense.c (TF's bucket layout).
 * Not implemented (not registered): TF 1's MutableDenseHashTable (its
 * kernel fails in TF 2.21 too), dense tables with variant or resource
 * values and InitializeTableFromDataset. */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "core/variant.h"
#include "fs/fs.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/lookup_dense.h"
#include "kernels/cpu/lookup_table.h"
#include "kernels/kernel.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"
#include "tensorflow/c/tf_tstring.h"

enum { LK_HASH = 0, LK_MUTABLE = 1, LK_TENSORS = 2, LK_DENSE = 3 };

/* TF's type name of a table resource in messages. */
#define LK_TYPE_NAME "N10tensorflow6lookup15LookupInterfaceE"

typedef struct lk_table {
  int kind;
  TF_DataType kdt, vdt;
  int vec;      /* values are vectors of vdim (MutableHashTableOfTensors,
                 * dense tables with a vector value_shape) */
  int64_t vdim; /* value elements per key */
  int krank;    /* 1 for the vector keys of a dense table, else 0 */
  int64_t ksize;
  pthread_rwlock_t mu;
  int initialized; /* static tables: under mu (written with it held) */
  lk_map map;
  lk_dense* dense; /* LK_DENSE: the store (map unused) */
} lk_table;

static void table_free(void* p) {
  lk_table* t = (lk_table*)p;
  if (t == NULL) return;
  lk_map_free(&t->map);
  lk_dense_free(t->dense);
  pthread_rwlock_destroy(&t->mu);
  tfe_free(t);
}

static const char* dt_name(TF_DataType t) {
  const char* n = tfe_dtype_short_name(t);
  return n != NULL ? n : "unknown";
}

/* ------------------------------------------------------------------------
 * Maker configuration. */

typedef struct lk_cfg {
  int kind;
  int v1;        /* Ref(string) handle */
  int anonymous; /* Anonymous*: a new table per run */
  TF_DataType kdt, vdt;
  int vec;
  int vshape_rank; /* of value_shape (-1 unknown) */
  int64_t vshape0; /* value_shape[0] when rank 1 */
  int64_t vshape_bad_dim; /* a negative dim of value_shape, or 0 */
  char vshape_text[256];
  char* container;
  char* shared_name;
  int node_sharing;
  /* Dense tables. */
  int64_t num_buckets;
  float max_load_factor;
} lk_cfg;

static void cfg_free(lk_cfg* c) {
  tfe_free(c->container);
  tfe_free(c->shared_name);
  c->container = c->shared_name = NULL;
}

static int cfg_from_attrs(const tfe_op_def* def, const tfe_attrs* attrs,
                          lk_cfg* c, TF_Status* s) {
  const char* name = def->name;
  const char* str;
  size_t len;
  memset(c, 0, sizeof(*c));
  c->anonymous = strncmp(name, "Anonymous", 9) == 0;
  c->v1 = !c->anonymous && strcmp(name + strlen(name) - 2, "V2") != 0;
  c->kind = strstr(name, "Dense") != NULL       ? LK_DENSE
            : strstr(name, "OfTensors") != NULL ? LK_TENSORS
            : strstr(name, "Mutable") != NULL   ? LK_MUTABLE
                                                : LK_HASH;
  if (!tfe_attrs_get_type(attrs, "key_dtype", &c->kdt, s) ||
      !tfe_attrs_get_type(attrs, "value_dtype", &c->vdt, s)) {
    return 0;
  }
  if (c->kind == LK_DENSE) {
    if (!tfe_attrs_get_int(attrs, "initial_num_buckets", &c->num_buckets,
                           s) ||
        !tfe_attrs_get_float(attrs, "max_load_factor", &c->max_load_factor,
                             s)) {
      return 0;
    }
  }
  if (c->kind == LK_TENSORS || c->kind == LK_DENSE) {
    const tfe_shape* vs = NULL;
    int i;
    if (!tfe_attrs_get_shape(attrs, "value_shape", &vs, s)) return 0;
    c->vec = 1;
    c->vshape_rank = vs->num_dims;
    for (i = 0; i < vs->num_dims; i++) {
      if (vs->dims[i] < 0 && c->vshape_bad_dim == 0) {
        c->vshape_bad_dim = vs->dims[i];
      }
    }
    if (vs->num_dims == 1) c->vshape0 = vs->dims[0];
    if (vs->num_dims < 0) {
      snprintf(c->vshape_text, sizeof c->vshape_text, "<unknown>");
    } else {
      kutil_shape_str(vs->dims, vs->num_dims, c->vshape_text,
                      sizeof c->vshape_text);
    }
  }
  if (!c->anonymous) {
    if (!tfe_attrs_get_string(attrs, "container", &str, &len, s)) return 0;
    c->container = tfe_strdup(str);
    if (!tfe_attrs_get_string(attrs, "shared_name", &str, &len, s)) goto fail;
    c->shared_name = tfe_strdup(str);
    if (!tfe_attrs_get_bool(attrs, "use_node_name_sharing",
                            &c->node_sharing, s)) {
      goto fail;
    }
    if (c->container == NULL || c->shared_name == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory in %s", name);
      goto fail;
    }
  }
  return 1;
fail:
  cfg_free(c);
  return 0;
}

/* A new empty table, or NULL with k->status set (TF's checks when it makes
 * the table: the value shape of MutableHashTableOfTensors). */
static lk_table* table_new(tfe_kernel_context* k, const lk_cfg* c) {
  lk_table* t;
  lk_dense* dense = NULL;
  int64_t vdim = 1;
  int vec = c->vec;
  if (c->vec) {
    if (c->vshape_bad_dim < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                 (long long)c->vshape_bad_dim);
      return NULL;
    }
    if (c->kind == LK_DENSE) {
      if (c->vshape_rank != 0 && c->vshape_rank != 1) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Empty value must be a scalar or a vector, got shape %s",
                   c->vshape_text);
        return NULL;
      }
      vec = c->vshape_rank == 1;
      vdim = vec ? c->vshape0 : 1;
      if (k->num_inputs < 2 || k->inputs[0] == NULL || k->inputs[1] == NULL ||
          k->inputs[0]->dtype != c->kdt || k->inputs[1]->dtype != c->kdt) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "%s needs empty_key and deleted_key of the key dtype",
                   k->op_def->name);
        return NULL;
      }
      dense = lk_dense_new(c->kdt, c->vdt, k->inputs[0], k->inputs[1], vdim,
                           c->num_buckets, c->max_load_factor, k->status);
      if (dense == NULL) return NULL;
    } else if (c->vshape_rank != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Default value must be a vector, got shape %s",
                 c->vshape_text);
      return NULL;
    }
    if (c->kind != LK_DENSE) vdim = c->vshape0;
  }
  t = (lk_table*)tfe_calloc(1, sizeof(*t));
  if (t == NULL || pthread_rwlock_init(&t->mu, NULL) != 0) {
    tfe_free(t);
    lk_dense_free(dense);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return NULL;
  }
  t->kind = c->kind;
  t->kdt = c->kdt;
  t->vdt = c->vdt;
  t->vec = vec;
  t->vdim = vdim;
  t->ksize = 1;
  if (dense != NULL) {
    t->dense = dense;
    t->krank = lk_dense_key_rank(dense);
    t->ksize = lk_dense_key_size(dense);
  }
  lk_map_init(&t->map, c->kdt, c->vdt, vdim);
  return t;
}

/* Wraps table t (taken) in a resource; NULL with k->status set. */
static tfe_resource* table_resource(tfe_kernel_context* k, lk_table* t,
                                    uint64_t ctx_id, const char* device,
                                    const char* container, const char* name) {
  tfe_resource* r =
      tfe_plugin_resource_new(ctx_id, device, container, name, t, table_free);
  if (r == NULL) {
    table_free(t);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return NULL;
  }
  r->kind = TFE_RESOURCE_LOOKUP_TABLE;
  return r;
}

/* TF's CheckTableDataTypes. */
static int check_table_dtypes(tfe_kernel_context* k, const lk_table* t,
                              const lk_cfg* c, const char* name) {
  if (t->kdt != c->kdt || t->vdt != c->vdt) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Conflicting key/value dtypes %s->%s with %s-%s for table %s",
               dt_name(c->kdt), dt_name(c->vdt), dt_name(t->kdt),
               dt_name(t->vdt), name);
    return 0;
  }
  return 1;
}

/* TF's ResourceMgr::LookupOrCreate for a named table: a new reference, or
 * NULL with k->status set. */
static tfe_resource* lookup_or_create(tfe_kernel_context* k, const lk_cfg* c,
                                      uint64_t ctx_id, const char* device,
                                      const char* container,
                                      const char* name) {
  int attempt;
  for (attempt = 0;; attempt++) {
    tfe_resource* r = tfe_resources_lookup(ctx_id, device, container, name);
    lk_table* t;
    if (r != NULL) {
      if (r->kind != TFE_RESOURCE_LOOKUP_TABLE || r->object == NULL) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Resource %s/%s on %s exists and is not a lookup table",
                   container, name, device);
        tfe_resource_unref(r);
        return NULL;
      }
      if (!check_table_dtypes(k, (const lk_table*)r->object, c, name)) {
        tfe_resource_unref(r);
        return NULL;
      }
      return r;
    }
    t = table_new(k, c);
    if (t == NULL) return NULL;
    r = table_resource(k, t, ctx_id, device, container, name);
    if (r == NULL) return NULL;
    if (tfe_resources_insert(r, k->status)) return r;
    tfe_resource_unref(r);
    /* Another thread registered the name first: use that one. */
    if (TF_GetCode(k->status) != TF_ALREADY_EXISTS || attempt > 3) {
      return NULL;
    }
    TF_SetStatus(k->status, TF_OK, "");
  }
}

/* A TF 1 handle: a cell holding the string[2] tensor [container, name].
 * NULL on OOM. */
static tfe_ref_cell* handle_cell(const char* container, const char* name) {
  static const int64_t dims[1] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  TF_TString* v;
  if (t == NULL) return NULL;
  v = (TF_TString*)kutil_data(t);
  TF_TString_Copy(&v[0], container, strlen(container));
  TF_TString_Copy(&v[1], name, strlen(name));
  return tfe_ref_cell_new(TF_STRING, t);
}

/* ------------------------------------------------------------------------
 * Kernels that make tables. Per-instance state: the parsed attrs and the
 * private tables made so far, one per (context, node, device). */

typedef struct made_table {
  uint64_t ctx_id;
  char* node;
  char* device;
  tfe_resource* r;     /* reference held */
  tfe_ref_cell* cell;  /* TF 1 makers: the handle (held) */
} made_table;

typedef struct maker_state {
  lk_cfg cfg;
  pthread_mutex_t mu;
  made_table* made;
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
  if (!cfg_from_attrs(def, attrs, &st->cfg, status)) {
    tfe_free(st);
    return NULL;
  }
  if (pthread_mutex_init(&st->mu, NULL) != 0) {
    cfg_free(&st->cfg);
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
    tfe_ref_cell_unref(st->made[i].cell);
  }
  tfe_free(st->made);
  cfg_free(&st->cfg);
  pthread_mutex_destroy(&st->mu);
  tfe_free(st);
}

/* Sets output 0: a resource handle to r, or (TF 1) a reference to cell. */
static void maker_output(tfe_kernel_context* k, const lk_cfg* c,
                         tfe_resource* r, tfe_ref_cell* cell) {
  if (c->v1) {
    tfe_kernel_set_output_ref(k, 0, cell);
  } else {
    TF_Tensor* out = tfe_resource_new_handle(r);
    if (out == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      return;
    }
    tfe_kernel_set_output(k, 0, out);
  }
}

static void anonymous_compute(tfe_kernel_context* k, const lk_cfg* c) {
  static _Atomic int64_t next_id;
  char name[96];
  lk_table* t = table_new(k, c);
  tfe_resource* r;
  if (t == NULL) return;
  snprintf(name, sizeof name, "%s-%lld", k->op_def->name,
           (long long)atomic_fetch_add(&next_id, 1));
  r = table_resource(k, t, tfe_resource_kernel_ctx_id(k),
                     k->device_name != NULL ? k->device_name : "", "", name);
  if (r == NULL) return;
  r->anonymous = 1;
  maker_output(k, c, r, NULL);
  tfe_resource_unref(r);
}

static void maker_compute(tfe_kernel_context* k) {
  static _Atomic int64_t next_uid;
  maker_state* st = (maker_state*)k->state;
  const lk_cfg* c;
  const char* device = k->device_name != NULL ? k->device_name : "";
  const char* node = k->node_name != NULL ? k->node_name : k->op_def->name;
  const char* container;
  uint64_t ctx_id = tfe_resource_kernel_ctx_id(k);
  tfe_resource* r = NULL;
  tfe_ref_cell* cell = NULL;
  made_table m;
  char gen[600];
  int i;
  if (st == NULL) {
    KUTIL_FAIL(k, TF_INTERNAL, "%s: kernel state missing", k->op_def->name);
    return;
  }
  c = &st->cfg;
  if (c->anonymous) {
    anonymous_compute(k, c);
    return;
  }
  container =
      c->container[0] != '\0' ? c->container : TFE_RESOURCE_DEFAULT_CONTAINER;
  if (c->shared_name[0] != '\0' || c->node_sharing) {
    const char* name = c->shared_name[0] != '\0' ? c->shared_name : node;
    r = lookup_or_create(k, c, ctx_id, device, container, name);
    if (r == NULL) return;
    if (c->v1) {
      cell = handle_cell(container, name);
      if (cell == NULL) {
        tfe_resource_unref(r);
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                   k->op_def->name);
        return;
      }
    }
    maker_output(k, c, r, cell);
    tfe_ref_cell_unref(cell);
    tfe_resource_unref(r);
    return;
  }
  /* A table private to this node: made once per (context, node, device). */
  pthread_mutex_lock(&st->mu);
  for (i = 0; i < st->num_made; i++) {
    made_table* e = &st->made[i];
    if (e->ctx_id == ctx_id && strcmp(e->node, node) == 0 &&
        strcmp(e->device, device) == 0) {
      r = e->r;
      cell = e->cell;
      tfe_resource_ref(r);
      if (cell != NULL) tfe_ref_cell_ref(cell);
      break;
    }
  }
  if (r == NULL) {
    lk_table* t = table_new(k, c);
    if (t == NULL) goto unlock;
    snprintf(gen, sizeof gen, "_%lld_%s",
             (long long)atomic_fetch_add(&next_uid, 1), node);
    r = table_resource(k, t, ctx_id, device, container, gen);
    if (r == NULL) goto unlock;
    if (c->v1) {
      /* TF 1 handles name the table: it must be registered. */
      if (!tfe_resources_insert(r, k->status)) goto fail_r;
      cell = handle_cell(container, gen);
      if (cell == NULL) goto oom;
    } else {
      /* Handles refer to it directly. */
      r->anonymous = 1;
    }
    if (st->num_made == st->cap_made) {
      int ncap = st->cap_made ? st->cap_made * 2 : 2;
      made_table* nm = (made_table*)tfe_realloc(
          st->made, sizeof(made_table) * (size_t)ncap);
      if (nm == NULL) goto oom;
      st->made = nm;
      st->cap_made = ncap;
    }
    m.ctx_id = ctx_id;
    m.node = tfe_strdup(node);
    m.device = tfe_strdup(device);
    m.r = r;
    m.cell = cell;
    if (m.node == NULL || m.device == NULL) {
      tfe_free(m.node);
      tfe_free(m.device);
      goto oom;
    }
    tfe_resource_ref(r);
    if (cell != NULL) tfe_ref_cell_ref(cell);
    st->made[st->num_made++] = m;
  }
  pthread_mutex_unlock(&st->mu);
  maker_output(k, c, r, cell);
  tfe_ref_cell_unref(cell);
  tfe_resource_unref(r);
  return;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
             k->op_def->name);
fail_r:
  tfe_ref_cell_unref(cell);
  tfe_resource_unref(r);
unlock:
  pthread_mutex_unlock(&st->mu);
}

/* ------------------------------------------------------------------------
 * Finding the table of input 0. */

typedef struct lk_access {
  tfe_resource* r; /* reference held */
  lk_table* t;
  char container[256];
  char name[512];
} lk_access;

static int input0_is_ref(const tfe_kernel_context* k) {
  return k->op_def->num_inputs > 0 && k->op_def->inputs[0].is_ref;
}

/* TF's type name of a resource kind, for the wrong-type message. */
static const char* kind_type_name(int kind) {
  switch (kind) {
    case TFE_RESOURCE_VARIABLE: return "tensorflow::Var";
    case TFE_RESOURCE_QUEUE: return "tensorflow::QueueInterface";
    case TFE_RESOURCE_TENSOR_ARRAY: return "tensorflow::TensorArray";
    case TFE_RESOURCE_STACK: return "tensorflow::Stack";
    default: return "tensorflow::ResourceBase";
  }
}

static int get_table(tfe_kernel_context* k, lk_access* a) {
  tfe_resource* r;
  memset(a, 0, sizeof(*a));
  if (k->num_inputs < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: missing the table handle",
               k->op_def->name);
    return 0;
  }
  if (input0_is_ref(k)) {
    const TF_Tensor* t = k->inputs[0];
    const TF_TString* v;
    if (t == NULL) {
      KUTIL_FAIL(k, TF_FAILED_PRECONDITION,
                 "%s: the table handle is not initialized", k->op_def->name);
      return 0;
    }
    if (t->dtype != TF_STRING || kutil_num_elements(t) != 2) {
      kutil_shape_buf b;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Lookup table handle must be scalar, but had shape: %s",
                 kutil_tshape(t, &b));
      return 0;
    }
    v = (const TF_TString*)kutil_data(t);
    snprintf(a->container, sizeof a->container, "%.*s",
             (int)TF_TString_GetSize(&v[0]), TF_TString_GetDataPointer(&v[0]));
    snprintf(a->name, sizeof a->name, "%.*s", (int)TF_TString_GetSize(&v[1]),
             TF_TString_GetDataPointer(&v[1]));
    r = tfe_resources_lookup(tfe_resource_kernel_ctx_id(k),
                             k->device_name != NULL ? k->device_name : "",
                             a->container, a->name);
  } else {
    tfe_resource* h =
        k->inputs[0] != NULL ? tfe_resource_of_tensor(k->inputs[0]) : NULL;
    if (h == NULL) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s: the table handle is not a resource handle made by tfe "
                 "(expected a scalar DT_RESOURCE tensor from a table op)",
                 k->op_def->name);
      return 0;
    }
    snprintf(a->container, sizeof a->container, "%s", h->container);
    snprintf(a->name, sizeof a->name, "%s", h->name);
    r = tfe_resources_lookup_handle(h);
  }
  if (r == NULL) {
    KUTIL_FAIL(k, TF_NOT_FOUND, "Resource %s/%s/%s does not exist.",
               a->container, a->name, LK_TYPE_NAME);
    return 0;
  }
  if (r->kind != TFE_RESOURCE_LOOKUP_TABLE || r->object == NULL) {
    if (r->kind == TFE_RESOURCE_VARIABLE) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Trying to access a handle's resource using the wrong type. "
                 "The handle points to a resource (name '%s') of type "
                 "'tensorflow::Var' (hash code 17454915466513971685) but you "
                 "are trying to access the resource as type "
                 "'tensorflow::lookup::LookupInterface' (hash code "
                 "8115731599990610490)",
                 r->name);
    } else {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Trying to access a handle's resource using the wrong type. "
                 "The handle points to a resource (name '%s') of type '%s' "
                 "but you are trying to access the resource as type "
                 "'tensorflow::lookup::LookupInterface'",
                 r->name, kind_type_name(r->kind));
    }
    tfe_resource_unref(r);
    return 0;
  }
  a->r = r;
  a->t = (lk_table*)r->object;
  return 1;
}

/* GetInitializableLookupTable. */
static int get_initializable(tfe_kernel_context* k, lk_access* a) {
  if (!get_table(k, a)) return 0;
  if (a->t->kind != LK_HASH) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Table %s %s is not initializable",
               a->container, a->name);
    tfe_resource_unref(a->r);
    a->r = NULL;
    return 0;
  }
  return 1;
}

static void release(lk_access* a) {
  tfe_resource_unref(a->r);
  a->r = NULL;
}

/* ------------------------------------------------------------------------
 * Checks with TF's messages. */

static void sig_text(const TF_DataType* t, int n, int ref0, char* buf,
                     size_t cap) {
  size_t len = 0;
  int i;
  buf[0] = '\0';
  for (i = 0; i < n && len < cap; i++) {
    const char* name = i == 0 && ref0 == 1   ? "string_ref"
                       : i == 0 && ref0 == 2 ? "resource"
                                             : dt_name(t[i]);
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", name);
  }
}

/* TF's OpKernelContext::MatchSignature: input 0 is the handle; want_in
 * holds the other inputs' dtypes, want_out the outputs'. */
static int match_signature(tfe_kernel_context* k, const TF_DataType* want_in,
                           int nin, const TF_DataType* want_out, int nout) {
  TF_DataType have_in[4], have_out[4], exp_in[4];
  char hi[256], ho[256], ei[256], eo[256];
  int i, bad = k->num_inputs != nin + 1 || k->num_outputs != nout;
  int ref0 = input0_is_ref(k) ? 1 : 2;
  if (nin + 1 > 4 || nout > 4) return 0;
  have_in[0] = exp_in[0] = TF_RESOURCE;
  for (i = 0; i < nin; i++) {
    have_in[i + 1] =
        i + 1 < k->num_inputs && k->inputs[i + 1] != NULL
            ? k->inputs[i + 1]->dtype
            : (TF_DataType)0;
    exp_in[i + 1] = want_in[i];
    if (have_in[i + 1] != want_in[i]) bad = 1;
  }
  for (i = 0; i < nout; i++) {
    have_out[i] =
        i < k->num_outputs ? k->output_types[i] : (TF_DataType)0;
    if (have_out[i] != want_out[i]) bad = 1;
  }
  if (!bad) return 1;
  sig_text(have_in, nin + 1, ref0, hi, sizeof hi);
  sig_text(have_out, nout, 0, ho, sizeof ho);
  sig_text(exp_in, nin + 1, ref0, ei, sizeof ei);
  sig_text(want_out, nout, 0, eo, sizeof eo);
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Signature mismatch, have: %s->%s expected: %s->%s", hi, ho, ei,
             eo);
  return 0;
}

/* tfe_kernel_alloc_output, also for variant outputs (empty objects). */
static TF_Tensor* alloc_out(tfe_kernel_context* k, int index, TF_DataType dt,
                            const int64_t* dims, int nd) {
  TF_Tensor* t;
  if (dt != TF_VARIANT) return tfe_kernel_alloc_output(k, index, dt, dims, nd);
  t = TF_AllocateTensor(TF_VARIANT, dims, nd, 0);
  if (t == NULL ||
      (kutil_num_elements(t) > 0 && tfe_variant_slots(t) == NULL)) {
    TF_DeleteTensor(t);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "OOM when allocating output %d of %s", index, k->op_def->name);
    return NULL;
  }
  tfe_kernel_set_output(k, index, t);
  return t;
}

/* Variant values must be tensors whose elements are tfe's objects. */
static int check_variant_input(tfe_kernel_context* k, const TF_Tensor* t) {
  if (t->dtype == TF_VARIANT && kutil_num_elements(t) > 0 &&
      tfe_variant_slots(t) == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: the variant values are not variant objects made by tfe",
               k->op_def->name);
    return 0;
  }
  return 1;
}

/* Shape of the values for `keys` (keys' shape + the table's value shape)
 * into dims; its rank, or -1 with k->status set when too large. */
static int value_shape_for(tfe_kernel_context* k, const lk_table* t,
                           const TF_Tensor* keys, int64_t* dims) {
  int r = keys->num_dims, i;
  /* TF's CheckKeyShape: the keys' shape ends with the table's key shape. */
  if (t->krank == 1 &&
      (r < 1 || keys->dims[r - 1] != t->ksize)) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input key shape %s must end with the table's key shape [%lld]",
               kutil_tshape(keys, &b), (long long)t->ksize);
    return -1;
  }
  r -= t->krank;
  for (i = 0; i < r; i++) dims[i] = keys->dims[i];
  if (t->vec) {
    if (r + 1 > TFE_MAX_DIMS) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s: keys of rank %d are too many dimensions", k->op_def->name,
                 r);
      return -1;
    }
    dims[r++] = t->vdim;
  }
  return r;
}

static int same_dims(const TF_Tensor* a, const int64_t* dims, int n) {
  int i;
  if (a->num_dims != n) return 0;
  for (i = 0; i < n; i++) {
    if (a->dims[i] != dims[i]) return 0;
  }
  return 1;
}

/* CheckKeyAndValueTensorsForInsert / ForImport: values of shape
 * keys.shape + value_shape. */
static int check_keys_values(tfe_kernel_context* k, const lk_table* t,
                             const TF_Tensor* keys, const TF_Tensor* vals) {
  int64_t dims[TFE_MAX_DIMS + 1];
  int r = value_shape_for(k, t, keys, dims);
  char a[512];
  kutil_shape_buf b;
  if (r < 0) return 0;
  if (!same_dims(vals, dims, r)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected shape %s for value, got %s",
               kutil_shape_str(dims, r, a, sizeof a), kutil_tshape(vals, &b));
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * Static table initialization from tensors (TF's Initialize with a
 * KeyValueTensorIterator). Hold t->mu for writing. */

static void conflict_error(tfe_kernel_context* k, const lk_table* t,
                           lk_key key, int64_t e, const char* newval) {
  char kt[256], old[256];
  lk_key_text(&t->map, key, kt, sizeof kt);
  lk_value_text(&t->map, e, old, sizeof old);
  KUTIL_FAIL(k, TF_FAILED_PRECONDITION,
             "HashTable has different value for same key. Key %s has %s and "
             "trying to add value %s",
             kt, old, newval);
}

static void initialize_from_tensors(tfe_kernel_context* k, lk_table* t,
                                    const TF_Tensor* keys,
                                    const TF_Tensor* vals) {
  int64_t n = kutil_num_elements(keys), i;
  if (n == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "keys and values cannot be empty tensors.");
    return;
  }
  pthread_rwlock_wrlock(&t->mu);
  if (t->initialized) {
    if (n != t->map.n) {
      KUTIL_FAIL(k, TF_FAILED_PRECONDITION,
                 "Table was already initialized with different data.");
    }
    pthread_rwlock_unlock(&t->mu);
    return;
  }
  for (i = 0; i < n; i++) {
    lk_key key = lk_key_at(&t->map, keys, i);
    int64_t conflict;
    if (!lk_map_put(&t->map, key, vals, i, 1, &conflict)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory filling a table");
      break;
    }
    if (conflict >= 0) {
      char nv[256];
      lk_tensor_value_text(t->vdt, vals, i, nv, sizeof nv);
      conflict_error(k, t, key, conflict, nv);
      break;
    }
  }
  if (i == n) t->initialized = 1;
  pthread_rwlock_unlock(&t->mu);
}

/* ------------------------------------------------------------------------
 * Access kernels. */

static void find_compute(tfe_kernel_context* k) {
  lk_access a;
  lk_table* t;
  const TF_Tensor *keys, *def;
  TF_Tensor* out;
  int64_t dims[TFE_MAX_DIMS + 1];
  int r;
  if (!get_table(k, &a)) return;
  t = a.t;
  {
    TF_DataType in[2] = {t->kdt, t->vdt}, o[1] = {t->vdt};
    if (!match_signature(k, in, 2, o, 1)) goto done;
  }
  keys = k->inputs[1];
  def = k->inputs[2];
  r = value_shape_for(k, t, keys, dims);
  if (r < 0) goto done;
  {
    int64_t vs[1] = {t->vdim};
    int vr = t->vec ? 1 : 0;
    if (!same_dims(def, vs, vr) && !same_dims(def, dims, r)) {
      char a1[64], a2[512];
      kutil_shape_buf b;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected shape %s or %s for default value, got %s",
                 kutil_shape_str(vs, vr, a1, sizeof a1),
                 kutil_shape_str(dims, r, a2, sizeof a2),
                 kutil_tshape(def, &b));
      goto done;
    }
  }
  if (!check_variant_input(k, def)) goto done;
  out = alloc_out(k, 0, t->vdt, dims, r);
  if (out == NULL) goto done;
  pthread_rwlock_rdlock(&t->mu);
  if (t->kind == LK_DENSE) {
    lk_dense_find(t->dense, keys, out, def, k->status);
  } else if (t->kind == LK_HASH && !t->initialized) {
    KUTIL_FAIL(k, TF_FAILED_PRECONDITION, "Table not initialized.");
  } else {
    int64_t n = kutil_num_elements(keys), i;
    /* A default with one value per key (TF's "full size" default); the
     * static HashTable always uses the first default value. */
    int full = t->kind != LK_HASH &&
               kutil_num_elements(def) == kutil_num_elements(out);
    for (i = 0; i < n; i++) {
      int64_t e = lk_map_find(&t->map, lk_key_at(&t->map, keys, i));
      if (e >= 0) {
        lk_map_copy_value(&t->map, e, out, i);
      } else {
        lk_copy_block(t->vdt, t->vdim, def, full ? i : 0, out, i);
      }
    }
  }
  pthread_rwlock_unlock(&t->mu);
done:
  release(&a);
}

static void insert_compute(tfe_kernel_context* k) {
  lk_access a;
  lk_table* t;
  int64_t n, i;
  if (!get_table(k, &a)) return;
  t = a.t;
  {
    TF_DataType in[2] = {t->kdt, t->vdt};
    if (!match_signature(k, in, 2, NULL, 0)) goto done;
  }
  if (!check_keys_values(k, t, k->inputs[1], k->inputs[2])) goto done;
  if (!check_variant_input(k, k->inputs[2])) goto done;
  if (t->kind == LK_HASH) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Insert not supported by InitializableLookupTable "
               "implementations");
    goto done;
  }
  if (t->kind == LK_DENSE) {
    pthread_rwlock_wrlock(&t->mu);
    lk_dense_insert(t->dense, k->inputs[1], k->inputs[2], k->status);
    pthread_rwlock_unlock(&t->mu);
    goto done;
  }
  n = kutil_num_elements(k->inputs[1]);
  pthread_rwlock_wrlock(&t->mu);
  for (i = 0; i < n; i++) {
    int64_t conflict;
    if (!lk_map_put(&t->map, lk_key_at(&t->map, k->inputs[1], i),
                    k->inputs[2], i, 0, &conflict)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory inserting into a "
                                           "table");
      break;
    }
  }
  pthread_rwlock_unlock(&t->mu);
done:
  release(&a);
}

static void remove_compute(tfe_kernel_context* k) {
  lk_access a;
  lk_table* t;
  int64_t n, i;
  if (!get_table(k, &a)) return;
  t = a.t;
  {
    TF_DataType in[1] = {t->kdt};
    if (!match_signature(k, in, 1, NULL, 0)) goto done;
  }
  {
    int64_t dims[TFE_MAX_DIMS + 1];
    if (value_shape_for(k, t, k->inputs[1], dims) < 0) goto done;
  }
  if (t->kind == LK_HASH) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Remove not supported by InitializableLookupTable "
               "implementations");
    goto done;
  }
  if (t->kind == LK_DENSE) {
    pthread_rwlock_wrlock(&t->mu);
    lk_dense_remove(t->dense, k->inputs[1], k->status);
    pthread_rwlock_unlock(&t->mu);
    goto done;
  }
  n = kutil_num_elements(k->inputs[1]);
  pthread_rwlock_wrlock(&t->mu);
  for (i = 0; i < n; i++) {
    lk_map_remove(&t->map, lk_key_at(&t->map, k->inputs[1], i));
  }
  pthread_rwlock_unlock(&t->mu);
done:
  release(&a);
}

static void import_compute(tfe_kernel_context* k) {
  lk_access a;
  lk_table* t;
  const TF_Tensor *keys, *vals;
  if (!get_table(k, &a)) return;
  t = a.t;
  {
    TF_DataType in[2] = {t->kdt, t->vdt};
    if (!match_signature(k, in, 2, NULL, 0)) goto done;
  }
  keys = k->inputs[1];
  vals = k->inputs[2];
  if (t->kind == LK_DENSE) {
    /* TF's dense CheckKeyAndValueTensorsForImport: buckets are stored as
     * [buckets, key size] and [buckets, value size]. */
    int64_t dims[TFE_MAX_DIMS + 1];
    int r;
    char a[512];
    kutil_shape_buf b;
    if (value_shape_for(k, t, keys, dims) < 0) goto done;
    if (keys->num_dims < 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected keys of rank at least 1 to import into a "
                 "MutableDenseHashTable, got shape []");
      goto done;
    }
    r = keys->num_dims - 1;
    memcpy(dims, keys->dims, sizeof(int64_t) * (size_t)r);
    dims[r++] = t->vdim;
    if (!same_dims(vals, dims, r)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected shape %s for value, got %s",
                 kutil_shape_str(dims, r, a, sizeof a),
                 kutil_tshape(vals, &b));
      goto done;
    }
    pthread_rwlock_wrlock(&t->mu);
    lk_dense_import(t->dense, keys, vals, k->status);
    pthread_rwlock_unlock(&t->mu);
    goto done;
  }
  if (!check_keys_values(k, t, keys, vals)) goto done;
  if (!check_variant_input(k, vals)) goto done;
  if (t->kind == LK_HASH) {
    initialize_from_tensors(k, t, keys, vals);
  } else {
    int64_t n = kutil_num_elements(keys), i;
    pthread_rwlock_wrlock(&t->mu);
    lk_map_clear(&t->map);
    for (i = 0; i < n; i++) {
      int64_t conflict;
      if (!lk_map_put(&t->map, lk_key_at(&t->map, keys, i), vals, i, 0,
                      &conflict)) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                   "out of memory importing into a table");
        break;
      }
    }
    pthread_rwlock_unlock(&t->mu);
  }
done:
  release(&a);
}

static void export_compute(tfe_kernel_context* k) {
  lk_access a;
  lk_table* t;
  if (!get_table(k, &a)) return;
  t = a.t;
  /* TF allocates the outputs with the table's dtypes whatever Tkeys and
   * Tvalues say (and aborts when they differ); tfe refuses. */
  if (k->num_outputs != 2 || k->output_types[0] != t->kdt ||
      k->output_types[1] != t->vdt) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Signature mismatch, have: ->%s, %s expected: ->%s, %s",
               k->num_outputs > 0 ? dt_name(k->output_types[0]) : "",
               k->num_outputs > 1 ? dt_name(k->output_types[1]) : "",
               dt_name(t->kdt), dt_name(t->vdt));
    goto done;
  }
  pthread_rwlock_rdlock(&t->mu);
  if (t->kind == LK_DENSE) {
    int64_t nb = lk_dense_num_buckets(t->dense);
    int64_t kd[2] = {nb, t->ksize}, vd[2] = {nb, t->vdim};
    TF_Tensor* ko = tfe_kernel_alloc_output(k, 0, t->kdt, kd, 2);
    TF_Tensor* vo =
        ko != NULL ? tfe_kernel_alloc_output(k, 1, t->vdt, vd, 2) : NULL;
    if (vo != NULL) lk_dense_export(t->dense, ko, vo);
  } else if (t->kind == LK_HASH && !t->initialized) {
    KUTIL_FAIL(k, TF_ABORTED, "HashTable is not initialized.");
  } else {
    int64_t n = t->map.n, i;
    int64_t kd[1] = {n}, vd[2] = {n, t->vdim};
    TF_Tensor* ko = tfe_kernel_alloc_output(k, 0, t->kdt, kd, 1);
    TF_Tensor* vo =
        ko != NULL ? alloc_out(k, 1, t->vdt, vd, t->vec ? 2 : 1) : NULL;
    if (vo != NULL) {
      for (i = 0; i < n; i++) {
        if (t->kdt == TF_STRING) {
          const lk_bytes* b = &t->map.skeys[i];
          TF_TString_Copy((TF_TString*)kutil_data(ko) + i,
                          b->p != NULL ? b->p : "", b->n);
        } else if (t->kdt == TF_INT32) {
          ((int32_t*)kutil_data(ko))[i] = (int32_t)t->map.ikeys[i];
        } else {
          ((int64_t*)kutil_data(ko))[i] = t->map.ikeys[i];
        }
        lk_map_copy_value(&t->map, i, vo, i);
      }
    }
  }
  pthread_rwlock_unlock(&t->mu);
done:
  release(&a);
}

static void size_compute(tfe_kernel_context* k) {
  lk_access a;
  TF_Tensor* out;
  if (!get_table(k, &a)) return;
  out = tfe_kernel_alloc_output(k, 0, TF_INT64, NULL, 0);
  if (out != NULL) {
    pthread_rwlock_rdlock(&a.t->mu);
    *(int64_t*)kutil_data(out) =
        a.t->kind == LK_DENSE                       ? lk_dense_size(a.t->dense)
        : a.t->kind == LK_HASH && !a.t->initialized ? 0
                                                    : a.t->map.n;
    pthread_rwlock_unlock(&a.t->mu);
  }
  release(&a);
}

static void init_compute(tfe_kernel_context* k) {
  lk_access a;
  lk_table* t;
  const TF_Tensor *keys, *vals;
  kutil_shape_buf b;
  if (!get_initializable(k, &a)) return;
  t = a.t;
  {
    TF_DataType in[2] = {t->kdt, t->vdt};
    if (!match_signature(k, in, 2, NULL, 0)) goto done;
  }
  keys = k->inputs[1];
  vals = k->inputs[2];
  if (keys->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Keys must be a vector, but received shape%s",
               kutil_tshape(keys, &b));
    goto done;
  }
  if (vals->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Values must be a vector, but received shape%s",
               kutil_tshape(vals, &b));
    goto done;
  }
  if (keys->dims[0] != vals->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Keys and values must have the same size %lld vs %lld",
               (long long)keys->dims[0], (long long)vals->dims[0]);
    goto done;
  }
  initialize_from_tensors(k, t, keys, vals);
done:
  release(&a);
}

/* ------------------------------------------------------------------------
 * InitializeTableFromTextFile(V2): TF's TextFileLineIterator. */

enum { LK_LINE_NUMBER = -1, LK_WHOLE_LINE = -2 };

typedef struct line_reader {
  tfe_raf* f;
  char* buf;
  size_t cap, len, pos; /* buffered bytes [pos, len) */
  uint64_t file_off;    /* bytes read from the file so far */
  int eof;
  char* line;
  size_t line_len, line_cap;
  int64_t tell; /* bytes consumed by the lines returned */
} line_reader;

/* Fills the buffer; 1 on progress or EOF (r->eof set), 0 with s set. */
static int reader_fill(line_reader* r, TF_Status* s) {
  int64_t got;
  if (r->eof) {
    r->len = r->pos = 0;
    return 1;
  }
  got = tfe_fs_raf_read(r->f, r->file_off, r->cap, r->buf, s);
  if (TF_GetCode(s) == TF_OUT_OF_RANGE) {
    r->eof = 1;
    tfe_status_ok(s);
  } else if (TF_GetCode(s) != TF_OK) {
    return 0;
  }
  if (got < 0) got = 0;
  if (got == 0) r->eof = 1;
  r->len = (size_t)got;
  r->pos = 0;
  r->file_off += (uint64_t)got;
  return 1;
}

static int line_append(line_reader* r, const char* p, size_t n,
                       TF_Status* s) {
  if (r->line_len + n + 1 > r->line_cap) {
    size_t nc = r->line_cap ? r->line_cap : 256;
    char* nl;
    while (nc < r->line_len + n + 1) nc *= 2;
    nl = (char*)tfe_realloc(r->line, nc);
    if (nl == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "out of memory reading a vocabulary file");
      return 0;
    }
    r->line = nl;
    r->line_cap = nc;
  }
  memcpy(r->line + r->line_len, p, n);
  r->line_len += n;
  r->line[r->line_len] = '\0';
  return 1;
}

/* TF's InputBuffer::ReadLine: the next line without its "\n" (and a "\r"
 * before it). 1 with a line, 0 with s set: OUT_OF_RANGE at the end. */
static int reader_line(line_reader* r, TF_Status* s) {
  r->line_len = 0;
  if (!line_append(r, "", 0, s)) return 0;
  for (;;) {
    const char* nl;
    size_t avail;
    if (r->pos == r->len) {
      if (!reader_fill(r, s)) return 0;
      if (r->eof && r->len == 0) {
        if (r->line_len > 0) return 1;
        tfe_status_setf(s, TF_OUT_OF_RANGE, "Read less bytes than requested");
        return 0;
      }
    }
    avail = r->len - r->pos;
    nl = (const char*)memchr(r->buf + r->pos, '\n', avail);
    if (nl != NULL) {
      size_t n = (size_t)(nl - (r->buf + r->pos));
      if (!line_append(r, r->buf + r->pos, n, s)) return 0;
      r->pos += n + 1;
      r->tell += (int64_t)(n + 1);
      if (r->line_len > 0 && r->line[r->line_len - 1] == '\r') {
        r->line[--r->line_len] = '\0';
      }
      return 1;
    }
    if (!line_append(r, r->buf + r->pos, avail, s)) return 0;
    r->pos = r->len;
    r->tell += (int64_t)avail;
  }
}

/* TF's safe_strto64 / safe_strto32: optional whitespace, sign, decimal
 * digits, optional whitespace; nothing else, no overflow. */
static int parse_int(const char* p, size_t n, int64_t lo, int64_t hi,
                     int64_t* out) {
  size_t i = 0;
  int neg = 0, any = 0;
  uint64_t v = 0, lim;
  while (i < n && isspace((unsigned char)p[i])) i++;
  if (i < n && (p[i] == '+' || p[i] == '-')) neg = p[i++] == '-';
  lim = neg ? (uint64_t)(-(lo + 1)) + 1 : (uint64_t)hi;
  while (i < n && p[i] >= '0' && p[i] <= '9') {
    uint64_t d = (uint64_t)(p[i] - '0');
    if (v > (lim - d) / 10) return 0;
    v = v * 10 + d;
    any = 1;
    i++;
  }
  while (i < n && isspace((unsigned char)p[i])) i++;
  if (!any || i != n) return 0;
  *out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v)
             : (int64_t)v;
  return 1;
}

/* TF's safe_strtof / safe_strtod (surrounding whitespace allowed; inf,
 * nan, hex floats; out of range gives an infinity or zero). */
static int parse_float(const char* p, size_t n, int dbl, double* out) {
  char tmp[512];
  char* end;
  size_t b = 0, e = n;
  while (b < e && isspace((unsigned char)p[b])) b++;
  while (e > b && isspace((unsigned char)p[e - 1])) e--;
  if (b == e || e - b >= sizeof tmp || memchr(p + b, '\0', e - b) != NULL) {
    return 0;
  }
  memcpy(tmp, p + b, e - b);
  tmp[e - b] = '\0';
  errno = 0;
  if (dbl) {
    *out = strtod(tmp, &end);
  } else {
    *out = (double)strtof(tmp, &end);
  }
  return end == tmp + (e - b);
}

typedef struct text_iter {
  line_reader rd;
  const char* filename;
  int64_t vocab_size, offset, next_id;
  int32_t key_index, value_index;
  char delim;
  TF_DataType kdt, vdt;
  /* The current key and value. */
  int64_t key_i;
  const char* key_p;
  size_t key_n;
  unsigned char val_pod[8];
  const char* val_p;
  size_t val_n;
} text_iter;

/* Token idx of the line split at the delimiter. */
static void token_at(const text_iter* it, int64_t idx, const char** p,
                     size_t* n) {
  const char* s = it->rd.line;
  const char* end = s + it->rd.line_len;
  int64_t i;
  for (i = 0; i < idx; i++) {
    const char* d = (const char*)memchr(s, it->delim, (size_t)(end - s));
    s = d + 1;
  }
  {
    const char* d = (const char*)memchr(s, it->delim, (size_t)(end - s));
    *p = s;
    *n = (size_t)((d != NULL ? d : end) - s);
  }
}

/* SetValue: the field of the current line for `index` as dtype dt, into
 * ip (integer keys), pod (values) or the string pointer. */
static int text_set(tfe_kernel_context* k, text_iter* it, int64_t index,
                    TF_DataType dt, int64_t* ip, unsigned char* pod,
                    const char** sp, size_t* sn) {
  const char* p;
  size_t n;
  char shown[300];
  if (index == LK_LINE_NUMBER) {
    int64_t v = (int64_t)((uint64_t)it->next_id + (uint64_t)it->offset);
    if (ip != NULL) *ip = v;
    if (pod != NULL) memcpy(pod, &v, 8);
    return 1;
  }
  if (index == LK_WHOLE_LINE) {
    p = it->rd.line;
    n = it->rd.line_len;
  } else {
    token_at(it, index, &p, &n);
  }
  snprintf(shown, sizeof shown, "%.*s", (int)(n > 256 ? 256 : n), p);
  switch (dt) {
    case TF_INT32: {
      int64_t v;
      int32_t w;
      if (!parse_int(p, n, INT32_MIN, INT32_MAX, &v)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Field %s in line %lld is not a valid int32.", shown,
                   (long long)it->next_id);
        return 0;
      }
      /* TF adds the offset to int32 fields (wrapping to 32 bits). */
      w = (int32_t)(uint32_t)((uint64_t)v + (uint64_t)it->offset);
      if (ip != NULL) *ip = w;
      if (pod != NULL) memcpy(pod, &w, 4);
      return 1;
    }
    case TF_INT64: {
      int64_t v;
      if (!parse_int(p, n, INT64_MIN, INT64_MAX, &v)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Field %s in line %lld is not a valid int64.", shown,
                   (long long)it->next_id);
        return 0;
      }
      if (ip != NULL) *ip = v;
      if (pod != NULL) memcpy(pod, &v, 8);
      return 1;
    }
    case TF_FLOAT:
    case TF_DOUBLE: {
      double v;
      if (!parse_float(p, n, dt == TF_DOUBLE, &v)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Field %s in line %lld is not a valid %s.", shown,
                   (long long)it->next_id, dt == TF_FLOAT ? "float" : "double");
        return 0;
      }
      if (dt == TF_FLOAT) {
        float f = (float)v;
        memcpy(pod, &f, 4);
      } else {
        memcpy(pod, &v, 8);
      }
      return 1;
    }
    case TF_STRING:
      *sp = p;
      *sn = n;
      return 1;
    default:
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Data type %s not supported.",
                 dt_name(dt));
      return 0;
  }
}

/* Next(): 1 with the next key and value, 0 at the end (k->status
 * OUT_OF_RANGE) or on an error. */
static int text_next(tfe_kernel_context* k, text_iter* it) {
  int64_t mx = it->key_index > it->value_index ? it->key_index
                                               : it->value_index;
  if (!reader_line(&it->rd, k->status)) {
    if (TF_GetCode(k->status) == TF_OUT_OF_RANGE && it->vocab_size != -1 &&
        it->next_id != it->vocab_size) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Invalid vocab_size in %s: expected %lld but got %lld",
                 it->filename, (long long)it->vocab_size,
                 (long long)it->next_id);
    }
    return 0;
  }
  if (it->vocab_size != -1 && it->next_id >= it->vocab_size) {
    KUTIL_FAIL(k, TF_OUT_OF_RANGE, "Finished reading %lld of lines from %s",
               (long long)it->vocab_size, it->filename);
    return 0;
  }
  if (it->rd.line_len == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Invalid content in %s: empty line found at position %lld.",
               it->filename, (long long)it->rd.tell);
    return 0;
  }
  if (mx >= 0) {
    int64_t tokens = 1;
    const char* s = it->rd.line;
    size_t left = it->rd.line_len;
    const char* d;
    while ((d = (const char*)memchr(s, it->delim, left)) != NULL) {
      tokens++;
      left -= (size_t)(d + 1 - s);
      s = d + 1;
    }
    if (tokens < mx + 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Invalid number of columns in %s line %lld (%.*s) : expected "
                 "at least %lld got %lld",
                 it->filename, (long long)it->next_id,
                 (int)(it->rd.line_len > 512 ? 512 : it->rd.line_len),
                 it->rd.line, (long long)(mx + 1), (long long)tokens);
      return 0;
    }
  }
  if (!text_set(k, it, it->key_index, it->kdt, &it->key_i, NULL, &it->key_p,
                &it->key_n)) {
    return 0;
  }
  if (!text_set(k, it, it->value_index, it->vdt, NULL, it->val_pod,
                &it->val_p, &it->val_n)) {
    return 0;
  }
  it->next_id++;
  return 1;
}

static int is_int_type(TF_DataType t) {
  switch (t) {
    case TF_INT8: case TF_INT16: case TF_INT32: case TF_INT64:
    case TF_UINT8: case TF_UINT16: case TF_UINT32: case TF_UINT64:
      return 1;
    default:
      return 0;
  }
}

static void init_file_compute(tfe_kernel_context* k) {
  lk_access a;
  lk_table* t;
  const TF_Tensor* fn;
  const char* delim = "";
  size_t delim_len = 0;
  char* filename = NULL;
  text_iter it;
  int64_t ki, vi;
  kutil_shape_buf b;
  memset(&it, 0, sizeof it);
  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, "delimiter", &delim, &delim_len, NULL) ||
      delim_len != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "delimiter should be only 1 char");
    return;
  }
  /* TF reads the indices as int64 and passes them on as int32. */
  ki = (int32_t)(uint32_t)(uint64_t)kutil_attr_int64(k, "key_index", 0);
  vi = (int32_t)(uint32_t)(uint64_t)kutil_attr_int64(k, "value_index", 0);
  if (!get_initializable(k, &a)) return;
  t = a.t;
  {
    TF_DataType in[1] = {TF_STRING};
    if (!match_signature(k, in, 1, NULL, 0)) goto done;
  }
  fn = k->inputs[1];
  if (fn->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "filename should be a single string, but got %s",
               kutil_tshape(fn, &b));
    goto done;
  }
  {
    const TF_TString* s = (const TF_TString*)kutil_data(fn);
    size_t n = TF_TString_GetSize(s);
    if (n == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "filename cannot be empty.");
      goto done;
    }
    filename = (char*)tfe_malloc(n + 1);
    if (filename == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
      goto done;
    }
    memcpy(filename, TF_TString_GetDataPointer(s), n);
    filename[n] = '\0';
  }
  if (ki < LK_WHOLE_LINE || vi < LK_WHOLE_LINE) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "key_index and value_index must be at least -2, got %lld and "
               "%lld",
               (long long)ki, (long long)vi);
    goto done;
  }
  if (ki == LK_LINE_NUMBER && t->kdt != TF_INT64) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Key index for line number requires table key dtype of int64, "
               "got %s",
               dt_name(t->kdt));
    goto done;
  }
  if (ki == LK_WHOLE_LINE && !is_int_type(t->kdt) && t->kdt != TF_STRING) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Key index for whole line requires string or integer table "
               "key, got %s",
               dt_name(t->kdt));
    goto done;
  }
  if (vi == LK_LINE_NUMBER && t->vdt != TF_INT64) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Value index for line number requires table value dtype of "
               "int64, got %s",
               dt_name(t->vdt));
    goto done;
  }
  if (vi == LK_WHOLE_LINE && !is_int_type(t->vdt) && t->vdt != TF_STRING) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Value index for whole line requires table value dtype of "
               "integer or string, got %s",
               dt_name(t->vdt));
    goto done;
  }
  it.filename = filename;
  it.vocab_size = kutil_attr_int64(k, "vocab_size", -1);
  it.offset = kutil_attr_int64(k, "offset", 0);
  it.key_index = (int32_t)ki;
  it.value_index = (int32_t)vi;
  it.delim = delim[0];
  it.kdt = t->kdt;
  it.vdt = t->vdt;
  it.rd.cap = 1 << 16;
  it.rd.buf = (char*)tfe_malloc(it.rd.cap);
  if (it.rd.buf == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  it.rd.f = tfe_fs_open_raf(filename, k->status);
  if (it.rd.f == NULL) {
    if (TF_GetCode(k->status) == TF_OK) {
      KUTIL_FAIL(k, TF_INTERNAL, "cannot open %s", filename);
    }
    goto done;
  }
  /* The first line is read before the table is looked at (TF's
   * iterator Init); its errors, end of file included, are the op's. */
  if (!text_next(k, &it)) goto done;
  pthread_rwlock_wrlock(&t->mu);
  if (t->initialized) {
    /* TF: a file initializer ignores an already initialized table. */
    pthread_rwlock_unlock(&t->mu);
    goto done;
  }
  for (;;) {
    lk_key key;
    int64_t conflict;
    key.i = it.key_i;
    key.p = it.key_p;
    key.n = it.key_n;
    if (!lk_map_put_scalar(&t->map, key, it.val_pod, it.val_p, it.val_n, 1,
                           &conflict)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory filling a table");
      break;
    }
    if (conflict >= 0) {
      char nv[300];
      lk_scalar_value_text(t->vdt, it.val_pod, it.val_p, it.val_n, nv,
                           sizeof nv);
      conflict_error(k, t, key, conflict, nv);
      break;
    }
    if (!text_next(k, &it)) {
      if (TF_GetCode(k->status) == TF_OUT_OF_RANGE) {
        tfe_status_ok(k->status);
        t->initialized = 1;
      }
      break;
    }
  }
  pthread_rwlock_unlock(&t->mu);
done:
  if (it.rd.f != NULL) tfe_fs_raf_release(it.rd.f);
  tfe_free(it.rd.buf);
  tfe_free(it.rd.line);
  tfe_free(filename);
  release(&a);
}

/* ------------------------------------------------------------------------
 * Registration. */

static void reg_plain(const char* op, void (*compute)(tfe_kernel_context*)) {
  tfe_kernel_reg r;
  TF_Status* s = TF_NewStatus();
  memset(&r, 0, sizeof r);
  r.op_name = op;
  r.device_type = "CPU";
  r.compute = compute;
  if (s != NULL) {
    tfe_kernel_register(&r, s);
    TF_DeleteStatus(s);
  }
}

static void reg_maker(const char* op, TF_DataType kt, TF_DataType vt) {
  tfe_kernel_reg r;
  TF_Status* s = TF_NewStatus();
  memset(&r, 0, sizeof r);
  r.op_name = op;
  r.device_type = "CPU";
  r.constraints[0].attr = "key_dtype";
  r.constraints[0].types = &kt;
  r.constraints[0].num_types = 1;
  r.constraints[1].attr = "value_dtype";
  r.constraints[1].types = &vt;
  r.constraints[1].num_types = 1;
  r.num_constraints = 2;
  r.create = maker_create;
  r.compute = maker_compute;
  r.destroy = maker_destroy;
  if (s != NULL) {
    tfe_kernel_register(&r, s);
    TF_DeleteStatus(s);
  }
}

typedef struct kv_pair {
  TF_DataType k, v;
} kv_pair;

/* The (key, value) dtypes TF 2.21 registers CPU kernels for, in its
 * order. */
static const kv_pair kHashPairs[] = {
    {TF_STRING, TF_STRING}, {TF_STRING, TF_INT64}, {TF_STRING, TF_INT32},
    {TF_STRING, TF_FLOAT},  {TF_STRING, TF_DOUBLE}, {TF_STRING, TF_BOOL},
    {TF_INT64, TF_STRING},  {TF_INT64, TF_INT64},  {TF_INT64, TF_INT32},
    {TF_INT64, TF_FLOAT},   {TF_INT64, TF_DOUBLE}, {TF_INT32, TF_STRING},
    {TF_INT32, TF_INT32},   {TF_INT32, TF_FLOAT},  {TF_INT32, TF_DOUBLE}};
/* Mutable tables; the scalar ones also take int64 -> variant. */
static const kv_pair kMutablePairs[] = {
    {TF_STRING, TF_INT64}, {TF_STRING, TF_INT32}, {TF_STRING, TF_FLOAT},
    {TF_STRING, TF_DOUBLE}, {TF_STRING, TF_BOOL}, {TF_INT64, TF_STRING},
    {TF_INT64, TF_INT64},  {TF_INT64, TF_INT32},  {TF_INT64, TF_FLOAT},
    {TF_INT64, TF_DOUBLE}, {TF_INT32, TF_INT32},  {TF_INT32, TF_FLOAT},
    {TF_INT32, TF_DOUBLE}};

/* Dense tables (TF also has string -> resource and int64 -> variant,
 * which tfe does not implement). */
static const kv_pair kDensePairs[] = {
    {TF_STRING, TF_INT64}, {TF_STRING, TF_INT32}, {TF_STRING, TF_FLOAT},
    {TF_STRING, TF_DOUBLE}, {TF_STRING, TF_BOOL}, {TF_INT64, TF_INT64},
    {TF_INT64, TF_INT32},  {TF_INT64, TF_FLOAT},  {TF_INT64, TF_DOUBLE},
    {TF_INT64, TF_BOOL},   {TF_INT32, TF_INT32},  {TF_INT32, TF_FLOAT},
    {TF_INT32, TF_DOUBLE}};

void tfe_register_cpu_lookup_kernels(void) {
  static const char* const kHashOps[] = {"HashTableV2", "HashTable",
                                         "AnonymousHashTable"};
  static const char* const kMutableOps[] = {
      "MutableHashTableV2", "MutableHashTable", "AnonymousMutableHashTable",
      "MutableHashTableOfTensorsV2", "MutableHashTableOfTensors",
      "AnonymousMutableHashTableOfTensors"};
  size_t i, j;
  for (i = 0; i < sizeof kHashOps / sizeof kHashOps[0]; i++) {
    for (j = 0; j < sizeof kHashPairs / sizeof kHashPairs[0]; j++) {
      reg_maker(kHashOps[i], kHashPairs[j].k, kHashPairs[j].v);
    }
  }
  for (i = 0; i < sizeof kMutableOps / sizeof kMutableOps[0]; i++) {
    for (j = 0; j < sizeof kMutablePairs / sizeof kMutablePairs[0]; j++) {
      reg_maker(kMutableOps[i], kMutablePairs[j].k, kMutablePairs[j].v);
    }
    if (strstr(kMutableOps[i], "OfTensors") == NULL) {
      reg_maker(kMutableOps[i], TF_INT64, TF_VARIANT);
    }
  }
  for (j = 0; j < sizeof kDensePairs / sizeof kDensePairs[0]; j++) {
    reg_maker("MutableDenseHashTableV2", kDensePairs[j].k, kDensePairs[j].v);
    reg_maker("AnonymousMutableDenseHashTable", kDensePairs[j].k,
              kDensePairs[j].v);
  }
  reg_plain("InitializeTableV2", init_compute);
  reg_plain("InitializeTable", init_compute);
  reg_plain("InitializeTableFromTextFileV2", init_file_compute);
  reg_plain("InitializeTableFromTextFile", init_file_compute);
  reg_plain("LookupTableFindV2", find_compute);
  reg_plain("LookupTableFind", find_compute);
  reg_plain("LookupTableInsertV2", insert_compute);
  reg_plain("LookupTableInsert", insert_compute);
  reg_plain("LookupTableRemoveV2", remove_compute);
  reg_plain("LookupTableImportV2", import_compute);
  reg_plain("LookupTableImport", import_compute);
  reg_plain("LookupTableExportV2", export_compute);
  reg_plain("LookupTableExport", export_compute);
  reg_plain("LookupTableSizeV2", size_compute);
  reg_plain("LookupTableSize", size_compute);
}
