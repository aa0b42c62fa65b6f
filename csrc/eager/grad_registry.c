/* The gradient registry: one table from op type to gradient function (or
 * "not differentiable"), filled with tfe's built-in gradients on first use
 * and open to plugins through TFE_RegisterGradient; and the accessors a
 * gradient function reads its TFE_GradientContext with. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/tape.h"

#define NBUCKETS 256

typedef struct entry {
  struct entry* next;
  char* name;
  TFE_GradientFunction fn;
  int not_differentiable;
} entry;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static entry* g_buckets[NBUCKETS];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_builtins_ok;

static unsigned bucket_of(const char* name) {
  uint32_t h = 2166136261u;
  for (; *name; name++) h = (h ^ (unsigned char)*name) * 16777619u;
  return h % NBUCKETS;
}

static entry* find_locked(const char* name) {
  entry* e;
  for (e = g_buckets[bucket_of(name)]; e != NULL; e = e->next) {
    if (strcmp(e->name, name) == 0) return e;
  }
  return NULL;
}

static void add_entry(const char* op_type, TFE_GradientFunction fn, int not_diff,
                      TF_Status* s) {
  entry* e;
  if (op_type == NULL || op_type[0] == '\0' || (!not_diff && fn == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: %s",
                    not_diff ? "TFE_RegisterNotDifferentiable" : "TFE_RegisterGradient",
                    op_type == NULL || op_type[0] == '\0' ? "the op type is empty"
                                                          : "the gradient function is NULL");
    return;
  }
  pthread_mutex_lock(&g_mu);
  if (find_locked(op_type) != NULL) {
    pthread_mutex_unlock(&g_mu);
    tfe_status_setf(s, TF_ALREADY_EXISTS, "a gradient for op type %s is already registered",
                    op_type);
    return;
  }
  e = (entry*)tfe_calloc(1, sizeof *e);
  if (e != NULL) e->name = tfe_strdup(op_type);
  if (e == NULL || e->name == NULL) {
    pthread_mutex_unlock(&g_mu);
    tfe_free(e);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "registering the gradient of %s: out of memory",
                    op_type);
    return;
  }
  e->fn = fn;
  e->not_differentiable = not_diff;
  e->next = g_buckets[bucket_of(op_type)];
  g_buckets[bucket_of(op_type)] = e;
  pthread_mutex_unlock(&g_mu);
  tfe_status_ok(s);
}

static void init_builtins(void) { g_builtins_ok = tfe_grad_register_builtins(); }

static void ensure_builtins(void) { pthread_once(&g_once, init_builtins); }

void TFE_RegisterGradient(const char* op_type, TFE_GradientFunction fn, TF_Status* s) {
  if (s == NULL) return;
  ensure_builtins();
  add_entry(op_type, fn, 0, s);
}

void TFE_RegisterNotDifferentiable(const char* op_type, TF_Status* s) {
  if (s == NULL) return;
  ensure_builtins();
  add_entry(op_type, NULL, 1, s);
}

int tfe_grad_lookup(const char* op_type, TFE_GradientFunction* fn, int* not_diff) {
  entry* e;
  ensure_builtins();
  pthread_mutex_lock(&g_mu);
  e = find_locked(op_type);
  if (e != NULL) {
    *fn = e->fn;
    *not_diff = e->not_differentiable;
  }
  pthread_mutex_unlock(&g_mu);
  return e != NULL;
}

int TFE_GradientRegistryLookup(const char* op_type) {
  TFE_GradientFunction fn;
  int nd;
  if (op_type == NULL || !tfe_grad_lookup(op_type, &fn, &nd)) return 0;
  return nd ? 2 : 1;
}

/* Used by the built-in registration (no status there: a failure is an
 * allocation failure, reported by the return value). */
int tfe_grad_register_builtin(const char* op_type, TFE_GradientFunction fn) {
  TF_Status* s = TF_NewStatus();
  int ok;
  if (s == NULL) return 0;
  add_entry(op_type, fn, fn == NULL, s);
  ok = TF_GetCode(s) == TF_OK || TF_GetCode(s) == TF_ALREADY_EXISTS;
  TF_DeleteStatus(s);
  return ok;
}

/* ---- accessors ---- */

TF_ExecutionContext* TFE_GradientContextExecutionContext(TFE_GradientContext* g) {
  return g == NULL ? NULL : g->ec;
}

const char* TFE_GradientContextOpType(TFE_GradientContext* g) {
  return g == NULL ? NULL : g->op_type;
}

int TFE_GradientContextNumInputs(TFE_GradientContext* g) {
  return g == NULL ? 0 : g->num_inputs;
}

int TFE_GradientContextNumOutputs(TFE_GradientContext* g) {
  return g == NULL ? 0 : g->num_outputs;
}

TF_AbstractTensor* TFE_GradientContextInput(TFE_GradientContext* g, int i) {
  if (g == NULL || i < 0 || i >= g->num_inputs) return NULL;
  return g->inputs[i];
}

TF_AbstractTensor* TFE_GradientContextOutput(TFE_GradientContext* g, int i) {
  if (g == NULL || i < 0 || i >= g->num_outputs) return NULL;
  return g->outputs[i];
}

TF_AbstractTensor* TFE_GradientContextOutputGradient(TFE_GradientContext* g, int i) {
  if (g == NULL || i < 0 || i >= g->num_outputs) return NULL;
  return g->out_grads[i];
}

void TFE_GradientContextSetInputGradient(TFE_GradientContext* g, int i,
                                         TF_AbstractTensor* grad, TF_Status* s) {
  if (s == NULL) return;
  if (g == NULL || i < 0 || i >= g->num_inputs || grad == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_GradientContextSetInputGradient: %s",
                    g == NULL ? "the context is NULL"
                    : grad == NULL ? "the gradient is NULL"
                                   : "the input index is out of range");
    return;
  }
  TF_DeleteAbstractTensor(g->in_grads[i]);
  g->in_grads[i] = grad;
  tfe_status_ok(s);
}

static int attr_args_ok(TFE_GradientContext* g, const char* name, const char* fn,
                        TF_Status* s) {
  if (s == NULL) return 0;
  if (g == NULL || name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                    g == NULL ? "the context" : "the attr name");
    return 0;
  }
  return 1;
}

int64_t TFE_GradientContextAttrInt(TFE_GradientContext* g, const char* name, TF_Status* s) {
  int64_t v = 0;
  if (!attr_args_ok(g, name, "TFE_GradientContextAttrInt", s)) return 0;
  if (!tfe_attrs_get_int(g->attrs, name, &v, s)) return 0;
  tfe_status_ok(s);
  return v;
}

unsigned char TFE_GradientContextAttrBool(TFE_GradientContext* g, const char* name,
                                          TF_Status* s) {
  int v = 0;
  if (!attr_args_ok(g, name, "TFE_GradientContextAttrBool", s)) return 0;
  if (!tfe_attrs_get_bool(g->attrs, name, &v, s)) return 0;
  tfe_status_ok(s);
  return (unsigned char)(v != 0);
}

float TFE_GradientContextAttrFloat(TFE_GradientContext* g, const char* name, TF_Status* s) {
  float v = 0;
  if (!attr_args_ok(g, name, "TFE_GradientContextAttrFloat", s)) return 0;
  if (!tfe_attrs_get_float(g->attrs, name, &v, s)) return 0;
  tfe_status_ok(s);
  return v;
}

TF_DataType TFE_GradientContextAttrType(TFE_GradientContext* g, const char* name,
                                        TF_Status* s) {
  TF_DataType v = (TF_DataType)0;
  if (!attr_args_ok(g, name, "TFE_GradientContextAttrType", s)) return v;
  if (!tfe_attrs_get_type(g->attrs, name, &v, s)) return (TF_DataType)0;
  tfe_status_ok(s);
  return v;
}
