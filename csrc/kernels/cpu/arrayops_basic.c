/* StopGradient, PreventGradient, CheckNumerics(V2), Diag, DiagPart,
 * LinSpace, PopulationCount, Roll, LowerBound, UpperBound, Bincount and
 * ListDiff, UniqueWithCounts; also the registration entry point of the arrayops files. */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/arrayops_common.h"
#include "kernels/cpu/kutil.h"

/* ------------------------------------------- StopGradient, PreventGradient */

/* Both only matter to gradient code; running them passes the input on. */
static void k_forward(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  tfe_kutil_forward(k, 0, 0, x->dims, x->num_dims);
}

/* ------------------------------------------------ CheckNumerics(V2) */

static double elem_as_double(TF_DataType dt, const void* d, int64_t i) {
  switch (dt) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[i]);
    default: return 0;
  }
}

static void check_numerics(tfe_kernel_context* k, int v2) {
  const TF_Tensor* x = k->inputs[0];
  const void* d = kutil_data(x);
  int64_t n = kutil_num_elements(x), i;
  int has_nan = 0, has_pinf = 0, has_ninf = 0;
  const char* msg = "";
  size_t len = 0;
  for (i = 0; i < n; i++) {
    double v = elem_as_double(x->dtype, d, i);
    if (isnan(v)) {
      has_nan = 1;
    } else if (isinf(v)) {
      if (v > 0) {
        has_pinf = 1;
      } else {
        has_ninf = 1;
      }
    }
  }
  if (!has_nan && !has_pinf && !has_ninf) {
    tfe_kutil_forward(k, 0, 0, x->dims, x->num_dims);
    return;
  }
  if (k->attrs != NULL) tfe_attrs_get_string(k->attrs, "message", &msg, &len, NULL);
  if (!v2) {
    const char* what = has_nan && (has_pinf || has_ninf) ? "Inf and NaN"
                       : has_nan                        ? "NaN"
                                                        : "Inf";
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s : Tensor had %s values", msg, what);
    return;
  }
  {
    /* "A", "A and B", or "A, B, and C" */
    const char* parts[3];
    int np = 0;
    char what[64];
    if (has_ninf) parts[np++] = "-Inf";
    if (has_pinf) parts[np++] = "+Inf";
    if (has_nan) parts[np++] = "NaN";
    if (np == 1) {
      snprintf(what, sizeof what, "%s", parts[0]);
    } else if (np == 2) {
      snprintf(what, sizeof what, "%s and %s", parts[0], parts[1]);
    } else {
      snprintf(what, sizeof what, "%s, %s, and %s", parts[0], parts[1],
               parts[2]);
    }
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s : Tensor had %s values", msg, what);
  }
}

static void k_check_numerics(tfe_kernel_context* k) { check_numerics(k, 0); }
static void k_check_numerics_v2(tfe_kernel_context* k) {
  check_numerics(k, 1);
}

/* ------------------------------------------------------ Diag, DiagPart */

static void k_diag(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  size_t esz = kutil_esize(x->dtype);
  int64_t dims[TFE_MAX_DIMS];
  int64_t n = kutil_num_elements(x), i;
  int d;
  TF_Tensor* y;
  char* o;
  const char* s;
  if (x->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input must be at least rank 1, got %d", x->num_dims);
    return;
  }
  if (2 * x->num_dims > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Diag: too many dimensions");
    return;
  }
  for (d = 0; d < x->num_dims; d++) {
    dims[d] = dims[d + x->num_dims] = x->dims[d];
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, dims, 2 * x->num_dims);
  if (y == NULL) return;
  o = (char*)kutil_data(y);
  s = (const char*)kutil_data(x);
  tfe_ao_fill_zero(x->dtype, o, kutil_num_elements(y));
  for (i = 0; i < n; i++) {
    memcpy(o + (i * n + i) * esz, s + i * esz, esz);
  }
}

static void k_diag_part(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  size_t esz = kutil_esize(x->dtype);
  int half = x->num_dims / 2, d;
  int64_t n = 1, i;
  kutil_shape_buf b;
  TF_Tensor* y;
  char* o;
  const char* s;
  if (x->num_dims % 2 != 0) { /* a scalar is its own diagonal */
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The rank of the tensor should be%*seven and positive, got "
               "shape %s",
               42, "", kutil_tshape(x, &b));
    return;
  }
  for (d = 0; d < half; d++) {
    if (x->dims[d] != x->dims[d + half]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Invalid shape %s: dimensions %d and %d do not match.",
                 kutil_tshape(x, &b), d, d + half);
      return;
    }
    n *= x->dims[d];
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, half);
  if (y == NULL) return;
  o = (char*)kutil_data(y);
  s = (const char*)kutil_data(x);
  for (i = 0; i < n; i++) memcpy(o + i * esz, s + (i * n + i) * esz, esz);
}

/* ------------------------------------------------------------ LinSpace */

static void k_linspace(tfe_kernel_context* k) {
  const TF_Tensor* start = k->inputs[0];
  const TF_Tensor* stop = k->inputs[1];
  const TF_Tensor* num = k->inputs[2];
  kutil_shape_buf b;
  int64_t n, i;
  TF_Tensor* y;
  if (start->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "start must be a scalar, not shape %s",
               kutil_tshape(start, &b));
    return;
  }
  if (stop->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "stop must be a scalar, not shape %s",
               kutil_tshape(stop, &b));
    return;
  }
  if (num->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "num must be a scalar, not shape %s",
               kutil_tshape(num, &b));
    return;
  }
  n = kutil_get_int(num, 0);
  if (n <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Requires num > 0: %lld",
               (long long)n);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, start->dtype, &n, 1);
  if (y == NULL) return;
  /* The step is computed once in the element type; the first value is
   * `start` and the last `stop` exactly. */
  if (start->dtype == TF_FLOAT) {
    float a = *(const float*)kutil_data(start);
    float b2 = *(const float*)kutil_data(stop);
    float* o = (float*)kutil_data(y);
    o[0] = a;
    if (n > 1) {
      float step = (b2 - a) / (float)(n - 1);
      for (i = 1; i < n - 1; i++) o[i] = a + step * (float)i;
      o[n - 1] = b2;
    }
  } else {
    double a = *(const double*)kutil_data(start);
    double b2 = *(const double*)kutil_data(stop);
    double* o = (double*)kutil_data(y);
    o[0] = a;
    if (n > 1) {
      double step = (b2 - a) / (double)(n - 1);
      for (i = 1; i < n - 1; i++) o[i] = a + step * (double)i;
      o[n - 1] = b2;
    }
  }
}

/* ----------------------------------------------------- PopulationCount */

static void k_popcount(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int64_t n = kutil_num_elements(x), i;
  size_t esz = kutil_esize(x->dtype);
  const unsigned char* s = (const unsigned char*)kutil_data(x);
  TF_Tensor* y = tfe_kernel_alloc_output(k, 0, TF_UINT8, x->dims, x->num_dims);
  uint8_t* o;
  if (y == NULL) return;
  o = (uint8_t*)kutil_data(y);
  for (i = 0; i < n; i++) {
    uint64_t v = 0;
    memcpy(&v, s + (size_t)i * esz, esz); /* only the value's own bits */
    o[i] = (uint8_t)__builtin_popcountll(v);
  }
}

/* ---------------------------------------------------------------- Roll */

static void k_roll(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* shift = k->inputs[1];
  const TF_Tensor* axis = k->inputs[2];
  int nd = x->num_dims, d;
  int64_t total[TFE_MAX_DIMS], idx[TFE_MAX_DIMS], stride[TFE_MAX_DIMS];
  int64_t n, m, i, src;
  size_t esz = kutil_esize(x->dtype);
  kutil_shape_buf b;
  TF_Tensor* y;
  char* o;
  const char* s;
  if (nd < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 1-D or higher");
    return;
  }
  if (shift->num_dims > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "shift must be a scalar or a 1-D vector. Found: %s",
               kutil_tshape(shift, &b));
    return;
  }
  if (axis->num_dims > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "axis must be a scalar or a 1-D vector. Found: %s",
               kutil_tshape(axis, &b));
    return;
  }
  m = kutil_num_elements(shift);
  if (m != kutil_num_elements(axis)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "shift and axis must have the same size");
    return;
  }
  for (d = 0; d < nd; d++) total[d] = 0;
  for (i = 0; i < m; i++) {
    int64_t a = kutil_get_int(axis, i);
    int64_t sh = kutil_get_int(shift, i), dim;
    if (a < 0) a += nd;
    if (a < 0 || a >= nd) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "axis %lld is out of range",
                 (long long)a);
      return;
    }
    dim = x->dims[a];
    if (dim > 0) total[a] = ((total[a] + sh % dim) % dim + dim) % dim;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, nd);
  if (y == NULL) return;
  n = kutil_num_elements(x);
  if (n == 0) return;
  o = (char*)kutil_data(y);
  s = (const char*)kutil_data(x);
  stride[nd - 1] = 1;
  for (d = nd - 2; d >= 0; d--) stride[d] = stride[d + 1] * x->dims[d + 1];
  for (d = 0; d < nd; d++) idx[d] = 0;
  for (i = 0; i < n; i++) {
    /* output position idx takes the input element `total` places back */
    src = 0;
    for (d = 0; d < nd; d++) {
      int64_t j = idx[d] - total[d];
      if (j < 0) j += x->dims[d];
      src += j * stride[d];
    }
    kutil_copy1(x->dtype, esz, o + (size_t)i * esz, s + (size_t)src * esz);
    for (d = nd - 1; d >= 0; d--) {
      if (++idx[d] < x->dims[d]) break;
      idx[d] = 0;
    }
  }
}

/* ------------------------------------------------ LowerBound, UpperBound */

/* Index of the first element of row[0..n) that is >= v (lower) or > v
 * (upper), by binary search with `<` only, as std::lower_bound and
 * std::upper_bound do. */
#define AO_BOUND_SEARCH(T, GET)                                     \
  static int64_t bound_##T(const void* rowp, int64_t n, T v,       \
                           int upper) {                            \
    const T* row = (const T*)rowp;                                 \
    int64_t lo = 0, cnt = n;                                       \
    (void)0;                                                       \
    while (cnt > 0) {                                              \
      int64_t step = cnt / 2, mid = lo + step;                     \
      int go_right = upper ? !(v < GET(row[mid])) : GET(row[mid]) < v; \
      if (go_right) {                                              \
        lo = mid + 1;                                              \
        cnt -= step + 1;                                           \
      } else {                                                     \
        cnt = step;                                                \
      }                                                            \
    }                                                              \
    return lo;                                                     \
  }

#define AO_ID(x) (x)
typedef float f32_t;
typedef double f64_t;
AO_BOUND_SEARCH(f32_t, AO_ID)
AO_BOUND_SEARCH(f64_t, AO_ID)
AO_BOUND_SEARCH(int8_t, AO_ID)
AO_BOUND_SEARCH(int16_t, AO_ID)
AO_BOUND_SEARCH(int32_t, AO_ID)
AO_BOUND_SEARCH(int64_t, AO_ID)
AO_BOUND_SEARCH(uint8_t, AO_ID)
AO_BOUND_SEARCH(uint16_t, AO_ID)
AO_BOUND_SEARCH(uint32_t, AO_ID)
AO_BOUND_SEARCH(uint64_t, AO_ID)

/* half and bfloat16 compare as floats. */
static int64_t bound_16(TF_DataType dt, const uint16_t* row, int64_t n,
                        float v, int upper) {
  int64_t lo = 0, cnt = n;
  while (cnt > 0) {
    int64_t step = cnt / 2, mid = lo + step;
    float r = dt == TF_HALF ? kutil_f16_to_f32(row[mid])
                            : kutil_bf16_to_f32(row[mid]);
    int go_right = upper ? !(v < r) : r < v;
    if (go_right) {
      lo = mid + 1;
      cnt -= step + 1;
    } else {
      cnt = step;
    }
  }
  return lo;
}

static int64_t bound_one(TF_DataType dt, const void* row, int64_t n,
                         const void* vals, int64_t j, int upper) {
  switch (dt) {
    case TF_FLOAT: return bound_f32_t(row, n, ((const float*)vals)[j], upper);
    case TF_DOUBLE: return bound_f64_t(row, n, ((const double*)vals)[j], upper);
    case TF_INT8: return bound_int8_t(row, n, ((const int8_t*)vals)[j], upper);
    case TF_INT16:
      return bound_int16_t(row, n, ((const int16_t*)vals)[j], upper);
    case TF_INT32:
      return bound_int32_t(row, n, ((const int32_t*)vals)[j], upper);
    case TF_INT64:
      return bound_int64_t(row, n, ((const int64_t*)vals)[j], upper);
    case TF_UINT8:
      return bound_uint8_t(row, n, ((const uint8_t*)vals)[j], upper);
    case TF_UINT16:
      return bound_uint16_t(row, n, ((const uint16_t*)vals)[j], upper);
    case TF_UINT32:
      return bound_uint32_t(row, n, ((const uint32_t*)vals)[j], upper);
    case TF_UINT64:
      return bound_uint64_t(row, n, ((const uint64_t*)vals)[j], upper);
    case TF_HALF:
      return bound_16(dt, (const uint16_t*)row, n,
                      kutil_f16_to_f32(((const uint16_t*)vals)[j]), upper);
    case TF_BFLOAT16:
      return bound_16(dt, (const uint16_t*)row, n,
                      kutil_bf16_to_f32(((const uint16_t*)vals)[j]), upper);
    default: return 0;
  }
}

static void search_sorted(tfe_kernel_context* k, int upper) {
  const TF_Tensor* sorted = k->inputs[0];
  const TF_Tensor* vals = k->inputs[1];
  TF_DataType ot = k->output_types[0];
  size_t esz = kutil_esize(sorted->dtype);
  int64_t b, j, rows, n, m;
  TF_Tensor* y;
  if (sorted->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shape must be rank 2 but is rank %d for `sorted_inputs` "
               "argument",
               sorted->num_dims);
    return;
  }
  if (vals->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shape must be rank 2 but is rank %d for `values` argument",
               vals->num_dims);
    return;
  }
  if (sorted->dims[0] != vals->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Leading dim_size of both tensors must match.");
    return;
  }
  rows = sorted->dims[0];
  n = sorted->dims[1];
  m = vals->dims[1];
  if (ot == TF_INT32 && n >= INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "trailing dim_size must less than INT_MAX for int32 output "
               "type, was %lld",
               (long long)n);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, ot, vals->dims, 2);
  if (y == NULL) return;
  for (b = 0; b < rows; b++) {
    const char* row = (const char*)kutil_data(sorted) + (size_t)(b * n) * esz;
    const char* vrow = (const char*)kutil_data(vals) + (size_t)(b * m) * esz;
    for (j = 0; j < m; j++) {
      int64_t r = bound_one(sorted->dtype, row, n, vrow, j, upper);
      if (ot == TF_INT32) {
        ((int32_t*)kutil_data(y))[b * m + j] = (int32_t)r;
      } else {
        ((int64_t*)kutil_data(y))[b * m + j] = r;
      }
    }
  }
}

static void k_lower_bound(tfe_kernel_context* k) { search_sorted(k, 0); }
static void k_upper_bound(tfe_kernel_context* k) { search_sorted(k, 1); }

/* ------------------------------------------------------------ Bincount */

static void k_bincount(tfe_kernel_context* k) {
  const TF_Tensor* arr = k->inputs[0];
  const TF_Tensor* size_t_ = k->inputs[1];
  const TF_Tensor* w = k->inputs[2];
  TF_DataType dt = w->dtype;
  int64_t n = kutil_num_elements(arr), i, size;
  const int32_t* a = (const int32_t*)kutil_data(arr);
  int has_w;
  TF_Tensor* y;
  void* o;
  if (size_t_->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape must be rank 0 but is rank %d",
               size_t_->num_dims);
    return;
  }
  size = kutil_get_int(size_t_, 0);
  if (size < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "size (%lld) must be non-negative",
               (long long)size);
    return;
  }
  for (i = 0; i < n; i++) {
    if (a[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input arr must be non-negative!");
      return;
    }
  }
  has_w = kutil_num_elements(w) > 0;
  if (has_w && kutil_num_elements(w) != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input indices and weights must have the same size.");
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, dt, &size, 1);
  if (y == NULL) return;
  o = kutil_data(y);
  tfe_ao_fill_zero(dt, o, size);
  for (i = 0; i < n; i++) {
    int64_t j = a[i];
    if (j >= size) continue;
    switch (dt) {
      case TF_INT32:
        ((int32_t*)o)[j] = (int32_t)((uint32_t)((int32_t*)o)[j] +
                                     (has_w ? (uint32_t)((const int32_t*)kutil_data(w))[i] : 1u));
        break;
      case TF_INT64:
        ((int64_t*)o)[j] = (int64_t)((uint64_t)((int64_t*)o)[j] +
                                     (has_w ? (uint64_t)((const int64_t*)kutil_data(w))[i] : 1u));
        break;
      case TF_FLOAT:
        ((float*)o)[j] += has_w ? ((const float*)kutil_data(w))[i] : 1.0f;
        break;
      case TF_DOUBLE:
        ((double*)o)[j] += has_w ? ((const double*)kutil_data(w))[i] : 1.0;
        break;
      default: break;
    }
  }
}

/* ------------------------------------------------------------ ListDiff */

/* Elements compared by value: floating values as doubles (NaN never
 * matches, -0.0 matches 0.0), integers as 64-bit, strings by bytes. */
typedef struct ld_key {
  int kind; /* 0 double, 1 signed, 2 unsigned, 3 string */
  double f;
  int64_t s;
  uint64_t u;
  const char* p;
  size_t len;
} ld_key;

static ld_key ld_get(const TF_Tensor* t, int64_t i) {
  ld_key key;
  const void* d = kutil_data(t);
  memset(&key, 0, sizeof key);
  switch (t->dtype) {
    case TF_FLOAT:
    case TF_DOUBLE:
    case TF_HALF:
    case TF_BFLOAT16:
      key.kind = 0;
      key.f = elem_as_double(t->dtype, d, i);
      break;
    case TF_UINT64:
      key.kind = 2;
      key.u = ((const uint64_t*)d)[i];
      break;
    case TF_BOOL:
      key.kind = 1;
      key.s = ((const unsigned char*)d)[i] != 0;
      break;
    case TF_STRING: {
      const TF_TString* s = (const TF_TString*)d + i;
      key.kind = 3;
      key.p = TF_TString_GetDataPointer(s);
      key.len = TF_TString_GetSize(s);
      break;
    }
    default:
      key.kind = 1;
      key.s = kutil_get_int(t, i);
      break;
  }
  return key;
}

static int ld_cmp(const void* pa, const void* pb) {
  const ld_key* a = (const ld_key*)pa;
  const ld_key* b = (const ld_key*)pb;
  switch (a->kind) {
    case 0: return (a->f > b->f) - (a->f < b->f);
    case 1: return (a->s > b->s) - (a->s < b->s);
    case 2: return (a->u > b->u) - (a->u < b->u);
    default: {
      size_t n = a->len < b->len ? a->len : b->len;
      int c = n > 0 ? memcmp(a->p, b->p, n) : 0;
      if (c != 0) return c;
      return (a->len > b->len) - (a->len < b->len);
    }
  }
}

static void k_list_diff(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* yv = k->inputs[1];
  TF_DataType it = k->output_types[1];
  size_t esz = kutil_esize(x->dtype);
  int64_t nx, ny, i, ns = 0, keep = 0;
  ld_key* set = NULL;
  unsigned char* keep_mask = NULL;
  TF_Tensor *out, *idx;
  if (x->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "x should be a 1D vector.");
    return;
  }
  if (yv->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "y should be a 1D vector.");
    return;
  }
  nx = x->dims[0];
  ny = yv->dims[0];
  if (ny > 0) {
    set = (ld_key*)tfe_malloc((size_t)ny * sizeof *set);
    if (set == NULL) goto oom;
  }
  if (nx > 0) {
    keep_mask = (unsigned char*)tfe_malloc((size_t)nx);
    if (keep_mask == NULL) goto oom;
  }
  for (i = 0; i < ny; i++) {
    ld_key key = ld_get(yv, i);
    if (key.kind == 0 && isnan(key.f)) continue; /* matches nothing */
    set[ns++] = key;
  }
  if (ns > 1) qsort(set, (size_t)ns, sizeof *set, ld_cmp);
  for (i = 0; i < nx; i++) {
    ld_key key = ld_get(x, i);
    int found = ns > 0 && bsearch(&key, set, (size_t)ns, sizeof *set,
                                  ld_cmp) != NULL;
    if (key.kind == 0 && isnan(key.f)) found = 0;
    keep_mask[i] = (unsigned char)!found;
    keep += !found;
  }
  out = tfe_kernel_alloc_output(k, 0, x->dtype, &keep, 1);
  if (out == NULL) goto done;
  idx = tfe_kernel_alloc_output(k, 1, it, &keep, 1);
  if (idx == NULL) goto done;
  {
    int64_t j = 0;
    char* o = (char*)kutil_data(out);
    const char* s = (const char*)kutil_data(x);
    for (i = 0; i < nx; i++) {
      if (!keep_mask[i]) continue;
      kutil_copy1(x->dtype, esz, o + (size_t)j * esz, s + (size_t)i * esz);
      if (it == TF_INT32) {
        ((int32_t*)kutil_data(idx))[j] = (int32_t)i;
      } else {
        ((int64_t*)kutil_data(idx))[j] = i;
      }
      j++;
    }
  }
  goto done;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in ListDiff");
done:
  tfe_free(set);
  tfe_free(keep_mask);
}

/* ---------------------------------------------------- UniqueWithCounts */

/* Sort order for grouping equal elements: by key, NaNs after everything
 * and never equal to each other, ties by position (so each group starts
 * with its first occurrence). */
typedef struct uq_item {
  ld_key key;
  int64_t pos;
  int nan;
} uq_item;

static int uq_cmp(const void* pa, const void* pb) {
  const uq_item* a = (const uq_item*)pa;
  const uq_item* b = (const uq_item*)pb;
  int c;
  if (a->nan != b->nan) return a->nan - b->nan;
  c = a->nan ? 0 : ld_cmp(&a->key, &b->key);
  if (c != 0) return c;
  return (a->pos > b->pos) - (a->pos < b->pos);
}

static int cmp_i64(const void* pa, const void* pb) {
  int64_t a = *(const int64_t*)pa, b = *(const int64_t*)pb;
  return (a > b) - (a < b);
}

static void k_unique_with_counts(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  TF_DataType it = k->output_types[1];
  size_t esz = kutil_esize(x->dtype);
  int64_t n, i, groups = 0;
  uq_item* items = NULL;
  int64_t* group_of = NULL; /* element -> group (in sort order) */
  int64_t* firsts = NULL;   /* group -> first position, then sorted */
  int64_t* rank = NULL;     /* group -> output index */
  int64_t* counts = NULL;
  TF_Tensor *y, *idx, *cnt;
  if (x->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "unique expects a 1D vector.");
    return;
  }
  n = x->dims[0];
  if (n > 0) {
    items = (uq_item*)tfe_malloc((size_t)n * sizeof *items);
    group_of = (int64_t*)tfe_malloc((size_t)n * sizeof *group_of);
    firsts = (int64_t*)tfe_malloc((size_t)n * 2 * sizeof *firsts);
    rank = (int64_t*)tfe_malloc((size_t)n * sizeof *rank);
    counts = (int64_t*)tfe_calloc((size_t)n, sizeof *counts);
    if (!items || !group_of || !firsts || !rank || !counts) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in UniqueWithCounts");
      goto done;
    }
  }
  for (i = 0; i < n; i++) {
    items[i].key = ld_get(x, i);
    items[i].pos = i;
    items[i].nan = items[i].key.kind == 0 && isnan(items[i].key.f);
  }
  if (n > 1) qsort(items, (size_t)n, sizeof *items, uq_cmp);
  for (i = 0; i < n; i++) {
    int fresh = i == 0 || items[i].nan || items[i - 1].nan ||
                ld_cmp(&items[i - 1].key, &items[i].key) != 0;
    if (fresh) {
      /* (first position, group) pairs, ordered by position below */
      firsts[2 * groups] = items[i].pos;
      firsts[2 * groups + 1] = groups;
      groups++;
    }
    group_of[items[i].pos] = groups - 1;
    counts[groups - 1]++;
  }
  if (groups > 1) qsort(firsts, (size_t)groups, 2 * sizeof *firsts, cmp_i64);
  for (i = 0; i < groups; i++) rank[firsts[2 * i + 1]] = i;
  y = tfe_kernel_alloc_output(k, 0, x->dtype, &groups, 1);
  if (y == NULL) goto done;
  idx = tfe_kernel_alloc_output(k, 1, it, &n, 1);
  if (idx == NULL) goto done;
  cnt = tfe_kernel_alloc_output(k, 2, it, &groups, 1);
  if (cnt == NULL) goto done;
  for (i = 0; i < groups; i++) {
    int64_t g = firsts[2 * i + 1];
    kutil_copy1(x->dtype, esz, (char*)kutil_data(y) + (size_t)i * esz,
                (const char*)kutil_data(x) + (size_t)firsts[2 * i] * esz);
    if (it == TF_INT32) {
      ((int32_t*)kutil_data(cnt))[i] = (int32_t)counts[g];
    } else {
      ((int64_t*)kutil_data(cnt))[i] = counts[g];
    }
  }
  for (i = 0; i < n; i++) {
    int64_t r = rank[group_of[i]];
    if (it == TF_INT32) {
      ((int32_t*)kutil_data(idx))[i] = (int32_t)r;
    } else {
      ((int64_t*)kutil_data(idx))[i] = r;
    }
  }
done:
  tfe_free(items);
  tfe_free(group_of);
  tfe_free(firsts);
  tfe_free(rank);
  tfe_free(counts);
}

/* ------------------------------------------------------- registration */

void tfe_register_arrayops_kernels(void) {
  static const TF_DataType fl[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType diag[] = {TF_HALF,  TF_FLOAT,     TF_DOUBLE,
                                     TF_INT32, TF_INT64,     TF_COMPLEX64,
                                     TF_COMPLEX128};
  static const TF_DataType lin[] = {TF_FLOAT, TF_DOUBLE};
  static const TF_DataType ints[] = {TF_INT8,  TF_INT16,  TF_INT32,
                                     TF_INT64, TF_UINT8,  TF_UINT16,
                                     TF_UINT32, TF_UINT64};
  static const TF_DataType roll[] = {KUTIL_POD_TYPES, TF_STRING};
  static const TF_DataType real[] = {KUTIL_REAL_TYPES};
  static const TF_DataType binc[] = {TF_INT32, TF_INT64, TF_FLOAT,
                                     TF_DOUBLE};
  static const TF_DataType ld[] = {KUTIL_REAL_TYPES, TF_STRING};
  static const TF_DataType uq[] = {KUTIL_REAL_TYPES, TF_BOOL, TF_STRING};
  tfe_kutil_register("StopGradient", k_forward, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("PreventGradient", k_forward, NULL, NULL, 0, NULL, NULL,
                     0);
  tfe_kutil_register("CheckNumerics", k_check_numerics, "T", fl,
                     KUTIL_COUNT(fl), NULL, NULL, 0);
  tfe_kutil_register("CheckNumericsV2", k_check_numerics_v2, "T", fl,
                     KUTIL_COUNT(fl), NULL, NULL, 0);
  tfe_kutil_register("Diag", k_diag, "T", diag, KUTIL_COUNT(diag), NULL,
                     NULL, 0);
  tfe_kutil_register("DiagPart", k_diag_part, "T", diag, KUTIL_COUNT(diag),
                     NULL, NULL, 0);
  tfe_kutil_register("LinSpace", k_linspace, "T", lin, KUTIL_COUNT(lin), NULL,
                     NULL, 0);
  tfe_kutil_register("PopulationCount", k_popcount, "T", ints,
                     KUTIL_COUNT(ints), NULL, NULL, 0);
  tfe_kutil_register("Roll", k_roll, "T", roll, KUTIL_COUNT(roll), NULL, NULL,
                     0);
  tfe_kutil_register("LowerBound", k_lower_bound, "T", real,
                     KUTIL_COUNT(real), NULL, NULL, 0);
  tfe_kutil_register("UpperBound", k_upper_bound, "T", real,
                     KUTIL_COUNT(real), NULL, NULL, 0);
  tfe_kutil_register("Bincount", k_bincount, "T", binc, KUTIL_COUNT(binc),
                     NULL, NULL, 0);
  tfe_kutil_register("ListDiff", k_list_diff, "T", ld, KUTIL_COUNT(ld), NULL,
                     NULL, 0);
  tfe_kutil_register("UniqueWithCounts", k_unique_with_counts, "T", uq,
                     KUTIL_COUNT(uq), NULL, NULL, 0);
  tfe_register_arrayops_segment_kernels();
  tfe_register_arrayops_matrix_kernels();
  tfe_register_arrayops_space_kernels();
  tfe_register_arrayops_scatter_kernels();
  tfe_register_arrayops_more_kernels();
  tfe_register_arrayops_batch_kernels();
  tfe_register_arrayops_v1_kernels();
}
