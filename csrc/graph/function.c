/* Graph functions (TF_Function): TF_UNIMPLEMENTED stubs for now. */
#include <stddef.h>

#include "graph/graph_internal.h"

void TF_GraphCopyFunction(TF_Graph* g, const TF_Function* func,
                          const TF_Function* grad, TF_Status* status) {
  (void)g, (void)func, (void)grad;
  TFE_UNIMPLEMENTED(status, "TF_GraphCopyFunction");
}

int TF_GraphNumFunctions(TF_Graph* g) {
  (void)g;
  /* TFE_UNIMPLEMENTED: TF_GraphNumFunctions */
  TFE_GRAPH_WARN_ONCE("TF_GraphNumFunctions");
  return 0;
}

int TF_GraphGetFunctions(TF_Graph* g, TF_Function** funcs, int max_func,
                         TF_Status* status) {
  (void)g, (void)funcs, (void)max_func;
  TFE_UNIMPLEMENTED(status, "TF_GraphGetFunctions");
  return 0;
}

TF_Function* TF_GraphToFunction(const TF_Graph* fn_body, const char* fn_name,
                                unsigned char append_hash_to_fn_name,
                                int num_opers, const TF_Operation* const* opers,
                                int ninputs, const TF_Output* inputs,
                                int noutputs, const TF_Output* outputs,
                                const char* const* output_names,
                                const TF_FunctionOptions* opts,
                                const char* description, TF_Status* status) {
  (void)fn_body, (void)fn_name, (void)append_hash_to_fn_name, (void)num_opers,
      (void)opers, (void)ninputs, (void)inputs, (void)noutputs, (void)outputs,
      (void)output_names, (void)opts, (void)description;
  TFE_UNIMPLEMENTED(status, "TF_GraphToFunction");
  return NULL;
}

TF_Function* TF_GraphToFunctionWithControlOutputs(
    const TF_Graph* fn_body, const char* fn_name,
    unsigned char append_hash_to_fn_name, int num_opers,
    const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    int ncontrol_outputs, const TF_Operation* const* control_outputs,
    const char* const* control_output_names, const TF_FunctionOptions* opts,
    const char* description, TF_Status* status) {
  (void)fn_body, (void)fn_name, (void)append_hash_to_fn_name, (void)num_opers,
      (void)opers, (void)ninputs, (void)inputs, (void)noutputs, (void)outputs,
      (void)output_names, (void)ncontrol_outputs, (void)control_outputs,
      (void)control_output_names, (void)opts, (void)description;
  TFE_UNIMPLEMENTED(status, "TF_GraphToFunctionWithControlOutputs");
  return NULL;
}

const char* TF_FunctionName(TF_Function* func) {
  (void)func;
  /* TFE_UNIMPLEMENTED: TF_FunctionName */
  TFE_GRAPH_WARN_ONCE("TF_FunctionName");
  return NULL;
}

void TF_FunctionToFunctionDef(TF_Function* func, TF_Buffer* output_func_def,
                              TF_Status* status) {
  (void)func, (void)output_func_def;
  TFE_UNIMPLEMENTED(status, "TF_FunctionToFunctionDef");
}

TF_Function* TF_FunctionImportFunctionDef(const void* proto, size_t proto_len,
                                          TF_Status* status) {
  (void)proto, (void)proto_len;
  TFE_UNIMPLEMENTED(status, "TF_FunctionImportFunctionDef");
  return NULL;
}

void TF_FunctionSetAttrValueProto(TF_Function* func, const char* attr_name,
                                  const void* proto, size_t proto_len,
                                  TF_Status* status) {
  (void)func, (void)attr_name, (void)proto, (void)proto_len;
  TFE_UNIMPLEMENTED(status, "TF_FunctionSetAttrValueProto");
}

void TF_FunctionGetAttrValueProto(TF_Function* func, const char* attr_name,
                                  TF_Buffer* output_attr_value,
                                  TF_Status* status) {
  (void)func, (void)attr_name, (void)output_attr_value;
  TFE_UNIMPLEMENTED(status, "TF_FunctionGetAttrValueProto");
}

void TF_DeleteFunction(TF_Function* func) {
  /* tfe never creates a TF_Function, so only NULL can arrive here; any
   * other pointer is not tfe's to free. */
  (void)func;
  /* TFE_UNIMPLEMENTED: TF_DeleteFunction */
}
