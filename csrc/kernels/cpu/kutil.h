/* Small helpers shared by the array, reduction and matrix kernels
 * (csrc/kernels/cpu/array_*.c, reduce_*.c, matmul*.c): reading int32/int64
 * index tensors, rendering shapes the way TF prints them, element copies
 * that respect TF_STRING, half/bfloat16 conversions and dtype lists used in
 * registrations. Everything here is static inline. */
#ifndef TFE_KERNELS_CPU_KUTIL_H_
#define TFE_KERNELS_CPU_KUTIL_H_

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/checked.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "kernels/kernel.h"
#include "tensorflow/c/tf_tstring.h"

/* ---- tensors ---- */

static inline void* kutil_data(const TF_Tensor* t) {
  return t->buf != NULL ? t->buf->data : NULL;
}

static inline int64_t kutil_num_elements(const TF_Tensor* t) {
  int64_t n = 1;
  int i;
  /* A tensor with a zero dim may have other dims whose product overflows:
   * its count is 0 before any multiplication. */
  for (i = 0; i < t->num_dims; i++) {
    if (t->dims[i] == 0) return 0;
  }
  for (i = 0; i < t->num_dims; i++) n *= t->dims[i];
  return n;
}

/* Product of dims[from..to) of a valid tensor. It can only overflow when
 * the tensor has a zero dim outside the range (no elements at all); it
 * then returns 0, so callers that loop over the product do nothing. */
static inline int64_t kutil_dims_prod(const int64_t* dims, int from, int to) {
  int64_t p = 1;
  int i;
  for (i = from; i < to; i++) {
    if (!tfe_checked_mul_i64(p, dims[i], &p)) return 0;
  }
  return p;
}

/* Bytes per element (a TF_TString for strings); 0 for dtypes without a
 * fixed host layout. */
static inline size_t kutil_esize(TF_DataType dt) {
  if (dt == TF_STRING) return sizeof(TF_TString);
  return TF_DataTypeSize(dt);
}

/* Copies n elements of dtype dt (strings are deep-copied into the already
 * initialised destination strings). */
static inline void kutil_copy(TF_DataType dt, void* dst, const void* src,
                              int64_t n) {
  if (n <= 0) return;
  if (dt == TF_STRING) {
    TF_TString* d = (TF_TString*)dst;
    const TF_TString* s = (const TF_TString*)src;
    int64_t i;
    for (i = 0; i < n; i++) TF_TString_Assign(&d[i], &s[i]);
  } else {
    memmove(dst, src, (size_t)n * kutil_esize(dt));
  }
}

/* Copies one element of size esz (fast paths for common sizes). */
static inline void kutil_copy1(TF_DataType dt, size_t esz, char* dst,
                               const char* src) {
  switch (esz) {
    case 1: *dst = *src; return;
    case 2: memcpy(dst, src, 2); return;
    case 4: memcpy(dst, src, 4); return;
    case 8: memcpy(dst, src, 8); return;
    default:
      if (dt == TF_STRING) {
        TF_TString_Assign((TF_TString*)dst, (const TF_TString*)src);
      } else {
        memcpy(dst, src, esz);
      }
  }
}

static inline int kutil_is_int_index_type(TF_DataType dt) {
  return dt == TF_INT32 || dt == TF_INT64;
}

/* Element i of an integer tensor, widened to int64 (int32/int64 and the
 * other integer dtypes). */
static inline int64_t kutil_get_int(const TF_Tensor* t, int64_t i) {
  const void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_INT32: return ((const int32_t*)d)[i];
    case TF_INT64: return ((const int64_t*)d)[i];
    case TF_INT16: return ((const int16_t*)d)[i];
    case TF_INT8: return ((const int8_t*)d)[i];
    case TF_UINT8: return ((const uint8_t*)d)[i];
    case TF_UINT16: return ((const uint16_t*)d)[i];
    case TF_UINT32: return ((const uint32_t*)d)[i];
    case TF_UINT64: return (int64_t)((const uint64_t*)d)[i];
    default: return 0;
  }
}

/* ---- shapes ---- */

/* Appends TF's rendering of a shape ("[2,3]", "[]") to buf. */
static inline const char* kutil_shape_str(const int64_t* dims, int n,
                                          char* buf, size_t cap) {
  size_t len = 0;
  int i;
  if (cap == 0) return buf;
  buf[0] = '\0';
  len += (size_t)snprintf(buf + len, cap - len, "[");
  for (i = 0; i < n && len < cap; i++) {
    len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                            (long long)dims[i]);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

/* A buffer big enough for the shapes that appear in messages. */
typedef struct kutil_shape_buf {
  char s[512];
} kutil_shape_buf;

static inline const char* kutil_tshape(const TF_Tensor* t,
                                       kutil_shape_buf* b) {
  return kutil_shape_str(t->dims, t->num_dims, b->s, sizeof b->s);
}

/* ---- status ---- */

#define KUTIL_FAIL(k, code, ...) tfe_status_setf((k)->status, (code), __VA_ARGS__)
#define KUTIL_OK(k) (TF_GetCode((k)->status) == TF_OK)

/* Attr helpers that default when absent (kernels run with complete attrs,
 * so absence only happens in hand-built unit contexts). */
static inline int kutil_attr_bool(const tfe_kernel_context* k,
                                  const char* name, int dflt) {
  int v;
  if (k->attrs != NULL && tfe_attrs_get_bool(k->attrs, name, &v, NULL)) {
    return v;
  }
  return dflt;
}

/* An int attr the kernel uses as an int32, the way TF's GetAttr<int32>
 * reads it: returns 1 with *out set (dflt when absent), or 0 with
 * k->status INVALID_ARGUMENT "Attr <name> has value <v> out of range for
 * an int32" when the int64 the attr holds does not fit. This is the one
 * place kernels read scalar int attrs; TF reads nearly all of them as
 * int32 (the few int64 ones, e.g. random seeds, use kutil_attr_int64). */
static inline int kutil_attr_int32(tfe_kernel_context* k, const char* name,
                                   int32_t dflt, int32_t* out) {
  int64_t v;
  if (k->attrs == NULL || !tfe_attrs_get_int(k->attrs, name, &v, NULL)) {
    *out = dflt;
    return 1;
  }
  if (!tfe_fits_int32(v)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, TFE_ATTR_INT32_RANGE_FMT, name,
               (long long)v);
    return 0;
  }
  *out = (int32_t)v;
  return 1;
}

/* An int attr TF reads as int64 (no range check). */
static inline int64_t kutil_attr_int64(const tfe_kernel_context* k,
                                       const char* name, int64_t dflt) {
  int64_t v;
  if (k->attrs != NULL && tfe_attrs_get_int(k->attrs, name, &v, NULL)) {
    return v;
  }
  return dflt;
}

/* A list(int) attr TF reads as std::vector<int32>: returns 1 with the
 * borrowed list (n 0 and *out NULL when absent), or 0 with k->status set
 * as kutil_attr_int32 sets it for the first element that does not fit. */
static inline int kutil_attr_int32_list(tfe_kernel_context* k,
                                        const char* name,
                                        const int64_t** out, int* n) {
  int i;
  *out = NULL;
  *n = 0;
  if (k->attrs == NULL || !tfe_attrs_get_int_list(k->attrs, name, out, n,
                                                  NULL)) {
    *out = NULL;
    *n = 0;
    return 1;
  }
  for (i = 0; i < *n; i++) {
    if (!tfe_fits_int32((*out)[i])) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, TFE_ATTR_INT32_RANGE_FMT, name,
                 (long long)(*out)[i]);
      return 0;
    }
  }
  return 1;
}

/* ---- 16-bit floats ---- */

static inline float kutil_bf16_to_f32(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Round to nearest even, NaN stays NaN (quiet). */
static inline uint16_t kutil_f32_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

static inline float kutil_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  uint32_t u;
  float f;
  if (exp == 0) {
    if (man == 0) {
      u = sign;
    } else {
      /* subnormal: value = man * 2^-24 */
      f = (float)man * 5.9604644775390625e-8f;
      memcpy(&u, &f, 4);
      u |= sign;
    }
  } else if (exp == 31) {
    u = sign | 0x7f800000u | (man << 13);
    if (man) u |= 0x400000u;
  } else {
    u = sign | ((exp + 112u) << 23) | (man << 13);
  }
  memcpy(&f, &u, 4);
  return f;
}

static inline uint16_t kutil_f32_to_f16(float f) {
  uint32_t u, sign, absu;
  memcpy(&u, &f, 4);
  sign = (u >> 16) & 0x8000u;
  absu = u & 0x7fffffffu;
  if (absu > 0x7f800000u) return (uint16_t)(sign | 0x7e00u); /* NaN */
  if (absu >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* overflow */
  if (absu < 0x38800000u) {
    /* subnormal or zero in half: round value * 2^24 to an integer */
    float a;
    uint32_t m;
    memcpy(&a, &absu, 4);
    a = a * 16777216.0f; /* exact scaling */
    /* round to nearest even */
    m = (uint32_t)a;
    {
      float frac = a - (float)m;
      if (frac > 0.5f || (frac == 0.5f && (m & 1u))) m++;
    }
    return (uint16_t)(sign | m);
  }
  {
    uint32_t e = (absu >> 23) - 112u;
    uint32_t man = absu & 0x7fffffu;
    uint32_t h = (e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
    return (uint16_t)(sign | h);
  }
}

/* ---- dtype lists for registrations ---- */

#define KUTIL_REAL_TYPES                                                    \
  TF_FLOAT, TF_DOUBLE, TF_HALF, TF_BFLOAT16, TF_INT8, TF_INT16, TF_INT32,   \
      TF_INT64, TF_UINT8, TF_UINT16, TF_UINT32, TF_UINT64
#define KUTIL_NUMBER_TYPES KUTIL_REAL_TYPES, TF_COMPLEX64, TF_COMPLEX128
#define KUTIL_POD_TYPES KUTIL_NUMBER_TYPES, TF_BOOL
#define KUTIL_QUANTIZED_TYPES TF_QINT8, TF_QUINT8, TF_QINT16, TF_QUINT16, TF_QINT32

/* Registers one CPU kernel for op with up to two type constraints (attr
 * names NULL for unconstrained). Returns 1 on success. */
int tfe_kutil_register(const char* op, void (*compute)(tfe_kernel_context*),
                       const char* attr1, const TF_DataType* types1, int n1,
                       const char* attr2, const TF_DataType* types2, int n2);

/* The same with a per-instance `create` (tfe_kernel_reg.create: runs when
 * the kernel is made for an (op, attrs) pair; a failure there fails the
 * op, as a failing TF kernel constructor does). */
typedef void* (*tfe_kutil_create_fn)(const tfe_op_def* def, const tfe_attrs* attrs,
                                     void* user_data, TF_Status* status);
int tfe_kutil_register_created(const char* op, tfe_kutil_create_fn create,
                               void (*compute)(tfe_kernel_context*), const char* attr1,
                               const TF_DataType* types1, int n1, const char* attr2,
                               const TF_DataType* types2, int n2);

#define KUTIL_COUNT(arr) ((int)(sizeof(arr) / sizeof((arr)[0])))

/* ---- multi-ISA code generation ----
 * Hot loops are compiled several times for different x86 ISA levels and
 * the best one is picked at load time (GCC's target_clones, which resolves
 * through an ifunc). Other compilers/architectures get one plain version. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__) && !defined(TFE_NO_TARGET_CLONES)
#define KUTIL_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define KUTIL_CLONES
#endif

/* dst[i] = dst[i] + src[i] (or - when sub) for n elements of dtype dt in
 * place, as TF's AssignAdd/AssignSub: integers wrap, half and bfloat16
 * round through float, complex adds both parts. Other dtypes are left
 * alone (kernels register only the supported ones). In resource_ops.c. */
void tfe_cpu_add_sub_inplace(TF_DataType dt, void* dst, const void* src,
                             int64_t n, int sub);

#endif /* TFE_KERNELS_CPU_KUTIL_H_ */
