/* Kernels whose output element comes from an input element chosen
 * independently per dimension: Pad, PadV2, MirrorPad, Tile, BroadcastTo.
 * Plus the shape-only BroadcastArgs and BroadcastGradientArgs.
 *
 * Each output dim d gets an index map (output index -> input index, or -1
 * for "constant"). The innermost map is turned into runs of consecutive
 * indices so rows are moved with block copies. */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"

typedef struct seg {
  int64_t out, src, len; /* src < 0: constant */
} seg;

/* y[...] = x[map0[i0], ..., mapk[ik]] or *cval when any map entry is -1.
 * x has the same rank as y (callers pad the rank with size-1 dims). */
static int map_copy(const TF_Tensor* x, const int64_t* xdims, TF_Tensor* y,
                    int64_t* const* maps, const void* cval) {
  int nd = y->num_dims, i;
  size_t esz = kutil_esize(y->dtype);
  TF_DataType dt = y->dtype;
  int64_t total = kutil_num_elements(y), inner, outer = 1, o, nseg = 0;
  int64_t in_stride[TFE_MAX_DIMS], idx[TFE_MAX_DIMS];
  const char* src = (const char*)kutil_data(x);
  char* dst = (char*)kutil_data(y);
  seg* segs;
  if (total == 0) return 1;
  if (nd == 0) {
    kutil_copy(dt, dst, src, 1);
    return 1;
  }
  in_stride[nd - 1] = 1;
  for (i = nd - 2; i >= 0; i--) in_stride[i] = in_stride[i + 1] * xdims[i + 1];
  inner = y->dims[nd - 1];
  for (i = 0; i < nd - 1; i++) outer *= y->dims[i];
  segs = (seg*)tfe_malloc(sizeof(seg) * (size_t)inner);
  if (segs == NULL) return 0;
  {
    const int64_t* m = maps[nd - 1];
    int64_t t = 0;
    while (t < inner) {
      int64_t start = t;
      if (m[t] < 0) {
        while (t < inner && m[t] < 0) t++;
        segs[nseg].src = -1;
      } else {
        t++;
        while (t < inner && m[t] == m[t - 1] + 1) t++;
        segs[nseg].src = m[start];
      }
      segs[nseg].out = start;
      segs[nseg].len = t - start;
      nseg++;
    }
  }
  for (i = 0; i < nd; i++) idx[i] = 0;
  for (o = 0; o < outer; o++) {
    char* row = dst + (size_t)(o * inner) * esz;
    int64_t off = 0, s;
    int is_const = 0;
    for (i = 0; i < nd - 1; i++) {
      int64_t m = maps[i][idx[i]];
      if (m < 0) {
        is_const = 1;
        break;
      }
      off += m * in_stride[i];
    }
    if (is_const) {
      for (s = 0; s < inner; s++) kutil_copy1(dt, esz, row + (size_t)s * esz, (const char*)cval);
    } else {
      for (s = 0; s < nseg; s++) {
        char* d = row + (size_t)segs[s].out * esz;
        if (segs[s].src < 0) {
          int64_t t;
          for (t = 0; t < segs[s].len; t++) {
            kutil_copy1(dt, esz, d + (size_t)t * esz, (const char*)cval);
          }
        } else {
          kutil_copy(dt, d, src + (size_t)(off + segs[s].src) * esz,
                     segs[s].len);
        }
      }
    }
    for (i = nd - 2; i >= 0; i--) {
      if (++idx[i] < y->dims[i]) break;
      idx[i] = 0;
    }
  }
  tfe_free(segs);
  return 1;
}

/* Allocates maps for dims of y (one array per dim). */
static int64_t** alloc_maps(const int64_t* dims, int nd) {
  int64_t total = 0;
  int i;
  int64_t** maps;
  char* mem;
  for (i = 0; i < nd; i++) total += dims[i];
  mem = (char*)tfe_malloc(sizeof(int64_t*) * (size_t)(nd + 1) +
                          sizeof(int64_t) * (size_t)(total + 1));
  if (mem == NULL) return NULL;
  maps = (int64_t**)mem;
  {
    int64_t* p = (int64_t*)(mem + sizeof(int64_t*) * (size_t)(nd + 1));
    for (i = 0; i < nd; i++) {
      maps[i] = p;
      p += dims[i];
    }
  }
  return maps;
}

/* ------------------------------------------------ Pad, PadV2, MirrorPad */

/* mode: 0 constant, 1 REFLECT, 2 SYMMETRIC */
static void pad_common(tfe_kernel_context* k, int mode, const void* cval) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* p = k->inputs[1];
  kutil_shape_buf sa, sb;
  int nd = x->num_dims, i;
  int64_t odims[TFE_MAX_DIMS], before[TFE_MAX_DIMS];
  int64_t** maps;
  TF_Tensor* y;
  if (!(p->num_dims == 2 && p->dims[1] == 2)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "paddings must be a matrix with 2 columns: %s",
               kutil_tshape(p, &sa));
    return;
  }
  if (p->dims[0] != nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The first dimension of paddings must be the rank of inputs%s, "
               "%s",
               kutil_tshape(p, &sa), kutil_tshape(x, &sb));
    return;
  }
  for (i = 0; i < nd; i++) {
    int64_t b = kutil_get_int(p, 2 * i), a = kutil_get_int(p, 2 * i + 1);
    int64_t n = x->dims[i];
    if (mode == 0) {
      if (b < 0 || a < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Paddings must be non-negative: %lld %lld", (long long)b,
                   (long long)a);
        return;
      }
    } else {
      if (b < 0 || a < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "paddings must be non-negative: %lld %lld", (long long)b,
                   (long long)a);
        return;
      }
      if (mode == 2 && (b > n || a > n)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "paddings must be no greater than the dimension size: "
                   "%lld, %lld greater than %lld",
                   (long long)b, (long long)a, (long long)n);
        return;
      }
      if (mode == 1 && (b >= n || a >= n)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "paddings must be less than the dimension size: %lld, %lld "
                   "not less than %lld",
                   (long long)b, (long long)a, (long long)n);
        return;
      }
    }
    before[i] = b;
    odims[i] = n + b + a;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, odims, nd);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  maps = alloc_maps(odims, nd);
  if (maps == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in padding");
    return;
  }
  for (i = 0; i < nd; i++) {
    int64_t o, n = x->dims[i];
    for (o = 0; o < odims[i]; o++) {
      int64_t s = o - before[i];
      if (mode == 0) {
        if (s < 0 || s >= n) s = -1;
      } else if (mode == 1) {
        if (s < 0) s = -s;
        if (s >= n) s = 2 * n - 2 - s;
      } else {
        if (s < 0) s = -s - 1;
        if (s >= n) s = 2 * n - 1 - s;
      }
      maps[i][o] = s;
    }
  }
  if (!map_copy(x, x->dims, y, maps, cval)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in padding");
  }
  tfe_free(maps);
}

static void k_pad(tfe_kernel_context* k) {
  unsigned char zero[16];
  memset(zero, 0, sizeof zero);
  if (k->inputs[0]->dtype == TF_STRING) {
    TF_TString empty;
    TF_TString_Init(&empty);
    pad_common(k, 0, &empty);
    return;
  }
  pad_common(k, 0, zero);
}

static void k_pad_v2(tfe_kernel_context* k) {
  const TF_Tensor* c = k->inputs[2];
  kutil_shape_buf sa;
  if (c->num_dims != 0 && kutil_num_elements(c) != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "constant_values must be a scalar. Got: %s",
               kutil_tshape(c, &sa));
    return;
  }
  pad_common(k, 0, kutil_data(c));
}

static void k_mirror_pad(tfe_kernel_context* k) {
  const char* mode = NULL;
  size_t len = 0;
  if (k->attrs != NULL) {
    tfe_attrs_get_string(k->attrs, "mode", &mode, &len, NULL);
  }
  if (mode != NULL && len == 7 && memcmp(mode, "REFLECT", 7) == 0) {
    pad_common(k, 1, NULL);
  } else if (mode != NULL && len == 9 && memcmp(mode, "SYMMETRIC", 9) == 0) {
    pad_common(k, 2, NULL);
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "mode must be either REFLECT or SYMMETRIC.");
  }
}

/* ---------------------------------------------------------------- Tile */

static void k_tile(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* m = k->inputs[1];
  kutil_shape_buf sa;
  int nd = x->num_dims, i;
  int64_t odims[TFE_MAX_DIMS];
  int64_t** maps;
  TF_Tensor* y;
  if (m->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected multiples argument to be a vector of length %d but "
               "got shape %s",
               nd, kutil_tshape(m, &sa));
    return;
  }
  if (m->dims[0] != nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected multiples argument to be a vector of length %d but "
               "got length %lld",
               nd, (long long)m->dims[0]);
    return;
  }
  for (i = 0; i < nd; i++) {
    int64_t r = kutil_get_int(m, i);
    if (r < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected multiples[%d] >= 0, but got %lld", i, (long long)r);
      return;
    }
    if (!tfe_checked_mul_i64(x->dims[i], r, &odims[i])) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Encountered overflow when multiplying %lld with %lld",
                 (long long)x->dims[i], (long long)r);
      return;
    }
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, odims, nd);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  maps = alloc_maps(odims, nd);
  if (maps == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in Tile");
    return;
  }
  for (i = 0; i < nd; i++) {
    int64_t o;
    for (o = 0; o < odims[i]; o++) maps[i][o] = o % x->dims[i];
  }
  if (!map_copy(x, x->dims, y, maps, NULL)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in Tile");
  }
  tfe_free(maps);
}

/* ---------------------------------------------------------- BroadcastTo */

static void k_broadcast_to(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* st = k->inputs[1];
  kutil_shape_buf sa;
  char ob[512];
  int nd, xr = x->num_dims, i;
  int64_t odims[TFE_MAX_DIMS], xdims[TFE_MAX_DIMS];
  int64_t** maps;
  TF_Tensor* y;
  if (st->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape must be a vector, got %s",
               kutil_tshape(st, &sa));
    return;
  }
  nd = (int)st->dims[0];
  if (nd > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "BroadcastTo: too many dimensions");
    return;
  }
  for (i = 0; i < nd; i++) {
    odims[i] = kutil_get_int(st, i);
    if (odims[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                 (long long)odims[i]);
      return;
    }
  }
  kutil_shape_str(odims, nd, ob, sizeof ob);
  if (xr > nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Rank of input (%d) must be no greater than rank of output "
               "shape (%d).",
               xr, nd);
    return;
  }
  for (i = 0; i < nd; i++) {
    int xi = i - (nd - xr);
    xdims[i] = xi >= 0 ? x->dims[xi] : 1;
    if (xdims[i] != odims[i] && xdims[i] != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Unable to broadcast tensor of shape %s to tensor of shape %s",
                 kutil_tshape(x, &sa), ob);
      return;
    }
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, odims, nd);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  maps = alloc_maps(odims, nd);
  if (maps == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in BroadcastTo");
    return;
  }
  for (i = 0; i < nd; i++) {
    int64_t o;
    for (o = 0; o < odims[i]; o++) maps[i][o] = xdims[i] == 1 ? 0 : o;
  }
  if (!map_copy(x, xdims, y, maps, NULL)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in BroadcastTo");
  }
  tfe_free(maps);
}

/* ------------------------------------ BroadcastArgs, BroadcastGradientArgs */

/* Broadcast shape of two shape vectors; 0 with status set when they are
 * incompatible. */
static int bcast_shapes(tfe_kernel_context* k, const TF_Tensor* a,
                        const TF_Tensor* b, int64_t* out, int* nout) {
  int64_t na, nb, n, i;
  kutil_shape_buf sa, sb;
  /* TF names the first operand that is not a vector, then its shape */
  if (a->num_dims != 1 || b->num_dims != 1) {
    int first = a->num_dims != 1 ? 0 : 1;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "In[%d] must be a vector.%s", first,
               first == 0 ? kutil_tshape(a, &sa) : kutil_tshape(b, &sb));
    return 0;
  }
  na = a->dims[0];
  nb = b->dims[0];
  n = na > nb ? na : nb;
  if (n > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many dimensions: %lld",
               (long long)n);
    return 0;
  }
  for (i = 0; i < n; i++) {
    int64_t ia = i - (n - na), ib = i - (n - nb);
    int64_t da = ia >= 0 ? kutil_get_int(a, ia) : 1;
    int64_t db = ib >= 0 ? kutil_get_int(b, ib) : 1;
    if (da != db && da != 1 && db != 1) {
      char s1[512], s2[512];
      int64_t tmp[TFE_MAX_DIMS], j;
      for (j = 0; j < na; j++) tmp[j] = kutil_get_int(a, j);
      kutil_shape_str(tmp, (int)na, s1, sizeof s1);
      for (j = 0; j < nb; j++) tmp[j] = kutil_get_int(b, j);
      kutil_shape_str(tmp, (int)nb, s2, sizeof s2);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s", s1,
                 s2);
      return 0;
    }
    out[i] = da == 1 ? db : da;
  }
  *nout = (int)n;
  return 1;
}

static void put_int(TF_Tensor* t, int64_t i, int64_t v) {
  if (t->dtype == TF_INT32) {
    ((int32_t*)kutil_data(t))[i] = (int32_t)v;
  } else {
    ((int64_t*)kutil_data(t))[i] = v;
  }
}

static void k_broadcast_args(tfe_kernel_context* k) {
  int64_t out[TFE_MAX_DIMS], n64;
  int n, i;
  TF_Tensor* y;
  if (!bcast_shapes(k, k->inputs[0], k->inputs[1], out, &n)) return;
  n64 = n;
  y = tfe_kernel_alloc_output(k, 0, k->inputs[0]->dtype, &n64, 1);
  if (y == NULL) return;
  for (i = 0; i < n; i++) put_int(y, i, out[i]);
}

static void k_broadcast_gradient_args(tfe_kernel_context* k) {
  const TF_Tensor* a = k->inputs[0];
  const TF_Tensor* b = k->inputs[1];
  int64_t out[TFE_MAX_DIMS], ra[TFE_MAX_DIMS], rb[TFE_MAX_DIMS], cnt;
  int n, i, na = 0, nb = 0, same;
  TF_Tensor *y0, *y1;
  if (!bcast_shapes(k, a, b, out, &n)) return;
  /* identical shapes reduce nothing (TF's fast path), even where a dim is 1 */
  same = a->dims[0] == b->dims[0];
  for (i = 0; same && i < a->dims[0]; i++)
    same = kutil_get_int(a, i) == kutil_get_int(b, i);
  for (i = 0; !same && i < n; i++) {
    int64_t ia = i - (n - a->dims[0]), ib = i - (n - b->dims[0]);
    int64_t da = ia >= 0 ? kutil_get_int(a, ia) : 1;
    int64_t db = ib >= 0 ? kutil_get_int(b, ib) : 1;
    if (da == 1 && db == 1) {
      /* every operand is 1 here: both reduce */
      ra[na++] = i;
      rb[nb++] = i;
    } else {
      if (da == 1) ra[na++] = i;
      if (db == 1) rb[nb++] = i;
    }
  }
  cnt = na;
  y0 = tfe_kernel_alloc_output(k, 0, a->dtype, &cnt, 1);
  if (y0 == NULL) return;
  cnt = nb;
  y1 = tfe_kernel_alloc_output(k, 1, a->dtype, &cnt, 1);
  if (y1 == NULL) return;
  for (i = 0; i < na; i++) put_int(y0, i, ra[i]);
  for (i = 0; i < nb; i++) put_int(y1, i, rb[i]);
}

void tfe_register_array_pad_kernels(void) {
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType all[] = {KUTIL_POD_TYPES, TF_STRING,
                                    KUTIL_QUANTIZED_TYPES};
  static const TF_DataType pod[] = {KUTIL_POD_TYPES, TF_STRING};
  static const TF_DataType mirror[] = {KUTIL_POD_TYPES, TF_STRING, TF_QINT8,
                                       TF_QUINT8, TF_QINT32};
  static const TF_DataType bcast[] = {KUTIL_POD_TYPES, TF_STRING,
                                      TF_FLOAT8_E4M3FN, TF_FLOAT8_E5M2};
  tfe_kutil_register("Pad", k_pad, "T", all, KUTIL_COUNT(all), "Tpaddings",
                     idx, 2);
  tfe_kutil_register("PadV2", k_pad_v2, "T", all, KUTIL_COUNT(all),
                     "Tpaddings", idx, 2);
  tfe_kutil_register("MirrorPad", k_mirror_pad, "T", mirror,
                     KUTIL_COUNT(mirror), "Tpaddings", idx, 2);
  tfe_kutil_register("Tile", k_tile, "T", pod, KUTIL_COUNT(pod), "Tmultiples",
                     idx, 2);
  tfe_kutil_register("BroadcastTo", k_broadcast_to, "T", bcast,
                     KUTIL_COUNT(bcast), "Tidx", idx, 2);
  tfe_kutil_register("BroadcastArgs", k_broadcast_args, "T", idx, 2, NULL,
                     NULL, 0);
  tfe_kutil_register("BroadcastGradientArgs", k_broadcast_gradient_args, "T",
                     idx, 2, NULL, NULL, 0);
}
