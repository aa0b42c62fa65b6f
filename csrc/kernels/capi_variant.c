/* kernels_experimental.h: TF_AddNVariant and TF_ZerosLikeVariant, the
 * DT_VARIANT arithmetic a plugin kernel delegates to the core. The walk
 * over TensorList / Optional objects is the one the built-in CPU kernels
 * use (csrc/core/variant.c); only the per-element arithmetic comes from
 * the plugin's callback. */
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "core/variant.h"
#include "kernels/capi_kernel.h"
#include "tensorflow/c/kernels_experimental.h"

typedef void (*binary_add_cb)(TF_OpKernelContext*, TF_Tensor*, TF_Tensor*,
                              TF_Tensor*);
typedef void (*zeros_like_cb)(TF_OpKernelContext*, TF_Tensor*, TF_Tensor*);

typedef struct capi_arg {
  TF_OpKernelContext* ctx;
  binary_add_cb add;
  zeros_like_cb zeros;
} capi_arg;

/* Runs after a plugin callback: its failure (TF_OpKernelContext_Failure)
 * becomes ours. */
static int callback_ok(TF_OpKernelContext* ctx, TF_Status* s) {
  if (TF_GetCode(ctx->k->status) != TF_OK) {
    tfe_status_copy(s, ctx->k->status);
    return 0;
  }
  return 1;
}

/* The callback receives three new TF_Tensor objects which it owns and
 * deletes, as in TensorFlow: views of a and b, and `out`, allocated like a
 * (variant results in host memory, others where the kernel's device puts
 * its temporaries). */
static int capi_add(void* p, const TF_Tensor* a, const TF_Tensor* b,
                    TF_Tensor** out, TF_Status* s) {
  capi_arg* arg = (capi_arg*)p;
  TF_Tensor *av, *bv, *ov, *o;
  o = tfe_capi_alloc(arg->ctx, a->dtype == TF_VARIANT, a->dtype, a->dims,
                     a->num_dims, s);
  if (o == NULL) return 0;
  av = tfe_tensor_share(a);
  bv = tfe_tensor_share(b);
  ov = tfe_tensor_share(o);
  if (av == NULL || bv == NULL || ov == NULL) {
    TF_DeleteTensor(av);
    TF_DeleteTensor(bv);
    TF_DeleteTensor(ov);
    TF_DeleteTensor(o);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  arg->add(arg->ctx, av, bv, ov);
  if (!callback_ok(arg->ctx, s)) {
    TF_DeleteTensor(o);
    return 0;
  }
  *out = o;
  return 1;
}

static int capi_zeros(void* p, const TF_Tensor* in, TF_Tensor** out,
                      TF_Status* s) {
  capi_arg* arg = (capi_arg*)p;
  TF_Tensor *iv, *ov, *o;
  o = tfe_capi_alloc(arg->ctx, in->dtype == TF_VARIANT, in->dtype, in->dims,
                     in->num_dims, s);
  if (o == NULL) return 0;
  iv = tfe_tensor_share(in);
  ov = tfe_tensor_share(o);
  if (iv == NULL || ov == NULL) {
    TF_DeleteTensor(iv);
    TF_DeleteTensor(ov);
    TF_DeleteTensor(o);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  arg->zeros(arg->ctx, iv, ov);
  if (!callback_ok(arg->ctx, s)) {
    TF_DeleteTensor(o);
    return 0;
  }
  *out = o;
  return 1;
}

/* Records a failure on both the kernel context and the caller's status. */
static void fail_both(TF_OpKernelContext* ctx, TF_Status* status) {
  if (TF_GetCode(ctx->k->status) == TF_OK) tfe_status_copy(ctx->k->status, status);
}

static int check_ctx(TF_OpKernelContext* ctx, int have_fn, const char* who,
                     TF_Status* status) {
  if (ctx == NULL || ctx->k == NULL || !have_fn) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: the context and the callback must not be NULL", who);
    return 0;
  }
  if (ctx->k->num_inputs < 1 || ctx->k->num_outputs < 1) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: the kernel needs an input and an output", who);
    fail_both(ctx, status);
    return 0;
  }
  return 1;
}

void TF_AddNVariant(TF_OpKernelContext* ctx,
                    void (*binary_add_func)(TF_OpKernelContext* ctx,
                                            TF_Tensor* a, TF_Tensor* b,
                                            TF_Tensor* out),
                    TF_Status* status) {
  capi_arg arg;
  TF_Tensor* out;
  int i;
  if (!check_ctx(ctx, binary_add_func != NULL, "TF_AddNVariant",
                 status)) {
    return;
  }
  for (i = 0; i < ctx->k->num_inputs; i++) {
    if (ctx->k->inputs[i] == NULL || ctx->k->inputs[i]->dtype != TF_VARIANT) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "TF_AddNVariant: input %d is not a DT_VARIANT tensor",
                      i);
      fail_both(ctx, status);
      return;
    }
  }
  arg.ctx = ctx;
  arg.add = binary_add_func;
  arg.zeros = NULL;
  out = tfe_variant_add_n(ctx->k->inputs, ctx->k->num_inputs, capi_add, &arg,
                          ctx->k->device_name, status);
  if (out == NULL) {
    fail_both(ctx, status);
    return;
  }
  tfe_kernel_set_output(ctx->k, 0, out);
  tfe_status_ok(status);
}

void TF_ZerosLikeVariant(TF_OpKernelContext* ctx,
                         void (*zeros_like_func)(TF_OpKernelContext* ctx,
                                                 TF_Tensor* input,
                                                 TF_Tensor* out),
                         TF_Status* status) {
  capi_arg arg;
  TF_Tensor* out;
  if (!check_ctx(ctx, zeros_like_func != NULL, "TF_ZerosLikeVariant",
                 status)) {
    return;
  }
  if (ctx->k->inputs[0] == NULL || ctx->k->inputs[0]->dtype != TF_VARIANT) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_ZerosLikeVariant: input 0 is not a DT_VARIANT tensor");
    fail_both(ctx, status);
    return;
  }
  arg.ctx = ctx;
  arg.add = NULL;
  arg.zeros = zeros_like_func;
  out = tfe_variant_zeros_like_tensor(ctx->k->inputs[0], capi_zeros, &arg,
                                      ctx->k->device_name, status);
  if (out == NULL) {
    fail_both(ctx, status);
    return;
  }
  tfe_kernel_set_output(ctx->k, 0, out);
  tfe_status_ok(status);
}
