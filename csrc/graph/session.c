/* Sessions and deprecated sessions: TF_UNIMPLEMENTED stubs (tfe has no
 * graph runtime to run). The functions that hand back tensors or handles
 * clear those outputs so callers never read garbage. Their Delete
 * functions accept NULL (status TF_OK); tfe never creates a session, so a
 * non-NULL one is reported as TF_UNIMPLEMENTED and left alone. */
#include <stddef.h>

#include "core/status_internal.h"
#include "graph/graph_internal.h"

static void clear_tensors(TF_Tensor** values, int n) {
  int i;
  if (values == NULL) return;
  for (i = 0; i < n; i++) values[i] = NULL;
}

/* ------------------------------------------------------------------------
 * Sessions. */

TF_Session* TF_NewSession(TF_Graph* graph, const TF_SessionOptions* opts,
                          TF_Status* status) {
  (void)graph, (void)opts;
  TFE_UNIMPLEMENTED(status, "TF_NewSession");
  return NULL;
}

TF_Session* TF_LoadSessionFromSavedModel(
    const TF_SessionOptions* session_options, const TF_Buffer* run_options,
    const char* export_dir, const char* const* tags, int tags_len,
    TF_Graph* graph, TF_Buffer* meta_graph_def, TF_Status* status) {
  (void)session_options, (void)run_options, (void)export_dir, (void)tags,
      (void)tags_len, (void)graph, (void)meta_graph_def;
  TFE_UNIMPLEMENTED(status, "TF_LoadSessionFromSavedModel");
  return NULL;
}

void TF_CloseSession(TF_Session* session, TF_Status* status) {
  (void)session;
  TFE_UNIMPLEMENTED(status, "TF_CloseSession");
}

void TF_DeleteSession(TF_Session* session, TF_Status* status) {
  if (session == NULL) {
    tfe_status_ok(status);
    return;
  }
  TFE_UNIMPLEMENTED(status, "TF_DeleteSession");
}

void TF_SessionRun(TF_Session* session, const TF_Buffer* run_options,
                   const TF_Output* inputs, TF_Tensor* const* input_values,
                   int ninputs, const TF_Output* outputs,
                   TF_Tensor** output_values, int noutputs,
                   const TF_Operation* const* target_opers, int ntargets,
                   TF_Buffer* run_metadata, TF_Status* status) {
  (void)session, (void)run_options, (void)inputs, (void)input_values,
      (void)ninputs, (void)outputs, (void)target_opers, (void)ntargets,
      (void)run_metadata;
  clear_tensors(output_values, noutputs);
  TFE_UNIMPLEMENTED(status, "TF_SessionRun");
}

void TF_SessionPRunSetup(TF_Session* session, const TF_Output* inputs,
                         int ninputs, const TF_Output* outputs, int noutputs,
                         const TF_Operation* const* target_opers, int ntargets,
                         const char** handle, TF_Status* status) {
  (void)session, (void)inputs, (void)ninputs, (void)outputs, (void)noutputs,
      (void)target_opers, (void)ntargets;
  if (handle != NULL) *handle = NULL;
  TFE_UNIMPLEMENTED(status, "TF_SessionPRunSetup");
}

void TF_SessionPRun(TF_Session* session, const char* handle,
                    const TF_Output* inputs, TF_Tensor* const* input_values,
                    int ninputs, const TF_Output* outputs,
                    TF_Tensor** output_values, int noutputs,
                    const TF_Operation* const* target_opers, int ntargets,
                    TF_Status* status) {
  (void)session, (void)handle, (void)inputs, (void)input_values,
      (void)ninputs, (void)outputs, (void)target_opers, (void)ntargets;
  clear_tensors(output_values, noutputs);
  TFE_UNIMPLEMENTED(status, "TF_SessionPRun");
}

void TF_DeletePRunHandle(const char* handle) {
  /* Only TF_SessionPRunSetup/TF_PRunSetup make handles, and in tfe they
   * never do: NULL is the only value that can arrive. */
  (void)handle;
  /* TFE_UNIMPLEMENTED: TF_DeletePRunHandle */
}

void TF_ExtendSession(TF_Session* session, TF_Status* status) {
  (void)session;
  TFE_UNIMPLEMENTED(status, "TF_ExtendSession");
}

TF_DeviceList* TF_SessionListDevices(TF_Session* session, TF_Status* status) {
  (void)session;
  TFE_UNIMPLEMENTED(status, "TF_SessionListDevices");
  return NULL;
}

/* ------------------------------------------------------------------------
 * Deprecated sessions. */

TF_DeprecatedSession* TF_NewDeprecatedSession(const TF_SessionOptions* opts,
                                              TF_Status* status) {
  (void)opts;
  TFE_UNIMPLEMENTED(status, "TF_NewDeprecatedSession");
  return NULL;
}

void TF_CloseDeprecatedSession(TF_DeprecatedSession* session,
                               TF_Status* status) {
  (void)session;
  TFE_UNIMPLEMENTED(status, "TF_CloseDeprecatedSession");
}

void TF_DeleteDeprecatedSession(TF_DeprecatedSession* session,
                                TF_Status* status) {
  if (session == NULL) {
    tfe_status_ok(status);
    return;
  }
  TFE_UNIMPLEMENTED(status, "TF_DeleteDeprecatedSession");
}

void TF_Reset(const TF_SessionOptions* opt, const char** containers,
              int ncontainers, TF_Status* status) {
  (void)opt, (void)containers, (void)ncontainers;
  TFE_UNIMPLEMENTED(status, "TF_Reset");
}

void TF_ExtendGraph(TF_DeprecatedSession* session, const void* proto,
                    size_t proto_len, TF_Status* status) {
  (void)session, (void)proto, (void)proto_len;
  TFE_UNIMPLEMENTED(status, "TF_ExtendGraph");
}

void TF_Run(TF_DeprecatedSession* session, const TF_Buffer* run_options,
            const char** input_names, TF_Tensor** inputs, int ninputs,
            const char** output_names, TF_Tensor** outputs, int noutputs,
            const char** target_oper_names, int ntargets,
            TF_Buffer* run_metadata, TF_Status* status) {
  (void)session, (void)run_options, (void)input_names, (void)inputs,
      (void)ninputs, (void)output_names, (void)target_oper_names,
      (void)ntargets, (void)run_metadata;
  clear_tensors(outputs, noutputs);
  TFE_UNIMPLEMENTED(status, "TF_Run");
}

void TF_PRunSetup(TF_DeprecatedSession* session, const char** input_names,
                  int ninputs, const char** output_names, int noutputs,
                  const char** target_oper_names, int ntargets,
                  const char** handle, TF_Status* status) {
  (void)session, (void)input_names, (void)ninputs, (void)output_names,
      (void)noutputs, (void)target_oper_names, (void)ntargets;
  if (handle != NULL) *handle = NULL;
  TFE_UNIMPLEMENTED(status, "TF_PRunSetup");
}

void TF_PRun(TF_DeprecatedSession* session, const char* handle,
             const char** input_names, TF_Tensor** inputs, int ninputs,
             const char** output_names, TF_Tensor** outputs, int noutputs,
             const char** target_oper_names, int ntargets, TF_Status* status) {
  (void)session, (void)handle, (void)input_names, (void)inputs,
      (void)ninputs, (void)output_names, (void)target_oper_names,
      (void)ntargets;
  clear_tensors(outputs, noutputs);
  TFE_UNIMPLEMENTED(status, "TF_PRun");
}

TF_DeviceList* TF_DeprecatedSessionListDevices(TF_DeprecatedSession* session,
                                               TF_Status* status) {
  (void)session;
  TFE_UNIMPLEMENTED(status, "TF_DeprecatedSessionListDevices");
  return NULL;
}
