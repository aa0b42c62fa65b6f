/* CPU kernels: CountUpTo, ResourceCountUpTo and TF 1's Variable, with
 * TensorFlow 2.21's semantics and messages.
 *
 * CountUpTo increments a scalar int32/int64 Ref variable and outputs the
 * value it had, failing with OUT_OF_RANGE once that value reached `limit`.
 * ResourceCountUpTo does the same on a resource variable (its new value is
 * a new buffer, so tensors read before keep their value). Variable is
 * VariableV2's TF 1 twin: an uninitialized Ref(dtype) cell, kept under the
 * shared_name (in a graph: the node's name) in the context's registry of
 * reference variables (kernels/ref_var.h), the key VariableV2 uses.
 * FakeQueue turns a queue's resource handle into a TF 1 queue handle. */
#include <stdio.h>
#include <string.h>

#include "core/tensor_internal.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"
#include "tensorflow/c/tf_tstring.h"

void tfe_register_cpu_dataflow2_counter_kernels(void);

static int64_t read_int(const TF_Tensor* t) {
  return t->dtype == TF_INT32 ? *(const int32_t*)kutil_data(t)
                              : *(const int64_t*)kutil_data(t);
}

static void write_int(TF_Tensor* t, int64_t v) {
  if (t->dtype == TF_INT32) {
    *(int32_t*)kutil_data(t) = (int32_t)v;
  } else {
    *(int64_t*)kutil_data(t) = v;
  }
}

static void k_count_up_to(tfe_kernel_context* k) {
  tfe_ref_cell* c = tfe_kernel_input_ref(k, 0);
  int64_t limit = kutil_attr_int64(k, "limit", 0), before;
  TF_Tensor* out;
  kutil_shape_buf b;
  if (c == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input 0 of CountUpTo is not a reference");
    return;
  }
  pthread_mutex_lock(&c->mu);
  if (c->value == NULL) {
    TF_Tensor* none = tfe_ref_cell_read(c, 1, k->status);
    TF_DeleteTensor(none);
    pthread_mutex_unlock(&c->mu);
    return;
  }
  if (c->value->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input is not a scalar: %s",
               kutil_tshape(c->value, &b));
    pthread_mutex_unlock(&c->mu);
    return;
  }
  before = read_int(c->value);
  if (before >= limit) {
    KUTIL_FAIL(k, TF_OUT_OF_RANGE, "Reached limit of %lld", (long long)limit);
    pthread_mutex_unlock(&c->mu);
    return;
  }
  /* TF increments the referenced buffer in place. */
  write_int(c->value, before + 1);
  pthread_mutex_unlock(&c->mu);
  out = tfe_kernel_alloc_output(k, 0, k->output_types[0], NULL, 0);
  if (out != NULL) write_int(out, before);
}

static void k_resource_count_up_to(tfe_kernel_context* k) {
  int64_t limit = kutil_attr_int64(k, "limit", 0), before;
  TF_DataType dt = k->output_types[0];
  tfe_resource* r = tfe_var_from_handle(k->inputs[0], k->status);
  TF_Tensor *next, *out;
  kutil_shape_buf b;
  if (r == NULL) return;
  pthread_mutex_lock(&r->mu);
  if (r->value == NULL) {
    /* TF looks the variable up and finds none (it was never assigned). */
    KUTIL_FAIL(k, TF_NOT_FOUND, "Resource %s/%s/N10tensorflow3VarE does not exist.",
               r->container, r->name);
    goto unlock;
  }
  if (r->value->dtype != dt) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to read variable with wrong dtype. Expected %s got %s",
               tfe_dtype_short_name(r->value->dtype), tfe_dtype_short_name(dt));
    goto unlock;
  }
  if (r->value->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input is not a scalar: %s",
               kutil_tshape(r->value, &b));
    goto unlock;
  }
  before = read_int(r->value);
  if (before >= limit) {
    KUTIL_FAIL(k, TF_OUT_OF_RANGE, "Reached limit of %lld", (long long)limit);
    goto unlock;
  }
  /* A new buffer for the new value; the old one is the output. */
  next = TF_AllocateTensor(dt, NULL, 0, kutil_esize(dt));
  if (next == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    goto unlock;
  }
  write_int(next, before + 1);
  out = r->value;
  r->value = next;
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
  tfe_kernel_set_output(k, 0, out);
  return;
unlock:
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
}

/* FakeQueue(resource): a TF 1 Ref(string) queue handle [container, name]
 * naming the queue that a resource handle refers to, so TF 1 queue ops can
 * use a V2 queue. */
static void k_fake_queue(tfe_kernel_context* k) {
  static const int64_t dims[1] = {2};
  const TF_Tensor* h = k->inputs[0];
  tfe_resource* r = h->dtype == TF_RESOURCE ? tfe_resource_of_tensor(h) : NULL;
  TF_Tensor* t;
  TF_TString* v;
  tfe_ref_cell* c;
  if (r == NULL || kutil_num_elements(h) < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "FakeQueue: input 0 is not a resource handle made by tfe");
    return;
  }
  t = TF_AllocateTensor(TF_STRING, dims, 1, 2 * sizeof(TF_TString));
  if (t == NULL) goto oom;
  v = (TF_TString*)kutil_data(t);
  TF_TString_Copy(&v[0], r->container, strlen(r->container));
  TF_TString_Copy(&v[1], r->name, strlen(r->name));
  c = tfe_ref_cell_new(TF_STRING, t);
  if (c == NULL) goto oom;
  tfe_kernel_set_output_ref(k, 0, c);
  tfe_ref_cell_unref(c);
  return;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in FakeQueue");
}

void tfe_register_cpu_dataflow2_counter_kernels(void) {
  static const TF_DataType kInts[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("CountUpTo", k_count_up_to, "T", kInts, 2, NULL, NULL,
                     0);
  tfe_kutil_register("ResourceCountUpTo", k_resource_count_up_to, "T", kInts,
                     2, NULL, NULL, 0);
  tfe_kutil_register("FakeQueue", k_fake_queue, NULL, NULL, 0, NULL, NULL, 0);
}
