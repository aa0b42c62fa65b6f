/* Attribute values and named attr sets: construction, copies, equality,
 * hashing (the kernel-cache key), TF-style rendering, dtype names. */
#include "ops/attr_value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "ops/ops_internal.h"
#include "tensorflow/c/tf_tstring.h"

/* ======================================================================
 * growable strings
 * ====================================================================== */

void tfe_sb_init(tfe_strbuf* b) {
  b->data = NULL;
  b->len = 0;
  b->cap = 0;
  b->oom = 0;
}

void tfe_sb_free(tfe_strbuf* b) {
  tfe_free(b->data);
  tfe_sb_init(b);
}

static int sb_reserve(tfe_strbuf* b, size_t extra) {
  size_t need, cap;
  char* p;
  if (b->oom) return 0;
  if (extra > SIZE_MAX / 2 - b->len - 1) {
    b->oom = 1;
    return 0;
  }
  need = b->len + extra + 1;
  if (need <= b->cap) return 1;
  cap = b->cap ? b->cap : 64;
  while (cap < need) cap *= 2;
  p = (char*)tfe_realloc(b->data, cap);
  if (p == NULL) {
    b->oom = 1;
    return 0;
  }
  b->data = p;
  b->cap = cap;
  return 1;
}

void tfe_sb_putn(tfe_strbuf* b, const char* s, size_t n) {
  if (!sb_reserve(b, n)) return;
  if (n > 0) memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void tfe_sb_puts(tfe_strbuf* b, const char* s) {
  if (s != NULL) tfe_sb_putn(b, s, strlen(s));
}

void tfe_sb_putc(tfe_strbuf* b, char c) { tfe_sb_putn(b, &c, 1); }

void tfe_sb_printf(tfe_strbuf* b, const char* fmt, ...) {
  char small[128];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    tfe_sb_putn(b, small, (size_t)n);
    return;
  }
  if (!sb_reserve(b, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

const char* tfe_sb_str(const tfe_strbuf* b) {
  return (b->data == NULL || b->oom) ? "" : b->data;
}

char* tfe_sb_take(tfe_strbuf* b) {
  char* p;
  if (b->oom) {
    tfe_sb_free(b);
    return NULL;
  }
  if (b->data == NULL) {
    p = (char*)tfe_malloc(1);
    if (p != NULL) p[0] = '\0';
    return p;
  }
  p = b->data;
  tfe_sb_init(b);
  return p;
}

/* ======================================================================
 * dtype names
 * ====================================================================== */

typedef struct dtype_name {
  const char* enum_name;
  const char* short_name;
} dtype_name;

/* Indexed by the enum value (types.proto). */
static const dtype_name kDtypeNames[] = {
    {"DT_INVALID", NULL},
    {"DT_FLOAT", "float"},
    {"DT_DOUBLE", "double"},
    {"DT_INT32", "int32"},
    {"DT_UINT8", "uint8"},
    {"DT_INT16", "int16"},
    {"DT_INT8", "int8"},
    {"DT_STRING", "string"},
    {"DT_COMPLEX64", "complex64"},
    {"DT_INT64", "int64"},
    {"DT_BOOL", "bool"},
    {"DT_QINT8", "qint8"},
    {"DT_QUINT8", "quint8"},
    {"DT_QINT32", "qint32"},
    {"DT_BFLOAT16", "bfloat16"},
    {"DT_QINT16", "qint16"},
    {"DT_QUINT16", "quint16"},
    {"DT_UINT16", "uint16"},
    {"DT_COMPLEX128", "complex128"},
    {"DT_HALF", "half"},
    {"DT_RESOURCE", "resource"},
    {"DT_VARIANT", "variant"},
    {"DT_UINT32", "uint32"},
    {"DT_UINT64", "uint64"},
    {"DT_FLOAT8_E5M2", "float8_e5m2"},
    {"DT_FLOAT8_E4M3FN", "float8_e4m3fn"},
    {"DT_FLOAT8_E4M3FNUZ", "float8_e4m3fnuz"},
    {"DT_FLOAT8_E4M3B11FNUZ", "float8_e4m3b11fnuz"},
    {"DT_FLOAT8_E5M2FNUZ", "float8_e5m2fnuz"},
    {"DT_INT4", "int4"},
    {"DT_UINT4", "uint4"},
    {"DT_INT2", "int2"},
    {"DT_UINT2", "uint2"},
    {"DT_FLOAT4_E2M1FN", "float4_e2m1fn"},
};
#define TFE_NUM_DTYPE_NAMES ((int)(sizeof kDtypeNames / sizeof kDtypeNames[0]))

const char* tfe_dtype_enum_name(TF_DataType t) {
  int i = (int)t;
  if (i <= 0 || i >= TFE_NUM_DTYPE_NAMES) return "DT_INVALID";
  return kDtypeNames[i].enum_name;
}

const char* tfe_dtype_short_name(TF_DataType t) {
  int i = (int)t;
  if (i <= 0 || i >= TFE_NUM_DTYPE_NAMES) return NULL;
  return kDtypeNames[i].short_name;
}

int tfe_dtype_is_valid(TF_DataType t) {
  return (int)t > 0 && (int)t < TFE_NUM_DTYPE_NAMES;
}

static int name_eq(const char* name, size_t len, const char* lit) {
  size_t n = strlen(lit);
  return n == len && memcmp(name, lit, n) == 0;
}

int tfe_dtype_from_name(const char* name, size_t len, TF_DataType* out) {
  int i;
  if (name == NULL || len == 0) return 0;
  for (i = 1; i < TFE_NUM_DTYPE_NAMES; i++) {
    if (name_eq(name, len, kDtypeNames[i].short_name) ||
        name_eq(name, len, kDtypeNames[i].enum_name)) {
      if (out) *out = (TF_DataType)i;
      return 1;
    }
  }
  /* The aliases TF's DataTypeFromString also accepts. */
  if (name_eq(name, len, "float32")) {
    if (out) *out = TF_FLOAT;
    return 1;
  }
  if (name_eq(name, len, "float64")) {
    if (out) *out = TF_DOUBLE;
    return 1;
  }
  if (name_eq(name, len, "float16")) {
    if (out) *out = TF_HALF;
    return 1;
  }
  return 0;
}

const char* tfe_attr_kind_name(TF_AttrType t, int is_list) {
  switch (t) {
    case TF_ATTR_STRING: return is_list ? "list(string)" : "string";
    case TF_ATTR_INT: return is_list ? "list(int)" : "int";
    case TF_ATTR_FLOAT: return is_list ? "list(float)" : "float";
    case TF_ATTR_BOOL: return is_list ? "list(bool)" : "bool";
    case TF_ATTR_TYPE: return is_list ? "list(type)" : "type";
    case TF_ATTR_SHAPE: return is_list ? "list(shape)" : "shape";
    case TF_ATTR_TENSOR: return is_list ? "list(tensor)" : "tensor";
    case TF_ATTR_FUNC: return is_list ? "list(func)" : "func";
    case TF_ATTR_PLACEHOLDER: return is_list ? "list(placeholder)" : "placeholder";
  }
  return "unknown";
}

/* ======================================================================
 * single values
 * ====================================================================== */

static void free_tensor_ref(TF_Tensor* t) {
  if (t != NULL) TF_DeleteTensor(t);
}

void tfe_attr_value_clear(tfe_attr_value* v) {
  int i;
  if (v == NULL) return;
  if (v->is_list) {
    switch (v->type) {
      case TF_ATTR_INT: tfe_free(v->list.i); break;
      case TF_ATTR_FLOAT: tfe_free(v->list.f); break;
      case TF_ATTR_BOOL: tfe_free(v->list.b); break;
      case TF_ATTR_TYPE: tfe_free(v->list.type); break;
      case TF_ATTR_STRING:
      case TF_ATTR_FUNC:
        if (v->list.s.data != NULL) {
          for (i = 0; i < v->list_size; i++) tfe_free(v->list.s.data[i]);
        }
        tfe_free(v->list.s.data);
        tfe_free(v->list.s.len);
        break;
      case TF_ATTR_SHAPE:
        if (v->list.shape != NULL) {
          for (i = 0; i < v->list_size; i++) tfe_free(v->list.shape[i].dims);
        }
        tfe_free(v->list.shape);
        break;
      case TF_ATTR_TENSOR:
        if (v->list.tensor != NULL) {
          for (i = 0; i < v->list_size; i++) free_tensor_ref(v->list.tensor[i]);
        }
        tfe_free(v->list.tensor);
        break;
      default: break;
    }
  } else {
    switch (v->type) {
      case TF_ATTR_STRING:
      case TF_ATTR_PLACEHOLDER:
      case TF_ATTR_FUNC: tfe_free(v->v.s.data); break;
      case TF_ATTR_SHAPE: tfe_free(v->v.shape.dims); break;
      case TF_ATTR_TENSOR: free_tensor_ref(v->v.tensor); break;
      default: break;
    }
  }
  memset(v, 0, sizeof(*v));
}

static char* dup_bytes(const void* s, size_t len) {
  char* d;
  if (len == SIZE_MAX) return NULL; /* len + 1 would wrap to 0 */
  d = (char*)tfe_malloc(len + 1);
  if (d == NULL) return NULL;
  if (len > 0) memcpy(d, s, len);
  d[len] = '\0';
  return d;
}

static int shape_copy(tfe_shape* dst, const int64_t* dims, int num_dims) {
  dst->dims = NULL;
  if (num_dims < 0) {
    dst->num_dims = -1;
    return 1;
  }
  dst->num_dims = num_dims;
  if (num_dims == 0) return 1;
  dst->dims = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)num_dims);
  if (dst->dims == NULL) return 0;
  if (dims != NULL) {
    int i;
    memcpy(dst->dims, dims, sizeof(int64_t) * (size_t)num_dims);
    for (i = 0; i < num_dims; i++) {
      if (dst->dims[i] < -1) dst->dims[i] = -1;
    }
  } else {
    int i;
    for (i = 0; i < num_dims; i++) dst->dims[i] = -1;
  }
  return 1;
}

/* A second TF_Tensor over the same refcounted buffer. */
static TF_Tensor* tensor_ref(const TF_Tensor* t) {
  if (t == NULL) return NULL;
  return tfe_tensor_from_buffer(t->dtype, t->dims, t->num_dims, t->buf);
}

void tfe_attr_value_set_int(tfe_attr_value* v, int64_t x) {
  memset(v, 0, sizeof(*v));
  v->type = TF_ATTR_INT;
  v->v.i = x;
}

void tfe_attr_value_set_float(tfe_attr_value* v, float x) {
  memset(v, 0, sizeof(*v));
  v->type = TF_ATTR_FLOAT;
  v->v.f = x;
}

void tfe_attr_value_set_bool(tfe_attr_value* v, unsigned char x) {
  memset(v, 0, sizeof(*v));
  v->type = TF_ATTR_BOOL;
  v->v.b = x ? 1 : 0;
}

void tfe_attr_value_set_type(tfe_attr_value* v, TF_DataType x) {
  memset(v, 0, sizeof(*v));
  v->type = TF_ATTR_TYPE;
  v->v.type = x;
}

static int set_bytes(tfe_attr_value* v, TF_AttrType type, const void* s,
                     size_t len) {
  memset(v, 0, sizeof(*v));
  v->type = type;
  if (s == NULL) len = 0;
  v->v.s.data = dup_bytes(s, len);
  if (v->v.s.data == NULL) {
    memset(v, 0, sizeof(*v));
    return 0;
  }
  v->v.s.len = len;
  return 1;
}

int tfe_attr_value_set_string(tfe_attr_value* v, const void* s, size_t len) {
  return set_bytes(v, TF_ATTR_STRING, s, len);
}

int tfe_attr_value_set_func(tfe_attr_value* v, const char* name, size_t len) {
  return set_bytes(v, TF_ATTR_FUNC, name, len);
}

int tfe_attr_value_set_placeholder(tfe_attr_value* v, const char* name,
                                   size_t len) {
  return set_bytes(v, TF_ATTR_PLACEHOLDER, name, len);
}

int tfe_attr_value_set_shape(tfe_attr_value* v, const int64_t* dims,
                             int num_dims) {
  memset(v, 0, sizeof(*v));
  v->type = TF_ATTR_SHAPE;
  if (!shape_copy(&v->v.shape, dims, num_dims)) {
    memset(v, 0, sizeof(*v));
    return 0;
  }
  return 1;
}

int tfe_attr_value_set_tensor(tfe_attr_value* v, const TF_Tensor* t) {
  memset(v, 0, sizeof(*v));
  if (t == NULL) return 0;
  v->type = TF_ATTR_TENSOR;
  v->v.tensor = tensor_ref(t);
  if (v->v.tensor == NULL) {
    memset(v, 0, sizeof(*v));
    return 0;
  }
  return 1;
}

/* Starts a list value of n elements of elem_size bytes (zeroed). */
static int list_begin(tfe_attr_value* v, TF_AttrType type, int n,
                      size_t elem_size, void** arr) {
  memset(v, 0, sizeof(*v));
  v->type = type;
  v->is_list = 1;
  *arr = NULL;
  if (n <= 0) return 1;
  *arr = tfe_calloc((size_t)n, elem_size);
  if (*arr == NULL) {
    memset(v, 0, sizeof(*v));
    return 0;
  }
  v->list_size = n;
  return 1;
}

int tfe_attr_value_set_int_list(tfe_attr_value* v, const int64_t* xs, int n) {
  void* arr;
  if (n > 0 && xs == NULL) n = 0;
  if (!list_begin(v, TF_ATTR_INT, n, sizeof(int64_t), &arr)) return 0;
  v->list.i = (int64_t*)arr;
  if (n > 0) memcpy(arr, xs, sizeof(int64_t) * (size_t)n);
  return 1;
}

int tfe_attr_value_set_float_list(tfe_attr_value* v, const float* xs, int n) {
  void* arr;
  if (n > 0 && xs == NULL) n = 0;
  if (!list_begin(v, TF_ATTR_FLOAT, n, sizeof(float), &arr)) return 0;
  v->list.f = (float*)arr;
  if (n > 0) memcpy(arr, xs, sizeof(float) * (size_t)n);
  return 1;
}

int tfe_attr_value_set_bool_list(tfe_attr_value* v, const unsigned char* xs,
                                 int n) {
  void* arr;
  int i;
  if (n > 0 && xs == NULL) n = 0;
  if (!list_begin(v, TF_ATTR_BOOL, n, 1, &arr)) return 0;
  v->list.b = (unsigned char*)arr;
  for (i = 0; i < n; i++) v->list.b[i] = xs[i] ? 1 : 0;
  return 1;
}

int tfe_attr_value_set_type_list(tfe_attr_value* v, const TF_DataType* xs,
                                 int n) {
  void* arr;
  if (n > 0 && xs == NULL) n = 0;
  if (!list_begin(v, TF_ATTR_TYPE, n, sizeof(TF_DataType), &arr)) return 0;
  v->list.type = (TF_DataType*)arr;
  if (n > 0) memcpy(arr, xs, sizeof(TF_DataType) * (size_t)n);
  return 1;
}

static int set_bytes_list(tfe_attr_value* v, TF_AttrType type,
                          const void* const* s, const size_t* lens, int n) {
  void* arr;
  int i;
  if (n > 0 && s == NULL) n = 0;
  if (!list_begin(v, type, n, sizeof(char*), &arr)) return 0;
  v->list.s.data = (char**)arr;
  if (n <= 0) return 1;
  v->list.s.len = (size_t*)tfe_calloc((size_t)n, sizeof(size_t));
  if (v->list.s.len == NULL) {
    tfe_attr_value_clear(v);
    return 0;
  }
  for (i = 0; i < n; i++) {
    size_t len = s[i] == NULL ? 0
                 : lens != NULL ? lens[i]
                                : strlen((const char*)s[i]);
    v->list.s.data[i] = dup_bytes(s[i], len);
    if (v->list.s.data[i] == NULL) {
      tfe_attr_value_clear(v);
      return 0;
    }
    v->list.s.len[i] = len;
  }
  return 1;
}

int tfe_attr_value_set_string_list(tfe_attr_value* v, const void* const* s,
                                   const size_t* lens, int n) {
  return set_bytes_list(v, TF_ATTR_STRING, s, lens, n);
}

int tfe_attr_value_set_shape_list(tfe_attr_value* v,
                                  const int64_t* const* dims,
                                  const int* num_dims, int n) {
  void* arr;
  int i;
  if (n > 0 && num_dims == NULL) n = 0;
  if (!list_begin(v, TF_ATTR_SHAPE, n, sizeof(tfe_shape), &arr)) return 0;
  v->list.shape = (tfe_shape*)arr;
  for (i = 0; i < n; i++) {
    if (!shape_copy(&v->list.shape[i], dims != NULL ? dims[i] : NULL,
                    num_dims[i])) {
      tfe_attr_value_clear(v);
      return 0;
    }
  }
  return 1;
}

int tfe_attr_value_set_tensor_list(tfe_attr_value* v, TF_Tensor* const* ts,
                                   int n) {
  void* arr;
  int i;
  if (n > 0 && ts == NULL) n = 0;
  if (!list_begin(v, TF_ATTR_TENSOR, n, sizeof(TF_Tensor*), &arr)) return 0;
  v->list.tensor = (TF_Tensor**)arr;
  for (i = 0; i < n; i++) {
    v->list.tensor[i] = tensor_ref(ts[i]);
    if (v->list.tensor[i] == NULL) {
      tfe_attr_value_clear(v);
      return 0;
    }
  }
  return 1;
}

int tfe_attr_value_copy(tfe_attr_value* dst, const tfe_attr_value* src) {
  int ok = 1;
  if (src == NULL) {
    memset(dst, 0, sizeof(*dst));
    return 0;
  }
  if (!src->is_list) {
    switch (src->type) {
      case TF_ATTR_STRING:
      case TF_ATTR_PLACEHOLDER:
      case TF_ATTR_FUNC:
        return set_bytes(dst, src->type, src->v.s.data, src->v.s.len);
      case TF_ATTR_SHAPE:
        return tfe_attr_value_set_shape(dst, src->v.shape.dims,
                                        src->v.shape.num_dims);
      case TF_ATTR_TENSOR:
        return tfe_attr_value_set_tensor(dst, src->v.tensor);
      default:
        *dst = *src;
        return 1;
    }
  }
  switch (src->type) {
    case TF_ATTR_INT:
      ok = tfe_attr_value_set_int_list(dst, src->list.i, src->list_size);
      break;
    case TF_ATTR_FLOAT:
      ok = tfe_attr_value_set_float_list(dst, src->list.f, src->list_size);
      break;
    case TF_ATTR_BOOL:
      ok = tfe_attr_value_set_bool_list(dst, src->list.b, src->list_size);
      break;
    case TF_ATTR_TYPE:
      ok = tfe_attr_value_set_type_list(dst, src->list.type, src->list_size);
      break;
    case TF_ATTR_STRING:
    case TF_ATTR_FUNC:
      ok = set_bytes_list(dst, src->type,
                          (const void* const*)src->list.s.data,
                          src->list.s.len, src->list_size);
      break;
    case TF_ATTR_SHAPE: {
      void* arr;
      int i;
      ok = list_begin(dst, TF_ATTR_SHAPE, src->list_size, sizeof(tfe_shape),
                      &arr);
      if (!ok) break;
      dst->list.shape = (tfe_shape*)arr;
      for (i = 0; i < src->list_size; i++) {
        if (!shape_copy(&dst->list.shape[i], src->list.shape[i].dims,
                        src->list.shape[i].num_dims)) {
          tfe_attr_value_clear(dst);
          ok = 0;
          break;
        }
      }
      break;
    }
    case TF_ATTR_TENSOR:
      ok = tfe_attr_value_set_tensor_list(dst, src->list.tensor,
                                          src->list_size);
      break;
    default:
      memset(dst, 0, sizeof(*dst));
      dst->type = src->type;
      dst->is_list = 1;
      break;
  }
  return ok;
}

/* ---- equality ---- */

static int shape_equal(const tfe_shape* a, const tfe_shape* b) {
  if (a->num_dims != b->num_dims) return 0;
  if (a->num_dims <= 0) return 1;
  return memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->num_dims) == 0;
}

static int tensor_equal(const TF_Tensor* a, const TF_Tensor* b) {
  size_t na, nb;
  if (a == b) return 1;
  if (a == NULL || b == NULL) return 0;
  if (a->dtype != b->dtype || a->num_dims != b->num_dims) return 0;
  if (a->num_dims > 0 &&
      memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->num_dims) != 0) {
    return 0;
  }
  if (a->buf == b->buf) return 1;
  na = TF_TensorByteSize(a);
  nb = TF_TensorByteSize(b);
  if (a->dtype == TF_STRING) {
    int64_t n = TF_TensorElementCount(a), i;
    const TF_TString* sa = (const TF_TString*)TF_TensorData(a);
    const TF_TString* sb = (const TF_TString*)TF_TensorData(b);
    if (n < 0 || (size_t)n * sizeof(TF_TString) > na ||
        (size_t)n * sizeof(TF_TString) > nb) {
      return 0;
    }
    for (i = 0; i < n; i++) {
      size_t la = TF_StringGetSize(&sa[i]), lb = TF_StringGetSize(&sb[i]);
      if (la != lb) return 0;
      if (la > 0 && memcmp(TF_StringGetDataPointer(&sa[i]),
                           TF_StringGetDataPointer(&sb[i]), la) != 0) {
        return 0;
      }
    }
    return 1;
  }
  if (na != nb) return 0;
  return na == 0 || memcmp(TF_TensorData(a), TF_TensorData(b), na) == 0;
}

static int bytes_equal(const char* a, size_t la, const char* b, size_t lb) {
  return la == lb && (la == 0 || memcmp(a, b, la) == 0);
}

int tfe_attr_value_equal(const tfe_attr_value* a, const tfe_attr_value* b) {
  int i, n;
  if (a == b) return 1;
  if (a == NULL || b == NULL) return 0;
  if (a->is_list != b->is_list) return 0;
  if (a->is_list) {
    n = a->list_size;
    if (n != b->list_size) return 0;
    /* Empty lists carry no element type, as in TF's AttrValue protos. */
    if (n == 0) return 1;
    if (a->type != b->type) return 0;
    switch (a->type) {
      case TF_ATTR_INT:
        return memcmp(a->list.i, b->list.i, sizeof(int64_t) * (size_t)n) == 0;
      case TF_ATTR_FLOAT:
        return memcmp(a->list.f, b->list.f, sizeof(float) * (size_t)n) == 0;
      case TF_ATTR_BOOL:
        return memcmp(a->list.b, b->list.b, (size_t)n) == 0;
      case TF_ATTR_TYPE:
        return memcmp(a->list.type, b->list.type,
                      sizeof(TF_DataType) * (size_t)n) == 0;
      case TF_ATTR_STRING:
      case TF_ATTR_FUNC:
        for (i = 0; i < n; i++) {
          if (!bytes_equal(a->list.s.data[i], a->list.s.len[i],
                           b->list.s.data[i], b->list.s.len[i])) {
            return 0;
          }
        }
        return 1;
      case TF_ATTR_SHAPE:
        for (i = 0; i < n; i++) {
          if (!shape_equal(&a->list.shape[i], &b->list.shape[i])) return 0;
        }
        return 1;
      case TF_ATTR_TENSOR:
        for (i = 0; i < n; i++) {
          if (!tensor_equal(a->list.tensor[i], b->list.tensor[i])) return 0;
        }
        return 1;
      default:
        return 1;
    }
  }
  if (a->type != b->type) return 0;
  switch (a->type) {
    case TF_ATTR_INT: return a->v.i == b->v.i;
    case TF_ATTR_FLOAT: return memcmp(&a->v.f, &b->v.f, sizeof(float)) == 0;
    case TF_ATTR_BOOL: return a->v.b == b->v.b;
    case TF_ATTR_TYPE: return a->v.type == b->v.type;
    case TF_ATTR_STRING:
    case TF_ATTR_PLACEHOLDER:
    case TF_ATTR_FUNC:
      return bytes_equal(a->v.s.data, a->v.s.len, b->v.s.data, b->v.s.len);
    case TF_ATTR_SHAPE: return shape_equal(&a->v.shape, &b->v.shape);
    case TF_ATTR_TENSOR: return tensor_equal(a->v.tensor, b->v.tensor);
    default: return 1;
  }
}

/* ---- hashing ---- */

#define TFE_HK 0x9E3779B97F4A7C15ULL

static inline uint64_t mix64(uint64_t x) {
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  return x;
}

static inline uint64_t hcombine(uint64_t h, uint64_t x) {
  return (h ^ (x + TFE_HK + (h << 6) + (h >> 2))) * TFE_HK;
}

/* The last n < 8 bytes of a key as one word, with plain loads (a partial
 * memcpy into a stack word stalls store forwarding). Overlapping reads are
 * fine for hashing. */
static inline uint64_t load_tail(const unsigned char* p, size_t n) {
  if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + n - 4, 4);
    return a | ((uint64_t)b << 32);
  }
  if (n > 0) {
    return (uint64_t)p[0] | ((uint64_t)p[n / 2] << 8) |
           ((uint64_t)p[n - 1] << 16);
  }
  return 0;
}

static uint64_t hash_bytes(const void* p, size_t n, uint64_t h) {
  const unsigned char* s = (const unsigned char*)p;
  uint64_t w;
  h = hcombine(h, (uint64_t)n);
  while (n >= 8) {
    memcpy(&w, s, 8);
    h = (h ^ w) * TFE_HK;
    h ^= h >> 29;
    s += 8;
    n -= 8;
  }
  if (n > 0) {
    h = (h ^ load_tail(s, n)) * TFE_HK;
    h ^= h >> 29;
  }
  return h;
}

static uint64_t hash_shape(const tfe_shape* s, uint64_t h) {
  h = hcombine(h, (uint64_t)(int64_t)s->num_dims);
  if (s->num_dims > 0) {
    h = hash_bytes(s->dims, sizeof(int64_t) * (size_t)s->num_dims, h);
  }
  return h;
}

/* Tensors hash by dtype, shape and a bounded sample of their bytes (equal
 * tensors always hash equal; big constants stay cheap to hash). */
static uint64_t hash_tensor(const TF_Tensor* t, uint64_t h) {
  size_t n;
  const unsigned char* d;
  if (t == NULL) return hcombine(h, 0);
  h = hcombine(h, (uint64_t)t->dtype);
  h = hash_bytes(t->dims, sizeof(int64_t) * (size_t)t->num_dims, h);
  if (t->dtype == TF_STRING) {
    int64_t count = TF_TensorElementCount(t), i;
    const TF_TString* s = (const TF_TString*)TF_TensorData(t);
    if (count < 0 || s == NULL ||
        (size_t)count * sizeof(TF_TString) > TF_TensorByteSize(t)) {
      return h;
    }
    for (i = 0; i < count && i < 16; i++) {
      size_t len = TF_StringGetSize(&s[i]);
      h = hash_bytes(TF_StringGetDataPointer(&s[i]), len < 256 ? len : 256, h);
    }
    return h;
  }
  n = TF_TensorByteSize(t);
  d = (const unsigned char*)TF_TensorData(t);
  if (d == NULL || n == 0) return h;
  if (n <= 512) return hash_bytes(d, n, h);
  h = hash_bytes(d, 256, h);
  return hash_bytes(d + n - 256, 256, h);
}

uint64_t tfe_attr_value_hash(const tfe_attr_value* v) {
  uint64_t h = 0x51ED270B27A1F4CDULL;
  int i, n;
  if (v == NULL) return 0;
  /* Fast path for the scalars that make up most kernel-cache keys. */
  if (!v->is_list) {
    uint64_t x;
    switch (v->type) {
      case TF_ATTR_INT: x = (uint64_t)v->v.i; break;
      case TF_ATTR_BOOL: x = v->v.b; break;
      case TF_ATTR_TYPE: x = (uint64_t)v->v.type; break;
      case TF_ATTR_FLOAT: {
        uint32_t bits;
        memcpy(&bits, &v->v.f, sizeof bits);
        x = bits;
        break;
      }
      default: goto general;
    }
    return mix64((x ^ h) + ((uint64_t)v->type << 57));
  }
general:
  h = hcombine(h, (uint64_t)v->is_list);
  if (v->is_list) {
    n = v->list_size;
    h = hcombine(h, (uint64_t)n);
    if (n == 0) return mix64(h); /* element type does not matter */
    h = hcombine(h, (uint64_t)v->type);
    switch (v->type) {
      case TF_ATTR_INT:
        return mix64(hash_bytes(v->list.i, sizeof(int64_t) * (size_t)n, h));
      case TF_ATTR_FLOAT:
        return mix64(hash_bytes(v->list.f, sizeof(float) * (size_t)n, h));
      case TF_ATTR_BOOL:
        return mix64(hash_bytes(v->list.b, (size_t)n, h));
      case TF_ATTR_TYPE:
        return mix64(
            hash_bytes(v->list.type, sizeof(TF_DataType) * (size_t)n, h));
      case TF_ATTR_STRING:
      case TF_ATTR_FUNC:
        for (i = 0; i < n; i++) {
          h = hash_bytes(v->list.s.data[i], v->list.s.len[i], h);
        }
        return mix64(h);
      case TF_ATTR_SHAPE:
        for (i = 0; i < n; i++) h = hash_shape(&v->list.shape[i], h);
        return mix64(h);
      case TF_ATTR_TENSOR:
        for (i = 0; i < n; i++) h = hash_tensor(v->list.tensor[i], h);
        return mix64(h);
      default:
        return mix64(h);
    }
  }
  h = hcombine(h, (uint64_t)v->type);
  switch (v->type) {
    case TF_ATTR_INT: return mix64(hcombine(h, (uint64_t)v->v.i));
    case TF_ATTR_FLOAT: {
      uint32_t bits;
      memcpy(&bits, &v->v.f, sizeof bits);
      return mix64(hcombine(h, bits));
    }
    case TF_ATTR_BOOL: return mix64(hcombine(h, v->v.b));
    case TF_ATTR_TYPE: return mix64(hcombine(h, (uint64_t)v->v.type));
    case TF_ATTR_STRING:
    case TF_ATTR_PLACEHOLDER:
    case TF_ATTR_FUNC:
      return mix64(hash_bytes(v->v.s.data, v->v.s.len, h));
    case TF_ATTR_SHAPE: return mix64(hash_shape(&v->v.shape, h));
    case TF_ATTR_TENSOR: return mix64(hash_tensor(v->v.tensor, h));
    default: return mix64(h);
  }
}

/* ---- rendering ---- */

void tfe_float_to_text(float f, char* buf, size_t cap) {
  if (isnan(f)) {
    snprintf(buf, cap, "nan");
    return;
  }
  if (isinf(f)) {
    snprintf(buf, cap, f < 0 ? "-inf" : "inf");
    return;
  }
  snprintf(buf, cap, "%.6g", (double)f);
  if (strtof(buf, NULL) != f) snprintf(buf, cap, "%.9g", (double)f);
}

void tfe_c_escape(const char* s, size_t n, tfe_strbuf* b) {
  size_t i;
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
      case '\n': tfe_sb_puts(b, "\\n"); break;
      case '\r': tfe_sb_puts(b, "\\r"); break;
      case '\t': tfe_sb_puts(b, "\\t"); break;
      case '\"': tfe_sb_puts(b, "\\\""); break;
      case '\'': tfe_sb_puts(b, "\\'"); break;
      case '\\': tfe_sb_puts(b, "\\\\"); break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          tfe_sb_printf(b, "\\%03o", (unsigned)c);
        } else {
          tfe_sb_putc(b, (char)c);
        }
    }
  }
}

/* SummarizeString: quoted and escaped; long strings keep 10 characters on
 * each side of "...". */
static void summarize_string(const char* s, size_t n, tfe_strbuf* b) {
  tfe_strbuf e;
  tfe_sb_init(&e);
  tfe_c_escape(s, n, &e);
  if (e.oom) {
    b->oom = 1;
    tfe_sb_free(&e);
    return;
  }
  tfe_sb_putc(b, '"');
  if (e.len >= 80) {
    tfe_sb_putn(b, e.data, 10);
    tfe_sb_puts(b, "...");
    tfe_sb_putn(b, e.data + e.len - 10, 10);
  } else {
    tfe_sb_putn(b, tfe_sb_str(&e), e.len);
  }
  tfe_sb_putc(b, '"');
  tfe_sb_free(&e);
}

static void summarize_shape(const tfe_shape* s, tfe_strbuf* b) {
  int i;
  if (s->num_dims < 0) {
    tfe_sb_puts(b, "<unknown>");
    return;
  }
  tfe_sb_putc(b, '[');
  for (i = 0; i < s->num_dims; i++) {
    if (i > 0) tfe_sb_putc(b, ',');
    if (s->dims[i] < 0) {
      tfe_sb_putc(b, '?');
    } else {
      tfe_sb_printf(b, "%lld", (long long)s->dims[i]);
    }
  }
  tfe_sb_putc(b, ']');
}

static void summarize_tensor_value(const TF_Tensor* t, int64_t i,
                                   tfe_strbuf* b) {
  const void* d = TF_TensorData(t);
  char fbuf[40];
  switch ((int)t->dtype) {
    case TF_FLOAT:
      tfe_float_to_text(((const float*)d)[i], fbuf, sizeof fbuf);
      tfe_sb_puts(b, fbuf);
      break;
    case TF_DOUBLE: tfe_sb_printf(b, "%.17g", ((const double*)d)[i]); break;
    case TF_INT32: tfe_sb_printf(b, "%d", (int)((const int32_t*)d)[i]); break;
    case TF_INT64:
      tfe_sb_printf(b, "%lld", (long long)((const int64_t*)d)[i]);
      break;
    case TF_INT16: tfe_sb_printf(b, "%d", (int)((const int16_t*)d)[i]); break;
    case TF_INT8: tfe_sb_printf(b, "%d", (int)((const int8_t*)d)[i]); break;
    case TF_UINT8:
      tfe_sb_printf(b, "%u", (unsigned)((const uint8_t*)d)[i]);
      break;
    case TF_UINT16:
      tfe_sb_printf(b, "%u", (unsigned)((const uint16_t*)d)[i]);
      break;
    case TF_UINT32:
      tfe_sb_printf(b, "%lu", (unsigned long)((const uint32_t*)d)[i]);
      break;
    case TF_UINT64:
      tfe_sb_printf(b, "%llu", (unsigned long long)((const uint64_t*)d)[i]);
      break;
    case TF_BOOL:
      tfe_sb_puts(b, ((const unsigned char*)d)[i] ? "1" : "0");
      break;
    case TF_STRING: {
      const TF_TString* s = (const TF_TString*)d + i;
      summarize_string(TF_StringGetDataPointer(s), TF_StringGetSize(s), b);
      break;
    }
    default: tfe_sb_putc(b, '?'); break;
  }
}

/* Tensor<type: int32 shape: [2,2] values: 9 8 7...> */
static void summarize_tensor(const TF_Tensor* t, tfe_strbuf* b) {
  tfe_shape s;
  int64_t n, i, elem_size;
  const char* tn;
  if (t == NULL) {
    tfe_sb_puts(b, "<null tensor>");
    return;
  }
  tn = tfe_dtype_short_name(t->dtype);
  tfe_sb_printf(b, "Tensor<type: %s shape: ", tn ? tn : "INVALID");
  s.num_dims = t->num_dims;
  s.dims = t->dims;
  summarize_shape(&s, b);
  tfe_sb_puts(b, " values:");
  n = TF_TensorElementCount(t);
  elem_size = t->dtype == TF_STRING ? (int64_t)sizeof(TF_TString)
                                    : (int64_t)TF_DataTypeSize(t->dtype);
  if (n > 0 && elem_size > 0 && TF_TensorData(t) != NULL &&
      (uint64_t)n <= TF_TensorByteSize(t) / (uint64_t)elem_size) {
    for (i = 0; i < n && i < 3; i++) {
      tfe_sb_putc(b, ' ');
      summarize_tensor_value(t, i, b);
    }
    if (n > 3) tfe_sb_puts(b, "...");
  }
  tfe_sb_putc(b, '>');
}

static void summarize_elem(const tfe_attr_value* v, int i, tfe_strbuf* b) {
  char fbuf[40];
  switch (v->type) {
    case TF_ATTR_INT: tfe_sb_printf(b, "%lld", (long long)v->list.i[i]); break;
    case TF_ATTR_FLOAT:
      tfe_float_to_text(v->list.f[i], fbuf, sizeof fbuf);
      tfe_sb_puts(b, fbuf);
      break;
    case TF_ATTR_BOOL: tfe_sb_puts(b, v->list.b[i] ? "true" : "false"); break;
    case TF_ATTR_TYPE:
      tfe_sb_puts(b, tfe_dtype_enum_name(v->list.type[i]));
      break;
    case TF_ATTR_STRING:
      summarize_string(v->list.s.data[i], v->list.s.len[i], b);
      break;
    case TF_ATTR_FUNC:
      tfe_sb_putn(b, v->list.s.data[i], v->list.s.len[i]);
      tfe_sb_puts(b, "[]");
      break;
    case TF_ATTR_SHAPE: summarize_shape(&v->list.shape[i], b); break;
    case TF_ATTR_TENSOR: summarize_tensor(v->list.tensor[i], b); break;
    default: tfe_sb_putc(b, '?'); break;
  }
}

void tfe_attr_value_summarize(const tfe_attr_value* v, tfe_strbuf* b) {
  char fbuf[40];
  int i, n;
  if (v == NULL) {
    tfe_sb_puts(b, "<Unknown AttrValue type>");
    return;
  }
  if (v->is_list) {
    n = v->list_size;
    tfe_sb_putc(b, '[');
    if (n >= 30) {
      /* TF keeps the first five and the last six, plus a fingerprint. */
      for (i = 0; i < 5; i++) {
        if (i > 0) tfe_sb_puts(b, ", ");
        summarize_elem(v, i, b);
      }
      tfe_sb_puts(b, ", ...");
      for (i = n - 6; i < n; i++) {
        tfe_sb_puts(b, ", ");
        summarize_elem(v, i, b);
      }
      tfe_sb_printf(b, "]{attr_hash=%llu}",
                    (unsigned long long)tfe_attr_value_hash(v));
      return;
    }
    for (i = 0; i < n; i++) {
      if (i > 0) tfe_sb_puts(b, ", ");
      summarize_elem(v, i, b);
    }
    tfe_sb_putc(b, ']');
    return;
  }
  switch (v->type) {
    case TF_ATTR_INT: tfe_sb_printf(b, "%lld", (long long)v->v.i); break;
    case TF_ATTR_FLOAT:
      tfe_float_to_text(v->v.f, fbuf, sizeof fbuf);
      tfe_sb_puts(b, fbuf);
      break;
    case TF_ATTR_BOOL: tfe_sb_puts(b, v->v.b ? "true" : "false"); break;
    case TF_ATTR_TYPE: tfe_sb_puts(b, tfe_dtype_enum_name(v->v.type)); break;
    case TF_ATTR_STRING: summarize_string(v->v.s.data, v->v.s.len, b); break;
    case TF_ATTR_PLACEHOLDER: /* TF shows "$name" */
      tfe_sb_putc(b, '$');
      tfe_sb_putn(b, v->v.s.data, v->v.s.len);
      break;
    case TF_ATTR_FUNC:
      tfe_sb_putn(b, v->v.s.data, v->v.s.len);
      tfe_sb_puts(b, "[]");
      break;
    case TF_ATTR_SHAPE: summarize_shape(&v->v.shape, b); break;
    case TF_ATTR_TENSOR: summarize_tensor(v->v.tensor, b); break;
    default: tfe_sb_puts(b, "<Unknown AttrValue type>"); break;
  }
}

void tfe_attr_value_format(const tfe_attr_value* v, char* buf, size_t cap) {
  tfe_strbuf b;
  size_t start, room;
  if (buf == NULL || cap == 0) return;
  start = strnlen(buf, cap);
  if (start >= cap) start = 0; /* not a string: overwrite from the start */
  tfe_sb_init(&b);
  tfe_attr_value_summarize(v, &b);
  room = cap - start - 1;
  if (b.oom) {
    buf[start] = '\0';
  } else {
    size_t n = b.len < room ? b.len : room;
    if (n > 0) memcpy(buf + start, b.data, n);
    buf[start + n] = '\0';
  }
  tfe_sb_free(&b);
}

/* ======================================================================
 * named attr sets
 * ====================================================================== */

void tfe_attrs_init(tfe_attrs* a) {
  a->count = 0;
  a->cap = 0;
  a->items = NULL;
  a->items_borrowed = 0;
}

void tfe_attrs_clear(tfe_attrs* a) {
  int i;
  if (a == NULL) return;
  for (i = 0; i < a->count; i++) {
    if (!a->items[i].name_static) tfe_free(a->items[i].name);
    tfe_attr_value_clear(&a->items[i].value);
  }
  a->count = 0;
}

void tfe_attrs_destroy(tfe_attrs* a) {
  if (a == NULL) return;
  tfe_attrs_clear(a);
  if (!a->items_borrowed) tfe_free(a->items);
  tfe_attrs_init(a);
}

/* Attr names are short (most are "T"): compare them inline rather than
 * through a strcmp call per entry. */
static int attr_name_eq(const char* x, const char* y) {
  while (*x != '\0' && *x == *y) {
    x++;
    y++;
  }
  return *x == *y;
}

static tfe_attr_entry* attrs_find_entry(const tfe_attrs* a, const char* name) {
  int i;
  for (i = 0; i < a->count; i++) {
    const char* n = a->items[i].name;
    if (n[0] == name[0] && attr_name_eq(n, name)) return &a->items[i];
  }
  return NULL;
}

const tfe_attr_value* tfe_attrs_find(const tfe_attrs* a, const char* name) {
  tfe_attr_entry* e;
  if (a == NULL || name == NULL) return NULL;
  e = attrs_find_entry(a, name);
  return e ? &e->value : NULL;
}

static int attrs_put(tfe_attrs* a, const char* name, tfe_attr_value* value,
                     int borrow) {
  tfe_attr_entry* e;
  char* n;
  if (a == NULL || name == NULL || value == NULL) {
    if (value != NULL) tfe_attr_value_clear(value);
    return 0;
  }
  e = attrs_find_entry(a, name);
  if (e != NULL) {
    tfe_attr_value_clear(&e->value);
    e->value = *value;
    memset(value, 0, sizeof(*value));
    return 1;
  }
  if (a->count >= a->cap || a->items_borrowed) {
    int cap = a->cap > a->count ? a->cap : (a->count ? a->count * 2 : 4);
    tfe_attr_entry* items;
    if (a->items_borrowed) {
      items = (tfe_attr_entry*)tfe_malloc(sizeof(tfe_attr_entry) *
                                          (size_t)cap);
      if (items != NULL && a->count > 0) {
        memcpy(items, a->items, sizeof(tfe_attr_entry) * (size_t)a->count);
      }
    } else {
      items = (tfe_attr_entry*)tfe_realloc(
          a->items, sizeof(tfe_attr_entry) * (size_t)cap);
    }
    if (items == NULL) {
      tfe_attr_value_clear(value);
      return 0;
    }
    a->items = items;
    a->cap = cap;
    a->items_borrowed = 0;
  }
  if (borrow) {
    n = (char*)name;
  } else {
    n = tfe_strdup(name);
    if (n == NULL) {
      tfe_attr_value_clear(value);
      return 0;
    }
  }
  e = &a->items[a->count++];
  e->name = n;
  e->value = *value;
  e->name_static = borrow;
  memset(value, 0, sizeof(*value));
  return 1;
}

int tfe_attrs_put(tfe_attrs* a, const char* name, tfe_attr_value* value) {
  return attrs_put(a, name, value, 0);
}

int tfe_attrs_put_static(tfe_attrs* a, const char* name,
                         tfe_attr_value* value) {
  return attrs_put(a, name, value, 1);
}

int tfe_attrs_merge(tfe_attrs* dst, const tfe_attrs* src) {
  int i;
  if (dst == NULL) return 0;
  if (src == NULL || src == dst) return 1;
  for (i = 0; i < src->count; i++) {
    tfe_attr_value v;
    if (!tfe_attr_value_copy(&v, &src->items[i].value)) return 0;
    if (!tfe_attrs_put(dst, src->items[i].name, &v)) return 0;
  }
  return 1;
}

/* Attr names are short: hash them a word at a time. */
static uint64_t hash_name(const char* s) {
  uint64_t h = 0x2545F4914F6CDD1DULL, w;
  size_t n = strlen(s);
  while (n >= 8) {
    memcpy(&w, s, 8);
    h = (h ^ w) * TFE_HK;
    s += 8;
    n -= 8;
  }
  w = load_tail((const unsigned char*)s, n);
  return (h ^ w ^ ((uint64_t)n << 59)) * TFE_HK;
}

uint64_t tfe_attrs_hash(const tfe_attrs* a) {
  uint64_t h = 0;
  int i;
  if (a == NULL) return 0;
  /* A commutative sum of per-entry hashes: order does not matter. */
  for (i = 0; i < a->count; i++) {
    uint64_t e = hash_name(a->items[i].name) ^
                 tfe_attr_value_hash(&a->items[i].value);
    h += e ^ (e >> 31);
  }
  return mix64(h + (uint64_t)a->count);
}

int tfe_attrs_equal(const tfe_attrs* a, const tfe_attrs* b) {
  int i;
  if (a == b) return 1;
  if (a == NULL || b == NULL) return 0;
  if (a->count != b->count) return 0;
  for (i = 0; i < a->count; i++) {
    /* Fast path: the same name at the same position. */
    const tfe_attr_value* bv;
    if (strcmp(a->items[i].name, b->items[i].name) == 0) {
      bv = &b->items[i].value;
    } else {
      bv = tfe_attrs_find(b, a->items[i].name);
      if (bv == NULL) return 0;
    }
    if (!tfe_attr_value_equal(&a->items[i].value, bv)) return 0;
  }
  return 1;
}

/* ---- typed getters ---- */

static const tfe_attr_value* get_typed(const tfe_attrs* a, const char* name,
                                       TF_AttrType type, int is_list,
                                       TF_Status* status) {
  const tfe_attr_value* v = tfe_attrs_find(a, name);
  if (v == NULL) {
    if (status != NULL) {
      tfe_status_setf(status, TF_NOT_FOUND, "No attr named '%s' in NodeDef:",
                      name ? name : "(null)");
    }
    return NULL;
  }
  /* An empty list is acceptable as any list kind. */
  if (v->is_list != is_list ||
      (v->type != type && !(is_list && v->list_size == 0))) {
    if (status != NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "AttrValue had value with type '%s' when '%s' expected\n"
                      "\t for attr '%s'",
                      tfe_attr_kind_name(v->type, v->is_list),
                      tfe_attr_kind_name(type, is_list), name);
    }
    return NULL;
  }
  return v;
}

int tfe_attrs_get_int(const tfe_attrs* a, const char* name, int64_t* out,
                      TF_Status* status) {
  const tfe_attr_value* v = get_typed(a, name, TF_ATTR_INT, 0, status);
  if (v == NULL) return 0;
  if (out) *out = v->v.i;
  return 1;
}

int tfe_attrs_get_float(const tfe_attrs* a, const char* name, float* out,
                        TF_Status* status) {
  const tfe_attr_value* v = get_typed(a, name, TF_ATTR_FLOAT, 0, status);
  if (v == NULL) return 0;
  if (out) *out = v->v.f;
  return 1;
}

int tfe_attrs_get_bool(const tfe_attrs* a, const char* name, int* out,
                       TF_Status* status) {
  const tfe_attr_value* v = get_typed(a, name, TF_ATTR_BOOL, 0, status);
  if (v == NULL) return 0;
  if (out) *out = v->v.b ? 1 : 0;
  return 1;
}

int tfe_attrs_get_type(const tfe_attrs* a, const char* name, TF_DataType* out,
                       TF_Status* status) {
  const tfe_attr_value* v = get_typed(a, name, TF_ATTR_TYPE, 0, status);
  if (v == NULL) return 0;
  if (out) *out = v->v.type;
  return 1;
}

int tfe_attrs_get_string(const tfe_attrs* a, const char* name,
                         const char** out, size_t* len, TF_Status* status) {
  const tfe_attr_value* v = get_typed(a, name, TF_ATTR_STRING, 0, status);
  if (v == NULL) return 0;
  if (out) *out = v->v.s.data;
  if (len) *len = v->v.s.len;
  return 1;
}

int tfe_attrs_get_int_list(const tfe_attrs* a, const char* name,
                           const int64_t** out, int* n, TF_Status* status) {
  const tfe_attr_value* v = get_typed(a, name, TF_ATTR_INT, 1, status);
  if (v == NULL) return 0;
  if (out) *out = v->list_size > 0 ? v->list.i : NULL;
  if (n) *n = v->list_size;
  return 1;
}

int tfe_attrs_get_type_list(const tfe_attrs* a, const char* name,
                            const TF_DataType** out, int* n,
                            TF_Status* status) {
  const tfe_attr_value* v = get_typed(a, name, TF_ATTR_TYPE, 1, status);
  if (v == NULL) return 0;
  if (out) *out = v->list_size > 0 ? v->list.type : NULL;
  if (n) *n = v->list_size;
  return 1;
}

int tfe_attrs_get_shape(const tfe_attrs* a, const char* name,
                        const tfe_shape** out, TF_Status* status) {
  const tfe_attr_value* v = get_typed(a, name, TF_ATTR_SHAPE, 0, status);
  if (v == NULL) return 0;
  if (out) *out = &v->v.shape;
  return 1;
}
