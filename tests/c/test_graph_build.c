/* Graph construction and introspection through tensorflow/c/c_api.h:
 * TF_NewGraph .. TF_FinishOperation with TF's error codes, operation
 * queries, every attr getter, name lookup and iteration, static shapes,
 * GraphDef / VersionDef / OpDef / NodeDef export, the experimental edits
 * (TF_UpdateEdge, control inputs, devices, TF_SetAttr/TF_ClearAttr),
 * TF_TryEvaluateConstant, the Placeholder kernel, NULL arguments, and a
 * large graph (name lookups must stay O(1)). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/ops.h"
#include "tfe_test.h"

static TF_Output O(TF_Operation* op, int i) {
  TF_Output o;
  o.oper = op;
  o.index = i;
  return o;
}

static TF_Input I(TF_Operation* op, int i) {
  TF_Input x;
  x.oper = op;
  x.index = i;
  return x;
}

static TF_Operation* placeholder(TF_Graph* g, const char* name,
                                 TF_DataType dt, const int64_t* dims, int nd,
                                 TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", dt);
  if (nd >= 0) TF_SetAttrShape(d, "shape", dims, nd);
  return TF_FinishOperation(d, s);
}

static TF_Operation* const_f32(TF_Graph* g, const char* name,
                               const int64_t* dims, int nd, const float* v,
                               TF_Status* s) {
  size_t n = 1;
  int i;
  TF_Tensor* t;
  TF_OperationDescription* d;
  TF_Operation* op;
  for (i = 0; i < nd; i++) n *= (size_t)dims[i];
  t = TF_AllocateTensor(TF_FLOAT, dims, nd, n * sizeof(float));
  memcpy(TF_TensorData(t), v, n * sizeof(float));
  d = TF_NewOperation(g, "Const", name);
  TF_SetAttrTensor(d, "value", t, s);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_DeleteTensor(t); /* TF_SetAttrTensor copied it */
  op = TF_FinishOperation(d, s);
  return op;
}

static TF_Operation* scalar_i32(TF_Graph* g, const char* name, int32_t v,
                                TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
  TF_OperationDescription* d;
  *(int32_t*)TF_TensorData(t) = v;
  d = TF_NewOperation(g, "Const", name);
  TF_SetAttrTensor(d, "value", t, s);
  TF_SetAttrType(d, "dtype", TF_INT32);
  TF_DeleteTensor(t);
  return TF_FinishOperation(d, s);
}

static TF_Operation* binop(TF_Graph* g, const char* type, const char* name,
                           TF_Output a, TF_Output b, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInput(d, a);
  TF_AddInput(d, b);
  return TF_FinishOperation(d, s);
}

static TF_Operation* unop(TF_Graph* g, const char* type, const char* name,
                          TF_Output a, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInput(d, a);
  return TF_FinishOperation(d, s);
}

static int count_ops(TF_Graph* g) {
  size_t pos = 0;
  int n = 0;
  while (TF_GraphNextOperation(g, &pos) != NULL) n++;
  return n;
}

/* Number of occurrences of top-level field `f` in a serialized message
 * (-1 when malformed). */
static int pb_count(const unsigned char* p, size_t len, unsigned f) {
  size_t i = 0;
  int n = 0;
  while (i < len) {
    uint64_t key = 0, v = 0;
    int sh = 0;
    do {
      if (i >= len) return -1;
      key |= (uint64_t)(p[i] & 0x7f) << sh;
      sh += 7;
    } while (p[i++] & 0x80);
    if ((key >> 3) == f) n++;
    switch (key & 7) {
      case 0:
        while (i < len && (p[i] & 0x80)) i++;
        i++;
        break;
      case 1: i += 8; break;
      case 5: i += 4; break;
      case 2:
        sh = 0;
        do {
          if (i >= len) return -1;
          v |= (uint64_t)(p[i] & 0x7f) << sh;
          sh += 7;
        } while (p[i++] & 0x80);
        i += (size_t)v;
        break;
      default: return -1;
    }
  }
  return i == len ? n : -1;
}

static int contains(const unsigned char* p, size_t len, const char* needle) {
  size_t n = strlen(needle), i;
  for (i = 0; i + n <= len; i++) {
    if (memcmp(p + i, needle, n) == 0) return 1;
  }
  return 0;
}

/* A small graph used by several tests:
 *   x: Placeholder float [?,3]   w: Const [3,2]   b: Const [2]
 *   mm = MatMul(x, w)   add = AddV2(mm, b)   id = Identity(add) on /cpu:0
 *   noop: NoOp with control inputs add, id */
typedef struct small_graph {
  TF_Graph* g;
  TF_Operation *x, *w, *b, *mm, *add, *id, *noop;
} small_graph;

static void build_small(small_graph* sg, TF_Status* s) {
  const int64_t xd[2] = {-1, 3}, wd[2] = {3, 2}, bd[1] = {2};
  const float wv[6] = {1, 2, 3, 4, 5, 6}, bv[2] = {0.5f, -0.5f};
  TF_OperationDescription* d;
  sg->g = TF_NewGraph();
  sg->x = placeholder(sg->g, "x", TF_FLOAT, xd, 2, s);
  CHECK_CODE(s, TF_OK);
  sg->w = const_f32(sg->g, "w", wd, 2, wv, s);
  CHECK_CODE(s, TF_OK);
  sg->b = const_f32(sg->g, "b", bd, 1, bv, s);
  CHECK_CODE(s, TF_OK);
  sg->mm = binop(sg->g, "MatMul", "mm", O(sg->x, 0), O(sg->w, 0), s);
  CHECK_CODE(s, TF_OK);
  sg->add = binop(sg->g, "AddV2", "add", O(sg->mm, 0), O(sg->b, 0), s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(sg->g, "Identity", "id");
  TF_AddInput(d, O(sg->add, 0));
  TF_SetDevice(d, "/cpu:0");
  sg->id = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(sg->g, "NoOp", "noop");
  TF_AddControlInput(d, sg->add);
  TF_AddControlInput(d, sg->id);
  TF_AddControlInput(d, sg->add); /* duplicates are kept once */
  sg->noop = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
}

/* ------------------------------------------------------------------------
 * Building and querying. */

TEST(build_and_query_operations) {
  TF_Status* s = TF_NewStatus();
  small_graph sg;
  TF_Output all[4];
  TF_Input cons[4];
  TF_Operation* ops[4];
  build_small(&sg, s);
  CHECK_EQ_INT(count_ops(sg.g), 7);
  CHECK_STR_EQ(TF_OperationName(sg.mm), "mm");
  CHECK_STR_EQ(TF_OperationOpType(sg.mm), "MatMul");
  CHECK_STR_EQ(TF_OperationDevice(sg.mm), "");
  CHECK_STR_EQ(TF_OperationDevice(sg.id), "/cpu:0");
  CHECK_EQ_INT(TF_OperationNumInputs(sg.mm), 2);
  CHECK_EQ_INT(TF_OperationNumOutputs(sg.mm), 1);
  CHECK_EQ_INT(TF_OperationNumOutputs(sg.noop), 0);
  CHECK_EQ_INT(TF_OperationOutputType(O(sg.mm, 0)), TF_FLOAT);
  CHECK_EQ_INT(TF_OperationInputType(I(sg.add, 1)), TF_FLOAT);
  CHECK(TF_OperationInput(I(sg.mm, 1)).oper == sg.w);
  CHECK_EQ_INT(TF_OperationInput(I(sg.mm, 1)).index, 0);
  TF_OperationAllInputs(sg.mm, all, 4);
  CHECK(all[0].oper == sg.x && all[1].oper == sg.w);
  /* consumers */
  CHECK_EQ_INT(TF_OperationOutputNumConsumers(O(sg.add, 0)), 1);
  CHECK_EQ_INT(TF_OperationOutputConsumers(O(sg.add, 0), cons, 4), 1);
  CHECK(cons[0].oper == sg.id && cons[0].index == 0);
  CHECK_EQ_INT(TF_OperationOutputConsumers(O(sg.w, 0), cons, 0), 1);
  CHECK_EQ_INT(TF_OperationOutputNumConsumers(O(sg.id, 0)), 0);
  /* control edges */
  CHECK_EQ_INT(TF_OperationNumControlInputs(sg.noop), 2);
  CHECK_EQ_INT(TF_OperationGetControlInputs(sg.noop, ops, 4), 2);
  CHECK(ops[0] == sg.add && ops[1] == sg.id);
  CHECK_EQ_INT(TF_OperationGetControlInputs(sg.noop, ops, 1), 2);
  CHECK_EQ_INT(TF_OperationNumControlOutputs(sg.add), 1);
  CHECK_EQ_INT(TF_OperationGetControlOutputs(sg.add, ops, 4), 1);
  CHECK(ops[0] == sg.noop);
  /* lookup and iteration */
  CHECK(TF_GraphOperationByName(sg.g, "mm") == sg.mm);
  CHECK(TF_GraphOperationByName(sg.g, "mm:0") == NULL);
  CHECK(TF_GraphOperationByName(sg.g, "nope") == NULL);
  {
    size_t pos = 0;
    CHECK(TF_GraphNextOperation(sg.g, &pos) == sg.x);
    CHECK(TF_GraphNextOperation(sg.g, &pos) == sg.w);
    pos = 7;
    CHECK(TF_GraphNextOperation(sg.g, &pos) == NULL);
    CHECK_EQ_SIZE(pos, 7);
  }
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

TEST(list_inputs_and_outputs) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  const int64_t d42[2] = {4, 2};
  const float v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  TF_Operation* m = const_f32(g, "m", d42, 2, v, s);
  TF_Operation* axis = scalar_i32(g, "axis", 0, s);
  TF_Operation *split, *addn, *idn, *concat;
  TF_OperationDescription* d;
  TF_DataType types[3];
  {
    TF_Output l[3] = {O(m, 0), O(m, 0), O(m, 0)};
    d = TF_NewOperation(g, "AddN", "addn");
    TF_AddInputList(d, l, 3);
    addn = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
  }
  d = TF_NewOperation(g, "Split", "split");
  TF_AddInput(d, O(axis, 0));
  TF_AddInput(d, O(m, 0));
  TF_SetAttrInt(d, "num_split", 2);
  split = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  {
    TF_Output l[2] = {O(m, 0), O(axis, 0)};
    d = TF_NewOperation(g, "IdentityN", "idn");
    TF_AddInputList(d, l, 2);
    idn = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
  }
  {
    TF_Output l[2] = {O(split, 0), O(split, 1)};
    d = TF_NewOperation(g, "ConcatV2", "concat");
    TF_AddInputList(d, l, 2);
    TF_AddInput(d, O(axis, 0));
    concat = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
  }
  CHECK_EQ_INT(TF_OperationNumInputs(addn), 3);
  CHECK_EQ_INT(TF_OperationInputListLength(addn, "inputs", s), 3);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_OperationOutputListLength(split, "output", s), 2);
  CHECK_EQ_INT(TF_OperationNumOutputs(split), 2);
  CHECK_EQ_INT(TF_OperationOutputListLength(idn, "output", s), 2);
  CHECK_EQ_INT(TF_OperationInputListLength(concat, "axis", s), 1);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_OperationOutputListLength(split, "nope", s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TF_OperationInputListLength(NULL, "x", s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_OperationGetAttrTypeList(idn, "T", types, 3, s);
  CHECK_CODE(s, TF_OK);
  CHECK(types[0] == TF_FLOAT && types[1] == TF_INT32);
  CHECK_EQ_INT(TF_OperationOutputType(O(idn, 1)), TF_INT32);
  {
    int64_t n = 0;
    TF_OperationGetAttrInt(concat, "N", &n, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(n, 2);
  }
  CHECK_EQ_INT(TF_OperationOutputNumConsumers(O(m, 0)), 5);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * TF_FinishOperation errors. */

static void expect_finish_error(TF_OperationDescription* d, TF_Code code,
                                const char* needle) {
  TF_Status* s = TF_NewStatus();
  TF_Operation* op = TF_FinishOperation(d, s);
  CHECK(op == NULL);
  CHECK_CODE(s, code);
  if (needle != NULL) CHECK_STR_CONTAINS(TF_Message(s), needle);
  TF_DeleteStatus(s);
}

TEST(finish_errors) {
  TF_Status* s = TF_NewStatus();
  small_graph sg;
  TF_OperationDescription* d;
  TF_Operation* ic;
  int before;
  build_small(&sg, s);
  ic = scalar_i32(sg.g, "int_c", 7, s);
  before = count_ops(sg.g);

  d = TF_NewOperation(sg.g, "NoSuchOp", "bad_type");
  expect_finish_error(d, TF_INVALID_ARGUMENT, "Op type not registered 'NoSuchOp'");

  d = TF_NewOperation(sg.g, "AddV2", "bad_dtype");
  TF_AddInput(d, O(sg.b, 0));
  TF_AddInput(d, O(ic, 0));
  expect_finish_error(d, TF_INVALID_ARGUMENT, "Inconsistent values for attr 'T'");

  d = TF_NewOperation(sg.g, "Placeholder", "no_dtype");
  expect_finish_error(d, TF_INVALID_ARGUMENT, "NodeDef missing attr 'dtype'");

  d = TF_NewOperation(sg.g, "Cast", "no_dstt");
  TF_AddInput(d, O(sg.b, 0));
  expect_finish_error(d, TF_INVALID_ARGUMENT, "missing attr 'DstT'");

  d = TF_NewOperation(sg.g, "Identity", "w");
  TF_AddInput(d, O(sg.b, 0));
  expect_finish_error(d, TF_INVALID_ARGUMENT, "Duplicate node name in graph: 'w'");
  CHECK_STR_EQ(TF_OperationOpType(TF_GraphOperationByName(sg.g, "w")), "Const");

  d = TF_NewOperation(sg.g, "AddV2", "too_few");
  TF_AddInput(d, O(sg.b, 0));
  expect_finish_error(d, TF_INVALID_ARGUMENT, "1 inputs specified of 2 inputs");

  d = TF_NewOperation(sg.g, "Identity", "too_many");
  TF_AddInput(d, O(sg.b, 0));
  TF_AddInput(d, O(sg.b, 0));
  expect_finish_error(d, TF_INVALID_ARGUMENT, "More Input() calls");

  d = TF_NewOperation(sg.g, "AddN", "single_for_list");
  TF_AddInput(d, O(sg.b, 0));
  expect_finish_error(d, TF_INVALID_ARGUMENT, "expected list");

  {
    TF_Output l[1] = {O(sg.b, 0)};
    d = TF_NewOperation(sg.g, "Identity", "list_for_single");
    TF_AddInputList(d, l, 1);
    expect_finish_error(d, TF_INVALID_ARGUMENT, "when single Tensor expected");
  }

  d = TF_NewOperation(sg.g, "MatMul", "attr_kind");
  TF_AddInput(d, O(sg.x, 0));
  TF_AddInput(d, O(sg.w, 0));
  TF_SetAttrInt(d, "transpose_a", 1);
  expect_finish_error(d, TF_INVALID_ARGUMENT, "transpose_a");

  d = TF_NewOperation(sg.g, "Identity", "unknown_attr");
  TF_AddInput(d, O(sg.b, 0));
  TF_SetAttrInt(d, "no_such_attr", 1);
  expect_finish_error(d, TF_INVALID_ARGUMENT, "NodeDef mentions attr 'no_such_attr'");

  d = TF_NewOperation(sg.g, "Identity", "bad_index");
  TF_AddInput(d, O(sg.w, 5));
  expect_finish_error(d, TF_INVALID_ARGUMENT, "Attempt to add output 5 of w");

  d = TF_NewOperation(sg.g, "Identity", "null_input");
  TF_AddInput(d, O(NULL, 0));
  expect_finish_error(d, TF_INVALID_ARGUMENT, "nullptr");

  d = TF_NewOperation(sg.g, "Identity", "inconsistent");
  TF_AddInput(d, O(sg.b, 0));
  TF_SetAttrType(d, "T", TF_INT32);
  expect_finish_error(d, TF_INVALID_ARGUMENT, "Inconsistent values for attr 'T'");

  d = TF_NewOperation(sg.g, "Identity", "twice");
  TF_AddInput(d, O(sg.b, 0));
  TF_SetAttrInt(d, "_extra", 1);
  TF_SetAttrInt(d, "_extra", 2);
  expect_finish_error(d, TF_INVALID_ARGUMENT, "Inconsistent values for attr '_extra'");

  d = TF_NewOperation(sg.g, "Split", "bad_allowed");
  TF_AddInput(d, O(sg.b, 0)); /* split_dim must be int32 */
  TF_AddInput(d, O(sg.w, 0));
  TF_SetAttrInt(d, "num_split", 1);
  expect_finish_error(d, TF_INVALID_ARGUMENT, "expected int32");

  d = TF_NewOperation(sg.g, "MatMul", "bad_shape");
  TF_AddInput(d, O(sg.w, 0));
  TF_AddInput(d, O(sg.w, 0));
  expect_finish_error(d, TF_INVALID_ARGUMENT, NULL);

  {
    TF_Graph* other = TF_NewGraph();
    TF_Operation* oc = scalar_i32(other, "oc", 1, s);
    d = TF_NewOperation(sg.g, "Identity", "cross_graph");
    TF_AddInput(d, O(oc, 0));
    expect_finish_error(d, TF_INVALID_ARGUMENT, "different graph");
    d = TF_NewOperation(sg.g, "NoOp", "cross_graph_ctl");
    TF_AddControlInput(d, oc);
    expect_finish_error(d, TF_INVALID_ARGUMENT, "different graph");
    TF_DeleteGraph(other);
  }

  /* Two errors are reported together. */
  d = TF_NewOperation(sg.g, "AddN", "two_errors");
  TF_AddInput(d, O(sg.b, 0));
  TF_AddInput(d, O(sg.b, 0));
  expect_finish_error(d, TF_INVALID_ARGUMENT, "errors while building NodeDef");

  /* Nothing was added, and the failed names stay free. */
  CHECK_EQ_INT(count_ops(sg.g), before);
  CHECK(TF_GraphOperationByName(sg.g, "bad_dtype") == NULL);
  CHECK(unop(sg.g, "Identity", "bad_dtype", O(sg.b, 0), s) != NULL);
  CHECK_CODE(s, TF_OK);

  /* A NULL description (TF_NewOperation on a NULL graph). */
  CHECK(TF_NewOperation(NULL, "NoOp", "n") == NULL);
  CHECK(TF_FinishOperation(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_FinishOperationLocked(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* NULL op type or name: the finish fails. */
  d = TF_NewOperation(sg.g, NULL, "n1");
  expect_finish_error(d, TF_INVALID_ARGUMENT, NULL);
  d = TF_NewOperation(sg.g, "NoOp", NULL);
  expect_finish_error(d, TF_INVALID_ARGUMENT, NULL);

  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

TEST(device_string_is_kept_verbatim) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* c = scalar_i32(g, "c", 1, s);
  TF_OperationDescription* d = TF_NewOperation(g, "Identity", "i");
  TF_Operation* op;
  TF_AddInput(d, O(c, 0));
  TF_SetDevice(d, "not a device");
  TF_SetDevice(d, "this is not a device either"); /* the last one wins */
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TF_OperationDevice(op), "this is not a device either");
  TF_SetRequestedDevice(g, op, "/device:CPU:0");
  CHECK_STR_EQ(TF_OperationDevice(op), "/device:CPU:0");
  TF_SetRequestedDevice(g, NULL, "/device:CPU:0");
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Attrs: every setter and getter. */

TEST(attr_setters_and_getters) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* c = scalar_i32(g, "c", 3, s);
  TF_OperationDescription* d = TF_NewOperation(g, "Identity", "all");
  TF_Operation* op;
  const void* strs[2] = {"ab", "cde"};
  size_t lens[2] = {2, 3};
  int64_t ints[3] = {1, -2, 3};
  float floats[2] = {0.5f, -1.5f};
  unsigned char bools[2] = {1, 0};
  TF_DataType types[2] = {TF_INT64, TF_STRING};
  int64_t d1[2] = {2, -1}, d2[1] = {7};
  const int64_t* shapes[3] = {d1, d2, NULL};
  int nds[3] = {2, 1, -1};
  TF_Tensor* tv = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
  TF_Tensor* tl[2];
  *(int32_t*)TF_TensorData(tv) = 42;
  tl[0] = tv;
  tl[1] = tv;
  TF_AddInput(d, O(c, 0));
  TF_SetAttrString(d, "_s", "hello", 5);
  TF_SetAttrStringList(d, "_sl", strs, lens, 2);
  TF_SetAttrInt(d, "_i", -9);
  TF_SetAttrIntList(d, "_il", ints, 3);
  TF_SetAttrFloat(d, "_f", 2.5f);
  TF_SetAttrFloatList(d, "_fl", floats, 2);
  TF_SetAttrBool(d, "_b", 7); /* any non-zero is true */
  TF_SetAttrBoolList(d, "_bl", bools, 2);
  TF_SetAttrType(d, "_t", TF_DOUBLE);
  TF_SetAttrTypeList(d, "_tl", types, 2);
  TF_SetAttrShape(d, "_sh", d1, 2);
  TF_SetAttrShape(d, "_unk", NULL, -1);
  TF_SetAttrShapeList(d, "_shl", shapes, nds, 3);
  TF_SetAttrFuncName(d, "_fn", "my_fn", 5);
  TF_SetAttrTensor(d, "_tv", tv, s);
  CHECK_CODE(s, TF_OK);
  TF_SetAttrTensorList(d, "_tvl", tl, 2, s);
  CHECK_CODE(s, TF_OK);
  TF_SetAttrIntList(d, "_empty", NULL, 0);
  TF_DeleteTensor(tv);
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  CHECK(op != NULL);

  {
    char buf[16] = {0};
    TF_AttrMetadata m = TF_OperationGetAttrMetadata(op, "_s", s);
    CHECK_CODE(s, TF_OK);
    CHECK(m.is_list == 0 && m.type == TF_ATTR_STRING && m.total_size == 5);
    TF_OperationGetAttrString(op, "_s", buf, 3, s); /* truncated */
    CHECK_CODE(s, TF_OK);
    CHECK_STR_EQ(buf, "hel");
    TF_OperationGetAttrString(op, "_i", buf, 3, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
  }
  {
    void* vals[2];
    size_t ls[2];
    char storage[8];
    TF_AttrMetadata m = TF_OperationGetAttrMetadata(op, "_sl", s);
    CHECK(m.is_list == 1 && m.list_size == 2 && m.total_size == 5);
    TF_OperationGetAttrStringList(op, "_sl", vals, ls, 2, storage, 8, s);
    CHECK_CODE(s, TF_OK);
    CHECK(ls[0] == 2 && ls[1] == 3 && memcmp(vals[1], "cde", 3) == 0);
    TF_OperationGetAttrStringList(op, "_sl", vals, ls, 2, storage, 4, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "Not enough storage");
  }
  {
    int64_t i = 0, il[4] = {0};
    TF_OperationGetAttrInt(op, "_i", &i, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(i, -9);
    TF_OperationGetAttrIntList(op, "_il", il, 2, s); /* first two only */
    CHECK_CODE(s, TF_OK);
    CHECK(il[0] == 1 && il[1] == -2 && il[2] == 0);
    TF_OperationGetAttrIntList(op, "_empty", il, 4, s);
    CHECK_CODE(s, TF_OK);
    TF_OperationGetAttrFloatList(op, "_empty", floats, 2, s);
    CHECK_CODE(s, TF_OK); /* an empty list is a list of any kind */
  }
  {
    float f = 0, fl[2] = {0};
    unsigned char b = 0, bl[2] = {9, 9};
    TF_DataType t = TF_FLOAT, tls[2];
    TF_OperationGetAttrFloat(op, "_f", &f, s);
    CHECK(f == 2.5f);
    TF_OperationGetAttrFloatList(op, "_fl", fl, 2, s);
    CHECK(fl[1] == -1.5f);
    TF_OperationGetAttrBool(op, "_b", &b, s);
    CHECK_EQ_INT(b, 1);
    TF_OperationGetAttrBoolList(op, "_bl", bl, 2, s);
    CHECK(bl[0] == 1 && bl[1] == 0);
    TF_OperationGetAttrType(op, "_t", &t, s);
    CHECK_EQ_INT(t, TF_DOUBLE);
    TF_OperationGetAttrTypeList(op, "_tl", tls, 2, s);
    CHECK(tls[0] == TF_INT64 && tls[1] == TF_STRING);
    CHECK_CODE(s, TF_OK);
    TF_OperationGetAttrFloat(op, "_i", &f, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_OperationGetAttrBool(op, "missing", &b, s);
    CHECK_CODE(s, TF_NOT_FOUND);
  }
  {
    int64_t dims[4] = {9, 9, 9, 9}, storage[8];
    int64_t* dl[3];
    int nd[3];
    TF_AttrMetadata m = TF_OperationGetAttrMetadata(op, "_sh", s);
    CHECK(m.type == TF_ATTR_SHAPE && m.total_size == 2);
    m = TF_OperationGetAttrMetadata(op, "_unk", s);
    CHECK(m.total_size == -1);
    TF_OperationGetAttrShape(op, "_sh", dims, 4, s);
    CHECK_CODE(s, TF_OK);
    CHECK(dims[0] == 2 && dims[1] == -1 && dims[2] == 9);
    m = TF_OperationGetAttrMetadata(op, "_shl", s);
    CHECK(m.is_list && m.list_size == 3 && m.total_size == 3);
    TF_OperationGetAttrShapeList(op, "_shl", dl, nd, 3, storage, 8, s);
    CHECK_CODE(s, TF_OK);
    CHECK(nd[0] == 2 && nd[1] == 1 && nd[2] == -1);
    CHECK(dl[1][0] == 7 && dl[0][1] == -1);
    TF_OperationGetAttrShapeList(op, "_shl", dl, nd, 3, storage, 2, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
  }
  {
    TF_Buffer* b = TF_NewBuffer();
    TF_Buffer* bl[3] = {NULL, NULL, NULL};
    TF_OperationGetAttrTensorShapeProto(op, "_sh", b, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(pb_count((const unsigned char*)b->data, b->length, 2), 2);
    TF_OperationGetAttrTensorShapeProto(op, "_i", b, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_OperationGetAttrTensorShapeProtoList(op, "_shl", bl, 3, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(pb_count((const unsigned char*)bl[2]->data, bl[2]->length, 3),
                 1); /* unknown_rank */
    TF_DeleteBuffer(bl[0]);
    TF_DeleteBuffer(bl[1]);
    TF_DeleteBuffer(bl[2]);
    TF_OperationGetAttrValueProto(op, "_fn", b, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(pb_count((const unsigned char*)b->data, b->length, 10), 1);
    TF_OperationGetAttrValueProto(op, "missing", b, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_DeleteBuffer(b);
  }
  {
    TF_Tensor* t = NULL;
    TF_Tensor* ts[2] = {NULL, NULL};
    TF_OperationGetAttrTensor(op, "_tv", &t, s);
    CHECK_CODE(s, TF_OK);
    CHECK(t != NULL && *(int32_t*)TF_TensorData(t) == 42);
    TF_DeleteTensor(t);
    TF_OperationGetAttrTensorList(op, "_tvl", ts, 2, s);
    CHECK_CODE(s, TF_OK);
    CHECK(ts[1] != NULL && *(int32_t*)TF_TensorData(ts[1]) == 42);
    TF_DeleteTensor(ts[0]);
    TF_DeleteTensor(ts[1]);
    t = NULL;
    TF_OperationGetAttrTensor(op, "missing", &t, s);
    CHECK_CODE(s, TF_NOT_FOUND);
    CHECK(t == NULL);
  }
  {
    TF_AttrMetadata m = TF_OperationGetAttrMetadata(op, "nope", s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "has no attr named 'nope'");
    CHECK_EQ_INT(m.list_size, -1);
  }
  {
    /* names: sorted, T included */
    int i, n = TF_OperationGetNumAttrs(op);
    char name[32];
    CHECK_EQ_INT(n, 18);
    CHECK_EQ_INT(TF_OperationGetAttrNameLength(op, 0), 1);
    memset(name, 0, sizeof name);
    TF_OperationGetAttrName(op, 0, name, s);
    CHECK_CODE(s, TF_OK);
    CHECK_STR_EQ(name, "T");
    memset(name, 0, sizeof name);
    TF_OperationGetAttrName(op, n - 1, name, s);
    CHECK_STR_EQ(name, "_unk");
    for (i = 0; i < n; i++) CHECK(TF_OperationGetAttrNameLength(op, i) > 0);
    CHECK_EQ_INT(TF_OperationGetAttrNameLength(op, n), -1);
    TF_OperationGetAttrName(op, n, name, s);
    CHECK_CODE(s, TF_OUT_OF_RANGE);
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(attr_protos_and_colocation) {
  TF_Status* s = TF_NewStatus();
  small_graph sg;
  TF_OperationDescription* d;
  TF_Operation* op;
  /* AttrValue { b: true } and { list { s: "loc:@x" } } */
  static const unsigned char kBoolTrue[] = {0x28, 0x01};
  static const unsigned char kClass[] = {0x0a, 0x08, 0x12, 0x06, 'l', 'o',
                                         'c', ':', '@', 'x'};
  /* TensorShapeProto { dim { size: 4 } dim { size: -1 } } */
  static const unsigned char kShape[] = {0x12, 0x02, 0x08, 0x04, 0x12, 0x0b,
                                         0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0xff, 0xff, 0xff, 0xff, 0x01};
  build_small(&sg, s);

  d = TF_NewOperation(sg.g, "MatMul", "mm_t");
  TF_AddInput(d, O(sg.w, 0));
  TF_AddInput(d, O(sg.w, 0));
  TF_SetAttrValueProto(d, "transpose_a", kBoolTrue, sizeof kBoolTrue, s);
  CHECK_CODE(s, TF_OK);
  TF_SetAttrValueProto(d, "_bad", "\xff", 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_ColocateWith(d, sg.b);
  TF_ColocateWith(d, sg.b);
  TF_ColocateWith(d, sg.add);
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  {
    unsigned char b = 0;
    void* vals[4];
    size_t lens[4];
    char storage[64];
    TF_AttrMetadata m;
    TF_OperationGetAttrBool(op, "transpose_a", &b, s);
    CHECK_EQ_INT(b, 1);
    m = TF_OperationGetAttrMetadata(op, "_class", s);
    CHECK_CODE(s, TF_OK);
    CHECK(m.is_list && m.list_size == 2 && m.total_size == 14);
    TF_OperationGetAttrStringList(op, "_class", vals, lens, 4, storage, 64, s);
    CHECK(lens[0] == 8 && memcmp(vals[0], "loc:@add", 8) == 0);
    CHECK(lens[1] == 6 && memcmp(vals[1], "loc:@b", 6) == 0);
  }
  /* _class through the proto replaces what TF_ColocateWith collected */
  d = TF_NewOperation(sg.g, "Identity", "colo2");
  TF_AddInput(d, O(sg.b, 0));
  TF_ColocateWith(d, sg.w);
  TF_SetAttrValueProto(d, "_class", kClass, sizeof kClass, s);
  CHECK_CODE(s, TF_OK);
  TF_SetAttrValueProto(d, "_class", kBoolTrue, sizeof kBoolTrue, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Expected \"list\" field for \"_class\"");
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  {
    void* vals[2];
    size_t lens[2];
    char storage[16];
    TF_OperationGetAttrStringList(op, "_class", vals, lens, 2, storage, 16, s);
    CHECK_CODE(s, TF_OK);
    CHECK(lens[0] == 6 && memcmp(vals[0], "loc:@x", 6) == 0);
  }
  /* TensorShapeProto setters */
  {
    const void* protos[2] = {kShape, ""};
    size_t plens[2] = {sizeof kShape, 0};
    int64_t dims[2];
    int64_t storage[4];
    int64_t* dl[2];
    int nd[2];
    d = TF_NewOperation(sg.g, "Identity", "shape_protos");
    TF_AddInput(d, O(sg.b, 0));
    TF_SetAttrTensorShapeProto(d, "_sp", kShape, sizeof kShape, s);
    CHECK_CODE(s, TF_OK);
    TF_SetAttrTensorShapeProto(d, "_bad", "\x12\x09", 2, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_SetAttrTensorShapeProtoList(d, "_spl", protos, plens, 2, s);
    CHECK_CODE(s, TF_OK);
    TF_SetAttrTensorShapeProtoList(d, "_bad2", protos, plens, -1, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    op = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
    TF_OperationGetAttrShape(op, "_sp", dims, 2, s);
    CHECK(dims[0] == 4 && dims[1] == -1);
    TF_OperationGetAttrShapeList(op, "_spl", dl, nd, 2, storage, 4, s);
    CHECK_CODE(s, TF_OK);
    CHECK(nd[0] == 2 && nd[1] == 0);
  }
  /* A placeholder value is refused for an attr of the op (TF's NodeDef
   * validation), kept on a '_' attr */
  d = TF_NewOperation(sg.g, "Cast", "ph_attr");
  TF_AddInput(d, O(sg.b, 0));
  TF_SetAttrType(d, "DstT", TF_INT32);
  TF_SetAttrPlaceholder(d, "Truncate", "trunc");
  expect_finish_error(d, TF_INVALID_ARGUMENT, "placeholder");
  d = TF_NewOperation(sg.g, "Identity", "ph_attr");
  TF_AddInput(d, O(sg.b, 0));
  TF_SetAttrPlaceholder(d, "T", "T"); /* then inferred from the input */
  expect_finish_error(d, TF_INVALID_ARGUMENT,
                      "Inconsistent values for attr 'T' $T vs. DT_FLOAT");
  d = TF_NewOperation(sg.g, "Identity", "ph_attr");
  TF_AddInput(d, O(sg.b, 0));
  TF_SetAttrPlaceholder(d, "_p", "dtype_attr");
  TF_SetAttrPlaceholder(d, "_q", NULL);
  expect_finish_error(d, TF_INVALID_ARGUMENT, "placeholder is NULL");
  d = TF_NewOperation(sg.g, "Identity", "ph_attr");
  TF_AddInput(d, O(sg.b, 0));
  TF_SetAttrPlaceholder(d, "_p", "dtype_attr");
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  {
    TF_Buffer* b = TF_NewBuffer();
    TF_AttrMetadata m = TF_OperationGetAttrMetadata(op, "_p", s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(m.type, TF_ATTR_PLACEHOLDER);
    CHECK_EQ_INT(m.is_list, 0);
    /* AttrValue { placeholder: "dtype_attr" } */
    TF_OperationGetAttrValueProto(op, "_p", b, s);
    CHECK_CODE(s, TF_OK);
    CHECK(b->length == 12 && ((const unsigned char*)b->data)[0] == 0x4a);
    CHECK(memcmp((const char*)b->data + 2, "dtype_attr", 10) == 0);
    /* and the same bytes set through TF_SetAttrValueProto read back equal */
    d = TF_NewOperation(sg.g, "Identity", "ph_attr2");
    TF_AddInput(d, O(sg.b, 0));
    TF_SetAttrValueProto(d, "_p", b->data, b->length, s);
    CHECK_CODE(s, TF_OK);
    TF_SetAttrPlaceholder(d, "_p", "dtype_attr"); /* same value: fine */
    CHECK(TF_FinishOperation(d, s) != NULL);
    CHECK_CODE(s, TF_OK);
    TF_DeleteBuffer(b);
  }
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Shapes. */

static int rank_of(TF_Graph* g, TF_Output o, TF_Status* s) {
  return TF_GraphGetTensorNumDims(g, o, s);
}

TEST(static_shapes) {
  TF_Status* s = TF_NewStatus();
  small_graph sg;
  int64_t dims[3];
  TF_Operation* u;
  build_small(&sg, s);
  CHECK_EQ_INT(rank_of(sg.g, O(sg.x, 0), s), 2);
  TF_GraphGetTensorShape(sg.g, O(sg.x, 0), dims, 2, s);
  CHECK_CODE(s, TF_OK);
  CHECK(dims[0] == -1 && dims[1] == 3);
  TF_GraphGetTensorShape(sg.g, O(sg.x, 0), dims, 3, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Expected rank is 3 but actual rank is 2");

  dims[0] = 2;
  dims[1] = 3;
  TF_GraphSetTensorShape(sg.g, O(sg.x, 0), dims, 2, s);
  CHECK_CODE(s, TF_OK);
  TF_GraphGetTensorShape(sg.g, O(sg.x, 0), dims, 2, s);
  CHECK(dims[0] == 2);
  dims[0] = 5;
  TF_GraphSetTensorShape(sg.g, O(sg.x, 0), dims, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GraphSetTensorShape(sg.g, O(sg.x, 0), dims, 3, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  dims[0] = dims[1] = -1;
  TF_GraphSetTensorShape(sg.g, O(sg.x, 0), dims, 2, s); /* less specific */
  CHECK_CODE(s, TF_OK);
  TF_GraphGetTensorShape(sg.g, O(sg.x, 0), dims, 2, s);
  CHECK(dims[0] == 2 && dims[1] == 3);
  dims[0] = -7;
  TF_GraphSetTensorShape(sg.g, O(sg.x, 0), dims, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GraphSetTensorShape(sg.g, O(sg.x, 0), NULL, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  u = placeholder(sg.g, "u", TF_FLOAT, NULL, -1, s);
  CHECK_EQ_INT(rank_of(sg.g, O(u, 0), s), -1);
  CHECK_CODE(s, TF_OK);
  TF_GraphGetTensorShape(sg.g, O(u, 0), NULL, -1, s);
  CHECK_CODE(s, TF_OK);
  TF_GraphSetTensorShape(sg.g, O(u, 0), NULL, -1, s);
  CHECK_CODE(s, TF_OK);
  dims[0] = -1;
  dims[1] = 4;
  TF_GraphSetTensorShape(sg.g, O(u, 0), dims, 2, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(rank_of(sg.g, O(u, 0), s), 2);
  TF_GraphSetTensorShape(sg.g, O(u, 0), NULL, -1, s); /* keeps [?,4] */
  CHECK_EQ_INT(rank_of(sg.g, O(u, 0), s), 2);

  /* bad outputs */
  CHECK_EQ_INT(rank_of(sg.g, O(sg.x, 1), s), -1);
  CHECK_CODE(s, TF_OUT_OF_RANGE);
  CHECK_EQ_INT(rank_of(sg.g, O(sg.noop, 0), s), -1);
  CHECK_CODE(s, TF_OUT_OF_RANGE);
  CHECK_EQ_INT(rank_of(sg.g, O(NULL, 0), s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(rank_of(NULL, O(sg.x, 0), s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  {
    TF_Graph* other = TF_NewGraph();
    CHECK_EQ_INT(rank_of(other, O(sg.x, 0), s), -1);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TF_DeleteGraph(other);
  }
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Serialization. */

TEST(graphdef_versions_opdef_nodedef) {
  TF_Status* s = TF_NewStatus();
  small_graph sg;
  TF_Buffer* b = TF_NewBuffer();
  const unsigned char* p;
  build_small(&sg, s);

  TF_GraphToGraphDef(sg.g, b, s);
  CHECK_CODE(s, TF_OK);
  p = (const unsigned char*)b->data;
  CHECK_EQ_INT(pb_count(p, b->length, 1), 7); /* nodes */
  CHECK_EQ_INT(pb_count(p, b->length, 4), 1); /* versions */
  CHECK_EQ_INT(pb_count(p, b->length, 2), 1); /* library (empty) */
  TF_GraphToGraphDef(sg.g, b, s);             /* reusing the buffer */
  CHECK_CODE(s, TF_OK);

  TF_GraphVersions(sg.g, b, s);
  CHECK_CODE(s, TF_OK);
  /* producer = 2474 as a varint field 1 */
  CHECK(b->length == 3 && ((const unsigned char*)b->data)[0] == 0x08);

  TF_GraphGetOpDef(sg.g, "MatMul", b, s);
  CHECK_CODE(s, TF_OK);
  p = (const unsigned char*)b->data;
  CHECK_EQ_INT(pb_count(p, b->length, 2), 2); /* inputs a, b */
  CHECK_EQ_INT(pb_count(p, b->length, 3), 1);
  TF_GraphGetOpDef(sg.g, "Placeholder", b, s);
  CHECK_CODE(s, TF_OK);
  TF_GraphGetOpDef(sg.g, "NoSuchOp", b, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  TF_GraphGetOpDef(sg.g, NULL, b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  TF_OperationToNodeDef(sg.noop, b, s);
  CHECK_CODE(s, TF_OK);
  p = (const unsigned char*)b->data;
  CHECK_EQ_INT(pb_count(p, b->length, 3), 2); /* ^add, ^id */
  CHECK_EQ_INT(pb_count(p, b->length, 5), 0);
  CHECK(contains(p, b->length, "^add"));
  TF_OperationToNodeDef(sg.mm, b, s);
  p = (const unsigned char*)b->data;
  CHECK_EQ_INT(pb_count(p, b->length, 5), 5); /* T, grads, transposes */
  TF_OperationToNodeDef(sg.id, b, s);
  p = (const unsigned char*)b->data;
  CHECK_EQ_INT(pb_count(p, b->length, 4), 1); /* device */
  TF_OperationToNodeDef(NULL, b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GraphToGraphDef(NULL, b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GraphToGraphDef(sg.g, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GraphVersions(NULL, b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(b);
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

TEST(graph_debug_string) {
  TF_Status* s = TF_NewStatus();
  small_graph sg;
  size_t len = 0;
  const char* txt;
  build_small(&sg, s);
  txt = TF_GraphDebugString(sg.g, &len);
  CHECK(txt != NULL);
  CHECK_EQ_SIZE(strlen(txt), len);
  CHECK_STR_CONTAINS(txt, "node {\n  name: \"x\"\n  op: \"Placeholder\"\n");
  CHECK_STR_CONTAINS(txt, "  input: \"^add\"\n");
  CHECK_STR_CONTAINS(txt, "  device: \"/cpu:0\"\n");
  CHECK_STR_CONTAINS(txt, "      type: DT_FLOAT\n");
  CHECK_STR_CONTAINS(txt, "versions {\n  producer: 2474\n}\n");
  free((void*)txt); /* TF's contract: the caller frees with free() */
  len = 5;
  CHECK(TF_GraphDebugString(NULL, &len) == NULL);
  CHECK_EQ_SIZE(len, 0);
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Experimental edits. */

TEST(update_edge_and_control_inputs) {
  TF_Status* s = TF_NewStatus();
  small_graph sg;
  TF_Input cons[4];
  TF_Operation* ic;
  build_small(&sg, s);
  /* id reads b instead of add */
  TF_UpdateEdge(sg.g, O(sg.b, 0), I(sg.id, 0), s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_OperationInput(I(sg.id, 0)).oper == sg.b);
  CHECK_EQ_INT(TF_OperationOutputNumConsumers(O(sg.add, 0)), 0);
  CHECK_EQ_INT(TF_OperationOutputConsumers(O(sg.b, 0), cons, 4), 2);
  ic = scalar_i32(sg.g, "ic", 1, s);
  TF_UpdateEdge(sg.g, O(ic, 0), I(sg.add, 1), s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT); /* int32 for float */
  TF_UpdateEdge(sg.g, O(sg.b, 3), I(sg.id, 0), s);
  CHECK_CODE(s, TF_OUT_OF_RANGE);
  TF_UpdateEdge(sg.g, O(sg.b, 0), I(sg.id, 2), s);
  CHECK_CODE(s, TF_OUT_OF_RANGE);
  TF_UpdateEdge(sg.g, O(NULL, 0), I(sg.id, 0), s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  /* an input from a later operation is allowed (loops' back edges); a
   * cycle is then not a constant */
  {
    TF_Operation* c1 = scalar_i32(sg.g, "cyc_c", 1, s);
    TF_Operation* a1 = unop(sg.g, "Identity", "cyc_a1", O(c1, 0), s);
    TF_Operation* a2 = unop(sg.g, "Identity", "cyc_a2", O(a1, 0), s);
    TF_Tensor* r = NULL;
    TF_UpdateEdge(sg.g, O(a2, 0), I(a1, 0), s);
    CHECK_CODE(s, TF_OK);
    CHECK(TF_OperationInput(I(a1, 0)).oper == a2);
    CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(a2, 0), &r, s), 0);
    CHECK_CODE(s, TF_OK);
    CHECK(r == NULL);
    TF_AddOperationControlInput(sg.g, c1, a2); /* later op: allowed */
    CHECK_EQ_INT(TF_OperationNumControlInputs(c1), 1);
    TF_AddOperationControlInput(sg.g, c1, c1); /* itself: ignored */
    CHECK_EQ_INT(TF_OperationNumControlInputs(c1), 1);
  }
  TF_AddOperationControlInput(sg.g, sg.id, sg.x);
  TF_AddOperationControlInput(sg.g, sg.id, sg.x); /* once */
  CHECK_EQ_INT(TF_OperationNumControlInputs(sg.id), 1);
  CHECK_EQ_INT(TF_OperationNumControlOutputs(sg.x), 1);
  TF_AddOperationControlInput(sg.g, sg.id, NULL);
  TF_RemoveAllControlInputs(sg.g, sg.noop);
  CHECK_EQ_INT(TF_OperationNumControlInputs(sg.noop), 0);
  CHECK_EQ_INT(TF_OperationNumControlOutputs(sg.add), 0);
  TF_RemoveAllControlInputs(sg.g, NULL);
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

TEST(set_full_type) {
  TF_Status* s = TF_NewStatus();
  small_graph sg;
  /* FullTypeDef { type_id: 10 (TFT_ARRAY) } */
  TF_Buffer* ft = TF_NewBufferFromString("\x08\x0a", 2);
  TF_Buffer* bad = TF_NewBufferFromString("\xff", 1);
  TF_Buffer* nd = TF_NewBuffer();
  const unsigned char* p;
  build_small(&sg, s);
  TF_OperationToNodeDef(sg.id, nd, s);
  CHECK_EQ_INT(pb_count((const unsigned char*)nd->data, nd->length, 7), 0);
  TF_SetFullType(sg.g, sg.id, ft);
  TF_SetFullType(sg.g, sg.id, bad); /* unparsable: ignored, as in TF */
  TF_SetFullType(sg.g, NULL, ft);
  TF_SetFullType(sg.g, sg.id, NULL);
  TF_OperationToNodeDef(sg.id, nd, s);
  CHECK_CODE(s, TF_OK);
  p = (const unsigned char*)nd->data;
  CHECK_EQ_INT(pb_count(p, nd->length, 7), 1);
  CHECK(p[nd->length - 4] == 0x3a && p[nd->length - 3] == 2);
  TF_DeleteBuffer(nd);
  TF_DeleteBuffer(bad);
  TF_DeleteBuffer(ft);
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

TEST(add_while_input_hack) {
  TF_Status* s = TF_NewStatus();
  small_graph sg;
  build_small(&sg, s);
  /* only While nodes take it */
  TF_AddWhileInputHack(sg.g, O(sg.b, 0), sg.id, s);
  CHECK_CODE(s, TF_INTERNAL);
  TF_AddWhileInputHack(sg.g, O(sg.b, 0), NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_AddWhileInputHack(NULL, O(sg.b, 0), sg.id, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  {
    /* a While node whose inputs all have edges has no slot to fill */
    TF_Operation* c = scalar_i32(sg.g, "wc", 1, s);
    TF_OperationDescription* d = TF_NewOperation(sg.g, "While", "while");
    TF_Output l[1] = {O(c, 0)};
    TF_Operation* w;
    TF_AddInputList(d, l, 1);
    TF_SetAttrFuncName(d, "cond", "cond_fn", 7);
    TF_SetAttrFuncName(d, "body", "body_fn", 7);
    w = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
    TF_AddWhileInputHack(sg.g, O(c, 0), w, s);
    CHECK_CODE(s, TF_OUT_OF_RANGE);
    TF_AddWhileInputHack(sg.g, O(c, 4), w, s);
    CHECK_CODE(s, TF_OUT_OF_RANGE);
    CHECK_EQ_INT(TF_OperationNumInputs(w), 1);
  }
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

TEST(set_and_clear_attr_of_finished_operation) {
  TF_Status* s = TF_NewStatus();
  small_graph sg;
  TF_Buffer* v = TF_NewBufferFromString("\x18\x05", 2); /* AttrValue i: 5 */
  int64_t i = 0;
  build_small(&sg, s);
  TF_SetAttr(sg.g, sg.id, "_mark", v, s);
  CHECK_CODE(s, TF_OK);
  TF_OperationGetAttrInt(sg.id, "_mark", &i, s);
  CHECK_EQ_INT(i, 5);
  CHECK_EQ_INT(TF_OperationGetNumAttrs(sg.id), 2);
  TF_ClearAttr(sg.g, sg.id, "_mark", s);
  CHECK_CODE(s, TF_OK);
  TF_OperationGetAttrInt(sg.id, "_mark", &i, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  TF_ClearAttr(sg.g, sg.id, "_never_set", s);
  CHECK_CODE(s, TF_OK);
  TF_SetAttr(sg.g, NULL, "_mark", v, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_ClearAttr(sg.g, sg.id, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(v);
  v = TF_NewBufferFromString("\xff", 1);
  TF_SetAttr(sg.g, sg.id, "_bad", v, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(v);
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

TEST(require_shape_inference_fns) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("TfeTestNoShapeFn");
  TF_OperationDescription* d;
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_OK);
  /* off by default, as in TF's C API: the output shape is unknown */
  d = TF_NewOperation(g, "TfeTestNoShapeFn", "a");
  CHECK(TF_FinishOperation(d, s) != NULL);
  CHECK_CODE(s, TF_OK);
  TF_SetRequireShapeInferenceFns(g, true);
  d = TF_NewOperation(g, "TfeTestNoShapeFn", "b");
  CHECK(TF_FinishOperation(d, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "No shape inference function exists for "
                                    "op 'TfeTestNoShapeFn'");
  CHECK(placeholder(g, "p", TF_FLOAT, NULL, -1, s) != NULL); /* has one */
  TF_SetRequireShapeInferenceFns(g, false);
  d = TF_NewOperation(g, "TfeTestNoShapeFn", "b");
  CHECK(TF_FinishOperation(d, s) != NULL);
  TF_SetRequireShapeInferenceFns(NULL, true);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(handle_shape_and_type) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  int64_t dims[2] = {2, 3};
  TF_OperationDescription* d = TF_NewOperation(g, "VarHandleOp", "v");
  TF_Operation *v, *idv, *ph, *c, *bad;
  TF_Buffer* b;
  const unsigned char* p;
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", dims, 2);
  v = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  idv = unop(g, "Identity", "idv", O(v, 0), s);
  CHECK_CODE(s, TF_OK);
  /* HandleData { is_set: true shape_and_type { shape {2,3} dtype: 1 } } */
  b = TF_GetHandleShapeAndType(g, O(idv, 0));
  CHECK(b != NULL);
  p = (const unsigned char*)b->data;
  CHECK(p[0] == 0x08 && p[1] == 0x01);
  CHECK_EQ_INT(pb_count(p, b->length, 2), 1);
  /* the same bytes set on a resource placeholder come back */
  ph = placeholder(g, "ph", TF_RESOURCE, NULL, -1, s);
  CHECK(TF_GetHandleShapeAndType(g, O(ph, 0)) == NULL);
  TF_SetHandleShapeAndType(g, O(ph, 0), b->data, b->length, s);
  CHECK_CODE(s, TF_OK);
  {
    TF_Buffer* b2 = TF_GetHandleShapeAndType(g, O(ph, 0));
    CHECK(b2 != NULL && b2->length == b->length);
    CHECK(memcmp(b2->data, b->data, b->length) == 0);
    TF_DeleteBuffer(b2);
  }
  TF_SetHandleShapeAndType(g, O(ph, 0), "\xff", 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_SetHandleShapeAndType(g, O(ph, 3), b->data, b->length, s);
  CHECK_CODE(s, TF_OUT_OF_RANGE);
  TF_DeleteBuffer(b);
  CHECK(TF_GetHandleShapeAndType(NULL, O(ph, 0)) == NULL);
  /* a variable op with the wrong dtype fails at finish */
  c = scalar_i32(g, "ic", 1, s);
  d = TF_NewOperation(g, "AssignVariableOp", "assign");
  TF_AddInput(d, O(idv, 0));
  TF_AddInput(d, O(c, 0));
  TF_SetAttrType(d, "dtype", TF_INT32);
  bad = TF_FinishOperation(d, s);
  CHECK(bad == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Expected float got int32");
  d = TF_NewOperation(g, "ReadVariableOp", "read");
  TF_AddInput(d, O(v, 0));
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  CHECK(TF_FinishOperation(d, s) != NULL);
  CHECK_CODE(s, TF_OK);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * TF_TryEvaluateConstant. */

TEST(try_evaluate_constant) {
  TF_Status* s = TF_NewStatus();
  small_graph sg;
  TF_Tensor* r = NULL;
  TF_Operation *c2, *c3, *mul, *sum, *shp, *rank, *size, *shp_x;
  build_small(&sg, s);
  c2 = scalar_i32(sg.g, "c2", 2, s);
  c3 = scalar_i32(sg.g, "c3", 3, s);
  mul = binop(sg.g, "Mul", "mul", O(c2, 0), O(c3, 0), s);
  sum = binop(sg.g, "AddV2", "sum", O(mul, 0), O(c3, 0), s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(sum, 0), &r, s), 1);
  CHECK_CODE(s, TF_OK);
  CHECK(r != NULL && TF_TensorType(r) == TF_INT32);
  CHECK_EQ_INT(*(int32_t*)TF_TensorData(r), 9);
  TF_DeleteTensor(r);

  shp = unop(sg.g, "Shape", "shp", O(sg.w, 0), s);
  CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(shp, 0), &r, s), 1);
  CHECK(TF_NumDims(r) == 1 && TF_Dim(r, 0) == 2);
  CHECK_EQ_INT(((int32_t*)TF_TensorData(r))[0], 3);
  TF_DeleteTensor(r);
  /* Rank of a placeholder of known rank is constant, its shape is not */
  rank = unop(sg.g, "Rank", "rank", O(sg.x, 0), s);
  CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(rank, 0), &r, s), 1);
  CHECK_EQ_INT(*(int32_t*)TF_TensorData(r), 2);
  TF_DeleteTensor(r);
  shp_x = unop(sg.g, "Shape", "shp_x", O(sg.x, 0), s);
  r = (TF_Tensor*)1;
  CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(shp_x, 0), &r, s), 0);
  CHECK_CODE(s, TF_OK);
  CHECK(r == NULL);
  size = unop(sg.g, "Size", "size", O(sg.w, 0), s);
  CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(size, 0), &r, s), 1);
  CHECK_EQ_INT(*(int32_t*)TF_TensorData(r), 6);
  TF_DeleteTensor(r);
  /* a Const itself, and a float expression through MatMul of constants */
  CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(sg.w, 0), &r, s), 1);
  CHECK_EQ_INT(TF_TensorElementCount(r), 6);
  TF_DeleteTensor(r);
  CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(sg.add, 0), &r, s), 0);
  CHECK_CODE(s, TF_OK);
  {
    TF_OperationDescription* d = TF_NewOperation(sg.g, "RandomUniform", "rnd");
    TF_Operation* rnd;
    TF_AddInput(d, O(shp, 0));
    TF_SetAttrType(d, "dtype", TF_FLOAT);
    rnd = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(rnd, 0), &r, s), 0);
    CHECK_CODE(s, TF_OK);
  }
  /* a kernel error is reported */
  {
    TF_Operation* z = scalar_i32(sg.g, "zero", 0, s);
    TF_Operation* dv = binop(sg.g, "FloorDiv", "div0", O(c2, 0), O(z, 0), s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(dv, 0), &r, s), 0);
    CHECK(TF_GetCode(s) != TF_OK);
    CHECK(r == NULL);
  }
  CHECK_EQ_INT(TF_TryEvaluateConstant(NULL, O(sum, 0), &r, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(sum, 3), &r, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TF_TryEvaluateConstant(sg.g, O(sum, 0), NULL, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteGraph(sg.g);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * The Placeholder kernel: running it means nothing fed it. */

TEST(placeholder_kernel_fails_unfed) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  TFE_Op* op = TFE_NewOp(ctx, "Placeholder", s);
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  int64_t dims[2] = {-1, 3};
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  TFE_OpSetAttrShape(op, "shape", dims, 2, s);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "You must feed a value for placeholder tensor "
                     "'Placeholder' with dtype float and shape [?,3]");
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TFE_DeleteContextOptions(o);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * NULL arguments never crash. */

TEST(null_arguments) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Output none = {NULL, 0};
  TF_Input nin = {NULL, 0};
  TF_Buffer* b = TF_NewBuffer();
  TF_OperationDescription* d = NULL;
  size_t pos = 0;
  int64_t i64 = 0;
  /* setters on a NULL description */
  TF_SetDevice(d, "x");
  TF_AddInput(d, none);
  TF_AddInputList(d, &none, 1);
  TF_AddControlInput(d, NULL);
  TF_ColocateWith(d, NULL);
  TF_SetAttrString(d, "a", "b", 1);
  TF_SetAttrStringList(d, "a", NULL, NULL, 0);
  TF_SetAttrInt(d, "a", 1);
  TF_SetAttrIntList(d, "a", NULL, 0);
  TF_SetAttrFloat(d, "a", 1);
  TF_SetAttrFloatList(d, "a", NULL, 0);
  TF_SetAttrBool(d, "a", 1);
  TF_SetAttrBoolList(d, "a", NULL, 0);
  TF_SetAttrType(d, "a", TF_FLOAT);
  TF_SetAttrTypeList(d, "a", NULL, 0);
  TF_SetAttrPlaceholder(d, "a", "b");
  TF_SetAttrFuncName(d, "a", "f", 1);
  TF_SetAttrShape(d, "a", NULL, -1);
  TF_SetAttrShapeList(d, "a", NULL, NULL, 0);
  TF_SetAttrTensorShapeProto(d, "a", "", 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_SetAttrTensorShapeProtoList(d, "a", NULL, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_SetAttrTensor(d, "a", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_SetAttrTensorList(d, "a", NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_SetAttrValueProto(d, "a", "", 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* bad arguments on a real description are remembered */
  d = TF_NewOperation(g, "NoOp", "n");
  TF_AddInputList(d, NULL, 2);
  TF_SetAttrIntList(d, "_x", NULL, 3);
  TF_SetAttrString(d, NULL, "a", 1);
  TF_SetAttrTensor(d, "_t", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  expect_finish_error(d, TF_INVALID_ARGUMENT, "errors while building");
  /* queries */
  CHECK(TF_OperationName(NULL) == NULL);
  CHECK(TF_OperationOpType(NULL) == NULL);
  CHECK(TF_OperationDevice(NULL) == NULL);
  CHECK_EQ_INT(TF_OperationNumOutputs(NULL), 0);
  CHECK_EQ_INT(TF_OperationNumInputs(NULL), 0);
  CHECK_EQ_INT(TF_OperationOutputType(none), 0);
  CHECK_EQ_INT(TF_OperationInputType(nin), 0);
  CHECK(TF_OperationInput(nin).oper == NULL);
  TF_OperationAllInputs(NULL, &none, 1);
  CHECK_EQ_INT(TF_OperationOutputNumConsumers(none), 0);
  CHECK_EQ_INT(TF_OperationOutputConsumers(none, NULL, 0), 0);
  CHECK_EQ_INT(TF_OperationNumControlInputs(NULL), 0);
  CHECK_EQ_INT(TF_OperationGetControlInputs(NULL, NULL, 0), 0);
  CHECK_EQ_INT(TF_OperationNumControlOutputs(NULL), 0);
  CHECK_EQ_INT(TF_OperationGetControlOutputs(NULL, NULL, 0), 0);
  CHECK_EQ_INT(TF_OperationGetNumAttrs(NULL), 0);
  CHECK_EQ_INT(TF_OperationGetAttrNameLength(NULL, 0), -1);
  TF_OperationGetAttrName(NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_OperationGetAttrMetadata(NULL, "a", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_OperationGetAttrInt(NULL, "a", &i64, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_OperationGetAttrString(NULL, "a", NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_OperationGetAttrValueProto(NULL, "a", b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_OperationGetAttrTensor(NULL, "a", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_OperationToNodeDef(NULL, b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* graph-level */
  CHECK(TF_GraphOperationByName(NULL, "x") == NULL);
  CHECK(TF_GraphOperationByName(g, NULL) == NULL);
  CHECK(TF_GraphNextOperation(NULL, &pos) == NULL);
  CHECK(TF_GraphNextOperation(g, NULL) == NULL);
  TF_GraphSetTensorShape(NULL, none, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GraphGetTensorShape(g, none, NULL, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_GraphGetOpDef(NULL, "NoOp", b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_UpdateEdge(NULL, none, nin, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_AddOperationControlInput(NULL, NULL, NULL);
  TF_SetRequestedDevice(NULL, NULL, NULL);
  TF_DeleteGraph(NULL);
  TF_DeleteBuffer(b);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Threads building one graph, and random attr bytes. */

typedef struct builder_arg {
  TF_Graph* g;
  int id;
  int ok;
} builder_arg;

static void* build_chain(void* p) {
  builder_arg* a = (builder_arg*)p;
  TF_Status* s = TF_NewStatus();
  char name[32];
  int i;
  TF_Operation* prev;
  snprintf(name, sizeof name, "t%d_c", a->id);
  prev = scalar_i32(a->g, name, a->id, s);
  a->ok = prev != NULL;
  for (i = 0; i < 300 && a->ok; i++) {
    TF_Output o = {prev, 0};
    snprintf(name, sizeof name, "t%d_%d", a->id, i);
    prev = unop(a->g, "Identity", name, o, s);
    a->ok = prev != NULL && TF_GraphOperationByName(a->g, name) == prev &&
            TF_OperationOutputNumConsumers(o) == 1;
  }
  TF_DeleteStatus(s);
  return NULL;
}

TEST(threads_build_one_graph) {
  TF_Graph* g = TF_NewGraph();
  pthread_t th[4];
  builder_arg args[4];
  int i;
  for (i = 0; i < 4; i++) {
    args[i].g = g;
    args[i].id = i;
    args[i].ok = 0;
    CHECK(pthread_create(&th[i], NULL, build_chain, &args[i]) == 0);
  }
  for (i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    CHECK(args[i].ok);
  }
  CHECK_EQ_INT(count_ops(g), 4 * 301);
  TF_DeleteGraph(g);
}

TEST(random_attr_value_bytes_never_crash) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  unsigned char buf[24];
  uint32_t x = 12345;
  int i, k;
  for (i = 0; i < 2000; i++) {
    TF_OperationDescription* d = TF_NewOperation(g, "NoOp", "n");
    size_t len = (size_t)(i % 24);
    for (k = 0; k < (int)len; k++) {
      x = x * 1103515245u + 12345u;
      buf[k] = (unsigned char)(x >> 16);
    }
    TF_SetAttrValueProto(d, "_a", buf, len, s);
    TF_SetAttrValueProto(d, "_class", buf, len, s);
    TF_SetAttrTensorShapeProto(d, "_s", buf, len, s);
    if (TF_FinishOperation(d, s) != NULL) {
      /* accepted: the node exports and can be replaced */
      TF_Buffer* b = TF_NewBuffer();
      TF_GraphToGraphDef(g, b, s);
      CHECK_CODE(s, TF_OK);
      TF_DeleteBuffer(b);
      TF_DeleteGraph(g);
      g = TF_NewGraph();
    }
  }
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * A large graph: building, lookups and export stay fast. */

TEST(large_graph_is_fast) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  const int n = 20000;
  int i;
  char name[32];
  TF_Operation* prev = scalar_i32(g, "c0", 1, s);
  TF_Buffer* b = TF_NewBuffer();
  clock_t t0 = clock();
  double secs;
  for (i = 1; i < n; i++) {
    snprintf(name, sizeof name, "n%d", i);
    prev = unop(g, "Identity", name, O(prev, 0), s);
    if (prev == NULL) break;
  }
  CHECK_CODE(s, TF_OK);
  for (i = 1; i < n; i += 7) {
    snprintf(name, sizeof name, "n%d", i);
    CHECK(TF_GraphOperationByName(g, name) != NULL);
  }
  TF_GraphToGraphDef(g, b, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(pb_count((const unsigned char*)b->data, b->length, 1), n);
  secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  /* Release builds take a few tens of milliseconds; sanitizer builds are
   * slower but still far from what a quadratic scan would need. */
  CHECK(secs < 20.0);
  TF_DeleteBuffer(b);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
