/* TF_OpKernelContext: inputs, outputs, allocation, ids and streams of a
 * running C-API kernel (kernels.h). */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "core/version.h"
#include "eager/eager_internal.h"
#include "kernels/capi_kernel.h"
#include "kernels/host_memory.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"
#include "ops/proto_encode.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/logging.h"


TF_Tensor* tfe_capi_share(const TF_Tensor* t) {
  if (t == NULL) return NULL;
  return tfe_tensor_from_buffer(t->dtype, t->dims, t->num_dims, t->buf);
}

uint64_t tfe_capi_ctx_id(const TF_OpKernelContext* ctx) {
  const TFE_Context* c;
  if (ctx == NULL || ctx->k == NULL || ctx->k->eager_ctx == NULL) return 0;
  c = (const TFE_Context*)ctx->k->eager_ctx;
  return c->id;
}

static int in_range(TF_OpKernelContext* ctx, int i, int n, const char* fn,
                    TF_Status* s) {
  if (ctx == NULL || ctx->k == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: NULL context", fn);
    return 0;
  }
  if (i < 0 || i >= n) {
    tfe_status_setf(s, TF_OUT_OF_RANGE, "%s: index %d is out of range [0, %d)",
                    fn, i, n);
    return 0;
  }
  return 1;
}

/* Types that always live in host memory, whatever the device. */
static int host_only_type(TF_DataType t) {
  return t == TF_STRING || t == TF_RESOURCE || t == TF_VARIANT;
}

static int input_on_host(const TF_OpKernelContext* ctx, int i) {
  const tfe_kernel_context* k = ctx->k;
  if (ctx->pdev == NULL) return 1;
  if (k->inputs[i] != NULL && host_only_type(k->inputs[i]->dtype)) return 1;
  return tfe_kernel_arg_in_host_memory(ctx->ck->reg, k->op_def, k->attrs, 0,
                                       i);
}

static int output_on_host(const TF_OpKernelContext* ctx, int i) {
  const tfe_kernel_context* k = ctx->k;
  if (ctx->pdev == NULL) return 1;
  if (k->output_types != NULL && host_only_type(k->output_types[i])) return 1;
  return tfe_kernel_arg_in_host_memory(ctx->ck->reg, k->op_def, k->attrs, 1,
                                       i);
}

int tfe_capi_arg_range(const tfe_kernel_context* k, int is_output,
                       const char* name, int* start, int* stop, TF_Status* s) {
  const tfe_op_def* def = k->op_def;
  int n = is_output ? def->num_outputs : def->num_inputs;
  const tfe_arg_def* args = is_output ? def->outputs : def->inputs;
  int i, pos = 0;
  for (i = 0; name != NULL && i < n; i++) {
    int len = 1;
    if (!tfe_op_def_arg_length(def, &args[i], k->attrs, &len, s)) return 0;
    if (strcmp(args[i].name, name) == 0) {
      *start = pos;
      *stop = pos + len;
      tfe_status_ok(s);
      return 1;
    }
    pos += len;
  }
  tfe_status_setf(s, TF_INVALID_ARGUMENT, "Unknown %s name: %s",
                  is_output ? "output" : "input", name ? name : "(null)");
  return 0;
}

/* ------------------------------------------------------------------------
 * Inputs. */

int TF_NumInputs(TF_OpKernelContext* ctx) {
  return ctx == NULL || ctx->k == NULL ? -1 : ctx->k->num_inputs;
}

int TF_NumOutputs(TF_OpKernelContext* ctx) {
  return ctx == NULL || ctx->k == NULL ? -1 : ctx->k->num_outputs;
}

void TF_GetInput(TF_OpKernelContext* ctx, int i, TF_Tensor** tensor,
                 TF_Status* status) {
  TF_Tensor* t;
  if (!in_range(ctx, i, ctx ? TF_NumInputs(ctx) : 0, "TF_GetInput", status)) {
    return;
  }
  if (tensor == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "TF_GetInput: tensor is NULL");
    return;
  }
  if (tfe_kernel_input_ref(ctx->k, i) != NULL) {
    /* A reference: its value now (the kernel may have assigned it). */
    t = tfe_ref_cell_read(tfe_kernel_input_ref(ctx->k, i), 0, status);
    if (t == NULL) return;
    *tensor = t;
    tfe_status_ok(status);
    return;
  }
  t = tfe_capi_share(ctx->k->inputs[i]);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "TF_GetInput: out of memory");
    return;
  }
  *tensor = t;
  tfe_status_ok(status);
}

void TF_InputRange(TF_OpKernelContext* ctx, const char* name,
                   TF_InputRange_Args* args) {
  if (args == NULL) return;
  if (ctx == NULL || ctx->k == NULL) {
    tfe_status_setf(args->status, TF_INVALID_ARGUMENT,
                    "TF_InputRange: NULL context");
    return;
  }
  tfe_capi_arg_range(ctx->k, 0, name, &args->start, &args->stop,
                     args->status);
}

TF_DataType TF_InputDatatype(TF_OpKernelContext* ctx, int index) {
  tfe_ref_cell* ref = ctx != NULL ? tfe_kernel_input_ref(ctx->k, index) : NULL;
  /* A reference reports its base dtype (TF would say e.g. DT_FLOAT_REF,
   * which TF_DataType cannot express). */
  if (ref != NULL) return ref->dtype;
  if (ctx == NULL || ctx->k == NULL || index < 0 ||
      index >= ctx->k->num_inputs || ctx->k->inputs[index] == NULL) {
    TF_Log(TF_ERROR, "TF_InputDatatype: input index %d is out of range",
           index);
    return (TF_DataType)0;
  }
  return ctx->k->inputs[index]->dtype;
}

void TF_GetInputByName(TF_OpKernelContext* ctx, const char* inputName,
                       TF_Tensor** tensor, TF_Status* status) {
  int start, stop;
  if (ctx == NULL || ctx->k == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_GetInputByName: NULL context");
    return;
  }
  if (!tfe_capi_arg_range(ctx->k, 0, inputName, &start, &stop, status)) return;
  if (stop - start != 1) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Expected input %s to be a single tensor, but it holds %d",
                    inputName, stop - start);
    return;
  }
  TF_GetInput(ctx, start, tensor, status);
}

bool TF_IsRefInput(TF_OpKernelContext* ctx, int i, TF_Status* status) {
  if (!in_range(ctx, i, ctx ? TF_NumInputs(ctx) : 0, "TF_IsRefInput",
                status)) {
    return false;
  }
  tfe_status_ok(status);
  return tfe_kernel_input_ref(ctx->k, i) != NULL;
}

bool TF_IsHostMemoryInput(TF_OpKernelContext* ctx, int i, TF_Status* status) {
  if (!in_range(ctx, i, ctx ? TF_NumInputs(ctx) : 0, "TF_IsHostMemoryInput",
                status)) {
    return false;
  }
  tfe_status_ok(status);
  return input_on_host(ctx, i) != 0;
}

bool TF_IsHostMemoryOutput(TF_OpKernelContext* ctx, int i,
                           TF_Status* status) {
  if (!in_range(ctx, i, ctx ? TF_NumOutputs(ctx) : 0, "TF_IsHostMemoryOutput",
                status)) {
    return false;
  }
  tfe_status_ok(status);
  return output_on_host(ctx, i) != 0;
}

/* ------------------------------------------------------------------------
 * Outputs. */

/* A Ref(T) output takes a reference, never a tensor. */
static int plain_output(TF_OpKernelContext* ctx, int i, const char* fn,
                        TF_Status* s) {
  if (ctx->k->output_refs != NULL &&
      tfe_op_def_flat_is_ref(ctx->k->op_def, ctx->k->attrs, 1, i)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: output %d of %s is a reference (Ref) output; use "
                    "TF_OpKernelContext_ForwardRefInputToRefOutput",
                    fn, i, ctx->k->op_def->name);
    return 0;
  }
  return 1;
}

static void put_output(tfe_kernel_context* k, int i, TF_Tensor* t) {
  if (k->outputs[i] != NULL) TF_DeleteTensor(k->outputs[i]);
  k->outputs[i] = t;
}

void TF_SetOutput(TF_OpKernelContext* ctx, int i, const TF_Tensor* tensor,
                  TF_Status* status) {
  TF_Tensor* t;
  if (!in_range(ctx, i, ctx ? TF_NumOutputs(ctx) : 0, "TF_SetOutput",
                status)) {
    return;
  }
  if (tensor == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "TF_SetOutput: tensor is NULL");
    return;
  }
  if (!plain_output(ctx, i, "TF_SetOutput", status)) return;
  if (ctx->k->output_types != NULL && tensor->dtype != ctx->k->output_types[i]) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_SetOutput: output %d of %s must be a %s tensor, got %s",
                    i, ctx->k->op_def->name,
                    tfe_dtype_enum_name(ctx->k->output_types[i]),
                    tfe_dtype_enum_name(tensor->dtype));
    return;
  }
  t = tfe_capi_share(tensor);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "TF_SetOutput: out of memory");
    return;
  }
  put_output(ctx->k, i, t);
  tfe_status_ok(status);
}

TF_Tensor* TF_GetMutableOutput(TF_OpKernelContext* ctx, int i,
                               TF_Status* status) {
  TF_Tensor* t;
  if (!in_range(ctx, i, ctx ? TF_NumOutputs(ctx) : 0, "TF_GetMutableOutput",
                status)) {
    return NULL;
  }
  if (ctx->k->outputs[i] == NULL) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "TF_GetMutableOutput: output %d has not been set", i);
    return NULL;
  }
  t = tfe_capi_share(ctx->k->outputs[i]);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return t;
}

TF_DataType TF_ExpectedOutputDataType(TF_OpKernelContext* ctx, int i) {
  if (ctx == NULL || ctx->k == NULL || i < 0 || i >= ctx->k->num_outputs ||
      ctx->k->output_types == NULL) {
    TF_Log(TF_ERROR, "TF_ExpectedOutputDataType: output index %d is out of "
                     "range", i);
    return (TF_DataType)0;
  }
  return ctx->k->output_types[i];
}

TF_Tensor* tfe_capi_alloc(TF_OpKernelContext* ctx, int on_host,
                          TF_DataType dtype, const int64_t* dims,
                          int num_dims, TF_Status* status) {
  TF_Tensor* t;
  size_t bytes = 0;
  int64_t n;
  size_t esz;
  if (!on_host && ctx->pdev != NULL && !host_only_type(dtype)) {
    return tfe_pdev_alloc_tensor(ctx->pdev, dtype, dims, num_dims, 1, status);
  }
  if (num_dims < 0 || num_dims > TFE_MAX_DIMS ||
      (num_dims > 0 && dims == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "invalid rank %d", num_dims);
    return NULL;
  }
  n = tfe_shape_num_elements(dims, num_dims);
  esz = dtype == TF_STRING ? sizeof(TF_TString) : TF_DataTypeSize(dtype);
  if (n < 0 || (esz == 0 && dtype != TF_RESOURCE && dtype != TF_VARIANT) ||
      !tfe_mul_size((size_t)n, esz, &bytes)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "cannot allocate a %s tensor of that shape",
                    tfe_dtype_enum_name(dtype));
    return NULL;
  }
  t = TF_AllocateTensor(dtype, dims, num_dims, bytes);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "OOM when allocating a tensor of %zu bytes", bytes);
    return NULL;
  }
  tfe_status_ok(status);
  return t;
}

TF_Tensor* TF_AllocateOutput(TF_OpKernelContext* context, int index,
                             TF_DataType dtype, const int64_t* dims,
                             int num_dims, size_t len, TF_Status* status) {
  TF_Tensor *t, *view;
  (void)len; /* TensorFlow ignores it too: the shape decides */
  if (!in_range(context, index, context ? TF_NumOutputs(context) : 0,
                "TF_AllocateOutput", status) ||
      !plain_output(context, index, "TF_AllocateOutput", status)) {
    return NULL;
  }
  if (context->k->output_types != NULL &&
      dtype != context->k->output_types[index]) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_AllocateOutput: output %d of %s has dtype %s, not %s",
                    index, context->k->op_def->name,
                    tfe_dtype_enum_name(context->k->output_types[index]),
                    tfe_dtype_enum_name(dtype));
    return NULL;
  }
  t = tfe_capi_alloc(context, output_on_host(context, index), dtype, dims, num_dims,
               status);
  if (t == NULL) return NULL;
  view = tfe_capi_share(t);
  if (view == NULL) {
    TF_DeleteTensor(t);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  put_output(context->k, index, t);
  tfe_status_ok(status);
  return view;
}

TF_Tensor* TF_ForwardInputOrAllocateOutput(
    TF_OpKernelContext* context, const int* candidate_input_indices,
    int num_candidate_input_indices, int output_index,
    const int64_t* output_dims, int output_num_dims, int* forwarded_input,
    TF_Status* status) {
  TF_DataType dtype;
  int i;
  int64_t n;
  if (num_candidate_input_indices < 0 ||
      (num_candidate_input_indices > 0 && candidate_input_indices == NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_ForwardInputOrAllocateOutput: bad candidate list");
    return NULL;
  }
  if (forwarded_input != NULL) *forwarded_input = -1;
  if (!in_range(context, output_index,
                context ? TF_NumOutputs(context) : 0,
                "TF_ForwardInputOrAllocateOutput", status) ||
      !plain_output(context, output_index, "TF_ForwardInputOrAllocateOutput",
                    status)) {
    return NULL;
  }
  dtype = context->k->output_types ? context->k->output_types[output_index]
                                   : TF_FLOAT;
  n = (output_num_dims >= 0 && output_num_dims <= TFE_MAX_DIMS &&
       (output_num_dims == 0 || output_dims != NULL))
          ? tfe_shape_num_elements(output_dims, output_num_dims)
          : -1;
  /* As TF: an input may become the output when the runtime lets it be
   * reused (nobody else can observe it: tfe_kernel_can_forward; a kernel
   * that still holds the tensor TF_GetInput gave it holds a reference and
   * so prevents this, as in TF) and both live in the same memory. Forwarded
   * buffers are core host memory, so a PluggableDevice kernel forwards
   * only between host-memory args. */
  for (i = 0; n >= 0 && i < num_candidate_input_indices; i++) {
    int c = candidate_input_indices[i];
    TF_Tensor *t, *view;
    if (c < 0 || c >= context->k->num_inputs) continue;
    if (!input_on_host(context, c) || !output_on_host(context, output_index) ||
        !tfe_kernel_can_forward(context->k, c, dtype, n)) {
      continue;
    }
    t = tfe_tensor_from_buffer(dtype, output_dims, output_num_dims,
                               context->k->inputs[c]->buf);
    view = t != NULL ? tfe_capi_share(t) : NULL;
    if (view == NULL) {
      TF_DeleteTensor(t);
      break; /* out of memory: allocating reports it */
    }
    put_output(context->k, output_index, t);
    context->k->forwarded |= (uint64_t)1 << c;
    if (forwarded_input != NULL) *forwarded_input = c;
    tfe_status_ok(status);
    return view;
  }
  return TF_AllocateOutput(context, output_index, dtype, output_dims,
                           output_num_dims, 0, status);
}

TF_Tensor* TF_AllocateTemp(TF_OpKernelContext* context, TF_DataType dtype,
                           const int64_t* dims, int num_dims,
                           TF_AllocatorAttributes* alloc_attrs,
                           TF_Status* status) {
  int on_host = alloc_attrs != NULL && alloc_attrs->struct_size > 0 &&
                alloc_attrs->on_host;
  if (context == NULL || context->k == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_AllocateTemp: NULL context");
    return NULL;
  }
  return tfe_capi_alloc(context, on_host, dtype, dims, num_dims, status);
}

/* ------------------------------------------------------------------------
 * Failure, ids, names, streams. */

void TF_OpKernelContext_Failure(TF_OpKernelContext* ctx, TF_Status* status) {
  if (ctx == NULL || ctx->k == NULL || status == NULL ||
      TF_GetCode(status) == TF_OK) {
    return;
  }
  tfe_status_copy(ctx->k->status, status);
}

int64_t TF_StepId(TF_OpKernelContext* ctx) {
  (void)ctx;
  return 0;
}

uint64_t TF_GetFrameId(TF_OpKernelContext* ctx) {
  (void)ctx;
  return 0;
}

int64_t TF_GetIterId(TF_OpKernelContext* ctx) {
  (void)ctx;
  return 0;
}

int64_t TF_GetStepId(TF_OpKernelContext* ctx) { return TF_StepId(ctx); }

int TF_GetDeviceId(TF_OpKernelContext* ctx) {
  return ctx == NULL ? -1 : ctx->device_id;
}

static TF_StringView view_of(const char* s) {
  TF_StringView v;
  v.data = s != NULL ? s : "";
  v.len = strlen(v.data);
  return v;
}

TF_StringView TF_GetDeviceName(TF_OpKernelContext* ctx) {
  return view_of(ctx && ctx->k ? ctx->k->device_name : NULL);
}

int TF_GetGraphDefVersion(TF_OpKernelContext* ctx) {
  (void)ctx;
  return TFE_GRAPH_DEF_VERSION;
}

TF_StringView TF_GetOpKernelName(TF_OpKernelContext* ctx) {
  return view_of(ctx && ctx->k && ctx->k->op_def ? ctx->k->op_def->name : NULL);
}

TF_StringView TF_GetResourceMgrDefaultContainerName(TF_OpKernelContext* ctx) {
  (void)ctx;
  return view_of("localhost");
}

TF_StringView TF_GetOpKernelRequestedInput(TF_OpKernelContext* ctx,
                                           size_t index) {
  (void)ctx;
  (void)index;
  return view_of("");
}

SP_Stream TF_GetStream(TF_OpKernelContext* ctx, TF_Status* status) {
  if (ctx == NULL || ctx->pdev == NULL) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "Accessing device stream is not supported for a %s "
                    "device.",
                    ctx == NULL ? "NULL" : "non-PluggableDevice");
    return NULL;
  }
  return tfe_pdev_compute_stream_locked(ctx->pdev, status);
}

void TF_IncNumDeferredOps(TF_OpKernelContext* context) {
  if (context != NULL) context->deferred_ops++;
}

void TF_DecNumDeferredOps(TF_OpKernelContext* context) {
  if (context != NULL) context->deferred_ops--;
}

/* ------------------------------------------------------------------------
 * Serialized protos. */

static int empty_buffer_ok(TF_Buffer* b, const char* fn, TF_Status* s) {
  if (b == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: buffer is NULL", fn);
    return 0;
  }
  if (b->data != NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Passing non-empty TF_Buffer is invalid.");
    return 0;
  }
  return 1;
}

void TF_GetSerializedFunctionDefLibrary(
    TF_OpKernelContext* ctx, TF_Buffer* serialized_function_def_library,
    TF_Status* status) {
  (void)ctx;
  if (!empty_buffer_ok(serialized_function_def_library,
                       "TF_GetSerializedFunctionDefLibrary", status)) {
    return;
  }
  serialized_function_def_library->length = 0;
  serialized_function_def_library->data_deallocator = NULL;
  tfe_status_ok(status);
}

void TF_GetSerializedConfigProto(TF_OpKernelContext* ctx,
                                 TF_Buffer* serialized_config_proto,
                                 TF_Status* status) {
  (void)ctx;
  if (!empty_buffer_ok(serialized_config_proto, "TF_GetSerializedConfigProto",
                       status)) {
    return;
  }
  serialized_config_proto->length = 0;
  serialized_config_proto->data_deallocator = NULL;
  tfe_status_ok(status);
}

struct tfe_resource* tfe_capi_input_resource(TF_OpKernelContext* ctx, int i,
                                             TF_Status* s) {
  const TF_Tensor* t;
  tfe_resource* r;
  if (!in_range(ctx, i, ctx ? TF_NumInputs(ctx) : 0, "resource input", s)) {
    return NULL;
  }
  t = ctx->k->inputs[i];
  if (t == NULL || t->dtype != TF_RESOURCE) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "input %d of %s is not a resource (its dtype is %s)", i,
                    ctx->k->op_def->name,
                    tfe_dtype_enum_name(t ? t->dtype : (TF_DataType)0));
    return NULL;
  }
  r = tfe_resource_of_tensor(t);
  if (r == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "input %d of %s is a DT_RESOURCE tensor that does not "
                    "refer to a resource",
                    i, ctx->k->op_def->name);
    return NULL;
  }
  return r;
}

static void free_bytes(void* data, size_t len) {
  (void)len;
  tfe_free(data);
}

void TF_GetSerializedResourceHandleProto(
    TF_OpKernelContext* ctx, int i, TF_Buffer* serialized_resource_handle_proto,
    TF_Status* status) {
  tfe_resource* r;
  tfe_pbw w = {0};
  uint64_t h = 1469598103934665603ull;
  const char* p;
  if (!empty_buffer_ok(serialized_resource_handle_proto,
                       "TF_GetSerializedResourceHandleProto", status)) {
    return;
  }
  r = tfe_capi_input_resource(ctx, i, status);
  if (r == NULL) return;
  for (p = r->name; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
  tfe_pbw_str(&w, 1, r->device);
  tfe_pbw_str(&w, 2, r->container);
  tfe_pbw_str(&w, 3, r->name);
  tfe_pbw_uint(&w, 4, h);
  tfe_pbw_str(&w, 5, r->kind == TFE_RESOURCE_VARIABLE ? "Var"
                                                      : "PluginResource");
  if (r->kind == TFE_RESOURCE_VARIABLE) {
    tfe_pbw ds = {0}, shape = {0};
    pthread_mutex_lock(&r->mu);
    tfe_pbw_uint(&ds, 1, (uint64_t)r->dtype);
    if (r->value != NULL) {
      tfe_pb_shape(&shape, r->value->dims, r->value->num_dims);
    } else {
      tfe_pb_shape(&shape, NULL, -1);
    }
    pthread_mutex_unlock(&r->mu);
    tfe_pbw_sub(&ds, 2, &shape);
    tfe_pbw_sub(&w, 6, &ds);
  }
  if (w.oom) {
    tfe_pbw_free(&w);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  serialized_resource_handle_proto->data = w.data;
  serialized_resource_handle_proto->length = w.len;
  serialized_resource_handle_proto->data_deallocator = free_bytes;
  tfe_status_ok(status);
}
