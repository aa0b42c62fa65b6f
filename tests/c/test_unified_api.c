/* The unified execution API (c_api_unified_experimental.h): the same
 * op-building code run eagerly and traced into a function, the traced
 * function registered and called eagerly, and the argument checks and
 * TF error codes of each entry point. */
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/eager/c_api_unified_experimental.h"
#include "tfe/unified.h"
#include "tfe_test.h"

static TF_ExecutionContext* eager_ctx(TF_Status* s) {
  TFE_ContextOptions* opts = TFE_NewContextOptions();
  TF_ExecutionContext* c = TF_NewEagerExecutionContext(opts, s);
  TFE_DeleteContextOptions(opts);
  CHECK_CODE(s, TF_OK);
  CHECK(c != NULL);
  return c;
}

static TF_AbstractTensor* eager_f32(TF_ExecutionContext* c, float v, TF_Status* s) {
  TFE_Context* ctx = TF_ExecutionContextGetTFEContext(c, s);
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  TFE_TensorHandle* h;
  CHECK_CODE(s, TF_OK);
  memcpy(TF_TensorData(t), &v, sizeof v);
  CHECK(ctx != NULL);
  h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  CHECK_CODE(s, TF_OK);
  return TF_CreateAbstractTensorFromEagerTensor(h, s);
}

static float read_f32(TF_AbstractTensor* at, TF_Status* s) {
  TFE_TensorHandle* h = TF_AbstractTensorGetEagerTensor(at, s);
  TF_Tensor* t;
  float v;
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  memcpy(&v, TF_TensorData(t), sizeof v);
  TF_DeleteTensor(t);
  return v;
}

/* Builds x * y + x with the unified API on any context: the code a
 * gradient function or a model written once for both modes looks like. */
static TF_AbstractTensor* mul_add(TF_ExecutionContext* c, TF_AbstractTensor* x,
                                  TF_AbstractTensor* y, int traced, TF_Status* s) {
  TF_OutputList* o = TF_NewOutputList();
  TF_AbstractTensor* prod;
  TF_AbstractTensor* sum;
  TF_AbstractTensor* in[2];
  TF_AbstractOp* op = TF_NewAbstractOp(c);

  TF_AbstractOpSetOpType(op, "Mul", s);
  CHECK_CODE(s, TF_OK);
  if (traced) {
    TF_AbstractOpSetOpName(op, "mul", s);
    CHECK_CODE(s, TF_OK);
  }
  TF_AbstractOpSetAttrType(op, "T", TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  in[0] = x;
  in[1] = y;
  TF_OutputListSetNumOutputs(o, 1, s);
  CHECK_CODE(s, TF_OK);
  TF_ExecuteOperation(op, 2, in, o, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_OutputListNumOutputs(o), 1);
  prod = TF_OutputListGet(o, 0);
  TF_DeleteAbstractOp(op);

  op = TF_NewAbstractOp(c);
  TF_AbstractOpSetOpType(op, "AddV2", s);
  CHECK_CODE(s, TF_OK);
  if (traced) {
    TF_AbstractOpSetOpName(op, "add", s);
    CHECK_CODE(s, TF_OK);
  }
  in[0] = prod;
  in[1] = x;
  TF_OutputListSetNumOutputs(o, 1, s);
  TF_ExecuteOperation(op, 2, in, o, s);
  CHECK_CODE(s, TF_OK);
  sum = TF_OutputListGet(o, 0);
  TF_DeleteAbstractOp(op);
  TF_DeleteAbstractTensor(prod);
  TF_DeleteOutputList(o);
  return sum;
}

TEST(eager_execution) {
  TF_Status* s = TF_NewStatus();
  TF_ExecutionContext* c = eager_ctx(s);
  TF_AbstractTensor* x = eager_f32(c, 2.0f, s);
  TF_AbstractTensor* y = eager_f32(c, 5.0f, s);
  TF_AbstractTensor* r = mul_add(c, x, y, 0, s);
  CHECK(read_f32(r, s) == 12.0f);

  /* Eager ops have no node name. */
  {
    TF_AbstractOp* op = TF_NewAbstractOp(c);
    TF_AbstractOpSetOpType(op, "Identity", s);
    TF_AbstractOpSetOpName(op, "n", s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_DeleteAbstractOp(op);
  }
  /* The list must have room for the outputs (TFE_Execute's rule). */
  {
    TF_OutputList* o = TF_NewOutputList();
    TF_AbstractOp* op = TF_NewAbstractOp(c);
    TF_AbstractTensor* in[1];
    in[0] = x;
    TF_AbstractOpSetOpType(op, "Identity", s);
    TF_ExecuteOperation(op, 1, in, o, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "Expecting 1 outputs");
    /* An op runs once. */
    TF_OutputListSetNumOutputs(o, 1, s);
    TF_ExecuteOperation(op, 1, in, o, s);
    CHECK_CODE(s, TF_FAILED_PRECONDITION);
    TF_DeleteAbstractOp(op);
    /* A list with more room than outputs ends with the real count. */
    op = TF_NewAbstractOp(c);
    TF_AbstractOpSetOpType(op, "Identity", s);
    TF_OutputListSetNumOutputs(o, 3, s);
    TF_ExecuteOperation(op, 1, in, o, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_OutputListNumOutputs(o), 1);
    CHECK(read_f32(TF_OutputListGet(o, 0), s) == 2.0f);
    CHECK(TF_OutputListGet(o, 1) == NULL);
    TF_DeleteAbstractTensor(TF_OutputListGet(o, 0));
    TF_DeleteAbstractOp(op);
    TF_DeleteOutputList(o);
  }
  /* Unknown op type: TFE_NewOp's error. */
  {
    TF_AbstractOp* op = TF_NewAbstractOp(c);
    TF_AbstractOpSetOpType(op, "NoSuchOp", s);
    CHECK_CODE(s, TF_NOT_FOUND);
    TF_DeleteAbstractOp(op);
  }
  CHECK(TF_AbstractTensorGetEagerTensor(r, s) != NULL);
  TF_DeleteAbstractTensor(r);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(y);
  TF_DeleteExecutionContext(c);
  TF_DeleteStatus(s);
}

TEST(trace_register_and_call) {
  TF_Status* s = TF_NewStatus();
  int64_t dims[1] = {-1};
  TF_Shape any = {-1, NULL};
  TF_Shape vec = {1, dims};
  TF_ExecutionContext* f = TF_CreateFunction("mul_add", s);
  TF_AbstractTensor* x;
  TF_AbstractTensor* y;
  TF_AbstractTensor* r;
  TF_OutputList* results = TF_NewOutputList();
  TF_AbstractFunction* fn;
  TF_ExecutionContext* c;
  CHECK_CODE(s, TF_OK);
  x = TF_AddFunctionParameter(f, TF_FLOAT, any, s);
  CHECK_CODE(s, TF_OK);
  y = TF_AddFunctionParameter(f, TF_FLOAT, vec, s);
  CHECK_CODE(s, TF_OK);
  r = mul_add(f, x, y, 1, s);
  TF_OutputListPushBack(results, r, s);
  CHECK_CODE(s, TF_OK);
  /* TF_GetExecutionContextTFEContext is for eager contexts only. */
  CHECK(TF_ExecutionContextGetTFEContext(f, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_AbstractTensorGetEagerTensor(r, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  fn = TF_FinalizeFunction(f, results, s); /* frees f */
  CHECK_CODE(s, TF_OK);
  CHECK(fn != NULL);
  /* The traced values outlive their context and are freed after it. */
  TF_DeleteAbstractTensor(r);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(y);
  TF_DeleteOutputList(results);

  c = eager_ctx(s);
  TF_ExecutionContextRegisterFunction(c, fn, s);
  CHECK_CODE(s, TF_OK);
  {
    TF_AbstractTensor* a = eager_f32(c, 3.0f, s);
    TF_AbstractTensor* b = eager_f32(c, 4.0f, s);
    TF_AbstractTensor* in[2];
    TF_OutputList* o = TF_NewOutputList();
    TF_AbstractOp* call = TF_NewAbstractOp(c);
    in[0] = a;
    in[1] = b;
    TF_AbstractOpSetOpType(call, "mul_add", s);
    CHECK_CODE(s, TF_OK);
    TF_OutputListSetNumOutputs(o, 1, s);
    TF_ExecuteOperation(call, 2, in, o, s);
    CHECK_CODE(s, TF_OK);
    CHECK(read_f32(TF_OutputListGet(o, 0), s) == 15.0f);
    TF_DeleteAbstractTensor(TF_OutputListGet(o, 0));
    TF_DeleteAbstractOp(call);
    TF_DeleteOutputList(o);
    TF_DeleteAbstractTensor(a);
    TF_DeleteAbstractTensor(b);
  }
  TF_DeleteAbstractFunction(fn);
  TF_DeleteExecutionContext(c);
  TF_DeleteStatus(s);
}

TEST(traced_function_calls_registered_function) {
  /* tfe lets a tracing context register a function (TF: UNIMPLEMENTED). */
  TF_Status* s = TF_NewStatus();
  TF_Shape any = {-1, NULL};
  TF_ExecutionContext* inner = TF_CreateFunction("twice", s);
  TF_AbstractTensor* p = TF_AddFunctionParameter(inner, TF_FLOAT, any, s);
  TF_AbstractTensor* in[2];
  TF_OutputList* o = TF_NewOutputList();
  TF_AbstractOp* op = TF_NewAbstractOp(inner);
  TF_AbstractFunction* twice;
  TF_AbstractFunction* outer_fn;
  TF_ExecutionContext* outer;
  TF_ExecutionContext* c;
  TF_AbstractTensor* q;
  in[0] = p;
  in[1] = p;
  TF_AbstractOpSetOpType(op, "AddV2", s);
  TF_AbstractOpSetOpName(op, "add", s);
  TF_OutputListSetNumOutputs(o, 1, s);
  TF_ExecuteOperation(op, 2, in, o, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteAbstractOp(op);
  twice = TF_FinalizeFunction(inner, o, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteAbstractTensor(TF_OutputListGet(o, 0));
  TF_DeleteAbstractTensor(p);

  outer = TF_CreateFunction("quad", s);
  TF_ExecutionContextRegisterFunction(outer, twice, s);
  CHECK_CODE(s, TF_OK);
  q = TF_AddFunctionParameter(outer, TF_FLOAT, any, s);
  op = TF_NewAbstractOp(outer);
  TF_AbstractOpSetOpType(op, "twice", s);
  TF_AbstractOpSetOpName(op, "call1", s);
  in[0] = q;
  TF_OutputListSetNumOutputs(o, 1, s);
  TF_ExecuteOperation(op, 1, in, o, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteAbstractOp(op);
  {
    TF_AbstractTensor* mid = TF_OutputListGet(o, 0);
    op = TF_NewAbstractOp(outer);
    TF_AbstractOpSetOpType(op, "twice", s);
    TF_AbstractOpSetOpName(op, "call2", s);
    in[0] = mid;
    TF_ExecuteOperation(op, 1, in, o, s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteAbstractOp(op);
    TF_DeleteAbstractTensor(mid);
  }
  outer_fn = TF_FinalizeFunction(outer, o, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteAbstractTensor(TF_OutputListGet(o, 0));
  TF_DeleteAbstractTensor(q);

  c = eager_ctx(s);
  TF_ExecutionContextRegisterFunction(c, twice, s);
  TF_ExecutionContextRegisterFunction(c, outer_fn, s);
  CHECK_CODE(s, TF_OK);
  {
    TF_AbstractTensor* a = eager_f32(c, 1.25f, s);
    op = TF_NewAbstractOp(c);
    TF_AbstractOpSetOpType(op, "quad", s);
    in[0] = a;
    TF_OutputListSetNumOutputs(o, 1, s);
    TF_ExecuteOperation(op, 1, in, o, s);
    CHECK_CODE(s, TF_OK);
    CHECK(read_f32(TF_OutputListGet(o, 0), s) == 5.0f);
    TF_DeleteAbstractTensor(TF_OutputListGet(o, 0));
    TF_DeleteAbstractOp(op);
    TF_DeleteAbstractTensor(a);
  }
  TF_DeleteOutputList(o);
  TF_DeleteAbstractFunction(twice);
  TF_DeleteAbstractFunction(outer_fn);
  TF_DeleteExecutionContext(c);
  TF_DeleteStatus(s);
}

TEST(tracing_errors) {
  TF_Status* s = TF_NewStatus();
  TF_Shape any = {-1, NULL};
  int64_t bad_dims[2] = {2, -3};
  TF_Shape bad = {2, bad_dims};
  TF_Shape bad_rank = {-2, NULL};
  TF_ExecutionContext* f = TF_CreateFunction("f", s);
  TF_ExecutionContext* g = TF_CreateFunction("g", s);
  TF_ExecutionContext* e = eager_ctx(s);
  TF_AbstractTensor* x = TF_AddFunctionParameter(f, TF_FLOAT, any, s);
  TF_AbstractTensor* gx = TF_AddFunctionParameter(g, TF_FLOAT, any, s);
  TF_AbstractTensor* ev = eager_f32(e, 1.0f, s);
  TF_AbstractTensor* in[1];
  TF_OutputList* o = TF_NewOutputList();
  TF_AbstractOp* op;

  CHECK(TF_AddFunctionParameter(f, TF_FLOAT, bad, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_AddFunctionParameter(f, TF_FLOAT, bad_rank, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_AddFunctionParameter(e, TF_FLOAT, any, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_CreateFunction("", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  /* Name before type; attrs before name. */
  op = TF_NewAbstractOp(f);
  TF_AbstractOpSetOpName(op, "n", s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  TF_AbstractOpSetOpType(op, "Identity", s);
  TF_AbstractOpSetAttrType(op, "T", TF_FLOAT, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK_STR_EQ(TF_Message(s), "op_type and op_name must be specified before specifying attrs.");
  /* Executing without a name. */
  in[0] = x;
  TF_OutputListSetNumOutputs(o, 1, s);
  TF_ExecuteOperation(op, 1, in, o, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_AbstractOpSetOpName(op, "n", s);
  CHECK_CODE(s, TF_OK);
  TF_AbstractOpSetOpType(op, "Neg", s); /* fixed once named */
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  /* Values of another function, and eager values, are refused. */
  in[0] = gx;
  TF_ExecuteOperation(op, 1, in, o, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  in[0] = ev;
  TF_ExecuteOperation(op, 1, in, o, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  in[0] = NULL;
  TF_ExecuteOperation(op, 1, in, o, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* A traced op with an unknown type fails when it becomes a node. */
  TF_DeleteAbstractOp(op); /* named, never run: freed without a node */
  op = TF_NewAbstractOp(f);
  TF_AbstractOpSetOpType(op, "NoSuchOp", s);
  TF_AbstractOpSetOpName(op, "bad", s);
  in[0] = x;
  TF_ExecuteOperation(op, 1, in, o, s);
  CHECK(TF_GetCode(s) != TF_OK);
  TF_DeleteAbstractOp(op);

  /* Eager tensors as results, and results of another function. */
  TF_OutputListSetNumOutputs(o, 0, s);
  TF_OutputListPushBack(o, gx, s);
  CHECK(TF_FinalizeFunction(f, o, s) == NULL); /* frees f all the same */
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_OutputListSetNumOutputs(o, 0, s);
  TF_OutputListPushBack(o, ev, s);
  CHECK(TF_FinalizeFunction(g, o, s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  /* An eager context is not a function; it stays usable. */
  CHECK(TF_FinalizeFunction(e, o, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_ExecutionContextGetTFEContext(e, s) != NULL);

  /* Output-list checks. */
  TF_OutputListSetNumOutputs(o, -1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_OutputListPushBack(o, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_OutputListGet(o, 99) == NULL);
  CHECK(TF_OutputListGet(NULL, 0) == NULL);
  CHECK_EQ_INT(TF_OutputListNumOutputs(NULL), 0);

  /* Tracing engines. */
  TF_SetTracingImplementation("graphdef", s);
  CHECK_CODE(s, TF_OK);
  TF_SetTracingImplementation("mlir", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "(available: graphdef)");

  /* NULL everywhere a Delete function is given one. */
  TF_DeleteAbstractOp(NULL);
  TF_DeleteAbstractTensor(NULL);
  TF_DeleteAbstractFunction(NULL);
  TF_DeleteExecutionContext(NULL);
  TF_DeleteOutputList(NULL);
  CHECK(TF_NewAbstractOp(NULL) == NULL);
  CHECK(TF_CreateAbstractTensorFromEagerTensor(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(gx);
  TF_DeleteAbstractTensor(ev);
  TF_DeleteOutputList(o);
  TF_DeleteExecutionContext(e);
  TF_DeleteStatus(s);
}

/* tfe's extension: list inputs and non-type attrs, the same code on both
 * kinds of context. Builds sum(concat([x, x], axis 0), axis 0,
 * keep_dims) for a [2] float vector x. */
static TF_AbstractTensor* concat_sum(TF_ExecutionContext* c, TF_AbstractTensor* x,
                                     TF_AbstractTensor* axis, int traced, TF_Status* s) {
  TF_OutputList* o = TF_NewOutputList();
  TF_AbstractTensor* both[2] = {x, x};
  TF_AbstractTensor* cat;
  TF_AbstractTensor* r;
  TF_AbstractOp* op = TF_NewAbstractOp(c);
  TF_AbstractOpSetOpType(op, "ConcatV2", s);
  if (traced) TF_AbstractOpSetOpName(op, "cat", s);
  TFE_AbstractOpAddInputList(op, both, 2, s);
  CHECK_CODE(s, TF_OK);
  TFE_AbstractOpAddInput(op, axis, s);
  CHECK_CODE(s, TF_OK);
  TFE_AbstractOpSetAttrInt(op, "N", 2, s);
  CHECK_CODE(s, TF_OK);
  TF_OutputListSetNumOutputs(o, 1, s);
  TF_ExecuteOperation(op, 0, NULL, o, s);
  CHECK_CODE(s, TF_OK);
  cat = TF_OutputListGet(o, 0);
  CHECK_EQ_INT(TFE_AbstractTensorNumDims(cat, s), 1);
  /* Traced, the axis is an argument: shape inference cannot know the size. */
  CHECK_EQ_INT(TFE_AbstractTensorDim(cat, 0, s), traced ? -1 : 4);
  CHECK_CODE(s, TF_OK);
  TFE_AbstractTensorDim(cat, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteAbstractOp(op);

  op = TF_NewAbstractOp(c);
  TF_AbstractOpSetOpType(op, "Sum", s);
  if (traced) TF_AbstractOpSetOpName(op, "sum", s);
  TFE_AbstractOpSetAttrBool(op, "keep_dims", 1, s);
  CHECK_CODE(s, TF_OK);
  TFE_AbstractOpAddInput(op, cat, s);
  TFE_AbstractOpAddInput(op, axis, s);
  TF_ExecuteOperation(op, 0, NULL, o, s);
  CHECK_CODE(s, TF_OK);
  r = TF_OutputListGet(o, 0);
  CHECK_EQ_INT(TFE_AbstractTensorDataType(r, s), TF_FLOAT);
  CHECK_EQ_INT(TFE_AbstractTensorNumDims(r, s), 1);
  CHECK_EQ_INT(TFE_AbstractTensorDim(r, 0, s), traced ? -1 : 1);
  /* An op that ran takes nothing more. */
  TFE_AbstractOpSetAttrInt(op, "Tidx", 3, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  TF_DeleteAbstractOp(op);
  TF_DeleteAbstractTensor(cat);
  TF_DeleteOutputList(o);
  return r;
}

static TF_AbstractTensor* eager_vec2(TF_ExecutionContext* c, float a, float b, TF_Status* s) {
  int64_t dims[1] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 2 * sizeof(float));
  TFE_TensorHandle* h;
  CHECK(TF_ExecutionContextGetTFEContext(c, s) != NULL);
  ((float*)TF_TensorData(t))[0] = a;
  ((float*)TF_TensorData(t))[1] = b;
  h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  return TF_CreateAbstractTensorFromEagerTensor(h, s);
}

static TF_AbstractTensor* eager_i32(TF_ExecutionContext* c, int v, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int));
  TFE_TensorHandle* h;
  CHECK(TF_ExecutionContextGetTFEContext(c, s) != NULL);
  memcpy(TF_TensorData(t), &v, sizeof v);
  h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  return TF_CreateAbstractTensorFromEagerTensor(h, s);
}

TEST(extension_list_inputs_and_attrs) {
  TF_Status* s = TF_NewStatus();
  TF_ExecutionContext* c = eager_ctx(s);
  TF_AbstractTensor* x = eager_vec2(c, 1.5f, 2.0f, s);
  TF_AbstractTensor* axis = eager_i32(c, 0, s);
  TF_AbstractTensor* r = concat_sum(c, x, axis, 0, s);
  TF_AbstractTensor* copy = TFE_AbstractTensorCopy(r, s);
  CHECK(TFE_AbstractTensorIsEager(copy));
  TF_DeleteAbstractTensor(r);
  CHECK(read_f32(copy, s) == 7.0f); /* the copy lives on its own */
  TF_DeleteAbstractTensor(copy);

  /* Traced: the same builder, then the function called eagerly. */
  {
    int64_t two[1] = {2};
    TF_Shape vec = {1, two};
    TF_Shape scalar = {0, NULL};
    TF_ExecutionContext* f = TF_CreateFunction("concat_sum", s);
    TF_AbstractTensor* px = TF_AddFunctionParameter(f, TF_FLOAT, vec, s);
    TF_AbstractTensor* pa = TF_AddFunctionParameter(f, TF_INT32, scalar, s);
    TF_AbstractTensor* pr = concat_sum(f, px, pa, 1, s);
    TF_AbstractTensor* pc = TFE_AbstractTensorCopy(pr, s);
    TF_OutputList* o = TF_NewOutputList();
    TF_AbstractFunction* fn;
    TF_AbstractOp* call;
    TF_AbstractTensor* in[2];
    CHECK(!TFE_AbstractTensorIsEager(pc));
    TF_OutputListPushBack(o, pc, s);
    fn = TF_FinalizeFunction(f, o, s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteAbstractTensor(px);
    TF_DeleteAbstractTensor(pa);
    TF_DeleteAbstractTensor(pr);
    TF_DeleteAbstractTensor(pc);
    TF_ExecutionContextRegisterFunction(c, fn, s);
    CHECK_CODE(s, TF_OK);
    call = TF_NewAbstractOp(c);
    TF_AbstractOpSetOpType(call, "concat_sum", s);
    in[0] = x;
    in[1] = axis;
    TF_OutputListSetNumOutputs(o, 1, s);
    TF_ExecuteOperation(call, 2, in, o, s);
    CHECK_CODE(s, TF_OK);
    CHECK(read_f32(TF_OutputListGet(o, 0), s) == 7.0f);
    TF_DeleteAbstractTensor(TF_OutputListGet(o, 0));
    TF_DeleteAbstractOp(call);
    TF_DeleteOutputList(o);
    TF_DeleteAbstractFunction(fn);
  }
  /* Errors: attrs before the type, NULL names and values. */
  {
    TF_AbstractOp* op = TF_NewAbstractOp(c);
    TFE_AbstractOpSetAttrInt(op, "N", 1, s);
    CHECK_CODE(s, TF_FAILED_PRECONDITION);
    TFE_AbstractOpAddInput(op, x, s);
    CHECK_CODE(s, TF_FAILED_PRECONDITION);
    TF_AbstractOpSetOpType(op, "Identity", s);
    TFE_AbstractOpSetAttrInt(op, NULL, 1, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TFE_AbstractOpAddInput(op, NULL, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TFE_AbstractOpAddInputList(op, NULL, 2, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TFE_AbstractOpSetAttrShape(op, "shape", NULL, 2, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TFE_AbstractOpSetAttrTensor(op, "value", NULL, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_DeleteAbstractOp(op);
    CHECK_EQ_INT(TFE_AbstractTensorDataType(NULL, s), 0);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK(TFE_AbstractTensorCopy(NULL, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK(!TFE_AbstractTensorIsEager(NULL));
  }
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(axis);
  TF_DeleteExecutionContext(c);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
