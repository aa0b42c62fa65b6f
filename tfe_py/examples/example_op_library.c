/* tfe's example op + kernel library (loaded with TF_LoadLibrary /
 * tfe_py.load_op_library, and checked by `python -m tfe_py doctor`): its
 * initialiser, run when the library is loaded, defines two ops with ops.h
 * and registers CPU kernels for them with kernels.h, as libraries written
 * for TensorFlow do (the same source builds one for TensorFlow).
 *
 *   cc -shared -fPIC -I<include dir> example_op_library.c -o libexample_ops.so
 *
 *   TfeTestScaleAdd(x: T, y: T) -> z: T, attrs T in {float, int32},
 *       scale: float = 2.0; z = scale * x + y (y broadcast when scalar).
 *       Shape function: z has x's shape; x must have rank >= 1 unless y
 *       is a scalar.
 *   TfeTestRowSums(m: float) -> sums: float, stateful; sums[i] = sum of
 *       row i of the matrix m. Shape function: [rows] from a rank-2 m.
 *
 * op_lib_test_loads() counts how often the initialiser ran. */
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/kernels.h"
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

static int g_loads;

TF_CAPI_EXPORT int op_lib_test_loads(void);
int op_lib_test_loads(void) { return g_loads; }

/* ---- shape functions ---- */

static void scale_add_shape(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  TF_ShapeHandle* x = TF_NewShapeHandle();
  TF_ShapeHandle* y = TF_NewShapeHandle();
  TF_ShapeHandle* checked = TF_NewShapeHandle();
  TF_ShapeInferenceContextGetInput(ctx, 0, x, status);
  if (TF_GetCode(status) == TF_OK) {
    TF_ShapeInferenceContextGetInput(ctx, 1, y, status);
  }
  if (TF_GetCode(status) == TF_OK &&
      !(TF_ShapeInferenceContextRankKnown(ctx, y) &&
        TF_ShapeInferenceContextRank(ctx, y) == 0)) {
    TF_ShapeInferenceContextWithRankAtLeast(ctx, x, 1, checked, status);
  }
  if (TF_GetCode(status) == TF_OK) {
    TF_ShapeInferenceContextSetOutput(ctx, 0, x, status);
  }
  TF_DeleteShapeHandle(x);
  TF_DeleteShapeHandle(y);
  TF_DeleteShapeHandle(checked);
}

static void row_sums_shape(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  TF_ShapeHandle* m = TF_NewShapeHandle();
  TF_ShapeHandle* m2 = TF_NewShapeHandle();
  TF_DimensionHandle* rows = TF_NewDimensionHandle();
  TF_ShapeInferenceContextGetInput(ctx, 0, m, status);
  if (TF_GetCode(status) == TF_OK) {
    TF_ShapeInferenceContextWithRank(ctx, m, 2, m2, status);
  }
  if (TF_GetCode(status) == TF_OK) {
    TF_ShapeHandle* out;
    TF_ShapeInferenceContextDim(ctx, m2, 0, rows);
    if (TF_DimensionHandleValueKnown(rows)) {
      out = TF_ShapeInferenceContextVectorFromSize(
          ctx, (size_t)TF_DimensionHandleValue(rows));
    } else {
      out = TF_ShapeInferenceContextVectorFromSize(ctx, 0);
      TF_ShapeInferenceContextSubshape(ctx, m2, 0, 1, out, status);
    }
    if (TF_GetCode(status) == TF_OK) {
      TF_ShapeInferenceContextSetOutput(ctx, 0, out, status);
    }
    TF_DeleteShapeHandle(out);
  }
  TF_DeleteShapeHandle(m);
  TF_DeleteShapeHandle(m2);
  TF_DeleteDimensionHandle(rows);
}

/* ---- kernels ---- */

typedef struct scale_add {
  float scale;
} scale_add;

static void* scale_add_create(TF_OpKernelConstruction* ctx) {
  scale_add* k = (scale_add*)calloc(1, sizeof(*k));
  TF_Status* s = TF_NewStatus();
  TF_OpKernelConstruction_GetAttrFloat(ctx, "scale", &k->scale, s);
  if (TF_GetCode(s) != TF_OK) TF_OpKernelConstruction_Failure(ctx, s);
  TF_DeleteStatus(s);
  return k;
}

static void scale_add_compute(void* kernel, TF_OpKernelContext* ctx) {
  scale_add* k = (scale_add*)kernel;
  TF_Status* s = TF_NewStatus();
  TF_Tensor *x = NULL, *y = NULL, *z = NULL;
  int64_t dims[8], n, i, ny;
  int nd, d;
  TF_GetInput(ctx, 0, &x, s);
  if (TF_GetCode(s) == TF_OK) TF_GetInput(ctx, 1, &y, s);
  if (TF_GetCode(s) != TF_OK) goto fail;
  nd = TF_NumDims(x);
  if (nd > 8) {
    TF_SetStatus(s, TF_UNIMPLEMENTED, "rank above 8");
    goto fail;
  }
  for (d = 0; d < nd; d++) dims[d] = TF_Dim(x, d);
  n = TF_TensorElementCount(x);
  ny = TF_TensorElementCount(y);
  if (ny != 1 && ny != n) {
    TF_SetStatus(s, TF_INVALID_ARGUMENT,
                 "y must be a scalar or have x's number of elements");
    goto fail;
  }
  z = TF_AllocateOutput(ctx, 0, TF_TensorType(x), dims, nd,
                        TF_TensorByteSize(x), s);
  if (z == NULL) goto fail;
  for (i = 0; i < n; i++) {
    int64_t j = ny == 1 ? 0 : i;
    if (TF_TensorType(x) == TF_FLOAT) {
      ((float*)TF_TensorData(z))[i] =
          k->scale * ((const float*)TF_TensorData(x))[i] +
          ((const float*)TF_TensorData(y))[j];
    } else {
      ((int32_t*)TF_TensorData(z))[i] =
          (int32_t)k->scale * ((const int32_t*)TF_TensorData(x))[i] +
          ((const int32_t*)TF_TensorData(y))[j];
    }
  }
  goto done;
fail:
  TF_OpKernelContext_Failure(ctx, s);
done:
  TF_DeleteTensor(x);
  TF_DeleteTensor(y);
  TF_DeleteTensor(z);
  TF_DeleteStatus(s);
}

static void row_sums_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor *m = NULL, *out = NULL;
  int64_t rows, cols, r, c;
  (void)kernel;
  TF_GetInput(ctx, 0, &m, s);
  if (TF_GetCode(s) == TF_OK && TF_NumDims(m) != 2) {
    TF_SetStatus(s, TF_INVALID_ARGUMENT, "m must be a matrix");
  }
  if (TF_GetCode(s) != TF_OK) goto fail;
  rows = TF_Dim(m, 0);
  cols = TF_Dim(m, 1);
  out = TF_AllocateOutput(ctx, 0, TF_FLOAT, &rows, 1,
                          (size_t)rows * sizeof(float), s);
  if (out == NULL) goto fail;
  for (r = 0; r < rows; r++) {
    float acc = 0;
    for (c = 0; c < cols; c++) {
      acc += ((const float*)TF_TensorData(m))[r * cols + c];
    }
    ((float*)TF_TensorData(out))[r] = acc;
  }
  goto done;
fail:
  TF_OpKernelContext_Failure(ctx, s);
done:
  TF_DeleteTensor(m);
  TF_DeleteTensor(out);
  TF_DeleteStatus(s);
}

static void free_kernel(void* k) { free(k); }

__attribute__((constructor)) static void op_lib_test_init(void) {
  TF_Status* s = TF_NewStatus();
  TF_OpDefinitionBuilder* b;
  TF_KernelBuilder* k;
  g_loads++;

  b = TF_NewOpDefinitionBuilder("TfeTestScaleAdd");
  TF_OpDefinitionBuilderAddInput(b, "x: T");
  TF_OpDefinitionBuilderAddInput(b, "y: T");
  TF_OpDefinitionBuilderAddOutput(b, "z: T");
  TF_OpDefinitionBuilderAddAttr(b, "T: {float, int32}");
  TF_OpDefinitionBuilderAddAttr(b, "scale: float = 2.0");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(b, scale_add_shape);
  TF_RegisterOpDefinition(b, s);

  b = TF_NewOpDefinitionBuilder("TfeTestRowSums");
  TF_OpDefinitionBuilderAddInput(b, "m: float");
  TF_OpDefinitionBuilderAddOutput(b, "sums: float");
  TF_OpDefinitionBuilderSetIsStateful(b, true);
  /* Marked for removal at a future GraphDef version (TF 2.21's is 2474):
   * the OpDef carries the notice and the op still runs. At or below the
   * current version, TF (and tfe) would refuse to make its kernel. */
  TF_OpDefinitionBuilderDeprecated(b, 9999, "use a reduction instead");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(b, row_sums_shape);
  TF_RegisterOpDefinition(b, s);

  k = TF_NewKernelBuilder("TfeTestScaleAdd", "CPU", scale_add_create,
                          scale_add_compute, free_kernel);
  TF_KernelBuilder_TypeConstraint(k, "T", TF_FLOAT, s);
  TF_KernelBuilder_TypeConstraint(k, "T", TF_INT32, s);
  TF_RegisterKernelBuilder("TfeTestScaleAddCpu", k, s);

  k = TF_NewKernelBuilder("TfeTestRowSums", "CPU", NULL, row_sums_compute,
                          NULL);
  TF_RegisterKernelBuilder("TfeTestRowSumsCpu", k, s);
  TF_DeleteStatus(s);
}
