/* Functions in eager mode: TFE_ContextAddFunction / AddFunctionDef /
 * HasFunction / RemoveFunction / GetFunctionDef / GetFunction, calling a
 * function by name with TFE_NewOp + TFE_Execute (also repeatedly, on an
 * asynchronous executor, and from the functional ops PartitionedCall, If
 * and While), and the errors of each. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe/tfe.h"
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

/* If's condition follows TF's truth rules: a scalar's value (non-zero
 * number, non-empty string), any other shape is true when non-empty. */
static int32_t run_if(TFE_Context* ctx, TF_Tensor* cond_t) {
  TF_Status* s = TF_NewStatus();
  TFE_Op* op = TFE_NewOp(ctx, "StatelessIf", s);
  TFE_TensorHandle* cond = TFE_NewTensorHandle(cond_t, s);
  TFE_TensorHandle* in[1] = {iscalar(5)};
  TFE_TensorHandle* r[1];
  TF_DataType ti1[1] = {TF_INT32};
  int n = 1;
  int32_t v;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, cond, s);
  TFE_OpAddInputList(op, in, 1, s);
  TFE_OpSetAttrTypeList(op, "Tout", ti1, 1);
  TFE_OpSetAttrFunctionName(op, "then_branch", "inc", 3);
  TFE_OpSetAttrFunctionName(op, "else_branch", "dec", 3);
  TFE_Execute(op, r, &n, s);
  CHECK_CODE(s, TF_OK);
  v = ivalue(r[0]);
  TFE_DeleteTensorHandle(r[0]);
  TFE_DeleteTensorHandle(in[0]);
  TFE_DeleteTensorHandle(cond);
  TFE_DeleteOp(op);
  TF_DeleteTensor(cond_t);
  TF_DeleteStatus(s);
  return v;
}

static TF_Tensor* string_scalar(const char* v) {
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
  TF_TString* p = (TF_TString*)TF_TensorData(t);
  TF_StringInit(p);
  TF_StringCopy(p, v, strlen(v));
  return t;
}

TEST(if_condition_truth_values) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(0);
  TF_Function* inc = make_unary("inc", "AddV2", 1);
  TF_Function* dec = make_unary("dec", "Sub", 1);
  TF_Tensor* t;
  int64_t dims[1];
  TFE_ContextAddFunction(ctx, inc, s);
  TFE_ContextAddFunction(ctx, dec, s);
  CHECK_CODE(s, TF_OK);
  t = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
  *(int32_t*)TF_TensorData(t) = -3;
  CHECK_EQ_INT(run_if(ctx, t), 6);
  t = TF_AllocateTensor(TF_FLOAT, NULL, 0, 4);
  *(float*)TF_TensorData(t) = 0.0f;
  CHECK_EQ_INT(run_if(ctx, t), 4);
  CHECK_EQ_INT(run_if(ctx, string_scalar("yes")), 6);
  CHECK_EQ_INT(run_if(ctx, string_scalar("")), 4);
  dims[0] = 2;
  t = TF_AllocateTensor(TF_BOOL, dims, 1, 2);
  memset(TF_TensorData(t), 0, 2); /* non-empty: true whatever the values */
  CHECK_EQ_INT(run_if(ctx, t), 6);
  dims[0] = 0;
  t = TF_AllocateTensor(TF_FLOAT, dims, 1, 0);
  CHECK_EQ_INT(run_if(ctx, t), 4);
  TF_DeleteFunction(inc);
  TF_DeleteFunction(dec);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Several threads call one function at once (its instance is made once
 * and shared); clearing the caches in between makes a fresh one. */

typedef struct thread_arg {
  TFE_Context* ctx;
  int bad;
} thread_arg;

static void* call_many(void* p) {
  thread_arg* a = (thread_arg*)p;
  int i;
  for (i = 0; i < 200; i++) {
    if (call2(a->ctx, "threaded", (float)i, 2) != (float)((i + 2) * i)) {
      a->bad++;
    }
  }
  return NULL;
}

TEST(concurrent_calls_and_clear_caches) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(0);
  TF_Function* f = make_add_mul("threaded");
  pthread_t th[4];
  thread_arg args[4];
  int i;
  TFE_ContextAddFunction(ctx, f, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 4; i++) {
    args[i].ctx = ctx;
    args[i].bad = 0;
    CHECK(pthread_create(&th[i], NULL, call_many, &args[i]) == 0);
  }
  for (i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    CHECK_EQ_INT(args[i].bad, 0);
  }
  TFE_ContextClearCaches(ctx);
  CHECK(call2(ctx, "threaded", 1, 1) == 2.0f);
  TF_DeleteFunction(f);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* A function whose body is a v1 loop (Enter/Merge/Switch/NextIteration/
 * Exit from TF_NewWhile): the NextIteration -> Merge back edges are the
 * one cycle a FunctionDef body may have. while (i < 5) { i++; x *= 2; } */
static TF_Function* v1_loop_function(void) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i0 = placeholder(g, "i", TF_INT32);
  TF_Operation* x0 = placeholder(g, "x", TF_INT32);
  TF_Output ins[2] = {out0(i0), out0(x0)}, outs[2];
  TF_WhileParams tmp = TF_NewWhile(g, ins, 2, s);
  TF_WhileParams* p = (TF_WhileParams*)malloc(sizeof(*p));
  TF_Function* f;
  CHECK_CODE(s, TF_OK);
  memcpy((void*)p, &tmp, sizeof(*p));
  {
    TF_Graph* cg = p->cond_graph;
    TF_Graph* bg = p->body_graph;
    TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
    TF_OperationDescription* d;
    TF_Operation *lim, *one, *two;
    *(int32_t*)TF_TensorData(t) = 5;
    d = TF_NewOperation(cg, "Const", "lim");
    TF_SetAttrType(d, "dtype", TF_INT32);
    TF_SetAttrTensor(d, "value", t, s);
    lim = TF_FinishOperation(d, s);
    *(int32_t*)TF_TensorData(t) = 1;
    d = TF_NewOperation(bg, "Const", "one");
    TF_SetAttrType(d, "dtype", TF_INT32);
    TF_SetAttrTensor(d, "value", t, s);
    one = TF_FinishOperation(d, s);
    *(int32_t*)TF_TensorData(t) = 2;
    d = TF_NewOperation(bg, "Const", "two");
    TF_SetAttrType(d, "dtype", TF_INT32);
    TF_SetAttrTensor(d, "value", t, s);
    two = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteTensor(t);
    p->cond_output = out0(binary(cg, "Less", "lt", p->cond_inputs[0],
                                 out0(lim)));
    p->body_outputs[0] = out0(binary(bg, "AddV2", "inc", p->body_inputs[0],
                                     out0(one)));
    p->body_outputs[1] = out0(binary(bg, "Mul", "dbl", p->body_inputs[1],
                                     out0(two)));
  }
  p->name = "loop";
  TF_FinishWhile(p, s, outs);
  CHECK_CODE(s, TF_OK);
  free((void*)p);
  f = TF_GraphToFunction(g, "v1_loop", 0, -1, NULL, 2, ins, 2, outs, NULL,
                         NULL, NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return f;
}

TEST(v1_loop_in_function_body) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(0);
  TF_Function* f = v1_loop_function();
  const int32_t start_i[3] = {5, 4, 0}, start_x[3] = {1, 3, 1};
  const int32_t want_x[3] = {1, 6, 32};
  int k;
  TFE_ContextAddFunction(ctx, f, s);
  CHECK_CODE(s, TF_OK);
  for (k = 0; k < 3; k++) {
    TFE_Op* op = TFE_NewOp(ctx, "v1_loop", s);
    TFE_TensorHandle* a = iscalar(start_i[k]);
    TFE_TensorHandle* b = iscalar(start_x[k]);
    TFE_TensorHandle* r[2];
    int n = 2;
    TFE_OpAddInput(op, a, s);
    TFE_OpAddInput(op, b, s);
    TFE_Execute(op, r, &n, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(ivalue(r[0]), 5);
    CHECK_EQ_INT(ivalue(r[1]), want_x[k]);
    TFE_DeleteTensorHandle(r[0]);
    TFE_DeleteTensorHandle(r[1]);
    TFE_DeleteTensorHandle(a);
    TFE_DeleteTensorHandle(b);
    TFE_DeleteOp(op);
  }
  TF_DeleteFunction(f);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Fault injection: the n-th allocation (and every later one) fails, for
 * n = 0, 1, ... until the workload (a context, a FunctionDef added from
 * bytes, a call by name, a StatelessWhile over functions) completes.
 * Every run ends with RESOURCE_EXHAUSTED or the right values, never a
 * crash; ASan checks that nothing leaks or is used after free. */
static int64_t g_fi_point = -1; /* the allocation that fails (messages) */

static TF_Code fi_workload(const TF_Buffer* fdef, const TF_Buffer* lt,
                           const TF_Buffer* inc, int* checked) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o;
  TFE_Context* ctx = NULL;
  TFE_Op* op = NULL;
  TFE_TensorHandle *x = NULL, *r[1] = {NULL};
  TF_Tensor* t = NULL;
  TF_Code code = TF_OK;
  int n = 1;
  if (s == NULL) return TF_RESOURCE_EXHAUSTED;
  o = TFE_NewContextOptions();
  if (o == NULL) {
    TF_DeleteStatus(s);
    return TF_RESOURCE_EXHAUSTED;
  }
  ctx = TFE_NewContext(o, s);
  TFE_DeleteContextOptions(o);
  if (TF_GetCode(s) != TF_OK) goto done;
  TFE_ContextAddFunctionDef(ctx, (const char*)fdef->data, fdef->length, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  TFE_ContextAddFunctionDef(ctx, (const char*)lt->data, lt->length, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  TFE_ContextAddFunctionDef(ctx, (const char*)inc->data, inc->length, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  if (t == NULL) {
    code = TF_RESOURCE_EXHAUSTED;
    goto done;
  }
  *(float*)TF_TensorData(t) = 3.0f;
  x = TFE_NewTensorHandle(t, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  op = TFE_NewOp(ctx, "fi_add_mul", s);
  if (TF_GetCode(s) != TF_OK) goto done;
  TFE_OpAddInput(op, x, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  TFE_OpAddInput(op, x, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  TFE_Execute(op, r, &n, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  {
    TF_Tensor* v = TFE_TensorHandleResolve(r[0], s);
    if (TF_GetCode(s) != TF_OK) goto done;
    CHECK(*(float*)TF_TensorData(v) == 18.0f);
    TF_DeleteTensor(v);
  }
  TFE_DeleteOp(op);
  op = NULL;
  TFE_DeleteTensorHandle(r[0]);
  r[0] = NULL;
  /* StatelessWhile(lt10, inc)(7) = 10 */
  TFE_DeleteTensorHandle(x);
  TF_DeleteTensor(t);
  t = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
  if (t == NULL) {
    code = TF_RESOURCE_EXHAUSTED;
    x = NULL;
    goto done;
  }
  *(int32_t*)TF_TensorData(t) = 7;
  x = TFE_NewTensorHandle(t, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  op = TFE_NewOp(ctx, "StatelessWhile", s);
  if (TF_GetCode(s) != TF_OK) goto done;
  TFE_OpAddInputList(op, &x, 1, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  TFE_OpSetAttrFunctionName(op, "cond", "lt10", 4);
  TFE_OpSetAttrFunctionName(op, "body", "inc", 3);
  n = 1;
  TFE_Execute(op, r, &n, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  {
    TF_Tensor* v = TFE_TensorHandleResolve(r[0], s);
    if (TF_GetCode(s) != TF_OK) goto done;
    CHECK_EQ_INT(*(int32_t*)TF_TensorData(v), 10);
    TF_DeleteTensor(v);
  }
  (*checked)++;
done:
  if (code == TF_OK) code = TF_GetCode(s);
  if (code != TF_OK && code != TF_RESOURCE_EXHAUSTED) {
    TFE_FAIL("failing allocation %lld: unexpected error %d: %s",
             (long long)g_fi_point, (int)code, TF_Message(s));
  }
  if (r[0] != NULL) TFE_DeleteTensorHandle(r[0]);
  if (op != NULL) TFE_DeleteOp(op);
  if (x != NULL) TFE_DeleteTensorHandle(x);
  if (t != NULL) TF_DeleteTensor(t);
  if (ctx != NULL) TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  return code;
}

static TF_Buffer* fdef_of(TF_Function* f) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TF_NewBuffer();
  TF_FunctionToFunctionDef(f, b, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteFunction(f);
  TF_DeleteStatus(s);
  return b;
}

TEST(fault_injection_sweep) {
  TF_Buffer* fdef = fdef_of(make_add_mul("fi_add_mul"));
  TF_Buffer* lt = fdef_of(make_unary("lt10", "Less", 10));
  TF_Buffer* inc = fdef_of(make_unary("inc", "AddV2", 1));
  int checked = 0, ok_runs = 0;
  int64_t n;
  /* Warm: one-time registrations happen outside the sweep. */
  CHECK_EQ_INT(fi_workload(fdef, lt, inc, &checked), TF_OK);
  for (n = 0; n < 20000 && ok_runs < 3; n++) {
    TF_Code c;
    g_fi_point = n;
    TFE_TestFailAllocationsAfter(n);
    c = fi_workload(fdef, lt, inc, &checked);
    TFE_TestFailAllocationsAfter(-1);
    ok_runs = c == TF_OK ? ok_runs + 1 : 0;
  }
  CHECK(ok_runs == 3);
  printf("fault injection: %lld allocation points, %d runs with values "
         "checked\n",
         (long long)n, checked);
  TF_DeleteBuffer(fdef);
  TF_DeleteBuffer(lt);
  TF_DeleteBuffer(inc);
}

/* ---- A hand-written polymorphic FunctionDef: attr T, x: T -> y: T with
 * y = AddV2[T=$T](x, x) (the node's attr is a placeholder for the
 * function's attr, AttrValue.placeholder). ---- */

typedef struct pb {
  unsigned char b[512];
  size_t n;
} pb;

static void pb_byte(pb* p, unsigned v) { p->b[p->n++] = (unsigned char)v; }
static void pb_str(pb* p, int field, const char* str) {
  size_t len = strlen(str);
  pb_byte(p, (unsigned)(field << 3 | 2));
  pb_byte(p, (unsigned)len);
  memcpy(p->b + p->n, str, len);
  p->n += len;
}
static void pb_msg(pb* p, int field, const pb* m) {
  pb_byte(p, (unsigned)(field << 3 | 2));
  pb_byte(p, (unsigned)m->n);
  memcpy(p->b + p->n, m->b, m->n);
  p->n += m->n;
}

TEST(polymorphic_function_def) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(0);
  pb sig = {{0}, 0}, arg = {{0}, 0}, out = {{0}, 0}, attr = {{0}, 0};
  pb node = {{0}, 0}, av = {{0}, 0}, entry = {{0}, 0}, ret = {{0}, 0};
  pb fdef = {{0}, 0};
  int k;
  pb_str(&sig, 1, "double_it");
  pb_str(&arg, 1, "x");
  pb_str(&arg, 4, "T");
  pb_msg(&sig, 2, &arg);
  pb_str(&out, 1, "y");
  pb_str(&out, 4, "T");
  pb_msg(&sig, 3, &out);
  pb_str(&attr, 1, "T");
  pb_str(&attr, 2, "type");
  pb_msg(&sig, 4, &attr);
  pb_str(&node, 1, "sum");
  pb_str(&node, 2, "AddV2");
  pb_str(&node, 3, "x");
  pb_str(&node, 3, "x");
  pb_str(&av, 9, "T");
  pb_str(&entry, 1, "T");
  pb_msg(&entry, 2, &av);
  pb_msg(&node, 5, &entry);
  pb_str(&ret, 1, "y");
  pb_str(&ret, 2, "sum:z:0");
  pb_msg(&fdef, 1, &sig);
  pb_msg(&fdef, 3, &node);
  pb_msg(&fdef, 4, &ret);
  TFE_ContextAddFunctionDef(ctx, (const char*)fdef.b, fdef.n, s);
  CHECK_CODE(s, TF_OK);
  /* Called with float and int32: T comes from the input each time. */
  for (k = 0; k < 2; k++) {
    TFE_Op* op = TFE_NewOp(ctx, "double_it", s);
    TFE_TensorHandle* x = k == 0 ? fscalar(1.5f) : iscalar(21);
    TFE_TensorHandle* r[1];
    int n = 1;
    CHECK_CODE(s, TF_OK);
    TFE_OpAddInput(op, x, s);
    TFE_Execute(op, r, &n, s);
    CHECK_CODE(s, TF_OK);
    if (k == 0) {
      CHECK(fvalue(r[0]) == 3.0f);
    } else {
      CHECK_EQ_INT(ivalue(r[0]), 42);
    }
    TFE_DeleteTensorHandle(r[0]);
    TFE_DeleteTensorHandle(x);
    TFE_DeleteOp(op);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- FunctionDefs written by TF 2.21 (tests/data/graphs/NAME.fdef.pb) with
 * the inputs and expected outputs recorded in manifest.json. ---- */

static char* read_file(const char* path, size_t* len) {
  FILE* fp = fopen(path, "rb");
  char* buf;
  long n;
  if (fp == NULL) return NULL;
  fseek(fp, 0, SEEK_END);
  n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  buf = (char*)malloc((size_t)n + 1);
  if (fread(buf, 1, (size_t)n, fp) != (size_t)n) {
    free(buf);
    fclose(fp);
    return NULL;
  }
  fclose(fp);
  *len = (size_t)n;
  return buf;
}

/* Adds tests/data/graphs/<file> to ctx and returns an op calling it. The
 * name's numeric suffix changes when the data is regenerated, so only its
 * prefix is checked. */
static TFE_Op* tf_function_op(TFE_Context* ctx, const char* file,
                              const char* prefix) {
  TF_Status* s = TF_NewStatus();
  char path[1024], name[256];
  size_t len;
  char* bytes;
  TFE_Op* op;
  TF_Function* f;
  snprintf(path, sizeof(path), "%s/graphs/%s", TFE_TEST_DATA_DIR, file);
  bytes = read_file(path, &len);
  CHECK(bytes != NULL);
  f = TF_FunctionImportFunctionDef(bytes, len, s);
  CHECK_CODE(s, TF_OK);
  snprintf(name, sizeof(name), "%s", TF_FunctionName(f));
  TF_DeleteFunction(f);
  CHECK(strncmp(name, prefix, strlen(prefix)) == 0);
  TFE_ContextAddFunctionDef(ctx, bytes, len, s);
  CHECK_CODE(s, TF_OK);
  free(bytes);
  CHECK(TFE_ContextHasFunction(ctx, name));
  op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
  return op;
}

static TFE_TensorHandle* vec_handle(TF_DataType t, const void* data, int n) {
  TF_Status* s = TF_NewStatus();
  int64_t dims[1] = {n};
  size_t es = TF_DataTypeSize(t);
  TF_Tensor* x = TF_AllocateTensor(t, dims, 1, es * (size_t)n);
  TFE_TensorHandle* h;
  memcpy(TF_TensorData(x), data, es * (size_t)n);
  h = TFE_NewTensorHandle(x, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(x);
  TF_DeleteStatus(s);
  return h;
}

static void check_vec(TFE_TensorHandle* h, TF_DataType t, const void* want,
                      int n, double tol) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* x = TFE_TensorHandleResolve(h, s);
  int i;
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(x), t);
  CHECK_EQ_INT(TF_NumDims(x), 1);
  CHECK_EQ_INT(TF_Dim(x, 0), n);
  for (i = 0; i < n; i++) {
    if (t == TF_FLOAT) {
      double d = (double)((const float*)TF_TensorData(x))[i] -
                 (double)((const float*)want)[i];
      if (d < 0) d = -d;
      CHECK(d <= tol);
    } else if (t == TF_INT64) {
      CHECK(((const int64_t*)TF_TensorData(x))[i] ==
            ((const int64_t*)want)[i]);
    } else if (t == TF_INT32) {
      CHECK_EQ_INT(((const int32_t*)TF_TensorData(x))[i],
                   ((const int32_t*)want)[i]);
    }
  }
  TF_DeleteTensor(x);
  TF_DeleteStatus(s);
}

TEST(tf_written_fn_poly) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(0);
  TFE_Op* op = tf_function_op(ctx, "fn_poly.fdef.pb", "__inference_poly_");
  const float x[3] = {0.5f, -1.0f, 2.0f}, y[3] = {4.0f, 0.25f, -3.0f};
  const float want[3] = {0.4794255495071411f, -3.091470956802368f,
                         -7.090702533721924f};
  TFE_TensorHandle* a = vec_handle(TF_FLOAT, x, 3);
  TFE_TensorHandle* b = vec_handle(TF_FLOAT, y, 3);
  TFE_TensorHandle* r[1];
  int n = 1;
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, b, s);
  TFE_Execute(op, r, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 1);
  check_vec(r[0], TF_FLOAT, want, 3, 1e-5);
  TFE_DeleteTensorHandle(r[0]);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(tf_written_fn_int_multi) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(0);
  TFE_Op* op = tf_function_op(ctx, "fn_int_multi.fdef.pb",
                              "__inference_int_ops_");
  const int64_t x[4] = {7, -7, 1099511627776LL, 0}, y[4] = {2, 2, -3, 5};
  const int64_t w0[4] = {9, -5, 1099511627773LL, 5};
  const int64_t w1[4] = {14, -14, -3298534883328LL, 0};
  const int64_t w2[4] = {3, -4, -366503875926LL, 0};
  TFE_TensorHandle* a = vec_handle(TF_INT64, x, 4);
  TFE_TensorHandle* b = vec_handle(TF_INT64, y, 4);
  TFE_TensorHandle* r[3];
  int n = 3, i;
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, b, s);
  TFE_Execute(op, r, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 3);
  check_vec(r[0], TF_INT64, w0, 4, 0);
  check_vec(r[1], TF_INT64, w1, 4, 0);
  check_vec(r[2], TF_INT64, w2, 4, 0);
  for (i = 0; i < 3; i++) TFE_DeleteTensorHandle(r[i]);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(tf_written_fn_strings) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(0);
  TFE_Op* op = tf_function_op(ctx, "fn_strings.fdef.pb",
                              "__inference_strings_");
  int64_t dims[1] = {2};
  TF_Tensor* x = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  TF_TString* xs = (TF_TString*)TF_TensorData(x);
  TFE_TensorHandle *a, *r[2];
  TF_Tensor* out;
  const int32_t lens[2] = {5, 5};
  int n = 2;
  TF_StringInit(&xs[0]);
  TF_StringInit(&xs[1]);
  TF_StringCopy(&xs[0], "hello", 5);
  TF_StringCopy(&xs[1], "graph", 5);
  a = TFE_NewTensorHandle(x, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(x);
  TFE_OpAddInput(op, a, s);
  TFE_Execute(op, r, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 2);
  out = TFE_TensorHandleResolve(r[0], s);
  CHECK_CODE(s, TF_OK);
  {
    const TF_TString* o = (const TF_TString*)TF_TensorData(out);
    CHECK_EQ_SIZE(TF_StringGetSize(&o[0]), 7);
    CHECK(memcmp(TF_StringGetDataPointer(&o[0]), "hello-!", 7) == 0);
    CHECK(memcmp(TF_StringGetDataPointer(&o[1]), "graph-!", 7) == 0);
  }
  TF_DeleteTensor(out);
  check_vec(r[1], TF_INT32, lens, 2, 0);
  TFE_DeleteTensorHandle(r[0]);
  TFE_DeleteTensorHandle(r[1]);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
