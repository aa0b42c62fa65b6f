/* Unique, MatrixDiag, MatrixBandPart, Cumsum, Cumprod, TopKV2. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"

static int64_t prodr(const int64_t* d, int from, int to) {
  int64_t p = 1;
  int i;
  for (i = from; i < to; i++) p *= d[i];
  return p;
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
               -nd, nd, (long long)axis);
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

typedef struct topk_item {
  double f;   /* value for float types */
  int64_t s;  /* value for signed ints */
  uint64_t u; /* value for unsigned ints */
  int64_t idx;
} topk_item;

/* Descending by value (NaN first, as larger than everything), ties by
 * ascending index. */
static int cmp_f(const void* a, const void* b) {
  const topk_item* x = (const topk_item*)a;
  const topk_item* y = (const topk_item*)b;
  int xn = x->f != x->f, yn = y->f != y->f;
  if (xn != yn) return xn ? -1 : 1;
  if (!xn && x->f != y->f) return x->f > y->f ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}
static int cmp_s(const void* a, const void* b) {
  const topk_item* x = (const topk_item*)a;
  const topk_item* y = (const topk_item*)b;
  if (x->s != y->s) return x->s > y->s ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}
static int cmp_u(const void* a, const void* b) {
  const topk_item* x = (const topk_item*)a;
  const topk_item* y = (const topk_item*)b;
  if (x->u != y->u) return x->u > y->u ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void k_top_k_v2(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* kt = k->inputs[1];
  kutil_shape_buf sa;
  TF_DataType it = k->output_types != NULL ? k->output_types[1] : TF_INT32;
  int nd = x->num_dims, flt = is_float_type(x->dtype);
  int uns = x->dtype == TF_UINT8 || x->dtype == TF_UINT16 ||
            x->dtype == TF_UINT32 || x->dtype == TF_UINT64;
  int64_t kk, n, rows, r, j, odims[TFE_MAX_DIMS];
  size_t esz = kutil_esize(x->dtype);
  topk_item* items;
  TF_Tensor *yv, *yi;
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
  items = (topk_item*)tfe_malloc(sizeof(topk_item) * (size_t)n);
  if (items == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in TopKV2");
    return;
  }
  for (r = 0; r < rows; r++) {
    for (j = 0; j < n; j++) {
      int64_t e = r * n + j;
      items[j].idx = j;
      if (flt) {
        items[j].f = elem_f64(x, e);
      } else if (uns) {
        items[j].u = x->dtype == TF_UINT64
                         ? ((const uint64_t*)kutil_data(x))[e]
                         : (uint64_t)kutil_get_int(x, e);
      } else {
        items[j].s = kutil_get_int(x, e);
      }
    }
    qsort(items, (size_t)n, sizeof(topk_item), flt ? cmp_f : uns ? cmp_u : cmp_s);
    for (j = 0; j < kk; j++) {
      int64_t src = r * n + items[j].idx, dst = r * kk + j;
      memcpy((char*)kutil_data(yv) + (size_t)dst * esz,
             (const char*)kutil_data(x) + (size_t)src * esz, esz);
      if (it == TF_INT32) {
        ((int32_t*)kutil_data(yi))[dst] = (int32_t)items[j].idx;
      } else if (it == TF_INT16) {
        ((int16_t*)kutil_data(yi))[dst] = (int16_t)items[j].idx;
      } else {
        ((int64_t*)kutil_data(yi))[dst] = items[j].idx;
      }
    }
  }
  tfe_free(items);
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
