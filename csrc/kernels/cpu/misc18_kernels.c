/* CPU kernels: remaining array, math and linalg ops of TF 2.21 (issue 18).
 *
 * TopK (v1) and TileGrad: TF 2.21 registers their CPU kernels with a type
 * constraint on an attr the op does not have (index_type, Tmultiples), so
 * every run fails with INVALID_ARGUMENT naming the constraint; these
 * kernels reproduce that error.
 * BiasAddV1 runs BiasAdd's kernel (NHWC layout). InplaceAdd/Sub/Update,
 * DataFormatDimMap, DataFormatVecPermute and NthElement are here. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/threadpool.h"
#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"
#include "ops/attr_value.h"

void tfe_register_cpu_misc18_kernels(void);

/* The CPU kernel registered for `op` whose "T" constraint admits dt (or
 * that has no "T" constraint), or NULL. */
static const tfe_kernel_reg* other_kernel(const char* op, TF_DataType dt) {
  int i, n = tfe_kernel_count();
  for (i = 0; i < n; i++) {
    const tfe_kernel_reg* r = tfe_kernel_at(i);
    int c, ok = 1;
    if (r == NULL || strcmp(r->op_name, op) != 0 ||
        strcmp(r->device_type, "CPU") != 0 || r->create != NULL)
      continue;
    for (c = 0; c < r->num_constraints; c++) {
      int j, hit = 0;
      if (strcmp(r->constraints[c].attr, "T") != 0) continue;
      for (j = 0; j < r->constraints[c].num_types; j++)
        if (r->constraints[c].types[j] == dt) hit = 1;
      if (!hit) ok = 0;
    }
    if (ok) return r;
  }
  return NULL;
}

/* Runs that kernel with the same context (inputs, attrs, outputs). */
static void run_other_kernel(tfe_kernel_context* k, const char* op,
                             TF_DataType dt) {
  const tfe_kernel_reg* r = other_kernel(op, dt);
  tfe_kernel_context sub;
  if (r == NULL) {
    KUTIL_FAIL(k, TF_NOT_FOUND, "No CPU kernel for %s", op);
    return;
  }
  sub = *k;
  sub.user_data = r->user_data;
  r->compute(&sub);
  k->forwarded = sub.forwarded;
}

/* ---------------------------------------------------- TopK and TileGrad */

/* TF's error for a kernel whose constraint names an attr missing from the
 * node: the node's attrs "[a=v, ...]" (sorted by name) and the kernel
 * def's text. TF fails while making the kernel, so these two kernels fail
 * in `create` (before the check for ops removed at a GraphDef version). */
static void* missing_attr_error(TF_Status* s, const char* op, const char* attr,
                                const char* node_attrs, const char* kernel_def) {
  tfe_status_setf(s, TF_INVALID_ARGUMENT,
                  "OpKernel '%s' has constraint on attr '%s' not in NodeDef "
                  "'[%s]', KernelDef: 'goo.gle/debugproto  op: \"%s\" "
                  "device_type: \"CPU\" %s'",
                  op, attr, node_attrs, op, kernel_def);
  return NULL;
}

static void* top_k_create(const tfe_op_def* def, const tfe_attrs* a, void* user_data,
                          TF_Status* s) {
  char attrs[160], kd[320];
  int64_t kk = 0;
  int sorted = 1;
  TF_DataType dt = TF_FLOAT;
  const char* t;
  (void)def;
  (void)user_data;
  tfe_attrs_get_type(a, "T", &dt, NULL);
  tfe_attrs_get_int(a, "k", &kk, NULL);
  tfe_attrs_get_bool(a, "sorted", &sorted, NULL);
  t = tfe_dtype_enum_name(dt);
  snprintf(attrs, sizeof attrs, "T=%s, k=%lld, sorted=%s", t, (long long)kk,
           sorted ? "true" : "false");
  snprintf(kd, sizeof kd,
           "constraint { name: \"T\" allowed_values { list { type: %s } } } "
           "constraint { name: \"index_type\" allowed_values { list { type: "
           "DT_INT64 } } }",
           t);
  return missing_attr_error(s, "TopK", "index_type", attrs, kd);
}

static void* tile_grad_create(const tfe_op_def* def, const tfe_attrs* a, void* user_data,
                              TF_Status* s) {
  char attrs[64];
  TF_DataType dt = TF_FLOAT;
  (void)def;
  (void)user_data;
  tfe_attrs_get_type(a, "T", &dt, NULL);
  snprintf(attrs, sizeof attrs, "T=%s", tfe_dtype_enum_name(dt));
  return missing_attr_error(s, "TileGrad", "Tmultiples", attrs,
                            "constraint { name: \"Tmultiples\" allowed_values { list "
                            "{ type: DT_INT64 } } } host_memory_arg: \"multiples\"");
}

/* Never reached: create always fails. */
static void k_never(tfe_kernel_context* k) {
  KUTIL_FAIL(k, TF_INTERNAL, "%s: no kernel can be made", k->op_def->name);
}

/* ------------------------------------------------------------ BiasAddV1 */

static void k_bias_add_v1(tfe_kernel_context* k) {
  run_other_kernel(k, "BiasAdd", k->inputs[0]->dtype);
}

/* ------------------------------------------------------------- Inplace* */

enum { INPLACE_UPDATE, INPLACE_ADD, INPLACE_SUB };

static void inplace_op(tfe_kernel_context* k, int mode) {
  const TF_Tensor *x = k->inputs[0], *it = k->inputs[1], *v = k->inputs[2];
  kutil_shape_buf sa, sb;
  int d;
  int64_t nrows, row_elems, j, ni;
  size_t esz = kutil_esize(x->dtype);
  TF_Tensor* y;
  if (mode != INPLACE_UPDATE &&
      (x->dtype == TF_BOOL || x->dtype == TF_STRING)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Unsupported data type: %s",
               tfe_dtype_short_name(x->dtype));
    return;
  }
  if (it->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "i must be a vector. %s",
               kutil_tshape(it, &sa));
    return;
  }
  if (x->num_dims != v->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "x and v shape doesn't match (ranks differ): %s vs. %s",
               kutil_tshape(x, &sa), kutil_tshape(v, &sb));
    return;
  }
  for (d = 1; d < x->num_dims; d++) {
    if (x->dims[d] != v->dims[d]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "x and v shape doesn't match at index %d : %s vs. %s", d,
                 kutil_tshape(x, &sa), kutil_tshape(v, &sb));
      return;
    }
  }
  if (x->num_dims == 0 || it->dims[0] != v->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "i and x shape doesn't match at index 0: %s vs. %s",
               kutil_tshape(it, &sa), kutil_tshape(v, &sb));
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL) return;
  kutil_copy(x->dtype, kutil_data(y), kutil_data(x), kutil_num_elements(x));
  nrows = x->dims[0];
  ni = it->dims[0];
  row_elems = kutil_dims_prod(x->dims, 1, x->num_dims);
  if (ni > 0 && nrows == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "i and x shape doesn't match at index 0: %s vs. %s",
               kutil_tshape(it, &sa), kutil_tshape(x, &sb));
    return;
  }
  /* Row indices wrap around the first dimension (TF takes them modulo it,
   * so -1 is the last row). Repeated rows accumulate in order. */
  for (j = 0; j < ni; j++) {
    int64_t r = kutil_get_int(it, j) % nrows;
    char* dst;
    const char* src;
    if (r < 0) r += nrows;
    dst = (char*)kutil_data(y) + (size_t)(r * row_elems) * esz;
    src = (const char*)kutil_data(v) + (size_t)(j * row_elems) * esz;
    if (mode == INPLACE_UPDATE) {
      kutil_copy(x->dtype, dst, src, row_elems);
    } else {
      tfe_cpu_add_sub_inplace(x->dtype, dst, src, row_elems,
                              mode == INPLACE_SUB);
    }
  }
}

static void k_inplace_update(tfe_kernel_context* k) {
  inplace_op(k, INPLACE_UPDATE);
}
static void k_inplace_add(tfe_kernel_context* k) { inplace_op(k, INPLACE_ADD); }
static void k_inplace_sub(tfe_kernel_context* k) { inplace_op(k, INPLACE_SUB); }

/* -------------------------------------------------------- DataFormat* */

/* Reads and checks src_format/dst_format as TF does; 1 when valid. */
static int data_formats(tfe_kernel_context* k, const char** src, size_t* ns,
                        const char** dst, size_t* nd) {
  char a[8], b[8];
  *src = "NHWC";
  *dst = "NCHW";
  *ns = *nd = 4;
  if (k->attrs != NULL) {
    tfe_attrs_get_string(k->attrs, "src_format", src, ns, NULL);
    tfe_attrs_get_string(k->attrs, "dst_format", dst, nd, NULL);
  }
  if (*ns != 4 && *ns != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Source format must be of length 4 or 5, received "
               "src_format = %s",
               *src);
    return 0;
  }
  if (*nd != 4 && *nd != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Destination format must be of length 4 or 5, received "
               "dst_format = %s",
               *dst);
    return 0;
  }
  /* A permutation: same letters, each once. */
  if (*ns == *nd) {
    size_t i, j;
    int ok = 1;
    memcpy(a, *src, *ns);
    memcpy(b, *dst, *nd);
    for (i = 0; i < *ns && ok; i++) {
      for (j = 0; j < *nd; j++)
        if (b[j] == a[i]) break;
      if (j == *nd) ok = 0; else b[j] = 0;
    }
    if (ok) return 1;
  }
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Destination and source format must determine a permutation, "
             "got %s and %s",
             *src, *dst);
  return 0;
}

static void k_data_format_dim_map(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const char *src, *dst;
  size_t ns, nd;
  int64_t i, n;
  int map[5];
  TF_Tensor* y;
  if (!data_formats(k, &src, &ns, &dst, &nd)) return;
  for (i = 0; i < (int64_t)ns; i++) {
    const char* p = memchr(dst, src[i], nd);
    map[i] = p != NULL ? (int)(p - dst) : 0;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL) return;
  n = kutil_num_elements(x);
  for (i = 0; i < n; i++) {
    int64_t d = kutil_get_int(x, i) % (int64_t)ns;
    if (d < 0) d += (int64_t)ns;
    if (x->dtype == TF_INT32)
      ((int32_t*)kutil_data(y))[i] = map[d];
    else
      ((int64_t*)kutil_data(y))[i] = map[d];
  }
}

static void k_data_format_vec_permute(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const char *src, *dst;
  char s2[8], d2[8];
  size_t ns, nd, i, j, m = 0;
  int64_t rows, cols, r;
  kutil_shape_buf sa;
  size_t esz = kutil_esize(x->dtype);
  TF_Tensor* y;
  if (!data_formats(k, &src, &ns, &dst, &nd)) return;
  if (x->num_dims != 1 && x->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input must be a vector or 2D tensor, but got shape %s",
               kutil_tshape(x, &sa));
    return;
  }
  rows = x->dims[0];
  if (x->num_dims == 1 && rows != (int64_t)ns - 2 && rows != (int64_t)ns) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "1D input must be of size %d or %d, but got shape %s",
               (int)ns - 2, (int)ns, kutil_tshape(x, &sa));
    return;
  }
  if (x->num_dims == 2 && rows != (int64_t)ns - 2 && rows != (int64_t)ns) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "First dimension of 2D input must be of size %d or %d, but "
               "got shape %s",
               (int)ns - 2, (int)ns, kutil_tshape(x, &sa));
    return;
  }
  if (x->num_dims == 2 && x->dims[1] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Second dimension of 2D input must be of size 2, but got "
               "shape %s",
               kutil_tshape(x, &sa));
    return;
  }
  cols = x->num_dims == 2 ? 2 : 1;
  if (rows == (int64_t)ns) {
    memcpy(s2, src, ns);
    memcpy(d2, dst, nd);
    m = ns;
  } else {
    /* Spatial dims only: the formats without N and C. */
    size_t a = 0, b = 0;
    for (i = 0; i < ns; i++)
      if (src[i] != 'N' && src[i] != 'C') s2[a++] = src[i];
    for (i = 0; i < nd; i++)
      if (dst[i] != 'N' && dst[i] != 'C') d2[b++] = dst[i];
    m = a < b ? a : b;
    if (m != (size_t)rows) m = (size_t)rows < m ? (size_t)rows : m;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL) return;
  for (r = 0; r < rows; r++) {
    size_t from = (size_t)r;
    if ((size_t)r < m) {
      for (j = 0; j < m; j++)
        if (s2[j] == d2[r]) break;
      if (j < m) from = j;
    }
    memcpy((char*)kutil_data(y) + (size_t)(r * cols) * esz,
           (const char*)kutil_data(x) + (from * (size_t)cols) * esz,
           (size_t)cols * esz);
  }
}

/* ----------------------------------------------------------- NthElement */

static double nth_val(const TF_Tensor* t, int64_t i) {
  const char* d = (const char*)kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[i]);
    default: return 0;
  }
}

/* NthElement orders each row by a total order: ascending value, NaN after
 * every number, ties (equal values: -0/+0, or NaNs) by position; the
 * element of rank n (or cols-1-n with reverse) is the answer. Each value
 * becomes a signed 64-bit key with the same order (floats by their bits,
 * -0 folded onto +0, every NaN the largest key; unsigned values offset by
 * 2^63), so one selection over (key, position) pairs serves every dtype.
 * The pairs are all distinct, so the selected element is exactly the one
 * a full sort would put at that rank. */
typedef struct nth_item {
  int64_t key;
  int64_t pos;
} nth_item;

static inline int64_t nth_fkey(double v) {
  uint64_t b;
  if (v != v) return INT64_MAX;
  if (v == 0) v = 0; /* -0 -> +0 */
  memcpy(&b, &v, sizeof b);
  return (b >> 63) ? (int64_t)(b ^ 0x7fffffffffffffffull) : (int64_t)b;
}

static inline int nth_less(const nth_item* a, const nth_item* b) {
  return a->key < b->key || (a->key == b->key && a->pos < b->pos);
}

static int nth_cmp(const void* pa, const void* pb) {
  const nth_item *a = (const nth_item*)pa, *b = (const nth_item*)pb;
  return nth_less(a, b) ? -1 : nth_less(b, a);
}

static void nth_swap(nth_item* a, nth_item* b) {
  nth_item t = *a;
  *a = *b;
  *b = t;
}

/* Puts the item of rank `want` of v[0..n) (distinct items) at v[want]:
 * quickselect with a median-of-three pivot, falling back to a sort when
 * the partitions stop shrinking. */
static void nth_select(nth_item* v, int64_t n, int64_t want) {
  int64_t lo = 0, hi = n - 1, budget = 64;
  while (hi - lo > 16) {
    int64_t mid = lo + (hi - lo) / 2, i, j;
    nth_item piv;
    if (budget-- == 0) {
      qsort(v + lo, (size_t)(hi - lo + 1), sizeof *v, nth_cmp);
      return;
    }
    if (nth_less(&v[mid], &v[lo])) nth_swap(&v[mid], &v[lo]);
    if (nth_less(&v[hi], &v[lo])) nth_swap(&v[hi], &v[lo]);
    if (nth_less(&v[hi], &v[mid])) nth_swap(&v[hi], &v[mid]);
    /* v[lo] <= v[mid] <= v[hi]: partition v[lo+1..hi-1] around v[mid] */
    piv = v[mid];
    nth_swap(&v[mid], &v[hi - 1]);
    i = lo;
    j = hi - 1;
    for (;;) {
      while (nth_less(&v[++i], &piv)) {
      }
      while (nth_less(&piv, &v[--j])) {
      }
      if (i >= j) break;
      nth_swap(&v[i], &v[j]);
    }
    nth_swap(&v[i], &v[hi - 1]); /* pivot to its final rank i */
    if (want == i) return;
    if (want < i)
      hi = i - 1;
    else
      lo = i + 1;
  }
  {
    int64_t i, j; /* insertion sort of the short range */
    for (i = lo + 1; i <= hi; i++) {
      nth_item t = v[i];
      for (j = i; j > lo && nth_less(&t, &v[j - 1]); j--) v[j] = v[j - 1];
      v[j] = t;
    }
  }
}

typedef struct nth_job {
  const TF_Tensor* x;
  TF_Tensor* y;
  int64_t cols, pick;
  size_t esz;
  int failed; /* set (racy but only ever to 1) when a buffer was refused */
} nth_job;

static void nth_rows(void* arg, int64_t r0, int64_t r1) {
  nth_job* j = (nth_job*)arg;
  const TF_Tensor* x = j->x;
  const char* xd = (const char*)kutil_data(x);
  int64_t cols = j->cols, r, c;
  nth_item* buf = (nth_item*)tfe_malloc(sizeof(nth_item) * (size_t)cols);
  if (buf == NULL) {
    j->failed = 1;
    return;
  }
  for (r = r0; r < r1; r++) {
    int64_t e0 = r * cols;
    switch (x->dtype) {
      case TF_FLOAT:
        for (c = 0; c < cols; c++)
          buf[c].key = nth_fkey(((const float*)xd)[e0 + c]);
        break;
      case TF_DOUBLE:
        for (c = 0; c < cols; c++)
          buf[c].key = nth_fkey(((const double*)xd)[e0 + c]);
        break;
      case TF_HALF:
        for (c = 0; c < cols; c++)
          buf[c].key =
              nth_fkey(kutil_f16_to_f32(((const uint16_t*)xd)[e0 + c]));
        break;
      case TF_BFLOAT16:
        for (c = 0; c < cols; c++)
          buf[c].key =
              nth_fkey(kutil_bf16_to_f32(((const uint16_t*)xd)[e0 + c]));
        break;
      case TF_UINT64:
        for (c = 0; c < cols; c++)
          buf[c].key = (int64_t)(((const uint64_t*)xd)[e0 + c] ^
                                 0x8000000000000000ull);
        break;
      case TF_UINT8:
      case TF_UINT16:
      case TF_UINT32:
        for (c = 0; c < cols; c++)
          buf[c].key = (int64_t)(uint64_t)kutil_get_int(x, e0 + c);
        break;
      default:
        for (c = 0; c < cols; c++) buf[c].key = kutil_get_int(x, e0 + c);
        break;
    }
    for (c = 0; c < cols; c++) buf[c].pos = e0 + c;
    nth_select(buf, cols, j->pick);
    memcpy((char*)kutil_data(j->y) + (size_t)r * j->esz,
           xd + (size_t)buf[j->pick].pos * j->esz, j->esz);
  }
  tfe_free(buf);
}

static void k_nth_element(tfe_kernel_context* k) {
  const TF_Tensor *x = k->inputs[0], *nt = k->inputs[1];
  int reverse = 0, nd = x->num_dims;
  int64_t n, cols, rows;
  nth_job job;
  TF_Tensor* y;
  if (k->attrs != NULL) tfe_attrs_get_bool(k->attrs, "reverse", &reverse, NULL);
  if (nt->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "N must be scalar but has rank %d",
               nt->num_dims);
    return;
  }
  n = kutil_get_int(nt, 0);
  if (n < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "n must be non-negative but is %lld",
               (long long)n);
    return;
  }
  if (nd < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input must be at least rank 1 but is rank %d", nd);
    return;
  }
  cols = x->dims[nd - 1];
  if (cols <= n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input must have last dimension > n = %lld",
               (long long)n);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, nd - 1);
  if (y == NULL) return;
  rows = kutil_num_elements(y);
  if (rows == 0) return;
  job.x = x;
  job.y = y;
  job.cols = cols;
  job.pick = reverse ? cols - 1 - n : n;
  job.esz = kutil_esize(x->dtype);
  job.failed = 0;
  /* about cols * 8 comparisons per row: chunks of >= 64k items */
  tfe_parallel_for(tfe_kernel_threadpool(k), rows,
                   cols >= 65536 ? 1 : 65536 / cols, nth_rows, &job);
  if (job.failed) KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in NthElement");
}

/* ------------------------------------------------------ StridedSliceGrad */

/* StridedSlice's slice spec (and so its checks and messages) resolved
 * against `shape`; dy, of the slice's shape, is then scattered into a
 * zero result: dy element (i0..ik) lands on result element
 * (begin[0] + i0*stride[0], ...). A slice never hits an element twice. */
static void ssg_scatter(TF_DataType dt, size_t esz, const void* src,
                        const int64_t* dims, int nd, const int64_t* begin,
                        const int64_t* stride, const int64_t* proc,
                        void* dst) {
  int64_t dstride[TFE_MAX_DIMS], step[TFE_MAX_DIMS], idx[TFE_MAX_DIMS];
  int64_t outer = 1, inner, off = 0, o, t, istep;
  const char* s = (const char*)src;
  char* d = (char*)dst;
  int i;
  if (nd <= 0 || nd > TFE_MAX_DIMS) {
    if (nd == 0) kutil_copy1(dt, esz, d, s);
    return;
  }
  for (i = 0; i < nd; i++)
    if (proc[i] == 0) return;
  dstride[nd - 1] = 1;
  for (i = nd - 2; i >= 0; i--) dstride[i] = dstride[i + 1] * dims[i + 1];
  for (i = 0; i < nd; i++) {
    step[i] = stride[i] * dstride[i];
    off += begin[i] * dstride[i];
    idx[i] = 0;
  }
  inner = proc[nd - 1];
  istep = step[nd - 1];
  for (i = 0; i < nd - 1; i++) outer *= proc[i];
  for (o = 0; o < outer; o++) {
    const char* row = s + (size_t)(o * inner) * esz;
    if (dt != TF_STRING && istep == 1) {
      memcpy(d + (size_t)off * esz, row, (size_t)inner * esz);
    } else if (dt != TF_STRING && esz == 4) {
      const uint32_t* sp = (const uint32_t*)row;
      uint32_t* dp = (uint32_t*)d + off;
      for (t = 0; t < inner; t++) dp[t * istep] = sp[t];
    } else if (dt != TF_STRING && esz == 8) {
      const uint64_t* sp = (const uint64_t*)row;
      uint64_t* dp = (uint64_t*)d + off;
      for (t = 0; t < inner; t++) dp[t * istep] = sp[t];
    } else {
      for (t = 0; t < inner; t++)
        kutil_copy1(dt, esz, d + (size_t)(off + t * istep) * esz,
                    row + (size_t)t * esz);
    }
    for (i = nd - 2; i >= 0; i--) {
      idx[i]++;
      off += step[i];
      if (idx[i] < proc[i]) break;
      off -= step[i] * proc[i];
      idx[i] = 0;
    }
  }
}

static void k_strided_slice_grad(tfe_kernel_context* k) {
  const TF_Tensor *st = k->inputs[0], *dy = k->inputs[4];
  TF_Tensor* y;
  kutil_shape_buf sa;
  char sb[256];
  int64_t dims[TFE_MAX_DIMS], n, begin[TFE_MAX_DIMS], stride[TFE_MAX_DIMS];
  int64_t proc[TFE_MAX_DIMS], fdims[TFE_MAX_DIMS];
  int nd, d, nfinal = 0;
  size_t esz = kutil_esize(dy->dtype);
  if (st->num_dims != 1 || st->dims[0] > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "shape must be 1-D, got shape.shape = %s",
               kutil_tshape(st, &sa));
    return;
  }
  nd = (int)st->dims[0];
  n = 1;
  for (d = 0; d < nd; d++) {
    dims[d] = kutil_get_int(st, d);
    if (dims[d] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Dimension %d must be >= 0, got %lld", d, (long long)dims[d]);
      return;
    }
    if (dims[d] != 0 && n > INT64_MAX / 8 / dims[d]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape is too large");
      return;
    }
    n *= dims[d];
  }
  if (!tfe_strided_slice_spec(k, dims, nd, k->inputs[1], k->inputs[2],
                              k->inputs[3], begin, stride, proc, fdims,
                              &nfinal))
    return;
  if (nfinal != dy->num_dims ||
      memcmp(fdims, dy->dims, sizeof(int64_t) * (size_t)dy->num_dims)) {
    kutil_shape_str(fdims, nfinal, sb, sizeof sb);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape of dy was %s instead of %s",
               kutil_tshape(dy, &sa), sb);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, dy->dtype, dims, nd);
  if (y == NULL || n == 0) return;
  if (dy->dtype != TF_STRING) memset(kutil_data(y), 0, (size_t)n * esz);
  ssg_scatter(dy->dtype, esz, kutil_data(dy), dims, nd, begin, stride, proc,
              kutil_data(y));
}

/* -------------------------------------------------------- ParallelConcat */

/* TF runs ParallelConcat as an output of `shape` (contents unspecified;
 * zeros here) whose row i is set from values[i], each of shape
 * [1, shape[1:]...]. */
static void k_parallel_concat(tfe_kernel_context* k) {
  const tfe_shape* shp = NULL;
  int n = k->num_inputs, i, d, nd;
  const TF_Tensor* v0 = k->inputs[0];
  int64_t dims[TFE_MAX_DIMS], row;
  kutil_shape_buf sb;
  char sa[256];
  size_t esz = kutil_esize(v0->dtype);
  TF_Tensor* y;
  if (k->attrs == NULL || !tfe_attrs_get_shape(k->attrs, "shape", &shp,
                                               k->status))
    return;
  nd = shp->num_dims;
  if (nd < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape must be fully defined");
    return;
  }
  for (d = 0; d < nd; d++) {
    if (shp->dims[d] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape must be fully defined");
      return;
    }
    dims[d] = shp->dims[d];
  }
  kutil_shape_str(dims, nd, sa, sizeof sa);
  for (i = 0; i < n; i++) {
    const TF_Tensor* v = k->inputs[i];
    if (v->num_dims != nd) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "value and update shape doesn't match: %s vs. %s", sa,
                 kutil_tshape(v, &sb));
      return;
    }
    if (nd > 0 && i >= dims[0]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "0th dimension of value = %lld must be greater than loc_ = %d",
                 (long long)dims[0], i);
      return;
    }
    for (d = 1; d < nd; d++) {
      if (v->dims[d] != dims[d]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "value and update shape doesn't match %s vs. %s", sa,
                   kutil_tshape(v, &sb));
        return;
      }
    }
    if (nd == 0 || v->dims[0] != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "update shape doesn't match: %s",
                 kutil_tshape(v, &sb));
      return;
    }
  }
  y = tfe_kernel_alloc_output(k, 0, v0->dtype, dims, nd);
  if (y == NULL) return;
  if (v0->dtype != TF_STRING)
    memset(kutil_data(y), 0, (size_t)kutil_num_elements(y) * esz);
  row = kutil_dims_prod(dims, 1, nd);
  for (i = 0; i < n; i++)
    kutil_copy(v0->dtype,
               (char*)kutil_data(y) + (size_t)(i * row) * esz,
               kutil_data(k->inputs[i]), row);
}

/* --------------------------------------------------------- MirrorPadGrad */

/* y[map(i)] += g[i] for every grad element i in order (row-major walk of
 * g's index with the result offset kept up to date). */
#define MPG_LOOP(T, ADD)                                                   \
  do {                                                                     \
    const T* gs = (const T*)kutil_data(g);                                 \
    T* ys = (T*)kutil_data(y);                                             \
    for (o = 0; o < outer; o++) {                                          \
      const T* grow = gs + o * inner;                                      \
      T* yrow = ys + base;                                                 \
      for (t = 0; t < inner; t++) ADD(yrow[last[t]], grow[t]);             \
      for (d = nd - 2; d >= 0; d--) {                                      \
        base -= map[d][idx[d]] * ystr[d];                                  \
        if (++idx[d] < g->dims[d]) {                                       \
          base += map[d][idx[d]] * ystr[d];                                \
          break;                                                           \
        }                                                                  \
        idx[d] = 0;                                                        \
        base += map[d][0] * ystr[d];                                       \
      }                                                                    \
    }                                                                      \
  } while (0)
#define MPG_PLUS(a, b) ((a) = (a) + (b))
#define MPG_WRAP(a, b) ((a) = (a) + (b)) /* on unsigned views: wraps */

static void mpg_accumulate(const TF_Tensor* g, TF_Tensor* y,
                           const int64_t* dims, int nd,
                           const int64_t* const* map) {
  int64_t ystr[TFE_MAX_DIMS], idx[TFE_MAX_DIMS], base = 0, outer = 1, o, t;
  int64_t inner = g->dims[nd - 1];
  const int64_t* last = map[nd - 1];
  size_t esz = kutil_esize(g->dtype);
  int d;
  ystr[nd - 1] = 1;
  for (d = nd - 2; d >= 0; d--) ystr[d] = ystr[d + 1] * dims[d + 1];
  for (d = 0; d < nd - 1; d++) {
    idx[d] = 0;
    base += map[d][0] * ystr[d];
    outer *= g->dims[d];
  }
  switch (g->dtype) {
    case TF_FLOAT: MPG_LOOP(float, MPG_PLUS); break;
    case TF_DOUBLE: MPG_LOOP(double, MPG_PLUS); break;
    case TF_INT32:
    case TF_UINT32: MPG_LOOP(uint32_t, MPG_WRAP); break;
    case TF_INT64:
    case TF_UINT64: MPG_LOOP(uint64_t, MPG_WRAP); break;
    default: {
      /* half, bfloat16, complex, small ints: AssignAdd's element rules */
      const char* gs = (const char*)kutil_data(g);
      char* ys = (char*)kutil_data(y);
      for (o = 0; o < outer; o++) {
        for (t = 0; t < inner; t++)
          tfe_cpu_add_sub_inplace(g->dtype, ys + (size_t)(base + last[t]) * esz,
                                  gs + (size_t)(o * inner + t) * esz, 1, 0);
        for (d = nd - 2; d >= 0; d--) {
          base -= map[d][idx[d]] * ystr[d];
          if (++idx[d] < g->dims[d]) {
            base += map[d][idx[d]] * ystr[d];
            break;
          }
          idx[d] = 0;
          base += map[d][0] * ystr[d];
        }
      }
    }
  }
}

/* Checks as TF's MirrorPadGrad; then every grad element, in order, is
 * added to the result element MirrorPad copies it from (MirrorPad's index
 * mapping, per dim). */
static void k_mirror_pad_grad(tfe_kernel_context* k) {
  const TF_Tensor *g = k->inputs[0], *pt = k->inputs[1];
  TF_Tensor* y;
  int64_t *maps, *map[TFE_MAX_DIMS], tot = 0;
  kutil_shape_buf sa, sb;
  const char* mode = "REFLECT";
  size_t mlen = 7, esz = kutil_esize(g->dtype);
  int nd = g->num_dims, d, sym;
  int64_t dims[TFE_MAX_DIMS], n = 1, ng;
  if (k->attrs != NULL)
    tfe_attrs_get_string(k->attrs, "mode", &mode, &mlen, NULL);
  sym = mlen == 9 && memcmp(mode, "SYMMETRIC", 9) == 0;
  if (!(pt->num_dims == 2 && pt->dims[1] == 2)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "paddings must be a matrix with 2 columns: %s",
               kutil_tshape(pt, &sa));
    return;
  }
  if (pt->dims[0] != nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The first dimension of paddings must be the rank of inputs%s "
               "%s",
               kutil_tshape(pt, &sa), kutil_tshape(g, &sb));
    return;
  }
  for (d = 0; d < nd; d++) {
    int64_t before = kutil_get_int(pt, 2 * d), after = kutil_get_int(pt, 2 * d + 1);
    int64_t out;
    if (before < 0 || after < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Paddings must be non-negative: %lld, %lld",
                 (long long)before, (long long)after);
      return;
    }
    /* (before, after <= dims keeps the subtraction from overflowing) */
    out = before > g->dims[d] || after > g->dims[d] - before
              ? -1
              : g->dims[d] - before - after;
    if (sym && (before > out || after > out)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "paddings must be no greater than the output dimension size: "
                 "%lld, %lld greater than %lld",
                 (long long)before, (long long)after, (long long)out);
      return;
    }
    if (!sym && (before >= out || after >= out)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "paddings must be less than the output dimension size: "
                 "%lld, %lld not less than %lld",
                 (long long)before, (long long)after, (long long)out);
      return;
    }
    dims[d] = out;
    n *= out;
    tot += g->dims[d];
  }
  if (!sym && !(mlen == 7 && memcmp(mode, "REFLECT", 7) == 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "mode must be either REFLECT or SYMMETRIC.");
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, g->dtype, dims, nd);
  if (y == NULL) return;
  ng = kutil_num_elements(g);
  if (nd == 0) {
    memset(kutil_data(y), 0, esz);
    tfe_cpu_add_sub_inplace(g->dtype, kutil_data(y), kutil_data(g), 1, 0);
    return;
  }
  if (n == 0 || ng == 0) {
    if (n > 0) memset(kutil_data(y), 0, (size_t)n * esz);
    return;
  }
  /* per dim: padded index -> result index (MirrorPad's own mapping) */
  maps = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(tot > 0 ? tot : 1));
  if (maps == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in MirrorPadGrad");
    return;
  }
  {
    int64_t* m = maps;
    for (d = 0; d < nd; d++) {
      int64_t o, before = kutil_get_int(pt, 2 * d), len = dims[d];
      map[d] = m;
      for (o = 0; o < g->dims[d]; o++) {
        int64_t s = o - before;
        if (sym) {
          if (s < 0) s = -s - 1;
          if (s >= len) s = 2 * len - 1 - s;
        } else {
          if (s < 0) s = -s;
          if (s >= len) s = 2 * len - 2 - s;
        }
        m[o] = s;
      }
      m += g->dims[d];
    }
  }
  memset(kutil_data(y), 0, (size_t)n * esz);
  mpg_accumulate(g, y, dims, nd, (const int64_t* const*)map);
  tfe_free(maps);
}

/* ---------------------------------------------------------------- Spence */

/* Li2(z) for z in [-1, 0.5] by the Bernoulli series in u = -log(1 - z):
 * Li2 = u - u^2/4 + sum_{m even >= 2} B_m u^(m+1) / (m+1)!, |u| <= log 2. */
static double li2_core(double z) {
  /* B_2, B_4, ..., B_20 */
  static const double bern[] = {1.0 / 6,        -1.0 / 30,      1.0 / 42,
                                -1.0 / 30,      5.0 / 66,       -691.0 / 2730,
                                7.0 / 6,        -3617.0 / 510,  43867.0 / 798,
                                -174611.0 / 330};
  double u = -log1p(-z), u2 = u * u, term = u, sum = u - 0.25 * u2;
  int i;
  for (i = 0; i < 10; i++) {
    double m = 2.0 * (i + 1);
    term *= u2 / (m * (m + 1)); /* u^(m+1) / (m+1)! */
    sum += bern[i] * term;
  }
  return sum;
}

/* Dilogarithm Li2(z) for real z <= 1. */
static double li2(double z) {
  static const double pi2_6 = 1.6449340668482264365;
  if (z < -1) {
    double l = log(-z);
    return -pi2_6 - 0.5 * l * l - li2_core(1 / z);
  }
  if (z > 0.5) {
    if (z == 1) return pi2_6;
    return pi2_6 - log(z) * log1p(-z) - li2_core(1 - z);
  }
  return li2_core(z);
}

/* Spence's function as Cephes defines it: Li2(1 - x), NaN for x < 0. */
static double spence(double x) {
  if (x != x || x < 0) return NAN;
  if (isinf(x)) return NAN; /* as Cephes: no limit at +inf */
  return li2(1 - x);
}

/* The float kernel's loop, in misc18_spence.c (vectorized). */
void tfe_spence_f32(const float* x, float* y, int64_t n);

typedef struct spence_job {
  const void* x;
  void* y;
  int is_float;
} spence_job;

static void spence_chunk(void* arg, int64_t begin, int64_t end) {
  const spence_job* j = (const spence_job*)arg;
  int64_t i;
  if (j->is_float) {
    tfe_spence_f32((const float*)j->x + begin, (float*)j->y + begin,
                   end - begin);
  } else {
    const double* x = (const double*)j->x;
    double* y = (double*)j->y;
    for (i = begin; i < end; i++) y[i] = spence(x[i]);
  }
}

static void k_spence(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  spence_job j;
  TF_Tensor* y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL) return;
  j.x = kutil_data(x);
  j.y = kutil_data(y);
  j.is_float = x->dtype == TF_FLOAT;
  tfe_parallel_for(tfe_kernel_threadpool(k), kutil_num_elements(x), 4096,
                   spence_chunk, &j);
}

/* ------------------------------------------------ UniqueV2 / WithCountsV2 */

/* Element equality with TF's value semantics (-0 == +0, NaN never equal). */
static int uq_elem_eq(const TF_Tensor* x, int64_t a, int64_t b, size_t esz) {
  const char* d = (const char*)kutil_data(x);
  switch (x->dtype) {
    case TF_STRING: {
      const TF_TString* s = (const TF_TString*)d;
      size_t la = TF_TString_GetSize(&s[a]), lb = TF_TString_GetSize(&s[b]);
      return la == lb && memcmp(TF_TString_GetDataPointer(&s[a]),
                                TF_TString_GetDataPointer(&s[b]), la) == 0;
    }
    case TF_FLOAT:
    case TF_DOUBLE:
    case TF_HALF:
    case TF_BFLOAT16:
      return nth_val(x, a) == nth_val(x, b);
    default:
      return memcmp(d + (size_t)a * esz, d + (size_t)b * esz, esz) == 0;
  }
}

static uint64_t uq_elem_hash(const TF_Tensor* x, int64_t i, size_t esz) {
  const unsigned char* p;
  size_t n, j;
  double v;
  uint64_t h = 1469598103934665603ull;
  if (x->dtype == TF_STRING) {
    const TF_TString* s = (const TF_TString*)kutil_data(x) + i;
    p = (const unsigned char*)TF_TString_GetDataPointer(s);
    n = TF_TString_GetSize(s);
  } else if (x->dtype == TF_FLOAT || x->dtype == TF_DOUBLE ||
             x->dtype == TF_HALF || x->dtype == TF_BFLOAT16) {
    v = nth_val(x, i);
    if (v == 0) v = 0; /* -0 and +0 hash alike */
    p = (const unsigned char*)&v;
    n = sizeof v;
  } else {
    p = (const unsigned char*)kutil_data(x) + (size_t)i * esz;
    n = esz;
  }
  for (j = 0; j < n; j++) {
    h ^= p[j];
    h *= 1099511628211ull;
  }
  return h;
}

/* x viewed as [outer, len, inner]: slices j along the middle dim. */
typedef struct uq_view {
  const TF_Tensor* x;
  int64_t outer, len, inner;
  size_t esz;
} uq_view;

static int uq_slice_eq(const uq_view* v, int64_t a, int64_t b) {
  int64_t o, i;
  for (o = 0; o < v->outer; o++)
    for (i = 0; i < v->inner; i++) {
      int64_t base = o * v->len * v->inner + i;
      if (!uq_elem_eq(v->x, base + a * v->inner, base + b * v->inner, v->esz))
        return 0;
    }
  return 1;
}

static uint64_t uq_slice_hash(const uq_view* v, int64_t a) {
  int64_t o, i;
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (o = 0; o < v->outer; o++)
    for (i = 0; i < v->inner; i++) {
      h ^= uq_elem_hash(v->x, o * v->len * v->inner + a * v->inner + i, v->esz);
      h *= 0x100000001b3ull;
      h ^= h >> 31;
    }
  return h;
}

static int64_t uq_int_slot(int64_t val, int64_t cap) {
  uint64_t h = (uint64_t)val * 0x9e3779b97f4a7c15ull;
  return (int64_t)((h ^ (h >> 29)) & (uint64_t)(cap - 1));
}

static void unique_v2(tfe_kernel_context* k, int with_counts) {
  const TF_Tensor *x = k->inputs[0], *at = k->inputs[1];
  TF_DataType it = k->output_types != NULL ? k->output_types[1] : TF_INT32;
  int64_t axis, cap, j, nu = 0, o, i, odims[TFE_MAX_DIMS];
  int64_t *table = NULL, *first = NULL, *idx = NULL, *counts = NULL;
  uq_view v;
  TF_Tensor *y, *yi, *yc;
  int nd = x->num_dims, fast;
  if (at->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "axis expects a 1D vector.");
    return;
  }
  if (at->dims[0] > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "axis does not support input tensors larger than 1 elements");
    return;
  }
  if (at->dims[0] == 0) {
    run_other_kernel(k, with_counts ? "UniqueWithCounts" : "Unique",
                     x->dtype);
    return;
  }
  axis = kutil_get_int(at, 0);
  if (axis < 0) axis += nd;
  if (axis < 0 || axis >= nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "axis has to be between [0, %d)", nd);
    return;
  }
  v.x = x;
  v.esz = kutil_esize(x->dtype);
  v.outer = kutil_dims_prod(x->dims, 0, (int)axis);
  v.len = x->dims[axis];
  v.inner = kutil_dims_prod(x->dims, (int)axis + 1, nd);
  for (cap = 16; cap < 2 * v.len; cap *= 2) {
  }
  table = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)cap);
  first = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(v.len + 1));
  idx = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(v.len + 1));
  counts = (int64_t*)tfe_calloc((size_t)(v.len + 1), sizeof(int64_t));
  if (table == NULL || first == NULL || idx == NULL || counts == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in UniqueV2");
    goto done;
  }
  fast = v.outer == 1 && v.inner == 1 &&
         (x->dtype == TF_INT32 || x->dtype == TF_INT64);
  for (j = 0; j < (fast && cap > 1024 ? 1024 : cap); j++) table[j] = -1;
  if (fast) {
    /* 1-D integers: hash and compare the values themselves in a table
     * that grows with the number of distinct values (the result only
     * depends on first occurrences, not on the hash or table size) */
    const int32_t* x32 = (const int32_t*)kutil_data(x);
    const int64_t* x64 = (const int64_t*)kutil_data(x);
    int is32 = x->dtype == TF_INT32;
    int64_t fcap = cap < 1024 ? cap : 1024;
    for (j = 0; j < v.len; j++) {
      int64_t val = is32 ? x32[j] : x64[j], slot;
      if (2 * (nu + 1) > fcap && fcap < cap) {
        int64_t u;
        fcap *= 2;
        for (u = 0; u < fcap; u++) table[u] = -1;
        for (u = 0; u < nu; u++) {
          int64_t w = is32 ? x32[first[u]] : x64[first[u]];
          slot = uq_int_slot(w, fcap);
          while (table[slot] >= 0) slot = (slot + 1) & (fcap - 1);
          table[slot] = u;
        }
      }
      slot = uq_int_slot(val, fcap);
      for (;;) {
        int64_t u = table[slot];
        if (u < 0) {
          table[slot] = nu;
          first[nu] = j;
          idx[j] = nu++;
          break;
        }
        if ((is32 ? x32[first[u]] : x64[first[u]]) == val) {
          idx[j] = u;
          break;
        }
        slot = (slot + 1) & (fcap - 1);
      }
      counts[idx[j]]++;
    }
  }
  for (j = 0; !fast && j < v.len; j++) {
    int64_t slot = (int64_t)(uq_slice_hash(&v, j) & (uint64_t)(cap - 1));
    for (;;) {
      int64_t u = table[slot];
      if (u < 0) {
        table[slot] = nu;
        first[nu] = j;
        idx[j] = nu++;
        break;
      }
      if (uq_slice_eq(&v, first[u], j)) {
        idx[j] = u;
        break;
      }
      slot = (slot + 1) & (cap - 1);
    }
    counts[idx[j]]++;
  }
  memcpy(odims, x->dims, sizeof(int64_t) * (size_t)nd);
  odims[axis] = nu;
  y = tfe_kernel_alloc_output(k, 0, x->dtype, odims, nd);
  if (y == NULL) goto done;
  yi = tfe_kernel_alloc_output(k, 1, it, &v.len, 1);
  if (yi == NULL) goto done;
  for (o = 0; o < v.outer; o++)
    for (j = 0; j < nu; j++)
      kutil_copy(x->dtype,
                 (char*)kutil_data(y) +
                     (size_t)((o * nu + j) * v.inner) * v.esz,
                 (const char*)kutil_data(x) +
                     (size_t)((o * v.len + first[j]) * v.inner) * v.esz,
                 v.inner);
  for (i = 0; i < v.len; i++) {
    if (it == TF_INT32)
      ((int32_t*)kutil_data(yi))[i] = (int32_t)idx[i];
    else
      ((int64_t*)kutil_data(yi))[i] = idx[i];
  }
  if (with_counts) {
    yc = tfe_kernel_alloc_output(k, 2, it, &nu, 1);
    if (yc == NULL) goto done;
    for (i = 0; i < nu; i++) {
      if (it == TF_INT32)
        ((int32_t*)kutil_data(yc))[i] = (int32_t)counts[i];
      else
        ((int64_t*)kutil_data(yc))[i] = counts[i];
    }
  }
done:
  tfe_free(table);
  tfe_free(first);
  tfe_free(idx);
  tfe_free(counts);
}

static void k_unique_v2(tfe_kernel_context* k) { unique_v2(k, 0); }
static void k_unique_with_counts_v2(tfe_kernel_context* k) {
  unique_v2(k, 1);
}

void tfe_register_cpu_misc18_kernels(void) {
  static const TF_DataType real[] = {KUTIL_REAL_TYPES};
  static const TF_DataType bias[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType all[] = {KUTIL_POD_TYPES, TF_STRING};
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  tfe_kutil_register_created("TopK", top_k_create, k_never, "T", real, KUTIL_COUNT(real),
                             NULL, NULL, 0);
  tfe_kutil_register_created("TileGrad", tile_grad_create, k_never, NULL, NULL, 0, NULL, NULL,
                             0);
  tfe_kutil_register("BiasAddV1", k_bias_add_v1, "T", bias, KUTIL_COUNT(bias),
                     NULL, NULL, 0);
  tfe_kutil_register("InplaceUpdate", k_inplace_update, "T", all,
                     KUTIL_COUNT(all), NULL, NULL, 0);
  tfe_kutil_register("InplaceAdd", k_inplace_add, "T", all, KUTIL_COUNT(all),
                     NULL, NULL, 0);
  tfe_kutil_register("InplaceSub", k_inplace_sub, "T", all, KUTIL_COUNT(all),
                     NULL, NULL, 0);
  tfe_kutil_register("DataFormatDimMap", k_data_format_dim_map, "T", idx, 2,
                     NULL, NULL, 0);
  tfe_kutil_register("DataFormatVecPermute", k_data_format_vec_permute, "T",
                     idx, 2, NULL, NULL, 0);
  {
    static const TF_DataType uq[] = {KUTIL_REAL_TYPES, TF_BOOL, TF_STRING};
    tfe_kutil_register("UniqueV2", k_unique_v2, "T", uq, KUTIL_COUNT(uq),
                       "out_idx", idx, 2);
    tfe_kutil_register("UniqueWithCountsV2", k_unique_with_counts_v2, "T", uq,
                       KUTIL_COUNT(uq), "out_idx", idx, 2);
  }
  {
    static const TF_DataType ss[] = {KUTIL_POD_TYPES, TF_STRING, TF_QINT8,
                                     TF_QUINT8, TF_QINT32, TF_FLOAT8_E4M3FN,
                                     TF_FLOAT8_E5M2};
    static const TF_DataType pc[] = {KUTIL_POD_TYPES, TF_STRING};
    tfe_kutil_register("StridedSliceGrad", k_strided_slice_grad, "T", ss,
                       KUTIL_COUNT(ss), "Index", idx, 2);
    static const TF_DataType mp[] = {KUTIL_NUMBER_TYPES};
    tfe_kutil_register("MirrorPadGrad", k_mirror_pad_grad, "T", mp,
                       KUTIL_COUNT(mp), "Tpaddings", idx, 2);
    tfe_kutil_register("ParallelConcat", k_parallel_concat, "T", pc,
                       KUTIL_COUNT(pc), NULL, NULL, 0);
  }
  {
    static const TF_DataType fd[] = {TF_FLOAT, TF_DOUBLE};
    tfe_kutil_register("Spence", k_spence, "T", fd, 2, NULL, NULL, 0);
  }
  tfe_kutil_register("NthElement", k_nth_element, "T", real,
                     KUTIL_COUNT(real), NULL, NULL, 0);
}
