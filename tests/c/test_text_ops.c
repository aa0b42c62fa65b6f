/* String processing ops through the public C API, eagerly and in a graph
 * session: hash buckets against values TensorFlow 2.21 gave, StringSplitV2,
 * ReduceJoin, StringFormat, UnicodeDecode/Encode, and the errors of bad
 * input (status codes, never a crash). The full table of TF cases is
 * checked by tests/python/test_text_ops.py. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe_test.h"

static TFE_TensorHandle* str_handle(const int64_t* dims, int nd,
                                    const char* const* v, const size_t* lens,
                                    TF_Status* s) {
  int64_t n = 1, i;
  TF_Tensor* t;
  TF_TString* d;
  TFE_TensorHandle* h;
  int k;
  for (k = 0; k < nd; k++) n *= dims[k];
  t = TF_AllocateTensor(TF_STRING, dims, nd, (size_t)n * sizeof(TF_TString));
  d = (TF_TString*)TF_TensorData(t);
  for (i = 0; i < n; i++) {
    TF_TString_Init(&d[i]);
    TF_TString_Copy(&d[i], v[i], lens != NULL ? lens[i] : strlen(v[i]));
  }
  h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  return h;
}

/* Runs op (inputs given) with up to 3 outputs; returns the number of
 * outputs, or -1 with the status set. */
static int run_op(TFE_Context* ctx, TFE_Op* op, TFE_TensorHandle** out,
                  int nout, TF_Status* s) {
  int n = nout;
  (void)ctx;
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK ? n : -1;
}

static TF_Tensor* resolve(TFE_TensorHandle* h, TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  TFE_DeleteTensorHandle(h);
  return t;
}

static int str_eq(const TF_Tensor* t, int64_t i, const char* want,
                  size_t wlen) {
  const TF_TString* e = &((const TF_TString*)TF_TensorData(t))[i];
  return TF_TString_GetSize(e) == wlen &&
         memcmp(TF_TString_GetDataPointer(e), want, wlen) == 0;
}

/* Bucket values TF 2.21 gave with num_buckets = 1000 (Strong: key
 * [1, 2]). */
TEST(hash_buckets_match_tf) {
  static const char* const in[4] = {"", "hello", "0123456789abcdef0123456789abcdef",
                                    "abcdefghijklmnopq"};
  static const int64_t want[3][4] = {
      {263, 296, 840, 400}, {435, 622, 687, 301}, {899, 938, 251, 845}};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int64_t dims[1] = {4};
  const char* names[3] = {"StringToHashBucketFast", "StringToHashBucketStrong",
                          "StringToHashBucket"};
  int k;
  for (k = 0; k < 3; k++) {
    TFE_TensorHandle* x = str_handle(dims, 1, in, NULL, s);
    TFE_Op* op = TFE_NewOp(ctx, names[k], s);
    TFE_TensorHandle* out[1];
    TF_Tensor* t;
    const int64_t* v;
    CHECK_CODE(s, TF_OK);
    TFE_OpAddInput(op, x, s);
    TFE_OpSetAttrInt(op, "num_buckets", 1000);
    if (k == 1) {
      int64_t key[2] = {1, 2};
      TFE_OpSetAttrIntList(op, "key", key, 2);
    }
    CHECK_EQ_INT(run_op(ctx, op, out, 1, s), 1);
    t = resolve(out[0], s);
    CHECK_CODE(s, TF_OK);
    v = (const int64_t*)TF_TensorData(t);
    for (int i = 0; i < 4; i++) CHECK_EQ_INT(v[i], want[k][i]);
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(x);
  }
  {
    /* num_buckets below the minimum, and a key of the wrong length. */
    TFE_TensorHandle* x = str_handle(dims, 1, in, NULL, s);
    TFE_Op* op = TFE_NewOp(ctx, "StringToHashBucketStrong", s);
    TFE_TensorHandle* out[1];
    int64_t key[1] = {1};
    TFE_OpAddInput(op, x, s);
    TFE_OpSetAttrInt(op, "num_buckets", 5);
    TFE_OpSetAttrIntList(op, "key", key, 1);
    CHECK_EQ_INT(run_op(ctx, op, out, 1, s), -1);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "Key must have 2 elements");
    TF_SetStatus(s, TF_OK, "");
    op = TFE_NewOp(ctx, "StringToHashBucketFast", s);
    TFE_OpAddInput(op, x, s);
    TFE_OpSetAttrInt(op, "num_buckets", 0);
    CHECK_EQ_INT(run_op(ctx, op, out, 1, s), -1);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TFE_DeleteTensorHandle(x);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(split_join_format_eager) {
  static const char* const in[3] = {"a b  c", "", "  x "};
  static const char* const sep[1] = {""};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int64_t dims[1] = {3};
  TFE_TensorHandle* x = str_handle(dims, 1, in, NULL, s);
  TFE_TensorHandle* sp = str_handle(NULL, 0, sep, NULL, s);
  TFE_TensorHandle* out[3];
  TFE_Op* op = TFE_NewOp(ctx, "StringSplitV2", s);
  TF_Tensor *ti, *tv, *ts;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, sp, s);
  CHECK_EQ_INT(run_op(ctx, op, out, 3, s), 3);
  ti = resolve(out[0], s);
  tv = resolve(out[1], s);
  ts = resolve(out[2], s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_Dim(ti, 0), 4);
  CHECK_EQ_INT(TF_Dim(ti, 1), 2);
  {
    const int64_t* iv = (const int64_t*)TF_TensorData(ti);
    const int64_t* sv = (const int64_t*)TF_TensorData(ts);
    static const int64_t want[8] = {0, 0, 0, 1, 0, 2, 2, 0};
    for (int i = 0; i < 8; i++) CHECK_EQ_INT(iv[i], want[i]);
    CHECK_EQ_INT(sv[0], 3);
    CHECK_EQ_INT(sv[1], 3);
  }
  CHECK(str_eq(tv, 0, "a", 1) && str_eq(tv, 1, "b", 1) &&
        str_eq(tv, 2, "c", 1) && str_eq(tv, 3, "x", 1));
  TF_DeleteTensor(ti);
  TF_DeleteTensor(tv);
  TF_DeleteTensor(ts);

  /* A matrix input is INVALID_ARGUMENT with TF's message. */
  {
    int64_t d2[2] = {1, 3};
    TFE_TensorHandle* m = str_handle(d2, 2, in, NULL, s);
    op = TFE_NewOp(ctx, "StringSplitV2", s);
    TFE_OpAddInput(op, m, s);
    TFE_OpAddInput(op, sp, s);
    CHECK_EQ_INT(run_op(ctx, op, out, 3, s), -1);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "input must be a vector, got shape: [1,3]");
    TF_SetStatus(s, TF_OK, "");
    TFE_DeleteTensorHandle(m);
  }

  /* StringFormat of a vector and a scalar. */
  {
    static const int32_t vd[3] = {1, -2, 30};
    TFE_TensorHandle* v = make_handle(TF_INT32, dims, 1, vd, sizeof vd, s);
    TFE_TensorHandle* inputs[2];
    TF_DataType types[2] = {TF_INT32, TF_STRING};
    TF_Tensor* t;
    inputs[0] = v;
    inputs[1] = sp;
    op = TFE_NewOp(ctx, "StringFormat", s);
    TFE_OpAddInputList(op, inputs, 2, s);
    TFE_OpSetAttrTypeList(op, "T", types, 2);
    TFE_OpSetAttrString(op, "template", "v={} s={}", 9);
    TFE_OpSetAttrString(op, "placeholder", "{}", 2);
    CHECK_EQ_INT(run_op(ctx, op, out, 1, s), 1);
    t = resolve(out[0], s);
    CHECK_CODE(s, TF_OK);
    CHECK(str_eq(t, 0, "v=[1 -2 30] s=\"\"", 16));
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(v);
  }
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(sp);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(unicode_decode_encode_eager) {
  /* "a", U+00E4, a truncated 3-byte sequence, U+1F600 */
  static const char* const in[1] = {"a\xc3\xa4\xe2\x82\xf0\x9f\x98\x80"};
  static const size_t lens[1] = {9};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int64_t dims[1] = {1};
  TFE_TensorHandle* x = str_handle(dims, 1, in, lens, s);
  TFE_TensorHandle* out[3];
  TFE_Op* op = TFE_NewOp(ctx, "UnicodeDecodeWithOffsets", s);
  TF_Tensor *splits, *vals, *offs;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, x, s);
  TFE_OpSetAttrString(op, "input_encoding", "UTF-8", 5);
  CHECK_EQ_INT(run_op(ctx, op, out, 3, s), 3);
  splits = resolve(out[0], s);
  vals = resolve(out[1], s);
  offs = resolve(out[2], s);
  CHECK_CODE(s, TF_OK);
  {
    const int64_t* sp = (const int64_t*)TF_TensorData(splits);
    const int32_t* v = (const int32_t*)TF_TensorData(vals);
    const int64_t* o = (const int64_t*)TF_TensorData(offs);
    CHECK_EQ_INT(sp[0], 0);
    CHECK_EQ_INT(sp[1], 4);
    CHECK_EQ_INT(v[0], 'a');
    CHECK_EQ_INT(v[1], 0xE4);
    CHECK_EQ_INT(v[2], 0xFFFD);
    CHECK_EQ_INT(v[3], 0x1F600);
    CHECK_EQ_INT(o[0], 0);
    CHECK_EQ_INT(o[1], 1);
    CHECK_EQ_INT(o[2], 3);
    CHECK_EQ_INT(o[3], 5);
  }
  /* Encode the code points back, as UTF-16-BE. */
  {
    TFE_TensorHandle* hv = TFE_NewTensorHandle(vals, s);
    TFE_TensorHandle* hs = TFE_NewTensorHandle(splits, s);
    TF_Tensor* t;
    static const char want[10] = {0, 'a', 0, (char)0xE4, (char)0xFF, (char)0xFD,
                                  (char)0xD8, 0x3D, (char)0xDE, 0x00};
    op = TFE_NewOp(ctx, "UnicodeEncode", s);
    TFE_OpAddInput(op, hv, s);
    TFE_OpAddInput(op, hs, s);
    TFE_OpSetAttrString(op, "output_encoding", "UTF-16-BE", 9);
    CHECK_EQ_INT(run_op(ctx, op, out, 1, s), 1);
    t = resolve(out[0], s);
    CHECK_CODE(s, TF_OK);
    CHECK(str_eq(t, 0, want, 10));
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(hv);
    TFE_DeleteTensorHandle(hs);
  }
  /* strict: the ill-formed sequence is INVALID_ARGUMENT. */
  op = TFE_NewOp(ctx, "UnicodeDecode", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpSetAttrString(op, "input_encoding", "UTF-8", 5);
  TFE_OpSetAttrString(op, "errors", "strict", 6);
  CHECK_EQ_INT(run_op(ctx, op, out, 2, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Invalid formatting on input string");
  TF_DeleteTensor(splits);
  TF_DeleteTensor(vals);
  TF_DeleteTensor(offs);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* A graph: placeholder -> StringSplitV2 -> ReduceJoin of the values is not
 * possible (1-D), so: placeholder -> StringLower(utf-8) -> ReduceJoin,
 * shapes inferred at graph build time, run in a session. */
TEST(graph_lower_reduce_join_session) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d;
  TF_Operation *ph, *low, *axis, *join;
  TF_Tensor* axis_t = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
  int64_t dims[2] = {-1, 2};
  int64_t out_dims[2];
  *(int32_t*)TF_TensorData(axis_t) = 1;
  d = TF_NewOperation(g, "Placeholder", "x");
  TF_SetAttrType(d, "dtype", TF_STRING);
  TF_SetAttrShape(d, "shape", dims, 2);
  ph = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "StringLower", "low");
  TF_AddInput(d, (TF_Output){ph, 0});
  TF_SetAttrString(d, "encoding", "utf-8", 5);
  low = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "Const", "axis");
  TF_SetAttrType(d, "dtype", TF_INT32);
  TF_SetAttrTensor(d, "value", axis_t, s);
  axis = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "ReduceJoin", "join");
  TF_AddInput(d, (TF_Output){low, 0});
  TF_AddInput(d, (TF_Output){axis, 0});
  TF_SetAttrString(d, "separator", "+", 1);
  join = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_GraphGetTensorNumDims(g, (TF_Output){join, 0}, s), 1);
  TF_GraphGetTensorShape(g, (TF_Output){join, 0}, out_dims, 1, s);
  CHECK_EQ_INT(out_dims[0], -1);
  {
    static const char* const in[4] = {"ÄB", "ΣΑΣ", "x", "Y"};
    int64_t idims[2] = {2, 2};
    TF_Tensor* feed = TF_AllocateTensor(TF_STRING, idims, 2, 4 * sizeof(TF_TString));
    TF_TString* fd = (TF_TString*)TF_TensorData(feed);
    TF_SessionOptions* so = TF_NewSessionOptions();
    TF_Session* sess = TF_NewSession(g, so, s);
    TF_Output fin = {ph, 0}, fout = {join, 0};
    TF_Tensor* res = NULL;
    for (int i = 0; i < 4; i++) {
      TF_TString_Init(&fd[i]);
      TF_TString_Copy(&fd[i], in[i], strlen(in[i]));
    }
    CHECK_CODE(s, TF_OK);
    TF_SessionRun(sess, NULL, &fin, &feed, 1, &fout, &res, 1, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_Dim(res, 0), 2);
    CHECK(str_eq(res, 0, "äb+σας", strlen("äb+σας")));
    CHECK(str_eq(res, 1, "x+y", 3));
    TF_DeleteTensor(res);
    TF_DeleteTensor(feed);
    TF_CloseSession(sess, s);
    TF_DeleteSession(sess, s);
    TF_DeleteSessionOptions(so);
  }
  TF_DeleteTensor(axis_t);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
