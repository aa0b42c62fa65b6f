/* Gradient functions of function calls and functional control flow:
 * calls of library functions (an op whose type is the function's name, as
 * tfe_py's ConcreteFunction runs them), PartitionedCall,
 * StatefulPartitionedCall, If/StatelessIf, Case/StatelessCase and
 * While/StatelessWhile (see the While section); also the TensorList and
 * Optional ops (TF's list_ops / optional gradients), which While's
 * gradient uses, and TensorArray*V3 reads and writes.
 *
 * A call's gradient is itself a function. From the forward function's
 * body graph (instantiated from the library), with one Placeholder per
 * differentiable return value standing for its upstream gradient, the
 * graph gradient machinery (tfe_add_gradients_lenient, the same registry)
 * adds the gradient subgraph; the nodes it needs (forward nodes included:
 * the backward function recomputes the forward values it uses) become a
 * new library function "<forward>_tfe_grad_<hash>" taking the forward
 * arguments and the upstream gradients and returning the gradients of
 * the arguments that have one. It is added to the caller's context or
 * graph and called. If/StatelessIf get an If of the branches' backward
 * functions (built with the same outputs, zeros where a branch gives an
 * argument no gradient).
 *
 * A call made through its forward variant (TFE_ContextAddForwardFunction,
 * which tfe_py's function calls use while a tape is active; see the
 * "forward values" section) needs no recomputation: its gradient reads
 * the values the forward pass saved. Otherwise (graph calls, calls by
 * the function's own name, higher orders through the saved values):
 * a random draw the function returns is taken from the call's output
 * (stage_freeze); otherwise recomputing is exact only when the recomputed
 * part of the body has no side effects and reads what it read the first
 * time: the backward
 * function refuses (TF_UNIMPLEMENTED naming the op) to recompute a
 * stateful op other than a variable read (an assignment, a random op, a
 * While, ...); a body whose stateful ops the gradient does not need
 * (an assignment nothing differentiable depends on) is fine, and those
 * ops do not run again. Variable reads see the variable's value when the
 * gradient is computed (TF's forward pass keeps the value it read): a
 * variable assigned between the call and the gradient gives other values
 * than TF. The backward functions are cached per forward definition. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "eager/grad_local.h"
#include "eager/tape.h"
#include "graph/function_internal.h"
#include "graph/graph_internal.h"
#include "graph/import_internal.h"
#include "tensorflow/c/c_api.h"
#include "tfe/gradients.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_unified_experimental.h"

#define MAX_BRANCHES 16

static int trainable(TF_DataType dt) {
  return dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF || dt == TF_BFLOAT16 ||
         dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
}

/* ---- building a backward function ---- */

/* The forward body with its gradient subgraph (before it becomes a
 * function). */
typedef struct stage {
  tfe_fn_inst* inst;
  TF_Graph* body; /* borrowed from inst */
  int nargs, nrets;
  const TF_DataType* arg_types;
  const TF_DataType* ret_types;
  TF_Output* args;  /* nargs: the argument placeholders */
  TF_Output* dys;   /* nrets: the upstream gradient placeholders (oper NULL
                       for a return value that is not differentiable) */
  TF_Output* grads; /* nargs: gradient of each argument or {NULL, -1} */
  int nfwd;         /* the body's own ops: ids [0, nfwd) (the rest are the
                       gradient's) */
  int nsaved;       /* returned values of stateful ops taken from the call */
  int* saved_ret;   /* nsaved: the return value's index */
  TF_Output* saved; /* nsaved: the placeholders standing for them */
  /* Forward nodes a functional op's gradient replaced (cond_forward):
   * dead ones are left out of the forward variant, added ones are
   * forward nodes although created after nfwd. */
  TF_Operation** dead;
  int ndead, capdead;
  TF_Operation** added;
  int nadded, capadded;
} stage;

static void stage_free(stage* st) {
  tfe_free(st->dead);
  tfe_free(st->added);
  tfe_free(st->args);
  tfe_free(st->dys);
  tfe_free(st->grads);
  tfe_free(st->saved_ret);
  tfe_free(st->saved);
  tfe_fn_inst_free(st->inst);
  memset(st, 0, sizeof *st);
}

static int op_in(TF_Operation* const* v, int n, const TF_Operation* op) {
  int i;
  for (i = 0; i < n; i++) {
    if (v[i] == op) return 1;
  }
  return 0;
}

/* 1 when op belongs to the forward part of st's body. */
static int stage_is_fwd(const stage* st, const TF_Operation* op) {
  if (op->id < st->nfwd) return !op_in(st->dead, st->ndead, op);
  return op_in(st->added, st->nadded, op);
}

static int op_push(TF_Operation*** v, int* n, int* cap, TF_Operation* op) {
  if (*n == *cap) {
    int c2 = *cap ? 2 * *cap : 8;
    TF_Operation** p = (TF_Operation**)tfe_realloc(*v, (size_t)c2 * sizeof *p);
    if (p == NULL) return 0;
    *v = p;
    *cap = c2;
  }
  (*v)[(*n)++] = op;
  return 1;
}

/* While a split (forward variant) is being built, the stage whose body is
 * differentiated, and the library functions its gradient installed (the
 * variant and its backward function call them: they go wherever the
 * variant goes). Per thread; nested splits stack. */
typedef struct fwd_scope {
  struct fwd_scope* up;
  stage* st;
  const TF_Function** deps; /* borrowed: the caches own them */
  int ndeps, capdeps;
} fwd_scope;

static _Thread_local fwd_scope* t_scope;
/* How many stage bodies this thread is differentiating. */
static _Thread_local int t_stage_depth;

/* Whether a gradient may rewrite forward nodes of graph: 2 in the body a
 * split is built from, 1 in a graph of the caller (TF_AddGradients, not
 * inside any stage), 0 in the body of a recomputing backward function
 * (backward_of: left as it was). */
static int graph_rewritable(const TF_Graph* graph) {
  if (t_scope != NULL && graph == t_scope->st->body) return 2;
  return t_stage_depth == 0 ? 1 : 0;
}

static int scope_record(const TF_Function* fn) {
  fwd_scope* sc = t_scope;
  int i;
  if (sc == NULL) return 1;
  for (i = 0; i < sc->ndeps; i++) {
    if (sc->deps[i] == fn) return 1;
  }
  if (sc->ndeps == sc->capdeps) {
    int c2 = sc->capdeps ? 2 * sc->capdeps : 8;
    const TF_Function** p = (const TF_Function**)tfe_realloc((void*)sc->deps,
                                                             (size_t)c2 * sizeof *p);
    if (p == NULL) return 0;
    sc->deps = p;
    sc->capdeps = c2;
  }
  sc->deps[sc->ndeps++] = fn;
  return 1;
}

/* Adds fn to the context's or graph's library unless a function of that
 * name is there, and records it in the current scope. */
static void dep_install(TFE_Context* ctx, TF_Graph* graph, const TF_Function* fn,
                        TF_Status* s) {
  const char* name = TF_FunctionName((TF_Function*)fn);
  if (!GL_OK(s)) return;
  if (ctx != NULL) {
    if (tfe_flib_find(tfe_ctx_flib(ctx), name) == NULL) {
      TFE_ContextAddFunction(ctx, (TF_Function*)fn, s);
    }
  } else if (tfe_flib_find(tfe_graph_flib(graph), name) == NULL) {
    TF_GraphCopyFunction(graph, fn, NULL, s);
  }
  if (GL_OK(s) && !scope_record(fn)) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
  }
}

static TF_Operation* add_placeholder(TF_Graph* g, const char* name, TF_DataType dt,
                                     TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  if (d == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return NULL;
  }
  TF_SetAttrType(d, "dtype", dt);
  return TF_FinishOperation(d, s);
}

/* 1 when op is stateful and its outputs have no gradient (a random op):
 * its value may be taken from the forward call instead of recomputed. */
static int frozen_kind(tfe_flib* lib, TF_Operation* op) {
  const char* type = TF_OperationOpType(op);
  const tfe_op_def* def = tfe_op_lookup(type);
  int i;
  if (def == NULL || !def->is_stateful || tfe_flib_find(lib, type) != NULL) return 0;
  if (TFE_GradientRegistryLookup(type) == 2) return 1;
  for (i = 0; i < op->num_inputs; i++) {
    TF_DataType dt = TF_OperationOutputType(op->inputs[i]);
    if (trainable(dt) || dt == TF_RESOURCE) return 0;
  }
  return 1;
}

/* A returned value computed by a random op (directly or through an
 * Identity) is the call's own output: its consumers in the body read a
 * placeholder __tfe_saved_<i> instead, fed with that output, so the
 * backward function never draws again. */
static int stage_freeze(stage* st, tfe_flib* lib, TF_Status* s) {
  int i, j;
  st->saved_ret = (int*)tfe_calloc((size_t)st->nrets + 1, sizeof(int));
  st->saved = (TF_Output*)tfe_calloc((size_t)st->nrets + 1, sizeof(TF_Output));
  if (st->saved_ret == NULL || st->saved == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return 0;
  }
  for (i = 0; i < st->nrets; i++) {
    TF_Output o = tfe_fn_inst_ret_outputs(st->inst)[i];
    TF_Operation* ph;
    TF_Input* cons;
    char name[64];
    int nc;
    if (strcmp(TF_OperationOpType(o.oper), "Identity") == 0 && o.oper->num_inputs == 1) {
      o = o.oper->inputs[0];
    }
    if (o.oper->id >= st->nfwd || !frozen_kind(lib, o.oper)) continue;
    nc = TF_OperationOutputNumConsumers(o); /* 0 when an earlier return took it */
    if (nc <= 0) continue;
    snprintf(name, sizeof name, "__tfe_saved_%d", i);
    ph = add_placeholder(st->body, name, TF_OperationOutputType(o), s);
    if (ph == NULL || !GL_OK(s)) return 0;
    cons = (TF_Input*)tfe_calloc((size_t)nc, sizeof *cons);
    if (cons == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      return 0;
    }
    nc = TF_OperationOutputConsumers(o, cons, nc);
    for (j = 0; j < nc && GL_OK(s); j++) TF_UpdateEdge(st->body, (TF_Output){ph, 0}, cons[j], s);
    tfe_free(cons);
    if (!GL_OK(s)) return 0;
    st->saved_ret[st->nsaved] = i;
    st->saved[st->nsaved++] = (TF_Output){ph, 0};
  }
  return 1;
}

static int stage_build(stage* st, tfe_flib* lib, const char* fname, int freeze, TF_Status* s) {
  const TF_Function* fn = tfe_flib_find(lib, fname);
  TF_Output *y = NULL, *dx = NULL, *x = NULL, *dxs = NULL;
  int *xi = NULL, i, ny = 0, nx = 0, k = 0, ok = 0;
  size_t pos = 0;
  TF_Operation* op;
  memset(st, 0, sizeof *st);
  if (fn == NULL) {
    tfe_status_setf(s, TF_NOT_FOUND,
                    "gradient of a function call: function '%s' is not in the library",
                    fname);
    return 0;
  }
  st->inst = tfe_fn_body_new(fn, lib, NULL, 0, NULL, NULL, NULL, s);
  if (st->inst == NULL || !GL_OK(s)) return 0;
  st->body = tfe_fn_inst_body(st->inst);
  st->nfwd = st->body->num_ops;
  st->nargs = tfe_fn_inst_num_args(st->inst);
  st->nrets = tfe_fn_inst_num_rets(st->inst);
  st->arg_types = tfe_fn_inst_arg_types(st->inst);
  st->ret_types = tfe_fn_inst_ret_types(st->inst);
  st->args = (TF_Output*)tfe_calloc((size_t)st->nargs + 1, sizeof(TF_Output));
  st->grads = (TF_Output*)tfe_calloc((size_t)st->nargs + 1, sizeof(TF_Output));
  st->dys = (TF_Output*)tfe_calloc((size_t)st->nrets + 1, sizeof(TF_Output));
  y = (TF_Output*)tfe_calloc((size_t)st->nrets + 1, sizeof(TF_Output));
  dx = (TF_Output*)tfe_calloc((size_t)st->nrets + 1, sizeof(TF_Output));
  x = (TF_Output*)tfe_calloc((size_t)st->nargs + 1, sizeof(TF_Output));
  dxs = (TF_Output*)tfe_calloc((size_t)st->nargs + 1, sizeof(TF_Output));
  xi = (int*)tfe_calloc((size_t)st->nargs + 1, sizeof(int));
  if (st->args == NULL || st->grads == NULL || st->dys == NULL || y == NULL || dx == NULL ||
      x == NULL || dxs == NULL || xi == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    goto done;
  }
  /* The body's arguments are its first nargs operations (Placeholders). */
  while (k < st->nargs && (op = TF_GraphNextOperation(st->body, &pos)) != NULL) {
    if (strcmp(TF_OperationOpType(op), "Placeholder") != 0) break;
    st->args[k++] = (TF_Output){op, 0};
  }
  if (k != st->nargs) {
    tfe_status_setf(s, TF_INTERNAL, "gradient of function '%s': unexpected body layout",
                    fname);
    goto done;
  }
  if (freeze && !stage_freeze(st, lib, s)) goto done;
  for (i = 0; i < st->nargs; i++) st->grads[i] = (TF_Output){NULL, -1};
  for (i = 0; i < st->nrets; i++) {
    char name[64];
    st->dys[i] = (TF_Output){NULL, -1};
    if (!trainable(st->ret_types[i])) continue;
    snprintf(name, sizeof name, "__tfe_dy_%d", i);
    op = add_placeholder(st->body, name, st->ret_types[i], s);
    if (op == NULL || !GL_OK(s)) goto done;
    st->dys[i] = (TF_Output){op, 0};
    y[ny] = tfe_fn_inst_ret_outputs(st->inst)[i];
    dx[ny++] = st->dys[i];
  }
  for (i = 0; i < st->nargs; i++) {
    if (trainable(st->arg_types[i]) || st->arg_types[i] == TF_RESOURCE) {
      xi[nx] = i;
      x[nx++] = st->args[i];
    }
  }
  if (ny > 0 && nx > 0) {
    t_stage_depth++;
    tfe_add_gradients_lenient(st->body, NULL, y, ny, x, nx, dx, s, dxs);
    t_stage_depth--;
    if (!GL_OK(s)) goto done;
    for (i = 0; i < nx; i++) st->grads[xi[i]] = dxs[i];
  }
  ok = 1;
done:
  tfe_free(y);
  tfe_free(dx);
  tfe_free(x);
  tfe_free(dxs);
  tfe_free(xi);
  return ok;
}

/* The function names an op of the body calls (its func attrs). */
static int op_functions(TF_Operation* op, const char** names, int cap) {
  static const char* const kAttrs[] = {"f", "then_branch", "else_branch", "cond", "body",
                                       "branches"};
  size_t a;
  int n = 0, j;
  for (a = 0; a < sizeof kAttrs / sizeof kAttrs[0]; a++) {
    const tfe_attr_value* v = tfe_attrs_find(&op->attrs, kAttrs[a]);
    if (v == NULL || v->type != TF_ATTR_FUNC) continue;
    if (!v->is_list) {
      if (n < cap) names[n++] = v->v.s.data;
    } else {
      for (j = 0; j < v->list_size && n < cap; j++) names[n++] = v->list.s.data[j];
    }
  }
  return n;
}

static int body_safe(tfe_flib* lib, const char* fname, int depth, const char** bad,
                     TF_Status* s);

/* 1 when recomputing op has no side effect (it is stateless, a variable
 * read, or a call of functions that are); else 0 with *bad its type. */
static int op_safe(tfe_flib* lib, TF_Operation* op, int depth, const char** bad,
                   TF_Status* s) {
  const char* type = TF_OperationOpType(op);
  const tfe_op_def* def = tfe_op_lookup(type);
  const char* fns[16];
  int n, i, is_call = tfe_flib_find(lib, type) != NULL;
  if (strcmp(type, "ReadVariableOp") == 0 || strcmp(type, "VarHandleOp") == 0 ||
      strcmp(type, "Placeholder") == 0) {
    return 1;
  }
  if (is_call) return body_safe(lib, type, depth + 1, bad, s);
  if (def == NULL) {
    *bad = type;
    return 0;
  }
  n = op_functions(op, fns, 16);
  if (n > 0) {
    for (i = 0; i < n; i++) {
      if (!body_safe(lib, fns[i], depth + 1, bad, s)) return 0;
    }
    return 1;
  }
  if (def->is_stateful) {
    *bad = type;
    return 0;
  }
  return 1;
}

static int body_safe(tfe_flib* lib, const char* fname, int depth, const char** bad,
                     TF_Status* s) {
  const TF_Function* fn = tfe_flib_find(lib, fname);
  tfe_fn_inst* inst;
  TF_Operation* op;
  size_t pos = 0;
  int ok = 1;
  if (fn == NULL || depth > 32) {
    *bad = fname;
    return 0;
  }
  inst = tfe_fn_body_new(fn, lib, NULL, 0, NULL, NULL, NULL, s);
  if (inst == NULL || !GL_OK(s)) {
    tfe_fn_inst_free(inst);
    return 0;
  }
  while (ok && (op = TF_GraphNextOperation(tfe_fn_inst_body(inst), &pos)) != NULL) {
    ok = op_safe(lib, op, depth, bad, s);
  }
  tfe_fn_inst_free(inst);
  return ok;
}

/* 1 when recomputing every function of names[0..n) is exact (no
 * stateful op other than variable reads): then their gradients keep
 * recomputing, which higher orders differentiate exactly; the forward-
 * value rewrites (cond_forward_gradient, while_forward_gradient,
 * call_forward_gradient) are for the others. */
static int all_safe(tfe_flib* lib, const char* const* names, int n, TF_Status* s) {
  const char* bad = NULL;
  int i;
  for (i = 0; i < n; i++) {
    if (!body_safe(lib, names[i], 0, &bad, s)) return 0;
  }
  return 1;
}

/* Names of the functions the forward-value rewrites make: differentiating
 * them again (a higher order through the saved values) would lose the
 * gradients that flow through the saved Optionals / TensorLists. */
static int is_rewrite_backward(const char* fname) {
  return strstr(fname, "_tfe_cbwd_") != NULL || strstr(fname, "_tfe_while_grad_fwd_") != NULL;
}

static void refuse_higher_order(const char* what, const char* fname, TF_Status* s) {
  tfe_status_setf(s, TF_UNIMPLEMENTED,
                  "gradient of %s '%s': a higher order through the values saved for an "
                  "If/Case/While with stateful ops is not supported (docs/GRADIENTS.md)",
                  what, fname);
}

/* Output `out` of a new one-input node type(in) in the body. */
static TF_Output add_unary(TF_Graph* g, const char* type, const char* name, TF_Output in,
                           TF_DataType dtype_attr, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_Operation* op;
  if (d == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return (TF_Output){NULL, -1};
  }
  TF_AddInput(d, in);
  if (dtype_attr != 0) TF_SetAttrType(d, "dtype", dtype_attr);
  op = TF_FinishOperation(d, s);
  return (TF_Output){op, 0};
}

/* Turns a stage into the backward function `name`: inputs the forward
 * arguments then the upstream gradients, outputs the gradients of the
 * arguments with mask[i] (zeros of gtypes[i] where the stage has none).
 * NULL with the status set on failure. */
static TF_Function* stage_finish(stage* st, tfe_flib* lib, const char* fname, const char* name,
                                 const unsigned char* mask, const TF_DataType* gtypes,
                                 TF_Status* s) {
  int i, j, nin = 0, nout = 0, nops = 0, top = 0, total;
  TF_Output *in = NULL, *out = NULL;
  TF_Operation **ops = NULL, **stack = NULL;
  unsigned char* seen = NULL;
  TF_Function* fn = NULL;
  size_t pos = 0;
  TF_Operation* op;
  const char* bad = NULL;
  for (i = 0; i < st->nargs; i++) {
    char nm[64];
    if (!mask[i] || st->grads[i].oper != NULL) continue;
    snprintf(nm, sizeof nm, "__tfe_zeros_%d", i);
    if (st->arg_types[i] == TF_RESOURCE) {
      char rd[64];
      snprintf(rd, sizeof rd, "__tfe_read_%d", i);
      st->grads[i] = add_unary(st->body, "ReadVariableOp", rd, st->args[i], gtypes[i], s);
      if (!GL_OK(s)) return NULL;
      st->grads[i] = add_unary(st->body, "ZerosLike", nm, st->grads[i], 0, s);
    } else {
      st->grads[i] = add_unary(st->body, "ZerosLike", nm, st->args[i], 0, s);
    }
    if (!GL_OK(s)) return NULL;
  }
  total = 0;
  while ((op = TF_GraphNextOperation(st->body, &pos)) != NULL) total++;
  in = (TF_Output*)tfe_calloc((size_t)(st->nargs + st->nsaved + st->nrets) + 1, sizeof *in);
  out = (TF_Output*)tfe_calloc((size_t)st->nargs + 1, sizeof *out);
  ops = (TF_Operation**)tfe_calloc((size_t)total + 1, sizeof *ops);
  stack = (TF_Operation**)tfe_calloc((size_t)total + 1, sizeof *stack);
  if (in == NULL || out == NULL || ops == NULL || stack == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    goto done;
  }
  for (i = 0; i < st->nargs; i++) in[nin++] = st->args[i];
  for (i = 0; i < st->nsaved; i++) in[nin++] = st->saved[i];
  for (i = 0; i < st->nrets; i++) {
    if (st->dys[i].oper != NULL) in[nin++] = st->dys[i];
  }
  for (i = 0; i < st->nargs; i++) {
    if (!mask[i]) continue;
    if (TF_OperationOutputType(st->grads[i]) != gtypes[i]) {
      tfe_status_setf(s, TF_INTERNAL,
                      "gradient of function '%s': argument %d's gradient has dtype %d, "
                      "another branch's %d",
                      fname, i, (int)TF_OperationOutputType(st->grads[i]), (int)gtypes[i]);
      goto done;
    }
    out[nout++] = st->grads[i];
  }
  /* The nodes the outputs need (data and control inputs), inputs
   * excluded; each must be safe to run again. */
  seen = (unsigned char*)tfe_calloc((size_t)total + 1, 1);
  if (seen == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    goto done;
  }
  {
    /* index by position in the graph: a linear lookup table */
    TF_Operation** all = (TF_Operation**)tfe_calloc((size_t)total + 1, sizeof *all);
    int n_all = 0;
    if (all == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      goto done;
    }
    pos = 0;
    while ((op = TF_GraphNextOperation(st->body, &pos)) != NULL && n_all < total) {
      all[n_all++] = op;
    }
#define FIND_IDX(o, res)                        \
  do {                                          \
    int q_;                                     \
    (res) = -1;                                 \
    for (q_ = 0; q_ < n_all; q_++) {            \
      if (all[q_] == (o)) {                     \
        (res) = q_;                             \
        break;                                  \
      }                                         \
    }                                           \
  } while (0)
    for (i = 0; i < nin; i++) {
      int idx;
      FIND_IDX(in[i].oper, idx);
      if (idx >= 0) seen[idx] = 1;
    }
    for (i = 0; i < nout; i++) {
      int idx;
      FIND_IDX(out[i].oper, idx);
      if (idx >= 0 && !seen[idx]) {
        seen[idx] = 1;
        stack[top++] = all[idx];
      }
    }
    while (top > 0 && GL_OK(s)) {
      TF_Operation* cur = stack[--top];
      int ni = TF_OperationNumInputs(cur), nc = TF_OperationNumControlInputs(cur);
      TF_Operation* ctl[64];
      ops[nops++] = cur;
      if (!op_safe(lib, cur, 0, &bad, s)) {
        if (GL_OK(s)) {
          tfe_status_setf(s, TF_UNIMPLEMENTED,
                          "gradient of function '%s': the backward function recomputes "
                          "the forward values it needs, and node '%s' (%s) on that path "
                          "is stateful (%s): tfe does not recompute stateful ops "
                          "other than variable reads (docs/GRADIENTS.md)",
                          fname, TF_OperationName(cur), TF_OperationOpType(cur),
                          bad != NULL ? bad : "?");
        }
        break;
      }
      for (j = 0; j < ni; j++) {
        int idx;
        TF_Operation* src = TF_OperationInput((TF_Input){cur, j}).oper;
        FIND_IDX(src, idx);
        if (idx >= 0 && !seen[idx]) {
          seen[idx] = 1;
          stack[top++] = src;
        }
      }
      if (nc > 64) nc = 64;
      nc = TF_OperationGetControlInputs(cur, ctl, nc);
      for (j = 0; j < nc; j++) {
        int idx;
        FIND_IDX(ctl[j], idx);
        if (idx >= 0 && !seen[idx]) {
          seen[idx] = 1;
          stack[top++] = ctl[j];
        }
      }
    }
#undef FIND_IDX
    tfe_free(all);
  }
  if (!GL_OK(s)) goto done;
  fn = TF_GraphToFunction(st->body, name, 0, nops, (const TF_Operation* const*)ops, nin, in,
                          nout, out, NULL, NULL, NULL, s);
  if (!GL_OK(s)) {
    TF_DeleteFunction(fn);
    fn = NULL;
  }
done:
  tfe_free(in);
  tfe_free(out);
  tfe_free(ops);
  tfe_free(stack);
  tfe_free(seen);
  return fn;
}

/* ---- the cache of backward functions ---- */

typedef struct bwd {
  struct bwd* next;
  char* key;
  int nfns;
  TF_Function* fns[MAX_BRANCHES]; /* owned */
  char* names[MAX_BRANCHES];
  int nargs, nrets;
  unsigned char* mask;  /* nargs */
  TF_DataType* gtypes;  /* nargs */
  unsigned char* dy;    /* nrets: has an upstream-gradient input */
  TF_DataType* rtypes;  /* nrets */
  int nout;
  int nsaved;           /* forward outputs the backward function takes */
  int* saved_ret;       /* nsaved: their indices (after the arguments) */
} bwd;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;

/* Publishes `item`, built outside the lock, in the keyed cache list `head`
 * (of type T, linked by ->next, named by ->key) unless another thread
 * published `key` first: then `item` goes to free_fn and becomes the one
 * published earlier. */
#define GF_PUBLISH(T, head, item, key, free_fn)               \
  do {                                                        \
    T* o_;                                                    \
    pthread_mutex_lock(&g_mu);                                \
    for (o_ = (head); o_ != NULL; o_ = o_->next) {            \
      if (strcmp(o_->key, (key)) == 0) break;                 \
    }                                                         \
    if (o_ != NULL) {                                         \
      free_fn(item);                                          \
      (item) = o_;                                            \
    } else {                                                  \
      (item)->next = (head);                                  \
      (head) = (item);                                        \
    }                                                         \
    pthread_mutex_unlock(&g_mu);                              \
  } while (0)
static bwd* g_cache;

static uint64_t fnv(uint64_t h, const void* p, size_t n) {
  const unsigned char* b = (const unsigned char*)p;
  size_t i;
  for (i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* A hash of function fname's definition (0 when it is not in lib). */
static uint64_t fn_hash(tfe_flib* lib, const char* fname, TF_Status* s) {
  const TF_Function* fn = tfe_flib_find(lib, fname);
  TF_Buffer* buf;
  uint64_t h = 0xcbf29ce484222325ull;
  if (fn == NULL) return 0;
  buf = TF_NewBuffer();
  if (buf == NULL) return 0;
  TF_FunctionToFunctionDef((TF_Function*)fn, buf, s);
  if (GL_OK(s)) h = fnv(h, buf->data, buf->length);
  TF_DeleteBuffer(buf);
  return h;
}

static void bwd_free(bwd* b) {
  int i;
  if (b == NULL) return;
  for (i = 0; i < b->nfns; i++) {
    TF_DeleteFunction(b->fns[i]);
    tfe_free(b->names[i]);
  }
  tfe_free(b->key);
  tfe_free(b->mask);
  tfe_free(b->gtypes);
  tfe_free(b->dy);
  tfe_free(b->rtypes);
  tfe_free(b->saved_ret);
  tfe_free(b);
}

/* The backward functions of the branch functions fnames[0..n) (one for a
 * call; n for If's branches, which share their signature), built on first
 * use. Borrowed from the cache (lives as long as the process). */
static const bwd* backward_of(tfe_flib* lib, const char* const* fnames, int n, int freeze,
                              TF_Status* s) {
  char key[1024];
  size_t used = 0;
  uint64_t hs[MAX_BRANCHES];
  stage st[MAX_BRANCHES];
  bwd* b = NULL;
  int i, j, ok = 0;
  key[0] = '\0';
  for (i = 0; i < n; i++) {
    hs[i] = fn_hash(lib, fnames[i], s);
    if (!GL_OK(s)) return NULL;
    used += (size_t)snprintf(key + used, used < sizeof key ? sizeof key - used : 0,
                             "%s@%016llx;", fnames[i], (unsigned long long)hs[i]);
    if (used >= sizeof key) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "gradient: function names too long");
      return NULL;
    }
  }
  if (freeze) {
    if (used + 8 >= sizeof key) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "gradient: function names too long");
      return NULL;
    }
    memcpy(key + used, "#frozen", 8); /* another backward function: cached apart */
  }
  pthread_mutex_lock(&g_mu);
  for (b = g_cache; b != NULL; b = b->next) {
    if (strcmp(b->key, key) == 0) break;
  }
  pthread_mutex_unlock(&g_mu);
  if (b != NULL) return b;

  memset(st, 0, sizeof st);
  b = (bwd*)tfe_calloc(1, sizeof *b);
  if (b == NULL) goto oom;
  b->key = tfe_strdup(key);
  if (b->key == NULL) goto oom;
  for (i = 0; i < n; i++) {
    if (!stage_build(&st[i], lib, fnames[i], freeze && n == 1, s)) goto fail;
    if (i > 0 && (st[i].nargs != st[0].nargs || st[i].nrets != st[0].nrets)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "gradient: branches '%s' and '%s' have different signatures",
                      fnames[0], fnames[i]);
      goto fail;
    }
  }
  b->nargs = st[0].nargs;
  b->nrets = st[0].nrets;
  b->mask = (unsigned char*)tfe_calloc((size_t)b->nargs + 1, 1);
  b->gtypes = (TF_DataType*)tfe_calloc((size_t)b->nargs + 1, sizeof(TF_DataType));
  b->dy = (unsigned char*)tfe_calloc((size_t)b->nrets + 1, 1);
  b->rtypes = (TF_DataType*)tfe_calloc((size_t)b->nrets + 1, sizeof(TF_DataType));
  if (b->mask == NULL || b->gtypes == NULL || b->dy == NULL || b->rtypes == NULL) goto oom;
  for (i = 0; i < b->nrets; i++) {
    b->dy[i] = st[0].dys[i].oper != NULL;
    b->rtypes[i] = st[0].ret_types[i];
  }
  if (n == 1 && st[0].nsaved > 0) {
    b->saved_ret = (int*)tfe_calloc((size_t)st[0].nsaved, sizeof(int));
    if (b->saved_ret == NULL) goto oom;
    memcpy(b->saved_ret, st[0].saved_ret, (size_t)st[0].nsaved * sizeof(int));
    b->nsaved = st[0].nsaved;
  }
  for (j = 0; j < b->nargs; j++) {
    for (i = 0; i < n; i++) {
      if (st[i].grads[j].oper != NULL) {
        b->mask[j] = 1;
        b->gtypes[j] = TF_OperationOutputType(st[i].grads[j]);
        break;
      }
    }
    if (b->mask[j]) b->nout++;
  }
  for (i = 0; i < n; i++) {
    char name[512];
    snprintf(name, sizeof name, "%s_tfe_grad_%016llx%s", fnames[i],
             (unsigned long long)(hs[i] ^ fnv(0xcbf29ce484222325ull, key, strlen(key))),
             n > 1 ? "_b" : "");
    b->names[i] = tfe_strdup(name);
    if (b->names[i] == NULL) goto oom;
    b->fns[i] = stage_finish(&st[i], lib, fnames[i], name, b->mask, b->gtypes, s);
    b->nfns = i + 1;
    if (b->fns[i] == NULL) goto fail;
  }
  ok = 1;
  goto done;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
fail:
done:
  for (i = 0; i < n; i++) stage_free(&st[i]);
  if (!ok) {
    bwd_free(b);
    return NULL;
  }
  GF_PUBLISH(bwd, g_cache, b, key, bwd_free);
  return b;
}

/* ---- where the gradient runs ---- */

/* The library of the gradient's context: the eager context's, or the
 * graph's that the traced values belong to; *ctx / *graph say which. */
static tfe_flib* context_lib(TFE_GradientContext* g, TFE_Context** ctx, TF_Graph** graph,
                             TF_Status* s) {
  TF_AbstractTensor* any = g->num_outputs > 0 ? g->outputs[0]
                                              : (g->num_inputs > 0 ? g->inputs[0] : NULL);
  TF_Output o;
  *ctx = NULL;
  *graph = NULL;
  if (any == NULL) {
    tfe_status_setf(s, TF_INTERNAL, "gradient of %s: an op without inputs or outputs",
                    g->op_type);
    return NULL;
  }
  if (TFE_AbstractTensorIsEager(any)) {
    *ctx = TF_ExecutionContextGetTFEContext(g->ec, s);
    return GL_OK(s) ? tfe_ctx_flib(*ctx) : NULL;
  }
  if (!tfe_unified_output_of(any, &o) || o.oper == NULL) {
    tfe_status_setf(s, TF_INTERNAL, "gradient of %s: a value of no graph", g->op_type);
    return NULL;
  }
  *graph = o.oper->graph;
  return tfe_graph_flib(*graph);
}

/* Makes the backward functions callable where the gradient runs. */
static void install(const bwd* b, TFE_Context* ctx, TF_Graph* graph, TF_Status* s) {
  int i;
  for (i = 0; i < b->nfns && GL_OK(s); i++) dep_install(ctx, graph, b->fns[i], s);
}

/* The backward op's inputs after the forward inputs from `first`: the
 * upstream gradients of the differentiable outputs (zeros when none). */
static int upstream(TFE_GradientContext* g, const bwd* b, TF_AbstractTensor** dys, TF_Status* s) {
  int i, n = 0;
  for (i = 0; i < b->nrets && i < g->num_outputs; i++) {
    if (!b->dy[i]) continue;
    dys[n++] = gl_grad_or_zeros(g, i, s);
  }
  return n;
}

/* Hands the backward op's outputs to the forward inputs from `first`. */
static void give_all(TFE_GradientContext* g, const bwd* b, int first, TF_AbstractTensor** outs,
                     TF_Status* s) {
  int i, k = 0;
  for (i = 0; i < b->nargs; i++) {
    if (!b->mask[i]) continue;
    if (GL_OK(s) && first + i < g->num_inputs) {
      gu_give(g, first + i, outs[k], s);
    } else {
      TF_DeleteAbstractTensor(outs[k]);
    }
    outs[k++] = NULL;
  }
}

static int split_gradient(TFE_GradientContext* g, const char* fname, int first, TF_Status* s);
static int call_forward_gradient(TFE_GradientContext* g, const char* fname, TF_Status* s);

static void call_gradient(TFE_GradientContext* g, const char* fname, int first, TF_Status* s) {
  TFE_Context* ctx;
  TF_Graph* graph;
  tfe_flib* lib = context_lib(g, &ctx, &graph, s);
  const bwd* b;
  TF_AbstractTensor** buf;
  TF_AbstractOp* op;
  int i, ndy;
  if (lib == NULL || !GL_OK(s)) return;
  if (is_rewrite_backward(fname)) {
    refuse_higher_order("a call of", fname, s);
    return;
  }
  if (split_gradient(g, fname, first, s)) return;
  if (first == 0 && call_forward_gradient(g, fname, s)) return;
  b = backward_of(lib, &fname, 1, 1, s);
  if (b == NULL) return;
  if (b->nout == 0) return;
  if (b->nargs != g->num_inputs - first || b->nrets != g->num_outputs) {
    tfe_status_setf(s, TF_INTERNAL, "gradient of a call of '%s': %d inputs for %d arguments",
                    fname, g->num_inputs - first, b->nargs);
    return;
  }
  install(b, ctx, graph, s);
  if (!GL_OK(s)) return;
  buf = (TF_AbstractTensor**)tfe_calloc((size_t)(b->nrets + b->nout) + 1, sizeof *buf);
  if (buf == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return;
  }
  ndy = upstream(g, b, buf, s);
  op = gl_op(g, b->names[0], s);
  for (i = 0; i < b->nargs; i++) gl_in(op, g->inputs[first + i], s);
  for (i = 0; i < b->nsaved; i++) gl_in(op, g->outputs[b->saved_ret[i]], s);
  for (i = 0; i < ndy; i++) gl_in(op, buf[i], s);
  gl_free(buf, ndy);
  gl_fin_n(op, b->nout, buf, s);
  give_all(g, b, first, buf, s);
  gl_free(buf, b->nout);
  tfe_free(buf);
}

/* ---- forward values (the forward variant of a call) ----
 *
 * TFE_ContextAddForwardFunction: a variant "<f>_tfe_fwd_<hash>" of
 * library function f returns f's outputs followed by the forward values
 * its gradient needs (the body's tensors the gradient subgraph reads), and
 * its gradient is "<f>_tfe_bwd_<hash>"(arguments, those values, upstream
 * gradients): nothing of the forward pass runs again, so random ops and
 * variables assigned after the call give TF's gradients (TF's forward
 * function keeps its intermediates the same way). When a later gradient
 * asks for the gradient of the extra outputs too (higher orders through
 * them), the variant's gradient is built from its body as for any call. */

typedef struct split {
  struct split* next;
  char* key; /* "<f>@<hash>" */
  char* fwd_name;
  char* bwd_name;
  TF_Function* fwd;
  TF_Function* bwd;
  int nargs, nrets, nextra, nout;
  unsigned char* mask; /* nargs: the backward function gives its gradient */
  unsigned char* dy;   /* nrets: the backward function takes its upstream gradient */
  TF_DataType* atypes; /* nargs */
  TF_DataType* rtypes; /* nrets */
  TF_DataType* gtypes; /* nargs: the gradient's dtype where mask */
  TF_DataType* xtypes; /* nextra: the saved values' dtypes */
  const TF_Function** deps; /* functions fwd / bwd call (borrowed) */
  int ndeps;
} split;

static split* g_splits; /* under g_mu; lives as long as the process */

static void split_free(split* p) {
  if (p == NULL) return;
  TF_DeleteFunction(p->fwd);
  TF_DeleteFunction(p->bwd);
  tfe_free(p->key);
  tfe_free(p->fwd_name);
  tfe_free(p->bwd_name);
  tfe_free(p->mask);
  tfe_free(p->dy);
  tfe_free(p->atypes);
  tfe_free(p->rtypes);
  tfe_free(p->gtypes);
  tfe_free(p->xtypes);
  tfe_free((void*)p->deps);
  tfe_free(p);
}

/* Installs p's functions (dependencies first) where the gradient runs. */
static void split_install(const split* p, TFE_Context* ctx, TF_Graph* graph, int fwd,
                          TF_Status* s) {
  int i;
  for (i = 0; i < p->ndeps && GL_OK(s); i++) dep_install(ctx, graph, p->deps[i], s);
  dep_install(ctx, graph, p->bwd, s);
  if (fwd) dep_install(ctx, graph, p->fwd, s);
}

static int op_is_stateful(tfe_flib* lib, TF_Operation* op) {
  const char* type = TF_OperationOpType(op);
  const tfe_op_def* def = tfe_op_lookup(type);
  if (tfe_flib_find(lib, type) != NULL) return 1;
  return def != NULL && def->is_stateful;
}

static split* split_build(tfe_flib* lib, const char* fname, const char* key, uint64_t h,
                          TF_Status* s) {
  stage st;
  split* p = NULL;
  TF_Graph* body;
  char name[512];
  int total, i, j, top = 0, nb = 0, nf = 0, nctl = 0, nin = 0, nout = 0, cap_extra = 0;
  int nextra = 0, ok = 0;
  unsigned char* mark = NULL; /* per op id: 1 input, 2 backward op */
  TF_Operation **stack = NULL, **bops = NULL, **fops = NULL, **ctl = NULL;
  const char** ctl_names = NULL;
  TF_Output *extra = NULL, *in = NULL, *out = NULL, *fouts = NULL;
  const char* bad = NULL;
  fwd_scope scope;
  memset(&scope, 0, sizeof scope);
  scope.st = &st;
  scope.up = t_scope;
  t_scope = &scope;
  if (!stage_build(&st, lib, fname, 0, s)) goto fail;
  body = st.body;
  p = (split*)tfe_calloc(1, sizeof *p);
  if (p == NULL) goto oom;
  p->nargs = st.nargs;
  p->nrets = st.nrets;
  p->mask = (unsigned char*)tfe_calloc((size_t)st.nargs + 1, 1);
  p->dy = (unsigned char*)tfe_calloc((size_t)st.nrets + 1, 1);
  p->key = tfe_strdup(key);
  p->atypes = (TF_DataType*)tfe_calloc((size_t)st.nargs + 1, sizeof(TF_DataType));
  p->gtypes = (TF_DataType*)tfe_calloc((size_t)st.nargs + 1, sizeof(TF_DataType));
  p->rtypes = (TF_DataType*)tfe_calloc((size_t)st.nrets + 1, sizeof(TF_DataType));
  if (p->mask == NULL || p->dy == NULL || p->key == NULL || p->atypes == NULL ||
      p->gtypes == NULL || p->rtypes == NULL) {
    goto oom;
  }
  for (i = 0; i < st.nrets; i++) {
    p->dy[i] = st.dys[i].oper != NULL;
    p->rtypes[i] = st.ret_types[i];
  }
  for (i = 0; i < st.nargs; i++) {
    p->atypes[i] = st.arg_types[i];
    if (st.grads[i].oper != NULL) p->gtypes[i] = TF_OperationOutputType(st.grads[i]);
  }
  /* A gradient that is an argument, an upstream gradient or a forward
   * value is returned through an Identity of the backward function. */
  for (i = 0; i < st.nargs; i++) {
    TF_Output gr = st.grads[i];
    if (gr.oper == NULL) continue;
    p->mask[i] = 1;
    if (stage_is_fwd(&st, gr.oper) ||
        strncmp(TF_OperationName(gr.oper), "__tfe_dy_", 9) == 0) {
      snprintf(name, sizeof name, "__tfe_grad_out_%d", i);
      st.grads[i] = add_unary(body, "Identity", name, gr, 0, s);
      if (!GL_OK(s)) goto fail;
    }
  }
  total = body->num_ops;
  mark = (unsigned char*)tfe_calloc((size_t)total + 1, 1);
  stack = (TF_Operation**)tfe_calloc((size_t)total + 1, sizeof *stack);
  bops = (TF_Operation**)tfe_calloc((size_t)total + 1, sizeof *bops);
  fops = (TF_Operation**)tfe_calloc((size_t)total + 1, sizeof *fops);
  ctl = (TF_Operation**)tfe_calloc((size_t)total + 1, sizeof *ctl);
  ctl_names = (const char**)tfe_calloc((size_t)total + 1, sizeof *ctl_names);
  out = (TF_Output*)tfe_calloc((size_t)st.nargs + 1, sizeof *out);
  if (mark == NULL || stack == NULL || bops == NULL || fops == NULL || ctl == NULL ||
      ctl_names == NULL || out == NULL) {
    goto oom;
  }
  for (i = 0; i < st.nargs; i++) mark[st.args[i].oper->id] = 1;
  for (i = 0; i < st.nrets; i++) {
    if (st.dys[i].oper != NULL) mark[st.dys[i].oper->id] = 1;
  }
  for (i = 0; i < st.nargs; i++) {
    TF_Operation* o = st.grads[i].oper;
    if (o == NULL) continue;
    out[nout++] = st.grads[i];
    if (!mark[o->id]) {
      mark[o->id] = 2;
      stack[top++] = o;
    }
  }
  /* The backward ops, and the forward values they read. */
  while (top > 0) {
    TF_Operation* cur = stack[--top];
    bops[nb++] = cur;
    if (!op_safe(lib, cur, 0, &bad, s)) {
      if (GL_OK(s)) {
        tfe_status_setf(s, TF_UNIMPLEMENTED,
                        "gradient of function '%s': node '%s' (%s) of its gradient is "
                        "stateful (%s)",
                        fname, TF_OperationName(cur), TF_OperationOpType(cur),
                        bad != NULL ? bad : "?");
      }
      goto fail;
    }
    for (j = 0; j < cur->num_inputs; j++) {
      TF_Output src = cur->inputs[j];
      int k;
      if (mark[src.oper->id] == 1) continue;
      if (stage_is_fwd(&st, src.oper)) {
        for (k = 0; k < nextra; k++) {
          if (extra[k].oper == src.oper && extra[k].index == src.index) break;
        }
        if (k < nextra) continue;
        if (nextra == cap_extra) {
          int c2 = cap_extra ? 2 * cap_extra : 16;
          TF_Output* e2 = (TF_Output*)tfe_realloc(extra, (size_t)c2 * sizeof *e2);
          if (e2 == NULL) goto oom;
          extra = e2;
          cap_extra = c2;
        }
        extra[nextra++] = src;
      } else if (!mark[src.oper->id]) {
        mark[src.oper->id] = 2;
        stack[top++] = src.oper;
      }
    }
    for (j = 0; j < cur->num_control_inputs; j++) {
      TF_Operation* c = cur->control_inputs[j];
      if (!stage_is_fwd(&st, c) && !mark[c->id]) {
        mark[c->id] = 2;
        stack[top++] = c;
      }
    }
  }
  /* Random draws the gradient does not read are saved too: a higher order
   * through the saved values differentiates the variant's body, which
   * then takes them from the call (stage_freeze) instead of drawing. */
  for (i = 0; i < body->num_ops; i++) {
    TF_Operation* o = body->ops[i];
    int q, k;
    if (mark[o->id] == 1 || !stage_is_fwd(&st, o) || !frozen_kind(lib, o)) continue;
    for (q = 0; q < o->num_outputs; q++) {
      TF_Output src = {o, q};
      if (TF_OperationOutputNumConsumers(src) <= 0) continue;
      for (k = 0; k < nextra; k++) {
        if (extra[k].oper == o && extra[k].index == q) break;
      }
      if (k < nextra) continue;
      if (nextra == cap_extra) {
        int c2 = cap_extra ? 2 * cap_extra : 16;
        TF_Output* e2 = (TF_Output*)tfe_realloc(extra, (size_t)c2 * sizeof *e2);
        if (e2 == NULL) goto oom;
        extra = e2;
        cap_extra = c2;
      }
      extra[nextra++] = src;
    }
  }
  p->nextra = nextra;
  p->nout = nout;
  p->xtypes = (TF_DataType*)tfe_calloc((size_t)nextra + 1, sizeof(TF_DataType));
  if (p->xtypes == NULL) goto oom;
  for (i = 0; i < nextra; i++) p->xtypes[i] = TF_OperationOutputType(extra[i]);
  in = (TF_Output*)tfe_calloc((size_t)(st.nargs + nextra + st.nrets) + 1, sizeof *in);
  fouts = (TF_Output*)tfe_calloc((size_t)(st.nrets + nextra) + 1, sizeof *fouts);
  if (in == NULL || fouts == NULL) goto oom;
  for (i = 0; i < st.nargs; i++) in[nin++] = st.args[i];
  for (i = 0; i < nextra; i++) in[nin++] = extra[i];
  for (i = 0; i < st.nrets; i++) {
    if (st.dys[i].oper != NULL) in[nin++] = st.dys[i];
  }
  snprintf(name, sizeof name, "%s_tfe_bwd_%016llx", fname, (unsigned long long)h);
  p->bwd_name = tfe_strdup(name);
  snprintf(name, sizeof name, "%s_tfe_fwd_%016llx", fname, (unsigned long long)h);
  p->fwd_name = tfe_strdup(name);
  if (p->bwd_name == NULL || p->fwd_name == NULL) goto oom;
  p->bwd = TF_GraphToFunction(body, p->bwd_name, 0, nb, (const TF_Operation* const*)bops, nin,
                              in, nout, out, NULL, NULL, NULL, s);
  if (!GL_OK(s)) goto fail;
  /* The forward variant: the body's own ops; its stateful ops are control
   * outputs (they run even when no output needs them, as in f). */
  for (i = 0; i < body->num_ops; i++) {
    TF_Operation* o = body->ops[i];
    if (mark[o->id] == 1 || !stage_is_fwd(&st, o)) continue;
    fops[nf++] = o;
    if (op_is_stateful(lib, o)) {
      ctl[nctl] = o;
      ctl_names[nctl++] = TF_OperationName(o);
    }
  }
  for (i = 0; i < st.nrets; i++) fouts[i] = tfe_fn_inst_ret_outputs(st.inst)[i];
  for (i = 0; i < nextra; i++) fouts[st.nrets + i] = extra[i];
  p->fwd = TF_GraphToFunctionWithControlOutputs(
      body, p->fwd_name, 0, nf, (const TF_Operation* const*)fops, st.nargs, st.args,
      st.nrets + nextra, fouts, NULL, nctl, (const TF_Operation* const*)ctl, ctl_names, NULL,
      NULL, s);
  if (!GL_OK(s)) goto fail;
  p->deps = scope.deps;
  p->ndeps = scope.ndeps;
  scope.deps = NULL;
  ok = 1;
  goto done;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
fail:
done:
  t_scope = scope.up;
  tfe_free((void*)scope.deps);
  stage_free(&st);
  tfe_free(mark);
  tfe_free(stack);
  tfe_free(bops);
  tfe_free(fops);
  tfe_free(ctl);
  tfe_free((void*)ctl_names);
  tfe_free(extra);
  tfe_free(in);
  tfe_free(out);
  tfe_free(fouts);
  if (!ok) {
    split_free(p);
    return NULL;
  }
  return p;
}

/* The split of function fname of lib (built on first use; borrowed). */
static const split* split_of(tfe_flib* lib, const char* fname, TF_Status* s) {
  char key[600];
  uint64_t h;
  split* p;
  h = fn_hash(lib, fname, s);
  if (!GL_OK(s)) return NULL;
  if (h == 0) {
    tfe_status_setf(s, TF_NOT_FOUND, "function '%s' is not in the context's library",
                    fname);
    return NULL;
  }
  snprintf(key, sizeof key, "%s@%016llx", fname, (unsigned long long)h);
  pthread_mutex_lock(&g_mu);
  for (p = g_splits; p != NULL; p = p->next) {
    if (strcmp(p->key, key) == 0) break;
  }
  pthread_mutex_unlock(&g_mu);
  if (p != NULL) return p;
  p = split_build(lib, fname, key, h, s);
  if (p == NULL) return NULL;
  GF_PUBLISH(split, g_splits, p, key, split_free);
  return p;
}

static const split* split_by_forward_name(const char* fwd_name) {
  const split* p;
  pthread_mutex_lock(&g_mu);
  for (p = g_splits; p != NULL; p = p->next) {
    if (strcmp(p->fwd_name, fwd_name) == 0) break;
  }
  pthread_mutex_unlock(&g_mu);
  return p;
}

int TFE_ContextAddForwardFunction(TFE_Context* ctx, const char* fname, char* name, size_t cap,
                                  TF_Status* status) {
  const split* p;
  if (status == NULL) return -1;
  if (ctx == NULL || fname == NULL || name == NULL || cap == 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ContextAddForwardFunction: ctx, fname and name must not be NULL "
                    "and cap must be positive");
    return -1;
  }
  tfe_status_ok(status);
  p = split_of(tfe_ctx_flib(ctx), fname, status);
  if (p == NULL) return -1;
  if (strlen(p->fwd_name) >= cap) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ContextAddForwardFunction: the name '%s' needs %zu bytes, cap is %zu",
                    p->fwd_name, strlen(p->fwd_name) + 1, cap);
    return -1;
  }
  split_install(p, ctx, NULL, 1, status);
  if (!GL_OK(status)) return -1;
  memcpy(name, p->fwd_name, strlen(p->fwd_name) + 1);
  return p->nextra;
}

/* ---- eager calls under a tape ----
 *
 * TFE_Execute's hook (tape.h): under a tape that would record the op, a
 * call of a library function by its own name, or an If / StatelessIf /
 * Case / StatelessCase / While / StatelessWhile, whose functions have a
 * stateful op other than variable reads runs as a forward variant (as
 * tfe_py's calls do; PartitionedCall / StatefulPartitionedCall too): the
 * tape records the variant's call, whose gradient reads the values the
 * forward pass saved, and the caller gets the
 * original outputs. A functional op is first wrapped in a library function
 * "tfe_eager_<type>_<hash>" holding that one node, whose split rewrites
 * the node as g17f's in-body rewrites do. Anything unusual (a variant or
 * backward function itself, bodies safe to recompute, a split that cannot
 * be built, too few retvals) runs the op as usual, which recomputes. */

/* Runs op's inputs through library function fname's forward variant:
 * 1 when it ran (status set), 0 when the caller should run op. */
static int run_forward_variant(TFE_Op* op, tfe_flib* lib, const char* fname,
                               TFE_TensorHandle** retvals, int* num_retvals,
                               TF_Status* status) {
  TFE_Context* ctx = op->ctx;
  TFE_TensorHandle** outs;
  TFE_Op* nop;
  const split* p;
  TF_Status* s = TF_NewStatus();
  int i, n;
  if (s == NULL) return 0;
  p = split_of(lib, fname, s);
  if (p == NULL || !GL_OK(s) || p->nextra == 0 || *num_retvals < p->nrets ||
      op->num_inputs != p->nargs) {
    TF_DeleteStatus(s);
    return 0;
  }
  split_install(p, ctx, NULL, 1, s);
  nop = GL_OK(s) ? TFE_NewOp(ctx, p->fwd_name, s) : NULL;
  TF_DeleteStatus(s);
  if (nop == NULL) return 0;
  tfe_status_ok(status);
  if (op->device_name != NULL && op->device_name[0] != '\0') {
    TFE_OpSetDevice(nop, op->device_name, status);
  }
  for (i = 0; i < op->num_inputs && TF_GetCode(status) == TF_OK; i++) {
    TFE_OpAddInput(nop, op->inputs[i], status);
  }
  n = p->nrets + p->nextra;
  outs = (TFE_TensorHandle**)tfe_calloc((size_t)n + 1, sizeof *outs);
  if (outs == NULL && TF_GetCode(status) == TF_OK) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "TFE_Execute: out of memory");
  }
  if (TF_GetCode(status) == TF_OK) TFE_Execute(nop, outs, &n, status);
  TFE_DeleteOp(nop);
  if (TF_GetCode(status) != TF_OK) {
    tfe_free(outs);
    *num_retvals = 0;
    return 1;
  }
  for (i = 0; i < n; i++) {
    if (i < p->nrets) {
      retvals[i] = outs[i];
    } else {
      TFE_DeleteTensorHandle(outs[i]);
    }
  }
  tfe_free(outs);
  *num_retvals = p->nrets < n ? p->nrets : n;
  return 1;
}

/* Adds to op's context (once) a function "tfe_eager_<type>_<hash>" whose
 * body is one node like the functional op `op` on placeholders of its
 * inputs' types, returning all its outputs; its name in name[0..cap). 0
 * when it cannot be made. */
static int eager_wrapper(TFE_Op* op, tfe_flib* lib, char* name, size_t cap) {
  const char* type = op->def->name;
  uint64_t h = fnv(1469598103934665603ull, type, strlen(type));
  TF_DataType dts[64];
  TF_Output ins[64], outs[64];
  TF_Graph* g;
  TF_OperationDescription* d;
  TF_Operation* node;
  TF_Function* fn;
  TF_Status* s;
  tfe_attrs copy;
  int i, n_single, ok = 0, nout;
  if (op->num_inputs > 64) return 0;
  for (i = 0; i < op->num_inputs; i++) {
    dts[i] = TFE_TensorHandleDataType(op->inputs[i]);
  }
  h = fnv(h, dts, (size_t)op->num_inputs * sizeof dts[0]);
  h = fnv(h, &op->attrs_hash, sizeof op->attrs_hash);
  snprintf(name, cap, "tfe_eager_%s_%016llx", type, (unsigned long long)h);
  if (tfe_flib_find(lib, name) != NULL) return 1;
  /* If and Case take one single input before the list. */
  n_single = strstr(type, "If") != NULL || strstr(type, "Case") != NULL ? 1 : 0;
  if (op->num_inputs < n_single) return 0;
  s = TF_NewStatus();
  g = TF_NewGraph();
  if (s == NULL || g == NULL) goto done;
  for (i = 0; i < op->num_inputs; i++) {
    char pname[32];
    snprintf(pname, sizeof pname, "in%d", i);
    d = TF_NewOperation(g, "Placeholder", pname);
    TF_SetAttrType(d, "dtype", dts[i]);
    ins[i].oper = TF_FinishOperation(d, s);
    ins[i].index = 0;
    if (!GL_OK(s)) goto done;
  }
  d = TF_NewOperation(g, type, "node");
  if (n_single) TF_AddInput(d, ins[0]);
  TF_AddInputList(d, ins + n_single, op->num_inputs - n_single);
  tfe_attrs_init(&copy);
  if (!tfe_attrs_merge(&copy, &op->attrs)) {
    tfe_attrs_destroy(&copy);
    goto done;
  }
  for (i = 0; i < copy.count; i++) {
    if (copy.items[i].name[0] == '_') continue;
    tfe_desc_put_decoded(d, copy.items[i].name, &copy.items[i].value, 0);
  }
  tfe_attrs_destroy(&copy);
  node = TF_FinishOperation(d, s);
  if (!GL_OK(s)) goto done;
  nout = TF_OperationNumOutputs(node);
  if (nout > 64) goto done;
  for (i = 0; i < nout; i++) {
    outs[i].oper = node;
    outs[i].index = i;
  }
  fn = TF_GraphToFunction(g, name, 0, -1, NULL, op->num_inputs, ins, nout, outs, NULL, NULL,
                          NULL, s);
  if (!GL_OK(s)) goto done;
  TFE_ContextAddFunction(op->ctx, fn, s);
  TF_DeleteFunction(fn);
  ok = GL_OK(s);
done:
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return ok;
}

int tfe_grad_eager_forward(TFE_Op* op, TFE_TensorHandle** retvals, int* num_retvals,
                           TF_Status* status) {
  static const char* const kFunctional[] = {
      "If",    "StatelessIf",    "Case",           "StatelessCase",
      "While", "StatelessWhile", "PartitionedCall", "StatefulPartitionedCall"};
  const char* name = op->def->name;
  const char* fns[64];
  char wname[256];
  /* No library yet: no function to call (and none made here). */
  tfe_flib* lib = atomic_load_explicit(&op->ctx->flib, memory_order_acquire);
  TF_Status* s;
  size_t k;
  int nf = 0, functional = 0, safe;
  if (lib == NULL) return 0;
  for (k = 0; k < sizeof kFunctional / sizeof kFunctional[0]; k++) {
    if (strcmp(name, kFunctional[k]) == 0) functional = 1;
  }
  if (functional) {
    static const char* const kAttrs[] = {"then_branch", "else_branch", "cond", "body",
                                         "branches",    "f"};
    for (k = 0; k < sizeof kAttrs / sizeof kAttrs[0]; k++) {
      const tfe_attr_value* v = tfe_attrs_find(&op->attrs, kAttrs[k]);
      int j;
      if (v == NULL || v->type != TF_ATTR_FUNC) continue;
      if (!v->is_list) {
        if (nf < 64) fns[nf++] = v->v.s.data;
      } else {
        for (j = 0; j < v->list_size && nf < 64; j++) fns[nf++] = v->list.s.data[j];
      }
    }
    if (nf == 0) return 0;
    /* The functions tfe's gradients make (backward loops, variants) keep
     * running as they are: higher orders through them are refused or
     * recompute as before. */
    for (k = 0; k < (size_t)nf; k++) {
      if (strstr(fns[k], "_tfe_") != NULL) return 0;
    }
  } else {
    if (strstr(name, "_tfe_") != NULL || tfe_flib_find(lib, name) == NULL) return 0;
    fns[nf++] = name;
  }
  if (!tfe_tape_would_record(op)) return 0;
  s = TF_NewStatus();
  if (s == NULL) return 0;
  safe = all_safe(lib, fns, nf, s) || !GL_OK(s);
  TF_DeleteStatus(s);
  if (safe) return 0;
  if (functional) {
    if (!eager_wrapper(op, lib, wname, sizeof wname)) return 0;
    name = wname;
  }
  return run_forward_variant(op, lib, name, retvals, num_retvals, status);
}

/* The gradient of a call of a forward variant from its saved values: 1
 * when done (or failed, status set), 0 when the call is not of a variant
 * or the extra outputs have upstream gradients (then the caller builds the
 * gradient from the variant's body). */
static int split_gradient(TFE_GradientContext* g, const char* fname, int first, TF_Status* s) {
  const split* p = split_by_forward_name(fname);
  TFE_Context* ctx;
  TF_Graph* graph;
  TF_AbstractTensor** buf;
  TF_AbstractOp* op;
  int i, k, nbuf;
  if (p == NULL || first != 0 || g->num_inputs != p->nargs ||
      g->num_outputs != p->nrets + p->nextra) {
    return 0;
  }
  for (i = p->nrets; i < g->num_outputs; i++) {
    if (TFE_GradientContextOutputGradient(g, i) != NULL) return 0;
  }
  if (p->nout == 0) return 1;
  if (context_lib(g, &ctx, &graph, s) == NULL || !GL_OK(s)) return 1;
  split_install(p, ctx, graph, 0, s);
  if (!GL_OK(s)) return 1;
  nbuf = p->nrets + p->nout + 1;
  buf = (TF_AbstractTensor**)tfe_calloc((size_t)nbuf, sizeof *buf);
  if (buf == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return 1;
  }
  k = 0;
  for (i = 0; i < p->nrets && GL_OK(s); i++) {
    if (p->dy[i]) buf[k++] = gl_grad_or_zeros(g, i, s);
  }
  op = gl_op(g, p->bwd_name, s);
  for (i = 0; i < p->nargs; i++) gl_in(op, g->inputs[i], s);
  for (i = 0; i < p->nextra; i++) gl_in(op, g->outputs[p->nrets + i], s);
  for (i = 0; i < k; i++) gl_in(op, buf[i], s);
  gl_free(buf, k);
  gl_fin_n(op, p->nout, buf, s);
  k = 0;
  for (i = 0; i < p->nargs; i++) {
    if (!p->mask[i]) continue;
    gu_give(g, i, buf[k], s);
    buf[k++] = NULL;
  }
  gl_free(buf, p->nout);
  tfe_free(buf);
  return 1;
}

/* ---- the gradient functions ---- */

void tfe_grad_function_call(TFE_GradientContext* g, TF_Status* s) {
  call_gradient(g, g->op_type, 0, s);
}

/* A graph node carrying a custom gradient (tfe_py.custom_gradient traced
 * into a graph): IdentityN(results, sources, captures) with
 *   _tfe_custom_grad_fn    func: the grad_fn traced as a library function
 *                          taking (upstream gradients of the results,
 *                          captures) and returning the gradients it gives;
 *   _tfe_custom_grad_nres  int: how many inputs are results;
 *   _tfe_custom_grad_map   list(int): per source, the index of the
 *                          function output that is its gradient (-1: none).
 * The inputs after the sources are the captures. The results get no
 * gradient (the ops computing them are not differentiated, as in TF). */
void tfe_grad_custom_node(TFE_GradientContext* g, TF_Status* s) {
  const tfe_attr_value* fa = tfe_attrs_find(g->attrs, TFE_CUSTOM_GRAD_FN_ATTR);
  const tfe_attr_value* na = tfe_attrs_find(g->attrs, "_tfe_custom_grad_nres");
  const tfe_attr_value* ma = tfe_attrs_find(g->attrs, "_tfe_custom_grad_map");
  TF_AbstractTensor** outs;
  TF_AbstractOp* op;
  int i, nres, nsrc, ncap, nout = 0;
  if (fa == NULL || fa->type != TF_ATTR_FUNC || fa->is_list || na == NULL ||
      na->type != TF_ATTR_INT || na->is_list || ma == NULL || ma->type != TF_ATTR_INT ||
      !ma->is_list) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "custom gradient of a %s node: attrs _tfe_custom_grad_fn (func), "
                    "_tfe_custom_grad_nres (int) and _tfe_custom_grad_map (list(int)) "
                    "are required",
                    g->op_type);
    return;
  }
  nres = (int)na->v.i;
  nsrc = ma->list_size;
  ncap = g->num_inputs - nres - nsrc;
  if (nres < 0 || nres > g->num_outputs || ncap < 0) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "custom gradient of a %s node: %d results and %d sources for %d inputs",
                    g->op_type, nres, nsrc, g->num_inputs);
    return;
  }
  for (i = 0; i < nsrc; i++) {
    if (ma->list.i[i] >= nout) nout = (int)ma->list.i[i] + 1;
    if (ma->list.i[i] < -1 || ma->list.i[i] >= nsrc) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "custom gradient of a %s node: gradient index %lld out of range",
                      g->op_type, (long long)ma->list.i[i]);
      return;
    }
  }
  if (nout == 0) return;
  outs = (TF_AbstractTensor**)tfe_calloc((size_t)(nout > nres ? nout : nres) + 1, sizeof *outs);
  if (outs == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return;
  }
  for (i = 0; i < nres && GL_OK(s); i++) outs[i] = gl_grad_or_zeros(g, i, s);
  op = gl_op(g, fa->v.s.data, s);
  for (i = 0; i < nres; i++) gl_in(op, outs[i], s);
  for (i = 0; i < ncap; i++) gl_in(op, g->inputs[nres + nsrc + i], s);
  gl_free(outs, nres);
  gl_fin_n(op, nout, outs, s);
  for (i = 0; i < nsrc && GL_OK(s); i++) {
    int k = (int)ma->list.i[i];
    if (k < 0 || outs[k] == NULL) continue;
    gu_give(g, nres + i, outs[k], s);
    outs[k] = NULL;
  }
  gl_free(outs, nout);
  tfe_free(outs);
}

static int cond_forward_gradient(TFE_GradientContext* g, char* const* names, int nb,
                                 TF_Status* s);
static int while_forward_gradient(TFE_GradientContext* g, const char* cond, const char* body,
                                  TF_Status* s);

static void grad_partitioned_call(TFE_GradientContext* g, TF_Status* s) {
  const tfe_attr_value* f = tfe_attrs_find(g->attrs, "f");
  if (f == NULL || f->type != TF_ATTR_FUNC || f->is_list) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "gradient of %s: no function attr 'f'",
                    g->op_type);
    return;
  }
  call_gradient(g, f->v.s.data, 0, s);
}

static const char* func_attr(TFE_GradientContext* g, const char* name, TF_Status* s) {
  const tfe_attr_value* f = tfe_attrs_find(g->attrs, name);
  if (f == NULL || f->type != TF_ATTR_FUNC || f->is_list) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "gradient of %s: no function attr '%s'",
                    g->op_type, name);
    return NULL;
  }
  return f->v.s.data;
}

/* If(cond, args): If(cond, args + upstream) of the branches' backward
 * functions. */
static void grad_if(TFE_GradientContext* g, TF_Status* s) {
  const char* names[2];
  TFE_Context* ctx;
  TF_Graph* graph;
  tfe_flib* lib;
  const bwd* b;
  TF_AbstractTensor** buf;
  TF_DataType* tin;
  TF_AbstractOp* op;
  int i, ndy, nin = 0;
  names[0] = func_attr(g, "then_branch", s);
  if (names[0] == NULL) return;
  names[1] = func_attr(g, "else_branch", s);
  if (names[1] == NULL) return;
  if (is_rewrite_backward(names[0])) {
    refuse_higher_order(g->op_type, names[0], s);
    return;
  }
  if (cond_forward_gradient(g, (char* const*)names, 2, s)) return;
  lib = context_lib(g, &ctx, &graph, s);
  if (lib == NULL || !GL_OK(s)) return;
  b = backward_of(lib, names, 2, 0, s);
  if (b == NULL || b->nout == 0) return;
  if (b->nargs != g->num_inputs - 1 || b->nrets != g->num_outputs) {
    tfe_status_setf(s, TF_INTERNAL, "gradient of %s: branch signature mismatch", g->op_type);
    return;
  }
  install(b, ctx, graph, s);
  if (!GL_OK(s)) return;
  buf = (TF_AbstractTensor**)tfe_calloc((size_t)(b->nargs + b->nrets + b->nout) + 1,
                                        sizeof *buf);
  tin = (TF_DataType*)tfe_calloc((size_t)(b->nargs + b->nrets) + 1, sizeof *tin);
  if (buf == NULL || tin == NULL) {
    tfe_free(buf);
    tfe_free(tin);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return;
  }
  for (i = 0; i < b->nargs; i++) {
    buf[nin] = TFE_AbstractTensorCopy(g->inputs[1 + i], s);
    tin[nin++] = TFE_AbstractTensorDataType(g->inputs[1 + i], s);
  }
  ndy = upstream(g, b, buf + nin, s);
  for (i = 0; i < b->nrets; i++) {
    if (b->dy[i]) tin[nin++] = b->rtypes[i];
  }
  op = gl_op(g, g->op_type, s);
  gl_in(op, g->inputs[0], s);
  gl_in_list(op, buf, nin, s);
  if (op != NULL && GL_OK(s)) {
    TF_AbstractOpSetAttrType(op, "Tcond", TFE_AbstractTensorDataType(g->inputs[0], s), s);
  }
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrTypeList(op, "Tin", tin, nin, s);
  {
    TF_DataType* tout = (TF_DataType*)tfe_calloc((size_t)b->nout + 1, sizeof *tout);
    int k = 0;
    if (tout == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    } else {
      for (i = 0; i < b->nargs; i++) {
        if (b->mask[i]) tout[k++] = b->gtypes[i];
      }
      if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrTypeList(op, "Tout", tout, k, s);
      tfe_free(tout);
    }
  }
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrFunctionName(op, "then_branch", b->names[0], s);
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrFunctionName(op, "else_branch", b->names[1], s);
  (void)ndy;
  gl_free(buf, b->nargs + b->nrets);
  gl_fin_n(op, b->nout, buf, s);
  give_all(g, b, 1, buf, s);
  gl_free(buf, b->nout);
  tfe_free(buf);
  tfe_free(tin);
}

/* ---- While ----
 *
 * The gradient of While(v; cond, body) runs two loops. The first runs the
 * forward loop again with a counter, pushing each iteration's loop values
 * onto TensorLists (only for the variables the body changes: the others
 * are the same in every iteration); the second runs as many iterations,
 * popping those values and calling the body's backward function
 * (backward_of) with the carried gradients. A variable (resource) captured
 * by the body gets its gradient summed over the iterations. */

typedef struct wplan {
  struct wplan* next;
  char* key;
  int n, nacc, ninv, ncar;
  TF_DataType* T;
  unsigned char* inv;     /* the body passes variable j through */
  unsigned char* carried; /* j has a gradient carried by the backward loop */
  TF_DataType* ctype;     /* its dtype */
  const bwd* bb;          /* the body's backward function (recomputing) */
  const split* sp;        /* or its split: the forward loop is the forward
                             pass itself, and also accumulates the body's
                             saved values (lists nvacc..nacc) */
  int nvacc;              /* lists of loop variables */
  TF_Function* fns[4];    /* forward-accumulating cond, body; backward cond, body */
  char* names[4];
} wplan;

static wplan* g_wcache;

static void wplan_free(wplan* w) {
  int i;
  if (w == NULL) return;
  for (i = 0; i < 4; i++) {
    TF_DeleteFunction(w->fns[i]);
    tfe_free(w->names[i]);
  }
  tfe_free(w->key);
  tfe_free(w->T);
  tfe_free(w->inv);
  tfe_free(w->carried);
  tfe_free(w->ctype);
  tfe_free(w);
}

/* A scratch graph whose function library is lib (calls resolve there). */
static TF_Graph* scratch_graph(tfe_flib* lib) {
  TF_Graph* g = TF_NewGraph();
  if (g == NULL) return NULL;
  if (g->flib != NULL) tfe_flib_free(g->flib);
  g->flib = tfe_flib_ref(lib);
  return g;
}

static TF_Operation* sg_finish(TF_OperationDescription* d, TF_Status* s) {
  if (d == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return NULL;
  }
  return TF_FinishOperation(d, s);
}

static TF_Output sg_ph(TF_Graph* g, const char* pfx, int k, TF_DataType dt, TF_Status* s) {
  char name[64];
  TF_Operation* op;
  snprintf(name, sizeof name, "%s%d", pfx, k);
  op = GL_OK(s) ? add_placeholder(g, name, dt, s) : NULL;
  return (TF_Output){op, 0};
}

static TF_Output sg_i32(TF_Graph* g, const char* name, int32_t v, TF_Status* s) {
  TF_Tensor* t;
  TF_OperationDescription* d;
  TF_Operation* op;
  if (!GL_OK(s)) return (TF_Output){NULL, -1};
  t = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
  if (t == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return (TF_Output){NULL, -1};
  }
  *(int32_t*)TF_TensorData(t) = v;
  d = TF_NewOperation(g, "Const", name);
  if (d != NULL) {
    TF_SetAttrType(d, "dtype", TF_INT32);
    TF_SetAttrTensor(d, "value", t, s);
  }
  op = sg_finish(d, s);
  TF_DeleteTensor(t);
  return (TF_Output){op, 0};
}

static TF_Output sg_bin(TF_Graph* g, const char* type, const char* name, TF_Output a,
                        TF_Output b, TF_Status* s) {
  TF_OperationDescription* d;
  if (!GL_OK(s)) return (TF_Output){NULL, -1};
  d = TF_NewOperation(g, type, name);
  if (d != NULL) {
    TF_AddInput(d, a);
    TF_AddInput(d, b);
  }
  return (TF_Output){sg_finish(d, s), 0};
}

/* A call of function fname on inputs in[0..n). */
static TF_Operation* sg_call(TF_Graph* g, const char* fname, const char* name,
                             const TF_Output* in, int n, TF_Status* s) {
  TF_OperationDescription* d;
  int i;
  if (!GL_OK(s)) return NULL;
  d = TF_NewOperation(g, fname, name);
  if (d != NULL) {
    for (i = 0; i < n; i++) TF_AddInput(d, in[i]);
  }
  return sg_finish(d, s);
}

static TF_Function* sg_to_function(TF_Graph* g, const char* name, const TF_Output* in, int nin,
                                   const TF_Output* out, int nout, TF_Status* s) {
  TF_Function* fn;
  if (!GL_OK(s)) return NULL;
  fn = TF_GraphToFunction(g, name, 0, -1, NULL, nin, in, nout, out, NULL, NULL, NULL, s);
  if (!GL_OK(s)) {
    TF_DeleteFunction(fn);
    return NULL;
  }
  return fn;
}

/* Builds the four loop functions of plan w for While(cond, body). */
static int wplan_build(wplan* w, tfe_flib* lib, const char* cond, const char* body,
                       const char* stem, TF_Status* s) {
  int n = w->n, i, k, nin;
  TF_Graph* g = NULL;
  TF_Output *in = NULL, *out = NULL, *v = NULL, *lists = NULL, *dv = NULL, *invs = NULL;
  TF_Operation* op;
  char name[600];
  int ok = 0, total = 1 + 2 * n + w->nacc + w->ncar + w->ninv + 4;
  in = (TF_Output*)tfe_calloc((size_t)total, sizeof *in);
  out = (TF_Output*)tfe_calloc((size_t)total, sizeof *out);
  v = (TF_Output*)tfe_calloc((size_t)total, sizeof *v);
  lists = (TF_Output*)tfe_calloc((size_t)total, sizeof *lists);
  dv = (TF_Output*)tfe_calloc((size_t)total, sizeof *dv);
  invs = (TF_Output*)tfe_calloc((size_t)total, sizeof *invs);
  if (in == NULL || out == NULL || v == NULL || lists == NULL || dv == NULL || invs == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    goto done;
  }
  for (k = 0; k < 4; k++) {
    static const char* const kSuffix[4] = {"fcond", "fbody", "bcond", "bbody"};
    snprintf(name, sizeof name, "%s_%s", stem, kSuffix[k]);
    w->names[k] = tfe_strdup(name);
    if (w->names[k] == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      goto done;
    }
  }
  /* Forward-accumulating cond and body: (counter, v..., lists...). */
  for (k = 0; k < 2 && GL_OK(s); k++) {
    int nl = 0, no = 0;
    g = scratch_graph(lib);
    if (g == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      goto done;
    }
    nin = 0;
    in[nin++] = sg_ph(g, "counter", 0, TF_INT32, s);
    for (i = 0; i < n; i++) in[nin++] = v[i] = sg_ph(g, "v", i, w->T[i], s);
    for (i = 0; i < w->nacc; i++) in[nin++] = lists[i] = sg_ph(g, "acc", i, TF_VARIANT, s);
    if (k == 0) {
      op = sg_call(g, cond, "cond", v, n, s);
      out[no++] = (TF_Output){op, 0};
    } else {
      TF_Operation* call = sg_call(g, w->sp != NULL ? w->sp->fwd_name : body, "body", v, n, s);
      out[no++] = sg_bin(g, "AddV2", "next_counter", in[0], sg_i32(g, "one", 1, s), s);
      for (i = 0; i < n; i++) out[no++] = (TF_Output){call, i};
      for (i = 0; i < n && GL_OK(s); i++) {
        TF_OperationDescription* d;
        if (w->inv[i]) continue;
        snprintf(name, sizeof name, "push%d", i);
        d = TF_NewOperation(g, "TensorListPushBack", name);
        if (d != NULL) {
          TF_AddInput(d, lists[nl]);
          TF_AddInput(d, v[i]);
          TF_SetAttrType(d, "element_dtype", w->T[i]);
        }
        out[no++] = (TF_Output){sg_finish(d, s), 0};
        nl++;
      }
      for (i = 0; w->sp != NULL && i < w->sp->nextra && GL_OK(s); i++) {
        TF_OperationDescription* d;
        snprintf(name, sizeof name, "push_saved%d", i);
        d = TF_NewOperation(g, "TensorListPushBack", name);
        if (d != NULL) {
          TF_AddInput(d, lists[nl]);
          TF_AddInput(d, (TF_Output){call, n + i});
          TF_SetAttrType(d, "element_dtype", w->sp->xtypes[i]);
        }
        out[no++] = (TF_Output){sg_finish(d, s), 0};
        nl++;
      }
    }
    w->fns[k] = sg_to_function(g, w->names[k], in, nin, out, no, s);
    TF_DeleteGraph(g);
    g = NULL;
  }
  /* Backward cond and body: (i, dv..., lists..., invariants...). */
  for (k = 2; k < 4 && GL_OK(s); k++) {
    int nl = 0, ni = 0, no = 0, nd = 0, ndy = 0;
    TF_Output* bin = NULL;
    g = scratch_graph(lib);
    if (g == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      goto done;
    }
    nin = 0;
    in[nin++] = sg_ph(g, "i", 0, TF_INT32, s);
    for (i = 0; i < n; i++) {
      if (w->carried[i]) in[nin++] = dv[nd++] = sg_ph(g, "dv", i, w->ctype[i], s);
    }
    for (i = 0; i < w->nacc; i++) in[nin++] = lists[i] = sg_ph(g, "acc", i, TF_VARIANT, s);
    for (i = 0; i < n; i++) {
      if (w->inv[i]) in[nin++] = invs[ni++] = sg_ph(g, "inv", i, w->T[i], s);
    }
    if (k == 2) {
      out[no++] = sg_bin(g, "Greater", "more", in[0], sg_i32(g, "zero", 0, s), s);
      w->fns[k] = sg_to_function(g, w->names[k], in, nin, out, no, s);
      TF_DeleteGraph(g);
      g = NULL;
      continue;
    }
    {
      TF_Output shape = sg_i32(g, "any_shape", -1, s);
      TF_Output new_lists[64];
      TF_Operation* call;
      int kd = 0, kout = 0;
      if (w->nacc > 64) {
        tfe_status_setf(s, TF_UNIMPLEMENTED,
                        "gradient of While: more than 64 loop variables change in the body");
        TF_DeleteGraph(g);
        g = NULL;
        goto done;
      }
      bin = (TF_Output*)tfe_calloc((size_t)(2 * n + w->nacc) + 1, sizeof *bin);
      if (bin == NULL) {
        tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
        TF_DeleteGraph(g);
        g = NULL;
        goto done;
      }
      ni = 0;
      for (i = 0; i < n && GL_OK(s); i++) {
        if (w->inv[i]) {
          bin[i] = invs[ni++];
        } else {
          TF_OperationDescription* d;
          snprintf(name, sizeof name, "pop%d", i);
          d = TF_NewOperation(g, "TensorListPopBack", name);
          if (d != NULL) {
            TF_AddInput(d, lists[nl]);
            TF_AddInput(d, shape);
            TF_SetAttrType(d, "element_dtype", w->T[i]);
          }
          op = sg_finish(d, s);
          new_lists[nl++] = (TF_Output){op, 0};
          bin[i] = (TF_Output){op, 1};
        }
      }
      ndy = n;
      for (i = 0; w->sp != NULL && i < w->sp->nextra && GL_OK(s); i++) {
        TF_OperationDescription* d;
        snprintf(name, sizeof name, "pop_saved%d", i);
        d = TF_NewOperation(g, "TensorListPopBack", name);
        if (d != NULL) {
          TF_AddInput(d, lists[nl]);
          TF_AddInput(d, shape);
          TF_SetAttrType(d, "element_dtype", w->sp->xtypes[i]);
        }
        op = sg_finish(d, s);
        new_lists[nl++] = (TF_Output){op, 0};
        bin[ndy++] = (TF_Output){op, 1};
      }
      for (i = 0, kd = 0; i < n; i++) {
        if (w->carried[i] && w->T[i] != TF_RESOURCE) bin[ndy++] = dv[kd];
        if (w->carried[i]) kd++;
      }
      call = sg_call(g, w->sp != NULL ? w->sp->bwd_name : w->bb->names[0], "body_grad", bin,
                     ndy, s);
      out[no++] = sg_bin(g, "Sub", "next_i", in[0], sg_i32(g, "one", 1, s), s);
      for (i = 0, kd = 0, kout = 0; i < n && GL_OK(s); i++) {
        TF_Output gi = {NULL, -1};
        if (w->sp != NULL ? w->sp->mask[i] : w->bb->mask[i]) gi = (TF_Output){call, kout++};
        if (!w->carried[i]) continue;
        if (w->T[i] == TF_RESOURCE) {
          snprintf(name, sizeof name, "acc_grad%d", i);
          out[no++] = sg_bin(g, "AddV2", name, dv[kd], gi, s);
        } else if (gi.oper != NULL) {
          out[no++] = gi;
        } else {
          TF_OperationDescription* d;
          snprintf(name, sizeof name, "zeros%d", i);
          d = TF_NewOperation(g, "ZerosLike", name);
          if (d != NULL) TF_AddInput(d, dv[kd]);
          out[no++] = (TF_Output){sg_finish(d, s), 0};
        }
        kd++;
      }
      for (i = 0; i < nl; i++) out[no++] = new_lists[i];
      for (i = 0; i < ni; i++) out[no++] = invs[i];
      tfe_free(bin);
    }
    w->fns[k] = sg_to_function(g, w->names[k], in, nin, out, no, s);
    TF_DeleteGraph(g);
    g = NULL;
  }
  ok = GL_OK(s);
done:
  tfe_free(in);
  tfe_free(out);
  tfe_free(v);
  tfe_free(lists);
  tfe_free(dv);
  tfe_free(invs);
  return ok;
}

static const wplan* while_plan_of(tfe_flib* lib, const char* cond, const char* body,
                                  const split* sp, TF_Status* s) {
  char key[1024];
  uint64_t hc, hb;
  wplan* w;
  tfe_fn_inst* inst = NULL;
  const char* bad = NULL;
  int i;
  hc = fn_hash(lib, cond, s);
  hb = fn_hash(lib, body, s);
  if (!GL_OK(s)) return NULL;
  if ((size_t)snprintf(key, sizeof key, "%s@%016llx;%s@%016llx", cond,
                       (unsigned long long)hc, body, (unsigned long long)hb) >= sizeof key - 8) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "gradient: function names too long");
    return NULL;
  }
  if (sp != NULL) strcat(key, "#fwd");
  pthread_mutex_lock(&g_mu);
  for (w = g_wcache; w != NULL; w = w->next) {
    if (strcmp(w->key, key) == 0) break;
  }
  pthread_mutex_unlock(&g_mu);
  if (w != NULL) return w;
  /* The forward loop runs again: its functions must be safe to rerun
   * (with a split, the accumulating loop is the forward pass). */
  if (sp == NULL && (!body_safe(lib, cond, 0, &bad, s) || !body_safe(lib, body, 0, &bad, s))) {
    if (GL_OK(s)) {
      tfe_status_setf(s, TF_UNIMPLEMENTED,
                      "gradient of While (body '%s'): the gradient runs the loop again to "
                      "collect its intermediate values, and the loop has a stateful op "
                      "(%s): tfe does not rerun stateful ops other than variable reads "
                      "(docs/GRADIENTS.md)",
                      body, bad != NULL ? bad : "?");
    }
    return NULL;
  }
  w = (wplan*)tfe_calloc(1, sizeof *w);
  if (w == NULL) goto oom;
  w->key = tfe_strdup(key);
  if (w->key == NULL) goto oom;
  w->sp = sp;
  if (sp == NULL) {
    w->bb = backward_of(lib, &body, 1, 0, s);
    if (w->bb == NULL) goto fail;
  }
  inst = tfe_fn_body_new(tfe_flib_find(lib, body), lib, NULL, 0, NULL, NULL, NULL, s);
  if (inst == NULL || !GL_OK(s)) goto fail;
  w->n = tfe_fn_inst_num_args(inst);
  if (tfe_fn_inst_num_rets(inst) != w->n ||
      (sp != NULL ? sp->nargs : w->bb->nargs) != w->n) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "gradient of While: body '%s' returns %d values for %d loop variables",
                    body, tfe_fn_inst_num_rets(inst), w->n);
    goto fail;
  }
  w->T = (TF_DataType*)tfe_calloc((size_t)w->n + 1, sizeof *w->T);
  w->ctype = (TF_DataType*)tfe_calloc((size_t)w->n + 1, sizeof *w->ctype);
  w->inv = (unsigned char*)tfe_calloc((size_t)w->n + 1, 1);
  w->carried = (unsigned char*)tfe_calloc((size_t)w->n + 1, 1);
  if (w->T == NULL || w->ctype == NULL || w->inv == NULL || w->carried == NULL) goto oom;
  {
    size_t pos = 0;
    TF_Operation* op;
    int k = 0;
    const TF_Output* rets = tfe_fn_inst_ret_outputs(inst);
    while (k < w->n && (op = TF_GraphNextOperation(tfe_fn_inst_body(inst), &pos)) != NULL) {
      TF_Output r = rets[k];
      /* Through Identity nodes (a returned argument may get one). */
      while (r.oper != NULL && r.oper != op &&
             strcmp(TF_OperationOpType(r.oper), "Identity") == 0) {
        r = TF_OperationInput((TF_Input){r.oper, 0});
      }
      w->T[k] = tfe_fn_inst_arg_types(inst)[k];
      w->inv[k] = r.oper == op && r.index == 0;
      k++;
    }
  }
  for (i = 0; i < w->n; i++) {
    if (trainable(w->T[i])) {
      w->carried[i] = 1;
      w->ctype[i] = w->T[i];
    } else if (w->T[i] == TF_RESOURCE && (sp != NULL ? sp->mask[i] : w->bb->mask[i])) {
      if (!w->inv[i]) {
        tfe_status_setf(s, TF_UNIMPLEMENTED,
                        "gradient of While: loop variable %d is a resource the body "
                        "replaces; tfe differentiates only resources the body passes "
                        "through",
                        i);
        goto fail;
      }
      w->carried[i] = 1;
      w->ctype[i] = sp != NULL ? sp->gtypes[i] : w->bb->gtypes[i];
    }
    if (w->inv[i]) {
      w->ninv++;
    } else {
      w->nacc++;
    }
    if (w->carried[i]) w->ncar++;
  }
  w->nvacc = w->nacc;
  if (sp != NULL) w->nacc += sp->nextra;
  {
    char stem[560];
    snprintf(stem, sizeof stem, "%.500s_tfe_while_grad%s_%016llx", body,
             sp != NULL ? "_fwd" : "", (unsigned long long)(hb ^ (hc * 31)));
    if (!wplan_build(w, lib, cond, body, stem, s)) goto fail;
  }
  tfe_fn_inst_free(inst);
  GF_PUBLISH(wplan, g_wcache, w, key, wplan_free);
  return w;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
fail:
  tfe_fn_inst_free(inst);
  wplan_free(w);
  return NULL;
}

/* A While op of g's forward type over inputs in[0..n) of types T. */
static void run_while(TFE_GradientContext* g, const char* cond, const char* body,
                      TF_AbstractTensor** in, const TF_DataType* T, int n,
                      TF_AbstractTensor** outs, TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, g->op_type, s);
  gl_in_list(op, in, n, s);
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrTypeList(op, "T", T, n, s);
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrFunctionName(op, "cond", cond, s);
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrFunctionName(op, "body", body, s);
  gl_fin_n(op, n, outs, s);
}

static void grad_while(TFE_GradientContext* g, TF_Status* s) {
  const char* cond = func_attr(g, "cond", s);
  const char* body = cond != NULL ? func_attr(g, "body", s) : NULL;
  TFE_Context* ctx;
  TF_Graph* graph;
  tfe_flib* lib;
  const wplan* w;
  TF_AbstractTensor **in = NULL, **outs = NULL;
  TF_DataType* T = NULL;
  int i, n, k, nin, cap;
  if (body == NULL) return;
  if (is_rewrite_backward(body)) {
    refuse_higher_order(g->op_type, body, s);
    return;
  }
  if (while_forward_gradient(g, cond, body, s)) return;
  lib = context_lib(g, &ctx, &graph, s);
  if (lib == NULL || !GL_OK(s)) return;
  {
    /* The loop functions call the body's backward function: it must be
     * in the library before they are built. */
    const bwd* bb = backward_of(lib, &body, 1, 0, s);
    if (bb == NULL) return;
    install(bb, ctx, graph, s);
    if (!GL_OK(s)) return;
  }
  w = while_plan_of(lib, cond, body, NULL, s);
  if (w == NULL) return;
  n = w->n;
  if (n != g->num_inputs || n != g->num_outputs) {
    tfe_status_setf(s, TF_INTERNAL, "gradient of %s: %d inputs for %d loop variables",
                    g->op_type, g->num_inputs, n);
    return;
  }
  if (w->ncar == 0 || w->bb->nout == 0) return;
  install(w->bb, ctx, graph, s);
  for (i = 0; i < 4 && GL_OK(s); i++) {
    if (ctx != NULL) {
      if (tfe_flib_find(tfe_ctx_flib(ctx), w->names[i]) == NULL) {
        TFE_ContextAddFunction(ctx, w->fns[i], s);
      }
    } else if (tfe_flib_find(tfe_graph_flib(graph), w->names[i]) == NULL) {
      TF_GraphCopyFunction(graph, w->fns[i], NULL, s);
    }
  }
  if (!GL_OK(s)) return;
  cap = 2 + 2 * n + w->nacc + w->ncar + w->ninv;
  in = (TF_AbstractTensor**)tfe_calloc((size_t)cap, sizeof *in);
  outs = (TF_AbstractTensor**)tfe_calloc((size_t)cap, sizeof *outs);
  T = (TF_DataType*)tfe_calloc((size_t)cap, sizeof *T);
  if (in == NULL || outs == NULL || T == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    goto done;
  }
  /* The forward loop again, accumulating. */
  nin = 0;
  T[nin] = TF_INT32;
  in[nin++] = gl_i32(g, 0, s);
  for (i = 0; i < n; i++) {
    T[nin] = w->T[i];
    in[nin++] = TFE_AbstractTensorCopy(g->inputs[i], s);
  }
  for (i = 0; i < n && GL_OK(s); i++) {
    TF_AbstractOp* op;
    TF_AbstractTensor* shape;
    if (w->inv[i]) continue;
    shape = gl_i32(g, -1, s);
    op = gl_op(g, "EmptyTensorList", s);
    gl_in(op, shape, s);
    gl_in(op, shape, s); /* max_num_elements -1: no limit */
    TF_DeleteAbstractTensor(shape);
    if (op != NULL && GL_OK(s)) {
      TF_AbstractOpSetAttrType(op, "element_dtype", w->T[i], s);
      TF_AbstractOpSetAttrType(op, "shape_type", TF_INT32, s);
    }
    T[nin] = TF_VARIANT;
    in[nin++] = gl_fin(op, s);
  }
  run_while(g, w->names[0], w->names[1], in, T, nin, outs, s);
  gl_free(in, nin);
  if (!GL_OK(s)) goto done;
  /* The backward loop: (count, carried gradients, lists, invariants). */
  nin = 0;
  T[nin] = TF_INT32;
  in[nin++] = TFE_AbstractTensorCopy(outs[0], s);
  for (i = 0; i < n && GL_OK(s); i++) {
    if (!w->carried[i]) continue;
    T[nin] = w->ctype[i];
    if (w->T[i] == TF_RESOURCE) {
      TF_AbstractOp* op = gl_op(g, "ReadVariableOp", s);
      TF_AbstractTensor* val;
      gl_in(op, g->inputs[i], s);
      gl_set_type(op, "dtype", w->ctype[i], s);
      val = gl_fin(op, s);
      in[nin++] = gu_call1(g, "ZerosLike", val, s);
      TF_DeleteAbstractTensor(val);
    } else {
      in[nin++] = gl_grad_or_zeros(g, i, s);
    }
  }
  for (i = 0; i < w->nacc; i++) {
    T[nin] = TF_VARIANT;
    in[nin++] = TFE_AbstractTensorCopy(outs[1 + n + i], s);
  }
  for (i = 0; i < n; i++) {
    if (!w->inv[i]) continue;
    T[nin] = w->T[i];
    in[nin++] = TFE_AbstractTensorCopy(g->inputs[i], s);
  }
  gl_free(outs, 1 + n + w->nacc);
  run_while(g, w->names[2], w->names[3], in, T, nin, outs, s);
  gl_free(in, nin);
  for (i = 0, k = 1; i < n; i++) {
    if (!w->carried[i]) continue;
    if (GL_OK(s)) {
      gu_give(g, i, outs[k], s);
      outs[k] = NULL;
    }
    k++;
  }
  gl_free(outs, nin);
done:
  tfe_free(in);
  tfe_free(outs);
  tfe_free(T);
}

/* ---- Case ----
 *
 * Case(index, args; branches): a wrapper function holding
 * Case(index, args + upstream; the branches' backward functions), called
 * like a function (the unified API sets one function name per attr, not
 * a list). */

static size_t put_varint(unsigned char* p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (unsigned char)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (unsigned char)v;
  return n;
}

/* An AttrValue proto of list(func) naming names[0..n) in buf (cap bytes):
 * its length, or 0 when it does not fit. */
static size_t func_list_proto(char* const* names, int n, unsigned char* buf, size_t cap) {
  unsigned char list[8192];
  size_t ln = 0, len = 0;
  int i;
  for (i = 0; i < n; i++) {
    size_t nl = strlen(names[i]);
    unsigned char tmp[16];
    size_t inner = 1 + put_varint(tmp, nl) + nl;
    if (ln + 2 + 10 + inner > sizeof list) return 0;
    list[ln++] = 0x4a; /* ListValue.func (9), length-delimited */
    ln += put_varint(list + ln, inner);
    list[ln++] = 0x0a; /* NameAttrList.name (1) */
    ln += put_varint(list + ln, nl);
    memcpy(list + ln, names[i], nl);
    ln += nl;
  }
  if (ln + 12 > cap) return 0;
  buf[len++] = 0x0a; /* AttrValue.list (1) */
  len += put_varint(buf + len, ln);
  memcpy(buf + len, list, ln);
  return len + ln;
}

static void grad_case(TFE_GradientContext* g, TF_Status* s) {
  const tfe_attr_value* br = tfe_attrs_find(g->attrs, "branches");
  const char* names[MAX_BRANCHES];
  TFE_Context* ctx;
  TF_Graph* graph;
  tfe_flib* lib;
  const bwd* b;
  int i, nb, nin = 0, nout = 0;
  char wname[600];
  TF_Function* wfn = NULL;
  if (br == NULL || br->type != TF_ATTR_FUNC || !br->is_list || br->list_size < 1) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "gradient of %s: no list(func) attr 'branches'",
                    g->op_type);
    return;
  }
  nb = br->list_size;
  if (nb > MAX_BRANCHES) {
    tfe_status_setf(s, TF_UNIMPLEMENTED, "gradient of %s: more than %d branches", g->op_type,
                    MAX_BRANCHES);
    return;
  }
  for (i = 0; i < nb; i++) names[i] = br->list.s.data[i];
  if (is_rewrite_backward(names[0])) {
    refuse_higher_order(g->op_type, names[0], s);
    return;
  }
  if (cond_forward_gradient(g, (char* const*)names, nb, s)) return;
  lib = context_lib(g, &ctx, &graph, s);
  if (lib == NULL || !GL_OK(s)) return;
  b = backward_of(lib, names, nb, 0, s);
  if (b == NULL || b->nout == 0) return;
  if (b->nargs != g->num_inputs - 1 || b->nrets != g->num_outputs) {
    tfe_status_setf(s, TF_INTERNAL, "gradient of %s: branch signature mismatch", g->op_type);
    return;
  }
  install(b, ctx, graph, s);
  if (!GL_OK(s)) return;
  snprintf(wname, sizeof wname, "%.500s_tfe_case_grad", b->names[0]);
  if ((ctx != NULL ? tfe_flib_find(tfe_ctx_flib(ctx), wname)
                   : tfe_flib_find(tfe_graph_flib(graph), wname)) == NULL) {
    /* The wrapper: (index, args..., upstream...) -> Case of the backward
     * branches. */
    TF_Graph* sg = scratch_graph(lib);
    TF_Output* in = (TF_Output*)tfe_calloc((size_t)(1 + b->nargs + b->nrets) + 1, sizeof *in);
    TF_Output* out = (TF_Output*)tfe_calloc((size_t)b->nout + 1, sizeof *out);
    TF_DataType* tin = (TF_DataType*)tfe_calloc((size_t)(b->nargs + b->nrets) + 1, sizeof *tin);
    TF_DataType* tout = (TF_DataType*)tfe_calloc((size_t)b->nout + 1, sizeof *tout);
    unsigned char proto[9000];
    size_t plen = func_list_proto(b->names, b->nfns, proto, sizeof proto);
    if (sg == NULL || in == NULL || out == NULL || tin == NULL || tout == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    } else if (plen == 0) {
      tfe_status_setf(s, TF_UNIMPLEMENTED, "gradient of %s: branch names too long", g->op_type);
    } else {
      TF_OperationDescription* d;
      TF_Operation* op;
      in[nin++] = sg_ph(sg, "branch_index", 0, TF_INT32, s);
      for (i = 0; i < b->nargs; i++) {
        TF_DataType dt = TFE_AbstractTensorDataType(g->inputs[1 + i], s);
        tin[nin - 1] = dt;
        in[nin++] = sg_ph(sg, "arg", i, dt, s);
      }
      for (i = 0; i < b->nrets; i++) {
        if (!b->dy[i]) continue;
        tin[nin - 1] = b->rtypes[i];
        in[nin++] = sg_ph(sg, "dy", i, b->rtypes[i], s);
      }
      for (i = 0; i < b->nargs; i++) {
        if (b->mask[i]) tout[nout++] = b->gtypes[i];
      }
      if (GL_OK(s)) {
        d = TF_NewOperation(sg, g->op_type, "case");
        if (d != NULL) {
          TF_AddInput(d, in[0]);
          TF_AddInputList(d, in + 1, nin - 1);
          TF_SetAttrTypeList(d, "Tin", tin, nin - 1);
          TF_SetAttrTypeList(d, "Tout", tout, nout);
          TF_SetAttrValueProto(d, "branches", proto, plen, s);
        }
        if (GL_OK(s)) {
          op = sg_finish(d, s);
          for (i = 0; i < nout; i++) out[i] = (TF_Output){op, i};
        } else if (d != NULL) {
          TF_Status* s2 = TF_NewStatus();
          TF_FinishOperation(d, s2);
          TF_DeleteStatus(s2);
        }
      }
      wfn = sg_to_function(sg, wname, in, nin, out, nout, s);
    }
    TF_DeleteGraph(sg);
    tfe_free(in);
    tfe_free(out);
    tfe_free(tin);
    tfe_free(tout);
    if (wfn != NULL && GL_OK(s)) {
      if (ctx != NULL) {
        TFE_ContextAddFunction(ctx, wfn, s);
      } else {
        TF_GraphCopyFunction(graph, wfn, NULL, s);
      }
    }
    TF_DeleteFunction(wfn);
    if (!GL_OK(s)) return;
  }
  {
    TF_AbstractTensor** buf =
        (TF_AbstractTensor**)tfe_calloc((size_t)(b->nrets + b->nout) + 1, sizeof *buf);
    TF_AbstractOp* op;
    int ndy;
    if (buf == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      return;
    }
    ndy = upstream(g, b, buf, s);
    op = gl_op(g, wname, s);
    for (i = 0; i < g->num_inputs; i++) gl_in(op, g->inputs[i], s);
    for (i = 0; i < ndy; i++) gl_in(op, buf[i], s);
    gl_free(buf, ndy);
    gl_fin_n(op, b->nout, buf, s);
    give_all(g, b, 1, buf, s);
    gl_free(buf, b->nout);
    tfe_free(buf);
  }
}

/* ---- TensorList and Optional (TF's list_ops / optional gradients) ---- */

static TF_DataType attr_type(TFE_GradientContext* g, const char* name, TF_Status* s) {
  TF_DataType dt = 0;
  if (GL_OK(s) && !tfe_attrs_get_type(g->attrs, name, &dt, s)) return 0;
  return dt;
}

/* TensorListElementShape(list) as int32. */
static TF_AbstractTensor* list_element_shape(TFE_GradientContext* g, TF_AbstractTensor* list,
                                             TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, "TensorListElementShape", s);
  gl_in(op, list, s);
  gl_set_type(op, "shape_type", TF_INT32, s);
  return gl_fin(op, s);
}

/* Shape(t)[1:] (the element shape of a stacked tensor). */
static TF_AbstractTensor* shape_tail(TFE_GradientContext* g, TF_AbstractTensor* t,
                                     TF_Status* s) {
  static const int32_t kBegin[1] = {1}, kSize[1] = {-1};
  TF_AbstractTensor *sh = gl_shape(g, t, TF_INT32, s), *b = gu_const_i32(g, kBegin, 1, s),
                    *z = gu_const_i32(g, kSize, 1, s), *r;
  TF_AbstractOp* op = gl_op(g, "Slice", s);
  gl_in(op, sh, s);
  gl_in(op, b, s);
  gl_in(op, z, s);
  r = gl_fin(op, s);
  TF_DeleteAbstractTensor(sh);
  TF_DeleteAbstractTensor(b);
  TF_DeleteAbstractTensor(z);
  return r;
}

/* An empty list of dtype dt whose element shape is that of `like`. */
static TF_AbstractTensor* empty_list_like(TFE_GradientContext* g, TF_AbstractTensor* like,
                                          TF_DataType dt, TF_Status* s) {
  TF_AbstractTensor *es = list_element_shape(g, like, s), *m = gl_i32(g, -1, s), *r;
  TF_AbstractOp* op = gl_op(g, "EmptyTensorList", s);
  gl_in(op, es, s);
  gl_in(op, m, s);
  gl_set_type(op, "element_dtype", dt, s);
  gl_set_type(op, "shape_type", TF_INT32, s);
  r = gl_fin(op, s);
  TF_DeleteAbstractTensor(es);
  TF_DeleteAbstractTensor(m);
  return r;
}

/* A list of TensorListLength(like) unset elements of dtype dt. */
static TF_AbstractTensor* reserve_like(TFE_GradientContext* g, TF_AbstractTensor* like,
                                       TF_DataType dt, TF_Status* s) {
  TF_AbstractTensor *es = list_element_shape(g, like, s), *n, *r;
  TF_AbstractOp* op = gl_op(g, "TensorListLength", s);
  gl_in(op, like, s);
  n = gl_fin(op, s);
  op = gl_op(g, "TensorListReserve", s);
  gl_in(op, es, s);
  gl_in(op, n, s);
  gl_set_type(op, "element_dtype", dt, s);
  gl_set_type(op, "shape_type", TF_INT32, s);
  r = gl_fin(op, s);
  TF_DeleteAbstractTensor(es);
  TF_DeleteAbstractTensor(n);
  return r;
}

/* PushBack(list, t): PopBack of the list's gradient gives both. */
static void grad_list_push_back(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* out[2];
  TF_AbstractTensor* es = gl_shape(g, g->inputs[1], TF_INT32, s);
  TF_AbstractOp* op = gl_op(g, "TensorListPopBack", s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, es, s);
  gl_set_type(op, "element_dtype", attr_type(g, "element_dtype", s), s);
  gl_fin_n(op, 2, out, s);
  TF_DeleteAbstractTensor(es);
  gu_give(g, 0, out[0], s);
  gu_give(g, 1, out[1], s);
}

/* PopBack(list) -> (list', t): PushBack(dlist', dt). */
static void grad_list_pop_back(TFE_GradientContext* g, TF_Status* s) {
  TF_DataType dt = attr_type(g, "element_dtype", s);
  TF_AbstractTensor* dl = TFE_GradientContextOutputGradient(g, 0);
  TF_AbstractTensor *dlist, *de, *r;
  TF_AbstractOp* op;
  dlist = dl != NULL ? TFE_AbstractTensorCopy(dl, s) : empty_list_like(g, g->outputs[0], dt, s);
  de = gl_grad_or_zeros(g, 1, s);
  op = gl_op(g, "TensorListPushBack", s);
  gl_in(op, dlist, s);
  gl_in(op, de, s);
  gl_set_type(op, "element_dtype", dt, s);
  r = gl_fin(op, s);
  TF_DeleteAbstractTensor(dlist);
  TF_DeleteAbstractTensor(de);
  gu_give(g, 0, r, s);
}

/* Stack(list) -> t: FromTensor(dt). */
static void grad_list_stack(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* es = shape_tail(g, gu_upstream(g), s);
  TF_AbstractOp* op = gl_op(g, "TensorListFromTensor", s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, es, s);
  gl_set_type(op, "element_dtype", attr_type(g, "element_dtype", s), s);
  gl_set_type(op, "shape_type", TF_INT32, s);
  gu_give(g, 0, gl_fin(op, s), s);
  TF_DeleteAbstractTensor(es);
}

/* FromTensor(t) -> list: Stack(dlist) with t's element shape and length. */
static void grad_list_from_tensor(TFE_GradientContext* g, TF_Status* s) {
  TF_DataType dt = attr_type(g, "element_dtype", s);
  TF_AbstractTensor* t = g->inputs[0];
  TF_AbstractTensor *es = shape_tail(g, t, s), *r;
  TF_AbstractOp* op = gl_op(g, "TensorListStack", s);
  int64_t n0 = -1;
  if (GL_OK(s) && TFE_AbstractTensorNumDims(t, s) > 0) n0 = TFE_AbstractTensorDim(t, 0, s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, es, s);
  gl_set_type(op, "element_dtype", dt, s);
  gl_set_int(op, "num_elements", n0, s);
  r = gl_fin(op, s);
  TF_DeleteAbstractTensor(es);
  gu_give(g, 0, r, s);
}

/* GetItem(list, i) -> item: SetItem(Reserve(len(list)), i, ditem). */
static void grad_list_get_item(TFE_GradientContext* g, TF_Status* s) {
  TF_DataType dt = attr_type(g, "element_dtype", s);
  TF_AbstractTensor* base = reserve_like(g, g->inputs[0], dt, s);
  TF_AbstractOp* op = gl_op(g, "TensorListSetItem", s);
  gl_in(op, base, s);
  gl_in(op, g->inputs[1], s);
  gl_in(op, gu_upstream(g), s);
  gl_set_type(op, "element_dtype", dt, s);
  gu_give(g, 0, gl_fin(op, s), s);
  TF_DeleteAbstractTensor(base);
}

/* SetItem(list, i, item): the list gets dlist with item i zeroed, item
 * gets GetItem(dlist, i). */
static void grad_list_set_item(TFE_GradientContext* g, TF_Status* s) {
  TF_DataType dt = attr_type(g, "element_dtype", s);
  TF_AbstractTensor *z = gu_call1(g, "ZerosLike", g->inputs[2], s),
                    *es = gl_shape(g, g->inputs[2], TF_INT32, s);
  TF_AbstractOp* op = gl_op(g, "TensorListSetItem", s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, g->inputs[1], s);
  gl_in(op, z, s);
  gl_set_type(op, "element_dtype", dt, s);
  gu_give(g, 0, gl_fin(op, s), s);
  op = gl_op(g, "TensorListGetItem", s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, g->inputs[1], s);
  gl_in(op, es, s);
  gl_set_type(op, "element_dtype", dt, s);
  gu_give(g, 2, gl_fin(op, s), s);
  TF_DeleteAbstractTensor(z);
  TF_DeleteAbstractTensor(es);
}

/* Gather(list, indices) -> values: Scatter of dvalues into a list as long
 * as the input. */
static void grad_list_gather(TFE_GradientContext* g, TF_Status* s) {
  TF_DataType dt = attr_type(g, "element_dtype", s);
  TF_AbstractTensor* base = reserve_like(g, g->inputs[0], dt, s);
  TF_AbstractOp* op = gl_op(g, "TensorListScatterIntoExistingList", s);
  gl_in(op, base, s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, g->inputs[1], s);
  gl_set_type(op, "element_dtype", dt, s);
  gu_give(g, 0, gl_fin(op, s), s);
  TF_DeleteAbstractTensor(base);
}

/* Gather(dlist, indices) with t's element shape. */
static TF_AbstractTensor* gather_like(TFE_GradientContext* g, TF_AbstractTensor* dlist,
                                      TF_AbstractTensor* indices, TF_AbstractTensor* t,
                                      TF_DataType dt, TF_Status* s) {
  TF_AbstractTensor *es = shape_tail(g, t, s), *r;
  TF_AbstractOp* op = gl_op(g, "TensorListGather", s);
  gl_in(op, dlist, s);
  gl_in(op, indices, s);
  gl_in(op, es, s);
  gl_set_type(op, "element_dtype", dt, s);
  r = gl_fin(op, s);
  TF_DeleteAbstractTensor(es);
  return r;
}

/* Scatter(t, indices) (and ScatterV2): Gather(dlist, indices). */
static void grad_list_scatter(TFE_GradientContext* g, TF_Status* s) {
  TF_DataType dt = attr_type(g, "element_dtype", s);
  gu_give(g, 0, gather_like(g, gu_upstream(g), g->inputs[1], g->inputs[0], dt, s), s);
}

/* ScatterIntoExistingList(list, t, indices): the list gets dlist with the
 * scattered positions zeroed, t gets Gather(dlist, indices). */
static void grad_list_scatter_existing(TFE_GradientContext* g, TF_Status* s) {
  TF_DataType dt = attr_type(g, "element_dtype", s);
  TF_AbstractTensor* z = gu_call1(g, "ZerosLike", g->inputs[1], s);
  TF_AbstractOp* op = gl_op(g, "TensorListScatterIntoExistingList", s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, z, s);
  gl_in(op, g->inputs[2], s);
  gl_set_type(op, "element_dtype", dt, s);
  gu_give(g, 0, gl_fin(op, s), s);
  TF_DeleteAbstractTensor(z);
  gu_give(g, 1, gather_like(g, gu_upstream(g), g->inputs[2], g->inputs[1], dt, s), s);
}

/* Resize(list, n): dlist resized back to the input's length. */
static void grad_list_resize(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, "TensorListLength", s);
  TF_AbstractTensor* n;
  gl_in(op, g->inputs[0], s);
  n = gl_fin(op, s);
  op = gl_op(g, "TensorListResize", s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, n, s);
  gu_give(g, 0, gl_fin(op, s), s);
  TF_DeleteAbstractTensor(n);
}

/* OptionalFromValue(components): OptionalGetValue of the gradient, run
 * through a small function (OptionalGetValue needs a list of shapes,
 * which the unified API cannot set). */
static void grad_optional_from_value(TFE_GradientContext* g, TF_Status* s) {
  const TF_DataType* types = NULL;
  int n = 0, i;
  TF_AbstractTensor* outs[64];
  TF_AbstractOp* op;
  TFE_Context* ctx;
  TF_Graph* graph;
  tfe_flib* lib;
  char name[128 + 64 * 4];
  size_t used;
  if (!tfe_attrs_get_type_list(g->attrs, "Toutput_types", &types, &n, s)) return;
  if (n > 64) {
    tfe_status_setf(s, TF_UNIMPLEMENTED, "gradient of OptionalFromValue: more than 64 values");
    return;
  }
  lib = context_lib(g, &ctx, &graph, s);
  if (lib == NULL || !GL_OK(s)) return;
  used = (size_t)snprintf(name, sizeof name, "__tfe_optional_get_value");
  for (i = 0; i < n && used < sizeof name; i++) {
    used += (size_t)snprintf(name + used, sizeof name - used, "_%d", (int)types[i]);
  }
  if ((ctx != NULL ? tfe_flib_find(tfe_ctx_flib(ctx), name)
                   : tfe_flib_find(tfe_graph_flib(graph), name)) == NULL) {
    TF_Graph* sg = scratch_graph(lib);
    TF_Output in, fo[64];
    TF_Function* fn = NULL;
    const int64_t* dims[64];
    int nd[64];
    if (sg == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      return;
    }
    in = sg_ph(sg, "optional", 0, TF_VARIANT, s);
    if (GL_OK(s)) {
      TF_OperationDescription* d = TF_NewOperation(sg, "OptionalGetValue", "get");
      TF_Operation* o;
      for (i = 0; i < n; i++) {
        dims[i] = NULL;
        nd[i] = -1;
      }
      if (d != NULL) {
        TF_AddInput(d, in);
        TF_SetAttrTypeList(d, "output_types", types, n);
        TF_SetAttrShapeList(d, "output_shapes", dims, nd, n);
      }
      o = sg_finish(d, s);
      for (i = 0; i < n; i++) fo[i] = (TF_Output){o, i};
    }
    fn = sg_to_function(sg, name, &in, 1, fo, n, s);
    TF_DeleteGraph(sg);
    if (fn != NULL && GL_OK(s)) {
      if (ctx != NULL) {
        TFE_ContextAddFunction(ctx, fn, s);
      } else {
        TF_GraphCopyFunction(graph, fn, NULL, s);
      }
    }
    TF_DeleteFunction(fn);
    if (!GL_OK(s)) return;
  }
  op = gl_op(g, name, s);
  gl_in(op, gu_upstream(g), s);
  gl_fin_n(op, n, outs, s);
  for (i = 0; i < n; i++) {
    if (GL_OK(s)) {
      gu_give(g, i, outs[i], s);
    } else {
      TF_DeleteAbstractTensor(outs[i]);
    }
  }
}

/* OptionalGetValue(optional) -> components: OptionalFromValue(grads). */
static void grad_optional_get_value(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* d[64];
  TF_AbstractOp* op;
  int i, n = g->num_outputs;
  if (n > 64) {
    tfe_status_setf(s, TF_UNIMPLEMENTED, "gradient of OptionalGetValue: more than 64 values");
    return;
  }
  for (i = 0; i < n; i++) d[i] = gl_grad_or_zeros(g, i, s);
  op = gl_op(g, "OptionalFromValue", s);
  gl_in_list(op, d, n, s);
  gu_give(g, 0, gl_fin(op, s), s);
  gl_free(d, n);
}

/* ---- TensorArray (V3; TF's tensor_array_grad) ----
 *
 * The gradient of a TensorArray is the TensorArray TensorArrayGradV3
 * makes for it (source "gradients", one per array, writes of one index
 * summed); the float "flow" values carry the order between its writes and
 * reads. */

static void ta_grad_array(TFE_GradientContext* g, TF_AbstractTensor* handle,
                          TF_AbstractTensor* flow, TF_AbstractTensor** out, TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, "TensorArrayGradV3", s);
  gl_in(op, handle, s);
  gl_in(op, flow, s);
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrString(op, "source", "gradients", 9, s);
  gl_fin_n(op, 2, out, s);
}

/* ReadV3(handle, index, flow) -> value: write the gradient at index into
 * the gradient array; its flow is flow's gradient. */
static void grad_ta_read(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* ga[2];
  TF_AbstractOp* op;
  TF_AbstractTensor* d = gl_grad_or_zeros(g, 0, s);
  ta_grad_array(g, g->inputs[0], g->inputs[2], ga, s);
  op = gl_op(g, "TensorArrayWriteV3", s);
  gl_in(op, ga[0], s);
  gl_in(op, g->inputs[1], s);
  gl_in(op, d, s);
  gl_in(op, ga[1], s);
  gu_give(g, 2, gl_fin(op, s), s);
  gl_free(ga, 2);
  TF_DeleteAbstractTensor(d);
}

/* GatherV3(handle, indices, flow) -> value: scatter the gradient. */
static void grad_ta_gather(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* ga[2];
  TF_AbstractOp* op;
  TF_AbstractTensor* d = gl_grad_or_zeros(g, 0, s);
  ta_grad_array(g, g->inputs[0], g->inputs[2], ga, s);
  op = gl_op(g, "TensorArrayScatterV3", s);
  gl_in(op, ga[0], s);
  gl_in(op, g->inputs[1], s);
  gl_in(op, d, s);
  gl_in(op, ga[1], s);
  gu_give(g, 2, gl_fin(op, s), s);
  gl_free(ga, 2);
  TF_DeleteAbstractTensor(d);
}

/* WriteV3(handle, index, value, flow) -> flow: read the value's gradient
 * from the gradient array; the flow's gradient passes through. */
static void grad_ta_write(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* ga[2];
  TF_AbstractOp* op;
  TF_AbstractTensor* dflow = gl_grad_or_zeros(g, 0, s);
  ta_grad_array(g, g->inputs[0], dflow, ga, s);
  op = gl_op(g, "TensorArrayReadV3", s);
  gl_in(op, ga[0], s);
  gl_in(op, g->inputs[1], s);
  gl_in(op, ga[1], s);
  gl_set_type(op, "dtype", attr_type(g, "T", s), s);
  gu_give(g, 2, gl_fin(op, s), s);
  gu_give(g, 3, dflow, s);
  gl_free(ga, 2);
}

/* ScatterV3(handle, indices, value, flow) -> flow: gather the value's
 * gradient from the gradient array. */
static void grad_ta_scatter(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* ga[2];
  TF_AbstractOp* op;
  TF_AbstractTensor* dflow = gl_grad_or_zeros(g, 0, s);
  ta_grad_array(g, g->inputs[0], dflow, ga, s);
  op = gl_op(g, "TensorArrayGatherV3", s);
  gl_in(op, ga[0], s);
  gl_in(op, g->inputs[1], s);
  gl_in(op, ga[1], s);
  gl_set_type(op, "dtype", attr_type(g, "T", s), s);
  gu_give(g, 2, gl_fin(op, s), s);
  gu_give(g, 3, dflow, s);
  gl_free(ga, 2);
}

/* ---- forward values of If / Case inside a function body ----
 *
 * While a forward variant is built (split_build), the gradient of an
 * If/StatelessIf/Case/StatelessCase node of the body does what TF's
 * cond_v2 does: the node is replaced by one calling forward wrappers of
 * the branches, which return the branch's outputs followed by one Optional
 * per saved value of every branch (the value in the branch that ran, None
 * in the others); the gradient node calls backward wrappers reading the
 * values back (OptionalGetValue) into each branch's split backward
 * function. Those Optionals become saved values of the enclosing variant,
 * so nothing of a branch runs again. Elsewhere (an If run eagerly on the
 * tape, an If of a user's graph) the branches' backward functions
 * recompute (backward_of). */

typedef struct cfwd {
  struct cfwd* next;
  char* key;
  int nb, nargs, nrets, nopt, nout;
  const split* ps[MAX_BRANCHES];
  int off[MAX_BRANCHES]; /* branch b's first Optional */
  TF_Function* fwd[MAX_BRANCHES];
  TF_Function* bwd[MAX_BRANCHES];
  char* fwd_names[MAX_BRANCHES];
  char* bwd_names[MAX_BRANCHES];
  unsigned char* mask; /* nargs: some branch gives its gradient */
  TF_DataType* gtypes; /* nargs */
} cfwd;

static cfwd* g_cfwd; /* under g_mu; lives as long as the process */

static void cfwd_free(cfwd* c) {
  int i;
  if (c == NULL) return;
  for (i = 0; i < c->nb; i++) {
    TF_DeleteFunction(c->fwd[i]);
    TF_DeleteFunction(c->bwd[i]);
    tfe_free(c->fwd_names[i]);
    tfe_free(c->bwd_names[i]);
  }
  tfe_free(c->key);
  tfe_free(c->mask);
  tfe_free(c->gtypes);
  tfe_free(c);
}

static TF_Operation* sg_new(TF_Graph* g, const char* type, const char* name, TF_Status* s,
                            TF_OperationDescription** d) {
  *d = GL_OK(s) ? TF_NewOperation(g, type, name) : NULL;
  if (*d == NULL && GL_OK(s)) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
  }
  return NULL;
}

/* Branch b's forward wrapper: args -> outputs, then every branch's
 * saved values as Optionals. */
static TF_Function* cfwd_fwd_fn(const cfwd* c, tfe_flib* lib, int b, const char* name,
                                TF_Status* s) {
  const split* p = c->ps[b];
  TF_Graph* sg = scratch_graph(lib);
  TF_Output* in = (TF_Output*)tfe_calloc((size_t)c->nargs + 1, sizeof *in);
  TF_Output* out = (TF_Output*)tfe_calloc((size_t)(c->nrets + c->nopt) + 1, sizeof *out);
  TF_Operation* call;
  TF_Function* fn = NULL;
  int i, k, q, nout = 0;
  if (sg == NULL || in == NULL || out == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    goto done;
  }
  for (i = 0; i < c->nargs; i++) in[i] = sg_ph(sg, "arg", i, p->atypes[i], s);
  call = sg_call(sg, p->fwd_name, "call", in, c->nargs, s);
  if (!GL_OK(s)) goto done;
  for (i = 0; i < c->nrets; i++) out[nout++] = (TF_Output){call, i};
  for (q = 0; q < c->nb; q++) {
    for (k = 0; k < c->ps[q]->nextra; k++) {
      TF_OperationDescription* d;
      char nm[64];
      snprintf(nm, sizeof nm, "opt_%d_%d", q, k);
      sg_new(sg, q == b ? "OptionalFromValue" : "OptionalNone", nm, s, &d);
      if (d == NULL) goto done;
      if (q == b) {
        TF_Output v = {call, c->nrets + k};
        TF_AddInputList(d, &v, 1);
        TF_SetAttrTypeList(d, "Toutput_types", &p->xtypes[k], 1);
      }
      out[nout++] = (TF_Output){sg_finish(d, s), 0};
      if (!GL_OK(s)) goto done;
    }
  }
  fn = sg_to_function(sg, name, in, c->nargs, out, nout, s);
done:
  TF_DeleteGraph(sg);
  tfe_free(in);
  tfe_free(out);
  return fn;
}

/* Branch b's backward wrapper: (args, Optionals, upstream gradients) ->
 * the gradients some branch gives (zeros where branch b gives none). */
static TF_Function* cfwd_bwd_fn(const cfwd* c, tfe_flib* lib, int b, const char* name,
                                TF_Status* s) {
  const split* p = c->ps[b];
  TF_Graph* sg = scratch_graph(lib);
  int nin_max = c->nargs + c->nopt + c->nrets + p->nextra;
  TF_Output* in = (TF_Output*)tfe_calloc((size_t)nin_max + 1, sizeof *in);
  TF_Output* cin = (TF_Output*)tfe_calloc((size_t)nin_max + 1, sizeof *cin);
  TF_Output* out = (TF_Output*)tfe_calloc((size_t)c->nargs + 1, sizeof *out);
  TF_Operation* call = NULL;
  TF_Function* fn = NULL;
  int i, k, nin = 0, ncin = 0, nout = 0, kg = 0;
  if (sg == NULL || in == NULL || cin == NULL || out == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    goto done;
  }
  for (i = 0; i < c->nargs; i++) in[nin++] = sg_ph(sg, "arg", i, p->atypes[i], s);
  for (i = 0; i < c->nopt; i++) in[nin++] = sg_ph(sg, "opt", i, TF_VARIANT, s);
  for (i = 0; i < c->nrets; i++) {
    if (p->dy[i]) in[nin++] = sg_ph(sg, "dy", i, p->rtypes[i], s);
  }
  if (!GL_OK(s)) goto done;
  if (p->nout > 0) {
    for (i = 0; i < c->nargs; i++) cin[ncin++] = in[i];
    for (k = 0; k < p->nextra; k++) {
      TF_OperationDescription* d;
      char nm[64];
      const int64_t* dims = NULL;
      int nd = -1;
      snprintf(nm, sizeof nm, "saved_%d", k);
      sg_new(sg, "OptionalGetValue", nm, s, &d);
      if (d == NULL) goto done;
      TF_AddInput(d, in[c->nargs + c->off[b] + k]);
      TF_SetAttrTypeList(d, "output_types", &p->xtypes[k], 1);
      TF_SetAttrShapeList(d, "output_shapes", &dims, &nd, 1);
      cin[ncin++] = (TF_Output){sg_finish(d, s), 0};
      if (!GL_OK(s)) goto done;
    }
    for (i = c->nargs + c->nopt; i < nin; i++) cin[ncin++] = in[i];
    call = sg_call(sg, p->bwd_name, "call", cin, ncin, s);
    if (!GL_OK(s)) goto done;
  }
  for (i = 0; i < c->nargs; i++) {
    char nm[64];
    if (p->mask[i] && c->mask[i]) {
      out[nout++] = (TF_Output){call, kg++};
      continue;
    }
    if (p->mask[i]) kg++;
    if (!c->mask[i]) continue;
    snprintf(nm, sizeof nm, "zeros_%d", i);
    if (p->atypes[i] == TF_RESOURCE) {
      char rd[64];
      snprintf(rd, sizeof rd, "read_%d", i);
      out[nout] = add_unary(sg, "ReadVariableOp", rd, in[i], c->gtypes[i], s);
      if (GL_OK(s)) out[nout] = add_unary(sg, "ZerosLike", nm, out[nout], 0, s);
    } else {
      out[nout] = add_unary(sg, "ZerosLike", nm, in[i], 0, s);
    }
    nout++;
    if (!GL_OK(s)) goto done;
  }
  fn = sg_to_function(sg, name, in, nin, out, nout, s);
done:
  TF_DeleteGraph(sg);
  tfe_free(in);
  tfe_free(cin);
  tfe_free(out);
  return fn;
}

/* The wrappers of the splits ps[0..nb) (built on first use; borrowed). */
static const cfwd* cfwd_of(tfe_flib* lib, const split* const* ps, int nb, TF_Status* s) {
  char key[2048];
  size_t used = 0;
  cfwd* c;
  int i, b;
  uint64_t h;
  key[0] = '\0';
  for (b = 0; b < nb; b++) {
    used += (size_t)snprintf(key + used, used < sizeof key ? sizeof key - used : 0, "%s;",
                             ps[b]->key);
    if (used >= sizeof key) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "gradient: function names too long");
      return NULL;
    }
  }
  pthread_mutex_lock(&g_mu);
  for (c = g_cfwd; c != NULL; c = c->next) {
    if (strcmp(c->key, key) == 0) break;
  }
  pthread_mutex_unlock(&g_mu);
  if (c != NULL) return c;
  h = fnv(0xcbf29ce484222325ull, key, strlen(key));
  c = (cfwd*)tfe_calloc(1, sizeof *c);
  if (c == NULL) goto oom;
  c->key = tfe_strdup(key);
  c->nargs = ps[0]->nargs;
  c->nrets = ps[0]->nrets;
  c->mask = (unsigned char*)tfe_calloc((size_t)c->nargs + 1, 1);
  c->gtypes = (TF_DataType*)tfe_calloc((size_t)c->nargs + 1, sizeof(TF_DataType));
  if (c->key == NULL || c->mask == NULL || c->gtypes == NULL) goto oom;
  for (b = 0; b < nb; b++) {
    const split* p = ps[b];
    if (p->nargs != c->nargs || p->nrets != c->nrets) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "gradient: branches '%s' and '%s' have different signatures",
                      ps[0]->key, p->key);
      goto fail;
    }
    c->ps[b] = p;
    c->off[b] = c->nopt;
    c->nopt += p->nextra;
    for (i = 0; i < c->nargs; i++) {
      if (!p->mask[i]) continue;
      if (c->mask[i] && c->gtypes[i] != p->gtypes[i]) {
        tfe_status_setf(s, TF_INTERNAL,
                        "gradient: argument %d's gradient has dtype %d in one branch, %d in "
                        "another",
                        i, (int)c->gtypes[i], (int)p->gtypes[i]);
        goto fail;
      }
      c->mask[i] = 1;
      c->gtypes[i] = p->gtypes[i];
    }
  }
  c->nb = nb;
  for (i = 0; i < c->nargs; i++) c->nout += c->mask[i];
  for (b = 0; b < nb; b++) {
    char name[600];
    snprintf(name, sizeof name, "%.400s_tfe_cfwd_%016llx_%d", ps[b]->fwd_name,
             (unsigned long long)h, b);
    c->fwd_names[b] = tfe_strdup(name);
    snprintf(name, sizeof name, "%.400s_tfe_cbwd_%016llx_%d", ps[b]->fwd_name,
             (unsigned long long)h, b);
    c->bwd_names[b] = tfe_strdup(name);
    if (c->fwd_names[b] == NULL || c->bwd_names[b] == NULL) goto oom;
  }
  for (b = 0; b < nb; b++) {
    c->fwd[b] = cfwd_fwd_fn(c, lib, b, c->fwd_names[b], s);
    if (c->fwd[b] == NULL) goto fail;
    c->bwd[b] = cfwd_bwd_fn(c, lib, b, c->bwd_names[b], s);
    if (c->bwd[b] == NULL) goto fail;
  }
  GF_PUBLISH(cfwd, g_cfwd, c, key, cfwd_free);
  return c;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
fail:
  if (c != NULL && c->nb == 0) c->nb = nb;
  cfwd_free(c);
  return NULL;
}

/* A functional node like fop (same type, selector, control inputs) on
 * inputs ins with branches names. */
static TF_Operation* cond_node(TF_Graph* graph, TF_Operation* fop, const char* what,
                               const TF_Output* ins, const TF_DataType* tin, int nin,
                               const TF_DataType* tout, int nout, char* const* names, int nb,
                               TF_Status* s) {
  static atomic_int counter;
  TF_OperationDescription* d;
  char name[700];
  int j, is_if = strstr(fop->op_type, "If") != NULL;
  snprintf(name, sizeof name, "%.600s/tfe_%s_%d", fop->name, what,
           atomic_fetch_add(&counter, 1));
  sg_new(graph, fop->op_type, name, s, &d);
  if (d == NULL) return NULL;
  TF_AddInput(d, fop->inputs[0]);
  TF_AddInputList(d, ins, nin);
  TF_SetAttrTypeList(d, "Tin", tin, nin);
  TF_SetAttrTypeList(d, "Tout", tout, nout);
  if (is_if) {
    TF_SetAttrType(d, "Tcond", TF_OperationOutputType(fop->inputs[0]));
    TF_SetAttrFuncName(d, "then_branch", names[0], strlen(names[0]));
    TF_SetAttrFuncName(d, "else_branch", names[1], strlen(names[1]));
  } else {
    unsigned char proto[9000];
    size_t plen = func_list_proto(names, nb, proto, sizeof proto);
    if (plen == 0) {
      tfe_status_setf(s, TF_UNIMPLEMENTED, "gradient of %s: branch names too long",
                      fop->op_type);
    } else {
      TF_SetAttrValueProto(d, "branches", proto, plen, s);
    }
  }
  if (strcmp(what, "fwd") == 0) {
    for (j = 0; j < fop->num_control_inputs; j++) TF_AddControlInput(d, fop->control_inputs[j]);
  }
  if (!GL_OK(s)) {
    TF_Status* s2 = TF_NewStatus();
    TF_FinishOperation(d, s2);
    TF_DeleteStatus(s2);
    return NULL;
  }
  return sg_finish(d, s);
}

/* Makes the consumers of fop's first n outputs (data and control edges,
 * and the stage's return values) read nop instead. */
static void redirect(stage* st, TF_Operation* fop, TF_Operation* nop, int off, int n,
                     TF_Status* s) {
  TF_Output* rets = (TF_Output*)tfe_fn_inst_ret_outputs(st->inst);
  int i, j;
  for (i = 0; i < n && GL_OK(s); i++) {
    TF_Output src = {fop, i};
    int nc = TF_OperationOutputNumConsumers(src);
    TF_Input* cons;
    if (nc <= 0) continue;
    cons = (TF_Input*)tfe_calloc((size_t)nc, sizeof *cons);
    if (cons == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      return;
    }
    nc = TF_OperationOutputConsumers(src, cons, nc);
    for (j = 0; j < nc && GL_OK(s); j++) {
      TF_UpdateEdge(st->body, (TF_Output){nop, off + i}, cons[j], s);
    }
    tfe_free(cons);
  }
  for (i = 0; i < st->nrets; i++) {
    if (rets[i].oper == fop) rets[i] = (TF_Output){nop, off + rets[i].index};
  }
  for (i = 0; i < fop->num_control_outputs && GL_OK(s); i++) {
    TF_Operation* c = fop->control_outputs[i];
    for (j = 0; j < c->num_control_inputs; j++) {
      if (c->control_inputs[j] == fop) c->control_inputs[j] = nop;
    }
    if (!op_push(&nop->control_outputs, &nop->num_control_outputs, &nop->cap_control_outputs,
                 c)) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    }
  }
  if (GL_OK(s)) fop->num_control_outputs = 0;
}

/* The gradient of a functional If/Case node of a body a split is built
 * from, from forward values: 1 when done (or failed, status set), 0 when
 * the node is not such a node. */
static int op_add_outputs(TF_Operation* op, const TF_DataType* types, int n, TF_Status* s);
static int extend_attr_types(TF_Operation* op, const char* attr, const TF_DataType* more,
                             int n);
static int set_attr_func(TF_Operation* op, const char* attr, const char* fname);

/* A non-empty list(shape) attr gets n unknown shapes more. */
static int extend_attr_shapes(TF_Operation* op, const char* attr, int n) {
  const tfe_attr_value* cur = tfe_attrs_find(&op->attrs, attr);
  tfe_attr_value v;
  const int64_t** dims;
  int* nd;
  int i, old, ok;
  if (cur == NULL || !cur->is_list || cur->list_size == 0) return 1;
  old = cur->list_size;
  dims = (const int64_t**)tfe_calloc((size_t)(old + n) + 1, sizeof *dims);
  nd = (int*)tfe_calloc((size_t)(old + n) + 1, sizeof *nd);
  memset(&v, 0, sizeof v);
  ok = dims != NULL && nd != NULL;
  if (ok) {
    for (i = 0; i < old; i++) {
      dims[i] = cur->list.shape[i].dims;
      nd[i] = cur->list.shape[i].num_dims;
    }
    for (i = old; i < old + n; i++) nd[i] = -1;
    ok = tfe_attr_value_set_shape_list(&v, dims, nd, old + n);
  }
  tfe_free((void*)dims);
  tfe_free(nd);
  return ok && tfe_attrs_put(&op->attrs, attr, &v);
}

/* The branch attrs of an If or Case node. */
static int set_branches(TF_Operation* op, char* const* names, int nb) {
  tfe_attr_value v;
  int i;
  if (strstr(op->op_type, "If") != NULL) {
    return set_attr_func(op, "then_branch", names[0]) &&
           set_attr_func(op, "else_branch", names[1]);
  }
  memset(&v, 0, sizeof v);
  v.type = TF_ATTR_FUNC;
  v.is_list = 1;
  v.list_size = nb;
  v.list.s.data = (char**)tfe_calloc((size_t)nb + 1, sizeof(char*));
  v.list.s.len = (size_t*)tfe_calloc((size_t)nb + 1, sizeof(size_t));
  if (v.list.s.data == NULL || v.list.s.len == NULL) {
    tfe_attr_value_clear(&v);
    return 0;
  }
  for (i = 0; i < nb; i++) {
    v.list.s.data[i] = tfe_strdup(names[i]);
    v.list.s.len[i] = strlen(names[i]);
    if (v.list.s.data[i] == NULL) {
      tfe_attr_value_clear(&v);
      return 0;
    }
  }
  return tfe_attrs_put(&op->attrs, "branches", &v);
}

static int cond_forward_gradient(TFE_GradientContext* g, char* const* names, int nb,
                                 TF_Status* s) {
  fwd_scope* sc = t_scope;
  TFE_Context* ctx;
  TF_Graph* graph;
  tfe_flib* lib;
  TF_Output o;
  TF_Operation *fop, *nop, *gop;
  const split* ps[MAX_BRANCHES];
  const cfwd* c;
  TF_Output* ins = NULL;
  TF_DataType *tin = NULL, *tout = NULL;
  int i, b, nin = 0, nout = 0, k, mode;
  if (g->num_outputs == 0 || nb < 1 || nb > MAX_BRANCHES ||
      TFE_AbstractTensorIsEager(g->outputs[0])) {
    return 0;
  }
  if (!tfe_unified_output_of(g->outputs[0], &o) || o.oper == NULL) return 0;
  fop = o.oper;
  mode = graph_rewritable(fop->graph);
  if (mode == 0 || (mode == 2 && !stage_is_fwd(sc->st, fop)) ||
      strcmp(fop->op_type, g->op_type) != 0 || fop->num_outputs != g->num_outputs) {
    return 0;
  }
  lib = context_lib(g, &ctx, &graph, s);
  if (lib == NULL || !GL_OK(s)) return 1;
  if (all_safe(lib, (const char* const*)names, nb, s)) return !GL_OK(s);
  for (b = 0; b < nb; b++) {
    ps[b] = split_of(lib, names[b], s);
    if (ps[b] == NULL) return 1;
    split_install(ps[b], NULL, graph, 1, s);
    if (!GL_OK(s)) return 1;
  }
  c = cfwd_of(lib, ps, nb, s);
  if (c == NULL) return 1;
  if (c->nargs != fop->num_inputs - 1 || c->nrets != fop->num_outputs) {
    tfe_status_setf(s, TF_INTERNAL, "gradient of %s: branch signature mismatch", g->op_type);
    return 1;
  }
  for (b = 0; b < nb; b++) {
    dep_install(NULL, graph, c->fwd[b], s);
    dep_install(NULL, graph, c->bwd[b], s);
  }
  if (!GL_OK(s)) return 1;
  ins = (TF_Output*)tfe_calloc((size_t)(c->nargs + c->nopt + c->nrets) + 1, sizeof *ins);
  tin = (TF_DataType*)tfe_calloc((size_t)(c->nargs + c->nopt + c->nrets) + 1, sizeof *tin);
  tout = (TF_DataType*)tfe_calloc((size_t)(c->nrets + c->nopt + c->nargs) + 1, sizeof *tout);
  if (ins == NULL || tin == NULL || tout == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    goto done;
  }
  /* the forward node, saving the branches' values */
  for (i = 0; i < c->nargs; i++) {
    ins[nin] = fop->inputs[1 + i];
    tin[nin++] = TF_OperationOutputType(fop->inputs[1 + i]);
  }
  for (i = 0; i < c->nrets; i++) tout[nout++] = fop->output_types[i];
  for (i = 0; i < c->nopt; i++) tout[nout++] = TF_VARIANT;
  if (mode == 1) {
    /* the caller's graph: the node itself changes (its outputs may be
     * fetched), as TF's cond_v2 rewrites the forward If */
    if (!op_add_outputs(fop, tout + c->nrets, c->nopt, s)) goto done;
    if (!set_branches(fop, c->fwd_names, nb) ||
        !extend_attr_types(fop, "Tout", tout + c->nrets, c->nopt) ||
        !extend_attr_shapes(fop, "output_shapes", c->nopt)) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      goto done;
    }
    nop = fop;
  } else {
    nop = cond_node(graph, fop, "fwd", ins, tin, nin, tout, nout, c->fwd_names, nb, s);
    if (nop == NULL || !GL_OK(s)) goto done;
    redirect(sc->st, fop, nop, 0, c->nrets, s);
    if (!GL_OK(s)) goto done;
    if (!op_push(&sc->st->dead, &sc->st->ndead, &sc->st->capdead, fop) ||
        !op_push(&sc->st->added, &sc->st->nadded, &sc->st->capadded, nop)) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      goto done;
    }
  }
  if (c->nout == 0) goto done;
  /* the gradient node */
  for (i = 0; i < c->nopt; i++) {
    ins[nin] = (TF_Output){nop, c->nrets + i};
    tin[nin++] = TF_VARIANT;
  }
  for (i = 0; i < c->nrets && GL_OK(s); i++) {
    TF_AbstractTensor* d;
    if (!c->ps[0]->dy[i]) continue;
    d = TFE_GradientContextOutputGradient(g, i);
    if (d == NULL || !tfe_unified_output_of(d, &ins[nin])) {
      char nm[700];
      snprintf(nm, sizeof nm, "%.600s/tfe_zeros_%d", nop->name, i);
      ins[nin] = add_unary(graph, "ZerosLike", nm, (TF_Output){nop, i}, 0, s);
    }
    tin[nin++] = c->ps[0]->rtypes[i];
  }
  if (!GL_OK(s)) goto done;
  nout = 0;
  for (i = 0; i < c->nargs; i++) {
    if (c->mask[i]) tout[nout++] = c->gtypes[i];
  }
  gop = cond_node(graph, fop, "grad", ins, tin, nin, tout, nout, c->bwd_names, nb, s);
  if (gop == NULL || !GL_OK(s)) goto done;
  k = 0;
  for (i = 0; i < c->nargs && GL_OK(s); i++) {
    TF_AbstractTensor* t;
    if (!c->mask[i]) continue;
    t = tfe_unified_wrap_output(g->ec, (TF_Output){gop, k++});
    if (t == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      break;
    }
    gu_give(g, 1 + i, t, s);
  }
done:
  tfe_free(ins);
  tfe_free(tin);
  tfe_free(tout);
  return 1;
}

/* The scope's stage when g's forward node belongs to the forward part of
 * the body a split is being built from (else NULL); *fop the node. */
static stage* scope_node(TFE_GradientContext* g, TF_Operation** fop) {
  fwd_scope* sc = t_scope;
  TF_Output o;
  if (sc == NULL || g->num_outputs == 0) return NULL;
  if (!tfe_unified_output_of(g->outputs[0], &o) || o.oper == NULL) return NULL;
  if (o.oper->graph != sc->st->body || !stage_is_fwd(sc->st, o.oper) ||
      strcmp(o.oper->op_type, g->op_type) != 0 || o.oper->num_outputs != g->num_outputs) {
    return NULL;
  }
  *fop = o.oper;
  return sc->st;
}

static TF_Output graph_unary(TF_Graph* graph, TF_Operation* near, const char* type,
                             TF_Output in, TF_DataType dtype_attr, TF_Status* s) {
  static atomic_int counter;
  char nm[700];
  snprintf(nm, sizeof nm, "%.600s/tfe_%s_%d", near->name, type, atomic_fetch_add(&counter, 1));
  return add_unary(graph, type, nm, in, dtype_attr, s);
}

static TF_Output graph_i32(TF_Graph* graph, TF_Operation* near, int32_t v, TF_Status* s) {
  static atomic_int counter;
  char nm[700];
  snprintf(nm, sizeof nm, "%.600s/tfe_const_%d", near->name, atomic_fetch_add(&counter, 1));
  return sg_i32(graph, nm, v, s);
}

/* A While like fop (type, control inputs) over in[0..n) of types T. */
static TF_Operation* while_node(TF_Graph* graph, TF_Operation* fop, const char* what,
                                const TF_Output* in, const TF_DataType* T, int n,
                                const char* cond, const char* body, TF_Status* s) {
  static atomic_int counter;
  TF_OperationDescription* d;
  char name[700];
  int j;
  snprintf(name, sizeof name, "%.600s/tfe_%s_%d", fop->name, what,
           atomic_fetch_add(&counter, 1));
  sg_new(graph, fop->op_type, name, s, &d);
  if (d == NULL) return NULL;
  TF_AddInputList(d, in, n);
  TF_SetAttrTypeList(d, "T", T, n);
  TF_SetAttrFuncName(d, "cond", cond, strlen(cond));
  TF_SetAttrFuncName(d, "body", body, strlen(body));
  if (strcmp(what, "fwd") == 0) {
    for (j = 0; j < fop->num_control_inputs; j++) TF_AddControlInput(d, fop->control_inputs[j]);
  }
  return sg_finish(d, s);
}

/* The gradient of a While node of a body a split is built from, from
 * forward values (TF's while_v2): the node is replaced by a loop that also
 * counts its iterations and pushes, per iteration, the loop variables the
 * body changes and the body's saved values (its split) onto TensorLists;
 * the backward loop pops them and calls the body's split backward
 * function. 1 when done (or failed, status set), 0 when g's node is not
 * such a node. */
static int while_forward_gradient(TFE_GradientContext* g, const char* cond, const char* body,
                                  TF_Status* s) {
  TF_Operation *fop = NULL, *nop, *bop;
  stage* st = scope_node(g, &fop);
  TFE_Context* ctx;
  TF_Graph* graph;
  tfe_flib* lib;
  const split* sp;
  const wplan* w;
  TF_Output* in = NULL;
  TF_DataType* T = NULL;
  int i, n, k, nin = 0, cap, first_new;
  if (st == NULL) return 0;
  lib = context_lib(g, &ctx, &graph, s);
  if (lib == NULL || !GL_OK(s)) return 1;
  {
    const char* fns[2];
    fns[0] = cond;
    fns[1] = body;
    if (all_safe(lib, fns, 2, s)) return !GL_OK(s);
  }
  sp = split_of(lib, body, s);
  if (sp == NULL) return 1;
  split_install(sp, NULL, graph, 1, s);
  if (!GL_OK(s)) return 1;
  w = while_plan_of(lib, cond, body, sp, s);
  if (w == NULL) return 1;
  n = w->n;
  if (n != fop->num_inputs || n != fop->num_outputs) {
    tfe_status_setf(s, TF_INTERNAL, "gradient of %s: %d inputs for %d loop variables",
                    g->op_type, fop->num_inputs, n);
    return 1;
  }
  if (w->ncar == 0 || sp->nout == 0) return 1;
  for (i = 0; i < 4 && GL_OK(s); i++) dep_install(NULL, graph, w->fns[i], s);
  if (!GL_OK(s)) return 1;
  cap = 2 + 2 * n + w->nacc + w->ncar + w->ninv;
  in = (TF_Output*)tfe_calloc((size_t)cap, sizeof *in);
  T = (TF_DataType*)tfe_calloc((size_t)cap, sizeof *T);
  if (in == NULL || T == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    goto done;
  }
  /* the forward loop, accumulating (it and its new inputs are forward
   * nodes) */
  first_new = graph->num_ops;
  T[nin] = TF_INT32;
  in[nin++] = graph_i32(graph, fop, 0, s);
  for (i = 0; i < n; i++) {
    T[nin] = w->T[i];
    in[nin++] = fop->inputs[i];
  }
  for (k = 0; k < w->nacc && GL_OK(s); k++) {
    TF_OperationDescription* d;
    TF_Output shape = graph_i32(graph, fop, -1, s);
    char nm[700];
    int q = -1, j;
    TF_DataType et;
    if (k < w->nvacc) { /* the k-th loop variable the body changes */
      for (j = 0; j < n; j++) {
        if (!w->inv[j] && ++q == k) break;
      }
      et = w->T[j];
    } else {
      et = sp->xtypes[k - w->nvacc];
    }
    snprintf(nm, sizeof nm, "%.600s/tfe_acc_%d", fop->name, k);
    sg_new(graph, "EmptyTensorList", nm, s, &d);
    if (d == NULL) break;
    TF_AddInput(d, shape);
    TF_AddInput(d, shape);
    TF_SetAttrType(d, "element_dtype", et);
    TF_SetAttrType(d, "shape_type", TF_INT32);
    T[nin] = TF_VARIANT;
    in[nin++] = (TF_Output){sg_finish(d, s), 0};
  }
  if (!GL_OK(s)) goto done;
  nop = while_node(graph, fop, "fwd", in, T, nin, w->names[0], w->names[1], s);
  if (nop == NULL || !GL_OK(s)) goto done;
  redirect(st, fop, nop, 1, n, s);
  if (!GL_OK(s)) goto done;
  if (!op_push(&st->dead, &st->ndead, &st->capdead, fop)) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    goto done;
  }
  for (i = first_new; i <= nop->id; i++) {
    if (!op_push(&st->added, &st->nadded, &st->capadded, graph->ops[i])) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      goto done;
    }
  }
  /* the backward loop: (count, carried gradients, lists, invariants) */
  nin = 0;
  T[nin] = TF_INT32;
  in[nin++] = (TF_Output){nop, 0};
  for (i = 0; i < n && GL_OK(s); i++) {
    TF_AbstractTensor* d;
    if (!w->carried[i]) continue;
    T[nin] = w->ctype[i];
    if (w->T[i] == TF_RESOURCE) {
      TF_Output val = graph_unary(graph, fop, "ReadVariableOp", fop->inputs[i], w->ctype[i], s);
      if (GL_OK(s)) in[nin] = graph_unary(graph, fop, "ZerosLike", val, 0, s);
    } else {
      d = TFE_GradientContextOutputGradient(g, i);
      if (d == NULL || !tfe_unified_output_of(d, &in[nin])) {
        in[nin] = graph_unary(graph, fop, "ZerosLike", (TF_Output){nop, 1 + i}, 0, s);
      }
    }
    nin++;
  }
  for (i = 0; i < w->nacc; i++) {
    T[nin] = TF_VARIANT;
    in[nin++] = (TF_Output){nop, 1 + n + i};
  }
  for (i = 0; i < n; i++) {
    if (!w->inv[i]) continue;
    T[nin] = w->T[i];
    in[nin++] = fop->inputs[i];
  }
  if (!GL_OK(s)) goto done;
  bop = while_node(graph, fop, "grad", in, T, nin, w->names[2], w->names[3], s);
  if (bop == NULL || !GL_OK(s)) goto done;
  for (i = 0, k = 1; i < n && GL_OK(s); i++) {
    TF_AbstractTensor* t;
    if (!w->carried[i]) continue;
    t = tfe_unified_wrap_output(g->ec, (TF_Output){bop, k++});
    if (t == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      break;
    }
    gu_give(g, i, t, s);
  }
done:
  tfe_free(in);
  tfe_free(T);
  return 1;
}

/* ---- forward values of a call node of a graph ----
 *
 * TF's gradient of a call in a graph rewrites the call in place: it calls
 * the forward variant and gains the saved values as extra outputs, which
 * the backward function reads (so nothing runs twice and the values a
 * session fetches from the call are the ones the gradient uses). tfe does
 * the same to a PartitionedCall / StatefulPartitionedCall node or a call
 * by the function's name, in a user's graph (TF_AddGradients) as in a
 * body a split is built from. */

/* Gives op n more outputs of types `types` (TF's Operation._add_outputs).
 * Its per-output arrays move to the graph's arena (released with the
 * graph). 0 with the status set on failure (op unchanged). */
static int op_add_outputs(TF_Operation* op, const TF_DataType* types, int n, TF_Status* s) {
  TF_Graph* g = op->graph;
  int old = op->num_outputs, tot = old + n, i;
  size_t off_cons, off_types, off_ncons, off_capc, bytes;
  char* blk;
  tfe_handle_data* hd = NULL;
  if (!op->packed) {
    tfe_status_setf(s, TF_UNIMPLEMENTED, "gradient: node '%s' cannot gain outputs", op->name);
    return 0;
  }
  off_cons = ((size_t)tot * sizeof(tfe_shape) + 7) & ~(size_t)7;
  off_types = off_cons + (size_t)tot * sizeof(TF_Input*);
  off_ncons = (off_types + (size_t)tot * sizeof(TF_DataType) + 7) & ~(size_t)7;
  off_capc = off_ncons + (size_t)tot * sizeof(int);
  bytes = off_capc + (size_t)tot * sizeof(int);
  pthread_mutex_lock(&g->mu);
  blk = (char*)tfe_graph_arena_alloc(g, bytes);
  if (blk == NULL && tfe_graph_arena_grow(g, bytes)) blk = (char*)tfe_graph_arena_alloc(g, bytes);
  if (blk != NULL && op->handle_data != NULL) {
    hd = (tfe_handle_data*)tfe_calloc((size_t)tot, sizeof *hd);
    if (hd == NULL) blk = NULL;
  }
  if (blk == NULL) {
    pthread_mutex_unlock(&g->mu);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return 0;
  }
  {
    tfe_shape* shapes = (tfe_shape*)blk;
    TF_Input** cons = (TF_Input**)(blk + off_cons);
    TF_DataType* otypes = (TF_DataType*)(blk + off_types);
    int* ncons = (int*)(blk + off_ncons);
    int* capc = (int*)(blk + off_capc);
    for (i = 0; i < old; i++) {
      shapes[i] = op->output_shapes[i];
      cons[i] = op->consumers[i];
      otypes[i] = op->output_types[i];
      ncons[i] = op->num_consumers[i];
      capc[i] = op->cap_consumers[i];
    }
    for (i = old; i < tot; i++) {
      shapes[i].num_dims = -1;
      shapes[i].dims = NULL;
      otypes[i] = types[i - old];
    }
    if (hd != NULL) {
      memcpy(hd, op->handle_data, (size_t)old * sizeof *hd);
      tfe_free(op->handle_data);
      op->handle_data = hd;
    }
    op->output_shapes = shapes;
    op->consumers = cons;
    op->output_types = otypes;
    op->num_consumers = ncons;
    op->cap_consumers = capc;
    op->num_outputs = tot;
  }
  atomic_fetch_add(&g->generation, 1);
  pthread_mutex_unlock(&g->mu);
  return 1;
}

static int set_attr_func(TF_Operation* op, const char* attr, const char* fname) {
  tfe_attr_value v;
  memset(&v, 0, sizeof v);
  v.type = TF_ATTR_FUNC;
  v.v.s.data = tfe_strdup(fname);
  v.v.s.len = strlen(fname);
  if (v.v.s.data == NULL) return 0;
  return tfe_attrs_put(&op->attrs, attr, &v);
}

/* attr = its current type list followed by more[0..n). */
static int extend_attr_types(TF_Operation* op, const char* attr, const TF_DataType* more,
                             int n) {
  const tfe_attr_value* cur = tfe_attrs_find(&op->attrs, attr);
  tfe_attr_value v;
  int old = cur != NULL && cur->is_list ? cur->list_size : 0;
  memset(&v, 0, sizeof v);
  v.type = TF_ATTR_TYPE;
  v.is_list = 1;
  v.list_size = old + n;
  v.list.type = (TF_DataType*)tfe_calloc((size_t)(old + n) + 1, sizeof(TF_DataType));
  if (v.list.type == NULL) return 0;
  if (old > 0) memcpy(v.list.type, cur->list.type, (size_t)old * sizeof(TF_DataType));
  memcpy(v.list.type + old, more, (size_t)n * sizeof(TF_DataType));
  return tfe_attrs_put(&op->attrs, attr, &v);
}

/* The gradient of a call node of a graph from forward values: 1 when done
 * (or failed, status set), 0 when g is not such a node (an eager call,
 * or a node already rewritten). */
static int call_forward_gradient(TFE_GradientContext* g, const char* fname, TF_Status* s) {
  TFE_Context* ctx;
  TF_Graph* graph;
  tfe_flib* lib;
  TF_Output o;
  TF_Operation* x;
  const split* p;
  TF_AbstractTensor** buf;
  TF_AbstractOp* op;
  int i, k, by_name, nbuf;
  if (g->num_outputs == 0 || TFE_AbstractTensorIsEager(g->outputs[0])) return 0;
  if (!tfe_unified_output_of(g->outputs[0], &o) || o.oper == NULL) return 0;
  x = o.oper;
  if (graph_rewritable(x->graph) == 0) return 0;
  by_name = strcmp(x->op_type, fname) == 0;
  if (x->num_outputs != g->num_outputs || x->num_inputs != g->num_inputs ||
      (!by_name && strcmp(x->op_type, "PartitionedCall") != 0 &&
       strcmp(x->op_type, "StatefulPartitionedCall") != 0)) {
    return 0;
  }
  lib = context_lib(g, &ctx, &graph, s);
  if (lib == NULL || !GL_OK(s)) return 1;
  if (all_safe(lib, &fname, 1, s)) return !GL_OK(s);
  p = split_of(lib, fname, s);
  if (p == NULL) return 1;
  if (p->nrets != x->num_outputs || p->nargs != x->num_inputs) {
    tfe_status_setf(s, TF_INTERNAL, "gradient of a call of '%s': %d inputs for %d arguments",
                    fname, x->num_inputs, p->nargs);
    return 1;
  }
  split_install(p, NULL, graph, 1, s);
  if (!GL_OK(s)) return 1;
  if (p->nout == 0) return 1;
  /* the node calls the variant and returns the saved values too */
  if (by_name) {
    const tfe_op_def* def = tfe_flib_signature(tfe_graph_flib(graph), p->fwd_name);
    char* type = (char*)tfe_graph_arena_alloc(graph, strlen(p->fwd_name) + 1);
    if (type == NULL && tfe_graph_arena_grow(graph, strlen(p->fwd_name) + 1)) {
      type = (char*)tfe_graph_arena_alloc(graph, strlen(p->fwd_name) + 1);
    }
    if (def == NULL || type == NULL) {
      tfe_status_setf(s, def == NULL ? TF_INTERNAL : TF_RESOURCE_EXHAUSTED,
                      "gradient of a call of '%s': cannot call its forward variant", fname);
      return 1;
    }
    memcpy(type, p->fwd_name, strlen(p->fwd_name) + 1);
    if (!op_add_outputs(x, p->xtypes, p->nextra, s)) return 1;
    if (!x->packed) tfe_free(x->op_type); /* (never: op_add_outputs wants packed) */
    x->op_type = type;
    x->def = def;
  } else {
    if (!op_add_outputs(x, p->xtypes, p->nextra, s)) return 1;
    if (!set_attr_func(x, "f", p->fwd_name) ||
        !extend_attr_types(x, "Tout", p->xtypes, p->nextra)) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
      return 1;
    }
  }
  /* the backward function on the arguments, the saved values and the
   * upstream gradients */
  nbuf = p->nextra + p->nrets + p->nout + 1;
  buf = (TF_AbstractTensor**)tfe_calloc((size_t)nbuf, sizeof *buf);
  if (buf == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return 1;
  }
  k = 0;
  for (i = 0; i < p->nextra; i++) {
    buf[k] = tfe_unified_wrap_output(g->ec, (TF_Output){x, p->nrets + i});
    if (buf[k++] == NULL) tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
  }
  for (i = 0; i < p->nrets && GL_OK(s); i++) {
    if (p->dy[i]) buf[k++] = gl_grad_or_zeros(g, i, s);
  }
  op = gl_op(g, p->bwd_name, s);
  for (i = 0; i < p->nargs; i++) gl_in(op, g->inputs[i], s);
  for (i = 0; i < k; i++) gl_in(op, buf[i], s);
  gl_free(buf, k);
  gl_fin_n(op, p->nout, buf, s);
  k = 0;
  for (i = 0; i < p->nargs; i++) {
    if (!p->mask[i]) continue;
    gu_give(g, i, buf[k], s);
    buf[k++] = NULL;
  }
  gl_free(buf, p->nout);
  tfe_free(buf);
  return 1;
}

int tfe_grad_register_func(void) {
  return tfe_grad_register_builtin("PartitionedCall", grad_partitioned_call) &&
         tfe_grad_register_builtin("StatefulPartitionedCall", grad_partitioned_call) &&
         tfe_grad_register_builtin("If", grad_if) &&
         tfe_grad_register_builtin("StatelessIf", grad_if) &&
         tfe_grad_register_builtin("Case", grad_case) &&
         tfe_grad_register_builtin("StatelessCase", grad_case) &&
         tfe_grad_register_builtin("While", grad_while) &&
         tfe_grad_register_builtin("StatelessWhile", grad_while) &&
         tfe_grad_register_builtin("TensorListPushBack", grad_list_push_back) &&
         tfe_grad_register_builtin("TensorListPopBack", grad_list_pop_back) &&
         tfe_grad_register_builtin("TensorListStack", grad_list_stack) &&
         tfe_grad_register_builtin("TensorListFromTensor", grad_list_from_tensor) &&
         tfe_grad_register_builtin("TensorListGetItem", grad_list_get_item) &&
         tfe_grad_register_builtin("TensorListSetItem", grad_list_set_item) &&
         tfe_grad_register_builtin("TensorListGather", grad_list_gather) &&
         tfe_grad_register_builtin("TensorListScatter", grad_list_scatter) &&
         tfe_grad_register_builtin("TensorListScatterV2", grad_list_scatter) &&
         tfe_grad_register_builtin("TensorListScatterIntoExistingList",
                                   grad_list_scatter_existing) &&
         tfe_grad_register_builtin("TensorListResize", grad_list_resize) &&
         tfe_grad_register_builtin("TensorListLength", NULL) &&
         tfe_grad_register_builtin("TensorListElementShape", NULL) &&
         tfe_grad_register_builtin("TensorListConcatLists", NULL) &&
         tfe_grad_register_builtin("TensorListPushBackBatch", NULL) &&
         tfe_grad_register_builtin("TensorArrayReadV3", grad_ta_read) &&
         tfe_grad_register_builtin("TensorArrayGatherV3", grad_ta_gather) &&
         tfe_grad_register_builtin("TensorArrayWriteV3", grad_ta_write) &&
         tfe_grad_register_builtin("TensorArrayScatterV3", grad_ta_scatter) &&
         tfe_grad_register_builtin("TensorArrayV3", NULL) &&
         tfe_grad_register_builtin("TensorArrayGradV3", NULL) &&
         tfe_grad_register_builtin("TensorArraySizeV3", NULL) &&
         tfe_grad_register_builtin("TensorArrayCloseV3", NULL) &&
         tfe_grad_register_builtin("OptionalFromValue", grad_optional_from_value) &&
         tfe_grad_register_builtin("OptionalGetValue", grad_optional_get_value);
}
