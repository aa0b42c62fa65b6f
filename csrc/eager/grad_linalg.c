/* Gradient functions of the linear-algebra, FFT, random-sampling and image
 * ops (registered by tfe_grad_register_linalg).
 *
 * Each follows the math of TensorFlow 2.21's registered gradient for the op
 * (linalg_grad.py, fft_ops.py, random_grad.py, image_grad.py, the patch
 * gradients of array_grad.py) and is built from ordinary ops through the
 * unified API, so it runs on an eager tape and inside TF_AddGradients alike.
 *
 * The functions here are long chains of small ops; to keep them readable
 * every intermediate tensor goes into a per-call scope (LA) that frees them
 * all at the end, and the helpers do nothing once the status holds an
 * error. A few gradients need static matrix dimensions (Qr, Svd,
 * MatrixSquareRoot), as TF's do; they fail with UNIMPLEMENTED otherwise. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "eager/grad_local.h"

#define LA_MAX 384

static const double kPi = 3.14159265358979323846;

typedef struct {
  TFE_GradientContext* g;
  TF_Status* s;
  TF_AbstractTensor* t[LA_MAX];
  int n;
} LA;

typedef TF_AbstractTensor T;

static void la_init(LA* L, TFE_GradientContext* g, TF_Status* s) {
  L->g = g;
  L->s = s;
  L->n = 0;
}

static void la_end(LA* L) { gl_free(L->t, L->n), L->n = 0; }

/* Keeps t in the scope (freed by la_end); returns t. */
static T* K(LA* L, T* t) {
  if (t == NULL) return NULL;
  if (L->n >= LA_MAX) {
    TF_DeleteAbstractTensor(t);
    tfe_status_setf(L->s, TF_INTERNAL, "gradient of %s: too many intermediate tensors",
                    TFE_GradientContextOpType(L->g));
    return NULL;
  }
  L->t[L->n++] = t;
  return t;
}

#define OK(L) GL_OK((L)->s)

/* Sets input i's gradient to a new reference to t. */
static void give(LA* L, int i, T* t) {
  if (t == NULL || !OK(L)) return;
  gu_give(L->g, i, TFE_AbstractTensorCopy(t, L->s), L->s);
}

static T* in(LA* L, int i) { return TFE_GradientContextInput(L->g, i); }
static T* out(LA* L, int i) { return TFE_GradientContextOutput(L->g, i); }
/* The upstream gradient of output i, zeros when none flowed in. */
static T* dout(LA* L, int i) { return K(L, gl_grad_or_zeros(L->g, i, L->s)); }

static T* c1(LA* L, const char* type, T* a) { return K(L, gu_call1(L->g, type, a, L->s)); }
static T* c2(LA* L, const char* type, T* a, T* b) {
  if (!OK(L) || a == NULL || b == NULL) return NULL;
  return K(L, gu_call2(L->g, type, a, b, L->s));
}
static T* add(LA* L, T* a, T* b) { return c2(L, "AddV2", a, b); }
static T* sub(LA* L, T* a, T* b) { return c2(L, "Sub", a, b); }
static T* mul(LA* L, T* a, T* b) { return c2(L, "Mul", a, b); }
static T* neg(LA* L, T* a) { return c1(L, "Neg", a); }

static TF_DataType dtype(LA* L, T* t) {
  return OK(L) && t != NULL ? TFE_AbstractTensorDataType(t, L->s) : TF_FLOAT;
}
static int is_cplx(TF_DataType dt) { return dt == TF_COMPLEX64 || dt == TF_COMPLEX128; }
static TF_DataType real_of(TF_DataType dt) {
  return dt == TF_COMPLEX64 ? TF_FLOAT : dt == TF_COMPLEX128 ? TF_DOUBLE : dt;
}
static int rank(LA* L, T* t) { return OK(L) && t != NULL ? TFE_AbstractTensorNumDims(t, L->s) : -1; }
static int64_t dim(LA* L, T* t, int i) {
  int r = rank(L, t);
  if (r < 0 || !OK(L)) return -1;
  if (i < 0) i += r;
  if (i < 0 || i >= r) return -1;
  return TFE_AbstractTensorDim(t, i, L->s);
}

/* A scalar of dtype dt (complex: real part only). */
static T* sc(LA* L, TF_DataType dt, double v) { return K(L, gl_scalar(L->g, dt, v, L->s)); }

/* A complex scalar re + i*im of dtype dt (complex64 or complex128). */
static T* csc(LA* L, TF_DataType dt, double re, double im) {
  TF_Tensor* t;
  TF_AbstractOp* op;
  T* r;
  if (!OK(L)) return NULL;
  t = TF_AllocateTensor(TF_COMPLEX128, NULL, 0, 16);
  if (t == NULL) {
    tfe_status_setf(L->s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return NULL;
  }
  ((double*)TF_TensorData(t))[0] = re;
  ((double*)TF_TensorData(t))[1] = im;
  op = gl_op(L->g, "Const", L->s);
  if (op != NULL && OK(L)) TFE_AbstractOpSetAttrTensor(op, "value", t, L->s);
  gl_set_type(op, "dtype", TF_COMPLEX128, L->s);
  r = K(L, gl_fin(op, L->s));
  TF_DeleteTensor(t);
  if (dt != TF_COMPLEX128) r = K(L, gu_cast(L->g, r, dt, L->s));
  return r;
}

static T* vi32(LA* L, const int32_t* v, int n) { return K(L, gu_const_i32(L->g, v, n, L->s)); }
static T* i32(LA* L, int32_t v) { return K(L, gl_i32(L->g, v, L->s)); }

static T* concat(LA* L, T** v, int n, int axis);
static T* reshape(LA* L, T* x, T* shape);
static T* dyn_dim(LA* L, T* x, int axis);

/* Paddings [rank(x), 2] (int32) that pad x's second-to-last axis by
 * (a0, a1) and its last by (b0, b1), zeros elsewhere; built from Rank(x)
 * when the rank is unknown while tracing. */
static T* pads_last2(LA* L, T* x, int a0, int a1, int b0, int b1) {
  int32_t v[64];
  int64_t dims[2];
  int r = rank(L, x);
  TF_Tensor* t;
  TF_AbstractOp* op;
  T* res;
  if (!OK(L)) return NULL;
  if (r < 0 || r > 32) {
    /* concat(zeros [rank - k, 2], the last k rows) */
    int k = (a0 || a1) ? 2 : 1;
    int32_t tail[4] = {a0, a1, b0, b1};
    int32_t two[2] = {k, 2};
    T *n, *zshape, *parts[2];
    n = sub(L, c1(L, "Rank", x), i32(L, k));
    parts[0] = reshape(L, n, vi32(L, (const int32_t[]){1}, 1));
    parts[1] = vi32(L, (const int32_t[]){2}, 1);
    zshape = concat(L, parts, 2, 0);
    parts[0] = c2(L, "Fill", zshape, i32(L, 0));
    parts[1] = reshape(L, vi32(L, tail + (k == 2 ? 0 : 2), 2 * k), vi32(L, two, 2));
    return concat(L, parts, 2, 0);
  }
  if (r < 1 || (r < 2 && (a0 || a1))) {
    tfe_status_setf(L->s, TF_INVALID_ARGUMENT, "gradient of %s: unsupported rank %d",
                    TFE_GradientContextOpType(L->g), r);
    return NULL;
  }
  memset(v, 0, sizeof v);
  if (r >= 2) {
    v[2 * (r - 2)] = a0;
    v[2 * (r - 2) + 1] = a1;
  }
  v[2 * (r - 1)] = b0;
  v[2 * (r - 1) + 1] = b1;
  dims[0] = r;
  dims[1] = 2;
  t = TF_AllocateTensor(TF_INT32, dims, 2, (size_t)r * 2 * sizeof(int32_t));
  if (t == NULL) {
    tfe_status_setf(L->s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return NULL;
  }
  memcpy(TF_TensorData(t), v, (size_t)r * 2 * sizeof(int32_t));
  op = gl_op(L->g, "Const", L->s);
  if (op != NULL && OK(L)) TFE_AbstractOpSetAttrTensor(op, "value", t, L->s);
  gl_set_type(op, "dtype", TF_INT32, L->s);
  res = K(L, gl_fin(op, L->s));
  TF_DeleteTensor(t);
  return res;
}

static T* fin(LA* L, TF_AbstractOp* op) { return K(L, gl_fin(op, L->s)); }

/* BatchMatMulV2 with adjoints. */
static T* mm(LA* L, T* a, T* b, int adj_a, int adj_b) {
  TF_AbstractOp* op = gl_op(L->g, "BatchMatMulV2", L->s);
  gl_in(op, a, L->s);
  gl_in(op, b, L->s);
  gl_set_bool(op, "adj_x", adj_a, L->s);
  gl_set_bool(op, "adj_y", adj_b, L->s);
  return fin(L, op);
}

/* x with its last two dimensions swapped (conjugated too when conj). */
static T* swap_last2(LA* L, T* x, int conj) {
  int32_t perm[32];
  int i, r = rank(L, x);
  T* t;
  if (!OK(L)) return NULL;
  if (r < 0 || r > 32) {
    /* rank unknown while tracing: perm = [0, ..., rank-3, rank-1, rank-2] */
    static const int32_t kLast2[2] = {-1, -2};
    T* rk = c1(L, "Rank", x);
    T* parts[2];
    parts[0] = K(L, gl_range(L->g, i32(L, 0), sub(L, rk, i32(L, 2)), i32(L, 1), L->s));
    parts[1] = add(L, vi32(L, kLast2, 2), rk);
    t = c2(L, "Transpose", x, concat(L, parts, 2, 0));
  } else if (r < 2) {
    tfe_status_setf(L->s, TF_INVALID_ARGUMENT,
                    "gradient of %s: a matrix transpose needs rank >= 2, got %d",
                    TFE_GradientContextOpType(L->g), r);
    return NULL;
  } else {
    for (i = 0; i < r; i++) perm[i] = i;
    perm[r - 2] = r - 1;
    perm[r - 1] = r - 2;
    t = c2(L, "Transpose", x, vi32(L, perm, r));
  }
  if (conj && is_cplx(dtype(L, x))) t = c1(L, "Conj", t);
  return t;
}
static T* adj(LA* L, T* x) { return swap_last2(L, x, 1); }
static T* tr(LA* L, T* x) { return swap_last2(L, x, 0); }
static T* cj(LA* L, T* x) {
  if (!OK(L) || x == NULL) return NULL;
  return is_cplx(dtype(L, x)) ? c1(L, "Conj", x) : x;
}

static T* band(LA* L, T* x, int64_t lo, int64_t hi) {
  TF_AbstractOp* op = gl_op(L->g, "MatrixBandPart", L->s);
  gl_in(op, x, L->s);
  gl_in(op, sc(L, TF_INT64, (double)lo), L->s);
  gl_in(op, sc(L, TF_INT64, (double)hi), L->s);
  return fin(L, op);
}
static T* dpart(LA* L, T* x) { return c1(L, "MatrixDiagPart", x); }
static T* sdiag(LA* L, T* x, T* d) { return c2(L, "MatrixSetDiag", x, d); }
static T* mdiag(LA* L, T* d) { return c1(L, "MatrixDiag", d); }
/* Identity matrices shaped like the square matrices x. */
static T* eye_like(LA* L, T* x) { return mdiag(L, c1(L, "OnesLike", dpart(L, x))); }

static T* expand(LA* L, T* x, int axis) { return c2(L, "ExpandDims", x, i32(L, axis)); }

static T* sum_axes(LA* L, T* x, T* axes, int keep) {
  return K(L, gl_sum(L->g, x, axes, keep, L->s));
}
static T* sum_last(LA* L, T* x) { return sum_axes(L, x, i32(L, -1), 0); }

static T* shape32(LA* L, T* x) { return K(L, gl_shape(L->g, x, TF_INT32, L->s)); }

static T* cast(LA* L, T* x, TF_DataType dt) { return K(L, gu_cast(L->g, x, dt, L->s)); }

static T* real_part(LA* L, T* x) {
  TF_AbstractOp* op = gl_op(L->g, "Real", L->s);
  gl_in(op, x, L->s);
  gl_set_type(op, "Tout", real_of(dtype(L, x)), L->s);
  return fin(L, op);
}

/* StridedSlice(x, begin, end, strides) with masks; n is the spec length. */
static T* sslice(LA* L, T* x, const int32_t* b, const int32_t* e, const int32_t* st, int n,
                 int begin_mask, int end_mask, int ellipsis_mask, int shrink_mask) {
  TF_AbstractOp* op;
  T *tb = vi32(L, b, n), *te = vi32(L, e, n), *ts = vi32(L, st, n);
  op = gl_op(L->g, "StridedSlice", L->s);
  gl_in(op, x, L->s);
  gl_in(op, tb, L->s);
  gl_in(op, te, L->s);
  gl_in(op, ts, L->s);
  gl_set_int(op, "begin_mask", begin_mask, L->s);
  gl_set_int(op, "end_mask", end_mask, L->s);
  gl_set_int(op, "ellipsis_mask", ellipsis_mask, L->s);
  gl_set_int(op, "shrink_axis_mask", shrink_mask, L->s);
  return fin(L, op);
}

/* x[..., lo:hi] on the last axis (has_lo/has_hi 0: open end). */
static T* slice_last(LA* L, T* x, int lo, int has_lo, int hi, int has_hi) {
  const int32_t b[2] = {0, lo}, e[2] = {0, hi}, st[2] = {1, 1};
  return sslice(L, x, b, e, st, 2, has_lo ? 0 : 2, has_hi ? 0 : 2, 1, 0);
}
/* x[..., lo:hi, :] on the second-to-last axis. */
static T* slice_row(LA* L, T* x, int lo, int has_lo, int hi, int has_hi) {
  const int32_t b[3] = {0, lo, 0}, e[3] = {0, hi, 0}, st[3] = {1, 1, 1};
  return sslice(L, x, b, e, st, 3, (has_lo ? 0 : 2) | 4, (has_hi ? 0 : 2) | 4, 1, 0);
}
/* x[..., k] (the last axis dropped). */
static T* pick_last(LA* L, T* x, int k) {
  const int32_t b[2] = {0, k}, e[2] = {0, k + 1}, st[2] = {1, 1};
  return sslice(L, x, b, e, st, 2, 0, 0, 1, 2);
}

static T* pack(LA* L, T** v, int n, int axis) {
  TF_AbstractOp* op = gl_op(L->g, "Pack", L->s);
  int i;
  for (i = 0; i < n; i++) {
    if (v[i] == NULL && OK(L)) tfe_status_setf(L->s, TF_INTERNAL, "gradient: missing tensor");
  }
  gl_in_list(op, v, n, L->s);
  gl_set_int(op, "axis", axis, L->s);
  return fin(L, op);
}

static T* concat(LA* L, T** v, int n, int axis) {
  TF_AbstractOp* op = gl_op(L->g, "ConcatV2", L->s);
  int i;
  for (i = 0; i < n; i++) {
    if (v[i] == NULL && OK(L)) tfe_status_setf(L->s, TF_INTERNAL, "gradient: missing tensor");
  }
  gl_in_list(op, v, n, L->s);
  gl_in(op, i32(L, axis), L->s);
  return fin(L, op);
}

static T* reshape(LA* L, T* x, T* shape) { return c2(L, "Reshape", x, shape); }

/* x * 1 / (x * x + 1e-20): a reciprocal that stays finite at 0 (TF's
 * Lorentz broadening for degenerate eigen/singular values). */
static T* safe_recip(LA* L, T* x) {
  T* den = add(L, mul(L, x, x), sc(L, dtype(L, x), 1e-20));
  return mul(L, x, c1(L, "Reciprocal", den));
}

static void unimpl(LA* L, const char* why) {
  if (OK(L)) {
    tfe_status_setf(L->s, TF_UNIMPLEMENTED, "gradient of %s: %s",
                    TFE_GradientContextOpType(L->g), why);
  }
}

/* ---- linear algebra ---- */

static void grad_matrix_inverse(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  int adjoint = TFE_GradientContextAttrBool(g, "adjoint", s);
  T* ainv = TFE_GradientContextOutput(g, 0);
  la_init(&L, g, s);
  give(&L, 0, neg(&L, mm(&L, ainv, mm(&L, gu_upstream(g), ainv, adjoint, !adjoint), !adjoint, 0)));
  la_end(&L);
}

/* A matrix inverse of a, adjoint. */
static T* inverse_adj(LA* L, T* a) {
  TF_AbstractOp* op = gl_op(L->g, "MatrixInverse", L->s);
  gl_in(op, a, L->s);
  gl_set_bool(op, "adjoint", 1, L->s);
  return fin(L, op);
}

static void grad_matrix_determinant(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  T *m, *inv;
  la_init(&L, g, s);
  inv = inverse_adj(&L, in(&L, 0));
  m = mul(&L, gu_upstream(g), out(&L, 0));
  m = expand(&L, expand(&L, m, -1), -1);
  give(&L, 0, mul(&L, m, inv));
  la_end(&L);
}

static void grad_log_matrix_determinant(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  T *m, *inv;
  la_init(&L, g, s);
  inv = inverse_adj(&L, in(&L, 0));
  m = expand(&L, expand(&L, dout(&L, 1), -1), -1);
  give(&L, 0, mul(&L, m, inv));
  la_end(&L);
}

static T* tri_solve(LA* L, T* a, T* b, int lower, int adjoint) {
  TF_AbstractOp* op = gl_op(L->g, "MatrixTriangularSolve", L->s);
  gl_in(op, a, L->s);
  gl_in(op, b, L->s);
  gl_set_bool(op, "lower", lower, L->s);
  gl_set_bool(op, "adjoint", adjoint, L->s);
  return fin(L, op);
}

/* l^-H ((l^H dl) restricted to the lower triangle, half diagonal) l^-1,
 * symmetrized. */
static void grad_cholesky(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  T *l, *linv, *mid, *ga;
  la_init(&L, g, s);
  l = out(&L, 0);
  linv = tri_solve(&L, l, eye_like(&L, l), 1, 0);
  mid = mm(&L, l, gu_upstream(g), 1, 0);
  mid = sdiag(&L, mid, mul(&L, sc(&L, dtype(&L, l), 0.5), dpart(&L, mid)));
  mid = band(&L, mid, -1, 0);
  ga = mm(&L, mm(&L, linv, mid, 1, 0), linv, 0, 0);
  ga = add(&L, ga, adj(&L, ga));
  give(&L, 0, mul(&L, ga, sc(&L, dtype(&L, l), 0.5)));
  la_end(&L);
}

static void grad_matrix_solve(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  int adjoint = TFE_GradientContextAttrBool(g, "adjoint", s);
  T *gb, *c;
  TF_AbstractOp* op;
  la_init(&L, g, s);
  c = out(&L, 0);
  op = gl_op(g, "MatrixSolve", s);
  gl_in(op, in(&L, 0), s);
  gl_in(op, gu_upstream(g), s);
  gl_set_bool(op, "adjoint", !adjoint, s);
  gb = fin(&L, op);
  give(&L, 0, neg(&L, adjoint ? mm(&L, c, gb, 0, 1) : mm(&L, gb, c, 0, 1)));
  give(&L, 1, gb);
  la_end(&L);
}

/* Sums the gradients of a batched (a, b) pair over the batch dimensions
 * broadcasting added, unless a's and b's batch shapes are equal. */
static void unbroadcast_batch(LA* L, T* a, T* b, T** ga, T** gb) {
  int ra = rank(L, a), rb = rank(L, b), i, same = ra == rb && ra >= 0;
  T *sa, *sb, *ba, *bb, *r[2];
  TF_AbstractOp* op;
  static const int32_t kB[1] = {0}, kE[1] = {-2}, kS[1] = {1};
  for (i = 0; same && i < ra - 2; i++) {
    int64_t da = dim(L, a, i), db = dim(L, b, i);
    if (da < 0 || da != db) same = 0;
  }
  if (same || !OK(L)) return;
  sa = shape32(L, a);
  sb = shape32(L, b);
  ba = sslice(L, sa, kB, kE, kS, 1, 0, 0, 0, 0);
  bb = sslice(L, sb, kB, kE, kS, 1, 0, 0, 0, 0);
  op = gl_op(L->g, "BroadcastGradientArgs", L->s);
  gl_in(op, ba, L->s);
  gl_in(op, bb, L->s);
  gl_fin_n(op, 2, r, L->s);
  K(L, r[0]);
  K(L, r[1]);
  *ga = reshape(L, sum_axes(L, *ga, r[0], 0), sa);
  *gb = reshape(L, sum_axes(L, *gb, r[1], 0), sb);
}

static void grad_matrix_triangular_solve(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  int adjoint = TFE_GradientContextAttrBool(g, "adjoint", s);
  int lower = TFE_GradientContextAttrBool(g, "lower", s);
  T *gb, *ga, *c;
  la_init(&L, g, s);
  c = out(&L, 0);
  gb = tri_solve(&L, in(&L, 0), gu_upstream(g), lower, !adjoint);
  ga = neg(&L, adjoint ? mm(&L, c, gb, 0, 1) : mm(&L, gb, c, 0, 1));
  ga = lower ? band(&L, ga, -1, 0) : band(&L, ga, 0, -1);
  unbroadcast_batch(&L, in(&L, 0), in(&L, 1), &ga, &gb);
  give(&L, 0, ga);
  give(&L, 1, gb);
  la_end(&L);
}

static void grad_banded_triangular_solve(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  int adjoint = TFE_GradientContextAttrBool(g, "adjoint", s);
  int lower = TFE_GradientContextAttrBool(g, "lower", s);
  T *gb, *ga, *c, *a;
  int64_t nb;
  int32_t k[2];
  TF_AbstractOp* op;
  la_init(&L, g, s);
  a = in(&L, 0);
  c = out(&L, 0);
  nb = dim(&L, a, -2);
  op = gl_op(g, "BandedTriangularSolve", s);
  gl_in(op, a, s);
  gl_in(op, gu_upstream(g), s);
  gl_set_bool(op, "lower", lower, s);
  gl_set_bool(op, "adjoint", !adjoint, s);
  gb = fin(&L, op);
  ga = neg(&L, adjoint ? mm(&L, c, gb, 0, 1) : mm(&L, gb, c, 0, 1));
  op = gl_op(g, "MatrixDiagPartV3", s);
  gl_in(op, ga, s);
  if (nb >= 0) {
    k[0] = lower ? (int32_t)-(nb - 1) : 0;
    k[1] = lower ? 0 : (int32_t)(nb - 1);
    gl_in(op, vi32(&L, k, 2), s);
  } else {
    /* the band count known only at run time: k from Shape(a)[-2] */
    T* span = sub(&L, dyn_dim(&L, a, -2), i32(&L, 1));
    T* kv[2];
    kv[0] = lower ? neg(&L, span) : i32(&L, 0);
    kv[1] = lower ? i32(&L, 0) : span;
    gl_in(op, pack(&L, kv, 2, 0), s);
  }
  gl_in(op, sc(&L, dtype(&L, a), 0.0), s);
  if (op != NULL && OK(&L)) TFE_AbstractOpSetAttrString(op, "align", "LEFT_RIGHT", 10, s);
  ga = fin(&L, op);
  unbroadcast_batch(&L, a, in(&L, 1), &ga, &gb);
  give(&L, 0, ga);
  give(&L, 1, gb);
  la_end(&L);
}

/* Builds the Sylvester system R dX + dX R = dA as a Kronecker-product
 * linear solve, with static shapes. */
static void grad_matrix_square_root(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  T *r, *eye, *k1, *k2, *vda, *vdr;
  int rk, i;
  int64_t m;
  int32_t sh[40], s1[40], s2[40], sk[40], sv[40];
  la_init(&L, g, s);
  r = out(&L, 0);
  rk = rank(&L, r);
  m = dim(&L, r, -1);
  if (rk < 2 || rk > 32 || m < 0) unimpl(&L, "the matrix shape must be known");
  for (i = 0; OK(&L) && i < rk - 2; i++) {
    int64_t d = dim(&L, r, i);
    if (d < 0) unimpl(&L, "the batch shape must be known");
    sh[i] = s1[i] = s2[i] = sk[i] = sv[i] = (int32_t)d;
  }
  if (!OK(&L)) {
    la_end(&L);
    return;
  }
  sh[rk - 2] = sh[rk - 1] = (int32_t)m;
  /* b1 as [..., m, 1, m, 1], b2 as [..., 1, m, 1, m] */
  s1[rk - 2] = (int32_t)m, s1[rk - 1] = 1, s1[rk] = (int32_t)m, s1[rk + 1] = 1;
  s2[rk - 2] = 1, s2[rk - 1] = (int32_t)m, s2[rk] = 1, s2[rk + 1] = (int32_t)m;
  sk[rk - 2] = sk[rk - 1] = (int32_t)(m * m);
  sv[rk - 2] = (int32_t)(m * m), sv[rk - 1] = 1;
  eye = eye_like(&L, r);
  k1 = reshape(&L, mul(&L, reshape(&L, eye, vi32(&L, s1, rk + 2)),
                       reshape(&L, tr(&L, r), vi32(&L, s2, rk + 2))),
               vi32(&L, sk, rk));
  k2 = reshape(&L, mul(&L, reshape(&L, r, vi32(&L, s1, rk + 2)),
                       reshape(&L, eye, vi32(&L, s2, rk + 2))),
               vi32(&L, sk, rk));
  vda = reshape(&L, tr(&L, gu_upstream(g)), vi32(&L, sv, rk));
  vdr = c2(&L, "MatrixSolve", add(&L, k1, k2), vda);
  give(&L, 0, tr(&L, reshape(&L, vdr, vi32(&L, sh, rk))));
  la_end(&L);
}

/* x r^-H for an upper triangular r. */
static T* qr_tri(LA* L, T* x, T* r) { return adj(L, tri_solve(L, r, adj(L, x), 0, 0)); }

static T* qr_square_deep(LA* L, T* q, T* r, T* dq, T* dr) {
  T *qdq = mm(L, q, dq, 1, 0), *rdr = mm(L, r, dr, 0, 1), *tril, *ret;
  tril = band(L, add(L, sub(L, qdq, adj(L, qdq)), sub(L, rdr, adj(L, rdr))), -1, 0);
  ret = add(L, mm(L, q, add(L, dr, qr_tri(L, tril, r)), 0, 0),
            qr_tri(L, sub(L, dq, mm(L, q, qdq, 0, 0)), r));
  if (is_cplx(dtype(L, q))) {
    T* m = sub(L, rdr, adj(L, qdq));
    T* eyem = sdiag(L, c1(L, "ZerosLike", m), dpart(L, m));
    T* corr = sub(L, eyem, cast(L, real_part(L, eyem), dtype(L, q)));
    ret = add(L, ret, qr_tri(L, mm(L, q, adj(L, corr), 0, 0), r));
  }
  return ret;
}

static void grad_qr(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  T *q, *r, *dq, *dr;
  int64_t qm, qn, rm, rn;
  la_init(&L, g, s);
  q = out(&L, 0);
  r = out(&L, 1);
  qm = dim(&L, q, -2);
  qn = dim(&L, q, -1);
  rm = dim(&L, r, -2);
  rn = dim(&L, r, -1);
  if (qm < 0 || qn < 0 || rm < 0 || rn < 0) {
    unimpl(&L, "QrGrad not implemented with dynamic shapes");
  } else if (rm > rn && qm == qn) {
    unimpl(&L, "QrGrad not implemented when nrows > ncols and full_matrices is true");
  }
  dq = dout(&L, 0);
  dr = dout(&L, 1);
  if (qm >= rn) {
    give(&L, 0, qr_square_deep(&L, q, r, dq, dr));
  } else if (OK(&L)) {
    int m = (int)qm;
    T* y = slice_last(&L, in(&L, 0), m, 1, 0, 0);
    T* u = slice_last(&L, r, 0, 0, m, 1);
    T* dv = slice_last(&L, dr, m, 1, 0, 0);
    T* du = slice_last(&L, dr, 0, 0, m, 1);
    T* parts[2];
    parts[1] = mm(&L, q, dv, 0, 0);
    parts[0] = qr_square_deep(&L, q, u, add(&L, dq, mm(&L, y, dv, 0, 1)), du);
    give(&L, 0, concat(&L, parts, 2, -1));
  }
  la_end(&L);
}

/* f(i, j) = 1 / (e_j - e_i) off the diagonal (safe), 0 on it. */
static T* eig_f(LA* L, T* e) {
  T* d = sub(L, expand(L, e, -2), expand(L, e, -1));
  return sdiag(L, safe_recip(L, d), c1(L, "ZerosLike", e));
}

static void grad_self_adjoint_eig_v2(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  int compute_v = TFE_GradientContextAttrBool(g, "compute_v", s);
  T *e, *v, *ge, *ga;
  la_init(&L, g, s);
  e = out(&L, 0);
  ge = dout(&L, 0);
  if (compute_v) {
    T *gv = dout(&L, 1), *f = eig_f(&L, e);
    v = out(&L, 1);
    ga = mm(&L, v, mm(&L, add(&L, mdiag(&L, ge), mul(&L, f, mm(&L, v, gv, 1, 0))), v, 0, 1), 0,
            0);
  } else {
    TF_AbstractOp* op = gl_op(g, "SelfAdjointEigV2", s);
    T* o[2];
    gl_in(op, in(&L, 0), s);
    gl_set_bool(op, "compute_v", 1, s);
    gl_fin_n(op, 2, o, s);
    K(&L, o[0]);
    v = K(&L, o[1]);
    ga = mm(&L, v, mm(&L, mdiag(&L, ge), v, 0, 1), 0, 0);
  }
  ga = band(&L, add(&L, ga, adj(&L, ga)), -1, 0);
  ga = sdiag(&L, ga, mul(&L, sc(&L, dtype(&L, ga), 0.5), dpart(&L, ga)));
  give(&L, 0, ga);
  la_end(&L);
}

static void grad_svd(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  int compute_uv = TFE_GradientContextAttrBool(g, "compute_uv", s);
  int full = TFE_GradientContextAttrBool(g, "full_matrices", s);
  T *a, *gs, *gsm, *sv, *u, *v, *gu, *gv, *smat, *f, *sinv, *v1, *gv1, *ugu, *vgv, *fu, *fv;
  T *t1n, *gb;
  int64_t m, n;
  int use_adj = 0;
  TF_DataType dt;
  la_init(&L, g, s);
  a = in(&L, 0);
  dt = dtype(&L, a);
  gs = dout(&L, 0);
  gsm = mdiag(&L, gs);
  if (!compute_uv) {
    TF_AbstractOp* op = gl_op(g, "Svd", s);
    T* o[3];
    gl_in(op, a, s);
    gl_set_bool(op, "compute_uv", 1, s);
    gl_set_bool(op, "full_matrices", 0, s);
    gl_fin_n(op, 3, o, s);
    K(&L, o[0]);
    K(&L, o[1]);
    K(&L, o[2]);
    give(&L, 0, mm(&L, o[1], mm(&L, gsm, o[2], 0, 1), 0, 0));
    la_end(&L);
    return;
  }
  m = dim(&L, a, -2);
  n = dim(&L, a, -1);
  if (m < 0 || n < 0) {
    unimpl(&L, "SVD gradient has not been implemented for input with unknown inner matrix shape");
    la_end(&L);
    return;
  }
  sv = out(&L, 0);
  u = out(&L, 1);
  v = out(&L, 2);
  gu = dout(&L, 1);
  gv = dout(&L, 2);
  if (m > n) {
    int64_t tmp = m;
    T* t;
    use_adj = 1;
    m = n;
    n = tmp;
    t = u, u = v, v = t;
    t = gu, gu = gv, gv = t;
  }
  if (full && n - m > 1) {
    unimpl(&L, "svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True");
    la_end(&L);
    return;
  }
  smat = mdiag(&L, sv);
  f = eig_f(&L, c1(&L, "Square", sv));
  sinv = mdiag(&L, safe_recip(&L, sv));
  v1 = slice_last(&L, v, 0, 0, (int)m, 1);
  gv1 = slice_last(&L, gv, 0, 0, (int)m, 1);
  ugu = mm(&L, u, gu, 1, 0);
  vgv = mm(&L, v1, gv1, 1, 0);
  fu = mul(&L, f, ugu);
  fv = mul(&L, f, vgv);
  t1n = add(&L, add(&L, gsm, mm(&L, add(&L, fu, adj(&L, fu)), smat, 0, 0)),
            mm(&L, smat, add(&L, fv, adj(&L, fv)), 0, 0));
  gb = mm(&L, u, mm(&L, t1n, v1, 0, 1), 0, 0);
  if (m != n) {
    T* gv1t = adj(&L, gv1);
    T* t2n = sub(&L, gv1t, mm(&L, mm(&L, gv1t, v1, 0, 0), v1, 0, 1));
    if (full) {
      T* v2 = slice_last(&L, v, (int)m, 1, (int)n, 1);
      T* gv2 = slice_last(&L, gv, (int)m, 1, (int)n, 1);
      t2n = sub(&L, t2n, mm(&L, mm(&L, v1, gv2, 1, 0), v2, 0, 1));
    }
    gb = add(&L, gb, mm(&L, mm(&L, u, sinv, 0, 0), t2n, 0, 0));
  }
  if (is_cplx(dt)) {
    T* l = mul(&L, eye_like(&L, vgv), vgv);
    T* t3n = mm(&L, sinv, sub(&L, adj(&L, l), l), 0, 0);
    gb = add(&L, gb, mul(&L, sc(&L, dt, 0.5), mm(&L, u, mm(&L, t3n, v1, 0, 1), 0, 0)));
  }
  give(&L, 0, use_adj ? adj(&L, gb) : gb);
  la_end(&L);
}

/* x shifted up (left) or down (right) by one row on axis -2, zero-filled. */
static T* shift_rows(LA* L, T* x, int left) {
  if (left) return c2(L, "Pad", slice_row(L, x, 1, 1, 0, 0), pads_last2(L, x, 0, 1, 0, 0));
  return c2(L, "Pad", slice_row(L, x, 0, 0, -1, 1), pads_last2(L, x, 1, 0, 0, 0));
}

static void grad_tridiagonal_matmul(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  T *sup_c, *main_c, *sub_c, *rhs_c, *dy, *r;
  la_init(&L, g, s);
  dy = gu_upstream(g);
  sup_c = adj(&L, in(&L, 0));
  main_c = adj(&L, in(&L, 1));
  sub_c = adj(&L, in(&L, 2));
  rhs_c = cj(&L, in(&L, 3));
  give(&L, 0, expand(&L, sum_last(&L, mul(&L, shift_rows(&L, rhs_c, 1), dy)), -2));
  give(&L, 1, expand(&L, sum_last(&L, mul(&L, rhs_c, dy)), -2));
  give(&L, 2, expand(&L, sum_last(&L, mul(&L, shift_rows(&L, rhs_c, 0), dy)), -2));
  r = add(&L, shift_rows(&L, mul(&L, sup_c, dy), 0), mul(&L, main_c, dy));
  give(&L, 3, add(&L, r, shift_rows(&L, mul(&L, sub_c, dy), 1)));
  la_end(&L);
}

/* The three diagonals (super, main, sub) of x y^T, in compact form. */
static T* three_diagonals(LA* L, T* x, T* y) {
  T* d[3];
  d[1] = sum_last(L, mul(L, x, y));
  d[0] = sum_last(L, mul(L, x, shift_rows(L, y, 1)));
  d[2] = sum_last(L, mul(L, x, shift_rows(L, y, 0)));
  return pack(L, d, 3, -2);
}

/* The diagonals [..., 3, m] of the transposed tridiagonal matrix: the
 * superdiagonal becomes the subdiagonal shifted right by one and the other
 * way round. */
static T* transpose_tridiagonal(LA* L, T* diags) {
  /* slice specs on (..., row, column): diags[..., 1, :], diags[..., 2, 1:],
   * diags[..., 0, :-1] (the row axis dropped) */
  static const int32_t kMainB[3] = {0, 1, 0}, kMainE[3] = {0, 2, 0};
  static const int32_t kSupB[3] = {0, 2, 1}, kSupE[3] = {0, 3, 0};
  static const int32_t kSubB[3] = {0, 0, 0}, kSubE[3] = {0, 1, -1};
  static const int32_t kStep[3] = {1, 1, 1};
  T *d[3], *sup, *sub_;
  d[1] = sslice(L, diags, kMainB, kMainE, kStep, 3, 4, 4, 1, 2);
  sup = sslice(L, diags, kSupB, kSupE, kStep, 3, 0, 4, 1, 2);
  sub_ = sslice(L, diags, kSubB, kSubE, kStep, 3, 0, 0, 1, 2);
  d[0] = c2(L, "Pad", sup, pads_last2(L, sup, 0, 0, 0, 1));
  d[2] = c2(L, "Pad", sub_, pads_last2(L, sub_, 0, 0, 1, 0));
  return pack(L, d, 3, -2);
}

/* dx = solve(A^T, dy); d(diags) = -the three diagonals of dx x^T. */
static void grad_tridiagonal_solve(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  T* grhs;
  TF_AbstractOp* op;
  la_init(&L, g, s);
  op = gl_op(g, "TridiagonalSolve", s);
  gl_in(op, transpose_tridiagonal(&L, in(&L, 0)), s);
  gl_in(op, gu_upstream(g), s);
  gl_cp_bool(g, op, "partial_pivoting", s);
  gl_cp_bool(g, op, "perturb_singular", s);
  grhs = fin(&L, op);
  give(&L, 0, neg(&L, three_diagonals(&L, grhs, out(&L, 0))));
  give(&L, 1, grhs);
  la_end(&L);
}

/* Each gradient replaced by the mean over its segment (per row). */
static void grad_isotonic_regression(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  static const int32_t kFlat[1] = {-1};
  T *dy, *seg, *n, *rows, *off, *ids, *flat, *means;
  int64_t w;
  la_init(&L, g, s);
  if (TFE_GradientContextOutputGradient(g, 0) == NULL) {
    la_end(&L);
    return;
  }
  dy = gu_upstream(g);
  seg = out(&L, 1);
  w = dim(&L, seg, -1);
  n = w >= 0 ? i32(&L, (int32_t)w) : dyn_dim(&L, seg, -1);
  {
    T* rows2[2];
    T* seg2;
    rows2[0] = i32(&L, -1);
    rows2[1] = n;
    seg2 = reshape(&L, seg, pack(&L, rows2, 2, 0));
    rows = c1(&L, "Shape", seg2);
    rows = sslice(&L, rows, (const int32_t[]){0}, (const int32_t[]){1}, (const int32_t[]){1}, 1,
                  0, 0, 0, 1);
    off = mul(&L, K(&L, gl_range(g, i32(&L, 0), rows, i32(&L, 1), s)), n);
    ids = add(&L, seg2, expand(&L, off, -1));
  }
  ids = reshape(&L, ids, vi32(&L, kFlat, 1));
  flat = reshape(&L, dy, vi32(&L, kFlat, 1));
  means = c2(&L, "SegmentMean", flat, ids);
  {
    TF_AbstractOp* op = gl_op(g, "GatherV2", s);
    gl_in(op, means, s);
    gl_in(op, ids, s);
    gl_in(op, i32(&L, 0), s);
    give(&L, 0, reshape(&L, fin(&L, op), shape32(&L, dy)));
  }
  la_end(&L);
}

/* ---- FFT ---- */

/* The product of the last `r` dimensions of x, as a scalar of dtype dt. */
static T* size_last(LA* L, T* x, int r, TF_DataType dt) {
  const int32_t b[1] = {-r}, e[1] = {0}, st[1] = {1};
  T* dims = sslice(L, shape32(L, x), b, e, st, 1, 0, 1, 0, 0);
  T* p = c2(L, "Prod", dims, i32(L, 0));
  return cast(L, p, dt);
}

static void grad_fft_common(TFE_GradientContext* g, TF_Status* s, const char* inv, int r,
                            int scale_down) {
  LA L;
  T *dy, *f, *sz;
  TF_DataType dt;
  la_init(&L, g, s);
  dy = gu_upstream(g);
  dt = dtype(&L, dy);
  f = c1(&L, inv, dy);
  sz = scale_down ? cast(&L, c1(&L, "Reciprocal", size_last(&L, dy, r, real_of(dt))), dt)
                  : size_last(&L, dy, r, dt);
  give(&L, 0, mul(&L, f, sz));
  la_end(&L);
}
static void grad_fft(TFE_GradientContext* g, TF_Status* s) { grad_fft_common(g, s, "IFFT", 1, 0); }
static void grad_ifft(TFE_GradientContext* g, TF_Status* s) { grad_fft_common(g, s, "FFT", 1, 1); }
static void grad_fft2d(TFE_GradientContext* g, TF_Status* s) {
  grad_fft_common(g, s, "IFFT2D", 2, 0);
}
static void grad_ifft2d(TFE_GradientContext* g, TF_Status* s) {
  grad_fft_common(g, s, "FFT2D", 2, 1);
}
static void grad_fft3d(TFE_GradientContext* g, TF_Status* s) {
  grad_fft_common(g, s, "IFFT3D", 3, 0);
}
static void grad_ifft3d(TFE_GradientContext* g, TF_Status* s) {
  grad_fft_common(g, s, "FFT3D", 3, 1);
}

/* fft_length[-1] % 2 as an int32 scalar. */
static T* fft_last_odd(LA* L) {
  T* fl = sslice(L, in(L, 1), (const int32_t[]){-1}, (const int32_t[]){0}, (const int32_t[]){1},
                 1, 0, 1, 0, 1);
  return c2(L, "FloorMod", fl, i32(L, 2));
}

/* [1, -1, 1, -1, ...] of length n (an int32 scalar tensor), dtype dt. */
static T* alternating(LA* L, T* n, TF_DataType dt) {
  T* k = K(L, gl_range(L->g, i32(L, 0), n, i32(L, 1), L->s));
  T* v = sub(L, i32(L, 1), mul(L, i32(L, 2), c2(L, "FloorMod", k, i32(L, 2))));
  return cast(L, v, dt);
}

/* dim(x)[axis] as an int32 scalar tensor. */
static T* dyn_dim(LA* L, T* x, int axis) {
  T* sh = shape32(L, x);
  const int32_t b[1] = {axis}, e[1] = {axis + 1}, st[1] = {1};
  return sslice(L, sh, b, e, st, 1, 0, axis == -1 ? 1 : 0, 0, 1);
}

/* RFFT / RFFT2D: the IRFFT of the gradient scaled by the input size, plus
 * the terms Hermitian symmetry dropped, halved. */
static void grad_rfft_common(TFE_GradientContext* g, TF_Status* s, int r) {
  LA L;
  T *dy, *x, *y0, *ym, *is_even, *extra, *irf, *res;
  TF_DataType cdt, rdt;
  TF_AbstractOp* op;
  la_init(&L, g, s);
  dy = gu_upstream(g);
  x = in(&L, 0);
  cdt = dtype(&L, dy);
  rdt = real_of(cdt);
  is_even = cast(&L, sub(&L, i32(&L, 1), fft_last_odd(&L)), cdt);
  y0 = slice_last(&L, dy, 0, 1, 1, 1);
  ym = slice_last(&L, dy, -1, 1, 0, 0);
  if (r == 1) {
    extra = add(&L, y0, mul(&L, mul(&L, is_even, ym), alternating(&L, dyn_dim(&L, x, -1), cdt)));
  } else {
    /* mask[a][b] = exp(-2 pi i a b / n) with n = rows of the input */
    T* n = dyn_dim(&L, x, -2);
    T* k = K(&L, gl_range(g, i32(&L, 0), n, i32(&L, 1), s));
    T* ab = mul(&L, expand(&L, k, -1), expand(&L, k, 0));
    T* ph = c2(&L, "RealDiv", mul(&L, csc(&L, cdt, 0.0, -2.0 * kPi), cast(&L, ab, cdt)),
               cast(&L, n, cdt));
    T* mask = c1(&L, "Exp", ph);
    T* y0t = mm(&L, mask, cj(&L, y0), 0, 0);
    T* ymt = mm(&L, mask, cj(&L, ym), 0, 0);
    ymt = mul(&L, ymt, alternating(&L, dyn_dim(&L, x, -1), cdt));
    extra = add(&L, y0t, mul(&L, is_even, ymt));
  }
  op = gl_op(g, r == 1 ? "IRFFT" : "IRFFT2D", s);
  gl_in(op, dy, s);
  gl_in(op, in(&L, 1), s);
  gl_set_type(op, "Treal", rdt, s);
  gl_set_type(op, "Tcomplex", cdt, s);
  irf = fin(&L, op);
  res = add(&L, mul(&L, irf, size_last(&L, x, r, rdt)), real_part(&L, extra));
  give(&L, 0, mul(&L, sc(&L, rdt, 0.5), res));
  la_end(&L);
}
static void grad_rfft(TFE_GradientContext* g, TF_Status* s) { grad_rfft_common(g, s, 1); }
static void grad_rfft2d(TFE_GradientContext* g, TF_Status* s) { grad_rfft_common(g, s, 2); }

/* IRFFT / IRFFT2D: the RFFT of the gradient over the output size, with the
 * de-duplicated Hermitian components counted twice. */
static void grad_irfft_common(TFE_GradientContext* g, TF_Status* s, int r) {
  LA L;
  T *dy, *odd, *last, *parts[3], *mask, *rs, *rf;
  TF_DataType rdt, cdt;
  TF_AbstractOp* op;
  static const int32_t kOne[1] = {1};
  la_init(&L, g, s);
  dy = gu_upstream(g);
  rdt = dtype(&L, dy);
  cdt = rdt == TF_DOUBLE ? TF_COMPLEX128 : TF_COMPLEX64;
  odd = fft_last_odd(&L);
  last = dyn_dim(&L, in(&L, 0), -1);
  parts[0] = c2(&L, "Fill", vi32(&L, kOne, 1), sc(&L, rdt, 1.0));
  parts[1] = c2(&L, "Fill", reshape(&L, add(&L, sub(&L, last, i32(&L, 2)), odd), vi32(&L, kOne, 1)),
                sc(&L, rdt, 2.0));
  parts[2] = c2(&L, "Fill", reshape(&L, sub(&L, i32(&L, 1), odd), vi32(&L, kOne, 1)),
                sc(&L, rdt, 1.0));
  mask = concat(&L, parts, 3, 0);
  rs = c1(&L, "Reciprocal", size_last(&L, dy, r, rdt));
  op = gl_op(g, r == 1 ? "RFFT" : "RFFT2D", s);
  gl_in(op, dy, s);
  gl_in(op, in(&L, 1), s);
  gl_set_type(op, "Treal", rdt, s);
  gl_set_type(op, "Tcomplex", cdt, s);
  rf = fin(&L, op);
  give(&L, 0, mul(&L, rf, cast(&L, mul(&L, rs, mask), cdt)));
  la_end(&L);
}
static void grad_irfft(TFE_GradientContext* g, TF_Status* s) { grad_irfft_common(g, s, 1); }
static void grad_irfft2d(TFE_GradientContext* g, TF_Status* s) { grad_irfft_common(g, s, 2); }

/* ---- image ---- */

static void grad_resize_bilinear(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, "ResizeBilinearGrad", s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, TFE_GradientContextInput(g, 0), s);
  gl_cp_bool(g, op, "align_corners", s);
  gl_cp_bool(g, op, "half_pixel_centers", s);
  gu_give(g, 0, gl_fin(op, s), s);
}

static void grad_resize_nearest(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  TF_AbstractOp* op;
  const int32_t b[1] = {1}, e[1] = {3}, st[1] = {1};
  la_init(&L, g, s);
  op = gl_op(g, "ResizeNearestNeighborGrad", s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, sslice(&L, shape32(&L, in(&L, 0)), b, e, st, 1, 0, 0, 0, 0), s);
  gl_cp_bool(g, op, "align_corners", s);
  gl_cp_bool(g, op, "half_pixel_centers", s);
  give(&L, 0, fin(&L, op));
  la_end(&L);
}




static void grad_resize_bicubic(TFE_GradientContext* g, TF_Status* s) {
  TF_DataType dt = TFE_AbstractTensorDataType(TFE_GradientContextInput(g, 0), s);
  TF_AbstractOp* op;
  if (dt != TF_FLOAT && dt != TF_DOUBLE) return;
  op = gl_op(g, "ResizeBicubicGrad", s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, TFE_GradientContextInput(g, 0), s);
  gl_cp_bool(g, op, "align_corners", s);
  gl_cp_bool(g, op, "half_pixel_centers", s);
  gu_give(g, 0, gl_fin(op, s), s);
}

static void grad_scale_and_translate(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, "ScaleAndTranslateGrad", s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, TFE_GradientContextInput(g, 0), s);
  gl_in(op, TFE_GradientContextInput(g, 2), s);
  gl_in(op, TFE_GradientContextInput(g, 3), s);
  gl_cp_str(g, op, "kernel_type", s);
  gl_cp_bool(g, op, "antialias", s);
  gu_give(g, 0, gl_fin(op, s), s);
}

static void grad_crop_and_resize(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  TF_DataType dt = TFE_AbstractTensorDataType(TFE_GradientContextInput(g, 0), s);
  TF_AbstractOp* op;
  la_init(&L, g, s);
  if (dt == TF_HALF || dt == TF_FLOAT || dt == TF_DOUBLE) {
    op = gl_op(g, "CropAndResizeGradImage", s);
    gl_in(op, gu_upstream(g), s);
    gl_in(op, in(&L, 1), s);
    gl_in(op, in(&L, 2), s);
    gl_in(op, shape32(&L, in(&L, 0)), s);
    gl_set_type(op, "T", dt, s);
    gl_cp_str(g, op, "method", s);
    give(&L, 0, fin(&L, op));
  }
  op = gl_op(g, "CropAndResizeGradBoxes", s);
  gl_in(op, gu_upstream(g), s);
  gl_in(op, in(&L, 0), s);
  gl_in(op, in(&L, 1), s);
  gl_in(op, in(&L, 2), s);
  give(&L, 1, fin(&L, op));
  la_end(&L);
}

static T* gtf(LA* L, const char* cmp, T* a, T* b, TF_DataType dt) {
  return cast(L, c2(L, cmp, a, b), dt);
}
static T* land(LA* L, T* a, T* b) { return c2(L, "LogicalAnd", a, b); }
/* cast((a cmp1 b) & (c cmp2 d)) */
static T* both(LA* L, const char* c1n, T* a, T* b, const char* c2n, T* c, T* d, TF_DataType dt) {
  return cast(L, land(L, c2(L, c1n, a, b), c2(L, c2n, c, d)), dt);
}
static T* rcp(LA* L, T* x) { return c2(L, "DivNoNan", sc(L, dtype(L, x), 1.0), x); }
static T* pos(LA* L, T* x, TF_DataType dt) { return gtf(L, "Greater", x, sc(L, dt, 0.0), dt); }
static T* mul3(LA* L, T* a, T* b, T* c) { return mul(L, mul(L, a, b), c); }

/* RGBToHSV: the partials of value, saturation and hue with respect to r, g
 * and b on each piece of the max/min case split (ties broken r > g > b, as
 * TF), weighted by the upstream gradient of each output channel. */
static void grad_rgb_to_hsv(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  T *x, *y, *r, *gr, *b, *sat, *val, *rB, *gB, *bB, *rS, *gS, *bS, *dy, *k60;
  T *dsr, *dsg, *dsb, *dhr, *dhg, *dhb, *isv, *v[3], *dv, *ds, *dh;
  TF_DataType dt;
  la_init(&L, g, s);
  x = in(&L, 0);
  y = out(&L, 0);
  dy = gu_upstream(g);
  dt = dtype(&L, x);
  r = pick_last(&L, x, 0);
  gr = pick_last(&L, x, 1);
  b = pick_last(&L, x, 2);
  sat = pick_last(&L, y, 1);
  val = pick_last(&L, y, 2);
  k60 = sc(&L, dt, 60.0);
  rB = both(&L, "GreaterEqual", r, b, "GreaterEqual", r, gr, dt);
  gB = both(&L, "Greater", gr, r, "GreaterEqual", gr, b, dt);
  bB = both(&L, "Greater", b, r, "Greater", b, gr, dt);
  rS = both(&L, "Less", r, b, "Less", r, gr, dt);
  gS = both(&L, "LessEqual", gr, r, "Less", gr, b, dt);
  bS = both(&L, "LessEqual", b, r, "LessEqual", b, gr, dt);
  /* saturation */
  dsr = mul(&L, pos(&L, r, dt),
            add(&L, mul3(&L, rB, add(&L, mul(&L, gS, gr), mul(&L, bS, b)),
                         rcp(&L, c1(&L, "Square", r))),
                neg(&L, mul(&L, rS, rcp(&L, add(&L, mul(&L, gB, gr), mul(&L, bB, b)))))));
  dsg = mul(&L, pos(&L, gr, dt),
            add(&L, mul3(&L, gB, add(&L, mul(&L, rS, r), mul(&L, bS, b)),
                         rcp(&L, c1(&L, "Square", gr))),
                neg(&L, mul(&L, gS, rcp(&L, add(&L, mul(&L, rB, r), mul(&L, bB, b)))))));
  dsb = mul(&L, pos(&L, b, dt),
            add(&L, mul3(&L, bB, add(&L, mul(&L, gS, gr), mul(&L, rS, r)),
                         rcp(&L, c1(&L, "Square", b))),
                neg(&L, mul(&L, bS, rcp(&L, add(&L, mul(&L, gB, gr), mul(&L, rB, r)))))));
  /* hue */
  isv = mul(&L, rcp(&L, c1(&L, "Square", sat)), rcp(&L, c1(&L, "Square", val)));
  {
    T* t1 = neg(&L, mul3(&L, mul(&L, pos(&L, r, dt), rB), sub(&L, gr, b), isv));
    T* t2 = mul3(&L, mul(&L, pos(&L, gr, dt), gB), rS,
                 mul(&L, sub(&L, b, gr), rcp(&L, c1(&L, "Square", sub(&L, r, gr)))));
    T* t3 = neg(&L, mul3(&L, mul(&L, pos(&L, gr, dt), gB), bS, rcp(&L, sub(&L, gr, b))));
    T* t4 = mul3(&L, mul(&L, pos(&L, b, dt), bB), rS,
                 mul(&L, sub(&L, b, gr), rcp(&L, c1(&L, "Square", sub(&L, b, r)))));
    T* t5 = mul3(&L, mul(&L, pos(&L, b, dt), bB), gS, rcp(&L, sub(&L, b, gr)));
    dhr = mul(&L, k60, add(&L, add(&L, add(&L, add(&L, t1, t2), t3), t4), t5));
  }
  {
    T* t1 = neg(&L, mul3(&L, mul(&L, pos(&L, gr, dt), gB), sub(&L, b, r), isv));
    T* t2 = mul3(&L, mul(&L, pos(&L, r, dt), rB), gS,
                 mul(&L, sub(&L, r, b), rcp(&L, c1(&L, "Square", sub(&L, r, gr)))));
    T* t3 = mul3(&L, mul(&L, pos(&L, r, dt), rB), bS, rcp(&L, sub(&L, r, b)));
    T* t4 = mul3(&L, mul(&L, pos(&L, b, dt), bB), gS,
                 mul(&L, sub(&L, r, b), rcp(&L, c1(&L, "Square", sub(&L, b, gr)))));
    T* t5 = neg(&L, mul3(&L, mul(&L, pos(&L, b, dt), bB), rS, rcp(&L, sub(&L, b, r))));
    dhg = mul(&L, k60, add(&L, add(&L, add(&L, add(&L, t1, t2), t3), t4), t5));
  }
  {
    T* t1 = neg(&L, mul3(&L, mul(&L, pos(&L, b, dt), bB), sub(&L, r, gr), isv));
    T* t2 = mul3(&L, mul(&L, pos(&L, r, dt), rB), bS,
                 mul(&L, sub(&L, gr, r), rcp(&L, c1(&L, "Square", sub(&L, r, b)))));
    T* t3 = neg(&L, mul3(&L, mul(&L, pos(&L, r, dt), rB), gS, rcp(&L, sub(&L, r, gr))));
    T* t4 = mul3(&L, mul(&L, pos(&L, gr, dt), gB), bS,
                 mul(&L, sub(&L, gr, r), rcp(&L, c1(&L, "Square", sub(&L, gr, b)))));
    T* t5 = mul3(&L, mul(&L, pos(&L, gr, dt), gB), rS, rcp(&L, sub(&L, gr, r)));
    dhb = mul(&L, k60, add(&L, add(&L, add(&L, add(&L, t1, t2), t3), t4), t5));
  }
  {
    T* k360 = sc(&L, dt, 360.0);
    dhr = c2(&L, "RealDiv", dhr, k360);
    dhg = c2(&L, "RealDiv", dhg, k360);
    dhb = c2(&L, "RealDiv", dhb, k360);
  }
  {
    T* g2 = pick_last(&L, dy, 2);
    T* g1 = pick_last(&L, dy, 1);
    T* g0 = pick_last(&L, dy, 0);
    v[0] = mul(&L, g2, rB), v[1] = mul(&L, g2, gB), v[2] = mul(&L, g2, bB);
    dv = pack(&L, v, 3, -1);
    v[0] = mul(&L, g1, dsr), v[1] = mul(&L, g1, dsg), v[2] = mul(&L, g1, dsb);
    ds = pack(&L, v, 3, -1);
    v[0] = mul(&L, g0, dhr), v[1] = mul(&L, g0, dhg), v[2] = mul(&L, g0, dhb);
    dh = pack(&L, v, 3, -1);
  }
  give(&L, 0, add(&L, add(&L, dv, ds), dh));
  la_end(&L);
}

static int64_t list_at(TFE_GradientContext* g, const char* name, int i) {
  const int64_t* v = NULL;
  int k = 0;
  if (!tfe_attrs_get_int_list(g->attrs, name, &v, &k, NULL) || i >= k) return -1;
  return v[i];
}

/* Patch extraction: the gradient of each input element is the sum of the
 * patch entries it was copied to. The patches of an index image (1-based;
 * 0 marks padding) give each entry's source, and an UnsortedSegmentSum
 * gathers them. nsp is 2 (image) or 3 (volume). */
static void grad_extract_patches(TFE_GradientContext* g, TF_Status* s, int nsp) {
  LA L;
  T *x, *y, *dy, *idx, *pat, *gexp, *gflat, *seg, *gsum;
  int64_t in_d[5], out_d[5], k[3], nin = 1;
  int i, rk = nsp + 2;
  int32_t shp[8], perm[8];
  TF_AbstractOp* op;
  la_init(&L, g, s);
  x = in(&L, 0);
  y = out(&L, 0);
  dy = gu_upstream(g);
  for (i = 0; i < rk; i++) {
    in_d[i] = dim(&L, x, i);
    out_d[i] = dim(&L, y, i);
    if (in_d[i] < 0 || out_d[i] < 0) unimpl(&L, "the input and output shapes must be known");
  }
  for (i = 0; i < nsp; i++) k[i] = list_at(g, "ksizes", i + 1);
  if (!OK(&L)) {
    la_end(&L);
    return;
  }
  for (i = 1; i <= nsp; i++) nin *= in_d[i];
  /* the index image [1, spatial..., 1] of values 1..nin */
  shp[0] = 1;
  for (i = 1; i <= nsp; i++) shp[i] = (int32_t)in_d[i];
  shp[nsp + 1] = 1;
  idx = cast(&L, K(&L, gl_range(g, i32(&L, 1), i32(&L, (int32_t)nin + 1), i32(&L, 1), s)),
             nsp == 2 ? TF_FLOAT : TF_INT64);
  idx = reshape(&L, idx, vi32(&L, shp, rk));
  op = gl_op(g, nsp == 2 ? "ExtractImagePatches" : "ExtractVolumePatches", s);
  gl_in(op, idx, s);
  gl_cp_ilist(g, op, "ksizes", s);
  gl_cp_ilist(g, op, "strides", s);
  if (nsp == 2) gl_cp_ilist(g, op, "rates", s);
  gl_cp_str(g, op, "padding", s);
  pat = fin(&L, op);
  if (nsp == 2) pat = cast(&L, pat, TF_INT64);
  /* dy as [batch, out spatial..., k..., channels] -> [out..., k..., batch, channels] */
  {
    int n = 0;
    int32_t sh[10];
    sh[n++] = (int32_t)in_d[0];
    for (i = 1; i <= nsp; i++) sh[n++] = (int32_t)out_d[i];
    for (i = 0; i < nsp; i++) sh[n++] = (int32_t)k[i];
    sh[n++] = (int32_t)in_d[rk - 1];
    for (i = 0; i < 2 * nsp; i++) perm[i] = i + 1;
    perm[2 * nsp] = 0;
    perm[2 * nsp + 1] = 2 * nsp + 1;
    gexp = c2(&L, "Transpose", reshape(&L, dy, vi32(&L, sh, n)), vi32(&L, perm, 2 * nsp + 2));
  }
  {
    int32_t two[2] = {-1, (int32_t)(in_d[0] * in_d[rk - 1])};
    static const int32_t kFlat[1] = {-1};
    gflat = reshape(&L, gexp, vi32(&L, two, 2));
    seg = sub(&L, reshape(&L, pat, vi32(&L, kFlat, 1)), sc(&L, TF_INT64, 1.0));
  }
  op = gl_op(g, "UnsortedSegmentSum", s);
  gl_in(op, gflat, s);
  gl_in(op, seg, s);
  gl_in(op, sc(&L, TF_INT64, (double)nin), s);
  gsum = fin(&L, op);
  {
    int32_t sh[8];
    for (i = 0; i < nsp; i++) sh[i] = (int32_t)in_d[i + 1];
    sh[nsp] = (int32_t)in_d[0];
    sh[nsp + 1] = (int32_t)in_d[rk - 1];
    for (i = 0; i < nsp; i++) perm[i + 1] = i;
    perm[0] = nsp;
    perm[nsp + 1] = nsp + 1;
    give(&L, 0, c2(&L, "Transpose", reshape(&L, gsum, vi32(&L, sh, rk)), vi32(&L, perm, rk)));
  }
  la_end(&L);
}
static void grad_extract_image_patches(TFE_GradientContext* g, TF_Status* s) {
  grad_extract_patches(g, s, 2);
}
static void grad_extract_volume_patches(TFE_GradientContext* g, TF_Status* s) {
  grad_extract_patches(g, s, 3);
}

/* ---- random sampling (implicit reparameterization) ---- */

/* sum over the leading `lead` dims of dy * RandomGammaGrad(alpha reshaped
 * with `lead` leading unit dims, sample). lead is an int32 scalar. */
static T* gamma_alpha_grad(LA* L, T* alpha, T* sample, T* dy, T* lead) {
  static const int32_t kOne[1] = {1};
  T *ones, *parts[2], *ab, *pa;
  ones = c2(L, "Fill", reshape(L, lead, vi32(L, kOne, 1)), i32(L, 1));
  parts[0] = ones;
  parts[1] = shape32(L, alpha);
  ab = reshape(L, alpha, concat(L, parts, 2, 0));
  pa = c2(L, "RandomGammaGrad", ab, sample);
  return sum_axes(L, mul(L, dy, pa), K(L, gl_range(L->g, i32(L, 0), lead, i32(L, 1), L->s)), 0);
}

static void grad_random_gamma(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  T* lead;
  la_init(&L, g, s);
  lead = c1(&L, "Size", in(&L, 0));
  give(&L, 1, gamma_alpha_grad(&L, in(&L, 1), out(&L, 0), gu_upstream(g), lead));
  la_end(&L);
}

static void grad_stateless_gamma(TFE_GradientContext* g, TF_Status* s, int alpha_at) {
  LA L;
  T *lead, *alpha;
  la_init(&L, g, s);
  alpha = in(&L, alpha_at);
  lead = sub(&L, cast(&L, c1(&L, "Size", in(&L, 0)), TF_INT32), c1(&L, "Rank", alpha));
  give(&L, alpha_at, gamma_alpha_grad(&L, alpha, out(&L, 0), gu_upstream(g), lead));
  la_end(&L);
}
static void grad_stateless_gamma_v2(TFE_GradientContext* g, TF_Status* s) {
  grad_stateless_gamma(g, s, 2);
}
static void grad_stateless_gamma_v3(TFE_GradientContext* g, TF_Status* s) {
  grad_stateless_gamma(g, s, 4);
}

/* The standard normal CDF, computed as TF's gradient does (erf near 0,
 * erfc in the tails). */
static T* ndtr(LA* L, T* x) {
  TF_DataType dt = dtype(L, x);
  T* hs = sc(L, dt, 0.5 * sqrt(2.0));
  T* w = mul(L, x, hs);
  T* z = c1(L, "Abs", w);
  T* ez = c1(L, "Erfc", z);
  T *inner, *outer;
  TF_AbstractOp* op = gl_op(L->g, "SelectV2", L->s);
  gl_in(op, c2(L, "Greater", w, sc(L, dt, 0.0)), L->s);
  gl_in(op, sub(L, sc(L, dt, 2.0), ez), L->s);
  gl_in(op, ez, L->s);
  inner = fin(L, op);
  op = gl_op(L->g, "SelectV2", L->s);
  gl_in(op, c2(L, "Less", z, hs), L->s);
  gl_in(op, add(L, sc(L, dt, 1.0), c1(L, "Erf", w)), L->s);
  gl_in(op, inner, L->s);
  outer = fin(L, op);
  return mul(L, sc(L, dt, 0.5), outer);
}

static void grad_stateless_ptn(TFE_GradientContext* g, TF_Status* s) {
  LA L;
  T *mean, *sd, *lo, *hi, *x, *dy, *lo_s, *hi_s, *x_s, *cdf, *dhi, *dlo, *bshape, *extra;
  T *grads[4], *shapes[4];
  TF_DataType dt;
  int i;
  la_init(&L, g, s);
  mean = in(&L, 2);
  sd = in(&L, 3);
  lo = in(&L, 4);
  hi = in(&L, 5);
  x = out(&L, 0);
  dy = gu_upstream(g);
  dt = dtype(&L, mean);
  lo_s = c2(&L, "RealDiv", sub(&L, lo, mean), sd);
  hi_s = c2(&L, "RealDiv", sub(&L, hi, mean), sd);
  x_s = c2(&L, "RealDiv", sub(&L, x, mean), sd);
  cdf = c2(&L, "RealDiv", sub(&L, ndtr(&L, x_s), ndtr(&L, lo_s)),
           sub(&L, ndtr(&L, hi_s), ndtr(&L, lo_s)));
  {
    double tiny = dt == TF_DOUBLE ? 2.2250738585072014e-308 : dt == TF_HALF ? 6.103515625e-05
                                                                            : 1.1754943508222875e-38;
    double eps = dt == TF_DOUBLE ? 2.220446049250313e-16 : dt == TF_HALF ? 0.0009765625
                                                                         : 1.1920928955078125e-07;
    TF_AbstractOp* op = gl_op(g, "ClipByValue", s);
    gl_in(op, cdf, s);
    gl_in(op, sc(&L, dt, tiny), s);
    gl_in(op, sc(&L, dt, 1.0 - eps), s);
    cdf = fin(&L, op);
  }
  {
    T* half = sc(&L, dt, 0.5);
    T* xs2 = c1(&L, "Square", x_s);
    dhi = c1(&L, "Exp", add(&L, mul(&L, half, sub(&L, xs2, c1(&L, "Square", hi_s))),
                           c1(&L, "Log", cdf)));
    dlo = c1(&L, "Exp", add(&L, mul(&L, half, sub(&L, xs2, c1(&L, "Square", lo_s))),
                           c1(&L, "Log1p", neg(&L, cdf))));
  }
  shapes[0] = shape32(&L, mean);
  shapes[1] = shape32(&L, sd);
  shapes[2] = shape32(&L, lo);
  shapes[3] = shape32(&L, hi);
  bshape = c2(&L, "BroadcastArgs", shapes[0], shapes[1]);
  bshape = c2(&L, "BroadcastArgs", shapes[2], bshape);
  bshape = c2(&L, "BroadcastArgs", shapes[3], bshape);
  extra = K(&L, gl_range(g, i32(&L, 0),
                         sub(&L, cast(&L, c1(&L, "Size", in(&L, 0)), TF_INT32),
                             c1(&L, "Size", bshape)),
                         i32(&L, 1), s));
  grads[0] = sum_axes(&L, dy, extra, 0);
  grads[1] = sum_axes(&L, mul(&L, dy, x_s), extra, 0);
  grads[2] = sum_axes(&L, mul(&L, dy, dlo), extra, 0);
  grads[3] = sum_axes(&L, mul(&L, dy, dhi), extra, 0);
  for (i = 0; i < 4; i++) {
    T* r[2];
    TF_AbstractOp* op = gl_op(g, "BroadcastGradientArgs", s);
    gl_in(op, bshape, s);
    gl_in(op, shapes[i], s);
    gl_fin_n(op, 2, r, s);
    K(&L, r[0]);
    K(&L, r[1]);
    give(&L, 2 + i, reshape(&L, sum_axes(&L, grads[i], r[1], 1), shapes[i]));
  }
  la_end(&L);
}

/* ---- registration ---- */

int tfe_grad_register_linalg(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"MatrixInverse", grad_matrix_inverse},
      {"MatrixDeterminant", grad_matrix_determinant},
      {"LogMatrixDeterminant", grad_log_matrix_determinant},
      {"Cholesky", grad_cholesky},
      {"MatrixSolve", grad_matrix_solve},
      {"MatrixTriangularSolve", grad_matrix_triangular_solve},
      {"BandedTriangularSolve", grad_banded_triangular_solve},
      {"MatrixSquareRoot", grad_matrix_square_root},
      {"Qr", grad_qr},
      {"SelfAdjointEigV2", grad_self_adjoint_eig_v2},
      {"Svd", grad_svd},
      {"TridiagonalMatMul", grad_tridiagonal_matmul},
      {"TridiagonalSolve", grad_tridiagonal_solve},
      {"IsotonicRegression", grad_isotonic_regression},
      {"FFT", grad_fft},
      {"IFFT", grad_ifft},
      {"FFT2D", grad_fft2d},
      {"IFFT2D", grad_ifft2d},
      {"FFT3D", grad_fft3d},
      {"IFFT3D", grad_ifft3d},
      {"RFFT", grad_rfft},
      {"IRFFT", grad_irfft},
      {"RFFT2D", grad_rfft2d},
      {"IRFFT2D", grad_irfft2d},
      {"ResizeBilinear", grad_resize_bilinear},
      {"ResizeNearestNeighbor", grad_resize_nearest},
      {"ResizeBicubic", grad_resize_bicubic},
      {"CropAndResize", grad_crop_and_resize},
      {"ScaleAndTranslate", grad_scale_and_translate},
      {"RGBToHSV", grad_rgb_to_hsv},
      {"ExtractImagePatches", grad_extract_image_patches},
      {"ExtractVolumePatches", grad_extract_volume_patches},
      {"RandomGamma", grad_random_gamma},
      {"StatelessRandomGammaV2", grad_stateless_gamma_v2},
      {"StatelessRandomGammaV3", grad_stateless_gamma_v3},
      {"StatelessParameterizedTruncatedNormal", grad_stateless_ptn},
  };
  size_t i;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  return 1;
}
