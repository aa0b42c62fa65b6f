/* Ops: creation and recycling, device requests, inputs with TF's
 * incremental attr inference, argument lengths, TFE_OpReset. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/eager_internal.h"

/* ------------------------------------------------------------------------
 * Lookup. */

const tfe_op_def* tfe_op_lookup_def(const char* name, TF_Status* s) {
  const tfe_op_def* def = tfe_op_lookup(name);
  if (def == NULL) {
    char host[256];
    if (gethostname(host, sizeof(host)) != 0) strcpy(host, "localhost");
    host[sizeof(host) - 1] = '\0';
    tfe_status_setf(s, TF_NOT_FOUND,
                    "Op type not registered '%s' in binary running on %s. "
                    "Make sure the Op and Kernel are registered in the binary "
                    "running in this process.",
                    name, host);
  }
  return def;
}

int tfe_op_check(const TFE_Op* op, const char* fn, TF_Status* s) {
  if (op == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: op is NULL", fn);
    return 0;
  }
  if (op->magic != TFE_OP_MAGIC) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: the argument is not a live TFE_Op", fn);
    return 0;
  }
  return 1;
}

/* 1 when op has a definition (a failed TFE_OpReset leaves none). */
static int has_def(const TFE_Op* op, const char* fn, TF_Status* s) {
  if (op->def == NULL) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "%s: the op has no type (a TFE_OpReset failed); reset it "
                    "to a registered op first",
                    fn);
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * Lifetime. */

static TFE_Op* op_alloc(void) {
  TFE_Op* op = (TFE_Op*)tfe_calloc(1, sizeof(*op));
  if (op == NULL) return NULL;
  op->inputs = op->inputs_inline;
  op->cap_inputs = TFE_OP_INLINE_INPUTS;
  tfe_attrs_init(&op->attrs);
  tfe_attrs_init(&op->extra);
  op->attrs_view.op = op;
  return op;
}

void tfe_op_attrs_reset(TFE_Op* op) {
  int i;
  for (i = 0; i < op->attrs.count; i++) {
    tfe_attr_value_clear(&op->attrs.items[i].value);
  }
  op->attrs.count = 0;
  if (op->extra.count > 0) tfe_attrs_clear(&op->extra);
  op->attrs_hash = 0;
}

void tfe_op_clear(TFE_Op* op) {
  int i;
  for (i = 0; i < op->num_inputs; i++) tfe_handle_unref(op->inputs[i]);
  op->num_inputs = 0;
  tfe_op_attrs_reset(op);
  op->has_device = 0;
  if (op->device_name != NULL) op->device_name[0] = '\0';
  op->placed = NULL;
  op->infer_arg = 0;
  op->deferred_error = TF_OK;
  op->xla = 0;
  op->cancel = NULL;
}

void tfe_op_free(TFE_Op* op) {
  tfe_op_clear(op);
  if (op->inputs != op->inputs_inline) tfe_free(op->inputs);
  /* Entry names of op->attrs are borrowed; only the array is ours. */
  tfe_free(op->attrs.items);
  tfe_attrs_destroy(&op->extra);
  tfe_free(op->device_name);
  op->magic = TFE_DEAD_MAGIC;
  tfe_free(op);
}

/* Recycled ops, per thread: a cleared op belongs to no context, so any
 * context of the thread can reuse it without locks. What is left when the
 * thread exits is freed by a thread-specific-data destructor. */
#define OP_CACHE_MAX 4
static _Thread_local TFE_Op* t_ops[OP_CACHE_MAX];
static _Thread_local int t_nops;
static pthread_key_t g_ops_key;
static pthread_once_t g_ops_key_once = PTHREAD_ONCE_INIT;
static int g_ops_key_ok;

static void free_thread_ops(void* unused) {
  (void)unused;
  while (t_nops > 0) tfe_op_free(t_ops[--t_nops]);
}

static void make_ops_key(void) {
  g_ops_key_ok = pthread_key_create(&g_ops_key, free_thread_ops) == 0;
}

/* Keeps a cleared op for reuse; 0 when the cache is full (or cannot be
 * cleaned up at thread exit). */
static int cache_op(TFE_Op* op) {
  if (t_nops >= OP_CACHE_MAX) return 0;
  if (t_nops == 0) {
    pthread_once(&g_ops_key_once, make_ops_key);
    /* Registers the destructor for this thread (any non-NULL value). */
    if (!g_ops_key_ok || pthread_setspecific(g_ops_key, &t_nops) != 0) {
      return 0;
    }
  }
  t_ops[t_nops++] = op;
  return 1;
}

TFE_Op* TFE_NewOp(TFE_Context* ctx, const char* op_or_function_name,
                  TF_Status* status) {
  const tfe_op_def* def;
  TFE_Op* op;
  if (!tfe_ctx_check(ctx, "TFE_NewOp", status)) return NULL;
  if (op_or_function_name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "TFE_NewOp: name is NULL");
    return NULL;
  }
  def = tfe_ctx_lookup_def(ctx, op_or_function_name, status);
  if (def == NULL) return NULL;
  op = t_nops > 0 ? t_ops[--t_nops] : NULL;
  if (op == NULL) {
    op = op_alloc();
    if (op == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TFE_NewOp: out of memory");
      return NULL;
    }
  }
  op->magic = TFE_OP_MAGIC;
  op->ctx = ctx;
  op->def = def;
  tfe_ctx_ref(ctx);
  tfe_count_inc(TFE_OBJ_OP);
  tfe_status_ok(status);
  return op;
}

void TFE_DeleteOp(TFE_Op* op) {
  TFE_Context* ctx;
  if (op == NULL || op->magic != TFE_OP_MAGIC) return;
  ctx = op->ctx;
  tfe_op_clear(op);
  op->magic = TFE_DEAD_MAGIC; /* a pooled op is not a live op */
  tfe_count_dec(TFE_OBJ_OP);
  op->ctx = NULL;
  if (!cache_op(op)) tfe_op_free(op);
  tfe_ctx_unref(ctx);
}

/* ------------------------------------------------------------------------
 * Metadata and device. */

const char* TFE_OpGetName(const TFE_Op* op, TF_Status* status) {
  if (!tfe_op_check(op, "TFE_OpGetName", status)) return NULL;
  tfe_status_ok(status);
  return op->def != NULL ? op->def->name : "";
}

TFE_Context* TFE_OpGetContext(const TFE_Op* op, TF_Status* status) {
  if (!tfe_op_check(op, "TFE_OpGetContext", status)) return NULL;
  tfe_status_ok(status);
  return op->ctx;
}

/* The op keeps TF's canonical form of the requested name (what
 * TFE_OpGetDevice returns): "/cpu:0" is kept as "/device:CPU:0",
 * "/job:localhost/device:CPU:0" stays as given, "" means no request. */
int tfe_op_set_device(TFE_Op* op, const char* name, TF_Status* s) {
  tfe_device_spec spec;
  char canon[TFE_DEVICE_NAME_MAX + 128];
  int len;
  size_t n;
  if (!tfe_device_spec_parse(name, &spec)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Malformed device specification '%s' in eager op: %s",
                    name, op->def != NULL ? op->def->name : "");
    return 0;
  }
  len = tfe_device_spec_format(&spec, canon, sizeof(canon));
  if (len < 0) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Malformed device specification '%s' in eager op: %s "
                    "(the name is too long)",
                    name, op->def != NULL ? op->def->name : "");
    return 0;
  }
  name = canon;
  n = (size_t)len;
  if (op->device_name == NULL || op->device_cap < n + 1) {
    size_t cap = n + 1 < 64 ? 64 : n + 1;
    char* p = (char*)tfe_malloc(cap);
    if (p == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "TFE_OpSetDevice: out of memory");
      return 0;
    }
    tfe_free(op->device_name);
    op->device_name = p;
    op->device_cap = cap;
  }
  memcpy(op->device_name, name, n + 1);
  op->spec = spec;
  op->has_device = !tfe_device_spec_is_empty(&spec);
  op->placed = NULL;
  tfe_status_ok(s);
  return 1;
}

void TFE_OpSetDevice(TFE_Op* op, const char* device_name, TF_Status* status) {
  if (!tfe_op_check(op, "TFE_OpSetDevice", status)) return;
  /* As in TF, no name (NULL) is "": the request is cleared. */
  tfe_op_set_device(op, device_name != NULL ? device_name : "", status);
}

const char* TFE_OpGetDevice(const TFE_Op* op, TF_Status* status) {
  if (!tfe_op_check(op, "TFE_OpGetDevice", status)) return NULL;
  tfe_status_ok(status);
  return op->device_name != NULL ? op->device_name : "";
}

/* ------------------------------------------------------------------------
 * Inputs and attr inference.
 *
 * Like TF, each TFE_OpAddInput fills the next input argument of the
 * definition and, when that argument's dtype comes from a type attr that
 * is not set yet, sets it from the input. TFE_OpAddInputList fills a list
 * argument and sets its length attr (N) and type attr(s). Adding a single
 * input to a list argument switches inference off for the rest of the op,
 * since the end of such a list cannot be known. */

static int grow_inputs(TFE_Op* op, int extra) {
  int need = op->num_inputs + extra, cap;
  TFE_TensorHandle** p;
  if (need <= op->cap_inputs) return 1;
  if (need < 0 || need > (1 << 24)) return 0;
  cap = op->cap_inputs * 2;
  if (cap < need) cap = need;
  if (op->inputs == op->inputs_inline) {
    p = (TFE_TensorHandle**)tfe_malloc(sizeof(*p) * (size_t)cap);
    if (p == NULL) return 0;
    memcpy(p, op->inputs, sizeof(*p) * (size_t)op->num_inputs);
  } else {
    p = (TFE_TensorHandle**)tfe_realloc(op->inputs, sizeof(*p) * (size_t)cap);
    if (p == NULL) return 0;
  }
  op->inputs = p;
  op->cap_inputs = cap;
  return 1;
}

/* Next argument for inference, or NULL (inference off / past the end). */
static const tfe_arg_def* next_arg(TFE_Op* op) {
  if (op->def == NULL || op->infer_arg < 0) return NULL;
  if (op->infer_arg >= op->def->num_inputs) {
    /* More inputs than the definition has: TFE_Execute will report it. */
    op->infer_arg = -1;
    return NULL;
  }
  return &op->def->inputs[op->infer_arg++];
}

static void put_or_defer(TFE_Op* op, const char* name, tfe_attr_value* v) {
  if (!tfe_op_put_attr(op, name, v) && op->deferred_error == TF_OK) {
    op->deferred_error = TF_RESOURCE_EXHAUSTED;
  }
}

static void infer_single(TFE_Op* op, const TFE_TensorHandle* h) {
  const tfe_arg_def* a = next_arg(op);
  tfe_attr_value v;
  if (a == NULL) return;
  if (a->number_attr != NULL || a->type_list_attr != NULL) {
    op->infer_arg = -1;
    return;
  }
  if (a->type_attr != NULL) {
    tfe_attr_value_set_type(&v, h->dtype);
    put_or_defer(op, a->type_attr, &v);
  }
}

static int infer_list(TFE_Op* op, TFE_TensorHandle* const* hs, int n,
                      TF_Status* s) {
  const tfe_arg_def* a = next_arg(op);
  tfe_attr_value v;
  if (a == NULL) return 1;
  if (a->number_attr != NULL) {
    tfe_attr_value_set_int(&v, n);
    put_or_defer(op, a->number_attr, &v);
    if (a->type_attr != NULL && n > 0) {
      tfe_attr_value_set_type(&v, hs[0]->dtype);
      put_or_defer(op, a->type_attr, &v);
    }
    return 1;
  }
  if (a->type_list_attr != NULL) {
    TF_DataType inline_types[16];
    TF_DataType* types = inline_types;
    int i;
    if (n > 16) {
      types = (TF_DataType*)tfe_malloc(sizeof(TF_DataType) * (size_t)n);
      if (types == NULL) {
        if (op->deferred_error == TF_OK) {
          op->deferred_error = TF_RESOURCE_EXHAUSTED;
        }
        return 1;
      }
    }
    for (i = 0; i < n; i++) types[i] = hs[i]->dtype;
    if (!tfe_attr_value_set_type_list(&v, types, n)) {
      if (op->deferred_error == TF_OK) {
        op->deferred_error = TF_RESOURCE_EXHAUSTED;
      }
    } else {
      put_or_defer(op, a->type_list_attr, &v);
    }
    if (types != inline_types) tfe_free(types);
    return 1;
  }
  tfe_status_setf(s, TF_INVALID_ARGUMENT,
                  "Invalid input list definition: input '%s' of op %s is not "
                  "a list",
                  a->name, op->def->name);
  return 0;
}

void TFE_OpAddInput(TFE_Op* op, TFE_TensorHandle* input, TF_Status* status) {
  if (!tfe_op_check(op, "TFE_OpAddInput", status)) return;
  if (!tfe_handle_check(input, "TFE_OpAddInput", status)) return;
  if (op->num_inputs == op->cap_inputs && !grow_inputs(op, 1)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_OpAddInput: out of memory");
    return;
  }
  tfe_handle_ref(input);
  op->inputs[op->num_inputs++] = input;
  if (op->num_inputs == 1 && !op->has_device) op->placed = NULL;
  infer_single(op, input);
  tfe_status_ok(status);
}

void TFE_OpAddInputList(TFE_Op* op, TFE_TensorHandle** inputs, int num_inputs,
                        TF_Status* status) {
  int i;
  if (!tfe_op_check(op, "TFE_OpAddInputList", status)) return;
  if (num_inputs < 0 || (num_inputs > 0 && inputs == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_OpAddInputList: invalid list (%d inputs at %p)",
                    num_inputs, (void*)inputs);
    return;
  }
  for (i = 0; i < num_inputs; i++) {
    if (!tfe_handle_check(inputs[i], "TFE_OpAddInputList", status)) return;
  }
  if (!grow_inputs(op, num_inputs)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_OpAddInputList: out of memory");
    return;
  }
  if (op->num_inputs == 0 && num_inputs > 0 && !op->has_device) {
    op->placed = NULL;
  }
  for (i = 0; i < num_inputs; i++) {
    tfe_handle_ref(inputs[i]);
    op->inputs[op->num_inputs++] = inputs[i];
  }
  if (!infer_list(op, inputs, num_inputs, status)) return;
  tfe_status_ok(status);
}

int TFE_OpGetFlatInputCount(const TFE_Op* op, TF_Status* status) {
  if (!tfe_op_check(op, "TFE_OpGetFlatInputCount", status)) return -1;
  tfe_status_ok(status);
  return op->num_inputs;
}

TFE_TensorHandle* TFE_OpGetFlatInput(const TFE_Op* op, int index,
                                     TF_Status* status) {
  if (!tfe_op_check(op, "TFE_OpGetFlatInput", status)) return NULL;
  if (index < 0 || index >= op->num_inputs) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_OpGetFlatInput: index %d out of range; the op has "
                    "%d inputs",
                    index, op->num_inputs);
    return NULL;
  }
  tfe_status_ok(status);
  return op->inputs[index];
}

/* ------------------------------------------------------------------------
 * Attr types and argument lengths. */

static TF_AttrType attr_type_of(const tfe_op_def* def, const char* op_name,
                                const char* attr_name, unsigned char* is_list,
                                TF_Status* s) {
  const tfe_attr_def* ad;
  if (attr_name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "attr_name is NULL");
    return TF_ATTR_INT;
  }
  ad = tfe_op_def_find_attr(def, attr_name);
  if (ad == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Attribute '%s' does not exist for op '%s'", attr_name,
                    op_name);
    return TF_ATTR_INT;
  }
  if (is_list != NULL) *is_list = ad->is_list ? 1 : 0;
  tfe_status_ok(s);
  return ad->type;
}

TF_AttrType TFE_OpGetAttrType(TFE_Op* op, const char* attr_name,
                              unsigned char* is_list, TF_Status* status) {
  if (!tfe_op_check(op, "TFE_OpGetAttrType", status)) return TF_ATTR_INT;
  if (!has_def(op, "TFE_OpGetAttrType", status)) return TF_ATTR_INT;
  return attr_type_of(op->def, op->def->name, attr_name, is_list, status);
}

TF_AttrType TFE_OpNameGetAttrType(TFE_Context* ctx,
                                  const char* op_or_function_name,
                                  const char* attr_name,
                                  unsigned char* is_list, TF_Status* status) {
  const tfe_op_def* def;
  if (!tfe_ctx_check(ctx, "TFE_OpNameGetAttrType", status)) return TF_ATTR_INT;
  if (op_or_function_name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_OpNameGetAttrType: op name is NULL");
    return TF_ATTR_INT;
  }
  def = tfe_ctx_lookup_def(ctx, op_or_function_name, status);
  if (def == NULL) return TF_ATTR_INT;
  return attr_type_of(def, def->name, attr_name, is_list, status);
}

static int arg_length(TFE_Op* op, const tfe_arg_def* args, int nargs,
                      const char* name, const char* what, const char* fn,
                      TF_Status* s) {
  int i, len = -1;
  if (!tfe_op_check(op, fn, s) || !has_def(op, fn, s)) return -1;
  if (name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: name is NULL", fn);
    return -1;
  }
  for (i = 0; i < nargs; i++) {
    if (strcmp(args[i].name, name) == 0) break;
  }
  if (i == nargs) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s '%s' not found", what, name);
    return -1;
  }
  if (!tfe_op_def_arg_length(op->def, &args[i], &op->attrs, &len, s)) {
    if (TF_GetCode(s) == TF_OK) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "%s: the length of '%s' is not known yet", fn, name);
    }
    return -1;
  }
  tfe_status_ok(s);
  return len;
}

int TFE_OpGetInputLength(TFE_Op* op, const char* input_name,
                         TF_Status* status) {
  return arg_length(op, op != NULL && op->magic == TFE_OP_MAGIC && op->def
                            ? op->def->inputs
                            : NULL,
                    op != NULL && op->magic == TFE_OP_MAGIC && op->def
                        ? op->def->num_inputs
                        : 0,
                    input_name, "Input", "TFE_OpGetInputLength", status);
}

int TFE_OpGetOutputLength(TFE_Op* op, const char* output_name,
                          TF_Status* status) {
  return arg_length(op, op != NULL && op->magic == TFE_OP_MAGIC && op->def
                            ? op->def->outputs
                            : NULL,
                    op != NULL && op->magic == TFE_OP_MAGIC && op->def
                        ? op->def->num_outputs
                        : 0,
                    output_name, "Output", "TFE_OpGetOutputLength", status);
}

/* ------------------------------------------------------------------------
 * Reuse. */

void TFE_OpReset(TFE_Op* op_to_reset, const char* op_or_function_name,
                 const char* raw_device_name, TF_Status* status) {
  TFE_Op* op = op_to_reset;
  if (!tfe_op_check(op, "TFE_OpReset", status)) return;
  tfe_op_clear(op);
  if (op_or_function_name == NULL) {
    op->def = NULL;
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "TFE_OpReset: name is NULL");
    return;
  }
  op->def = tfe_ctx_lookup_def(op->ctx, op_or_function_name, status);
  if (op->def == NULL) return;
  if (raw_device_name != NULL && raw_device_name[0] != '\0') {
    if (!tfe_op_set_device(op, raw_device_name, status)) return;
  }
  tfe_status_ok(status);
}
