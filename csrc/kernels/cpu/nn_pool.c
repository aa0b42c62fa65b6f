/* Pooling CPU kernels (NHWC): MaxPool (SAME/VALID/EXPLICIT), MaxPoolV2
 * (SAME/VALID; ksize and strides come from two int32 tensors) and AvgPool
 * (SAME/VALID). Padded positions never count: the max is over the real
 * elements of a window and the average divides by their number, as in
 * TensorFlow. The spatial max behaves like TF's CPU kernel: each output
 * starts at the lowest finite value of the dtype and an element replaces
 * it only when strictly greater, so NaNs never win and a window of only
 * NaNs and -inf yields that lowest value. MaxPool also pools across
 * channels (see depth_max_pool).
 * Values are processed in double (exact for every registered
 * dtype up to 2^53); rows of the output run on the intra-op pool. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/threadpool.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_common.h"

void tfe_register_nn_pool_kernels(void);

typedef struct pool_job {
  int is_max;
  double lowest; /* starting value of a max window */
  int64_t n, ih, iw, c, oh, ow;
  int64_t kh, kw, sh, sw, pt, pl;
  const double* x;
  double* y;
} pool_job;

static void pool_rows(void* arg, int64_t r0, int64_t r1) {
  const pool_job* j = (const pool_job*)arg;
  int64_t r;
  for (r = r0; r < r1; r++) {
    int64_t b = r / j->oh, oy = r % j->oh, ox, c;
    int64_t y0 = oy * j->sh - j->pt, y1 = y0 + j->kh;
    if (y0 < 0) y0 = 0;
    if (y1 > j->ih) y1 = j->ih;
    for (ox = 0; ox < j->ow; ox++) {
      int64_t x0 = ox * j->sw - j->pl, x1 = x0 + j->kw, yy, xx;
      double* out = j->y + ((b * j->oh + oy) * j->ow + ox) * j->c;
      if (x0 < 0) x0 = 0;
      if (x1 > j->iw) x1 = j->iw;
      for (c = 0; c < j->c; c++) out[c] = j->is_max ? j->lowest : 0.0;
      for (yy = y0; yy < y1; yy++) {
        for (xx = x0; xx < x1; xx++) {
          const double* in = j->x + ((b * j->ih + yy) * j->iw + xx) * j->c;
          if (j->is_max) {
            for (c = 0; c < j->c; c++) {
              if (in[c] > out[c]) out[c] = in[c];
            }
          } else {
            for (c = 0; c < j->c; c++) out[c] += in[c];
          }
        }
      }
      if (!j->is_max) {
        double cnt = (double)((y1 - y0) * (x1 - x0));
        for (c = 0; c < j->c; c++) out[c] = cnt > 0 ? out[c] / cnt : 0.0;
      }
    }
  }
}

/* Max over groups of w consecutive channels; the spatial strides and the
 * padding mode play no part (TF ignores them here). TF reduces each group
 * with Eigen's vectorized max (AVX packets: P = 4 lanes for double, 8 for
 * float, half and bfloat16), whose order of comparisons decides which
 * value wins when NaNs are present; it is reproduced here:
 *  - the combining step keeps the running value a unless a < b (so a NaN
 *    held stays, and a NaN met later is skipped);
 *  - a group is cut into packets of P lanes starting at its first element
 *    whose offset in the tensor is a multiple of P (TF's buffers are
 *    aligned to a whole packet); with at least one whole packet: two
 *    lane-wise accumulators over alternating packets (plus one trailing
 *    packet), merged, the lanes folded in halves (lane i with lane
 *    i + P/2, and so on), then the elements before the first packet and
 *    after the last are folded in order;
 *  - a group with no whole packet is folded left to right.
 * For integers every order gives the same result. */
static double dmax(double a, double b) { return a < b ? b : a; }

static double group_max(const double* v, int64_t n, int64_t off, int P) {
  int64_t s = (P - off % P) % P, a1, a2, i;
  double p0[8], p1[8], r;
  int l, h;
  if (s > n) s = n;
  a1 = ((n - s) / P) * P;
  a2 = ((n - s) / (2 * P)) * (2 * P);
  if (a1 == 0) {
    r = v[0];
    for (i = 1; i < n; i++) r = dmax(r, v[i]);
    return r;
  }
  for (l = 0; l < P; l++) p0[l] = v[s + l];
  if (a1 > P) {
    for (l = 0; l < P; l++) p1[l] = v[s + P + l];
    for (i = s + 2 * P; i < s + a2; i += 2 * P) {
      for (l = 0; l < P; l++) {
        p0[l] = dmax(p0[l], v[i + l]);
        p1[l] = dmax(p1[l], v[i + P + l]);
      }
    }
    for (l = 0; l < P; l++) p0[l] = dmax(p0[l], p1[l]);
    if (a1 > a2) {
      for (l = 0; l < P; l++) p0[l] = dmax(p0[l], v[s + a2 + l]);
    }
  }
  for (h = P / 2; h >= 1; h /= 2) {
    for (l = 0; l < h; l++) p0[l] = dmax(p0[l], p0[l + h]);
  }
  r = p0[0];
  for (i = 0; i < s; i++) r = dmax(r, v[i]);
  for (i = s + a1; i < n; i++) r = dmax(r, v[i]);
  return r;
}

static void depth_max_pool(tfe_kernel_context* k, const TF_Tensor* in,
                           int64_t w) {
  int64_t od[4], groups, g;
  int owned = 0, P = in->dtype == TF_DOUBLE ? 4 : 8;
  const double* x;
  double* y;
  TF_Tensor* out;
  od[0] = in->dims[0];
  od[1] = in->dims[1];
  od[2] = in->dims[2];
  od[3] = in->dims[3] / w;
  out = tfe_kernel_alloc_output(k, 0, in->dtype, od, 4);
  if (out == NULL) return;
  groups = kutil_num_elements(out);
  if (groups == 0) return;
  x = (const double*)nn_to_work(in, 1, &owned);
  y = (double*)tfe_malloc((size_t)groups * sizeof(double));
  if (x == NULL || y == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in MaxPool");
  } else {
    for (g = 0; g < groups; g++) y[g] = group_max(x + g * w, w, g * w, P);
    nn_from_work(out, y, 1, groups);
  }
  if (owned) tfe_free((void*)x);
  tfe_free(y);
}

static const char* str_attr(const tfe_kernel_context* k, const char* name,
                            const char* dflt) {
  const char* s = NULL;
  size_t len = 0;
  if (k->attrs == NULL || !tfe_attrs_get_string(k->attrs, name, &s, &len,
                                                NULL)) {
    return dflt;
  }
  return s;
}

/* Lowest finite value of each dtype MaxPool accepts, in the work type. */
static double dtype_lowest(TF_DataType dt) {
  switch (dt) {
    case TF_HALF: return -65504.0;
    case TF_BFLOAT16: return -3.3895313892515355e38;
    case TF_FLOAT: return -3.4028234663852886e38;
    case TF_DOUBLE: return -1.7976931348623157e308;
    case TF_INT8: return -128.0;
    case TF_INT16: return -32768.0;
    case TF_INT32: return -2147483648.0;
    case TF_INT64: return -9223372036854775808.0;
    default: return 0.0; /* unsigned types */
  }
}

typedef enum pool_kind { POOL_MAX, POOL_MAX_V2, POOL_AVG } pool_kind;

/* The checks TF makes before its PoolParameters (which the op's
 * constructor does, each op in its own order and words); 0 after failing. */
static int front_checks(tfe_kernel_context* k, pool_kind kind,
                        const int64_t* ks, int nks, const int64_t* st,
                        int nst) {
  int i;
  if (nks != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window ksize field must specify 4 dimensions");
    return 0;
  }
  if (kind != POOL_AVG && (ks[0] <= 0 || ks[1] <= 0 || ks[2] <= 0 ||
                           ks[3] <= 0)) {
    if (kind == POOL_MAX_V2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Sliding window ksize must be positive.");
    } else {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Sliding window ksize must be positive. The specified or "
                 "inferred ksize is: %lld,%lld,%lld,%lld",
                 (long long)ks[0], (long long)ks[1], (long long)ks[2],
                 (long long)ks[3]);
    }
    return 0;
  }
  if (nst != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window stride field must specify 4 dimensions");
    return 0;
  }
  if (ks[0] != 1 || st[0] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Pooling is not yet supported on the batch dimension.");
    return 0;
  }
  if (kind == POOL_AVG) {
    for (i = 0; i < 4; i++) {
      if (ks[i] <= 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "ksize must be a positive int32 value, got:%lld",
                   (long long)ks[i]);
        return 0;
      }
    }
  }
  return 1;
}

/* TF's PoolParameters checks in its order (explicit padding only reaches
 * here for MaxPool), then the pooling itself. fmt_code is the number TF
 * prints for the data format (NHWC 0, NCHW_VECT_C 2). */
static void pool_run(tfe_kernel_context* k, pool_kind kind, const int64_t* ks,
                     const int64_t* st, nn_padding padding, const int64_t* ep,
                     int fmt_code) {
  const TF_Tensor* in = k->inputs[0];
  int is_max = kind != POOL_AVG, owned = 0, i, ri;
  pool_job j;
  int64_t od[4];
  TF_Tensor* out;
  double* yw = NULL;
  if (in->num_dims != 4 || fmt_code != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "tensor_in_shape must have 2 spatial dimensions. %d %d",
               in->num_dims, fmt_code);
    return;
  }
  if (ks[3] != 1 && (ks[1] != 1 || ks[2] != 1)) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "MaxPooling supports exactly one of pooling across depth or "
               "pooling across width/height.");
    return;
  }
  if (padding == NN_PAD_EXPLICIT) {
    static const char* const kSide[4] = {"Top", "Bottom", "Left", "Right"};
    if (ep[0] || ep[1] || ep[6] || ep[7]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Nonzero explicit padding in the batch or depth dimensions "
                 "is not supported");
      return;
    }
    for (i = 0; i < 4; i++) {
      int64_t win = ks[1 + i / 2];
      if (ep[2 + i] >= win) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "%s padding %lld needs to be smaller than the window size "
                   "%lld",
                   kSide[i], (long long)ep[2 + i], (long long)win);
        return;
      }
    }
  }
  memset(&j, 0, sizeof j);
  j.is_max = is_max;
  j.lowest = dtype_lowest(in->dtype);
  /* TF's default CPU build runs bfloat16 MaxPool through oneDNN, which
   * starts from float's lowest value: rounded to bfloat16 that is -inf.
   * MaxPoolV2 always runs TF's own kernel. */
  if (kind == POOL_MAX && in->dtype == TF_BFLOAT16) j.lowest = -INFINITY;
  j.n = in->dims[0];
  j.ih = in->dims[1];
  j.iw = in->dims[2];
  j.c = in->dims[3];
  j.kh = ks[1];
  j.kw = ks[2];
  j.sh = st[1];
  j.sw = st[2];
  /* Rows first, then columns, each: stride, then output size. */
  for (ri = 1; ri <= 2; ri++) {
    int64_t extent = ri == 1 ? j.ih : j.iw;
    int64_t before = padding == NN_PAD_EXPLICIT ? ep[2 * ri] : 0;
    int64_t after = padding == NN_PAD_EXPLICIT ? ep[2 * ri + 1] : 0;
    if (st[ri] <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Stride must be > 0, but got %lld",
                 (long long)st[ri]);
      return;
    }
    if (!nn_out_size(k, extent, ks[ri], 1, st[ri], padding, before, after,
                     ri == 1 ? &j.oh : &j.ow, ri == 1 ? &j.pt : &j.pl)) {
      return;
    }
  }
  /* Pooling across channels: only MaxPool implements it, with the window
   * equal to the stride and dividing the depth, and without explicit
   * padding. A depth stride with a depth window of 1 is ignored, as in
   * TF. */
  if (ks[3] > 1) {
    if (in->dims[3] % ks[3] != 0) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "Depthwise max pooling requires the depth window to evenly "
                 "divide the input depth");
      return;
    }
    if (ks[3] != st[3]) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "Depthwise max pooling requires the depth window to equal "
                 "the depth stride");
      return;
    }
    if (!is_max) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "Non-spatial pooling is not yet supported. Volunteers? :)");
      return;
    }
    if (padding == NN_PAD_EXPLICIT) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "Depthwise max pooling does not support explicit padding.");
      return;
    }
    depth_max_pool(k, in, ks[3]);
    return;
  }
  od[0] = j.n;
  od[1] = j.oh;
  od[2] = j.ow;
  od[3] = j.c;
  out = tfe_kernel_alloc_output(k, 0, in->dtype, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  j.x = (const double*)nn_to_work(in, 1, &owned);
  yw = (double*)tfe_malloc((size_t)kutil_num_elements(out) * sizeof(double));
  if (j.x == NULL || yw == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               is_max ? "MaxPool" : "AvgPool");
    goto done;
  }
  j.y = yw;
  tfe_parallel_for(tfe_kernel_threadpool(k), j.n * j.oh,
                   1 + 32768 / (1 + j.ow * j.c * j.kh * j.kw), pool_rows, &j);
  nn_from_work(out, yw, 1, kutil_num_elements(out));
done:
  if (owned) tfe_free((void*)j.x);
  tfe_free(yw);
}

/* MaxPool and AvgPool: window and strides from attrs. */
static void pool_compute(tfe_kernel_context* k, int is_max) {
  const char* opname = is_max ? "MaxPooling" : "AvgPooling";
  const int64_t *ks = NULL, *st = NULL, *ep = NULL;
  int nks = 0, nst = 0, nep = 0, i;
  const char* fmt = str_attr(k, "data_format", "NHWC");
  const char* pad = str_attr(k, "padding", "VALID");
  nn_padding padding = strcmp(pad, "SAME") == 0       ? NN_PAD_SAME
                       : strcmp(pad, "EXPLICIT") == 0 ? NN_PAD_EXPLICIT
                                                      : NN_PAD_VALID;
  if (k->attrs != NULL) {
    tfe_attrs_get_int_list(k->attrs, "explicit_paddings", &ep, &nep, NULL);
  }
  if (strcmp(fmt, "NHWC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Default %sOp only supports NHWC on device type CPU", opname);
    return;
  }
  /* int32 lists in TF */
  if (!kutil_attr_int32_list(k, "ksize", &ks, &nks) ||
      !kutil_attr_int32_list(k, "strides", &st, &nst)) {
    return;
  }
  if (!front_checks(k, is_max ? POOL_MAX : POOL_AVG, ks, nks, st, nst)) {
    return;
  }
  /* TF reads explicit_paddings only under EXPLICIT padding (a list given
   * with SAME or VALID is ignored). */
  if (padding == NN_PAD_EXPLICIT) {
    if (nep != 8) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "explicit_paddings attribute must contain 8 values, but "
                 "got: %d",
                 nep);
      return;
    }
    for (i = 0; i < 8; i++) {
      if (ep[i] < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "All elements of explicit_paddings must be nonnegative");
        return;
      }
    }
  }
  pool_run(k, is_max ? POOL_MAX : POOL_AVG, ks, st, padding, ep, 0);
}

/* Copies a MaxPoolV2 size input (any shape; TF reads its elements in
 * order) into v; returns its element count, or -1 when it exceeds cap. */
static int read_sizes(const TF_Tensor* t, int64_t* v, int cap) {
  int64_t n = kutil_num_elements(t), i;
  if (n > cap) return -1;
  for (i = 0; i < n; i++) v[i] = ((const int32_t*)kutil_data(t))[i];
  return (int)n;
}

/* MaxPoolV2: MaxPool with ksize and strides taken from inputs 1 and 2
 * (int32, read element by element whatever their shape), SAME or VALID
 * padding, and the data formats TF's MaxPoolingV2Op accepts. */
static void max_pool_v2_compute(tfe_kernel_context* k) {
  const char* fmt = str_attr(k, "data_format", "NHWC");
  const char* pad = str_attr(k, "padding", "VALID");
  int64_t ks[4], st[4];
  int nks, nst, fmt_code;
  if (strcmp(fmt, "NHWC") == 0) {
    fmt_code = 0;
  } else if (strcmp(fmt, "NCHW_VECT_C") == 0) {
    fmt_code = 2;
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "MaxPoolingV2Op only supports NHWC or NCHW_VECT_C. Got: %s",
               fmt);
    return;
  }
  nks = read_sizes(k->inputs[1], ks, 4);
  nst = read_sizes(k->inputs[2], st, 4);
  if (!front_checks(k, POOL_MAX_V2, ks, nks, st, nst)) return;
  if (fmt_code == 2 && k->inputs[0]->num_dims == 5) {
    /* TF's CPU kernel has no NCHW_VECT_C layout (it is meant for qint8
     * on GPU, which tfe does not register). */
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "MaxPoolV2 with data_format NCHW_VECT_C is not supported on "
               "CPU");
    return;
  }
  pool_run(k, POOL_MAX_V2, ks, st,
           strcmp(pad, "SAME") == 0 ? NN_PAD_SAME : NN_PAD_VALID, NULL,
           fmt_code);
}

static void max_pool_compute(tfe_kernel_context* k) { pool_compute(k, 1); }
static void avg_pool_compute(tfe_kernel_context* k) { pool_compute(k, 0); }

void tfe_register_nn_pool_kernels(void) {
  static const TF_DataType kMax[] = {TF_HALF,  TF_BFLOAT16, TF_FLOAT,
                                     TF_DOUBLE, TF_INT32,   TF_INT64,
                                     TF_UINT8, TF_INT16,    TF_INT8,
                                     TF_UINT16};
  static const TF_DataType kAvg[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT,
                                     TF_DOUBLE};
  tfe_kutil_register("MaxPool", max_pool_compute, "T", kMax,
                     KUTIL_COUNT(kMax), NULL, NULL, 0);
  tfe_kutil_register("MaxPoolV2", max_pool_v2_compute, "T", kMax,
                     KUTIL_COUNT(kMax), NULL, NULL, 0);
  tfe_kutil_register("AvgPool", avg_pool_compute, "T", kAvg,
                     KUTIL_COUNT(kAvg), NULL, NULL, 0);
}
