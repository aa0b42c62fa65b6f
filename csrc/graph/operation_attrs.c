/* Reading the attrs of finished graph operations (TF_OperationGetAttr*).
 *
 * Codes follow TF: the functions TF implements with GetNodeAttr (ints,
 * floats, bools, types, their lists, shapes, tensors) report a missing
 * attr as NOT_FOUND and a value of another kind as INVALID_ARGUMENT; the
 * ones that read the raw AttrValue (metadata, strings, TensorShapeProto,
 * AttrValue protos) report a missing attr as INVALID_ARGUMENT. Lists copy
 * at most max_values elements. Tensors and TF_Buffers handed out are new
 * and owned by the caller. */
#include <string.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "graph/graph_internal.h"
#include "graph/operation_internal.h"
#include "ops/proto_encode.h"

static const char* kind_name(TF_AttrType t, int is_list) {
  static const char* const kSingle[] = {"string", "int",    "float",
                                        "bool",   "type",   "shape",
                                        "tensor", "placeholder", "func"};
  static const char* const kList[] = {
      "list(string)", "list(int)",    "list(float)",       "list(bool)",
      "list(type)",   "list(shape)",  "list(tensor)", "list(placeholder)",
      "list(func)"};
  if ((int)t < 0 || (int)t > 8) return "unknown";
  return is_list ? kList[t] : kSingle[t];
}

/* Attr `name` of oper, or NULL with INVALID_ARGUMENT (TF's
 * "Operation 'x' has no attr named 'y'."). */
static const tfe_attr_value* raw_attr(TF_Operation* oper, const char* name,
                                      TF_Status* s) {
  const tfe_attr_value* v;
  if (oper == NULL || name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "The operation and the attr name must not be NULL");
    return NULL;
  }
  v = tfe_attrs_find(&oper->attrs, name);
  if (v == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Operation '%s' has no attr named '%s'.", oper->name,
                    name);
  }
  return v;
}

/* Attr `name` of the given kind (GetNodeAttr's codes). An empty list
 * matches any list kind. */
static const tfe_attr_value* typed_attr(TF_Operation* oper, const char* name,
                                        TF_AttrType kind, int is_list,
                                        TF_Status* s) {
  const tfe_attr_value* v;
  if (oper == NULL || name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "The operation and the attr name must not be NULL");
    return NULL;
  }
  v = tfe_attrs_find(&oper->attrs, name);
  if (v == NULL) {
    tfe_status_setf(s, TF_NOT_FOUND, "No attr named '%s' in NodeDef:", name);
    return NULL;
  }
  if (v->is_list != is_list ||
      (v->type != kind && !(is_list && v->list_size == 0))) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "AttrValue had value with type '%s' when '%s' "
                    "expected\n\t for attr '%s'\n\t; NodeDef: {{node %s}}",
                    kind_name(v->type, v->is_list), kind_name(kind, is_list),
                    name, oper->name);
    return NULL;
  }
  return v;
}

TF_AttrMetadata TF_OperationGetAttrMetadata(TF_Operation* oper,
                                            const char* attr_name,
                                            TF_Status* status) {
  TF_AttrMetadata m;
  const tfe_attr_value* v = raw_attr(oper, attr_name, status);
  int i;
  memset(&m, 0, sizeof(m));
  m.list_size = -1;
  m.total_size = -1;
  if (v == NULL) return m;
  m.is_list = (unsigned char)(v->is_list ? 1 : 0);
  m.type = v->type;
  if (v->is_list) {
    m.list_size = v->list_size;
    if (v->type == TF_ATTR_STRING && v->list_size > 0) {
      m.total_size = 0;
      for (i = 0; i < v->list_size; i++) {
        m.total_size += (int64_t)v->list.s.len[i];
      }
    } else if (v->type == TF_ATTR_SHAPE && v->list_size > 0) {
      m.total_size = 0;
      for (i = 0; i < v->list_size; i++) {
        if (v->list.shape[i].num_dims > 0) {
          m.total_size += v->list.shape[i].num_dims;
        }
      }
    }
  } else if (v->type == TF_ATTR_STRING) {
    m.total_size = (int64_t)v->v.s.len;
  } else if (v->type == TF_ATTR_SHAPE) {
    m.total_size = v->v.shape.num_dims < 0 ? -1 : v->v.shape.num_dims;
  }
  tfe_status_ok(status);
  return m;
}

void TF_OperationGetAttrString(TF_Operation* oper, const char* attr_name,
                               void* value, size_t max_length,
                               TF_Status* status) {
  const tfe_attr_value* v = raw_attr(oper, attr_name, status);
  size_t n;
  if (v == NULL) return;
  if (v->is_list || v->type != TF_ATTR_STRING) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Attribute '%s' is not a string", attr_name);
    return;
  }
  n = v->v.s.len < max_length ? v->v.s.len : max_length;
  if (n > 0) {
    if (value == NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TF_OperationGetAttrString: value is NULL");
      return;
    }
    memcpy(value, v->v.s.data, n);
  }
  tfe_status_ok(status);
}

void TF_OperationGetAttrStringList(TF_Operation* oper, const char* attr_name,
                                   void** values, size_t* lengths,
                                   int max_values, void* storage,
                                   size_t storage_size, TF_Status* status) {
  const tfe_attr_value* v = raw_attr(oper, attr_name, status);
  int i, n;
  char* p = (char*)storage;
  size_t left = storage_size;
  if (v == NULL) return;
  if (!v->is_list || (v->type != TF_ATTR_STRING && v->list_size > 0)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Value for '%s' is not a list of strings", attr_name);
    return;
  }
  n = v->list_size < max_values ? v->list_size : max_values;
  if (n > 0 && (values == NULL || lengths == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OperationGetAttrStringList: values and lengths must "
                    "not be NULL");
    return;
  }
  for (i = 0; i < n; i++) {
    size_t len = v->list.s.len[i];
    if (len > left || (len > 0 && p == NULL)) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Not enough storage to hold the requested list of "
                      "strings");
      return;
    }
    if (len > 0) memcpy(p, v->list.s.data[i], len);
    values[i] = p;
    lengths[i] = len;
    p += len;
    left -= len;
  }
  tfe_status_ok(status);
}

void TF_OperationGetAttrInt(TF_Operation* oper, const char* attr_name,
                            int64_t* value, TF_Status* status) {
  const tfe_attr_value* v =
      typed_attr(oper, attr_name, TF_ATTR_INT, 0, status);
  if (v == NULL) return;
  if (value != NULL) *value = v->v.i;
  tfe_status_ok(status);
}

void TF_OperationGetAttrFloat(TF_Operation* oper, const char* attr_name,
                              float* value, TF_Status* status) {
  const tfe_attr_value* v =
      typed_attr(oper, attr_name, TF_ATTR_FLOAT, 0, status);
  if (v == NULL) return;
  if (value != NULL) *value = v->v.f;
  tfe_status_ok(status);
}

void TF_OperationGetAttrBool(TF_Operation* oper, const char* attr_name,
                             unsigned char* value, TF_Status* status) {
  const tfe_attr_value* v =
      typed_attr(oper, attr_name, TF_ATTR_BOOL, 0, status);
  if (v == NULL) return;
  if (value != NULL) *value = v->v.b ? 1 : 0;
  tfe_status_ok(status);
}

void TF_OperationGetAttrType(TF_Operation* oper, const char* attr_name,
                             TF_DataType* value, TF_Status* status) {
  const tfe_attr_value* v =
      typed_attr(oper, attr_name, TF_ATTR_TYPE, 0, status);
  if (v == NULL) return;
  if (value != NULL) *value = v->v.type;
  tfe_status_ok(status);
}

/* The common part of the scalar list getters: copies min(n, max) items. */
static const tfe_attr_value* list_attr(TF_Operation* oper, const char* name,
                                       TF_AttrType kind, const void* values,
                                       int max_values, int* n,
                                       TF_Status* status) {
  const tfe_attr_value* v = typed_attr(oper, name, kind, 1, status);
  if (v == NULL) return NULL;
  *n = v->list_size < max_values ? v->list_size : max_values;
  if (*n < 0) *n = 0;
  if (*n > 0 && values == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "The values array must not be NULL");
    return NULL;
  }
  tfe_status_ok(status);
  return v;
}

void TF_OperationGetAttrIntList(TF_Operation* oper, const char* attr_name,
                                int64_t* values, int max_values,
                                TF_Status* status) {
  int n;
  const tfe_attr_value* v = list_attr(oper, attr_name, TF_ATTR_INT, values,
                                      max_values, &n, status);
  if (v != NULL && n > 0) memcpy(values, v->list.i, (size_t)n * sizeof(int64_t));
}

void TF_OperationGetAttrFloatList(TF_Operation* oper, const char* attr_name,
                                  float* values, int max_values,
                                  TF_Status* status) {
  int n;
  const tfe_attr_value* v = list_attr(oper, attr_name, TF_ATTR_FLOAT, values,
                                      max_values, &n, status);
  if (v != NULL && n > 0) memcpy(values, v->list.f, (size_t)n * sizeof(float));
}

void TF_OperationGetAttrBoolList(TF_Operation* oper, const char* attr_name,
                                 unsigned char* values, int max_values,
                                 TF_Status* status) {
  int n, i;
  const tfe_attr_value* v = list_attr(oper, attr_name, TF_ATTR_BOOL, values,
                                      max_values, &n, status);
  if (v == NULL) return;
  for (i = 0; i < n; i++) values[i] = v->list.b[i] ? 1 : 0;
}

void TF_OperationGetAttrTypeList(TF_Operation* oper, const char* attr_name,
                                 TF_DataType* values, int max_values,
                                 TF_Status* status) {
  int n;
  const tfe_attr_value* v = list_attr(oper, attr_name, TF_ATTR_TYPE, values,
                                      max_values, &n, status);
  if (v != NULL && n > 0) {
    memcpy(values, v->list.type, (size_t)n * sizeof(TF_DataType));
  }
}

void TF_OperationGetAttrShape(TF_Operation* oper, const char* attr_name,
                              int64_t* value, int num_dims,
                              TF_Status* status) {
  const tfe_attr_value* v =
      typed_attr(oper, attr_name, TF_ATTR_SHAPE, 0, status);
  int n;
  if (v == NULL) return;
  n = v->v.shape.num_dims < num_dims ? v->v.shape.num_dims : num_dims;
  if (n > 0) {
    if (value == NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TF_OperationGetAttrShape: value is NULL");
      return;
    }
    memcpy(value, v->v.shape.dims, (size_t)n * sizeof(int64_t));
  }
  tfe_status_ok(status);
}

void TF_OperationGetAttrShapeList(TF_Operation* oper, const char* attr_name,
                                  int64_t** dims, int* num_dims,
                                  int num_shapes, int64_t* storage,
                                  int storage_size, TF_Status* status) {
  const tfe_attr_value* v =
      typed_attr(oper, attr_name, TF_ATTR_SHAPE, 1, status);
  int i, n, left = storage_size;
  int64_t* p = storage;
  if (v == NULL) return;
  n = v->list_size < num_shapes ? v->list_size : num_shapes;
  if (n > 0 && (dims == NULL || num_dims == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OperationGetAttrShapeList: dims and num_dims must not "
                    "be NULL");
    return;
  }
  for (i = 0; i < n; i++) {
    const tfe_shape* sh = &v->list.shape[i];
    num_dims[i] = sh->num_dims;
    dims[i] = NULL;
    if (sh->num_dims > 0) {
      if (sh->num_dims > left || p == NULL) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Not enough storage to hold the requested list of "
                        "shapes");
        return;
      }
      memcpy(p, sh->dims, (size_t)sh->num_dims * sizeof(int64_t));
      dims[i] = p;
      p += sh->num_dims;
      left -= sh->num_dims;
    }
  }
  tfe_status_ok(status);
}

/* Serialized TensorShapeProto of sh into a new TF_Buffer (NULL on OOM). */
static TF_Buffer* shape_buffer(const tfe_shape* sh) {
  tfe_pbw w = {0};
  tfe_pb_shape(&w, sh->dims, sh->num_dims);
  tfe_pbw_reserve(&w, 1);
  return tfe_pb_to_buffer(&w);
}

/* Replaces the contents of `dst` with those of `src` (src is deleted). */
static void move_buffer(TF_Buffer* dst, TF_Buffer* src) {
  if (dst->data_deallocator != NULL) {
    dst->data_deallocator((void*)dst->data, dst->length);
  }
  dst->data = src->data;
  dst->length = src->length;
  dst->data_deallocator = src->data_deallocator;
  src->data = NULL;
  src->length = 0;
  src->data_deallocator = NULL;
  TF_DeleteBuffer(src);
}

void TF_OperationGetAttrTensorShapeProto(TF_Operation* oper,
                                         const char* attr_name,
                                         TF_Buffer* value, TF_Status* status) {
  const tfe_attr_value* v = raw_attr(oper, attr_name, status);
  TF_Buffer* b;
  if (v == NULL) return;
  if (v->is_list || v->type != TF_ATTR_SHAPE) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Value for '%s' is not a shape.", attr_name);
    return;
  }
  if (value == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OperationGetAttrTensorShapeProto: value is NULL");
    return;
  }
  b = shape_buffer(&v->v.shape);
  if (b == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  move_buffer(value, b);
  tfe_status_ok(status);
}

void TF_OperationGetAttrTensorShapeProtoList(TF_Operation* oper,
                                             const char* attr_name,
                                             TF_Buffer** values,
                                             int max_values,
                                             TF_Status* status) {
  const tfe_attr_value* v = raw_attr(oper, attr_name, status);
  int i, n;
  if (v == NULL) return;
  if (!v->is_list || (v->type != TF_ATTR_SHAPE && v->list_size > 0)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Value for '%s' is not a list of shapes.", attr_name);
    return;
  }
  n = v->list_size < max_values ? v->list_size : max_values;
  if (n > 0 && values == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OperationGetAttrTensorShapeProtoList: values is NULL");
    return;
  }
  for (i = 0; i < n; i++) {
    values[i] = shape_buffer(&v->list.shape[i]);
    if (values[i] == NULL) {
      while (i-- > 0) {
        TF_DeleteBuffer(values[i]);
        values[i] = NULL;
      }
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
  }
  tfe_status_ok(status);
}

void TF_OperationGetAttrTensor(TF_Operation* oper, const char* attr_name,
                               TF_Tensor** value, TF_Status* status) {
  const tfe_attr_value* v =
      typed_attr(oper, attr_name, TF_ATTR_TENSOR, 0, status);
  TF_Tensor* t;
  if (v == NULL) return;
  if (value == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OperationGetAttrTensor: value is NULL");
    return;
  }
  t = tfe_graph_copy_tensor(v->v.tensor);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  *value = t;
  tfe_status_ok(status);
}

void TF_OperationGetAttrTensorList(TF_Operation* oper, const char* attr_name,
                                   TF_Tensor** values, int max_values,
                                   TF_Status* status) {
  int i, n;
  const tfe_attr_value* v = list_attr(oper, attr_name, TF_ATTR_TENSOR, values,
                                      max_values, &n, status);
  if (v == NULL) return;
  for (i = 0; i < n; i++) {
    values[i] = tfe_graph_copy_tensor(v->list.tensor[i]);
    if (values[i] == NULL) {
      while (i-- > 0) {
        TF_DeleteTensor(values[i]);
        values[i] = NULL;
      }
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
  }
}

void TF_OperationGetAttrValueProto(TF_Operation* oper, const char* attr_name,
                                   TF_Buffer* output_attr_value,
                                   TF_Status* status) {
  const tfe_attr_value* v = raw_attr(oper, attr_name, status);
  tfe_pbw w = {0};
  TF_Buffer* b;
  if (v == NULL) return;
  if (output_attr_value == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OperationGetAttrValueProto: output is NULL");
    return;
  }
  tfe_pb_attr_value(&w, v);
  tfe_pbw_reserve(&w, 1);
  b = tfe_pb_to_buffer(&w);
  if (b == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  move_buffer(output_attr_value, b);
  tfe_status_ok(status);
}

int TF_OperationGetNumAttrs(TF_Operation* oper) {
  return oper != NULL ? oper->attrs.count : 0;
}

int TF_OperationGetAttrNameLength(TF_Operation* oper, int i) {
  if (oper == NULL || i < 0 || i >= oper->attrs.count) return -1;
  return (int)strlen(oper->attrs.items[i].name);
}

void TF_OperationGetAttrName(TF_Operation* oper, int i, char* output,
                             TF_Status* status) {
  const char* n;
  if (oper == NULL || output == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OperationGetAttrName: the operation and the output "
                    "must not be NULL");
    return;
  }
  if (i < 0 || i >= oper->attrs.count) {
    tfe_status_setf(status, TF_OUT_OF_RANGE,
                    "Operation only has %d attributes, can't get the %dth",
                    oper->attrs.count, i);
    return;
  }
  n = oper->attrs.items[i].name;
  memcpy(output, n, strlen(n)); /* no terminator, as in TF */
  tfe_status_ok(status);
}
