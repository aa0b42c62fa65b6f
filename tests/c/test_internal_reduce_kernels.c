/* Reduction kernels (Sum, Mean, Prod, Max, Min, All, Any) through the
 * kernel registry: every reduction shape (rows, columns, scattered axes),
 * keep_dims, negative and int64 axes, empty reductions, NaN propagation,
 * integer wrap-around, 16-bit floats, complex numbers, and the errors. */
#include <float.h>
#include <stdlib.h>

#include "kernel_test_ops.h"
#include "kernel_test_util.h"

static TF_Status* S;
static tfe_attrs A;
static TF_Tensor* OUT[KT_MAX_IO];

static void begin(void) {
  kt_register_fallback_ops();
  if (S == NULL) S = TF_NewStatus();
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
}

/* op(x, axes) with keep_dims; returns the output (caller deletes). */
static TF_Tensor* reduce(const char* op, TF_Tensor* x, TF_Tensor* axes,
                         int keep) {
  TF_Tensor* in[2] = {x, axes};
  int n;
  kt_attr_bool(&A, "keep_dims", keep);
  n = kt_run(op, &A, in, 2, OUT, S);
  tfe_attrs_clear(&A);
  if (n != 1) return NULL;
  return OUT[0];
}

static TF_Tensor* red_ok(const char* op, TF_Tensor* x, TF_Tensor* axes,
                         int keep) {
  TF_Tensor* y = reduce(op, x, axes, keep);
  if (y == NULL) TFE_FAIL("%s failed: %s", op, TF_Message(S));
  return y;
}

static TF_Tensor* ax(int64_t n, const double* v) {
  return kt_vec(TF_INT32, n, v);
}

/* x = [[1,2,3],[4,5,6]] in dtype dt */
static TF_Tensor* m23(TF_DataType dt) {
  return kt_tensor(dt, KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6));
}

TEST(sum_axes_keep_dims) {
  TF_Tensor* y;
  begin();
  y = red_ok("Sum", m23(TF_FLOAT), ax(1, KT_V(0)), 0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(3), KT_V(5, 7, 9));
  TF_DeleteTensor(y);
  y = red_ok("Sum", m23(TF_FLOAT), ax(1, KT_V(1)), 0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2), KT_V(6, 15));
  TF_DeleteTensor(y);
  y = red_ok("Sum", m23(TF_FLOAT), ax(1, KT_V(-1)), 1);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2, 1), KT_V(6, 15));
  TF_DeleteTensor(y);
  y = red_ok("Sum", m23(TF_FLOAT), ax(2, KT_V(0, 1)), 0);
  kt_check(y, TF_FLOAT, KT_SCALAR, KT_V(21), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  y = red_ok("Sum", m23(TF_FLOAT), ax(2, KT_V(1, 0)), 1);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(1, 1), KT_V(21));
  TF_DeleteTensor(y);
  /* no axes: nothing reduced */
  y = red_ok("Sum", m23(TF_FLOAT), ax(0, NULL), 0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6));
  TF_DeleteTensor(y);
  /* scalar axis tensor, int64 */
  y = red_ok("Sum", m23(TF_FLOAT), kt_scalar(TF_INT64, 1), 0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2), KT_V(6, 15));
  TF_DeleteTensor(y);
  /* scalar input */
  y = red_ok("Sum", kt_scalar(TF_DOUBLE, 2.5), ax(0, NULL), 0);
  kt_check(y, TF_DOUBLE, KT_SCALAR, KT_V(2.5), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
}

/* [2,3,4] iota reduced over every subset of axes against a direct sum. */
TEST(sum_every_axis_subset_3d) {
  double v[24];
  int mask, i;
  begin();
  for (i = 0; i < 24; i++) v[i] = i + 1;
  for (mask = 0; mask < 8; mask++) {
    double axes[3];
    int na = 0, keep;
    for (i = 0; i < 3; i++)
      if (mask & (1 << i)) axes[na++] = i;
    for (keep = 0; keep < 2; keep++) {
      TF_Tensor* y = red_ok("Sum", kt_tensor(TF_INT32, KT_DIMS(2, 3, 4), v),
                            ax(na, axes), keep);
      int64_t a, b, c;
      int64_t od[3] = {mask & 1 ? 1 : 2, mask & 2 ? 1 : 3, mask & 4 ? 1 : 4};
      double want[24];
      memset(want, 0, sizeof want);
      for (a = 0; a < 2; a++)
        for (b = 0; b < 3; b++)
          for (c = 0; c < 4; c++) {
            int64_t oa = mask & 1 ? 0 : a, ob = mask & 2 ? 0 : b,
                    oc = mask & 4 ? 0 : c;
            want[(oa * od[1] + ob) * od[2] + oc] += v[(a * 3 + b) * 4 + c];
          }
      CHECK_EQ_INT(kutil_num_elements(y), od[0] * od[1] * od[2]);
      CHECK_EQ_INT(y->num_dims, keep ? 3 : 3 - na);
      for (i = 0; i < kutil_num_elements(y); i++) {
        if (kt_get(y, i) != want[i]) {
          TFE_FAIL("mask %d keep %d: [%d] = %g, want %g", mask, keep, i,
                   kt_get(y, i), want[i]);
        }
      }
      TF_DeleteTensor(y);
    }
  }
}

/* [2,3,2,3] reduced over axes {0,2} and {1,3}: the transposing path. */
TEST(sum_scattered_axes_4d) {
  double v[36];
  TF_Tensor* y;
  int i;
  begin();
  for (i = 0; i < 36; i++) v[i] = i;
  y = red_ok("Sum", kt_tensor(TF_DOUBLE, KT_DIMS(2, 3, 2, 3), v),
             ax(2, KT_V(0, 2)), 0);
  {
    double want[9];
    int b, d, a, c;
    for (b = 0; b < 3; b++)
      for (d = 0; d < 3; d++) {
        double s = 0;
        for (a = 0; a < 2; a++)
          for (c = 0; c < 2; c++) s += v[((a * 3 + b) * 2 + c) * 3 + d];
        want[b * 3 + d] = s;
      }
    kt_check(y, TF_DOUBLE, KT_DIMS(3, 3), want, 0, __FILE__, __LINE__);
  }
  TF_DeleteTensor(y);
  y = red_ok("Max", kt_tensor(TF_INT16, KT_DIMS(2, 3, 2, 3), v),
             ax(2, KT_V(1, 3)), 1);
  KT_CHECK(y, TF_INT16, KT_DIMS(2, 1, 2, 1), KT_V(14, 17, 32, 35));
  TF_DeleteTensor(y);
}

TEST(size_one_dims_merge) {
  TF_Tensor* y;
  begin();
  /* [2,1,3,1] over axes [1,3]: nothing real is reduced */
  y = red_ok("Sum",
             kt_tensor(TF_FLOAT, KT_DIMS(2, 1, 3, 1), KT_V(1, 2, 3, 4, 5, 6)),
             ax(2, KT_V(1, 3)), 0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6));
  TF_DeleteTensor(y);
  /* [1,2,1,3] over [0,3] */
  y = red_ok("Sum",
             kt_tensor(TF_FLOAT, KT_DIMS(1, 2, 1, 3), KT_V(1, 2, 3, 4, 5, 6)),
             ax(2, KT_V(0, 3)), 1);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(1, 2, 1, 1), KT_V(6, 15));
  TF_DeleteTensor(y);
}

TEST(mean_prod_max_min_float) {
  TF_Tensor* y;
  begin();
  y = red_ok("Mean", m23(TF_FLOAT), ax(1, KT_V(0)), 0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(3), KT_V(2.5, 3.5, 4.5));
  TF_DeleteTensor(y);
  y = red_ok("Prod", m23(TF_DOUBLE), ax(1, KT_V(1)), 0);
  KT_CHECK(y, TF_DOUBLE, KT_DIMS(2), KT_V(6, 120));
  TF_DeleteTensor(y);
  y = red_ok("Prod", m23(TF_FLOAT), ax(1, KT_V(0)), 0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(3), KT_V(4, 10, 18));
  TF_DeleteTensor(y);
  y = red_ok("Max", m23(TF_FLOAT), ax(1, KT_V(1)), 0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2), KT_V(3, 6));
  TF_DeleteTensor(y);
  y = red_ok("Min", m23(TF_FLOAT), ax(1, KT_V(0)), 0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(3), KT_V(1, 2, 3));
  TF_DeleteTensor(y);
  y = red_ok("Max",
             kt_tensor(TF_FLOAT, KT_DIMS(4), KT_V(-1, -INFINITY, -7, -0.5)),
             ax(1, KT_V(0)), 0);
  kt_check(y, TF_FLOAT, KT_SCALAR, KT_V(-0.5), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
}

TEST(max_min_propagate_nan) {
  TF_Tensor* y;
  begin();
  y = red_ok("Max", kt_tensor(TF_FLOAT, KT_DIMS(3), KT_V(1, NAN, 3)),
             ax(1, KT_V(0)), 0);
  CHECK(isnan(kt_get(y, 0)));
  TF_DeleteTensor(y);
  y = red_ok("Min", kt_tensor(TF_DOUBLE, KT_DIMS(2, 2), KT_V(1, NAN, 3, 4)),
             ax(1, KT_V(0)), 0);
  CHECK(kt_get(y, 0) == 1 && isnan(kt_get(y, 1)));
  TF_DeleteTensor(y);
  y = red_ok("Max", kt_tensor(TF_HALF, KT_DIMS(2, 2), KT_V(NAN, 1, 3, 4)),
             ax(1, KT_V(1)), 0);
  CHECK(isnan(kt_get(y, 0)) && kt_get(y, 1) == 4);
  TF_DeleteTensor(y);
}

TEST(empty_reductions_give_identity) {
  TF_Tensor* y;
  begin();
  y = red_ok("Sum", kt_tensor(TF_FLOAT, KT_DIMS(0), NULL), ax(1, KT_V(0)), 0);
  kt_check(y, TF_FLOAT, KT_SCALAR, KT_V(0), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  y = red_ok("Prod", kt_tensor(TF_INT32, KT_DIMS(2, 0), NULL), ax(1, KT_V(1)),
             0);
  KT_CHECK(y, TF_INT32, KT_DIMS(2), KT_V(1, 1));
  TF_DeleteTensor(y);
  y = red_ok("Max", kt_tensor(TF_FLOAT, KT_DIMS(0, 2), NULL), ax(1, KT_V(0)),
             0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2), KT_V(-INFINITY, -INFINITY));
  TF_DeleteTensor(y);
  y = red_ok("Min", kt_tensor(TF_DOUBLE, KT_DIMS(0), NULL), ax(1, KT_V(0)), 0);
  kt_check(y, TF_DOUBLE, KT_SCALAR, KT_V(INFINITY), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  y = red_ok("Max", kt_tensor(TF_INT32, KT_DIMS(0), NULL), ax(1, KT_V(0)), 0);
  kt_check(y, TF_INT32, KT_SCALAR, KT_V(INT32_MIN), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  y = red_ok("Min", kt_tensor(TF_UINT8, KT_DIMS(0), NULL), ax(1, KT_V(0)), 0);
  kt_check(y, TF_UINT8, KT_SCALAR, KT_V(255), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  y = red_ok("Mean", kt_tensor(TF_FLOAT, KT_DIMS(0), NULL), ax(1, KT_V(0)), 0);
  CHECK(isnan(kt_get(y, 0)));
  TF_DeleteTensor(y);
  y = red_ok("Mean", kt_tensor(TF_INT64, KT_DIMS(0), NULL), ax(1, KT_V(0)), 0);
  kt_check(y, TF_INT64, KT_SCALAR, KT_V(0), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  /* scattered axes with an empty reduced dim: [2,0,3,4] over [1,3] */
  y = red_ok("Sum", kt_tensor(TF_FLOAT, KT_DIMS(2, 0, 3, 4), NULL),
             ax(2, KT_V(1, 3)), 0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(2, 3), KT_V(0, 0, 0, 0, 0, 0));
  TF_DeleteTensor(y);
  y = red_ok("Prod", kt_tensor(TF_INT64, KT_DIMS(2, 0, 3, 4), NULL),
             ax(2, KT_V(1, 3)), 1);
  KT_CHECK(y, TF_INT64, KT_DIMS(2, 1, 3, 1), KT_V(1, 1, 1, 1, 1, 1));
  TF_DeleteTensor(y);
  /* output itself empty */
  y = red_ok("Sum", kt_tensor(TF_FLOAT, KT_DIMS(0, 3), NULL), ax(1, KT_V(1)),
             0);
  KT_CHECK(y, TF_FLOAT, KT_DIMS(0), NULL);
  TF_DeleteTensor(y);
  y = red_ok("All", kt_tensor(TF_BOOL, KT_DIMS(0), NULL), ax(1, KT_V(0)), 0);
  kt_check(y, TF_BOOL, KT_SCALAR, KT_V(1), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  y = red_ok("Any", kt_tensor(TF_BOOL, KT_DIMS(0), NULL), ax(1, KT_V(0)), 0);
  kt_check(y, TF_BOOL, KT_SCALAR, KT_V(0), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
}

TEST(integer_dtypes) {
  static const TF_DataType dts[] = {TF_INT8,  TF_INT16,  TF_INT32, TF_INT64,
                                    TF_UINT8, TF_UINT16, TF_UINT32,
                                    TF_UINT64};
  size_t i;
  begin();
  for (i = 0; i < sizeof dts / sizeof dts[0]; i++) {
    TF_Tensor* y = red_ok("Sum", m23(dts[i]), ax(1, KT_V(1)), 0);
    KT_CHECK(y, dts[i], KT_DIMS(2), KT_V(6, 15));
    TF_DeleteTensor(y);
    y = red_ok("Mean", m23(dts[i]), ax(1, KT_V(0)), 0);
    KT_CHECK(y, dts[i], KT_DIMS(3), KT_V(2, 3, 4)); /* 2.5 -> 2 etc. */
    TF_DeleteTensor(y);
    y = red_ok("Prod", m23(dts[i]), ax(2, KT_V(0, 1)), 0);
    /* 720 wraps in 8 bits: 208 unsigned, -48 signed */
    kt_check(y, dts[i], KT_SCALAR,
             KT_V(dts[i] == TF_INT8 ? -48 : dts[i] == TF_UINT8 ? 208 : 720), 0,
             __FILE__, __LINE__);
    TF_DeleteTensor(y);
    y = red_ok("Max", m23(dts[i]), ax(1, KT_V(0)), 0);
    KT_CHECK(y, dts[i], KT_DIMS(3), KT_V(4, 5, 6));
    TF_DeleteTensor(y);
    y = red_ok("Min", m23(dts[i]), ax(1, KT_V(1)), 1);
    KT_CHECK(y, dts[i], KT_DIMS(2, 1), KT_V(1, 4));
    TF_DeleteTensor(y);
  }
}

TEST(integer_wraparound_and_signed_mean) {
  TF_Tensor* y;
  begin();
  /* int8: 100 + 100 wraps to -56 */
  y = red_ok("Sum", kt_tensor(TF_INT8, KT_DIMS(2), KT_V(100, 100)),
             ax(1, KT_V(0)), 0);
  kt_check(y, TF_INT8, KT_SCALAR, KT_V(-56), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  /* int8 Mean accumulates wider: (100+100)/2 = 100 */
  y = red_ok("Mean", kt_tensor(TF_INT8, KT_DIMS(2), KT_V(100, 100)),
             ax(1, KT_V(0)), 0);
  kt_check(y, TF_INT8, KT_SCALAR, KT_V(100), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  /* signed mean truncates toward zero */
  y = red_ok("Mean", kt_tensor(TF_INT32, KT_DIMS(2), KT_V(-3, -2)),
             ax(1, KT_V(0)), 0);
  kt_check(y, TF_INT32, KT_SCALAR, KT_V(-2), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  y = red_ok("Max", kt_tensor(TF_INT64, KT_DIMS(3), KT_V(-5, -9, -6)),
             ax(1, KT_V(0)), 0);
  kt_check(y, TF_INT64, KT_SCALAR, KT_V(-5), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  y = red_ok("Prod", kt_tensor(TF_UINT8, KT_DIMS(2), KT_V(16, 17)),
             ax(1, KT_V(0)), 0);
  kt_check(y, TF_UINT8, KT_SCALAR, KT_V(16), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
}

TEST(half_bfloat16_complex) {
  TF_Tensor* y;
  begin();
  y = red_ok("Sum", m23(TF_HALF), ax(1, KT_V(1)), 0);
  KT_CHECK(y, TF_HALF, KT_DIMS(2), KT_V(6, 15));
  TF_DeleteTensor(y);
  y = red_ok("Mean", m23(TF_BFLOAT16), ax(1, KT_V(0)), 0);
  KT_CHECK(y, TF_BFLOAT16, KT_DIMS(3), KT_V(2.5, 3.5, 4.5));
  TF_DeleteTensor(y);
  y = red_ok("Max", m23(TF_BFLOAT16), ax(2, KT_V(0, 1)), 0);
  kt_check(y, TF_BFLOAT16, KT_SCALAR, KT_V(6), 0, __FILE__, __LINE__);
  TF_DeleteTensor(y);
  {
    /* complex64 [(1+2i), (3-1i)]: sum 4+1i, prod 5+5i, mean 2+0.5i */
    int64_t d = 2;
    TF_Tensor* c = TF_AllocateTensor(TF_COMPLEX64, &d, 1, 16);
    float* p = (float*)TF_TensorData(c);
    float* r;
    p[0] = 1;
    p[1] = 2;
    p[2] = 3;
    p[3] = -1;
    y = red_ok("Prod", c, ax(1, KT_V(0)), 0);
    r = (float*)TF_TensorData(y);
    CHECK(r[0] == 5 && r[1] == 5);
    TF_DeleteTensor(y);
    c = TF_AllocateTensor(TF_COMPLEX128, &d, 1, 32);
    {
      double* q = (double*)TF_TensorData(c);
      double* rr;
      q[0] = 1;
      q[1] = 2;
      q[2] = 3;
      q[3] = -1;
      y = red_ok("Mean", c, ax(1, KT_V(0)), 0);
      rr = (double*)TF_TensorData(y);
      CHECK(rr[0] == 2 && rr[1] == 0.5);
      TF_DeleteTensor(y);
    }
  }
}

TEST(all_any) {
  TF_Tensor* y;
  begin();
  y = red_ok("All", kt_tensor(TF_BOOL, KT_DIMS(2, 2), KT_V(1, 0, 1, 1)),
             ax(1, KT_V(1)), 0);
  KT_CHECK(y, TF_BOOL, KT_DIMS(2), KT_V(0, 1));
  TF_DeleteTensor(y);
  y = red_ok("Any", kt_tensor(TF_BOOL, KT_DIMS(2, 2), KT_V(0, 0, 1, 0)),
             ax(1, KT_V(0)), 1);
  KT_CHECK(y, TF_BOOL, KT_DIMS(1, 2), KT_V(1, 0));
  TF_DeleteTensor(y);
}

/* Large float sums stay accurate: 4M copies of 0.1f. */
TEST(large_float_sum_accuracy) {
  const int64_t n = 4 * 1024 * 1024 + 7;
  TF_Tensor* x = TF_AllocateTensor(TF_FLOAT, &n, 1, (size_t)n * 4);
  float* p = (float*)TF_TensorData(x);
  TF_Tensor* y;
  double want;
  int64_t i;
  begin();
  for (i = 0; i < n; i++) p[i] = 0.1f;
  want = (double)0.1f * (double)n;
  y = red_ok("Sum", x, ax(1, KT_V(0)), 0);
  CHECK(fabs(kt_get(y, 0) - want) / want < 1e-6);
  TF_DeleteTensor(y);
  /* column sums over many rows: [n/4, 4] reduced over axis 0 */
  x = TF_AllocateTensor(TF_FLOAT, KT_DIMS(1024 * 1024, 4), (size_t)n * 4);
  p = (float*)TF_TensorData(x);
  for (i = 0; i < 4 * 1024 * 1024; i++) p[i] = 0.1f;
  y = red_ok("Sum", x, ax(1, KT_V(0)), 0);
  want = (double)0.1f * 1024 * 1024;
  for (i = 0; i < 4; i++) CHECK(fabs(kt_get(y, i) - want) / want < 1e-6);
  TF_DeleteTensor(y);
}

TEST(reduction_errors) {
  begin();
  CHECK(reduce("Sum", m23(TF_FLOAT), kt_scalar(TF_INT32, 3), 0) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Invalid reduction dimension (3 for input with 2 "
                     "dimension(s)");
  CHECK(reduce("Max", m23(TF_FLOAT), ax(1, KT_V(-3)), 0) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Invalid reduction dimension (-3");
  CHECK(reduce("Mean", m23(TF_FLOAT), ax(2, KT_V(1, -1)), 0) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Invalid reduction arguments: Axes contains duplicate "
                     "dimension: 1");
  CHECK(reduce("Sum", kt_scalar(TF_FLOAT, 1), ax(1, KT_V(0)), 0) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  /* Max has no complex kernel */
  CHECK(reduce("Max", kt_tensor(TF_COMPLEX64, KT_DIMS(1), NULL),
               ax(1, KT_V(0)), 0) == NULL);
  CHECK(TF_GetCode(S) != TF_OK);
}

/* Random shapes (rank 0-5, dims 0-4), random axis subsets and keep_dims,
 * Sum/Max over int32 and double, against a direct reference. */
TEST(random_reductions_match_reference) {
  unsigned seed = 12345;
  int iter;
  begin();
  for (iter = 0; iter < 300; iter++) {
    int nd, i, na = 0, keep, is_max, use_double;
    int64_t dims[5], total = 1, n, o;
    double vals[1024], axes[5], want[1024];
    int red[5];
    int64_t od[5], ond = 0, ototal = 1;
    TF_Tensor* y;
    seed = seed * 1103515245u + 12345u;
    nd = (int)((seed >> 16) % 6);
    for (i = 0; i < nd; i++) {
      seed = seed * 1103515245u + 12345u;
      dims[i] = (int64_t)((seed >> 16) % 5);
      total *= dims[i];
      seed = seed * 1103515245u + 12345u;
      red[i] = (int)((seed >> 16) & 1);
      if (red[i]) axes[na++] = (seed >> 20) & 1 ? i : i - nd;
    }
    seed = seed * 1103515245u + 12345u;
    keep = (int)((seed >> 16) & 1);
    is_max = (int)((seed >> 17) & 1);
    use_double = (int)((seed >> 18) & 1);
    for (n = 0; n < total; n++) {
      seed = seed * 1103515245u + 12345u;
      vals[n] = (double)((int)((seed >> 16) % 41) - 20);
    }
    for (i = 0; i < nd; i++) {
      if (!red[i]) {
        od[ond++] = dims[i];
        ototal *= dims[i];
      } else if (keep) {
        od[ond++] = 1;
      }
    }
    for (o = 0; o < ototal; o++) want[o] = is_max ? -INFINITY : 0;
    if (is_max && !use_double) {
      for (o = 0; o < ototal; o++) want[o] = INT32_MIN;
    }
    for (n = 0; n < total; n++) {
      int64_t rem = n, oi = 0, mul = 1;
      for (i = nd - 1; i >= 0; i--) {
        int64_t idx = rem % dims[i];
        rem /= dims[i];
        if (!red[i]) {
          oi += idx * mul;
          mul *= dims[i];
        }
      }
      if (is_max) {
        want[oi] = vals[n] > want[oi] ? vals[n] : want[oi];
      } else {
        want[oi] += vals[n];
      }
    }
    y = red_ok(is_max ? "Max" : "Sum",
               kt_tensor(use_double ? TF_DOUBLE : TF_INT32, dims, nd, vals),
               ax(na, axes), keep);
    kt_check(y, use_double ? TF_DOUBLE : TF_INT32, od, (int)ond, want, 0,
             __FILE__, __LINE__);
    TF_DeleteTensor(y);
  }
}

TFE_TEST_MAIN
