/* Constant evaluation of graph outputs (TF_TryEvaluateConstant).
 *
 * As in TF: an output is constant when everything it depends on through
 * data edges is a Const, or a Shape / Size / Rank of a tensor whose static
 * shape is known well enough, or a stateless op whose inputs are
 * constant. Placeholders, stateful ops, control flow and function calls
 * make it non-constant (the answer is then 0 with an OK status).
 *
 * The subgraph is collected under the graph's lock, then run op by op
 * through the eager runtime (a private TFE_Context, TFE_Op, TFE_Execute),
 * so the values are those the same kernels compute everywhere else. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/eager_internal.h"
#include "graph/graph_internal.h"
#include "graph/operation_internal.h"
#include "tensorflow/c/eager/c_api.h"

/* Pointer -> index map (open addressing, power-of-two capacity). */
typedef struct ptr_map {
  const TF_Operation** keys;
  int* vals;
  size_t cap;
  size_t n;
} ptr_map;

static size_t ptr_slot(const ptr_map* m, const TF_Operation* p) {
  uintptr_t h = (uintptr_t)p;
  h ^= h >> 17;
  h *= (uintptr_t)0x9E3779B97F4A7C15ull;
  return (size_t)(h ^ (h >> 29)) & (m->cap - 1);
}

static int map_get(const ptr_map* m, const TF_Operation* p) {
  size_t i;
  if (m->cap == 0) return -1;
  for (i = ptr_slot(m, p); m->keys[i] != NULL; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == p) return m->vals[i];
  }
  return -1;
}

static int map_put(ptr_map* m, const TF_Operation* p, int v) {
  size_t i;
  if ((m->n + 1) * 2 > m->cap) {
    ptr_map bigger;
    size_t k;
    bigger.cap = m->cap ? m->cap * 2 : 64;
    bigger.n = 0;
    bigger.keys = (const TF_Operation**)tfe_calloc(bigger.cap, sizeof(void*));
    bigger.vals = (int*)tfe_calloc(bigger.cap, sizeof(int));
    if (bigger.keys == NULL || bigger.vals == NULL) {
      tfe_free(bigger.keys);
      tfe_free(bigger.vals);
      return 0;
    }
    for (k = 0; k < m->cap; k++) {
      if (m->keys[k] != NULL) map_put(&bigger, m->keys[k], m->vals[k]);
    }
    tfe_free(m->keys);
    tfe_free(m->vals);
    *m = bigger;
  }
  for (i = ptr_slot(m, p); m->keys[i] != NULL; i = (i + 1) & (m->cap - 1)) {
  }
  m->keys[i] = p;
  m->vals[i] = v;
  m->n++;
  return 1;
}

/* How one operation of the subgraph gets its values. */
enum { NODE_RUN = 0, NODE_CONST = 1, NODE_SHAPE = 2 };

typedef struct eval_node {
  TF_Operation* op;
  int kind;
  TF_Tensor* value; /* NODE_CONST / NODE_SHAPE: its single output (owned) */
  TFE_TensorHandle** outs; /* num_outputs handles once evaluated */
} eval_node;

static int is_excluded(const TF_Operation* op) {
  static const char* const kNever[] = {
      "Placeholder", "PlaceholderV2", "PlaceholderWithDefault", "Switch",
      "RefSwitch", "Merge", "RefMerge", "Enter", "RefEnter", "Exit",
      "RefExit", "NextIteration", "RefNextIteration", "LoopCond",
      "_Arg", "_Retval", "ControlTrigger", NULL};
  int i;
  if (op->def == NULL || op->def->is_stateful) return 1;
  if (tfe_op_lookup(op->op_type) != op->def) return 1; /* a function */
  for (i = 0; kNever[i] != NULL; i++) {
    if (strcmp(op->op_type, kNever[i]) == 0) return 1;
  }
  for (i = 0; i < op->num_outputs; i++) {
    if ((int)op->output_types[i] > 100) return 1; /* reference outputs */
  }
  return 0;
}

/* A Shape/Size/Rank whose answer the static shape of its input gives:
 * a new int tensor, or NULL when the shape is not known well enough. */
static TF_Tensor* shape_leaf(const TF_Operation* op) {
  const tfe_shape* in;
  TF_DataType out = op->output_types[0];
  int i, rank;
  int64_t dims1[1];
  TF_Tensor* t;
  if (op->num_inputs != 1 || op->num_outputs != 1 || op->inputs[0].oper == NULL ||
      (out != TF_INT32 && out != TF_INT64)) {
    return NULL;
  }
  in = &op->inputs[0].oper->output_shapes[op->inputs[0].index];
  if (in->num_dims < 0) return NULL;
  rank = in->num_dims;
  if (strcmp(op->op_type, "Rank") == 0) {
    t = TF_AllocateTensor(out, NULL, 0, TF_DataTypeSize(out));
    if (t == NULL) return NULL;
    if (out == TF_INT32) {
      *(int32_t*)TF_TensorData(t) = rank;
    } else {
      *(int64_t*)TF_TensorData(t) = rank;
    }
    return t;
  }
  for (i = 0; i < rank; i++) {
    if (in->dims[i] < 0) return NULL;
  }
  if (strcmp(op->op_type, "Size") == 0) {
    int64_t n = 1;
    for (i = 0; i < rank; i++) {
      if (in->dims[i] != 0 && n > INT64_MAX / in->dims[i]) return NULL;
      n *= in->dims[i];
    }
    if (out == TF_INT32 && n > INT32_MAX) return NULL;
    t = TF_AllocateTensor(out, NULL, 0, TF_DataTypeSize(out));
    if (t == NULL) return NULL;
    if (out == TF_INT32) {
      *(int32_t*)TF_TensorData(t) = (int32_t)n;
    } else {
      *(int64_t*)TF_TensorData(t) = n;
    }
    return t;
  }
  /* Shape */
  dims1[0] = rank;
  t = TF_AllocateTensor(out, dims1, 1, (size_t)rank * TF_DataTypeSize(out));
  if (t == NULL) return NULL;
  for (i = 0; i < rank; i++) {
    if (out == TF_INT32) {
      if (in->dims[i] > INT32_MAX) {
        TF_DeleteTensor(t);
        return NULL;
      }
      ((int32_t*)TF_TensorData(t))[i] = (int32_t)in->dims[i];
    } else {
      ((int64_t*)TF_TensorData(t))[i] = in->dims[i];
    }
  }
  return t;
}

static const TF_Tensor* const_value(const TF_Operation* op) {
  const tfe_attr_value* v = tfe_attrs_find(&op->attrs, "value");
  if (v == NULL || v->is_list || v->type != TF_ATTR_TENSOR) return NULL;
  return v->v.tensor;
}

/* Collects the subgraph `root` depends on into *nodes (any order).
 * Returns 1 when it is constant, 0 when not, -1 when memory ran out. */
static int collect(TF_Operation* root, ptr_map* seen, eval_node** nodes,
                   int* num_nodes) {
  TF_Operation** stack = NULL;
  int sp = 0, cap_stack = 0, cap_nodes = 0, rc = 1;
  eval_node* list = NULL;
  int n = 0;
#define PUSH(o)                                                          \
  do {                                                                   \
    if (sp == cap_stack) {                                               \
      int c_ = cap_stack ? cap_stack * 2 : 32;                           \
      TF_Operation** p_ = (TF_Operation**)tfe_realloc(                   \
          stack, (size_t)c_ * sizeof(*p_));                              \
      if (p_ == NULL) {                                                  \
        rc = -1;                                                         \
        goto done;                                                       \
      }                                                                  \
      stack = p_;                                                        \
      cap_stack = c_;                                                    \
    }                                                                    \
    stack[sp++] = (o);                                                   \
  } while (0)
  PUSH(root);
  while (sp > 0) {
    TF_Operation* op = stack[--sp];
    eval_node node;
    int i;
    if (map_get(seen, op) >= 0) continue;
    memset(&node, 0, sizeof node);
    node.op = op;
    if (strcmp(op->op_type, "Const") == 0 && const_value(op) != NULL) {
      node.kind = NODE_CONST;
    } else if ((strcmp(op->op_type, "Shape") == 0 ||
                strcmp(op->op_type, "Size") == 0 ||
                strcmp(op->op_type, "Rank") == 0) &&
               (node.value = shape_leaf(op)) != NULL) {
      node.kind = NODE_SHAPE;
    } else if (is_excluded(op)) {
      rc = 0;
      goto done;
    } else {
      node.kind = NODE_RUN;
      for (i = 0; i < op->num_inputs; i++) {
        if (op->inputs[i].oper == NULL) {
          rc = 0;
          goto done;
        }
        PUSH(op->inputs[i].oper);
      }
    }
    if (n == cap_nodes) {
      int c = cap_nodes ? cap_nodes * 2 : 16;
      eval_node* p = (eval_node*)tfe_realloc(list, (size_t)c * sizeof(*p));
      if (p == NULL) {
        TF_DeleteTensor(node.value);
        rc = -1;
        goto done;
      }
      list = p;
      cap_nodes = c;
    }
    list[n] = node;
    if (!map_put(seen, op, n)) {
      n++;
      rc = -1;
      goto done;
    }
    n++;
  }
#undef PUSH
done:
  tfe_free(stack);
  *nodes = list;
  *num_nodes = n;
  return rc;
}

static int cmp_node_id(const void* a, const void* b) {
  int x = ((const eval_node*)a)->op->id, y = ((const eval_node*)b)->op->id;
  return (x > y) - (x < y);
}

/* Runs one node through the eager runtime: 1 done, 0 error (status set),
 * -1 not computable (an input comes from a later operation). */
static int run_node(TFE_Context* ctx, eval_node* node, eval_node* nodes,
                    ptr_map* index, TF_Status* s) {
  TF_Operation* op = node->op;
  TFE_Op* eop;
  int i, n = op->num_outputs;
  node->outs = (TFE_TensorHandle**)tfe_calloc((size_t)(n > 0 ? n : 1),
                                               sizeof(TFE_TensorHandle*));
  if (node->outs == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  if (node->kind != NODE_RUN) {
    const TF_Tensor* v =
        node->kind == NODE_CONST ? const_value(op) : node->value;
    node->outs[0] = TFE_NewTensorHandle(v, s);
    return node->outs[0] != NULL;
  }
  eop = TFE_NewOp(ctx, op->op_type, s);
  if (eop == NULL) return 0;
  for (i = 0; i < op->attrs.count; i++) {
    tfe_attr_value v;
    if (op->attrs.items[i].name[0] == '_') continue;
    if (!tfe_attr_value_copy(&v, &op->attrs.items[i].value) ||
        !tfe_op_put_attr(eop, op->attrs.items[i].name, &v)) {
      TFE_DeleteOp(eop);
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
  }
  for (i = 0; i < op->num_inputs; i++) {
    int k = map_get(index, op->inputs[i].oper);
    if (k < 0 || nodes[k].outs == NULL ||
        nodes[k].outs[op->inputs[i].index] == NULL) {
      /* A cycle made by TF_UpdateEdge: not a constant. */
      TFE_DeleteOp(eop);
      return -1;
    }
    TFE_OpAddInput(eop, nodes[k].outs[op->inputs[i].index], s);
    if (TF_GetCode(s) != TF_OK) {
      TFE_DeleteOp(eop);
      return 0;
    }
  }
  TFE_Execute(eop, node->outs, &n, s);
  TFE_DeleteOp(eop);
  return TF_GetCode(s) == TF_OK;
}

unsigned char TF_TryEvaluateConstant(TF_Graph* graph, TF_Output output,
                                     TF_Tensor** result, TF_Status* status) {
  ptr_map seen = {NULL, NULL, 0, 0};
  eval_node* nodes = NULL;
  int num_nodes = 0, rc, i, k;
  unsigned char ok = 0;
  TFE_ContextOptions* opts = NULL;
  TFE_Context* ctx = NULL;
  if (result != NULL) *result = NULL;
  if (graph == NULL || output.oper == NULL || result == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_TryEvaluateConstant: graph, output and result must "
                    "not be NULL");
    return 0;
  }
  if (output.oper->graph != graph || output.index < 0 ||
      output.index >= output.oper->num_outputs) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_TryEvaluateConstant: '%s:%d' is not an output of "
                    "this graph",
                    output.oper->name, output.index);
    return 0;
  }
  pthread_mutex_lock(&graph->mu);
  rc = collect(output.oper, &seen, &nodes, &num_nodes);
  if (rc == 1) {
    /* Snapshot const values as handles now, while the lock holds (the
     * graph's attrs may change later through TF_SetAttr). */
    qsort(nodes, (size_t)num_nodes, sizeof(eval_node), cmp_node_id);
    tfe_free(seen.keys);
    tfe_free(seen.vals);
    memset(&seen, 0, sizeof seen);
    for (i = 0; i < num_nodes && rc == 1; i++) {
      if (!map_put(&seen, nodes[i].op, i)) rc = -1;
    }
  }
  pthread_mutex_unlock(&graph->mu);
  if (rc < 0) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_TryEvaluateConstant: out of memory");
    goto done;
  }
  if (rc == 0) {
    tfe_status_ok(status);
    goto done;
  }
  opts = TFE_NewContextOptions();
  ctx = opts != NULL ? TFE_NewContext(opts, status) : NULL;
  if (ctx == NULL) {
    if (TF_GetCode(status) == TF_OK) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TF_TryEvaluateConstant: out of memory");
    }
    goto done;
  }
  for (i = 0; i < num_nodes; i++) {
    int r = run_node(ctx, &nodes[i], nodes, &seen, status);
    if (r == 0) goto done;
    if (r < 0) {
      tfe_status_ok(status);
      goto done;
    }
  }
  k = map_get(&seen, output.oper);
  {
    TFE_TensorHandle* h = nodes[k].outs[output.index];
    TF_Tensor* t = TFE_TensorHandleResolve(h, status);
    if (t == NULL) goto done;
    *result = tfe_graph_copy_tensor(t);
    TF_DeleteTensor(t);
    if (*result == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TF_TryEvaluateConstant: out of memory");
      goto done;
    }
  }
  ok = 1;
  tfe_status_ok(status);
done:
  for (i = 0; i < num_nodes; i++) {
    if (nodes[i].outs != NULL) {
      int j, n = nodes[i].kind == NODE_RUN ? nodes[i].op->num_outputs : 1;
      for (j = 0; j < n; j++) TFE_DeleteTensorHandle(nodes[i].outs[j]);
      tfe_free(nodes[i].outs);
    }
    TF_DeleteTensor(nodes[i].value);
  }
  tfe_free(nodes);
  tfe_free(seen.keys);
  tfe_free(seen.vals);
  TFE_DeleteContext(ctx);
  TFE_DeleteContextOptions(opts);
  return ok;
}
