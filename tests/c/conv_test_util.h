/* Shared by the convolution kernel tests (test_internal_conv_direct.c,
 * test_internal_conv_filter_grad.c): a seeded uniform generator, random
 * NHWC tensors with an exact double copy, and TF's convolution geometry.
 * Define CONV_TEST_SEED before including to pick the sequence. */
#ifndef TFE_TESTS_CONV_TEST_UTIL_H_
#define TFE_TESTS_CONV_TEST_UTIL_H_

#include <stdlib.h>
#include <string.h>

#include "kernel_test_util.h"

#ifndef CONV_TEST_SEED
#define CONV_TEST_SEED 1u
#endif

static uint32_t rng_state = CONV_TEST_SEED;

/* Uniform in [-1, 1). */
static double urand(void) {
  rng_state = rng_state * 1664525u + 1013904223u;
  return (double)(rng_state >> 8) / 16777216.0 * 2.0 - 1.0;
}

/* A rank-4 tensor of random values rounded to dt; *copy receives the
 * same values in double (malloc'd, the caller frees it). */
static TF_Tensor* rand_tensor(TF_DataType dt, const int64_t* dims,
                              double** copy) {
  int64_t n = tfe_shape_num_elements(dims, 4), i;
  double* v = (double*)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  for (i = 0; i < n; i++) {
    v[i] = urand();
    if (dt == TF_HALF) v[i] = kutil_f16_to_f32(kutil_f32_to_f16((float)v[i]));
    if (dt == TF_BFLOAT16) {
      v[i] = kutil_bf16_to_f32(kutil_f32_to_bf16((float)v[i]));
    }
    if (dt == TF_FLOAT) v[i] = (float)v[i];
  }
  *copy = v;
  return kt_tensor(dt, dims, 4, v);
}

typedef struct geom {
  int64_t n, ih, iw, ic, kh, kw, fic, oc, oh, ow, pt, pl, sh, sw, dh, dw;
} geom;

/* Output size and leading padding of one spatial dimension, as TF
 * computes them for VALID, SAME and EXPLICIT (eb/ea) padding. */
static void out_size(int64_t in, int64_t k, int64_t s, int64_t d,
                     const char* pad, int64_t eb, int64_t ea, int64_t* out,
                     int64_t* before) {
  int64_t eff = (k - 1) * d + 1;
  if (strcmp(pad, "VALID") == 0) {
    *out = (in - eff + s) / s;
    *before = 0;
  } else if (strcmp(pad, "SAME") == 0) {
    int64_t tot;
    *out = (in + s - 1) / s;
    tot = (*out - 1) * s + eff - in;
    *before = tot > 0 ? tot / 2 : 0;
  } else {
    *out = (in + eb + ea - eff + s) / s;
    *before = eb;
  }
}

/* The geometry of an NHWC input x and HWIO filter f with NHWC strides
 * st, dilations dil (NULL: 1) and explicit paddings ep (NULL: none). */
static void make_geom(geom* g, const int64_t* x, const int64_t* f,
                      const int64_t* st, const int64_t* dil, const char* pad,
                      const int64_t* ep) {
  g->n = x[0];
  g->ih = x[1];
  g->iw = x[2];
  g->ic = x[3];
  g->kh = f[0];
  g->kw = f[1];
  g->fic = f[2];
  g->oc = f[3];
  g->sh = st[1];
  g->sw = st[2];
  g->dh = dil ? dil[1] : 1;
  g->dw = dil ? dil[2] : 1;
  out_size(g->ih, g->kh, g->sh, g->dh, pad, ep ? ep[2] : 0, ep ? ep[3] : 0,
           &g->oh, &g->pt);
  out_size(g->iw, g->kw, g->sw, g->dw, pad, ep ? ep[4] : 0, ep ? ep[5] : 0,
           &g->ow, &g->pl);
}

#endif /* TFE_TESTS_CONV_TEST_UTIL_H_ */
