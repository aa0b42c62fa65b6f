/* The v1 while-loop builder of c_api.h (TF_NewWhile, TF_FinishWhile,
 * TF_AbortWhile): TF_UNIMPLEMENTED stubs for now. */
#include <stddef.h>

#include "graph/graph_internal.h"

/* ------------------------------------------------------------------------
 * While loops. */

TF_WhileParams TF_NewWhile(TF_Graph* g, TF_Output* inputs, int ninputs,
                           TF_Status* status) {
  /* The const members can only be set here, at initialisation. */
  TF_WhileParams none = {0, NULL, NULL, {NULL, 0}, NULL, NULL, NULL, NULL};
  (void)g, (void)inputs, (void)ninputs;
  TFE_UNIMPLEMENTED(status, "TF_NewWhile");
  return none;
}

void TF_FinishWhile(const TF_WhileParams* params, TF_Status* status,
                    TF_Output* outputs) {
  (void)params, (void)outputs;
  TFE_UNIMPLEMENTED(status, "TF_FinishWhile");
}

void TF_AbortWhile(const TF_WhileParams* params) {
  (void)params;
  /* TFE_UNIMPLEMENTED: TF_AbortWhile */
  TFE_GRAPH_WARN_ONCE("TF_AbortWhile");
}
