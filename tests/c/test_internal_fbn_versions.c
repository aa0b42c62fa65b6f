/* FusedBatchNorm (float) and FusedBatchNormV2 (half/bfloat16/float x with
 * float statistics): the same computation as V3 with five outputs, against
 * values recorded from TensorFlow 2.21's CPU (Eigen) kernels; and the
 * (T, U) pairs TF registers on CPU (U = bfloat16 has no kernel). The op
 * definitions are registered here, in TF's grammar, when the built-in op
 * library does not define them. */
#include "kernel_test_util.h"

static TF_Status* S;
static tfe_attrs A;
static TF_Tensor* OUT[KT_MAX_IO];

static const char* kV1Specs[] = {
    "in: x: T", "in: scale: T", "in: offset: T", "in: mean: T",
    "in: variance: T", "out: y: T", "out: batch_mean: T",
    "out: batch_variance: T", "out: reserve_space_1: T",
    "out: reserve_space_2: T", "attr: T: {float}",
    "attr: epsilon: float = 0.0001",
    "attr: exponential_avg_factor: float = 1",
    "attr: data_format: {'NHWC', 'NCHW'} = 'NHWC'",
    "attr: is_training: bool = true", NULL};
static const char* kV2Specs[] = {
    "in: x: T", "in: scale: U", "in: offset: U", "in: mean: U",
    "in: variance: U", "out: y: T", "out: batch_mean: U",
    "out: batch_variance: U", "out: reserve_space_1: U",
    "out: reserve_space_2: U", "attr: T: {half, bfloat16, float}",
    "attr: U: {float}", "attr: epsilon: float = 0.0001",
    "attr: exponential_avg_factor: float = 1",
    "attr: data_format: {'NHWC', 'NCHW'} = 'NHWC'",
    "attr: is_training: bool = true", NULL};

static void begin(void) {
  if (S == NULL) {
    S = TF_NewStatus();
    tfe_ops_ensure_builtins();
    if (tfe_op_lookup("FusedBatchNorm") == NULL) {
      tfe_op_register_specs("FusedBatchNorm", kV1Specs, S);
    }
    if (tfe_op_lookup("FusedBatchNormV2") == NULL) {
      tfe_op_register_specs("FusedBatchNormV2", kV2Specs, S);
    }
    CHECK_CODE(S, TF_OK);
  }
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
}

static void free_outs(int n) {
  int i;
  for (i = 0; i < n; i++) {
    TF_DeleteTensor(OUT[i]);
    OUT[i] = NULL;
  }
}

/* x = arange(24) as [2, 2, 3, 2] (or its NCHW transpose), scale (1, 2),
 * offset (0.5, 0), mean (1, 2), variance (3, 4). */
static int run(const char* op, TF_DataType t, int training, float factor,
               int nchw) {
  TF_Tensor* in[5];
  double x[24];
  int i;
  tfe_attr_value v;
  for (i = 0; i < 24; i++) {
    if (nchw) {
      /* element (n, h, w, c) of the NHWC array goes to (n, c, h, w) */
      int n = i / 12, c = (i / 6) % 2, h = (i / 3) % 2, w = i % 3;
      x[i] = (double)(((n * 2 + h) * 3 + w) * 2 + c);
    } else {
      x[i] = i;
    }
  }
  in[0] = nchw ? kt_tensor(t, KT_DIMS(2, 2, 2, 3), x)
               : kt_tensor(t, KT_DIMS(2, 2, 3, 2), x);
  in[1] = kt_vec(TF_FLOAT, 2, KT_V(1, 2));
  in[2] = kt_vec(TF_FLOAT, 2, KT_V(0.5, 0));
  in[3] = kt_vec(TF_FLOAT, 2, KT_V(1, 2));
  in[4] = kt_vec(TF_FLOAT, 2, KT_V(3, 4));
  kt_attr_bool(&A, "is_training", training);
  tfe_attr_value_set_float(&v, factor);
  tfe_attrs_put(&A, "exponential_avg_factor", &v);
  if (nchw) kt_attr_string(&A, "data_format", "NCHW");
  return kt_run(op, &A, in, 5, OUT, S);
}

TEST(fused_batch_norm_v1_matches_tensorflow) {
  begin();
  CHECK_EQ_INT(run("FusedBatchNorm", TF_FLOAT, 1, 0.5f, 0), 5);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(2, 2, 3, 2),
               KT_V(-1.09325325, -3.18650651, -0.803570867, -2.60714173,
                    -0.513888478, -2.02777696, -0.22420603, -1.44841206,
                    0.0654763579, -0.869047284, 0.355158806, -0.289682418,
                    0.644841194, 0.289682418, 0.934523642, 0.869047284,
                    1.22420597, 1.44841206, 1.51388848, 2.02777696,
                    1.80357087, 2.60714173, 2.09325314, 3.18650651),
               1e-6);
  KT_CHECK(OUT[1], TF_FLOAT, KT_DIMS(2), KT_V(6, 7));
  KT_CHECK_TOL(OUT[2], TF_FLOAT, KT_DIMS(2), KT_V(27.5000019, 28.0000019),
               1e-5);
  KT_CHECK(OUT[3], TF_FLOAT, KT_DIMS(2), KT_V(11, 12));
  KT_CHECK_TOL(OUT[4], TF_FLOAT, KT_DIMS(2), KT_V(47.6666679, 47.6666679),
               1e-5);
  free_outs(5);
  /* inference, NCHW */
  begin();
  CHECK_EQ_INT(run("FusedBatchNorm", TF_FLOAT, 0, 1.0f, 1), 5);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(2, 2, 2, 3),
               KT_V(-0.0773406625, 1.0773406, 2.23202205, 3.38670325,
                    4.5413847, 5.6960659, -0.999987483, 0.999987483,
                    2.99996233, 4.99993753, 6.99991226, 8.99988747,
                    6.85074711, 8.00542831, 9.16010952, 10.3147917,
                    11.4694729, 12.6241541, 10.9998627, 12.9998369,
                    14.9998121, 16.9997864, 18.9997616, 20.9997368),
               1e-5);
  KT_CHECK(OUT[1], TF_FLOAT, KT_DIMS(2), KT_V(1, 2));
  KT_CHECK(OUT[2], TF_FLOAT, KT_DIMS(2), KT_V(3, 4));
  free_outs(5);
}

TEST(fused_batch_norm_v2_half_and_bfloat16_match_tensorflow) {
  static const double kHalf[24] = {
      -1.09277344, -3.18554688, -0.803710938, -2.60742188, -0.513671875,
      -2.02734375, -0.224243164, -1.44824219, 0.0654907227, -0.869140625,
      0.355224609, -0.289794922, 0.645019531, 0.289794922, 0.934570312,
      0.869140625, 1.22460938, 1.44824219, 1.51367188, 2.02734375,
      1.80371094, 2.60742188, 2.09375, 3.18554688};
  static const double kBf16[24] = {
      -1.09375, -3.1875, -0.8046875, -2.609375, -0.515625, -2.03125,
      -0.224609375, -1.4453125, 0.0654296875, -0.8671875, 0.35546875,
      -0.2890625, 0.64453125, 0.2890625, 0.93359375, 0.8671875, 1.2265625,
      1.4453125, 1.515625, 2.03125, 1.8046875, 2.609375, 2.09375, 3.1875};
  int t;
  for (t = 0; t < 2; t++) {
    TF_DataType dt = t == 0 ? TF_HALF : TF_BFLOAT16;
    begin();
    CHECK_EQ_INT(run("FusedBatchNormV2", dt, 1, 1.0f, 0), 5);
    /* y is rounded to T: the same T value (the recorded decimals carry 9
     * digits, far below T's spacing) */
    KT_CHECK_TOL(OUT[0], dt, KT_DIMS(2, 2, 3, 2), t == 0 ? kHalf : kBf16,
                 1e-8);
    KT_CHECK(OUT[1], TF_FLOAT, KT_DIMS(2), KT_V(11, 12));
    KT_CHECK_TOL(OUT[2], TF_FLOAT, KT_DIMS(2), KT_V(52.0000038, 52.0000038),
                 1e-5);
    KT_CHECK(OUT[3], TF_FLOAT, KT_DIMS(2), KT_V(11, 12));
    KT_CHECK_TOL(OUT[4], TF_FLOAT, KT_DIMS(2), KT_V(47.6666679, 47.6666679),
                 1e-5);
    free_outs(5);
  }
}

TEST(fused_batch_norm_has_no_bfloat16_statistics_kernel) {
  /* TF: T=float, U=bfloat16 is in the V3 op's allowed list but has no CPU
   * kernel -> NOT_FOUND */
  TF_Tensor* in[5];
  int i;
  begin();
  in[0] = kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 1, 2), NULL);
  for (i = 1; i < 5; i++) in[i] = kt_vec(TF_BFLOAT16, 2, KT_V(1, 1));
  CHECK_EQ_INT(kt_run("FusedBatchNormV3", &A, in, 5, OUT, S), -1);
  CHECK_CODE(S, TF_NOT_FOUND);
  tfe_attrs_destroy(&A);
  TF_DeleteStatus(S);
  S = NULL;
}

TFE_TEST_MAIN
