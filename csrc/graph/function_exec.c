/* Running functions: a FunctionDef becomes a body graph (arguments are
 * Placeholders fed by the caller, nodes are added in dependency order
 * through the graph construction API) and a plan (plan.h) on the calling
 * context. Instances are cached in the state of the kernel that calls
 * them, so a repeated call costs one plan run and no graph work.
 *
 * Kernels: the call of a function by name (an op whose type is the
 * function; registered per function name when a library first gets it),
 * PartitionedCall / StatefulPartitionedCall, If / StatelessIf, While /
 * StatelessWhile, Case / StatelessCase. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "graph/function_internal.h"
#include "graph/operation_internal.h"
#include "graph/plan.h"
#include "ops/proto_encode.h"
#include "tensorflow/c/tf_tstring.h"

struct tfe_fn_inst {
  TF_Graph* body;
  tfe_plan* plan;
  int num_args, num_rets, num_fetches;
  TF_DataType* arg_types;
  TF_DataType* ret_types;
  /* ret i comes from fetch ret_src[i] (>= 0) or is argument -ret_src[i]-1
   * passed through. */
  int* ret_src;
  char* name; /* the function's name, for messages */
  /* Flat return values as body outputs (before passed-through arguments
   * are set apart); used by shape inference (function_shapes.c). */
  TF_Output* ret_outs;
};

/* ------------------------------------------------------------------------
 * Helpers. */

/* Value of attr `name` for this instantiation: the call's, else the
 * signature's default. */
static const tfe_attr_value* env_attr(const tfe_op_def* sig,
                                      const tfe_attrs* call,
                                      const char* name) {
  const tfe_attr_value* v = call != NULL ? tfe_attrs_find(call, name) : NULL;
  const tfe_attr_def* d;
  if (v != NULL) return v;
  d = tfe_op_def_find_attr(sig, name);
  return d != NULL && d->has_default ? &d->default_value : NULL;
}

/* Flat length and dtypes of a signature arg. types may be NULL (count
 * only). */
static int sig_arg_types(const tfe_op_def* sig, const tfe_attrs* call,
                         const tfe_arg_def* a, TF_DataType* types, int* n,
                         TF_Status* s) {
  int len = 1, i;
  const tfe_attr_value* v;
  if (a->number_attr != NULL) {
    v = env_attr(sig, call, a->number_attr);
    if (v == NULL || v->is_list || v->type != TF_ATTR_INT || v->v.i < 0 ||
        v->v.i > (1 << 20)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Attr '%s' of function '%s' is missing or invalid",
                      a->number_attr, sig->name);
      return 0;
    }
    len = (int)v->v.i;
  }
  if (a->type_list_attr != NULL) {
    v = env_attr(sig, call, a->type_list_attr);
    if (v == NULL || !v->is_list ||
        (v->list_size > 0 && v->type != TF_ATTR_TYPE)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Attr '%s' of function '%s' is missing or invalid",
                      a->type_list_attr, sig->name);
      return 0;
    }
    len = v->list_size;
    if (types != NULL) {
      for (i = 0; i < len; i++) types[i] = v->list.type[i];
    }
  } else {
    TF_DataType t = a->type;
    if (a->type_attr != NULL) {
      v = env_attr(sig, call, a->type_attr);
      if (v == NULL || v->is_list || v->type != TF_ATTR_TYPE) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "Attr '%s' of function '%s' is missing or invalid",
                        a->type_attr, sig->name);
        return 0;
      }
      t = v->v.type;
    }
    if (types != NULL) {
      for (i = 0; i < len; i++) types[i] = t;
    }
  }
  *n = len;
  return 1;
}

static int sig_flat(const tfe_op_def* sig, const tfe_attrs* call,
                    const tfe_arg_def* args, int nargs, TF_DataType** types,
                    int* n, TF_Status* s) {
  int i, total = 0, len;
  for (i = 0; i < nargs; i++) {
    if (!sig_arg_types(sig, call, &args[i], NULL, &len, s)) return 0;
    total += len;
  }
  *types = (TF_DataType*)tfe_calloc((size_t)total + 1, sizeof(TF_DataType));
  if (*types == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  total = 0;
  for (i = 0; i < nargs; i++) {
    sig_arg_types(sig, call, &args[i], *types + total, &len, s);
    total += len;
  }
  *n = total;
  return 1;
}

/* Flat range [*start, *start + *len) of output arg `arg` of op. */
static int output_range(const TF_Operation* op, const char* arg, int* start,
                        int* len) {
  int i, pos = 0, n;
  TF_Status tmp = {TF_OK, NULL, NULL};
  if (op->def == NULL) return 0;
  for (i = 0; i < op->def->num_outputs; i++) {
    if (!tfe_op_def_arg_length(op->def, &op->def->outputs[i], &op->attrs, &n,
                               &tmp)) {
      tfe_status_ok(&tmp);
      return 0;
    }
    if (strcmp(op->def->outputs[i].name, arg) == 0) {
      *start = pos;
      *len = n;
      return 1;
    }
    pos += n;
  }
  return 0;
}

static int all_digits(const char* p) {
  if (*p == '\0') return 0;
  for (; *p; p++) {
    if (*p < '0' || *p > '9') return 0;
  }
  return 1;
}

typedef struct build {
  const TF_Function* fn;
  const tfe_fdef* fd;
  TF_Graph* g;
  /* Arguments: per signature input arg, its first flat index and length;
   * arg_ops[flat] is the Placeholder. */
  int* arg_first;
  int* arg_len;
  TF_Operation** arg_ops;
  int num_flat_args;
  /* Per node (fd order), the created operation. */
  TF_Operation** node_ops;
  int* sorted; /* node indices sorted by name */
  /* v1 loops: Merge inputs fed by a NextIteration made later, set once
   * every node exists (node index, flat input, input string). */
  int num_fixups;
  int* fixup_node;
  int* fixup_input;
  const char** fixup_src;
} build;

/* A NextIteration -> Merge edge: the one kind of cycle a v1 loop has. */
static int is_back_edge(const tfe_fnode* src, const tfe_fnode* dst) {
  return (strcmp(src->op, "NextIteration") == 0 ||
          strcmp(src->op, "RefNextIteration") == 0) &&
         (strcmp(dst->op, "Merge") == 0 || strcmp(dst->op, "RefMerge") == 0);
}

static int add_fixup(build* b, int node, int input, const char* src) {
  int n = b->num_fixups + 1;
  int* a = (int*)tfe_realloc(b->fixup_node, sizeof(int) * (size_t)n);
  int* c;
  const char** d;
  if (a == NULL) return 0;
  b->fixup_node = a;
  c = (int*)tfe_realloc(b->fixup_input, sizeof(int) * (size_t)n);
  if (c == NULL) return 0;
  b->fixup_input = c;
  d = (const char**)tfe_realloc((void*)b->fixup_src, sizeof(char*) * (size_t)n);
  if (d == NULL) return 0;
  b->fixup_src = d;
  a[n - 1] = node;
  c[n - 1] = input;
  d[n - 1] = src;
  b->num_fixups = n;
  return 1;
}

static const build* g_sort_ctx; /* only used under qsort in one thread */

static int node_name_cmp(const void* a, const void* b) {
  const tfe_fdef* fd = g_sort_ctx->fd;
  return strcmp(fd->nodes[*(const int*)a].name,
                fd->nodes[*(const int*)b].name);
}

static int find_node(const build* b, const char* name, size_t len) {
  int lo = 0, hi = b->fd->num_nodes - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    const char* nm = b->fd->nodes[b->sorted[mid]].name;
    int c = strncmp(nm, name, len);
    if (c == 0 && nm[len] != '\0') c = 1;
    if (c == 0) return b->sorted[mid];
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

static int find_arg(const build* b, const char* name, size_t len) {
  const tfe_op_def* sig = b->fn->sig;
  int i;
  for (i = 0; i < sig->num_inputs; i++) {
    if (strlen(sig->inputs[i].name) == len &&
        memcmp(sig->inputs[i].name, name, len) == 0) {
      return i;
    }
  }
  return -1;
}

/* The producer node of an input string (control or data), or -1 for an
 * argument / unknown. */
static int input_node(const build* b, const char* in) {
  const char* colon;
  if (in[0] == '^') in++;
  colon = strchr(in, ':');
  return find_node(b, in, colon ? (size_t)(colon - in) : strlen(in));
}

/* Resolves a data input into outs (appends; *n updated, cap checked). */
static int resolve_input(const build* b, const char* node_name, const char* in,
                         TF_Output** outs, int* n, int* cap, TF_Status* s) {
  const char* c1 = strchr(in, ':');
  const char* c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  int start = 0, len = 0, k;
  TF_Operation* op = NULL;
  TF_Operation** ops_arr = NULL;
  if (c1 == NULL) {
    int a = find_arg(b, in, strlen(in));
    if (a < 0) goto unknown;
    ops_arr = b->arg_ops + b->arg_first[a];
    len = b->arg_len[a];
  } else {
    int nd = find_node(b, in, (size_t)(c1 - in));
    if (nd < 0) {
      /* "arg:i": element i of a list argument. */
      int a = find_arg(b, in, (size_t)(c1 - in));
      if (a >= 0 && c2 == NULL && all_digits(c1 + 1) &&
          atoi(c1 + 1) < b->arg_len[a]) {
        ops_arr = b->arg_ops + b->arg_first[a] + atoi(c1 + 1);
        len = 1;
        goto got;
      }
      goto unknown;
    }
    op = b->node_ops[nd];
    if (op == NULL) goto unknown;
    if (c2 == NULL) {
      char arg[256];
      size_t al = strlen(c1 + 1);
      if (al >= sizeof(arg)) goto unknown;
      memcpy(arg, c1 + 1, al + 1);
      if (!output_range(op, arg, &start, &len)) {
        if (!all_digits(arg)) goto unknown;
        start = atoi(arg);
        len = 1;
      }
    } else {
      char arg[256];
      size_t al = (size_t)(c2 - c1 - 1);
      int idx;
      if (al >= sizeof(arg) || !all_digits(c2 + 1)) goto unknown;
      memcpy(arg, c1 + 1, al);
      arg[al] = '\0';
      if (!output_range(op, arg, &start, &len)) goto unknown;
      idx = atoi(c2 + 1);
      if (idx >= len) goto unknown;
      start += idx;
      len = 1;
    }
    if (start + len > op->num_outputs) goto unknown;
  }
got:
  if (*n + len > *cap) {
    int nc = (*cap ? *cap * 2 : 8) + len;
    TF_Output* g = (TF_Output*)tfe_realloc(*outs, sizeof(*g) * (size_t)nc);
    if (g == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
    *outs = g;
    *cap = nc;
  }
  for (k = 0; k < len; k++) {
    if (ops_arr != NULL) {
      (*outs)[*n].oper = ops_arr[k];
      (*outs)[*n].index = 0;
    } else {
      (*outs)[*n].oper = op;
      (*outs)[*n].index = start + k;
    }
    (*n)++;
  }
  return 1;
unknown:
  tfe_status_setf(s, TF_INVALID_ARGUMENT,
                  "Input '%s' of node '%s' in function '%s' refers to no "
                  "argument or node output",
                  in, node_name, b->fd->name);
  return 0;
}

/* The AttrValue to set for a node attr: the bytes as stored, or for a
 * placeholder ("$T" style, AttrValue.placeholder = 9) the value of the
 * function attr it names. Returns a malloc'd copy in *out. */
static int attr_bytes(const build* b, const tfe_attrs* call,
                      const tfe_fkv* kv, tfe_pbw* out, TF_Status* s) {
  tfe_pbr r = {(const unsigned char*)kv->val,
               (const unsigned char*)kv->val + kv->len};
  int f, w;
  while (r.p < r.end) {
    tfe_pbr sub;
    if (!tfe_pbr_tag(&r, &f, &w)) break;
    if (f == 9 && w == 2) {
      char name[256];
      const tfe_attr_value* v;
      size_t n;
      if (!tfe_pbr_len(&r, &sub)) break;
      n = (size_t)(sub.end - sub.p);
      if (n >= sizeof(name)) n = sizeof(name) - 1;
      memcpy(name, sub.p, n);
      name[n] = '\0';
      v = env_attr(b->fn->sig, call, name);
      if (v == NULL) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "Attr '%s' of node in function '%s' refers to "
                        "function attr '%s', which has no value",
                        kv->key, b->fd->name, name);
        return 0;
      }
      tfe_pb_attr_value(out, v);
      return 1;
    }
    if (!tfe_pbr_skip(&r, f, w)) break;
  }
  tfe_pbw_bytes(out, kv->val, kv->len);
  return 1;
}

static int add_node(build* b, const tfe_attrs* call, TFE_Context* ctx,
                    int ni, TF_Status* s) {
  const tfe_fnode* nd = &b->fd->nodes[ni];
  const tfe_op_def* def = tfe_op_lookup(nd->op);
  TF_OperationDescription* desc;
  TF_Output* outs = NULL;
  int nouts = 0, cap = 0, i, pos, ok = 0;
  tfe_attrs nattrs;
  tfe_flib* lib = b->g->flib;
  (void)ctx;
  tfe_attrs_init(&nattrs);
  if (def == NULL) def = tfe_flib_signature(lib, nd->op);
  if (def == NULL) {
    tfe_status_setf(s, TF_NOT_FOUND,
                    "Op type not registered '%s' in binary running on tfe "
                    "(node '%s' of function '%s'); no function of that name "
                    "is in the library either",
                    nd->op, nd->name, b->fd->name);
    return 0;
  }
  desc = TF_NewOperation(b->g, nd->op, nd->name);
  if (desc == NULL) {
    /* Its arguments are valid: only memory can be missing. */
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory adding node '%s' of function '%s'",
                    nd->name, b->fd->name);
    return 0;
  }
  for (i = 0; i < nd->num_attrs; i++) {
    tfe_pbw w = {0};
    tfe_attr_value v;
    if (!attr_bytes(b, call, &nd->attrs[i], &w, s)) {
      tfe_pbw_free(&w);
      goto fail;
    }
    if (w.oom) {
      tfe_pbw_free(&w);
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      goto fail;
    }
    TF_SetAttrValueProto(desc, nd->attrs[i].key, w.data, w.len, s);
    if (TF_GetCode(s) != TF_OK) {
      tfe_pbw_free(&w);
      goto fail;
    }
    if (tfe_attr_proto_decode(w.data, w.len, &v, s)) {
      tfe_attrs_put(&nattrs, nd->attrs[i].key, &v);
    }
    tfe_status_ok(s);
    tfe_pbw_free(&w);
  }
  for (i = 0; i < nd->num_inputs; i++) {
    const char* in = nd->inputs[i];
    if (in[0] == '^') {
      int src = input_node(b, in);
      TF_Operation* op = src >= 0 ? b->node_ops[src] : NULL;
      if (op == NULL) {
        int a = find_arg(b, in + 1, strlen(in + 1));
        if (a >= 0 && b->arg_len[a] > 0) op = b->arg_ops[b->arg_first[a]];
      }
      if (op == NULL) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "Control input '%s' of node '%s' in function '%s' "
                        "refers to no node",
                        in, nd->name, b->fd->name);
        goto fail;
      }
      TF_AddControlInput(desc, op);
      continue;
    }
    {
      int src = input_node(b, in);
      if (src >= 0 && b->node_ops[src] == NULL &&
          is_back_edge(&b->fd->nodes[src], nd)) {
        /* Filled below with another input of this Merge, then rewired to
         * the NextIteration once it exists. */
        if (!add_fixup(b, ni, nouts, in)) {
          tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
          goto fail;
        }
        if (nouts == cap) {
          TF_Output* g = (TF_Output*)tfe_realloc(
              outs, sizeof(*g) * (size_t)(cap ? cap * 2 : 8));
          if (g == NULL) {
            tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
            goto fail;
          }
          outs = g;
          cap = cap ? cap * 2 : 8;
        }
        outs[nouts].oper = NULL;
        outs[nouts].index = 0;
        nouts++;
        continue;
      }
    }
    if (!resolve_input(b, nd->name, in, &outs, &nouts, &cap, s)) goto fail;
  }
  /* Temporary inputs for pending back edges: the first real input. */
  for (i = 0; i < nouts; i++) {
    if (outs[i].oper == NULL) {
      int j;
      for (j = 0; j < nouts && outs[j].oper == NULL; j++) {
      }
      if (j == nouts) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "Node '%s' in function '%s' has only back-edge "
                        "inputs",
                        nd->name, b->fd->name);
        goto fail;
      }
      outs[i] = outs[j];
    }
  }
  /* Group the flat inputs by the definition's input args. */
  pos = 0;
  for (i = 0; i < def->num_inputs; i++) {
    const tfe_arg_def* a = &def->inputs[i];
    int len = 1;
    int is_list = a->number_attr != NULL || a->type_list_attr != NULL;
    if (is_list) {
      TF_Status tmp = {TF_OK, NULL, NULL};
      if (!tfe_op_def_arg_length(def, a, &nattrs, &len, &tmp)) {
        tfe_status_ok(&tmp);
        len = i == def->num_inputs - 1 ? nouts - pos : -1;
      }
      if (len < 0 || pos + len > nouts) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "Node '%s' in function '%s': cannot tell how many "
                        "inputs belong to list argument '%s'",
                        nd->name, b->fd->name, a->name);
        goto fail;
      }
      TF_AddInputList(desc, outs + pos, len);
      pos += len;
    } else {
      if (pos >= nouts) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "Node '%s' in function '%s' has %d inputs; its op "
                        "%s needs more",
                        nd->name, b->fd->name, nouts, nd->op);
        goto fail;
      }
      TF_AddInput(desc, outs[pos++]);
    }
  }
  if (pos != nouts) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Node '%s' in function '%s' has %d inputs but its op %s "
                    "takes %d",
                    nd->name, b->fd->name, nouts, nd->op, pos);
    goto fail;
  }
  if (nd->device[0] != '\0') TF_SetDevice(desc, nd->device);
  b->node_ops[ni] = TF_FinishOperation(desc, s);
  desc = NULL;
  ok = b->node_ops[ni] != NULL && TF_GetCode(s) == TF_OK;
  if (!ok && TF_GetCode(s) == TF_OK) {
    tfe_status_setf(s, TF_INTERNAL, "could not add node '%s'", nd->name);
  }
  goto done;
fail:
  {
    /* Abandon the description: TF has no way to drop one other than
     * finishing it (which fails here or adds an op nobody uses). */
    TF_Status tmp = {TF_OK, NULL, NULL};
    TF_Operation* op = TF_FinishOperation(desc, &tmp);
    (void)op;
    tfe_status_ok(&tmp);
  }
done:
  tfe_free(outs);
  tfe_attrs_destroy(&nattrs);
  return ok;
}

/* Orders nodes so that each comes after its inputs (Kahn's algorithm,
 * keeping the FunctionDef order among ready nodes). */
static int topo_order(build* b, int* order, TF_Status* s) {
  const tfe_fdef* fd = b->fd;
  int n = fd->num_nodes, i, j, head = 0, tail = 0, ok = 0;
  int* indeg = (int*)tfe_calloc((size_t)n + 1, sizeof(int));
  int* first = (int*)tfe_malloc(sizeof(int) * ((size_t)n + 1));
  int total = 0;
  int *next = NULL, *dst = NULL;
  for (i = 0; i < n; i++) total += fd->nodes[i].num_inputs;
  next = (int*)tfe_malloc(sizeof(int) * ((size_t)total + 1));
  dst = (int*)tfe_malloc(sizeof(int) * ((size_t)total + 1));
  if (indeg == NULL || first == NULL || next == NULL || dst == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  for (i = 0; i < n; i++) first[i] = -1;
  total = 0;
  for (i = 0; i < n; i++) {
    for (j = 0; j < fd->nodes[i].num_inputs; j++) {
      int src = input_node(b, fd->nodes[i].inputs[j]);
      if (src < 0 || is_back_edge(&fd->nodes[src], &fd->nodes[i])) continue;
      dst[total] = i;
      next[total] = first[src];
      first[src] = total++;
      indeg[i]++;
    }
  }
  for (i = 0; i < n; i++) {
    if (indeg[i] == 0) order[tail++] = i;
  }
  while (head < tail) {
    int u = order[head++], e;
    for (e = first[u]; e >= 0; e = next[e]) {
      if (--indeg[dst[e]] == 0) order[tail++] = dst[e];
    }
  }
  if (tail != n) {
    for (i = 0; i < n && indeg[i] == 0; i++) {
    }
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Function '%s' has a cycle through node '%s' (loops in "
                    "function bodies must use While)",
                    fd->name, i < n ? fd->nodes[i].name : "?");
    goto done;
  }
  ok = 1;
done:
  tfe_free(indeg);
  tfe_free(first);
  tfe_free(next);
  tfe_free(dst);
  return ok;
}

/* Parses a ret string to TF_Outputs (like a node input). */
static int resolve_ret(const build* b, const char* out_name, const char* ret,
                       TF_Output** outs, int* n, int* cap, TF_Status* s) {
  return resolve_input(b, out_name, ret, outs, n, cap, s);
}

static pthread_mutex_t g_sort_mu = PTHREAD_MUTEX_INITIALIZER;

static tfe_fn_inst* inst_build(const TF_Function* fn, tfe_flib* lib,
                              TFE_Context* ctx, const tfe_attrs* attrs,
                              int num_arg_shapes, const tfe_shape* arg_shapes,
                              const tfe_handle_data* const* arg_handles,
                              TF_Tensor* const* arg_values, int body_only,
                              TF_Status* s);

tfe_fn_inst* tfe_fn_inst_new(const TF_Function* fn, tfe_flib* lib,
                             TFE_Context* ctx, const tfe_attrs* attrs,
                             TF_Status* s) {
  return inst_build(fn, lib, ctx, attrs, 0, NULL, NULL, NULL, 0, s);
}

tfe_fn_inst* tfe_fn_body_new(const TF_Function* fn, tfe_flib* lib,
                             const tfe_attrs* attrs,
                             int num_arg_shapes, const tfe_shape* arg_shapes,
                             const tfe_handle_data* const* arg_handles,
                             TF_Tensor* const* arg_values, TF_Status* s) {
  return inst_build(fn, lib, NULL, attrs, num_arg_shapes, arg_shapes,
                    arg_handles, arg_values, 1, s);
}

TF_Graph* tfe_fn_inst_body(const tfe_fn_inst* inst) { return inst->body; }

const TF_Output* tfe_fn_inst_ret_outputs(const tfe_fn_inst* inst) {
  return inst->ret_outs;
}

/* Builds the body graph; with a context also the plan that runs it. */
static tfe_fn_inst* inst_build(const TF_Function* fn, tfe_flib* lib,
                              TFE_Context* ctx, const tfe_attrs* attrs,
                              int num_arg_shapes, const tfe_shape* arg_shapes,
                              const tfe_handle_data* const* arg_handles,
                              TF_Tensor* const* arg_values, int body_only,
                              TF_Status* s) {
  const tfe_fdef* fd = &fn->fd;
  const tfe_op_def* sig = fn->sig;
  tfe_fn_inst* inst = (tfe_fn_inst*)tfe_calloc(1, sizeof(*inst));
  build b;
  int i, k, ok = 0, nouts = 0, cap = 0, ntargets = 0;
  int* order = NULL;
  TF_Output* outs = NULL;
  TF_Output* feeds = NULL;
  TF_Operation** targets = NULL;
  const uint64_t failures0 = tfe_alloc_failures();
  memset(&b, 0, sizeof(b));
  if (inst == NULL) goto oom;
  inst->name = tfe_strdup(fd->name);
  if (inst->name == NULL) goto oom;
  b.fn = fn;
  b.fd = fd;
  b.g = TF_NewGraph();
  if (b.g == NULL) goto oom;
  inst->body = b.g;
  /* The body sees the library it is called from (calls of other
   * functions inside it are looked up there). */
  if (lib != NULL) {
    if (b.g->flib != NULL) tfe_flib_free(b.g->flib);
    b.g->flib = tfe_flib_ref(lib);
  }
  if (!sig_flat(sig, attrs, sig->inputs, sig->num_inputs, &inst->arg_types,
                &inst->num_args, s) ||
      !sig_flat(sig, attrs, sig->outputs, sig->num_outputs, &inst->ret_types,
                &inst->num_rets, s)) {
    goto fail;
  }
  b.arg_first = (int*)tfe_calloc((size_t)sig->num_inputs + 1, sizeof(int));
  b.arg_len = (int*)tfe_calloc((size_t)sig->num_inputs + 1, sizeof(int));
  b.arg_ops = (TF_Operation**)tfe_calloc((size_t)inst->num_args + 1,
                                         sizeof(TF_Operation*));
  b.node_ops = (TF_Operation**)tfe_calloc((size_t)fd->num_nodes + 1,
                                          sizeof(TF_Operation*));
  b.sorted = (int*)tfe_calloc((size_t)fd->num_nodes + 1, sizeof(int));
  order = (int*)tfe_calloc((size_t)fd->num_nodes + 1, sizeof(int));
  inst->ret_src = (int*)tfe_calloc((size_t)inst->num_rets + 1, sizeof(int));
  feeds = (TF_Output*)tfe_calloc((size_t)inst->num_args + 1,
                                 sizeof(TF_Output));
  targets = (TF_Operation**)tfe_calloc((size_t)fd->num_nodes + 1,
                                       sizeof(TF_Operation*));
  if (b.arg_first == NULL || b.arg_len == NULL || b.arg_ops == NULL ||
      b.node_ops == NULL || b.sorted == NULL || order == NULL ||
      inst->ret_src == NULL || feeds == NULL || targets == NULL) {
    goto oom;
  }
  for (i = 0; i < fd->num_nodes; i++) b.sorted[i] = i;
  pthread_mutex_lock(&g_sort_mu);
  g_sort_ctx = &b;
  qsort(b.sorted, (size_t)fd->num_nodes, sizeof(int), node_name_cmp);
  pthread_mutex_unlock(&g_sort_mu);

  /* Arguments. */
  k = 0;
  for (i = 0; i < sig->num_inputs; i++) {
    int len = 0, j;
    sig_arg_types(sig, attrs, &sig->inputs[i], NULL, &len, s);
    b.arg_first[i] = k;
    b.arg_len[i] = len;
    for (j = 0; j < len; j++, k++) {
      char name[300];
      TF_OperationDescription* desc;
      int is_const;
      if (sig->inputs[i].number_attr == NULL &&
          sig->inputs[i].type_list_attr == NULL) {
        snprintf(name, sizeof(name), "%s", sig->inputs[i].name);
      } else {
        snprintf(name, sizeof(name), "%s/_%d", sig->inputs[i].name, j);
      }
      is_const = arg_values != NULL && k < num_arg_shapes &&
                 arg_values[k] != NULL &&
                 TF_TensorType(arg_values[k]) == inst->arg_types[k] &&
                 TF_TensorByteSize(arg_values[k]) <= 4096;
      if (is_const) {
        /* A small constant input: the body sees its value (shape rules
         * of the body read it, as TF's refiner passes it in). */
        desc = TF_NewOperation(b.g, "Const", name);
        if (desc == NULL) goto oom;
        TF_SetAttrType(desc, "dtype", inst->arg_types[k]);
        TF_SetAttrTensor(desc, "value", arg_values[k], s);
        if (TF_GetCode(s) != TF_OK) {
          /* Finishing frees the description (and fails: no value). */
          TF_Status* s2 = TF_NewStatus();
          TF_FinishOperation(desc, s2);
          TF_DeleteStatus(s2);
          goto fail;
        }
      } else {
        desc = TF_NewOperation(b.g, "Placeholder", name);
        if (desc == NULL) goto oom;
        TF_SetAttrType(desc, "dtype", inst->arg_types[k]);
      }
      if (!is_const && arg_shapes != NULL && k < num_arg_shapes &&
          arg_shapes[k].num_dims >= 0) {
        TF_SetAttrShape(desc, "shape", arg_shapes[k].dims,
                        arg_shapes[k].num_dims);
      }
      b.arg_ops[k] = TF_FinishOperation(desc, s);
      if (b.arg_ops[k] == NULL || TF_GetCode(s) != TF_OK) goto fail;
      if (arg_handles != NULL && k < num_arg_shapes &&
          arg_handles[k] != NULL) {
        /* What the caller's handle refers to (a variable's shape). */
        tfe_handle_data h;
        int set;
        pthread_mutex_lock(&b.g->mu);
        set = tfe_graph_handle_data_copy(&h, arg_handles[k]) &&
              tfe_graph_handle_data_set(b.arg_ops[k], 0, &h);
        pthread_mutex_unlock(&b.g->mu);
        if (!set) goto oom;
      }
      feeds[k].oper = b.arg_ops[k];
      feeds[k].index = 0;
    }
  }
  b.num_flat_args = k;

  /* Nodes. */
  if (!topo_order(&b, order, s)) goto fail;
  for (i = 0; i < fd->num_nodes; i++) {
    if (!add_node(&b, attrs, ctx, order[i], s)) goto fail;
  }
  for (i = 0; i < b.num_fixups; i++) {
    TF_Output* src = NULL;
    int n = 0, c = 0, set;
    const tfe_fnode* nd = &fd->nodes[b.fixup_node[i]];
    if (!resolve_input(&b, nd->name, b.fixup_src[i], &src, &n, &c, s)) {
      goto fail;
    }
    pthread_mutex_lock(&b.g->mu);
    set = n == 1 && tfe_graph_set_input(b.g, b.node_ops[b.fixup_node[i]],
                                        b.fixup_input[i], src[0]);
    pthread_mutex_unlock(&b.g->mu);
    tfe_free(src);
    if (!set) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Could not connect back edge '%s' of node '%s' in "
                      "function '%s'",
                      b.fixup_src[i], nd->name, fd->name);
      goto fail;
    }
  }

  /* Return values. */
  for (i = 0; i < sig->num_outputs; i++) {
    const tfe_arg_def* a = &sig->outputs[i];
    const tfe_fkv* r = tfe_fkv_find(fd->ret, fd->num_ret, a->name);
    int before = nouts, len = 0;
    sig_arg_types(sig, attrs, a, NULL, &len, s);
    if (r == NULL) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "Return %s missing.", a->name);
      goto fail;
    }
    if (!resolve_ret(&b, a->name, r->val, &outs, &nouts, &cap, s)) goto fail;
    if (nouts - before != len) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Return '%s' of function '%s' (%s) has %d values; the "
                      "signature says %d",
                      a->name, fd->name, r->val, nouts - before, len);
      goto fail;
    }
  }
  inst->ret_outs = (TF_Output*)tfe_calloc((size_t)nouts + 1, sizeof(TF_Output));
  if (inst->ret_outs == NULL) goto oom;
  if (nouts > 0) memcpy(inst->ret_outs, outs, (size_t)nouts * sizeof(TF_Output));
  /* Passed-through arguments are not fetched. */
  for (i = 0; i < nouts; i++) {
    TF_Output o = outs[i];
    TF_DataType t = o.oper->output_types[o.index];
    int j;
    if ((int)t > 100) t = (TF_DataType)(t - 100); /* a Ref output's value */
    if (t != inst->ret_types[i]) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Return value %d of function '%s' is %s but the "
                      "signature says %s",
                      i, fd->name, tfe_dtype_enum_name(t),
                      tfe_dtype_enum_name(inst->ret_types[i]));
      goto fail;
    }
    for (j = 0; j < inst->num_args; j++) {
      if (b.arg_ops[j] == o.oper) break;
    }
    if (j < inst->num_args) {
      inst->ret_src[i] = -j - 1;
    } else {
      inst->ret_src[i] = inst->num_fetches;
      outs[inst->num_fetches++] = o;
    }
  }
  /* Targets: control returns and every stateful node (TF keeps stateful
   * ops of a function body even when no output needs them). */
  for (i = 0; i < fd->num_nodes; i++) {
    TF_Operation* op = b.node_ops[i];
    int keep = op->def != NULL && op->def->is_stateful;
    for (k = 0; k < fd->num_control_ret && !keep; k++) {
      keep = strcmp(fd->control_ret[k].val, fd->nodes[i].name) == 0;
    }
    if (keep) targets[ntargets++] = op;
  }
  for (k = 0; k < fd->num_control_ret; k++) {
    if (find_node(&b, fd->control_ret[k].val,
                  strlen(fd->control_ret[k].val)) < 0) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Control return '%s' of function '%s' names no node "
                      "'%s'",
                      fd->control_ret[k].key, fd->name,
                      fd->control_ret[k].val);
      goto fail;
    }
  }
  /* Nothing to run (every return value is an argument, or only the body
   * is wanted): no plan. */
  if (body_only || (inst->num_fetches == 0 && ntargets == 0)) {
    ok = 1;
    tfe_status_ok(s);
    goto done;
  }
  inst->plan = tfe_plan_new(b.g, ctx, feeds, inst->num_args, outs,
                            inst->num_fetches, targets, ntargets, s);
  if (inst->plan == NULL) goto fail;
  ok = 1;
  tfe_status_ok(s);
  goto done;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "out of memory instantiating function '%s'", fd->name);
fail:
  /* An allocation that failed on the way is the cause, whatever a callee
   * made of it (some report a value they could not decode). */
  if (tfe_alloc_failures() != failures0) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory instantiating function '%s'", fd->name);
  } else if (TF_GetCode(s) == TF_OK) {
    tfe_status_setf(s, TF_INTERNAL, "could not instantiate function '%s'",
                    fd->name);
  }
done:
  tfe_free(b.arg_first);
  tfe_free(b.arg_len);
  tfe_free(b.arg_ops);
  tfe_free(b.node_ops);
  tfe_free(b.sorted);
  tfe_free(b.fixup_node);
  tfe_free(b.fixup_input);
  tfe_free((void*)b.fixup_src);
  tfe_free(order);
  tfe_free(outs);
  tfe_free(feeds);
  tfe_free(targets);
  if (!ok) {
    tfe_fn_inst_free(inst);
    return NULL;
  }
  return inst;
}

void tfe_fn_inst_free(tfe_fn_inst* inst) {
  if (inst == NULL) return;
  tfe_plan_free(inst->plan);
  TF_DeleteGraph(inst->body);
  tfe_free(inst->arg_types);
  tfe_free(inst->ret_types);
  tfe_free(inst->ret_src);
  tfe_free(inst->ret_outs);
  tfe_free(inst->name);
  tfe_free(inst);
}

int tfe_fn_inst_num_args(const tfe_fn_inst* inst) { return inst->num_args; }
int tfe_fn_inst_num_rets(const tfe_fn_inst* inst) { return inst->num_rets; }
const TF_DataType* tfe_fn_inst_arg_types(const tfe_fn_inst* inst) {
  return inst->arg_types;
}
const TF_DataType* tfe_fn_inst_ret_types(const tfe_fn_inst* inst) {
  return inst->ret_types;
}

/* A new tensor sharing t's buffer. */
static TF_Tensor* share(const TF_Tensor* t) {
  return tfe_tensor_from_buffer(t->dtype, t->dims, t->num_dims, t->buf);
}

int tfe_fn_inst_run(tfe_fn_inst* inst, TF_Tensor* const* args,
                    TF_Tensor** rets, struct TFE_CancellationManager* cancel,
                    TF_Status* s) {
  TF_Tensor* inline_fetch[8];
  TF_Tensor** fetch = inline_fetch;
  int i, ok;
  for (i = 0; i < inst->num_args; i++) {
    if (args[i] == NULL || args[i]->dtype != inst->arg_types[i]) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Argument %d of function '%s' should be %s", i,
                      inst->name, tfe_dtype_enum_name(inst->arg_types[i]));
      return 0;
    }
  }
  if (inst->num_fetches > 8) {
    fetch = (TF_Tensor**)tfe_calloc((size_t)inst->num_fetches,
                                    sizeof(TF_Tensor*));
    if (fetch == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
  }
  for (i = 0; i < inst->num_fetches; i++) fetch[i] = NULL;
  ok = inst->plan == NULL
           ? 1
           : tfe_plan_run(inst->plan, args, fetch, cancel, s);
  if (ok && TF_GetCode(s) != TF_OK) ok = 0;
  for (i = 0; i < inst->num_rets; i++) rets[i] = NULL;
  if (ok) {
    for (i = 0; i < inst->num_rets; i++) {
      int src = inst->ret_src[i];
      if (src >= 0) {
        rets[i] = fetch[src];
        fetch[src] = NULL;
      } else {
        rets[i] = share(args[-src - 1]);
      }
      if (rets[i] == NULL) {
        /* A fetch used twice: share the first. */
        int j;
        for (j = 0; j < i; j++) {
          if (inst->ret_src[j] == src && rets[j] != NULL) break;
        }
        if (j < i) rets[i] = share(rets[j]);
      }
      if (rets[i] == NULL) {
        tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                        "out of memory returning from function '%s'",
                        inst->name);
        ok = 0;
        break;
      }
    }
    if (!ok) {
      for (i = 0; i < inst->num_rets; i++) {
        if (rets[i] != NULL) TF_DeleteTensor(rets[i]);
        rets[i] = NULL;
      }
    }
  }
  for (i = 0; i < inst->num_fetches; i++) {
    if (fetch[i] != NULL) TF_DeleteTensor(fetch[i]);
  }
  if (fetch != inline_fetch) tfe_free(fetch);
  return ok;
}

/* ------------------------------------------------------------------------
 * Kernels. */

enum call_kind {
  CALL_BY_NAME = 1, /* op type is the function */
  CALL_PARTITIONED, /* f */
  CALL_IF,          /* then_branch, else_branch */
  CALL_WHILE,       /* cond, body */
  CALL_CASE,        /* branches */
};

typedef struct call_state {
  pthread_mutex_t mu;
  int kind;
  int n;
  char** names;                  /* function per slot */
  tfe_fn_inst* _Atomic* insts;   /* per slot, made on first use */
  TFE_Context* ctx;              /* context the instances belong to */
  const tfe_op_def* def;         /* CALL_BY_NAME: the signature */
  tfe_attrs attrs;               /* CALL_BY_NAME: attrs of the call */
} call_state;

static void call_destroy(void* state, void* user_data) {
  call_state* st = (call_state*)state;
  int i;
  (void)user_data;
  if (st == NULL) return;
  for (i = 0; i < st->n; i++) {
    if (st->insts != NULL) tfe_fn_inst_free(atomic_load(&st->insts[i]));
    if (st->names != NULL) tfe_free(st->names[i]);
  }
  tfe_free(st->names);
  tfe_free((void*)st->insts);
  tfe_attrs_destroy(&st->attrs);
  pthread_mutex_destroy(&st->mu);
  tfe_free(st);
}

static int add_name(call_state* st, int i, const char* name, size_t len) {
  st->names[i] = tfe_strndup(name, len);
  return st->names[i] != NULL;
}

static void* call_create(const tfe_op_def* def, const tfe_attrs* attrs,
                         void* user_data, TF_Status* s) {
  call_state* st = (call_state*)tfe_calloc(1, sizeof(*st));
  int kind = (int)(intptr_t)user_data, i, ok = 1;
  const tfe_attr_value* v;
  if (st == NULL) goto oom;
  pthread_mutex_init(&st->mu, NULL);
  tfe_attrs_init(&st->attrs);
  st->kind = kind;
  st->def = def;
  switch (kind) {
    case CALL_BY_NAME:
    case CALL_PARTITIONED:
      st->n = 1;
      break;
    case CALL_IF:
    case CALL_WHILE:
      st->n = 2;
      break;
    default:
      v = tfe_attrs_find(attrs, "branches");
      if (v == NULL || !v->is_list || v->list_size < 1) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "%s needs at least one branch", def->name);
        call_destroy(st, NULL);
        return NULL;
      }
      st->n = v->list_size;
      break;
  }
  st->names = (char**)tfe_calloc((size_t)st->n, sizeof(char*));
  st->insts = (tfe_fn_inst * _Atomic*)tfe_calloc((size_t)st->n,
                                                   sizeof(*st->insts));
  if (st->names == NULL || st->insts == NULL) goto oom;
  for (i = 0; i < st->n && ok; i++) {
    const char* an = NULL;
    if (kind == CALL_BY_NAME) {
      ok = add_name(st, i, def->name, strlen(def->name));
      if (ok) ok = tfe_attrs_merge(&st->attrs, attrs);
      continue;
    }
    if (kind == CALL_PARTITIONED) an = "f";
    if (kind == CALL_IF) an = i == 0 ? "then_branch" : "else_branch";
    if (kind == CALL_WHILE) an = i == 0 ? "cond" : "body";
    if (kind == CALL_CASE) {
      v = tfe_attrs_find(attrs, "branches");
      ok = add_name(st, i, v->list.s.data[i], v->list.s.len[i]);
      continue;
    }
    v = tfe_attrs_find(attrs, an);
    if (v == NULL || v->is_list || v->type != TF_ATTR_FUNC) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "%s: attr '%s' must name a function", def->name, an);
      call_destroy(st, NULL);
      return NULL;
    }
    ok = add_name(st, i, v->v.s.data, v->v.s.len);
  }
  if (!ok) goto oom;
  tfe_status_ok(s);
  return st;
oom:
  call_destroy(st, NULL);
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
  return NULL;
}

/* The instance of slot i for the kernel's context (made on first use). */
static tfe_fn_inst* slot_inst(call_state* st, tfe_kernel_context* k, int i) {
  TFE_Context* ctx = (TFE_Context*)k->eager_ctx;
  tfe_fn_inst* inst = atomic_load_explicit(&st->insts[i], memory_order_acquire);
  tfe_flib* lib;
  const TF_Function* fn;
  if (inst != NULL && st->ctx == ctx) return inst;
  if (ctx == NULL) {
    tfe_status_setf(k->status, TF_FAILED_PRECONDITION,
                    "%s: function calls need an eager context",
                    k->op_def->name);
    return NULL;
  }
  pthread_mutex_lock(&st->mu);
  if (st->ctx != ctx) {
    int j;
    for (j = 0; j < st->n; j++) {
      tfe_fn_inst_free(atomic_load(&st->insts[j]));
      atomic_store(&st->insts[j], NULL);
    }
    st->ctx = ctx;
  }
  inst = atomic_load(&st->insts[i]);
  if (inst == NULL) {
    lib = tfe_ctx_flib(ctx);
    /* By name: the function whose signature the op was made with, else
     * (the op comes from a graph whose library the context copied) the
     * context's function of that name. */
    fn = st->kind == CALL_BY_NAME ? tfe_flib_find_def(lib, st->def) : NULL;
    if (fn == NULL) fn = tfe_flib_find(lib, st->names[i]);
    if (fn == NULL) {
      tfe_status_setf(k->status, TF_NOT_FOUND,
                      "Function %s is not defined.", st->names[i]);
    } else {
      inst = tfe_fn_inst_new(fn, lib, ctx,
                             st->kind == CALL_BY_NAME ? &st->attrs : NULL,
                             k->status);
      if (inst != NULL) {
        atomic_store_explicit(&st->insts[i], inst, memory_order_release);
      }
    }
  }
  pthread_mutex_unlock(&st->mu);
  return inst;
}

/* Runs slot i on args and checks its results against `want` types (NULL:
 * no check); rets receives the outputs. */
static int run_slot(call_state* st, tfe_kernel_context* k, int i,
                    TF_Tensor* const* args, int nargs, TF_Tensor** rets,
                    int nrets, const TF_DataType* want) {
  tfe_fn_inst* inst = slot_inst(st, k, i);
  int j;
  if (inst == NULL) return 0;
  if (inst->num_args != nargs) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "%s: function '%s' takes %d arguments, %d given",
                    k->op_def->name, inst->name, inst->num_args, nargs);
    return 0;
  }
  for (j = 0; j < nargs; j++) {
    /* TF checks the arguments' types when the function runs */
    if (args[j] != NULL && args[j]->dtype != inst->arg_types[j]) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "Expects arg[%d] to be %s but %s is provided", j,
                      tfe_dtype_short_name(inst->arg_types[j]),
                      tfe_dtype_short_name(args[j]->dtype));
      return 0;
    }
  }
  if (inst->num_rets != nrets && st->kind == CALL_WHILE && i == 0) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "Expected a single scalar return value from WhileOp "
                    "cond, got %d tensors.", inst->num_rets);
    return 0;
  }
  if (inst->num_rets != nrets) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "%s: function '%s' returns %d values, %d expected",
                    k->op_def->name, inst->name, inst->num_rets, nrets);
    return 0;
  }
  for (j = 0; want != NULL && j < nrets; j++) {
    if (inst->ret_types[j] != want[j]) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "%s: function '%s' returns %s for output %d, %s "
                      "expected",
                      k->op_def->name, inst->name,
                      tfe_dtype_enum_name(inst->ret_types[j]), j,
                      tfe_dtype_enum_name(want[j]));
      return 0;
    }
  }
  return tfe_fn_inst_run(inst, args, rets, k->cancel, k->status);
}

static void call_compute(tfe_kernel_context* k) {
  call_state* st = (call_state*)k->state;
  run_slot(st, k, 0, k->inputs, k->num_inputs, k->outputs, k->num_outputs,
           k->output_types);
}

/* TF's truth value of a tensor: a scalar's value, else non-empty. */
static int to_bool(const TF_Tensor* t, int* out, TF_Status* s) {
  const void* d = TF_TensorData(t);
  int64_t n = tfe_shape_num_elements(t->dims, t->num_dims);
  if (t->num_dims != 0) {
    *out = n > 0;
    return 1;
  }
  switch (t->dtype) {
    case TF_BOOL: *out = *(const unsigned char*)d != 0; return 1;
    case TF_INT32: *out = *(const int32_t*)d != 0; return 1;
    case TF_INT64: *out = *(const int64_t*)d != 0; return 1;
    case TF_FLOAT: *out = *(const float*)d != 0; return 1;
    case TF_DOUBLE: *out = *(const double*)d != 0; return 1;
    case TF_INT8: case TF_UINT8: *out = *(const uint8_t*)d != 0; return 1;
    case TF_INT16: case TF_UINT16: *out = *(const uint16_t*)d != 0; return 1;
    case TF_UINT32: *out = *(const uint32_t*)d != 0; return 1;
    case TF_UINT64: *out = *(const uint64_t*)d != 0; return 1;
    case TF_HALF: case TF_BFLOAT16:
      /* Any set bit other than the sign's: not (+/-)0. */
      *out = (*(const uint16_t*)d & 0x7fff) != 0;
      return 1;
    case TF_STRING:
      *out = TF_StringGetSize((const TF_TString*)d) > 0;
      return 1;
    default:
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Cannot convert a %s scalar to a boolean condition",
                      tfe_dtype_enum_name(t->dtype));
      return 0;
  }
}

static void if_compute(tfe_kernel_context* k) {
  call_state* st = (call_state*)k->state;
  int b;
  if (!to_bool(k->inputs[0], &b, k->status)) return;
  run_slot(st, k, b ? 0 : 1, k->inputs + 1, k->num_inputs - 1, k->outputs,
           k->num_outputs, k->output_types);
}

static void case_compute(tfe_kernel_context* k) {
  call_state* st = (call_state*)k->state;
  const TF_Tensor* bi = k->inputs[0];
  int32_t idx;
  if (bi->num_dims != 0) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "branch_index must be scalar");
    return;
  }
  idx = *(const int32_t*)TF_TensorData(bi);
  /* Out of range: the last branch is the default, as in TF. */
  if (idx < 0 || idx >= st->n) idx = st->n - 1;
  run_slot(st, k, idx, k->inputs + 1, k->num_inputs - 1, k->outputs,
           k->num_outputs, k->output_types);
}

static void free_all(TF_Tensor** ts, int n) {
  int i;
  for (i = 0; i < n; i++) {
    if (ts[i] != NULL) TF_DeleteTensor(ts[i]);
    ts[i] = NULL;
  }
}

static void while_compute(tfe_kernel_context* k) {
  call_state* st = (call_state*)k->state;
  const int n = k->num_inputs;
  TF_Tensor** vals = (TF_Tensor**)tfe_calloc((size_t)n + 1,
                                             sizeof(TF_Tensor*));
  TF_Tensor** next = (TF_Tensor**)tfe_calloc((size_t)n + 1,
                                             sizeof(TF_Tensor*));
  TF_Tensor* c = NULL;
  int i;
  if (vals == NULL || next == NULL) {
    tfe_status_setf(k->status, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  for (i = 0; i < n; i++) {
    vals[i] = share(k->inputs[i]);
    if (vals[i] == NULL) {
      tfe_status_setf(k->status, TF_RESOURCE_EXHAUSTED, "out of memory");
      goto done;
    }
  }
  for (;;) {
    int b;
    if (!run_slot(st, k, 0, vals, n, &c, 1, NULL)) goto done;
    if (!to_bool(c, &b, k->status)) goto done;
    TF_DeleteTensor(c);
    c = NULL;
    if (!b) break;
    if (!run_slot(st, k, 1, vals, n, next, n, k->output_types)) goto done;
    for (i = 0; i < n; i++) {
      TF_DeleteTensor(vals[i]);
      vals[i] = next[i];
      next[i] = NULL;
    }
  }
  for (i = 0; i < n; i++) {
    k->outputs[i] = vals[i];
    vals[i] = NULL;
  }
done:
  if (c != NULL) TF_DeleteTensor(c);
  if (vals != NULL) free_all(vals, n);
  if (next != NULL) free_all(next, n);
  tfe_free(vals);
  tfe_free(next);
}

static int register_kernel(const char* op, void (*compute)(tfe_kernel_context*),
                           int kind, TF_Status* s) {
  tfe_kernel_reg reg;
  memset(&reg, 0, sizeof(reg));
  reg.op_name = op;
  reg.device_type = "CPU";
  reg.create = call_create;
  reg.compute = compute;
  reg.destroy = call_destroy;
  reg.user_data = (void*)(intptr_t)kind;
  if (!tfe_kernel_register(&reg, s)) {
    if (TF_GetCode(s) == TF_ALREADY_EXISTS) {
      tfe_status_ok(s);
      return 1;
    }
    return 0;
  }
  return 1;
}

int tfe_fn_register_call_kernel(const char* name, TF_Status* s) {
  return register_kernel(name, call_compute, CALL_BY_NAME, s);
}

void tfe_fn_register_builtin_kernels(void) {
  TF_Status* s = TF_NewStatus();
  if (s == NULL) return;
  register_kernel("PartitionedCall", call_compute, CALL_PARTITIONED, s);
  register_kernel("StatefulPartitionedCall", call_compute, CALL_PARTITIONED,
                  s);
  register_kernel("If", if_compute, CALL_IF, s);
  register_kernel("StatelessIf", if_compute, CALL_IF, s);
  register_kernel("While", while_compute, CALL_WHILE, s);
  register_kernel("StatelessWhile", while_compute, CALL_WHILE, s);
  register_kernel("Case", case_compute, CALL_CASE, s);
  register_kernel("StatelessCase", case_compute, CALL_CASE, s);
  TF_DeleteStatus(s);
}
