/* tfe: experimental kernel functions (TensorFlow 2.21's
 * tensorflow/c/kernels_experimental.h).
 *
 * TensorFlow declares these but does not export them from its binaries;
 * tfe exports them, so plugins that call them load and run.
 *
 * Resource variables: a DT_RESOURCE input of a kernel refers to a variable
 * (see tfe's csrc/kernels/resource.h). The variable functions below read
 * and replace the variable's value under the variable's lock. copyFunc is
 * the plugin's device copy: it is called with a source tensor and a
 * destination tensor of the same dtype and shape, both owned by the
 * caller of copyFunc (the runtime deletes them after the call), and must
 * copy the bytes (on the device for device tensors).
 *
 * tfe executes eagerly and has no reference (Ref) tensors, TensorFlow 1
 * temporary variables or DT_VARIANT values: the functions that need them
 * report TF_UNIMPLEMENTED naming themselves. */
#ifndef TENSORFLOW_C_KERNELS_EXPERIMENTAL_H_
#define TENSORFLOW_C_KERNELS_EXPERIMENTAL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TF_VariableInputLockHolder TF_VariableInputLockHolder;

/* Assigns input `value_index` to the variable of DT_RESOURCE input
 * `input_index`. The variable gets a new tensor of the value's dtype and
 * shape in the memory of the kernel's device, filled by copyFunc. With
 * validate_shape and an initialized variable, a different shape is
 * INVALID_ARGUMENT. A dtype other than the variable's is
 * INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern void TF_AssignVariable(
    TF_OpKernelContext* ctx, int input_index, int value_index,
    bool validate_shape,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source,
                     TF_Tensor* dest),
    TF_Status* status);

/* Reference-variable assignment: TF_UNIMPLEMENTED in tfe. */
TF_CAPI_EXPORT extern void TF_AssignRefVariable(
    TF_OpKernelContext* ctx, int input_ref_index, int output_ref_index,
    int value_index, bool use_locking, bool validate_shape,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source,
                     TF_Tensor* dest),
    TF_Status* status);

/* Updates the variable of DT_RESOURCE input `input_index` in place with
 * input `value_index`: updateFunc(ctx, variable_tensor, value, Op) does
 * the arithmetic (Op is the plugin's own code, passed through). When the
 * variable's buffer is shared with another tensor, the variable first gets
 * a private copy made with copyFunc. The variable must be initialized
 * (FAILED_PRECONDITION) and have the value's dtype and shape
 * (INVALID_ARGUMENT). For a DT_VARIANT variable (isVariantType) the
 * private copy shares each element's object and copyFunc is not called;
 * updateFunc still does the update (docs/TENSOR_LISTS.md). */
TF_CAPI_EXPORT extern void TF_AssignUpdateVariable(
    TF_OpKernelContext* ctx, int input_index, int value_index, int Op,
    int isVariantType,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source,
                     TF_Tensor* dest),
    void (*updateFunc)(TF_OpKernelContext* ctx, TF_Tensor* tensor,
                       TF_Tensor* value, int Op),
    TF_Status* status);

/* Locks the variables of the DT_RESOURCE inputs listed in inputs[0..len)
 * in a fixed global order (so two kernels never deadlock) when do_lock is
 * true, and returns a holder in *lockHolder that
 * TF_ReleaseVariableInputLockHolder releases. Inputs that are not
 * resources are skipped. With sparse set, a variable whose buffer is
 * shared first gets a private copy (copyFunc). */
TF_CAPI_EXPORT extern void TF_MaybeLockVariableInputMutexesInOrder(
    TF_OpKernelContext* ctx, bool do_lock, bool sparse, const int* const inputs,
    size_t len,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source,
                     TF_Tensor* dest),
    TF_VariableInputLockHolder** lockHolder, TF_Status* status);

/* *out receives a tensor sharing the current value of the variable of
 * DT_RESOURCE input `input` (the caller deletes it); a non-resource input
 * is returned as is. lock_held says the caller already holds the
 * variable's lock. With sparse set, a shared buffer is first made private
 * (copyFunc; for DT_VARIANT values the copy shares each element's object
 * instead). FAILED_PRECONDITION for an uninitialized variable. */
TF_CAPI_EXPORT extern void TF_GetInputTensorFromVariable(
    TF_OpKernelContext* ctx, int input, bool lock_held, bool isVariantType,
    bool sparse,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source,
                     TF_Tensor* dest),
    TF_Tensor** out, TF_Status* status);

/* Reference forwarding: does nothing in tfe (there are no Ref tensors). */
TF_CAPI_EXPORT extern void TF_OpKernelContext_ForwardRefInputToRefOutput(
    TF_OpKernelContext* ctx, int32_t input_index, int32_t output_index);

/* Releases the locks of a holder and frees it. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_ReleaseVariableInputLockHolder(
    TF_VariableInputLockHolder* lockHolder);

/* Like TF_GetInput for the single-tensor input arg named inputName.
 * INVALID_ARGUMENT for an unknown name or a list arg. */
TF_CAPI_EXPORT extern void TF_GetInputByName(TF_OpKernelContext* ctx,
                                             const char* inputName,
                                             TF_Tensor** tensor,
                                             TF_Status* status);

/* Fills dims[0..num_dims) with the dims of shape attr `attr_name`
 * (num_dims must be its rank; INVALID_ARGUMENT otherwise or for an unknown
 * rank). */
TF_CAPI_EXPORT extern void TF_OpKernelConstruction_GetAttrTensorShape(
    TF_OpKernelConstruction* ctx, const char* attr_name, int64_t* dims,
    size_t num_dims, TF_Status* status);

/* Whether input i is a reference: always false in tfe; OUT_OF_RANGE for a
 * bad index. */
TF_CAPI_EXPORT extern bool TF_IsRefInput(TF_OpKernelContext* ctx, int i,
                                         TF_Status* status);

/* TensorFlow 1 temporary variables: TF_UNIMPLEMENTED in tfe. */
TF_CAPI_EXPORT extern void TF_TemporaryVariable(
    TF_OpKernelContext* ctx, TF_DataType dtype, const int64_t* dims,
    int num_dims, TF_StringView* var_name,
    void (*plugin_allocator)(TF_OpKernelContext*, TF_Tensor*, TF_DataType,
                             const int64_t*, int, TF_Status*),
    TF_Status* tf_status);

TF_CAPI_EXPORT extern void TF_DestroyTemporaryVariable(TF_OpKernelContext* ctx,
                                                       const int index,
                                                       TF_StringView* var_name,
                                                       TF_Status* tf_status);

/* The AddN kernel for T=variant, for a kernel to call from its compute
 * function: the core walks the TensorList / Optional objects held by the
 * kernel's scalar DT_VARIANT inputs and calls binary_add_func once per pair
 * of initialised elements (an uninitialised element on one side gives the
 * other side's element, without a call). With a single input the output
 * is that input; otherwise every input must be a scalar, the lists must
 * agree in element dtype, element shape and length (optionals in having a
 * value and in component count), and the sums are made pairwise.
 *
 * Each call gets three new tensors that the callback owns and must free
 * with TF_DeleteTensor: `a` and `b` (views of the elements, not to be
 * written) and `out`, allocated with a's dtype and shape (DT_VARIANT in
 * host memory, other dtypes where the kernel's device keeps temporaries),
 * which it fills. A callback fails with TF_OpKernelContext_Failure.
 * Output 0 is set to a new scalar DT_VARIANT tensor in host memory owned by
 * the runtime. On failure (TensorFlow's codes and messages) both `status`
 * and the kernel context carry the error and no output is set. */
TF_CAPI_EXPORT extern void TF_AddNVariant(
    TF_OpKernelContext* ctx,
    void (*binary_add_func)(TF_OpKernelContext* ctx, TF_Tensor* a, TF_Tensor* b,
                            TF_Tensor* out),
    TF_Status* status);

/* The ZerosLike kernel for T=variant: input 0 must be a scalar DT_VARIANT
 * ("ZerosLike non-scalar Tensor with dtype=DT_VARIANT is not supported."
 * otherwise); the result has the same kind, dtype, element shape and
 * length, with zeros_like_func called once per initialised element
 * (nested DT_VARIANT elements are handled by the core, uninitialised ones
 * stay uninitialised). The callback owns `input` (a view, not to be
 * written) and `out` (allocated like input) and frees both with
 * TF_DeleteTensor. Output 0 is a new scalar DT_VARIANT tensor in host
 * memory owned by the runtime; errors go to `status` and to the kernel
 * context (an object of an unknown kind is INTERNAL). */
TF_CAPI_EXPORT extern void TF_ZerosLikeVariant(
    TF_OpKernelContext* ctx,
    void (*zeros_like_func)(TF_OpKernelContext* ctx, TF_Tensor* input,
                            TF_Tensor* out),
    TF_Status* status);

/* The coordination service agent of a multi-host job (opaque). */
typedef struct TF_CoordinationServiceAgent TF_CoordinationServiceAgent;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_KERNELS_EXPERIMENTAL_H_ */
