/* Parallel tensors: one component tensor handle per component device,
 * wrapped in a custom-device tensor handle of the parallel device. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/parallel_device_internal.h"

static void release_components(TFE_TensorHandle** components, int n) {
  int i;
  for (i = 0; i < n; i++) TFE_DeleteTensorHandle(components[i]);
}

void pd_tensor_free(pd_tensor* t) {
  if (t == NULL) return;
  release_components(t->components, t->n);
  tfe_free(t->dims);
  tfe_free(t->shape_msg);
  tfe_free(t);
}

/* Works out the combined shape (TF's rule: axes whose lengths differ
 * become -1; different ranks cannot be combined). A failure is recorded in
 * t and reported by the rank query, as TF computes the shape lazily. */
static void combine_shapes(pd_tensor* t) {
  TF_Status* s = TF_NewStatus();
  int i, k, rank = -1;
  char msg[256];
  if (s == NULL) {
    t->shape_code = TF_RESOURCE_EXHAUSTED;
    return;
  }
  for (i = 0; i < t->n; i++) {
    int r = TFE_TensorHandleNumDims(t->components[i], s);
    if (TF_GetCode(s) != TF_OK) goto failed;
    if (i == 0) {
      rank = r;
      t->dims = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(r > 0 ? r : 1));
      if (t->dims == NULL) {
        TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "out of memory");
        goto failed;
      }
    } else if (r != rank) {
      snprintf(msg, sizeof msg,
               "Computing the shape of a ParallelTensor when the components "
               "do not all have the same rank is not supported. Component 0 "
               "has rank %d and component %d has rank %d",
               rank, i, r);
      TF_SetStatus(s, TF_UNIMPLEMENTED, msg);
      goto failed;
    }
    for (k = 0; k < r; k++) {
      int64_t d = TFE_TensorHandleDim(t->components[i], k, s);
      if (TF_GetCode(s) != TF_OK) goto failed;
      if (i == 0) {
        t->dims[k] = d;
      } else if (t->dims[k] != d) {
        t->dims[k] = -1;
      }
    }
  }
  t->rank = rank;
  TF_DeleteStatus(s);
  return;
failed:
  t->rank = -1;
  t->shape_code = TF_GetCode(s);
  t->shape_msg = tfe_strdup(TF_Message(s));
  TF_DeleteStatus(s);
}

pd_tensor* pd_tensor_new(TFE_TensorHandle** components, int n, TF_Status* s) {
  pd_tensor* t;
  TF_DataType dtype;
  int i;
  for (i = 0; i < n; i++) {
    TFE_TensorHandleGetStatus(components[i], s);
    if (TF_GetCode(s) != TF_OK) goto fail;
  }
  dtype = TFE_TensorHandleDataType(components[0]);
  for (i = 1; i < n; i++) {
    if (TFE_TensorHandleDataType(components[i]) != dtype) {
      TF_SetStatus(s, TF_INTERNAL,
                   "Components of a ParallelTensor must all have the same "
                   "dtype");
      goto fail;
    }
  }
  t = (pd_tensor*)tfe_calloc(
      1, sizeof(pd_tensor) + sizeof(TFE_TensorHandle*) * (size_t)(n - 1));
  if (t == NULL) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED,
                 "parallel device: out of memory making a parallel tensor");
    goto fail;
  }
  t->n = n;
  t->dtype = dtype;
  t->shape_code = TF_OK;
  memcpy(t->components, components, sizeof(TFE_TensorHandle*) * (size_t)n);
  combine_shapes(t);
  TF_SetStatus(s, TF_OK, "");
  return t;
fail:
  release_components(components, n);
  return NULL;
}

/* ---- the handle methods ---- */

static int pt_num_dims(void* data, TF_Status* s) {
  pd_tensor* t = (pd_tensor*)data;
  if (t->rank < 0) {
    TF_SetStatus(s, t->shape_code == TF_OK ? TF_INTERNAL : t->shape_code,
                 t->shape_msg != NULL ? t->shape_msg
                                      : "the parallel tensor has no shape");
    return -1;
  }
  return t->rank;
}

static int64_t pt_dim(void* data, int dim_index, TF_Status* s) {
  pd_tensor* t = (pd_tensor*)data;
  if (pt_num_dims(data, s) < 0) return -1;
  if (dim_index < 0 || dim_index >= t->rank) {
    TF_SetStatus(s, TF_INVALID_ARGUMENT, "dimension index out of range");
    return -1;
  }
  return t->dims[dim_index];
}

static void pt_deallocator(void* data) { pd_tensor_free((pd_tensor*)data); }

TFE_TensorHandle* pd_tensor_to_handle(TFE_Context* ctx, const char* device_name,
                                      pd_tensor* t, TF_Status* s) {
  TFE_CustomDeviceTensorHandle m;
  memset(&m, 0, sizeof(m));
  m.version = TFE_CUSTOM_DEVICE_VERSION;
  m.num_dims = pt_num_dims;
  m.dim = pt_dim;
  m.deallocator = pt_deallocator;
  /* On failure the deallocator has run: t is gone either way. */
  return TFE_NewCustomDeviceTensorHandle(ctx, device_name, t->dtype, t, m, s);
}
