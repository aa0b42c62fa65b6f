/* Which inputs and outputs of a kernel live in host memory. A kernel for a
 * device kind whose memory is not host memory (a PluggableDevice) names
 * such args with TF_KernelBuilder_HostMemory; the eager runtime gives it
 * host tensors for those inputs and keeps those outputs on the host.
 * Implementation: csrc/kernels/host_memory.c. */
#ifndef TFE_KERNELS_HOST_MEMORY_H_
#define TFE_KERNELS_HOST_MEMORY_H_

#include "kernels/kernel.h"

/* The arg (index into def->inputs or def->outputs) that flat input or
 * output `flat` belongs to under complete attrs, or -1. */
int tfe_kernel_flat_to_arg(const tfe_op_def* def, const tfe_attrs* attrs,
                           int is_output, int flat);

/* 1 when flat input (is_output 0) or output `flat` of kernel `reg` is
 * declared as host memory. */
int tfe_kernel_arg_in_host_memory(const tfe_kernel_reg* reg,
                                  const tfe_op_def* def,
                                  const tfe_attrs* attrs, int is_output,
                                  int flat);

#endif /* TFE_KERNELS_HOST_MEMORY_H_ */
