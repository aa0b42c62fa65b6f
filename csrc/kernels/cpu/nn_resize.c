/* Image resize CPU kernels (NHWC): ResizeBilinear (float output) and
 * ResizeNearestNeighbor, with TensorFlow's align_corners and
 * half_pixel_centers coordinate rules computed in float as TF does. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_common.h"

void tfe_register_nn_resize_kernels(void);

static float resize_scale(int64_t in, int64_t out, int align) {
  return (align && out > 1) ? (float)(in - 1) / (float)(out - 1)
                            : (float)in / (float)out;
}

/* Common checks; fills out dims. Returns 0 with status set. */
static int resize_setup(tfe_kernel_context* k, int64_t* od, int* align,
                        int* half) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* sz = k->inputs[1];
  kutil_shape_buf sb;
  int64_t h, w;
  *align = kutil_attr_bool(k, "align_corners", 0);
  *half = kutil_attr_bool(k, "half_pixel_centers", 0);
  if (*half && *align) {
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

typedef struct interp {
  int64_t lo, hi;
  float lerp;
} interp;

static void weights(int64_t out, int64_t in, float scale, int half,
                    interp* ws) {
  int64_t i;
  for (i = 0; i < out; i++) {
    float v = half ? ((float)i + 0.5f) * scale - 0.5f : (float)i * scale;
    float f = floorf(v);
    int64_t lo = (int64_t)f, hi = (int64_t)ceilf(v);
    ws[i].lo = lo < 0 ? 0 : lo;
    ws[i].hi = hi < in - 1 ? hi : in - 1;
    ws[i].lerp = v - f;
  }
}

static void resize_bilinear_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int64_t od[4], b, y, x, c;
  int align, half, owned = 0;
  interp *wy = NULL, *wx = NULL;
  const float* src = NULL;
  TF_Tensor* out;
  float* dst;
  int64_t ih, iw, C;
  if (!resize_setup(k, od, &align, &half)) return;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  ih = in->dims[1];
  iw = in->dims[2];
  C = in->dims[3];
  wy = (interp*)tfe_malloc(sizeof(interp) * (size_t)od[1]);
  wx = (interp*)tfe_malloc(sizeof(interp) * (size_t)od[2]);
  src = (const float*)nn_to_work(in, 0, &owned);
  if (wy == NULL || wx == NULL || src == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ResizeBilinear");
    goto done;
  }
  weights(od[1], ih, resize_scale(ih, od[1], align), half, wy);
  weights(od[2], iw, resize_scale(iw, od[2], align), half, wx);
  dst = (float*)kutil_data(out);
  for (b = 0; b < od[0]; b++) {
    for (y = 0; y < od[1]; y++) {
      const float* top = src + ((b * ih + wy[y].lo) * iw) * C;
      const float* bot = src + ((b * ih + wy[y].hi) * iw) * C;
      for (x = 0; x < od[2]; x++) {
        for (c = 0; c < C; c++) {
          float tl = top[wx[x].lo * C + c], tr = top[wx[x].hi * C + c];
          float bl = bot[wx[x].lo * C + c], br = bot[wx[x].hi * C + c];
          float t = tl + (tr - tl) * wx[x].lerp;
          float bo = bl + (br - bl) * wx[x].lerp;
          *dst++ = t + (bo - t) * wy[y].lerp;
        }
      }
    }
  }
done:
  tfe_free(wy);
  tfe_free(wx);
  if (owned) tfe_free((void*)src);
}

static int64_t nn_index(int64_t o, float scale, int align, int half,
                        int64_t in) {
  float v = half ? ((float)o + 0.5f) * scale : (float)o * scale;
  int64_t i = align ? (int64_t)roundf(v) : (int64_t)floorf(v);
  if (i > in - 1) i = in - 1;
  if (half && i < 0) i = 0;
  return i;
}

static void resize_nearest_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int64_t od[4], b, y, x;
  int align, half;
  TF_Tensor* out;
  size_t esz = kutil_esize(in->dtype), row;
  float sy, sx;
  char* dst;
  const char* src;
  if (!resize_setup(k, od, &align, &half)) return;
  out = tfe_kernel_alloc_output(k, 0, in->dtype, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  sy = resize_scale(in->dims[1], od[1], align);
  sx = resize_scale(in->dims[2], od[2], align);
  row = esz * (size_t)od[3];
  dst = (char*)kutil_data(out);
  src = (const char*)kutil_data(in);
  for (b = 0; b < od[0]; b++) {
    for (y = 0; y < od[1]; y++) {
      int64_t iy = nn_index(y, sy, align, half, in->dims[1]);
      for (x = 0; x < od[2]; x++) {
        int64_t ix = nn_index(x, sx, align, half, in->dims[2]);
        memcpy(dst,
               src + (size_t)((b * in->dims[1] + iy) * in->dims[2] + ix) * row,
               row);
        dst += row;
      }
    }
  }
}

void tfe_register_nn_resize_kernels(void) {
  static const TF_DataType kT[] = {TF_INT8,  TF_UINT8,    TF_INT16, TF_UINT16,
                                   TF_INT32, TF_INT64,    TF_HALF,  TF_FLOAT,
                                   TF_DOUBLE, TF_BFLOAT16};
  tfe_kutil_register("ResizeBilinear", resize_bilinear_compute, "T", kT,
                     KUTIL_COUNT(kT), NULL, NULL, 0);
  tfe_kutil_register("ResizeNearestNeighbor", resize_nearest_compute, "T", kT,
                     KUTIL_COUNT(kT), NULL, NULL, 0);
}
