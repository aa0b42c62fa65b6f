/* The math_special op group through the public eager C API: Igamma,
 * Igammac, Zeta, Polygamma and Betainc give TF 2.21's float digits (values
 * recorded from TF), Betainc's shape rules and messages, EuclideanNorm on
 * integers (wrap-around and truncated root, as TF), complex and axes, and
 * ApproxTopK (TF's CPU kernel: exact top k of the last dimension, NOT_FOUND
 * for the settings TF has no CPU kernel for). The wide value tables are in
 * tests/data/api_math_tf221.json (tests/python/test_api_math.py). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"

static TFE_TensorHandle* vec_f32(const float* v, int64_t n, TF_Status* s) {
  return make_handle(TF_FLOAT, &n, 1, v, sizeof(float) * (size_t)n, s);
}

/* Runs op `name` on inputs in[0..nin) with attrs set by `attrs` (may be
 * NULL); returns the number of outputs stored in out (0 on failure, status
 * in s). */
static int run(TFE_Context* ctx, const char* name, TFE_TensorHandle** in,
               int nin, void (*attrs)(TFE_Op*, void*), void* arg,
               TFE_TensorHandle** out, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  int i, n = 2;
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < nin; i++) {
    TFE_OpAddInput(op, in[i], s);
    CHECK_CODE(s, TF_OK);
  }
  if (attrs != NULL) attrs(op, arg);
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK ? n : 0;
}

/* Checks a float tensor's values bit for bit (NaN matches NaN). */
static void expect_f32(TFE_TensorHandle* h, const float* want, int n,
                       TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  const float* got;
  int i;
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_FLOAT);
  CHECK_EQ_INT(TF_TensorElementCount(t), n);
  got = (const float*)TF_TensorData(t);
  for (i = 0; i < n; i++) {
    if (isnan(want[i])) {
      CHECK(isnan(got[i]));
    } else if (got[i] != want[i]) {
      TFE_FAIL("element %d is %.9g, expected %.9g", i, (double)got[i],
               (double)want[i]);
    }
  }
  TF_DeleteTensor(t);
}

TEST(incomplete_gamma_zeta_polygamma_give_tf_float_digits) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  live_counts before = live_now();
  static const float a[] = {1.0f, 2.0f, 0.5f, 0.0f, -1.0f};
  static const float x[] = {1.0f, 3.0f, 0.0f, 1.0f, 1.0f};
  /* TF 2.21 */
  static const float ig[] = {0.6321204900741577f, 0.8008517026901245f, 0.0f,
                             NAN, NAN};
  static const float igc[] = {0.3678794503211975f, 0.1991482824087143f, 1.0f,
                              NAN, NAN};
  static const float zx[] = {2.0f, 10.0f, 2.0f, 0.5f, 1.0f};
  static const float zq[] = {1.0f, 0.5f, 0.0f, 1.0f, NAN};
  static const float z[] = {1.644934058189392f, 1024.0174560546875f,
                            INFINITY, NAN, INFINITY};
  static const float pn[] = {1.0f, 0.0f, 2.0f, 0.5f, 1.0f};
  static const float px[] = {0.5f, 0.5f, 0.5f, 1.0f, 0.0f};
  static const float pg[] = {4.934802055358887f, -1.9635107517242432f,
                             -16.828794479370117f, NAN, INFINITY};
  TFE_TensorHandle *in[2], *out[2];
  in[0] = vec_f32(a, 5, s);
  in[1] = vec_f32(x, 5, s);
  CHECK_EQ_INT(run(ctx, "Igamma", in, 2, NULL, NULL, out, s), 1);
  expect_f32(out[0], ig, 5, s);
  TFE_DeleteTensorHandle(out[0]);
  CHECK_EQ_INT(run(ctx, "Igammac", in, 2, NULL, NULL, out, s), 1);
  expect_f32(out[0], igc, 5, s);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(in[0]);
  TFE_DeleteTensorHandle(in[1]);
  in[0] = vec_f32(zx, 5, s);
  in[1] = vec_f32(zq, 5, s);
  CHECK_EQ_INT(run(ctx, "Zeta", in, 2, NULL, NULL, out, s), 1);
  expect_f32(out[0], z, 5, s);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(in[0]);
  TFE_DeleteTensorHandle(in[1]);
  in[0] = vec_f32(pn, 5, s);
  in[1] = vec_f32(px, 5, s);
  CHECK_EQ_INT(run(ctx, "Polygamma", in, 2, NULL, NULL, out, s), 1);
  expect_f32(out[0], pg, 5, s);
  TFE_DeleteTensorHandle(out[0]);
  /* broadcasting against a scalar, and TF's broadcast error */
  TFE_DeleteTensorHandle(in[1]);
  in[1] = scalar_f32(3.0f, s);
  CHECK_EQ_INT(run(ctx, "Igamma", in, 2, NULL, NULL, out, s), 1);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(in[1]);
  in[1] = vec_f32(px, 4, s);
  CHECK_EQ_INT(run(ctx, "Igamma", in, 2, NULL, NULL, out, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Incompatible shapes");
  TFE_DeleteTensorHandle(in[0]);
  TFE_DeleteTensorHandle(in[1]);
  CHECK_LIVE_EQ(live_now(), before);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(betainc_scalars_shapes_and_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  live_counts before = live_now();
  static const float b2[] = {3.0f, 4.0f};
  static const float x2[] = {0.4f, 0.5f};
  static const float a3[] = {2.0f, 1.0f, 1.0f};
  static const float want[] = {0.5248000621795654f, 0.8125f};
  TFE_TensorHandle *in[3], *out[2];
  in[0] = scalar_f32(2.0f, s);
  in[1] = vec_f32(b2, 2, s);
  in[2] = vec_f32(x2, 2, s);
  CHECK_EQ_INT(run(ctx, "Betainc", in, 3, NULL, NULL, out, s), 1);
  expect_f32(out[0], want, 2, s);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(in[0]);
  in[0] = vec_f32(a3, 3, s);
  CHECK_EQ_INT(run(ctx, "Betainc", in, 3, NULL, NULL, out, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Shapes of a and b are inconsistent: [3] vs. [2]");
  TFE_DeleteTensorHandle(in[0]);
  TFE_DeleteTensorHandle(in[1]);
  in[0] = vec_f32(b2, 2, s);
  in[1] = vec_f32(b2, 2, s);
  TFE_DeleteTensorHandle(in[2]);
  in[2] = vec_f32(a3, 3, s);
  CHECK_EQ_INT(run(ctx, "Betainc", in, 3, NULL, NULL, out, s), 0);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Shapes of a and x are inconsistent: [2] vs. [3]");
  TFE_DeleteTensorHandle(in[0]);
  TFE_DeleteTensorHandle(in[1]);
  TFE_DeleteTensorHandle(in[2]);
  CHECK_LIVE_EQ(live_now(), before);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

static void set_keep(TFE_Op* op, void* arg) {
  TFE_OpSetAttrBool(op, "keep_dims", (unsigned char)(*(int*)arg));
}

TEST(euclidean_norm_integers_complex_axes) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  live_counts before = live_now();
  static const int32_t m[] = {1, 2, 3, 4};
  static const int8_t w[] = {100, 100};
  static const double c[] = {3, 4, 0, 1};
  int64_t d2[2] = {2, 2}, d1 = 2;
  int32_t axes_all[2] = {0, 1}, axis0 = 0, axis2 = 2;
  int keep = 0, keep1 = 1;
  TFE_TensorHandle *in[2], *out[2];
  TF_Tensor* t;
  in[0] = make_handle(TF_INT32, d2, 2, m, sizeof m, s);
  in[1] = make_handle(TF_INT32, &d1, 1, axes_all, sizeof axes_all, s);
  CHECK_EQ_INT(run(ctx, "EuclideanNorm", in, 2, set_keep, &keep, out, s), 1);
  CHECK_EQ_INT(read_i32(out[0], s), 5); /* sqrt(30) truncated */
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(in[1]);
  in[1] = make_handle(TF_INT32, NULL, 0, &axis0, sizeof axis0, s);
  CHECK_EQ_INT(run(ctx, "EuclideanNorm", in, 2, set_keep, &keep1, out, s), 1);
  t = TFE_TensorHandleResolve(out[0], s);
  CHECK_EQ_INT(TF_NumDims(t), 2);
  CHECK_EQ_INT(TF_Dim(t, 0), 1);
  CHECK_EQ_INT(((const int32_t*)TF_TensorData(t))[0], 3);
  CHECK_EQ_INT(((const int32_t*)TF_TensorData(t))[1], 4);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(in[1]);
  in[1] = make_handle(TF_INT32, NULL, 0, &axis2, sizeof axis2, s);
  CHECK_EQ_INT(run(ctx, "EuclideanNorm", in, 2, set_keep, &keep, out, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Invalid reduction dimension (2 for input with 2 "
                     "dimension(s)");
  TFE_DeleteTensorHandle(in[0]);
  /* int8 squares wrap before the root: 100^2 + 100^2 = 32 (mod 256) */
  in[0] = make_handle(TF_INT8, &d1, 1, w, sizeof w, s);
  TFE_DeleteTensorHandle(in[1]);
  in[1] = make_handle(TF_INT32, NULL, 0, &axis0, sizeof axis0, s);
  CHECK_EQ_INT(run(ctx, "EuclideanNorm", in, 2, set_keep, &keep, out, s), 1);
  t = TFE_TensorHandleResolve(out[0], s);
  CHECK_EQ_INT(((const int8_t*)TF_TensorData(t))[0], 5);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(in[0]);
  /* complex: sqrt(sum |z|^2) with a zero imaginary part */
  in[0] = make_handle(TF_COMPLEX128, &d1, 1, c, sizeof c, s);
  CHECK_EQ_INT(run(ctx, "EuclideanNorm", in, 2, set_keep, &keep, out, s), 1);
  t = TFE_TensorHandleResolve(out[0], s);
  CHECK(fabs(((const double*)TF_TensorData(t))[0] - sqrt(26.0)) < 1e-15);
  CHECK(((const double*)TF_TensorData(t))[1] == 0.0);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(in[0]);
  TFE_DeleteTensorHandle(in[1]);
  CHECK_LIVE_EQ(live_now(), before);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

typedef struct atk_attrs {
  int64_t k;
  int max_k;
} atk_attrs;

static void set_atk(TFE_Op* op, void* arg) {
  const atk_attrs* a = (const atk_attrs*)arg;
  TFE_OpSetAttrInt(op, "k", a->k);
  TFE_OpSetAttrBool(op, "is_max_k", (unsigned char)a->max_k);
}

TEST(approx_top_k_is_exact_on_cpu) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  live_counts before = live_now();
  static const float v[] = {1.0f, 4.0f, 2.0f, 3.0f, 3.0f, 1.0f};
  static const float want_v[] = {4.0f, 2.0f, 3.0f, 3.0f};
  static const int32_t want_i[] = {1, 2, 0, 1};
  int64_t d[2] = {2, 3};
  atk_attrs two = {2, 1}, five = {5, 1}, mink = {2, 0};
  TFE_TensorHandle *in[1], *out[2];
  TF_Tensor* t;
  int i;
  in[0] = make_handle(TF_FLOAT, d, 2, v, sizeof v, s);
  CHECK_EQ_INT(run(ctx, "ApproxTopK", in, 1, set_atk, &two, out, s), 2);
  expect_f32(out[0], want_v, 4, s);
  t = TFE_TensorHandleResolve(out[1], s);
  CHECK(TF_TensorType(t) == TF_INT32);
  for (i = 0; i < 4; i++) {
    CHECK_EQ_INT(((const int32_t*)TF_TensorData(t))[i], want_i[i]);
  }
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(out[1]);
  CHECK_EQ_INT(run(ctx, "ApproxTopK", in, 1, set_atk, &five, out, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "input must have at least k columns. Had 3, needed 5");
  CHECK_EQ_INT(run(ctx, "ApproxTopK", in, 1, set_atk, &mink, out, s), 0);
  CHECK_CODE(s, TF_NOT_FOUND);
  TFE_DeleteTensorHandle(in[0]);
  in[0] = scalar_f32(1.0f, s);
  CHECK_EQ_INT(run(ctx, "ApproxTopK", in, 1, set_atk, &two, out, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(in[0]);
  CHECK_LIVE_EQ(live_now(), before);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
