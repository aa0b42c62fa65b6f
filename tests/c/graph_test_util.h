/* Helpers for C tests that build graphs through the public API and run
 * them in sessions (test_session*.c, test_control_flow_v1.c). */
#ifndef TFE_TESTS_GRAPH_TEST_UTIL_H_
#define TFE_TESTS_GRAPH_TEST_UTIL_H_

#include <stdint.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tfe_test.h"

static inline TF_Output gt_out(TF_Operation* op, int i) {
  TF_Output o;
  o.oper = op;
  o.index = i;
  return o;
}

static inline TF_Operation* gt_finish(TF_OperationDescription* d) {
  TF_Status* s = TF_NewStatus();
  TF_Operation* op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  return op;
}

static inline TF_Tensor* gt_scalar_i32(int32_t v) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
  *(int32_t*)TF_TensorData(t) = v;
  return t;
}

static inline TF_Tensor* gt_scalar_f32(float v) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  *(float*)TF_TensorData(t) = v;
  return t;
}

static inline TF_Tensor* gt_scalar_bool(int v) {
  TF_Tensor* t = TF_AllocateTensor(TF_BOOL, NULL, 0, 1);
  *(unsigned char*)TF_TensorData(t) = (unsigned char)(v != 0);
  return t;
}

static inline TF_Operation* gt_placeholder(TF_Graph* g, const char* name,
                                           TF_DataType dt) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", dt);
  return gt_finish(d);
}

/* Const holding t (deleted here); optional control input. */
static inline TF_Operation* gt_const(TF_Graph* g, const char* name,
                                     TF_Tensor* t, TF_Operation* ctrl) {
  TF_Status* s = TF_NewStatus();
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_SetAttrTensor(d, "value", t, s);
  CHECK_CODE(s, TF_OK);
  TF_SetAttrType(d, "dtype", TF_TensorType(t));
  if (ctrl != NULL) TF_AddControlInput(d, ctrl);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
  return gt_finish(d);
}

static inline TF_Operation* gt_unop(TF_Graph* g, const char* type,
                                    const char* name, TF_Output a) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInput(d, a);
  return gt_finish(d);
}

static inline TF_Operation* gt_binop(TF_Graph* g, const char* type,
                                     const char* name, TF_Output a,
                                     TF_Output b) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInput(d, a);
  TF_AddInput(d, b);
  return gt_finish(d);
}

static inline TF_Session* gt_session(TF_Graph* g) {
  TF_Status* s = TF_NewStatus();
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, o, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSessionOptions(o);
  TF_DeleteStatus(s);
  return sess;
}

static inline void gt_close(TF_Session* sess) {
  TF_Status* s = TF_NewStatus();
  TF_CloseSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

/* Runs with one optional feed and one fetch; returns the fetched tensor
 * (caller deletes) or NULL with the code in *code. */
static inline TF_Tensor* gt_run1(TF_Session* sess, TF_Output* feed,
                                 TF_Tensor* value, TF_Output fetch,
                                 TF_Code* code) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* out = NULL;
  TF_Tensor* vals[1];
  vals[0] = value;
  TF_SessionRun(sess, NULL, feed, vals, feed != NULL ? 1 : 0, &fetch, &out,
                1, NULL, 0, NULL, s);
  if (code != NULL) *code = TF_GetCode(s);
  if (TF_GetCode(s) != TF_OK && code == NULL) {
    TFE_FAIL("run failed: %s", TF_Message(s));
  }
  TF_DeleteStatus(s);
  return out;
}

#endif /* TFE_TESTS_GRAPH_TEST_UTIL_H_ */
