/* Tensor handles on custom devices: TFE_NewCustomDeviceTensorHandle, the
 * shared payload and its deallocator, shape queries through the handle's
 * methods, copies and resolve through the device's callbacks, and packing
 * (TFE_CreatePackedTensorHandle). */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/custom_device.h"
#include "eager/eager_internal.h"
#include "ops/attr_value.h"
#include "tfe/custom_device.h"

/* Where TFE_TensorHandleResolve asks a custom device to copy to (TF uses
 * this literal name too). */
#define HOST_CPU_NAME TFE_LOCAL_ADDRESS_SPACE "/device:CPU:0"
/* Bound on nested resolves (a device whose copy_tensor_from_device returns
 * custom-device handles again). */
#define MAX_RESOLVE_DEPTH 8

/* ------------------------------------------------------------------------
 * Creation and payloads. */

void tfe_custom_payload_unref(tfe_custom_payload* p) {
  if (atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) != 1) {
    return;
  }
  p->methods.deallocator(p->data);
  tfe_free(p);
}

static const char* missing_method(const TFE_CustomDeviceTensorHandle* m) {
  if (m->num_dims == NULL) return "num_dims";
  if (m->dim == NULL) return "dim";
  if (m->deallocator == NULL) return "deallocator";
  return NULL;
}

TFE_TensorHandle* TFE_NewCustomDeviceTensorHandle(
    TFE_Context* ctx, const char* device_name, TF_DataType dtype, void* data,
    TFE_CustomDeviceTensorHandle methods, TF_Status* status) {
  tfe_custom_device* d;
  tfe_custom_payload* p;
  TFE_TensorHandle* h;
  const char* missing;

  if (!tfe_ctx_check(ctx, "TFE_NewCustomDeviceTensorHandle", status)) {
    goto fail;
  }
  if (methods.version != TFE_CUSTOM_DEVICE_VERSION) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewCustomDeviceTensorHandle: unsupported "
                    "TFE_CustomDeviceTensorHandleMethods version %d; this "
                    "runtime implements version %d (TFE_CUSTOM_DEVICE_VERSION)",
                    methods.version, TFE_CUSTOM_DEVICE_VERSION);
    goto fail;
  }
  missing = missing_method(&methods);
  if (missing != NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewCustomDeviceTensorHandle: "
                    "TFE_CustomDeviceTensorHandleMethods.%s is NULL, but it "
                    "is required",
                    missing);
    goto fail;
  }
  if (tfe_dtype_short_name(dtype) == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_NewCustomDeviceTensorHandle: invalid dtype %d",
                    (int)dtype);
    goto fail;
  }
  d = tfe_custom_find_name(ctx, device_name);
  if (d == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s unknown device.",
                    device_name == NULL ? "(null)" : device_name);
    goto fail;
  }
  p = (tfe_custom_payload*)tfe_malloc(sizeof(*p));
  if (p == NULL) goto oom;
  atomic_init(&p->refs, 1);
  p->data = data;
  p->methods = methods;
  p->device = d;
  h = tfe_handle_new_custom(ctx, dtype, &d->base, p);
  if (h == NULL) {
    tfe_free(p);
    goto oom;
  }
  tfe_status_ok(status);
  return h;

oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "TFE_NewCustomDeviceTensorHandle: out of memory");
fail:
  /* The call owns `data` (as in TF): release it on every failure. */
  if (methods.deallocator != NULL) methods.deallocator(data);
  return NULL;
}

TFE_TensorHandle* tfe_custom_handle_share(TFE_TensorHandle* h, TF_Status* s) {
  TFE_TensorHandle* c;
  atomic_fetch_add_explicit(&h->custom->refs, 1, memory_order_relaxed);
  c = tfe_handle_new_custom(h->ctx, h->dtype, h->device, h->custom);
  if (c == NULL) {
    /* h still holds a reference: this never runs the deallocator. */
    tfe_custom_payload_unref(h->custom);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "TFE_TensorHandleCopySharingTensor: out of memory");
    return NULL;
  }
  tfe_status_ok(s);
  return c;
}

/* ------------------------------------------------------------------------
 * Shape queries through the handle's methods. */

int tfe_custom_handle_num_dims(TFE_TensorHandle* h, TF_Status* s) {
  tfe_custom_payload* p = h->custom;
  tfe_cb_status cb;
  TF_Status* cs = tfe_cb_status_begin(&cb, s);
  int n = p->methods.num_dims(p->data, cs);
  if (TF_GetCode(cs) != TF_OK) {
    n = -1;
  } else if (n < 0 || n > TFE_MAX_DIMS) {
    tfe_status_setf(cs, TF_INTERNAL,
                    "custom device %s: the handle's num_dims returned %d",
                    h->device->name, n);
    n = -1;
  }
  tfe_cb_status_end(&cb);
  return n;
}

/* dim `i` (0 <= i < rank); -1 with an error status on failure. */
static int64_t call_dim(TFE_TensorHandle* h, int i, TF_Status* cs) {
  tfe_custom_payload* p = h->custom;
  int64_t v = p->methods.dim(p->data, i, cs);
  if (TF_GetCode(cs) != TF_OK) return -1;
  if (v < -1) {
    tfe_status_setf(cs, TF_INTERNAL,
                    "custom device %s: the handle's dim(%d) returned %lld",
                    h->device->name, i, (long long)v);
    return -1;
  }
  return v;
}

int64_t tfe_custom_handle_dim(TFE_TensorHandle* h, int dim_index,
                              TF_Status* s) {
  tfe_cb_status cb;
  TF_Status* cs;
  int64_t v = -1;
  int n = tfe_custom_handle_num_dims(h, s);
  if (n < 0) return -1;
  if (dim_index < 0 || dim_index >= n) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "TFE_TensorHandleDim: dimension %d is out of range for a "
                    "tensor of rank %d",
                    dim_index, n);
    return -1;
  }
  cs = tfe_cb_status_begin(&cb, s);
  v = call_dim(h, dim_index, cs);
  tfe_cb_status_end(&cb);
  return v;
}

int64_t tfe_custom_handle_num_elements(TFE_TensorHandle* h, TF_Status* s) {
  tfe_cb_status cb;
  TF_Status* cs;
  int64_t total = 1;
  int i, n = tfe_custom_handle_num_dims(h, s);
  if (n < 0) return -1;
  cs = tfe_cb_status_begin(&cb, s);
  for (i = 0; i < n; i++) {
    int64_t d = call_dim(h, i, cs);
    if (TF_GetCode(cs) != TF_OK) {
      total = -1;
      break;
    }
    if (d < 0) {
      tfe_status_setf(cs, TF_INVALID_ARGUMENT,
                      "Tried to compute the number of elements of a tensor "
                      "representing varying shapes (dimension %d of a tensor "
                      "on %s is unknown)",
                      i, h->device->name);
      total = -1;
      break;
    }
    if (d != 0 && total > INT64_MAX / d) {
      tfe_status_setf(cs, TF_INVALID_ARGUMENT,
                      "the number of elements of a tensor on %s overflows",
                      h->device->name);
      total = -1;
      break;
    }
    total *= d;
  }
  tfe_cb_status_end(&cb);
  return total;
}

/* ------------------------------------------------------------------------
 * Resolve and copies. */

static _Thread_local int t_resolve_depth;

TF_Tensor* tfe_custom_handle_resolve(TFE_TensorHandle* h, TF_Status* s) {
  tfe_custom_device* d = h->custom->device;
  tfe_cb_status cb;
  TF_Status* cs;
  TFE_TensorHandle* cpu;
  TF_Tensor* t = NULL;

  if (!tfe_custom_usable(d, "TFE_TensorHandleResolve", s)) return NULL;
  if (t_resolve_depth >= MAX_RESOLVE_DEPTH) {
    tfe_status_setf(s, TF_INTERNAL,
                    "TFE_TensorHandleResolve: custom device %s keeps "
                    "returning custom-device handles from "
                    "copy_tensor_from_device",
                    d->base.name);
    return NULL;
  }
  cs = tfe_cb_status_begin(&cb, s);
  cpu = d->cbs.copy_tensor_from_device(h->ctx, h, HOST_CPU_NAME, cs, d->info);
  cpu = tfe_custom_take_result(cpu, &h, 1, d, "copy_tensor_from_device", cs);
  if (cpu != NULL) {
    t_resolve_depth++;
    t = TFE_TensorHandleResolve(cpu, cs);
    t_resolve_depth--;
    TFE_DeleteTensorHandle(cpu);
  }
  tfe_cb_status_end(&cb);
  return t;
}

TFE_TensorHandle* tfe_custom_copy(TFE_TensorHandle* h, TFE_Context* ctx,
                                  const char* device_name,
                                  const tfe_device_spec* spec, int* handled,
                                  TF_Status* s) {
  tfe_custom_device* d = tfe_custom_find(ctx, spec);
  const char* what;
  tfe_cb_status cb;
  TF_Status* cs;
  TFE_TensorHandle* r;

  *handled = 1;
  if (d != NULL) {
    what = "copy_tensor_to_device";
    if (!tfe_custom_usable(d, "TFE_TensorHandleCopyToDevice", s)) return NULL;
    cs = tfe_cb_status_begin(&cb, s);
    r = d->cbs.copy_tensor_to_device(ctx, h, cs, d->info);
  } else if (h->custom != NULL) {
    d = h->custom->device;
    what = "copy_tensor_from_device";
    if (!tfe_custom_usable(d, "TFE_TensorHandleCopyToDevice", s)) return NULL;
    cs = tfe_cb_status_begin(&cb, s);
    r = d->cbs.copy_tensor_from_device(ctx, h, device_name, cs, d->info);
  } else {
    *handled = 0;
    return NULL;
  }
  /* With an error status the result is released (TF ignores it, which
   * leaks it). */
  r = tfe_custom_take_result(r, &h, 1, d, what, cs);
  tfe_cb_status_end(&cb);
  return r;
}

/* ------------------------------------------------------------------------
 * Packing. */

TFE_TensorHandle* TFE_CreatePackedTensorHandle(TFE_Context* ctx,
                                               TFE_TensorHandle** handles,
                                               int* num_handles,
                                               TF_Status* status) {
  int i;
  if (!tfe_ctx_check(ctx, "TFE_CreatePackedTensorHandle", status)) {
    return NULL;
  }
  if (handles == NULL || num_handles == NULL || *num_handles < 1) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_CreatePackedTensorHandle: expected at least one "
                    "handle");
    return NULL;
  }
  for (i = 0; i < *num_handles; i++) {
    if (!tfe_handle_check(handles[i], "TFE_CreatePackedTensorHandle",
                          status)) {
      return NULL;
    }
  }
  /* As in TF, the first handle on a custom device decides: its device
   * packs all of them. */
  for (i = 0; i < *num_handles; i++) {
    tfe_custom_device* d;
    tfe_cb_status cb;
    TF_Status* cs;
    TFE_TensorHandle* r;
    if (handles[i]->custom == NULL) continue;
    d = handles[i]->custom->device;
    if (!tfe_custom_usable(d, "TFE_CreatePackedTensorHandle", status)) {
      return NULL;
    }
    if (d->cbs.pack == NULL) {
      tfe_status_setf(status, TF_UNIMPLEMENTED,
                      "This custom device does not support packing tensors.");
      return NULL;
    }
    cs = tfe_cb_status_begin(&cb, status);
    r = d->cbs.pack(ctx, handles, *num_handles, cs, d->info);
    r = tfe_custom_take_result(r, handles, *num_handles, d, "pack", cs);
    tfe_cb_status_end(&cb);
    return r;
  }
  tfe_status_setf(status, TF_UNIMPLEMENTED,
                  "TFE_CreatePackedTensorHandle: packing handles of physical "
                  "devices needs composite devices, which tfe does not "
                  "implement; only a custom device with a `pack` callback "
                  "can pack (one of the handles must be on it)");
  return NULL;
}

/* ------------------------------------------------------------------------
 * Summaries (tfe extension). */

static void free_summary(void* data, size_t len) {
  (void)len;
  tfe_free(data);
}

void TFE_CustomDeviceTensorHandleSummarize(TFE_TensorHandle* h,
                                           TF_Buffer* out,
                                           TF_Status* status) {
  tfe_custom_payload* p;
  tfe_cb_status cb;
  TF_Status* cs;
  TF_Buffer* b;
  if (!tfe_handle_check(h, "TFE_CustomDeviceTensorHandleSummarize", status)) {
    return;
  }
  if (out == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_CustomDeviceTensorHandleSummarize: out is NULL");
    return;
  }
  p = h->custom;
  if (p == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_CustomDeviceTensorHandleSummarize: the handle is on "
                    "%s, not on a custom device",
                    h->device->name);
    return;
  }
  if (p->methods.summarize == NULL) {
    tfe_status_setf(status, TF_UNIMPLEMENTED,
                    "TFE_CustomDeviceTensorHandleSummarize: the tensor handle "
                    "methods of this handle on %s have no summarize",
                    h->device->name);
    return;
  }
  cs = tfe_cb_status_begin(&cb, status);
  b = p->methods.summarize(p->data, cs);
  if (TF_GetCode(cs) == TF_OK) {
    if (b == NULL) {
      tfe_status_setf(cs, TF_INTERNAL,
                      "custom device %s: summarize returned NULL with an OK "
                      "status",
                      h->device->name);
    } else if ((b->data == NULL && b->length > 0) ||
               b->length >= (size_t)PTRDIFF_MAX) {
      /* Not a buffer that can exist (and length + 1 would wrap). */
      tfe_status_setf(cs, TF_INTERNAL,
                      "custom device %s: summarize returned a buffer of %zu "
                      "bytes at %p",
                      h->device->name, b->length, b->data);
    } else {
      char* copy = (char*)tfe_malloc(b->length + 1);
      if (copy == NULL) {
        tfe_status_setf(cs, TF_RESOURCE_EXHAUSTED,
                        "TFE_CustomDeviceTensorHandleSummarize: out of memory");
      } else {
        if (b->length > 0) memcpy(copy, b->data, b->length);
        copy[b->length] = '\0';
        if (out->data_deallocator != NULL) {
          out->data_deallocator((void*)out->data, out->length);
        }
        out->data = copy;
        out->length = b->length;
        out->data_deallocator = free_summary;
      }
    }
  }
  if (b != NULL) TF_DeleteBuffer(b);
  tfe_cb_status_end(&cb);
}
