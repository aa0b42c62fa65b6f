/* Helpers shared by the asynchronous-execution tests
 * (tests/c/test_async_*.c, test_internal_async_*.c). Public API only. */
#ifndef TFE_TESTS_ASYNC_TEST_UTIL_H_
#define TFE_TESTS_ASYNC_TEST_UTIL_H_

#include <stdint.h>
#include <string.h>

#include "eager_test_util.h"
#include "tfe/executor.h"

/* New context; async selects TFE_ContextOptionsSetAsync. */
static inline TFE_Context* new_ctx_async(int async, TF_Status* s) {
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* c;
  CHECK(o != NULL);
  TFE_ContextOptionsSetAsync(o, (unsigned char)async);
  c = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  return c;
}

/* Float vector handle. */
static inline TFE_TensorHandle* vec_f32(const float* v, int64_t n,
                                        TF_Status* s) {
  return make_handle(TF_FLOAT, &n, 1, v, sizeof(float) * (size_t)n, s);
}

/* Runs a binary op; returns the output (NULL on failure, status set). */
static inline TFE_TensorHandle* op2(TFE_Context* c, const char* name,
                                    TFE_TensorHandle* a, TFE_TensorHandle* b,
                                    TF_Status* s) {
  TFE_Op* op = TFE_NewOp(c, name, s);
  TFE_TensorHandle* out = NULL;
  int n = 1;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, a, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, b, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, &out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK ? out : NULL;
}

/* Copies the float values of h into out[0..n). */
static inline void read_vec_f32(TFE_TensorHandle* h, float* out, int64_t n,
                                TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_FLOAT);
  CHECK_EQ_INT(TF_TensorElementCount(t), n);
  memcpy(out, TF_TensorData(t), sizeof(float) * (size_t)n);
  TF_DeleteTensor(t);
}

/* Live handle count (for leak checks). */
static inline int64_t live_handles(void) {
  return TFE_LiveObjectCount(TFE_OBJ_TENSOR_HANDLE);
}

static inline TFE_ExecutorStats stats_of(TFE_Executor* ex, TF_Status* s) {
  TFE_ExecutorStats st;
  TFE_ExecutorGetStats(ex, &st, s);
  CHECK_CODE(s, TF_OK);
  return st;
}

#endif /* TFE_TESTS_ASYNC_TEST_UTIL_H_ */
