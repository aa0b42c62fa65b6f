/* A session keeps a seeded RandomUniform's generator per node across runs
 * whatever they fetch, and a new session restarts it (TF 2.21's kernel
 * instances; values recorded by tools/record_random_state_s9.py,
 * program session_different_fetches: seed 7, seed2 10, shape [3]). */
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tfe_test.h"

static const float kDraw1[3] = {0.02759718894958496f, 0.03198802471160889f,
                                0.619138240814209f};
static const float kDraw2x2[3] = {0.6225368976593018f, 1.7169337272644043f,
                                  1.2986419200897217f};
static const float kDraw3[3] = {0.20295429229736328f, 0.06398987770080566f,
                                0.8131734132766724f};

static TF_Operation* shape_const(TF_Graph* g, TF_Status* s) {
  int64_t d = 1;
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, &d, 1, 4);
  TF_OperationDescription* desc = TF_NewOperation(g, "Const", "shape");
  TF_Operation* op;
  *(int32_t*)TF_TensorData(t) = 3;
  TF_SetAttrTensor(desc, "value", t, s);
  TF_SetAttrType(desc, "dtype", TF_INT32);
  op = TF_FinishOperation(desc, s);
  TF_DeleteTensor(t);
  return op;
}

static TF_Operation* uniform(TF_Graph* g, TF_Operation* shape,
                             const char* name, TF_Status* s) {
  TF_OperationDescription* desc = TF_NewOperation(g, "RandomUniform", name);
  TF_Output in = {shape, 0};
  TF_AddInput(desc, in);
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_SetAttrInt(desc, "seed", 7);
  TF_SetAttrInt(desc, "seed2", 10);
  return TF_FinishOperation(desc, s);
}

static TF_Operation* times_two(TF_Graph* g, TF_Operation* x, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, 4);
  TF_OperationDescription* desc = TF_NewOperation(g, "Const", "two");
  TF_Operation* two;
  TF_Output a = {x, 0}, b;
  *(float*)TF_TensorData(t) = 2.0f;
  TF_SetAttrTensor(desc, "value", t, s);
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  two = TF_FinishOperation(desc, s);
  TF_DeleteTensor(t);
  b.oper = two;
  b.index = 0;
  desc = TF_NewOperation(g, "Mul", "q");
  TF_AddInput(desc, a);
  TF_AddInput(desc, b);
  return TF_FinishOperation(desc, s);
}

static void check_vals(TF_Tensor* t, const float* want) {
  const float* v = (const float*)TF_TensorData(t);
  int i;
  CHECK_EQ_INT(TF_TensorElementCount(t), 3);
  for (i = 0; i < 3; i++) {
    if (memcmp(&v[i], &want[i], sizeof(float)) != 0) {
      TFE_FAIL("element %d: %.9g vs TF's %.9g", i, v[i], want[i]);
    }
  }
}

static void run(TF_Session* sess, TF_Output* outs, int n, TF_Tensor** vals,
                TF_Status* s) {
  TF_SessionRun(sess, NULL, NULL, NULL, 0, outs, vals, n, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
}

TEST(session_node_state_across_fetch_sets) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Operation *shape, *r, *r2, *q;
  TF_Session* sess;
  TF_Output o_r, o_qr2[2];
  TF_Tensor* v[2] = {NULL, NULL};
  int k;
  shape = shape_const(g, s);
  CHECK_CODE(s, TF_OK);
  r = uniform(g, shape, "r", s);
  CHECK_CODE(s, TF_OK);
  q = times_two(g, r, s);
  CHECK_CODE(s, TF_OK);
  r2 = uniform(g, shape, "r2", s);
  CHECK_CODE(s, TF_OK);
  o_r.oper = r;
  o_r.index = 0;
  o_qr2[0].oper = q;
  o_qr2[0].index = 0;
  o_qr2[1].oper = r2;
  o_qr2[1].index = 0;
  for (k = 0; k < 2; k++) {
    sess = TF_NewSession(g, opts, s);
    CHECK_CODE(s, TF_OK);
    run(sess, &o_r, 1, v, s);
    check_vals(v[0], kDraw1);
    TF_DeleteTensor(v[0]);
    if (k == 0) {
      /* r's second draw (doubled) and r2's first: r2 has its own state. */
      run(sess, o_qr2, 2, v, s);
      check_vals(v[0], kDraw2x2);
      check_vals(v[1], kDraw1);
      TF_DeleteTensor(v[0]);
      TF_DeleteTensor(v[1]);
      run(sess, &o_r, 1, v, s);
      check_vals(v[0], kDraw3);
      TF_DeleteTensor(v[0]);
    }
    TF_CloseSession(sess, s);
    TF_DeleteSession(sess, s);
    CHECK_CODE(s, TF_OK);
  }
  TF_DeleteSessionOptions(opts);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
