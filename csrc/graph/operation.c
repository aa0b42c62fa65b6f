/* Building graph operations: TF_OperationDescription, its setters and
 * TF_FinishOperation.
 *
 * As in TF, the setters cannot fail: a problem (an inconsistent attr, an
 * input from a bad output, ...) is remembered in the description and
 * TF_FinishOperation reports it with INVALID_ARGUMENT, TF's code. A
 * finished description is always freed, whether or not it succeeded.
 *
 * TF_FinishOperation follows TF's NodeBuilder: inputs are matched to the
 * op definition's input args in order (TF_AddInput for a single-tensor
 * arg, TF_AddInputList for a list arg), type and length attrs are inferred
 * from the inputs (an explicitly set value must agree), defaults are added,
 * every attr is checked against the definition, then the output dtypes and
 * static shapes are computed. Queries of finished operations live in
 * operation_query.c and operation_attrs.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "eager/eager_internal.h"
#include "graph/import_internal.h"
#include "graph/function_lib.h"
#include "graph/function_shapes.h"
#include "graph/graph_internal.h"
#include "graph/operation_internal.h"
#include "ops/proto_encode.h"
#include "ops/shape_infer.h"

/* One TF_AddInput (n == -1) or TF_AddInputList call. */
typedef struct desc_input {
  int n; /* -1: single tensor */
  TF_Output one;
  TF_Output* list; /* owned, n entries */
} desc_input;

struct TF_OperationDescription {
  TF_Graph* graph;
  /* The calling thread's allocation-failure count when the description
   * was made: a finish that fails after memory ran out while the node was
   * being described reports RESOURCE_EXHAUSTED, not the INVALID_ARGUMENT
   * the incomplete description would otherwise earn. */
  uint64_t alloc_failures0;
  /* op_type is the registry definition's own name (never freed) when the
   * op was registered at TF_NewOperation time, else a copy; name lives in
   * the description's own block (after the struct). */
  char* op_type;
  int op_type_static;
  const tfe_op_def* reg_def; /* the registered definition found then */
  char* name;
  char* device;
  tfe_attrs attrs;
  desc_input* inputs; /* inputs_small until more are added */
  int num_inputs, cap_inputs;
  desc_input inputs_small[4];
  TF_Operation** ctl;
  int num_ctl, cap_ctl;
  /* Colocation constraints ("loc:@name"), kept sorted and unique. */
  char** coloc;
  int num_coloc, cap_coloc;
  /* Errors found by the setters, "\n"-joined, and their number. As in
   * TF, problems with the input tensors themselves (NULL, bad index, other
   * graph) are the node builder's and reported alone; the others are the
   * NodeDef builder's and quote the op definition. */
  char* errors;
  size_t errors_len;
  int num_errors;
  char* input_errors;
  size_t input_errors_len;
  int num_input_errors;
  int oom;
  /* Bytes after the struct for the name (at least its length + 1). */
  size_t name_cap;
  /* Where the block goes when the description is freed (importer's
   * tfe_desc_new_registered): when *spare is empty, the emptied block
   * (with its attr item array) waits there for the next description. */
  TF_OperationDescription** spare;
  /* Set by TF_FinishOperation: as TF's node builder, refuse an op removed
   * at or before the graph's producer version (imports check the
   * GraphDef's own producer instead). */
  int check_removed;
};

/* ------------------------------------------------------------------------
 * Error collection. */

static void add_error(TF_OperationDescription* d, int input_error,
                      const char* fmt, va_list ap0) {
  va_list ap;
  int n;
  char* p;
  char** buf = input_error ? &d->input_errors : &d->errors;
  size_t* len = input_error ? &d->input_errors_len : &d->errors_len;
  va_copy(ap, ap0);
  n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (input_error) {
    d->num_input_errors++;
  } else {
    d->num_errors++;
  }
  p = (char*)tfe_realloc(*buf, *len + (size_t)n + 2);
  if (p == NULL) {
    d->oom = 1;
    return;
  }
  *buf = p;
  if (*len > 0) p[(*len)++] = '\n';
  va_copy(ap, ap0);
  vsnprintf(p + *len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  *len += (size_t)n;
}

static void desc_error(TF_OperationDescription* d, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void desc_error(TF_OperationDescription* d, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_error(d, 0, fmt, ap);
  va_end(ap);
}

static void input_error(TF_OperationDescription* d, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void input_error(TF_OperationDescription* d, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_error(d, 1, fmt, ap);
  va_end(ap);
}

/* ------------------------------------------------------------------------
 * Descriptions. */

static void desc_free(TF_OperationDescription* d) {
  int i;
  if (d == NULL) return;
  if (!d->op_type_static) tfe_free(d->op_type);
  tfe_free(d->device);
  for (i = 0; i < d->num_inputs; i++) tfe_free(d->inputs[i].list);
  if (d->inputs != d->inputs_small) tfe_free(d->inputs);
  tfe_free(d->ctl);
  for (i = 0; i < d->num_coloc; i++) tfe_free(d->coloc[i]);
  tfe_free(d->coloc);
  tfe_free(d->errors);
  tfe_free(d->input_errors);
  if (d->spare != NULL && *d->spare == NULL && !d->attrs.items_borrowed) {
    /* Kept for the next description: only the entries go. */
    tfe_attrs_clear(&d->attrs);
    *d->spare = d;
    return;
  }
  tfe_attrs_destroy(&d->attrs);
  tfe_free(d);
}

void tfe_desc_discard(TF_OperationDescription* d) { desc_free(d); }

void tfe_desc_spare_free(TF_OperationDescription* spare) {
  if (spare == NULL) return;
  tfe_attrs_destroy(&spare->attrs);
  tfe_free(spare);
}

/* A zeroed description with room for a name of name_len bytes, taken from
 * *spare when there is one that fits (its attr item array stays). */
static TF_OperationDescription* desc_alloc(size_t name_len,
                                           TF_OperationDescription** spare) {
  TF_OperationDescription* d = NULL;
  size_t cap;
  if (spare != NULL && *spare != NULL) {
    d = *spare;
    *spare = NULL;
    if (d->name_cap > name_len) {
      tfe_attrs keep = d->attrs;
      size_t name_cap = d->name_cap;
      memset(d, 0, sizeof(*d));
      d->attrs = keep;
      d->name_cap = name_cap;
      d->spare = spare;
      return d;
    }
    tfe_desc_spare_free(d);
  }
  cap = name_len + 1;
  if (spare != NULL && cap < 64) cap = 64;
  d = (TF_OperationDescription*)tfe_calloc(1, sizeof(*d) + cap);
  if (d == NULL) return NULL;
  d->name_cap = cap;
  d->spare = spare;
  return d;
}

/* TF_NewOperationLocked's work. reg_known: `reg` is what
 * tfe_op_lookup(op_type) gives and spelled as op_type (the importer
 * knows); otherwise the registry is asked here. */
static TF_OperationDescription* desc_new(TF_Graph* graph, const char* op_type,
                                         const tfe_op_def* reg, int reg_known,
                                         const char* oper_name,
                                         TF_OperationDescription** spare) {
  TF_OperationDescription* d;
  size_t name_len;
  if (graph == NULL) return NULL;
  /* One block: the description, then its name. */
  name_len = oper_name != NULL ? strlen(oper_name) : 0;
  d = desc_alloc(name_len, spare);
  if (d == NULL) return NULL;
  d->graph = graph;
  d->alloc_failures0 = tfe_alloc_failures();
  d->inputs = d->inputs_small;
  d->cap_inputs = (int)(sizeof d->inputs_small / sizeof d->inputs_small[0]);
  d->name = (char*)(d + 1);
  if (name_len > 0) memcpy(d->name, oper_name, name_len);
  d->name[name_len] = '\0';
  /* A registered op's name is kept as the definition spells it
   * (definitions live as long as the process). */
  if (!reg_known) {
    reg = op_type != NULL ? tfe_op_lookup(op_type) : NULL;
    if (reg != NULL && strcmp(reg->name, op_type) != 0) reg = NULL;
  }
  if (reg != NULL) {
    d->op_type = (char*)reg->name;
    d->op_type_static = 1;
    d->reg_def = reg;
    /* The attrs usually end up being exactly the definition's. */
    if (reg->num_attrs > d->attrs.cap) {
      tfe_attr_entry* items = (tfe_attr_entry*)tfe_malloc(
          (size_t)reg->num_attrs * sizeof(tfe_attr_entry));
      if (items == NULL) {
        desc_free(d);
        return NULL;
      }
      tfe_free(d->attrs.items);
      d->attrs.items = items;
      d->attrs.cap = reg->num_attrs;
    }
  } else {
    d->op_type = tfe_strdup(op_type != NULL ? op_type : "");
    if (d->op_type == NULL) {
      desc_free(d);
      return NULL;
    }
  }
  if (op_type == NULL) desc_error(d, "TF_NewOperation: op_type is NULL");
  if (oper_name == NULL) desc_error(d, "TF_NewOperation: oper_name is NULL");
  return d;
}

TF_OperationDescription* tfe_desc_new_registered(
    TF_Graph* graph, const tfe_op_def* reg, const char* oper_name,
    TF_OperationDescription** spare) {
  if (reg == NULL) return NULL;
  return desc_new(graph, reg->name, reg, 1, oper_name, spare);
}

TF_OperationDescription* TF_NewOperationLocked(TF_Graph* graph,
                                               const char* op_type,
                                               const char* oper_name) {
  return desc_new(graph, op_type, NULL, 0, oper_name, NULL);
}

/* A description reads nothing of the graph until it is finished, so no
 * lock is needed here (the Locked variant exists for TF's API). */
TF_OperationDescription* TF_NewOperation(TF_Graph* graph, const char* op_type,
                                         const char* oper_name) {
  return TF_NewOperationLocked(graph, op_type, oper_name);
}

void TF_SetDevice(TF_OperationDescription* desc, const char* device) {
  char* p;
  if (desc == NULL) return;
  p = tfe_strdup(device != NULL ? device : "");
  if (p == NULL) {
    desc->oom = 1;
    return;
  }
  tfe_free(desc->device);
  desc->device = p;
}

static desc_input* push_input(TF_OperationDescription* d) {
  if (d->num_inputs == d->cap_inputs) {
    int cap = d->cap_inputs * 2;
    desc_input* p;
    if (d->inputs == d->inputs_small) {
      p = (desc_input*)tfe_malloc((size_t)cap * sizeof(*p));
      if (p != NULL) {
        memcpy(p, d->inputs_small, sizeof d->inputs_small);
      }
    } else {
      p = (desc_input*)tfe_realloc(d->inputs, (size_t)cap * sizeof(*p));
    }
    if (p == NULL) {
      d->oom = 1;
      return NULL;
    }
    d->inputs = p;
    d->cap_inputs = cap;
  }
  memset(&d->inputs[d->num_inputs], 0, sizeof(desc_input));
  return &d->inputs[d->num_inputs++];
}

void TF_AddInput(TF_OperationDescription* desc, TF_Output input) {
  desc_input* in;
  if (desc == NULL) return;
  in = push_input(desc);
  if (in == NULL) return;
  in->n = -1;
  in->one = input;
}

void TF_AddInputList(TF_OperationDescription* desc, const TF_Output* inputs,
                     int num_inputs) {
  desc_input* in;
  if (desc == NULL) return;
  if (num_inputs < 0 || (num_inputs > 0 && inputs == NULL)) {
    desc_error(desc, "TF_AddInputList: %s",
               num_inputs < 0 ? "negative num_inputs" : "inputs is NULL");
    return;
  }
  in = push_input(desc);
  if (in == NULL) return;
  in->n = num_inputs;
  if (num_inputs > 0) {
    in->list = (TF_Output*)tfe_malloc((size_t)num_inputs * sizeof(TF_Output));
    if (in->list == NULL) {
      desc->oom = 1;
      desc->num_inputs--;
      return;
    }
    memcpy(in->list, inputs, (size_t)num_inputs * sizeof(TF_Output));
  }
}

void TF_AddControlInput(TF_OperationDescription* desc, TF_Operation* input) {
  int i;
  if (desc == NULL) return;
  if (input == NULL) {
    input_error(desc, "Attempt to add nullptr Node to node with type %s",
               desc->op_type);
    return;
  }
  for (i = 0; i < desc->num_ctl; i++) {
    if (desc->ctl[i] == input) return; /* TF keeps one edge */
  }
  if (desc->num_ctl == desc->cap_ctl) {
    int cap = desc->cap_ctl ? desc->cap_ctl * 2 : 4;
    TF_Operation** p =
        (TF_Operation**)tfe_realloc(desc->ctl, (size_t)cap * sizeof(*p));
    if (p == NULL) {
      desc->oom = 1;
      return;
    }
    desc->ctl = p;
    desc->cap_ctl = cap;
  }
  desc->ctl[desc->num_ctl++] = input;
}

/* Adds a colocation constraint (sorted set). Takes `loc`. */
static void add_coloc(TF_OperationDescription* d, char* loc) {
  int i, pos = d->num_coloc;
  for (i = 0; i < d->num_coloc; i++) {
    int c = strcmp(d->coloc[i], loc);
    if (c == 0) {
      tfe_free(loc);
      return;
    }
    if (c > 0) {
      pos = i;
      break;
    }
  }
  if (d->num_coloc == d->cap_coloc) {
    int cap = d->cap_coloc ? d->cap_coloc * 2 : 2;
    char** p = (char**)tfe_realloc(d->coloc, (size_t)cap * sizeof(char*));
    if (p == NULL) {
      tfe_free(loc);
      d->oom = 1;
      return;
    }
    d->coloc = p;
    d->cap_coloc = cap;
  }
  memmove(&d->coloc[pos + 1], &d->coloc[pos],
          (size_t)(d->num_coloc - pos) * sizeof(char*));
  d->coloc[pos] = loc;
  d->num_coloc++;
}

void TF_ColocateWith(TF_OperationDescription* desc, TF_Operation* op) {
  char* loc;
  size_t n;
  if (desc == NULL) return;
  if (op == NULL || op->name == NULL) {
    desc_error(desc, "TF_ColocateWith: op is NULL");
    return;
  }
  n = strlen(op->name);
  loc = (char*)tfe_malloc(n + 6);
  if (loc == NULL) {
    desc->oom = 1;
    return;
  }
  memcpy(loc, "loc:@", 5);
  memcpy(loc + 5, op->name, n + 1);
  add_coloc(desc, loc);
}

/* Sets attr `name`, taking *v. A second value for the same attr must be
 * equal to the first (TF's "Inconsistent values" otherwise). name_is_reg:
 * `name` is a string of the registered definition d->reg_def (which lives
 * as long as the process), so the entry can borrow it. Otherwise, for a
 * registered op, the definition's own spelling of the name is borrowed
 * when it has that attr; other names are copied. */
static void desc_put_name(TF_OperationDescription* d, const char* name,
                          tfe_attr_value* v, int ok, int name_is_reg) {
  const tfe_attr_value* cur;
  if (!ok) {
    d->oom = 1;
    tfe_attr_value_clear(v);
    return;
  }
  if (name == NULL) {
    desc_error(d, "An attr name is NULL");
    tfe_attr_value_clear(v);
    return;
  }
  cur = tfe_attrs_find(&d->attrs, name);
  if (cur != NULL) {
    if (!tfe_attr_value_equal(cur, v)) {
      char a[256] = "", b[256] = "";
      tfe_attr_value_format(cur, a, sizeof a);
      tfe_attr_value_format(v, b, sizeof b);
      desc_error(d, "Inconsistent values for attr '%s' %s vs. %s", name, a, b);
    }
    tfe_attr_value_clear(v);
    return;
  }
  if (d->reg_def == NULL) {
    name_is_reg = 0;
  } else if (!name_is_reg) {
    const tfe_attr_def* ad = tfe_op_def_find_attr(d->reg_def, name);
    if (ad != NULL) {
      name = ad->name;
      name_is_reg = 1;
    }
  }
  if (!(name_is_reg ? tfe_attrs_put_static(&d->attrs, name, v)
                    : tfe_attrs_put(&d->attrs, name, v))) {
    d->oom = 1;
  }
}

static void desc_put(TF_OperationDescription* d, const char* name,
                     tfe_attr_value* v, int ok) {
  desc_put_name(d, name, v, ok, 0);
}

void tfe_desc_put_decoded(TF_OperationDescription* d, const char* name,
                          tfe_attr_value* v, int name_is_reg) {
  desc_put_name(d, name, v, 1, name_is_reg && d->reg_def != NULL);
}

void TF_SetAttrString(TF_OperationDescription* desc, const char* attr_name,
                      const void* value, size_t length) {
  tfe_attr_value v;
  if (desc == NULL) return;
  if (value == NULL && length > 0) {
    desc_error(desc, "TF_SetAttrString: value is NULL");
    return;
  }
  desc_put(desc, attr_name, &v,
           tfe_attr_value_set_string(&v, value != NULL ? value : "", length));
}

void TF_SetAttrStringList(TF_OperationDescription* desc, const char* attr_name,
                          const void* const* values, const size_t* lengths,
                          int num_values) {
  tfe_attr_value v;
  int i;
  if (desc == NULL) return;
  if (num_values < 0 || (num_values > 0 && (values == NULL || lengths == NULL))) {
    desc_error(desc, "TF_SetAttrStringList: invalid list for attr '%s'",
               attr_name != NULL ? attr_name : "");
    return;
  }
  for (i = 0; i < num_values; i++) {
    if (values[i] == NULL && lengths[i] > 0) {
      desc_error(desc, "TF_SetAttrStringList: value %d is NULL", i);
      return;
    }
  }
  desc_put(desc, attr_name, &v,
           tfe_attr_value_set_string_list(&v, values, lengths, num_values));
}

void TF_SetAttrInt(TF_OperationDescription* desc, const char* attr_name,
                   int64_t value) {
  tfe_attr_value v;
  if (desc == NULL) return;
  tfe_attr_value_set_int(&v, value);
  desc_put(desc, attr_name, &v, 1);
}

#define CHECK_LIST(fn)                                                      \
  do {                                                                      \
    if (num_values < 0 || (num_values > 0 && values == NULL)) {             \
      desc_error(desc, fn ": invalid list for attr '%s'",                   \
                 attr_name != NULL ? attr_name : "");                       \
      return;                                                               \
    }                                                                       \
  } while (0)

void TF_SetAttrIntList(TF_OperationDescription* desc, const char* attr_name,
                       const int64_t* values, int num_values) {
  tfe_attr_value v;
  if (desc == NULL) return;
  CHECK_LIST("TF_SetAttrIntList");
  desc_put(desc, attr_name, &v,
           tfe_attr_value_set_int_list(&v, values, num_values));
}

void TF_SetAttrFloat(TF_OperationDescription* desc, const char* attr_name,
                     float value) {
  tfe_attr_value v;
  if (desc == NULL) return;
  tfe_attr_value_set_float(&v, value);
  desc_put(desc, attr_name, &v, 1);
}

void TF_SetAttrFloatList(TF_OperationDescription* desc, const char* attr_name,
                         const float* values, int num_values) {
  tfe_attr_value v;
  if (desc == NULL) return;
  CHECK_LIST("TF_SetAttrFloatList");
  desc_put(desc, attr_name, &v,
           tfe_attr_value_set_float_list(&v, values, num_values));
}

void TF_SetAttrBool(TF_OperationDescription* desc, const char* attr_name,
                    unsigned char value) {
  tfe_attr_value v;
  if (desc == NULL) return;
  tfe_attr_value_set_bool(&v, value ? 1 : 0);
  desc_put(desc, attr_name, &v, 1);
}

void TF_SetAttrBoolList(TF_OperationDescription* desc, const char* attr_name,
                        const unsigned char* values, int num_values) {
  tfe_attr_value v;
  int i, ok;
  unsigned char* norm = NULL;
  if (desc == NULL) return;
  CHECK_LIST("TF_SetAttrBoolList");
  if (num_values > 0) {
    norm = (unsigned char*)tfe_malloc((size_t)num_values);
    if (norm == NULL) {
      desc->oom = 1;
      return;
    }
    for (i = 0; i < num_values; i++) norm[i] = values[i] ? 1 : 0;
  }
  ok = tfe_attr_value_set_bool_list(&v, norm, num_values);
  tfe_free(norm);
  desc_put(desc, attr_name, &v, ok);
}

void TF_SetAttrType(TF_OperationDescription* desc, const char* attr_name,
                    TF_DataType value) {
  tfe_attr_value v;
  if (desc == NULL) return;
  tfe_attr_value_set_type(&v, value);
  desc_put(desc, attr_name, &v, 1);
}

void TF_SetAttrTypeList(TF_OperationDescription* desc, const char* attr_name,
                        const TF_DataType* values, int num_values) {
  tfe_attr_value v;
  if (desc == NULL) return;
  CHECK_LIST("TF_SetAttrTypeList");
  desc_put(desc, attr_name, &v,
           tfe_attr_value_set_type_list(&v, values, num_values));
}

/* A placeholder value names a function attr (function bodies); on a graph
 * node TF_FinishOperation accepts it only for attrs starting with '_', as
 * TF's NodeDef validation does. */
void TF_SetAttrPlaceholder(TF_OperationDescription* desc, const char* attr_name,
                           const char* placeholder) {
  tfe_attr_value v;
  if (desc == NULL) return;
  if (placeholder == NULL) {
    desc_error(desc, "TF_SetAttrPlaceholder: placeholder is NULL");
    return;
  }
  desc_put(desc, attr_name, &v,
           tfe_attr_value_set_placeholder(&v, placeholder,
                                          strlen(placeholder)));
}

void TF_SetAttrFuncName(TF_OperationDescription* desc, const char* attr_name,
                        const char* value, size_t length) {
  tfe_attr_value v;
  if (desc == NULL) return;
  if (value == NULL && length > 0) {
    desc_error(desc, "TF_SetAttrFuncName: value is NULL");
    return;
  }
  desc_put(desc, attr_name, &v,
           tfe_attr_value_set_func(&v, value != NULL ? value : "", length));
}

static int check_dims(TF_OperationDescription* desc, const char* fn,
                      const int64_t* dims, int num_dims) {
  int i;
  if (num_dims > 0 && dims == NULL) {
    desc_error(desc, "%s: dims is NULL", fn);
    return 0;
  }
  if (num_dims > TFE_MAX_DIMS) {
    desc_error(desc, "%s: %d dimensions is more than the %d supported", fn,
               num_dims, TFE_MAX_DIMS);
    return 0;
  }
  for (i = 0; i < num_dims; i++) {
    if (dims[i] < -1) {
      desc_error(desc, "%s: dimension %d is %lld (must be >= -1)", fn, i,
                 (long long)dims[i]);
      return 0;
    }
  }
  return 1;
}

void TF_SetAttrShape(TF_OperationDescription* desc, const char* attr_name,
                     const int64_t* dims, int num_dims) {
  tfe_attr_value v;
  if (desc == NULL) return;
  if (!check_dims(desc, "TF_SetAttrShape", dims, num_dims)) return;
  desc_put(desc, attr_name, &v,
           tfe_attr_value_set_shape(&v, dims, num_dims < 0 ? -1 : num_dims));
}

void TF_SetAttrShapeList(TF_OperationDescription* desc, const char* attr_name,
                         const int64_t* const* dims, const int* num_dims,
                         int num_shapes) {
  tfe_attr_value v;
  int i;
  if (desc == NULL) return;
  if (num_shapes < 0 ||
      (num_shapes > 0 && (dims == NULL || num_dims == NULL))) {
    desc_error(desc, "TF_SetAttrShapeList: invalid list for attr '%s'",
               attr_name != NULL ? attr_name : "");
    return;
  }
  for (i = 0; i < num_shapes; i++) {
    if (!check_dims(desc, "TF_SetAttrShapeList", dims[i], num_dims[i])) {
      return;
    }
  }
  desc_put(desc, attr_name, &v,
           tfe_attr_value_set_shape_list(&v, dims, num_dims, num_shapes));
}

/* Decodes a TensorShapeProto through the AttrValue decoder (a shape is
 * AttrValue field 7). */
int tfe_graph_decode_shape_proto(const void* proto, size_t len,
                                 tfe_attr_value* out, TF_Status* s) {
  unsigned char head[12];
  size_t h = 0;
  uint64_t n = len;
  unsigned char* buf;
  int ok;
  head[h++] = (7 << 3) | 2;
  do {
    unsigned char c = (unsigned char)(n & 0x7f);
    n >>= 7;
    if (n) c |= 0x80;
    head[h++] = c;
  } while (n);
  buf = (unsigned char*)tfe_malloc(h + len + 1);
  if (buf == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  memcpy(buf, head, h);
  if (len > 0) memcpy(buf + h, proto, len);
  ok = tfe_attr_proto_decode(buf, h + len, out, s);
  tfe_free(buf);
  if (!ok || out->type != TF_ATTR_SHAPE || out->is_list) {
    if (ok) tfe_attr_value_clear(out);
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Unparseable TensorShapeProto");
    return 0;
  }
  return 1;
}

void TF_SetAttrTensorShapeProto(TF_OperationDescription* desc,
                                const char* attr_name, const void* proto,
                                size_t proto_len, TF_Status* status) {
  tfe_attr_value v;
  if (desc == NULL || attr_name == NULL || (proto == NULL && proto_len > 0)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SetAttrTensorShapeProto: NULL argument");
    return;
  }
  if (!tfe_graph_decode_shape_proto(proto, proto_len, &v, status)) return;
  desc_put(desc, attr_name, &v, 1);
  tfe_status_ok(status);
}

void TF_SetAttrTensorShapeProtoList(TF_OperationDescription* desc,
                                    const char* attr_name,
                                    const void* const* protos,
                                    const size_t* proto_lens, int num_shapes,
                                    TF_Status* status) {
  tfe_attr_value v;
  int64_t** dims = NULL;
  int* nd = NULL;
  int i, ok = 1;
  if (desc == NULL || attr_name == NULL || num_shapes < 0 ||
      (num_shapes > 0 && (protos == NULL || proto_lens == NULL))) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SetAttrTensorShapeProtoList: invalid argument");
    return;
  }
  if (num_shapes > 0) {
    dims = (int64_t**)tfe_calloc((size_t)num_shapes, sizeof(int64_t*));
    nd = (int*)tfe_calloc((size_t)num_shapes, sizeof(int));
    if (dims == NULL || nd == NULL) {
      tfe_free(dims);
      tfe_free(nd);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
  }
  for (i = 0; i < num_shapes && ok; i++) {
    tfe_attr_value one;
    if (protos[i] == NULL && proto_lens[i] > 0) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TF_SetAttrTensorShapeProtoList: proto %d is NULL", i);
      ok = 0;
      break;
    }
    ok = tfe_graph_decode_shape_proto(protos[i], proto_lens[i], &one, status);
    if (!ok) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Unparseable TensorShapeProto at index %d", i);
      break;
    }
    nd[i] = one.v.shape.num_dims;
    dims[i] = one.v.shape.dims; /* taken */
    one.v.shape.dims = NULL;
    tfe_attr_value_clear(&one);
  }
  if (ok) {
    if (tfe_attr_value_set_shape_list(&v, (const int64_t* const*)dims, nd,
                                      num_shapes)) {
      desc_put(desc, attr_name, &v, 1);
      tfe_status_ok(status);
    } else {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    }
  }
  for (i = 0; i < num_shapes; i++) tfe_free(dims[i]);
  tfe_free(dims);
  tfe_free(nd);
}

/* A copy of t that owns its bytes (the caller may free or change t). */
TF_Tensor* tfe_graph_copy_tensor(const TF_Tensor* t) {
  TF_Tensor* c;
  size_t n = TF_TensorByteSize(t);
  if (t->dtype == TF_STRING) {
    int64_t i, k = TF_TensorElementCount(t);
    const TF_TString* src = (const TF_TString*)TF_TensorData(t);
    TF_TString* dst;
    c = TF_AllocateTensor(TF_STRING, t->dims, t->num_dims,
                          (size_t)k * sizeof(TF_TString));
    if (c == NULL) return NULL;
    dst = (TF_TString*)TF_TensorData(c);
    for (i = 0; i < k; i++) {
      TF_StringInit(&dst[i]);
      TF_StringCopy(&dst[i], TF_StringGetDataPointer(&src[i]),
                    TF_StringGetSize(&src[i]));
    }
    return c;
  }
  c = TF_AllocateTensor(t->dtype, t->dims, t->num_dims, n);
  if (c == NULL) return NULL;
  if (n > 0) memcpy(TF_TensorData(c), TF_TensorData(t), n);
  return c;
}

static int check_host_tensor(const TF_Tensor* t, TF_Status* s) {
  if (t == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Tensor is NULL");
    return 0;
  }
  if (t->dtype != TF_STRING && TF_DataTypeSize(t->dtype) == 0 &&
      t->dtype != TF_RESOURCE && t->dtype != TF_VARIANT) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Tensor has unsupported dtype %d",
                    (int)t->dtype);
    return 0;
  }
  if (t->dtype == TF_RESOURCE || t->dtype == TF_VARIANT) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "A %s tensor cannot be an attr value",
                    t->dtype == TF_RESOURCE ? "resource" : "variant");
    return 0;
  }
  return 1;
}

void TF_SetAttrTensor(TF_OperationDescription* desc, const char* attr_name,
                      TF_Tensor* value, TF_Status* status) {
  tfe_attr_value v;
  TF_Tensor* c;
  int ok;
  if (desc == NULL || attr_name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SetAttrTensor: NULL argument");
    return;
  }
  if (!check_host_tensor(value, status)) return;
  c = tfe_graph_copy_tensor(value);
  if (c == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  ok = tfe_attr_value_set_tensor(&v, c);
  TF_DeleteTensor(c);
  desc_put(desc, attr_name, &v, ok);
  tfe_status_ok(status);
}

void TF_SetAttrTensorList(TF_OperationDescription* desc, const char* attr_name,
                          TF_Tensor* const* values, int num_values,
                          TF_Status* status) {
  tfe_attr_value v;
  TF_Tensor** cs = NULL;
  int i, ok = 1;
  if (desc == NULL || attr_name == NULL || num_values < 0 ||
      (num_values > 0 && values == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SetAttrTensorList: invalid argument");
    return;
  }
  for (i = 0; i < num_values; i++) {
    if (!check_host_tensor(values[i], status)) return;
  }
  if (num_values > 0) {
    cs = (TF_Tensor**)tfe_calloc((size_t)num_values, sizeof(TF_Tensor*));
    if (cs == NULL) ok = 0;
  }
  for (i = 0; i < num_values && ok; i++) {
    cs[i] = tfe_graph_copy_tensor(values[i]);
    if (cs[i] == NULL) ok = 0;
  }
  if (ok) ok = tfe_attr_value_set_tensor_list(&v, cs, num_values);
  for (i = 0; i < num_values && cs != NULL; i++) TF_DeleteTensor(cs[i]);
  tfe_free(cs);
  if (!ok) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  desc_put(desc, attr_name, &v, 1);
  tfe_status_ok(status);
}

void TF_SetAttrValueProto(TF_OperationDescription* desc, const char* attr_name,
                          const void* proto, size_t proto_len,
                          TF_Status* status) {
  tfe_attr_value v;
  if (desc == NULL || attr_name == NULL || (proto == NULL && proto_len > 0)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SetAttrValueProto: NULL argument");
    return;
  }
  if (strcmp(attr_name, "_class") == 0) {
    /* Colocation constraints replace the ones collected so far. */
    int i;
    if (proto_len == 0) {
      for (i = 0; i < desc->num_coloc; i++) tfe_free(desc->coloc[i]);
      desc->num_coloc = 0;
      tfe_status_ok(status);
      return;
    }
    if (!tfe_attr_proto_decode(proto, proto_len, &v, status)) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Unparseable AttrValue proto");
      return;
    }
    if (!v.is_list || (v.type != TF_ATTR_STRING && v.list_size > 0)) {
      tfe_attr_value_clear(&v);
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Expected \"list\" field for \"_class\" attribute");
      return;
    }
    for (i = 0; i < desc->num_coloc; i++) tfe_free(desc->coloc[i]);
    desc->num_coloc = 0;
    for (i = 0; i < v.list_size; i++) {
      char* loc = tfe_strndup(v.list.s.data[i], v.list.s.len[i]);
      if (loc == NULL) {
        desc->oom = 1;
        break;
      }
      add_coloc(desc, loc);
    }
    tfe_attr_value_clear(&v);
    tfe_status_ok(status);
    return;
  }
  if (!tfe_attr_proto_decode(proto, proto_len, &v, status)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "Unparseable AttrValue proto");
    return;
  }
  desc_put(desc, attr_name, &v, 1);
  tfe_status_ok(status);
}

/* ------------------------------------------------------------------------
 * TF_FinishOperation. */

/* What the input matching collects. */
typedef struct flat_inputs {
  int n, cap;
  TF_Output* src; /* small until more inputs come */
  TF_Output small[16];
} flat_inputs;

static void flat_init(flat_inputs* f) {
  f->n = 0;
  f->cap = (int)(sizeof f->small / sizeof f->small[0]);
  f->src = f->small;
}

static void flat_free(flat_inputs* f) {
  if (f->src != f->small) tfe_free(f->src);
}

static int flat_push(flat_inputs* f, TF_Output o) {
  if (f->n == f->cap) {
    int cap = f->cap * 2;
    TF_Output* s;
    if (f->src == f->small) {
      s = (TF_Output*)tfe_malloc((size_t)cap * sizeof(*s));
      if (s != NULL) memcpy(s, f->small, sizeof f->small);
    } else {
      s = (TF_Output*)tfe_realloc(f->src, (size_t)cap * sizeof(*s));
    }
    if (s == NULL) return 0;
    f->src = s;
    f->cap = cap;
  }
  f->src[f->n++] = o;
  return 1;
}

static const char* dt_name(int t) {
  const char* n;
  if (t > 100) {
    n = tfe_dtype_short_name((TF_DataType)(t - 100));
    return n != NULL ? n : "invalid";
  }
  n = tfe_dtype_short_name((TF_DataType)t);
  return n != NULL ? n : "invalid";
}

/* TF's DataTypeString: "float", "float_ref". */
static void dt_text(int t, char* buf, size_t cap) {
  snprintf(buf, cap, "%s%s", dt_name(t), t > 100 ? "_ref" : "");
}

/* The dtype output `o` produces; 0 (with an error recorded) when `o` is
 * not a valid output for this description's graph. */
static int output_dtype(TF_OperationDescription* d, TF_Output o,
                        int* dtype) {
  if (o.oper == NULL) {
    input_error(d, "Attempt to add nullptr Node to node with type %s",
               d->op_type);
    return 0;
  }
  if (o.oper->graph != d->graph) {
    input_error(d,
               "Input '%s:%d' of node '%s' comes from a different graph "
               "(tfe does not create edges between graphs)",
               o.oper->name, o.index, d->name);
    return 0;
  }
  if (o.index < 0 || o.index >= o.oper->num_outputs) {
    input_error(d,
               "Attempt to add output %d of %s not in range [0, %d) to node "
               "with type %s. Node: {{node %s}}",
               o.index, o.oper->name, o.oper->num_outputs, d->op_type,
               o.oper->name);
    return 0;
  }
  *dtype = (int)o.oper->output_types[o.index];
  return 1;
}

/* Records attr `name` = dtype inferred from an input (an explicit value
 * must agree). */
static void infer_type_attr(TF_OperationDescription* d,
                            const tfe_op_def* def, const char* name,
                            int dtype) {
  tfe_attr_value v;
  TF_DataType t = (TF_DataType)(dtype > 100 ? dtype - 100 : dtype);
  const tfe_attr_value* cur = tfe_attrs_find(&d->attrs, name);
  /* Already set to that type (the usual case from the second input on). */
  if (cur != NULL && !cur->is_list && cur->type == TF_ATTR_TYPE &&
      cur->v.type == t) {
    return;
  }
  tfe_attr_value_set_type(&v, t);
  desc_put_name(d, name, &v, 1, def == d->reg_def);
}

static void check_input_type(TF_OperationDescription* d, const tfe_arg_def* a,
                             int expected, int got) {
  char e[40], g[40];
  if (a->is_ref && got <= 100) {
    dt_text(got, g, sizeof g);
    desc_error(d, "Input '%s' passed %s expected ref type", a->name, g);
    return;
  }
  if ((got > 100 ? got - 100 : got) != (expected > 100 ? expected - 100
                                                        : expected)) {
    dt_text(got, g, sizeof g);
    dt_text(expected, e, sizeof e);
    desc_error(d, "Input '%s' passed %s expected %s", a->name, g, e);
  }
}

/* Matches the description's inputs to the definition's input args. */
static void match_inputs(TF_OperationDescription* d, const tfe_op_def* def,
                         flat_inputs* flat) {
  int i, k;
  for (i = 0; i < d->num_inputs; i++) {
    const desc_input* in = &d->inputs[i];
    const tfe_arg_def* a;
    int dtype;
    if (i >= def->num_inputs) {
      desc_error(d, "More Input() calls than the %d input_args",
                 def->num_inputs);
      return;
    }
    a = &def->inputs[i];
    if (in->n < 0) {
      if (a->number_attr != NULL || a->type_list_attr != NULL) {
        desc_error(d, "Single tensor passed to '%s', expected list", a->name);
        continue;
      }
      if (!output_dtype(d, in->one, &dtype)) continue;
      if (a->type_attr != NULL) infer_type_attr(d, def, a->type_attr, dtype);
      if (a->type != 0) {
        check_input_type(d, a, a->is_ref ? (int)a->type + 100 : (int)a->type,
                         dtype);
      } else if (a->is_ref && dtype <= 100) {
        check_input_type(d, a, dtype + 100, dtype);
      }
      if (!flat_push(flat, in->one)) d->oom = 1;
      continue;
    }
    if (a->number_attr != NULL) {
      tfe_attr_value v;
      int first = -1;
      tfe_attr_value_set_int(&v, in->n);
      desc_put_name(d, a->number_attr, &v, 1, def == d->reg_def);
      for (k = 0; k < in->n; k++) {
        if (!output_dtype(d, in->list[k], &dtype)) continue;
        if (a->type != 0) {
          check_input_type(d, a,
                           a->is_ref ? (int)a->type + 100 : (int)a->type,
                           dtype);
        } else {
          if (first < 0) {
            first = dtype > 100 ? dtype - 100 : dtype;
            infer_type_attr(d, def, a->type_attr, first);
          }
          check_input_type(d, a, a->is_ref ? first + 100 : first, dtype);
        }
        if (!flat_push(flat, in->list[k])) d->oom = 1;
      }
    } else if (a->type_list_attr != NULL) {
      TF_DataType* types = NULL;
      tfe_attr_value v;
      int ok = 1, n = 0;
      if (in->n > 0) {
        types = (TF_DataType*)tfe_malloc((size_t)in->n * sizeof(TF_DataType));
        if (types == NULL) {
          d->oom = 1;
          return;
        }
      }
      for (k = 0; k < in->n; k++) {
        if (!output_dtype(d, in->list[k], &dtype)) {
          ok = 0;
          continue;
        }
        if (a->is_ref && dtype <= 100) check_input_type(d, a, dtype + 100, dtype);
        types[n++] = (TF_DataType)(dtype > 100 ? dtype - 100 : dtype);
        if (!flat_push(flat, in->list[k])) d->oom = 1;
      }
      if (ok) {
        desc_put_name(d, a->type_list_attr, &v,
                      tfe_attr_value_set_type_list(&v, types, n),
                      def == d->reg_def);
      }
      tfe_free(types);
    } else {
      desc_error(d, "List provided to input '%s' when single Tensor expected",
                 a->name);
    }
  }
  if (d->num_inputs < def->num_inputs) {
    desc_error(d, "%d inputs specified of %d inputs in Op", d->num_inputs,
               def->num_inputs);
  }
}

static void fail_status(TF_Status* s, TF_Code code, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void fail_status(TF_Status* s, TF_Code code, const char* fmt, ...) {
  va_list ap;
  char small[512];
  char* big = NULL;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n >= (int)sizeof small) {
    big = (char*)tfe_malloc((size_t)n + 1);
    if (big != NULL) {
      va_start(ap, fmt);
      vsnprintf(big, (size_t)n + 1, fmt, ap);
      va_end(ap);
    }
  }
  tfe_status_setf(s, code, "%s", big != NULL ? big : small);
  tfe_free(big);
}

static int cmp_attr_entry(const void* a, const void* b) {
  return strcmp(((const tfe_attr_entry*)a)->name,
                ((const tfe_attr_entry*)b)->name);
}

/* Every attr of the node must be known to the definition (names starting
 * with '_' are the graph's own), and every attr without a default must
 * be set. */
static int check_attr_names(TF_OperationDescription* d, const tfe_op_def* def,
                            TF_Status* s) {
  int i;
  for (i = 0; i < d->attrs.count; i++) {
    const char* n = d->attrs.items[i].name;
    if (n[0] == '_') continue;
    /* A borrowed name is one of the registered definition's attrs. */
    if (d->attrs.items[i].name_static && def == d->reg_def) continue;
    if (tfe_op_def_find_attr(def, n) == NULL) {
      char* sum = tfe_op_def_summarize(def);
      fail_status(s, TF_INVALID_ARGUMENT,
                  "NodeDef mentions attr '%s' not in %s; NodeDef: {{node "
                  "%s}}. (Check whether your GraphDef-interpreting binary is "
                  "up to date with your GraphDef-generating binary.).",
                  n, sum != NULL ? sum : def->name, d->name);
      tfe_free(sum);
      return 0;
    }
  }
  for (i = 0; i < def->num_attrs; i++) {
    const tfe_attr_def* a = &def->attrs[i];
    if (a->has_default || tfe_attrs_find(&d->attrs, a->name) != NULL) continue;
    {
      char* sum = tfe_op_def_summarize(def);
      fail_status(s, TF_INVALID_ARGUMENT,
                  "NodeDef missing attr '%s' from %s; NodeDef: {{node %s}}",
                  a->name, sum != NULL ? sum : def->name, d->name);
      tfe_free(sum);
      return 0;
    }
  }
  return 1;
}

/* Output dtypes (ref outputs as ref dtypes) and input dtypes under the
 * complete attrs. */
static int arg_types(const tfe_op_def* def, const tfe_attrs* attrs,
                     const tfe_arg_def* args, int num_args, TF_DataType* out,
                     int cap, int* count, TF_Status* s) {
  int i, k, n = 0;
  for (i = 0; i < num_args; i++) {
    const tfe_arg_def* a = &args[i];
    const tfe_attr_value* tl = NULL;
    TF_DataType one = a->type;
    int len = 1;
    /* A single tensor needs no attr to know its length. */
    if ((a->number_attr != NULL || a->type_list_attr != NULL) &&
        !tfe_op_def_arg_length(def, a, attrs, &len, s)) {
      return 0;
    }
    if (out == NULL) {
      n += len;
      continue;
    }
    /* The common cases with one attr lookup per arg; anything unusual goes
     * through the registry's helper, which reports errors. */
    if (a->type_list_attr != NULL) {
      tl = tfe_attrs_find(attrs, a->type_list_attr);
      if (tl != NULL && (!tl->is_list || tl->list_size != len ||
                         (len > 0 && tl->type != TF_ATTR_TYPE))) {
        tl = NULL;
      }
    } else if (a->type == 0 && a->type_attr != NULL) {
      const tfe_attr_value* v = tfe_attrs_find(attrs, a->type_attr);
      one = (v != NULL && !v->is_list && v->type == TF_ATTR_TYPE)
                ? v->v.type
                : (TF_DataType)0;
    }
    for (k = 0; k < len; k++) {
      TF_DataType t = tl != NULL ? tl->list.type[k] : one;
      if (t == 0 &&
          !tfe_op_def_arg_dtype(def, a, attrs, k, &t, s)) {
        return 0;
      }
      if (n < cap) out[n] = a->is_ref ? (TF_DataType)((int)t + 100) : t;
      n++;
    }
  }
  *count = n;
  return 1;
}

/* Reads a constant int vector/scalar tensor as shape dims. */
static int tensor_as_dims(const TF_Tensor* t, tfe_shape* out) {
  int64_t n, i;
  if (t == NULL || (t->dtype != TF_INT32 && t->dtype != TF_INT64)) return 0;
  if (t->num_dims != 1) return 0;
  n = t->dims[0];
  if (n < 0 || n > TFE_MAX_DIMS) return 0;
  out->dims = (int64_t*)tfe_malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  if (out->dims == NULL) return 0;
  for (i = 0; i < n; i++) {
    int64_t v = t->dtype == TF_INT32 ? ((const int32_t*)TF_TensorData(t))[i]
                                     : ((const int64_t*)TF_TensorData(t))[i];
    out->dims[i] = v < 0 ? -1 : v;
  }
  out->num_dims = (int)n;
  return 1;
}

static const TF_Tensor* const_value(const TF_Operation* op) {
  const tfe_attr_value* v;
  if (op == NULL || op->op_type[0] != 'C' ||
      strcmp(op->op_type, "Const") != 0) {
    return NULL;
  }
  v = tfe_attrs_find(&op->attrs, "value");
  if (v == NULL || v->is_list || v->type != TF_ATTR_TENSOR) return NULL;
  return v->v.tensor;
}

/* The value of output `o` read as a shape, when cheap to know: a Const
 * int vector, Shape of a tensor of known rank, or Pack of int scalars. */
static int partial_shape_of(TF_Output o, tfe_shape* out) {
  const TF_Operation* p = o.oper;
  int i;
  out->num_dims = -1;
  out->dims = NULL;
  if (p == NULL) return 0;
  if (strcmp(p->op_type, "Const") == 0) {
    return tensor_as_dims(const_value(p), out);
  }
  if (strcmp(p->op_type, "Shape") == 0 && p->num_inputs == 1 &&
      p->inputs[0].oper != NULL) {
    const tfe_shape* in =
        &p->inputs[0].oper->output_shapes[p->inputs[0].index];
    if (in->num_dims < 0) return 0;
    out->dims =
        (int64_t*)tfe_malloc((size_t)(in->num_dims + 1) * sizeof(int64_t));
    if (out->dims == NULL) return 0;
    if (in->num_dims > 0) {
      memcpy(out->dims, in->dims, (size_t)in->num_dims * sizeof(int64_t));
    }
    out->num_dims = in->num_dims;
    return 1;
  }
  if (strcmp(p->op_type, "Pack") == 0 && p->num_inputs <= TFE_MAX_DIMS) {
    out->dims =
        (int64_t*)tfe_malloc((size_t)(p->num_inputs + 1) * sizeof(int64_t));
    if (out->dims == NULL) return 0;
    for (i = 0; i < p->num_inputs; i++) {
      const TF_Tensor* c = const_value(p->inputs[i].oper);
      int64_t v = -1;
      if (c != NULL && c->num_dims == 0) {
        if (c->dtype == TF_INT32) v = *(const int32_t*)TF_TensorData(c);
        if (c->dtype == TF_INT64) v = *(const int64_t*)TF_TensorData(c);
      } else if (p->output_types[0] != TF_INT32 &&
                 p->output_types[0] != TF_INT64) {
        tfe_free(out->dims);
        out->dims = NULL;
        return 0;
      }
      out->dims[i] = v < 0 ? -1 : v;
    }
    out->num_dims = p->num_inputs;
    return 1;
  }
  return 0;
}

static const char* dtype_text(TF_DataType t) {
  const char* n = tfe_dtype_short_name(t);
  return n != NULL ? n : "invalid";
}

/* TF's ValidateVariableResourceHandle: the dtype attr of a variable op must
 * match the dtype the handle's data records. */
static int check_variable_dtype(const TF_Operation* op,
                                const tfe_handle_data* h, TF_Status* s) {
  static const char* const kOps[] = {"ReadVariableOp", "AssignVariableOp",
                                     "AssignAddVariableOp",
                                     "AssignSubVariableOp", NULL};
  TF_DataType dt;
  int i;
  if (h == NULL) return 1;
  for (i = 0; kOps[i] != NULL; i++) {
    if (strcmp(op->op_type, kOps[i]) == 0) break;
  }
  if (kOps[i] == NULL) return 1;
  if (!tfe_attrs_get_type(&op->attrs, "dtype", &dt, NULL)) return 1;
  if (h->dtypes[0] == dt) return 1;
  tfe_status_setf(s, TF_INVALID_ARGUMENT,
                  "Trying to read variable with wrong dtype. Expected %s got "
                  "%s for '{{node %s}} = %s[dtype=%s]'",
                  dtype_text(h->dtypes[0]), dtype_text(dt), op->name,
                  op->op_type, tfe_dtype_enum_name(dt));
  return 0;
}

/* Output handle data: VarHandleOp's from its attrs; ops that pass their
 * input through hand the input's along. Caller holds the graph's lock. */
static int set_output_handle_data(TF_Operation* op) {
  static const char* const kPass[] = {
      "Identity", "Snapshot", "StopGradient", "PreventGradient", "Enter",
      "Exit", "NextIteration", "PlaceholderWithDefault", "EnsureShape",
      "Switch", "Merge", "IdentityN",
      /* a gradient TensorArray has its forward array's element type */
      "TensorArrayGradV3", NULL};
  int i, k, any = 0;
  for (i = 0; i < op->num_outputs; i++) {
    if (op->output_types[i] == TF_RESOURCE ||
        op->output_types[i] == TF_VARIANT) {
      any = 1;
    }
  }
  if (!any) return 1; /* only handles carry handle data */
  if (strcmp(op->op_type, "VarHandleOp") == 0 && op->num_outputs == 1) {
    tfe_handle_data h;
    TF_DataType dt;
    const tfe_shape* sh;
    if (!tfe_attrs_get_type(&op->attrs, "dtype", &dt, NULL) ||
        !tfe_attrs_get_shape(&op->attrs, "shape", &sh, NULL)) {
      return 1;
    }
    tfe_handle_data one;
    one.num = 1;
    one.dtypes = &dt;
    one.shapes = (tfe_shape*)sh;
    if (!tfe_graph_handle_data_copy(&h, &one)) return 0;
    return tfe_graph_handle_data_set(op, 0, &h);
  }
  if (strcmp(op->op_type, "TensorArrayV3") == 0 && op->num_outputs == 2) {
    /* TF's shape function: the handle carries (dtype, element_shape) when
     * that shape is fully defined or all elements share one shape, so
     * reads and gathers get static shapes. */
    tfe_handle_data h, one;
    TF_DataType dt;
    const tfe_shape* sh;
    int ident = 0, full = 1;
    if (!tfe_attrs_get_type(&op->attrs, "dtype", &dt, NULL) ||
        !tfe_attrs_get_shape(&op->attrs, "element_shape", &sh, NULL)) {
      return 1;
    }
    tfe_attrs_get_bool(&op->attrs, "identical_element_shapes", &ident, NULL);
    if (sh->num_dims < 0) full = 0;
    for (k = 0; full && k < sh->num_dims; k++) {
      if (sh->dims[k] < 0) full = 0;
    }
    if (!full && !ident) return 1;
    one.num = 1;
    one.dtypes = &dt;
    one.shapes = (tfe_shape*)sh;
    if (!tfe_graph_handle_data_copy(&h, &one)) return 0;
    return tfe_graph_handle_data_set(op, 0, &h);
  }
  for (k = 0; kPass[k] != NULL; k++) {
    if (strcmp(op->op_type, kPass[k]) == 0) break;
  }
  if (kPass[k] == NULL) return 1;
  for (i = 0; i < op->num_outputs; i++) {
    const tfe_handle_data* src = NULL;
    tfe_handle_data h;
    int j;
    if (op->output_types[i] != TF_RESOURCE &&
        op->output_types[i] != TF_VARIANT) {
      continue;
    }
    if (strcmp(op->op_type, "IdentityN") == 0) {
      if (i < op->num_inputs) {
        src = tfe_graph_handle_data_of(op->inputs[i].oper, op->inputs[i].index);
      }
    } else if (strcmp(op->op_type, "Merge") == 0) {
      if (i == 0) {
        for (j = 0; j < op->num_inputs && src == NULL; j++) {
          src = tfe_graph_handle_data_of(op->inputs[j].oper,
                                         op->inputs[j].index);
        }
      }
    } else if (op->num_inputs > 0) {
      src = tfe_graph_handle_data_of(op->inputs[0].oper, op->inputs[0].index);
    }
    if (src == NULL) continue;
    if (!tfe_graph_handle_data_copy(&h, src) ||
        !tfe_graph_handle_data_set(op, i, &h)) {
      return 0;
    }
  }
  return 1;
}

/* "name" or "name:i" of every input, for shape-inference messages (only
 * built when inference failed). NULL on OOM. */
static char** input_names(const TF_Operation* op) {
  char** names = (char**)tfe_calloc((size_t)op->num_inputs, sizeof(char*));
  int i;
  if (names == NULL) return NULL;
  for (i = 0; i < op->num_inputs; i++) {
    const char* n = op->inputs[i].oper->name;
    size_t len = strlen(n);
    names[i] = (char*)tfe_malloc(len + 16);
    if (names[i] == NULL) continue;
    if (op->inputs[i].index == 0) {
      memcpy(names[i], n, len + 1);
    } else {
      snprintf(names[i], len + 16, "%s:%d", n, op->inputs[i].index);
    }
  }
  return names;
}

/* Runs shape inference for `op` (its inputs, attrs and types are set);
 * fills op->output_shapes and the outputs' handle data. */
static int infer_shapes(TF_Operation* op, TF_Status* s) {
  tfe_shape_infer_args a;
  tfe_shape in_small[8], as_small[8], hs_small[8];
  TF_Tensor* val_small[8];
  tfe_shape* in_shapes = in_small;
  tfe_shape* as_shapes = as_small;
  tfe_shape* handle_shapes = hs_small;
  TF_Tensor** values = val_small;
  int i, ok, n = op->num_inputs, any_val = 0, any_as = 0, any_handle = 0;
  const TF_Operation* prev_op;
  if (n > 8) {
    in_shapes = (tfe_shape*)tfe_calloc((size_t)n, sizeof(tfe_shape));
    as_shapes = (tfe_shape*)tfe_calloc((size_t)n, sizeof(tfe_shape));
    handle_shapes = (tfe_shape*)tfe_calloc((size_t)n, sizeof(tfe_shape));
    values = (TF_Tensor**)tfe_calloc((size_t)n, sizeof(TF_Tensor*));
    if (in_shapes == NULL || as_shapes == NULL || values == NULL ||
        handle_shapes == NULL) {
      tfe_free(in_shapes);
      tfe_free(as_shapes);
      tfe_free(handle_shapes);
      tfe_free(values);
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "out of memory inferring shapes of %s", op->name);
      return 0;
    }
  }
  for (i = 0; i < n; i++) as_shapes[i].dims = NULL;
  for (i = 0; i < n; i++) {
    TF_Output src = op->inputs[i];
    const tfe_handle_data* h = NULL;
    in_shapes[i] = src.oper->output_shapes[src.index];
    values[i] = (TF_Tensor*)const_value(src.oper);
    if (values[i] != NULL) any_val = 1;
    as_shapes[i].num_dims = -1;
    as_shapes[i].dims = NULL;
    if ((op->input_types[i] == TF_INT32 || op->input_types[i] == TF_INT64) &&
        partial_shape_of(src, &as_shapes[i])) {
      any_as = 1;
    }
    handle_shapes[i].num_dims = -1;
    handle_shapes[i].dims = NULL;
    if (op->input_types[i] == TF_RESOURCE || op->input_types[i] == TF_VARIANT) {
      h = tfe_graph_handle_data_of(src.oper, src.index);
    }
    if (h != NULL) {
      handle_shapes[i] = h->shapes[0]; /* borrowed */
      any_handle = 1;
      if (i == 0 && !check_variable_dtype(op, h, s)) {
        ok = 0;
        goto done;
      }
    }
  }
  memset(&a, 0, sizeof a);
  a.def = op->def;
  a.attrs = &op->attrs;
  a.num_inputs = n;
  a.input_shapes = in_shapes;
  a.input_types = op->input_types;
  a.input_values = any_val ? values : NULL;
  a.input_as_shapes = any_as ? as_shapes : NULL;
  a.input_handle_shapes = any_handle ? handle_shapes : NULL;
  a.num_outputs = op->num_outputs;
  if (op->dims_inline != NULL) {
    a.out_dims_inline = op->dims_inline;
    a.out_dims_inline_cap = TFE_OP_INLINE_DIMS;
  }
  /* Call ops infer through function bodies of this graph's library. */
  prev_op = tfe_fn_shapes_enter(op);
  ok = tfe_shape_infer(&a, op->name, op->output_shapes, s);
  if (!ok && n > 0 && TF_GetCode(s) == TF_INVALID_ARGUMENT) {
    /* Again with the input names, for TF's message. */
    char** names = input_names(op);
    int k;
    for (k = 0; names != NULL && k < n && names[k] != NULL; k++) {
    }
    if (names != NULL && k == n) {
      a.input_names = (const char* const*)names;
      ok = tfe_shape_infer(&a, op->name, op->output_shapes, s);
    }
    for (k = 0; names != NULL && k < n; k++) tfe_free(names[k]);
    tfe_free(names);
  }
  if (ok) ok = tfe_fn_shapes_by_name(&a, op->output_shapes, s);
  tfe_fn_shapes_enter(prev_op);
  if (ok && !set_output_handle_data(op)) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory inferring shapes of %s", op->name);
    ok = 0;
  }
done:
  for (i = 0; i < n; i++) tfe_free(as_shapes[i].dims);
  if (in_shapes != in_small) {
    tfe_free(in_shapes);
    tfe_free(as_shapes);
    tfe_free(handle_shapes);
    tfe_free(values);
  }
  return ok;
}

/* A new operation in ONE block (op->packed): the struct, the per-input
 * arrays, the per-output arrays (zeroed; every output shape unknown), the
 * attr entries (op->attrs borrows them: nattrs slots, empty), for
 * descriptions of imports (d->spare) room for small output dims
 * (op->dims_inline), the name and, unless it is a registered op's own
 * name, the op type. */
static TF_Operation* op_alloc(const TF_OperationDescription* d, int nin,
                              int nout, int nattrs, size_t* block_size) {
  size_t name_len = strlen(d->name), type_len = 0, size, off_in, off_shapes,
         off_cons, off_itypes, off_otypes, off_ncons, off_capc, off_inline,
         off_attrs, off_dims, off_name;
  const char* type_src = NULL;
  TF_Operation* op;
  char* blk;
  int i;
  if (!d->op_type_static) {
    type_src = d->op_type;
    type_len = strlen(type_src);
  }
  size = (sizeof(TF_Operation) + 7) & ~(size_t)7;
  off_in = size;
  size += (size_t)nin * sizeof(TF_Output);
  off_shapes = size;
  size += (size_t)nout * sizeof(tfe_shape);
  off_cons = size;
  size += (size_t)nout * sizeof(TF_Input*);
  off_itypes = size;
  size += (size_t)nin * sizeof(TF_DataType);
  off_otypes = size;
  size += (size_t)nout * sizeof(TF_DataType);
  off_ncons = size;
  size += (size_t)nout * sizeof(int);
  off_capc = size;
  size += (size_t)nout * sizeof(int);
  size = (size + 7) & ~(size_t)7;
  off_inline = size;
  size += (size_t)nout * TFE_OP_INLINE_CONSUMERS * sizeof(TF_Input);
  off_attrs = size;
  size += (size_t)nattrs * sizeof(tfe_attr_entry);
  off_dims = size;
  if (d->spare != NULL) {
    size += (size_t)nout * TFE_OP_INLINE_DIMS * sizeof(int64_t);
  }
  off_name = size;
  size += name_len + 1 + (type_src != NULL ? type_len + 1 : 0);
  *block_size = size;
  blk = (char*)tfe_graph_arena_alloc(d->graph, size);
  if (blk == NULL && tfe_graph_arena_grow(d->graph, size)) {
    blk = (char*)tfe_graph_arena_alloc(d->graph, size);
  }
  if (blk != NULL) {
    op = (TF_Operation*)blk;
    op->packed = 2;
  } else {
    blk = (char*)tfe_calloc(1, size);
    if (blk == NULL) return NULL;
    op = (TF_Operation*)blk;
    op->packed = 1;
  }
  op->num_inputs = nin;
  op->num_outputs = nout;
  if (nin > 0) {
    op->inputs = (TF_Output*)(blk + off_in);
    op->input_types = (TF_DataType*)(blk + off_itypes);
  }
  if (nout > 0) {
    op->output_shapes = (tfe_shape*)(blk + off_shapes);
    op->consumers = (TF_Input**)(blk + off_cons);
    op->output_types = (TF_DataType*)(blk + off_otypes);
    op->num_consumers = (int*)(blk + off_ncons);
    op->cap_consumers = (int*)(blk + off_capc);
    op->consumers_inline = (TF_Input*)(blk + off_inline);
    for (i = 0; i < nout; i++) {
      op->output_shapes[i].num_dims = -1;
      op->consumers[i] = op->consumers_inline + i * TFE_OP_INLINE_CONSUMERS;
      op->cap_consumers[i] = TFE_OP_INLINE_CONSUMERS;
    }
  }
  if (d->spare != NULL && nout > 0) {
    op->dims_inline = (int64_t*)(blk + off_dims);
  }
  if (nattrs > 0) {
    op->attrs.items = (tfe_attr_entry*)(blk + off_attrs);
    op->attrs.cap = nattrs;
    op->attrs.items_borrowed = 1;
  }
  op->name = blk + off_name;
  memcpy(op->name, d->name, name_len + 1);
  if (type_src != NULL) {
    op->op_type = op->name + name_len + 1;
    memcpy(op->op_type, type_src, type_len + 1);
  } else {
    op->op_type = d->op_type; /* a registered definition's name */
  }
  return op;
}

static TF_Operation* finish_locked(TF_OperationDescription* d,
                                   TF_Status* s) {
  TF_Graph* g = d->graph;
  const tfe_op_def* def;
  flat_inputs flat;
  TF_Operation* op = NULL;
  TF_Operation* dup = NULL;
  tfe_name_probe probe;
  size_t op_size = 0;
  int i, nout = 0, nin = 0, typed = 1;
  enum { TYPES_SMALL = 16 };
  TF_DataType itypes[TYPES_SMALL], otypes[TYPES_SMALL];

  flat_init(&flat);
  if (d->oom) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "Out of memory while building NodeDef '%s'", d->name);
    return NULL;
  }
  if (!tfe_graph_probe(g, d->name, &dup, &probe)) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "Out of memory while adding node '%s'", d->name);
    return NULL;
  }
  if (dup != NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Duplicate node name in graph: '%s'", d->name);
    return NULL;
  }
  /* Registered definitions are never freed: the one TF_NewOperation
   * found is still the op's. */
  def = d->reg_def != NULL ? d->reg_def : tfe_op_lookup(d->op_type);
  if (def == NULL && g->flib != NULL) {
    def = tfe_flib_signature(g->flib, d->op_type);
  }
  if (def == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Op type not registered '%s' in binary running on tfe. "
                    "Make sure the Op and Kernel are registered in the binary "
                    "running in this process. while building NodeDef '%s'",
                    d->op_type, d->name);
    return NULL;
  }
  match_inputs(d, def, &flat);
  if (d->oom) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "Out of memory while building NodeDef '%s'", d->name);
    goto fail;
  }
  if (d->num_input_errors > 0) {
    fail_status(s, TF_INVALID_ARGUMENT, "%s",
                d->input_errors != NULL ? d->input_errors : "");
    goto fail;
  }
  if (d->num_errors == 1) {
    char* sum = tfe_op_def_summarize(def);
    fail_status(s, TF_INVALID_ARGUMENT, "%s while building NodeDef '%s' using %s",
                d->errors != NULL ? d->errors : "", d->name,
                sum != NULL ? sum : def->name);
    tfe_free(sum);
    goto fail;
  }
  if (d->num_errors > 1) {
    char* sum = tfe_op_def_summarize(def);
    fail_status(s, TF_INVALID_ARGUMENT,
                "%d errors while building NodeDef '%s' using %s:\n%s",
                d->num_errors, d->name, sum != NULL ? sum : def->name,
                d->errors != NULL ? d->errors : "");
    tfe_free(sum);
    goto fail;
  }
  if (!check_attr_names(d, def, s)) goto fail;
  if (!(def == d->reg_def
            ? tfe_op_def_complete_attrs_static(def, &d->attrs, s)
            : tfe_op_def_complete_attrs(def, &d->attrs, s))) {
    goto fail;
  }
  if (d->num_coloc > 0) {
    tfe_attr_value v;
    size_t* lens = (size_t*)tfe_malloc((size_t)d->num_coloc * sizeof(size_t));
    int ok;
    if (lens == NULL) goto oom;
    for (i = 0; i < d->num_coloc; i++) lens[i] = strlen(d->coloc[i]);
    ok = tfe_attr_value_set_string_list(&v, (const void* const*)d->coloc, lens,
                                        d->num_coloc);
    tfe_free(lens);
    if (!ok || !tfe_attrs_put(&d->attrs, "_class", &v)) goto oom;
  }
  if (d->attrs.count > 1) {
    qsort(d->attrs.items, (size_t)d->attrs.count, sizeof(tfe_attr_entry),
          cmp_attr_entry);
  }
  /* Flat dtypes: one pass into small arrays; a second one into the
   * operation when they did not fit. When the first pass fails, the
   * counts alone decide first (the errors come in the old order). */
  if (!arg_types(def, &d->attrs, def->inputs, def->num_inputs, itypes,
                 TYPES_SMALL, &nin, s) ||
      !arg_types(def, &d->attrs, def->outputs, def->num_outputs, otypes,
                 TYPES_SMALL, &nout, s)) {
    typed = 0;
    if (!arg_types(def, &d->attrs, def->inputs, def->num_inputs, NULL, 0,
                   &nin, s) ||
        !arg_types(def, &d->attrs, def->outputs, def->num_outputs, NULL, 0,
                   &nout, s)) {
      goto fail;
    }
  }
  if (nin != flat.n) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "NodeDef expected %d inputs but %d were given; NodeDef: "
                    "{{node %s}}",
                    nin, flat.n, d->name);
    goto fail;
  }
  if (d->check_removed && tfe_op_lookup(def->name) == def &&
      !tfe_op_check_not_removed(def->name, g->producer, s)) {
    goto fail;
  }
  op = op_alloc(d, nin, nout, d->attrs.count, &op_size);
  if (op == NULL) goto oom;
  if (nin > 0) memcpy(op->inputs, flat.src, (size_t)nin * sizeof(TF_Output));
  if (typed && nin <= TYPES_SMALL) {
    if (nin > 0) memcpy(op->input_types, itypes, (size_t)nin * sizeof(*itypes));
  } else if (!arg_types(def, &d->attrs, def->inputs, def->num_inputs,
                        op->input_types, nin, &nin, s)) {
    goto fail;
  }
  if (typed && nout <= TYPES_SMALL) {
    if (nout > 0) {
      memcpy(op->output_types, otypes, (size_t)nout * sizeof(*otypes));
    }
  } else if (!arg_types(def, &d->attrs, def->outputs, def->num_outputs,
                        op->output_types, nout, &nout, s)) {
    goto fail;
  }
  if (d->num_ctl > 0) {
    for (i = 0; i < d->num_ctl; i++) {
      if (d->ctl[i]->graph != g) {
        tfe_status_setf(s, TF_INVALID_ARGUMENT,
                        "Control input '%s' of node '%s' comes from a "
                        "different graph",
                        d->ctl[i]->name, d->name);
        goto fail;
      }
    }
    op->control_inputs = d->ctl;
    op->num_control_inputs = d->num_ctl;
    d->ctl = NULL;
    d->num_ctl = 0;
  }
  op->graph = g;
  op->def = def;
  op->device = d->device != NULL ? d->device : tfe_graph_no_device;
  d->device = NULL;
  /* The entries move into the operation's block; the description keeps
   * its (now empty) item array. */
  if (d->attrs.count > 0) {
    memcpy(op->attrs.items, d->attrs.items,
           (size_t)d->attrs.count * sizeof(tfe_attr_entry));
    op->attrs.count = d->attrs.count;
    d->attrs.count = 0;
  }
  /* Function calls always have one (unknown shapes), as in TF. */
  if (g->require_shape_fns && tfe_op_lookup(def->name) == def &&
      !tfe_shape_infer_known(def)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "No shape inference function exists for op '%s', did you "
                    "forget to define it?",
                    def->name);
    goto fail;
  }
  if (!infer_shapes(op, s)) goto fail;
  if (!tfe_graph_add_op_probed(g, op, &probe)) goto oom;
  flat_free(&flat);
  tfe_status_ok(s);
  return op;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "Out of memory while adding node '%s'",
                  d->name != NULL ? d->name : (op != NULL ? op->name : ""));
fail:
  flat_free(&flat);
  {
    /* A block just taken from the arena goes back to it. */
    int in_arena = op != NULL && op->packed == 2;
    tfe_graph_op_free(op);
    if (in_arena) tfe_graph_arena_unalloc(g, op, op_size);
  }
  return NULL;
}

TF_Operation* TF_FinishOperationLocked(TF_OperationDescription* desc,
                                       TF_Status* status) {
  TF_Operation* op;
  if (desc == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_FinishOperation: the description is NULL (an earlier "
                    "TF_NewOperation failed)");
    return NULL;
  }
  op = finish_locked(desc, status);
  if (op == NULL && TF_GetCode(status) == TF_INVALID_ARGUMENT &&
      tfe_alloc_failures() != desc->alloc_failures0) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "Out of memory while building NodeDef '%s'",
                    desc->name != NULL ? desc->name : "");
  }
  desc_free(desc);
  return op;
}

TF_Operation* TF_FinishOperation(TF_OperationDescription* desc,
                                 TF_Status* status) {
  TF_Graph* g;
  TF_Operation* op;
  if (desc == NULL) return TF_FinishOperationLocked(NULL, status);
  g = desc->graph;
  desc->check_removed = 1;
  pthread_mutex_lock(&g->mu);
  op = TF_FinishOperationLocked(desc, status);
  pthread_mutex_unlock(&g->mu);
  return op;
}
