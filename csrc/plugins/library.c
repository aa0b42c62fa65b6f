/* TF_LoadLibrary and friends: loading shared libraries of ops/kernels. */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "plugins/dl.h"
#include "tensorflow/c/c_api.h"

struct TF_Library {
  void* handle;
  char* path;
  /* Serialized OpList of the ops this library registered. */
  TF_Buffer op_list;
};

TF_Library* TF_LoadLibrary(const char* library_filename, TF_Status* status) {
  TF_Library* lib;
  void* h;
  if (library_filename == NULL || library_filename[0] == '\0') {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_LoadLibrary: library_filename must be a non-empty "
                    "path");
    return NULL;
  }
  lib = (TF_Library*)tfe_calloc(1, sizeof(*lib));
  if (lib == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "TF_LoadLibrary: out of memory");
    return NULL;
  }
  lib->path = tfe_strdup(library_filename);
  if (lib->path == NULL) {
    tfe_free(lib);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "TF_LoadLibrary: out of memory");
    return NULL;
  }
  h = tfe_dl_open(library_filename, status);
  if (h == NULL) {
    tfe_free(lib->path);
    tfe_free(lib);
    return NULL;
  }
  lib->handle = h;
  /* No op registry yet: an empty OpList serializes to zero bytes. */
  lib->op_list.data = NULL;
  lib->op_list.length = 0;
  tfe_count_inc(TFE_OBJ_LIBRARY);
  tfe_status_ok(status);
  return lib;
}

TF_Buffer TF_GetOpList(TF_Library* lib_handle) {
  TF_Buffer empty = {NULL, 0, NULL};
  return lib_handle == NULL ? empty : lib_handle->op_list;
}

void TF_DeleteLibraryHandle(TF_Library* lib_handle) {
  if (lib_handle == NULL) return;
  /* The library stays mapped: ops and kernels it registered point into
   * its code for the rest of the process, as in TensorFlow. */
  tfe_free(lib_handle->path);
  tfe_free(lib_handle);
  tfe_count_dec(TFE_OBJ_LIBRARY);
}
