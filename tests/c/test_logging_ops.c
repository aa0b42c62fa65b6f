/* TF's logging ops Assert and Timestamp through the public eager C API:
 * Assert's message for a false condition ("assertion failed: [..] [..]",
 * TF 1 summaries limited by `summarize`), its error for a condition that
 * is not a scalar, and Timestamp's float64 wall-clock scalar. The TF-recorded
 * cases are checked by tests/python/test_api_framework.py. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "eager_test_util.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe_test.h"

static TFE_TensorHandle* bool_handle(const int64_t* dims, int nd,
                                     const unsigned char* v, size_t n,
                                     TF_Status* s) {
  return make_handle(TF_BOOL, dims, nd, v, n, s);
}

static TFE_TensorHandle* str_scalar(const char* v, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
  TFE_TensorHandle* h;
  TF_TString* d = (TF_TString*)TF_TensorData(t);
  TF_TString_Init(d);
  TF_TString_Copy(d, v, strlen(v));
  h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  return h;
}

/* Runs Assert(cond, [msg, ints]) with `summarize`; the status tells. */
static void run_assert(TFE_Context* ctx, TFE_TensorHandle* cond,
                       int64_t summarize, TF_Status* s) {
  static const int32_t ints[6] = {0, 1, 2, 3, 4, 5};
  static const int64_t dims[2] = {2, 3};
  TF_Status* s2 = TF_NewStatus();
  TFE_TensorHandle* msg = str_scalar("msg", s2);
  TFE_TensorHandle* data = make_handle(TF_INT32, dims, 2, ints, sizeof ints, s2);
  TFE_TensorHandle* list[2];
  TFE_Op* op = TFE_NewOp(ctx, "Assert", s2);
  TFE_TensorHandle* out[1];
  int n = 0;
  CHECK_CODE(s2, TF_OK);
  list[0] = msg;
  list[1] = data;
  TFE_OpAddInput(op, cond, s2);
  CHECK_CODE(s2, TF_OK);
  TFE_OpAddInputList(op, list, 2, s2);
  CHECK_CODE(s2, TF_OK);
  TFE_OpSetAttrInt(op, "summarize", summarize);
  TFE_Execute(op, out, &n, s);
  CHECK_EQ_INT(n, 0);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(msg);
  TFE_DeleteTensorHandle(data);
  TF_DeleteStatus(s2);
}

TEST(assert_passes_and_fails_like_tf) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  unsigned char yes = 1, no = 0;
  static const unsigned char two[2] = {0, 1};
  static const int64_t two_dims[1] = {2};
  TFE_TensorHandle* t = bool_handle(NULL, 0, &yes, 1, s);
  TFE_TensorHandle* f = bool_handle(NULL, 0, &no, 1, s);
  TFE_TensorHandle* v = bool_handle(two_dims, 1, two, 2, s);

  run_assert(ctx, t, 3, s);
  CHECK_CODE(s, TF_OK);

  run_assert(ctx, f, 3, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "assertion failed: [msg] [[0 1 2]...]");

  run_assert(ctx, f, -1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "assertion failed: [msg] [[0 1 2][3 4 5]]");

  run_assert(ctx, f, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "assertion failed: [...] [...]");

  run_assert(ctx, v, 3, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "In[0] should be a scalar: [2]");

  /* summarize beyond an int32: TF's attr range error */
  run_assert(ctx, f, INT64_C(1) << 40, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  TFE_DeleteTensorHandle(t);
  TFE_DeleteTensorHandle(f);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(timestamp_is_a_float64_wall_clock_scalar) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_Op* op = TFE_NewOp(ctx, "Timestamp", s);
  TFE_TensorHandle* out[1];
  TF_Tensor* r;
  int n = 1;
  double v, now = (double)time(NULL);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 1);
  r = TFE_TensorHandleResolve(out[0], s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(r) == TF_DOUBLE);
  CHECK_EQ_INT(TF_NumDims(r), 0);
  memcpy(&v, TF_TensorData(r), sizeof v);
  CHECK(v > now - 60.0 && v < now + 60.0);
  TF_DeleteTensor(r);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
