/* Protocol-buffer encoders for op and kernel definitions and attr values
 * (proto_encode.h).
 *
 * Field numbers (tensorflow/core/framework):
 *   OpDef: name 1, input_arg 2, output_arg 3, attr 4, summary 5,
 *          deprecation 8 {version 1, explanation 2}, is_aggregate 16,
 *          is_stateful 17, is_commutative 18, allows_uninitialized_input 19
 *   ArgDef: name 1, type 3, type_attr 4, number_attr 5, type_list_attr 6,
 *          is_ref 16
 *   AttrDef: name 1, type 2, default_value 3, has_minimum 5, minimum 6,
 *          allowed_values 7
 *   AttrValue: list 1, s 2, i 3, f 4, b 5, type 6, shape 7, tensor 8,
 *          placeholder 9, func 10;  ListValue: s 2, i 3, f 4, b 5, type 6, shape 7,
 *          tensor 8, func 9 (numbers packed)
 *   TensorShapeProto: dim 2 {size 1}, unknown_rank 3
 *   TensorProto: dtype 1, tensor_shape 2, tensor_content 4, string_val 8
 *   NameAttrList: name 1
 *   KernelDef: op 1, device_type 2, constraint 3 {name 1,
 *          allowed_values 2}, host_memory_arg 4, label 5, priority 6
 *   OpList / KernelList: op 1 / kernel 1
 *   NodeDef: name 1, op 2, device 4, attr 5 {key 1, value 2} */
#include "ops/proto_encode.h"

#include <pthread.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "ops/op_generated.h"
#include "tensorflow/c/tf_tstring.h"

void tfe_pb_shape(tfe_pbw* out, const int64_t* dims, int num_dims) {
  int i;
  if (num_dims < 0) {
    tfe_pbw_uint(out, 3, 1);
    return;
  }
  for (i = 0; i < num_dims; i++) {
    tfe_pbw dim = {0};
    tfe_pbw_uint(&dim, 1, (uint64_t)dims[i]);
    tfe_pbw_sub(out, 2, &dim);
  }
}

static void enc_shape_field(tfe_pbw* out, int field, const tfe_shape* s) {
  tfe_pbw sub = {0};
  tfe_pb_shape(&sub, s->dims, s->num_dims);
  tfe_pbw_sub(out, field, &sub);
}

/* A host tensor as a TensorProto (tensor_content, or string_val). Device
 * tensors never reach attr values. */
static void enc_tensor(tfe_pbw* out, int field, const TF_Tensor* t) {
  tfe_pbw sub = {0};
  tfe_pbw shape = {0};
  tfe_pbw_uint(&sub, 1, (uint64_t)t->dtype);
  tfe_pb_shape(&shape, t->dims, t->num_dims);
  tfe_pbw_sub(&sub, 2, &shape);
  if (t->dtype == TF_STRING) {
    int64_t i, n = tfe_shape_num_elements(t->dims, t->num_dims);
    const TF_TString* s = (const TF_TString*)t->buf->data;
    for (i = 0; i < n; i++) {
      tfe_pbw_lenfield(&sub, 8, TF_TString_GetDataPointer(&s[i]),
                       TF_TString_GetSize(&s[i]));
    }
  } else if (t->buf != NULL && t->buf->len > 0) {
    tfe_pbw_lenfield(&sub, 4, t->buf->data, t->buf->len);
  }
  tfe_pbw_sub(out, field, &sub);
}

static void enc_func(tfe_pbw* out, int field, const char* name, size_t len) {
  tfe_pbw sub = {0};
  tfe_pbw_lenfield(&sub, 1, name, len);
  tfe_pbw_sub(out, field, &sub);
}

static void enc_list(tfe_pbw* out, const tfe_attr_value* v) {
  tfe_pbw packed = {0};
  int i;
  switch (v->type) {
    case TF_ATTR_STRING:
      for (i = 0; i < v->list_size; i++) {
        tfe_pbw_lenfield(out, 2, v->list.s.data[i], v->list.s.len[i]);
      }
      break;
    case TF_ATTR_INT:
      for (i = 0; i < v->list_size; i++) {
        tfe_pbw_varint(&packed, (uint64_t)v->list.i[i]);
      }
      if (v->list_size > 0) tfe_pbw_sub(out, 3, &packed);
      break;
    case TF_ATTR_FLOAT:
      for (i = 0; i < v->list_size; i++) {
        uint32_t u;
        unsigned char c[4];
        memcpy(&u, &v->list.f[i], 4);
        c[0] = (unsigned char)u;
        c[1] = (unsigned char)(u >> 8);
        c[2] = (unsigned char)(u >> 16);
        c[3] = (unsigned char)(u >> 24);
        tfe_pbw_bytes(&packed, c, 4);
      }
      if (v->list_size > 0) tfe_pbw_sub(out, 4, &packed);
      break;
    case TF_ATTR_BOOL:
      for (i = 0; i < v->list_size; i++) {
        tfe_pbw_varint(&packed, v->list.b[i] ? 1 : 0);
      }
      if (v->list_size > 0) tfe_pbw_sub(out, 5, &packed);
      break;
    case TF_ATTR_TYPE:
      for (i = 0; i < v->list_size; i++) {
        tfe_pbw_varint(&packed, (uint64_t)v->list.type[i]);
      }
      if (v->list_size > 0) tfe_pbw_sub(out, 6, &packed);
      break;
    case TF_ATTR_SHAPE:
      for (i = 0; i < v->list_size; i++) {
        enc_shape_field(out, 7, &v->list.shape[i]);
      }
      break;
    case TF_ATTR_TENSOR:
      for (i = 0; i < v->list_size; i++) enc_tensor(out, 8, v->list.tensor[i]);
      break;
    case TF_ATTR_FUNC:
      for (i = 0; i < v->list_size; i++) {
        enc_func(out, 9, v->list.s.data[i], v->list.s.len[i]);
      }
      break;
    default:
      break;
  }
  tfe_pbw_free(&packed);
}

void tfe_pb_attr_value(tfe_pbw* out, const tfe_attr_value* v) {
  if (v->is_list) {
    tfe_pbw sub = {0};
    enc_list(&sub, v);
    tfe_pbw_sub(out, 1, &sub);
    return;
  }
  switch (v->type) {
    case TF_ATTR_STRING:
      tfe_pbw_lenfield(out, 2, v->v.s.data, v->v.s.len);
      break;
    case TF_ATTR_INT:
      tfe_pbw_uint(out, 3, (uint64_t)v->v.i);
      break;
    case TF_ATTR_FLOAT:
      tfe_pbw_float(out, 4, v->v.f);
      break;
    case TF_ATTR_BOOL:
      tfe_pbw_uint(out, 5, v->v.b ? 1 : 0);
      break;
    case TF_ATTR_TYPE:
      tfe_pbw_uint(out, 6, (uint64_t)v->v.type);
      break;
    case TF_ATTR_SHAPE:
      enc_shape_field(out, 7, &v->v.shape);
      break;
    case TF_ATTR_TENSOR:
      if (v->v.tensor != NULL) enc_tensor(out, 8, v->v.tensor);
      break;
    case TF_ATTR_PLACEHOLDER:
      tfe_pbw_lenfield(out, 9, v->v.s.data, v->v.s.len);
      break;
    case TF_ATTR_FUNC:
      enc_func(out, 10, v->v.s.data, v->v.s.len);
      break;
    default:
      break;
  }
}

static void enc_attr_field(tfe_pbw* out, int field, const tfe_attr_value* v) {
  tfe_pbw sub = {0};
  tfe_pb_attr_value(&sub, v);
  tfe_pbw_sub(out, field, &sub);
}

static void enc_arg(tfe_pbw* out, int field, const tfe_arg_def* a) {
  tfe_pbw sub = {0};
  tfe_pbw_str(&sub, 1, a->name);
  if (a->type_attr == NULL && a->type_list_attr == NULL && a->type != 0) {
    tfe_pbw_uint(&sub, 3, (uint64_t)a->type);
  }
  if (a->type_attr != NULL) tfe_pbw_str(&sub, 4, a->type_attr);
  if (a->number_attr != NULL) tfe_pbw_str(&sub, 5, a->number_attr);
  if (a->type_list_attr != NULL) tfe_pbw_str(&sub, 6, a->type_list_attr);
  if (a->is_ref) tfe_pbw_uint(&sub, 16, 1);
  tfe_pbw_sub(out, field, &sub);
}

static void enc_attr_def(tfe_pbw* out, const tfe_attr_def* a) {
  tfe_pbw sub = {0};
  tfe_pbw_str(&sub, 1, a->name);
  tfe_pbw_str(&sub, 2, a->type_str);
  if (a->has_default) enc_attr_field(&sub, 3, &a->default_value);
  if (a->has_minimum) {
    tfe_pbw_uint(&sub, 5, 1);
    tfe_pbw_uint(&sub, 6, (uint64_t)a->minimum);
  }
  if (a->has_allowed) enc_attr_field(&sub, 7, &a->allowed);
  tfe_pbw_sub(out, 4, &sub);
}

void tfe_pb_op_def(tfe_pbw* out, const tfe_op_def* def) {
  int i, version;
  const char* expl;
  tfe_pbw_str(out, 1, def->name);
  for (i = 0; i < def->num_inputs; i++) enc_arg(out, 2, &def->inputs[i]);
  for (i = 0; i < def->num_outputs; i++) enc_arg(out, 3, &def->outputs[i]);
  for (i = 0; i < def->num_attrs; i++) enc_attr_def(out, &def->attrs[i]);
  if (def->summary != NULL && def->summary[0] != '\0') {
    tfe_pbw_str(out, 5, def->summary);
  }
  if (tfe_op_deprecation(def->name, &version, &expl)) {
    tfe_pbw sub = {0};
    tfe_pbw_uint(&sub, 1, (uint64_t)(int64_t)version);
    tfe_pbw_str(&sub, 2, expl);
    tfe_pbw_sub(out, 8, &sub);
  }
  if (def->is_aggregate) tfe_pbw_uint(out, 16, 1);
  if (def->is_stateful) tfe_pbw_uint(out, 17, 1);
  if (def->is_commutative) tfe_pbw_uint(out, 18, 1);
  if (def->allows_uninitialized_input) tfe_pbw_uint(out, 19, 1);
}

void tfe_pb_op_list(tfe_pbw* out, const tfe_op_def* const* defs, int n) {
  int i;
  for (i = 0; i < n; i++) {
    tfe_pbw sub = {0};
    tfe_pb_op_def(&sub, defs[i]);
    tfe_pbw_sub(out, 1, &sub);
  }
}

void tfe_pb_kernel_def(tfe_pbw* out, const tfe_kernel_reg* reg) {
  int i, j;
  tfe_pbw_str(out, 1, reg->op_name);
  tfe_pbw_str(out, 2, reg->device_type);
  for (i = 0; i < reg->num_constraints; i++) {
    tfe_pbw c = {0}, allowed = {0}, list = {0}, packed = {0};
    tfe_pbw_str(&c, 1, reg->constraints[i].attr);
    for (j = 0; j < reg->constraints[i].num_types; j++) {
      tfe_pbw_varint(&packed, (uint64_t)reg->constraints[i].types[j]);
    }
    if (reg->constraints[i].num_types > 0) tfe_pbw_sub(&list, 6, &packed);
    tfe_pbw_sub(&allowed, 1, &list);
    tfe_pbw_sub(&c, 2, &allowed);
    tfe_pbw_sub(out, 3, &c);
    tfe_pbw_free(&packed);
  }
  for (i = 0; i < reg->num_host_memory_args; i++) {
    tfe_pbw_str(out, 4, reg->host_memory_args[i]);
  }
  if (reg->label != NULL && reg->label[0] != '\0') {
    tfe_pbw_str(out, 5, reg->label);
  }
  if (reg->priority != 0) {
    tfe_pbw_uint(out, 6, (uint64_t)(int64_t)reg->priority);
  }
}

void tfe_pb_node_def(tfe_pbw* out, const char* name, const char* op,
                     const char* device, const tfe_attrs* attrs) {
  int i;
  tfe_pbw_str(out, 1, name);
  tfe_pbw_str(out, 2, op);
  if (device != NULL && device[0] != '\0') tfe_pbw_str(out, 4, device);
  for (i = 0; attrs != NULL && i < attrs->count; i++) {
    tfe_pbw entry = {0};
    tfe_pbw_str(&entry, 1, attrs->items[i].name);
    enc_attr_field(&entry, 2, &attrs->items[i].value);
    tfe_pbw_sub(out, 5, &entry);
  }
}

static void free_bytes(void* data, size_t length) {
  (void)length;
  tfe_free(data);
}

TF_Buffer* tfe_pb_to_buffer(tfe_pbw* w) {
  TF_Buffer* b;
  if (w->oom) {
    tfe_pbw_free(w);
    return NULL;
  }
  b = TF_NewBuffer();
  if (b == NULL) {
    tfe_pbw_free(w);
    return NULL;
  }
  b->data = w->data;
  b->length = w->len;
  b->data_deallocator = free_bytes;
  memset(w, 0, sizeof(*w));
  return b;
}

/* ------------------------------------------------------------------------
 * Deprecations (few; a list). */

typedef struct deprecation {
  char* op;
  int version;
  char* explanation;
  struct deprecation* next;
} deprecation;

static pthread_mutex_t g_dep_mu = PTHREAD_MUTEX_INITIALIZER;
static deprecation* g_deps;

int tfe_op_deprecation(const char* name, int* version,
                       const char** explanation) {
  deprecation* d;
  int found = 0;
  pthread_mutex_lock(&g_dep_mu);
  for (d = g_deps; d != NULL; d = d->next) {
    if (strcmp(d->op, name) == 0) {
      *version = d->version;
      *explanation = d->explanation;
      found = 1;
      break;
    }
  }
  pthread_mutex_unlock(&g_dep_mu);
  if (!found) {
    /* TF's own removed ops, from the generated table (sorted by name). */
    int lo = 0, hi = tfe_gen_dep_count - 1;
    while (lo <= hi) {
      int mid = lo + (hi - lo) / 2;
      int c = strcmp(name, tfe_gen_deprecations[mid].op);
      if (c == 0) {
        *version = tfe_gen_deprecations[mid].version;
        *explanation = tfe_gen_deprecations[mid].explanation;
        return 1;
      }
      if (c < 0) {
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
  }
  return found;
}

int tfe_op_check_not_removed(const char* name, int graph_def_version,
                             TF_Status* s) {
  int version = 0;
  const char* why = NULL;
  if (name == NULL || !tfe_op_deprecation(name, &version, &why) ||
      graph_def_version < version) {
    return 1;
  }
  tfe_status_setf(s, TF_UNIMPLEMENTED,
                  "Op %s is not available in GraphDef version %d. It has been "
                  "removed in version %d. %s.",
                  name, graph_def_version, version, why);
  return 0;
}

int tfe_op_set_deprecation(const char* name, int version,
                           const char* explanation) {
  deprecation* d = (deprecation*)tfe_calloc(1, sizeof(*d));
  if (d == NULL) return 0;
  d->op = tfe_strdup(name);
  d->explanation = tfe_strdup(explanation ? explanation : "");
  if (d->op == NULL || d->explanation == NULL) {
    tfe_free(d->op);
    tfe_free(d->explanation);
    tfe_free(d);
    return 0;
  }
  d->version = version;
  pthread_mutex_lock(&g_dep_mu);
  d->next = g_deps;
  g_deps = d;
  pthread_mutex_unlock(&g_dep_mu);
  return 1;
}
