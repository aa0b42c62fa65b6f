/* ops.h: TF_OpDefinitionBuilder on top of the one op registry. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "ops/capi_ops.h"
#include "ops/op_registry.h"
#include "ops/proto_encode.h"
#include "tensorflow/c/ops.h"

static _Thread_local tfe_op_collector* t_collector;

void tfe_ops_collect_begin(tfe_op_collector* c) { t_collector = c; }
void tfe_ops_collect_end(void) { t_collector = NULL; }

static void collect(const char* name) {
  tfe_op_collector* c = t_collector;
  const tfe_op_def* d;
  if (c == NULL || (d = tfe_op_lookup(name)) == NULL) return;
  if (c->n == c->cap) {
    int ncap = c->cap ? c->cap * 2 : 8;
    const tfe_op_def** n = (const tfe_op_def**)tfe_realloc(
        c->defs, sizeof(*n) * (size_t)ncap);
    if (n == NULL) {
      c->oom = 1;
      return;
    }
    c->defs = n;
    c->cap = ncap;
  }
  c->defs[c->n++] = d;
}

/* Records the first failed registration of the library being loaded. */
static void collect_failure(const char* name, TF_Code code, const char* msg) {
  tfe_op_collector* c = t_collector;
  int i;
  if (c == NULL || c->error != TF_OK || code == TF_OK) return;
  if (code == TF_ALREADY_EXISTS) {
    /* Only a clash with the library's own ops fails the load. */
    int own = 0;
    for (i = 0; i < c->n && !own; i++) {
      own = strcmp(c->defs[i]->name, name) == 0;
    }
    if (!own) return;
  }
  c->error = code;
  snprintf(c->error_msg, sizeof c->error_msg, "%s", msg ? msg : "");
}

struct TF_OpDefinitionBuilder {
  tfe_op_def* def;
  /* First spec that did not parse (reported at registration). */
  TF_Code error;
  char* error_msg;
  int has_deprecation;
  int deprecation_version;
  char* deprecation_explanation;
};

TF_OpDefinitionBuilder* TF_NewOpDefinitionBuilder(const char* op_name) {
  TF_OpDefinitionBuilder* b;
  if (op_name == NULL) return NULL;
  b = (TF_OpDefinitionBuilder*)tfe_calloc(1, sizeof(*b));
  if (b == NULL) return NULL;
  b->def = tfe_op_def_new(op_name);
  if (b->def == NULL) {
    tfe_free(b);
    return NULL;
  }
  return b;
}

void TF_DeleteOpDefinitionBuilder(TF_OpDefinitionBuilder* builder) {
  if (builder == NULL) return;
  tfe_op_def_free(builder->def);
  tfe_free(builder->error_msg);
  tfe_free(builder->deprecation_explanation);
  tfe_free(builder);
}

static void remember(TF_OpDefinitionBuilder* b, TF_Status* s) {
  if (b->error != TF_OK || TF_GetCode(s) == TF_OK) return;
  b->error = TF_GetCode(s);
  b->error_msg = tfe_strdup(TF_Message(s));
}

typedef int (*add_fn)(tfe_op_def*, const char*, TF_Status*);

static void add_spec(TF_OpDefinitionBuilder* b, const char* spec, add_fn add,
                     const char* what) {
  TF_Status* s;
  if (b == NULL) return;
  s = TF_NewStatus();
  if (s == NULL) {
    if (b->error == TF_OK) b->error = TF_RESOURCE_EXHAUSTED;
    return;
  }
  if (spec == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "NULL %s spec for op %s", what,
                    b->def->name);
  } else {
    add(b->def, spec, s);
  }
  remember(b, s);
  TF_DeleteStatus(s);
}

void TF_OpDefinitionBuilderAddAttr(TF_OpDefinitionBuilder* builder,
                                   const char* attr_spec) {
  add_spec(builder, attr_spec, tfe_op_def_add_attr, "attr");
}

void TF_OpDefinitionBuilderAddInput(TF_OpDefinitionBuilder* builder,
                                    const char* input_spec) {
  add_spec(builder, input_spec, tfe_op_def_add_input, "input");
}

void TF_OpDefinitionBuilderAddOutput(TF_OpDefinitionBuilder* builder,
                                     const char* output_spec) {
  add_spec(builder, output_spec, tfe_op_def_add_output, "output");
}

void TF_OpDefinitionBuilderSetIsCommutative(TF_OpDefinitionBuilder* builder,
                                            bool is_commutative) {
  if (builder != NULL) builder->def->is_commutative = is_commutative;
}

void TF_OpDefinitionBuilderSetIsAggregate(TF_OpDefinitionBuilder* builder,
                                          bool is_aggregate) {
  if (builder != NULL) builder->def->is_aggregate = is_aggregate;
}

void TF_OpDefinitionBuilderSetIsStateful(TF_OpDefinitionBuilder* builder,
                                         bool is_stateful) {
  if (builder != NULL) builder->def->is_stateful = is_stateful;
}

void TF_OpDefinitionBuilderSetAllowsUninitializedInput(
    TF_OpDefinitionBuilder* builder, bool allows_uninitialized_input) {
  if (builder != NULL) {
    builder->def->allows_uninitialized_input = allows_uninitialized_input;
  }
}

void TF_OpDefinitionBuilderDeprecated(TF_OpDefinitionBuilder* builder,
                                      int version, const char* explanation) {
  char* copy;
  if (builder == NULL) return;
  copy = tfe_strdup(explanation ? explanation : "");
  if (copy == NULL) {
    if (builder->error == TF_OK) builder->error = TF_RESOURCE_EXHAUSTED;
    return;
  }
  tfe_free(builder->deprecation_explanation);
  builder->deprecation_explanation = copy;
  builder->deprecation_version = version;
  builder->has_deprecation = 1;
}

void TF_OpDefinitionBuilderSetShapeInferenceFunction(
    TF_OpDefinitionBuilder* builder,
    void (*shape_inference_func)(TF_ShapeInferenceContext* ctx,
                                 TF_Status* status)) {
  void* p;
  if (builder == NULL) return;
  /* The registry keeps the function as an opaque pointer. */
  memcpy(&p, &shape_inference_func, sizeof p);
  builder->def->shape_fn = shape_inference_func != NULL ? p : NULL;
}

void TF_RegisterOpDefinition(TF_OpDefinitionBuilder* builder,
                             TF_Status* status) {
  tfe_op_def* def;
  char name[256];
  if (builder == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_RegisterOpDefinition: builder is NULL");
    return;
  }
  if (builder->error != TF_OK) {
    const char* msg = builder->error_msg ? builder->error_msg
                                         : "out of memory building the op";
    collect_failure(builder->def->name, builder->error, msg);
    tfe_status_setf(status, builder->error, "%s", msg);
    TF_DeleteOpDefinitionBuilder(builder);
    return;
  }
  def = builder->def;
  builder->def = NULL;
  snprintf(name, sizeof name, "%s", def->name);
  /* The registry takes the definition in every case. */
  if (status == NULL) {
    /* The caller ignores the outcome; a library load still learns it. */
    TF_Status* scratch = TF_NewStatus();
    int ok = tfe_op_register(def, scratch);
    if (!ok) {
      collect_failure(name,
                      scratch ? TF_GetCode(scratch) : TF_RESOURCE_EXHAUSTED,
                      scratch ? TF_Message(scratch) : "out of memory");
    }
    TF_DeleteStatus(scratch);
    if (!ok) {
      TF_DeleteOpDefinitionBuilder(builder);
      return;
    }
  } else if (!tfe_op_register(def, status)) {
    collect_failure(name, TF_GetCode(status), TF_Message(status));
    TF_DeleteOpDefinitionBuilder(builder);
    return;
  }
  collect(name);
  if (builder->has_deprecation &&
      !tfe_op_set_deprecation(name, builder->deprecation_version,
                              builder->deprecation_explanation)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "op %s was registered, but recording its deprecation ran "
                    "out of memory",
                    name);
  }
  TF_DeleteOpDefinitionBuilder(builder);
}
