/* kernels_experimental.h on reference (Ref(T)) inputs and outputs:
 * TF_AssignRefVariable, TF_OpKernelContext_ForwardRefInputToRefOutput,
 * TF_TemporaryVariable and TF_DestroyTemporaryVariable. The cells and the
 * temporary-variable registry are in kernels/ref_var.h; this file adapts
 * them to the C API (copyFunc / plugin_allocator callbacks, device memory
 * through tfe_capi_alloc). */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "kernels/capi_kernel.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/logging.h"

typedef void (*copy_fn)(TF_OpKernelContext*, TF_Tensor*, TF_Tensor*);

static const char* op_name(const TF_OpKernelContext* ctx) {
  return ctx->k->op_def != NULL ? ctx->k->op_def->name : "?";
}

static int check_ctx(TF_OpKernelContext* ctx, const char* fn, TF_Status* s) {
  if (ctx == NULL || ctx->k == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: NULL context", fn);
    return 0;
  }
  return 1;
}

/* The cell of reference input i; INVALID_ARGUMENT for a bad index or a
 * plain input. */
static tfe_ref_cell* ref_input(TF_OpKernelContext* ctx, int i, const char* fn,
                               TF_Status* s) {
  tfe_ref_cell* c;
  if (i < 0 || i >= ctx->k->num_inputs) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: input index %d is out of range [0, %d) for %s", fn, i,
                    ctx->k->num_inputs, op_name(ctx));
    return NULL;
  }
  c = tfe_kernel_input_ref(ctx->k, i);
  if (c == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: input %d of %s is not a reference (Ref) input", fn,
                    i, op_name(ctx));
  }
  return c;
}

/* Checks that output j is a Ref(T) output. */
static int ref_output(TF_OpKernelContext* ctx, int j, const char* fn,
                      TF_Status* s) {
  if (j < 0 || j >= ctx->k->num_outputs) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: output index %d is out of range [0, %d) for %s", fn,
                    j, ctx->k->num_outputs, op_name(ctx));
    return 0;
  }
  if (ctx->k->output_refs == NULL ||
      !tfe_op_def_flat_is_ref(ctx->k->op_def, ctx->k->attrs, 1, j)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: output %d of %s is not a reference (Ref) output", fn,
                    j, op_name(ctx));
    return 0;
  }
  return 1;
}

static void set_output_ref(TF_OpKernelContext* ctx, int j, tfe_ref_cell* c) {
  tfe_ref_cell_ref(c);
  tfe_ref_cell_unref(ctx->k->output_refs[j]);
  ctx->k->output_refs[j] = c;
}

/* ------------------------------------------------------------------------
 * Forwarding. */

void TF_OpKernelContext_ForwardRefInputToRefOutput(TF_OpKernelContext* ctx,
                                                   int32_t input_index,
                                                   int32_t output_index) {
  const char* fn = "TF_OpKernelContext_ForwardRefInputToRefOutput";
  tfe_ref_cell* c;
  if (ctx == NULL || ctx->k == NULL) {
    TF_Log(TF_ERROR, "%s: NULL context; nothing forwarded", fn);
    return;
  }
  /* TF does nothing for a resource input (it has no reference). */
  if (input_index >= 0 && input_index < ctx->k->num_inputs &&
      tfe_kernel_input_ref(ctx->k, input_index) == NULL &&
      ctx->k->inputs[input_index] != NULL &&
      ctx->k->inputs[input_index]->dtype == TF_RESOURCE) {
    return;
  }
  /* There is no status argument: a misuse fails the kernel. */
  c = ref_input(ctx, input_index, fn, ctx->k->status);
  if (c == NULL || !ref_output(ctx, output_index, fn, ctx->k->status)) return;
  set_output_ref(ctx, output_index, c);
}

/* ------------------------------------------------------------------------
 * Assignment. */

typedef struct assign_user {
  TF_OpKernelContext* ctx;
  copy_fn copyFunc;
} assign_user;

/* A new tensor like `like` in the memory `like` lives in (the kernel's
 * device memory, or host memory). */
static TF_Tensor* capi_alloc_like(void* user, const TF_Tensor* like,
                                  TF_Status* s) {
  assign_user* u = (assign_user*)user;
  return tfe_capi_alloc(u->ctx, tfe_pdev_tensor_device(like) == NULL,
                        like->dtype, like->dims, like->num_dims, s);
}

/* copyFunc(ctx, src, dst) on views of the two tensors; 0 with the
 * kernel's failure copied into s. */
static int capi_copy(void* user, const TF_Tensor* src, const TF_Tensor* dst,
                     TF_Status* s) {
  assign_user* u = (assign_user*)user;
  TF_Tensor* sv = tfe_capi_share(src);
  TF_Tensor* dv = tfe_capi_share(dst);
  if (sv == NULL || dv == NULL) {
    TF_DeleteTensor(sv);
    TF_DeleteTensor(dv);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  u->copyFunc(u->ctx, sv, dv);
  TF_DeleteTensor(sv);
  TF_DeleteTensor(dv);
  if (TF_GetCode(u->ctx->k->status) != TF_OK) {
    tfe_status_copy(s, u->ctx->k->status);
    return 0;
  }
  return 1;
}

void TF_AssignRefVariable(
    TF_OpKernelContext* ctx, int input_ref_index, int output_ref_index,
    int value_index, bool use_locking, bool validate_shape,
    void (*copyFunc)(TF_OpKernelContext* ctx, TF_Tensor* source,
                     TF_Tensor* dest),
    TF_Status* status) {
  const char* fn = "TF_AssignRefVariable";
  tfe_ref_cell *c, *rhs_ref;
  TF_Tensor* rhs;
  assign_user user;
  int ok;
  (void)use_locking; /* tfe always copies under the reference's lock */
  if (!check_ctx(ctx, fn, status)) return;
  c = ref_input(ctx, input_ref_index, fn, status);
  if (c == NULL || !ref_output(ctx, output_ref_index, fn, status)) return;
  if (value_index < 0 || value_index >= ctx->k->num_inputs) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: value index %d is out of range [0, %d)", fn,
                    value_index, ctx->k->num_inputs);
    return;
  }
  if (copyFunc == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s: copyFunc is NULL", fn);
    return;
  }
  /* The output is the input reference, whatever happens next. */
  set_output_ref(ctx, output_ref_index, c);
  rhs_ref = tfe_kernel_input_ref(ctx->k, value_index);
  if (rhs_ref != NULL) {
    rhs = tfe_ref_cell_read(rhs_ref, 0, NULL);
  } else {
    rhs = tfe_capi_share(ctx->k->inputs[value_index]);
  }
  if (rhs == NULL) {
    tfe_status_setf(status, TF_INTERNAL,
                    "Right hand side of AssignOp is not initialized");
    return;
  }
  if (rhs->dtype != c->dtype) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: cannot assign a %s value to a %s reference", fn,
                    tfe_dtype_enum_name(rhs->dtype),
                    tfe_dtype_enum_name(c->dtype));
    TF_DeleteTensor(rhs);
    return;
  }
  user.ctx = ctx;
  user.copyFunc = copyFunc;
  pthread_mutex_lock(&c->mu);
  ok = tfe_ref_assign_locked(c, rhs, validate_shape, capi_alloc_like,
                             capi_copy, &user, status);
  /* Device memory: the value was written by the compute stream. */
  if (ok && c->value != NULL) tfe_pdev_mark_compute(c->value);
  pthread_mutex_unlock(&c->mu);
  TF_DeleteTensor(rhs);
  if (ok) tfe_status_ok(status);
}

/* ------------------------------------------------------------------------
 * Temporary variables. */

/* The registry name: var_name, or the op's name when it is empty (TF uses
 * the node name; an eager node is named after its op). Caller frees. */
static char* tmpvar_name(TF_OpKernelContext* ctx, const TF_StringView* v) {
  const char* src = op_name(ctx);
  size_t len = strlen(src);
  char* out;
  if (v != NULL && v->data != NULL && v->len > 0) {
    src = v->data;
    len = v->len;
  }
  out = (char*)tfe_malloc(len + 1);
  if (out == NULL) return NULL;
  memcpy(out, src, len);
  out[len] = '\0';
  return out;
}

void TF_TemporaryVariable(
    TF_OpKernelContext* ctx, TF_DataType dtype, const int64_t* dims,
    int num_dims, TF_StringView* var_name,
    void (*plugin_allocator)(TF_OpKernelContext*, TF_Tensor*, TF_DataType,
                             const int64_t*, int, TF_Status*),
    TF_Status* tf_status) {
  const char* fn = "TF_TemporaryVariable";
  TF_Tensor* dest;
  tfe_ref_cell* c;
  char* name;
  if (!check_ctx(ctx, fn, tf_status)) return;
  if (num_dims < 0 || num_dims > TFE_MAX_DIMS ||
      (num_dims > 0 && dims == NULL) ||
      tfe_shape_num_elements(dims, num_dims) < 0) {
    tfe_status_setf(tf_status, TF_INVALID_ARGUMENT, "%s: invalid shape", fn);
    return;
  }
  if (!ref_output(ctx, 0, fn, tf_status)) return;
  if (plugin_allocator != NULL) {
    /* The plugin fills an empty tensor, typically with
     * TF_TensorBitcastFrom from a TF_AllocateTemp tensor. */
    dest = tfe_tensor_from_buffer(dtype, NULL, 0, NULL);
    if (dest == NULL) {
      tfe_status_setf(tf_status, TF_RESOURCE_EXHAUSTED,
                      "Could not allocate TmpVar.");
      return;
    }
    tfe_status_ok(tf_status);
    plugin_allocator(ctx, dest, dtype, dims, num_dims, tf_status);
    if (TF_GetCode(tf_status) != TF_OK) {
      TF_DeleteTensor(dest);
      return;
    }
    if (dest->buf == NULL || dest->dtype != dtype ||
        dest->num_dims != num_dims ||
        (num_dims > 0 &&
         memcmp(dest->dims, dims, sizeof(int64_t) * (size_t)num_dims) != 0)) {
      TF_DeleteTensor(dest);
      tfe_status_setf(tf_status, TF_INTERNAL,
                      "%s: plugin_allocator did not give the tensor a buffer "
                      "of the requested dtype and shape",
                      fn);
      return;
    }
  } else {
    /* No allocator: the core allocates in the kernel's device memory. */
    dest = tfe_capi_alloc(ctx, 0, dtype, dims, num_dims, tf_status);
    if (dest == NULL) return;
  }
  c = tfe_ref_cell_new(dtype, dest);
  name = tmpvar_name(ctx, var_name);
  if (c == NULL || name == NULL) {
    tfe_ref_cell_unref(c);
    tfe_free(name);
    tfe_status_setf(tf_status, TF_RESOURCE_EXHAUSTED,
                    "Could not allocate TmpVar.");
    return;
  }
  if (tfe_tmpvar_create(tfe_capi_ctx_id(ctx), name, c, tf_status)) {
    set_output_ref(ctx, 0, c);
    tfe_status_ok(tf_status);
  }
  tfe_ref_cell_unref(c);
  tfe_free(name);
}

void TF_DestroyTemporaryVariable(TF_OpKernelContext* ctx, const int index,
                                 TF_StringView* var_name,
                                 TF_Status* tf_status) {
  const char* fn = "TF_DestroyTemporaryVariable";
  tfe_ref_cell* c;
  TF_Tensor* value;
  char* name;
  if (!check_ctx(ctx, fn, tf_status)) return;
  if (index < 0 || index >= ctx->k->num_inputs) {
    tfe_status_setf(tf_status, TF_INVALID_ARGUMENT,
                    "%s: input index %d is out of range [0, %d)", fn, index,
                    ctx->k->num_inputs);
    return;
  }
  c = tfe_kernel_input_ref(ctx->k, index);
  if (c == NULL) {
    tfe_status_setf(tf_status, TF_INVALID_ARGUMENT,
                    "lhs input needs to be a ref type");
    return;
  }
  if (var_name == NULL || var_name->data == NULL || var_name->len == 0) {
    tfe_status_setf(tf_status, TF_INVALID_ARGUMENT,
                    "Missing var_name attribute");
    return;
  }
  if (ctx->k->num_outputs < 1 ||
      tfe_op_def_flat_is_ref(ctx->k->op_def, ctx->k->attrs, 1, 0)) {
    tfe_status_setf(tf_status, TF_INVALID_ARGUMENT,
                    "%s: output 0 of %s must be a plain tensor", fn,
                    op_name(ctx));
    return;
  }
  /* Output 0 is the final value (sharing its buffer). */
  value = tfe_ref_cell_read(c, 0, tf_status);
  if (value == NULL) return;
  if (ctx->k->outputs[0] != NULL) TF_DeleteTensor(ctx->k->outputs[0]);
  ctx->k->outputs[0] = value;
  name = tmpvar_name(ctx, var_name);
  if (name == NULL) {
    tfe_status_setf(tf_status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  if (tfe_tmpvar_delete(tfe_capi_ctx_id(ctx), name, tf_status)) {
    tfe_status_ok(tf_status);
  }
  tfe_free(name);
}
