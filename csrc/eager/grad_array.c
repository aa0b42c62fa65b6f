/* Built-in gradients of array ops (concat, stack, gather, slice, pad, tile,
 * select, split, reverse, broadcast, reductions by product/max/min, cumsum,
 * identity-like ops), following the math of TF 2.21's registered
 * gradients so the values agree with TF's.
 *
 * Gather's gradient is dense (UnsortedSegmentSum of the upstream gradient
 * by the indices), where TF returns IndexedSlices: the values are those of
 * TF's IndexedSlices converted to a tensor. tfe has no StridedSliceGrad
 * nor MirrorPadGrad op, so those two gradients route the upstream values
 * through the forward op applied to the element indices of x (each output
 * element knows which input element it came from) and sum them back with
 * UnsortedSegmentSum: the same numbers as TF's gradient ops. */
#include <stdlib.h>
#include <string.h>

#include "eager/grad_local.h"

/* Slice(x, begin, size), three-input one-output ops in general. */
static TF_AbstractTensor* call3(TFE_GradientContext* g, const char* type, TF_AbstractTensor* a,
                                TF_AbstractTensor* b, TF_AbstractTensor* c, TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, type, s);
  gl_in(op, a, s);
  gl_in(op, b, s);
  gl_in(op, c, s);
  return gl_fin(op, s);
}

static TF_AbstractTensor* cvec(TFE_GradientContext* g, const int32_t* v, int n, TF_Status* s) {
  return GL_OK(s) ? gu_const_i32(g, v, n, s) : NULL;
}

/* Reshape(x, [-1]). */
static TF_AbstractTensor* flatten(TFE_GradientContext* g, TF_AbstractTensor* x, TF_Status* s) {
  static const int32_t kFlat[1] = {-1};
  TF_AbstractTensor* f = cvec(g, kFlat, 1, s);
  TF_AbstractTensor* r = gu_call2(g, "Reshape", x, f, s);
  TF_DeleteAbstractTensor(f);
  return r;
}

/* Pack(list, axis). */
static TF_AbstractTensor* pack(TFE_GradientContext* g, TF_AbstractTensor* const* t, int n,
                               int axis, TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, "Pack", s);
  gl_in_list(op, t, n, s);
  gl_set_int(op, "axis", axis, s);
  return gl_fin(op, s);
}

/* ConcatV2(list, axis). */
static TF_AbstractTensor* concat(TFE_GradientContext* g, TF_AbstractTensor* const* t, int n,
                                 TF_AbstractTensor* axis, TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, "ConcatV2", s);
  gl_in_list(op, t, n, s);
  gl_in(op, axis, s);
  return gl_fin(op, s);
}

/* Axes (any int dtype, scalar or vector) as a flat int32 vector taken
 * modulo rank(x). */
static TF_AbstractTensor* norm_axes(TFE_GradientContext* g, TF_AbstractTensor* axes,
                                    TF_AbstractTensor* x, TF_Status* s) {
  TF_AbstractTensor* a32 = gu_cast(g, axes, TF_INT32, s);
  TF_AbstractTensor* fl = flatten(g, a32, s);
  TF_AbstractTensor* rank = gu_call1(g, "Rank", x, s);
  TF_AbstractTensor* r = gu_call2(g, "FloorMod", fl, rank, s);
  TF_DeleteAbstractTensor(a32);
  TF_DeleteAbstractTensor(fl);
  TF_DeleteAbstractTensor(rank);
  return r;
}

/* Shape(x) with the reduced axes set to 1 (a reduction's keep_dims shape). */
static TF_AbstractTensor* kept_shape(TFE_GradientContext* g, TF_AbstractTensor* x,
                                     TF_AbstractTensor* axes, TF_Status* s) {
  static const int32_t kColumn[2] = {-1, 1};
  TF_AbstractTensor* sx = gl_shape(g, x, TF_INT32, s);
  TF_AbstractTensor* axn = norm_axes(g, axes, x, s);
  TF_AbstractTensor* col = cvec(g, kColumn, 2, s);
  TF_AbstractTensor* idx = gu_call2(g, "Reshape", axn, col, s);
  TF_AbstractTensor* ones = gu_call1(g, "OnesLike", axn, s);
  TF_AbstractTensor* r = call3(g, "TensorScatterUpdate", sx, idx, ones, s);
  TF_DeleteAbstractTensor(sx);
  TF_DeleteAbstractTensor(axn);
  TF_DeleteAbstractTensor(col);
  TF_DeleteAbstractTensor(idx);
  TF_DeleteAbstractTensor(ones);
  return r;
}

/* Reshape(Range(Size(x)), Shape(x)): every element's flat index. */
static TF_AbstractTensor* index_of(TFE_GradientContext* g, TF_AbstractTensor* x,
                                   TF_AbstractTensor** size, TF_Status* s) {
  TF_AbstractTensor* n = gu_call1(g, "Size", x, s);
  TF_AbstractTensor* z = gl_i32(g, 0, s);
  TF_AbstractTensor* one = gl_i32(g, 1, s);
  TF_AbstractTensor* r = gl_range(g, z, n, one, s);
  TF_AbstractTensor* sx = gl_shape(g, x, TF_INT32, s);
  TF_AbstractTensor* idx = gu_call2(g, "Reshape", r, sx, s);
  TF_DeleteAbstractTensor(z);
  TF_DeleteAbstractTensor(one);
  TF_DeleteAbstractTensor(r);
  TF_DeleteAbstractTensor(sx);
  *size = n;
  return idx;
}

/* dy (shaped as sel) summed into x's elements named by sel. */
static TF_AbstractTensor* scatter_back(TFE_GradientContext* g, TF_AbstractTensor* dy,
                                       TF_AbstractTensor* sel, TF_AbstractTensor* n,
                                       TF_AbstractTensor* x, TF_Status* s) {
  TF_AbstractTensor* seg = call3(g, "UnsortedSegmentSum", dy, sel, n, s);
  TF_AbstractTensor* sx = gl_shape(g, x, TF_INT32, s);
  TF_AbstractTensor* r = gu_call2(g, "Reshape", seg, sx, s);
  TF_DeleteAbstractTensor(seg);
  TF_DeleteAbstractTensor(sx);
  return r;
}

/* ---- the gradient functions ---- */

/* concat: the slices of dy at ConcatOffset's offsets. */
static void grad_concat(TFE_GradientContext* g, TF_Status* s) {
  int i, n = TFE_GradientContextNumInputs(g) - 1;
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor **shapes, **offs, *axis;
  TF_AbstractOp* op;
  if (n < 1 || dy == NULL) return;
  shapes = calloc((size_t)n * 2, sizeof *shapes);
  if (shapes == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient of ConcatV2: out of memory");
    return;
  }
  offs = shapes + n;
  axis = norm_axes(g, TFE_GradientContextInput(g, n), TFE_GradientContextInput(g, 0), s);
  {
    /* ConcatOffset wants a scalar axis. */
    TF_AbstractTensor* zero = gl_i32(g, 0, s);
    TF_AbstractTensor* sc = call3(g, "GatherV2", axis, zero, zero, s);
    TF_DeleteAbstractTensor(zero);
    TF_DeleteAbstractTensor(axis);
    axis = sc;
  }
  for (i = 0; i < n; i++) shapes[i] = gl_shape(g, TFE_GradientContextInput(g, i), TF_INT32, s);
  op = gl_op(g, "ConcatOffset", s);
  gl_in(op, axis, s);
  gl_in_list(op, shapes, n, s);
  gl_fin_n(op, n, offs, s);
  for (i = 0; i < n && GL_OK(s); i++) {
    gu_give(g, i, call3(g, "Slice", dy, offs[i], shapes[i], s), s);
  }
  TF_DeleteAbstractTensor(axis);
  gl_free(shapes, 2 * n);
  free(shapes);
}

/* stack: unstack dy along the same axis. */
static void grad_pack(TFE_GradientContext* g, TF_Status* s) {
  int i, n = TFE_GradientContextNumInputs(g);
  int64_t axis = TFE_GradientContextAttrInt(g, "axis", s);
  TF_AbstractTensor** parts;
  TF_AbstractOp* op;
  if (!GL_OK(s) || gu_upstream(g) == NULL) return;
  parts = calloc((size_t)n, sizeof *parts);
  if (parts == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient of Pack: out of memory");
    return;
  }
  op = gl_op(g, "Unpack", s);
  gl_in(op, gu_upstream(g), s);
  gl_set_int(op, "num", n, s);
  gl_set_int(op, "axis", axis, s);
  gl_fin_n(op, n, parts, s);
  for (i = 0; i < n && GL_OK(s); i++) {
    gu_give(g, i, parts[i], s);
    parts[i] = NULL;
  }
  gl_free(parts, n);
  free(parts);
}

/* unstack: stack the gradients (zeros for outputs without one). */
static void grad_unpack(TFE_GradientContext* g, TF_Status* s) {
  int i, n = TFE_GradientContextNumOutputs(g);
  int64_t axis = TFE_GradientContextAttrInt(g, "axis", s);
  TF_AbstractTensor** parts;
  if (!GL_OK(s) || n < 1) return;
  parts = calloc((size_t)n, sizeof *parts);
  if (parts == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient of Unpack: out of memory");
    return;
  }
  for (i = 0; i < n; i++) parts[i] = gl_grad_or_zeros(g, i, s);
  gu_give(g, 0, pack(g, parts, n, (int)axis, s), s);
  gl_free(parts, n);
  free(parts);
}

/* split(axis, value): concat of the gradients along the axis. */
static void grad_split_common(TFE_GradientContext* g, int value_input, TF_AbstractTensor* axis,
                              TF_Status* s) {
  int i, n = TFE_GradientContextNumOutputs(g);
  TF_AbstractTensor** parts;
  if (!GL_OK(s) || n < 1) return;
  parts = calloc((size_t)n, sizeof *parts);
  if (parts == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient of %s: out of memory",
                    TFE_GradientContextOpType(g));
    return;
  }
  for (i = 0; i < n; i++) parts[i] = gl_grad_or_zeros(g, i, s);
  gu_give(g, value_input, concat(g, parts, n, axis, s), s);
  gl_free(parts, n);
  free(parts);
}
static void grad_split(TFE_GradientContext* g, TF_Status* s) {
  grad_split_common(g, 1, TFE_GradientContextInput(g, 0), s);
}
static void grad_splitv(TFE_GradientContext* g, TF_Status* s) {
  grad_split_common(g, 0, TFE_GradientContextInput(g, 2), s);
}

/* gather(params, indices, axis), batch_dims 0: dy as [outer, size(indices),
 * inner], moved to put the index dimension first, summed per index into
 * params' axis dimension, moved back. */
static void grad_gather(TFE_GradientContext* g, TF_Status* s) {
  static const int32_t kZero[1] = {0}, kOne[1] = {1}, kMinus1[1] = {-1}, kPerm[3] = {1, 0, 2};
  TF_AbstractTensor* params = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* indices = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = gu_upstream(g);
  int64_t batch_dims = 0;
  TF_AbstractTensor *sp, *axn, *zero, *z1, *o1, *m1, *perm, *outer_d, *outer, *nseg, *axp1,
      *inner_d, *inner, *ni, *dims[3], *shape3, *d3, *dt, *flat, *seg, *back;
  if (dy == NULL) return;
  if (tfe_attrs_get_int(g->attrs, "batch_dims", &batch_dims, NULL) && batch_dims != 0) {
    /* batch_dims > 0: the forward gather of params' element indices names
     * each dy element's source; dy is summed back there (TF's batched
     * UnsortedSegmentSum gives the same values). */
    TF_AbstractTensor *n = NULL, *idx = index_of(g, params, &n, s), *sel;
    TF_AbstractOp* op = gl_op(g, "GatherV2", s);
    gl_in(op, idx, s);
    gl_in(op, indices, s);
    gl_in(op, TFE_GradientContextInput(g, 2), s);
    gl_set_int(op, "batch_dims", batch_dims, s);
    sel = gl_fin(op, s);
    gu_give(g, 0, scatter_back(g, dy, sel, n, params, s), s);
    TF_DeleteAbstractTensor(n);
    TF_DeleteAbstractTensor(idx);
    TF_DeleteAbstractTensor(sel);
    return;
  }
  sp = gl_shape(g, params, TF_INT32, s);
  axn = TFE_GradientContextNumInputs(g) > 2
            ? norm_axes(g, TFE_GradientContextInput(g, 2), params, s)
            : cvec(g, kZero, 1, s);
  zero = gl_i32(g, 0, s);
  z1 = cvec(g, kZero, 1, s);
  o1 = cvec(g, kOne, 1, s);
  m1 = cvec(g, kMinus1, 1, s);
  perm = cvec(g, kPerm, 3, s);
  outer_d = call3(g, "Slice", sp, z1, axn, s);
  outer = gu_call2(g, "Prod", outer_d, zero, s);
  {
    TF_AbstractTensor* ax0 = call3(g, "GatherV2", axn, zero, zero, s);
    nseg = call3(g, "GatherV2", sp, ax0, zero, s);
    TF_DeleteAbstractTensor(ax0);
  }
  axp1 = gu_call2(g, "AddV2", axn, o1, s);
  inner_d = call3(g, "Slice", sp, axp1, m1, s);
  inner = gu_call2(g, "Prod", inner_d, zero, s);
  ni = gu_call1(g, "Size", indices, s);
  dims[0] = outer;
  dims[1] = ni;
  dims[2] = inner;
  shape3 = pack(g, dims, 3, 0, s);
  d3 = gu_call2(g, "Reshape", dy, shape3, s);
  dt = gu_call2(g, "Transpose", d3, perm, s);
  flat = flatten(g, indices, s);
  seg = call3(g, "UnsortedSegmentSum", dt, flat, nseg, s);
  back = gu_call2(g, "Transpose", seg, perm, s);
  gu_give(g, 0, gu_call2(g, "Reshape", back, sp, s), s);
  {
    TF_AbstractTensor* all[] = {sp,    axn,  zero, z1,    o1, m1, perm, outer_d, outer,
                                nseg,  axp1, inner_d, inner, ni, shape3, d3, dt, flat,
                                seg,   back};
    gl_free(all, (int)(sizeof all / sizeof all[0]));
  }
}

/* slice(x, begin, size): dy padded back with begin before and the rest
 * after. */
static void grad_slice(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* begin = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_DataType dt = TFE_AbstractTensorDataType(begin, s);
  TF_AbstractTensor *sx, *sy, *d, *after, *pads, *pr[2];
  if (dy == NULL) return;
  sx = gl_shape(g, x, dt, s);
  sy = gl_shape(g, dy, dt, s);
  d = gu_call2(g, "Sub", sx, sy, s);
  after = gu_call2(g, "Sub", d, begin, s);
  pr[0] = begin;
  pr[1] = after;
  pads = pack(g, pr, 2, 1, s);
  gu_give(g, 0, gu_call2(g, "Pad", dy, pads, s), s);
  TF_DeleteAbstractTensor(sx);
  TF_DeleteAbstractTensor(sy);
  TF_DeleteAbstractTensor(d);
  TF_DeleteAbstractTensor(after);
  TF_DeleteAbstractTensor(pads);
}

/* strided_slice: the forward op on x's element indices says where each dy
 * element goes. */
static void grad_strided_slice(TFE_GradientContext* g, TF_Status* s) {
  static const char* const kMasks[] = {"begin_mask", "end_mask", "ellipsis_mask",
                                       "new_axis_mask", "shrink_axis_mask"};
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *n = NULL, *idx, *sel;
  TF_AbstractOp* op;
  size_t i;
  if (dy == NULL) return;
  idx = index_of(g, x, &n, s);
  op = gl_op(g, "StridedSlice", s);
  gl_in(op, idx, s);
  gl_in(op, TFE_GradientContextInput(g, 1), s);
  gl_in(op, TFE_GradientContextInput(g, 2), s);
  gl_in(op, TFE_GradientContextInput(g, 3), s);
  for (i = 0; i < sizeof kMasks / sizeof kMasks[0]; i++) gl_cp_int(g, op, kMasks[i], s);
  sel = gl_fin(op, s);
  gu_give(g, 0, scatter_back(g, dy, sel, n, x, s), s);
  TF_DeleteAbstractTensor(n);
  TF_DeleteAbstractTensor(idx);
  TF_DeleteAbstractTensor(sel);
}

/* mirror_pad: as strided_slice, through MirrorPad of the indices (an
 * element copied several times gets the sum). */
static void grad_mirror_pad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *n = NULL, *idx, *sel;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  idx = index_of(g, x, &n, s);
  op = gl_op(g, "MirrorPad", s);
  gl_in(op, idx, s);
  gl_in(op, TFE_GradientContextInput(g, 1), s);
  gl_cp_str(g, op, "mode", s);
  sel = gl_fin(op, s);
  gu_give(g, 0, scatter_back(g, dy, sel, n, x, s), s);
  TF_DeleteAbstractTensor(n);
  TF_DeleteAbstractTensor(idx);
  TF_DeleteAbstractTensor(sel);
}

/* pad(x, paddings): dy sliced from paddings[:, 0], x's shape. */
static void grad_pad(TFE_GradientContext* g, TF_Status* s) {
  static const int32_t kB[2] = {0, 0}, kS[2] = {-1, 1};
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* pads = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *b, *sz, *col, *begin, *sx;
  if (dy == NULL) return;
  b = cvec(g, kB, 2, s);
  sz = cvec(g, kS, 2, s);
  col = call3(g, "Slice", pads, b, sz, s);
  begin = flatten(g, col, s);
  sx = gl_shape(g, x, TFE_AbstractTensorDataType(pads, s), s);
  gu_give(g, 0, call3(g, "Slice", dy, begin, sx, s), s);
  TF_DeleteAbstractTensor(b);
  TF_DeleteAbstractTensor(sz);
  TF_DeleteAbstractTensor(col);
  TF_DeleteAbstractTensor(begin);
  TF_DeleteAbstractTensor(sx);
}

/* tile(x, multiples): dy reshaped to [m0, d0, m1, d1, ...] and summed over
 * the multiple dimensions. */
static void grad_tile(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* mult = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *sx, *pr[2], *st, *split, *n, *z, *two, *axes, *r;
  if (dy == NULL) return;
  sx = gl_shape(g, x, TFE_AbstractTensorDataType(mult, s), s);
  pr[0] = mult;
  pr[1] = sx;
  st = pack(g, pr, 2, 1, s);
  split = flatten(g, st, s);
  n = gu_call1(g, "Size", split, s);
  z = gl_i32(g, 0, s);
  two = gl_i32(g, 2, s);
  axes = gl_range(g, z, n, two, s);
  r = gu_call2(g, "Reshape", dy, split, s);
  gu_give(g, 0, gl_sum(g, r, axes, 0, s), s);
  {
    TF_AbstractTensor* all[] = {sx, st, split, n, z, two, axes, r};
    gl_free(all, 8);
  }
}

/* select(c, t, e): dy where c picks t, zeros elsewhere (and the opposite
 * for e); SelectV2 also sums over the broadcast dimensions. */
static void grad_select_common(TFE_GradientContext* g, int v2, TF_Status* s) {
  TF_AbstractTensor* c = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* dy = gu_upstream(g);
  const char* type = v2 ? "SelectV2" : "Select";
  TF_AbstractTensor *zeros, *gt, *ge;
  if (dy == NULL) return;
  zeros = gu_call1(g, "ZerosLike", dy, s);
  gt = call3(g, type, c, dy, zeros, s);
  ge = call3(g, type, c, zeros, dy, s);
  if (v2) {
    gu_give(g, 1, gl_reduce_to(g, gt, TFE_GradientContextInput(g, 1), s), s);
    gu_give(g, 2, gl_reduce_to(g, ge, TFE_GradientContextInput(g, 2), s), s);
    TF_DeleteAbstractTensor(gt);
    TF_DeleteAbstractTensor(ge);
  } else {
    gu_give(g, 1, gt, s);
    gu_give(g, 2, ge, s);
  }
  TF_DeleteAbstractTensor(zeros);
}
static void grad_select(TFE_GradientContext* g, TF_Status* s) { grad_select_common(g, 0, s); }
static void grad_select_v2(TFE_GradientContext* g, TF_Status* s) {
  grad_select_common(g, 1, s);
}

/* reverse: the same reversal of dy. */
static void grad_reverse(TFE_GradientContext* g, TF_Status* s) {
  gu_give(g, 0,
          gu_call2(g, TFE_GradientContextOpType(g), gu_upstream(g),
                   TFE_GradientContextInput(g, 1), s),
          s);
}

/* broadcast_to: dy summed over the broadcast dimensions. */
static void grad_broadcast_to(TFE_GradientContext* g, TF_Status* s) {
  gu_give(g, 0, gl_reduce_to(g, gu_upstream(g), TFE_GradientContextInput(g, 0), s), s);
}

/* fill(dims, value): the value gets the sum of dy. */
static void grad_fill(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *z, *one, *rank, *axes;
  if (dy == NULL) return;
  z = gl_i32(g, 0, s);
  one = gl_i32(g, 1, s);
  rank = gu_call1(g, "Rank", dy, s);
  axes = gl_range(g, z, rank, one, s);
  gu_give(g, 1, gl_sum(g, dy, axes, 0, s), s);
  TF_DeleteAbstractTensor(z);
  TF_DeleteAbstractTensor(one);
  TF_DeleteAbstractTensor(rank);
  TF_DeleteAbstractTensor(axes);
}

/* max/min over axes: dy shared equally among the elements equal to the
 * result. */
static void grad_min_max(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* axes = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *kept, *yk, *gk, *eq, *ind, *cnt, *num, *q;
  if (dy == NULL) return;
  kept = kept_shape(g, x, axes, s);
  yk = gu_call2(g, "Reshape", TFE_GradientContextOutput(g, 0), kept, s);
  gk = gu_call2(g, "Reshape", dy, kept, s);
  eq = gu_call2(g, "Equal", yk, x, s);
  ind = gu_cast(g, eq, TFE_AbstractTensorDataType(x, s), s);
  cnt = gl_sum(g, ind, axes, 0, s);
  num = gu_call2(g, "Reshape", cnt, kept, s);
  q = gu_call2(g, "RealDiv", ind, num, s);
  gu_give(g, 0, gu_call2(g, "Mul", q, gk, s), s);
  {
    TF_AbstractTensor* all[] = {kept, yk, gk, eq, ind, cnt, num, q};
    gl_free(all, 8);
  }
}

/* prod over axes: the product of all the other elements, as exclusive
 * cumulative products from both ends over the reduced axes moved first
 * (correct with zeros). */
static void grad_prod(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* axes = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *sx, *rank, *red, *kept, *gr, *gk, *z, *one, *all_ax, *other = NULL, *pr[2],
      *perm, *rn_d, *rn, *on_d, *on, *permuted, *ps, *shape2, *r2, *left = NULL, *right = NULL,
      *lr, *y, *inv, *yt, *m;
  TF_AbstractOp* op;
  int rev;
  if (dy == NULL) return;
  sx = gl_shape(g, x, TF_INT32, s);
  rank = gu_call1(g, "Rank", x, s);
  red = norm_axes(g, axes, x, s);
  kept = kept_shape(g, x, axes, s);
  gr = gu_call2(g, "Reshape", dy, kept, s);
  gk = gu_call2(g, "BroadcastTo", gr, sx, s);
  z = gl_i32(g, 0, s);
  one = gl_i32(g, 1, s);
  all_ax = gl_range(g, z, rank, one, s);
  {
    TF_AbstractTensor* ld[2];
    op = gl_op(g, "ListDiff", s);
    gl_in(op, all_ax, s);
    gl_in(op, red, s);
    gl_fin_n(op, 2, ld, s);
    other = ld[0];
    TF_DeleteAbstractTensor(ld[1]);
  }
  pr[0] = red;
  pr[1] = other;
  perm = concat(g, pr, 2, z, s);
  {
    TF_AbstractTensor* gs = call3(g, "GatherV2", sx, red, z, s);
    rn_d = gs;
    rn = gu_call2(g, "Prod", rn_d, z, s);
    on_d = call3(g, "GatherV2", sx, other, z, s);
    on = gu_call2(g, "Prod", on_d, z, s);
  }
  permuted = gu_call2(g, "Transpose", x, perm, s);
  ps = gl_shape(g, permuted, TF_INT32, s);
  pr[0] = rn;
  pr[1] = on;
  shape2 = pack(g, pr, 2, 0, s);
  r2 = gu_call2(g, "Reshape", permuted, shape2, s);
  for (rev = 0; rev < 2; rev++) {
    op = gl_op(g, "Cumprod", s);
    gl_in(op, r2, s);
    gl_in(op, z, s);
    gl_set_bool(op, "exclusive", 1, s);
    gl_set_bool(op, "reverse", rev, s);
    if (rev) {
      right = gl_fin(op, s);
    } else {
      left = gl_fin(op, s);
    }
  }
  {
    /* complex values: the products of the others enter conjugated, as TF */
    TF_AbstractTensor* prod = gu_call2(g, "Mul", left, right, s);
    lr = gu_conj(g, prod, s);
    TF_DeleteAbstractTensor(prod);
  }
  y = gu_call2(g, "Reshape", lr, ps, s);
  inv = gu_call1(g, "InvertPermutation", perm, s);
  yt = gu_call2(g, "Transpose", y, inv, s);
  m = gu_call2(g, "Mul", gk, yt, s);
  gu_give(g, 0, gu_call2(g, "Reshape", m, sx, s), s);
  {
    TF_AbstractTensor* all[] = {sx,   rank,     red,  kept, gr,     gk,    z,    one,
                                all_ax, other,  perm, rn_d, rn,     on_d,  on,   permuted,
                                ps,   shape2,   r2,   left, right,  lr,    y,    inv,
                                yt,   m};
    gl_free(all, (int)(sizeof all / sizeof all[0]));
  }
}

/* cumsum: cumsum of dy in the other direction. */
static void grad_cumsum(TFE_GradientContext* g, TF_Status* s) {
  int rev = TFE_GradientContextAttrBool(g, "reverse", s);
  TF_AbstractOp* op = gu_upstream(g) != NULL ? gl_op(g, "Cumsum", s) : NULL;
  gl_in(op, gu_upstream(g), s);
  gl_in(op, TFE_GradientContextInput(g, 1), s);
  gl_cp_bool(g, op, "exclusive", s);
  gl_set_bool(op, "reverse", !rev, s);
  gu_give(g, 0, gl_fin(op, s), s);
}

/* cumprod: cumsum(prod * dy) in the other direction, divided by x. */
static void grad_cumprod(TFE_GradientContext* g, TF_Status* s) {
  int rev = TFE_GradientContextAttrBool(g, "reverse", s);
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* pd;
  TF_AbstractTensor* cs;
  TF_AbstractOp* op;
  if (gu_upstream(g) == NULL) return;
  pd = gu_call2(g, "Mul", TFE_GradientContextOutput(g, 0), gu_upstream(g), s);
  op = gl_op(g, "Cumsum", s);
  gl_in(op, pd, s);
  gl_in(op, TFE_GradientContextInput(g, 1), s);
  gl_cp_bool(g, op, "exclusive", s);
  gl_set_bool(op, "reverse", !rev, s);
  cs = gl_fin(op, s);
  gu_give(g, 0, gu_call2(g, "RealDiv", cs, x, s), s);
  TF_DeleteAbstractTensor(pd);
  TF_DeleteAbstractTensor(cs);
}

/* identity-like ops: each output's gradient to the matching input. */
static void grad_identity_n(TFE_GradientContext* g, TF_Status* s) {
  int i, n = TFE_GradientContextNumOutputs(g);
  /* an output nothing depends on sends zeros back, as TF's tape does */
  for (i = 0; i < n && GL_OK(s); i++) gu_give(g, i, gl_grad_or_zeros(g, i, s), s);
}

/* prevent_gradient: asking for its gradient is an error, as in TF. */
static void grad_prevent(TFE_GradientContext* g, TF_Status* s) {
  const char* msg = "";
  size_t len = 0;
  (void)tfe_attrs_get_string(g->attrs, "message", &msg, &len, NULL);
  tfe_status_setf(s, TF_INVALID_ARGUMENT, "Gradient explicitly disabled. Reason: %.*s",
                  (int)len, msg);
}

/* gather_nd: ScatterNd of dy at the indices, in params' shape. */
static void grad_gather_nd(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* idx = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* sp;
  if (gu_upstream(g) == NULL) return;
  sp = gl_shape(g, TFE_GradientContextInput(g, 0), TFE_AbstractTensorDataType(idx, s), s);
  gu_give(g, 0, call3(g, "ScatterNd", idx, gu_upstream(g), sp, s), s);
  TF_DeleteAbstractTensor(sp);
}

/* scatter_nd(indices, updates, shape): the updates get GatherNd of dy. */
static void grad_scatter_nd(TFE_GradientContext* g, TF_Status* s) {
  gu_give(g, 1, gu_call2(g, "GatherNd", gu_upstream(g), TFE_GradientContextInput(g, 0), s), s);
}

/* reverse_sequence: the same reversal of dy. */
static void grad_reverse_sequence(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractOp* op = gu_upstream(g) != NULL ? gl_op(g, "ReverseSequence", s) : NULL;
  gl_in(op, gu_upstream(g), s);
  gl_in(op, TFE_GradientContextInput(g, 1), s);
  gl_cp_int(g, op, "seq_dim", s);
  gl_cp_int(g, op, "batch_dim", s);
  gu_give(g, 0, gl_fin(op, s), s);
}

/* depth_to_space and space_to_depth: each other's gradient. */
static void grad_depth_space(TFE_GradientContext* g, TF_Status* s) {
  const char* other =
      strcmp(TFE_GradientContextOpType(g), "DepthToSpace") == 0 ? "SpaceToDepth" : "DepthToSpace";
  TF_AbstractOp* op = gu_upstream(g) != NULL ? gl_op(g, other, s) : NULL;
  gl_in(op, gu_upstream(g), s);
  gl_cp_int(g, op, "block_size", s);
  gl_cp_str(g, op, "data_format", s);
  gu_give(g, 0, gl_fin(op, s), s);
}

/* space_to_batch_nd and batch_to_space_nd: each other's gradient with the
 * same block shape and paddings/crops. */
static void grad_space_batch(TFE_GradientContext* g, TF_Status* s) {
  const char* other = strcmp(TFE_GradientContextOpType(g), "SpaceToBatchND") == 0
                          ? "BatchToSpaceND"
                          : "SpaceToBatchND";
  if (gu_upstream(g) == NULL) return;
  gu_give(g, 0,
          call3(g, other, gu_upstream(g), TFE_GradientContextInput(g, 1),
                TFE_GradientContextInput(g, 2), s),
          s);
}

/* resource_gather(var, indices), batch_dims 0: the variable's gradient,
 * dense (UnsortedSegmentSum of dy by the indices over the variable's first
 * dimension), where TF gives IndexedSlices; the variable's shape comes
 * from a read of it (tfe has no VariableShape op). */
static void grad_resource_gather(TFE_GradientContext* g, TF_Status* s) {
  static const int32_t kOne[1] = {1}, kMinus1[1] = {-1};
  TF_AbstractTensor* indices = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = gu_upstream(g);
  int64_t batch_dims = 0;
  TF_DataType dt = TFE_GradientContextAttrType(g, "dtype", s);
  TF_AbstractTensor *v, *sp, *zero, *n0, *o1, *m1, *inner, *ni, *ni1, *pr[2], *vshape, *vals,
      *flat;
  TF_AbstractOp* op;
  if (dy == NULL || !GL_OK(s)) return;
  if (tfe_attrs_get_int(g->attrs, "batch_dims", &batch_dims, NULL) && batch_dims != 0) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "the gradient of ResourceGather with batch_dims != 0 is not supported by tfe");
    return;
  }
  op = gl_op(g, "ReadVariableOp", s);
  gl_in(op, TFE_GradientContextInput(g, 0), s);
  gl_set_type(op, "dtype", dt, s);
  v = gl_fin(op, s);
  sp = gl_shape(g, v, TF_INT32, s);
  zero = gl_i32(g, 0, s);
  n0 = call3(g, "GatherV2", sp, zero, zero, s);
  o1 = cvec(g, kOne, 1, s);
  m1 = cvec(g, kMinus1, 1, s);
  inner = call3(g, "Slice", sp, o1, m1, s);
  ni = gu_call1(g, "Size", indices, s);
  ni1 = gu_call2(g, "Reshape", ni, o1, s);
  pr[0] = ni1;
  pr[1] = inner;
  vshape = concat(g, pr, 2, zero, s);
  vals = gu_call2(g, "Reshape", dy, vshape, s);
  flat = flatten(g, indices, s);
  gu_give(g, 0, call3(g, "UnsortedSegmentSum", vals, flat, n0, s), s);
  {
    TF_AbstractTensor* all[] = {v, sp, zero, n0, o1, m1, inner, ni, ni1, vshape, vals, flat};
    gl_free(all, (int)(sizeof all / sizeof all[0]));
  }
}

/* unsorted_segment_sum(data, ids, n): dy gathered at the ids, zero where an
 * id is negative (TF drops those); segment_sum: the plain gather. */
static void grad_segment_sum_common(TFE_GradientContext* g, int unsorted, TF_Status* s) {
  TF_AbstractTensor* ids = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *zid, *clip, *zero, *gat, *ge, *sid, *rg, *ri, *d, *one1, *ones, *pr[2], *ms,
      *mask, *zg;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  zero = gl_i32(g, 0, s);
  if (!unsorted) {
    gu_give(g, 0, call3(g, "GatherV2", dy, ids, zero, s), s);
    TF_DeleteAbstractTensor(zero);
    return;
  }
  zid = gu_call1(g, "ZerosLike", ids, s);
  clip = gu_call2(g, "Maximum", ids, zid, s);
  gat = call3(g, "GatherV2", dy, clip, zero, s);
  ge = gu_call2(g, "GreaterEqual", ids, zid, s);
  /* the mask in ids' shape followed by ones up to the gathered rank */
  sid = gl_shape(g, ids, TF_INT32, s);
  rg = gu_call1(g, "Rank", gat, s);
  ri = gu_call1(g, "Rank", ids, s);
  d = gu_call2(g, "Sub", rg, ri, s);
  one1 = gl_i32(g, 1, s);
  {
    static const int32_t kOne[1] = {1};
    TF_AbstractTensor* o1 = cvec(g, kOne, 1, s);
    TF_AbstractTensor* d1 = gu_call2(g, "Reshape", d, o1, s);
    op = gl_op(g, "Fill", s);
    gl_in(op, d1, s);
    gl_in(op, one1, s);
    ones = gl_fin(op, s);
    TF_DeleteAbstractTensor(o1);
    TF_DeleteAbstractTensor(d1);
  }
  pr[0] = sid;
  pr[1] = ones;
  ms = concat(g, pr, 2, zero, s);
  mask = gu_call2(g, "Reshape", ge, ms, s);
  zg = gu_call1(g, "ZerosLike", gat, s);
  gu_give(g, 0, call3(g, "SelectV2", mask, gat, zg, s), s);
  {
    TF_AbstractTensor* all[] = {zero, zid, clip, gat, ge, sid, rg, ri, d, one1, ones, ms, mask, zg};
    gl_free(all, (int)(sizeof all / sizeof all[0]));
  }
}
static void grad_segment_sum(TFE_GradientContext* g, TF_Status* s) {
  grad_segment_sum_common(g, 0, s);
}
static void grad_unsorted_segment_sum(TFE_GradientContext* g, TF_Status* s) {
  grad_segment_sum_common(g, 1, s);
}

/* clip_by_value(x, lo, hi): dy to x where lo <= x <= hi, to lo where
 * x < lo and to hi where x > hi (each summed to its input's shape). */
static void grad_clip_by_value(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* lo = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* hi = TFE_GradientContextInput(g, 2);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *below, *above, *out, *z, *gx, *glo, *ghi;
  if (dy == NULL) return;
  below = gu_call2(g, "Less", x, lo, s);
  above = gu_call2(g, "Greater", x, hi, s);
  out = gu_call2(g, "LogicalOr", below, above, s);
  z = gu_call1(g, "ZerosLike", dy, s);
  gx = call3(g, "SelectV2", out, z, dy, s);
  glo = call3(g, "SelectV2", below, dy, z, s);
  ghi = call3(g, "SelectV2", above, dy, z, s);
  gu_give(g, 0, gl_reduce_to(g, gx, x, s), s);
  gu_give(g, 1, gl_reduce_to(g, glo, lo, s), s);
  gu_give(g, 2, gl_reduce_to(g, ghi, hi, s), s);
  {
    TF_AbstractTensor* all[] = {below, above, out, z, gx, glo, ghi};
    gl_free(all, 7);
  }
}

/* matrix_diag(d): the diagonal of dy; matrix_diag_part(x): dy set as the
 * diagonal of zeros shaped as x (works for non-square x too). */
static void grad_matrix_diag(TFE_GradientContext* g, TF_Status* s) {
  gu_give(g, 0, gu_call1(g, "MatrixDiagPart", gu_upstream(g), s), s);
}
static void grad_matrix_diag_part(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* z;
  if (gu_upstream(g) == NULL) return;
  z = gu_call1(g, "ZerosLike", TFE_GradientContextInput(g, 0), s);
  gu_give(g, 0, gu_call2(g, "MatrixSetDiag", z, gu_upstream(g), s), s);
  TF_DeleteAbstractTensor(z);
}

/* matrix_set_diag(x, d): x gets dy with a zero diagonal, d the diagonal of
 * dy. */
static void grad_matrix_set_diag(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *dg, *z;
  if (dy == NULL) return;
  dg = gu_call1(g, "MatrixDiagPart", dy, s);
  z = gu_call1(g, "ZerosLike", dg, s);
  gu_give(g, 0, gu_call2(g, "MatrixSetDiag", dy, z, s), s);
  gu_give(g, 1, dg, s);
  TF_DeleteAbstractTensor(z);
}

/* tensor_scatter_update(t, indices, updates): t gets dy with the updated
 * positions zeroed, updates get GatherNd(dy, indices); tensor_scatter_add:
 * t gets dy itself. */
static void grad_tensor_scatter(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* idx = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = gu_upstream(g);
  if (dy == NULL) return;
  if (strcmp(TFE_GradientContextOpType(g), "TensorScatterAdd") == 0) {
    gu_give(g, 0, TFE_AbstractTensorCopy(dy, s), s);
  } else {
    TF_AbstractTensor* z = gu_call1(g, "ZerosLike", TFE_GradientContextInput(g, 2), s);
    gu_give(g, 0, call3(g, "TensorScatterUpdate", dy, idx, z, s), s);
    TF_DeleteAbstractTensor(z);
  }
  gu_give(g, 2, gu_call2(g, "GatherNd", dy, idx, s), s);
}

/* floor_mod(x, y) = x - floor(x / y) y: dx = dz, dy = -floor_div(x, y) dz. */
static void grad_floor_mod(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* y = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dz = gu_upstream(g);
  TF_AbstractTensor *q, *nq;
  if (dz == NULL) return;
  q = gu_call2(g, "FloorDiv", x, y, s);
  nq = gu_call1(g, "Neg", q, s);
  gu_give(g, 0, gu_unbroadcast(g, TFE_AbstractTensorCopy(dz, s), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, gu_call2(g, "Mul", dz, nq, s), 1, s), s);
  TF_DeleteAbstractTensor(q);
  TF_DeleteAbstractTensor(nq);
}

/* ---- registration ---- */

int tfe_grad_register_array(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"ConcatV2", grad_concat},
      {"Pack", grad_pack},
      {"Unpack", grad_unpack},
      {"Split", grad_split},
      {"SplitV", grad_splitv},
      {"GatherV2", grad_gather},
      {"Gather", grad_gather},
      {"ResourceGather", grad_resource_gather},
      {"Slice", grad_slice},
      {"StridedSlice", grad_strided_slice},
      {"MirrorPad", grad_mirror_pad},
      {"Pad", grad_pad},
      {"PadV2", grad_pad},
      {"Tile", grad_tile},
      {"Select", grad_select},
      {"SelectV2", grad_select_v2},
      {"Reverse", grad_reverse},
      {"ReverseV2", grad_reverse},
      {"BroadcastTo", grad_broadcast_to},
      {"Fill", grad_fill},
      {"Max", grad_min_max},
      {"Min", grad_min_max},
      {"Prod", grad_prod},
      {"Cumsum", grad_cumsum},
      {"Cumprod", grad_cumprod},
      {"IdentityN", grad_identity_n},
      {"EnsureShape", grad_identity_n},
      {"PreventGradient", grad_prevent},
      {"GatherNd", grad_gather_nd},
      {"ScatterNd", grad_scatter_nd},
      {"SegmentSum", grad_segment_sum},
      {"UnsortedSegmentSum", grad_unsorted_segment_sum},
      {"ClipByValue", grad_clip_by_value},
      {"MatrixDiag", grad_matrix_diag},
      {"MatrixDiagPart", grad_matrix_diag_part},
      {"MatrixSetDiag", grad_matrix_set_diag},
      {"TensorScatterUpdate", grad_tensor_scatter},
      {"TensorScatterAdd", grad_tensor_scatter},
      {"FloorMod", grad_floor_mod},
      {"ReverseSequence", grad_reverse_sequence},
      {"DepthToSpace", grad_depth_space},
      {"SpaceToDepth", grad_depth_space},
      {"SpaceToBatchND", grad_space_batch},
      {"BatchToSpaceND", grad_space_batch},
  };
  /* TF's NotDifferentiable array ops (the shape queries and ZerosLike /
   * OnesLike are registered with the math group). */
  static const char* const kStop[] = {"Where", "InvertPermutation", "ConcatOffset",
                                      "ListDiff", "BroadcastArgs", "OneHot",
                                      "FloorDiv", "TruncateDiv", "Rint"};
  size_t i;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  for (i = 0; i < sizeof kStop / sizeof kStop[0]; i++) {
    if (!tfe_grad_register_builtin(kStop[i], NULL)) return 0;
  }
  return 1;
}
