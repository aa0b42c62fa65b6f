/* Unique, MatrixDiag, MatrixBandPart, Cumsum, Cumprod, TopKV2. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/threadpool.h"
#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"

static int64_t prodr(const int64_t* d, int from, int to) {
  return kutil_dims_prod(d, from, to);
}

/* Element i widened to double (real types, bool). */
static double elem_f64(const TF_Tensor* t, int64_t i) {
  const char* d = (const char*)kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[i]);
    case TF_BOOL: return d[i] != 0;
    default: return (double)kutil_get_int(t, i);
  }
}

static int is_float_type(TF_DataType dt) {
  return dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF ||
         dt == TF_BFLOAT16;
}

/* --------------------------------------------------------------- Unique */

/* Hash and equality of element i of x with TF's value semantics for floats
 * (-0 == +0; NaN is never equal to anything). */
static uint64_t elem_hash(const TF_Tensor* x, int64_t i, size_t esz) {
  const unsigned char* p;
  size_t n, j;
  uint64_t h = 1469598103934665603ull;
  unsigned char buf[16];
  if (x->dtype == TF_STRING) {
    const TF_TString* s = (const TF_TString*)kutil_data(x) + i;
    p = (const unsigned char*)TF_TString_GetDataPointer(s);
    n = TF_TString_GetSize(s);
  } else if (is_float_type(x->dtype)) {
    double v = elem_f64(x, i);
    if (v == 0) v = 0; /* folds -0 into +0 */
    memcpy(buf, &v, 8);
    p = buf;
    n = 8;
  } else {
    p = (const unsigned char*)kutil_data(x) + (size_t)i * esz;
    n = esz;
  }
  for (j = 0; j < n; j++) {
    h ^= p[j];
    h *= 1099511628211ull;
  }
  return h ^ (h >> 29);
}

static int elem_eq(const TF_Tensor* x, int64_t a, int64_t b, size_t esz) {
  if (x->dtype == TF_STRING) {
    const TF_TString* s = (const TF_TString*)kutil_data(x);
    size_t la = TF_TString_GetSize(&s[a]), lb = TF_TString_GetSize(&s[b]);
    return la == lb && memcmp(TF_TString_GetDataPointer(&s[a]),
                              TF_TString_GetDataPointer(&s[b]), la) == 0;
  }
  if (is_float_type(x->dtype)) return elem_f64(x, a) == elem_f64(x, b);
  if (x->dtype == TF_COMPLEX64 || x->dtype == TF_COMPLEX128) {
    const char* d = (const char*)kutil_data(x);
    if (x->dtype == TF_COMPLEX64) {
      const float* fa = (const float*)(d + (size_t)a * esz);
      const float* fb = (const float*)(d + (size_t)b * esz);
      return fa[0] == fb[0] && fa[1] == fb[1];
    } else {
      const double* fa = (const double*)(d + (size_t)a * esz);
      const double* fb = (const double*)(d + (size_t)b * esz);
      return fa[0] == fb[0] && fa[1] == fb[1];
    }
  }
  return memcmp((const char*)kutil_data(x) + (size_t)a * esz,
                (const char*)kutil_data(x) + (size_t)b * esz, esz) == 0;
}

static void k_unique(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  TF_DataType it = k->output_types != NULL ? k->output_types[1] : TF_INT32;
  size_t esz = kutil_esize(x->dtype);
  int64_t n, cap, i, nu = 0, *table = NULL, *first = NULL, *idx = NULL;
  TF_Tensor *y, *yi;
  if (x->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "unique expects a 1D vector.");
    return;
  }
  n = x->dims[0];
  for (cap = 16; cap < 2 * n; cap *= 2) {
  }
  table = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)cap);
  first = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(n + 1));
  idx = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(n + 1));
  if (table == NULL || first == NULL || idx == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in Unique");
    goto done;
  }
  for (i = 0; i < cap; i++) table[i] = -1;
  for (i = 0; i < n; i++) {
    uint64_t h = elem_hash(x, i, esz);
    int64_t slot = (int64_t)(h & (uint64_t)(cap - 1));
    for (;;) {
      int64_t u = table[slot];
      if (u < 0) {
        table[slot] = nu;
        first[nu] = i;
        idx[i] = nu++;
        break;
      }
      if (elem_eq(x, first[u], i, esz)) {
        idx[i] = u;
        break;
      }
      slot = (slot + 1) & (cap - 1);
    }
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, &nu, 1);
  if (y == NULL) goto done;
  yi = tfe_kernel_alloc_output(k, 1, it, x->dims, 1);
  if (yi == NULL) goto done;
  for (i = 0; i < nu; i++) {
    kutil_copy1(x->dtype, esz, (char*)kutil_data(y) + (size_t)i * esz,
                (const char*)kutil_data(x) + (size_t)first[i] * esz);
  }
  for (i = 0; i < n; i++) {
    if (it == TF_INT32) {
      ((int32_t*)kutil_data(yi))[i] = (int32_t)idx[i];
    } else {
      ((int64_t*)kutil_data(yi))[i] = idx[i];
    }
  }
done:
  tfe_free(table);
  tfe_free(first);
  tfe_free(idx);
}

/* ------------------------------------------- MatrixDiag, MatrixBandPart */

static void k_matrix_diag(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  kutil_shape_buf sa;
  int nd = x->num_dims, i;
  int64_t odims[TFE_MAX_DIMS], n, batch, b, j;
  size_t esz = kutil_esize(x->dtype);
  TF_Tensor* y;
  char* dst;
  if (nd < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "diagonal must be at least 1-dim, received shape: %s",
               kutil_tshape(x, &sa));
    return;
  }
  if (nd + 1 > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "MatrixDiag: too many dimensions");
    return;
  }
  for (i = 0; i < nd; i++) odims[i] = x->dims[i];
  n = x->dims[nd - 1];
  odims[nd] = n;
  y = tfe_kernel_alloc_output(k, 0, x->dtype, odims, nd + 1);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  dst = (char*)kutil_data(y);
  if (x->dtype != TF_STRING) {
    memset(dst, 0, (size_t)kutil_num_elements(y) * esz);
  }
  batch = prodr(x->dims, 0, nd - 1);
  for (b = 0; b < batch; b++) {
    for (j = 0; j < n; j++) {
      kutil_copy1(x->dtype, esz, dst + (size_t)((b * n + j) * n + j) * esz,
                  (const char*)kutil_data(x) + (size_t)(b * n + j) * esz);
    }
  }
}

/* MatrixDiagV2 / V3: diagonals lower..upper of [..., M, N] matrices from
 * `diagonal` ([..., max_len] for one diagonal, [..., num_diags, max_len]
 * for a band), everything else padding_value. Diagonal d = j - i sits in
 * row upper - d of the input; shorter diagonals are aligned left or right
 * within max_len (V2: both left; V3: the `align` attr, superdiagonals
 * first). */
static void matrix_diag_v23(tfe_kernel_context* k, int is_v3) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* kt = k->inputs[1];
  const TF_Tensor* rt = k->inputs[2];
  const TF_Tensor* ct = k->inputs[3];
  const TF_Tensor* pt = k->inputs[4];
  kutil_shape_buf sa;
  int nd = x->num_dims, i, on;
  int64_t lo, up, num_diags, max_len, min_rows, min_cols, rows, cols;
  int64_t odims[TFE_MAX_DIMS], batch, b, r, c;
  int left_super = 1, left_sub = 1;
  size_t esz = kutil_esize(x->dtype);
  TF_Tensor* y;
  char* dst;
  if (kt->num_dims > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "diag_index must be a scalar or vector, received shape: %s",
               kutil_tshape(kt, &sa));
    return;
  }
  if (kutil_num_elements(kt) < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected diag_index to have at least 1 element");
    return;
  }
  if (kt->num_dims == 1 && kt->dims[0] > 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "diag_index must have only one or two elements, received %lld "
               "elements.",
               (long long)kt->dims[0]);
    return;
  }
  lo = kutil_get_int(kt, 0);
  up = kutil_num_elements(kt) > 1 ? kutil_get_int(kt, 1) : lo;
  if (rt->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "num_rows must be a scalar");
    return;
  }
  if (ct->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "num_cols must be a scalar");
    return;
  }
  if (pt->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "padding_value must be a scalar");
    return;
  }
  rows = kutil_get_int(rt, 0);
  cols = kutil_get_int(ct, 0);
  if (nd < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "diagonal must be at least 1-dim, received shape: %s",
               kutil_tshape(x, &sa));
    return;
  }
  if (lo > up) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "lower_diag_index must not be larger than upper_diag_index: "
               "%lld > %lld",
               (long long)lo, (long long)up);
    return;
  }
  num_diags = up - lo + 1;
  if (lo != up && (nd < 2 || x->dims[nd - 2] != num_diags)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The number of diagonals provided in the input does not match "
               "the lower_diag_index and upper_diag_index range.");
    return;
  }
  max_len = x->dims[nd - 1];
  min_rows = max_len - (up < 0 ? up : 0);
  min_cols = max_len + (lo > 0 ? lo : 0);
  if (rows != -1 && rows < min_rows) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "The number of rows is too small.");
    return;
  }
  if (cols != -1 && cols < min_cols) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "The number of columns is too small.");
    return;
  }
  if (rows == -1 && cols == -1) {
    rows = cols = min_rows > min_cols ? min_rows : min_cols;
  } else if (rows == -1) {
    rows = min_rows;
  } else if (cols == -1) {
    cols = min_cols;
  }
  if (rows != min_rows && cols != min_cols) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The number of rows or columns is not consistent with the "
               "specified d_lower, d_upper, and diagonal.");
    return;
  }
  if (is_v3) {
    const char* al = NULL;
    size_t len = 0;
    if (k->attrs != NULL) tfe_attrs_get_string(k->attrs, "align", &al, &len, NULL);
    if (al == NULL) {
      al = "RIGHT_LEFT";
      len = 10;
    }
    left_super = len >= 4 && memcmp(al, "LEFT", 4) == 0;
    left_sub = len >= 4 && memcmp(al + len - 4, "LEFT", 4) == 0;
  }
  on = 0;
  if (num_diags == 1) {
    for (i = 0; i < nd - 1; i++) odims[on++] = x->dims[i];
  } else {
    for (i = 0; i < nd - 2; i++) odims[on++] = x->dims[i];
  }
  odims[on++] = rows;
  odims[on++] = cols;
  if (on > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "MatrixDiag: too many dimensions");
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, odims, on);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  dst = (char*)kutil_data(y);
  batch = prodr(odims, 0, on - 2);
  for (b = 0; b < batch; b++) {
    for (r = 0; r < rows; r++) {
      for (c = 0; c < cols; c++) {
        int64_t d = c - r;
        char* out = dst + (size_t)((b * rows + r) * cols + c) * esz;
        if (d >= lo && d <= up) {
          int left = (d >= 0 && left_super) || (d <= 0 && left_sub);
          int64_t dl1 = rows + (d < 0 ? d : 0), dl2 = cols - (d > 0 ? d : 0);
          int64_t dlen = dl1 < dl2 ? dl1 : dl2;
          int64_t off = left ? 0 : max_len - dlen;
          int64_t t = c - (d > 0 ? d : 0) + off;
          int64_t src = (b * num_diags + (up - d)) * max_len + t;
          kutil_copy1(x->dtype, esz, out,
                      (const char*)kutil_data(x) + (size_t)src * esz);
        } else {
          kutil_copy1(x->dtype, esz, out, (const char*)kutil_data(pt));
        }
      }
    }
  }
}

static void k_matrix_diag_v2(tfe_kernel_context* k) { matrix_diag_v23(k, 0); }
static void k_matrix_diag_v3(tfe_kernel_context* k) { matrix_diag_v23(k, 1); }

static void k_matrix_band_part(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* lt = k->inputs[1];
  const TF_Tensor* ut = k->inputs[2];
  kutil_shape_buf sa;
  int nd = x->num_dims;
  int64_t m, n, lo, up, batch, b, i, j;
  size_t esz = kutil_esize(x->dtype);
  TF_Tensor* y;
  char* dst;
  if (nd < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input must be at least 2-dim, received shape: %s",
               kutil_tshape(x, &sa));
    return;
  }
  if (lt->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "num_lower must be scalar, got shape %s",
               kutil_tshape(lt, &sa));
    return;
  }
  if (ut->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "num_upper must be scalar, got shape %s",
               kutil_tshape(ut, &sa));
    return;
  }
  m = x->dims[nd - 2];
  n = x->dims[nd - 1];
  lo = kutil_get_int(lt, 0);
  up = kutil_get_int(ut, 0);
  if (lo > m) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_lower must be negative or less or equal to number of rows "
               "(%lld) got: %lld",
               (long long)m, (long long)lo);
    return;
  }
  if (up > n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_upper must be negative or less or equal to number of "
               "columns (%lld) got: %lld",
               (long long)n, (long long)up);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, nd);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  dst = (char*)kutil_data(y);
  batch = prodr(x->dims, 0, nd - 2);
  for (b = 0; b < batch; b++) {
    for (i = 0; i < m; i++) {
      for (j = 0; j < n; j++) {
        int64_t e = (b * m + i) * n + j;
        int keep = (lo < 0 || i - j <= lo) && (up < 0 || j - i <= up);
        if (keep) {
          kutil_copy1(x->dtype, esz, dst + (size_t)e * esz,
                      (const char*)kutil_data(x) + (size_t)e * esz);
        } else if (x->dtype != TF_STRING) {
          memset(dst + (size_t)e * esz, 0, esz);
        }
      }
    }
  }
}

/* ------------------------------------------------------- Cumsum, Cumprod */

#define DEF_SCAN(S, T, ACC, LOAD, STORE)                                      \
  static void scan_##S(const T* x, T* y, int64_t outer, int64_t len,         \
                       int64_t inner, int prod, int excl, int rev) {         \
    int64_t o, j, t;                                                          \
    for (o = 0; o < outer; o++) {                                             \
      for (j = 0; j < inner; j++) {                                           \
        ACC acc = prod ? (ACC)1 : (ACC)0;                                     \
        for (t = 0; t < len; t++) {                                           \
          int64_t p = rev ? len - 1 - t : t;                                  \
          int64_t e = (o * len + p) * inner + j;                              \
          ACC v = LOAD(x[e]);                                                 \
          if (excl) {                                                         \
            y[e] = STORE(acc);                                                \
            acc = prod ? acc * v : acc + v;                                   \
          } else {                                                            \
            acc = prod ? acc * v : acc + v;                                   \
            y[e] = STORE(acc);                                                \
          }                                                                   \
        }                                                                     \
      }                                                                       \
    }                                                                         \
  }

#define ID(v) (v)
DEF_SCAN(f32, float, float, ID, ID)
DEF_SCAN(f64, double, double, ID, ID)
DEF_SCAN(f16, uint16_t, float, kutil_f16_to_f32, kutil_f32_to_f16)
DEF_SCAN(bf16, uint16_t, float, kutil_bf16_to_f32, kutil_f32_to_bf16)
#define I8(v) ((uint8_t)(v))
DEF_SCAN(i8, int8_t, uint8_t, I8, (int8_t))
DEF_SCAN(u8, uint8_t, uint8_t, ID, (uint8_t))
#define U16(v) ((uint16_t)(v))
DEF_SCAN(i16, int16_t, uint32_t, U16, (int16_t)(uint16_t))
DEF_SCAN(u16, uint16_t, uint32_t, ID, (uint16_t))
#define U32(v) ((uint32_t)(v))
DEF_SCAN(i32, int32_t, uint32_t, U32, (int32_t))
DEF_SCAN(u32, uint32_t, uint32_t, ID, (uint32_t))
#define U64(v) ((uint64_t)(v))
DEF_SCAN(i64, int64_t, uint64_t, U64, (int64_t))
DEF_SCAN(u64, uint64_t, uint64_t, ID, (uint64_t))

/* complex scans: pairs (re, im) */
#define DEF_CSCAN(S, T)                                                       \
  static void scan_##S(const T* x, T* y, int64_t outer, int64_t len,         \
                       int64_t inner, int prod, int excl, int rev) {         \
    int64_t o, j, t;                                                          \
    for (o = 0; o < outer; o++) {                                             \
      for (j = 0; j < inner; j++) {                                           \
        T re = prod ? 1 : 0, im = 0;                                          \
        for (t = 0; t < len; t++) {                                           \
          int64_t p = rev ? len - 1 - t : t;                                  \
          int64_t e = (o * len + p) * inner + j;                              \
          T a = x[2 * e], b = x[2 * e + 1];                                   \
          if (excl) {                                                         \
            y[2 * e] = re;                                                    \
            y[2 * e + 1] = im;                                                \
          }                                                                   \
          if (prod) {                                                         \
            T nre = re * a - im * b;                                          \
            im = re * b + im * a;                                             \
            re = nre;                                                         \
          } else {                                                            \
            re += a;                                                          \
            im += b;                                                          \
          }                                                                   \
          if (!excl) {                                                        \
            y[2 * e] = re;                                                    \
            y[2 * e + 1] = im;                                                \
          }                                                                   \
        }                                                                     \
      }                                                                       \
    }                                                                         \
  }
DEF_CSCAN(c64, float)
DEF_CSCAN(c128, double)

static void scan_compute(tfe_kernel_context* k, int prod) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* at = k->inputs[1];
  kutil_shape_buf sa;
  int nd = x->num_dims;
  int excl = kutil_attr_bool(k, "exclusive", 0);
  int rev = kutil_attr_bool(k, "reverse", 0);
  int64_t axis, outer, len, inner;
  const void* s;
  void* d;
  TF_Tensor* y;
  if (at->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "ScanOp: axis must be a scalar, not %s",
               kutil_tshape(at, &sa));
    return;
  }
  axis = kutil_get_int(at, 0);
  if (axis < -nd || axis >= nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "ScanOp: Expected scan axis in the range [%d, %d), but got %lld",
               -nd, nd, (long long)(axis < 0 ? axis + nd : axis));
    return;
  }
  if (axis < 0) axis += nd;
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, nd);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  outer = prodr(x->dims, 0, (int)axis);
  len = x->dims[axis];
  inner = prodr(x->dims, (int)axis + 1, nd);
  s = kutil_data(x);
  d = kutil_data(y);
  switch (x->dtype) {
#define CASE(DT, S, T) \
  case DT: scan_##S((const T*)s, (T*)d, outer, len, inner, prod, excl, rev); break;
    CASE(TF_FLOAT, f32, float)
    CASE(TF_DOUBLE, f64, double)
    CASE(TF_HALF, f16, uint16_t)
    CASE(TF_BFLOAT16, bf16, uint16_t)
    CASE(TF_INT8, i8, int8_t)
    CASE(TF_UINT8, u8, uint8_t)
    CASE(TF_INT16, i16, int16_t)
    CASE(TF_UINT16, u16, uint16_t)
    CASE(TF_INT32, i32, int32_t)
    CASE(TF_UINT32, u32, uint32_t)
    CASE(TF_INT64, i64, int64_t)
    CASE(TF_UINT64, u64, uint64_t)
    CASE(TF_COMPLEX64, c64, float)
    CASE(TF_COMPLEX128, c128, double)
#undef CASE
    default:
      KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Scan not supported for %s",
                 tfe_dtype_enum_name(x->dtype));
  }
}

static void k_cumsum(tfe_kernel_context* k) { scan_compute(k, 0); }
static void k_cumprod(tfe_kernel_context* k) { scan_compute(k, 1); }

/* --------------------------------------------------------------- TopKV2 */

/* TopKV2 reproduces the exact output order of TF's CPU kernel, sorted or
 * not, NaNs included. TF picks one of three strategies per row:
 *  - k == 1: Eigen's max reduction of the row, then the first column equal
 *    to that max (column 0, whatever it holds, when the max is NaN);
 *  - k == n: std::sort of the column indices by descending value, then
 *    each run of equal values re-sorted by ascending index;
 *  - otherwise: a bounded heap (tsl's TopN) fed columns 0..n-1, ordered by
 *    "greater" = larger value, or equal (incomparable, for NaN) and lower
 *    index; sorted=True reads it back with std::sort_heap, sorted=False
 *    returns the heap's internal order.
 * The orders depend on libstdc++'s heap and introsort algorithms, which
 * are reimplemented here (same steps, same comparisons) over an index
 * array. Values are compared as double (float types; half and bfloat16
 * widen exactly), int64 or uint64. */

typedef struct topk_row {
  int kind; /* 0 float, 1 signed, 2 unsigned */
  const double* f;
  const int64_t* s;
  const uint64_t* u;
} topk_row;

/* Value comparisons between columns a and b of the row. */
static int tk_lt(const topk_row* r, int64_t a, int64_t b) {
  switch (r->kind) {
    case 0: return r->f[a] < r->f[b];
    case 1: return r->s[a] < r->s[b];
    default: return r->u[a] < r->u[b];
  }
}
static int tk_eq(const topk_row* r, int64_t a, int64_t b) {
  switch (r->kind) {
    case 0: return r->f[a] == r->f[b];
    case 1: return r->s[a] == r->s[b];
    default: return r->u[a] == r->u[b];
  }
}

/* The two orders TF uses: mode 0 "stable greater" (heap path), mode 1
 * "value greater" (sort path). */
typedef struct tk_cmp {
  const topk_row* row;
  int mode;
} tk_cmp;

static int tk_less(const tk_cmp* c, int64_t a, int64_t b) {
  if (tk_lt(c->row, b, a)) return 1;
  if (c->mode == 1) return 0;
  if (tk_lt(c->row, a, b)) return 0;
  return a < b;
}

/* libstdc++'s heap primitives over v[0..len) with "less" = tk_less. */
static void tk_push_up(int64_t* v, int64_t hole, int64_t top, int64_t val,
                       const tk_cmp* c) {
  int64_t parent = (hole - 1) / 2;
  while (hole > top && tk_less(c, v[parent], val)) {
    v[hole] = v[parent];
    hole = parent;
    parent = (hole - 1) / 2;
  }
  v[hole] = val;
}

static void tk_adjust(int64_t* v, int64_t hole, int64_t len, int64_t val,
                      const tk_cmp* c) {
  int64_t top = hole, child = hole;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (tk_less(c, v[child], v[child - 1])) child--;
    v[hole] = v[child];
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    v[hole] = v[child - 1];
    hole = child - 1;
  }
  tk_push_up(v, hole, top, val, c);
}

static void tk_make_heap(int64_t* v, int64_t len, const tk_cmp* c) {
  int64_t parent;
  if (len < 2) return;
  for (parent = (len - 2) / 2;; parent--) {
    tk_adjust(v, parent, len, v[parent], c);
    if (parent == 0) return;
  }
}

/* Moves the top to v[len - 1] and restores the heap on v[0..len-1). */
static void tk_pop_heap(int64_t* v, int64_t len, const tk_cmp* c) {
  int64_t val;
  if (len < 2) return;
  val = v[len - 1];
  v[len - 1] = v[0];
  tk_adjust(v, 0, len - 1, val, c);
}

static void tk_push_heap(int64_t* v, int64_t len, const tk_cmp* c) {
  tk_push_up(v, len - 1, 0, v[len - 1], c);
}

static void tk_sort_heap(int64_t* v, int64_t len, const tk_cmp* c) {
  while (len > 1) {
    tk_pop_heap(v, len, c);
    len--;
  }
}

/* libstdc++'s std::sort: introsort (median-of-three pivot, heapsort past
 * the depth limit) down to runs of 16, then insertion sort. */
static void tk_iswap(int64_t* a, int64_t* b) {
  int64_t t = *a;
  *a = *b;
  *b = t;
}

static void tk_median_to_first(int64_t* v, int64_t r, int64_t a, int64_t b,
                               int64_t cc, const tk_cmp* c) {
  if (tk_less(c, v[a], v[b])) {
    if (tk_less(c, v[b], v[cc])) {
      tk_iswap(&v[r], &v[b]);
    } else if (tk_less(c, v[a], v[cc])) {
      tk_iswap(&v[r], &v[cc]);
    } else {
      tk_iswap(&v[r], &v[a]);
    }
  } else if (tk_less(c, v[a], v[cc])) {
    tk_iswap(&v[r], &v[a]);
  } else if (tk_less(c, v[b], v[cc])) {
    tk_iswap(&v[r], &v[cc]);
  } else {
    tk_iswap(&v[r], &v[b]);
  }
}

static int64_t tk_partition(int64_t* v, int64_t first, int64_t last,
                            int64_t pivot, const tk_cmp* c) {
  for (;;) {
    while (tk_less(c, v[first], v[pivot])) first++;
    last--;
    while (tk_less(c, v[pivot], v[last])) last--;
    if (!(first < last)) return first;
    tk_iswap(&v[first], &v[last]);
    first++;
  }
}

static void tk_heap_select_sort(int64_t* v, int64_t len, const tk_cmp* c) {
  /* std::partial_sort(first, last, last): heap select then sort_heap */
  tk_make_heap(v, len, c);
  tk_sort_heap(v, len, c);
}

static void tk_introsort(int64_t* v, int64_t first, int64_t last,
                         int64_t depth, const tk_cmp* c) {
  while (last - first > 16) {
    int64_t cut;
    if (depth == 0) {
      tk_heap_select_sort(v + first, last - first, c);
      return;
    }
    depth--;
    tk_median_to_first(v, first, first + 1, first + (last - first) / 2,
                       last - 1, c);
    cut = tk_partition(v, first + 1, last, first, c);
    tk_introsort(v, cut, last, depth, c);
    last = cut;
  }
}

static void tk_linear_insert(int64_t* v, int64_t pos, const tk_cmp* c) {
  int64_t val = v[pos], next = pos - 1;
  while (next >= 0 && tk_less(c, val, v[next])) {
    v[pos] = v[next];
    pos = next;
    next--;
  }
  v[pos] = val;
}

static void tk_insertion_sort(int64_t* v, int64_t first, int64_t last,
                              const tk_cmp* c) {
  int64_t i;
  if (first == last) return;
  for (i = first + 1; i < last; i++) {
    if (tk_less(c, v[i], v[first])) {
      int64_t val = v[i];
      memmove(v + first + 1, v + first, (size_t)(i - first) * sizeof *v);
      v[first] = val;
    } else {
      tk_linear_insert(v, i, c);
    }
  }
}

static void tk_sort(int64_t* v, int64_t n, const tk_cmp* c) {
  int64_t lg = 0, m = n, i;
  if (n < 2) return;
  while (m > 1) {
    m >>= 1;
    lg++;
  }
  tk_introsort(v, 0, n, 2 * lg, c);
  if (n > 16) {
    tk_insertion_sort(v, 0, 16, c);
    /* libstdc++ inserts the rest without a bound check; the first 16
     * hold a minimum under a consistent order, and the bound check here
     * only matters when NaNs make the order inconsistent */
    for (i = 16; i < n; i++) tk_linear_insert(v, i, c);
  } else {
    tk_insertion_sort(v, 0, n, c);
  }
}

static int cmp_i64(const void* a, const void* b) {
  int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return x < y ? -1 : x > y;
}

/* Eigen's max reduction as TF's k == 1 path computes it: the accumulator
 * takes each element unless the element is smaller, so a NaN enters and
 * the next element replaces it. */
static double tk_row_max_f(const double* f, int64_t n) {
  double acc = -INFINITY;
  int64_t i;
  for (i = 0; i < n; i++) acc = f[i] < acc ? acc : f[i];
  return acc;
}

/* Column order of one row into idx[0..k). heap holds k + 1 slots. */
static void tk_row(const topk_row* row, int64_t n, int64_t k, int sorted,
                   int64_t* idx, int64_t* heap) {
  int64_t c, size = 0;
  tk_cmp cmp;
  cmp.row = row;
  if (k == 1) {
    int64_t best = 0;
    if (row->kind == 0) {
      double m = tk_row_max_f(row->f, n);
      for (c = 0; c < n; c++) {
        if (row->f[c] == m) {
          best = c;
          break;
        }
      }
    } else {
      for (c = 1; c < n; c++) {
        if (tk_lt(row, best, c)) best = c;
      }
    }
    idx[0] = best;
    return;
  }
  if (k == n) {
    int64_t b, e;
    cmp.mode = 1;
    for (c = 0; c < n; c++) idx[c] = c;
    tk_sort(idx, n, &cmp);
    for (b = 0; b < n;) {
      e = b + 1;
      if (e == n) break;
      if (tk_eq(row, idx[b], idx[e])) {
        while (++e != n) {
          if (!tk_eq(row, idx[b], idx[e])) break;
        }
        qsort(idx + b, (size_t)(e - b), sizeof *idx, cmp_i64);
      }
      b = e;
    }
    return;
  }
  cmp.mode = 0;
  for (c = 0; c < n; c++) {
    if (size < k) {
      heap[size++] = c;
    } else if (size == k && c == k) {
      heap[size++] = c;
      tk_make_heap(heap, size, &cmp);
      tk_pop_heap(heap, size, &cmp);
      size--;
    } else if (tk_less(&cmp, c, heap[0])) {
      tk_pop_heap(heap, size, &cmp);
      heap[size - 1] = c;
      tk_push_heap(heap, size, &cmp);
    }
  }
  if (sorted) tk_sort_heap(heap, size, &cmp);
  memcpy(idx, heap, (size_t)k * sizeof *idx);
}

/* Rows [r0, r1) of TopKV2, with buffers of their own (rows are
 * independent, so chunks of rows run in parallel). */
typedef struct topk_job {
  const TF_Tensor* x;
  TF_Tensor *yv, *yi;
  TF_DataType it;
  int64_t n, kk;
  int flt, uns, sorted;
  int failed; /* set to 1 by a chunk that could not get its buffers */
} topk_job;

static void topk_rows(void* arg, int64_t r0, int64_t r1) {
  topk_job* jb = (topk_job*)arg;
  const TF_Tensor* x = jb->x;
  int64_t n = jb->n, kk = jb->kk, r, j;
  size_t esz = kutil_esize(x->dtype);
  void* vals = tfe_malloc(8 * (size_t)n);
  int64_t* idx = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)n);
  int64_t* heap = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(kk + 1));
  topk_row row;
  if (vals == NULL || idx == NULL || heap == NULL) {
    jb->failed = 1;
    goto done;
  }
  memset(&row, 0, sizeof row);
  row.kind = jb->flt ? 0 : jb->uns ? 2 : 1;
  row.f = (const double*)vals;
  row.s = (const int64_t*)vals;
  row.u = (const uint64_t*)vals;
  for (r = r0; r < r1; r++) {
    int64_t e0 = r * n;
    if (x->dtype == TF_FLOAT) {
      const float* xf = (const float*)kutil_data(x) + e0;
      for (j = 0; j < n; j++) ((double*)vals)[j] = xf[j];
    } else if (x->dtype == TF_DOUBLE) {
      memcpy(vals, (const double*)kutil_data(x) + e0, (size_t)n * 8);
    } else if (x->dtype == TF_INT32) {
      const int32_t* xi = (const int32_t*)kutil_data(x) + e0;
      for (j = 0; j < n; j++) ((int64_t*)vals)[j] = xi[j];
    } else {
      for (j = 0; j < n; j++) {
        int64_t e = e0 + j;
        if (jb->flt) {
          ((double*)vals)[j] = elem_f64(x, e);
        } else if (jb->uns) {
          ((uint64_t*)vals)[j] = x->dtype == TF_UINT64
                                     ? ((const uint64_t*)kutil_data(x))[e]
                                     : (uint64_t)kutil_get_int(x, e);
        } else {
          ((int64_t*)vals)[j] = kutil_get_int(x, e);
        }
      }
    }
    tk_row(&row, n, kk, jb->sorted, idx, heap);
    for (j = 0; j < kk; j++) {
      int64_t src = e0 + idx[j], dst = r * kk + j;
      memcpy((char*)kutil_data(jb->yv) + (size_t)dst * esz,
             (const char*)kutil_data(x) + (size_t)src * esz, esz);
      if (jb->it == TF_INT32) {
        ((int32_t*)kutil_data(jb->yi))[dst] = (int32_t)idx[j];
      } else if (jb->it == TF_INT16) {
        ((int16_t*)kutil_data(jb->yi))[dst] = (int16_t)idx[j];
      } else {
        ((int64_t*)kutil_data(jb->yi))[dst] = idx[j];
      }
    }
  }
done:
  tfe_free(vals);
  tfe_free(idx);
  tfe_free(heap);
}

static void k_top_k_v2(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* kt = k->inputs[1];
  kutil_shape_buf sa;
  TF_DataType it = k->output_types != NULL ? k->output_types[1] : TF_INT32;
  int nd = x->num_dims, flt = is_float_type(x->dtype), sorted = 1;
  int uns = x->dtype == TF_UINT8 || x->dtype == TF_UINT16 ||
            x->dtype == TF_UINT32 || x->dtype == TF_UINT64;
  int64_t kk, n, rows, odims[TFE_MAX_DIMS];
  topk_job jb;
  TF_Tensor *yv, *yi;
  if (k->attrs != NULL) {
    int b = 1;
    if (tfe_attrs_get_bool(k->attrs, "sorted", &b, NULL)) sorted = b;
  }
  if (kt->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "k must be 0-D, got shape %s",
               kutil_tshape(kt, &sa));
    return;
  }
  kk = kutil_get_int(kt, 0);
  if (kk < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Need k >= 0, got %lld", (long long)kk);
    return;
  }
  if (nd < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be >= 1-D, got shape %s",
               kutil_tshape(x, &sa));
    return;
  }
  n = x->dims[nd - 1];
  if (n < kk) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input must have at least k columns. Had %lld, needed %lld",
               (long long)n, (long long)kk);
    return;
  }
  memcpy(odims, x->dims, sizeof(int64_t) * (size_t)nd);
  odims[nd - 1] = kk;
  yv = tfe_kernel_alloc_output(k, 0, x->dtype, odims, nd);
  if (yv == NULL) return;
  yi = tfe_kernel_alloc_output(k, 1, it, odims, nd);
  if (yi == NULL) return;
  if (kk == 0 || kutil_num_elements(yv) == 0) return;
  rows = prodr(x->dims, 0, nd - 1);
  jb.x = x;
  jb.yv = yv;
  jb.yi = yi;
  jb.it = it;
  jb.n = n;
  jb.kk = kk;
  jb.flt = flt;
  jb.uns = uns;
  jb.sorted = sorted;
  jb.failed = 0;
  /* a row costs about n (+ k log k) comparisons: chunks of >= 32k items */
  tfe_parallel_for(tfe_kernel_threadpool(k), rows,
                   n >= 32768 ? 1 : 32768 / n, topk_rows, &jb);
  if (jb.failed) KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in TopKV2");
}

void tfe_register_array_misc_kernels(void) {
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType all[] = {KUTIL_POD_TYPES, TF_STRING};
  static const TF_DataType num[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType real[] = {KUTIL_REAL_TYPES};
  tfe_kutil_register("Unique", k_unique, "T", all, KUTIL_COUNT(all),
                     "out_idx", idx, 2);
  tfe_kutil_register("MatrixDiag", k_matrix_diag, "T", all, KUTIL_COUNT(all),
                     NULL, NULL, 0);
  tfe_kutil_register("MatrixDiagV2", k_matrix_diag_v2, "T", all,
                     KUTIL_COUNT(all), NULL, NULL, 0);
  tfe_kutil_register("MatrixDiagV3", k_matrix_diag_v3, "T", all,
                     KUTIL_COUNT(all), NULL, NULL, 0);
  tfe_kutil_register("MatrixBandPart", k_matrix_band_part, "T", all,
                     KUTIL_COUNT(all), "Tindex", idx, 2);
  tfe_kutil_register("Cumsum", k_cumsum, "T", num, KUTIL_COUNT(num), "Tidx",
                     idx, 2);
  tfe_kutil_register("Cumprod", k_cumprod, "T", num, KUTIL_COUNT(num), "Tidx",
                     idx, 2);
  tfe_kutil_register("TopKV2", k_top_k_v2, "T", real, KUTIL_COUNT(real), NULL,
                     NULL, 0);
}
