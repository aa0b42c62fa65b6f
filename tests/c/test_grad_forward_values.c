/* Gradients from the forward pass's own values and per-node custom
 * gradients in graphs (csrc/eager/grad_func.c, csrc/graph/gradients.c):
 * TFE_ContextAddForwardFunction (its argument checks, a body with a
 * random op whose gradient must use the value drawn, to the second order),
 * a graph call of a function returning its draw (the backward function
 * takes that output), and TF_AddGradients at an IdentityN
 * node carrying the _tfe_custom_grad_* attrs (the gradient is the named
 * library function; bad attrs are INVALID_ARGUMENT). */
#include <math.h>
#include <string.h>

#include "graph_test_util.h"
#include "tensorflow/c/eager/c_api.h"
#include "tfe/gradients.h"

static const double kX[3] = {0.5, -1.25, 2.0};

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

/* noisy2(x) = (sin(x) * x * r, r) with r = RandomUniform(Shape(x)). */
static TF_Function* fn_noisy2(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_DOUBLE);
  TF_Operation* sh = gt_unop(g, "Shape", "sh", gt_out(x, 0));
  TF_OperationDescription* d = TF_NewOperation(g, "RandomUniform", "r");
  TF_Operation *r, *si, *m;
  TF_Output in = gt_out(x, 0), out[2];
  TF_AddInput(d, gt_out(sh, 0));
  TF_SetAttrType(d, "dtype", TF_DOUBLE);
  r = gt_finish(d);
  si = gt_unop(g, "Sin", "si", in);
  m = gt_binop(g, "Mul", "m", gt_out(si, 0), in);
  out[0] = gt_out(gt_binop(g, "Mul", "y", gt_out(m, 0), gt_out(r, 0)), 0);
  out[1] = gt_out(gt_unop(g, "Identity", "r_out", gt_out(r, 0)), 0);
  return to_fn(g, "noisy2", &in, 1, out, 2);
}

static const double* values(TFE_TensorHandle* h, TF_Tensor** keep) {
  TF_Status* s = TF_NewStatus();
  *keep = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  return (const double*)TF_TensorData(*keep);
}

TEST(add_forward_function_arguments) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  TF_Function* f = fn_noisy2();
  char name[256], tiny[4];
  TFE_DeleteContextOptions(o);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_ContextAddForwardFunction(NULL, "noisy2", name, sizeof name, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_ContextAddForwardFunction(ctx, NULL, name, sizeof name, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_ContextAddForwardFunction(ctx, "noisy2", NULL, 0, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_ContextAddForwardFunction(ctx, "noisy2", name, sizeof name, NULL), -1);
  CHECK_EQ_INT(TFE_ContextAddForwardFunction(ctx, "noisy2", name, sizeof name, s), -1);
  CHECK_CODE(s, TF_NOT_FOUND);
  TFE_ContextAddFunction(ctx, f, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_ContextAddForwardFunction(ctx, "noisy2", tiny, sizeof tiny, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_ContextAddForwardFunction(ctx, "noisy2", name, sizeof name, s) >= 1);
  CHECK_CODE(s, TF_OK);
  CHECK(strncmp(name, "noisy2_tfe_fwd_", 15) == 0);
  CHECK(TFE_ContextHasFunction(ctx, name));
  TF_DeleteFunction(f);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* The variant runs once under two tapes: the first-order gradient is
 * r * (sin(x) + x cos(x)) with the r the call drew (returned as output 1),
 * the second order r * (2 cos(x) - x sin(x)). */
TEST(random_body_gradient_uses_the_drawn_value) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  TF_Function* f = fn_noisy2();
  TFE_GradientTape *t1, *t2;
  TFE_TensorHandle *x, *outs[8], *g1, *g2;
  TF_Tensor *t, *kr, *k1, *k2;
  TFE_Op* op;
  char name[256];
  int n, nextra, i;
  const double *r, *d1, *d2;
  TFE_DeleteContextOptions(o);
  CHECK_CODE(s, TF_OK);
  TFE_ContextAddFunction(ctx, f, s);
  CHECK_CODE(s, TF_OK);
  nextra = TFE_ContextAddForwardFunction(ctx, "noisy2", name, sizeof name, s);
  CHECK_CODE(s, TF_OK);
  CHECK(nextra >= 1 && nextra <= 6);
  t = dvec(kX, 3);
  x = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  t2 = TFE_NewGradientTape(ctx, 0, s);
  CHECK_CODE(s, TF_OK);
  TFE_GradientTapeWatch(t2, x, s);
  t1 = TFE_NewGradientTape(ctx, 0, s);
  CHECK_CODE(s, TF_OK);
  TFE_GradientTapeWatch(t1, x, s);
  op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, x, s);
  n = 2 + nextra;
  TFE_Execute(op, outs, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 2 + nextra);
  TFE_DeleteOp(op);
  TFE_GradientTapeGradient(t1, 1, &outs[0], NULL, 1, &x, TFE_UNCONNECTED_NONE, &g1, s);
  CHECK_CODE(s, TF_OK);
  r = values(outs[1], &kr);
  d1 = values(g1, &k1);
  for (i = 0; i < 3; i++) {
    CHECK(r[i] >= 0.0 && r[i] < 1.0);
    CHECK_NEAR(d1[i], r[i] * (sin(kX[i]) + kX[i] * cos(kX[i])), 1e-12);
  }
  /* The second order differentiates the variant's body with the draw
   * taken from the call: r * (2 cos(x) - x sin(x)). */
  TFE_GradientTapeGradient(t2, 1, &g1, NULL, 1, &x, TFE_UNCONNECTED_NONE, &g2, s);
  CHECK_CODE(s, TF_OK);
  d2 = values(g2, &k2);
  for (i = 0; i < 3; i++) {
    CHECK_NEAR(d2[i], r[i] * (2.0 * cos(kX[i]) - kX[i] * sin(kX[i])), 1e-12);
  }
  TFE_DeleteTensorHandle(g2);
  TF_DeleteTensor(k2);
  TF_DeleteTensor(kr);
  TF_DeleteTensor(k1);
  for (i = 0; i < n; i++) TFE_DeleteTensorHandle(outs[i]);
  TFE_DeleteTensorHandle(g1);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteGradientTape(t1);
  TFE_DeleteGradientTape(t2);
  TF_DeleteFunction(f);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* TF_AddGradients through a graph call (PartitionedCall) of noisy2, which
 * returns its draw: the backward function takes that output instead of
 * drawing again, so the gradient matches the r fetched in the same run. */
TEST(graph_call_returning_its_draw) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Function* f = fn_noisy2();
  TF_OperationDescription* d;
  TF_Operation *x, *call;
  TF_Output xo, yo, dx, fetch[2];
  TF_DataType tin = TF_DOUBLE, tout[2] = {TF_DOUBLE, TF_DOUBLE};
  TF_Session* sess;
  TF_Tensor *in, *outs[2] = {NULL, NULL};
  const double *r, *v;
  int i;
  TF_GraphCopyFunction(g, f, NULL, s);
  CHECK_CODE(s, TF_OK);
  x = gt_placeholder(g, "x", TF_DOUBLE);
  xo = gt_out(x, 0);
  d = TF_NewOperation(g, "PartitionedCall", "call");
  TF_AddInputList(d, &xo, 1);
  TF_SetAttrTypeList(d, "Tin", &tin, 1);
  TF_SetAttrTypeList(d, "Tout", tout, 2);
  TF_SetAttrFuncName(d, "f", "noisy2", 6);
  call = gt_finish(d);
  yo = gt_out(call, 0);
  TF_AddGradients(g, &yo, 1, &xo, 1, NULL, s, &dx);
  CHECK_CODE(s, TF_OK);
  sess = gt_session(g);
  in = dvec(kX, 3);
  fetch[0] = gt_out(call, 1);
  fetch[1] = dx;
  TF_SessionRun(sess, NULL, &xo, &in, 1, fetch, outs, 2, NULL, 0, NULL, s);
  CHECK_CODE(s, TF_OK);
  r = (const double*)TF_TensorData(outs[0]);
  v = (const double*)TF_TensorData(outs[1]);
  for (i = 0; i < 3; i++) {
    CHECK_NEAR(v[i], r[i] * (sin(kX[i]) + kX[i] * cos(kX[i])), 1e-12);
  }
  TF_DeleteTensor(in);
  TF_DeleteTensor(outs[0]);
  TF_DeleteTensor(outs[1]);
  gt_close(sess);
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* grad3(dy, c) = dy * c * 3 */
static TF_Function* fn_grad3(void) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* dy = gt_placeholder(g, "dy", TF_DOUBLE);
  TF_Operation* c = gt_placeholder(g, "c", TF_DOUBLE);
  TF_Tensor* three = TF_AllocateTensor(TF_DOUBLE, NULL, 0, sizeof(double));
  TF_Operation *k, *m;
  TF_Output in[2] = {gt_out(dy, 0), gt_out(c, 0)}, out;
  *(double*)TF_TensorData(three) = 3.0;
  k = gt_const(g, "three", three, NULL);
  m = gt_binop(g, "Mul", "m", in[0], in[1]);
  out = gt_out(gt_binop(g, "Mul", "g", gt_out(m, 0), gt_out(k, 0)), 0);
  return to_fn(g, "grad3", in, 2, &out, 1);
}

/* IdentityN(x * x, x, x) with the custom-gradient attrs (nres 1, the
 * source x -> output 0, capture x): the gradient is grad3(dy, x). With
 * `bad`, the map attr is missing. */
static TF_Operation* custom_node(TF_Graph* g, TF_Output xo, int bad, TF_Status* s) {
  TF_Operation* sq = gt_binop(g, "Mul", "sq", xo, xo);
  TF_OperationDescription* d = TF_NewOperation(g, "IdentityN", "cg");
  TF_Output ins[3] = {gt_out(sq, 0), xo, xo};
  TF_DataType ts[3] = {TF_DOUBLE, TF_DOUBLE, TF_DOUBLE};
  int64_t map[1] = {0};
  TF_AddInputList(d, ins, 3);
  TF_SetAttrTypeList(d, "T", ts, 3);
  TF_SetAttrFuncName(d, "_tfe_custom_grad_fn", "grad3", 5);
  TF_SetAttrInt(d, "_tfe_custom_grad_nres", 1);
  if (!bad) TF_SetAttrIntList(d, "_tfe_custom_grad_map", map, 1);
  return TF_FinishOperation(d, s);
}

TEST(graph_node_custom_gradient) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Function* gf = fn_grad3();
  TF_Operation *x, *cg;
  TF_Output xo, yo, dx;
  TF_Session* sess;
  TF_Tensor *in, *out;
  const double* v;
  int i;
  TF_GraphCopyFunction(g, gf, NULL, s);
  CHECK_CODE(s, TF_OK);
  x = gt_placeholder(g, "x", TF_DOUBLE);
  xo = gt_out(x, 0);
  cg = custom_node(g, xo, 0, s);
  CHECK_CODE(s, TF_OK);
  yo = gt_out(cg, 0);
  TF_AddGradients(g, &yo, 1, &xo, 1, NULL, s, &dx);
  CHECK_CODE(s, TF_OK);
  CHECK(dx.oper != NULL);
  sess = gt_session(g);
  in = dvec(kX, 3);
  out = gt_run1(sess, &xo, in, dx, NULL);
  v = (const double*)TF_TensorData(out);
  for (i = 0; i < 3; i++) CHECK_NEAR(v[i], 3.0 * kX[i], 1e-15);
  TF_DeleteTensor(in);
  TF_DeleteTensor(out);
  gt_close(sess);
  TF_DeleteFunction(gf);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(graph_node_custom_gradient_bad_attrs) {
  TF_Graph* g = TF_NewGraph();
  TF_Status* s = TF_NewStatus();
  TF_Function* gf = fn_grad3();
  TF_Operation *x, *cg;
  TF_Output xo, yo, dx;
  TF_GraphCopyFunction(g, gf, NULL, s);
  CHECK_CODE(s, TF_OK);
  x = gt_placeholder(g, "x", TF_DOUBLE);
  xo = gt_out(x, 0);
  cg = custom_node(g, xo, 1, s);
  CHECK_CODE(s, TF_OK);
  yo = gt_out(cg, 0);
  TF_AddGradients(g, &yo, 1, &xo, 1, NULL, s, &dx);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "_tfe_custom_grad_map");
  TF_DeleteFunction(gf);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
