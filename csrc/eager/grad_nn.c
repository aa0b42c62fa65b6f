/* Built-in gradients of nn ops (convolution, pooling, normalization, ...),
 * and at the end a "math" section with more elementwise gradients (Pow,
 * Atan2, the trigonometric and hyperbolic functions, Erf, Lgamma, ...).
 * The math is that of TF 2.21's registered gradients, with the same
 * backprop ops, so the values agree with TF's. FusedBatchNorm* have no
 * gradient here: tfe lacks their FusedBatchNormGrad* ops. Atan, Sinh and
 * Cosh are left out for now: the core's tests use them as the ops
 * without a gradient. */
#include <math.h>
#include <string.h>

#include "eager/grad_local.h"

/* ---- convolutions ---- */

static void cp_conv_attrs(TFE_GradientContext* g, TF_AbstractOp* op, int cudnn, TF_Status* s) {
  gl_cp_ilist(g, op, "strides", s);
  gl_cp_str(g, op, "padding", s);
  gl_cp_ilist(g, op, "explicit_paddings", s);
  gl_cp_str(g, op, "data_format", s);
  gl_cp_ilist(g, op, "dilations", s);
  if (cudnn) gl_cp_bool(g, op, "use_cudnn_on_gpu", s);
}

/* conv2d and depthwise: the two backprop ops, given the input's and the
 * filter's shapes. */
static void grad_conv_common(TFE_GradientContext* g, const char* in_op, const char* f_op,
                             int cudnn, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* f = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *sx, *sf;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  sx = gl_shape(g, x, TF_INT32, s);
  sf = gl_shape(g, f, TF_INT32, s);
  op = gl_op(g, in_op, s);
  gl_in(op, sx, s);
  gl_in(op, f, s);
  gl_in(op, dy, s);
  cp_conv_attrs(g, op, cudnn, s);
  gu_give(g, 0, gl_fin(op, s), s);
  op = gl_op(g, f_op, s);
  gl_in(op, x, s);
  gl_in(op, sf, s);
  gl_in(op, dy, s);
  cp_conv_attrs(g, op, cudnn, s);
  gu_give(g, 1, gl_fin(op, s), s);
  TF_DeleteAbstractTensor(sx);
  TF_DeleteAbstractTensor(sf);
}
static void grad_conv2d(TFE_GradientContext* g, TF_Status* s) {
  grad_conv_common(g, "Conv2DBackpropInput", "Conv2DBackpropFilter", 1, s);
}
static void grad_depthwise(TFE_GradientContext* g, TF_Status* s) {
  grad_conv_common(g, "DepthwiseConv2dNativeBackpropInput",
                   "DepthwiseConv2dNativeBackpropFilter", 0, s);
}

/* ---- pooling ---- */

static void grad_max_pool(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractOp* op = gu_upstream(g) != NULL ? gl_op(g, "MaxPoolGrad", s) : NULL;
  gl_in(op, TFE_GradientContextInput(g, 0), s);
  gl_in(op, TFE_GradientContextOutput(g, 0), s);
  gl_in(op, gu_upstream(g), s);
  gl_cp_ilist(g, op, "ksize", s);
  gl_cp_ilist(g, op, "strides", s);
  gl_cp_str(g, op, "padding", s);
  gl_cp_ilist(g, op, "explicit_paddings", s);
  gl_cp_str(g, op, "data_format", s);
  gu_give(g, 0, gl_fin(op, s), s);
}

static void grad_avg_pool(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* sx;
  TF_AbstractOp* op;
  if (gu_upstream(g) == NULL) return;
  sx = gl_shape(g, TFE_GradientContextInput(g, 0), TF_INT32, s);
  op = gl_op(g, "AvgPoolGrad", s);
  gl_in(op, sx, s);
  gl_in(op, gu_upstream(g), s);
  gl_cp_ilist(g, op, "ksize", s);
  gl_cp_ilist(g, op, "strides", s);
  gl_cp_str(g, op, "padding", s);
  gl_cp_str(g, op, "data_format", s);
  gu_give(g, 0, gl_fin(op, s), s);
  TF_DeleteAbstractTensor(sx);
}

/* max_pool_v2 (ksize and strides as inputs): MaxPoolGradV2. */
static void grad_max_pool_v2(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractOp* op = gu_upstream(g) != NULL ? gl_op(g, "MaxPoolGradV2", s) : NULL;
  gl_in(op, TFE_GradientContextInput(g, 0), s);
  gl_in(op, TFE_GradientContextOutput(g, 0), s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, TFE_GradientContextInput(g, 1), s);
  gl_in(op, TFE_GradientContextInput(g, 2), s);
  gl_cp_str(g, op, "padding", s);
  gl_cp_str(g, op, "data_format", s);
  gu_give(g, 0, gl_fin(op, s), s);
}

/* conv2d_backprop_input(input_sizes, filter, out_backprop) (the
 * transposed convolution): the filter gets Conv2DBackpropFilter(dy,
 * shape(filter), out_backprop), out_backprop gets Conv2D(dy, filter). */
static void grad_conv2d_backprop_input(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* f = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* ob = TFE_GradientContextInput(g, 2);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* sf;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  sf = gl_shape(g, f, TF_INT32, s);
  op = gl_op(g, "Conv2DBackpropFilter", s);
  gl_in(op, dy, s);
  gl_in(op, sf, s);
  gl_in(op, ob, s);
  cp_conv_attrs(g, op, 1, s);
  gu_give(g, 1, gl_fin(op, s), s);
  op = gl_op(g, "Conv2D", s);
  gl_in(op, dy, s);
  gl_in(op, f, s);
  cp_conv_attrs(g, op, 1, s);
  gu_give(g, 2, gl_fin(op, s), s);
  TF_DeleteAbstractTensor(sf);
}

/* ---- normalization and losses ---- */

/* l2_loss = sum(x^2) / 2: dx = x * dy. */
static void grad_l2_loss(TFE_GradientContext* g, TF_Status* s) {
  gu_give(g, 0, gu_call2(g, "Mul", TFE_GradientContextInput(g, 0), gu_upstream(g), s), s);
}

static void grad_lrn(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractOp* op = gu_upstream(g) != NULL ? gl_op(g, "LRNGrad", s) : NULL;
  gl_in(op, gu_upstream(g), s);
  gl_in(op, TFE_GradientContextInput(g, 0), s);
  gl_in(op, TFE_GradientContextOutput(g, 0), s);
  gl_cp_int(g, op, "depth_radius", s);
  gl_cp_float(g, op, "bias", s);
  gl_cp_float(g, op, "alpha", s);
  gl_cp_float(g, op, "beta", s);
  gu_give(g, 0, gl_fin(op, s), s);
}

/* ---- math: more elementwise gradients ---- */

/* dy * f, f built by the caller (taken over). */
static void give_scaled(TFE_GradientContext* g, TF_AbstractTensor* f, TF_Status* s) {
  gu_give(g, 0, gu_call2(g, "Mul", gu_upstream(g), f, s), s);
  TF_DeleteAbstractTensor(f);
}

static TF_AbstractTensor* x_conj(TFE_GradientContext* g, TF_Status* s) {
  return gu_conj(g, TFE_GradientContextInput(g, 0), s);
}

/* dy * op(x) for expm1 (exp) and lgamma (digamma). */
static void grad_by(TFE_GradientContext* g, const char* type, TF_Status* s) {
  TF_AbstractTensor* x = x_conj(g, s);
  give_scaled(g, gu_call1(g, type, x, s), s);
  TF_DeleteAbstractTensor(x);
}
static void grad_expm1(TFE_GradientContext* g, TF_Status* s) { grad_by(g, "Exp", s); }
static void grad_lgamma(TFE_GradientContext* g, TF_Status* s) { grad_by(g, "Digamma", s); }

/* digamma: dy * polygamma(1, x). */
static void grad_digamma(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = x_conj(g, s);
  TF_AbstractTensor* one = gu_call1(g, "OnesLike", x, s);
  give_scaled(g, gu_call2(g, "Polygamma", one, x, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(one);
}

/* tan: dy / cos(x)^2. */
static void grad_tan(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = x_conj(g, s);
  TF_AbstractTensor* c = gu_call1(g, "Cos", x, s);
  TF_AbstractTensor* sec = gu_call1(g, "Reciprocal", c, s);
  give_scaled(g, gu_call1(g, "Square", sec, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(c);
  TF_DeleteAbstractTensor(sec);
}

/* 1 - x^2 (sign -1) or 1 + x^2 (sign 1). */
static TF_AbstractTensor* one_pm_x2(TFE_GradientContext* g, TF_AbstractTensor* x, int sign,
                                    TF_Status* s) {
  TF_AbstractTensor* x2 = gu_call1(g, "Square", x, s);
  TF_AbstractTensor* one = gu_call1(g, "OnesLike", x, s);
  TF_AbstractTensor* r = gu_call2(g, sign > 0 ? "AddV2" : "Sub", one, x2, s);
  TF_DeleteAbstractTensor(x2);
  TF_DeleteAbstractTensor(one);
  return r;
}

/* asin: dy / sqrt(1 - x^2); acos: the negative. */
static void grad_asin_acos(TFE_GradientContext* g, int neg, TF_Status* s) {
  TF_AbstractTensor* x = x_conj(g, s);
  TF_AbstractTensor* d = one_pm_x2(g, x, -1, s);
  TF_AbstractTensor* r = gu_call1(g, "Sqrt", d, s);
  TF_AbstractTensor* inv = gu_call1(g, "Reciprocal", r, s);
  if (neg) {
    TF_AbstractTensor* m = gu_call1(g, "Neg", inv, s);
    TF_DeleteAbstractTensor(inv);
    inv = m;
  }
  give_scaled(g, inv, s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(d);
  TF_DeleteAbstractTensor(r);
}
static void grad_asin(TFE_GradientContext* g, TF_Status* s) { grad_asin_acos(g, 0, s); }
static void grad_acos(TFE_GradientContext* g, TF_Status* s) { grad_asin_acos(g, 1, s); }

/* atanh: dy / (1 - x^2) (sign -1); atan would be sign 1. */
static void grad_atan_common(TFE_GradientContext* g, int sign, TF_Status* s) {
  TF_AbstractTensor* x = x_conj(g, s);
  TF_AbstractTensor* d = one_pm_x2(g, x, sign, s);
  give_scaled(g, gu_call1(g, "Reciprocal", d, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(d);
}
static void grad_atanh(TFE_GradientContext* g, TF_Status* s) { grad_atan_common(g, -1, s); }

/* asinh: dy / cosh(y); acosh: dy / sinh(y). */
static void grad_inv_hyp(TFE_GradientContext* g, const char* type, TF_Status* s) {
  TF_AbstractTensor* y = gu_conj(g, TFE_GradientContextOutput(g, 0), s);
  TF_AbstractTensor* c = gu_call1(g, type, y, s);
  gu_give(g, 0, gu_call2(g, "RealDiv", gu_upstream(g), c, s), s);
  TF_DeleteAbstractTensor(y);
  TF_DeleteAbstractTensor(c);
}
static void grad_asinh(TFE_GradientContext* g, TF_Status* s) { grad_inv_hyp(g, "Cosh", s); }
static void grad_acosh(TFE_GradientContext* g, TF_Status* s) { grad_inv_hyp(g, "Sinh", s); }

/* erf: dy * 2/sqrt(pi) * exp(-x^2); erfc: the negative. */
static void grad_erf_common(TFE_GradientContext* g, double k, TF_Status* s) {
  TF_AbstractTensor* x = x_conj(g, s);
  TF_AbstractTensor* x2 = gu_call1(g, "Square", x, s);
  TF_AbstractTensor* n = gu_call1(g, "Neg", x2, s);
  TF_AbstractTensor* e = gu_call1(g, "Exp", n, s);
  TF_AbstractTensor* c = gl_scalar(g, TFE_AbstractTensorDataType(x, s), k, s);
  give_scaled(g, gu_call2(g, "Mul", c, e, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(x2);
  TF_DeleteAbstractTensor(n);
  TF_DeleteAbstractTensor(e);
  TF_DeleteAbstractTensor(c);
}
static void grad_erf(TFE_GradientContext* g, TF_Status* s) {
  grad_erf_common(g, 2.0 / sqrt(M_PI), s);
}
static void grad_erfc(TFE_GradientContext* g, TF_Status* s) {
  grad_erf_common(g, -2.0 / sqrt(M_PI), s);
}

/* atan2(y, x): dy_in = x / (x^2 + y^2) * dz, dx_in = -y / (x^2 + y^2) * dz. */
static void grad_atan2(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* y = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* x2 = gu_call1(g, "Square", x, s);
  TF_AbstractTensor* y2 = gu_call1(g, "Square", y, s);
  TF_AbstractTensor* d = gu_call2(g, "AddV2", x2, y2, s);
  TF_AbstractTensor* gi = gu_call2(g, "RealDiv", gu_upstream(g), d, s);
  TF_AbstractTensor* ny = gu_call1(g, "Neg", y, s);
  gu_give(g, 0, gu_unbroadcast(g, gu_call2(g, "Mul", x, gi, s), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, gu_call2(g, "Mul", ny, gi, s), 1, s), s);
  TF_DeleteAbstractTensor(x2);
  TF_DeleteAbstractTensor(y2);
  TF_DeleteAbstractTensor(d);
  TF_DeleteAbstractTensor(gi);
  TF_DeleteAbstractTensor(ny);
}

/* pow(x, y) = z: dx = dz * y * x^(y-1); dy = dz * z * log(x) where x > 0
 * (x != 0 for complex values), else 0; x, y and z conjugated for complex
 * values, as TF. */
static void grad_pow(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dz = gu_upstream(g);
  TF_AbstractTensor *x, *y, *z, *one, *ym1, *p, *t, *zero, *mask, *onex, *safe, *lg, *zx, *logx,
      *zl;
  int cplx;
  if (dz == NULL) return;
  x = gu_conj(g, TFE_GradientContextInput(g, 0), s);
  y = gu_conj(g, TFE_GradientContextInput(g, 1), s);
  z = gu_conj(g, TFE_GradientContextOutput(g, 0), s);
  cplx = gu_is_complex(x, s);
  one = gu_call1(g, "OnesLike", y, s);
  ym1 = gu_call2(g, "Sub", y, one, s);
  p = gu_call2(g, "Pow", x, ym1, s);
  t = gu_call2(g, "Mul", y, p, s);
  gu_give(g, 0, gu_unbroadcast(g, gu_call2(g, "Mul", dz, t, s), 0, s), s);
  zx = gu_call1(g, "ZerosLike", x, s);
  zero = zx;
  mask = gu_call2(g, cplx ? "NotEqual" : "Greater", x, zero, s);
  onex = gu_call1(g, "OnesLike", x, s);
  {
    TF_AbstractOp* op = gl_op(g, "SelectV2", s);
    gl_in(op, mask, s);
    gl_in(op, x, s);
    gl_in(op, onex, s);
    safe = gl_fin(op, s);
  }
  lg = gu_call1(g, "Log", safe, s);
  {
    TF_AbstractOp* op = gl_op(g, "SelectV2", s);
    gl_in(op, mask, s);
    gl_in(op, lg, s);
    gl_in(op, zx, s);
    logx = gl_fin(op, s);
  }
  zl = gu_call2(g, "Mul", z, logx, s);
  gu_give(g, 1, gu_unbroadcast(g, gu_call2(g, "Mul", dz, zl, s), 1, s), s);
  {
    TF_AbstractTensor* all[] = {x, y, z, one, ym1, p, t, zx, mask, onex, safe, lg, logx, zl};
    gl_free(all, (int)(sizeof all / sizeof all[0]));
  }
}

/* div_no_nan(x, y): dx = div_no_nan(dz, y), dy = dz * div_no_nan(div_no_nan(-x, y), y),
 * with x and y conjugated for complex values. */
static void grad_div_no_nan(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = gu_conj(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* y = gu_conj(g, TFE_GradientContextInput(g, 1), s);
  TF_AbstractTensor* nx = gu_call1(g, "Neg", x, s);
  TF_AbstractTensor* q1 = gu_call2(g, "DivNoNan", nx, y, s);
  TF_AbstractTensor* q2 = gu_call2(g, "DivNoNan", q1, y, s);
  gu_give(g, 0, gu_unbroadcast(g, gu_call2(g, "DivNoNan", gu_upstream(g), y, s), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, gu_call2(g, "Mul", gu_upstream(g), q2, s), 1, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(y);
  TF_DeleteAbstractTensor(nx);
  TF_DeleteAbstractTensor(q1);
  TF_DeleteAbstractTensor(q2);
}

/* mul_no_nan(x, y): dx = mul_no_nan(dz, y), dy = mul_no_nan(x, dz). */
static void grad_mul_no_nan(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* y = TFE_GradientContextInput(g, 1);
  gu_give(g, 0, gu_unbroadcast(g, gu_call2(g, "MulNoNan", gu_upstream(g), y, s), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, gu_call2(g, "MulNoNan", x, gu_upstream(g), s), 1, s), s);
}

/* xlogy(x, y): dx = xlogy(x != 0, y) * dz, dy = xdivy(x, y) * dz;
 * xdivy(x, y): dx = xdivy(x != 0, y) * dz, dy = xdivy(-x, y^2) * dz. */
static void grad_xlogy_xdivy(TFE_GradientContext* g, int divy, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* y = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* zero = gu_call1(g, "ZerosLike", x, s);
  TF_AbstractTensor* ne = gu_call2(g, "NotEqual", x, zero, s);
  TF_AbstractTensor* nz = gu_cast(g, ne, TFE_AbstractTensorDataType(x, s), s);
  TF_AbstractTensor* fx = gu_call2(g, divy ? "Xdivy" : "Xlogy", nz, y, s);
  TF_AbstractTensor *fy, *a = NULL, *b = NULL;
  if (divy) {
    a = gu_call1(g, "Neg", x, s);
    b = gu_call1(g, "Square", y, s);
    fy = gu_call2(g, "Xdivy", a, b, s);
  } else {
    fy = gu_call2(g, "Xdivy", x, y, s);
  }
  gu_give(g, 0, gu_unbroadcast(g, gu_call2(g, "Mul", fx, gu_upstream(g), s), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, gu_call2(g, "Mul", fy, gu_upstream(g), s), 1, s), s);
  {
    TF_AbstractTensor* all[] = {zero, ne, nz, fx, fy, a, b};
    gl_free(all, 7);
  }
}
static void grad_xlogy(TFE_GradientContext* g, TF_Status* s) { grad_xlogy_xdivy(g, 0, s); }
static void grad_xdivy(TFE_GradientContext* g, TF_Status* s) { grad_xlogy_xdivy(g, 1, s); }

static TF_AbstractTensor* bmm(TFE_GradientContext* g, TF_AbstractTensor* a, TF_AbstractTensor* b,
                              int adj_a, int adj_b, TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, "BatchMatMulV2", s);
  gl_in(op, a, s);
  gl_in(op, b, s);
  gl_set_bool(op, "adj_x", adj_a, s);
  gl_set_bool(op, "adj_y", adj_b, s);
  return gl_fin(op, s);
}

/* batch_matmul_v2: MatMul's four forms, batched, each summed over the
 * batch dimensions broadcasting added to its input. The products use
 * adjoints, so complex values are conjugated as TF does. */
static void grad_batch_matmul(TFE_GradientContext* g, TF_Status* s) {
  int ax = TFE_GradientContextAttrBool(g, "adj_x", s);
  int ay = TFE_GradientContextAttrBool(g, "adj_y", s);
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* y = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dz = gu_upstream(g);
  TF_AbstractTensor *gx, *gy;
  if (dz == NULL || !GL_OK(s)) return;
  if (!ax && !ay) {
    gx = bmm(g, dz, y, 0, 1, s);
    gy = bmm(g, x, dz, 1, 0, s);
  } else if (!ax && ay) {
    gx = bmm(g, dz, y, 0, 0, s);
    gy = bmm(g, dz, x, 1, 0, s);
  } else if (ax && !ay) {
    gx = bmm(g, y, dz, 0, 1, s);
    gy = bmm(g, x, dz, 0, 0, s);
  } else {
    gx = bmm(g, y, dz, 1, 1, s);
    gy = bmm(g, dz, x, 1, 1, s);
  }
  gu_give(g, 0, gl_reduce_to(g, gx, x, s), s);
  gu_give(g, 1, gl_reduce_to(g, gy, y, s), s);
  TF_DeleteAbstractTensor(gx);
  TF_DeleteAbstractTensor(gy);
}

/* sign: zeros (TF gives zeros, not "no gradient"). */
static void grad_sign(TFE_GradientContext* g, TF_Status* s) {
  gu_give(g, 0, gu_call1(g, "ZerosLike", TFE_GradientContextInput(g, 0), s), s);
}

/* ---- second order: gradients of the activation gradient ops ---- */

/* TanhGrad is left without a gradient for now: another helper's test
 * (test_gradient_tape_extra.py) asserts that forward mode through tanh is
 * a LookupError naming it. Its gradient would be, as TF: d/dy = grad * -2
 * * dy * y, d/d(dy) = tanh_grad(y, grad). */

/* sigmoid_grad(y, dy) = dy y (1 - y): d/dy = gb - 2 gb y with gb = grad *
 * dy, d/d(dy) = sigmoid_grad(y, grad). */
static void grad_sigmoid_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* y = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* dy = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* gr = gu_upstream(g);
  TF_AbstractTensor *gb, *k, *a, *b;
  if (gr == NULL) return;
  gb = gu_call2(g, "Mul", gr, dy, s);
  k = gl_scalar(g, TFE_AbstractTensorDataType(y, s), 2.0, s);
  a = gu_call2(g, "Mul", k, gb, s);
  b = gu_call2(g, "Mul", a, y, s);
  gu_give(g, 0, gu_call2(g, "Sub", gb, b, s), s);
  gu_give(g, 1, gu_call2(g, "SigmoidGrad", y, gr, s), s);
  TF_DeleteAbstractTensor(gb);
  TF_DeleteAbstractTensor(k);
  TF_DeleteAbstractTensor(a);
  TF_DeleteAbstractTensor(b);
}

/* relu_grad(gradients, features) and relu6/leaky: the same op on the
 * upstream gradient for `gradients`, zeros for the features. */
static void grad_act_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 1);
  TF_AbstractOp* op;
  if (gu_upstream(g) == NULL) return;
  op = gl_op(g, TFE_GradientContextOpType(g), s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, x, s);
  gl_cp_float(g, op, "alpha", s);
  gu_give(g, 0, gl_fin(op, s), s);
  gu_give(g, 1, gu_call1(g, "ZerosLike", x, s), s);
}

/* elu_grad(gradients, outputs): elu_grad(grad, outputs) for gradients,
 * grad * gradients where outputs < 0 (else 0) for the outputs. */
static void grad_elu_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* gi = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* y = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* gr = gu_upstream(g);
  TF_AbstractTensor *z, *neg, *m;
  TF_AbstractOp* op;
  if (gr == NULL) return;
  gu_give(g, 0, gu_call2(g, "EluGrad", gr, y, s), s);
  z = gu_call1(g, "ZerosLike", y, s);
  neg = gu_call2(g, "Less", y, z, s);
  m = gu_call2(g, "Mul", gr, gi, s);
  op = gl_op(g, "SelectV2", s);
  gl_in(op, neg, s);
  gl_in(op, m, s);
  gl_in(op, z, s);
  gu_give(g, 1, gl_fin(op, s), s);
  TF_DeleteAbstractTensor(z);
  TF_DeleteAbstractTensor(neg);
  TF_DeleteAbstractTensor(m);
}

/* ---- registration ---- */

int tfe_grad_register_nn(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"Conv2D", grad_conv2d},
      {"DepthwiseConv2dNative", grad_depthwise},
      {"MaxPool", grad_max_pool},
      {"AvgPool", grad_avg_pool},
      {"L2Loss", grad_l2_loss},
      {"LRN", grad_lrn},
      /* math */
      {"Expm1", grad_expm1},
      {"Lgamma", grad_lgamma},
      {"Digamma", grad_digamma},
      {"Tan", grad_tan},
      {"Asin", grad_asin},
      {"Acos", grad_acos},
      {"Atanh", grad_atanh},
      {"Asinh", grad_asinh},
      {"Acosh", grad_acosh},
      {"Erf", grad_erf},
      {"Erfc", grad_erfc},
      {"Atan2", grad_atan2},
      {"Pow", grad_pow},
      {"Sign", grad_sign},
      {"MaxPoolV2", grad_max_pool_v2},
      {"Conv2DBackpropInput", grad_conv2d_backprop_input},
      {"DivNoNan", grad_div_no_nan},
      {"MulNoNan", grad_mul_no_nan},
      {"Xlogy", grad_xlogy},
      {"Xdivy", grad_xdivy},
      {"BatchMatMulV2", grad_batch_matmul},
      {"SigmoidGrad", grad_sigmoid_grad},
      {"ReluGrad", grad_act_grad},
      {"Relu6Grad", grad_act_grad},
      {"LeakyReluGrad", grad_act_grad},
      {"EluGrad", grad_elu_grad},
  };
  size_t i;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  return 1;
}
