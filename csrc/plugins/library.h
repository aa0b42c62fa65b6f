/* TF_Library handles (TF_LoadLibrary, TF_LoadPluggableDeviceLibrary) and
 * the bookkeeping of which ops a library registered. */
#ifndef TFE_PLUGINS_LIBRARY_H_
#define TFE_PLUGINS_LIBRARY_H_

#include "ops/capi_ops.h"
#include "ops/op_registry.h"
#include "tensorflow/c/c_api.h"

struct TF_Library {
  void* handle;
  char* path;
  /* Serialized OpList of the ops this library registered (owned). */
  TF_Buffer op_list;
  /* Holders of this handle: TF_LoadPluggableDeviceLibrary of a library
   * already loaded returns the live handle again; the Delete functions
   * drop one reference and free the handle with the last. */
  int refs;
  struct tfe_lib_ops* known; /* per-library record (library.c) */
};

/* Serialises library loading (ops registered while a library loads are
 * that library's). */
void tfe_library_load_lock(void);
void tfe_library_load_unlock(void);

/* Records that the library opened as `dl` registered the ops in *ops
 * (kept per dl handle, so that loading the same file again reports the
 * same ops), and builds a new handle for it with their OpList. NULL with
 * RESOURCE_EXHAUSTED on OOM. Call with the load lock held. */
TF_Library* tfe_library_handle_new(void* dl, const char* path,
                                   const tfe_op_collector* ops,
                                   TF_Status* status);

/* The handle of the device plugin opened as `dl`: the live one (with one
 * more reference) when TF_LoadPluggableDeviceLibrary returned a handle for
 * it that is not released yet, else a new one (as tfe_library_handle_new)
 * that later calls return. Call with the load lock held. */
TF_Library* tfe_library_device_handle(void* dl, const char* path,
                                      const tfe_op_collector* ops,
                                      TF_Status* status);

/* Undoes what a library registered while it failed to load: the ops in
 * *ops and the kernels registered on this thread since
 * tfe_kernels_mark_begin (kernels/kernel.h). Call with the load lock
 * held. */
void tfe_library_rollback(const tfe_op_collector* ops);

#endif /* TFE_PLUGINS_LIBRARY_H_ */
