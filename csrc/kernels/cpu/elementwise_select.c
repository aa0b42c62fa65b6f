/* Select and SelectV2 (inputs condition, t, e).
 *
 * Select: a scalar condition picks t or e whole (which must have the same
 * shape); a vector condition with a t of rank >= 2 picks rows of t/e
 * (condition length = first dimension); otherwise all three have the same
 * shape and pick elementwise.
 * SelectV2: condition, t and e broadcast together (TF's rules).
 * Values are copied by element size, so every fixed-size dtype works;
 * strings are deep-copied.
 *
 * Speed: both t and e are loaded for every element and one is kept, so
 * the loops vectorize (no branch on the condition); outputs of at least
 * SEL_PAR_MIN elements are filled in chunks on the intra-op pool (each
 * element is a plain copy, so the result does not depend on the split). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#include <string.h>

#include "core/threadpool.h"
#include "kernels/cpu/elementwise_common.h"

#define SEL_PAR_MIN 65536
#include "tensorflow/c/tf_tstring.h"

typedef struct ew_u128 {
  uint64_t lo, hi;
} ew_u128;

static size_t elem_size(TF_DataType dt) {
  return dt == TF_STRING ? sizeof(TF_TString) : TF_DataTypeSize(dt);
}

/* One string element copy (the destination starts out empty). */
static inline void str_assign(TF_TString* dst, const TF_TString* src) {
  TF_TString_Copy(dst, TF_TString_GetDataPointer(src),
                  TF_TString_GetSize(src));
}

/* Copies n elements. */
static void copy_elems(TF_DataType dt, size_t esz, void* dst, const void* src,
                       int64_t n) {
  if (n <= 0) return;
  if (dt == TF_STRING) {
    TF_TString* d = (TF_TString*)dst;
    const TF_TString* s = (const TF_TString*)src;
    int64_t i;
    for (i = 0; i < n; i++) str_assign(&d[i], &s[i]);
  } else {
    memcpy(dst, src, (size_t)n * esz);
  }
}

/* Inputs that may become the output ('then', 'else'). */
static const int k_then_else[2] = {1, 2};

/* ---- the three-input select loop, per element size ----
 * c, t, e advance by sc, st, se (0 or 1) per output element. */
#define EW_SEL_LOOP(NAME, T)                                                \
  TFE_EW_CLONES static void NAME(const uint8_t* restrict c, const void* tv, \
                                 const void* ev, void* zv, int64_t n,       \
                                 int sc, int st, int se) {                  \
    const T* restrict t = (const T*)tv;                                     \
    const T* restrict e = (const T*)ev;                                     \
    T* restrict z = (T*)zv;                                                 \
    int64_t i;                                                              \
    if (sc && st && se) {                                                   \
      for (i = 0; i < n; i++) {                                             \
        const T a = t[i], b = e[i];                                         \
        z[i] = c[i] ? a : b;                                                \
      }                                                                     \
    } else if (sc && st) {                                                  \
      const T b = e[0];                                                     \
      for (i = 0; i < n; i++) {                                             \
        const T a = t[i];                                                   \
        z[i] = c[i] ? a : b;                                                \
      }                                                                     \
    } else if (sc && se) {                                                  \
      const T a = t[0];                                                     \
      for (i = 0; i < n; i++) {                                             \
        const T b = e[i];                                                   \
        z[i] = c[i] ? a : b;                                                \
      }                                                                     \
    } else {                                                                \
      for (i = 0; i < n; i++) {                                             \
        const T a = t[i * st], b = e[i * se];                               \
        z[i] = c[i * sc] ? a : b;                                           \
      }                                                                     \
    }                                                                       \
  }
EW_SEL_LOOP(sel_1, uint8_t)
EW_SEL_LOOP(sel_2, uint16_t)
EW_SEL_LOOP(sel_4, uint32_t)
EW_SEL_LOOP(sel_8, uint64_t)
EW_SEL_LOOP(sel_16, ew_u128)

static void sel_str(const uint8_t* restrict c, const void* tv, const void* ev,
                    void* zv, int64_t n, int sc, int st, int se) {
  const TF_TString* t = (const TF_TString*)tv;
  const TF_TString* e = (const TF_TString*)ev;
  TF_TString* z = (TF_TString*)zv;
  int64_t i;
  for (i = 0; i < n; i++) {
    str_assign(&z[i], c[i * sc] ? &t[i * st] : &e[i * se]);
  }
}

typedef void (*sel_fn)(const uint8_t* restrict, const void*, const void*,
                       void*, int64_t, int, int, int);

static sel_fn pick_sel(TF_DataType dt, size_t esz) {
  if (dt == TF_STRING) return sel_str;
  switch (esz) {
    case 1: return sel_1;
    case 2: return sel_2;
    case 4: return sel_4;
    case 8: return sel_8;
    case 16: return sel_16;
    default: return NULL;
  }
}

/* fn over n elements, in chunks on the pool when large (not strings:
 * their copies allocate). sc/st/se as for the loop. */
typedef struct sel_job {
  sel_fn fn;
  const uint8_t* c;
  const char *t, *e;
  char* z;
  size_t esz;
  int sc, st, se;
} sel_job;

static void sel_chunk(void* arg, int64_t b, int64_t end) {
  const sel_job* j = (const sel_job*)arg;
  j->fn(j->c + b * j->sc, j->t + (size_t)(b * j->st) * j->esz,
        j->e + (size_t)(b * j->se) * j->esz, j->z + (size_t)b * j->esz,
        end - b, j->sc, j->st, j->se);
}

static void sel_run(tfe_kernel_context* k, TF_DataType dt, sel_fn fn,
                    size_t esz, const uint8_t* c, const void* t,
                    const void* e, void* z, int64_t n, int sc, int st,
                    int se) {
  sel_job j;
  if (n < 2 * SEL_PAR_MIN || dt == TF_STRING) {
    fn(c, t, e, z, n, sc, st, se);
    return;
  }
  j.fn = fn;
  j.c = c;
  j.t = (const char*)t;
  j.e = (const char*)e;
  j.z = (char*)z;
  j.esz = esz;
  j.sc = sc;
  j.st = st;
  j.se = se;
  tfe_parallel_for(tfe_kernel_threadpool(k), n, SEL_PAR_MIN / 2, sel_chunk,
                   &j);
}

/* Common input checks; returns the element copier or NULL (status set). */
static sel_fn prepare(tfe_kernel_context* k, size_t* esz) {
  TF_DataType dt;
  sel_fn fn;
  if (!tfe_ew_check_inputs(k, 3)) return NULL;
  dt = k->inputs[1]->dtype;
  if (k->inputs[0]->dtype != TF_BOOL || k->inputs[2]->dtype != dt) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "%s expects a bool condition and t, e of one dtype "
                    "(got %s, %s, %s)",
                    k->op_def && k->op_def->name ? k->op_def->name : "Select",
                    tfe_dtype_enum_name(k->inputs[0]->dtype),
                    tfe_dtype_enum_name(dt),
                    tfe_dtype_enum_name(k->inputs[2]->dtype));
    return NULL;
  }
  *esz = elem_size(dt);
  fn = pick_sel(dt, *esz);
  if (fn == NULL) {
    tfe_status_setf(k->status, TF_UNIMPLEMENTED,
                    "Select is not supported for dtype %s on CPU",
                    tfe_dtype_enum_name(dt));
  }
  return fn;
}

/* ---- Select ---- */

static void select_compute(tfe_kernel_context* k) {
  const TF_Tensor *c, *t, *e;
  TF_Tensor* out;
  size_t esz;
  char s1[256], s2[256];
  sel_fn fn = prepare(k, &esz);
  if (fn == NULL) return;
  c = k->inputs[0];
  t = k->inputs[1];
  e = k->inputs[2];

  if (c->num_dims == 0) {
    /* Scalar condition: the output is t or e itself (shared, no copy). */
    if (!tfe_ew_same_shape(t, e)) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "'then' and 'else' must have the same size.  but "
                      "received: %s vs. %s",
                      tfe_format_shape(t->dims, t->num_dims, s1, sizeof s1),
                      tfe_format_shape(e->dims, e->num_dims, s2, sizeof s2));
      return;
    }
    {
      int pick = *(const uint8_t*)tfe_ew_data(c) ? 1 : 2;
      const TF_Tensor* src = k->inputs[pick];
      tfe_kernel_alias_input(k, 0, pick, src->dims, src->num_dims);
    }
    return;
  }

  if (c->num_dims == 1 && t->num_dims != 1) {
    /* Vector condition picks whole rows (slices along dimension 0). */
    int64_t rows, row_elems, i;
    const uint8_t* cd;
    if (t->num_dims < 1) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "'then' must be at least a vector, but saw shape: %s",
                      tfe_format_shape(t->dims, t->num_dims, s1, sizeof s1));
      return;
    }
    if (t->dims[0] != c->dims[0]) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "Number of batches of 'then' must match size of "
                      "'cond', but saw: %lld vs. %lld",
                      (long long)t->dims[0], (long long)c->dims[0]);
      return;
    }
    if (!tfe_ew_same_shape(t, e)) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "'then' and 'else' must have the same size.  but "
                      "received: %s vs. %s",
                      tfe_format_shape(t->dims, t->num_dims, s1, sizeof s1),
                      tfe_format_shape(e->dims, e->num_dims, s2, sizeof s2));
      return;
    }
    out = tfe_kernel_alloc_output(k, 0, t->dtype, t->dims, t->num_dims);
    if (out == NULL) return;
    rows = t->dims[0];
    row_elems = rows > 0 ? tfe_ew_num_elements(t) / rows : 0;
    cd = (const uint8_t*)tfe_ew_data(c);
    for (i = 0; i < rows; i++) {
      const TF_Tensor* src = cd[i] ? t : e;
      copy_elems(t->dtype, esz,
                 (char*)tfe_ew_data(out) + (size_t)(i * row_elems) * esz,
                 (const char*)tfe_ew_data(src) + (size_t)(i * row_elems) * esz,
                 row_elems);
    }
    return;
  }

  /* Elementwise: all three shapes equal (checked against input 0 as TF
   * does). */
  {
    int i;
    for (i = 1; i < 3; i++) {
      if (!tfe_ew_same_shape(c, k->inputs[i])) {
        tfe_status_setf(
            k->status, TF_INVALID_ARGUMENT,
            "Inputs to operation %s of type %s must have the same size and "
            "shape.  Input 0: %s != input %d: %s",
            k->op_def && k->op_def->name ? k->op_def->name : "Select",
            k->op_def && k->op_def->name ? k->op_def->name : "Select",
            tfe_format_shape(c->dims, c->num_dims, s1, sizeof s1), i,
            tfe_format_shape(k->inputs[i]->dims, k->inputs[i]->num_dims, s2,
                             sizeof s2));
        return;
      }
    }
  }
  /* The loops read t[i] and e[i] before writing z[i]: 'then' or 'else'
   * may become the output when nobody else can observe it (TF forwards
   * them too). */
  out = tfe_kernel_forward_or_alloc_output(k, k_then_else, 2, 0, t->dtype,
                                           t->dims, t->num_dims, NULL);
  if (out == NULL) return;
  sel_run(k, t->dtype, fn, esz, (const uint8_t*)tfe_ew_data(c),
          tfe_ew_data(t), tfe_ew_data(e), tfe_ew_data(out),
          tfe_ew_num_elements(t), 1, 1, 1);
}

/* ---- SelectV2 ---- */

/* Output elements [b, end) of a general broadcast. */
typedef struct bsel_job {
  const tfe_bcast* bc;
  sel_fn fn;
  size_t esz;
  const char* const* base;
  char* z;
} bsel_job;

static void bsel_chunk(void* arg, int64_t b, int64_t end) {
  const bsel_job* j = (const bsel_job*)arg;
  const tfe_bcast* bc = j->bc;
  tfe_bcast_iter it;
  int64_t o, off[TFE_BCAST_MAX_INPUTS], len;
  const int last = bc->rank - 1;
  const int sc = bc->strides[0][last] != 0;
  const int st = bc->strides[1][last] != 0;
  const int se = bc->strides[2][last] != 0;
  tfe_bcast_iter_init(&it, bc, b, end);
  while (tfe_bcast_iter_next(&it, &o, off, &len)) {
    j->fn((const uint8_t*)j->base[0] + off[0],
          j->base[1] + (size_t)off[1] * j->esz,
          j->base[2] + (size_t)off[2] * j->esz, j->z + (size_t)o * j->esz, len,
          sc, st, se);
  }
}

static void selectv2_compute(tfe_kernel_context* k) {
  const TF_Tensor *c, *t, *e;
  TF_Tensor* out;
  tfe_bcast bc;
  const int64_t* dims[3];
  int ranks[3], code, j;
  size_t esz;
  const char* base[3];
  char* zb;
  sel_fn fn = prepare(k, &esz);
  if (fn == NULL) return;
  c = k->inputs[0];
  t = k->inputs[1];
  e = k->inputs[2];
  for (j = 0; j < 3; j++) {
    dims[j] = k->inputs[j]->dims;
    ranks[j] = k->inputs[j]->num_dims;
    base[j] = (const char*)tfe_ew_data(k->inputs[j]);
  }
  code = tfe_bcast_init(&bc, 3, dims, ranks);
  if (code == TFE_BCAST_INCOMPATIBLE || code == TFE_BCAST_BAD_ARGS) {
    char s1[256], s2[256], s3[256];
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "condition %s, then %s, and else %s must be broadcastable",
                    tfe_format_shape(c->dims, c->num_dims, s1, sizeof s1),
                    tfe_format_shape(t->dims, t->num_dims, s2, sizeof s2),
                    tfe_format_shape(e->dims, e->num_dims, s3, sizeof s3));
    return;
  }
  /* A forwarded input has the output's element count, so it is read at
   * the output's own index (linear or broadcast iteration alike). */
  out = tfe_kernel_forward_or_alloc_output(k, k_then_else, 2, 0, t->dtype,
                                           bc.out_dims, bc.out_rank, NULL);
  if (out == NULL || bc.out_elems == 0) return;
  zb = (char*)tfe_ew_data(out);
  if (tfe_bcast_is_linear(&bc)) {
    sel_run(k, t->dtype, fn, esz, (const uint8_t*)base[0], base[1], base[2],
            zb, bc.out_elems, bc.in_elems[0] != 1 || bc.out_elems == 1,
            bc.in_elems[1] != 1 || bc.out_elems == 1,
            bc.in_elems[2] != 1 || bc.out_elems == 1);
    return;
  }
  if (code == TFE_BCAST_TOO_COMPLEX) {
    char s1[256], s2[256], s3[256];
    tfe_status_setf(k->status, TF_UNIMPLEMENTED,
                    "Broadcast between condition %s, then %s and else %s is "
                    "not supported yet.",
                    tfe_format_shape(c->dims, c->num_dims, s1, sizeof s1),
                    tfe_format_shape(t->dims, t->num_dims, s2, sizeof s2),
                    tfe_format_shape(e->dims, e->num_dims, s3, sizeof s3));
    return;
  }
  {
    bsel_job j;
    j.bc = &bc;
    j.fn = fn;
    j.esz = esz;
    j.base = base;
    j.z = zb;
    if (bc.out_elems < 2 * SEL_PAR_MIN || t->dtype == TF_STRING) {
      bsel_chunk(&j, 0, bc.out_elems);
    } else {
      tfe_parallel_for(tfe_kernel_threadpool(k), bc.out_elems,
                       SEL_PAR_MIN / 2, bsel_chunk, &j);
    }
  }
}

void tfe_ew_register_select(void) {
  /* Every dtype TF registers except resource and variant handles. */
  static const TF_DataType types[] = {
      TF_FLOAT,  TF_DOUBLE, TF_HALF,   TF_BFLOAT16,  TF_INT8,      TF_INT16,
      TF_INT32,  TF_INT64,  TF_UINT8,  TF_UINT16,    TF_UINT32,    TF_UINT64,
      TF_BOOL,   TF_STRING, TF_COMPLEX64, TF_COMPLEX128};
  const int n = (int)(sizeof types / sizeof types[0]);
  tfe_ew_register_fn("Select", select_compute, NULL, "T", types, n, NULL,
                     NULL, 0);
  tfe_ew_register_fn("SelectV2", selectv2_compute, NULL, "T", types, n, NULL,
                     NULL, 0);
}
