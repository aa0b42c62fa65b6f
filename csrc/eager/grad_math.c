/* Built-in gradient functions, registered by grad_registry.c on first use.
 *
 * Each is written against the unified API (c_api_unified_experimental.h
 * and tfe/unified.h), from the forward op's inputs, outputs, attrs and
 * upstream gradients, following the math of TensorFlow's registered
 * gradients: the same ops TF's gradient builds, so the values agree with
 * TF's. Binary elementwise ops sum their gradients over the broadcast
 * dimensions (BroadcastGradientArgs) and reshape them back to the input's
 * shape. This first set covers elementwise arithmetic, the common
 * activations, MatMul, Sum, Reshape, Cast and AddN; ops TF marks as not
 * differentiable (shape queries, comparisons, ArgMax, ...) stop gradients. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/grad_util.h"
#include "eager/tape.h"
#include "tfe/unified.h"

/* ---- the gradient functions ---- */

static void grad_identity(TFE_GradientContext* g, TF_Status* s) {
  gu_give(g, 0, TFE_AbstractTensorCopy(gu_upstream(g), s), s);
}

static void grad_add(TFE_GradientContext* g, TF_Status* s) {
  gu_give(g, 0, gu_unbroadcast(g, TFE_AbstractTensorCopy(gu_upstream(g), s), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, TFE_AbstractTensorCopy(gu_upstream(g), s), 1, s), s);
}

static void grad_sub(TFE_GradientContext* g, TF_Status* s) {
  gu_give(g, 0, gu_unbroadcast(g, TFE_AbstractTensorCopy(gu_upstream(g), s), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, gu_call1(g, "Neg", gu_upstream(g), s), 1, s), s);
}

static void grad_mul(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* cx = gu_conj(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* cy = gu_conj(g, TFE_GradientContextInput(g, 1), s);
  gu_give(g, 0, gu_unbroadcast(g, gu_call2(g, "Mul", gu_upstream(g), cy, s), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, gu_call2(g, "Mul", cx, gu_upstream(g), s), 1, s), s);
  TF_DeleteAbstractTensor(cx);
  TF_DeleteAbstractTensor(cy);
}

/* x / y: dx = dz / y, dy = dz * (-x / y / y). */
static void grad_realdiv(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = gu_conj(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* y = gu_conj(g, TFE_GradientContextInput(g, 1), s);
  TF_AbstractTensor* negx = gu_call1(g, "Neg", x, s);
  TF_AbstractTensor* q1 = gu_call2(g, "RealDiv", negx, y, s);
  TF_AbstractTensor* q2 = gu_call2(g, "RealDiv", q1, y, s);
  gu_give(g, 0, gu_unbroadcast(g, gu_call2(g, "RealDiv", gu_upstream(g), y, s), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, gu_call2(g, "Mul", gu_upstream(g), q2, s), 1, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(y);
  TF_DeleteAbstractTensor(negx);
  TF_DeleteAbstractTensor(q1);
  TF_DeleteAbstractTensor(q2);
}

static void grad_neg(TFE_GradientContext* g, TF_Status* s) {
  gu_give(g, 0, gu_call1(g, "Neg", gu_upstream(g), s), s);
}

/* exp: dx = dy * conj(y). */
static void grad_exp(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* y = gu_conj(g, TFE_GradientContextOutput(g, 0), s);
  gu_give(g, 0, gu_call2(g, "Mul", gu_upstream(g), y, s), s);
  TF_DeleteAbstractTensor(y);
}

/* log: dx = dy * reciprocal(conj(x)). */
static void grad_log(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = gu_conj(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* r = gu_call1(g, "Reciprocal", x, s);
  gu_give(g, 0, gu_call2(g, "Mul", gu_upstream(g), r, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(r);
}

/* square: dx = dy * 2 * conj(x), with 2x computed as x + x. */
static void grad_square(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = gu_conj(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* twice = gu_call2(g, "AddV2", x, x, s);
  gu_give(g, 0, gu_call2(g, "Mul", gu_upstream(g), twice, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(twice);
}

/* The ops whose gradient op takes (y, dy): TanhGrad, SigmoidGrad, SqrtGrad,
 * RsqrtGrad, ReciprocalGrad. For complex values TanhGrad and SigmoidGrad
 * want conj(y), while the SqrtGrad, RsqrtGrad and ReciprocalGrad kernels
 * conjugate y themselves (as TF's): `conj` says which. */
static void grad_from_output(TFE_GradientContext* g, const char* grad_op, int conj,
                             TF_Status* s) {
  TF_AbstractTensor* out = TFE_GradientContextOutput(g, 0);
  TF_AbstractTensor* y = conj ? gu_conj(g, out, s) : out;
  gu_give(g, 0, gu_call2(g, grad_op, y, gu_upstream(g), s), s);
  if (conj) TF_DeleteAbstractTensor(y);
}
static void grad_tanh(TFE_GradientContext* g, TF_Status* s) {
  grad_from_output(g, "TanhGrad", 1, s);
}
static void grad_sigmoid(TFE_GradientContext* g, TF_Status* s) {
  grad_from_output(g, "SigmoidGrad", 1, s);
}
static void grad_sqrt(TFE_GradientContext* g, TF_Status* s) {
  grad_from_output(g, "SqrtGrad", 0, s);
}
static void grad_rsqrt(TFE_GradientContext* g, TF_Status* s) {
  grad_from_output(g, "RsqrtGrad", 0, s);
}
static void grad_reciprocal(TFE_GradientContext* g, TF_Status* s) {
  grad_from_output(g, "ReciprocalGrad", 0, s);
}

/* relu: ReluGrad(dy, y), as TF (the output, not the input). */
static void grad_relu(TFE_GradientContext* g, TF_Status* s) {
  gu_give(g, 0, gu_call2(g, "ReluGrad", gu_upstream(g), TFE_GradientContextOutput(g, 0), s), s);
}

static TF_AbstractTensor* matmul(TFE_GradientContext* g, TF_AbstractTensor* a,
                                 TF_AbstractTensor* b, int ta, int tb, TF_Status* s) {
  TF_AbstractOp* op;
  if (TF_GetCode(s) != TF_OK) return NULL;
  op = gu_new_op(g, "MatMul", s);
  if (op == NULL) return NULL;
  TFE_AbstractOpAddInput(op, a, s);
  TFE_AbstractOpAddInput(op, b, s);
  TFE_AbstractOpSetAttrBool(op, "transpose_a", (unsigned char)ta, s);
  TFE_AbstractOpSetAttrBool(op, "transpose_b", (unsigned char)tb, s);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return NULL;
  }
  return gu_finish(op, 0, s);
}

static void grad_matmul(TFE_GradientContext* g, TF_Status* s) {
  int ta = TFE_GradientContextAttrBool(g, "transpose_a", s);
  int tb = TFE_GradientContextAttrBool(g, "transpose_b", s);
  TF_AbstractTensor* a = gu_conj(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* b = gu_conj(g, TFE_GradientContextInput(g, 1), s);
  TF_AbstractTensor* dy = gu_upstream(g);
  if (!ta && !tb) {
    gu_give(g, 0, matmul(g, dy, b, 0, 1, s), s);
    gu_give(g, 1, matmul(g, a, dy, 1, 0, s), s);
  } else if (!ta && tb) {
    gu_give(g, 0, matmul(g, dy, b, 0, 0, s), s);
    gu_give(g, 1, matmul(g, dy, a, 1, 0, s), s);
  } else if (ta && !tb) {
    gu_give(g, 0, matmul(g, b, dy, 0, 1, s), s);
    gu_give(g, 1, matmul(g, a, dy, 0, 0, s), s);
  } else {
    gu_give(g, 0, matmul(g, b, dy, 1, 1, s), s);
    gu_give(g, 1, matmul(g, dy, a, 1, 1, s), s);
  }
  TF_DeleteAbstractTensor(a);
  TF_DeleteAbstractTensor(b);
}

/* sum(x, axes): dy broadcast back to x's shape, through the shape x has
 * with the reduced axes kept as 1. Eager only: the kept shape is computed
 * from the values. */
static TF_AbstractTensor* sum_grad(TFE_GradientContext* g, TF_Status* s);

static void grad_sum(TFE_GradientContext* g, TF_Status* s) { gu_give(g, 0, sum_grad(g, s), s); }

/* mean: the Sum gradient divided by the number of elements averaged,
 * size(x) / size(y), cast to x's dtype. */
static void grad_mean(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* spread = sum_grad(g, s);
  TF_AbstractTensor* nx = gu_call1(g, "Size", TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* ny = gu_call1(g, "Size", TFE_GradientContextOutput(g, 0), s);
  TF_AbstractTensor* n = gu_call2(g, "FloorDiv", nx, ny, s);
  TF_AbstractTensor* nf = NULL;
  TF_AbstractOp* op = n != NULL ? gu_new_op(g, "Cast", s) : NULL;
  if (op != NULL) {
    TFE_AbstractOpAddInput(op, n, s);
    TF_AbstractOpSetAttrType(op, "DstT", TFE_AbstractTensorDataType(spread, s), s);
    if (TF_GetCode(s) == TF_OK) {
      nf = gu_finish(op, 0, s);
    } else {
      TF_DeleteAbstractOp(op);
    }
  }
  gu_give(g, 0, gu_call2(g, "RealDiv", spread, nf, s), s);
  TF_DeleteAbstractTensor(spread);
  TF_DeleteAbstractTensor(nx);
  TF_DeleteAbstractTensor(ny);
  TF_DeleteAbstractTensor(n);
  TF_DeleteAbstractTensor(nf);
}

/* The Sum gradient: dy reshaped to x's shape with the reduced axes kept as
 * 1 (TensorScatterUpdate of Shape(x) at the normalized axes), then
 * broadcast to x's shape. Built from ops only, so it works eagerly and in
 * graphs alike. */
static TF_AbstractTensor* sum_grad(TFE_GradientContext* g, TF_Status* s) {
  static const int32_t kColumn[2] = {-1, 1};
  static const int32_t kFlat[1] = {-1};
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* axes = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* sx = gu_call1(g, "Shape", x, s);
  TF_AbstractTensor* rank = gu_call1(g, "Rank", x, s);
  TF_AbstractTensor* ax32 = gu_cast(g, axes, TF_INT32, s);
  TF_AbstractTensor* flat = gu_const_i32(g, kFlat, 1, s);
  TF_AbstractTensor* ax1 = gu_call2(g, "Reshape", ax32, flat, s);
  TF_AbstractTensor* axn = gu_call2(g, "FloorMod", ax1, rank, s);
  TF_AbstractTensor* col = gu_const_i32(g, kColumn, 2, s);
  TF_AbstractTensor* idx = gu_call2(g, "Reshape", axn, col, s);
  TF_AbstractTensor* ones = gu_call1(g, "OnesLike", axn, s);
  TF_AbstractTensor* kept = NULL;
  TF_AbstractTensor* shaped = NULL;
  TF_AbstractTensor* out = NULL;
  TF_AbstractOp* op = TF_GetCode(s) == TF_OK ? gu_new_op(g, "TensorScatterUpdate", s) : NULL;
  if (op != NULL) {
    TFE_AbstractOpAddInput(op, sx, s);
    TFE_AbstractOpAddInput(op, idx, s);
    TFE_AbstractOpAddInput(op, ones, s);
    if (TF_GetCode(s) == TF_OK) {
      kept = gu_finish(op, 0, s);
    } else {
      TF_DeleteAbstractOp(op);
    }
  }
  shaped = gu_call2(g, "Reshape", gu_upstream(g), kept, s);
  out = gu_call2(g, "BroadcastTo", shaped, sx, s);
  TF_DeleteAbstractTensor(sx);
  TF_DeleteAbstractTensor(rank);
  TF_DeleteAbstractTensor(ax32);
  TF_DeleteAbstractTensor(flat);
  TF_DeleteAbstractTensor(ax1);
  TF_DeleteAbstractTensor(axn);
  TF_DeleteAbstractTensor(col);
  TF_DeleteAbstractTensor(idx);
  TF_DeleteAbstractTensor(ones);
  TF_DeleteAbstractTensor(kept);
  TF_DeleteAbstractTensor(shaped);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractTensor(out);
    return NULL;
  }
  return out;
}

static void grad_reshape(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* xs = gu_call1(g, "Shape", TFE_GradientContextInput(g, 0), s);
  gu_give(g, 0, gu_call2(g, "Reshape", gu_upstream(g), xs, s), s);
  TF_DeleteAbstractTensor(xs);
}

/* cast: the gradient cast back, between trainable types only. */
static void grad_cast(TFE_GradientContext* g, TF_Status* s) {
  TF_DataType src = TFE_GradientContextAttrType(g, "SrcT", s);
  TF_AbstractOp* op;
  if (TF_GetCode(s) != TF_OK) return;
  if (src != TF_FLOAT && src != TF_DOUBLE && src != TF_HALF && src != TF_BFLOAT16 &&
      src != TF_COMPLEX64 && src != TF_COMPLEX128) {
    return;
  }
  op = gu_new_op(g, "Cast", s);
  if (op == NULL) return;
  TFE_AbstractOpAddInput(op, gu_upstream(g), s);
  TF_AbstractOpSetAttrType(op, "DstT", src, s);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return;
  }
  gu_give(g, 0, gu_finish(op, 0, s), s);
}

static void grad_addn(TFE_GradientContext* g, TF_Status* s) {
  int i, n = TFE_GradientContextNumInputs(g);
  for (i = 0; i < n && TF_GetCode(s) == TF_OK; i++) {
    gu_give(g, i, TFE_AbstractTensorCopy(gu_upstream(g), s), s);
  }
}

/* ---- more elementwise gradients ---- */

/* sin: dy * cos(x); cos: -dy * sin(x). */
static void grad_sin(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = gu_conj(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* c = gu_call1(g, "Cos", x, s);
  gu_give(g, 0, gu_call2(g, "Mul", gu_upstream(g), c, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(c);
}

static void grad_cos(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = gu_conj(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* sn = gu_call1(g, "Sin", x, s);
  TF_AbstractTensor* neg = gu_call1(g, "Neg", sn, s);
  gu_give(g, 0, gu_call2(g, "Mul", gu_upstream(g), neg, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(sn);
  TF_DeleteAbstractTensor(neg);
}

/* abs: dy * sign(x) (real inputs). */
static void grad_abs(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* sg = gu_call1(g, "Sign", TFE_GradientContextInput(g, 0), s);
  gu_give(g, 0, gu_call2(g, "Mul", gu_upstream(g), sg, s), s);
  TF_DeleteAbstractTensor(sg);
}

/* log1p: dy / (1 + x), as dy * reciprocal(x + 1) with 1 = ones_like(x). */
static void grad_log1p(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = gu_conj(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* one = gu_call1(g, "OnesLike", x, s);
  TF_AbstractTensor* xp1 = gu_call2(g, "AddV2", one, x, s);
  gu_give(g, 0, gu_call2(g, "RealDiv", gu_upstream(g), xp1, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(one);
  TF_DeleteAbstractTensor(xp1);
}

/* Activations whose gradient op takes (dy, features) or (dy, outputs). */
static void grad_act(TFE_GradientContext* g, const char* op, int from_output, TF_Status* s) {
  TF_AbstractTensor* ref =
      from_output ? TFE_GradientContextOutput(g, 0) : TFE_GradientContextInput(g, 0);
  TF_AbstractOp* o;
  if (strcmp(op, "LeakyReluGrad") == 0) {
    float alpha = TFE_GradientContextAttrFloat(g, "alpha", s);
    o = TF_GetCode(s) == TF_OK ? gu_new_op(g, op, s) : NULL;
    if (o == NULL) return;
    TFE_AbstractOpAddInput(o, gu_upstream(g), s);
    TFE_AbstractOpAddInput(o, ref, s);
    TFE_AbstractOpSetAttrFloat(o, "alpha", alpha, s);
    if (TF_GetCode(s) != TF_OK) {
      TF_DeleteAbstractOp(o);
      return;
    }
    gu_give(g, 0, gu_finish(o, 0, s), s);
    return;
  }
  gu_give(g, 0, gu_call2(g, op, gu_upstream(g), ref, s), s);
}
static void grad_relu6(TFE_GradientContext* g, TF_Status* s) { grad_act(g, "Relu6Grad", 0, s); }
static void grad_elu(TFE_GradientContext* g, TF_Status* s) { grad_act(g, "EluGrad", 1, s); }
static void grad_selu(TFE_GradientContext* g, TF_Status* s) { grad_act(g, "SeluGrad", 1, s); }
static void grad_softplus(TFE_GradientContext* g, TF_Status* s) {
  grad_act(g, "SoftplusGrad", 0, s);
}
static void grad_softsign(TFE_GradientContext* g, TF_Status* s) {
  grad_act(g, "SoftsignGrad", 0, s);
}
static void grad_leaky_relu(TFE_GradientContext* g, TF_Status* s) {
  grad_act(g, "LeakyReluGrad", 0, s);
}

/* maximum/minimum: the gradient goes to the input that was picked (x on
 * ties, as TF's GreaterEqual/LessEqual mask gives). */
static void grad_minmax(TFE_GradientContext* g, const char* cmp, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* y = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* mask = gu_call2(g, cmp, x, y, s);
  TF_AbstractTensor* zeros = gu_call1(g, "ZerosLike", dy, s);
  TF_AbstractTensor *gx = NULL, *gy = NULL;
  TF_AbstractOp* op;
  if (TF_GetCode(s) == TF_OK) {
    op = gu_new_op(g, "SelectV2", s);
    if (op != NULL) {
      TFE_AbstractOpAddInput(op, mask, s);
      TFE_AbstractOpAddInput(op, dy, s);
      TFE_AbstractOpAddInput(op, zeros, s);
      gx = TF_GetCode(s) == TF_OK ? gu_finish(op, 0, s) : (TF_DeleteAbstractOp(op), NULL);
    }
  }
  if (TF_GetCode(s) == TF_OK) {
    op = gu_new_op(g, "SelectV2", s);
    if (op != NULL) {
      TFE_AbstractOpAddInput(op, mask, s);
      TFE_AbstractOpAddInput(op, zeros, s);
      TFE_AbstractOpAddInput(op, dy, s);
      gy = TF_GetCode(s) == TF_OK ? gu_finish(op, 0, s) : (TF_DeleteAbstractOp(op), NULL);
    }
  }
  gu_give(g, 0, gu_unbroadcast(g, gx, 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, gy, 1, s), s);
  TF_DeleteAbstractTensor(mask);
  TF_DeleteAbstractTensor(zeros);
}
static void grad_maximum(TFE_GradientContext* g, TF_Status* s) {
  grad_minmax(g, "GreaterEqual", s);
}
static void grad_minimum(TFE_GradientContext* g, TF_Status* s) {
  grad_minmax(g, "LessEqual", s);
}

/* squared_difference: d/dx = 2 (x - y) dy, d/dy = -2 (x - y) dy. */
static void grad_squared_difference(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* d = gu_call2(g, "Sub", TFE_GradientContextInput(g, 0),
                               TFE_GradientContextInput(g, 1), s);
  TF_AbstractTensor* d2 = gu_call2(g, "AddV2", d, d, s);
  TF_AbstractTensor* gx = gu_call2(g, "Mul", gu_upstream(g), d2, s);
  TF_AbstractTensor* gy = gu_call1(g, "Neg", gx, s);
  gu_give(g, 0, gu_unbroadcast(g, gx, 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, gy, 1, s), s);
  TF_DeleteAbstractTensor(d);
  TF_DeleteAbstractTensor(d2);
}

/* bias_add: dy for the value, BiasAddGrad(dy) for the bias. */
static void grad_bias_add(TFE_GradientContext* g, TF_Status* s) {
  const char* fmt = NULL;
  TF_AbstractOp* op;
  char buf[16] = "NHWC";
  size_t len = 0;
  if (tfe_attrs_get_string(g->attrs, "data_format", &fmt, &len, NULL) && len < sizeof buf) {
    memcpy(buf, fmt, len);
    buf[len] = '\0';
  }
  gu_give(g, 0, TFE_AbstractTensorCopy(gu_upstream(g), s), s);
  op = TF_GetCode(s) == TF_OK ? gu_new_op(g, "BiasAddGrad", s) : NULL;
  if (op == NULL) return;
  TFE_AbstractOpAddInput(op, gu_upstream(g), s);
  TFE_AbstractOpSetAttrString(op, "data_format", buf, strlen(buf), s);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return;
  }
  gu_give(g, 1, gu_finish(op, 0, s), s);
}

/* A Sum over the last axis with keep_dims. */
static TF_AbstractTensor* sum_last(TFE_GradientContext* g, TF_AbstractTensor* x, TF_Status* s) {
  static const int32_t kLast[1] = {-1};
  TF_AbstractTensor* axis = gu_const_i32(g, kLast, 1, s);
  TF_AbstractTensor* r = NULL;
  TF_AbstractOp* op = TF_GetCode(s) == TF_OK ? gu_new_op(g, "Sum", s) : NULL;
  if (op != NULL) {
    TFE_AbstractOpAddInput(op, x, s);
    TFE_AbstractOpAddInput(op, axis, s);
    TFE_AbstractOpSetAttrBool(op, "keep_dims", 1, s);
    r = TF_GetCode(s) == TF_OK ? gu_finish(op, 0, s) : (TF_DeleteAbstractOp(op), NULL);
  }
  TF_DeleteAbstractTensor(axis);
  return r;
}

/* softmax: (dy - sum(dy * y, -1)) * y. */
static void grad_softmax(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* y = TFE_GradientContextOutput(g, 0);
  TF_AbstractTensor* dyy = gu_call2(g, "Mul", gu_upstream(g), y, s);
  TF_AbstractTensor* sm = sum_last(g, dyy, s);
  TF_AbstractTensor* d = gu_call2(g, "Sub", gu_upstream(g), sm, s);
  gu_give(g, 0, gu_call2(g, "Mul", d, y, s), s);
  TF_DeleteAbstractTensor(dyy);
  TF_DeleteAbstractTensor(sm);
  TF_DeleteAbstractTensor(d);
}

/* log_softmax: dy - exp(y) * sum(dy, -1). */
static void grad_log_softmax(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* e = gu_call1(g, "Exp", TFE_GradientContextOutput(g, 0), s);
  TF_AbstractTensor* sm = sum_last(g, gu_upstream(g), s);
  TF_AbstractTensor* m = gu_call2(g, "Mul", e, sm, s);
  gu_give(g, 0, gu_call2(g, "Sub", gu_upstream(g), m, s), s);
  TF_DeleteAbstractTensor(e);
  TF_DeleteAbstractTensor(sm);
  TF_DeleteAbstractTensor(m);
}

/* The cross entropies: logits get expand_dims(dloss, -1) * backprop (the
 * op's second output); dense labels get -log_softmax(logits) * dloss (not
 * reduced when labels broadcast, as TF). A gradient gg flowing into the
 * backprop output (second order) adds (gg - sum(gg * p, -1)) * p to the
 * logits' gradient, p = softmax(logits), as TF. */
static TF_AbstractTensor* expand_last(TFE_GradientContext* g, TF_AbstractTensor* x,
                                      TF_Status* s) {
  static const int32_t kLast[1] = {-1};
  TF_AbstractTensor* axis = gu_const_i32(g, kLast, 1, s);
  TF_AbstractTensor* r = gu_call2(g, "ExpandDims", x, axis, s);
  TF_DeleteAbstractTensor(axis);
  return r;
}

static void grad_xent(TFE_GradientContext* g, int sparse, TF_Status* s) {
  TF_AbstractTensor* dloss = TFE_GradientContextOutputGradient(g, 0);
  TF_AbstractTensor* gg = TFE_GradientContextOutputGradient(g, 1);
  TF_AbstractTensor *e = NULL, *dx = NULL;
  if (dloss == NULL && gg == NULL) return;
  if (dloss != NULL) {
    e = expand_last(g, dloss, s);
    dx = gu_call2(g, "Mul", e, TFE_GradientContextOutput(g, 1), s);
  }
  if (gg != NULL) {
    TF_AbstractTensor* p = gu_call1(g, "Softmax", TFE_GradientContextInput(g, 0), s);
    TF_AbstractTensor* gp = gu_call2(g, "Mul", gg, p, s);
    TF_AbstractTensor* sm = sum_last(g, gp, s);
    TF_AbstractTensor* df = gu_call2(g, "Sub", gg, sm, s);
    TF_AbstractTensor* extra = gu_call2(g, "Mul", df, p, s);
    if (dx != NULL) {
      TF_AbstractTensor* tot = gu_call2(g, "AddV2", dx, extra, s);
      TF_DeleteAbstractTensor(dx);
      TF_DeleteAbstractTensor(extra);
      dx = tot;
    } else {
      dx = extra;
    }
    TF_DeleteAbstractTensor(p);
    TF_DeleteAbstractTensor(gp);
    TF_DeleteAbstractTensor(sm);
    TF_DeleteAbstractTensor(df);
  }
  gu_give(g, 0, dx, s);
  if (!sparse && e != NULL) {
    TF_AbstractTensor* ls = gu_call1(g, "LogSoftmax", TFE_GradientContextInput(g, 0), s);
    TF_AbstractTensor* nls = gu_call1(g, "Neg", ls, s);
    gu_give(g, 1, gu_call2(g, "Mul", nls, e, s), s);
    TF_DeleteAbstractTensor(ls);
    TF_DeleteAbstractTensor(nls);
  } else if (!sparse) {
    /* only the backprop output has a gradient: TF's labels gradient is
     * then dloss (zeros) times -log_softmax, zeros in the logits' shape */
    gu_give(g, 1, gu_call1(g, "ZerosLike", TFE_GradientContextInput(g, 0), s), s);
  }
  TF_DeleteAbstractTensor(e);
}
static void grad_softmax_xent(TFE_GradientContext* g, TF_Status* s) { grad_xent(g, 0, s); }
static void grad_sparse_softmax_xent(TFE_GradientContext* g, TF_Status* s) {
  grad_xent(g, 1, s);
}

/* transpose: transpose(dy, invert_permutation(perm)). */
static void grad_transpose(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* inv = gu_call1(g, "InvertPermutation", TFE_GradientContextInput(g, 1), s);
  gu_give(g, 0, gu_call2(g, "Transpose", gu_upstream(g), inv, s), s);
  TF_DeleteAbstractTensor(inv);
}

/* expand_dims, squeeze: dy back in x's shape (Reshape's gradient). */

/* ---- registration ---- */

int tfe_grad_register_builtins(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"Identity", grad_identity},
      {"AddV2", grad_add},
      {"Add", grad_add},
      {"Sub", grad_sub},
      {"Mul", grad_mul},
      {"RealDiv", grad_realdiv},
      {"Div", grad_realdiv},
      {"Neg", grad_neg},
      {"Exp", grad_exp},
      {"Log", grad_log},
      {"Square", grad_square},
      {"Tanh", grad_tanh},
      {"Sigmoid", grad_sigmoid},
      {"Sqrt", grad_sqrt},
      {"Rsqrt", grad_rsqrt},
      {"Reciprocal", grad_reciprocal},
      {"Relu", grad_relu},
      {"MatMul", grad_matmul},
      {"Sum", grad_sum},
      {"Mean", grad_mean},
      {"Reshape", grad_reshape},
      {"Cast", grad_cast},
      {"AddN", grad_addn},
      {"Sin", grad_sin},
      {"Cos", grad_cos},
      {"Abs", grad_abs},
      {"Log1p", grad_log1p},
      {"Relu6", grad_relu6},
      {"Elu", grad_elu},
      {"Selu", grad_selu},
      {"Softplus", grad_softplus},
      {"Softsign", grad_softsign},
      {"LeakyRelu", grad_leaky_relu},
      {"Maximum", grad_maximum},
      {"Minimum", grad_minimum},
      {"SquaredDifference", grad_squared_difference},
      {"BiasAdd", grad_bias_add},
      {"Softmax", grad_softmax},
      {"LogSoftmax", grad_log_softmax},
      {"SoftmaxCrossEntropyWithLogits", grad_softmax_xent},
      {"SparseSoftmaxCrossEntropyWithLogits", grad_sparse_softmax_xent},
      {"Transpose", grad_transpose},
      {"ExpandDims", grad_reshape},
      {"Squeeze", grad_reshape},
      /* A variable read passes the gradient to the variable's handle. */
      {"ReadVariableOp", grad_identity},
  };
  /* TF's NotDifferentiable ops among tfe's (gradients stop at them). */
  static const char* const kStop[] = {
      "Shape",     "ShapeN",       "Size",         "Rank",
      "ZerosLike", "OnesLike",     "Equal",        "NotEqual",
      "Less",      "LessEqual",    "Greater",      "GreaterEqual",
      "ArgMax",    "ArgMin",       "LogicalAnd",   "LogicalOr",
      "LogicalNot", "BroadcastGradientArgs", "IsFinite", "IsInf",
      "IsNan",     "Floor",        "Ceil",         "Round",
      "RandomUniform", "RandomStandardNormal", "TruncatedNormal", "StopGradient",
  };
  size_t i;
  if (!tfe_grad_register_array() || !tfe_grad_register_nn()) return 0;
  if (!tfe_grad_register_func()) return 0;
  if (!tfe_grad_register_nn_extra()) return 0;
  if (!tfe_grad_register_more()) return 0;
  if (!tfe_grad_register_linalg()) return 0;
  if (!tfe_grad_register_sparse()) return 0;
  if (!tfe_grad_register_quant()) return 0;
  if (!tfe_grad_register_more2()) return 0;
  if (!tfe_grad_register_more3()) return 0;
  if (!tfe_grad_register_more4()) return 0;
  if (!tfe_grad_register_more5()) return 0;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  for (i = 0; i < sizeof kStop / sizeof kStop[0]; i++) {
    if (!tfe_grad_register_builtin(kStop[i], NULL)) return 0;
  }
  return 1;
}
