/* CPU kernels: image, ragged, linear algebra and random ops that exported
 * models use (issue 15). This file holds DisableCopyOnRead and registers
 * the group; the kernels live in image_resize.c, image_nms.c,
 * ragged_kernels.c, linalg_svd.c and random_extra.c. */
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/image_kernels.h"
#include "kernels/cpu/kutil.h"
#include "kernels/resource.h"

/* DisableCopyOnRead(resource): TF switches a variable out of the mode in
 * which sparse updates copy the buffer for readers. tfe has no such mode
 * (readers share the value and writers copy when it is shared), so the op
 * only checks, as TF does, that the handle names an existing, initialized
 * variable: a missing one fails with TF's FAILED_PRECONDITION "Could not
 * find variable ..." message. */
static void disable_copy_on_read_compute(tfe_kernel_context* k) {
  tfe_resource* r = tfe_var_from_handle(k->inputs[0], k->status);
  if (r == NULL) {
    tfe_resource* h = tfe_resource_of_tensor(k->inputs[0]);
    if (h != NULL && TF_GetCode(k->status) == TF_NOT_FOUND) {
      tfe_var_set_missing_error(h, 1, k->status);
    }
    return;
  }
  pthread_mutex_lock(&r->mu);
  if (r->value == NULL) tfe_var_set_missing_error(r, 1, k->status);
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
}

void tfe_register_cpu_image_kernels(void) {
  tfe_kutil_register("DisableCopyOnRead", disable_copy_on_read_compute, NULL,
                     NULL, 0, NULL, NULL, 0);
  tfe_register_cpu_ragged_kernels();
  tfe_register_cpu_image_resize_kernels();
  tfe_register_cpu_image_nms_kernels();
  tfe_register_cpu_svd_kernels();
  tfe_register_cpu_random_extra_kernels();
}
