/* Transpose and InvertPermutation, plus the dense permutation routine that
 * other kernels (reductions over scattered axes) reuse.
 *
 * The permutation is first simplified: size-1 dims are dropped and runs of
 * dims that stay adjacent and in order are merged. What remains is either a
 * plain copy, a (batched) 2-D transpose done in cache-sized tiles, or a
 * general walk over the output that copies contiguous runs when the
 * innermost dim is unchanged. */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"

#define TILE 32

/* Tiled transpose of `batch` matrices [rows, cols] -> [cols, rows]. */
#define DEF_T2D(NAME, T)                                                     \
  static void NAME(const T* src, T* dst, int64_t batch, int64_t rows,        \
                   int64_t cols) {                                           \
    int64_t b, i0, j0, i, j;                                                 \
    for (b = 0; b < batch; b++) {                                            \
      const T* s = src + b * rows * cols;                                    \
      T* d = dst + b * rows * cols;                                          \
      for (i0 = 0; i0 < rows; i0 += TILE) {                                  \
        int64_t i1 = i0 + TILE < rows ? i0 + TILE : rows;                    \
        for (j0 = 0; j0 < cols; j0 += TILE) {                                \
          int64_t j1 = j0 + TILE < cols ? j0 + TILE : cols;                  \
          for (j = j0; j < j1; j++) {                                        \
            for (i = i0; i < i1; i++) d[j * rows + i] = s[i * cols + j];     \
          }                                                                  \
        }                                                                    \
      }                                                                      \
    }                                                                        \
  }

DEF_T2D(t2d_1, uint8_t)
DEF_T2D(t2d_2, uint16_t)
DEF_T2D(t2d_4, uint32_t)
DEF_T2D(t2d_8, uint64_t)

typedef struct {
  uint64_t a, b;
} u128_t;
DEF_T2D(t2d_16, u128_t)

static void t2d_generic(TF_DataType dt, size_t esz, const char* src,
                        char* dst, int64_t batch, int64_t rows, int64_t cols) {
  int64_t b, i0, j0, i, j;
  for (b = 0; b < batch; b++) {
    const char* s = src + (size_t)(b * rows * cols) * esz;
    char* d = dst + (size_t)(b * rows * cols) * esz;
    for (i0 = 0; i0 < rows; i0 += TILE) {
      int64_t i1 = i0 + TILE < rows ? i0 + TILE : rows;
      for (j0 = 0; j0 < cols; j0 += TILE) {
        int64_t j1 = j0 + TILE < cols ? j0 + TILE : cols;
        for (j = j0; j < j1; j++) {
          for (i = i0; i < i1; i++) {
            kutil_copy1(dt, esz, d + (size_t)(j * rows + i) * esz,
                        s + (size_t)(i * cols + j) * esz);
          }
        }
      }
    }
  }
}

static void transpose_2d(TF_DataType dt, size_t esz, const void* src,
                         void* dst, int64_t batch, int64_t rows,
                         int64_t cols) {
  if (dt != TF_STRING) {
    switch (esz) {
      case 1: t2d_1((const uint8_t*)src, (uint8_t*)dst, batch, rows, cols); return;
      case 2: t2d_2((const uint16_t*)src, (uint16_t*)dst, batch, rows, cols); return;
      case 4: t2d_4((const uint32_t*)src, (uint32_t*)dst, batch, rows, cols); return;
      case 8: t2d_8((const uint64_t*)src, (uint64_t*)dst, batch, rows, cols); return;
      case 16: t2d_16((const u128_t*)src, (u128_t*)dst, batch, rows, cols); return;
      default: break;
    }
  }
  t2d_generic(dt, esz, (const char*)src, (char*)dst, batch, rows, cols);
}

void tfe_kutil_transpose(TF_DataType dt, size_t esz, const void* src,
                         const int64_t* in_dims, const int* perm, int nd,
                         void* dst) {
  /* Simplified problem: dims d[], permutation p[] of length m. */
  int64_t d[TFE_MAX_DIMS], od[TFE_MAX_DIMS], stride[TFE_MAX_DIMS];
  int p[TFE_MAX_DIMS], keep[TFE_MAX_DIMS], newidx[TFE_MAX_DIMS];
  int m = 0, i, j, q = 0;
  int64_t total = 1;

  for (i = 0; i < nd; i++) total *= in_dims[i];
  if (total == 0) return;

  /* Drop size-1 dims. */
  for (i = 0; i < nd; i++) keep[i] = in_dims[i] != 1;
  for (i = 0, j = 0; i < nd; i++) newidx[i] = keep[i] ? j++ : -1;
  for (i = 0; i < nd; i++) {
    if (keep[perm[i]]) p[q++] = newidx[perm[i]];
  }
  for (i = 0, j = 0; i < nd; i++) {
    if (keep[i]) d[j++] = in_dims[i];
  }
  m = q;
  /* Merge input dims a, a+1 when they appear consecutively in p. */
  {
    int changed = 1;
    while (changed && m > 1) {
      changed = 0;
      for (i = 0; i + 1 < m; i++) {
        if (p[i + 1] == p[i] + 1) {
          int a = p[i];
          d[a] *= d[a + 1];
          for (j = a + 1; j + 1 < m; j++) d[j] = d[j + 1];
          for (j = i + 1; j + 1 < m; j++) p[j] = p[j + 1];
          m--;
          for (j = 0; j < m; j++) {
            if (p[j] > a) p[j]--;
          }
          changed = 1;
          break;
        }
      }
    }
  }
  if (m <= 1) {
    kutil_copy(dt, dst, src, total);
    return;
  }
  /* Batched 2-D: p = [0, 1, ..., m-3, m-1, m-2]. */
  {
    int batched = p[m - 1] == m - 2 && p[m - 2] == m - 1;
    for (i = 0; i < m - 2 && batched; i++) batched = p[i] == i;
    if (batched) {
      int64_t batch = 1;
      for (i = 0; i < m - 2; i++) batch *= d[i];
      transpose_2d(dt, esz, src, dst, batch, d[m - 2], d[m - 1]);
      return;
    }
  }
  /* General walk over the output in row-major order. */
  {
    int64_t idx[TFE_MAX_DIMS];
    int64_t in_stride[TFE_MAX_DIMS];
    int64_t inner, inner_stride, outer = 1, o;
    const char* s = (const char*)src;
    char* out = (char*)dst;
    int contiguous;
    in_stride[m - 1] = 1;
    for (i = m - 2; i >= 0; i--) in_stride[i] = in_stride[i + 1] * d[i + 1];
    for (i = 0; i < m; i++) {
      od[i] = d[p[i]];
      stride[i] = in_stride[p[i]];
      idx[i] = 0;
    }
    inner = od[m - 1];
    inner_stride = stride[m - 1];
    contiguous = inner_stride == 1;
    for (i = 0; i < m - 1; i++) outer *= od[i];
    {
      int64_t off = 0; /* input element offset of idx[0..m-2] */
      for (o = 0; o < outer; o++) {
        char* drow = out + (size_t)(o * inner) * esz;
        if (contiguous) {
          kutil_copy(dt, drow, s + (size_t)off * esz, inner);
        } else if (dt != TF_STRING && esz == 4) {
          const uint32_t* sp = (const uint32_t*)s + off;
          uint32_t* dp = (uint32_t*)drow;
          int64_t t;
          for (t = 0; t < inner; t++) dp[t] = sp[t * inner_stride];
        } else if (dt != TF_STRING && esz == 8) {
          const uint64_t* sp = (const uint64_t*)s + off;
          uint64_t* dp = (uint64_t*)drow;
          int64_t t;
          for (t = 0; t < inner; t++) dp[t] = sp[t * inner_stride];
        } else {
          int64_t t;
          for (t = 0; t < inner; t++) {
            kutil_copy1(dt, esz, drow + (size_t)t * esz,
                        s + (size_t)(off + t * inner_stride) * esz);
          }
        }
        /* advance the odometer over dims 0..m-2 */
        for (i = m - 2; i >= 0; i--) {
          idx[i]++;
          off += stride[i];
          if (idx[i] < od[i]) break;
          off -= stride[i] * od[i];
          idx[i] = 0;
        }
      }
    }
  }
}

/* ------------------------------------------------------------ Transpose */

int tfe_kutil_transpose_perm(tfe_kernel_context* k, const TF_Tensor* x,
                             const TF_Tensor* pt, int* perm, int64_t* odims,
                             int* identity) {
  kutil_shape_buf sb;
  int nd = x->num_dims, i;
  unsigned char bits[TFE_MAX_DIMS];
  if (pt->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "perm must be rank 1, got shape %s",
               kutil_tshape(pt, &sb));
    return 0;
  }
  if (pt->dims[0] != nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "transpose expects a vector of size %d. But input(1) is a "
               "vector of size %lld",
               nd, (long long)pt->dims[0]);
    return 0;
  }
  memset(bits, 0, sizeof bits);
  *identity = 1;
  for (i = 0; i < nd; i++) {
    int64_t d = kutil_get_int(pt, i);
    if (d < 0 || d >= nd) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%lld is out of range [0 .. %d)",
                 (long long)d, nd);
      return 0;
    }
    perm[i] = (int)d;
    bits[d] = 1;
    odims[i] = x->dims[d];
    if (x->dims[d] != 1 && d != i) *identity = 0;
  }
  for (i = 0; i < nd; i++) {
    if (!bits[i]) {
      char list[1024];
      size_t len = 0;
      int j;
      list[0] = '\0';
      for (j = 0; j < nd && len < sizeof list; j++) {
        len += (size_t)snprintf(list + len, sizeof list - len,
                                j ? ",%d" : "%d", perm[j]);
      }
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%d is missing from {%s}.", i, list);
      return 0;
    }
  }
  return 1;
}

static void k_transpose(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int nd = x->num_dims, identity;
  int perm[TFE_MAX_DIMS];
  int64_t odims[TFE_MAX_DIMS];
  TF_Tensor* y;
  if (!tfe_kutil_transpose_perm(k, x, k->inputs[1], perm, odims, &identity)) {
    return;
  }
  if (identity) {
    /* Only size-1 dims move: the bytes are already in output order. */
    tfe_kutil_forward(k, 0, 0, odims, nd);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, odims, nd);
  if (y == NULL) return;
  tfe_kutil_transpose(x->dtype, kutil_esize(x->dtype), kutil_data(x), x->dims,
                      perm, nd, kutil_data(y));
}

/* ---------------------------------------------------- InvertPermutation */

static void k_invert_permutation(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int64_t n, i;
  TF_Tensor* y;
  if (x->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "invert_permutation expects a 1D vector.");
    return;
  }
  n = x->dims[0];
  if (x->dtype == TF_INT32 && n > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "permutation of nonnegative int32s must have <= int32 max "
               "elements");
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, 1);
  if (y == NULL) return;
  for (i = 0; i < n; i++) {
    if (x->dtype == TF_INT32) {
      ((int32_t*)kutil_data(y))[i] = -1;
    } else {
      ((int64_t*)kutil_data(y))[i] = -1;
    }
  }
  for (i = 0; i < n; i++) {
    int64_t d = kutil_get_int(x, i);
    if (d < 0 || d >= n) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%lld is not between 0 and %lld",
                 (long long)d, (long long)n);
      return;
    }
    if (kutil_get_int(y, d) != -1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%lld is duplicated in the input.",
                 (long long)d);
      return;
    }
    if (x->dtype == TF_INT32) {
      ((int32_t*)kutil_data(y))[d] = (int32_t)i;
    } else {
      ((int64_t*)kutil_data(y))[d] = i;
    }
  }
}

void tfe_register_array_transpose_kernels(void) {
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType all[] = {KUTIL_POD_TYPES, TF_STRING,
                                    KUTIL_QUANTIZED_TYPES, TF_FLOAT8_E4M3FN,
                                    TF_FLOAT8_E5M2};
  tfe_kutil_register("Transpose", k_transpose, "T", all, KUTIL_COUNT(all),
                     "Tperm", idx, 2);
  tfe_kutil_register("InvertPermutation", k_invert_permutation, "T", idx, 2,
                     NULL, NULL, 0);
}
