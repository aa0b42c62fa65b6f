/* CPU kernels: image codecs, image gradients and audio ops (issue 18).
 *
 * The backprop kernels the image and gamma gradients need
 * (csrc/eager/grad_linalg.c):
 *  - ResizeBicubicGrad: scatters each output gradient onto the 4x4 taps the
 *    forward ResizeBicubic read, with the same cubic weights (Keys kernel
 *    with a = -0.5 and out-of-image taps dropped under half_pixel_centers,
 *    a = -0.75 with clamped taps otherwise). The result has the batch and
 *    channels of the gradient and the height and width of the original
 *    image, as TF's kernel.
 *  - CropAndResizeGradImage / CropAndResizeGradBoxes: the transposes of
 *    CropAndResize's bilinear (or nearest) sampling with respect to the
 *    image and to the box corners; samples outside the image contribute
 *    nothing. Arithmetic in float, as TF's.
 *  - RandomGammaGrad: d sample / d alpha of a Gamma(alpha, 1) sample by
 *    implicit differentiation of its CDF, -(dP(a, x)/da) / p(x; a), with
 *    P the regularized lower incomplete gamma function: a series for
 *    x <= max(1, a), Legendre's continued fraction for Q = 1 - P beyond,
 *    each carried with its derivative in a (forward mode); computed in
 *    double for both dtypes. Broadcasting binary op.
 *  - ScaleAndTranslateGrad: the transpose of ScaleAndTranslate's separable
 *    resampling: the forward sampling spans of each axis are inverted (for
 *    each original pixel, the run of forward outputs that read it and
 *    their weights) and the gradient is gathered through them, rows first,
 *    in float. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_image_codec_kernels(void);

/* ---- ResizeBicubicGrad ---- */

#define BC_TABLE 1024

/* Weights of the near tap at distance i/1024 (entry 2i) and of the far
 * tap at 1 + i/1024 (entry 2i+1) of the cubic convolution kernel. */
static void bc_table(double a, float* t) {
  int i;
  for (i = 0; i <= BC_TABLE; i++) {
    float x = (float)(i * 1.0 / BC_TABLE);
    t[i * 2] = (float)(((a + 2) * x - (a + 3)) * x * x + 1);
    x += 1.0f;
    t[i * 2 + 1] = (float)(((a * x - 5 * a) * x + 8 * a) * x - 4 * a);
  }
}

typedef struct bc_taps {
  float w[4];
  int64_t at[4];
} bc_taps;

static int64_t bc_clamp(int64_t v, int64_t n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }

/* The four taps and weights of output position `o` on an axis of n
 * input pixels. */
static void bc_taps_at(const float* table, int keys, float scale, int64_t o, int64_t n,
                       bc_taps* t) {
  float f = keys ? ((float)o + 0.5f) * scale - 0.5f : (float)o * scale;
  int64_t base = (int64_t)floorf(f);
  long off = lrintf((f - (float)base) * BC_TABLE);
  int j;
  if (off < 0) off = 0;
  if (off > BC_TABLE) off = BC_TABLE;
  t->w[0] = table[off * 2 + 1];
  t->w[1] = table[off * 2];
  t->w[2] = table[(BC_TABLE - off) * 2];
  t->w[3] = table[(BC_TABLE - off) * 2 + 1];
  for (j = 0; j < 4; j++) t->at[j] = bc_clamp(base - 1 + j, n);
  if (keys) {
    float sum;
    for (j = 0; j < 4; j++) {
      if (t->at[j] != base - 1 + j) t->w[j] = 0.0f;
    }
    sum = t->w[0] + t->w[1] + t->w[2] + t->w[3];
    if (fabsf(sum) >= 1000.0f * 1.17549435e-38f) {
      float inv = 1.0f / sum;
      for (j = 0; j < 4; j++) t->w[j] *= inv;
    }
  }
}

static float bc_scale(int64_t in, int64_t out, int align) {
  return (align && out > 1) ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
}

static void resize_bicubic_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor* g = k->inputs[0];
  const TF_Tensor* orig = k->inputs[1];
  int align = kutil_attr_bool(k, "align_corners", 0);
  int half = kutil_attr_bool(k, "half_pixel_centers", 0);
  int is_double = orig->dtype == TF_DOUBLE;
  kutil_shape_buf sb;
  int64_t od[4], B, oh, ow, C, ih, iw, b, y, x, c;
  float table[(BC_TABLE + 1) * 2], sy, sx;
  bc_taps* xt;
  const float* src;
  TF_Tensor* out;
  if (half && align) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "If half_pixel_centers is True, align_corners must be False.");
    return;
  }
  if (g->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input_grad must be 4-dimensional%s",
               kutil_tshape(g, &sb));
    return;
  }
  if (orig->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "original_image must be 4-dimensional%s",
               kutil_tshape(orig, &sb));
    return;
  }
  B = g->dims[0];
  oh = g->dims[1];
  ow = g->dims[2];
  C = g->dims[3];
  ih = orig->dims[1];
  iw = orig->dims[2];
  if (ih >= INT32_MAX || iw >= INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "original sizes must be between 0 and max int32");
    return;
  }
  if (ih <= 0 || iw <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "original dimensions must be positive");
    return;
  }
  od[0] = B;
  od[1] = ih;
  od[2] = iw;
  od[3] = C;
  out = tfe_kernel_alloc_output(k, 0, orig->dtype, od, 4);
  if (out == NULL) return;
  memset(kutil_data(out), 0, (size_t)kutil_num_elements(out) * (is_double ? 8 : 4));
  if (kutil_num_elements(out) == 0 || kutil_num_elements(g) == 0) return;
  bc_table(half ? -0.5 : -0.75, table);
  sy = bc_scale(ih, oh, align);
  sx = bc_scale(iw, ow, align);
  xt = (bc_taps*)tfe_malloc(sizeof(bc_taps) * (size_t)ow);
  if (xt == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ResizeBicubicGrad");
    return;
  }
  for (x = 0; x < ow; x++) bc_taps_at(table, half, sx, x, iw, &xt[x]);
  src = (const float*)kutil_data(g);
  for (b = 0; b < B; b++) {
    for (y = 0; y < oh; y++) {
      bc_taps yt;
      bc_taps_at(table, half, sy, y, ih, &yt);
      for (x = 0; x < ow; x++) {
        const bc_taps* t = &xt[x];
        const float* gp = src + ((b * oh + y) * ow + x) * C;
        int i, j;
        for (i = 0; i < 4; i++) {
          for (j = 0; j < 4; j++) {
            int64_t base = ((b * ih + yt.at[i]) * iw + t->at[j]) * C;
            if (is_double) {
              double* dst = (double*)kutil_data(out) + base;
              for (c = 0; c < C; c++) dst[c] += (double)gp[c] * yt.w[i] * t->w[j];
            } else {
              float* dst = (float*)kutil_data(out) + base;
              for (c = 0; c < C; c++) dst[c] += gp[c] * yt.w[i] * t->w[j];
            }
          }
        }
      }
    }
  }
  tfe_free(xt);
}

/* ---- CropAndResize gradients ---- */

/* TF's checks of boxes [num_boxes, 4] and box_ind [num_boxes]; 0 with the
 * status set. */
static int crop_boxes_ok(tfe_kernel_context* k, const TF_Tensor* boxes, const TF_Tensor* bind,
                         int64_t* nb) {
  kutil_shape_buf sb;
  if (kutil_num_elements(boxes) == 0 && kutil_num_elements(bind) == 0) {
    *nb = 0;
    return 1;
  }
  if (boxes->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "boxes must be 2-D%s", kutil_tshape(boxes, &sb));
    return 0;
  }
  *nb = boxes->dims[0];
  if (boxes->dims[1] != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "boxes must have 4 columns");
    return 0;
  }
  if (bind->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "box_index must be 1-D%s", kutil_tshape(bind, &sb));
    return 0;
  }
  if (bind->dims[0] != *nb) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "box_index has incompatible shape");
    return 0;
  }
  return 1;
}

static int crop_index_ok(tfe_kernel_context* k, const int32_t* bi, int64_t nb, int64_t batch) {
  int64_t i;
  for (i = 0; i < nb; i++) {
    if (bi[i] < 0 || bi[i] >= batch) {
      KUTIL_FAIL(k, TF_OUT_OF_RANGE, "box_index has values outside [0, batch_size)");
      return 0;
    }
  }
  return 1;
}

/* The sampling position of crop row (or column) i of n on an axis of
 * `size` pixels, for a box edge pair (lo, hi). */
static float crop_pos(float lo, float hi, int64_t i, int64_t n, int64_t size) {
  if (n > 1) return lo * (float)(size - 1) + (float)i * ((hi - lo) * (float)(size - 1) / (float)(n - 1));
  return 0.5f * (lo + hi) * (float)(size - 1);
}

/* out[at] += (T)v, rounding v to T first as TF's kernel does. */
static void crop_acc(TF_DataType dt, void* out, int64_t at, float v) {
  switch (dt) {
    case TF_DOUBLE: ((double*)out)[at] += (double)v; break;
    case TF_HALF: {
      uint16_t* h = (uint16_t*)out;
      float add = kutil_f16_to_f32(kutil_f32_to_f16(v));
      h[at] = kutil_f32_to_f16(kutil_f16_to_f32(h[at]) + add);
      break;
    }
    default: ((float*)out)[at] += v; break;
  }
}

static void crop_grad_image_compute(tfe_kernel_context* k) {
  const TF_Tensor* g = k->inputs[0];
  const TF_Tensor* boxes = k->inputs[1];
  const TF_Tensor* bind = k->inputs[2];
  const TF_Tensor* isz = k->inputs[3];
  const char* method = "bilinear";
  size_t mlen = 8;
  TF_DataType dt = TF_FLOAT;
  kutil_shape_buf sb;
  int64_t nb, ch, cw, depth, batch, ih, iw, od[4], b, y, x, d;
  const int32_t* sz;
  const int32_t* bi;
  const float* bx;
  const float* gv;
  int nearest;
  void* outp;
  TF_Tensor* out;
  if (k->attrs != NULL) {
    tfe_attrs_get_string(k->attrs, "method", &method, &mlen, NULL);
    tfe_attrs_get_type(k->attrs, "T", &dt, NULL);
  }
  nearest = mlen == 7 && strncmp(method, "nearest", 7) == 0;
  if (g->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "grads image must be 4-D%s", kutil_tshape(g, &sb));
    return;
  }
  ch = g->dims[1];
  cw = g->dims[2];
  depth = g->dims[3];
  if (ch <= 0 || cw <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "grads dimensions must be positive");
    return;
  }
  if (!crop_boxes_ok(k, boxes, bind, &nb)) return;
  if (g->dims[0] != nb) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "boxes and grads have incompatible shape");
    return;
  }
  if (isz->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "image_size must be 1-D%s", kutil_tshape(isz, &sb));
    return;
  }
  if (isz->dims[0] != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "image_size must have 4 elements%s",
               kutil_tshape(isz, &sb));
    return;
  }
  sz = (const int32_t*)kutil_data(isz);
  batch = sz[0];
  ih = sz[1];
  iw = sz[2];
  if (ih <= 0 || iw <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "image dimensions must be positive");
    return;
  }
  if (sz[3] != depth) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "image_size and grads are incompatible");
    return;
  }
  if (batch < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension -1 must be >= 0");
    return;
  }
  od[0] = batch;
  od[1] = ih;
  od[2] = iw;
  od[3] = depth;
  out = tfe_kernel_alloc_output(k, 0, dt, od, 4);
  if (out == NULL) return;
  outp = kutil_data(out);
  memset(outp, 0, (size_t)kutil_num_elements(out) * kutil_esize(dt));
  bi = (const int32_t*)kutil_data(bind);
  if (!crop_index_ok(k, bi, nb, batch)) return;
  bx = (const float*)kutil_data(boxes);
  gv = (const float*)kutil_data(g);
  for (b = 0; b < nb; b++) {
    float y1 = bx[b * 4], x1 = bx[b * 4 + 1], y2 = bx[b * 4 + 2], x2 = bx[b * 4 + 3];
    int64_t img = bi[b];
    for (y = 0; y < ch; y++) {
      float fy = crop_pos(y1, y2, y, ch, ih);
      int64_t top, bot;
      float ly;
      if (fy < 0 || fy > (float)(ih - 1)) continue;
      top = (int64_t)floorf(fy);
      bot = (int64_t)ceilf(fy);
      ly = fy - (float)top;
      for (x = 0; x < cw; x++) {
        float fx = crop_pos(x1, x2, x, cw, iw);
        const float* gp = gv + ((b * ch + y) * cw + x) * depth;
        if (fx < 0 || fx > (float)(iw - 1)) continue;
        if (nearest) {
          int64_t cy = (int64_t)roundf(fy), cx = (int64_t)roundf(fx);
          int64_t base = ((img * ih + cy) * iw + cx) * depth;
          for (d = 0; d < depth; d++) crop_acc(dt, outp, base + d, gp[d]);
        } else {
          int64_t left = (int64_t)floorf(fx), right = (int64_t)ceilf(fx);
          float lx = fx - (float)left;
          int64_t tl = ((img * ih + top) * iw + left) * depth;
          int64_t tr = ((img * ih + top) * iw + right) * depth;
          int64_t bl = ((img * ih + bot) * iw + left) * depth;
          int64_t br = ((img * ih + bot) * iw + right) * depth;
          for (d = 0; d < depth; d++) {
            float dtop = (1 - ly) * gp[d];
            float dbot = ly * gp[d];
            crop_acc(dt, outp, tl + d, (1 - lx) * dtop);
            crop_acc(dt, outp, tr + d, lx * dtop);
            crop_acc(dt, outp, bl + d, (1 - lx) * dbot);
            crop_acc(dt, outp, br + d, lx * dbot);
          }
        }
      }
    }
  }
}

/* Element i of an image tensor as float. */
static float crop_img_at(const TF_Tensor* t, int64_t i) {
  const void* p = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)p)[i];
    case TF_DOUBLE: return (float)((const double*)p)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)p)[i]);
    case TF_UINT8: return (float)((const uint8_t*)p)[i];
    case TF_UINT16: return (float)((const uint16_t*)p)[i];
    case TF_INT8: return (float)((const int8_t*)p)[i];
    case TF_INT16: return (float)((const int16_t*)p)[i];
    case TF_INT32: return (float)((const int32_t*)p)[i];
    case TF_INT64: return (float)((const int64_t*)p)[i];
    default: return 0.0f;
  }
}

static void crop_grad_boxes_compute(tfe_kernel_context* k) {
  const TF_Tensor* g = k->inputs[0];
  const TF_Tensor* image = k->inputs[1];
  const TF_Tensor* boxes = k->inputs[2];
  const TF_Tensor* bind = k->inputs[3];
  kutil_shape_buf sb;
  int64_t nb, ch, cw, depth, batch, ih, iw, od[2], b, y, x, d;
  const int32_t* bi;
  const float* bx;
  const float* gv;
  float* ob;
  TF_Tensor* out;
  if (g->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "grads image must be 4-D%s", kutil_tshape(g, &sb));
    return;
  }
  ch = g->dims[1];
  cw = g->dims[2];
  depth = g->dims[3];
  if (ch <= 0 || cw <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "grads dimensions must be positive");
    return;
  }
  if (image->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input image must be 4-D%s", kutil_tshape(image, &sb));
    return;
  }
  batch = image->dims[0];
  ih = image->dims[1];
  iw = image->dims[2];
  if (ih <= 0 || iw <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "image dimensions must be positive");
    return;
  }
  if (image->dims[3] != depth) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "image, grads depth differ");
    return;
  }
  if (!crop_boxes_ok(k, boxes, bind, &nb)) return;
  if (g->dims[0] != nb) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "boxes and grads have incompatible shape");
    return;
  }
  od[0] = nb;
  od[1] = 4;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, od, 2);
  if (out == NULL) return;
  ob = (float*)kutil_data(out);
  memset(ob, 0, (size_t)nb * 4 * sizeof(float));
  bi = (const int32_t*)kutil_data(bind);
  if (!crop_index_ok(k, bi, nb, batch)) return;
  bx = (const float*)kutil_data(boxes);
  gv = (const float*)kutil_data(g);
  for (b = 0; b < nb; b++) {
    float y1 = bx[b * 4], x1 = bx[b * 4 + 1], y2 = bx[b * 4 + 2], x2 = bx[b * 4 + 3];
    int64_t img = bi[b];
    float hr = ch > 1 ? (float)(ih - 1) / (float)(ch - 1) : 0.0f;
    float wr = cw > 1 ? (float)(iw - 1) / (float)(cw - 1) : 0.0f;
    float hs = ch > 1 ? (y2 - y1) * hr : 0.0f;
    float ws = cw > 1 ? (x2 - x1) * wr : 0.0f;
    for (y = 0; y < ch; y++) {
      float fy = ch > 1 ? y1 * (float)(ih - 1) + (float)y * hs : 0.5f * (y1 + y2) * (float)(ih - 1);
      int64_t top, bot;
      float ly;
      if (fy < 0 || fy > (float)(ih - 1)) continue;
      top = (int64_t)floorf(fy);
      bot = (int64_t)ceilf(fy);
      ly = fy - (float)top;
      for (x = 0; x < cw; x++) {
        float fx = cw > 1 ? x1 * (float)(iw - 1) + (float)x * ws : 0.5f * (x1 + x2) * (float)(iw - 1);
        int64_t left, right;
        float lx;
        const float* gp = gv + ((b * ch + y) * cw + x) * depth;
        if (fx < 0 || fx > (float)(iw - 1)) continue;
        left = (int64_t)floorf(fx);
        right = (int64_t)ceilf(fx);
        lx = fx - (float)left;
        for (d = 0; d < depth; d++) {
          float tl = crop_img_at(image, ((img * ih + top) * iw + left) * depth + d);
          float tr = crop_img_at(image, ((img * ih + top) * iw + right) * depth + d);
          float bl = crop_img_at(image, ((img * ih + bot) * iw + left) * depth + d);
          float br = crop_img_at(image, ((img * ih + bot) * iw + right) * depth + d);
          float gyv = (1 - lx) * (bl - tl) + lx * (br - tr);
          float gxv = (1 - ly) * (tr - tl) + ly * (br - bl);
          gyv *= gp[d];
          gxv *= gp[d];
          if (ch > 1) {
            ob[b * 4 + 0] += gyv * ((float)(ih - 1) - (float)y * hr);
            ob[b * 4 + 2] += gyv * ((float)y * hr);
          } else {
            ob[b * 4 + 0] += gyv * 0.5f * (float)(ih - 1);
            ob[b * 4 + 2] += gyv * 0.5f * (float)(ih - 1);
          }
          if (cw > 1) {
            ob[b * 4 + 1] += gxv * ((float)(iw - 1) - (float)x * wr);
            ob[b * 4 + 3] += gxv * ((float)x * wr);
          } else {
            ob[b * 4 + 1] += gxv * 0.5f * (float)(iw - 1);
            ob[b * 4 + 3] += gxv * 0.5f * (float)(iw - 1);
          }
        }
      }
    }
  }
}

/* ---- RandomGammaGrad ---- */

/* psi(x) for x > 0: the recurrence up to x >= 6, then the asymptotic
 * series. */
static double rg_digamma(double x) {
  double r = 0.0, f;
  while (x < 6.0) {
    r -= 1.0 / x;
    x += 1.0;
  }
  f = 1.0 / (x * x);
  return r + log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
}

/* d sample / d alpha for one (alpha, sample) pair. */
static double rg_grad(double a, double x) {
  int n;
  if (isnan(a) || isnan(x) || a <= 0.0 || x < 0.0) return NAN;
  if (x == 0.0) return 0.0;
  if (isinf(a)) return 0.0;
  if (isinf(x)) return -0.0;
  if (x <= 1.0 || x <= a) {
    /* P = x^a e^-x / Gamma(a+1) * S, S = sum_n x^n / ((a+1)...(a+n));
     * -(dP/da) / p(x; a) = -(x / a) ((ln x - psi(a+1)) S + dS/da). */
    double c = 1.0, dc = 0.0, s = 1.0, ds = 0.0;
    for (n = 1; n < 100000; n++) {
      double r = x / (a + n);
      dc = r * (dc - c / (a + n));
      c *= r;
      s += c;
      ds += dc;
      if (c <= s * 1e-17 && fabs(dc) <= fabs(ds) * 1e-17 + 1e-300) break;
    }
    return -(x / a) * ((log(x) - rg_digamma(a + 1.0)) * s + ds);
  } else {
    /* Q = x^a e^-x / Gamma(a) * h, h Legendre's continued fraction (modified
     * Lentz), with its derivative in a carried alongside:
     * -(dP/da) / p = dQ/da / p = x ((ln x - psi(a)) h + dh/da). */
    const double tiny = 1e-300;
    double b = x + 1.0 - a, db = -1.0;
    double c = 1.0 / tiny, dcv = 0.0;
    double d = 1.0 / b, dd = -db / (b * b);
    double h = d, dh = dd;
    for (n = 1; n < 100000; n++) {
      double an = -n * (n - a), dan = n;
      double den, dden, del, ddel;
      b += 2.0;
      /* d = 1 / (an d + b) */
      den = an * d + b;
      dden = dan * d + an * dd + db;
      if (fabs(den) < tiny) den = tiny;
      d = 1.0 / den;
      dd = -dden * d * d;
      /* c = b + an / c */
      {
        double nc = b + an / c;
        double dnc = db + (dan * c - an * dcv) / (c * c);
        if (fabs(nc) < tiny) nc = tiny;
        c = nc;
        dcv = dnc;
      }
      del = d * c;
      ddel = dd * c + d * dcv;
      dh = dh * del + h * ddel;
      h *= del;
      if (fabs(del - 1.0) < 1e-17 && fabs(ddel) <= fabs(dh) * 1e-17 + 1e-300) break;
    }
    return x * ((log(x) - rg_digamma(a)) * h + dh);
  }
}

static void random_gamma_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor* ta = k->inputs[0];
  const TF_Tensor* tx = k->inputs[1];
  int dbl = ta->dtype == TF_DOUBLE;
  int ra = ta->num_dims, rx = tx->num_dims, r = ra > rx ? ra : rx, i;
  int64_t od[64], sa[64], sx[64], n, e;
  TF_Tensor* out;
  if (r > 64) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "RandomGammaGrad: rank %d is not supported", r);
    return;
  }
  /* numpy-style broadcasting of the two shapes, right-aligned */
  for (i = 0; i < r; i++) {
    int64_t da = i - (r - ra) >= 0 ? ta->dims[i - (r - ra)] : 1;
    int64_t dx = i - (r - rx) >= 0 ? tx->dims[i - (r - rx)] : 1;
    if (da != dx && da != 1 && dx != 1) {
      kutil_shape_buf b1, b2;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s", kutil_tshape(ta, &b1),
                 kutil_tshape(tx, &b2));
      return;
    }
    od[i] = da == 1 ? dx : da;
  }
  out = tfe_kernel_alloc_output(k, 0, ta->dtype, od, r);
  if (out == NULL) return;
  n = kutil_num_elements(out);
  /* An empty result needs no strides (the dims of an empty tensor may
   * multiply past int64). */
  if (n == 0) return;
  /* element strides of each input on the output's axes (0 on broadcast ones) */
  {
    int64_t st = 1;
    for (i = r - 1; i >= 0; i--) {
      int64_t da = i - (r - ra) >= 0 ? ta->dims[i - (r - ra)] : 1;
      sa[i] = da == 1 ? 0 : st;
      st *= da;
    }
    st = 1;
    for (i = r - 1; i >= 0; i--) {
      int64_t dx = i - (r - rx) >= 0 ? tx->dims[i - (r - rx)] : 1;
      sx[i] = dx == 1 ? 0 : st;
      st *= dx;
    }
  }
  for (e = 0; e < n; e++) {
    int64_t rem = e, ia = 0, ix = 0;
    double av, xv, gv;
    for (i = r - 1; i >= 0; i--) {
      int64_t q = od[i] > 0 ? rem % od[i] : 0;
      rem = od[i] > 0 ? rem / od[i] : 0;
      ia += q * sa[i];
      ix += q * sx[i];
    }
    av = dbl ? ((const double*)kutil_data(ta))[ia] : ((const float*)kutil_data(ta))[ia];
    xv = dbl ? ((const double*)kutil_data(tx))[ix] : ((const float*)kutil_data(tx))[ix];
    gv = rg_grad(av, xv);
    if (dbl) {
      ((double*)kutil_data(out))[e] = gv;
    } else {
      ((float*)kutil_data(out))[e] = (float)gv;
    }
  }
}

/* ---- ScaleAndTranslateGrad ---- */

/* The sampling kernels of ScaleAndTranslate (radius and value at
 * distance x >= 0), in the order of their names. */
static const char* const kSatNames[] = {"lanczos1", "lanczos3",  "lanczos5",
                                        "gaussian", "box",       "triangle",
                                        "keyscubic", "mitchellcubic"};

static float sat_radius(int kt) {
  static const float r[] = {1.0f, 3.0f, 5.0f, 1.5f, 1.0f, 1.0f, 2.0f, 2.0f};
  return r[kt];
}

static float sat_kernel(int kt, float x) {
  const float pi = 3.14159265359f;
  x = fabsf(x);
  switch (kt) {
    case 0:
    case 1:
    case 2: {
      float r = sat_radius(kt);
      if (x > r) return 0.0f;
      if (x <= 1e-3f) return 1.0f;
      return r * sinf(pi * x) * sinf(pi * x / r) / (pi * pi * x * x);
    }
    case 3: return x >= 1.5f ? 0.0f : expf(-x * x / (2.0f * 0.5f * 0.5f));
    case 4: return x < 0.5f ? 1.0f : (x == 0.5f ? 0.5f : 0.0f);
    case 5: return x < 1.0f ? 1.0f - x : 0.0f;
    case 6:
      if (x >= 2.0f) return 0.0f;
      if (x >= 1.0f) return ((-0.5f * x + 2.5f) * x - 4.0f) * x + 2.0f;
      return ((1.5f * x - 2.5f) * x) * x + 1.0f;
    default:
      if (x >= 2.0f) return 0.0f;
      if (x >= 1.0f) return (((-7.0f / 18.0f) * x + 2.0f) * x - 10.0f / 3.0f) * x + 16.0f / 9.0f;
      return (((7.0f / 6.0f) * x - 2.0f) * x) * x + 8.0f / 9.0f;
  }
}

/* Spans of one axis: for output i, `span` weights starting at input
 * starts[i] (zeros past the input's end). */
typedef struct sat_spans {
  int64_t span;
  int64_t* starts;
  float* w;
} sat_spans;

static void sat_free(sat_spans* sp) {
  tfe_free(sp->starts);
  tfe_free(sp->w);
  sp->starts = NULL;
  sp->w = NULL;
}

/* The forward spans: each of the out_size samples of an axis of in_size
 * pixels reads a normalized window of the kernel. 0 on failure. */
static int sat_forward_spans(tfe_kernel_context* k, int kt, int64_t out_size, int64_t in_size,
                             float scale, float translate, int antialias, sat_spans* sp) {
  float inv_scale = 1.0f / scale;
  float inv_translate = -inv_scale * translate;
  float kscale = antialias && inv_scale > 1.0f ? inv_scale : 1.0f;
  float radius = sat_radius(kt) * kscale;
  float over = 1.0f / kscale;
  double want = 2.0 * ceil((double)radius) + 1.0;
  int64_t x, nw;
  float* tmp;
  sp->span = want < (double)in_size ? (int64_t)want : in_size;
  nw = sp->span * out_size;
  if (sp->span > ((int64_t)1 << 20) || out_size > ((int64_t)1 << 31) || nw > ((int64_t)1 << 31)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "ScaleAndTranslateGrad: sampling spans too large");
    return 0;
  }
  sp->starts = (int64_t*)tfe_calloc((size_t)out_size + 1, sizeof(int64_t));
  sp->w = (float*)tfe_calloc((size_t)nw + 1, sizeof(float));
  tmp = (float*)tfe_malloc(sizeof(float) * (size_t)(sp->span + 1));
  if (sp->starts == NULL || sp->w == NULL || tmp == NULL) {
    tfe_free(tmp);
    sat_free(sp);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ScaleAndTranslateGrad");
    return 0;
  }
  for (x = 0; x < out_size; x++) {
    float sample = ((float)x + 0.5f) * inv_scale + inv_translate;
    double lo, hi;
    int64_t s0, s1, src, n = 0;
    float total = 0.0f;
    if (sample < 0 || sample > (float)in_size || isnan(sample)) continue;
    lo = ceil((double)(sample - radius - 0.5f));
    hi = floor((double)(sample + radius - 0.5f));
    s0 = lo < 0 ? 0 : (lo > (double)(in_size - 1) ? in_size - 1 : (int64_t)lo);
    s1 = (hi < 0 ? 0 : (hi > (double)(in_size - 1) ? in_size - 1 : (int64_t)hi)) + 1;
    if (s1 - s0 > sp->span) {
      tfe_free(tmp);
      sat_free(sp);
      KUTIL_FAIL(k, TF_INTERNAL, "Span is too large: %d vs %d.", (int)(s1 - s0), (int)sp->span);
      return 0;
    }
    for (src = s0; src < s1; src++) {
      float wgt = sat_kernel(kt, fabsf(((float)src + 0.5f - sample) * over));
      total += wgt;
      tmp[n++] = wgt;
    }
    if (fabsf(total) >= 1000.0f * 1.17549435e-38f) {
      float inv = 1.0f / total;
      for (src = 0; src < n; src++) sp->w[sp->span * x + src] = tmp[src] * inv;
    }
    sp->starts[x] = s0;
  }
  tfe_free(tmp);
  return 1;
}

/* The transposed spans: for input pixel i, the forward outputs that read
 * it (a contiguous run) and their weights. 0 on failure. */
static int sat_grad_spans(tfe_kernel_context* k, const sat_spans* f, int64_t out_size,
                          int64_t in_size, sat_spans* g) {
  int64_t* cnt = (int64_t*)tfe_calloc((size_t)in_size + 1, sizeof(int64_t));
  int64_t* first = (int64_t*)tfe_malloc(sizeof(int64_t) * ((size_t)in_size + 1));
  int64_t o, j, i, maxn = 0;
  if (cnt == NULL || first == NULL) {
    tfe_free(cnt);
    tfe_free(first);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ScaleAndTranslateGrad");
    return 0;
  }
  for (i = 0; i < in_size; i++) first[i] = -1;
  for (o = 0; o < out_size; o++) {
    for (j = 0; j < f->span; j++) {
      int64_t at = f->starts[o] + j;
      if (f->w[o * f->span + j] != 0.0f && at < in_size) {
        if (first[at] < 0) first[at] = o;
        cnt[at]++;
      }
    }
  }
  for (i = 0; i < in_size; i++) {
    if (cnt[i] > maxn) maxn = cnt[i];
  }
  g->span = maxn;
  g->starts = (int64_t*)tfe_calloc((size_t)in_size + 1, sizeof(int64_t));
  g->w = (float*)tfe_calloc((size_t)(maxn * in_size) + 1, sizeof(float));
  if (g->starts == NULL || g->w == NULL) {
    tfe_free(cnt);
    tfe_free(first);
    sat_free(g);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ScaleAndTranslateGrad");
    return 0;
  }
  for (i = 0; i < in_size; i++) g->starts[i] = first[i] < 0 ? 0 : first[i];
  for (o = 0; o < out_size; o++) {
    for (j = 0; j < f->span; j++) {
      int64_t at = f->starts[o] + j;
      float wgt = f->w[o * f->span + j];
      if (wgt != 0.0f && at < in_size) {
        int64_t rel = o - g->starts[at];
        if (rel >= 0 && rel < maxn) g->w[at * maxn + rel] += wgt;
      }
    }
  }
  tfe_free(cnt);
  tfe_free(first);
  return 1;
}

/* scale and translation are 2-vectors (TF's messages name them "t"). */
static int sat_pair_ok(tfe_kernel_context* k, const TF_Tensor* t) {
  kutil_shape_buf sb;
  if (t->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "t must be 1-dimensional%s", kutil_tshape(t, &sb));
    return 0;
  }
  if (t->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "t must have two elements%s", kutil_tshape(t, &sb));
    return 0;
  }
  return 1;
}

static void scale_translate_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor* g = k->inputs[0];
  const TF_Tensor* orig = k->inputs[1];
  const TF_Tensor* scale = k->inputs[2];
  const TF_Tensor* tr = k->inputs[3];
  const char* kname = "lanczos3";
  size_t klen = 8, i;
  int kt = -1, antialias = kutil_attr_bool(k, "antialias", 1);
  kutil_shape_buf sb;
  int64_t B, fh, fw, C, ih, iw, od[4], b, y, x, c, s;
  float sy, sx, ty, tx;
  sat_spans fr = {0, NULL, NULL}, fc = {0, NULL, NULL}, gr = {0, NULL, NULL},
            gc = {0, NULL, NULL};
  float* mid = NULL;
  const float* src;
  float* dst;
  TF_Tensor* out;
  if (k->attrs != NULL) tfe_attrs_get_string(k->attrs, "kernel_type", &kname, &klen, NULL);
  for (i = 0; i < sizeof kSatNames / sizeof kSatNames[0]; i++) {
    if (strlen(kSatNames[i]) == klen && memcmp(kSatNames[i], kname, klen) == 0) kt = (int)i;
  }
  if (kt < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Unrecognized kernel type: %.*s", (int)klen, kname);
    return;
  }
  if (g->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input_grad must be 4-dimensional%s",
               kutil_tshape(g, &sb));
    return;
  }
  if (orig->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "original_image must be 4-dimensional%s",
               kutil_tshape(orig, &sb));
    return;
  }
  B = g->dims[0];
  fh = g->dims[1];
  fw = g->dims[2];
  C = g->dims[3];
  ih = orig->dims[1];
  iw = orig->dims[2];
  if (ih > INT32_MAX || iw > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "original sizes must be between 0 and max int32");
    return;
  }
  od[0] = B;
  od[1] = ih;
  od[2] = iw;
  od[3] = C;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, od, 4);
  if (out == NULL) return;
  if (!sat_pair_ok(k, scale)) return;
  sy = ((const float*)kutil_data(scale))[0];
  sx = ((const float*)kutil_data(scale))[1];
  if (!(sy > 0 && sx > 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Scale must be greater than zero.");
    return;
  }
  if (!sat_pair_ok(k, tr)) return;
  ty = ((const float*)kutil_data(tr))[0];
  tx = ((const float*)kutil_data(tr))[1];
  dst = (float*)kutil_data(out);
  memset(dst, 0, (size_t)kutil_num_elements(out) * sizeof(float));
  if (kutil_num_elements(out) == 0) return;
  if (!sat_forward_spans(k, kt, fw, iw, sx, tx, antialias, &fc) ||
      !sat_grad_spans(k, &fc, fw, iw, &gc) ||
      !sat_forward_spans(k, kt, fh, ih, sy, ty, antialias, &fr) ||
      !sat_grad_spans(k, &fr, fh, ih, &gr)) {
    goto done;
  }
  mid = (float*)tfe_malloc(sizeof(float) * (size_t)(ih * fw * C + 1));
  if (mid == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ScaleAndTranslateGrad");
    goto done;
  }
  src = (const float*)kutil_data(g);
  for (b = 0; b < B; b++) {
    int64_t row = fw * C;
    /* rows: mid[y] = sum over the forward rows that read original row y */
    for (y = 0; y < ih; y++) {
      float* m = mid + y * row;
      int64_t st = gr.starts[y];
      int64_t real = (st + gr.span < fh ? st + gr.span : fh) - st;
      for (x = 0; x < row; x++) m[x] = 0.0f;
      for (s = 0; s < real; s++) {
        float wgt = gr.w[gr.span * y + s];
        const float* in_row = src + (b * fh + st + s) * row;
        for (x = 0; x < row; x++) m[x] += wgt * in_row[x];
      }
    }
    /* columns */
    for (y = 0; y < ih; y++) {
      const float* m = mid + y * row;
      float* orow = dst + (b * ih + y) * iw * C;
      for (x = 0; x < iw; x++) {
        int64_t st = gc.starts[x];
        int64_t real = (st + gc.span < fw ? st + gc.span : fw) - st;
        float* px = orow + x * C;
        for (s = 0; s < real; s++) {
          float wgt = gc.w[gc.span * x + s];
          const float* ip = m + (st + s) * C;
          for (c = 0; c < C; c++) px[c] += wgt * ip[c];
        }
      }
    }
  }
done:
  tfe_free(mid);
  sat_free(&fr);
  sat_free(&fc);
  sat_free(&gr);
  sat_free(&gc);
}

void tfe_register_cpu_image_codec_kernels(void) {
  static const TF_DataType kReal2[] = {TF_FLOAT, TF_DOUBLE};
  static const TF_DataType kFloat[] = {TF_FLOAT};
  static const TF_DataType kCropImage[] = {TF_FLOAT, TF_HALF, TF_DOUBLE};
  static const TF_DataType kCropBoxes[] = {TF_UINT8, TF_UINT16, TF_INT8, TF_INT16, TF_INT32,
                                           TF_INT64, TF_HALF,   TF_FLOAT, TF_DOUBLE};
  tfe_kutil_register("ResizeBicubicGrad", resize_bicubic_grad_compute, "T", kReal2,
                     KUTIL_COUNT(kReal2), NULL, NULL, 0);
  tfe_kutil_register("CropAndResizeGradImage", crop_grad_image_compute, "T", kCropImage,
                     KUTIL_COUNT(kCropImage), NULL, NULL, 0);
  tfe_kutil_register("CropAndResizeGradBoxes", crop_grad_boxes_compute, "T", kCropBoxes,
                     KUTIL_COUNT(kCropBoxes), NULL, NULL, 0);
  tfe_kutil_register("RandomGammaGrad", random_gamma_grad_compute, "T", kReal2,
                     KUTIL_COUNT(kReal2), NULL, NULL, 0);
  tfe_kutil_register("ScaleAndTranslateGrad", scale_translate_grad_compute, "T", kFloat,
                     KUTIL_COUNT(kFloat), NULL, NULL, 0);
}
