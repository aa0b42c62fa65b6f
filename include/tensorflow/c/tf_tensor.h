/* tfe: TF_Tensor, a dense n-dimensional array of one element type.
 *
 * Ownership: every TF_Tensor* returned by this header belongs to the caller,
 * who releases it with TF_DeleteTensor. Several tensors may share one data
 * buffer (see TF_TensorBitcastFrom); the buffer is freed when the last of
 * them is deleted. Non-string data is stored densely in row-major order.
 * A TF_STRING tensor holds one TF_TString (tf_tstring.h) per element. */
#ifndef TENSORFLOW_C_TF_TENSOR_H_
#define TENSORFLOW_C_TF_TENSOR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a kernel wants a tensor allocated (kernels.h). struct_size must be
 * set to TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE. */
typedef struct TF_AllocatorAttributes {
  size_t struct_size;
  /* 1 to place the allocation in host memory, 0 for the device's memory. */
  unsigned char on_host;
} TF_AllocatorAttributes;

#define TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE \
  TF_OFFSET_OF_END(TF_AllocatorAttributes, on_host)

typedef struct TF_Tensor TF_Tensor;

/* Wraps caller memory data[0, len) as a tensor of the given type and shape.
 *
 * The tensor takes over `data`: deallocator(data, len, deallocator_arg) is
 * called exactly once, when the tensor's buffer is released. If `data` is
 * not aligned to TF_TensorDefaultAlignment() bytes the contents are copied
 * into an aligned buffer and the deallocator runs before this returns.
 * Returns NULL (and still calls the deallocator once) when len is smaller
 * than the shape needs, a dimension is negative, the size overflows, or
 * memory runs out. A NULL deallocator means the caller keeps ownership. */
TF_CAPI_EXPORT extern TF_Tensor* TF_NewTensor(
    TF_DataType, const int64_t* dims, int num_dims, void* data, size_t len,
    void (*deallocator)(void* data, size_t len, void* arg),
    void* deallocator_arg);

/* Allocates a tensor with `len` bytes of storage aligned to
 * TF_TensorDefaultAlignment(). Contents are unspecified except for
 * TF_STRING tensors, whose elements start as empty strings and are freed
 * with the tensor (for TF_STRING a len smaller than the shape needs is
 * raised to that size). Returns NULL when len is too small for the shape of
 * a fixed-size type, a dimension is negative, the size overflows, or memory
 * runs out. The caller owns the result. */
TF_CAPI_EXPORT extern TF_Tensor* TF_AllocateTensor(TF_DataType,
                                                   const int64_t* dims,
                                                   int num_dims, size_t len);

/* If `tensor` is the only user of a buffer that the runtime allocated,
 * consumes `tensor` and returns a tensor with the same contents, which the
 * caller now owns. Otherwise returns NULL and leaves `tensor` untouched. */
TF_CAPI_EXPORT extern TF_Tensor* TF_TensorMaybeMove(TF_Tensor* tensor);

/* Frees the tensor, and its buffer when no other tensor shares it. NULL is
 * a harmless no-op. */
TF_CAPI_EXPORT extern void TF_DeleteTensor(TF_Tensor*);

/* Element type of the tensor. */
TF_CAPI_EXPORT extern TF_DataType TF_TensorType(const TF_Tensor*);

/* Number of dimensions (0 for a scalar). Returns -1 for NULL. */
TF_CAPI_EXPORT extern int TF_NumDims(const TF_Tensor*);

/* Size of dimension dim_index. Returns -1 when the index is out of range. */
TF_CAPI_EXPORT extern int64_t TF_Dim(const TF_Tensor* tensor, int dim_index);

/* Size of the data buffer in bytes. */
TF_CAPI_EXPORT extern size_t TF_TensorByteSize(const TF_Tensor*);

/* The data buffer. Owned by the tensor; valid until the tensor (and every
 * tensor sharing the buffer) is deleted. */
TF_CAPI_EXPORT extern void* TF_TensorData(const TF_Tensor*);

/* Product of the dimensions (1 for a scalar). Returns -1 for NULL. */
TF_CAPI_EXPORT extern int64_t TF_TensorElementCount(const TF_Tensor* tensor);

/* Makes `to` a view of the bytes of `from` with a new element type and
 * shape; afterwards both tensors share one buffer. The new type and shape
 * must cover exactly as many bytes as `from` holds and both types must have
 * a fixed size; otherwise *status is TF_INVALID_ARGUMENT and `to` is left as
 * it was. */
TF_CAPI_EXPORT extern void TF_TensorBitcastFrom(const TF_Tensor* from,
                                                TF_DataType type, TF_Tensor* to,
                                                const int64_t* new_dims,
                                                int num_new_dims,
                                                TF_Status* status);

/* True when the data pointer is aligned to TF_TensorDefaultAlignment(). */
TF_CAPI_EXPORT extern bool TF_TensorIsAligned(const TF_Tensor*);

/* The alignment in bytes that tfe gives the buffers it allocates (64). */
TF_CAPI_EXPORT extern size_t TF_TensorDefaultAlignment(void);

/* Changes the shape of the tensor in place. The new shape must describe no
 * more bytes than the buffer holds; a shape that does not fit, or a negative
 * dimension, leaves the tensor unchanged and logs a warning. */
TF_CAPI_EXPORT extern void TF_SetShape(TF_Tensor* tensor, const int64_t* dims,
                                       int num_dims);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_TF_TENSOR_H_ */
