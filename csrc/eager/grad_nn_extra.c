/* Gradient functions: gradients of 3-D convolution and pooling, fused batch
 * normalization, the backprop ops themselves (second order) and the
 * activation-gradient ops, with the formulas and backprop ops of TF 2.21's
 * registered gradients (nn_grad.py, math_grad.py), so the values agree
 * with TF's. */
#include <string.h>

#include "eager/grad_local.h"

int tfe_grad_register_nn_extra(void);

static TF_AbstractTensor* in_(TFE_GradientContext* g, int i) {
  return TFE_GradientContextInput(g, i);
}

static void del(TF_AbstractTensor* t) { TF_DeleteAbstractTensor(t); }

/* Copies the window attrs every 3-D conv op has. */
static void cp_conv3d(TFE_GradientContext* g, TF_AbstractOp* op, TF_Status* s) {
  gl_cp_ilist(g, op, "strides", s);
  gl_cp_str(g, op, "padding", s);
  gl_cp_str(g, op, "data_format", s);
  gl_cp_ilist(g, op, "dilations", s);
}

/* Copies the attrs of 2-D convolutions (explicit paddings, cudnn flag
 * when the forward op has them). */
static void cp_conv2d(TFE_GradientContext* g, TF_AbstractOp* op, int cudnn, TF_Status* s) {
  gl_cp_ilist(g, op, "strides", s);
  gl_cp_str(g, op, "padding", s);
  gl_cp_ilist(g, op, "explicit_paddings", s);
  gl_cp_str(g, op, "data_format", s);
  gl_cp_ilist(g, op, "dilations", s);
  if (cudnn) gl_cp_bool(g, op, "use_cudnn_on_gpu", s);
}

static void cp_pool(TFE_GradientContext* g, TF_AbstractOp* op, TF_Status* s) {
  gl_cp_ilist(g, op, "ksize", s);
  gl_cp_ilist(g, op, "strides", s);
  gl_cp_str(g, op, "padding", s);
  gl_cp_str(g, op, "data_format", s);
}

/* op(a, b, c) with the attrs copied by cp (3-D conv or pool). */
static TF_AbstractTensor* call3(TFE_GradientContext* g, const char* type, TF_AbstractTensor* a,
                                TF_AbstractTensor* b, TF_AbstractTensor* c,
                                void (*cp)(TFE_GradientContext*, TF_AbstractOp*, TF_Status*),
                                TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, type, s);
  gl_in(op, a, s);
  gl_in(op, b, s);
  if (c != NULL) gl_in(op, c, s);
  if (cp != NULL) cp(g, op, s);
  return gl_fin(op, s);
}

/* ---- 3-D convolution ---- */

/* conv3d(x, f): dx = Conv3DBackpropInputV2(shape(x), f, dy),
 * df = Conv3DBackpropFilterV2(x, shape(f), dy). */
static void grad_conv3d(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor *sx, *sf;
  if (dy == NULL) return;
  sx = gl_shape(g, in_(g, 0), TF_INT32, s);
  sf = gl_shape(g, in_(g, 1), TF_INT32, s);
  gu_give(g, 0, call3(g, "Conv3DBackpropInputV2", sx, in_(g, 1), dy, cp_conv3d, s), s);
  gu_give(g, 1, call3(g, "Conv3DBackpropFilterV2", in_(g, 0), sf, dy, cp_conv3d, s), s);
  del(sx);
  del(sf);
}

/* conv3d_backprop_input_v2(sizes, f, ob): the filter gets
 * Conv3DBackpropFilterV2(dy, shape(f), ob), ob gets Conv3D(dy, f). */
static void grad_conv3d_bp_input(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* sf;
  if (dy == NULL) return;
  sf = gl_shape(g, in_(g, 1), TF_INT32, s);
  gu_give(g, 1, call3(g, "Conv3DBackpropFilterV2", dy, sf, in_(g, 2), cp_conv3d, s), s);
  gu_give(g, 2, call3(g, "Conv3D", dy, in_(g, 1), NULL, cp_conv3d, s), s);
  del(sf);
}

/* conv3d_backprop_filter_v2(x, sizes, ob): x gets
 * Conv3DBackpropInputV2(shape(x), dy, ob), ob gets Conv3D(x, dy). */
static void grad_conv3d_bp_filter(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* sx;
  if (dy == NULL) return;
  sx = gl_shape(g, in_(g, 0), TF_INT32, s);
  gu_give(g, 0, call3(g, "Conv3DBackpropInputV2", sx, dy, in_(g, 2), cp_conv3d, s), s);
  gu_give(g, 2, call3(g, "Conv3D", in_(g, 0), dy, NULL, cp_conv3d, s), s);
  del(sx);
}

/* ---- 2-D convolution backprops ---- */

/* conv2d_backprop_filter(x, sizes, ob): x gets
 * Conv2DBackpropInput(shape(x), dy, ob), ob gets Conv2D(x, dy). */
static void grad_conv2d_bp_filter(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* sx;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  sx = gl_shape(g, in_(g, 0), TF_INT32, s);
  op = gl_op(g, "Conv2DBackpropInput", s);
  gl_in(op, sx, s);
  gl_in(op, dy, s);
  gl_in(op, in_(g, 2), s);
  cp_conv2d(g, op, 1, s);
  gu_give(g, 0, gl_fin(op, s), s);
  op = gl_op(g, "Conv2D", s);
  gl_in(op, in_(g, 0), s);
  gl_in(op, dy, s);
  cp_conv2d(g, op, 1, s);
  gu_give(g, 2, gl_fin(op, s), s);
  del(sx);
}

/* depthwise_conv2d_native_backprop_input(sizes, f, ob): f gets
 * DepthwiseConv2dNativeBackpropFilter(dy, shape(f), ob), ob gets
 * DepthwiseConv2dNative(dy, f). */
static void grad_dw_bp_input(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* sf;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  sf = gl_shape(g, in_(g, 1), TF_INT32, s);
  op = gl_op(g, "DepthwiseConv2dNativeBackpropFilter", s);
  gl_in(op, dy, s);
  gl_in(op, sf, s);
  gl_in(op, in_(g, 2), s);
  cp_conv2d(g, op, 0, s);
  gu_give(g, 1, gl_fin(op, s), s);
  op = gl_op(g, "DepthwiseConv2dNative", s);
  gl_in(op, dy, s);
  gl_in(op, in_(g, 1), s);
  cp_conv2d(g, op, 0, s);
  gu_give(g, 2, gl_fin(op, s), s);
  del(sf);
}

/* depthwise_conv2d_native_backprop_filter(x, sizes, ob): x gets
 * DepthwiseConv2dNativeBackpropInput(shape(x), dy, ob), ob gets
 * DepthwiseConv2dNative(x, dy). */
static void grad_dw_bp_filter(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* sx;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  sx = gl_shape(g, in_(g, 0), TF_INT32, s);
  op = gl_op(g, "DepthwiseConv2dNativeBackpropInput", s);
  gl_in(op, sx, s);
  gl_in(op, dy, s);
  gl_in(op, in_(g, 2), s);
  cp_conv2d(g, op, 0, s);
  gu_give(g, 0, gl_fin(op, s), s);
  op = gl_op(g, "DepthwiseConv2dNative", s);
  gl_in(op, in_(g, 0), s);
  gl_in(op, dy, s);
  cp_conv2d(g, op, 0, s);
  gu_give(g, 2, gl_fin(op, s), s);
  del(sx);
}

/* ---- pooling ---- */

static void grad_max_pool3d(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  if (dy == NULL) return;
  gu_give(g, 0,
          call3(g, "MaxPool3DGrad", in_(g, 0), TFE_GradientContextOutput(g, 0), dy, cp_pool, s),
          s);
}

static void grad_avg_pool3d(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* sx;
  if (dy == NULL) return;
  sx = gl_shape(g, in_(g, 0), TF_INT32, s);
  gu_give(g, 0, call3(g, "AvgPool3DGrad", sx, dy, NULL, cp_pool, s), s);
  del(sx);
}

/* The max-pool gradient ops (orig_input, orig_output, grad): zeros for
 * the first two inputs, the "other" gradient op for grad. */
static void grad_pool_grad_common(TFE_GradientContext* g, const char* other, int v2,
                                  TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractOp* op;
  if (dy == NULL) return;
  gu_give(g, 0, gu_call1(g, "ZerosLike", in_(g, 0), s), s);
  gu_give(g, 1, gu_call1(g, "ZerosLike", in_(g, 1), s), s);
  op = gl_op(g, other, s);
  gl_in(op, in_(g, 0), s);
  gl_in(op, in_(g, 1), s);
  gl_in(op, dy, s);
  if (v2) {
    gl_in(op, in_(g, 3), s);
    gl_in(op, in_(g, 4), s);
    gl_cp_str(g, op, "padding", s);
    gl_cp_str(g, op, "data_format", s);
  } else {
    cp_pool(g, op, s);
  }
  gu_give(g, 2, gl_fin(op, s), s);
}

static void grad_max_pool_grad(TFE_GradientContext* g, TF_Status* s) {
  grad_pool_grad_common(g, "MaxPoolGradGrad", 0, s);
}
static void grad_max_pool_grad_v2(TFE_GradientContext* g, TF_Status* s) {
  grad_pool_grad_common(g, "MaxPoolGradGradV2", 1, s);
}
static void grad_max_pool_grad_grad(TFE_GradientContext* g, TF_Status* s) {
  grad_pool_grad_common(g, "MaxPoolGrad", 0, s);
}
static void grad_max_pool3d_grad(TFE_GradientContext* g, TF_Status* s) {
  grad_pool_grad_common(g, "MaxPool3DGradGrad", 0, s);
}
static void grad_max_pool3d_grad_grad(TFE_GradientContext* g, TF_Status* s) {
  grad_pool_grad_common(g, "MaxPool3DGrad", 0, s);
}

/* avg_pool_grad(shape, grad) / avg_pool3d_grad: the shape gets nothing,
 * grad gets AvgPool(dy) / AvgPool3D(dy). */
static void grad_avg_pool_grad_common(TFE_GradientContext* g, const char* fwd, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractOp* op;
  if (dy == NULL) return;
  op = gl_op(g, fwd, s);
  gl_in(op, dy, s);
  cp_pool(g, op, s);
  gu_give(g, 1, gl_fin(op, s), s);
}
static void grad_avg_pool_grad(TFE_GradientContext* g, TF_Status* s) {
  grad_avg_pool_grad_common(g, "AvgPool", s);
}
static void grad_avg_pool3d_grad(TFE_GradientContext* g, TF_Status* s) {
  grad_avg_pool_grad_common(g, "AvgPool3D", s);
}

/* max_pool_with_argmax: MaxPoolGradWithArgmax(x, dy, argmax). */
static void grad_max_pool_argmax(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractOp* op;
  if (dy == NULL) return;
  op = gl_op(g, "MaxPoolGradWithArgmax", s);
  gl_in(op, in_(g, 0), s);
  gl_in(op, dy, s);
  gl_in(op, TFE_GradientContextOutput(g, 1), s);
  gl_cp_ilist(g, op, "ksize", s);
  gl_cp_ilist(g, op, "strides", s);
  gl_cp_str(g, op, "padding", s);
  gl_cp_bool(g, op, "include_batch_in_index", s);
  gu_give(g, 0, gl_fin(op, s), s);
}

/* ---- dilation ---- */

static void grad_dilation2d(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  const char* ops[2] = {"Dilation2DBackpropInput", "Dilation2DBackpropFilter"};
  int i;
  if (dy == NULL) return;
  for (i = 0; i < 2; i++) {
    TF_AbstractOp* op = gl_op(g, ops[i], s);
    gl_in(op, in_(g, 0), s);
    gl_in(op, in_(g, 1), s);
    gl_in(op, dy, s);
    gl_cp_ilist(g, op, "strides", s);
    gl_cp_ilist(g, op, "rates", s);
    gl_cp_str(g, op, "padding", s);
    gu_give(g, i, gl_fin(op, s), s);
  }
}

/* ---- batch normalization ---- */

/* FusedBatchNorm{,V2,V3}: training uses the saved batch statistics
 * (reserve_space_1/2 outputs), inference the population mean and variance
 * inputs; V3 also passes reserve_space_3. Only y's gradient flows. */
static void grad_fused_bn(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  const char* type = TFE_GradientContextOpType(g);
  const char* gop = strcmp(type, "FusedBatchNorm") == 0     ? "FusedBatchNormGrad"
                    : strcmp(type, "FusedBatchNormV2") == 0 ? "FusedBatchNormGradV2"
                                                            : "FusedBatchNormGradV3";
  int v3 = strcmp(type, "FusedBatchNormV3") == 0;
  int training = TFE_GradientContextAttrBool(g, "is_training", s) != 0;
  TF_AbstractTensor* outs[5];
  TF_AbstractOp* op;
  int i;
  if (dy == NULL || !GL_OK(s)) return;
  op = gl_op(g, gop, s);
  gl_in(op, dy, s);
  gl_in(op, in_(g, 0), s);
  gl_in(op, in_(g, 1), s);
  if (training) {
    gl_in(op, TFE_GradientContextOutput(g, 3), s);
    gl_in(op, TFE_GradientContextOutput(g, 4), s);
  } else {
    gl_in(op, in_(g, 3), s);
    gl_in(op, in_(g, 4), s);
  }
  if (v3) gl_in(op, TFE_GradientContextOutput(g, 5), s);
  gl_cp_float(g, op, "epsilon", s);
  gl_cp_str(g, op, "data_format", s);
  gl_set_bool(op, "is_training", training, s);
  gl_fin_n(op, 5, outs, s);
  for (i = 0; i < 3; i++) {
    gu_give(g, i, outs[i], s);
    outs[i] = NULL;
  }
  gl_free(outs, 5);
}


/* ---- second order of FusedBatchNormGrad* ----
 * TF differentiates its Python batch-norm gradient formula with a nested
 * tape; here that derivative is written out. Per channel, with u, a, b
 * the upstream gradients of x_backprop, scale_backprop, offset_backprop,
 * s the scale, N the count per channel, r = rsqrt(var + eps):
 * inference (pop mean m and variance v given, xc = x - m):
 *   gx = gy s r, gs = r sum(gy xc), go = sum(gy);
 *   dgy = u s r + a r xc + b, dx = a r gy, ds = r sum(u gy).
 * training (mean and biased variance recomputed from x, xc = x - mean,
 * A = mean(gy), B = mean(gy xc), U1 = sum(u (gy - A)), U2 = sum(u xc)):
 *   gx = s r (gy - A - r^2 B xc), gs = N r B, go = N A;
 *   dgy = s r (u - mean(u) - r^2 xc mean(u xc)) + a r xc + b,
 *   ds = r U1 - r^3 B U2,
 *   dx = -s r^3 U1 xc / N + 3 s r^5 B U2 xc / N - s r^3 U2 (gy - A) / N
 *        - s r^3 B (u - mean(u)) - a r^3 B xc + a r (gy - A).
 * Everything is computed in float32 with keep-dims reductions, so the
 * per-channel values broadcast against x in NHWC and NCHW alike. */

typedef struct bnl {
  TFE_GradientContext* g;
  TF_Status* s;
  TF_AbstractTensor* t[96];
  int n;
} bnl;

static TF_AbstractTensor* bk(bnl* L, TF_AbstractTensor* t) {
  if (t != NULL && L->n < 96) L->t[L->n++] = t;
  return t;
}
static TF_AbstractTensor* b2(bnl* L, const char* op, TF_AbstractTensor* a, TF_AbstractTensor* b) {
  return bk(L, gu_call2(L->g, op, a, b, L->s));
}
static TF_AbstractTensor* b1(bnl* L, const char* op, TF_AbstractTensor* a) {
  return bk(L, gu_call1(L->g, op, a, L->s));
}
static TF_AbstractTensor* bsum(bnl* L, TF_AbstractTensor* x, TF_AbstractTensor* axes) {
  return bk(L, gl_sum(L->g, x, axes, 1, L->s));
}
static TF_AbstractTensor* bf(bnl* L, TF_AbstractTensor* x) {
  return bk(L, gu_cast(L->g, x, TF_FLOAT, L->s));
}

static void grad_fused_bn_grad(TFE_GradientContext* g, TF_Status* s) {
  bnl L;
  const char* fmt = NULL;
  size_t flen = 0;
  int training = TFE_GradientContextAttrBool(g, "is_training", s) != 0;
  float eps = TFE_GradientContextAttrFloat(g, "epsilon", s);
  TF_DataType T;
  int rank5, cf, i;
  int32_t ax[4];
  TF_AbstractTensor *gy, *x, *sc, *u, *a, *b, *axes, *N, *r, *xc, *sck, *ak, *bkk, *dgy, *dx, *ds;
  TF_AbstractTensor* ug[3];
  if (!GL_OK(s)) return;
  for (i = 0; i < 3; i++) ug[i] = TFE_GradientContextOutputGradient(g, i);
  if (ug[0] == NULL && ug[1] == NULL && ug[2] == NULL) return;
  memset(&L, 0, sizeof L);
  L.g = g;
  L.s = s;
  if (!tfe_attrs_get_string(g->attrs, "data_format", &fmt, &flen, NULL)) fmt = "NHWC";
  cf = fmt[1] == 'C';
  T = TFE_AbstractTensorDataType(in_(g, 1), s);
  gy = bf(&L, in_(g, 0));
  x = bf(&L, in_(g, 1));
  sc = bf(&L, in_(g, 2));
  rank5 = TFE_AbstractTensorNumDims(in_(g, 1), s) == 5;
  if (!GL_OK(s)) goto done;
  /* the reduction axes: all but the channel axis */
  {
    int na = rank5 ? 4 : 3, k = 0, d;
    for (d = 0; d < na + 1; d++) {
      if (d != (cf ? 1 : na)) ax[k++] = d;
    }
    axes = bk(&L, gu_const_i32(g, ax, na, s));
  }
  /* upstream gradients, zeros when absent (a and b per channel) */
  u = ug[0] != NULL ? bf(&L, ug[0]) : b1(&L, "ZerosLike", x);
  {
    TF_AbstractTensor* zc = b1(&L, "ZerosLike", sc);
    a = ug[1] != NULL ? bf(&L, ug[1]) : zc;
    b = ug[2] != NULL ? bf(&L, ug[2]) : zc;
  }
  /* per-channel shapes broadcastable against x: [1,C,1,1] or [C] */
  {
    TF_AbstractTensor* kshape = bk(&L, gl_shape(g, bsum(&L, x, axes), TF_INT32, s));
    sck = b2(&L, "Reshape", sc, kshape);
    ak = b2(&L, "Reshape", a, kshape);
    bkk = b2(&L, "Reshape", b, kshape);
  }
  N = b2(&L, "RealDiv", bf(&L, b1(&L, "Size", x)), bf(&L, b1(&L, "Size", sc)));
  {
    TF_AbstractTensor *mean, *var, *e;
    if (training) {
      mean = b2(&L, "RealDiv", bsum(&L, x, axes), N);
      xc = b2(&L, "Sub", x, mean);
      var = b2(&L, "RealDiv", bsum(&L, b2(&L, "Mul", xc, xc), axes), N);
    } else {
      TF_AbstractTensor* kshape = bk(&L, gl_shape(g, bsum(&L, x, axes), TF_INT32, s));
      mean = b2(&L, "Reshape", bf(&L, in_(g, 3)), kshape);
      var = b2(&L, "Reshape", bf(&L, in_(g, 4)), kshape);
      xc = b2(&L, "Sub", x, mean);
    }
    e = bk(&L, gl_scalar(g, TF_FLOAT, eps, s));
    r = b1(&L, "Rsqrt", b2(&L, "AddV2", var, e));
  }
  if (!training) {
    TF_AbstractTensor* sr = b2(&L, "Mul", sck, r);
    dgy = b2(&L, "AddV2", b2(&L, "AddV2", b2(&L, "Mul", u, sr),
                                 b2(&L, "Mul", b2(&L, "Mul", ak, r), xc)),
             bkk);
    dx = b2(&L, "Mul", b2(&L, "Mul", ak, r), gy);
    ds = b2(&L, "Mul", r, bsum(&L, b2(&L, "Mul", u, gy), axes));
  } else {
    TF_AbstractTensor *A, *B, *gyA, *U1, *U2, *ub, *umxc, *r2, *r3, *sr, *sr3, *t1, *t2, *t3, *t4,
        *t5, *t6, *three;
    A = b2(&L, "RealDiv", bsum(&L, gy, axes), N);
    B = b2(&L, "RealDiv", bsum(&L, b2(&L, "Mul", gy, xc), axes), N);
    gyA = b2(&L, "Sub", gy, A);
    U1 = bsum(&L, b2(&L, "Mul", u, gyA), axes);
    U2 = bsum(&L, b2(&L, "Mul", u, xc), axes);
    ub = b2(&L, "RealDiv", bsum(&L, u, axes), N);
    umxc = b2(&L, "RealDiv", U2, N);
    r2 = b2(&L, "Mul", r, r);
    r3 = b2(&L, "Mul", r2, r);
    sr = b2(&L, "Mul", sck, r);
    sr3 = b2(&L, "Mul", sck, r3);
    /* dgy = s r (u - ub - r^2 xc mean(u xc)) + a r xc + b */
    t1 = b2(&L, "Sub", b2(&L, "Sub", u, ub), b2(&L, "Mul", b2(&L, "Mul", r2, xc), umxc));
    dgy = b2(&L, "AddV2",
             b2(&L, "AddV2", b2(&L, "Mul", sr, t1), b2(&L, "Mul", b2(&L, "Mul", ak, r), xc)), bkk);
    /* ds = r U1 - r^3 B U2 */
    ds = b2(&L, "Sub", b2(&L, "Mul", r, U1), b2(&L, "Mul", b2(&L, "Mul", r3, B), U2));
    /* dx, term by term */
    three = bk(&L, gl_scalar(g, TF_FLOAT, 3.0, s));
    t2 = b2(&L, "Mul", b2(&L, "RealDiv", b2(&L, "Sub",
                                            b2(&L, "Mul", b2(&L, "Mul", three, r2),
                                               b2(&L, "Mul", B, U2)),
                                            U1),
                          N),
            b2(&L, "Mul", sr3, xc)); /* (3 r^2 B U2 - U1) s r^3 xc / N */
    t3 = b2(&L, "Mul", b2(&L, "RealDiv", b2(&L, "Mul", sr3, U2), N), gyA);
    t4 = b2(&L, "Mul", b2(&L, "Mul", sr3, B), b2(&L, "Sub", u, ub));
    t5 = b2(&L, "Mul", b2(&L, "Mul", b2(&L, "Mul", ak, r3), B), xc);
    t6 = b2(&L, "Mul", b2(&L, "Mul", ak, r), gyA);
    dx = b2(&L, "AddV2", b2(&L, "Sub", b2(&L, "Sub", b2(&L, "Sub", t2, t3), t4), t5), t6);
  }
  if (GL_OK(s)) {
    int32_t m1 = -1;
    TF_AbstractTensor* flat = bk(&L, gu_const_i32(g, &m1, 1, s));
    gu_give(g, 0, gu_cast(g, dgy, T, s), s);
    gu_give(g, 1, gu_cast(g, dx, T, s), s);
    gu_give(g, 2, gu_cast(g, b2(&L, "Reshape", ds, flat),
                          TFE_AbstractTensorDataType(in_(g, 2), s), s),
            s);
  }
done:
  for (i = 0; i < L.n; i++) TF_DeleteAbstractTensor(L.t[i]);
}

/* ---- activation gradients (second order) ---- */

/* selu_grad(g, y): g gets SeluGrad(dz, y), y gets where(y < 0, dz*g, 0). */
static void grad_selu_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dz = gu_upstream(g);
  TF_AbstractTensor *y = in_(g, 1), *zero, *neg, *prod, *zeros;
  TF_AbstractOp* op;
  if (dz == NULL) return;
  gu_give(g, 0, gu_call2(g, "SeluGrad", dz, y, s), s);
  zero = gl_scalar(g, TFE_AbstractTensorDataType(y, s), 0.0, s);
  neg = gu_call2(g, "Less", y, zero, s);
  prod = gu_call2(g, "Mul", dz, in_(g, 0), s);
  zeros = gu_call1(g, "ZerosLike", in_(g, 0), s);
  op = gl_op(g, "SelectV2", s);
  gl_in(op, neg, s);
  gl_in(op, prod, s);
  gl_in(op, zeros, s);
  gu_give(g, 1, gl_fin(op, s), s);
  del(zero);
  del(neg);
  del(prod);
  del(zeros);
}

/* softplus_grad(dy, x): dy gets SoftplusGrad(dz, x), x gets
 * dz * dy / (exp(-x) + 2 + exp(x)). */
static void grad_softplus_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dz = gu_upstream(g);
  TF_AbstractTensor *x = in_(g, 1), *nx, *e1, *e2, *two, *d, *d2, *num;
  if (dz == NULL) return;
  gu_give(g, 0, gu_call2(g, "SoftplusGrad", dz, x, s), s);
  nx = gu_call1(g, "Neg", x, s);
  e1 = gu_call1(g, "Exp", nx, s);
  e2 = gu_call1(g, "Exp", x, s);
  two = gl_scalar(g, TFE_AbstractTensorDataType(x, s), 2.0, s);
  d = gu_call2(g, "AddV2", e1, two, s);
  d2 = gu_call2(g, "AddV2", d, e2, s);
  num = gu_call2(g, "Mul", dz, in_(g, 0), s);
  gu_give(g, 1, gu_call2(g, "RealDiv", num, d2, s), s);
  del(nx);
  del(e1);
  del(e2);
  del(two);
  del(d);
  del(d2);
  del(num);
}

/* tanh_grad(y, dy) = dy * (1 - y^2): y gets dz * -2 * dy * y,
 * dy gets TanhGrad(y, dz) (conjugates for complex values). */
static void grad_tanh_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dz = gu_upstream(g);
  TF_AbstractTensor *a, *b, *k, *t1, *t2;
  if (dz == NULL) return;
  a = gu_conj(g, in_(g, 0), s);
  b = gu_conj(g, in_(g, 1), s);
  k = gl_scalar(g, TFE_AbstractTensorDataType(dz, s), -2.0, s);
  t1 = gu_call2(g, "Mul", dz, k, s);
  t2 = gu_call2(g, "Mul", t1, b, s);
  gu_give(g, 0, gu_call2(g, "Mul", t2, a, s), s);
  gu_give(g, 1, gu_call2(g, "TanhGrad", a, dz, s), s);
  del(a);
  del(b);
  del(k);
  del(t1);
  del(t2);
}

/* sqrt_grad(y, dy) = 0.5 * dy / y: with ga = dz / y, y gets
 * -conj(ga) * output, dy gets 0.5 * ga. */
static void grad_sqrt_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dz = gu_upstream(g);
  TF_AbstractTensor *ga, *cga, *n, *half;
  if (dz == NULL) return;
  ga = gu_call2(g, "Div", dz, in_(g, 0), s);
  cga = gu_conj(g, ga, s);
  n = gu_call1(g, "Neg", cga, s);
  gu_give(g, 0, gu_call2(g, "Mul", n, TFE_GradientContextOutput(g, 0), s), s);
  half = gl_scalar(g, TFE_AbstractTensorDataType(dz, s), 0.5, s);
  gu_give(g, 1, gu_call2(g, "Mul", half, ga, s), s);
  del(ga);
  del(cga);
  del(n);
  del(half);
}

/* rsqrt_grad(y, dy) = -0.5 * dy * y^3: y gets -1.5 * conj(dz) * dy *
 * conj(y)^2, dy gets RsqrtGrad(conj(y), dz). */
static void grad_rsqrt_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dz = gu_upstream(g);
  TF_AbstractTensor *ca, *cg, *k, *t1, *t2, *sq;
  if (dz == NULL) return;
  ca = gu_conj(g, in_(g, 0), s);
  cg = gu_conj(g, dz, s);
  k = gl_scalar(g, TFE_AbstractTensorDataType(dz, s), -1.5, s);
  t1 = gu_call2(g, "Mul", k, cg, s);
  t2 = gu_call2(g, "Mul", t1, in_(g, 1), s);
  sq = gu_call1(g, "Square", ca, s);
  gu_give(g, 0, gu_call2(g, "Mul", t2, sq, s), s);
  gu_give(g, 1, gu_call2(g, "RsqrtGrad", ca, dz, s), s);
  del(ca);
  del(cg);
  del(k);
  del(t1);
  del(t2);
  del(sq);
}

/* reciprocal_grad(y, dy) = -dy * y^2 (InvGrad the same): y gets
 * conj(dz) * -2 * dy * conj(y), dy gets the op itself on (conj(y), dz). */
static void grad_reciprocal_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dz = gu_upstream(g);
  TF_AbstractTensor *ca, *cg, *k, *t1, *t2;
  if (dz == NULL) return;
  ca = gu_conj(g, in_(g, 0), s);
  cg = gu_conj(g, dz, s);
  k = gl_scalar(g, TFE_AbstractTensorDataType(dz, s), -2.0, s);
  t1 = gu_call2(g, "Mul", cg, k, s);
  t2 = gu_call2(g, "Mul", t1, in_(g, 1), s);
  gu_give(g, 0, gu_call2(g, "Mul", t2, ca, s), s);
  gu_give(g, 1, gu_call2(g, TFE_GradientContextOpType(g), ca, dz, s), s);
  del(ca);
  del(cg);
  del(k);
  del(t1);
  del(t2);
}

/* bias_add_grad(dy) sums dy to one value per channel: its gradient is dz
 * broadcast back over the other dims (channels last for NHWC, axis 1 for
 * NCHW). */
static void grad_bias_add_grad(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dz = gu_upstream(g);
  TF_AbstractTensor* x = in_(g, 0);
  const char* fmt = NULL;
  size_t len = 0;
  TF_AbstractTensor *sx, *r = NULL;
  if (dz == NULL) return;
  sx = gl_shape(g, x, TF_INT32, s);
  if (tfe_attrs_get_string(g->attrs, "data_format", &fmt, &len, NULL) && len == 4 &&
      strncmp(fmt, "NCHW", 4) == 0) {
    /* reshape dz to [1, C, 1, ..., 1] (rank of x) first */
    TF_AbstractTensor *rank, *two, *rm2, *one, *shape1, *ones, *sdz, *lead, *parts[3], *esh;
    TF_AbstractOp* op;
    int32_t one_v = 1;
    rank = gu_call1(g, "Size", sx, s);
    two = gl_i32(g, 2, s);
    rm2 = gu_call2(g, "Sub", rank, two, s);
    one = gl_i32(g, 1, s);
    lead = gu_const_i32(g, &one_v, 1, s);
    shape1 = gu_call2(g, "Reshape", rm2, lead, s);
    ones = gu_call2(g, "Fill", shape1, one, s);
    sdz = gl_shape(g, dz, TF_INT32, s);
    parts[0] = lead;
    parts[1] = sdz;
    parts[2] = ones;
    op = gl_op(g, "ConcatV2", s);
    gl_in_list(op, parts, 3, s);
    {
      TF_AbstractTensor* ax = gl_i32(g, 0, s);
      gl_in(op, ax, s);
      esh = gl_fin(op, s);
      del(ax);
    }
    r = gu_call2(g, "Reshape", dz, esh, s);
    del(rank);
    del(two);
    del(rm2);
    del(one);
    del(shape1);
    del(ones);
    del(sdz);
    del(lead);
    del(esh);
  } else {
    r = TFE_AbstractTensorCopy(dz, s);
  }
  gu_give(g, 0, gu_call2(g, "BroadcastTo", r, sx, s), s);
  del(r);
  del(sx);
}

int tfe_grad_register_nn_extra(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"Conv3D", grad_conv3d},
      {"Conv3DBackpropInputV2", grad_conv3d_bp_input},
      {"Conv3DBackpropFilterV2", grad_conv3d_bp_filter},
      {"Conv2DBackpropFilter", grad_conv2d_bp_filter},
      {"DepthwiseConv2dNativeBackpropInput", grad_dw_bp_input},
      {"DepthwiseConv2dNativeBackpropFilter", grad_dw_bp_filter},
      {"MaxPool3D", grad_max_pool3d},
      {"AvgPool3D", grad_avg_pool3d},
      {"MaxPoolGrad", grad_max_pool_grad},
      {"MaxPoolGradV2", grad_max_pool_grad_v2},
      {"MaxPoolGradGrad", grad_max_pool_grad_grad},
      {"MaxPool3DGrad", grad_max_pool3d_grad},
      {"MaxPool3DGradGrad", grad_max_pool3d_grad_grad},
      {"AvgPoolGrad", grad_avg_pool_grad},
      {"AvgPool3DGrad", grad_avg_pool3d_grad},
      {"MaxPoolWithArgmax", grad_max_pool_argmax},
      {"Dilation2D", grad_dilation2d},
      {"FusedBatchNorm", grad_fused_bn},
      {"FusedBatchNormV2", grad_fused_bn},
      {"FusedBatchNormV3", grad_fused_bn},
      {"FusedBatchNormGrad", grad_fused_bn_grad},
      {"FusedBatchNormGradV2", grad_fused_bn_grad},
      {"FusedBatchNormGradV3", grad_fused_bn_grad},
      {"SeluGrad", grad_selu_grad},
      {"SoftplusGrad", grad_softplus_grad},
      {"TanhGrad", grad_tanh_grad},
      {"SqrtGrad", grad_sqrt_grad},
      {"RsqrtGrad", grad_rsqrt_grad},
      {"ReciprocalGrad", grad_reciprocal_grad},
      {"InvGrad", grad_reciprocal_grad},
      {"BiasAddGrad", grad_bias_add_grad},
  };
  size_t i;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  return 1;
}
