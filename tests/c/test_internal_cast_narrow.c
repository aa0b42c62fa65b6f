/* Cast to and from float8 (e4m3fn, e5m2) and int4/uint4, bit for bit
 * against results recorded from TensorFlow 2.21's CPU kernel (see
 * cast_narrow_tf_values.h): rounding, Truncate, overflow, NaN and
 * infinity, subnormals, signed zero, integer wrap-around, and the casts
 * TF does not support (UNIMPLEMENTED with TF's message). */
#include <string.h>

#include "cast_narrow_tf_values.h"
#include "kernel_test_util.h"

#define N_OF(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))

static TF_Status* S;
static tfe_attrs A;

/* A 1-D tensor of dtype dt holding the raw element bytes of data. */
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

/* Cast n elements of src bytes (dtype st, esz bytes each) to dt and
 * compares the result with the expected bytes (dsz each). */
static void check_cast(TF_DataType st, const void* src, size_t esz,
                       TF_DataType dt, int truncate, const void* want,
                       size_t dsz, int64_t n, int line) {
  TF_Tensor* y = cast(raw_tensor(st, src, n, esz), dt, truncate);
  int64_t i;
  if (y == NULL) {
    fprintf(stderr, "line %d: Cast %d -> %d failed: %s\n", line, (int)st,
            (int)dt, TF_Message(S));
    exit(1);
  }
  CHECK_EQ_INT((int)TF_TensorType(y), (int)dt);
  CHECK_EQ_INT((int)TF_TensorByteSize(y), (int)((size_t)n * dsz));
  for (i = 0; i < n; i++) {
    const unsigned char* g = (const unsigned char*)TF_TensorData(y) + i * dsz;
    const unsigned char* w = (const unsigned char*)want + i * dsz;
    if (memcmp(g, w, dsz) != 0) {
      fprintf(stderr,
              "line %d: Cast %d -> %d (truncate %d): element %lld differs "
              "(first byte %u, want %u)\n",
              line, (int)st, (int)dt, truncate, (long long)i, g[0], w[0]);
      exit(1);
    }
  }
  TF_DeleteTensor(y);
}

#define CHECK_CAST(st, src, dt, tr, want)                                   \
  check_cast((st), (src), sizeof((src)[0]), (dt), (tr), (want),          \
             sizeof((want)[0]), N_OF(want), __LINE__)

TEST(float_sources_to_float8_round_truncate_and_overflow_like_tf) {
  CHECK_CAST(TF_FLOAT, k_f32_in, TF_FLOAT8_E4M3FN, 0, k_f32_to_e4m3);
  CHECK_CAST(TF_FLOAT, k_f32_in, TF_FLOAT8_E4M3FN, 1, k_f32_to_e4m3_tr);
  CHECK_CAST(TF_FLOAT, k_f32_in, TF_FLOAT8_E5M2, 0, k_f32_to_e5m2);
  CHECK_CAST(TF_FLOAT, k_f32_in, TF_FLOAT8_E5M2, 1, k_f32_to_e5m2_tr);
  CHECK_CAST(TF_DOUBLE, k_f64_in, TF_FLOAT8_E4M3FN, 0, k_f64_to_e4m3);
  CHECK_CAST(TF_DOUBLE, k_f64_in, TF_FLOAT8_E4M3FN, 1, k_f64_to_e4m3_tr);
  CHECK_CAST(TF_DOUBLE, k_f64_in, TF_FLOAT8_E5M2, 0, k_f64_to_e5m2);
  CHECK_CAST(TF_DOUBLE, k_f64_in, TF_FLOAT8_E5M2, 1, k_f64_to_e5m2_tr);
  CHECK_CAST(TF_HALF, k_f16_in, TF_FLOAT8_E4M3FN, 0, k_f16_to_e4m3);
  CHECK_CAST(TF_HALF, k_f16_in, TF_FLOAT8_E4M3FN, 1, k_f16_to_e4m3_tr);
  CHECK_CAST(TF_HALF, k_f16_in, TF_FLOAT8_E5M2, 0, k_f16_to_e5m2);
  CHECK_CAST(TF_HALF, k_f16_in, TF_FLOAT8_E5M2, 1, k_f16_to_e5m2_tr);
  CHECK_CAST(TF_BFLOAT16, k_bf16_in, TF_FLOAT8_E4M3FN, 0, k_bf16_to_e4m3);
  CHECK_CAST(TF_BFLOAT16, k_bf16_in, TF_FLOAT8_E4M3FN, 1, k_bf16_to_e4m3_tr);
  CHECK_CAST(TF_BFLOAT16, k_bf16_in, TF_FLOAT8_E5M2, 0, k_bf16_to_e5m2);
  CHECK_CAST(TF_BFLOAT16, k_bf16_in, TF_FLOAT8_E5M2, 1, k_bf16_to_e5m2_tr);
}

static void check_from_f8(TF_DataType st, const uint8_t* all, int e4m3) {
#define FROM(dt, want) \
  check_cast(st, all, 1, (dt), 0, (want), sizeof((want)[0]), \
             (int64_t)(sizeof(want) / sizeof((want)[0])) / ((dt) == TF_COMPLEX64 ? 2 : 1), __LINE__)
  if (e4m3) {
    FROM(TF_FLOAT, k_e4m3_f32);
    FROM(TF_DOUBLE, k_e4m3_f64);
    FROM(TF_HALF, k_e4m3_f16);
    FROM(TF_BFLOAT16, k_e4m3_bf16);
    FROM(TF_INT8, k_e4m3_int8);
    FROM(TF_INT16, k_e4m3_int16);
    FROM(TF_INT32, k_e4m3_int32);
    FROM(TF_INT64, k_e4m3_int64);
    FROM(TF_UINT8, k_e4m3_uint8);
    FROM(TF_UINT16, k_e4m3_uint16);
    FROM(TF_UINT32, k_e4m3_uint32);
    FROM(TF_UINT64, k_e4m3_uint64);
    FROM(TF_BOOL, k_e4m3_bool);
    check_cast(st, all, 1, TF_COMPLEX64, 0, k_e4m3_c64, 8, 256, __LINE__);
    check_cast(st, all, 1, TF_FLOAT8_E5M2, 0, k_e4m3_to_e5m2, 1, 256,
               __LINE__);
    check_cast(st, all, 1, TF_FLOAT8_E5M2, 1, k_e4m3_to_e5m2_tr, 1, 256,
               __LINE__);
  } else {
    FROM(TF_FLOAT, k_e5m2_f32);
    FROM(TF_DOUBLE, k_e5m2_f64);
    FROM(TF_HALF, k_e5m2_f16);
    FROM(TF_BFLOAT16, k_e5m2_bf16);
    FROM(TF_INT8, k_e5m2_int8);
    FROM(TF_INT16, k_e5m2_int16);
    FROM(TF_INT32, k_e5m2_int32);
    FROM(TF_INT64, k_e5m2_int64);
    FROM(TF_UINT8, k_e5m2_uint8);
    FROM(TF_UINT16, k_e5m2_uint16);
    FROM(TF_UINT32, k_e5m2_uint32);
    FROM(TF_UINT64, k_e5m2_uint64);
    FROM(TF_BOOL, k_e5m2_bool);
    check_cast(st, all, 1, TF_COMPLEX64, 0, k_e5m2_c64, 8, 256, __LINE__);
    check_cast(st, all, 1, TF_FLOAT8_E4M3FN, 0, k_e5m2_to_e4m3, 1, 256,
               __LINE__);
    check_cast(st, all, 1, TF_FLOAT8_E4M3FN, 1, k_e5m2_to_e4m3_tr, 1, 256,
               __LINE__);
  }
#undef FROM
}

TEST(every_float8_byte_casts_to_every_supported_type_like_tf) {
  uint8_t all[256];
  int i;
  for (i = 0; i < 256; i++) all[i] = (uint8_t)i;
  check_from_f8(TF_FLOAT8_E4M3FN, all, 1);
  check_from_f8(TF_FLOAT8_E5M2, all, 0);
}

TEST(float8_round_trips_and_same_type_cast) {
  uint8_t all[256];
  TF_Tensor *x, *y, *z;
  int i;
  for (i = 0; i < 256; i++) all[i] = (uint8_t)i;
  /* float8 -> float -> float8 gives back every byte except NaN payloads
   * of e5m2 (they become the quiet NaN 0x7e / 0xfe) */
  x = raw_tensor(TF_FLOAT8_E5M2, all, 256, 1);
  y = cast(x, TF_FLOAT, 0);
  CHECK(y != NULL);
  z = cast(y, TF_FLOAT8_E5M2, 0);
  CHECK(z != NULL);
  for (i = 0; i < 256; i++) {
    uint8_t b = ((const uint8_t*)TF_TensorData(z))[i];
    int nan = (i & 0x7c) == 0x7c && (i & 3) != 0;
    CHECK_EQ_INT(b, nan ? ((i & 0x80) | 0x7e) : i);
  }
  TF_DeleteTensor(z);
  x = raw_tensor(TF_FLOAT8_E4M3FN, all, 256, 1);
  y = cast(x, TF_DOUBLE, 0);
  CHECK(y != NULL);
  z = cast(y, TF_FLOAT8_E4M3FN, 0);
  CHECK(z != NULL);
  CHECK(memcmp(TF_TensorData(z), all, 256) == 0);
  TF_DeleteTensor(z);
  /* same dtype: the bytes are passed through */
  x = raw_tensor(TF_INT4, all, 256, 1);
  y = cast(x, TF_INT4, 0);
  CHECK(y != NULL);
  CHECK(memcmp(TF_TensorData(y), all, 256) == 0);
  TF_DeleteTensor(y);
}

static void int_tensor_bytes(TF_DataType dt, const int64_t* v, int64_t n,
                             void* buf) {
  int64_t i;
  for (i = 0; i < n; i++) {
    switch (dt) {
      case TF_INT8: ((int8_t*)buf)[i] = (int8_t)v[i]; break;
      case TF_INT16: ((int16_t*)buf)[i] = (int16_t)v[i]; break;
      case TF_INT32: ((int32_t*)buf)[i] = (int32_t)v[i]; break;
      case TF_INT64: ((int64_t*)buf)[i] = v[i]; break;
      case TF_UINT8: ((uint8_t*)buf)[i] = (uint8_t)v[i]; break;
      case TF_UINT16: ((uint16_t*)buf)[i] = (uint16_t)v[i]; break;
      case TF_UINT32: ((uint32_t*)buf)[i] = (uint32_t)v[i]; break;
      default: ((uint64_t*)buf)[i] = (uint64_t)v[i]; break;
    }
  }
}

TEST(integers_to_int4_and_uint4_wrap_like_tf) {
  static const TF_DataType kTypes[8] = {TF_INT8, TF_INT16, TF_INT32,
                                        TF_INT64, TF_UINT8, TF_UINT16,
                                        TF_UINT32, TF_UINT64};
  static const uint8_t* kToI4[8] = {k_int8_to_int4, k_int16_to_int4,
                                    k_int32_to_int4, k_int64_to_int4,
                                    k_uint8_to_int4, k_uint16_to_int4,
                                    k_uint32_to_int4, k_uint64_to_int4};
  static const uint8_t* kToU4[8] = {k_int8_to_uint4, k_int16_to_uint4,
                                    k_int32_to_uint4, k_int64_to_uint4,
                                    k_uint8_to_uint4, k_uint16_to_uint4,
                                    k_uint32_to_uint4, k_uint64_to_uint4};
  uint64_t buf[N_OF(k_i4_src)];
  int t;
  for (t = 0; t < 8; t++) {
    size_t esz = TF_DataTypeSize(kTypes[t]);
    int_tensor_bytes(kTypes[t], k_i4_src, N_OF(k_i4_src), buf);
    check_cast(kTypes[t], buf, esz, TF_INT4, 0, kToI4[t], 1, N_OF(k_i4_src),
               __LINE__);
    check_cast(kTypes[t], buf, esz, TF_UINT4, 0, kToU4[t], 1, N_OF(k_i4_src),
               __LINE__);
  }
}

TEST(int4_and_uint4_to_integers_like_tf) {
  /* 0..15 then bytes with a nonzero high nibble (ignored) */
  static const uint8_t kRaw[20] = {0,  1,  2,  3,  4,  5,    6,    7,    8,    9,
                                   10, 11, 12, 13, 14, 15, 0xf7, 0x18, 0x80, 0xff};
  static const TF_DataType kTypes[8] = {TF_INT8, TF_INT16, TF_INT32,
                                        TF_INT64, TF_UINT8, TF_UINT16,
                                        TF_UINT32, TF_UINT64};
  static const int64_t* kFromI4[7] = {k_int4_to_int8, k_int4_to_int16,
                                      k_int4_to_int32, k_int4_to_int64,
                                      k_int4_to_uint8, k_int4_to_uint16,
                                      k_int4_to_uint32};
  static const int64_t* kFromU4[7] = {k_uint4_to_int8, k_uint4_to_int16,
                                      k_uint4_to_int32, k_uint4_to_int64,
                                      k_uint4_to_uint8, k_uint4_to_uint16,
                                      k_uint4_to_uint32};
  uint64_t want[20];
  int t, s;
  for (s = 0; s < 2; s++) {
    TF_DataType st = s == 0 ? TF_INT4 : TF_UINT4;
    for (t = 0; t < 8; t++) {
      if (t < 7) {
        int_tensor_bytes(kTypes[t], s == 0 ? kFromI4[t] : kFromU4[t], 20,
                         want);
      } else {
        memcpy(want, s == 0 ? k_int4_to_uint64 : k_uint4_to_uint64,
               sizeof want);
      }
      check_cast(st, kRaw, 1, kTypes[t], 0, want, TF_DataTypeSize(kTypes[t]),
                 20, __LINE__);
    }
    check_cast(st, kRaw, 1, s == 0 ? TF_UINT4 : TF_INT4, 0,
               s == 0 ? k_int4_to_other : k_uint4_to_other, 1, 20, __LINE__);
  }
}

static void unsupported(TF_DataType st, TF_DataType dt, const char* msg) {
  static const uint8_t kZero[16] = {0};
  TF_Tensor* y = cast(raw_tensor(st, kZero, 2, TF_DataTypeSize(st)), dt, 0);
  CHECK(y == NULL);
  CHECK_CODE(S, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(S), msg);
}

TEST(casts_tf_does_not_support_are_unimplemented) {
  /* TF 2.21: "Cast <src> to <dst> is not supported" */
  unsupported(TF_FLOAT, TF_FLOAT8_E4M3FNUZ,
              "Cast float to float8_e4m3fnuz is not supported");
  unsupported(TF_FLOAT, TF_FLOAT8_E5M2FNUZ,
              "Cast float to float8_e5m2fnuz is not supported");
  unsupported(TF_FLOAT, TF_FLOAT8_E4M3B11FNUZ,
              "Cast float to float8_e4m3b11fnuz is not supported");
  unsupported(TF_INT32, TF_FLOAT8_E4M3FN,
              "Cast int32 to float8_e4m3fn is not supported");
  unsupported(TF_BOOL, TF_FLOAT8_E5M2,
              "Cast bool to float8_e5m2 is not supported");
  unsupported(TF_COMPLEX64, TF_FLOAT8_E5M2,
              "Cast complex64 to float8_e5m2 is not supported");
  unsupported(TF_FLOAT8_E4M3FN, TF_FLOAT8_E4M3FNUZ,
              "Cast float8_e4m3fn to float8_e4m3fnuz is not supported");
  unsupported(TF_FLOAT8_E5M2, TF_INT4,
              "Cast float8_e5m2 to int4 is not supported");
  unsupported(TF_FLOAT, TF_INT4, "Cast float to int4 is not supported");
  unsupported(TF_INT4, TF_FLOAT, "Cast int4 to float is not supported");
  unsupported(TF_UINT4, TF_BOOL, "Cast uint4 to bool is not supported");
  unsupported(TF_BOOL, TF_UINT4, "Cast bool to uint4 is not supported");
  unsupported(TF_INT4, TF_HALF, "Cast int4 to half is not supported");
  tfe_attrs_destroy(&A);
  TF_DeleteStatus(S);
  S = NULL;
}

TFE_TEST_MAIN
