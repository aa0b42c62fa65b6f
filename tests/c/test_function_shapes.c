/* Shape inference through function calls (csrc/graph/function_shapes.c):
 * PartitionedCall / StatefulPartitionedCall / calls by function name get
 * the shapes of the body's return values for the call's input shapes, as
 * TF's shape refiner gives them (checked against TF 2.21's
 * `op.outputs[i].shape` for the same graphs); If without output_shapes
 * stays unknown and While keeps its inputs' shapes (TF does not look into
 * those bodies); recursion leaves outputs unknown; a body shape error is
 * the call's INVALID_ARGUMENT, as in TF. */
#include <stdio.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tfe_test.h"

#define CHECK_OK(s)                                              \
  do {                                                           \
    if (TF_GetCode(s) != TF_OK) TFE_FAIL("status: %s", TF_Message(s)); \
  } while (0)

static TF_Operation* placeholder(TF_Graph* g, const char* name,
                                 const int64_t* dims, int nd, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  if (nd >= 0) TF_SetAttrShape(d, "shape", dims, nd);
  return TF_FinishOperation(d, s);
}

static TF_Operation* const_ones(TF_Graph* g, const char* name, int64_t r,
                                int64_t c, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, (int64_t[]){r, c}, 2,
                                   (size_t)(r * c) * sizeof(float));
  float* p = (float*)TF_TensorData(t);
  TF_OperationDescription* d;
  TF_Operation* op;
  int64_t i;
  for (i = 0; i < r * c; i++) p[i] = 1.0f;
  d = TF_NewOperation(g, "Const", name);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrTensor(d, "value", t, s);
  op = TF_FinishOperation(d, s);
  TF_DeleteTensor(t);
  return op;
}

/* fn(x) = (MatMul(x, ones[3,4]), Reshape(x, [-1])); x has no shape. */
static TF_Function* make_matmul_fn(TF_Status* s) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = placeholder(g, "x", NULL, -1, s);
  TF_Operation* w = const_ones(g, "w", 3, 4, s);
  TF_OperationDescription* d = TF_NewOperation(g, "MatMul", "mm");
  TF_Operation *mm, *shp, *rs;
  TF_Tensor* st = TF_AllocateTensor(TF_INT32, (int64_t[]){1}, 1, 4);
  TF_Function* fn;
  TF_Output ins[1], outs[2];
  *(int32_t*)TF_TensorData(st) = -1;
  TF_AddInput(d, (TF_Output){x, 0});
  TF_AddInput(d, (TF_Output){w, 0});
  mm = TF_FinishOperation(d, s);
  d = TF_NewOperation(g, "Const", "shp");
  TF_SetAttrType(d, "dtype", TF_INT32);
  TF_SetAttrTensor(d, "value", st, s);
  shp = TF_FinishOperation(d, s);
  TF_DeleteTensor(st);
  d = TF_NewOperation(g, "Reshape", "rs");
  TF_AddInput(d, (TF_Output){x, 0});
  TF_AddInput(d, (TF_Output){shp, 0});
  rs = TF_FinishOperation(d, s);
  ins[0] = (TF_Output){x, 0};
  outs[0] = (TF_Output){mm, 0};
  outs[1] = (TF_Output){rs, 0};
  fn = TF_GraphToFunction(g, "mmfn", 0, -1, NULL, 1, ins, 2, outs, NULL,
                          NULL, NULL, s);
  TF_DeleteGraph(g);
  return fn;
}

static TF_Operation* call(TF_Graph* g, const char* type, const char* fname,
                          const char* name, TF_Operation* x, int nout,
                          TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_DataType tout[2] = {TF_FLOAT, TF_FLOAT};
  TF_DataType tin[1] = {TF_FLOAT};
  if (fname != NULL) {
    TF_AddInputList(d, (TF_Output[]){{x, 0}}, 1);
  } else {
    TF_AddInput(d, (TF_Output){x, 0});
  }
  if (fname != NULL) {
    TF_SetAttrFuncName(d, "f", fname, strlen(fname));
    TF_SetAttrTypeList(d, "Tin", tin, 1);
    TF_SetAttrTypeList(d, "Tout", tout, nout);
  }
  return TF_FinishOperation(d, s);
}

/* Shape of op:i as text "[5,4]", "[?,4]", "?" (unknown rank). */
static void shape_text(TF_Graph* g, TF_Operation* op, int i, char* buf,
                       size_t cap, TF_Status* s) {
  int64_t dims[8];
  int n = TF_GraphGetTensorNumDims(g, (TF_Output){op, i}, s), k;
  size_t off;
  if (n < 0) {
    snprintf(buf, cap, "?");
    return;
  }
  TF_GraphGetTensorShape(g, (TF_Output){op, i}, dims, n, s);
  off = (size_t)snprintf(buf, cap, "[");
  for (k = 0; k < n; k++) {
    if (dims[k] < 0) {
      off += (size_t)snprintf(buf + off, cap - off, "%s?", k ? "," : "");
    } else {
      off += (size_t)snprintf(buf + off, cap - off, "%s%lld", k ? "," : "",
                              (long long)dims[k]);
    }
  }
  snprintf(buf + off, cap - off, "]");
}

#define CHECK_SHAPE(g, op, i, want)                                    \
  do {                                                                 \
    char got_[128];                                                    \
    shape_text(g, op, i, got_, sizeof got_, s);                        \
    if (strcmp(got_, want) != 0) {                                     \
      TFE_FAIL("shape of %s:%d is %s, want %s", TF_OperationName(op), \
               i, got_, want);                                         \
    }                                                                  \
  } while (0)

TEST(partitioned_call_gets_body_shapes) {
  TF_Status* s = TF_NewStatus();
  TF_Function* fn = make_matmul_fn(s);
  TF_Graph* g = TF_NewGraph();
  TF_Operation *x, *c;
  CHECK_OK(s);
  TF_GraphCopyFunction(g, fn, NULL, s);
  CHECK_OK(s);
  /* Fully known: [5,3] -> [5,4] and [15]. */
  x = placeholder(g, "x", (int64_t[]){5, 3}, 2, s);
  c = call(g, "PartitionedCall", "mmfn", "pc", x, 2, s);
  CHECK_OK(s);
  CHECK_SHAPE(g, c, 0, "[5,4]");
  CHECK_SHAPE(g, c, 1, "[15]");
  /* Partly known: [?,3] -> [?,4], [?]. */
  x = placeholder(g, "x2", (int64_t[]){-1, 3}, 2, s);
  c = call(g, "StatefulPartitionedCall", "mmfn", "spc", x, 2, s);
  CHECK_OK(s);
  CHECK_SHAPE(g, c, 0, "[?,4]");
  CHECK_SHAPE(g, c, 1, "[?]");
  /* Unknown rank: MatMul still knows rank 2 and its columns. */
  x = placeholder(g, "x3", NULL, -1, s);
  c = call(g, "PartitionedCall", "mmfn", "pc3", x, 2, s);
  CHECK_OK(s);
  CHECK_SHAPE(g, c, 0, "[?,4]");
  CHECK_SHAPE(g, c, 1, "[?]");
  /* Called by the function's name. */
  x = placeholder(g, "x4", (int64_t[]){2, 3}, 2, s);
  c = call(g, "mmfn", NULL, "byname", x, 2, s);
  CHECK_OK(s);
  CHECK_SHAPE(g, c, 0, "[2,4]");
  CHECK_SHAPE(g, c, 1, "[6]");
  /* A function the library does not have: unknown, no error. */
  c = call(g, "PartitionedCall", "nosuchfn", "missing", x, 2, s);
  CHECK_OK(s);
  CHECK_SHAPE(g, c, 0, "?");
  TF_DeleteGraph(g);
  TF_DeleteFunction(fn);
  TF_DeleteStatus(s);
}

TEST(body_shape_error_is_the_calls_error) {
  /* TF: importing a call whose body's MatMul gets [?,2] x [3,4] fails with
   * the inner node's "Dimensions must be equal" message. */
  TF_Status* s = TF_NewStatus();
  TF_Function* fn = make_matmul_fn(s);
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x;
  CHECK_OK(s);
  TF_GraphCopyFunction(g, fn, NULL, s);
  x = placeholder(g, "x", (int64_t[]){-1, 2}, 2, s);
  CHECK_OK(s);
  CHECK(call(g, "PartitionedCall", "mmfn", "pc", x, 2, s) == NULL);
  CHECK_EQ_INT(TF_GetCode(s), TF_INVALID_ARGUMENT);
  CHECK(strstr(TF_Message(s), "Dimensions must be equal, but are 2 and 3") !=
        NULL);
  if (strstr(TF_Message(s), "{{node mm") == NULL) TFE_FAIL("%s", TF_Message(s));
  TF_SetStatus(s, TF_OK, "");
  CHECK(call(g, "mmfn", NULL, "byname", x, 2, s) == NULL);
  CHECK_EQ_INT(TF_GetCode(s), TF_INVALID_ARGUMENT);
  TF_DeleteGraph(g);
  TF_DeleteFunction(fn);
  TF_DeleteStatus(s);
}

TEST(nested_calls_and_recursion) {
  TF_Status* s = TF_NewStatus();
  TF_Function* fn = make_matmul_fn(s);
  TF_Graph* g = TF_NewGraph();
  TF_Graph* og = TF_NewGraph();
  TF_Operation *x, *c, *id;
  TF_Function *outer, *rec;
  CHECK_OK(s);
  /* outer(x) = Identity(PartitionedCall[mmfn](x):0): nested inference. */
  TF_GraphCopyFunction(og, fn, NULL, s);
  x = placeholder(og, "x", NULL, -1, s);
  c = call(og, "PartitionedCall", "mmfn", "inner", x, 2, s);
  CHECK_OK(s);
  outer = TF_GraphToFunction(og, "outerfn", 0, -1, NULL, 1,
                             (TF_Output[]){{x, 0}}, 1,
                             (TF_Output[]){{c, 0}}, NULL, NULL, NULL, s);
  CHECK_OK(s);
  TF_DeleteGraph(og);
  /* rec(x) = PartitionedCall[rec](x): calls itself. */
  og = TF_NewGraph();
  x = placeholder(og, "x", NULL, -1, s);
  c = call(og, "PartitionedCall", "recfn", "self", x, 1, s);
  CHECK_OK(s);
  id = NULL;
  {
    TF_OperationDescription* d = TF_NewOperation(og, "Identity", "id");
    TF_AddInput(d, (TF_Output){c, 0});
    id = TF_FinishOperation(d, s);
  }
  CHECK_OK(s);
  rec = TF_GraphToFunction(og, "recfn", 0, -1, NULL, 1,
                           (TF_Output[]){{x, 0}}, 1, (TF_Output[]){{id, 0}},
                           NULL, NULL, NULL, s);
  CHECK_OK(s);
  TF_DeleteGraph(og);

  TF_GraphCopyFunction(g, fn, NULL, s);
  TF_GraphCopyFunction(g, outer, NULL, s);
  TF_GraphCopyFunction(g, rec, NULL, s);
  CHECK_OK(s);
  x = placeholder(g, "x", (int64_t[]){7, 3}, 2, s);
  c = call(g, "PartitionedCall", "outerfn", "outer", x, 1, s);
  CHECK_OK(s);
  CHECK_SHAPE(g, c, 0, "[7,4]");
  c = call(g, "PartitionedCall", "recfn", "rec", x, 1, s);
  CHECK_OK(s);
  CHECK_SHAPE(g, c, 0, "?");
  TF_DeleteGraph(g);
  TF_DeleteFunction(fn);
  TF_DeleteFunction(outer);
  TF_DeleteFunction(rec);
  TF_DeleteStatus(s);
}

TEST(if_and_while_do_not_look_into_bodies) {
  /* TF: If/StatelessIf without output_shapes are unknown even when both
   * branches give [2,3]; While keeps its inputs' shapes. */
  TF_Status* s = TF_NewStatus();
  TF_Function* fn = make_matmul_fn(s);
  TF_Graph* g = TF_NewGraph();
  TF_Operation *x, *p, *op;
  TF_OperationDescription* d;
  TF_DataType t2[2] = {TF_FLOAT, TF_FLOAT};
  CHECK_OK(s);
  TF_GraphCopyFunction(g, fn, NULL, s);
  x = placeholder(g, "x", (int64_t[]){5, 3}, 2, s);
  d = TF_NewOperation(g, "Placeholder", "p");
  TF_SetAttrType(d, "dtype", TF_BOOL);
  TF_SetAttrShape(d, "shape", NULL, 0);
  p = TF_FinishOperation(d, s);
  d = TF_NewOperation(g, "StatelessIf", "if");
  TF_AddInput(d, (TF_Output){p, 0});
  TF_AddInputList(d, (TF_Output[]){{x, 0}}, 1);
  TF_SetAttrFuncName(d, "then_branch", "mmfn", 4);
  TF_SetAttrFuncName(d, "else_branch", "mmfn", 4);
  TF_SetAttrTypeList(d, "Tin", t2, 1);
  TF_SetAttrTypeList(d, "Tout", t2, 2);
  op = TF_FinishOperation(d, s);
  CHECK_OK(s);
  CHECK_SHAPE(g, op, 0, "?");
  d = TF_NewOperation(g, "StatelessWhile", "while");
  TF_AddInputList(d, (TF_Output[]){{x, 0}}, 1);
  TF_SetAttrFuncName(d, "cond", "mmfn", 4);
  TF_SetAttrFuncName(d, "body", "mmfn", 4);
  TF_SetAttrTypeList(d, "T", t2, 1);
  op = TF_FinishOperation(d, s);
  CHECK_OK(s);
  CHECK_SHAPE(g, op, 0, "[5,3]");
  TF_DeleteGraph(g);
  TF_DeleteFunction(fn);
  TF_DeleteStatus(s);
}

static TF_Operation* int_const(TF_Graph* g, const char* name,
                               const int32_t* v, int n, int vector,
                               TF_Status* s) {
  int64_t dims[1] = {n};
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, dims, vector ? 1 : 0,
                                   (size_t)n * sizeof(int32_t));
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_Operation* op;
  if (n > 0) memcpy(TF_TensorData(t), v, (size_t)n * sizeof(int32_t));
  TF_SetAttrType(d, "dtype", TF_INT32);
  TF_SetAttrTensor(d, "value", t, s);
  op = TF_FinishOperation(d, s);
  TF_DeleteTensor(t);
  return op;
}

TEST(constant_inputs_reach_the_body) {
  /* TF: f(n) = fill(n, 1.0) called with the constant [3] has shape [3];
   * with an unknown vector of one element [?]. */
  TF_Status* s = TF_NewStatus();
  TF_Graph* fg = TF_NewGraph();
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d;
  TF_Operation *n, *zero, *fill, *c;
  TF_Function* fn;
  TF_DataType ti[1] = {TF_INT32}, to[1] = {TF_FLOAT};
  d = TF_NewOperation(fg, "Placeholder", "n");
  TF_SetAttrType(d, "dtype", TF_INT32);
  n = TF_FinishOperation(d, s);
  zero = const_ones(fg, "one", 1, 1, s);
  d = TF_NewOperation(fg, "Reshape", "scalar");
  TF_AddInput(d, (TF_Output){zero, 0});
  TF_AddInput(d, (TF_Output){int_const(fg, "e", NULL, 0, 1, s), 0});
  zero = TF_FinishOperation(d, s);
  d = TF_NewOperation(fg, "Fill", "fill");
  TF_AddInput(d, (TF_Output){n, 0});
  TF_AddInput(d, (TF_Output){zero, 0});
  fill = TF_FinishOperation(d, s);
  CHECK_OK(s);
  fn = TF_GraphToFunction(fg, "zerosfn", 0, -1, NULL, 1,
                          (TF_Output[]){{n, 0}}, 1, (TF_Output[]){{fill, 0}},
                          NULL, NULL, NULL, s);
  CHECK_OK(s);
  TF_GraphCopyFunction(g, fn, NULL, s);
  CHECK_OK(s);
  n = int_const(g, "three", (int32_t[]){3}, 1, 1, s);
  d = TF_NewOperation(g, "PartitionedCall", "pc");
  TF_AddInputList(d, (TF_Output[]){{n, 0}}, 1);
  TF_SetAttrFuncName(d, "f", "zerosfn", 7);
  TF_SetAttrTypeList(d, "Tin", ti, 1);
  TF_SetAttrTypeList(d, "Tout", to, 1);
  c = TF_FinishOperation(d, s);
  CHECK_OK(s);
  CHECK_SHAPE(g, c, 0, "[3]");
  d = TF_NewOperation(g, "Placeholder", "m");
  TF_SetAttrType(d, "dtype", TF_INT32);
  TF_SetAttrShape(d, "shape", (int64_t[]){1}, 1);
  n = TF_FinishOperation(d, s);
  d = TF_NewOperation(g, "PartitionedCall", "pc2");
  TF_AddInputList(d, (TF_Output[]){{n, 0}}, 1);
  TF_SetAttrFuncName(d, "f", "zerosfn", 7);
  TF_SetAttrTypeList(d, "Tin", ti, 1);
  TF_SetAttrTypeList(d, "Tout", to, 1);
  c = TF_FinishOperation(d, s);
  CHECK_OK(s);
  CHECK_SHAPE(g, c, 0, "[?]");
  TF_DeleteGraph(fg);
  TF_DeleteGraph(g);
  TF_DeleteFunction(fn);
  TF_DeleteStatus(s);
}

TEST(keras_saved_model_call_outputs_have_shapes) {
  /* What TF 2.21 gives for every call op of the exported models after
   * loading them (tf.compat.v1.saved_model.loader.load, op.outputs). */
  static const struct {
    const char* model;
    const char* op;
    int index;
    const char* shape;
  } kWant[] = {
      {"keras_mlp", "StatefulPartitionedCall", 0, "[?,4]"},
      {"keras_mlp", "StatefulPartitionedCall_1", 0, "[?,4]"},
      {"keras_mlp", "StatefulPartitionedCall_2", 0, "[]"},
      {"keras_cnn_bn", "StatefulPartitionedCall_1", 0, "[?,5]"},
      {"keras_lstm", "StatefulPartitionedCall_1", 0, "[?,3]"},
      {"keras_transformer", "StatefulPartitionedCall_1", 0, "[?,2]"},
      {"module_cond_while", "StatefulPartitionedCall", 0, "[]"},
      {"module_cond_while", "StatefulPartitionedCall", 1, "[4]"},
      {"module_cond_while", "StatefulPartitionedCall_1", 1, "[]"},
      {"module_cond_while", "StatefulPartitionedCall_1", 2, "[?,4]"},
  };
  TF_Status* s = TF_NewStatus();
  const char* tags[] = {"serve"};
  size_t i;
  for (i = 0; i < sizeof kWant / sizeof kWant[0]; i++) {
    char dir[512];
    TF_Graph* g = TF_NewGraph();
    TF_SessionOptions* o = TF_NewSessionOptions();
    TF_Session* sess;
    TF_Operation* op;
    snprintf(dir, sizeof dir, "%s/saved_models/%s", TFE_TEST_DATA_DIR,
             kWant[i].model);
    sess = TF_LoadSessionFromSavedModel(o, NULL, dir, tags, 1, g, NULL, s);
    CHECK_OK(s);
    op = TF_GraphOperationByName(g, kWant[i].op);
    CHECK(op != NULL);
    CHECK_SHAPE(g, op, kWant[i].index, kWant[i].shape);
    TF_CloseSession(sess, s);
    TF_DeleteSession(sess, s);
    TF_DeleteSessionOptions(o);
    TF_DeleteGraph(g);
  }
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
