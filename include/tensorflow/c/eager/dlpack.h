/* tfe: exchanging eager tensors with other libraries through DLPack
 * (TensorFlow 2.21's tensorflow/c/eager/dlpack.h).
 *
 * TensorFlow declares these functions inside `namespace tensorflow`, as
 * C++, so its binaries export them only under their C++ (mangled) names
 * and C cannot call them. tfe declares them as C functions with the same
 * names and parameters and exports them; C++ sources see them as
 * tensorflow::TFE_... too (below). libtfe also exports the four C++ names,
 * e.g. tensorflow::TFE_HandleToDLPack(TFE_TensorHandle*, TSL_Status*), as
 * aliases of the C functions, so C++ code compiled against TensorFlow's own
 * dlpack.h links against libtfe unchanged.
 *
 * The DLPack structures travel as `void*`, as in TensorFlow. C code that
 * wants to look inside them includes tfe/dlpack.h (DLDevice,
 * DLManagedTensor, ...).
 *
 * What tfe supports:
 *   - devices: host memory (kDLCPU) in both directions;
 *   - element types: bool, int8/16/32/64, uint8/16/32/64, half, bfloat16,
 *     float, double, complex64 and complex128 (lanes must be 1);
 *   - strides: anything in the incoming direction (compact row-major data
 *     is shared, any other layout is copied); outgoing tensors are always
 *     compact row-major with explicit strides and byte_offset 0. */
#ifndef TENSORFLOW_C_EAGER_DLPACK_H_
#define TENSORFLOW_C_EAGER_DLPACK_H_

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The DLPack device of a handle's memory, as a new DLDevice the caller
 * owns and releases with free(). A handle on a CPU device gives
 * {kDLCPU, 0}; any other device, or a NULL handle, gives NULL and
 * TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern void* TFE_GetDLDevice(TFE_TensorHandle* h,
                                            TF_Status* status);

/* Exports the tensor of handle `h` as a new DLManagedTensor* (returned as
 * void*) that shares the handle's memory: no copy is made. The handle
 * stays the caller's; the DLManagedTensor keeps the memory alive on its
 * own until its deleter runs, which the receiver must make happen exactly
 * once (e.g. with TFE_CallDLManagedTensorDeleter), before or after the
 * handle is deleted. The receiver must not write to the memory while a
 * tfe handle still reads it.
 * Errors (NULL returned, nothing allocated): a NULL handle, a device other
 * than CPU, or a dtype DLPack cannot describe (string, resource, variant,
 * quantized, 8-bit float, 4-bit int) give TF_INVALID_ARGUMENT; a handle
 * whose (asynchronous) computation failed gives that failure; out of
 * memory gives TF_RESOURCE_EXHAUSTED. */
TF_CAPI_EXPORT extern void* TFE_HandleToDLPack(TFE_TensorHandle* h,
                                               TF_Status* status);

/* Imports the DLManagedTensor `dlm` as a new tensor handle owned by the
 * caller (TFE_DeleteTensorHandle), placed on the first CPU device of `ctx`
 * (a NULL ctx gives a context-free host handle, like TFE_NewTensorHandle).
 * On success the handle owns `dlm`: when the data is compact row-major and
 * its start (data + byte_offset) is aligned to 64 bytes, the handle shares
 * it and dlm's deleter runs exactly once, when the last tensor using the
 * memory is released; otherwise the data is copied into new aligned memory
 * and the deleter runs before this function returns.
 * On failure NULL is returned and `dlm` is NOT consumed: its deleter has
 * not run and the caller still owns it (this differs from TF, which may
 * or may not have called it). Errors: NULL dlm, a device other than
 * kDLCPU, an unsupported dtype or lanes != 1, a negative ndim or dim, a
 * NULL shape or data for a non-empty tensor, or a size overflow give
 * TF_INVALID_ARGUMENT; out of memory TF_RESOURCE_EXHAUSTED. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_HandleFromDLPack(void* dlm,
                                                             TF_Status* status,
                                                             TFE_Context* ctx);

/* Calls the deleter of the DLManagedTensor `dlm_ptr` if it has one. After
 * this, `dlm_ptr` is gone. NULL is a no-op. */
TF_CAPI_EXPORT extern void TFE_CallDLManagedTensorDeleter(void* dlm_ptr);

#ifdef __cplusplus
} /* extern "C" */

/* TensorFlow's C++ spellings of the same API. */
namespace tensorflow {
/* Name of the Python capsule carrying a DLManagedTensor. */
const char* const kDlTensorCapsuleName = "dltensor";
using ::TFE_CallDLManagedTensorDeleter;
using ::TFE_GetDLDevice;
using ::TFE_HandleFromDLPack;
using ::TFE_HandleToDLPack;
}  // namespace tensorflow
#endif

#endif /* TENSORFLOW_C_EAGER_DLPACK_H_ */
