/* Cast to and from float4_e2m1fn (TF_FLOAT4_E2M1FN): the 16 codes decode
 * to their exact values, floats round to nearest even onto the grid
 * 0, 0.5, 1, 1.5, 2, 3, 4, 6, overflow and infinities saturate to +-6,
 * NaN becomes a zero with its sign bit flipped (ml_dtypes' conversion,
 * which TensorFlow uses), float8 peers go through the exact value, and
 * sources TF has no float4 cast for are UNIMPLEMENTED. */
#include <math.h>
#include <string.h>

#include "kernel_test_util.h"

static TF_Status* S;
static tfe_attrs A;

static TF_Tensor* raw_tensor(TF_DataType dt, const void* data, int64_t n,
                             size_t esz) {
  TF_Tensor* t = TF_AllocateTensor(dt, &n, 1, (size_t)n * esz);
  if (t != NULL && n > 0) memcpy(TF_TensorData(t), data, (size_t)n * esz);
  return t;
}

/* Runs Cast(x) -> dst; returns the output or NULL (status in S). */
static TF_Tensor* cast(TF_Tensor* x, TF_DataType dst, int truncate) {
  TF_Tensor* in[1];
  TF_Tensor* out[KT_MAX_IO] = {NULL};
  tfe_attr_value v;
  if (S == NULL) S = TF_NewStatus();
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
  tfe_attr_value_set_type(&v, dst);
  tfe_attrs_put(&A, "DstT", &v);
  tfe_attr_value_set_bool(&v, (unsigned char)truncate);
  tfe_attrs_put(&A, "Truncate", &v);
  in[0] = x;
  if (kt_run("Cast", &A, in, 1, out, S) != 1) return NULL;
  return out[0];
}

/* The value of every code 0..15. */
static const float k_values[16] = {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,
                                   4.0f,  6.0f,  -0.0f, -0.5f, -1.0f, -1.5f,
                                   -2.0f, -3.0f, -4.0f, -6.0f};

TEST(dtype_size_and_name) {
  CHECK_EQ_INT(TF_FLOAT4_E2M1FN, 33);
  CHECK_EQ_SIZE(TF_DataTypeSize(TF_FLOAT4_E2M1FN), 1);
  CHECK_STR_EQ(tfe_dtype_short_name(TF_FLOAT4_E2M1FN), "float4_e2m1fn");
  CHECK_STR_EQ(tfe_dtype_enum_name(TF_FLOAT4_E2M1FN), "DT_FLOAT4_E2M1FN");
}

TEST(every_code_decodes_to_its_value) {
  uint8_t codes[16];
  TF_Tensor* y;
  int i;
  for (i = 0; i < 16; i++) codes[i] = (uint8_t)i;
  y = cast(raw_tensor(TF_FLOAT4_E2M1FN, codes, 16, 1), TF_FLOAT, 0);
  CHECK(y != NULL);
  for (i = 0; i < 16; i++) {
    const float got = ((const float*)TF_TensorData(y))[i];
    CHECK(got == k_values[i]);
    CHECK(!!signbit(got) == (i >= 8));
  }
  TF_DeleteTensor(y);
  /* The high nibble is ignored. */
  codes[0] = 0xf3;
  y = cast(raw_tensor(TF_FLOAT4_E2M1FN, codes, 1, 1), TF_DOUBLE, 0);
  CHECK(y != NULL);
  CHECK(((const double*)TF_TensorData(y))[0] == 1.5);
  TF_DeleteTensor(y);
}

TEST(floats_round_to_nearest_even_and_saturate) {
  static const float in[] = {0.0f,   0.2f,  0.25f,    0.26f, 0.75f, 1.25f,
                             1.75f,  2.5f,  3.5f,     5.0f,  5.01f, 7.0f,
                             100.0f, -2.9f, -0.0f,    -1e9f, INFINITY,
                             -INFINITY, NAN, -NAN};
  static const uint8_t want[] = {0x0, 0x0, 0x0, 0x1, 0x2, 0x2, 0x4,
                                 0x4, 0x6, 0x6, 0x7, 0x7, 0x7, 0xd,
                                 0x8, 0xf, 0x7, 0xf, 0x8, 0x0};
  const int64_t n = (int64_t)(sizeof in / sizeof in[0]);
  TF_Tensor* y = cast(raw_tensor(TF_FLOAT, in, n, 4), TF_FLOAT4_E2M1FN, 0);
  int64_t i;
  CHECK(y != NULL);
  CHECK_EQ_INT((int)TF_TensorType(y), TF_FLOAT4_E2M1FN);
  CHECK_EQ_SIZE(TF_TensorByteSize(y), (size_t)n);
  for (i = 0; i < n; i++) {
    CHECK_EQ_INT(((const uint8_t*)TF_TensorData(y))[i], want[i]);
  }
  TF_DeleteTensor(y);
}

TEST(round_trip_through_every_float_type_is_exact) {
  static const TF_DataType peers[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT,
                                      TF_DOUBLE, TF_FLOAT8_E4M3FN,
                                      TF_FLOAT8_E5M2};
  uint8_t codes[16];
  size_t p;
  int i;
  for (i = 0; i < 16; i++) codes[i] = (uint8_t)i;
  for (p = 0; p < sizeof peers / sizeof peers[0]; p++) {
    TF_Tensor* mid = cast(raw_tensor(TF_FLOAT4_E2M1FN, codes, 16, 1),
                          peers[p], 0);
    TF_Tensor* back;
    CHECK(mid != NULL);
    back = cast(mid, TF_FLOAT4_E2M1FN, 0);
    CHECK(back != NULL);
    for (i = 0; i < 16; i++) {
      CHECK_EQ_INT(((const uint8_t*)TF_TensorData(back))[i], codes[i]);
    }
    TF_DeleteTensor(back);
  }
}

TEST(to_integers_bool_and_complex) {
  static const uint8_t codes[] = {0x7, 0xf, 0x3, 0x1, 0x8};
  TF_Tensor* y = cast(raw_tensor(TF_FLOAT4_E2M1FN, codes, 5, 1), TF_INT32, 0);
  const int32_t want_i[] = {6, -6, 1, 0, 0};
  const uint8_t want_b[] = {1, 1, 1, 1, 0};
  int i;
  CHECK(y != NULL);
  for (i = 0; i < 5; i++) {
    CHECK_EQ_INT(((const int32_t*)TF_TensorData(y))[i], want_i[i]);
  }
  TF_DeleteTensor(y);
  y = cast(raw_tensor(TF_FLOAT4_E2M1FN, codes, 5, 1), TF_BOOL, 0);
  CHECK(y != NULL);
  for (i = 0; i < 5; i++) {
    CHECK_EQ_INT(((const uint8_t*)TF_TensorData(y))[i], want_b[i]);
  }
  TF_DeleteTensor(y);
  y = cast(raw_tensor(TF_FLOAT4_E2M1FN, codes, 5, 1), TF_COMPLEX64, 0);
  CHECK(y != NULL);
  CHECK(((const float*)TF_TensorData(y))[2] == -6.0f);
  CHECK(((const float*)TF_TensorData(y))[3] == 0.0f);
  TF_DeleteTensor(y);
}

TEST(unsupported_sources_are_unimplemented) {
  const int32_t i32[1] = {1};
  const uint8_t b[1] = {1};
  CHECK(cast(raw_tensor(TF_INT32, i32, 1, 4), TF_FLOAT4_E2M1FN, 0) == NULL);
  CHECK_CODE(S, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(S), "Cast int32 to float4_e2m1fn");
  CHECK(cast(raw_tensor(TF_BOOL, b, 1, 1), TF_FLOAT4_E2M1FN, 0) == NULL);
  CHECK_CODE(S, TF_UNIMPLEMENTED);
  CHECK(cast(raw_tensor(TF_FLOAT4_E2M1FN, b, 1, 1), TF_INT4, 0) == NULL);
  CHECK_CODE(S, TF_UNIMPLEMENTED);
}

TFE_TEST_MAIN
