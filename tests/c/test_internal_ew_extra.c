/* The elementwise kernels of elementwise_extra.c (Xlogy family, NextAfter,
 * ApproximateEqual, activation and unary-math gradients, complex-number
 * ops) run through the kernel registry, against values recorded from
 * TensorFlow 2.21, with TF's shape rules and error messages. */
#include <complex.h>
#include <math.h>

#include "core/complex_compat.h" /* CMPLXF under clang */
#include "kernel_test_harness.h"
#include "tfe_test.h"

#define NANV NAN
#define INFV INFINITY

static void kt_attr_float(tfe_attrs* a, const char* name, float x) {
  tfe_attr_value v;
  tfe_attr_value_set_float(&v, x);
  tfe_attrs_put(a, name, &v);
}

static TF_Tensor* vec(TF_DataType dt, int64_t n, const double* v) {
  return kt_vec(dt, n, v);
}

TEST(xlogy_xdivy_xlog1py_edge_values_float) {
  static const double x[6] = {0., -0., 1., 2., NANV, 0.};
  static const double y[6] = {0., NANV, 0., 3., 1., -1.};
  int n;
  begin();
  kt_attr_type(&A, "T", TF_FLOAT);
  n = run("Xlogy", 2, vec(TF_FLOAT, 6, x), vec(TF_FLOAT, 6, y));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(6),
               KT_V(0., -0., -INFV, 2.1972246, NANV, 0.), 1e-6);
  /* -0 stays -0 (TF returns x itself where x is zero) */
  CHECK(signbit(((float*)TF_TensorData(OUT[0]))[1]));
  drop(n);
  kt_attr_type(&A, "T", TF_DOUBLE);
  n = run("Xdivy", 2, vec(TF_DOUBLE, 6, x), vec(TF_DOUBLE, 6, y));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(6),
               KT_V(0., -0., INFV, 2. / 3., NANV, 0.), 1e-15);
  drop(n);
  kt_attr_type(&A, "T", TF_FLOAT);
  n = run("Xlog1py", 2, vec(TF_FLOAT, 6, x), vec(TF_FLOAT, 6, y));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(6),
               KT_V(0., -0., 0., 2.7725887, NANV, 0.), 1e-6);
  drop(n);
}

TEST(xlogy_broadcasts_and_rejects_incompatible) {
  int n;
  begin();
  kt_attr_type(&A, "T", TF_FLOAT);
  n = run("Xlogy", 2, kt_tensor(TF_FLOAT, KT_DIMS(3, 1), KT_V(1., 0., 2.)),
          vec(TF_FLOAT, 2, KT_V(1., 0.)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3, 2), KT_V(0., -INFV, 0., 0., 0., -INFV));
  drop(n);
  kt_attr_type(&A, "T", TF_FLOAT);
  n = run("Xlogy", 2, vec(TF_FLOAT, 2, KT_V(1., 2.)),
          vec(TF_FLOAT, 3, KT_V(1., 2., 3.)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Incompatible shapes: [2] vs. [3]");
}

TEST(nextafter_and_approximate_equal) {
  int n;
  begin();
  kt_attr_type(&A, "T", TF_FLOAT);
  n = run("NextAfter", 2, vec(TF_FLOAT, 4, KT_V(0., 1., 1., NANV)),
          vec(TF_FLOAT, 4, KT_V(1., 2., 1., 0.)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(4),
           KT_V(1.4012984643248171e-45, 1.0000001192092896, 1., NANV));
  drop(n);
  kt_attr_type(&A, "T", TF_DOUBLE);
  n = run("ApproximateEqual", 2, vec(TF_DOUBLE, 4, KT_V(1., 2., NANV, 1.)),
          vec(TF_DOUBLE, 4, KT_V(1.00001, 2.1, NANV, 1.000001)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_BOOL, KT_DIMS(4), KT_V(0, 0, 0, 1));
  drop(n);
  kt_attr_type(&A, "T", TF_FLOAT);
  n = run("ApproximateEqual", 2, vec(TF_FLOAT, 2, KT_V(1., 2.)),
          vec(TF_FLOAT, 1, KT_V(1.)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "x and y must be of the same shape. x shape: [2]. y shape: [1]");
}

TEST(activation_gradients) {
  int n;
  float* d;
  begin();
  kt_attr_type(&A, "T", TF_FLOAT);
  n = run("ReluGrad", 2, vec(TF_FLOAT, 4, KT_V(-2., 3., NANV, 5.)),
          vec(TF_FLOAT, 4, KT_V(-1., 1., 2., 0.)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(4), KT_V(-0., 3., NANV, 0.));
  d = (float*)TF_TensorData(OUT[0]);
  CHECK(signbit(d[0]));
  drop(n);
  kt_attr_type(&A, "T", TF_INT32);
  n = run("Relu6Grad", 2, vec(TF_INT32, 6, KT_V(1, 2, 3, 4, 5, 6)),
          vec(TF_INT32, 6, KT_V(-1, 0, 1, 5, 6, 7)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(6), KT_V(0, 0, 3, 4, 0, 0));
  drop(n);
  kt_attr_type(&A, "T", TF_FLOAT);
  kt_attr_float(&A, "alpha", 0.3f);
  n = run("LeakyReluGrad", 2, vec(TF_FLOAT, 2, KT_V(2., 2.)),
          vec(TF_FLOAT, 2, KT_V(-1., 1.)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2), KT_V((double)(2.f * 0.3f), 2.));
  drop(n);
  kt_attr_type(&A, "T", TF_DOUBLE);
  n = run("EluGrad", 2, vec(TF_DOUBLE, 2, KT_V(2., 2.)),
          vec(TF_DOUBLE, 2, KT_V(-0.5, 1.)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(2), KT_V(1., 2.));
  drop(n);
  kt_attr_type(&A, "T", TF_FLOAT);
  n = run("ReluGrad", 2, kt_tensor(TF_FLOAT, KT_DIMS(1, 2), KT_V(1., 2.)),
          vec(TF_FLOAT, 2, KT_V(1., 2.)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Inputs to operation ReluGrad of type ReluGrad must have the "
             "same size and shape.  Input 0: [1,2] != input 1: [2]");
}

TEST(unary_math_gradients) {
  int n;
  begin();
  kt_attr_type(&A, "T", TF_FLOAT);
  /* same element count is enough; the output takes input 0's shape */
  n = run("SigmoidGrad", 2, kt_tensor(TF_FLOAT, KT_DIMS(1, 2), KT_V(1., 2.)),
          vec(TF_FLOAT, 2, KT_V(3., 4.)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 2), KT_V(0., -8.));
  drop(n);
  kt_attr_type(&A, "T", TF_DOUBLE);
  /* dy == 0 gives 0 even where y is 0 or inf */
  n = run("SqrtGrad", 2, vec(TF_DOUBLE, 3, KT_V(0., INFV, 4.)),
          vec(TF_DOUBLE, 3, KT_V(0., 0., 2.)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(3), KT_V(0., 0., 0.25));
  drop(n);
  kt_attr_type(&A, "T", TF_DOUBLE);
  n = run("ReciprocalGrad", 2, vec(TF_DOUBLE, 2, KT_V(INFV, 2.)),
          vec(TF_DOUBLE, 2, KT_V(0., 3.)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(2), KT_V(0., -12.));
  drop(n);
  kt_attr_type(&A, "T", TF_DOUBLE);
  n = run("TanhGrad", 2, vec(TF_DOUBLE, 2, KT_V(0.5, 2.)),
          vec(TF_DOUBLE, 2, KT_V(2., 1.)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(2), KT_V(1.5, -3.));
  drop(n);
  kt_attr_type(&A, "T", TF_FLOAT);
  n = run("TanhGrad", 2, vec(TF_FLOAT, 2, KT_V(1., 2.)),
          vec(TF_FLOAT, 3, KT_V(1., 2., 3.)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "The two arguments to a cwise op must have same number of "
             "elements, got 2 and 3");
}

TEST(complex_ops) {
  int n;
  float complex c[3] = {3.0f + 4.0f * I, -1.0f, CMPLXF(1.0f, 0.0f)};
  float complex* z;
  float* r;
  TF_Tensor* t;
  begin();
  kt_attr_type(&A, "T", TF_FLOAT);
  kt_attr_type(&A, "Tout", TF_COMPLEX64);
  n = run("Complex", 2, kt_tensor(TF_FLOAT, KT_DIMS(2, 1), KT_V(1., 2.)),
          vec(TF_FLOAT, 2, KT_V(3., -0.)));
  EXPECT_OK(n, 1);
  CHECK_EQ_INT(OUT[0]->dtype, TF_COMPLEX64);
  z = (float complex*)TF_TensorData(OUT[0]);
  CHECK(crealf(z[0]) == 1.0f && cimagf(z[0]) == 3.0f);
  CHECK(crealf(z[3]) == 2.0f && cimagf(z[3]) == 0.0f && signbit(cimagf(z[3])));
  drop(n);

  t = TF_AllocateTensor(TF_COMPLEX64, KT_DIMS(3), sizeof c);
  memcpy(TF_TensorData(t), c, sizeof c);
  kt_attr_type(&A, "T", TF_COMPLEX64);
  kt_attr_type(&A, "Tout", TF_FLOAT);
  n = run("ComplexAbs", 1, t);
  EXPECT_OK(n, 1);
  r = (float*)TF_TensorData(OUT[0]);
  CHECK(OUT[0]->dtype == TF_FLOAT && r[0] == 5.0f && r[1] == 1.0f);
  drop(n);

  t = TF_AllocateTensor(TF_COMPLEX64, KT_DIMS(3), sizeof c);
  memcpy(TF_TensorData(t), c, sizeof c);
  kt_attr_type(&A, "T", TF_COMPLEX64);
  n = run("Conj", 1, t);
  EXPECT_OK(n, 1);
  z = (float complex*)TF_TensorData(OUT[0]);
  CHECK(cimagf(z[0]) == -4.0f && signbit(cimagf(z[2])));
  drop(n);

  t = TF_AllocateTensor(TF_COMPLEX64, KT_DIMS(3), sizeof c);
  memcpy(TF_TensorData(t), c, sizeof c);
  kt_attr_type(&A, "T", TF_COMPLEX64);
  kt_attr_type(&A, "Tout", TF_FLOAT);
  n = run("Angle", 1, t);
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(3), KT_V(0.9272952, 3.14159265358979, 0.), 1e-6);
  drop(n);

  t = TF_AllocateTensor(TF_COMPLEX64, KT_DIMS(3), sizeof c);
  memcpy(TF_TensorData(t), c, sizeof c);
  kt_attr_type(&A, "T", TF_COMPLEX64);
  kt_attr_type(&A, "Tout", TF_DOUBLE);
  n = run("ComplexAbs", 1, t);
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Signature mismatch, have: complex64->double expected: "
             "complex64->float");
}

TFE_TEST_MAIN
