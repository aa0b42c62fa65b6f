/* DT_VARIANT objects (TensorList, Optional), variant tensor slots, and the
 * shared AddN / ZerosLike machinery. See variant.h. */
#include "core/variant.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "ops/attr_value.h"
#include "tensorflow/c/tf_tstring.h"

/* ------------------------------------------------------------------------
 * Partial shapes. */

void tfe_pshape_init_unknown(tfe_pshape* s) {
  s->rank = -1;
  s->dims = NULL;
}

void tfe_pshape_free(tfe_pshape* s) {
  if (s == NULL) return;
  tfe_free(s->dims);
  s->dims = NULL;
  s->rank = -1;
}

int tfe_pshape_set(tfe_pshape* s, int rank, const int64_t* dims) {
  int64_t* d = NULL;
  if (rank > 0) {
    d = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)rank);
    if (d == NULL) {
      tfe_pshape_free(s);
      return 0;
    }
    memcpy(d, dims, sizeof(int64_t) * (size_t)rank);
  }
  tfe_free(s->dims);
  s->dims = d;
  s->rank = rank < 0 ? -1 : rank;
  return 1;
}

int tfe_pshape_fully_defined(const tfe_pshape* s) {
  int i;
  if (s->rank < 0) return 0;
  for (i = 0; i < s->rank; i++) {
    if (s->dims[i] < 0) return 0;
  }
  return 1;
}

int tfe_pshape_compatible(const tfe_pshape* a, const tfe_pshape* b) {
  int i;
  if (a->rank < 0 || b->rank < 0) return 1;
  if (a->rank != b->rank) return 0;
  for (i = 0; i < a->rank; i++) {
    if (a->dims[i] >= 0 && b->dims[i] >= 0 && a->dims[i] != b->dims[i]) {
      return 0;
    }
  }
  return 1;
}

const char* tfe_pshape_str(const tfe_pshape* s, char* buf, size_t cap) {
  size_t len = 0;
  int i;
  if (cap == 0) return buf;
  if (s->rank < 0) {
    snprintf(buf, cap, "<unknown>");
    return buf;
  }
  len += (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < s->rank && len < cap; i++) {
    if (s->dims[i] < 0) {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",?" : "?");
    } else {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                              (long long)s->dims[i]);
    }
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

int tfe_pshape_merge(const tfe_pshape* a, const tfe_pshape* b,
                     tfe_pshape* out, TF_Status* status) {
  char sa[256], sb[256];
  int64_t* d;
  int i;
  if (a->rank < 0 || b->rank < 0) {
    const tfe_pshape* k = a->rank < 0 ? b : a;
    if (!tfe_pshape_set(out, k->rank, k->dims)) goto oom;
    return 1;
  }
  if (a->rank != b->rank) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "PartialTensorShape: Incompatible ranks during merge: %d "
                    "vs. %d",
                    a->rank, b->rank);
    return 0;
  }
  if (!tfe_pshape_compatible(a, b)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "PartialTensorShape: Incompatible shapes during merge: %s "
                    "vs. %s",
                    tfe_pshape_str(a, sa, sizeof sa),
                    tfe_pshape_str(b, sb, sizeof sb));
    return 0;
  }
  d = a->rank > 0 ? (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)a->rank)
                  : NULL;
  if (a->rank > 0 && d == NULL) goto oom;
  for (i = 0; i < a->rank; i++) d[i] = a->dims[i] >= 0 ? a->dims[i] : b->dims[i];
  tfe_free(out->dims);
  out->dims = d;
  out->rank = a->rank;
  return 1;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
  return 0;
}

int tfe_pshape_from_tensor(const TF_Tensor* t, tfe_pshape* out,
                           TF_Status* status) {
  int64_t n, i;
  const void* data;
  tfe_pshape_init_unknown(out);
  if (t == NULL || (t->dtype != TF_INT32 && t->dtype != TF_INT64)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "element_shape must be an int32 or int64 tensor");
    return 0;
  }
  data = t->buf != NULL ? t->buf->data : NULL;
  if (t->num_dims == 0) {
    int64_t v = t->dtype == TF_INT32 ? ((const int32_t*)data)[0]
                                     : ((const int64_t*)data)[0];
    if (v != -1) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "The only valid scalar shape tensor is the fully "
                      "unknown shape specified as -1.");
      return 0;
    }
    return 1;
  }
  if (t->num_dims > 1) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Shape must be at most rank 1 but is rank %d",
                    t->num_dims);
    return 0;
  }
  n = t->dims[0];
  if (n > 254) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Shape has %lld dimensions which is over the limit of 254",
                    (long long)n);
    return 0;
  }
  out->dims = n > 0 ? (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)n) : NULL;
  if (n > 0 && out->dims == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  for (i = 0; i < n; i++) {
    int64_t v = t->dtype == TF_INT32 ? ((const int32_t*)data)[i]
                                     : ((const int64_t*)data)[i];
    if (v < -1) {
      tfe_pshape_free(out);
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Dimension %lld must be >= -1", (long long)v);
      return 0;
    }
    out->dims[i] = v;
  }
  out->rank = (int)n;
  return 1;
}

/* ------------------------------------------------------------------------
 * Objects. */

static tfe_variant* new_variant(tfe_variant_kind kind) {
  tfe_variant* v = (tfe_variant*)tfe_calloc(1, sizeof(*v));
  if (v == NULL) return NULL;
  atomic_init(&v->refcount, 1);
  v->kind = kind;
  v->max_num_elements = -1;
  tfe_pshape_init_unknown(&v->element_shape);
  return v;
}

tfe_variant* tfe_variant_new_list(TF_DataType element_dtype,
                                  const tfe_pshape* element_shape,
                                  int64_t max_num_elements) {
  tfe_variant* v = new_variant(TFE_VARIANT_LIST);
  if (v == NULL) return NULL;
  v->element_dtype = element_dtype;
  v->max_num_elements = max_num_elements;
  if (element_shape != NULL &&
      !tfe_pshape_set(&v->element_shape, element_shape->rank,
                      element_shape->dims)) {
    tfe_free(v);
    return NULL;
  }
  return v;
}

tfe_variant* tfe_variant_new_optional(int has_value) {
  tfe_variant* v = new_variant(TFE_VARIANT_OPTIONAL);
  if (v != NULL) v->has_value = has_value != 0;
  return v;
}

tfe_variant* tfe_variant_new_map(void) {
  return new_variant(TFE_VARIANT_MAP);
}

tfe_variant* tfe_variant_new_lock(void* opaque, void (*release)(void*)) {
  tfe_variant* v = new_variant(TFE_VARIANT_LOCK);
  if (v == NULL) return NULL;
  v->opaque = opaque;
  v->release = release;
  return v;
}

/* TF's TensorKey equality: dtype, shape and element values (strings by
 * content, other dtypes by bytes). */
static int map_key_equal(const TF_Tensor* a, const TF_Tensor* b) {
  int64_t n, i;
  int d;
  if (a->dtype != b->dtype || a->num_dims != b->num_dims) return 0;
  for (d = 0; d < a->num_dims; d++) {
    if (a->dims[d] != b->dims[d]) return 0;
  }
  n = tfe_shape_num_elements(a->dims, a->num_dims);
  if (n <= 0) return 1;
  if (a->dtype == TF_STRING) {
    const TF_TString* x = (const TF_TString*)a->buf->data;
    const TF_TString* y = (const TF_TString*)b->buf->data;
    for (i = 0; i < n; i++) {
      size_t lx = TF_TString_GetSize(&x[i]);
      if (lx != TF_TString_GetSize(&y[i]) ||
          memcmp(TF_TString_GetDataPointer(&x[i]),
                 TF_TString_GetDataPointer(&y[i]), lx) != 0) {
        return 0;
      }
    }
    return 1;
  }
  if (a->buf == NULL || b->buf == NULL) return a->buf == b->buf;
  return TF_TensorByteSize(a) == TF_TensorByteSize(b) &&
         memcmp(a->buf->data, b->buf->data, TF_TensorByteSize(a)) == 0;
}

int64_t tfe_variant_map_find(const tfe_variant* m, const TF_Tensor* key) {
  int64_t i;
  if (m == NULL || m->kind != TFE_VARIANT_MAP) return -1;
  for (i = 0; i + 1 < m->num_tensors; i += 2) {
    if (m->tensors[i] != NULL && map_key_equal(m->tensors[i], key)) {
      return i / 2;
    }
  }
  return -1;
}

void tfe_variant_ref(tfe_variant* v) {
  if (v != NULL) atomic_fetch_add_explicit(&v->refcount, 1, memory_order_relaxed);
}

void tfe_variant_unref(tfe_variant* v) {
  int64_t i;
  if (v == NULL) return;
  if (atomic_fetch_sub_explicit(&v->refcount, 1, memory_order_acq_rel) != 1) {
    return;
  }
  for (i = 0; i < v->num_tensors; i++) TF_DeleteTensor(v->tensors[i]);
  if (v->release != NULL) v->release(v->opaque);
  tfe_free(v->tensors);
  tfe_pshape_free(&v->element_shape);
  tfe_free(v);
}

TF_Tensor* tfe_tensor_share(const TF_Tensor* t) {
  if (t == NULL) return NULL;
  return tfe_tensor_from_buffer(t->dtype, t->dims, t->num_dims, t->buf);
}

static int reserve(tfe_variant* v, int64_t n) {
  TF_Tensor** grown;
  int64_t cap;
  size_t bytes;
  if (n <= v->cap) return 1;
  cap = v->cap < 4 ? 4 : v->cap * 2;
  if (cap < n) cap = n;
  if (!tfe_mul_size((size_t)cap, sizeof(TF_Tensor*), &bytes)) return 0;
  grown = (TF_Tensor**)tfe_realloc(v->tensors, bytes);
  if (grown == NULL) return 0;
  v->tensors = grown;
  v->cap = cap;
  return 1;
}

int tfe_variant_append(tfe_variant* v, TF_Tensor* t) {
  if (!reserve(v, v->num_tensors + 1)) {
    TF_DeleteTensor(t);
    return 0;
  }
  v->tensors[v->num_tensors++] = t;
  return 1;
}

int tfe_variant_resize(tfe_variant* v, int64_t n) {
  int64_t i;
  if (n < 0) return 0;
  if (n > v->num_tensors) {
    if (!reserve(v, n)) return 0;
    for (i = v->num_tensors; i < n; i++) v->tensors[i] = NULL;
  } else {
    for (i = n; i < v->num_tensors; i++) TF_DeleteTensor(v->tensors[i]);
  }
  v->num_tensors = n;
  return 1;
}

void tfe_variant_set(tfe_variant* v, int64_t i, TF_Tensor* t) {
  if (i < 0 || i >= v->num_tensors) {
    TF_DeleteTensor(t);
    return;
  }
  TF_DeleteTensor(v->tensors[i]);
  v->tensors[i] = t;
}

tfe_variant* tfe_variant_copy(const tfe_variant* v) {
  tfe_variant* c;
  int64_t i;
  /* A held lock has one owner: it cannot be copied. */
  if (v->kind == TFE_VARIANT_LOCK) return NULL;
  c = new_variant(v->kind);
  if (c == NULL) return NULL;
  c->element_dtype = v->element_dtype;
  c->max_num_elements = v->max_num_elements;
  c->has_value = v->has_value;
  if (!tfe_pshape_set(&c->element_shape, v->element_shape.rank,
                      v->element_shape.dims) ||
      !reserve(c, v->num_tensors)) {
    tfe_variant_unref(c);
    return NULL;
  }
  for (i = 0; i < v->num_tensors; i++) {
    TF_Tensor* t = NULL;
    if (v->tensors[i] != NULL) {
      t = tfe_tensor_share(v->tensors[i]);
      if (t == NULL) {
        tfe_variant_unref(c);
        return NULL;
      }
    }
    c->tensors[c->num_tensors++] = t;
  }
  return c;
}

const char* tfe_variant_type_name(const tfe_variant* v) {
  if (v == NULL) return "void";
  if (v->kind == TFE_VARIANT_MAP) return "tensorflow::TensorMap";
  if (v->kind == TFE_VARIANT_LOCK) {
    return "tensorflow::(anonymous namespace)::SharedLockReleaser";
  }
  return v->kind == TFE_VARIANT_LIST ? "tensorflow::TensorList"
                                     : "tensorflow::data::Optional";
}

const char* tfe_variant_debug_string(const tfe_variant* v, char* buf,
                                     size_t cap) {
  if (v == NULL) {
    snprintf(buf, cap, "Variant<type: void value: [empty]>");
  } else if (v->kind == TFE_VARIANT_LOCK) {
    snprintf(buf, cap,
             "Variant<type: tensorflow::(anonymous namespace)::"
             "SharedLockReleaser value: SharedLockReleaser>");
  } else if (v->kind == TFE_VARIANT_MAP) {
    snprintf(buf, cap, "Variant<type: tensorflow::TensorMap value: TensorMap>");
  } else if (v->kind == TFE_VARIANT_LIST) {
    snprintf(buf, cap,
             "Variant<type: tensorflow::TensorList value: TensorList>");
  } else {
    snprintf(buf, cap,
             "Variant<type: tensorflow::data::Optional value: "
             "OptionalVariant<%s>>",
             v->has_value ? "value" : "None");
  }
  return buf;
}

const char* tfe_variant_dtype_name(TF_DataType t) {
  const char* s = tfe_dtype_short_name(t);
  return s != NULL ? s : "invalid";
}

/* ------------------------------------------------------------------------
 * Variant tensors. */

tfe_variant** tfe_variant_slots(const TF_Tensor* t) {
  int64_t n;
  if (t == NULL || t->dtype != TF_VARIANT || t->buf == NULL) return NULL;
  n = tfe_shape_num_elements(t->dims, t->num_dims);
  if (n < 0 || t->buf->variant_count < n) return NULL;
  return (tfe_variant**)t->buf->data;
}

tfe_variant* tfe_variant_scalar(const TF_Tensor* t, int* ok) {
  tfe_variant** s = tfe_variant_slots(t);
  *ok = s != NULL && t->num_dims == 0;
  return *ok ? s[0] : NULL;
}

TF_Tensor* tfe_variant_make_scalar(tfe_variant* v) {
  TF_Tensor* t = TF_AllocateTensor(TF_VARIANT, NULL, 0, 0);
  tfe_variant** s = tfe_variant_slots(t);
  if (s == NULL) {
    TF_DeleteTensor(t);
    tfe_variant_unref(v);
    return NULL;
  }
  s[0] = v;
  return t;
}

TF_Tensor* tfe_variant_tensor_copy(const TF_Tensor* t) {
  tfe_variant** src = tfe_variant_slots(t);
  tfe_variant** dst;
  TF_Tensor* c;
  int64_t n, i;
  if (src == NULL) return NULL;
  c = TF_AllocateTensor(TF_VARIANT, t->dims, t->num_dims, 0);
  dst = tfe_variant_slots(c);
  if (dst == NULL) {
    TF_DeleteTensor(c);
    return NULL;
  }
  n = tfe_shape_num_elements(t->dims, t->num_dims);
  for (i = 0; i < n; i++) {
    tfe_variant_ref(src[i]);
    dst[i] = src[i];
  }
  return c;
}

/* ------------------------------------------------------------------------
 * AddN / ZerosLike. */

static int add_elements(TF_Tensor* a, TF_Tensor* b, TF_Tensor** out,
                        tfe_variant_add_fn add, void* arg, TF_Status* s) {
  if (a == NULL || b == NULL) {
    /* An uninitialised side yields the other one. */
    TF_Tensor* src = a == NULL ? b : a;
    *out = NULL;
    if (src == NULL) return 1;
    *out = tfe_tensor_share(src);
    if (*out == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
    return 1;
  }
  *out = NULL;
  return add(arg, a, b, out, s);
}

tfe_variant* tfe_variant_add(const tfe_variant* a, const tfe_variant* b,
                             tfe_variant_add_fn add, void* arg,
                             const char* device_name, TF_Status* status) {
  tfe_variant* out;
  int64_t i;
  char sa[256], sb[256];
  if (a == NULL || b == NULL || a->kind != b->kind) {
    if (a != NULL && b != NULL) {
      tfe_status_setf(status, TF_INTERNAL,
                      "BinaryOpVariants: Variants a and b have different type "
                      "ids.  Type names: '%s' vs. '%s'",
                      tfe_variant_type_name(a), tfe_variant_type_name(b));
    } else if (a != b) {
      tfe_status_setf(status, TF_INTERNAL,
                      "BinaryOpVariants: Variants a and b have different type "
                      "ids.  Type names: '%s' vs. '%s'",
                      a == NULL ? "" : tfe_variant_type_name(a),
                      b == NULL ? "" : tfe_variant_type_name(b));
    } else {
      tfe_status_setf(status, TF_INTERNAL,
                      "No unary variant binary_op function found for op ADD "
                      "Variant type_name: void for device type: %s",
                      device_name != NULL ? device_name : "CPU");
    }
    return NULL;
  }
  if (a->kind == TFE_VARIANT_LOCK) {
    tfe_status_setf(status, TF_INTERNAL,
                    "No unary variant binary_op function found for op ADD "
                    "Variant type_name: %s for device type: %s",
                    tfe_variant_type_name(a),
                    device_name != NULL ? device_name : "CPU");
    return NULL;
  }
  if (a->kind == TFE_VARIANT_MAP) {
    /* TF's TensorMapBinaryAdd: the union of the keys, values of common
     * keys added. */
    out = tfe_variant_copy(a);
    if (out == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return NULL;
    }
    for (i = 0; i + 1 < b->num_tensors; i += 2) {
      int64_t at = tfe_variant_map_find(out, b->tensors[i]);
      if (at >= 0) {
        TF_Tensor* sum = NULL;
        if (!add_elements(b->tensors[i + 1], out->tensors[2 * at + 1], &sum,
                          add, arg, status)) {
          TF_DeleteTensor(sum);
          tfe_variant_unref(out);
          return NULL;
        }
        tfe_variant_set(out, 2 * at + 1, sum);
      } else {
        TF_Tensor* kt = tfe_tensor_share(b->tensors[i]);
        TF_Tensor* vt = tfe_tensor_share(b->tensors[i + 1]);
        int ok = kt != NULL && vt != NULL;
        if (!ok) {
          TF_DeleteTensor(kt);
          TF_DeleteTensor(vt);
        } else if (!tfe_variant_append(out, kt)) {
          TF_DeleteTensor(vt);
          ok = 0;
        } else {
          ok = tfe_variant_append(out, vt);
        }
        if (!ok) {
          tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
          tfe_variant_unref(out);
          return NULL;
        }
      }
    }
    tfe_status_ok(status);
    return out;
  }
  if (a->kind == TFE_VARIANT_LIST) {
    if (a->element_dtype != b->element_dtype) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Trying to add two lists of tensors of different "
                      "dtypes. One is %s and the other is %s",
                      tfe_variant_dtype_name(a->element_dtype),
                      tfe_variant_dtype_name(b->element_dtype));
      return NULL;
    }
    if (!tfe_pshape_compatible(&a->element_shape, &b->element_shape)) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Trying to add two lists of tensors with incompatible "
                      "element shapes. One is %s and the other is %s",
                      tfe_pshape_str(&a->element_shape, sa, sizeof sa),
                      tfe_pshape_str(&b->element_shape, sb, sizeof sb));
      return NULL;
    }
    if (a->num_tensors != b->num_tensors) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Trying to add two lists of tensors with different "
                      "lengths. One is %lld and the other is %lld",
                      (long long)a->num_tensors, (long long)b->num_tensors);
      return NULL;
    }
    out = tfe_variant_new_list(a->element_dtype, NULL, -1);
    if (out == NULL ||
        !tfe_pshape_merge(&a->element_shape, &b->element_shape,
                          &out->element_shape, status)) {
      if (out == NULL) {
        tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      }
      tfe_variant_unref(out);
      return NULL;
    }
  } else {
    if (a->has_value != b->has_value) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Cannot add optionals because one has a value and the "
                      "other doesn't.");
      return NULL;
    }
    if (a->num_tensors != b->num_tensors) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Cannot add optionals because they have different "
                      "numbers of components (%lld vs. %lld).",
                      (long long)a->num_tensors, (long long)b->num_tensors);
      return NULL;
    }
    out = tfe_variant_new_optional(a->has_value);
    if (out == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return NULL;
    }
  }
  for (i = 0; i < a->num_tensors; i++) {
    TF_Tensor* sum = NULL;
    if (!add_elements(a->tensors[i], b->tensors[i], &sum, add, arg, status)) {
      TF_DeleteTensor(sum);
      tfe_variant_unref(out);
      return NULL;
    }
    if (!tfe_variant_append(out, sum)) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      tfe_variant_unref(out);
      return NULL;
    }
  }
  tfe_status_ok(status);
  return out;
}

static int zeros_element(const TF_Tensor* in, TF_Tensor** out,
                         tfe_variant_zeros_fn zeros, void* arg,
                         const char* device_name, TF_Status* s);

tfe_variant* tfe_variant_zeros_like(const tfe_variant* x,
                                    tfe_variant_zeros_fn zeros, void* arg,
                                    const char* device_name,
                                    TF_Status* status) {
  tfe_variant* out;
  int64_t i;
  if (x == NULL) {
    tfe_status_setf(status, TF_INTERNAL,
                    "No unary variant unary_op function found for op "
                    "ZEROS_LIKE Variant type_name: void for device type: %s",
                    device_name != NULL ? device_name : "CPU");
    return NULL;
  }
  if (x->kind == TFE_VARIANT_LOCK) {
    tfe_status_setf(status, TF_INTERNAL,
                    "No unary variant unary_op function found for op "
                    "ZEROS_LIKE Variant type_name: %s for device type: %s",
                    tfe_variant_type_name(x),
                    device_name != NULL ? device_name : "CPU");
    return NULL;
  }
  if (x->kind == TFE_VARIANT_MAP) {
    /* TF's TensorMapZerosLike: an empty map. */
    out = tfe_variant_new_map();
    if (out == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    } else {
      tfe_status_ok(status);
    }
    return out;
  }
  if (x->kind == TFE_VARIANT_LIST) {
    out = tfe_variant_new_list(x->element_dtype, &x->element_shape, -1);
  } else {
    out = tfe_variant_new_optional(x->has_value);
  }
  if (out == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  for (i = 0; i < x->num_tensors; i++) {
    TF_Tensor* z = NULL;
    if (x->tensors[i] != NULL &&
        !zeros_element(x->tensors[i], &z, zeros, arg, device_name, status)) {
      TF_DeleteTensor(z);
      tfe_variant_unref(out);
      return NULL;
    }
    if (!tfe_variant_append(out, z)) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      tfe_variant_unref(out);
      return NULL;
    }
  }
  tfe_status_ok(status);
  return out;
}

static int zeros_element(const TF_Tensor* in, TF_Tensor** out,
                         tfe_variant_zeros_fn zeros, void* arg,
                         const char* device_name, TF_Status* s) {
  tfe_variant **src, **dst;
  int64_t n, i;
  TF_Tensor* t;
  *out = NULL;
  if (in->dtype != TF_VARIANT) return zeros(arg, in, out, s);
  /* A nested variant: zero each element's object the same way. */
  src = tfe_variant_slots(in);
  if (src == NULL) {
    tfe_status_setf(s, TF_INTERNAL,
                    "ZerosLike: a DT_VARIANT element holds no variant objects");
    return 0;
  }
  t = TF_AllocateTensor(TF_VARIANT, in->dims, in->num_dims, 0);
  dst = tfe_variant_slots(t);
  if (dst == NULL) {
    TF_DeleteTensor(t);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  n = tfe_shape_num_elements(in->dims, in->num_dims);
  for (i = 0; i < n; i++) {
    dst[i] = tfe_variant_zeros_like(src[i], zeros, arg, device_name, s);
    if (dst[i] == NULL) {
      TF_DeleteTensor(t);
      return 0;
    }
  }
  *out = t;
  return 1;
}

TF_Tensor* tfe_variant_add_n(TF_Tensor* const* inputs, int n,
                             tfe_variant_add_fn add, void* arg,
                             const char* device_name, TF_Status* status) {
  tfe_variant** partial;
  TF_Tensor* result;
  int i, skip;
  char shape[256];
  if (n < 1 || inputs == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "AddN needs an input");
    return NULL;
  }
  if (n == 1) {
    result = tfe_tensor_share(inputs[0]);
    if (result == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    } else {
      tfe_status_ok(status);
    }
    return result;
  }
  for (i = 0; i < n; i++) {
    int ok;
    if (inputs[i]->num_dims != 0) {
      size_t len = 0;
      int d;
      len += (size_t)snprintf(shape, sizeof shape, "[");
      for (d = 0; d < inputs[i]->num_dims && len < sizeof shape; d++) {
        len += (size_t)snprintf(shape + len, sizeof shape - len,
                                d ? ",%lld" : "%lld",
                                (long long)inputs[i]->dims[d]);
      }
      if (len < sizeof shape) snprintf(shape + len, sizeof shape - len, "]");
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "AddN of non-scalar Tensor with dtype=DT_VARIANT is not "
                      "supported; inputs[%d has shape: %s.",
                      i, shape);
      return NULL;
    }
    (void)tfe_variant_scalar(inputs[i], &ok);
    if (!ok) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "AddN: input %d is not a DT_VARIANT tensor holding "
                      "variant objects",
                      i);
      return NULL;
    }
  }
  /* partial[i] holds the running sum rooted at i (NULL: still the input). */
  partial = (tfe_variant**)tfe_calloc((size_t)n, sizeof(tfe_variant*));
  if (partial == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  for (i = 0; i < n; i++) {
    int ok;
    partial[i] = tfe_variant_scalar(inputs[i], &ok);
    tfe_variant_ref(partial[i]);
  }
  /* Pairwise tree: at each level x[i - skip] += x[i]. */
  for (skip = 1; skip < n; skip *= 2) {
    for (i = skip; i < n; i += 2 * skip) {
      tfe_variant* sum = tfe_variant_add(partial[i - skip], partial[i], add,
                                         arg, device_name, status);
      if (sum == NULL) {
        for (i = 0; i < n; i++) tfe_variant_unref(partial[i]);
        tfe_free(partial);
        return NULL;
      }
      tfe_variant_unref(partial[i - skip]);
      partial[i - skip] = sum;
    }
  }
  result = tfe_variant_make_scalar(partial[0]);
  partial[0] = NULL;
  for (i = 1; i < n; i++) tfe_variant_unref(partial[i]);
  tfe_free(partial);
  if (result == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return result;
}

TF_Tensor* tfe_variant_zeros_like_tensor(const TF_Tensor* in,
                                         tfe_variant_zeros_fn zeros,
                                         void* arg, const char* device_name,
                                         TF_Status* status) {
  tfe_variant* v;
  tfe_variant* z;
  TF_Tensor* t;
  int ok;
  if (in == NULL || in->num_dims != 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "ZerosLike non-scalar Tensor with dtype=DT_VARIANT is not "
                    "supported.");
    return NULL;
  }
  v = tfe_variant_scalar(in, &ok);
  if (!ok) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "ZerosLike: the input is not a DT_VARIANT tensor holding "
                    "variant objects");
    return NULL;
  }
  z = tfe_variant_zeros_like(v, zeros, arg, device_name, status);
  if (z == NULL) return NULL;
  t = tfe_variant_make_scalar(z);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return t;
}
