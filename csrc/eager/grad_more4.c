/* Gradient functions (session 9, group more4): Eig, MatrixSolveLs,
 * FresnelCos/FresnelSin, QuantizeAndDequantizeV2/V3/V4/V4Grad and
 * RefIdentity. (TF's registry also lists the V1 QuantizeAndDequantize, an
 * op TF 2.21 refuses to run: removed at GraphDef version 22.)
 *
 * The math is that of TF 2.21's registered Python gradients
 * (linalg_grad.py, math_grad.py, array_grad.py, array_ops.py), so values
 * agree with TF's; the code is tfe's own, built from ordinary ops through
 * the unified API, so it serves the eager tape and TF_AddGradients alike.
 * Where TF's gradient raises (MatrixSolveLs with fast=False, and
 * QuantizeAndDequantizeV4Grad, whose registered function cannot accept the
 * op's three upstream gradients), tfe's fails with a status saying so.
 *
 * Cases: tools/grad_cases/more4.py; eigenvector phases, complex central
 * differences, RefIdentity and the failing gradients:
 * tests/python/test_grad_more4.py. */
#include <stdint.h>
#include <string.h>

#include "eager/grad_local.h"
#include "eager/tape.h"

typedef TF_AbstractTensor T;

/* ---- a scope of intermediates, freed together at the end ---- */

#define M4_MAX 128

typedef struct {
  TFE_GradientContext* g;
  TF_Status* s;
  T* t[M4_MAX];
  int n;
} M4;

static void m4_init(M4* p, TFE_GradientContext* g, TF_Status* s) {
  p->g = g;
  p->s = s;
  p->n = 0;
}

static void m4_end(M4* p) {
  gl_free(p->t, p->n);
  p->n = 0;
}

#define OK(p) GL_OK((p)->s)

/* Keeps t (NULL allowed) until m4_end; returns t. */
static T* K(M4* p, T* t) {
  if (t == NULL) return NULL;
  if (p->n >= M4_MAX) {
    /* not reached: every function here keeps far fewer */
    TF_DeleteAbstractTensor(t);
    tfe_status_setf(p->s, TF_INTERNAL, "gradient of %s: too many intermediate tensors",
                    TFE_GradientContextOpType(p->g));
    return NULL;
  }
  p->t[p->n++] = t;
  return t;
}

/* Gives input i a new reference to t (nothing when t is NULL). */
static void give(M4* p, int i, T* t) {
  if (t == NULL || !OK(p)) return;
  gu_give(p->g, i, TFE_AbstractTensorCopy(t, p->s), p->s);
}

static T* in(M4* p, int i) { return TFE_GradientContextInput(p->g, i); }
static T* out(M4* p, int i) { return TFE_GradientContextOutput(p->g, i); }

static T* c1(M4* p, const char* type, T* a) {
  if (!OK(p) || a == NULL) return NULL;
  return K(p, gu_call1(p->g, type, a, p->s));
}
static T* c2(M4* p, const char* type, T* a, T* b) {
  if (!OK(p) || a == NULL || b == NULL) return NULL;
  return K(p, gu_call2(p->g, type, a, b, p->s));
}
static T* add(M4* p, T* a, T* b) { return c2(p, "AddV2", a, b); }
static T* sub(M4* p, T* a, T* b) { return c2(p, "Sub", a, b); }
static T* mul(M4* p, T* a, T* b) { return c2(p, "Mul", a, b); }
static T* fin(M4* p, TF_AbstractOp* op) { return K(p, gl_fin(op, p->s)); }

static TF_DataType dtype_of(M4* p, T* t) {
  return OK(p) && t != NULL ? TFE_AbstractTensorDataType(t, p->s) : TF_FLOAT;
}
static int is_cplx(TF_DataType dt) { return dt == TF_COMPLEX64 || dt == TF_COMPLEX128; }
static TF_DataType real_of(TF_DataType dt) {
  return dt == TF_COMPLEX64 ? TF_FLOAT : dt == TF_COMPLEX128 ? TF_DOUBLE : dt;
}

/* A scalar of dtype dt holding v (complex: real part v). */
static T* scal(M4* p, TF_DataType dt, double v) { return K(p, gl_scalar(p->g, dt, v, p->s)); }
static T* cast(M4* p, T* x, TF_DataType dt) {
  if (!OK(p) || x == NULL) return NULL;
  return K(p, gu_cast(p->g, x, dt, p->s));
}

/* BatchMatMulV2(a, b) with adjoints. */
static T* mm(M4* p, T* a, T* b, int adj_a, int adj_b) {
  TF_AbstractOp* op = gl_op(p->g, "BatchMatMulV2", p->s);
  gl_in(op, a, p->s);
  gl_in(op, b, p->s);
  gl_set_bool(op, "adj_x", adj_a, p->s);
  gl_set_bool(op, "adj_y", adj_b, p->s);
  return fin(p, op);
}

/* x with its last two axes swapped (no conjugation); rank from Rank(x)
 * when unknown while tracing. */
static T* transpose_last2(M4* p, T* x) {
  int32_t perm[32];
  int i, r;
  T* pv;
  if (!OK(p) || x == NULL) return NULL;
  r = TFE_AbstractTensorNumDims(x, p->s);
  if (!OK(p)) return NULL;
  if (r >= 2 && r <= 32) {
    for (i = 0; i < r; i++) perm[i] = i;
    perm[r - 2] = r - 1;
    perm[r - 1] = r - 2;
    pv = K(p, gu_const_i32(p->g, perm, r, p->s));
  } else {
    /* [0, ..., rank-3, rank-1, rank-2] */
    static const int32_t kLast2[2] = {-1, -2};
    T* rk = c1(p, "Rank", x);
    T* parts[2];
    TF_AbstractOp* op;
    parts[0] = K(p, gl_range(p->g, K(p, gl_i32(p->g, 0, p->s)),
                             sub(p, rk, K(p, gl_i32(p->g, 2, p->s))),
                             K(p, gl_i32(p->g, 1, p->s)), p->s));
    parts[1] = add(p, K(p, gu_const_i32(p->g, kLast2, 2, p->s)), rk);
    op = gl_op(p->g, "ConcatV2", p->s);
    if (OK(p) && (parts[0] == NULL || parts[1] == NULL)) {
      tfe_status_setf(p->s, TF_INTERNAL, "gradient: missing tensor");
    }
    gl_in_list(op, parts, 2, p->s);
    gl_in(op, K(p, gl_i32(p->g, 0, p->s)), p->s);
    pv = fin(p, op);
  }
  return c2(p, "Transpose", x, pv);
}

/* The conjugate transpose of the last two axes. */
static T* adjoint(M4* p, T* x) {
  T* t = transpose_last2(p, x);
  return is_cplx(dtype_of(p, x)) ? c1(p, "Conj", t) : t;
}

/* MatrixTriangularSolve(a, b) with the given flags. */
static T* tri_solve(M4* p, T* a, T* b, int lower, int adj) {
  TF_AbstractOp* op = gl_op(p->g, "MatrixTriangularSolve", p->s);
  gl_in(op, a, p->s);
  gl_in(op, b, p->s);
  gl_set_bool(op, "lower", lower, p->s);
  gl_set_bool(op, "adjoint", adj, p->s);
  return fin(p, op);
}

/* Solves (L L^H) x = rhs for a lower Cholesky factor L. */
static T* chol_solve(M4* p, T* l, T* rhs) {
  return tri_solve(p, l, tri_solve(p, l, rhs, 1, 0), 1, 1);
}

/* ---- Eig ---- */

/* x * 1 / (x * x + 1e-20): a reciprocal that stays finite at 0, as TF's
 * gradient uses for equal eigenvalues (for complex x, x*x, not |x|^2). */
static T* safe_recip(M4* p, T* x) {
  T* den = add(p, mul(p, x, x), scal(p, dtype_of(p, x), 1e-20));
  return mul(p, x, c1(p, "Reciprocal", den));
}

/* Eig(input) -> (e, v), a v = v diag(e), complex outputs (Tout). With
 * vt = v^H and f(i, j) = conj(1 / (e_j - e_i)) off the diagonal (0 on it):
 *   mid = diag(de) + f * (vt dv - vt v diag(Re(diag(vt dv)))),
 *   da = vt^-1 mid vt  (a MatrixSolve with vt),
 * the real part for a real input. Without compute_v, v comes from a
 * second Eig and mid = diag(de). */
static void grad_eig(TFE_GradientContext* g, TF_Status* s) {
  M4 p;
  int compute_v = TFE_GradientContextAttrBool(g, "compute_v", s);
  T *ge, *gv, *e, *v, *vt, *mid = NULL, *ga;
  TF_DataType ct, it;
  TF_AbstractOp* op;
  if (!GL_OK(s)) return;
  ge = TFE_GradientContextOutputGradient(g, 0);
  gv = compute_v ? TFE_GradientContextOutputGradient(g, 1) : NULL;
  if (ge == NULL && gv == NULL) return;
  m4_init(&p, g, s);
  e = out(&p, 0);
  ct = dtype_of(&p, e);
  it = dtype_of(&p, in(&p, 0));
  if (ge != NULL) mid = c1(&p, "MatrixDiag", ge);
  if (compute_v) {
    v = out(&p, 1);
  } else {
    T* o[2];
    op = gl_op(g, "Eig", s);
    gl_in(op, in(&p, 0), s);
    gl_set_bool(op, "compute_v", 1, s);
    gl_set_type(op, "Tout", ct, s);
    gl_fin_n(op, 2, o, s);
    K(&p, o[0]);
    v = K(&p, o[1]);
  }
  vt = adjoint(&p, v);
  if (gv != NULL) {
    T *f, *vgv, *dgp, *term;
    TF_AbstractOp* rop;
    f = sub(&p, c2(&p, "ExpandDims", e, K(&p, gl_i32(g, -2, s))),
            c2(&p, "ExpandDims", e, K(&p, gl_i32(g, -1, s))));
    f = c2(&p, "MatrixSetDiag", safe_recip(&p, f), c1(&p, "ZerosLike", e));
    f = c1(&p, "Conj", f);
    vgv = mm(&p, v, gv, 1, 0);
    rop = gl_op(g, "Real", s);
    gl_in(rop, c1(&p, "MatrixDiagPart", vgv), s);
    gl_set_type(rop, "Tout", real_of(ct), s);
    dgp = c1(&p, "MatrixDiag", cast(&p, fin(&p, rop), ct));
    term = mul(&p, f, sub(&p, vgv, mm(&p, mm(&p, v, v, 1, 0), dgp, 0, 0)));
    mid = mid != NULL ? add(&p, mid, term) : term;
  }
  op = gl_op(g, "MatrixSolve", s);
  gl_in(op, vt, s);
  gl_in(op, mm(&p, mid, vt, 0, 0), s);
  ga = fin(&p, op);
  if (!is_cplx(it)) {
    op = gl_op(g, "Real", s);
    gl_in(op, ga, s);
    gl_set_type(op, "Tout", it, s);
    ga = fin(&p, op);
  } else if (it != ct) {
    ga = cast(&p, ga, it);
  }
  give(&p, 0, ga);
  m4_end(&p);
}

/* ---- MatrixSolveLs ---- */

/* The Cholesky factor of a^H a + l2 I (first kind) or a a^H + l2 I. */
static T* gramian_chol(M4* p, T* a, T* l2, int first_kind) {
  T* gram = mm(p, a, a, first_kind, !first_kind);
  T* eye = c1(p, "MatrixDiag", c1(p, "OnesLike", c1(p, "MatrixDiagPart", gram)));
  return c1(p, "Cholesky", add(p, gram, mul(p, l2, eye)));
}

/* MatrixSolveLs(matrix, rhs, l2_regularizer) with fast=True, x the
 * regularized least-squares solution. Rows >= columns (normal equations
 * of the first kind, z = (a^H a + l2 I)^-1 dx):
 *   da = -a (x z^H + (x z^H)^T) + b z^H,  db = a z;
 * rows < columns (second kind, C = a a^H + l2 I):
 *   db = C^-1 a dx,  t = C^-1 b,
 *   da = -db t^H a + t (dx - a^H db)^H.
 * (The plain transpose in the first form is TF's.) The regularizer gets
 * no gradient, as in TF. fast=False: TF's gradient raises. The branch
 * needs the matrix's last two dims known (TF decides at run time with a
 * cond when they are not; tfe then fails with UNIMPLEMENTED). */
static void grad_matrix_solve_ls(TFE_GradientContext* g, TF_Status* s) {
  M4 p;
  int fast = TFE_GradientContextAttrBool(g, "fast", s);
  T *dx = gu_upstream(g), *a, *b, *l2, *chol;
  int64_t rows = -1, cols = -1;
  int r;
  TF_DataType dt;
  if (!GL_OK(s)) return;
  if (!fast) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Gradient not defined for fast=False");
    return;
  }
  if (dx == NULL) return;
  m4_init(&p, g, s);
  a = in(&p, 0);
  b = in(&p, 1);
  dt = dtype_of(&p, a);
  r = TFE_AbstractTensorNumDims(a, s);
  if (GL_OK(s) && r >= 2) {
    rows = TFE_AbstractTensorDim(a, r - 2, s);
    cols = GL_OK(s) ? TFE_AbstractTensorDim(a, r - 1, s) : -1;
  }
  if (GL_OK(s) && (rows < 0 || cols < 0)) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "gradient of MatrixSolveLs: the matrix's last two dimensions must be "
                    "known");
  }
  l2 = dt == TF_DOUBLE ? in(&p, 2) : cast(&p, in(&p, 2), dt);
  if (rows >= cols) {
    T *x = out(&p, 0), *z, *xzt;
    chol = gramian_chol(&p, a, l2, 1);
    z = chol_solve(&p, chol, dx);
    xzt = mm(&p, x, z, 0, 1);
    give(&p, 0, add(&p, c1(&p, "Neg", mm(&p, a, add(&p, xzt, transpose_last2(&p, xzt)), 0, 0)),
                    mm(&p, b, z, 0, 1)));
    give(&p, 1, mm(&p, a, z, 0, 0));
  } else {
    T *gb, *tmp, *a1, *a2;
    chol = gramian_chol(&p, a, l2, 0);
    gb = chol_solve(&p, chol, mm(&p, a, dx, 0, 0));
    tmp = chol_solve(&p, chol, b);
    a1 = c1(&p, "Neg", mm(&p, gb, mm(&p, tmp, a, 1, 0), 0, 0));
    a2 = mm(&p, tmp, sub(&p, dx, mm(&p, a, gb, 1, 0)), 0, 1);
    give(&p, 0, add(&p, a1, a2));
    give(&p, 1, gb);
  }
  m4_end(&p);
}

/* ---- Fresnel integrals ---- */

/* FresnelCos/FresnelSin(x): d/dx = cos(pi x^2 / 2), sin(pi x^2 / 2). */
static void fresnel(TFE_GradientContext* g, TF_Status* s, const char* fn) {
  M4 p;
  T *dy = gu_upstream(g), *x;
  if (dy == NULL || !GL_OK(s)) return;
  m4_init(&p, g, s);
  x = in(&p, 0);
  give(&p, 0,
       mul(&p, dy,
           c1(&p, fn, mul(&p, scal(&p, dtype_of(&p, x), 1.57079632679489661923),
                          c1(&p, "Square", x)))));
  m4_end(&p);
}
static void grad_fresnel_cos(TFE_GradientContext* g, TF_Status* s) { fresnel(g, s, "Cos"); }
static void grad_fresnel_sin(TFE_GradientContext* g, TF_Status* s) { fresnel(g, s, "Sin"); }

/* ---- quantize-dequantize and identities ---- */

/* The upstream gradient passed to input 0 unchanged; the other inputs
 * (quantization ranges, num_bits) get none: RefIdentity, and
 * QuantizeAndDequantizeV2/V3's straight-through gradients, as TF's. */
static void grad_pass_first(TFE_GradientContext* g, TF_Status* s) {
  T* dy = gu_upstream(g);
  if (dy == NULL || !GL_OK(s)) return;
  gu_give(g, 0, TFE_AbstractTensorCopy(dy, s), s);
}

/* QuantizeAndDequantizeV4(input, input_min, input_max) -> y: the
 * QuantizeAndDequantizeV4Grad kernel passes dy where the input lies in
 * [min, max] (per channel along `axis`) and gives the ranges zeros. */
static void grad_qdq_v4(TFE_GradientContext* g, TF_Status* s) {
  M4 p;
  T *dy = gu_upstream(g), *o[3];
  TF_AbstractOp* op;
  int i;
  if (dy == NULL || !GL_OK(s)) return;
  m4_init(&p, g, s);
  op = gl_op(g, "QuantizeAndDequantizeV4Grad", s);
  gl_in(op, dy, s);
  gl_in(op, in(&p, 0), s);
  gl_in(op, in(&p, 1), s);
  gl_in(op, in(&p, 2), s);
  gl_cp_int(g, op, "axis", s);
  gl_fin_n(op, 3, o, s);
  for (i = 0; i < 3; i++) give(&p, i, K(&p, o[i]));
  m4_end(&p);
}

/* QuantizeAndDequantizeV4Grad: TF 2.21 registers a gradient function
 * that takes a single upstream gradient, so calling it for this
 * three-output op always raises a TypeError; tfe fails the same way. */
static void grad_qdq_v4_grad(TFE_GradientContext* g, TF_Status* s) {
  (void)g;
  tfe_status_setf(s, TF_UNIMPLEMENTED,
                  "Gradient for QuantizeAndDequantizeV4Grad is not available: TF's "
                  "registered gradient (_QuantizeAndDequantizeV4GradGrad) accepts one "
                  "upstream gradient and the op has three outputs");
}

int tfe_grad_register_more4(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"Eig", grad_eig},
      {"MatrixSolveLs", grad_matrix_solve_ls},
      {"FresnelCos", grad_fresnel_cos},
      {"FresnelSin", grad_fresnel_sin},
      {"QuantizeAndDequantizeV2", grad_pass_first},
      {"QuantizeAndDequantizeV3", grad_pass_first},
      {"QuantizeAndDequantizeV4", grad_qdq_v4},
      {"QuantizeAndDequantizeV4Grad", grad_qdq_v4_grad},
      {"RefIdentity", grad_pass_first},
  };
  size_t i;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  return 1;
}
