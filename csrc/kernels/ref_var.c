/* Reference cells, the Ref(T) flags of op definitions, and the
 * temporary-variable registry (kernels/ref_var.h). */
#include "kernels/ref_var.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "kernels/kernel.h"
#include "tfe/tfe.h"

/* ------------------------------------------------------------------------
 * Cells. */

tfe_ref_cell* tfe_ref_cell_new(TF_DataType dtype, TF_Tensor* value) {
  tfe_ref_cell* c = (tfe_ref_cell*)tfe_calloc(1, sizeof(*c));
  if (c == NULL) {
    TF_DeleteTensor(value);
    return NULL;
  }
  atomic_init(&c->refs, 1);
  pthread_mutex_init(&c->mu, NULL);
  c->dtype = dtype;
  c->value = value;
  tfe_count_inc(TFE_OBJ_REF_CELL);
  return c;
}

void tfe_ref_cell_ref(tfe_ref_cell* c) {
  if (c != NULL) atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
}

void tfe_ref_cell_unref(tfe_ref_cell* c) {
  if (c == NULL) return;
  if (atomic_fetch_sub_explicit(&c->refs, 1, memory_order_acq_rel) != 1) {
    return;
  }
  TF_DeleteTensor(c->value);
  pthread_mutex_destroy(&c->mu);
  tfe_free(c);
  tfe_count_dec(TFE_OBJ_REF_CELL);
}

TF_Tensor* tfe_ref_cell_read(tfe_ref_cell* c, int lock_held, TF_Status* s) {
  TF_Tensor* t = NULL;
  int uninit;
  if (!lock_held) pthread_mutex_lock(&c->mu);
  uninit = c->value == NULL;
  if (!uninit) {
    t = tfe_tensor_from_buffer(c->value->dtype, c->value->dims,
                               c->value->num_dims, c->value->buf);
  }
  if (!lock_held) pthread_mutex_unlock(&c->mu);
  if (uninit) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "Attempting to use uninitialized value (a %s reference "
                    "that was never assigned)",
                    tfe_dtype_enum_name(c->dtype));
    return NULL;
  }
  if (t == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory reading a reference");
  }
  return t;
}

void tfe_ref_cell_set_locked(tfe_ref_cell* c, TF_Tensor* value) {
  if (c->value == value) return;
  TF_DeleteTensor(c->value);
  c->value = value;
}

void tfe_ref_shape_str(const TF_Tensor* t, char* buf, size_t cap) {
  size_t pos = (size_t)snprintf(buf, cap, "[");
  int i;
  for (i = 0; i < t->num_dims && pos + 24 < cap; i++) {
    pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? "," : "",
                            (long long)t->dims[i]);
  }
  snprintf(buf + pos, cap - pos, "]");
}

static int same_shape(const TF_Tensor* a, const TF_Tensor* b) {
  return a->num_dims == b->num_dims &&
         (a->num_dims == 0 ||
          memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->num_dims) ==
              0);
}

int tfe_ref_assign_locked(tfe_ref_cell* c, const TF_Tensor* rhs,
                          int validate_shape, tfe_ref_alloc_fn alloc,
                          tfe_ref_copy_fn copy, void* user, TF_Status* s) {
  const TF_Tensor* old = c->value;
  int same = old != NULL && same_shape(old, rhs);
  TF_Tensor* dst;
  if (validate_shape && old != NULL && !same) {
    char a[256], b[256];
    tfe_ref_shape_str(old, a, sizeof a);
    tfe_ref_shape_str(rhs, b, sizeof b);
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Assign requires shapes of both tensors to match. lhs "
                    "shape= %s rhs shape= %s",
                    a, b);
    return 0;
  }
  if (old != NULL && old->dtype == rhs->dtype &&
      tfe_shape_num_elements(old->dims, old->num_dims) ==
          tfe_shape_num_elements(rhs->dims, rhs->num_dims)) {
    /* 1. Into the existing buffer. */
    if (!same) {
      TF_Tensor* r = tfe_tensor_from_buffer(old->dtype, rhs->dims,
                                            rhs->num_dims, old->buf);
      if (r == NULL) {
        tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                        "out of memory assigning a reference");
        return 0;
      }
      tfe_ref_cell_set_locked(c, r);
    }
    return copy(user, rhs, c->value, s);
  }
  /* 2. Into a new buffer shaped like rhs. */
  dst = alloc(user, rhs, s);
  if (dst == NULL) return 0;
  if (!copy(user, rhs, dst, s)) {
    TF_DeleteTensor(dst);
    return 0;
  }
  tfe_ref_cell_set_locked(c, dst);
  return 1;
}

/* ------------------------------------------------------------------------
 * Ref(T) args. */

int tfe_op_def_has_ref(const tfe_op_def* def) {
  int i;
  for (i = 0; i < def->num_inputs; i++) {
    if (def->inputs[i].is_ref) return 1;
  }
  for (i = 0; i < def->num_outputs; i++) {
    if (def->outputs[i].is_ref) return 1;
  }
  return 0;
}

int tfe_op_def_flat_is_ref(const tfe_op_def* def, const tfe_attrs* attrs,
                           int is_output, int index) {
  const tfe_arg_def* args = is_output ? def->outputs : def->inputs;
  int n = is_output ? def->num_outputs : def->num_inputs;
  int i, pos = 0;
  for (i = 0; i < n && pos <= index; i++) {
    int len = 1;
    if (!tfe_op_def_arg_length(def, &args[i], attrs, &len, NULL)) return 0;
    if (index < pos + len) return args[i].is_ref;
    pos += len;
  }
  return 0;
}

/* ------------------------------------------------------------------------
 * Kernel side. */

tfe_ref_cell* tfe_kernel_input_ref(const tfe_kernel_context* k, int i) {
  if (k == NULL || k->input_refs == NULL || i < 0 || i >= k->num_inputs) {
    return NULL;
  }
  return k->input_refs[i];
}

int tfe_kernel_set_output_ref(tfe_kernel_context* k, int index,
                              tfe_ref_cell* c) {
  const char* op = k->op_def != NULL ? k->op_def->name : "?";
  if (index < 0 || index >= k->num_outputs) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "output index %d is out of range [0, %d) for op %s",
                    index, k->num_outputs, op);
    return 0;
  }
  if (k->output_refs == NULL || k->op_def == NULL ||
      !tfe_op_def_flat_is_ref(k->op_def, k->attrs, 1, index)) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "output %d of %s is not a reference (Ref(T)) output",
                    index, op);
    return 0;
  }
  tfe_ref_cell_ref(c);
  tfe_ref_cell_unref(k->output_refs[index]);
  k->output_refs[index] = c;
  return 1;
}

/* ------------------------------------------------------------------------
 * Temporary variables: a small list, as a context rarely holds more than a
 * few at a time. */

typedef struct tmpvar {
  struct tmpvar* next;
  uint64_t ctx_id;
  char* name;
  tfe_ref_cell* cell;
} tmpvar;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static tmpvar* g_vars;
static int g_count;

int tfe_tmpvar_create(uint64_t ctx_id, const char* name, tfe_ref_cell* c,
                      TF_Status* s) {
  tmpvar* v;
  pthread_mutex_lock(&g_mu);
  for (v = g_vars; v != NULL; v = v->next) {
    if (v->ctx_id == ctx_id && strcmp(v->name, name) == 0) {
      pthread_mutex_unlock(&g_mu);
      tfe_status_setf(s, TF_ALREADY_EXISTS,
                      "Temporary variable '%s' already exists", name);
      return 0;
    }
  }
  v = (tmpvar*)tfe_calloc(1, sizeof(*v));
  if (v != NULL) v->name = tfe_strdup(name);
  if (v == NULL || v->name == NULL) {
    pthread_mutex_unlock(&g_mu);
    tfe_free(v);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "Could not allocate temporary variable '%s'", name);
    return 0;
  }
  v->ctx_id = ctx_id;
  v->cell = c;
  tfe_ref_cell_ref(c);
  v->next = g_vars;
  g_vars = v;
  g_count++;
  pthread_mutex_unlock(&g_mu);
  return 1;
}

static void tmpvar_free(tmpvar* v) {
  tfe_ref_cell_unref(v->cell);
  tfe_free(v->name);
  tfe_free(v);
}

int tfe_tmpvar_delete(uint64_t ctx_id, const char* name, TF_Status* s) {
  tmpvar **p, *v = NULL;
  pthread_mutex_lock(&g_mu);
  for (p = &g_vars; *p != NULL; p = &(*p)->next) {
    if ((*p)->ctx_id == ctx_id && strcmp((*p)->name, name) == 0) {
      v = *p;
      *p = v->next;
      g_count--;
      break;
    }
  }
  pthread_mutex_unlock(&g_mu);
  if (v == NULL) {
    tfe_status_setf(s, TF_NOT_FOUND,
                    "Temporary variable '%s' does not exist", name);
    return 0;
  }
  tmpvar_free(v); /* outside the lock: may free a device buffer */
  return 1;
}

void tfe_tmpvars_clear_context(uint64_t ctx_id) {
  tmpvar **p, *dead = NULL;
  pthread_mutex_lock(&g_mu);
  p = &g_vars;
  while (*p != NULL) {
    tmpvar* v = *p;
    if (v->ctx_id == ctx_id) {
      *p = v->next;
      v->next = dead;
      dead = v;
      g_count--;
    } else {
      p = &v->next;
    }
  }
  pthread_mutex_unlock(&g_mu);
  while (dead != NULL) {
    tmpvar* next = dead->next;
    tmpvar_free(dead);
    dead = next;
  }
}

tfe_ref_cell* tfe_tmpvar_lookup(uint64_t ctx_id, const char* name) {
  tmpvar* v;
  tfe_ref_cell* c = NULL;
  pthread_mutex_lock(&g_mu);
  for (v = g_vars; v != NULL; v = v->next) {
    if (v->ctx_id == ctx_id && strcmp(v->name, name) == 0) {
      c = v->cell;
      tfe_ref_cell_ref(c);
      break;
    }
  }
  pthread_mutex_unlock(&g_mu);
  return c;
}

int tfe_tmpvars_count(void) {
  int n;
  pthread_mutex_lock(&g_mu);
  n = g_count;
  pthread_mutex_unlock(&g_mu);
  return n;
}
