/* Optional CBLAS found at run time.
 *
 * tfe does not link against a BLAS. The first time a matrix product needs
 * one, it tries to dlopen, in order:
 *   1. the path in the environment variable TFE_BLAS_LIBRARY (the Python
 *      package points it at the scipy-openblas32 wheel's library);
 *   2. libopenblas.so.0, libopenblas.so, libcblas.so.3, and libblas.so.3 (the
 *      last only when it is an optimised BLAS: OpenBLAS, BLIS or MKL).
 * In each it looks for cblas_sgemm/dgemm/cgemm/zgemm under the plain names,
 * under the "scipy_" prefix used by the scipy-openblas wheels, and the
 * 64-bit-integer variants with the "64_" suffix. Setting TFE_BLAS_LIBRARY
 * to "none" disables BLAS (the built-in GEMM in matmul_gemm.c is used).
 * Implementation: csrc/kernels/cpu/blas.c. */
#ifndef TFE_KERNELS_CPU_BLAS_H_
#define TFE_KERNELS_CPU_BLAS_H_

#include <stdint.h>

/* 1 when a CBLAS with at least sgemm and dgemm was loaded (the search runs
 * once per process; thread-safe). */
int tfe_blas_available(void);

/* Path or soname of the loaded library, or NULL. Static storage. */
const char* tfe_blas_library(void);

/* Row-major C[m,n] = op(A) * op(B) (beta = 0), op = transpose when the
 * flag is set. lda/ldb/ldc are row strides in elements. Return 0 (without
 * touching C) when no BLAS is loaded or a size does not fit the library's
 * integer type. Complex variants take interleaved (re, im) pairs;
 * conj_a/conj_b request conjugate transposes (only with the transpose flag
 * set). */
int tfe_blas_sgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                   const float* a, int64_t lda, const float* b, int64_t ldb,
                   float* c, int64_t ldc);
int tfe_blas_dgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                   const double* a, int64_t lda, const double* b, int64_t ldb,
                   double* c, int64_t ldc);
int tfe_blas_cgemm(int trans_a, int conj_a, int trans_b, int conj_b,
                   int64_t m, int64_t n, int64_t k, const float* a,
                   int64_t lda, const float* b, int64_t ldb, float* c,
                   int64_t ldc);
int tfe_blas_zgemm(int trans_a, int conj_a, int trans_b, int conj_b,
                   int64_t m, int64_t n, int64_t k, const double* a,
                   int64_t lda, const double* b, int64_t ldb, double* c,
                   int64_t ldc);

#endif /* TFE_KERNELS_CPU_BLAS_H_ */
