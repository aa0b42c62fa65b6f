/* TF_LoadPluggableDeviceLibrary: SE_InitPlugin, then TF_InitKernel,
 * TF_InitGraph and TF_InitProfiler when present, then publishing the
 * platform's devices. A library already loaded is not initialised again:
 * the call returns its handle (see below). */
#include <dlfcn.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "kernels/kernel.h"
#include "plugins/dl.h"
#include "plugins/framework_compat.h"
#include "plugins/library.h"
#include "plugins/se_loader.h"
#include "tensorflow/c/c_api_experimental.h"

/* dlsym into a function pointer without a pedantic cast warning. */
static void* sym(void* h, const char* name) { return dlsym(h, name); }

/* Whether the library opened as `dl` already has a published platform. */
static int already_loaded(void* dl) {
  int i, n = tfe_platform_count();
  for (i = 0; i < n; i++) {
    const tfe_platform* p = tfe_platform_at(i);
    if (p != NULL && p->dl == dl) return 1;
  }
  return 0;
}

TF_Library* TF_LoadPluggableDeviceLibrary(const char* library_filename,
                                          TF_Status* status) {
  void* h;
  void* entry;
  tfe_se_init_fn se_init;
  void (*kernel_init)(void) = NULL;
  tfe_graph_init_fn graph_init = NULL;
  tfe_profiler_init_fn profiler_init = NULL;
  tfe_platform* p;
  TF_Library* lib;
  int first_kernel;
  unsigned tag;
  tfe_op_collector ops;
  if (library_filename == NULL || library_filename[0] == '\0') {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_LoadPluggableDeviceLibrary: library_filename must be "
                    "a non-empty path");
    return NULL;
  }
  tfe_devices_ensure_builtins();
  /* Built-in kernels first, so none of them counts as the plugin's. */
  tfe_kernels_ensure_builtins();
  tfe_framework_compat_ensure();
  memset(&ops, 0, sizeof ops);
  tfe_library_load_lock();
  tfe_ops_collect_begin(&ops);
  h = tfe_dl_open(library_filename, status);
  if (h == NULL) goto fail_unlocked_early;
  if (already_loaded(h)) {
    /* TF would run SE_InitPlugin again and abort on the duplicate
     * platform; tfe returns the library's handle (the live one, with one
     * more reference, or a new one) and initialises nothing. dlopen's
     * extra reference is dropped: the library stays loaded anyway. */
    dlclose(h);
    tfe_ops_collect_end();
    lib = tfe_library_device_handle(h, library_filename, &ops, status);
    tfe_library_load_unlock();
    tfe_free(ops.defs);
    return lib;
  }
  entry = sym(h, "SE_InitPlugin");
  if (entry == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "device plugin '%s' does not export the entry point "
                    "SE_InitPlugin",
                    library_filename);
    goto fail_unlocked_early;
  }
  memcpy(&se_init, &entry, sizeof se_init);
  if ((entry = sym(h, "TF_InitKernel")) != NULL) {
    memcpy(&kernel_init, &entry, sizeof kernel_init);
  }
  if ((entry = sym(h, "TF_InitGraph")) != NULL) {
    memcpy(&graph_init, &entry, sizeof graph_init);
  }
  if ((entry = sym(h, "TF_InitProfiler")) != NULL) {
    memcpy(&profiler_init, &entry, sizeof profiler_init);
  }

  p = tfe_se_load(library_filename, se_init, status);
  if (p == NULL) goto fail_unlocked_early;
  p->dl = h;
  if (kernel_init != NULL) {
    first_kernel = tfe_kernel_count();
    tag = tfe_kernels_mark_begin();
    kernel_init();
    tfe_kernels_mark_end();
    p->has_init_kernel = 1;
    p->kernels_tag = tag;
    p->kernels_first = first_kernel;
    p->kernels_end = tfe_kernel_count();
  }
  if (graph_init != NULL && !tfe_graph_load(p, graph_init, status)) goto fail;
  if (profiler_init != NULL && !tfe_profiler_load(p, profiler_init, status)) {
    goto fail;
  }
  tfe_ops_collect_end();
  lib = tfe_library_device_handle(h, library_filename, &ops, status);
  if (lib == NULL) goto fail;
  if (!tfe_platform_publish(p, status)) {
    TF_DeleteLibraryHandle(lib);
    goto fail;
  }
  tfe_library_load_unlock();
  tfe_free(ops.defs);
  tfe_status_ok(status);
  return lib;
fail:
  tfe_ops_collect_end();
  /* Nothing the library registered stays: its kernels would name a
   * device type that does not exist, its ops would be unusable. */
  if (p->has_init_kernel) tfe_kernels_remove_marked(p->kernels_tag);
  tfe_library_rollback(&ops);
  tfe_platform_destroy(p);
  tfe_library_load_unlock();
  tfe_free(ops.defs);
  return NULL;
fail_unlocked_early:
  tfe_ops_collect_end();
  tfe_library_load_unlock();
  tfe_free(ops.defs);
  return NULL;
}

void TF_DeletePluggableDeviceLibraryHandle(TF_Library* lib_handle) {
  TF_DeleteLibraryHandle(lib_handle);
}
