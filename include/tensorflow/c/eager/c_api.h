/* tfe: the eager execution C API (TensorFlow 2.21's tensorflow/c/eager/c_api.h).
 *
 * Eager execution runs one op at a time, immediately. The objects:
 *
 *   TFE_ContextOptions  settings used once, to build a context.
 *   TFE_Context         devices, placement policy, kernel cache. Every
 *                       handle and op belongs to one context.
 *   TFE_TensorHandle    an immutable tensor living on a device. Handles are
 *                       reference counted internally; each TFE_TensorHandle*
 *                       the API gives you is yours and must be released with
 *                       TFE_DeleteTensorHandle.
 *   TFE_Op              an op being described (name, inputs, attrs, device)
 *                       and then run with TFE_Execute. Reusable after
 *                       TFE_OpReset (c_api_experimental.h).
 *
 * Conventions (the same for every function below):
 *   - A function with a TF_Status* argument sets it to TF_OK on success and
 *     to an error code plus message on failure. A NULL object argument is
 *     TF_INVALID_ARGUMENT, never a crash.
 *   - Every TFE_Delete* / TF_Delete* accepts NULL and then does nothing.
 *   - Strings returned as `const char*` are borrowed: they stay valid as long
 *     as the object they were read from (the handle, op or device list).
 *   - Deleting a context while handles or ops of it are still alive is
 *     allowed: the context stays behind (a "zombie") until the last of them
 *     is deleted, then frees itself. Such leftover handles can still be read
 *     and deleted; ops of a deleted context can only be deleted.
 *
 * The functions that need the experimental part (op resets, executors,
 * device memory, custom devices) are declared in
 * tensorflow/c/eager/c_api_experimental.h, which this header deliberately
 * does not include. */
#ifndef TENSORFLOW_C_EAGER_C_API_H_
#define TENSORFLOW_C_EAGER_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TF_DeviceList (what TFE_ContextListDevices returns), its accessors
 * (TF_DeviceListCount, TF_DeviceListName, ...) and TF_Function come from
 * tensorflow/c/c_api.h, included above, as in TensorFlow. */

/* ------------------------------------------------------------------------
 * Context options. */

typedef struct TFE_ContextOptions TFE_ContextOptions;

/* New options with defaults (synchronous, SILENT placement, config empty).
 * The caller owns the result; release with TFE_DeleteContextOptions. NULL
 * only when memory runs out. */
TF_CAPI_EXPORT extern TFE_ContextOptions* TFE_NewContextOptions(void);

/* Stores a serialized tensorflow.ConfigProto. tfe reads
 * `device_count` (the number of "CPU" devices), `intra_op_parallelism_threads`,
 * `inter_op_parallelism_threads` and `allow_soft_placement`; other fields are
 * skipped. Bytes that
 * are not a valid protobuf give TF_INVALID_ARGUMENT and leave the options
 * unchanged. The bytes are copied; the caller keeps `proto`. */
TF_CAPI_EXPORT extern void TFE_ContextOptionsSetConfig(
    TFE_ContextOptions* options, const void* proto, size_t proto_len,
    TF_Status* status);

/* What TFE_Execute does when an input lives on another device than the one
 * the op runs on. */
typedef enum TFE_ContextDevicePlacementPolicy {
  /* Fail with TF_INVALID_ARGUMENT. */
  TFE_DEVICE_PLACEMENT_EXPLICIT = 0,
  /* Copy the input to the op's device and log a warning. */
  TFE_DEVICE_PLACEMENT_WARN = 1,
  /* Copy the input silently (the default). */
  TFE_DEVICE_PLACEMENT_SILENT = 2,
  /* Copy int32 inputs silently; fail for every other dtype. */
  TFE_DEVICE_PLACEMENT_SILENT_FOR_INT32 = 3,
} TFE_ContextDevicePlacementPolicy;

/* Requests asynchronous execution: the context's default executor queues
 * ops and TFE_Execute returns pending handles (see TFE_NewExecutor in
 * c_api_experimental.h and docs/ASYNC.md). Errors of the kernels then
 * surface at resolve or at TFE_ContextAsyncWait. NULL options is a no-op. */
TF_CAPI_EXPORT extern void TFE_ContextOptionsSetAsync(TFE_ContextOptions*,
                                                      unsigned char enable);

/* Sets the placement policy new contexts start with. Values outside the
 * enum are ignored. NULL options is a no-op. */
TF_CAPI_EXPORT extern void TFE_ContextOptionsSetDevicePlacementPolicy(
    TFE_ContextOptions*, TFE_ContextDevicePlacementPolicy);

/* Releases the options. A context made from them does not depend on them.
 * NULL is a no-op. */
TF_CAPI_EXPORT extern void TFE_DeleteContextOptions(TFE_ContextOptions*);

/* ------------------------------------------------------------------------
 * Contexts. */

typedef struct TFE_Context TFE_Context;

/* New context with the devices the options ask for (one CPU device unless
 * the ConfigProto's device_count says more). `opts` may be NULL for the
 * defaults. The caller owns the context; release with TFE_DeleteContext. */
TF_CAPI_EXPORT extern TFE_Context* TFE_NewContext(
    const TFE_ContextOptions* opts, TF_Status* status);

/* Drops the caller's reference. The context is freed at once when no handle
 * or op of it is alive; otherwise it lingers until the last one is deleted.
 * NULL is a no-op. */
TF_CAPI_EXPORT extern void TFE_DeleteContext(TFE_Context* ctx);

/* New list of the context's devices. The caller owns it (TF_DeleteDeviceList).
 * NULL and TF_INVALID_ARGUMENT for a NULL context. */
TF_CAPI_EXPORT extern TF_DeviceList* TFE_ContextListDevices(TFE_Context* ctx,
                                                            TF_Status* status);

/* Drops the cached kernels: the next execution of each op looks its kernel
 * up again. Cache entries (and kernels' per-instance state) are released
 * when the context itself is freed, so a concurrent TFE_Execute is never
 * affected. NULL is a no-op. */
TF_CAPI_EXPORT extern void TFE_ContextClearCaches(TFE_Context* ctx);

/* Overrides the placement policy for the calling thread only (for this
 * context). NULL context or an out-of-range policy is a no-op. */
TF_CAPI_EXPORT extern void TFE_ContextSetThreadLocalDevicePlacementPolicy(
    TFE_Context* ctx, TFE_ContextDevicePlacementPolicy policy);

/* The policy in force for the calling thread: its override if it set one,
 * else the context's. TFE_DEVICE_PLACEMENT_SILENT for a NULL context. */
TF_CAPI_EXPORT extern TFE_ContextDevicePlacementPolicy
TFE_ContextGetDevicePlacementPolicy(TFE_Context* ctx);

/* Distributed execution: a deliberate tfe stub, TF_UNIMPLEMENTED. */
TF_CAPI_EXPORT extern void TFE_ContextSetServerDef(TFE_Context* ctx,
                                                   int keep_alive_secs,
                                                   const void* proto,
                                                   size_t proto_len,
                                                   TF_Status* status);

/* ------------------------------------------------------------------------
 * Tensor handles. */

typedef struct TFE_TensorHandle TFE_TensorHandle;

/* New handle holding `t`'s value on the host CPU device (CPU:0); it
 * belongs to no context and may be used with any. The handle shares t's buffer (no copy) and keeps it
 * alive: the caller still owns `t` and may delete it at once. The caller
 * owns the handle. NULL t: TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_NewTensorHandle(const TF_Tensor* t,
                                                            TF_Status* status);

/* Releases the caller's handle. The tensor memory goes when no other handle,
 * op input or resolved TF_Tensor still uses it. NULL is a no-op. */
TF_CAPI_EXPORT extern void TFE_DeleteTensorHandle(TFE_TensorHandle* h);

/* dtype of the handle's tensor; TF_FLOAT... as in tf_datatype.h. A NULL
 * handle gives 0 (not a valid dtype). */
TF_CAPI_EXPORT extern TF_DataType TFE_TensorHandleDataType(TFE_TensorHandle* h);

/* Rank; -1 and TF_INVALID_ARGUMENT for a NULL handle (or the handle's error
 * when it is in error). */
TF_CAPI_EXPORT extern int TFE_TensorHandleNumDims(TFE_TensorHandle* h,
                                                  TF_Status* status);

/* Number of elements; -1 on the same errors as TFE_TensorHandleNumDims. */
TF_CAPI_EXPORT extern int64_t TFE_TensorHandleNumElements(TFE_TensorHandle* h,
                                                          TF_Status* status);

/* Size of dimension `dim_index`; -1 and TF_INVALID_ARGUMENT when the index
 * is out of range (TF aborts there; tfe reports it). */
TF_CAPI_EXPORT extern int64_t TFE_TensorHandleDim(TFE_TensorHandle* h,
                                                  int dim_index,
                                                  TF_Status* status);

/* Full name of the device of the op that produced the handle (or of the
 * device it was copied to). Borrowed: valid while the handle lives. */
TF_CAPI_EXPORT extern const char* TFE_TensorHandleDeviceName(
    TFE_TensorHandle* h, TF_Status* status);

/* Full name of the device whose memory holds the tensor. Borrowed like
 * TFE_TensorHandleDeviceName. */
TF_CAPI_EXPORT extern const char* TFE_TensorHandleBackingDeviceName(
    TFE_TensorHandle* h, TF_Status* status);

/* New handle for the same tensor, same device, same buffer (no copy). The
 * caller owns it; both handles are released independently. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_TensorHandleCopySharingTensor(
    TFE_TensorHandle* h, TF_Status* status);

/* New TF_Tensor with the handle's value. For host memory it shares the
 * handle's buffer (no copy), so do not write through it. The caller owns the
 * tensor (TF_DeleteTensor). Waits for a handle whose op is still queued on
 * an asynchronous executor; if that op failed, returns NULL with its
 * error. */
TF_CAPI_EXPORT extern TF_Tensor* TFE_TensorHandleResolve(TFE_TensorHandle* h,
                                                         TF_Status* status);

/* New handle with h's value on device `device_name` (full or partial name,
 * e.g. "CPU:1"; NULL or "" means the host CPU, as in TF). Between host
 * devices the buffer is shared. The caller owns the result. A device the
 * context does not have: TF_INVALID_ARGUMENT ("<name> unknown device.") and
 * NULL. A NULL h: TF_INVALID_ARGUMENT "Invalid handle". */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_TensorHandleCopyToDevice(
    TFE_TensorHandle* h, TFE_Context* ctx, const char* device_name,
    TF_Status* status);

/* Debug information about a handle's on-device layout. For host tensors it
 * is the logical shape. */
typedef struct TFE_TensorDebugInfo TFE_TensorDebugInfo;

/* New debug info for `h`; the caller owns it (TFE_DeleteTensorDebugInfo). */
TF_CAPI_EXPORT extern TFE_TensorDebugInfo* TFE_TensorHandleTensorDebugInfo(
    TFE_TensorHandle* h, TF_Status* status);

/* Releases debug info; NULL is a no-op. */
TF_CAPI_EXPORT extern void TFE_DeleteTensorDebugInfo(
    TFE_TensorDebugInfo* debug_info);

/* Rank on the device (-1 for NULL). */
TF_CAPI_EXPORT extern int TFE_TensorDebugInfoOnDeviceNumDims(
    TFE_TensorDebugInfo* debug_info);

/* Size of on-device dimension `dim_index` (-1 when out of range or NULL). */
TF_CAPI_EXPORT extern int64_t TFE_TensorDebugInfoOnDeviceDim(
    TFE_TensorDebugInfo* debug_info, int dim_index);

/* ------------------------------------------------------------------------
 * Ops. */

typedef struct TFE_Op TFE_Op;

/* New op named `op_or_function_name` (a registered op, or a function added
 * to the context). The caller owns it (TFE_DeleteOp). Unknown name:
 * TF_NOT_FOUND and NULL. */
TF_CAPI_EXPORT extern TFE_Op* TFE_NewOp(TFE_Context* ctx,
                                        const char* op_or_function_name,
                                        TF_Status* status);

/* Releases the op and the references it holds on its inputs. NULL is a
 * no-op. */
TF_CAPI_EXPORT extern void TFE_DeleteOp(TFE_Op* op);

/* The op's type name. Borrowed: valid until the op is reset or deleted. */
TF_CAPI_EXPORT extern const char* TFE_OpGetName(const TFE_Op* op,
                                                TF_Status* status);

/* The context the op belongs to (borrowed; not a new reference). */
TF_CAPI_EXPORT extern TFE_Context* TFE_OpGetContext(const TFE_Op* op,
                                                    TF_Status* status);

/* Requests a device for the op. The name is parsed now (full or partial:
 * "/job:localhost/replica:0/task:0/device:CPU:0", "/device:CPU:0", "CPU:0",
 * "/cpu:0"); a string that is not a device name is TF_INVALID_ARGUMENT and
 * leaves the op unchanged. Whether the device exists is checked by
 * TFE_Execute. NULL or "" clears the request. */
TF_CAPI_EXPORT extern void TFE_OpSetDevice(TFE_Op* op, const char* device_name,
                                           TF_Status* status);

/* The device name last set, in TF's canonical form ("/cpu:0" reads back as
 * "/device:CPU:0"; "" when none). Borrowed: valid until the next
 * TFE_OpSetDevice/TFE_OpReset or the op's deletion. */
TF_CAPI_EXPORT extern const char* TFE_OpGetDevice(const TFE_Op* op,
                                                  TF_Status* status);

/* Appends one input. The op takes its own reference on `input`; the caller
 * keeps theirs. Attributes the input determines (a type attr such as "T")
 * are inferred at once when not set yet. */
TF_CAPI_EXPORT extern void TFE_OpAddInput(TFE_Op* op, TFE_TensorHandle* input,
                                          TF_Status* status);

/* Appends a list input (for a "N * T" or list(type) argument) and infers the
 * list's length and types. References as for TFE_OpAddInput. */
TF_CAPI_EXPORT extern void TFE_OpAddInputList(TFE_Op* op,
                                              TFE_TensorHandle** inputs,
                                              int num_inputs,
                                              TF_Status* status);

/* Number of input tensors added so far (list inputs counted flat). */
TF_CAPI_EXPORT extern int TFE_OpGetFlatInputCount(const TFE_Op* op,
                                                  TF_Status* status);

/* Input number `index` (flat). Borrowed: the op keeps the reference; do not
 * delete it. Out of range: TF_INVALID_ARGUMENT and NULL. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_OpGetFlatInput(const TFE_Op* op,
                                                           int index,
                                                           TF_Status* status);

/* Type of attr `attr_name` of the op's definition, and whether it is a list
 * (*is_list). Unknown attr: TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern TF_AttrType TFE_OpGetAttrType(TFE_Op* op,
                                                    const char* attr_name,
                                                    unsigned char* is_list,
                                                    TF_Status* status);

/* Like TFE_OpGetAttrType, from an op name without making an op. Unknown op:
 * TF_NOT_FOUND. */
TF_CAPI_EXPORT extern TF_AttrType TFE_OpNameGetAttrType(
    TFE_Context* ctx, const char* op_or_function_name, const char* attr_name,
    unsigned char* is_list, TF_Status* status);

/* Attr setters. Each copies its arguments (the caller keeps them). As in
 * TF, the first value an attr gets is kept: setting an attr that is already
 * set, or that was inferred from an input, changes nothing. Values are
 * checked against the op's definition by TFE_Execute (a wrong kind gives
 * TF_INVALID_ARGUMENT there); names the definition does not have are kept
 * but ignored. Setters without a status silently ignore a NULL op or name
 * (an allocation failure is remembered and reported by TFE_Execute as
 * TF_RESOURCE_EXHAUSTED). */
TF_CAPI_EXPORT extern void TFE_OpSetAttrString(TFE_Op* op,
                                               const char* attr_name,
                                               const void* value,
                                               size_t length);
TF_CAPI_EXPORT extern void TFE_OpSetAttrInt(TFE_Op* op, const char* attr_name,
                                            int64_t value);
TF_CAPI_EXPORT extern void TFE_OpSetAttrFloat(TFE_Op* op, const char* attr_name,
                                              float value);
TF_CAPI_EXPORT extern void TFE_OpSetAttrBool(TFE_Op* op, const char* attr_name,
                                             unsigned char value);
TF_CAPI_EXPORT extern void TFE_OpSetAttrType(TFE_Op* op, const char* attr_name,
                                             TF_DataType value);
/* num_dims == -1 means unknown rank (dims may be NULL); a dim of -1 means an
 * unknown size. num_dims above 254: TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern void TFE_OpSetAttrShape(TFE_Op* op, const char* attr_name,
                                              const int64_t* dims,
                                              const int num_dims,
                                              TF_Status* out_status);
/* Sets a func attr to the name (and attrs) of `value`, an op that names a
 * function. */
TF_CAPI_EXPORT extern void TFE_OpSetAttrFunction(TFE_Op* op,
                                                 const char* attr_name,
                                                 const TFE_Op* value);
/* Sets a func attr to a function name of `length` bytes. */
TF_CAPI_EXPORT void TFE_OpSetAttrFunctionName(TFE_Op* op, const char* attr_name,
                                              const char* data, size_t length);
/* The op takes its own reference on the tensor's buffer. */
TF_CAPI_EXPORT extern void TFE_OpSetAttrTensor(TFE_Op* op,
                                               const char* attr_name,
                                               TF_Tensor* tensor,
                                               TF_Status* status);
TF_CAPI_EXPORT extern void TFE_OpSetAttrStringList(TFE_Op* op,
                                                   const char* attr_name,
                                                   const void* const* values,
                                                   const size_t* lengths,
                                                   int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrIntList(TFE_Op* op,
                                                const char* attr_name,
                                                const int64_t* values,
                                                int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrFloatList(TFE_Op* op,
                                                  const char* attr_name,
                                                  const float* values,
                                                  int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrBoolList(TFE_Op* op,
                                                 const char* attr_name,
                                                 const unsigned char* values,
                                                 int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrTypeList(TFE_Op* op,
                                                 const char* attr_name,
                                                 const TF_DataType* values,
                                                 int num_values);
TF_CAPI_EXPORT extern void TFE_OpSetAttrShapeList(
    TFE_Op* op, const char* attr_name, const int64_t** dims,
    const int* num_dims, int num_values, TF_Status* out_status);
TF_CAPI_EXPORT extern void TFE_OpSetAttrFunctionList(TFE_Op* op,
                                                     const char* attr_name,
                                                     const TFE_Op** value,
                                                     int num_values);

/* Number of tensors input argument `input_name` stands for (1, or the list
 * length), as known from the inputs added so far and the attrs set. Unknown
 * argument: TF_INVALID_ARGUMENT and -1. */
TF_CAPI_EXPORT extern int TFE_OpGetInputLength(TFE_Op* op,
                                               const char* input_name,
                                               TF_Status* status);

/* Number of tensors output argument `output_name` produces under the attrs
 * known so far. Unknown argument or undetermined length:
 * TF_INVALID_ARGUMENT and -1. */
TF_CAPI_EXPORT extern int TFE_OpGetOutputLength(TFE_Op* op,
                                                const char* output_name,
                                                TF_Status* status);

/* Runs the op. `retvals` has room for *num_retvals handles; on success
 * *num_retvals is set to the number of outputs and retvals[0..n) hold new
 * handles the caller owns (release each with TFE_DeleteTensorHandle).
 * Errors (nothing is returned, retvals untouched):
 *   TF_FAILED_PRECONDITION  the op's context was deleted, or a failed
 *                        TFE_OpReset left the op without a type;
 *   TF_RESOURCE_EXHAUSTED out of memory (also for an earlier setter);
 *   TF_INVALID_ARGUMENT  wrong number of inputs, an input of the wrong
 *                        dtype, a bad attr, an unknown device, an input on
 *                        another device under the EXPLICIT policy, room for
 *                        fewer outputs than the op has, an explicit device
 *                        that the context lacks or that has no kernel for
 *                        the op (without soft placement);
 *   TF_NOT_FOUND         a required attr is missing, or no device type has a
 *                        kernel for the op;
 *   whatever the kernel reports.
 * The op is unchanged and may be executed again, unless an elementwise
 * kernel reused the buffer of an input that only the op held (the caller
 * deleted its handle after TFE_OpAddInput): that input is consumed, and a
 * second TFE_Execute fails with TF_FAILED_PRECONDITION until it is replaced
 * (TFE_OpReset). TF instead computes silently on the overwritten buffer.
 * On an asynchronous executor (TFE_ContextOptionsSetAsync, TFE_NewExecutor)
 * the checks above still happen here, but the kernel runs later: the
 * outputs are pending handles, the kernel's error surfaces when they are
 * resolved or waited for, and while the executor is in error this fails
 * with that error. It blocks while the executor's queue is full. */
TF_CAPI_EXPORT extern void TFE_Execute(TFE_Op* op, TFE_TensorHandle** retvals,
                                       int* num_retvals, TF_Status* status);

/* ------------------------------------------------------------------------
 * Functions (graphs run as one op). Adding registers a copy in the
 * context's library (the caller keeps the bytes or the TF_Function); the
 * function can then be run by name with TFE_NewOp/TFE_Execute. Adds are
 * counted: a function added n times goes away at the n-th remove; removing
 * an unknown name is an error. TFE_ContextHasFunction answers 1 or 0. */

TF_CAPI_EXPORT extern void TFE_ContextAddFunctionDef(
    TFE_Context* ctx, const char* serialized_function_def, size_t size,
    TF_Status* status);
TF_CAPI_EXPORT extern void TFE_ContextAddFunction(TFE_Context* ctx,
                                                  TF_Function* function,
                                                  TF_Status* status);
TF_CAPI_EXPORT extern void TFE_ContextRemoveFunction(TFE_Context* ctx,
                                                     const char* name,
                                                     TF_Status* status);
TF_CAPI_EXPORT unsigned char TFE_ContextHasFunction(TFE_Context* ctx,
                                                    const char* name);

/* ------------------------------------------------------------------------
 * Run metadata and steps. */

/* Starts / stops collecting run metadata. tfe records none, so exporting
 * gives an empty (valid, zero-length) RunMetadata message. */
TF_CAPI_EXPORT extern void TFE_ContextEnableRunMetadata(TFE_Context* ctx);
TF_CAPI_EXPORT extern void TFE_ContextDisableRunMetadata(TFE_Context* ctx);
/* Replaces buf's contents with the serialized RunMetadata collected so far
 * (tfe: empty). The buffer keeps ownership rules of tf_buffer.h. */
TF_CAPI_EXPORT extern void TFE_ContextExportRunMetadata(TFE_Context* ctx,
                                                        TF_Buffer* buf,
                                                        TF_Status* status);

/* Mark the start / end of a step (steps may nest). Per-step state is kept
 * while the step count is above zero; NULL is a no-op. */
TF_CAPI_EXPORT extern void TFE_ContextStartStep(TFE_Context* ctx);
TF_CAPI_EXPORT extern void TFE_ContextEndStep(TFE_Context* ctx);

#ifdef __cplusplus
} /* end extern "C" */

/* C++ only, as in TF: a handle from TF's C++ tensorflow::Tensor. tfe has no
 * such class, so this always fails with TF_UNIMPLEMENTED and returns NULL;
 * it is declared (and exported under its C++ name) so that C++ code written
 * against TF's header compiles and links. Use the C function above. */
namespace tensorflow {
class Tensor;
}  // namespace tensorflow
TFE_TensorHandle* TFE_NewTensorHandle(const tensorflow::Tensor& t,
                                      TF_Status* status);
#endif

#endif /* TENSORFLOW_C_EAGER_C_API_H_ */
