/* DLPack exchange (tensorflow/c/eager/dlpack.h with tfe/dlpack.h):
 * zero-copy export and import, the deleter called exactly once, copies for
 * unaligned and strided data, dtype mapping both ways, and every error
 * leaving the caller's DLManagedTensor untouched. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"
#include "tensorflow/c/eager/dlpack.h"
#include "tfe/dlpack.h"

/* ------------------------------------------------------------------------
 * A producer of DLManagedTensors over caller-chosen memory, counting
 * deleter calls. */

typedef struct producer {
  DLManagedTensor m;
  int64_t shape[8];
  int64_t strides[8];
  void* block; /* freed by the deleter */
  int deleted;
} producer;

static void producer_deleter(DLManagedTensor* self) {
  producer* p = (producer*)self->manager_ctx;
  p->deleted++;
  free(p->block);
  p->block = NULL;
}

/* A producer of `ndim` dims over a fresh 64-aligned block of `bytes`
 * (plus 64 spare bytes); data points `offset` bytes into the block. */
static void producer_init(producer* p, uint8_t code, uint8_t bits, int ndim,
                          const int64_t* shape, size_t bytes, size_t offset) {
  int i;
  memset(p, 0, sizeof(*p));
  if (posix_memalign(&p->block, 64, bytes + 64) != 0) TFE_FAIL("no memory");
  memset(p->block, 0, bytes + 64);
  p->m.dl_tensor.data = (char*)p->block + offset;
  p->m.dl_tensor.device.device_type = kDLCPU;
  p->m.dl_tensor.device.device_id = 0;
  p->m.dl_tensor.ndim = ndim;
  p->m.dl_tensor.dtype.code = code;
  p->m.dl_tensor.dtype.bits = bits;
  p->m.dl_tensor.dtype.lanes = 1;
  for (i = 0; i < ndim; i++) p->shape[i] = shape[i];
  p->m.dl_tensor.shape = p->shape;
  p->m.dl_tensor.strides = NULL;
  p->m.dl_tensor.byte_offset = 0;
  p->m.manager_ctx = p;
  p->m.deleter = producer_deleter;
}

static float* producer_floats(producer* p) {
  return (float*)((char*)p->m.dl_tensor.data + p->m.dl_tensor.byte_offset);
}

/* Resolves h and checks it holds exactly `n` floats equal to want[]. */
static void check_floats(TFE_TensorHandle* h, const float* want, int n,
                         TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(t), TF_FLOAT);
  CHECK_EQ_INT(TF_TensorElementCount(t), n);
  CHECK(memcmp(TF_TensorData(t), want, sizeof(float) * (size_t)n) == 0);
  CHECK(TF_TensorIsAligned(t));
  TF_DeleteTensor(t);
}

/* ------------------------------------------------------------------------
 * Export. */

TEST(export_shares_memory_and_describes_it) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  live_counts before = live_now();
  const int64_t dims[2] = {2, 3};
  const float vals[6] = {1, 2, 3, 4, 5, 6};
  TFE_TensorHandle* h =
      make_handle(TF_FLOAT, dims, 2, vals, sizeof(vals), s);
  void* data = TFE_TensorHandleDevicePointer(h, s);
  DLManagedTensor* m = (DLManagedTensor*)TFE_HandleToDLPack(h, s);
  const DLTensor* dl;
  CHECK_CODE(s, TF_OK);
  CHECK(m != NULL && m->deleter != NULL);
  dl = &m->dl_tensor;
  CHECK(dl->data == data); /* zero-copy */
  CHECK_EQ_INT(dl->device.device_type, kDLCPU);
  CHECK_EQ_INT(dl->device.device_id, 0);
  CHECK_EQ_INT(dl->ndim, 2);
  CHECK_EQ_INT(dl->dtype.code, kDLFloat);
  CHECK_EQ_INT(dl->dtype.bits, 32);
  CHECK_EQ_INT(dl->dtype.lanes, 1);
  CHECK_EQ_INT(dl->shape[0], 2);
  CHECK_EQ_INT(dl->shape[1], 3);
  CHECK(dl->strides != NULL);
  CHECK_EQ_INT(dl->strides[0], 3);
  CHECK_EQ_INT(dl->strides[1], 1);
  CHECK_EQ_INT((int64_t)dl->byte_offset, 0);
  /* The DLManagedTensor keeps the memory alive after the handle is gone. */
  TFE_DeleteTensorHandle(h);
  CHECK(memcmp(dl->data, vals, sizeof(vals)) == 0);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR_BUFFER), before.buffers + 1);
  TFE_CallDLManagedTensorDeleter(m);
  CHECK_LIVE_EQ(live_now(), before);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(export_scalar_and_empty_tensors) {
  TF_Status* s = TF_NewStatus();
  TFE_TensorHandle* h = scalar_f32(2.5f, s);
  const int64_t empty_dims[3] = {4, 0, 2};
  DLManagedTensor* m = (DLManagedTensor*)TFE_HandleToDLPack(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(m->dl_tensor.ndim, 0);
  CHECK(*(const float*)m->dl_tensor.data == 2.5f);
  TFE_CallDLManagedTensorDeleter(m);
  TFE_DeleteTensorHandle(h);

  h = make_handle(TF_INT32, empty_dims, 3, NULL, 0, s);
  m = (DLManagedTensor*)TFE_HandleToDLPack(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(m->dl_tensor.ndim, 3);
  CHECK_EQ_INT(m->dl_tensor.shape[1], 0);
  CHECK_EQ_INT(m->dl_tensor.strides[0], 0);
  CHECK_EQ_INT(m->dl_tensor.strides[1], 2);
  CHECK_EQ_INT(m->dl_tensor.strides[2], 1);
  TFE_DeleteTensorHandle(h); /* deleting in the other order is fine too */
  TFE_CallDLManagedTensorDeleter(m);
  TF_DeleteStatus(s);
}

TEST(export_dtype_mapping) {
  const struct {
    TF_DataType dt;
    uint8_t code, bits;
  } table[] = {
      {TF_BOOL, kDLBool, 8},        {TF_INT8, kDLInt, 8},
      {TF_INT16, kDLInt, 16},       {TF_INT32, kDLInt, 32},
      {TF_INT64, kDLInt, 64},       {TF_UINT8, kDLUInt, 8},
      {TF_UINT16, kDLUInt, 16},     {TF_UINT32, kDLUInt, 32},
      {TF_UINT64, kDLUInt, 64},     {TF_HALF, kDLFloat, 16},
      {TF_FLOAT, kDLFloat, 32},     {TF_DOUBLE, kDLFloat, 64},
      {TF_BFLOAT16, kDLBfloat, 16}, {TF_COMPLEX64, kDLComplex, 64},
      {TF_COMPLEX128, kDLComplex, 128},
  };
  TF_Status* s = TF_NewStatus();
  size_t i;
  for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
    const int64_t dims[1] = {3};
    size_t bytes = 3 * TF_DataTypeSize(table[i].dt);
    unsigned char zeros[48] = {0};
    TFE_TensorHandle* h = make_handle(table[i].dt, dims, 1, zeros, bytes, s);
    DLManagedTensor* m = (DLManagedTensor*)TFE_HandleToDLPack(h, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(m->dl_tensor.dtype.code, table[i].code);
    CHECK_EQ_INT(m->dl_tensor.dtype.bits, table[i].bits);
    CHECK_EQ_INT(m->dl_tensor.dtype.lanes, 1);
    TFE_CallDLManagedTensorDeleter(m);
    TFE_DeleteTensorHandle(h);
  }
  TF_DeleteStatus(s);
}

TEST(export_rejects_unsupported_dtypes) {
  const struct {
    TF_DataType dt;
    const char* name;
  } bad[] = {
      {TF_STRING, "DT_STRING"},   {TF_QINT8, "DT_QINT8"},
      {TF_QUINT16, "DT_QUINT16"}, {TF_FLOAT8_E5M2, "DT_FLOAT8_E5M2"},
      {TF_INT4, "DT_INT4"},
  };
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  size_t i;
  for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    size_t esz = bad[i].dt == TF_STRING ? sizeof(TF_TString)
                                        : TF_DataTypeSize(bad[i].dt);
    TF_Tensor* t = TF_AllocateTensor(bad[i].dt, NULL, 0, esz);
    TFE_TensorHandle* h;
    CHECK(t != NULL);
    if (bad[i].dt != TF_STRING) memset(TF_TensorData(t), 0, esz);
    h = TFE_NewTensorHandle(t, s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteTensor(t);
    CHECK(TFE_HandleToDLPack(h, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), bad[i].name);
    CHECK_STR_CONTAINS(TF_Message(s), "not supported by DLPack");
    TFE_DeleteTensorHandle(h);
  }
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(export_and_device_errors) {
  TF_Status* s = TF_NewStatus();
  CHECK(TFE_HandleToDLPack(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_GetDLDevice(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_CallDLManagedTensorDeleter(NULL); /* no-op */
  {
    DLManagedTensor no_deleter;
    memset(&no_deleter, 0, sizeof(no_deleter));
    TFE_CallDLManagedTensorDeleter(&no_deleter); /* no deleter: no-op */
  }
  TF_DeleteStatus(s);
}

TEST(get_dl_device) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  TFE_TensorHandle* h = scalar_f32(1.0f, s);
  TFE_TensorHandle* h1;
  DLDevice* d = (DLDevice*)TFE_GetDLDevice(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(d->device_type, kDLCPU);
  CHECK_EQ_INT(d->device_id, 0);
  free(d); /* documented: released with free() */

  /* A handle on a second logical CPU device is still host memory. */
  TFE_ContextOptionsSetConfig(o, "\x0a\x07\x0a\x03" "CPU\x10\x02", 9, s);
  CHECK_CODE(s, TF_OK);
  ctx = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  h1 = TFE_TensorHandleCopyToDevice(h, ctx, FULL_CPU(1), s);
  CHECK_CODE(s, TF_OK);
  d = (DLDevice*)TFE_GetDLDevice(h1, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(d->device_type, kDLCPU);
  CHECK_EQ_INT(d->device_id, 0);
  free(d);
  TFE_DeleteTensorHandle(h1);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteContext(ctx);
  TFE_DeleteContextOptions(o);
  TF_DeleteStatus(s);
}

TEST(export_out_of_memory_leaks_nothing) {
  TF_Status* s = TF_NewStatus();
  TFE_TensorHandle* h = scalar_f32(3.0f, s);
  live_counts before = live_now();
  int64_t k;
  for (k = 0; k < 10; k++) {
    void* m;
    TFE_TestFailAllocationsAfter(k);
    m = TFE_HandleToDLPack(h, s);
    TFE_TestFailAllocationsAfter(-1);
    if (m != NULL) {
      CHECK_CODE(s, TF_OK);
      TFE_CallDLManagedTensorDeleter(m);
      break;
    }
    CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    CHECK_LIVE_EQ(live_now(), before);
  }
  CHECK(k < 10);
  CHECK_LIVE_EQ(live_now(), before);
  TFE_DeleteTensorHandle(h);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Import. */

TEST(import_aligned_data_is_shared_until_last_use) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  producer p;
  const int64_t dims[2] = {2, 2};
  const float want[4] = {1, 2, 3, 4};
  TFE_TensorHandle* h;
  TF_Tensor* t;
  producer_init(&p, kDLFloat, 32, 2, dims, sizeof(want), 0);
  memcpy(producer_floats(&p), want, sizeof(want));
  h = TFE_HandleFromDLPack(&p.m, s, ctx);
  CHECK_CODE(s, TF_OK);
  CHECK(h != NULL);
  CHECK(TFE_TensorHandleDevicePointer(h, s) == p.m.dl_tensor.data);
  CHECK_STR_CONTAINS(TFE_TensorHandleDeviceName(h, s), "CPU:0");
  CHECK_EQ_INT(TFE_TensorHandleDataType(h), TF_FLOAT);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(h, s), 2);
  CHECK_EQ_INT(p.deleted, 0);
  check_floats(h, want, 4, s);
  /* A resolved tensor keeps the memory after the handle is deleted. */
  t = TFE_TensorHandleResolve(h, s);
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_INT(p.deleted, 0);
  CHECK(((const float*)TF_TensorData(t))[3] == 4.0f);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(p.deleted, 1);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(imported_handle_works_in_ops) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  producer p;
  const int64_t dims[1] = {3};
  const float vals[3] = {1, 2, 3}, twice[3] = {2, 4, 6};
  TFE_TensorHandle *h, *sum;
  producer_init(&p, kDLFloat, 32, 1, dims, sizeof(vals), 0);
  memcpy(producer_floats(&p), vals, sizeof(vals));
  h = TFE_HandleFromDLPack(&p.m, s, ctx);
  CHECK_CODE(s, TF_OK);
  sum = binary(ctx, "AddV2", h, h, NULL, s);
  CHECK_CODE(s, TF_OK);
  check_floats(sum, twice, 3, s);
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_INT(p.deleted, 1);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(import_without_context) {
  TF_Status* s = TF_NewStatus();
  producer p;
  const int64_t dims[1] = {2};
  const float vals[2] = {7, 8};
  TFE_TensorHandle* h;
  producer_init(&p, kDLFloat, 32, 1, dims, sizeof(vals), 0);
  memcpy(producer_floats(&p), vals, sizeof(vals));
  h = TFE_HandleFromDLPack(&p.m, s, NULL);
  CHECK_CODE(s, TF_OK);
  check_floats(h, vals, 2, s);
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_INT(p.deleted, 1);
  TF_DeleteStatus(s);
}

TEST(import_unaligned_data_is_copied_and_released_at_once) {
  TF_Status* s = TF_NewStatus();
  producer p;
  const int64_t dims[1] = {3};
  const float want[3] = {1.5f, -2, 8};
  TFE_TensorHandle* h;
  producer_init(&p, kDLFloat, 32, 1, dims, sizeof(want), 4);
  memcpy(producer_floats(&p), want, sizeof(want));
  h = TFE_HandleFromDLPack(&p.m, s, NULL);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(p.deleted, 1); /* copied, so released right away */
  check_floats(h, want, 3, s);
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_INT(p.deleted, 1);
  TF_DeleteStatus(s);
}

TEST(import_honours_byte_offset) {
  TF_Status* s = TF_NewStatus();
  producer p;
  const int64_t dims[1] = {2};
  const float want[2] = {5, 6};
  TFE_TensorHandle* h;
  /* Aligned start (block + 64): shared. */
  producer_init(&p, kDLFloat, 32, 1, dims, 64 + sizeof(want), 0);
  p.m.dl_tensor.byte_offset = 64;
  memcpy(producer_floats(&p), want, sizeof(want));
  h = TFE_HandleFromDLPack(&p.m, s, NULL);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_TensorHandleDevicePointer(h, s) == (char*)p.block + 64);
  CHECK_EQ_INT(p.deleted, 0);
  check_floats(h, want, 2, s);
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_INT(p.deleted, 1);
  /* Unaligned start (block + 8): copied. */
  producer_init(&p, kDLFloat, 32, 1, dims, 8 + sizeof(want), 0);
  p.m.dl_tensor.byte_offset = 8;
  memcpy(producer_floats(&p), want, sizeof(want));
  h = TFE_HandleFromDLPack(&p.m, s, NULL);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(p.deleted, 1);
  check_floats(h, want, 2, s);
  TFE_DeleteTensorHandle(h);
  TF_DeleteStatus(s);
}

TEST(import_strided_data_is_copied_in_row_major_order) {
  TF_Status* s = TF_NewStatus();
  producer p;
  TFE_TensorHandle* h;
  {
    /* The transpose of [[0 1 2] [3 4 5]]: shape (3, 2), strides (1, 3). */
    const int64_t dims[2] = {3, 2};
    const float src[6] = {0, 1, 2, 3, 4, 5}, want[6] = {0, 3, 1, 4, 2, 5};
    producer_init(&p, kDLFloat, 32, 2, dims, sizeof(src), 0);
    memcpy(producer_floats(&p), src, sizeof(src));
    p.strides[0] = 1;
    p.strides[1] = 3;
    p.m.dl_tensor.strides = p.strides;
    h = TFE_HandleFromDLPack(&p.m, s, NULL);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(p.deleted, 1);
    check_floats(h, want, 6, s);
    TFE_DeleteTensorHandle(h);
  }
  {
    /* Reversed: data points at the last element, stride -1. */
    const int64_t dims[1] = {4};
    const float src[4] = {1, 2, 3, 4}, want[4] = {4, 3, 2, 1};
    producer_init(&p, kDLFloat, 32, 1, dims, sizeof(src), 0);
    memcpy(producer_floats(&p), src, sizeof(src));
    p.m.dl_tensor.data = producer_floats(&p) + 3;
    p.strides[0] = -1;
    p.m.dl_tensor.strides = p.strides;
    h = TFE_HandleFromDLPack(&p.m, s, NULL);
    CHECK_CODE(s, TF_OK);
    check_floats(h, want, 4, s);
    TFE_DeleteTensorHandle(h);
    CHECK_EQ_INT(p.deleted, 1);
  }
  {
    /* Broadcast rows (stride 0) and every other column (stride 2). */
    const int64_t dims[2] = {2, 3};
    const float src[6] = {1, 0, 2, 0, 3, 0}, want[6] = {1, 2, 3, 1, 2, 3};
    producer_init(&p, kDLFloat, 32, 2, dims, sizeof(src), 0);
    memcpy(producer_floats(&p), src, sizeof(src));
    p.strides[0] = 0;
    p.strides[1] = 2;
    p.m.dl_tensor.strides = p.strides;
    h = TFE_HandleFromDLPack(&p.m, s, NULL);
    CHECK_CODE(s, TF_OK);
    check_floats(h, want, 6, s);
    TFE_DeleteTensorHandle(h);
    CHECK_EQ_INT(p.deleted, 1);
  }
  {
    /* Strides of size-1 dimensions do not matter: still shared. */
    const int64_t dims[3] = {1, 3, 1};
    const float src[3] = {9, 8, 7};
    producer_init(&p, kDLFloat, 32, 3, dims, sizeof(src), 0);
    memcpy(producer_floats(&p), src, sizeof(src));
    p.strides[0] = 12345;
    p.strides[1] = 1;
    p.strides[2] = -7;
    p.m.dl_tensor.strides = p.strides;
    h = TFE_HandleFromDLPack(&p.m, s, NULL);
    CHECK_CODE(s, TF_OK);
    CHECK(TFE_TensorHandleDevicePointer(h, s) == p.m.dl_tensor.data);
    CHECK_EQ_INT(p.deleted, 0);
    check_floats(h, src, 3, s);
    TFE_DeleteTensorHandle(h);
    CHECK_EQ_INT(p.deleted, 1);
  }
  TF_DeleteStatus(s);
}

TEST(import_empty_and_scalar) {
  TF_Status* s = TF_NewStatus();
  producer p;
  TFE_TensorHandle* h;
  const int64_t dims[2] = {0, 5};
  const float one = 1.25f;
  producer_init(&p, kDLInt, 64, 2, dims, 0, 0);
  p.m.dl_tensor.data = NULL; /* allowed: nothing to read */
  h = TFE_HandleFromDLPack(&p.m, s, NULL);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleDataType(h), TF_INT64);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(h, s), 0);
  CHECK_EQ_INT(TFE_TensorHandleDim(h, 1, s), 5);
  CHECK_EQ_INT(p.deleted, 1);
  TFE_DeleteTensorHandle(h);

  producer_init(&p, kDLFloat, 32, 0, NULL, sizeof(one), 0);
  p.m.dl_tensor.shape = NULL; /* allowed for ndim 0 */
  memcpy(producer_floats(&p), &one, sizeof(one));
  h = TFE_HandleFromDLPack(&p.m, s, NULL);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(h, s), 0);
  check_floats(h, &one, 1, s);
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_INT(p.deleted, 1);
  TF_DeleteStatus(s);
}

TEST(import_dtype_mapping) {
  const struct {
    uint8_t code, bits;
    TF_DataType dt;
  } table[] = {
      {kDLBool, 8, TF_BOOL},         {kDLInt, 8, TF_INT8},
      {kDLInt, 16, TF_INT16},        {kDLInt, 32, TF_INT32},
      {kDLInt, 64, TF_INT64},        {kDLUInt, 8, TF_UINT8},
      {kDLUInt, 16, TF_UINT16},      {kDLUInt, 32, TF_UINT32},
      {kDLUInt, 64, TF_UINT64},      {kDLFloat, 16, TF_HALF},
      {kDLFloat, 32, TF_FLOAT},      {kDLFloat, 64, TF_DOUBLE},
      {kDLBfloat, 16, TF_BFLOAT16},  {kDLComplex, 64, TF_COMPLEX64},
      {kDLComplex, 128, TF_COMPLEX128},
  };
  TF_Status* s = TF_NewStatus();
  size_t i;
  for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
    producer p;
    const int64_t dims[1] = {2};
    TFE_TensorHandle* h;
    producer_init(&p, table[i].code, table[i].bits, 1, dims,
                  2 * (size_t)table[i].bits / 8, 0);
    h = TFE_HandleFromDLPack(&p.m, s, NULL);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TFE_TensorHandleDataType(h), table[i].dt);
    TFE_DeleteTensorHandle(h);
    CHECK_EQ_INT(p.deleted, 1);
  }
  TF_DeleteStatus(s);
}

/* Imports a producer that must be rejected with INVALID_ARGUMENT and a
 * message containing `needle`; the producer must stay unconsumed. */
static void expect_rejected(producer* p, const char* needle) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  CHECK(TFE_HandleFromDLPack(&p->m, s, NULL) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), needle);
  CHECK_EQ_INT(p->deleted, 0);
  CHECK_LIVE_EQ(live_now(), before);
  TFE_CallDLManagedTensorDeleter(&p->m); /* still ours to release */
  CHECK_EQ_INT(p->deleted, 1);
  TF_DeleteStatus(s);
}

TEST(import_errors_leave_the_tensor_with_the_caller) {
  TF_Status* s = TF_NewStatus();
  producer p;
  const int64_t dims[2] = {2, 2};
  const int64_t negative[2] = {2, -1};
  const int64_t huge[2] = {INT64_MAX / 2, 4};

  CHECK(TFE_HandleFromDLPack(NULL, s, NULL) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  producer_init(&p, kDLFloat, 32, 2, dims, 16, 0);
  p.m.dl_tensor.device.device_type = kDLCUDA;
  expect_rejected(&p, "device type 2");
  producer_init(&p, kDLFloat, 32, 2, dims, 16, 0);
  p.m.dl_tensor.device.device_type = kDLCUDAHost;
  expect_rejected(&p, "device type 3");
  producer_init(&p, kDLFloat, 32, 2, dims, 64, 0);
  p.m.dl_tensor.dtype.lanes = 4;
  expect_rejected(&p, "lanes = 4");
  producer_init(&p, kDLOpaqueHandle, 64, 2, dims, 32, 0);
  expect_rejected(&p, "type code 3");
  producer_init(&p, 42, 32, 2, dims, 16, 0);
  expect_rejected(&p, "type code 42");
  producer_init(&p, kDLFloat, 8, 2, dims, 4, 0);
  expect_rejected(&p, "code 2 with 8 bits");
  producer_init(&p, kDLBool, 1, 2, dims, 4, 0);
  expect_rejected(&p, "code 6 with 1 bits");
  producer_init(&p, kDLBfloat, 32, 2, dims, 16, 0);
  expect_rejected(&p, "code 4 with 32 bits");
  producer_init(&p, kDLComplex, 32, 2, dims, 16, 0);
  expect_rejected(&p, "code 5 with 32 bits");
  producer_init(&p, kDLInt, 128, 2, dims, 64, 0);
  expect_rejected(&p, "code 0 with 128 bits");
  producer_init(&p, kDLUInt, 1, 2, dims, 4, 0);
  expect_rejected(&p, "code 1 with 1 bits");
  producer_init(&p, kDLFloat, 32, 2, dims, 16, 0);
  p.m.dl_tensor.ndim = -1;
  expect_rejected(&p, "ndim -1");
  producer_init(&p, kDLFloat, 32, 2, dims, 16, 0);
  p.m.dl_tensor.ndim = 255;
  expect_rejected(&p, "ndim 255");
  producer_init(&p, kDLFloat, 32, 2, dims, 16, 0);
  p.m.dl_tensor.shape = NULL;
  expect_rejected(&p, "shape is NULL");
  producer_init(&p, kDLFloat, 32, 2, negative, 16, 0);
  expect_rejected(&p, "negative");
  producer_init(&p, kDLFloat, 32, 2, huge, 16, 0);
  expect_rejected(&p, "overflows");
  producer_init(&p, kDLFloat, 32, 2, dims, 16, 0);
  p.m.dl_tensor.data = NULL;
  expect_rejected(&p, "data is NULL");
  TF_DeleteStatus(s);
}

TEST(import_out_of_memory_never_consumes_or_leaks) {
  /* Both paths (shared and copied), failing the k-th allocation for every
   * k until the import succeeds. */
  TF_Status* s = TF_NewStatus();
  size_t offset;
  for (offset = 0; offset <= 4; offset += 4) {
    live_counts before = live_now();
    int64_t k;
    for (k = 0; k < 20; k++) {
      producer p;
      const int64_t dims[1] = {4};
      TFE_TensorHandle* h;
      producer_init(&p, kDLFloat, 32, 1, dims, 16, offset);
      TFE_TestFailAllocationsAfter(k);
      h = TFE_HandleFromDLPack(&p.m, s, NULL);
      TFE_TestFailAllocationsAfter(-1);
      if (h != NULL) {
        CHECK_CODE(s, TF_OK);
        TFE_DeleteTensorHandle(h);
        CHECK_EQ_INT(p.deleted, 1);
        break;
      }
      CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
      CHECK_EQ_INT(p.deleted, 0);
      CHECK_LIVE_EQ(live_now(), before);
      TFE_CallDLManagedTensorDeleter(&p.m);
    }
    CHECK(k < 20);
    CHECK_LIVE_EQ(live_now(), before);
  }
  TF_DeleteStatus(s);
}

TEST(round_trip_shares_one_buffer) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  live_counts before = live_now();
  const int64_t dims[1] = {4};
  const float vals[4] = {1, 2, 3, 4};
  TFE_TensorHandle* a = make_handle(TF_FLOAT, dims, 1, vals, sizeof(vals), s);
  void* m = TFE_HandleToDLPack(a, s);
  TFE_TensorHandle* b;
  CHECK_CODE(s, TF_OK);
  b = TFE_HandleFromDLPack(m, s, ctx);
  CHECK_CODE(s, TF_OK);
  /* tfe's buffers are 64-byte aligned, so the way back is zero-copy too. */
  CHECK(TFE_TensorHandleDevicePointer(b, s) ==
        TFE_TensorHandleDevicePointer(a, s));
  TFE_DeleteTensorHandle(a);
  check_floats(b, vals, 4, s);
  TFE_DeleteTensorHandle(b); /* runs the export deleter: all released */
  CHECK_LIVE_EQ(live_now(), before);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
