/* The special-function kernels of special_unary.c (Bessel I/K/J/Y, Ndtri,
 * Erfinv, Dawsn, Expint) run through the kernel registry: values checked
 * against high-precision references (mpmath), TF 2.21's special values
 * and overflow behaviour, the registered dtypes, shapes; and the string
 * kernels of special_strings.c (StringLower, StringUpper, StringStrip);
 * CumulativeLogsumexp (special_scan.c). */
#include <math.h>
#include <string.h>

#include "kernel_test_harness.h"
#include "tfe_test.h"

#define NANV NAN
#define INFV INFINITY

/* Runs a unary op on n doubles converted to dt; returns output count. */
static int run1(const char* op, TF_DataType dt, int64_t n, const double* v) {
  begin();
  kt_attr_type(&A, "T", dt);
  return run(op, 1, kt_vec(dt, n, v));
}

/* Relative check: |got - want| <= rtol * |want| (exact for 0/inf/NaN). */
static void check_rel(const char* op, const TF_Tensor* t, int64_t n,
                      const double* want, double rtol) {
  int64_t i;
  for (i = 0; i < n; i++) {
    double g = kt_get(t, i), w = want[i];
    int ok = (isnan(w) && isnan(g)) || g == w ||
             (isfinite(w) && fabs(g - w) <= rtol * fabs(w));
    if (!ok) TFE_FAIL("%s element %lld: got %.17g want %.17g", op, (long long)i, g, w);
  }
}

TEST(bessel_i_and_k_values_double) {
  static const double x[5] = {0.5, 1.0, 7.5, 25.0, 200.0};
  /* mpmath: besseli/besselk at these points (scaled ones times exp(-+x)) */
  static const double i0e[5] = {0.64503527044915007, 0.46575960759364044,
                                0.1483158300773955, 0.080196773547436708,
                                0.028227159949111916};
  static const double k0[5] = {0.92441907122766586, 0.42102443824070833,
                               0.00024917761635611439, 3.4641615622131144e-12,
                               1.2256819797765335e-88};
  static const double k1e[5] = {2.7310097082117857, 1.6361534862632582,
                                0.47966893379102062, 0.25437732954208525,
                                0.08878860158500368};
  int n = run1("BesselI0e", TF_DOUBLE, 5, x);
  EXPECT_OK(n, 1);
  check_rel("BesselI0e", OUT[0], 5, i0e, 2e-15);
  drop(n);
  n = run1("BesselK0", TF_DOUBLE, 5, x);
  EXPECT_OK(n, 1);
  check_rel("BesselK0", OUT[0], 5, k0, 2e-15);
  drop(n);
  n = run1("BesselK1e", TF_DOUBLE, 5, x);
  EXPECT_OK(n, 1);
  check_rel("BesselK1e", OUT[0], 5, k1e, 2e-15);
  drop(n);
}

TEST(bessel_special_values_follow_tf) {
  static const double x[6] = {0., -1., INFV, -INFV, NANV, 2.};
  int n = run1("BesselK1", TF_DOUBLE, 6, x);
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(6),
               KT_V(INFV, INFV, 0., INFV, NANV, 0.13986588181652243), 1e-16);
  drop(n);
  n = run1("BesselI1", TF_DOUBLE, 6, x);
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(6),
               KT_V(0., -0.56515910399248503, NANV, NANV, NANV,
                    1.5906368546373291),
               1e-15);
  drop(n);
  n = run1("BesselY0", TF_DOUBLE, 6, x);
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(6),
               KT_V(-INFV, -INFV, NANV, -INFV, NANV, 0.51037567264974512),
               1e-15);
  drop(n);
  n = run1("BesselJ1", TF_DOUBLE, 6, x);
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(6),
               KT_V(0., -0.44005058574493352, NANV, NANV, NANV,
                    0.57672480775687339),
               1e-15);
  drop(n);
  /* Y1 at 0: -inf in double, NaN in float (TF 2.21) */
  n = run1("BesselY1", TF_FLOAT, 2, KT_V(0., 1.));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(2), KT_V(NANV, -0.78121282130028872), 1e-7);
  drop(n);
}

TEST(bessel_i_overflows_where_tf_does) {
  /* I0(100) is finite in float's range only through exp(100) = inf: TF
   * (and tfe) return inf; in double it is 1.0737517071310738e42. */
  int n = run1("BesselI0", TF_FLOAT, 2, KT_V(100., -88.));
  EXPECT_OK(n, 1);
  CHECK(isinf(kt_get(OUT[0], 0)));
  CHECK(isfinite(kt_get(OUT[0], 1)));
  drop(n);
  n = run1("BesselI1", TF_DOUBLE, 2, KT_V(-711., 100.));
  EXPECT_OK(n, 1);
  CHECK(isinf(kt_get(OUT[0], 0)) && kt_get(OUT[0], 0) < 0);
  CHECK(fabs(kt_get(OUT[0], 1) / 1.0683693903381625e42 - 1) < 1e-14);
  drop(n);
  n = run1("Expint", TF_FLOAT, 2, KT_V(89., 80.));
  EXPECT_OK(n, 1);
  CHECK(isinf(kt_get(OUT[0], 0)));
  CHECK(fabs(kt_get(OUT[0], 1) / 7.0146000049048e32 - 1) < 1e-6);
  drop(n);
}

TEST(bessel_half_kernels) {
  int n = run1("BesselI0e", TF_HALF, 3, KT_V(0., 1., -2.));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_HALF, KT_DIMS(3),
               KT_V(1., 0.46575961, 0.30850832), 5e-4);
  drop(n);
}

TEST(ndtri_and_erfinv) {
  static const double p[8] = {0., 1., 0.5, 0.975, 1e-300, 1.5, -0.1, NANV};
  static const double q[8] = {-INFV, INFV, 0., 1.9599639845400539,
                              -37.047096299361201, NANV, NANV, NANV};
  static const double x[7] = {0., -1., 1., 0.5, -1e-12, 0.999999, 1.5};
  static const double e[7] = {0., -INFV, INFV, 0.47693627620446987,
                              -8.86226925452758e-13, 3.4589107372754988,
                              NANV};
  int n = run1("Ndtri", TF_DOUBLE, 8, p);
  EXPECT_OK(n, 1);
  check_rel("Ndtri", OUT[0], 8, q, 1e-15);
  drop(n);
  n = run1("Erfinv", TF_DOUBLE, 7, x);
  EXPECT_OK(n, 1);
  check_rel("Erfinv", OUT[0], 7, e, 1e-15);
  drop(n);
  /* TF's domain comes from (x + 1) / 2: just below 1 already gives inf */
  n = run1("Erfinv", TF_FLOAT, 2, KT_V(0.99999994, 1.0000001));
  EXPECT_OK(n, 1);
  CHECK(isinf(kt_get(OUT[0], 0)) && isinf(kt_get(OUT[0], 1)));
  drop(n);
}

TEST(dawsn_and_expint) {
  static const double x[5] = {0., 1., -2., 10., 50.};
  static const double d[5] = {0., 0.53807950691276842, -0.30134038892379197,
                              0.050253847187598528, 0.010002001201201683};
  int n = run1("Dawsn", TF_DOUBLE, 5, x);
  EXPECT_OK(n, 1);
  check_rel("Dawsn", OUT[0], 5, d, 1e-15);
  drop(n);
  n = run1("Expint", TF_DOUBLE, 6,
           KT_V(0., -1., 1., 0.4, 50., INFV));
  EXPECT_OK(n, 1);
  check_rel("Expint", OUT[0], 6,
            KT_V(-INFV, NANV, 1.8951178163559368, 0.10476521861932488,
                 1.0585636897131691e20, NANV),
            1e-15);
  drop(n);
}

TEST(dtypes_shapes_and_missing_kernels) {
  int n;
  begin();
  kt_attr_type(&A, "T", TF_FLOAT);
  n = run("Dawsn", 1, kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(1., -1., 0., 2.)));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_FLOAT, KT_DIMS(2, 2),
               KT_V(0.53807951, -0.53807951, 0., 0.30134039), 1e-7);
  drop(n);
  kt_attr_type(&A, "T", TF_DOUBLE);
  n = run("BesselJ0", 1, kt_tensor(TF_DOUBLE, KT_DIMS(0, 3), NULL));
  EXPECT_OK(n, 1);
  CHECK_EQ_INT(OUT[0]->num_dims, 2);
  CHECK_EQ_INT((int)OUT[0]->dims[0], 0);
  drop(n);
  /* no half kernel for Ndtri/Erfinv/Dawsn/Expint in TF 2.21 */
  n = run1("Ndtri", TF_HALF, 1, KT_V(0.5));
  CHECK_EQ_INT(n, -1);
  CHECK(TF_GetCode(S) != TF_OK);
  n = run1("BesselK0", TF_INT32, 1, KT_V(1.));
  CHECK_EQ_INT(n, -1);
}

/* A 1-D string tensor of n NUL-terminated strings (one long enough to
 * need a heap allocation). */
static TF_Tensor* strs(int n, const char* const* v) {
  int64_t d = n;
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, &d, 1, (size_t)n * sizeof(TF_TString));
  TF_TString* e = (TF_TString*)TF_TensorData(t);
  int i;
  for (i = 0; i < n; i++) TF_TString_Copy(&e[i], v[i], strlen(v[i]));
  return t;
}

static int str_is(const TF_Tensor* t, int i, const char* want) {
  const TF_TString* e = &((const TF_TString*)TF_TensorData(t))[i];
  size_t n = TF_TString_GetSize(e);
  return n == strlen(want) && memcmp(TF_TString_GetDataPointer(e), want, n) == 0;
}

TEST(string_case_and_strip) {
  static const char* const in[4] = {
      "  Hello \xc3\x84 World\t", "", "\v\f\r\n",
      "A rather long string, Well Past The Inline Capacity OF A TSTRING  "};
  int n;
  begin();
  n = run("StringUpper", 1, strs(4, in));
  EXPECT_OK(n, 1);
  CHECK(str_is(OUT[0], 0, "  HELLO \xc3\x84 WORLD\t"));
  CHECK(str_is(OUT[0], 1, ""));
  CHECK(str_is(OUT[0], 3,
               "A RATHER LONG STRING, WELL PAST THE INLINE CAPACITY OF A TSTRING  "));
  drop(n);
  n = run("StringLower", 1, strs(4, in));
  EXPECT_OK(n, 1);
  CHECK(str_is(OUT[0], 0, "  hello \xc3\x84 world\t"));
  drop(n);
  n = run("StringStrip", 1, strs(4, in));
  EXPECT_OK(n, 1);
  CHECK(str_is(OUT[0], 0, "Hello \xc3\x84 World"));
  CHECK(str_is(OUT[0], 1, ""));
  CHECK(str_is(OUT[0], 2, ""));
  CHECK(str_is(OUT[0], 3,
               "A rather long string, Well Past The Inline Capacity OF A TSTRING"));
  drop(n);
  kt_attr_string(&A, "encoding", "utf-8");
  n = run("StringLower", 1, strs(4, in));
  EXPECT_OK(n, 1);
  /* full Unicode mapping: U+00C4 lowercases to U+00E4 */
  CHECK(str_is(OUT[0], 0, "  hello \xc3\xa4 world\t"));
  drop(n);
  kt_attr_string(&A, "encoding", "utf-8");
  n = run("StringLower", 1, strs(2, in + 2));
  EXPECT_OK(n, 1);
  CHECK(str_is(OUT[0], 1, "a rather long string, well past the inline capacity of a tstring  "));
  drop(n);
  kt_attr_string(&A, "encoding", "ascii");
  n = run("StringUpper", 1, strs(1, in));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "only utf-8 or '' (no encoding) is supported, received ascii");
}

TEST(cumulative_logsumexp) {
  int n;
  begin();
  kt_attr_type(&A, "T", TF_DOUBLE);
  kt_attr_type(&A, "Tidx", TF_INT32);
  /* NaN leaves the running value alone (TF's max/min order), -inf adds
   * nothing, +inf saturates */
  n = run("CumulativeLogsumexp", 2,
          kt_vec(TF_DOUBLE, 6, KT_V(1., NANV, 2., -INFV, INFV, 3.)),
          kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 1);
  KT_CHECK_TOL(OUT[0], TF_DOUBLE, KT_DIMS(6),
               KT_V(1., 1.6931471805599454, 2.5514447139320513,
                    2.5514447139320513, INFV, INFV),
               1e-15);
  drop(n);
  /* [2, 2] along axis 0, exclusive and reversed */
  kt_attr_type(&A, "T", TF_FLOAT);
  kt_attr_type(&A, "Tidx", TF_INT64);
  kt_attr_bool(&A, "exclusive", 1);
  kt_attr_bool(&A, "reverse", 1);
  n = run("CumulativeLogsumexp", 2,
          kt_tensor(TF_FLOAT, KT_DIMS(2, 2), KT_V(0., 1., 2., 3.)),
          kt_scalar(TF_INT64, -2));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2), KT_V(2., 3., -INFV, -INFV));
  drop(n);
  kt_attr_type(&A, "T", TF_FLOAT);
  kt_attr_type(&A, "Tidx", TF_INT32);
  n = run("CumulativeLogsumexp", 2,
          kt_tensor(TF_FLOAT, KT_DIMS(1, 2), KT_V(0., 1.)),
          kt_scalar(TF_INT32, -3));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "ScanOp: Expected scan axis in the range [-2, 2), but got -1");
  kt_attr_type(&A, "T", TF_FLOAT);
  kt_attr_type(&A, "Tidx", TF_INT32);
  n = run("CumulativeLogsumexp", 2, kt_vec(TF_FLOAT, 2, KT_V(0., 1.)),
          kt_vec(TF_INT32, 1, KT_V(0.)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "ScanOp: axis must be a scalar, not [1]");
}

TFE_TEST_MAIN
