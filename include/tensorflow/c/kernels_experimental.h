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
 * Reference variables (TensorFlow 1's Ref(T) args; docs/REF_VARIABLES.md):
 * a Ref(T) input of a kernel is a reference to a mutable tensor slot with
 * its own mutex, not a tensor. tfe runs ops with Ref args eagerly (an
 * extension: TensorFlow's Python eager mode refuses them), so plugins can
 * run and test such kernels. A Ref(T) output is set with
 * TF_OpKernelContext_ForwardRefInputToRefOutput or TF_TemporaryVariable,
 * never with TF_SetOutput / TF_AllocateOutput (INVALID_ARGUMENT). For a
 * reference input, TF_GetInput gives a new tensor sharing the reference's
 * current value (the caller deletes it; FAILED_PRECONDITION while
 * uninitialized) and TF_InputDatatype its base dtype. */
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

/* Assign through a reference, as TensorFlow's Assign kernel: output
 * `output_ref_index` (a Ref output) is set to reference input
 * `input_ref_index` first; then, under the reference's lock, input
 * `value_index` is copied in with copyFunc(ctx, source, dest) (both tensors
 * owned by the runtime, deleted after the call): into the existing buffer
 * when the element counts match (the value is reshaped to the new shape if
 * needed), else into a new buffer allocated where the value lives (the
 * kernel's device memory for a device value). With validate_shape, an
 * initialized reference of another shape is INVALID_ARGUMENT ("Assign
 * requires shapes of both tensors to match. lhs shape= [2] rhs shape=
 * [3]"). tfe always copies under the lock, whatever use_locking says.
 * INVALID_ARGUMENT for a NULL ctx or copyFunc, an index out of range, an
 * input that is not a reference or an output that is not a Ref output;
 * INTERNAL "Right hand side of AssignOp is not initialized" when the value
 * is an uninitialized reference; a failure of copyFunc is returned. The
 * caller owns nothing new. */
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
 * TF_ReleaseVariableInputLockHolder releases. A reference (Ref) input
 * locks the reference's mutex (after the variables, in address order);
 * other inputs are skipped. With sparse set, a variable whose buffer is
 * shared first gets a private copy (copyFunc). */
TF_CAPI_EXPORT extern void TF_MaybeLockVariableInputMutexesInOrder(
    TF_OpKernelContext* ctx, bool do_lock, bool sparse, const int* const inputs,
    size_t len,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source,
                     TF_Tensor* dest),
    TF_VariableInputLockHolder** lockHolder, TF_Status* status);

/* *out receives a tensor sharing the current value of the variable of
 * DT_RESOURCE input `input` (the caller deletes it); for a reference
 * (Ref) input, a tensor sharing the reference's current buffer (TF's
 * mutable_input: writes through it update the reference); any other input
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

/* Makes Ref output `output_index` the same reference as Ref input
 * `input_index` (RefIdentity, Assign). Nothing happens for a DT_RESOURCE
 * input, as in TensorFlow. There is no status: a bad index, an input that
 * is not a reference or an output that is not a Ref output fails the
 * kernel with INVALID_ARGUMENT (TF_OpKernelContext_Failure); a NULL ctx is
 * logged and ignored. */
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

/* Whether input i is a reference (a Ref(T) arg); OUT_OF_RANGE for a bad
 * index. */
TF_CAPI_EXPORT extern bool TF_IsRefInput(TF_OpKernelContext* ctx, int i,
                                         TF_Status* status);

/* TensorFlow 1 temporary variables (TemporaryVariable): makes a reference
 * holding a new tensor of dtype and dims, registers it in the eager
 * context under *var_name (the op's name when var_name is NULL or empty)
 * and sets output 0 (a Ref output) to it. plugin_allocator(ctx, dest,
 * dtype, dims, num_dims, status) receives an empty tensor `dest` (owned
 * by the runtime) and must give it a buffer of that dtype and shape,
 * typically TF_AllocateTemp then TF_TensorBitcastFrom(temp, dtype, dest,
 * dims, num_dims, status); the reference keeps dest's buffer. With a NULL
 * plugin_allocator tfe allocates in the kernel's device memory. The
 * reference lives until TF_DestroyTemporaryVariable (or the context) and
 * the last handle to it go. INVALID_ARGUMENT for a NULL ctx, a bad shape
 * or an op whose output 0 is not a Ref output; ALREADY_EXISTS when the
 * name is taken in this context; INTERNAL when plugin_allocator left dest
 * without a buffer of the right dtype and shape; its own failure is
 * returned. */
TF_CAPI_EXPORT extern void TF_TemporaryVariable(
    TF_OpKernelContext* ctx, TF_DataType dtype, const int64_t* dims,
    int num_dims, TF_StringView* var_name,
    void (*plugin_allocator)(TF_OpKernelContext*, TF_Tensor*, TF_DataType,
                             const int64_t*, int, TF_Status*),
    TF_Status* tf_status);

/* DestroyTemporaryVariable: sets output 0 to a tensor sharing the current
 * value of reference input `index` (owned by the runtime) and drops the
 * temporary variable registered under *var_name. INVALID_ARGUMENT for a
 * NULL ctx, a bad index, "lhs input needs to be a ref type" for a plain
 * input and "Missing var_name attribute" for a NULL or empty name;
 * FAILED_PRECONDITION for an uninitialized reference; NOT_FOUND when no
 * temporary variable has that name (output 0 is then set all the same, as
 * in TensorFlow). */
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
