/* TF_OpKernelConstruction: what create_func sees (kernels.h). The attrs
 * are the op's complete attrs (defaults and inferred values included). */
#include <limits.h>
#include <string.h>

#include "core/alloc.h"
#include "core/checked.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "kernels/capi_kernel.h"
#include "ops/proto_encode.h"
#include "tensorflow/c/kernels_experimental.h"

static const char* kind_name(TF_AttrType t) {
  switch (t) {
    case TF_ATTR_STRING:
      return "string";
    case TF_ATTR_INT:
      return "int";
    case TF_ATTR_FLOAT:
      return "float";
    case TF_ATTR_BOOL:
      return "bool";
    case TF_ATTR_TYPE:
      return "type";
    case TF_ATTR_SHAPE:
      return "shape";
    case TF_ATTR_TENSOR:
      return "tensor";
    case TF_ATTR_FUNC:
      return "func";
    default:
      return "placeholder";
  }
}

/* The attr `name` of kind `type` (list or single); NULL with the status set
 * as TensorFlow's GetNodeAttr does. An empty list matches any list kind. */
static const tfe_attr_value* get(TF_OpKernelConstruction* c, const char* name,
                                 TF_AttrType type, int want_list,
                                 TF_Status* s) {
  const tfe_attr_value* v;
  if (c == NULL || name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TF_OpKernelConstruction: NULL context or attr name");
    return NULL;
  }
  v = tfe_attrs_find(c->attrs, name);
  if (v == NULL) {
    tfe_status_setf(s, TF_NOT_FOUND,
                    "No attr named '%s' in NodeDef:\n\t [[{{node %s}}]]",
                    name, c->def->name);
    return NULL;
  }
  if (want_list != v->is_list ||
      (v->type != type && !(v->is_list && v->list_size == 0))) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "AttrValue had value with type '%s%s%s' when '%s%s%s' "
                    "expected\n\t for attr '%s'",
                    v->is_list ? "list(" : "", kind_name(v->type),
                    v->is_list ? ")" : "", want_list ? "list(" : "",
                    kind_name(type), want_list ? ")" : "", name);
    return NULL;
  }
  tfe_status_ok(s);
  return v;
}

void TF_OpKernelConstruction_GetAttrSize(TF_OpKernelConstruction* ctx,
                                         const char* attr_name,
                                         int32_t* list_size,
                                         int32_t* total_size,
                                         TF_Status* status) {
  const tfe_attr_value* v;
  int i;
  int64_t total = -1;
  if (ctx == NULL || attr_name == NULL || list_size == NULL ||
      total_size == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OpKernelConstruction_GetAttrSize: NULL argument");
    return;
  }
  v = tfe_attrs_find(ctx->attrs, attr_name);
  if (v == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Operation '%s' has no attr named '%s'.", ctx->def->name,
                    attr_name);
    return;
  }
  if (v->is_list) {
    *list_size = v->list_size;
    if (v->type == TF_ATTR_STRING) {
      total = 0;
      for (i = 0; i < v->list_size; i++) total += (int64_t)v->list.s.len[i];
    } else if (v->type == TF_ATTR_SHAPE) {
      total = 0;
      for (i = 0; i < v->list_size; i++) {
        if (v->list.shape[i].num_dims > 0) total += v->list.shape[i].num_dims;
      }
    }
  } else {
    *list_size = -1;
    if (v->type == TF_ATTR_STRING) {
      total = (int64_t)v->v.s.len;
    } else if (v->type == TF_ATTR_SHAPE) {
      total = v->v.shape.num_dims;
    }
  }
  *total_size = total > INT32_MAX ? INT32_MAX : (int32_t)total;
  tfe_status_ok(status);
}

void TF_OpKernelConstruction_GetAttrType(TF_OpKernelConstruction* ctx,
                                         const char* attr_name,
                                         TF_DataType* val, TF_Status* status) {
  const tfe_attr_value* v = get(ctx, attr_name, TF_ATTR_TYPE, 0, status);
  if (v != NULL && val != NULL) *val = v->v.type;
}

void TF_OpKernelConstruction_GetAttrInt32(TF_OpKernelConstruction* ctx,
                                          const char* attr_name, int32_t* val,
                                          TF_Status* status) {
  const tfe_attr_value* v = get(ctx, attr_name, TF_ATTR_INT, 0, status);
  if (v == NULL) return;
  if (!tfe_fits_int32(v->v.i)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, TFE_ATTR_INT32_RANGE_FMT,
                    attr_name, (long long)v->v.i);
    return;
  }
  if (val != NULL) *val = (int32_t)v->v.i;
}

void TF_OpKernelConstruction_GetAttrInt64(TF_OpKernelConstruction* ctx,
                                          const char* attr_name, int64_t* val,
                                          TF_Status* status) {
  const tfe_attr_value* v = get(ctx, attr_name, TF_ATTR_INT, 0, status);
  if (v != NULL && val != NULL) *val = v->v.i;
}

void TF_OpKernelConstruction_GetAttrFloat(TF_OpKernelConstruction* ctx,
                                          const char* attr_name, float* val,
                                          TF_Status* status) {
  const tfe_attr_value* v = get(ctx, attr_name, TF_ATTR_FLOAT, 0, status);
  if (v != NULL && val != NULL) *val = v->v.f;
}

void TF_OpKernelConstruction_GetAttrBool(TF_OpKernelConstruction* ctx,
                                         const char* attr_name, TF_Bool* val,
                                         TF_Status* status) {
  const tfe_attr_value* v = get(ctx, attr_name, TF_ATTR_BOOL, 0, status);
  if (v != NULL && val != NULL) *val = v->v.b ? 1 : 0;
}

void TF_OpKernelConstruction_GetAttrString(TF_OpKernelConstruction* ctx,
                                           const char* attr_name, char* val,
                                           size_t max_length,
                                           TF_Status* status) {
  const tfe_attr_value* v = get(ctx, attr_name, TF_ATTR_STRING, 0, status);
  size_t n;
  if (v == NULL) return;
  n = v->v.s.len < max_length ? v->v.s.len : max_length;
  if (n > 0 && val == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OpKernelConstruction_GetAttrString: val is NULL");
    return;
  }
  if (n > 0) memcpy(val, v->v.s.data, n);
}

void TF_OpKernelConstruction_GetAttrTensor(TF_OpKernelConstruction* ctx,
                                           const char* attr_name,
                                           TF_Tensor** val,
                                           TF_Status* status) {
  const tfe_attr_value* v = get(ctx, attr_name, TF_ATTR_TENSOR, 0, status);
  TF_Tensor* t;
  if (v == NULL) return;
  if (val == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OpKernelConstruction_GetAttrTensor: val is NULL");
    return;
  }
  t = tfe_capi_share(v->v.tensor);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  *val = t;
}

/* Shared checks of the list getters: the list attr or NULL. */
static const tfe_attr_value* get_list(TF_OpKernelConstruction* ctx,
                                      const char* attr_name, TF_AttrType type,
                                      const void* vals, int max_vals,
                                      TF_Status* status) {
  const tfe_attr_value* v = get(ctx, attr_name, type, 1, status);
  if (v == NULL) return NULL;
  if (max_vals < 0 || (max_vals > 0 && vals == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "list attr '%s': vals must hold max_vals entries",
                    attr_name);
    return NULL;
  }
  return v;
}

#define MIN_LEN(v, max) ((v)->list_size < (max) ? (v)->list_size : (max))

void TF_OpKernelConstruction_GetAttrTypeList(TF_OpKernelConstruction* ctx,
                                             const char* attr_name,
                                             TF_DataType* vals, int max_vals,
                                             TF_Status* status) {
  const tfe_attr_value* v =
      get_list(ctx, attr_name, TF_ATTR_TYPE, vals, max_vals, status);
  int i;
  if (v == NULL) return;
  for (i = 0; i < MIN_LEN(v, max_vals); i++) vals[i] = v->list.type[i];
}

void TF_OpKernelConstruction_GetAttrInt32List(TF_OpKernelConstruction* ctx,
                                              const char* attr_name,
                                              int32_t* vals, int max_vals,
                                              TF_Status* status) {
  const tfe_attr_value* v =
      get_list(ctx, attr_name, TF_ATTR_INT, vals, max_vals, status);
  int i;
  if (v == NULL) return;
  for (i = 0; i < MIN_LEN(v, max_vals); i++) {
    if (!tfe_fits_int32(v->list.i[i])) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT, TFE_ATTR_INT32_RANGE_FMT,
                      attr_name, (long long)v->list.i[i]);
      return;
    }
    vals[i] = (int32_t)v->list.i[i];
  }
}

void TF_OpKernelConstruction_GetAttrInt64List(TF_OpKernelConstruction* ctx,
                                              const char* attr_name,
                                              int64_t* vals, int max_vals,
                                              TF_Status* status) {
  const tfe_attr_value* v =
      get_list(ctx, attr_name, TF_ATTR_INT, vals, max_vals, status);
  int i;
  if (v == NULL) return;
  for (i = 0; i < MIN_LEN(v, max_vals); i++) vals[i] = v->list.i[i];
}

void TF_OpKernelConstruction_GetAttrFloatList(TF_OpKernelConstruction* ctx,
                                              const char* attr_name,
                                              float* vals, int max_vals,
                                              TF_Status* status) {
  const tfe_attr_value* v =
      get_list(ctx, attr_name, TF_ATTR_FLOAT, vals, max_vals, status);
  int i;
  if (v == NULL) return;
  for (i = 0; i < MIN_LEN(v, max_vals); i++) vals[i] = v->list.f[i];
}

void TF_OpKernelConstruction_GetAttrBoolList(TF_OpKernelConstruction* ctx,
                                             const char* attr_name,
                                             TF_Bool* vals, int max_vals,
                                             TF_Status* status) {
  const tfe_attr_value* v =
      get_list(ctx, attr_name, TF_ATTR_BOOL, vals, max_vals, status);
  int i;
  if (v == NULL) return;
  for (i = 0; i < MIN_LEN(v, max_vals); i++) vals[i] = v->list.b[i] ? 1 : 0;
}

void TF_OpKernelConstruction_GetAttrStringList(
    TF_OpKernelConstruction* ctx, const char* attr_name, char** values,
    size_t* lengths, int max_values, void* storage, size_t storage_size,
    TF_Status* status) {
  const tfe_attr_value* v =
      get_list(ctx, attr_name, TF_ATTR_STRING, values, max_values, status);
  char* p = (char*)storage;
  size_t used = 0;
  int i;
  if (v == NULL) return;
  if (max_values > 0 && lengths == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OpKernelConstruction_GetAttrStringList: lengths is "
                    "NULL");
    return;
  }
  for (i = 0; i < MIN_LEN(v, max_values); i++) {
    size_t n = v->list.s.len[i];
    if (n > storage_size - used || (n > 0 && storage == NULL)) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Not enough storage to hold the requested list of "
                      "strings");
      return;
    }
    if (n > 0) memcpy(p + used, v->list.s.data[i], n);
    values[i] = p + used;
    lengths[i] = n;
    used += n;
  }
}

void TF_OpKernelConstruction_GetAttrTensorList(TF_OpKernelConstruction* ctx,
                                               const char* attr_name,
                                               TF_Tensor** vals,
                                               int max_values,
                                               TF_Status* status) {
  const tfe_attr_value* v =
      get_list(ctx, attr_name, TF_ATTR_TENSOR, vals, max_values, status);
  int i, j;
  if (v == NULL) return;
  for (i = 0; i < MIN_LEN(v, max_values); i++) {
    vals[i] = tfe_capi_share(v->list.tensor[i]);
    if (vals[i] == NULL) {
      for (j = 0; j < i; j++) {
        TF_DeleteTensor(vals[j]);
        vals[j] = NULL;
      }
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
  }
}

TF_Buffer* TF_OpKernelConstruction_GetAttrFunction(TF_OpKernelConstruction* ctx,
                                                   const char* attr_name,
                                                   TF_Status* status) {
  const tfe_attr_value* v = get(ctx, attr_name, TF_ATTR_FUNC, 0, status);
  tfe_pbw w = {0};
  TF_Buffer* b;
  if (v == NULL) return NULL;
  tfe_pbw_lenfield(&w, 1, v->v.s.data, v->v.s.len);
  b = tfe_pb_to_buffer(&w);
  if (b == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
  }
  return b;
}

bool TF_OpKernelConstruction_HasAttr(TF_OpKernelConstruction* ctx,
                                     const char* attr_name,
                                     TF_Status* status) {
  if (ctx == NULL || attr_name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OpKernelConstruction_HasAttr: NULL argument");
    return false;
  }
  tfe_status_ok(status);
  return tfe_attrs_find(ctx->attrs, attr_name) != NULL;
}

TF_StringView TF_OpKernelConstruction_GetName(TF_OpKernelConstruction* ctx) {
  TF_StringView v = {"", 0};
  if (ctx != NULL && ctx->def != NULL) {
    v.data = ctx->def->name;
    v.len = strlen(ctx->def->name);
  }
  return v;
}

void TF_OpKernelConstruction_Failure(TF_OpKernelConstruction* ctx,
                                     TF_Status* status) {
  if (ctx == NULL || status == NULL || TF_GetCode(status) == TF_OK) return;
  tfe_status_copy(ctx->status, status);
}

TF_Buffer* TF_OpKernelConstruction_GetNodeDef(TF_OpKernelConstruction* ctx,
                                              TF_Status* status) {
  tfe_pbw w = {0};
  TF_Buffer* b;
  if (ctx == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OpKernelConstruction_GetNodeDef: NULL context");
    return NULL;
  }
  tfe_pb_node_def(&w, ctx->def->name, ctx->def->name, NULL, ctx->attrs);
  b = tfe_pb_to_buffer(&w);
  if (b == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return b;
}

void TF_OpKernelConstruction_GetAttrTensorShape(TF_OpKernelConstruction* ctx,
                                                const char* attr_name,
                                                int64_t* dims, size_t num_dims,
                                                TF_Status* status) {
  const tfe_attr_value* v = get(ctx, attr_name, TF_ATTR_SHAPE, 0, status);
  if (v == NULL) return;
  if (v->v.shape.num_dims < 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Attr %s has an unknown rank", attr_name);
    return;
  }
  if ((size_t)v->v.shape.num_dims != num_dims ||
      (num_dims > 0 && dims == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Attr %s has rank %d, but num_dims is %zu", attr_name,
                    v->v.shape.num_dims, num_dims);
    return;
  }
  if (num_dims > 0) memcpy(dims, v->v.shape.dims, sizeof(int64_t) * num_dims);
}
