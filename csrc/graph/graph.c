/* TF_Graph: tfe's graphs can be created and deleted but never gain an
 * operation. Every function that would read or change a graph's contents
 * is a TF_UNIMPLEMENTED stub. */
#include <stdint.h>

#include "core/alloc.h"
#include "graph/graph_internal.h"

#define TFE_GRAPH_MAGIC 0x47525048u /* "GRPH" */


TF_Graph* TF_NewGraph(void) {
  TF_Graph* g = (TF_Graph*)tfe_calloc(1, sizeof(*g));
  if (g == NULL) return NULL;
  g->magic = TFE_GRAPH_MAGIC;
  return g;
}

void TF_DeleteGraph(TF_Graph* g) {
  if (g == NULL || g->magic != TFE_GRAPH_MAGIC) return;
  g->magic = 0;
  tfe_free(g);
}

/* ------------------------------------------------------------------------
 * Tensor shapes, lookup and serialization. */

void TF_GraphSetTensorShape(TF_Graph* graph, TF_Output output,
                            const int64_t* dims, const int num_dims,
                            TF_Status* status) {
  (void)graph, (void)output, (void)dims, (void)num_dims;
  TFE_UNIMPLEMENTED(status, "TF_GraphSetTensorShape");
}

int TF_GraphGetTensorNumDims(TF_Graph* graph, TF_Output output,
                             TF_Status* status) {
  (void)graph, (void)output;
  TFE_UNIMPLEMENTED(status, "TF_GraphGetTensorNumDims");
  return -1;
}

void TF_GraphGetTensorShape(TF_Graph* graph, TF_Output output, int64_t* dims,
                            int num_dims, TF_Status* status) {
  (void)graph, (void)output, (void)dims, (void)num_dims;
  TFE_UNIMPLEMENTED(status, "TF_GraphGetTensorShape");
}

TF_Operation* TF_GraphOperationByName(TF_Graph* graph, const char* oper_name) {
  (void)graph, (void)oper_name;
  /* TFE_UNIMPLEMENTED: TF_GraphOperationByName */
  TFE_GRAPH_WARN_ONCE("TF_GraphOperationByName");
  return NULL;
}

TF_Operation* TF_GraphNextOperation(TF_Graph* graph, size_t* pos) {
  (void)graph, (void)pos;
  /* TFE_UNIMPLEMENTED: TF_GraphNextOperation */
  TFE_GRAPH_WARN_ONCE("TF_GraphNextOperation");
  return NULL;
}

void TF_GraphToGraphDef(TF_Graph* graph, TF_Buffer* output_graph_def,
                        TF_Status* status) {
  (void)graph, (void)output_graph_def;
  TFE_UNIMPLEMENTED(status, "TF_GraphToGraphDef");
}

void TF_GraphGetOpDef(TF_Graph* graph, const char* op_name,
                      TF_Buffer* output_op_def, TF_Status* status) {
  (void)graph, (void)op_name, (void)output_op_def;
  TFE_UNIMPLEMENTED(status, "TF_GraphGetOpDef");
}

void TF_GraphVersions(TF_Graph* graph, TF_Buffer* output_version_def,
                      TF_Status* status) {
  (void)graph, (void)output_version_def;
  TFE_UNIMPLEMENTED(status, "TF_GraphVersions");
}

/* ------------------------------------------------------------------------
 * Mutation of existing operations (TF_UpdateEdge and the functions TF's
 * Python layer uses). */

void TF_UpdateEdge(TF_Graph* graph, TF_Output new_src, TF_Input dst,
                   TF_Status* status) {
  (void)graph, (void)new_src, (void)dst;
  TFE_UNIMPLEMENTED(status, "TF_UpdateEdge");
}

void TF_AddOperationControlInput(TF_Graph* graph, TF_Operation* op,
                                 TF_Operation* input) {
  (void)graph, (void)op, (void)input;
  /* TFE_UNIMPLEMENTED: TF_AddOperationControlInput */
  TFE_GRAPH_WARN_ONCE("TF_AddOperationControlInput");
}

void TF_SetAttr(TF_Graph* graph, TF_Operation* op, const char* attr_name,
                TF_Buffer* attr_value_proto, TF_Status* status) {
  (void)graph, (void)op, (void)attr_name, (void)attr_value_proto;
  TFE_UNIMPLEMENTED(status, "TF_SetAttr");
}

void TF_ClearAttr(TF_Graph* graph, TF_Operation* op, const char* attr_name,
                  TF_Status* status) {
  (void)graph, (void)op, (void)attr_name;
  TFE_UNIMPLEMENTED(status, "TF_ClearAttr");
}

void TF_SetFullType(TF_Graph* graph, TF_Operation* op,
                    const TF_Buffer* full_type_proto) {
  (void)graph, (void)op, (void)full_type_proto;
  /* TFE_UNIMPLEMENTED: TF_SetFullType */
  TFE_GRAPH_WARN_ONCE("TF_SetFullType");
}

void TF_SetRequestedDevice(TF_Graph* graph, TF_Operation* op,
                           const char* device) {
  (void)graph, (void)op, (void)device;
  /* TFE_UNIMPLEMENTED: TF_SetRequestedDevice */
  TFE_GRAPH_WARN_ONCE("TF_SetRequestedDevice");
}

void TF_RemoveAllControlInputs(TF_Graph* graph, TF_Operation* op) {
  (void)graph, (void)op;
  /* TFE_UNIMPLEMENTED: TF_RemoveAllControlInputs */
  TFE_GRAPH_WARN_ONCE("TF_RemoveAllControlInputs");
}

void TF_SetRequireShapeInferenceFns(TF_Graph* graph, bool require) {
  (void)graph, (void)require;
  /* TFE_UNIMPLEMENTED: TF_SetRequireShapeInferenceFns */
  TFE_GRAPH_WARN_ONCE("TF_SetRequireShapeInferenceFns");
}

TF_Buffer* TF_GetHandleShapeAndType(TF_Graph* graph, TF_Output output) {
  (void)graph, (void)output;
  /* TFE_UNIMPLEMENTED: TF_GetHandleShapeAndType */
  TFE_GRAPH_WARN_ONCE("TF_GetHandleShapeAndType");
  return NULL;
}

void TF_SetHandleShapeAndType(TF_Graph* graph, TF_Output output,
                              const void* proto, size_t proto_len,
                              TF_Status* status) {
  (void)graph, (void)output, (void)proto, (void)proto_len;
  TFE_UNIMPLEMENTED(status, "TF_SetHandleShapeAndType");
}

void TF_AddWhileInputHack(TF_Graph* graph, TF_Output new_src,
                          TF_Operation* dst, TF_Status* status) {
  (void)graph, (void)new_src, (void)dst;
  TFE_UNIMPLEMENTED(status, "TF_AddWhileInputHack");
}
