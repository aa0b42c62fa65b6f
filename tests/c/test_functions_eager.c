/* Functions in eager mode: TFE_ContextAddFunction / AddFunctionDef /
 * HasFunction / RemoveFunction / GetFunctionDef / GetFunction, calling a
 * function by name with TFE_NewOp + TFE_Execute (also repeatedly, on an
 * asynchronous executor, and from the functional ops PartitionedCall, If
 * and While), and the errors of each. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tfe_test.h"

static TF_Operation* placeholder(TF_Graph* g, const char* name,
                                 TF_DataType t) {
  TF_Status* s = TF_NewStatus();
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_Operation* op;
  TF_SetAttrType(d, "dtype", t);
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  return op;
}

static TF_Operation* binary(TF_Graph* g, const char* op_type,
                            const char* name, TF_Output a, TF_Output b) {
  TF_Status* s = TF_NewStatus();
  TF_OperationDescription* d = TF_NewOperation(g, op_type, name);
  TF_Operation* op;
  TF_AddInput(d, a);
  TF_AddInput(d, b);
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  return op;
}

static TF_Output out0(TF_Operation* op) {
  TF_Output o;
  o.oper = op;
  o.index = 0;
  return o;
}

/* f(a, b) = (a + b) * a */
static TF_Function* make_add_mul(const char* name) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = placeholder(g, "a", TF_FLOAT);
  TF_Operation* b = placeholder(g, "b", TF_FLOAT);
  TF_Operation* sum = binary(g, "AddV2", "sum", out0(a), out0(b));
  TF_Operation* prod = binary(g, "Mul", "prod", out0(sum), out0(a));
  TF_Output ins[2] = {out0(a), out0(b)};
  TF_Output outs[1] = {out0(prod)};
  TF_Function* f = TF_GraphToFunction(g, name, 0, -1, NULL, 2, ins, 1, outs,
                                      NULL, NULL, NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return f;
}

/* g(i) = i < 10 (int32 -> bool) and h(i) = i + 1 */
static TF_Function* make_unary(const char* name, const char* op_type,
                               int32_t k) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i = placeholder(g, "i", TF_INT32);
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
  TF_OperationDescription* d;
  TF_Operation *c, *r;
  TF_Output ins[1], outs[1];
  TF_Function* f;
  *(int32_t*)TF_TensorData(t) = k;
  d = TF_NewOperation(g, "Const", "k");
  TF_SetAttrType(d, "dtype", TF_INT32);
  TF_SetAttrTensor(d, "value", t, s);
  c = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  r = binary(g, op_type, "r", out0(i), out0(c));
  ins[0] = out0(i);
  outs[0] = out0(r);
  f = TF_GraphToFunction(g, name, 0, -1, NULL, 1, ins, 1, outs, NULL, NULL,
                         NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return f;
}

static TFE_TensorHandle* fscalar(float v) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  TFE_TensorHandle* h;
  *(float*)TF_TensorData(t) = v;
  h = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
  return h;
}

static TFE_TensorHandle* iscalar(int32_t v) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
  TFE_TensorHandle* h;
  *(int32_t*)TF_TensorData(t) = v;
  h = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
  return h;
}

static float fvalue(TFE_TensorHandle* h) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  float v;
  CHECK_CODE(s, TF_OK);
  v = *(float*)TF_TensorData(t);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
  return v;
}

static int32_t ivalue(TFE_TensorHandle* h) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  int32_t v;
  CHECK_CODE(s, TF_OK);
  v = *(int32_t*)TF_TensorData(t);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
  return v;
}

static TFE_Context* new_ctx(int async) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  TFE_ContextOptionsSetAsync(o, (unsigned char)async);
  ctx = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  TF_DeleteStatus(s);
  return ctx;
}

/* Calls add_mul-style function `name` on (a, b); returns the result. */
static float call2(TFE_Context* ctx, const char* name, float a, float b) {
  TF_Status* s = TF_NewStatus();
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  TFE_TensorHandle* x = fscalar(a);
  TFE_TensorHandle* y = fscalar(b);
  TFE_TensorHandle* r[1] = {NULL};
  int n = 1;
  float v;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, y, s);
  TFE_Execute(op, r, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 1);
  v = fvalue(r[0]);
  TFE_DeleteTensorHandle(r[0]);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteOp(op);
  TF_DeleteStatus(s);
  return v;
}

TEST(add_call_remove) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(0);
  TF_Function* f = make_add_mul("eager_add_mul");
  int i;
  CHECK_EQ_INT(TFE_ContextHasFunction(ctx, "eager_add_mul"), 0);
  TFE_ContextAddFunction(ctx, f, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_ContextHasFunction(ctx, "eager_add_mul"), 1);
  CHECK(call2(ctx, "eager_add_mul", 3, 4) == 21.0f);
  /* Repeated calls reuse the instantiated function. */
  for (i = 0; i < 100; i++) {
    CHECK(call2(ctx, "eager_add_mul", (float)i, 1) == (float)((i + 1) * i));
  }
  /* Adding it again counts: two removes take it out. */
  TFE_ContextAddFunction(ctx, f, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextRemoveFunction(ctx, "eager_add_mul", s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_ContextHasFunction(ctx, "eager_add_mul"), 1);
  TFE_ContextRemoveFunction(ctx, "eager_add_mul", s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_ContextHasFunction(ctx, "eager_add_mul"), 0);
  TFE_ContextRemoveFunction(ctx, "eager_add_mul", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Tried to remove non-existent function 'eager_add_mul'.");
  {
    TFE_Op* op = TFE_NewOp(ctx, "eager_add_mul", s);
    CHECK(op == NULL);
    CHECK_CODE(s, TF_NOT_FOUND);
    CHECK_STR_CONTAINS(TF_Message(s), "Op type not registered 'eager_add_mul'");
  }
  /* Another context never saw it. */
  {
    TFE_Context* other = new_ctx(0);
    CHECK_EQ_INT(TFE_ContextHasFunction(other, "eager_add_mul"), 0);
    TFE_DeleteContext(other);
  }
  TF_DeleteFunction(f);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(add_function_def_and_get) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(0);
  TF_Function* f = make_add_mul("from_bytes");
  TF_Buffer* b = TF_NewBuffer();
  TF_Buffer* back = TF_NewBuffer();
  TF_Function* copy;
  TF_FunctionToFunctionDef(f, b, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextAddFunctionDef(ctx, (const char*)b->data, b->length, s);
  CHECK_CODE(s, TF_OK);
  CHECK(call2(ctx, "from_bytes", 1, 1) == 2.0f);
  TFE_ContextGetFunctionDef(ctx, "from_bytes", back, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(back->length, b->length);
  CHECK(memcmp(back->data, b->data, b->length) == 0);
  TFE_ContextGetFunctionDef(ctx, "nope", back, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s), "Unable to find FunctionDef with name: nope");
  copy = TFE_ContextGetFunction(ctx, "from_bytes", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TF_FunctionName(copy), "from_bytes");
  TF_DeleteFunction(copy);
  TFE_ContextAddFunctionDef(ctx, "\xff\xff", 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(b);
  TF_DeleteBuffer(back);
  TF_DeleteFunction(f);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(add_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(0);
  TF_Function* f = make_add_mul("clash");
  TF_Function* g = make_unary("clash", "AddV2", 1);
  TFE_ContextAddFunction(ctx, f, s);
  CHECK_CODE(s, TF_OK);
  TFE_ContextAddFunction(ctx, g, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Cannot add function 'clash' because a different function "
               "with the same name already exists.");
  TFE_ContextAddFunction(ctx, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextAddFunction(NULL, f, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_ContextHasFunction(NULL, "clash"), 0);
  /* A call with the wrong input dtype. */
  {
    TFE_Op* op = TFE_NewOp(ctx, "clash", s);
    TFE_TensorHandle* x = iscalar(1);
    TFE_TensorHandle* r[1];
    int n = 1;
    TFE_OpAddInput(op, x, s);
    TFE_OpAddInput(op, x, s);
    TFE_Execute(op, r, &n, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TFE_DeleteTensorHandle(x);
    TFE_DeleteOp(op);
  }
  TF_DeleteFunction(f);
  TF_DeleteFunction(g);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(async_executor_call) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(1);
  TF_Function* f = make_add_mul("async_fn");
  TFE_ContextAddFunction(ctx, f, s);
  CHECK_CODE(s, TF_OK);
  CHECK(call2(ctx, "async_fn", 2, 3) == 10.0f);
  CHECK(call2(ctx, "async_fn", 1, 0) == 1.0f);
  TF_DeleteFunction(f);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(eager_partitioned_call_if_while) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(0);
  TF_Function* f = make_add_mul("pc_add_mul");
  TF_Function* lt = make_unary("lt10", "Less", 10);
  TF_Function* inc = make_unary("inc", "AddV2", 1);
  TF_Function* dec = make_unary("dec", "Sub", 1);
  TF_DataType tf1[1] = {TF_FLOAT}, ti1[1] = {TF_INT32};
  TFE_TensorHandle* r[2];
  int n;
  TFE_ContextAddFunction(ctx, f, s);
  TFE_ContextAddFunction(ctx, lt, s);
  TFE_ContextAddFunction(ctx, inc, s);
  TFE_ContextAddFunction(ctx, dec, s);
  CHECK_CODE(s, TF_OK);
  /* PartitionedCall(f=pc_add_mul)(2, 3) */
  {
    TFE_Op* op = TFE_NewOp(ctx, "PartitionedCall", s);
    TFE_TensorHandle* in[2] = {fscalar(2), fscalar(3)};
    TFE_OpAddInputList(op, in, 2, s);
    TFE_OpSetAttrTypeList(op, "Tout", tf1, 1);
    TFE_OpSetAttrFunctionName(op, "f", "pc_add_mul", 10);
    n = 1;
    TFE_Execute(op, r, &n, s);
    CHECK_CODE(s, TF_OK);
    CHECK(fvalue(r[0]) == 10.0f);
    TFE_DeleteTensorHandle(r[0]);
    TFE_DeleteTensorHandle(in[0]);
    TFE_DeleteTensorHandle(in[1]);
    TFE_DeleteOp(op);
  }
  /* If(cond, i): inc when true, dec when false. */
  {
    int c;
    for (c = 0; c < 2; c++) {
      TFE_Op* op = TFE_NewOp(ctx, "If", s);
      TF_Tensor* bt = TF_AllocateTensor(TF_BOOL, NULL, 0, 1);
      TFE_TensorHandle* cond;
      TFE_TensorHandle* in[1] = {iscalar(5)};
      *(unsigned char*)TF_TensorData(bt) = (unsigned char)c;
      cond = TFE_NewTensorHandle(bt, s);
      TF_DeleteTensor(bt);
      TFE_OpAddInput(op, cond, s);
      TFE_OpAddInputList(op, in, 1, s);
      TFE_OpSetAttrTypeList(op, "Tout", ti1, 1);
      TFE_OpSetAttrFunctionName(op, "then_branch", "inc", 3);
      TFE_OpSetAttrFunctionName(op, "else_branch", "dec", 3);
      n = 1;
      TFE_Execute(op, r, &n, s);
      CHECK_CODE(s, TF_OK);
      CHECK_EQ_INT(ivalue(r[0]), c ? 6 : 4);
      TFE_DeleteTensorHandle(r[0]);
      TFE_DeleteTensorHandle(in[0]);
      TFE_DeleteTensorHandle(cond);
      TFE_DeleteOp(op);
    }
  }
  /* While(lt10, inc)(i) for i = 12 (0 iterations), 9 (1), 0 (10). */
  {
    const int32_t starts[3] = {12, 9, 0};
    const int32_t want[3] = {12, 10, 10};
    int k;
    for (k = 0; k < 3; k++) {
      TFE_Op* op = TFE_NewOp(ctx, "StatelessWhile", s);
      TFE_TensorHandle* in[1] = {iscalar(starts[k])};
      TFE_OpAddInputList(op, in, 1, s);
      TFE_OpSetAttrFunctionName(op, "cond", "lt10", 4);
      TFE_OpSetAttrFunctionName(op, "body", "inc", 3);
      n = 1;
      TFE_Execute(op, r, &n, s);
      CHECK_CODE(s, TF_OK);
      CHECK_EQ_INT(ivalue(r[0]), want[k]);
      TFE_DeleteTensorHandle(r[0]);
      TFE_DeleteTensorHandle(in[0]);
      TFE_DeleteOp(op);
    }
  }
  /* A call of an undefined function. */
  {
    TFE_Op* op = TFE_NewOp(ctx, "PartitionedCall", s);
    TFE_TensorHandle* in[1] = {iscalar(1)};
    TFE_OpAddInputList(op, in, 1, s);
    TFE_OpSetAttrTypeList(op, "Tout", ti1, 1);
    TFE_OpSetAttrFunctionName(op, "f", "missing_fn", 10);
    n = 1;
    TFE_Execute(op, r, &n, s);
    CHECK_CODE(s, TF_NOT_FOUND);
    CHECK_STR_CONTAINS(TF_Message(s), "missing_fn");
    TFE_DeleteTensorHandle(in[0]);
    TFE_DeleteOp(op);
  }
  TF_DeleteFunction(f);
  TF_DeleteFunction(lt);
  TF_DeleteFunction(inc);
  TF_DeleteFunction(dec);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
