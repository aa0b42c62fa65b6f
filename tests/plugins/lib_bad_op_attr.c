/* A broken op library for the TF_LoadLibrary tests: its load-time
 * constructor registers a valid op TfeBadLibGood with a CPU kernel, then an
 * op TfeBadLibBroken whose attr spec is malformed, then a valid op
 * TfeBadLibLater. TensorFlow fails such a load with INVALID_ARGUMENT;
 * nothing the library registered may stay. What the constructor saw is
 * readable through the exported functions below. */
#include <string.h>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

static int g_loads;
static TF_Code g_good_code = TF_UNKNOWN, g_broken_code = TF_OK,
               g_later_code = TF_UNKNOWN, g_kernel_code = TF_UNKNOWN;

static void identity_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* in = NULL;
  (void)kernel;
  TF_GetInput(ctx, 0, &in, s);
  if (TF_GetCode(s) == TF_OK) TF_SetOutput(ctx, 0, in, s);
  TF_DeleteTensor(in);
  TF_DeleteStatus(s);
}

__attribute__((constructor)) static void lib_bad_op_attr_init(void) {
  TF_Status* s = TF_NewStatus();
  TF_OpDefinitionBuilder* b;
  TF_KernelBuilder* k;
  g_loads++;

  b = TF_NewOpDefinitionBuilder("TfeBadLibGood");
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_RegisterOpDefinition(b, s);
  g_good_code = TF_GetCode(s);

  k = TF_NewKernelBuilder("TfeBadLibGood", "CPU", NULL, identity_compute,
                          NULL);
  TF_RegisterKernelBuilder("TfeBadLibGoodCpu", k, s);
  g_kernel_code = TF_GetCode(s);

  /* The attr spec lacks its type after the colon. */
  b = TF_NewOpDefinitionBuilder("TfeBadLibBroken");
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_OpDefinitionBuilderAddAttr(b, "bad_attr:");
  TF_RegisterOpDefinition(b, s);
  g_broken_code = TF_GetCode(s);

  b = TF_NewOpDefinitionBuilder("TfeBadLibLater");
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_RegisterOpDefinition(b, s);
  g_later_code = TF_GetCode(s);
  TF_DeleteStatus(s);
}

/* Times the constructor ran; codes the registrations returned to it
 * (which: 0 the good op, 1 its kernel, 2 the broken op, 3 the later op). */
__attribute__((visibility("default"))) int tfe_test_bad_lib_loads(void) {
  return g_loads;
}

__attribute__((visibility("default"))) int tfe_test_bad_lib_code(int which) {
  switch (which) {
    case 0:
      return (int)g_good_code;
    case 1:
      return (int)g_kernel_code;
    case 2:
      return (int)g_broken_code;
    default:
      return (int)g_later_code;
  }
}
