/* TF_Tensor: allocation for every dtype, shapes (scalar, zero-size, high
 * rank), TF_NewTensor ownership rules, TF_TensorMaybeMove, TF_SetShape,
 * TF_TensorBitcastFrom, NULL handling, TF_DataTypeSize, TF_STRING tensors
 * and allocation-failure paths. Expected values follow TensorFlow 2.21. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

/* ---- helpers ---------------------------------------------------------- */

/* Records every call of the test deallocator. */
typedef struct {
  int calls;
  void* data;
  size_t len;
  void* arg;
  int do_free; /* free(data) when called */
} dealloc_log;

static void record_dealloc(void* data, size_t len, void* arg) {
  dealloc_log* log = (dealloc_log*)arg;
  log->calls++;
  log->data = data;
  log->len = len;
  log->arg = arg;
  if (log->do_free) free(data);
}

static void* aligned_block(size_t n) {
  void* p = NULL;
  if (posix_memalign(&p, 64, n ? n : 64) != 0) return NULL;
  return p;
}

static int64_t live_tensors(void) {
  return TFE_LiveObjectCount(TFE_OBJ_TENSOR);
}
static int64_t live_buffers(void) {
  return TFE_LiveObjectCount(TFE_OBJ_TENSOR_BUFFER);
}

static const TF_DataType kFixedTypes[] = {
    TF_FLOAT,          TF_DOUBLE,         TF_INT32,
    TF_UINT8,          TF_INT16,          TF_INT8,
    TF_COMPLEX64,      TF_INT64,          TF_BOOL,
    TF_QINT8,          TF_QUINT8,         TF_QINT32,
    TF_BFLOAT16,       TF_QINT16,         TF_QUINT16,
    TF_UINT16,         TF_COMPLEX128,     TF_HALF,
    TF_UINT32,         TF_UINT64,         TF_FLOAT8_E5M2,
    TF_FLOAT8_E4M3FN,  TF_FLOAT8_E4M3FNUZ, TF_FLOAT8_E4M3B11FNUZ,
    TF_FLOAT8_E5M2FNUZ, TF_INT4,          TF_UINT4,
    TF_INT2,           TF_UINT2};
#define NUM_FIXED (sizeof kFixedTypes / sizeof kFixedTypes[0])

/* ---- TF_DataTypeSize -------------------------------------------------- */

TEST(datatype_size_matches_tensorflow) {
  /* Values observed from TensorFlow 2.21 for 0..34. */
  static const size_t want[35] = {0, 4, 8, 4, 1, 2, 1, 0, 8, 8, 1, 1,
                                  1, 4, 2, 2, 2, 2, 16, 2, 0, 0, 4, 8,
                                  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
  for (int dt = 0; dt <= 34; dt++) {
    if (TF_DataTypeSize((TF_DataType)dt) != want[dt]) {
      TFE_FAIL("TF_DataTypeSize(%d) = %zu, expected %zu", dt,
               TF_DataTypeSize((TF_DataType)dt), want[dt]);
    }
  }
  CHECK_EQ_SIZE(TF_DataTypeSize((TF_DataType)100), 0);
  CHECK_EQ_SIZE(TF_DataTypeSize((TF_DataType)-1), 0);
  CHECK_EQ_SIZE(TF_DataTypeSize(TF_COMPLEX), 8);
  CHECK_EQ_INT(TF_COMPLEX, TF_COMPLEX64);
}

TEST(datatype_enum_values) {
  CHECK_EQ_INT(TF_FLOAT, 1);
  CHECK_EQ_INT(TF_STRING, 7);
  CHECK_EQ_INT(TF_INT64, 9);
  CHECK_EQ_INT(TF_BFLOAT16, 14);
  CHECK_EQ_INT(TF_HALF, 19);
  CHECK_EQ_INT(TF_RESOURCE, 20);
  CHECK_EQ_INT(TF_VARIANT, 21);
  CHECK_EQ_INT(TF_UINT64, 23);
  CHECK_EQ_INT(TF_FLOAT8_E5M2, 24);
  CHECK_EQ_INT(TF_INT4, 29);
  CHECK_EQ_INT(TF_UINT2, 32);
}

/* ---- TF_AllocateTensor ------------------------------------------------ */

TEST(allocate_every_fixed_dtype) {
  const int64_t dims[2] = {2, 3};
  CHECK_EQ_SIZE(TF_TensorDefaultAlignment(), 64);
  for (size_t i = 0; i < NUM_FIXED; i++) {
    TF_DataType dt = kFixedTypes[i];
    size_t esz = TF_DataTypeSize(dt);
    TF_Tensor* t;
    CHECK(esz > 0);
    t = TF_AllocateTensor(dt, dims, 2, 6 * esz);
    if (t == NULL) TFE_FAIL("TF_AllocateTensor(dtype %d) returned NULL", dt);
    CHECK_EQ_INT(TF_TensorType(t), dt);
    CHECK_EQ_INT(TF_NumDims(t), 2);
    CHECK_EQ_INT(TF_Dim(t, 0), 2);
    CHECK_EQ_INT(TF_Dim(t, 1), 3);
    CHECK_EQ_SIZE(TF_TensorByteSize(t), 6 * esz);
    CHECK_EQ_INT(TF_TensorElementCount(t), 6);
    CHECK(TF_TensorData(t) != NULL);
    CHECK(TF_TensorIsAligned(t));
    CHECK_EQ_INT((uintptr_t)TF_TensorData(t) % 64, 0);
    /* The whole buffer is writable and keeps what was written. */
    memset(TF_TensorData(t), 0x5a, TF_TensorByteSize(t));
    CHECK_EQ_INT(((unsigned char*)TF_TensorData(t))[6 * esz - 1], 0x5a);
    TF_DeleteTensor(t);
  }
}

TEST(allocate_larger_len_is_kept) {
  const int64_t dims[1] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 64);
  CHECK(t != NULL);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 64);
  CHECK_EQ_INT(TF_TensorElementCount(t), 2);
  memset(TF_TensorData(t), 1, 64);
  TF_DeleteTensor(t);
}

TEST(allocate_scalar) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_NumDims(t), 0);
  CHECK_EQ_INT(TF_TensorElementCount(t), 1);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 4);
  CHECK_EQ_INT(TF_Dim(t, 0), -1);
  *(float*)TF_TensorData(t) = 2.5f;
  CHECK(*(float*)TF_TensorData(t) == 2.5f);
  TF_DeleteTensor(t);

  /* A non-NULL dims pointer with num_dims 0 is also a scalar. */
  {
    const int64_t ignored[1] = {7};
    t = TF_AllocateTensor(TF_INT64, ignored, 0, 8);
    CHECK(t != NULL);
    CHECK_EQ_INT(TF_NumDims(t), 0);
    CHECK_EQ_INT(TF_TensorElementCount(t), 1);
    TF_DeleteTensor(t);
  }
}

TEST(allocate_zero_sized_dims) {
  const int64_t d1[1] = {0};
  const int64_t d3[3] = {3, 0, 2};
  const int64_t d2[2] = {0, 5};
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, d1, 1, 0);
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_NumDims(t), 1);
  CHECK_EQ_INT(TF_Dim(t, 0), 0);
  CHECK_EQ_INT(TF_TensorElementCount(t), 0);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 0);
  TF_DeleteTensor(t);

  t = TF_AllocateTensor(TF_FLOAT, d3, 3, 0);
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_NumDims(t), 3);
  CHECK_EQ_INT(TF_Dim(t, 0), 3);
  CHECK_EQ_INT(TF_Dim(t, 1), 0);
  CHECK_EQ_INT(TF_Dim(t, 2), 2);
  CHECK_EQ_INT(TF_TensorElementCount(t), 0);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 0);
  TF_DeleteTensor(t);

  /* A zero dimension makes the product zero even next to a huge one. */
  {
    const int64_t dz[3] = {INT64_MAX, 0, INT64_MAX};
    t = TF_AllocateTensor(TF_DOUBLE, dz, 3, 0);
    CHECK(t != NULL);
    CHECK_EQ_INT(TF_TensorElementCount(t), 0);
    TF_DeleteTensor(t);
  }

  t = TF_AllocateTensor(TF_COMPLEX128, d2, 2, 0);
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_TensorElementCount(t), 0);
  TF_DeleteTensor(t);
}

TEST(allocate_rank6_inline_and_rank7_heap_dims) {
  int64_t d6[6] = {1, 1, 1, 1, 1, 2};
  int64_t d9[9] = {1, 2, 1, 3, 1, 1, 2, 1, 1};
  TF_Tensor* t = TF_AllocateTensor(TF_DOUBLE, d6, 6, 16);
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_NumDims(t), 6);
  CHECK_EQ_INT(TF_Dim(t, 5), 2);
  CHECK_EQ_INT(TF_TensorElementCount(t), 2);
  TF_DeleteTensor(t);

  t = TF_AllocateTensor(TF_INT32, d9, 9, 12 * 4);
  CHECK(t != NULL);
  /* The tensor keeps its own copy of the dims. */
  d9[1] = 99;
  CHECK_EQ_INT(TF_NumDims(t), 9);
  for (int i = 0; i < 9; i++) {
    static const int64_t want[9] = {1, 2, 1, 3, 1, 1, 2, 1, 1};
    CHECK_EQ_INT(TF_Dim(t, i), want[i]);
  }
  CHECK_EQ_INT(TF_Dim(t, 9), -1);
  CHECK_EQ_INT(TF_TensorElementCount(t), 12);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 48);
  TF_DeleteTensor(t);
}

TEST(allocate_rank_limit_254) {
  int64_t dims[256];
  TF_Tensor* t;
  for (int i = 0; i < 256; i++) dims[i] = 1;
  dims[100] = 3;
  t = TF_AllocateTensor(TF_UINT8, dims, 254, 3);
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_NumDims(t), 254);
  CHECK_EQ_INT(TF_Dim(t, 100), 3);
  CHECK_EQ_INT(TF_Dim(t, 253), 1);
  CHECK_EQ_INT(TF_Dim(t, 254), -1);
  CHECK_EQ_INT(TF_TensorElementCount(t), 3);
  TF_DeleteTensor(t);

  {
    int64_t tensors = live_tensors(), bufs = live_buffers();
    CHECK(TF_AllocateTensor(TF_UINT8, dims, 255, 3) == NULL);
    CHECK(TF_AllocateTensor(TF_UINT8, dims, 256, 3) == NULL);
    CHECK_EQ_INT(live_tensors(), tensors);
    CHECK_EQ_INT(live_buffers(), bufs);
  }
}

TEST(allocate_rejects_bad_shapes) {
  int64_t tensors = live_tensors(), bufs = live_buffers();
  const int64_t neg[2] = {2, -1};
  const int64_t neg_zero[2] = {0, -3};
  const int64_t overflow[2] = {INT64_MAX / 2, 4};
  const int64_t bytes_overflow[1] = {(int64_t)1 << 61}; /* x16 > SIZE_MAX */
  const int64_t ok[2] = {2, 3};
  CHECK(TF_AllocateTensor(TF_FLOAT, neg, 2, 1024) == NULL);
  CHECK(TF_AllocateTensor(TF_FLOAT, neg_zero, 2, 1024) == NULL);
  CHECK(TF_AllocateTensor(TF_FLOAT, overflow, 2, 1024) == NULL);
  CHECK(TF_AllocateTensor(TF_COMPLEX128, bytes_overflow, 1, 1024) == NULL);
  CHECK(TF_AllocateTensor(TF_FLOAT, ok, -1, 1024) == NULL);
  CHECK(TF_AllocateTensor(TF_FLOAT, NULL, 2, 1024) == NULL);
  /* len too small for the shape */
  CHECK(TF_AllocateTensor(TF_FLOAT, ok, 2, 23) == NULL);
  CHECK(TF_AllocateTensor(TF_FLOAT, ok, 2, 0) == NULL);
  CHECK(TF_AllocateTensor(TF_FLOAT, NULL, 0, 3) == NULL);
  CHECK_EQ_INT(live_tensors(), tensors);
  CHECK_EQ_INT(live_buffers(), bufs);
}

TEST(live_counts_follow_allocate_and_delete) {
  const int64_t dims[1] = {4};
  int64_t tensors = live_tensors(), bufs = live_buffers();
  TF_Tensor* a = TF_AllocateTensor(TF_FLOAT, dims, 1, 16);
  TF_Tensor* b = TF_AllocateTensor(TF_INT8, dims, 1, 4);
  CHECK_EQ_INT(live_tensors(), tensors + 2);
  CHECK_EQ_INT(live_buffers(), bufs + 2);
  TF_DeleteTensor(a);
  CHECK_EQ_INT(live_tensors(), tensors + 1);
  CHECK_EQ_INT(live_buffers(), bufs + 1);
  TF_DeleteTensor(b);
  CHECK_EQ_INT(live_tensors(), tensors);
  CHECK_EQ_INT(live_buffers(), bufs);
}

/* ---- NULL handling ------------------------------------------------------ */

TEST(null_tensor_accessors) {
  TF_DeleteTensor(NULL);
  CHECK_EQ_INT(TF_NumDims(NULL), -1);
  CHECK_EQ_INT(TF_TensorElementCount(NULL), -1);
  CHECK(TF_TensorData(NULL) == NULL);
  CHECK_EQ_SIZE(TF_TensorByteSize(NULL), 0);
  CHECK_EQ_INT(TF_Dim(NULL, 0), -1);
  CHECK(!TF_TensorIsAligned(NULL));
  CHECK(TF_TensorMaybeMove(NULL) == NULL);
  TF_SetShape(NULL, NULL, 0);
}

TEST(dim_out_of_range) {
  const int64_t dims[2] = {5, 7};
  TF_Tensor* t = TF_AllocateTensor(TF_INT16, dims, 2, 70);
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_Dim(t, 0), 5);
  CHECK_EQ_INT(TF_Dim(t, 1), 7);
  CHECK_EQ_INT(TF_Dim(t, 2), -1);
  CHECK_EQ_INT(TF_Dim(t, -1), -1);
  CHECK_EQ_INT(TF_Dim(t, 1 << 30), -1);
  TF_DeleteTensor(t);
}

/* ---- TF_NewTensor ------------------------------------------------------- */

TEST(new_tensor_aligned_wraps_caller_memory) {
  const int64_t dims[2] = {3, 2};
  float* p = (float*)aligned_block(6 * sizeof(float));
  dealloc_log log = {0, NULL, 0, NULL, 1};
  int64_t bufs = live_buffers();
  TF_Tensor* t;
  for (int i = 0; i < 6; i++) p[i] = (float)i * 1.5f;
  t = TF_NewTensor(TF_FLOAT, dims, 2, p, 6 * sizeof(float), record_dealloc,
                   &log);
  CHECK(t != NULL);
  CHECK_EQ_INT(log.calls, 0);
  CHECK(TF_TensorData(t) == (void*)p);
  CHECK(TF_TensorIsAligned(t));
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 24);
  CHECK_EQ_INT(TF_TensorElementCount(t), 6);
  CHECK_EQ_INT(TF_TensorType(t), TF_FLOAT);
  CHECK(((float*)TF_TensorData(t))[5] == 7.5f);
  CHECK_EQ_INT(live_buffers(), bufs + 1);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(log.calls, 1);
  CHECK(log.data == (void*)p);
  CHECK_EQ_SIZE(log.len, 24);
  CHECK(log.arg == &log);
  CHECK_EQ_INT(live_buffers(), bufs);
}

TEST(new_tensor_unaligned_is_copied_and_released_at_once) {
  const int64_t dims[1] = {4};
  char* base = (char*)aligned_block(64);
  float* p = (float*)(base + 4);
  dealloc_log log = {0, NULL, 0, NULL, 0};
  TF_Tensor* t;
  for (int i = 0; i < 4; i++) p[i] = (float)(i + 1);
  t = TF_NewTensor(TF_FLOAT, dims, 1, p, 16, record_dealloc, &log);
  CHECK(t != NULL);
  /* The deallocator already ran with the caller's pointer. */
  CHECK_EQ_INT(log.calls, 1);
  CHECK(log.data == (void*)p);
  CHECK_EQ_SIZE(log.len, 16);
  CHECK(TF_TensorData(t) != (void*)p);
  CHECK(TF_TensorIsAligned(t));
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 16);
  /* Overwrite the original: the tensor has its own copy. */
  memset(base, 0, 64);
  CHECK(((float*)TF_TensorData(t))[0] == 1.0f);
  CHECK(((float*)TF_TensorData(t))[3] == 4.0f);
  /* Memory the core copied into belongs to the core: it can be moved. */
  {
    TF_Tensor* m = TF_TensorMaybeMove(t);
    CHECK(m != NULL);
    t = m;
  }
  TF_DeleteTensor(t);
  CHECK_EQ_INT(log.calls, 1);
  free(base);
}

TEST(new_tensor_len_too_small_calls_deallocator_and_fails) {
  static float buf[16] __attribute__((aligned(64)));
  const int64_t dims[2] = {4, 4};
  dealloc_log log = {0, NULL, 0, NULL, 0};
  int64_t tensors = live_tensors(), bufs = live_buffers();
  TF_Tensor* t =
      TF_NewTensor(TF_FLOAT, dims, 2, buf, 8, record_dealloc, &log);
  CHECK(t == NULL);
  CHECK_EQ_INT(log.calls, 1);
  CHECK(log.data == (void*)buf);
  CHECK_EQ_SIZE(log.len, 8);
  CHECK_EQ_INT(live_tensors(), tensors);
  CHECK_EQ_INT(live_buffers(), bufs);
}

TEST(new_tensor_len_larger_is_accepted) {
  static float buf[16] __attribute__((aligned(64)));
  const int64_t dims[1] = {2};
  dealloc_log log = {0, NULL, 0, NULL, 0};
  TF_Tensor* t =
      TF_NewTensor(TF_FLOAT, dims, 1, buf, 64, record_dealloc, &log);
  CHECK(t != NULL);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 64);
  CHECK_EQ_INT(TF_TensorElementCount(t), 2);
  CHECK_EQ_INT(log.calls, 0);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(log.calls, 1);
  CHECK_EQ_SIZE(log.len, 64);
}

TEST(new_tensor_zero_elements) {
  static float buf[1] __attribute__((aligned(64)));
  const int64_t dims[2] = {0, 5};
  dealloc_log log = {0, NULL, 0, NULL, 0};
  TF_Tensor* t = TF_NewTensor(TF_FLOAT, dims, 2, buf, 0, record_dealloc, &log);
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_TensorElementCount(t), 0);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 0);
  CHECK_EQ_INT(log.calls, 0);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(log.calls, 1);
  CHECK_EQ_SIZE(log.len, 0);

  /* NULL data is fine when no bytes are needed. */
  log.calls = 0;
  t = TF_NewTensor(TF_FLOAT, dims, 2, NULL, 0, record_dealloc, &log);
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_TensorElementCount(t), 0);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(log.calls, 1);
}

TEST(new_tensor_null_data_with_len_fails) {
  const int64_t dims[1] = {4};
  dealloc_log log = {0, NULL, 0, NULL, 0};
  int64_t tensors = live_tensors(), bufs = live_buffers();
  CHECK(TF_NewTensor(TF_FLOAT, dims, 1, NULL, 16, record_dealloc, &log) ==
        NULL);
  CHECK_EQ_INT(log.calls, 1);
  CHECK(log.data == NULL);
  CHECK_EQ_INT(live_tensors(), tensors);
  CHECK_EQ_INT(live_buffers(), bufs);
}

TEST(new_tensor_bad_shape_calls_deallocator_once) {
  static float buf[16] __attribute__((aligned(64)));
  const int64_t neg[2] = {2, -2};
  const int64_t overflow[2] = {INT64_MAX / 2, 4};
  int64_t d300[300];
  dealloc_log log = {0, NULL, 0, NULL, 0};
  int64_t tensors = live_tensors(), bufs = live_buffers();
  for (int i = 0; i < 300; i++) d300[i] = 1;

  CHECK(TF_NewTensor(TF_FLOAT, neg, 2, buf, 64, record_dealloc, &log) == NULL);
  CHECK_EQ_INT(log.calls, 1);
  CHECK(TF_NewTensor(TF_FLOAT, overflow, 2, buf, 64, record_dealloc, &log) ==
        NULL);
  CHECK_EQ_INT(log.calls, 2);
  CHECK(TF_NewTensor(TF_FLOAT, d300, 255, buf, 64, record_dealloc, &log) ==
        NULL);
  CHECK_EQ_INT(log.calls, 3);
  CHECK(TF_NewTensor(TF_FLOAT, neg, -1, buf, 64, record_dealloc, &log) ==
        NULL);
  CHECK_EQ_INT(log.calls, 4);
  CHECK(TF_NewTensor(TF_FLOAT, NULL, 2, buf, 64, record_dealloc, &log) ==
        NULL);
  CHECK_EQ_INT(log.calls, 5);
  CHECK_EQ_INT(live_tensors(), tensors);
  CHECK_EQ_INT(live_buffers(), bufs);

  /* Rank 254 is still accepted. */
  {
    TF_Tensor* t =
        TF_NewTensor(TF_FLOAT, d300, 254, buf, 4, record_dealloc, &log);
    CHECK(t != NULL);
    CHECK_EQ_INT(TF_NumDims(t), 254);
    TF_DeleteTensor(t);
    CHECK_EQ_INT(log.calls, 6);
  }
}

TEST(new_tensor_null_deallocator_leaves_memory_to_caller) {
  static int32_t aligned_buf[4] __attribute__((aligned(64))) = {1, 2, 3, 4};
  static char unaligned_store[80] __attribute__((aligned(64)));
  const int64_t dims[1] = {4};
  TF_Tensor* t =
      TF_NewTensor(TF_INT32, dims, 1, aligned_buf, 16, NULL, NULL);
  CHECK(t != NULL);
  CHECK(TF_TensorData(t) == (void*)aligned_buf);
  /* Not the core's memory: never moved. */
  CHECK(TF_TensorMaybeMove(t) == NULL);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(aligned_buf[3], 4); /* still the caller's, untouched */

  memcpy(unaligned_store + 8, aligned_buf, 16);
  t = TF_NewTensor(TF_INT32, dims, 1, unaligned_store + 8, 16, NULL, NULL);
  CHECK(t != NULL);
  CHECK(TF_TensorData(t) != (void*)(unaligned_store + 8));
  CHECK_EQ_INT(((int32_t*)TF_TensorData(t))[2], 3);
  TF_DeleteTensor(t);

  /* Failure with a NULL deallocator is also harmless. */
  CHECK(TF_NewTensor(TF_INT32, dims, 1, aligned_buf, 4, NULL, NULL) == NULL);
}

TEST(new_tensor_int32_values_and_default_arg) {
  const int64_t dims[1] = {4};
  int32_t* p = (int32_t*)aligned_block(16);
  dealloc_log log = {0, NULL, 0, NULL, 1};
  TF_Tensor* t;
  for (int i = 0; i < 4; i++) p[i] = -i;
  t = TF_NewTensor(TF_INT32, dims, 1, p, 16, record_dealloc, &log);
  CHECK(t != NULL);
  CHECK_EQ_INT(((int32_t*)TF_TensorData(t))[3], -3);
  CHECK_EQ_INT(TF_Dim(t, 0), 4);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(log.calls, 1);
}

/* Runs TF_NewTensor with the n-th core allocation failing, for n = 0..9,
 * and checks the deallocator runs exactly once and nothing leaks. */
static void new_tensor_under_failures(int unaligned, int rank) {
  int64_t dims[8] = {1, 1, 1, 1, 1, 1, 1, 4};
  const int64_t* d = dims + (8 - rank);
  int64_t tensors = live_tensors(), bufs = live_buffers();
  int saw_null = 0, saw_ok = 0;
  for (int n = 0; n < 10; n++) {
    char* block = (char*)aligned_block(128);
    float* data = (float*)(block + (unaligned ? 4 : 0));
    dealloc_log log = {0, NULL, 0, NULL, 0};
    TF_Tensor* t;
    for (int i = 0; i < 4; i++) data[i] = (float)i + 0.5f;
    TFE_TestFailAllocationsAfter(n);
    t = TF_NewTensor(TF_FLOAT, d, rank, data, 16, record_dealloc, &log);
    TFE_TestFailAllocationsAfter(-1);
    if (t == NULL) {
      saw_null = 1;
      if (log.calls != 1) {
        TFE_FAIL("failure after %d allocations: deallocator ran %d times", n,
                 log.calls);
      }
      CHECK(log.data == (void*)data);
    } else {
      saw_ok = 1;
      CHECK_EQ_INT(TF_NumDims(t), rank);
      CHECK(((float*)TF_TensorData(t))[3] == 3.5f);
      CHECK_EQ_INT(log.calls, unaligned ? 1 : 0);
      TF_DeleteTensor(t);
      CHECK_EQ_INT(log.calls, 1);
    }
    CHECK_EQ_INT(live_tensors(), tensors);
    CHECK_EQ_INT(live_buffers(), bufs);
    free(block);
  }
  CHECK(saw_null);
  CHECK(saw_ok);
}

TEST(new_tensor_allocation_failure_aligned) { new_tensor_under_failures(0, 2); }
TEST(new_tensor_allocation_failure_unaligned) {
  new_tensor_under_failures(1, 2);
}
TEST(new_tensor_allocation_failure_heap_dims) {
  new_tensor_under_failures(0, 8);
  new_tensor_under_failures(1, 8);
}

TEST(new_tensor_first_allocation_fails) {
  static float buf[4] __attribute__((aligned(64)));
  const int64_t dims[1] = {4};
  dealloc_log log = {0, NULL, 0, NULL, 0};
  int64_t tensors = live_tensors(), bufs = live_buffers();
  TF_Tensor* t;
  TFE_TestFailAllocationsAfter(0);
  t = TF_NewTensor(TF_FLOAT, dims, 1, buf, 16, record_dealloc, &log);
  TFE_TestFailAllocationsAfter(-1);
  CHECK(t == NULL);
  CHECK_EQ_INT(log.calls, 1);
  CHECK(log.data == (void*)buf);
  CHECK_EQ_INT(live_tensors(), tensors);
  CHECK_EQ_INT(live_buffers(), bufs);
}

TEST(allocate_tensor_allocation_failure) {
  int64_t dims[8] = {1, 1, 1, 1, 1, 1, 2, 2};
  int64_t tensors = live_tensors(), bufs = live_buffers();
  int saw_null = 0;
  for (int rank = 2; rank <= 8; rank += 6) {
    for (int n = 0; n < 10; n++) {
      TF_Tensor* t;
      TFE_TestFailAllocationsAfter(n);
      t = TF_AllocateTensor(TF_INT32, dims + (8 - rank), rank, 16);
      TFE_TestFailAllocationsAfter(-1);
      if (t == NULL) {
        saw_null = 1;
      } else {
        CHECK_EQ_INT(TF_NumDims(t), rank);
        CHECK_EQ_INT(TF_TensorElementCount(t), 4);
        TF_DeleteTensor(t);
      }
      CHECK_EQ_INT(live_tensors(), tensors);
      CHECK_EQ_INT(live_buffers(), bufs);
    }
  }
  CHECK(saw_null);
  /* Injection is switched off again. */
  {
    TF_Tensor* t = TF_AllocateTensor(TF_INT32, dims, 2, 4);
    CHECK(t != NULL);
    TF_DeleteTensor(t);
  }
}

/* ---- TF_TensorMaybeMove ------------------------------------------------- */

TEST(maybe_move_sole_owner_of_core_memory) {
  const int64_t dims[1] = {2};
  int64_t tensors = live_tensors();
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 8);
  TF_Tensor* m;
  ((float*)TF_TensorData(t))[0] = 7;
  ((float*)TF_TensorData(t))[1] = 8;
  m = TF_TensorMaybeMove(t);
  CHECK(m != NULL);
  /* t is consumed: only m is deleted below. */
  CHECK_EQ_INT(TF_TensorType(m), TF_FLOAT);
  CHECK_EQ_INT(TF_Dim(m, 0), 2);
  CHECK(((float*)TF_TensorData(m))[0] == 7.0f);
  CHECK(((float*)TF_TensorData(m))[1] == 8.0f);
  TF_DeleteTensor(m);
  CHECK_EQ_INT(live_tensors(), tensors);
}

TEST(maybe_move_caller_memory_is_refused) {
  static float buf[2] __attribute__((aligned(64))) = {1, 2};
  const int64_t dims[1] = {2};
  dealloc_log log = {0, NULL, 0, NULL, 0};
  TF_Tensor* t = TF_NewTensor(TF_FLOAT, dims, 1, buf, 8, record_dealloc, &log);
  CHECK(t != NULL);
  CHECK(TF_TensorMaybeMove(t) == NULL);
  /* t is untouched and still usable. */
  CHECK(((float*)TF_TensorData(t))[1] == 2.0f);
  CHECK_EQ_INT(log.calls, 0);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(log.calls, 1);
}

TEST(maybe_move_shared_buffer_is_refused) {
  const int64_t dims[1] = {2};
  TF_Status* s = TF_NewStatus();
  TF_Tensor* from = TF_AllocateTensor(TF_FLOAT, dims, 1, 8);
  TF_Tensor* to = TF_AllocateTensor(TF_INT32, dims, 1, 8);
  TF_TensorBitcastFrom(from, TF_INT32, to, dims, 1, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorMaybeMove(from) == NULL);
  CHECK(TF_TensorMaybeMove(to) == NULL);
  /* Once the other sharer is gone, the survivor is the sole owner. */
  TF_DeleteTensor(from);
  {
    TF_Tensor* m = TF_TensorMaybeMove(to);
    CHECK(m != NULL);
    TF_DeleteTensor(m);
  }
  TF_DeleteStatus(s);
}

/* ---- TF_SetShape -------------------------------------------------------- */

TEST(set_shape_reshapes_in_place) {
  const int64_t d23[2] = {2, 3};
  const int64_t d32[2] = {3, 2};
  const int64_t d6[1] = {6};
  const int64_t d7[7] = {1, 1, 1, 1, 1, 2, 3};
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, d23, 2, 24);
  void* data = TF_TensorData(t);
  for (int i = 0; i < 6; i++) ((int32_t*)data)[i] = i;
  TF_SetShape(t, d32, 2);
  CHECK_EQ_INT(TF_NumDims(t), 2);
  CHECK_EQ_INT(TF_Dim(t, 0), 3);
  CHECK_EQ_INT(TF_Dim(t, 1), 2);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 24);
  CHECK(TF_TensorData(t) == data);
  TF_SetShape(t, d6, 1);
  CHECK_EQ_INT(TF_NumDims(t), 1);
  CHECK_EQ_INT(TF_Dim(t, 0), 6);
  CHECK_EQ_INT(((int32_t*)TF_TensorData(t))[5], 5);
  /* To rank 7 (heap dims) and back to inline dims. */
  TF_SetShape(t, d7, 7);
  CHECK_EQ_INT(TF_NumDims(t), 7);
  CHECK_EQ_INT(TF_Dim(t, 6), 3);
  CHECK_EQ_INT(TF_TensorElementCount(t), 6);
  TF_SetShape(t, d23, 2);
  CHECK_EQ_INT(TF_NumDims(t), 2);
  CHECK_EQ_INT(TF_Dim(t, 1), 3);
  /* A smaller shape fits in the buffer. */
  TF_SetShape(t, d23, 1);
  CHECK_EQ_INT(TF_NumDims(t), 1);
  CHECK_EQ_INT(TF_TensorElementCount(t), 2);
  /* So does a scalar. */
  TF_SetShape(t, NULL, 0);
  CHECK_EQ_INT(TF_NumDims(t), 0);
  CHECK_EQ_INT(TF_TensorElementCount(t), 1);
  TF_DeleteTensor(t);
}

TEST(set_shape_rejects_what_does_not_fit) {
  const int64_t d23[2] = {2, 3};
  const int64_t big[2] = {4, 3};
  const int64_t neg[2] = {-2, -3};
  const int64_t huge[2] = {INT64_MAX / 2, 4};
  int64_t d255[255];
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, d23, 2, 24);
  for (int i = 0; i < 255; i++) d255[i] = 1;
  TF_SetShape(t, big, 2);
  TF_SetShape(t, neg, 2);
  TF_SetShape(t, huge, 2);
  TF_SetShape(t, d255, 255);
  TF_SetShape(t, NULL, 3);
  TF_SetShape(t, d23, -1);
  CHECK_EQ_INT(TF_NumDims(t), 2);
  CHECK_EQ_INT(TF_Dim(t, 0), 2);
  CHECK_EQ_INT(TF_Dim(t, 1), 3);
  CHECK_EQ_INT(TF_TensorElementCount(t), 6);
  TF_DeleteTensor(t);
}

TEST(set_shape_allocation_failure_keeps_shape) {
  const int64_t d23[2] = {2, 3};
  const int64_t d8[8] = {1, 1, 1, 1, 1, 1, 2, 3};
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, d23, 2, 24);
  TFE_TestFailAllocationsAfter(0);
  TF_SetShape(t, d8, 8); /* needs a heap dims array, which fails */
  TFE_TestFailAllocationsAfter(-1);
  CHECK_EQ_INT(TF_NumDims(t), 2);
  CHECK_EQ_INT(TF_Dim(t, 1), 3);
  TF_SetShape(t, d8, 8);
  CHECK_EQ_INT(TF_NumDims(t), 8);
  TF_DeleteTensor(t);
}

/* ---- TF_TensorBitcastFrom ---------------------------------------------- */

TEST(bitcast_reinterprets_bytes) {
  const int64_t d2[1] = {2};
  const int64_t d8[1] = {8};
  const int64_t d1[1] = {1};
  TF_Status* s = TF_NewStatus();
  TF_Tensor* from = TF_AllocateTensor(TF_FLOAT, d2, 1, 8);
  TF_Tensor* to = TF_AllocateTensor(TF_INT32, d2, 1, 8);
  ((float*)TF_TensorData(from))[0] = 1.0f;
  ((float*)TF_TensorData(from))[1] = -2.0f;

  TF_TensorBitcastFrom(from, TF_INT32, to, d2, 1, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(to), TF_INT32);
  CHECK(TF_TensorData(to) == TF_TensorData(from));
  CHECK_EQ_INT(((int32_t*)TF_TensorData(to))[0], 1065353216);
  CHECK_EQ_INT(((int32_t*)TF_TensorData(to))[1], -1073741824);

  TF_TensorBitcastFrom(from, TF_UINT8, to, d8, 1, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(to), TF_UINT8);
  CHECK_EQ_INT(TF_Dim(to, 0), 8);
  {
    static const uint8_t want[8] = {0, 0, 128, 63, 0, 0, 0, 192};
    CHECK(memcmp(TF_TensorData(to), want, 8) == 0);
  }

  /* Writes through one tensor are visible through the other. */
  ((float*)TF_TensorData(from))[0] = 0.0f;
  CHECK_EQ_INT(((uint8_t*)TF_TensorData(to))[2], 0);
  CHECK_EQ_INT(((uint8_t*)TF_TensorData(to))[3], 0);

  TF_TensorBitcastFrom(from, TF_DOUBLE, to, d1, 1, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorElementCount(to), 1);
  CHECK_EQ_SIZE(TF_TensorByteSize(to), 8);

  /* A scalar view of 8 bytes, and a rank-7 view. */
  TF_TensorBitcastFrom(from, TF_INT64, to, NULL, 0, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_NumDims(to), 0);
  {
    const int64_t d7[7] = {1, 2, 1, 1, 1, 2, 1};
    TF_TensorBitcastFrom(from, TF_INT16, to, d7, 7, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_NumDims(to), 7);
    CHECK_EQ_INT(TF_TensorElementCount(to), 4);
  }
  TF_DeleteTensor(from);
  TF_DeleteTensor(to);
  TF_DeleteStatus(s);
}

TEST(bitcast_shared_buffer_outlives_source) {
  const int64_t d4[1] = {4};
  const int64_t d2[1] = {2};
  int64_t bufs = live_buffers();
  TF_Status* s = TF_NewStatus();
  TF_Tensor* from = TF_AllocateTensor(TF_INT32, d4, 1, 16);
  TF_Tensor* to = TF_AllocateTensor(TF_INT8, d2, 1, 2);
  for (int i = 0; i < 4; i++) ((int32_t*)TF_TensorData(from))[i] = 100 + i;
  CHECK_EQ_INT(live_buffers(), bufs + 2);
  TF_TensorBitcastFrom(from, TF_UINT32, to, d4, 1, s);
  CHECK_CODE(s, TF_OK);
  /* to's old buffer was released; one buffer is now shared. */
  CHECK_EQ_INT(live_buffers(), bufs + 1);
  TF_DeleteTensor(from);
  CHECK_EQ_INT(live_buffers(), bufs + 1);
  CHECK_EQ_INT(((uint32_t*)TF_TensorData(to))[0], 100);
  CHECK_EQ_INT(((uint32_t*)TF_TensorData(to))[3], 103);
  CHECK_EQ_SIZE(TF_TensorByteSize(to), 16);
  TF_DeleteTensor(to);
  CHECK_EQ_INT(live_buffers(), bufs);
  TF_DeleteStatus(s);
}

TEST(bitcast_keeps_caller_deallocator_until_last_user) {
  const int64_t d2[1] = {2};
  int32_t* p = (int32_t*)aligned_block(8);
  dealloc_log log = {0, NULL, 0, NULL, 1};
  TF_Status* s = TF_NewStatus();
  TF_Tensor* from, *to;
  p[0] = 5;
  p[1] = 6;
  from = TF_NewTensor(TF_INT32, d2, 1, p, 8, record_dealloc, &log);
  to = TF_AllocateTensor(TF_FLOAT, d2, 1, 8);
  TF_TensorBitcastFrom(from, TF_UINT32, to, d2, 1, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(from);
  CHECK_EQ_INT(log.calls, 0);
  CHECK_EQ_INT(((uint32_t*)TF_TensorData(to))[1], 6);
  TF_DeleteTensor(to);
  CHECK_EQ_INT(log.calls, 1);
  TF_DeleteStatus(s);
}

TEST(bitcast_byte_count_mismatch_leaves_to_unchanged) {
  const int64_t d2[1] = {2};
  const int64_t d3[1] = {3};
  const int64_t d22[2] = {2, 2};
  TF_Status* s = TF_NewStatus();
  TF_Tensor* from = TF_AllocateTensor(TF_FLOAT, d2, 1, 8);
  TF_Tensor* to = TF_AllocateTensor(TF_INT16, d22, 2, 8);
  void* to_data = TF_TensorData(to);
  ((int16_t*)to_data)[0] = 42;

  TF_TensorBitcastFrom(from, TF_INT32, to, d3, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strlen(TF_Message(s)) > 0);
  TF_TensorBitcastFrom(from, TF_DOUBLE, to, d2, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  {
    const int64_t neg[1] = {-2};
    TF_TensorBitcastFrom(from, TF_INT32, to, neg, 1, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
  }
  TF_TensorBitcastFrom(from, TF_INT32, to, NULL, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  CHECK_EQ_INT(TF_TensorType(to), TF_INT16);
  CHECK_EQ_INT(TF_NumDims(to), 2);
  CHECK_EQ_INT(TF_Dim(to, 0), 2);
  CHECK_EQ_INT(TF_Dim(to, 1), 2);
  CHECK(TF_TensorData(to) == to_data);
  CHECK_EQ_INT(((int16_t*)TF_TensorData(to))[0], 42);

  /* A failure after a success overwrites the OK status and vice versa. */
  TF_TensorBitcastFrom(from, TF_INT32, to, d2, 1, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(from);
  TF_DeleteTensor(to);
  TF_DeleteStatus(s);
}

TEST(bitcast_rejects_variable_size_types) {
  const int64_t d1[1] = {1};
  const int64_t d3[1] = {3};
  TF_Status* s = TF_NewStatus();
  TF_Tensor* str = TF_AllocateTensor(TF_STRING, d1, 1, sizeof(TF_TString));
  TF_Tensor* f = TF_AllocateTensor(TF_FLOAT, d3, 1, 12);
  TF_Tensor* to = TF_AllocateTensor(TF_UINT8, d3, 1, 3);
  /* 24 bytes of TF_TString must not be reinterpreted. */
  {
    const int64_t d24[1] = {24};
    TF_TensorBitcastFrom(str, TF_UINT8, to, d24, 1, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
  }
  TF_TensorBitcastFrom(f, TF_STRING, to, d1, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_TensorBitcastFrom(f, TF_RESOURCE, to, d1, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_TensorBitcastFrom(f, TF_VARIANT, to, d1, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_TensorBitcastFrom(f, (TF_DataType)100, to, d1, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TF_TensorType(to), TF_UINT8);
  CHECK_EQ_INT(TF_Dim(to, 0), 3);
  TF_DeleteTensor(str);
  TF_DeleteTensor(f);
  TF_DeleteTensor(to);
  TF_DeleteStatus(s);
}

TEST(bitcast_null_arguments) {
  const int64_t d2[1] = {2};
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, d2, 1, 8);
  TF_TensorBitcastFrom(NULL, TF_INT32, t, d2, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_SetStatus(s, TF_OK, "");
  TF_TensorBitcastFrom(t, TF_INT32, NULL, d2, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_TensorBitcastFrom(NULL, TF_INT32, NULL, d2, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TF_TensorType(t), TF_FLOAT);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
}

TEST(bitcast_onto_itself) {
  const int64_t d4[1] = {4};
  const int64_t d22[2] = {2, 2};
  int64_t bufs = live_buffers();
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TF_AllocateTensor(TF_UINT32, d4, 1, 16);
  ((uint32_t*)TF_TensorData(t))[3] = 0xdeadbeefu;
  TF_TensorBitcastFrom(t, TF_INT32, t, d22, 2, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(t), TF_INT32);
  CHECK_EQ_INT(TF_NumDims(t), 2);
  CHECK_EQ_INT(((uint32_t*)TF_TensorData(t))[3], 0xdeadbeefu);
  CHECK_EQ_INT(live_buffers(), bufs + 1);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(live_buffers(), bufs);
  TF_DeleteStatus(s);
}

TEST(bitcast_zero_sized) {
  const int64_t d0[1] = {0};
  const int64_t d03[2] = {0, 3};
  TF_Status* s = TF_NewStatus();
  TF_Tensor* from = TF_AllocateTensor(TF_FLOAT, d0, 1, 0);
  TF_Tensor* to = TF_AllocateTensor(TF_INT8, d0, 1, 0);
  TF_TensorBitcastFrom(from, TF_DOUBLE, to, d03, 2, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorElementCount(to), 0);
  CHECK_EQ_INT(TF_Dim(to, 1), 3);
  TF_DeleteTensor(from);
  TF_DeleteTensor(to);
  TF_DeleteStatus(s);
}

TEST(bitcast_allocation_failure_leaves_to_unchanged) {
  const int64_t d8[1] = {8};
  const int64_t d7[7] = {1, 1, 1, 1, 1, 2, 4};
  int64_t bufs = live_buffers();
  TF_Status* s = TF_NewStatus();
  TF_Tensor* from = TF_AllocateTensor(TF_UINT8, d8, 1, 8);
  TF_Tensor* to = TF_AllocateTensor(TF_UINT8, d8, 1, 8);
  void* to_data = TF_TensorData(to);
  TFE_TestFailAllocationsAfter(0);
  TF_TensorBitcastFrom(from, TF_INT8, to, d7, 7, s);
  TFE_TestFailAllocationsAfter(-1);
  CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
  CHECK_EQ_INT(TF_TensorType(to), TF_UINT8);
  CHECK_EQ_INT(TF_NumDims(to), 1);
  CHECK(TF_TensorData(to) == to_data);
  CHECK_EQ_INT(live_buffers(), bufs + 2);
  TF_DeleteTensor(from);
  TF_DeleteTensor(to);
  TF_DeleteStatus(s);
}

/* ---- TF_STRING tensors -------------------------------------------------- */

TEST(string_tensor_elements_start_empty) {
  const int64_t dims[2] = {2, 3};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 2, 6 * sizeof(TF_TString));
  TF_TString* d;
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_TensorType(t), TF_STRING);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 6 * 24);
  CHECK_EQ_INT(TF_TensorElementCount(t), 6);
  CHECK(TF_TensorIsAligned(t));
  d = (TF_TString*)TF_TensorData(t);
  for (int i = 0; i < 6; i++) {
    CHECK_EQ_SIZE(TF_StringGetSize(&d[i]), 0);
    CHECK_EQ_INT(TF_StringGetType(&d[i]), TF_TSTR_SMALL);
    CHECK_EQ_INT(TF_StringGetDataPointer(&d[i])[0], '\0');
  }
  TF_DeleteTensor(t);
}

TEST(string_tensor_frees_large_strings) {
  const int64_t dims[1] = {3};
  const char* vals[3] = {"", "short",
                         "a considerably longer string value here"};
  int64_t bufs = live_buffers();
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 1, 3 * sizeof(TF_TString));
  TF_TString* d = (TF_TString*)TF_TensorData(t);
  for (int i = 0; i < 3; i++) TF_StringCopy(&d[i], vals[i], strlen(vals[i]));
  CHECK_EQ_INT(TF_StringGetType(&d[0]), TF_TSTR_SMALL);
  CHECK_EQ_INT(TF_StringGetType(&d[1]), TF_TSTR_SMALL);
  CHECK_EQ_INT(TF_StringGetType(&d[2]), TF_TSTR_LARGE);
  for (int i = 0; i < 3; i++) {
    CHECK_EQ_SIZE(TF_StringGetSize(&d[i]), strlen(vals[i]));
    CHECK(memcmp(TF_StringGetDataPointer(&d[i]), vals[i], strlen(vals[i])) ==
          0);
  }
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 72);
  /* The heap copy of element 2 is released with the tensor; a leak would
   * show up under the sanitizer build. */
  TF_DeleteTensor(t);
  CHECK_EQ_INT(live_buffers(), bufs);
}

TEST(string_tensor_shared_by_move_and_freed_once) {
  const int64_t dims[1] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  TF_TString* d = (TF_TString*)TF_TensorData(t);
  TF_Tensor* m;
  TF_StringCopy(&d[1], "0123456789012345678901234567890123456789", 40);
  m = TF_TensorMaybeMove(t);
  CHECK(m != NULL);
  d = (TF_TString*)TF_TensorData(m);
  CHECK_EQ_SIZE(TF_StringGetSize(&d[1]), 40);
  TF_DeleteTensor(m);
}

TEST(string_scalar_tensor) {
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
  TF_TString* d;
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_NumDims(t), 0);
  CHECK_EQ_INT(TF_TensorElementCount(t), 1);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 24);
  d = (TF_TString*)TF_TensorData(t);
  CHECK_EQ_SIZE(TF_StringGetSize(d), 0);
  TF_StringCopy(d, "scalar\xff", 7);
  CHECK_EQ_SIZE(TF_StringGetSize(d), 7);
  CHECK(memcmp(TF_StringGetDataPointer(d), "scalar\xff", 7) == 0);
  /* Replace it with a heap string; the tensor frees it. */
  TF_StringCopy(d, "a string that is longer than twenty-two bytes", 45);
  CHECK_EQ_INT(TF_StringGetType(d), TF_TSTR_LARGE);
  TF_DeleteTensor(t);
}

TEST(string_tensor_zero_elements) {
  const int64_t dims[2] = {4, 0};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 2, 0);
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_TensorElementCount(t), 0);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 0);
  TF_DeleteTensor(t);
}

TEST(string_tensor_with_caller_memory_and_deallocator) {
  /* The caller owns strings inside memory it hands to TF_NewTensor, and
   * frees them in its deallocator. */
  TF_TString* strs = (TF_TString*)aligned_block(2 * sizeof(TF_TString));
  const int64_t dims[1] = {2};
  dealloc_log log = {0, NULL, 0, NULL, 0};
  TF_Tensor* t;
  TF_StringInit(&strs[0]);
  TF_StringInit(&strs[1]);
  TF_StringCopy(&strs[0], "abc", 3);
  TF_StringCopy(&strs[1], "a string held on the heap, not inline", 37);
  t = TF_NewTensor(TF_STRING, dims, 1, strs, 2 * sizeof(TF_TString),
                   record_dealloc, &log);
  CHECK(t != NULL);
  CHECK(TF_TensorData(t) == (void*)strs);
  CHECK_EQ_INT(TF_TensorElementCount(t), 2);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(log.calls, 1);
  /* Still intact: the core did not free the caller's strings. */
  CHECK_EQ_SIZE(TF_StringGetSize(&strs[1]), 37);
  CHECK(memcmp(TF_StringGetDataPointer(&strs[1]), "a string", 8) == 0);
  TF_StringDealloc(&strs[0]);
  TF_StringDealloc(&strs[1]);
  free(strs);

  /* Too few bytes for two strings: refused. */
  {
    static TF_TString one[1] __attribute__((aligned(64)));
    log.calls = 0;
    CHECK(TF_NewTensor(TF_STRING, dims, 1, one, sizeof one, record_dealloc,
                       &log) == NULL);
    CHECK_EQ_INT(log.calls, 1);
  }
}

TEST(string_tensor_spare_room_reshaped_into_elements) {
  /* A TF_STRING tensor allocated with room for three strings but shaped as
   * one. TF_SetShape accepts any shape that fits the buffer, so it may be
   * grown to three elements; every element must then be a valid (empty)
   * string, and strings stored there must be released with the tensor. */
  const int64_t d1[1] = {1};
  const int64_t d3[1] = {3};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, d1, 1, 3 * sizeof(TF_TString));
  TF_TString* d;
  CHECK(t != NULL);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 72);
  TF_SetShape(t, d3, 1);
  if (TF_Dim(t, 0) == 3) {
    d = (TF_TString*)TF_TensorData(t);
    for (int i = 0; i < 3; i++) {
      CHECK_EQ_INT(TF_StringGetType(&d[i]), TF_TSTR_SMALL);
      CHECK_EQ_SIZE(TF_StringGetSize(&d[i]), 0);
    }
    TF_StringCopy(&d[2], "a heap string in a slot past the first shape", 44);
  } else {
    CHECK_EQ_INT(TF_Dim(t, 0), 1); /* rejected: shape unchanged */
  }
  TF_DeleteTensor(t); /* ASan reports a leak if d[2] is not freed */
}

TEST(string_tensor_bitcast_target_releases_its_strings) {
  const int64_t d2[1] = {2};
  const int64_t d48[1] = {48};
  TF_Status* s = TF_NewStatus();
  TF_Tensor* from = TF_AllocateTensor(TF_UINT8, d48, 1, 48);
  TF_Tensor* to = TF_AllocateTensor(TF_STRING, d2, 1, 48);
  TF_TString* d = (TF_TString*)TF_TensorData(to);
  TF_StringCopy(&d[0], "a heap string that the old buffer owns", 38);
  /* `to` drops its string buffer (freeing the string) and views bytes. */
  TF_TensorBitcastFrom(from, TF_UINT8, to, d48, 1, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(to), TF_UINT8);
  CHECK(TF_TensorData(to) == TF_TensorData(from));
  TF_DeleteTensor(from);
  TF_DeleteTensor(to);
  TF_DeleteStatus(s);
}

TEST(string_tensor_len_too_small_is_not_undersized) {
  /* Whatever the core does with a len too small for the strings, it must
   * not hand out a tensor whose buffer cannot hold every element. */
  const int64_t dims[1] = {3};
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, 1, 10);
  if (t != NULL) {
    TF_TString* d = (TF_TString*)TF_TensorData(t);
    CHECK(TF_TensorByteSize(t) >= 3 * sizeof(TF_TString));
    CHECK_EQ_SIZE(TF_StringGetSize(&d[2]), 0);
    TF_DeleteTensor(t);
  }
}

TEST(string_tensor_allocation_failure) {
  const int64_t dims[1] = {3};
  int64_t tensors = live_tensors(), bufs = live_buffers();
  for (int n = 0; n < 5; n++) {
    TF_Tensor* t;
    TFE_TestFailAllocationsAfter(n);
    t = TF_AllocateTensor(TF_STRING, dims, 1, 72);
    TFE_TestFailAllocationsAfter(-1);
    if (t != NULL) {
      TF_TString* d = (TF_TString*)TF_TensorData(t);
      CHECK_EQ_SIZE(TF_StringGetSize(&d[2]), 0);
      TF_DeleteTensor(t);
    }
    CHECK_EQ_INT(live_tensors(), tensors);
    CHECK_EQ_INT(live_buffers(), bufs);
  }
}

TFE_TEST_MAIN
