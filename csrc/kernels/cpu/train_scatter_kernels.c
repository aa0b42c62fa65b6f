/* CPU kernels: the scatter updates of variables. Scatter{Add,Sub,Mul,Div,
 * Max,Min,Update} and ScatterNd{Add,Sub,Max,Min,Update} on reference
 * variables, their Resource* forms on resource variables, and the
 * functional ScatterNdNonAliasingAdd.
 *
 * Scatter* index the first dimension (updates.shape = indices.shape +
 * var.shape[1:], or a scalar update for every named row); ScatterNd*
 * index the first K dimensions with the rows of a [..., K] indices tensor.
 * Every index is checked before anything changes, and repeated indices
 * apply one after the other, as TF's CPU kernels do. */
#include <complex.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/complex_compat.h"
#include "core/threadpool.h"
#include "kernels/cpu/arrayops_common.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"

void tfe_register_cpu_train_scatter_kernels(void);

typedef enum sc_kind { SC_ADD, SC_SUB, SC_MUL, SC_DIV, SC_MAX, SC_MIN, SC_UPDATE } sc_kind;

/* ---- element folding ---- */

#define DIV_LOOP(T)                                                   \
  do {                                                                \
    T* a_ = (T*)acc;                                                  \
    const T* s_ = (const T*)src;                                      \
    for (i = 0; i < n; i++) a_[i] = a_[i] / s_[i];                    \
  } while (0)

/* acc[i] /= src[i]; integer divisors were checked for zero before. */
static void div_rows(TF_DataType dt, void* acc, const void* src, int64_t n) {
  int64_t i;
  switch (dt) {
    case TF_FLOAT: DIV_LOOP(float); break;
    case TF_DOUBLE: DIV_LOOP(double); break;
    case TF_INT8: DIV_LOOP(int8_t); break;
    case TF_INT16: DIV_LOOP(int16_t); break;
    case TF_INT32: {
      int32_t* a = (int32_t*)acc;
      const int32_t* s = (const int32_t*)src;
      /* INT_MIN / -1 wraps, as the hardware would not. */
      for (i = 0; i < n; i++) a[i] = s[i] == -1 ? (int32_t)(0u - (uint32_t)a[i]) : a[i] / s[i];
      break;
    }
    case TF_INT64: {
      int64_t* a = (int64_t*)acc;
      const int64_t* s = (const int64_t*)src;
      for (i = 0; i < n; i++) a[i] = s[i] == -1 ? (int64_t)(0u - (uint64_t)a[i]) : a[i] / s[i];
      break;
    }
    case TF_UINT8: DIV_LOOP(uint8_t); break;
    case TF_UINT16: DIV_LOOP(uint16_t); break;
    case TF_UINT32: DIV_LOOP(uint32_t); break;
    case TF_UINT64: DIV_LOOP(uint64_t); break;
    case TF_COMPLEX64: DIV_LOOP(float complex); break;
    case TF_COMPLEX128: DIV_LOOP(double complex); break;
    case TF_HALF:
    case TF_BFLOAT16: {
      uint16_t* a = (uint16_t*)acc;
      const uint16_t* s = (const uint16_t*)src;
      for (i = 0; i < n; i++) {
        if (dt == TF_HALF) {
          a[i] = kutil_f32_to_f16(kutil_f16_to_f32(a[i]) / kutil_f16_to_f32(s[i]));
        } else {
          a[i] = kutil_f32_to_bf16(kutil_bf16_to_f32(a[i]) / kutil_bf16_to_f32(s[i]));
        }
      }
      break;
    }
    default:
      break;
  }
}

static int is_int_type(TF_DataType dt) {
  switch (dt) {
    case TF_INT8: case TF_INT16: case TF_INT32: case TF_INT64:
    case TF_UINT8: case TF_UINT16: case TF_UINT32: case TF_UINT64:
      return 1;
    default:
      return 0;
  }
}

/* 1 when some element of an integer tensor is zero. */
static int has_int_zero(const TF_Tensor* t) {
  int64_t i, n = kutil_num_elements(t);
  for (i = 0; i < n; i++) {
    if (kutil_get_int(t, i) == 0) return 1;
  }
  return 0;
}

/* Folds n elements of src into acc. */
static void fold(sc_kind kind, TF_DataType dt, void* acc, const void* src, int64_t n) {
  int64_t i;
  if (dt == TF_BOOL && (kind == SC_ADD || kind == SC_SUB)) {
    /* bool arithmetic as C++ does it: a + b is a || b, a - b is a != b. */
    unsigned char* a = (unsigned char*)acc;
    const unsigned char* s = (const unsigned char*)src;
    for (i = 0; i < n; i++) a[i] = kind == SC_ADD ? (a[i] || s[i]) : (a[i] != s[i]);
    return;
  }
  switch (kind) {
    case SC_ADD: tfe_ao_combine(dt, TFE_AO_SUM, acc, src, n); break;
    case SC_SUB: tfe_ao_combine(dt, TFE_AO_SUB, acc, src, n); break;
    case SC_MUL: tfe_ao_combine(dt, TFE_AO_PROD, acc, src, n); break;
    case SC_MAX: tfe_ao_combine(dt, TFE_AO_MAX_KEEP, acc, src, n); break;
    case SC_MIN: tfe_ao_combine(dt, TFE_AO_MIN_KEEP, acc, src, n); break;
    case SC_DIV: div_rows(dt, acc, src, n); break;
    case SC_UPDATE: kutil_copy(dt, acc, src, n); break;
  }
}

/* ---- the variable ---- */

typedef struct sc_var {
  tfe_resource* res;
  tfe_ref_cell* cell;
  pthread_mutex_t* mu;
  TF_Tensor* value;
} sc_var;

static int var_acquire(tfe_kernel_context* k, int resource, sc_var* v) {
  memset(v, 0, sizeof *v);
  if (resource) {
    v->res = tfe_var_from_handle(k->inputs[0], k->status);
    if (v->res == NULL) return 0;
    v->mu = &v->res->mu;
  } else {
    v->cell = tfe_kernel_input_ref(k, 0);
    if (v->cell == NULL) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input 0 of %s is not a reference",
                 k->op_def != NULL ? k->op_def->name : "?");
      return 0;
    }
    if (!tfe_kernel_set_output_ref(k, 0, v->cell)) return 0;
    v->mu = &v->cell->mu;
  }
  pthread_mutex_lock(v->mu);
  v->value = resource ? v->res->value : v->cell->value;
  if (v->value == NULL) {
    if (resource) {
      tfe_var_set_missing_error(v->res, 0, k->status);
    } else {
      KUTIL_FAIL(k, TF_FAILED_PRECONDITION, "Attempting to use uninitialized variables: ref");
    }
    return 0;
  }
  return 1;
}

static void var_release(sc_var* v) {
  if (v->mu != NULL) pthread_mutex_unlock(v->mu);
  if (v->res != NULL) tfe_resource_unref(v->res);
}

/* Makes a resource variable's buffer its own before it is written. */
static int var_prepare(tfe_kernel_context* k, sc_var* v) {
  if (v->res == NULL) return 1;
  if (!tfe_var_prepare_update(v->res, k->status)) return 0;
  v->value = v->res->value;
  return 1;
}

/* ---- Scatter* (first dimension) ---- */

/* "[i,j]" position of flat element i of a tensor of dims (nd >= 1). */
static void flat_pos(const int64_t* dims, int nd, int64_t flat, char* buf, size_t cap) {
  int64_t p[TFE_MAX_DIMS];
  int d;
  for (d = nd - 1; d >= 0; d--) {
    p[d] = dims[d] > 0 ? flat % dims[d] : 0;
    flat = dims[d] > 0 ? flat / dims[d] : 0;
  }
  kutil_shape_str(p, nd, buf, cap);
}

/* Applies the updates whose target row is in [row_b, row_e), in the order
 * of the indices. Threads own disjoint row ranges and each keeps the
 * indices' order for its rows, so duplicates fold exactly as in one serial
 * pass and the result does not depend on the thread count. */
enum { ROWS_PAR_MIN = 1 << 16 };

typedef struct {
  sc_kind kind;
  TF_Tensor* p;
  const TF_Tensor* ind;
  const TF_Tensor* upd;
  int64_t n, inner;
  int scalar;
} rows_arg;

static void rows_chunk(void* arg, int64_t row_b, int64_t row_e) {
  const rows_arg* a = (const rows_arg*)arg;
  const size_t esz = kutil_esize(a->p->dtype);
  const char* src = (const char*)kutil_data(a->upd);
  int64_t i, j;
  const int32_t* i32 = a->ind->dtype == TF_INT32 ? (const int32_t*)kutil_data(a->ind) : NULL;
  const int64_t* i64 = a->ind->dtype == TF_INT64 ? (const int64_t*)kutil_data(a->ind) : NULL;
  const size_t row_bytes = (size_t)a->inner * esz;
  for (i = 0; i < a->n; i++) {
    const int64_t ix = i32 != NULL ? i32[i] : i64 != NULL ? i64[i] : kutil_get_int(a->ind, i);
    char* dst;
    if (ix < row_b || ix >= row_e) continue;
    dst = (char*)kutil_data(a->p) + (size_t)ix * row_bytes;
    if (a->kind == SC_UPDATE && !a->scalar && a->p->dtype != TF_STRING &&
        a->p->dtype != TF_RESOURCE && a->p->dtype != TF_VARIANT) {
      memcpy(dst, src + (size_t)i * row_bytes, row_bytes);
    } else if (a->scalar) {
      for (j = 0; j < a->inner; j++) fold(a->kind, a->p->dtype, dst + (size_t)j * esz, src, 1);
    } else {
      fold(a->kind, a->p->dtype, dst, src + (size_t)(i * a->inner) * esz, a->inner);
    }
  }
}

static void scatter_rows(tfe_kernel_context* k, sc_kind kind, int resource) {
  const TF_Tensor* ind = k->inputs[1];
  const TF_Tensor* upd = k->inputs[2];
  TF_Tensor* p;
  sc_var v;
  int64_t n, inner = 1, limit, i;
  int scalar, d;
  if (!var_acquire(k, resource, &v)) goto done;
  p = v.value;
  if (p->dtype != upd->dtype) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "DType of scatter resource and updates does not match.");
    goto done;
  }
  scalar = upd->num_dims == 0;
  /* The reference kernels check the rank first, the resource ones the
   * shapes. */
  if (!resource && p->num_dims == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "params must be at least 1-D, got shape []");
    goto done;
  }
  if (!scalar && upd->num_dims != ind->num_dims + p->num_dims - 1) goto bad_shape;
  n = kutil_num_elements(ind);
  if (p->num_dims == 0) {
    if (!scalar) goto bad_shape;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "params must be at least 1-D, got shape []");
    goto done;
  }
  if (!scalar) {
    for (d = 0; d < ind->num_dims; d++) {
      if (upd->dims[d] == ind->dims[d]) continue;
      if (resource) {
        kutil_shape_buf a, b;
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "The shape of indices (%s) must be a prefix of the shape of updates (%s)",
                   kutil_tshape(ind, &a), kutil_tshape(upd, &b));
        goto done;
      }
      goto bad_shape;
    }
    for (d = 1; d < p->num_dims; d++) {
      if (upd->dims[ind->num_dims + d - 1] != p->dims[d]) goto bad_shape;
    }
  }
  if (n == 0) goto done;
  limit = p->dims[0];
  for (d = 1; d < p->num_dims; d++) inner *= p->dims[d];
  for (i = 0; i < n; i++) {
    int64_t ix = kutil_get_int(ind, i);
    if (ix < 0 || ix >= limit) {
      char pos[512];
      if (ind->num_dims > 0) {
        flat_pos(ind->dims, ind->num_dims, i, pos, sizeof pos);
      } else {
        pos[0] = '\0';
      }
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices%s = %lld is not in [0, %lld)", pos,
                 (long long)ix, (long long)limit);
      goto done;
    }
  }
  if (kind == SC_DIV && is_int_type(upd->dtype) && has_int_zero(upd)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "updates must not contain 0");
    goto done;
  }
  if (!var_prepare(k, &v)) goto done;
  {
    rows_arg ra;
    ra.kind = kind;
    ra.p = v.value;
    ra.ind = ind;
    ra.upd = upd;
    ra.n = n;
    ra.inner = inner;
    ra.scalar = scalar;
    tfe_threadpool* pool = tfe_kernel_threadpool(k);
    const int nt = tfe_threadpool_size(pool);
    if (n * inner >= ROWS_PAR_MIN && limit > 1 && nt > 1) {
      /* One chunk per thread: every chunk scans all the indices. */
      tfe_parallel_for(pool, limit, (limit + nt - 1) / nt, rows_chunk, &ra);
    } else {
      rows_chunk(&ra, 0, limit);
    }
  }
  goto done;
bad_shape: {
  kutil_shape_buf a, b, c;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Must have updates.shape = indices.shape + params.shape[1:] or "
             "updates.shape = [], got updates.shape %s, indices.shape %s, params.shape %s",
             kutil_tshape(upd, &a), kutil_tshape(ind, &b), kutil_tshape(v.value, &c));
}
done:
  var_release(&v);
}

/* ---- ScatterNd* ---- */

typedef struct nd_plan {
  int64_t slice_dim, batch_dim, nrows, slice;
} nd_plan;

/* TF's checks of updates' shape against the variable's and the indices'. */
static int nd_validate(tfe_kernel_context* k, const TF_Tensor* p, const TF_Tensor* ix,
                       const TF_Tensor* up, nd_plan* pl) {
  kutil_shape_buf a, b;
  int64_t d;
  if (p->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Output must be at least 1-D, got shape: %s",
               kutil_tshape(p, &a));
    return 0;
  }
  if (ix->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Indices shape must have rank at least one. Found:%s",
               kutil_tshape(ix, &a));
    return 0;
  }
  /* A vector of indices addresses rows: each element is a 1-long index. */
  pl->slice_dim = ix->num_dims > 1 ? ix->dims[ix->num_dims - 1] : 1;
  pl->batch_dim = ix->num_dims > 1 ? ix->num_dims - 1 : 1;
  if (up->num_dims < pl->batch_dim) goto prefix;
  if (p->num_dims < pl->slice_dim + (up->num_dims - pl->batch_dim)) goto suffix;
  if (up->num_dims != pl->batch_dim + p->num_dims - pl->slice_dim) goto suffix;
  for (d = 0; d < pl->batch_dim; d++) {
    if (up->dims[d] != ix->dims[d]) goto prefix;
  }
  for (d = 0; d < up->num_dims - pl->batch_dim; d++) {
    if (up->dims[d + pl->batch_dim] != p->dims[d + pl->slice_dim]) goto suffix;
  }
  pl->nrows = 1;
  for (d = 0; d < pl->batch_dim; d++) pl->nrows *= ix->dims[d];
  pl->slice = 1;
  for (d = pl->slice_dim; d < p->num_dims; d++) pl->slice *= p->dims[d];
  if (kutil_num_elements(p) == 0 && pl->nrows > 0 && kutil_num_elements(up) > 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Indices and updates specified for empty input");
    return 0;
  }
  return 1;
prefix:
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Dimensions [0,%lld) of indices[shape=%s] must match dimensions [0,%lld) of "
             "updates[shape=%s]",
             (long long)pl->batch_dim, kutil_tshape(ix, &a), (long long)pl->batch_dim,
             kutil_tshape(up, &b));
  return 0;
suffix:
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Dimensions [%lld,%d) of input[shape=%s] must match dimensions [%lld,%d) of "
             "updates[shape=%s]",
             (long long)pl->slice_dim, p->num_dims, kutil_tshape(p, &a), (long long)pl->slice_dim,
             up->num_dims, kutil_tshape(up, &b));
  return 0;
}

/* Offset (in slices) of index row r, or -1 when it is out of range. */
static int64_t nd_offset(const TF_Tensor* ix, const TF_Tensor* p, const nd_plan* pl, int64_t r) {
  int64_t off = 0, j;
  for (j = 0; j < pl->slice_dim; j++) {
    int64_t v = kutil_get_int(ix, r * pl->slice_dim + j);
    if (v < 0 || v >= p->dims[j]) return -1;
    off = off * p->dims[j] + v;
  }
  return off;
}

static int ignore_bad(tfe_kernel_context* k, int* ignore) {
  const char* s = "";
  size_t len = 0;
  *ignore = 0;
  if (k->attrs != NULL) tfe_attrs_get_string(k->attrs, "bad_indices_policy", &s, &len, NULL);
  if (len == 0 || (len == 7 && memcmp(s, "DEFAULT", 7) == 0) ||
      (len == 5 && memcmp(s, "ERROR", 5) == 0)) {
    return 1;
  }
  if (len == 6 && memcmp(s, "IGNORE", 6) == 0) {
    *ignore = 1;
    return 1;
  }
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Unknown bad indices handling attribute: %.*s", (int)len, s);
  return 0;
}

/* Checks every index row (unless ignored); 0 with the status set. */
static int nd_check_indices(tfe_kernel_context* k, const TF_Tensor* ix, const TF_Tensor* p,
                            const nd_plan* pl, int ignore) {
  int64_t r, j;
  if (ignore) return 1;
  for (r = 0; r < pl->nrows; r++) {
    if (nd_offset(ix, p, pl, r) < 0) {
      char pos[512], vals[512];
      size_t len = 0;
      kutil_shape_buf sb;
      flat_pos(ix->dims, (int)pl->batch_dim, r, pos, sizeof pos);
      vals[0] = '\0';
      for (j = 0; j < pl->slice_dim && len < sizeof vals; j++) {
        len += (size_t)snprintf(vals + len, sizeof vals - len, j ? ", %lld" : "%lld",
                                (long long)kutil_get_int(ix, r * pl->slice_dim + j));
      }
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices%s = [%s] does not index into shape %s", pos,
                 vals, kutil_tshape(p, &sb));
      return 0;
    }
  }
  return 1;
}

static void nd_apply(sc_kind kind, TF_Tensor* p, const TF_Tensor* ix, const TF_Tensor* up,
                     const nd_plan* pl) {
  size_t esz = kutil_esize(p->dtype);
  int64_t r;
  for (r = 0; r < pl->nrows; r++) {
    int64_t off = nd_offset(ix, p, pl, r);
    if (off < 0) continue; /* ignored bad index */
    fold(kind, p->dtype, (char*)kutil_data(p) + (size_t)(off * pl->slice) * esz,
         (const char*)kutil_data(up) + (size_t)(r * pl->slice) * esz, pl->slice);
  }
}

static void scatter_nd_var(tfe_kernel_context* k, sc_kind kind, int resource) {
  const TF_Tensor* ix = k->inputs[1];
  const TF_Tensor* up = k->inputs[2];
  nd_plan pl;
  sc_var v;
  int ignore;
  if (!ignore_bad(k, &ignore)) return;
  if (!var_acquire(k, resource, &v)) goto done;
  if (v.value->dtype != up->dtype) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "DType of scatter resource and updates does not match.");
    goto done;
  }
  if (!nd_validate(k, v.value, ix, up, &pl)) goto done;
  if (!nd_check_indices(k, ix, v.value, &pl, ignore)) goto done;
  if (pl.nrows == 0 || pl.slice == 0) goto done;
  if (!var_prepare(k, &v)) goto done;
  nd_apply(kind, v.value, ix, up, &pl);
done:
  var_release(&v);
}

static void nonaliasing_add_compute(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* ix = k->inputs[1];
  const TF_Tensor* up = k->inputs[2];
  nd_plan pl;
  TF_Tensor* y;
  int ignore;
  if (!ignore_bad(k, &ignore)) return;
  if (!nd_validate(k, x, ix, up, &pl)) return;
  if (!nd_check_indices(k, ix, x, &pl, ignore)) return;
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL) return;
  kutil_copy(x->dtype, kutil_data(y), kutil_data(x), kutil_num_elements(x));
  if (pl.nrows > 0 && pl.slice > 0) nd_apply(SC_ADD, y, ix, up, &pl);
}

/* ---- registration ---- */

#define ROWS_KERNEL(name, kind, res) \
  static void name(tfe_kernel_context* k) { scatter_rows(k, kind, res); }
#define ND_KERNEL(name, kind, res) \
  static void name(tfe_kernel_context* k) { scatter_nd_var(k, kind, res); }

ROWS_KERNEL(ref_add, SC_ADD, 0)
ROWS_KERNEL(ref_sub, SC_SUB, 0)
ROWS_KERNEL(ref_mul, SC_MUL, 0)
ROWS_KERNEL(ref_div, SC_DIV, 0)
ROWS_KERNEL(ref_max, SC_MAX, 0)
ROWS_KERNEL(ref_min, SC_MIN, 0)
ROWS_KERNEL(ref_update, SC_UPDATE, 0)
ROWS_KERNEL(res_add, SC_ADD, 1)
ROWS_KERNEL(res_sub, SC_SUB, 1)
ROWS_KERNEL(res_mul, SC_MUL, 1)
ROWS_KERNEL(res_div, SC_DIV, 1)
ROWS_KERNEL(res_max, SC_MAX, 1)
ROWS_KERNEL(res_min, SC_MIN, 1)
ROWS_KERNEL(res_update, SC_UPDATE, 1)
ND_KERNEL(nd_ref_add, SC_ADD, 0)
ND_KERNEL(nd_ref_sub, SC_SUB, 0)
ND_KERNEL(nd_ref_max, SC_MAX, 0)
ND_KERNEL(nd_ref_min, SC_MIN, 0)
ND_KERNEL(nd_ref_update, SC_UPDATE, 0)
ND_KERNEL(nd_res_add, SC_ADD, 1)
ND_KERNEL(nd_res_sub, SC_SUB, 1)
ND_KERNEL(nd_res_max, SC_MAX, 1)
ND_KERNEL(nd_res_min, SC_MIN, 1)
ND_KERNEL(nd_res_update, SC_UPDATE, 1)

void tfe_register_cpu_train_scatter_kernels(void) {
  static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
  static const TF_DataType kNum[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType kReal[] = {TF_HALF,  TF_BFLOAT16, TF_FLOAT,  TF_DOUBLE,
                                      TF_INT8,  TF_INT16,    TF_INT32,  TF_INT64,
                                      TF_UINT8, TF_UINT16,   TF_UINT32, TF_UINT64};
  static const TF_DataType kNumBool[] = {KUTIL_NUMBER_TYPES, TF_BOOL};
  static const TF_DataType kAll[] = {KUTIL_NUMBER_TYPES, TF_BOOL, TF_STRING};
  static const struct {
    const char* op;
    void (*fn)(tfe_kernel_context*);
    const char* attr;
    const TF_DataType* types;
    int n;
  } kRegs[] = {
      {"ScatterAdd", ref_add, "T", kNum, KUTIL_COUNT(kNum)},
      {"ScatterSub", ref_sub, "T", kNum, KUTIL_COUNT(kNum)},
      {"ScatterMul", ref_mul, "T", kNum, KUTIL_COUNT(kNum)},
      {"ScatterDiv", ref_div, "T", kNum, KUTIL_COUNT(kNum)},
      {"ScatterMax", ref_max, "T", kReal, KUTIL_COUNT(kReal)},
      {"ScatterMin", ref_min, "T", kReal, KUTIL_COUNT(kReal)},
      {"ScatterUpdate", ref_update, "T", kAll, KUTIL_COUNT(kAll)},
      {"ResourceScatterAdd", res_add, "dtype", kNum, KUTIL_COUNT(kNum)},
      {"ResourceScatterSub", res_sub, "dtype", kNum, KUTIL_COUNT(kNum)},
      {"ResourceScatterMul", res_mul, "dtype", kNum, KUTIL_COUNT(kNum)},
      {"ResourceScatterDiv", res_div, "dtype", kNum, KUTIL_COUNT(kNum)},
      {"ResourceScatterMax", res_max, "dtype", kReal, KUTIL_COUNT(kReal)},
      {"ResourceScatterMin", res_min, "dtype", kReal, KUTIL_COUNT(kReal)},
      {"ResourceScatterUpdate", res_update, "dtype", kAll, KUTIL_COUNT(kAll)},
      {"ScatterNdAdd", nd_ref_add, "T", kNum, KUTIL_COUNT(kNum)},
      {"ScatterNdSub", nd_ref_sub, "T", kNum, KUTIL_COUNT(kNum)},
      {"ScatterNdMax", nd_ref_max, "T", kReal, KUTIL_COUNT(kReal)},
      {"ScatterNdMin", nd_ref_min, "T", kReal, KUTIL_COUNT(kReal)},
      {"ScatterNdUpdate", nd_ref_update, "T", kAll, KUTIL_COUNT(kAll)},
      {"ResourceScatterNdAdd", nd_res_add, "T", kNumBool, KUTIL_COUNT(kNumBool)},
      {"ResourceScatterNdSub", nd_res_sub, "T", kNumBool, KUTIL_COUNT(kNumBool)},
      {"ResourceScatterNdMax", nd_res_max, "T", kReal, KUTIL_COUNT(kReal)},
      {"ResourceScatterNdMin", nd_res_min, "T", kReal, KUTIL_COUNT(kReal)},
      {"ResourceScatterNdUpdate", nd_res_update, "T", kAll, KUTIL_COUNT(kAll)},
      {"ScatterNdNonAliasingAdd", nonaliasing_add_compute, "T", kNumBool,
       KUTIL_COUNT(kNumBool)},
  };
  size_t i;
  for (i = 0; i < sizeof kRegs / sizeof kRegs[0]; i++) {
    tfe_kutil_register(kRegs[i].op, kRegs[i].fn, kRegs[i].attr, kRegs[i].types, kRegs[i].n,
                       "Tindices", kIdx, KUTIL_COUNT(kIdx));
  }
}
