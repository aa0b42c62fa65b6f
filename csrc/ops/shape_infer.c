/* Placeholder until the shape rules land: every output is unknown rank. */
#include "ops/shape_infer.h"

#include "core/status_internal.h"

int tfe_shape_infer(const tfe_shape_infer_args* a, const char* node_name,
                    tfe_shape* out, TF_Status* s) {
  int i;
  (void)node_name;
  for (i = 0; i < a->num_outputs; i++) {
    out[i].num_dims = -1;
    out[i].dims = NULL;
  }
  tfe_status_ok(s);
  return 1;
}

int tfe_shape_infer_known(const tfe_op_def* def) {
  (void)def;
  return 0;
}
