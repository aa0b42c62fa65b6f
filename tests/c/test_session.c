/* Sessions: TF_NewSession/TF_SessionRun/partial runs/close/delete/device
 * listing/TF_ExtendSession, session options, the deprecated session API,
 * and properties of the graph executor (pruning, feeds of any output,
 * plan cache following graph growth, parallel runs of wide graphs,
 * per-session variables). */
#include <stdio.h>
#include <string.h>

#include "graph_test_util.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tfe/tfe.h"

static int32_t i32_of(TF_Tensor* t) { return *(int32_t*)TF_TensorData(t); }
static float f32_of(TF_Tensor* t) { return *(float*)TF_TensorData(t); }

/* x (int32 placeholder) -> a = x + 10 -> b = a * a ; c = Neg(x) */
typedef struct small_graph {
  TF_Graph* g;
  TF_Operation *x, *ten, *a, *b, *c;
} small_graph;

static void make_small(small_graph* sg) {
  sg->g = TF_NewGraph();
  sg->x = gt_placeholder(sg->g, "x", TF_INT32);
  sg->ten = gt_const(sg->g, "ten", gt_scalar_i32(10), NULL);
  sg->a = gt_binop(sg->g, "AddV2", "a", gt_out(sg->x, 0), gt_out(sg->ten, 0));
  sg->b = gt_binop(sg->g, "Mul", "b", gt_out(sg->a, 0), gt_out(sg->a, 0));
  sg->c = gt_unop(sg->g, "Neg", "c", gt_out(sg->x, 0));
}

TEST(run_feeds_fetches_targets) {
  small_graph sg;
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  TF_Output feed, fetch[3];
  TF_Tensor* v;
  TF_Tensor* outs[3] = {NULL, NULL, NULL};
  make_small(&sg);
  sess = gt_session(sg.g);
  feed = gt_out(sg.x, 0);
  v = gt_scalar_i32(2);
  fetch[0] = gt_out(sg.b, 0);
  fetch[1] = gt_out(sg.a, 0);
  fetch[2] = gt_out(sg.b, 0);
  TF_SessionRun(sess, NULL, &feed, &v, 1, fetch, outs, 3, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(i32_of(outs[0]), 144);
  CHECK_EQ_INT(i32_of(outs[1]), 12);
  CHECK_EQ_INT(i32_of(outs[2]), 144);
  CHECK(outs[0] != outs[2]);
  TF_DeleteTensor(outs[0]);
  TF_DeleteTensor(outs[1]);
  TF_DeleteTensor(outs[2]);
  /* the input is not consumed and keeps its value */
  CHECK_EQ_INT(i32_of(v), 2);
  /* feeding an intermediate value: x is not needed */
  {
    TF_Output fa = gt_out(sg.a, 0);
    TF_Tensor* va = gt_scalar_i32(-3);
    TF_Tensor* o = NULL;
    TF_SessionRun(sess, NULL, &fa, &va, 1, fetch, &o, 1, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(i32_of(o), 9);
    TF_DeleteTensor(o);
    TF_DeleteTensor(va);
  }
  /* targets only */
  {
    TF_Operation* tg[1] = {sg.c};
    TF_SessionRun(sess, NULL, &feed, &v, 1, NULL, NULL, 0,
                  (const TF_Operation* const*)tg, 1, NULL, s);
    CHECK_CODE(s, TF_OK);
  }
  TF_DeleteTensor(v);
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(sg.g);
}

TEST(run_errors) {
  small_graph sg;
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  TF_Output feed, fetch;
  TF_Tensor* v;
  TF_Tensor* o = NULL;
  make_small(&sg);
  sess = gt_session(sg.g);
  feed = gt_out(sg.x, 0);
  fetch = gt_out(sg.b, 0);
  /* unfed placeholder: INVALID_ARGUMENT naming it */
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fetch, &o, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "'x'");
  CHECK(o == NULL);
  /* nothing to do */
  TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* wrong dtype */
  v = gt_scalar_f32(1.0f);
  TF_SessionRun(sess, NULL, &feed, &v, 1, &fetch, &o, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteTensor(v);
  v = gt_scalar_i32(1);
  /* fed and fetched */
  TF_SessionRun(sess, NULL, &feed, &v, 1, &feed, &o, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* output index out of range */
  {
    TF_Output bad = gt_out(sg.b, 5);
    TF_SessionRun(sess, NULL, &feed, &v, 1, &bad, &o, 1, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_OUT_OF_RANGE);
  }
  /* the same feed twice */
  {
    TF_Output two[2] = {feed, feed};
    TF_Tensor* vals[2] = {v, v};
    TF_SessionRun(sess, NULL, two, vals, 2, &fetch, &o, 1, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
  }
  /* an operation of another graph */
  {
    small_graph other;
    TF_Output f2;
    make_small(&other);
    f2 = gt_out(other.c, 0);
    TF_SessionRun(sess, NULL, &feed, &v, 1, &f2, &o, 1, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_DeleteGraph(other.g);
  }
  /* NULL arrays with counts */
  TF_SessionRun(sess, NULL, NULL, NULL, 1, &fetch, &o, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_SessionRun(NULL, NULL, &feed, &v, 1, &fetch, &o, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* garbage run options; run metadata is accepted */
  {
    TF_Buffer* ro = TF_NewBufferFromString("\xff\xff\xff", 3);
    TF_Buffer* md = TF_NewBuffer();
    TF_SessionRun(sess, ro, &feed, &v, 1, &fetch, &o, 1, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_SessionRun(sess, NULL, &feed, &v, 1, &fetch, &o, 1, NULL, 0, md, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(i32_of(o), 121);
    TF_DeleteTensor(o);
    TF_DeleteBuffer(ro);
    TF_DeleteBuffer(md);
  }
  TF_DeleteTensor(v);
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(sg.g);
}

TEST(kernel_error_names_node_and_session_survives) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_INT32);
  TF_Operation* z = gt_const(g, "z", gt_scalar_i32(0), NULL);
  TF_Operation* d = gt_binop(g, "FloorDiv", "div", gt_out(x, 0), gt_out(z, 0));
  TF_Operation* ok = gt_unop(g, "Neg", "ok", gt_out(x, 0));
  TF_Session* sess = gt_session(g);
  TF_Code code;
  TF_Output feed = gt_out(x, 0);
  TF_Tensor* v = gt_scalar_i32(5);
  TF_Tensor* o = gt_run1(sess, &feed, v, gt_out(d, 0), &code);
  CHECK_EQ_INT(code, TF_INVALID_ARGUMENT);
  CHECK(o == NULL);
  o = gt_run1(sess, &feed, v, gt_out(ok, 0), NULL);
  CHECK_EQ_INT(i32_of(o), -5);
  TF_DeleteTensor(o);
  TF_DeleteTensor(v);
  gt_close(sess);
  TF_DeleteGraph(g);
}

TEST(graph_growth_seen_by_next_run) {
  small_graph sg;
  TF_Session* sess;
  TF_Operation* late;
  TF_Output feed;
  TF_Tensor* v;
  TF_Tensor* o;
  make_small(&sg);
  sess = gt_session(sg.g);
  feed = gt_out(sg.x, 0);
  v = gt_scalar_i32(1);
  o = gt_run1(sess, &feed, v, gt_out(sg.a, 0), NULL);
  CHECK_EQ_INT(i32_of(o), 11);
  TF_DeleteTensor(o);
  late = gt_binop(sg.g, "AddV2", "late", gt_out(sg.a, 0), gt_out(sg.b, 0));
  o = gt_run1(sess, &feed, v, gt_out(late, 0), NULL);
  CHECK_EQ_INT(i32_of(o), 11 + 121);
  TF_DeleteTensor(o);
  /* After TF_ExtendSession the session no longer sees new operations. */
  {
    TF_Status* s = TF_NewStatus();
    TF_Operation* later;
    TF_Code code;
    TF_ExtendSession(sess, s);
    CHECK_CODE(s, TF_OK);
    later = gt_unop(sg.g, "Neg", "later", gt_out(sg.a, 0));
    o = gt_run1(sess, &feed, v, gt_out(later, 0), &code);
    CHECK_EQ_INT(code, TF_INVALID_ARGUMENT);
    TF_ExtendSession(sess, s);
    CHECK_CODE(s, TF_OK);
    o = gt_run1(sess, &feed, v, gt_out(later, 0), NULL);
    CHECK_EQ_INT(i32_of(o), -11);
    TF_DeleteTensor(o);
    TF_DeleteStatus(s);
  }
  TF_DeleteTensor(v);
  gt_close(sess);
  TF_DeleteGraph(sg.g);
}

/* A wide graph (many independent nodes) runs on the inter-op pool and gives
 * the same values as a sequential run (inter_op_parallelism_threads 1). */
static TF_Graph* make_wide(int width, TF_Operation** sum, TF_Operation** x) {
  TF_Graph* g = TF_NewGraph();
  TF_Output* parts = (TF_Output*)malloc(sizeof(TF_Output) * (size_t)width);
  int i;
  char name[64];
  TF_OperationDescription* d;
  *x = gt_placeholder(g, "x", TF_FLOAT);
  for (i = 0; i < width; i++) {
    TF_Operation* c;
    TF_Operation* m;
    TF_Operation* q;
    snprintf(name, sizeof name, "c%d", i);
    c = gt_const(g, name, gt_scalar_f32((float)i), NULL);
    snprintf(name, sizeof name, "m%d", i);
    m = gt_binop(g, "Mul", name, gt_out(*x, 0), gt_out(c, 0));
    snprintf(name, sizeof name, "q%d", i);
    q = gt_binop(g, "AddV2", name, gt_out(m, 0), gt_out(c, 0));
    parts[i] = gt_out(q, 0);
  }
  d = TF_NewOperation(g, "AddN", "sum");
  TF_AddInputList(d, parts, width);
  *sum = gt_finish(d);
  free(parts);
  return g;
}

TEST(wide_graph_parallel_matches_sequential) {
  TF_Operation *sum, *x;
  TF_Graph* g = make_wide(200, &sum, &x);
  TF_Status* s = TF_NewStatus();
  TF_SessionOptions* o1 = TF_NewSessionOptions();
  TF_Session* par = gt_session(g);
  TF_Session* seq;
  TF_Output feed = gt_out(x, 0);
  TF_Tensor* v = gt_scalar_f32(2.0f);
  int r;
  /* inter_op_parallelism_threads = 1 */
  TF_SetConfig(o1, "\x28\x01", 2, s);
  CHECK_CODE(s, TF_OK);
  seq = TF_NewSession(g, o1, s);
  CHECK_CODE(s, TF_OK);
  for (r = 0; r < 20; r++) {
    TF_Tensor* a = gt_run1(par, &feed, v, gt_out(sum, 0), NULL);
    TF_Tensor* b = gt_run1(seq, &feed, v, gt_out(sum, 0), NULL);
    /* sum over i of 3i = 3 * 199 * 200 / 2 */
    CHECK(f32_of(a) == 59700.0f);
    CHECK(f32_of(b) == 59700.0f);
    TF_DeleteTensor(a);
    TF_DeleteTensor(b);
  }
  TF_DeleteTensor(v);
  TF_DeleteSessionOptions(o1);
  gt_close(par);
  gt_close(seq);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

/* A failing node in a wide graph stops the run with its error. */
TEST(wide_graph_error) {
  TF_Operation *sum, *x;
  TF_Graph* g = make_wide(100, &sum, &x);
  TF_Operation* bad;
  TF_Operation* all;
  TF_Session* sess;
  TF_Code code;
  TF_Output feed;
  TF_Tensor* v;
  TF_Tensor* o;
  {
    TF_OperationDescription* d = TF_NewOperation(g, "CheckNumerics", "bad");
    TF_AddInput(d, gt_out(x, 0));
    TF_SetAttrString(d, "message", "found_nan", 9);
    bad = gt_finish(d);
  }
  all = gt_binop(g, "AddV2", "all", gt_out(sum, 0), gt_out(bad, 0));
  sess = gt_session(g);
  feed = gt_out(x, 0);
  v = gt_scalar_f32(0.0f / 0.0f);
  o = gt_run1(sess, &feed, v, gt_out(all, 0), &code);
  CHECK_EQ_INT(code, TF_INVALID_ARGUMENT);
  CHECK(o == NULL);
  TF_DeleteTensor(v);
  v = gt_scalar_f32(1.0f);
  o = gt_run1(sess, &feed, v, gt_out(all, 0), NULL);
  CHECK(f32_of(o) == 100.0f * 99.0f + 1.0f);
  TF_DeleteTensor(o);
  TF_DeleteTensor(v);
  gt_close(sess);
  TF_DeleteGraph(g);
}

static TF_Operation* var_ops(TF_Graph* g, TF_Operation** init,
                             TF_Operation** incr) {
  TF_OperationDescription* d = TF_NewOperation(g, "VarHandleOp", "v");
  TF_Operation* vh;
  TF_Operation* c;
  TF_Operation* read;
  TF_SetAttrType(d, "dtype", TF_INT32);
  TF_SetAttrShape(d, "shape", NULL, 0);
  vh = gt_finish(d);
  c = gt_const(g, "init_value", gt_scalar_i32(5), NULL);
  d = TF_NewOperation(g, "AssignVariableOp", "init");
  TF_AddInput(d, gt_out(vh, 0));
  TF_AddInput(d, gt_out(c, 0));
  TF_SetAttrType(d, "dtype", TF_INT32);
  *init = gt_finish(d);
  d = TF_NewOperation(g, "AssignAddVariableOp", "incr");
  TF_AddInput(d, gt_out(vh, 0));
  TF_AddInput(d, gt_out(c, 0));
  TF_SetAttrType(d, "dtype", TF_INT32);
  *incr = gt_finish(d);
  d = TF_NewOperation(g, "ReadVariableOp", "read");
  TF_AddInput(d, gt_out(vh, 0));
  TF_SetAttrType(d, "dtype", TF_INT32);
  read = gt_finish(d);
  return read;
}

TEST(variables_per_session) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation *init, *incr;
  TF_Operation* read = var_ops(g, &init, &incr);
  TF_Session* s1 = gt_session(g);
  TF_Session* s2 = gt_session(g);
  TF_Status* s = TF_NewStatus();
  TF_Operation* ti[1] = {init};
  TF_Operation* tn[1] = {incr};
  TF_Code code;
  TF_Tensor* o;
  TF_SessionRun(s1, NULL, NULL, NULL, 0, NULL, NULL, 0,
                (const TF_Operation* const*)ti, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_SessionRun(s1, NULL, NULL, NULL, 0, NULL, NULL, 0,
                (const TF_Operation* const*)tn, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  o = gt_run1(s1, NULL, NULL, gt_out(read, 0), NULL);
  CHECK_EQ_INT(i32_of(o), 10);
  TF_DeleteTensor(o);
  o = gt_run1(s2, NULL, NULL, gt_out(read, 0), &code);
  CHECK_EQ_INT(code, TF_FAILED_PRECONDITION);
  CHECK(o == NULL);
  gt_close(s2);
  gt_close(s1);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

TEST(close_delete_and_list_devices) {
  small_graph sg;
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  TF_DeviceList* dl;
  TF_Output fetch;
  TF_Tensor* o = NULL;
  make_small(&sg);
  sess = gt_session(sg.g);
  dl = TF_SessionListDevices(sess, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_DeviceListCount(dl) >= 1);
  CHECK_STR_EQ(TF_DeviceListType(dl, 0, s), "CPU");
  TF_DeleteDeviceList(dl);
  TF_CloseSession(sess, s);
  CHECK_CODE(s, TF_OK);
  fetch = gt_out(sg.ten, 0);
  TF_SessionRun(sess, NULL, NULL, NULL, 0, &fetch, &o, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_CANCELLED);
  CHECK(o == NULL);
  TF_CloseSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSession(NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_CloseSession(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_NewSession(NULL, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* the graph outlives a session deleted without closing */
  sess = gt_session(sg.g);
  TF_DeleteSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  TF_DeleteGraph(sg.g);
}

TEST(graph_deleted_before_session) {
  small_graph sg;
  TF_Session* sess;
  TF_Output feed;
  TF_Tensor* v;
  TF_Tensor* o;
  make_small(&sg);
  sess = gt_session(sg.g);
  feed = gt_out(sg.x, 0);
  TF_DeleteGraph(sg.g); /* the session keeps it alive */
  v = gt_scalar_i32(0);
  o = gt_run1(sess, &feed, v, gt_out(sg.b, 0), NULL);
  CHECK_EQ_INT(i32_of(o), 100);
  TF_DeleteTensor(o);
  TF_DeleteTensor(v);
  gt_close(sess);
}

TEST(session_options) {
  small_graph sg;
  TF_Status* s = TF_NewStatus();
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess;
  make_small(&sg);
  /* intra 2, inter 2, soft placement, log placement */
  TF_SetConfig(o, "\x10\x02\x28\x02\x38\x01\x40\x01", 8, s);
  CHECK_CODE(s, TF_OK);
  sess = TF_NewSession(sg.g, o, s);
  CHECK_CODE(s, TF_OK);
  gt_close(sess);
  /* device_count {"CPU": 2}: two CPU devices */
  TF_SetConfig(o, "\x0a\x07\x0a\x03" "CPU\x10\x02", 9, s);
  CHECK_CODE(s, TF_OK);
  sess = TF_NewSession(sg.g, o, s);
  CHECK_CODE(s, TF_OK);
  {
    TF_DeviceList* dl = TF_SessionListDevices(sess, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_DeviceListCount(dl), 2);
    TF_DeleteDeviceList(dl);
  }
  gt_close(sess);
  /* a remote target is not available */
  TF_SetConfig(o, NULL, 0, s);
  TF_SetTarget(o, "grpc://localhost:2222");
  CHECK(TF_NewSession(sg.g, o, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  TF_DeleteSessionOptions(o);
  TF_DeleteStatus(s);
  TF_DeleteGraph(sg.g);
}

TEST(device_requests_and_soft_placement) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* c = gt_const(g, "c", gt_scalar_f32(3.0f), NULL);
  TF_Operation* pinned;
  TF_Operation* cpu1;
  TF_Session* sess;
  TF_Code code;
  TF_Tensor* o;
  TF_Status* s = TF_NewStatus();
  TF_SessionOptions* so = TF_NewSessionOptions();
  {
    TF_OperationDescription* d = TF_NewOperation(g, "Identity", "pinned");
    TF_AddInput(d, gt_out(c, 0));
    TF_SetDevice(d, "/device:CPU:7");
    pinned = gt_finish(d);
  }
  {
    TF_OperationDescription* d = TF_NewOperation(g, "Neg", "on_cpu1");
    TF_AddInput(d, gt_out(c, 0));
    TF_SetDevice(d, "/device:CPU:1");
    cpu1 = gt_finish(d);
  }
  sess = gt_session(g);
  o = gt_run1(sess, NULL, NULL, gt_out(pinned, 0), &code);
  CHECK_EQ_INT(code, TF_INVALID_ARGUMENT);
  gt_close(sess);
  /* two CPUs and soft placement: CPU:7 falls back, CPU:1 exists */
  TF_SetConfig(so, "\x0a\x07\x0a\x03" "CPU\x10\x02\x38\x01", 11, s);
  CHECK_CODE(s, TF_OK);
  sess = TF_NewSession(g, so, s);
  CHECK_CODE(s, TF_OK);
  o = gt_run1(sess, NULL, NULL, gt_out(pinned, 0), NULL);
  CHECK(f32_of(o) == 3.0f);
  TF_DeleteTensor(o);
  o = gt_run1(sess, NULL, NULL, gt_out(cpu1, 0), NULL);
  CHECK(f32_of(o) == -3.0f);
  TF_DeleteTensor(o);
  gt_close(sess);
  TF_DeleteSessionOptions(so);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

TEST(partial_runs) {
  small_graph sg;
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  TF_Output in[1], out[3];
  const char* h = NULL;
  TF_Tensor* v;
  TF_Tensor* o[2] = {NULL, NULL};
  make_small(&sg);
  sess = gt_session(sg.g);
  in[0] = gt_out(sg.x, 0);
  out[0] = gt_out(sg.a, 0);
  out[1] = gt_out(sg.b, 0);
  out[2] = gt_out(sg.c, 0);
  TF_SessionPRunSetup(sess, in, 1, out, 2, NULL, 0, &h, s);
  CHECK_CODE(s, TF_OK);
  CHECK(h != NULL);
  v = gt_scalar_i32(1);
  TF_SessionPRun(sess, h, in, &v, 1, out, o, 1, NULL, 0, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(i32_of(o[0]), 11);
  TF_DeleteTensor(o[0]);
  /* fetched already */
  TF_SessionPRun(sess, h, NULL, NULL, 0, out, o, 1, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* fed already */
  TF_SessionPRun(sess, h, in, &v, 1, out + 1, o, 1, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* not declared */
  TF_SessionPRun(sess, h, NULL, NULL, 0, out + 2, o, 1, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* a later step sees the earlier feed */
  TF_SessionPRun(sess, h, NULL, NULL, 0, out + 1, o, 1, NULL, 0, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(i32_of(o[0]), 121);
  TF_DeleteTensor(o[0]);
  /* every declared fetch was made: the partial run is over */
  TF_SessionPRun(sess, h, NULL, NULL, 0, NULL, NULL, 0, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* bad handle */
  TF_SessionPRun(sess, "nope", NULL, NULL, 0, out + 1, o, 1, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeletePRunHandle(h);
  TF_DeletePRunHandle(NULL);
  TF_DeleteTensor(v);
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(sg.g);
}

TEST(deprecated_session_api) {
  small_graph sg;
  TF_Status* s = TF_NewStatus();
  TF_Buffer* gd = TF_NewBuffer();
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_DeprecatedSession* ds;
  const char* in_names[1] = {"x"};
  const char* out_names[2] = {"b:0", "a"};
  const char* tg_names[1] = {"c"};
  TF_Tensor* inputs[1];
  TF_Tensor* outputs[2] = {NULL, NULL};
  make_small(&sg);
  TF_GraphToGraphDef(sg.g, gd, s);
  CHECK_CODE(s, TF_OK);
  ds = TF_NewDeprecatedSession(o, s);
  CHECK_CODE(s, TF_OK);
  TF_ExtendGraph(ds, gd->data, gd->length, s);
  CHECK_CODE(s, TF_OK);
  inputs[0] = gt_scalar_i32(3);
  TF_Run(ds, NULL, in_names, inputs, 1, out_names, outputs, 2, tg_names, 1,
         NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(i32_of(outputs[0]), 169);
  CHECK_EQ_INT(i32_of(outputs[1]), 13);
  TF_DeleteTensor(outputs[0]);
  TF_DeleteTensor(outputs[1]);
  /* unknown names */
  {
    const char* bad[1] = {"nope:0"};
    TF_Run(ds, NULL, in_names, inputs, 1, bad, outputs, 1, NULL, 0, NULL, s);
    CHECK(TF_GetCode(s) != TF_OK);
    CHECK(outputs[0] == NULL);
  }
  /* partial runs by name */
  {
    const char* h = NULL;
    TF_PRunSetup(ds, in_names, 1, out_names, 2, NULL, 0, &h, s);
    CHECK_CODE(s, TF_OK);
    TF_PRun(ds, h, in_names, inputs, 1, out_names + 1, outputs, 1, NULL, 0,
            s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(i32_of(outputs[0]), 13);
    TF_DeleteTensor(outputs[0]);
    TF_DeletePRunHandle(h);
  }
  {
    TF_DeviceList* dl = TF_DeprecatedSessionListDevices(ds, s);
    CHECK_CODE(s, TF_OK);
    CHECK(TF_DeviceListCount(dl) >= 1);
    TF_DeleteDeviceList(dl);
  }
  TF_Reset(o, NULL, 0, s);
  CHECK_CODE(s, TF_OK);
  TF_CloseDeprecatedSession(ds, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteDeprecatedSession(ds, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteDeprecatedSession(NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(inputs[0]);
  TF_DeleteSessionOptions(o);
  TF_DeleteBuffer(gd);
  TF_DeleteStatus(s);
  TF_DeleteGraph(sg.g);
}

/* Many runs of one session keep memory flat: values are freed after their
 * last consumer and fetched tensors belong to the caller (ASan checks the
 * leaks). */
TEST(many_runs_no_leaks) {
  small_graph sg;
  TF_Session* sess;
  TF_Output feed;
  int i;
  make_small(&sg);
  sess = gt_session(sg.g);
  feed = gt_out(sg.x, 0);
  for (i = 0; i < 2000; i++) {
    TF_Tensor* v = gt_scalar_i32(i);
    TF_Tensor* o = gt_run1(sess, &feed, v, gt_out(sg.b, 0), NULL);
    CHECK_EQ_INT(i32_of(o), (i + 10) * (i + 10));
    TF_DeleteTensor(o);
    TF_DeleteTensor(v);
  }
  gt_close(sess);
  TF_DeleteGraph(sg.g);
}

/* Every allocation of session creation, plan building and a run failing in
 * turn: each attempt fails cleanly (RESOURCE_EXHAUSTED, nothing leaked
 * under ASan, no crash) until one succeeds with the right value. */
TEST(out_of_memory_sweep) {
  small_graph sg;
  TF_Status* s = TF_NewStatus();
  TF_Output feed;
  TF_Output fetch[2];
  int64_t k;
  int done = 0;
  make_small(&sg);
  feed = gt_out(sg.x, 0);
  fetch[0] = gt_out(sg.b, 0);
  fetch[1] = gt_out(sg.c, 0);
  for (k = 0; k < 5000 && !done; k++) {
    TF_SessionOptions* o = TF_NewSessionOptions();
    TF_Tensor* v = gt_scalar_i32(1);
    TF_Tensor* outs[2] = {NULL, NULL};
    TF_Session* sess;
    TFE_TestFailAllocationsAfter(k);
    sess = TF_NewSession(sg.g, o, s);
    if (sess != NULL) {
      TF_SessionRun(sess, NULL, &feed, &v, 1, fetch, outs, 2, NULL, 0, NULL,
                    s);
      if (TF_GetCode(s) == TF_OK) {
        TFE_TestFailAllocationsAfter(-1);
        CHECK_EQ_INT(i32_of(outs[0]), 121);
        CHECK_EQ_INT(i32_of(outs[1]), -1);
        done = 1;
      } else {
        CHECK(outs[0] == NULL && outs[1] == NULL);
      }
    }
    TFE_TestFailAllocationsAfter(-1);
    if (TF_GetCode(s) != TF_OK) {
      CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    }
    if (outs[0] != NULL) TF_DeleteTensor(outs[0]);
    if (outs[1] != NULL) TF_DeleteTensor(outs[1]);
    if (sess != NULL) gt_close(sess);
    TF_DeleteTensor(v);
    TF_DeleteSessionOptions(o);
  }
  CHECK(done);
  TF_DeleteStatus(s);
  TF_DeleteGraph(sg.g);
}

/* A PluggableDevice's kernels run in graphs: with the test device plugin
 * loaded, Mul/Sum go to MY_DEVICE (its kind outranks the CPU), Sum's
 * reduction indices stay in host memory, the CPU-only Neg gets its input
 * copied back, and fetched device values come back to the host. */
TEST(pluggable_device_kernels_in_a_graph) {
  TF_Status* s = TF_NewStatus();
  TF_Library* lib =
      TF_LoadPluggableDeviceLibrary(TFE_TEST_PLUGIN_DIR "/pd_test_device.so", s);
  TF_Graph* g;
  TF_Operation *x, *sq, *axis, *sum, *neg;
  TF_Session* sess;
  TF_DeviceList* dl;
  int i, has_dev = 0;
  CHECK_CODE(s, TF_OK);
  g = TF_NewGraph();
  x = gt_placeholder(g, "x", TF_FLOAT);
  sq = gt_binop(g, "Mul", "sq", gt_out(x, 0), gt_out(x, 0));
  axis = gt_const(g, "axis", gt_scalar_i32(0), NULL);
  sum = gt_binop(g, "Sum", "sum", gt_out(sq, 0), gt_out(axis, 0));
  neg = gt_unop(g, "Neg", "neg", gt_out(sum, 0));
  sess = gt_session(g);
  dl = TF_SessionListDevices(sess, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < TF_DeviceListCount(dl); i++) {
    if (strcmp(TF_DeviceListType(dl, i, s), "MY_DEVICE") == 0) has_dev = 1;
  }
  TF_DeleteDeviceList(dl);
  CHECK(has_dev);
  {
    float xv[3] = {1.0f, 2.0f, 3.0f};
    int64_t dims[1] = {3};
    TF_Tensor* v = TF_AllocateTensor(TF_FLOAT, dims, 1, sizeof(xv));
    TF_Output feed = gt_out(x, 0);
    TF_Output fetch[3] = {gt_out(neg, 0), gt_out(sum, 0), gt_out(sq, 0)};
    TF_Tensor* outs[3] = {NULL, NULL, NULL};
    memcpy(TF_TensorData(v), xv, sizeof(xv));
    TF_SessionRun(sess, NULL, &feed, &v, 1, fetch, outs, 3, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_OK);
    CHECK(f32_of(outs[0]) == -14.0f);
    CHECK(f32_of(outs[1]) == 14.0f);
    CHECK(((float*)TF_TensorData(outs[2]))[2] == 9.0f);
    for (i = 0; i < 3; i++) TF_DeleteTensor(outs[i]);
    TF_DeleteTensor(v);
  }
  gt_close(sess);
  TF_DeleteGraph(g);
  TF_DeleteLibraryHandle(lib);
  TF_DeleteStatus(s);
}

/* An input rewired (TF_UpdateEdge) to an operation created later runs in
 * dependency order; a cycle without loop frames is INVALID_ARGUMENT. */
TEST(rewired_edges_and_cycles) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Operation* a = gt_const(g, "a", gt_scalar_i32(1), NULL);
  TF_Operation* c = gt_unop(g, "Neg", "c", gt_out(a, 0));
  TF_Operation* d = gt_const(g, "d", gt_scalar_i32(5), NULL);
  TF_Operation* x = gt_unop(g, "Identity", "x", gt_out(a, 0));
  TF_Operation* y = gt_unop(g, "Identity", "y", gt_out(x, 0));
  TF_Session* sess;
  TF_Input dst;
  TF_Tensor* o;
  TF_Code code;
  dst.oper = c;
  dst.index = 0;
  TF_UpdateEdge(g, gt_out(d, 0), dst, s);
  CHECK_CODE(s, TF_OK);
  dst.oper = x;
  TF_UpdateEdge(g, gt_out(y, 0), dst, s);
  CHECK_CODE(s, TF_OK);
  sess = gt_session(g);
  o = gt_run1(sess, NULL, NULL, gt_out(c, 0), NULL);
  CHECK_EQ_INT(i32_of(o), -5);
  TF_DeleteTensor(o);
  o = gt_run1(sess, NULL, NULL, gt_out(y, 0), &code);
  CHECK_EQ_INT(code, TF_INVALID_ARGUMENT);
  CHECK(o == NULL);
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

/* A partial run is one execution: a node that two steps need runs once
 * (a variable update both fetches depend on happens once). */
TEST(partial_run_runs_each_node_once) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation *init, *incr;
  TF_Operation* read = var_ops(g, &init, &incr);
  TF_Operation* x = gt_placeholder(g, "px", TF_INT32);
  TF_Operation* y = gt_placeholder(g, "py", TF_INT32);
  TF_Operation* after;
  TF_Operation *fx, *fy;
  TF_Session* sess;
  TF_Status* s = TF_NewStatus();
  const char* h = NULL;
  {
    TF_OperationDescription* d = TF_NewOperation(g, "ReadVariableOp", "after");
    TF_AddInput(d, gt_out(TF_GraphOperationByName(g, "v"), 0));
    TF_SetAttrType(d, "dtype", TF_INT32);
    TF_AddControlInput(d, incr);
    after = gt_finish(d);
  }
  fx = gt_binop(g, "AddV2", "fx", gt_out(after, 0), gt_out(x, 0));
  fy = gt_binop(g, "Mul", "fy", gt_out(after, 0), gt_out(y, 0));
  sess = gt_session(g);
  {
    TF_Operation* ti[1] = {init};
    TF_SessionRun(sess, NULL, NULL, NULL, 0, NULL, NULL, 0,
                  (const TF_Operation* const*)ti, 1, NULL, s);
    CHECK_CODE(s, TF_OK); /* v = 5 */
  }
  {
    TF_Output in[2] = {gt_out(x, 0), gt_out(y, 0)};
    TF_Output out[2] = {gt_out(fx, 0), gt_out(fy, 0)};
    TF_Tensor* vx = gt_scalar_i32(1);
    TF_Tensor* vy = gt_scalar_i32(2);
    TF_Tensor* o = NULL;
    TF_SessionPRunSetup(sess, in, 2, out, 2, NULL, 0, &h, s);
    CHECK_CODE(s, TF_OK);
    /* fy needs py, not fed yet */
    TF_SessionPRun(sess, h, in, &vx, 1, out + 1, &o, 1, NULL, 0, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_SessionPRun(sess, h, NULL, NULL, 0, out, &o, 1, NULL, 0, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(i32_of(o), 10 + 1); /* v was incremented once: 10 */
    TF_DeleteTensor(o);
    TF_SessionPRun(sess, h, in + 1, &vy, 1, out + 1, &o, 1, NULL, 0, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(i32_of(o), 10 * 2);
    TF_DeleteTensor(o);
    TF_DeletePRunHandle(h);
    TF_DeleteTensor(vx);
    TF_DeleteTensor(vy);
    o = gt_run1(sess, NULL, NULL, gt_out(read, 0), NULL);
    CHECK_EQ_INT(i32_of(o), 10);
    TF_DeleteTensor(o);
  }
  gt_close(sess);
  TF_DeleteStatus(s);
  TF_DeleteGraph(g);
}

TFE_TEST_MAIN
