/* TF_AddGradients through function calls and control flow (grad_func.c,
 * csrc/graph/gradients.c), against values recorded from TF 2.21
 * (tools/record_grad_func.py -> tests/data/grad_func_tf221.h):
 * PartitionedCall and StatefulPartitionedCall (TF's C API differentiates
 * them), a call by the function's name, StatelessIf and StatelessWhile
 * (TF's C API refuses those with NOT_FOUND; tfe differentiates them, and
 * the values are TF's Python gradients of the same math), TF1 loops built
 * with TF_NewWhile (TF 2.21 builds a gradient that fails when run or
 * aborts; tfe says UNIMPLEMENTED), Switch/Merge (NOT_FOUND in both), a
 * graph call of a function drawing a random value (the gradient uses the
 * call's draw), and an eager tape through a call and an If. */
#include <math.h>
#include <string.h>

#include "../data/grad_func_tf221.h"
#include "graph_test_util.h"
#include "tensorflow/c/eager/c_api.h"
#include "tfe/gradients.h"

static const double kX[3] = {0.5, 1.0, 2.0};

static TF_Tensor* dvec(const double* v, int64_t n) {
  TF_Tensor* t = TF_AllocateTensor(TF_DOUBLE, &n, 1, (size_t)n * sizeof(double));
  memcpy(TF_TensorData(t), v, (size_t)n * sizeof(double));
  return t;
}

static TF_Operation* dconst(TF_Graph* g, const char* name, double v) {
  TF_Tensor* t = TF_AllocateTensor(TF_DOUBLE, NULL, 0, sizeof(double));
  *(double*)TF_TensorData(t) = v;
  return gt_const(g, name, t, NULL);
}

static TF_Operation* iconst(TF_Graph* g, const char* name, int32_t v) {
  return gt_const(g, name, gt_scalar_i32(v), NULL);
}

/* Function `name` from a graph with inputs in[0..nin) and outputs. */
static TF_Function* to_fn(TF_Graph* g, const char* name, TF_Output* in, int nin, TF_Output* out,
                          int nout) {
  TF_Status* s = TF_NewStatus();
  TF_Function* f =
      TF_GraphToFunction(g, name, 0, -1, NULL, nin, in, nout, out, NULL, NULL, NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return f;
}

/* sq_sin(x) = x * x + sin(x) */
static TF_Function* fn_sq_sin(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_DOUBLE);
  TF_Operation* m = gt_binop(g, "Mul", "m", gt_out(x, 0), gt_out(x, 0));
  TF_Operation* si = gt_unop(g, "Sin", "si", gt_out(x, 0));
  TF_Output in = gt_out(x, 0), out = gt_out(gt_binop(g, "AddV2", "y", gt_out(m, 0),
                                                     gt_out(si, 0)), 0);
  return to_fn(g, "sq_sin", &in, 1, &out, 1);
}

/* neg3(x) = x * -3 */
static TF_Function* fn_neg3(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_DOUBLE);
  TF_Operation* c = dconst(g, "c", -3.0);
  TF_Output in = gt_out(x, 0), out = gt_out(gt_binop(g, "Mul", "y", gt_out(x, 0),
                                                     gt_out(c, 0)), 0);
  return to_fn(g, "neg3", &in, 1, &out, 1);
}

/* two_in(x, y) = (x * y, exp(x)) */
static TF_Function* fn_two_in(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_DOUBLE);
  TF_Operation* y = gt_placeholder(g, "y", TF_DOUBLE);
  TF_Output in[2] = {gt_out(x, 0), gt_out(y, 0)};
  TF_Output out[2] = {gt_out(gt_binop(g, "Mul", "xy", in[0], in[1]), 0),
                      gt_out(gt_unop(g, "Exp", "ex", in[0]), 0)};
  return to_fn(g, "two_in", in, 2, out, 2);
}

/* cond_lt3(i, x) = i < 3; body_sq(i, x) = (i + 1, x * x) */
static TF_Function* fn_cond_lt3(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i = gt_placeholder(g, "i", TF_INT32);
  TF_Operation* x = gt_placeholder(g, "x", TF_DOUBLE);
  TF_Output in[2] = {gt_out(i, 0), gt_out(x, 0)};
  TF_Output out = gt_out(gt_binop(g, "Less", "lt", in[0], gt_out(iconst(g, "three", 3), 0)), 0);
  return to_fn(g, "cond_lt3", in, 2, &out, 1);
}

static TF_Function* fn_body_sq(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i = gt_placeholder(g, "i", TF_INT32);
  TF_Operation* x = gt_placeholder(g, "x", TF_DOUBLE);
  TF_Output in[2] = {gt_out(i, 0), gt_out(x, 0)};
  TF_Output out[2] = {
      gt_out(gt_binop(g, "AddV2", "i1", in[0], gt_out(iconst(g, "one", 1), 0)), 0),
      gt_out(gt_binop(g, "Mul", "xx", in[1], in[1]), 0)};
  return to_fn(g, "body_sq", in, 2, out, 2);
}

/* noisy(x) = x * RandomUniform(shape(x)) */
static TF_Function* fn_noisy(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_DOUBLE);
  TF_Operation* sh = gt_unop(g, "Shape", "sh", gt_out(x, 0));
  TF_OperationDescription* d = TF_NewOperation(g, "RandomUniform", "r");
  TF_Operation* r;
  TF_Output in = gt_out(x, 0), out;
  TF_AddInput(d, gt_out(sh, 0));
  TF_SetAttrType(d, "dtype", TF_DOUBLE);
  r = gt_finish(d);
  out = gt_out(gt_binop(g, "Mul", "y", in, gt_out(r, 0)), 0);
  return to_fn(g, "noisy", &in, 1, &out, 1);
}

static void add_fn(TF_Graph* g, TF_Function* f) {
  TF_Status* s = TF_NewStatus();
  TF_GraphCopyFunction(g, f, NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteFunction(f);
  TF_DeleteStatus(s);
}

static void check_values(const TF_Tensor* t, const double* want, int n) {
  int i;
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_TensorType(t), TF_DOUBLE);
  CHECK_EQ_INT(TF_TensorElementCount(t), n);
  for (i = 0; i < n; i++) {
    double got = ((const double*)TF_TensorData(t))[i];
    if (fabs(got - want[i]) > 1e-9 * (1 + fabs(want[i]))) {
      TFE_FAIL("element %d: %.12g, TF %.12g", i, got, want[i]);
    }
  }
}

/* d y / d x fed kX (and `p` when not NULL), compared with want. */
static void grad_and_check(TF_Graph* g, TF_Output y, TF_Operation* x, TF_Operation* p, int pv,
                           const double* want) {
  TF_Status* s = TF_NewStatus();
  TF_Output xo = gt_out(x, 0), dy, feeds[2];
  TF_Tensor *vals[2], *out = NULL;
  TF_Session* sess;
  int nf = 1;
  TF_AddGradients(g, &y, 1, &xo, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_OK);
  CHECK(dy.oper != NULL);
  sess = gt_session(g);
  feeds[0] = xo;
  vals[0] = dvec(kX, 3);
  if (p != NULL) {
    feeds[nf] = gt_out(p, 0);
    vals[nf++] = gt_scalar_bool(pv);
  }
  TF_SessionRun(sess, NULL, feeds, vals, nf, &dy, &out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  check_values(out, want, 3);
  TF_DeleteTensor(out);
  while (nf > 0) TF_DeleteTensor(vals[--nf]);
  gt_close(sess);
  TF_DeleteStatus(s);
}

static TF_Operation* call_op(TF_Graph* g, const char* type, const char* fname, TF_Output* in,
                             int n, int nout) {
  TF_OperationDescription* d = TF_NewOperation(g, type, "call");
  TF_DataType tin[4] = {TF_DOUBLE, TF_DOUBLE, TF_DOUBLE, TF_DOUBLE};
  if (strcmp(type, fname) == 0) {
    int i;
    for (i = 0; i < n; i++) TF_AddInput(d, in[i]);
  } else {
    TF_AddInputList(d, in, n);
    TF_SetAttrTypeList(d, "Tin", tin, n);
    TF_SetAttrTypeList(d, "Tout", tin, nout);
    TF_SetAttrFuncName(d, "f", fname, strlen(fname));
  }
  return gt_finish(d);
}

static void check_call(const char* type) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation *x, *c;
  TF_Output xo;
  add_fn(g, fn_sq_sin());
  x = gt_placeholder(g, "x", TF_DOUBLE);
  xo = gt_out(x, 0);
  c = call_op(g, type, "sq_sin", &xo, 1, 1);
  grad_and_check(g, gt_out(c, 0), x, NULL, 0, kTF_PARTITIONED_CALL);
  TF_DeleteGraph(g);
}

TEST(partitioned_call) {
  CHECK_EQ_INT(TF_PARTITIONED_CALL_CODE, TF_OK);
  check_call("PartitionedCall");
}

TEST(stateful_partitioned_call) {
  CHECK_EQ_INT(TF_STATEFUL_PARTITIONED_CALL_CODE, TF_OK);
  check_call("StatefulPartitionedCall");
}

/* TF's C API has no gradient for an op named after a function (NOT_FOUND);
 * tfe differentiates it like PartitionedCall. */
TEST(call_by_function_name) {
  CHECK_EQ_INT(TF_CALL_BY_NAME_CODE, TF_NOT_FOUND);
  check_call("sq_sin");
}

TEST(call_two_outputs_one_used) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Operation *x, *y, *c;
  TF_Output in[2], out, dy[2];
  TF_Tensor *vals[2], *res[2] = {NULL, NULL};
  TF_Session* sess;
  static const double kY[3] = {3.0, -1.0, 0.25};
  int k;
  add_fn(g, fn_two_in());
  x = gt_placeholder(g, "x", TF_DOUBLE);
  y = gt_placeholder(g, "y", TF_DOUBLE);
  in[0] = gt_out(x, 0);
  in[1] = gt_out(y, 0);
  for (k = 0; k < 2; k++) {
    /* PartitionedCall, then a call by name (in a second graph). */
    if (k == 1) {
      TF_DeleteGraph(g);
      g = TF_NewGraph();
      add_fn(g, fn_two_in());
      x = gt_placeholder(g, "x", TF_DOUBLE);
      y = gt_placeholder(g, "y", TF_DOUBLE);
      in[0] = gt_out(x, 0);
      in[1] = gt_out(y, 0);
    }
    c = call_op(g, k == 0 ? "PartitionedCall" : "two_in", "two_in", in, 2, 2);
    out = gt_out(c, 0);
    TF_AddGradients(g, &out, 1, in, 2, NULL, s, dy);
    CHECK_CODE(s, TF_OK);
    sess = gt_session(g);
    vals[0] = dvec(kX, 3);
    vals[1] = dvec(kY, 3);
    TF_SessionRun(sess, NULL, in, vals, 2, dy, res, 2, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_OK);
    check_values(res[0], kTF_CALL_TWO_OUTPUTS, 3);
    check_values(res[1], kTF_CALL_TWO_OUTPUTS + 3, 3);
    TF_DeleteTensor(res[0]);
    TF_DeleteTensor(res[1]);
    TF_DeleteTensor(vals[0]);
    TF_DeleteTensor(vals[1]);
    gt_close(sess);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

static void check_if(int pred, const double* want) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation *x, *p, *c;
  TF_OperationDescription* d;
  TF_Output xo;
  TF_DataType tin = TF_DOUBLE;
  add_fn(g, fn_sq_sin());
  add_fn(g, fn_neg3());
  x = gt_placeholder(g, "x", TF_DOUBLE);
  p = gt_placeholder(g, "p", TF_BOOL);
  xo = gt_out(x, 0);
  d = TF_NewOperation(g, "StatelessIf", "if");
  TF_AddInput(d, gt_out(p, 0));
  TF_AddInputList(d, &xo, 1);
  TF_SetAttrTypeList(d, "Tin", &tin, 1);
  TF_SetAttrTypeList(d, "Tout", &tin, 1);
  TF_SetAttrFuncName(d, "then_branch", "sq_sin", 6);
  TF_SetAttrFuncName(d, "else_branch", "neg3", 4);
  c = gt_finish(d);
  grad_and_check(g, gt_out(c, 0), x, p, pred, want);
  TF_DeleteGraph(g);
}

/* TF's C API: NOT_FOUND for StatelessIf; the values are TF's Python
 * gradients of the same cond. */
TEST(stateless_if) {
  CHECK_EQ_INT(TF_IF_TRUE_CODE, TF_NOT_FOUND);
  check_if(1, kTFPY_IF_TRUE);
  check_if(0, kTFPY_IF_FALSE);
}

/* StatelessCase over the same two branches (branch 0 = then, 1 = else):
 * the If's TF values. */
static void check_case(int32_t index, const double* want) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Operation *x, *idx, *c;
  TF_OperationDescription* d;
  TF_Output xo, dy;
  TF_DataType tin = TF_DOUBLE;
  TF_Session* sess;
  TF_Tensor *val, *out = NULL;
  /* AttrValue{list{func{name:"sq_sin"} func{name:"neg3"}}} */
  static const unsigned char kBranches[] = {0x0a, 0x12, 0x4a, 0x08, 0x0a, 0x06, 's', 'q', '_',
                                            's',  'i',  'n',  0x4a, 0x06, 0x0a, 0x04, 'n', 'e',
                                            'g',  '3'};
  add_fn(g, fn_sq_sin());
  add_fn(g, fn_neg3());
  x = gt_placeholder(g, "x", TF_DOUBLE);
  idx = iconst(g, "idx", index);
  xo = gt_out(x, 0);
  d = TF_NewOperation(g, "StatelessCase", "case");
  TF_AddInput(d, gt_out(idx, 0));
  TF_AddInputList(d, &xo, 1);
  TF_SetAttrTypeList(d, "Tin", &tin, 1);
  TF_SetAttrTypeList(d, "Tout", &tin, 1);
  TF_SetAttrValueProto(d, "branches", kBranches, sizeof kBranches, s);
  CHECK_CODE(s, TF_OK);
  c = gt_finish(d);
  {
    TF_Output co = gt_out(c, 0);
    TF_AddGradients(g, &co, 1, &xo, 1, NULL, s, &dy);
  }
  CHECK_CODE(s, TF_OK);
  sess = gt_session(g);
  val = dvec(kX, 3);
  TF_SessionRun(sess, NULL, &xo, &val, 1, &dy, &out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  check_values(out, want, 3);
  TF_DeleteTensor(out);
  TF_DeleteTensor(val);
  gt_close(sess);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(stateless_case) {
  check_case(0, kTFPY_IF_TRUE);
  check_case(1, kTFPY_IF_FALSE);
  check_case(7, kTFPY_IF_FALSE); /* out of range: the last branch, as TF */
}

TEST(stateless_while) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation *x, *i0, *w;
  TF_OperationDescription* d;
  TF_Output in[2];
  TF_DataType T[2] = {TF_INT32, TF_DOUBLE};
  CHECK_EQ_INT(TF_FUNCTIONAL_WHILE_CODE, TF_NOT_FOUND);
  add_fn(g, fn_cond_lt3());
  add_fn(g, fn_body_sq());
  x = gt_placeholder(g, "x", TF_DOUBLE);
  i0 = iconst(g, "i0", 0);
  in[0] = gt_out(i0, 0);
  in[1] = gt_out(x, 0);
  d = TF_NewOperation(g, "StatelessWhile", "while");
  TF_AddInputList(d, in, 2);
  TF_SetAttrTypeList(d, "T", T, 2);
  TF_SetAttrFuncName(d, "cond", "cond_lt3", 8);
  TF_SetAttrFuncName(d, "body", "body_sq", 7);
  w = gt_finish(d);
  grad_and_check(g, gt_out(w, 1), x, NULL, 0, kTFPY_FUNCTIONAL_WHILE);
  TF_DeleteGraph(g);
}

/* TF_NewWhile loops: TF 2.21 aborts or builds a gradient that fails when
 * run; tfe reports UNIMPLEMENTED naming the Exit node. */
TEST(v1_while_unimplemented) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Operation *x, *i0;
  TF_Output ins[2], outs[2], dy;
#ifdef TF_V1_WHILE_LINEAR_CRASH
  CHECK_EQ_INT(TF_V1_WHILE_LINEAR_CRASH, 1);
#endif
  x = gt_placeholder(g, "x", TF_DOUBLE);
  i0 = iconst(g, "i0", 0);
  ins[0] = gt_out(i0, 0);
  ins[1] = gt_out(x, 0);
  TF_WhileParams p = TF_NewWhile(g, ins, 2, s);
  CHECK_CODE(s, TF_OK);
  p.cond_output = gt_out(gt_binop(p.cond_graph, "Less", "lt", p.cond_inputs[0],
                                  gt_out(iconst(p.cond_graph, "three", 3), 0)),
                         0);
  p.body_outputs[0] = gt_out(gt_binop(p.body_graph, "AddV2", "i1", p.body_inputs[0],
                                      gt_out(iconst(p.body_graph, "one", 1), 0)),
                             0);
  p.body_outputs[1] = gt_out(gt_binop(p.body_graph, "Mul", "x2", p.body_inputs[1],
                                      gt_out(dconst(p.body_graph, "two", 2.0), 0)),
                             0);
  p.name = "loop";
  TF_FinishWhile(&p, s, outs);
  CHECK_CODE(s, TF_OK);
  TF_AddGradients(g, &outs[1], 1, &ins[1], 1, NULL, s, &dy);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK(strstr(TF_Message(s), "TF1 while loop") != NULL);
  CHECK(strstr(TF_Message(s), "Exit") != NULL);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* Switch/Merge (a TF1 cond): no gradient, NOT_FOUND as in TF. */
TEST(switch_merge_not_found) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Operation *x, *p, *sw, *a, *b, *m;
  TF_OperationDescription* d;
  TF_Output xo, mo, dy, in[2];
  x = gt_placeholder(g, "x", TF_DOUBLE);
  p = gt_placeholder(g, "p", TF_BOOL);
  sw = gt_binop(g, "Switch", "sw", gt_out(x, 0), gt_out(p, 0));
  a = gt_binop(g, "Mul", "a", gt_out(sw, 1), gt_out(sw, 1));
  b = gt_unop(g, "Neg", "b", gt_out(sw, 0));
  in[0] = gt_out(b, 0);
  in[1] = gt_out(a, 0);
  d = TF_NewOperation(g, "Merge", "m");
  TF_AddInputList(d, in, 2);
  m = gt_finish(d);
  xo = gt_out(x, 0);
  mo = gt_out(m, 0);
  TF_AddGradients(g, &mo, 1, &xo, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK(strncmp(TF_Message(s), "No gradient defined for op: Merge", 33) == 0);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* A function whose gradient would run its random op again. */
TEST(stateful_body_graph_call_uses_the_forward_draw) {
  /* The call is rewritten to also return the draw its gradient reads
   * (grad_func.c call_forward_gradient): y = x * r and dy/dx = r come from
   * one draw, y / x. */
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Operation *x, *c;
  TF_Output xo, co, dy, fetch[2];
  TF_Session* sess;
  TF_Tensor *in, *outs[2] = {NULL, NULL};
  int i;
  add_fn(g, fn_noisy());
  x = gt_placeholder(g, "x", TF_DOUBLE);
  xo = gt_out(x, 0);
  c = call_op(g, "PartitionedCall", "noisy", &xo, 1, 1);
  co = gt_out(c, 0);
  TF_AddGradients(g, &co, 1, &xo, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_OK);
  sess = gt_session(g);
  in = dvec(kX, 3);
  fetch[0] = co;
  fetch[1] = dy;
  TF_SessionRun(sess, NULL, &xo, &in, 1, fetch, outs, 2, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 3; i++) {
    double yv = ((const double*)TF_TensorData(outs[0]))[i];
    double gv = ((const double*)TF_TensorData(outs[1]))[i];
    CHECK(gv >= 0.0 && gv < 1.0);
    CHECK(fabs(gv - yv / kX[i]) < 1e-12);
  }
  TF_DeleteTensor(outs[0]);
  TF_DeleteTensor(outs[1]);
  TF_DeleteTensor(in);
  gt_close(sess);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

static TF_Operation* ivec_const(TF_Graph* g, const char* name, const int32_t* v, int64_t n) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, &n, 1, (size_t)n * sizeof(int32_t));
  memcpy(TF_TensorData(t), v, (size_t)n * sizeof(int32_t));
  return gt_const(g, name, t, NULL);
}

/* TF_AddGradients through TensorList and Optional ops: the programs
 * "get_item", "push_back" and "optional" of tests/python/grad_func_programs.py,
 * whose TF 2.21 gradients are in tests/data/gradients_function_tf221.json. */
TEST(tensor_list_and_optional_graph_gradients) {
  static const double kXv[6] = {0.5, -1.0, 1.5, 2.0, 0.25, -0.75};
  static const double kA[2] = {0.3, -0.4}, kB[2] = {1.1, 0.2}, kW0[2] = {1.0, -2.0};
  static const double kWantGetItem[6] = {0.0, 0.0, 3.0, -8.0, 0.0, 0.0};
  static const double kWantOptA[2] = {3.6041660239464335, 0.4214027581601698};
  static const double kWantOptB[2] = {0.90124980718393, -0.488561103264068};
  static const int32_t kEs[1] = {2}, kAxis[1] = {0};
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation *x, *es, *fl, *it, *w0, *loss, *axis, *a, *b, *eb, *opt, *gv;
  TF_OperationDescription* d;
  TF_Output xo, lo, dy[2], ins[2];
  TF_Session* sess;
  TF_Tensor *val, *out = NULL, *vals[2], *outs[2] = {NULL, NULL};
  int64_t dims2[2] = {3, 2}, n2 = 2;
  TF_DataType types[2] = {TF_DOUBLE, TF_DOUBLE};
  const int64_t* shapes[2] = {NULL, NULL};
  int nd[2] = {-1, -1};
  /* loss = sum(GetItem(FromTensor(x), 1)^2 * w0) */
  x = gt_placeholder(g, "x", TF_DOUBLE);
  es = ivec_const(g, "es", kEs, 1);
  d = TF_NewOperation(g, "TensorListFromTensor", "from");
  TF_AddInput(d, gt_out(x, 0));
  TF_AddInput(d, gt_out(es, 0));
  TF_SetAttrType(d, "element_dtype", TF_DOUBLE);
  TF_SetAttrType(d, "shape_type", TF_INT32);
  fl = gt_finish(d);
  d = TF_NewOperation(g, "TensorListGetItem", "get");
  TF_AddInput(d, gt_out(fl, 0));
  TF_AddInput(d, gt_out(iconst(g, "one", 1), 0));
  TF_AddInput(d, gt_out(es, 0));
  TF_SetAttrType(d, "element_dtype", TF_DOUBLE);
  it = gt_finish(d);
  {
    TF_Tensor* wt = TF_AllocateTensor(TF_DOUBLE, &n2, 1, sizeof kW0);
    memcpy(TF_TensorData(wt), kW0, sizeof kW0);
    w0 = gt_const(g, "w0", wt, NULL);
  }
  axis = ivec_const(g, "axis", kAxis, 1);
  loss = gt_binop(g, "Sum", "loss",
                  gt_out(gt_binop(g, "Mul", "m2",
                                  gt_out(gt_binop(g, "Mul", "sq", gt_out(it, 0), gt_out(it, 0)), 0),
                                  gt_out(w0, 0)),
                         0),
                  gt_out(axis, 0));
  xo = gt_out(x, 0);
  lo = gt_out(loss, 0);
  TF_AddGradients(g, &lo, 1, &xo, 1, NULL, s, dy);
  CHECK_CODE(s, TF_OK);
  sess = gt_session(g);
  val = TF_AllocateTensor(TF_DOUBLE, dims2, 2, sizeof kXv);
  memcpy(TF_TensorData(val), kXv, sizeof kXv);
  TF_SessionRun(sess, NULL, &xo, &val, 1, dy, &out, 1, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  check_values(out, kWantGetItem, 6);
  TF_DeleteTensor(out);
  TF_DeleteTensor(val);
  gt_close(sess);
  TF_DeleteGraph(g);

  /* loss = sum(ra * ra) + sum(rb * ra), (ra, rb) = GetValue(FromValue(a, exp(b))) */
  g = TF_NewGraph();
  a = gt_placeholder(g, "a", TF_DOUBLE);
  b = gt_placeholder(g, "b", TF_DOUBLE);
  eb = gt_unop(g, "Exp", "eb", gt_out(b, 0));
  ins[0] = gt_out(a, 0);
  ins[1] = gt_out(eb, 0);
  d = TF_NewOperation(g, "OptionalFromValue", "opt");
  TF_AddInputList(d, ins, 2);
  opt = gt_finish(d);
  d = TF_NewOperation(g, "OptionalGetValue", "get");
  TF_AddInput(d, gt_out(opt, 0));
  TF_SetAttrTypeList(d, "output_types", types, 2);
  TF_SetAttrShapeList(d, "output_shapes", shapes, nd, 2);
  gv = gt_finish(d);
  axis = ivec_const(g, "axis", kAxis, 1);
  loss = gt_binop(
      g, "AddV2", "loss",
      gt_out(gt_binop(g, "Sum", "s1",
                      gt_out(gt_binop(g, "Mul", "aa", gt_out(gv, 0), gt_out(gv, 0)), 0),
                      gt_out(axis, 0)),
             0),
      gt_out(gt_binop(g, "Sum", "s2",
                      gt_out(gt_binop(g, "Mul", "ba", gt_out(gv, 1), gt_out(gv, 0)), 0),
                      gt_out(axis, 0)),
             0));
  lo = gt_out(loss, 0);
  ins[0] = gt_out(a, 0);
  ins[1] = gt_out(b, 0);
  TF_AddGradients(g, &lo, 1, ins, 2, NULL, s, dy);
  CHECK_CODE(s, TF_OK);
  sess = gt_session(g);
  vals[0] = dvec(kA, 2);
  vals[1] = dvec(kB, 2);
  TF_SessionRun(sess, NULL, ins, vals, 2, dy, outs, 2, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  check_values(outs[0], kWantOptA, 2);
  check_values(outs[1], kWantOptB, 2);
  TF_DeleteTensor(outs[0]);
  TF_DeleteTensor(outs[1]);
  TF_DeleteTensor(vals[0]);
  TF_DeleteTensor(vals[1]);
  gt_close(sess);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* The eager tape through a call of a context function and an If op. */
TEST(eager_tape_call_and_if) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  TF_Function *f = fn_sq_sin(), *f2 = fn_neg3();
  TFE_TensorHandle *x, *y, *gr, *p;
  TFE_GradientTape* tape;
  TFE_Op* op;
  TF_Tensor* t;
  int n = 1, k;
  TF_DataType tin = TF_DOUBLE;
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  TFE_ContextAddFunction(ctx, f, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextAddFunction(ctx, f2, s);
  CHECK_CODE(s, TF_OK);
  t = dvec(kX, 3);
  x = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  for (k = 0; k < 3; k++) {
    tape = TFE_NewGradientTape(ctx, 0, s);
    CHECK_CODE(s, TF_OK);
    TFE_GradientTapeWatch(tape, x, s);
    CHECK_CODE(s, TF_OK);
    if (k == 0) {
      op = TFE_NewOp(ctx, "sq_sin", s);
      CHECK_CODE(s, TF_OK);
      TFE_OpAddInput(op, x, s);
    } else {
      t = gt_scalar_bool(k == 1);
      p = TFE_NewTensorHandle(t, s);
      TF_DeleteTensor(t);
      op = TFE_NewOp(ctx, "If", s);
      CHECK_CODE(s, TF_OK);
      TFE_OpAddInput(op, p, s);
      TFE_OpAddInputList(op, &x, 1, s);
      TFE_OpSetAttrTypeList(op, "Tin", &tin, 1);
      TFE_OpSetAttrTypeList(op, "Tout", &tin, 1);
      TFE_OpSetAttrFunctionName(op, "then_branch", "sq_sin", 6);
      TFE_OpSetAttrFunctionName(op, "else_branch", "neg3", 4);
      TFE_DeleteTensorHandle(p);
    }
    CHECK_CODE(s, TF_OK);
    n = 1;
    TFE_Execute(op, &y, &n, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteOp(op);
    TFE_GradientTapeGradient(tape, 1, &y, NULL, 1, &x, TFE_UNCONNECTED_NONE, &gr, s);
    CHECK_CODE(s, TF_OK);
    CHECK(gr != NULL);
    t = TFE_TensorHandleResolve(gr, s);
    CHECK_CODE(s, TF_OK);
    check_values(t, k == 2 ? kTFPY_IF_FALSE : kTF_PARTITIONED_CALL, 3);
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(gr);
    TFE_DeleteTensorHandle(y);
    TFE_DeleteGradientTape(tape);
  }
  TFE_DeleteTensorHandle(x);
  TF_DeleteFunction(f);
  TF_DeleteFunction(f2);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* The eager tape through a StatelessWhile op (the gradient runs the
 * accumulating loop and the backward loop eagerly). */
TEST(eager_tape_while) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  TF_Function *fc = fn_cond_lt3(), *fb = fn_body_sq();
  TFE_TensorHandle *x, *i0, *in[2], *out[2], *gr;
  TFE_GradientTape* tape;
  TFE_Op* op;
  TF_Tensor* t;
  TF_DataType T[2] = {TF_INT32, TF_DOUBLE};
  int n = 2, k;
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  TFE_ContextAddFunction(ctx, fc, s);
  TFE_ContextAddFunction(ctx, fb, s);
  CHECK_CODE(s, TF_OK);
  t = dvec(kX, 3);
  x = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  t = gt_scalar_i32(0);
  i0 = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  for (k = 0; k < 2; k++) { /* the second time from the cache */
    tape = TFE_NewGradientTape(ctx, 0, s);
    TFE_GradientTapeWatch(tape, x, s);
    CHECK_CODE(s, TF_OK);
    op = TFE_NewOp(ctx, "StatelessWhile", s);
    CHECK_CODE(s, TF_OK);
    in[0] = i0;
    in[1] = x;
    TFE_OpAddInputList(op, in, 2, s);
    TFE_OpSetAttrTypeList(op, "T", T, 2);
    TFE_OpSetAttrFunctionName(op, "cond", "cond_lt3", 8);
    TFE_OpSetAttrFunctionName(op, "body", "body_sq", 7);
    n = 2;
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteOp(op);
    TFE_GradientTapeGradient(tape, 1, &out[1], NULL, 1, &x, TFE_UNCONNECTED_NONE, &gr, s);
    CHECK_CODE(s, TF_OK);
    CHECK(gr != NULL);
    t = TFE_TensorHandleResolve(gr, s);
    CHECK_CODE(s, TF_OK);
    check_values(t, kTFPY_FUNCTIONAL_WHILE, 3);
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(gr);
    TFE_DeleteTensorHandle(out[0]);
    TFE_DeleteTensorHandle(out[1]);
    TFE_DeleteGradientTape(tape);
  }
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(i0);
  TF_DeleteFunction(fc);
  TF_DeleteFunction(fb);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
