/* Slice, StridedSlice (every mask), ReverseV2, Reverse, Pad, PadV2,
 * MirrorPad, Tile, BroadcastTo, BroadcastArgs, BroadcastGradientArgs:
 * values against hand-computed results, edge cases and errors. */
#include "kernel_test_ops.h"
#include "kernel_test_util.h"

#include "kernel_test_harness.h"

static TF_Tensor* iv(int64_t n, const double* v) {
  return kt_vec(TF_INT32, n, v);
}

/* x = iota [3, 4]: 0..11 */
static TF_Tensor* x34(TF_DataType dt) {
  double v[12];
  int i;
  for (i = 0; i < 12; i++) v[i] = i;
  return kt_tensor(dt, KT_DIMS(3, 4), v);
}

/* ---------------------------------------------------------------- Slice */

TEST(slice) {
  int n;
  begin();
  n = run("Slice", 3, x34(TF_FLOAT), iv(2, KT_V(1, 1)), iv(2, KT_V(2, 2)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2), KT_V(5, 6, 9, 10));
  drop(1);
  n = run("Slice", 3, x34(TF_INT64), kt_vec(TF_INT64, 2, KT_V(0, 2)),
          kt_vec(TF_INT64, 2, KT_V(-1, -1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(3, 2), KT_V(2, 3, 6, 7, 10, 11));
  drop(1);
  n = run("Slice", 3, x34(TF_FLOAT), iv(2, KT_V(3, 0)), iv(2, KT_V(0, 4)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(0, 4), NULL);
  drop(1);
}

TEST(slice_errors) {
  int n;
  begin();
  /* conformance: [2,3] begin [1,1] size [2,2] */
  n = run("Slice", 3, kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL),
          iv(2, KT_V(1, 1)), iv(2, KT_V(2, 2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Expected size[0] in [0, 1], but got 2");
  n = run("Slice", 3, x34(TF_FLOAT), iv(2, KT_V(4, 0)), iv(2, KT_V(0, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Expected begin[0] in [0, 3], but got 4");
  n = run("Slice", 3, x34(TF_FLOAT), iv(3, KT_V(0, 0, 0)), iv(2, KT_V(1, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Expected begin and size arguments to be 1-D tensors of size 2, "
             "but got shapes [3] and [2] instead.");
}

/* --------------------------------------------------------- StridedSlice */

static int ss(TF_Tensor* x, const double* b, const double* e, const double* s,
              int n) {
  return run("StridedSlice", 4, x, iv(n, b), iv(n, e), iv(n, s));
}

TEST(strided_slice_basic) {
  int n;
  begin();
  /* x[1:3, ::2] */
  n = ss(x34(TF_FLOAT), KT_V(1, 0), KT_V(3, 4), KT_V(1, 2), 2);
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2), KT_V(4, 6, 8, 10));
  drop(1);
  /* x[::-1, -1] with shrink on axis 1 and masks on axis 0 */
  kt_attr_int(&A, "begin_mask", 1);
  kt_attr_int(&A, "end_mask", 1);
  kt_attr_int(&A, "shrink_axis_mask", 2);
  n = ss(x34(TF_INT32), KT_V(0, -1), KT_V(0, 0), KT_V(-1, 1), 2);
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(3), KT_V(11, 7, 3));
  drop(1);
  /* x[-2:] clamps; x[1:100] clamps the end */
  n = ss(x34(TF_FLOAT), KT_V(-2), KT_V(100), KT_V(1), 1);
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 4), KT_V(4, 5, 6, 7, 8, 9, 10, 11));
  drop(1);
  /* empty: x[2:1] */
  n = ss(x34(TF_FLOAT), KT_V(2), KT_V(1), KT_V(1), 1);
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(0, 4), NULL);
  drop(1);
  /* x[3:0:-2, 1] -> rows 2, 0 (end clamps to 2 then stops before 0) */
  kt_attr_int(&A, "shrink_axis_mask", 2);
  n = ss(x34(TF_FLOAT), KT_V(3, 1), KT_V(0, 2), KT_V(-2, 1), 2);
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1), KT_V(9));
  drop(1);
}

TEST(strided_slice_ellipsis_new_axis) {
  int n;
  double v[24];
  int i;
  begin();
  for (i = 0; i < 24; i++) v[i] = i;
  /* x[..., 1] on [2,3,4] -> [2,3] */
  kt_attr_int(&A, "ellipsis_mask", 1);
  kt_attr_int(&A, "shrink_axis_mask", 2);
  n = ss(kt_tensor(TF_FLOAT, KT_DIMS(2, 3, 4), v), KT_V(0, 1), KT_V(0, 2),
         KT_V(1, 1), 2);
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 5, 9, 13, 17, 21));
  drop(1);
  /* x[tf.newaxis, 0, ..., tf.newaxis] on [2,3,4] -> [1,3,4,1] */
  kt_attr_int(&A, "new_axis_mask", 1 | 8);
  kt_attr_int(&A, "ellipsis_mask", 4);
  kt_attr_int(&A, "shrink_axis_mask", 2);
  n = ss(kt_tensor(TF_FLOAT, KT_DIMS(2, 3, 4), v), KT_V(0, 0, 0, 0),
         KT_V(0, 1, 0, 0), KT_V(1, 1, 1, 1), 4);
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_FLOAT, KT_DIMS(1, 3, 4, 1), v, 0, __FILE__, __LINE__);
  drop(1);
  /* scalar index into a vector: x[2] -> scalar */
  kt_attr_int(&A, "shrink_axis_mask", 1);
  n = ss(kt_tensor(TF_INT64, KT_DIMS(4), KT_V(5, 6, 7, 8)), KT_V(2), KT_V(3),
         KT_V(1), 1);
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_INT64, KT_SCALAR, KT_V(7), 0, __FILE__, __LINE__);
  drop(1);
}

TEST(strided_slice_errors) {
  int n;
  begin();
  n = ss(kt_tensor(TF_FLOAT, KT_DIMS(3), NULL), KT_V(0), KT_V(2), KT_V(0), 1);
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "strides[0] must be non-zero");
  kt_attr_int(&A, "shrink_axis_mask", 1);
  n = ss(kt_tensor(TF_FLOAT, KT_DIMS(3), NULL), KT_V(5), KT_V(6), KT_V(1), 1);
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "slice index 5 of dimension 0 out of bounds.");
  kt_attr_int(&A, "ellipsis_mask", 3);
  n = ss(kt_tensor(TF_FLOAT, KT_DIMS(3), NULL), KT_V(0, 0), KT_V(1, 1),
         KT_V(1, 1), 2);
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Multiple ellipses in slice spec not allowed");
  n = ss(kt_tensor(TF_FLOAT, KT_DIMS(3), NULL), KT_V(0, 0), KT_V(1, 1),
         KT_V(1, 1), 2);
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Index out of range using input dim 1");
  n = run("StridedSlice", 4, kt_tensor(TF_FLOAT, KT_DIMS(3), NULL),
          iv(1, KT_V(0)), iv(2, KT_V(1, 1)), iv(1, KT_V(1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Expected begin, end, and strides to be 1D equal size tensors");
}

/* ------------------------------------------------------------- Reverse */

TEST(reverse_v2_and_reverse) {
  int n;
  begin();
  n = run("ReverseV2", 2, x34(TF_FLOAT), iv(1, KT_V(1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3, 4),
           KT_V(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8));
  drop(1);
  n = run("ReverseV2", 2, x34(TF_UINT8), kt_vec(TF_INT64, 2, KT_V(-2, 1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_UINT8, KT_DIMS(3, 4),
           KT_V(11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
  drop(1);
  n = run("Reverse", 2, x34(TF_DOUBLE), kt_tensor(TF_BOOL, KT_DIMS(2), KT_V(1, 0)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(3, 4),
           KT_V(8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
  drop(1);
  n = run("ReverseV2", 2, x34(TF_FLOAT), iv(1, KT_V(2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "'axis'[0] = 2 is out of valid range [0, 1].");
  n = run("ReverseV2", 2, x34(TF_FLOAT), iv(2, KT_V(1, -1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "axis 1 specified more than once.");
}

/* ---------------------------------------------------------------- Pad */

TEST(pad_and_pad_v2) {
  int n;
  begin();
  n = run("Pad", 2, kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)),
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(1, 0, 0, 1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3, 3), KT_V(0, 0, 0, 1, 2, 0, 3, 4, 0));
  drop(1);
  n = run("PadV2", 3, kt_tensor(TF_INT32, KT_DIMS(2), KT_V(1, 2)),
          kt_tensor(TF_INT64, KT_DIMS(1, 2), KT_V(2, 1)),
          kt_scalar(TF_INT32, 9));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(5), KT_V(9, 9, 1, 2, 9));
  drop(1);
  n = run("Pad", 2, kt_tensor(TF_FLOAT, KT_DIMS(2), NULL),
          kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(-1, 0)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Paddings must be non-negative: -1 0");
  n = run("Pad", 2, kt_tensor(TF_FLOAT, KT_DIMS(2), NULL),
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(0, 0, 0, 0)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "The first dimension of paddings must be the rank of inputs");
  n = run("Pad", 2, kt_tensor(TF_FLOAT, KT_DIMS(2), NULL),
          kt_tensor(TF_INT32, KT_DIMS(1, 3), KT_V(0, 0, 0)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "paddings must be a matrix with 2 columns");
  n = run("PadV2", 3, kt_tensor(TF_FLOAT, KT_DIMS(2), NULL),
          kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(0, 0)),
          kt_tensor(TF_FLOAT, KT_DIMS(2), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "constant_values must be a scalar");
}

TEST(mirror_pad) {
  int n;
  begin();
  /* conformance: [1,2,3] padded [1,1] REFLECT -> 2 1 2 3 2 */
  kt_attr_string(&A, "mode", "REFLECT");
  n = run("MirrorPad", 2, kt_tensor(TF_FLOAT, KT_DIMS(3), KT_V(1, 2, 3)),
          kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(1, 1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(5), KT_V(2, 1, 2, 3, 2));
  drop(1);
  kt_attr_string(&A, "mode", "SYMMETRIC");
  n = run("MirrorPad", 2, kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)),
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(1, 1, 2, 0)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(4, 4),
           KT_V(2, 1, 1, 2, 2, 1, 1, 2, 4, 3, 3, 4, 4, 3, 3, 4));
  drop(1);
  kt_attr_string(&A, "mode", "REFLECT");
  n = run("MirrorPad", 2, kt_tensor(TF_FLOAT, KT_DIMS(3), NULL),
          kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(3, 0)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "paddings must be less than the dimension size: 3, 0 not less "
             "than 3");
  kt_attr_string(&A, "mode", "SYMMETRIC");
  n = run("MirrorPad", 2, kt_tensor(TF_FLOAT, KT_DIMS(3), NULL),
          kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(0, 4)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "paddings must be no greater than the dimension size: 0, 4 "
             "greater than 3");
  kt_attr_string(&A, "mode", "WRAPAROUND");
  n = run("MirrorPad", 2, kt_tensor(TF_FLOAT, KT_DIMS(3), NULL),
          kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(0, 1)));
  CHECK_EQ_INT(n, -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
}

/* ------------------------------------------------- Tile, BroadcastTo */

TEST(tile) {
  int n;
  begin();
  n = run("Tile", 2, kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)),
          iv(2, KT_V(2, 3)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(4, 6),
           KT_V(1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3,
                4, 3, 4));
  drop(1);
  n = run("Tile", 2, kt_tensor(TF_BOOL, KT_DIMS(2), KT_V(1, 0)),
          kt_vec(TF_INT64, 1, KT_V(0)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_BOOL, KT_DIMS(0), NULL);
  drop(1);
  /* conformance: multiples of the wrong length */
  n = run("Tile", 2, kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL),
          iv(3, KT_V(1, 2, 3)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Expected multiples argument to be a vector of length 2 but got "
             "length 3");
  n = run("Tile", 2, kt_tensor(TF_FLOAT, KT_DIMS(2), NULL), iv(1, KT_V(-1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Expected multiples[0] >= 0, but got -1");
}

TEST(broadcast_to) {
  int n;
  begin();
  n = run("BroadcastTo", 2, kt_tensor(TF_INT32, KT_DIMS(3), KT_V(1, 2, 3)),
          iv(2, KT_V(2, 3)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(2, 3), KT_V(1, 2, 3, 1, 2, 3));
  drop(1);
  n = run("BroadcastTo", 2, kt_tensor(TF_FLOAT, KT_DIMS(2, 1), KT_V(1, 2)),
          kt_vec(TF_INT64, 3, KT_V(2, 2, 3)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2, 3),
           KT_V(1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2));
  drop(1);
  n = run("BroadcastTo", 2, kt_scalar(TF_DOUBLE, 7), iv(1, KT_V(3)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(3), KT_V(7, 7, 7));
  drop(1);
  n = run("BroadcastTo", 2, kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL),
          iv(2, KT_V(3, 3)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Unable to broadcast tensor of shape [2,3] to tensor of shape "
             "[3,3]");
  n = run("BroadcastTo", 2, kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 3), NULL),
          iv(2, KT_V(1, 3)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Rank of input (3) must be no greater");
}

TEST(broadcast_args_and_gradient_args) {
  int n;
  begin();
  n = run("BroadcastArgs", 2, iv(2, KT_V(2, 1)), iv(3, KT_V(4, 1, 3)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(3), KT_V(4, 2, 3));
  drop(1);
  n = run("BroadcastArgs", 2, iv(2, KT_V(2, 3)), iv(1, KT_V(4)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Incompatible shapes: [2,3] vs. [4]");
  n = run("BroadcastGradientArgs", 2, kt_vec(TF_INT64, 3, KT_V(2, 3, 5)),
          kt_vec(TF_INT64, 1, KT_V(1)));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(0), NULL);
  KT_CHECK(OUT[1], TF_INT64, KT_DIMS(3), KT_V(0, 1, 2));
  drop(2);
  n = run("BroadcastGradientArgs", 2, iv(3, KT_V(1, 3, 1)),
          iv(3, KT_V(1, 1, 4)));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(2), KT_V(0, 2));
  KT_CHECK(OUT[1], TF_INT32, KT_DIMS(2), KT_V(0, 1));
  drop(2);
}

TFE_TEST_MAIN
