/* Gradient functions (session 9, group more5): gradients of the ops that
 * received kernels in csrc/kernels/cpu/more18_kernels.c, where TF 2.21
 * differentiates them.
 *
 * - TensorStridedSliceUpdate: the input's gradient is dy with the slice
 *   zeroed (the op itself writing zeros), the value's the slice of dy
 *   summed down to the value's shape (the value is broadcast).
 * - ImageProjectiveTransformV2/V3: TF's rule (not the derivative of the
 *   sampling): the images' gradient is dy transformed back by the inverse
 *   transforms, with the same interpolation and fill mode (V3: fill value
 *   0, as TF); the transforms, output shape and fill value get none.
 * - ResourceGatherNd: the variable's gradient is dy scattered (summed)
 *   into the variable's shape, dense where TF gives IndexedSlices for
 *   single-index rows.
 *
 * Cases: tools/grad_cases/more5.py (the raw-tensor ops);
 * tests/python/test_more18_ops.py (ResourceGatherNd, on a variable). */
#include <stddef.h>

#include "eager/grad_local.h"

static const char* const kSliceMasks[] = {"begin_mask", "end_mask", "ellipsis_mask",
                                          "new_axis_mask", "shrink_axis_mask"};

static void copy_masks(TFE_GradientContext* g, TF_AbstractOp* op, TF_Status* s) {
  size_t i;
  for (i = 0; i < sizeof kSliceMasks / sizeof kSliceMasks[0]; i++)
    gl_cp_int(g, op, kSliceMasks[i], s);
}

static void grad_tensor_strided_slice_update(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* value = TFE_GradientContextInput(g, 4);
  TF_AbstractTensor *zeros, *dx, *dv, *dvr;
  TF_AbstractOp* op;
  int i;
  if (dy == NULL) return;
  zeros = gu_call1(g, "ZerosLike", value, s);
  op = gl_op(g, "TensorStridedSliceUpdate", s);
  gl_in(op, dy, s);
  for (i = 1; i <= 3; i++) gl_in(op, TFE_GradientContextInput(g, i), s);
  gl_in(op, zeros, s);
  copy_masks(g, op, s);
  dx = gl_fin(op, s);
  op = gl_op(g, "StridedSlice", s);
  gl_in(op, dy, s);
  for (i = 1; i <= 3; i++) gl_in(op, TFE_GradientContextInput(g, i), s);
  copy_masks(g, op, s);
  dv = gl_fin(op, s);
  dvr = gl_reduce_to(g, dv, value, s);
  gu_give(g, 0, dx, s);
  gu_give(g, 4, dvr, s);
  TF_DeleteAbstractTensor(zeros);
  TF_DeleteAbstractTensor(dv);
}

/* Slice(x, begin, size) over int32 constant vectors of length n. */
static TF_AbstractTensor* slice_c(TFE_GradientContext* g, TF_AbstractTensor* x,
                                  const int32_t* begin, const int32_t* size, int n,
                                  TF_Status* s) {
  TF_AbstractTensor* b = GL_OK(s) ? gu_const_i32(g, begin, n, s) : NULL;
  TF_AbstractTensor* z = GL_OK(s) ? gu_const_i32(g, size, n, s) : NULL;
  TF_AbstractOp* op = gl_op(g, "Slice", s);
  TF_AbstractTensor* r;
  gl_in(op, x, s);
  gl_in(op, b, s);
  gl_in(op, z, s);
  r = gl_fin(op, s);
  TF_DeleteAbstractTensor(b);
  TF_DeleteAbstractTensor(z);
  return r;
}

static void grad_image_projective_transform(TFE_GradientContext* g, TF_Status* s) {
  static const int32_t k00[2] = {0, 0}, kCol[2] = {-1, 1}, k08[2] = {0, 8}, kFirst8[2] = {-1, 8};
  static const int32_t k33[3] = {-1, 3, 3}, k9[2] = {-1, 9}, k1[1] = {1}, k2[1] = {2};
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* images = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* tr = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor *col = NULL, *ones = NULL, *axis = NULL, *full = NULL, *m = NULL, *inv = NULL,
                    *flat = NULL, *last = NULL, *norm = NULL, *inv8 = NULL, *shp = NULL,
                    *hw = NULL, *sh33 = NULL, *sh9 = NULL, *fill = NULL, *out;
  TF_AbstractTensor* cat[2];
  TF_AbstractOp* op;
  int v3 = TFE_GradientContextNumInputs(g) >= 4;
  TF_DataType dt;
  if (dy == NULL) return;
  dt = TFE_AbstractTensorDataType(images, s);
  if (GL_OK(s) && dt == TF_BFLOAT16) {
    /* TF's gradient accepts uint8, int32, int64, half, float, double */
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Invalid dtype <dtype: 'bfloat16'>.");
    return;
  }
  /* the 3x3 matrices [t0..t7, 1], inverted, normalized to a last entry 1 */
  col = slice_c(g, tr, k00, kCol, 2, s);
  ones = gu_call1(g, "OnesLike", col, s);
  axis = gl_i32(g, 1, s);
  cat[0] = tr;
  cat[1] = ones;
  op = gl_op(g, "ConcatV2", s);
  gl_in_list(op, cat, 2, s);
  gl_in(op, axis, s);
  full = gl_fin(op, s);
  sh33 = GL_OK(s) ? gu_const_i32(g, k33, 3, s) : NULL;
  m = gu_call2(g, "Reshape", full, sh33, s);
  inv = gu_call1(g, "MatrixInverse", m, s);
  sh9 = GL_OK(s) ? gu_const_i32(g, k9, 2, s) : NULL;
  flat = gu_call2(g, "Reshape", inv, sh9, s);
  last = slice_c(g, flat, k08, kCol, 2, s);
  norm = gu_call2(g, "RealDiv", flat, last, s);
  inv8 = slice_c(g, norm, k00, kFirst8, 2, s);
  shp = gl_shape(g, images, TF_INT32, s);
  hw = slice_c(g, shp, k1, k2, 1, s);
  op = gl_op(g, v3 ? "ImageProjectiveTransformV3" : "ImageProjectiveTransformV2", s);
  gl_in(op, dy, s);
  gl_in(op, inv8, s);
  gl_in(op, hw, s);
  if (v3) {
    fill = gl_scalar(g, TF_FLOAT, 0.0, s);
    gl_in(op, fill, s);
  }
  gl_cp_str(g, op, "interpolation", s);
  gl_cp_str(g, op, "fill_mode", s);
  out = gl_fin(op, s);
  gu_give(g, 0, out, s);
  {
    TF_AbstractTensor* all[] = {col, ones, axis, full, m, inv, flat, last, norm, inv8, shp, hw,
                                sh33, sh9, fill};
    gl_free(all, (int)(sizeof all / sizeof all[0]));
  }
}

static void grad_resource_gather_nd(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* indices = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor *shp, *out;
  TF_AbstractOp* op;
  TF_DataType it;
  if (dy == NULL) return;
  it = TFE_AbstractTensorDataType(indices, s);
  op = gl_op(g, "VariableShape", s);
  gl_in(op, TFE_GradientContextInput(g, 0), s);
  gl_set_type(op, "out_type", it, s);
  shp = gl_fin(op, s);
  op = gl_op(g, "ScatterNd", s);
  gl_in(op, indices, s);
  gl_in(op, dy, s);
  gl_in(op, shp, s);
  out = gl_fin(op, s);
  gu_give(g, 0, out, s);
  TF_DeleteAbstractTensor(shp);
}

int tfe_grad_register_more5(void) {
  return tfe_grad_register_builtin("TensorStridedSliceUpdate",
                                   grad_tensor_strided_slice_update) &&
         tfe_grad_register_builtin("ImageProjectiveTransformV2",
                                   grad_image_projective_transform) &&
         tfe_grad_register_builtin("ImageProjectiveTransformV3",
                                   grad_image_projective_transform) &&
         tfe_grad_register_builtin("ResourceGatherNd", grad_resource_gather_nd);
}
