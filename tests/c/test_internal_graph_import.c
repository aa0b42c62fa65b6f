/* The internal GraphDef import API (csrc/graph/import_internal.h):
 * tfe_graph_import_locked with the graph's lock held, and the internal
 * skip_mapped_nodes option (TF's, used to copy a body graph whose inputs
 * are remapped). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/pb.h"
#include "graph/import_internal.h"
#include "tensorflow/c/c_api.h"
#include "tfe_test.h"

/* NodeDef{name, op, inputs..., attr T or dtype = DT_FLOAT}. */
static void add_node(tfe_pbw* g, const char* name, const char* op,
                     const char* in0, const char* type_attr) {
  tfe_pbw n = {0}, e = {0}, v = {0};
  tfe_pbw_str(&n, 1, name);
  tfe_pbw_str(&n, 2, op);
  if (in0 != NULL) tfe_pbw_str(&n, 3, in0);
  tfe_pbw_str(&e, 1, type_attr);
  tfe_pbw_uint(&v, 6, TF_FLOAT);
  tfe_pbw_sub(&e, 2, &v);
  tfe_pbw_sub(&n, 5, &e);
  tfe_pbw_sub(g, 1, &n);
}

static TF_Operation* feed_op(TF_Graph* g, TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", "feed");
  TF_Operation* op;
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  op = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  return op;
}

TEST(skip_mapped_nodes) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_Operation* feed = feed_op(g, s);
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefResults* r =
      (TF_ImportGraphDefResults*)calloc(1, sizeof(TF_ImportGraphDefResults));
  tfe_pbw gd = {0};
  int ok;
  add_node(&gd, "new_input", "Placeholder", NULL, "dtype");
  add_node(&gd, "t1", "Neg", "new_input", "T");
  o->skip_mapped_nodes = 1;
  TF_ImportGraphDefOptionsSetPrefix(o, "body");
  TF_ImportGraphDefOptionsAddInputMapping(o, "new_input", 0,
                                          (TF_Output){feed, 0});
  TF_ImportGraphDefOptionsAddInputMapping(o, "new_input", 2,
                                          (TF_Output){feed, 0});
  TF_ImportGraphDefOptionsAddReturnOutput(o, "t1", 0);
  pthread_mutex_lock(&g->mu);
  ok = tfe_graph_import_locked(g, gd.data, gd.len, o, r, s);
  pthread_mutex_unlock(&g->mu);
  CHECK_CODE(s, TF_OK);
  CHECK(ok);
  /* new_input is fully mapped: not imported; t1 reads feed. */
  CHECK(TF_GraphOperationByName(g, "body/new_input") == NULL);
  CHECK(TF_GraphOperationByName(g, "body/t1") != NULL);
  CHECK(TF_OperationInput((TF_Input){TF_GraphOperationByName(g, "body/t1"),
                                     0})
            .oper == feed);
  CHECK_EQ_INT(r->num_return_outputs, 1);
  CHECK(r->return_outputs[0].oper == TF_GraphOperationByName(g, "body/t1"));
  /* new_input:2 names an output the (skipped) node does not have. */
  CHECK_EQ_INT(r->num_missing, 1);
  CHECK_STR_EQ(r->missing_names[0], "new_input");
  CHECK_EQ_INT(r->missing_indexes[0], 2);
  TF_DeleteImportGraphDefResults(r);

  /* Asking for operations with skip_mapped_nodes is refused, as in TF. */
  TF_ImportGraphDefOptionsAddReturnOperation(o, "t1");
  pthread_mutex_lock(&g->mu);
  ok = tfe_graph_import_locked(g, gd.data, gd.len, o, NULL, s);
  pthread_mutex_unlock(&g->mu);
  CHECK(!ok);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "skip_mapped_nodes");
  TF_DeleteImportGraphDefOptions(o);

  /* A consumer of a skipped node's unmapped output is refused; nothing is
   * left behind. */
  o = TF_NewImportGraphDefOptions();
  o->skip_mapped_nodes = 1;
  TF_ImportGraphDefOptionsSetPrefix(o, "body2");
  TF_ImportGraphDefOptionsAddInputMapping(o, "new_input", 0,
                                          (TF_Output){feed, 0});
  {
    tfe_pbw gd2 = {0};
    add_node(&gd2, "new_input", "Placeholder", NULL, "dtype");
    add_node(&gd2, "t2", "Neg", "new_input:1", "T");
    pthread_mutex_lock(&g->mu);
    ok = tfe_graph_import_locked(g, gd2.data, gd2.len, o, NULL, s);
    pthread_mutex_unlock(&g->mu);
    CHECK(!ok);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK(TF_GraphOperationByName(g, "body2/t2") == NULL);
    tfe_pbw_free(&gd2);
  }
  TF_DeleteImportGraphDefOptions(o);
  tfe_pbw_free(&gd);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(parse_then_import) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  tfe_pbw gd = {0};
  tfe_gdef* parsed;
  add_node(&gd, "x", "Placeholder", NULL, "dtype");
  parsed = tfe_gdef_parse(gd.data, gd.len, s);
  CHECK(parsed != NULL);
  CHECK_CODE(s, TF_OK);
  pthread_mutex_lock(&g->mu);
  CHECK(tfe_gdef_import_locked(g, parsed, NULL, NULL, s));
  /* The same parsed GraphDef again: the name collides. */
  CHECK(!tfe_gdef_import_locked(g, parsed, NULL, NULL, s));
  pthread_mutex_unlock(&g->mu);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  tfe_gdef_free(parsed);
  tfe_gdef_free(NULL);
  CHECK(tfe_gdef_parse("\x0a\x09", 2, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Invalid GraphDef");
  tfe_pbw_free(&gd);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
