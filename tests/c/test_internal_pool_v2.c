/* MaxPoolV2 (ksize and strides as int32 inputs) and the spatial MaxPool
 * fixes that came with it, against values and messages recorded from
 * TensorFlow 2.21's CPU kernels in its default build (oneDNN on: MaxPool
 * on float, half and bfloat16 runs through oneDNN, MaxPoolV2 always runs
 * TF's own kernel). TF's spatial max starts every window at the dtype's
 * lowest finite value and lets only strictly greater elements in, so NaNs
 * are skipped and a window of NaN and -inf gives that lowest value
 * (-inf for bfloat16 MaxPool, where oneDNN starts from float's lowest). */
#include <math.h>

#include "kernel_test_harness.h"

typedef struct pool_case {
  TF_DataType dt;
  const double* in; /* shape [1, 3, 4, 3] */
  int64_t ks[4], st[4];
  const char* pad;
  int64_t od[4];
  const double* want_v2;
  const double* want_v1;
} pool_case;

static const pool_case kCases[] = {
  {TF_FLOAT, (const double[]){1.0, NAN, 24.0, NAN, NAN, NAN, -INFINITY, -1.0, NAN, -37.0, -INFINITY, -INFINITY, NAN, NAN, -8.0, 9.0, NAN, NAN, -3.0, 14.0, -INFINITY, -INFINITY, NAN, NAN, NAN, -16.0, -9.0, NAN, -30.0, NAN, NAN, -5.0, -15.0, NAN, 14.0, NAN},
   {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID", {1, 1, 2, 3},
   (const double[]){9.0, -3.4028234663852886e+38, 24.0, -3.0, 14.0, -3.4028234663852886e+38},
   (const double[]){9.0, -3.4028234663852886e+38, 24.0, -3.0, 14.0, -3.4028234663852886e+38}},
  {TF_FLOAT, (const double[]){1.0, NAN, 24.0, NAN, NAN, NAN, -INFINITY, -1.0, NAN, -37.0, -INFINITY, -INFINITY, NAN, NAN, -8.0, 9.0, NAN, NAN, -3.0, 14.0, -INFINITY, -INFINITY, NAN, NAN, NAN, -16.0, -9.0, NAN, -30.0, NAN, NAN, -5.0, -15.0, NAN, 14.0, NAN},
   {1, 2, 3, 1}, {1, 1, 2, 1}, "SAME", {1, 3, 2, 3},
   (const double[]){9.0, 14.0, 24.0, -3.0, 14.0, -3.4028234663852886e+38, 9.0, 14.0, -8.0, -3.0, 14.0, -15.0, -3.4028234663852886e+38, -5.0, -9.0, -3.4028234663852886e+38, 14.0, -15.0},
   (const double[]){9.0, 14.0, 24.0, -3.0, 14.0, -3.4028234663852886e+38, 9.0, 14.0, -8.0, -3.0, 14.0, -15.0, -3.4028234663852886e+38, -5.0, -9.0, -3.4028234663852886e+38, 14.0, -15.0}},
  {TF_DOUBLE, (const double[]){1.0, NAN, 24.0, NAN, NAN, NAN, -INFINITY, -1.0, NAN, -37.0, -INFINITY, -INFINITY, NAN, NAN, -8.0, 9.0, NAN, NAN, -3.0, 14.0, -INFINITY, -INFINITY, NAN, NAN, NAN, -16.0, -9.0, NAN, -30.0, NAN, NAN, -5.0, -15.0, NAN, 14.0, NAN},
   {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID", {1, 1, 2, 3},
   (const double[]){9.0, -1.7976931348623157e+308, 24.0, -3.0, 14.0, -1.7976931348623157e+308},
   (const double[]){9.0, -1.7976931348623157e+308, 24.0, -3.0, 14.0, -1.7976931348623157e+308}},
  {TF_DOUBLE, (const double[]){1.0, NAN, 24.0, NAN, NAN, NAN, -INFINITY, -1.0, NAN, -37.0, -INFINITY, -INFINITY, NAN, NAN, -8.0, 9.0, NAN, NAN, -3.0, 14.0, -INFINITY, -INFINITY, NAN, NAN, NAN, -16.0, -9.0, NAN, -30.0, NAN, NAN, -5.0, -15.0, NAN, 14.0, NAN},
   {1, 2, 3, 1}, {1, 1, 2, 1}, "SAME", {1, 3, 2, 3},
   (const double[]){9.0, 14.0, 24.0, -3.0, 14.0, -1.7976931348623157e+308, 9.0, 14.0, -8.0, -3.0, 14.0, -15.0, -1.7976931348623157e+308, -5.0, -9.0, -1.7976931348623157e+308, 14.0, -15.0},
   (const double[]){9.0, 14.0, 24.0, -3.0, 14.0, -1.7976931348623157e+308, 9.0, 14.0, -8.0, -3.0, 14.0, -15.0, -1.7976931348623157e+308, -5.0, -9.0, -1.7976931348623157e+308, 14.0, -15.0}},
  {TF_HALF, (const double[]){1.0, NAN, 24.0, NAN, NAN, NAN, -INFINITY, -1.0, NAN, -37.0, -INFINITY, -INFINITY, NAN, NAN, -8.0, 9.0, NAN, NAN, -3.0, 14.0, -INFINITY, -INFINITY, NAN, NAN, NAN, -16.0, -9.0, NAN, -30.0, NAN, NAN, -5.0, -15.0, NAN, 14.0, NAN},
   {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID", {1, 1, 2, 3},
   (const double[]){9.0, -65504.0, 24.0, -3.0, 14.0, -65504.0},
   (const double[]){9.0, -65504.0, 24.0, -3.0, 14.0, -65504.0}},
  {TF_HALF, (const double[]){1.0, NAN, 24.0, NAN, NAN, NAN, -INFINITY, -1.0, NAN, -37.0, -INFINITY, -INFINITY, NAN, NAN, -8.0, 9.0, NAN, NAN, -3.0, 14.0, -INFINITY, -INFINITY, NAN, NAN, NAN, -16.0, -9.0, NAN, -30.0, NAN, NAN, -5.0, -15.0, NAN, 14.0, NAN},
   {1, 2, 3, 1}, {1, 1, 2, 1}, "SAME", {1, 3, 2, 3},
   (const double[]){9.0, 14.0, 24.0, -3.0, 14.0, -65504.0, 9.0, 14.0, -8.0, -3.0, 14.0, -15.0, -65504.0, -5.0, -9.0, -65504.0, 14.0, -15.0},
   (const double[]){9.0, 14.0, 24.0, -3.0, 14.0, -65504.0, 9.0, 14.0, -8.0, -3.0, 14.0, -15.0, -65504.0, -5.0, -9.0, -65504.0, 14.0, -15.0}},
  {TF_BFLOAT16, (const double[]){1.0, NAN, 24.0, NAN, NAN, NAN, -INFINITY, -1.0, NAN, -37.0, -INFINITY, -INFINITY, NAN, NAN, -8.0, 9.0, NAN, NAN, -3.0, 14.0, -INFINITY, -INFINITY, NAN, NAN, NAN, -16.0, -9.0, NAN, -30.0, NAN, NAN, -5.0, -15.0, NAN, 14.0, NAN},
   {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID", {1, 1, 2, 3},
   (const double[]){9.0, -3.3895313892515355e+38, 24.0, -3.0, 14.0, -3.3895313892515355e+38},
   (const double[]){9.0, -INFINITY, 24.0, -3.0, 14.0, -INFINITY}},
  {TF_BFLOAT16, (const double[]){1.0, NAN, 24.0, NAN, NAN, NAN, -INFINITY, -1.0, NAN, -37.0, -INFINITY, -INFINITY, NAN, NAN, -8.0, 9.0, NAN, NAN, -3.0, 14.0, -INFINITY, -INFINITY, NAN, NAN, NAN, -16.0, -9.0, NAN, -30.0, NAN, NAN, -5.0, -15.0, NAN, 14.0, NAN},
   {1, 2, 3, 1}, {1, 1, 2, 1}, "SAME", {1, 3, 2, 3},
   (const double[]){9.0, 14.0, 24.0, -3.0, 14.0, -3.3895313892515355e+38, 9.0, 14.0, -8.0, -3.0, 14.0, -15.0, -3.3895313892515355e+38, -5.0, -9.0, -3.3895313892515355e+38, 14.0, -15.0},
   (const double[]){9.0, 14.0, 24.0, -3.0, 14.0, -INFINITY, 9.0, 14.0, -8.0, -3.0, 14.0, -15.0, -INFINITY, -5.0, -9.0, -INFINITY, 14.0, -15.0}},
  {TF_INT32, (const double[]){1.0, 27.0, 24.0, -10.0, -6.0, -11.0, 11.0, -1.0, 15.0, -37.0, 31.0, -2.0, 14.0, -3.0, -8.0, 9.0, 16.0, -4.0, -3.0, 14.0, -17.0, -30.0, 8.0, -13.0, -38.0, -16.0, -9.0, -24.0, -30.0, 1.0, 18.0, -5.0, -15.0, 8.0, 14.0, -6.0},
   {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID", {1, 1, 2, 3},
   (const double[]){14.0, 27.0, 24.0, 11.0, 31.0, 15.0},
   (const double[]){14.0, 27.0, 24.0, 11.0, 31.0, 15.0}},
  {TF_INT32, (const double[]){1.0, 27.0, 24.0, -10.0, -6.0, -11.0, 11.0, -1.0, 15.0, -37.0, 31.0, -2.0, 14.0, -3.0, -8.0, 9.0, 16.0, -4.0, -3.0, 14.0, -17.0, -30.0, 8.0, -13.0, -38.0, -16.0, -9.0, -24.0, -30.0, 1.0, 18.0, -5.0, -15.0, 8.0, 14.0, -6.0},
   {1, 2, 3, 1}, {1, 1, 2, 1}, "SAME", {1, 3, 2, 3},
   (const double[]){14.0, 27.0, 24.0, 11.0, 31.0, 15.0, 18.0, 16.0, 1.0, 18.0, 14.0, -6.0, 18.0, -5.0, 1.0, 18.0, 14.0, -6.0},
   (const double[]){14.0, 27.0, 24.0, 11.0, 31.0, 15.0, 18.0, 16.0, 1.0, 18.0, 14.0, -6.0, 18.0, -5.0, 1.0, 18.0, 14.0, -6.0}},
  {TF_UINT8, (const double[]){1.0, 27.0, 24.0, 10.0, 6.0, 11.0, 11.0, 1.0, 15.0, 37.0, 31.0, 2.0, 14.0, 3.0, 8.0, 9.0, 16.0, 4.0, 3.0, 14.0, 17.0, 30.0, 8.0, 13.0, 38.0, 16.0, 9.0, 24.0, 30.0, 1.0, 18.0, 5.0, 15.0, 8.0, 14.0, 6.0},
   {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID", {1, 1, 2, 3},
   (const double[]){14.0, 27.0, 24.0, 37.0, 31.0, 17.0},
   (const double[]){14.0, 27.0, 24.0, 37.0, 31.0, 17.0}},
  {TF_UINT8, (const double[]){1.0, 27.0, 24.0, 10.0, 6.0, 11.0, 11.0, 1.0, 15.0, 37.0, 31.0, 2.0, 14.0, 3.0, 8.0, 9.0, 16.0, 4.0, 3.0, 14.0, 17.0, 30.0, 8.0, 13.0, 38.0, 16.0, 9.0, 24.0, 30.0, 1.0, 18.0, 5.0, 15.0, 8.0, 14.0, 6.0},
   {1, 2, 3, 1}, {1, 1, 2, 1}, "SAME", {1, 3, 2, 3},
   (const double[]){14.0, 27.0, 24.0, 37.0, 31.0, 17.0, 38.0, 30.0, 17.0, 30.0, 14.0, 17.0, 38.0, 30.0, 15.0, 18.0, 14.0, 15.0},
   (const double[]){14.0, 27.0, 24.0, 37.0, 31.0, 17.0, 38.0, 30.0, 17.0, 30.0, 14.0, 17.0, 38.0, 30.0, 15.0, 18.0, 14.0, 15.0}},
  {TF_INT8, (const double[]){1.0, 27.0, 24.0, -10.0, -6.0, -11.0, 11.0, -1.0, 15.0, -37.0, 31.0, -2.0, 14.0, -3.0, -8.0, 9.0, 16.0, -4.0, -3.0, 14.0, -17.0, -30.0, 8.0, -13.0, -38.0, -16.0, -9.0, -24.0, -30.0, 1.0, 18.0, -5.0, -15.0, 8.0, 14.0, -6.0},
   {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID", {1, 1, 2, 3},
   (const double[]){14.0, 27.0, 24.0, 11.0, 31.0, 15.0},
   (const double[]){14.0, 27.0, 24.0, 11.0, 31.0, 15.0}},
  {TF_INT8, (const double[]){1.0, 27.0, 24.0, -10.0, -6.0, -11.0, 11.0, -1.0, 15.0, -37.0, 31.0, -2.0, 14.0, -3.0, -8.0, 9.0, 16.0, -4.0, -3.0, 14.0, -17.0, -30.0, 8.0, -13.0, -38.0, -16.0, -9.0, -24.0, -30.0, 1.0, 18.0, -5.0, -15.0, 8.0, 14.0, -6.0},
   {1, 2, 3, 1}, {1, 1, 2, 1}, "SAME", {1, 3, 2, 3},
   (const double[]){14.0, 27.0, 24.0, 11.0, 31.0, 15.0, 18.0, 16.0, 1.0, 18.0, 14.0, -6.0, 18.0, -5.0, 1.0, 18.0, 14.0, -6.0},
   (const double[]){14.0, 27.0, 24.0, 11.0, 31.0, 15.0, 18.0, 16.0, 1.0, 18.0, 14.0, -6.0, 18.0, -5.0, 1.0, 18.0, 14.0, -6.0}},
};

static TF_Tensor* i32(int64_t n, const int64_t* v) {
  double d[8];
  int64_t i;
  for (i = 0; i < n; i++) d[i] = (double)v[i];
  return kt_vec(TF_INT32, n, d);
}

static int run_v2(TF_Tensor* x, int64_t nk, const int64_t* ks, int64_t ns,
                  const int64_t* st, const char* pad) {
  kt_attr_string(&A, "padding", pad);
  return run("MaxPoolV2", 3, x, i32(nk, ks), i32(ns, st));
}

TEST(max_pool_v2_and_max_pool_match_tensorflow_values) {
  size_t c;
  for (c = 0; c < sizeof kCases / sizeof kCases[0]; c++) {
    const pool_case* pc = &kCases[c];
    int n;
    begin();
    n = run_v2(kt_tensor(pc->dt, KT_DIMS(1, 3, 4, 3), pc->in), 4, pc->ks, 4,
               pc->st, pc->pad);
    EXPECT_OK(n, 1);
    kt_check(OUT[0], pc->dt, pc->od, 4, pc->want_v2, 0.0, __FILE__,
             __LINE__);
    drop(n);
    begin();
    kt_attr_ints(&A, "ksize", pc->ks, 4);
    kt_attr_ints(&A, "strides", pc->st, 4);
    kt_attr_string(&A, "padding", pc->pad);
    n = run("MaxPool", 1, kt_tensor(pc->dt, KT_DIMS(1, 3, 4, 3), pc->in));
    EXPECT_OK(n, 1);
    kt_check(OUT[0], pc->dt, pc->od, 4, pc->want_v1, 0.0, __FILE__,
             __LINE__);
    drop(n);
  }
}

/* The size inputs may have any shape: TF reads their elements in order. */
TEST(max_pool_v2_reads_size_tensors_of_any_shape) {
  int n;
  begin();
  kt_attr_string(&A, "padding", "VALID");
  n = run("MaxPoolV2", 3,
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 3, 1), KT_V(1, 5, 2, 4, 3, 6)),
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(1, 2, 2, 1)),
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(1, 1, 1, 1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 1, 2, 1), KT_V(5, 6));
  drop(n);
}

typedef struct err_case {
  int64_t nk;
  int64_t ks[5];
  int64_t ns;
  int64_t st[5];
  TF_Code code;
  const char* msg;
} err_case;

/* Messages and codes recorded from TF's MaxPoolV2 on a [2, 4, 5, 3]
 * double input with VALID padding. */
static const err_case kV2Errors[] = {
    {3, {1, 2, 2}, 4, {1, 1, 1, 1}, TF_INVALID_ARGUMENT,
     "Sliding window ksize field must specify 4 dimensions"},
    {0, {0}, 0, {0}, TF_INVALID_ARGUMENT,
     "Sliding window ksize field must specify 4 dimensions"},
    {4, {1, 2, 2, 1}, 3, {1, 1, 1}, TF_INVALID_ARGUMENT,
     "Sliding window stride field must specify 4 dimensions"},
    {4, {1, 2, 2, 1}, 0, {0}, TF_INVALID_ARGUMENT,
     "Sliding window stride field must specify 4 dimensions"},
    {4, {0, 2, 2, 1}, 4, {2, 1, 1, 1}, TF_INVALID_ARGUMENT,
     "Sliding window ksize must be positive."},
    {4, {1, -1, 2, 1}, 4, {1, 1, 1, 1}, TF_INVALID_ARGUMENT,
     "Sliding window ksize must be positive."},
    {4, {2, 2, 2, 1}, 4, {1, 1, 1, 1}, TF_UNIMPLEMENTED,
     "Pooling is not yet supported on the batch dimension."},
    {4, {1, 2, 2, 1}, 4, {2, 1, 1, 1}, TF_UNIMPLEMENTED,
     "Pooling is not yet supported on the batch dimension."},
    {4, {1, 2, 2, 1}, 4, {1, 0, 1, 1}, TF_INVALID_ARGUMENT,
     "Stride must be > 0, but got 0"},
    {4, {1, 2, 2, 1}, 4, {1, 1, -1, 1}, TF_INVALID_ARGUMENT,
     "Stride must be > 0, but got -1"},
    {4, {1, 1, 1, 3}, 4, {1, 0, 1, 3}, TF_INVALID_ARGUMENT,
     "Stride must be > 0, but got 0"},
    {4, {1, 9, 2, 1}, 4, {1, 1, 1, 1}, TF_INVALID_ARGUMENT,
     "Computed output size would be negative: -4 [input_size: 4, "
     "effective_filter_size: 9, stride: 1]"},
    {4, {1, 9, 2, 1}, 4, {1, 1, 0, 1}, TF_INVALID_ARGUMENT,
     "Computed output size would be negative: -4 [input_size: 4, "
     "effective_filter_size: 9, stride: 1]"},
    {4, {1, 2, 9, 1}, 4, {1, 0, 1, 1}, TF_INVALID_ARGUMENT,
     "Stride must be > 0, but got 0"},
    {4, {1, 2, 2, 3}, 4, {1, 1, 1, 3}, TF_UNIMPLEMENTED,
     "MaxPooling supports exactly one of pooling across depth or pooling "
     "across width/height."},
    {4, {1, 1, 1, 2}, 4, {1, 1, 1, 2}, TF_UNIMPLEMENTED,
     "Depthwise max pooling requires the depth window to evenly divide the "
     "input depth"},
    {4, {1, 1, 1, 3}, 4, {1, 1, 1, 1}, TF_UNIMPLEMENTED,
     "Depthwise max pooling requires the depth window to equal the depth "
     "stride"},
};

TEST(max_pool_v2_errors_match_tensorflow) {
  size_t c;
  for (c = 0; c < sizeof kV2Errors / sizeof kV2Errors[0]; c++) {
    const err_case* e = &kV2Errors[c];
    int n;
    begin();
    n = run_v2(kt_tensor(TF_DOUBLE, KT_DIMS(2, 4, 5, 3), NULL), e->nk, e->ks,
               e->ns, e->st, "VALID");
    EXPECT_ERR(n, e->code, e->msg);
    CHECK_STR_EQ(TF_Message(S), e->msg);
  }
}

TEST(max_pool_v2_depth_stride_ignored_and_depth_pooling) {
  int n;
  /* A depth stride with a depth window of 1 is ignored. */
  begin();
  n = run_v2(kt_tensor(TF_INT32, KT_DIMS(1, 1, 2, 3), KT_V(1, 9, 3, 4, 2, 8)),
             4, (const int64_t[]){1, 1, 2, 1}, 4,
             (const int64_t[]){1, 1, 1, 2}, "VALID");
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(1, 1, 1, 3), KT_V(4, 9, 8));
  drop(n);
  begin();
  n = run_v2(kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 2, 3), KT_V(1, 9, 3, 4, 2, 8)),
             4, (const int64_t[]){1, 1, 1, 3}, 4,
             (const int64_t[]){1, 1, 1, 3}, "SAME");
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 1, 2, 1), KT_V(9, 8));
  drop(n);
}

TEST(max_pool_v2_input_rank_and_data_format) {
  int n;
  begin();
  n = run_v2(kt_tensor(TF_DOUBLE, KT_DIMS(2, 3, 3), NULL), 4,
             (const int64_t[]){1, 1, 1, 1}, 4, (const int64_t[]){1, 1, 1, 1},
             "VALID");
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "tensor_in_shape must have 2 spatial dimensions. 3 0");
  begin();
  kt_attr_string(&A, "data_format", "NCHW");
  n = run_v2(kt_tensor(TF_DOUBLE, KT_DIMS(1, 2, 2, 1), NULL), 4,
             (const int64_t[]){1, 1, 1, 1}, 4, (const int64_t[]){1, 1, 1, 1},
             "VALID");
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "MaxPoolingV2Op only supports NHWC or NCHW_VECT_C. Got: NCHW");
  begin();
  kt_attr_string(&A, "data_format", "NCHW_VECT_C");
  n = run_v2(kt_tensor(TF_DOUBLE, KT_DIMS(2, 4, 5, 3), NULL), 4,
             (const int64_t[]){1, 2, 2, 1}, 4, (const int64_t[]){1, 1, 1, 1},
             "SAME");
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "tensor_in_shape must have 2 spatial dimensions. 4 2");
  /* Empty batch: an empty output of the pooled shape. */
  begin();
  n = run_v2(kt_tensor(TF_FLOAT, KT_DIMS(0, 2, 2, 3), NULL), 4,
             (const int64_t[]){1, 2, 2, 1}, 4, (const int64_t[]){1, 1, 1, 1},
             "VALID");
  EXPECT_OK(n, 1);
  kt_check_shape(OUT[0], KT_DIMS(0, 1, 1, 3), __FILE__, __LINE__);
  drop(n);
}

/* MaxPool (attrs) and AvgPool messages, recorded from TF (double input,
 * TF's own kernels). */
TEST(max_pool_and_avg_pool_errors_match_tensorflow) {
  static const int64_t one[4] = {1, 1, 1, 1};
  static const int64_t k22[4] = {1, 2, 2, 1};
  int n;
  begin();
  kt_attr_ints(&A, "ksize", (const int64_t[]){0, 2, 2, 1}, 4);
  kt_attr_ints(&A, "strides", (const int64_t[]){2, 1, 1, 1}, 4);
  kt_attr_string(&A, "padding", "VALID");
  n = run("MaxPool", 1, kt_tensor(TF_DOUBLE, KT_DIMS(2, 4, 5, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Sliding window ksize must be positive. The specified or "
             "inferred ksize is: 0,2,2,1");
  begin();
  kt_attr_ints(&A, "ksize", k22, 4);
  kt_attr_ints(&A, "strides", (const int64_t[]){1, 0, 1, 1}, 4);
  kt_attr_string(&A, "padding", "VALID");
  n = run("MaxPool", 1, kt_tensor(TF_DOUBLE, KT_DIMS(2, 4, 5, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Stride must be > 0, but got 0");
  begin();
  kt_attr_ints(&A, "ksize", one, 4);
  kt_attr_ints(&A, "strides", one, 4);
  kt_attr_string(&A, "padding", "VALID");
  n = run("MaxPool", 1, kt_tensor(TF_DOUBLE, KT_DIMS(2, 3, 3, 1, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "tensor_in_shape must have 2 spatial dimensions. 5 0");
  /* explicit_paddings is only read under EXPLICIT padding. */
  begin();
  kt_attr_ints(&A, "ksize", k22, 4);
  kt_attr_ints(&A, "strides", one, 4);
  kt_attr_ints(&A, "explicit_paddings", (const int64_t[]){0, 0, 0, 0, 0, 0,
                                                          0, 0},
               8);
  kt_attr_string(&A, "padding", "VALID");
  n = run("MaxPool", 1,
          kt_tensor(TF_DOUBLE, KT_DIMS(1, 2, 2, 1), KT_V(1, 4, 3, 2)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(1, 1, 1, 1), KT_V(4));
  drop(n);
  {
    static const char* const kWant[4] = {
        "Top padding 2 needs to be smaller than the window size 2",
        "Bottom padding 2 needs to be smaller than the window size 2",
        "Left padding 2 needs to be smaller than the window size 2",
        "Right padding 2 needs to be smaller than the window size 2"};
    int side;
    for (side = 0; side < 4; side++) {
      int64_t ep[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      ep[2 + side] = 2;
      begin();
      kt_attr_ints(&A, "ksize", k22, 4);
      kt_attr_ints(&A, "strides", one, 4);
      kt_attr_ints(&A, "explicit_paddings", ep, 8);
      kt_attr_string(&A, "padding", "EXPLICIT");
      n = run("MaxPool", 1, kt_tensor(TF_DOUBLE, KT_DIMS(2, 4, 5, 3), NULL));
      EXPECT_ERR(n, TF_INVALID_ARGUMENT, kWant[side]);
    }
  }
  begin();
  kt_attr_ints(&A, "ksize", (const int64_t[]){1, -2, 0, 1}, 4);
  kt_attr_ints(&A, "strides", one, 4);
  kt_attr_string(&A, "padding", "VALID");
  n = run("AvgPool", 1, kt_tensor(TF_DOUBLE, KT_DIMS(2, 4, 5, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "ksize must be a positive int32 value, got:-2");
  begin();
  kt_attr_ints(&A, "ksize", (const int64_t[]){0, 2, 2, 1}, 4);
  kt_attr_ints(&A, "strides", one, 4);
  kt_attr_string(&A, "padding", "VALID");
  n = run("AvgPool", 1, kt_tensor(TF_DOUBLE, KT_DIMS(2, 4, 5, 3), NULL));
  EXPECT_ERR(n, TF_UNIMPLEMENTED,
             "Pooling is not yet supported on the batch dimension.");
  begin();
  kt_attr_ints(&A, "ksize", (const int64_t[]){1, 1, 1, 3}, 4);
  kt_attr_ints(&A, "strides", (const int64_t[]){1, 0, 1, 3}, 4);
  kt_attr_string(&A, "padding", "VALID");
  n = run("AvgPool", 1, kt_tensor(TF_DOUBLE, KT_DIMS(2, 4, 5, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Stride must be > 0, but got 0");
}

TFE_TEST_MAIN
