/* CPU kernels: fake quantization, quantize/dequantize and the quantized
 * arithmetic ops (issue 18), with TF 2.21's checks, messages and numbers.
 * Op definitions: csrc/ops/defs_quant.c; shape rules:
 * csrc/ops/shape_infer_rules_quant.c.
 *
 * FakeQuantWithMinMax*: the range [min, max] is first "nudged" so that
 * zero is exactly representable, then values are clamped to the nudged
 * range and snapped to the grid of 2^num_bits (minus one with
 * narrow_range) levels. All arithmetic is float, in the same order as TF,
 * so the results are bit-identical. The project builds as strict C11
 * (-std=c11 implies -ffp-contract=off), so the per-ISA clones of the
 * contiguous loops below vectorize without fusing any multiply-add. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/threadpool.h"
#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_quant_kernels(void);

/* ------------------------------------------------------------ helpers */

/* TF's StrCat of a float: the shortest of %.6g / %.9g that reads back. */
static const char* fq_fmt(float f, char* buf, size_t cap) {
  if (isnan(f)) {
    snprintf(buf, cap, "nan");
  } else if (isinf(f)) {
    snprintf(buf, cap, f < 0 ? "-inf" : "inf");
  } else {
    snprintf(buf, cap, "%.6g", (double)f);
    if (strtof(buf, NULL) != f) snprintf(buf, cap, "%.9g", (double)f);
  }
  return buf;
}

/* Reads num_bits/narrow_range and sets the integer grid [qmin, qmax]. */
static int fq_bits(tfe_kernel_context* k, int* qmin, int* qmax) {
  int32_t nb;
  if (!kutil_attr_int32(k, "num_bits", 8, &nb)) return 0;
  if (nb < 2 || nb > 16) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_bits must be between 2 and 16, inclusive");
    return 0;
  }
  *qmin = kutil_attr_bool(k, "narrow_range", 0) ? 1 : 0;
  *qmax = (1 << nb) - 1;
  return 1;
}

typedef struct fq_range {
  float nmin, nmax, scale, inv_scale, qzero;
} fq_range;

/* The nudged range of [mn, mx] on the grid [qmin, qmax]. */
static void fq_nudge(float mn, float mx, int qmin, int qmax, fq_range* r) {
  const float qminf = (float)qmin, qmaxf = (float)qmax;
  float zp_from_min;
  uint16_t zp;
  r->scale = (mx - mn) / (qmaxf - qminf);
  r->inv_scale = (qmaxf - qminf) / (mx - mn);
  zp_from_min = qminf - mn / r->scale;
  if (zp_from_min < qminf) {
    zp = (uint16_t)qmin;
  } else if (zp_from_min > qmaxf) {
    zp = (uint16_t)qmax;
  } else if (isnan(zp_from_min)) {
    /* TF converts NaN to an integer here (x86: 0x80000000, low half 0) */
    zp = 0;
  } else {
    zp = (uint16_t)roundf(zp_from_min);
  }
  r->nmin = (qminf - (float)zp) * r->scale;
  r->nmax = (qmaxf - (float)zp) * r->scale;
  r->qzero = floorf(-r->nmin * r->inv_scale + 0.5f);
}

/* Clamp as TF's cwiseMin(nmax).cwiseMax(nmin): a NaN input stays NaN. */
static inline float fq_clamp(float x, const fq_range* r) {
  x = (r->nmax < x) ? r->nmax : x;
  return (x < r->nmin) ? r->nmin : x;
}

/* One quantized value. by_div: TF's Vars kernel divides by the scale,
 * the Args and PerChannel kernels multiply by the inverse. */
static inline float fq_one(float x, const fq_range* r, int by_div) {
  float s = fq_clamp(x, r) - r->nmin;
  float q = by_div ? s / r->scale : s * r->inv_scale;
  return floorf(q - r->qzero + 0.5f) * r->scale;
}

static void fq_apply(const float* x, float* y, int64_t n, int64_t stride,
                     float mn, float mx, int qmin, int qmax, int by_div) {
  int64_t i;
  fq_range r;
  if (mn == 0.0f && mx == 0.0f && by_div >= 0) {
    for (i = 0; i < n; i++) y[i * stride] = 0.0f;
    return;
  }
  fq_nudge(mn, mx, qmin, qmax, &r);
  for (i = 0; i < n; i++) y[i * stride] = fq_one(x[i * stride], &r, by_div > 0);
}

/* Contiguous forms of fq_one / the gradient mask, in chunks over the
 * intra-op pool. The expressions are fq_one's, written out so that each
 * ISA clone vectorizes them (same operations, same order). */
typedef struct fq_job {
  const float* x;
  const float* dy;
  float* y;
  fq_range r;
  int by_div;
} fq_job;

KUTIL_CLONES
static void fq_apply_chunk(void* arg, int64_t begin, int64_t end) {
  const fq_job* j = (const fq_job*)arg;
  const float* restrict x = j->x;
  float* restrict y = j->y;
  const float nmin = j->r.nmin, nmax = j->r.nmax, scale = j->r.scale;
  const float inv = j->r.inv_scale, qzero = j->r.qzero;
  int64_t i;
  if (j->by_div) {
    for (i = begin; i < end; i++) {
      float v = x[i];
      v = (nmax < v) ? nmax : v;
      v = (v < nmin) ? nmin : v;
      y[i] = floorf((v - nmin) / scale - qzero + 0.5f) * scale;
    }
  } else {
    for (i = begin; i < end; i++) {
      float v = x[i];
      v = (nmax < v) ? nmax : v;
      v = (v < nmin) ? nmin : v;
      y[i] = floorf((v - nmin) * inv - qzero + 0.5f) * scale;
    }
  }
}

KUTIL_CLONES
static void fq_mask_chunk(void* arg, int64_t begin, int64_t end) {
  const fq_job* j = (const fq_job*)arg;
  const float* restrict x = j->x;
  const float* restrict dy = j->dy;
  float* restrict dx = j->y;
  const float nmin = j->r.nmin, nmax = j->r.nmax;
  int64_t i;
  for (i = begin; i < end; i++) {
    float v = x[i];
    dx[i] = dy[i] * ((v >= nmin && v <= nmax) ? 1.0f : 0.0f);
  }
}

/* fq_apply over n contiguous elements, split over k's pool. */
static void fq_apply_par(tfe_kernel_context* k, const float* x, float* y,
                         int64_t n, float mn, float mx, int qmin, int qmax,
                         int by_div) {
  fq_job j;
  if (mn == 0.0f && mx == 0.0f && by_div >= 0) {
    fq_apply(x, y, n, 1, mn, mx, qmin, qmax, by_div);
    return;
  }
  fq_nudge(mn, mx, qmin, qmax, &j.r);
  j.x = x;
  j.dy = NULL;
  j.y = y;
  j.by_div = by_div > 0;
  tfe_parallel_for(tfe_kernel_threadpool(k), n, 32768, fq_apply_chunk, &j);
}

/* Gradient over n strided elements: dx = dy inside the nudged range;
 * *dmin / *dmax = sum of dy below / above it. zero_pass: TF's Vars kernels
 * pass every gradient through when min = max = 0. */
static void fq_grad(const float* dy, const float* x, float* dx, int64_t n,
                    int64_t stride, float mn, float mx, int qmin, int qmax,
                    int zero_pass, float* dmin, float* dmax) {
  int64_t i;
  fq_range r;
  float smin = 0.0f, smax = 0.0f;
  if (zero_pass && mn == 0.0f && mx == 0.0f) {
    for (i = 0; i < n; i++) dx[i * stride] = dy[i * stride];
    if (dmin) *dmin = 0.0f;
    if (dmax) *dmax = 0.0f;
    return;
  }
  fq_nudge(mn, mx, qmin, qmax, &r);
  for (i = 0; i < n; i++) {
    float v = x[i * stride], g = dy[i * stride];
    dx[i * stride] = g * ((v >= r.nmin && v <= r.nmax) ? 1.0f : 0.0f);
    smin += g * ((v < r.nmin) ? 1.0f : 0.0f);
    smax += g * ((v > r.nmax) ? 1.0f : 0.0f);
  }
  if (dmin) *dmin = smin;
  if (dmax) *dmax = smax;
}

/* FakeQuantWithMinMaxArgs*: attrs min/max (min < max required). */
static int fq_args_attrs(tfe_kernel_context* k, float* mn, float* mx,
                         int* qmin, int* qmax) {
  char a[32], b[32];
  *mn = -6.0f;
  *mx = 6.0f;
  if (k->attrs != NULL) {
    tfe_attrs_get_float(k->attrs, "min", mn, NULL);
    tfe_attrs_get_float(k->attrs, "max", mx, NULL);
  }
  if (!(*mn < *mx)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "min has to be smaller than max, was: %s >= %s",
               fq_fmt(*mn, a, sizeof a), fq_fmt(*mx, b, sizeof b));
    return 0;
  }
  return fq_bits(k, qmin, qmax);
}

static int same_shape(const TF_Tensor* a, const TF_Tensor* b) {
  int i;
  if (a->num_dims != b->num_dims) return 0;
  for (i = 0; i < a->num_dims; i++) {
    if (a->dims[i] != b->dims[i]) return 0;
  }
  return 1;
}

static int fq_rank(tfe_kernel_context* k, int input, const char* name,
                   int rank) {
  const TF_Tensor* t = k->inputs[input];
  if (t->num_dims != rank) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "`%s` must be rank %d but is rank %d",
               name, rank, t->num_dims);
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------- kernels */

static void k_fq_args(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  TF_Tensor* y;
  float mn, mx;
  int qmin, qmax;
  if (!fq_args_attrs(k, &mn, &mx, &qmin, &qmax)) return;
  y = tfe_kernel_alloc_output(k, 0, TF_FLOAT, x->dims, x->num_dims);
  if (y == NULL) return;
  fq_apply_par(k, (const float*)kutil_data(x), (float*)kutil_data(y),
               kutil_num_elements(x), mn, mx, qmin, qmax, -1);
}

static void k_fq_args_grad(tfe_kernel_context* k) {
  const TF_Tensor* dy = k->inputs[0];
  const TF_Tensor* x = k->inputs[1];
  TF_Tensor* dx;
  float mn, mx;
  int qmin, qmax;
  char sa[256], sb[256];
  if (!fq_args_attrs(k, &mn, &mx, &qmin, &qmax)) return;
  if (!same_shape(dy, x)) {
    tfe_format_shape(dy->dims, dy->num_dims, sa, sizeof sa);
    tfe_format_shape(x->dims, x->num_dims, sb, sizeof sb);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Inputs to operation FakeQuantWithMinMaxArgsGradient of type "
               "FakeQuantWithMinMaxArgsGradient must have the same size and "
               "shape.  Input 0: %s != input 1: %s",
               sa, sb);
    return;
  }
  dx = tfe_kernel_alloc_output(k, 0, TF_FLOAT, x->dims, x->num_dims);
  if (dx == NULL) return;
  {
    fq_job j;
    fq_nudge(mn, mx, qmin, qmax, &j.r);
    j.x = (const float*)kutil_data(x);
    j.dy = (const float*)kutil_data(dy);
    j.y = (float*)kutil_data(dx);
    j.by_div = 0;
    tfe_parallel_for(tfe_kernel_threadpool(k), kutil_num_elements(x), 32768,
                     fq_mask_chunk, &j);
  }
}

static void k_fq_vars(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  TF_Tensor* y;
  int qmin, qmax;
  if (!fq_bits(k, &qmin, &qmax)) return;
  if (!fq_rank(k, 1, "min", 0) || !fq_rank(k, 2, "max", 0)) return;
  y = tfe_kernel_alloc_output(k, 0, TF_FLOAT, x->dims, x->num_dims);
  if (y == NULL) return;
  fq_apply_par(k, (const float*)kutil_data(x), (float*)kutil_data(y),
               kutil_num_elements(x), *(const float*)kutil_data(k->inputs[1]),
               *(const float*)kutil_data(k->inputs[2]), qmin, qmax, 1);
}

static void k_fq_vars_grad(tfe_kernel_context* k) {
  const TF_Tensor* dy = k->inputs[0];
  const TF_Tensor* x = k->inputs[1];
  TF_Tensor *dx, *dmin, *dmax;
  int qmin, qmax;
  if (!fq_bits(k, &qmin, &qmax)) return;
  if (!fq_rank(k, 2, "min", 0) || !fq_rank(k, 3, "max", 0)) return;
  if (!same_shape(dy, x)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "gradient and input must be the same size");
    return;
  }
  dx = tfe_kernel_alloc_output(k, 0, TF_FLOAT, x->dims, x->num_dims);
  if (dx == NULL) return;
  dmin = tfe_kernel_alloc_output(k, 1, TF_FLOAT, NULL, 0);
  if (dmin == NULL) return;
  dmax = tfe_kernel_alloc_output(k, 2, TF_FLOAT, NULL, 0);
  if (dmax == NULL) return;
  fq_grad((const float*)kutil_data(dy), (const float*)kutil_data(x),
          (float*)kutil_data(dx), kutil_num_elements(x), 1,
          *(const float*)kutil_data(k->inputs[2]),
          *(const float*)kutil_data(k->inputs[3]), qmin, qmax, 1,
          (float*)kutil_data(dmin), (float*)kutil_data(dmax));
}

/* Per-channel checks: rank-1 min/max of the input's last dim. */
static int fq_pc_check(tfe_kernel_context* k, int imin, int64_t* depth) {
  const TF_Tensor* x = k->inputs[imin - 1];
  const TF_Tensor* mn = k->inputs[imin];
  const TF_Tensor* mx = k->inputs[imin + 1];
  if (!fq_rank(k, imin, "min", 1) || !fq_rank(k, imin + 1, "max", 1)) {
    return 0;
  }
  if (x->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "inputs must be at least rank 1 but is rank 0");
    return 0;
  }
  *depth = x->dims[x->num_dims - 1];
  if (mn->dims[0] != *depth) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "min has incorrect size, expected %lld was %lld",
               (long long)*depth, (long long)mn->dims[0]);
    return 0;
  }
  if (mx->dims[0] != *depth) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "max has incorrect size, expected %lld was %lld",
               (long long)*depth, (long long)mx->dims[0]);
    return 0;
  }
  return 1;
}

static void k_fq_per_channel(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const float *mn, *mx, *xd;
  float* yd;
  TF_Tensor* y;
  int64_t depth, rows, c;
  int qmin, qmax;
  if (!fq_bits(k, &qmin, &qmax)) return;
  if (!fq_pc_check(k, 1, &depth)) return;
  y = tfe_kernel_alloc_output(k, 0, TF_FLOAT, x->dims, x->num_dims);
  if (y == NULL || depth == 0) return;
  rows = kutil_num_elements(x) / depth;
  mn = (const float*)kutil_data(k->inputs[1]);
  mx = (const float*)kutil_data(k->inputs[2]);
  xd = (const float*)kutil_data(x);
  yd = (float*)kutil_data(y);
  for (c = 0; c < depth; c++) {
    fq_apply(xd + c, yd + c, rows, depth, mn[c], mx[c], qmin, qmax, 0);
  }
}

static void k_fq_per_channel_grad(tfe_kernel_context* k) {
  const TF_Tensor* dy = k->inputs[0];
  const TF_Tensor* x = k->inputs[1];
  const float *mn, *mx;
  TF_Tensor *dx, *dmin, *dmax;
  int64_t depth, rows, c;
  int qmin, qmax;
  if (!fq_bits(k, &qmin, &qmax)) return;
  if (!same_shape(dy, x)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "gradient and input must be the same size");
    return;
  }
  if (!fq_pc_check(k, 2, &depth)) return;
  dx = tfe_kernel_alloc_output(k, 0, TF_FLOAT, x->dims, x->num_dims);
  if (dx == NULL) return;
  dmin = tfe_kernel_alloc_output(k, 1, TF_FLOAT, &depth, 1);
  if (dmin == NULL) return;
  dmax = tfe_kernel_alloc_output(k, 2, TF_FLOAT, &depth, 1);
  if (dmax == NULL || depth == 0) return;
  rows = kutil_num_elements(x) / depth;
  mn = (const float*)kutil_data(k->inputs[2]);
  mx = (const float*)kutil_data(k->inputs[3]);
  for (c = 0; c < depth; c++) {
    fq_grad((const float*)kutil_data(dy) + c, (const float*)kutil_data(x) + c,
            (float*)kutil_data(dx) + c, rows, depth, mn[c], mx[c], qmin, qmax,
            1, (float*)kutil_data(dmin) + c, (float*)kutil_data(dmax) + c);
  }
}

void tfe_register_cpu_quant_kernels(void) {
  tfe_kutil_register("FakeQuantWithMinMaxArgs", k_fq_args, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("FakeQuantWithMinMaxArgsGradient", k_fq_args_grad, NULL,
                     NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("FakeQuantWithMinMaxVars", k_fq_vars, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("FakeQuantWithMinMaxVarsGradient", k_fq_vars_grad, NULL,
                     NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("FakeQuantWithMinMaxVarsPerChannel", k_fq_per_channel,
                     NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("FakeQuantWithMinMaxVarsPerChannelGradient",
                     k_fq_per_channel_grad, NULL, NULL, 0, NULL, NULL, 0);
}
