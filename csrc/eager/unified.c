/* The unified execution API (tensorflow/c/eager/c_api_unified_experimental.h):
 * one way to build ops for eager execution and for tracing a function.
 *
 * An eager context owns a TFE_Context and turns each abstract op into a
 * TFE_Op run with TFE_Execute. A tracing context owns a TF_Graph (inside a
 * reference-counted "trace", which the tensors and ops made from it share,
 * so that a value outliving its context is still safe to free or to pass
 * where it is refused) and turns each abstract op into a node, built with
 * the graph API; TF_FinalizeFunction hands the graph to TF_GraphToFunction
 * with the parameters in the order they were added. Nothing here knows
 * about kernels or executors: both paths go through the public C API, so
 * the ops run by the one runtime of tfe. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/eager_internal.h"
#include "eager/tape.h"
#include "graph/graph_internal.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/eager/c_api_unified_experimental.h"
#include "tensorflow/c/logging.h"
#include "tfe/unified.h"

typedef enum { KIND_EAGER = 1, KIND_TRACE = 2 } ctx_kind;

/* The graph of one traced function, shared by its context, ops and values. */
typedef struct trace {
  atomic_int refs;
  TF_Graph* graph;
  int graph_borrowed; /* a graph of the caller's (TF_AddGradients) */
  char* prefix;       /* node-name prefix of gradient ops, or NULL */
  char* fn_name;
  TF_Output* params;
  int num_params, cap_params;
} trace;

struct TF_ExecutionContext {
  ctx_kind kind;
  TFE_Context* eager; /* KIND_EAGER: owned unless `borrowed` */
  int borrowed;
  trace* tr;          /* KIND_TRACE: one reference */
  const char* device; /* KIND_EAGER: where new ops are placed (borrowed), or NULL */
};

struct TF_AbstractTensor {
  ctx_kind kind;
  TFE_TensorHandle* handle; /* KIND_EAGER: owned */
  trace* tr;                /* KIND_TRACE: one reference */
  TF_Output out;
};

struct TF_AbstractOp {
  ctx_kind kind;
  TFE_Context* eager; /* borrowed from the context */
  const char* device; /* KIND_EAGER: the context's device when the op was made */
  TFE_Op* op;         /* KIND_EAGER: owned, made by SetOpType */
  trace* tr;          /* KIND_TRACE: one reference */
  char* type;         /* KIND_TRACE: set by SetOpType */
  TF_OperationDescription* desc; /* KIND_TRACE: made by SetOpName */
  int done;
};

struct TF_OutputList {
  TF_AbstractTensor** items;
  int n, cap;
  int expected;
};

struct TF_AbstractFunction {
  TF_Function* fn;
};

/* The only tracing engine (TF_SetTracingImplementation names it). */
static const char kEngine[] = "graphdef";

/* A NULL status: nothing can report the failure, so the call does nothing
 * (as TFE_Execute). */
#define NEED_STATUS(s, fn)                                       \
  do {                                                           \
    if ((s) == NULL) {                                           \
      TF_Log(TF_WARNING, "%s called with a NULL status; ignored", fn); \
      return 0;                                                  \
    }                                                            \
  } while (0)

static void trace_unref(trace* t) {
  if (t == NULL) return;
  if (atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) != 1) return;
  if (!t->graph_borrowed) TF_DeleteGraph(t->graph);
  tfe_free(t->prefix);
  tfe_free(t->fn_name);
  tfe_free(t->params);
  tfe_free(t);
}

static trace* trace_ref(trace* t) {
  atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
  return t;
}

/* ---- tracing engine ---- */

void TF_SetTracingImplementation(const char* name, TF_Status* s) {
  if (s == NULL) {
    TF_Log(TF_WARNING, "TF_SetTracingImplementation called with a NULL status; ignored");
    return;
  }
  if (name != NULL && strcmp(name, kEngine) == 0) {
    tfe_status_ok(s);
    return;
  }
  tfe_status_setf(s, TF_INVALID_ARGUMENT,
                  "No tracing engine factory has been registered with the key "
                  "'%s' (available: %s)",
                  name == NULL ? "(null)" : name, kEngine);
}

/* ---- contexts ---- */

static TF_ExecutionContext* create_function(const char* fn_name, TF_Status* s) {
  TF_ExecutionContext* c;
  trace* t;
  NEED_STATUS(s, "TF_CreateFunction");
  if (fn_name == NULL || fn_name[0] == '\0') {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_CreateFunction: the function needs a non-empty name");
    return NULL;
  }
  c = (TF_ExecutionContext*)tfe_calloc(1, sizeof *c);
  t = (trace*)tfe_calloc(1, sizeof *t);
  if (c == NULL || t == NULL) goto oom;
  t->graph = TF_NewGraph();
  t->fn_name = tfe_strdup(fn_name);
  if (t->graph == NULL || t->fn_name == NULL) goto oom;
  atomic_init(&t->refs, 1);
  c->kind = KIND_TRACE;
  c->tr = t;
  tfe_status_ok(s);
  return c;
oom:
  if (t != NULL) {
    TF_DeleteGraph(t->graph);
    tfe_free(t->fn_name);
  }
  tfe_free(t);
  tfe_free(c);
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_CreateFunction: out of memory");
  return NULL;
}

TF_ExecutionContext* TF_CreateFunction(const char* fn_name, TF_Status* s) {
  return create_function(fn_name, s);
}

TF_ExecutionContext* TF_NewEagerExecutionContext(TFE_ContextOptions* opts,
                                                 TF_Status* s) {
  TF_ExecutionContext* c;
  TFE_Context* ctx;
  NEED_STATUS(s, "TF_NewEagerExecutionContext");
  if (opts == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_NewEagerExecutionContext: options must not be NULL");
    return NULL;
  }
  c = (TF_ExecutionContext*)tfe_calloc(1, sizeof *c);
  if (c == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "TF_NewEagerExecutionContext: out of memory");
    return NULL;
  }
  ctx = TFE_NewContext(opts, s);
  if (ctx == NULL || TF_GetCode(s) != TF_OK) {
    if (ctx != NULL) TFE_DeleteContext(ctx);
    tfe_free(c);
    return NULL;
  }
  c->kind = KIND_EAGER;
  c->eager = ctx;
  return c;
}

void TF_DeleteExecutionContext(TF_ExecutionContext* c) {
  if (c == NULL) return;
  if (c->kind == KIND_EAGER && !c->borrowed) TFE_DeleteContext(c->eager);
  trace_unref(c->tr);
  tfe_free(c);
}

TFE_Context* TF_ExecutionContextGetTFEContext(TF_ExecutionContext* c,
                                              TF_Status* s) {
  NEED_STATUS(s, "TF_ExecutionContextGetTFEContext");
  if (c == NULL || c->kind != KIND_EAGER) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_ExecutionContextGetTFEContext: not an eager context");
    return NULL;
  }
  tfe_status_ok(s);
  return c->eager;
}

/* ---- tensors ---- */

static TF_AbstractTensor* new_traced(trace* t, TF_Output out) {
  TF_AbstractTensor* at = (TF_AbstractTensor*)tfe_calloc(1, sizeof *at);
  if (at == NULL) return NULL;
  at->kind = KIND_TRACE;
  at->tr = trace_ref(t);
  at->out = out;
  return at;
}

void TF_DeleteAbstractTensor(TF_AbstractTensor* t) {
  if (t == NULL) return;
  if (t->kind == KIND_EAGER) TFE_DeleteTensorHandle(t->handle);
  trace_unref(t->tr);
  tfe_free(t);
}

TF_AbstractTensor* TF_CreateAbstractTensorFromEagerTensor(TFE_TensorHandle* h,
                                                          TF_Status* s) {
  TF_AbstractTensor* at;
  NEED_STATUS(s, "TF_CreateAbstractTensorFromEagerTensor");
  if (h == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_CreateAbstractTensorFromEagerTensor: the handle is NULL");
    return NULL;
  }
  at = (TF_AbstractTensor*)tfe_calloc(1, sizeof *at);
  if (at == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "TF_CreateAbstractTensorFromEagerTensor: out of memory");
    return NULL;
  }
  at->kind = KIND_EAGER;
  at->handle = h;
  tfe_status_ok(s);
  return at;
}

TFE_TensorHandle* TF_AbstractTensorGetEagerTensor(TF_AbstractTensor* at,
                                                  TF_Status* s) {
  NEED_STATUS(s, "TF_AbstractTensorGetEagerTensor");
  if (at == NULL || at->kind != KIND_EAGER) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_AbstractTensorGetEagerTensor: not an eager tensor handle");
    return NULL;
  }
  tfe_status_ok(s);
  return at->handle;
}

TF_AbstractTensor* TF_AddFunctionParameter(TF_ExecutionContext* func,
                                           TF_DataType dtype, TF_Shape shape,
                                           TF_Status* s) {
  trace* t;
  TF_OperationDescription* d;
  TF_Operation* oper;
  TF_AbstractTensor* at;
  char name[32];
  int i;
  NEED_STATUS(s, "TF_AddFunctionParameter");
  if (func == NULL || func->kind != KIND_TRACE) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_AddFunctionParameter must be called on a tracing context "
                    "(TF_CreateFunction)");
    return NULL;
  }
  if (shape.num_dims < -1 || (shape.num_dims > 0 && shape.dim_sizes == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_AddFunctionParameter: bad shape (num_dims %d%s)",
                    shape.num_dims,
                    shape.num_dims > 0 ? " with NULL dim_sizes" : "");
    return NULL;
  }
  for (i = 0; i < shape.num_dims; i++) {
    if (shape.dim_sizes[i] < -1) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TF_AddFunctionParameter: dimension %d is %lld; sizes are "
                      ">= 0, or -1 for unknown",
                      i, (long long)shape.dim_sizes[i]);
      return NULL;
    }
  }
  t = func->tr;
  if (t->num_params == t->cap_params) {
    int cap = t->cap_params ? 2 * t->cap_params : 4;
    TF_Output* p = (TF_Output*)tfe_realloc(t->params, (size_t)cap * sizeof *p);
    if (p == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddFunctionParameter: out of memory");
      return NULL;
    }
    t->params = p;
    t->cap_params = cap;
  }
  snprintf(name, sizeof name, "_input_%d", t->num_params);
  d = TF_NewOperation(t->graph, "Placeholder", name);
  if (d == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddFunctionParameter: out of memory");
    return NULL;
  }
  TF_SetAttrType(d, "dtype", dtype);
  if (shape.num_dims >= 0) {
    TF_SetAttrShape(d, "shape", shape.dim_sizes, shape.num_dims);
  }
  oper = TF_FinishOperation(d, s);
  if (oper == NULL || TF_GetCode(s) != TF_OK) return NULL;
  at = new_traced(t, (TF_Output){oper, 0});
  if (at == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AddFunctionParameter: out of memory");
    return NULL;
  }
  t->params[t->num_params++] = at->out;
  return at;
}

/* ---- output lists ---- */

TF_OutputList* TF_NewOutputList(void) {
  return (TF_OutputList*)tfe_calloc(1, sizeof(TF_OutputList));
}

void TF_DeleteOutputList(TF_OutputList* o) {
  if (o == NULL) return;
  tfe_free(o->items);
  tfe_free(o);
}

static int list_reserve(TF_OutputList* o, int n) {
  TF_AbstractTensor** items;
  if (n <= o->cap) return 1;
  items = (TF_AbstractTensor**)tfe_realloc(o->items, (size_t)n * sizeof *items);
  if (items == NULL) return 0;
  o->items = items;
  o->cap = n;
  return 1;
}

void TF_OutputListSetNumOutputs(TF_OutputList* o, int num_outputs, TF_Status* s) {
  if (o == NULL || num_outputs < 0) {
    if (s != NULL) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TF_OutputListSetNumOutputs: %s",
                      o == NULL ? "the list is NULL" : "num_outputs is negative");
    }
    return;
  }
  if (!list_reserve(o, num_outputs)) {
    if (s != NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_OutputListSetNumOutputs: out of memory");
    }
    return;
  }
  memset(o->items, 0, (size_t)num_outputs * sizeof *o->items);
  o->n = num_outputs;
  o->expected = num_outputs;
  if (s != NULL) tfe_status_ok(s);
}

int TF_OutputListNumOutputs(TF_OutputList* o) { return o == NULL ? 0 : o->n; }

TF_AbstractTensor* TF_OutputListGet(TF_OutputList* o, int i) {
  if (o == NULL || i < 0 || i >= o->n) return NULL;
  return o->items[i];
}

void TF_OutputListPushBack(TF_OutputList* o, TF_AbstractTensor* tensor, TF_Status* s) {
  if (o == NULL || tensor == NULL) {
    if (s != NULL) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "TF_OutputListPushBack: %s is NULL",
                      o == NULL ? "the list" : "the tensor");
    }
    return;
  }
  if (o->n == o->cap && !list_reserve(o, o->cap ? 2 * o->cap : 4)) {
    if (s != NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_OutputListPushBack: out of memory");
    }
    return;
  }
  o->items[o->n++] = tensor;
  if (s != NULL) tfe_status_ok(s);
}

/* ---- ops ---- */

TF_AbstractOp* TF_NewAbstractOp(TF_ExecutionContext* c) {
  TF_AbstractOp* op;
  if (c == NULL) return NULL;
  op = (TF_AbstractOp*)tfe_calloc(1, sizeof *op);
  if (op == NULL) return NULL;
  op->kind = c->kind;
  if (c->kind == KIND_EAGER) {
    op->eager = c->eager;
    op->device = c->device;
  } else {
    op->tr = trace_ref(c->tr);
  }
  return op;
}

void TF_DeleteAbstractOp(TF_AbstractOp* op) {
  if (op == NULL) return;
  TFE_DeleteOp(op->op);
  if (op->desc != NULL) tfe_desc_discard(op->desc);
  tfe_free(op->type);
  trace_unref(op->tr);
  tfe_free(op);
}

static int op_usable(TF_AbstractOp* op, const char* fn, TF_Status* s) {
  if (op == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: the op is NULL", fn);
    return 0;
  }
  if (op->done) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION, "%s: the op has already run", fn);
    return 0;
  }
  return 1;
}

void TF_AbstractOpSetOpType(TF_AbstractOp* op, const char* const op_type, TF_Status* s) {
  if (s == NULL) {
    TF_Log(TF_WARNING, "TF_AbstractOpSetOpType called with a NULL status; ignored");
    return;
  }
  if (!op_usable(op, "TF_AbstractOpSetOpType", s)) return;
  if (op_type == NULL || op_type[0] == '\0') {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TF_AbstractOpSetOpType: empty op type");
    return;
  }
  if (op->kind == KIND_EAGER) {
    if (op->op != NULL) {
      TFE_OpReset(op->op, op_type, op->device, s);
      return;
    }
    op->op = TFE_NewOp(op->eager, op_type, s);
    if (op->op != NULL && op->device != NULL) TFE_OpSetDevice(op->op, op->device, s);
    return;
  }
  if (op->desc != NULL) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "TF_AbstractOpSetOpType: the traced op already has a name "
                    "(its type is fixed then)");
    return;
  }
  {
    char* type = tfe_strdup(op_type);
    if (type == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AbstractOpSetOpType: out of memory");
      return;
    }
    tfe_free(op->type);
    op->type = type;
  }
  tfe_status_ok(s);
}

void TF_AbstractOpSetOpName(TF_AbstractOp* op, const char* const op_name, TF_Status* s) {
  if (s == NULL) {
    TF_Log(TF_WARNING, "TF_AbstractOpSetOpName called with a NULL status; ignored");
    return;
  }
  if (!op_usable(op, "TF_AbstractOpSetOpName", s)) return;
  if (op->kind != KIND_TRACE) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_AbstractOpSetOpName must be called on a traced op (an op "
                    "of a TF_CreateFunction context)");
    return;
  }
  if (op->desc != NULL) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "TF_AbstractOpSetOpName: the op already has a name");
    return;
  }
  if (op->type == NULL) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "TF_AbstractOpSetOpType must be called before "
                    "TF_AbstractOpSetOpName");
    return;
  }
  if (op_name == NULL || op_name[0] == '\0') {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TF_AbstractOpSetOpName: empty op name");
    return;
  }
  op->desc = TF_NewOperation(op->tr->graph, op->type, op_name);
  if (op->desc == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_AbstractOpSetOpName: out of memory");
    return;
  }
  tfe_status_ok(s);
}

void TF_AbstractOpSetAttrType(TF_AbstractOp* op, const char* const attr_name,
                              TF_DataType value, TF_Status* s) {
  if (s == NULL) {
    TF_Log(TF_WARNING, "TF_AbstractOpSetAttrType called with a NULL status; ignored");
    return;
  }
  if (!op_usable(op, "TF_AbstractOpSetAttrType", s)) return;
  if (attr_name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TF_AbstractOpSetAttrType: attr_name is NULL");
    return;
  }
  if (op->kind == KIND_EAGER) {
    if (op->op == NULL) {
      tfe_status_setf(s, TF_FAILED_PRECONDITION,
                      "TF_AbstractOpSetAttrType: set the op type first");
      return;
    }
    tfe_status_ok(s);
    TFE_OpSetAttrType(op->op, attr_name, value);
    return;
  }
  if (op->desc == NULL) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "op_type and op_name must be specified before specifying attrs.");
    return;
  }
  TF_SetAttrType(op->desc, attr_name, value);
  tfe_status_ok(s);
}

/* Puts n outputs in the list (which holds nothing the caller still
 * expects to read when this is called). */
static int list_set(TF_OutputList* o, int n) {
  if (!list_reserve(o, n)) return 0;
  o->n = n;
  return 1;
}

static void execute_eager(TF_AbstractOp* op, int num_inputs,
                          TF_AbstractTensor* const* inputs, TF_OutputList* o,
                          TF_Status* s) {
  TFE_TensorHandle* small[8];
  TFE_TensorHandle** rets = small;
  int i, n = o->expected;
  if (op->op == NULL) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "TF_ExecuteOperation: the op has no type");
    return;
  }
  for (i = 0; i < num_inputs; i++) {
    if (inputs[i]->kind != KIND_EAGER) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TF_ExecuteOperation: input %d is a traced value; an eager "
                      "op takes eager tensors",
                      i);
      return;
    }
  }
  for (i = 0; i < num_inputs; i++) {
    TFE_OpAddInput(op->op, inputs[i]->handle, s);
    if (TF_GetCode(s) != TF_OK) return;
  }
  if (n > (int)(sizeof small / sizeof small[0])) {
    rets = (TFE_TensorHandle**)tfe_calloc((size_t)n, sizeof *rets);
    if (rets == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_ExecuteOperation: out of memory");
      return;
    }
  }
  op->done = 1;
  TFE_Execute(op->op, rets, &n, s);
  if (TF_GetCode(s) == TF_OK && !list_set(o, n)) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_ExecuteOperation: out of memory");
  }
  if (TF_GetCode(s) != TF_OK) {
    if (rets != small) tfe_free(rets);
    return;
  }
  for (i = 0; i < n; i++) {
    TF_AbstractTensor* at = TF_CreateAbstractTensorFromEagerTensor(rets[i], s);
    if (at == NULL) {
      int j;
      for (j = i; j < n; j++) TFE_DeleteTensorHandle(rets[j]);
      for (j = 0; j < i; j++) TF_DeleteAbstractTensor(o->items[j]);
      o->n = 0;
      break;
    }
    o->items[i] = at;
  }
  if (rets != small) tfe_free(rets);
}

static void execute_traced(TF_AbstractOp* op, int num_inputs,
                           TF_AbstractTensor* const* inputs, TF_OutputList* o,
                           TF_Status* s) {
  TF_Operation* oper;
  TF_OperationDescription* d;
  int i, n;
  if (op->desc == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_ExecuteOperation: the traced op is incomplete (it needs a "
                    "type and a name)");
    return;
  }
  for (i = 0; i < num_inputs; i++) {
    if (inputs[i]->kind != KIND_TRACE || inputs[i]->tr != op->tr) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TF_ExecuteOperation: input %d is not a value of the "
                      "function being traced",
                      i);
      return;
    }
  }
  d = op->desc;
  op->desc = NULL;
  op->done = 1;
  for (i = 0; i < num_inputs; i++) TF_AddInput(d, inputs[i]->out);
  oper = TF_FinishOperation(d, s);
  if (oper == NULL || TF_GetCode(s) != TF_OK) return;
  n = TF_OperationNumOutputs(oper);
  if (!list_set(o, n)) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_ExecuteOperation: out of memory");
    return;
  }
  for (i = 0; i < n; i++) {
    o->items[i] = new_traced(op->tr, (TF_Output){oper, i});
    if (o->items[i] == NULL) {
      int j;
      for (j = 0; j < i; j++) TF_DeleteAbstractTensor(o->items[j]);
      o->n = 0;
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_ExecuteOperation: out of memory");
      return;
    }
  }
}

void TF_ExecuteOperation(TF_AbstractOp* op, int num_inputs,
                         TF_AbstractTensor* const* inputs, TF_OutputList* o,
                         TF_Status* s) {
  int i;
  if (s == NULL) {
    TF_Log(TF_WARNING, "TF_ExecuteOperation called with a NULL status; not run");
    return;
  }
  if (!op_usable(op, "TF_ExecuteOperation", s)) return;
  if (o == NULL || num_inputs < 0 || (num_inputs > 0 && inputs == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_ExecuteOperation: %s",
                    o == NULL ? "the output list is NULL"
                              : "inputs/num_inputs must describe an array");
    return;
  }
  for (i = 0; i < num_inputs; i++) {
    if (inputs[i] == NULL) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "TF_ExecuteOperation: input %d is NULL", i);
      return;
    }
  }
  tfe_status_ok(s);
  if (op->kind == KIND_EAGER) {
    execute_eager(op, num_inputs, inputs, o, s);
  } else {
    execute_traced(op, num_inputs, inputs, o, s);
  }
}

/* ---- functions ---- */

TF_AbstractFunction* TF_FinalizeFunction(TF_ExecutionContext* ctx,
                                         TF_OutputList* outputs, TF_Status* s) {
  TF_Output small[8] = {{NULL, 0}};
  TF_Output* outs = small;
  TF_AbstractFunction* f = NULL;
  TF_Function* fn;
  trace* t;
  int i, n;
  NEED_STATUS(s, "TF_FinalizeFunction");
  if (ctx == NULL || ctx->kind != KIND_TRACE) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Only a tracing context (TF_CreateFunction) can be turned "
                    "into a function");
    return NULL;
  }
  t = ctx->tr;
  n = outputs == NULL ? 0 : outputs->n;
  if (n > (int)(sizeof small / sizeof small[0])) {
    outs = (TF_Output*)tfe_calloc((size_t)n, sizeof *outs);
    if (outs == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_FinalizeFunction: out of memory");
      goto done;
    }
  }
  for (i = 0; i < n; i++) {
    TF_AbstractTensor* at = outputs->items[i];
    if (at == NULL || at->kind != KIND_TRACE) {
      tfe_status_setf(s, TF_UNIMPLEMENTED,
                      "TF_FinalizeFunction: result %d is not a value of the "
                      "traced function (returning an eager tensor from a "
                      "function is not supported)",
                      i);
      goto done;
    }
    if (at->tr != t) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "TF_FinalizeFunction: result %d belongs to another traced "
                      "function",
                      i);
      goto done;
    }
    outs[i] = at->out;
  }
  fn = TF_GraphToFunction(t->graph, t->fn_name, 0, -1, NULL, t->num_params,
                          t->params, n, outs, NULL, NULL, t->fn_name, s);
  if (fn == NULL || TF_GetCode(s) != TF_OK) goto done;
  f = (TF_AbstractFunction*)tfe_calloc(1, sizeof *f);
  if (f == NULL) {
    TF_DeleteFunction(fn);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TF_FinalizeFunction: out of memory");
    goto done;
  }
  f->fn = fn;
done:
  if (outs != small) tfe_free(outs);
  TF_DeleteExecutionContext(ctx);
  return f;
}

void TF_DeleteAbstractFunction(TF_AbstractFunction* f) {
  if (f == NULL) return;
  TF_DeleteFunction(f->fn);
  tfe_free(f);
}

void TF_ExecutionContextRegisterFunction(TF_ExecutionContext* ctx,
                                         TF_AbstractFunction* f, TF_Status* s) {
  if (s == NULL) {
    TF_Log(TF_WARNING,
           "TF_ExecutionContextRegisterFunction called with a NULL status; ignored");
    return;
  }
  if (ctx == NULL || f == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_ExecutionContextRegisterFunction: %s is NULL",
                    ctx == NULL ? "the context" : "the function");
    return;
  }
  if (ctx->kind == KIND_EAGER) {
    TFE_ContextAddFunction(ctx->eager, f->fn, s);
  } else {
    TF_GraphCopyFunction(ctx->tr->graph, f->fn, NULL, s);
  }
}

/* ---- tfe's extension (include/tfe/unified.h) ---- */

/* Checks that op can take attrs and inputs now: 1 when it is an eager op
 * with a type, 2 when it is a traced op with a type and a name, else 0
 * with the status set. */
static int op_target(TF_AbstractOp* op, const char* fn, TF_Status* s) {
  if (s == NULL) {
    TF_Log(TF_WARNING, "%s called with a NULL status; ignored", fn);
    return 0;
  }
  if (!op_usable(op, fn, s)) return 0;
  if (op->kind == KIND_EAGER) {
    if (op->op == NULL) {
      tfe_status_setf(s, TF_FAILED_PRECONDITION, "%s: set the op type first", fn);
      return 0;
    }
    tfe_status_ok(s);
    return 1;
  }
  if (op->desc == NULL) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "op_type and op_name must be specified before specifying attrs.");
    return 0;
  }
  tfe_status_ok(s);
  return 2;
}

static int input_fits(TF_AbstractOp* op, TF_AbstractTensor* t, int i, const char* fn,
                      TF_Status* s) {
  if (t == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: input %d is NULL", fn, i);
    return 0;
  }
  if (op->kind == KIND_EAGER && t->kind != KIND_EAGER) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: input %d is a traced value; an eager op takes eager tensors",
                    fn, i);
    return 0;
  }
  if (op->kind == KIND_TRACE && (t->kind != KIND_TRACE || t->tr != op->tr)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: input %d is not a value of the function being traced", fn, i);
    return 0;
  }
  return 1;
}

void TFE_AbstractOpAddInput(TF_AbstractOp* op, TF_AbstractTensor* input, TF_Status* s) {
  int k = op_target(op, "TFE_AbstractOpAddInput", s);
  if (k == 0 || !input_fits(op, input, 0, "TFE_AbstractOpAddInput", s)) return;
  if (k == 1) {
    TFE_OpAddInput(op->op, input->handle, s);
  } else {
    TF_AddInput(op->desc, input->out);
  }
}

void TFE_AbstractOpAddInputList(TF_AbstractOp* op, TF_AbstractTensor* const* inputs, int n,
                                TF_Status* s) {
  int i, k = op_target(op, "TFE_AbstractOpAddInputList", s);
  if (k == 0) return;
  if (n < 0 || (n > 0 && inputs == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_AbstractOpAddInputList: inputs/n must describe an array");
    return;
  }
  for (i = 0; i < n; i++) {
    if (!input_fits(op, inputs[i], i, "TFE_AbstractOpAddInputList", s)) return;
  }
  if (k == 1) {
    TFE_TensorHandle* small[8];
    TFE_TensorHandle** hs = small;
    if (n > 8) {
      hs = (TFE_TensorHandle**)tfe_calloc((size_t)n, sizeof *hs);
      if (hs == NULL) {
        tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_AbstractOpAddInputList: out of memory");
        return;
      }
    }
    for (i = 0; i < n; i++) hs[i] = inputs[i]->handle;
    TFE_OpAddInputList(op->op, hs, n, s);
    if (hs != small) tfe_free(hs);
  } else {
    TF_Output small[8];
    TF_Output* outs = small;
    if (n > 8) {
      outs = (TF_Output*)tfe_calloc((size_t)n, sizeof *outs);
      if (outs == NULL) {
        tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_AbstractOpAddInputList: out of memory");
        return;
      }
    }
    for (i = 0; i < n; i++) outs[i] = inputs[i]->out;
    TF_AddInputList(op->desc, outs, n);
    if (outs != small) tfe_free(outs);
  }
}

/* The attr setters: one check, then the eager or the graph setter. */
#define ATTR_CHECK(fn)                                                        \
  int k_ = op_target(op, fn, s);                                              \
  if (k_ == 0) return;                                                        \
  if (attr_name == NULL) {                                                    \
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: attr_name is NULL", fn);     \
    return;                                                                   \
  }

void TFE_AbstractOpSetAttrInt(TF_AbstractOp* op, const char* attr_name, int64_t value,
                              TF_Status* s) {
  ATTR_CHECK("TFE_AbstractOpSetAttrInt")
  if (k_ == 1) TFE_OpSetAttrInt(op->op, attr_name, value);
  else TF_SetAttrInt(op->desc, attr_name, value);
}

void TFE_AbstractOpSetAttrFloat(TF_AbstractOp* op, const char* attr_name, float value,
                                TF_Status* s) {
  ATTR_CHECK("TFE_AbstractOpSetAttrFloat")
  if (k_ == 1) TFE_OpSetAttrFloat(op->op, attr_name, value);
  else TF_SetAttrFloat(op->desc, attr_name, value);
}

void TFE_AbstractOpSetAttrBool(TF_AbstractOp* op, const char* attr_name, unsigned char value,
                               TF_Status* s) {
  ATTR_CHECK("TFE_AbstractOpSetAttrBool")
  if (k_ == 1) TFE_OpSetAttrBool(op->op, attr_name, value);
  else TF_SetAttrBool(op->desc, attr_name, value);
}

void TFE_AbstractOpSetAttrString(TF_AbstractOp* op, const char* attr_name, const void* value,
                                 size_t length, TF_Status* s) {
  ATTR_CHECK("TFE_AbstractOpSetAttrString")
  if (value == NULL && length > 0) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_AbstractOpSetAttrString: value is NULL");
    return;
  }
  if (k_ == 1) TFE_OpSetAttrString(op->op, attr_name, value, length);
  else TF_SetAttrString(op->desc, attr_name, value, length);
}

void TFE_AbstractOpSetAttrShape(TF_AbstractOp* op, const char* attr_name, const int64_t* dims,
                                int num_dims, TF_Status* s) {
  ATTR_CHECK("TFE_AbstractOpSetAttrShape")
  if (num_dims < -1 || (num_dims > 0 && dims == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_AbstractOpSetAttrShape: bad shape");
    return;
  }
  if (k_ == 1) TFE_OpSetAttrShape(op->op, attr_name, dims, num_dims, s);
  else TF_SetAttrShape(op->desc, attr_name, dims, num_dims);
}

/* Internal (tape.h): a list(string) attr, for gradient functions. */
void tfe_unified_op_set_attr_string_list(TF_AbstractOp* op, const char* attr_name,
                                         const void* const* values, const size_t* lengths,
                                         int num_values, TF_Status* s) {
  ATTR_CHECK("tfe_unified_op_set_attr_string_list")
  if (num_values < 0 || (num_values > 0 && (values == NULL || lengths == NULL))) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "tfe_unified_op_set_attr_string_list: bad list");
    return;
  }
  if (k_ == 1) TFE_OpSetAttrStringList(op->op, attr_name, values, lengths, num_values);
  else TF_SetAttrStringList(op->desc, attr_name, values, lengths, num_values);
}

void TFE_AbstractOpSetAttrIntList(TF_AbstractOp* op, const char* attr_name,
                                  const int64_t* values, int num_values, TF_Status* s) {
  ATTR_CHECK("TFE_AbstractOpSetAttrIntList")
  if (num_values < 0 || (num_values > 0 && values == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_AbstractOpSetAttrIntList: bad list");
    return;
  }
  if (k_ == 1) TFE_OpSetAttrIntList(op->op, attr_name, values, num_values);
  else TF_SetAttrIntList(op->desc, attr_name, values, num_values);
}

void TFE_AbstractOpSetAttrFloatList(TF_AbstractOp* op, const char* attr_name,
                                    const float* values, int num_values, TF_Status* s) {
  ATTR_CHECK("TFE_AbstractOpSetAttrFloatList")
  if (num_values < 0 || (num_values > 0 && values == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_AbstractOpSetAttrFloatList: bad list");
    return;
  }
  if (k_ == 1) TFE_OpSetAttrFloatList(op->op, attr_name, values, num_values);
  else TF_SetAttrFloatList(op->desc, attr_name, values, num_values);
}

void TFE_AbstractOpSetAttrTypeList(TF_AbstractOp* op, const char* attr_name,
                                   const TF_DataType* values, int num_values, TF_Status* s) {
  ATTR_CHECK("TFE_AbstractOpSetAttrTypeList")
  if (num_values < 0 || (num_values > 0 && values == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_AbstractOpSetAttrTypeList: bad list");
    return;
  }
  if (k_ == 1) TFE_OpSetAttrTypeList(op->op, attr_name, values, num_values);
  else TF_SetAttrTypeList(op->desc, attr_name, values, num_values);
}

void TFE_AbstractOpSetAttrTensor(TF_AbstractOp* op, const char* attr_name, TF_Tensor* value,
                                 TF_Status* s) {
  ATTR_CHECK("TFE_AbstractOpSetAttrTensor")
  if (value == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_AbstractOpSetAttrTensor: value is NULL");
    return;
  }
  if (k_ == 1) TFE_OpSetAttrTensor(op->op, attr_name, value, s);
  else TF_SetAttrTensor(op->desc, attr_name, value, s);
}

void TFE_AbstractOpSetAttrFunctionName(TF_AbstractOp* op, const char* attr_name,
                                       const char* function_name, TF_Status* s) {
  ATTR_CHECK("TFE_AbstractOpSetAttrFunctionName")
  if (function_name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_AbstractOpSetAttrFunctionName: function_name is NULL");
    return;
  }
  if (k_ == 1) {
    TFE_OpSetAttrFunctionName(op->op, attr_name, function_name, strlen(function_name));
  } else {
    TF_SetAttrFuncName(op->desc, attr_name, function_name, strlen(function_name));
  }
}

TF_DataType TFE_AbstractTensorDataType(TF_AbstractTensor* t, TF_Status* s) {
  NEED_STATUS(s, "TFE_AbstractTensorDataType");
  if (t == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_AbstractTensorDataType: the value is NULL");
    return (TF_DataType)0;
  }
  tfe_status_ok(s);
  if (t->kind == KIND_EAGER) return TFE_TensorHandleDataType(t->handle);
  return TF_OperationOutputType(t->out);
}

int TFE_AbstractTensorNumDims(TF_AbstractTensor* t, TF_Status* s) {
  NEED_STATUS(s, "TFE_AbstractTensorNumDims");
  if (t == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_AbstractTensorNumDims: the value is NULL");
    return -1;
  }
  if (t->kind == KIND_EAGER) return TFE_TensorHandleNumDims(t->handle, s);
  return TF_GraphGetTensorNumDims(t->tr->graph, t->out, s);
}

int64_t TFE_AbstractTensorDim(TF_AbstractTensor* t, int i, TF_Status* s) {
  int n;
  int64_t small[8];
  int64_t* dims = small;
  int64_t d;
  n = TFE_AbstractTensorNumDims(t, s);
  if (s == NULL || TF_GetCode(s) != TF_OK) return -1;
  if (i < 0 || i >= n) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_AbstractTensorDim: dimension %d is out of range (rank %d)", i, n);
    return -1;
  }
  if (t->kind == KIND_EAGER) return TFE_TensorHandleDim(t->handle, i, s);
  if (n > 8) {
    dims = (int64_t*)tfe_calloc((size_t)n, sizeof *dims);
    if (dims == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_AbstractTensorDim: out of memory");
      return -1;
    }
  }
  TF_GraphGetTensorShape(t->tr->graph, t->out, dims, n, s);
  d = TF_GetCode(s) == TF_OK ? dims[i] : -1;
  if (dims != small) tfe_free(dims);
  return d;
}

TF_AbstractTensor* TFE_AbstractTensorCopy(TF_AbstractTensor* t, TF_Status* s) {
  TF_AbstractTensor* c;
  NEED_STATUS(s, "TFE_AbstractTensorCopy");
  if (t == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "TFE_AbstractTensorCopy: the value is NULL");
    return NULL;
  }
  if (t->kind == KIND_TRACE) {
    c = new_traced(t->tr, t->out);
    if (c == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_AbstractTensorCopy: out of memory");
      return NULL;
    }
    tfe_status_ok(s);
    return c;
  }
  /* The same handle, one more reference: a gradient tape sees the copy as
   * the very tensor it tracks. */
  c = tfe_unified_wrap_handle(t->handle);
  if (c == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "TFE_AbstractTensorCopy: out of memory");
    return NULL;
  }
  tfe_status_ok(s);
  return c;
}

int TFE_AbstractTensorIsEager(const TF_AbstractTensor* t) {
  return t != NULL && t->kind == KIND_EAGER;
}

/* ---- for the gradient machinery (eager_internal.h) ---- */

TF_ExecutionContext* tfe_unified_borrow_eager(TFE_Context* ctx) {
  TF_ExecutionContext* c = (TF_ExecutionContext*)tfe_calloc(1, sizeof *c);
  if (c == NULL) return NULL;
  c->kind = KIND_EAGER;
  c->eager = ctx;
  c->borrowed = 1;
  return c;
}

void tfe_unified_set_eager_device(TF_ExecutionContext* c, const char* device) {
  if (c != NULL && c->kind == KIND_EAGER) c->device = device;
}

TF_AbstractTensor* tfe_unified_wrap_handle(TFE_TensorHandle* h) {
  TF_AbstractTensor* at = (TF_AbstractTensor*)tfe_calloc(1, sizeof *at);
  if (at == NULL) return NULL;
  tfe_handle_ref(h);
  at->kind = KIND_EAGER;
  at->handle = h;
  return at;
}

TFE_TensorHandle* tfe_unified_handle_of(const TF_AbstractTensor* at) {
  return at != NULL && at->kind == KIND_EAGER ? at->handle : NULL;
}

TF_ExecutionContext* tfe_unified_borrow_graph(TF_Graph* g, const char* prefix) {
  TF_ExecutionContext* c = (TF_ExecutionContext*)tfe_calloc(1, sizeof *c);
  trace* t = (trace*)tfe_calloc(1, sizeof *t);
  if (c == NULL || t == NULL || (t->prefix = tfe_strdup(prefix)) == NULL ||
      (t->fn_name = tfe_strdup("gradients")) == NULL) {
    if (t != NULL) tfe_free(t->prefix);
    tfe_free(t);
    tfe_free(c);
    return NULL;
  }
  atomic_init(&t->refs, 1);
  t->graph = g;
  t->graph_borrowed = 1;
  c->kind = KIND_TRACE;
  c->tr = t;
  return c;
}

TF_AbstractTensor* tfe_unified_wrap_output(TF_ExecutionContext* c, TF_Output out) {
  if (c == NULL || c->kind != KIND_TRACE) return NULL;
  return new_traced(c->tr, out);
}

int tfe_unified_output_of(const TF_AbstractTensor* at, TF_Output* out) {
  if (at == NULL || at->kind != KIND_TRACE) return 0;
  *out = at->out;
  return 1;
}

int tfe_unified_node_name(TF_ExecutionContext* c, const char* type, char* buf, size_t n) {
  int k;
  const char* prefix;
  if (c == NULL || c->kind != KIND_TRACE) return 0;
  prefix = c->tr->prefix != NULL ? c->tr->prefix : "gradients";
  snprintf(buf, n, "%s/%s", prefix, type);
  for (k = 1; TF_GraphOperationByName(c->tr->graph, buf) != NULL; k++) {
    snprintf(buf, n, "%s/%s_%d", prefix, type, k);
  }
  return 1;
}
