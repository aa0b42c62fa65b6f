/* MaxPool across channels (depth window > 1) and the errors of the
 * depth-pooling cases, against values and messages recorded from
 * TensorFlow 2.21's CPU kernels (Eigen kernels, TF_ENABLE_ONEDNN_OPTS=0
 * for AvgPool, whose oneDNN variant returns an empty tensor instead). */
#include <math.h>

#include "kernel_test_util.h"

static TF_Status* S;
static tfe_attrs A;
static TF_Tensor* OUT[KT_MAX_IO];

static void begin(void) {
  if (S == NULL) S = TF_NewStatus();
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
}

static void pool_attrs(const int64_t* ks, const int64_t* st, const char* pad) {
  kt_attr_ints(&A, "ksize", ks, 4);
  kt_attr_ints(&A, "strides", st, 4);
  kt_attr_string(&A, "padding", pad);
}

/* Groups of w channels with many NaNs: which value TF returns depends on
 * the order of Eigen's vectorized comparisons (and on the group's offset
 * in the buffer), so these fix that order. Expected per dtype: float,
 * double, half, bfloat16. */
typedef struct depth_case {
  int64_t w, g;
  const double* in;
  const double* want[4];
} depth_case;

static const depth_case kCases[] = {
  {8, 6,
   (const double[]){2, -4, NAN, -4, NAN, -2, 4, 2, 1, NAN, NAN, NAN, 4, NAN, NAN, NAN, NAN, -2, -1, NAN, -1, NAN, 0, NAN, NAN, NAN, 2, -2, NAN, 2, NAN, NAN, NAN, NAN, 0, NAN, NAN, -2, -3, 3, -2, NAN, -2, 0, NAN, 1, NAN, 2},
   {(const double[]){2, 4, NAN, NAN, NAN, -2},
    (const double[]){2, 4, NAN, NAN, NAN, -2},
    (const double[]){2, 4, NAN, NAN, NAN, -2},
    (const double[]){2, 4, NAN, NAN, NAN, -2}}},
  {12, 6,
   (const double[]){-1, NAN, 2, 4, 2, NAN, 3, 4, -2, NAN, NAN, -2, -2, 0, NAN, NAN, NAN, NAN, NAN, -2, NAN, 1, -1, NAN, 2, NAN, NAN, 4, 0, 1, -3, 2, 1, -4, 0, NAN, 1, NAN, NAN, NAN, NAN, -3, 2, NAN, -2, NAN, 0, -2, -1, 4, 3, NAN, -2, NAN, -3, -2, -4, -1, NAN, NAN, -3, 0, 2, -1, NAN, -1, NAN, 2, -1, -2, NAN, 2},
   {(const double[]){3, NAN, 2, NAN, 4, NAN},
    (const double[]){3, 1, 2, 1, 4, 2},
    (const double[]){3, NAN, 2, NAN, 4, NAN},
    (const double[]){3, NAN, 2, NAN, 4, NAN}}},
  {20, 4,
   (const double[]){-4, -4, NAN, NAN, -1, NAN, -4, 4, NAN, -2, -4, -4, NAN, 3, NAN, 4, 1, 0, -1, NAN, -2, 4, NAN, NAN, NAN, NAN, 4, 1, NAN, NAN, 3, NAN, -4, NAN, NAN, 2, 1, NAN, NAN, 1, -4, NAN, -1, NAN, NAN, 3, NAN, 3, NAN, -4, -2, 0, 2, NAN, 0, NAN, NAN, NAN, 0, -1, NAN, 0, NAN, 3, NAN, -1, -3, 3, -1, -1, NAN, -2, NAN, NAN, 1, -4, 3, -3, -1, -4},
   {(const double[]){1, NAN, 0, NAN},
    (const double[]){1, 4, 0, NAN},
    (const double[]){1, NAN, 0, NAN},
    (const double[]){1, NAN, 0, NAN}}},
  {36, 3,
   (const double[]){NAN, -3, 3, 4, NAN, 1, -4, NAN, 3, -2, NAN, -1, NAN, 0, NAN, NAN, 1, -2, NAN, 2, -4, NAN, NAN, 1, -4, -3, 4, NAN, 2, NAN, -1, NAN, 4, 4, 4, 4, 4, 4, 3, -3, NAN, NAN, -3, 2, NAN, -4, -3, NAN, 1, NAN, -2, 0, NAN, NAN, -2, 0, 2, 0, NAN, NAN, NAN, NAN, NAN, 4, 2, -2, NAN, 2, 1, 3, -4, NAN, 1, NAN, 0, -3, NAN, NAN, 1, -2, 0, NAN, NAN, -1, NAN, NAN, -3, -4, NAN, NAN, 1, 4, 4, NAN, NAN, -3, -2, 4, 3, NAN, 1, NAN, 1, 4, 3, -4, 3, -2},
   {(const double[]){NAN, NAN, 3},
    (const double[]){NAN, 4, 3},
    (const double[]){NAN, NAN, 3},
    (const double[]){NAN, NAN, 3}}},
};

TEST(depth_max_pool_nan_order_matches_tensorflow) {
  static const TF_DataType kTypes[4] = {TF_FLOAT, TF_DOUBLE, TF_HALF,
                                        TF_BFLOAT16};
  size_t c;
  int t;
  for (c = 0; c < sizeof kCases / sizeof kCases[0]; c++) {
    const depth_case* dc = &kCases[c];
    for (t = 0; t < 4; t++) {
      TF_Tensor* in[1];
      begin();
      in[0] = kt_tensor(kTypes[t], KT_DIMS(1, 1, dc->g, dc->w), dc->in);
      pool_attrs((const int64_t[]){1, 1, 1, dc->w},
                 (const int64_t[]){1, 1, 1, dc->w}, "VALID");
      CHECK_EQ_INT(kt_run("MaxPool", &A, in, 1, OUT, S), 1);
      KT_CHECK(OUT[0], kTypes[t], KT_DIMS(1, 1, dc->g, 1), dc->want[t]);
      TF_DeleteTensor(OUT[0]);
    }
  }
}

TEST(depth_max_pool_values_and_shapes) {
  static const TF_DataType kTypes[] = {TF_FLOAT, TF_DOUBLE, TF_HALF,
                                       TF_BFLOAT16, TF_INT32, TF_INT64,
                                       TF_UINT8, TF_INT16, TF_INT8,
                                       TF_UINT16};
  double x[36];
  size_t t;
  int i;
  /* TF: x = (arange(36) * 7 % 11) - 5 as [1, 2, 3, 6], window 2 */
  for (i = 0; i < 36; i++) x[i] = (double)((i * 7) % 11) - 5;
  for (t = 0; t < sizeof kTypes / sizeof kTypes[0]; t++) {
    TF_Tensor* in[1];
    int uns = kTypes[t] == TF_UINT8 || kTypes[t] == TF_UINT16;
    double xs[36];
    for (i = 0; i < 36; i++) xs[i] = uns && x[i] < 0 ? 0 : x[i];
    begin();
    in[0] = kt_tensor(kTypes[t], KT_DIMS(1, 2, 3, 6), xs);
    /* spatial strides and SAME padding are ignored by depth pooling */
    pool_attrs((const int64_t[]){1, 1, 1, 2}, (const int64_t[]){1, 2, 2, 2},
               "SAME");
    CHECK_EQ_INT(kt_run("MaxPool", &A, in, 1, OUT, S), 1);
    if (uns) {
      KT_CHECK(OUT[0], kTypes[t], KT_DIMS(1, 2, 3, 3),
               KT_V(2, 5, 1, 4, 3, 0, 2, 5, 4, 0, 3, 2, 5, 1, 4, 3, 0, 2));
    } else {
      KT_CHECK(OUT[0], kTypes[t], KT_DIMS(1, 2, 3, 3),
               KT_V(2, 5, 1, 4, 3, -1, 2, 5, 4, 0, 3, 2, 5, 1, 4, 3, -1,
                    2));
    }
    TF_DeleteTensor(OUT[0]);
  }
}

TEST(depth_max_pool_signed_zero_inf_and_empty) {
  TF_Tensor* in[1];
  const float* y;
  /* TF: pairs (nan,1) (2,nan) (-0,0) (0,-0) (-inf,-inf) (5,-7) give
   * nan, 2, -0, 0, -inf, 5: the first of two equal values is kept */
  begin();
  in[0] = kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 1, 12),
                    KT_V(NAN, 1, 2, NAN, -0.0, 0.0, 0.0, -0.0, -INFINITY,
                         -INFINITY, 5, -7));
  pool_attrs((const int64_t[]){1, 1, 1, 2}, (const int64_t[]){1, 1, 1, 2},
             "VALID");
  CHECK_EQ_INT(kt_run("MaxPool", &A, in, 1, OUT, S), 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 1, 1, 6),
           KT_V(NAN, 2, 0, 0, -INFINITY, 5));
  y = (const float*)TF_TensorData(OUT[0]);
  CHECK(signbit(y[2]));
  CHECK(!signbit(y[3]));
  TF_DeleteTensor(OUT[0]);
  /* an empty batch gives an empty result of the pooled shape */
  begin();
  in[0] = kt_tensor(TF_FLOAT, KT_DIMS(0, 2, 3, 6), NULL);
  pool_attrs((const int64_t[]){1, 1, 1, 2}, (const int64_t[]){1, 1, 1, 2},
             "VALID");
  CHECK_EQ_INT(kt_run("MaxPool", &A, in, 1, OUT, S), 1);
  kt_check_shape(OUT[0], KT_DIMS(0, 2, 3, 3), __FILE__, __LINE__);
  TF_DeleteTensor(OUT[0]);
}

TEST(depth_stride_without_depth_window_is_ignored) {
  static const char* kOps[2] = {"MaxPool", "AvgPool"};
  int o;
  for (o = 0; o < 2; o++) {
    TF_Tensor* in[1];
    begin();
    in[0] = kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 3, 6), NULL);
    /* TF: ksize [1,1,2,1] with strides [1,1,1,2] -> [1, 2, 2, 6] */
    pool_attrs((const int64_t[]){1, 1, 2, 1}, (const int64_t[]){1, 1, 1, 2},
               "VALID");
    CHECK_EQ_INT(kt_run(kOps[o], &A, in, 1, OUT, S), 1);
    kt_check_shape(OUT[0], KT_DIMS(1, 2, 2, 6), __FILE__, __LINE__);
    TF_DeleteTensor(OUT[0]);
  }
}

static void depth_error(const char* op, const int64_t* ks, const int64_t* st,
                        const char* pad, const char* msg) {
  TF_Tensor* in[1];
  begin();
  in[0] = kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 3, 6), NULL);
  pool_attrs(ks, st, pad);
  if (strcmp(pad, "EXPLICIT") == 0) {
    kt_attr_ints(&A, "explicit_paddings",
                 (const int64_t[]){0, 0, 0, 0, 0, 0, 0, 0}, 8);
  }
  CHECK_EQ_INT(kt_run(op, &A, in, 1, OUT, S), -1);
  CHECK_CODE(S, TF_UNIMPLEMENTED);
  CHECK_STR_EQ(TF_Message(S), msg);
}

TEST(depth_pooling_errors_match_tensorflow) {
  const char* both =
      "MaxPooling supports exactly one of pooling across depth or pooling "
      "across width/height.";
  const char* divide =
      "Depthwise max pooling requires the depth window to evenly divide the "
      "input depth";
  const char* equal =
      "Depthwise max pooling requires the depth window to equal the depth "
      "stride";
  depth_error("MaxPool", (const int64_t[]){1, 2, 1, 2},
              (const int64_t[]){1, 1, 1, 2}, "VALID", both);
  depth_error("AvgPool", (const int64_t[]){1, 2, 1, 2},
              (const int64_t[]){1, 1, 1, 2}, "VALID", both);
  depth_error("MaxPool", (const int64_t[]){1, 1, 1, 4},
              (const int64_t[]){1, 1, 1, 4}, "VALID", divide);
  depth_error("MaxPool", (const int64_t[]){1, 1, 1, 12},
              (const int64_t[]){1, 1, 1, 12}, "VALID", divide);
  depth_error("AvgPool", (const int64_t[]){1, 1, 1, 4},
              (const int64_t[]){1, 1, 1, 4}, "VALID", divide);
  depth_error("MaxPool", (const int64_t[]){1, 1, 1, 3},
              (const int64_t[]){1, 1, 1, 6}, "VALID", equal);
  depth_error("AvgPool", (const int64_t[]){1, 1, 1, 2},
              (const int64_t[]){1, 1, 1, 1}, "VALID", equal);
  depth_error("AvgPool", (const int64_t[]){1, 1, 1, 2},
              (const int64_t[]){1, 1, 1, 2}, "VALID",
              "Non-spatial pooling is not yet supported. Volunteers? :)");
  depth_error("MaxPool", (const int64_t[]){1, 1, 1, 2},
              (const int64_t[]){1, 1, 1, 2}, "EXPLICIT",
              "Depthwise max pooling does not support explicit padding.");
  tfe_attrs_destroy(&A);
  TF_DeleteStatus(S);
  S = NULL;
}

TFE_TEST_MAIN
