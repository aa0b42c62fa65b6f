/* Moving tensors between the memories of devices (device.h): host kinds
 * share buffers; a kind with memory hooks (a PluggableDevice) copies
 * through them. */
#include <stddef.h>

#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "devices/device.h"
#include "devices/pluggable_device.h"

static const tfe_device_memory_ops* ops_of(const tfe_device* d) {
  return d != NULL && !d->is_host && d->factory != NULL
             ? d->factory->memory_ops
             : NULL;
}

int tfe_tensor_in_host_memory(const TF_Tensor* t) {
  return tfe_pdev_tensor_device(t) == NULL;
}

int tfe_device_can_copy(const tfe_device* from, const tfe_device* to) {
  if (from == NULL || to == NULL) return 0;
  if (!from->is_host && ops_of(from) == NULL) return 0;
  if (!to->is_host && ops_of(to) == NULL) return 0;
  return 1;
}

TF_Tensor* tfe_device_copy_tensor(const TF_Tensor* t, const tfe_device* from,
                                  const tfe_device* to, TF_Status* s) {
  const tfe_device_memory_ops* fo = ops_of(from);
  const tfe_device_memory_ops* to_ops = ops_of(to);
  int src_host = tfe_tensor_in_host_memory(t);
  TF_Tensor* out;
  if (t == NULL || to == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "device copy: NULL argument");
    return NULL;
  }
  if ((!src_host && fo == NULL) || (!to->is_host && to_ops == NULL)) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "copying a tensor from %s to %s is not implemented in "
                    "tfe",
                    from ? from->name : "?", to->name);
    return NULL;
  }
  if (src_host && to->is_host) {
    out = tfe_tensor_from_buffer(t->dtype, t->dims, t->num_dims, t->buf);
  } else if (src_host) {
    return to_ops->copy_from_host(to, t, s);
  } else if (to->is_host) {
    return fo->copy_to_host(from, t, s);
  } else if (fo == to_ops) {
    return to_ops->copy_between(to, from, t, s);
  } else {
    /* Different kinds: through the host. */
    TF_Tensor* h = fo->copy_to_host(from, t, s);
    if (h == NULL) return NULL;
    out = to_ops->copy_from_host(to, h, s);
    TF_DeleteTensor(h);
    return out;
  }
  if (out == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "device copy: out of memory");
    return NULL;
  }
  tfe_status_ok(s);
  return out;
}
