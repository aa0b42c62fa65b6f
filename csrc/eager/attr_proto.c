/* A minimal hand-written codec for the protobuf messages the attribute API
 * exchanges: tensorflow.AttrValue, AttrValue.ListValue, NameAttrList,
 * TensorShapeProto and the parts of TensorProto that carry a host tensor
 * (dtype, shape, tensor_content or string_val on output; also the typed
 * *_val fields on input).
 *
 * Field numbers (from the .proto files of tensorflow/core/framework):
 *   AttrValue:   list 1, s 2, i 3, f 4, b 5, type 6, shape 7, tensor 8,
 *                placeholder 9, func 10
 *   ListValue:   s 2, i 3 (packed), f 4 (packed), b 5 (packed),
 *                type 6 (packed), shape 7, tensor 8, func 9
 *   NameAttrList: name 1, attr 2 (map entry: key 1, value 2)
 *   TensorShapeProto: dim 2 (Dim: size 1, name 2), unknown_rank 3
 *   TensorProto: dtype 1, tensor_shape 2, tensor_content 4, float_val 5,
 *                double_val 6, int_val 7, string_val 8, int64_val 10,
 *                bool_val 11 */
#include <string.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "eager/eager_internal.h"
#include "tensorflow/c/tf_tstring.h"

/* ======================================================================
 * Writer (core/pb.h). */

static void enc_shape(tfe_pbw* out, const tfe_shape* s) {
  int i;
  if (s->num_dims < 0) {
    tfe_pbw_tag(out, 3, 0);
    tfe_pbw_varint(out, 1);
    return;
  }
  for (i = 0; i < s->num_dims; i++) {
    tfe_pbw dim = {0};
    tfe_pbw_tag(&dim, 1, 0);
    tfe_pbw_varint(&dim, (uint64_t)s->dims[i]);
    tfe_pbw_sub(out, 2, &dim);
  }
}

static void enc_tensor(tfe_pbw* out, const TF_Tensor* t) {
  tfe_pbw shape = {0};
  int i;
  int64_t n = tfe_shape_num_elements(t->dims, t->num_dims);
  tfe_pbw_tag(out, 1, 0);
  tfe_pbw_varint(out, (uint64_t)t->dtype);
  for (i = 0; i < t->num_dims; i++) {
    tfe_pbw dim = {0};
    tfe_pbw_tag(&dim, 1, 0);
    tfe_pbw_varint(&dim, (uint64_t)t->dims[i]);
    tfe_pbw_sub(&shape, 2, &dim);
  }
  tfe_pbw_sub(out, 2, &shape);
  if (t->buf == NULL || n <= 0) return;
  if (t->dtype == TF_STRING) {
    const TF_TString* s = (const TF_TString*)t->buf->data;
    int64_t k;
    for (k = 0; k < n; k++) {
      tfe_pbw_lenfield(out, 8, TF_StringGetDataPointer(&s[k]),
                  TF_StringGetSize(&s[k]));
    }
  } else {
    size_t bytes = (size_t)n * TF_DataTypeSize(t->dtype);
    if (bytes > t->buf->len) bytes = t->buf->len;
    tfe_pbw_lenfield(out, 4, t->buf->data, bytes);
  }
}

static void enc_func(tfe_pbw* out, const char* name, size_t len) {
  tfe_pbw_lenfield(out, 1, name, len);
}

static void enc_list(tfe_pbw* out, const tfe_attr_value* v) {
  int i, n = v->list_size;
  tfe_pbw packed = {0};
  switch (v->type) {
    case TF_ATTR_STRING:
      for (i = 0; i < n; i++) tfe_pbw_lenfield(out, 2, v->list.s.data[i], v->list.s.len[i]);
      break;
    case TF_ATTR_FUNC:
      for (i = 0; i < n; i++) {
        tfe_pbw f = {0};
        enc_func(&f, v->list.s.data[i], v->list.s.len[i]);
        tfe_pbw_sub(out, 9, &f);
      }
      break;
    case TF_ATTR_INT:
      for (i = 0; i < n; i++) tfe_pbw_varint(&packed, (uint64_t)v->list.i[i]);
      if (n > 0) tfe_pbw_sub(out, 3, &packed);
      break;
    case TF_ATTR_FLOAT:
      for (i = 0; i < n; i++) tfe_pbw_fixed32(&packed, v->list.f[i]);
      if (n > 0) tfe_pbw_sub(out, 4, &packed);
      break;
    case TF_ATTR_BOOL:
      for (i = 0; i < n; i++) tfe_pbw_varint(&packed, v->list.b[i] ? 1 : 0);
      if (n > 0) tfe_pbw_sub(out, 5, &packed);
      break;
    case TF_ATTR_TYPE:
      for (i = 0; i < n; i++) tfe_pbw_varint(&packed, (uint64_t)v->list.type[i]);
      if (n > 0) tfe_pbw_sub(out, 6, &packed);
      break;
    case TF_ATTR_SHAPE:
      for (i = 0; i < n; i++) {
        tfe_pbw s = {0};
        enc_shape(&s, &v->list.shape[i]);
        tfe_pbw_sub(out, 7, &s);
      }
      break;
    case TF_ATTR_TENSOR:
      for (i = 0; i < n; i++) {
        tfe_pbw t = {0};
        enc_tensor(&t, v->list.tensor[i]);
        tfe_pbw_sub(out, 8, &t);
      }
      break;
    default:
      break;
  }
  tfe_free(packed.data);
}

static void enc_attr_value(tfe_pbw* out, const tfe_attr_value* v) {
  tfe_pbw sub = {0};
  if (v->is_list) {
    enc_list(&sub, v);
    tfe_pbw_sub(out, 1, &sub);
    return;
  }
  switch (v->type) {
    case TF_ATTR_STRING:
      tfe_pbw_lenfield(out, 2, v->v.s.data, v->v.s.len);
      break;
    case TF_ATTR_INT:
      tfe_pbw_tag(out, 3, 0);
      tfe_pbw_varint(out, (uint64_t)v->v.i);
      break;
    case TF_ATTR_FLOAT:
      tfe_pbw_tag(out, 4, 5);
      tfe_pbw_fixed32(out, v->v.f);
      break;
    case TF_ATTR_BOOL:
      tfe_pbw_tag(out, 5, 0);
      tfe_pbw_varint(out, v->v.b ? 1 : 0);
      break;
    case TF_ATTR_TYPE:
      tfe_pbw_tag(out, 6, 0);
      tfe_pbw_varint(out, (uint64_t)v->v.type);
      break;
    case TF_ATTR_SHAPE:
      enc_shape(&sub, &v->v.shape);
      tfe_pbw_sub(out, 7, &sub);
      break;
    case TF_ATTR_TENSOR:
      if (v->v.tensor != NULL) enc_tensor(&sub, v->v.tensor);
      tfe_pbw_sub(out, 8, &sub);
      break;
    case TF_ATTR_PLACEHOLDER:
      tfe_pbw_lenfield(out, 9, v->v.s.data, v->v.s.len);
      break;
    case TF_ATTR_FUNC:
      enc_func(&sub, v->v.s.data, v->v.s.len);
      tfe_pbw_sub(out, 10, &sub);
      break;
    default:
      break;
  }
}

void* tfe_attr_proto_encode_name_attr_list(const char* name,
                                           const tfe_attrs* const* sets,
                                           int num_sets, size_t* len) {
  tfe_pbw out = {0};
  int s, i;
  tfe_pbw_lenfield(&out, 1, name, strlen(name));
  for (s = 0; s < num_sets; s++) {
    for (i = 0; i < sets[s]->count; i++) {
      const tfe_attr_entry* e = &sets[s]->items[i];
      tfe_pbw entry = {0}, value = {0};
      tfe_pbw_lenfield(&entry, 1, e->name, strlen(e->name));
      enc_attr_value(&value, &e->value);
      tfe_pbw_sub(&entry, 2, &value);
      tfe_pbw_sub(&out, 2, &entry);
    }
  }
  tfe_pbw_reserve(&out, 1); /* never return NULL for an empty message */
  if (out.oom) {
    tfe_free(out.data);
    return NULL;
  }
  *len = out.len;
  return out.data;
}

/* ======================================================================
 * Reader (core/pb.h). */

/* Growable arrays used while decoding lists. */
typedef struct vec {
  void* data;
  int n, cap;
  size_t esz;
} vec;

static int vec_push(vec* v, const void* item) {
  if (v->n == v->cap) {
    int cap = v->cap ? v->cap * 2 : 8;
    void* p = tfe_realloc(v->data, v->esz * (size_t)cap);
    if (p == NULL) return 0;
    v->data = p;
    v->cap = cap;
  }
  memcpy((char*)v->data + v->esz * (size_t)v->n, item, v->esz);
  v->n++;
  return 1;
}

static int dec_shape(tfe_pbr* r, int64_t** dims, int* num_dims) {
  vec d = {NULL, 0, 0, sizeof(int64_t)};
  int unknown = 0, f, w;
  while (r->p < r->end) {
    if (!tfe_pbr_tag(r, &f, &w)) goto bad;
    if (f == 2 && w == 2) {
      tfe_pbr dim;
      int64_t size = 0;
      if (!tfe_pbr_len(r, &dim)) goto bad;
      while (dim.p < dim.end) {
        int df, dw;
        uint64_t u;
        if (!tfe_pbr_tag(&dim, &df, &dw)) goto bad;
        if (df == 1 && dw == 0) {
          if (!tfe_pbr_varint(&dim, &u)) goto bad;
          size = (int64_t)u;
        } else if (!tfe_pbr_skip(&dim, df, dw)) {
          goto bad;
        }
      }
      if (d.n >= TFE_MAX_DIMS || !vec_push(&d, &size)) goto bad;
    } else if (f == 3 && w == 0) {
      uint64_t u;
      if (!tfe_pbr_varint(r, &u)) goto bad;
      unknown = u != 0;
    } else if (!tfe_pbr_skip(r, f, w)) {
      goto bad;
    }
  }
  if (unknown) {
    tfe_free(d.data);
    *dims = NULL;
    *num_dims = -1;
    return 1;
  }
  *dims = (int64_t*)d.data;
  *num_dims = d.n;
  return 1;
bad:
  tfe_free(d.data);
  return 0;
}

/* Decodes a TensorProto into a new host tensor (NULL when malformed). */
static TF_Tensor* dec_tensor(tfe_pbr* r) {
  uint64_t dtype = 0;
  int64_t* dims = NULL;
  int nd = 0, f, w;
  tfe_pbr content = {NULL, NULL};
  int has_content = 0;
  vec vals = {NULL, 0, 0, 8};
  vec strs = {NULL, 0, 0, sizeof(tfe_pbr)};
  TF_Tensor* t = NULL;
  int64_t n, k;
  size_t esz;
  while (r->p < r->end) {
    if (!tfe_pbr_tag(r, &f, &w)) goto done;
    if (f == 1 && w == 0) {
      if (!tfe_pbr_varint(r, &dtype)) goto done;
    } else if (f == 2 && w == 2) {
      tfe_pbr s;
      tfe_free(dims);
      dims = NULL;
      if (!tfe_pbr_len(r, &s) || !dec_shape(&s, &dims, &nd) || nd < 0) goto done;
    } else if (f == 4 && w == 2) {
      if (!tfe_pbr_len(r, &content)) goto done;
      has_content = 1;
    } else if (f == 8 && w == 2) {
      tfe_pbr s;
      if (!tfe_pbr_len(r, &s) || !vec_push(&strs, &s)) goto done;
    } else if (f == 5 || f == 6 || f == 7 || f == 10 || f == 11) {
      /* Typed values, packed or not; kept as doubles / int64 bits. */
      tfe_pbr s, *src = r;
      int packed = w == 2;
      if (packed) {
        if (!tfe_pbr_len(r, &s)) goto done;
        src = &s;
      }
      do {
        union { double d; int64_t i; } u;
        if (f == 5) {
          float x;
          if ((!packed && w != 5) || !tfe_pbr_fixed32(src, &x)) goto done;
          u.d = x;
        } else if (f == 6) {
          uint64_t bits = 0;
          int b;
          if ((!packed && w != 1) || src->end - src->p < 8) goto done;
          for (b = 0; b < 8; b++) bits |= (uint64_t)src->p[b] << (8 * b);
          src->p += 8;
          memcpy(&u.d, &bits, 8);
        } else {
          uint64_t x;
          if ((!packed && w != 0) || !tfe_pbr_varint(src, &x)) goto done;
          u.i = (int64_t)x;
        }
        if (!vec_push(&vals, &u)) goto done;
      } while (packed && src->p < src->end);
    } else if (!tfe_pbr_skip(r, f, w)) {
      goto done;
    }
  }
  n = tfe_shape_num_elements(dims, nd);
  if (n < 0) goto done;
  if (dtype == TF_STRING) {
    t = TF_AllocateTensor(TF_STRING, dims, nd, (size_t)n * sizeof(TF_TString));
    if (t == NULL) goto done;
    for (k = 0; k < n; k++) {
      TF_TString* dst = &((TF_TString*)t->buf->data)[k];
      if (strs.n == 0) break;
      {
        const tfe_pbr* s = &((tfe_pbr*)strs.data)[k < strs.n ? k : strs.n - 1];
        TF_StringCopy(dst, (const char*)s->p, (size_t)(s->end - s->p));
      }
    }
    goto done;
  }
  esz = TF_DataTypeSize((TF_DataType)dtype);
  if (esz == 0) goto done;
  t = TF_AllocateTensor((TF_DataType)dtype, dims, nd, (size_t)n * esz);
  if (t == NULL) goto done;
  if (has_content) {
    if ((size_t)(content.end - content.p) != (size_t)n * esz) {
      TF_DeleteTensor(t);
      t = NULL;
      goto done;
    }
    if (n > 0) memcpy(t->buf->data, content.p, (size_t)n * esz);
  } else {
    for (k = 0; k < n; k++) {
      union { double d; int64_t i; } u;
      char* dst = (char*)t->buf->data + (size_t)k * esz;
      if (vals.n == 0) {
        memset(dst, 0, esz);
        continue;
      }
      memcpy(&u, (char*)vals.data + 8 * (size_t)(k < vals.n ? k : vals.n - 1), 8);
      switch ((TF_DataType)dtype) {
        case TF_FLOAT: { float x = (float)u.d; memcpy(dst, &x, 4); break; }
        case TF_DOUBLE: memcpy(dst, &u.d, 8); break;
        case TF_INT64: memcpy(dst, &u.i, 8); break;
        case TF_INT32: { int32_t x = (int32_t)u.i; memcpy(dst, &x, 4); break; }
        case TF_INT16: { int16_t x = (int16_t)u.i; memcpy(dst, &x, 2); break; }
        case TF_INT8: case TF_UINT8: case TF_BOOL: {
          unsigned char x = (unsigned char)u.i;
          memcpy(dst, &x, 1);
          break;
        }
        default:
          TF_DeleteTensor(t);
          t = NULL;
          goto done;
      }
    }
  }
done:
  tfe_free(dims);
  tfe_free(vals.data);
  tfe_free(strs.data);
  return t;
}

/* Decodes NameAttrList.name of a func value. */
static int dec_func_name(tfe_pbr* r, tfe_pbr* name) {
  int f, w;
  name->p = name->end = r->p;
  while (r->p < r->end) {
    if (!tfe_pbr_tag(r, &f, &w)) return 0;
    if (f == 1 && w == 2) {
      if (!tfe_pbr_len(r, name)) return 0;
    } else if (!tfe_pbr_skip(r, f, w)) {
      return 0;
    }
  }
  return 1;
}

static int dec_list(tfe_pbr* r, tfe_attr_value* out) {
  vec ints = {NULL, 0, 0, sizeof(int64_t)};
  vec floats = {NULL, 0, 0, sizeof(float)};
  vec bools = {NULL, 0, 0, 1};
  vec types = {NULL, 0, 0, sizeof(TF_DataType)};
  vec strs = {NULL, 0, 0, sizeof(tfe_pbr)};
  vec funcs = {NULL, 0, 0, sizeof(tfe_pbr)};
  vec shapes = {NULL, 0, 0, sizeof(int64_t*)};
  vec ranks = {NULL, 0, 0, sizeof(int)};
  vec tensors = {NULL, 0, 0, sizeof(TF_Tensor*)};
  int f, w, ok = 0, kinds, i;
  while (r->p < r->end) {
    if (!tfe_pbr_tag(r, &f, &w)) goto done;
    if ((f == 2 || f == 9) && w == 2) {
      tfe_pbr s;
      if (!tfe_pbr_len(r, &s)) goto done;
      if (f == 9) {
        tfe_pbr name;
        if (!dec_func_name(&s, &name) || !vec_push(&funcs, &name)) goto done;
      } else if (!vec_push(&strs, &s)) {
        goto done;
      }
    } else if (f == 3 || f == 5 || f == 6) {
      tfe_pbr s, *src = r;
      int packed = w == 2;
      if (packed) {
        if (!tfe_pbr_len(r, &s)) goto done;
        src = &s;
      } else if (w != 0) {
        goto done;
      }
      do {
        uint64_t u;
        if (!tfe_pbr_varint(src, &u)) goto done;
        if (f == 3) {
          int64_t x = (int64_t)u;
          if (!vec_push(&ints, &x)) goto done;
        } else if (f == 5) {
          unsigned char b = u != 0;
          if (!vec_push(&bools, &b)) goto done;
        } else {
          TF_DataType t = (TF_DataType)u;
          if (!vec_push(&types, &t)) goto done;
        }
      } while (packed && src->p < src->end);
    } else if (f == 4) {
      tfe_pbr s, *src = r;
      int packed = w == 2;
      if (packed) {
        if (!tfe_pbr_len(r, &s)) goto done;
        src = &s;
      } else if (w != 5) {
        goto done;
      }
      do {
        float x;
        if (!tfe_pbr_fixed32(src, &x) || !vec_push(&floats, &x)) goto done;
      } while (packed && src->p < src->end);
    } else if (f == 7 && w == 2) {
      tfe_pbr s;
      int64_t* dims = NULL;
      int nd = 0;
      if (!tfe_pbr_len(r, &s) || !dec_shape(&s, &dims, &nd)) goto done;
      if (!vec_push(&shapes, &dims)) {
        tfe_free(dims);
        goto done;
      }
      if (!vec_push(&ranks, &nd)) goto done;
    } else if (f == 8 && w == 2) {
      tfe_pbr s;
      TF_Tensor* t;
      if (!tfe_pbr_len(r, &s) || (t = dec_tensor(&s)) == NULL) goto done;
      if (!vec_push(&tensors, &t)) {
        TF_DeleteTensor(t);
        goto done;
      }
    } else if (!tfe_pbr_skip(r, f, w)) {
      goto done;
    }
  }
  kinds = (ints.n > 0) + (floats.n > 0) + (bools.n > 0) + (types.n > 0) +
          (strs.n > 0) + (funcs.n > 0) + (shapes.n > 0) + (tensors.n > 0);
  if (kinds > 1) goto done;
  if (floats.n) {
    ok = tfe_attr_value_set_float_list(out, (float*)floats.data, floats.n);
  } else if (bools.n) {
    ok = tfe_attr_value_set_bool_list(out, (unsigned char*)bools.data, bools.n);
  } else if (types.n) {
    ok = tfe_attr_value_set_type_list(out, (TF_DataType*)types.data, types.n);
  } else if (strs.n || funcs.n) {
    vec* src = strs.n ? &strs : &funcs;
    const void** ptrs = (const void**)tfe_malloc(sizeof(void*) * (size_t)src->n);
    size_t* lens = (size_t*)tfe_malloc(sizeof(size_t) * (size_t)src->n);
    if (ptrs != NULL && lens != NULL) {
      for (i = 0; i < src->n; i++) {
        tfe_pbr* s = &((tfe_pbr*)src->data)[i];
        ptrs[i] = s->p;
        lens[i] = (size_t)(s->end - s->p);
      }
      ok = tfe_attr_value_set_string_list(out, ptrs, lens, src->n);
      if (ok && funcs.n) out->type = TF_ATTR_FUNC;
    }
    tfe_free((void*)ptrs);
    tfe_free(lens);
  } else if (shapes.n) {
    ok = tfe_attr_value_set_shape_list(out, (const int64_t* const*)shapes.data,
                                       (int*)ranks.data, shapes.n);
  } else if (tensors.n) {
    ok = tfe_attr_value_set_tensor_list(out, (TF_Tensor* const*)tensors.data,
                                        tensors.n);
  } else {
    /* Ints, or an empty list (stored as an empty int list). */
    ok = tfe_attr_value_set_int_list(out, (int64_t*)ints.data, ints.n);
  }
done:
  for (i = 0; i < shapes.n; i++) tfe_free(((int64_t**)shapes.data)[i]);
  for (i = 0; i < tensors.n; i++) TF_DeleteTensor(((TF_Tensor**)tensors.data)[i]);
  tfe_free(ints.data);
  tfe_free(floats.data);
  tfe_free(bools.data);
  tfe_free(types.data);
  tfe_free(strs.data);
  tfe_free(funcs.data);
  tfe_free(shapes.data);
  tfe_free(ranks.data);
  tfe_free(tensors.data);
  return ok;
}

int tfe_attr_proto_decode(const void* data, size_t len, tfe_attr_value* out,
                          TF_Status* s) {
  tfe_pbr r;
  int f, w, have = 0, ok = 1;
  tfe_attr_value v;
  const uint64_t failures = tfe_alloc_failures();
  memset(&v, 0, sizeof(v));
  memset(out, 0, sizeof(*out));
  r.p = (const unsigned char*)data;
  /* No arithmetic on a NULL pointer (UB even when adding 0). */
  r.end = data == NULL ? r.p : r.p + len;
  while (r.p < r.end && ok) {
    tfe_pbr sub;
    uint64_t u;
    float x;
    if (!tfe_pbr_tag(&r, &f, &w)) {
      ok = 0;
      break;
    }
    int got = 1;
    tfe_attr_value tmp;
    memset(&tmp, 0, sizeof(tmp));
    /* Unsigned: field numbers go up to 2^29 - 1, so f * 8 overflows int. */
    switch ((unsigned)f * 8u + (unsigned)w) {
      case 1 * 8 + 2:
        ok = tfe_pbr_len(&r, &sub) && dec_list(&sub, &tmp);
        break;
      case 2 * 8 + 2:
        ok = tfe_pbr_len(&r, &sub) &&
             tfe_attr_value_set_string(&tmp, sub.p, (size_t)(sub.end - sub.p));
        break;
      case 3 * 8 + 0:
        ok = tfe_pbr_varint(&r, &u);
        if (ok) tfe_attr_value_set_int(&tmp, (int64_t)u);
        break;
      case 4 * 8 + 5:
        ok = tfe_pbr_fixed32(&r, &x);
        if (ok) tfe_attr_value_set_float(&tmp, x);
        break;
      case 5 * 8 + 0:
        ok = tfe_pbr_varint(&r, &u);
        if (ok) tfe_attr_value_set_bool(&tmp, u != 0);
        break;
      case 6 * 8 + 0:
        ok = tfe_pbr_varint(&r, &u);
        if (ok) tfe_attr_value_set_type(&tmp, (TF_DataType)u);
        break;
      case 7 * 8 + 2: {
        int64_t* dims = NULL;
        int nd = 0;
        ok = tfe_pbr_len(&r, &sub) && dec_shape(&sub, &dims, &nd) &&
             tfe_attr_value_set_shape(&tmp, dims, nd);
        tfe_free(dims);
        break;
      }
      case 8 * 8 + 2: {
        TF_Tensor* t;
        ok = tfe_pbr_len(&r, &sub) && (t = dec_tensor(&sub)) != NULL;
        if (ok) {
          ok = tfe_attr_value_set_tensor(&tmp, t);
          TF_DeleteTensor(t);
        }
        break;
      }
      case 9 * 8 + 2:
        ok = tfe_pbr_len(&r, &sub) &&
             tfe_attr_value_set_placeholder(&tmp, (const char*)sub.p,
                                            (size_t)(sub.end - sub.p));
        break;
      case 10 * 8 + 2: {
        tfe_pbr name;
        ok = tfe_pbr_len(&r, &sub) && dec_func_name(&sub, &name) &&
             tfe_attr_value_set_func(&tmp, (const char*)name.p,
                                     (size_t)(name.end - name.p));
        break;
      }
      default:
        got = 0;
        ok = tfe_pbr_skip(&r, f, w);
        break;
    }
    if (ok && got) {
      /* A later field of the oneof replaces an earlier one. */
      if (have) tfe_attr_value_clear(&v);
      v = tmp;
      have = 1;
    } else if (got) {
      tfe_attr_value_clear(&tmp);
    }
  }
  if (!ok || !have) {
    if (have) tfe_attr_value_clear(&v);
    /* A value that failed because memory ran out is not malformed. */
    if (!ok && tfe_alloc_failures() != failures) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "out of memory decoding an AttrValue proto");
      return 0;
    }
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    ok ? "AttrValue holds no supported value"
                       : "Unparseable AttrValue proto");
    return 0;
  }
  *out = v;
  return 1;
}
