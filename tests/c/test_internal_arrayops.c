/* White-box tests of the arrayops kernels (csrc/kernels/cpu/arrayops_*.c):
 * the row-folding helpers, segment reductions, Roll/ListDiff on strings,
 * CheckNumerics on 16-bit floats, LowerBound/UpperBound on 64-bit
 * integers, Bincount, PopulationCount, Diag on complex values, and
 * allocation failures. Values were checked against TF 2.21; the Python
 * test (tests/python/test_ops_arrayops.py) compares many more cases. */
#include <math.h>
#include <string.h>

#include "kernel_test_ops.h"
#include "kernel_test_util.h"
#include "kernels/cpu/arrayops_common.h"
#include "tfe/tfe.h"

#include "kernel_test_harness.h"

static TF_Tensor* str_vec(int n, const char* const* s) {
  int64_t d = n;
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, &d, 1,
                                   (size_t)n * sizeof(TF_TString));
  TF_TString* p = (TF_TString*)TF_TensorData(t);
  int i;
  for (i = 0; i < n; i++) {
    TF_TString_Init(&p[i]);
    TF_TString_Copy(&p[i], s[i], strlen(s[i]));
  }
  return t;
}

static void check_strs(const TF_Tensor* t, int n, const char* const* want) {
  const TF_TString* p = (const TF_TString*)TF_TensorData(t);
  int i;
  CHECK_EQ_INT(TF_TensorType(t), TF_STRING);
  CHECK_EQ_INT((int)TF_TensorElementCount(t), n);
  for (i = 0; i < n; i++) {
    size_t len = TF_TString_GetSize(&p[i]);
    CHECK_EQ_INT((int)len, (int)strlen(want[i]));
    CHECK(memcmp(TF_TString_GetDataPointer(&p[i]), want[i], len) == 0);
  }
}

TEST(fold_helpers) {
  int32_t a[3] = {INT32_MAX, -5, 7}, b[3] = {1, 3, -9};
  uint16_t h[2], hs[2];
  float f[2] = {1.0f, NAN}, fs[2] = {NAN, 2.0f};
  int8_t m[2] = {-128, 100};
  CHECK(tfe_ao_combine(TF_INT32, TFE_AO_SUM, a, b, 3));
  CHECK_EQ_INT(a[0], INT32_MIN); /* wraps */
  CHECK_EQ_INT(a[1], -2);
  CHECK(tfe_ao_combine(TF_INT32, TFE_AO_MIN, a, b, 3));
  CHECK_EQ_INT(a[2], -9);
  /* MAX: a NaN newcomer wins, a NaN accumulator loses to the next value */
  CHECK(tfe_ao_combine(TF_FLOAT, TFE_AO_MAX, f, fs, 2));
  CHECK(isnan(f[0]));
  CHECK(f[1] == 2.0f);
  /* identities: lowest finite half is -65504, highest bfloat16 0x7f7f */
  CHECK(tfe_ao_fill_identity(TF_HALF, TFE_AO_MAX, h, 2));
  CHECK(kutil_f16_to_f32(h[0]) == -65504.0f);
  CHECK(tfe_ao_fill_identity(TF_BFLOAT16, TFE_AO_MIN, hs, 2));
  CHECK(hs[1] == 0x7f7fu);
  CHECK(tfe_ao_fill_identity(TF_INT8, TFE_AO_MAX, m, 2));
  CHECK_EQ_INT(m[1], -128);
  /* means of integers truncate; counts past the dtype's range still work */
  m[0] = -7;
  m[1] = 100;
  CHECK(tfe_ao_divide(TF_INT8, m, 2, 2));
  CHECK_EQ_INT(m[0], -3);
  CHECK(tfe_ao_divide(TF_INT8, m, 2, 1000));
  CHECK_EQ_INT(m[1], 0);
  /* no complex ordering; unknown dtypes refused */
  CHECK(!tfe_ao_combine(TF_COMPLEX64, TFE_AO_MAX, f, fs, 1));
  CHECK(!tfe_ao_combine(TF_STRING, TFE_AO_SUM, f, fs, 1));
  CHECK(!tfe_ao_fill_identity(TF_BOOL, TFE_AO_PROD, m, 1));
}

TEST(segment_sorted) {
  int n;
  begin();
  n = run("SegmentSum", 2,
          kt_tensor(TF_HALF, KT_DIMS(4, 2), KT_V(1, 2, 3, 4, 5, 6, 7, 8)),
          kt_vec(TF_INT64, 4, KT_V(0, 0, 2, 2)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_HALF, KT_DIMS(3, 2), KT_V(4, 6, 0, 0, 12, 14));
  drop(1);
  n = run("SegmentProd", 2, kt_vec(TF_FLOAT, 3, KT_V(2, 3, 4)),
          kt_vec(TF_INT32, 3, KT_V(1, 1, 3)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(4), KT_V(1, 6, 1, 4));
  drop(1);
  n = run("SegmentMean", 2, kt_vec(TF_COMPLEX128, 3, KT_V(1, 2, 6)),
          kt_vec(TF_INT32, 3, KT_V(0, 0, 0)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_COMPLEX128, KT_DIMS(1), KT_V(3));
  drop(1);
  n = run("SegmentMin", 2, kt_vec(TF_UINT64, 2, KT_V(5, 9)),
          kt_vec(TF_INT32, 2, KT_V(0, 1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_UINT64, KT_DIMS(2), KT_V(5, 9));
  drop(1);
  n = run("SegmentSum", 2, kt_vec(TF_FLOAT, 3, KT_V(1, 2, 3)),
          kt_vec(TF_INT32, 3, KT_V(0, 2, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "segment ids are not increasing");
  n = run("SegmentSum", 2, kt_vec(TF_FLOAT, 2, KT_V(1, 2)),
          kt_vec(TF_INT32, 2, KT_V(-3, -1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "segment ids must be >= 0");
}

TEST(segment_unsorted) {
  int n;
  begin();
  n = run("UnsortedSegmentMax", 3,
          kt_tensor(TF_BFLOAT16, KT_DIMS(2, 2), KT_V(1, -2, 3, -4)),
          kt_tensor(TF_INT64, KT_DIMS(2), KT_V(1, 1)),
          kt_scalar(TF_INT64, 3));
  EXPECT_OK(n, 1);
  {
    const uint16_t* p = (const uint16_t*)TF_TensorData(OUT[0]);
    CHECK(p[0] == 0xff7fu && p[1] == 0xff7fu); /* lowest bfloat16 */
    CHECK(kutil_bf16_to_f32(p[2]) == 3.0f);
    CHECK(kutil_bf16_to_f32(p[3]) == -2.0f);
  }
  drop(1);
  n = run("UnsortedSegmentSum", 3,
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)),
          kt_tensor(TF_INT16, KT_DIMS(2, 2), KT_V(0, -1, 0, 1)),
          kt_scalar(TF_INT32, 2));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(2), KT_V(4, 4));
  drop(1);
  n = run("UnsortedSegmentProd", 3,
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(1, 2, 3, 4)),
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(0, -1, 0, 2)),
          kt_scalar(TF_INT32, 2));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "segment_ids[1,1] = 2 is out of range [0, 2)");
}

TEST(roll_and_list_diff_strings) {
  static const char* const xs[] = {"a", "a long string past the inline size",
                                   "", "c"};
  static const char* const ys[] = {"c", "zz"};
  static const char* const rolled[] = {"c", "a",
                                       "a long string past the inline size",
                                       ""};
  static const char* const kept[] = {"a", "a long string past the inline size",
                                     ""};
  int n;
  begin();
  n = run("Roll", 3, str_vec(4, xs), kt_scalar(TF_INT32, 5),
          kt_scalar(TF_INT64, 0));
  EXPECT_OK(n, 1);
  check_strs(OUT[0], 4, rolled);
  drop(1);
  kt_attr_type(&A, "out_idx", TF_INT64);
  n = run("ListDiff", 2, str_vec(4, xs), str_vec(2, ys));
  EXPECT_OK(n, 2);
  check_strs(OUT[0], 3, kept);
  KT_CHECK(OUT[1], TF_INT64, KT_DIMS(3), KT_V(0, 1, 2));
  drop(2);
}

TEST(check_numerics_16bit) {
  int n;
  begin();
  kt_attr_string(&A, "message", "in x");
  n = run("CheckNumerics", 1, kt_vec(TF_BFLOAT16, 2, KT_V(1, INFINITY)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "in x : Tensor had Inf values");
  kt_attr_string(&A, "message", "m");
  n = run("CheckNumericsV2", 1, kt_vec(TF_HALF, 3, KT_V(NAN, -INFINITY, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "m : Tensor had -Inf and NaN values");
  kt_attr_string(&A, "message", "m");
  n = run("CheckNumerics", 1, kt_vec(TF_HALF, 2, KT_V(65504, -1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_HALF, KT_DIMS(2), KT_V(65504, -1));
  drop(1);
}

TEST(bounds_int64) {
  int64_t d[2] = {1, 4};
  TF_Tensor* s = TF_AllocateTensor(TF_INT64, d, 2, 4 * sizeof(int64_t));
  TF_Tensor* v = TF_AllocateTensor(TF_INT64, d, 2, 4 * sizeof(int64_t));
  int64_t* sp = (int64_t*)TF_TensorData(s);
  int64_t* vp = (int64_t*)TF_TensorData(v);
  int n;
  /* values that doubles cannot tell apart */
  sp[0] = INT64_MIN;
  sp[1] = (INT64_C(1) << 60);
  sp[2] = (INT64_C(1) << 60) + 1;
  sp[3] = INT64_MAX;
  vp[0] = (INT64_C(1) << 60) + 1;
  vp[1] = INT64_MAX;
  vp[2] = INT64_MIN;
  vp[3] = (INT64_C(1) << 60);
  begin();
  kt_attr_type(&A, "out_type", TF_INT64);
  n = run("UpperBound", 2, s, v);
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(1, 4), KT_V(3, 4, 1, 2));
  drop(1);
}

TEST(bincount_popcount_diag) {
  int n;
  begin();
  n = run("Bincount", 3, kt_vec(TF_INT32, 4, KT_V(0, 3, 3, 7)),
          kt_scalar(TF_INT32, 4), kt_vec(TF_INT64, 0, NULL));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(4), KT_V(1, 0, 0, 2));
  drop(1);
  n = run("PopulationCount", 1, kt_vec(TF_INT16, 3, KT_V(-1, 0, 257)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_UINT8, KT_DIMS(3), KT_V(16, 0, 2));
  drop(1);
  n = run("Diag", 1, kt_vec(TF_COMPLEX64, 2, KT_V(3, 4)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_COMPLEX64, KT_DIMS(2, 2), KT_V(3, 0, 0, 4));
  drop(1);
  n = run("Diag", 1, kt_scalar(TF_FLOAT, 1));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Input must be at least rank 1, got 0");
}

TEST(allocation_failures) {
  static const char* const xs[] = {"a", "b"};
  int n, i, failed = 0;
  begin();
  kt_setup(); /* registries filled before failures are injected */
  /* ListDiff allocates scratch and two outputs: every failure point must
   * report RESOURCE_EXHAUSTED and leak nothing (ASan checks the latter). */
  for (i = 0; i < 8; i++) {
    TF_Tensor* x = str_vec(2, xs);
    TF_Tensor* y = kt_vec(TF_STRING, 0, NULL);
    TFE_TestFailAllocationsAfter(i);
    n = run("ListDiff", 2, x, y);
    TFE_TestFailAllocationsAfter(-1);
    if (n < 0) {
      CHECK_CODE(S, TF_RESOURCE_EXHAUSTED);
      failed++;
    } else {
      drop(n);
    }
  }
  CHECK(failed > 0);
}

TEST(depth_space_reverse_strings) {
  static const char* const deep[] = {"a", "a string longer than the inline buffer",
                                     "c", "d"};
  static const char* const wide_want[] = {
      "a", "a string longer than the inline buffer", "c", "d"};
  static const char* const seq[] = {"p", "q", "r", "s", "t", "u"};
  static const char* const seq_want[] = {"q", "p", "r", "u", "t", "s"};
  int64_t d4[4] = {1, 1, 1, 4};
  int64_t d2[2] = {2, 3};
  TF_Tensor* x;
  int n;
  begin();
  x = str_vec(4, deep);
  tfe_tensor_set_dims(x, d4, 4);
  kt_attr_int(&A, "block_size", 2);
  n = run("DepthToSpace", 1, x);
  EXPECT_OK(n, 1);
  CHECK_EQ_INT(TF_NumDims(OUT[0]), 4);
  CHECK_EQ_INT((int)TF_Dim(OUT[0], 1), 2);
  check_strs(OUT[0], 4, wide_want); /* [1,2,2,1] keeps row-major order */
  drop(1);
  x = str_vec(6, seq);
  tfe_tensor_set_dims(x, d2, 2);
  kt_attr_int(&A, "seq_dim", 1);
  n = run("ReverseSequence", 2, x, kt_vec(TF_INT64, 2, KT_V(2, 3)));
  EXPECT_OK(n, 1);
  check_strs(OUT[0], 6, seq_want);
  drop(1);
  /* only NHWC has a CPU kernel */
  kt_attr_int(&A, "block_size", 2);
  kt_attr_string(&A, "data_format", "NCHW");
  n = run("SpaceToDepth", 1, kt_tensor(TF_FLOAT, KT_DIMS(1, 4, 2, 2), NULL));
  EXPECT_ERR(n, TF_NOT_FOUND,
             "SpaceToDepth[T=DT_FLOAT, block_size=2, data_format=\"NCHW\"]");
}

TEST(diagonal_bands) {
  int n;
  begin();
  /* k = [-1, 1] of a 3x3 matrix, default RIGHT_LEFT: the superdiagonal is
   * padded on the left, the subdiagonal on the right */
  n = run("MatrixDiagPartV3", 3,
          kt_tensor(TF_INT8, KT_DIMS(3, 3), KT_V(1, 2, 3, 4, 5, 6, 7, 8, 9)),
          kt_vec(TF_INT32, 2, KT_V(-1, 1)), kt_scalar(TF_INT8, -1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT8, KT_DIMS(3, 3), KT_V(-1, 2, 6, 1, 5, 9, 4, 8, -1));
  drop(1);
  n = run("MatrixSetDiagV3", 3,
          kt_tensor(TF_BOOL, KT_DIMS(2, 3), KT_V(0, 0, 0, 0, 0, 0)),
          kt_tensor(TF_BOOL, KT_DIMS(2, 2), KT_V(1, 1, 0, 1)),
          kt_vec(TF_INT32, 2, KT_V(0, 1)));
  EXPECT_OK(n, 1);
  /* superdiagonal (1,1) at (0,1),(1,2); main diagonal (0,1) at (0,0),(1,1) */
  KT_CHECK(OUT[0], TF_BOOL, KT_DIMS(2, 3), KT_V(0, 1, 0, 0, 1, 1));
  drop(1);
  n = run("MatrixSetDiag", 2, kt_tensor(TF_FLOAT, KT_DIMS(2, 2), NULL),
          kt_vec(TF_FLOAT, 3, KT_V(1, 2, 3)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Expected diagonal shape: [2]");
}

TEST(tensor_scatter_fold) {
  int n;
  begin();
  n = run("TensorScatterSub", 3, kt_vec(TF_HALF, 3, KT_V(1, 2, 3)),
          kt_tensor(TF_INT64, KT_DIMS(3, 1), KT_V(2, 0, 2)),
          kt_vec(TF_HALF, 3, KT_V(0.5, 1, 0.25)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_HALF, KT_DIMS(3), KT_V(0, 2, 2.25));
  drop(1);
  n = run("TensorScatterMin", 3, kt_vec(TF_UINT32, 2, KT_V(7, 7)),
          kt_tensor(TF_INT32, KT_DIMS(2, 1), KT_V(1, 1)),
          kt_vec(TF_UINT32, 2, KT_V(9, 4)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_UINT32, KT_DIMS(2), KT_V(7, 4));
  drop(1);
  n = run("TensorScatterAdd", 3, kt_tensor(TF_FLOAT, KT_DIMS(2, 2), NULL),
          kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(1, 2)),
          kt_vec(TF_FLOAT, 1, KT_V(1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "indices[0] = [1, 2] does not index into shape [2,2]");
  {
    float acc[2] = {NAN, 1.0f}, src[2] = {1.0f, NAN};
    CHECK(tfe_ao_combine(TF_FLOAT, TFE_AO_MAX_KEEP, acc, src, 2));
    CHECK(isnan(acc[0]) && acc[1] == 1.0f); /* NaN neither enters nor leaves */
  }
}

TEST(unique_counts_bitcast_empty) {
  static const char* const xs[] = {"b", "a", "b", "a long string past the inline size", "a"};
  static const char* const ys[] = {"b", "a", "a long string past the inline size"};
  int n, i, failed = 0;
  begin();
  n = run("UniqueWithCounts", 1, str_vec(5, xs));
  EXPECT_OK(n, 3);
  check_strs(OUT[0], 3, ys);
  KT_CHECK(OUT[1], TF_INT32, KT_DIMS(5), KT_V(0, 1, 0, 2, 1));
  KT_CHECK(OUT[2], TF_INT32, KT_DIMS(3), KT_V(2, 2, 1));
  drop(3);
  /* Bitcast shares the input's bytes */
  {
    TF_Tensor* x = kt_vec(TF_FLOAT, 2, KT_V(1, -2));
    const void* before = TF_TensorData(x);
    kt_attr_type(&A, "type", TF_UINT16);
    n = run("Bitcast", 1, x);
    EXPECT_OK(n, 1);
    CHECK(TF_TensorData(OUT[0]) == before);
    CHECK_EQ_INT(TF_NumDims(OUT[0]), 2);
    CHECK_EQ_INT((int)TF_Dim(OUT[0], 1), 2);
    drop(1);
  }
  kt_attr_type(&A, "dtype", TF_STRING);
  kt_attr_bool(&A, "init", 1);
  n = run("Empty", 1, kt_vec(TF_INT32, 2, KT_V(2, 0)));
  EXPECT_OK(n, 1);
  CHECK_EQ_INT(TF_TensorType(OUT[0]), TF_STRING);
  CHECK_EQ_INT((int)TF_TensorElementCount(OUT[0]), 0);
  drop(1);
  kt_setup();
  for (i = 0; i < 10; i++) {
    TF_Tensor* x = str_vec(5, xs);
    TFE_TestFailAllocationsAfter(i);
    n = run("UniqueWithCounts", 1, x);
    TFE_TestFailAllocationsAfter(-1);
    if (n < 0) {
      CHECK_CODE(S, TF_RESOURCE_EXHAUSTED);
      failed++;
    } else {
      drop(n);
    }
  }
  CHECK(failed > 0);
}

TEST(cross_and_conjugate_transpose) {
  int n;
  begin();
  n = run("Cross", 2, kt_vec(TF_BFLOAT16, 3, KT_V(1, 2, 3)),
          kt_vec(TF_BFLOAT16, 3, KT_V(4, 5, 6)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_BFLOAT16, KT_DIMS(3), KT_V(-3, 6, -3));
  drop(1);
  n = run("Cross", 2, kt_vec(TF_INT32, 2, KT_V(1, 2)),
          kt_vec(TF_INT32, 2, KT_V(4, 5)));
  EXPECT_ERR(n, TF_FAILED_PRECONDITION, "only defined for 3-element vectors");
  {
    TF_Tensor* x = kt_tensor(TF_COMPLEX64, KT_DIMS(1, 2), NULL);
    float* p = (float*)TF_TensorData(x);
    p[0] = 1;
    p[1] = 2;
    p[2] = 3;
    p[3] = -4;
    n = run("ConjugateTranspose", 2, x, kt_vec(TF_INT32, 2, KT_V(1, 0)));
    EXPECT_OK(n, 1);
    p = (float*)TF_TensorData(OUT[0]);
    CHECK_EQ_INT((int)TF_Dim(OUT[0], 0), 2);
    CHECK(p[0] == 1 && p[1] == -2 && p[2] == 3 && p[3] == 4);
    drop(1);
  }
}

TEST(space_batch_round_trip) {
  double v[2 * 4 * 6];
  int64_t d[4] = {2, 4, 6, 1};
  int i, n;
  TF_Tensor* mid;
  for (i = 0; i < 48; i++) v[i] = i - 20;
  begin();
  /* pad, move into the batch, then crop the padding away again */
  n = run("SpaceToBatchND", 3, kt_tensor(TF_INT16, d, 4, v),
          kt_vec(TF_INT32, 2, KT_V(2, 4)),
          kt_tensor(TF_INT64, KT_DIMS(2, 2), KT_V(1, 1, 0, 2)));
  EXPECT_OK(n, 1);
  kt_check_shape(OUT[0], KT_DIMS(16, 3, 2, 1), __FILE__, __LINE__);
  mid = OUT[0];
  OUT[0] = NULL;
  n = run("BatchToSpaceND", 3, mid, kt_vec(TF_INT64, 2, KT_V(2, 4)),
          kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(1, 1, 0, 2)));
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_INT16, d, 4, v, 0.0, __FILE__, __LINE__);
  drop(1);
}

TEST(copies_and_pass_through) {
  static const char* const xs[] = {"x", "a string longer than the inline buffer"};
  TF_Tensor* x;
  const void* before;
  int n;
  begin();
  x = str_vec(2, xs);
  before = TF_TensorData(x);
  n = run("DeepCopy", 1, x);
  EXPECT_OK(n, 1);
  CHECK(TF_TensorData(OUT[0]) != before); /* its own buffer */
  check_strs(OUT[0], 2, xs);
  drop(1);
  x = kt_vec(TF_FLOAT, 2, KT_V(1, 2));
  before = TF_TensorData(x);
  n = run("GuaranteeConst", 1, x);
  EXPECT_OK(n, 1);
  CHECK(TF_TensorData(OUT[0]) == before); /* passed through */
  drop(1);
  n = run("UnravelIndex", 2, kt_scalar(TF_INT64, 1621),
          kt_vec(TF_INT64, 4, KT_V(6, 7, 8, 9)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(4), KT_V(3, 1, 4, 1));
  drop(1);
}

TFE_TEST_MAIN
