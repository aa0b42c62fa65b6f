/* The kernel-side NextPluggableDevice C API
 * (experimental/next_pluggable_device/c_api.h): the kernel's device, plugin
 * resources, variable infos, the coordination service, PJRT stubs; and
 * TF_GetRendezvous (kernels.h; the rendezvous is kernels/rendezvous.c). */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "core/unimplemented.h"
#include "kernels/capi_kernel.h"
#include "kernels/rendezvous.h"
#include "kernels/resource.h"
#include "tensorflow/c/experimental/next_pluggable_device/c_api.h"

TF_Device* TF_GetDevice(TF_OpKernelContext* ctx) {
  /* The device's full name identifies it; it lives as long as the context
   * the kernel runs in. */
  if (ctx == NULL || ctx->k == NULL || ctx->k->device_name == NULL) {
    return NULL;
  }
  return (TF_Device*)(void*)ctx->k->device_name;
}

/* ------------------------------------------------------------------------
 * The rendezvous (kernels.h). */

TF_RendezvousThunk TF_GetRendezvous(TF_OpKernelContext* ctx) {
  TF_RendezvousThunk none;
  if (ctx == NULL || ctx->k == NULL) {
    memset(&none, 0, sizeof none);
    return none;
  }
  return tfe_rendezvous_thunk(tfe_capi_ctx_id(ctx));
}

/* ------------------------------------------------------------------------
 * Plugin resources. */

static const char* device_of(const TF_OpKernelContext* ctx) {
  return ctx->k->device_name != NULL ? ctx->k->device_name : "";
}

static int check_names(TF_OpKernelContext* ctx, const char* container,
                       const char* name, const char* fn, TF_Status* s) {
  if (ctx == NULL || ctx->k == NULL || container == NULL || name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: the context, container and name must be non-NULL",
                    fn);
    return 0;
  }
  return 1;
}

void TF_CreatePluginResource(TF_OpKernelContext* ctx,
                             const char* container_name,
                             const char* plugin_resource_name,
                             void* plugin_resource, void (*delete_func)(void*),
                             TF_Status* status) {
  tfe_resource* r;
  if (!check_names(ctx, container_name, plugin_resource_name,
                   "TF_CreatePluginResource", status)) {
    return;
  }
  r = tfe_plugin_resource_new(tfe_capi_ctx_id(ctx), device_of(ctx),
                              container_name, plugin_resource_name,
                              plugin_resource, delete_func);
  if (r == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_CreatePluginResource: out of memory");
    return;
  }
  if (!tfe_resources_insert(r, status)) {
    /* Not taken over: the caller keeps its object. */
    r->del = NULL;
  }
  tfe_resource_unref(r);
}

void TF_LookupOrCreatePluginResource(
    TF_OpKernelContext* ctx, const char* container_name,
    const char* plugin_resource_name, void** result_plugin_resource,
    void* (*create_func)(void*), void* create_func_args,
    void (*delete_func)(void*), TF_Status* status) {
  tfe_resource* r;
  int attempt;
  if (result_plugin_resource != NULL) *result_plugin_resource = NULL;
  if (!check_names(ctx, container_name, plugin_resource_name,
                   "TF_LookupOrCreatePluginResource", status)) {
    return;
  }
  if (result_plugin_resource == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_LookupOrCreatePluginResource: result pointer is NULL");
    return;
  }
  for (attempt = 0; attempt < 2; attempt++) {
    void* obj;
    r = tfe_resources_lookup(tfe_capi_ctx_id(ctx), device_of(ctx),
                             container_name, plugin_resource_name);
    if (r != NULL) {
      if (r->kind != TFE_RESOURCE_PLUGIN) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "resource %s/%s is not a plugin resource",
                        container_name, plugin_resource_name);
      } else {
        *result_plugin_resource = r->object;
        tfe_status_ok(status);
      }
      tfe_resource_unref(r);
      return;
    }
    if (create_func == NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TF_LookupOrCreatePluginResource: no resource %s/%s "
                      "and no create_func",
                      container_name, plugin_resource_name);
      return;
    }
    obj = create_func(create_func_args);
    r = tfe_plugin_resource_new(tfe_capi_ctx_id(ctx), device_of(ctx),
                                container_name, plugin_resource_name, obj,
                                delete_func);
    if (r == NULL) {
      if (delete_func != NULL) delete_func(obj);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return;
    }
    if (tfe_resources_insert(r, status)) {
      *result_plugin_resource = obj;
      tfe_resource_unref(r);
      return;
    }
    /* Another kernel created it meanwhile: drop ours and look again. */
    tfe_resource_unref(r);
    if (TF_GetCode(status) != TF_ALREADY_EXISTS) return;
  }
}

/* ------------------------------------------------------------------------
 * Variable infos. */

struct TF_VariableInfo {
  tfe_resource* var;
  int locked;
};

TF_VariableInfo* TF_CreateVariableInfoFromContext(TF_OpKernelContext* ctx,
                                                  int index,
                                                  TF_Status* status) {
  tfe_resource* r = tfe_capi_input_resource(ctx, index, status);
  TF_VariableInfo* info;
  if (r == NULL) return NULL;
  if (r->kind != TFE_RESOURCE_VARIABLE) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "input %d refers to %s/%s, which is not a variable", index,
                    r->container, r->name);
    return NULL;
  }
  info = (TF_VariableInfo*)tfe_calloc(1, sizeof(*info));
  if (info == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfe_resource_ref(r);
  info->var = r;
  tfe_status_ok(status);
  return info;
}

static int info_order(const void* a, const void* b) {
  const TF_VariableInfo* x = *(TF_VariableInfo* const*)a;
  const TF_VariableInfo* y = *(TF_VariableInfo* const*)b;
  return x->var->order < y->var->order ? -1 : x->var->order > y->var->order;
}

void TF_LockVariableInfos(TF_VariableInfo** vars, int num_vars,
                          TF_Status* status) {
  TF_VariableInfo** sorted;
  int i;
  if (num_vars < 0 || (num_vars > 0 && vars == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_LockVariableInfos: invalid array");
    return;
  }
  for (i = 0; i < num_vars; i++) {
    if (vars[i] == NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TF_LockVariableInfos: entry %d is NULL", i);
      return;
    }
    if (vars[i]->locked) {
      tfe_status_setf(status, TF_FAILED_PRECONDITION,
                      "TF_LockVariableInfos: variable %s/%s is already locked",
                      vars[i]->var->container, vars[i]->var->name);
      return;
    }
  }
  sorted = (TF_VariableInfo**)tfe_malloc(sizeof(*sorted) *
                                         (size_t)(num_vars > 0 ? num_vars : 1));
  if (sorted == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  if (num_vars > 0) memcpy(sorted, vars, sizeof(*sorted) * (size_t)num_vars);
  qsort(sorted, (size_t)num_vars, sizeof(*sorted), info_order);
  for (i = 0; i < num_vars; i++) {
    /* Two infos of one variable: lock it once (the first info owns it). */
    if (i > 0 && sorted[i]->var == sorted[i - 1]->var) continue;
    pthread_mutex_lock(&sorted[i]->var->mu);
    sorted[i]->locked = 1;
  }
  tfe_free(sorted);
  tfe_status_ok(status);
}

void TF_AllocateTempForVariableInfo(TF_OpKernelContext* ctx,
                                    TF_VariableInfo* var_info,
                                    TF_Status* status) {
  tfe_resource* r;
  TF_Tensor* t;
  if (ctx == NULL || var_info == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_AllocateTempForVariableInfo: NULL argument");
    return;
  }
  r = var_info->var;
  if (!var_info->locked) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "TF_AllocateTempForVariableInfo: variable %s/%s is not "
                    "locked (call TF_LockVariableInfos first)",
                    r->container, r->name);
    return;
  }
  if (r->value == NULL) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "TF_AllocateTempForVariableInfo: variable %s/%s has no "
                    "value yet",
                    r->container, r->name);
    return;
  }
  t = tfe_capi_alloc(ctx, 0, r->value->dtype, r->value->dims,
                     r->value->num_dims, status);
  if (t == NULL) return;
  TF_DeleteTensor(r->value);
  r->value = t;
  tfe_status_ok(status);
}

TF_Tensor* TF_GetTensorFromVariableInfo(TF_VariableInfo* var_info,
                                        TF_Status* status) {
  tfe_resource* r;
  TF_Tensor* t;
  if (var_info == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GetTensorFromVariableInfo: NULL info");
    return NULL;
  }
  r = var_info->var;
  if (!var_info->locked) pthread_mutex_lock(&r->mu);
  t = r->value != NULL ? tfe_capi_share(r->value) : NULL;
  if (!var_info->locked) pthread_mutex_unlock(&r->mu);
  if (t == NULL) {
    if (r->value == NULL) {
      tfe_status_setf(status, TF_FAILED_PRECONDITION,
                      "variable %s/%s is uninitialized", r->container,
                      r->name);
    } else {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    }
    return NULL;
  }
  tfe_status_ok(status);
  return t;
}

void TF_DeleteVariableInfo(TF_VariableInfo* var_info) {
  if (var_info == NULL) return;
  if (var_info->locked) pthread_mutex_unlock(&var_info->var->mu);
  tfe_resource_unref(var_info->var);
  tfe_free(var_info);
}

/* ------------------------------------------------------------------------
 * Coordination service: a tfe process is one task. */

TF_CoordinationServiceAgent* TF_GetCoordinationServiceAgent(
    TF_OpKernelContext* ctx) {
  (void)ctx;
  return NULL;
}

bool TF_CoordinationServiceIsInitialized(TF_CoordinationServiceAgent* agent) {
  (void)agent;
  return false;
}

static void no_service(const char* fn, TF_Status* status) {
  tfe_status_setf(status, TF_FAILED_PRECONDITION,
                  "%s: there is no coordination service (tfe runs a single "
                  "task)",
                  fn);
}

void TF_CoordinationServiceInsertKeyValue(const char* key, int64_t key_size,
                                          const char* value,
                                          int64_t value_size,
                                          TF_CoordinationServiceAgent* agent,
                                          TF_Status* status) {
  (void)key;
  (void)key_size;
  (void)value;
  (void)value_size;
  (void)agent;
  no_service("TF_CoordinationServiceInsertKeyValue", status);
}

TF_Buffer* TF_CoordinationServiceGetKeyValue(const char* key,
                                             int64_t key_size,
                                             TF_CoordinationServiceAgent* agent,
                                             TF_Status* status) {
  (void)key;
  (void)key_size;
  (void)agent;
  no_service("TF_CoordinationServiceGetKeyValue", status);
  return NULL;
}

void TF_CoordinationServiceDeleteKeyValue(const char* key, int64_t key_size,
                                          TF_CoordinationServiceAgent* agent,
                                          TF_Status* status) {
  (void)key;
  (void)key_size;
  (void)agent;
  no_service("TF_CoordinationServiceDeleteKeyValue", status);
}

TF_Buffer* TF_CoordinationServiceGetKeyValueWithTimeout(
    const char* key, int64_t key_size, int64_t timeout_seconds,
    TF_CoordinationServiceAgent* agent, TF_Status* status) {
  (void)key;
  (void)key_size;
  (void)timeout_seconds;
  (void)agent;
  no_service("TF_CoordinationServiceGetKeyValueWithTimeout", status);
  return NULL;
}

TF_Buffer* TF_CoordinationServiceTryGetKeyValue(
    const char* key, int64_t key_size, TF_CoordinationServiceAgent* agent,
    TF_Status* status) {
  (void)key;
  (void)key_size;
  (void)agent;
  no_service("TF_CoordinationServiceTryGetKeyValue", status);
  return NULL;
}

/* ------------------------------------------------------------------------
 * PJRT: outside tfe's scope. */

void TF_CreateAndSetPjRtCApiClient(const char* device_type, TF_Status* status,
                                   PJRT_NamedValue* create_options,
                                   int num_options) {
  (void)device_type;
  (void)create_options;
  (void)num_options;
  TFE_UNIMPLEMENTED(status, "TF_CreateAndSetPjRtCApiClient");
}

void TF_ResetPjRtCClient(const char* device_type, TF_Status* status) {
  (void)device_type;
  TFE_UNIMPLEMENTED(status, "TF_ResetPjRtCClient");
}

PJRT_Client* TF_GetPjRtCClient(const char* device_type, TF_Status* status) {
  (void)device_type;
  TFE_UNIMPLEMENTED(status, "TF_GetPjRtCClient");
  return NULL;
}

PJRT_Buffer* TF_GetPjRtCBuffer(TF_Tensor* c_tensor, TF_Status* status) {
  (void)c_tensor;
  TFE_UNIMPLEMENTED(status, "TF_GetPjRtCBuffer");
  return NULL;
}

void TF_CreatePjRtBuffer(TF_Tensor* c_tensor, PJRT_Buffer* c_buffer,
                         const char* device_type, TF_Status* status) {
  (void)c_tensor;
  (void)c_buffer;
  (void)device_type;
  TFE_UNIMPLEMENTED(status, "TF_CreatePjRtBuffer");
}
