/* The v1 while-loop builder (TF_NewWhile / TF_FinishWhile / TF_AbortWhile):
 * loops built from cond and body graphs run in a session (0, 1 and many
 * iterations, several loop variables, a body that passes a variable
 * through, constants in the cond and body, nested loops), the structure
 * and names TF gives the loop, and TF's errors. Leaks show under ASan. */
#include <stdint.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tfe_test.h"

static TF_Operation* placeholder(TF_Graph* g, const char* name,
                                 TF_DataType dt, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_Operation* op;
  TF_SetAttrType(d, "dtype", dt);
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  return op;
}

static TF_Operation* const_i32(TF_Graph* g, const char* name, int32_t v,
                               TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
  TF_Operation* op;
  *(int32_t*)TF_TensorData(t) = v;
  TF_SetAttrTensor(d, "value", t, s);
  CHECK_CODE(s, TF_OK);
  TF_SetAttrType(d, "dtype", TF_INT32);
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  return op;
}

static TF_Operation* binop(TF_Graph* g, const char* type, const char* name,
                           TF_Output a, TF_Output b, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_Operation* op;
  TF_AddInput(d, a);
  TF_AddInput(d, b);
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  return op;
}

static TF_Output out0(TF_Operation* op) {
  TF_Output o;
  o.oper = op;
  o.index = 0;
  return o;
}

/* TF_WhileParams has const members, so it cannot be assigned: the tests
 * keep each one in heap memory (freed with free_params). */
static TF_WhileParams* new_while(TF_Graph* g, TF_Output* ins, int n,
                                 TF_Status* s) {
  TF_WhileParams tmp = TF_NewWhile(g, ins, n, s);
  TF_WhileParams* p = (TF_WhileParams*)malloc(sizeof(*p));
  CHECK(p != NULL);
  memcpy(p, &tmp, sizeof(*p));
  return p;
}

static void free_params(TF_WhileParams* p) { free(p); }

/* Runs the graph with int32 scalar feeds and fetches. */
static void run_i32(TF_Graph* g, const TF_Output* feeds, const int32_t* vals,
                    int nfeeds, const TF_Output* fetches, int32_t* got,
                    int nfetches, TF_Status* s) {
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, o, s);
  TF_Tensor* in[8];
  TF_Tensor* out[8];
  int i;
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < nfeeds; i++) {
    in[i] = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
    *(int32_t*)TF_TensorData(in[i]) = vals[i];
  }
  for (i = 0; i < nfetches; i++) out[i] = NULL;
  TF_SessionRun(sess, NULL, feeds, in, nfeeds, fetches, out, nfetches, NULL,
                0, NULL, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < nfetches; i++) {
    CHECK(out[i] != NULL);
    CHECK(TF_TensorType(out[i]) == TF_INT32);
    got[i] = *(int32_t*)TF_TensorData(out[i]);
    TF_DeleteTensor(out[i]);
  }
  for (i = 0; i < nfeeds; i++) TF_DeleteTensor(in[i]);
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSessionOptions(o);
}

/* while (i < n) { i = i + 1; x = x * 2; } with i, x fed and n a Const of
 * the cond graph. Returns the Exit outputs in outs[2]. */
static void build_count_loop(TF_Graph* g, TF_Operation* i0, TF_Operation* x0,
                             int32_t n, const char* name, TF_Output* outs,
                             TF_Status* s) {
  TF_Output ins[2];
  TF_WhileParams* p;
  TF_Operation* lim;
  TF_Operation* two;
  ins[0] = out0(i0);
  ins[1] = out0(x0);
  p = new_while(g, ins, 2, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(p->ninputs, 2);
  CHECK(p->cond_graph != NULL && p->body_graph != NULL);
  CHECK_STR_EQ(TF_OperationName(p->cond_inputs[0].oper), "cond_input0");
  CHECK_STR_EQ(TF_OperationName(p->body_inputs[1].oper), "body_input1");
  CHECK_STR_EQ(TF_OperationOpType(p->body_inputs[1].oper), "Placeholder");
  lim = const_i32(p->cond_graph, "limit", n, s);
  p->cond_output =
      out0(binop(p->cond_graph, "Less", "less", p->cond_inputs[0], out0(lim), s));
  {
    TF_Operation* one = const_i32(p->body_graph, "one", 1, s);
    two = const_i32(p->body_graph, "two", 2, s);
    p->body_outputs[0] = out0(
        binop(p->body_graph, "AddV2", "add", p->body_inputs[0], out0(one), s));
    p->body_outputs[1] = out0(
        binop(p->body_graph, "Mul", "mul", p->body_inputs[1], out0(two), s));
  }
  p->name = name;
  TF_FinishWhile(p, s, outs);
  free_params(p);
  CHECK_CODE(s, TF_OK);
}

TEST(loop_runs_zero_one_and_many_iterations) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i0 = placeholder(g, "i", TF_INT32, s);
  TF_Operation* x0 = placeholder(g, "x", TF_INT32, s);
  TF_Output outs[2], feeds[2];
  int32_t vals[2], got[2];
  build_count_loop(g, i0, x0, 5, "test_loop", outs, s);
  CHECK_STR_EQ(TF_OperationOpType(outs[0].oper), "Exit");
  CHECK_STR_EQ(TF_OperationName(outs[0].oper), "test_loop/Exit");
  CHECK_STR_EQ(TF_OperationName(outs[1].oper), "test_loop/Exit_1");
  feeds[0] = out0(i0);
  feeds[1] = out0(x0);
  /* many: i 0 -> 5, x 1 -> 32 */
  vals[0] = 0;
  vals[1] = 1;
  run_i32(g, feeds, vals, 2, outs, got, 2, s);
  CHECK_EQ_INT(got[0], 5);
  CHECK_EQ_INT(got[1], 32);
  /* one */
  vals[0] = 4;
  vals[1] = 3;
  run_i32(g, feeds, vals, 2, outs, got, 2, s);
  CHECK_EQ_INT(got[0], 5);
  CHECK_EQ_INT(got[1], 6);
  /* zero: the inputs come out unchanged */
  vals[0] = 9;
  vals[1] = 3;
  run_i32(g, feeds, vals, 2, outs, got, 2, s);
  CHECK_EQ_INT(got[0], 9);
  CHECK_EQ_INT(got[1], 3);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(loop_structure_names_and_attrs) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i0 = placeholder(g, "i", TF_INT32, s);
  TF_Operation* x0 = placeholder(g, "x", TF_INT32, s);
  TF_Output outs[2];
  TF_Operation* op;
  TF_Operation* merge;
  TF_Operation* ctl[4];
  char frame[64];
  static const char* const names[] = {
      "test_loop/Enter",          "test_loop/Enter_1",
      "test_loop/Merge",          "test_loop/Merge_1",
      "test_loop/cond/limit",     "test_loop/cond/less",
      "test_loop/LoopCond",       "test_loop/Switch",
      "test_loop/Switch_1",       "test_loop/body/one",
      "test_loop/body/two",       "test_loop/body/add",
      "test_loop/body/mul",       "test_loop/NextIteration",
      "test_loop/NextIteration_1", "test_loop/Exit",
      "test_loop/Exit_1"};
  size_t k;
  build_count_loop(g, i0, x0, 5, "test_loop", outs, s);
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    op = TF_GraphOperationByName(g, names[k]);
    if (op == NULL) TFE_FAIL("missing %s", names[k]);
  }
  /* The Placeholders of the scratch graphs are not copied. */
  CHECK(TF_GraphOperationByName(g, "test_loop/cond/cond_input0") == NULL);
  CHECK(TF_GraphOperationByName(g, "test_loop/body/body_input1") == NULL);
  /* Enter carries the frame; not a constant. */
  op = TF_GraphOperationByName(g, "test_loop/Enter_1");
  TF_OperationGetAttrString(op, "frame_name", frame, sizeof frame, s);
  CHECK_CODE(s, TF_OK);
  CHECK(memcmp(frame, "test_loop", 9) == 0);
  {
    unsigned char is_const = 1;
    int64_t par = 0;
    TF_OperationGetAttrBool(op, "is_constant", &is_const, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(is_const, 0);
    TF_OperationGetAttrInt(op, "parallel_iterations", &par, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(par, 10);
  }
  /* Merge: Enter and the NextIteration back edge. */
  merge = TF_GraphOperationByName(g, "test_loop/Merge_1");
  CHECK_EQ_INT(TF_OperationNumInputs(merge), 2);
  {
    TF_Input in;
    TF_Output src;
    in.oper = merge;
    in.index = 0;
    src = TF_OperationInput(in);
    CHECK_STR_EQ(TF_OperationName(src.oper), "test_loop/Enter_1");
    in.index = 1;
    src = TF_OperationInput(in);
    CHECK_STR_EQ(TF_OperationName(src.oper), "test_loop/NextIteration_1");
  }
  /* The cond's Const depends on the first Merge, the body's on the first
   * Switch; ops with inputs do not get the dependency. */
  op = TF_GraphOperationByName(g, "test_loop/cond/limit");
  CHECK_EQ_INT(TF_OperationGetControlInputs(op, ctl, 4), 1);
  CHECK_STR_EQ(TF_OperationName(ctl[0]), "test_loop/Merge");
  op = TF_GraphOperationByName(g, "test_loop/body/two");
  CHECK_EQ_INT(TF_OperationGetControlInputs(op, ctl, 4), 1);
  CHECK_STR_EQ(TF_OperationName(ctl[0]), "test_loop/Switch");
  op = TF_GraphOperationByName(g, "test_loop/body/mul");
  CHECK_EQ_INT(TF_OperationNumControlInputs(op), 0);
  {
    TF_Input in;
    in.oper = op;
    in.index = 0;
    CHECK_STR_EQ(TF_OperationName(TF_OperationInput(in).oper),
                 "test_loop/Switch_1");
    CHECK_EQ_INT(TF_OperationInput(in).index, 1);
  }
  /* A second loop with the same name gets a fresh scope, same frame. */
  build_count_loop(g, i0, x0, 3, "test_loop", outs, s);
  CHECK_STR_EQ(TF_OperationName(outs[0].oper), "test_loop_1/Exit");
  op = TF_GraphOperationByName(g, "test_loop_1/Enter");
  CHECK(op != NULL);
  TF_OperationGetAttrString(op, "frame_name", frame, sizeof frame, s);
  CHECK(memcmp(frame, "test_loop", 9) == 0);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(body_passes_a_variable_through) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i0 = placeholder(g, "i", TF_INT32, s);
  TF_Operation* k0 = placeholder(g, "k", TF_INT32, s);
  TF_Output ins[2], outs[2], feeds[2];
  TF_WhileParams* p;
  int32_t vals[2] = {0, 3}, got[2];
  ins[0] = out0(i0);
  ins[1] = out0(k0);
  p = new_while(g, ins, 2, s);
  CHECK_CODE(s, TF_OK);
  /* while (i < k) i = i + k; k unchanged */
  p->cond_output = out0(
      binop(p->cond_graph, "Less", "less", p->cond_inputs[0], p->cond_inputs[1],
            s));
  p->body_outputs[0] = out0(binop(p->body_graph, "AddV2", "add",
                                 p->body_inputs[0], p->body_inputs[1], s));
  p->body_outputs[1] = p->body_inputs[1];
  p->name = "pass";
  TF_FinishWhile(p, s, outs);
  free_params(p);
  CHECK_CODE(s, TF_OK);
  feeds[0] = out0(i0);
  feeds[1] = out0(k0);
  vals[0] = 1;
  vals[1] = 4;
  run_i32(g, feeds, vals, 2, outs, got, 2, s);
  CHECK_EQ_INT(got[0], 5);
  CHECK_EQ_INT(got[1], 4);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(nested_loops) {
  /* for (i = 0; i < 3; i++) { j = 0; while (j < 4) { j++; acc++; } }: the
   * inner loop is built in the outer body graph and copied with it. */
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i0 = const_i32(g, "i0", 0, s);
  TF_Operation* a0 = placeholder(g, "acc", TF_INT32, s);
  TF_Output ins[2], outs[2], feed;
  TF_WhileParams* p;
  TF_WhileParams* q;
  int32_t val = 10, got[2];
  ins[0] = out0(i0);
  ins[1] = out0(a0);
  p = new_while(g, ins, 2, s);
  CHECK_CODE(s, TF_OK);
  p->cond_output = out0(binop(p->cond_graph, "Less", "less", p->cond_inputs[0],
                             out0(const_i32(p->cond_graph, "three", 3, s)),
                             s));
  {
    TF_Graph* bg = p->body_graph;
    TF_Output inner_in[2], inner_out[2];
    TF_Operation* one = const_i32(bg, "one", 1, s);
    /* Inner loop over (j, acc). */
    inner_in[0] = out0(const_i32(bg, "j0", 0, s));
    inner_in[1] = p->body_inputs[1];
    q = new_while(bg, inner_in, 2, s);
    CHECK_CODE(s, TF_OK);
    q->cond_output = out0(binop(q->cond_graph, "Less", "less",
                               q->cond_inputs[0],
                               out0(const_i32(q->cond_graph, "four", 4, s)),
                               s));
    {
      TF_Operation* one_in = const_i32(q->body_graph, "one", 1, s);
      q->body_outputs[0] = out0(binop(q->body_graph, "AddV2", "j1",
                                     q->body_inputs[0], out0(one_in), s));
      q->body_outputs[1] = out0(binop(q->body_graph, "AddV2", "acc1",
                                     q->body_inputs[1], out0(one_in), s));
    }
    q->name = "inner";
    TF_FinishWhile(q, s, inner_out);
    free_params(q);
    CHECK_CODE(s, TF_OK);
    p->body_outputs[0] =
        out0(binop(bg, "AddV2", "i1", p->body_inputs[0], out0(one), s));
    p->body_outputs[1] = inner_out[1];
  }
  p->name = "outer";
  TF_FinishWhile(p, s, outs);
  free_params(p);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_GraphOperationByName(g, "outer/body/inner/Exit_1") != NULL);
  feed = out0(a0);
  run_i32(g, &feed, &val, 1, outs, got, 2, s);
  CHECK_EQ_INT(got[0], 3);
  CHECK_EQ_INT(got[1], 10 + 12);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(errors_and_cleanup) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i0 = placeholder(g, "i", TF_INT32, s);
  TF_Output in = out0(i0), out;
  TF_WhileParams* p;
  int before;
  /* No inputs. */
  p = new_while(g, &in, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "TF_NewWhile() must be passed at least one input");
  CHECK(p->cond_graph == NULL && p->body_graph == NULL);
  /* Params not from TF_NewWhile. */
  TF_FinishWhile(p, s, &out);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "TF_WhileParams must be created by successful TF_NewWhile() "
               "call");
  TF_AbortWhile(p); /* nothing to free */
  free_params(p);
  TF_AbortWhile(NULL);
  /* cond_output missing (the params are freed anyway). */
  p = new_while(g, &in, 1, s);
  CHECK_CODE(s, TF_OK);
  TF_FinishWhile(p, s, &out);
  free_params(p);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "TF_WhileParams `cond_output` field isn't set");
  /* body output missing. */
  p = new_while(g, &in, 1, s);
  p->cond_output = out0(binop(p->cond_graph, "Less", "less", p->cond_inputs[0],
                             out0(const_i32(p->cond_graph, "c", 1, s)), s));
  TF_FinishWhile(p, s, &out);
  free_params(p);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "TF_WhileParams `body_outputs[0]` field isn't set");
  /* name missing. */
  p = new_while(g, &in, 1, s);
  p->cond_output = out0(binop(p->cond_graph, "Less", "less", p->cond_inputs[0],
                             out0(const_i32(p->cond_graph, "c", 1, s)), s));
  p->body_outputs[0] = p->body_inputs[0];
  TF_FinishWhile(p, s, &out);
  free_params(p);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "TF_WhileParams `name` field is null");
  /* A cond that is not boolean; the parent graph is left as it was. */
  before = 0;
  {
    size_t pos = 0;
    while (TF_GraphNextOperation(g, &pos) != NULL) before++;
  }
  p = new_while(g, &in, 1, s);
  p->cond_output = out0(binop(p->cond_graph, "AddV2", "add", p->cond_inputs[0],
                             out0(const_i32(p->cond_graph, "c", 1, s)), s));
  p->body_outputs[0] = p->body_inputs[0];
  p->name = "bad";
  TF_FinishWhile(p, s, &out);
  free_params(p);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "BuildWhileLoop: 'cond' argument must return a boolean "
               "output, got int32");
  {
    size_t pos = 0;
    int after = 0;
    while (TF_GraphNextOperation(g, &pos) != NULL) after++;
    CHECK_EQ_INT(after, before);
  }
  CHECK(TF_GraphOperationByName(g, "bad/Enter") == NULL);
  /* A cond output from another graph. */
  p = new_while(g, &in, 1, s);
  p->cond_output = p->body_inputs[0];
  p->body_outputs[0] = p->body_inputs[0];
  p->name = "other";
  TF_FinishWhile(p, s, &out);
  free_params(p);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* Abort frees the scratch graphs. */
  p = new_while(g, &in, 1, s);
  CHECK_CODE(s, TF_OK);
  (void)placeholder(p->body_graph, "extra", TF_FLOAT, s);
  TF_AbortWhile(p);
  free_params(p);
  /* NULL arguments. */
  p = new_while(NULL, &in, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  free_params(p);
  p = new_while(g, NULL, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  free_params(p);
  TF_FinishWhile(NULL, s, &out);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
