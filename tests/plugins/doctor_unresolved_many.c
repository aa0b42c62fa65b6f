/* Test plugin for `python -m tfe_py doctor`: a device plugin that cannot
 * be loaded because it needs several symbols no library provides, of
 * every kind the doctor tells apart:
 *   - TF_/TFE_-prefixed C API functions tfe does not have;
 *   - TensorFlow C++ internals (mangled tensorflow::, tsl:: and absl::
 *     names), as a plugin linked against libtensorflow_framework needs;
 *   - a symbol from some other, missing vendor library.
 * The doctor must list them all (dlopen names only the first) and classify
 * each. The C++ names are given with asm labels so that this stays C. */
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"

extern void TF_DoctorTestFunctionTfeLacks(void);
extern void TFE_DoctorTestFunctionTfeLacks(void);
/* tensorflow::Tensor::Tensor() */
extern void doctor_tf_tensor_ctor(void) __asm__("_ZN10tensorflow6TensorC1Ev");
/* tensorflow::OpKernel::~OpKernel() */
extern void doctor_tf_opkernel_dtor(void) __asm__("_ZN10tensorflow8OpKernelD2Ev");
/* tsl::Env::Default() */
extern void doctor_tsl_env(void) __asm__("_ZN3tsl3Env7DefaultEv");
/* absl::Mutex::Lock() */
extern void doctor_absl_lock(void) __asm__("_ZN4absl5Mutex4LockEv");
extern void doctor_vendor_runtime_init(void);

void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  (void)params;
  (void)status;
  TF_DoctorTestFunctionTfeLacks();
  TFE_DoctorTestFunctionTfeLacks();
  doctor_tf_tensor_ctor();
  doctor_tf_opkernel_dtor();
  doctor_tsl_env();
  doctor_absl_lock();
  doctor_vendor_runtime_init();
}
