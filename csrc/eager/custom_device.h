/* Custom devices: devices implemented by the caller through a
 * TFE_CustomDevice table of callbacks (tensorflow/c/eager/
 * c_api_experimental.h), and the tensor handles that live on them.
 *
 * Files: custom_device.c (registration, lookup, lifetime),
 * custom_device_handle.c (custom-device tensor handles, copies, resolve,
 * packing), custom_device_execute.c (placing ops on custom devices and
 * calling `execute`).
 *
 * Lifetime. A registered device belongs to its context. TFE_DeleteContext
 * calls every device's `delete_device` once (TF does the same), even when
 * tensor handles still keep the context alive as a zombie; after that no
 * callback of the device table runs again, and the handle methods
 * (num_dims, dim, summarize, deallocator) are the only callbacks a zombie
 * handle may still reach. The tfe_custom_device records themselves are
 * freed with the context, so handles can keep pointing at them.
 *
 * Names. Registration needs a full name ("/job:J/replica:R/task:T/device:
 * TYPE:N"). Lookups accept any name that parses and names the same device,
 * e.g. "CUSTOM:0" or "/device:CUSTOM:0" for
 * "/job:localhost/replica:0/task:0/device:CUSTOM:0" (TF compares the exact
 * string; tfe is more lenient so that partial names from device scopes
 * work). */
#ifndef TFE_EAGER_CUSTOM_DEVICE_H_
#define TFE_EAGER_CUSTOM_DEVICE_H_

#include <stdatomic.h>

#include "core/status_internal.h"
#include "eager/eager_internal.h"

typedef struct tfe_custom_device {
  /* The device as handles see it: name (as registered), type, id. First
   * member, so a handle's `device` pointer points at the record. */
  tfe_device base;
  /* A kind of its own: no two custom devices ever compare as the same
   * device (tfe_device_same compares kinds). */
  tfe_device_factory kind;
  /* The parsed name, for lookups. */
  tfe_device_spec spec;
  /* Copy of the caller's table (version 4 layout) and its state. */
  TFE_CustomDevice cbs;
  void* info;
  /* Set once delete_device ran (context deleted). */
  atomic_int released;
  struct tfe_custom_device* next;
} tfe_custom_device;

/* The device-owned data of a custom-device handle. Shared (refcounted)
 * between handles made by TFE_TensorHandleCopySharingTensor; the
 * deallocator runs when the last reference goes. */
typedef struct tfe_custom_payload {
  atomic_int refs;
  void* data;
  TFE_CustomDeviceTensorHandle methods;
  tfe_custom_device* device;
} tfe_custom_payload;

/* ---- custom_device.c ---- */

/* The custom device of ctx that `spec` names (type required, id optional:
 * first match), or NULL. Lock-free. */
tfe_custom_device* tfe_custom_find(TFE_Context* ctx,
                                   const tfe_device_spec* spec);
/* Same, from a name; NULL for NULL or unparsable names. */
tfe_custom_device* tfe_custom_find_name(TFE_Context* ctx, const char* name);
/* Runs delete_device of every device once (TFE_DeleteContext). */
void tfe_custom_devices_release(TFE_Context* ctx);
/* Frees the records (last context reference). */
void tfe_custom_devices_free(TFE_Context* ctx);
/* 1 when d's callbacks may still run; FAILED_PRECONDITION naming `what`
 * otherwise (its context was deleted). */
int tfe_custom_usable(tfe_custom_device* d, const char* what, TF_Status* s);

/* A status for a callback: the caller's when it gave one, else a local one
 * (callbacks may assume a non-NULL status). Starts out OK. */
typedef struct tfe_cb_status {
  TF_Status local;
  TF_Status* s;
} tfe_cb_status;
TF_Status* tfe_cb_status_begin(tfe_cb_status* c, TF_Status* user);
/* Releases the local status' message, if it was used. */
void tfe_cb_status_end(tfe_cb_status* c);

/* Takes the handle r that a callback of d (`what` names it) returned with
 * status s; `borrowed[0..n_borrowed)` are the handles the callback was
 * given. With an error status, r (unless NULL, borrowed or not a live
 * handle) is released, since no one else could release it, and NULL is
 * returned. With an OK status r must be a live handle that is not one of
 * the borrowed ones; otherwise s becomes INTERNAL naming the device and
 * NULL is returned (a borrowed r is not released: it is not ours). */
TFE_TensorHandle* tfe_custom_take_result(TFE_TensorHandle* r,
                                         TFE_TensorHandle* const* borrowed,
                                         int n_borrowed,
                                         const tfe_custom_device* d,
                                         const char* what, TF_Status* s);

/* ---- custom_device_handle.c ---- */

void tfe_custom_payload_unref(tfe_custom_payload* p);
/* Queries of a custom-device handle (h->custom != NULL, h READY). */
int tfe_custom_handle_num_dims(TFE_TensorHandle* h, TF_Status* s);
int64_t tfe_custom_handle_dim(TFE_TensorHandle* h, int dim_index,
                              TF_Status* s);
int64_t tfe_custom_handle_num_elements(TFE_TensorHandle* h, TF_Status* s);
/* TFE_TensorHandleResolve of a custom handle: copies it to the host CPU
 * through copy_tensor_from_device, then resolves that copy. */
TF_Tensor* tfe_custom_handle_resolve(TFE_TensorHandle* h, TF_Status* s);
/* A new handle sharing h's payload. */
TFE_TensorHandle* tfe_custom_handle_share(TFE_TensorHandle* h, TF_Status* s);
/* TFE_TensorHandleCopyToDevice when custom devices are involved: to a
 * custom device through its copy_tensor_to_device, from one through
 * copy_tensor_from_device. Sets *handled to 0 (and returns NULL) when
 * neither side is a custom device. */
TFE_TensorHandle* tfe_custom_copy(TFE_TensorHandle* h, TFE_Context* ctx,
                                  const char* device_name,
                                  const tfe_device_spec* spec, int* handled,
                                  TF_Status* s);

/* ---- custom_device_execute.c ---- */

/* Called by TFE_Execute when ctx has custom devices. Returns 1 when the op
 * was handled (run on a custom device, or failed: status says which);
 * returns 0 when it should run on a physical device, after replacing any
 * custom-device inputs by copies made with copy_tensor_from_device (as
 * TF does, the op keeps those copies). */
int tfe_custom_dispatch(TFE_Op* op, TFE_TensorHandle** retvals,
                        int* num_retvals, TF_Status* s);

#endif /* TFE_EAGER_CUSTOM_DEVICE_H_ */
