/* Gradients of If and While inside a function body from the forward
 * pass's values (csrc/eager/grad_func.c "forward values of If / Case" and
 * while_forward_gradient): a function whose If branch or While body draws
 * from a seeded stateful random op it does not return is called through
 * its forward variant (TFE_ContextAddForwardFunction) under a tape; the
 * gradient reads the values the call drew (the branch and the loop body do
 * not run again) and equals TF 2.21's (tools/record_grad_func_fwd.py ->
 * tests/data/grad_func_fwd_tf221.h: the same programs as
 * tests/python/grad_func_fwd_programs.py's cond_random and while_random;
 * tfe's seeded RandomUniform draws TF's values). */
#include <math.h>
#include <string.h>

#include "../data/grad_func_fwd_tf221.h"
#include "graph_test_util.h"
#include "tensorflow/c/eager/c_api.h"
#include "tfe/gradients.h"

#define CHECK_NEAR(a, b, tol)                                            \
  do {                                                                   \
    double a_ = (a), b_ = (b);                                           \
    if (!(fabs(a_ - b_) <= (tol))) TFE_FAIL("%.17g != %.17g", a_, b_); \
  } while (0)

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

/* RandomUniform([3], double, seed, seed2) */
static TF_Operation* random3(TF_Graph* g, int64_t seed, int64_t seed2) {
  int64_t one = 1;
  TF_Tensor* shape = TF_AllocateTensor(TF_INT32, &one, 1, sizeof(int32_t));
  TF_OperationDescription* d;
  *(int32_t*)TF_TensorData(shape) = 3;
  d = TF_NewOperation(g, "RandomUniform", "r");
  TF_AddInput(d, gt_out(gt_const(g, "shape", shape, NULL), 0));
  TF_SetAttrType(d, "dtype", TF_DOUBLE);
  TF_SetAttrInt(d, "seed", seed);
  TF_SetAttrInt(d, "seed2", seed2);
  return gt_finish(d);
}

/* t_br(x, s) = RandomUniform(seed 7, 3) * x + sin(x) */
static TF_Function* fn_then(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Output in[2] = {gt_out(gt_placeholder(g, "x", TF_DOUBLE), 0),
                     gt_out(gt_placeholder(g, "s", TF_DOUBLE), 0)};
  TF_Operation* m = gt_binop(g, "Mul", "m", gt_out(random3(g, 7, 3), 0), in[0]);
  TF_Output out = gt_out(
      gt_binop(g, "AddV2", "y", gt_out(m, 0), gt_out(gt_unop(g, "Sin", "si", in[0]), 0)), 0);
  return to_fn(g, "t_br", in, 2, &out, 1);
}

/* e_br(x, s) = exp(x) * s */
static TF_Function* fn_else(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Output in[2] = {gt_out(gt_placeholder(g, "x", TF_DOUBLE), 0),
                     gt_out(gt_placeholder(g, "s", TF_DOUBLE), 0)};
  TF_Output out =
      gt_out(gt_binop(g, "Mul", "y", gt_out(gt_unop(g, "Exp", "ex", in[0]), 0), in[1]), 0);
  return to_fn(g, "e_br", in, 2, &out, 1);
}

/* outer_if(x, s) = If(s > 0, [x, s]; t_br, e_br) */
static TF_Function* fn_outer_if(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Output in[2] = {gt_out(gt_placeholder(g, "x", TF_DOUBLE), 0),
                     gt_out(gt_placeholder(g, "s", TF_DOUBLE), 0)};
  TF_Operation* p = gt_binop(g, "Greater", "p", in[1], gt_out(dconst(g, "zero", 0.0), 0));
  TF_DataType tin[2] = {TF_DOUBLE, TF_DOUBLE}, tout = TF_DOUBLE;
  TF_OperationDescription* d = TF_NewOperation(g, "If", "if");
  TF_Output out;
  TF_AddInput(d, gt_out(p, 0));
  TF_AddInputList(d, in, 2);
  TF_SetAttrTypeList(d, "Tin", tin, 2);
  TF_SetAttrTypeList(d, "Tout", &tout, 1);
  TF_SetAttrFuncName(d, "then_branch", "t_br", 4);
  TF_SetAttrFuncName(d, "else_branch", "e_br", 4);
  out = gt_out(gt_finish(d), 0);
  return to_fn(g, "outer_if", in, 2, &out, 1);
}

/* c_b0(x) = RandomUniform(seed 7, 3) * tanh(x); c_b1(x) = x * x * x */
static TF_Function* fn_case_b0(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Output x = gt_out(gt_placeholder(g, "x", TF_DOUBLE), 0);
  TF_Output out = gt_out(gt_binop(g, "Mul", "y", gt_out(random3(g, 7, 3), 0),
                                  gt_out(gt_unop(g, "Tanh", "th", x), 0)),
                         0);
  return to_fn(g, "c_b0", &x, 1, &out, 1);
}

static TF_Function* fn_case_b1(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Output x = gt_out(gt_placeholder(g, "x", TF_DOUBLE), 0);
  TF_Operation* xx = gt_binop(g, "Mul", "xx", x, x);
  TF_Output out = gt_out(gt_binop(g, "Mul", "y", gt_out(xx, 0), x), 0);
  return to_fn(g, "c_b1", &x, 1, &out, 1);
}

/* Case(i, [x]; c_b0, c_b1) in graph g */
static TF_Operation* case_node(TF_Graph* g, TF_Output i, TF_Output x) {
  static const unsigned char kBranches[] = {0x0a, 0x10, 0x4a, 0x06, 0x0a, 0x04, 'c', '_',
                                            'b',  '0',  0x4a, 0x06, 0x0a, 0x04, 'c', '_',
                                            'b',  '1'};
  TF_Status* s = TF_NewStatus();
  TF_DataType t = TF_DOUBLE;
  TF_OperationDescription* d = TF_NewOperation(g, "Case", "case");
  TF_AddInput(d, i);
  TF_AddInputList(d, &x, 1);
  TF_SetAttrTypeList(d, "Tin", &t, 1);
  TF_SetAttrTypeList(d, "Tout", &t, 1);
  TF_SetAttrValueProto(d, "branches", kBranches, sizeof kBranches, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  return gt_finish(d);
}

/* outer_case(x, i) = Case(i, [x]; c_b0, c_b1) */
static TF_Function* fn_outer_case(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Output in[2] = {gt_out(gt_placeholder(g, "x", TF_DOUBLE), 0),
                     gt_out(gt_placeholder(g, "i", TF_INT32), 0)};
  TF_Output out = gt_out(case_node(g, in[1], in[0]), 0);
  return to_fn(g, "outer_case", in, 2, &out, 1);
}

/* w_cond(i, y) = i < 1; w_body(i, y) = (i + 1, RandomUniform(seed 13, 4)
 * * sin(y) + y) */
static TF_Function* fn_wcond(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Output in[2] = {gt_out(gt_placeholder(g, "i", TF_INT32), 0),
                     gt_out(gt_placeholder(g, "y", TF_DOUBLE), 0)};
  TF_Output out = gt_out(
      gt_binop(g, "Less", "lt", in[0], gt_out(gt_const(g, "one", gt_scalar_i32(1), NULL), 0)),
      0);
  return to_fn(g, "w_cond", in, 2, &out, 1);
}

static TF_Function* fn_wbody(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Output in[2] = {gt_out(gt_placeholder(g, "i", TF_INT32), 0),
                     gt_out(gt_placeholder(g, "y", TF_DOUBLE), 0)};
  TF_Operation* m = gt_binop(g, "Mul", "m", gt_out(random3(g, 13, 4), 0),
                             gt_out(gt_unop(g, "Sin", "si", in[1]), 0));
  TF_Output out[2] = {
      gt_out(gt_binop(g, "AddV2", "i1", in[0],
                      gt_out(gt_const(g, "one", gt_scalar_i32(1), NULL), 0)),
             0),
      gt_out(gt_binop(g, "AddV2", "y1", gt_out(m, 0), in[1]), 0)};
  return to_fn(g, "w_body", in, 2, out, 2);
}

/* outer_while(x) = While(0, x; w_cond, w_body)[1] * 2 */
static TF_Function* fn_outer_while(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Output x = gt_out(gt_placeholder(g, "x", TF_DOUBLE), 0), in[2], out;
  TF_DataType T[2] = {TF_INT32, TF_DOUBLE};
  TF_OperationDescription* d;
  TF_Operation* w;
  in[0] = gt_out(gt_const(g, "zero", gt_scalar_i32(0), NULL), 0);
  in[1] = x;
  d = TF_NewOperation(g, "While", "while");
  TF_AddInputList(d, in, 2);
  TF_SetAttrTypeList(d, "T", T, 2);
  TF_SetAttrFuncName(d, "cond", "w_cond", 6);
  TF_SetAttrFuncName(d, "body", "w_body", 6);
  w = gt_finish(d);
  out = gt_out(gt_binop(g, "Mul", "y", gt_out(w, 1), gt_out(dconst(g, "two", 2.0), 0)), 0);
  return to_fn(g, "outer_while", &x, 1, &out, 1);
}

static TFE_TensorHandle* handle(const double* v, int64_t n) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = n < 0 ? TF_AllocateTensor(TF_DOUBLE, NULL, 0, sizeof(double)) : dvec(v, n);
  TFE_TensorHandle* h;
  if (n < 0) *(double*)TF_TensorData(t) = v[0];
  h = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
  return h;
}

static void check_handle(TFE_TensorHandle* h, const double* want, int n) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t;
  int i;
  CHECK(h != NULL);
  t = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT((int)(TF_TensorByteSize(t) / sizeof(double)), n);
  for (i = 0; i < n; i++) CHECK_NEAR(((const double*)TF_TensorData(t))[i], want[i], 1e-12);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
}

/* In a new context: adds fns, calls fname's forward variant on args under
 * a tape and checks its output and the gradients (upstream kFWD_W) of the
 * args against want_y / want_d[i]. */
static void run_case(TF_Function** fns, int nfns, const char* fname, TFE_TensorHandle** args,
                     int nargs, const double* want_y, const double* const* want_d,
                     const int* dlen) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  TFE_GradientTape* tape;
  TFE_TensorHandle *outs[16], *grads[4], *w;
  TFE_Op* op;
  char name[512];
  int i, n, nextra;
  TFE_DeleteContextOptions(o);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < nfns; i++) {
    TFE_ContextAddFunction(ctx, fns[i], s);
    CHECK_CODE(s, TF_OK);
  }
  nextra = TFE_ContextAddForwardFunction(ctx, fname, name, sizeof name, s);
  CHECK_CODE(s, TF_OK);
  CHECK(nextra >= 1 && nextra < 15);
  tape = TFE_NewGradientTape(ctx, 0, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < nargs; i++) TFE_GradientTapeWatch(tape, args[i], s);
  op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < nargs; i++) TFE_OpAddInput(op, args[i], s);
  n = 1 + nextra;
  TFE_Execute(op, outs, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 1 + nextra);
  TFE_DeleteOp(op);
  check_handle(outs[0], want_y, 3);
  w = handle(kFWD_W, 3);
  TFE_GradientTapeGradient(tape, 1, &outs[0], &w, nargs, args, TFE_UNCONNECTED_NONE, grads,
                           s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < nargs; i++) {
    check_handle(grads[i], want_d[i], dlen[i]);
    TFE_DeleteTensorHandle(grads[i]);
  }
  TFE_DeleteTensorHandle(w);
  for (i = 0; i < n; i++) TFE_DeleteTensorHandle(outs[i]);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* The If's then branch draws r; dx = W * (r + cos x), ds = 0, as TF. Run
 * in two contexts: the second gets the cached variant's functions (the
 * branch wrappers included) installed too. */
TEST(if_branch_random_uses_the_forward_draw) {
  TF_Function* fns[3] = {fn_then(), fn_else(), fn_outer_if()};
  const double s_val = 2.0;
  TFE_TensorHandle* args[2] = {handle(kFWD_X, 3), handle(&s_val, -1)};
  const double* want[2] = {kFWD_COND_RANDOM_DX, kFWD_COND_RANDOM_DS};
  int len[2] = {3, 1}, k;
  for (k = 0; k < 2; k++) {
    run_case(fns, 3, "outer_if", args, 2, kFWD_COND_RANDOM_Y, want, len);
  }
  for (k = 0; k < 3; k++) TF_DeleteFunction(fns[k]);
  TFE_DeleteTensorHandle(args[0]);
  TFE_DeleteTensorHandle(args[1]);
}

/* The While body draws r: the forward loop keeps it (a TensorList per
 * saved value); the backward loop reads it back. */
TEST(while_body_random_uses_the_forward_draw) {
  TF_Function* fns[3] = {fn_wcond(), fn_wbody(), fn_outer_while()};
  TFE_TensorHandle* x = handle(kFWD_X, 3);
  const double* want[1] = {kFWD_WHILE_RANDOM_DX};
  int len[1] = {3}, k;
  for (k = 0; k < 2; k++) {
    run_case(fns, 3, "outer_while", &x, 1, kFWD_WHILE_RANDOM_Y, want, len);
  }
  for (k = 0; k < 3; k++) TF_DeleteFunction(fns[k]);
  TFE_DeleteTensorHandle(x);
}

/* TF_AddGradients in a caller's graph: the forward node (an If, or a
 * PartitionedCall / StatefulPartitionedCall / call by name of outer_if)
 * is rewritten in place to return the saved values too (as TF's
 * cond_v2 / function gradients do), so y and the gradient fetched in one
 * run agree with each other and with TF. */
static void graph_case(int kind) {
  static const char* const kTypes[4] = {"If", "PartitionedCall", "StatefulPartitionedCall",
                                        "outer_if"};
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Function* fns[3] = {fn_then(), fn_else(), fn_outer_if()};
  TF_Operation *x, *sv, *node, *w;
  TF_OperationDescription* d;
  TF_Output in[2], y, dy, grads[2], fetch[3];
  TF_DataType tin[2] = {TF_DOUBLE, TF_DOUBLE}, tout = TF_DOUBLE;
  TF_Session* sess;
  TF_Tensor *feeds[2], *outs[3] = {NULL, NULL, NULL};
  const double s_val = 2.0;
  int i, nout0;
  for (i = 0; i < 3; i++) {
    TF_GraphCopyFunction(g, fns[i], NULL, s);
    CHECK_CODE(s, TF_OK);
  }
  x = gt_placeholder(g, "x", TF_DOUBLE);
  sv = gt_placeholder(g, "s", TF_DOUBLE);
  in[0] = gt_out(x, 0);
  in[1] = gt_out(sv, 0);
  d = TF_NewOperation(g, kTypes[kind], "node");
  if (kind == 0) {
    TF_AddInput(d, gt_out(gt_binop(g, "Greater", "p", in[1], gt_out(dconst(g, "zero", 0.0), 0)),
                          0));
    TF_AddInputList(d, in, 2);
    TF_SetAttrTypeList(d, "Tin", tin, 2);
    TF_SetAttrTypeList(d, "Tout", &tout, 1);
    TF_SetAttrFuncName(d, "then_branch", "t_br", 4);
    TF_SetAttrFuncName(d, "else_branch", "e_br", 4);
  } else if (kind < 3) {
    TF_AddInputList(d, in, 2);
    TF_SetAttrTypeList(d, "Tin", tin, 2);
    TF_SetAttrTypeList(d, "Tout", &tout, 1);
    TF_SetAttrFuncName(d, "f", "outer_if", 8);
  } else {
    TF_AddInput(d, in[0]);
    TF_AddInput(d, in[1]);
  }
  node = gt_finish(d);
  nout0 = TF_OperationNumOutputs(node);
  CHECK_EQ_INT(nout0, 1);
  y = gt_out(node, 0);
  {
    TF_Tensor* wt = dvec(kFWD_W, 3);
    w = gt_const(g, "w", wt, NULL);
  }
  dy = gt_out(w, 0);
  TF_AddGradients(g, &y, 1, in, 2, &dy, s, grads);
  CHECK_CODE(s, TF_OK);
  /* the node now also returns the values its gradient reads */
  CHECK(TF_OperationNumOutputs(node) > 1);
  sess = gt_session(g);
  feeds[0] = dvec(kFWD_X, 3);
  feeds[1] = TF_AllocateTensor(TF_DOUBLE, NULL, 0, sizeof(double));
  *(double*)TF_TensorData(feeds[1]) = s_val;
  fetch[0] = y;
  fetch[1] = grads[0];
  fetch[2] = grads[1];
  TF_SessionRun(sess, NULL, in, feeds, 2, fetch, outs, 3, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 3; i++) {
    CHECK_NEAR(((const double*)TF_TensorData(outs[0]))[i], kFWD_COND_RANDOM_Y[i], 1e-12);
    CHECK_NEAR(((const double*)TF_TensorData(outs[1]))[i], kFWD_COND_RANDOM_DX[i], 1e-12);
  }
  CHECK_NEAR(*(const double*)TF_TensorData(outs[2]), kFWD_COND_RANDOM_DS[0], 1e-12);
  for (i = 0; i < 3; i++) TF_DeleteTensor(outs[i]);
  TF_DeleteTensor(feeds[0]);
  TF_DeleteTensor(feeds[1]);
  gt_close(sess);
  for (i = 0; i < 3; i++) TF_DeleteFunction(fns[i]);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* Case: branch 0 draws r; dx = W * r * (1 - tanh(x)^2), as TF (its
 * switch_case). In a function body (variant) and in a graph. */
TEST(case_branch_random_uses_the_forward_draw) {
  TF_Function* fns[3] = {fn_case_b0(), fn_case_b1(), fn_outer_case()};
  int32_t zero = 0;
  TF_Tensor* it = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
  TF_Status* s = TF_NewStatus();
  TFE_TensorHandle* args[2];
  const double* want[1] = {kFWD_CASE_RANDOM_DX};
  int len[1] = {3}, k;
  memcpy(TF_TensorData(it), &zero, sizeof zero);
  args[0] = handle(kFWD_X, 3);
  args[1] = TFE_NewTensorHandle(it, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(it);
  /* the index is not differentiable: only x is a source */
  {
    TFE_ContextOptions* o = TFE_NewContextOptions();
    TFE_Context* ctx = TFE_NewContext(o, s);
    TFE_GradientTape* tape;
    TFE_TensorHandle *outs[16], *gx, *w;
    TFE_Op* op;
    char name[512];
    int n, nextra;
    TFE_DeleteContextOptions(o);
    for (k = 0; k < 3; k++) {
      TFE_ContextAddFunction(ctx, fns[k], s);
      CHECK_CODE(s, TF_OK);
    }
    nextra = TFE_ContextAddForwardFunction(ctx, "outer_case", name, sizeof name, s);
    CHECK_CODE(s, TF_OK);
    CHECK(nextra >= 1 && nextra < 15);
    tape = TFE_NewGradientTape(ctx, 0, s);
    TFE_GradientTapeWatch(tape, args[0], s);
    op = TFE_NewOp(ctx, name, s);
    CHECK_CODE(s, TF_OK);
    TFE_OpAddInput(op, args[0], s);
    TFE_OpAddInput(op, args[1], s);
    n = 1 + nextra;
    TFE_Execute(op, outs, &n, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteOp(op);
    check_handle(outs[0], kFWD_CASE_RANDOM_Y, 3);
    w = handle(kFWD_W, 3);
    TFE_GradientTapeGradient(tape, 1, &outs[0], &w, 1, args, TFE_UNCONNECTED_NONE, &gx, s);
    CHECK_CODE(s, TF_OK);
    check_handle(gx, want[0], len[0]);
    TFE_DeleteTensorHandle(gx);
    TFE_DeleteTensorHandle(w);
    for (k = 0; k < n; k++) TFE_DeleteTensorHandle(outs[k]);
    TFE_DeleteGradientTape(tape);
    TFE_DeleteContext(ctx);
  }
  /* the same Case in a graph, rewritten in place by TF_AddGradients */
  {
    TF_Graph* g = TF_NewGraph();
    TF_Operation *x = gt_placeholder(g, "x", TF_DOUBLE), *c;
    TF_Output xo = gt_out(x, 0), yo, dy, dx, fetch[2];
    TF_Session* sess;
    TF_Tensor *feed, *outs[2] = {NULL, NULL};
    int i;
    for (k = 0; k < 3; k++) {
      TF_GraphCopyFunction(g, fns[k], NULL, s);
      CHECK_CODE(s, TF_OK);
    }
    c = case_node(g, gt_out(gt_const(g, "idx", gt_scalar_i32(0), NULL), 0), xo);
    yo = gt_out(c, 0);
    dy = gt_out(gt_const(g, "w", dvec(kFWD_W, 3), NULL), 0);
    TF_AddGradients(g, &yo, 1, &xo, 1, &dy, s, &dx);
    CHECK_CODE(s, TF_OK);
    CHECK(TF_OperationNumOutputs(c) > 1);
    sess = gt_session(g);
    feed = dvec(kFWD_X, 3);
    fetch[0] = yo;
    fetch[1] = dx;
    TF_SessionRun(sess, NULL, &xo, &feed, 1, fetch, outs, 2, NULL, 0, NULL, s);
    CHECK_CODE(s, TF_OK);
    for (i = 0; i < 3; i++) {
      CHECK_NEAR(((const double*)TF_TensorData(outs[0]))[i], kFWD_CASE_RANDOM_Y[i], 1e-12);
      CHECK_NEAR(((const double*)TF_TensorData(outs[1]))[i], kFWD_CASE_RANDOM_DX[i], 1e-12);
    }
    TF_DeleteTensor(outs[0]);
    TF_DeleteTensor(outs[1]);
    TF_DeleteTensor(feed);
    gt_close(sess);
    TF_DeleteGraph(g);
  }
  for (k = 0; k < 3; k++) TF_DeleteFunction(fns[k]);
  TFE_DeleteTensorHandle(args[0]);
  TFE_DeleteTensorHandle(args[1]);
  TF_DeleteStatus(s);
}

TEST(graph_if_rewritten_in_place) { graph_case(0); }
TEST(graph_partitioned_call_rewritten_in_place) { graph_case(1); }
TEST(graph_stateful_partitioned_call_rewritten_in_place) { graph_case(2); }
TEST(graph_call_by_name_rewritten_in_place) { graph_case(3); }

/* Eager calls under a tape (grad_func.c "eager calls under a tape"): a
 * call of outer_if by its own name or by (Stateful)PartitionedCall, and
 * If / StatelessIf / Case /
 * StatelessCase / While / StatelessWhile run with TFE_Execute on the
 * branch and body functions above, while a tape watches their inputs. The
 * op runs as a forward variant: the caller gets the op's own outputs only,
 * and the gradients read the random values the call drew (the same
 * programs as the TF-recorded ones: outer_if = If(s > 0, ...) with s = 2,
 * Case with index 0, While(0, x)[1] * 2 = kFWD_WHILE_RANDOM_Y). */
static void eager_fns(TFE_Context* ctx, int kind) {
  TF_Function* fns[3];
  TF_Status* s = TF_NewStatus();
  int i;
  if (kind <= 2 || kind >= 7) {
    fns[0] = fn_then();
    fns[1] = fn_else();
    fns[2] = fn_outer_if();
  } else if (kind <= 4) {
    fns[0] = fn_case_b0();
    fns[1] = fn_case_b1();
    fns[2] = fn_outer_case();
  } else {
    fns[0] = fn_wcond();
    fns[1] = fn_wbody();
    fns[2] = fn_outer_while();
  }
  for (i = 0; i < 3; i++) {
    TFE_ContextAddFunction(ctx, fns[i], s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteFunction(fns[i]);
  }
  TF_DeleteStatus(s);
}

static void eager_case(int kind) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  TFE_GradientTape* tape;
  TFE_TensorHandle *x, *sv, *first = NULL, *outs[8], *grads[2], *w, *y;
  TFE_TensorHandle* src[2];
  TFE_Op* op;
  const double s_val = 2.0, two = 2.0;
  const char* type;
  double w2[3], yw[3];
  int i, n = 8, nsrc, rep;
  TFE_DeleteContextOptions(o);
  CHECK_CODE(s, TF_OK);
  eager_fns(ctx, kind);
  /* twice: the second run reuses the wrapper and the variant, in a new
   * context (the random op's kernel state lives in the context: a second
   * call in the same one draws the next values, as in TF) */
  for (rep = 0; rep < 2; rep++) {
    if (rep == 1) {
      TFE_DeleteContext(ctx);
      o = TFE_NewContextOptions();
      ctx = TFE_NewContext(o, s);
      TFE_DeleteContextOptions(o);
      CHECK_CODE(s, TF_OK);
      eager_fns(ctx, kind);
    }
    x = handle(kFWD_X, 3);
    sv = handle(&s_val, -1);
    tape = TFE_NewGradientTape(ctx, 0, s);
    CHECK_CODE(s, TF_OK);
    TFE_GradientTapeWatch(tape, x, s);
    TFE_GradientTapeWatch(tape, sv, s);
    type = kind == 0   ? "outer_if"
           : kind == 1 ? "If"
           : kind == 2 ? "StatelessIf"
           : kind == 3 ? "Case"
           : kind == 4 ? "StatelessCase"
           : kind == 5 ? "While"
           : kind == 6 ? "StatelessWhile"
           : kind == 7 ? "PartitionedCall"
                       : "StatefulPartitionedCall";
    op = TFE_NewOp(ctx, type, s);
    CHECK_CODE(s, TF_OK);
    if (kind == 1 || kind == 2) {
      TF_Tensor* b = TF_AllocateTensor(TF_BOOL, NULL, 0, 1);
      TF_DataType tin[2] = {TF_DOUBLE, TF_DOUBLE}, tout = TF_DOUBLE;
      *(unsigned char*)TF_TensorData(b) = 1;
      first = TFE_NewTensorHandle(b, s);
      TF_DeleteTensor(b);
      TFE_OpAddInput(op, first, s);
      TFE_OpSetAttrTypeList(op, "Tin", tin, 2);
      TFE_OpSetAttrTypeList(op, "Tout", &tout, 1);
      TFE_OpSetAttrFunctionName(op, "then_branch", "t_br", 4);
      TFE_OpSetAttrFunctionName(op, "else_branch", "e_br", 4);
    } else if (kind == 3 || kind == 4) {
      TF_Tensor* it = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
      TFE_Op* b0 = TFE_NewOp(ctx, "c_b0", s);
      TFE_Op* b1 = TFE_NewOp(ctx, "c_b1", s);
      const TFE_Op* br[2] = {b0, b1};
      TF_DataType t = TF_DOUBLE;
      *(int32_t*)TF_TensorData(it) = 0;
      first = TFE_NewTensorHandle(it, s);
      TF_DeleteTensor(it);
      TFE_OpAddInput(op, first, s);
      TFE_OpSetAttrTypeList(op, "Tin", &t, 1);
      TFE_OpSetAttrTypeList(op, "Tout", &t, 1);
      TFE_OpSetAttrFunctionList(op, "branches", br, 2);
      TFE_DeleteOp(b0);
      TFE_DeleteOp(b1);
    } else if (kind >= 7) {
      TF_DataType tin[2] = {TF_DOUBLE, TF_DOUBLE}, tout = TF_DOUBLE;
      TFE_OpSetAttrTypeList(op, "Tin", tin, 2);
      TFE_OpSetAttrTypeList(op, "Tout", &tout, 1);
      TFE_OpSetAttrFunctionName(op, "f", "outer_if", 8);
    } else if (kind >= 5) {
      TF_DataType T[2] = {TF_INT32, TF_DOUBLE};
      TF_Tensor* zero = gt_scalar_i32(0);
      first = TFE_NewTensorHandle(zero, s);
      TF_DeleteTensor(zero);
      TFE_OpAddInput(op, first, s);
      TFE_OpSetAttrTypeList(op, "T", T, 2);
      TFE_OpSetAttrFunctionName(op, "cond", "w_cond", 6);
      TFE_OpSetAttrFunctionName(op, "body", "w_body", 6);
    }
    CHECK_CODE(s, TF_OK);
    TFE_OpAddInput(op, x, s);
    if (kind <= 2 || kind >= 7) TFE_OpAddInput(op, sv, s);
    CHECK_CODE(s, TF_OK);
    n = 8;
    TFE_Execute(op, outs, &n, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteOp(op);
    /* the op's own outputs only */
    CHECK_EQ_INT(n, kind == 5 || kind == 6 ? 2 : 1);
    src[0] = x;
    src[1] = sv;
    nsrc = kind <= 2 || kind >= 7 ? 2 : 1;
    if (kind == 5 || kind == 6) {
      /* outer_while's y = While(...)[1] * 2: upstream 2 W for output 1 */
      y = outs[1];
      for (i = 0; i < 3; i++) {
        w2[i] = two * kFWD_W[i];
        yw[i] = kFWD_WHILE_RANDOM_Y[i] / two;
      }
      check_handle(y, yw, 3);
      w = handle(w2, 3);
    } else {
      y = outs[0];
      check_handle(y, nsrc == 2 ? kFWD_COND_RANDOM_Y : kFWD_CASE_RANDOM_Y, 3);
      w = handle(kFWD_W, 3);
    }
    TFE_GradientTapeGradient(tape, 1, &y, &w, nsrc, src, TFE_UNCONNECTED_NONE, grads, s);
    CHECK_CODE(s, TF_OK);
    check_handle(grads[0], nsrc == 2   ? kFWD_COND_RANDOM_DX
                           : kind <= 4 ? kFWD_CASE_RANDOM_DX
                                       : kFWD_WHILE_RANDOM_DX,
                 3);
    if (nsrc == 2) check_handle(grads[1], kFWD_COND_RANDOM_DS, 1);
    for (i = 0; i < nsrc; i++) TFE_DeleteTensorHandle(grads[i]);
    TFE_DeleteTensorHandle(w);
    for (i = 0; i < n; i++) TFE_DeleteTensorHandle(outs[i]);
    TFE_DeleteTensorHandle(first);
    first = NULL;
    TFE_DeleteGradientTape(tape);
    TFE_DeleteTensorHandle(x);
    TFE_DeleteTensorHandle(sv);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(eager_call_by_name_uses_the_forward_draw) { eager_case(0); }
TEST(eager_if_uses_the_forward_draw) { eager_case(1); }
TEST(eager_stateless_if_uses_the_forward_draw) { eager_case(2); }
TEST(eager_case_uses_the_forward_draw) { eager_case(3); }
TEST(eager_stateless_case_uses_the_forward_draw) { eager_case(4); }
TEST(eager_while_uses_the_forward_draw) { eager_case(5); }
TEST(eager_stateless_while_uses_the_forward_draw) { eager_case(6); }
TEST(eager_partitioned_call_uses_the_forward_draw) { eager_case(7); }
TEST(eager_stateful_partitioned_call_uses_the_forward_draw) { eager_case(8); }

TFE_TEST_MAIN
