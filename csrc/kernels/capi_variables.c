/* kernels_experimental.h: resource variables seen from a C-API kernel,
 * plus the parts tfe does not support (reference variables, TensorFlow 1
 * temporary variables, DT_VARIANT arithmetic). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "core/unimplemented.h"
#include "core/variant.h"
#include "kernels/capi_kernel.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"
#include "tensorflow/c/kernels_experimental.h"

typedef void (*copy_fn)(TF_OpKernelContext*, TF_Tensor*, TF_Tensor*);

/* The variable behind DT_RESOURCE input i, or NULL with status set. */
static tfe_resource* input_variable(TF_OpKernelContext* ctx, int i,
                                    TF_Status* s) {
  tfe_resource* r = tfe_capi_input_resource(ctx, i, s);
  if (r != NULL && r->kind != TFE_RESOURCE_VARIABLE) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "input %d refers to resource %s/%s, which is not a "
                    "variable",
                    i, r->container, r->name);
    return NULL;
  }
  return r;
}

static void shape_string(const TF_Tensor* t, char* buf, size_t cap) {
  int i;
  size_t pos = 0;
  buf[0] = '\0';
  pos += (size_t)snprintf(buf, cap, "[");
  for (i = 0; t != NULL && i < t->num_dims && pos + 2 < cap; i++) {
    pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? "," : "",
                            (long long)t->dims[i]);
  }
  if (pos + 2 < cap) snprintf(buf + pos, cap - pos, "]");
}

static int same_shape(const TF_Tensor* a, const TF_Tensor* b) {
  return a->num_dims == b->num_dims &&
         (a->num_dims == 0 ||
          memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->num_dims) ==
              0);
}

/* New tensor like `like` (dtype, shape, and memory space of the kernel's
 * device unless like is in host memory) holding a copy made by copyFunc. */
static TF_Tensor* copy_with(TF_OpKernelContext* ctx, const TF_Tensor* src,
                            copy_fn copyFunc, TF_Status* s) {
  TF_Tensor *dst, *sv, *dv;
  int on_host = tfe_pdev_tensor_device(src) == NULL;
  if (src->dtype == TF_VARIANT) {
    /* Variant values are copied element by element, sharing each element's
     * object, as TensorFlow copies Variants; copyFunc is not called. */
    dst = tfe_variant_tensor_copy(src);
    if (dst == NULL) {
      tfe_status_setf(s, TF_INTERNAL,
                      "cannot copy a DT_VARIANT value that holds no variant "
                      "objects (or out of memory)");
    }
    return dst;
  }
  if (copyFunc == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "copyFunc is NULL");
    return NULL;
  }
  dst = tfe_capi_alloc(ctx, on_host, src->dtype, src->dims, src->num_dims, s);
  if (dst == NULL) return NULL;
  sv = tfe_capi_share(src);
  dv = tfe_capi_share(dst);
  if (sv == NULL || dv == NULL) {
    TF_DeleteTensor(sv);
    TF_DeleteTensor(dv);
    TF_DeleteTensor(dst);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  copyFunc(ctx, sv, dv);
  TF_DeleteTensor(sv);
  TF_DeleteTensor(dv);
  if (TF_GetCode(ctx->k->status) != TF_OK) {
    tfe_status_copy(s, ctx->k->status);
    TF_DeleteTensor(dst);
    return NULL;
  }
  return dst;
}

/* Gives r a private copy of its value when another tensor shares the
 * buffer (r->mu held). */
static int make_private(TF_OpKernelContext* ctx, tfe_resource* r,
                        copy_fn copyFunc, TF_Status* s) {
  TF_Tensor* c;
  if (r->value == NULL || atomic_load(&r->value->buf->refcount) == 1) return 1;
  c = copy_with(ctx, r->value, copyFunc, s);
  if (c == NULL) return 0;
  TF_DeleteTensor(r->value);
  r->value = c;
  return 1;
}

void TF_AssignVariable(TF_OpKernelContext* ctx, int input_index,
                       int value_index, bool validate_shape,
                       void (*copyFunc)(TF_OpKernelContext* ctx,
                                        TF_Tensor* source, TF_Tensor* dest),
                       TF_Status* status) {
  tfe_resource* r = input_variable(ctx, input_index, status);
  const TF_Tensor* value;
  TF_Tensor* fresh;
  if (r == NULL) return;
  if (value_index < 0 || value_index >= ctx->k->num_inputs) {
    tfe_status_setf(status, TF_OUT_OF_RANGE,
                    "TF_AssignVariable: value index %d is out of range",
                    value_index);
    return;
  }
  value = ctx->k->inputs[value_index];
  pthread_mutex_lock(&r->mu);
  if (value->dtype != r->dtype) {
    pthread_mutex_unlock(&r->mu);
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Trying to assign variable with wrong dtype. Expected %s "
                    "got %s",
                    tfe_dtype_enum_name(r->dtype),
                    tfe_dtype_enum_name(value->dtype));
    return;
  }
  if (validate_shape && r->value != NULL && !same_shape(r->value, value)) {
    char want[128], got[128];
    shape_string(r->value, want, sizeof want);
    shape_string(value, got, sizeof got);
    pthread_mutex_unlock(&r->mu);
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Trying to assign to variable with tensor with wrong "
                    "shape. Expected %s got %s",
                    want, got);
    return;
  }
  fresh = copy_with(ctx, value, copyFunc, status);
  if (fresh == NULL) {
    pthread_mutex_unlock(&r->mu);
    return;
  }
  if (r->value != NULL) TF_DeleteTensor(r->value);
  r->value = fresh;
  pthread_mutex_unlock(&r->mu);
  tfe_status_ok(status);
}

void TF_AssignUpdateVariable(
    TF_OpKernelContext* ctx, int input_index, int value_index, int Op,
    int isVariantType,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source,
                     TF_Tensor* dest),
    void (*updateFunc)(TF_OpKernelContext* ctx, TF_Tensor* tensor,
                       TF_Tensor* value, int Op),
    TF_Status* status) {
  tfe_resource* r;
  const TF_Tensor* value;
  TF_Tensor *vv, *tv;
  /* isVariantType: copies of DT_VARIANT values share element objects
   * (copy_with); the update itself is updateFunc's, as in TensorFlow. */
  (void)isVariantType;
  if (updateFunc == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_AssignUpdateVariable: updateFunc is NULL");
    return;
  }
  r = input_variable(ctx, input_index, status);
  if (r == NULL) return;
  if (value_index < 0 || value_index >= ctx->k->num_inputs) {
    tfe_status_setf(status, TF_OUT_OF_RANGE,
                    "TF_AssignUpdateVariable: value index %d is out of range",
                    value_index);
    return;
  }
  value = ctx->k->inputs[value_index];
  pthread_mutex_lock(&r->mu);
  if (r->value == NULL) {
    pthread_mutex_unlock(&r->mu);
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "Attempting to use uninitialized variable %s/%s",
                    r->container, r->name);
    return;
  }
  if (value->dtype != r->dtype || !same_shape(r->value, value)) {
    char want[128], got[128];
    shape_string(r->value, want, sizeof want);
    shape_string(value, got, sizeof got);
    pthread_mutex_unlock(&r->mu);
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Cannot update variable with shape %s (%s) using a "
                    "Tensor with shape %s (%s), shapes and dtypes must be "
                    "equal.",
                    want, tfe_dtype_enum_name(r->dtype), got,
                    tfe_dtype_enum_name(value->dtype));
    return;
  }
  if (!make_private(ctx, r, copyFunc, status)) {
    pthread_mutex_unlock(&r->mu);
    return;
  }
  tv = tfe_capi_share(r->value);
  vv = tfe_capi_share(value);
  if (tv == NULL || vv == NULL) {
    TF_DeleteTensor(tv);
    TF_DeleteTensor(vv);
    pthread_mutex_unlock(&r->mu);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  updateFunc(ctx, tv, vv, Op);
  TF_DeleteTensor(tv);
  TF_DeleteTensor(vv);
  pthread_mutex_unlock(&r->mu);
  if (TF_GetCode(ctx->k->status) != TF_OK) {
    tfe_status_copy(status, ctx->k->status);
    return;
  }
  tfe_status_ok(status);
}

/* ------------------------------------------------------------------------
 * Ordered locking. */

/* Resource variables are locked first (by creation order), then the
 * mutexes of reference inputs (by address): one global order. */
struct TF_VariableInputLockHolder {
  int n;
  int locked;
  int n_refs;
  tfe_ref_cell** refs;   /* n_refs entries (stored after vars) */
  tfe_resource* vars[1]; /* n entries, increasing lock order */
};

static int by_address(const void* a, const void* b) {
  uintptr_t x = (uintptr_t)*(tfe_ref_cell* const*)a;
  uintptr_t y = (uintptr_t)*(tfe_ref_cell* const*)b;
  return x < y ? -1 : x > y;
}

static int by_order(const void* a, const void* b) {
  const tfe_resource* x = *(tfe_resource* const*)a;
  const tfe_resource* y = *(tfe_resource* const*)b;
  return x->order < y->order ? -1 : x->order > y->order;
}

void TF_MaybeLockVariableInputMutexesInOrder(
    TF_OpKernelContext* ctx, bool do_lock, bool sparse, const int* const inputs,
    size_t len,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source,
                     TF_Tensor* dest),
    TF_VariableInputLockHolder** lockHolder, TF_Status* status) {
  TF_VariableInputLockHolder* h;
  size_t i;
  int n = 0, j;
  if (ctx == NULL || ctx->k == NULL || lockHolder == NULL ||
      (len > 0 && inputs == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_MaybeLockVariableInputMutexesInOrder: NULL argument");
    return;
  }
  h = (TF_VariableInputLockHolder*)tfe_calloc(
      1, sizeof(*h) + (sizeof(tfe_resource*) + sizeof(tfe_ref_cell*)) *
                          (len > 0 ? len : 1));
  if (h == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  h->refs = (tfe_ref_cell**)(h->vars + (len > 0 ? len : 1));
  for (i = 0; i < len; i++) {
    int idx = inputs[i];
    const TF_Tensor* t;
    tfe_resource* r;
    if (idx < 0 || idx >= ctx->k->num_inputs) {
      for (j = 0; j < n; j++) tfe_resource_unref(h->vars[j]);
      for (j = 0; j < h->n_refs; j++) tfe_ref_cell_unref(h->refs[j]);
      tfe_free(h);
      tfe_status_setf(status, TF_OUT_OF_RANGE,
                      "TF_MaybeLockVariableInputMutexesInOrder: input %d is "
                      "out of range",
                      idx);
      return;
    }
    if (tfe_kernel_input_ref(ctx->k, idx) != NULL) {
      /* A reference input: its own mutex, once. */
      tfe_ref_cell* c = tfe_kernel_input_ref(ctx->k, idx);
      for (j = 0; j < h->n_refs; j++) {
        if (h->refs[j] == c) break;
      }
      if (j == h->n_refs) {
        tfe_ref_cell_ref(c);
        h->refs[h->n_refs++] = c;
      }
      continue;
    }
    t = ctx->k->inputs[idx];
    r = t != NULL && t->dtype == TF_RESOURCE ? tfe_resource_of_tensor(t) : NULL;
    if (r == NULL || r->kind != TFE_RESOURCE_VARIABLE) continue;
    for (j = 0; j < n; j++) {
      if (h->vars[j] == r) break;
    }
    if (j < n) continue;
    tfe_resource_ref(r);
    h->vars[n++] = r;
  }
  h->n = n;
  qsort(h->vars, (size_t)n, sizeof(tfe_resource*), by_order);
  qsort(h->refs, (size_t)h->n_refs, sizeof(tfe_ref_cell*), by_address);
  if (do_lock) {
    for (j = 0; j < n; j++) pthread_mutex_lock(&h->vars[j]->mu);
    for (j = 0; j < h->n_refs; j++) pthread_mutex_lock(&h->refs[j]->mu);
    h->locked = 1;
  }
  tfe_status_ok(status);
  if (sparse) {
    for (j = 0; j < n; j++) {
      if (!make_private(ctx, h->vars[j], copyFunc, status)) {
        TF_ReleaseVariableInputLockHolder(h);
        return;
      }
    }
  }
  *lockHolder = h;
}

void TF_ReleaseVariableInputLockHolder(TF_VariableInputLockHolder* lockHolder) {
  int j;
  if (lockHolder == NULL) return;
  for (j = lockHolder->n_refs - 1; j >= 0; j--) {
    if (lockHolder->locked) pthread_mutex_unlock(&lockHolder->refs[j]->mu);
    tfe_ref_cell_unref(lockHolder->refs[j]);
  }
  for (j = lockHolder->n - 1; j >= 0; j--) {
    if (lockHolder->locked) pthread_mutex_unlock(&lockHolder->vars[j]->mu);
    tfe_resource_unref(lockHolder->vars[j]);
  }
  tfe_free(lockHolder);
}

void TF_GetInputTensorFromVariable(
    TF_OpKernelContext* ctx, int input, bool lock_held, bool isVariantType,
    bool sparse,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source,
                     TF_Tensor* dest),
    TF_Tensor** out, TF_Status* status) {
  const TF_Tensor* t;
  tfe_resource* r;
  TF_Tensor* view;
  /* isVariantType: a private copy (sparse) of a DT_VARIANT value shares
   * element objects (copy_with). */
  (void)isVariantType;
  if (ctx == NULL || ctx->k == NULL || out == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GetInputTensorFromVariable: NULL argument");
    return;
  }
  if (input < 0 || input >= ctx->k->num_inputs) {
    tfe_status_setf(status, TF_OUT_OF_RANGE,
                    "TF_GetInputTensorFromVariable: input %d is out of range",
                    input);
    return;
  }
  if (tfe_kernel_input_ref(ctx->k, input) != NULL) {
    /* A reference input: its tensor now, sharing the buffer (TF's
     * mutable_input); lock_held says the caller holds its mutex. */
    view = tfe_ref_cell_read(tfe_kernel_input_ref(ctx->k, input), lock_held,
                             status);
    if (view == NULL) return;
    *out = view;
    tfe_status_ok(status);
    return;
  }
  t = ctx->k->inputs[input];
  if (t == NULL || t->dtype != TF_RESOURCE) {
    /* A plain tensor input is its own value. */
    TF_GetInput(ctx, input, out, status);
    return;
  }
  r = input_variable(ctx, input, status);
  if (r == NULL) return;
  if (!lock_held) pthread_mutex_lock(&r->mu);
  if (r->value == NULL) {
    if (!lock_held) pthread_mutex_unlock(&r->mu);
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "Attempting to use uninitialized variable %s/%s",
                    r->container, r->name);
    return;
  }
  tfe_status_ok(status);
  if (sparse && !make_private(ctx, r, copyFunc, status)) {
    if (!lock_held) pthread_mutex_unlock(&r->mu);
    return;
  }
  view = tfe_capi_share(r->value);
  if (!lock_held) pthread_mutex_unlock(&r->mu);
  if (view == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  *out = view;
}

/* TF_AssignRefVariable, TF_OpKernelContext_ForwardRefInputToRefOutput,
 * TF_TemporaryVariable and TF_DestroyTemporaryVariable: capi_ref.c. */

/* TF_AddNVariant and TF_ZerosLikeVariant: csrc/kernels/capi_variant.c. */
