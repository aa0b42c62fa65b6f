/* Test plugin for `python -m tfe_py doctor`: a kernel library with only
 * the TF_InitKernel entry point (no SE_InitPlugin, no op definitions, no
 * load-time constructor). It is a TensorFlow plugin, not "not a plugin":
 * the doctor loads it as an op library, which registers nothing, and says
 * why its kernels are missing. */
#include <stddef.h>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"

static void doctor_compute(void* kernel, TF_OpKernelContext* ctx) {
  (void)kernel;
  (void)ctx;
}

void TF_InitKernel(void) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* k =
      TF_NewKernelBuilder("AddV2", "CPU", NULL, doctor_compute, NULL);
  TF_RegisterKernelBuilder("DoctorEntryOnlyAddV2", k, s);
  TF_DeleteStatus(s);
}
