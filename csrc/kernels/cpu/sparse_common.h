/* Shared by the sparse op group's CPU kernels (csrc/kernels/cpu/sparse_*.c):
 * a scalar "wide value" that any numeric dtype loads into and stores from
 * (float types as double, complex as two doubles, integers as int64 with
 * wrap-around on store), lexicographic index comparisons and a stable sort
 * of index rows. Everything here is static inline or declared for the
 * group's own files only. */
#ifndef TFE_KERNELS_CPU_SPARSE_COMMON_H_
#define TFE_KERNELS_CPU_SPARSE_COMMON_H_

#include <math.h>
#include <stdint.h>

#include "kernels/cpu/kutil.h"

/* How a dtype computes: float (double), complex (two doubles), signed
 * integer (int64, includes the narrow unsigned ones) or uint64. */
enum { SPK_F = 0, SPK_C = 1, SPK_I = 2, SPK_U = 3 };

typedef struct spv {
  double re, im;
  int64_t i;
} spv;

static inline int sp_kind(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: case TF_DOUBLE: case TF_HALF: case TF_BFLOAT16:
      return SPK_F;
    case TF_COMPLEX64: case TF_COMPLEX128:
      return SPK_C;
    case TF_UINT64:
      return SPK_U;
    default:
      return SPK_I;
  }
}

static inline void sp_load(TF_DataType dt, const void* base, int64_t i,
                           spv* v) {
  v->re = v->im = 0;
  v->i = 0;
  switch (dt) {
    case TF_FLOAT: v->re = ((const float*)base)[i]; break;
    case TF_DOUBLE: v->re = ((const double*)base)[i]; break;
    case TF_HALF: v->re = kutil_f16_to_f32(((const uint16_t*)base)[i]); break;
    case TF_BFLOAT16:
      v->re = kutil_bf16_to_f32(((const uint16_t*)base)[i]);
      break;
    case TF_COMPLEX64:
      v->re = ((const float*)base)[2 * i];
      v->im = ((const float*)base)[2 * i + 1];
      break;
    case TF_COMPLEX128:
      v->re = ((const double*)base)[2 * i];
      v->im = ((const double*)base)[2 * i + 1];
      break;
    case TF_INT8: v->i = ((const int8_t*)base)[i]; break;
    case TF_INT16: v->i = ((const int16_t*)base)[i]; break;
    case TF_INT32: v->i = ((const int32_t*)base)[i]; break;
    case TF_INT64: v->i = ((const int64_t*)base)[i]; break;
    case TF_UINT8: v->i = ((const uint8_t*)base)[i]; break;
    case TF_UINT16: v->i = ((const uint16_t*)base)[i]; break;
    case TF_UINT32: v->i = ((const uint32_t*)base)[i]; break;
    case TF_UINT64: v->i = (int64_t)((const uint64_t*)base)[i]; break;
    case TF_BOOL: v->i = ((const uint8_t*)base)[i] != 0; break;
    default: break;
  }
}

static inline void sp_store(TF_DataType dt, void* base, int64_t i,
                            const spv* v) {
  switch (dt) {
    case TF_FLOAT: ((float*)base)[i] = (float)v->re; break;
    case TF_DOUBLE: ((double*)base)[i] = v->re; break;
    case TF_HALF: ((uint16_t*)base)[i] = kutil_f32_to_f16((float)v->re); break;
    case TF_BFLOAT16:
      ((uint16_t*)base)[i] = kutil_f32_to_bf16((float)v->re);
      break;
    case TF_COMPLEX64:
      ((float*)base)[2 * i] = (float)v->re;
      ((float*)base)[2 * i + 1] = (float)v->im;
      break;
    case TF_COMPLEX128:
      ((double*)base)[2 * i] = v->re;
      ((double*)base)[2 * i + 1] = v->im;
      break;
    case TF_INT8: ((int8_t*)base)[i] = (int8_t)(uint8_t)(uint64_t)v->i; break;
    case TF_INT16:
      ((int16_t*)base)[i] = (int16_t)(uint16_t)(uint64_t)v->i;
      break;
    case TF_INT32:
      ((int32_t*)base)[i] = (int32_t)(uint32_t)(uint64_t)v->i;
      break;
    case TF_INT64: ((int64_t*)base)[i] = v->i; break;
    case TF_UINT8: ((uint8_t*)base)[i] = (uint8_t)(uint64_t)v->i; break;
    case TF_UINT16: ((uint16_t*)base)[i] = (uint16_t)(uint64_t)v->i; break;
    case TF_UINT32: ((uint32_t*)base)[i] = (uint32_t)(uint64_t)v->i; break;
    case TF_UINT64: ((uint64_t*)base)[i] = (uint64_t)v->i; break;
    case TF_BOOL: ((uint8_t*)base)[i] = v->i != 0; break;
    default: break;
  }
}

static inline void sp_zero(spv* v) {
  v->re = v->im = 0;
  v->i = 0;
}

/* a += b (integers wrap). */
static inline void sp_add(int kind, spv* a, const spv* b) {
  if (kind == SPK_I || kind == SPK_U) {
    a->i = (int64_t)((uint64_t)a->i + (uint64_t)b->i);
  } else {
    a->re += b->re;
    a->im += b->im;
  }
}

/* a *= b. */
static inline void sp_mul(int kind, spv* a, const spv* b) {
  if (kind == SPK_I || kind == SPK_U) {
    a->i = (int64_t)((uint64_t)a->i * (uint64_t)b->i);
  } else if (kind == SPK_C) {
    double re = a->re * b->re - a->im * b->im;
    double im = a->re * b->im + a->im * b->re;
    a->re = re;
    a->im = im;
  } else {
    a->re *= b->re;
  }
}

/* a /= b; integer division by zero gives 0 (callers reject it first) and
 * INT64_MIN / -1 wraps. */
static inline void sp_div(int kind, spv* a, const spv* b) {
  if (kind == SPK_I) {
    if (b->i == 0) {
      a->i = 0;
    } else if (b->i == -1) {
      a->i = (int64_t)(0 - (uint64_t)a->i);
    } else {
      a->i = a->i / b->i;
    }
  } else if (kind == SPK_U) {
    a->i = b->i == 0 ? 0 : (int64_t)((uint64_t)a->i / (uint64_t)b->i);
  } else if (kind == SPK_C) {
    double d = b->re * b->re + b->im * b->im;
    double re = (a->re * b->re + a->im * b->im) / d;
    double im = (a->im * b->re - a->re * b->im) / d;
    a->re = re;
    a->im = im;
  } else {
    a->re /= b->re;
  }
}

/* a > b for real kinds (NaN compares false). */
static inline int sp_gt(int kind, const spv* a, const spv* b) {
  if (kind == SPK_I) return a->i > b->i;
  if (kind == SPK_U) return (uint64_t)a->i > (uint64_t)b->i;
  return a->re > b->re;
}

static inline int sp_is_zero(int kind, const spv* a) {
  if (kind == SPK_I || kind == SPK_U) return a->i == 0;
  return a->re == 0 && a->im == 0;
}

/* |a| as a double. */
static inline double sp_abs(int kind, const spv* a) {
  if (kind == SPK_I) return a->i < 0 ? -(double)a->i : (double)a->i;
  if (kind == SPK_U) return (double)(uint64_t)a->i;
  if (kind == SPK_C) return hypot(a->re, a->im);
  return fabs(a->re);
}

/* Lexicographic comparison of row i of index matrix a with row j of b
 * (both [n, ndims] int64). */
static inline int sp_cmp_rows(const int64_t* a, int64_t i, const int64_t* b,
                              int64_t j, int ndims) {
  const int64_t* x = a + i * ndims;
  const int64_t* y = b + j * ndims;
  int d;
  for (d = 0; d < ndims; d++) {
    if (x[d] < y[d]) return -1;
    if (x[d] > y[d]) return 1;
  }
  return 0;
}

/* Writes into perm[0..n) the permutation that sorts the rows of ind
 * ([n, ndims] int64) lexicographically, stably (equal rows keep their
 * order). Returns 0 when memory runs out. Implemented in sparse_kernels.c. */
int tfe_sparse_sort_rows(const int64_t* ind, int64_t n, int ndims,
                         int64_t* perm);

/* Reads a matrix/vector index tensor of dtype int32 or int64 as int64
 * (a new tfe_malloc'ed array; NULL with status set on OOM). n elements. */
int64_t* tfe_sparse_read_i64(tfe_kernel_context* k, const TF_Tensor* t);

#endif /* TFE_KERNELS_CPU_SPARSE_COMMON_H_ */
