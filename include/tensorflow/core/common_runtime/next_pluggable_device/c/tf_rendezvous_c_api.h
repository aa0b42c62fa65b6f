/* tfe: the rendezvous structs of TensorFlow 2.21's NextPluggableDevice C
 * API (the thunk TF_GetRendezvous in kernels.h returns), with TensorFlow's
 * names and layouts.
 *
 * A rendezvous is the table through which one kernel hands a tensor to
 * another under a string key; TF_GetRendezvous (kernels.h) gives the one
 * of the kernel's context and says how it behaves. */
#ifndef TENSORFLOW_CORE_COMMON_RUNTIME_NEXT_PLUGGABLE_DEVICE_C_TF_RENDEZVOUS_C_API_H_
#define TENSORFLOW_CORE_COMMON_RUNTIME_NEXT_PLUGGABLE_DEVICE_C_TF_RENDEZVOUS_C_API_H_

#ifndef __cplusplus
#include <stdbool.h>
#endif
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The device context of a transfer (opaque). */
typedef struct TF_DeviceContext TF_DeviceContext;

/* Allocator attributes: a bit set and a scope id. */
typedef struct TFDevice_AllocatorAttributes {
  uint32_t value;
  int32_t scope_id;
} TFDevice_AllocatorAttributes;

#ifndef TFE_CANCELLATION_MANAGER_TYPEDEF_
#define TFE_CANCELLATION_MANAGER_TYPEDEF_
typedef struct TFE_CancellationManager TFE_CancellationManager;
#endif

/* What travels with a send or a receive besides the tensor. */
typedef struct TF_RendezvousArgsStruct {
  TF_DeviceContext* device_context;
  TFDevice_AllocatorAttributes alloc_attrs;
  TFE_CancellationManager* cancellation_manager;
} TF_RendezvousArgsStruct;

/* The key of a transfer: full_key_size bytes at full_key. */
typedef struct TF_RendezvousParsedKey {
  char* full_key;
  uint32_t full_key_size;
} TF_RendezvousParsedKey;

/* Arguments of a send; the callee sets `status`. */
typedef struct TF_RendezvousSend_Params {
  const TF_RendezvousParsedKey* key;
  const TF_RendezvousArgsStruct* args;
  TF_Tensor* tensor;
  bool is_dead;
  TF_Status* status;
} TF_RendezvousSend_Params;

typedef void (*TF_RendezvousSend_Function)(void*, TF_RendezvousSend_Params*);

/* What a receive's completion callback gets. */
typedef struct TF_RendezvousDoneCallback_Params {
  void* context;
  const TF_Status* status;
  const TF_Tensor* tensor;
  bool is_dead;
} TF_RendezvousDoneCallback_Params;

typedef void (*TF_RendezvousDoneCallback_Function)(
    void*, TF_RendezvousDoneCallback_Params*);

/* A completion callback and the context it is called with. */
typedef struct TF_RendezvousDoneCallbackImpl {
  void* context;
  TF_RendezvousDoneCallback_Function callback;
} TF_RendezvousDoneCallbackImpl;

/* Arguments of an asynchronous receive. */
typedef struct TF_RendezvousAsyncRecv_Params {
  void* context;
  const TF_RendezvousParsedKey* key;
  const TF_RendezvousArgsStruct* args;
  TF_RendezvousDoneCallbackImpl on_done;
} TF_RendezvousAsyncRecv_Params;

typedef void (*TF_RendezvousAsyncRecv_Function)(void*,
                                                TF_RendezvousAsyncRecv_Params*);

typedef void (*TF_RendezvousStartAbort_Function)(void* context,
                                                 const TF_Status*);

/* A rendezvous and its three operations, each called with `rendezvous` as
 * its first argument. */
typedef struct TF_RendezvousThunk {
  void* rendezvous;
  TF_RendezvousSend_Function send_func;
  TF_RendezvousAsyncRecv_Function async_recv_func;
  TF_RendezvousStartAbort_Function start_abort_func;
} TF_RendezvousThunk;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_CORE_COMMON_RUNTIME_NEXT_PLUGGABLE_DEVICE_C_TF_RENDEZVOUS_C_API_H_ */
