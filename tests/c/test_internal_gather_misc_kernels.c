/* GatherV2, GatherNd, ScatterNd, TensorScatterUpdate, OneHot, Where, Unique,
 * MatrixDiag, MatrixBandPart, Cumsum, Cumprod, TopKV2, ArgMax, ArgMin,
 * Softmax, LogSoftmax, L2Loss: values, edge cases and errors. */
#include "kernel_test_ops.h"
#include "kernel_test_util.h"

#include "kernel_test_harness.h"

static TF_Tensor* iv(int64_t n, const double* v) {
  return kt_vec(TF_INT32, n, v);
}

static TF_Tensor* x34(TF_DataType dt) {
  double v[12];
  int i;
  for (i = 0; i < 12; i++) v[i] = i;
  return kt_tensor(dt, KT_DIMS(3, 4), v);
}

/* ------------------------------------------------------------- Gather */

TEST(gather_v2) {
  int n;
  begin();
  n = run("GatherV2", 3, x34(TF_FLOAT), iv(2, KT_V(2, 0)),
          kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 4), KT_V(8, 9, 10, 11, 0, 1, 2, 3));
  drop(1);
  n = run("GatherV2", 3, x34(TF_INT64),
          kt_tensor(TF_INT64, KT_DIMS(2, 2), KT_V(3, 0, 1, 1)),
          kt_scalar(TF_INT64, -1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(3, 2, 2),
           KT_V(3, 0, 1, 1, 7, 4, 5, 5, 11, 8, 9, 9));
  drop(1);
  /* scalar index drops the axis */
  n = run("GatherV2", 3, x34(TF_FLOAT), kt_scalar(TF_INT32, 1),
          kt_scalar(TF_INT32, 1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3), KT_V(1, 5, 9));
  drop(1);
  /* batch_dims = 1: row r takes its own indices */
  kt_attr_int(&A, "batch_dims", 1);
  n = run("GatherV2", 3, x34(TF_FLOAT),
          kt_tensor(TF_INT32, KT_DIMS(3, 1), KT_V(3, 2, 1)),
          kt_scalar(TF_INT32, 1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3, 1), KT_V(3, 6, 9));
  drop(1);
}

TEST(gather_v2_errors) {
  int n;
  begin();
  /* conformance: [3] with indices [0, 5] */
  n = run("GatherV2", 3, kt_tensor(TF_FLOAT, KT_DIMS(3), NULL),
          iv(2, KT_V(0, 5)), kt_scalar(TF_INT32, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "indices[1] = 5 is not in [0, 3)");
  n = run("GatherV2", 3, x34(TF_FLOAT), iv(1, KT_V(0)), kt_scalar(TF_INT32, 2));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Expected axis in the range [-2, 2), but got 2");
  n = run("GatherV2", 3, x34(TF_FLOAT),
          kt_tensor(TF_INT32, KT_DIMS(2, 1), KT_V(-1, 0)), kt_scalar(TF_INT32, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "indices[0,0] = -1 is not in [0, 3)");
}

TEST(gather_nd) {
  int n;
  begin();
  n = run("GatherNd", 2, x34(TF_FLOAT),
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(0, 1, 2, 3)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2), KT_V(1, 11));
  drop(1);
  n = run("GatherNd", 2, x34(TF_INT32), kt_tensor(TF_INT64, KT_DIMS(1, 1), KT_V(1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(1, 4), KT_V(4, 5, 6, 7));
  drop(1);
  n = run("GatherNd", 2, x34(TF_FLOAT),
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(0, 1, 3, 0)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "indices[1] = [3, 0] does not index into param shape [3,4]");
  n = run("GatherNd", 2, x34(TF_FLOAT),
          kt_tensor(TF_INT32, KT_DIMS(1, 3), KT_V(0, 0, 0)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "index innermost dimension length must be <= params rank; saw: 3 "
             "vs. 2");
}

TEST(scatter_nd_and_tensor_scatter_update) {
  int n;
  begin();
  /* duplicates add */
  n = run("ScatterNd", 3, kt_tensor(TF_INT32, KT_DIMS(3, 1), KT_V(1, 3, 1)),
          kt_tensor(TF_FLOAT, KT_DIMS(3), KT_V(5, 6, 7)), iv(1, KT_V(4)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(4), KT_V(0, 12, 0, 6));
  drop(1);
  n = run("ScatterNd", 3, kt_tensor(TF_INT64, KT_DIMS(1, 1), KT_V(1)),
          kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(7, 8)),
          kt_vec(TF_INT64, 2, KT_V(2, 2)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(2, 2), KT_V(0, 0, 7, 8));
  drop(1);
  n = run("ScatterNd", 3, kt_tensor(TF_INT32, KT_DIMS(1, 1), KT_V(4)),
          kt_tensor(TF_FLOAT, KT_DIMS(1), KT_V(1)), iv(1, KT_V(4)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "indices[0] = [4] does not index into shape [4]");
  n = run("TensorScatterUpdate", 3, kt_tensor(TF_FLOAT, KT_DIMS(4), KT_V(1, 2, 3, 4)),
          kt_tensor(TF_INT32, KT_DIMS(2, 1), KT_V(0, 2)),
          kt_tensor(TF_FLOAT, KT_DIMS(2), KT_V(9, 8)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(4), KT_V(9, 2, 8, 4));
  drop(1);
}

/* ------------------------------------------------------- OneHot, Where */

TEST(one_hot) {
  int n;
  begin();
  n = run("OneHot", 4, kt_tensor(TF_INT64, KT_DIMS(3), KT_V(0, 2, 5)),
          kt_scalar(TF_INT32, 3), kt_scalar(TF_FLOAT, 1),
          kt_scalar(TF_FLOAT, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3, 3), KT_V(1, 0, 0, 0, 0, 1, 0, 0, 0));
  drop(1);
  kt_attr_int(&A, "axis", 0);
  n = run("OneHot", 4, kt_tensor(TF_INT32, KT_DIMS(2), KT_V(1, 0)),
          kt_scalar(TF_INT32, 2), kt_scalar(TF_INT32, 5),
          kt_scalar(TF_INT32, -1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(2, 2), KT_V(-1, 5, 5, -1));
  drop(1);
  n = run("OneHot", 4, kt_tensor(TF_INT32, KT_DIMS(2), KT_V(1, 0)),
          kt_scalar(TF_INT32, -1), kt_scalar(TF_FLOAT, 1),
          kt_scalar(TF_FLOAT, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "depth must be non-negative, got: -1");
  kt_attr_int(&A, "axis", 3);
  n = run("OneHot", 4, kt_tensor(TF_INT32, KT_DIMS(2), KT_V(1, 0)),
          kt_scalar(TF_INT32, 2), kt_scalar(TF_FLOAT, 1),
          kt_scalar(TF_FLOAT, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Expected axis to be -1 or between [0, 2)");
}

TEST(where) {
  int n;
  begin();
  n = run("Where", 1, kt_tensor(TF_BOOL, KT_DIMS(2, 2), KT_V(1, 0, 0, 1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(2, 2), KT_V(0, 0, 1, 1));
  drop(1);
  n = run("Where", 1, kt_tensor(TF_FLOAT, KT_DIMS(4), KT_V(0, -2, 0, 3)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(2, 1), KT_V(1, 3));
  drop(1);
  /* TF's kernel refuses ranks 0 and above 8. */
  n = run("Where", 1, kt_scalar(TF_BOOL, 1));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "WhereOp : Unhandled input dimensions: 0");
  n = run("Where", 1,
          kt_tensor(TF_BOOL, KT_DIMS(1, 1, 1, 1, 1, 1, 1, 1, 1), KT_V(1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "WhereOp : Unhandled input dimensions: 9");
}

/* ------------------------------------------------------------- Unique */

TEST(unique) {
  int n;
  begin();
  n = run("Unique", 1, kt_tensor(TF_INT32, KT_DIMS(7), KT_V(1, 1, 2, 4, 4, 4, 7)));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(4), KT_V(1, 2, 4, 7));
  KT_CHECK(OUT[1], TF_INT32, KT_DIMS(7), KT_V(0, 0, 1, 2, 2, 2, 3));
  drop(2);
  kt_attr_type(&A, "out_idx", TF_INT64);
  n = run("Unique", 1, kt_tensor(TF_FLOAT, KT_DIMS(4), KT_V(0.0, -0.0, 3, 0)));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2), KT_V(0, 3));
  KT_CHECK(OUT[1], TF_INT64, KT_DIMS(4), KT_V(0, 0, 1, 0));
  drop(2);
  n = run("Unique", 1, kt_tensor(TF_INT32, KT_DIMS(1, 1), KT_V(1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "unique expects a 1D vector.");
}

/* ----------------------------------------------- MatrixDiag, BandPart */

TEST(matrix_diag_and_band_part) {
  int n;
  double v[9];
  int i;
  begin();
  n = run("MatrixDiag", 1, kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2, 2), KT_V(1, 0, 0, 2, 3, 0, 0, 4));
  drop(1);
  for (i = 0; i < 9; i++) v[i] = i + 1;
  n = run("MatrixBandPart", 3, kt_tensor(TF_INT32, KT_DIMS(3, 3), v),
          kt_scalar(TF_INT64, 1), kt_scalar(TF_INT64, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(3, 3), KT_V(1, 0, 0, 4, 5, 0, 0, 8, 9));
  drop(1);
  n = run("MatrixBandPart", 3, kt_tensor(TF_INT32, KT_DIMS(3, 3), v),
          kt_scalar(TF_INT64, -1), kt_scalar(TF_INT64, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(3, 3), KT_V(1, 0, 0, 4, 5, 0, 7, 8, 9));
  drop(1);
  n = run("MatrixBandPart", 3, kt_tensor(TF_INT32, KT_DIMS(3), NULL),
          kt_scalar(TF_INT64, 1), kt_scalar(TF_INT64, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "input must be at least 2-dim");
  n = run("MatrixBandPart", 3, kt_tensor(TF_INT32, KT_DIMS(2, 2), NULL),
          kt_scalar(TF_INT64, 5), kt_scalar(TF_INT64, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "num_lower must be negative or less or equal to number of rows "
             "(2) got: 5");
}

/* ------------------------------------------------------------- Scans */

TEST(cumsum_cumprod) {
  int n;
  begin();
  n = run("Cumsum", 2, kt_tensor(TF_FLOAT, KT_DIMS(4), KT_V(1, 2, 3, 4)),
          kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(4), KT_V(1, 3, 6, 10));
  drop(1);
  kt_attr_bool(&A, "exclusive", 1);
  kt_attr_bool(&A, "reverse", 1);
  n = run("Cumsum", 2, kt_tensor(TF_INT32, KT_DIMS(4), KT_V(1, 2, 3, 4)),
          kt_scalar(TF_INT64, -1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(4), KT_V(9, 7, 4, 0));
  drop(1);
  n = run("Cumprod", 2, kt_tensor(TF_DOUBLE, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)),
          kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(2, 2), KT_V(1, 2, 3, 8));
  drop(1);
  kt_attr_bool(&A, "exclusive", 1);
  n = run("Cumprod", 2, kt_tensor(TF_INT64, KT_DIMS(3), KT_V(2, 3, 4)),
          kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(3), KT_V(1, 2, 6));
  drop(1);
  n = run("Cumsum", 2, kt_tensor(TF_FLOAT, KT_DIMS(4), NULL),
          kt_scalar(TF_INT32, 1));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "ScanOp: Expected scan axis in the range [-1, 1), but got 1");
  /* A negative axis is reported with the rank added, as TF does. */
  n = run("Cumsum", 2, kt_tensor(TF_FLOAT, KT_DIMS(4), NULL),
          kt_scalar(TF_INT32, -3));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "ScanOp: Expected scan axis in the range [-1, 1), but got -2");
}

/* -------------------------------------------------------------- TopKV2 */

TEST(top_k_v2) {
  int n;
  begin();
  n = run("TopKV2", 2,
          kt_tensor(TF_FLOAT, KT_DIMS(2, 4), KT_V(1, 4, 2, 4, -1, -3, -2, 0)),
          kt_scalar(TF_INT32, 2));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2), KT_V(4, 4, 0, -1));
  KT_CHECK(OUT[1], TF_INT32, KT_DIMS(2, 2), KT_V(1, 3, 3, 0));
  drop(2);
  n = run("TopKV2", 2, kt_tensor(TF_INT64, KT_DIMS(3), KT_V(5, 9, 7)),
          kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(0), NULL);
  drop(2);
  n = run("TopKV2", 2, kt_tensor(TF_FLOAT, KT_DIMS(3), NULL),
          kt_scalar(TF_INT32, 4));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "input must have at least k columns. Had 3, needed 4");
  n = run("TopKV2", 2, kt_tensor(TF_FLOAT, KT_DIMS(3), NULL),
          kt_scalar(TF_INT32, -1));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Need k >= 0, got -1");
}

/* ------------------------------------------------------ ArgMax/ArgMin */

TEST(arg_max_min) {
  int n;
  begin();
  n = run("ArgMax", 2, kt_tensor(TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 5, 5, 7, 2, 3)),
          kt_scalar(TF_INT32, 1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(2), KT_V(1, 0));
  drop(1);
  kt_attr_type(&A, "output_type", TF_INT32);
  n = run("ArgMin", 2, kt_tensor(TF_INT16, KT_DIMS(2, 3), KT_V(1, 5, 5, 7, 2, 3)),
          kt_scalar(TF_INT64, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(3), KT_V(0, 1, 1));
  drop(1);
  n = run("ArgMax", 2, kt_tensor(TF_FLOAT, KT_DIMS(0, 3), NULL),
          kt_scalar(TF_INT32, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Reduction axis 0 is empty in shape [0,3]");
  n = run("ArgMax", 2, kt_tensor(TF_FLOAT, KT_DIMS(2), NULL),
          kt_scalar(TF_INT32, 1));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Expected dimension in the range [-1, 1), but got 1");
}

/* ------------------------------------------- Softmax, LogSoftmax, L2Loss */

TEST(softmax_log_softmax) {
  int n, i;
  double want[6], lwant[6];
  const double x[6] = {1, 2, 3, -1, 0, 100};
  begin();
  for (i = 0; i < 2; i++) {
    double m = x[3 * i] > x[3 * i + 1] ? x[3 * i] : x[3 * i + 1];
    double s = 0;
    int j;
    m = x[3 * i + 2] > m ? x[3 * i + 2] : m;
    for (j = 0; j < 3; j++) s += exp(x[3 * i + j] - m);
    for (j = 0; j < 3; j++) {
      want[3 * i + j] = exp(x[3 * i + j] - m) / s;
      lwant[3 * i + j] = x[3 * i + j] - m - log(s);
    }
  }
  n = run("Softmax", 1, kt_tensor(TF_FLOAT, KT_DIMS(2, 3), x));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(2, 3), want, 1e-6);
  drop(1);
  n = run("LogSoftmax", 1, kt_tensor(TF_FLOAT, KT_DIMS(2, 3), x));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(2, 3), lwant, 1e-5);
  drop(1);
  n = run("Softmax", 1, kt_tensor(TF_DOUBLE, KT_DIMS(2, 3), x));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(2, 3), want, 1e-14);
  drop(1);
  n = run("Softmax", 1, kt_tensor(TF_HALF, KT_DIMS(2, 3), x));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_HALF, KT_DIMS(2, 3), want, 1e-3);
  drop(1);
  n = run("Softmax", 1, kt_scalar(TF_FLOAT, 1));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "logits must have >= 1 dimension, got []");
}

/* The vectorised exp against libm over a wide range. */
TEST(softmax_exp_accuracy) {
  const int64_t N = 4001;
  double* v = (double*)malloc(sizeof(double) * N);
  int64_t i;
  int n;
  begin();
  for (i = 0; i < N; i++) v[i] = -100.0 + 0.05 * (double)i; /* up to 100 */
  n = run("Softmax", 1, kt_tensor(TF_FLOAT, KT_DIMS(N), v));
  EXPECT_OK(n, 1);
  {
    double s = 0;
    for (i = 0; i < N; i++) s += exp((double)(float)v[i] - 100.0);
    for (i = 0; i < N; i++) {
      double w = exp((double)(float)v[i] - 100.0) / s;
      double g = kt_get(OUT[0], i);
      if (fabs(g - w) > 1e-6 * w + 1e-30) {
        TFE_FAIL("softmax[%lld] = %.9g, want %.9g", (long long)i, g, w);
      }
    }
  }
  drop(1);
  free(v);
}

TEST(l2_loss) {
  int n;
  begin();
  n = run("L2Loss", 1, kt_tensor(TF_FLOAT, KT_DIMS(3), KT_V(1, 2, 3)));
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_FLOAT, KT_SCALAR, KT_V(7), 0, __FILE__, __LINE__);
  drop(1);
  n = run("L2Loss", 1, kt_tensor(TF_DOUBLE, KT_DIMS(0), NULL));
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_DOUBLE, KT_SCALAR, KT_V(0), 0, __FILE__, __LINE__);
  drop(1);
  n = run("L2Loss", 1, kt_tensor(TF_BFLOAT16, KT_DIMS(2), KT_V(2, 2)));
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_BFLOAT16, KT_SCALAR, KT_V(4), 0, __FILE__, __LINE__);
  drop(1);
}

TEST(matrix_diag_v2_v3) {
  int n;
  begin();
  /* single diagonal k=1 on [2]: 3x3 with the superdiagonal, padding 9 */
  n = run("MatrixDiagV3", 5, kt_tensor(TF_FLOAT, KT_DIMS(2), KT_V(1, 2)),
          kt_scalar(TF_INT32, 1), kt_scalar(TF_INT32, -1),
          kt_scalar(TF_INT32, -1), kt_scalar(TF_FLOAT, 9));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3, 3), KT_V(9, 1, 9, 9, 9, 2, 9, 9, 9));
  drop(1);
  /* band k=[-1, 1] on 3x3, RIGHT_LEFT (default): superdiagonal right
   * aligned, subdiagonal left aligned */
  n = run("MatrixDiagV3", 5,
          kt_tensor(TF_INT32, KT_DIMS(3, 3), KT_V(0, 1, 2, 3, 4, 5, 6, 7, 0)),
          kt_vec(TF_INT32, 2, KT_V(-1, 1)), kt_scalar(TF_INT32, -1),
          kt_scalar(TF_INT32, -1), kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(3, 3), KT_V(3, 1, 0, 6, 4, 2, 0, 7, 5));
  drop(1);
  /* the same band in V2 (left aligned): superdiagonal [1, 2, pad] */
  n = run("MatrixDiagV2", 5,
          kt_tensor(TF_INT32, KT_DIMS(3, 3), KT_V(1, 2, 0, 3, 4, 5, 6, 7, 0)),
          kt_vec(TF_INT32, 2, KT_V(-1, 1)), kt_scalar(TF_INT32, -1),
          kt_scalar(TF_INT32, -1), kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(3, 3), KT_V(3, 1, 0, 6, 4, 2, 0, 7, 5));
  drop(1);
  /* explicit non-square output: k=0, 2 rows x 3 cols */
  n = run("MatrixDiagV3", 5, kt_tensor(TF_FLOAT, KT_DIMS(2), KT_V(1, 2)),
          kt_scalar(TF_INT32, 0), kt_scalar(TF_INT32, 2),
          kt_scalar(TF_INT32, 3), kt_scalar(TF_FLOAT, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 0, 0, 0, 2, 0));
  drop(1);
  n = run("MatrixDiagV3", 5, kt_tensor(TF_FLOAT, KT_DIMS(2, 2), NULL),
          kt_vec(TF_INT32, 2, KT_V(1, 0)), kt_scalar(TF_INT32, -1),
          kt_scalar(TF_INT32, -1), kt_scalar(TF_FLOAT, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "lower_diag_index must not be larger than upper_diag_index: 1 > 0");
  n = run("MatrixDiagV3", 5, kt_tensor(TF_FLOAT, KT_DIMS(2), NULL),
          kt_scalar(TF_INT32, 0), kt_scalar(TF_INT32, 1),
          kt_scalar(TF_INT32, -1), kt_scalar(TF_FLOAT, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "The number of rows is too small.");
}

TFE_TEST_MAIN
