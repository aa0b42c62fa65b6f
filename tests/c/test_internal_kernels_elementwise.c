/* Elementwise CPU kernels run through the kernel registry with a
 * hand-filled kernel context: every op across its dtypes against
 * hand-computed values, TF's broadcasting, division and overflow
 * semantics, and every error with its code and wording. */
#include <float.h>
#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "ew_test_util.h"
#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/elementwise_common.h"

/* A dtype with its display name. */
typedef struct {
  TF_DataType dt;
  const char* name;
} dtype_case;

static const dtype_case kSigned[] = {{TF_INT8, "int8"},
                                     {TF_INT16, "int16"},
                                     {TF_INT32, "int32"},
                                     {TF_INT64, "int64"}};
static const dtype_case kUnsigned[] = {{TF_UINT8, "uint8"},
                                       {TF_UINT16, "uint16"},
                                       {TF_UINT32, "uint32"},
                                       {TF_UINT64, "uint64"}};
static const dtype_case kFloats[] = {{TF_FLOAT, "float"},
                                     {TF_DOUBLE, "double"},
                                     {TF_HALF, "half"},
                                     {TF_BFLOAT16, "bfloat16"}};
#define NCASES(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* x [2,3] op y [3] for one dtype. */
static void bin23(const char* op, TF_DataType dt, const double* x,
                  const double* y, const double* want) {
  int n;
  ew_begin();
  n = ew_run(op, 2, ew_t(dt, EW_DIMS(2, 3), 2, x), ew_vec(dt, 3, y));
  if (n != 1) {
    TFE_FAIL("%s on dtype %d: %s", op, (int)dt, TF_Message(ew_status));
  }
  EW_EXPECT(ew_out[0], dt, EW_DIMS(2, 3), 2, want);
  ew_drop();
}

/* Elementwise x op y on vectors of n. */
static void binv(const char* op, TF_DataType dt, int n, const double* x,
                 const double* y, TF_DataType out_dt, const double* want,
                 double tol) {
  int rc;
  ew_begin();
  rc = ew_run(op, 2, ew_vec(dt, n, x), ew_vec(dt, n, y));
  if (rc != 1) {
    TFE_FAIL("%s on dtype %d: %s", op, (int)dt, TF_Message(ew_status));
  }
  EW_EXPECT_VEC_TOL(ew_out[0], out_dt, n, want, tol);
  ew_drop();
}

/* Unary op on a vector of n. */
static void unv(const char* op, TF_DataType dt, int n, const double* x,
                TF_DataType out_dt, const double* want, double tol) {
  int rc;
  ew_begin();
  rc = ew_run(op, 1, ew_vec(dt, n, x));
  if (rc != 1) {
    TFE_FAIL("%s on dtype %d: %s", op, (int)dt, TF_Message(ew_status));
  }
  EW_EXPECT_VEC_TOL(ew_out[0], out_dt, n, want, tol);
  ew_drop();
}

/* Expects op to be unavailable (NOT_FOUND) for dtype dt. */
static void no_kernel(const char* op, int nin, TF_DataType dt) {
  TF_Tensor* in[3];
  int i, rc;
  const tfe_op_def* def;
  const tfe_kernel_reg* reg;
  ew_begin();
  def = tfe_op_lookup(op);
  CHECK(def != NULL);
  for (i = 0; i < nin; i++) in[i] = NULL;
  ew_attr_type("T", dt);
  reg = tfe_kernel_find(def, "CPU", &ew_attrs, ew_status);
  if (reg != NULL) TFE_FAIL("%s has a kernel for dtype %d", op, (int)dt);
  CHECK_CODE(ew_status, TF_NOT_FOUND);
  (void)in;
  (void)rc;
  tfe_attrs_clear(&ew_attrs);
}

/* =========================================================== arithmetic */

static const double A23[6] = {1, 2, 3, 10, 20, 30};
static const double B3[3] = {4, 2, 1};

TEST(add_sub_mul_over_every_real_dtype) {
  static const double add[6] = {5, 4, 4, 14, 22, 31};
  static const double sub[6] = {-3, 0, 2, 6, 18, 29};
  static const double mul[6] = {4, 4, 3, 40, 40, 30};
  int i;
  for (i = 0; i < NCASES(kSigned); i++) {
    bin23("AddV2", kSigned[i].dt, A23, B3, add);
    bin23("Sub", kSigned[i].dt, A23, B3, sub);
    bin23("Mul", kSigned[i].dt, A23, B3, mul);
  }
  for (i = 0; i < NCASES(kFloats); i++) {
    bin23("AddV2", kFloats[i].dt, A23, B3, add);
    bin23("Sub", kFloats[i].dt, A23, B3, sub);
    bin23("Mul", kFloats[i].dt, A23, B3, mul);
  }
  for (i = 0; i < NCASES(kUnsigned); i++) {
    bin23("AddV2", kUnsigned[i].dt, A23, B3, add);
    bin23("Mul", kUnsigned[i].dt, A23, B3, mul);
  }
  /* 1 - 4 wraps around in unsigned types. */
  bin23("Sub", TF_UINT8, A23, B3, EW_V(253, 0, 2, 6, 18, 29));
  bin23("Sub", TF_UINT16, A23, B3, EW_V(65533, 0, 2, 6, 18, 29));
  bin23("Sub", TF_UINT32, A23, B3, EW_V(4294967293.0, 0, 2, 6, 18, 29));
}

TEST(integer_arithmetic_wraps) {
  binv("AddV2", TF_INT32, 2, EW_V(2147483647, -2147483648.0), EW_V(1, -1),
       TF_INT32, EW_V(-2147483648.0, 2147483647), 0);
  binv("AddV2", TF_UINT8, 2, EW_V(250, 0), EW_V(10, 0), TF_UINT8,
       EW_V(4, 0), 0);
  binv("AddV2", TF_INT8, 1, EW_V(127), EW_V(1), TF_INT8, EW_V(-128), 0);
  binv("Mul", TF_INT16, 1, EW_V(300), EW_V(300), TF_INT16, EW_V(24464), 0);
  binv("Mul", TF_UINT16, 1, EW_V(65535), EW_V(65535), TF_UINT16, EW_V(1), 0);
  binv("Sub", TF_INT64, 1, EW_V(-9223372036854775807.0 - 1), EW_V(1),
       TF_INT64, EW_V(9223372036854775807.0), 0);
  {
    /* exact 64-bit check */
    ew_begin();
    EW_OK(ew_run("Sub", 2, ew_scalar(TF_INT64, -9223372036854775807.0 - 1),
                 ew_scalar(TF_INT64, 1)));
    CHECK(ew_u64_at(ew_out[0], 0) == 0x7fffffffffffffffull);
    ew_drop();
  }
}

TEST(add_mul_complex) {
  static const float a[4] = {1, 2, 3, -1};
  static const float b[4] = {0, 1, 2, 2};
  const float* r;
  ew_begin();
  EW_OK(ew_run("Mul", 2, ew_c64(2, a), ew_c64(2, b)));
  r = (const float*)TF_TensorData(ew_out[0]);
  /* (1+2i)(i) = -2+i ; (3-i)(2+2i) = 8+4i */
  CHECK(r[0] == -2 && r[1] == 1 && r[2] == 8 && r[3] == 4);
  EW_OK(ew_run("AddV2", 2, ew_c64(2, a), ew_c64(2, b)));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(r[0] == 1 && r[1] == 3 && r[2] == 5 && r[3] == 1);
  EW_OK(ew_run("Sub", 2, ew_c64(2, a), ew_c64(2, b)));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(r[0] == 1 && r[1] == 1 && r[2] == 1 && r[3] == -3);
  /* SquaredDifference of complex is |x-y|^2 (times conj), not (x-y)^2. */
  EW_OK(ew_run("SquaredDifference", 2, ew_c64(1, EW_V_F(1, 2)),
               ew_c64(1, EW_V_F(2, 1))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(r[0] == 2 && r[1] == 0);
  /* RealDiv by zero follows C99 Annex G: inf+inf i; no overflow in the
   * scaling of large divisors. */
  EW_OK(ew_run("RealDiv", 2, ew_c64(2, EW_V_F(1, 1, 1, 0)),
               ew_c64(2, EW_V_F(0, 0, 1e30f, 1e30f))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(isinf(r[0]) && isinf(r[1]));
  CHECK(fabsf(r[2] - 5e-31f) < 1e-36f && fabsf(r[3] + 5e-31f) < 1e-36f);
  ew_drop();
}

TEST(maximum_minimum_semantics) {
  int i;
  for (i = 0; i < NCASES(kSigned); i++) {
    bin23("Maximum", kSigned[i].dt, A23, B3, EW_V(4, 2, 3, 10, 20, 30));
    bin23("Minimum", kSigned[i].dt, A23, B3, EW_V(1, 2, 1, 4, 2, 1));
  }
  for (i = 0; i < NCASES(kUnsigned); i++) {
    bin23("Maximum", kUnsigned[i].dt, A23, B3, EW_V(4, 2, 3, 10, 20, 30));
    bin23("Minimum", kUnsigned[i].dt, A23, B3, EW_V(1, 2, 1, 4, 2, 1));
  }
  for (i = 0; i < NCASES(kFloats); i++) {
    bin23("Maximum", kFloats[i].dt, A23, B3, EW_V(4, 2, 3, 10, 20, 30));
    bin23("Minimum", kFloats[i].dt, A23, B3, EW_V(1, 2, 1, 4, 2, 1));
    /* NaN in either operand propagates. */
    binv("Maximum", kFloats[i].dt, 3, EW_V(NAN, 1, NAN), EW_V(1, NAN, NAN),
         kFloats[i].dt, EW_V(NAN, NAN, NAN), 0);
    binv("Minimum", kFloats[i].dt, 3, EW_V(NAN, 1, NAN), EW_V(1, NAN, NAN),
         kFloats[i].dt, EW_V(NAN, NAN, NAN), 0);
  }
  /* Signed values and ties between zeros: the first operand wins. */
  binv("Maximum", TF_INT32, 4, EW_V(-1, 0, 5, -7), EW_V(3, -2, 5, -9),
       TF_INT32, EW_V(3, 0, 5, -7), 0);
  ew_begin();
  EW_OK(ew_run("Maximum", 2, ew_vec(TF_FLOAT, 2, EW_V(-0.0, 0.0)),
               ew_vec(TF_FLOAT, 2, EW_V(0.0, -0.0))));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_FLOAT, 2, EW_V(-0.0, 0.0));
  EW_OK(ew_run("Minimum", 2, ew_vec(TF_FLOAT, 2, EW_V(-0.0, 0.0)),
               ew_vec(TF_FLOAT, 2, EW_V(0.0, -0.0))));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_FLOAT, 2, EW_V(-0.0, 0.0));
  ew_drop();
  no_kernel("Maximum", 2, TF_COMPLEX64);
}

TEST(squared_difference_and_mul_no_nan) {
  binv("SquaredDifference", TF_FLOAT, 3, EW_V(1, -2, 3), EW_V(4, 2, 3),
       TF_FLOAT, EW_V(9, 16, 0), 0);
  binv("SquaredDifference", TF_INT32, 3, EW_V(1, -2, 3), EW_V(4, 2, 3),
       TF_INT32, EW_V(9, 16, 0), 0);
  binv("SquaredDifference", TF_INT64, 1, EW_V(-5), EW_V(5), TF_INT64,
       EW_V(100), 0);
  binv("SquaredDifference", TF_HALF, 1, EW_V(100.3), EW_V(0.1), TF_HALF,
       EW_V(10040), 0);
  no_kernel("SquaredDifference", 2, TF_INT8);
  binv("MulNoNan", TF_FLOAT, 4, EW_V(INFINITY, NAN, 1, 2), EW_V(0, 0, NAN, 3),
       TF_FLOAT, EW_V(0, 0, NAN, 6), 0);
  binv("MulNoNan", TF_DOUBLE, 2, EW_V(INFINITY, 2), EW_V(0, -3), TF_DOUBLE,
       EW_V(0, -6), 0);
  no_kernel("MulNoNan", 2, TF_INT32);
}

TEST(pow_over_dtypes) {
  binv("Pow", TF_FLOAT, 4, EW_V(2, 4, 2, 9), EW_V(3, 0.5, -1, 0), TF_FLOAT,
       EW_V(8, 2, 0.5, 1), 0);
  binv("Pow", TF_DOUBLE, 3, EW_V(2, -2, 10), EW_V(10, 3, -2), TF_DOUBLE,
       EW_V(1024, -8, 0.01), 1e-15);
  binv("Pow", TF_INT32, 3, EW_V(2, 3, -2), EW_V(10, 3, 3), TF_INT32,
       EW_V(1024, 27, -8), 0);
  binv("Pow", TF_INT64, 2, EW_V(2, 7), EW_V(40, 2), TF_INT64,
       EW_V(1099511627776.0, 49), 0);
  binv("Pow", TF_INT32, 2, EW_V(0, 0), EW_V(0, 5), TF_INT32, EW_V(1, 0), 0);
  /* Overflow wraps in the element type. */
  binv("Pow", TF_INT8, 2, EW_V(3, 2), EW_V(5, 7), TF_INT8, EW_V(-13, -128), 0);
  binv("Pow", TF_FLOAT, 5, EW_V(0, -8, NAN, 1, -1),
       EW_V(-1, 1.0 / 3, 0, NAN, INFINITY), TF_FLOAT,
       EW_V(INFINITY, NAN, 1, 1, 1), 0);
  binv("Pow", TF_FLOAT, 2, EW_V(1.5, 10), EW_V(2.5, -0.75), TF_FLOAT,
       EW_V(2.7556759606310752, 0.17782794100389229), 1e-6);
  no_kernel("Pow", 2, TF_UINT8);
}

TEST(pow_rejects_negative_integer_exponents) {
  int i;
  for (i = 0; i < NCASES(kSigned); i++) {
    ew_begin();
    EW_ERR(ew_run("Pow", 2, ew_vec(kSigned[i].dt, 2, EW_V(1, -1)),
                  ew_vec(kSigned[i].dt, 2, EW_V(-1, 2))),
           TF_INVALID_ARGUMENT,
           "Integers to negative integer powers are not allowed");
  }
  /* Also through broadcasting. */
  ew_begin();
  EW_ERR(ew_run("Pow", 2, ew_vec(TF_INT32, 3, EW_V(1, 2, 3)),
                ew_scalar(TF_INT32, -2)),
         TF_INVALID_ARGUMENT, "negative integer powers");
}

TEST(atan2_takes_y_first) {
  binv("Atan2", TF_FLOAT, 4, EW_V(1, -1, 0, 1), EW_V(0, 0, -1, 1), TF_FLOAT,
       EW_V(M_PI / 2, -M_PI / 2, M_PI, M_PI / 4), 1e-6);
  binv("Atan2", TF_HALF, 1, EW_V(1), EW_V(1), TF_HALF, EW_V(0.78515625), 0);
  no_kernel("Atan2", 2, TF_INT32);
}

/* ========================================================= broadcasting */

TEST(broadcast_shapes) {
  ew_begin();
  /* [2,1,3] + [4,1] -> [2,4,3] */
  EW_OK(ew_run("AddV2", 2,
               ew_t(TF_FLOAT, EW_DIMS(2, 1, 3), 3, EW_V(1, 2, 3, 4, 5, 6)),
               ew_t(TF_FLOAT, EW_DIMS(4, 1), 2, EW_V(10, 20, 30, 40))));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(2, 4, 3), 3,
            EW_V(11, 12, 13, 21, 22, 23, 31, 32, 33, 41, 42, 43, 14, 15, 16,
                 24, 25, 26, 34, 35, 36, 44, 45, 46));
  /* scalar on the left */
  EW_OK(ew_run("Sub", 2, ew_scalar(TF_FLOAT, 100),
               ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(1, 2, 3, 4))));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(99, 98, 97, 96));
  /* scalar on the right */
  EW_OK(ew_run("Sub", 2, ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(1, 2, 3, 4)),
               ew_scalar(TF_FLOAT, 1)));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(0, 1, 2, 3));
  /* column times row */
  EW_OK(ew_run("Mul", 2, ew_t(TF_INT32, EW_DIMS(3, 1), 2, EW_V(1, 2, 3)),
               ew_t(TF_INT32, EW_DIMS(1, 3), 2, EW_V(1, 10, 100))));
  EW_EXPECT(ew_out[0], TF_INT32, EW_DIMS(3, 3), 2,
            EW_V(1, 10, 100, 2, 20, 200, 3, 30, 300));
  /* row broadcast on the left operand: [3] - [2,3] */
  EW_OK(ew_run("Sub", 2, ew_vec(TF_INT64, 3, EW_V(10, 20, 30)),
               ew_t(TF_INT64, EW_DIMS(2, 3), 2, EW_V(1, 2, 3, 4, 5, 6))));
  EW_EXPECT(ew_out[0], TF_INT64, EW_DIMS(2, 3), 2,
            EW_V(9, 18, 27, 6, 15, 24));
  /* rank-1 minus scalar keeps rank 1; scalars give a scalar */
  EW_OK(ew_run("Sub", 2, ew_vec(TF_FLOAT, 1, EW_V(5)),
               ew_scalar(TF_FLOAT, 2)));
  EW_EXPECT_VEC(ew_out[0], TF_FLOAT, 1, EW_V(3));
  EW_OK(ew_run("Sub", 2, ew_scalar(TF_FLOAT, 5), ew_scalar(TF_FLOAT, 2)));
  EW_EXPECT(ew_out[0], TF_FLOAT, NULL, 0, EW_V(3));
  /* [1,1] + [1] -> [1,1] */
  EW_OK(ew_run("AddV2", 2, ew_t(TF_FLOAT, EW_DIMS(1, 1), 2, EW_V(1)),
               ew_vec(TF_FLOAT, 1, EW_V(2))));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(1, 1), 2, EW_V(3));
  ew_drop();
}

TEST(broadcast_zero_sized) {
  ew_begin();
  EW_OK(ew_run("AddV2", 2, ew_t(TF_FLOAT, EW_DIMS(0, 3), 2, EW_V(0)),
               ew_vec(TF_FLOAT, 3, EW_V(1, 2, 3))));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(0, 3), 2, EW_V(0));
  EW_OK(ew_run("Maximum", 2, ew_t(TF_INT32, EW_DIMS(0, 3), 2, EW_V(0)),
               ew_vec(TF_INT32, 3, EW_V(1, 2, 3))));
  EW_EXPECT(ew_out[0], TF_INT32, EW_DIMS(0, 3), 2, EW_V(0));
  /* 0 broadcasts against 1 */
  EW_OK(ew_run("AddV2", 2, ew_vec(TF_FLOAT, 0, EW_V(0)),
               ew_vec(TF_FLOAT, 1, EW_V(1))));
  EW_EXPECT_VEC(ew_out[0], TF_FLOAT, 0, EW_V(0));
  /* ... but not against 2 */
  EW_ERR(ew_run("AddV2", 2, ew_vec(TF_FLOAT, 0, EW_V(0)),
                ew_vec(TF_FLOAT, 2, EW_V(1, 2))),
         TF_INVALID_ARGUMENT, "Incompatible shapes: [0] vs. [2]");
  /* Empty outputs never hit the rank limit. */
  EW_OK(ew_run("AddV2", 2,
               ew_t(TF_FLOAT, EW_DIMS(2, 1, 2, 1, 2, 1, 0), 7, EW_V(0)),
               ew_t(TF_FLOAT, EW_DIMS(1, 2, 1, 2, 1, 2, 1), 7,
                    EW_V(0, 0, 0, 0, 0, 0, 0, 0))));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(2, 2, 2, 2, 2, 2, 0), 7, EW_V(0));
  ew_drop();
}

TEST(broadcast_errors) {
  ew_begin();
  EW_ERR(ew_run("AddV2", 2, ew_t(TF_FLOAT, EW_DIMS(2, 3), 2, A23),
                ew_vec(TF_FLOAT, 4, EW_V(1, 2, 3, 4))),
         TF_INVALID_ARGUMENT, "Incompatible shapes: [2,3] vs. [4]");
  EW_ERR(ew_run("Equal", 2, ew_t(TF_FLOAT, EW_DIMS(2, 3), 2, A23),
                ew_vec(TF_FLOAT, 4, EW_V(1, 2, 3, 4))),
         TF_INVALID_ARGUMENT, "Incompatible shapes: [2,3] vs. [4]");
  {
    static const double z[30] = {0};
    EW_ERR(ew_run("Mul", 2, ew_t(TF_INT32, EW_DIMS(2, 3, 5), 3, z),
                  ew_t(TF_INT32, EW_DIMS(4, 1), 2, z)),
           TF_INVALID_ARGUMENT, "Incompatible shapes: [2,3,5] vs. [4,1]");
  }
  /* TF handles at most 5 collapsed broadcast dimensions. */
  {
    static const double z[16] = {0};
    EW_ERR(ew_run("AddV2", 2,
                  ew_t(TF_FLOAT, EW_DIMS(2, 1, 2, 1, 2, 1, 2), 7, z),
                  ew_t(TF_FLOAT, EW_DIMS(1, 2, 1, 2, 1, 2, 1), 7, z)),
           TF_UNIMPLEMENTED,
           "Broadcast between [2,1,2,1,2,1,2] and [1,2,1,2,1,2,1] is not "
           "supported yet.");
    /* Five alternating dimensions are fine. */
    EW_OK(ew_run("AddV2", 2, ew_t(TF_FLOAT, EW_DIMS(2, 1, 2, 1, 2), 5, z),
                 ew_t(TF_FLOAT, EW_DIMS(1, 2, 1, 2, 1), 5, z)));
    /* Same-shape operands of any rank are always fine. */
    EW_OK(ew_run("AddV2", 2,
                 ew_t(TF_FLOAT, EW_DIMS(1, 2, 1, 2, 1, 2, 1, 2), 8, z),
                 ew_t(TF_FLOAT, EW_DIMS(1, 2, 1, 2, 1, 2, 1, 2), 8, z)));
    ew_drop();
  }
}

/* The general broadcast path against a naive reference. */
TEST(broadcast_general_matches_reference) {
  /* x [3,1,4,5], y [2,1,5] -> [3,2,4,5] */
  double x[60], y[10], want[120];
  int a, b, c, d;
  for (a = 0; a < 60; a++) x[a] = a * 3 - 50;
  for (a = 0; a < 10; a++) y[a] = a * 7 + 1;
  for (a = 0; a < 3; a++)
    for (b = 0; b < 2; b++)
      for (c = 0; c < 4; c++)
        for (d = 0; d < 5; d++)
          want[((a * 2 + b) * 4 + c) * 5 + d] =
              x[(a * 4 + c) * 5 + d] - y[b * 5 + d];
  ew_begin();
  EW_OK(ew_run("Sub", 2, ew_t(TF_INT32, EW_DIMS(3, 1, 4, 5), 4, x),
               ew_t(TF_INT32, EW_DIMS(2, 1, 5), 3, y)));
  EW_EXPECT(ew_out[0], TF_INT32, EW_DIMS(3, 2, 4, 5), 4, want);
  /* the same with the operands swapped (x broadcast along the inner run) */
  for (a = 0; a < 120; a++) want[a] = -want[a];
  EW_OK(ew_run("Sub", 2, ew_t(TF_DOUBLE, EW_DIMS(2, 1, 5), 3, y),
               ew_t(TF_DOUBLE, EW_DIMS(3, 1, 4, 5), 4, x)));
  EW_EXPECT(ew_out[0], TF_DOUBLE, EW_DIMS(3, 2, 4, 5), 4, want);
  /* inner dimension broadcast in y: [4,3] + [4,1] */
  {
    double p[12], q[4], w[12];
    for (a = 0; a < 12; a++) p[a] = a;
    for (a = 0; a < 4; a++) q[a] = 100 * a;
    for (a = 0; a < 12; a++) w[a] = p[a] + q[a / 3];
    EW_OK(ew_run("AddV2", 2, ew_t(TF_HALF, EW_DIMS(4, 3), 2, p),
                 ew_t(TF_HALF, EW_DIMS(4, 1), 2, q)));
    EW_EXPECT(ew_out[0], TF_HALF, EW_DIMS(4, 3), 2, w);
  }
  ew_drop();
}

/* Range functions give the same result in pieces as in one go (what a
 * thread pool will rely on). */
TEST(range_functions_compose) {
  const tfe_op_def* def;
  const tfe_kernel_reg* reg;
  const tfe_ew_op* op;
  tfe_bcast bc;
  const int64_t xd[3] = {3, 1, 7}, yd[2] = {4, 1};
  const int64_t* dims[2] = {xd, yd};
  int ranks[2] = {3, 2};
  float x[21], y[4], whole[84], parts[84];
  const void* in[2] = {x, y};
  tfe_ew_params prm;
  int i, cut;
  memset(&prm, 0, sizeof prm);
  ew_begin();
  def = tfe_op_lookup("Sub");
  ew_attr_type("T", TF_FLOAT);
  reg = tfe_kernel_find(def, "CPU", &ew_attrs, ew_status);
  CHECK(reg != NULL);
  op = (const tfe_ew_op*)reg->user_data;
  for (i = 0; i < 21; i++) x[i] = (float)(i * i);
  for (i = 0; i < 4; i++) y[i] = (float)(i - 10);
  CHECK_EQ_INT(tfe_bcast_init(&bc, 2, dims, ranks), TFE_BCAST_OK);
  CHECK_EQ_INT(bc.out_elems, 84);
  op->fns[TF_FLOAT](&bc, in, whole, 0, 84, &prm);
  for (cut = 0; cut <= 84; cut += 5) {
    memset(parts, 0, sizeof parts);
    op->fns[TF_FLOAT](&bc, in, parts, 0, cut, &prm);
    op->fns[TF_FLOAT](&bc, in, parts, cut, 84, &prm);
    CHECK(memcmp(parts, whole, sizeof whole) == 0);
  }
  for (i = 0; i < 84; i++) {
    int a = i / 28, b = (i / 7) % 4, c = i % 7;
    CHECK(whole[i] == x[a * 7 + c] - y[b]);
  }
  tfe_attrs_clear(&ew_attrs);
}

/* ============================================================ division */

TEST(real_div_and_div_on_floats) {
  int i;
  for (i = 0; i < 3; i++) {
    binv("RealDiv", kFloats[i].dt, 4, EW_V(1, -3, 7, 0.5), EW_V(4, 2, -2, 0.25),
         kFloats[i].dt, EW_V(0.25, -1.5, -3.5, 2), 0);
    binv("Div", kFloats[i].dt, 4, EW_V(1, -3, 7, 0.5), EW_V(4, 2, -2, 0.25),
         kFloats[i].dt, EW_V(0.25, -1.5, -3.5, 2), 0);
  }
  binv("RealDiv", TF_FLOAT, 4, EW_V(1, -1, 0, 3), EW_V(0, 0, 0, -0.0),
       TF_FLOAT, EW_V(INFINITY, -INFINITY, NAN, -INFINITY), 0);
  binv("DivNoNan", TF_FLOAT, 4, EW_V(1, 2, 0, -7.5), EW_V(0, 4, 0, 2),
       TF_FLOAT, EW_V(0, 0.5, 0, -3.75), 0);
  binv("DivNoNan", TF_BFLOAT16, 2, EW_V(1, 3), EW_V(0, 2), TF_BFLOAT16,
       EW_V(0, 1.5), 0);
  no_kernel("RealDiv", 2, TF_INT32);
  no_kernel("DivNoNan", 2, TF_INT32);
}

TEST(integer_division_semantics) {
  static const double x[4] = {7, -7, 7, -7};
  static const double y[4] = {2, 2, -2, -2};
  int i;
  for (i = 0; i < NCASES(kSigned); i++) {
    binv("Div", kSigned[i].dt, 4, x, y, kSigned[i].dt, EW_V(3, -3, -3, 3), 0);
    binv("TruncateDiv", kSigned[i].dt, 4, x, y, kSigned[i].dt,
         EW_V(3, -3, -3, 3), 0);
    binv("FloorDiv", kSigned[i].dt, 4, x, y, kSigned[i].dt,
         EW_V(3, -4, -4, 3), 0);
    binv("FloorMod", kSigned[i].dt, 6, EW_V(7, -7, 7, -7, 6, -6),
         EW_V(3, 3, -3, -3, 3, 3), kSigned[i].dt, EW_V(1, 2, -2, -1, 0, 0), 0);
  }
  for (i = 0; i < NCASES(kUnsigned); i++) {
    binv("Div", kUnsigned[i].dt, 2, EW_V(200, 7), EW_V(7, 8), kUnsigned[i].dt,
         EW_V(28, 0), 0);
    binv("FloorDiv", kUnsigned[i].dt, 1, EW_V(200), EW_V(7), kUnsigned[i].dt,
         EW_V(28), 0);
    binv("FloorMod", kUnsigned[i].dt, 1, EW_V(200), EW_V(7), kUnsigned[i].dt,
         EW_V(4), 0);
    binv("TruncateDiv", kUnsigned[i].dt, 1, EW_V(200), EW_V(7),
         kUnsigned[i].dt, EW_V(28), 0);
  }
  binv("TruncateMod", TF_INT32, 4, x, EW_V(3, 3, -3, -3), TF_INT32,
       EW_V(1, -1, 1, -1), 0);
  binv("Mod", TF_INT64, 4, x, EW_V(3, 3, -3, -3), TF_INT64,
       EW_V(1, -1, 1, -1), 0);
  /* The most negative value divided by -1 wraps instead of trapping. */
  binv("Div", TF_INT32, 1, EW_V(-2147483648.0), EW_V(-1), TF_INT32,
       EW_V(-2147483648.0), 0);
  binv("FloorDiv", TF_INT32, 1, EW_V(-2147483648.0), EW_V(-1), TF_INT32,
       EW_V(-2147483648.0), 0);
  binv("FloorMod", TF_INT32, 1, EW_V(-2147483648.0), EW_V(-1), TF_INT32,
       EW_V(0), 0);
  binv("TruncateMod", TF_INT32, 1, EW_V(-2147483648.0), EW_V(-1), TF_INT32,
       EW_V(0), 0);
  binv("Div", TF_INT8, 1, EW_V(-128), EW_V(-1), TF_INT8, EW_V(-128), 0);
  no_kernel("TruncateMod", 2, TF_INT8);
  no_kernel("Mod", 2, TF_UINT8);
  no_kernel("Mod", 2, TF_HALF);
}

TEST(float_floor_and_truncate_division) {
  static const double x[8] = {7, -7, 0, 7.5, -7.5, INFINITY, 1, -0.0};
  static const double y[8] = {0, 0, 0, -2, 2, 3, INFINITY, 3};
  ew_begin();
  EW_OK(ew_run("FloorDiv", 2, ew_vec(TF_FLOAT, 8, x), ew_vec(TF_FLOAT, 8, y)));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_FLOAT, 8,
                       EW_V(INFINITY, -INFINITY, NAN, -4, -4, INFINITY, 0,
                            -0.0));
  EW_OK(ew_run("FloorMod", 2, ew_vec(TF_FLOAT, 8, x), ew_vec(TF_FLOAT, 8, y)));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_FLOAT, 8,
                       EW_V(NAN, NAN, NAN, -0.5, 0.5, NAN, 1, -0.0));
  EW_OK(ew_run("TruncateDiv", 2, ew_vec(TF_DOUBLE, 8, x),
               ew_vec(TF_DOUBLE, 8, y)));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_DOUBLE, 8,
                       EW_V(INFINITY, -INFINITY, NAN, -3, -3, INFINITY, 0,
                            -0.0));
  EW_OK(ew_run("TruncateMod", 2, ew_vec(TF_FLOAT, 8, x),
               ew_vec(TF_FLOAT, 8, y)));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_FLOAT, 8,
                       EW_V(NAN, NAN, NAN, 1.5, -1.5, NAN, 1, -0.0));
  EW_OK(ew_run("Mod", 2, ew_vec(TF_DOUBLE, 2, EW_V(7.5, -7.5)),
               ew_vec(TF_DOUBLE, 2, EW_V(2, 2))));
  EW_EXPECT_VEC(ew_out[0], TF_DOUBLE, 2, EW_V(1.5, -1.5));
  ew_drop();
  binv("FloorMod", TF_FLOAT, 4, EW_V(7.5, -7.5, 7.5, -7.5), EW_V(2, 2, -2, -2),
       TF_FLOAT, EW_V(1.5, 0.5, -0.5, -1.5), 0);
  binv("FloorDiv", TF_FLOAT, 4, EW_V(7, -7, 7.5, -7.5), EW_V(2, 2, -2, -2),
       TF_FLOAT, EW_V(3, -4, -4, 3), 0);
  binv("FloorDiv", TF_HALF, 2, EW_V(7, -7), EW_V(2, 2), TF_HALF, EW_V(3, -4),
       0);
  binv("FloorMod", TF_BFLOAT16, 2, EW_V(7, -7), EW_V(3, 3), TF_BFLOAT16,
       EW_V(1, 2), 0);
  /* Half quotients are rounded to half before the floor: 2047/1024 is
   * 1.999 in float but 2 in half. */
  binv("FloorDiv", TF_HALF, 1, EW_V(2047), EW_V(1024), TF_HALF, EW_V(1), 0);
  binv("FloorDiv", TF_HALF, 1, EW_V(2047.0 / 1024 * 1024), EW_V(1023.5),
       TF_HALF, EW_V(2), 0);
}

TEST(integer_division_by_zero_errors) {
  static const char* const invalid_ops[] = {"Div", "FloorDiv", "FloorMod"};
  int o, i;
  for (o = 0; o < 3; o++) {
    for (i = 0; i < NCASES(kSigned); i++) {
      ew_begin();
      EW_ERR(ew_run(invalid_ops[o], 2, ew_vec(kSigned[i].dt, 2, EW_V(7, -7)),
                    ew_vec(kSigned[i].dt, 2, EW_V(0, 2))),
             TF_INVALID_ARGUMENT, "Integer division by zero");
    }
    for (i = 0; i < NCASES(kUnsigned); i++) {
      ew_begin();
      EW_ERR(ew_run(invalid_ops[o], 2, ew_vec(kUnsigned[i].dt, 1, EW_V(7)),
                    ew_scalar(kUnsigned[i].dt, 0)),
             TF_INVALID_ARGUMENT, "Integer division by zero");
    }
  }
  ew_begin();
  EW_ERR(ew_run("Mod", 2, ew_vec(TF_INT32, 1, EW_V(7)),
                ew_vec(TF_INT32, 1, EW_V(0))),
         TF_INVALID_ARGUMENT, "Integer division by zero");
  /* TruncateDiv / TruncateMod report INTERNAL, as TF 2.21 does. */
  for (i = 0; i < NCASES(kSigned); i++) {
    ew_begin();
    EW_ERR(ew_run("TruncateDiv", 2, ew_vec(kSigned[i].dt, 1, EW_V(7)),
                  ew_vec(kSigned[i].dt, 1, EW_V(0))),
           TF_INTERNAL, "only integer div and mod should have errors");
  }
  ew_begin();
  EW_ERR(ew_run("TruncateDiv", 2, ew_vec(TF_UINT8, 1, EW_V(7)),
                ew_vec(TF_UINT8, 1, EW_V(0))),
         TF_INTERNAL, "Unexpected error in binary operator");
  EW_ERR(ew_run("TruncateMod", 2, ew_vec(TF_INT64, 1, EW_V(7)),
                ew_vec(TF_INT64, 1, EW_V(0))),
         TF_INTERNAL, "Unexpected error in binary operator");
  /* A zero hidden in a broadcast operand is found too. */
  EW_ERR(ew_run("FloorDiv", 2, ew_t(TF_INT32, EW_DIMS(2, 2), 2, EW_V(1, 2, 3, 4)),
                ew_t(TF_INT32, EW_DIMS(2, 1), 2, EW_V(1, 0))),
         TF_INVALID_ARGUMENT, "Integer division by zero");
}

/* =============================================================== unary */

static const double U5[5] = {-2.5, -1, 0, 1.5, 4};

TEST(exact_unary_ops_on_floats) {
  int i;
  for (i = 0; i < NCASES(kFloats); i++) {
    TF_DataType dt = kFloats[i].dt;
    unv("Neg", dt, 5, U5, dt, EW_V(2.5, 1, -0.0, -1.5, -4), 0);
    unv("Abs", dt, 5, U5, dt, EW_V(2.5, 1, 0, 1.5, 4), 0);
    unv("Square", dt, 5, U5, dt, EW_V(6.25, 1, 0, 2.25, 16), 0);
    unv("Relu", dt, 5, U5, dt, EW_V(0, 0, 0, 1.5, 4), 0);
    unv("Sign", dt, 5, U5, dt, EW_V(-1, -1, 0, 1, 1), 0);
    unv("Floor", dt, 5, U5, dt, EW_V(-3, -1, 0, 1, 4), 0);
    unv("Ceil", dt, 5, U5, dt, EW_V(-2, -1, 0, 2, 4), 0);
    unv("Round", dt, 5, U5, dt, EW_V(-2, -1, 0, 2, 4), 0);
  }
  unv("Rint", TF_FLOAT, 5, U5, TF_FLOAT, EW_V(-2, -1, 0, 2, 4), 0);
  unv("Rint", TF_DOUBLE, 4, EW_V(0.5, 1.5, 2.5, -2.5), TF_DOUBLE,
      EW_V(0, 2, 2, -2), 0);
  no_kernel("Rint", 1, TF_HALF);
  unv("Reciprocal", TF_FLOAT, 5, U5, TF_FLOAT,
      EW_V(-0.4, -1, INFINITY, 1 / 1.5, 0.25), 1e-7);
  /* Half results are rounded to half. */
  unv("Reciprocal", TF_HALF, 5, U5, TF_HALF,
      EW_V(-0.39990234375, -1, INFINITY, 0.66650390625, 0.25), 0);
  /* Banker's rounding. */
  unv("Round", TF_FLOAT, 8, EW_V(0.5, 1.5, 2.5, -0.5, -1.5, 2.4, 2.6, -2.6),
      TF_FLOAT, EW_V(0, 2, 2, -0.0, -2, 2, 3, -3), 0);
  unv("Round", TF_BFLOAT16, 4, EW_V(0.5, 1.5, 2.5, -0.5), TF_BFLOAT16,
      EW_V(0, 2, 2, -0.0), 0);
  unv("Round", TF_FLOAT, 3, EW_V(8388609.0, 1e30, NAN), TF_FLOAT,
      EW_V(8388609.0, (double)1e30f, NAN), 0);
}

TEST(signed_zero_and_nan_in_unary_ops) {
  ew_begin();
  EW_OK(ew_run("Neg", 1, ew_vec(TF_FLOAT, 1, EW_V(0))));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_FLOAT, 1, EW_V(-0.0));
  /* Sign: NaN stays NaN, -0 gives +0 */
  EW_OK(ew_run("Sign", 1, ew_vec(TF_FLOAT, 4, EW_V(NAN, -0.0, 0.0, -INFINITY))));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_FLOAT, 4, EW_V(NAN, 0.0, 0.0, -1));
  /* Relu keeps NaN and -0 */
  EW_OK(ew_run("Relu", 1, ew_vec(TF_FLOAT, 3, EW_V(NAN, -0.0, -1))));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_FLOAT, 3, EW_V(NAN, -0.0, 0.0));
  EW_OK(ew_run("Abs", 1, ew_vec(TF_FLOAT, 3, EW_V(-0.0, NAN, -INFINITY))));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_FLOAT, 3, EW_V(0.0, NAN, INFINITY));
  ew_drop();
}

TEST(integer_unary_ops) {
  static const double ui[5] = {-7, -1, 0, 3, 5};
  int i;
  for (i = 0; i < NCASES(kSigned); i++) {
    TF_DataType dt = kSigned[i].dt;
    unv("Neg", dt, 5, ui, dt, EW_V(7, 1, 0, -3, -5), 0);
    unv("Abs", dt, 5, ui, dt, EW_V(7, 1, 0, 3, 5), 0);
    unv("Square", dt, 5, ui, dt, EW_V(49, 1, 0, 9, 25), 0);
    unv("Relu", dt, 5, ui, dt, EW_V(0, 0, 0, 3, 5), 0);
    unv("Sign", dt, 5, ui, dt, EW_V(-1, -1, 0, 1, 1), 0);
  }
  for (i = 0; i < NCASES(kUnsigned); i++) {
    TF_DataType dt = kUnsigned[i].dt;
    unv("Square", dt, 2, EW_V(3, 12), dt, EW_V(9, 144), 0);
    unv("Relu", dt, 2, EW_V(0, 200), dt, EW_V(0, 200), 0);
  }
  /* The most negative value stays put under Abs and Neg; squares wrap. */
  unv("Abs", TF_INT32, 2, EW_V(-2147483648.0, -128), TF_INT32,
      EW_V(-2147483648.0, 128), 0);
  unv("Abs", TF_INT8, 1, EW_V(-128), TF_INT8, EW_V(-128), 0);
  unv("Neg", TF_INT8, 1, EW_V(-128), TF_INT8, EW_V(-128), 0);
  unv("Square", TF_INT8, 2, EW_V(100, -12), TF_INT8, EW_V(16, -112), 0);
  /* TF 2.21's Round kernel for integers returns 0 for every element. */
  unv("Round", TF_INT32, 4, EW_V(0, 7, -3, 100), TF_INT32, EW_V(0, 0, 0, 0),
      0);
  unv("Round", TF_INT64, 2, EW_V(7, -7), TF_INT64, EW_V(0, 0), 0);
  no_kernel("Neg", 1, TF_UINT8);
  no_kernel("Abs", 1, TF_UINT32);
  no_kernel("Sign", 1, TF_UINT8);
}

TEST(transcendental_ops) {
  static const double tv[4] = {0.25, 1, 2.75, 6.5};
  static const TF_DataType fd[2] = {TF_FLOAT, TF_DOUBLE};
  int i;
  for (i = 0; i < 2; i++) {
    TF_DataType dt = fd[i];
    double tol = dt == TF_FLOAT ? 2e-7 : 1e-14;
    unv("Exp", dt, 4, tv, dt,
        EW_V(exp(0.25), exp(1), exp(2.75), exp(6.5)), tol);
    unv("Log", dt, 4, tv, dt, EW_V(log(0.25), 0, log(2.75), log(6.5)), tol);
    unv("Tanh", dt, 4, tv, dt,
        EW_V(tanh(0.25), tanh(1), tanh(2.75), tanh(6.5)), tol);
    unv("Sigmoid", dt, 4, tv, dt,
        EW_V(1 / (1 + exp(-0.25)), 1 / (1 + exp(-1)), 1 / (1 + exp(-2.75)),
             1 / (1 + exp(-6.5))),
        tol);
    unv("Sqrt", dt, 4, tv, dt, EW_V(0.5, 1, sqrt(2.75), sqrt(6.5)), tol);
    unv("Rsqrt", dt, 4, tv, dt, EW_V(2, 1, 1 / sqrt(2.75), 1 / sqrt(6.5)),
        tol);
    unv("Sin", dt, 4, tv, dt, EW_V(sin(0.25), sin(1), sin(2.75), sin(6.5)),
        tol);
    unv("Cos", dt, 4, tv, dt, EW_V(cos(0.25), cos(1), cos(2.75), cos(6.5)),
        tol);
    unv("Tan", dt, 2, tv, dt, EW_V(tan(0.25), tan(1)), tol);
    unv("Asin", dt, 2, EW_V(0.25, 1), dt, EW_V(asin(0.25), M_PI / 2), tol);
    unv("Acos", dt, 2, EW_V(0.25, 1), dt, EW_V(acos(0.25), 0), tol);
    unv("Atan", dt, 2, tv, dt, EW_V(atan(0.25), M_PI / 4), tol);
    unv("Sinh", dt, 2, tv, dt, EW_V(sinh(0.25), sinh(1)), tol);
    unv("Cosh", dt, 2, tv, dt, EW_V(cosh(0.25), cosh(1)), tol);
    unv("Asinh", dt, 2, tv, dt, EW_V(asinh(0.25), asinh(1)), tol);
    unv("Acosh", dt, 2, EW_V(1, 2.75), dt, EW_V(0, acosh(2.75)), tol);
    unv("Atanh", dt, 2, EW_V(0.25, -0.5), dt, EW_V(atanh(0.25), atanh(-0.5)),
        tol);
    unv("Log1p", dt, 4, tv, dt,
        EW_V(log1p(0.25), log1p(1), log1p(2.75), log1p(6.5)), tol);
    unv("Expm1", dt, 4, tv, dt,
        EW_V(expm1(0.25), expm1(1), expm1(2.75), expm1(6.5)), tol);
    unv("Expm1", dt, 1, EW_V(1e-10), dt, EW_V(1e-10), tol);
    unv("Erf", dt, 4, tv, dt, EW_V(erf(0.25), erf(1), erf(2.75), erf(6.5)),
        tol);
    unv("Erfc", dt, 2, EW_V(0.5, 10), dt, EW_V(erfc(0.5), erfc(10)), tol);
  }
  /* Edges */
  unv("Log", TF_FLOAT, 3, EW_V(0, -1, 1), TF_FLOAT, EW_V(-INFINITY, NAN, 0),
      0);
  unv("Sqrt", TF_FLOAT, 1, EW_V(-1), TF_FLOAT, EW_V(NAN), 0);
  unv("Rsqrt", TF_FLOAT, 2, EW_V(0, -1), TF_FLOAT, EW_V(INFINITY, NAN), 0);
  unv("Tanh", TF_FLOAT, 4, EW_V(-0.5, 0, -2, 30), TF_FLOAT,
      EW_V(tanh(-0.5), 0, tanh(-2), 1), 2e-7);
  unv("Sigmoid", TF_FLOAT, 5, EW_V(-0.5, 0, -3, 30, -20), TF_FLOAT,
      EW_V(1 / (1 + exp(0.5)), 0.5, 1 / (1 + exp(3)), 1, 2.0611536e-09),
      2e-7);
  unv("Sigmoid", TF_DOUBLE, 2, EW_V(-800, 800), TF_DOUBLE, EW_V(0, 1), 0);
  unv("Exp", TF_HALF, 3, EW_V(0, 2, -1), TF_HALF,
      EW_V(1, 7.390625, 0.36791992), 1e-7);
  unv("Exp", TF_BFLOAT16, 1, EW_V(1), TF_BFLOAT16, EW_V(2.71875), 0);
  no_kernel("Exp", 1, TF_INT32);
  no_kernel("Sqrt", 1, TF_INT32);
  no_kernel("Erf", 1, TF_COMPLEX64);
}

TEST(special_functions) {
  unv("Lgamma", TF_FLOAT, 7, EW_V(0, -1, 0.5, -0.5, 3, -INFINITY, INFINITY),
      TF_FLOAT,
      EW_V(INFINITY, INFINITY, 0.5723649429247001, 1.2655121234846454,
           0.6931471805599453, INFINITY, INFINITY),
      2e-7);
  unv("Lgamma", TF_DOUBLE, 1, EW_V(10), TF_DOUBLE, EW_V(12.801827480081469),
      1e-14);
  unv("Lgamma", TF_HALF, 1, EW_V(0.5), TF_HALF, EW_V(0.572265625), 0);
  no_kernel("Lgamma", 1, TF_BFLOAT16);
  unv("Digamma", TF_DOUBLE, 8,
      EW_V(0, -1, 0.5, -0.5, 3, -INFINITY, INFINITY, -0.0), TF_DOUBLE,
      EW_V(NAN, NAN, -1.9635100260214235, 0.03648997397857652,
           0.9227843350984671, NAN, INFINITY, NAN),
      1e-13);
  /* float is evaluated in float, as TF does: TF 2.21's digits */
  unv("Digamma", TF_FLOAT, 3, EW_V(1, 10, -2.5), TF_FLOAT,
      EW_V(-0.5772159099578857, 2.2517526149749756, 1.1031568050384521), 0);
  unv("Digamma", TF_HALF, 1, EW_V(3), TF_HALF, EW_V(0.92285156), 1e-7);
}

TEST(float_classification) {
  int i;
  for (i = 0; i < NCASES(kFloats); i++) {
    TF_DataType dt = kFloats[i].dt;
    unv("IsNan", dt, 4, EW_V(NAN, 1, INFINITY, -INFINITY), TF_BOOL,
        EW_V(1, 0, 0, 0), 0);
    unv("IsInf", dt, 4, EW_V(NAN, -INFINITY, 1, INFINITY), TF_BOOL,
        EW_V(0, 1, 0, 1), 0);
    unv("IsFinite", dt, 4, EW_V(NAN, INFINITY, 1, -0.0), TF_BOOL,
        EW_V(0, 0, 1, 1), 0);
  }
  no_kernel("IsNan", 1, TF_INT32);
}

TEST(complex_unary_ops) {
  const float* r;
  ew_begin();
  EW_OK(ew_run("Sqrt", 1, ew_c64(2, EW_V_F(-4, 0, 3, 4))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(r[0] == 0 && r[1] == 2 && r[2] == 2 && r[3] == 1);
  EW_OK(ew_run("Rsqrt", 1, ew_c64(1, EW_V_F(-4, 0))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(r[0] == 0 && r[1] == -0.5f);
  EW_OK(ew_run("Sign", 1, ew_c64(2, EW_V_F(3, 4, 0, 0))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(fabsf(r[0] - 0.6f) < 1e-7f && fabsf(r[1] - 0.8f) < 1e-7f);
  CHECK(r[2] == 0 && r[3] == 0);
  EW_OK(ew_run("Reciprocal", 1, ew_c64(2, EW_V_F(1, 1, 0, 0))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(r[0] == 0.5f && r[1] == -0.5f && isinf(r[2]) && isnan(r[3]));
  EW_OK(ew_run("Square", 1, ew_c64(1, EW_V_F(1, 2))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(r[0] == -3 && r[1] == 4);
  EW_OK(ew_run("Neg", 1, ew_c64(1, EW_V_F(1, -2))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(r[0] == -1 && r[1] == 2);
  EW_OK(ew_run("Exp", 1, ew_c64(1, EW_V_F(1, 1))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(fabsf(r[0] - 1.4686939f) < 1e-6f && fabsf(r[1] - 2.2873552f) < 1e-6f);
  EW_OK(ew_run("Log", 1, ew_c64(1, EW_V_F(-1, 0))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(r[0] == 0 && fabsf(r[1] - (float)M_PI) < 1e-6f);
  EW_OK(ew_run("Tanh", 1, ew_c64(1, EW_V_F(1, 1))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(fabsf(r[0] - 1.0839232f) < 1e-6f && fabsf(r[1] - 0.27175257f) < 1e-6f);
  EW_OK(ew_run("Sigmoid", 1, ew_c64(1, EW_V_F(1, 1))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(fabsf(r[0] - 0.78204155f) < 1e-6f && fabsf(r[1] - 0.20194823f) < 1e-6f);
  /* log1p / expm1 stay accurate near zero */
  EW_OK(ew_run("Log1p", 1, ew_c64(1, EW_V_F(1e-8f, 1e-8f))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(fabsf(r[0] - 1e-8f) < 1e-14f && fabsf(r[1] - 1e-8f) < 1e-14f);
  EW_OK(ew_run("Expm1", 1, ew_c64(1, EW_V_F(1e-8f, 1e-8f))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(fabsf(r[0] - 1e-8f) < 1e-14f && fabsf(r[1] - 1e-8f) < 1e-14f);
  EW_OK(ew_run("Asinh", 1, ew_c64(1, EW_V_F(1, 1))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(fabsf(r[0] - 1.0612751f) < 1e-6f && fabsf(r[1] - 0.66623944f) < 1e-6f);
  ew_drop();
  no_kernel("Abs", 1, TF_COMPLEX64);
}

/* ========================================================= activations */

TEST(relu6_and_leaky_relu) {
  unv("Relu6", TF_FLOAT, 5, EW_V(-1, 3, 6, 9, NAN), TF_FLOAT,
      EW_V(0, 3, 6, 6, NAN), 0);
  unv("Relu6", TF_HALF, 2, EW_V(7, -1), TF_HALF, EW_V(6, 0), 0);
  unv("Relu6", TF_UINT8, 2, EW_V(10, 5), TF_UINT8, EW_V(6, 5), 0);
  unv("Relu6", TF_INT64, 3, EW_V(-10, 5, 10), TF_INT64, EW_V(0, 5, 6), 0);
  /* default alpha 0.2 */
  unv("LeakyRelu", TF_FLOAT, 3, EW_V(-10, 0, 10), TF_FLOAT,
      EW_V(-2, 0, 10), 1e-7);
  ew_begin();
  EW_OK(ew_run("LeakyRelu", 1, ew_vec(TF_FLOAT, 2, EW_V(NAN, -0.0))));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_FLOAT, 2, EW_V(NAN, -0.0));
  /* alpha below 0 or above 1: "x > 0 ? x : alpha * x", not a max */
  ew_attr_float("alpha", -0.5f);
  EW_OK(ew_run("LeakyRelu", 1, ew_vec(TF_FLOAT, 2, EW_V(-10, 5))));
  EW_EXPECT_VEC(ew_out[0], TF_FLOAT, 2, EW_V(5, 5));
  ew_attr_float("alpha", 2.0f);
  EW_OK(ew_run("LeakyRelu", 1, ew_vec(TF_DOUBLE, 2, EW_V(-10, 5))));
  EW_EXPECT_VEC(ew_out[0], TF_DOUBLE, 2, EW_V(-20, 5));
  /* half: alpha is rounded to half first (0.2 -> 0.199951171875) */
  EW_OK(ew_run("LeakyRelu", 1, ew_vec(TF_HALF, 1, EW_V(-1024))));
  EW_EXPECT_VEC(ew_out[0], TF_HALF, 1, EW_V(-204.75));
  /* a wrongly typed alpha */
  ew_attr_int("alpha", 3);
  EW_ERR(ew_run("LeakyRelu", 1, ew_vec(TF_FLOAT, 1, EW_V(-1))),
         TF_INVALID_ARGUMENT, "alpha");
  ew_drop();
}

TEST(elu_selu_softplus_softsign) {
  unv("Elu", TF_FLOAT, 5, EW_V(-1, 2, NAN, -INFINITY, 0.25), TF_FLOAT,
      EW_V(expm1(-1), 2, NAN, -1, 0.25), 2e-7);
  unv("Elu", TF_DOUBLE, 2, EW_V(-1, 2), TF_DOUBLE, EW_V(expm1(-1), 2), 1e-15);
  ew_begin();
  EW_OK(ew_run("Elu", 1, ew_vec(TF_FLOAT, 1, EW_V(-0.0))));
  EW_EXPECT_VEC_SIGNED(ew_out[0], TF_FLOAT, 1, EW_V(-0.0));
  ew_drop();
  unv("Selu", TF_FLOAT, 3, EW_V(-1, 0, 2), TF_FLOAT,
      EW_V(-1.1113307, 0, 2.101402), 2e-7);
  /* half works in half: scale and scale*alpha rounded, every step too */
  unv("Selu", TF_HALF, 2, EW_V(-1, 2), TF_HALF, EW_V(-1.1103515625, 2.1015625),
      0);
  unv("Selu", TF_BFLOAT16, 1, EW_V(7), TF_BFLOAT16, EW_V(7.3125), 0);
  /* Softplus switches to x / exp(x) past log(eps) + 2, as TF does. */
  unv("Softplus", TF_FLOAT, 8, EW_V(-100, -20, 20, 100, 0, 1, -15, 15),
      TF_FLOAT,
      EW_V(exp(-100.0), exp(-20.0), 20, 100, log(2.0), log1p(exp(1.0)),
           exp(-15.0), 15),
      2e-7);
  unv("Softplus", TF_DOUBLE, 4, EW_V(-100, -40, 40, 0), TF_DOUBLE,
      EW_V(exp(-100.0), exp(-40.0), 40, log(2.0)), 1e-15);
  unv("Softplus", TF_HALF, 3, EW_V(-20, 0, 20), TF_HALF,
      EW_V(0, 0.69335938, 20), 1e-7);
  unv("Softsign", TF_FLOAT, 3, EW_V(-3, 0, 1), TF_FLOAT, EW_V(-0.75, 0, 0.5),
      0);
  unv("Softsign", TF_BFLOAT16, 2, EW_V(-3, 1), TF_BFLOAT16, EW_V(-0.75, 0.5),
      0);
  no_kernel("Elu", 1, TF_INT32);
  no_kernel("Softplus", 1, TF_INT32);
}

/* ========================================================== comparisons */

TEST(comparisons_over_dtypes) {
  static const char* const ops[6] = {"Equal", "NotEqual", "Less",
                                     "LessEqual", "Greater", "GreaterEqual"};
  static const double want_f[6][6] = {{0, 1, 0, 0, 0, 0}, {1, 0, 1, 1, 1, 1},
                                      {1, 0, 1, 0, 0, 1}, {1, 1, 1, 0, 0, 1},
                                      {0, 0, 0, 1, 1, 0}, {0, 1, 0, 1, 1, 0}};
  static const double want_s[6][4] = {{0, 0, 1, 0}, {1, 1, 0, 1},
                                      {1, 1, 0, 0}, {1, 1, 1, 0},
                                      {0, 0, 0, 1}, {0, 0, 1, 1}};
  const dtype_case* groups[3] = {kSigned, kUnsigned, kFloats};
  int o, g, i;
  for (o = 0; o < 6; o++) {
    for (g = 0; g < 3; g++) {
      for (i = 0; i < 4; i++) {
        TF_DataType dt = groups[g][i].dt;
        ew_begin();
        EW_OK(ew_run(ops[o], 2,
                     ew_t(dt, EW_DIMS(2, 3), 2, EW_V(1, 2, 3, 4, 5, 6)),
                     ew_vec(dt, 3, EW_V(2, 2, 7))));
        EW_EXPECT(ew_out[0], TF_BOOL, EW_DIMS(2, 3), 2, want_f[o]);
      }
    }
    ew_begin();
    EW_OK(ew_run(ops[o], 2, ew_vec(TF_INT32, 4, EW_V(-1, 0, 1, 2)),
                 ew_scalar(TF_INT32, 1)));
    EW_EXPECT_VEC(ew_out[0], TF_BOOL, 4, want_s[o]);
    ew_drop();
  }
}

TEST(comparisons_with_nan_bool_complex_and_strings) {
  binv("Equal", TF_FLOAT, 3, EW_V(NAN, 1, INFINITY), EW_V(NAN, 1, INFINITY),
       TF_BOOL, EW_V(0, 1, 1), 0);
  binv("NotEqual", TF_FLOAT, 2, EW_V(NAN, 0), EW_V(NAN, -0.0), TF_BOOL,
       EW_V(1, 0), 0);
  binv("Less", TF_FLOAT, 2, EW_V(NAN, 1), EW_V(1, NAN), TF_BOOL, EW_V(0, 0),
       0);
  binv("GreaterEqual", TF_HALF, 2, EW_V(NAN, 1), EW_V(NAN, 1), TF_BOOL,
       EW_V(0, 1), 0);
  binv("Equal", TF_BOOL, 4, EW_V(1, 1, 0, 0), EW_V(1, 0, 1, 0), TF_BOOL,
       EW_V(1, 0, 0, 1), 0);
  binv("NotEqual", TF_BOOL, 4, EW_V(1, 1, 0, 0), EW_V(1, 0, 1, 0), TF_BOOL,
       EW_V(0, 1, 1, 0), 0);
  binv("Equal", TF_QINT8, 2, EW_V(3, 4), EW_V(3, 5), TF_BOOL, EW_V(1, 0), 0);
  binv("Equal", TF_UINT64, 2, EW_V(5, 6), EW_V(5, 7), TF_BOOL, EW_V(1, 0), 0);
  ew_begin();
  EW_OK(ew_run("Equal", 2, ew_c64(2, EW_V_F(1, 1, 1, 2)),
               ew_c64(2, EW_V_F(1, 1, 1, 3))));
  EW_EXPECT_VEC(ew_out[0], TF_BOOL, 2, EW_V(1, 0));
  {
    static const char* const s1[3] = {"a", "bb", "a string longer than 24"};
    static const char* const s2[3] = {"a", "BB", "a string longer than 24"};
    static const char* const one[1] = {"a"};
    EW_OK(ew_run("Equal", 2, ew_strs(EW_DIMS(3), 1, s1),
                 ew_strs(EW_DIMS(3), 1, s2)));
    EW_EXPECT_VEC(ew_out[0], TF_BOOL, 3, EW_V(1, 0, 1));
    EW_OK(ew_run("NotEqual", 2, ew_strs(EW_DIMS(3), 1, s1),
                 ew_strs(NULL, 0, one)));
    EW_EXPECT_VEC(ew_out[0], TF_BOOL, 3, EW_V(0, 1, 1));
  }
  ew_drop();
  no_kernel("Less", 2, TF_COMPLEX64);
  no_kernel("Less", 2, TF_BOOL);
  no_kernel("Greater", 2, TF_STRING);
}

TEST(equality_without_shape_errors) {
  ew_begin();
  ew_attr_bool("incompatible_shape_error", 0);
  EW_OK(ew_run("Equal", 2, ew_vec(TF_INT32, 2, EW_V(1, 2)),
               ew_vec(TF_INT32, 3, EW_V(1, 2, 3))));
  EW_EXPECT(ew_out[0], TF_BOOL, NULL, 0, EW_V(0));
  ew_attr_bool("incompatible_shape_error", 0);
  EW_OK(ew_run("NotEqual", 2, ew_vec(TF_INT32, 2, EW_V(1, 2)),
               ew_vec(TF_INT32, 3, EW_V(1, 2, 3))));
  EW_EXPECT(ew_out[0], TF_BOOL, NULL, 0, EW_V(1));
  /* Compatible shapes still compare elementwise. */
  ew_attr_bool("incompatible_shape_error", 0);
  EW_OK(ew_run("Equal", 2, ew_vec(TF_INT32, 2, EW_V(1, 2)),
               ew_scalar(TF_INT32, 2)));
  EW_EXPECT_VEC(ew_out[0], TF_BOOL, 2, EW_V(0, 1));
  /* Default: an error. */
  EW_ERR(ew_run("NotEqual", 2, ew_vec(TF_INT32, 2, EW_V(1, 2)),
                ew_vec(TF_INT32, 3, EW_V(1, 2, 3))),
         TF_INVALID_ARGUMENT, "Incompatible shapes: [2] vs. [3]");
  ew_drop();
}

TEST(logical_ops) {
  ew_begin();
  EW_OK(ew_run("LogicalAnd", 2, ew_vec(TF_BOOL, 4, EW_V(1, 1, 0, 0)),
               ew_vec(TF_BOOL, 4, EW_V(1, 0, 1, 0))));
  EW_EXPECT_VEC(ew_out[0], TF_BOOL, 4, EW_V(1, 0, 0, 0));
  EW_OK(ew_run("LogicalOr", 2, ew_vec(TF_BOOL, 4, EW_V(1, 1, 0, 0)),
               ew_vec(TF_BOOL, 4, EW_V(1, 0, 1, 0))));
  EW_EXPECT_VEC(ew_out[0], TF_BOOL, 4, EW_V(1, 1, 1, 0));
  EW_OK(ew_run("LogicalAnd", 2, ew_t(TF_BOOL, EW_DIMS(2, 2), 2, EW_V(1, 1, 0, 1)),
               ew_scalar(TF_BOOL, 1)));
  EW_EXPECT(ew_out[0], TF_BOOL, EW_DIMS(2, 2), 2, EW_V(1, 1, 0, 1));
  EW_OK(ew_run("LogicalOr", 2, ew_t(TF_BOOL, EW_DIMS(2, 1), 2, EW_V(1, 0)),
               ew_vec(TF_BOOL, 2, EW_V(0, 1))));
  EW_EXPECT(ew_out[0], TF_BOOL, EW_DIMS(2, 2), 2, EW_V(1, 1, 0, 1));
  EW_OK(ew_run("LogicalNot", 1, ew_vec(TF_BOOL, 3, EW_V(1, 0, 1))));
  EW_EXPECT_VEC(ew_out[0], TF_BOOL, 3, EW_V(0, 1, 0));
  /* Any nonzero byte counts as true; results are 0/1. */
  {
    const uint8_t odd[2] = {2, 0};
    int64_t two = 2;
    EW_OK(ew_run("LogicalNot", 1, ew_raw(TF_BOOL, &two, 1, odd)));
    EW_EXPECT_VEC(ew_out[0], TF_BOOL, 2, EW_V(0, 1));
    EW_OK(ew_run("LogicalAnd", 2, ew_raw(TF_BOOL, &two, 1, odd),
                 ew_vec(TF_BOOL, 2, EW_V(1, 1))));
    EW_EXPECT_VEC(ew_out[0], TF_BOOL, 2, EW_V(1, 0));
  }
  EW_ERR(ew_run("LogicalOr", 2, ew_vec(TF_BOOL, 2, EW_V(1, 0)),
                ew_vec(TF_BOOL, 3, EW_V(0, 1, 1))),
         TF_INVALID_ARGUMENT, "Incompatible shapes: [2] vs. [3]");
  ew_drop();
}

/* ======================================================== bitwise ops */

TEST(bitwise_ops) {
  int i;
  for (i = 0; i < NCASES(kSigned); i++) {
    TF_DataType dt = kSigned[i].dt;
    binv("BitwiseAnd", dt, 3, EW_V(12, -1, 5), EW_V(10, 6, 0), dt,
         EW_V(8, 6, 0), 0);
    binv("BitwiseOr", dt, 3, EW_V(12, -8, 5), EW_V(10, 1, 0), dt,
         EW_V(14, -7, 5), 0);
    binv("BitwiseXor", dt, 3, EW_V(12, -1, 5), EW_V(10, 1, 5), dt,
         EW_V(6, -2, 0), 0);
    unv("Invert", dt, 3, EW_V(0, 5, -1), dt, EW_V(-1, -6, 0), 0);
  }
  for (i = 0; i < NCASES(kUnsigned); i++) {
    TF_DataType dt = kUnsigned[i].dt;
    binv("BitwiseAnd", dt, 2, EW_V(12, 255), EW_V(10, 15), dt, EW_V(8, 15), 0);
    binv("BitwiseXor", dt, 1, EW_V(12), EW_V(10), dt, EW_V(6), 0);
  }
  unv("Invert", TF_UINT8, 2, EW_V(0, 5), TF_UINT8, EW_V(255, 250), 0);
  unv("Invert", TF_UINT16, 1, EW_V(0), TF_UINT16, EW_V(65535), 0);
  no_kernel("BitwiseAnd", 2, TF_FLOAT);
  no_kernel("Invert", 1, TF_BOOL);
}

TEST(shifts_clamp_the_amount) {
  binv("LeftShift", TF_INT32, 5, EW_V(1, 1, 1, 1, -1), EW_V(0, 31, 32, -1, 33),
       TF_INT32, EW_V(1, -2147483648.0, -2147483648.0, 1, -2147483648.0), 0);
  binv("RightShift", TF_INT32, 5, EW_V(-8, -8, 8, 8, -8),
       EW_V(1, 31, 32, -1, 40), TF_INT32, EW_V(-4, -1, 0, 8, -1), 0);
  binv("LeftShift", TF_UINT8, 3, EW_V(1, 1, 1), EW_V(7, 8, 200), TF_UINT8,
       EW_V(128, 128, 128), 0);
  binv("RightShift", TF_UINT8, 2, EW_V(255, 255), EW_V(7, 9), TF_UINT8,
       EW_V(1, 1), 0);
  binv("LeftShift", TF_INT8, 3, EW_V(1, 1, -1), EW_V(7, 8, -3), TF_INT8,
       EW_V(-128, -128, -1), 0);
  binv("RightShift", TF_INT8, 3, EW_V(-128, -128, 64), EW_V(7, 9, -1), TF_INT8,
       EW_V(-1, -1, 64), 0);
  binv("LeftShift", TF_INT64, 1, EW_V(3), EW_V(40), TF_INT64,
       EW_V(3298534883328.0), 0);
  binv("RightShift", TF_UINT64, 1, EW_V(1024), EW_V(64), TF_UINT64, EW_V(0), 0);
}

/* ============================================================= select */

TEST(select_modes) {
  ew_begin();
  /* elementwise */
  EW_OK(ew_run("Select", 3, ew_t(TF_BOOL, EW_DIMS(2, 2), 2, EW_V(1, 0, 0, 1)),
               ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(1, 2, 3, 4)),
               ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(-1, -2, -3, -4))));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(1, -2, -3, 4));
  /* vector condition picks rows */
  EW_OK(ew_run("Select", 3, ew_vec(TF_BOOL, 2, EW_V(0, 1)),
               ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(1, 2, 3, 4)),
               ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(-1, -2, -3, -4))));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(-1, -2, 3, 4));
  EW_OK(ew_run("Select", 3, ew_vec(TF_BOOL, 2, EW_V(1, 0)),
               ew_t(TF_INT64, EW_DIMS(2, 2, 2), 3, EW_V(1, 1, 1, 1, 1, 1, 1, 1)),
               ew_t(TF_INT64, EW_DIMS(2, 2, 2), 3, EW_V(0, 0, 0, 0, 0, 0, 0, 0))));
  EW_EXPECT(ew_out[0], TF_INT64, EW_DIMS(2, 2, 2), 3,
            EW_V(1, 1, 1, 1, 0, 0, 0, 0));
  /* vector condition with vectors: elementwise */
  EW_OK(ew_run("Select", 3, ew_vec(TF_BOOL, 3, EW_V(1, 0, 1)),
               ew_vec(TF_INT8, 3, EW_V(1, 2, 3)),
               ew_vec(TF_INT8, 3, EW_V(4, 5, 6))));
  EW_EXPECT_VEC(ew_out[0], TF_INT8, 3, EW_V(1, 5, 3));
  /* scalar condition picks a whole operand (shared, not copied) */
  {
    TF_Tensor* t = ew_vec(TF_DOUBLE, 2, EW_V(1, 2));
    void* data = TF_TensorData(t);
    EW_OK(ew_run("Select", 3, ew_scalar(TF_BOOL, 1), t,
                 ew_vec(TF_DOUBLE, 2, EW_V(3, 4))));
    EW_EXPECT_VEC(ew_out[0], TF_DOUBLE, 2, EW_V(1, 2));
    CHECK(TF_TensorData(ew_out[0]) == data);
  }
  EW_OK(ew_run("Select", 3, ew_scalar(TF_BOOL, 0), ew_scalar(TF_HALF, 1),
               ew_scalar(TF_HALF, 3)));
  EW_EXPECT(ew_out[0], TF_HALF, NULL, 0, EW_V(3));
  /* empty */
  EW_OK(ew_run("Select", 3, ew_vec(TF_BOOL, 0, EW_V(0)),
               ew_t(TF_FLOAT, EW_DIMS(0, 2), 2, EW_V(0)),
               ew_t(TF_FLOAT, EW_DIMS(0, 2), 2, EW_V(0))));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(0, 2), 2, EW_V(0));
  /* 16-byte elements */
  EW_OK(ew_run("Select", 3, ew_vec(TF_BOOL, 2, EW_V(0, 1)),
               ew_vec(TF_COMPLEX128, 2, EW_V(1, 2)),
               ew_vec(TF_COMPLEX128, 2, EW_V(3, 4))));
  EW_EXPECT_VEC(ew_out[0], TF_COMPLEX128, 2, EW_V(3, 2));
  ew_drop();
}

TEST(select_errors) {
  static const double z4[4] = {0};
  ew_begin();
  EW_ERR(ew_run("Select", 3, ew_vec(TF_BOOL, 3, EW_V(1, 0, 1)),
                ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, z4),
                ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, z4)),
         TF_INVALID_ARGUMENT,
         "Number of batches of 'then' must match size of 'cond', but saw: 2 "
         "vs. 3");
  EW_ERR(ew_run("Select", 3, ew_vec(TF_BOOL, 2, EW_V(1, 0)),
                ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, z4),
                ew_t(TF_FLOAT, EW_DIMS(2, 1), 2, z4)),
         TF_INVALID_ARGUMENT,
         "'then' and 'else' must have the same size.  but received: [2,2] "
         "vs. [2,1]");
  EW_ERR(ew_run("Select", 3, ew_t(TF_BOOL, EW_DIMS(1, 2), 2, EW_V(1, 0)),
                ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, z4),
                ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, z4)),
         TF_INVALID_ARGUMENT,
         "Inputs to operation Select of type Select must have the same size "
         "and shape.  Input 0: [1,2] != input 1: [2,2]");
  EW_ERR(ew_run("Select", 3, ew_vec(TF_BOOL, 1, EW_V(1)),
                ew_scalar(TF_FLOAT, 1), ew_scalar(TF_FLOAT, 3)),
         TF_INVALID_ARGUMENT,
         "'then' must be at least a vector, but saw shape: []");
  EW_ERR(ew_run("Select", 3, ew_scalar(TF_BOOL, 1),
                ew_vec(TF_FLOAT, 2, EW_V(1, 2)), ew_vec(TF_FLOAT, 1, EW_V(1))),
         TF_INVALID_ARGUMENT, "'then' and 'else' must have the same size.");
  EW_ERR(ew_run("SelectV2", 3, ew_vec(TF_BOOL, 3, EW_V(1, 0, 1)),
                ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, z4),
                ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, z4)),
         TF_INVALID_ARGUMENT,
         "condition [3], then [2,2], and else [2,2] must be broadcastable");
}

TEST(select_v2_broadcasts_all_three) {
  ew_begin();
  EW_OK(ew_run("SelectV2", 3, ew_vec(TF_BOOL, 2, EW_V(1, 0)),
               ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(1, 2, 3, 4)),
               ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(-1, -2, -3, -4))));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(1, -2, 3, -4));
  EW_OK(ew_run("SelectV2", 3, ew_scalar(TF_BOOL, 1),
               ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(1, 2, 3, 4)),
               ew_scalar(TF_FLOAT, 0)));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(1, 2, 3, 4));
  EW_OK(ew_run("SelectV2", 3, ew_t(TF_BOOL, EW_DIMS(2, 2), 2, EW_V(0, 1, 1, 0)),
               ew_t(TF_INT32, EW_DIMS(2, 2), 2, EW_V(1, 2, 3, 4)),
               ew_vec(TF_INT32, 1, EW_V(9))));
  EW_EXPECT(ew_out[0], TF_INT32, EW_DIMS(2, 2), 2, EW_V(9, 2, 3, 9));
  /* condition [2,1], then [3], else [2,3] -> [2,3] */
  EW_OK(ew_run("SelectV2", 3, ew_t(TF_BOOL, EW_DIMS(2, 1), 2, EW_V(1, 0)),
               ew_vec(TF_INT16, 3, EW_V(1, 2, 3)),
               ew_t(TF_INT16, EW_DIMS(2, 3), 2, EW_V(4, 5, 6, 7, 8, 9))));
  EW_EXPECT(ew_out[0], TF_INT16, EW_DIMS(2, 3), 2, EW_V(1, 2, 3, 7, 8, 9));
  /* the output takes the broadcast of all three shapes */
  EW_OK(ew_run("SelectV2", 3, ew_t(TF_BOOL, EW_DIMS(3, 1, 1), 3, EW_V(1, 0, 1)),
               ew_scalar(TF_UINT8, 1), ew_t(TF_UINT8, EW_DIMS(1, 2), 2, EW_V(5, 6))));
  EW_EXPECT(ew_out[0], TF_UINT8, EW_DIMS(3, 1, 2), 3, EW_V(1, 1, 5, 6, 1, 1));
  /* zero-sized */
  EW_OK(ew_run("SelectV2", 3, ew_vec(TF_BOOL, 0, EW_V(0)), ew_scalar(TF_FLOAT, 1),
               ew_scalar(TF_FLOAT, 2)));
  EW_EXPECT_VEC(ew_out[0], TF_FLOAT, 0, EW_V(0));
  ew_drop();
}

TEST(select_on_strings) {
  static const char* const t[2] = {"a", "a long string, well past 24 bytes"};
  static const char* const e[2] = {"c", "d"};
  static const char* const one[1] = {"only"};
  const TF_TString* r;
  ew_begin();
  EW_OK(ew_run("Select", 3, ew_vec(TF_BOOL, 2, EW_V(0, 1)),
               ew_strs(EW_DIMS(2), 1, t), ew_strs(EW_DIMS(2), 1, e)));
  r = (const TF_TString*)TF_TensorData(ew_out[0]);
  CHECK_EQ_SIZE(TF_StringGetSize(&r[0]), 1);
  CHECK(memcmp(TF_StringGetDataPointer(&r[0]), "c", 1) == 0);
  CHECK_EQ_SIZE(TF_StringGetSize(&r[1]), strlen(t[1]));
  CHECK(memcmp(TF_StringGetDataPointer(&r[1]), t[1], strlen(t[1])) == 0);
  EW_OK(ew_run("SelectV2", 3, ew_vec(TF_BOOL, 2, EW_V(1, 0)),
               ew_strs(EW_DIMS(2), 1, t), ew_strs(NULL, 0, one)));
  r = (const TF_TString*)TF_TensorData(ew_out[0]);
  CHECK(memcmp(TF_StringGetDataPointer(&r[0]), "a", 1) == 0);
  CHECK_EQ_SIZE(TF_StringGetSize(&r[1]), 4);
  CHECK(memcmp(TF_StringGetDataPointer(&r[1]), "only", 4) == 0);
  ew_drop();
}

/* =============================================================== cast */

static void cast_case(TF_DataType src, TF_DataType dst, int n,
                      const double* in, const double* want, int truncate) {
  ew_begin();
  ew_attr_type("DstT", dst);
  if (truncate) ew_attr_bool("Truncate", 1);
  if (ew_run("Cast", 1, ew_vec(src, n, in)) != 1) {
    TFE_FAIL("Cast %d -> %d: %s", (int)src, (int)dst, TF_Message(ew_status));
  }
  EW_EXPECT_VEC(ew_out[0], dst, n, want);
  ew_drop();
}

TEST(cast_float_to_integers) {
  static const double v[12] = {NAN,  INFINITY, -INFINITY, 3e9,  -3e9, 2.5,
                               -2.5, 1e20,     255.9,     256.0, -1.0, 131008};
  cast_case(TF_FLOAT, TF_INT32, 6, EW_V(1.9, -1.9, 0.5, -0.5, 100, 0),
            EW_V(1, -1, 0, 0, 100, 0), 0);
  cast_case(TF_FLOAT, TF_INT64, 3, EW_V(3.99, -3.99, 1e10),
            EW_V(3, -3, 1e10), 0);
  cast_case(TF_FLOAT, TF_INT32, 2, EW_V(2.7, -2.7), EW_V(2, -2), 1);
  /* NaN and out-of-range values: TF's x86 results */
  cast_case(TF_FLOAT, TF_INT32, 12, v,
            EW_V(-2147483648.0, -2147483648.0, -2147483648.0, -2147483648.0,
                 -2147483648.0, 2, -2, -2147483648.0, 255, 256, -1, 131008),
            0);
  cast_case(TF_DOUBLE, TF_INT32, 12, v,
            EW_V(-2147483648.0, -2147483648.0, -2147483648.0, -2147483648.0,
                 -2147483648.0, 2, -2, -2147483648.0, 255, 256, -1, 131008),
            0);
  cast_case(TF_FLOAT, TF_UINT8, 12, v,
            EW_V(0, 0, 0, 0, 0, 2, 254, 0, 255, 0, 255, 192), 0);
  cast_case(TF_FLOAT, TF_INT8, 12, v,
            EW_V(0, 0, 0, 0, 0, 2, -2, 0, -1, 0, -1, -64), 0);
  cast_case(TF_FLOAT, TF_INT16, 12, v,
            EW_V(0, 0, 0, 0, 0, 2, -2, 0, 255, 256, -1, -64), 0);
  cast_case(TF_FLOAT, TF_UINT16, 12, v,
            EW_V(0, 0, 0, 0, 0, 2, 65534, 0, 255, 256, 65535, 65472), 0);
  /* uint32 keeps the low bits of the int64 conversion */
  cast_case(TF_FLOAT, TF_UINT32, 12, v,
            EW_V(0, 0, 0, 3e9, 1294967296.0, 2, 4294967294.0, 0, 255, 256,
                 4294967295.0, 131008),
            0);
  cast_case(TF_DOUBLE, TF_UINT32, 2, EW_V(5e9, -3e9),
            EW_V(705032704.0, 1294967296.0), 0);
  cast_case(TF_HALF, TF_INT32, 3, EW_V(NAN, INFINITY, -3.5),
            EW_V(-2147483648.0, -2147483648.0, -3), 0);
  cast_case(TF_BFLOAT16, TF_INT32, 3, EW_V(NAN, INFINITY, -3.5),
            EW_V(-2147483648.0, -2147483648.0, -3), 0);
  cast_case(TF_HALF, TF_UINT8, 2, EW_V(300, -3.5), EW_V(44, 253), 0);
  {
    /* 64-bit targets checked bit for bit */
    int64_t four = 4;
    const uint64_t want_u64[4] = {0x8000000000000000ull, 0xffffffffffffffffull,
                                  18000000404716257280ull,
                                  0x8000000000000000ull};
    const int64_t want_i64[3] = {INT64_MIN, INT64_MIN, 3000000000};
    int i;
    ew_begin();
    ew_attr_type("DstT", TF_UINT64);
    EW_OK(ew_run("Cast", 1,
                 ew_vec(TF_FLOAT, 4, EW_V(NAN, -1.0, 1.8e19, 2e19))));
    for (i = 0; i < 4; i++) CHECK(ew_u64_at(ew_out[0], i) == want_u64[i]);
    (void)four;
    ew_attr_type("DstT", TF_INT64);
    EW_OK(ew_run("Cast", 1, ew_vec(TF_DOUBLE, 3, EW_V(NAN, 1e300, 3e9))));
    for (i = 0; i < 3; i++) {
      CHECK(((const int64_t*)TF_TensorData(ew_out[0]))[i] == want_i64[i]);
    }
    ew_drop();
  }
}

TEST(cast_integers_and_bools) {
  cast_case(TF_INT32, TF_FLOAT, 3, EW_V(-5, 0, 16777217), EW_V(-5, 0, 16777216),
            0);
  cast_case(TF_INT64, TF_INT32, 3, EW_V(4294967297.0, -1, 2147483648.0),
            EW_V(1, -1, -2147483648.0), 0);
  cast_case(TF_INT32, TF_UINT8, 3, EW_V(256, 257, -1), EW_V(0, 1, 255), 0);
  cast_case(TF_INT32, TF_INT64, 2, EW_V(-2147483648.0, 7),
            EW_V(-2147483648.0, 7), 0);
  cast_case(TF_UINT8, TF_INT32, 2, EW_V(255, 0), EW_V(255, 0), 0);
  cast_case(TF_INT8, TF_UINT64, 1, EW_V(-1), EW_V(18446744073709551615.0), 0);
  {
    const uint64_t big[2] = {0xffffffffffffffffull, 300};
    int64_t two = 2;
    ew_begin();
    ew_attr_type("DstT", TF_INT8);
    EW_OK(ew_run("Cast", 1, ew_raw(TF_UINT64, &two, 1, big)));
    EW_EXPECT_VEC(ew_out[0], TF_INT8, 2, EW_V(-1, 44));
    ew_attr_type("DstT", TF_FLOAT);
    EW_OK(ew_run("Cast", 1, ew_raw(TF_UINT64, &two, 1, big)));
    EW_EXPECT_VEC(ew_out[0], TF_FLOAT, 2, EW_V(18446744073709551616.0, 300));
    ew_drop();
  }
  cast_case(TF_INT32, TF_UINT32, 1, EW_V(-1), EW_V(4294967295.0), 0);
  cast_case(TF_BOOL, TF_FLOAT, 2, EW_V(1, 0), EW_V(1, 0), 0);
  cast_case(TF_BOOL, TF_INT32, 2, EW_V(1, 0), EW_V(1, 0), 0);
  cast_case(TF_BOOL, TF_HALF, 2, EW_V(1, 0), EW_V(1, 0), 0);
  cast_case(TF_INT32, TF_BOOL, 3, EW_V(0, 5, -1), EW_V(0, 1, 1), 0);
  cast_case(TF_FLOAT, TF_BOOL, 5, EW_V(0, 0.1, -2, -0.0, NAN),
            EW_V(0, 1, 1, 0, 1), 0);
  cast_case(TF_INT32, TF_INT32, 2, EW_V(3, 4), EW_V(3, 4), 0);
  /* quantized types cast like their plain integer types */
  cast_case(TF_FLOAT, TF_QINT8, 2, EW_V(1.5, -3.7), EW_V(1, -3), 0);
  cast_case(TF_INT32, TF_QUINT8, 1, EW_V(257), EW_V(1), 0);
  cast_case(TF_QINT32, TF_INT32, 1, EW_V(-9), EW_V(-9), 0);
  cast_case(TF_QINT16, TF_DOUBLE, 1, EW_V(-9), EW_V(-9), 0);
}

TEST(cast_between_floating_types) {
  cast_case(TF_FLOAT, TF_HALF, 3, EW_V(1.5, -0.25, 65504),
            EW_V(1.5, -0.25, 65504), 0);
  cast_case(TF_HALF, TF_FLOAT, 2, EW_V(0.5, -3), EW_V(0.5, -3), 0);
  cast_case(TF_DOUBLE, TF_FLOAT, 2, EW_V(0.1, 1e40),
            EW_V((double)0.1f, INFINITY), 0);
  cast_case(TF_FLOAT, TF_BFLOAT16, 2, EW_V(1.5, -2), EW_V(1.5, -2), 0);
  cast_case(TF_FLOAT, TF_DOUBLE, 2, EW_V(0.5, -8), EW_V(0.5, -8), 0);
  /* rounding to nearest even, overflow to inf */
  cast_case(TF_FLOAT, TF_HALF, 7,
            EW_V(1 + 1.0 / 2048, 1 + 3.0 / 2048, 65520, 65519, 1e-8, 6e-8,
                 NAN),
            EW_V(1, 1 + 2.0 / 1024, INFINITY, 65504, 0, 5.9604644775390625e-08,
                 NAN),
            0);
  cast_case(TF_FLOAT, TF_BFLOAT16, 5,
            EW_V(1 + 1.0 / 256, 1 + 3.0 / 256, 3.4e38, NAN, 3e9),
            EW_V(1, 1 + 2.0 / 128, INFINITY, NAN, 3003121664.0), 0);
  /* Truncate=true chops instead */
  cast_case(TF_FLOAT, TF_HALF, 3, EW_V(1 + 3.0 / 2048, 65520, 1e20),
            EW_V(1 + 1.0 / 1024, 65504, INFINITY), 1);
  cast_case(TF_FLOAT, TF_BFLOAT16, 3, EW_V(1 + 3.0 / 256, 3e9, 255.9),
            EW_V(1 + 1.0 / 128, 2986344448.0, 255), 1);
  cast_case(TF_DOUBLE, TF_FLOAT, 1, EW_V(0.1), EW_V(0.099999994039535522), 1);
  cast_case(TF_DOUBLE, TF_HALF, 1, EW_V(2 - 1.0 / (1 << 30)),
            EW_V(2 - 1.0 / 1024), 1);
  /* TF does not chop for these pairs: they still round */
  cast_case(TF_DOUBLE, TF_BFLOAT16, 1, EW_V(2 - 1.0 / (1 << 30)), EW_V(2), 1);
  cast_case(TF_HALF, TF_BFLOAT16, 1, EW_V(2 - 1.0 / 1024), EW_V(2), 1);
  /* double to complex64 with Truncate clears 53 bits, as TF 2.21 does */
  cast_case(TF_DOUBLE, TF_COMPLEX64, 4, EW_V(1, 3, 100, -2.394028),
            EW_V(0.5, 2, 32, -2), 1);
  /* double and int64 go through float first (rounded twice, as in TF) */
  cast_case(TF_DOUBLE, TF_HALF, 1, EW_V(1 + 1.0 / 2048 + 1.0 / (1 << 30)),
            EW_V(1), 0);
  cast_case(TF_DOUBLE, TF_BFLOAT16, 1, EW_V(1 + 1.0 / 256 + 1.0 / (1 << 30)),
            EW_V(1), 0);
  cast_case(TF_INT64, TF_HALF, 3, EW_V(2049, 70000, -70000),
            EW_V(2048, INFINITY, -INFINITY), 0);
  cast_case(TF_INT32, TF_BFLOAT16, 3, EW_V(257, 259, 16777217),
            EW_V(256, 260, 16777216), 0);
  cast_case(TF_HALF, TF_BFLOAT16, 2, EW_V(1.5, 65504), EW_V(1.5, 65536), 0);
}

TEST(cast_complex) {
  const float* r;
  const double* d;
  cast_case(TF_FLOAT, TF_COMPLEX64, 2, EW_V(1, -2), EW_V(1, -2), 0);
  ew_begin();
  ew_attr_type("DstT", TF_COMPLEX64);
  EW_OK(ew_run("Cast", 1, ew_vec(TF_FLOAT, 2, EW_V(1, -2))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(r[0] == 1 && r[1] == 0 && r[2] == -2 && r[3] == 0);
  ew_attr_type("DstT", TF_FLOAT);
  EW_OK(ew_run("Cast", 1, ew_c64(1, EW_V_F(1, 2))));
  EW_EXPECT_VEC(ew_out[0], TF_FLOAT, 1, EW_V(1));
  ew_attr_type("DstT", TF_INT32);
  EW_OK(ew_run("Cast", 1, ew_c64(1, EW_V_F(1.7f, 2))));
  EW_EXPECT_VEC(ew_out[0], TF_INT32, 1, EW_V(1));
  /* complex to bool looks at the real part only */
  ew_attr_type("DstT", TF_BOOL);
  EW_OK(ew_run("Cast", 1, ew_c64(2, EW_V_F(0, 2, 3, 0))));
  EW_EXPECT_VEC(ew_out[0], TF_BOOL, 2, EW_V(0, 1));
  ew_attr_type("DstT", TF_COMPLEX128);
  EW_OK(ew_run("Cast", 1, ew_c64(1, EW_V_F(1, 2))));
  d = (const double*)TF_TensorData(ew_out[0]);
  CHECK(d[0] == 1 && d[1] == 2);
  ew_attr_type("DstT", TF_COMPLEX64);
  EW_OK(ew_run("Cast", 1, ew_vec(TF_BOOL, 1, EW_V(1))));
  r = (const float*)TF_TensorData(ew_out[0]);
  CHECK(r[0] == 1 && r[1] == 0);
  ew_drop();
}

TEST(cast_same_type_shares_and_strings_fail) {
  TF_Tensor* x = ew_vec(TF_FLOAT, 2, EW_V(1, 2));
  void* data = TF_TensorData(x);
  static const char* const s[1] = {"1"};
  ew_begin();
  ew_attr_type("DstT", TF_FLOAT);
  EW_OK(ew_run("Cast", 1, x));
  CHECK(TF_TensorData(ew_out[0]) == data);
  ew_attr_type("DstT", TF_STRING);
  EW_OK(ew_run("Cast", 1, ew_strs(EW_DIMS(1), 1, s)));
  CHECK_EQ_INT(TF_TensorType(ew_out[0]), TF_STRING);
  ew_attr_type("DstT", TF_INT32);
  EW_ERR(ew_run("Cast", 1, ew_strs(EW_DIMS(1), 1, s)), TF_UNIMPLEMENTED,
         "Cast string to int32 is not supported");
  ew_attr_type("DstT", TF_STRING);
  EW_ERR(ew_run("Cast", 1, ew_vec(TF_INT32, 1, EW_V(1))), TF_UNIMPLEMENTED,
         "Cast int32 to string is not supported");
  ew_drop();
}

/* Every pair of the numeric dtypes converts 0, 1 and 3 (and their sums)
 * exactly. */
TEST(cast_every_numeric_pair) {
  static const TF_DataType all[] = {
      TF_FLOAT,  TF_DOUBLE, TF_HALF,   TF_BFLOAT16, TF_INT8,     TF_INT16,
      TF_INT32,  TF_INT64,  TF_UINT8,  TF_UINT16,   TF_UINT32,   TF_UINT64,
      TF_BOOL,   TF_COMPLEX64, TF_COMPLEX128, TF_QINT8, TF_QUINT8, TF_QINT16,
      TF_QUINT16, TF_QINT32};
  int i, j;
  for (i = 0; i < NCASES(all); i++) {
    for (j = 0; j < NCASES(all); j++) {
      int b = all[i] == TF_BOOL || all[j] == TF_BOOL;
      cast_case(all[i], all[j], 3, b ? EW_V(0, 1, 1) : EW_V(0, 1, 3),
                b ? EW_V(0, 1, 1) : EW_V(0, 1, 3), (i + j) % 2);
    }
  }
}

/* ====================================================== misc elementwise */

TEST(clip_by_value) {
  ew_begin();
  EW_OK(ew_run("ClipByValue", 3, ew_vec(TF_FLOAT, 5, EW_V(-5, 2, 10, 25, 99)),
               ew_scalar(TF_FLOAT, 2), ew_scalar(TF_FLOAT, 25)));
  EW_EXPECT_VEC(ew_out[0], TF_FLOAT, 5, EW_V(2, 2, 10, 25, 25));
  EW_OK(ew_run("ClipByValue", 3, ew_vec(TF_FLOAT, 3, EW_V(1, 5, 3)),
               ew_vec(TF_FLOAT, 3, EW_V(2, 2, 2)),
               ew_vec(TF_FLOAT, 3, EW_V(2.5, 4, 1))));
  EW_EXPECT_VEC(ew_out[0], TF_FLOAT, 3, EW_V(2, 4, 2));
  EW_OK(ew_run("ClipByValue", 3, ew_vec(TF_FLOAT, 2, EW_V(NAN, 1)),
               ew_scalar(TF_FLOAT, 0), ew_scalar(TF_FLOAT, NAN)));
  EW_EXPECT_VEC(ew_out[0], TF_FLOAT, 2, EW_V(NAN, 1));
  EW_OK(ew_run("ClipByValue", 3, ew_vec(TF_INT8, 3, EW_V(-100, 0, 100)),
               ew_scalar(TF_INT8, -5), ew_vec(TF_INT8, 3, EW_V(5, 6, 7))));
  EW_EXPECT_VEC(ew_out[0], TF_INT8, 3, EW_V(-5, 0, 7));
  EW_OK(ew_run("ClipByValue", 3, ew_vec(TF_HALF, 2, EW_V(0.1, 9)),
               ew_scalar(TF_HALF, 0.5), ew_scalar(TF_HALF, 2)));
  EW_EXPECT_VEC(ew_out[0], TF_HALF, 2, EW_V(0.5, 2));
  /* complex: real and imaginary parts are clipped separately */
  {
    const float* r;
    EW_OK(ew_run("ClipByValue", 3, ew_c64(3, EW_V_F(1, 5, 3, 0, 0, 9)),
                 ew_raw(TF_COMPLEX64, NULL, 0, EW_V_F(2, 1)),
                 ew_raw(TF_COMPLEX64, NULL, 0, EW_V_F(2.5f, 0))));
    r = (const float*)TF_TensorData(ew_out[0]);
    CHECK(r[0] == 2 && r[1] == 1 && r[2] == 2.5f && r[3] == 1 && r[4] == 2 &&
          r[5] == 1);
  }
  EW_ERR(ew_run("ClipByValue", 3, ew_vec(TF_FLOAT, 3, EW_V(1, 2, 3)),
                ew_vec(TF_FLOAT, 2, EW_V(1, 2)), ew_scalar(TF_FLOAT, 2)),
         TF_INVALID_ARGUMENT,
         "clip_value_min and clip_value_max must be either of the same shape "
         "as input, or a scalar. input shape: [3]clip_value_min shape: "
         "[2]clip_value_max shape: []");
  EW_ERR(ew_run("ClipByValue", 3, ew_t(TF_FLOAT, EW_DIMS(1, 3), 2, EW_V(1, 2, 3)),
                ew_vec(TF_FLOAT, 3, EW_V(1, 2, 3)), ew_scalar(TF_FLOAT, 2)),
         TF_INVALID_ARGUMENT, "input shape: [1,3]clip_value_min shape: [3]");
  ew_drop();
}

TEST(add_n) {
  ew_begin();
  EW_OK(ew_run("AddN", 3, ew_vec(TF_FLOAT, 3, EW_V(1, 2, 3)),
               ew_vec(TF_FLOAT, 3, EW_V(10, 20, 30)),
               ew_vec(TF_FLOAT, 3, EW_V(100, 200, 300))));
  EW_EXPECT_VEC(ew_out[0], TF_FLOAT, 3, EW_V(111, 222, 333));
  EW_OK(ew_run("AddN", 2, ew_vec(TF_INT8, 1, EW_V(100)),
               ew_vec(TF_INT8, 1, EW_V(100))));
  EW_EXPECT_VEC(ew_out[0], TF_INT8, 1, EW_V(-56));
  /* half sums are rounded after each addition */
  EW_OK(ew_run("AddN", 3, ew_vec(TF_HALF, 1, EW_V(1000)),
               ew_vec(TF_HALF, 1, EW_V(0.3)), ew_vec(TF_HALF, 1, EW_V(0.3))));
  EW_EXPECT_VEC(ew_out[0], TF_HALF, 1, EW_V(1001));
  {
    TF_Tensor* in[EW_MAX_IO];
    int i;
    for (i = 0; i < EW_MAX_IO; i++) in[i] = ew_vec(TF_UINT64, 1, EW_V(i + 1));
    EW_OK(ew_run_n("AddN", in, EW_MAX_IO));
    EW_EXPECT_VEC(ew_out[0], TF_UINT64, 1, EW_V(36));
  }
  /* one input: the sum is the input itself */
  {
    TF_Tensor* x = ew_vec(TF_DOUBLE, 2, EW_V(1, 2));
    void* data = TF_TensorData(x);
    EW_OK(ew_run("AddN", 1, x));
    CHECK(TF_TensorData(ew_out[0]) == data);
  }
  EW_OK(ew_run("AddN", 2, ew_c64(1, EW_V_F(1, 2)), ew_c64(1, EW_V_F(3, 4))));
  CHECK(((const float*)TF_TensorData(ew_out[0]))[1] == 6);
  EW_ERR(ew_run("AddN", 2, ew_vec(TF_FLOAT, 2, EW_V(1, 2)),
                ew_vec(TF_FLOAT, 3, EW_V(1, 2, 3))),
         TF_INVALID_ARGUMENT,
         "Inputs to operation AddN of type AddN must have the same size and "
         "shape.  Input 0: [2] != input 1: [3]");
  EW_ERR(ew_run("AddN", 2, ew_vec(TF_FLOAT, 2, EW_V(1, 2)),
                ew_scalar(TF_FLOAT, 1)),
         TF_INVALID_ARGUMENT, "Input 0: [2] != input 1: []");
  ew_drop();
}

TEST(bias_add) {
  static const double zeros24[24] = {0};
  ew_begin();
  EW_OK(ew_run("BiasAdd", 2, ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(1, 2, 3, 4)),
               ew_vec(TF_FLOAT, 2, EW_V(10, 20))));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(11, 22, 13, 24));
  ew_attr_string("data_format", "NCHW");
  EW_OK(ew_run("BiasAdd", 2,
               ew_t(TF_INT32, EW_DIMS(1, 2, 2, 2), 4,
                    EW_V(1, 1, 1, 1, 1, 1, 1, 1)),
               ew_vec(TF_INT32, 2, EW_V(10, 20))));
  EW_EXPECT(ew_out[0], TF_INT32, EW_DIMS(1, 2, 2, 2), 4,
            EW_V(11, 11, 11, 11, 21, 21, 21, 21));
  ew_attr_string("data_format", "NCHW");
  EW_OK(ew_run("BiasAdd", 2, ew_t(TF_DOUBLE, EW_DIMS(2, 3), 2, EW_V(1, 1, 1, 1, 1, 1)),
               ew_vec(TF_DOUBLE, 3, EW_V(10, 20, 30))));
  EW_EXPECT(ew_out[0], TF_DOUBLE, EW_DIMS(2, 3), 2, EW_V(11, 21, 31, 11, 21, 31));
  EW_OK(ew_run("BiasAdd", 2,
               ew_t(TF_HALF, EW_DIMS(1, 1, 1, 1, 2), 5, EW_V(1, 1)),
               ew_vec(TF_HALF, 2, EW_V(1, 2))));
  EW_EXPECT(ew_out[0], TF_HALF, EW_DIMS(1, 1, 1, 1, 2), 5, EW_V(2, 3));
  EW_OK(ew_run("BiasAdd", 2, ew_t(TF_FLOAT, EW_DIMS(0, 2), 2, EW_V(0)),
               ew_vec(TF_FLOAT, 2, EW_V(1, 2))));
  EW_EXPECT(ew_out[0], TF_FLOAT, EW_DIMS(0, 2), 2, EW_V(0));
  EW_ERR(ew_run("BiasAdd", 2, ew_t(TF_FLOAT, EW_DIMS(2, 2), 2, EW_V(1, 2, 3, 4)),
                ew_vec(TF_FLOAT, 3, EW_V(1, 2, 3))),
         TF_INVALID_ARGUMENT,
         "Must provide as many biases as the last dimension of the input "
         "tensor: [3] vs. [2,2]");
  EW_ERR(ew_run("BiasAdd", 2, ew_vec(TF_FLOAT, 2, EW_V(1, 2)),
                ew_vec(TF_FLOAT, 2, EW_V(1, 2))),
         TF_INVALID_ARGUMENT, "Input tensor must be at least 2D: [2]");
  EW_ERR(ew_run("BiasAdd", 2, ew_t(TF_FLOAT, EW_DIMS(1, 2), 2, EW_V(1, 2)),
                ew_t(TF_FLOAT, EW_DIMS(1, 2), 2, EW_V(1, 2))),
         TF_INVALID_ARGUMENT, "Biases must be 1D: [1,2]");
  ew_attr_string("data_format", "NCHW");
  EW_ERR(ew_run("BiasAdd", 2, ew_t(TF_FLOAT, EW_DIMS(2, 3, 4), 3, zeros24),
                ew_vec(TF_FLOAT, 2, EW_V(1, 2))),
         TF_INVALID_ARGUMENT, "[2] vs. [2,3,4]");
  ew_drop();
}

TEST(bucketize) {
  static const float b3[3] = {0, 1, 10};
  static const float b15[3] = {0, 1.5, 10};
  static const float dup[3] = {1, 1, 2};
  static const float unsorted[2] = {3, 1};
  ew_begin();
  ew_attr_float_list("boundaries", b3, 3);
  EW_OK(ew_run("Bucketize", 1,
               ew_vec(TF_FLOAT, 7, EW_V(-5, 0, 1, 2, 10, 11, NAN))));
  EW_EXPECT_VEC(ew_out[0], TF_INT32, 7, EW_V(0, 1, 2, 2, 3, 3, 3));
  ew_attr_float_list("boundaries", b15, 3);
  EW_OK(ew_run("Bucketize", 1,
               ew_t(TF_INT32, EW_DIMS(2, 2), 2, EW_V(-5, 0, 1, 2))));
  EW_EXPECT(ew_out[0], TF_INT32, EW_DIMS(2, 2), 2, EW_V(0, 1, 1, 2));
  ew_attr_float_list("boundaries", dup, 3);
  EW_OK(ew_run("Bucketize", 1, ew_vec(TF_DOUBLE, 2, EW_V(1, 2))));
  EW_EXPECT_VEC(ew_out[0], TF_INT32, 2, EW_V(2, 3));
  /* int64 inputs compare as float, like TF */
  {
    static const float big[1] = {16777216.0f};
    ew_attr_float_list("boundaries", big, 1);
    EW_OK(ew_run("Bucketize", 1, ew_vec(TF_INT64, 1, EW_V(16777217))));
    EW_EXPECT_VEC(ew_out[0], TF_INT32, 1, EW_V(1));
  }
  ew_attr_float_list("boundaries", NULL, 0);
  EW_OK(ew_run("Bucketize", 1, ew_vec(TF_FLOAT, 1, EW_V(1))));
  EW_EXPECT_VEC(ew_out[0], TF_INT32, 1, EW_V(0));
  ew_attr_float_list("boundaries", unsorted, 2);
  EW_ERR(ew_run("Bucketize", 1, ew_vec(TF_FLOAT, 1, EW_V(1))),
         TF_INVALID_ARGUMENT, "Expected sorted boundaries");
  ew_drop();
}

TEST(add_concatenates_strings) {
  static const char* const x[2] = {"a", "bb"};
  static const char* const y[3] = {"x", "y", "a string longer than 24 bytes"};
  const TF_TString* r;
  ew_begin();
  EW_OK(ew_run("Add", 2, ew_strs(EW_DIMS(2, 1), 2, x),
               ew_strs(EW_DIMS(3), 1, y)));
  CHECK_EQ_INT(TF_NumDims(ew_out[0]), 2);
  CHECK_EQ_INT(TF_Dim(ew_out[0], 1), 3);
  r = (const TF_TString*)TF_TensorData(ew_out[0]);
  CHECK_EQ_SIZE(TF_StringGetSize(&r[0]), 2);
  CHECK(memcmp(TF_StringGetDataPointer(&r[0]), "ax", 2) == 0);
  CHECK(memcmp(TF_StringGetDataPointer(&r[4]), "bby", 3) == 0);
  CHECK_EQ_SIZE(TF_StringGetSize(&r[5]), 2 + strlen(y[2]));
  CHECK(memcmp(TF_StringGetDataPointer(&r[5]), "bba string", 10) == 0);
  /* numeric Add still works */
  EW_OK(ew_run("Add", 2, ew_vec(TF_INT16, 2, EW_V(1, 2)),
               ew_scalar(TF_INT16, 3)));
  EW_EXPECT_VEC(ew_out[0], TF_INT16, 2, EW_V(4, 5));
  ew_drop();
}

/* ================================================= half / bf16 helpers */

TEST(half_conversions_round_trip_and_round_to_even) {
  uint32_t h;
  for (h = 0; h < 65536; h++) {
    float f = tfe_half_to_float((uint16_t)h);
    uint16_t back = tfe_float_to_half(f);
    if (isnan(f)) {
      CHECK((back & 0x7c00) == 0x7c00 && (back & 0x3ff) != 0);
    } else if (back != h) {
      TFE_FAIL("half 0x%04x -> %g -> 0x%04x", (unsigned)h, f, back);
    }
  }
  CHECK(tfe_half_to_float(0x0001) == 5.9604644775390625e-08f);
  CHECK(tfe_half_to_float(0x7bff) == 65504.0f);
  CHECK(tfe_half_to_float(0xfc00) == -INFINITY);
  CHECK(tfe_float_to_half(1.0f + 1.0f / 2048) == 0x3c00);     /* tie: even */
  CHECK(tfe_float_to_half(1.0f + 3.0f / 2048) == 0x3c02);     /* tie: even */
  CHECK(tfe_float_to_half(2.9802322387695312e-08f) == 0x0000); /* half-min/2 */
  CHECK(tfe_float_to_half(2.9802326e-08f) == 0x0001);
  CHECK(tfe_float_to_half(65519.0f) == 0x7bff);
  CHECK(tfe_float_to_half(65520.0f) == 0x7c00);
  CHECK(tfe_float_to_half(-1e9f) == 0xfc00);
  CHECK(tfe_float_to_half(-0.0f) == 0x8000);
  CHECK(tfe_float_to_half_trunc(65520.0f) == 0x7bff);
  CHECK(tfe_float_to_half_trunc(1.0f + 3.0f / 2048) == 0x3c01);
}

TEST(bfloat16_conversions) {
  CHECK(tfe_bf16_to_float(0x3f80) == 1.0f);
  CHECK(tfe_float_to_bf16(1.0f + 1.0f / 256) == 0x3f80);  /* tie: even */
  CHECK(tfe_float_to_bf16(1.0f + 3.0f / 256) == 0x3f82);  /* tie: even */
  CHECK(tfe_float_to_bf16(3.4e38f) == 0x7f80);
  CHECK((tfe_float_to_bf16(NAN) & 0x7fc0) == 0x7fc0);
  CHECK(tfe_float_to_bf16(-0.0f) == 0x8000);
  CHECK(tfe_float_to_bf16_trunc(1.0f + 3.0f / 256) == 0x3f81);
  CHECK(tfe_float_to_bf16(1e-40f) == 0x0001);
}

/* ===================================================== broadcast module */

TEST(bcast_collapses_like_tf) {
  tfe_bcast b;
  const int64_t x[3] = {2, 3, 4}, y[1] = {4};
  const int64_t* dims[2] = {x, y};
  int ranks[2] = {3, 1};
  char buf[64];
  CHECK_EQ_INT(tfe_bcast_init(&b, 2, dims, ranks), TFE_BCAST_OK);
  CHECK_EQ_INT(b.out_rank, 3);
  CHECK_EQ_INT(b.out_elems, 24);
  CHECK_EQ_INT(b.rank, 2);
  CHECK_EQ_INT(b.dims[0], 6);
  CHECK_EQ_INT(b.dims[1], 4);
  CHECK_EQ_INT(b.strides[0][0], 4);
  CHECK_EQ_INT(b.strides[0][1], 1);
  CHECK_EQ_INT(b.strides[1][0], 0);
  CHECK_EQ_INT(b.strides[1][1], 1);
  CHECK(!tfe_bcast_is_linear(&b));
  /* size-1 axes are dropped: [2,1,3] + [2,1,3] is one run of 6 */
  {
    const int64_t p[3] = {2, 1, 3};
    const int64_t* d2[2] = {p, p};
    int r2[2] = {3, 3};
    CHECK_EQ_INT(tfe_bcast_init(&b, 2, d2, r2), TFE_BCAST_OK);
    CHECK_EQ_INT(b.rank, 1);
    CHECK_EQ_INT(b.dims[0], 6);
    CHECK(tfe_bcast_is_linear(&b));
  }
  /* scalars */
  {
    const int64_t* d3[2] = {NULL, NULL};
    int r3[2] = {0, 0};
    CHECK_EQ_INT(tfe_bcast_init(&b, 2, d3, r3), TFE_BCAST_OK);
    CHECK_EQ_INT(b.out_rank, 0);
    CHECK_EQ_INT(b.out_elems, 1);
    CHECK_EQ_INT(b.rank, 1);
  }
  /* three inputs */
  {
    const int64_t c[2] = {2, 1}, t[1] = {3}, e[1] = {0};
    const int64_t* d4[3] = {c, t, e};
    int r4[3] = {2, 1, 0};
    (void)e;
    CHECK_EQ_INT(tfe_bcast_init(&b, 3, d4, r4), TFE_BCAST_OK);
    CHECK_EQ_INT(b.out_elems, 6);
    CHECK_EQ_INT(b.strides[0][0], 1);
    CHECK_EQ_INT(b.strides[0][1], 0);
    CHECK_EQ_INT(b.strides[2][0], 0);
  }
  /* errors */
  {
    const int64_t p[1] = {3}, q[1] = {4}, neg[1] = {-1};
    const int64_t* d5[2] = {p, q};
    int r5[2] = {1, 1};
    CHECK_EQ_INT(tfe_bcast_init(&b, 2, d5, r5), TFE_BCAST_INCOMPATIBLE);
    d5[1] = neg;
    CHECK_EQ_INT(tfe_bcast_init(&b, 2, d5, r5), TFE_BCAST_BAD_ARGS);
    CHECK_EQ_INT(tfe_bcast_init(&b, 4, d5, r5), TFE_BCAST_BAD_ARGS);
    CHECK_EQ_INT(tfe_bcast_init(NULL, 2, d5, r5), TFE_BCAST_BAD_ARGS);
  }
  CHECK_STR_EQ(tfe_format_shape(x, 3, buf, sizeof buf), "[2,3,4]");
  CHECK_STR_EQ(tfe_format_shape(NULL, 0, buf, sizeof buf), "[]");
  CHECK_STR_EQ(tfe_format_shape(x, 3, buf, 6), "[...]");
}

TEST(bcast_iterator_walks_runs) {
  tfe_bcast b;
  tfe_bcast_iter it;
  const int64_t x[2] = {3, 4}, y[2] = {3, 1};
  const int64_t* dims[2] = {x, y};
  int ranks[2] = {2, 2};
  int64_t o, off[TFE_BCAST_MAX_INPUTS], len, seen = 0;
  int runs = 0;
  CHECK_EQ_INT(tfe_bcast_init(&b, 2, dims, ranks), TFE_BCAST_OK);
  /* start in the middle of the second row */
  tfe_bcast_iter_init(&it, &b, 6, 11);
  while (tfe_bcast_iter_next(&it, &o, off, &len)) {
    if (runs == 0) {
      CHECK_EQ_INT(o, 6);
      CHECK_EQ_INT(len, 2);
      CHECK_EQ_INT(off[0], 6);
      CHECK_EQ_INT(off[1], 1);
    } else {
      CHECK_EQ_INT(o, 8);
      CHECK_EQ_INT(len, 3);
      CHECK_EQ_INT(off[0], 8);
      CHECK_EQ_INT(off[1], 2);
    }
    seen += len;
    runs++;
  }
  CHECK_EQ_INT(runs, 2);
  CHECK_EQ_INT(seen, 5);
}

/* ================================================== thread-pool splits */

/* Large tensors are split across the intra-op pool; results and element
 * errors must not depend on the split. */
TEST(large_tensors_split_across_threads) {
  enum { N = 300007 };
  double* x = (double*)malloc(sizeof(double) * N);
  double* y = (double*)malloc(sizeof(double) * N);
  int64_t i, n = N;
  const float* r;
  CHECK(x != NULL && y != NULL);
  for (i = 0; i < N; i++) {
    x[i] = (double)(i % 1000) - 500;
    y[i] = (double)(i % 7) + 1;
  }
  ew_begin();
  EW_OK(ew_run("Mul", 2, ew_t(TF_FLOAT, &n, 1, x), ew_t(TF_FLOAT, &n, 1, y)));
  r = (const float*)TF_TensorData(ew_out[0]);
  for (i = 0; i < N; i++) CHECK(r[i] == (float)(x[i] * y[i]));
  EW_OK(ew_run("Exp", 1, ew_t(TF_FLOAT, &n, 1, y)));
  r = (const float*)TF_TensorData(ew_out[0]);
  for (i = 0; i < N; i += 997) CHECK(r[i] == expf((float)y[i]));
  EW_OK(ew_run("AddN", 3, ew_t(TF_FLOAT, &n, 1, x), ew_t(TF_FLOAT, &n, 1, y),
               ew_t(TF_FLOAT, &n, 1, y)));
  r = (const float*)TF_TensorData(ew_out[0]);
  for (i = 0; i < N; i += 991) CHECK(r[i] == (float)(x[i] + 2 * y[i]));
  /* a single zero divisor near the end is still reported */
  y[N - 3] = 0;
  EW_ERR(ew_run("FloorDiv", 2, ew_t(TF_INT32, &n, 1, x),
                ew_t(TF_INT32, &n, 1, y)),
         TF_INVALID_ARGUMENT, "Integer division by zero");
  ew_drop();
  free(x);
  free(y);
}

/* ============================================================ misc */

TEST(no_leaks_across_many_ops) {
  int64_t live = TFE_LiveObjectCount(TFE_OBJ_TENSOR);
  int i;
  for (i = 0; i < 50; i++) {
    ew_begin();
    EW_OK(ew_run("AddV2", 2, ew_vec(TF_FLOAT, 3, EW_V(1, 2, 3)),
                 ew_scalar(TF_FLOAT, 1)));
    EW_ERR(ew_run("Div", 2, ew_vec(TF_INT32, 1, EW_V(1)),
                  ew_vec(TF_INT32, 1, EW_V(0))),
           TF_INVALID_ARGUMENT, "zero");
  }
  ew_drop();
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR), live);
}

TEST(allocation_failure_is_reported) {
  const tfe_op_def* def;
  const tfe_kernel_reg* reg;
  tfe_kernel_context k;
  TF_Tensor* in[2];
  TF_Tensor* out[1] = {NULL};
  TF_DataType ot[1] = {TF_FLOAT};
  ew_begin();
  def = tfe_op_lookup("Mul");
  ew_attr_type("T", TF_FLOAT);
  reg = tfe_kernel_find(def, "CPU", &ew_attrs, ew_status);
  CHECK(reg != NULL);
  in[0] = ew_vec(TF_FLOAT, 3, EW_V(1, 2, 3));
  in[1] = ew_vec(TF_FLOAT, 3, EW_V(1, 2, 3));
  memset(&k, 0, sizeof k);
  k.op_def = def;
  k.attrs = &ew_attrs;
  k.inputs = in;
  k.num_inputs = 2;
  k.outputs = out;
  k.num_outputs = 1;
  k.output_types = ot;
  k.status = ew_status;
  k.user_data = reg->user_data;
  TFE_TestFailAllocationsAfter(0);
  reg->compute(&k);
  TFE_TestFailAllocationsAfter(-1);
  CHECK_CODE(ew_status, TF_RESOURCE_EXHAUSTED);
  CHECK(out[0] == NULL);
  TF_DeleteTensor(in[0]);
  TF_DeleteTensor(in[1]);
  tfe_attrs_clear(&ew_attrs);
}

TFE_TEST_MAIN
