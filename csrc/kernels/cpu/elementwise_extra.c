/* More elementwise kernels: the "x times f(y), but 0 when x is 0" family
 * (Xlogy, Xdivy, Xlog1py), NextAfter, ApproximateEqual, the activation and
 * unary-math gradients (ReluGrad ... InvGrad) and the complex-number ops
 * (Complex, Real, Imag, Conj, Angle, ComplexAbs).
 *
 * Rounding for half and bfloat16 follows TF, which evaluates these in the
 * element type: every intermediate result is rounded back to it (written
 * LD(ST(v)) below; for float/double R is the identity).
 *
 * Shape rules differ per op the way they do in TF:
 *   - Xlogy, Xdivy, Xlog1py, NextAfter, Complex broadcast;
 *   - ApproximateEqual and the activation gradients (ReluGrad, ...)
 *     require identical shapes;
 *   - the unary-math gradients (SigmoidGrad, ...) only require the same
 *     number of elements and take the first input's shape. */
#include <float.h>
#include <math.h>
#include <string.h>
#include <tgmath.h>

#include "kernels/cpu/elementwise_common.h"
#include "kernels/kernel.h"
#include "ops/attr_value.h"

void tfe_ew_register_extra(void);

#define BIN_F(OP, sfx, T, TC, LD, ST, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, TC, LD, ST, EW_EXPR_F(x, y, LD, ST))
#define BIN_C(OP, sfx, T, RT, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, EW_EXPR_C(x, y))
#define BIN_I(OP, sfx, T, U, DT) \
  TFE_EW_BINARY_T(OP##_##sfx, T, T, T, TFE_EW_ID, TFE_EW_ID, EW_EXPR_I(x, y))

#define EW_FC(OP) TFE_EW_FLOATS(BIN_F, OP) TFE_EW_CPLX(BIN_C, OP)
#define ENT_F(OP) TFE_EW_FLOATS(TFE_EW_ENT_F, OP)
#define ENT_FC(OP) ENT_F(OP) TFE_EW_CPLX(TFE_EW_ENT_C, OP)
#define ENT_I(OP) \
  TFE_EW_SINTS(TFE_EW_ENT_I, OP) TFE_EW_UINTS(TFE_EW_ENT_I, OP)

/* log1p for complex numbers the way Eigen's generic log1p does it:
 * log(1 + z) corrected by z / ((1 + z) - 1) unless 1 + z rounds to 1
 * (then z itself) or is infinite. */
static inline tfe_c128 ex_log1p_c128(tfe_c128 z) {
  tfe_c128 u = 1.0 + z;
  if (u == 1.0) return z;
  {
    tfe_c128 l = clog(u);
    if (isinf(creal(u)) || isinf(cimag(u))) return l;
    return z * (l / (u - 1.0));
  }
}
static inline tfe_c64 ex_log1p_c64(tfe_c64 z) {
  tfe_c64 u = 1.0f + z;
  if (u == 1.0f) return z;
  {
    tfe_c64 l = clogf(u);
    if (isinf(crealf(u)) || isinf(cimagf(u))) return l;
    return z * (l / (u - 1.0f));
  }
}
#define EX_LOG1P_C(z) \
  _Generic((z), tfe_c64: ex_log1p_c64, tfe_c128: ex_log1p_c128)(z)

/* ---- Xlogy: x itself (a signed zero) where x == 0, else x * log(y) ---- */
#define EW_EXPR_F(x, y, LD, ST) ((x) == 0 ? (x) : (x) * LD(ST(log(y))))
#define EW_EXPR_C(x, y) ((x) == 0 ? (x) : (x) * log(y))
EW_FC(xlogy)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* ---- Xdivy: x where x == 0, else x / y ---- */
#define EW_EXPR_F(x, y, LD, ST) ((x) == 0 ? (x) : (x) / (y))
#define EW_EXPR_C(x, y) ((x) == 0 ? (x) : (x) / (y))
EW_FC(xdivy)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* ---- Xlog1py: x where x == 0, else x * log1p(y) ---- */
#define EW_EXPR_F(x, y, LD, ST) ((x) == 0 ? (x) : (x) * LD(ST(log1p(y))))
#define EW_EXPR_C(x, y) ((x) == 0 ? (x) : (x) * EX_LOG1P_C(y))
EW_FC(xlog1py)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* ---- NextAfter (float and double only) ---- */
#define EW_EXPR_F(x, y, LD, ST) nextafter(x, y)
TFE_EW_F32F64(BIN_F, nextafter)
#undef EW_EXPR_F

/* ---- ApproximateEqual: |x - y| < tolerance (in the element type) ---- */
#define APPROX_T(OP, sfx, T, TC, LD, ST, DT)                          \
  TFE_EW_BINARY_T(OP##_##sfx, T, uint8_t, TC, LD, TFE_EW_ID,          \
                  (uint8_t)(fabs((x) - (y)) < (tc_)prm_.alpha))
TFE_EW_F32F64(APPROX_T, approx)
#undef APPROX_T

/* ---- activation gradients: (gradients, features or outputs) ---- */
/* ReluGrad: gradients * (features > 0), so a negative gradient gives -0
 * and a NaN gradient stays NaN. */
#define EW_EXPR_F(x, y, LD, ST) ((x) * (tc_)((y) > 0))
#define EW_EXPR_I(x, y) ((y) > 0 ? (x) : (tc_)0)
TFE_EW_FLOATS(BIN_F, relugrad)
TFE_EW_SINTS(BIN_I, relugrad)
TFE_EW_UINTS(BIN_I, relugrad)
#undef EW_EXPR_F
#undef EW_EXPR_I

/* Relu6Grad: gradients * (0 < features < 6). */
#define EW_EXPR_F(x, y, LD, ST) ((x) * (tc_)((y) > 0 && (y) < (tc_)6))
#define EW_EXPR_I(x, y) ((y) > 0 && (y) < 6 ? (x) : (tc_)0)
TFE_EW_FLOATS(BIN_F, relu6grad)
TFE_EW_SINTS(BIN_I, relu6grad)
TFE_EW_UINTS(BIN_I, relu6grad)
#undef EW_EXPR_F
#undef EW_EXPR_I

/* EluGrad: outputs < 0 ? gradients * (outputs + 1) : gradients. */
#define EW_EXPR_F(x, y, LD, ST) ((y) < 0 ? (x) * LD(ST((y) + (tc_)1)) : (x))
TFE_EW_FLOATS(BIN_F, elugrad)
#undef EW_EXPR_F

/* SeluGrad: outputs < 0 ? gradients * (outputs + scale * alpha)
 *                       : gradients * scale. */
#define EX_SELU_SCALE 1.0507009873554804934193349852946
#define EX_SELU_SA 1.7580993408473768599402175208123
#define EW_EXPR_F(x, y, LD, ST)                                  \
  ((y) < 0 ? (x) * LD(ST((y) + LD(ST((tc_)EX_SELU_SA))))                   \
           : (x) * LD(ST((tc_)EX_SELU_SCALE)))
TFE_EW_FLOATS(BIN_F, selugrad)
#undef EW_EXPR_F

/* SoftplusGrad: gradients / (1 + exp(-features)). */
#define EW_EXPR_F(x, y, LD, ST) ((x) / LD(ST((tc_)1 + LD(ST(exp(-(y)))))))
TFE_EW_FLOATS(BIN_F, softplusgrad)
#undef EW_EXPR_F

/* SoftsignGrad: gradients / (1 + |features|)^2. */
#define EW_EXPR_F(x, y, LD, ST) \
  ((x) / LD(ST(LD(ST((tc_)1 + LD(ST(fabs(y))))) * LD(ST((tc_)1 + LD(ST(fabs(y))))))))
TFE_EW_FLOATS(BIN_F, softsigngrad)
#undef EW_EXPR_F

/* LeakyReluGrad: features > 0 ? gradients : gradients * alpha. */
#define EW_EXPR_F(x, y, LD, ST) \
  ((y) > 0 ? (x) : (x) * LD(ST((tc_)prm_.alpha_f)))
TFE_EW_FLOATS(BIN_F, lrelugrad)
#undef EW_EXPR_F

/* ---- unary-math gradients: (y, dy) with y the op's output ---- */
/* SigmoidGrad: (y * (1 - y)) * dy. */
#define EW_EXPR_F(x, y, LD, ST) LD(ST((x) * LD(ST((tc_)1 - (x))))) * (y)
#define EW_EXPR_C(x, y) ((x) * ((tc_)1 - (x))) * (y)
EW_FC(sigmoidgrad)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* TanhGrad: dy * (1 - y * y). */
#define EW_EXPR_F(x, y, LD, ST) (y) * LD(ST((tc_)1 - LD(ST((x) * (x)))))
#define EW_EXPR_C(x, y) (y) * ((tc_)1 - (x) * (x))
EW_FC(tanhgrad)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* SqrtGrad: 0 where dy == 0, else (0.5 / conj(y)) * dy. */
#define EW_EXPR_F(x, y, LD, ST) \
  ((y) == 0 ? (tc_)0 : LD(ST((tc_)0.5 / (x))) * (y))
#define EW_EXPR_C(x, y) ((y) == 0 ? (tc_)0 : ((tc_)0.5 / conj(x)) * (y))
EW_FC(sqrtgrad)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* RsqrtGrad: 0 where dy == 0, else (-0.5 * (dy * conj(y))) * conj(y)^2. */
#define EW_EXPR_F(x, y, LD, ST) \
  ((y) == 0 ? (tc_)0                                               \
            : LD(ST((tc_)-0.5 * LD(ST((y) * (x))))) * LD(ST((x) * (x))))
#define EW_EXPR_C(x, y)                                         \
  ((y) == 0 ? (tc_)0                                            \
            : ((tc_)-0.5 * ((y) * conj(x))) * (conj(x) * conj(x)))
EW_FC(rsqrtgrad)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* ReciprocalGrad / InvGrad: 0 where dy == 0, else -conj(y)^2 * dy. */
#define EW_EXPR_F(x, y, LD, ST) \
  ((y) == 0 ? (tc_)0 : LD(ST(-LD(ST((x) * (x))))) * (y))
#define EW_EXPR_C(x, y) ((y) == 0 ? (tc_)0 : (-(conj(x) * conj(x))) * (y))
EW_FC(recipgrad)
#undef EW_EXPR_F
#undef EW_EXPR_C

/* ---- complex-number ops (input and output dtypes differ) ---- */
#define CPLX_UN(NAME, TI, TO, EXPR) \
  TFE_EW_UNARY_T(NAME, TI, TO, TI, TFE_EW_ID, TFE_EW_ID, EXPR)
CPLX_UN(real_c64, tfe_c64, float, crealf(x))
CPLX_UN(real_c128, tfe_c128, double, creal(x))
CPLX_UN(imag_c64, tfe_c64, float, cimagf(x))
CPLX_UN(imag_c128, tfe_c128, double, cimag(x))
CPLX_UN(angle_c64, tfe_c64, float, atan2f(cimagf(x), crealf(x)))
CPLX_UN(angle_c128, tfe_c128, double, atan2(cimag(x), creal(x)))
CPLX_UN(cabs_c64, tfe_c64, float, hypotf(crealf(x), cimagf(x)))
CPLX_UN(cabs_c128, tfe_c128, double, hypot(creal(x), cimag(x)))
CPLX_UN(conj_c64, tfe_c64, tfe_c64, CMPLXF(crealf(x), -cimagf(x)))
CPLX_UN(conj_c128, tfe_c128, tfe_c128, CMPLX(creal(x), -cimag(x)))
TFE_EW_BINARY_T(complex_f32, float, tfe_c64, float, TFE_EW_ID, TFE_EW_ID,
                CMPLXF(x, y))
TFE_EW_BINARY_T(complex_f64, double, tfe_c128, double, TFE_EW_ID, TFE_EW_ID,
                CMPLX(x, y))

/* ---- attrs ---- */

static int read_float_attr(tfe_kernel_context* k, const char* name,
                           float dflt, tfe_ew_params* p) {
  const tfe_attr_value* v =
      k->attrs != NULL ? tfe_attrs_find(k->attrs, name) : NULL;
  p->alpha_f = dflt;
  if (v != NULL) {
    if (v->type != TF_ATTR_FLOAT || v->is_list) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "AttrValue had value with wrong type when 'float' "
                      "expected\n\t for attr '%s'",
                      name);
      return 0;
    }
    p->alpha_f = v->v.f;
  }
  p->alpha = p->alpha_f;
  return 1;
}
static int read_alpha(tfe_kernel_context* k, tfe_ew_params* p) {
  return read_float_attr(k, "alpha", 0.2f, p);
}
static int read_tolerance(tfe_kernel_context* k, tfe_ew_params* p) {
  return read_float_attr(k, "tolerance", 1e-5f, p);
}

/* ---- the op tables ---- */

/* How the inputs' shapes must relate. */
enum {
  EX_BROADCAST = 0,  /* numpy broadcasting */
  EX_SAME_SHAPE,     /* identical shapes (activation gradients) */
  EX_SAME_COUNT,     /* same element count, output takes input 0's shape */
  EX_SAME_SHAPE_XY   /* identical shapes, ApproximateEqual's message */
};

typedef struct ex_op {
  tfe_ew_op ew;
  int shape_rule;
  /* Output dtype per input dtype when it is not the input's (0: same). */
  TF_DataType out_dt[TFE_EW_NTYPES];
  /* ComplexAbs: the Tout attr must be out_dt (else a signature error). */
  int check_tout;
} ex_op;

#define OP2(name, rule, heavy, rd, ...) \
  {{name, 2, 0, 5, TF_OK, NULL, rd, {__VA_ARGS__}, heavy}, rule, {0}, 0}

static const ex_op k_binary[] = {
    OP2("Xlogy", EX_BROADCAST, 1, NULL, ENT_FC(xlogy)),
    OP2("Xdivy", EX_BROADCAST, 0, NULL, ENT_FC(xdivy)),
    OP2("Xlog1py", EX_BROADCAST, 1, NULL, ENT_FC(xlog1py)),
    OP2("NextAfter", EX_BROADCAST, 0, NULL,
        TFE_EW_F32F64(TFE_EW_ENT_F, nextafter)),
    {{"ApproximateEqual", 2, 1, 5, TF_OK, NULL, read_tolerance,
      {TFE_EW_F32F64(TFE_EW_ENT_F, approx)}, 0},
     EX_SAME_SHAPE_XY, {0}, 0},
    OP2("ReluGrad", EX_SAME_SHAPE, 0, NULL, ENT_F(relugrad) ENT_I(relugrad)),
    OP2("Relu6Grad", EX_SAME_SHAPE, 0, NULL,
        ENT_F(relu6grad) ENT_I(relu6grad)),
    OP2("EluGrad", EX_SAME_SHAPE, 0, NULL, ENT_F(elugrad)),
    OP2("SeluGrad", EX_SAME_SHAPE, 0, NULL, ENT_F(selugrad)),
    OP2("SoftplusGrad", EX_SAME_SHAPE, 1, NULL, ENT_F(softplusgrad)),
    OP2("SoftsignGrad", EX_SAME_SHAPE, 0, NULL, ENT_F(softsigngrad)),
    OP2("LeakyReluGrad", EX_SAME_SHAPE, 0, read_alpha, ENT_F(lrelugrad)),
    OP2("SigmoidGrad", EX_SAME_COUNT, 0, NULL, ENT_FC(sigmoidgrad)),
    OP2("TanhGrad", EX_SAME_COUNT, 0, NULL, ENT_FC(tanhgrad)),
    OP2("SqrtGrad", EX_SAME_COUNT, 0, NULL, ENT_FC(sqrtgrad)),
    OP2("RsqrtGrad", EX_SAME_COUNT, 0, NULL, ENT_FC(rsqrtgrad)),
    OP2("ReciprocalGrad", EX_SAME_COUNT, 0, NULL, ENT_FC(recipgrad)),
    OP2("InvGrad", EX_SAME_COUNT, 0, NULL, ENT_FC(recipgrad)),
};

#define CPLX_OUT_REAL {[TF_COMPLEX64] = TF_FLOAT, [TF_COMPLEX128] = TF_DOUBLE}
#define CPLX_ENT(OP) [TF_COMPLEX64] = OP##_c64, [TF_COMPLEX128] = OP##_c128

static const ex_op k_real = {
    {"Real", 1, 0, 5, TF_OK, NULL, NULL, {CPLX_ENT(real)}, 0},
    EX_BROADCAST, CPLX_OUT_REAL, 0};
static const ex_op k_imag = {
    {"Imag", 1, 0, 5, TF_OK, NULL, NULL, {CPLX_ENT(imag)}, 0},
    EX_BROADCAST, CPLX_OUT_REAL, 0};
static const ex_op k_angle = {
    {"Angle", 1, 0, 5, TF_OK, NULL, NULL, {CPLX_ENT(angle)}, 1},
    EX_BROADCAST, CPLX_OUT_REAL, 0};
static const ex_op k_cabs = {
    {"ComplexAbs", 1, 0, 5, TF_OK, NULL, NULL, {CPLX_ENT(cabs)}, 0},
    EX_BROADCAST, CPLX_OUT_REAL, 1};
static const ex_op k_conj = {
    {"Conj", 1, 0, 5, TF_OK, NULL, NULL, {CPLX_ENT(conj)}, 0},
    EX_BROADCAST, {0}, 0};
static const ex_op k_complex = {
    {"Complex", 2, 0, 5, TF_OK, NULL, NULL,
     {[TF_FLOAT] = complex_f32, [TF_DOUBLE] = complex_f64}, 0},
    EX_BROADCAST,
    {[TF_FLOAT] = TF_COMPLEX64, [TF_DOUBLE] = TF_COMPLEX128},
    0};

/* ---- compute ---- */

static void ex_compute(tfe_kernel_context* k) {
  const ex_op* op = (const ex_op*)k->user_data;
  const tfe_ew_op* ew;
  tfe_ew_params prm;
  TF_DataType dt, out_dt;
  tfe_ew_fn fn;
  TF_Tensor* out;
  const void* in[2];
  int64_t chunk;
  int err;
  memset(&prm, 0, sizeof prm);
  if (op == NULL) {
    tfe_status_setf(k->status, TF_INTERNAL,
                    "elementwise kernel registered without its table");
    return;
  }
  ew = &op->ew;
  if (!tfe_ew_check_inputs(k, ew->num_inputs)) return;
  dt = k->inputs[0]->dtype;
  if (ew->num_inputs == 2 && k->inputs[1]->dtype != dt) {
    tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                    "%s: input 1 has dtype %s but input 0 has %s", ew->name,
                    tfe_dtype_enum_name(k->inputs[1]->dtype),
                    tfe_dtype_enum_name(dt));
    return;
  }
  fn = (unsigned)dt < TFE_EW_NTYPES ? ew->fns[dt] : NULL;
  if (fn == NULL) {
    tfe_status_setf(k->status, TF_UNIMPLEMENTED,
                    "No %s kernel for dtype %s on CPU", ew->name,
                    tfe_dtype_enum_name(dt));
    return;
  }
  out_dt = ew->out_bool ? TF_BOOL : (op->out_dt[dt] ? op->out_dt[dt] : dt);
  if (op->check_tout && k->attrs != NULL) {
    TF_DataType tout;
    if (tfe_attrs_get_type(k->attrs, "Tout", &tout, NULL) && tout != out_dt) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "Signature mismatch, have: %s->%s expected: %s->%s",
                      tfe_dtype_short_name(dt), tfe_dtype_short_name(tout),
                      tfe_dtype_short_name(dt), tfe_dtype_short_name(out_dt));
      return;
    }
  }
  if (ew->read_params != NULL && !ew->read_params(k, &prm)) return;
  in[0] = tfe_ew_data(k->inputs[0]);
  if (ew->num_inputs == 2) in[1] = tfe_ew_data(k->inputs[1]);
  chunk = (ew->heavy || dt == TF_HALF || dt == TF_BFLOAT16 ||
           dt == TF_COMPLEX64 || dt == TF_COMPLEX128)
              ? TFE_EW_CHUNK_HEAVY
              : TFE_EW_CHUNK_CHEAP;

  if (ew->num_inputs == 1) {
    const TF_Tensor* x = k->inputs[0];
    out = tfe_ew_forward_or_alloc(k, ew, dt, out_dt, x->dims, x->num_dims);
    if (out == NULL) return;
    err = tfe_ew_run(k, fn, NULL, in, tfe_ew_data(out),
                     tfe_ew_num_elements(x), &prm, chunk);
  } else if (op->shape_rule != EX_BROADCAST) {
    const TF_Tensor* x = k->inputs[0];
    const TF_Tensor* y = k->inputs[1];
    const int64_t n = tfe_ew_num_elements(x);
    tfe_bcast bc;
    char sx[256], sy[256];
    if (op->shape_rule == EX_SAME_COUNT) {
      if (tfe_ew_num_elements(y) != n) {
        tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                        "The two arguments to a cwise op must have same "
                        "number of elements, got %lld and %lld",
                        (long long)n, (long long)tfe_ew_num_elements(y));
        return;
      }
    } else if (!tfe_ew_same_shape(x, y)) {
      tfe_format_shape(x->dims, x->num_dims, sx, sizeof sx);
      tfe_format_shape(y->dims, y->num_dims, sy, sizeof sy);
      if (op->shape_rule == EX_SAME_SHAPE_XY) {
        tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                        "x and y must be of the same shape. x shape: %s. y "
                        "shape: %s",
                        sx, sy);
      } else {
        tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                        "Inputs to operation %s of type %s must have the "
                        "same size and shape.  Input 0: %s != input 1: %s",
                        ew->name, ew->name, sx, sy);
      }
      return;
    }
    out = tfe_ew_forward_or_alloc(k, ew, dt, out_dt, x->dims, x->num_dims);
    if (out == NULL || n == 0) return;
    /* Equal element counts: the range functions take the linear path. */
    memset(&bc, 0, sizeof bc);
    bc.num_inputs = 2;
    bc.out_elems = n;
    bc.in_elems[0] = n;
    bc.in_elems[1] = n;
    err = tfe_ew_run(k, fn, &bc, in, tfe_ew_data(out), n, &prm, chunk);
  } else {
    tfe_bcast bc;
    const TF_Tensor* x = k->inputs[0];
    const TF_Tensor* y = k->inputs[1];
    const int64_t* dims[2];
    int ranks[2];
    int code;
    char sx[256], sy[256];
    dims[0] = x->dims;
    dims[1] = y->dims;
    ranks[0] = x->num_dims;
    ranks[1] = y->num_dims;
    code = tfe_bcast_init(&bc, 2, dims, ranks);
    if (code == TFE_BCAST_INCOMPATIBLE || code == TFE_BCAST_BAD_ARGS) {
      tfe_status_setf(k->status, TF_INVALID_ARGUMENT,
                      "Incompatible shapes: %s vs. %s",
                      tfe_format_shape(x->dims, x->num_dims, sx, sizeof sx),
                      tfe_format_shape(y->dims, y->num_dims, sy, sizeof sy));
      return;
    }
    if (bc.out_elems != 0 && !tfe_bcast_is_linear(&bc) &&
        (code == TFE_BCAST_TOO_COMPLEX || bc.rank > ew->max_rank)) {
      tfe_status_setf(k->status, TF_UNIMPLEMENTED,
                      "Broadcast between %s and %s is not supported yet.",
                      tfe_format_shape(x->dims, x->num_dims, sx, sizeof sx),
                      tfe_format_shape(y->dims, y->num_dims, sy, sizeof sy));
      return;
    }
    out = tfe_ew_forward_or_alloc(k, ew, dt, out_dt, bc.out_dims,
                                  bc.out_rank);
    if (out == NULL || bc.out_elems == 0) return;
    err = tfe_ew_run(k, fn, &bc, in, tfe_ew_data(out), bc.out_elems, &prm,
                     chunk);
  }
  if (err) {
    tfe_status_setf(k->status, TF_INTERNAL, "%s: elementwise error",
                    ew->name);
  }
}

/* Registers op with a constraint on "T" listing its dtypes. */
static void ex_register(const ex_op* op) {
  TF_DataType types[TFE_EW_NTYPES];
  int n = 0, t;
  for (t = 0; t < TFE_EW_NTYPES; t++) {
    if (op->ew.fns[t] != NULL) types[n++] = (TF_DataType)t;
  }
  tfe_ew_register_fn(op->ew.name, ex_compute, (void*)op, "T", types, n, NULL,
                     NULL, 0);
}

/* Registers op once per (T, Tout) pair, as TF does for Real/Imag/Angle/
 * Complex: other combinations find no kernel. */
static void ex_register_pairs(const ex_op* op) {
  int t;
  for (t = 0; t < TFE_EW_NTYPES; t++) {
    TF_DataType ti, to;
    if (op->ew.fns[t] == NULL) continue;
    ti = (TF_DataType)t;
    to = op->out_dt[t];
    tfe_ew_register_fn(op->ew.name, ex_compute, (void*)op, "T", &ti, 1,
                       "Tout", &to, 1);
  }
}

void tfe_ew_register_extra(void) {
  size_t i;
  for (i = 0; i < sizeof k_binary / sizeof k_binary[0]; i++) {
    ex_register(&k_binary[i]);
  }
  ex_register_pairs(&k_real);
  ex_register_pairs(&k_imag);
  ex_register_pairs(&k_angle);
  ex_register_pairs(&k_complex);
  ex_register(&k_cabs);
  ex_register(&k_conj);
}
