/* Regex ops through the public C API: eager (TFE_Execute) and in a graph
 * run by a session (TF_SessionRun), with TF 2.21's results, codes and
 * messages. The wider table of patterns is tests/data/regex_cases.json,
 * run by tests/python/test_regex_ops.py. */
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"
#include "tensorflow/c/tf_tstring.h"

static TF_Tensor* str_tensor(const int64_t* dims, int nd,
                             const char* const* v, int n) {
  TF_Tensor* t =
      TF_AllocateTensor(TF_STRING, dims, nd, (size_t)n * sizeof(TF_TString));
  TF_TString* d;
  int i;
  CHECK(t != NULL);
  d = (TF_TString*)TF_TensorData(t);
  for (i = 0; i < n; i++) {
    TF_TString_Init(&d[i]);
    TF_TString_Copy(&d[i], v[i], strlen(v[i]));
  }
  return t;
}

static TFE_TensorHandle* str_handle(const int64_t* dims, int nd,
                                    const char* const* v, int n,
                                    TF_Status* s) {
  TF_Tensor* t = str_tensor(dims, nd, v, n);
  TFE_TensorHandle* h = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  return h;
}

static void check_strs(const TF_Tensor* t, const char* const* want, int n) {
  const TF_TString* d = (const TF_TString*)TF_TensorData(t);
  int i;
  CHECK_EQ_INT(TF_TensorElementCount(t), n);
  for (i = 0; i < n; i++) {
    size_t len = TF_TString_GetSize(&d[i]);
    if (len != strlen(want[i]) ||
        memcmp(TF_TString_GetDataPointer(&d[i]), want[i], len) != 0) {
      TFE_FAIL("element %d: \"%.*s\", want \"%s\"", i, (int)len,
               TF_TString_GetDataPointer(&d[i]), want[i]);
    }
  }
}

/* Runs op (built by the caller) with one output; returns its tensor or
 * NULL when the op failed (status kept in s). */
static TF_Tensor* run1(TFE_Op* op, TF_Status* s) {
  TFE_TensorHandle* out = NULL;
  int n = 1;
  TF_Tensor* t;
  TFE_Execute(op, &out, &n, s);
  TFE_DeleteOp(op);
  if (TF_GetCode(s) != TF_OK) return NULL;
  t = TFE_TensorHandleResolve(out, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(out);
  return t;
}

static const int64_t kTwo[1] = {2};

TEST(eager_static_replace_and_match) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const char* in[2] = {"banana", "xyz"};
  TFE_TensorHandle* x = str_handle(kTwo, 1, in, 2, s);
  TFE_Op* op;
  TF_Tensor* t;
  int g;
  for (g = 1; g >= 0; g--) {
    const char* want_g[2] = {"bonono", "xyz"};
    const char* want_1[2] = {"bonana", "xyz"};
    op = TFE_NewOp(ctx, "StaticRegexReplace", s);
    CHECK_CODE(s, TF_OK);
    TFE_OpAddInput(op, x, s);
    TFE_OpSetAttrString(op, "pattern", "a", 1);
    TFE_OpSetAttrString(op, "rewrite", "o", 1);
    if (!g) TFE_OpSetAttrBool(op, "replace_global", 0);
    t = run1(op, s);
    CHECK_CODE(s, TF_OK);
    check_strs(t, g ? want_g : want_1, 2);
    TF_DeleteTensor(t);
  }
  op = TFE_NewOp(ctx, "StaticRegexFullMatch", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpSetAttrString(op, "pattern", "[a-n]+", 6);
  t = run1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(t), TF_BOOL);
  CHECK_EQ_INT(((TF_Bool*)TF_TensorData(t))[0], 1);
  CHECK_EQ_INT(((TF_Bool*)TF_TensorData(t))[1], 0);
  TF_DeleteTensor(t);
  /* An invalid static pattern fails when the kernel is made. */
  op = TFE_NewOp(ctx, "StaticRegexFullMatch", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpSetAttrString(op, "pattern", "a**", 3);
  CHECK(run1(op, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Invalid pattern: a**, error: bad repetition operator: **");
  /* Accepted by RE2, not by tfe's engine. */
  op = TFE_NewOp(ctx, "StaticRegexReplace", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpSetAttrString(op, "pattern", "\\C", 2);
  TFE_OpSetAttrString(op, "rewrite", "", 0);
  CHECK(run1(op, s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(eager_dynamic_ops_and_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const char* in[2] = {"2024-06-01", "June"};
  const char* pat1[1] = {"(\\d+)-(\\d+)-(\\d+)"};
  const char* rw1[1] = {"\\3.\\2.\\1"};
  const char* bad1[1] = {"(abc"};
  const char* two[2] = {"a", "b"};
  TFE_TensorHandle* x = str_handle(kTwo, 1, in, 2, s);
  TFE_TensorHandle* p = str_handle(NULL, 0, pat1, 1, s);
  TFE_TensorHandle* rw = str_handle(NULL, 0, rw1, 1, s);
  TFE_TensorHandle* bad = str_handle(NULL, 0, bad1, 1, s);
  TFE_TensorHandle* vec = str_handle(kTwo, 1, two, 2, s);
  TFE_Op* op;
  TF_Tensor* t;
  op = TFE_NewOp(ctx, "RegexReplace", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, p, s);
  TFE_OpAddInput(op, rw, s);
  t = run1(op, s);
  CHECK_CODE(s, TF_OK);
  {
    const char* want[2] = {"01.06.2024", "June"};
    check_strs(t, want, 2);
  }
  TF_DeleteTensor(t);
  op = TFE_NewOp(ctx, "RegexFullMatch", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, p, s);
  t = run1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(((TF_Bool*)TF_TensorData(t))[0], 1);
  CHECK_EQ_INT(((TF_Bool*)TF_TensorData(t))[1], 0);
  TF_DeleteTensor(t);
  op = TFE_NewOp(ctx, "RegexFullMatch", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, bad, s);
  CHECK(run1(op, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Invalid pattern: (abc, error: missing ): (abc");
  op = TFE_NewOp(ctx, "RegexFullMatch", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, vec, s);
  CHECK(run1(op, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Pattern must be scalar, but received [2]");
  op = TFE_NewOp(ctx, "RegexReplace", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, p, s);
  TFE_OpAddInput(op, vec, s);
  CHECK(run1(op, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Rewrite must be scalar, but received [2]");
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(rw);
  TFE_DeleteTensorHandle(bad);
  TFE_DeleteTensorHandle(vec);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

static TF_Operation* placeholder(TF_Graph* g, const char* name, TF_Status* s,
                                 const int64_t* dims, int nd) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_Operation* op;
  TF_SetAttrType(d, "dtype", TF_STRING);
  TF_SetAttrShape(d, "shape", dims, nd);
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  return op;
}

TEST(graph_session_run) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  const int64_t unk[1] = {-1};
  TF_Operation* x = placeholder(g, "x", s, unk, 1);
  TF_Operation* p = placeholder(g, "p", s, NULL, 0);
  TF_Operation* rw = placeholder(g, "rw", s, NULL, 0);
  TF_Operation *rep, *fm, *st;
  TF_OperationDescription* d;
  TF_SessionOptions* so = TF_NewSessionOptions();
  TF_Session* sess;
  int64_t dims[4];
  d = TF_NewOperation(g, "RegexReplace", "rep");
  TF_AddInput(d, (TF_Output){x, 0});
  TF_AddInput(d, (TF_Output){p, 0});
  TF_AddInput(d, (TF_Output){rw, 0});
  TF_SetAttrBool(d, "replace_global", 1);
  rep = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "RegexFullMatch", "fm");
  TF_AddInput(d, (TF_Output){rep, 0});
  TF_AddInput(d, (TF_Output){p, 0});
  fm = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "StaticRegexFullMatch", "st");
  TF_AddInput(d, (TF_Output){rep, 0});
  TF_SetAttrString(d, "pattern", "(?i)[A-Z_]+", 11);
  st = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  /* Shape inference: the input's shape, a bool output. */
  CHECK_EQ_INT(TF_GraphGetTensorNumDims(g, (TF_Output){fm, 0}, s), 1);
  TF_GraphGetTensorShape(g, (TF_Output){fm, 0}, dims, 1, s);
  CHECK_EQ_INT(dims[0], -1);
  CHECK_EQ_INT(TF_OperationOutputType((TF_Output){fm, 0}), TF_BOOL);
  /* A rank-1 pattern is rejected when the node is added. */
  {
    const int64_t one[1] = {1};
    TF_Operation* pv = placeholder(g, "pv", s, one, 1);
    d = TF_NewOperation(g, "RegexFullMatch", "bad");
    TF_AddInput(d, (TF_Output){x, 0});
    TF_AddInput(d, (TF_Output){pv, 0});
    CHECK(TF_FinishOperation(d, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "must be rank 0");
  }
  sess = TF_NewSession(g, so, s);
  CHECK_CODE(s, TF_OK);
  {
    const char* xs[3] = {"a-b", "c", "d-e-f"};
    const char* ps[1] = {"-"};
    const char* rws[1] = {"_"};
    const int64_t three[1] = {3};
    TF_Output feeds[3] = {{x, 0}, {p, 0}, {rw, 0}};
    TF_Tensor* fv[3];
    TF_Output fetch[3] = {{rep, 0}, {fm, 0}, {st, 0}};
    TF_Tensor* out[3] = {NULL, NULL, NULL};
    int i;
    fv[0] = str_tensor(three, 1, xs, 3);
    fv[1] = str_tensor(NULL, 0, ps, 1);
    fv[2] = str_tensor(NULL, 0, rws, 1);
    TF_SessionRun(sess, NULL, feeds, fv, 3, fetch, out, 3, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_OK);
    {
      const char* want[3] = {"a_b", "c", "d_e_f"};
      check_strs(out[0], want, 3);
    }
    for (i = 0; i < 3; i++) {
      CHECK_EQ_INT(((TF_Bool*)TF_TensorData(out[1]))[i], 0);
      CHECK_EQ_INT(((TF_Bool*)TF_TensorData(out[2]))[i], 1);
    }
    for (i = 0; i < 3; i++) {
      TF_DeleteTensor(out[i]);
      TF_DeleteTensor(fv[i]);
    }
  }
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
