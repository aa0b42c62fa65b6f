/* Shared helpers of the nn_linalg2 kernel files (nn_linalg2_*.c): element
 * loads/stores through double for the float dtypes, int index reads, and
 * the registration entry points of the sibling files. */
#ifndef TFE_KERNELS_CPU_NN_LINALG2_COMMON_H_
#define TFE_KERNELS_CPU_NN_LINALG2_COMMON_H_

#include <complex.h>

#include "core/alloc.h"
#include "core/complex_compat.h"
#include "kernels/cpu/kutil.h"

void tfe_nn_linalg2_register_rnn(void);
void tfe_nn_linalg2_register_ctc(void);
void tfe_nn_linalg2_register_special(void);
void tfe_nn_linalg2_register_la(void);
void tfe_nn_linalg2_register_bincount(void);
void tfe_nn_linalg2_register_fusedconv(void);

/* C[m,n] = op(A) op(B) in float (row-major, leading dimensions in
 * elements), with the built-in GEMM split over column blocks on the
 * kernel's intra-op pool when the product is large enough. 0 on OOM.
 * In nn_linalg2_kernels.c. */
int nnl2_gemm(tfe_kernel_context* k, int ta, int tb, int64_t m, int64_t n,
              int64_t kk, const float* a, int64_t lda, const float* b,
              int64_t ldb, float* c, int64_t ldc);

/* Element i of a float, double, half or bfloat16 buffer as double. */
static inline double nnl2_load(TF_DataType dt, const void* d, int64_t i) {
  switch (dt) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[i]);
    case TF_INT32: return ((const int32_t*)d)[i];
    case TF_INT64: return (double)((const int64_t*)d)[i];
    default: return 0;
  }
}

/* Stores v (rounded to the dtype) as element i. */
static inline void nnl2_store(TF_DataType dt, void* d, int64_t i, double v) {
  switch (dt) {
    case TF_FLOAT: ((float*)d)[i] = (float)v; break;
    case TF_DOUBLE: ((double*)d)[i] = v; break;
    case TF_HALF: ((uint16_t*)d)[i] = kutil_f32_to_f16((float)v); break;
    case TF_BFLOAT16: ((uint16_t*)d)[i] = kutil_f32_to_bf16((float)v); break;
    case TF_INT32: ((int32_t*)d)[i] = (int32_t)v; break;
    case TF_INT64: ((int64_t*)d)[i] = (int64_t)v; break;
    default: break;
  }
}

/* Element i of a real or complex float buffer as double complex. */
static inline double _Complex nnl2_load_c(TF_DataType dt, const void* d,
                                          int64_t i) {
  if (dt == TF_COMPLEX64) {
    const float* f = (const float*)d + 2 * i;
    return CMPLX(f[0], f[1]);
  }
  if (dt == TF_COMPLEX128) {
    const double* f = (const double*)d + 2 * i;
    return CMPLX(f[0], f[1]);
  }
  return CMPLX(nnl2_load(dt, d, i), 0.0);
}

static inline void nnl2_store_c(TF_DataType dt, void* d, int64_t i,
                                double _Complex v) {
  if (dt == TF_COMPLEX64) {
    float* f = (float*)d + 2 * i;
    f[0] = (float)creal(v);
    f[1] = (float)cimag(v);
  } else if (dt == TF_COMPLEX128) {
    double* f = (double*)d + 2 * i;
    f[0] = creal(v);
    f[1] = cimag(v);
  } else {
    nnl2_store(dt, d, i, creal(v));
  }
}

/* An int32/int64 tensor's elements as a new int64 array (tfe_free it);
 * NULL on OOM. */
static inline int64_t* nnl2_read_i64(const TF_Tensor* t) {
  int64_t n = kutil_num_elements(t), i;
  int64_t* o = (int64_t*)tfe_malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  if (o == NULL) return NULL;
  for (i = 0; i < n; i++) o[i] = kutil_get_int(t, i);
  return o;
}

#endif /* TFE_KERNELS_CPU_NN_LINALG2_COMMON_H_ */
