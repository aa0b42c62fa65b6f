/* Reductions along axes: Sum, Mean, Prod, Max, Min, All, Any.
 *
 * Like TensorFlow, the reduced and kept axes are first collapsed into
 * alternating runs (size-1 dims join their neighbour). Two shapes are then
 * computed directly:
 *   rows  [O, R]     -> [O]     each output reduces a contiguous row;
 *   cols  [O, R, I]  -> [O, I]  rows of length I are accumulated.
 * Any other pattern is transposed into rows first.
 *
 * Accuracy and speed: floating-point sums run over blocks with many
 * independent float lanes (the compiler turns them into SIMD registers),
 * each block is combined as a tree, and block results are added in double
 * (per chunk of RCHUNK elements, chunk results then in order, in double).
 * That is about as accurate as TF's tree reduction and is limited by memory
 * bandwidth. Inputs of 1 MiB and more are split over the intra-op pool
 * (see reduce_run) in ways that never change the order of any float
 * operation, so every result is the same bits for any number of threads. 16-bit floats are accumulated in float, complex numbers in
 * double, integer sums/products wrap in 64 bits and are truncated (the same
 * low bits as wrapping in the narrow type); integer Mean divides the 64-bit
 * sum, as TF does for 8/16/32-bit types. Max/Min propagate NaN.
 * Empty reductions give the identity: Sum 0, Prod 1, Max lowest (-inf for
 * floats), Min highest (+inf), Mean NaN for floats (0 for integers), All
 * true, Any false. */
#if defined(__GNUC__) && !defined(__clang__)
/* Hot loops rely on the loop vectorizer at full strength (GCC's -O2 only
 * vectorizes very cheap loops), whatever the build type. */
#pragma GCC optimize("O3")
#endif

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/threadpool.h"
#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"

enum { R_SUM, R_MEAN, R_PROD, R_MAX, R_MIN, R_ALL, R_ANY };

#define LANES 32
#define BLOCK 2048
/* Elements per chunk of a row reduction (a multiple of BLOCK). */
#define RCHUNK 65536

/* ================================================== floating point */

static inline float ld_f32(const float* p) { return *p; }
static inline double ld_f64(const double* p) { return *p; }
static inline float ld_f16(const uint16_t* p) { return kutil_f16_to_f32(*p); }
static inline float ld_bf16(const uint16_t* p) { return kutil_bf16_to_f32(*p); }

/* A float rounded to the element type (16-bit floats; identity else). */
static inline float rnd_f32(float v) { return v; }
static inline double rnd_f64(double v) { return v; }
static inline float rnd_f16(float v) {
  return kutil_f16_to_f32(kutil_f32_to_f16(v));
}
static inline float rnd_bf16(float v) {
  return kutil_bf16_to_f32(kutil_f32_to_bf16(v));
}

/* Folds the partial result p of one chunk into acc (in chunk order). */
static double float_fold(int op, double acc, double p) {
  switch (op) {
    case R_SUM:
    case R_MEAN: return acc + p;
    case R_PROD: return acc * p;
    case R_MAX: return acc != acc ? acc : ((p > acc) | (p != p)) ? p : acc;
    default: return acc != acc ? acc : ((p < acc) | (p != p)) ? p : acc;
  }
}

/* W: lane type (float for 32/16-bit floats, double for double). */
#define DEF_FLOAT_PRIMS(S, T, W, LOAD)                                        \
  KUTIL_CLONES static double csum_##S(const T* x, int64_t n) {                \
    double total = 0;                                                         \
    int64_t i = 0;                                                            \
    int j, b, s;                                                              \
    if (n < 8) {                                                              \
      /* fewer elements than one vector: TF adds them in order, in the     \
       * element type (16-bit floats round after every addition); so do  \
       * we, for the same rounding */                                        \
      W seq = 0;                                                              \
      for (; i < n; i++) seq = rnd_##S(seq + LOAD(x + i));                    \
      return (double)seq;                                                     \
    }                                                                         \
    while (n - i >= BLOCK) {                                                  \
      W acc[LANES];                                                           \
      for (j = 0; j < LANES; j++) acc[j] = 0;                                 \
      for (b = 0; b < BLOCK; b += LANES) {                                    \
        for (j = 0; j < LANES; j++) acc[j] += LOAD(x + i + b + j);            \
      }                                                                       \
      for (s = LANES / 2; s > 0; s >>= 1) {                                   \
        for (j = 0; j < s; j++) acc[j] += acc[j + s];                         \
      }                                                                       \
      total += (double)acc[0];                                                \
      i += BLOCK;                                                             \
    }                                                                         \
    {                                                                         \
      W acc[LANES];                                                           \
      for (j = 0; j < LANES; j++) acc[j] = 0;                                 \
      for (; n - i >= LANES; i += LANES) {                                    \
        for (j = 0; j < LANES; j++) acc[j] += LOAD(x + i + j);                \
      }                                                                       \
      for (j = 0; i < n; i++, j++) acc[j] += LOAD(x + i);                     \
      for (s = LANES / 2; s > 0; s >>= 1) {                                   \
        for (j = 0; j < s; j++) acc[j] += acc[j + s];                         \
      }                                                                       \
      total += (double)acc[0];                                                \
    }                                                                         \
    return total;                                                             \
  }                                                                           \
  static double cprod_##S(const T* x, int64_t n) {                            \
    W acc[LANES];                                                             \
    int64_t i = 0;                                                            \
    int j, s;                                                                 \
    for (j = 0; j < LANES; j++) acc[j] = 1;                                   \
    for (; n - i >= LANES; i += LANES) {                                      \
      for (j = 0; j < LANES; j++) acc[j] *= LOAD(x + i + j);                  \
    }                                                                         \
    for (j = 0; i < n; i++, j++) acc[j] *= LOAD(x + i);                       \
    for (s = LANES / 2; s > 0; s >>= 1) {                                     \
      for (j = 0; j < s; j++) acc[j] *= acc[j + s];                           \
    }                                                                         \
    return (double)acc[0];                                                    \
  }                                                                           \
  /* max (is_max) or min; NaN if any element is NaN (NaNs are kept in      \
   * separate lanes so that the max/min itself vectorizes plainly) */        \
  KUTIL_CLONES static double cext_##S(const T* x, int64_t n, int is_max) {    \
    W m[LANES], q[LANES];                                                     \
    int64_t i = 0;                                                            \
    int j;                                                                    \
    W r;                                                                      \
    if (is_max) {                                                             \
      for (j = 0; j < LANES; j++) m[j] = (W)-INFINITY;                        \
      for (j = 0; j < LANES; j++) q[j] = 0;                                   \
      for (; n - i >= LANES; i += LANES) {                                    \
        for (j = 0; j < LANES; j++) {                                         \
          W v = LOAD(x + i + j);                                              \
          m[j] = v > m[j] ? v : m[j];                                         \
          q[j] = v != v ? v : q[j];                                           \
        }                                                                     \
      }                                                                       \
      for (j = 0; j < LANES; j++) {                                           \
        if (q[j] != q[j]) return (double)q[j];                                \
      }                                                                       \
      for (; i < n; i++) {                                                    \
        W v = LOAD(x + i);                                                    \
        m[0] = ((v > m[0]) | (v != v)) ? v : m[0];                            \
      }                                                                       \
      r = m[0];                                                               \
      for (j = 1; j < LANES; j++) r = ((m[j] > r) | (m[j] != m[j])) ? m[j] : r; \
    } else {                                                                  \
      for (j = 0; j < LANES; j++) m[j] = (W)INFINITY;                         \
      for (j = 0; j < LANES; j++) q[j] = 0;                                   \
      for (; n - i >= LANES; i += LANES) {                                    \
        for (j = 0; j < LANES; j++) {                                         \
          W v = LOAD(x + i + j);                                              \
          m[j] = v < m[j] ? v : m[j];                                         \
          q[j] = v != v ? v : q[j];                                           \
        }                                                                     \
      }                                                                       \
      for (j = 0; j < LANES; j++) {                                           \
        if (q[j] != q[j]) return (double)q[j];                                \
      }                                                                       \
      for (; i < n; i++) {                                                    \
        W v = LOAD(x + i);                                                    \
        m[0] = ((v < m[0]) | (v != v)) ? v : m[0];                            \
      }                                                                       \
      r = m[0];                                                               \
      for (j = 1; j < LANES; j++) r = ((m[j] < r) | (m[j] != m[j])) ? m[j] : r; \
    }                                                                         \
    return (double)r;                                                         \
  }                                                                           \
  /* accumulate R rows of length I into acc (double). Sums run in W lanes \
   * over tiles of 16 rows x 512 columns before reaching acc.  */           \
  KUTIL_CLONES static void cols_##S(const T* x, int64_t R, int64_t I,         \
                                    int64_t ld, double* acc, int op) {        \
    int64_t r, j;                                                             \
    if (op == R_SUM || op == R_MEAN) {                                        \
      int64_t j0, r0;                                                         \
      W blk[512];                                                             \
      for (j0 = 0; j0 < I; j0 += 512) {                                       \
        int64_t jn = I - j0 < 512 ? I - j0 : 512;                             \
        for (r0 = 0; r0 < R; r0 += 16) {                                      \
          int64_t rn = R - r0 < 16 ? R - r0 : 16;                             \
          for (j = 0; j < jn; j++) blk[j] = 0;                                \
          for (r = 0; r < rn; r++) {                                          \
            const T* row = x + (r0 + r) * ld + j0;                            \
            for (j = 0; j < jn; j++) blk[j] += LOAD(row + j);                 \
          }                                                                   \
          for (j = 0; j < jn; j++) acc[j0 + j] += (double)blk[j];             \
        }                                                                     \
      }                                                                       \
      return;                                                                 \
    }                                                                         \
    if (op == R_MAX || op == R_MIN) {                                         \
      /* tiles of 512 columns over all rows in W lanes; NaNs kept apart */    \
      int64_t j0;                                                             \
      const int is_max = op == R_MAX;                                         \
      W blk[512], q[512];                                                     \
      for (j0 = 0; j0 < I; j0 += 512) {                                       \
        int64_t jn = I - j0 < 512 ? I - j0 : 512;                             \
        for (j = 0; j < jn; j++) {                                            \
          blk[j] = is_max ? (W)-INFINITY : (W)INFINITY;                       \
          q[j] = 0;                                                           \
        }                                                                     \
        for (r = 0; r < R; r++) {                                             \
          const T* row = x + r * ld + j0;                                     \
          if (is_max) {                                                       \
            for (j = 0; j < jn; j++) {                                        \
              W v = LOAD(row + j);                                            \
              blk[j] = v > blk[j] ? v : blk[j];                               \
              q[j] = v != v ? v : q[j];                                       \
            }                                                                 \
          } else {                                                            \
            for (j = 0; j < jn; j++) {                                        \
              W v = LOAD(row + j);                                            \
              blk[j] = v < blk[j] ? v : blk[j];                               \
              q[j] = v != v ? v : q[j];                                       \
            }                                                                 \
          }                                                                   \
        }                                                                     \
        for (j = 0; j < jn; j++) {                                            \
          acc[j0 + j] = q[j] != q[j] ? (double)q[j]                           \
                                     : float_fold(op, acc[j0 + j],            \
                                                  (double)blk[j]);            \
        }                                                                     \
      }                                                                       \
      return;                                                                 \
    }                                                                         \
    for (r = 0; r < R; r++) {                                                 \
      const T* row = x + r * ld;                                              \
      switch (op) {                                                           \
        case R_PROD:                                                          \
          for (j = 0; j < I; j++) acc[j] *= (double)LOAD(row + j);            \
          break;                                                              \
        case R_MAX:                                                           \
          for (j = 0; j < I; j++) {                                           \
            double v = (double)LOAD(row + j);                                 \
            acc[j] = ((v > acc[j]) | (v != v)) ? v : acc[j];                  \
          }                                                                   \
          break;                                                              \
        default:                                                              \
          for (j = 0; j < I; j++) {                                           \
            double v = (double)LOAD(row + j);                                 \
            acc[j] = ((v < acc[j]) | (v != v)) ? v : acc[j];                  \
          }                                                                   \
          break;                                                              \
      }                                                                       \
    }                                                                         \
  }

DEF_FLOAT_PRIMS(f32, float, float, ld_f32)
DEF_FLOAT_PRIMS(f64, double, double, ld_f64)
DEF_FLOAT_PRIMS(f16, uint16_t, float, ld_f16)
DEF_FLOAT_PRIMS(bf16, uint16_t, float, ld_bf16)

static inline void st_f32(float* p, double v) { *p = (float)v; }
static inline void st_f64(double* p, double v) { *p = v; }
static inline void st_f16(uint16_t* p, double v) {
  *p = kutil_f32_to_f16((float)v);
}
static inline void st_bf16(uint16_t* p, double v) {
  *p = kutil_f32_to_bf16((float)v);
}

static double float_identity(int op) {
  switch (op) {
    case R_PROD: return 1.0;
    case R_MAX: return -INFINITY;
    case R_MIN: return INFINITY;
    case R_MEAN: return NAN;
    default: return 0.0;
  }
}

/* x[o][r][j] is at x + (o*R + r)*ld + j (ld >= I); y[o][j] at y + o*I + j.
 * A row reduction (I == 1, ld == 1) is cut into chunks of RCHUNK elements
 * whose partial results are folded in order (in double), the same way
 * whether the chunks run inline or on several threads. */
#define DEF_FLOAT_DRIVER(S, T, STORE)                                         \
  static double fpart_##S(int op, const T* x, int64_t n) {                    \
    switch (op) {                                                             \
      case R_SUM:                                                             \
      case R_MEAN: return csum_##S(x, n);                                     \
      case R_PROD: return cprod_##S(x, n);                                    \
      case R_MAX: return cext_##S(x, n, 1);                                   \
      default: return cext_##S(x, n, 0);                                      \
    }                                                                         \
  }                                                                           \
  static void ffin_##S(int op, const double* parts, int64_t np, int64_t R,    \
                       T* y) {                                                \
    double acc = op == R_MEAN ? 0.0 : float_identity(op);                     \
    int64_t i;                                                                \
    for (i = 0; i < np; i++) acc = float_fold(op, acc, parts[i]);             \
    STORE(y, op == R_MEAN ? acc / (double)R : acc);                           \
  }                                                                           \
  static int drv_##S(int op, const T* x, int64_t O, int64_t R, int64_t I,     \
                     int64_t ld, T* y) {                                      \
    int64_t o, j;                                                             \
    if (R == 0) {                                                             \
      double v = float_identity(op);                                          \
      for (o = 0; o < O * I; o++) STORE(y + o, v);                            \
      return 1;                                                               \
    }                                                                         \
    if (I == 1) {                                                             \
      for (o = 0; o < O; o++) {                                               \
        const T* row = x + o * R;                                             \
        double acc = op == R_MEAN ? 0.0 : float_identity(op);                 \
        int64_t c;                                                            \
        for (c = 0; c < R; c += RCHUNK) {                                     \
          acc = float_fold(op, acc,                                           \
                           fpart_##S(op, row + c,                             \
                                     R - c < RCHUNK ? R - c : RCHUNK));       \
        }                                                                     \
        STORE(y + o, op == R_MEAN ? acc / (double)R : acc);                   \
      }                                                                       \
      return 1;                                                               \
    }                                                                         \
    {                                                                         \
      double* acc = (double*)tfe_malloc(sizeof(double) * (size_t)I);          \
      if (acc == NULL) return 0;                                              \
      for (o = 0; o < O; o++) {                                               \
        double init = op == R_MEAN ? 0.0 : float_identity(op);                \
        for (j = 0; j < I; j++) acc[j] = init;                                \
        cols_##S(x + o * R * ld, R, I, ld, acc, op);                          \
        for (j = 0; j < I; j++) {                                             \
          STORE(y + o * I + j, op == R_MEAN ? acc[j] / (double)R : acc[j]);   \
        }                                                                     \
      }                                                                       \
      tfe_free(acc);                                                          \
    }                                                                         \
    return 1;                                                                 \
  }

DEF_FLOAT_DRIVER(f32, float, st_f32)
DEF_FLOAT_DRIVER(f64, double, st_f64)
DEF_FLOAT_DRIVER(f16, uint16_t, st_f16)
DEF_FLOAT_DRIVER(bf16, uint16_t, st_bf16)

/* ============================================================ integers */

/* A: accumulator type for max/min (int64_t or uint64_t). Sums and
 * products wrap in uint64_t. */
#define DEF_INT_DRIVER(S, T, A, SIGNED, LOWEST, HIGHEST)                              \
  KUTIL_CLONES static uint64_t isum_##S(const T* x, int64_t n) {              \
    uint64_t acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};                               \
    int64_t i = 0;                                                            \
    int j;                                                                    \
    for (; n - i >= 8; i += 8) {                                              \
      for (j = 0; j < 8; j++) acc[j] += (uint64_t)(A)x[i + j];                \
    }                                                                         \
    for (; i < n; i++) acc[0] += (uint64_t)(A)x[i];                           \
    return acc[0] + acc[1] + acc[2] + acc[3] + acc[4] + acc[5] + acc[6] +     \
           acc[7];                                                            \
  }                                                                           \
  static uint64_t iprod_##S(const T* x, int64_t n) {                          \
    uint64_t p = 1;                                                           \
    int64_t i;                                                                \
    for (i = 0; i < n; i++) p *= (uint64_t)(A)x[i];                           \
    return p;                                                                 \
  }                                                                           \
  KUTIL_CLONES static A iext_##S(const T* x, int64_t n, int is_max) {         \
    A m[8];                                                                   \
    int64_t i = 0;                                                            \
    int j;                                                                    \
    A r;                                                                      \
    for (j = 0; j < 8; j++) m[j] = is_max ? (A)(LOWEST) : (A)(HIGHEST);       \
    if (is_max) {                                                             \
      for (; n - i >= 8; i += 8)                                              \
        for (j = 0; j < 8; j++) m[j] = (A)x[i + j] > m[j] ? (A)x[i + j] : m[j]; \
      for (; i < n; i++) m[0] = (A)x[i] > m[0] ? (A)x[i] : m[0];              \
      r = m[0];                                                               \
      for (j = 1; j < 8; j++) r = m[j] > r ? m[j] : r;                        \
    } else {                                                                  \
      for (; n - i >= 8; i += 8)                                              \
        for (j = 0; j < 8; j++) m[j] = (A)x[i + j] < m[j] ? (A)x[i + j] : m[j]; \
      for (; i < n; i++) m[0] = (A)x[i] < m[0] ? (A)x[i] : m[0];              \
      r = m[0];                                                               \
      for (j = 1; j < 8; j++) r = m[j] < r ? m[j] : r;                        \
    }                                                                         \
    return r;                                                                 \
  }                                                                           \
  /* finishes a sum/prod/mean accumulator as T */                             \
  static T ifin_##S(int op, uint64_t acc, int64_t R) {                        \
    if (op == R_MEAN) {                                                       \
      if (R == 0) return (T)0;                                                \
      if (SIGNED) return (T)(A)((int64_t)acc / R);                    \
      return (T)(acc / (uint64_t)R);                                          \
    }                                                                         \
    return (T)(A)acc;                                                         \
  }                                                                           \
  static uint64_t ipart_##S(int op, const T* x, int64_t n) {                  \
    switch (op) {                                                             \
      case R_PROD: return iprod_##S(x, n);                                    \
      case R_MAX: return (uint64_t)iext_##S(x, n, 1);                         \
      case R_MIN: return (uint64_t)iext_##S(x, n, 0);                         \
      default: return isum_##S(x, n);                                         \
    }                                                                         \
  }                                                                           \
  /* folds chunk partials (exact: the order does not matter) */               \
  static void ifinal_##S(int op, const uint64_t* parts, int64_t np,           \
                         int64_t R, T* y) {                                   \
    int64_t i;                                                                \
    if (op == R_MAX || op == R_MIN) {                                         \
      A m = (A)parts[0];                                                      \
      for (i = 1; i < np; i++) {                                              \
        A v = (A)parts[i];                                                    \
        if (op == R_MAX ? v > m : v < m) m = v;                               \
      }                                                                       \
      *y = (T)m;                                                              \
    } else {                                                                  \
      uint64_t acc = op == R_PROD ? 1u : 0u;                                  \
      for (i = 0; i < np; i++) {                                              \
        if (op == R_PROD) {                                                   \
          acc *= parts[i];                                                    \
        } else {                                                              \
          acc += parts[i];                                                    \
        }                                                                     \
      }                                                                       \
      *y = ifin_##S(op, acc, R);                                              \
    }                                                                         \
  }                                                                           \
  static int drv_##S(int op, const T* x, int64_t O, int64_t R, int64_t I,     \
                     int64_t ld, T* y) {                                      \
    int64_t o, j, r;                                                          \
    if (op == R_MAX || op == R_MIN) {                                         \
      int is_max = op == R_MAX;                                               \
      if (I == 1) {                                                           \
        for (o = 0; o < O; o++) y[o] = (T)iext_##S(x + o * R, R, is_max);     \
        return 1;                                                             \
      }                                                                       \
      for (o = 0; o < O; o++) {                                               \
        T* yo = y + o * I;                                                    \
        for (j = 0; j < I; j++) yo[j] = is_max ? (T)(LOWEST) : (T)(HIGHEST);  \
        for (r = 0; r < R; r++) {                                             \
          const T* row = x + (o * R + r) * ld;                                \
          if (is_max) {                                                       \
            for (j = 0; j < I; j++) yo[j] = row[j] > yo[j] ? row[j] : yo[j];  \
          } else {                                                            \
            for (j = 0; j < I; j++) yo[j] = row[j] < yo[j] ? row[j] : yo[j];  \
          }                                                                   \
        }                                                                     \
      }                                                                       \
      return 1;                                                               \
    }                                                                         \
    if (I == 1) {                                                             \
      for (o = 0; o < O; o++) {                                               \
        uint64_t acc = op == R_PROD ? iprod_##S(x + o * R, R)                 \
                                    : isum_##S(x + o * R, R);                 \
        y[o] = ifin_##S(op, acc, R);                                          \
      }                                                                       \
      return 1;                                                               \
    }                                                                         \
    {                                                                         \
      uint64_t* acc = (uint64_t*)tfe_malloc(sizeof(uint64_t) * (size_t)I);    \
      if (acc == NULL) return 0;                                              \
      for (o = 0; o < O; o++) {                                               \
        for (j = 0; j < I; j++) acc[j] = op == R_PROD ? 1u : 0u;              \
        for (r = 0; r < R; r++) {                                             \
          const T* row = x + (o * R + r) * ld;                                \
          if (op == R_PROD) {                                                 \
            for (j = 0; j < I; j++) acc[j] *= (uint64_t)(A)row[j];            \
          } else {                                                            \
            for (j = 0; j < I; j++) acc[j] += (uint64_t)(A)row[j];            \
          }                                                                   \
        }                                                                     \
        for (j = 0; j < I; j++) y[o * I + j] = ifin_##S(op, acc[j], R);       \
      }                                                                       \
      tfe_free(acc);                                                          \
    }                                                                         \
    return 1;                                                                 \
  }

DEF_INT_DRIVER(i8, int8_t, int64_t, 1, INT8_MIN, INT8_MAX)
DEF_INT_DRIVER(i16, int16_t, int64_t, 1, INT16_MIN, INT16_MAX)
DEF_INT_DRIVER(i32, int32_t, int64_t, 1, INT32_MIN, INT32_MAX)
DEF_INT_DRIVER(i64, int64_t, int64_t, 1, INT64_MIN, INT64_MAX)
DEF_INT_DRIVER(u8, uint8_t, uint64_t, 0, 0, UINT8_MAX)
DEF_INT_DRIVER(u16, uint16_t, uint64_t, 0, 0, UINT16_MAX)
DEF_INT_DRIVER(u32, uint32_t, uint64_t, 0, 0, UINT32_MAX)
DEF_INT_DRIVER(u64, uint64_t, uint64_t, 0, 0, UINT64_MAX)

/* ============================================================= complex */

#define DEF_COMPLEX_DRIVER(S, T)                                              \
  static int drv_##S(int op, const T* x, int64_t O, int64_t R, int64_t I,     \
                     int64_t ld, T* y) {                                      \
    int64_t o, j, r;                                                          \
    for (o = 0; o < O; o++) {                                                 \
      for (j = 0; j < I; j++) {                                               \
        double re = op == R_PROD ? 1.0 : 0.0, im = 0.0;                       \
        for (r = 0; r < R; r++) {                                             \
          const T* e = x + 2 * ((o * R + r) * ld + j);                        \
          double a = (double)e[0], b = (double)e[1];                          \
          if (op == R_PROD) {                                                 \
            double nre = re * a - im * b;                                     \
            im = re * b + im * a;                                             \
            re = nre;                                                         \
          } else {                                                            \
            re += a;                                                          \
            im += b;                                                          \
          }                                                                   \
        }                                                                     \
        if (op == R_MEAN && R > 0) {                                          \
          re /= (double)R;                                                    \
          im /= (double)R;                                                    \
        }                                                                     \
        y[2 * (o * I + j)] = (T)re;                                           \
        y[2 * (o * I + j) + 1] = (T)im;                                       \
      }                                                                       \
    }                                                                         \
    return 1;                                                                 \
  }

DEF_COMPLEX_DRIVER(c64, float)
DEF_COMPLEX_DRIVER(c128, double)

/* ================================================================ bool */

/* 1 when every byte of x[0..n) is nonzero (All) or any is (Any). */
static int bpart(int op, const unsigned char* x, int64_t n) {
  if (op == R_ALL) return n <= 0 || memchr(x, 0, (size_t)n) == NULL;
  {
    int64_t i = 0;
    while (i < n) {
      /* OR blocks of 256 bytes (vectorized), stopping at the first hit */
      int64_t e = n - i < 256 ? n : i + 256;
      unsigned char acc = 0;
      for (; i < e; i++) acc = (unsigned char)(acc | x[i]);
      if (acc) return 1;
    }
    return 0;
  }
}

static int drv_bool(int op, const unsigned char* x, int64_t O, int64_t R,
                    int64_t I, int64_t ld, unsigned char* y) {
  int64_t o, j, r;
  int all = op == R_ALL;
  if (I == 1) {
    for (o = 0; o < O; o++) y[o] = (unsigned char)bpart(op, x + o * R, R);
    return 1;
  }
  for (o = 0; o < O; o++) {
    int64_t j0;
    /* tiles of 1024 columns: hit[j] = some row is false (All) / true (Any) */
    for (j0 = 0; j0 < I; j0 += 1024) {
      const int64_t jn = I - j0 < 1024 ? I - j0 : 1024;
      unsigned char hit[1024];
      memset(hit, 0, (size_t)jn);
      for (r = 0; r < R; r++) {
        const unsigned char* row = x + (o * R + r) * ld + j0;
        if (all) {
          for (j = 0; j < jn; j++) hit[j] = (unsigned char)(hit[j] | (row[j] == 0));
        } else {
          for (j = 0; j < jn; j++) hit[j] = (unsigned char)(hit[j] | (row[j] != 0));
        }
      }
      for (j = 0; j < jn; j++) {
        y[o * I + j0 + j] = (unsigned char)(all ? !hit[j] : hit[j]);
      }
    }
  }
  return 1;
}

/* ============================================================== driver */

#define RT_FLOATS(X)                                                          \
  X(TF_FLOAT, f32, float)                                                     \
  X(TF_DOUBLE, f64, double)                                                   \
  X(TF_HALF, f16, uint16_t)                                                   \
  X(TF_BFLOAT16, bf16, uint16_t)
#define RT_INTS(X)                                                            \
  X(TF_INT8, i8, int8_t)                                                      \
  X(TF_INT16, i16, int16_t)                                                   \
  X(TF_INT32, i32, int32_t)                                                   \
  X(TF_INT64, i64, int64_t)                                                   \
  X(TF_UINT8, u8, uint8_t)                                                    \
  X(TF_UINT16, u16, uint16_t)                                                 \
  X(TF_UINT32, u32, uint32_t)                                                 \
  X(TF_UINT64, u64, uint64_t)

/* x[o][r][j] at x + (o*R + r)*ld + j, y[o][j] at y + o*I + j. Returns 1,
 * 0 when out of memory, -1 for an unsupported dtype. */
static int run_typed(int op, TF_DataType dt, const void* x, int64_t O,
                     int64_t R, int64_t I, int64_t ld, void* y) {
  switch (dt) {
#define RT_CALL(DT, S, T) \
  case DT: return drv_##S(op, (const T*)x, O, R, I, ld, (T*)y);
    RT_FLOATS(RT_CALL)
    RT_INTS(RT_CALL)
#undef RT_CALL
    case TF_COMPLEX64:
      return drv_c64(op, (const float*)x, O, R, I, ld, (float*)y);
    case TF_COMPLEX128:
      return drv_c128(op, (const double*)x, O, R, I, ld, (double*)y);
    case TF_BOOL:
      return drv_bool(op, (const unsigned char*)x, O, R, I, ld,
                      (unsigned char*)y);
    default: return -1;
  }
}

/* Partial result of the chunk x[0..n) into parts[idx] (double for floats,
 * uint64_t for integers and bool). */
static void part_typed(int op, TF_DataType dt, const void* x, int64_t n,
                       void* parts, int64_t idx) {
  switch (dt) {
#define RT_FP(DT, S, T) \
  case DT: ((double*)parts)[idx] = fpart_##S(op, (const T*)x, n); return;
#define RT_IP(DT, S, T) \
  case DT: ((uint64_t*)parts)[idx] = ipart_##S(op, (const T*)x, n); return;
    RT_FLOATS(RT_FP)
    RT_INTS(RT_IP)
#undef RT_FP
#undef RT_IP
    case TF_BOOL:
      ((uint64_t*)parts)[idx] = (uint64_t)bpart(op, (const unsigned char*)x, n);
      return;
    default: return;
  }
}

/* Folds np chunk partials of one row of R elements into *y. */
static void final_typed(int op, TF_DataType dt, const void* parts, int64_t np,
                        int64_t R, void* y) {
  switch (dt) {
#define RT_FF(DT, S, T) \
  case DT: ffin_##S(op, (const double*)parts, np, R, (T*)y); return;
#define RT_IF(DT, S, T) \
  case DT: ifinal_##S(op, (const uint64_t*)parts, np, R, (T*)y); return;
    RT_FLOATS(RT_FF)
    RT_INTS(RT_IF)
#undef RT_FF
#undef RT_IF
    case TF_BOOL: {
      const uint64_t* p = (const uint64_t*)parts;
      int64_t i;
      int v = op == R_ALL;
      for (i = 0; i < np; i++) v = op == R_ALL ? (v && p[i]) : (v || p[i]);
      *(unsigned char*)y = (unsigned char)v;
      return;
    }
    default: return;
  }
}

/* ---- splitting over the intra-op pool ----
 * Inputs of at least RPAR_MIN_BYTES are split three ways, each giving
 * bit-identical results whatever the number of threads:
 *   rows    O >= 2 x threads: ranges of whole outputs;
 *   columns I > 1: (output row, block of >= 64 columns and >= 1 KiB)
 *           pairs; each column is
 *           summed in the same order as inline;
 *   chunks  I == 1: (output, RCHUNK-element chunk) pairs whose partials
 *           are folded in order afterwards, exactly as the inline row
 *           reduction folds them.
 * Complex numbers stay inline. */
#define RPAR_MIN_BYTES (1 << 20)
#define RPAR_GRAIN 65536 /* elements per rows chunk, at least */

enum { RP_ROWS, RP_COLS, RP_CHUNKS };

typedef struct red_job {
  int op, mode;
  TF_DataType dt;
  size_t esz;
  const char* x;
  char* y;
  int64_t O, R, I, span, nsub;
  void* parts;
  int failed; /* set (racily, only ever to 1) when a part fails */
} red_job;

static void red_items(void* arg, int64_t t0, int64_t t1) {
  red_job* j = (red_job*)arg;
  int64_t t;
  if (j->mode == RP_ROWS) {
    if (run_typed(j->op, j->dt, j->x + (size_t)(t0 * j->R * j->I) * j->esz,
                  t1 - t0, j->R, j->I, j->I,
                  j->y + (size_t)(t0 * j->I) * j->esz) != 1) {
      j->failed = 1;
    }
    return;
  }
  for (t = t0; t < t1; t++) {
    const int64_t o = t / j->nsub, b = (t % j->nsub) * j->span;
    const int64_t lim = j->mode == RP_COLS ? j->I : j->R;
    const int64_t len = lim - b < j->span ? lim - b : j->span;
    if (j->mode == RP_COLS) {
      if (run_typed(j->op, j->dt, j->x + (size_t)(o * j->R * j->I + b) * j->esz,
                    1, j->R, len, j->I,
                    j->y + (size_t)(o * j->I + b) * j->esz) != 1) {
        j->failed = 1;
      }
    } else {
      part_typed(j->op, j->dt, j->x + (size_t)(o * j->R + b) * j->esz, len,
                 j->parts, t);
    }
  }
}

/* run_typed for a dense [O, R, I] input, on the pool when it is large. */
static int reduce_run(tfe_kernel_context* k, int op, TF_DataType dt,
                      size_t esz, const void* x, int64_t O, int64_t R,
                      int64_t I, void* y) {
  tfe_threadpool* pool;
  red_job j;
  int64_t nt, o;
  if (dt == TF_COMPLEX64 || dt == TF_COMPLEX128 || R <= 1 ||
      (double)O * (double)R * (double)I * (double)esz < RPAR_MIN_BYTES) {
    return run_typed(op, dt, x, O, R, I, I, y);
  }
  pool = tfe_kernel_threadpool(k);
  nt = tfe_threadpool_size(pool);
  if (nt <= 1) return run_typed(op, dt, x, O, R, I, I, y);
  memset(&j, 0, sizeof j);
  j.op = op;
  j.dt = dt;
  j.esz = esz;
  j.x = (const char*)x;
  j.y = (char*)y;
  j.O = O;
  j.R = R;
  j.I = I;
  if (O >= 2 * nt) {
    int64_t grain = RPAR_GRAIN / (R * I);
    j.mode = RP_ROWS;
    tfe_parallel_for(pool, O, grain < 1 ? 1 : grain, red_items, &j);
    return j.failed ? 0 : 1;
  }
  if (I > 1) {
    /* about 4 blocks per thread, at least 64 columns each */
    int64_t nsub = (4 * nt + O - 1) / O;
    j.span = (I + nsub - 1) / nsub;
    j.span = (j.span + 63) / 64 * 64;
    if (j.span * (int64_t)esz < 1024) j.span = 1024 / (int64_t)esz;
    j.nsub = (I + j.span - 1) / j.span;
    if (O * j.nsub < 2) return run_typed(op, dt, x, O, R, I, I, y);
    j.mode = RP_COLS;
    tfe_parallel_for(pool, O * j.nsub, 1, red_items, &j);
    return j.failed ? 0 : 1;
  }
  if (R <= RCHUNK) return run_typed(op, dt, x, O, R, I, I, y);
  j.mode = RP_CHUNKS;
  j.span = RCHUNK;
  j.nsub = (R + RCHUNK - 1) / RCHUNK;
  j.parts = tfe_malloc(sizeof(uint64_t) * (size_t)(O * j.nsub));
  if (j.parts == NULL) return 0;
  tfe_parallel_for(pool, O * j.nsub, 1, red_items, &j);
  for (o = 0; o < O; o++) {
    final_typed(op, dt, (const char*)j.parts + (size_t)(o * j.nsub) * 8,
                j.nsub, R, (char*)y + (size_t)o * esz);
  }
  tfe_free(j.parts);
  return 1;
}

static void reduce_compute(tfe_kernel_context* k, int op) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* axes = k->inputs[1];
  int keep = kutil_attr_bool(k, "keep_dims", 0);
  int nd = x->num_dims, i, out_nd = 0, nruns = 0, reduce_first = 0;
  unsigned char bitmap[TFE_MAX_DIMS];
  int64_t out_dims[TFE_MAX_DIMS], runs[TFE_MAX_DIMS];
  int64_t naxes = kutil_num_elements(axes), a;
  TF_Tensor* y;
  size_t esz = kutil_esize(x->dtype);
  int rc;

  memset(bitmap, 0, sizeof bitmap);
  for (a = 0; a < naxes; a++) {
    int64_t idx = kutil_get_int(axes, a);
    if (idx < -nd || idx >= nd) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Invalid reduction dimension (%lld for input with %d "
                 "dimension(s)",
                 (long long)idx, nd);
      return;
    }
    idx = (idx + nd) % nd;
    if (bitmap[idx]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Invalid reduction arguments: Axes contains duplicate "
                 "dimension: %lld",
                 (long long)idx);
      return;
    }
    bitmap[idx] = 1;
  }
  for (i = 0; i < nd; i++) {
    if (!bitmap[i]) {
      out_dims[out_nd++] = x->dims[i];
    } else if (keep) {
      out_dims[out_nd++] = 1;
    }
  }
  /* Collapse into alternating runs, skipping leading 1s; size-1 dims join
   * the current run. */
  for (i = 0; i < nd && x->dims[i] == 1; i++) {
  }
  /* An empty input may have dims whose products overflow: it skips the
   * runs and reduces zero elements into each output element below. */
  if (i < nd && kutil_num_elements(x) > 0) {
    int prev;
    reduce_first = bitmap[i];
    runs[nruns++] = x->dims[i];
    prev = bitmap[i];
    for (i = i + 1; i < nd; i++) {
      int cur = x->dims[i] == 1 ? prev : bitmap[i];
      if (cur != prev) {
        runs[nruns++] = x->dims[i];
      } else {
        runs[nruns - 1] *= x->dims[i];
      }
      prev = cur;
    }
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, out_dims, out_nd);
  if (y == NULL) return;
  if (kutil_num_elements(x) == 0) {
    int64_t ny = kutil_num_elements(y);
    if (ny > 0) {
      rc = reduce_run(k, op, x->dtype, esz, kutil_data(x), ny, 0, 1,
                      kutil_data(y));
      if (rc < 0) {
        KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Reduction %s not supported for %s",
                   k->op_def != NULL ? k->op_def->name : "?",
                   tfe_dtype_enum_name(x->dtype));
      } else if (rc == 0) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in reduction");
      }
    }
    return;
  }
  if (nruns == 0 || (nruns == 1 && !reduce_first)) {
    /* Nothing is reduced (every reduced dim has size 1). */
    kutil_copy(x->dtype, kutil_data(y), kutil_data(x), kutil_num_elements(x));
    return;
  }
  if (kutil_num_elements(y) == 0) return;
  {
    const void* src = kutil_data(x);
    void* tmp = NULL;
    int64_t O = 1, R = 1, I = 1;
    if (nruns == 1) {
      R = runs[0];
    } else if (nruns == 2 && !reduce_first) {
      O = runs[0];
      R = runs[1];
    } else if (nruns == 2 && reduce_first) {
      R = runs[0];
      I = runs[1];
    } else if (nruns == 3 && !reduce_first) {
      O = runs[0];
      R = runs[1];
      I = runs[2];
    } else {
      /* Move the reduced runs last, then reduce rows. */
      int perm[TFE_MAX_DIMS], np = 0;
      int64_t total = kutil_num_elements(x);
      for (i = reduce_first ? 1 : 0; i < nruns; i += 2) {
        perm[np++] = i;
        O *= runs[i];
      }
      for (i = reduce_first ? 0 : 1; i < nruns; i += 2) {
        perm[np++] = i;
        R *= runs[i];
      }
      if (total > 0) tmp = tfe_malloc((size_t)total * esz);
      if (total > 0 && tmp == NULL) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in reduction");
        return;
      }
      if (total > 0) {
        tfe_kutil_transpose(x->dtype, esz, src, runs, perm, nruns, tmp);
        src = tmp;
      }
    }
    rc = reduce_run(k, op, x->dtype, esz, src, O, R, I, kutil_data(y));
    tfe_free(tmp);
    if (rc == 0) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in reduction");
    } else if (rc < 0) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Reduction %s not supported for %s",
                 k->op_def != NULL ? k->op_def->name : "?",
                 tfe_dtype_enum_name(x->dtype));
    }
  }
}

static void k_sum(tfe_kernel_context* k) { reduce_compute(k, R_SUM); }
static void k_mean(tfe_kernel_context* k) { reduce_compute(k, R_MEAN); }
static void k_prod(tfe_kernel_context* k) { reduce_compute(k, R_PROD); }
static void k_max(tfe_kernel_context* k) { reduce_compute(k, R_MAX); }
static void k_min(tfe_kernel_context* k) { reduce_compute(k, R_MIN); }
static void k_all(tfe_kernel_context* k) { reduce_compute(k, R_ALL); }
static void k_any(tfe_kernel_context* k) { reduce_compute(k, R_ANY); }

void tfe_register_reduce_kernels(void) {
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType num[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType real[] = {KUTIL_REAL_TYPES};
  tfe_kutil_register("Sum", k_sum, "T", num, KUTIL_COUNT(num), "Tidx", idx, 2);
  tfe_kutil_register("Mean", k_mean, "T", num, KUTIL_COUNT(num), "Tidx", idx,
                     2);
  tfe_kutil_register("Prod", k_prod, "T", num, KUTIL_COUNT(num), "Tidx", idx,
                     2);
  tfe_kutil_register("Max", k_max, "T", real, KUTIL_COUNT(real), "Tidx", idx,
                     2);
  tfe_kutil_register("Min", k_min, "T", real, KUTIL_COUNT(real), "Tidx", idx,
                     2);
  tfe_kutil_register("All", k_all, "Tidx", idx, 2, NULL, NULL, 0);
  tfe_kutil_register("Any", k_any, "Tidx", idx, 2, NULL, NULL, 0);
}
