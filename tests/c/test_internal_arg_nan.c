/* ArgMax/ArgMin with NaN, infinities, signed zeros and ties for every
 * floating dtype, against indices recorded from TensorFlow 2.21's CPU
 * kernel: NaNs never win; a row with nothing better than the dtype's
 * lowest (ArgMax) / highest (ArgMin) finite value gives 0. */
#include <float.h>
#include <math.h>

#include "kernel_test_util.h"

static TF_Status* S;
static tfe_attrs A;

static int64_t arg1(const char* op, TF_DataType dt, const double* v, int n,
                    int64_t axis, TF_Tensor** full, const int64_t* dims,
                    int nd) {
  TF_Tensor* in[2];
  TF_Tensor* out[KT_MAX_IO] = {NULL};
  int64_t n64 = n, r;
  if (S == NULL) S = TF_NewStatus();
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
  in[0] = dims != NULL ? kt_tensor(dt, dims, nd, v) : kt_tensor(dt, &n64, 1, v);
  in[1] = kt_scalar(TF_INT32, (double)axis);
  CHECK_EQ_INT(kt_run(op, &A, in, 2, out, S), 1);
  if (full != NULL) {
    *full = out[0];
    return 0;
  }
  r = ((const int64_t*)TF_TensorData(out[0]))[0];
  TF_DeleteTensor(out[0]);
  return r;
}

typedef struct row {
  int n;
  double v[4];
} row;

static const row kRows[] = {
    {3, {NAN, 1.0, 2.0}},
    {3, {1.0, NAN, 2.0}},
    {3, {1.0, 2.0, NAN}},
    {3, {NAN, NAN, NAN}},
    {4, {3.0, NAN, 3.0, NAN}},
    {4, {1.0, 3.0, 3.0, 2.0}},
    {2, {-0.0, 0.0}},
    {2, {0.0, -0.0}},
    {4, {NAN, 5.0, NAN, 7.0}},
    {4, {2.0, 1.0, NAN, 1.0}},
    {2, {-INFINITY, NAN}},
    {3, {INFINITY, NAN, INFINITY}},
    {3, {NAN, -INFINITY, -INFINITY}},
    {3, {NAN, INFINITY, 1.0}},
    {3, {NAN, -65504.0, 3.0}},
    {3, {NAN, 65504.0, -3.0}},
    {3, {-INFINITY, -INFINITY, -1.0}},
};
/* TF 2.21, identical for float, double, half and bfloat16 */
static const int64_t kMax[] = {2, 2, 1, 0, 0, 1, 0, 0, 3, 0, 0, 0, 0, 1, 2, 1, 2};
static const int64_t kMin[] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 2, 1, 2, 0};

TEST(arg_max_min_nan_rows_match_tensorflow) {
  static const TF_DataType kTypes[4] = {TF_FLOAT, TF_DOUBLE, TF_HALF,
                                        TF_BFLOAT16};
  size_t r;
  int t;
  for (t = 0; t < 4; t++) {
    for (r = 0; r < sizeof kRows / sizeof kRows[0]; r++) {
      int64_t a = arg1("ArgMax", kTypes[t], kRows[r].v, kRows[r].n, 0, NULL,
                       NULL, 0);
      int64_t b = arg1("ArgMin", kTypes[t], kRows[r].v, kRows[r].n, 0, NULL,
                       NULL, 0);
      if (a != kMax[r] || b != kMin[r]) {
        TFE_FAIL("dtype %d row %d: ArgMax %lld (want %lld), ArgMin %lld "
                 "(want %lld)",
                 (int)kTypes[t], (int)r, (long long)a, (long long)kMax[r],
                 (long long)b, (long long)kMin[r]);
      }
    }
  }
}

TEST(arg_max_min_lowest_value_after_nan_gives_zero) {
  /* TF: [nan, lowest, lowest] -> ArgMax 0, and [nan, highest, highest] ->
   * ArgMin 0 (the start value is never beaten) */
  CHECK_EQ_INT((int)arg1("ArgMax", TF_FLOAT, KT_V(NAN, -FLT_MAX, -FLT_MAX), 3,
                         0, NULL, NULL, 0), 0);
  CHECK_EQ_INT((int)arg1("ArgMin", TF_FLOAT, KT_V(NAN, FLT_MAX, FLT_MAX), 3,
                         0, NULL, NULL, 0), 0);
  CHECK_EQ_INT((int)arg1("ArgMax", TF_DOUBLE, KT_V(NAN, -DBL_MAX, -DBL_MAX), 3,
                         0, NULL, NULL, 0), 0);
  CHECK_EQ_INT((int)arg1("ArgMax", TF_HALF, KT_V(NAN, -65504.0, -65504.0), 3,
                         0, NULL, NULL, 0), 0);
  CHECK_EQ_INT((int)arg1("ArgMin", TF_HALF, KT_V(NAN, 65504.0, 65504.0), 3,
                         0, NULL, NULL, 0), 0);
  /* one step above lowest wins */
  CHECK_EQ_INT((int)arg1("ArgMax", TF_HALF, KT_V(NAN, -65504.0, -65472.0), 3,
                         0, NULL, NULL, 0), 2);
}

TEST(arg_max_min_nan_along_each_axis) {
  /* TF: x = [[nan,1,nan],[2,nan,-1],[nan,nan,nan],[0,-0,nan]] */
  static const double x[12] = {NAN, 1, NAN, 2, NAN, -1, NAN, NAN, NAN, 0, -0.0, NAN};
  static const TF_DataType kTypes[2] = {TF_FLOAT, TF_HALF};
  int t;
  for (t = 0; t < 2; t++) {
    TF_Tensor* y;
    arg1("ArgMax", kTypes[t], x, 12, 0, &y, KT_DIMS(4, 3));
    KT_CHECK(y, TF_INT64, KT_DIMS(3), KT_V(1, 0, 1));
    TF_DeleteTensor(y);
    arg1("ArgMin", kTypes[t], x, 12, 0, &y, KT_DIMS(4, 3));
    KT_CHECK(y, TF_INT64, KT_DIMS(3), KT_V(3, 3, 1));
    TF_DeleteTensor(y);
    arg1("ArgMax", kTypes[t], x, 12, 1, &y, KT_DIMS(4, 3));
    KT_CHECK(y, TF_INT64, KT_DIMS(4), KT_V(1, 0, 0, 0));
    TF_DeleteTensor(y);
    arg1("ArgMin", kTypes[t], x, 12, 1, &y, KT_DIMS(4, 3));
    KT_CHECK(y, TF_INT64, KT_DIMS(4), KT_V(1, 2, 0, 0));
    TF_DeleteTensor(y);
  }
  tfe_attrs_destroy(&A);
  TF_DeleteStatus(S);
  S = NULL;
}

TFE_TEST_MAIN
