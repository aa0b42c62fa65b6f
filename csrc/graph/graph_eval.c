/* Constant evaluation of graph outputs (TF_TryEvaluateConstant):
 * TF_UNIMPLEMENTED stub for now. */
#include <stddef.h>

#include "graph/graph_internal.h"

unsigned char TF_TryEvaluateConstant(TF_Graph* graph, TF_Output output,
                                     TF_Tensor** result, TF_Status* status) {
  (void)graph, (void)output, (void)result;
  TFE_UNIMPLEMENTED(status, "TF_TryEvaluateConstant");
  return 0;
}
