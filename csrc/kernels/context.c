/* Output helpers for kernels: allocate an output, alias an input's buffer,
 * reuse (forward) the buffer of an input nobody else can observe, or hand
 * over a tensor that the kernel built itself. */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "kernels/kernel.h"
#include "tensorflow/c/tf_tstring.h"

static int check_index(tfe_kernel_context* k, int index, const char* what) {
  if (k->outputs == NULL || index < 0 || index >= k->num_outputs) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "%s: output index %d out of range [0, %d) for op %s", what,
                    index, k->num_outputs,
                    k->op_def && k->op_def->name ? k->op_def->name : "?");
    return 0;
  }
  return 1;
}

/* Bytes per element of dtype (TF_TString for strings); 0 when unknown. */
static size_t elem_size(TF_DataType dtype) {
  if (dtype == TF_STRING) return sizeof(TF_TString);
  return TF_DataTypeSize(dtype);
}

static void replace_output(tfe_kernel_context* k, int index, TF_Tensor* t) {
  if (k->outputs[index] != NULL && k->outputs[index] != t) {
    TF_DeleteTensor(k->outputs[index]);
  }
  k->outputs[index] = t;
}

TF_Tensor* tfe_kernel_alloc_output(tfe_kernel_context* k, int index,
                                   TF_DataType dtype, const int64_t* dims,
                                   int num_dims) {
  int64_t n;
  size_t esz, bytes;
  TF_Tensor* t;
  if (k == NULL) return NULL;
  if (!check_index(k, index, "tfe_kernel_alloc_output")) return NULL;
  if (num_dims < 0 || num_dims > TFE_MAX_DIMS ||
      (num_dims > 0 && dims == NULL)) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "Output %d of %s: invalid rank %d", index,
                    k->op_def && k->op_def->name ? k->op_def->name : "?",
                    num_dims);
    return NULL;
  }
  n = tfe_shape_num_elements(dims, num_dims);
  if (n < 0) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "Output %d of %s: shape has a negative dimension or too "
                    "many elements",
                    index, k->op_def && k->op_def->name ? k->op_def->name : "?");
    return NULL;
  }
  esz = elem_size(dtype);
  if (esz == 0) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "Output %d of %s: cannot allocate a tensor of dtype %d",
                    index, k->op_def && k->op_def->name ? k->op_def->name : "?",
                    (int)dtype);
    return NULL;
  }
  if (!tfe_mul_size((size_t)n, esz, &bytes)) {
    tfe_status_setf(k->status, TF_RESOURCE_EXHAUSTED,
                    "Output %d of %s: tensor of %lld elements is too large",
                    index, k->op_def && k->op_def->name ? k->op_def->name : "?",
                    (long long)n);
    return NULL;
  }
  t = TF_AllocateTensor(dtype, dims, num_dims, bytes);
  if (t == NULL) {
    tfe_status_setf(k->status, TF_RESOURCE_EXHAUSTED,
                    "OOM when allocating output %d of %s (%zu bytes)", index,
                    k->op_def && k->op_def->name ? k->op_def->name : "?",
                    bytes);
    return NULL;
  }
  replace_output(k, index, t);
  return t;
}

TF_Tensor* tfe_kernel_alias_input(tfe_kernel_context* k, int index,
                                  int input_index, const int64_t* dims,
                                  int num_dims) {
  const TF_Tensor* in;
  TF_DataType dtype;
  int64_t n_in, n_out;
  size_t in_bytes, out_bytes;
  TF_Tensor* t;
  if (k == NULL) return NULL;
  if (!check_index(k, index, "tfe_kernel_alias_input")) return NULL;
  if (k->inputs == NULL || input_index < 0 || input_index >= k->num_inputs ||
      k->inputs[input_index] == NULL) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "tfe_kernel_alias_input: input index %d out of range "
                    "[0, %d)",
                    input_index, k->num_inputs);
    return NULL;
  }
  in = k->inputs[input_index];
  dtype = k->output_types != NULL ? k->output_types[index] : in->dtype;
  if (num_dims < 0 || num_dims > TFE_MAX_DIMS ||
      (num_dims > 0 && dims == NULL)) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "tfe_kernel_alias_input: invalid rank %d", num_dims);
    return NULL;
  }
  n_out = tfe_shape_num_elements(dims, num_dims);
  n_in = tfe_shape_num_elements(in->dims, in->num_dims);
  if (n_out < 0 || n_in < 0) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "tfe_kernel_alias_input: invalid shape");
    return NULL;
  }
  if ((dtype == TF_STRING) != (in->dtype == TF_STRING) ||
      elem_size(dtype) == 0 || elem_size(in->dtype) == 0 ||
      !tfe_mul_size((size_t)n_out, elem_size(dtype), &out_bytes) ||
      !tfe_mul_size((size_t)n_in, elem_size(in->dtype), &in_bytes) ||
      out_bytes != in_bytes) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "tfe_kernel_alias_input: output %d (%s, %lld elements) "
                    "cannot share the buffer of input %d (%s, %lld elements)",
                    index, tfe_dtype_enum_name(dtype), (long long)n_out,
                    input_index, tfe_dtype_enum_name(in->dtype),
                    (long long)n_in);
    return NULL;
  }
  t = tfe_tensor_from_buffer(dtype, dims, num_dims, in->buf);
  if (t == NULL) {
    tfe_status_setf(k->status, TF_RESOURCE_EXHAUSTED,
                    "OOM when aliasing input %d as output %d", input_index,
                    index);
    return NULL;
  }
  replace_output(k, index, t);
  return t;
}

int tfe_kernel_can_forward(const tfe_kernel_context* k, int input,
                           TF_DataType dtype, int64_t num_elements) {
  const TF_Tensor* in;
  const tfe_tensor_buffer* b;
  if (k == NULL || input < 0 || input >= 64 || input >= k->num_inputs ||
      k->inputs == NULL || (k->forwardable & ((uint64_t)1 << input)) == 0) {
    return 0;
  }
  if (k->input_refs != NULL && k->input_refs[input] != NULL) return 0;
  in = k->inputs[input];
  if (in == NULL || in->dtype != dtype || dtype == TF_STRING ||
      dtype == TF_VARIANT || dtype == TF_RESOURCE) {
    return 0;
  }
  if (tfe_shape_num_elements(in->dims, in->num_dims) != num_elements) return 0;
  b = in->buf;
  /* Core host memory only (never a caller's block or device memory), and
   * only while inputs[i] is its one holder. */
  if (b == NULL || !b->owns_memory || b->data == NULL) return 0;
  return atomic_load_explicit(&((tfe_tensor_buffer*)b)->refcount,
                              memory_order_acquire) == 1;
}

TF_Tensor* tfe_kernel_forward_or_alloc_output(tfe_kernel_context* k,
                                              const int* candidates,
                                              int num_candidates, int index,
                                              TF_DataType dtype,
                                              const int64_t* dims,
                                              int num_dims, int* forwarded) {
  int i;
  int64_t n;
  if (forwarded != NULL) *forwarded = -1;
  if (k == NULL) return NULL;
  if (k->forwardable != 0 && candidates != NULL && num_candidates > 0 &&
      num_dims >= 0 && num_dims <= TFE_MAX_DIMS &&
      (num_dims == 0 || dims != NULL) && check_index(k, index, "forward") &&
      (n = tfe_shape_num_elements(dims, num_dims)) >= 0) {
    for (i = 0; i < num_candidates; i++) {
      TF_Tensor* t;
      if (!tfe_kernel_can_forward(k, candidates[i], dtype, n)) continue;
      t = tfe_tensor_from_buffer(dtype, dims, num_dims,
                                 k->inputs[candidates[i]]->buf);
      if (t == NULL) break; /* out of memory: let allocation report it */
      replace_output(k, index, t);
      k->forwarded |= (uint64_t)1 << candidates[i];
      if (forwarded != NULL) *forwarded = candidates[i];
      return t;
    }
  }
  return tfe_kernel_alloc_output(k, index, dtype, dims, num_dims);
}

void tfe_kernel_set_output(tfe_kernel_context* k, int index, TF_Tensor* t) {
  if (k == NULL) {
    TF_DeleteTensor(t);
    return;
  }
  if (!check_index(k, index, "tfe_kernel_set_output")) {
    /* Ownership was passed to us: do not leak it. */
    TF_DeleteTensor(t);
    return;
  }
  replace_output(k, index, t);
}
