/* Test plugin (issue 18): an op library that defines no op and registers a
 * CPU kernel for XlaSharding, a TF 2.21 op that tfe defines only through
 * its generated table (csrc/ops/defs_generated.c) and has no kernel for.
 * The kernel forwards its input, so a test can run the op after loading
 * this library. gen_op_kernel_runs counts the calls. */
#include <stddef.h>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"

int gen_op_kernel_registered;
int gen_op_kernel_runs;

static void forward_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* in = NULL;
  (void)kernel;
  gen_op_kernel_runs++;
  TF_GetInput(ctx, 0, &in, s);
  if (TF_GetCode(s) == TF_OK) TF_SetOutput(ctx, 0, in, s);
  if (TF_GetCode(s) != TF_OK) TF_OpKernelContext_Failure(ctx, s);
  TF_DeleteTensor(in);
  TF_DeleteStatus(s);
}

__attribute__((constructor)) static void gen_op_kernel_init(void) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* b =
      TF_NewKernelBuilder("XlaSharding", "CPU", NULL, forward_compute, NULL);
  TF_KernelBuilder_TypeConstraint(b, "T", TF_FLOAT, s);
  if (TF_GetCode(s) == TF_OK) {
    TF_RegisterKernelBuilder("GenOpKernelXlaSharding", b, s);
    gen_op_kernel_registered = TF_GetCode(s) == TF_OK;
  } else {
    TF_DeleteKernelBuilder(b);
  }
  TF_DeleteStatus(s);
}
