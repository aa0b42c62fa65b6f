/* A plugin op library with a gradient: loaded with TF_LoadLibrary, its
 * initialiser defines TfeTestCube(x: float) -> y: float (y = x^3) with
 * ops.h, registers its CPU kernel with kernels.h, and registers the op's
 * gradient (dy * 3x^2) in tfe's one gradient registry with
 * TFE_RegisterGradient (tfe/gradients.h). The gradient builds its ops
 * through the unified API, so the same function serves the eager tape
 * and TF_AddGradients. Not linked to libtfe: every TF_/TFE_ symbol
 * resolves to the runtime that loads it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/eager/c_api_unified_experimental.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "tfe/gradients.h"
#include "tfe/unified.h"

static void cube_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor *x = NULL, *y = NULL;
  int64_t dims[8], n, i;
  int nd, d;
  (void)kernel;
  TF_GetInput(ctx, 0, &x, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  nd = TF_NumDims(x);
  if (nd > 8) {
    TF_SetStatus(s, TF_UNIMPLEMENTED, "TfeTestCube: rank above 8");
    goto done;
  }
  for (d = 0; d < nd; d++) dims[d] = TF_Dim(x, d);
  y = TF_AllocateOutput(ctx, 0, TF_FLOAT, dims, nd, TF_TensorByteSize(x), s);
  if (y == NULL) goto done;
  n = TF_TensorElementCount(x);
  for (i = 0; i < n; i++) {
    const float v = ((const float*)TF_TensorData(x))[i];
    ((float*)TF_TensorData(y))[i] = v * v * v;
  }
done:
  if (TF_GetCode(s) != TF_OK) TF_OpKernelContext_Failure(ctx, s);
  TF_DeleteTensor(x);
  TF_DeleteTensor(y);
  TF_DeleteStatus(s);
}

/* One binary op on the gradient's context; named when traced. */
static TF_AbstractTensor* binary(TFE_GradientContext* g, const char* type,
                                 TF_AbstractTensor* a, TF_AbstractTensor* b, TF_Status* s) {
  static int counter;
  TF_AbstractOp* op = TF_NewAbstractOp(TFE_GradientContextExecutionContext(g));
  TF_AbstractTensor* in[2] = {a, b};
  TF_OutputList* out = TF_NewOutputList();
  TF_AbstractTensor* r = NULL;
  TF_AbstractOpSetOpType(op, type, s);
  if (TF_GetCode(s) == TF_OK && !TFE_AbstractTensorIsEager(a)) {
    char name[64];
    snprintf(name, sizeof name, "TfeTestCube_grad/%s_%d", type, counter++);
    TF_AbstractOpSetOpName(op, name, s);
  }
  if (TF_GetCode(s) == TF_OK) TF_OutputListSetNumOutputs(out, 1, s);
  if (TF_GetCode(s) == TF_OK) TF_ExecuteOperation(op, 2, in, out, s);
  if (TF_GetCode(s) == TF_OK) r = TF_OutputListGet(out, 0);
  TF_DeleteOutputList(out);
  TF_DeleteAbstractOp(op);
  return r;
}

/* d/dx x^3 = 3x^2, times the upstream gradient. */
static void cube_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* dy = TFE_GradientContextOutputGradient(g, 0);
  TF_AbstractTensor *x2 = NULL, *two = NULL, *three = NULL, *dx = NULL;
  if (dy == NULL) return; /* nothing flows back */
  x2 = binary(g, "Mul", x, x, s);
  if (x2 != NULL) two = binary(g, "AddV2", x2, x2, s);
  if (two != NULL) three = binary(g, "AddV2", two, x2, s);
  if (three != NULL) dx = binary(g, "Mul", dy, three, s);
  if (dx != NULL) TFE_GradientContextSetInputGradient(g, 0, dx, s);
  TF_DeleteAbstractTensor(x2);
  TF_DeleteAbstractTensor(two);
  TF_DeleteAbstractTensor(three);
}

static void init(void) __attribute__((constructor));

static void init(void) {
  TF_Status* s = TF_NewStatus();
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("TfeTestCube");
  TF_KernelBuilder* kb;
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_RegisterOpDefinition(b, s);
  if (TF_GetCode(s) == TF_OK) {
    kb = TF_NewKernelBuilder("TfeTestCube", "CPU", NULL, cube_compute, NULL);
    TF_RegisterKernelBuilder("TfeTestCubeCPU", kb, s);
  }
  if (TF_GetCode(s) == TF_OK) TFE_RegisterGradient("TfeTestCube", cube_grad, s);
  if (TF_GetCode(s) != TF_OK) {
    fprintf(stderr, "grad_op_lib: %s\n", TF_Message(s));
  }
  TF_DeleteStatus(s);
}
