/* Helpers shared by the eager runtime tests (tests/c/test_eager_*.c). Only
 * the public API is used. */
#ifndef TFE_TESTS_EAGER_TEST_UTIL_H_
#define TFE_TESTS_EAGER_TEST_UTIL_H_

#include <stdint.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

#define FULL_CPU(i) "/job:localhost/replica:0/task:0/device:CPU:" #i

static inline TFE_Context* new_ctx(TF_Status* s) {
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* c;
  CHECK(o != NULL);
  c = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  return c;
}

static inline TFE_Context* new_ctx_policy(TF_Status* s, int policy) {
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* c;
  TFE_ContextOptionsSetDevicePlacementPolicy(
      o, (TFE_ContextDevicePlacementPolicy)policy);
  c = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  return c;
}

/* New handle with a copy of `data` (nbytes). */
static inline TFE_TensorHandle* make_handle(TF_DataType dt,
                                            const int64_t* dims, int nd,
                                            const void* data, size_t nbytes,
                                            TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(dt, dims, nd, nbytes);
  TFE_TensorHandle* h;
  CHECK(t != NULL);
  if (nbytes > 0 && data != NULL) memcpy(TF_TensorData(t), data, nbytes);
  h = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  return h;
}

static inline TFE_TensorHandle* scalar_f32(float v, TF_Status* s) {
  return make_handle(TF_FLOAT, NULL, 0, &v, sizeof(v), s);
}

static inline TFE_TensorHandle* scalar_i32(int32_t v, TF_Status* s) {
  return make_handle(TF_INT32, NULL, 0, &v, sizeof(v), s);
}

/* The float value of a scalar (or first element) handle. */
static inline float read_f32(TFE_TensorHandle* h, TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  float v;
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_FLOAT);
  memcpy(&v, TF_TensorData(t), sizeof(v));
  TF_DeleteTensor(t);
  return v;
}

static inline int32_t read_i32(TFE_TensorHandle* h, TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  int32_t v;
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_INT32);
  memcpy(&v, TF_TensorData(t), sizeof(v));
  TF_DeleteTensor(t);
  return v;
}

/* Runs a binary op on a and b; returns the single output or NULL (status
 * holds the error). The op is deleted. */
static inline TFE_TensorHandle* binary(TFE_Context* ctx, const char* name,
                                       TFE_TensorHandle* a,
                                       TFE_TensorHandle* b,
                                       const char* device, TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  if (device != NULL) {
    TFE_OpSetDevice(op, device, s);
    CHECK_CODE(s, TF_OK);
  }
  TFE_OpAddInput(op, a, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, b, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  if (TF_GetCode(s) != TF_OK) return NULL;
  CHECK_EQ_INT(n, 1);
  return out[0];
}

/* Live object counts, to prove nothing leaks. */
typedef struct live_counts {
  int64_t ctx, handles, ops, tensors, buffers;
} live_counts;

static inline live_counts live_now(void) {
  live_counts c;
  c.ctx = TFE_LiveObjectCount(TFE_OBJ_CONTEXT);
  c.handles = TFE_LiveObjectCount(TFE_OBJ_TENSOR_HANDLE);
  c.ops = TFE_LiveObjectCount(TFE_OBJ_OP);
  c.tensors = TFE_LiveObjectCount(TFE_OBJ_TENSOR);
  c.buffers = TFE_LiveObjectCount(TFE_OBJ_TENSOR_BUFFER);
  return c;
}

#define CHECK_LIVE_EQ(a, b)                    \
  do {                                         \
    CHECK_EQ_INT((a).ctx, (b).ctx);            \
    CHECK_EQ_INT((a).handles, (b).handles);    \
    CHECK_EQ_INT((a).ops, (b).ops);            \
    CHECK_EQ_INT((a).tensors, (b).tensors);    \
    CHECK_EQ_INT((a).buffers, (b).buffers);    \
  } while (0)

#endif /* TFE_TESTS_EAGER_TEST_UTIL_H_ */
