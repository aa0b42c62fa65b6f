/* DLPack import and export of eager tensor handles
 * (tensorflow/c/eager/dlpack.h), built on the public TF_* / TFE_* API.
 *
 * Export: the handle is resolved to a TF_Tensor that shares its buffer;
 * the DLManagedTensor owns that TF_Tensor, and its deleter deletes it.
 *
 * Import: compact, 64-byte aligned data is wrapped with TF_NewTensor and a
 * deallocator that calls the producer's deleter; everything else is copied
 * into a new tensor and the deleter runs right away. Until a handle exists
 * the DLManagedTensor is never consumed, so every failure leaves it with
 * the caller. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/eager/dlpack.h"
#include "tfe/dlpack.h"

/* ------------------------------------------------------------------------
 * Element types. */

/* DLPack's description of dtype; 0 when DLPack has none. */
static int dl_dtype_of(TF_DataType dtype, DLDataType* out) {
  uint8_t code;
  switch (dtype) {
    case TF_BOOL:
      code = kDLBool;
      break;
    case TF_INT8:
    case TF_INT16:
    case TF_INT32:
    case TF_INT64:
      code = kDLInt;
      break;
    case TF_UINT8:
    case TF_UINT16:
    case TF_UINT32:
    case TF_UINT64:
      code = kDLUInt;
      break;
    case TF_HALF:
    case TF_FLOAT:
    case TF_DOUBLE:
      code = kDLFloat;
      break;
    case TF_BFLOAT16:
      code = kDLBfloat;
      break;
    case TF_COMPLEX64:
    case TF_COMPLEX128:
      code = kDLComplex;
      break;
    default:
      return 0;
  }
  out->code = code;
  out->bits = (uint8_t)(TF_DataTypeSize(dtype) * 8);
  out->lanes = 1;
  return 1;
}

/* TensorFlow's name of a dtype DLPack cannot carry, for messages. */
static const char* unsupported_dtype_name(TF_DataType dtype) {
  switch (dtype) {
    case TF_STRING: return "DT_STRING";
    case TF_RESOURCE: return "DT_RESOURCE";
    case TF_VARIANT: return "DT_VARIANT";
    case TF_QINT8: return "DT_QINT8";
    case TF_QUINT8: return "DT_QUINT8";
    case TF_QINT16: return "DT_QINT16";
    case TF_QUINT16: return "DT_QUINT16";
    case TF_QINT32: return "DT_QINT32";
    case TF_FLOAT8_E5M2: return "DT_FLOAT8_E5M2";
    case TF_FLOAT8_E4M3FN: return "DT_FLOAT8_E4M3FN";
    case TF_FLOAT8_E4M3FNUZ: return "DT_FLOAT8_E4M3FNUZ";
    case TF_FLOAT8_E4M3B11FNUZ: return "DT_FLOAT8_E4M3B11FNUZ";
    case TF_FLOAT8_E5M2FNUZ: return "DT_FLOAT8_E5M2FNUZ";
    case TF_INT4: return "DT_INT4";
    case TF_UINT4: return "DT_UINT4";
    case TF_INT2: return "DT_INT2";
    case TF_UINT2: return "DT_UINT2";
    case TF_FLOAT4_E2M1FN: return "DT_FLOAT4_E2M1FN";
    default: return "this dtype";
  }
}

/* The TF dtype for a DLPack element type; 0 with INVALID_ARGUMENT when
 * there is none. */
static int tf_dtype_of(DLDataType d, TF_DataType* out, TF_Status* status) {
  TF_DataType dt = (TF_DataType)0;
  if (d.lanes != 1) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_HandleFromDLPack: vector element types are not "
                    "supported (lanes = %u, must be 1)",
                    (unsigned)d.lanes);
    return 0;
  }
  switch (d.code) {
    case kDLBool:
      if (d.bits == 8) dt = TF_BOOL;
      break;
    case kDLInt:
      dt = d.bits == 8    ? TF_INT8
           : d.bits == 16 ? TF_INT16
           : d.bits == 32 ? TF_INT32
           : d.bits == 64 ? TF_INT64
                          : (TF_DataType)0;
      break;
    case kDLUInt:
      dt = d.bits == 8    ? TF_UINT8
           : d.bits == 16 ? TF_UINT16
           : d.bits == 32 ? TF_UINT32
           : d.bits == 64 ? TF_UINT64
                          : (TF_DataType)0;
      break;
    case kDLFloat:
      dt = d.bits == 16   ? TF_HALF
           : d.bits == 32 ? TF_FLOAT
           : d.bits == 64 ? TF_DOUBLE
                          : (TF_DataType)0;
      break;
    case kDLBfloat:
      if (d.bits == 16) dt = TF_BFLOAT16;
      break;
    case kDLComplex:
      dt = d.bits == 64    ? TF_COMPLEX64
           : d.bits == 128 ? TF_COMPLEX128
                           : (TF_DataType)0;
      break;
    default:
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TFE_HandleFromDLPack: unsupported DLPack type code %u",
                      (unsigned)d.code);
      return 0;
  }
  if (dt == (TF_DataType)0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_HandleFromDLPack: unsupported DLPack type: code %u "
                    "with %u bits",
                    (unsigned)d.code, (unsigned)d.bits);
    return 0;
  }
  *out = dt;
  return 1;
}

/* ------------------------------------------------------------------------
 * Devices. */

/* 1 when the handle's memory is on a CPU device; otherwise 0 with
 * INVALID_ARGUMENT (or the handle's own error). */
static int on_cpu(TFE_TensorHandle* h, const char* fn, TF_Status* status) {
  const char* name;
  const char* type;
  if (h == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s: handle is NULL", fn);
    return 0;
  }
  name = TFE_TensorHandleBackingDeviceName(h, status);
  if (!TFE_OK(status)) return 0;
  if (name == NULL) name = "";
  type = strstr(name, "device:");
  type = type != NULL ? type + strlen("device:") : name;
  if (strncmp(type, "CPU", 3) != 0 || (type[3] != ':' && type[3] != '\0')) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: tensors on device '%s' cannot be exchanged through "
                    "DLPack (tfe supports CPU memory only)",
                    fn, name);
    return 0;
  }
  return 1;
}

void* TFE_GetDLDevice(TFE_TensorHandle* h, TF_Status* status) {
  DLDevice* d;
  if (!on_cpu(h, "TFE_GetDLDevice", status)) return NULL;
  d = (DLDevice*)tfe_malloc(sizeof(*d));
  if (d == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_GetDLDevice: out of memory");
    return NULL;
  }
  /* Host memory is one address space: DLPack numbers it device 0 whatever
   * tfe's logical CPU device is. */
  d->device_type = kDLCPU;
  d->device_id = 0;
  tfe_status_ok(status);
  return d;
}

/* ------------------------------------------------------------------------
 * Export. */

/* One allocation per exported tensor: the struct the receiver sees, the
 * tensor that keeps the memory alive, and the shape and strides arrays. */
typedef struct export_ctx {
  DLManagedTensor managed;
  TF_Tensor* tensor;
  int64_t dims[]; /* ndim shape values, then ndim strides */
} export_ctx;

static void export_deleter(DLManagedTensor* self) {
  export_ctx* c;
  if (self == NULL) return;
  c = (export_ctx*)self->manager_ctx;
  TF_DeleteTensor(c->tensor);
  tfe_free(c);
}

void* TFE_HandleToDLPack(TFE_TensorHandle* h, TF_Status* status) {
  TF_DataType dtype;
  DLDataType dl_dtype;
  TF_Tensor* t;
  export_ctx* c;
  int nd, i;

  if (!on_cpu(h, "TFE_HandleToDLPack", status)) return NULL;
  dtype = TFE_TensorHandleDataType(h);
  if (!dl_dtype_of(dtype, &dl_dtype)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_HandleToDLPack: %s is not supported by DLPack",
                    unsupported_dtype_name(dtype));
    return NULL;
  }
  t = TFE_TensorHandleResolve(h, status); /* shares the handle's buffer */
  if (t == NULL) return NULL;
  nd = TF_NumDims(t);
  c = (export_ctx*)tfe_malloc(sizeof(export_ctx) +
                              2 * (size_t)nd * sizeof(int64_t));
  if (c == NULL) {
    TF_DeleteTensor(t);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_HandleToDLPack: out of memory");
    return NULL;
  }
  c->tensor = t;
  for (i = 0; i < nd; i++) c->dims[i] = TF_Dim(t, i);
  /* Compact row-major strides, written out (some consumers ignore NULL). */
  for (i = nd - 1; i >= 0; i--) {
    c->dims[nd + i] = i == nd - 1 ? 1 : c->dims[nd + i + 1] * c->dims[i + 1];
  }
  memset(&c->managed, 0, sizeof(c->managed));
  c->managed.dl_tensor.data = TF_TensorData(t);
  c->managed.dl_tensor.device.device_type = kDLCPU;
  c->managed.dl_tensor.device.device_id = 0;
  c->managed.dl_tensor.ndim = nd;
  c->managed.dl_tensor.dtype = dl_dtype;
  c->managed.dl_tensor.shape = c->dims;
  c->managed.dl_tensor.strides = c->dims + nd;
  c->managed.dl_tensor.byte_offset = 0;
  c->managed.manager_ctx = c;
  c->managed.deleter = export_deleter;
  tfe_status_ok(status);
  return &c->managed;
}

void TFE_CallDLManagedTensorDeleter(void* dlm_ptr) {
  DLManagedTensor* m = (DLManagedTensor*)dlm_ptr;
  if (m != NULL && m->deleter != NULL) m->deleter(m);
}

/* ------------------------------------------------------------------------
 * Import. */

/* 1 when elements laid out with `strides` sit where compact row-major
 * order puts them. Strides of size-1 dimensions do not matter, and an
 * empty tensor has no elements to misplace. The shape's element count is
 * known not to overflow. */
static int is_compact(const int64_t* shape, const int64_t* strides, int nd) {
  int64_t expected = 1;
  int i;
  for (i = nd - 1; i >= 0; i--) {
    if (shape[i] == 0) return 1;
    if (shape[i] != 1 && strides[i] != expected) return 0;
    expected *= shape[i];
  }
  return 1;
}

/* Element offset (in elements) of index idx[0..nd) under `strides`,
 * computed with wrap-around arithmetic (strides come from the producer). */
static int64_t strided_offset(const int64_t* idx, const int64_t* strides,
                              int nd) {
  uint64_t off = 0;
  int k;
  for (k = 0; k < nd; k++) off += (uint64_t)idx[k] * (uint64_t)strides[k];
  return (int64_t)off;
}

/* Gathers the n > 0 elements of a strided tensor into compact row-major
 * order at dst. */
static void strided_copy(char* dst, const char* src, const int64_t* shape,
                         const int64_t* strides, int nd, size_t esz) {
  int64_t idx[TFE_MAX_DIMS];
  int64_t inner, istride, j;
  int k;
  if (nd == 0) {
    memcpy(dst, src, esz);
    return;
  }
  memset(idx, 0, sizeof(int64_t) * (size_t)nd);
  inner = shape[nd - 1];
  istride = strides[nd - 1];
  for (;;) {
    const char* row = src + strided_offset(idx, strides, nd - 1) * (int64_t)esz;
    if (istride == 1) {
      memcpy(dst, row, (size_t)inner * esz);
      dst += (size_t)inner * esz;
    } else {
      for (j = 0; j < inner; j++) {
        memcpy(dst, row + (int64_t)((uint64_t)j * (uint64_t)istride) *
                              (int64_t)esz,
               esz);
        dst += esz;
      }
    }
    for (k = nd - 2; k >= 0; k--) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
    if (k < 0) return;
  }
}

/* Deallocator argument of a zero-copy import. While `armed` is 0 (during
 * TF_NewTensor, and when giving up after a failure) a call does nothing,
 * so a failure never consumes the DLManagedTensor. */
typedef struct import_owner {
  DLManagedTensor* dlm;
  int armed;
} import_owner;

static void import_release(void* data, size_t len, void* arg) {
  import_owner* o = (import_owner*)arg;
  (void)data, (void)len;
  if (!o->armed) return;
  TFE_CallDLManagedTensorDeleter(o->dlm);
  tfe_free(o);
}

static TFE_TensorHandle* new_handle(TFE_Context* ctx, TF_Tensor* t,
                                    TF_Status* status) {
  return ctx != NULL ? TFE_NewTensorHandleFromTensor(ctx, t, status)
                     : TFE_NewTensorHandle(t, status);
}

static TFE_TensorHandle* oom(TF_Status* status) {
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "TFE_HandleFromDLPack: out of memory");
  return NULL;
}

/* Wraps the producer's memory. Consumes dlm only on success. */
static TFE_TensorHandle* import_shared(DLManagedTensor* dlm, TF_DataType dtype,
                                       char* start, size_t bytes,
                                       TFE_Context* ctx, TF_Status* status) {
  const DLTensor* dl = &dlm->dl_tensor;
  import_owner* o = (import_owner*)tfe_malloc(sizeof(*o));
  TF_Tensor* t;
  TFE_TensorHandle* h;
  int copied;
  if (o == NULL) return oom(status);
  o->dlm = dlm;
  o->armed = 0;
  t = TF_NewTensor(dtype, dl->shape, dl->ndim, start, bytes, import_release, o);
  if (t == NULL) { /* the deallocator ran unarmed */
    tfe_free(o);
    return oom(status);
  }
  /* TF_NewTensor may have chosen to copy (it then released our pointer
   * already, unarmed); the producer's memory is then no longer needed. */
  copied = TF_TensorData(t) != (void*)start;
  if (!copied) o->armed = 1;
  h = new_handle(ctx, t, status);
  if (h == NULL) {
    o->armed = 0;
    TF_DeleteTensor(t);
    tfe_free(o);
    return NULL;
  }
  TF_DeleteTensor(t); /* the handle keeps the buffer */
  if (copied) {
    tfe_free(o);
    TFE_CallDLManagedTensorDeleter(dlm);
  }
  tfe_status_ok(status);
  return h;
}

/* Copies the elements into new memory. Consumes dlm only on success. */
static TFE_TensorHandle* import_copied(DLManagedTensor* dlm, TF_DataType dtype,
                                       const char* start, size_t bytes,
                                       int64_t n, size_t esz, int compact,
                                       TFE_Context* ctx, TF_Status* status) {
  const DLTensor* dl = &dlm->dl_tensor;
  TF_Tensor* t = TF_AllocateTensor(dtype, dl->shape, dl->ndim, bytes);
  TFE_TensorHandle* h;
  if (t == NULL) return oom(status);
  if (n > 0) {
    if (compact) {
      memcpy(TF_TensorData(t), start, bytes);
    } else {
      strided_copy((char*)TF_TensorData(t), start, dl->shape, dl->strides,
                   dl->ndim, esz);
    }
  }
  h = new_handle(ctx, t, status);
  TF_DeleteTensor(t);
  if (h == NULL) return NULL;
  TFE_CallDLManagedTensorDeleter(dlm);
  tfe_status_ok(status);
  return h;
}

TFE_TensorHandle* TFE_HandleFromDLPack(void* dlm, TF_Status* status,
                                       TFE_Context* ctx) {
  DLManagedTensor* m = (DLManagedTensor*)dlm;
  const DLTensor* dl;
  TF_DataType dtype;
  size_t esz, bytes = 0;
  int64_t n = 1;
  int i, compact;
  char* start = NULL;

  if (m == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_HandleFromDLPack: dlm is NULL");
    return NULL;
  }
  dl = &m->dl_tensor;
  if (dl->device.device_type != kDLCPU) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_HandleFromDLPack: DLPack device type %d is not "
                    "supported (tfe accepts kDLCPU memory only)",
                    (int)dl->device.device_type);
    return NULL;
  }
  if (!tf_dtype_of(dl->dtype, &dtype, status)) return NULL;
  esz = TF_DataTypeSize(dtype);
  if (dl->ndim < 0 || dl->ndim > TFE_MAX_DIMS) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_HandleFromDLPack: ndim %d is out of range [0, %d]",
                    (int)dl->ndim, TFE_MAX_DIMS);
    return NULL;
  }
  if (dl->ndim > 0 && dl->shape == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_HandleFromDLPack: shape is NULL for ndim %d",
                    (int)dl->ndim);
    return NULL;
  }
  for (i = 0; i < dl->ndim; i++) {
    if (dl->shape[i] < 0) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TFE_HandleFromDLPack: dimension %d is negative "
                      "(%lld)",
                      i, (long long)dl->shape[i]);
      return NULL;
    }
  }
  n = tfe_shape_num_elements(dl->shape, dl->ndim);
  if (n < 0 || !tfe_mul_size((size_t)n, esz, &bytes) ||
      bytes > (size_t)INT64_MAX) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_HandleFromDLPack: the tensor's size overflows");
    return NULL;
  }
  if (n > 0) {
    if (dl->data == NULL) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TFE_HandleFromDLPack: data is NULL for a tensor of "
                      "%lld elements",
                      (long long)n);
      return NULL;
    }
    start = (char*)dl->data + dl->byte_offset;
  }
  compact = dl->strides == NULL || is_compact(dl->shape, dl->strides, dl->ndim);
  if (n > 0 && compact && (uintptr_t)start % TFE_ALIGNMENT == 0) {
    return import_shared(m, dtype, start, bytes, ctx, status);
  }
  return import_copied(m, dtype, start, bytes, n, esz, compact, ctx, status);
}

/* ------------------------------------------------------------------------
 * TensorFlow's header declares these four functions as C++ functions in
 * namespace tensorflow, so a C++ program compiled against it refers to
 * them by their mangled names (TF_Status is TSL_Status, hence the TSL in
 * the names). The same functions are exported under those names too, as
 * aliases of the C ones. (TensorFlow's own binaries export three of them;
 * tfe adds TFE_GetDLDevice.) */
#if defined(__GNUC__) && defined(__ELF__)
#define TFE_CXX_ALIAS(target, mangled) \
  __asm__(mangled) __attribute__((alias(#target), visibility("default")))

void* tfe_cxx_TFE_GetDLDevice(TFE_TensorHandle* h, TF_Status* status)
    TFE_CXX_ALIAS(TFE_GetDLDevice,
                  "_ZN10tensorflow15TFE_GetDLDeviceEP16TFE_TensorHandleP10"
                  "TSL_Status");
void* tfe_cxx_TFE_HandleToDLPack(TFE_TensorHandle* h, TF_Status* status)
    TFE_CXX_ALIAS(TFE_HandleToDLPack,
                  "_ZN10tensorflow18TFE_HandleToDLPackEP16TFE_TensorHandleP10"
                  "TSL_Status");
TFE_TensorHandle* tfe_cxx_TFE_HandleFromDLPack(void* dlm, TF_Status* status,
                                               TFE_Context* ctx)
    TFE_CXX_ALIAS(TFE_HandleFromDLPack,
                  "_ZN10tensorflow20TFE_HandleFromDLPackEPvP10TSL_Status"
                  "P11TFE_Context");
void tfe_cxx_TFE_CallDLManagedTensorDeleter(void* dlm_ptr)
    TFE_CXX_ALIAS(TFE_CallDLManagedTensorDeleter,
                  "_ZN10tensorflow30TFE_CallDLManagedTensorDeleterEPv");
#endif
