/* Attr setters of TFE_Op and attribute snapshots (TFE_OpAttrs).
 *
 * As in TF, the first value set for an attr is kept: setting it again, or
 * inferring it from an input after it was set, changes nothing. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "eager/eager_internal.h"

uint64_t tfe_op_attr_entry_hash(int index, const tfe_attr_value* v) {
  uint64_t h = tfe_attr_value_hash(v) ^ ((uint64_t)(index + 1) *
                                         0x9E3779B97F4A7C15ull);
  h ^= h >> 31;
  h *= 0xD6E8FEB86659FD93ull;
  h ^= h >> 32;
  return h;
}

/* The attr that asks for a labelled kernel (TF_KernelBuilder_Label). It is
 * not part of any op definition, but it selects the kernel, so it lives in
 * op->attrs (and so in the kernel cache key) under this name, hashed as if
 * it were the attr after the definition's last. */
static char kKernelLabelAttr[] = "_kernel";

int tfe_op_put_attr(TFE_Op* op, const char* name, tfe_attr_value* value) {
  const tfe_attr_def* ad = op->def != NULL
                               ? tfe_op_def_find_attr(op->def, name)
                               : NULL;
  char* stored_name;
  int i, index;
  if (ad != NULL) {
    stored_name = ad->name;
    index = (int)(ad - op->def->attrs);
  } else if (op->def != NULL && strcmp(name, kKernelLabelAttr) == 0 &&
             value->type == TF_ATTR_STRING && !value->is_list) {
    stored_name = kKernelLabelAttr;
    index = op->def->num_attrs;
  } else {
    /* Not an attr of the definition: kept aside, ignored by kernels. */
    if (tfe_attrs_find(&op->extra, name) != NULL) {
      tfe_attr_value_clear(value);
      return 1;
    }
    return tfe_attrs_put(&op->extra, name, value);
  }
  for (i = 0; i < op->attrs.count; i++) {
    if (op->attrs.items[i].name == stored_name) {
      tfe_attr_value_clear(value);
      return 1;
    }
  }
  if (op->attrs.count == op->attrs.cap) {
    int cap = op->attrs.cap < 4 ? 4 : op->attrs.cap * 2;
    tfe_attr_entry* p = (tfe_attr_entry*)tfe_realloc(
        op->attrs.items, sizeof(tfe_attr_entry) * (size_t)cap);
    if (p == NULL) {
      tfe_attr_value_clear(value);
      return 0;
    }
    op->attrs.items = p;
    op->attrs.cap = cap;
  }
  /* The name is the definition's or kKernelLabelAttr (borrowed, see
   * eager_internal.h). */
  op->attrs.items[op->attrs.count].name = stored_name;
  op->attrs.items[op->attrs.count].value = *value;
  op->attrs.count++;
  memset(value, 0, sizeof(*value));
  /* The set's hash is a sum over entries, kept up to date here so that
   * TFE_Execute never rehashes: entry = (index in the definition, value). */
  op->attrs_hash += tfe_op_attr_entry_hash(
      index, &op->attrs.items[op->attrs.count - 1].value);
  return 1;
}

/* Common tail of the setters: validate, store, remember failures. */
static int usable(TFE_Op* op, const char* attr_name) {
  return op != NULL && op->magic == TFE_OP_MAGIC && attr_name != NULL;
}

static void store(TFE_Op* op, const char* attr_name, tfe_attr_value* v,
                  int built) {
  if (!built || !tfe_op_put_attr(op, attr_name, v)) {
    if (op->deferred_error == TF_OK) op->deferred_error = TF_RESOURCE_EXHAUSTED;
  }
}

/* Whether a caller's byte count can be the length of a copy: no object is
 * larger than PTRDIFF_MAX bytes, and the copy needs one byte more for its
 * NUL. Larger lengths (e.g. SIZE_MAX from a wrapped computation) are
 * memory that cannot be allocated: the setter records RESOURCE_EXHAUSTED,
 * which TFE_Execute reports, instead of wrapping length + 1 to 0. */
static int copyable_length(size_t length) {
  return length < (size_t)PTRDIFF_MAX;
}

void TFE_OpSetAttrString(TFE_Op* op, const char* attr_name, const void* value,
                         size_t length) {
  tfe_attr_value v;
  if (!usable(op, attr_name) || (value == NULL && length > 0)) return;
  if (!copyable_length(length)) {
    store(op, attr_name, &v, 0);
    return;
  }
  store(op, attr_name, &v, tfe_attr_value_set_string(&v, value, length));
}

void TFE_OpSetAttrInt(TFE_Op* op, const char* attr_name, int64_t value) {
  tfe_attr_value v;
  if (!usable(op, attr_name)) return;
  tfe_attr_value_set_int(&v, value);
  store(op, attr_name, &v, 1);
}

void TFE_OpSetAttrFloat(TFE_Op* op, const char* attr_name, float value) {
  tfe_attr_value v;
  if (!usable(op, attr_name)) return;
  tfe_attr_value_set_float(&v, value);
  store(op, attr_name, &v, 1);
}

void TFE_OpSetAttrBool(TFE_Op* op, const char* attr_name,
                       unsigned char value) {
  tfe_attr_value v;
  if (!usable(op, attr_name)) return;
  tfe_attr_value_set_bool(&v, value ? 1 : 0);
  store(op, attr_name, &v, 1);
}

void TFE_OpSetAttrType(TFE_Op* op, const char* attr_name, TF_DataType value) {
  tfe_attr_value v;
  int i;
  if (!usable(op, attr_name)) return;
  /* Fast path: an attr already set keeps its value (first one wins), so
   * there is nothing to build. */
  if (op->def != NULL) {
    for (i = 0; i < op->attrs.count; i++) {
      if (strcmp(op->attrs.items[i].name, attr_name) == 0) return;
    }
  }
  tfe_attr_value_set_type(&v, value);
  store(op, attr_name, &v, 1);
}

/* TF's shape parsing refuses dims below -1 (-1 is "unknown"): reports it
   naming the attr and returns 0. */
static int dims_valid(const char* attr_name, const int64_t* dims, int num_dims,
                      TF_Status* status) {
  int i, j, bad = 0;
  char text[256];
  size_t used = 0;
  for (i = 0; i < num_dims; i++) bad |= dims[i] < -1;
  if (!bad) return 1;
  text[0] = '\0';
  for (j = 0; j < num_dims && used < sizeof(text) - 24; j++) {
    int n;
    if (dims[j] == -1)
      n = snprintf(text + used, sizeof(text) - used, "%s?", j ? "," : "");
    else
      n = snprintf(text + used, sizeof(text) - used, "%s%lld", j ? "," : "",
                   (long long)dims[j]);
    if (n < 0) break;
    used += (size_t)n;
  }
  if (j < num_dims) snprintf(text + used, sizeof(text) - used, ",...");
  tfe_status_setf(status, TF_INVALID_ARGUMENT,
                  "Value for attr '%s': Shape [%s] has dimensions with values "
                  "below -1 (where -1 means unknown)",
                  attr_name, text);
  return 0;
}

void TFE_OpSetAttrShape(TFE_Op* op, const char* attr_name, const int64_t* dims,
                        const int num_dims, TF_Status* out_status) {
  tfe_attr_value v;
  if (!tfe_op_check(op, "TFE_OpSetAttrShape", out_status)) return;
  if (attr_name == NULL) {
    tfe_status_setf(out_status, TF_INVALID_ARGUMENT,
                    "TFE_OpSetAttrShape: attr_name is NULL");
    return;
  }
  if (num_dims > TFE_MAX_DIMS) {
    tfe_status_setf(out_status, TF_INVALID_ARGUMENT,
                    "Value specified for `%s` has %d dimensions which is over "
                    "the limit of %d.",
                    attr_name, num_dims, TFE_MAX_DIMS);
    return;
  }
  if (num_dims < -1 || (num_dims > 0 && dims == NULL)) {
    tfe_status_setf(out_status, TF_INVALID_ARGUMENT,
                    "TFE_OpSetAttrShape: invalid rank %d for `%s`", num_dims,
                    attr_name);
    return;
  }
  if (num_dims > 0 && !dims_valid(attr_name, dims, num_dims, out_status))
    return;
  if (!tfe_attr_value_set_shape(&v, num_dims < 0 ? NULL : dims, num_dims) ||
      !tfe_op_put_attr(op, attr_name, &v)) {
    tfe_status_setf(out_status, TF_RESOURCE_EXHAUSTED,
                    "TFE_OpSetAttrShape: out of memory");
    return;
  }
  tfe_status_ok(out_status);
}

void TFE_OpSetAttrFunction(TFE_Op* op, const char* attr_name,
                           const TFE_Op* value) {
  tfe_attr_value v;
  const char* fname;
  if (!usable(op, attr_name) || value == NULL ||
      value->magic != TFE_OP_MAGIC || value->def == NULL) {
    return;
  }
  fname = value->def->name;
  store(op, attr_name, &v, tfe_attr_value_set_func(&v, fname, strlen(fname)));
}

void TFE_OpSetAttrFunctionName(TFE_Op* op, const char* attr_name,
                               const char* data, size_t length) {
  tfe_attr_value v;
  if (!usable(op, attr_name) || (data == NULL && length > 0)) return;
  if (!copyable_length(length)) {
    store(op, attr_name, &v, 0);
    return;
  }
  store(op, attr_name, &v,
        tfe_attr_value_set_func(&v, data == NULL ? "" : data, length));
}

void TFE_OpSetAttrTensor(TFE_Op* op, const char* attr_name, TF_Tensor* tensor,
                         TF_Status* status) {
  tfe_attr_value v;
  if (!tfe_op_check(op, "TFE_OpSetAttrTensor", status)) return;
  if (attr_name == NULL || tensor == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_OpSetAttrTensor: %s is NULL",
                    attr_name == NULL ? "attr_name" : "tensor");
    return;
  }
  if (!tfe_attr_value_set_tensor(&v, tensor) ||
      !tfe_op_put_attr(op, attr_name, &v)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_OpSetAttrTensor: out of memory");
    return;
  }
  tfe_status_ok(status);
}

void TFE_OpSetAttrStringList(TFE_Op* op, const char* attr_name,
                             const void* const* values, const size_t* lengths,
                             int num_values) {
  tfe_attr_value v;
  int i;
  if (!usable(op, attr_name) || num_values < 0) return;
  if (num_values > 0 && (values == NULL || lengths == NULL)) return;
  for (i = 0; i < num_values; i++) {
    if (values[i] == NULL && lengths[i] > 0) return;
  }
  for (i = 0; i < num_values; i++) {
    if (!copyable_length(lengths[i])) {
      store(op, attr_name, &v, 0);
      return;
    }
  }
  store(op, attr_name, &v,
        tfe_attr_value_set_string_list(&v, values, lengths, num_values));
}

void TFE_OpSetAttrIntList(TFE_Op* op, const char* attr_name,
                          const int64_t* values, int num_values) {
  tfe_attr_value v;
  if (!usable(op, attr_name) || num_values < 0 ||
      (num_values > 0 && values == NULL)) {
    return;
  }
  store(op, attr_name, &v, tfe_attr_value_set_int_list(&v, values, num_values));
}

void TFE_OpSetAttrFloatList(TFE_Op* op, const char* attr_name,
                            const float* values, int num_values) {
  tfe_attr_value v;
  if (!usable(op, attr_name) || num_values < 0 ||
      (num_values > 0 && values == NULL)) {
    return;
  }
  store(op, attr_name, &v,
        tfe_attr_value_set_float_list(&v, values, num_values));
}

void TFE_OpSetAttrBoolList(TFE_Op* op, const char* attr_name,
                           const unsigned char* values, int num_values) {
  tfe_attr_value v;
  if (!usable(op, attr_name) || num_values < 0 ||
      (num_values > 0 && values == NULL)) {
    return;
  }
  store(op, attr_name, &v,
        tfe_attr_value_set_bool_list(&v, values, num_values));
}

void TFE_OpSetAttrTypeList(TFE_Op* op, const char* attr_name,
                           const TF_DataType* values, int num_values) {
  tfe_attr_value v;
  if (!usable(op, attr_name) || num_values < 0 ||
      (num_values > 0 && values == NULL)) {
    return;
  }
  store(op, attr_name, &v,
        tfe_attr_value_set_type_list(&v, values, num_values));
}

void TFE_OpSetAttrShapeList(TFE_Op* op, const char* attr_name,
                            const int64_t** dims, const int* num_dims,
                            int num_values, TF_Status* out_status) {
  tfe_attr_value v;
  int i;
  if (!tfe_op_check(op, "TFE_OpSetAttrShapeList", out_status)) return;
  if (attr_name == NULL || num_values < 0 ||
      (num_values > 0 && (dims == NULL || num_dims == NULL))) {
    tfe_status_setf(out_status, TF_INVALID_ARGUMENT,
                    "TFE_OpSetAttrShapeList: invalid arguments");
    return;
  }
  for (i = 0; i < num_values; i++) {
    if (num_dims[i] > TFE_MAX_DIMS) {
      tfe_status_setf(out_status, TF_INVALID_ARGUMENT,
                      "Value specified for `%s` has %d dimensions which is "
                      "over the limit of %d.",
                      attr_name, num_dims[i], TFE_MAX_DIMS);
      return;
    }
    if (num_dims[i] < -1 || (num_dims[i] > 0 && dims[i] == NULL)) {
      tfe_status_setf(out_status, TF_INVALID_ARGUMENT,
                      "TFE_OpSetAttrShapeList: invalid rank %d at index %d",
                      num_dims[i], i);
      return;
    }
    if (num_dims[i] > 0 && !dims_valid(attr_name, dims[i], num_dims[i],
                                       out_status))
      return;
  }
  if (!tfe_attr_value_set_shape_list(&v, dims, num_dims, num_values) ||
      !tfe_op_put_attr(op, attr_name, &v)) {
    tfe_status_setf(out_status, TF_RESOURCE_EXHAUSTED,
                    "TFE_OpSetAttrShapeList: out of memory");
    return;
  }
  tfe_status_ok(out_status);
}

void TFE_OpSetAttrFunctionList(TFE_Op* op, const char* attr_name,
                               const TFE_Op** value, int num_values) {
  tfe_attr_value v;
  const void* inline_names[16] = {0};
  size_t inline_lens[16] = {0};
  const void** names = inline_names;
  size_t* lens = inline_lens;
  int i, ok;
  if (!usable(op, attr_name) || num_values < 0 ||
      (num_values > 0 && value == NULL)) {
    return;
  }
  for (i = 0; i < num_values; i++) {
    if (value[i] == NULL || value[i]->magic != TFE_OP_MAGIC ||
        value[i]->def == NULL) {
      return;
    }
  }
  if (num_values > 16) {
    names = (const void**)tfe_malloc(sizeof(void*) * (size_t)num_values);
    lens = (size_t*)tfe_malloc(sizeof(size_t) * (size_t)num_values);
    if (names == NULL || lens == NULL) {
      if (names != inline_names) tfe_free((void*)names);
      if (lens != inline_lens) tfe_free(lens);
      store(op, attr_name, &v, 0);
      return;
    }
  }
  for (i = 0; i < num_values; i++) {
    names[i] = value[i]->def->name;
    lens[i] = strlen(value[i]->def->name);
  }
  /* A list of function names is stored like a string list, typed FUNC. */
  ok = tfe_attr_value_set_string_list(&v, names, lens, num_values);
  if (ok) v.type = TF_ATTR_FUNC;
  if (names != inline_names) tfe_free((void*)names);
  if (lens != inline_lens) tfe_free(lens);
  store(op, attr_name, &v, ok);
}

/* ------------------------------------------------------------------------
 * Snapshots. */

const TFE_OpAttrs* TFE_OpGetAttrs(const TFE_Op* op) {
  if (op == NULL || op->magic != TFE_OP_MAGIC) return NULL;
  return &op->attrs_view;
}

static void add_missing(TFE_Op* dst, const tfe_attrs* src) {
  int i;
  for (i = 0; i < src->count; i++) {
    tfe_attr_value copy;
    if (!tfe_attr_value_copy(&copy, &src->items[i].value)) {
      if (dst->deferred_error == TF_OK) {
        dst->deferred_error = TF_RESOURCE_EXHAUSTED;
      }
      continue;
    }
    if (!tfe_op_put_attr(dst, src->items[i].name, &copy) &&
        dst->deferred_error == TF_OK) {
      dst->deferred_error = TF_RESOURCE_EXHAUSTED;
    }
  }
}

void TFE_OpAddAttrs(TFE_Op* op, const TFE_OpAttrs* attrs) {
  const TFE_Op* src;
  if (op == NULL || op->magic != TFE_OP_MAGIC || attrs == NULL) return;
  src = attrs->op;
  if (src == NULL || src->magic != TFE_OP_MAGIC || src == op) return;
  add_missing(op, &src->attrs);
  add_missing(op, &src->extra);
}

/* The serialized bytes come from tfe_malloc; TF_DeleteBuffer frees them
 * through this. */
static void free_bytes(void* data, size_t len) {
  (void)len;
  tfe_free(data);
}

void TFE_OpAttrsSerialize(const TFE_OpAttrs* attrs, TF_Buffer* buf,
                          TF_Status* status) {
  const TFE_Op* op;
  const tfe_attrs* sets[2];
  size_t len = 0;
  void* bytes;
  if (attrs == NULL || attrs->op == NULL || attrs->op->magic != TFE_OP_MAGIC ||
      buf == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_OpAttrsSerialize: %s is NULL or dead",
                    buf == NULL ? "buf" : "attrs");
    return;
  }
  op = attrs->op;
  sets[0] = &op->attrs;
  sets[1] = &op->extra;
  bytes = tfe_attr_proto_encode_name_attr_list(
      op->def != NULL ? op->def->name : "", sets, 2, &len);
  if (bytes == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_OpAttrsSerialize: out of memory");
    return;
  }
  if (buf->data_deallocator != NULL) {
    buf->data_deallocator((void*)buf->data, buf->length);
  }
  buf->data = bytes;
  buf->length = len;
  buf->data_deallocator = free_bytes;
  tfe_status_ok(status);
}

void TFE_OpSetAttrValueProto(const TFE_Op* op, const char* attr_name,
                             const void* proto, size_t proto_len,
                             TF_Status* status) {
  tfe_attr_value v;
  TFE_Op* mop = (TFE_Op*)op;
  if (!tfe_op_check(op, "TFE_OpSetAttrValueProto", status)) return;
  if (attr_name == NULL || (proto == NULL && proto_len > 0)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_OpSetAttrValueProto: %s is NULL",
                    attr_name == NULL ? "attr_name" : "proto");
    return;
  }
  if (proto_len > (size_t)PTRDIFF_MAX) {
    /* No buffer is that long (proto + proto_len would wrap around). */
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_OpSetAttrValueProto: proto_len %zu is larger than "
                    "any buffer",
                    proto_len);
    return;
  }
  if (!tfe_attr_proto_decode(proto, proto_len, &v, status)) return;
  if (!tfe_op_put_attr(mop, attr_name, &v)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_OpSetAttrValueProto: out of memory");
    return;
  }
  tfe_status_ok(status);
}
