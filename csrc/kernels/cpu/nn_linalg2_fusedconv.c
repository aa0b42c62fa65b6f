/* CPU kernels: FusedPadConv2D (float, double, half, bfloat16) and
 * FusedResizeAndPadConv2D (float, double, half) with TF 2.21's semantics
 * (issue 18, session 8): an optional bilinear resize of the NHWC input
 * (TF's legacy sampling: source = dst * scale, no half-pixel centers,
 * scale (in - 1) / (out - 1) with resize_align_corners), then mirror
 * padding of the two spatial dimensions (REFLECT or SYMMETRIC), then a 2-D
 * convolution with the [kh, kw, in, out] filter, strides over rows and
 * columns, SAME or VALID padding. The checks and their messages are TF's
 * (which validate the padding of all four dimensions and then refuse
 * batch or channel padding). The arithmetic runs in double and the result
 * is rounded once; this is a plain loop nest, written for correctness
 * rather than speed. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_linalg2_common.h"

static int mirror(int64_t i, int64_t n, int reflect) {
  if (i < 0) return (int)(reflect ? -i : -i - 1);
  if (i >= n) return (int)(reflect ? 2 * n - 2 - i : 2 * n - 1 - i);
  return (int)i;
}

static void fused_conv(tfe_kernel_context* k, int resize) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* pad = k->inputs[resize ? 2 : 1];
  const TF_Tensor* flt = k->inputs[resize ? 3 : 2];
  TF_DataType dt = in->dtype;
  const char* mode = "REFLECT";
  const char* padding = "VALID";
  const int64_t* strides = NULL;
  int nstr = 0, reflect, align = 0, same;
  int64_t N, H, W, C, rh, rw, pt, pb, pl, pr, ph, pw, kh, kw, oc, sh, sw, oh,
      ow, padt, padl, dims[4], b, y, x, c, d, i, j;
  const int32_t* pm;
  double* img = NULL; /* resized + padded [N, ph, pw, C] */
  double* fw = NULL;
  TF_Tensor* out;
  kutil_shape_buf s1, s2;
  if (k->attrs != NULL) {
    tfe_attrs_get_string(k->attrs, "mode", &mode, NULL, NULL);
    tfe_attrs_get_string(k->attrs, "padding", &padding, NULL, NULL);
  }
  if (!kutil_attr_int32_list(k, "strides", &strides, &nstr)) return;
  if (resize) align = kutil_attr_bool(k, "resize_align_corners", 0);
  reflect = strcmp(mode, "REFLECT") == 0;
  if (!reflect && strcmp(mode, "SYMMETRIC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "mode must be either REFLECT or SYMMETRIC.");
    return;
  }
  if (nstr != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window strides field must specify 4 dimensions");
    return;
  }
  if (strides[0] != 1 || strides[3] != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Current implementation does not yet support strides in the "
               "batch and depth dimensions.");
    return;
  }
  same = strcmp(padding, "SAME") == 0;
  if (kutil_num_elements(in) <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input tensor can't be empty");
    return;
  }
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4-dimensional%s",
               kutil_tshape(in, &s1));
    return;
  }
  N = in->dims[0];
  H = in->dims[1];
  W = in->dims[2];
  C = in->dims[3];
  rh = H;
  rw = W;
  if (resize) {
    const TF_Tensor* sz = k->inputs[1];
    if (sz->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape_t must be 1-dimensional%s",
                 kutil_tshape(sz, &s1));
      return;
    }
    if (sz->dims[0] != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "shape_t must have two elements%s", kutil_tshape(sz, &s1));
      return;
    }
    rh = ((const int32_t*)kutil_data(sz))[0];
    rw = ((const int32_t*)kutil_data(sz))[1];
    if (rh <= 0 || rw <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "output dimensions must be positive");
      return;
    }
  }
  if (pad->num_dims != 2 || pad->dims[1] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "paddings must be a matrix with 2 columns: %s",
               kutil_tshape(pad, &s1));
    return;
  }
  if (pad->dims[0] != 4) {
    int64_t rs[4];
    rs[0] = N;
    rs[1] = rh;
    rs[2] = rw;
    rs[3] = C;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The first dimension of paddings must be the rank of inputs: "
               "4 %s %s",
               kutil_tshape(pad, &s1), kutil_shape_str(rs, 4, s2.s, sizeof s2.s));
    return;
  }
  pm = (const int32_t*)kutil_data(pad);
  for (d = 0; d < 4; d++) {
    int64_t size = d == 0 ? N : d == 1 ? rh : d == 2 ? rw : C;
    int32_t bf = pm[2 * d], af = pm[2 * d + 1];
    if (bf < 0 || af < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "paddings must be non-negative: %d %d",
                 bf, af);
      return;
    }
    if (!reflect && (bf > size || af > size)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "paddings must be no greater than the dimension size: %d, %d "
                 "greater than %lld",
                 bf, af, (long long)size);
      return;
    }
    if (reflect && (bf >= size || af >= size)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "paddings must be less than the dimension size: %d, %d not "
                 "less than %lld",
                 bf, af, (long long)size);
      return;
    }
  }
  if (pm[0] != 0 || pm[1] != 0 || pm[6] != 0 || pm[7] != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Fused mirror padding only support spatial padding, not %s",
               pm[0] != 0 || pm[1] != 0 ? "batches" : "channels");
    return;
  }
  pt = pm[2];
  pb = pm[3];
  pl = pm[4];
  pr = pm[5];
  ph = rh + pt + pb;
  pw = rw + pl + pr;
  if (flt->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "filter must be 4-dimensional: %s",
               kutil_tshape(flt, &s1));
    return;
  }
  if (C != flt->dims[2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input and filter must have the same depth: %lld vs %lld",
               (long long)C, (long long)flt->dims[2]);
    return;
  }
  kh = flt->dims[0];
  kw = flt->dims[1];
  oc = flt->dims[3];
  sh = strides[1];
  sw = strides[2];
  if (sh < 1 || sw < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Stride must be > 0");
    return;
  }
  if (same) {
    int64_t th, tw;
    oh = (ph + sh - 1) / sh;
    ow = (pw + sw - 1) / sw;
    th = (oh - 1) * sh + kh - ph;
    tw = (ow - 1) * sw + kw - pw;
    padt = th > 0 ? th / 2 : 0;
    padl = tw > 0 ? tw / 2 : 0;
  } else {
    oh = (ph - kh + sh) / sh;
    ow = (pw - kw + sw) / sw;
    if (ph - kh < 0) oh = 0;
    if (pw - kw < 0) ow = 0;
    padt = padl = 0;
  }
  if (oh <= 0 || ow <= 0 || oc <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Output tensor can't be empty");
    return;
  }
  dims[0] = N;
  dims[1] = oh;
  dims[2] = ow;
  dims[3] = oc;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  img = (double*)tfe_malloc((size_t)(N * ph * pw * C) * sizeof(double));
  fw = (double*)tfe_malloc((size_t)(kh * kw * C * oc + 1) * sizeof(double));
  if (img == NULL || fw == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in %s",
               resize ? "FusedResizeAndPadConv2D" : "FusedPadConv2D");
    goto done;
  }
  for (i = 0; i < kh * kw * C * oc; i++) fw[i] = nnl2_load(dt, kutil_data(flt), i);
  {
    float ys = (align && rh > 1) ? (float)(H - 1) / (float)(rh - 1)
                                 : (float)H / (float)rh;
    float xs = (align && rw > 1) ? (float)(W - 1) / (float)(rw - 1)
                                 : (float)W / (float)rw;
    for (b = 0; b < N; b++) {
      for (y = 0; y < ph; y++) {
        int64_t sy = mirror(y - pt, rh, reflect);
        float fy = (float)sy * ys;
        int64_t y0 = (int64_t)floorf(fy), y1 = y0 + 1 < H ? y0 + 1 : H - 1;
        double ly = fy - (float)y0;
        for (x = 0; x < pw; x++) {
          int64_t sx = mirror(x - pl, rw, reflect);
          float fx = (float)sx * xs;
          int64_t x0 = (int64_t)floorf(fx), x1 = x0 + 1 < W ? x0 + 1 : W - 1;
          double lx = fx - (float)x0;
          double* dst = img + ((b * ph + y) * pw + x) * C;
          if (!resize) {
            for (c = 0; c < C; c++) {
              dst[c] = nnl2_load(dt, kutil_data(in), ((b * H + sy) * W + sx) * C + c);
            }
            continue;
          }
          if (y0 > H - 1) y0 = H - 1;
          if (x0 > W - 1) x0 = W - 1;
          for (c = 0; c < C; c++) {
            const void* s = kutil_data(in);
            double tl = nnl2_load(dt, s, ((b * H + y0) * W + x0) * C + c);
            double tr = nnl2_load(dt, s, ((b * H + y0) * W + x1) * C + c);
            double bl = nnl2_load(dt, s, ((b * H + y1) * W + x0) * C + c);
            double br = nnl2_load(dt, s, ((b * H + y1) * W + x1) * C + c);
            double top = tl + (tr - tl) * lx, bot = bl + (br - bl) * lx;
            dst[c] = top + (bot - top) * ly;
          }
        }
      }
    }
  }
  for (b = 0; b < N; b++) {
    for (y = 0; y < oh; y++) {
      for (x = 0; x < ow; x++) {
        int64_t o;
        for (o = 0; o < oc; o++) {
          double s = 0;
          for (i = 0; i < kh; i++) {
            int64_t iy = y * sh - padt + i;
            if (iy < 0 || iy >= ph) continue;
            for (j = 0; j < kw; j++) {
              int64_t ix = x * sw - padl + j;
              const double* src;
              const double* f;
              if (ix < 0 || ix >= pw) continue;
              src = img + ((b * ph + iy) * pw + ix) * C;
              f = fw + ((i * kw + j) * C) * oc + o;
              for (c = 0; c < C; c++) s += src[c] * f[c * oc];
            }
          }
          nnl2_store(dt, kutil_data(out), ((b * oh + y) * ow + x) * oc + o, s);
        }
      }
    }
  }
done:
  tfe_free(img);
  tfe_free(fw);
}

static void fused_pad_conv_compute(tfe_kernel_context* k) { fused_conv(k, 0); }
static void fused_resize_pad_conv_compute(tfe_kernel_context* k) {
  fused_conv(k, 1);
}

void tfe_nn_linalg2_register_fusedconv(void) {
  static const TF_DataType kPad[] = {TF_FLOAT, TF_DOUBLE, TF_HALF,
                                     TF_BFLOAT16};
  static const TF_DataType kRes[] = {TF_FLOAT, TF_DOUBLE, TF_HALF};
  tfe_kutil_register("FusedPadConv2D", fused_pad_conv_compute, "T", kPad, 4,
                     NULL, NULL, 0);
  tfe_kutil_register("FusedResizeAndPadConv2D", fused_resize_pad_conv_compute,
                     "T", kRes, 3, NULL, NULL, 0);
}
