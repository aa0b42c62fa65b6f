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

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_C_API_EXPERIMENTAL_H_ */
