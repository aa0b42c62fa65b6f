/* tfe: the kernel-side part of TensorFlow 2.21's NextPluggableDevice C API
 * (tensorflow/c/experimental/next_pluggable_device/c_api.h).
 *
 * TensorFlow declares these functions but does not export them; tfe
 * exports and implements the ones a kernel uses:
 *   - TF_GetDevice: the device the kernel runs on;
 *   - plugin resources: objects a plugin keeps per device under a
 *     (container, name) key, deleted with the plugin's delete function once,
 *     when the device's resources are cleared (the context that ran the
 *     kernel is deleted, or the plugin's devices go at process exit);
 *   - variable infos: locking and reading the resource variables of a
 *     kernel's DT_RESOURCE inputs (see kernels_experimental.h);
 *   - the coordination service: tfe runs one task, so there is no agent.
 * The PJRT entry points (a TFNPD plugin's client and buffers) are outside
 * tfe's scope: they report TF_UNIMPLEMENTED naming themselves. */
#ifndef TENSORFLOW_C_EXPERIMENTAL_NEXT_PLUGGABLE_DEVICE_C_API_H_
#define TENSORFLOW_C_EXPERIMENTAL_NEXT_PLUGGABLE_DEVICE_C_API_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/tf_buffer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The device a kernel runs on (opaque; owned by the runtime). */
typedef struct TF_Device TF_Device;

/* A locked view of one resource variable (see TF_CreateVariableInfo...). */
typedef struct TF_VariableInfo TF_VariableInfo;

/* PJRT types (XLA's pjrt_c_api.h), opaque here. */
typedef struct PJRT_Client PJRT_Client;
typedef struct PJRT_Buffer PJRT_Buffer;
typedef struct PJRT_NamedValue PJRT_NamedValue;

/* The device the kernel runs on; valid while the kernel's context lives.
 * NULL for a NULL context. */
TF_CAPI_EXPORT extern TF_Device* TF_GetDevice(TF_OpKernelContext* ctx);

/* ---- plugin resources ---- */

/* Stores plugin_resource under (container_name, plugin_resource_name) in
 * the resource manager of the kernel's device; the runtime then owns it
 * and calls delete_func(plugin_resource) exactly once when the resource
 * goes. ALREADY_EXISTS when that key is taken (the resource is then not
 * taken over: the caller keeps it); INVALID_ARGUMENT for NULL names. */
TF_CAPI_EXPORT extern void TF_CreatePluginResource(
    TF_OpKernelContext* ctx, const char* container_name,
    const char* plugin_resource_name, void* plugin_resource,
    void (*delete_func)(void*), TF_Status* status);

/* Returns in *result_plugin_resource the resource stored under the key, or
 * creates it with create_func(create_func_args) and stores it as
 * TF_CreatePluginResource does. The caller does not own the result. On
 * error *result_plugin_resource is NULL. */
TF_CAPI_EXPORT extern void TF_LookupOrCreatePluginResource(
    TF_OpKernelContext* ctx, const char* container_name,
    const char* plugin_resource_name, void** result_plugin_resource,
    void* (*create_func)(void*), void* create_func_args,
    void (*delete_func)(void*), TF_Status* status);

/* ---- variable infos ---- */

/* A view of the variable of DT_RESOURCE input `index`, not locked yet; the
 * caller frees it with TF_DeleteVariableInfo. NULL with INVALID_ARGUMENT
 * when the input is not a resource variable, OUT_OF_RANGE for a bad
 * index. */
TF_CAPI_EXPORT extern TF_VariableInfo* TF_CreateVariableInfoFromContext(
    TF_OpKernelContext* ctx, int index, TF_Status* status);

/* Locks the variables of vars[0..num_vars) in a fixed global order (so
 * that concurrent kernels cannot deadlock); each stays locked until its
 * info is deleted. Locking an info twice is FAILED_PRECONDITION. */
TF_CAPI_EXPORT extern void TF_LockVariableInfos(TF_VariableInfo** vars,
                                                int num_vars,
                                                TF_Status* status);

/* Gives the (locked) variable a fresh tensor of its dtype and current
 * shape in the memory of the kernel's device (contents unspecified), so
 * the kernel can write it without affecting readers of the old value.
 * FAILED_PRECONDITION when the info is not locked or the variable has no
 * value yet. */
TF_CAPI_EXPORT extern void TF_AllocateTempForVariableInfo(
    TF_OpKernelContext* ctx, TF_VariableInfo* var_info, TF_Status* status);

/* A tensor sharing the variable's current value (the caller deletes it),
 * or NULL with FAILED_PRECONDITION for an uninitialized variable. */
TF_CAPI_EXPORT extern TF_Tensor* TF_GetTensorFromVariableInfo(
    TF_VariableInfo* var_info, TF_Status* status);

/* Unlocks (when locked) and frees. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteVariableInfo(TF_VariableInfo* var_info);

/* ---- coordination service ---- */

/* Always NULL: a tfe process is a single task. */
TF_CAPI_EXPORT extern TF_CoordinationServiceAgent*
TF_GetCoordinationServiceAgent(TF_OpKernelContext* ctx);

/* False for NULL (the only agent tfe hands out). */
TF_CAPI_EXPORT extern bool TF_CoordinationServiceIsInitialized(
    TF_CoordinationServiceAgent* agent);

/* Key-value store of the coordination service: FAILED_PRECONDITION (there
 * is no service); GetKeyValue returns NULL. */
TF_CAPI_EXPORT extern void TF_CoordinationServiceInsertKeyValue(
    const char* key, int64_t key_size, const char* value, int64_t value_size,
    TF_CoordinationServiceAgent* agent, TF_Status* status);
TF_CAPI_EXPORT extern TF_Buffer* TF_CoordinationServiceGetKeyValue(
    const char* key, int64_t key_size, TF_CoordinationServiceAgent* agent,
    TF_Status* status);
TF_CAPI_EXPORT extern void TF_CoordinationServiceDeleteKeyValue(
    const char* key, int64_t key_size, TF_CoordinationServiceAgent* agent,
    TF_Status* status);

/* TensorFlow 2.21's other key-value reads (key given with its length, as in
 * TF 2.21). tfe has no coordination service: FAILED_PRECONDITION and NULL,
 * like TF_CoordinationServiceGetKeyValue. Implemented in
 * csrc/kernels/capi_next_pluggable.c. */
TF_CAPI_EXPORT extern TF_Buffer* TF_CoordinationServiceGetKeyValueWithTimeout(
    const char* key, int64_t key_size, int64_t timeout_seconds,
    TF_CoordinationServiceAgent* agent, TF_Status* status);
TF_CAPI_EXPORT extern TF_Buffer* TF_CoordinationServiceTryGetKeyValue(
    const char* key, int64_t key_size, TF_CoordinationServiceAgent* agent,
    TF_Status* status);

/* ---- PJRT (TF_UNIMPLEMENTED in tfe) ---- */

TF_CAPI_EXPORT extern void TF_CreateAndSetPjRtCApiClient(
    const char* device_type, TF_Status* status, PJRT_NamedValue* create_options,
    int num_options);

/* Forgets the PJRT client of `device_type`: TF_UNIMPLEMENTED in tfe. */
TF_CAPI_EXPORT extern void TF_ResetPjRtCClient(const char* device_type,
                                               TF_Status* status);

TF_CAPI_EXPORT extern PJRT_Client* TF_GetPjRtCClient(const char* device_type,
                                                     TF_Status* status);

TF_CAPI_EXPORT extern PJRT_Buffer* TF_GetPjRtCBuffer(TF_Tensor* c_tensor,
                                                     TF_Status* status);

TF_CAPI_EXPORT extern void TF_CreatePjRtBuffer(TF_Tensor* c_tensor,
                                               PJRT_Buffer* c_buffer,
                                               const char* device_type,
                                               TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_EXPERIMENTAL_NEXT_PLUGGABLE_DEVICE_C_API_H_ */
