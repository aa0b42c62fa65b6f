/* tfe: the DLPack data structures, for C users of
 * tensorflow/c/eager/dlpack.h.
 *
 * DLPack is the common in-memory tensor description that array libraries
 * (NumPy, PyTorch, JAX, CuPy, ...) exchange without copying. TensorFlow's
 * dlpack.h passes these structures as `void*` and declares no types; this
 * header defines them with the binary layout of DLPack v0.8 (the version
 * TensorFlow uses), so C code can fill in or read a DLManagedTensor.
 *
 * The layout of DLDevice, DLDataType, DLTensor and DLManagedTensor is the
 * same in every DLPack release from v0.6 on, including v1.x. If the
 * official <dlpack/dlpack.h> is included first, its definitions are used
 * and the ones below are skipped; if this header comes first, it defines
 * the official header's include guard, so a later #include of
 * <dlpack/dlpack.h> adds nothing. Include the official header first when
 * you need its v1 additions (DLManagedTensorVersioned and friends).
 *
 * Ownership protocol (the part every DLPack user must get right):
 *   - A producer hands out a DLManagedTensor*. The receiver owns it and
 *     must call its `deleter(self)` exactly once when done with the data
 *     (TFE_CallDLManagedTensorDeleter does that, tolerating a NULL
 *     deleter). After the deleter ran, neither the struct nor the data may
 *     be touched.
 *   - `manager_ctx` belongs to the producer; receivers leave it alone. */
#ifndef TFE_DLPACK_H_
#define TFE_DLPACK_H_

#include <stddef.h>
#include <stdint.h>

/* Python capsule names used by the DLPack exchange protocol: a producer's
 * capsule is named "dltensor"; a consumer that takes ownership renames it
 * to "used_dltensor" so the capsule's destructor knows not to call the
 * deleter. */
#define TFE_DLPACK_CAPSULE_NAME "dltensor"
#define TFE_DLPACK_USED_CAPSULE_NAME "used_dltensor"

#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

/* The DLPack version these definitions follow (0.8) and its ABI number. */
#define DLPACK_VERSION 80
#define DLPACK_ABI_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of device a tensor's memory may live on. tfe produces and accepts
 * kDLCPU only. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,          /* host memory */
  kDLCUDA = 2,         /* CUDA device memory */
  kDLCUDAHost = 3,     /* pinned host memory allocated through CUDA */
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,        /* ROCm (AMD) device memory */
  kDLROCMHost = 11,    /* pinned host memory allocated through ROCm */
  kDLExtDev = 12,      /* reserved for extension devices */
  kDLCUDAManaged = 13, /* CUDA unified (managed) memory */
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16
} DLDeviceType;

/* A device: its kind and its index among devices of that kind. */
typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/* Element type families (the `code` of DLDataType). */
typedef enum {
  kDLInt = 0U,          /* signed integer */
  kDLUInt = 1U,         /* unsigned integer */
  kDLFloat = 2U,        /* IEEE floating point */
  kDLOpaqueHandle = 3U, /* opaque pointer-sized values */
  kDLBfloat = 4U,       /* bfloat16 */
  kDLComplex = 5U,      /* complex: two floats of bits/2 each */
  kDLBool = 6U          /* boolean (bits 8: one byte per value) */
} DLDataTypeCode;

/* An element type: family, bits per lane, and lanes per element (1 for
 * every scalar type; more for vector types, which tfe rejects). */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/* A strided view of memory. Element (i0, ..., in-1) starts at byte
 *   (char*)data + byte_offset + (i0*strides[0] + ...) * (bits*lanes/8)
 * Strides count elements, not bytes. A NULL `strides` means compact
 * row-major order. `shape` and `strides` point to ndim values owned by
 * whoever owns the tensor. */
typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/* A DLTensor together with the means to release it: the receiver calls
 * deleter(self) exactly once (see the ownership protocol above). */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

#ifdef __cplusplus
}
#endif

#endif /* DLPACK_DLPACK_H_ */

#endif /* TFE_DLPACK_H_ */
