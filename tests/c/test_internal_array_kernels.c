/* Array kernels run through the kernel registry: Identity, IdentityN,
 * Reshape, Shape, ShapeN, Size, Rank, ExpandDims, Squeeze, EnsureShape,
 * Const, Fill, ZerosLike, OnesLike, Range, ConcatV2, Pack, Unpack, Split,
 * SplitV, Transpose, InvertPermutation. Values are checked against hand
 * computed results; every error is checked for its code and wording. */
#include "kernel_test_ops.h"
#include "kernel_test_util.h"

#include "kernel_test_harness.h"

static TF_Tensor* f32(const int64_t* dims, int nd, const double* v) {
  return kt_tensor(TF_FLOAT, dims, nd, v);
}
static TF_Tensor* i32v(int64_t n, const double* v) {
  return kt_vec(TF_INT32, n, v);
}

/* ----------------------------------------------------------- Identity */

TEST(identity_shares_buffer) {
  TF_Tensor* x;
  int n;
  begin();
  x = f32(KT_DIMS(2, 2), KT_V(1, 2, 3, 4));
  {
    void* data = TF_TensorData(x);
    n = run("Identity", 1, x);
    EXPECT_OK(n, 1);
    CHECK(TF_TensorData(OUT[0]) == data);
  }
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 3, 4));
  drop(1);
}

TEST(identity_string_and_bool) {
  TF_Tensor* s;
  int64_t d = 2;
  TF_TString* e;
  int n;
  begin();
  s = TF_AllocateTensor(TF_STRING, &d, 1, 2 * sizeof(TF_TString));
  e = (TF_TString*)TF_TensorData(s);
  TF_TString_Copy(&e[0], "hello", 5);
  TF_TString_Copy(&e[1], "", 0);
  n = run("Identity", 1, s);
  EXPECT_OK(n, 1);
  CHECK_EQ_INT(TF_TensorType(OUT[0]), TF_STRING);
  CHECK_EQ_SIZE(TF_TString_GetSize((TF_TString*)TF_TensorData(OUT[0])), 5);
  drop(1);
  n = run("Identity", 1, kt_tensor(TF_BOOL, KT_DIMS(3), KT_V(1, 0, 1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_BOOL, KT_DIMS(3), KT_V(1, 0, 1));
  drop(1);
}

TEST(identity_n_mixed_types) {
  TF_DataType ts[2] = {TF_FLOAT, TF_INT32};
  int n;
  begin();
  kt_attr_types(&A, "T", ts, 2);
  n = run("IdentityN", 2, f32(KT_DIMS(2), KT_V(1, 2)),
          i32v(3, KT_V(7, 8, 9)));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2), KT_V(1, 2));
  KT_CHECK(OUT[1], TF_INT32, KT_DIMS(3), KT_V(7, 8, 9));
  drop(2);
}

/* ------------------------------------------------------------ Reshape */

TEST(reshape_basic_and_infer) {
  int n;
  begin();
  n = run("Reshape", 2, f32(KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)),
          i32v(2, KT_V(3, 2)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3, 2), KT_V(1, 2, 3, 4, 5, 6));
  drop(1);
  n = run("Reshape", 2, f32(KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)),
          kt_vec(TF_INT64, 2, KT_V(-1, 2)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3, 2), KT_V(1, 2, 3, 4, 5, 6));
  drop(1);
  /* to a scalar and back */
  n = run("Reshape", 2, f32(KT_DIMS(1, 1), KT_V(5)), i32v(0, NULL));
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_FLOAT, KT_SCALAR, KT_V(5), 0, __FILE__, __LINE__);
  drop(1);
  n = run("Reshape", 2, kt_scalar(TF_INT64, 9), i32v(1, KT_V(-1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(1), KT_V(9));
  drop(1);
}

TEST(reshape_zero_sized) {
  int n;
  begin();
  /* [0, 3] -> [-1, 3]: the zero dim is skipped when inferring */
  n = run("Reshape", 2, f32(KT_DIMS(0, 3), NULL), i32v(2, KT_V(0, -1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(0, 3), NULL);
  drop(1);
  n = run("Reshape", 2, f32(KT_DIMS(0), NULL), i32v(2, KT_V(-1, 2)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(0, 2), NULL);
  drop(1);
}

TEST(reshape_errors) {
  int n;
  begin();
  n = run("Reshape", 2, f32(KT_DIMS(2, 3), NULL), i32v(2, KT_V(4, 4)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Input to reshape is a tensor with 6 values, but the requested "
             "shape has 16");
  n = run("Reshape", 2, f32(KT_DIMS(2, 3), NULL), i32v(2, KT_V(-1, -1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Only one input size may be -1, not both 0 and 1");
  n = run("Reshape", 2, f32(KT_DIMS(2, 3), NULL), i32v(2, KT_V(-1, 4)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Input to reshape is a tensor with 6 values, but the requested "
             "shape requires a multiple of 4");
  n = run("Reshape", 2, f32(KT_DIMS(2, 3), NULL), i32v(2, KT_V(3, -2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Size 1 must be non-negative, not -2");
  n = run("Reshape", 2, f32(KT_DIMS(2, 3), NULL),
          kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(3, 2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "sizes input must be 1-D, not [1,2]");
}

/* ------------------------------------------------- Shape, Size, Rank */

TEST(shape_size_rank) {
  int n;
  begin();
  n = run("Shape", 1, f32(KT_DIMS(2, 0, 3), NULL));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(3), KT_V(2, 0, 3));
  drop(1);
  kt_attr_type(&A, "out_type", TF_INT64);
  n = run("Shape", 1, kt_scalar(TF_DOUBLE, 1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(0), NULL);
  drop(1);
  n = run("Size", 1, f32(KT_DIMS(2, 3), NULL));
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_INT32, KT_SCALAR, KT_V(6), 0, __FILE__, __LINE__);
  drop(1);
  kt_attr_type(&A, "out_type", TF_INT64);
  n = run("Size", 1, kt_tensor(TF_BOOL, KT_DIMS(4, 0), NULL));
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_INT64, KT_SCALAR, KT_V(0), 0, __FILE__, __LINE__);
  drop(1);
  n = run("Rank", 1, f32(KT_DIMS(1, 2, 3, 4), NULL));
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_INT32, KT_SCALAR, KT_V(4), 0, __FILE__, __LINE__);
  drop(1);
  n = run("Rank", 1, kt_scalar(TF_INT8, 1));
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_INT32, KT_SCALAR, KT_V(0), 0, __FILE__, __LINE__);
  drop(1);
}

TEST(shape_n) {
  int n;
  begin();
  kt_attr_type(&A, "out_type", TF_INT64);
  n = run("ShapeN", 2, f32(KT_DIMS(2, 3), NULL), f32(KT_DIMS(5), NULL));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(2), KT_V(2, 3));
  KT_CHECK(OUT[1], TF_INT64, KT_DIMS(1), KT_V(5));
  drop(2);
}

/* ------------------------------------------------ ExpandDims, Squeeze */

TEST(expand_dims) {
  int n;
  begin();
  n = run("ExpandDims", 2, f32(KT_DIMS(2, 3), NULL), kt_scalar(TF_INT32, 1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 1, 3), NULL);
  drop(1);
  n = run("ExpandDims", 2, f32(KT_DIMS(2, 3), NULL), kt_scalar(TF_INT64, -1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 3, 1), NULL);
  drop(1);
  n = run("ExpandDims", 2, f32(KT_DIMS(2, 3), NULL), kt_scalar(TF_INT32, -3));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 2, 3), NULL);
  drop(1);
  n = run("ExpandDims", 2, kt_scalar(TF_FLOAT, 2), i32v(1, KT_V(0)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1), KT_V(2));
  drop(1);
  n = run("ExpandDims", 2, f32(KT_DIMS(2, 3), NULL), kt_scalar(TF_INT32, 5));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Tried to expand dim index 5 for tensor with 2 dimensions.");
  n = run("ExpandDims", 2, f32(KT_DIMS(2, 3), NULL), kt_scalar(TF_INT32, -4));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Tried to expand dim index -4");
  n = run("ExpandDims", 2, f32(KT_DIMS(2, 3), NULL), i32v(2, KT_V(0, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "'dim' must be a tensor with a single value");
}

TEST(squeeze) {
  int n;
  begin();
  n = run("Squeeze", 1, f32(KT_DIMS(1, 3, 1), KT_V(1, 2, 3)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3), KT_V(1, 2, 3));
  drop(1);
  kt_attr_ints(&A, "squeeze_dims", KT_DIMS(0));
  n = run("Squeeze", 1, f32(KT_DIMS(1, 3, 1), KT_V(1, 2, 3)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3, 1), KT_V(1, 2, 3));
  drop(1);
  kt_attr_ints(&A, "squeeze_dims", KT_DIMS(-1));
  n = run("Squeeze", 1, f32(KT_DIMS(1, 3, 1), NULL));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 3), NULL);
  drop(1);
  kt_attr_ints(&A, "squeeze_dims", KT_DIMS(0));
  n = run("Squeeze", 1, f32(KT_DIMS(2, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Can not squeeze dim[0], expected a dimension of 1, got 2");
  kt_attr_ints(&A, "squeeze_dims", KT_DIMS(2));
  n = run("Squeeze", 1, f32(KT_DIMS(2, 1), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Tried to squeeze dim index 2 for tensor with 2 dimensions.");
}

/* ------------------------------------------------ EnsureShape, Const */

TEST(ensure_shape) {
  int n;
  begin();
  kt_attr_shape(&A, "shape", KT_DIMS(-1, 3));
  n = run("EnsureShape", 1, f32(KT_DIMS(2, 3), NULL));
  EXPECT_OK(n, 1);
  drop(1);
  kt_attr_shape(&A, "shape", NULL, -1);
  n = run("EnsureShape", 1, f32(KT_DIMS(2, 3), NULL));
  EXPECT_OK(n, 1);
  drop(1);
  kt_attr_shape(&A, "shape", KT_DIMS(3, 2));
  n = run("EnsureShape", 1, f32(KT_DIMS(2, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "[2,3] is not compatible with expected shape [3,2]");
  kt_attr_shape(&A, "shape", KT_DIMS(-1));
  n = run("EnsureShape", 1, f32(KT_DIMS(2, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "expected shape [?]");
}

TEST(const_from_tensor_attr) {
  TF_Tensor* v;
  int n;
  begin();
  v = kt_tensor(TF_INT32, KT_DIMS(2, 2), KT_V(9, 8, 7, 6));
  kt_attr_tensor(&A, "value", v);
  kt_attr_type(&A, "dtype", TF_INT32);
  n = run("Const", 0);
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(2, 2), KT_V(9, 8, 7, 6));
  drop(1);
  kt_attr_tensor(&A, "value", v);
  kt_attr_type(&A, "dtype", TF_FLOAT);
  n = run("Const", 0);
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Type mismatch between value (int32) and dtype (float)");
  TF_DeleteTensor(v);
}

/* ------------------------------------------ Fill, ZerosLike, OnesLike */

TEST(fill) {
  int n;
  begin();
  n = run("Fill", 2, i32v(2, KT_V(2, 3)), kt_scalar(TF_FLOAT, 1.5));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 3), KT_V(1.5, 1.5, 1.5, 1.5, 1.5, 1.5));
  drop(1);
  n = run("Fill", 2, kt_vec(TF_INT64, 1, KT_V(3)), kt_scalar(TF_BOOL, 1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_BOOL, KT_DIMS(3), KT_V(1, 1, 1));
  drop(1);
  n = run("Fill", 2, i32v(0, NULL), kt_scalar(TF_INT16, -4));
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_INT16, KT_SCALAR, KT_V(-4), 0, __FILE__, __LINE__);
  drop(1);
  n = run("Fill", 2, i32v(2, KT_V(2, 0)), kt_scalar(TF_COMPLEX64, 1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_COMPLEX64, KT_DIMS(2, 0), NULL);
  drop(1);
  n = run("Fill", 2, i32v(2, KT_V(2, -1)), kt_scalar(TF_FLOAT, 1));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "must be >= 0");
  /* TF's kernel takes a one-element vector as the value and a scalar as
   * the dims of a vector. */
  n = run("Fill", 2, i32v(1, KT_V(2)), f32(KT_DIMS(1), KT_V(1)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2), KT_V(1, 1));
  drop(1);
  n = run("Fill", 2, i32v(1, KT_V(2)), f32(KT_DIMS(2), KT_V(1, 2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "value must represent a scalar, got shape [2]");
  n = run("Fill", 2, kt_scalar(TF_INT32, 3), kt_scalar(TF_FLOAT, 1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3), KT_V(1, 1, 1));
  drop(1);
  n = run("Fill", 2, kt_tensor(TF_INT32, KT_DIMS(1, 1), KT_V(1)),
          kt_scalar(TF_FLOAT, 1));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "dims must represent a vector, got shape [1,1]");
}

TEST(fill_string) {
  TF_Tensor* v;
  int n;
  begin();
  v = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
  TF_TString_Copy((TF_TString*)TF_TensorData(v),
                  "a string longer than the inline size", 36);
  n = run("Fill", 2, i32v(1, KT_V(3)), v);
  EXPECT_OK(n, 1);
  {
    const TF_TString* e = (const TF_TString*)TF_TensorData(OUT[0]);
    int i;
    for (i = 0; i < 3; i++) {
      CHECK_EQ_SIZE(TF_TString_GetSize(&e[i]), 36);
      CHECK(memcmp(TF_TString_GetDataPointer(&e[i]), "a string", 8) == 0);
    }
  }
  drop(1);
}

TEST(zeros_like_ones_like_dtypes) {
  static const TF_DataType dts[] = {
      TF_FLOAT, TF_DOUBLE, TF_HALF,   TF_BFLOAT16, TF_INT8,      TF_INT16,
      TF_INT32, TF_INT64,  TF_UINT8,  TF_UINT16,   TF_UINT32,    TF_UINT64,
      TF_BOOL,  TF_COMPLEX64, TF_COMPLEX128};
  size_t i;
  int n;
  begin();
  for (i = 0; i < sizeof dts / sizeof dts[0]; i++) {
    n = run("ZerosLike", 1, kt_tensor(dts[i], KT_DIMS(3), KT_V(1, 2, 1)));
    EXPECT_OK(n, 1);
    KT_CHECK(OUT[0], dts[i], KT_DIMS(3), KT_V(0, 0, 0));
    drop(1);
    n = run("OnesLike", 1, kt_tensor(dts[i], KT_DIMS(2, 1), KT_V(0, 5)));
    EXPECT_OK(n, 1);
    KT_CHECK(OUT[0], dts[i], KT_DIMS(2, 1), KT_V(1, 1));
    if (dts[i] == TF_COMPLEX64) {
      CHECK(((float*)TF_TensorData(OUT[0]))[1] == 0.0f);
    }
    drop(1);
  }
}

TEST(zeros_like_string) {
  TF_Tensor* s;
  int64_t d = 2;
  int n;
  begin();
  s = TF_AllocateTensor(TF_STRING, &d, 1, 2 * sizeof(TF_TString));
  TF_TString_Copy((TF_TString*)TF_TensorData(s), "abc", 3);
  n = run("ZerosLike", 1, s);
  EXPECT_OK(n, 1);
  CHECK_EQ_SIZE(TF_TString_GetSize((TF_TString*)TF_TensorData(OUT[0])), 0);
  drop(1);
}

/* -------------------------------------------------------------- Range */

TEST(range) {
  int n;
  begin();
  n = run("Range", 3, kt_scalar(TF_INT32, 0), kt_scalar(TF_INT32, 5),
          kt_scalar(TF_INT32, 2));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(3), KT_V(0, 2, 4));
  drop(1);
  n = run("Range", 3, kt_scalar(TF_INT64, 5), kt_scalar(TF_INT64, -1),
          kt_scalar(TF_INT64, -2));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(3), KT_V(5, 3, 1));
  drop(1);
  n = run("Range", 3, kt_scalar(TF_FLOAT, 0), kt_scalar(TF_FLOAT, 1),
          kt_scalar(TF_FLOAT, 0.25));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(4), KT_V(0, 0.25, 0.5, 0.75));
  drop(1);
  n = run("Range", 3, kt_scalar(TF_DOUBLE, 1), kt_scalar(TF_DOUBLE, 2.1),
          kt_scalar(TF_DOUBLE, 0.5));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(3), KT_V(1, 1.5, 2));
  drop(1);
  /* empty range */
  n = run("Range", 3, kt_scalar(TF_INT32, 3), kt_scalar(TF_INT32, 3),
          kt_scalar(TF_INT32, 1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(0), NULL);
  drop(1);
}

TEST(range_errors) {
  int n;
  begin();
  n = run("Range", 3, kt_scalar(TF_INT32, 0), kt_scalar(TF_INT32, 5),
          kt_scalar(TF_INT32, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Requires delta != 0: 0");
  n = run("Range", 3, kt_scalar(TF_INT32, 0), kt_scalar(TF_INT32, 5),
          kt_scalar(TF_INT32, -1));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Requires start >= limit when delta < 0: 0/5");
  n = run("Range", 3, kt_scalar(TF_FLOAT, 5), kt_scalar(TF_FLOAT, 0),
          kt_scalar(TF_FLOAT, 1));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Requires start <= limit when delta > 0: 5/0");
  n = run("Range", 3, i32v(2, KT_V(0, 1)), kt_scalar(TF_INT32, 5),
          kt_scalar(TF_INT32, 1));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "start must be a scalar, not shape [2]");
}

/* ----------------------------------------------------------- ConcatV2 */

TEST(concat_v2) {
  int n;
  begin();
  n = run("ConcatV2", 3, f32(KT_DIMS(2), KT_V(1, 2)),
          f32(KT_DIMS(3), KT_V(3, 4, 5)), kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(5), KT_V(1, 2, 3, 4, 5));
  drop(1);
  n = run("ConcatV2", 3, f32(KT_DIMS(2, 2), KT_V(1, 2, 3, 4)),
          f32(KT_DIMS(2, 1), KT_V(5, 6)), kt_scalar(TF_INT64, -1));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 3), KT_V(1, 2, 5, 3, 4, 6));
  drop(1);
  /* empty pieces */
  n = run("ConcatV2", 4, kt_tensor(TF_INT64, KT_DIMS(0, 2), NULL),
          kt_tensor(TF_INT64, KT_DIMS(1, 2), KT_V(7, 8)),
          kt_tensor(TF_INT64, KT_DIMS(0, 2), NULL), kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(1, 2), KT_V(7, 8));
  drop(1);
}

TEST(concat_v2_strings) {
  TF_Tensor *a, *b;
  int64_t d = 1;
  int n;
  begin();
  a = TF_AllocateTensor(TF_STRING, &d, 1, sizeof(TF_TString));
  b = TF_AllocateTensor(TF_STRING, &d, 1, sizeof(TF_TString));
  TF_TString_Copy((TF_TString*)TF_TensorData(a), "left", 4);
  TF_TString_Copy((TF_TString*)TF_TensorData(b),
                  "right side, long enough to be heap allocated", 44);
  n = run("ConcatV2", 3, a, b, kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 1);
  {
    const TF_TString* e = (const TF_TString*)TF_TensorData(OUT[0]);
    CHECK_EQ_SIZE(TF_TString_GetSize(&e[0]), 4);
    CHECK_EQ_SIZE(TF_TString_GetSize(&e[1]), 44);
    CHECK(memcmp(TF_TString_GetDataPointer(&e[1]), "right side", 10) == 0);
  }
  drop(1);
}

TEST(concat_v2_errors) {
  int n;
  begin();
  n = run("ConcatV2", 3, f32(KT_DIMS(2, 3), NULL), f32(KT_DIMS(2, 3), NULL),
          kt_scalar(TF_INT32, 2));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "ConcatOp : Expected concatenating dimensions in the range "
             "[-2, 2), but got 2");
  n = run("ConcatV2", 3, f32(KT_DIMS(2, 3), NULL), f32(KT_DIMS(2, 3), NULL),
          kt_scalar(TF_INT32, -3));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "but got -3");
  n = run("ConcatV2", 3, f32(KT_DIMS(2, 3), NULL), f32(KT_DIMS(2), NULL),
          kt_scalar(TF_INT32, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "ConcatOp : Ranks of all input tensors should match: shape[0] = "
             "[2,3] vs. shape[1] = [2]");
  n = run("ConcatV2", 3, f32(KT_DIMS(2, 3), NULL), f32(KT_DIMS(2, 4), NULL),
          kt_scalar(TF_INT32, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] "
             "= [2,3] vs. shape[1] = [2,4]");
  n = run("ConcatV2", 3, f32(KT_DIMS(2), NULL), f32(KT_DIMS(2), NULL),
          i32v(1, KT_V(0)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "should be a scalar");
}

/* ----------------------------------------------------- Pack, Unpack */

TEST(pack) {
  int n;
  begin();
  n = run("Pack", 2, f32(KT_DIMS(2), KT_V(1, 2)), f32(KT_DIMS(2), KT_V(3, 4)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 2, 3, 4));
  drop(1);
  kt_attr_int(&A, "axis", 1);
  n = run("Pack", 2, f32(KT_DIMS(2), KT_V(1, 2)), f32(KT_DIMS(2), KT_V(3, 4)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 2), KT_V(1, 3, 2, 4));
  drop(1);
  kt_attr_int(&A, "axis", -1);
  n = run("Pack", 3, kt_scalar(TF_INT32, 1), kt_scalar(TF_INT32, 2),
          kt_scalar(TF_INT32, 3));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(3), KT_V(1, 2, 3));
  drop(1);
  n = run("Pack", 1, f32(KT_DIMS(2), KT_V(1, 2)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1, 2), KT_V(1, 2));
  drop(1);
  n = run("Pack", 2, f32(KT_DIMS(2), NULL), f32(KT_DIMS(3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Shapes of all inputs must match: values[0].shape = [2] != "
             "values[1].shape = [3]");
  kt_attr_int(&A, "axis", 2);
  n = run("Pack", 2, f32(KT_DIMS(2), NULL), f32(KT_DIMS(2), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "axis = 2 not in [-2, 2)");
}

TEST(unpack) {
  int n;
  begin();
  kt_attr_int(&A, "num", 2);
  n = run("Unpack", 1, f32(KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)));
  EXPECT_OK(n, 2);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3), KT_V(1, 2, 3));
  KT_CHECK(OUT[1], TF_FLOAT, KT_DIMS(3), KT_V(4, 5, 6));
  drop(2);
  kt_attr_int(&A, "num", 3);
  kt_attr_int(&A, "axis", -1);
  n = run("Unpack", 1, f32(KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)));
  EXPECT_OK(n, 3);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2), KT_V(1, 4));
  KT_CHECK(OUT[2], TF_FLOAT, KT_DIMS(2), KT_V(3, 6));
  drop(3);
  kt_attr_int(&A, "num", 4);
  n = run("Unpack", 1, f32(KT_DIMS(4, 1), KT_V(1, 2, 3, 4)));
  EXPECT_OK(n, 4);
  KT_CHECK(OUT[3], TF_FLOAT, KT_DIMS(1), KT_V(4));
  drop(4);
  kt_attr_int(&A, "num", 3);
  n = run("Unpack", 1, f32(KT_DIMS(2, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Input shape axis 0 must equal 3, got shape [2,3]");
  kt_attr_int(&A, "num", 2);
  kt_attr_int(&A, "axis", 2);
  n = run("Unpack", 1, f32(KT_DIMS(2, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "axis = 2 not in [-2, 2)");
}

/* ------------------------------------------------------ Split, SplitV */

TEST(split) {
  int n;
  begin();
  kt_attr_int(&A, "num_split", 3);
  n = run("Split", 2, kt_scalar(TF_INT32, 1),
          f32(KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)));
  EXPECT_OK(n, 3);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(2, 1), KT_V(1, 4));
  KT_CHECK(OUT[2], TF_FLOAT, KT_DIMS(2, 1), KT_V(3, 6));
  drop(3);
  kt_attr_int(&A, "num_split", 2);
  n = run("Split", 2, kt_scalar(TF_INT32, 1), f32(KT_DIMS(2, 3), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "Number of ways to split should evenly divide the split "
             "dimension, but got split_dim 1 (size = 3) and num_split 2");
  kt_attr_int(&A, "num_split", 2);
  n = run("Split", 2, kt_scalar(TF_INT32, -3), f32(KT_DIMS(2, 4), NULL));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "-input rank(-2) <= split_dim < input rank (2), but got -3");
}

TEST(split_v) {
  int n;
  begin();
  kt_attr_int(&A, "num_split", 3);
  n = run("SplitV", 3, f32(KT_DIMS(6), KT_V(1, 2, 3, 4, 5, 6)),
          kt_vec(TF_INT64, 3, KT_V(1, -1, 2)), kt_scalar(TF_INT32, 0));
  EXPECT_OK(n, 3);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(1), KT_V(1));
  KT_CHECK(OUT[1], TF_FLOAT, KT_DIMS(3), KT_V(2, 3, 4));
  KT_CHECK(OUT[2], TF_FLOAT, KT_DIMS(2), KT_V(5, 6));
  drop(3);
  kt_attr_int(&A, "num_split", 2);
  n = run("SplitV", 3, f32(KT_DIMS(6), NULL), kt_vec(TF_INT32, 2, KT_V(-1, -1)),
          kt_scalar(TF_INT32, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "There can only be one -1 in the input.");
  kt_attr_int(&A, "num_split", 2);
  n = run("SplitV", 3, f32(KT_DIMS(6), NULL), kt_vec(TF_INT32, 2, KT_V(2, 2)),
          kt_scalar(TF_INT32, 0));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "Determined shape must either match");
}

/* ---------------------------------------------------------- Transpose */

TEST(transpose_2d_and_identity) {
  int n;
  begin();
  n = run("Transpose", 2, f32(KT_DIMS(2, 3), KT_V(1, 2, 3, 4, 5, 6)),
          i32v(2, KT_V(1, 0)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(3, 2), KT_V(1, 4, 2, 5, 3, 6));
  drop(1);
  n = run("Transpose", 2, kt_tensor(TF_INT64, KT_DIMS(2, 1), KT_V(1, 2)),
          kt_vec(TF_INT64, 2, KT_V(1, 0)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT64, KT_DIMS(1, 2), KT_V(1, 2));
  drop(1);
  n = run("Transpose", 2, kt_scalar(TF_FLOAT, 3), i32v(0, NULL));
  EXPECT_OK(n, 1);
  kt_check(OUT[0], TF_FLOAT, KT_SCALAR, KT_V(3), 0, __FILE__, __LINE__);
  drop(1);
}

/* 3-D permutations of a [2,3,4] iota, checked against index arithmetic,
 * for several element sizes. */
TEST(transpose_3d_all_perms) {
  static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                  {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  static const TF_DataType dts[] = {TF_UINT8, TF_HALF, TF_FLOAT, TF_DOUBLE,
                                    TF_COMPLEX128};
  const int64_t dims[3] = {2, 3, 4};
  double vals[24];
  size_t p, t;
  int i, n;
  begin();
  for (i = 0; i < 24; i++) vals[i] = i;
  for (t = 0; t < sizeof dts / sizeof dts[0]; t++) {
    for (p = 0; p < 6; p++) {
      int64_t od[3];
      int64_t idx[3];
      for (i = 0; i < 3; i++) od[i] = dims[perms[p][i]];
      n = run("Transpose", 2, kt_tensor(dts[t], dims, 3, vals),
              i32v(3, KT_V(perms[p][0], perms[p][1], perms[p][2])));
      EXPECT_OK(n, 1);
      kt_check(OUT[0], dts[t], od, 3, NULL, 0, __FILE__, __LINE__);
      for (idx[0] = 0; idx[0] < od[0]; idx[0]++)
        for (idx[1] = 0; idx[1] < od[1]; idx[1]++)
          for (idx[2] = 0; idx[2] < od[2]; idx[2]++) {
            int64_t in_idx[3], flat_in, flat_out;
            for (i = 0; i < 3; i++) in_idx[perms[p][i]] = idx[i];
            flat_in = (in_idx[0] * 3 + in_idx[1]) * 4 + in_idx[2];
            flat_out = (idx[0] * od[1] + idx[1]) * od[2] + idx[2];
            if (kt_get(OUT[0], flat_out) != (double)flat_in) {
              TFE_FAIL("dtype %d perm %zu: out[%lld] = %g, want %lld",
                       (int)dts[t], p, (long long)flat_out,
                       kt_get(OUT[0], flat_out), (long long)flat_in);
            }
          }
      drop(1);
    }
  }
}

/* Larger 2-D and 4-D cases exercise the tiled paths. */
TEST(transpose_large) {
  const int64_t R = 67, C = 45;
  double* v = (double*)malloc(sizeof(double) * R * C);
  int64_t i, j;
  int n;
  begin();
  for (i = 0; i < R * C; i++) v[i] = (double)i;
  n = run("Transpose", 2, kt_tensor(TF_INT32, KT_DIMS(R, C), v),
          i32v(2, KT_V(1, 0)));
  EXPECT_OK(n, 1);
  for (i = 0; i < C; i++)
    for (j = 0; j < R; j++) CHECK(kt_get(OUT[0], i * R + j) == j * C + i);
  drop(1);
  /* [2, 3, 5, 7] with perm [3, 1, 0, 2] */
  n = run("Transpose", 2, kt_tensor(TF_FLOAT, KT_DIMS(2, 3, 5, 7), v),
          i32v(4, KT_V(3, 1, 0, 2)));
  EXPECT_OK(n, 1);
  {
    int64_t a, b, c, d;
    for (a = 0; a < 7; a++)
      for (b = 0; b < 3; b++)
        for (c = 0; c < 2; c++)
          for (d = 0; d < 5; d++) {
            int64_t out = ((a * 3 + b) * 2 + c) * 5 + d;
            int64_t in = ((c * 3 + b) * 5 + d) * 7 + a;
            CHECK(kt_get(OUT[0], out) == (double)in);
          }
  }
  drop(1);
  free(v);
}

TEST(transpose_strings) {
  TF_Tensor* s;
  int64_t d[2] = {2, 2};
  TF_TString* e;
  int n;
  begin();
  s = TF_AllocateTensor(TF_STRING, d, 2, 4 * sizeof(TF_TString));
  e = (TF_TString*)TF_TensorData(s);
  TF_TString_Copy(&e[0], "a", 1);
  TF_TString_Copy(&e[1], "b", 1);
  TF_TString_Copy(&e[2], "c", 1);
  TF_TString_Copy(&e[3], "d", 1);
  n = run("Transpose", 2, s, i32v(2, KT_V(1, 0)));
  EXPECT_OK(n, 1);
  e = (TF_TString*)TF_TensorData(OUT[0]);
  CHECK(*TF_TString_GetDataPointer(&e[1]) == 'c');
  CHECK(*TF_TString_GetDataPointer(&e[2]) == 'b');
  drop(1);
}

TEST(transpose_errors) {
  int n;
  begin();
  n = run("Transpose", 2, f32(KT_DIMS(2, 3), NULL), i32v(3, KT_V(0, 1, 2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT,
             "transpose expects a vector of size 2. But input(1) is a vector "
             "of size 3");
  n = run("Transpose", 2, f32(KT_DIMS(2, 3), NULL), i32v(2, KT_V(0, 0)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "1 is missing from {0,0}.");
  n = run("Transpose", 2, f32(KT_DIMS(2, 3), NULL), i32v(2, KT_V(0, 2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "2 is out of range [0 .. 2)");
  n = run("Transpose", 2, f32(KT_DIMS(2, 3), NULL),
          kt_tensor(TF_INT32, KT_DIMS(1, 2), KT_V(0, 1)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "perm must be rank 1, got shape [1,2]");
}

TEST(invert_permutation) {
  int n;
  begin();
  n = run("InvertPermutation", 1, i32v(4, KT_V(3, 1, 0, 2)));
  EXPECT_OK(n, 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(4), KT_V(2, 1, 3, 0));
  drop(1);
  n = run("InvertPermutation", 1, i32v(2, KT_V(0, 0)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "0 is duplicated in the input.");
  n = run("InvertPermutation", 1, kt_vec(TF_INT64, 2, KT_V(0, 2)));
  EXPECT_ERR(n, TF_INVALID_ARGUMENT, "2 is not between 0 and 2");
}

TEST(no_kernel_for_unregistered_dtype) {
  int n;
  begin();
  n = run("OnesLike", 1, kt_tensor(TF_QINT8, KT_DIMS(1), NULL));
  CHECK_EQ_INT(n, -1);
  CHECK(TF_GetCode(S) != TF_OK);
}

/* Random ranks (1-5), dims (0-4) and permutations against index
 * arithmetic. */
TEST(transpose_random_perms) {
  unsigned seed = 777;
  int iter;
  begin();
  for (iter = 0; iter < 200; iter++) {
    int nd, i, j, perm[5];
    int64_t dims[5], od[5], total = 1, n;
    double vals[1024], want[1024], permd[5];
    int nout;
    seed = seed * 1103515245u + 12345u;
    nd = 1 + (int)((seed >> 16) % 5);
    for (i = 0; i < nd; i++) {
      seed = seed * 1103515245u + 12345u;
      dims[i] = (int64_t)((seed >> 16) % 5);
      total *= dims[i];
      perm[i] = i;
    }
    for (i = nd - 1; i > 0; i--) {
      int t;
      seed = seed * 1103515245u + 12345u;
      j = (int)((seed >> 16) % (unsigned)(i + 1));
      t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    for (i = 0; i < nd; i++) {
      od[i] = dims[perm[i]];
      permd[i] = perm[i];
    }
    for (n = 0; n < total; n++) vals[n] = (double)n;
    for (n = 0; n < total; n++) {
      /* output flat n -> output index -> input index */
      int64_t rem = n, idx[5], in_flat = 0;
      for (i = nd - 1; i >= 0; i--) {
        idx[i] = rem % od[i];
        rem /= od[i];
      }
      {
        int64_t in_idx[5];
        for (i = 0; i < nd; i++) in_idx[perm[i]] = idx[i];
        for (i = 0; i < nd; i++) in_flat = in_flat * dims[i] + in_idx[i];
      }
      want[n] = (double)in_flat;
    }
    nout = run("Transpose", 2, kt_tensor(TF_INT16, dims, nd, vals),
               i32v(nd, permd));
    EXPECT_OK(nout, 1);
    kt_check(OUT[0], TF_INT16, od, nd, want, 0, __FILE__, __LINE__);
    drop(1);
  }
}

TFE_TEST_MAIN
