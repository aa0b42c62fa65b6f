/* Tensor handles: creation, reference counting, queries, resolve, copies,
 * device memory. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "devices/pluggable_device.h"
#include "eager/custom_device.h"
#include "eager/eager_internal.h"
#include "eager/executor.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"
#include "tensorflow/c/logging.h"
#include "tensorflow/c/tf_tstring.h"

/* ------------------------------------------------------------------------
 * Lifetime. */

static TFE_TensorHandle* handle_alloc(TFE_Context* ctx, TF_DataType dtype,
                                      const tfe_device* device,
                                      const tfe_device* backing) {
  TFE_TensorHandle* h = (TFE_TensorHandle*)tfe_malloc(sizeof(*h));
  if (h == NULL) return NULL;
  h->magic = TFE_HANDLE_MAGIC;
  atomic_init(&h->refs, 1);
  atomic_init(&h->state, TFE_HANDLE_READY);
  h->dtype = dtype;
  h->ctx = ctx;
  h->device = device;
  h->backing = backing;
  h->t = NULL;
  h->error_code = TF_OK;
  h->error_msg = NULL;
  h->storage.buf = NULL;
  h->storage.dims = h->storage.dims_inline;
  h->storage.num_dims = 0;
  h->custom = NULL;
  h->is_ref = 0;
  h->ref = NULL;
  if (ctx != NULL) tfe_ctx_ref(ctx);
  tfe_count_inc(TFE_OBJ_TENSOR_HANDLE);
  return h;
}

TFE_TensorHandle* tfe_handle_adopt(TFE_Context* ctx, TF_Tensor* t,
                                   const tfe_device* device) {
  TFE_TensorHandle* h = handle_alloc(ctx, t->dtype, device, device);
  if (h == NULL) {
    TF_DeleteTensor(t);
    return NULL;
  }
  h->t = t;
  return h;
}

TFE_TensorHandle* tfe_handle_share(TFE_Context* ctx, const TF_Tensor* t,
                                   const tfe_device* device,
                                   const tfe_device* backing) {
  TFE_TensorHandle* h = handle_alloc(ctx, t->dtype, device, backing);
  if (h == NULL) return NULL;
  h->storage.dtype = t->dtype;
  if (!tfe_tensor_set_dims(&h->storage, t->dims, t->num_dims)) {
    tfe_handle_unref(h);
    return NULL;
  }
  h->storage.buf = t->buf;
  tfe_buffer_ref(t->buf);
  h->t = &h->storage;
  return h;
}

TFE_TensorHandle* tfe_handle_new_custom(TFE_Context* ctx, TF_DataType dtype,
                                        const tfe_device* device,
                                        struct tfe_custom_payload* p) {
  TFE_TensorHandle* h = handle_alloc(ctx, dtype, device, device);
  if (h == NULL) return NULL;
  h->custom = p;
  return h;
}

TFE_TensorHandle* tfe_handle_new_ref(TFE_Context* ctx, TF_DataType dtype,
                                     const tfe_device* device,
                                     struct tfe_ref_cell* cell) {
  TFE_TensorHandle* h = handle_alloc(ctx, dtype, device, device);
  if (h == NULL) return NULL;
  h->is_ref = 1;
  h->ref = cell;
  tfe_ref_cell_ref(cell);
  return h;
}

void tfe_handle_ref(TFE_TensorHandle* h) {
  atomic_fetch_add_explicit(&h->refs, 1, memory_order_relaxed);
}

void tfe_handle_unref(TFE_TensorHandle* h) {
  TFE_Context* ctx;
  if (atomic_fetch_sub_explicit(&h->refs, 1, memory_order_acq_rel) != 1) {
    return;
  }
  if (h->t == &h->storage) {
    tfe_buffer_unref(h->storage.buf);
  } else if (h->t != NULL) {
    TF_DeleteTensor(h->t);
  }
  if (h->storage.dims != h->storage.dims_inline) tfe_free(h->storage.dims);
  if (h->custom != NULL) tfe_custom_payload_unref(h->custom);
  tfe_ref_cell_unref(h->ref);
  tfe_free(h->error_msg);
  ctx = h->ctx;
  h->magic = TFE_DEAD_MAGIC;
  tfe_free(h);
  tfe_count_dec(TFE_OBJ_TENSOR_HANDLE);
  if (ctx != NULL) tfe_ctx_unref(ctx);
}

int tfe_handle_check(const TFE_TensorHandle* h, const char* fn, TF_Status* s) {
  if (h == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: Invalid handle (NULL)", fn);
    return 0;
  }
  if (h->magic != TFE_HANDLE_MAGIC) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: the argument is not a live TFE_TensorHandle", fn);
    return 0;
  }
  return 1;
}

int tfe_handle_ready(TFE_TensorHandle* h, TF_Status* s) {
  int st = atomic_load_explicit(&h->state, memory_order_acquire);
  if (st == TFE_HANDLE_READY) return 1;
  /* Produced by an op queued on an asynchronous executor: wait for it. */
  if (st == TFE_HANDLE_PENDING) st = tfe_handle_wait(h);
  if (st == TFE_HANDLE_READY) return 1;
  if (st == TFE_HANDLE_ERROR) {
    tfe_status_setf(s, h->error_code, "%s",
                    h->error_msg != NULL ? h->error_msg : "");
  } else {
    tfe_status_setf(s, TF_UNAVAILABLE,
                    "the tensor handle is not ready (pending execution)");
  }
  return 0;
}

/* Argument check of the TFE_TensorHandle* functions: a NULL handle gets
 * exactly TF's message, "Invalid handle" (TF's own tests compare it); a
 * pointer that is not a live handle gets tfe_handle_check's message. */
static int handle_arg(const TFE_TensorHandle* h, const char* fn,
                      TF_Status* s) {
  if (h == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Invalid handle");
    return 0;
  }
  return tfe_handle_check(h, fn, s);
}

void tfe_handle_consume(TFE_TensorHandle* h, const char* op_name,
                        int input) {
  char msg[320];
  snprintf(msg, sizeof(msg),
           "input #%d of %s was consumed by an earlier execution: its only "
           "holder was the op, so the kernel reused its buffer for an "
           "output (TF's input forwarding); add the input again to run the "
           "op anew",
           input, op_name != NULL ? op_name : "the op");
  /* Only the executing op (or node) holds h: nobody reads these fields
   * concurrently. */
  tfe_free(h->error_msg);
  h->error_msg = tfe_strdup(msg);
  h->error_code = TF_FAILED_PRECONDITION;
  atomic_store_explicit(&h->state, TFE_HANDLE_ERROR, memory_order_release);
}

/* Checks and waits for the value; 1 when h->t may be read (or, for a
 * reference handle, h->ref). */
static int readable(TFE_TensorHandle* h, const char* fn, TF_Status* s) {
  return handle_arg(h, fn, s) && tfe_handle_ready(h, s);
}

/* The tensor a READY, non-custom handle stands for: h->t, or for a
 * reference handle a view of the cell's current value stored in *view
 * (the caller deletes it; NULL otherwise). NULL with the status set when
 * the reference is uninitialized. */
static const TF_Tensor* value_of(TFE_TensorHandle* h, TF_Tensor** view,
                                 TF_Status* s) {
  *view = NULL;
  if (h->ref == NULL) return h->t;
  *view = tfe_ref_cell_read(h->ref, 0, s);
  return *view;
}

/* The device holding t's memory for handle h (a reference's value may be
 * in host memory on a device). */
static const tfe_device* backing_of(const TFE_TensorHandle* h,
                                    const TF_Tensor* t) {
  if (h->ref != NULL && tfe_tensor_in_host_memory(t) &&
      !h->backing->is_host) {
    return tfe_host_cpu_device();
  }
  return h->backing;
}

/* ------------------------------------------------------------------------
 * Creation through the API. */

TFE_TensorHandle* TFE_NewTensorHandle(const TF_Tensor* t, TF_Status* status) {
  TFE_TensorHandle* h;
  const tfe_device* cpu;
  if (t == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewTensorHandle: tensor is NULL");
    return NULL;
  }
  cpu = tfe_host_cpu_device();
  h = tfe_handle_share(NULL, t, cpu, cpu);
  if (h == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_NewTensorHandle: out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return h;
}

/* TF's C++-only overload TFE_NewTensorHandle(const tensorflow::Tensor&,
 * TF_Status*), exported under its C++ name so that C++ code written for TF
 * links. tfe has no tensorflow::Tensor: it always fails. */
#if defined(__GNUC__) && defined(__ELF__)
TFE_TensorHandle* tfe_cxx_new_tensor_handle_from_cxx_tensor(
    const void* tensor, TF_Status* status)
    __asm__("_Z19TFE_NewTensorHandleRKN10tensorflow6TensorEP10TSL_Status")
        __attribute__((visibility("default")));
TFE_TensorHandle* tfe_cxx_new_tensor_handle_from_cxx_tensor(
    const void* tensor, TF_Status* status) {
  (void)tensor;
  tfe_status_setf(status, TF_UNIMPLEMENTED,
                  "TFE_NewTensorHandle(const tensorflow::Tensor&) is not "
                  "implemented in tfe (it has no C++ tensorflow::Tensor); use "
                  "TFE_NewTensorHandle(const TF_Tensor*, TF_Status*)");
  return NULL;
}
#endif

TFE_TensorHandle* TFE_NewTensorHandleFromTensor(TFE_Context* ctx, TF_Tensor* t,
                                                TF_Status* status) {
  TFE_TensorHandle* h;
  if (!tfe_ctx_check(ctx, "TFE_NewTensorHandleFromTensor", status)) {
    return NULL;
  }
  if (t == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewTensorHandleFromTensor: tensor is NULL");
    return NULL;
  }
  h = tfe_handle_share(ctx, t, ctx->devices[0], ctx->devices[0]);
  if (h == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_NewTensorHandleFromTensor: out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return h;
}

void TFE_DeleteTensorHandle(TFE_TensorHandle* h) {
  if (h == NULL || h->magic != TFE_HANDLE_MAGIC) return;
  tfe_handle_unref(h);
}

/* ------------------------------------------------------------------------
 * Queries. */

TF_DataType TFE_TensorHandleDataType(TFE_TensorHandle* h) {
  if (h == NULL || h->magic != TFE_HANDLE_MAGIC) return (TF_DataType)0;
  return h->dtype;
}

int TFE_TensorHandleNumDims(TFE_TensorHandle* h, TF_Status* status) {
  const TF_Tensor* t;
  TF_Tensor* view;
  int n;
  if (!readable(h, "TFE_TensorHandleNumDims", status)) return -1;
  if (h->custom != NULL) return tfe_custom_handle_num_dims(h, status);
  if ((t = value_of(h, &view, status)) == NULL) return -1;
  n = t->num_dims;
  TF_DeleteTensor(view);
  tfe_status_ok(status);
  return n;
}

int64_t TFE_TensorHandleNumElements(TFE_TensorHandle* h, TF_Status* status) {
  const TF_Tensor* t;
  TF_Tensor* view;
  int64_t n;
  if (!readable(h, "TFE_TensorHandleNumElements", status)) return -1;
  if (h->custom != NULL) return tfe_custom_handle_num_elements(h, status);
  if ((t = value_of(h, &view, status)) == NULL) return -1;
  n = tfe_shape_num_elements(t->dims, t->num_dims);
  TF_DeleteTensor(view);
  tfe_status_ok(status);
  return n;
}

int64_t TFE_TensorHandleDim(TFE_TensorHandle* h, int dim_index,
                            TF_Status* status) {
  const TF_Tensor* t;
  TF_Tensor* view;
  int64_t d = -1;
  if (!readable(h, "TFE_TensorHandleDim", status)) return -1;
  if (h->custom != NULL) return tfe_custom_handle_dim(h, dim_index, status);
  if ((t = value_of(h, &view, status)) == NULL) return -1;
  if (dim_index < 0 || dim_index >= t->num_dims) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_TensorHandleDim: dimension %d is out of range for a "
                    "tensor of rank %d",
                    dim_index, t->num_dims);
  } else {
    d = t->dims[dim_index];
    tfe_status_ok(status);
  }
  TF_DeleteTensor(view);
  return d;
}

const char* TFE_TensorHandleDeviceName(TFE_TensorHandle* h,
                                       TF_Status* status) {
  if (!handle_arg(h, "TFE_TensorHandleDeviceName", status)) return NULL;
  tfe_status_ok(status);
  return h->device->name;
}

const char* TFE_TensorHandleBackingDeviceName(TFE_TensorHandle* h,
                                              TF_Status* status) {
  if (!handle_arg(h, "TFE_TensorHandleBackingDeviceName", status)) {
    return NULL;
  }
  tfe_status_ok(status);
  return h->backing->name;
}

const char* TFE_TensorHandleDeviceType(TFE_TensorHandle* h,
                                       TF_Status* status) {
  if (!handle_arg(h, "TFE_TensorHandleDeviceType", status)) return NULL;
  tfe_status_ok(status);
  return h->device->type;
}

int TFE_TensorHandleDeviceID(TFE_TensorHandle* h, TF_Status* status) {
  if (!handle_arg(h, "TFE_TensorHandleDeviceID", status)) return -1;
  tfe_status_ok(status);
  return h->device->id;
}

void TFE_TensorHandleGetStatus(TFE_TensorHandle* h, TF_Status* status) {
  if (!handle_arg(h, "TFE_TensorHandleGetStatus", status)) return;
  if (atomic_load(&h->state) == TFE_HANDLE_ERROR) {
    tfe_handle_ready(h, status);
    return;
  }
  tfe_status_ok(status);
}

/* ------------------------------------------------------------------------
 * Values. */

/* A reference's value is copied, so that later updates of the reference
 * do not change what the caller got. */
static TF_Tensor* resolve_ref(TFE_TensorHandle* h, TF_Status* status) {
  TF_Tensor *view, *t;
  if ((view = tfe_ref_cell_read(h->ref, 0, status)) == NULL) return NULL;
  if (!tfe_tensor_in_host_memory(view)) {
    t = tfe_device_copy_tensor(view, backing_of(h, view),
                               tfe_host_cpu_device(), status);
    TF_DeleteTensor(view);
    return t;
  }
  t = tfe_tensor_deep_copy(view);
  TF_DeleteTensor(view);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_TensorHandleResolve: out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return t;
}

TF_Tensor* TFE_TensorHandleResolve(TFE_TensorHandle* h, TF_Status* status) {
  TF_Tensor* t;
  if (!readable(h, "TFE_TensorHandleResolve", status)) return NULL;
  if (h->custom != NULL) return tfe_custom_handle_resolve(h, status);
  if (h->ref != NULL) return resolve_ref(h, status);
  if (!tfe_tensor_in_host_memory(h->t)) {
    /* Device memory: a host copy (device.h's memory hooks). */
    return tfe_device_copy_tensor(h->t, h->backing, tfe_host_cpu_device(),
                                  status);
  }
  /* Host memory: a new tensor object over the same buffer. */
  t = tfe_tensor_from_buffer(h->t->dtype, h->t->dims, h->t->num_dims,
                             h->t->buf);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_TensorHandleResolve: out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return t;
}

TFE_TensorHandle* TFE_TensorHandleCopySharingTensor(TFE_TensorHandle* h,
                                                    TF_Status* status) {
  TFE_TensorHandle* c;
  if (!readable(h, "TFE_TensorHandleCopySharingTensor", status)) return NULL;
  if (h->custom != NULL) return tfe_custom_handle_share(h, status);
  if (h->ref != NULL) {
    /* The copy refers to the same reference. */
    c = tfe_handle_new_ref(h->ctx, h->dtype, h->device, h->ref);
  } else {
    c = tfe_handle_share(h->ctx, h->t, h->device, h->backing);
  }
  if (c == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_TensorHandleCopySharingTensor: out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return c;
}

/* Wraps t, a copy made for TFE_TensorHandleCopyToDevice, in a new handle
 * on dst. t NULL means the copy failed (status already set). */
static TFE_TensorHandle* adopt_copy(TFE_Context* ctx, TF_Tensor* t,
                                    const tfe_device* dst,
                                    TF_Status* status) {
  TFE_TensorHandle* c;
  if (t == NULL) return NULL;
  c = tfe_handle_adopt(ctx, t, dst);
  if (c == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_TensorHandleCopyToDevice: out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return c;
}

TFE_TensorHandle* TFE_TensorHandleCopyToDevice(TFE_TensorHandle* h,
                                               TFE_Context* ctx,
                                               const char* device_name,
                                               TF_Status* status) {
  tfe_device_spec spec;
  const tfe_device* dst;
  TFE_TensorHandle* c;
  if (!readable(h, "TFE_TensorHandleCopyToDevice", status)) return NULL;
  if (!tfe_ctx_check(ctx, "TFE_TensorHandleCopyToDevice", status)) return NULL;
  /* As in TF, no name (NULL or "") means the host CPU, and a name that
   * names no device, malformed or not, is "<name> unknown device.". */
  if (device_name == NULL) device_name = "";
  if (!tfe_device_spec_parse(device_name, &spec)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s unknown device.",
                    device_name);
    return NULL;
  }
  /* Copies to or from a custom device go through its callbacks. */
  if (h->custom != NULL ||
      atomic_load_explicit(&ctx->num_custom, memory_order_acquire) > 0) {
    int handled = 0;
    c = tfe_custom_copy(h, ctx, device_name, &spec, &handled, status);
    if (handled) return c;
  }
  dst = tfe_device_spec_is_empty(&spec) ? ctx->devices[0]
                                         : tfe_ctx_find_device(ctx, &spec);
  if (dst == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s unknown device.",
                    device_name);
    return NULL;
  }
  if (h->ref != NULL) {
    /* A reference: a plain handle holding a copy of its current value
     * (a host value is copied too, so that later updates of the reference
     * do not show through). */
    TF_Tensor* view = tfe_ref_cell_read(h->ref, 0, status);
    TF_Tensor* t;
    if (view == NULL) return NULL;
    if (tfe_tensor_in_host_memory(view) && dst->is_host) {
      t = tfe_tensor_deep_copy(view);
      if (t == NULL) {
        tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                        "TFE_TensorHandleCopyToDevice: out of memory");
      }
    } else {
      t = tfe_device_copy_tensor(view, backing_of(h, view), dst, status);
    }
    TF_DeleteTensor(view);
    return adopt_copy(ctx, t, dst, status);
  }
  if (!tfe_tensor_in_host_memory(h->t) || !dst->is_host) {
    /* Into or out of device memory: copy through the device's hooks. */
    return adopt_copy(
        ctx, tfe_device_copy_tensor(h->t, h->backing, dst, status), dst,
        status);
  }
  /* Host devices share memory: the copy shares the buffer. */
  c = tfe_handle_share(ctx, h->t, dst, dst);
  if (c == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_TensorHandleCopyToDevice: out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return c;
}

/* ------------------------------------------------------------------------
 * Device memory. */

/* Bytes of the tensor's elements (TF's TotalBytes). */
static size_t tensor_bytes(const TF_Tensor* t) {
  int64_t n = tfe_shape_num_elements(t->dims, t->num_dims);
  size_t esz = t->dtype == TF_STRING ? sizeof(TF_TString)
                                     : TF_DataTypeSize(t->dtype);
  size_t out = 0;
  if (n < 0 || !tfe_mul_size((size_t)n, esz, &out)) return 0;
  return out;
}

void* TFE_TensorHandleDevicePointer(TFE_TensorHandle* h, TF_Status* status) {
  void* p;
  TF_Tensor* view;
  const TF_Tensor* t;
  if (!readable(h, "TFE_TensorHandleDevicePointer", status)) return NULL;
  tfe_status_ok(status);
  if (h->custom != NULL) return h->custom->data;
  /* For a reference: the current value's memory, valid until the value is
   * replaced (docs/REF_VARIABLES.md). */
  if ((t = value_of(h, &view, status)) == NULL) return NULL;
  p = t->buf != NULL ? t->buf->data : NULL;
  TF_DeleteTensor(view);
  return p;
}

size_t TFE_TensorHandleDeviceMemorySize(TFE_TensorHandle* h,
                                        TF_Status* status) {
  if (!readable(h, "TFE_TensorHandleDeviceMemorySize", status)) return 0;
  if (h->custom != NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_TensorHandleDeviceMemorySize may not be called on a "
                    "custom device tensor handle (device %s)",
                    h->device->name);
    return 0;
  }
  {
    TF_Tensor* view;
    const TF_Tensor* t = value_of(h, &view, status);
    size_t n;
    if (t == NULL) return 0;
    n = tensor_bytes(t);
    TF_DeleteTensor(view);
    tfe_status_ok(status);
    return n;
  }
}

TFE_TensorHandle* TFE_NewTensorHandleFromDeviceMemory(
    TFE_Context* ctx, const char* device_name, TF_DataType dtype,
    const int64_t* dims, int num_dims, void* data, size_t len,
    void (*deallocator)(void* data, size_t len, void* arg),
    void* deallocator_arg, TF_Status* status) {
  tfe_device_spec spec;
  const tfe_device* dev = NULL;
  tfe_tensor_buffer* buf;
  TF_Tensor* t;
  TFE_TensorHandle* h;
  int64_t n;
  size_t esz, need = 0;

  if (!tfe_ctx_check(ctx, "TFE_NewTensorHandleFromDeviceMemory", status)) {
    goto fail_quiet;
  }
  if (device_name == NULL || !tfe_device_spec_parse(device_name, &spec) ||
      (dev = tfe_ctx_find_device(ctx, &spec)) == NULL) {
    /* TF's words (its tests compare them). */
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s unknown device.",
                    device_name == NULL ? "(null)" : device_name);
    goto fail_quiet;
  }
  if (num_dims < 0 || num_dims > TFE_MAX_DIMS ||
      (num_dims > 0 && dims == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewTensorHandleFromDeviceMemory: invalid rank %d",
                    num_dims);
    goto fail_quiet;
  }
  n = tfe_shape_num_elements(dims, num_dims);
  esz = dtype == TF_STRING ? sizeof(TF_TString) : TF_DataTypeSize(dtype);
  if (n < 0 || esz == 0 || !tfe_mul_size((size_t)n, esz, &need)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewTensorHandleFromDeviceMemory: invalid shape or "
                    "dtype %d",
                    (int)dtype);
    goto fail_quiet;
  }
  if (len < need || (data == NULL && need > 0)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewTensorHandleFromDeviceMemory: %zu bytes given, "
                    "the shape needs %zu",
                    len, need);
    goto fail_quiet;
  }
  if (tfe_pdev_of_device(dev) != NULL) {
    /* Memory of a PluggableDevice: the plugin's block, never read by the
     * core. */
    t = tfe_pdev_wrap_memory(tfe_pdev_of_device(dev), dtype, dims, num_dims,
                             data, len, deallocator, deallocator_arg, status);
    if (t == NULL) return NULL;
    h = tfe_handle_adopt(ctx, t, dev);
    if (h == NULL) goto oom_released;
    tfe_status_ok(status);
    return h;
  }
  buf = (tfe_tensor_buffer*)tfe_calloc(1, sizeof(*buf));
  if (buf == NULL) goto oom;
  atomic_init(&buf->refcount, 1);
  buf->data = data;
  buf->len = len;
  buf->dealloc = deallocator;
  buf->dealloc_arg = deallocator_arg;
  tfe_count_inc(TFE_OBJ_TENSOR_BUFFER);
  t = tfe_tensor_from_buffer(dtype, dims, num_dims, buf);
  tfe_buffer_unref(buf); /* runs the deallocator when t failed */
  if (t == NULL) goto oom_released;
  h = tfe_handle_adopt(ctx, t, dev);
  if (h == NULL) goto oom_released;
  tfe_status_ok(status);
  return h;

oom:
  if (deallocator != NULL) deallocator(data, len, deallocator_arg);
oom_released:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "TFE_NewTensorHandleFromDeviceMemory: out of memory");
  return NULL;
fail_quiet:
  if (deallocator != NULL) deallocator(data, len, deallocator_arg);
  return NULL;
}

TF_Tensor* TFE_AllocateHostTensor(TFE_Context* ctx, TF_DataType dtype,
                                  const int64_t* dims, int num_dims,
                                  TF_Status* status) {
  int64_t n;
  size_t esz, bytes = 0;
  TF_Tensor* t;
  if (!tfe_ctx_check(ctx, "TFE_AllocateHostTensor", status)) return NULL;
  if (num_dims < 0 || num_dims > TFE_MAX_DIMS ||
      (num_dims > 0 && dims == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_AllocateHostTensor: invalid rank %d", num_dims);
    return NULL;
  }
  n = tfe_shape_num_elements(dims, num_dims);
  if (n < 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_AllocateHostTensor: dimensions must be >= 0");
    return NULL;
  }
  esz = dtype == TF_STRING ? sizeof(TF_TString) : TF_DataTypeSize(dtype);
  if (esz == 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_AllocateHostTensor: cannot allocate dtype %d",
                    (int)dtype);
    return NULL;
  }
  if (!tfe_mul_size((size_t)n, esz, &bytes)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_AllocateHostTensor: tensor too large");
    return NULL;
  }
  t = TF_AllocateTensor(dtype, dims, num_dims, bytes);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_AllocateHostTensor: out of memory (%zu bytes)",
                    bytes);
    return NULL;
  }
  tfe_status_ok(status);
  return t;
}

/* ------------------------------------------------------------------------
 * Debug info: for host tensors the on-device shape is the logical one. */

struct TFE_TensorDebugInfo {
  int num_dims;
  int64_t dims[1]; /* num_dims entries */
};

TFE_TensorDebugInfo* TFE_TensorHandleTensorDebugInfo(TFE_TensorHandle* h,
                                                     TF_Status* status) {
  TFE_TensorDebugInfo* d;
  size_t bytes;
  TF_Tensor* view;
  const TF_Tensor* t;
  if (!readable(h, "TFE_TensorHandleTensorDebugInfo", status)) return NULL;
  if (h->custom != NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_TensorHandleTensorDebugInfo may not be called on a "
                    "custom device tensor handle (device %s)",
                    h->device->name);
    return NULL;
  }
  if ((t = value_of(h, &view, status)) == NULL) return NULL;
  bytes = sizeof(*d) + sizeof(int64_t) * (size_t)t->num_dims;
  d = (TFE_TensorDebugInfo*)tfe_malloc(bytes);
  if (d == NULL) {
    TF_DeleteTensor(view);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_TensorHandleTensorDebugInfo: out of memory");
    return NULL;
  }
  d->num_dims = t->num_dims;
  if (d->num_dims > 0) {
    memcpy(d->dims, t->dims, sizeof(int64_t) * (size_t)d->num_dims);
  }
  TF_DeleteTensor(view);
  tfe_status_ok(status);
  return d;
}

void TFE_DeleteTensorDebugInfo(TFE_TensorDebugInfo* debug_info) {
  tfe_free(debug_info);
}

int TFE_TensorDebugInfoOnDeviceNumDims(TFE_TensorDebugInfo* debug_info) {
  return debug_info == NULL ? -1 : debug_info->num_dims;
}

int64_t TFE_TensorDebugInfoOnDeviceDim(TFE_TensorDebugInfo* debug_info,
                                       int dim_index) {
  if (debug_info == NULL || dim_index < 0 ||
      dim_index >= debug_info->num_dims) {
    return -1;
  }
  return debug_info->dims[dim_index];
}
