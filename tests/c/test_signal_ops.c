/* The signal op group through the public C API: FFTs of every length
 * against a direct DFT, real transforms and their inverses, TF's errors,
 * and the image ops of the group (ScaleAndTranslate, ExtractImagePatches,
 * NonMaxSuppressionWithOverlaps, RGBToHSV/HSVToRGB). The wide table of
 * values recorded from TensorFlow is tests/data/api_signal_image_tf221.json,
 * run by tests/python/test_api_signal_image.py. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"

/* Runs a one-output op; NULL (status kept in s) when it failed. */
static TF_Tensor* run_op(TFE_Op* op, TF_Status* s) {
  TFE_TensorHandle* out = NULL;
  int n = 1;
  TF_Tensor* t;
  TFE_Execute(op, &out, &n, s);
  TFE_DeleteOp(op);
  if (TF_GetCode(s) != TF_OK) return NULL;
  t = TFE_TensorHandleResolve(out, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(out);
  return t;
}

static TFE_Op* op1(TFE_Context* ctx, const char* name, TFE_TensorHandle* a,
                   TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, a, s);
  CHECK_CODE(s, TF_OK);
  return op;
}

/* Direct DFT of x (n complex doubles) in long double. */
static void dft(const double* x, int n, int inverse, double* y) {
  int k, j;
  for (k = 0; k < n; k++) {
    long double re = 0, im = 0;
    for (j = 0; j < n; j++) {
      long double a = 2.0L * 3.14159265358979323846264338327950288L *
                      (long double)((long long)j * k % n) / n;
      long double c = cosl(a), sn = inverse ? sinl(a) : -sinl(a);
      re += x[2 * j] * c - x[2 * j + 1] * sn;
      im += x[2 * j] * sn + x[2 * j + 1] * c;
    }
    y[2 * k] = (double)(inverse ? re / n : re);
    y[2 * k + 1] = (double)(inverse ? im / n : im);
  }
}

TEST(fft_every_length_matches_direct_dft) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  live_counts before = live_now();
  static const int extra[] = {97, 128, 131, 210, 243, 257, 509};
  int i, inv;
  for (i = 0; i < 64 + 7; i++) {
    int n = i < 64 ? i + 1 : extra[i - 64];
    for (inv = 0; inv < 2; inv++) {
      double* x = (double*)malloc(sizeof(double) * 2 * (size_t)n);
      double* want = (double*)malloc(sizeof(double) * 2 * (size_t)n);
      int64_t dims[1];
      TFE_TensorHandle* h;
      TF_Tensor* t;
      const double* got;
      double scale = 0, err = 0;
      int j;
      dims[0] = n;
      for (j = 0; j < 2 * n; j++) x[j] = sin(0.37 * j * j + 0.1 * n) + 0.25;
      dft(x, n, inv, want);
      h = make_handle(TF_COMPLEX128, dims, 1, x, sizeof(double) * 2 * (size_t)n,
                      s);
      t = run_op(op1(ctx, inv ? "IFFT" : "FFT", h, s), s);
      CHECK_CODE(s, TF_OK);
      got = (const double*)TF_TensorData(t);
      for (j = 0; j < 2 * n; j++) {
        if (fabs(want[j]) > scale) scale = fabs(want[j]);
        if (fabs(got[j] - want[j]) > err) err = fabs(got[j] - want[j]);
      }
      if (err > 1e-12 * (scale > 1 ? scale : 1)) {
        TFE_FAIL("n=%d inverse=%d: error %g (scale %g)", n, inv, err, scale);
      }
      TF_DeleteTensor(t);
      TFE_DeleteTensorHandle(h);
      free(x);
      free(want);
    }
  }
  CHECK_LIVE_EQ(before, live_now());
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* RFFT of length n then IRFFT back: the signal again (float). */
TEST(rfft_irfft_round_trip_and_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  static const int lens[] = {1, 2, 3, 8, 15, 17, 60, 101};
  size_t li;
  for (li = 0; li < sizeof lens / sizeof lens[0]; li++) {
    int n = lens[li], j;
    float x[101];
    int64_t dims[2] = {1, n};
    int32_t len = n;
    int64_t one = 1;
    TFE_TensorHandle *h, *hl, *hc;
    TFE_Op* op;
    TF_Tensor *spec, *back;
    for (j = 0; j < n; j++) x[j] = (float)cos(0.3 * j) - 0.5f * (float)j / n;
    h = make_handle(TF_FLOAT, dims, 2, x, sizeof(float) * (size_t)n, s);
    hl = make_handle(TF_INT32, &one, 1, &len, sizeof len, s);
    op = op1(ctx, "RFFT", h, s);
    TFE_OpAddInput(op, hl, s);
    spec = run_op(op, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_Dim(spec, 1), n / 2 + 1);
    hc = TFE_NewTensorHandle(spec, s);
    CHECK_CODE(s, TF_OK);
    op = op1(ctx, "IRFFT", hc, s);
    TFE_OpAddInput(op, hl, s);
    back = run_op(op, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_Dim(back, 1), n);
    for (j = 0; j < n; j++) {
      float g = ((const float*)TF_TensorData(back))[j];
      if (fabsf(g - x[j]) > 1e-5f) TFE_FAIL("n=%d [%d]: %g vs %g", n, j, g, x[j]);
    }
    TF_DeleteTensor(spec);
    TF_DeleteTensor(back);
    TFE_DeleteTensorHandle(h);
    TFE_DeleteTensorHandle(hl);
    TFE_DeleteTensorHandle(hc);
  }
  {
    /* input shorter than fft_length; negative length; rank 0 FFT */
    float x[5] = {1, 2, 3, 4, 5};
    int64_t five = 5, one = 1;
    int32_t eight = 8, neg = -2;
    TFE_TensorHandle* h = make_handle(TF_FLOAT, &five, 1, x, sizeof x, s);
    TFE_TensorHandle* l8 = make_handle(TF_INT32, &one, 1, &eight, 4, s);
    TFE_TensorHandle* ln = make_handle(TF_INT32, &one, 1, &neg, 4, s);
    double c[2] = {1, 1};
    TFE_TensorHandle* sc = make_handle(TF_COMPLEX128, NULL, 0, c, sizeof c, s);
    TFE_Op* op = op1(ctx, "RFFT", h, s);
    TFE_OpAddInput(op, l8, s);
    CHECK(run_op(op, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK(strcmp(TF_Message(s), "Input dimension 0 must have length of at "
                                "least 8 but got: 5") == 0);
    op = op1(ctx, "RFFT", h, s);
    TFE_OpAddInput(op, ln, s);
    CHECK(run_op(op, s) == NULL);
    CHECK(strcmp(TF_Message(s), "fft_length[0] must >= 0, but got: -2") == 0);
    CHECK(run_op(op1(ctx, "FFT", sc, s), s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK(strcmp(TF_Message(s),
                 "Input must have rank of at least 1 but got: []") == 0);
    TFE_DeleteTensorHandle(h);
    TFE_DeleteTensorHandle(l8);
    TFE_DeleteTensorHandle(ln);
    TFE_DeleteTensorHandle(sc);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ScaleAndTranslate with scale 1 and no translation is the identity for
 * the interpolating kernels (zero at every nonzero integer);
 * ExtractImagePatches and HSV round trips. */
TEST(image_ops_of_the_group) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  static const char* const kernels[] = {"lanczos1", "lanczos3", "lanczos5",
                                        "box", "triangle", "keyscubic"};
  float img[1 * 4 * 5 * 3];
  int64_t dims[4] = {1, 4, 5, 3}, two = 2;
  int32_t size[2] = {4, 5};
  float one[2] = {1, 1}, zero[2] = {0, 0};
  TFE_TensorHandle *hi, *hs, *hsc, *htr;
  size_t ki;
  int j;
  for (j = 0; j < 60; j++) img[j] = (float)((j * 7) % 11) / 10.0f;
  hi = make_handle(TF_FLOAT, dims, 4, img, sizeof img, s);
  hs = make_handle(TF_INT32, &two, 1, size, sizeof size, s);
  hsc = make_handle(TF_FLOAT, &two, 1, one, sizeof one, s);
  htr = make_handle(TF_FLOAT, &two, 1, zero, sizeof zero, s);
  for (ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
    TFE_Op* op = op1(ctx, "ScaleAndTranslate", hi, s);
    TF_Tensor* t;
    TFE_OpAddInput(op, hs, s);
    TFE_OpAddInput(op, hsc, s);
    TFE_OpAddInput(op, htr, s);
    TFE_OpSetAttrString(op, "kernel_type", kernels[ki], strlen(kernels[ki]));
    t = run_op(op, s);
    CHECK_CODE(s, TF_OK);
    for (j = 0; j < 60; j++) {
      float g = ((const float*)TF_TensorData(t))[j];
      if (fabsf(g - img[j]) > 1e-5f) {
        TFE_FAIL("%s [%d]: %g vs %g", kernels[ki], j, g, img[j]);
      }
    }
    TF_DeleteTensor(t);
  }
  {
    TFE_Op* op = op1(ctx, "ScaleAndTranslate", hi, s);
    TFE_OpAddInput(op, hs, s);
    TFE_OpAddInput(op, hsc, s);
    TFE_OpAddInput(op, htr, s);
    TFE_OpSetAttrString(op, "kernel_type", "cubic", 5);
    CHECK(run_op(op, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK(strcmp(TF_Message(s), "Unrecognized kernel type: cubic") == 0);
  }
  {
    /* 2x2 patches, stride 2, VALID: [1, 2, 2, 12] */
    static const int64_t k4[4] = {1, 2, 2, 1}, s4[4] = {1, 2, 2, 1},
                         r4[4] = {1, 1, 1, 1};
    TFE_Op* op = op1(ctx, "ExtractImagePatches", hi, s);
    TF_Tensor* t;
    const float* p;
    TFE_OpSetAttrIntList(op, "ksizes", k4, 4);
    TFE_OpSetAttrIntList(op, "strides", s4, 4);
    TFE_OpSetAttrIntList(op, "rates", r4, 4);
    TFE_OpSetAttrString(op, "padding", "VALID", 5);
    t = run_op(op, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_Dim(t, 1), 2);
    CHECK_EQ_INT(TF_Dim(t, 2), 2);
    CHECK_EQ_INT(TF_Dim(t, 3), 12);
    p = (const float*)TF_TensorData(t);
    /* output (1, 1) patch element (1, 0) = input (3, 2) */
    for (j = 0; j < 3; j++) {
      CHECK(p[(1 * 2 + 1) * 12 + (1 * 2 + 0) * 3 + j] == img[(3 * 5 + 2) * 3 + j]);
    }
    TF_DeleteTensor(t);
  }
  {
    TF_Tensor *hsv, *rgb;
    TFE_TensorHandle* h;
    hsv = run_op(op1(ctx, "RGBToHSV", hi, s), s);
    CHECK_CODE(s, TF_OK);
    h = TFE_NewTensorHandle(hsv, s);
    rgb = run_op(op1(ctx, "HSVToRGB", h, s), s);
    CHECK_CODE(s, TF_OK);
    for (j = 0; j < 60; j++) {
      float g = ((const float*)TF_TensorData(rgb))[j];
      if (fabsf(g - img[j]) > 1e-6f) TFE_FAIL("[%d]: %g vs %g", j, g, img[j]);
    }
    TF_DeleteTensor(hsv);
    TF_DeleteTensor(rgb);
    TFE_DeleteTensorHandle(h);
  }
  TFE_DeleteTensorHandle(hi);
  TFE_DeleteTensorHandle(hs);
  TFE_DeleteTensorHandle(hsc);
  TFE_DeleteTensorHandle(htr);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
