/* Ops TF's registry marks as removed at a GraphDef version (AudioSummary:
 * removed in version 15). As in TF 2.21, eager mode refuses to make their
 * kernel, TF_FinishOperation refuses them in a graph whose producer is at
 * or past that version, and so does an import of such a GraphDef; a graph
 * produced before it builds, imports and runs them. Messages and the
 * 89-byte summary were checked against TF 2.21. */
#include <string.h>

#include "graph_test_util.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tfe_test.h"

static const char kRemoved[] =
    "Op AudioSummary is not available in GraphDef version 2474. It has been "
    "removed in version 15. Use AudioSummaryV2..";

static TF_Tensor* audio_input(void) {
  int64_t dims[2] = {1, 4};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 2, 4 * sizeof(float));
  memset(TF_TensorData(t), 0, 4 * sizeof(float));
  return t;
}

static TF_Tensor* string_scalar(const char* v) {
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
  TF_TString* p = (TF_TString*)TF_TensorData(t);
  TF_TString_Init(p);
  TF_TString_Copy(p, v, strlen(v));
  return t;
}

TEST(eager_kernel_refused) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  TF_Tensor* tag_t = string_scalar("a");
  TF_Tensor* x_t = audio_input();
  TFE_TensorHandle* tag = TFE_NewTensorHandle(tag_t, s);
  TFE_TensorHandle* x = TFE_NewTensorHandle(x_t, s);
  TFE_Op* op = TFE_NewOp(ctx, "AudioSummary", s);
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, tag, s);
  TFE_OpAddInput(op, x, s);
  TFE_OpSetAttrFloat(op, "sample_rate", 8000.0f);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK(strcmp(TF_Message(s), kRemoved) == 0);
  CHECK(out[0] == NULL);
  /* The op that replaced it runs. */
  TFE_DeleteOp(op);
  {
    TF_Tensor* rate_t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
    TFE_TensorHandle* rate;
    *(float*)TF_TensorData(rate_t) = 8000.0f;
    rate = TFE_NewTensorHandle(rate_t, s);
    op = TFE_NewOp(ctx, "AudioSummaryV2", s);
    TFE_OpAddInput(op, tag, s);
    TFE_OpAddInput(op, x, s);
    TFE_OpAddInput(op, rate, s);
    n = 1;
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteTensorHandle(out[0]);
    TFE_DeleteTensorHandle(rate);
    TF_DeleteTensor(rate_t);
    TFE_DeleteOp(op);
  }
  TFE_DeleteTensorHandle(tag);
  TFE_DeleteTensorHandle(x);
  TF_DeleteTensor(tag_t);
  TF_DeleteTensor(x_t);
  TFE_DeleteContext(ctx);
  TFE_DeleteContextOptions(o);
  TF_DeleteStatus(s);
}

/* Adds p (float [1,4]) -> AudioSummary "s" to g; returns the finish
 * status code (message in msg). */
static TF_Code add_audio(TF_Graph* g, char* msg, size_t cap) {
  TF_Status* s = TF_NewStatus();
  TF_Operation* p = gt_placeholder(g, "p", TF_FLOAT);
  TF_Tensor* tag = string_scalar("a");
  TF_Operation* c = gt_const(g, "tag", tag, NULL);
  TF_OperationDescription* d = TF_NewOperation(g, "AudioSummary", "s");
  TF_Code code;
  TF_AddInput(d, gt_out(c, 0));
  TF_AddInput(d, gt_out(p, 0));
  TF_SetAttrFloat(d, "sample_rate", 8000.0f);
  TF_FinishOperation(d, s);
  code = TF_GetCode(s);
  snprintf(msg, cap, "%s", TF_Message(s));
  TF_DeleteStatus(s);
  return code;
}

/* A graph whose producer is 14 (an empty GraphDef of that version was
 * imported into it), holding the AudioSummary node. */
static TF_Graph* old_audio_graph(void) {
  static const unsigned char kVersions14[] = {0x22, 0x02, 0x08, 14};
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Buffer* gd = TF_NewBufferFromString(kVersions14, sizeof kVersions14);
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  char msg[512];
  TF_GraphImportGraphDef(g, gd, o, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(add_audio(g, msg, sizeof msg), TF_OK);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteBuffer(gd);
  TF_DeleteStatus(s);
  return g;
}

/* Runs s:0 feeding zeros to p:0; returns the summary's byte length, or -1
 * with *code set. */
static int run_summary(TF_Graph* g, TF_Code* code, char* msg, size_t cap) {
  TF_Session* sess = gt_session(g);
  TF_Output feed = gt_out(TF_GraphOperationByName(g, "p"), 0);
  TF_Output fetch = gt_out(TF_GraphOperationByName(g, "s"), 0);
  TF_Tensor* x = audio_input();
  TF_Tensor* out = NULL;
  TF_Status* s = TF_NewStatus();
  int len = -1;
  TF_SessionRun(sess, NULL, &feed, &x, 1, &fetch, &out, 1, NULL, 0, NULL, s);
  *code = TF_GetCode(s);
  snprintf(msg, cap, "%s", TF_Message(s));
  if (out != NULL) {
    len = (int)TF_TString_GetSize((TF_TString*)TF_TensorData(out));
    TF_DeleteTensor(out);
  }
  TF_DeleteTensor(x);
  TF_DeleteStatus(s);
  gt_close(sess);
  return len;
}

TEST(builder_refuses_removed_op) {
  TF_Graph* g = TF_NewGraph();
  char msg[512];
  CHECK_EQ_INT(add_audio(g, msg, sizeof msg), TF_UNIMPLEMENTED);
  CHECK(strcmp(msg, kRemoved) == 0);
  CHECK(TF_GraphOperationByName(g, "s") == NULL);
  TF_DeleteGraph(g);
}

TEST(old_graph_builds_and_runs) {
  TF_Graph* g = old_audio_graph();
  TF_Code code;
  char msg[512];
  CHECK_EQ_INT(run_summary(g, &code, msg, sizeof msg), 89);
  CHECK_EQ_INT(code, TF_OK);
  TF_DeleteGraph(g);
}

/* The graph's GraphDef with versions { producer: `producer` } appended
 * (a repeated message field merges: the last producer wins). */
static TF_Buffer* graph_def_at(TF_Graph* g, int producer) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TF_NewBuffer();
  TF_Buffer* out;
  unsigned char* data;
  TF_GraphToGraphDef(g, b, s);
  CHECK_CODE(s, TF_OK);
  data = (unsigned char*)malloc(b->length + 4);
  memcpy(data, b->data, b->length);
  data[b->length] = 0x22; /* field 4 (versions), length-delimited */
  data[b->length + 1] = 2;
  data[b->length + 2] = 0x08; /* field 1 (producer), varint */
  data[b->length + 3] = (unsigned char)producer;
  out = TF_NewBufferFromString(data, b->length + 4);
  free(data);
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
  return out;
}

static TF_Graph* import_at(TF_Graph* src, int producer, TF_Code* code,
                           char* msg, size_t cap) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Buffer* gd = graph_def_at(src, producer);
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_GraphImportGraphDef(g, gd, o, s);
  *code = TF_GetCode(s);
  snprintf(msg, cap, "%s", TF_Message(s));
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteBuffer(gd);
  TF_DeleteStatus(s);
  return g;
}

TEST(old_graph_def_imports_and_runs) {
  TF_Graph* src = old_audio_graph();
  TF_Code code;
  char msg[512];
  TF_Graph* g = import_at(src, 14, &code, msg, sizeof msg);
  CHECK_EQ_INT(code, TF_OK);
  CHECK_EQ_INT(run_summary(g, &code, msg, sizeof msg), 89);
  CHECK_EQ_INT(code, TF_OK);
  TF_DeleteGraph(g);
  TF_DeleteGraph(src);
}

TEST(import_at_removal_version_refused) {
  TF_Graph* src = old_audio_graph();
  TF_Code code;
  char msg[512];
  TF_Graph* g = import_at(src, 15, &code, msg, sizeof msg);
  CHECK_EQ_INT(code, TF_UNIMPLEMENTED);
  CHECK(strcmp(msg,
               "Op AudioSummary is not available in GraphDef version 15. It "
               "has been removed in version 15. Use AudioSummaryV2..") == 0);
  TF_DeleteGraph(g);
  TF_DeleteGraph(src);
}

TFE_TEST_MAIN
