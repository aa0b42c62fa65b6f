/* Graph functions (TF_Function): TF_GraphToFunction(WithControlOutputs)
 * with TF's naming rules (graph_to_functiondef: argument names are
 * normalized to [a-z][a-z0-9_]* and made unique, node inputs are written
 * "node:out_arg:index"), FunctionDef import and export, function attrs,
 * and the functions of a graph's library. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "graph/function_internal.h"
#include "graph/graph_internal.h"
#include "kernels/ref_var.h"
#include "ops/proto_encode.h"
#include "tensorflow/c/c_api_experimental.h"

/* ------------------------------------------------------------------------
 * Name set with counters (TF's NodeNameMapping::used_names_). */

typedef struct nameset {
  char** names;
  int* counters;
  size_t cap, count;
} nameset;

static uint64_t str_hash(const char* s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static size_t ns_slot(const nameset* ns, const char* name) {
  size_t i = (size_t)str_hash(name) & (ns->cap - 1);
  while (ns->names[i] != NULL && strcmp(ns->names[i], name) != 0) {
    i = (i + 1) & (ns->cap - 1);
  }
  return i;
}

static int ns_grow(nameset* ns) {
  nameset n2;
  size_t i;
  n2.cap = ns->cap ? ns->cap * 2 : 64;
  n2.count = 0;
  n2.names = (char**)tfe_calloc(n2.cap, sizeof(char*));
  n2.counters = (int*)tfe_calloc(n2.cap, sizeof(int));
  if (n2.names == NULL || n2.counters == NULL) {
    tfe_free(n2.names);
    tfe_free(n2.counters);
    return 0;
  }
  for (i = 0; i < ns->cap; i++) {
    if (ns->names[i] != NULL) {
      size_t j = ns_slot(&n2, ns->names[i]);
      n2.names[j] = ns->names[i];
      n2.counters[j] = ns->counters[i];
      n2.count++;
    }
  }
  tfe_free(ns->names);
  tfe_free(ns->counters);
  *ns = n2;
  return 1;
}

/* Inserts name; returns its slot, or (size_t)-1 on OOM. *added tells
 * whether it was new. */
static size_t ns_insert(nameset* ns, const char* name, int* added) {
  size_t i;
  if ((ns->count + 1) * 2 > ns->cap && !ns_grow(ns)) return (size_t)-1;
  i = ns_slot(ns, name);
  *added = ns->names[i] == NULL;
  if (*added) {
    ns->names[i] = tfe_strdup(name);
    if (ns->names[i] == NULL) return (size_t)-1;
    ns->counters[i] = 0;
    ns->count++;
  }
  return i;
}

static int ns_has(const nameset* ns, const char* name) {
  return ns->cap > 0 && ns->names[ns_slot(ns, name)] != NULL;
}

static void ns_free(nameset* ns) {
  size_t i;
  for (i = 0; i < ns->cap; i++) tfe_free(ns->names[i]);
  tfe_free(ns->names);
  tfe_free(ns->counters);
}

/* TF's UniquifyHelper: name itself if unused, else name_<k> for the
 * first unused k counting from the name's counter. New string. */
static char* uniquify(nameset* ns, const char* name) {
  int added;
  size_t i = ns_insert(ns, name, &added);
  if (i == (size_t)-1) return NULL;
  if (added) return tfe_strdup(name);
  for (;;) {
    size_t n = strlen(name) + 16, j;
    char* cand = (char*)tfe_malloc(n);
    int added2;
    if (cand == NULL) return NULL;
    snprintf(cand, n, "%s_%d", name, ns->counters[i]);
    ns->counters[i]++;
    j = ns_insert(ns, cand, &added2);
    if (j == (size_t)-1) {
      tfe_free(cand);
      return NULL;
    }
    if (added2) return cand;
    tfe_free(cand);
    i = ns_slot(ns, name); /* the table may have grown */
  }
}

/* TF's Normalize: lower case, non-alphanumerics to '_', starting at the
 * first letter; "unknown" when there is none. */
static char* normalize(const char* name) {
  size_t n = strlen(name), i, start;
  char* out;
  if (n == 0) return tfe_strdup("unknown");
  out = tfe_strdup(name);
  if (out == NULL) return NULL;
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)out[i];
    if (isalnum(c)) {
      out[i] = (char)tolower(c);
    } else {
      out[i] = '_';
    }
  }
  for (start = 0; start < n && !isalpha((unsigned char)out[start]); start++) {
  }
  if (start == n) {
    tfe_free(out);
    return tfe_strdup("unknown");
  }
  memmove(out, out + start, n - start + 1);
  return out;
}

static char* io_name(nameset* ns, const char* name) {
  char* norm = normalize(name);
  char* u;
  if (norm == NULL) return NULL;
  u = uniquify(ns, norm);
  tfe_free(norm);
  return u;
}

/* ------------------------------------------------------------------------
 * TF_GraphToFunction. */

typedef struct g2f {
  const TF_Graph* g;
  const char* fn_name;
  nameset used;
  char** mapping;  /* per graph op id: name in the function, or NULL */
  char* in_body;   /* per graph op id */
  int ninputs;
  const TF_Output* inputs;
  char** input_names;
  TF_Status* s;
} g2f;

static int oom(TF_Status* s) {
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "out of memory creating a function");
  return 0;
}

static int valid_output(const TF_Graph* g, TF_Output o, const char* what,
                        int i, const char* fn_name, TF_Status* s) {
  if (o.oper == NULL || o.oper->graph != g) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s %d of function '%s' is not an operation of the "
                    "function's graph",
                    what, i, fn_name);
    return 0;
  }
  if (o.index < 0 || o.index >= o.oper->num_outputs) {
    tfe_status_setf(s, TF_OUT_OF_RANGE,
                    "Node '%s' (type: '%s', num of outputs: %d) does not "
                    "have output %d\n\tEncountered while processing %s %d "
                    "%s function '%s'",
                    o.oper->name, o.oper->op_type, o.oper->num_outputs,
                    o.index, strcmp(what, "Input") == 0 ? "input" : "output",
                    i, strcmp(what, "Input") == 0 ? "into" : "from",
                    fn_name);
    return 0;
  }
  if (o.oper->def != NULL &&
      tfe_op_def_flat_is_ref(o.oper->def, &o.oper->attrs, 1, o.index)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Output %d of node '%s' has a reference type %s_ref\n\t"
                    "Encountered while %s function '%s'",
                    o.index, o.oper->name,
                    tfe_dtype_short_name(o.oper->output_types[o.index])
                        ? tfe_dtype_short_name(
                              o.oper->output_types[o.index])
                        : "unknown",
                    strcmp(what, "Input") == 0 ? "processing input into"
                                               : "creating",
                    fn_name);
    return 0;
  }
  return 1;
}

/* Name of graph tensor (op, idx) inside the function, new string; NULL
 * when unavailable (*missing = 1) or OOM. */
static char* tensor_name(g2f* c, const TF_Operation* op, int idx,
                         int* missing) {
  int i, pos = 0, len;
  char buf[64];
  *missing = 0;
  for (i = 0; i < c->ninputs; i++) {
    if (c->inputs[i].oper == op && c->inputs[i].index == idx) {
      return tfe_strdup(c->input_names[i]);
    }
  }
  if (!c->in_body[op->id]) {
    *missing = 1;
    return NULL;
  }
  for (i = 0; i < op->def->num_outputs; i++) {
    TF_Status tmp = {TF_OK, NULL, NULL};
    if (!tfe_op_def_arg_length(op->def, &op->def->outputs[i], &op->attrs,
                               &len, &tmp)) {
      tfe_status_ok(&tmp);
      break;
    }
    if (idx < pos + len) {
      size_t n = strlen(c->mapping[op->id]) +
                 strlen(op->def->outputs[i].name) + 24;
      char* out = (char*)tfe_malloc(n);
      if (out == NULL) return NULL;
      snprintf(out, n, "%s:%s:%d", c->mapping[op->id],
               op->def->outputs[i].name, idx - pos);
      return out;
    }
    pos += len;
  }
  /* No output args to name it by: the flat index. */
  snprintf(buf, sizeof(buf), ":%d", idx);
  {
    size_t n = strlen(c->mapping[op->id]) + strlen(buf) + 1;
    char* out = (char*)tfe_malloc(n);
    if (out != NULL) snprintf(out, n, "%s%s", c->mapping[op->id], buf);
    return out;
  }
}

static int ctl_cmp(const void* a, const void* b) {
  return strcmp((*(TF_Operation* const*)a)->name,
                (*(TF_Operation* const*)b)->name);
}

static int fill_node(g2f* c, const TF_Operation* op, tfe_fnode* nd) {
  int i;
  TF_Operation** ctl = NULL;
  nd->name = tfe_strdup(c->mapping[op->id]);
  nd->op = tfe_strdup(op->op_type);
  nd->device = tfe_strdup(op->device ? op->device : "");
  if (nd->name == NULL || nd->op == NULL || nd->device == NULL) {
    return oom(c->s);
  }
  for (i = 0; i < op->attrs.count; i++) {
    tfe_pbw w = {0};
    int ok;
    tfe_pb_attr_value(&w, &op->attrs.items[i].value);
    ok = !w.oom && tfe_fkv_set(&nd->attrs, &nd->num_attrs,
                               op->attrs.items[i].name, w.data, w.len);
    tfe_pbw_free(&w);
    if (!ok) return oom(c->s);
  }
  nd->inputs = (char**)tfe_calloc(
      (size_t)(op->num_inputs + op->num_control_inputs) + 1, sizeof(char*));
  if (nd->inputs == NULL) return oom(c->s);
  for (i = 0; i < op->num_inputs; i++) {
    int missing;
    char* t = tensor_name(c, op->inputs[i].oper, op->inputs[i].index,
                          &missing);
    if (t == NULL) {
      if (!missing) return oom(c->s);
      tfe_status_setf(c->s, TF_INVALID_ARGUMENT,
                      "Input %d, '%s:%d', of node '%s' in function '%s' is "
                      "not available. You might need to include it in "
                      "inputs or include its source node in the body",
                      i, op->inputs[i].oper->name, op->inputs[i].index,
                      op->name, c->fn_name);
      return 0;
    }
    nd->inputs[nd->num_inputs++] = t;
  }
  if (op->num_control_inputs > 0) {
    ctl = (TF_Operation**)tfe_malloc(sizeof(*ctl) *
                                     (size_t)op->num_control_inputs);
    if (ctl == NULL) return oom(c->s);
    memcpy(ctl, op->control_inputs,
           sizeof(*ctl) * (size_t)op->num_control_inputs);
    qsort(ctl, (size_t)op->num_control_inputs, sizeof(*ctl), ctl_cmp);
    for (i = 0; i < op->num_control_inputs; i++) {
      const char* m = c->mapping[ctl[i]->id];
      size_t n;
      if (m == NULL) {
        tfe_status_setf(c->s, TF_INVALID_ARGUMENT,
                        "The source of control edge [%s:-1 -> %s:-1] is not "
                        "in the body. Encountered while creating function "
                        "'%s'",
                        ctl[i]->name, op->name, c->fn_name);
        tfe_free(ctl);
        return 0;
      }
      n = strlen(m) + 2;
      nd->inputs[nd->num_inputs] = (char*)tfe_malloc(n);
      if (nd->inputs[nd->num_inputs] == NULL) {
        tfe_free(ctl);
        return oom(c->s);
      }
      snprintf(nd->inputs[nd->num_inputs], n, "^%s", m);
      nd->num_inputs++;
    }
    tfe_free(ctl);
  }
  return 1;
}

static void arg_def(tfe_pbw* out, int field, const char* name,
                    TF_DataType t) {
  tfe_pbw a = {0};
  tfe_pbw_str(&a, 1, name);
  tfe_pbw_uint(&a, 3, (uint64_t)t);
  tfe_pbw_sub(out, field, &a);
}

/* ArgAttrs of an input whose producer is op (TF keeps the producer's
 * internal "_" attrs and its known shape as "_output_shapes"). Appends
 * FunctionDef.arg_attr / resource_arg_unique_id entries to fd. */
static int input_arg_attrs(tfe_fdef* fd, int i, const TF_Operation* op,
                           TF_DataType t) {
  tfe_pbw attrs = {0};
  int j, n = 0;
  int64_t unique_id = -1;
  for (j = 0; j < op->attrs.count; j++) {
    const char* an = op->attrs.items[j].name;
    const tfe_attr_value* v = &op->attrs.items[j].value;
    tfe_pbw entry = {0}, val = {0};
    if (an[0] == '_') {
      tfe_pb_attr_value(&val, v);
      tfe_pbw_str(&entry, 1, an);
    } else if (strcmp(an, "shape") == 0 && t != TF_RESOURCE &&
               v->type == TF_ATTR_SHAPE && !v->is_list) {
      /* AttrValue{list{shape}}: list 1 { shape 7 }. */
      tfe_pbw list = {0}, sh = {0};
      tfe_pb_shape(&sh, v->v.shape.dims, v->v.shape.num_dims);
      tfe_pbw_sub(&list, 7, &sh);
      tfe_pbw_sub(&val, 1, &list);
      tfe_pbw_str(&entry, 1, "_output_shapes");
    } else {
      continue;
    }
    if (strcmp(an, "_resource_arg_unique_id") == 0 &&
        v->type == TF_ATTR_INT && !v->is_list) {
      unique_id = v->v.i;
    }
    tfe_pbw_sub(&entry, 2, &val);
    tfe_pbw_sub(&attrs, 1, &entry);
    n++;
  }
  if (attrs.oom) {
    tfe_pbw_free(&attrs);
    return 0;
  }
  if (n > 0 || unique_id >= 0) {
    tfe_fraw* g = (tfe_fraw*)tfe_realloc(
        fd->raw, sizeof(*g) * (size_t)(fd->num_raw + 2));
    if (g == NULL) {
      tfe_pbw_free(&attrs);
      return 0;
    }
    fd->raw = g;
  }
  if (n > 0) {
    tfe_pbw e = {0};
    tfe_pbw_uint(&e, 1, (uint64_t)i);
    tfe_pbw_sub(&e, 2, &attrs);
    if (e.oom) return 0;
    fd->raw[fd->num_raw].field = 7;
    fd->raw[fd->num_raw].key = (uint32_t)i;
    fd->raw[fd->num_raw].data = e.data;
    fd->raw[fd->num_raw].len = e.len;
    fd->num_raw++;
  } else {
    tfe_pbw_free(&attrs);
  }
  if (unique_id >= 0) {
    tfe_pbw e = {0};
    tfe_pbw_uint(&e, 1, (uint64_t)i);
    tfe_pbw_uint(&e, 2, (uint64_t)unique_id);
    if (e.oom) return 0;
    fd->raw[fd->num_raw].field = 8;
    fd->raw[fd->num_raw].key = (uint32_t)i;
    fd->raw[fd->num_raw].data = e.data;
    fd->raw[fd->num_raw].len = e.len;
    fd->num_raw++;
  }
  return 1;
}

/* 11 characters of web-safe base64 of a 64-bit hash, with '-' and '_'
 * replaced by 'a' and 'A' as TF does for function name suffixes. */
static void hash_suffix(uint64_t h, char out[12]) {
  static const char abc[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  unsigned char b[9];
  int i, k = 0;
  for (i = 0; i < 8; i++) b[i] = (unsigned char)(h >> (8 * i));
  b[8] = 0;
  for (i = 0; i < 9; i += 3) {
    uint32_t v = ((uint32_t)b[i] << 16) | ((uint32_t)b[i + 1] << 8) |
                 (i + 2 < 9 ? b[i + 2] : 0);
    out[k++] = abc[(v >> 18) & 63];
    out[k++] = abc[(v >> 12) & 63];
    out[k++] = abc[(v >> 6) & 63];
    out[k++] = abc[v & 63];
  }
  out[11] = '\0';
  for (i = 0; i < 11; i++) {
    if (out[i] == '-') out[i] = 'a';
    if (out[i] == '_') out[i] = 'A';
  }
}

static int str_ptr_cmp(const void* a, const void* b) {
  return strcmp(*(char* const*)a, *(char* const*)b);
}

TF_Function* TF_GraphToFunctionWithControlOutputs(
    const TF_Graph* fn_body, const char* fn_name,
    unsigned char append_hash_to_fn_name, int num_opers,
    const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    int ncontrol_outputs, const TF_Operation* const* control_outputs,
    const char* const* control_output_names, const TF_FunctionOptions* opts,
    const char* description, TF_Status* status) {
  TF_Graph* g = (TF_Graph*)fn_body;
  g2f c;
  tfe_fdef fd;
  tfe_pbw sig = {0};
  TF_Function* fn = NULL;
  int i, j, nops, ok = 0;
  char** out_names = NULL;
  char** ctl_names = NULL;
  const TF_Operation** body = NULL;
  int nbody = 0;
  (void)opts;
  memset(&c, 0, sizeof(c));
  memset(&fd, 0, sizeof(fd));
  if (fn_body == NULL || fn_name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GraphToFunction: the graph and the function name "
                    "must not be NULL");
    return NULL;
  }
  if (ninputs < 0 || noutputs < 0 || ncontrol_outputs < 0 ||
      (ninputs > 0 && inputs == NULL) || (noutputs > 0 && outputs == NULL) ||
      (ncontrol_outputs > 0 && control_outputs == NULL) ||
      (num_opers > 0 && opers == NULL) || num_opers < -1) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GraphToFunction: invalid counts or NULL arrays for "
                    "function '%s'",
                    fn_name);
    return NULL;
  }
  pthread_mutex_lock(&g->mu);
  nops = g->num_ops;
  c.g = g;
  c.fn_name = fn_name;
  c.s = status;
  c.ninputs = ninputs;
  c.inputs = inputs;
  c.mapping = (char**)tfe_calloc((size_t)nops + 1, sizeof(char*));
  c.in_body = (char*)tfe_calloc((size_t)nops + 1, 1);
  c.input_names = (char**)tfe_calloc((size_t)ninputs + 1, sizeof(char*));
  out_names = (char**)tfe_calloc((size_t)noutputs + 1, sizeof(char*));
  ctl_names = (char**)tfe_calloc((size_t)ncontrol_outputs + 1,
                                 sizeof(char*));
  body = (const TF_Operation**)tfe_calloc((size_t)nops + 1,
                                          sizeof(*body));
  if (c.mapping == NULL || c.in_body == NULL || c.input_names == NULL ||
      out_names == NULL || ctl_names == NULL || body == NULL) {
    oom(status);
    goto done;
  }
  /* Inputs: valid, non-reference, each at most once. */
  for (i = 0; i < ninputs; i++) {
    if (!valid_output(g, inputs[i], "Input", i, fn_name, status)) goto done;
    for (j = 0; j < i; j++) {
      if (inputs[j].oper == inputs[i].oper &&
          inputs[j].index == inputs[i].index) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "TF_Output %s:%d appears more than once in the "
                        "input list",
                        inputs[i].oper->name, inputs[i].index);
        goto done;
      }
    }
  }
  for (i = 0; i < noutputs; i++) {
    if (!valid_output(g, outputs[i], "Output", i, fn_name, status)) {
      goto done;
    }
  }
  /* Body. */
  if (num_opers == -1) {
    for (i = 0; i < nops; i++) {
      const TF_Operation* op = g->ops[i];
      int is_input = 0;
      for (j = 0; j < ninputs && !is_input; j++) {
        is_input = inputs[j].oper == op;
      }
      if (!is_input) {
        body[nbody++] = op;
      } else if (op->num_outputs != 1) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "When `num_opers` is set to -1, nodes referenced in "
                        "`inputs` must have a single output. Node %s has %d "
                        "outputs. Encountered while creating function '%s'",
                        op->name, op->num_outputs, fn_name);
        goto done;
      }
    }
  } else {
    for (i = 0; i < num_opers; i++) {
      if (opers[i] == NULL || opers[i]->graph != g) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Operation %d of function '%s' is not an operation "
                        "of the function's graph",
                        i, fn_name);
        goto done;
      }
      for (j = 0; j < nbody; j++) {
        if (body[j] == opers[i]) break;
      }
      if (j < nbody) continue;
      body[nbody++] = opers[i];
    }
  }
  for (i = 0; i < ncontrol_outputs; i++) {
    if (control_outputs[i] == NULL || control_outputs[i]->graph != g) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Control output %d of function '%s' is not an "
                      "operation of the function's graph",
                      i, fn_name);
      goto done;
    }
  }
  if (description != NULL) {
    tfe_pbw_str(&sig, 6, description);
  }
  /* Output names first, so that they never collide with the rest. */
  for (i = 0; i < noutputs; i++) {
    if (output_names != NULL) {
      int added;
      if (output_names[i] == NULL) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "output_names[%d] is NULL", i);
        goto done;
      }
      if (ns_has(&c.used, output_names[i])) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Cannot have duplicate output names. Name '%s' "
                        "appears more than once in 'output_names' array.",
                        output_names[i]);
        goto done;
      }
      if (ns_insert(&c.used, output_names[i], &added) == (size_t)-1 ||
          (out_names[i] = tfe_strdup(output_names[i])) == NULL) {
        oom(status);
        goto done;
      }
    } else {
      out_names[i] = io_name(&c.used, outputs[i].oper->name);
      if (out_names[i] == NULL) {
        oom(status);
        goto done;
      }
    }
  }
  for (i = 0; i < ninputs; i++) {
    const TF_Operation* op = inputs[i].oper;
    c.input_names[i] = io_name(&c.used, op->name);
    if (c.input_names[i] == NULL) {
      oom(status);
      goto done;
    }
    tfe_free(c.mapping[op->id]);
    c.mapping[op->id] = tfe_strdup(c.input_names[i]);
    if (c.mapping[op->id] == NULL ||
        !input_arg_attrs(&fd, i, op, op->output_types[inputs[i].index])) {
      oom(status);
      goto done;
    }
  }
  for (i = 0; i < nbody; i++) {
    const TF_Operation* op = body[i];
    tfe_free(c.mapping[op->id]);
    c.mapping[op->id] = uniquify(&c.used, op->name);
    if (c.mapping[op->id] == NULL) {
      oom(status);
      goto done;
    }
    c.in_body[op->id] = 1;
  }
  /* Nodes. */
  fd.nodes = (tfe_fnode*)tfe_calloc((size_t)nbody + 1, sizeof(tfe_fnode));
  if (fd.nodes == NULL) {
    oom(status);
    goto done;
  }
  for (i = 0; i < nbody; i++) {
    fd.num_nodes++;
    if (!fill_node(&c, body[i], &fd.nodes[i])) goto done;
  }
  /* Signature: inputs, outputs, description, statefulness, control
   * outputs, in OpDef field order. */
  {
    tfe_pbw rest = {0};
    int stateful = 0;
    for (i = 0; i < ninputs; i++) {
      arg_def(&rest, 2, c.input_names[i],
              inputs[i].oper->output_types[inputs[i].index]);
    }
    for (i = 0; i < noutputs; i++) {
      arg_def(&rest, 3, out_names[i],
              outputs[i].oper->output_types[outputs[i].index]);
    }
    tfe_pbw_bytes(&rest, sig.data, sig.len);
    for (i = 0; i < nbody; i++) {
      if (body[i]->def != NULL && body[i]->def->is_stateful) stateful = 1;
    }
    if (stateful) tfe_pbw_uint(&rest, 17, 1);
    /* Control outputs. */
    if (control_output_names != NULL) {
      for (i = 0; i < ncontrol_outputs; i++) {
        if (control_output_names[i] == NULL ||
            control_output_names[i][0] == '\0') {
          tfe_pbw_free(&rest);
          tfe_status_setf(status, TF_INVALID_ARGUMENT,
                          "Control output name must be not empty");
          goto done;
        }
      }
    }
    for (i = 0; i < ncontrol_outputs; i++) {
      const char* nm = control_output_names != NULL
                           ? control_output_names[i]
                           : control_outputs[i]->name;
      const char* node = c.mapping[control_outputs[i]->id];
      for (j = 0; j < i; j++) {
        if (strcmp(ctl_names[j], nm) == 0) {
          tfe_pbw_free(&rest);
          tfe_status_setf(status, TF_INVALID_ARGUMENT,
                          "Repeated control output name: %s", nm);
          goto done;
        }
      }
      if (node == NULL) {
        tfe_pbw_free(&rest);
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Control output node name must be not empty");
        goto done;
      }
      ctl_names[i] = tfe_strdup(nm);
      if (ctl_names[i] == NULL ||
          !tfe_fkv_set(&fd.control_ret, &fd.num_control_ret, nm, node,
                       strlen(node))) {
        tfe_pbw_free(&rest);
        oom(status);
        goto done;
      }
    }
    {
      char** sorted = (char**)tfe_calloc((size_t)ncontrol_outputs + 1,
                                         sizeof(char*));
      if (sorted == NULL) {
        tfe_pbw_free(&rest);
        oom(status);
        goto done;
      }
      memcpy(sorted, ctl_names, sizeof(char*) * (size_t)ncontrol_outputs);
      qsort(sorted, (size_t)ncontrol_outputs, sizeof(char*), str_ptr_cmp);
      for (i = 0; i < ncontrol_outputs; i++) {
        tfe_pbw_str(&rest, 20, sorted[i]);
      }
      tfe_free(sorted);
    }
    if (rest.oom) {
      tfe_pbw_free(&rest);
      oom(status);
      goto done;
    }
    fd.sig_rest = rest.data;
    fd.sig_rest_len = rest.len;
  }
  /* Return values. */
  for (i = 0; i < noutputs; i++) {
    int missing;
    char* t = tensor_name(&c, outputs[i].oper, outputs[i].index, &missing);
    if (t == NULL) {
      if (!missing) {
        oom(status);
      } else {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "TF_Output %s:%d is neither in the function body nor "
                        "among function inputs. Encountered while creating "
                        "function '%s'",
                        outputs[i].oper->name, outputs[i].index, fn_name);
      }
      goto done;
    }
    ok = tfe_fkv_set(&fd.ret, &fd.num_ret, out_names[i], t, strlen(t));
    tfe_free(t);
    if (!ok) {
      oom(status);
      goto done;
    }
    ok = 0;
  }
  fd.name = tfe_strdup(fn_name);
  if (fd.name == NULL) {
    oom(status);
    goto done;
  }
  if (append_hash_to_fn_name) {
    tfe_pbw w = {0};
    uint64_t h = 1469598103934665603ull;
    size_t k;
    char suffix[12], *nm;
    tfe_fdef_encode(&fd, &w);
    for (k = 0; k < w.len; k++) h = (h ^ w.data[k]) * 1099511628211ull;
    tfe_pbw_free(&w);
    hash_suffix(h, suffix);
    nm = (char*)tfe_malloc(strlen(fn_name) + 13);
    if (nm == NULL) {
      oom(status);
      goto done;
    }
    sprintf(nm, "%s_%s", fn_name, suffix);
    tfe_free(fd.name);
    fd.name = nm;
  }
  for (i = 0; i < ncontrol_outputs; i++) {
    if (!(fd.control_outputs = (char**)tfe_realloc(
              fd.control_outputs, sizeof(char*) * (size_t)(i + 1)))) {
      oom(status);
      goto done;
    }
    fd.control_outputs[i] = tfe_strdup(ctl_names[i]);
    fd.num_control_outputs = i + 1;
    if (fd.control_outputs[i] == NULL) {
      oom(status);
      goto done;
    }
  }
  pthread_mutex_unlock(&g->mu);
  fn = tfe_function_from_fdef(&fd, status);
  pthread_mutex_lock(&g->mu);
  ok = fn != NULL;
  if (ok) tfe_status_ok(status);
done:
  pthread_mutex_unlock(&g->mu);
  if (!ok) tfe_fdef_clear(&fd);
  if (c.mapping != NULL) {
    for (i = 0; i < nops; i++) tfe_free(c.mapping[i]);
  }
  if (c.input_names != NULL) {
    for (i = 0; i < ninputs; i++) tfe_free(c.input_names[i]);
  }
  if (out_names != NULL) {
    for (i = 0; i < noutputs; i++) tfe_free(out_names[i]);
  }
  if (ctl_names != NULL) {
    for (i = 0; i < ncontrol_outputs; i++) tfe_free(ctl_names[i]);
  }
  tfe_free(c.mapping);
  tfe_free(c.in_body);
  tfe_free(c.input_names);
  tfe_free(out_names);
  tfe_free(ctl_names);
  tfe_free(body);
  tfe_pbw_free(&sig);
  ns_free(&c.used);
  return fn;
}

TF_Function* TF_GraphToFunction(const TF_Graph* fn_body, const char* fn_name,
                                unsigned char append_hash_to_fn_name,
                                int num_opers, const TF_Operation* const* opers,
                                int ninputs, const TF_Output* inputs,
                                int noutputs, const TF_Output* outputs,
                                const char* const* output_names,
                                const TF_FunctionOptions* opts,
                                const char* description, TF_Status* status) {
  return TF_GraphToFunctionWithControlOutputs(
      fn_body, fn_name, append_hash_to_fn_name, num_opers, opers, ninputs,
      inputs, noutputs, outputs, output_names, 0, NULL, NULL, opts,
      description, status);
}

/* ------------------------------------------------------------------------
 * TF_Function API. */

const char* TF_FunctionName(TF_Function* func) {
  if (!tfe_function_valid(func)) return NULL;
  return func->fd.name;
}

static int check_fn(const TF_Function* func, const char* who, TF_Status* s) {
  if (!tfe_function_valid(func)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: func is not a TF_Function",
                    who);
    return 0;
  }
  return 1;
}

void TF_FunctionToFunctionDef(TF_Function* func, TF_Buffer* output_func_def,
                              TF_Status* status) {
  tfe_pbw w = {0};
  if (!check_fn(func, "TF_FunctionToFunctionDef", status)) return;
  if (output_func_def == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_FunctionToFunctionDef: output buffer is NULL");
    return;
  }
  tfe_fdef_encode(&func->fd, &w);
  tfe_graph_put_buffer(&w, output_func_def, status,
                       "TF_FunctionToFunctionDef");
}

TF_Function* TF_FunctionImportFunctionDef(const void* proto, size_t proto_len,
                                          TF_Status* status) {
  tfe_fdef fd;
  if (!tfe_fdef_parse(proto, proto_len, &fd, "TF_FunctionImportFunctionDef",
                      status)) {
    return NULL;
  }
  return tfe_function_from_fdef(&fd, status);
}

void TF_FunctionSetAttrValueProto(TF_Function* func, const char* attr_name,
                                  const void* proto, size_t proto_len,
                                  TF_Status* status) {
  if (!check_fn(func, "TF_FunctionSetAttrValueProto", status)) return;
  if (attr_name == NULL || (proto == NULL && proto_len > 0) ||
      !tfe_pb_well_formed(proto, proto_len)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Unparseable AttrValue proto passed to "
                    "TF_FunctionSetAttrValueProto");
    return;
  }
  if (!tfe_fkv_set(&func->fd.attrs, &func->fd.num_attrs, attr_name, proto,
                   proto_len)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_FunctionSetAttrValueProto: out of memory");
    return;
  }
  tfe_status_ok(status);
}

void TF_FunctionGetAttrValueProto(TF_Function* func, const char* attr_name,
                                  TF_Buffer* output_attr_value,
                                  TF_Status* status) {
  const tfe_fkv* e;
  tfe_pbw w = {0};
  if (!check_fn(func, "TF_FunctionGetAttrValueProto", status)) return;
  if (attr_name == NULL || output_attr_value == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_FunctionGetAttrValueProto: attr name and output "
                    "buffer must not be NULL");
    return;
  }
  e = tfe_fkv_find(func->fd.attrs, func->fd.num_attrs, attr_name);
  if (e == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Function '%s' has no attr named '%s'.", func->fd.name,
                    attr_name);
    return;
  }
  tfe_pbw_bytes(&w, e->val, e->len);
  tfe_graph_put_buffer(&w, output_attr_value, status,
                       "TF_FunctionGetAttrValueProto");
}

void TF_DeleteFunction(TF_Function* func) {
  if (!tfe_function_valid(func)) return;
  tfe_fdef_clear(&func->fd);
  tfe_fdef_signature_free(func->sig);
  func->magic = 0;
  tfe_free(func);
}

/* ------------------------------------------------------------------------
 * A graph's functions. */

void TF_GraphCopyFunction(TF_Graph* g, const TF_Function* func,
                          const TF_Function* grad, TF_Status* status) {
  tfe_pbw lib = {0};
  tfe_flib* fl;
  if (g == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GraphCopyFunction: graph is NULL");
    return;
  }
  if (func == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "'func' argument to TF_GraphCopyFunction cannot be null");
    return;
  }
  if (!check_fn(func, "TF_GraphCopyFunction", status)) return;
  if (grad != NULL && !check_fn(grad, "TF_GraphCopyFunction", status)) return;
  {
    tfe_pbw f = {0};
    tfe_fdef_encode(&func->fd, &f);
    tfe_pbw_sub(&lib, 1, &f);
  }
  if (grad != NULL) {
    tfe_pbw f = {0}, gd = {0};
    tfe_fdef_encode(&grad->fd, &f);
    tfe_pbw_sub(&lib, 1, &f);
    tfe_pbw_str(&gd, 1, func->fd.name);
    tfe_pbw_str(&gd, 2, grad->fd.name);
    tfe_pbw_sub(&lib, 2, &gd);
  }
  if (lib.oom) {
    tfe_pbw_free(&lib);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_GraphCopyFunction: out of memory");
    return;
  }
  pthread_mutex_lock(&g->mu);
  fl = tfe_graph_flib(g);
  pthread_mutex_unlock(&g->mu);
  if (fl == NULL) {
    tfe_pbw_free(&lib);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_GraphCopyFunction: out of memory");
    return;
  }
  tfe_flib_add_library(fl, lib.data, lib.len, status);
  tfe_pbw_free(&lib);
}

int TF_GraphNumFunctions(TF_Graph* g) {
  int n;
  if (g == NULL) return 0;
  pthread_mutex_lock(&g->mu);
  n = tfe_flib_count(g->flib);
  pthread_mutex_unlock(&g->mu);
  return n;
}

int TF_GraphGetFunctions(TF_Graph* g, TF_Function** funcs, int max_func,
                         TF_Status* status) {
  int n, i;
  tfe_flib* fl;
  if (g == NULL || (funcs == NULL && max_func > 0)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GraphGetFunctions: graph and output array must not "
                    "be NULL");
    return 0;
  }
  pthread_mutex_lock(&g->mu);
  fl = g->flib;
  pthread_mutex_unlock(&g->mu);
  n = tfe_flib_count(fl);
  if (max_func < n) n = max_func < 0 ? 0 : max_func;
  for (i = 0; i < n; i++) {
    const TF_Function* f = tfe_flib_at(fl, i);
    funcs[i] = f != NULL ? tfe_function_copy(f, status) : NULL;
    if (funcs[i] == NULL) {
      int j;
      for (j = 0; j < i; j++) {
        TF_DeleteFunction(funcs[j]);
        funcs[j] = NULL;
      }
      if (TF_GetCode(status) == TF_OK) {
        tfe_status_setf(status, TF_INTERNAL,
                        "TF_GraphGetFunctions: the library changed while "
                        "it was read");
      }
      return 0;
    }
  }
  tfe_status_ok(status);
  return n;
}

void TF_GraphRemoveFunction(TF_Graph* g, const char* func_name,
                            TF_Status* status) {
  tfe_flib* fl;
  if (g == NULL || func_name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GraphRemoveFunction: graph and name must not be "
                    "NULL");
    return;
  }
  pthread_mutex_lock(&g->mu);
  fl = g->flib;
  pthread_mutex_unlock(&g->mu);
  tfe_flib_remove(fl, func_name, status);
}

/* ------------------------------------------------------------------------
 * TF_FunctionDebugString: TF's text rendering of a FunctionDef
 * (DebugString(FunctionDef)):
 *   <newline>name[attr:kind, ...](x:float, n:N*T) -> (y:float) {
 *     node = Op[attr=value, ..., device=CPU:0](data inputs) @ control deps
 *     @return control_ret = node
 *     return y = node:out:0
 *   }
 * Types print as TF's type names ("float"), type lists as "{float, int32}",
 * functions by name, attr placeholders as "$T". */

typedef struct sbuf {
  char* p;
  size_t len, cap;
  int oom;
} sbuf;

static void sb_add(sbuf* b, const char* s, size_t n) {
  if (b->oom) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    char* g;
    while (cap < b->len + n + 1) cap *= 2;
    g = (char*)realloc(b->p, cap); /* the caller frees with free() */
    if (g == NULL) {
      b->oom = 1;
      return;
    }
    b->p = g;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
}

static void sb_str(sbuf* b, const char* s) { sb_add(b, s, strlen(s)); }

static void sb_type(sbuf* b, TF_DataType t) {
  const char* n = tfe_dtype_short_name(t);
  sb_str(b, n != NULL ? n : "invalid");
}

static void sb_arg(sbuf* b, const tfe_arg_def* a) {
  sb_str(b, a->name);
  sb_str(b, ":");
  if (a->is_ref) sb_str(b, "Ref(");
  if (a->number_attr != NULL) {
    sb_str(b, a->number_attr);
    sb_str(b, "*");
  }
  if (a->type_attr != NULL) {
    sb_str(b, a->type_attr);
  } else if (a->type_list_attr != NULL) {
    sb_str(b, a->type_list_attr);
  } else {
    sb_type(b, a->type);
  }
  if (a->is_ref) sb_str(b, ")");
}

/* One AttrValue (serialized) as TF's function printer shows it. */
static void sb_attr_value(sbuf* b, const char* bytes, size_t len,
                          TF_Status* st) {
  tfe_pbr r = {(const unsigned char*)bytes,
               (const unsigned char*)bytes + len};
  tfe_attr_value v;
  int f, w;
  char buf[512];
  while (r.p < r.end) {
    tfe_pbr sub;
    if (!tfe_pbr_tag(&r, &f, &w)) break;
    if (f == 9 && w == 2 && tfe_pbr_len(&r, &sub)) {
      sb_str(b, "$");
      sb_add(b, (const char*)sub.p, (size_t)(sub.end - sub.p));
      return;
    }
    if (!tfe_pbr_skip(&r, f, w)) break;
  }
  if (!tfe_attr_proto_decode(bytes, len, &v, st)) {
    tfe_status_ok(st);
    sb_str(b, "<Unknown AttrValue type>");
    return;
  }
  if (v.type == TF_ATTR_TYPE && !v.is_list) {
    sb_type(b, v.v.type);
  } else if (v.type == TF_ATTR_TYPE && v.is_list && v.list_size > 0) {
    int i;
    sb_str(b, "{");
    for (i = 0; i < v.list_size; i++) {
      if (i > 0) sb_str(b, ", ");
      sb_type(b, v.list.type[i]);
    }
    sb_str(b, "}");
  } else if (v.type == TF_ATTR_FUNC && !v.is_list) {
    sb_add(b, v.v.s.data, v.v.s.len);
  } else {
    buf[0] = '\0';
    tfe_attr_value_format(&v, buf, sizeof(buf));
    sb_str(b, buf);
  }
  tfe_attr_value_clear(&v);
}

/* "CPU:0" from a device name ("/job:a/device:CPU:0", "/cpu:0"). */
static void sb_device(sbuf* b, const char* dev) {
  const char* p = strstr(dev, "device:");
  const char* colon;
  char type[64];
  size_t n;
  if (p != NULL) {
    p += 7;
  } else {
    p = strrchr(dev, '/');
    p = p != NULL ? p + 1 : dev;
  }
  colon = strchr(p, ':');
  n = colon != NULL ? (size_t)(colon - p) : 0;
  if (colon == NULL || n == 0 || n >= sizeof(type) || colon[1] == '\0') {
    sb_str(b, "device=<FAILED_TO_PARSE>");
    return;
  }
  memcpy(type, p, n);
  type[n] = '\0';
  if (strcmp(type, "cpu") == 0) strcpy(type, "CPU");
  if (strcmp(type, "gpu") == 0) strcpy(type, "GPU");
  sb_str(b, "device=");
  sb_str(b, type);
  sb_str(b, ":");
  sb_str(b, colon + 1);
}

char* TF_FunctionDebugString(TF_Function* func, size_t* len) {
  sbuf b = {NULL, 0, 0, 0};
  const tfe_op_def* sig;
  TF_Status* st;
  int i, j;
  if (len != NULL) *len = 0;
  if (!tfe_function_valid(func)) return NULL;
  st = TF_NewStatus();
  if (st == NULL) return NULL;
  sig = func->sig;
  sb_str(&b, "\n");
  sb_str(&b, func->fd.name);
  if (sig->num_attrs > 0) {
    sb_str(&b, "[");
    for (i = 0; i < sig->num_attrs; i++) {
      const tfe_attr_def* a = &sig->attrs[i];
      if (i > 0) sb_str(&b, ", ");
      sb_str(&b, a->name);
      sb_str(&b, ":");
      if (a->type == TF_ATTR_TYPE && !a->is_list) {
        if (a->has_allowed && a->allowed.list_size > 0) {
          sb_str(&b, "{");
          for (j = 0; j < a->allowed.list_size; j++) {
            if (j > 0) sb_str(&b, ", ");
            sb_type(&b, a->allowed.list.type[j]);
          }
          sb_str(&b, "}");
        } else {
          sb_str(&b, "<Unknown AttrValue type>");
        }
      } else {
        sb_str(&b, a->type_str);
      }
    }
    sb_str(&b, "]");
  }
  sb_str(&b, "(");
  for (i = 0; i < sig->num_inputs; i++) {
    if (i > 0) sb_str(&b, ", ");
    sb_arg(&b, &sig->inputs[i]);
  }
  sb_str(&b, ") -> (");
  for (i = 0; i < sig->num_outputs; i++) {
    if (i > 0) sb_str(&b, ", ");
    sb_arg(&b, &sig->outputs[i]);
  }
  sb_str(&b, ") {\n");
  for (i = 0; i < func->fd.num_nodes; i++) {
    const tfe_fnode* nd = &func->fd.nodes[i];
    int shown = 0, deps = 0, data = 0;
    sb_str(&b, "  ");
    sb_str(&b, nd->name);
    sb_str(&b, " = ");
    sb_str(&b, nd->op);
    if (nd->num_attrs > 0) {
      /* Attrs are kept sorted by name, TF's order here. */
      sb_str(&b, "[");
      for (j = 0; j < nd->num_attrs; j++) {
        if (shown++) sb_str(&b, ", ");
        sb_str(&b, nd->attrs[j].key);
        sb_str(&b, "=");
        sb_attr_value(&b, nd->attrs[j].val, nd->attrs[j].len, st);
      }
      if (nd->device[0] != '\0') {
        sb_str(&b, ", ");
        sb_device(&b, nd->device);
      }
      sb_str(&b, "]");
    }
    sb_str(&b, "(");
    for (j = 0; j < nd->num_inputs; j++) {
      if (nd->inputs[j][0] == '^') continue;
      if (data++ > 0) sb_str(&b, ", ");
      sb_str(&b, nd->inputs[j]);
    }
    sb_str(&b, ")");
    for (j = 0; j < nd->num_inputs; j++) {
      if (nd->inputs[j][0] != '^') continue;
      sb_str(&b, deps++ ? ", " : " @ ");
      sb_str(&b, nd->inputs[j] + 1);
    }
    sb_str(&b, "\n");
  }
  for (i = 0; i < func->fd.num_control_ret; i++) {
    sb_str(&b, "  @return ");
    sb_str(&b, func->fd.control_ret[i].key);
    sb_str(&b, " = ");
    sb_str(&b, func->fd.control_ret[i].val);
    sb_str(&b, "\n");
  }
  for (i = 0; i < func->fd.num_ret; i++) {
    sb_str(&b, "  return ");
    sb_str(&b, func->fd.ret[i].key);
    sb_str(&b, " = ");
    sb_str(&b, func->fd.ret[i].val);
    sb_str(&b, "\n");
  }
  sb_str(&b, "}\n");
  TF_DeleteStatus(st);
  if (b.oom) {
    free(b.p);
    return NULL;
  }
  if (len != NULL) *len = b.len;
  return b.p;
}
