/* Shared by the I/O kernels (io_kernels.c, io_checkpoint_kernels.c). */
#ifndef TFE_KERNELS_CPU_IO_KERNELS_H_
#define TFE_KERNELS_CPU_IO_KERNELS_H_

#include <stdint.h>

#include "kernels/cpu/kutil.h"
#include "tensorflow/c/tf_tstring.h"

/* Element i of a string tensor (borrowed). */
const TF_TString* tfe_io_str(const TF_Tensor* t, int64_t i);
/* Element i of a string tensor as a NUL-terminated tfe_malloc'd copy
 * (NULL when out of memory). */
char* tfe_io_cstr(const TF_Tensor* t, int64_t i);
/* Registers SaveV2, RestoreV2, MergeV2Checkpoints, Save, SaveSlices,
 * Restore and RestoreSlice (io_checkpoint_kernels.c). */
void tfe_register_cpu_io_checkpoint_kernels(void);

#endif /* TFE_KERNELS_CPU_IO_KERNELS_H_ */
