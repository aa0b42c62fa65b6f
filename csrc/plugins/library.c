/* TF_LoadLibrary and friends: loading shared libraries of ops and kernels,
 * and the registry-wide listings of c_api.h (TF_GetAllOpList,
 * TF_GetRegisteredKernelsForOp, TF_GetAllRegisteredKernels) and
 * c_api_experimental.h (TF_OpIsStateful). */
#include "plugins/library.h"

#include <pthread.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "kernels/kernel.h"
#include "ops/proto_encode.h"
#include "plugins/dl.h"
#include "plugins/framework_compat.h"
#include "tensorflow/c/c_api_experimental.h"

static pthread_mutex_t g_load_mu = PTHREAD_MUTEX_INITIALIZER;

void tfe_library_load_lock(void) { pthread_mutex_lock(&g_load_mu); }
void tfe_library_load_unlock(void) { pthread_mutex_unlock(&g_load_mu); }

/* Guards the reference counts of handles and lib_ops.device_handle (the
 * Delete functions may run while the load lock is held). */
static pthread_mutex_t g_ref_mu = PTHREAD_MUTEX_INITIALIZER;

/* What each opened library registered, by dlopen handle (guarded by
 * g_load_mu; kept for the life of the process like the libraries). */
typedef struct tfe_lib_ops {
  void* dl;
  const tfe_op_def** defs;
  int n;
  /* The load failed (ops rolled back): a later load of the same library
   * reports this again, since its initialisers do not run twice. */
  TF_Code failed;
  char* failed_msg;
  /* Live handle TF_LoadPluggableDeviceLibrary returned (g_ref_mu). */
  TF_Library* device_handle;
  struct tfe_lib_ops* next;
} lib_ops;

static lib_ops* g_lib_ops;

static lib_ops* find_lib_ops(void* dl) {
  lib_ops* l;
  for (l = g_lib_ops; l != NULL; l = l->next) {
    if (l->dl == dl) return l;
  }
  return NULL;
}

static void free_op_list(void* data, size_t length) {
  (void)length;
  tfe_free(data);
}

TF_Library* tfe_library_handle_new(void* dl, const char* path,
                                   const tfe_op_collector* ops,
                                   TF_Status* status) {
  TF_Library* lib;
  lib_ops* known = find_lib_ops(dl);
  tfe_pbw w = {0};
  if (ops->oom) goto oom;
  if (known == NULL) {
    known = (lib_ops*)tfe_calloc(1, sizeof(*known));
    if (known == NULL) goto oom;
    known->dl = dl;
    if (ops->n > 0) {
      known->defs = (const tfe_op_def**)tfe_malloc(sizeof(tfe_op_def*) *
                                                   (size_t)ops->n);
      if (known->defs == NULL) {
        tfe_free(known);
        goto oom;
      }
      memcpy(known->defs, ops->defs, sizeof(tfe_op_def*) * (size_t)ops->n);
      known->n = ops->n;
    }
    known->next = g_lib_ops;
    g_lib_ops = known;
  }
  lib = (TF_Library*)tfe_calloc(1, sizeof(*lib));
  if (lib == NULL) goto oom;
  lib->handle = dl;
  lib->refs = 1;
  lib->known = known;
  lib->path = tfe_strdup(path);
  if (lib->path == NULL) {
    tfe_free(lib);
    goto oom;
  }
  tfe_pb_op_list(&w, known->defs, known->n);
  if (w.oom) {
    tfe_pbw_free(&w);
    tfe_free(lib->path);
    tfe_free(lib);
    goto oom;
  }
  lib->op_list.data = w.data;
  lib->op_list.length = w.len;
  lib->op_list.data_deallocator = w.data != NULL ? free_op_list : NULL;
  tfe_count_inc(TFE_OBJ_LIBRARY);
  tfe_status_ok(status);
  return lib;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "%s: out of memory",
                  "TF_LoadLibrary");
  return NULL;
}

TF_Library* tfe_library_device_handle(void* dl, const char* path,
                                      const tfe_op_collector* ops,
                                      TF_Status* status) {
  lib_ops* known = find_lib_ops(dl);
  TF_Library* lib = NULL;
  if (known != NULL) {
    pthread_mutex_lock(&g_ref_mu);
    lib = known->device_handle;
    if (lib != NULL) lib->refs++;
    pthread_mutex_unlock(&g_ref_mu);
    if (lib != NULL) {
      tfe_status_ok(status);
      return lib;
    }
  }
  lib = tfe_library_handle_new(dl, path, ops, status);
  if (lib != NULL) {
    pthread_mutex_lock(&g_ref_mu);
    lib->known->device_handle = lib;
    pthread_mutex_unlock(&g_ref_mu);
  }
  return lib;
}

void tfe_library_rollback(const tfe_op_collector* ops) {
  if (ops != NULL && ops->n > 0) tfe_op_unregister(ops->defs, ops->n);
}

/* Remembers that the library opened as `dl` failed to load with `s`. */
static void record_failure(void* dl, const TF_Status* s) {
  lib_ops* known = find_lib_ops(dl);
  if (known == NULL) {
    known = (lib_ops*)tfe_calloc(1, sizeof(*known));
    if (known == NULL) return;
    known->dl = dl;
    known->next = g_lib_ops;
    g_lib_ops = known;
  }
  known->failed = TF_GetCode(s);
  tfe_free(known->failed_msg);
  known->failed_msg = tfe_strdup(TF_Message(s));
}

TF_Library* TF_LoadLibrary(const char* library_filename, TF_Status* status) {
  TF_Library* lib;
  tfe_op_collector ops;
  lib_ops* known;
  unsigned tag;
  void* h;
  if (library_filename == NULL || library_filename[0] == '\0') {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_LoadLibrary: library_filename must be a non-empty "
                    "path");
    return NULL;
  }
  /* Built-ins first, so that none of them counts as the library's (a
   * failed load removes what the library registered). */
  tfe_ops_ensure_builtins();
  tfe_kernels_ensure_builtins();
  tfe_framework_compat_ensure();
  memset(&ops, 0, sizeof ops);
  tfe_library_load_lock();
  /* Ops the library's initialisers define are its ops; kernels they
   * register carry the load's tag. */
  tfe_ops_collect_begin(&ops);
  tag = tfe_kernels_mark_begin();
  /* The library's initialisers run once per process (dlopen) and cannot
   * be retried: what they allocate is exempt from fault injection. */
  tfe_alloc_benign_begin();
  h = tfe_dl_open(library_filename, status);
  tfe_alloc_benign_end();
  tfe_kernels_mark_end();
  tfe_ops_collect_end();
  if (h == NULL) {
    tfe_library_load_unlock();
    tfe_free(ops.defs);
    return NULL;
  }
  if (ops.error != TF_OK) {
    /* As in TF, an op the library could not register fails the load; tfe
     * also takes back what the library registered before that. The
     * library stays mapped (its initialisers may have left state). */
    tfe_library_rollback(&ops);
    tfe_kernels_remove_marked(tag);
    tfe_status_setf(status, ops.error, "%s", ops.error_msg);
    record_failure(h, status);
    tfe_library_load_unlock();
    tfe_free(ops.defs);
    return NULL;
  }
  known = find_lib_ops(h);
  if (known != NULL && known->failed != TF_OK) {
    /* Loaded before and failed then: its initialisers did not run now. */
    tfe_status_setf(status, known->failed, "%s",
                    known->failed_msg ? known->failed_msg : "");
    tfe_library_load_unlock();
    tfe_free(ops.defs);
    return NULL;
  }
  lib = tfe_library_handle_new(h, library_filename, &ops, status);
  tfe_library_load_unlock();
  tfe_free(ops.defs);
  return lib;
}

TF_Buffer TF_GetOpList(TF_Library* lib_handle) {
  TF_Buffer empty = {NULL, 0, NULL};
  TF_Buffer view;
  if (lib_handle == NULL) return empty;
  /* The caller gets a view; the bytes stay the handle's. */
  view.data = lib_handle->op_list.data;
  view.length = lib_handle->op_list.length;
  view.data_deallocator = NULL;
  return view;
}

void TF_DeleteLibraryHandle(TF_Library* lib_handle) {
  int last;
  if (lib_handle == NULL) return;
  pthread_mutex_lock(&g_ref_mu);
  last = --lib_handle->refs <= 0;
  if (last && lib_handle->known != NULL &&
      lib_handle->known->device_handle == lib_handle) {
    lib_handle->known->device_handle = NULL;
  }
  pthread_mutex_unlock(&g_ref_mu);
  if (!last) return;
  /* The library stays mapped: ops and kernels it registered point into
   * its code for the rest of the process, as in TensorFlow. */
  if (lib_handle->op_list.data_deallocator != NULL) {
    lib_handle->op_list.data_deallocator((void*)lib_handle->op_list.data,
                                         lib_handle->op_list.length);
  }
  tfe_free(lib_handle->path);
  tfe_free(lib_handle);
  tfe_count_dec(TFE_OBJ_LIBRARY);
}

/* ------------------------------------------------------------------------
 * Registry listings. */

TF_Buffer* TF_GetAllOpList(void) {
  tfe_pbw w = {0};
  int i, n;
  tfe_ops_ensure_builtins();
  n = tfe_op_count();
  for (i = 0; i < n; i++) {
    const tfe_op_def* d = tfe_op_at(i);
    if (d != NULL) tfe_pb_op_list(&w, &d, 1);
  }
  return tfe_pb_to_buffer(&w);
}

static TF_Buffer* kernel_list(const char* op, TF_Status* status) {
  tfe_pbw w = {0};
  TF_Buffer* b;
  int i, n;
  tfe_kernels_ensure_builtins();
  n = tfe_kernel_count();
  for (i = 0; i < n; i++) {
    const tfe_kernel_reg* r = tfe_kernel_at(i);
    tfe_pbw sub = {0};
    if (r == NULL || (op != NULL && strcmp(r->op_name, op) != 0)) continue;
    tfe_pb_kernel_def(&sub, r);
    tfe_pbw_sub(&w, 1, &sub);
  }
  b = tfe_pb_to_buffer(&w);
  if (b == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "listing kernels: out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return b;
}

TF_Buffer* TF_GetRegisteredKernelsForOp(const char* name, TF_Status* status) {
  if (name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GetRegisteredKernelsForOp: name is NULL");
    return NULL;
  }
  return kernel_list(name, status);
}

TF_Buffer* TF_GetAllRegisteredKernels(TF_Status* status) {
  return kernel_list(NULL, status);
}

int TF_OpIsStateful(const char* op_type, TF_Status* status) {
  const tfe_op_def* d;
  if (op_type == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_OpIsStateful: op_type is NULL");
    return 0;
  }
  d = tfe_op_lookup(op_type);
  if (d == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Op type not registered '%s' in binary running on this "
                    "machine.",
                    op_type);
    return 0;
  }
  tfe_status_ok(status);
  return d->is_stateful ? 1 : 0;
}
