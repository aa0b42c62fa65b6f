/* Fuzz harness for GraphDef import (TF_GraphImportGraphDefWithResults,
 * csrc/graph/import*.c): arbitrary bytes as a serialized GraphDef, imported
 * into a graph that already holds a few operations, with options chosen by
 * the first byte.
 *
 * What it looks for besides crashes, leaks and sanitizer reports:
 *  - the import succeeds, or fails with one of the codes TF's importer
 *    uses (INVALID_ARGUMENT, NOT_FOUND, UNIMPLEMENTED for a removed op,
 *    RESOURCE_EXHAUSTED when a fuzz-chosen tensor is too large);
 *  - a failed import leaves the graph exactly as it was (same serialized
 *    GraphDef, same operation count);
 *  - a successful import can be exported again, and that GraphDef imports
 *    into a fresh graph with the same number of operations (with the same
 *    colocation checking as the first import: an unchecked "loc:@" target
 *    need not exist).
 *
 * Input: byte 0 holds option bits (1: prefix "p", 2: uniquify names,
 * 4: map input "x:0" to the graph's "feed:0", 8: control dependency on the
 * graph's "dep", 16: return output "x:0", 32: import the bytes twice,
 * 64: no colocation validation); the rest is the GraphDef. Built with the
 * other targets (tests/fuzz/CMakeLists.txt; see tests/fuzz/README.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void die(const char* what, TF_Status* s) {
  fprintf(stderr, "fuzz_graphdef_import: %s: code %d: %s\n", what,
          (int)TF_GetCode(s), TF_Message(s));
  abort();
}

static int count_ops(TF_Graph* g) {
  size_t pos = 0;
  int n = 0;
  while (TF_GraphNextOperation(g, &pos) != NULL) n++;
  return n;
}

static TF_Buffer* export_graph(TF_Graph* g, TF_Status* s) {
  TF_Buffer* b = TF_NewBuffer();
  TF_GraphToGraphDef(g, b, s);
  if (TF_GetCode(s) != TF_OK) die("TF_GraphToGraphDef", s);
  return b;
}

static int same_bytes(const TF_Buffer* a, const TF_Buffer* b) {
  return a->length == b->length &&
         (a->length == 0 || memcmp(a->data, b->data, a->length) == 0);
}

/* The graph every input is imported into: feed (Placeholder float), dep
 * (NoOp), x (Identity of feed; collides with the common name "x"). */
static TF_Graph* base_graph(TF_Status* s) {
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d;
  TF_Operation* feed;
  d = TF_NewOperation(g, "Placeholder", "feed");
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  feed = TF_FinishOperation(d, s);
  if (TF_GetCode(s) != TF_OK) die("base graph", s);
  d = TF_NewOperation(g, "NoOp", "dep");
  TF_FinishOperation(d, s);
  if (TF_GetCode(s) != TF_OK) die("base graph", s);
  d = TF_NewOperation(g, "Identity", "x");
  TF_AddInput(d, (TF_Output){feed, 0});
  TF_FinishOperation(d, s);
  if (TF_GetCode(s) != TF_OK) die("base graph", s);
  return g;
}

static void check_code(TF_Status* s) {
  switch (TF_GetCode(s)) {
    case TF_OK:
    case TF_INVALID_ARGUMENT:
    case TF_NOT_FOUND:
    case TF_UNIMPLEMENTED:
    case TF_RESOURCE_EXHAUSTED:
      return;
    default:
      die("unexpected code from the import", s);
  }
}

/* One import with the invariants above. */
static void import_once(TF_Graph* g, TF_Buffer* gd, unsigned flags,
                        TF_Status* s) {
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefResults* r;
  TF_Buffer* before = export_graph(g, s);
  int n = count_ops(g);
  if (flags & 1) TF_ImportGraphDefOptionsSetPrefix(o, "p");
  if (flags & 2) TF_ImportGraphDefOptionsSetUniquifyNames(o, 1);
  if (flags & 4) {
    TF_Output feed = {TF_GraphOperationByName(g, "feed"), 0};
    TF_ImportGraphDefOptionsAddInputMapping(o, "x", 0, feed);
  }
  if (flags & 8) {
    TF_ImportGraphDefOptionsAddControlDependency(
        o, TF_GraphOperationByName(g, "dep"));
  }
  if (flags & 16) TF_ImportGraphDefOptionsAddReturnOutput(o, "x", 0);
  if (flags & 64) TF_ImportGraphDefOptionsSetValidateColocationConstraints(o, 0);
  r = TF_GraphImportGraphDefWithResults(g, gd, o, s);
  check_code(s);
  if (TF_GetCode(s) != TF_OK) {
    TF_Buffer* after;
    if (r != NULL) die("results returned with an error", s);
    if (count_ops(g) != n) die("failed import changed the op count", s);
    after = export_graph(g, s);
    if (!same_bytes(before, after)) die("failed import changed the graph", s);
    TF_DeleteBuffer(after);
  } else {
    int nout = -1;
    TF_Output* outs = NULL;
    if (r == NULL) die("no results", s);
    TF_ImportGraphDefResultsReturnOutputs(r, &nout, &outs);
    if (nout != ((flags & 16) ? 1 : 0)) die("wrong number of outputs", s);
    if (nout == 1 && outs[0].oper == NULL) die("NULL return output", s);
    TF_DeleteImportGraphDefResults(r);
  }
  TF_DeleteBuffer(before);
  TF_DeleteImportGraphDefOptions(o);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TF_Status* s;
  TF_Graph* g;
  TF_Buffer* gd;
  unsigned flags;
  if (size == 0) return 0;
  flags = data[0];
  s = TF_NewStatus();
  g = base_graph(s);
  gd = TF_NewBufferFromString(data + 1, size - 1);
  import_once(g, gd, flags, s);
  if ((flags & 32) && TF_GetCode(s) == TF_OK) import_once(g, gd, flags, s);
  if (TF_GetCode(s) == TF_OK) {
    /* What tfe exports, tfe imports. */
    TF_Buffer* again = export_graph(g, s);
    TF_Graph* g2 = TF_NewGraph();
    TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
    int n = count_ops(g);
    /* Colocation targets that were not checked need not exist. */
    if (flags & 64) TF_ImportGraphDefOptionsSetValidateColocationConstraints(o, 0);
    TF_GraphImportGraphDef(g2, again, o, s);
    TF_DeleteImportGraphDefOptions(o);
    if (TF_GetCode(s) != TF_OK) die("re-import of an exported graph", s);
    if (count_ops(g2) != n) die("re-import changed the op count", s);
    TF_DeleteGraph(g2);
    TF_DeleteBuffer(again);
  }
  TF_DeleteBuffer(gd);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
  return 0;
}
