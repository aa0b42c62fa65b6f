/* Host-memory args of kernels (host_memory.h). */
#include "kernels/host_memory.h"

#include <string.h>

int tfe_kernel_flat_to_arg(const tfe_op_def* def, const tfe_attrs* attrs,
                           int is_output, int flat) {
  int i, pos = 0;
  int n = is_output ? def->num_outputs : def->num_inputs;
  const tfe_arg_def* args = is_output ? def->outputs : def->inputs;
  if (flat < 0) return -1;
  for (i = 0; i < n; i++) {
    int len = 1;
    if (!tfe_op_def_arg_length(def, &args[i], attrs, &len, NULL)) return -1;
    if (flat < pos + len) return i;
    pos += len;
  }
  return -1;
}

int tfe_kernel_arg_in_host_memory(const tfe_kernel_reg* reg,
                                  const tfe_op_def* def,
                                  const tfe_attrs* attrs, int is_output,
                                  int flat) {
  int a, i;
  const char* name;
  if (reg == NULL || reg->num_host_memory_args == 0) return 0;
  a = tfe_kernel_flat_to_arg(def, attrs, is_output, flat);
  if (a < 0) return 0;
  name = is_output ? def->outputs[a].name : def->inputs[a].name;
  for (i = 0; i < reg->num_host_memory_args; i++) {
    if (strcmp(reg->host_memory_args[i], name) == 0) return 1;
  }
  return 0;
}
