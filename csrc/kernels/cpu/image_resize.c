/* Image resize CPU kernels (NHWC, float output): ResizeBicubic,
 * ResizeArea and CropAndResize, computed in float step by step as TF 2.21's
 * CPU kernels compute them, so results agree to the last bit or two:
 *
 *  - ResizeBicubic: cubic convolution with a 1025-entry coefficient table.
 *    With half_pixel_centers the Keys kernel (a = -0.5) is used and taps
 *    outside the image get weight 0 (the rest renormalised); otherwise
 *    a = -0.75 and taps are clamped to the border. Columns are first
 *    interpolated down the 4 rows, then across the 4 columns.
 *  - ResizeArea: every output pixel averages the input area it covers,
 *    partial pixels weighted by the covered fraction.
 *  - CropAndResize: boxes in normalised coordinates sampled with bilinear
 *    or nearest interpolation; samples outside the image get
 *    extrapolation_value. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/image_kernels.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_common.h"

/* ---- shared checks (TF's ImageResizerState) ---- */

static float resize_scale(int64_t in, int64_t out, int align) {
  return (align && out > 1) ? (float)(in - 1) / (float)(out - 1)
                            : (float)in / (float)out;
}

/* Checks images/size and fills the output dims; 0 with status set. */
static int resize_setup(tfe_kernel_context* k, int align, int half,
                        int64_t* od) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* sz = k->inputs[1];
  kutil_shape_buf sb;
  int64_t h, w;
  if (half && align) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "If half_pixel_centers is True, align_corners must be False.");
    return 0;
  }
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4-dimensional%s",
               kutil_tshape(in, &sb));
    return 0;
  }
  if (sz->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape_t must be 1-dimensional%s",
               kutil_tshape(sz, &sb));
    return 0;
  }
  if (sz->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "shape_t must have two elements%s",
               kutil_tshape(sz, &sb));
    return 0;
  }
  h = ((const int32_t*)kutil_data(sz))[0];
  w = ((const int32_t*)kutil_data(sz))[1];
  if (in->dims[1] > INT32_MAX || in->dims[2] > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input sizes must be between 0 and max int32");
    return 0;
  }
  if (h <= 0 || w <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "output dimensions must be positive");
    return 0;
  }
  if (in->dims[1] <= 0 || in->dims[2] <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input image must be of non-zero size");
    return 0;
  }
  od[0] = in->dims[0];
  od[1] = h;
  od[2] = w;
  od[3] = in->dims[3];
  return 1;
}

static int64_t bound(int64_t v, int64_t limit) {
  return v < 0 ? 0 : (v > limit - 1 ? limit - 1 : v);
}

/* ---- ResizeBicubic ---- */

#define CUBIC_TABLE 1024

/* Coefficient table for parameter a: entry 2i is the weight of the near
 * tap at distance i/1024, entry 2i+1 that of the far tap at 1 + i/1024. */
static void cubic_table(double a, float* t) {
  int i;
  for (i = 0; i <= CUBIC_TABLE; i++) {
    float x = (float)(i * 1.0 / CUBIC_TABLE);
    t[i * 2] = (float)(((a + 2) * x - (a + 3)) * x * x + 1);
    x += 1.0f;
    t[i * 2 + 1] = (float)(((a * x - 5 * a) * x + 8 * a) * x - 4 * a);
  }
}

typedef struct cubic_tap {
  float w[4];
  int64_t idx[4];
} cubic_tap;

static void cubic_weights(const float* table, int keys, float scale,
                          int64_t out_loc, int64_t limit, cubic_tap* t) {
  float in_f = keys ? ((float)out_loc + 0.5f) * scale - 0.5f
                    : (float)out_loc * scale;
  int64_t in_loc = (int64_t)floorf(in_f);
  float delta = in_f - (float)in_loc;
  long off = lrintf(delta * CUBIC_TABLE);
  float w[4];
  int j;
  if (off < 0) off = 0;
  if (off > CUBIC_TABLE) off = CUBIC_TABLE;
  w[0] = table[off * 2 + 1];
  w[1] = table[off * 2];
  w[2] = table[(CUBIC_TABLE - off) * 2];
  w[3] = table[(CUBIC_TABLE - off) * 2 + 1];
  for (j = 0; j < 4; j++) {
    t->idx[j] = bound(in_loc - 1 + j, limit);
    t->w[j] = w[j];
  }
  if (keys) {
    float sum;
    for (j = 0; j < 4; j++) {
      if (t->idx[j] != in_loc - 1 + j) t->w[j] = 0.0f;
    }
    sum = t->w[0] + t->w[1] + t->w[2] + t->w[3];
    if (fabsf(sum) >= 1000.0f * 1.17549435e-38f) {
      float inv = 1.0f / sum;
      for (j = 0; j < 4; j++) t->w[j] *= inv;
    }
  }
}

static void resize_bicubic_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int align = kutil_attr_bool(k, "align_corners", 0);
  int half = kutil_attr_bool(k, "half_pixel_centers", 0);
  int64_t od[4], b, y, x, c, ih, iw, C;
  float table[(CUBIC_TABLE + 1) * 2], sy, sx;
  cubic_tap* xt = NULL;
  const float* src = NULL;
  float* dst;
  int owned = 0;
  TF_Tensor* out;
  if (!resize_setup(k, align, half, od)) return;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  ih = in->dims[1];
  iw = in->dims[2];
  C = in->dims[3];
  cubic_table(half ? -0.5 : -0.75, table);
  sy = resize_scale(ih, od[1], align);
  sx = resize_scale(iw, od[2], align);
  xt = (cubic_tap*)tfe_malloc(sizeof(cubic_tap) * (size_t)od[2]);
  src = (const float*)nn_to_work(in, 0, &owned);
  if (xt == NULL || src == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ResizeBicubic");
    goto done;
  }
  for (x = 0; x < od[2]; x++) cubic_weights(table, half, sx, x, iw, &xt[x]);
  dst = (float*)kutil_data(out);
  for (b = 0; b < od[0]; b++) {
    const float* img = src + b * ih * iw * C;
    for (y = 0; y < od[1]; y++) {
      cubic_tap yt;
      const float* rows[4];
      int j;
      cubic_weights(table, half, sy, y, ih, &yt);
      for (j = 0; j < 4; j++) rows[j] = img + yt.idx[j] * iw * C;
      for (x = 0; x < od[2]; x++) {
        const cubic_tap* t = &xt[x];
        for (c = 0; c < C; c++) {
          float col[4];
          for (j = 0; j < 4; j++) {
            int64_t p = t->idx[j] * C + c;
            col[j] = rows[0][p] * yt.w[0] + rows[1][p] * yt.w[1] +
                     rows[2][p] * yt.w[2] + rows[3][p] * yt.w[3];
          }
          *dst++ = col[0] * t->w[0] + col[1] * t->w[1] + col[2] * t->w[2] +
                   col[3] * t->w[3];
        }
      }
    }
  }
done:
  tfe_free(xt);
  if (owned) tfe_free((void*)src);
}

/* ---- ResizeArea ---- */

typedef struct area_span {
  int64_t start, end;
  float start_scale, end_scale;
} area_span;

/* Weight of input cell v in the output cell [lo, hi). */
static float area_cell_scale(int64_t v, float lo, float hi, float scale) {
  if ((float)v < lo) {
    return (float)(v + 1) > hi ? scale : (float)(v + 1) - lo;
  }
  return (float)(v + 1) > hi ? hi - (float)v : 1.0f;
}

static void resize_area_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int align = kutil_attr_bool(k, "align_corners", 0);
  int64_t od[4], b, y, x, c, ih, iw, C;
  float sy, sx, scale;
  area_span* xs = NULL;
  const float* src = NULL;
  float* dst;
  int owned = 0;
  TF_Tensor* out;
  if (!resize_setup(k, align, 0, od)) return;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  ih = in->dims[1];
  iw = in->dims[2];
  C = in->dims[3];
  sy = resize_scale(ih, od[1], align);
  sx = resize_scale(iw, od[2], align);
  scale = (float)(1.0 / (sy * sx));
  xs = (area_span*)tfe_malloc(sizeof(area_span) * (size_t)od[2]);
  src = (const float*)nn_to_work(in, 0, &owned);
  if (xs == NULL || src == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ResizeArea");
    goto done;
  }
  for (x = 0; x < od[2]; x++) {
    float lo = (float)x * sx, hi = (float)(x + 1) * sx;
    xs[x].start = (int64_t)floorf(lo);
    xs[x].end = (int64_t)ceilf(hi);
    xs[x].start_scale = area_cell_scale(xs[x].start, lo, hi, sx);
    xs[x].end_scale = area_cell_scale(xs[x].end - 1, lo, hi, sx);
  }
  dst = (float*)kutil_data(out);
  for (b = 0; b < od[0]; b++) {
    const float* img = src + b * ih * iw * C;
    for (y = 0; y < od[1]; y++) {
      float lo = (float)y * sy, hi = (float)(y + 1) * sy;
      int64_t y0 = (int64_t)floorf(lo), y1 = (int64_t)ceilf(hi);
      for (x = 0; x < od[2]; x++) {
        const area_span* s = &xs[x];
        for (c = 0; c < C; c++) {
          float sum = 0.0f;
          int64_t i;
          for (i = y0; i < y1; i++) {
            const float* row = img + bound(i, ih) * iw * C;
            float ys = area_cell_scale(i, lo, hi, sy);
            float sum_y = row[bound(s->start, iw) * C + c] * s->start_scale;
            if (s->start + 1 != s->end) {
              int64_t xx;
              for (xx = s->start + 1; xx < s->end - 1; xx++) {
                sum_y += row[bound(xx, iw) * C + c];
              }
              sum_y += row[bound(s->end - 1, iw) * C + c] * s->end_scale;
            }
            sum += sum_y * ys;
          }
          *dst++ = sum * scale;
        }
      }
    }
  }
done:
  tfe_free(xs);
  if (owned) tfe_free((void*)src);
}

/* ---- CropAndResize ---- */

static void crop_and_resize_compute(tfe_kernel_context* k) {
  const TF_Tensor* image = k->inputs[0];
  const TF_Tensor* boxes = k->inputs[1];
  const TF_Tensor* bind = k->inputs[2];
  const TF_Tensor* cs = k->inputs[3];
  const char* method = "bilinear";
  size_t mlen = 8;
  float extrap = 0.0f;
  kutil_shape_buf sb;
  int64_t batch, ih, iw, depth, nb, ch, cw, od[4], i, n, b, y, x, d;
  int nearest;
  const float* bx;
  const int32_t* bi;
  const float* src = NULL;
  float* dst;
  int owned = 0;
  TF_Tensor* out;
  if (k->attrs != NULL) {
    tfe_attrs_get_string(k->attrs, "method", &method, &mlen, NULL);
    tfe_attrs_get_float(k->attrs, "extrapolation_value", &extrap, NULL);
  }
  if (strcmp(method, "bilinear") != 0 && strcmp(method, "nearest") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "method must be 'bilinear' or 'nearest'%s", method);
    return;
  }
  nearest = strcmp(method, "nearest") == 0;
  if (image->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input image must be 4-D%s",
               kutil_tshape(image, &sb));
    return;
  }
  batch = image->dims[0];
  ih = image->dims[1];
  iw = image->dims[2];
  depth = image->dims[3];
  if (ih <= 0 || iw <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "image dimensions must be positive");
    return;
  }
  if (boxes->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "boxes must be 2-D, got: %s",
               kutil_tshape(boxes, &sb));
    return;
  }
  if (bind->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "box_indices must be rank 1 but is shape %s",
               kutil_tshape(bind, &sb));
    return;
  }
  if (kutil_num_elements(boxes) == 0 && kutil_num_elements(bind) == 0) {
    nb = 0;
  } else {
    nb = boxes->dims[0];
    if (boxes->dims[1] != 4) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "boxes must have 4 columns");
      return;
    }
    if (bind->dims[0] != nb) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "box_index has incompatible shape");
      return;
    }
  }
  if (cs->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "crop_size must be 1-D%s",
               kutil_tshape(cs, &sb));
    return;
  }
  if (cs->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "crop_size must have two elements%s",
               kutil_tshape(cs, &sb));
    return;
  }
  ch = ((const int32_t*)kutil_data(cs))[0];
  cw = ((const int32_t*)kutil_data(cs))[1];
  if (ch <= 0 || cw <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "crop dimensions must be positive");
    return;
  }
  od[0] = nb;
  od[1] = ch;
  od[2] = cw;
  od[3] = depth;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, od, 4);
  if (out == NULL) return;
  bi = (const int32_t*)kutil_data(bind);
  for (i = 0; i < nb; i++) {
    if (bi[i] < 0 || bi[i] >= batch) {
      KUTIL_FAIL(k, TF_OUT_OF_RANGE,
                 "box_index has values outside [0, batch_size)");
      return;
    }
  }
  bx = (const float*)kutil_data(boxes);
  n = nb * 4;
  for (i = 0; i < n; i++) {
    if (!isfinite(bx[i])) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Boxes contains at least one element that is not finite");
      return;
    }
  }
  if (kutil_num_elements(out) == 0) return;
  src = (const float*)nn_to_work(image, 0, &owned);
  if (src == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in CropAndResize");
    return;
  }
  dst = (float*)kutil_data(out);
  for (b = 0; b < nb; b++) {
    const float y1 = bx[b * 4], x1 = bx[b * 4 + 1];
    const float y2 = bx[b * 4 + 2], x2 = bx[b * 4 + 3];
    const float* img = src + (int64_t)bi[b] * ih * iw * depth;
    const float hs =
        ch > 1 ? (y2 - y1) * (float)(ih - 1) / (float)(ch - 1) : 0.0f;
    const float ws =
        cw > 1 ? (x2 - x1) * (float)(iw - 1) / (float)(cw - 1) : 0.0f;
    for (y = 0; y < ch; y++) {
      float* orow = dst + ((b * ch + y) * cw) * depth;
      const float in_y = ch > 1 ? y1 * (float)(ih - 1) + (float)y * hs
                                : (float)(0.5 * (y1 + y2) * (double)(ih - 1));
      int64_t ty, by;
      float yl;
      /* (a NaN coordinate, from boxes whose arithmetic overflows, is
       * treated as outside the image) */
      if (!(in_y >= 0 && in_y <= (float)(ih - 1))) {
        for (i = 0; i < cw * depth; i++) orow[i] = extrap;
        continue;
      }
      ty = (int64_t)floorf(in_y);
      by = (int64_t)ceilf(in_y);
      yl = in_y - (float)ty;
      for (x = 0; x < cw; x++) {
        float* o = orow + x * depth;
        const float in_x = cw > 1 ? x1 * (float)(iw - 1) + (float)x * ws
                                  : (float)(0.5 * (x1 + x2) * (double)(iw - 1));
        if (!(in_x >= 0 && in_x <= (float)(iw - 1))) {
          for (d = 0; d < depth; d++) o[d] = extrap;
          continue;
        }
        if (nearest) {
          int64_t cx = (int64_t)roundf(in_x), cy = (int64_t)roundf(in_y);
          const float* p = img + (cy * iw + cx) * depth;
          for (d = 0; d < depth; d++) o[d] = p[d];
        } else {
          int64_t lx = (int64_t)floorf(in_x), rx = (int64_t)ceilf(in_x);
          float xl = in_x - (float)lx;
          const float* tl = img + (ty * iw + lx) * depth;
          const float* tr = img + (ty * iw + rx) * depth;
          const float* bl = img + (by * iw + lx) * depth;
          const float* br = img + (by * iw + rx) * depth;
          for (d = 0; d < depth; d++) {
            float top = tl[d] + (tr[d] - tl[d]) * xl;
            float bot = bl[d] + (br[d] - bl[d]) * xl;
            o[d] = top + (bot - top) * yl;
          }
        }
      }
    }
  }
  if (owned) tfe_free((void*)src);
}

void tfe_register_cpu_image_resize_kernels(void) {
  static const TF_DataType kResize[] = {
      TF_INT8, TF_UINT8, TF_INT16, TF_UINT16, TF_INT32,
      TF_INT64, TF_HALF, TF_FLOAT, TF_DOUBLE, TF_BFLOAT16};
  static const TF_DataType kCrop[] = {TF_UINT8, TF_UINT16, TF_INT8,
                                      TF_INT16, TF_INT32,  TF_INT64,
                                      TF_HALF,  TF_FLOAT,  TF_DOUBLE};
  tfe_kutil_register("ResizeBicubic", resize_bicubic_compute, "T", kResize,
                     KUTIL_COUNT(kResize), NULL, NULL, 0);
  tfe_kutil_register("ResizeArea", resize_area_compute, "T", kResize,
                     KUTIL_COUNT(kResize), NULL, NULL, 0);
  tfe_kutil_register("CropAndResize", crop_and_resize_compute, "T", kCrop,
                     KUTIL_COUNT(kCrop), NULL, NULL, 0);
}
