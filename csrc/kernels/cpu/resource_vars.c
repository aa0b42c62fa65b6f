/* Variable helpers shared by the resource kernels and the kernel C API
 * (declared at the end of csrc/kernels/resource.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "core/variant.h"
#include "eager/eager_internal.h"
#include "kernels/kernel.h"
#include "kernels/resource.h"
#include "tensorflow/c/tf_tstring.h"

uint64_t tfe_resource_kernel_ctx_id(const struct tfe_kernel_context* k) {
  if (k == NULL || k->eager_ctx == NULL) return 0;
  return ((const TFE_Context*)k->eager_ctx)->id;
}

tfe_resource* tfe_var_from_handle(const TF_Tensor* h, TF_Status* s) {
  tfe_resource* r = tfe_resource_of_tensor(h);
  tfe_resource* cur;
  if (r == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "the resource input is not a resource handle made by "
                    "tfe (expected a scalar DT_RESOURCE tensor from "
                    "VarHandleOp)");
    return NULL;
  }
  cur = tfe_resources_lookup_handle(r);
  if (cur == NULL) {
    tfe_status_setf(s, TF_NOT_FOUND,
                    "Resource %s/%s/N10tensorflow3VarE does not exist.",
                    r->container, r->name);
    return NULL;
  }
  if (cur->kind != TFE_RESOURCE_VARIABLE) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Trying to access resource %s/%s located in device %s "
                    "as a variable, but it is not one",
                    cur->container, cur->name, cur->device);
    tfe_resource_unref(cur);
    return NULL;
  }
  return cur;
}

void tfe_var_set_missing_error(const tfe_resource* r, int for_read,
                               TF_Status* s) {
  char inner[1024];
  if (r->ever_initialized) {
    snprintf(inner, sizeof inner,
             "Resource %s/%s/N10tensorflow3VarE does not exist.",
             r->container, r->name);
  } else {
    snprintf(inner, sizeof inner,
             "Container %s does not exist. (Could not find resource: %s/%s)",
             r->container, r->container, r->name);
  }
  if (for_read) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "Could not find variable %s. This could mean that the "
                    "variable has been deleted. In TF1, it can also mean the "
                    "variable is uninitialized. Debug info: container=%s, "
                    "status error message=%s",
                    r->name, r->container, inner);
  } else {
    tfe_status_setf(s, TF_NOT_FOUND, "%s", inner);
  }
}

TF_Tensor* tfe_var_share_value(tfe_resource* r) {
  const TF_Tensor* v = r->value;
  if (v == NULL) return NULL;
  return tfe_tensor_from_buffer(v->dtype, v->dims, v->num_dims, v->buf);
}

TF_Tensor* tfe_tensor_deep_copy(const TF_Tensor* t) {
  TF_Tensor* c;
  size_t len = t->buf != NULL ? t->buf->len : 0;
  /* Variant elements are objects: the copy shares them (NULL when t holds
   * no variant slots). */
  if (t->dtype == TF_VARIANT) return tfe_variant_tensor_copy(t);
  c = TF_AllocateTensor(t->dtype, t->dims, t->num_dims, len);
  if (c == NULL) return NULL;
  if (len == 0) return c;
  if (t->dtype == TF_STRING) {
    size_t n = len / sizeof(TF_TString), i;
    const TF_TString* src = (const TF_TString*)t->buf->data;
    TF_TString* dst = (TF_TString*)c->buf->data;
    for (i = 0; i < n; i++) TF_TString_Assign(&dst[i], &src[i]);
  } else {
    memcpy(c->buf->data, t->buf->data, len);
  }
  return c;
}

int tfe_var_prepare_update(tfe_resource* r, TF_Status* s) {
  TF_Tensor* c;
  if (r->value == NULL) {
    tfe_var_set_missing_error(r, 0, s);
    return 0;
  }
  if (r->value->buf == NULL ||
      atomic_load_explicit(&r->value->buf->refcount, memory_order_acquire) ==
          1) {
    return 1;
  }
  c = tfe_tensor_deep_copy(r->value);
  if (c == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of memory copying the value of variable %s/%s",
                    r->container, r->name);
    return 0;
  }
  TF_DeleteTensor(r->value);
  r->value = c;
  return 1;
}
