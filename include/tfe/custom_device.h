/* tfe extension to TensorFlow's custom-device API
 * (tensorflow/c/eager/c_api_experimental.h: TFE_RegisterCustomDevice,
 * TFE_NewCustomDeviceTensorHandle).
 *
 * Nothing here exists in TensorFlow; guard its use with #ifdef TFE_VERSION.
 * docs/CUSTOM_DEVICES.md describes custom devices in tfe. */
#ifndef TFE_CUSTOM_DEVICE_H_
#define TFE_CUSTOM_DEVICE_H_

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Asks a custom-device tensor handle for a text summary of its value: the
 * bytes the `summarize` method of its TFE_CustomDeviceTensorHandleMethods
 * returns (TensorFlow uses them when printing such a tensor).
 *
 * On success the previous contents of `out` are released (its
 * data_deallocator is called, if set) and `out` owns a copy of the summary:
 * `length` bytes followed by a NUL byte that `length` does not count;
 * TF_DeleteBuffer frees it. The buffer `summarize` returned is deleted with
 * TF_DeleteBuffer. On failure `out` is untouched.
 *
 * Errors: INVALID_ARGUMENT for a NULL or dead handle, a NULL `out`, or a
 * handle that is not on a custom device; UNIMPLEMENTED when the handle's
 * methods have no `summarize`; whatever `summarize` reports; INTERNAL when
 * it returns NULL with an OK status. */
TF_CAPI_EXPORT extern void TFE_CustomDeviceTensorHandleSummarize(
    TFE_TensorHandle* h, TF_Buffer* out, TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TFE_CUSTOM_DEVICE_H_ */
