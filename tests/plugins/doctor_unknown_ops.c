/* Test plugin for `python -m tfe_py doctor`: an op library (loaded with
 * TF_LoadLibrary) that defines no op and registers, from its load-time
 * constructor, CPU kernels for
 *   - DOCTOR_TF_OP, a standard TensorFlow 2.21 op that tfe does not define
 *     yet: the doctor reports it as "op not known to tfe", not as a
 *     contract violation;
 *   - TfeDoctorNoSuchOp, an op nobody defines: a contract violation.
 * The kernels are never run (they would only report UNIMPLEMENTED). */
#include <stddef.h>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"

#ifndef DOCTOR_TF_OP
#define DOCTOR_TF_OP "BoostedTreesBucketize"
#endif

static void doctor_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  (void)kernel;
  TF_SetStatus(s, TF_UNIMPLEMENTED, "doctor test kernel");
  TF_OpKernelContext_Failure(ctx, s);
  TF_DeleteStatus(s);
}

__attribute__((constructor)) static void doctor_unknown_ops_init(void) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* k;
  k = TF_NewKernelBuilder(DOCTOR_TF_OP, "CPU", NULL, doctor_compute, NULL);
  TF_RegisterKernelBuilder("DoctorStandardOpCpu", k, s);
  k = TF_NewKernelBuilder("TfeDoctorNoSuchOp", "CPU", NULL, doctor_compute,
                          NULL);
  TF_RegisterKernelBuilder("DoctorNoSuchOpCpu", k, s);
  TF_DeleteStatus(s);
}
