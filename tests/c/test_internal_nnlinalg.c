/* White-box tests of the kernels in nnlinalg_nn.c and nnlinalg_la.c,
 * run through the kernel registry: which element MaxPoolGrad routes each
 * gradient to (NaN and ties as in TF 2.21), accumulation in the dtype,
 * AvgPoolGrad averages and its shape checks, BiasAddGrad layouts and
 * wrap-around, InTopK's non-finite rule, and the linear-algebra kernels'
 * numerics (partial pivoting, batches, broadcasting) and TF's errors. */
#include <complex.h>
#include <math.h>

#include "kernel_test_harness.h"
#include "tfe_test.h"

#define NANV NAN
#define INFV INFINITY

static void pool_attrs(const int64_t* ks, const int64_t* st,
                       const char* pad) {
  kt_attr_ints(&A, "ksize", ks, 4);
  kt_attr_ints(&A, "strides", st, 4);
  kt_attr_string(&A, "padding", pad);
}

static void kt_attr_float_nl(tfe_attrs* a, const char* name, float x) {
  tfe_attr_value v;
  tfe_attr_value_set_float(&v, x);
  tfe_attrs_put(a, name, &v);
}

static const int64_t K22[4] = {1, 2, 2, 1};
static const int64_t S11[4] = {1, 1, 1, 1};

TEST(max_pool_grad_routes_to_tf_choice_with_nan_and_ties) {
  /* 4x4 input; 2x2 windows, stride 1. The window at (1,1) starts with a
   * NaN, which keeps its gradient; a NaN later in a window never wins;
   * ties go to the first element in row-major order. */
  static const double x[16] = {1, 1, 2, 2, 5, NANV, 0, 3,
                               2, 9, 9, 1, 0, 0, 0, 0};
  int n;
  begin();
  pool_attrs(K22, S11, "VALID");
  n = run("MaxPoolGrad", 3, kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 1), x),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 3, 1), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 3, 1),
                    KT_V(1, 2, 3, 4, 5, 6, 7, 8, 9)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 4, 4, 1),
           KT_V(0, 0, 2, 0, 1, 5, 0, 3, 0, 19, 15, 0, 0, 0, 0, 0));
  drop(n);
}

TEST(max_pool_grad_accumulates_in_dtype) {
  int n;
  begin();
  pool_attrs(K22, S11, "SAME");
  n = run("MaxPoolGrad", 3, kt_tensor(TF_INT8, KT_DIMS(1, 2, 2, 1), KT_V(1, 1, 1, 1)),
          kt_tensor(TF_INT8, KT_DIMS(1, 2, 2, 1), NULL),
          kt_tensor(TF_INT8, KT_DIMS(1, 2, 2, 1), KT_V(100, 100, 100, 100)));
  EXPECT_OK(n, 1);
  /* all equal: each SAME window picks its own top-left element */
  KT_CHECK(OUT[0], TF_INT8, KT_DIMS(1, 2, 2, 1), KT_V(100, 100, 100, 100));
  drop(n);
  /* int8: all four windows pick the 9, and 4 * 100 wraps. */
  pool_attrs(K22, S11, "SAME");
  n = run("MaxPoolGrad", 3, kt_tensor(TF_INT8, KT_DIMS(1, 2, 2, 1), KT_V(0, 0, 0, 9)),
          kt_tensor(TF_INT8, KT_DIMS(1, 2, 2, 1), NULL),
          kt_tensor(TF_INT8, KT_DIMS(1, 2, 2, 1), KT_V(100, 100, 100, 100)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT8, KT_DIMS(1, 2, 2, 1), KT_V(0, 0, 0, -112));
  drop(n);
  /* half rounds after each addition: 2048 + 1 + 1 stays 2048. */
  pool_attrs(K22, S11, "SAME");
  n = run("MaxPoolGrad", 3, kt_tensor(TF_HALF, KT_DIMS(1, 2, 2, 1), KT_V(0, 0, 0, 9)),
          kt_tensor(TF_HALF, KT_DIMS(1, 2, 2, 1), NULL),
          kt_tensor(TF_HALF, KT_DIMS(1, 2, 2, 1), KT_V(2048, 1, 1, 0)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_HALF, KT_DIMS(1, 2, 2, 1), KT_V(0, 0, 0, 2048));
  drop(n);
}

TEST(max_pool_grad_checks_shapes_like_tf) {
  int n;
  begin();
  pool_attrs(K22, S11, "VALID");
  n = run("MaxPoolGrad", 3, kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 1), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 3, 1), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 2, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Expected grad shape to be [1,3,3,1], but got [1,2,2,1]");
  pool_attrs(K22, S11, "SAME");
  n = run("MaxPoolGrad", 3, kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 1), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 3, 1), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 3, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Expected orig_output shape to be [1,4,4,1], but got [1,3,3,1]");
  pool_attrs(K22, S11, "VALID");
  kt_attr_string(&A, "data_format", "NCHW");
  n = run("MaxPoolGrad", 3, kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 1), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 3, 1), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 3, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "only supports NHWC");
  /* MaxPoolGradV2 reads ksize/strides from tensors of any shape. */
  kt_attr_string(&A, "padding", "VALID");
  n = run("MaxPoolGradV2", 5,
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 2, 1), KT_V(1, 4, 3, 2)),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 1, 1), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 1, 1), KT_V(7)),
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(1, 2, 2, 1)),
          kt_tensor(TF_INT32, KT_DIMS(4), KT_V(1, 1, 1, 1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 2, 2, 1), KT_V(0, 7, 0, 0));
  drop(n);
  kt_attr_string(&A, "padding", "VALID");
  n = run("MaxPoolGradV2", 5,
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 2, 1), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 1, 1), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 1, 1), NULL),
          kt_tensor(TF_INT32, KT_DIMS(3), KT_V(1, 2, 2)),
          kt_tensor(TF_INT32, KT_DIMS(4), KT_V(1, 1, 1, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Sliding window ksize field must specify 4 dimensions");
}

TEST(avg_pool_grad_spreads_averages_and_rejects_bad_shapes) {
  int n;
  static const int64_t s22[4] = {1, 2, 2, 1};
  begin();
  pool_attrs(K22, s22, "SAME");
  n = run("AvgPoolGrad", 2, kt_vec(TF_INT32, 4, KT_V(1, 3, 3, 1)),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 2, 1), KT_V(1, 2, 3, 4)));
  EXPECT_OK(n, 1);
  /* padded positions do not count: edge windows have 2 or 1 elements */
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 3, 3, 1),
           KT_V(0.25, 0.25, 1, 0.25, 0.25, 1, 1.5, 1.5, 4));
  drop(n);
  /* TF 2.21's oneDNN kernel crashes or misreads on these; tfe rejects. */
  pool_attrs(K22, S11, "VALID");
  n = run("AvgPoolGrad", 2, kt_vec(TF_INT32, 3, KT_V(1, 3, 3)),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 2, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "orig_input_shape must be 1-dimensional");
  pool_attrs(K22, S11, "VALID");
  n = run("AvgPoolGrad", 2, kt_vec(TF_INT32, 4, KT_V(1, 4, 3, 1)),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 2, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Expected grad shape to be [1,3,2,1], but got [1,2,2,1]");
  pool_attrs(K22, S11, "VALID");
  n = run("AvgPoolGrad", 2, kt_vec(TF_INT32, 4, KT_V(1, 3, -3, 1)),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 2, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Expected a non-negative size, got -3");
}

TEST(bias_add_grad_layouts_and_wrap) {
  int n;
  begin();
  kt_attr_string(&A, "data_format", "NCHW");
  n = run("BiasAddGrad", 1,
          kt_tensor(TF_FLOAT, KT_DIMS(2, 3, 2),
                    KT_V(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3), KT_V(1 + 2 + 7 + 8, 3 + 4 + 9 + 10,
                                               5 + 6 + 11 + 12));
  drop(n);
  n = run("BiasAddGrad", 1,
          kt_tensor(TF_UINT8, KT_DIMS(3, 2), KT_V(200, 1, 100, 2, 0, 3)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_UINT8, KT_DIMS(2), KT_V(44, 6));
  drop(n);
  n = run("BiasAddGrad", 1, kt_vec(TF_FLOAT, 2, KT_V(1, 2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Input tensor must be at least 2D: [2]");
}

TEST(in_top_k_non_finite_and_range) {
  int n;
  begin();
  kt_attr_int(&A, "k", 1);
  n = run("InTopK", 2,
          kt_tensor(TF_FLOAT, KT_DIMS(4, 3),
                    KT_V(1, 2, 2, NANV, 1, 2, 1, INFV, 2, 3, 1, 1)),
          kt_vec(TF_INT64, 4, KT_V(1, 2, 2, 3)));
  EXPECT_OK(n, 1);
  /* tie counts as in; a NaN anywhere or inf above: out; bad index: out */
  KT_CHECK(OUT[0], TF_BOOL, KT_DIMS(4), KT_V(1, 0, 0, 0));
  drop(n);
  n = run("InTopKV2", 3, kt_tensor(TF_FLOAT, KT_DIMS(1, 3), KT_V(1, 2, 3)),
          kt_vec(TF_INT32, 1, KT_V(0)), kt_scalar(TF_INT32, 3));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_BOOL, KT_DIMS(1), KT_V(1));
  drop(n);
  n = run("InTopKV2", 3, kt_tensor(TF_FLOAT, KT_DIMS(1, 3), KT_V(1, 2, 3)),
          kt_vec(TF_INT32, 1, KT_V(0)), kt_vec(TF_INT32, 1, KT_V(3)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "k must be 0-D, got shape [1]");
}

TEST(determinant_uses_partial_pivoting) {
  int n;
  begin();
  /* A zero in the leading position needs a row swap. */
  n = run("MatrixDeterminant", 1,
          kt_tensor(TF_DOUBLE, KT_DIMS(2, 3, 3),
                    KT_V(0, 2, 1, 1, 1, 1, 2, 1, 0,  /* det = 3 */
                         1, 2, 3, 4, 5, 6, 7, 8, 9))); /* singular */
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(2), KT_V(3, 0), 1e-14);
  drop(n);
  n = run("LogMatrixDeterminant", 1,
          kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(0, 3, 2, 0)));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_FLOAT, KT_SCALAR, KT_V(-1));
  KT_CHECK_TOL(OUT[1], TF_FLOAT, KT_SCALAR, KT_V(1.791759469228055), 1e-6);
  drop(n);
  n = run("MatrixDeterminant", 1, kt_tensor(TF_FLOAT, KT_DIMS(3, 0, 0), NULL));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3), KT_V(1, 1, 1));
  drop(n);
}

TEST(inverse_and_solve_errors_and_values) {
  int n;
  begin();
  kt_attr_bool(&A, "adjoint", 1);
  n = run("MatrixInverse", 1,
          kt_tensor(TF_DOUBLE, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(2, 2), KT_V(-2, 1.5, 1, -0.5),
               1e-14);
  drop(n);
  n = run("MatrixInverse", 1,
          kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 2, 4)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Input is not invertible.");
  /* A NaN first on U's diagonal makes it "not invertible"; a later one
   * just propagates (TF's min-pivot check). */
  n = run("MatrixInverse", 1,
          kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(NANV, 0, 0, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Input is not invertible.");
  n = run("MatrixInverse", 1,
          kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, NANV, 0, 1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2), KT_V(NANV, NANV, NANV, NANV));
  drop(n);
  n = run("MatrixSolve", 2,
          kt_tensor(TF_DOUBLE, KT_DIMS(2, 2), KT_V(0, 1, 1, 0)),
          kt_tensor(TF_DOUBLE, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(2, 2), KT_V(3, 4, 1, 2));
  drop(n);
  n = run("MatrixSolve", 2,
          kt_tensor(TF_DOUBLE, KT_DIMS(2, 2), KT_V(1, 1, 1, 1)),
          kt_tensor(TF_DOUBLE, KT_DIMS(2, 1), KT_V(1, 2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Input matrix is not invertible.");
  n = run("MatrixSolve", 2, kt_tensor(TF_DOUBLE, KT_DIMS(2, 2), NULL),
          kt_tensor(TF_DOUBLE, KT_DIMS(3, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Input matrix and rhs are incompatible.");
}

TEST(cholesky_values_and_failure) {
  int n;
  begin();
  /* only the lower triangle is read */
  n = run("Cholesky", 1,
          kt_tensor(TF_DOUBLE, KT_DIMS(2, 2), KT_V(4, 99, 2, 5)));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(2, 2), KT_V(2, 0, 1, 2), 1e-15);
  drop(n);
  n = run("Cholesky", 1,
          kt_tensor(TF_FLOAT, KT_DIMS(2, 2, 2),
                    KT_V(1, 0, 0, 1, 1, 2, 2, 4)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2, 2),
           KT_V(1, 0, 0, 1, NANV, 0, NANV, NANV));
  drop(n);
  n = run("Cholesky", 1, kt_tensor(TF_FLOAT, KT_DIMS(2, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Input matrix must be square.");
}

TEST(triangular_solve_broadcasts_and_divides_by_zero) {
  int n;
  begin();
  /* one lower matrix against a batch of 2 right-hand sides */
  n = run("MatrixTriangularSolve", 2,
          kt_tensor(TF_DOUBLE, KT_DIMS(1, 2, 2), KT_V(2, 0, 1, 4)),
          kt_tensor(TF_DOUBLE, KT_DIMS(2, 2, 1), KT_V(2, 5, 4, 6)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(2, 2, 1), KT_V(1, 1, 2, 1));
  drop(n);
  kt_attr_bool(&A, "lower", 0);
  kt_attr_bool(&A, "adjoint", 1);
  /* upper, adjoint: solves U^T x = b with U = [[2,1],[0,4]] */
  n = run("MatrixTriangularSolve", 2,
          kt_tensor(TF_DOUBLE, KT_DIMS(2, 2), KT_V(2, 1, 0, 4)),
          kt_tensor(TF_DOUBLE, KT_DIMS(2, 1), KT_V(2, 5)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(2, 1), KT_V(1, 1));
  drop(n);
  n = run("MatrixTriangularSolve", 2,
          kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(0, 0, 1, 1)),
          kt_tensor(TF_FLOAT, KT_DIMS(2, 1), KT_V(1, 1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 1), KT_V(INFV, -INFV));
  drop(n);
  n = run("MatrixTriangularSolve", 2,
          kt_tensor(TF_FLOAT, KT_DIMS(3, 2, 2), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(2, 2, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "In[0] and In[1] must have compatible batch dimensions: "
             "[3,2,2] vs. [2,2,1]");
}

TEST(complex_linalg) {
  int n;
  TF_Tensor* m;
  float* d;
  begin();
  m = kt_tensor(TF_COMPLEX64, KT_DIMS(2, 2), NULL);
  d = (float*)TF_TensorData(m);
  /* [[1+i, 2], [3i, 4]]: det = 4 - 2i */
  d[0] = 1, d[1] = 1, d[2] = 2, d[3] = 0, d[4] = 0, d[5] = 3, d[6] = 4,
  d[7] = 0;
  n = run("MatrixDeterminant", 1, m);
  EXPECT_OK(n, 1);
  {
    const float* o = (const float*)TF_TensorData(OUT[0]);
    CHECK(fabs(o[0] - 4.0) < 1e-5 && fabs(o[1] + 2.0) < 1e-5);
  }
  drop(n);
}

TEST(max_pool_with_argmax_indices) {
  static const double x[16] = {1, 1, 2, 2, 5, NANV, 0, 3,
                               2, 9, 9, 1, 0, 0, 0, 0};
  int n;
  begin();
  pool_attrs(K22, S11, "VALID");
  kt_attr_type(&A, "Targmax", TF_INT32);
  n = run("MaxPoolWithArgmax", 1, kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 4, 1), x));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 3, 3, 1),
           KT_V(5, 2, 3, 9, NANV, 9, 9, 9, 9));
  KT_CHECK(OUT[1], TF_INT32, KT_DIMS(1, 3, 3, 1),
           KT_V(4, 2, 7, 9, 5, 10, 9, 9, 10));
  drop(n);
  /* second batch: indices restart unless include_batch_in_index */
  {
    static const int64_t s22[4] = {1, 2, 2, 1};
    pool_attrs(K22, s22, "VALID");
    kt_attr_bool(&A, "include_batch_in_index", 1);
    n = run("MaxPoolWithArgmax", 1,
            kt_tensor(TF_INT64, KT_DIMS(2, 2, 2, 1), KT_V(1, 2, 3, 4, 4, 3, 2, 1)));
    EXPECT_OK(n, 2);
    KT_CHECK(OUT[0], TF_INT64, KT_DIMS(2, 1, 1, 1), KT_V(4, 4));
    KT_CHECK(OUT[1], TF_INT64, KT_DIMS(2, 1, 1, 1), KT_V(3, 4));
    drop(n);
  }
  pool_attrs(K22, S11, "VALID");
  n = run("MaxPoolWithArgmax", 1, kt_tensor(TF_FLOAT, KT_DIMS(0, 2, 2, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "tensor_in must not be empty");
}

TEST(lrn_values_nan_rows_and_grad) {
  int n;
  begin();
  kt_attr_int(&A, "depth_radius", 1);
  kt_attr_float_nl(&A, "bias", 1.0f);
  kt_attr_float_nl(&A, "alpha", 1.0f);
  kt_attr_float_nl(&A, "beta", 1.0f);
  /* second row: a NaN makes the whole depth row NaN (band-matrix sum) */
  n = run("LRN", 1, kt_tensor(TF_FLOAT, KT_DIMS(2, 1, 1, 3),
                              KT_V(1, 2, 0, 1, NANV, 5)));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(2, 1, 1, 3),
               KT_V(1.0 / 6, 2.0 / 6, 0, NANV, NANV, NANV), 1e-7);
  drop(n);
  kt_attr_int(&A, "depth_radius", 0);
  kt_attr_float_nl(&A, "beta", 1.0f);
  /* radius 0: y = x / (1 + x^2), dy/dx = (1 - x^2) / (1 + x^2)^2 */
  n = run("LRNGrad", 3, kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 1, 2), KT_V(1, 1)),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 1, 2), KT_V(0, 2)),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 1, 2), KT_V(0, 0.4)));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(1, 1, 1, 2), KT_V(1, -3.0 / 25),
               1e-7);
  drop(n);
  kt_attr_int(&A, "depth_radius", -1);
  n = run("LRN", 1, kt_tensor(TF_FLOAT, KT_DIMS(1, 1, 1, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "depth_radius = -1 larger than int max");
}

TEST(resize_grads) {
  int n;
  begin();
  /* 2x2 -> 3x3 forward with align_corners: scale 0.5; middle rows and
   * columns split their gradient evenly. */
  kt_attr_bool(&A, "align_corners", 1);
  n = run("ResizeBilinearGrad", 2,
          kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 3, 1), KT_V(1, 1, 1, 1, 1, 1, 1, 1, 1)),
          kt_tensor(TF_DOUBLE, KT_DIMS(1, 2, 2, 1), NULL));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(1, 2, 2, 1), KT_V(2.25, 2.25, 2.25, 2.25));
  drop(n);
  /* nearest: 3x3 grads onto 1x1 all land on the one pixel; int8 wraps */
  n = run("ResizeNearestNeighborGrad", 2,
          kt_tensor(TF_INT8, KT_DIMS(1, 3, 3, 1),
                    KT_V(100, 100, 100, 100, 100, 100, 100, 100, 100)),
          kt_vec(TF_INT32, 2, KT_V(1, 1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT8, KT_DIMS(1, 1, 1, 1), KT_V(-124));
  drop(n);
  n = run("ResizeNearestNeighborGrad", 2,
          kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 3, 1), NULL),
          kt_vec(TF_INT32, 2, KT_V(0, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "shape_t's elements must be positive");
  kt_attr_bool(&A, "align_corners", 1);
  kt_attr_bool(&A, "half_pixel_centers", 1);
  n = run("ResizeBilinearGrad", 2, kt_tensor(TF_FLOAT, KT_DIMS(1, 3, 3, 1), NULL),
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 2, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "If half_pixel_centers is True, align_corners must be False.");
}

TEST(qr_follows_eigen_householder_signs) {
  int n;
  begin();
  /* [[3],[4]]: R = -5 (the reflector flips the sign of a positive lead) */
  n = run("Qr", 1, kt_tensor(TF_DOUBLE, KT_DIMS(2, 1), KT_V(3, 4)));
  EXPECT_OK(n, 2);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(2, 1), KT_V(-0.6, -0.8), 1e-15);
  KT_CHECK_TOL(OUT[1], TF_DOUBLE, KT_DIMS(1, 1), KT_V(-5), 1e-15);
  drop(n);
  /* a column already reduced keeps its sign and needs no reflector */
  kt_attr_bool(&A, "full_matrices", 1);
  n = run("Qr", 1, kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(-1, 2, 0, 3)));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 0, 0, 1));
  KT_CHECK(OUT[1], TF_FLOAT, KT_DIMS(2, 2), KT_V(-1, 2, 0, 3));
  drop(n);
  n = run("Qr", 1, kt_vec(TF_FLOAT, 2, KT_V(1, 2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Input tensor 0 must have rank >= 2, got 1");
}

TEST(self_adjoint_eig) {
  int n;
  begin();
  /* [[2,1],[1,2]]: eigenvalues 1, 3 (ascending); only the lower triangle
   * is read, so the 99 is ignored */
  n = run("SelfAdjointEigV2", 1,
          kt_tensor(TF_DOUBLE, KT_DIMS(2, 2), KT_V(2, 99, 1, 2)));
  EXPECT_OK(n, 2);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(2), KT_V(1, 3), 1e-15);
  {
    const double* v = (const double*)TF_TensorData(OUT[1]);
    /* columns are unit eigenvectors: A v = lambda v */
    CHECK(fabs(2 * v[0] + v[2] - 1 * v[0]) < 1e-14);
    CHECK(fabs(v[0] + 2 * v[2] - 1 * v[2]) < 1e-14);
    CHECK(fabs(v[0] * v[0] + v[2] * v[2] - 1) < 1e-14);
  }
  drop(n);
  kt_attr_bool(&A, "compute_v", 0);
  n = run("SelfAdjointEigV2", 1,
          kt_tensor(TF_FLOAT, KT_DIMS(3, 3), KT_V(3, 0, 0, 0, 1, 0, 0, 0, 2)));
  EXPECT_OK(n, 2);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(3), KT_V(1, 2, 3), 1e-6);
  KT_CHECK(OUT[1], TF_FLOAT, KT_SCALAR, KT_V(0));
  drop(n);
  n = run("SelfAdjointEigV2", 1,
          kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(NANV, 0, 0, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Self-adjoint eigen decomposition was not successful.");
}

TEST(lu_factors_and_permutation) {
  int n;
  begin();
  kt_attr_type(&A, "output_idx_type", TF_INT64);
  n = run("Lu", 1, kt_tensor(TF_DOUBLE, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)));
  EXPECT_OK(n, 2);
  /* rows swapped: U = [[3,4],[0,2/3]], L = [[1,0],[1/3,1]] */
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(2, 2), KT_V(3, 4, 1.0 / 3, 2.0 / 3),
               1e-15);
  KT_CHECK(OUT[1], TF_INT64, KT_DIMS(2), KT_V(1, 0));
  drop(n);
  n = run("Lu", 1, kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 2, 4)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Input is not invertible.");
}

TFE_TEST_MAIN
