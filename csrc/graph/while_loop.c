/* The v1 while-loop builder of c_api.h (TF_NewWhile, TF_FinishWhile,
 * TF_AbortWhile), with TensorFlow's semantics.
 *
 * TF_NewWhile makes two scratch graphs, one for the condition and one for
 * the body, each starting with one Placeholder per loop variable
 * ("cond_input<i>", "body_input<i>"). The caller builds the condition and
 * the body in them and names their results in the params. TF_FinishWhile
 * then builds the loop in the parent graph the way TF's BuildWhileLoop
 * does, under a name scope made unique from params->name:
 *
 *   <s>/Enter[_i]          Enter(input i), frame_name = params->name
 *   <s>/Merge[_i]          Merge(Enter_i, NextIteration_i)   (back edge)
 *   <s>/cond/...           the condition graph, its inputs mapped to the
 *                          Merges, nodes without inputs depending on Merge
 *   <s>/LoopCond           LoopCond(condition output)
 *   <s>/Switch[_i]         Switch(Merge_i, LoopCond)
 *   <s>/body/...           the body graph, inputs mapped to Switch_i:1,
 *                          nodes without inputs depending on Switch
 *   <s>/NextIteration[_i]  NextIteration(body output i)
 *   <s>/Exit[_i]           Exit(Switch_i:0): the loop's outputs
 *
 * The condition and body graphs are copied through GraphDef import
 * (csrc/graph/import_internal.h) with TF's options: a prefix, an input map,
 * control dependencies and "skip mapped nodes" (the Placeholders are not
 * copied). Unlike TF, a TF_FinishWhile that fails leaves the parent graph
 * as it was. The scratch graphs and arrays are freed by TF_FinishWhile
 * (whatever the outcome, once the params are recognised as TF_NewWhile's)
 * or by TF_AbortWhile. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "graph/graph_internal.h"
#include "graph/import_internal.h"

static TF_WhileParams empty_params(void) {
  /* The const members can only be set at initialisation. */
  TF_WhileParams none = {0, NULL, NULL, {NULL, 0}, NULL, NULL, NULL, NULL};
  return none;
}

static void free_while_resources(const TF_WhileParams* p) {
  TF_DeleteGraph(p->cond_graph);
  TF_DeleteGraph(p->body_graph);
  tfe_free((void*)p->cond_inputs);
  tfe_free((void*)p->body_inputs);
  tfe_free((void*)p->body_outputs);
}

/* A Placeholder of the input's dtype named `name` in g. */
static int make_input(TF_Graph* g, TF_DataType dtype, const char* name,
                      TF_Output* out, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_Operation* op;
  if (d == NULL) {
    if (TF_GetCode(s) == TF_OK) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory in TF_NewWhile");
    }
    return 0;
  }
  TF_SetAttrType(d, "dtype", dtype);
  op = TF_FinishOperation(d, s);
  if (op == NULL) return 0;
  out->oper = op;
  out->index = 0;
  return 1;
}

TF_WhileParams TF_NewWhile(TF_Graph* g, TF_Output* inputs, int ninputs,
                           TF_Status* status) {
  TF_Graph* cond = NULL;
  TF_Graph* body = NULL;
  TF_Output* cond_inputs = NULL;
  TF_Output* body_inputs = NULL;
  TF_Output* body_outputs = NULL;
  TF_DataType* types = NULL;
  int i;
  if (status == NULL) return empty_params();
  if (ninputs <= 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_NewWhile() must be passed at least one input");
    return empty_params();
  }
  if (g == NULL || inputs == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_NewWhile: %s is NULL", g == NULL ? "graph" : "inputs");
    return empty_params();
  }
  types = (TF_DataType*)tfe_malloc(sizeof(TF_DataType) * (size_t)ninputs);
  if (types == NULL) goto oom;
  pthread_mutex_lock(&g->mu);
  for (i = 0; i < ninputs; i++) {
    const TF_Operation* op = inputs[i].oper;
    if (op == NULL || op->graph != g || inputs[i].index < 0 ||
        inputs[i].index >= op->num_outputs) {
      pthread_mutex_unlock(&g->mu);
      tfe_free(types);
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TF_NewWhile: input %d is not an output of an "
                      "operation of the graph",
                      i);
      return empty_params();
    }
    types[i] = op->output_types[inputs[i].index];
  }
  pthread_mutex_unlock(&g->mu);

  cond = TF_NewGraph();
  body = TF_NewGraph();
  cond_inputs = (TF_Output*)tfe_calloc((size_t)ninputs, sizeof(TF_Output));
  body_inputs = (TF_Output*)tfe_calloc((size_t)ninputs, sizeof(TF_Output));
  body_outputs = (TF_Output*)tfe_calloc((size_t)ninputs, sizeof(TF_Output));
  if (cond == NULL || body == NULL || cond_inputs == NULL ||
      body_inputs == NULL || body_outputs == NULL) {
    goto oom;
  }
  cond->while_parent = g;
  cond->while_parent_inputs = inputs;
  body->while_parent = g;
  body->while_parent_inputs = inputs;
  TF_SetStatus(status, TF_OK, "");
  for (i = 0; i < ninputs; i++) {
    char name[48];
    body_outputs[i].oper = NULL;
    body_outputs[i].index = -1;
    snprintf(name, sizeof name, "cond_input%d", i);
    if (!make_input(cond, types[i], name, &cond_inputs[i], status)) break;
    snprintf(name, sizeof name, "body_input%d", i);
    if (!make_input(body, types[i], name, &body_inputs[i], status)) break;
  }
  tfe_free(types);
  if (TF_GetCode(status) != TF_OK) {
    TF_DeleteGraph(cond);
    TF_DeleteGraph(body);
    tfe_free(cond_inputs);
    tfe_free(body_inputs);
    tfe_free(body_outputs);
    return empty_params();
  }
  {
    TF_WhileParams p = {ninputs,      cond, cond_inputs, {NULL, -1},
                        body,         body_inputs,  body_outputs, NULL};
    return p;
  }
oom:
  tfe_free(types);
  TF_DeleteGraph(cond);
  TF_DeleteGraph(body);
  tfe_free(cond_inputs);
  tfe_free(body_inputs);
  tfe_free(body_outputs);
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in TF_NewWhile");
  return empty_params();
}

/* Params that TF_NewWhile returned (TF's ValidateConstWhileParams). */
static int valid_const_params(const TF_WhileParams* p) {
  return p->cond_graph != NULL && p->body_graph != NULL &&
         p->cond_graph->while_parent != NULL &&
         p->cond_graph->while_parent == p->body_graph->while_parent &&
         p->cond_graph->while_parent_inputs ==
             p->body_graph->while_parent_inputs &&
         p->ninputs > 0 && p->cond_inputs != NULL && p->body_inputs != NULL &&
         p->body_outputs != NULL;
}

/* TF's ValidateInputWhileParams, plus checks that the named outputs are
 * outputs of the cond/body graphs. */
static int valid_input_params(const TF_WhileParams* p, TF_Status* s) {
  int i;
  if (p->cond_output.oper == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_WhileParams `cond_output` field isn't set");
    return 0;
  }
  for (i = 0; i < p->ninputs; i++) {
    if (p->body_outputs[i].oper == NULL) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TF_WhileParams `body_outputs[%d]` field isn't set", i);
      return 0;
    }
  }
  if (p->name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_WhileParams `name` field is null");
    return 0;
  }
  if (p->cond_output.oper->graph != p->cond_graph ||
      p->cond_output.index < 0 ||
      p->cond_output.index >= p->cond_output.oper->num_outputs) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_WhileParams `cond_output` is not an output of an "
                    "operation of `cond_graph`");
    return 0;
  }
  for (i = 0; i < p->ninputs; i++) {
    const TF_Output* o = &p->body_outputs[i];
    if (o->oper->graph != p->body_graph || o->index < 0 ||
        o->index >= o->oper->num_outputs) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TF_WhileParams `body_outputs[%d]` is not an output of "
                      "an operation of `body_graph`",
                      i);
      return 0;
    }
  }
  return 1;
}

/* ---- names ---- */

static char* join(const char* a, const char* sep, const char* b) {
  size_t la = strlen(a), ls = strlen(sep), lb = strlen(b);
  char* r = (char*)tfe_malloc(la + ls + lb + 1);
  if (r == NULL) return NULL;
  memcpy(r, a, la);
  memcpy(r + la, sep, ls);
  memcpy(r + la + ls, b, lb + 1);
  return r;
}

/* 1 when TF's name scopes consider `p` used in g: an operation is named p
 * or lives under "p/". Hold g->mu. */
static int scope_taken(TF_Graph* g, const char* p) {
  size_t n = strlen(p);
  int i;
  if (tfe_graph_find(g, p) != NULL) return 1;
  for (i = 0; i < g->num_ops; i++) {
    const char* name = g->ops[i]->name;
    if (strncmp(name, p, n) == 0 && name[n] == '/') return 1;
  }
  return 0;
}

/* The loop's name scope: `name`, or name_1, name_2, ... when taken (TF's
 * Scope::NewSubScope over a graph's existing names). NULL on OOM. */
static char* unique_scope(TF_Graph* g, const char* name) {
  char* r;
  int k;
  if (!scope_taken(g, name)) return tfe_strdup(name);
  for (k = 1;; k++) {
    char suffix[24];
    snprintf(suffix, sizeof suffix, "%d", k);
    r = join(name, "_", suffix);
    if (r == NULL || !scope_taken(g, r)) return r;
    tfe_free(r);
  }
}

/* "<scope>/<base>" for loop variable i: Base, Base_1, Base_2, ... */
static char* op_name(const char* scope, const char* base, int i) {
  char leaf[64];
  if (i == 0) {
    snprintf(leaf, sizeof leaf, "%s", base);
  } else {
    snprintf(leaf, sizeof leaf, "%s_%d", base, i);
  }
  return join(scope, "/", leaf);
}

/* ---- building ---- */

typedef struct builder {
  TF_Graph* g;
  const TF_WhileParams* p;
  const char* scope;
  TF_Status* s;
} builder;

/* Adds an operation of `type` named <scope>/<base>[_i] with the given data
 * inputs (as one list when `as_list`). Hold g->mu. */
static TF_Operation* add_op(builder* b, const char* type, const char* base,
                            int i, const TF_Output* ins, int nin, int as_list,
                            const char* frame) {
  char* name = op_name(b->scope, base, i);
  TF_OperationDescription* d;
  int k;
  if (name == NULL) {
    tfe_status_setf(b->s, TF_RESOURCE_EXHAUSTED,
                    "out of memory in TF_FinishWhile");
    return NULL;
  }
  d = TF_NewOperationLocked(b->g, type, name);
  tfe_free(name);
  if (d == NULL) {
    if (TF_GetCode(b->s) == TF_OK) {
      tfe_status_setf(b->s, TF_RESOURCE_EXHAUSTED,
                      "out of memory in TF_FinishWhile");
    }
    return NULL;
  }
  if (as_list) {
    TF_AddInputList(d, ins, nin);
  } else {
    for (k = 0; k < nin; k++) TF_AddInput(d, ins[k]);
  }
  if (frame != NULL) TF_SetAttrString(d, "frame_name", frame, strlen(frame));
  return TF_FinishOperationLocked(d, b->s);
}

/* Copies the serialized graph `gdef` into the parent under <scope>/<sub>,
 * mapping src_inputs[i] to dst_inputs[i], with a control dependency on
 * `dep` for nodes that get no input from the copy, and returns the copies
 * of wanted[0..nwanted) in got. Hold g->mu. */
static int copy_graph(builder* b, const TF_Buffer* gdef, const char* sub,
                      const TF_Output* src_inputs, const TF_Output* dst_inputs,
                      TF_Operation* dep, const TF_Output* wanted, int nwanted,
                      TF_Output* got) {
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefResults* res =
      (TF_ImportGraphDefResults*)tfe_calloc(1, sizeof(*res));
  char* prefix = join(b->scope, "/", sub);
  int i, ok = 0;
  if (o == NULL || prefix == NULL || res == NULL) {
    tfe_status_setf(b->s, TF_RESOURCE_EXHAUSTED,
                    "out of memory in TF_FinishWhile");
    goto done;
  }
  TF_ImportGraphDefOptionsSetPrefix(o, prefix);
  for (i = 0; i < b->p->ninputs; i++) {
    TF_ImportGraphDefOptionsAddInputMapping(o, src_inputs[i].oper->name,
                                            src_inputs[i].index,
                                            dst_inputs[i]);
  }
  TF_ImportGraphDefOptionsAddControlDependency(o, dep);
  for (i = 0; i < nwanted; i++) {
    TF_ImportGraphDefOptionsAddReturnOutput(o, wanted[i].oper->name,
                                            wanted[i].index);
  }
  o->skip_mapped_nodes = 1;
  if (!tfe_graph_import_locked(b->g, gdef->data, gdef->length, o, res,
                               b->s)) {
    goto done;
  }
  if (res->num_return_outputs != nwanted) {
    tfe_status_setf(b->s, TF_INTERNAL,
                    "TF_FinishWhile: the copy of %s returned %d outputs, "
                    "expected %d",
                    sub, res->num_return_outputs, nwanted);
    goto done;
  }
  for (i = 0; i < nwanted; i++) got[i] = res->return_outputs[i];
  ok = 1;
done:
  TF_DeleteImportGraphDefResults(res);
  tfe_free(prefix);
  TF_DeleteImportGraphDefOptions(o);
  return ok;
}

static void finish_while(const TF_WhileParams* p, TF_Status* s,
                         TF_Output* outputs) {
  TF_Graph* g = p->cond_graph->while_parent;
  const TF_Output* parent_inputs = p->cond_graph->while_parent_inputs;
  const int n = p->ninputs;
  TF_Buffer* cond_def = NULL;
  TF_Buffer* body_def = NULL;
  TF_Operation** merges = NULL;
  TF_Operation** switches = NULL;
  TF_Output* tmp = NULL; /* n entries, reused */
  TF_Output* body_out = NULL;
  TF_Output cond_out, pred;
  builder b;
  int first, i, ok = 0;

  if (!valid_input_params(p, s)) return;
  if (outputs == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TF_FinishWhile: outputs is NULL");
    return;
  }
  cond_def = TF_NewBuffer();
  body_def = TF_NewBuffer();
  merges = (TF_Operation**)tfe_calloc((size_t)n, sizeof(TF_Operation*));
  switches = (TF_Operation**)tfe_calloc((size_t)n, sizeof(TF_Operation*));
  tmp = (TF_Output*)tfe_calloc((size_t)n * 2, sizeof(TF_Output));
  body_out = (TF_Output*)tfe_calloc((size_t)n, sizeof(TF_Output));
  if (cond_def == NULL || body_def == NULL || merges == NULL ||
      switches == NULL || tmp == NULL || body_out == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory in TF_FinishWhile");
    goto free_all;
  }
  /* The scratch graphs as GraphDefs (their own locks, before the parent's). */
  TF_GraphToGraphDef(p->cond_graph, cond_def, s);
  if (TF_GetCode(s) != TF_OK) goto free_all;
  TF_GraphToGraphDef(p->body_graph, body_def, s);
  if (TF_GetCode(s) != TF_OK) goto free_all;

  pthread_mutex_lock(&g->mu);
  first = g->num_ops;
  b.g = g;
  b.p = p;
  b.s = s;
  b.scope = unique_scope(g, p->name);
  if (b.scope == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory in TF_FinishWhile");
    goto unlock;
  }
  for (i = 0; i < n; i++) {
    const TF_Output* in = &parent_inputs[i];
    if (in->oper == NULL || in->oper->graph != g || in->index < 0 ||
        in->index >= in->oper->num_outputs) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TF_FinishWhile: loop input %d is no longer an output "
                      "of the graph",
                      i);
      goto undo;
    }
  }
  /* Enter, then Merge with a placeholder second input (the back edge is
   * set once NextIteration exists). */
  for (i = 0; i < n; i++) {
    TF_Operation* e =
        add_op(&b, "Enter", "Enter", i, &parent_inputs[i], 1, 0, p->name);
    if (e == NULL) goto undo;
    tmp[2 * i].oper = e;
    tmp[2 * i].index = 0;
  }
  for (i = 0; i < n; i++) {
    TF_Output two[2];
    two[0] = tmp[2 * i];
    two[1] = tmp[2 * i];
    merges[i] = add_op(&b, "Merge", "Merge", i, two, 2, 1, NULL);
    if (merges[i] == NULL) goto undo;
  }
  /* The condition. */
  for (i = 0; i < n; i++) {
    tmp[i].oper = merges[i];
    tmp[i].index = 0;
  }
  if (!copy_graph(&b, cond_def, "cond", p->cond_inputs, tmp, merges[0],
                  &p->cond_output, 1, &cond_out)) {
    goto undo;
  }
  if (cond_out.oper->output_types[cond_out.index] != TF_BOOL) {
    TF_DataType t = cond_out.oper->output_types[cond_out.index];
    const char* tn = tfe_dtype_short_name(t);
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "BuildWhileLoop: 'cond' argument must return a boolean "
                    "output, got %s",
                    tn != NULL ? tn : "unknown");
    goto undo;
  }
  pred.oper = add_op(&b, "LoopCond", "LoopCond", 0, &cond_out, 1, 0, NULL);
  if (pred.oper == NULL) goto undo;
  pred.index = 0;
  for (i = 0; i < n; i++) {
    TF_Output in[2];
    in[0].oper = merges[i];
    in[0].index = 0;
    in[1] = pred;
    switches[i] = add_op(&b, "Switch", "Switch", i, in, 2, 0, NULL);
    if (switches[i] == NULL) goto undo;
  }
  /* The body, fed by the true branches. */
  for (i = 0; i < n; i++) {
    tmp[i].oper = switches[i];
    tmp[i].index = 1;
  }
  if (!copy_graph(&b, body_def, "body", p->body_inputs, tmp, switches[0],
                  p->body_outputs, n, body_out)) {
    goto undo;
  }
  for (i = 0; i < n; i++) {
    TF_DataType want = merges[i]->output_types[0];
    TF_DataType have = body_out[i].oper->output_types[body_out[i].index];
    if (want != have) {
      const char* a = tfe_dtype_short_name(have);
      const char* w = tfe_dtype_short_name(want);
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TF_FinishWhile: body output %d is %s but loop "
                      "variable %d is %s",
                      i, a != NULL ? a : "unknown", i,
                      w != NULL ? w : "unknown");
      goto undo;
    }
  }
  /* NextIteration and the back edges. */
  for (i = 0; i < n; i++) {
    TF_Output next;
    tfe_shape* sh;
    next.oper = add_op(&b, "NextIteration", "NextIteration", i, &body_out[i],
                       1, 0, NULL);
    if (next.oper == NULL) goto undo;
    next.index = 0;
    if (!tfe_graph_set_input(g, merges[i], 1, next)) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "out of memory in TF_FinishWhile");
      goto undo;
    }
    /* With the back edge the Merge's shape is not known statically (TF's
     * shape refiner gives it unknown rank too). */
    sh = &merges[i]->output_shapes[0];
    tfe_free(sh->dims);
    sh->dims = NULL;
    sh->num_dims = -1;
  }
  /* The loop's results. */
  for (i = 0; i < n; i++) {
    TF_Output in;
    TF_Operation* x;
    in.oper = switches[i];
    in.index = 0;
    x = add_op(&b, "Exit", "Exit", i, &in, 1, 0, NULL);
    if (x == NULL) goto undo;
    tmp[i].oper = x;
    tmp[i].index = 0;
  }
  for (i = 0; i < n; i++) outputs[i] = tmp[i];
  atomic_fetch_add(&g->generation, 1);
  ok = 1;
undo:
  if (!ok) tfe_graph_remove_ops_from(g, first);
unlock:
  pthread_mutex_unlock(&g->mu);
  tfe_free((void*)b.scope);
free_all:
  TF_DeleteBuffer(cond_def);
  TF_DeleteBuffer(body_def);
  tfe_free(merges);
  tfe_free(switches);
  tfe_free(tmp);
  tfe_free(body_out);
}

void TF_FinishWhile(const TF_WhileParams* params, TF_Status* status,
                    TF_Output* outputs) {
  if (status == NULL) return;
  /* Params the caller made or changed are not freed (TF does the same). */
  if (params == NULL || !valid_const_params(params)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_WhileParams must be created by successful "
                    "TF_NewWhile() call");
    return;
  }
  TF_SetStatus(status, TF_OK, "");
  finish_while(params, status, outputs);
  free_while_resources(params);
}

void TF_AbortWhile(const TF_WhileParams* params) {
  if (params == NULL) return;
  free_while_resources(params);
}
