#define _GNU_SOURCE 1
/* Graph optimizer plugins run on a session's graph (issue 14 §7): the test
 * plugin tests/plugins/gr_rewrite_device.c turns every Sub into AddV2, so
 * a session computing a - b returns a + b; its failures, undecodable or
 * incomplete output graphs are errors naming the plugin; ABORTED and an
 * empty output leave the graph as it is. The grappler.h helpers the
 * optimizer calls (fetch and preserve lists, graph properties) and the
 * function-library helpers are checked too. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tfe/plugins.h"
#include "tfe_test.h"

#define GR_PLUGIN TFE_TEST_PLUGIN_DIR "/gr_rewrite_device.so"

static void load_plugin(void) {
  TF_Status* s = TF_NewStatus();
  TF_Library* lib = TF_LoadPluggableDeviceLibrary(GR_PLUGIN, s);
  CHECK_CODE(s, TF_OK);
  CHECK(lib != NULL);
  TF_DeleteStatus(s);
}

static void* plugin_fn(const char* name) {
  void* h = dlopen(GR_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
  void* f;
  CHECK(h != NULL);
  f = dlsym(h, name);
  CHECK(f != NULL);
  dlclose(h);
  return f;
}

static const char* plugin_seen(void) {
  const char* (*fn)(void);
  *(void**)&fn = plugin_fn("gr_seen");
  return fn();
}

static int plugin_calls(void) {
  int (*fn)(void);
  *(void**)&fn = plugin_fn("gr_num_calls");
  return fn();
}

typedef struct sub_graph {
  TF_Graph* g;
  TF_Operation *a, *b, *y;
} sub_graph;

static TF_Operation* placeholder2(TF_Graph* g, const char* name,
                                  TF_Status* s) {
  static const int64_t dims[1] = {2};
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_Operation* op;
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", dims, 1);
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  return op;
}

/* y = a - b over float[2] placeholders. */
static void make_sub_graph(sub_graph* sg, TF_Status* s) {
  TF_OperationDescription* d;
  TF_Output in;
  sg->g = TF_NewGraph();
  sg->a = placeholder2(sg->g, "a", s);
  sg->b = placeholder2(sg->g, "b", s);
  d = TF_NewOperation(sg->g, "Sub", "y");
  in.oper = sg->a;
  in.index = 0;
  TF_AddInput(d, in);
  in.oper = sg->b;
  TF_AddInput(d, in);
  sg->y = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
}

static TF_Tensor* vec2(float x0, float x1) {
  static const int64_t dims[1] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 8);
  ((float*)TF_TensorData(t))[0] = x0;
  ((float*)TF_TensorData(t))[1] = x1;
  return t;
}

/* Runs y with a = [5, 7], b = [3, 2]; returns y[0] (or -1e9 on error, the
 * status then holds it). */
static float run_y(TF_Session* sess, const sub_graph* sg, TF_Status* s) {
  TF_Output feeds[2], fetch;
  TF_Tensor* in[2];
  TF_Tensor* out = NULL;
  float v = -1e9f;
  feeds[0].oper = sg->a;
  feeds[0].index = 0;
  feeds[1].oper = sg->b;
  feeds[1].index = 0;
  fetch.oper = sg->y;
  fetch.index = 0;
  in[0] = vec2(5, 7);
  in[1] = vec2(3, 2);
  TF_SessionRun(sess, NULL, feeds, in, 2, &fetch, &out, 1, NULL, 0, NULL, s);
  if (TF_GetCode(s) == TF_OK) {
    CHECK(out != NULL);
    v = ((float*)TF_TensorData(out))[0];
    CHECK(((float*)TF_TensorData(out))[1] == (v == 8.0f ? 9.0f : 5.0f));
    TF_DeleteTensor(out);
  }
  TF_DeleteTensor(in[0]);
  TF_DeleteTensor(in[1]);
  return v;
}

static TF_Session* new_session(TF_Graph* g, TF_Status* s) {
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, o, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSessionOptions(o);
  return sess;
}

static void close_session(TF_Session* sess) {
  TF_Status* s = TF_NewStatus();
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

TEST(optimizer_rewrites_the_session_graph) {
  TF_Status* s = TF_NewStatus();
  sub_graph sg;
  TF_Session* sess;
  unsetenv("GR_MODE");
  load_plugin();
  make_sub_graph(&sg, s);
  sess = new_session(sg.g, s);
  /* Sub became AddV2: 5 + 3, 7 + 2. */
  CHECK(run_y(sess, &sg, s) == 8.0f);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(plugin_calls(), 1);
  /* What the optimizer read through grappler.h: the fetch node, the nodes
   * to preserve (fetches, then feeds), and node a's output properties
   * (DT_FLOAT, rank 1). */
  /* (Until the session passes feeds and fetches apart, every node the
   * run names counts as a fetch node too.) */
  CHECK(strstr(plugin_seen(), "fetch=y;") != NULL ||
        strstr(plugin_seen(), "fetch=a,b,y;") != NULL);
  CHECK(strstr(plugin_seen(), "preserve=y,a,b;") != NULL ||
        strstr(plugin_seen(), "preserve=a,b,y;") != NULL);
  CHECK_STR_CONTAINS(plugin_seen(), "props(a)=1:dtype=1:rank=1:value=0");
  /* The session's own graph is untouched; the same run reuses its plan. */
  CHECK_STR_EQ(TF_OperationOpType(sg.y), "Sub");
  CHECK(run_y(sess, &sg, s) == 8.0f);
  CHECK_EQ_INT(plugin_calls(), 1);
  close_session(sess);
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

static void expect_error(const char* mode, TF_Code code, const char* part1,
                         const char* part2) {
  TF_Status* s = TF_NewStatus();
  sub_graph sg;
  TF_Session* sess;
  setenv("GR_MODE", mode, 1);
  load_plugin();
  make_sub_graph(&sg, s);
  sess = new_session(sg.g, s);
  run_y(sess, &sg, s);
  CHECK_CODE(s, code);
  CHECK_STR_CONTAINS(TF_Message(s), "graph optimizer of plugin '");
  CHECK_STR_CONTAINS(TF_Message(s), "gr_rewrite_device.so' (device type "
                                    "GR_DEVICE)");
  CHECK_STR_CONTAINS(TF_Message(s), part1);
  if (part2 != NULL) CHECK_STR_CONTAINS(TF_Message(s), part2);
  close_session(sess);
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

TEST(optimizer_failure_names_the_plugin) {
  expect_error("fail", TF_INTERNAL, "failed: gr: boom", NULL);
}

TEST(undecodable_output_graph_is_an_error) {
  expect_error("garbage", TF_INVALID_ARGUMENT,
               "returned a graph tfe cannot import", NULL);
}

TEST(output_graph_with_unknown_op_is_an_error) {
  expect_error("unknown_op", TF_INVALID_ARGUMENT,
               "returned a graph tfe cannot import", "NoSuchOpGr");
}

TEST(output_graph_without_a_fetched_node_is_an_error) {
  expect_error("drop", TF_INVALID_ARGUMENT,
               "returned a graph without node 'y', which must be preserved",
               NULL);
}

static void expect_unchanged(const char* mode) {
  TF_Status* s = TF_NewStatus();
  sub_graph sg;
  TF_Session* sess;
  setenv("GR_MODE", mode, 1);
  load_plugin();
  make_sub_graph(&sg, s);
  sess = new_session(sg.g, s);
  CHECK(run_y(sess, &sg, s) == 2.0f);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(plugin_calls(), 1);
  close_session(sess);
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

TEST(aborted_optimizer_changes_nothing) { expect_unchanged("abort"); }

TEST(empty_output_changes_nothing) { expect_unchanged("empty"); }

TEST(without_the_plugin_nothing_runs) {
  TF_Status* s = TF_NewStatus();
  sub_graph sg;
  TF_Session* sess;
  make_sub_graph(&sg, s);
  sess = new_session(sg.g, s);
  CHECK(run_y(sess, &sg, s) == 2.0f);
  CHECK_CODE(s, TF_OK);
  close_session(sess);
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

TEST(helpers_refuse_null_arguments) {
  TF_Status* s = TF_NewStatus();
  int n = 5;
  size_t bytes = 5;
  TF_GetNodesToPreserveListSize(NULL, &n, &bytes, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(n == 0 && bytes == 0);
  TF_GetNodesToPreserveList(NULL, NULL, NULL, 0, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GetFetchNodesListSize(NULL, &n, &bytes, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GetFetchNodesList(NULL, NULL, NULL, 0, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_NewGraphProperties(NULL) == NULL);
  TF_DeleteGraphProperties(NULL);
  TF_InferStatically(NULL, 0, 0, 0, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GetInputPropertiesListSize(NULL, "x", &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GetOutputPropertiesList(NULL, "x", NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_NewFunctionLibraryDefinition(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteFunctionLibraryDefinition(NULL);
  TF_LookUpOpDef(NULL, "AddV2", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteStatus(s);
}

TEST(function_library_from_a_graph_def) {
  TF_Status* s = TF_NewStatus();
  sub_graph sg;
  TF_Graph* host = TF_NewGraph();
  TF_Buffer* gdef = TF_NewBuffer();
  TF_Buffer* op = TF_NewBuffer();
  TF_FunctionLibraryDefinition* lib;
  TF_Function* fn;
  TF_Output ins[2], outs[1];
  make_sub_graph(&sg, s);
  ins[0].oper = sg.a;
  ins[0].index = 0;
  ins[1].oper = sg.b;
  ins[1].index = 0;
  outs[0].oper = sg.y;
  outs[0].index = 0;
  fn = TF_GraphToFunction(sg.g, "gr_sub_fn", 0, -1, NULL, 2, ins, 1, outs,
                          NULL, NULL, NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_GraphCopyFunction(host, fn, NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_GraphToGraphDef(host, gdef, s);
  CHECK_CODE(s, TF_OK);
  lib = TF_NewFunctionLibraryDefinition(gdef, s);
  CHECK_CODE(s, TF_OK);
  CHECK(lib != NULL);
  /* A function's signature and a registered op both resolve. */
  TF_LookUpOpDef(lib, "gr_sub_fn", op, s);
  CHECK_CODE(s, TF_OK);
  CHECK(op->length > 0);
  CHECK(memmem(op->data, op->length, "gr_sub_fn", 9) != NULL);
  TF_LookUpOpDef(lib, "AddV2", op, s);
  CHECK_CODE(s, TF_OK);
  CHECK(memmem(op->data, op->length, "AddV2", 5) != NULL);
  TF_LookUpOpDef(lib, "NoSuchOpGr", op, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  TF_DeleteFunctionLibraryDefinition(lib);
  /* Bytes that are not a GraphDef. */
  {
    static const char junk[] = "\x0a\xff\xff\xff";
    TF_Buffer* bad = TF_NewBufferFromString(junk, 4);
    CHECK(TF_NewFunctionLibraryDefinition(bad, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_DeleteBuffer(bad);
  }
  TF_DeleteFunction(fn);
  TF_DeleteBuffer(op);
  TF_DeleteBuffer(gdef);
  TF_DeleteGraph(host);
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

/* The `doctor` self-test runs the optimizer on a small graph and reports
 * the graph it returned (or its error). */
static char* self_test_json(void) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TFE_PluggableDeviceSelfTest("GR_DEVICE:0", s);
  char* json;
  CHECK_CODE(s, TF_OK);
  json = (char*)malloc(b->length + 1);
  memcpy(json, b->data, b->length);
  json[b->length] = '\0';
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
  return json;
}

TEST(self_test_runs_the_optimizer_and_checks_its_graph) {
  char* json;
  unsetenv("GR_MODE");
  load_plugin();
  json = self_test_json();
  CHECK_STR_CONTAINS(json,
                     "{\"name\": \"graph optimizer\", \"ok\": true, "
                     "\"detail\": \"ran (1 call) on a 5-node graph; its "
                     "5-node output graph imports and keeps the fed and "
                     "fetched nodes\"}");
  CHECK_EQ_INT(plugin_calls(), 1);
  free(json);
  /* A broken output graph fails the check with the plugin's name. */
  setenv("GR_MODE", "garbage", 1);
  json = self_test_json();
  CHECK_STR_CONTAINS(json, "{\"name\": \"graph optimizer\", \"ok\": false");
  CHECK_STR_CONTAINS(json, "returned a graph tfe cannot import");
  free(json);
  setenv("GR_MODE", "abort", 1);
  json = self_test_json();
  CHECK_STR_CONTAINS(json, "ran (1 call) on a 5-node graph and changed "
                           "nothing");
  free(json);
}

TFE_TEST_MAIN
