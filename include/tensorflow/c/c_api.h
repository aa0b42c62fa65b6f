/* tfe: the main TensorFlow C API header.
 *
 * It brings in the core types (status, tensors, buffers, strings, data and
 * attribute types) and declares the library-level functions. Functions of
 * TensorFlow's graph and session API are declared here as tfe grows them;
 * docs/COVERAGE.md lists which ones exist and which are implemented. */
#ifndef TENSORFLOW_C_C_API_H_
#define TENSORFLOW_C_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_attrtype.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The TensorFlow release whose C API this library implements, e.g.
 * "2.21.0". Static storage; never free it. */
TF_CAPI_EXPORT extern const char* TF_Version(void);

/* ------------------------------------------------------------------------
 * Loading libraries of ops and kernels. */

/* Handle to a shared library loaded with TF_LoadLibrary. */
typedef struct TF_Library TF_Library;

/* Loads the shared library at library_filename and runs its initialisers,
 * which may register ops and kernels with the runtime. Before the library is
 * opened, libtfe makes its own TF_* symbols visible to it, so the library
 * links against this very runtime. On success returns a handle the caller
 * owns (release it with TF_DeleteLibraryHandle); on failure returns NULL
 * with *status NOT_FOUND (file missing or not loadable) or INVALID_ARGUMENT
 * (NULL or empty name). */
TF_CAPI_EXPORT extern TF_Library* TF_LoadLibrary(const char* library_filename,
                                                 TF_Status* status);

/* The serialized OpList of the ops that the library registered. The buffer
 * belongs to the handle and lives as long as it. */
TF_CAPI_EXPORT extern TF_Buffer TF_GetOpList(TF_Library* lib_handle);

/* Releases the handle. The library itself stays loaded for the life of the
 * process, because ops and kernels it registered point into its code (TF
 * behaves the same way). NULL is a harmless no-op. */
TF_CAPI_EXPORT extern void TF_DeleteLibraryHandle(TF_Library* lib_handle);

/* ------------------------------------------------------------------------
 * Op and kernel registries, tensor protos (added with the plugin APIs). */

/* A borrowed string: `len` bytes at `data`, not necessarily NUL-terminated.
 * The receiver does not own the bytes; each function returning one says
 * how long they stay valid. */
#ifndef TFE_TF_STRING_VIEW_DEFINED
#define TFE_TF_STRING_VIEW_DEFINED
typedef struct TF_StringView {
  const char* data;
  size_t len;
} TF_StringView;
#endif

/* Parses a serialized TensorProto (dtype, tensor_shape, and tensor_content
 * or the typed *_val fields) into `to`, replacing its dtype, shape and
 * contents (other tensors sharing `to`'s old buffer keep it).
 * INVALID_ARGUMENT for NULL arguments or malformed bytes. */
TF_CAPI_EXPORT extern void TF_TensorFromProto(const TF_Buffer* from,
                                              TF_Tensor* to,
                                              TF_Status* status);

/* Every op definition registered in this process (built-in ops and those
 * of loaded libraries) as a serialized OpList, in a new buffer the caller
 * releases with TF_DeleteBuffer. NULL when memory runs out. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllOpList(void);

/* Serialized KernelList of the kernels registered for op `name` (every
 * device type; an unknown op gives an empty list), in a new buffer the
 * caller releases with TF_DeleteBuffer. INVALID_ARGUMENT for a NULL name. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetRegisteredKernelsForOp(
    const char* name, TF_Status* status);

/* Serialized KernelList of every registered kernel; the caller releases
 * the buffer with TF_DeleteBuffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllRegisteredKernels(TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_C_API_H_ */
