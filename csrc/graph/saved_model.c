/* TF_LoadSessionFromSavedModel: reads a SavedModel directory (through the
 * filesystem registry), imports the MetaGraph that matches the tags, makes a
 * session on it, restores the variables and runs the init ops. */
#include "core/status_internal.h"
#include "core/unimplemented.h"
#include "tensorflow/c/c_api.h"

TF_Session* TF_LoadSessionFromSavedModel(
    const TF_SessionOptions* session_options, const TF_Buffer* run_options,
    const char* export_dir, const char* const* tags, int tags_len,
    TF_Graph* graph, TF_Buffer* meta_graph_def, TF_Status* status) {
  (void)session_options, (void)run_options, (void)export_dir, (void)tags,
      (void)tags_len, (void)graph, (void)meta_graph_def;
  TFE_UNIMPLEMENTED(status, "TF_LoadSessionFromSavedModel");
  return NULL;
}
