/* Einsum on the CPU with TF's semantics.
 *
 * The equation must name its output explicitly ("ab,bc->ac"); like TF's
 * kernel, the implicit form is rejected (tf.einsum in Python rewrites it
 * before building the op). One or two operands. Labels are ASCII letters;
 * "..." stands for broadcasting dimensions, aligned from the right as in
 * numpy. A label repeated inside one operand takes that operand's diagonal;
 * a label repeated in the output writes a diagonal (other entries zero).
 *
 * Plan: every label gets one size. One operand: the output is a strided
 * gather of the input, summing the labels the output lacks. Two operands:
 * each is gathered into [batch, free, contracted] order (summing labels
 * found only in that operand and not in the output), a batched GEMM gives
 * [batch, free_a, free_b], and a last gather puts that into output order.
 * float and double use the loaded BLAS or the built-in GEMM; half and
 * bfloat16 are widened to float first and rounded back at the end; complex
 * and integer products use plain loops (integers wrap on overflow). */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/blas.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/matmul_gemm.h"

#define EIN_NAMED 52 /* a-z then A-Z */
#define EIN_MAX_LABELS (EIN_NAMED + TFE_MAX_DIMS)
#define EIN_MAX_SUB (TFE_MAX_DIMS + 3) /* labels of one subscript */

/* How a buffer of "work" elements is laid out: the scalar kind used for
 * all arithmetic. */
typedef enum ein_kind {
  EK_F32,
  EK_F64,
  EK_C64,
  EK_C128,
  EK_I32,
  EK_I64
} ein_kind;

static size_t kind_size(ein_kind w) {
  switch (w) {
    case EK_F32: case EK_I32: return 4;
    case EK_F64: case EK_C64: case EK_I64: return 8;
    default: return 16;
  }
}

/* One parsed subscript, labels as ids; -1 marks the ellipsis. */
typedef struct ein_sub {
  int lab[EIN_MAX_SUB];
  int n;
  int has_ellipsis;
} ein_sub;

static int label_id(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -2;
}

static char label_char(int id) {
  if (id < 26) return (char)('a' + id);
  if (id < EIN_NAMED) return (char)('A' + id - 26);
  return '.';
}

/* Parses s[0..len) into sub. Returns 0 on a malformed subscript. */
static int parse_sub(const char* s, size_t len, ein_sub* sub) {
  size_t i = 0;
  sub->n = 0;
  sub->has_ellipsis = 0;
  while (i < len) {
    int id;
    if (s[i] == '.') {
      if (sub->has_ellipsis || i + 3 > len || s[i + 1] != '.' ||
          s[i + 2] != '.') {
        return 0;
      }
      sub->has_ellipsis = 1;
      id = -1;
      i += 3;
    } else {
      id = label_id(s[i]);
      if (id < 0) return 0;
      i++;
    }
    if (sub->n >= EIN_MAX_SUB) return 0;
    sub->lab[sub->n++] = id;
  }
  return 1;
}

/* ------------------------------------------------------------ gather */

/* dst[axes...] = sum over the `ns` summed labels of src at the offset
 * given by per-label strides. Axes of dst name labels (repeats allowed:
 * entries off the diagonal are zero). Strides are in elements. */
typedef struct gather_args {
  const void* src;
  void* dst;
  const int64_t* lstride; /* per label id */
  const int64_t* lsize;   /* per label id */
  const int* dlab;        /* label of each dst axis */
  int drank;
  int64_t total;          /* dst elements */
  int64_t sstride[EIN_MAX_LABELS];
  int64_t ssize[EIN_MAX_LABELS];
  int ns;
  int64_t inner; /* product of ssize */
} gather_args;

/* Offset in src of dst element o before summing; 0 when o is off a
 * diagonal the output repeats. */
static int gather_locate(const gather_args* g, int64_t o, int64_t* base,
                         int64_t* idx) {
  int64_t rem = o, off = 0;
  int d;
  for (d = g->drank - 1; d >= 0; d--) {
    int64_t sz = g->lsize[g->dlab[d]];
    idx[d] = rem % sz;
    rem /= sz;
  }
  for (d = 0; d < g->drank; d++) {
    int e, first = 1;
    for (e = 0; e < d; e++) {
      if (g->dlab[e] == g->dlab[d]) {
        if (idx[e] != idx[d]) return 0;
        first = 0;
        break;
      }
    }
    if (first) off += idx[d] * g->lstride[g->dlab[d]];
  }
  *base = off;
  return 1;
}

#define DEF_GATHER(S, T, A, NC)                                              \
  static void gather_##S(const gather_args* g) {                              \
    const T* src = (const T*)g->src;                                          \
    T* dst = (T*)g->dst;                                                      \
    int64_t idx[EIN_MAX_SUB];                                                 \
    int64_t cnt[EIN_MAX_LABELS];                                              \
    int64_t o;                                                                \
    for (o = 0; o < g->total; o++) {                                          \
      int64_t base = 0, it, off;                                              \
      A acc[NC];                                                              \
      int c;                                                                  \
      for (c = 0; c < NC; c++) acc[c] = 0;                                    \
      if (gather_locate(g, o, &base, idx)) {                                  \
        off = base;                                                           \
        for (c = 0; c < g->ns; c++) cnt[c] = 0;                               \
        for (it = 0; it < g->inner; it++) {                                   \
          int j;                                                              \
          for (c = 0; c < NC; c++) acc[c] += (A)src[off * NC + c];            \
          for (j = g->ns - 1; j >= 0; j--) {                                  \
            off += g->sstride[j];                                             \
            if (++cnt[j] < g->ssize[j]) break;                                \
            off -= g->sstride[j] * g->ssize[j];                               \
            cnt[j] = 0;                                                       \
          }                                                                   \
        }                                                                     \
      }                                                                       \
      for (c = 0; c < NC; c++) dst[o * NC + c] = (T)acc[c];                   \
    }                                                                         \
  }

DEF_GATHER(f32, float, float, 1)
DEF_GATHER(f64, double, double, 1)
DEF_GATHER(c64, float, float, 2)
DEF_GATHER(c128, double, double, 2)
DEF_GATHER(i32, int32_t, uint32_t, 1)
DEF_GATHER(i64, int64_t, uint64_t, 1)

/* Fills in the derived fields of g (sum labels given as a list) and runs
 * the gather for kind w. */
static void run_gather(ein_kind w, gather_args* g, const int* sum_labels,
                       int ns) {
  int i;
  g->total = 1;
  for (i = 0; i < g->drank; i++) g->total *= g->lsize[g->dlab[i]];
  g->ns = ns;
  g->inner = 1;
  for (i = 0; i < ns; i++) {
    g->sstride[i] = g->lstride[sum_labels[i]];
    g->ssize[i] = g->lsize[sum_labels[i]];
    g->inner *= g->ssize[i];
  }
  switch (w) {
    case EK_F32: gather_f32(g); break;
    case EK_F64: gather_f64(g); break;
    case EK_C64: gather_c64(g); break;
    case EK_C128: gather_c128(g); break;
    case EK_I32: gather_i32(g); break;
    case EK_I64: gather_i64(g); break;
  }
}

/* -------------------------------------------------------------- GEMM */

#define DEF_LOOP_GEMM(S, T, A)                                                \
  static void loop_gemm_##S(int64_t m, int64_t n, int64_t k, const T* a,      \
                            const T* b, T* c) {                               \
    int64_t i, j, p;                                                          \
    for (i = 0; i < m; i++) {                                                 \
      for (j = 0; j < n; j++) c[i * n + j] = 0;                               \
      for (p = 0; p < k; p++) {                                               \
        A av = (A)a[i * k + p];                                               \
        const T* brow = b + p * n;                                            \
        for (j = 0; j < n; j++) c[i * n + j] = (T)((A)c[i * n + j] + av * (A)brow[j]); \
      }                                                                       \
    }                                                                         \
  }

DEF_LOOP_GEMM(i32, int32_t, uint32_t)
DEF_LOOP_GEMM(i64, int64_t, uint64_t)

#define DEF_CLOOP_GEMM(S, T)                                                  \
  static void loop_gemm_##S(int64_t m, int64_t n, int64_t k, const T* a,      \
                            const T* b, T* c) {                               \
    int64_t i, j, p;                                                          \
    for (i = 0; i < m * n * 2; i++) c[i] = 0;                                 \
    for (i = 0; i < m; i++) {                                                 \
      for (p = 0; p < k; p++) {                                               \
        T ar = a[2 * (i * k + p)], ai = a[2 * (i * k + p) + 1];               \
        const T* brow = b + 2 * p * n;                                        \
        T* crow = c + 2 * i * n;                                              \
        for (j = 0; j < n; j++) {                                             \
          crow[2 * j] += ar * brow[2 * j] - ai * brow[2 * j + 1];             \
          crow[2 * j + 1] += ar * brow[2 * j + 1] + ai * brow[2 * j];         \
        }                                                                     \
      }                                                                       \
    }                                                                         \
  }

DEF_CLOOP_GEMM(c64, float)
DEF_CLOOP_GEMM(c128, double)

/* c[b] = a[b] (m x k) * b[b] (k x n) for every batch; all contiguous.
 * Returns 0 when the built-in GEMM runs out of scratch memory. */
static int batched_gemm(ein_kind w, int64_t batch, int64_t m, int64_t n,
                        int64_t k, const void* a, const void* b, void* c) {
  size_t es = kind_size(w);
  int64_t i;
  if (m == 0 || n == 0) return 1;
  if (k == 0) {
    memset(c, 0, (size_t)(batch * m * n) * es);
    return 1;
  }
  for (i = 0; i < batch; i++) {
    const char* ai = (const char*)a + (size_t)(i * m * k) * es;
    const char* bi = (const char*)b + (size_t)(i * k * n) * es;
    char* ci = (char*)c + (size_t)(i * m * n) * es;
    switch (w) {
      case EK_F32:
        if (!tfe_blas_sgemm(0, 0, m, n, k, (const float*)ai, k,
                            (const float*)bi, n, (float*)ci, n) &&
            !tfe_gemm_f32(0, 0, m, n, k, (const float*)ai, k,
                          (const float*)bi, n, (float*)ci, n)) {
          return 0;
        }
        break;
      case EK_F64:
        if (!tfe_blas_dgemm(0, 0, m, n, k, (const double*)ai, k,
                            (const double*)bi, n, (double*)ci, n) &&
            !tfe_gemm_f64(0, 0, m, n, k, (const double*)ai, k,
                          (const double*)bi, n, (double*)ci, n)) {
          return 0;
        }
        break;
      case EK_C64:
        if (!tfe_blas_cgemm(0, 0, 0, 0, m, n, k, (const float*)ai, k,
                            (const float*)bi, n, (float*)ci, n)) {
          loop_gemm_c64(m, n, k, (const float*)ai, (const float*)bi,
                        (float*)ci);
        }
        break;
      case EK_C128:
        if (!tfe_blas_zgemm(0, 0, 0, 0, m, n, k, (const double*)ai, k,
                            (const double*)bi, n, (double*)ci, n)) {
          loop_gemm_c128(m, n, k, (const double*)ai, (const double*)bi,
                         (double*)ci);
        }
        break;
      case EK_I32:
        loop_gemm_i32(m, n, k, (const int32_t*)ai, (const int32_t*)bi,
                      (int32_t*)ci);
        break;
      case EK_I64:
        loop_gemm_i64(m, n, k, (const int64_t*)ai, (const int64_t*)bi,
                      (int64_t*)ci);
        break;
    }
  }
  return 1;
}

/* ------------------------------------------------------------ kernel */

/* Everything known about the problem after validation. */
typedef struct ein_plan {
  int nin;
  int lab[2][EIN_MAX_SUB]; /* labels of each input axis (ellipsis expanded) */
  int rank[2];
  int out[EIN_MAX_SUB];
  int orank;
  int64_t size[EIN_MAX_LABELS];
  int in_count[2][EIN_MAX_LABELS];
  int out_count[EIN_MAX_LABELS];
} ein_plan;

/* Builds the plan; 0 with k->status set on a bad equation or shapes. */
static int make_plan(tfe_kernel_context* k, const char* eq, ein_plan* p) {
  const char* arrow = strstr(eq, "->");
  const char* comma;
  ein_sub subs[2], osub;
  int nsub, i, j, max_bcast = 0;
  int seen[EIN_MAX_LABELS];
  kutil_shape_buf sb;

  if (arrow == NULL || strstr(arrow + 2, "->") != NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expecting exactly one '->' in einsum equation: %s", eq);
    return 0;
  }
  nsub = 1;
  for (comma = eq; comma < arrow; comma++) {
    if (*comma == ',') nsub++;
  }
  if (nsub != 1 && nsub != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expecting 1 or 2 input subscripts in equation '%s' but got: "
               "%d",
               eq, nsub);
    return 0;
  }
  {
    const char* start = eq;
    for (i = 0; i < nsub; i++) {
      const char* end = start;
      while (end < arrow && *end != ',') end++;
      if (!parse_sub(start, (size_t)(end - start), &subs[i])) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Invalid input subscript %d in einsum equation '%s': "
                   "labels must be letters with at most one '...'",
                   i, eq);
        return 0;
      }
      start = end + 1;
    }
  }
  if (!parse_sub(arrow + 2, strlen(arrow + 2), &osub)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Invalid output subscript in einsum equation '%s': labels "
               "must be letters with at most one '...'",
               eq);
    return 0;
  }
  if (k->num_inputs != nsub) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected %d inputs but got: %d", nsub,
               k->num_inputs);
    return 0;
  }
  p->nin = nsub;
  for (i = 0; i < EIN_MAX_LABELS; i++) p->size[i] = -1;

  /* named labels: record sizes; ellipsis: count broadcast dims */
  for (i = 0; i < nsub; i++) {
    const TF_Tensor* t = k->inputs[i];
    const ein_sub* s = &subs[i];
    int named = s->n - s->has_ellipsis, nb = 0, axis = 0;
    if (!s->has_ellipsis && t->num_dims != s->n) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected input %d to have rank %d but got: %d", i, s->n,
                 t->num_dims);
      return 0;
    }
    if (s->has_ellipsis && t->num_dims < named) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected input %d to have rank at least %d but got: %d", i,
                 named, t->num_dims);
      return 0;
    }
    if (s->has_ellipsis) nb = t->num_dims - named;
    if (nb > max_bcast) max_bcast = nb;
    for (j = 0; j < s->n; j++) {
      int l = s->lab[j];
      if (l < 0) {
        axis += nb;
        continue;
      }
      if (p->size[l] >= 0 && p->size[l] != t->dims[axis]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Expected dimension %lld at axis %d of the input shaped "
                   "%s but got dimension %lld",
                   (long long)p->size[l], axis, kutil_tshape(t, &sb),
                   (long long)t->dims[axis]);
        return 0;
      }
      p->size[l] = t->dims[axis];
      axis++;
    }
  }
  if (max_bcast > 0 && !osub.has_ellipsis) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Output contains %d broadcasting dimension(s) but no ellipsis "
               "(...) was found in the output subscripts.",
               max_bcast);
    return 0;
  }

  /* expand ellipses into broadcast labels, right-aligned */
  for (i = 0; i < nsub; i++) {
    const TF_Tensor* t = k->inputs[i];
    const ein_sub* s = &subs[i];
    int nb = s->has_ellipsis ? t->num_dims - (s->n - 1) : 0, r = 0, e;
    for (j = 0; j < s->n; j++) {
      if (s->lab[j] >= 0) {
        p->lab[i][r++] = s->lab[j];
        continue;
      }
      for (e = 0; e < nb; e++) {
        int l = EIN_NAMED + (max_bcast - nb) + e;
        int64_t d = t->dims[r];
        if (p->size[l] < 0 || p->size[l] == 1) {
          p->size[l] = d;
        } else if (d != 1 && d != p->size[l]) {
          kutil_shape_buf sa, sb2;
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Incompatible broadcasting dimensions in einsum: "
                     "inputs shaped %s and %s",
                     kutil_tshape(k->inputs[0], &sa),
                     kutil_tshape(k->inputs[nsub - 1], &sb2));
          return 0;
        }
        p->lab[i][r++] = l;
      }
    }
    p->rank[i] = r;
  }
  if (osub.n - osub.has_ellipsis + (osub.has_ellipsis ? max_bcast : 0) >
      TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Einsum output of equation '%s' has more than %d dimensions",
               eq, TFE_MAX_DIMS);
    return 0;
  }
  p->orank = 0;
  for (j = 0; j < osub.n; j++) {
    int e;
    if (osub.lab[j] >= 0) {
      p->out[p->orank++] = osub.lab[j];
      continue;
    }
    for (e = 0; e < max_bcast; e++) p->out[p->orank++] = EIN_NAMED + e;
  }

  memset(seen, 0, sizeof seen);
  memset(p->in_count, 0, sizeof p->in_count);
  memset(p->out_count, 0, sizeof p->out_count);
  for (i = 0; i < nsub; i++) {
    for (j = 0; j < p->rank[i]; j++) {
      p->in_count[i][p->lab[i][j]]++;
      seen[p->lab[i][j]] = 1;
    }
  }
  for (j = 0; j < p->orank; j++) {
    int l = p->out[j];
    if (!seen[l]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Output subscript '%c' in einsum equation '%s' does not "
                 "appear in any input subscript",
                 label_char(l), eq);
      return 0;
    }
    p->out_count[l]++;
  }
  return 1;
}

/* Per-label strides (elements) of input i; a broadcast axis of size 1
 * whose label is bigger gets stride 0; repeated labels add up (diagonal). */
static void input_strides(const ein_plan* p, const TF_Tensor* t, int i,
                          int64_t* lstride) {
  int64_t s = 1;
  int j;
  for (j = 0; j < EIN_MAX_LABELS; j++) lstride[j] = 0;
  for (j = p->rank[i] - 1; j >= 0; j--) {
    int l = p->lab[i][j];
    if (!(t->dims[j] == 1 && p->size[l] != 1)) lstride[l] += s;
    s *= t->dims[j];
  }
}

/* Distinct labels of input i that neither the output nor the other input
 * has (summed away before the product, or in the one-operand case). */
static int reduce_labels(const ein_plan* p, int i, int* out) {
  int n = 0, l;
  for (l = 0; l < EIN_MAX_LABELS; l++) {
    if (p->in_count[i][l] == 0 || p->out_count[l] != 0) continue;
    if (p->nin == 2 && p->in_count[1 - i][l] != 0) continue;
    out[n++] = l;
  }
  return n;
}

static ein_kind kind_of(TF_DataType dt) {
  switch (dt) {
    case TF_DOUBLE: return EK_F64;
    case TF_COMPLEX64: return EK_C64;
    case TF_COMPLEX128: return EK_C128;
    case TF_INT32: return EK_I32;
    case TF_INT64: return EK_I64;
    default: return EK_F32;
  }
}

/* Allocation of n work elements (never a zero-byte request). */
static void* work_alloc(ein_kind w, int64_t n) {
  size_t bytes;
  if (n < 0 || !tfe_mul_size((size_t)(n > 0 ? n : 1), kind_size(w), &bytes)) {
    return NULL;
  }
  return tfe_malloc(bytes);
}

static int64_t labels_product(const ein_plan* p, const int* labs, int n) {
  int64_t r = 1;
  int i;
  for (i = 0; i < n; i++) {
    int64_t s = p->size[labs[i]];
    if (s != 0 && r > INT64_MAX / s) return -1;
    r *= s;
  }
  return r;
}

static void k_einsum(tfe_kernel_context* k) {
  const char* eq = NULL;
  size_t eqlen = 0;
  ein_plan* p = NULL;
  TF_DataType dt;
  ein_kind w;
  int half, i, j;
  int64_t odims[EIN_MAX_SUB];
  int64_t total;
  TF_Tensor* out;
  const void* src[2] = {NULL, NULL};
  void* wide[2] = {NULL, NULL};
  void *a2 = NULL, *b2 = NULL, *c2 = NULL, *fo = NULL;
  gather_args* g = NULL;
  int64_t* lstride = NULL;
  int sum[EIN_MAX_LABELS];

  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, "equation", &eq, &eqlen, NULL)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Einsum needs an 'equation' attr");
    return;
  }
  if (k->num_inputs < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Einsum needs at least one input");
    return;
  }
  dt = k->inputs[0]->dtype;
  for (i = 1; i < k->num_inputs; i++) {
    if (k->inputs[i]->dtype != dt) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Einsum inputs must share one dtype");
      return;
    }
  }
  p = (ein_plan*)tfe_malloc(sizeof *p);
  g = (gather_args*)tfe_malloc(sizeof *g);
  lstride = (int64_t*)tfe_malloc(sizeof(int64_t) * EIN_MAX_LABELS);
  if (p == NULL || g == NULL || lstride == NULL) goto oom;
  if (!make_plan(k, eq, p)) goto done;

  w = kind_of(dt);
  half = dt == TF_HALF || dt == TF_BFLOAT16;
  for (i = 0; i < p->orank; i++) odims[i] = p->size[p->out[i]];
  out = tfe_kernel_alloc_output(k, 0, dt, odims, p->orank);
  if (out == NULL) goto done;
  total = kutil_num_elements(out);

  /* sources as work elements */
  for (i = 0; i < p->nin; i++) {
    const TF_Tensor* t = k->inputs[i];
    src[i] = kutil_data(t);
    if (half) {
      int64_t n = kutil_num_elements(t), e;
      const uint16_t* h = (const uint16_t*)kutil_data(t);
      float* f = (float*)work_alloc(EK_F32, n);
      if (f == NULL) goto oom;
      for (e = 0; e < n; e++) {
        f[e] = dt == TF_HALF ? kutil_f16_to_f32(h[e]) : kutil_bf16_to_f32(h[e]);
      }
      wide[i] = f;
      src[i] = f;
    }
  }
  if (half) {
    fo = work_alloc(EK_F32, total);
    if (fo == NULL) goto oom;
  }

  g->lsize = p->size;
  g->lstride = lstride;
  if (p->nin == 1) {
    int ns = reduce_labels(p, 0, sum);
    input_strides(p, k->inputs[0], 0, lstride);
    g->src = src[0];
    g->dst = half ? fo : kutil_data(out);
    g->dlab = p->out;
    g->drank = p->orank;
    run_gather(w, g, sum, ns);
  } else {
    int batch[EIN_MAX_SUB], fa[EIN_MAX_SUB], fb[EIN_MAX_SUB],
        con[EIN_MAX_LABELS];
    int nbatch = 0, nfa = 0, nfb = 0, ncon = 0, ns, l;
    int alab[3 * EIN_MAX_SUB], blab[3 * EIN_MAX_SUB], clab[3 * EIN_MAX_SUB];
    int64_t nb, m, n, kk, s;
    for (l = 0; l < EIN_MAX_LABELS; l++) {
      int ina = p->in_count[0][l] > 0, inb = p->in_count[1][l] > 0;
      int ino = p->out_count[l] > 0;
      if (ina && inb && ino) batch[nbatch++] = l;
      else if (ina && inb) con[ncon++] = l;
      else if (ina && ino) fa[nfa++] = l;
      else if (inb && ino) fb[nfb++] = l;
    }
    nb = labels_product(p, batch, nbatch);
    m = labels_product(p, fa, nfa);
    n = labels_product(p, fb, nfb);
    kk = labels_product(p, con, ncon);
    if (nb < 0 || m < 0 || n < 0 || kk < 0) goto oom;
    /* a2 = [batch, free_a, contracted] */
    memcpy(alab, batch, sizeof(int) * (size_t)nbatch);
    memcpy(alab + nbatch, fa, sizeof(int) * (size_t)nfa);
    memcpy(alab + nbatch + nfa, con, sizeof(int) * (size_t)ncon);
    memcpy(blab, batch, sizeof(int) * (size_t)nbatch);
    memcpy(blab + nbatch, con, sizeof(int) * (size_t)ncon);
    memcpy(blab + nbatch + ncon, fb, sizeof(int) * (size_t)nfb);
    memcpy(clab, batch, sizeof(int) * (size_t)nbatch);
    memcpy(clab + nbatch, fa, sizeof(int) * (size_t)nfa);
    memcpy(clab + nbatch + nfa, fb, sizeof(int) * (size_t)nfb);
    if (labels_product(p, alab, nbatch + nfa + ncon) < 0 ||
        labels_product(p, blab, nbatch + ncon + nfb) < 0 ||
        labels_product(p, clab, nbatch + nfa + nfb) < 0) {
      goto oom;
    }
    a2 = work_alloc(w, nb * m * kk);
    b2 = work_alloc(w, nb * kk * n);
    c2 = work_alloc(w, nb * m * n);
    if (a2 == NULL || b2 == NULL || c2 == NULL) goto oom;

    ns = reduce_labels(p, 0, sum);
    input_strides(p, k->inputs[0], 0, lstride);
    g->src = src[0];
    g->dst = a2;
    g->dlab = alab;
    g->drank = nbatch + nfa + ncon;
    run_gather(w, g, sum, ns);

    ns = reduce_labels(p, 1, sum);
    input_strides(p, k->inputs[1], 1, lstride);
    g->src = src[1];
    g->dst = b2;
    g->dlab = blab;
    g->drank = nbatch + ncon + nfb;
    run_gather(w, g, sum, ns);

    if (!batched_gemm(w, nb, m, n, kk, a2, b2, c2)) goto oom;

    /* c2 is [batch, free_a, free_b], contiguous */
    for (j = 0; j < EIN_MAX_LABELS; j++) lstride[j] = 0;
    s = 1;
    for (j = nbatch + nfa + nfb - 1; j >= 0; j--) {
      lstride[clab[j]] = s;
      s *= p->size[clab[j]];
    }
    g->src = c2;
    g->dst = half ? fo : kutil_data(out);
    g->dlab = p->out;
    g->drank = p->orank;
    run_gather(w, g, sum, 0);
  }
  if (half) {
    uint16_t* h = (uint16_t*)kutil_data(out);
    const float* f = (const float*)fo;
    int64_t e;
    for (e = 0; e < total; e++) {
      h[e] = dt == TF_HALF ? kutil_f32_to_f16(f[e]) : kutil_f32_to_bf16(f[e]);
    }
  }
  goto done;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM when computing Einsum");
done:
  tfe_free(wide[0]);
  tfe_free(wide[1]);
  tfe_free(a2);
  tfe_free(b2);
  tfe_free(c2);
  tfe_free(fo);
  tfe_free(g);
  tfe_free(lstride);
  tfe_free(p);
  (void)eqlen;
}

void tfe_register_cpu_einsum_kernels(void) {
  static const TF_DataType types[] = {TF_FLOAT,     TF_DOUBLE,    TF_HALF,
                                      TF_BFLOAT16,  TF_INT32,     TF_INT64,
                                      TF_COMPLEX64, TF_COMPLEX128};
  tfe_kutil_register("Einsum", k_einsum, "T", types, KUTIL_COUNT(types), NULL,
                     NULL, 0);
}
