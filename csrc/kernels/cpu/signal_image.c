/* CPU kernels of the signal group for tf.image: ExtractImagePatches,
 * NonMaxSuppressionWithOverlaps, CombinedNonMaxSuppression,
 * DrawBoundingBoxes(V2), ScaleAndTranslate and ExtractGlimpseV2. Checks, messages and
 * numerics follow TensorFlow 2.21's kernels (float arithmetic where TF
 * computes in float). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "kernels/cpu/kutil.h"
#include "kernels/cpu/signal_kernels.h"

/* Philox blocks SampleDistortedBoundingBoxV2 reserves per call. */
#ifndef SD_RESERVE_BLOCKS
#define SD_RESERVE_BLOCKS(attempts) ((uint64_t)(attempts))
#endif

/* ---- ExtractImagePatches ---- */

/* Output size and leading padding of one spatial dim (TF's
 * GetWindowedOutputSize); 0 with the status set on failure. */
static int eip_dim(tfe_kernel_context* k, int64_t in, int64_t ksize,
                   int64_t rate, int64_t stride, int same, int64_t* out,
                   int64_t* pad) {
  int64_t eff = (ksize - 1) * rate + 1;
  if (same) {
    int64_t need;
    *out = (in + stride - 1) / stride;
    need = (*out - 1) * stride + eff - in;
    if (need < 0) need = 0;
    *pad = need / 2;
  } else {
    *out = (in - eff + stride) / stride;
    *pad = 0;
    if (*out < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Computed output size would be negative: %lld [input_size: "
                 "%lld, effective_filter_size: %lld, stride: %lld]",
                 (long long)*out, (long long)in, (long long)eff,
                 (long long)stride);
      return 0;
    }
  }
  return 1;
}

static void extract_image_patches_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const int64_t *ks, *st, *rt;
  int nks, nst, nrt, same;
  const char* padding = NULL;
  size_t plen = 0;
  int64_t batch, rows, cols, depth, orows, ocols, prow, pcol, od[4];
  int64_t b, i, j, r, c;
  size_t esz;
  TF_Tensor* out;
  const char* src;
  char* dst;
  kutil_shape_buf sb;
  if (!kutil_attr_int32_list(k, "ksizes", &ks, &nks) ||
      !kutil_attr_int32_list(k, "strides", &st, &nst) ||
      !kutil_attr_int32_list(k, "rates", &rt, &nrt)) {
    return;
  }
  if (nks != 4 || ks[0] != 1 || ks[3] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Only support ksizes across space.");
    return;
  }
  if (nst != 4 || st[0] != 1 || st[3] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Only support strides across space.");
    return;
  }
  if (nrt != 4 || rt[0] != 1 || rt[3] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Only support rates across space.");
    return;
  }
  if (ks[1] <= 0 || ks[2] <= 0) {
    KUTIL_FAIL(k, TF_OUT_OF_RANGE, "ksizes is out of range.");
    return;
  }
  if (st[1] <= 0 || st[2] <= 0) {
    KUTIL_FAIL(k, TF_OUT_OF_RANGE, "strides is out of range.");
    return;
  }
  if (rt[1] <= 0 || rt[2] <= 0) {
    KUTIL_FAIL(k, TF_OUT_OF_RANGE, "rates is out of range.");
    return;
  }
  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, "padding", &padding, &plen, NULL)) {
    padding = "VALID";
    plen = 5;
  }
  same = plen == 4 && memcmp(padding, "SAME", 4) == 0;
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4-dimensional%s",
               kutil_tshape(in, &sb));
    return;
  }
  batch = in->dims[0];
  rows = in->dims[1];
  cols = in->dims[2];
  depth = in->dims[3];
  if (!eip_dim(k, rows, ks[1], rt[1], st[1], same, &orows, &prow)) return;
  if (!eip_dim(k, cols, ks[2], rt[2], st[2], same, &ocols, &pcol)) return;
  od[0] = batch;
  od[1] = orows;
  od[2] = ocols;
  if (!tfe_checked_mul_i64(ks[1] * ks[2], depth, &od[3])) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "ExtractImagePatches: output too large");
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, in->dtype, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  esz = kutil_esize(in->dtype);
  src = (const char*)kutil_data(in);
  dst = (char*)kutil_data(out);
  for (b = 0; b < batch; b++) {
    for (i = 0; i < orows; i++) {
      for (j = 0; j < ocols; j++) {
        for (r = 0; r < ks[1]; r++) {
          int64_t y = i * st[1] - prow + r * rt[1];
          for (c = 0; c < ks[2]; c++) {
            int64_t x = j * st[2] - pcol + c * rt[2];
            size_t n = (size_t)depth * esz;
            if (y < 0 || y >= rows || x < 0 || x >= cols) {
              memset(dst, 0, n);
            } else {
              memcpy(dst, src + (size_t)(((b * rows + y) * cols + x) * depth) * esz,
                     n);
            }
            dst += n;
          }
        }
      }
    }
  }
}

/* ---- NonMaxSuppressionWithOverlaps ---- */

typedef struct ov_cand {
  int32_t index;
  float score;
} ov_cand;

/* Best score first; ties: lower index first (TF's queue order). */
static int ov_cmp(const void* a, const void* b) {
  const ov_cand* x = (const ov_cand*)a;
  const ov_cand* y = (const ov_cand*)b;
  if (x->score != y->score) return x->score > y->score ? -1 : 1;
  return x->index < y->index ? -1 : (x->index > y->index);
}

static int img_scalar(tfe_kernel_context* k, int i, const char* what) {
  kutil_shape_buf sb;
  if (k->inputs[i]->num_dims == 0) return 1;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be 0-D, got shape %s", what,
             kutil_tshape(k->inputs[i], &sb));
  return 0;
}

static void nms_overlaps_compute(tfe_kernel_context* k) {
  const TF_Tensor* ov = k->inputs[0];
  const TF_Tensor* sc = k->inputs[1];
  int32_t max_out;
  float thr, score_thr;
  int64_t n, i, j, ncand = 0, nsel = 0;
  const float *o, *s;
  ov_cand* cand;
  int32_t* sel;
  TF_Tensor* out;
  kutil_shape_buf sb;
  int64_t od[1];
  if (!img_scalar(k, 2, "max_output_size")) return;
  if (!img_scalar(k, 3, "overlap_threshold")) return;
  if (!img_scalar(k, 4, "score_threshold")) return;
  max_out = *(const int32_t*)kutil_data(k->inputs[2]);
  thr = *(const float*)kutil_data(k->inputs[3]);
  score_thr = *(const float*)kutil_data(k->inputs[4]);
  if (ov->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "overlaps must be 2-D%s",
               kutil_tshape(ov, &sb));
    return;
  }
  if (ov->dims[0] != ov->dims[1]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "overlaps must be square%s",
               kutil_tshape(ov, &sb));
    return;
  }
  n = ov->dims[0];
  if (sc->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "scores must be 1-D%s (Shape must be rank 1 but is rank %d)",
               kutil_tshape(sc, &sb), sc->num_dims);
    return;
  }
  if (sc->dims[0] != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "scores has incompatible shape (Dimensions must be equal, but "
               "are %lld and %lld)",
               (long long)n, (long long)sc->dims[0]);
    return;
  }
  if (max_out < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "output size must be non-negative");
    return;
  }
  if (n > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "too many boxes: %lld", (long long)n);
    return;
  }
  o = (const float*)kutil_data(ov);
  s = (const float*)kutil_data(sc);
  cand = (ov_cand*)tfe_malloc(sizeof(ov_cand) * (size_t)(n + 1));
  sel = (int32_t*)tfe_malloc(sizeof(int32_t) * (size_t)(n + 1));
  if (cand == NULL || sel == NULL) {
    tfe_free(cand);
    tfe_free(sel);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "out of memory in NonMaxSuppressionWithOverlaps");
    return;
  }
  for (i = 0; i < n; i++) {
    if (s[i] > score_thr) {
      cand[ncand].index = (int32_t)i;
      cand[ncand].score = s[i];
      ncand++;
    }
  }
  qsort(cand, (size_t)ncand, sizeof(ov_cand), ov_cmp);
  for (i = 0; i < ncand && nsel < max_out; i++) {
    int keep = 1;
    for (j = nsel - 1; j >= 0; j--) {
      if (o[(int64_t)cand[i].index * n + sel[j]] > thr) {
        keep = 0;
        break;
      }
    }
    if (keep) sel[nsel++] = cand[i].index;
  }
  od[0] = nsel;
  out = tfe_kernel_alloc_output(k, 0, TF_INT32, od, 1);
  if (out != NULL && nsel > 0) {
    memcpy(kutil_data(out), sel, sizeof(int32_t) * (size_t)nsel);
  }
  tfe_free(cand);
  tfe_free(sel);
}

/* ---- CombinedNonMaxSuppression ---- */

typedef struct cnms_res {
  int32_t box;
  float score;
  int32_t cls;
  float coords[4];
} cnms_res;

static int cnms_cmp(const void* a, const void* b) {
  const cnms_res* x = (const cnms_res*)a;
  const cnms_res* y = (const cnms_res*)b;
  if (x->score != y->score) return x->score > y->score ? -1 : 1;
  /* deterministic order for ties: class, then box */
  if (x->cls != y->cls) return x->cls < y->cls ? -1 : 1;
  return x->box < y->box ? -1 : (x->box > y->box);
}

static float cnms_iou(const float* p, const float* q) {
  float ymin_i = fminf(p[0], p[2]), xmin_i = fminf(p[1], p[3]);
  float ymax_i = fmaxf(p[0], p[2]), xmax_i = fmaxf(p[1], p[3]);
  float ymin_j = fminf(q[0], q[2]), xmin_j = fminf(q[1], q[3]);
  float ymax_j = fmaxf(q[0], q[2]), xmax_j = fmaxf(q[1], q[3]);
  float area_i = (ymax_i - ymin_i) * (xmax_i - xmin_i);
  float area_j = (ymax_j - ymin_j) * (xmax_j - xmin_j);
  float iy, ix, inter;
  if (area_i <= 0 || area_j <= 0) return 0.0f;
  iy = fminf(ymax_i, ymax_j) - fmaxf(ymin_i, ymin_j);
  ix = fminf(xmax_i, xmax_j) - fmaxf(xmin_i, xmin_j);
  inter = (iy > 0 ? iy : 0.0f) * (ix > 0 ? ix : 0.0f);
  return inter / (area_i + area_j - inter);
}

static void combined_nms_compute(tfe_kernel_context* k) {
  const TF_Tensor* boxes = k->inputs[0];
  const TF_Tensor* scores = k->inputs[1];
  int pad_per_class = kutil_attr_bool(k, "pad_per_class", 0);
  int clip = kutil_attr_bool(k, "clip_boxes", 1);
  int32_t per_class, max_total;
  float iou_thr, score_thr;
  int64_t batch, nboxes, q, ncls, out_size, b, c, i, j;
  int64_t dims3[3], dims2[2], dims1[1];
  TF_Tensor *ob, *os, *oc, *ov;
  kutil_shape_buf sb;
  cnms_res* res = NULL;
  ov_cand* cand = NULL;
  int32_t* sel = NULL;
  int64_t cap;
  if (boxes->num_dims < 1 || scores->num_dims < 1 ||
      boxes->dims[0] != scores->dims[0]) {
    if (boxes->num_dims >= 1 && scores->num_dims >= 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "boxes and scores must have same batch size");
      return;
    }
  }
  if (!img_scalar(k, 2, "max_size_per_class")) return;
  per_class = *(const int32_t*)kutil_data(k->inputs[2]);
  if (per_class <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "max_size_per_class must be positive");
    return;
  }
  if (!img_scalar(k, 3, "max_total_size")) return;
  max_total = *(const int32_t*)kutil_data(k->inputs[3]);
  if (max_total <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "max_total_size must be > 0");
    return;
  }
  if (!img_scalar(k, 4, "iou_threshold")) return;
  iou_thr = *(const float*)kutil_data(k->inputs[4]);
  if (!img_scalar(k, 5, "score_threshold")) return;
  score_thr = *(const float*)kutil_data(k->inputs[5]);
  if (!(iou_thr >= 0.0f && iou_thr <= 1.0f)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "iou_threshold must be in [0, 1]");
    return;
  }
  if (boxes->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "boxes must be 4-D%s",
               kutil_tshape(boxes, &sb));
    return;
  }
  if (scores->num_dims != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "scores must be 3-D%s",
               kutil_tshape(scores, &sb));
    return;
  }
  if (boxes->dims[0] != scores->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "boxes and scores must have same batch size");
    return;
  }
  batch = boxes->dims[0];
  nboxes = boxes->dims[1];
  q = boxes->dims[2];
  ncls = scores->dims[2];
  if (q != 1 && q != ncls) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "third dimension of boxes must be either 1 or num classes");
    return;
  }
  if (boxes->dims[3] != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "boxes must have 4 columns");
    return;
  }
  if (scores->dims[1] != nboxes) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "scores has incompatible shape (Dimensions must be equal, but "
               "are %lld and %lld)",
               (long long)nboxes, (long long)scores->dims[1]);
    return;
  }
  if (nboxes > INT32_MAX || ncls > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "too many boxes or classes");
    return;
  }
  out_size = max_total;
  if (pad_per_class && (int64_t)per_class * ncls < out_size) {
    out_size = (int64_t)per_class * ncls;
  }
  /* TF only warns about huge sizes; tfe refuses outputs over 1 GiB. */
  if ((double)batch * (double)out_size * 16.0 > (double)(1 << 30)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "CombinedNonMaxSuppression: max_total_size %d gives an output "
               "too large to allocate",
               (int)max_total);
    return;
  }
  dims3[0] = dims2[0] = dims1[0] = batch;
  dims3[1] = dims2[1] = out_size;
  dims3[2] = 4;
  ob = tfe_kernel_alloc_output(k, 0, TF_FLOAT, dims3, 3);
  os = ob ? tfe_kernel_alloc_output(k, 1, TF_FLOAT, dims2, 2) : NULL;
  oc = os ? tfe_kernel_alloc_output(k, 2, TF_FLOAT, dims2, 2) : NULL;
  ov = oc ? tfe_kernel_alloc_output(k, 3, TF_INT32, dims1, 1) : NULL;
  if (ov == NULL) return;
  memset(kutil_data(ob), 0, TF_TensorByteSize(ob));
  memset(kutil_data(os), 0, TF_TensorByteSize(os));
  memset(kutil_data(oc), 0, TF_TensorByteSize(oc));
  memset(kutil_data(ov), 0, TF_TensorByteSize(ov));
  cap = per_class < nboxes ? per_class : nboxes;
  res = (cnms_res*)tfe_malloc(sizeof(cnms_res) * (size_t)(cap * ncls + 1));
  cand = (ov_cand*)tfe_malloc(sizeof(ov_cand) * (size_t)(nboxes + 1));
  sel = (int32_t*)tfe_malloc(sizeof(int32_t) * (size_t)(cap + 1));
  if (res == NULL || cand == NULL || sel == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "out of memory in CombinedNonMaxSuppression");
    goto done;
  }
  for (b = 0; b < batch; b++) {
    const float* bx = (const float*)kutil_data(boxes) + b * nboxes * q * 4;
    const float* sc = (const float*)kutil_data(scores) + b * nboxes * ncls;
    int64_t nres = 0, ndet = 0;
    for (c = 0; c < ncls; c++) {
      int64_t ncand = 0, nsel = 0, cb = q > 1 ? c : 0;
      for (i = 0; i < nboxes; i++) {
        float s = sc[i * ncls + c];
        if (s > score_thr) {
          cand[ncand].index = (int32_t)i;
          cand[ncand].score = s;
          ncand++;
        }
      }
      qsort(cand, (size_t)ncand, sizeof(ov_cand), ov_cmp);
      for (i = 0; i < ncand && nsel < per_class; i++) {
        const float* p = bx + ((int64_t)cand[i].index * q + cb) * 4;
        int keep = 1;
        for (j = nsel - 1; j >= 0; j--) {
          if (cnms_iou(p, bx + ((int64_t)sel[j] * q + cb) * 4) > iou_thr) {
            keep = 0;
            break;
          }
        }
        if (keep) {
          cnms_res* r = &res[nres++];
          r->box = cand[i].index;
          r->score = cand[i].score;
          r->cls = (int32_t)c;
          memcpy(r->coords, p, sizeof r->coords);
          sel[nsel++] = cand[i].index;
        }
      }
    }
    qsort(res, (size_t)nres, sizeof(cnms_res), cnms_cmp);
    for (i = 0; i < nres && ndet < out_size; i++) {
      float* dst = (float*)kutil_data(ob) + (b * out_size + ndet) * 4;
      for (j = 0; j < 4; j++) {
        float v = res[i].coords[j];
        if (clip) v = fmaxf(fminf(v, 1.0f), 0.0f);
        dst[j] = v;
      }
      ((float*)kutil_data(os))[b * out_size + ndet] = res[i].score;
      ((float*)kutil_data(oc))[b * out_size + ndet] = (float)res[i].cls;
      ndet++;
    }
    ((int32_t*)kutil_data(ov))[b] = (int32_t)ndet;
  }
done:
  tfe_free(res);
  tfe_free(cand);
  tfe_free(sel);
}

/* ---- DrawBoundingBoxes, DrawBoundingBoxesV2 ---- */

/* float -> int64 as x86's conversion does it: NaN and values out of range
 * become INT64_MIN. */
static int64_t db_f2i(float v) {
  if (!(v > -9.2e18f && v < 9.2e18f)) return INT64_MIN;
  return (int64_t)v;
}

static const float kDefaultColors[10][4] = {
    {1, 1, 0, 1},     {0, 0, 1, 1},   {1, 0, 0, 1},   {0, 1, 0, 1},
    {0.5, 0, 0.5, 1}, {0.5, 0.5, 0, 1}, {0.5, 0, 0, 1}, {0, 0, 0.5, 1},
    {0, 1, 1, 1},     {1, 0, 1, 1}};

static void draw_boxes_compute(tfe_kernel_context* k) {
  const TF_Tensor* img = k->inputs[0];
  const TF_Tensor* boxes = k->inputs[1];
  const TF_Tensor* colors = k->num_inputs > 2 ? k->inputs[2] : NULL;
  int64_t batch, h, w, depth, nb, ncol, b, bb, i, j, ch;
  const float* ctab;
  float* gray_tab = NULL;
  int64_t cstride;
  TF_Tensor* out;
  int half = img->dtype == TF_HALF;
  kutil_shape_buf sb;
  if (img->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "The rank of the images should be 4");
    return;
  }
  if (boxes->num_dims != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The rank of the boxes tensor should be 3");
    return;
  }
  if (img->dims[0] != boxes->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "The batch sizes should be the same");
    return;
  }
  batch = img->dims[0];
  h = img->dims[1];
  w = img->dims[2];
  depth = img->dims[3];
  if (boxes->dims[2] != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The size of the third dimension of the box must be 4. "
               "Received: %lld",
               (long long)boxes->dims[2]);
    return;
  }
  nb = boxes->dims[1];
  ctab = &kDefaultColors[0][0];
  cstride = 4;
  ncol = 10;
  if (colors != NULL) {
    if (colors->num_dims != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "colors must be a 2-D matrix%s",
                 kutil_tshape(colors, &sb));
      return;
    }
    if (colors->dims[1] < depth) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "colors must have equal or more channels than the image "
                 "provided: %s",
                 kutil_tshape(colors, &sb));
      return;
    }
    if (kutil_num_elements(colors) > 0) {
      ctab = (const float*)kutil_data(colors);
      cstride = colors->dims[1];
      ncol = colors->dims[0];
    }
  }
  if (depth != 1 && depth != 3 && depth != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)");
    return;
  }
  if (depth == 1 && ctab == &kDefaultColors[0][0]) {
    /* the default table draws every box in white on grayscale images */
    gray_tab = (float*)tfe_malloc(sizeof kDefaultColors);
    if (gray_tab == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      return;
    }
    memcpy(gray_tab, kDefaultColors, sizeof kDefaultColors);
    for (i = 0; i < 10; i++) gray_tab[i * 4] = 1.0f;
    ctab = gray_tab;
  }
  out = tfe_kernel_alloc_output(k, 0, img->dtype, img->dims, 4);
  if (out == NULL) {
    tfe_free(gray_tab);
    return;
  }
  memcpy(kutil_data(out), kutil_data(img), TF_TensorByteSize(img));
  for (b = 0; b < batch; b++) {
    for (bb = 0; bb < nb; bb++) {
      const float* bx = (const float*)kutil_data(boxes) + (b * nb + bb) * 4;
      const float* color = ctab + (bb % ncol) * cstride;
      int64_t y0 = db_f2i(bx[0] * (float)(h - 1));
      int64_t x0 = db_f2i(bx[1] * (float)(w - 1));
      int64_t y1 = db_f2i(bx[2] * (float)(h - 1));
      int64_t x1 = db_f2i(bx[3] * (float)(w - 1));
      int64_t y0c = y0 < 0 ? 0 : y0, y1c = y1 > h - 1 ? h - 1 : y1;
      int64_t x0c = x0 < 0 ? 0 : x0, x1c = x1 > w - 1 ? w - 1 : x1;
      if (y0 > y1 || x0 > x1) continue;        /* inverted */
      if (y0 >= h || y1 < 0 || x0 >= w || x1 < 0) continue; /* outside */
#define DB_PUT(yy, xx)                                                     \
  do {                                                                     \
    int64_t base_ = ((b * h + (yy)) * w + (xx)) * depth;                   \
    for (ch = 0; ch < depth; ch++) {                                       \
      if (half) {                                                          \
        ((uint16_t*)kutil_data(out))[base_ + ch] = kutil_f32_to_f16(color[ch]); \
      } else {                                                             \
        ((float*)kutil_data(out))[base_ + ch] = color[ch];                 \
      }                                                                    \
    }                                                                      \
  } while (0)
      if (y0 >= 0) {
        for (j = x0c; j <= x1c; j++) DB_PUT(y0, j);
      }
      if (y1 < h) {
        for (j = x0c; j <= x1c; j++) DB_PUT(y1, j);
      }
      if (x0 >= 0) {
        for (i = y0c; i <= y1c; i++) DB_PUT(i, x0);
      }
      if (x1 < w) {
        for (i = y0c; i <= y1c; i++) DB_PUT(i, x1);
      }
#undef DB_PUT
    }
  }
  tfe_free(gray_tab);
}

/* ---- ScaleAndTranslate ---- */

enum {
  ST_LANCZOS1,
  ST_LANCZOS3,
  ST_LANCZOS5,
  ST_GAUSSIAN,
  ST_BOX,
  ST_TRIANGLE,
  ST_KEYSCUBIC,
  ST_MITCHELLCUBIC
};

static const char* const kStKernels[] = {"lanczos1", "lanczos3",  "lanczos5",
                                         "gaussian", "box",       "triangle",
                                         "keyscubic", "mitchellcubic"};

static float st_radius(int kt) {
  switch (kt) {
    case ST_LANCZOS1: return 1.0f;
    case ST_LANCZOS3: return 3.0f;
    case ST_LANCZOS5: return 5.0f;
    case ST_GAUSSIAN: return 1.5f; /* 3 sigma, sigma 0.5 */
    case ST_BOX:
    case ST_TRIANGLE: return 1.0f;
    default: return 2.0f;
  }
}

static float st_kernel(int kt, float x) {
  const float pi = 3.14159265359f;
  x = fabsf(x);
  switch (kt) {
    case ST_LANCZOS1:
    case ST_LANCZOS3:
    case ST_LANCZOS5: {
      float r = st_radius(kt);
      if (x > r) return 0.0f;
      if (x <= 1e-3f) return 1.0f;
      return r * sinf(pi * x) * sinf(pi * x / r) / (pi * pi * x * x);
    }
    case ST_GAUSSIAN:
      if (x >= 1.5f) return 0.0f;
      return expf(-x * x / (2.0f * 0.5f * 0.5f));
    case ST_BOX:
      if (x < 0.5f) return 1.0f;
      if (x == 0.5f) return 0.5f;
      return 0.0f;
    case ST_TRIANGLE: return x < 1.0f ? 1.0f - x : 0.0f;
    case ST_KEYSCUBIC:
      if (x >= 2.0f) return 0.0f;
      if (x >= 1.0f) return ((-0.5f * x + 2.5f) * x - 4.0f) * x + 2.0f;
      return ((1.5f * x - 2.5f) * x) * x + 1.0f;
    default: /* mitchellcubic */
      if (x >= 2.0f) return 0.0f;
      if (x >= 1.0f) {
        return (((-7.0f / 18.0f) * x + 2.0f) * x - 10.0f / 3.0f) * x +
               16.0f / 9.0f;
      }
      return (((7.0f / 6.0f) * x - 2.0f) * x) * x + 8.0f / 9.0f;
  }
}

typedef struct st_spans {
  int64_t span;
  int32_t* starts;
  float* weights; /* span * out_size */
} st_spans;

/* Sampling spans of one dim (TF's ComputeSpansCore). 0 on failure. */
static int st_compute_spans(tfe_kernel_context* k, int kt, int64_t out_size,
                            int64_t in_size, float scale, float translate,
                            int antialias, st_spans* sp) {
  float inv_scale = 1.0f / scale;
  float inv_translate = -inv_scale * translate;
  float kscale = antialias ? (inv_scale > 1.0f ? inv_scale : 1.0f) : 1.0f;
  float radius = st_radius(kt) * kscale;
  float one_over_kscale = 1.0f / kscale;
  double want = 2.0 * ceil((double)radius) + 1.0;
  int64_t x, nw;
  float* tmp;
  sp->span = want < (double)in_size ? (int64_t)want : in_size;
  if (!tfe_checked_mul_i64(sp->span, out_size, &nw) ||
      nw > ((int64_t)1 << 34)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "ScaleAndTranslate: sampling spans too large");
    return 0;
  }
  sp->starts = (int32_t*)tfe_calloc((size_t)out_size + 1, sizeof(int32_t));
  sp->weights = (float*)tfe_calloc((size_t)nw + 1, sizeof(float));
  tmp = (float*)tfe_malloc(sizeof(float) * (size_t)(sp->span + 1));
  if (sp->starts == NULL || sp->weights == NULL || tmp == NULL) {
    tfe_free(tmp);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ScaleAndTranslate");
    return 0;
  }
  for (x = 0; x < out_size; x++) {
    float col_f = (float)x + 0.5f;
    float sample_f = col_f * inv_scale + inv_translate;
    double ds, de;
    int64_t s0, s1, src, n = 0;
    float total = 0.0f;
    if (sample_f < 0 || sample_f > (float)in_size || isnan(sample_f)) {
      sp->starts[x] = 0;
      continue;
    }
    ds = ceil((double)(sample_f - radius - 0.5f));
    de = floor((double)(sample_f + radius - 0.5f));
    s0 = ds < 0 ? 0 : (ds > (double)(in_size - 1) ? in_size - 1 : (int64_t)ds);
    s1 = de < 0 ? 0 : (de > (double)(in_size - 1) ? in_size - 1 : (int64_t)de);
    s1 += 1;
    if (s1 - s0 > sp->span) {
      tfe_free(tmp);
      KUTIL_FAIL(k, TF_INTERNAL, "Span is too large: %d vs %d.",
                 (int)(s1 - s0), (int)sp->span);
      return 0;
    }
    for (src = s0; src < s1; src++) {
      float pos = (float)src + 0.5f - sample_f;
      float wgt = st_kernel(kt, fabsf(pos * one_over_kscale));
      total += wgt;
      tmp[n++] = wgt;
    }
    if (fabsf(total) >= 1000.0f * 1.17549435e-38f) {
      float inv = 1.0f / total;
      for (src = 0; src < n; src++) sp->weights[sp->span * x + src] = tmp[src] * inv;
    }
    sp->starts[x] = (int32_t)s0;
  }
  tfe_free(tmp);
  return 1;
}

static float st_get(const TF_Tensor* t, int64_t i) {
  const void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return (float)((const double*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[i]);
    case TF_INT8: return ((const int8_t*)d)[i];
    case TF_UINT8: return ((const uint8_t*)d)[i];
    case TF_INT16: return ((const int16_t*)d)[i];
    case TF_UINT16: return ((const uint16_t*)d)[i];
    case TF_INT32: return (float)((const int32_t*)d)[i];
    case TF_INT64: return (float)((const int64_t*)d)[i];
    default: return 0.0f;
  }
}

static void scale_translate_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* size = k->inputs[1];
  const TF_Tensor* scale = k->inputs[2];
  const TF_Tensor* tr = k->inputs[3];
  const char* kname = NULL;
  size_t klen = 0;
  int kt = -1, antialias = kutil_attr_bool(k, "antialias", 1);
  int64_t batch, ih, iw, ch, oh, ow, od[4], b, y, x, c, s;
  float sy, sx, ty, tx;
  st_spans rows = {0, NULL, NULL}, cols = {0, NULL, NULL};
  float* mid = NULL;
  float* outp;
  TF_Tensor* out;
  kutil_shape_buf sb;
  size_t i;
  if (k->attrs != NULL &&
      tfe_attrs_get_string(k->attrs, "kernel_type", &kname, &klen, NULL)) {
    for (i = 0; i < sizeof kStKernels / sizeof kStKernels[0]; i++) {
      if (strlen(kStKernels[i]) == klen &&
          memcmp(kStKernels[i], kname, klen) == 0) {
        kt = (int)i;
      }
    }
  } else {
    kt = ST_LANCZOS3;
    kname = "lanczos3";
    klen = 8;
  }
  if (kt < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Unrecognized kernel type: %.*s",
               (int)klen, kname);
    return;
  }
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4-dimensional%s",
               kutil_tshape(in, &sb));
    return;
  }
  if (size->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "output_shape_t must be 1-dimensional%s",
               kutil_tshape(size, &sb));
    return;
  }
  if (size->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "output_shape_t must have two elements%s",
               kutil_tshape(size, &sb));
    return;
  }
  oh = ((const int32_t*)kutil_data(size))[0];
  ow = ((const int32_t*)kutil_data(size))[1];
  batch = in->dims[0];
  ih = in->dims[1];
  iw = in->dims[2];
  ch = in->dims[3];
  if (ih > INT32_MAX || iw > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input sizes must be between 0 and max int32");
    return;
  }
  if (oh <= 0 || ow <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "output dimensions must be positive");
    return;
  }
  if (ch <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "image must have at least one channel");
    return;
  }
  if (ih <= 0 || iw <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input image must be of non-zero size");
    return;
  }
  if (scale->num_dims != 1 || scale->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "scale must be a 1D tensor with 2 elements");
    return;
  }
  sy = ((const float*)kutil_data(scale))[0];
  sx = ((const float*)kutil_data(scale))[1];
  if (!(sy > 0 && sx > 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Scale must be greater than zero.");
    return;
  }
  if (tr->num_dims != 1 || tr->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "translation must be a 1D tensor with 2 elements");
    return;
  }
  ty = ((const float*)kutil_data(tr))[0];
  tx = ((const float*)kutil_data(tr))[1];
  od[0] = batch;
  od[1] = oh;
  od[2] = ow;
  od[3] = ch;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  if (!st_compute_spans(k, kt, oh, ih, sy, ty, antialias, &rows) ||
      !st_compute_spans(k, kt, ow, iw, sx, tx, antialias, &cols)) {
    goto done;
  }
  {
    int64_t nmid;
    if (!tfe_checked_mul_i64(oh * iw, ch, &nmid)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "ScaleAndTranslate: too large");
      goto done;
    }
    mid = (float*)tfe_malloc(sizeof(float) * (size_t)(nmid + 1));
    if (mid == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                 "out of memory in ScaleAndTranslate");
      goto done;
    }
  }
  outp = (float*)kutil_data(out);
  for (b = 0; b < batch; b++) {
    int64_t in_base = b * ih * iw * ch;
    int64_t row_sz = iw * ch;
    /* rows: mid[y] = sum_s w * in[start + s] */
    for (y = 0; y < oh; y++) {
      float* mrow = mid + y * row_sz;
      int64_t st0 = rows.starts[y];
      int64_t real = (st0 + rows.span < ih ? st0 + rows.span : ih) - st0;
      for (x = 0; x < row_sz; x++) mrow[x] = 0.0f;
      for (s = 0; s < real; s++) {
        float wgt = rows.weights[rows.span * y + s];
        int64_t src = in_base + (st0 + s) * row_sz;
        for (x = 0; x < row_sz; x++) mrow[x] += wgt * st_get(in, src + x);
      }
    }
    /* columns */
    for (y = 0; y < oh; y++) {
      const float* mrow = mid + y * row_sz;
      float* orow = outp + ((b * oh + y) * ow) * ch;
      for (x = 0; x < ow; x++) {
        int64_t st0 = cols.starts[x];
        int64_t real = (st0 + cols.span < iw ? st0 + cols.span : iw) - st0;
        float* px = orow + x * ch;
        for (c = 0; c < ch; c++) px[c] = 0.0f;
        for (s = 0; s < real; s++) {
          float wgt = cols.weights[cols.span * x + s];
          const float* ip = mrow + (st0 + s) * ch;
          for (c = 0; c < ch; c++) px[c] += wgt * ip[c];
        }
      }
    }
  }
done:
  tfe_free(mid);
  tfe_free(rows.starts);
  tfe_free(rows.weights);
  tfe_free(cols.starts);
  tfe_free(cols.weights);
}

/* ---- ExtractGlimpseV2 ---- */

/* splitmix64: the noise generator (TF's noise is not reproducible either). */
static uint64_t eg_next(uint64_t* st) {
  uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static float eg_uniform(uint64_t* st) {
  return (float)(eg_next(st) >> 40) * (1.0f / 16777216.0f);
}

static float eg_normal(uint64_t* st) {
  double u1 = ((double)(eg_next(st) >> 11) + 1.0) * (1.0 / 9007199254740992.0);
  double u2 = (double)(eg_next(st) >> 11) * (1.0 / 9007199254740992.0);
  return (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

/* The source range [src, src + n) and the output offset `base` of one
 * glimpse dim (TF's partial-overlap rules, clamped to the input). */
static void eg_range(int64_t off, int64_t size, int64_t in, int64_t* src,
                     int64_t* n, int64_t* base) {
  *src = off;
  *n = size;
  *base = 0;
  if (off < 0) {
    *src = 0;
    *n = size + off > 0 ? size + off : 0;
    *base = size - *n;
  } else if (off + size >= in) {
    *n = in - off > 0 ? in - off : 0;
  }
  if (*src >= in) *n = 0;
  if (*n > in - *src) *n = in - *src;
  if (*n < 0) *n = 0;
}

static void extract_glimpse_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* size = k->inputs[1];
  const TF_Tensor* offs = k->inputs[2];
  int centered = kutil_attr_bool(k, "centered", 1);
  int normalized = kutil_attr_bool(k, "normalized", 1);
  int uniform_noise = kutil_attr_bool(k, "uniform_noise", 1);
  const char* noise = "uniform";
  size_t nlen = 7;
  int mode; /* 0 uniform, 1 gaussian, 2 zero */
  int64_t batch, ih, iw, ch, gh, gw, od[4], b, y, x, c;
  TF_Tensor* out;
  kutil_shape_buf sb;
  uint64_t st;
  if (k->attrs != NULL) {
    tfe_attrs_get_string(k->attrs, "noise", &noise, &nlen, NULL);
  }
  if (uniform_noise && nlen > 0 && !(nlen == 7 && memcmp(noise, "uniform", 7) == 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The uniform_noise and noise could not be specified at the "
               "same time");
    return;
  }
  if (nlen == 0) {
    mode = uniform_noise ? 0 : 1;
  } else if (nlen == 7 && memcmp(noise, "uniform", 7) == 0) {
    mode = 0;
  } else if (nlen == 8 && memcmp(noise, "gaussian", 8) == 0) {
    mode = 1;
  } else if (nlen == 4 && memcmp(noise, "zero", 4) == 0) {
    mode = 2;
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The noise could only be uniform, gaussian, or zero, got%.*s",
               (int)nlen, noise);
    return;
  }
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input must be 4-dimensional (batch_size, height, width, "
               "depth)%s",
               kutil_tshape(in, &sb));
    return;
  }
  batch = in->dims[0];
  ih = in->dims[1];
  iw = in->dims[2];
  ch = in->dims[3];
  if (size->num_dims != 1 || size->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input must be a vector of size 2 (height, width)%s",
               kutil_tshape(size, &sb));
    return;
  }
  gh = ((const int32_t*)kutil_data(size))[0];
  gw = ((const int32_t*)kutil_data(size))[1];
  if (gh < 0 || gw < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected a non-negative size, got %lld",
               (long long)(gh < 0 ? gh : gw));
    return;
  }
  if (offs->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be a matrix%s",
               kutil_tshape(offs, &sb));
    return;
  }
  if (offs->dims[0] != batch) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "first dimension should be batch%s",
               kutil_tshape(offs, &sb));
    return;
  }
  if (offs->dims[1] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "second dimension should be of size 2 (y,x)%s",
               kutil_tshape(offs, &sb));
    return;
  }
  od[0] = batch;
  od[1] = gh;
  od[2] = gw;
  od[3] = ch;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  /* seeded from the output buffer's address and the clock */
  st = (uint64_t)(uintptr_t)kutil_data(out) ^
       ((uint64_t)time(NULL) * 0x2545F4914F6CDD1Dull);
  for (b = 0; b < batch; b++) {
    const float* img = (const float*)kutil_data(in) + b * ih * iw * ch;
    float* o = (float*)kutil_data(out) + b * gh * gw * ch;
    float fy = ((const float*)kutil_data(offs))[2 * b];
    float fx = ((const float*)kutil_data(offs))[2 * b + 1];
    int64_t oy, ox, sy, ny, by, sx, nx, bx;
    if (normalized) {
      fx *= (float)iw;
      fy *= (float)ih;
      if (centered) {
        fx /= 2.0f;
        fy /= 2.0f;
        fx += (float)iw / 2.0f;
        fy += (float)ih / 2.0f;
        fx -= (float)gw / 2.0f;
        fy -= (float)gh / 2.0f;
      }
    } else if (centered) {
      fx += (float)iw / 2.0f;
      fy += (float)ih / 2.0f;
    }
    /* truncation toward zero; NaN and huge values land outside */
    ox = (fx > -9.0e18f && fx < 9.0e18f) ? (int64_t)fx : INT64_MIN / 4;
    oy = (fy > -9.0e18f && fy < 9.0e18f) ? (int64_t)fy : INT64_MIN / 4;
    eg_range(ox, gw, iw, &sx, &nx, &bx);
    eg_range(oy, gh, ih, &sy, &ny, &by);
    if (nx < gw || ny < gh) {
      /* partial overlap: fill with noise first */
      int64_t npix = ih * iw, p;
      if (mode == 2 || npix == 0) {
        memset(o, 0, sizeof(float) * (size_t)(gh * gw * ch));
      } else if (mode == 0) {
        float mn = img[0], mx = img[0];
        for (p = 1; p < npix * ch; p++) {
          if (img[p] < mn) mn = img[p];
          if (img[p] > mx) mx = img[p];
        }
        for (p = 0; p < gh * gw * ch; p++) o[p] = mn + eg_uniform(&st) * (mx - mn);
      } else {
        for (c = 0; c < ch; c++) {
          double sum = 0, sq = 0;
          float mn = img[c], mx = img[c], mean, sigma;
          for (p = 0; p < npix; p++) {
            float v = img[p * ch + c];
            sum += v;
            if (v < mn) mn = v;
            if (v > mx) mx = v;
          }
          mean = (float)(sum / (double)npix);
          for (p = 0; p < npix; p++) {
            double d = img[p * ch + c] - mean;
            sq += d * d;
          }
          sigma = (float)sqrt(sq / (double)npix);
          for (p = 0; p < gh * gw; p++) {
            float v = mean + eg_normal(&st) * sigma;
            o[p * ch + c] = v < mn ? mn : (v > mx ? mx : v);
          }
        }
      }
    }
    for (y = 0; y < ny; y++) {
      for (x = 0; x < nx; x++) {
        memcpy(o + ((by + y) * gw + bx + x) * ch,
               img + ((sy + y) * iw + sx + x) * ch, sizeof(float) * (size_t)ch);
      }
    }
  }
}

/* ---- SampleDistortedBoundingBoxV2, StatelessSampleDistortedBoundingBox ---- */

/* Philox-4x32-10 and TF's SimplePhilox word stream (one word at a time
 * from 4-word blocks). */
typedef struct sd_philox {
  uint32_t ctr[4];
  uint32_t key[2];
  uint32_t buf[4];
  int used;
} sd_philox;

static void sd_block(const uint32_t in[4], const uint32_t key[2],
                     uint32_t out[4]) {
  uint32_t c0 = in[0], c1 = in[1], c2 = in[2], c3 = in[3];
  uint32_t k0 = key[0], k1 = key[1];
  int r;
  for (r = 0; r < 10; r++) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c0;
    uint64_t p1 = (uint64_t)0xCD9E8D57u * c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    uint32_t n1 = (uint32_t)p1;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    uint32_t n3 = (uint32_t)p0;
    c0 = n0;
    c1 = n1;
    c2 = n2;
    c3 = n3;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

static void sd_skip(sd_philox* g, uint64_t n) {
  uint32_t lo = (uint32_t)n, hi = (uint32_t)(n >> 32);
  g->ctr[0] += lo;
  if (g->ctr[0] < lo) hi++;
  g->ctr[1] += hi;
  if (g->ctr[1] < hi) {
    if (++g->ctr[2] == 0) ++g->ctr[3];
  }
}

static uint32_t sd_rand32(sd_philox* g) {
  if (g->used == 4) {
    sd_block(g->ctr, g->key, g->buf);
    sd_skip(g, 1);
    g->used = 0;
  }
  return g->buf[g->used++];
}

static float sd_randfloat(sd_philox* g) {
  uint32_t v = (127u << 23) | (sd_rand32(g) & 0x7fffffu);
  float f;
  memcpy(&f, &v, 4);
  return f - 1.0f;
}

static uint32_t sd_uniform(sd_philox* g, uint32_t n) {
  uint32_t r = sd_rand32(g);
  return n == 0 ? r : r % n;
}

typedef struct sd_rect {
  int64_t x0, y0, x1, y1;
} sd_rect;

static int64_t sd_area(const sd_rect* r) {
  return (r->x1 - r->x0) * (r->y1 - r->y0);
}

static int sd_random_crop(int64_t w, int64_t h, float min_rel, float max_rel,
                          float ar, sd_philox* g, sd_rect* out) {
  float min_area, max_area, area;
  int64_t height, max_height, width, x = 0, y = 0;
  if (max_rel <= 0.0f || ar <= 0.0f || w <= 0 || h <= 0 || min_rel > max_rel) {
    return 0;
  }
  min_area = min_rel * (float)w * (float)h;
  max_area = max_rel * (float)w * (float)h;
  height = (int64_t)lrintf(sqrtf(min_area / ar));
  max_height = (int64_t)lrintf(sqrtf(max_area / ar));
  if (lrintf((float)max_height * ar) > w) {
    const float eps = 0.0000001f;
    max_height = (int64_t)(((double)w + 0.5 - eps) / ar);
    if (lrintf((float)max_height * ar) > w) max_height -= 1;
  }
  if (max_height > h) max_height = h;
  if (height >= max_height) height = max_height;
  if (height < max_height) {
    height += sd_uniform(g, (uint32_t)(max_height - height + 1));
  }
  width = (int64_t)lrintf((float)height * ar);
  area = (float)(width * height);
  if (area < min_area) {
    height += 1;
    width = (int64_t)lrintf((float)height * ar);
    area = (float)(width * height);
  }
  if (area > max_area) {
    height -= 1;
    width = (int64_t)lrintf((float)height * ar);
    area = (float)(width * height);
  }
  if (area < min_area || area > max_area || width > w || height > h ||
      width <= 0 || height <= 0) {
    return 0;
  }
  if (height < h) y = sd_uniform(g, (uint32_t)(h - height));
  if (width < w) x = sd_uniform(g, (uint32_t)(w - width));
  out->x0 = x;
  out->y0 = y;
  out->x1 = x + width;
  out->y1 = y + height;
  return 1;
}

static int sd_covers(const sd_rect* crop, float min_cov, const sd_rect* boxes,
                     int64_t n) {
  int64_t i;
  if ((float)sd_area(crop) < 1.0f) return 0;
  for (i = 0; i < n; i++) {
    float obj = (float)sd_area(&boxes[i]);
    sd_rect in;
    float cov;
    if (obj < 1.0f) continue;
    in.x0 = crop->x0 > boxes[i].x0 ? crop->x0 : boxes[i].x0;
    in.y0 = crop->y0 > boxes[i].y0 ? crop->y0 : boxes[i].y0;
    in.x1 = crop->x1 < boxes[i].x1 ? crop->x1 : boxes[i].x1;
    in.y1 = crop->y1 < boxes[i].y1 ? crop->y1 : boxes[i].y1;
    cov = (in.x0 < in.x1 && in.y0 < in.y1) ? (float)sd_area(&in) / obj : 0.0f;
    if (cov >= min_cov) return 1;
  }
  return 0;
}

typedef struct sd_state {
  pthread_mutex_t mu;
  sd_philox gen;
} sd_state;

static uint64_t sd_os_random(void) {
  struct timespec ts;
  static _Atomic uint64_t salt;
  uint64_t v = atomic_fetch_add(&salt, 0x9E3779B97F4A7C15ull);
  timespec_get(&ts, TIME_UTC); /* C11 */
  return ((uint64_t)ts.tv_sec * 1000000007ull) ^ (uint64_t)ts.tv_nsec ^ v;
}

static void sd_from_seeds(sd_philox* g, uint64_t lo, uint64_t hi) {
  memset(g, 0, sizeof *g);
  g->key[0] = (uint32_t)lo;
  g->key[1] = (uint32_t)(lo >> 32);
  g->ctr[2] = (uint32_t)hi;
  g->ctr[3] = (uint32_t)(hi >> 32);
  g->used = 4;
}

static void* sd_create(const tfe_op_def* def, const tfe_attrs* attrs,
                       void* user_data, TF_Status* status) {
  sd_state* st = (sd_state*)tfe_calloc(1, sizeof *st);
  int64_t seed = 0, seed2 = 0;
  (void)def;
  (void)user_data;
  if (st == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory creating a random kernel");
    return NULL;
  }
  if (attrs != NULL) {
    tfe_attrs_get_int(attrs, "seed", &seed, NULL);
    tfe_attrs_get_int(attrs, "seed2", &seed2, NULL);
  }
  if (seed == 0 && seed2 == 0) {
    sd_from_seeds(&st->gen, sd_os_random(), sd_os_random());
  } else {
    sd_from_seeds(&st->gen, (uint64_t)seed, (uint64_t)seed2);
  }
  pthread_mutex_init(&st->mu, NULL);
  return st;
}

static void sd_destroy(void* state, void* user_data) {
  sd_state* st = (sd_state*)state;
  (void)user_data;
  if (st == NULL) return;
  pthread_mutex_destroy(&st->mu);
  tfe_free(st);
}

/* A list(float) attr (borrowed), or NULL when absent or not floats. */
static void sd_float_list(tfe_kernel_context* k, const char* name,
                          const float** out, int* n) {
  const tfe_attr_value* v =
      k->attrs != NULL ? tfe_attrs_find(k->attrs, name) : NULL;
  *out = NULL;
  *n = 0;
  if (v == NULL || !v->is_list || v->type != TF_ATTR_FLOAT) return;
  *out = v->list.f;
  *n = v->list_size;
  if (*out == NULL) {
    static const float kNone[1] = {0.0f};
    *out = kNone; /* an empty list: present, but no values */
  }
}

static void sd_compute(tfe_kernel_context* k, int stateless) {
  const TF_Tensor* isz = k->inputs[0];
  const TF_Tensor* boxes = k->inputs[1];
  const TF_Tensor* moc = k->inputs[2];
  const float* ar = NULL;
  const float* arr = NULL;
  int nar = 0, narr = 0;
  int32_t max_attempts;
  int use_image = kutil_attr_bool(k, "use_image_if_no_bounding_boxes", 0);
  int64_t h, w, nb, i, one = 1, three = 3, bdims[3] = {1, 1, 4};
  float min_cov, ar_lo = 0.75f, ar_hi = 1.33f, area_lo = 0.05f, area_hi = 1.0f;
  sd_rect* rects = NULL;
  sd_rect crop, image;
  sd_philox g;
  int found = 0;
  TF_Tensor *ob, *os, *obb;
  kutil_shape_buf sb;
  (void)one;
  if (!kutil_attr_int32(k, "max_attempts", 100, &max_attempts)) return;
  sd_float_list(k, "aspect_ratio_range", &ar, &nar);
  sd_float_list(k, "area_range", &arr, &narr);
  if (ar != NULL) {
    if (nar != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Aspect ratio range field must specify 2 dimensions");
      return;
    }
    ar_lo = ar[0];
    ar_hi = ar[1];
    if (!(ar_lo > 0 && ar_hi > 0)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Aspect ratio range must be non-negative: [%g, %g]",
                 (double)ar_lo, (double)ar_hi);
      return;
    }
  }
  if (arr != NULL) {
    if (narr != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Area range field must specify 2 dimensions");
      return;
    }
    area_lo = arr[0];
    area_hi = arr[1];
    if (!(area_lo > 0 && area_hi > 0)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Area range must be non-negative: [%g, %g]", (double)area_lo,
                 (double)area_hi);
      return;
    }
    if (!(area_lo <= 1 && area_hi <= 1)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Area range must be less then or equal to 1.0: [%g, %g]",
                 (double)area_lo, (double)area_hi);
      return;
    }
  }
  if (max_attempts <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Max attempts must be non-negative: %d",
               (int)max_attempts);
    return;
  }
  if (isz->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "image_size must be 1-dimensional%s",
               kutil_tshape(isz, &sb));
    return;
  }
  if (isz->dims[0] != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "image_size must contain 3 elements%s",
               kutil_tshape(isz, &sb));
    return;
  }
  if (boxes->num_dims != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input boxes must be 3-dimensional [batch, num_boxes, coords]: %s",
               kutil_tshape(boxes, &sb));
    return;
  }
  if (boxes->dims[2] != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "bounding boxes must have shape [4] or [*, 4], got %s",
               kutil_tshape(boxes, &sb));
    return;
  }
  if (moc->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "min_object_covered must be 0-D, got shape %s",
               kutil_tshape(moc, &sb));
    return;
  }
  min_cov = *(const float*)kutil_data(moc);
  if (!(min_cov >= 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Min object covered must be non-negative: %g", (double)min_cov);
    return;
  }
  h = kutil_get_int(isz, 0);
  w = kutil_get_int(isz, 1);
  if (h <= 0 || w <= 0 || h > INT32_MAX || w > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "image height and width must be positive, got %lld and %lld",
               (long long)h, (long long)w);
    return;
  }
  if (stateless) {
    const TF_Tensor* seed = k->inputs[3];
    uint64_t s0, s1;
    uint32_t mix[4], ctr[4], key[2] = {0x3ec8f720u, 0x02461e29u};
    if (seed->num_dims != 1 || seed->dims[0] != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seed must have shape [2], not %s",
                 kutil_tshape(seed, &sb));
      return;
    }
    s0 = (uint64_t)kutil_get_int(seed, 0);
    s1 = (uint64_t)kutil_get_int(seed, 1);
    ctr[0] = (uint32_t)s0;
    ctr[1] = (uint32_t)(s0 >> 32);
    ctr[2] = (uint32_t)s1;
    ctr[3] = (uint32_t)(s1 >> 32);
    sd_block(ctr, key, mix);
    memset(&g, 0, sizeof g);
    g.key[0] = mix[0];
    g.key[1] = mix[1];
    g.ctr[2] = mix[2];
    g.ctr[3] = mix[3];
    g.used = 4;
  } else {
    sd_state* st = (sd_state*)k->state;
    if (st == NULL) {
      sd_from_seeds(&g, sd_os_random(), sd_os_random());
    } else {
      pthread_mutex_lock(&st->mu);
      g = st->gen;
      g.used = 4;
      sd_skip(&st->gen, SD_RESERVE_BLOCKS(max_attempts));
      pthread_mutex_unlock(&st->mu);
    }
  }
  nb = boxes->dims[0] * boxes->dims[1];
  rects = (sd_rect*)tfe_malloc(sizeof(sd_rect) * (size_t)(nb + 1));
  if (rects == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  for (i = 0; i < nb; i++) {
    const float* b = (const float*)kutil_data(boxes) + i * 4;
    int c;
    for (c = 0; c < 4; c++) {
      if (!(b[c] >= 0.0f && b[c] <= 1.0f)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "All bounding box coordinates must be in [0.0, 1.0]: %g",
                   (double)b[c]);
        tfe_free(rects);
        return;
      }
    }
    rects[i].x0 = (int64_t)(int32_t)(b[1] * (float)w);
    rects[i].y0 = (int64_t)(int32_t)(b[0] * (float)h);
    rects[i].x1 = (int64_t)(int32_t)(b[3] * (float)w);
    rects[i].y1 = (int64_t)(int32_t)(b[2] * (float)h);
  }
  image.x0 = 0;
  image.y0 = 0;
  image.x1 = w;
  image.y1 = h;
  if (nb == 0) {
    if (!use_image) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "No bounding boxes provided as input. One must enable "
                 "use_image_if_no_bounding_boxes if you wish to not provide "
                 "any bounding boxes.");
      tfe_free(rects);
      return;
    }
    rects[0] = image;
    nb = 1;
  }
  for (i = 0; i < max_attempts; i++) {
    float ratio = sd_randfloat(&g) * (ar_hi - ar_lo) + ar_lo;
    if (sd_random_crop(w, h, area_lo, area_hi, ratio, &g, &crop) &&
        sd_covers(&crop, min_cov, rects, nb)) {
      found = 1;
      break;
    }
  }
  tfe_free(rects);
  if (!found) crop = image;
  ob = tfe_kernel_alloc_output(k, 0, isz->dtype, &three, 1);
  os = ob ? tfe_kernel_alloc_output(k, 1, isz->dtype, &three, 1) : NULL;
  obb = os ? tfe_kernel_alloc_output(k, 2, TF_FLOAT, bdims, 3) : NULL;
  if (obb == NULL) return;
  {
    int64_t begin[3], size[3];
    int c;
    begin[0] = crop.y0;
    begin[1] = crop.x0;
    begin[2] = 0;
    size[0] = crop.y1 - crop.y0;
    size[1] = crop.x1 - crop.x0;
    size[2] = -1;
    for (c = 0; c < 3; c++) {
      switch (isz->dtype) {
        case TF_UINT8: ((uint8_t*)kutil_data(ob))[c] = (uint8_t)begin[c];
          ((uint8_t*)kutil_data(os))[c] = (uint8_t)size[c]; break;
        case TF_INT8: ((int8_t*)kutil_data(ob))[c] = (int8_t)begin[c];
          ((int8_t*)kutil_data(os))[c] = (int8_t)size[c]; break;
        case TF_INT16: ((int16_t*)kutil_data(ob))[c] = (int16_t)begin[c];
          ((int16_t*)kutil_data(os))[c] = (int16_t)size[c]; break;
        case TF_INT64: ((int64_t*)kutil_data(ob))[c] = begin[c];
          ((int64_t*)kutil_data(os))[c] = size[c]; break;
        default: ((int32_t*)kutil_data(ob))[c] = (int32_t)begin[c];
          ((int32_t*)kutil_data(os))[c] = (int32_t)size[c]; break;
      }
    }
    ((float*)kutil_data(obb))[0] = (float)crop.y0 / (float)h;
    ((float*)kutil_data(obb))[1] = (float)crop.x0 / (float)w;
    ((float*)kutil_data(obb))[2] = (float)crop.y1 / (float)h;
    ((float*)kutil_data(obb))[3] = (float)crop.x1 / (float)w;
  }
}

static void sd_stateless_compute(tfe_kernel_context* k) { sd_compute(k, 1); }
static void sd_stateful_compute(tfe_kernel_context* k) { sd_compute(k, 0); }

void tfe_register_cpu_signal_image_kernels(void) {
  static const TF_DataType db[] = {TF_FLOAT, TF_HALF};
  static const TF_DataType st[] = {TF_INT8,  TF_UINT8,    TF_INT16, TF_UINT16,
                                   TF_INT32, TF_INT64,    TF_BFLOAT16,
                                   TF_HALF,  TF_FLOAT,    TF_DOUBLE};
  static const TF_DataType eip[] = {
      TF_BFLOAT16, TF_HALF,   TF_FLOAT,     TF_DOUBLE,    TF_INT8,
      TF_INT16,    TF_INT32,  TF_INT64,     TF_UINT8,     TF_UINT16,
      TF_UINT32,   TF_UINT64, TF_COMPLEX64, TF_COMPLEX128, TF_BOOL};
  tfe_kutil_register("ExtractImagePatches", extract_image_patches_compute, "T",
                     eip, KUTIL_COUNT(eip), NULL, NULL, 0);
  tfe_kutil_register("NonMaxSuppressionWithOverlaps", nms_overlaps_compute,
                     NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("CombinedNonMaxSuppression", combined_nms_compute, NULL,
                     NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("DrawBoundingBoxes", draw_boxes_compute, "T", db, 2, NULL,
                     NULL, 0);
  tfe_kutil_register("DrawBoundingBoxesV2", draw_boxes_compute, "T", db, 2,
                     NULL, NULL, 0);
  tfe_kutil_register("ScaleAndTranslate", scale_translate_compute, "T", st,
                     KUTIL_COUNT(st), NULL, NULL, 0);
  tfe_kutil_register("ExtractGlimpseV2", extract_glimpse_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  {
    static const TF_DataType sdt[] = {TF_UINT8, TF_INT8, TF_INT16, TF_INT32,
                                      TF_INT64};
    static const TF_DataType seedt[] = {TF_INT32, TF_INT64};
    tfe_kernel_reg r;
    TF_Status* s = TF_NewStatus();
    tfe_kutil_register("StatelessSampleDistortedBoundingBox",
                       sd_stateless_compute, "T", sdt, KUTIL_COUNT(sdt),
                       "Tseed", seedt, 2);
    memset(&r, 0, sizeof r);
    r.op_name = "SampleDistortedBoundingBoxV2";
    r.device_type = "CPU";
    r.constraints[0].attr = "T";
    r.constraints[0].types = sdt;
    r.constraints[0].num_types = KUTIL_COUNT(sdt);
    r.num_constraints = 1;
    r.compute = sd_stateful_compute;
    r.create = sd_create;
    r.destroy = sd_destroy;
    if (s != NULL) {
      tfe_kernel_register(&r, s);
      TF_DeleteStatus(s);
    }
  }
}
