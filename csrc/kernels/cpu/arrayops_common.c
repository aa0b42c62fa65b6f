/* Row-wise folding helpers of the arrayops kernels (see arrayops_common.h). */
#include "kernels/cpu/arrayops_common.h"

#include <complex.h>
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/kutil.h"

/* Integer arithmetic goes through uint64_t so that overflow wraps without
 * undefined behaviour; the narrowing back keeps the low bits. */
#define AO_INT_LOOP(T)                                                      \
  do {                                                                      \
    T* a = (T*)acc;                                                         \
    const T* s = (const T*)src;                                             \
    switch (kind) {                                                         \
      case TFE_AO_SUM:                                                      \
        for (i = 0; i < n; i++) a[i] = (T)((uint64_t)a[i] + (uint64_t)s[i]); \
        return 1;                                                           \
      case TFE_AO_SUB:                                                      \
        for (i = 0; i < n; i++) a[i] = (T)((uint64_t)a[i] - (uint64_t)s[i]); \
        return 1;                                                           \
      case TFE_AO_PROD:                                                     \
        for (i = 0; i < n; i++) a[i] = (T)((uint64_t)a[i] * (uint64_t)s[i]); \
        return 1;                                                           \
      case TFE_AO_MAX:                                                      \
        for (i = 0; i < n; i++) a[i] = s[i] < a[i] ? a[i] : s[i];           \
        return 1;                                                           \
      case TFE_AO_MIN:                                                      \
        for (i = 0; i < n; i++) a[i] = s[i] > a[i] ? a[i] : s[i];           \
        return 1;                                                           \
      case TFE_AO_MAX_KEEP:                                                 \
        for (i = 0; i < n; i++) a[i] = a[i] < s[i] ? s[i] : a[i];           \
        return 1;                                                           \
      case TFE_AO_MIN_KEEP:                                                 \
        for (i = 0; i < n; i++) a[i] = a[i] > s[i] ? s[i] : a[i];           \
        return 1;                                                           \
    }                                                                       \
    return 0;                                                               \
  } while (0)

#define AO_FLOAT_LOOP(T)                                          \
  do {                                                            \
    T* a = (T*)acc;                                               \
    const T* s = (const T*)src;                                   \
    switch (kind) {                                               \
      case TFE_AO_SUM:                                            \
        for (i = 0; i < n; i++) a[i] = a[i] + s[i];               \
        return 1;                                                 \
      case TFE_AO_SUB:                                            \
        for (i = 0; i < n; i++) a[i] = a[i] - s[i];               \
        return 1;                                                 \
      case TFE_AO_PROD:                                           \
        for (i = 0; i < n; i++) a[i] = a[i] * s[i];               \
        return 1;                                                 \
      case TFE_AO_MAX:                                            \
        for (i = 0; i < n; i++) a[i] = s[i] < a[i] ? a[i] : s[i]; \
        return 1;                                                 \
      case TFE_AO_MIN:                                            \
        for (i = 0; i < n; i++) a[i] = s[i] > a[i] ? a[i] : s[i]; \
        return 1;                                                 \
      case TFE_AO_MAX_KEEP:                                       \
        for (i = 0; i < n; i++) a[i] = a[i] < s[i] ? s[i] : a[i]; \
        return 1;                                                 \
      case TFE_AO_MIN_KEEP:                                       \
        for (i = 0; i < n; i++) a[i] = a[i] > s[i] ? s[i] : a[i]; \
        return 1;                                                 \
    }                                                             \
    return 0;                                                     \
  } while (0)

#define AO_COMPLEX_LOOP(T)                          \
  do {                                              \
    T* a = (T*)acc;                                 \
    const T* s = (const T*)src;                     \
    switch (kind) {                                 \
      case TFE_AO_SUM:                              \
        for (i = 0; i < n; i++) a[i] = a[i] + s[i]; \
        return 1;                                   \
      case TFE_AO_SUB:                              \
        for (i = 0; i < n; i++) a[i] = a[i] - s[i]; \
        return 1;                                   \
      case TFE_AO_PROD:                             \
        for (i = 0; i < n; i++) a[i] = a[i] * s[i]; \
        return 1;                                   \
      default:                                      \
        return 0;                                   \
    }                                               \
  } while (0)

/* 16-bit floats: widen, fold in float, round back. */
static float h_get(TF_DataType dt, uint16_t v) {
  return dt == TF_HALF ? kutil_f16_to_f32(v) : kutil_bf16_to_f32(v);
}
static uint16_t h_put(TF_DataType dt, float f) {
  return dt == TF_HALF ? kutil_f32_to_f16(f) : kutil_f32_to_bf16(f);
}

static int combine16(TF_DataType dt, tfe_ao_kind kind, uint16_t* a,
                     const uint16_t* s, int64_t n) {
  int64_t i;
  for (i = 0; i < n; i++) {
    float x = h_get(dt, a[i]), y = h_get(dt, s[i]), r;
    switch (kind) {
      case TFE_AO_SUM: r = x + y; break;
      case TFE_AO_SUB: r = x - y; break;
      case TFE_AO_PROD: r = x * y; break;
      case TFE_AO_MAX:
        if (y < x) continue;
        a[i] = s[i];
        continue;
      case TFE_AO_MIN:
        if (y > x) continue;
        a[i] = s[i];
        continue;
      case TFE_AO_MAX_KEEP:
        if (x < y) a[i] = s[i];
        continue;
      case TFE_AO_MIN_KEEP:
        if (x > y) a[i] = s[i];
        continue;
      default: return 0;
    }
    a[i] = h_put(dt, r);
  }
  return 1;
}

int tfe_ao_combine(TF_DataType dt, tfe_ao_kind kind, void* acc,
                   const void* src, int64_t n) {
  int64_t i;
  switch (dt) {
    case TF_FLOAT: AO_FLOAT_LOOP(float);
    case TF_DOUBLE: AO_FLOAT_LOOP(double);
    case TF_INT8: AO_INT_LOOP(int8_t);
    case TF_INT16: AO_INT_LOOP(int16_t);
    case TF_INT32: AO_INT_LOOP(int32_t);
    case TF_INT64: AO_INT_LOOP(int64_t);
    case TF_UINT8: AO_INT_LOOP(uint8_t);
    case TF_UINT16: AO_INT_LOOP(uint16_t);
    case TF_UINT32: AO_INT_LOOP(uint32_t);
    case TF_UINT64: AO_INT_LOOP(uint64_t);
    case TF_COMPLEX64: AO_COMPLEX_LOOP(float _Complex);
    case TF_COMPLEX128: AO_COMPLEX_LOOP(double _Complex);
    case TF_HALF:
    case TF_BFLOAT16:
      return combine16(dt, kind, (uint16_t*)acc, (const uint16_t*)src, n);
    default: return 0;
  }
}

void tfe_ao_fill_zero(TF_DataType dt, void* dst, int64_t n) {
  if (n > 0) memset(dst, 0, (size_t)n * kutil_esize(dt));
}

#define AO_FILL(T, v)                              \
  do {                                             \
    T* d = (T*)dst;                                \
    T x = (T)(v);                                  \
    for (i = 0; i < n; i++) d[i] = x;              \
    return 1;                                      \
  } while (0)

int tfe_ao_fill_identity(TF_DataType dt, tfe_ao_kind kind, void* dst,
                         int64_t n) {
  int64_t i;
  if (kind == TFE_AO_SUM || kind == TFE_AO_SUB) {
    tfe_ao_fill_zero(dt, dst, n);
    return 1;
  }
  if (kind == TFE_AO_PROD) {
    switch (dt) {
      case TF_FLOAT: AO_FILL(float, 1);
      case TF_DOUBLE: AO_FILL(double, 1);
      case TF_INT8: AO_FILL(int8_t, 1);
      case TF_INT16: AO_FILL(int16_t, 1);
      case TF_INT32: AO_FILL(int32_t, 1);
      case TF_INT64: AO_FILL(int64_t, 1);
      case TF_UINT8: AO_FILL(uint8_t, 1);
      case TF_UINT16: AO_FILL(uint16_t, 1);
      case TF_UINT32: AO_FILL(uint32_t, 1);
      case TF_UINT64: AO_FILL(uint64_t, 1);
      case TF_COMPLEX64: AO_FILL(float _Complex, 1);
      case TF_COMPLEX128: AO_FILL(double _Complex, 1);
      case TF_HALF: AO_FILL(uint16_t, 0x3c00u);
      case TF_BFLOAT16: AO_FILL(uint16_t, 0x3f80u);
      default: return 0;
    }
  }
  if (kind == TFE_AO_MAX) {
    switch (dt) {
      case TF_FLOAT: AO_FILL(float, -FLT_MAX);
      case TF_DOUBLE: AO_FILL(double, -DBL_MAX);
      case TF_INT8: AO_FILL(int8_t, INT8_MIN);
      case TF_INT16: AO_FILL(int16_t, INT16_MIN);
      case TF_INT32: AO_FILL(int32_t, INT32_MIN);
      case TF_INT64: AO_FILL(int64_t, INT64_MIN);
      case TF_UINT8:
      case TF_UINT16:
      case TF_UINT32:
      case TF_UINT64: tfe_ao_fill_zero(dt, dst, n); return 1;
      case TF_HALF: AO_FILL(uint16_t, 0xfbffu);
      case TF_BFLOAT16: AO_FILL(uint16_t, 0xff7fu);
      default: return 0;
    }
  }
  if (kind == TFE_AO_MIN) {
    switch (dt) {
      case TF_FLOAT: AO_FILL(float, FLT_MAX);
      case TF_DOUBLE: AO_FILL(double, DBL_MAX);
      case TF_INT8: AO_FILL(int8_t, INT8_MAX);
      case TF_INT16: AO_FILL(int16_t, INT16_MAX);
      case TF_INT32: AO_FILL(int32_t, INT32_MAX);
      case TF_INT64: AO_FILL(int64_t, INT64_MAX);
      case TF_UINT8: AO_FILL(uint8_t, UINT8_MAX);
      case TF_UINT16: AO_FILL(uint16_t, UINT16_MAX);
      case TF_UINT32: AO_FILL(uint32_t, UINT32_MAX);
      case TF_UINT64: AO_FILL(uint64_t, UINT64_MAX);
      case TF_HALF: AO_FILL(uint16_t, 0x7bffu);
      case TF_BFLOAT16: AO_FILL(uint16_t, 0x7f7fu);
      default: return 0;
    }
  }
  return 0;
}

#define AO_DIV(T)                                   \
  do {                                              \
    T* a = (T*)acc;                                 \
    for (i = 0; i < n; i++) a[i] = a[i] / (T)count; \
    return 1;                                       \
  } while (0)
/* Integers divide in 64 bits so that large counts cannot wrap to 0. */
#define AO_IDIV(T, CT)                                      \
  do {                                                      \
    T* a = (T*)acc;                                         \
    for (i = 0; i < n; i++) a[i] = (T)(a[i] / (CT)count);   \
    return 1;                                               \
  } while (0)

int tfe_ao_divide(TF_DataType dt, void* acc, int64_t n, int64_t count) {
  int64_t i;
  switch (dt) {
    case TF_FLOAT: AO_DIV(float);
    case TF_DOUBLE: AO_DIV(double);
    case TF_INT8: AO_IDIV(int8_t, int64_t);
    case TF_INT16: AO_IDIV(int16_t, int64_t);
    case TF_INT32: AO_IDIV(int32_t, int64_t);
    case TF_INT64: AO_IDIV(int64_t, int64_t);
    case TF_UINT8: AO_IDIV(uint8_t, uint64_t);
    case TF_UINT16: AO_IDIV(uint16_t, uint64_t);
    case TF_UINT32: AO_IDIV(uint32_t, uint64_t);
    case TF_UINT64: AO_IDIV(uint64_t, uint64_t);
    case TF_COMPLEX64: AO_DIV(float _Complex);
    case TF_COMPLEX128: AO_DIV(double _Complex);
    case TF_HALF:
    case TF_BFLOAT16: {
      uint16_t* a = (uint16_t*)acc;
      for (i = 0; i < n; i++) {
        a[i] = h_put(dt, h_get(dt, a[i]) / (float)count);
      }
      return 1;
    }
    default: return 0;
  }
}
