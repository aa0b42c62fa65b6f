/* TF_AddGradients / TF_AddGradientsWithPrefix: gradient subgraphs built
 * from the same registry as eager tapes, run in a session and checked
 * against central differences (broadcasting, Sum and MatMul included);
 * starting gradients (dx), node names under the prefix, NoGradient for
 * outputs only reached through ops without gradients, and TF's errors. */
#include <math.h>
#include <string.h>

#include "graph_test_util.h"

static TF_Tensor* vec(const float* v, int64_t n) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, &n, 1, (size_t)n * sizeof(float));
  memcpy(TF_TensorData(t), v, (size_t)n * sizeof(float));
  return t;
}

static TF_Tensor* mat(const float* v, int64_t r, int64_t c) {
  int64_t dims[2];
  TF_Tensor* t;
  dims[0] = r;
  dims[1] = c;
  t = TF_AllocateTensor(TF_FLOAT, dims, 2, (size_t)(r * c) * sizeof(float));
  memcpy(TF_TensorData(t), v, (size_t)(r * c) * sizeof(float));
  return t;
}

/* Graph: loss = sum(tanh(x * b) + x @ w), x [2,3] fed, b [3] and w [3,1]
 * constants; reduced over both axes by a Const axes input. */
typedef struct model {
  TF_Graph* g;
  TF_Operation *x, *b, *w, *loss;
} model;

static model build(void) {
  model m;
  const float bv[3] = {0.5f, -1.0f, 2.0f};
  const float wv[3] = {1.0f, 0.25f, -0.5f};
  int32_t axes[2] = {0, 1};
  int64_t two = 2;
  TF_Tensor* at = TF_AllocateTensor(TF_INT32, &two, 1, sizeof axes);
  TF_Operation *xb, *th, *mm, *ax, *add;
  memcpy(TF_TensorData(at), axes, sizeof axes);
  m.g = TF_NewGraph();
  m.x = gt_placeholder(m.g, "x", TF_FLOAT);
  m.b = gt_const(m.g, "b", vec(bv, 3), NULL);
  m.w = gt_const(m.g, "w", mat(wv, 3, 1), NULL);
  xb = gt_binop(m.g, "Mul", "xb", gt_out(m.x, 0), gt_out(m.b, 0));
  th = gt_unop(m.g, "Tanh", "th", gt_out(xb, 0));
  mm = gt_binop(m.g, "MatMul", "mm", gt_out(m.x, 0), gt_out(m.w, 0));
  add = gt_binop(m.g, "AddV2", "add", gt_out(th, 0), gt_out(mm, 0)); /* [2,3]+[2,1] */
  ax = gt_const(m.g, "axes", at, NULL);
  m.loss = gt_binop(m.g, "Sum", "loss", gt_out(add, 0), gt_out(ax, 0));
  return m;
}

static float loss_at(const float* xv) {
  const float bv[3] = {0.5f, -1.0f, 2.0f};
  const float wv[3] = {1.0f, 0.25f, -0.5f};
  double total = 0;
  int i, j;
  for (i = 0; i < 2; i++) {
    double mmv = 0;
    for (j = 0; j < 3; j++) mmv += (double)xv[3 * i + j] * wv[j];
    for (j = 0; j < 3; j++) total += tanh((double)xv[3 * i + j] * bv[j]) + mmv;
  }
  return (float)total;
}

TEST(gradients_against_central_differences) {
  TF_Status* s = TF_NewStatus();
  model m = build();
  TF_Output y = gt_out(m.loss, 0);
  TF_Output x = gt_out(m.x, 0);
  TF_Output dy;
  TF_Session* sess;
  TF_Tensor* out;
  const float xv[6] = {0.3f, -0.7f, 1.1f, 0.25f, -1.5f, 0.9f};
  int i;
  TF_AddGradients(m.g, &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_OK);
  CHECK(dy.oper != NULL);
  /* Gradient nodes live under "gradients/". */
  CHECK(strncmp(TF_OperationName(dy.oper), "gradients/", 10) == 0);
  TF_Tensor* feed = mat(xv, 2, 3);
  sess = gt_session(m.g);
  out = gt_run1(sess, &x, feed, dy, NULL);
  TF_DeleteTensor(feed);
  CHECK_EQ_INT(TF_NumDims(out), 2);
  for (i = 0; i < 6; i++) {
    float plus[6], minus[6];
    double numeric;
    memcpy(plus, xv, sizeof plus);
    memcpy(minus, xv, sizeof minus);
    plus[i] += 1e-3f;
    minus[i] -= 1e-3f;
    numeric = ((double)loss_at(plus) - loss_at(minus)) / 2e-3;
    if (fabs(numeric - ((float*)TF_TensorData(out))[i]) > 2e-3) {
      TFE_FAIL("element %d: graph gradient %g, central differences %g", i,
               ((float*)TF_TensorData(out))[i], numeric);
    }
  }
  TF_DeleteTensor(out);
  gt_close(sess);

  /* A second call picks the next free prefix. */
  TF_AddGradients(m.g, &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_OK);
  CHECK(strncmp(TF_OperationName(dy.oper), "gradients_1/", 12) == 0);
  TF_DeleteGraph(m.g);
  TF_DeleteStatus(s);
}

TEST(prefix_dx_and_errors) {
  TF_Status* s = TF_NewStatus();
  model m = build();
  TF_Output y = gt_out(m.loss, 0);
  TF_Output x = gt_out(m.x, 0);
  TF_Output dy, seed;
  TF_Operation* other = gt_placeholder(m.g, "unused", TF_FLOAT);
  TF_Output u = gt_out(other, 0);
  TF_Session* sess;
  TF_Tensor* a;
  TF_Tensor* b;
  const float xv[6] = {0.3f, -0.7f, 1.1f, 0.25f, -1.5f, 0.9f};
  int i;

  TF_AddGradientsWithPrefix(m.g, "mygrads", &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_OK);
  CHECK(strncmp(TF_OperationName(dy.oper), "mygrads/", 8) == 0);
  TF_AddGradientsWithPrefix(m.g, "mygrads", &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "prefix [mygrads] conflicts with existing node");
  TF_AddGradientsWithPrefix(m.g, "x", &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  /* dx scales the result: 3 * d loss. */
  seed = gt_out(gt_const(m.g, "three", gt_scalar_f32(3.0f), NULL), 0);
  TF_AddGradientsWithPrefix(m.g, "scaled", &y, 1, &x, 1, &seed, s, &dy);
  CHECK_CODE(s, TF_OK);
  {
    TF_Output plain;
    TF_AddGradientsWithPrefix(m.g, "plain", &y, 1, &x, 1, NULL, s, &plain);
    CHECK_CODE(s, TF_OK);
    TF_Tensor* feed = mat(xv, 2, 3);
    sess = gt_session(m.g);
    a = gt_run1(sess, &x, feed, dy, NULL);
    b = gt_run1(sess, &x, feed, plain, NULL);
    TF_DeleteTensor(feed);
    for (i = 0; i < 6; i++) {
      CHECK(fabsf(((float*)TF_TensorData(a))[i] - 3.0f * ((float*)TF_TensorData(b))[i]) <
            1e-5f);
    }
    TF_DeleteTensor(a);
    TF_DeleteTensor(b);
    gt_close(sess);
  }

  /* A source the target does not depend on: TF's error. */
  TF_AddGradients(m.g, &y, 1, &u, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Cannot compute the partial derivative for node 'unused'");
  /* Argument checks. */
  TF_AddGradients(NULL, &y, 1, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_AddGradients(m.g, &y, 0, &x, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_AddGradients(m.g, &y, 1, &x, 1, NULL, s, NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteGraph(m.g);
  TF_DeleteStatus(s);
}

TEST(no_gradient_and_missing_gradient) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = gt_placeholder(g, "x", TF_FLOAT);
  TF_Operation* shape = gt_unop(g, "Shape", "shape", gt_out(x, 0));
  TF_OperationDescription* d = TF_NewOperation(g, "Cast", "castf");
  TF_Operation* cast;
  TF_Operation* sn;
  TF_Output y, xo = gt_out(x, 0), dy;
  TF_AddInput(d, gt_out(shape, 0));
  TF_SetAttrType(d, "DstT", TF_FLOAT);
  cast = gt_finish(d);
  y = gt_out(cast, 0);
  /* y depends on x only through Shape (not differentiable): NoGradient. */
  TF_AddGradients(g, &y, 1, &xo, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_OK);
  CHECK(dy.oper == NULL);
  CHECK_EQ_INT(dy.index, -1);
  /* An op with no registered gradient: NOT_FOUND naming it. */
  sn = gt_unop(g, "Snapshot", "sn", xo);
  y = gt_out(sn, 0);
  TF_AddGradients(g, &y, 1, &xo, 1, NULL, s, &dy);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "No gradient defined for op: Snapshot");
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
