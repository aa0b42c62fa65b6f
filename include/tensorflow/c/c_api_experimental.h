/* tfe: TensorFlow's experimental C API.
 *
 * Functions here may change between releases, as in TensorFlow. The header
 * is organised in sections, one per area; each area's functions are
 * declared as tfe implements them (docs/COVERAGE.md lists the rest). */
#ifndef TENSORFLOW_C_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_C_C_API_EXPERIMENTAL_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Filesystem plugins.
 *
 * TensorFlow 2.21 declares TF_RegisterFilesystemPlugin in
 * tensorflow/c/c_api.h; tfe declares it here until c_api.h carries it, so
 * include either header (c_api.h is included above). */

#ifndef TFE_REGISTER_FILESYSTEM_PLUGIN_DECLARED
#define TFE_REGISTER_FILESYSTEM_PLUGIN_DECLARED
/* Loads the filesystem plugin `plugin_filename` (a shared library that
 * exports TF_InitPlugin, see
 * tensorflow/c/experimental/filesystem/filesystem_interface.h) and
 * registers every URI scheme it declares, or none of them if anything is
 * wrong. On success `status` is TF_OK and the schemes work in every path
 * argument of env.h and tfe/filesystem.h. Errors, with messages naming the
 * plugin, the scheme, the table and the field: TF_NOT_FOUND (library
 * missing or not loadable, no TF_InitPlugin), TF_FAILED_PRECONDITION (ABI
 * mismatch, table too small, required operation missing, no schemes),
 * TF_INVALID_ARGUMENT (NULL or malformed scheme, NULL or empty
 * plugin_filename), TF_ALREADY_EXISTS (scheme taken), or whatever the
 * filesystem's own init reported. The library is never unloaded once its
 * TF_InitPlugin ran. */
TF_CAPI_EXPORT extern void TF_RegisterFilesystemPlugin(
    const char* plugin_filename, TF_Status* status);
#endif

/* ------------------------------------------------------------------------
 * PluggableDevice libraries and op queries. */

/* Loads a PluggableDevice plugin (see
 * tensorflow/c/experimental/stream_executor/stream_executor.h): opens the
 * library, calls its SE_InitPlugin and checks what it registered, then
 * calls TF_InitKernel (kernels.h), TF_InitGraph (grappler.h) and
 * TF_InitProfiler (pluggable_profiler.h) when the library exports them.
 * The platform's devices appear as
 * /job:localhost/replica:0/task:0/device:<type>:<n> in contexts created
 * afterwards. Returns a handle the caller releases with
 * TF_DeletePluggableDeviceLibraryHandle; TF_GetOpList works on it. On
 * failure returns NULL and nothing is registered (kernels registered by
 * TF_InitKernel before a later step failed stay registered, for a device
 * type that does not exist). Errors, with messages naming the library,
 * the struct and the field (docs/PLUGINS.md): TF_NOT_FOUND (library
 * missing or not loadable, no SE_InitPlugin), TF_FAILED_PRECONDITION
 * (struct sizes, versions, required fields, names), TF_ALREADY_EXISTS (the
 * platform or device type is taken), TF_INVALID_ARGUMENT (NULL or empty
 * name), or the status an init function reported, unchanged. The library
 * is never unloaded. */
TF_CAPI_EXPORT extern TF_Library* TF_LoadPluggableDeviceLibrary(
    const char* library_filename, TF_Status* status);

/* Releases the handle; the plugin stays loaded and its devices stay
 * registered. NULL is a harmless no-op. */
TF_CAPI_EXPORT extern void TF_DeletePluggableDeviceLibraryHandle(
    TF_Library* lib_handle);

/* 1 when op `op_type` is stateful, 0 when not; NOT_FOUND (and 0) for an
 * unknown op, INVALID_ARGUMENT for NULL. */
TF_CAPI_EXPORT extern int TF_OpIsStateful(const char* op_type,
                                          TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_C_API_EXPERIMENTAL_H_ */
