/* Functions: TF_GraphToFunction(WithControlOutputs) with TF's naming and
 * errors, FunctionDef export / import round trips, function attrs, a
 * graph's function library (copy, list, remove, gradients), calls inside
 * graphs run by sessions (by name and through PartitionedCall), the
 * functional control flow ops (If, Case, While: 0, 1 and many iterations,
 * nested loops, a loop carrying a TensorList) and FunctionDefs written by
 * TF 2.21 (tests/data/graphs/). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/eager/c_api.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

/* ---- graph building helpers ---- */

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

static TF_Operation* scalar_const(TF_Graph* g, const char* name,
                                  TF_DataType t, double v) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* x = TF_AllocateTensor(t, NULL, 0, TF_DataTypeSize(t));
  TF_OperationDescription* d;
  TF_Operation* op;
  if (t == TF_FLOAT) *(float*)TF_TensorData(x) = (float)v;
  if (t == TF_INT32) *(int32_t*)TF_TensorData(x) = (int32_t)v;
  if (t == TF_BOOL) *(unsigned char*)TF_TensorData(x) = v != 0;
  d = TF_NewOperation(g, "Const", name);
  TF_SetAttrType(d, "dtype", t);
  TF_SetAttrTensor(d, "value", x, s);
  CHECK_CODE(s, TF_OK);
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(x);
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

/* f(a, b) = (a + b) * a, from a graph with placeholders "A" and "b". */
static TF_Function* make_add_mul(const char* name, TF_Status* s) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = placeholder(g, "A", TF_FLOAT);
  TF_Operation* b = placeholder(g, "b", TF_FLOAT);
  TF_Operation* sum = binary(g, "AddV2", "sum", out0(a), out0(b));
  TF_Operation* prod = binary(g, "Mul", "prod", out0(sum), out0(a));
  TF_Output ins[2] = {out0(a), out0(b)};
  TF_Output outs[1] = {out0(prod)};
  TF_Function* f = TF_GraphToFunction(g, name, 0, -1, NULL, 2, ins, 1, outs,
                                      NULL, NULL, "adds then multiplies", s);
  TF_DeleteGraph(g);
  return f;
}

/* FunctionDef bytes of f (malloc'd). */
static char* fdef_bytes(TF_Function* f, size_t* len) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b = TF_NewBuffer();
  char* out;
  TF_FunctionToFunctionDef(f, b, s);
  CHECK_CODE(s, TF_OK);
  out = (char*)malloc(b->length + 1);
  memcpy(out, b->data, b->length);
  out[b->length] = '\0';
  *len = b->length;
  TF_DeleteBuffer(b);
  TF_DeleteStatus(s);
  return out;
}

/* 1 when needle occurs in the len bytes at hay. */
static int has_bytes(const char* hay, size_t len, const char* needle) {
  size_t n = strlen(needle), i;
  for (i = 0; i + n <= len; i++) {
    if (memcmp(hay + i, needle, n) == 0) return 1;
  }
  return 0;
}

/* ---- session helpers ---- */

static TF_Tensor* float_scalar(float v) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  *(float*)TF_TensorData(t) = v;
  return t;
}

static TF_Tensor* int_scalar(int32_t v) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
  *(int32_t*)TF_TensorData(t) = v;
  return t;
}

/* Runs g feeding feeds[i] = vals[i] and fetching one output. */
static TF_Tensor* run1(TF_Graph* g, const TF_Output* feeds,
                       TF_Tensor* const* vals, int nfeeds, TF_Output fetch,
                       TF_Status* s) {
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Session* sess = TF_NewSession(g, opts, s);
  TF_Tensor* out = NULL;
  TF_DeleteSessionOptions(opts);
  CHECK_CODE(s, TF_OK);
  TF_SessionRun(sess, NULL, feeds, vals, nfeeds, &fetch, &out, 1, NULL, 0,
                NULL, s);
  {
    TF_Status* s2 = TF_NewStatus();
    TF_CloseSession(sess, s2);
    TF_DeleteSession(sess, s2);
    TF_DeleteStatus(s2);
  }
  return out;
}

/* ======================================================================
 * TF_GraphToFunction and FunctionDefs. */

TEST(graph_to_function_names_and_round_trip) {
  TF_Status* s = TF_NewStatus();
  TF_Function* f = make_add_mul("add_mul", s);
  TF_Function* g;
  char *b1, *b2;
  size_t n1, n2;
  CHECK_CODE(s, TF_OK);
  CHECK(f != NULL);
  CHECK_STR_EQ(TF_FunctionName(f), "add_mul");
  b1 = fdef_bytes(f, &n1);
  /* Inputs normalized to lower case; outputs named after their producer
   * (chosen first, so the node "prod" becomes "prod_0", as in TF); nodes
   * refer to outputs as node:out_arg:index and to args by name. */
  CHECK(has_bytes(b1, n1, "\x0a\x01" "a"));  /* ArgDef name "a" */
  CHECK(has_bytes(b1, n1, "sum:z:0"));
  CHECK(has_bytes(b1, n1, "prod_0:z:0"));
  CHECK(has_bytes(b1, n1, "adds then multiplies"));
  /* Import gives the same definition back. */
  g = TF_FunctionImportFunctionDef(b1, n1, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TF_FunctionName(g), "add_mul");
  b2 = fdef_bytes(g, &n2);
  CHECK_EQ_SIZE(n1, n2);
  CHECK(memcmp(b1, b2, n1) == 0);
  free(b1);
  free(b2);
  TF_DeleteFunction(f);
  TF_DeleteFunction(g);
  TF_DeleteFunction(NULL);
  TF_DeleteStatus(s);
}

TEST(graph_to_function_errors) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = placeholder(g, "a", TF_FLOAT);
  TF_Operation* b = placeholder(g, "b", TF_FLOAT);
  TF_Operation* sum = binary(g, "AddV2", "sum", out0(a), out0(b));
  TF_Output ins[2] = {out0(a), out0(a)};
  TF_Output outs[2] = {out0(sum), out0(sum)};
  const char* names[2] = {"x", "x"};
  const TF_Operation* body[1] = {sum};
  TF_Function* f;
  /* The same input twice. */
  f = TF_GraphToFunction(g, "f", 0, -1, NULL, 2, ins, 1, outs, NULL, NULL,
                         NULL, s);
  CHECK(f == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "TF_Output a:0 appears more than once");
  /* Duplicate output names. */
  ins[1] = out0(b);
  f = TF_GraphToFunction(g, "f", 0, -1, NULL, 2, ins, 2, outs, names, NULL,
                         NULL, s);
  CHECK(f == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Cannot have duplicate output names");
  /* An output index the node does not have. */
  outs[0].index = 3;
  f = TF_GraphToFunction(g, "f", 0, -1, NULL, 2, ins, 1, outs, NULL, NULL,
                         NULL, s);
  CHECK(f == NULL);
  CHECK_CODE(s, TF_OUT_OF_RANGE);
  CHECK_STR_CONTAINS(TF_Message(s), "does not have output 3");
  outs[0].index = 0;
  /* A body node whose input is neither in the body nor an input. */
  f = TF_GraphToFunction(g, "f", 0, 1, body, 1, ins, 1, outs, NULL, NULL,
                         NULL, s);
  CHECK(f == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Input 1, 'b:0', of node 'sum' in "
                                    "function 'f' is not available");
  /* An output outside the body and the inputs. */
  f = TF_GraphToFunction(g, "f", 0, 0, NULL, 2, ins, 1, outs, NULL, NULL,
                         NULL, s);
  CHECK(f == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "TF_Output sum:0 is neither in the "
                                    "function body nor among function inputs");
  /* NULL arguments never crash. */
  f = TF_GraphToFunction(NULL, "f", 0, -1, NULL, 0, NULL, 0, NULL, NULL,
                         NULL, NULL, s);
  CHECK(f == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* Explicit body with output names works. */
  {
    const TF_Operation* body2[1] = {sum};
    const char* one[1] = {"total"};
    size_t n;
    char* bytes;
    f = TF_GraphToFunction(g, "f", 0, 1, body2, 2, ins, 1, outs, one, NULL,
                           NULL, s);
    CHECK_CODE(s, TF_OK);
    bytes = fdef_bytes(f, &n);
    CHECK(has_bytes(bytes, n, "total"));
    free(bytes);
    TF_DeleteFunction(f);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(graph_to_function_hash_and_control_outputs) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = placeholder(g, "a", TF_FLOAT);
  TF_Operation* n = binary(g, "AddV2", "n", out0(a), out0(a));
  TF_Output ins[1] = {out0(a)};
  TF_Output outs[1] = {out0(n)};
  const TF_Operation* ctl[1] = {n};
  const char* ctl_names[1] = {"side"};
  TF_Function* f = TF_GraphToFunction(g, "hashed", 1, -1, NULL, 1, ins, 1,
                                      outs, NULL, NULL, NULL, s);
  const char* name;
  size_t len;
  char* bytes;
  CHECK_CODE(s, TF_OK);
  name = TF_FunctionName(f);
  CHECK(strncmp(name, "hashed_", 7) == 0);
  CHECK_EQ_SIZE(strlen(name), 7 + 11);
  CHECK(strchr(name, '-') == NULL);
  TF_DeleteFunction(f);
  f = TF_GraphToFunctionWithControlOutputs(g, "ctl", 0, -1, NULL, 1, ins, 1,
                                           outs, NULL, 1, ctl, ctl_names,
                                           NULL, NULL, s);
  CHECK_CODE(s, TF_OK);
  bytes = fdef_bytes(f, &len);
  CHECK(has_bytes(bytes, len, "side"));
  free(bytes);
  TF_DeleteFunction(f);
  /* A repeated control output name. */
  {
    const TF_Operation* ctl2[2] = {n, n};
    const char* names2[2] = {"c", "c"};
    f = TF_GraphToFunctionWithControlOutputs(g, "ctl", 0, -1, NULL, 1, ins, 1,
                                             outs, NULL, 2, ctl2, names2,
                                             NULL, NULL, s);
    CHECK(f == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "Repeated control output name: c");
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(import_function_def_errors) {
  TF_Status* s = TF_NewStatus();
  const char junk[] = "\xff\xff\xff\xff";
  TF_Function* f = TF_FunctionImportFunctionDef(junk, 4, s);
  CHECK(f == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Invalid FunctionDef given to TF_FunctionImportFunctionDef");
  f = TF_FunctionImportFunctionDef(NULL, 3, s);
  CHECK(f == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* An empty FunctionDef is a (nameless) function, as in TF. */
  f = TF_FunctionImportFunctionDef("", 0, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TF_FunctionName(f), "");
  TF_DeleteFunction(f);
  CHECK(TF_FunctionName(NULL) == NULL);
  TF_DeleteStatus(s);
}

TEST(function_attrs) {
  TF_Status* s = TF_NewStatus();
  TF_Function* f = make_add_mul("with_attrs", s);
  TF_Buffer* b = TF_NewBuffer();
  /* AttrValue{b: true} */
  const char attr[] = "\x28\x01";
  char* bytes;
  size_t n;
  CHECK_CODE(s, TF_OK);
  TF_FunctionGetAttrValueProto(f, "_noinline", b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Function 'with_attrs' has no attr named '_noinline'.");
  TF_FunctionSetAttrValueProto(f, "_noinline", attr, 2, s);
  CHECK_CODE(s, TF_OK);
  TF_FunctionGetAttrValueProto(f, "_noinline", b, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(b->length, 2);
  CHECK(memcmp(b->data, attr, 2) == 0);
  TF_FunctionSetAttrValueProto(f, "bad", "\xff", 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Unparseable AttrValue proto");
  /* The attr is part of the FunctionDef. */
  bytes = fdef_bytes(f, &n);
  CHECK(has_bytes(bytes, n, "_noinline"));
  free(bytes);
  TF_DeleteBuffer(b);
  TF_DeleteFunction(f);
  TF_DeleteStatus(s);
}

TEST(function_debug_string) {
  TF_Status* s = TF_NewStatus();
  TF_Function* f = make_add_mul("dbg", s);
  size_t len = 0;
  char* text = TF_FunctionDebugString(f, &len);
  CHECK(text != NULL);
  CHECK_EQ_SIZE(len, strlen(text));
  /* TF's layout (DebugString(FunctionDef)). */
  CHECK_STR_EQ(text,
               "\ndbg(a:float, b:float) -> (prod:float) {\n"
               "  sum = AddV2[T=float](a, b)\n"
               "  prod_0 = Mul[T=float](sum:z:0, a)\n"
               "  return prod = prod_0:z:0\n"
               "}\n");
  free(text);
  CHECK(TF_FunctionDebugString(NULL, &len) == NULL);
  TF_DeleteFunction(f);
  TF_DeleteStatus(s);
}

/* ======================================================================
 * A graph's function library. */

TEST(graph_library_copy_list_remove) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Function* f = make_add_mul("lib_f", s);
  TF_Function* grad = make_add_mul("lib_f_grad", s);
  TF_Function* other;
  TF_Function* got[4] = {NULL, NULL, NULL, NULL};
  int n, i;
  CHECK_EQ_INT(TF_GraphNumFunctions(g), 0);
  TF_GraphCopyFunction(g, NULL, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "'func' argument to TF_GraphCopyFunction cannot be null");
  TF_GraphCopyFunction(g, f, grad, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_GraphNumFunctions(g), 2);
  /* The same definition again is fine. */
  TF_GraphCopyFunction(g, f, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_GraphNumFunctions(g), 2);
  /* A different definition under the same name is not. */
  {
    TF_Graph* g2 = TF_NewGraph();
    TF_Operation* a = placeholder(g2, "a", TF_FLOAT);
    TF_Output io[1] = {out0(a)};
    other = TF_GraphToFunction(g2, "lib_f", 0, -1, NULL, 1, io, 1, io, NULL,
                               NULL, NULL, s);
    CHECK_CODE(s, TF_OK);
    TF_DeleteGraph(g2);
  }
  TF_GraphCopyFunction(g, other, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Cannot add function 'lib_f' because a different function "
               "with the same name already exists.");
  /* A name taken by an op. */
  {
    TF_Graph* g2 = TF_NewGraph();
    TF_Operation* a = placeholder(g2, "a", TF_FLOAT);
    TF_Output io[1] = {out0(a)};
    TF_Function* shadow = TF_GraphToFunction(g2, "AddV2", 0, -1, NULL, 1, io,
                                             1, io, NULL, NULL, NULL, s);
    CHECK_CODE(s, TF_OK);
    TF_GraphCopyFunction(g, shadow, NULL, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "because an op with the same name");
    TF_DeleteFunction(shadow);
    TF_DeleteGraph(g2);
  }
  n = TF_GraphGetFunctions(g, got, 4, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 2);
  CHECK_STR_EQ(TF_FunctionName(got[0]), "lib_f");
  CHECK_STR_EQ(TF_FunctionName(got[1]), "lib_f_grad");
  for (i = 0; i < n; i++) TF_DeleteFunction(got[i]);
  n = TF_GraphGetFunctions(g, got, 1, s);
  CHECK_EQ_INT(n, 1);
  TF_DeleteFunction(got[0]);
  TF_GraphRemoveFunction(g, "lib_f", s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_GraphNumFunctions(g), 1);
  TF_GraphRemoveFunction(g, "lib_f", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Tried to remove non-existent function 'lib_f'.");
  TF_DeleteFunction(other);
  TF_DeleteFunction(f);
  TF_DeleteFunction(grad);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* The library travels with GraphDef export and import. */
TEST(graph_def_carries_library) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Graph* g2 = TF_NewGraph();
  TF_Function* f = make_add_mul("carried", s);
  TF_Buffer* gd = TF_NewBuffer();
  TF_ImportGraphDefOptions* io = TF_NewImportGraphDefOptions();
  TF_GraphCopyFunction(g, f, NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_GraphToGraphDef(g, gd, s);
  CHECK_CODE(s, TF_OK);
  TF_GraphImportGraphDef(g2, gd, io, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_GraphNumFunctions(g2), 1);
  TF_DeleteImportGraphDefOptions(io);
  TF_DeleteBuffer(gd);
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
  TF_DeleteGraph(g2);
  TF_DeleteStatus(s);
}

/* ======================================================================
 * Calls in graphs, run by a session. */

TEST(session_calls_function_by_name) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Function* f = make_add_mul("add_mul", s);
  TF_Operation *x, *y, *call;
  TF_OperationDescription* d;
  TF_Output feeds[2];
  TF_Tensor* vals[2];
  TF_Tensor* out;
  TF_GraphCopyFunction(g, f, NULL, s);
  CHECK_CODE(s, TF_OK);
  x = placeholder(g, "x", TF_FLOAT);
  y = placeholder(g, "y", TF_FLOAT);
  d = TF_NewOperation(g, "add_mul", "call");
  TF_AddInput(d, out0(x));
  TF_AddInput(d, out0(y));
  call = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_OperationNumOutputs(call), 1);
  CHECK_EQ_INT(TF_OperationOutputType(out0(call)), TF_FLOAT);
  feeds[0] = out0(x);
  feeds[1] = out0(y);
  vals[0] = float_scalar(3);
  vals[1] = float_scalar(4);
  out = run1(g, feeds, vals, 2, out0(call), s);
  CHECK_CODE(s, TF_OK);
  CHECK(*(float*)TF_TensorData(out) == 21.0f);
  TF_DeleteTensor(out);
  TF_DeleteTensor(vals[0]);
  TF_DeleteTensor(vals[1]);
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(session_partitioned_call) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Function* f = make_add_mul("pc_fn", s);
  TF_Operation *x, *y, *call;
  TF_OperationDescription* d;
  TF_Output ins[2], feeds[2];
  TF_Tensor* vals[2];
  TF_Tensor* out;
  TF_DataType tout[1] = {TF_FLOAT};
  TF_GraphCopyFunction(g, f, NULL, s);
  CHECK_CODE(s, TF_OK);
  x = placeholder(g, "x", TF_FLOAT);
  y = placeholder(g, "y", TF_FLOAT);
  ins[0] = feeds[0] = out0(x);
  ins[1] = feeds[1] = out0(y);
  d = TF_NewOperation(g, "StatefulPartitionedCall", "call");
  TF_AddInputList(d, ins, 2);
  TF_SetAttrTypeList(d, "Tout", tout, 1);
  TF_SetAttrFuncName(d, "f", "pc_fn", 5);
  call = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  vals[0] = float_scalar(2);
  vals[1] = float_scalar(5);
  out = run1(g, feeds, vals, 2, out0(call), s);
  CHECK_CODE(s, TF_OK);
  CHECK(*(float*)TF_TensorData(out) == 14.0f);
  TF_DeleteTensor(out);
  TF_DeleteTensor(vals[0]);
  TF_DeleteTensor(vals[1]);
  TF_DeleteFunction(f);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* ======================================================================
 * Functional control flow in graphs. */

/* Function of one float: x * k (named name). */
static TF_Function* scale_fn(const char* name, float k, TF_Status* s) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = placeholder(g, "x", TF_FLOAT);
  TF_Operation* c = scalar_const(g, "k", TF_FLOAT, k);
  TF_Operation* m = binary(g, "Mul", "m", out0(x), out0(c));
  TF_Output ins[1] = {out0(x)}, outs[1] = {out0(m)};
  TF_Function* f = TF_GraphToFunction(g, name, 0, -1, NULL, 1, ins, 1, outs,
                                      NULL, NULL, NULL, s);
  TF_DeleteGraph(g);
  return f;
}

static void add_fn(TF_Graph* g, TF_Function* f) {
  TF_Status* s = TF_NewStatus();
  TF_GraphCopyFunction(g, f, NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteFunction(f);
  TF_DeleteStatus(s);
}

TEST(graph_if_and_case) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation *p, *x, *bi, *ifop, *caseop;
  TF_OperationDescription* d;
  TF_DataType tout[1] = {TF_FLOAT};
  const char* branches[3] = {"times2", "times3", "times10"};
  size_t lens[3] = {6, 6, 7};
  TF_Output in1[1], feeds[3];
  TF_Tensor* vals[3];
  int i;
  add_fn(g, scale_fn("times2", 2, s));
  add_fn(g, scale_fn("times3", 3, s));
  add_fn(g, scale_fn("times10", 10, s));
  p = placeholder(g, "p", TF_BOOL);
  x = placeholder(g, "x", TF_FLOAT);
  bi = placeholder(g, "bi", TF_INT32);
  in1[0] = out0(x);
  d = TF_NewOperation(g, "StatelessIf", "if");
  TF_AddInput(d, out0(p));
  TF_AddInputList(d, in1, 1);
  TF_SetAttrTypeList(d, "Tout", tout, 1);
  TF_SetAttrFuncName(d, "then_branch", "times2", 6);
  TF_SetAttrFuncName(d, "else_branch", "times3", 6);
  ifop = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "Case", "case");
  TF_AddInput(d, out0(bi));
  TF_AddInputList(d, in1, 1);
  TF_SetAttrTypeList(d, "Tout", tout, 1);
  {
    /* AttrValue{list{func{name}...}}: list = 1, ListValue.func = 9,
     * NameAttrList.name = 1 (short names: one-byte lengths). */
    unsigned char av[128], lv[120];
    size_t n = 0, m = 0;
    int k;
    for (k = 0; k < 3; k++) {
      lv[n++] = 0x4a; /* field 9, length-delimited */
      lv[n++] = (unsigned char)(lens[k] + 2);
      lv[n++] = 0x0a;
      lv[n++] = (unsigned char)lens[k];
      memcpy(lv + n, branches[k], lens[k]);
      n += lens[k];
    }
    av[m++] = 0x0a;
    av[m++] = (unsigned char)n;
    memcpy(av + m, lv, n);
    m += n;
    TF_SetAttrValueProto(d, "branches", av, m, s);
    CHECK_CODE(s, TF_OK);
  }
  caseop = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  feeds[0] = out0(p);
  feeds[1] = out0(x);
  feeds[2] = out0(bi);
  for (i = 0; i < 2; i++) {
    TF_Tensor* out;
    TF_Tensor* b = TF_AllocateTensor(TF_BOOL, NULL, 0, 1);
    *(unsigned char*)TF_TensorData(b) = (unsigned char)(i == 0);
    vals[0] = b;
    vals[1] = float_scalar(5);
    out = run1(g, feeds, vals, 2, out0(ifop), s);
    CHECK_CODE(s, TF_OK);
    CHECK(*(float*)TF_TensorData(out) == (i == 0 ? 10.0f : 15.0f));
    TF_DeleteTensor(out);
    TF_DeleteTensor(vals[0]);
    TF_DeleteTensor(vals[1]);
  }
  {
    /* Branch 0, 1, 2, and out-of-range indices take the last branch. */
    const int32_t idx[5] = {0, 1, 2, 7, -1};
    const float want[5] = {2, 3, 10, 10, 10};
    for (i = 0; i < 5; i++) {
      TF_Tensor* out;
      TF_Output f2[2] = {out0(x), out0(bi)};
      vals[0] = float_scalar(1);
      vals[1] = int_scalar(idx[i]);
      out = run1(g, f2, vals, 2, out0(caseop), s);
      CHECK_CODE(s, TF_OK);
      CHECK(*(float*)TF_TensorData(out) == want[i]);
      TF_DeleteTensor(out);
      TF_DeleteTensor(vals[0]);
      TF_DeleteTensor(vals[1]);
    }
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* cond(i, acc): i < n (n a const); body(i, acc): (i + 1, acc * 2). */
static void add_loop_fns(TF_Graph* lib_graph, const char* cond_name,
                         const char* body_name, int n, TF_Status* s) {
  TF_Graph* g = TF_NewGraph();
  TF_Operation* i = placeholder(g, "i", TF_INT32);
  TF_Operation* acc = placeholder(g, "acc", TF_FLOAT);
  TF_Operation* lim = scalar_const(g, "lim", TF_INT32, n);
  TF_Operation* lt = binary(g, "Less", "lt", out0(i), out0(lim));
  TF_Output ins[2] = {out0(i), out0(acc)}, outs[2];
  TF_Function* f;
  outs[0] = out0(lt);
  f = TF_GraphToFunction(g, cond_name, 0, -1, NULL, 2, ins, 1, outs, NULL,
                         NULL, NULL, s);
  CHECK_CODE(s, TF_OK);
  add_fn(lib_graph, f);
  TF_DeleteGraph(g);
  g = TF_NewGraph();
  i = placeholder(g, "i", TF_INT32);
  acc = placeholder(g, "acc", TF_FLOAT);
  {
    TF_Operation* one = scalar_const(g, "one", TF_INT32, 1);
    TF_Operation* two = scalar_const(g, "two", TF_FLOAT, 2);
    TF_Operation* i1 = binary(g, "AddV2", "i1", out0(i), out0(one));
    TF_Operation* a2 = binary(g, "Mul", "a2", out0(acc), out0(two));
    ins[0] = out0(i);
    ins[1] = out0(acc);
    outs[0] = out0(i1);
    outs[1] = out0(a2);
  }
  f = TF_GraphToFunction(g, body_name, 0, -1, NULL, 2, ins, 2, outs, NULL,
                         NULL, NULL, s);
  CHECK_CODE(s, TF_OK);
  add_fn(lib_graph, f);
  TF_DeleteGraph(g);
}

static TF_Operation* while_op(TF_Graph* g, const char* name, TF_Output i,
                              TF_Output acc, const char* cond,
                              const char* body, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "While", name);
  TF_Output ins[2] = {i, acc};
  TF_Operation* op;
  TF_AddInputList(d, ins, 2);
  TF_SetAttrFuncName(d, "cond", cond, strlen(cond));
  TF_SetAttrFuncName(d, "body", body, strlen(body));
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  return op;
}

TEST(graph_while_iterations) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation *i0, *a0, *w;
  TF_Output feeds[2];
  int start;
  add_loop_fns(g, "cond5", "body5", 5, s);
  i0 = placeholder(g, "i0", TF_INT32);
  a0 = placeholder(g, "a0", TF_FLOAT);
  w = while_op(g, "loop", out0(i0), out0(a0), "cond5", "body5", s);
  feeds[0] = out0(i0);
  feeds[1] = out0(a0);
  /* Start at 5 (0 iterations), 4 (1), 0 (5). */
  for (start = 5; start >= 0; start -= (start == 5 ? 1 : 4)) {
    TF_Tensor* vals[2] = {int_scalar(start), float_scalar(1)};
    TF_Output acc_out = {w, 1}, i_out = {w, 0};
    TF_Tensor* out = run1(g, feeds, vals, 2, acc_out, s);
    float want = (float)(1 << (5 - start));
    CHECK_CODE(s, TF_OK);
    CHECK(*(float*)TF_TensorData(out) == want);
    TF_DeleteTensor(out);
    out = run1(g, feeds, vals, 2, i_out, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(*(int32_t*)TF_TensorData(out), 5);
    TF_DeleteTensor(out);
    TF_DeleteTensor(vals[0]);
    TF_DeleteTensor(vals[1]);
    if (start == 0) break;
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* An outer loop whose body runs an inner loop: acc doubles 3 * 4 times. */
TEST(graph_nested_while) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Graph* bg;
  TF_Function* f;
  TF_Operation *i0, *a0, *w;
  TF_Output feeds[2], acc_out;
  TF_Tensor* vals[2];
  TF_Tensor* out;
  add_loop_fns(g, "inner_cond", "inner_body", 4, s);
  add_loop_fns(g, "outer_cond", "unused_body", 3, s);
  /* outer body(i, acc) = (i + 1, While(0, acc){inner}.acc) */
  bg = TF_NewGraph();
  {
    TF_Operation* i = placeholder(bg, "i", TF_INT32);
    TF_Operation* acc = placeholder(bg, "acc", TF_FLOAT);
    TF_Operation* zero = scalar_const(bg, "zero", TF_INT32, 0);
    TF_Operation* one = scalar_const(bg, "one", TF_INT32, 1);
    TF_Operation* i1 = binary(bg, "AddV2", "i1", out0(i), out0(one));
    TF_Operation* inner;
    TF_Output ins[2] = {out0(i), out0(acc)}, outs[2];
    TF_Status* s2 = TF_NewStatus();
    /* The body graph must know the functions it calls. */
    TF_Function* fs[8];
    int n = TF_GraphGetFunctions(g, fs, 8, s2), k;
    for (k = 0; k < n; k++) add_fn(bg, fs[k]);
    inner = while_op(bg, "inner", out0(zero), out0(acc), "inner_cond",
                     "inner_body", s2);
    outs[0] = out0(i1);
    outs[1].oper = inner;
    outs[1].index = 1;
    f = TF_GraphToFunction(bg, "outer_body", 0, -1, NULL, 2, ins, 2, outs,
                           NULL, NULL, NULL, s2);
    CHECK_CODE(s2, TF_OK);
    TF_DeleteStatus(s2);
  }
  add_fn(g, f);
  TF_DeleteGraph(bg);
  i0 = placeholder(g, "i0", TF_INT32);
  a0 = placeholder(g, "a0", TF_FLOAT);
  w = while_op(g, "outer", out0(i0), out0(a0), "outer_cond", "outer_body", s);
  feeds[0] = out0(i0);
  feeds[1] = out0(a0);
  vals[0] = int_scalar(0);
  vals[1] = float_scalar(1);
  acc_out.oper = w;
  acc_out.index = 1;
  out = run1(g, feeds, vals, 2, acc_out, s);
  CHECK_CODE(s, TF_OK);
  CHECK(*(float*)TF_TensorData(out) == 4096.0f);
  TF_DeleteTensor(out);
  TF_DeleteTensor(vals[0]);
  TF_DeleteTensor(vals[1]);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* A loop carrying a TensorList: pushes i for i in 0..n-1, then the list's
 * length and its stacked values are read after the loop. */
TEST(graph_while_tensor_list) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Graph* fg;
  TF_Function* f;
  TF_Operation *n, *shape, *lst, *zero, *w, *len;
  TF_OperationDescription* d;
  /* cond(i, n, l) = i < n */
  fg = TF_NewGraph();
  {
    TF_Operation* i = placeholder(fg, "i", TF_INT32);
    TF_Operation* nn = placeholder(fg, "n", TF_INT32);
    TF_Operation* l = placeholder(fg, "l", TF_VARIANT);
    TF_Operation* lt = binary(fg, "Less", "lt", out0(i), out0(nn));
    TF_Output ins[3] = {out0(i), out0(nn), out0(l)}, outs[1] = {out0(lt)};
    f = TF_GraphToFunction(fg, "tl_cond", 0, -1, NULL, 3, ins, 1, outs, NULL,
                           NULL, NULL, s);
    CHECK_CODE(s, TF_OK);
  }
  add_fn(g, f);
  TF_DeleteGraph(fg);
  /* body(i, n, l) = (i + 1, n, PushBack(l, i)) */
  fg = TF_NewGraph();
  {
    TF_Operation* i = placeholder(fg, "i", TF_INT32);
    TF_Operation* nn = placeholder(fg, "n", TF_INT32);
    TF_Operation* l = placeholder(fg, "l", TF_VARIANT);
    TF_Operation* one = scalar_const(fg, "one", TF_INT32, 1);
    TF_Operation* i1 = binary(fg, "AddV2", "i1", out0(i), out0(one));
    TF_Operation* push;
    TF_Output ins[3] = {out0(i), out0(nn), out0(l)}, outs[3];
    d = TF_NewOperation(fg, "TensorListPushBack", "push");
    TF_AddInput(d, out0(l));
    TF_AddInput(d, out0(i));
    TF_SetAttrType(d, "element_dtype", TF_INT32);
    push = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
    outs[0] = out0(i1);
    outs[1] = out0(nn);
    outs[2] = out0(push);
    f = TF_GraphToFunction(fg, "tl_body", 0, -1, NULL, 3, ins, 3, outs, NULL,
                           NULL, NULL, s);
    CHECK_CODE(s, TF_OK);
  }
  add_fn(g, f);
  TF_DeleteGraph(fg);
  n = placeholder(g, "n", TF_INT32);
  zero = scalar_const(g, "zero", TF_INT32, 0);
  shape = scalar_const(g, "shape", TF_INT32, -1);
  d = TF_NewOperation(g, "EmptyTensorList", "empty");
  TF_AddInput(d, out0(shape));
  {
    TF_Operation* maxn = scalar_const(g, "maxn", TF_INT32, -1);
    TF_AddInput(d, out0(maxn));
  }
  TF_SetAttrType(d, "element_dtype", TF_INT32);
  TF_SetAttrType(d, "shape_type", TF_INT32);
  lst = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "While", "loop");
  {
    TF_Output ins[3] = {out0(zero), out0(n), out0(lst)};
    TF_AddInputList(d, ins, 3);
  }
  TF_SetAttrFuncName(d, "cond", "tl_cond", 7);
  TF_SetAttrFuncName(d, "body", "tl_body", 7);
  w = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "TensorListLength", "len");
  {
    TF_Output l = {w, 2};
    TF_AddInput(d, l);
  }
  len = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  {
    const int32_t counts[3] = {0, 1, 6};
    int k;
    for (k = 0; k < 3; k++) {
      TF_Output feeds[1] = {out0(n)};
      TF_Tensor* vals[1] = {int_scalar(counts[k])};
      TF_Tensor* out = run1(g, feeds, vals, 1, out0(len), s);
      CHECK_CODE(s, TF_OK);
      CHECK_EQ_INT(*(int32_t*)TF_TensorData(out), counts[k]);
      TF_DeleteTensor(out);
      TF_DeleteTensor(vals[0]);
    }
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* A kernel error inside a function body stops the call with its status. */
TEST(graph_function_body_error) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Graph* fg = TF_NewGraph();
  TF_Function* f;
  TF_Operation *x, *call;
  TF_OperationDescription* d;
  TF_Tensor* out;
  TF_Tensor* v;
  {
    /* f(a) = a / 0 in integers: INVALID_ARGUMENT when it runs. */
    TF_Operation* a = placeholder(fg, "a", TF_INT32);
    TF_Operation* z = scalar_const(fg, "zero", TF_INT32, 0);
    TF_Operation* q = binary(fg, "FloorDiv", "q", out0(a), out0(z));
    TF_Output ins[1] = {out0(a)}, outs[1] = {out0(q)};
    f = TF_GraphToFunction(fg, "div_zero", 0, -1, NULL, 1, ins, 1, outs,
                           NULL, NULL, NULL, s);
    CHECK_CODE(s, TF_OK);
  }
  TF_DeleteGraph(fg);
  add_fn(g, f);
  x = placeholder(g, "x", TF_INT32);
  d = TF_NewOperation(g, "div_zero", "call");
  TF_AddInput(d, out0(x));
  call = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  {
    TF_Output feeds[1] = {out0(x)};
    v = int_scalar(7);
    out = run1(g, feeds, &v, 1, out0(call), s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "Integer division by zero");
    CHECK(out == NULL);
    TF_DeleteTensor(v);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* ======================================================================
 * Fault injection over the graph side: TF_GraphToFunction, export and
 * import of the FunctionDef, TF_GraphCopyFunction (with a gradient),
 * TF_GraphGetFunctions and a session running a call by name. The n-th
 * allocation (and every later one) fails, for n = 0, 1, ...; each run
 * ends with RESOURCE_EXHAUSTED (or a NULL where the function documents
 * one) or the right value, never a crash or (under ASan) a leak. */

static int64_t g_fi_point = -1;

static TF_Code fi_check(TF_Status* s) {
  TF_Code c = TF_GetCode(s);
  if (c != TF_OK && c != TF_RESOURCE_EXHAUSTED) {
    TFE_FAIL("failing allocation %lld: unexpected error %d: %s",
             (long long)g_fi_point, (int)c, TF_Message(s));
  }
  return c;
}

static TF_Code fi_graph_workload(int* checked) {
  TF_Status* s = TF_NewStatus();
  TF_Graph *g = NULL, *g2 = NULL;
  TF_Function *f = NULL, *f2 = NULL, *got[2] = {NULL, NULL};
  TF_Buffer* b = NULL;
  TF_Session* sess = NULL;
  TF_SessionOptions* opts = NULL;
  TF_Tensor *in[2] = {NULL, NULL}, *out = NULL;
  TF_Code code = TF_RESOURCE_EXHAUSTED;
  TF_OperationDescription* d;
  TF_Operation *a, *bb, *sum, *x, *call;
  int n, i;
  if (s == NULL) return code;
  g = TF_NewGraph();
  if (g == NULL) goto done;
  d = TF_NewOperation(g, "Placeholder", "a");
  if (d == NULL) goto done;
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  a = TF_FinishOperation(d, s);
  if (fi_check(s) != TF_OK) goto done;
  d = TF_NewOperation(g, "Placeholder", "b");
  if (d == NULL) goto done;
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  bb = TF_FinishOperation(d, s);
  if (fi_check(s) != TF_OK) goto done;
  d = TF_NewOperation(g, "Mul", "m");
  if (d == NULL) goto done;
  TF_AddInput(d, out0(a));
  TF_AddInput(d, out0(bb));
  sum = TF_FinishOperation(d, s);
  if (fi_check(s) != TF_OK) goto done;
  {
    TF_Output ins[2] = {out0(a), out0(bb)}, outs[1] = {out0(sum)};
    f = TF_GraphToFunction(g, "fi_mul", 1, -1, NULL, 2, ins, 1, outs, NULL,
                           NULL, "d", s);
    if (fi_check(s) != TF_OK) goto done;
  }
  b = TF_NewBuffer();
  if (b == NULL) goto done;
  TF_FunctionToFunctionDef(f, b, s);
  if (fi_check(s) != TF_OK) goto done;
  f2 = TF_FunctionImportFunctionDef(b->data, b->length, s);
  if (fi_check(s) != TF_OK) goto done;
  g2 = TF_NewGraph();
  if (g2 == NULL) goto done;
  TF_GraphCopyFunction(g2, f2, f, s);
  if (fi_check(s) != TF_OK) goto done;
  n = TF_GraphGetFunctions(g2, got, 2, s);
  if (fi_check(s) != TF_OK) goto done;
  CHECK_EQ_INT(n, 1); /* the same function as its own gradient: one */
  d = TF_NewOperation(g2, "Placeholder", "x");
  if (d == NULL) goto done;
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  x = TF_FinishOperation(d, s);
  if (fi_check(s) != TF_OK) goto done;
  d = TF_NewOperation(g2, TF_FunctionName(f2), "call");
  if (d == NULL) goto done;
  TF_AddInput(d, out0(x));
  TF_AddInput(d, out0(x));
  call = TF_FinishOperation(d, s);
  if (fi_check(s) != TF_OK) goto done;
  opts = TF_NewSessionOptions();
  if (opts == NULL) goto done;
  sess = TF_NewSession(g2, opts, s);
  if (fi_check(s) != TF_OK) goto done;
  in[0] = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  if (in[0] == NULL) goto done;
  *(float*)TF_TensorData(in[0]) = 3.0f;
  {
    TF_Output feed = out0(x), fetch = out0(call);
    TF_SessionRun(sess, NULL, &feed, in, 1, &fetch, &out, 1, NULL, 0, NULL,
                  s);
    if (fi_check(s) != TF_OK) goto done;
  }
  CHECK(*(float*)TF_TensorData(out) == 9.0f);
  (*checked)++;
  code = TF_OK;
done:
  if (sess != NULL) {
    TF_Status* s2 = TF_NewStatus();
    TF_CloseSession(sess, s2 != NULL ? s2 : s);
    TF_DeleteSession(sess, s2 != NULL ? s2 : s);
    TF_DeleteStatus(s2);
  }
  TF_DeleteSessionOptions(opts);
  for (i = 0; i < 2; i++) {
    if (in[i] != NULL) TF_DeleteTensor(in[i]);
    TF_DeleteFunction(got[i]);
  }
  if (out != NULL) TF_DeleteTensor(out);
  TF_DeleteBuffer(b);
  TF_DeleteFunction(f);
  TF_DeleteFunction(f2);
  TF_DeleteGraph(g);
  TF_DeleteGraph(g2);
  TF_DeleteStatus(s);
  return code;
}

TEST(fault_injection_graph_functions) {
  int checked = 0, ok_runs = 0;
  int64_t n;
  CHECK_EQ_INT(fi_graph_workload(&checked), TF_OK);
  for (n = 0; n < 50000 && ok_runs < 3; n++) {
    TF_Code c;
    g_fi_point = n;
    TFE_TestFailAllocationsAfter(n);
    c = fi_graph_workload(&checked);
    TFE_TestFailAllocationsAfter(-1);
    ok_runs = c == TF_OK ? ok_runs + 1 : 0;
  }
  CHECK(ok_runs == 3);
  printf("fault injection: %lld allocation points, %d runs with values "
         "checked\n",
         (long long)n, checked);
}

/* ======================================================================
 * FunctionDefs written by TF 2.21 (tests/data/graphs/NAME.fdef.pb, generated
 * with the pip package; manifest.json describes them). Here: import and
 * export keep them; test_functions_eager.c runs them. */

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
  buf[n] = '\0';
  fclose(fp);
  *len = (size_t)n;
  return buf;
}

TEST(tf_written_function_defs) {
  static const char* const names[] = {"fn_poly", "fn_int_multi",
                                      "fn_strings", NULL};
  TF_Status* s = TF_NewStatus();
  int i, found = 0;
  for (i = 0; names[i] != NULL; i++) {
    char path[1024];
    size_t len, len2;
    char *bytes, *again;
    TF_Function* f;
    snprintf(path, sizeof(path), "%s/graphs/%s.fdef.pb", TFE_TEST_DATA_DIR,
             names[i]);
    bytes = read_file(path, &len);
    CHECK(bytes != NULL);
    found++;
    f = TF_FunctionImportFunctionDef(bytes, len, s);
    CHECK_CODE(s, TF_OK);
    /* Export keeps every node and the signature. */
    CHECK(strncmp(TF_FunctionName(f), "__inference_", 12) == 0);
    again = fdef_bytes(f, &len2);
    {
      /* Export then import gives the same definition (same bytes). */
      TF_Function* f2 = TF_FunctionImportFunctionDef(again, len2, s);
      size_t len3;
      char* third;
      CHECK_CODE(s, TF_OK);
      CHECK_STR_EQ(TF_FunctionName(f2), TF_FunctionName(f));
      third = fdef_bytes(f2, &len3);
      CHECK_EQ_SIZE(len3, len2);
      CHECK(memcmp(third, again, len2) == 0);
      free(third);
      TF_DeleteFunction(f2);
    }
    free(again);
    free(bytes);
    TF_DeleteFunction(f);
  }
  CHECK_EQ_INT(found, 3);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
