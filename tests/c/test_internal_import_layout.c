/* White-box tests of how imported operations hold their data
 * (csrc/graph/operation.c, import_graphdef.c): attr entries in the
 * operation's own block with names borrowed from the registered op
 * definition, output dims of small rank inline, and that the graph API
 * still changes such operations (TF_SetAttr, TF_ClearAttr,
 * TF_GraphSetTensorShape) without leaking or freeing what it must not
 * (run under ASan). Also an allocation-failure sweep over an import. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "graph/graph_internal.h"
#include "tensorflow/c/c_api.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

static TF_Output O(TF_Operation* op, int i) {
  TF_Output o;
  o.oper = op;
  o.index = i;
  return o;
}

static TF_Operation* placeholder(TF_Graph* g, const char* name,
                                 const int64_t* dims, int n, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", dims, n);
  return TF_FinishOperation(d, s);
}

static TF_Operation* unary(TF_Graph* g, const char* type, const char* name,
                           TF_Output a, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, type, name);
  TF_AddInput(d, a);
  return TF_FinishOperation(d, s);
}

/* x [3], u [-1], y [2,3,4,5,6]; a = x + x, b = Identity(y), c = Neg(u). */
static void source_graph(TF_Buffer* gd, TF_Status* s) {
  static const int64_t kX[] = {3}, kU[] = {-1}, kY[] = {2, 3, 4, 5, 6};
  TF_Graph* g = TF_NewGraph();
  TF_Operation* x = placeholder(g, "x", kX, 1, s);
  TF_Operation* u = placeholder(g, "u", kU, 1, s);
  TF_Operation* y = placeholder(g, "y", kY, 5, s);
  TF_OperationDescription* d = TF_NewOperation(g, "AddV2", "a");
  TF_AddInput(d, O(x, 0));
  TF_AddInput(d, O(x, 0));
  TF_FinishOperation(d, s);
  unary(g, "Identity", "b", O(y, 0), s);
  unary(g, "Neg", "c", O(u, 0), s);
  TF_GraphToGraphDef(g, gd, s);
  TF_DeleteGraph(g);
}

static int count_ops(TF_Graph* g) {
  size_t pos = 0;
  int n = 0;
  while (TF_GraphNextOperation(g, &pos) != NULL) n++;
  return n;
}

TEST(imported_ops_keep_attrs_and_small_dims_inline) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* gd = TF_NewBuffer();
  TF_Graph* g = TF_NewGraph();
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_Operation *a, *b, *c;
  int64_t dims[8];
  int i;
  source_graph(gd, s);
  CHECK_CODE(s, TF_OK);
  TF_GraphImportGraphDef(g, gd, o, s);
  CHECK_CODE(s, TF_OK);
  a = TF_GraphOperationByName(g, "a");
  b = TF_GraphOperationByName(g, "b");
  c = TF_GraphOperationByName(g, "c");
  CHECK(a != NULL && b != NULL && c != NULL);
  /* AddV2's one attr, T, in the operation's block, named by the
   * definition's string. */
  CHECK_EQ_INT(a->attrs.count, 1);
  CHECK(a->attrs.items_borrowed);
  CHECK(a->attrs.items[0].name_static);
  CHECK_STR_EQ(a->attrs.items[0].name, "T");
  CHECK(a->attrs.items[0].name == a->def->attrs[0].name ||
        a->attrs.items[0].name == a->def->inputs[0].type_attr);
  /* Rank 1 inline, rank 5 on the heap; values as inferred. */
  CHECK(tfe_op_dims_are_inline(a, 0));
  CHECK(!tfe_op_dims_are_inline(b, 0));
  CHECK_EQ_INT(TF_GraphGetTensorNumDims(g, O(a, 0), s), 1);
  TF_GraphGetTensorShape(g, O(a, 0), dims, 1, s);
  CHECK_CODE(s, TF_OK);
  CHECK(dims[0] == 3);
  TF_GraphGetTensorShape(g, O(b, 0), dims, 5, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 5; i++) CHECK(dims[i] == i + 2);
  /* Refining an inline unknown dim writes it in place. */
  CHECK(tfe_op_dims_are_inline(c, 0));
  dims[0] = 7;
  TF_GraphSetTensorShape(g, O(c, 0), dims, 1, s);
  CHECK_CODE(s, TF_OK);
  CHECK(tfe_op_dims_are_inline(c, 0));
  dims[0] = 0;
  TF_GraphGetTensorShape(g, O(c, 0), dims, 1, s);
  CHECK_CODE(s, TF_OK);
  CHECK(dims[0] == 7);
  /* A new attr moves the entries to an array of their own; clearing the
   * borrowed-name attr frees nothing it must not. */
  {
    TF_Buffer* v = TF_NewBuffer();
    TF_Buffer* got = TF_NewBuffer();
    static const unsigned char kTrue[] = {0x28, 0x01}; /* AttrValue b: 1 */
    v->data = kTrue;
    v->length = sizeof kTrue;
    TF_SetAttr(g, a, "_mark", v, s);
    CHECK_CODE(s, TF_OK);
    CHECK(!a->attrs.items_borrowed);
    CHECK_EQ_INT(a->attrs.count, 2);
    TF_OperationGetAttrValueProto(a, "T", got, s);
    CHECK_CODE(s, TF_OK);
    TF_ClearAttr(g, a, "T", s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(a->attrs.count, 1);
    TF_ClearAttr(g, b, "T", s); /* b's entries still borrowed */
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(b->attrs.count, 0);
    v->data = NULL;
    TF_DeleteBuffer(v);
    TF_DeleteBuffer(got);
  }
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteGraph(g); /* ASan: no leak, no bad free */
  TF_DeleteBuffer(gd);
  TF_DeleteStatus(s);
}

/* Every allocation of an import failing in turn: RESOURCE_EXHAUSTED and
 * an untouched graph, or success. */
TEST(import_allocation_failure_sweep) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* gd = TF_NewBuffer();
  int n, ok_seen = 0;
  source_graph(gd, s);
  CHECK_CODE(s, TF_OK);
  for (n = 0; n < 400 && !ok_seen; n++) {
    TF_Graph* g = TF_NewGraph();
    TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
    CHECK(g != NULL && o != NULL);
    TFE_TestFailAllocationsAfter(n);
    TF_GraphImportGraphDef(g, gd, o, s);
    TFE_TestFailAllocationsAfter(-1);
    if (TF_GetCode(s) == TF_OK) {
      ok_seen = 1;
      CHECK_EQ_INT(count_ops(g), 6);
    } else {
      CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
      CHECK_EQ_INT(count_ops(g), 0);
    }
    TF_DeleteImportGraphDefOptions(o);
    TF_DeleteGraph(g);
  }
  CHECK(ok_seen);
  TF_DeleteBuffer(gd);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
