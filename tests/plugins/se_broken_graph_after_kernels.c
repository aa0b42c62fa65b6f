/* Broken device plugin for the StreamExecutor loader tests: TF_InitKernel
 * registers an op (SeBrokenKernelOp) and a kernel for it on KGRAPH_DEVICE,
 * then TF_InitGraph sets no optimize_func. The failed load must take both
 * back. */
#define SE_PLATFORM_NAME "KGRAPH_PLATFORM"
#define SE_DEVICE_TYPE "KGRAPH_DEVICE"
#define SE_WITH_GRAPH 1
#define SE_BREAK_GRAPH(params) (params)->optimizer->optimize_func = NULL;
#include "se_broken_common.h"

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"

static void se_kernel_compute(void* kernel, TF_OpKernelContext* ctx) {
  (void)kernel;
  (void)ctx;
}

TF_CAPI_EXPORT void TF_InitKernel(void);
void TF_InitKernel(void) {
  TF_Status* s = TF_NewStatus();
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("SeBrokenKernelOp");
  TF_KernelBuilder* k;
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_RegisterOpDefinition(b, s);
  k = TF_NewKernelBuilder("SeBrokenKernelOp", SE_DEVICE_TYPE, NULL,
                          se_kernel_compute, NULL);
  TF_RegisterKernelBuilder("SeBrokenKernelOpKernel", k, s);
  TF_DeleteStatus(s);
}
