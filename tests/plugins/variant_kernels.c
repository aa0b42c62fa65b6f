/* Test kernel library: "AddN" and "ZerosLike" for T=DT_VARIANT on CPU, at a
 * higher priority than tfe's built-in kernels, written the way a device
 * plugin writes them: the kernel hands the variant walk to TF_AddNVariant /
 * TF_ZerosLikeVariant and only supplies per-element float arithmetic. The
 * counters below (read by the tests with dlsym) show that the callbacks
 * ran once per element pair / element. Not linked against libtfe. */
#include <stdint.h>
#include <string.h>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

/* Read by tests (dlsym). */
int variant_kernels_add_calls;
int variant_kernels_zeros_calls;
int variant_kernels_addn_runs;
int variant_kernels_zeros_runs;
int variant_kernels_last_code = -1; /* status code seen by the kernel */
int variant_kernels_registered;

/* a + b into out, for float elements; the callback owns all three. */
static void add_floats(TF_OpKernelContext* ctx, TF_Tensor* a, TF_Tensor* b,
                       TF_Tensor* out) {
  variant_kernels_add_calls++;
  if (TF_TensorType(a) != TF_FLOAT || TF_TensorType(b) != TF_FLOAT ||
      TF_TensorType(out) != TF_FLOAT ||
      TF_TensorElementCount(a) != TF_TensorElementCount(out) ||
      TF_TensorElementCount(b) != TF_TensorElementCount(out)) {
    TF_Status* s = TF_NewStatus();
    TF_SetStatus(s, TF_UNIMPLEMENTED, "variant_kernels: only float elements");
    TF_OpKernelContext_Failure(ctx, s);
    TF_DeleteStatus(s);
  } else {
    const float* x = (const float*)TF_TensorData(a);
    const float* y = (const float*)TF_TensorData(b);
    float* z = (float*)TF_TensorData(out);
    int64_t i, n = TF_TensorElementCount(out);
    for (i = 0; i < n; i++) z[i] = x[i] + y[i];
  }
  TF_DeleteTensor(a);
  TF_DeleteTensor(b);
  TF_DeleteTensor(out);
}

static void zero_fill(TF_OpKernelContext* ctx, TF_Tensor* in, TF_Tensor* out) {
  (void)ctx;
  variant_kernels_zeros_calls++;
  if (TF_TensorByteSize(out) > 0) {
    memset(TF_TensorData(out), 0, TF_TensorByteSize(out));
  }
  TF_DeleteTensor(in);
  TF_DeleteTensor(out);
}

static void addn_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  (void)kernel;
  variant_kernels_addn_runs++;
  TF_AddNVariant(ctx, add_floats, s);
  variant_kernels_last_code = (int)TF_GetCode(s);
  TF_DeleteStatus(s);
}

static void zeros_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  (void)kernel;
  variant_kernels_zeros_runs++;
  TF_ZerosLikeVariant(ctx, zero_fill, s);
  variant_kernels_last_code = (int)TF_GetCode(s);
  TF_DeleteStatus(s);
}

static int register_one(const char* op, const char* name,
                        void (*compute)(void*, TF_OpKernelContext*)) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* b = TF_NewKernelBuilder(op, "CPU", NULL, compute, NULL);
  int ok;
  TF_KernelBuilder_TypeConstraint(b, "T", TF_VARIANT, s);
  ok = TF_GetCode(s) == TF_OK;
  TF_KernelBuilder_Priority(b, 10);
  if (ok) {
    TF_RegisterKernelBuilder(name, b, s);
    ok = TF_GetCode(s) == TF_OK;
  } else {
    TF_DeleteKernelBuilder(b);
  }
  TF_DeleteStatus(s);
  return ok;
}

__attribute__((constructor)) static void variant_kernels_init(void) {
  variant_kernels_registered =
      register_one("AddN", "VariantKernelsAddN", addn_compute) +
      register_one("ZerosLike", "VariantKernelsZerosLike", zeros_compute);
}
