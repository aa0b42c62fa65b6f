/* Gradient functions (session 8): the remaining ops with a tfe CPU kernel
 * that TF 2.21 differentiates: the sparse element-wise ops, reductions and
 * softmax, SparseFillEmptyRows, concatenating/splitting TensorLists and
 * TensorArrays, BiasAddV1, MirrorPadGrad, StridedSliceGrad, NthElement,
 * Spence and TopK (v1). The math is that of TF 2.21's registered Python
 * gradients, so values agree with TF's; the code is tfe's own. Where TF's
 * registered gradient only raises (SparseDenseCwiseAdd,
 * SparseSparseMaximum/Minimum), tfe's fails the same way with
 * TF_UNIMPLEMENTED and TF's message.
 *
 * Cases: tools/grad_cases/more2.py (one raw op each); the list, array and
 * failing gradients: tests/python/test_grad_more2.py. */
#include <stdint.h>
#include <string.h>

#include "eager/grad_local.h"
#include "eager/tape.h"

typedef TF_AbstractTensor T;

/* ---- a small pool of intermediates, freed at the end of a gradient ---- */

#define M2_POOL 96
typedef struct {
  T* t[M2_POOL];
  int n;
  TFE_GradientContext* g;
  TF_Status* s;
} m2pool;

static void m2_init(m2pool* p, TFE_GradientContext* g, TF_Status* s) {
  p->n = 0;
  p->g = g;
  p->s = s;
}

/* Keeps t (may be NULL) until m2_done. */
static T* K(m2pool* p, T* t) {
  if (t == NULL) return NULL;
  if (p->n >= M2_POOL) {
    /* not reached: every function here keeps far fewer */
    tfe_status_setf(p->s, TF_INTERNAL, "gradient: too many intermediates");
    TF_DeleteAbstractTensor(t);
    return NULL;
  }
  p->t[p->n++] = t;
  return t;
}

static void m2_done(m2pool* p) { gl_free(p->t, p->n); }

static T* C1(m2pool* p, const char* type, T* a) {
  return GL_OK(p->s) ? K(p, gu_call1(p->g, type, a, p->s)) : NULL;
}
static T* C2(m2pool* p, const char* type, T* a, T* b) {
  return GL_OK(p->s) ? K(p, gu_call2(p->g, type, a, b, p->s)) : NULL;
}
static T* C3(m2pool* p, const char* type, T* a, T* b, T* c) {
  TF_AbstractOp* op = gl_op(p->g, type, p->s);
  gl_in(op, a, p->s);
  gl_in(op, b, p->s);
  gl_in(op, c, p->s);
  return K(p, gl_fin(op, p->s));
}
/* Runs op and keeps its n outputs in outs (kept in the pool). */
static void fin_n(m2pool* p, TF_AbstractOp* op, int n, T** outs) {
  int i;
  gl_fin_n(op, n, outs, p->s);
  for (i = 0; i < n; i++) K(p, outs[i]);
}

/* Gives input i a new reference to t (nothing when t is NULL). */
static void give(m2pool* p, int i, T* t) {
  if (t == NULL || !GL_OK(p->s)) return;
  gu_give(p->g, i, TFE_AbstractTensorCopy(t, p->s), p->s);
}

static T* IN(m2pool* p, int i) { return TFE_GradientContextInput(p->g, i); }
static T* OUT(m2pool* p, int i) { return TFE_GradientContextOutput(p->g, i); }

static TF_DataType dtype_of(m2pool* p, T* t) {
  if (t == NULL || !GL_OK(p->s)) return TF_FLOAT;
  return TFE_AbstractTensorDataType(t, p->s);
}

static T* i32(m2pool* p, int32_t v) { return K(p, gl_i32(p->g, v, p->s)); }
static T* ivec(m2pool* p, const int32_t* v, int n) {
  return GL_OK(p->s) ? K(p, gu_const_i32(p->g, v, n, p->s)) : NULL;
}
/* A scalar of dtype dt holding v. */
static T* scal(m2pool* p, TF_DataType dt, double v) {
  return K(p, gl_scalar(p->g, dt, v, p->s));
}
static T* shape_of(m2pool* p, T* x, TF_DataType dt) { return K(p, gl_shape(p->g, x, dt, p->s)); }
static T* cast(m2pool* p, T* x, TF_DataType dt) {
  return GL_OK(p->s) ? K(p, gu_cast(p->g, x, dt, p->s)) : NULL;
}
static T* sum(m2pool* p, T* x, T* axes, int keep) { return K(p, gl_sum(p->g, x, axes, keep, p->s)); }
/* ExpandDims(x, axis). */
static T* expand(m2pool* p, T* x, int32_t axis) { return C2(p, "ExpandDims", x, i32(p, axis)); }
/* ConcatV2 of n tensors along axis 0. */
static T* concat0(m2pool* p, T* const* t, int n) {
  TF_AbstractOp* op = gl_op(p->g, "ConcatV2", p->s);
  gl_in_list(op, t, n, p->s);
  gl_in(op, i32(p, 0), p->s);
  return K(p, gl_fin(op, p->s));
}
static TF_DataType attr_type(m2pool* p, const char* name) {
  TF_DataType dt = TF_FLOAT;
  if (GL_OK(p->s) && !tfe_attrs_get_type(p->g->attrs, name, &dt, p->s) && GL_OK(p->s)) {
    tfe_status_setf(p->s, TF_INTERNAL, "gradient of %s: no attr %s",
                    TFE_GradientContextOpType(p->g), name);
  }
  return dt;
}

/* ---- gradients TF registers only to raise ---- */

static void grad_not_implemented(TFE_GradientContext* g, TF_Status* s) {
  tfe_status_setf(s, TF_UNIMPLEMENTED, "Gradient for %s is not implemented.",
                  TFE_GradientContextOpType(g));
}

/* ---- sparse ops ---- */

/* SparseDenseCwiseMul/Div(sp_indices, sp_values, sp_shape, dense): the
 * dense operand (broadcast to the sparse shape, missing leading dims
 * added) is read at each sparse index scaled down to its own shape; the
 * dense operand's gradient adds the per-value terms at those (possibly
 * repeated) positions. */
static void sparse_dense_mul_div(TFE_GradientContext* g, TF_Status* s, int is_mul) {
  static const int32_t kZero[1] = {0}, kAll[2] = {-1, -1};
  m2pool p;
  T *dy = gu_upstream(g), *xi, *xv, *xs, *y, *ys, *nadd, *parts[2], *aug, *scaling, *scaled;
  T *dense, *dx, *dyv, *dyg;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  m2_init(&p, g, s);
  xi = IN(&p, 0);
  xv = IN(&p, 1);
  xs = IN(&p, 2);
  y = IN(&p, 3);
  ys = cast(&p, shape_of(&p, y, TF_INT32), TF_INT64);
  nadd = expand(&p, C2(&p, "Sub", C1(&p, "Size", xs), C1(&p, "Size", ys)), 0);
  parts[0] = C2(&p, "Fill", nadd, scal(&p, TF_INT64, 1));
  parts[1] = ys;
  aug = concat0(&p, parts, 2);
  scaling = C2(&p, "FloorDiv", xs, aug);
  scaled = C2(&p, "FloorDiv", xi, scaling);
  parts[0] = ivec(&p, kZero, 1);
  parts[1] = nadd;
  scaled = C3(&p, "Slice", scaled, concat0(&p, parts, 2), ivec(&p, kAll, 2));
  dense = C2(&p, "GatherNd", y, scaled);
  if (is_mul) {
    dx = C2(&p, "Mul", dy, dense);
    dyv = C2(&p, "Mul", dy, xv);
  } else {
    dx = C2(&p, "RealDiv", dy, dense);
    dyv = C2(&p, "Mul", dy, C2(&p, "RealDiv", C1(&p, "Neg", xv), C1(&p, "Square", dense)));
  }
  op = gl_op(g, "SparseTensorDenseAdd", s);
  gl_in(op, scaled, s);
  gl_in(op, dyv, s);
  gl_in(op, ys, s);
  gl_in(op, C1(&p, "ZerosLike", y), s);
  dyg = K(&p, gl_fin(op, s));
  give(&p, 1, dx);
  give(&p, 3, dyg);
  m2_done(&p);
}

static void grad_sparse_dense_mul(TFE_GradientContext* g, TF_Status* s) {
  sparse_dense_mul_div(g, s, 1);
}
static void grad_sparse_dense_div(TFE_GradientContext* g, TF_Status* s) {
  sparse_dense_mul_div(g, s, 0);
}

/* The reduced shape with kept (size 1) dims: DynamicStitch of the input
 * shape and ones at the (wrapped) reduction axes. shape is int64, axes
 * int32 (scalar or vector). */
static T* kept_dims_shape(m2pool* p, T* shape, T* axes) {
  T *rank, *ax, *idx[2], *val[2];
  TF_AbstractOp* op;
  rank = C1(p, "Size", shape);
  ax = C2(p, "FloorMod", C2(p, "AddV2", axes, rank), rank);
  idx[0] = C3(p, "Range", i32(p, 0), rank, i32(p, 1));
  idx[1] = ax;
  val[0] = shape;
  val[1] = C2(p, "Fill", shape_of(p, ax, TF_INT32), scal(p, TF_INT64, 1));
  op = gl_op(p->g, "DynamicStitch", p->s);
  gl_in_list(op, idx, 2, p->s);
  gl_in_list(op, val, 2, p->s);
  return K(p, gl_fin(op, p->s));
}

/* SparseReduceSum(indices, values, shape, axes): each value gets the
 * output gradient of the cell it was summed into (as Sum's gradient, read
 * at the indices scaled down to the kept-dims shape). */
static void grad_sparse_reduce_sum(TFE_GradientContext* g, TF_Status* s) {
  m2pool p;
  T *dy = gu_upstream(g), *ind, *shape, *kept, *r, *scale;
  if (dy == NULL) return;
  m2_init(&p, g, s);
  ind = IN(&p, 0);
  shape = IN(&p, 2);
  kept = kept_dims_shape(&p, shape, IN(&p, 3));
  r = C2(&p, "Reshape", dy, kept);
  scale = C2(&p, "FloorDiv", shape, kept);
  give(&p, 1, C2(&p, "GatherNd", r, C2(&p, "FloorDiv", ind, scale)));
  m2_done(&p);
}

/* SparseSoftmax(indices, values, shape) -> softmax values y along the last
 * dim: dx = (dy - sum_row(dy * y)) * y, the row sums taken as a dense
 * [..., B, 1] tensor added back to the sparse values. */
static void grad_sparse_softmax(TFE_GradientContext* g, TF_Status* s) {
  static const int32_t kLast[1] = {-1};
  m2pool p;
  T *dy = gu_upstream(g), *ind, *shape, *y, *red, *spsum;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  m2_init(&p, g, s);
  ind = IN(&p, 0);
  shape = IN(&p, 2);
  y = OUT(&p, 0);
  op = gl_op(g, "SparseReduceSum", s);
  gl_in(op, ind, s);
  gl_in(op, C2(&p, "Mul", y, dy), s);
  gl_in(op, shape, s);
  gl_in(op, ivec(&p, kLast, 1), s);
  gl_set_bool(op, "keep_dims", 1, s);
  red = C1(&p, "Neg", K(&p, gl_fin(op, s)));
  op = gl_op(g, "SparseDenseCwiseAdd", s);
  gl_in(op, ind, s);
  gl_in(op, dy, s);
  gl_in(op, shape, s);
  gl_in(op, red, s);
  spsum = K(&p, gl_fin(op, s));
  give(&p, 1, C2(&p, "Mul", spsum, y));
  m2_done(&p);
}

/* SparseFillEmptyRows(indices, values, dense_shape, default_value): the
 * output values' gradient goes back through reverse_index_map; what the
 * filled rows received goes to the default value. */
static void grad_sparse_fill_empty_rows(TFE_GradientContext* g, TF_Status* s) {
  m2pool p;
  T* dv = TFE_GradientContextOutputGradient(g, 1);
  T* outs[2];
  TF_AbstractOp* op;
  if (dv == NULL) return;
  m2_init(&p, g, s);
  op = gl_op(g, "SparseFillEmptyRowsGrad", s);
  gl_in(op, OUT(&p, 3), s);
  gl_in(op, dv, s);
  fin_n(&p, op, 2, outs);
  give(&p, 1, outs[0]);
  give(&p, 3, outs[1]);
  m2_done(&p);
}

/* ---- TensorList concat / split ---- */

/* TensorListConcat(list) and TensorListConcatV2(list, element_shape,
 * leading_dims) -> (tensor, lengths): the tensor's gradient split back
 * into a list with the input list's element shape and the same lengths. */
static void grad_list_concat(TFE_GradientContext* g, TF_Status* s) {
  m2pool p;
  T *dy = gu_upstream(g), *es;
  TF_AbstractOp* op;
  TF_DataType dt;
  if (dy == NULL) return;
  m2_init(&p, g, s);
  dt = attr_type(&p, "element_dtype");
  op = gl_op(g, "TensorListElementShape", s);
  gl_in(op, IN(&p, 0), s);
  gl_set_type(op, "shape_type", TF_INT32, s);
  es = K(&p, gl_fin(op, s));
  op = gl_op(g, "TensorListSplit", s);
  gl_in(op, dy, s);
  gl_in(op, es, s);
  gl_in(op, OUT(&p, 1), s);
  gl_set_type(op, "element_dtype", dt, s);
  gl_set_type(op, "shape_type", TF_INT32, s);
  give(&p, 0, K(&p, gl_fin(op, s)));
  m2_done(&p);
}

/* TensorListSplit(tensor, element_shape, lengths) -> list: the list's
 * gradient concatenated back, element shape [-1] + tensor.shape[1:]. */
static void grad_list_split(TFE_GradientContext* g, TF_Status* s) {
  static const int32_t kM1[1] = {-1}, kOne[1] = {1};
  m2pool p;
  T *dl = gu_upstream(g), *t, *parts[2], *es, *outs[2];
  TF_AbstractOp* op;
  if (dl == NULL) return;
  m2_init(&p, g, s);
  t = IN(&p, 0);
  parts[0] = ivec(&p, kM1, 1);
  parts[1] = C3(&p, "Slice", shape_of(&p, t, TF_INT32), ivec(&p, kOne, 1), ivec(&p, kM1, 1));
  es = concat0(&p, parts, 2);
  op = gl_op(g, "TensorListConcatV2", s);
  gl_in(op, dl, s);
  gl_in(op, es, s);
  gl_in(op, IN(&p, 2), s);
  gl_set_type(op, "element_dtype", dtype_of(&p, t), s);
  gl_set_type(op, "shape_type", TF_INT32, s);
  fin_n(&p, op, 2, outs);
  give(&p, 0, outs[0]);
  m2_done(&p);
}

/* ---- TensorArray concat / split (V3) ----
 * As grad_func.c's TensorArray gradients: the gradient of an array is the
 * array TensorArrayGradV3 makes for it (source "gradients"); flows order
 * the writes and reads. */

static void ta_grad(m2pool* p, T* handle, T* flow, T** out) {
  TF_AbstractOp* op = gl_op(p->g, "TensorArrayGradV3", p->s);
  gl_in(op, handle, p->s);
  gl_in(op, flow, p->s);
  if (op != NULL && GL_OK(p->s)) TFE_AbstractOpSetAttrString(op, "source", "gradients", 9, p->s);
  fin_n(p, op, 2, out);
}

/* ConcatV3(handle, flow) -> (value, lengths): split the value's gradient
 * into the gradient array with the same lengths; its flow is flow's
 * gradient. */
static void grad_ta_concat(TFE_GradientContext* g, TF_Status* s) {
  m2pool p;
  T *d, *ga[2];
  TF_AbstractOp* op;
  m2_init(&p, g, s);
  d = K(&p, gl_grad_or_zeros(g, 0, s));
  ta_grad(&p, IN(&p, 0), IN(&p, 1), ga);
  op = gl_op(g, "TensorArraySplitV3", s);
  gl_in(op, ga[0], s);
  gl_in(op, d, s);
  gl_in(op, OUT(&p, 1), s);
  gl_in(op, ga[1], s);
  give(&p, 1, K(&p, gl_fin(op, s)));
  m2_done(&p);
}

/* SplitV3(handle, value, lengths, flow) -> flow: the value's gradient is
 * the concatenation of the gradient array; the flow's passes through. */
static void grad_ta_split(TFE_GradientContext* g, TF_Status* s) {
  m2pool p;
  T *dflow, *ga[2], *outs[2];
  TF_AbstractOp* op;
  m2_init(&p, g, s);
  dflow = K(&p, gl_grad_or_zeros(g, 0, s));
  ta_grad(&p, IN(&p, 0), dflow, ga);
  op = gl_op(g, "TensorArrayConcatV3", s);
  gl_in(op, ga[0], s);
  gl_in(op, ga[1], s);
  gl_set_type(op, "dtype", attr_type(&p, "T"), s);
  fin_n(&p, op, 2, outs);
  give(&p, 1, outs[0]);
  give(&p, 3, dflow);
  m2_done(&p);
}

/* ---- array and nn ops ---- */

/* BiasAddV1(value, bias): dy, and dy summed over every dim but the last. */
static void grad_bias_add_v1(TFE_GradientContext* g, TF_Status* s) {
  m2pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  m2_init(&p, g, s);
  give(&p, 0, dy);
  give(&p, 1,
       sum(&p, dy, C3(&p, "Range", i32(&p, 0), C2(&p, "Sub", C1(&p, "Rank", dy), i32(&p, 1)),
                      i32(&p, 1)),
           0));
  m2_done(&p);
}

/* MirrorPadGrad(input, paddings): it is linear in input, its adjoint is
 * MirrorPad with the same paddings and mode. */
static void grad_mirror_pad_grad(TFE_GradientContext* g, TF_Status* s) {
  m2pool p;
  T* dy = gu_upstream(g);
  TF_AbstractOp* op;
  if (dy == NULL) return;
  m2_init(&p, g, s);
  op = gl_op(g, "MirrorPad", s);
  gl_in(op, dy, s);
  gl_in(op, IN(&p, 1), s);
  gl_cp_str(g, op, "mode", s);
  give(&p, 0, K(&p, gl_fin(op, s)));
  m2_done(&p);
}

/* StridedSliceGrad(shape, begin, end, strides, dy): dy's gradient is the
 * same strided slice of the upstream gradient. */
static void grad_strided_slice_grad(TFE_GradientContext* g, TF_Status* s) {
  static const char* const kMasks[] = {"begin_mask", "end_mask", "ellipsis_mask",
                                       "new_axis_mask", "shrink_axis_mask"};
  m2pool p;
  T* dy = gu_upstream(g);
  TF_AbstractOp* op;
  size_t i;
  if (dy == NULL) return;
  m2_init(&p, g, s);
  op = gl_op(g, "StridedSlice", s);
  gl_in(op, dy, s);
  gl_in(op, IN(&p, 1), s);
  gl_in(op, IN(&p, 2), s);
  gl_in(op, IN(&p, 3), s);
  for (i = 0; i < sizeof kMasks / sizeof kMasks[0]; i++) gl_cp_int(g, op, kMasks[i], s);
  give(&p, 4, K(&p, gl_fin(op, s)));
  m2_done(&p);
}

/* NthElement(input, n) -> y: the gradient of y is shared equally by the
 * input elements of its row equal to y. */
static void grad_nth_element(TFE_GradientContext* g, TF_Status* s) {
  m2pool p;
  T *dy = gu_upstream(g), *x, *y, *ind, *num;
  if (dy == NULL) return;
  m2_init(&p, g, s);
  x = IN(&p, 0);
  y = OUT(&p, 0);
  ind = cast(&p, C2(&p, "Equal", expand(&p, y, -1), x), dtype_of(&p, dy));
  num = expand(&p, sum(&p, ind, i32(&p, -1), 0), -1);
  give(&p, 0, C2(&p, "Mul", C2(&p, "RealDiv", ind, num), expand(&p, dy, -1)));
  m2_done(&p);
}

/* Spence(x): d/dx = log(x) / (1 - x), -1 at x = 1. */
static void grad_spence(TFE_GradientContext* g, TF_Status* s) {
  m2pool p;
  T *dy = gu_upstream(g), *x, *part;
  TF_DataType dt;
  if (dy == NULL) return;
  m2_init(&p, g, s);
  x = IN(&p, 0);
  dt = dtype_of(&p, x);
  part = C3(&p, "SelectV2", C2(&p, "Equal", x, scal(&p, dt, 1.0)),
            C1(&p, "Neg", C1(&p, "OnesLike", x)),
            C2(&p, "RealDiv", C1(&p, "Log", x), C2(&p, "Sub", scal(&p, dt, 1.0), x)));
  give(&p, 0, C2(&p, "Mul", dy, part));
  m2_done(&p);
}

/* TopK(input) (v1, k an attr) -> (values, indices): the values' gradient
 * scattered back to the input positions the indices name (rows flattened
 * so one ScatterNd over the whole input does it). */
static void grad_top_k_v1(TFE_GradientContext* g, TF_Status* s) {
  static const int32_t kM1[1] = {-1};
  m2pool p;
  T *dy = gu_upstream(g), *x, *idx, *in_shape, *ind_shape, *last_ind, *last_in, *pk[2], *ind2d;
  T *outer, *offs, *flat, *n;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  m2_init(&p, g, s);
  x = IN(&p, 0);
  idx = OUT(&p, 1);
  in_shape = shape_of(&p, x, TF_INT32);
  ind_shape = shape_of(&p, idx, TF_INT32);
  /* the last dims of the indices and of the input */
  last_ind = C3(&p, "GatherV2", ind_shape, C2(&p, "Sub", C1(&p, "Size", ind_shape), i32(&p, 1)),
                i32(&p, 0));
  last_in = C3(&p, "GatherV2", in_shape, C2(&p, "Sub", C1(&p, "Size", in_shape), i32(&p, 1)),
               i32(&p, 0));
  pk[0] = i32(&p, -1);
  pk[1] = last_ind;
  op = gl_op(g, "Pack", s);
  gl_in_list(op, pk, 2, s);
  gl_set_int(op, "axis", 0, s);
  ind2d = C2(&p, "Reshape", idx, K(&p, gl_fin(op, s)));
  outer = C3(&p, "GatherV2", shape_of(&p, ind2d, TF_INT32), i32(&p, 0), i32(&p, 0));
  /* row r of the flattened input starts at r * last_in */
  offs = expand(&p, C3(&p, "Range", i32(&p, 0), C2(&p, "Mul", outer, last_in), last_in), -1);
  flat = C2(&p, "Reshape", C2(&p, "AddV2", ind2d, offs), ivec(&p, kM1, 1));
  /* the input's element count, as a one-element shape */
  op = gl_op(g, "Prod", s);
  gl_in(op, in_shape, s);
  gl_in(op, i32(&p, 0), s);
  gl_set_bool(op, "keep_dims", 1, s);
  n = K(&p, gl_fin(op, s));
  op = gl_op(g, "ScatterNd", s);
  gl_in(op, expand(&p, flat, -1), s);
  gl_in(op, C2(&p, "Reshape", dy, ivec(&p, kM1, 1)), s);
  gl_in(op, n, s);
  give(&p, 0, C2(&p, "Reshape", K(&p, gl_fin(op, s)), in_shape));
  m2_done(&p);
}

int tfe_grad_register_more2(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"SparseDenseCwiseAdd", grad_not_implemented},
      {"SparseDenseCwiseMul", grad_sparse_dense_mul},
      {"SparseDenseCwiseDiv", grad_sparse_dense_div},
      {"SparseReduceSum", grad_sparse_reduce_sum},
      {"SparseSoftmax", grad_sparse_softmax},
      {"SparseSparseMaximum", grad_not_implemented},
      {"SparseSparseMinimum", grad_not_implemented},
      {"SparseFillEmptyRows", grad_sparse_fill_empty_rows},
      {"TensorListConcat", grad_list_concat},
      {"TensorListConcatV2", grad_list_concat},
      {"TensorListSplit", grad_list_split},
      {"TensorArrayConcatV3", grad_ta_concat},
      {"TensorArraySplitV3", grad_ta_split},
      {"BiasAddV1", grad_bias_add_v1},
      {"MirrorPadGrad", grad_mirror_pad_grad},
      {"StridedSliceGrad", grad_strided_slice_grad},
      {"NthElement", grad_nth_element},
      {"Spence", grad_spence},
      {"TopK", grad_top_k_v1},
  };
  size_t i;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  return 1;
}
