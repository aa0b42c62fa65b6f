/* Run-time CBLAS loading (see blas.h for the search order). */
#include "kernels/cpu/blas.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CBLAS enum values (fixed by the CBLAS standard). */
#define CBLAS_ROW_MAJOR 101
#define CBLAS_NO_TRANS 111
#define CBLAS_TRANS 112
#define CBLAS_CONJ_TRANS 113

typedef void (*sgemm32_fn)(int, int, int, int32_t, int32_t, int32_t, float,
                           const float*, int32_t, const float*, int32_t, float,
                           float*, int32_t);
typedef void (*dgemm32_fn)(int, int, int, int32_t, int32_t, int32_t, double,
                           const double*, int32_t, const double*, int32_t,
                           double, double*, int32_t);
typedef void (*cgemm32_fn)(int, int, int, int32_t, int32_t, int32_t,
                           const void*, const void*, int32_t, const void*,
                           int32_t, const void*, void*, int32_t);
typedef void (*sgemm64_fn)(int, int, int, int64_t, int64_t, int64_t, float,
                           const float*, int64_t, const float*, int64_t, float,
                           float*, int64_t);
typedef void (*dgemm64_fn)(int, int, int, int64_t, int64_t, int64_t, double,
                           const double*, int64_t, const double*, int64_t,
                           double, double*, int64_t);
typedef void (*cgemm64_fn)(int, int, int, int64_t, int64_t, int64_t,
                           const void*, const void*, int64_t, const void*,
                           int64_t, const void*, void*, int64_t);

static struct {
  int loaded;
  int int64_api; /* 1 when the library takes 64-bit integers */
  void* handle;
  char name[512];
  void* sgemm;
  void* dgemm;
  void* cgemm;
  void* zgemm;
} g_blas;

static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* Looks up base under the known prefixes/suffixes for one integer width. */
static void* find_sym(void* h, const char* base, int int64_api) {
  static const char* const prefixes[] = {"", "scipy_"};
  char name[96];
  size_t i;
  for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
    void* p;
    if (int64_api) {
      snprintf(name, sizeof name, "%s%s64_", prefixes[i], base);
    } else {
      snprintf(name, sizeof name, "%s%s", prefixes[i], base);
    }
    p = dlsym(h, name);
    if (p != NULL) return p;
  }
  return NULL;
}

/* Accepts a library when it has sgemm and dgemm (32- or 64-bit API). */
static int try_library(const char* path, int require_optimised) {
  void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  int api;
  if (h == NULL) return 0;
  if (require_optimised && dlsym(h, "openblas_get_config") == NULL &&
      dlsym(h, "scipy_openblas_get_config") == NULL &&
      dlsym(h, "bli_info_get_version_str") == NULL &&
      dlsym(h, "MKL_Get_Max_Threads") == NULL) {
    dlclose(h);
    return 0;
  }
  for (api = 0; api < 2; api++) {
    void* s = find_sym(h, "cblas_sgemm", api);
    void* d = find_sym(h, "cblas_dgemm", api);
    if (s != NULL && d != NULL) {
      g_blas.handle = h;
      g_blas.int64_api = api;
      g_blas.sgemm = s;
      g_blas.dgemm = d;
      g_blas.cgemm = find_sym(h, "cblas_cgemm", api);
      g_blas.zgemm = find_sym(h, "cblas_zgemm", api);
      snprintf(g_blas.name, sizeof g_blas.name, "%s", path);
      g_blas.loaded = 1;
      return 1;
    }
  }
  dlclose(h);
  return 0;
}

static void load_once(void) {
  const char* env = getenv("TFE_BLAS_LIBRARY");
  if (env != NULL && env[0] != '\0') {
    if (strcmp(env, "none") == 0) return;
    if (try_library(env, 0)) return;
  }
  if (try_library("libopenblas.so.0", 0)) return;
  if (try_library("libopenblas.so", 0)) return;
  if (try_library("libcblas.so.3", 1)) return;
  if (try_library("libblas.so.3", 1)) return;
}

int tfe_blas_available(void) {
  pthread_once(&g_once, load_once);
  return g_blas.loaded;
}

const char* tfe_blas_library(void) {
  return tfe_blas_available() ? g_blas.name : NULL;
}

static int fits32(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e,
                  int64_t f) {
  return a <= INT32_MAX && b <= INT32_MAX && c <= INT32_MAX &&
         d <= INT32_MAX && e <= INT32_MAX && f <= INT32_MAX;
}

int tfe_blas_sgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                   const float* a, int64_t lda, const float* b, int64_t ldb,
                   float* c, int64_t ldc) {
  int ta = trans_a ? CBLAS_TRANS : CBLAS_NO_TRANS;
  int tb = trans_b ? CBLAS_TRANS : CBLAS_NO_TRANS;
  if (!tfe_blas_available()) return 0;
  if (g_blas.int64_api) {
    ((sgemm64_fn)g_blas.sgemm)(CBLAS_ROW_MAJOR, ta, tb, m, n, k, 1.0f, a, lda,
                               b, ldb, 0.0f, c, ldc);
    return 1;
  }
  if (!fits32(m, n, k, lda, ldb, ldc)) return 0;
  ((sgemm32_fn)g_blas.sgemm)(CBLAS_ROW_MAJOR, ta, tb, (int32_t)m, (int32_t)n,
                             (int32_t)k, 1.0f, a, (int32_t)lda, b,
                             (int32_t)ldb, 0.0f, c, (int32_t)ldc);
  return 1;
}

int tfe_blas_dgemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                   const double* a, int64_t lda, const double* b, int64_t ldb,
                   double* c, int64_t ldc) {
  int ta = trans_a ? CBLAS_TRANS : CBLAS_NO_TRANS;
  int tb = trans_b ? CBLAS_TRANS : CBLAS_NO_TRANS;
  if (!tfe_blas_available()) return 0;
  if (g_blas.int64_api) {
    ((dgemm64_fn)g_blas.dgemm)(CBLAS_ROW_MAJOR, ta, tb, m, n, k, 1.0, a, lda,
                               b, ldb, 0.0, c, ldc);
    return 1;
  }
  if (!fits32(m, n, k, lda, ldb, ldc)) return 0;
  ((dgemm32_fn)g_blas.dgemm)(CBLAS_ROW_MAJOR, ta, tb, (int32_t)m, (int32_t)n,
                             (int32_t)k, 1.0, a, (int32_t)lda, b,
                             (int32_t)ldb, 0.0, c, (int32_t)ldc);
  return 1;
}

static int complex_gemm(void* fn, const void* one, const void* zero,
                        int trans_a, int conj_a, int trans_b, int conj_b,
                        int64_t m, int64_t n, int64_t k, const void* a,
                        int64_t lda, const void* b, int64_t ldb, void* c,
                        int64_t ldc) {
  int ta = trans_a ? (conj_a ? CBLAS_CONJ_TRANS : CBLAS_TRANS) : CBLAS_NO_TRANS;
  int tb = trans_b ? (conj_b ? CBLAS_CONJ_TRANS : CBLAS_TRANS) : CBLAS_NO_TRANS;
  if (!tfe_blas_available() || fn == NULL) return 0;
  if ((conj_a && !trans_a) || (conj_b && !trans_b)) return 0;
  if (g_blas.int64_api) {
    ((cgemm64_fn)fn)(CBLAS_ROW_MAJOR, ta, tb, m, n, k, one, a, lda, b, ldb,
                     zero, c, ldc);
    return 1;
  }
  if (!fits32(m, n, k, lda, ldb, ldc)) return 0;
  ((cgemm32_fn)fn)(CBLAS_ROW_MAJOR, ta, tb, (int32_t)m, (int32_t)n,
                   (int32_t)k, one, a, (int32_t)lda, b, (int32_t)ldb, zero, c,
                   (int32_t)ldc);
  return 1;
}

int tfe_blas_cgemm(int trans_a, int conj_a, int trans_b, int conj_b,
                   int64_t m, int64_t n, int64_t k, const float* a,
                   int64_t lda, const float* b, int64_t ldb, float* c,
                   int64_t ldc) {
  static const float one[2] = {1.0f, 0.0f}, zero[2] = {0.0f, 0.0f};
  if (!tfe_blas_available()) return 0;
  return complex_gemm(g_blas.cgemm, one, zero, trans_a, conj_a, trans_b,
                      conj_b, m, n, k, a, lda, b, ldb, c, ldc);
}

int tfe_blas_zgemm(int trans_a, int conj_a, int trans_b, int conj_b,
                   int64_t m, int64_t n, int64_t k, const double* a,
                   int64_t lda, const double* b, int64_t ldb, double* c,
                   int64_t ldc) {
  static const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
  if (!tfe_blas_available()) return 0;
  return complex_gemm(g_blas.zgemm, one, zero, trans_a, conj_a, trans_b,
                      conj_b, m, n, k, a, lda, b, ldb, c, ldc);
}
