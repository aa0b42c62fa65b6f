/* The array_extra kernels (csrc/kernels/cpu/array_extra_kernels.c):
 * DynamicPartition, DynamicStitch, ParallelDynamicStitch and
 * HistogramFixedWidth and ExtractVolumePatches: values, edge cases and
 * TF's error messages. */
#include "kernel_test_ops.h"
#include "kernel_test_util.h"

#include "kernel_test_harness.h"

static TF_Tensor* iv(int64_t n, const double* v) {
  return kt_vec(TF_INT32, n, v);
}

TEST(dynamic_partition_vectors_and_rows) {
  int n;
  begin();
  kt_attr_int(&A, "num_partitions", 2);
  n = run("DynamicPartition", 2, iv(4, KT_V(10, 20, 30, 40)),
          iv(4, KT_V(0, 1, 0, 1)));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(2), KT_V(10, 30));
  KT_CHECK(OUT[1], TF_INT32, KT_DIMS(2), KT_V(20, 40));
  drop(2);
  /* rows of a matrix; a partition nobody uses is empty */
  kt_attr_int(&A, "num_partitions", 3);
  n = run("DynamicPartition", 2,
          kt_tensor(TF_FLOAT, KT_DIMS(3, 2), KT_V(1, 2, 3, 4, 5, 6)),
          iv(3, KT_V(1, 0, 1)));
  EXPECT_OK(n, 3);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 2), KT_V(3, 4));
  KT_CHECK(OUT[1], TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 5, 6));
  KT_CHECK(OUT[2], TF_FLOAT, KT_DIMS(0, 2), NULL);
  drop(3);
}

TEST(dynamic_partition_errors) {
  int n;
  begin();
  kt_attr_int(&A, "num_partitions", 2);
  n = run("DynamicPartition", 2, iv(3, KT_V(1, 2, 3)), iv(3, KT_V(0, 2, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "partitions[1] = 2 is not in [0, 2)");
  kt_attr_int(&A, "num_partitions", 2);
  n = run("DynamicPartition", 2,
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)),
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(0, 1, -1, 0)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "partitions[1,0] = -1 is not in [0, 2)");
  kt_attr_int(&A, "num_partitions", 2);
  n = run("DynamicPartition", 2, iv(3, KT_V(1, 2, 3)), iv(2, KT_V(0, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "data.shape must start with partitions.shape, got data.shape = "
             "[3], partitions.shape = [2]");
}

TEST(dynamic_stitch_merges_in_order) {
  int n;
  begin();
  kt_attr_int(&A, "N", 2);
  n = run("DynamicStitch", 4, iv(2, KT_V(0, 2)), iv(2, KT_V(1, 3)),
          iv(2, KT_V(1, 2)), iv(2, KT_V(3, 4)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(4), KT_V(1, 3, 2, 4));
  drop(1);
  /* gaps are zero; a later index overwrites an earlier one */
  kt_attr_int(&A, "N", 2);
  n = run("ParallelDynamicStitch", 4, iv(2, KT_V(0, 4)), iv(1, KT_V(0)),
          kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2), KT_V(9, 8)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(5, 2), KT_V(9, 8, 0, 0, 0, 0, 0, 0, 3, 4));
  drop(1);
}

TEST(dynamic_stitch_errors) {
  int n;
  begin();
  kt_attr_int(&A, "N", 1);
  n = run("DynamicStitch", 2, iv(2, KT_V(0, -1)), iv(2, KT_V(1, 2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "indices[1] is out of range");
  kt_attr_int(&A, "N", 1);
  n = run("DynamicStitch", 2, iv(2, KT_V(0, 1)), iv(3, KT_V(1, 2, 3)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "data[0].shape = [3] does not start with indices[0].shape = [2]");
  kt_attr_int(&A, "N", 2);
  n = run("DynamicStitch", 4, iv(2, KT_V(0, 1)), iv(1, KT_V(2)),
          iv(2, KT_V(1, 2)), kt_tensor(TF_INT32, KT_DIMS(1, 1), KT_V(3)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Need data[0].shape[1:] = data[1].shape[1:], got data[0].shape = "
             "[2], data[1].shape = [1,1], indices[0].shape = [2], "
             "indices[1].shape = [1]");
}

TEST(histogram_fixed_width_bins_and_errors) {
  int n;
  begin();
  n = run("HistogramFixedWidth", 3,
          kt_tensor(TF_FLOAT, KT_DIMS(6), KT_V(-1, 0, 1.5, 2, 5, 15)),
          kt_tensor(TF_FLOAT, KT_DIMS(2), KT_V(0, 5)), kt_scalar(TF_INT32, 5));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(5), KT_V(2, 1, 1, 0, 2));
  drop(1);
  /* int32 range that overflows when subtracted: TF's wrapped arithmetic */
  kt_attr_type(&A, "dtype", TF_INT64);
  n = run("HistogramFixedWidth", 3,
          iv(2, KT_V(-2147483648.0, 2147483647.0)),
          iv(2, KT_V(-2147483648.0, 2147483647.0)), kt_scalar(TF_INT32, 4));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(4), KT_V(1, 0, 0, 1));
  drop(1);
  n = run("HistogramFixedWidth", 3, kt_tensor(TF_DOUBLE, KT_DIMS(1), KT_V(1)),
          kt_tensor(TF_DOUBLE, KT_DIMS(2), KT_V(6.5, 5)), kt_scalar(TF_INT32, 5));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "value_range should satisfy value_range[0] < value_range[1], but "
             "got '[6.5, 5]'");
  n = run("HistogramFixedWidth", 3, kt_tensor(TF_FLOAT, KT_DIMS(1), KT_V(1)),
          kt_tensor(TF_FLOAT, KT_DIMS(2), KT_V(0, 5)), kt_scalar(TF_INT32, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "nbins should be a positive number, but got '0'");
  n = run("HistogramFixedWidth", 3, kt_tensor(TF_FLOAT, KT_DIMS(1), KT_V(1)),
          kt_tensor(TF_FLOAT, KT_DIMS(3), KT_V(0, 5, 6)), kt_scalar(TF_INT32, 2));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "value_range should be a vector of 2 elements.");
  n = run("HistogramFixedWidth", 3, kt_tensor(TF_FLOAT, KT_DIMS(1), KT_V(NAN)),
          kt_tensor(TF_FLOAT, KT_DIMS(2), KT_V(0, 5)), kt_scalar(TF_INT32, 2));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Histogram values must not contain NaN");
}

TEST(extract_volume_patches) {
  int n;
  begin();
  /* [1, 2, 2, 1, 1] input, 2x1x1 patches, VALID: one plane of patches */
  kt_attr_ints(&A, "ksizes", ((const int64_t[]){1, 2, 1, 1, 1}), 5);
  kt_attr_ints(&A, "strides", ((const int64_t[]){1, 1, 1, 1, 1}), 5);
  kt_attr_string(&A, "padding", "VALID");
  n = run("ExtractVolumePatches", 1,
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 2, 1, 1), KT_V(1, 2, 3, 4)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 1, 2, 1, 2), KT_V(1, 3, 2, 4));
  drop(1);
  /* SAME pads with zeros after the last plane */
  kt_attr_ints(&A, "ksizes", ((const int64_t[]){1, 2, 1, 1, 1}), 5);
  kt_attr_ints(&A, "strides", ((const int64_t[]){1, 1, 1, 1, 1}), 5);
  kt_attr_string(&A, "padding", "SAME");
  n = run("ExtractVolumePatches", 1,
          kt_tensor(TF_INT32, KT_DIMS(1, 2, 1, 1, 1), KT_V(5, 6)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(1, 2, 1, 1, 2), KT_V(5, 6, 6, 0));
  drop(1);
  kt_attr_ints(&A, "ksizes", ((const int64_t[]){2, 1, 1, 1, 1}), 5);
  kt_attr_ints(&A, "strides", ((const int64_t[]){1, 1, 1, 1, 1}), 5);
  kt_attr_string(&A, "padding", "VALID");
  n = run("ExtractVolumePatches", 1, kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 1, 1, 1), KT_V(1)));
  EXPECT_ERR(n, TF_UNIMPLEMENTED, "Only support ksizes across space.");
  kt_attr_ints(&A, "ksizes", ((const int64_t[]){1, 5, 1, 1, 1}), 5);
  kt_attr_ints(&A, "strides", ((const int64_t[]){1, 1, 1, 1, 1}), 5);
  kt_attr_string(&A, "padding", "VALID");
  n = run("ExtractVolumePatches", 1, kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 1, 1, 1), KT_V(1, 2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Computed output size would be negative: -2 [input_size: 2, "
             "effective_filter_size: 5, stride: 1]");
}

TFE_TEST_MAIN
