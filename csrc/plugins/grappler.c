/* grappler.h helpers. tfe builds no graphs, so there is never a
 * TF_GrapplerItem or graph to describe: every helper reports
 * FAILED_PRECONDITION (or returns NULL where it has no status). */
#include <stddef.h>

#include "core/status_internal.h"
#include "tensorflow/c/experimental/grappler/grappler.h"

static void no_graphs(const char* fn, TF_Status* status) {
  tfe_status_setf(status, TF_FAILED_PRECONDITION,
                  "%s: tfe executes no graphs, so there is no graph to "
                  "optimize or describe",
                  fn);
}

void TF_GetNodesToPreserveListSize(const TF_GrapplerItem* item,
                                   int* num_values, size_t* storage_size,
                                   TF_Status* status) {
  (void)item;
  if (num_values != NULL) *num_values = 0;
  if (storage_size != NULL) *storage_size = 0;
  no_graphs("TF_GetNodesToPreserveListSize", status);
}

void TF_GetNodesToPreserveList(const TF_GrapplerItem* item, char** values,
                               size_t* lengths, int num_values, void* storage,
                               size_t storage_size, TF_Status* status) {
  (void)item;
  (void)values;
  (void)lengths;
  (void)num_values;
  (void)storage;
  (void)storage_size;
  no_graphs("TF_GetNodesToPreserveList", status);
}

void TF_GetFetchNodesListSize(const TF_GrapplerItem* item, int* num_values,
                              size_t* storage_size, TF_Status* status) {
  (void)item;
  if (num_values != NULL) *num_values = 0;
  if (storage_size != NULL) *storage_size = 0;
  no_graphs("TF_GetFetchNodesListSize", status);
}

void TF_GetFetchNodesList(const TF_GrapplerItem* item, char** values,
                          size_t* lengths, int num_values, void* storage,
                          size_t storage_size, TF_Status* status) {
  (void)item;
  (void)values;
  (void)lengths;
  (void)num_values;
  (void)storage;
  (void)storage_size;
  no_graphs("TF_GetFetchNodesList", status);
}

TF_GraphProperties* TF_NewGraphProperties(const TF_GrapplerItem* item) {
  (void)item;
  return NULL;
}

void TF_DeleteGraphProperties(TF_GraphProperties* graph_properties) {
  (void)graph_properties;
}

void TF_InferStatically(TF_GraphProperties* graph_properties,
                        TF_Bool assume_valid_feeds,
                        TF_Bool aggressive_shape_inference,
                        TF_Bool include_input_tensor_values,
                        TF_Bool include_output_tensor_values, TF_Status* s) {
  (void)graph_properties;
  (void)assume_valid_feeds;
  (void)aggressive_shape_inference;
  (void)include_input_tensor_values;
  (void)include_output_tensor_values;
  no_graphs("TF_InferStatically", s);
}

void TF_GetInputPropertiesListSize(TF_GraphProperties* graph_properties,
                                   const char* name, int* num_values,
                                   TF_Status* status) {
  (void)graph_properties;
  (void)name;
  if (num_values != NULL) *num_values = 0;
  no_graphs("TF_GetInputPropertiesListSize", status);
}

void TF_GetOutputPropertiesListSize(TF_GraphProperties* graph_properties,
                                    const char* name, int* num_values,
                                    TF_Status* status) {
  (void)graph_properties;
  (void)name;
  if (num_values != NULL) *num_values = 0;
  no_graphs("TF_GetOutputPropertiesListSize", status);
}

void TF_GetInputPropertiesList(TF_GraphProperties* graph_properties,
                               const char* name, TF_Buffer** properties,
                               int num_values, TF_Status* status) {
  (void)graph_properties;
  (void)name;
  (void)properties;
  (void)num_values;
  no_graphs("TF_GetInputPropertiesList", status);
}

void TF_GetOutputPropertiesList(TF_GraphProperties* graph_properties,
                                const char* name, TF_Buffer** properties,
                                int num_values, TF_Status* status) {
  (void)graph_properties;
  (void)name;
  (void)properties;
  (void)num_values;
  no_graphs("TF_GetOutputPropertiesList", status);
}

TF_FunctionLibraryDefinition* TF_NewFunctionLibraryDefinition(
    const TF_Buffer* graph_buf, TF_Status* status) {
  (void)graph_buf;
  no_graphs("TF_NewFunctionLibraryDefinition", status);
  return NULL;
}

void TF_DeleteFunctionLibraryDefinition(TF_FunctionLibraryDefinition* fn_lib) {
  (void)fn_lib;
}

void TF_LookUpOpDef(TF_FunctionLibraryDefinition* fn_lib, const char* name,
                    TF_Buffer* buf, TF_Status* s) {
  (void)fn_lib;
  (void)name;
  (void)buf;
  no_graphs("TF_LookUpOpDef", s);
}
