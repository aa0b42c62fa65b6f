/* Non-max suppression CPU kernels: NonMaxSuppressionV3, V4
 * (pad_to_max_output_size, valid_outputs) and V5 (soft-NMS with a
 * Gaussian weight exp(-sim^2 / (2 sigma)), selected_scores).
 *
 * Greedy selection as TF's kernel does it: candidates above
 * score_threshold are taken best score first (ties: lower box index
 * first); a candidate is compared with the boxes selected since it was last
 * looked at, newest first; hard NMS drops it when an IoU exceeds
 * iou_threshold; soft NMS scales its score and puts it back in the queue
 * when the score changed but is still above the threshold. IoU is computed
 * in float from the corners in either order; an empty box overlaps
 * nothing. For half inputs every score and weight operation is rounded to
 * half as TF's Eigen::half arithmetic is. */
#if defined(__GNUC__) && !defined(__clang__)
/* The IoU loop relies on the loop vectorizer at full strength. */
#pragma GCC optimize("O3")
#endif

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/image_kernels.h"
#include "kernels/cpu/kutil.h"

typedef struct nms_cand {
  int32_t index;
  float score;
  int32_t begin; /* selected boxes before this one were already compared */
} nms_cand;

/* 1 when a should come out of the queue before b. */
static int cand_before(const nms_cand* a, const nms_cand* b) {
  if (a->score != b->score) return a->score > b->score;
  return a->index < b->index;
}

typedef struct nms_heap {
  nms_cand* v;
  int64_t n;
} nms_heap;

static void heap_push(nms_heap* h, nms_cand c) {
  int64_t i = h->n++;
  while (i > 0) {
    int64_t p = (i - 1) / 2;
    if (!cand_before(&c, &h->v[p])) break;
    h->v[i] = h->v[p];
    i = p;
  }
  h->v[i] = c;
}

/* Moves v[i] down to its place in the subtree below it. */
static void heap_sift_down(nms_heap* h, int64_t i) {
  nms_cand x = h->v[i];
  for (;;) {
    int64_t l = 2 * i + 1, r = l + 1, best = i;
    const nms_cand* bc = &x;
    if (l < h->n && cand_before(&h->v[l], bc)) {
      best = l;
      bc = &h->v[l];
    }
    if (r < h->n && cand_before(&h->v[r], bc)) best = r;
    if (best == i) break;
    h->v[i] = h->v[best];
    i = best;
  }
  h->v[i] = x;
}

static nms_cand heap_pop(nms_heap* h) {
  nms_cand top = h->v[0];
  if (--h->n > 0) {
    h->v[0] = h->v[h->n];
    heap_sift_down(h, 0);
  }
  return top;
}

/* Value rounding of the op's T (half rounds through binary16). */
static float rnd(int half, float v) {
  return half ? kutil_f16_to_f32(kutil_f32_to_f16(v)) : v;
}

static float read_f(const TF_Tensor* t, int64_t i) {
  if (t->dtype == TF_HALF) {
    return kutil_f16_to_f32(((const uint16_t*)kutil_data(t))[i]);
  }
  return ((const float*)kutil_data(t))[i];
}

/* fminf/fmaxf (a NaN operand yields the other one) without the libm
 * call. */
static inline float mnf(float a, float b) { return (a < b || b != b) ? a : b; }
static inline float mxf(float a, float b) { return (a > b || b != b) ? a : b; }

/* Each box as (ymin, xmin, ymax, xmax, area), computed once: the IoU
 * below does the same float operations as taking them from the corners
 * every time. */
static void box_prep(const float* p, float* q) {
  q[0] = mnf(p[0], p[2]);
  q[1] = mnf(p[1], p[3]);
  q[2] = mxf(p[0], p[2]);
  q[3] = mxf(p[1], p[3]);
  q[4] = (q[2] - q[0]) * (q[3] - q[1]);
}

static float iou(const float* b, int64_t i, int64_t j) {
  const float* p = b + i * 5;
  const float* q = b + j * 5;
  float iy, ix, inter;
  if (p[4] <= 0 || q[4] <= 0) return 0.0f;
  iy = mnf(p[2], q[2]) - mxf(p[0], q[0]);
  ix = mnf(p[3], q[3]) - mxf(p[1], q[1]);
  inter = (iy > 0 ? iy : 0.0f) * (ix > 0 ? ix : 0.0f);
  return inter / (p[4] + q[4] - inter);
}

/* IoU of box c (prepared as above) with m selected boxes held as
 * columns (ymin, xmin, ymax, xmax, area), the same float operations as
 * iou(c, j); no branches, so the loop runs as SIMD code. */
KUTIL_CLONES static void iou_many(const float* c, int64_t m,
                                  const float* restrict y0,
                                  const float* restrict x0,
                                  const float* restrict y1,
                                  const float* restrict x1,
                                  const float* restrict ar,
                                  float* restrict out) {
  int64_t j;
  for (j = 0; j < m; j++) {
    float iy = mnf(c[2], y1[j]) - mxf(c[0], y0[j]);
    float ix = mnf(c[3], x1[j]) - mxf(c[1], x0[j]);
    float inter = (iy > 0 ? iy : 0.0f) * (ix > 0 ? ix : 0.0f);
    float v = inter / (c[4] + ar[j] - inter);
    out[j] = (c[4] <= 0 || ar[j] <= 0) ? 0.0f : v;
  }
}

/* Checks a scalar input; V3 adds TF's rank note to the first two. */
static int scalar_in(tfe_kernel_context* k, int i, const char* what,
                     int rank_note) {
  const TF_Tensor* t = k->inputs[i];
  kutil_shape_buf sb;
  if (t->num_dims == 0) return 1;
  if (rank_note) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s must be 0-D, got shape %s (Shape must be rank 0 but is "
               "rank %d)",
               what, kutil_tshape(t, &sb), t->num_dims);
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be 0-D, got shape %s", what,
               kutil_tshape(t, &sb));
  }
  return 0;
}

/* version 3, 4 or 5. */
static void nms_compute(tfe_kernel_context* k, int version) {
  const TF_Tensor* boxes = k->inputs[0];
  const TF_Tensor* scores = k->inputs[1];
  int half = boxes->dtype == TF_HALF;
  int pad = version >= 4 ? kutil_attr_bool(k, "pad_to_max_output_size", 0) : 0;
  float iou_thr, score_thr, sigma = 0.0f, scale = 0.0f;
  int32_t max_out;
  int64_t nboxes, i, nsel = 0, cap, out_len;
  kutil_shape_buf sb;
  float* bx = NULL;
  int32_t* sel = NULL;
  float* sel_scores = NULL;
  float *cols = NULL, *sims = NULL;
  nms_heap heap = {NULL, 0};
  TF_Tensor* out;
  int soft;
  if (!scalar_in(k, 2, "max_output_size", version == 3)) return;
  if (!scalar_in(k, 3, "iou_threshold", version == 3)) return;
  iou_thr = rnd(half, read_f(k->inputs[3], 0));
  if (!(iou_thr >= 0.0f && iou_thr <= 1.0f)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "iou_threshold must be in [0, 1]");
    return;
  }
  if (!scalar_in(k, 4, "score_threshold", 0)) return;
  score_thr = rnd(half, read_f(k->inputs[4], 0));
  if (version == 5) {
    if (!scalar_in(k, 5, "soft_nms_sigma", 0)) return;
    sigma = read_f(k->inputs[5], 0);
    if (!(sigma >= 0.0f)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "soft_nms_sigma_val must be >= 0");
      return;
    }
  }
  if (boxes->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "boxes must be 2-D%s (Shape must be rank 2 but is rank %d)",
               kutil_tshape(boxes, &sb), boxes->num_dims);
    return;
  }
  nboxes = boxes->dims[0];
  if (boxes->dims[1] != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "boxes must have 4 columns (Dimension must be 4 but is %lld)",
               (long long)boxes->dims[1]);
    return;
  }
  if (scores->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "scores must be 1-D%s (Shape must be rank 1 but is rank %d)",
               kutil_tshape(scores, &sb), scores->num_dims);
    return;
  }
  if (scores->dims[0] != nboxes) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "scores has incompatible shape (Dimensions must be equal, but "
               "are %lld and %lld)",
               (long long)nboxes, (long long)scores->dims[0]);
    return;
  }
  if (nboxes > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "too many boxes: %lld",
               (long long)nboxes);
    return;
  }
  max_out = *(const int32_t*)kutil_data(k->inputs[2]);
  if (max_out < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "output size must be non-negative");
    return;
  }
  soft = sigma > 0.0f;
  if (soft) scale = rnd(half, rnd(half, -0.5f) / rnd(half, sigma));
  cap = nboxes < max_out ? nboxes : max_out;
  bx = (float*)tfe_malloc(sizeof(float) * (size_t)(nboxes * 5 + 1));
  heap.v = (nms_cand*)tfe_malloc(sizeof(nms_cand) * (size_t)(nboxes + 1));
  sel = (int32_t*)tfe_malloc(sizeof(int32_t) * (size_t)(cap + 1));
  sel_scores = (float*)tfe_malloc(sizeof(float) * (size_t)(cap + 1));
  /* the selected boxes' prepared values as five columns, and the IoUs of
   * one candidate with them (hard NMS) */
  cols = (float*)tfe_malloc(sizeof(float) * (size_t)(5 * cap + 1));
  sims = (float*)tfe_malloc(sizeof(float) * (size_t)(cap + 1));
  if (bx == NULL || heap.v == NULL || sel == NULL || sel_scores == NULL ||
      cols == NULL || sims == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "out of memory in NonMaxSuppression");
    goto done;
  }
  for (i = 0; i < nboxes; i++) {
    float p[4];
    int q;
    for (q = 0; q < 4; q++) p[q] = read_f(boxes, i * 4 + q);
    box_prep(p, bx + i * 5);
  }
  /* the queue: candidates above the threshold, heap-ordered in place
   * (the order is total, so the pops come out as from any heap) */
  for (i = 0; i < nboxes; i++) {
    float s = read_f(scores, i);
    if (s > score_thr) {
      heap.v[heap.n].index = (int32_t)i;
      heap.v[heap.n].score = s;
      heap.v[heap.n].begin = 0;
      heap.n++;
    }
  }
  for (i = heap.n / 2 - 1; i >= 0; i--) heap_sift_down(&heap, i);
  if (!soft) {
    /* hard NMS: scores never change, so a candidate is kept unless one of
     * the boxes selected so far overlaps it too much. A non-finite IoU
     * (boxes with inf/NaN corners) zeroes the score in TF's weighting:
     * that candidate goes back to the queue and the general loop below
     * takes over from the same state. */
    while (nsel < max_out && heap.n > 0) {
      nms_cand c = heap_pop(&heap);
      int64_t j;
      int odd = 0;
      if (!half) {
        /* all the IoUs at once (float has no rounding step) */
        iou_many(bx + (int64_t)c.index * 5, nsel, cols, cols + cap,
                 cols + 2 * cap, cols + 3 * cap, cols + 4 * cap, sims);
      }
      for (j = nsel - 1; j >= 0; j--) {
        float simt = half ? rnd(half, iou(bx, c.index, sel[j])) : sims[j];
        if (simt > iou_thr) break;
        if (!(simt <= iou_thr) || !isfinite(simt)) {
          odd = 1;
          break;
        }
      }
      if (odd) {
        heap_push(&heap, c);
        break;
      }
      if (j >= 0) continue;
      for (j = 0; j < 5; j++) cols[j * cap + nsel] = bx[(int64_t)c.index * 5 + j];
      sel[nsel] = c.index;
      sel_scores[nsel] = c.score;
      nsel++;
    }
  }
  while (nsel < max_out && heap.n > 0) {
    nms_cand c = heap_pop(&heap);
    float original = c.score;
    int hard = 0;
    int64_t j;
    for (j = nsel - 1; j >= c.begin; j--) {
      float sim = iou(bx, c.index, sel[j]);
      float simt = rnd(half, sim);
      float w = rnd(half, expf(rnd(half, rnd(half, scale * simt) * simt)));
      if (!(soft || simt <= iou_thr)) w = 0.0f;
      c.score = rnd(half, c.score * w);
      if (!soft && simt > iou_thr) {
        hard = 1;
        break;
      }
      if (c.score <= score_thr) break;
    }
    c.begin = (int32_t)nsel;
    if (hard) continue;
    if (c.score == original) {
      sel[nsel] = c.index;
      sel_scores[nsel] = c.score;
      nsel++;
      continue;
    }
    if (c.score > score_thr) heap_push(&heap, c);
  }
  out_len = pad ? max_out : nsel;
  out = tfe_kernel_alloc_output(k, 0, TF_INT32, &out_len, 1);
  if (out == NULL) goto done;
  {
    int32_t* o = (int32_t*)kutil_data(out);
    if (out_len > 0) memset(o, 0, sizeof(int32_t) * (size_t)out_len);
    if (nsel > 0) memcpy(o, sel, sizeof(int32_t) * (size_t)nsel);
  }
  if (version == 5) {
    TF_Tensor* so = tfe_kernel_alloc_output(k, 1, boxes->dtype, &out_len, 1);
    if (so == NULL) goto done;
    for (i = 0; i < out_len; i++) {
      float v = i < nsel ? sel_scores[i] : 0.0f;
      if (half) {
        ((uint16_t*)kutil_data(so))[i] = kutil_f32_to_f16(v);
      } else {
        ((float*)kutil_data(so))[i] = v;
      }
    }
  }
  if (version >= 4) {
    TF_Tensor* vo =
        tfe_kernel_alloc_output(k, version == 5 ? 2 : 1, TF_INT32, NULL, 0);
    if (vo == NULL) goto done;
    *(int32_t*)kutil_data(vo) = (int32_t)nsel;
  }
done:
  tfe_free(bx);
  tfe_free(heap.v);
  tfe_free(sel);
  tfe_free(sel_scores);
  tfe_free(cols);
  tfe_free(sims);
}

static void nms_v3_compute(tfe_kernel_context* k) { nms_compute(k, 3); }
static void nms_v4_compute(tfe_kernel_context* k) { nms_compute(k, 4); }
static void nms_v5_compute(tfe_kernel_context* k) { nms_compute(k, 5); }

void tfe_register_cpu_image_nms_kernels(void) {
  static const TF_DataType kT[] = {TF_HALF, TF_FLOAT};
  tfe_kutil_register("NonMaxSuppressionV3", nms_v3_compute, "T", kT, 2, NULL,
                     NULL, 0);
  tfe_kutil_register("NonMaxSuppressionV4", nms_v4_compute, "T", kT, 2, NULL,
                     NULL, 0);
  tfe_kutil_register("NonMaxSuppressionV5", nms_v5_compute, "T", kT, 2, NULL,
                     NULL, 0);
}
