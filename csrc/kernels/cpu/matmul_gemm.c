/* Built-in GEMM used when no CBLAS library could be loaded (blas.h).
 *
 * Classic blocked design: B is packed into KC x NR column panels, A into
 * MC x KC blocks of MR-row panels, and a register-blocked micro-kernel
 * computes an MR x NR tile of C from one A panel and one B panel. The
 * micro-kernel is plain C over a small local accumulator array whose loops
 * have compile-time bounds, so GCC unrolls them and keeps the accumulators
 * in SIMD registers. Each ISA level gets its own copy with its own tile size
 * (AVX-512: 8x32, AVX2+FMA: 6x16, baseline SSE2: 4x8), chosen once at run
 * time from CPUID. Multiply-adds are contracted into FMA where the ISA has
 * it. Single-threaded. */
#if defined(__GNUC__) && !defined(__clang__)
/* The micro-kernel relies on the loop vectorizer at full strength (GCC's
 * -O2 only vectorizes very cheap loops), whatever the build type. */
#pragma GCC optimize("O3", "fp-contract=fast")
#endif

#include "kernels/cpu/matmul_gemm.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"

#define KC 256
#define MC_PANELS 16 /* MC = MR * MC_PANELS */
#define NC_PANELS 64 /* NC = NR * NC_PANELS */

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define HAVE_X86_VARIANTS 1
#define ATTR_AVX512 __attribute__((target("avx512f,avx512vl,avx2,fma")))
#define ATTR_AVX2 __attribute__((target("avx2,fma")))
#else
#define HAVE_X86_VARIANTS 0
#endif

/* Element (i, k) of op(A) where A is row-major with leading dim lda. */
#define AT(A, ta, lda, i, k) ((ta) ? (A)[(k) * (lda) + (i)] : (A)[(i) * (lda) + (k)])

/* One instantiation: element type T, tile MR x NR, function attribute. */
#define DEF_GEMM(S, T, MR, NR, ATTR)                                          \
  ATTR static void ukern_##S(int64_t kc, const T* __restrict a,              \
                             const T* __restrict b, T* __restrict c) {       \
    T acc[MR][NR];                                                            \
    int64_t k;                                                                \
    int i, j;                                                                 \
    for (i = 0; i < MR; i++)                                                  \
      for (j = 0; j < NR; j++) acc[i][j] = 0;                                 \
    for (k = 0; k < kc; k++) {                                                \
      const T* ak = a + k * MR;                                               \
      const T* bk = b + k * NR;                                               \
      for (i = 0; i < MR; i++) {                                              \
        T av = ak[i];                                                         \
        for (j = 0; j < NR; j++) acc[i][j] += av * bk[j];                     \
      }                                                                       \
    }                                                                         \
    for (i = 0; i < MR; i++)                                                  \
      for (j = 0; j < NR; j++) c[i * NR + j] = acc[i][j];                     \
  }                                                                           \
  ATTR static void pack_b_##S(int tb, const T* B, int64_t ldb, int64_t pc,    \
                              int64_t kc, int64_t jc, int64_t nc, T* bp) {    \
    int64_t jr, k, j;                                                         \
    for (jr = 0; jr < nc; jr += NR) {                                         \
      int64_t w = nc - jr < NR ? nc - jr : NR;                                \
      T* dst = bp + jr * kc;                                                  \
      for (k = 0; k < kc; k++) {                                              \
        T* d = dst + k * NR;                                                  \
        if (!tb) {                                                            \
          const T* s = B + (pc + k) * ldb + jc + jr;                          \
          for (j = 0; j < w; j++) d[j] = s[j];                                \
        } else {                                                              \
          for (j = 0; j < w; j++) d[j] = B[(jc + jr + j) * ldb + pc + k];     \
        }                                                                     \
        for (j = w; j < NR; j++) d[j] = 0;                                    \
      }                                                                       \
    }                                                                         \
  }                                                                           \
  ATTR static void pack_a_##S(int ta, const T* A, int64_t lda, int64_t ic,    \
                              int64_t mc, int64_t pc, int64_t kc, T* ap) {    \
    int64_t ir, k, i;                                                         \
    for (ir = 0; ir < mc; ir += MR) {                                         \
      int64_t h = mc - ir < MR ? mc - ir : MR;                                \
      T* dst = ap + ir * kc;                                                  \
      for (k = 0; k < kc; k++) {                                              \
        T* d = dst + k * MR;                                                  \
        for (i = 0; i < h; i++) d[i] = AT(A, ta, lda, ic + ir + i, pc + k);   \
        for (i = h; i < MR; i++) d[i] = 0;                                    \
      }                                                                       \
    }                                                                         \
  }                                                                           \
  ATTR static int gemm_##S(int ta, int tb, int64_t M, int64_t N, int64_t K,   \
                           const T* A, int64_t lda, const T* B, int64_t ldb,  \
                           T* C, int64_t ldc) {                               \
    const int64_t MCB = (int64_t)MR * MC_PANELS;                              \
    const int64_t NCB = (int64_t)NR * NC_PANELS;                              \
    /* scratch sized for this product, not for the largest block */         \
    const int64_t am = (M < MCB ? (M + MR - 1) / MR * MR : MCB);              \
    const int64_t bn = (N < NCB ? (N + NR - 1) / NR * NR : NCB);              \
    const int64_t kk = K < KC ? K : KC;                                       \
    T* ap;                                                                    \
    T* bp;                                                                    \
    T tile[MR * NR];                                                          \
    int64_t jc, pc, ic, jr, ir, i, j;                                         \
    if (M * N * K <= 32 * 32 * 32) {                                          \
      /* small: a direct loop beats packing */                               \
      int64_t p;                                                              \
      for (i = 0; i < M; i++) {                                               \
        T* crow = C + i * ldc;                                                \
        for (j = 0; j < N; j++) crow[j] = 0;                                  \
        for (p = 0; p < K; p++) {                                             \
          T av = AT(A, ta, lda, i, p);                                        \
          if (!tb) {                                                          \
            const T* brow = B + p * ldb;                                      \
            for (j = 0; j < N; j++) crow[j] += av * brow[j];                  \
          } else {                                                            \
            for (j = 0; j < N; j++) crow[j] += av * B[j * ldb + p];           \
          }                                                                   \
        }                                                                     \
      }                                                                       \
      return 1;                                                               \
    }                                                                         \
    ap = (T*)tfe_aligned_alloc(sizeof(T) * (size_t)(am * kk));                \
    bp = (T*)tfe_aligned_alloc(sizeof(T) * (size_t)(bn * kk));                \
    if (ap == NULL || bp == NULL) {                                           \
      tfe_free(ap);                                                           \
      tfe_free(bp);                                                           \
      return 0;                                                               \
    }                                                                         \
    for (i = 0; i < M; i++)                                                   \
      for (j = 0; j < N; j++) C[i * ldc + j] = 0;                             \
    for (jc = 0; jc < N; jc += NCB) {                                         \
      int64_t nc = N - jc < NCB ? N - jc : NCB;                               \
      for (pc = 0; pc < K; pc += KC) {                                        \
        int64_t kc = K - pc < KC ? K - pc : KC;                               \
        pack_b_##S(tb, B, ldb, pc, kc, jc, nc, bp);                           \
        for (ic = 0; ic < M; ic += MCB) {                                     \
          int64_t mc = M - ic < MCB ? M - ic : MCB;                           \
          pack_a_##S(ta, A, lda, ic, mc, pc, kc, ap);                         \
          for (jr = 0; jr < nc; jr += NR) {                                   \
            int64_t w = nc - jr < NR ? nc - jr : NR;                          \
            for (ir = 0; ir < mc; ir += MR) {                                 \
              int64_t h = mc - ir < MR ? mc - ir : MR;                        \
              T* cblk = C + (ic + ir) * ldc + jc + jr;                        \
              ukern_##S(kc, ap + ir * kc, bp + jr * kc, tile);                \
              for (i = 0; i < h; i++) {                                       \
                for (j = 0; j < w; j++) cblk[i * ldc + j] += tile[i * NR + j]; \
              }                                                               \
            }                                                                 \
          }                                                                   \
        }                                                                     \
      }                                                                       \
    }                                                                         \
    tfe_free(ap);                                                             \
    tfe_free(bp);                                                             \
    return 1;                                                                 \
  }

DEF_GEMM(f32_base, float, 4, 8, )
DEF_GEMM(f64_base, double, 4, 4, )
#if HAVE_X86_VARIANTS
DEF_GEMM(f32_avx2, float, 6, 16, ATTR_AVX2)
DEF_GEMM(f64_avx2, double, 6, 8, ATTR_AVX2)
DEF_GEMM(f32_avx512, float, 8, 32, ATTR_AVX512)
DEF_GEMM(f64_avx512, double, 8, 16, ATTR_AVX512)
#endif

/* 0 = baseline, 1 = AVX2+FMA, 2 = AVX-512; detected once. */
static int g_isa_level;
static pthread_once_t g_isa_once = PTHREAD_ONCE_INIT;

static void detect_isa(void) {
  int l = 0;
#if HAVE_X86_VARIANTS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) l = 1;
  if (l == 1 && __builtin_cpu_supports("avx512f") &&
      __builtin_cpu_supports("avx512vl")) {
    l = 2;
  }
#endif
  g_isa_level = l;
}

static int isa_level(void) {
  pthread_once(&g_isa_once, detect_isa);
  return g_isa_level;
}

const char* tfe_gemm_isa(void) {
  switch (isa_level()) {
    case 2: return "avx512";
    case 1: return "avx2";
    default: return "baseline";
  }
}

int tfe_gemm_f32(int ta, int tb, int64_t M, int64_t N, int64_t K,
                 const float* A, int64_t lda, const float* B, int64_t ldb,
                 float* C, int64_t ldc) {
#if HAVE_X86_VARIANTS
  switch (isa_level()) {
    case 2: return gemm_f32_avx512(ta, tb, M, N, K, A, lda, B, ldb, C, ldc);
    case 1: return gemm_f32_avx2(ta, tb, M, N, K, A, lda, B, ldb, C, ldc);
    default: break;
  }
#endif
  return gemm_f32_base(ta, tb, M, N, K, A, lda, B, ldb, C, ldc);
}

int tfe_gemm_f64(int ta, int tb, int64_t M, int64_t N, int64_t K,
                 const double* A, int64_t lda, const double* B, int64_t ldb,
                 double* C, int64_t ldc) {
#if HAVE_X86_VARIANTS
  switch (isa_level()) {
    case 2: return gemm_f64_avx512(ta, tb, M, N, K, A, lda, B, ldb, C, ldc);
    case 1: return gemm_f64_avx2(ta, tb, M, N, K, A, lda, B, ldb, C, ldc);
    default: break;
  }
#endif
  return gemm_f64_base(ta, tb, M, N, K, A, lda, B, ldb, C, ldc);
}
