/* Resource-variable CPU kernels: VarHandleOp, ReadVariableOp,
 * AssignVariableOp, AssignAddVariableOp, AssignSubVariableOp,
 * VarIsInitializedOp, DestroyResourceOp, ResourceGather,
 * ResourceScatterAdd and ResourceScatterUpdate.
 * Semantics and messages follow TensorFlow's eager CPU kernels; the
 * variable model is described in csrc/kernels/resource.h. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_internal.h"
#include "core/variant.h"
#include "kernels/cpu/kutil.h"
#include "kernels/resource.h"

void tfe_register_resource_kernels(void);

static const char* dt_name(TF_DataType t) {
  const char* n = tfe_dtype_short_name(t);
  return n != NULL ? n : "unknown";
}

static const char* attr_str(const tfe_kernel_context* k, const char* name) {
  const char* s = NULL;
  size_t len = 0;
  if (k->attrs == NULL || !tfe_attrs_get_string(k->attrs, name, &s, &len,
                                                NULL)) {
    return "";
  }
  return s;
}

static TF_DataType attr_type(const tfe_kernel_context* k, const char* name) {
  TF_DataType t = (TF_DataType)0;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, name, &t, NULL);
  return t;
}

static int same_shape(const TF_Tensor* a, const TF_Tensor* b) {
  int i;
  if (a->num_dims != b->num_dims) return 0;
  for (i = 0; i < a->num_dims; i++) {
    if (a->dims[i] != b->dims[i]) return 0;
  }
  return 1;
}

/* ---- VarHandleOp ---- */

/* Records the declared shape of a new variable. */
static void set_decl_shape(tfe_resource* r, const tfe_shape* shape) {
  int i;
  if (shape == NULL || shape->num_dims < 0 ||
      shape->num_dims > TFE_RESOURCE_MAX_DECL_DIMS) {
    r->decl_rank = -1;
    return;
  }
  r->decl_rank = shape->num_dims;
  for (i = 0; i < shape->num_dims; i++) r->decl_dims[i] = shape->dims[i];
}

/* TF's "no sharing" name: a new, unregistered variable every run, named
 * _AnonymousVar<n> as TF names them. */
static void anonymous_var(tfe_kernel_context* k, uint64_t ctx_id,
                          const char* device, const char* container,
                          TF_DataType dtype, const tfe_shape* shape) {
  static _Atomic uint64_t next_id;
  char name[64];
  tfe_resource* r;
  TF_Tensor* out;
  snprintf(name, sizeof name, "_AnonymousVar%llu",
           (unsigned long long)atomic_fetch_add(&next_id, 1));
  r = tfe_variable_new(ctx_id, device, container, name, dtype);
  if (r == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in VarHandleOp");
    return;
  }
  r->anonymous = 1;
  set_decl_shape(r, shape);
  out = tfe_resource_new_handle(r);
  tfe_resource_unref(r);
  if (out == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in VarHandleOp");
    return;
  }
  tfe_kernel_set_output(k, 0, out);
}

static void var_handle_compute(tfe_kernel_context* k) {
  const char* container = attr_str(k, "container");
  const char* name = attr_str(k, "shared_name");
  const char* device = k->device_name != NULL ? k->device_name : "";
  TF_DataType dtype = attr_type(k, "dtype");
  uint64_t ctx_id = tfe_resource_kernel_ctx_id(k);
  const tfe_shape* shape = NULL;
  tfe_resource* r;
  TF_Tensor* out;
  int attempt;
  if (container[0] == '\0') container = TFE_RESOURCE_DEFAULT_CONTAINER;
  if (k->attrs != NULL) tfe_attrs_get_shape(k->attrs, "shape", &shape, NULL);
  if (strcmp(name, TFE_RESOURCE_ANONYMOUS_NAME) == 0) {
    anonymous_var(k, ctx_id, device, container, dtype, shape);
    return;
  }
  for (attempt = 0;; attempt++) {
    r = tfe_resources_lookup(ctx_id, device, container, name);
    if (r != NULL) break;
    r = tfe_variable_new(ctx_id, device, container, name, dtype);
    if (r == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in VarHandleOp");
      return;
    }
    set_decl_shape(r, shape);
    if (tfe_resources_insert(r, k->status)) break;
    tfe_resource_unref(r);
    r = NULL;
    /* Another thread registered the same name first: use that one. */
    if (TF_GetCode(k->status) != TF_ALREADY_EXISTS || attempt > 3) return;
    TF_SetStatus(k->status, TF_OK, "");
  }
  if (r->kind != TFE_RESOURCE_VARIABLE) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Resource %s/%s on %s exists and is not a variable",
               container, name, device);
    tfe_resource_unref(r);
    return;
  }
  out = tfe_resource_new_handle(r);
  tfe_resource_unref(r);
  if (out == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in VarHandleOp");
    return;
  }
  tfe_kernel_set_output(k, 0, out);
}

/* ---- ReadVariableOp ---- */

static void read_var_compute(tfe_kernel_context* k) {
  TF_DataType want = attr_type(k, "dtype");
  tfe_resource* r = tfe_var_from_handle(k->inputs[0], k->status);
  TF_Tensor* out;
  if (r == NULL) {
    tfe_resource* h = tfe_resource_of_tensor(k->inputs[0]);
    if (h != NULL && TF_GetCode(k->status) == TF_NOT_FOUND) {
      tfe_var_set_missing_error(h, 1, k->status);
    }
    return;
  }
  pthread_mutex_lock(&r->mu);
  if (r->value == NULL) {
    tfe_var_set_missing_error(r, 1, k->status);
    goto done;
  }
  if (r->dtype != want) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to read variable with wrong dtype. Expected %s got %s",
               dt_name(want), dt_name(r->dtype));
    goto done;
  }
  out = tfe_var_share_value(r);
  if (out == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ReadVariableOp");
    goto done;
  }
  tfe_kernel_set_output(k, 0, out);
done:
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
}

/* ---- AssignVariableOp ---- */

static void assign_var_compute(tfe_kernel_context* k) {
  const TF_Tensor* value = k->inputs[1];
  int validate = kutil_attr_bool(k, "validate_shape", 0);
  tfe_resource* r = tfe_var_from_handle(k->inputs[0], k->status);
  TF_Tensor* nv;
  if (r == NULL) return;
  pthread_mutex_lock(&r->mu);
  if (r->value != NULL && r->dtype != value->dtype) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to assign variable with wrong dtype. Expected %s got "
               "%s",
               dt_name(r->dtype), dt_name(value->dtype));
    goto done;
  }
  if (r->value != NULL && validate && !same_shape(r->value, value)) {
    kutil_shape_buf a, b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to assign to variable with tensor with wrong shape. "
               "Expected %s got %s",
               kutil_tshape(r->value, &a), kutil_tshape(value, &b));
    goto done;
  }
  /* When the runtime says nothing else can see the value's buffer (its
   * last use, e.g. a restored checkpoint tensor), the variable takes that
   * buffer over instead of copying it, as TF's AssignVariableOp forwards
   * its input. */
  if (value->dtype != TF_STRING && value->dtype != TF_VARIANT &&
      tfe_kernel_can_forward(
          k, 1, value->dtype,
          tfe_shape_num_elements(value->dims, value->num_dims))) {
    nv = tfe_tensor_share(value);
    if (nv != NULL) {
      k->forwarded |= (uint64_t)1 << 1;
      if (r->value != NULL) TF_DeleteTensor(r->value);
      r->value = nv;
      r->dtype = value->dtype;
      r->ever_initialized = 1;
      goto done;
    }
  }
  /* Reuse the variable's buffer when nobody else holds it and the size
   * matches; otherwise a fresh copy (the input stays the caller's). */
  if (r->value != NULL && value->dtype != TF_STRING &&
      value->dtype != TF_VARIANT && r->value->buf &&
      value->buf && r->value->buf->len == value->buf->len &&
      atomic_load(&r->value->buf->refcount) == 1) {
    if (value->buf->len > 0) {
      memcpy(r->value->buf->data, value->buf->data, value->buf->len);
    }
    if (!tfe_tensor_set_dims(r->value, value->dims, value->num_dims)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in AssignVariableOp");
    }
    goto done;
  }
  nv = tfe_tensor_deep_copy(value);
  if (nv == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in AssignVariableOp");
    goto done;
  }
  if (r->value != NULL) TF_DeleteTensor(r->value);
  r->value = nv;
  r->dtype = value->dtype;
  r->ever_initialized = 1;
done:
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
}

/* ---- AssignAdd / AssignSub ---- */

#define ADDSUB_LOOP(T)                                          \
  do {                                                          \
    T* d = (T*)dst;                                             \
    const T* x = (const T*)src;                                 \
    if (sub) {                                                  \
      for (i = 0; i < n; i++) d[i] = (T)(d[i] - x[i]);          \
    } else {                                                    \
      for (i = 0; i < n; i++) d[i] = (T)(d[i] + x[i]);          \
    }                                                           \
  } while (0)

#define ADDSUB_ULOOP(T)                                         \
  do {                                                          \
    T* d = (T*)dst;                                             \
    const T* x = (const T*)src;                                 \
    if (sub) {                                                  \
      for (i = 0; i < n; i++) d[i] = (T)(d[i] - x[i]);          \
    } else {                                                    \
      for (i = 0; i < n; i++) d[i] = (T)(d[i] + x[i]);          \
    }                                                           \
  } while (0)

/* Wrapping integer arithmetic (as TF's two's-complement CPU kernels). */
#define ADDSUB_WRAP(T, U)                                                \
  do {                                                                   \
    T* d = (T*)dst;                                                      \
    const T* x = (const T*)src;                                          \
    for (i = 0; i < n; i++) {                                            \
      U a = (U)d[i], b = (U)x[i];                                        \
      d[i] = (T)(sub ? (U)(a - b) : (U)(a + b));                         \
    }                                                                    \
  } while (0)

/* dst[i] (op)= src[i] for n elements (kutil.h). */
void tfe_cpu_add_sub_inplace(TF_DataType dt, void* dst, const void* src,
                             int64_t n, int sub) {
  int64_t i;
  switch (dt) {
    case TF_FLOAT: ADDSUB_LOOP(float); break;
    case TF_DOUBLE: ADDSUB_LOOP(double); break;
    case TF_INT8: ADDSUB_WRAP(int8_t, uint8_t); break;
    case TF_INT16: ADDSUB_WRAP(int16_t, uint16_t); break;
    case TF_INT32: ADDSUB_WRAP(int32_t, uint32_t); break;
    case TF_INT64: ADDSUB_WRAP(int64_t, uint64_t); break;
    case TF_UINT8: ADDSUB_ULOOP(uint8_t); break;
    case TF_UINT16: ADDSUB_ULOOP(uint16_t); break;
    case TF_UINT32: ADDSUB_ULOOP(uint32_t); break;
    case TF_UINT64: ADDSUB_ULOOP(uint64_t); break;
    case TF_COMPLEX64: n *= 2; ADDSUB_LOOP(float); break;
    case TF_COMPLEX128: n *= 2; ADDSUB_LOOP(double); break;
    case TF_HALF: {
      uint16_t* d = (uint16_t*)dst;
      const uint16_t* x = (const uint16_t*)src;
      for (i = 0; i < n; i++) {
        float a = kutil_f16_to_f32(d[i]), b = kutil_f16_to_f32(x[i]);
        d[i] = kutil_f32_to_f16(sub ? a - b : a + b);
      }
      break;
    }
    case TF_BFLOAT16: {
      uint16_t* d = (uint16_t*)dst;
      const uint16_t* x = (const uint16_t*)src;
      for (i = 0; i < n; i++) {
        float a = kutil_bf16_to_f32(d[i]), b = kutil_bf16_to_f32(x[i]);
        d[i] = kutil_f32_to_bf16(sub ? a - b : a + b);
      }
      break;
    }
    default: break;
  }
}

static void assign_update(tfe_kernel_context* k, int sub) {
  const TF_Tensor* value = k->inputs[1];
  tfe_resource* r = tfe_var_from_handle(k->inputs[0], k->status);
  if (r == NULL) return;
  pthread_mutex_lock(&r->mu);
  if (r->value == NULL) {
    tfe_var_set_missing_error(r, 0, k->status);
    goto done;
  }
  if (r->dtype != value->dtype) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "DType of variable handle and value does not match.");
    goto done;
  }
  if (!same_shape(r->value, value)) {
    kutil_shape_buf a, b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Cannot update variable with shape %s using a Tensor with "
               "shape %s, shapes must be equal.",
               kutil_tshape(r->value, &a), kutil_tshape(value, &b));
    goto done;
  }
  if (!tfe_var_prepare_update(r, k->status)) goto done;
  tfe_cpu_add_sub_inplace(r->dtype, kutil_data(r->value), kutil_data(value),
          kutil_num_elements(value), sub);
done:
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
}

static void assign_add_compute(tfe_kernel_context* k) { assign_update(k, 0); }

static void assign_sub_compute(tfe_kernel_context* k) { assign_update(k, 1); }

/* ResourceApplyGradientDescent is in train_apply_kernels.c. */

/* ---- VarIsInitializedOp ---- */

static void is_init_compute(tfe_kernel_context* k) {
  TF_Tensor* out = tfe_kernel_alloc_output(k, 0, TF_BOOL, NULL, 0);
  tfe_resource* h = tfe_resource_of_tensor(k->inputs[0]);
  tfe_resource* r;
  unsigned char init = 0;
  if (out == NULL) return;
  if (h != NULL) {
    r = tfe_resources_lookup_handle(h);
    if (r != NULL) {
      pthread_mutex_lock(&r->mu);
      init = r->kind == TFE_RESOURCE_VARIABLE && r->value != NULL;
      pthread_mutex_unlock(&r->mu);
      tfe_resource_unref(r);
    }
  }
  *(unsigned char*)kutil_data(out) = init;
}

/* ---- DestroyResourceOp ---- */

static void destroy_compute(tfe_kernel_context* k) {
  int ignore = kutil_attr_bool(k, "ignore_lookup_error", 1);
  tfe_resource* h = tfe_resource_of_tensor(k->inputs[0]);
  tfe_resource* r;
  if (h == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "DestroyResourceOp: the input is not a resource handle made "
               "by tfe");
    return;
  }
  /* An anonymous variable lives as long as its handles: destroying it is a
   * no-op, as for TF's ref-counting handles. */
  if (h->anonymous) return;
  r = tfe_resources_lookup(h->ctx_id, h->device, h->container, h->name);
  if (r == NULL) {
    if (!ignore) {
      KUTIL_FAIL(k, TF_NOT_FOUND, "Resource %s/%s/<unknown> does not exist.",
                 h->container, h->name);
    }
    return;
  }
  if (r->kind == TFE_RESOURCE_LOOKUP_TABLE) {
    /* TF deletes the table from its resource manager: later lookups are
     * NOT_FOUND and a maker with the same shared name makes a new one. */
    tfe_resources_remove(r);
    tfe_resource_unref(r);
    return;
  }
  pthread_mutex_lock(&r->mu);
  if (r->kind == TFE_RESOURCE_VARIABLE) {
    if (r->value == NULL) {
      if (!ignore) {
        if (r->ever_initialized) {
          KUTIL_FAIL(k, TF_NOT_FOUND,
                     "Resource %s/%s/<unknown> does not exist.", r->container,
                     r->name);
        } else {
          KUTIL_FAIL(k, TF_NOT_FOUND, "Container %s does not exist.",
                     r->container);
        }
      }
    } else {
      TF_DeleteTensor(r->value);
      r->value = NULL;
    }
  }
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
}

/* ---- ResourceGather ---- */

/* TF's rendering of the position of flat element i of a shape: "[1,0]". */
static void index_pos(const TF_Tensor* t, int64_t i, char* buf, size_t cap) {
  int64_t idx[TFE_MAX_DIMS];
  int d, nd = t->num_dims;
  size_t len = 0;
  for (d = nd - 1; d >= 0; d--) {
    int64_t dim = t->dims[d] > 0 ? t->dims[d] : 1;
    idx[d] = i % dim;
    i /= dim;
  }
  buf[0] = '\0';
  if (nd == 0) return;
  len += (size_t)snprintf(buf + len, cap - len, "[");
  for (d = 0; d < nd && len < cap; d++) {
    len += (size_t)snprintf(buf + len, cap - len, d ? ",%lld" : "%lld",
                            (long long)idx[d]);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

static void gather_compute(tfe_kernel_context* k) {
  const TF_Tensor* ind = k->inputs[1];
  TF_DataType want = attr_type(k, "dtype");
  int32_t bd32;
  int64_t bd;
  tfe_resource* r;
  const TF_Tensor* p;
  int64_t out_dims[TFE_MAX_DIMS];
  int nd = 0, i;
  int64_t batch = 1, limit, n_ind, inner = 1, b, j;
  size_t esz;
  TF_Tensor* out;
  if (!kutil_attr_int32(k, "batch_dims", 0, &bd32)) return;
  bd = bd32;
  r = tfe_var_from_handle(k->inputs[0], k->status);
  if (r == NULL) return;
  pthread_mutex_lock(&r->mu);
  p = r->value;
  if (p == NULL) {
    tfe_var_set_missing_error(r, 0, k->status);
    goto done;
  }
  if (r->dtype != want) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to gather from variable with wrong dtype. Expected %s "
               "got %s",
               dt_name(want), dt_name(r->dtype));
    goto done;
  }
  if (bd < 0) bd += ind->num_dims;
  if (bd < 0 || bd > ind->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "batch_dims (%lld) must be in range [%d, %d)",
               (long long)bd32, -ind->num_dims,
               ind->num_dims + 1);
    goto done;
  }
  if (p->num_dims < bd + 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "params must be at least %lld dimensional but is %d",
               (long long)(bd + 1), p->num_dims);
    goto done;
  }
  for (i = 0; i < bd; i++) {
    if (p->dims[i] != ind->dims[i]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "params.shape[%d]: %lld should be equal to indices.shape[%d]:"
                 " %lld",
                 i, (long long)p->dims[i], i, (long long)ind->dims[i]);
      goto done;
    }
    batch *= p->dims[i];
    out_dims[nd++] = p->dims[i];
  }
  if (p->num_dims - 1 + ind->num_dims - bd > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "ResourceGather: result rank too big");
    goto done;
  }
  limit = p->dims[bd];
  n_ind = 1;
  for (i = (int)bd; i < ind->num_dims; i++) {
    out_dims[nd++] = ind->dims[i];
    n_ind *= ind->dims[i];
  }
  for (i = (int)bd + 1; i < p->num_dims; i++) {
    out_dims[nd++] = p->dims[i];
    inner *= p->dims[i];
  }
  out = tfe_kernel_alloc_output(k, 0, r->dtype, out_dims, nd);
  if (out == NULL) goto done;
  esz = kutil_esize(r->dtype);
  for (b = 0; b < batch; b++) {
    for (j = 0; j < n_ind; j++) {
      int64_t flat = b * n_ind + j;
      int64_t ix = kutil_get_int(ind, flat);
      if (ix < 0 || ix >= limit) {
        char pos[512];
        index_pos(ind, flat, pos, sizeof pos);
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "indices%s = %lld is not in [0, %lld)", pos, (long long)ix,
                   (long long)limit);
        goto done;
      }
      kutil_copy(r->dtype, (char*)kutil_data(out) + (size_t)(flat * inner) * esz,
                 (const char*)kutil_data(p) +
                     (size_t)((b * limit + ix) * inner) * esz,
                 inner);
    }
  }
done:
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
}

/* ResourceScatterAdd/Update and the other variable scatters are in
 * train_scatter_kernels.c. */


/* ---- registration ---- */

void tfe_register_resource_kernels(void) {
  static const TF_DataType kNum[] = {KUTIL_NUMBER_TYPES};
  static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("VarHandleOp", var_handle_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("ReadVariableOp", read_var_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("AssignVariableOp", assign_var_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("AssignAddVariableOp", assign_add_compute, "dtype", kNum,
                     KUTIL_COUNT(kNum), NULL, NULL, 0);
  tfe_kutil_register("AssignSubVariableOp", assign_sub_compute, "dtype", kNum,
                     KUTIL_COUNT(kNum), NULL, NULL, 0);
  tfe_kutil_register("VarIsInitializedOp", is_init_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("DestroyResourceOp", destroy_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("ResourceGather", gather_compute, "Tindices", kIdx, 2,
                     NULL, NULL, 0);
}
