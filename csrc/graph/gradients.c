/* Symbolic gradients of graphs (TF_AddGradients*): TF_UNIMPLEMENTED stubs
 * (the autodiff issue implements them). */
#include <stddef.h>

#include "graph/graph_internal.h"

void TF_AddGradients(TF_Graph* g, TF_Output* y, int ny, TF_Output* x, int nx,
                     TF_Output* dx, TF_Status* status, TF_Output* dy) {
  (void)g, (void)y, (void)ny, (void)x, (void)nx, (void)dx, (void)dy;
  TFE_UNIMPLEMENTED(status, "TF_AddGradients");
}

void TF_AddGradientsWithPrefix(TF_Graph* g, const char* prefix, TF_Output* y,
                               int ny, TF_Output* x, int nx, TF_Output* dx,
                               TF_Status* status, TF_Output* dy) {
  (void)g, (void)prefix, (void)y, (void)ny, (void)x, (void)nx, (void)dx,
      (void)dy;
  TFE_UNIMPLEMENTED(status, "TF_AddGradientsWithPrefix");
}

/* ------------------------------------------------------------------------
 * Functions. */
