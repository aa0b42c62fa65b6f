/* Elementwise ops that are not plain unary/binary maps: ClipByValue, AddN,
 * BiasAdd, Bucketize, and Add on strings (concatenation). */
#include <string.h>

#include "core/alloc.h"
#include "core/threadpool.h"
#include "kernels/cpu/elementwise_common.h"
#include "tensorflow/c/tf_tstring.h"

static const char* op_name(const tfe_kernel_context* k, const char* dflt) {
  return k->op_def != NULL && k->op_def->name != NULL ? k->op_def->name
                                                      : dflt;
}

/* ================================================================ Clip */

/* t clipped to [lo, hi]: min with hi first, then max with lo, with the
 * comparison semantics of std::min/std::max (NaN in t stays NaN; a NaN
 * bound is ignored). lo/hi advance by sl/sh (0 for a scalar bound). */
typedef void (*clip_fn)(const void* t, const void* lo, const void* hi,
                        void* out, int64_t n, int sl, int sh);

#define EW_CLIP1(x, l, h) \
  ((x) = (h) < (x) ? (h) : (x), (x) = (x) < (l) ? (l) : (x))
#define CLIP_T(NAME, T, TC, LD, ST)                                           \
  static void NAME(const void* tv, const void* lv, const void* hv, void* zv, \
                   int64_t n, int sl, int sh) {                              \
    const T* restrict t = (const T*)tv;                                      \
    const T* restrict lo = (const T*)lv;                                     \
    const T* restrict hi = (const T*)hv;                                     \
    T* restrict z = (T*)zv;                                                  \
    int64_t i;                                                               \
    if (!sl && !sh) {                                                        \
      const TC l = LD(lo[0]), h = LD(hi[0]);                                 \
      for (i = 0; i < n; i++) {                                              \
        TC x = LD(t[i]);                                                     \
        EW_CLIP1(x, l, h);                                                   \
        z[i] = ST(x);                                                        \
      }                                                                      \
    } else {                                                                 \
      for (i = 0; i < n; i++) {                                              \
        TC x = LD(t[i]);                                                     \
        const TC l = LD(lo[i * sl]), h = LD(hi[i * sh]);                     \
        EW_CLIP1(x, l, h);                                                   \
        z[i] = ST(x);                                                        \
      }                                                                      \
    }                                                                        \
  }
#define CLIP_I(OP, sfx, T, U, DT) CLIP_T(OP##_##sfx, T, T, TFE_EW_ID, TFE_EW_ID)
#define CLIP_F(OP, sfx, T, TC, LD, ST, DT) CLIP_T(OP##_##sfx, T, TC, LD, ST)
TFE_EW_SINTS(CLIP_I, clip)
CLIP_I(clip, u8, uint8_t, uint32_t, TF_UINT8)
CLIP_I(clip, u16, uint16_t, uint32_t, TF_UINT16)
TFE_EW_FLOATS(CLIP_F, clip)

/* Complex: real and imaginary parts are clipped separately (what TF's
 * kernel does). */
#define CLIP_C(OP, sfx, T, R, DT)                                             \
  static void OP##_##sfx(const void* tv, const void* lv, const void* hv,     \
                         void* zv, int64_t n, int sl, int sh) {              \
    const R* t = (const R*)tv;                                               \
    const R* lo = (const R*)lv;                                              \
    const R* hi = (const R*)hv;                                              \
    R* z = (R*)zv;                                                           \
    int64_t i;                                                               \
    int p;                                                                   \
    for (i = 0; i < n; i++) {                                                \
      for (p = 0; p < 2; p++) {                                              \
        R x = t[2 * i + p];                                                  \
        const R l = lo[2 * i * sl + p], h = hi[2 * i * sh + p];              \
        EW_CLIP1(x, l, h);                                                   \
        z[2 * i + p] = x;                                                    \
      }                                                                      \
    }                                                                        \
  }
TFE_EW_CPLX(CLIP_C, clip)

#define CLIP_ENT_I(OP, sfx, T, U, DT) [DT] = OP##_##sfx,
static const clip_fn k_clip_fns[TFE_EW_NTYPES] = {
    TFE_EW_SINTS(CLIP_ENT_I, clip)[TF_UINT8] = clip_u8,
    [TF_UINT16] = clip_u16, TFE_EW_FLOATS(TFE_EW_ENT_F, clip)
        TFE_EW_CPLX(TFE_EW_ENT_C, clip)};

/* Elements [b, end) of a clip. */
typedef struct clip_job {
  clip_fn fn;
  const char *t, *lo, *hi;
  char* z;
  size_t esz;
  int sl, sh;
} clip_job;

static void clip_chunk(void* arg, int64_t b, int64_t end) {
  const clip_job* j = (const clip_job*)arg;
  j->fn(j->t + (size_t)b * j->esz, j->lo + (size_t)(b * j->sl) * j->esz,
        j->hi + (size_t)(b * j->sh) * j->esz, j->z + (size_t)b * j->esz,
        end - b, j->sl, j->sh);
}

static void clip_compute(tfe_kernel_context* k) {
  const TF_Tensor *t, *lo, *hi;
  TF_Tensor* out;
  clip_fn fn;
  int64_t n;
  if (!tfe_ew_check_inputs(k, 3)) return;
  t = k->inputs[0];
  lo = k->inputs[1];
  hi = k->inputs[2];
  fn = (unsigned)t->dtype < TFE_EW_NTYPES ? k_clip_fns[t->dtype] : NULL;
  if (fn == NULL || lo->dtype != t->dtype || hi->dtype != t->dtype) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "ClipByValue: unsupported dtypes %s, %s, %s",
                    tfe_dtype_enum_name(t->dtype),
                    tfe_dtype_enum_name(lo->dtype),
                    tfe_dtype_enum_name(hi->dtype));
    return;
  }
  n = tfe_ew_num_elements(t);
  if ((lo->num_dims != 0 && !tfe_ew_same_shape(lo, t)) ||
      (hi->num_dims != 0 && !tfe_ew_same_shape(hi, t))) {
    char s1[256], s2[256], s3[256];
    tfe_status_setf(
        k->status, TF_INVALID_ARGUMENT,
        "clip_value_min and clip_value_max must be either of the same shape "
        "as input, or a scalar. input shape: %sclip_value_min shape: "
        "%sclip_value_max shape: %s",
        tfe_format_shape(t->dims, t->num_dims, s1, sizeof s1),
        tfe_format_shape(lo->dims, lo->num_dims, s2, sizeof s2),
        tfe_format_shape(hi->dims, hi->num_dims, s3, sizeof s3));
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, t->dtype, t->dims, t->num_dims);
  if (out == NULL || n == 0) return;
  {
    clip_job j;
    j.fn = fn;
    j.t = (const char*)tfe_ew_data(t);
    j.lo = (const char*)tfe_ew_data(lo);
    j.hi = (const char*)tfe_ew_data(hi);
    j.z = (char*)tfe_ew_data(out);
    j.esz = TF_DataTypeSize(t->dtype);
    j.sl = lo->num_dims != 0;
    j.sh = hi->num_dims != 0;
    if (n < 2 * TFE_EW_CHUNK_CHEAP) {
      clip_chunk(&j, 0, n);
    } else {
      /* elementwise, so the result does not depend on the split */
      tfe_parallel_for(tfe_kernel_threadpool(k), n, TFE_EW_CHUNK_CHEAP,
                       clip_chunk, &j);
    }
  }
}

/* ================================================================ AddN */

/* out = in[0] + in[1] (+ in[2] ...), left to right, each partial sum in the
 * element type (half sums are rounded after every addition, as in TF). */
typedef void (*addn_fn)(void* out, const void* const* ins, int n,
                        int64_t begin, int64_t end);

#define ADDN_T(NAME, T, TC, LD, ST, PLUS)                                   \
  static void NAME(void* zv, const void* const* ins, int n, int64_t begin, \
                   int64_t end) {                                          \
    T* restrict z = (T*)zv;                                                \
    const T* restrict a = (const T*)ins[0];                                \
    const T* restrict b = (const T*)ins[1];                                \
    int64_t i;                                                             \
    int j;                                                                 \
    for (i = begin; i < end; i++) {                                        \
      const TC x = LD(a[i]), y = LD(b[i]);                                 \
      z[i] = ST(PLUS(x, y));                                               \
    }                                                                      \
    for (j = 2; j < n; j++) {                                              \
      const T* restrict c = (const T*)ins[j];                              \
      for (i = begin; i < end; i++) {                                      \
        const TC x = LD(z[i]), y = LD(c[i]);                               \
        z[i] = ST(PLUS(x, y));                                             \
      }                                                                    \
    }                                                                      \
  }
#define EW_PLUS(x, y) ((x) + (y))
#define EW_PLUS_WRAP_32(x, y) ((uint32_t)(x) + (uint32_t)(y))
#define EW_PLUS_WRAP_64(x, y) ((uint64_t)(x) + (uint64_t)(y))
#define ADDN_I(OP, sfx, T, U, DT) \
  ADDN_T(OP##_##sfx, T, T, TFE_EW_ID, (T), EW_PLUS_WRAP_##U)
#define EW_PLUS_WRAP_uint32_t EW_PLUS_WRAP_32
#define EW_PLUS_WRAP_uint64_t EW_PLUS_WRAP_64
#define ADDN_F(OP, sfx, T, TC, LD, ST, DT) \
  ADDN_T(OP##_##sfx, T, TC, LD, ST, EW_PLUS)
#define ADDN_C(OP, sfx, T, R, DT) \
  ADDN_T(OP##_##sfx, T, T, TFE_EW_ID, TFE_EW_ID, EW_PLUS)
TFE_EW_SINTS(ADDN_I, addn)
TFE_EW_UINTS(ADDN_I, addn)
TFE_EW_FLOATS(ADDN_F, addn)
TFE_EW_CPLX(ADDN_C, addn)

#define ADDN_ENT_I(OP, sfx, T, U, DT) [DT] = OP##_##sfx,
static const addn_fn k_addn_fns[TFE_EW_NTYPES] = {
    TFE_EW_SINTS(ADDN_ENT_I, addn) TFE_EW_UINTS(ADDN_ENT_I, addn)
        TFE_EW_FLOATS(TFE_EW_ENT_F, addn) TFE_EW_CPLX(TFE_EW_ENT_C, addn)};

typedef struct addn_job {
  addn_fn fn;
  void* out;
  const void* const* ins;
  int n;
} addn_job;

static void addn_chunk(void* arg, int64_t begin, int64_t end) {
  addn_job* j = (addn_job*)arg;
  j->fn(j->out, j->ins, j->n, begin, end);
}

static void addn_compute(tfe_kernel_context* k) {
  const TF_Tensor* first;
  TF_Tensor* out;
  addn_fn fn;
  const void* stack_ins[16];
  const void** ins = stack_ins;
  int n = k->num_inputs, i;
  int64_t count;
  if (n < 1 || k->inputs == NULL || k->inputs[0] == NULL) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "AddN expects at least one input");
    return;
  }
  if (!tfe_ew_check_inputs(k, n)) return;
  first = k->inputs[0];
  for (i = 1; i < n; i++) {
    const TF_Tensor* t = k->inputs[i];
    if (!tfe_ew_same_shape(first, t)) {
      char s1[256], s2[256];
      tfe_status_setf(
          k->status, TF_INVALID_ARGUMENT,
          "Inputs to operation %s of type %s must have the same size and "
          "shape.  Input 0: %s != input %d: %s",
          op_name(k, "AddN"), op_name(k, "AddN"),
          tfe_format_shape(first->dims, first->num_dims, s1, sizeof s1), i,
          tfe_format_shape(t->dims, t->num_dims, s2, sizeof s2));
      return;
    }
    if (t->dtype != first->dtype) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "AddN: input %d has dtype %s, input 0 has %s", i,
                      tfe_dtype_enum_name(t->dtype),
                      tfe_dtype_enum_name(first->dtype));
      return;
    }
  }
  if (n == 1) {
    /* A single input is the sum: share it. */
    tfe_kernel_alias_input(k, 0, 0, first->dims, first->num_dims);
    return;
  }
  fn = (unsigned)first->dtype < TFE_EW_NTYPES ? k_addn_fns[first->dtype]
                                               : NULL;
  if (fn == NULL) {
    tfe_status_setf(k->status, TF_UNIMPLEMENTED,
                    "No AddN kernel for dtype %s on CPU",
                    tfe_dtype_enum_name(first->dtype));
    return;
  }
  {
    /* The loops write z[i] after reading inputs 0 and 1 at i, then add the
     * others into z: only inputs 0 and 1 may become the output (when
     * nobody else can observe them, as TF forwards them). */
    static const int first_two[2] = {0, 1};
    out = tfe_kernel_forward_or_alloc_output(k, first_two, 2, 0, first->dtype,
                                             first->dims, first->num_dims,
                                             NULL);
  }
  if (out == NULL) return;
  count = tfe_ew_num_elements(first);
  if (count == 0) return;
  if (n > (int)(sizeof stack_ins / sizeof stack_ins[0])) {
    ins = (const void**)tfe_malloc(sizeof(void*) * (size_t)n);
    if (ins == NULL) {
      tfe_status_setf(k->status, TF_RESOURCE_EXHAUSTED,
                      "Out of memory in AddN");
      return;
    }
  }
  for (i = 0; i < n; i++) ins[i] = tfe_ew_data(k->inputs[i]);
  {
    addn_job job;
    tfe_threadpool* pool = count >= 2 * TFE_EW_CHUNK_CHEAP
                               ? tfe_kernel_threadpool(k)
                               : NULL;
    job.fn = fn;
    job.out = tfe_ew_data(out);
    job.ins = ins;
    job.n = n;
    tfe_parallel_for(pool, count, TFE_EW_CHUNK_CHEAP, addn_chunk, &job);
  }
  if (ins != stack_ins) tfe_free((void*)ins);
}

/* ============================================================= BiasAdd */

/* value + bias along the channel dimension: the last one (NHWC) or
 * dimension 1 (NCHW). Runs AddV2's range functions on the shapes
 * [outer, C, inner] + [C, 1], so the inner loop stays contiguous. */
static void biasadd_compute(tfe_kernel_context* k) {
  const TF_Tensor *v, *b;
  const tfe_ew_op* add = tfe_ew_addv2_op();
  tfe_ew_fn fn;
  int nchw = 0, cdim, i;
  int64_t outer = 1, inner = 1, C;
  char s1[256], s2[256];
  TF_Tensor* out;
  tfe_bcast bc;
  const void* in[2];
  tfe_ew_params prm;
  if (!tfe_ew_check_inputs(k, 2)) return;
  v = k->inputs[0];
  b = k->inputs[1];
  if (k->attrs != NULL) {
    const tfe_attr_value* f = tfe_attrs_find(k->attrs, "data_format");
    if (f != NULL && f->type == TF_ATTR_STRING && !f->is_list) {
      if (strcmp(f->v.s.data, "NCHW") == 0) {
        nchw = 1;
      } else if (strcmp(f->v.s.data, "NHWC") != 0) {
        tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                        "Invalid data format");
        return;
      }
    }
  }
  if (v->num_dims < 2) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "Input tensor must be at least 2D: %s",
                    tfe_format_shape(v->dims, v->num_dims, s1, sizeof s1));
    return;
  }
  if (b->num_dims != 1) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT, "Biases must be 1D: %s",
                    tfe_format_shape(b->dims, b->num_dims, s1, sizeof s1));
    return;
  }
  cdim = nchw ? 1 : v->num_dims - 1;
  C = v->dims[cdim];
  if (b->dims[0] != C) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "Must provide as many biases as the last dimension of "
                    "the input tensor: %s vs. %s",
                    tfe_format_shape(b->dims, b->num_dims, s1, sizeof s1),
                    tfe_format_shape(v->dims, v->num_dims, s2, sizeof s2));
    return;
  }
  fn = (unsigned)v->dtype < TFE_EW_NTYPES ? add->fns[v->dtype] : NULL;
  if (fn == NULL || b->dtype != v->dtype) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "BiasAdd: unsupported dtypes %s and %s",
                    tfe_dtype_enum_name(v->dtype),
                    tfe_dtype_enum_name(b->dtype));
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, v->dtype, v->dims, v->num_dims);
  if (out == NULL || tfe_ew_num_elements(v) == 0) return;
  for (i = 0; i < cdim; i++) outer *= v->dims[i];
  for (i = cdim + 1; i < v->num_dims; i++) inner *= v->dims[i];
  {
    const int64_t xd[3] = {outer, C, inner};
    const int64_t yd[2] = {C, 1};
    const int64_t* dims[2];
    int ranks[2] = {3, 2};
    dims[0] = xd;
    dims[1] = yd;
    tfe_bcast_init(&bc, 2, dims, ranks);
  }
  memset(&prm, 0, sizeof prm);
  in[0] = tfe_ew_data(v);
  in[1] = tfe_ew_data(b);
  tfe_ew_run(k, fn, &bc, in, tfe_ew_data(out), bc.out_elems, &prm,
             TFE_EW_CHUNK_CHEAP);
}

/* =========================================================== Bucketize */

/* Index of the first boundary greater than x (so NaN lands past the
 * end); int inputs compare as float, like TF's. */
#define BUCKET_T(NAME, T, TC)                                              \
  static void NAME(const void* xv, int32_t* out, int64_t n,               \
                   const float* bnd, int nb) {                            \
    const T* x = (const T*)xv;                                            \
    int64_t i;                                                            \
    for (i = 0; i < n; i++) {                                             \
      const TC v = (TC)x[i];                                              \
      int lo = 0, hi = nb;                                                \
      while (lo < hi) {                                                   \
        int mid = lo + (hi - lo) / 2;                                     \
        if (v < (TC)bnd[mid]) {                                           \
          hi = mid;                                                       \
        } else {                                                          \
          lo = mid + 1;                                                   \
        }                                                                 \
      }                                                                   \
      out[i] = lo;                                                        \
    }                                                                     \
  }
BUCKET_T(bucket_f32, float, float)
BUCKET_T(bucket_f64, double, double)
BUCKET_T(bucket_i32, int32_t, float)
BUCKET_T(bucket_i64, int64_t, float)

static void bucketize_compute(tfe_kernel_context* k) {
  const TF_Tensor* x;
  const tfe_attr_value* bv;
  const float* bnd = NULL;
  int nb = 0, i;
  TF_Tensor* out;
  int64_t n;
  void (*fn)(const void*, int32_t*, int64_t, const float*, int) = NULL;
  if (!tfe_ew_check_inputs(k, 1)) return;
  x = k->inputs[0];
  bv = k->attrs != NULL ? tfe_attrs_find(k->attrs, "boundaries") : NULL;
  if (bv == NULL) {
    tfe_status_setf(k->status, TF_NOT_FOUND,
                    "No attr named 'boundaries' in NodeDef");
    return;
  }
  if (!bv->is_list || (bv->type != TF_ATTR_FLOAT && bv->list_size > 0)) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "AttrValue had value with wrong type when 'list(float)' "
                    "expected\n\t for attr 'boundaries'");
    return;
  }
  nb = bv->list_size;
  bnd = nb > 0 ? bv->list.f : NULL;
  for (i = 1; i < nb; i++) {
    /* TF accepts repeated values, not decreasing ones. */
    if (bnd[i] < bnd[i - 1]) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "Expected sorted boundaries");
      return;
    }
  }
  switch (x->dtype) {
    case TF_FLOAT: fn = bucket_f32; break;
    case TF_DOUBLE: fn = bucket_f64; break;
    case TF_INT32: fn = bucket_i32; break;
    case TF_INT64: fn = bucket_i64; break;
    default:
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "Bucketize: unsupported dtype %s",
                      tfe_dtype_enum_name(x->dtype));
      return;
  }
  out = tfe_kernel_alloc_output(k, 0, TF_INT32, x->dims, x->num_dims);
  if (out == NULL) return;
  n = tfe_ew_num_elements(x);
  fn(tfe_ew_data(x), (int32_t*)tfe_ew_data(out), n, bnd, nb);
}

/* ========================================================= Add strings */

static void add_string_compute(tfe_kernel_context* k) {
  const TF_Tensor *x, *y;
  tfe_bcast bc;
  const int64_t* dims[2];
  int ranks[2], code;
  TF_Tensor* out;
  if (!tfe_ew_check_inputs(k, 2)) return;
  x = k->inputs[0];
  y = k->inputs[1];
  if (x->dtype != TF_STRING || y->dtype != TF_STRING) {
    /* Numeric Add is handled by the table-driven kernel. */
    tfe_ew_compute(k);
    return;
  }
  dims[0] = x->dims;
  dims[1] = y->dims;
  ranks[0] = x->num_dims;
  ranks[1] = y->num_dims;
  code = tfe_bcast_init(&bc, 2, dims, ranks);
  if (code == TFE_BCAST_INCOMPATIBLE || code == TFE_BCAST_BAD_ARGS) {
    char s1[256], s2[256];
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "Incompatible shapes: %s vs. %s",
                    tfe_format_shape(x->dims, x->num_dims, s1, sizeof s1),
                    tfe_format_shape(y->dims, y->num_dims, s2, sizeof s2));
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, bc.out_dims, bc.out_rank);
  if (out == NULL || bc.out_elems == 0) return;
  {
    const TF_TString* xs = (const TF_TString*)tfe_ew_data(x);
    const TF_TString* ys = (const TF_TString*)tfe_ew_data(y);
    TF_TString* zs = (TF_TString*)tfe_ew_data(out);
    int64_t i;
    if (tfe_bcast_is_linear(&bc) || code == TFE_BCAST_TOO_COMPLEX) {
      const int sx = bc.in_elems[0] != 1, sy = bc.in_elems[1] != 1;
      if (code == TFE_BCAST_TOO_COMPLEX && !tfe_bcast_is_linear(&bc)) {
        char s1[256], s2[256];
        tfe_status_setf(k->status, TF_UNIMPLEMENTED,
                        "Broadcast between %s and %s is not supported yet.",
                        tfe_format_shape(x->dims, x->num_dims, s1, sizeof s1),
                        tfe_format_shape(y->dims, y->num_dims, s2, sizeof s2));
        return;
      }
      for (i = 0; i < bc.out_elems; i++) {
        const TF_TString* a = &xs[i * sx];
        const TF_TString* b = &ys[i * sy];
        TF_TString_Copy(&zs[i], TF_TString_GetDataPointer(a),
                        TF_TString_GetSize(a));
        TF_TString_AppendN(&zs[i], TF_TString_GetDataPointer(b),
                           TF_TString_GetSize(b));
      }
    } else {
      tfe_bcast_iter it;
      int64_t o, off[TFE_BCAST_MAX_INPUTS], len;
      const int last = bc.rank - 1;
      const int64_t sx = bc.strides[0][last], sy = bc.strides[1][last];
      tfe_bcast_iter_init(&it, &bc, 0, bc.out_elems);
      while (tfe_bcast_iter_next(&it, &o, off, &len)) {
        for (i = 0; i < len; i++) {
          const TF_TString* a = &xs[off[0] + i * sx];
          const TF_TString* b = &ys[off[1] + i * sy];
          TF_TString_Copy(&zs[o + i], TF_TString_GetDataPointer(a),
                          TF_TString_GetSize(a));
          TF_TString_AppendN(&zs[o + i], TF_TString_GetDataPointer(b),
                             TF_TString_GetSize(b));
        }
      }
    }
  }
}

void tfe_ew_register_misc(void) {
  TF_DataType types[TFE_EW_NTYPES];
  int n, t;
  for (n = 0, t = 0; t < TFE_EW_NTYPES; t++) {
    if (k_clip_fns[t] != NULL) types[n++] = (TF_DataType)t;
  }
  tfe_ew_register_fn("ClipByValue", clip_compute, NULL, "T", types, n, NULL,
                     NULL, 0);
  for (n = 0, t = 0; t < TFE_EW_NTYPES; t++) {
    if (k_addn_fns[t] != NULL) types[n++] = (TF_DataType)t;
  }
  tfe_ew_register_fn("AddN", addn_compute, NULL, "T", types, n, NULL, NULL,
                     0);
  {
    const tfe_ew_op* add = tfe_ew_addv2_op();
    for (n = 0, t = 0; t < TFE_EW_NTYPES; t++) {
      if (add->fns[t] != NULL) types[n++] = (TF_DataType)t;
    }
    tfe_ew_register_fn("BiasAdd", biasadd_compute, NULL, "T", types, n, NULL,
                       NULL, 0);
  }
  {
    static const TF_DataType bucket_types[] = {TF_FLOAT, TF_DOUBLE, TF_INT32,
                                               TF_INT64};
    tfe_ew_register_fn("Bucketize", bucketize_compute, NULL, "T",
                       bucket_types, 4, NULL, NULL, 0);
  }
  {
    static const TF_DataType str_type[] = {TF_STRING};
    tfe_ew_register_fn("Add", add_string_compute,
                       (void*)tfe_ew_add_op(), "T", str_type, 1, NULL, NULL,
                       0);
  }
}
