/* tfe: the kernel C API (TensorFlow 2.21's tensorflow/c/kernels.h).
 *
 * A library registers kernels, implementations of an op for one device
 * type, with a kernel builder:
 *
 *   TF_KernelBuilder* b = TF_NewKernelBuilder("MyOp", "CPU", create,
 *                                             compute, destroy);
 *   TF_KernelBuilder_TypeConstraint(b, "T", TF_FLOAT, status);
 *   TF_RegisterKernelBuilder("MyOpKernel", b, status);
 *
 * tfe keeps these kernels in the same registry as its built-in kernels and
 * picks one per (op, device type, attrs) by type constraints and priority.
 * Per kernel instance (one per op, device and attribute combination) it
 * calls create_func once with a TF_OpKernelConstruction, then compute_func
 * once per execution with a TF_OpKernelContext, and delete_func when the
 * instance goes (the context is deleted or its caches cleared).
 *
 * Ownership in short: the runtime owns every TF_OpKernelConstruction and
 * TF_OpKernelContext and they are valid only during the call that received
 * them. Every TF_Tensor* these functions return belongs to the caller, who
 * deletes it with TF_DeleteTensor (the data stays alive as long as the
 * runtime needs it). TF_StringView results point into runtime memory that
 * lives as long as the kernel instance.
 *
 * Tensors on a PluggableDevice: TF_TensorData of an input or output that is
 * in device memory returns the device pointer (SP_DeviceMemoryBase.opaque
 * of the block), which only the plugin may use. */
#ifndef TENSORFLOW_C_KERNELS_H_
#define TENSORFLOW_C_KERNELS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/core/common_runtime/next_pluggable_device/c/tf_rendezvous_c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The same borrowed string as c_api.h's (either header may come first). */
#ifndef TFE_TF_STRING_VIEW_DEFINED
#define TFE_TF_STRING_VIEW_DEFINED
typedef struct TF_StringView {
  const char* data;
  size_t len;
} TF_StringView;
#endif

typedef struct TF_KernelBuilder TF_KernelBuilder;
typedef struct TF_OpKernelConstruction TF_OpKernelConstruction;
typedef struct TF_OpKernelContext TF_OpKernelContext;
typedef struct TF_AsyncOpKernelDoneCallback TF_AsyncOpKernelDoneCallback;

/* An asynchronous kernel calls this exactly once, when its work is done
 * (from any thread). It releases `done`. NULL is a harmless no-op. */
TF_CAPI_EXPORT extern void TF_RunAsyncOpKernelDoneCallback(
    TF_AsyncOpKernelDoneCallback* done);

/* The entry point a kernel plugin may define (the runtime does not). When
 * a PluggableDevice library exports it, TF_LoadPluggableDeviceLibrary calls
 * it once, after SE_InitPlugin, to register the library's kernels. */
void TF_InitKernel(void);

/* ---- kernel builders ---- */

/* New builder for a synchronous kernel of op `op_name` on device type
 * `device_name` ("CPU", "GPU", a plugin's type). create_func and
 * delete_func may be NULL; compute_func is required. Returns NULL when an
 * argument is NULL (no status here). Pass the builder to
 * TF_RegisterKernelBuilder, which takes it, or delete it with
 * TF_DeleteKernelBuilder. */
TF_CAPI_EXPORT extern TF_KernelBuilder* TF_NewKernelBuilder(
    const char* op_name, const char* device_name,
    void* (*create_func)(TF_OpKernelConstruction*),
    void (*compute_func)(void*, TF_OpKernelContext*),
    void (*delete_func)(void*));

/* Same for an asynchronous kernel: compute_async_func must eventually call
 * TF_RunAsyncOpKernelDoneCallback(done). tfe's eager execution waits for
 * that call before the op returns. */
TF_CAPI_EXPORT extern TF_KernelBuilder* TF_NewAsyncKernelBuilder(
    const char* op_name, const char* device_name,
    void* (*create_func)(TF_OpKernelConstruction*),
    void (*compute_async_func)(void*, TF_OpKernelContext*,
                               TF_AsyncOpKernelDoneCallback* done),
    void (*delete_func)(void*));

/* Restricts the type attr `attr_name` to `type`; calling it again for the
 * same attr adds another allowed type. INVALID_ARGUMENT for a NULL builder
 * or name. */
TF_CAPI_EXPORT extern void TF_KernelBuilder_TypeConstraint(
    TF_KernelBuilder* kernel_builder, const char* attr_name, TF_DataType type,
    TF_Status* status);

/* Declares that input or output arg `arg_name` lives in host memory rather
 * than in the device's memory. NULL arguments are ignored. */
TF_CAPI_EXPORT extern void TF_KernelBuilder_HostMemory(
    TF_KernelBuilder* kernel_builder, const char* arg_name);

/* Among kernels that match, the highest priority wins (default 0). */
TF_CAPI_EXPORT extern void TF_KernelBuilder_Priority(
    TF_KernelBuilder* kernel_builder, int32_t priority_number);

/* Sets the kernel's label (the string is copied). */
TF_CAPI_EXPORT extern void TF_KernelBuilder_Label(
    TF_KernelBuilder* kernel_builder, const char* label);

/* Registers the kernel and consumes `builder`, whether or not it succeeds.
 * kernel_name is descriptive. The op may be registered later (as in
 * TensorFlow); when it is already known, constraints and host-memory args
 * are checked against it. Errors: INVALID_ARGUMENT (NULL builder, a
 * constraint on an attr the op does not have, a host-memory arg it does
 * not have, more than 4 constrained attrs), ALREADY_EXISTS (the same op,
 * device type, constraints and label were registered before, whatever the
 * priority). */
TF_CAPI_EXPORT extern void TF_RegisterKernelBuilder(const char* kernel_name,
                                                    TF_KernelBuilder* builder,
                                                    TF_Status* status);

/* Same, taking an optional serialized KernelDef. tfe reads the op name,
 * device type, constraints, host-memory args, label and priority from it
 * when it is given (non-NULL and non-empty); otherwise it behaves exactly
 * like TF_RegisterKernelBuilder. */
TF_CAPI_EXPORT extern void TF_RegisterKernelBuilderWithKernelDef(
    const char* serialized_kernel_def, const char* name,
    TF_KernelBuilder* builder, TF_Status* status);

/* Deletes a builder that was not registered. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteKernelBuilder(TF_KernelBuilder* builder);

/* ---- TF_OpKernelContext ---- */

/* The stream the kernel runs on: the device's compute stream. Only kernels
 * running on a PluggableDevice have one; otherwise NULL with
 * FAILED_PRECONDITION. */
TF_CAPI_EXPORT extern SP_Stream TF_GetStream(TF_OpKernelContext* ctx,
                                             TF_Status* status);

/* Number of flat inputs and outputs (-1 for a NULL context). */
TF_CAPI_EXPORT extern int TF_NumInputs(TF_OpKernelContext* ctx);
TF_CAPI_EXPORT extern int TF_NumOutputs(TF_OpKernelContext* ctx);

/* On success stores a new tensor sharing input i's buffer in *tensor (the
 * caller deletes it). OUT_OF_RANGE for a bad index; *tensor untouched on
 * failure. */
TF_CAPI_EXPORT extern void TF_GetInput(TF_OpKernelContext* ctx, int i,
                                       TF_Tensor** tensor, TF_Status* status);

/* Result of TF_InputRange. The caller sets struct_size and status. */
typedef struct {
  size_t struct_size;
  void* priv;
  int start;         /* output: first flat index of the arg */
  int stop;          /* output: one past the last */
  TF_Status* status; /* output */
} TF_InputRange_Args;
/* TensorFlow defines this as a const size_t object in its header; a macro
 * gives the same value and is valid C. */
#define TF_InputRange_Args_STRUCT_SIZE \
  TF_OFFSET_OF_END(TF_InputRange_Args, status)

/* Flat index range [start, stop) of the input arg named `name`.
 * INVALID_ARGUMENT in args->status for an unknown name. */
TF_CAPI_EXPORT extern void TF_InputRange(TF_OpKernelContext* ctx,
                                         const char* name,
                                         TF_InputRange_Args* args);

/* dtype of input `index` (0 for a bad index; TensorFlow aborts). */
TF_CAPI_EXPORT extern TF_DataType TF_InputDatatype(TF_OpKernelContext* ctx,
                                                   int index);

/* Makes output i share `tensor`'s buffer (the caller keeps `tensor`).
 * OUT_OF_RANGE for a bad index, INVALID_ARGUMENT for a NULL tensor or a
 * dtype other than the expected one; the context is unchanged on error. */
TF_CAPI_EXPORT extern void TF_SetOutput(TF_OpKernelContext* ctx, int i,
                                        const TF_Tensor* tensor,
                                        TF_Status* status);

/* A new tensor sharing output i's buffer (the caller deletes it), or NULL
 * with OUT_OF_RANGE (bad index) or FAILED_PRECONDITION (not set yet). */
TF_CAPI_EXPORT extern TF_Tensor* TF_GetMutableOutput(TF_OpKernelContext* ctx,
                                                     int i, TF_Status* status);

/* Serialized FunctionDefLibrary / ConfigProto of the running function:
 * eager execution has neither, so these store an empty message (zero
 * bytes) in the caller's buffer, which the caller releases as usual
 * (TF_DeleteBuffer, or its own deallocator). */
TF_CAPI_EXPORT extern void TF_GetSerializedFunctionDefLibrary(
    TF_OpKernelContext* ctx, TF_Buffer* serialized_function_def_library,
    TF_Status* status);
TF_CAPI_EXPORT extern void TF_GetSerializedConfigProto(
    TF_OpKernelContext* ctx, TF_Buffer* serialized_config_proto,
    TF_Status* status);

/* Serialized ResourceHandleProto of DT_RESOURCE input i (device, container,
 * name, dtypes and shapes of the variable). INVALID_ARGUMENT when input i
 * is not a resource. */
TF_CAPI_EXPORT extern void TF_GetSerializedResourceHandleProto(
    TF_OpKernelContext* ctx, int i, TF_Buffer* serialized_resource_handle_proto,
    TF_Status* status);

/* Reports that kernel construction failed: the op fails with a copy of
 * `status` (an OK status is ignored). */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_Failure(
    TF_OpKernelConstruction* ctx, TF_Status* status);

/* Reports that compute failed: the op fails with a copy of `status`. */
TF_CAPI_EXPORT extern void TF_OpKernelContext_Failure(TF_OpKernelContext* ctx,
                                                      TF_Status* status);

/* dtype output i must have (0 for a bad index; TensorFlow aborts). */
TF_CAPI_EXPORT extern TF_DataType TF_ExpectedOutputDataType(
    TF_OpKernelContext* ctx, int i);

/* Whether input / output i lives in host memory (always true on host
 * devices; on a PluggableDevice, true for args declared with
 * TF_KernelBuilder_HostMemory). OUT_OF_RANGE and false for a bad index. */
TF_CAPI_EXPORT extern bool TF_IsHostMemoryInput(TF_OpKernelContext* ctx, int i,
                                                TF_Status* status);
TF_CAPI_EXPORT extern bool TF_IsHostMemoryOutput(TF_OpKernelContext* ctx, int i,
                                                 TF_Status* status);

/* Identifier of the current step: eager executions are step 0 unless the
 * context is inside TFE_ContextStartStep. */
TF_CAPI_EXPORT extern int64_t TF_StepId(TF_OpKernelContext* ctx);

/* The kernel's node as a serialized NodeDef (name, op, device, attrs); the
 * caller deletes the buffer with TF_DeleteBuffer. NULL on error. */
TF_CAPI_EXPORT extern TF_Buffer* TF_OpKernelConstruction_GetNodeDef(
    TF_OpKernelConstruction* ctx, TF_Status* status);

/* Frame and iteration of the execution (0 in eager mode), and the step id
 * (same as TF_StepId). */
TF_CAPI_EXPORT extern uint64_t TF_GetFrameId(TF_OpKernelContext* ctx);
TF_CAPI_EXPORT extern int64_t TF_GetIterId(TF_OpKernelContext* ctx);
TF_CAPI_EXPORT extern int64_t TF_GetStepId(TF_OpKernelContext* ctx);

/* The index of the device the kernel runs on (the N of "GPU:N"); -1 for a
 * NULL context. */
TF_CAPI_EXPORT extern int TF_GetDeviceId(TF_OpKernelContext* ctx);

/* Full name of the device the kernel runs on. */
TF_CAPI_EXPORT extern TF_StringView TF_GetDeviceName(TF_OpKernelContext* ctx);

/* The rendezvous of the kernel's eager context: a table through which one
 * kernel sends a tensor under a key and another receives it. Call through
 * the thunk as thunk.send_func(thunk.rendezvous, &params) and so on.
 *   send_func: when a receive of the key waits, its callback runs at once
 *     with the tensor; otherwise the tensor (its buffer shared, not
 *     copied; the caller keeps its TF_Tensor) waits for a receive. Sets
 *     params->status (the abort status after start_abort_func).
 *   async_recv_func: on_done.callback(on_done.context, &done_params) runs
 *     at once when a tensor of the key waits, else when one is sent (in
 *     the sender's thread). done_params.tensor is lent to the callback:
 *     valid until it returns. Sends and receives of one key pair up in
 *     order; keys are compared as bytes.
 *   start_abort_func: waiting receives complete with the status (an OK or
 *     NULL status counts as TF_ABORTED), waiting tensors are dropped, later
 *     calls fail with it.
 * The rendezvous belongs to the context and lives as long as it; receives
 * still waiting when the context goes complete with TF_CANCELLED. The
 * args (device context, allocator attributes, cancellation manager) are
 * not used. Nothing needs releasing. A NULL ctx (or, should memory run
 * out, any ctx) gives an all-NULL thunk. */
TF_CAPI_EXPORT extern TF_RendezvousThunk TF_GetRendezvous(
    TF_OpKernelContext* ctx);

/* GraphDef version the kernel was built for (TF_GRAPH_DEF_VERSION of
 * TensorFlow 2.21). */
TF_CAPI_EXPORT extern int TF_GetGraphDefVersion(TF_OpKernelContext* ctx);

/* Name of the running op (its node name; the op type in eager mode). */
TF_CAPI_EXPORT extern TF_StringView TF_GetOpKernelName(TF_OpKernelContext* ctx);

/* Default container of the device's resource manager ("localhost"). */
TF_CAPI_EXPORT extern TF_StringView TF_GetResourceMgrDefaultContainerName(
    TF_OpKernelContext* ctx);

/* Name of requested input `index` as the node lists it ("" in eager mode,
 * where inputs are tensors rather than named edges; a bad index also gives
 * an empty view). */
TF_CAPI_EXPORT extern TF_StringView TF_GetOpKernelRequestedInput(
    TF_OpKernelContext* ctx, size_t index);

/* ---- TF_OpKernelConstruction: attributes ----
 *
 * Every getter fails as TensorFlow's GetNodeAttr does: NOT_FOUND when the
 * attr does not exist ("No attr named 'x' in NodeDef: ..."),
 * INVALID_ARGUMENT when it has another type ("AttrValue had value with type
 * 'int' when 'float' expected ..."). List getters fill at most max_vals
 * entries. */

/* list_size: length of a list attr, -1 for a single value. total_size: for
 * string attrs the byte length (sum for lists), for shapes the rank (sum
 * for lists, -1 when unknown), otherwise -1. A missing attr is
 * INVALID_ARGUMENT ("Operation 'X' has no attr named 'y'."). */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrSize(
    TF_OpKernelConstruction* ctx, const char* attr_name, int32_t* list_size,
    int32_t* total_size, TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrType(
    TF_OpKernelConstruction* ctx, const char* attr_name, TF_DataType* val,
    TF_Status* status);

/* INVALID_ARGUMENT when the value does not fit in 32 bits. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrInt32(
    TF_OpKernelConstruction* ctx, const char* attr_name, int32_t* val,
    TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrInt64(
    TF_OpKernelConstruction* ctx, const char* attr_name, int64_t* val,
    TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrFloat(
    TF_OpKernelConstruction* ctx, const char* attr_name, float* val,
    TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrBool(
    TF_OpKernelConstruction* ctx, const char* attr_name, TF_Bool* val,
    TF_Status* status);

/* Copies at most max_length bytes of the string (not NUL-terminated, as in
 * TensorFlow; use total_size from GetAttrSize for the length). */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrString(
    TF_OpKernelConstruction* ctx, const char* attr_name, char* val,
    size_t max_length, TF_Status* status);

/* *val receives a new tensor the caller deletes. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrTensor(
    TF_OpKernelConstruction* ctx, const char* attr_name, TF_Tensor** val,
    TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrTypeList(
    TF_OpKernelConstruction* ctx, const char* attr_name, TF_DataType* vals,
    int max_vals, TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrInt32List(
    TF_OpKernelConstruction* ctx, const char* attr_name, int32_t* vals,
    int max_vals, TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrInt64List(
    TF_OpKernelConstruction* ctx, const char* attr_name, int64_t* vals,
    int max_vals, TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrFloatList(
    TF_OpKernelConstruction* ctx, const char* attr_name, float* vals,
    int max_vals, TF_Status* status);

TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrBoolList(
    TF_OpKernelConstruction* ctx, const char* attr_name, TF_Bool* vals,
    int max_vals, TF_Status* status);

/* values[k] points into `storage` (storage_size bytes), lengths[k] is its
 * length (not NUL-terminated). INVALID_ARGUMENT when storage is too small. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrStringList(
    TF_OpKernelConstruction* ctx, const char* attr_name, char** values,
    size_t* lengths, int max_values, void* storage, size_t storage_size,
    TF_Status* status);

/* Each vals[k] receives a new tensor the caller deletes. */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrTensorList(
    TF_OpKernelConstruction* ctx, const char* attr_name, TF_Tensor** vals,
    int max_values, TF_Status* status);

/* A func attr as a serialized NameAttrList in a new buffer the caller
 * deletes with TF_DeleteBuffer; NULL on error. */
TF_CAPI_EXPORT extern TF_Buffer* TF_OpKernelConstruction_GetAttrFunction(
    TF_OpKernelConstruction* ctx, const char* attr_name, TF_Status* status);

/* Whether the kernel's node has attr `attr_name` (defaults included). */
TF_CAPI_EXPORT extern bool TF_OpKernelConstruction_HasAttr(
    TF_OpKernelConstruction* ctx, const char* attr_name, TF_Status* status);

/* Name of the node the kernel is built for (the op type in eager mode). */
TF_CAPI_EXPORT extern TF_StringView TF_OpKernelConstruction_GetName(
    TF_OpKernelConstruction* ctx);

/* ---- allocation in compute ---- */

/* Allocates output `index` with the given dtype and shape in the memory the
 * output lives in (device memory on a PluggableDevice unless declared host
 * memory) and returns a tensor sharing it, which the caller deletes. As in
 * TensorFlow `len` is ignored: the shape decides the size. NULL with
 * OUT_OF_RANGE (index), INVALID_ARGUMENT (a dtype other than the output's)
 * or RESOURCE_EXHAUSTED. */
TF_CAPI_EXPORT extern TF_Tensor* TF_AllocateOutput(TF_OpKernelContext* context,
                                                   int index,
                                                   TF_DataType dtype,
                                                   const int64_t* dims,
                                                   int num_dims, size_t len,
                                                   TF_Status* status);

/* TensorFlow reuses a candidate input's buffer for the output when nothing
 * else holds it. In tfe an eager input is always also held by the caller's
 * tensor handle, so this allocates output output_index (as
 * TF_AllocateOutput) and sets *forwarded_input to -1. Returns a tensor the
 * caller deletes, or NULL with status set. */
TF_CAPI_EXPORT extern TF_Tensor* TF_ForwardInputOrAllocateOutput(
    TF_OpKernelContext* context, const int* candidate_input_indices,
    int num_candidate_input_indices, int output_index,
    const int64_t* output_dims, int output_num_dims, int* forwarded_input,
    TF_Status* status);

/* A scratch tensor for use during this compute call, in device memory
 * unless alloc_attrs->on_host is 1 (alloc_attrs may be NULL). The caller
 * deletes it; on a PluggableDevice its memory is reused only after the work
 * enqueued on the compute stream so far. */
TF_CAPI_EXPORT extern TF_Tensor* TF_AllocateTemp(
    TF_OpKernelContext* context, TF_DataType dtype, const int64_t* dims,
    int num_dims, TF_AllocatorAttributes* alloc_attrs, TF_Status* status);

/* Bookkeeping of kernels whose work continues after compute returns.
 * tfe counts them per context; calls must come in pairs. */
TF_CAPI_EXPORT extern void TF_IncNumDeferredOps(TF_OpKernelContext* context);
TF_CAPI_EXPORT extern void TF_DecNumDeferredOps(TF_OpKernelContext* context);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_KERNELS_H_ */
