/* Neural-network gradient kernels added from TF 2.21's CPU registrations:
 * BiasAddGrad, MaxPoolGrad, MaxPoolGradV2, AvgPoolGrad, InTopK, InTopKV2,
 * MaxPoolWithArgmax, LRN, LRNGrad, ResizeBilinearGrad and
 * ResizeNearestNeighborGrad (NHWC only, as TF's CPU kernels).
 *
 * MaxPoolGrad picks, for every output position, the input element TF's CPU
 * kernel picks: the first real element of the window in row-major order is
 * taken unconditionally, and a later element replaces it only when strictly
 * greater. So a NaN in the first place keeps the gradient, a NaN anywhere
 * else never gets it, and ties go to the earliest element. orig_output only
 * has its shape checked (TF recomputes the maxima from orig_input). The
 * gradient is accumulated in the tensor's own dtype, output by output, as
 * TF does (integers wrap; half and bfloat16 round after every addition). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_common.h"

void tfe_register_nnlinalg_nn_kernels(void);

/* ---- element helpers ---- */

/* Element i of an integer buffer of dtype dt, widened (unsigned 64-bit
 * values keep their bits). */
static int64_t nl_get_int(TF_DataType dt, const void* d, int64_t i) {
  switch (dt) {
    case TF_INT32: return ((const int32_t*)d)[i];
    case TF_INT64: return ((const int64_t*)d)[i];
    case TF_INT16: return ((const int16_t*)d)[i];
    case TF_INT8: return ((const int8_t*)d)[i];
    case TF_UINT8: return ((const uint8_t*)d)[i];
    case TF_UINT16: return ((const uint16_t*)d)[i];
    case TF_UINT32: return ((const uint32_t*)d)[i];
    case TF_UINT64: return (int64_t)((const uint64_t*)d)[i];
    default: return 0;
  }
}

/* Stores a floating value (rounded to the dtype). */
static void nl_store_double(TF_DataType dt, void* d, int64_t i, double v) {
  switch (dt) {
    case TF_FLOAT: ((float*)d)[i] = (float)v; break;
    case TF_DOUBLE: ((double*)d)[i] = v; break;
    case TF_HALF: ((uint16_t*)d)[i] = kutil_f32_to_f16((float)v); break;
    case TF_BFLOAT16: ((uint16_t*)d)[i] = kutil_f32_to_bf16((float)v); break;
    default: break;
  }
}

/* Stores the low bits of v (integer dtypes wrap). */
static void nl_store_wrapped(TF_DataType dt, void* d, int64_t i,
                                uint64_t v) {
  switch (dt) {
    case TF_INT8: case TF_UINT8: ((uint8_t*)d)[i] = (uint8_t)v; break;
    case TF_INT16: case TF_UINT16: ((uint16_t*)d)[i] = (uint16_t)v; break;
    case TF_INT32: case TF_UINT32: ((uint32_t*)d)[i] = (uint32_t)v; break;
    case TF_INT64: case TF_UINT64: ((uint64_t*)d)[i] = v; break;
    default: break;
  }
}

static double ld(TF_DataType dt, const void* p, int64_t i) {
  switch (dt) {
    case TF_FLOAT: return ((const float*)p)[i];
    case TF_DOUBLE: return ((const double*)p)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)p)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)p)[i]);
    default: return (double)nl_get_int(dt, p, i);
  }
}

/* dst[i] += src[j] in dtype dt (integers modulo 2^bits; half and bfloat16
 * round the float sum back to 16 bits). */
static void add_in_type(TF_DataType dt, void* dst, int64_t i, const void* src,
                        int64_t j) {
  switch (dt) {
    case TF_FLOAT: ((float*)dst)[i] += ((const float*)src)[j]; break;
    case TF_DOUBLE: ((double*)dst)[i] += ((const double*)src)[j]; break;
    case TF_HALF: {
      uint16_t* d = (uint16_t*)dst;
      d[i] = kutil_f32_to_f16(kutil_f16_to_f32(d[i]) +
                              kutil_f16_to_f32(((const uint16_t*)src)[j]));
      break;
    }
    case TF_BFLOAT16: {
      uint16_t* d = (uint16_t*)dst;
      d[i] = kutil_f32_to_bf16(kutil_bf16_to_f32(d[i]) +
                               kutil_bf16_to_f32(((const uint16_t*)src)[j]));
      break;
    }
    case TF_INT8: ((int8_t*)dst)[i] = (int8_t)(uint8_t)((uint8_t)((int8_t*)dst)[i] + (uint8_t)((const int8_t*)src)[j]); break;
    case TF_UINT8: ((uint8_t*)dst)[i] = (uint8_t)(((uint8_t*)dst)[i] + ((const uint8_t*)src)[j]); break;
    case TF_INT16: ((int16_t*)dst)[i] = (int16_t)(uint16_t)((uint16_t)((int16_t*)dst)[i] + (uint16_t)((const int16_t*)src)[j]); break;
    case TF_UINT16: ((uint16_t*)dst)[i] = (uint16_t)(((uint16_t*)dst)[i] + ((const uint16_t*)src)[j]); break;
    case TF_INT32: ((int32_t*)dst)[i] = (int32_t)((uint32_t)((int32_t*)dst)[i] + (uint32_t)((const int32_t*)src)[j]); break;
    case TF_UINT32: ((uint32_t*)dst)[i] += ((const uint32_t*)src)[j]; break;
    case TF_INT64: ((int64_t*)dst)[i] = (int64_t)((uint64_t)((int64_t*)dst)[i] + (uint64_t)((const int64_t*)src)[j]); break;
    case TF_UINT64: ((uint64_t*)dst)[i] += ((const uint64_t*)src)[j]; break;
    default: break;
  }
}

static const char* str_attr(const tfe_kernel_context* k, const char* name,
                            const char* dflt) {
  const char* s = NULL;
  size_t len = 0;
  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, name, &s, &len, NULL)) {
    return dflt;
  }
  return s;
}

static nn_padding padding_attr(const tfe_kernel_context* k) {
  const char* p = str_attr(k, "padding", "VALID");
  return strcmp(p, "SAME") == 0       ? NN_PAD_SAME
         : strcmp(p, "EXPLICIT") == 0 ? NN_PAD_EXPLICIT
                                      : NN_PAD_VALID;
}

/* ---- BiasAddGrad ---- */

/* Sums out_backprop over every dimension but the channel one (the last for
 * NHWC; dimension 1 for NCHW with rank >= 3). Floating sums run in double
 * (complex: both parts) and are rounded once; integers wrap. */
static void bias_add_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const char* fmt = str_attr(k, "data_format", "NHWC");
  int nchw = strcmp(fmt, "NCHW") == 0, r = in->num_dims, cdim, i;
  int64_t outer = 1, c, inner = 1, o, ch, s;
  TF_DataType dt = in->dtype;
  TF_Tensor* out;
  kutil_shape_buf sb;
  if (r < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input tensor must be at least 2D: %s",
               kutil_tshape(in, &sb));
    return;
  }
  cdim = (nchw && r >= 3) ? 1 : r - 1;
  c = in->dims[cdim];
  for (i = 0; i < cdim; i++) outer *= in->dims[i];
  for (i = cdim + 1; i < r; i++) inner *= in->dims[i];
  out = tfe_kernel_alloc_output(k, 0, dt, &c, 1);
  if (out == NULL || c == 0) return;
  if (dt == TF_COMPLEX64 || dt == TF_COMPLEX128) {
    int is64 = dt == TF_COMPLEX64;
    for (ch = 0; ch < c; ch++) {
      double re = 0, im = 0;
      for (o = 0; o < outer; o++) {
        for (s = 0; s < inner; s++) {
          int64_t idx = (o * c + ch) * inner + s;
          if (is64) {
            re += ((const float*)kutil_data(in))[2 * idx];
            im += ((const float*)kutil_data(in))[2 * idx + 1];
          } else {
            re += ((const double*)kutil_data(in))[2 * idx];
            im += ((const double*)kutil_data(in))[2 * idx + 1];
          }
        }
      }
      if (is64) {
        ((float*)kutil_data(out))[2 * ch] = (float)re;
        ((float*)kutil_data(out))[2 * ch + 1] = (float)im;
      } else {
        ((double*)kutil_data(out))[2 * ch] = re;
        ((double*)kutil_data(out))[2 * ch + 1] = im;
      }
    }
    return;
  }
  for (ch = 0; ch < c; ch++) {
    if (dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF ||
        dt == TF_BFLOAT16) {
      double acc = 0;
      for (o = 0; o < outer; o++) {
        for (s = 0; s < inner; s++) acc += ld(dt, kutil_data(in), (o * c + ch) * inner + s);
      }
      nl_store_double(dt, kutil_data(out), ch, acc);
    } else {
      uint64_t acc = 0;
      for (o = 0; o < outer; o++) {
        for (s = 0; s < inner; s++) {
          acc += (uint64_t)nl_get_int(dt, kutil_data(in),
                                             (o * c + ch) * inner + s);
        }
      }
      nl_store_wrapped(dt, kutil_data(out), ch, acc);
    }
  }
}

/* ---- MaxPoolGrad / MaxPoolGradV2 ---- */

typedef struct pool_geom {
  int64_t n, ih, iw, c, oh, ow, kh, kw, sh, sw, pt, pl;
} pool_geom;

/* The window checks of TF's pooling parameters, then the output size of
 * both spatial dims. ep is the explicit padding list (EXPLICIT only). */
static int pool_geometry(tfe_kernel_context* k, const int64_t* dims,
                         const int64_t* ks, const int64_t* st,
                         nn_padding padding, const int64_t* ep, pool_geom* g) {
  int ri;
  if (padding == NN_PAD_EXPLICIT) {
    static const char* const kSide[4] = {"Top", "Bottom", "Left", "Right"};
    int i;
    if (ep[0] || ep[1] || ep[6] || ep[7]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Nonzero explicit padding in the batch or depth dimensions "
                 "is not supported");
      return 0;
    }
    for (i = 0; i < 4; i++) {
      int64_t win = ks[1 + i / 2];
      if (ep[2 + i] >= win) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "%s padding %lld needs to be smaller than the window size "
                   "%lld",
                   kSide[i], (long long)ep[2 + i], (long long)win);
        return 0;
      }
    }
  }
  memset(g, 0, sizeof *g);
  g->n = dims[0];
  g->ih = dims[1];
  g->iw = dims[2];
  g->c = dims[3];
  g->kh = ks[1];
  g->kw = ks[2];
  g->sh = st[1];
  g->sw = st[2];
  for (ri = 1; ri <= 2; ri++) {
    int64_t extent = ri == 1 ? g->ih : g->iw;
    int64_t before = padding == NN_PAD_EXPLICIT ? ep[2 * ri] : 0;
    int64_t after = padding == NN_PAD_EXPLICIT ? ep[2 * ri + 1] : 0;
    if (st[ri] <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Stride must be > 0, but got %lld",
                 (long long)st[ri]);
      return 0;
    }
    if (!nn_out_size(k, extent, ks[ri], 1, st[ri], padding, before, after,
                     ri == 1 ? &g->oh : &g->ow, ri == 1 ? &g->pt : &g->pl)) {
      return 0;
    }
  }
  return 1;
}

/* Index (in the flat input) of the element each output position picks. */
static int64_t max_pick(const TF_Tensor* in, const pool_geom* g, int64_t b,
                        int64_t oy, int64_t ox, int64_t ch) {
  int64_t y0 = oy * g->sh - g->pt, y1 = y0 + g->kh;
  int64_t x0 = ox * g->sw - g->pl, x1 = x0 + g->kw, y, x, best = -1;
  double bv = 0;
  if (y0 < 0) y0 = 0;
  if (y1 > g->ih) y1 = g->ih;
  if (x0 < 0) x0 = 0;
  if (x1 > g->iw) x1 = g->iw;
  for (y = y0; y < y1; y++) {
    for (x = x0; x < x1; x++) {
      int64_t idx = ((b * g->ih + y) * g->iw + x) * g->c + ch;
      double v = ld(in->dtype, kutil_data(in), idx);
      if (best < 0 || bv < v) {
        best = idx;
        bv = v;
      }
    }
  }
  return best;
}

/* 64-bit integers cannot all be compared through double: exact path. */
static int64_t max_pick_i64(const TF_Tensor* in, const pool_geom* g,
                            int64_t b, int64_t oy, int64_t ox, int64_t ch) {
  int64_t y0 = oy * g->sh - g->pt, y1 = y0 + g->kh;
  int64_t x0 = ox * g->sw - g->pl, x1 = x0 + g->kw, y, x, best = -1;
  int is_u = in->dtype == TF_UINT64;
  const int64_t* d = (const int64_t*)kutil_data(in);
  if (y0 < 0) y0 = 0;
  if (y1 > g->ih) y1 = g->ih;
  if (x0 < 0) x0 = 0;
  if (x1 > g->iw) x1 = g->iw;
  for (y = y0; y < y1; y++) {
    for (x = x0; x < x1; x++) {
      int64_t idx = ((b * g->ih + y) * g->iw + x) * g->c + ch;
      int greater = best >= 0 && (is_u ? (uint64_t)d[best] < (uint64_t)d[idx]
                                       : d[best] < d[idx]);
      if (best < 0 || greater) best = idx;
    }
  }
  return best;
}

static void shape_mismatch(tfe_kernel_context* k, const char* what,
                           const int64_t* want, const TF_Tensor* got) {
  kutil_shape_buf a, b;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected %s shape to be %s, but got %s",
             what, kutil_shape_str(want, 4, a.s, sizeof a.s),
             kutil_tshape(got, &b));
}

static int same_dims4(const int64_t* want, const TF_Tensor* t) {
  int i;
  for (i = 0; i < 4; i++) {
    if (t->dims[i] != want[i]) return 0;
  }
  return 1;
}

static void max_pool_grad_run(tfe_kernel_context* k, const int64_t* ks,
                              int nks, const int64_t* st, int nst,
                              nn_padding padding, const int64_t* ep) {
  const TF_Tensor *in = k->inputs[0], *orig_out = k->inputs[1],
                  *grad = k->inputs[2];
  pool_geom g;
  int64_t od[4], b, oy, ox, ch, oi = 0;
  TF_Tensor* out;
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "tensor_in must be 4-dimensional");
    return;
  }
  if (orig_out->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "tensor_out must be 4-dimensional");
    return;
  }
  if (grad->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "out_backprop must be 4-dimensional");
    return;
  }
  if (nks != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window ksize field must specify 4 dimensions");
    return;
  }
  if (nst != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window strides field must specify 4 dimensions");
    return;
  }
  if (ks[0] != 1 || st[0] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Pooling is not yet supported on the batch dimension.");
    return;
  }
  if (ks[3] != 1 || st[3] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "MaxPoolingGrad is not yet supported on the depth dimension.");
    return;
  }
  if (!pool_geometry(k, in->dims, ks, st, padding, ep, &g)) return;
  od[0] = g.n;
  od[1] = g.oh;
  od[2] = g.ow;
  od[3] = g.c;
  if (!same_dims4(od, orig_out)) {
    shape_mismatch(k, "orig_output", od, orig_out);
    return;
  }
  if (!same_dims4(od, grad)) {
    shape_mismatch(k, "grad", od, grad);
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims, 4);
  if (out == NULL) return;
  if (kutil_num_elements(out) > 0) {
    memset(kutil_data(out), 0,
           (size_t)kutil_num_elements(out) * kutil_esize(in->dtype));
  }
  if (g.kh <= 0 || g.kw <= 0) return; /* empty windows pick nothing */
  for (b = 0; b < g.n; b++) {
    for (oy = 0; oy < g.oh; oy++) {
      for (ox = 0; ox < g.ow; ox++) {
        for (ch = 0; ch < g.c; ch++, oi++) {
          int64_t p = (in->dtype == TF_INT64 || in->dtype == TF_UINT64)
                          ? max_pick_i64(in, &g, b, oy, ox, ch)
                          : max_pick(in, &g, b, oy, ox, ch);
          if (p >= 0) add_in_type(in->dtype, kutil_data(out), p,
                                  kutil_data(grad), oi);
        }
      }
    }
  }
}

static void max_pool_grad_compute(tfe_kernel_context* k) {
  const int64_t *ks = NULL, *st = NULL, *ep = NULL;
  int nks = 0, nst = 0, nep = 0, i;
  nn_padding padding = padding_attr(k);
  if (strcmp(str_attr(k, "data_format", "NHWC"), "NHWC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Default MaxPoolingGradOp only supports NHWC on device type "
               "CPU");
    return;
  }
  if (!kutil_attr_int32_list(k, "ksize", &ks, &nks) ||
      !kutil_attr_int32_list(k, "strides", &st, &nst)) {
    return;
  }
  if (k->attrs != NULL) {
    tfe_attrs_get_int_list(k->attrs, "explicit_paddings", &ep, &nep, NULL);
  }
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
  max_pool_grad_run(k, ks, nks, st, nst, padding, ep);
}

static int read_i32_list(const TF_Tensor* t, int64_t* v, int cap) {
  int64_t n = kutil_num_elements(t), i;
  if (n > cap) return cap + 1;
  for (i = 0; i < n; i++) v[i] = ((const int32_t*)kutil_data(t))[i];
  return (int)n;
}

static void max_pool_grad_v2_compute(tfe_kernel_context* k) {
  int64_t ks[4] = {0}, st[4] = {0};
  int nks, nst;
  if (strcmp(str_attr(k, "data_format", "NHWC"), "NHWC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Default MaxPoolingGradOp only supports NHWC on device type "
               "CPU");
    return;
  }
  nks = read_i32_list(k->inputs[3], ks, 4);
  nst = read_i32_list(k->inputs[4], st, 4);
  max_pool_grad_run(k, ks, nks, st, nst, padding_attr(k), NULL);
}

/* ---- AvgPoolGrad ---- */

/* Each gradient value times T(1 / window count) is added to every real
 * element of its window, in the dtype (half and bfloat16 round after the
 * product and after each addition), output by output as TF does. */
static void avg_pool_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor *shp = k->inputs[0], *grad = k->inputs[1];
  const int64_t *ks = NULL, *st = NULL;
  int nks = 0, nst = 0, i;
  int64_t in_dims[4], b, oy, ox, ch, y, x;
  pool_geom g;
  TF_Tensor* out;
  TF_DataType dt = grad->dtype;
  kutil_shape_buf sb;
  if (strcmp(str_attr(k, "data_format", "NHWC"), "NHWC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Default AvgPoolingGradOp only supports NHWC on device type "
               "CPU");
    return;
  }
  if (!kutil_attr_int32_list(k, "ksize", &ks, &nks) ||
      !kutil_attr_int32_list(k, "strides", &st, &nst)) {
    return;
  }
  if (nks != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window ksize field must specify 4 dimensions");
    return;
  }
  if (nst != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window strides field must specify 4 dimensions");
    return;
  }
  if (ks[0] != 1 || st[0] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Pooling is not yet supported on the batch dimension.");
    return;
  }
  if (ks[1] <= 0 || ks[2] <= 0 || ks[3] <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window ksize must be positive. The specified or "
               "inferred ksize is: %lld,%lld,%lld,%lld",
               (long long)ks[0], (long long)ks[1], (long long)ks[2],
               (long long)ks[3]);
    return;
  }
  if (ks[3] != 1 || st[3] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "MaxPooling supports exactly one of pooling across depth or "
               "pooling across width/height.");
    return;
  }
  if (shp->num_dims != 1 || shp->dims[0] != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "orig_input_shape must be 1-dimensional and 4 elements");
    return;
  }
  if (grad->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "out_backprop must be 4-dimensional");
    return;
  }
  for (i = 0; i < 4; i++) {
    in_dims[i] = ((const int32_t*)kutil_data(shp))[i];
    if (in_dims[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected a non-negative size, got %lld",
                 (long long)in_dims[i]);
      return;
    }
  }
  if (grad->dims[0] != in_dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected first dimension of orig_input and diff_dst to "
               "match, got %lld and %lld",
               (long long)in_dims[0], (long long)grad->dims[0]);
    return;
  }
  if (!pool_geometry(k, in_dims, ks, st, padding_attr(k), NULL, &g)) return;
  {
    int64_t od[4];
    od[0] = g.n;
    od[1] = g.oh;
    od[2] = g.ow;
    od[3] = g.c;
    if (!same_dims4(od, grad)) {
      kutil_shape_buf a;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected grad shape to be %s, but got %s",
                 kutil_shape_str(od, 4, a.s, sizeof a.s),
                 kutil_tshape(grad, &sb));
      return;
    }
  }
  out = tfe_kernel_alloc_output(k, 0, dt, in_dims, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  memset(kutil_data(out), 0,
         (size_t)kutil_num_elements(out) * kutil_esize(dt));
  for (b = 0; b < g.n; b++) {
    for (oy = 0; oy < g.oh; oy++) {
      int64_t y0 = oy * g.sh - g.pt, y1 = y0 + g.kh;
      if (y0 < 0) y0 = 0;
      if (y1 > g.ih) y1 = g.ih;
      for (ox = 0; ox < g.ow; ox++) {
        int64_t x0 = ox * g.sw - g.pl, x1 = x0 + g.kw;
        const int64_t gbase = ((b * g.oh + oy) * g.ow + ox) * g.c;
        double coeff;
        if (x0 < 0) x0 = 0;
        if (x1 > g.iw) x1 = g.iw;
        coeff = 1.0 / (double)((y1 - y0) * (x1 - x0));
        for (y = y0; y < y1; y++) {
          for (x = x0; x < x1; x++) {
            const int64_t ibase = ((b * g.ih + y) * g.iw + x) * g.c;
            for (ch = 0; ch < g.c; ch++) {
              void* o = kutil_data(out);
              const void* gr = kutil_data(grad);
              switch (dt) {
                case TF_FLOAT:
                  ((float*)o)[ibase + ch] +=
                      ((const float*)gr)[gbase + ch] * (float)coeff;
                  break;
                case TF_DOUBLE:
                  ((double*)o)[ibase + ch] +=
                      ((const double*)gr)[gbase + ch] * coeff;
                  break;
                case TF_HALF: {
                  uint16_t* d = (uint16_t*)o;
                  float c16 = kutil_f16_to_f32(kutil_f32_to_f16((float)coeff));
                  float p = kutil_f16_to_f32(kutil_f32_to_f16(
                      kutil_f16_to_f32(((const uint16_t*)gr)[gbase + ch]) *
                      c16));
                  d[ibase + ch] =
                      kutil_f32_to_f16(kutil_f16_to_f32(d[ibase + ch]) + p);
                  break;
                }
                case TF_BFLOAT16: {
                  uint16_t* d = (uint16_t*)o;
                  float c16 =
                      kutil_bf16_to_f32(kutil_f32_to_bf16((float)coeff));
                  float p = kutil_bf16_to_f32(kutil_f32_to_bf16(
                      kutil_bf16_to_f32(((const uint16_t*)gr)[gbase + ch]) *
                      c16));
                  d[ibase + ch] =
                      kutil_f32_to_bf16(kutil_bf16_to_f32(d[ibase + ch]) + p);
                  break;
                }
                default: break;
              }
            }
          }
        }
      }
    }
  }
}

/* ---- InTopK / InTopKV2 ---- */

/* precision[b] is true when fewer than k classes score strictly higher
 * than the target's; false when the target is out of range or any score
 * in the row is not finite. k is used as a 32-bit int (TF truncates it). */
static void in_top_k_run(tfe_kernel_context* k, int64_t kval) {
  const TF_Tensor *pred = k->inputs[0], *tgt = k->inputs[1];
  int64_t n, nc, b, c;
  int32_t k32 = (int32_t)(uint32_t)(uint64_t)kval;
  TF_Tensor* out;
  const float* p;
  if (pred->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "predictions must be 2-dimensional");
    return;
  }
  if (tgt->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "targets must be 1-dimensional");
    return;
  }
  if (pred->dims[0] != tgt->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "First dimension of predictions %lld must match length of "
               "targets %lld",
               (long long)pred->dims[0], (long long)tgt->dims[0]);
    return;
  }
  n = tgt->dims[0];
  nc = pred->dims[1];
  out = tfe_kernel_alloc_output(k, 0, TF_BOOL, &n, 1);
  if (out == NULL) return;
  p = (const float*)kutil_data(pred);
  for (b = 0; b < n; b++) {
    int64_t t = kutil_get_int(tgt, b), more = 0;
    int ok = t >= 0 && t < nc && isfinite(p[b * nc + t]);
    if (ok) {
      float tv = p[b * nc + t];
      for (c = 0; c < nc; c++) {
        float v = p[b * nc + c];
        if (!isfinite(v)) {
          ok = 0;
          break;
        }
        if (v > tv) more++;
      }
    }
    ((unsigned char*)kutil_data(out))[b] = (unsigned char)(ok && more < k32);
  }
}

static void in_top_k_compute(tfe_kernel_context* k) {
  int32_t kval;
  if (!kutil_attr_int32(k, "k", 1, &kval)) return;
  in_top_k_run(k, kval);
}

static void in_top_k_v2_compute(tfe_kernel_context* k) {
  const TF_Tensor* kt = k->inputs[2];
  kutil_shape_buf sb;
  if (kt->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "k must be 0-D, got shape %s",
               kutil_tshape(kt, &sb));
    return;
  }
  in_top_k_run(k, kutil_get_int(kt, 0));
}

/* ---- MaxPoolWithArgmax ---- */

/* The maxima MaxPoolGrad routes to, with their flat indices:
 * ((b * H + y) * W + x) * C + c with include_batch_in_index, else without
 * the batch term. */
static void max_pool_argmax_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const int64_t *ks = NULL, *st = NULL;
  int nks = 0, nst = 0, i, with_batch = kutil_attr_bool(k, "include_batch_in_index", 0);
  TF_DataType targ = TF_INT64;
  pool_geom g;
  int64_t od[4], b, oy, ox, ch, oi = 0;
  TF_Tensor *out, *arg;
  size_t es = kutil_esize(in->dtype);
  if (!kutil_attr_int32_list(k, "ksize", &ks, &nks) ||
      !kutil_attr_int32_list(k, "strides", &st, &nst)) {
    return;
  }
  if (k->attrs != NULL) {
    tfe_attrs_get_type(k->attrs, "Targmax", &targ, NULL);
  }
  if (nks != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window ksize field must specify 4 dimensions");
    return;
  }
  if (nst != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window stride field must specify 4 dimensions");
    return;
  }
  if (ks[0] != 1 || st[0] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Pooling is not yet supported on the batch dimension.");
    return;
  }
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "tensor_in must be 4-dimensional (2)");
    return;
  }
  if (kutil_num_elements(in) == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "tensor_in must not be empty (2)");
    return;
  }
  for (i = 0; i < 4; i++) {
    if (ks[i] <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "ksize must be a positive int32 value, got:%lld",
                 (long long)ks[i]);
      return;
    }
  }
  /* A depth window passes TF's checks but its CPU kernel then pools only
   * spatially (here over 1x1 windows), so the output copies the input. */
  if (ks[3] != 1) {
    if (ks[1] != 1 || ks[2] != 1) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "MaxPooling supports exactly one of pooling across depth or "
                 "pooling across width/height.");
      return;
    }
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
  }
  if (!pool_geometry(k, in->dims, ks, st, padding_attr(k), NULL, &g)) return;
  od[0] = g.n;
  od[1] = g.oh;
  od[2] = g.ow;
  od[3] = g.c;
  out = tfe_kernel_alloc_output(k, 0, in->dtype, od, 4);
  if (out == NULL) return;
  arg = tfe_kernel_alloc_output(k, 1, targ, od, 4);
  if (arg == NULL) return;
  for (b = 0; b < g.n; b++) {
    for (oy = 0; oy < g.oh; oy++) {
      for (ox = 0; ox < g.ow; ox++) {
        for (ch = 0; ch < g.c; ch++, oi++) {
          int64_t p = (in->dtype == TF_INT64 || in->dtype == TF_UINT64)
                          ? max_pick_i64(in, &g, b, oy, ox, ch)
                          : max_pick(in, &g, b, oy, ox, ch);
          int64_t idx = with_batch ? p : p - b * g.ih * g.iw * g.c;
          memcpy((char*)kutil_data(out) + (size_t)oi * es,
                 (const char*)kutil_data(in) + (size_t)p * es, es);
          if (targ == TF_INT32) {
            ((int32_t*)kutil_data(arg))[oi] = (int32_t)idx;
          } else {
            ((int64_t*)kutil_data(arg))[oi] = idx;
          }
        }
      }
    }
  }
}

/* ---- LRN / LRNGrad ---- */

static int lrn_radius(tfe_kernel_context* k, int64_t* r) {
  /* TF reads depth_radius as an int64 and bounds it itself. */
  *r = kutil_attr_int64(k, "depth_radius", 5);
  if (*r < 0 || *r >= 2147483647) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "depth_radius = %lld larger than int max",
               (long long)*r);
    return 0;
  }
  return 1;
}

static float attr_float(const tfe_kernel_context* k, const char* name,
                        float dflt) {
  float v;
  if (k->attrs != NULL && tfe_attrs_get_float(k->attrs, name, &v, NULL)) {
    return v;
  }
  return dflt;
}

/* out = in / (bias + alpha * sum of squares over the depth window)^beta.
 * TF sums the squares through a band-matrix product, so one non-finite
 * square anywhere along the depth makes the whole depth row NaN; that is
 * reproduced. Computed in double, rounded to the dtype. */
static void lrn_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int64_t r, rows, d, i, c, j;
  double bias = attr_float(k, "bias", 1.0f), alpha = attr_float(k, "alpha", 1.0f);
  double beta = attr_float(k, "beta", 0.5f);
  TF_Tensor* out;
  double* sq;
  if (!lrn_radius(k, &r)) return;
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "in must be 4-dimensional");
    return;
  }
  if (kutil_num_elements(in) >= 2147483647) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "argument to LRN too large");
    return;
  }
  d = in->dims[3];
  if (d + r > 2147483647) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "depth %lld + depth_radius %lld exceeds int max.", (long long)d,
               (long long)r);
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  rows = kutil_num_elements(in) / d;
  sq = (double*)tfe_malloc((size_t)d * sizeof(double));
  if (sq == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in LRN");
    return;
  }
  for (i = 0; i < rows; i++) {
    int finite = 1;
    for (c = 0; c < d; c++) {
      float x = (float)ld(in->dtype, kutil_data(in), i * d + c);
      float x2 = x * x; /* TF squares in the dtype */
      if (in->dtype == TF_HALF) x2 = kutil_f16_to_f32(kutil_f32_to_f16(x2));
      sq[c] = x2;
      if (!isfinite(x2)) finite = 0;
    }
    for (c = 0; c < d; c++) {
      int64_t j0 = c - r < 0 ? 0 : c - r, j1 = c + r + 1 > d ? d : c + r + 1;
      double s = 0, x = ld(in->dtype, kutil_data(in), i * d + c), norm, y;
      for (j = j0; j < j1; j++) s += sq[j];
      norm = s * alpha + bias;
      if (!finite) {
        y = NAN;
      } else if (beta == 1.0) {
        y = x / norm;
      } else if (beta == 0.5) {
        y = x / sqrt(norm);
      } else {
        y = x * exp(log(norm) * -beta);
      }
      nl_store_double(in->dtype, kutil_data(out), i * d + c, y);
    }
  }
  tfe_free(sq);
}

/* Gradient of LRN, as TF's CPU kernel: for every depth position j with a
 * nonzero incoming gradient g, each k in j's window receives
 * g * ([k == j] * N^-beta - 2 * alpha * beta * x_k * y_j / N), with N the
 * window's bias + alpha * sum of squares. */
static void lrn_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor *gr = k->inputs[0], *xi = k->inputs[1], *yo = k->inputs[2];
  int64_t r, rows, d, i, c, j;
  double bias = attr_float(k, "bias", 1.0f), alpha = attr_float(k, "alpha", 1.0f);
  double beta = attr_float(k, "beta", 0.5f);
  TF_DataType dt = gr->dtype;
  TF_Tensor* out;
  double* acc;
  if (!lrn_radius(k, &r)) return;
  if (gr->num_dims != 4 || xi->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "inputs must be 4-dimensional");
    return;
  }
  {
    int same = yo->num_dims == 4, q;
    for (q = 0; q < 4 && same; q++) {
      if (xi->dims[q] != gr->dims[q] || yo->dims[q] != gr->dims[q]) same = 0;
    }
    if (!same) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "input_grads, input_image, and out_image should have the "
                 "same shape");
      return;
    }
  }
  out = tfe_kernel_alloc_output(k, 0, dt, gr->dims, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  d = gr->dims[3];
  rows = kutil_num_elements(gr) / d;
  acc = (double*)tfe_malloc((size_t)d * sizeof(double));
  if (acc == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in LRNGrad");
    return;
  }
  for (i = 0; i < rows; i++) {
    for (c = 0; c < d; c++) acc[c] = 0;
    for (j = 0; j < d; j++) {
      double g = ld(dt, kutil_data(gr), i * d + j), norm = 0, p, ab2;
      int64_t j0 = j - r < 0 ? 0 : j - r, j1 = j + r + 1 > d ? d : j + r + 1;
      if (g == 0) continue;
      for (c = j0; c < j1; c++) {
        double x = ld(dt, kutil_data(xi), i * d + c);
        norm += x * x;
      }
      norm = alpha * norm + bias;
      p = pow(norm, -beta);
      ab2 = -2.0 * alpha * beta * ld(dt, kutil_data(yo), i * d + j);
      for (c = j0; c < j1; c++) {
        double v = ld(dt, kutil_data(xi), i * d + c) * ab2 / norm;
        if (c == j) v += p;
        acc[c] += v * g;
      }
    }
    for (c = 0; c < d; c++) nl_store_double(dt, kutil_data(out), i * d + c, acc[c]);
  }
  tfe_free(acc);
}

/* ---- ResizeBilinearGrad / ResizeNearestNeighborGrad ---- */

/* TF's resize scale: original / resized, or (original - 1) / (resized - 1)
 * with align_corners when resized > 1; in float. */
static float rs_scale(int64_t orig, int64_t resized, int align) {
  return (align && resized > 1) ? (float)(orig - 1) / (float)(resized - 1)
                                : (float)orig / (float)resized;
}

/* Spreads each float gradient over the four source pixels of the forward
 * bilinear resize, in TF's order, adding (g * wy) * wx in float and then
 * in the dtype (half and bfloat16 accumulate in float and are rounded at
 * the end, as TF does). Output: [grad batch, original h, w, grad depth]. */
static void resize_bilinear_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor *gr = k->inputs[0], *orig = k->inputs[1];
  int align = kutil_attr_bool(k, "align_corners", 0);
  int half = kutil_attr_bool(k, "half_pixel_centers", 0);
  TF_DataType dt = orig->dtype;
  kutil_shape_buf sb;
  int64_t od[4], b, y, x, c, rh, rw, C;
  float hs, ws;
  TF_Tensor* out;
  double* acc = NULL; /* double or float accumulation, see below */
  float* accf = NULL;
  const float* g;
  if (half && align) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "If half_pixel_centers is True, align_corners must be False.");
    return;
  }
  if (gr->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input_grad must be 4-dimensional%s",
               kutil_tshape(gr, &sb));
    return;
  }
  if (orig->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "original_image must be 4-dimensional%s",
               kutil_tshape(orig, &sb));
    return;
  }
  rh = gr->dims[1];
  rw = gr->dims[2];
  if (rh <= 0 || rw <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "resized dimensions must be positive");
    return;
  }
  if (orig->dims[1] > 2147483647 || orig->dims[2] > 2147483647) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "original sizes must be between 0 and max int32");
    return;
  }
  if (orig->dims[1] <= 0 || orig->dims[2] <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "original dimensions must be positive");
    return;
  }
  od[0] = gr->dims[0];
  od[1] = orig->dims[1];
  od[2] = orig->dims[2];
  od[3] = gr->dims[3];
  C = od[3];
  out = tfe_kernel_alloc_output(k, 0, dt, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  hs = rs_scale(od[1], rh, align);
  ws = rs_scale(od[2], rw, align);
  if (dt == TF_DOUBLE) {
    acc = (double*)kutil_data(out);
    memset(acc, 0, (size_t)kutil_num_elements(out) * sizeof(double));
  } else if (dt == TF_FLOAT) {
    accf = (float*)kutil_data(out);
    memset(accf, 0, (size_t)kutil_num_elements(out) * sizeof(float));
  } else {
    accf = (float*)tfe_calloc((size_t)kutil_num_elements(out), sizeof(float));
    if (accf == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                 "out of memory in ResizeBilinearGrad");
      return;
    }
  }
  g = (const float*)kutil_data(gr);
  for (b = 0; b < od[0]; b++) {
    for (y = 0; y < rh; y++) {
      float iy = half ? ((float)y + 0.5f) * hs - 0.5f : (float)y * hs;
      int64_t top = (int64_t)floorf(iy), bot = (int64_t)ceilf(iy);
      float ly = iy - floorf(iy), ily = 1.0f - ly;
      if (top < 0) top = 0;
      if (bot > od[1] - 1) bot = od[1] - 1;
      for (x = 0; x < rw; x++) {
        float ix = half ? ((float)x + 0.5f) * ws - 0.5f : (float)x * ws;
        int64_t left = (int64_t)floorf(ix), right = (int64_t)ceilf(ix);
        float lx = ix - floorf(ix), ilx = 1.0f - lx;
        const float* gp = g + ((b * rh + y) * rw + x) * C;
        int64_t tl, tr, bl, br;
        if (left < 0) left = 0;
        if (right > od[2] - 1) right = od[2] - 1;
        tl = ((b * od[1] + top) * od[2] + left) * C;
        tr = ((b * od[1] + top) * od[2] + right) * C;
        bl = ((b * od[1] + bot) * od[2] + left) * C;
        br = ((b * od[1] + bot) * od[2] + right) * C;
        for (c = 0; c < C; c++) {
          float v = gp[c];
          if (acc != NULL) {
            acc[tl + c] += (double)(v * ily * ilx);
            acc[tr + c] += (double)(v * ily * lx);
            acc[bl + c] += (double)(v * ly * ilx);
            acc[br + c] += (double)(v * ly * lx);
          } else {
            accf[tl + c] += v * ily * ilx;
            accf[tr + c] += v * ily * lx;
            accf[bl + c] += v * ly * ilx;
            accf[br + c] += v * ly * lx;
          }
        }
      }
    }
  }
  if (dt == TF_HALF || dt == TF_BFLOAT16) {
    int64_t i, n = kutil_num_elements(out);
    for (i = 0; i < n; i++) nl_store_double(dt, kutil_data(out), i, accf[i]);
    tfe_free(accf);
  }
}

/* Adds each gradient to the pixel the forward nearest-neighbour resize
 * read it from, in the dtype (integers wrap, half/bfloat16 round per
 * addition), in TF's loop order. */
static void resize_nearest_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor *gr = k->inputs[0], *sz = k->inputs[1];
  int align = kutil_attr_bool(k, "align_corners", 0);
  int half = kutil_attr_bool(k, "half_pixel_centers", 0);
  kutil_shape_buf sb;
  int64_t od[4], b, y, x, c, ih, iw, C;
  float hs, ws;
  TF_Tensor* out;
  if (gr->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4-dimensional%s",
               kutil_tshape(gr, &sb));
    return;
  }
  if (sz->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape_t must be 1-dimensional%s",
               kutil_tshape(sz, &sb));
    return;
  }
  if (sz->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape_t must have two elements%s",
               kutil_tshape(sz, &sb));
    return;
  }
  od[1] = ((const int32_t*)kutil_data(sz))[0];
  od[2] = ((const int32_t*)kutil_data(sz))[1];
  if (od[1] <= 0 || od[2] <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape_t's elements must be positive");
    return;
  }
  od[0] = gr->dims[0];
  od[3] = gr->dims[3];
  ih = gr->dims[1];
  iw = gr->dims[2];
  C = od[3];
  out = tfe_kernel_alloc_output(k, 0, gr->dtype, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  memset(kutil_data(out), 0,
         (size_t)kutil_num_elements(out) * kutil_esize(gr->dtype));
  hs = rs_scale(od[1], ih, align);
  ws = rs_scale(od[2], iw, align);
  for (y = 0; y < ih; y++) {
    float fy = half ? ((float)y + 0.5f) * hs : (float)y * hs;
    int64_t oy = align ? (int64_t)roundf(fy) : (int64_t)floorf(fy);
    if (oy > od[1] - 1) oy = od[1] - 1;
    for (x = 0; x < iw; x++) {
      float fx = half ? ((float)x + 0.5f) * ws : (float)x * ws;
      int64_t ox = align ? (int64_t)roundf(fx) : (int64_t)floorf(fx);
      if (ox > od[2] - 1) ox = od[2] - 1;
      for (b = 0; b < od[0]; b++) {
        for (c = 0; c < C; c++) {
          add_in_type(gr->dtype, kutil_data(out),
                      ((b * od[1] + oy) * od[2] + ox) * C + c,
                      kutil_data(gr), ((b * ih + y) * iw + x) * C + c);
        }
      }
    }
  }
}

void tfe_register_nnlinalg_nn_kernels(void) {
  static const TF_DataType kBias[] = {
      TF_COMPLEX128, TF_COMPLEX64, TF_DOUBLE, TF_FLOAT,  TF_BFLOAT16,
      TF_HALF,       TF_INT32,     TF_INT8,   TF_UINT8,  TF_INT16,
      TF_UINT16,     TF_UINT32,    TF_INT64,  TF_UINT64};
  static const TF_DataType kMax[] = {TF_DOUBLE, TF_FLOAT,  TF_BFLOAT16,
                                     TF_HALF,   TF_INT32,  TF_INT8,
                                     TF_UINT8,  TF_INT16,  TF_UINT16,
                                     TF_UINT32, TF_INT64,  TF_UINT64};
  static const TF_DataType kAvg[] = {TF_DOUBLE, TF_FLOAT, TF_BFLOAT16,
                                     TF_HALF};
  static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("BiasAddGrad", bias_add_grad_compute, "T", kBias,
                     KUTIL_COUNT(kBias), NULL, NULL, 0);
  tfe_kutil_register("MaxPoolGrad", max_pool_grad_compute, "T", kMax,
                     KUTIL_COUNT(kMax), NULL, NULL, 0);
  tfe_kutil_register("MaxPoolGradV2", max_pool_grad_v2_compute, "T", kMax,
                     KUTIL_COUNT(kMax), NULL, NULL, 0);
  tfe_kutil_register("AvgPoolGrad", avg_pool_grad_compute, "T", kAvg,
                     KUTIL_COUNT(kAvg), NULL, NULL, 0);
  tfe_kutil_register("InTopK", in_top_k_compute, "T", kIdx,
                     KUTIL_COUNT(kIdx), NULL, NULL, 0);
  tfe_kutil_register("InTopKV2", in_top_k_v2_compute, "T", kIdx,
                     KUTIL_COUNT(kIdx), NULL, NULL, 0);
  {
    static const TF_DataType kArg[] = {TF_INT64, TF_INT32};
    static const TF_DataType kLrn[] = {TF_HALF, TF_FLOAT};
    tfe_kutil_register("MaxPoolWithArgmax", max_pool_argmax_compute, "T", kMax,
                       KUTIL_COUNT(kMax), "Targmax", kArg, KUTIL_COUNT(kArg));
    tfe_kutil_register("LRN", lrn_compute, "T", kLrn, KUTIL_COUNT(kLrn), NULL,
                       NULL, 0);
    tfe_kutil_register("LRNGrad", lrn_grad_compute, "T", kLrn,
                       KUTIL_COUNT(kLrn), NULL, NULL, 0);
    tfe_kutil_register("ResizeBilinearGrad", resize_bilinear_grad_compute,
                       "T", kAvg, KUTIL_COUNT(kAvg), NULL, NULL, 0);
    tfe_kutil_register("ResizeNearestNeighborGrad",
                       resize_nearest_grad_compute, "T", kMax,
                       KUTIL_COUNT(kMax), NULL, NULL, 0);
  }
}
