/* CPU kernels: the image colour ops of tf.image that live in the signal
 * group: RGBToHSV, HSVToRGB, AdjustContrastv2, AdjustHue and
 * AdjustSaturation. Checks and messages follow TensorFlow 2.21's kernels.
 *
 * RGBToHSV and HSVToRGB compute each step in the tensor's own precision
 * (half and bfloat16 round after every operation, as TF's elementwise
 * expressions do); the Adjust* kernels compute each pixel in float. */
#include <math.h>

#include "kernels/cpu/kutil.h"
#include "kernels/cpu/signal_kernels.h"

/* ---- element access in a dtype's own precision ---- */

static double col_get(TF_DataType dt, const void* d, int64_t i) {
  switch (dt) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[i]);
    default: return 0.0;
  }
}

static void col_set(TF_DataType dt, void* d, int64_t i, double v) {
  switch (dt) {
    case TF_FLOAT: ((float*)d)[i] = (float)v; break;
    case TF_DOUBLE: ((double*)d)[i] = v; break;
    case TF_HALF: ((uint16_t*)d)[i] = kutil_f32_to_f16((float)v); break;
    case TF_BFLOAT16: ((uint16_t*)d)[i] = kutil_f32_to_bf16((float)v); break;
    default: break;
  }
}

/* Rounds a value computed in double to the dtype's precision. */
static double col_round(TF_DataType dt, double v) {
  switch (dt) {
    case TF_FLOAT: return (float)v;
    case TF_HALF: return kutil_f16_to_f32(kutil_f32_to_f16((float)v));
    case TF_BFLOAT16: return kutil_bf16_to_f32(kutil_f32_to_bf16((float)v));
    default: return v;
  }
}

#define R(x) col_round(dt, (x))

/* ---- RGBToHSV / HSVToRGB ---- */

static int col_check3(tfe_kernel_context* k, const TF_Tensor* in) {
  if (in->num_dims < 1) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be at least 1D%s",
               kutil_tshape(in, &b));
    return 0;
  }
  if (in->dims[in->num_dims - 1] != 3) {
    KUTIL_FAIL(k, TF_FAILED_PRECONDITION,
               "input must have 3 channels but input only has %lld channels.",
               (long long)in->dims[in->num_dims - 1]);
    return 0;
  }
  return 1;
}

static void rgb_to_hsv_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType dt = in->dtype;
  TF_Tensor* out;
  int64_t n, i;
  const void* src;
  void* dst;
  if (!col_check3(k, in)) return;
  out = tfe_kernel_alloc_output(k, 0, dt, in->dims, in->num_dims);
  if (out == NULL) return;
  n = kutil_num_elements(in) / 3;
  src = kutil_data(in);
  dst = kutil_data(out);
  for (i = 0; i < n; i++) {
    double r = col_get(dt, src, 3 * i), g = col_get(dt, src, 3 * i + 1);
    double b = col_get(dt, src, 3 * i + 2);
    double v = r > g ? r : g, mn = r < g ? r : g, range, s, norm, h;
    if (b > v) v = b;
    if (b < mn) mn = b;
    range = R(v - mn);
    s = v > 0 ? R(range / v) : 0.0;
    norm = R(1.0 / R(6.0 * range));
    if (r == v) {
      h = R(norm * R(g - b));
    } else if (g == v) {
      h = R(R(norm * R(b - r)) + R(2.0 / 6.0));
    } else {
      h = R(R(norm * R(r - g)) + R(4.0 / 6.0));
    }
    if (!(range > 0)) h = 0.0;
    if (h < 0) h = R(h + 1.0);
    col_set(dt, dst, 3 * i, h);
    col_set(dt, dst, 3 * i + 1, s);
    col_set(dt, dst, 3 * i + 2, v);
  }
}

/* One HSV pixel to RGB in the dtype's precision, as TF's HSVToRGB: each
 * channel is v * ((1 - s) + s * d) with d a clamped piecewise-linear
 * function of h * 6 (hues outside [0, 1) clamp to the nearest end). */
static double col_clamp01(double x) {
  return x < 0 ? 0.0 : (x > 1 ? 1.0 : x);
}

static void hsv_pixel(TF_DataType dt, double h, double s, double v,
                      double* rgb) {
  double dh = R(h * 6.0);
  double dr = col_clamp01(R(fabs(R(dh - 3.0)) - 1.0));
  double dg = col_clamp01(R(2.0 - fabs(R(dh - 2.0))));
  double db = col_clamp01(R(2.0 - fabs(R(dh - 4.0))));
  double one_s = R(1.0 - s);
  rgb[0] = R(R(one_s + R(s * dr)) * v);
  rgb[1] = R(R(one_s + R(s * dg)) * v);
  rgb[2] = R(R(one_s + R(s * db)) * v);
}

static void hsv_to_rgb_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType dt = in->dtype;
  TF_Tensor* out;
  int64_t n, i;
  const void* src;
  void* dst;
  if (!col_check3(k, in)) return;
  out = tfe_kernel_alloc_output(k, 0, dt, in->dims, in->num_dims);
  if (out == NULL) return;
  n = kutil_num_elements(in) / 3;
  src = kutil_data(in);
  dst = kutil_data(out);
  for (i = 0; i < n; i++) {
    double rgb[3];
    hsv_pixel(dt, col_get(dt, src, 3 * i), col_get(dt, src, 3 * i + 1),
              col_get(dt, src, 3 * i + 2), rgb);
    col_set(dt, dst, 3 * i, rgb[0]);
    col_set(dt, dst, 3 * i + 1, rgb[1]);
    col_set(dt, dst, 3 * i + 2, rgb[2]);
  }
}

/* ---- AdjustContrastv2, AdjustHue, AdjustSaturation ---- */

/* images of rank >= 3 and a scalar float factor (input 1). */
static int col_adjust_inputs(tfe_kernel_context* k, const char* what,
                             int need3, float* factor) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* f = k->inputs[1];
  if (in->num_dims < 3) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be at least 3-D, got shape%s",
               kutil_tshape(in, &b));
    return 0;
  }
  if (f->num_dims != 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be scalar: %s", what,
               kutil_tshape(f, &b));
    return 0;
  }
  if (need3 && in->dims[in->num_dims - 1] != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input must have 3 channels but instead has %lld channels.",
               (long long)in->dims[in->num_dims - 1]);
    return 0;
  }
  *factor = ((const float*)kutil_data(f))[0];
  return 1;
}

static void adjust_contrast_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType dt = in->dtype;
  TF_Tensor* out;
  float factor;
  int64_t batch, hw, ch, bi, p, c;
  const void* src;
  void* dst;
  double* mean;
  if (!col_adjust_inputs(k, "contrast_factor", 0, &factor)) return;
  out = tfe_kernel_alloc_output(k, 0, dt, in->dims, in->num_dims);
  if (out == NULL || kutil_num_elements(in) == 0) return;
  ch = in->dims[in->num_dims - 1];
  hw = in->dims[in->num_dims - 2] * in->dims[in->num_dims - 3];
  batch = kutil_num_elements(in) / (hw * ch);
  mean = (double*)tfe_malloc((size_t)ch * sizeof(double));
  if (mean == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in AdjustContrastv2");
    return;
  }
  src = kutil_data(in);
  dst = kutil_data(out);
  for (bi = 0; bi < batch; bi++) {
    int64_t base = bi * hw * ch;
    for (c = 0; c < ch; c++) mean[c] = 0.0;
    for (p = 0; p < hw; p++) {
      for (c = 0; c < ch; c++) mean[c] += col_get(dt, src, base + p * ch + c);
    }
    for (c = 0; c < ch; c++) mean[c] = (float)(mean[c] / (double)hw);
    for (p = 0; p < hw; p++) {
      for (c = 0; c < ch; c++) {
        int64_t i = base + p * ch + c;
        float x = (float)col_get(dt, src, i);
        float mu = (float)mean[c];
        col_set(dt, dst, i, (double)((x - mu) * factor + mu));
      }
    }
  }
  tfe_free(mean);
}

/* RGB to (hue in [0, 1), saturation, value) in float. */
static void col_rgb_hsv_f(float r, float g, float b, float* h, float* s,
                          float* v) {
  float vv = r > g ? r : g, mn = r < g ? r : g, range, norm, hh;
  if (b > vv) vv = b;
  if (b < mn) mn = b;
  range = vv - mn;
  *s = vv > 0 ? range / vv : 0.0f;
  norm = 1.0f / (6.0f * range);
  if (r == vv) {
    hh = norm * (g - b);
  } else if (g == vv) {
    hh = norm * (b - r) + 2.0f / 6.0f;
  } else {
    hh = norm * (r - g) + 4.0f / 6.0f;
  }
  if (!(range > 0)) hh = 0.0f;
  if (hh < 0) hh += 1.0f;
  *h = hh;
  *v = vv;
}

static void col_hsv_rgb_f(float h, float s, float v, float* rgb) {
  float c = s * v, m = v - c, dh = h * 6.0f, fm = dh, x;
  float rr, gg, bb;
  int cat = (dh > -1e9f && dh < 1e9f) ? (int)dh : -1;
  fm = fmodf(fm, 2.0f);
  if (fm < 0) fm += 2.0f;
  x = c * (1.0f - fabsf(fm - 1.0f));
  switch (cat) {
    case 0: rr = c; gg = x; bb = 0; break;
    case 1: rr = x; gg = c; bb = 0; break;
    case 2: rr = 0; gg = c; bb = x; break;
    case 3: rr = 0; gg = x; bb = c; break;
    case 4: rr = x; gg = 0; bb = c; break;
    case 5: rr = c; gg = 0; bb = x; break;
    default: rr = gg = bb = 0; break;
  }
  rgb[0] = rr + m;
  rgb[1] = gg + m;
  rgb[2] = bb + m;
}

static void col_hue_sat(tfe_kernel_context* k, int hue) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType dt = in->dtype;
  TF_Tensor* out;
  float factor;
  int64_t n, i;
  const void* src;
  void* dst;
  if (!col_adjust_inputs(k, hue ? "delta" : "scale", 1, &factor)) return;
  out = tfe_kernel_alloc_output(k, 0, dt, in->dims, in->num_dims);
  if (out == NULL) return;
  n = kutil_num_elements(in) / 3;
  src = kutil_data(in);
  dst = kutil_data(out);
  for (i = 0; i < n; i++) {
    float h, s, v, rgb[3];
    col_rgb_hsv_f((float)col_get(dt, src, 3 * i),
                  (float)col_get(dt, src, 3 * i + 1),
                  (float)col_get(dt, src, 3 * i + 2), &h, &s, &v);
    if (hue) {
      h = fmodf(h + factor, 1.0f);
      if (h < 0) h += 1.0f;
    } else {
      s *= factor;
      if (s > 1.0f) s = 1.0f;
      if (s < 0.0f) s = 0.0f;
    }
    col_hsv_rgb_f(h, s, v, rgb);
    col_set(dt, dst, 3 * i, rgb[0]);
    col_set(dt, dst, 3 * i + 1, rgb[1]);
    col_set(dt, dst, 3 * i + 2, rgb[2]);
  }
}

static void adjust_hue_compute(tfe_kernel_context* k) { col_hue_sat(k, 1); }

static void adjust_saturation_compute(tfe_kernel_context* k) {
  col_hue_sat(k, 0);
}

void tfe_register_cpu_signal_color_kernels(void) {
  static const TF_DataType hsv[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT,
                                    TF_DOUBLE};
  /* TF registers the Adjust* CPU kernels for float only (half has GPU
   * kernels): a half image fails with NotFoundError, as in TF. */
  static const TF_DataType adj[] = {TF_FLOAT};
  tfe_kutil_register("RGBToHSV", rgb_to_hsv_compute, "T", hsv, 4, NULL, NULL,
                     0);
  tfe_kutil_register("HSVToRGB", hsv_to_rgb_compute, "T", hsv, 4, NULL, NULL,
                     0);
  tfe_kutil_register("AdjustContrastv2", adjust_contrast_compute, "T", adj, 1,
                     NULL, NULL, 0);
  tfe_kutil_register("AdjustHue", adjust_hue_compute, "T", adj, 1, NULL, NULL,
                     0);
  tfe_kutil_register("AdjustSaturation", adjust_saturation_compute, "T", adj,
                     1, NULL, NULL, 0);
}
