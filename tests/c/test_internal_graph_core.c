/* White-box tests of the graph core (csrc/graph/graph.c, operation.c):
 * sessions' hold on a graph (deferred delete), undoing operations
 * (tfe_graph_remove_ops_from), rewiring inputs (tfe_graph_set_input), the
 * name index, and TF_FinishOperation / export under allocation failures;
 * operations sharing a producer and imports into the graph's arena. */
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

static TF_Operation* scalar(TF_Graph* g, const char* name, float v,
                            TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  TF_OperationDescription* d;
  TF_Operation* op;
  if (t == NULL) return NULL;
  *(float*)TF_TensorData(t) = v;
  d = TF_NewOperation(g, "Const", name);
  TF_SetAttrTensor(d, "value", t, s);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_DeleteTensor(t);
  op = TF_FinishOperation(d, s);
  return op;
}

static TF_Operation* add(TF_Graph* g, const char* name, TF_Output a,
                         TF_Output b, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "AddV2", name);
  TF_AddInput(d, a);
  TF_AddInput(d, b);
  return TF_FinishOperation(d, s);
}

TEST(session_hold_defers_delete) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* c = scalar(g, "c", 1.0f, s);
  CHECK_CODE(s, TF_OK);
  tfe_graph_hold(g);
  tfe_graph_hold(g);
  TF_DeleteGraph(g); /* only marked: two sessions hold it */
  CHECK(g->delete_requested == 1);
  CHECK_STR_EQ(TF_OperationName(c), "c");
  tfe_graph_release(g);
  CHECK(tfe_graph_find(g, "c") == c); /* still alive */
  tfe_graph_release(g);                /* freed now (ASan: no leak) */
  tfe_graph_hold(NULL);
  tfe_graph_release(NULL);
  TF_DeleteStatus(s);
}

TEST(remove_ops_from_undoes_additions) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = scalar(g, "a", 1.0f, s);
  TF_Operation* b = scalar(g, "b", 2.0f, s);
  TF_Operation *x, *y;
  TF_OperationDescription* d;
  int first;
  CHECK_CODE(s, TF_OK);
  first = g->num_ops;
  x = add(g, "x", O(a, 0), O(b, 0), s);
  y = add(g, "y", O(x, 0), O(a, 0), s);
  d = TF_NewOperation(g, "NoOp", "n");
  TF_AddControlInput(d, b);
  TF_AddControlInput(d, y);
  CHECK(TF_FinishOperation(d, s) != NULL);
  CHECK_EQ_INT(TF_OperationOutputNumConsumers(O(a, 0)), 2);
  CHECK_EQ_INT(TF_OperationNumControlOutputs(b), 1);
  (void)y;
  pthread_mutex_lock(&g->mu);
  tfe_graph_remove_ops_from(g, first);
  pthread_mutex_unlock(&g->mu);
  CHECK_EQ_INT(g->num_ops, first);
  CHECK(TF_GraphOperationByName(g, "x") == NULL);
  CHECK(TF_GraphOperationByName(g, "n") == NULL);
  CHECK(TF_GraphOperationByName(g, "a") == a);
  CHECK_EQ_INT(TF_OperationOutputNumConsumers(O(a, 0)), 0);
  CHECK_EQ_INT(TF_OperationOutputNumConsumers(O(b, 0)), 0);
  CHECK_EQ_INT(TF_OperationNumControlOutputs(b), 0);
  /* the names are free again */
  x = add(g, "x", O(a, 0), O(b, 0), s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_GraphOperationByName(g, "x") == x);
  pthread_mutex_lock(&g->mu);
  tfe_graph_remove_ops_from(g, g->num_ops); /* nothing */
  tfe_graph_remove_ops_from(g, -1);         /* ignored */
  pthread_mutex_unlock(&g->mu);
  CHECK_EQ_INT(g->num_ops, first + 1);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(set_input_rewires_consumers) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* a = scalar(g, "a", 1.0f, s);
  TF_Operation* b = scalar(g, "b", 2.0f, s);
  TF_Operation* x = add(g, "x", O(a, 0), O(a, 0), s);
  TF_Input cons[4];
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_OperationOutputNumConsumers(O(a, 0)), 2);
  pthread_mutex_lock(&g->mu);
  CHECK(tfe_graph_set_input(g, x, 1, O(b, 0)));
  CHECK(!tfe_graph_set_input(g, x, 2, O(b, 0)));
  pthread_mutex_unlock(&g->mu);
  CHECK_EQ_INT(TF_OperationOutputConsumers(O(a, 0), cons, 4), 1);
  CHECK_EQ_INT(cons[0].index, 0);
  CHECK_EQ_INT(TF_OperationOutputConsumers(O(b, 0), cons, 4), 1);
  CHECK(cons[0].oper == x && cons[0].index == 1);
  CHECK(TF_OperationInput((TF_Input){x, 1}).oper == b);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(name_index_grows) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  char name[32];
  int i;
  for (i = 0; i < 3000; i++) {
    snprintf(name, sizeof name, "c%d", i);
    CHECK(scalar(g, name, (float)i, s) != NULL);
  }
  CHECK(g->name_index_cap >= 6000);
  for (i = 0; i < 3000; i++) {
    snprintf(name, sizeof name, "c%d", i);
    CHECK(tfe_graph_find(g, name) == g->ops[i]);
  }
  CHECK(tfe_graph_find(g, "c3000") == NULL);
  CHECK(tfe_graph_find(NULL, "c1") == NULL);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* Every allocation of a build + export fails in turn: each attempt ends
 * with OK or RESOURCE_EXHAUSTED, and the graph stays usable. */
TEST(finish_and_export_under_allocation_failures) {
  int64_t n;
  int done = 0;
  for (n = 0; n < 5000 && !done; n++) {
    TF_Status* s = TF_NewStatus();
    TF_Graph* g = TF_NewGraph();
    TF_Buffer* b = TF_NewBuffer();
    TF_Operation *a = NULL, *x = NULL;
    if (s == NULL || g == NULL || b == NULL) {
      TF_DeleteStatus(s);
      TF_DeleteGraph(g);
      TF_DeleteBuffer(b);
      continue;
    }
    TFE_TestFailAllocationsAfter(n);
    a = scalar(g, "a", 1.0f, s);
    if (a != NULL) x = add(g, "x", O(a, 0), O(a, 0), s);
    if (x != NULL) TF_GraphToGraphDef(g, b, s);
    TFE_TestFailAllocationsAfter(-1);
    if (TF_GetCode(s) == TF_OK && x != NULL) {
      done = 1;
      CHECK(b->length > 0);
    } else {
      /* OK when a tensor allocation failed before any call reported it;
       * INVALID_ARGUMENT when a failed setter left an attr missing. */
      CHECK(TF_GetCode(s) == TF_OK || TF_GetCode(s) == TF_RESOURCE_EXHAUSTED ||
            TF_GetCode(s) == TF_INVALID_ARGUMENT);
    }
    /* the graph still works */
    CHECK(scalar(g, "after", 3.0f, s) != NULL);
    TF_DeleteBuffer(b);
    TF_DeleteGraph(g);
    TF_DeleteStatus(s);
  }
  CHECK(done);
}

/* Several inputs of one operation from one output (the producer's
 * consumer list grows past its inline slots inside one finish), and
 * imports whose operations live in the graph's arena: a graph built from
 * a GraphDef, deleted, rebuilt (reused chunk), a failed import undone. */
TEST(shared_producer_and_import_arena) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Buffer* gd = TF_NewBuffer();
  TF_Operation* c = scalar(g, "c", 2.0f, s);
  TF_Input in[8];
  int round, k;
  CHECK_CODE(s, TF_OK);
  CHECK(add(g, "x1", O(c, 0), O(c, 0), s) != NULL);
  CHECK(add(g, "x2", O(c, 0), O(c, 0), s) != NULL);
  CHECK(add(g, "x3", O(c, 0), O(c, 0), s) != NULL);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_OperationOutputNumConsumers(O(c, 0)), 6);
  CHECK_EQ_INT(TF_OperationOutputConsumers(O(c, 0), in, 8), 6);
  for (k = 0; k < 6; k++) CHECK_EQ_INT(in[k].index, k % 2);
  TF_GraphToGraphDef(g, gd, s);
  CHECK_CODE(s, TF_OK);
  for (round = 0; round < 3; round++) {
    TF_Graph* g2 = TF_NewGraph();
    TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
    TF_Operation* c2;
    size_t pos = 0;
    int n = 0;
    TF_GraphImportGraphDef(g2, gd, o, s);
    CHECK_CODE(s, TF_OK);
    /* The same names again: fails and leaves the graph as it was. */
    TF_GraphImportGraphDef(g2, gd, o, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    while (TF_GraphNextOperation(g2, &pos) != NULL) n++;
    CHECK_EQ_INT(n, 4);
    c2 = TF_GraphOperationByName(g2, "c");
    CHECK(c2 != NULL);
    CHECK_EQ_INT(TF_OperationOutputNumConsumers(O(c2, 0)), 6);
    CHECK_EQ_INT(strcmp(TF_OperationOpType(c2), "Const"), 0);
    CHECK_EQ_INT(strcmp(TF_OperationName(c2), "c"), 0);
    /* Hand-built operations after an import still work. */
    CHECK(add(g2, "y", O(c2, 0), O(c2, 0), s) != NULL);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_OperationOutputNumConsumers(O(c2, 0)), 8);
    TF_DeleteImportGraphDefOptions(o);
    TF_DeleteGraph(g2);
  }
  TF_DeleteBuffer(gd);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
