/* Gradient functions: gradients of the remaining math and array ops
 * (special functions, complex parts, segment min/max/mean/prod, tensor
 * scatter min/max/sub, batch matmul variants, diagonals with offsets, top-k,
 * dynamic partition/stitch, roll, ...) and the ops TF marks as not
 * differentiable. The math follows TF 2.21's registered gradients, so the
 * values agree with TF's; the code is tfe's own.
 *
 * Every function collects its intermediate tensors in a small pool freed
 * at the end, so the op chains stay readable. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eager/grad_local.h"
#include "eager/tape.h"
#include "kernels/kernel.h"
#include "ops/op_registry.h"

typedef TF_AbstractTensor T;

/* ---- a pool of intermediates ---- */

#define POOL_MAX 1024
typedef struct {
  T* t[POOL_MAX];
  int n;
  TFE_GradientContext* g;
  TF_Status* s;
} pool;

static void pinit(pool* p, TFE_GradientContext* g, TF_Status* s) {
  p->n = 0;
  p->g = g;
  p->s = s;
}

/* Keeps t for pfree (NULL passes through). */
static T* K(pool* p, T* t) {
  if (t == NULL) return NULL;
  if (p->n >= POOL_MAX) {
    /* never reached by the functions below (they use far fewer) */
    tfe_status_setf(p->s, TF_INTERNAL, "gradient: too many intermediates");
    TF_DeleteAbstractTensor(t);
    return NULL;
  }
  p->t[p->n++] = t;
  return t;
}

static void pfree(pool* p) { gl_free(p->t, p->n); }

static T* C1(pool* p, const char* type, T* a) { return K(p, gu_call1(p->g, type, a, p->s)); }
static T* C2(pool* p, const char* type, T* a, T* b) {
  return K(p, gu_call2(p->g, type, a, b, p->s));
}
static T* C3(pool* p, const char* type, T* a, T* b, T* c) {
  TF_AbstractOp* op = gl_op(p->g, type, p->s);
  gl_in(op, a, p->s);
  gl_in(op, b, p->s);
  gl_in(op, c, p->s);
  return K(p, gl_fin(op, p->s));
}

/* A new reference to t for gu_give. */
static T* cp(pool* p, T* t) {
  if (t == NULL || !GL_OK(p->s)) return NULL;
  return TFE_AbstractTensorCopy(t, p->s);
}

static void give(pool* p, int i, T* t) { gu_give(p->g, i, cp(p, t), p->s); }

static T* IN(pool* p, int i) { return TFE_GradientContextInput(p->g, i); }
static T* OUT(pool* p, int i) { return TFE_GradientContextOutput(p->g, i); }

static TF_DataType dtype_of(pool* p, T* t) {
  if (t == NULL || !GL_OK(p->s)) return TF_FLOAT;
  return TFE_AbstractTensorDataType(t, p->s);
}

/* A scalar of t's dtype holding v. */
static T* like(pool* p, T* t, double v) {
  return K(p, gl_scalar(p->g, dtype_of(p, t), v, p->s));
}

static T* i32s(pool* p, int32_t v) { return K(p, gl_i32(p->g, v, p->s)); }

static T* ivec(pool* p, const int32_t* v, int n) {
  return GL_OK(p->s) ? K(p, gu_const_i32(p->g, v, n, p->s)) : NULL;
}

static T* shape32(pool* p, T* x) { return K(p, gl_shape(p->g, x, TF_INT32, p->s)); }

static T* cast(pool* p, T* x, TF_DataType dt) { return K(p, gu_cast(p->g, x, dt, p->s)); }

static T* conj_(pool* p, T* x) { return K(p, gu_conj(p->g, x, p->s)); }

/* Reshape(x, [-1]). */
static T* flat(pool* p, T* x) {
  static const int32_t kM1[1] = {-1};
  return C2(p, "Reshape", x, ivec(p, kM1, 1));
}

/* grad summed to x's shape (broadcasting reduced). */
static T* reduce_to(pool* p, T* grad, T* x) { return K(p, gl_reduce_to(p->g, grad, x, p->s)); }

/* Complex(re, im) with the complex dtype `out`. */
static T* complex_(pool* p, T* re, T* im, TF_DataType out) {
  TF_AbstractOp* op = gl_op(p->g, "Complex", p->s);
  gl_in(op, re, p->s);
  gl_in(op, im, p->s);
  gl_set_type(op, "Tout", out, p->s);
  return K(p, gl_fin(op, p->s));
}

/* Real/Imag of the complex x as the real dtype `out`. */
static T* part(pool* p, const char* type, T* x, TF_DataType out) {
  TF_AbstractOp* op = gl_op(p->g, type, p->s);
  gl_in(op, x, p->s);
  gl_set_type(op, "Tout", out, p->s);
  return K(p, gl_fin(op, p->s));
}

static TF_DataType real_of(TF_DataType c) { return c == TF_COMPLEX128 ? TF_DOUBLE : TF_FLOAT; }

/* Pack(list, axis 0). */
static T* pack0(pool* p, T* const* t, int n) {
  TF_AbstractOp* op = gl_op(p->g, "Pack", p->s);
  gl_in_list(op, t, n, p->s);
  gl_set_int(op, "axis", 0, p->s);
  return K(p, gl_fin(op, p->s));
}

/* ConcatV2(list, axis 0). */
static T* concat0(pool* p, T* const* t, int n) {
  TF_AbstractOp* op = gl_op(p->g, "ConcatV2", p->s);
  gl_in_list(op, t, n, p->s);
  gl_in(op, i32s(p, 0), p->s);
  return K(p, gl_fin(op, p->s));
}

/* ---- unary math: dy times a factor built from x (conj'ed) and y ---- */

/* The factor f(x, y) of d/dx; the gradient is dy * f. */
typedef T* (*factor_fn)(pool* p, T* x, T* y);

static void unary(TFE_GradientContext* g, TF_Status* s, factor_fn f) {
  pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  pinit(&p, g, s);
  give(&p, 0, C2(&p, "Mul", dy, f(&p, IN(&p, 0), OUT(&p, 0))));
  pfree(&p);
}

/* atan: 1 / (1 + conj(x)^2) */
static T* f_atan(pool* p, T* x, T* y) {
  T* c = conj_(p, x);
  (void)y;
  return C1(p, "Reciprocal", C2(p, "AddV2", like(p, c, 1.0), C1(p, "Square", c)));
}
static T* f_sinh(pool* p, T* x, T* y) {
  (void)y;
  return C1(p, "Cosh", conj_(p, x));
}
static T* f_cosh(pool* p, T* x, T* y) {
  (void)y;
  return C1(p, "Sinh", conj_(p, x));
}
/* erfinv: sqrt(pi)/2 exp(y^2) */
static T* f_erfinv(pool* p, T* x, T* y) {
  (void)x;
  return C2(p, "Mul", like(p, y, 0.88622692545275801365), C1(p, "Exp", C1(p, "Square", y)));
}
/* ndtri: sqrt(2 pi) exp(y^2 / 2) */
static T* f_ndtri(pool* p, T* x, T* y) {
  (void)x;
  return C2(p, "Mul", like(p, y, 2.50662827463100050242),
            C1(p, "Exp", C2(p, "RealDiv", C1(p, "Square", y), like(p, y, 2.0))));
}
/* dawsn: 1 - 2 x y */
static T* f_dawsn(pool* p, T* x, T* y) {
  return C2(p, "Sub", like(p, x, 1.0), C2(p, "Mul", C2(p, "Mul", like(p, x, 2.0), x), y));
}
/* expint: exp(x) / x */
static T* f_expint(pool* p, T* x, T* y) {
  (void)y;
  return C2(p, "RealDiv", C1(p, "Exp", x), x);
}
static T* f_i0(pool* p, T* x, T* y) {
  (void)y;
  return C1(p, "BesselI1", x);
}
/* i0e: i1e(x) - sign(x) y */
static T* f_i0e(pool* p, T* x, T* y) {
  return C2(p, "Sub", C1(p, "BesselI1e", x), C2(p, "Mul", C1(p, "Sign", x), y));
}
/* where(x == 0, v0, main) */
static T* at_zero(pool* p, T* x, double v0, T* main) {
  T* z = C2(p, "Equal", x, like(p, x, 0.0));
  return C3(p, "SelectV2", z, like(p, x, v0), main);
}
/* i1: i0(x) - y / x (1 at 0) */
static T* f_i1(pool* p, T* x, T* y) {
  return at_zero(p, x, 1.0, C2(p, "Sub", C1(p, "BesselI0", x), C2(p, "RealDiv", y, x)));
}
/* i1e: i0e(x) - y (sign(x) + 1/x) (0.5 at 0) */
static T* f_i1e(pool* p, T* x, T* y) {
  T* t = C2(p, "AddV2", C1(p, "Sign", x), C1(p, "Reciprocal", x));
  return at_zero(p, x, 0.5, C2(p, "Sub", C1(p, "BesselI0e", x), C2(p, "Mul", y, t)));
}
static T* f_k0(pool* p, T* x, T* y) {
  (void)y;
  return C1(p, "Neg", C1(p, "BesselK1", x));
}
/* k0e: y - k1e(x) */
static T* f_k0e(pool* p, T* x, T* y) { return C2(p, "Sub", y, C1(p, "BesselK1e", x)); }
/* k1: -k0(x) - y / x */
static T* f_k1(pool* p, T* x, T* y) {
  return C2(p, "Sub", C1(p, "Neg", C1(p, "BesselK0", x)), C2(p, "RealDiv", y, x));
}
/* k1e: y (1 - 1/x) - k0e(x) */
static T* f_k1e(pool* p, T* x, T* y) {
  T* t = C2(p, "Sub", like(p, x, 1.0), C1(p, "Reciprocal", x));
  return C2(p, "Sub", C2(p, "Mul", y, t), C1(p, "BesselK0e", x));
}
static T* f_j0(pool* p, T* x, T* y) {
  (void)y;
  return C1(p, "Neg", C1(p, "BesselJ1", x));
}
/* j1: j0(x) - y / x (0.5 at 0) */
static T* f_j1(pool* p, T* x, T* y) {
  return at_zero(p, x, 0.5, C2(p, "Sub", C1(p, "BesselJ0", x), C2(p, "RealDiv", y, x)));
}
static T* f_y0(pool* p, T* x, T* y) {
  (void)y;
  return C1(p, "Neg", C1(p, "BesselY1", x));
}
/* y1: y0(x) - y / x */
static T* f_y1(pool* p, T* x, T* y) {
  return C2(p, "Sub", C1(p, "BesselY0", x), C2(p, "RealDiv", y, x));
}

#define UNARY(name, f) \
  static void name(TFE_GradientContext* g, TF_Status* s) { unary(g, s, f); }
UNARY(grad_atan, f_atan)
UNARY(grad_sinh, f_sinh)
UNARY(grad_cosh, f_cosh)
UNARY(grad_erfinv, f_erfinv)
UNARY(grad_ndtri, f_ndtri)
UNARY(grad_dawsn, f_dawsn)
UNARY(grad_expint, f_expint)
UNARY(grad_i0, f_i0)
UNARY(grad_i0e, f_i0e)
UNARY(grad_i1, f_i1)
UNARY(grad_i1e, f_i1e)
UNARY(grad_k0, f_k0)
UNARY(grad_k0e, f_k0e)
UNARY(grad_k1, f_k1)
UNARY(grad_k1e, f_k1e)
UNARY(grad_j0, f_j0)
UNARY(grad_j1, f_j1)
UNARY(grad_y0, f_y0)
UNARY(grad_y1, f_y1)

/* inv (the old name of reciprocal): ReciprocalGrad(y, dy), as TF. */
static void grad_inv(TFE_GradientContext* g, TF_Status* s) {
  if (gu_upstream(g) == NULL) return;
  gu_give(g, 0, gu_call2(g, "ReciprocalGrad", TFE_GradientContextOutput(g, 0), gu_upstream(g), s),
          s);
}

/* identity-like ops (one input): dy passes through. */
static void grad_pass(TFE_GradientContext* g, TF_Status* s) {
  if (gu_upstream(g) == NULL) return;
  gu_give(g, 0, TFE_AbstractTensorCopy(gu_upstream(g), s), s);
}

/* ---- complex parts ---- */

/* real(z): complex(dy, 0); imag(z): complex(0, dy). */
static void grad_real_imag(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  int imag = strcmp(TFE_GradientContextOpType(g), "Imag") == 0;
  T* zero;
  if (dy == NULL) return;
  pinit(&p, g, s);
  zero = C1(&p, "ZerosLike", dy);
  give(&p, 0, complex_(&p, imag ? zero : dy, imag ? dy : zero, dtype_of(&p, IN(&p, 0))));
  pfree(&p);
}

/* complex(re, im): real(dy) and imag(dy), each summed to its input. */
static void grad_complex(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  TF_DataType rt;
  if (dy == NULL) return;
  pinit(&p, g, s);
  rt = dtype_of(&p, IN(&p, 0));
  give(&p, 0, reduce_to(&p, part(&p, "Real", dy, rt), IN(&p, 0)));
  give(&p, 1, reduce_to(&p, part(&p, "Imag", dy, rt), IN(&p, 1)));
  pfree(&p);
}

static void grad_conj(TFE_GradientContext* g, TF_Status* s) {
  if (gu_upstream(g) == NULL) return;
  gu_give(g, 0, gu_call1(g, "Conj", gu_upstream(g), s), s);
}

/* angle(z): -complex(dy, 0) / complex(imag z, real z). */
static void grad_angle(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *x, *re, *im, *z, *cg;
  TF_DataType ct, rt;
  if (dy == NULL) return;
  pinit(&p, g, s);
  x = IN(&p, 0);
  ct = dtype_of(&p, x);
  if (ct != TF_COMPLEX64 && ct != TF_COMPLEX128) {
    /* the angle of a real number is piecewise constant */
    give(&p, 0, C1(&p, "ZerosLike", x));
    pfree(&p);
    return;
  }
  rt = real_of(ct);
  re = part(&p, "Real", x, rt);
  im = part(&p, "Imag", x, rt);
  z = C1(&p, "Reciprocal", complex_(&p, im, re, ct));
  cg = complex_(&p, dy, C1(&p, "ZerosLike", dy), ct);
  give(&p, 0, C1(&p, "Neg", C2(&p, "Mul", cg, z)));
  pfree(&p);
}

/* complex_abs(z): complex(dy, 0) z / complex(|z|, 0), 0 where |z| = 0. */
static void grad_complex_abs(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *y, *num, *den;
  TF_DataType ct;
  if (dy == NULL) return;
  pinit(&p, g, s);
  y = OUT(&p, 0);
  ct = dtype_of(&p, IN(&p, 0));
  num = C2(&p, "Mul", complex_(&p, dy, C1(&p, "ZerosLike", dy), ct), IN(&p, 0));
  den = complex_(&p, y, C1(&p, "ZerosLike", y), ct);
  give(&p, 0, C2(&p, "DivNoNan", num, den));
  pfree(&p);
}

/* ---- binary special functions ---- */

/* xlog1py(x, y): d/dx = xlog1py(x != 0, y), d/dy = xdivy(x, y + 1). */
static void grad_xlog1py(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *x, *y, *nz, *px, *py;
  if (dy == NULL) return;
  pinit(&p, g, s);
  x = IN(&p, 0);
  y = IN(&p, 1);
  nz = cast(&p, C2(&p, "NotEqual", x, like(&p, x, 0.0)), dtype_of(&p, x));
  px = C2(&p, "Xlog1py", nz, y);
  py = C2(&p, "Xdivy", x, C2(&p, "AddV2", y, like(&p, y, 1.0)));
  gu_give(g, 0, gu_unbroadcast(g, cp(&p, C2(&p, "Mul", px, dy)), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, cp(&p, C2(&p, "Mul", py, dy)), 1, s), s);
  pfree(&p);
}

/* next_after(x1, x2): dx1 = dy, dx2 = 0 (each in its input's shape). */
static void grad_next_after(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  pinit(&p, g, s);
  gu_give(g, 0, gu_unbroadcast(g, cp(&p, dy), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, cp(&p, C1(&p, "ZerosLike", dy)), 1, s), s);
  pfree(&p);
}

/* igamma(a, x): d/da = IgammaGradA(a, x), d/dx = exp(-x + (a-1) log x -
 * lgamma(a)); igammac negates both. Registered only when the library
 * has IgammaGradA's kernel (a gradient for x alone would leave a silently
 * without one). */
static void grad_igamma(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *a, *x, *px, *pa, *ga, *gx;
  int neg = strcmp(TFE_GradientContextOpType(g), "Igammac") == 0;
  if (dy == NULL) return;
  pinit(&p, g, s);
  a = IN(&p, 0);
  x = IN(&p, 1);
  px = C1(&p, "Exp",
          C2(&p, "Sub",
             C2(&p, "AddV2", C1(&p, "Neg", x),
                C2(&p, "Mul", C2(&p, "Sub", a, like(&p, a, 1.0)), C1(&p, "Log", x))),
             C1(&p, "Lgamma", a)));
  pa = C2(&p, "IgammaGradA", a, x);
  ga = C2(&p, "Mul", pa, dy);
  gx = C2(&p, "Mul", px, dy);
  if (neg) {
    ga = C1(&p, "Neg", ga);
    gx = C1(&p, "Neg", gx);
  }
  gu_give(g, 0, gu_unbroadcast(g, cp(&p, ga), 0, s), s);
  gu_give(g, 1, gu_unbroadcast(g, cp(&p, gx), 1, s), s);
  pfree(&p);
}

/* betainc(a, b, x): only x gets a gradient (as TF), exp(xlog1py(b-1, -x) +
 * xlogy(a-1, x) - log B(a, b)). */
static void grad_betainc(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *a, *b, *x, *lb, *t, *px;
  if (dy == NULL) return;
  pinit(&p, g, s);
  a = IN(&p, 0);
  b = IN(&p, 1);
  x = IN(&p, 2);
  lb = C2(&p, "Sub", C2(&p, "AddV2", C1(&p, "Lgamma", a), C1(&p, "Lgamma", b)),
          C1(&p, "Lgamma", C2(&p, "AddV2", a, b)));
  t = C2(&p, "AddV2", C2(&p, "Xlog1py", C2(&p, "Sub", b, like(&p, b, 1.0)), C1(&p, "Neg", x)),
         C2(&p, "Xlogy", C2(&p, "Sub", a, like(&p, a, 1.0)), x));
  px = C1(&p, "Exp", C2(&p, "Sub", t, lb));
  give(&p, 2, reduce_to(&p, C2(&p, "Mul", px, dy), x));
  pfree(&p);
}

/* zeta(x, q): only q, -x zeta(x + 1, q). */
static void grad_zeta(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *x, *q, *pq;
  if (dy == NULL) return;
  pinit(&p, g, s);
  x = conj_(&p, IN(&p, 0));
  q = conj_(&p, IN(&p, 1));
  pq = C2(&p, "Mul", C1(&p, "Neg", x), C2(&p, "Zeta", C2(&p, "AddV2", x, like(&p, x, 1.0)), q));
  gu_give(g, 1, gu_unbroadcast(g, cp(&p, C2(&p, "Mul", pq, dy)), 1, s), s);
  pfree(&p);
}

/* polygamma(n, x): only x, polygamma(n + 1, x). */
static void grad_polygamma(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *n, *x, *px;
  if (dy == NULL) return;
  pinit(&p, g, s);
  n = conj_(&p, IN(&p, 0));
  x = conj_(&p, IN(&p, 1));
  px = C2(&p, "Polygamma", C2(&p, "AddV2", n, like(&p, n, 1.0)), x);
  gu_give(g, 1, gu_unbroadcast(g, cp(&p, C2(&p, "Mul", px, dy)), 1, s), s);
  pfree(&p);
}

/* cross(u, v): cross(v, dy), cross(dy, u). */
static void grad_cross(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  pinit(&p, g, s);
  give(&p, 0, C2(&p, "Cross", IN(&p, 1), dy));
  give(&p, 1, C2(&p, "Cross", dy, IN(&p, 0)));
  pfree(&p);
}

/* ---- reductions and scans ---- */

/* Shape(x) with the axes set to 1 (keep_dims shape). */
static T* kept_shape(pool* p, T* x, T* axes) {
  static const int32_t kCol[2] = {-1, 1};
  T* sx = shape32(p, x);
  T* axn = C2(p, "FloorMod", flat(p, cast(p, axes, TF_INT32)), C1(p, "Rank", x));
  T* idx = C2(p, "Reshape", axn, ivec(p, kCol, 2));
  return C3(p, "TensorScatterUpdate", sx, idx, C1(p, "OnesLike", axn));
}

/* euclidean_norm(x, axes): x / (y / dy) with y, dy in the kept shape. */
static void grad_euclidean_norm(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *y, *x;
  if (dy == NULL) return;
  pinit(&p, g, s);
  x = IN(&p, 0);
  y = OUT(&p, 0);
  if (!TFE_GradientContextAttrBool(g, "keep_dims", s)) {
    T* ks = kept_shape(&p, x, IN(&p, 1));
    y = C2(&p, "Reshape", y, ks);
    dy = C2(&p, "Reshape", dy, ks);
  }
  give(&p, 0, C2(&p, "RealDiv", x, C2(&p, "RealDiv", y, dy)));
  pfree(&p);
}

/* The lowest finite value of a float dtype. */
static double lowest(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: return -FLT_MAX;
    case TF_HALF: return -65504.0;
    case TF_BFLOAT16: return -3.38953138925153547590e38;
    default: return -DBL_MAX;
  }
}

static T* cum_lse(pool* p, T* x, T* axis, int exclusive, int reverse) {
  TF_AbstractOp* op = gl_op(p->g, "CumulativeLogsumexp", p->s);
  gl_in(op, x, p->s);
  gl_in(op, axis, p->s);
  gl_set_bool(op, "exclusive", exclusive, p->s);
  gl_set_bool(op, "reverse", reverse, p->s);
  return K(p, gl_fin(op, p->s));
}

/* cumulative_logsumexp: the gradient split by sign, each part summed in
 * log space in the other direction: exp(cumlse(log(+-dy) - y) + x). */
static void grad_cumulative_logsumexp(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *x, *axis, *y, *low, *lp, *ln, *op_, *on;
  int excl, rev;
  if (dy == NULL) return;
  pinit(&p, g, s);
  excl = TFE_GradientContextAttrBool(g, "exclusive", s);
  rev = TFE_GradientContextAttrBool(g, "reverse", s);
  x = IN(&p, 0);
  axis = IN(&p, 1);
  y = OUT(&p, 0);
  low = like(&p, dy, lowest(dtype_of(&p, dy)));
  lp = C3(&p, "SelectV2", C2(&p, "Greater", dy, like(&p, dy, 0.0)), C1(&p, "Log", dy), low);
  ln = C3(&p, "SelectV2", C2(&p, "Less", dy, like(&p, dy, 0.0)), C1(&p, "Log", C1(&p, "Neg", dy)),
          low);
  op_ = C1(&p, "Exp", C2(&p, "AddV2", cum_lse(&p, C2(&p, "Sub", lp, y), axis, excl, !rev), x));
  on = C1(&p, "Exp", C2(&p, "AddV2", cum_lse(&p, C2(&p, "Sub", ln, y), axis, excl, !rev), x));
  give(&p, 0, C2(&p, "Sub", op_, on));
  pfree(&p);
}

/* ---- matmul variants ---- */

static T* bmm(pool* p, T* a, T* b, int adj_a, int adj_b) {
  TF_AbstractOp* op = gl_op(p->g, "BatchMatMulV2", p->s);
  gl_in(op, a, p->s);
  gl_in(op, b, p->s);
  gl_set_bool(op, "adj_x", adj_a, p->s);
  gl_set_bool(op, "adj_y", adj_b, p->s);
  return K(p, gl_fin(op, p->s));
}

/* Sums grad over the batch dimensions broadcasting added to x, in x's
 * shape (grad's batch shape is the broadcast of x's and the other's). */
static T* unbroadcast_batch(pool* p, T* grad, T* x, T* other) {
  static const int32_t kZero[1] = {0};
  T *sx, *so, *bx, *bo, *r[2];
  TF_AbstractOp* op;
  if (grad == NULL || !GL_OK(p->s)) return NULL;
  if (gu_same_shape(grad, x, p->s)) return grad;
  sx = shape32(p, x);
  so = shape32(p, other);
  /* batch shapes: Slice(shape, 0, rank - 2) */
  {
    T* z1 = ivec(p, kZero, 1);
    T* nx = C2(p, "Sub", C1(p, "Size", sx), i32s(p, 2));
    T* no = C2(p, "Sub", C1(p, "Size", so), i32s(p, 2));
    static const int32_t kOne[1] = {1};
    T* o1 = ivec(p, kOne, 1);
    bx = C3(p, "Slice", sx, z1, C2(p, "Reshape", nx, o1));
    bo = C3(p, "Slice", so, z1, C2(p, "Reshape", no, o1));
  }
  op = gl_op(p->g, "BroadcastGradientArgs", p->s);
  gl_in(op, bx, p->s);
  gl_in(op, bo, p->s);
  gl_fin_n(op, 2, r, p->s);
  K(p, r[0]);
  K(p, r[1]);
  return C2(p, "Reshape", K(p, gl_sum(p->g, grad, r[0], 0, p->s)), sx);
}

/* batch_matmul (v1, no broadcasting) and v3 (broadcasting, as v2). */
static void grad_batch_matmul(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *x, *y, *gx, *gy;
  int ax, ay;
  if (dy == NULL) return;
  pinit(&p, g, s);
  ax = TFE_GradientContextAttrBool(g, "adj_x", s);
  ay = TFE_GradientContextAttrBool(g, "adj_y", s);
  x = IN(&p, 0);
  y = IN(&p, 1);
  if (!ax && !ay) {
    gx = bmm(&p, dy, y, 0, 1);
    gy = bmm(&p, x, dy, 1, 0);
  } else if (!ax && ay) {
    gx = bmm(&p, dy, y, 0, 0);
    gy = bmm(&p, dy, x, 1, 0);
  } else if (ax && !ay) {
    gx = bmm(&p, y, dy, 0, 1);
    gy = bmm(&p, x, dy, 0, 0);
  } else {
    gx = bmm(&p, y, dy, 1, 1);
    gy = bmm(&p, dy, x, 1, 1);
  }
  if (strcmp(TFE_GradientContextOpType(g), "BatchMatMul") != 0) {
    gx = unbroadcast_batch(&p, gx, x, y);
    gy = unbroadcast_batch(&p, gy, y, x);
  }
  /* v3 may mix input dtypes: each gradient in its input's dtype */
  if (GL_OK(s) && dtype_of(&p, gx) != dtype_of(&p, x)) gx = cast(&p, gx, dtype_of(&p, x));
  if (GL_OK(s) && dtype_of(&p, gy) != dtype_of(&p, y)) gy = cast(&p, gy, dtype_of(&p, y));
  give(&p, 0, gx);
  give(&p, 1, gy);
  pfree(&p);
}

/* conjugate_transpose(x, perm): conjugate_transpose(dy, inverse perm). */
static void grad_conjugate_transpose(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  pinit(&p, g, s);
  give(&p, 0, C2(&p, "ConjugateTranspose", dy, C1(&p, "InvertPermutation", IN(&p, 1))));
  pfree(&p);
}

/* ---- segment reductions ---- */

static T* gather0(pool* p, T* params, T* idx) { return C3(p, "GatherV2", params, idx, i32s(p, 0)); }

/* ids' mask reshaped to broadcast against data (ids' shape then ones). */
static T* mask_like(pool* p, T* mask, T* ids, T* data) {
  static const int32_t kOne[1] = {1};
  T* d = C2(p, "Sub", C1(p, "Rank", data), C1(p, "Rank", ids));
  T* ones = C2(p, "Fill", C2(p, "Reshape", d, ivec(p, kOne, 1)), i32s(p, 1));
  T* parts[2];
  parts[0] = shape32(p, ids);
  parts[1] = ones;
  return C2(p, "Reshape", mask, concat0(p, parts, 2));
}

/* segment_mean: dy / count, gathered. */
static void grad_segment_mean(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *data, *ids, *ones, *cnt, *parts[2];
  static const int32_t kOne[1] = {1};
  if (dy == NULL) return;
  pinit(&p, g, s);
  data = IN(&p, 0);
  ids = IN(&p, 1);
  parts[0] = cast(&p, shape32(&p, ids), TF_INT32);
  parts[1] = C2(&p, "Fill",
                C2(&p, "Reshape", C2(&p, "Sub", C1(&p, "Rank", data), i32s(&p, 1)),
                   ivec(&p, kOne, 1)),
                i32s(&p, 1));
  ones = C2(&p, "Fill", concat0(&p, parts, 2), like(&p, dy, 1.0));
  cnt = C2(&p, "SegmentSum", ones, ids);
  give(&p, 0, gather0(&p, C2(&p, "RealDiv", dy, cnt), ids));
  pfree(&p);
}

/* segment_min/max: dy shared evenly among the elements equal to their
 * segment's result. */
static void grad_segment_minmax(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *data, *ids, *sel, *num, *w;
  if (dy == NULL) return;
  pinit(&p, g, s);
  data = IN(&p, 0);
  ids = IN(&p, 1);
  sel = C2(&p, "Equal", data, gather0(&p, OUT(&p, 0), ids));
  num = C2(&p, "SegmentSum", cast(&p, sel, dtype_of(&p, dy)), ids);
  w = gather0(&p, C2(&p, "RealDiv", dy, num), ids);
  give(&p, 0, C3(&p, "SelectV2", sel, w, C1(&p, "ZerosLike", data)));
  pfree(&p);
}

/* gather at max(ids, 0) with zeros where ids < 0 (and the mask). */
static T* gather_drop_neg(pool* p, T* params, T* ids, T** mask_out) {
  T* clip = C2(p, "Maximum", ids, C1(p, "ZerosLike", ids));
  T* gat = gather0(p, params, clip);
  T* pos = C2(p, "GreaterEqual", ids, C1(p, "ZerosLike", ids));
  T* m = mask_like(p, pos, ids, gat);
  m = C2(p, "LogicalAnd", m, C2(p, "Equal", C1(p, "OnesLike", gat), C1(p, "OnesLike", gat)));
  if (mask_out != NULL) *mask_out = m;
  return C3(p, "SelectV2", m, gat, C1(p, "ZerosLike", gat));
}

static void grad_unsorted_segment_minmax(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *data, *ids, *pos = NULL, *go, *sel, *num, *w;
  if (dy == NULL) return;
  pinit(&p, g, s);
  data = IN(&p, 0);
  ids = IN(&p, 1);
  go = gather_drop_neg(&p, OUT(&p, 0), ids, &pos);
  sel = C2(&p, "LogicalAnd", C2(&p, "Equal", data, go), pos);
  num = C3(&p, "UnsortedSegmentSum", cast(&p, sel, dtype_of(&p, dy)), ids, IN(&p, 2));
  w = gather_drop_neg(&p, C2(&p, "RealDiv", dy, num), ids, NULL);
  give(&p, 0, C3(&p, "SelectV2", sel, w, C1(&p, "ZerosLike", w)));
  pfree(&p);
}

/* segment_prod and unsorted_segment_prod: prod / x, or the product of the
 * other elements at a segment's single zero, 0 with two zeros or more. */
static void grad_segment_prod(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *data, *ids, *zero, *nz, *gd, *nzd, *nzp, *clip, *gp, *gnzp, *pd, *gg;
  int unsorted = strcmp(TFE_GradientContextOpType(g), "UnsortedSegmentProd") == 0;
  if (dy == NULL) return;
  pinit(&p, g, s);
  data = IN(&p, 0);
  ids = IN(&p, 1);
  zero = C2(&p, "Equal", data, like(&p, data, 0.0));
  {
    T* zi = cast(&p, zero, TF_INT32);
    nz = unsorted ? C3(&p, "UnsortedSegmentSum", zi, ids, IN(&p, 2))
                  : C2(&p, "SegmentSum", zi, ids);
  }
  gd = C3(&p, "SelectV2", C2(&p, "Greater", nz, i32s(&p, 1)), C1(&p, "ZerosLike", dy), dy);
  nzd = C3(&p, "SelectV2", zero, C1(&p, "OnesLike", data), data);
  nzp = unsorted ? C3(&p, "UnsortedSegmentProd", nzd, ids, IN(&p, 2))
                 : C2(&p, "SegmentProd", nzd, ids);
  clip = unsorted ? C2(&p, "Maximum", ids, C1(&p, "ZerosLike", ids)) : ids;
  gp = gather0(&p, OUT(&p, 0), clip);
  gnzp = gather0(&p, nzp, clip);
  pd = C3(&p, "SelectV2", zero, gnzp, C2(&p, "RealDiv", gp, unsorted ? data : nzd));
  gg = unsorted ? gather_drop_neg(&p, gd, ids, NULL) : gather0(&p, gd, ids);
  give(&p, 0, C2(&p, "Mul", gg, pd));
  pfree(&p);
}

/* ---- tensor scatter ---- */

/* tensor_scatter_sub: t gets dy, updates -gather_nd(dy, indices). */
static void grad_tensor_scatter_sub(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  pinit(&p, g, s);
  give(&p, 0, dy);
  give(&p, 2, C1(&p, "Neg", C2(&p, "GatherNd", dy, IN(&p, 1))));
  pfree(&p);
}

/* scatter_nd_non_aliasing_add(input, indices, updates): input gets dy,
 * updates gather_nd(dy, indices). */
static void grad_scatter_nd_non_aliasing_add(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  pinit(&p, g, s);
  give(&p, 0, dy);
  give(&p, 2, C2(&p, "GatherNd", dy, IN(&p, 1)));
  pfree(&p);
}

/* tensor_scatter_min/max: dy shared among the tensor element and the
 * updates equal to the result. */
static void grad_tensor_scatter_minmax(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *t, *idx, *upd, *out, *xi, *yo, *yi, *ysi, *ind;
  TF_DataType dt;
  if (dy == NULL) return;
  pinit(&p, g, s);
  t = IN(&p, 0);
  idx = IN(&p, 1);
  upd = IN(&p, 2);
  out = OUT(&p, 0);
  dt = dtype_of(&p, dy);
  xi = cast(&p, C2(&p, "Equal", t, out), dt);
  yo = C2(&p, "GatherNd", out, idx);
  yi = cast(&p, C2(&p, "Equal", upd, yo), dt);
  ysi = C3(&p, "ScatterNd", idx, yi, K(&p, gl_shape(g, t, dtype_of(&p, idx), s)));
  ind = C2(&p, "AddV2", xi, ysi);
  give(&p, 0, C2(&p, "RealDiv", C2(&p, "Mul", dy, xi), ind));
  give(&p, 2, C2(&p, "Mul", C2(&p, "GatherNd", C2(&p, "RealDiv", dy, ind), idx), yi));
  pfree(&p);
}

/* ---- array ops ---- */

/* concat(concat_dim, values): the slices of dy at ConcatOffset's offsets. */
static void grad_concat_v1(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *axis, *shapes[POOL_MAX / 4], *offs[POOL_MAX / 4];
  int i, n = TFE_GradientContextNumInputs(g) - 1;
  TF_AbstractOp* op;
  if (dy == NULL || n < 1) return;
  if (n > POOL_MAX / 4) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "the gradient of Concat with more than %d inputs is not supported by tfe",
                    POOL_MAX / 4);
    return;
  }
  pinit(&p, g, s);
  axis = C2(&p, "FloorMod", IN(&p, 0), C1(&p, "Rank", IN(&p, 1)));
  for (i = 0; i < n; i++) shapes[i] = shape32(&p, IN(&p, i + 1));
  op = gl_op(g, "ConcatOffset", s);
  gl_in(op, axis, s);
  gl_in_list(op, shapes, n, s);
  gl_fin_n(op, n, offs, s);
  for (i = 0; i < n; i++) K(&p, offs[i]);
  for (i = 0; i < n && GL_OK(s); i++) give(&p, i + 1, C3(&p, "Slice", dy, offs[i], shapes[i]));
  pfree(&p);
}

/* space_to_batch / batch_to_space (block_size attr): each other. */
static void grad_space_batch_v1(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  const char* other =
      strcmp(TFE_GradientContextOpType(g), "SpaceToBatch") == 0 ? "BatchToSpace" : "SpaceToBatch";
  TF_AbstractOp* op;
  if (dy == NULL) return;
  pinit(&p, g, s);
  op = gl_op(g, other, s);
  gl_in(op, dy, s);
  gl_in(op, IN(&p, 1), s);
  gl_cp_int(g, op, "block_size", s);
  give(&p, 0, K(&p, gl_fin(op, s)));
  pfree(&p);
}

static void grad_diag(TFE_GradientContext* g, TF_Status* s) {
  if (gu_upstream(g) == NULL) return;
  gu_give(g, 0, gu_call1(g, "DiagPart", gu_upstream(g), s), s);
}

static void grad_diag_part(TFE_GradientContext* g, TF_Status* s) {
  if (gu_upstream(g) == NULL) return;
  gu_give(g, 0, gu_call1(g, "Diag", gu_upstream(g), s), s);
}

static void grad_matrix_band_part(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  pinit(&p, g, s);
  give(&p, 0, C3(&p, "MatrixBandPart", dy, IN(&p, 1), IN(&p, 2)));
  pfree(&p);
}

/* The align attr of a v3 op, or TF python's default RIGHT_LEFT (used by
 * TF's gradients of the v2 ops too). */
static void set_align(TFE_GradientContext* g, TF_AbstractOp* op, TF_Status* s) {
  const char* v = NULL;
  size_t len = 0;
  if (op == NULL || !GL_OK(s)) return;
  if (!tfe_attrs_get_string(g->attrs, "align", &v, &len, NULL)) {
    v = "RIGHT_LEFT";
    len = strlen(v);
  }
  TFE_AbstractOpSetAttrString(op, "align", v, len, s);
}

/* MatrixDiagPartV3(x, k, 0) with the op's alignment. */
static T* diag_part_k(pool* p, T* x, T* k) {
  TF_AbstractOp* op = gl_op(p->g, "MatrixDiagPartV3", p->s);
  gl_in(op, x, p->s);
  gl_in(op, k, p->s);
  gl_in(op, like(p, x, 0.0), p->s);
  set_align(p->g, op, p->s);
  return K(p, gl_fin(op, p->s));
}

/* MatrixSetDiagV3(x, d, k) with the op's alignment. */
static T* set_diag_k(pool* p, T* x, T* d, T* k) {
  TF_AbstractOp* op = gl_op(p->g, "MatrixSetDiagV3", p->s);
  gl_in(op, x, p->s);
  gl_in(op, d, p->s);
  gl_in(op, k, p->s);
  set_align(p->g, op, p->s);
  return K(p, gl_fin(op, p->s));
}

/* matrix_diag_v2/v3(diagonal, k, ...): the diagonals of dy. */
static void grad_matrix_diag_k(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  pinit(&p, g, s);
  give(&p, 0, diag_part_k(&p, dy, IN(&p, 1)));
  pfree(&p);
}

/* matrix_diag_part_v2/v3(x, k, pad): dy set as the diagonals of zeros. */
static void grad_matrix_diag_part_k(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  pinit(&p, g, s);
  give(&p, 0, set_diag_k(&p, C1(&p, "ZerosLike", IN(&p, 0)), dy, IN(&p, 1)));
  pfree(&p);
}

/* matrix_set_diag_v2/v3(x, d, k): x gets dy with zeroed diagonals, d the
 * diagonals of dy. */
static void grad_matrix_set_diag_k(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *k;
  if (dy == NULL) return;
  pinit(&p, g, s);
  k = IN(&p, 2);
  give(&p, 0, set_diag_k(&p, dy, C1(&p, "ZerosLike", IN(&p, 1)), k));
  give(&p, 1, diag_part_k(&p, dy, k));
  pfree(&p);
}

/* roll(x, shift, axis): roll(dy, -shift, axis). */
static void grad_roll(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  pinit(&p, g, s);
  give(&p, 0, C3(&p, "Roll", dy, C1(&p, "Neg", IN(&p, 1)), IN(&p, 2)));
  pfree(&p);
}

/* Python's repr of a bytes value (b'...'), which TF's gradient message
 * embeds (it formats the attr's bytes with %s); buf holds 4 len + 4. */
static size_t bytes_repr(const char* m, size_t len, char* buf) {
  static const char kHex[] = "0123456789abcdef";
  int has_sq = memchr(m, '\'', len) != NULL, has_dq = memchr(m, '"', len) != NULL;
  char q = has_sq && !has_dq ? '"' : '\'';
  size_t i, k = 0;
  buf[k++] = 'b';
  buf[k++] = q;
  for (i = 0; i < len; i++) {
    unsigned char c = (unsigned char)m[i];
    if (c == (unsigned char)q || c == '\\') {
      buf[k++] = '\\';
      buf[k++] = (char)c;
    } else if (c == '\n') {
      buf[k++] = '\\';
      buf[k++] = 'n';
    } else if (c == '\r') {
      buf[k++] = '\\';
      buf[k++] = 'r';
    } else if (c == '\t') {
      buf[k++] = '\\';
      buf[k++] = 't';
    } else if (c < 0x20 || c >= 0x7f) {
      buf[k++] = '\\';
      buf[k++] = 'x';
      buf[k++] = kHex[c >> 4];
      buf[k++] = kHex[c & 15];
    } else {
      buf[k++] = (char)c;
    }
  }
  buf[k++] = q;
  buf[k] = '\0';
  return k;
}

/* check_numerics: the gradient checked too, with TF's message (the attr
 * shown as Python bytes, b'...', exactly as TF's gradient writes it). */
static void grad_check_numerics(TFE_GradientContext* g, TF_Status* s) {
  static const char kPre[] = "Not a number (NaN) or infinity (Inf) values detected in gradient. ";
  pool p;
  T* dy = gu_upstream(g);
  const char* msg = "";
  size_t len = 0, n;
  char* buf;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  (void)tfe_attrs_get_string(g->attrs, "message", &msg, &len, NULL);
  buf = malloc(sizeof kPre + 4 * len + 4);
  if (buf == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient of CheckNumerics: out of memory");
    return;
  }
  memcpy(buf, kPre, sizeof kPre - 1);
  n = sizeof kPre - 1 + bytes_repr(msg, len, buf + sizeof kPre - 1);
  pinit(&p, g, s);
  op = gl_op(g, TFE_GradientContextOpType(g), s);
  gl_in(op, dy, s);
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrString(op, "message", buf, n, s);
  give(&p, 0, K(&p, gl_fin(op, s)));
  free(buf);
  pfree(&p);
}

/* dynamic_stitch(indices, data): data[i] gets gather(dy, indices[i]). */
static void grad_dynamic_stitch(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  int i, n = TFE_GradientContextNumInputs(g) / 2;
  if (dy == NULL) return;
  for (i = 0; i < n && GL_OK(s); i++) {
    pinit(&p, g, s);
    give(&p, n + i, gather0(&p, dy, cast(&p, IN(&p, i), TF_INT32)));
    pfree(&p);
  }
}

/* dynamic_partition(data, partitions): the element indices partitioned the
 * same way put the output gradients back (ParallelDynamicStitch). */
static void grad_dynamic_partition(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  int i, n = TFE_GradientContextNumOutputs(g);
  T *parts, *ps, *idx, *pidx[POOL_MAX / 4], *grads[POOL_MAX / 4];
  TF_AbstractOp* op;
  if (n < 1) return;
  if (n > POOL_MAX / 4) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "the gradient of DynamicPartition with more than %d partitions is not "
                    "supported by tfe",
                    POOL_MAX / 4);
    return;
  }
  pinit(&p, g, s);
  parts = IN(&p, 1);
  ps = shape32(&p, parts);
  idx = C2(&p, "Reshape",
           C3(&p, "Range", i32s(&p, 0), C1(&p, "Size", parts), i32s(&p, 1)), ps);
  op = gl_op(g, "DynamicPartition", s);
  gl_in(op, idx, s);
  gl_in(op, parts, s);
  gl_set_int(op, "num_partitions", n, s);
  gl_fin_n(op, n, pidx, s);
  for (i = 0; i < n; i++) K(&p, pidx[i]);
  for (i = 0; i < n; i++) grads[i] = K(&p, gl_grad_or_zeros(g, i, s));
  op = gl_op(g, "ParallelDynamicStitch", s);
  gl_in_list(op, pidx, n, s);
  gl_in_list(op, grads, n, s);
  gl_set_int(op, "N", n, s);
  give(&p, 0, C2(&p, "Reshape", K(&p, gl_fin(op, s)), shape32(&p, IN(&p, 0))));
  pfree(&p);
}

/* dy (shaped as idx) summed into x's elements along the last axis at idx. */
static T* scatter_last(pool* p, T* dy, T* idx, T* x) {
  T *sx, *n, *ix, *rows, *off, *fi, *pr[2];
  sx = shape32(p, x);
  n = C3(p, "GatherV2", sx, C2(p, "Sub", C1(p, "Size", sx), i32s(p, 1)), i32s(p, 0));
  pr[0] = i32s(p, -1);
  pr[1] = C3(p, "GatherV2", shape32(p, idx),
             C2(p, "Sub", C1(p, "Size", shape32(p, idx)), i32s(p, 1)), i32s(p, 0));
  ix = C2(p, "Reshape", cast(p, idx, TF_INT32), pack0(p, pr, 2));
  rows = C3(p, "GatherV2", shape32(p, ix), i32s(p, 0), i32s(p, 0));
  off = C3(p, "Range", i32s(p, 0), C2(p, "Mul", rows, n), n);
  off = C2(p, "ExpandDims", off, i32s(p, -1));
  fi = flat(p, C2(p, "AddV2", ix, off));
  return C2(p, "Reshape",
            C3(p, "UnsortedSegmentSum", flat(p, dy), fi, C1(p, "Size", x)), sx);
}

/* top_k: dy scattered back to the picked positions. */
static void grad_top_k(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  if (dy == NULL) return;
  pinit(&p, g, s);
  give(&p, 0, scatter_last(&p, dy, OUT(&p, 1), IN(&p, 0)));
  pfree(&p);
}

/* approx_top_k: as top_k along reduction_dimension (moved last and back). */
static void grad_approx_top_k(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *x, *perm, *inv, *r;
  int64_t d = TFE_GradientContextAttrInt(g, "reduction_dimension", s);
  int rank, i, j;
  int32_t pv[16];
  if (dy == NULL || !GL_OK(s)) return;
  pinit(&p, g, s);
  x = IN(&p, 0);
  rank = TFE_AbstractTensorNumDims(x, s);
  if (GL_OK(s) && (rank < 1 || rank > 16)) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "the gradient of ApproxTopK needs an input of known rank 1 to 16");
  }
  if (d < 0) d += rank;
  if (GL_OK(s) && (d < 0 || d >= rank)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "ApproxTopK: reduction_dimension out of range");
  }
  if (!GL_OK(s)) {
    pfree(&p);
    return;
  }
  for (i = 0, j = 0; i < rank; i++) {
    if (i != d) pv[j++] = i;
  }
  pv[rank - 1] = (int32_t)d;
  perm = ivec(&p, pv, rank);
  inv = C1(&p, "InvertPermutation", perm);
  r = scatter_last(&p, C2(&p, "Transpose", dy, perm), C2(&p, "Transpose", OUT(&p, 1), perm),
                   C2(&p, "Transpose", x, perm));
  give(&p, 0, C2(&p, "Transpose", r, inv));
  pfree(&p);
}

/* print(input, data): the input gets dy. */
static void grad_print(TFE_GradientContext* g, TF_Status* s) { grad_pass(g, s); }

/* ---- einsum ---- */

#define EQ_MAX 128

/* Einsum(inputs, equation). */
static T* einsum(pool* p, T* const* in, int n, const char* eq) {
  TF_AbstractOp* op = gl_op(p->g, "Einsum", p->s);
  gl_in_list(op, in, n, p->s);
  if (op != NULL && GL_OK(p->s)) TFE_AbstractOpSetAttrString(op, "equation", eq, strlen(eq), p->s);
  gl_set_int(op, "N", n, p->s);
  return K(p, gl_fin(op, p->s));
}

/* The axis of `label` in subs: its index before an ellipsis, or its
 * negative index from the end after one; -1000 when absent. */
static int axis_of(const char* subs, char label) {
  const char* e = strstr(subs, "...");
  const char* at = strchr(subs, label);
  if (at == NULL) return -1000;
  if (e == NULL || at < e) return (int)(at - subs);
  return (int)(at - subs) - (int)strlen(subs);
}

/* The labels of `subs` that appear in none of `others` (and are not '.'),
 * in order of first appearance, into out. */
static void reduced_labels(const char* subs, const char* others, char* out) {
  int n = 0;
  const char* c;
  for (c = subs; *c; c++) {
    if (*c == '.' || strchr(others, *c) != NULL || memchr(out, *c, (size_t)n) != NULL) continue;
    out[n++] = *c;
  }
  out[n] = '\0';
}

/* subs without the labels in `drop`. */
static void without(const char* subs, const char* drop, char* out) {
  int n = 0;
  const char* c;
  for (c = subs; *c; c++) {
    if (*c != '.' && strchr(drop, *c) != NULL) continue;
    out[n++] = *c;
  }
  out[n] = '\0';
}

static int distinct_count(const char* s) {
  int n = 0;
  const char* c;
  for (c = s; *c; c++) {
    if (strchr(s, *c) == c) n++;
  }
  return n;
}

/* The gradient of the unary einsum in_subs -> out_subs that sums away the
 * labels `red`: dy broadcast back along them (and through the reversed
 * einsum when labels repeat or move). */
static T* einsum_grad_reduced(pool* p, T* dy, const char* out_subs, const char* in_subs,
                              T* x_shape, int x_rank, const char* red) {
  char left[EQ_MAX], eq[3 * EQ_MAX + 8];
  int i, nred = (int)strlen(red);
  int repeated = distinct_count(in_subs) + distinct_count(out_subs) <
                 (int)(strlen(in_subs) + strlen(out_subs));
  int32_t axes[EQ_MAX];
  without(in_subs, red, left);
  for (i = 0; i < nred; i++) {
    int a = axis_of(in_subs, red[i]);
    axes[i] = a < 0 ? a + x_rank : a;
  }
  if (!repeated && strcmp(left, out_subs) == 0) {
    /* dy in x's shape with the reduced axes kept as 1, broadcast */
    static const int32_t kCol[2] = {-1, 1};
    T* idx = C2(p, "Reshape", ivec(p, axes, nred), ivec(p, kCol, 2));
    T* ones = C1(p, "OnesLike", ivec(p, axes, nred));
    T* kept = C3(p, "TensorScatterUpdate", x_shape, idx, ones);
    return C2(p, "BroadcastTo", C2(p, "Reshape", dy, kept), x_shape);
  }
  {
    T *dims, *pr[2], *full, *kept, *b;
    dims = C3(p, "GatherV2", x_shape, ivec(p, axes, nred), i32s(p, 0));
    pr[0] = dims;
    pr[1] = shape32(p, dy);
    full = concat0(p, pr, 2);
    pr[0] = C1(p, "OnesLike", dims);
    kept = concat0(p, pr, 2);
    b = C2(p, "BroadcastTo", C2(p, "Reshape", dy, kept), full);
    snprintf(eq, sizeof eq, "%s%s->%s", red, out_subs, in_subs);
    return einsum(p, &b, 1, eq);
  }
}

/* The gradient of one operand of a binary einsum (before unbroadcasting). */
static T* einsum_grad_wrt(pool* p, T* dy, T* other, T* in_shape, int in_rank, const char* in_subs,
                          const char* other_subs, const char* out_subs) {
  char all[2 * EQ_MAX + 2], red[EQ_MAX], left[EQ_MAX], eq[3 * EQ_MAX + 8];
  T* pr[2];
  T* gr;
  snprintf(all, sizeof all, "%s%s", out_subs, other_subs);
  reduced_labels(in_subs, all, red);
  without(in_subs, red, left);
  snprintf(eq, sizeof eq, "%s,%s->%s", out_subs, other_subs, left);
  pr[0] = dy;
  pr[1] = other;
  gr = einsum(p, pr, 2, eq);
  if (red[0] == '\0') return gr;
  return einsum_grad_reduced(p, gr, left, in_subs, in_shape, in_rank, red);
}

/* [start, end) of the axes the ellipsis stands for in subs, for a tensor
 * of rank `rank` ([0, 0) without an ellipsis). */
static void bcast_range(const char* subs, int rank, int* start, int* end) {
  const char* e = strstr(subs, "...");
  if (e == NULL) {
    *start = *end = 0;
    return;
  }
  *start = (int)(e - subs);
  *end = rank - (int)(strlen(subs) - (size_t)(*start + 3));
}

/* Sums g over the broadcast batch axes in x's ellipsis range. */
static T* einsum_unbroadcast(pool* p, T* g, T* rx, int start, T* x_shape) {
  T* axes = C2(p, "AddV2", rx, i32s(p, start));
  return C2(p, "Reshape", K(p, gl_sum(p->g, g, axes, 0, p->s)), x_shape);
}

static void grad_einsum(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T* dy = gu_upstream(g);
  const char* eqv = NULL;
  size_t len = 0;
  char eq[EQ_MAX], in_subs[EQ_MAX], out_subs[EQ_MAX], xs[EQ_MAX + 4], ys[EQ_MAX + 4];
  char* arrow;
  int n = TFE_GradientContextNumInputs(g);
  if (dy == NULL) return;
  if (!tfe_attrs_get_string(g->attrs, "equation", &eqv, &len, s)) return;
  {
    /* the equation without blanks */
    size_t i, k = 0;
    for (i = 0; i < len && k + 1 < sizeof eq; i++) {
      if (eqv[i] != ' ') eq[k++] = eqv[i];
    }
    eq[k] = '\0';
    arrow = strstr(eq, "->");
    if (i < len || arrow == NULL || (n != 1 && n != 2)) {
      tfe_status_setf(s, TF_UNIMPLEMENTED,
                      "the gradient of Einsum supports one or two operands and an explicit "
                      "output ('->') of under %d characters",
                      EQ_MAX);
      return;
    }
    *arrow = '\0';
    snprintf(in_subs, sizeof in_subs, "%s", eq);
    snprintf(out_subs, sizeof out_subs, "%s", arrow + 2);
  }
  pinit(&p, g, s);
  if (n == 1) {
    char red[EQ_MAX], e2[3 * EQ_MAX];
    T* x = IN(&p, 0);
    int rank = TFE_AbstractTensorNumDims(x, s);
    reduced_labels(in_subs, out_subs, red);
    if (red[0] == '\0') {
      snprintf(e2, sizeof e2, "%s->%s", out_subs, in_subs);
      give(&p, 0, einsum(&p, &dy, 1, e2));
    } else {
      give(&p, 0, einsum_grad_reduced(&p, dy, out_subs, in_subs, shape32(&p, x), rank, red));
    }
    pfree(&p);
    return;
  }
  {
    char* comma = strchr(in_subs, ',');
    T *x, *y, *sx, *sy, *gx, *gy;
    int rx_rank, ry_rank;
    if (comma == NULL) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "Einsum gradient: the equation names one operand");
      pfree(&p);
      return;
    }
    *comma = '\0';
    snprintf(xs, sizeof xs, "%s", in_subs);
    snprintf(ys, sizeof ys, "%s", comma + 1);
    if (strstr(out_subs, "...") != NULL) {
      if (strstr(xs, "...") == NULL) strcat(xs, "...");
      if (strstr(ys, "...") == NULL) strcat(ys, "...");
    }
    x = conj_(&p, IN(&p, 0));
    y = conj_(&p, IN(&p, 1));
    rx_rank = TFE_AbstractTensorNumDims(x, s);
    ry_rank = TFE_AbstractTensorNumDims(y, s);
    sx = shape32(&p, x);
    sy = shape32(&p, y);
    gx = einsum_grad_wrt(&p, dy, y, sx, rx_rank, xs, ys, out_subs);
    gy = einsum_grad_wrt(&p, dy, x, sy, ry_rank, ys, xs, out_subs);
    if (strstr(out_subs, "...") != NULL && GL_OK(s) &&
        !(gu_same_shape(gx, x, s) && gu_same_shape(gy, y, s))) {
      int bs, be, cs, ce;
      T *px, *py, *r[2];
      TF_AbstractOp* op;
      bcast_range(xs, rx_rank, &bs, &be);
      bcast_range(ys, ry_rank, &cs, &ce);
      {
        int32_t b0 = bs, n0 = be - bs, b1 = cs, n1 = ce - cs;
        px = C3(&p, "Slice", sx, ivec(&p, &b0, 1), ivec(&p, &n0, 1));
        py = C3(&p, "Slice", sy, ivec(&p, &b1, 1), ivec(&p, &n1, 1));
      }
      op = gl_op(g, "BroadcastGradientArgs", s);
      gl_in(op, px, s);
      gl_in(op, py, s);
      gl_fin_n(op, 2, r, s);
      K(&p, r[0]);
      K(&p, r[1]);
      gx = einsum_unbroadcast(&p, gx, r[0], bs, sx);
      gy = einsum_unbroadcast(&p, gy, r[1], cs, sy);
    }
    give(&p, 0, gx);
    give(&p, 1, gy);
  }
  pfree(&p);
}

/* ---- ragged_tensor_to_tensor ---- */

/* ragged_tensor_to_tensor(shape, values, default_value, partitions): the
 * same op applied to the values' row numbers (default -1) says which value
 * (or the default) fills each output element; values get dy summed per
 * row (UnsortedSegmentSum drops the -1s), the default the rest of dy summed
 * to its shape. Dense where TF gives values an IndexedSlices. */
static void grad_ragged_to_tensor(TFE_GradientContext* g, TF_Status* s) {
  pool p;
  T *dy = gu_upstream(g), *values, *dflt, *sdy, *pshape, *nvals, *rows, *idx, *parts[32];
  T *mask, *pr[2], *inner, *masked, *flatd, *axes;
  const tfe_attr_value* types = tfe_attrs_find(g->attrs, "row_partition_types");
  int i, rr = 0, np_ = TFE_GradientContextNumInputs(g) - 3, dy_rank, d_rank, r;
  TF_AbstractOp* op;
  static const int32_t kZero[1] = {0}, kM1[1] = {-1}, kOne[1] = {1};
  if (dy == NULL) return;
  if (types == NULL || !types->is_list || types->list_size != np_ || np_ < 1 || np_ > 32) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "RaggedTensorToTensor gradient: row_partition_types does not match the "
                    "row partition tensors");
    return;
  }
  for (i = 0; i < np_; i++) {
    if (strcmp(types->list.s.data[i], "FIRST_DIM_SIZE") != 0) rr++;
  }
  pinit(&p, g, s);
  values = IN(&p, 1);
  dflt = IN(&p, 2);
  dy_rank = TFE_AbstractTensorNumDims(dy, s);
  d_rank = TFE_AbstractTensorNumDims(dflt, s);
  if (GL_OK(s) && (dy_rank < 0 || d_rank < 0)) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "the gradient of RaggedTensorToTensor needs tensors of known rank");
  }
  if (!GL_OK(s)) {
    pfree(&p);
    return;
  }
  /* the default's rank without its leading 1s */
  r = d_rank;
  for (i = 0; i < d_rank && GL_OK(s); i++) {
    if (TFE_AbstractTensorDim(dflt, i, s) != 1) break;
    r--;
  }
  sdy = shape32(&p, dy);
  {
    int32_t n = rr + 1;
    pshape = C3(&p, "Slice", sdy, ivec(&p, kZero, 1), ivec(&p, &n, 1));
  }
  nvals = C3(&p, "GatherV2", shape32(&p, values), i32s(&p, 0), i32s(&p, 0));
  rows = C3(&p, "Range", i32s(&p, 0), nvals, i32s(&p, 1));
  for (i = 0; i < np_; i++) parts[i] = IN(&p, 3 + i);
  op = gl_op(g, "RaggedTensorToTensor", s);
  gl_in(op, pshape, s);
  gl_in(op, rows, s);
  gl_in(op, i32s(&p, -1), s);
  gl_in_list(op, parts, np_, s);
  if (op != NULL && GL_OK(s)) {
    tfe_unified_op_set_attr_string_list(op, "row_partition_types",
                                        (const void* const*)types->list.s.data,
                                        types->list.s.len, np_, s);
  }
  idx = K(&p, gl_fin(op, s));
  give(&p, 1, C3(&p, "UnsortedSegmentSum", dy, idx, nvals));
  /* the default: dy where no value landed, summed over the leading axes */
  {
    int32_t n = rr + 1;
    T* ones = C2(&p, "Fill",
                 C2(&p, "Reshape", C2(&p, "Sub", C1(&p, "Rank", dy), i32s(&p, n)),
                    ivec(&p, kOne, 1)),
                 i32s(&p, 1));
    pr[0] = shape32(&p, idx);
    pr[1] = ones;
    mask = C2(&p, "Reshape", C2(&p, "Equal", idx, i32s(&p, -1)), concat0(&p, pr, 2));
    mask = C2(&p, "LogicalAnd", mask, C2(&p, "Equal", C1(&p, "OnesLike", dy),
                                        C1(&p, "OnesLike", dy)));
    masked = C3(&p, "SelectV2", mask, dy, C1(&p, "ZerosLike", dy));
    inner = C3(&p, "Slice", sdy, ivec(&p, &n, 1), ivec(&p, kM1, 1));
    pr[0] = ivec(&p, kM1, 1);
    pr[1] = inner;
    flatd = C2(&p, "Reshape", masked, concat0(&p, pr, 2));
    {
      int32_t k = (int32_t)(dy_rank - rr - r); /* 1 + inner rank - r */
      axes = C3(&p, "Range", i32s(&p, 0), i32s(&p, k), i32s(&p, 1));
    }
    give(&p, 2, C2(&p, "Reshape", K(&p, gl_sum(g, flatd, axes, 0, s)), shape32(&p, dflt)));
  }
  pfree(&p);
}

/* ---- registration ---- */

/* 1 when op_name is defined and has a CPU kernel. */
static int has_cpu_kernel(const char* op_name) {
  int i, n;
  if (tfe_op_lookup(op_name) == NULL) return 0;
  tfe_kernels_ensure_builtins();
  n = tfe_kernel_count();
  for (i = 0; i < n; i++) {
    const tfe_kernel_reg* r = tfe_kernel_at(i);
    if (r != NULL && r->op_name != NULL && r->device_type != NULL &&
        strcmp(r->op_name, op_name) == 0 && strcmp(r->device_type, "CPU") == 0) {
      return 1;
    }
  }
  return 0;
}

int tfe_grad_register_more(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"Atan", grad_atan},
      {"Sinh", grad_sinh},
      {"Cosh", grad_cosh},
      {"Erfinv", grad_erfinv},
      {"Ndtri", grad_ndtri},
      {"Dawsn", grad_dawsn},
      {"Expint", grad_expint},
      {"BesselI0", grad_i0},
      {"BesselI0e", grad_i0e},
      {"BesselI1", grad_i1},
      {"BesselI1e", grad_i1e},
      {"BesselK0", grad_k0},
      {"BesselK0e", grad_k0e},
      {"BesselK1", grad_k1},
      {"BesselK1e", grad_k1e},
      {"BesselJ0", grad_j0},
      {"BesselJ1", grad_j1},
      {"BesselY0", grad_y0},
      {"BesselY1", grad_y1},
      {"Inv", grad_inv},
      {"Real", grad_real_imag},
      {"Imag", grad_real_imag},
      {"Complex", grad_complex},
      {"Conj", grad_conj},
      {"Angle", grad_angle},
      {"ComplexAbs", grad_complex_abs},
      {"Xlog1py", grad_xlog1py},
      {"NextAfter", grad_next_after},
      {"Betainc", grad_betainc},
      {"Zeta", grad_zeta},
      {"Polygamma", grad_polygamma},
      {"Cross", grad_cross},
      {"EuclideanNorm", grad_euclidean_norm},
      {"CumulativeLogsumexp", grad_cumulative_logsumexp},
      {"BatchMatMul", grad_batch_matmul},
      {"BatchMatMulV3", grad_batch_matmul},
      {"ConjugateTranspose", grad_conjugate_transpose},
      {"SegmentMean", grad_segment_mean},
      {"SegmentMax", grad_segment_minmax},
      {"SegmentMin", grad_segment_minmax},
      {"SegmentProd", grad_segment_prod},
      {"UnsortedSegmentMax", grad_unsorted_segment_minmax},
      {"UnsortedSegmentMin", grad_unsorted_segment_minmax},
      {"UnsortedSegmentProd", grad_segment_prod},
      {"TensorScatterSub", grad_tensor_scatter_sub},
      {"TensorScatterMax", grad_tensor_scatter_minmax},
      {"TensorScatterMin", grad_tensor_scatter_minmax},
      {"ScatterNdNonAliasingAdd", grad_scatter_nd_non_aliasing_add},
      {"Concat", grad_concat_v1},
      {"SpaceToBatch", grad_space_batch_v1},
      {"BatchToSpace", grad_space_batch_v1},
      {"Diag", grad_diag},
      {"DiagPart", grad_diag_part},
      {"MatrixBandPart", grad_matrix_band_part},
      {"MatrixDiagV2", grad_matrix_diag_k},
      {"MatrixDiagV3", grad_matrix_diag_k},
      {"MatrixDiagPartV2", grad_matrix_diag_part_k},
      {"MatrixDiagPartV3", grad_matrix_diag_part_k},
      {"MatrixSetDiagV2", grad_matrix_set_diag_k},
      {"MatrixSetDiagV3", grad_matrix_set_diag_k},
      {"Roll", grad_roll},
      {"CheckNumerics", grad_check_numerics},
      {"CheckNumericsV2", grad_check_numerics},
      {"DynamicStitch", grad_dynamic_stitch},
      {"ParallelDynamicStitch", grad_dynamic_stitch},
      {"DynamicPartition", grad_dynamic_partition},
      {"TopKV2", grad_top_k},
      {"ApproxTopK", grad_approx_top_k},
      {"PlaceholderWithDefault", grad_pass},
      {"DebugGradientIdentity", grad_pass},
      {"Print", grad_print},
      {"Einsum", grad_einsum},
      {"RaggedTensorToTensor", grad_ragged_to_tensor},
  };
  /* Every op TF 2.21 marks NotDifferentiable (its Python registry), so
   * gradients stop at them as in TF; names tfe does not define cost only a
   * registry entry. Ops already registered by another group are kept. */
  static const char* const kStop[] = {
      "ApproximateEqual", "AsString", "Assert", "Assign", "AssignAdd", "AssignSub",
      "AudioMicrofrontend", "AudioSummary", "AudioSummaryV2", "BitwiseAnd", "BitwiseOr",
      "BitwiseXor", "BroadcastGradientArgs", "CTCBeamSearchDecoder", "CTCGreedyDecoder",
      "ConcatOffset", "Const", "DecodeBase64", "DecodePaddedRaw", "DecodeProtoV2", "DecodeRaw",
      "DeleteSessionTensor", "DenseToDenseSetOperation", "DenseToSparseSetOperation",
      "DrawBoundingBoxes", "EditDistance", "EncodeBase64", "EncodeProto", "Equal",
      "ExtractGlimpse", "FakeQuantWithMinMaxArgsGradient", "FakeQuantWithMinMaxVarsGradient",
      "FakeQuantWithMinMaxVarsPerChannelGradient", "FixedLengthRecordReader",
      "GenerateBoundingBoxProposals", "GenerateVocabRemapping", "GetSessionHandle",
      "GetSessionHandleV2", "GetSessionTensor", "Greater", "GreaterEqual", "HSVToRGB",
      "HashTable", "HashTableV2", "HistogramSummary", "IdentityReader", "ImageSummary",
      "InitializeTable", "InitializeTableFromTextFile", "InitializeTableFromTextFileV2",
      "InitializeTableV2", "Invert", "InvertPermutation", "LMDBReader", "LeftShift", "Less",
      "LessEqual", "LinSpace", "LoadAndRemapMatrix", "LogicalAnd", "LogicalNot", "LogicalOr",
      "LookupTableFind", "LookupTableFindV2", "LookupTableInsert", "LookupTableInsertV2",
      "LookupTableSize", "LookupTableSizeV2", "MergeSummary", "Multinomial",
      "MutableDenseHashTable", "MutableDenseHashTableV2", "MutableHashTable",
      "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2", "MutableHashTableV2",
      "NonMaxSuppression", "NonMaxSuppressionV2", "NonMaxSuppressionWithOverlaps", "NotEqual",
      "OneHot", "OnesLike", "ParameterizedTruncatedNormal", "ParseTensor", "PopulationCount",
      "PyFunc", "PyFuncStateless", "Queue", "QueueClose", "QueueDequeue", "QueueDequeueMany",
      "QueueDequeueUpTo", "QueueEnqueue", "QueueEnqueueMany", "QueueSize", "RaggedRange",
      "RandomCrop", "RandomIndexShuffle", "RandomShuffle", "RandomStandardNormal",
      "RandomUniform", "Range", "Rank", "ReaderNumRecordsProduced", "ReaderNumWorkUnitsCompleted",
      "ReaderRead", "ReaderReadUpTo", "ReaderReset", "ReaderRestoreState", "ReaderSerializeState",
      "ReduceDataset", "ReduceJoin", "RegexReplace", "ResizeBilinearGrad", "RightShift",
      "SampleDistortedBoundingBox", "SampleDistortedBoundingBoxV2", "ScalarSummary", "ScatterAdd",
      "ScatterDiv", "ScatterMul", "ScatterNdAdd", "ScatterNdDiv", "ScatterNdMul", "ScatterNdSub",
      "ScatterNdUpdate", "ScatterSub", "SdcaFprint", "SdcaOptimizer", "SdcaOptimizerV2",
      "SdcaShrinkL1", "SerializeTensor", "SetSize", "Shape", "ShapeN", "Size", "SparseAddGrad",
      "SparseConcat", "SparseMatrixNNZ", "SparseMatrixZeros", "SparseToSparseSetOperation",
      "Stack", "StackClose", "StackPop", "StackPush", "StatelessMultinomial",
      "StatelessRandomBinomial", "StatelessRandomNormal", "StatelessRandomNormalV2",
      "StatelessRandomPoisson", "StatelessRandomShuffle", "StatelessRandomUniform",
      "StatelessRandomUniformFullInt", "StatelessRandomUniformFullIntV2",
      "StatelessRandomUniformInt", "StatelessRandomUniformIntV2", "StatelessRandomUniformV2",
      "StatelessTruncatedNormal", "StatelessTruncatedNormalV2", "StopGradient", "StringJoin",
      "StringSplit", "StringToHashBucket", "StringToHashBucketFast", "StringToHashBucketStrong",
      "StringToNumber", "TFRecordReader", "TPUReplicatedInput", "TensorArray", "TensorArrayClose",
      "TensorArrayCloseV2", "TensorArrayCloseV3", "TensorArrayGrad", "TensorArrayGradV2",
      "TensorArrayGradV3", "TensorArrayGradWithShape", "TensorArraySize", "TensorArraySizeV2",
      "TensorArraySizeV3", "TensorArrayV2", "TensorArrayV3", "TensorListConcatLists",
      "TensorListElementShape", "TensorListLength", "TensorListPushBackBatch", "TensorSummary",
      "TensorSummaryV2", "TextLineReader", "Timestamp", "TruncatedNormal", "VarIsInitializedOp",
      "VariableShape", "WholeFileReader", "XlaVariadicReduce", "ZerosLike",
  };
  size_t i;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  for (i = 0; i < sizeof kStop / sizeof kStop[0]; i++) {
    if (!tfe_grad_register_builtin(kStop[i], NULL)) return 0;
  }
  /* igamma's gradient with respect to a needs IgammaGradA: registered
   * once the library has that op and its CPU kernel. */
  if (has_cpu_kernel("IgammaGradA")) {
    if (!tfe_grad_register_builtin("Igamma", grad_igamma) ||
        !tfe_grad_register_builtin("Igammac", grad_igamma)) {
      return 0;
    }
  }
  return 1;
}
