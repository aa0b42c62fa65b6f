/* Built-in single-threaded GEMM (the fallback when no BLAS is loaded).
 * Row-major C[M,N] = op(A) * op(B), op = transpose when the flag is set;
 * lda/ldb/ldc are row strides in elements. Returns 0 when scratch memory
 * cannot be allocated (C is then unspecified), else 1.
 * Implementation: csrc/kernels/cpu/matmul_gemm.c. */
#ifndef TFE_KERNELS_CPU_MATMUL_GEMM_H_
#define TFE_KERNELS_CPU_MATMUL_GEMM_H_

#include <stdint.h>

int tfe_gemm_f32(int ta, int tb, int64_t M, int64_t N, int64_t K,
                 const float* A, int64_t lda, const float* B, int64_t ldb,
                 float* C, int64_t ldc);
int tfe_gemm_f64(int ta, int tb, int64_t M, int64_t N, int64_t K,
                 const double* A, int64_t lda, const double* B, int64_t ldb,
                 double* C, int64_t ldc);

/* Name of the instruction set the built-in GEMM uses on this CPU
 * ("avx512", "avx2" or "baseline"). */
const char* tfe_gemm_isa(void);

#endif /* TFE_KERNELS_CPU_MATMUL_GEMM_H_ */
