/* Generator-state ops through the eager C API on a resource variable
 * (VarHandleOp + AssignVariableOp): RngReadAndSkip, StatefulUniform and
 * StatefulRandomBinomial give TensorFlow 2.21's values and move the state
 * as TF does (tools/record_api_random.py recorded them), and bad states
 * fail with TF's errors. */
#include <math.h>

#include "eager_test_util.h"

static TFE_TensorHandle* new_state(TFE_Context* ctx, const int64_t* v, int n,
                                   TF_DataType dt, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, "VarHandleOp", s);
  TFE_TensorHandle* h = NULL;
  TFE_TensorHandle* val;
  int nret = 1;
  int64_t dims[1];
  dims[0] = n;
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrType(op, "dtype", dt);
  TFE_OpSetAttrShape(op, "shape", dims, 1, s);
  TFE_OpSetAttrString(op, "shared_name", "cd2c89b7-88b7-44c8-ad83-06c2a9158347",
                      36);
  TFE_Execute(op, &h, &nret, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);
  val = make_handle(dt, dims, 1, v, (size_t)n * 8, s);
  op = TFE_NewOp(ctx, "AssignVariableOp", s);
  TFE_OpAddInput(op, h, s);
  TFE_OpAddInput(op, val, s);
  TFE_OpSetAttrType(op, "dtype", dt);
  nret = 0;
  TFE_Execute(op, NULL, &nret, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(val);
  return h;
}

static void read_state(TFE_Context* ctx, TFE_TensorHandle* h, int64_t* out,
                       TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, "ReadVariableOp", s);
  TFE_TensorHandle* r = NULL;
  TF_Tensor* t;
  int nret = 1;
  TFE_OpAddInput(op, h, s);
  TFE_OpSetAttrType(op, "dtype", TF_INT64);
  TFE_Execute(op, &r, &nret, s);
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(r, s);
  CHECK_CODE(s, TF_OK);
  memcpy(out, TF_TensorData(t), 3 * 8);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteOp(op);
}

/* Runs RngReadAndSkip(h, alg, delta); returns the status code and the
 * value read in out. */
static int read_and_skip(TFE_Context* ctx, TFE_TensorHandle* h, int32_t alg,
                         uint64_t delta, int64_t* out, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, "RngReadAndSkip", s);
  TFE_TensorHandle* a = scalar_i32(alg, s);
  TFE_TensorHandle* d = make_handle(TF_UINT64, NULL, 0, &delta, 8, s);
  TFE_TensorHandle* r = NULL;
  int nret = 1, code;
  TFE_OpAddInput(op, h, s);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, d, s);
  TFE_Execute(op, &r, &nret, s);
  code = (int)TF_GetCode(s);
  if (code == TF_OK) {
    TF_Tensor* t = TFE_TensorHandleResolve(r, s);
    CHECK_CODE(s, TF_OK);
    memcpy(out, TF_TensorData(t), 3 * 8);
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(r);
  }
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(d);
  TFE_DeleteOp(op);
  return code;
}

TEST(read_and_skip_moves_the_counter) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const int64_t init[3] = {1, 2, 3};
  int64_t got[3], now[3];
  TFE_TensorHandle* h = new_state(ctx, init, 3, TF_INT64, s);
  CHECK_EQ_INT(read_and_skip(ctx, h, 1, 5, got, s), TF_OK);
  CHECK_EQ_INT(got[0], 1);
  CHECK_EQ_INT(got[1], 2);
  CHECK_EQ_INT(got[2], 3);
  read_state(ctx, h, now, s);
  /* 5 outputs reserve 5 * 256 Philox blocks */
  CHECK_EQ_INT(now[0], 1281);
  CHECK_EQ_INT(now[1], 2);
  CHECK_EQ_INT(now[2], 3);
  /* the 64-bit low counter word carries into the high one */
  {
    const int64_t edge[3] = {-1, 7, 9};
    TFE_TensorHandle* h2 = new_state(ctx, edge, 3, TF_INT64, s);
    CHECK_EQ_INT(read_and_skip(ctx, h2, 3, 1, got, s), TF_OK);
    read_state(ctx, h2, now, s);
    CHECK_EQ_INT(now[0], 255);
    CHECK_EQ_INT(now[1], 8);
    TFE_DeleteTensorHandle(h2);
  }
  /* ThreeFry is not a CPU algorithm */
  CHECK_EQ_INT(read_and_skip(ctx, h, 2, 1, got, s), TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "ThreeFry");
  CHECK_EQ_INT(read_and_skip(ctx, h, 7, 1, got, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Unsupported algorithm id: 7");
  TFE_DeleteTensorHandle(h);
  /* too short and wrong-dtype states */
  {
    const int64_t two[2] = {1, 2};
    TFE_TensorHandle* h3 = new_state(ctx, two, 2, TF_INT64, s);
    CHECK_EQ_INT(read_and_skip(ctx, h3, 1, 1, got, s), TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "size of state must be at least 3");
    TFE_DeleteTensorHandle(h3);
    h3 = new_state(ctx, init, 3, TF_UINT64, s);
    CHECK_EQ_INT(read_and_skip(ctx, h3, 1, 1, got, s), TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "must be int64");
    TFE_DeleteTensorHandle(h3);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(stateful_uniform_matches_tensorflow) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const int64_t init[3] = {1, 2, 3};
  const double want[3] = {0.45901167392730713, 0.5334248542785645,
                          0.9627732038497925};
  int64_t now[3], alg = 1, shape[1] = {3};
  int64_t one = 1;
  TFE_TensorHandle* h = new_state(ctx, init, 3, TF_INT64, s);
  TFE_TensorHandle* a = make_handle(TF_INT64, NULL, 0, &alg, 8, s);
  TFE_TensorHandle* sh = make_handle(TF_INT64, &one, 1, shape, 8, s);
  TFE_TensorHandle* r = NULL;
  TFE_Op* op = TFE_NewOp(ctx, "StatefulUniform", s);
  TF_Tensor* t;
  int nret = 1, i;
  TFE_OpAddInput(op, h, s);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, sh, s);
  TFE_Execute(op, &r, &nret, s);
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(r, s);
  for (i = 0; i < 3; i++) {
    CHECK(((const float*)TF_TensorData(t))[i] == (float)want[i]);
  }
  TF_DeleteTensor(t);
  read_state(ctx, h, now, s);
  CHECK_EQ_INT(now[0], 769);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(sh);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(stateful_binomial_matches_tensorflow) {
  /* Generator.from_seed(11).binomial([4], [10, 20, 30, 40], 0.3) */
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const int64_t init[3] = {11, 0, 0};
  const int32_t want[4] = {2, 6, 10, 9};
  int64_t now[3], alg = 1, four = 4;
  int32_t shape[1] = {4};
  int64_t one = 1;
  float counts[4] = {10, 20, 30, 40}, prob = 0.3f;
  TFE_TensorHandle* h = new_state(ctx, init, 3, TF_INT64, s);
  TFE_TensorHandle* a = make_handle(TF_INT64, NULL, 0, &alg, 8, s);
  TFE_TensorHandle* sh = make_handle(TF_INT32, &one, 1, shape, 4, s);
  TFE_TensorHandle* c = make_handle(TF_FLOAT, &four, 1, counts, 16, s);
  TFE_TensorHandle* p = make_handle(TF_FLOAT, NULL, 0, &prob, 4, s);
  TFE_TensorHandle* r = NULL;
  TFE_Op* op = TFE_NewOp(ctx, "StatefulRandomBinomial", s);
  TF_Tensor* t;
  int nret = 1, i;
  TFE_OpAddInput(op, h, s);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, sh, s);
  TFE_OpAddInput(op, c, s);
  TFE_OpAddInput(op, p, s);
  TFE_OpSetAttrType(op, "dtype", TF_INT32);
  TFE_Execute(op, &r, &nret, s);
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(r, s);
  for (i = 0; i < 4; i++) {
    CHECK_EQ_INT(((const int32_t*)TF_TensorData(t))[i], want[i]);
  }
  TF_DeleteTensor(t);
  read_state(ctx, h, now, s);
  CHECK_EQ_INT(now[0], 204811);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(sh);
  TFE_DeleteTensorHandle(c);
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
