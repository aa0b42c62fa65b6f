/* CPU kernels: the optimizer apply ops of TF 2.21 on reference variables
 * (Apply*, SparseApply*) and on resource variables (ResourceApply*,
 * ResourceSparseApply*).
 *
 * One generic kernel serves all of them. It classifies the op's inputs by
 * their definition (slots are the Ref(T) or resource inputs, then "grad"
 * or "delta", "indices", "global_step", and named scalars), validates them
 * with TF's messages, locks the slots in address order, and runs the
 * kind's update rule (train_apply_impl.h) over the whole tensor (dense)
 * or over the rows named by indices, in order (sparse). float and double
 * compute in their own precision and complex types in complex arithmetic
 * as TF's functors do; half and bfloat16 go through float, in chunks. */
#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "core/complex_compat.h"
#include "core/threadpool.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"

void tfe_register_cpu_train_apply_kernels(void);
/* The scatter updates of variables (train_scatter_kernels.c). */
void tfe_register_cpu_train_scatter_kernels(void);

typedef enum ta_kind {
  TA_GD,
  TA_PROXIMAL_GD,
  TA_ADADELTA,
  TA_ADAGRAD,
  TA_ADAGRAD_V2,
  TA_PROXIMAL_ADAGRAD,
  TA_ADAGRAD_DA,
  TA_FTRL,
  TA_FTRL_V2,
  TA_MOMENTUM,
  TA_KERAS_MOMENTUM,
  TA_ADAM,
  TA_AMSGRAD,
  TA_ADAMAX,
  TA_RMSPROP,
  TA_CENTERED_RMSPROP,
  TA_ADD_SIGN,
  TA_POWER_SIGN,
  TA_NUM_KINDS
} ta_kind;

/* ---- the update rules, per arithmetic type ---- */

#define TA_T float
#define TA_SFX f32
#define TA_REAL 1
#define TA_SQRT sqrtf
#define TA_ABS fabsf
#define TA_POW powf
#define TA_EXP expf
#include "kernels/cpu/train_apply_impl.h"
#undef TA_T
#undef TA_SFX
#undef TA_REAL
#undef TA_SQRT
#undef TA_ABS
#undef TA_POW
#undef TA_EXP

#define TA_T double
#define TA_SFX f64
#define TA_REAL 1
#define TA_SQRT sqrt
#define TA_ABS fabs
#define TA_POW pow
#define TA_EXP exp
#include "kernels/cpu/train_apply_impl.h"
#undef TA_T
#undef TA_SFX
#undef TA_REAL
#undef TA_SQRT
#undef TA_ABS
#undef TA_POW
#undef TA_EXP

#define TA_T float complex
#define TA_SFX c64
#define TA_REAL 0
#define TA_SQRT csqrtf
#include "kernels/cpu/train_apply_impl.h"
#undef TA_T
#undef TA_SFX
#undef TA_REAL
#undef TA_SQRT

#define TA_T double complex
#define TA_SFX c128
#define TA_REAL 0
#define TA_SQRT csqrt
#include "kernels/cpu/train_apply_impl.h"
#undef TA_T
#undef TA_SFX
#undef TA_REAL
#undef TA_SQRT

/* ---- the ops ---- */

typedef struct ta_op {
  const char* name;
  ta_kind kind;
} ta_op;

/* Every op this file serves; the prefix (Resource, Sparse) is read from
 * the name. */
static const ta_op kOps[] = {
    {"ApplyGradientDescent", TA_GD},
    {"ResourceApplyGradientDescent", TA_GD},
    {"ApplyProximalGradientDescent", TA_PROXIMAL_GD},
    {"ResourceApplyProximalGradientDescent", TA_PROXIMAL_GD},
    {"SparseApplyProximalGradientDescent", TA_PROXIMAL_GD},
    {"ResourceSparseApplyProximalGradientDescent", TA_PROXIMAL_GD},
    {"ApplyAdadelta", TA_ADADELTA},
    {"ResourceApplyAdadelta", TA_ADADELTA},
    {"SparseApplyAdadelta", TA_ADADELTA},
    {"ResourceSparseApplyAdadelta", TA_ADADELTA},
    {"ApplyAdagrad", TA_ADAGRAD},
    {"ResourceApplyAdagrad", TA_ADAGRAD},
    {"SparseApplyAdagrad", TA_ADAGRAD},
    {"ResourceSparseApplyAdagrad", TA_ADAGRAD},
    {"ApplyAdagradV2", TA_ADAGRAD_V2},
    {"ResourceApplyAdagradV2", TA_ADAGRAD_V2},
    {"SparseApplyAdagradV2", TA_ADAGRAD_V2},
    {"ResourceSparseApplyAdagradV2", TA_ADAGRAD_V2},
    {"ApplyProximalAdagrad", TA_PROXIMAL_ADAGRAD},
    {"ResourceApplyProximalAdagrad", TA_PROXIMAL_ADAGRAD},
    {"SparseApplyProximalAdagrad", TA_PROXIMAL_ADAGRAD},
    {"ResourceSparseApplyProximalAdagrad", TA_PROXIMAL_ADAGRAD},
    {"ApplyAdagradDA", TA_ADAGRAD_DA},
    {"ResourceApplyAdagradDA", TA_ADAGRAD_DA},
    {"SparseApplyAdagradDA", TA_ADAGRAD_DA},
    {"ResourceSparseApplyAdagradDA", TA_ADAGRAD_DA},
    {"ApplyFtrl", TA_FTRL},
    {"ResourceApplyFtrl", TA_FTRL},
    {"SparseApplyFtrl", TA_FTRL},
    {"ResourceSparseApplyFtrl", TA_FTRL},
    {"ApplyFtrlV2", TA_FTRL_V2},
    {"ResourceApplyFtrlV2", TA_FTRL_V2},
    {"SparseApplyFtrlV2", TA_FTRL_V2},
    {"ResourceSparseApplyFtrlV2", TA_FTRL_V2},
    {"ApplyMomentum", TA_MOMENTUM},
    {"ResourceApplyMomentum", TA_MOMENTUM},
    {"SparseApplyMomentum", TA_MOMENTUM},
    {"ResourceSparseApplyMomentum", TA_MOMENTUM},
    {"ResourceApplyKerasMomentum", TA_KERAS_MOMENTUM},
    {"ResourceSparseApplyKerasMomentum", TA_KERAS_MOMENTUM},
    {"ApplyAdam", TA_ADAM},
    {"ResourceApplyAdam", TA_ADAM},
    {"ResourceApplyAdamWithAmsgrad", TA_AMSGRAD},
    {"ApplyAdaMax", TA_ADAMAX},
    {"ResourceApplyAdaMax", TA_ADAMAX},
    {"ApplyRMSProp", TA_RMSPROP},
    {"ResourceApplyRMSProp", TA_RMSPROP},
    {"SparseApplyRMSProp", TA_RMSPROP},
    {"ResourceSparseApplyRMSProp", TA_RMSPROP},
    {"ApplyCenteredRMSProp", TA_CENTERED_RMSPROP},
    {"ResourceApplyCenteredRMSProp", TA_CENTERED_RMSPROP},
    {"SparseApplyCenteredRMSProp", TA_CENTERED_RMSPROP},
    {"ResourceSparseApplyCenteredRMSProp", TA_CENTERED_RMSPROP},
    {"ApplyAddSign", TA_ADD_SIGN},
    {"ResourceApplyAddSign", TA_ADD_SIGN},
    {"ApplyPowerSign", TA_POWER_SIGN},
    {"ResourceApplyPowerSign", TA_POWER_SIGN},
};

static const ta_op* find_op(const char* name) {
  size_t i;
  for (i = 0; i < sizeof kOps / sizeof kOps[0]; i++) {
    if (strcmp(kOps[i].name, name) == 0) return &kOps[i];
  }
  return NULL;
}

/* ---- inputs ---- */

enum { MAX_SLOTS = 4, MAX_SCALARS = 8 };

typedef enum ta_scalar {
  S_LR,
  S_ALPHA,
  S_L1,
  S_L2,
  S_L2S,
  S_LR_POWER,
  S_RHO,
  S_EPS,
  S_MOM,
  S_B1,
  S_B2,
  S_B1P,
  S_B2P,
  S_SIGN_DECAY,
  S_BETA,
  S_LOGBASE,
  S_NONE
} ta_scalar;

static ta_scalar scalar_of(const char* name) {
  static const char* const kNames[] = {
      "lr",      "alpha",    "l1",          "l2",          "l2_shrinkage", "lr_power",
      "rho",     "epsilon",  "momentum",    "beta1",       "beta2",        "beta1_power",
      "beta2_power", "sign_decay", "beta",  "logbase"};
  int i;
  for (i = 0; i < (int)(sizeof kNames / sizeof kNames[0]); i++) {
    if (strcmp(kNames[i], name) == 0) return (ta_scalar)i;
  }
  return S_NONE;
}

/* Where each input of the op is. */
typedef struct ta_layout {
  int slot[MAX_SLOTS];
  const char* slot_name[MAX_SLOTS];
  int nslots;
  int scalar[MAX_SCALARS];
  ta_scalar scalar_id[MAX_SCALARS];
  const char* scalar_name[MAX_SCALARS];
  int nscalars;
  int grad, indices, global_step;
  const char* grad_name;
} ta_layout;

static int layout_of(const tfe_op_def* d, ta_layout* l) {
  int i;
  memset(l, 0, sizeof *l);
  l->grad = l->indices = l->global_step = -1;
  for (i = 0; i < d->num_inputs; i++) {
    const tfe_arg_def* a = &d->inputs[i];
    if (a->is_ref || a->type == TF_RESOURCE) {
      if (l->nslots == MAX_SLOTS) return 0;
      l->slot_name[l->nslots] = a->name;
      l->slot[l->nslots++] = i;
    } else if (strcmp(a->name, "grad") == 0 || strcmp(a->name, "delta") == 0) {
      l->grad = i;
      l->grad_name = a->name;
    } else if (strcmp(a->name, "indices") == 0) {
      l->indices = i;
    } else if (strcmp(a->name, "global_step") == 0) {
      l->global_step = i;
    } else {
      ta_scalar id = scalar_of(a->name);
      if (id == S_NONE || l->nscalars == MAX_SCALARS) return 0;
      l->scalar_id[l->nscalars] = id;
      l->scalar_name[l->nscalars] = a->name;
      l->scalar[l->nscalars++] = i;
    }
  }
  return l->nslots > 0 && l->grad >= 0;
}

/* TF's wording for a scalar input that is not a scalar (it differs from
 * op to op); `checked` says whether its sign is checked too. */
static const char* scalar_label(const char* op, ta_kind kind, int sparse, ta_scalar id,
                                const char* name, int* checked) {
  int strict = kind == TA_PROXIMAL_ADAGRAD || (sparse && (kind == TA_FTRL || kind == TA_FTRL_V2));
  *checked = strict && (id == S_LR || id == S_L1 || id == S_L2 || id == S_L2S ||
                        id == S_LR_POWER);
  switch (id) {
    case S_LR:
      if (kind == TA_PROXIMAL_ADAGRAD) return "lr is not a positive scalar: ";
      if (*checked) return "lr is not a positive scalar (or zero if multiply_linear_by_lr is set): ";
      if (kind == TA_ADAM || kind == TA_AMSGRAD || kind == TA_ADAMAX ||
          (!sparse && (kind == TA_RMSPROP || kind == TA_CENTERED_RMSPROP)) ||
          (sparse && (kind == TA_MOMENTUM || kind == TA_KERAS_MOMENTUM))) {
        return "lr is not a scalar : ";
      }
      return "lr is not a scalar: ";
    case S_ALPHA:
      /* The sparse proximal gradient descent calls its alpha "lr". */
      if (sparse && kind == TA_PROXIMAL_GD) return "lr is not a scalar: ";
      return "alpha is not a scalar: ";
    case S_L1:
      return *checked ? "l1 regularization strength is not a non-negative scalar: "
                      : "l1 regularization strength is not a scalar: ";
    case S_L2:
      return *checked ? "l2 regularization strength is not a non-negative scalar: "
                      : "l2 regularization strength is not a scalar: ";
    case S_L2S:
      return *checked ? "l2 shrinkage regularization strength is not a non-negative scalar: "
                      : "l2 shrinkage regularization strength is not a scalar: ";
    case S_LR_POWER:
      return *checked ? "lr_power is not a non-positive scalar: " : "lr_power is not a scalar";
    default:
      (void)op;
      return name; /* "<name> is not a scalar: " is built by the caller */
  }
}

/* Real value of a scalar tensor element (the real part of a complex). */
static double scalar_value(const TF_Tensor* t) {
  const void* p = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT:
      return ((const float*)p)[0];
    case TF_DOUBLE:
      return ((const double*)p)[0];
    case TF_HALF:
      return kutil_f16_to_f32(((const uint16_t*)p)[0]);
    case TF_BFLOAT16:
      return kutil_bf16_to_f32(((const uint16_t*)p)[0]);
    case TF_COMPLEX64:
      return ((const float*)p)[0];
    case TF_COMPLEX128:
      return ((const double*)p)[0];
    default:
      return 0;
  }
}

static int check_scalars(tfe_kernel_context* k, const ta_op* op, int sparse,
                         const ta_layout* l) {
  int i;
  for (i = 0; i < l->nscalars; i++) {
    const TF_Tensor* t = k->inputs[l->scalar[i]];
    int checked = 0, bad;
    const char* label =
        scalar_label(op->name, op->kind, sparse, l->scalar_id[i], l->scalar_name[i], &checked);
    kutil_shape_buf sb;
    bad = t->num_dims != 0;
    if (!bad && checked) {
      double v = scalar_value(t);
      int by_lr = 0;
      tfe_attrs_get_bool(k->attrs, "multiply_linear_by_lr", &by_lr, NULL);
      switch (l->scalar_id[i]) {
        case S_LR:
          bad = op->kind == TA_PROXIMAL_ADAGRAD ? !(v > 0) : (by_lr ? !(v >= 0) : !(v > 0));
          break;
        case S_LR_POWER:
          bad = !(v <= 0);
          break;
        default:
          bad = !(v >= 0);
          break;
      }
    }
    if (!bad) continue;
    if (label == l->scalar_name[i]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s is not a scalar: %s", label, kutil_tshape(t, &sb));
    } else {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s%s", label, kutil_tshape(t, &sb));
    }
    return 0;
  }
  if (l->global_step >= 0 && k->inputs[l->global_step]->num_dims != 0) {
    /* TF reads it unchecked (and aborts); tfe reports it. */
    kutil_shape_buf sb;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "global_step is not a scalar: %s",
               kutil_tshape(k->inputs[l->global_step], &sb));
    return 0;
  }
  return 1;
}

/* ---- the variables ---- */

typedef struct ta_vars {
  int n, resource;
  tfe_resource* res[MAX_SLOTS];
  tfe_ref_cell* cell[MAX_SLOTS];
  pthread_mutex_t* locked[MAX_SLOTS];
  int nlocked;
  TF_Tensor* value[MAX_SLOTS]; /* borrowed current values */
} ta_vars;

static void vars_release(ta_vars* v) {
  int i;
  for (i = v->nlocked - 1; i >= 0; i--) pthread_mutex_unlock(v->locked[i]);
  for (i = 0; i < v->n; i++) {
    if (v->res[i] != NULL) tfe_resource_unref(v->res[i]);
  }
}

static pthread_mutex_t* slot_mutex(ta_vars* v, int i) {
  return v->resource ? &v->res[i]->mu : &v->cell[i]->mu;
}

/* Looks the slots up and locks each distinct one once, in address order. */
static int vars_acquire(tfe_kernel_context* k, const ta_layout* l, int resource, ta_vars* v) {
  int i, j;
  memset(v, 0, sizeof *v);
  v->resource = resource;
  for (i = 0; i < l->nslots; i++) {
    if (resource) {
      v->res[i] = tfe_var_from_handle(k->inputs[l->slot[i]], k->status);
      v->n = i + 1;
      if (v->res[i] == NULL) return 0;
    } else {
      v->cell[i] = tfe_kernel_input_ref(k, l->slot[i]);
      v->n = i + 1;
      if (v->cell[i] == NULL) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input %d of %s is not a reference", l->slot[i],
                   k->op_def != NULL ? k->op_def->name : "?");
        return 0;
      }
    }
  }
  for (i = 0; i < v->n; i++) {
    pthread_mutex_t* lowest = NULL;
    for (j = 0; j < v->n; j++) {
      pthread_mutex_t* m = slot_mutex(v, j);
      int taken = 0, t;
      for (t = 0; t < v->nlocked; t++) taken |= v->locked[t] == m;
      if (!taken && (lowest == NULL || (uintptr_t)m < (uintptr_t)lowest)) lowest = m;
    }
    if (lowest == NULL) break;
    pthread_mutex_lock(lowest);
    v->locked[v->nlocked++] = lowest;
  }
  for (i = 0; i < v->n; i++) {
    TF_Tensor* val = resource ? v->res[i]->value : v->cell[i]->value;
    if (val == NULL) {
      if (resource) {
        tfe_var_set_missing_error(v->res[i], 0, k->status);
      } else {
        KUTIL_FAIL(k, TF_FAILED_PRECONDITION, "Attempting to use uninitialized variables: %s",
                   l->slot_name[i]);
      }
      return 0;
    }
    v->value[i] = val;
  }
  return 1;
}

static int same_shape(const TF_Tensor* a, const TF_Tensor* b) {
  return a->num_dims == b->num_dims &&
         (a->num_dims == 0 ||
          memcmp(a->dims, b->dims, (size_t)a->num_dims * sizeof(int64_t)) == 0);
}

static int check_shapes(tfe_kernel_context* k, const ta_op* op, const ta_layout* l,
                        const ta_vars* v, int sparse, TF_DataType dt) {
  const TF_Tensor* var = v->value[0];
  const TF_Tensor* grad = k->inputs[l->grad];
  kutil_shape_buf a, b;
  int i;
  for (i = 0; i < v->n; i++) {
    if (v->value[i]->dtype != dt) {
      /* TF CHECK-fails (aborts) here; tfe reports it. */
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "DType of variable handle and value does not match.");
      return 0;
    }
  }
  for (i = 1; i < v->n; i++) {
    if (!same_shape(var, v->value[i])) {
      /* Dense centered RMSProp prints ms's shape in its message about mg. */
      const TF_Tensor* shown =
          (!sparse && op->kind == TA_CENTERED_RMSPROP && i == 1) ? v->value[2] : v->value[i];
      /* TF's names for some slots in these messages. */
      const char* name = l->slot_name[i];
      if (op->kind == TA_ADAGRAD_DA) name = "accum";
      if (sparse && op->kind == TA_ADADELTA && i == 1) name = "accum_grad";
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "var and %s do not have the same shape%s %s", name,
                 kutil_tshape(var, &a), kutil_tshape(shown, &b));
      return 0;
    }
  }
  if (!sparse) {
    if (!same_shape(var, grad)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "var and %s do not have the same shape%s %s",
                 l->grad_name, kutil_tshape(var, &a), kutil_tshape(grad, &b));
      return 0;
    }
    return 1;
  }
  {
    const TF_Tensor* idx = k->inputs[l->indices];
    if (var->num_dims < 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "var must be at least 1 dimensional");
      return 0;
    }
    if (idx->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices must be one-dimensional");
      return 0;
    }
    if (grad->num_dims != var->num_dims) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "grad must have the same number of dimensions as var");
      return 0;
    }
    for (i = 1; i < var->num_dims; i++) {
      if (var->dims[i] != grad->dims[i]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "var and grad must match in dimension %d", i);
        return 0;
      }
    }
    if (grad->dims[0] != idx->dims[0]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "grad must be the same size as indices in the first dimension.");
      return 0;
    }
  }
  return 1;
}

/* ---- running a rule ---- */

#define SC_FILL(c, T)                                                         \
  do {                                                                        \
    int i_;                                                                   \
    memset(&(c), 0, sizeof(c));                                               \
    for (i_ = 0; i_ < l->nscalars; i_++) {                                    \
      T x_ = scalar_as_##T(k->inputs[l->scalar[i_]]);                         \
      switch (l->scalar_id[i_]) {                                             \
        case S_LR: (c).lr = x_; break;                                        \
        case S_ALPHA: (c).alpha = x_; break;                                  \
        case S_L1: (c).l1 = x_; break;                                        \
        case S_L2: (c).l2 = x_; break;                                        \
        case S_L2S: (c).l2s = x_; break;                                      \
        case S_LR_POWER: (c).lr_power = x_; break;                            \
        case S_RHO: (c).rho = x_; break;                                      \
        case S_EPS: (c).eps = x_; break;                                      \
        case S_MOM: (c).mom = x_; break;                                      \
        case S_B1: (c).b1 = x_; break;                                        \
        case S_B2: (c).b2 = x_; break;                                        \
        case S_B1P: (c).b1p = x_; break;                                      \
        case S_B2P: (c).b2p = x_; break;                                      \
        case S_SIGN_DECAY: (c).sign_decay = x_; break;                        \
        case S_BETA: (c).beta = x_; break;                                    \
        case S_LOGBASE: (c).logbase = x_; break;                              \
        default: break;                                                       \
      }                                                                       \
    }                                                                         \
    /* Gradient descent's rate is its input "alpha". */                      \
    if (kind == TA_GD || kind == TA_PROXIMAL_GD) (c).lr = (c).alpha;          \
    (c).global_step = gstep;                                                  \
    (c).nesterov = fl->nesterov;                                              \
    (c).update_slots = fl->update_slots;                                      \
    (c).by_lr = fl->by_lr;                                                    \
  } while (0)

typedef float complex c64_t;
typedef double complex c128_t;

static float scalar_as_float(const TF_Tensor* t) { return (float)scalar_value(t); }
static double scalar_as_double(const TF_Tensor* t) { return scalar_value(t); }
static c64_t scalar_as_c64_t(const TF_Tensor* t) {
  const float* p = kutil_data(t);
  return CMPLXF(p[0], p[1]);
}
static c128_t scalar_as_c128_t(const TF_Tensor* t) {
  const double* p = kutil_data(t);
  return CMPLX(p[0], p[1]);
}

typedef struct ta_flags {
  int nesterov, update_slots, by_lr;
} ta_flags;

/* The rows to update: all of it (dense, one row), or the rows indices
 * names. Returns the offset at which an index is out of range, or -1. */
typedef struct ta_rows {
  int sparse;
  int64_t inner;     /* elements per row (dense: all) */
  int64_t first_dim; /* var's first dimension */
  int64_t nrows;     /* dense: 1 */
  const void* idx;
  int idx64;
} ta_rows;

static int64_t row_index(const ta_rows* r, int64_t i) {
  if (!r->sparse) return 0;
  return r->idx64 ? ((const int64_t*)r->idx)[i] : ((const int32_t*)r->idx)[i];
}

static int64_t first_bad_index(const ta_rows* r) {
  int64_t i;
  for (i = 0; r->sparse && i < r->nrows; i++) {
    int64_t x = row_index(r, i);
    if (x < 0 || x >= r->first_dim) return i;
  }
  return -1;
}

/* A dense update of many elements is split over the kernel's intra-op
 * threads: every element's rule reads and writes only its own position, so
 * contiguous chunks are independent. */
#define TA_CAT2(a, b) a##b
#define TA_CAT(a, b) TA_CAT2(a, b)

enum { PAR_MIN = 1 << 15 };

typedef struct {
  TF_DataType dt;
  void (*fn)(void); /* the typed rule */
  void* base[MAX_SLOTS];
  int nslots;
  const void* g;
  const void* c; /* the typed scalars */
} par_arg;

#define PAR_CASE(DT, T, SFX)                                                          \
  case DT: {                                                                          \
    T* s_[MAX_SLOTS];                                                                 \
    for (j_ = 0; j_ < a->nslots; j_++) s_[j_] = (T*)a->base[j_] + b;                 \
    ((TA_CAT(ta_rule_fn_, SFX))a->fn)(e - b, s_, (const T*)a->g + b,                  \
                                      (const TA_CAT(ta_sc_, SFX)*)a->c);              \
    break;                                                                            \
  }

static void par_chunk(void* arg, int64_t b, int64_t e) {
  const par_arg* a = (const par_arg*)arg;
  int j_;
  switch (a->dt) {
    PAR_CASE(TF_FLOAT, float, f32)
    PAR_CASE(TF_DOUBLE, double, f64)
    PAR_CASE(TF_COMPLEX64, c64_t, c64)
    PAR_CASE(TF_COMPLEX128, c128_t, c128)
    default:
      break;
  }
}

#define RUN_NATIVE(T, SFX)                                                       \
  do {                                                                           \
    TA_CAT(ta_sc_, SFX) c;                                                       \
    TA_CAT(ta_rule_fn_, SFX) fn = TA_CAT(ta_rules_, SFX)[kind];                  \
    T* base[MAX_SLOTS];                                                          \
    T* s[MAX_SLOTS];                                                             \
    const T* g = (const T*)kutil_data(grad);                                     \
    int64_t r_, j_;                                                              \
    SC_FILL(c, T);                                                               \
    for (j_ = 0; j_ < v->n; j_++) base[j_] = (T*)kutil_data(v->value[j_]);       \
    if (!rows->sparse && rows->inner >= 2 * PAR_MIN) {                           \
      par_arg pa_;                                                               \
      pa_.dt = dt;                                                               \
      pa_.fn = (void (*)(void))fn;                                                  \
      for (j_ = 0; j_ < v->n; j_++) pa_.base[j_] = base[j_];                     \
      pa_.nslots = v->n;                                                         \
      pa_.g = g;                                                                 \
      pa_.c = &c;                                                                \
      tfe_parallel_for(tfe_kernel_threadpool(k), rows->inner, PAR_MIN, par_chunk, \
                       &pa_);                                                    \
      break;                                                                     \
    }                                                                            \
    for (r_ = 0; r_ < rows->nrows; r_++) {                                       \
      const int64_t at = row_index(rows, r_) * rows->inner;                      \
      for (j_ = 0; j_ < v->n; j_++) s[j_] = base[j_] + at;                       \
      fn(rows->inner, s, g + r_ * rows->inner, &c);                              \
    }                                                                            \
  } while (0)

/* half and bfloat16: each row goes through float buffers in chunks. */
enum { CHUNK = 256 };

static void to_f32(TF_DataType dt, const uint16_t* src, float* dst, int64_t n) {
  int64_t i;
  for (i = 0; i < n; i++) {
    dst[i] = dt == TF_HALF ? kutil_f16_to_f32(src[i]) : kutil_bf16_to_f32(src[i]);
  }
}

static void from_f32(TF_DataType dt, const float* src, uint16_t* dst, int64_t n) {
  int64_t i;
  for (i = 0; i < n; i++) {
    dst[i] = dt == TF_HALF ? kutil_f32_to_f16(src[i]) : kutil_f32_to_bf16(src[i]);
  }
}

static void run_rule(ta_kind kind, TF_DataType dt, const ta_layout* l, const ta_vars* v,
                     const TF_Tensor* grad, const ta_rows* rows, int64_t gstep,
                     const ta_flags* fl, tfe_kernel_context* k) {
  switch (dt) {
    case TF_FLOAT:
      RUN_NATIVE(float, f32);
      break;
    case TF_DOUBLE:
      RUN_NATIVE(double, f64);
      break;
    case TF_COMPLEX64:
      RUN_NATIVE(c64_t, c64);
      break;
    case TF_COMPLEX128:
      RUN_NATIVE(c128_t, c128);
      break;
    default: {
      ta_sc_f32 c;
      ta_rule_fn_f32 fn = ta_rules_f32[kind];
      float buf[MAX_SLOTS][CHUNK], gbuf[CHUNK];
      float* s[MAX_SLOTS];
      const uint16_t* g = (const uint16_t*)kutil_data(grad);
      int64_t r, j, off;
      SC_FILL(c, float);
      for (j = 0; j < v->n; j++) s[j] = buf[j];
      for (r = 0; r < rows->nrows; r++) {
        const int64_t at = row_index(rows, r) * rows->inner;
        for (off = 0; off < rows->inner; off += CHUNK) {
          const int64_t n = rows->inner - off < CHUNK ? rows->inner - off : CHUNK;
          for (j = 0; j < v->n; j++) {
            to_f32(dt, (const uint16_t*)kutil_data(v->value[j]) + at + off, buf[j], n);
          }
          to_f32(dt, g + r * rows->inner + off, gbuf, n);
          fn(n, s, gbuf, &c);
          for (j = 0; j < v->n; j++) {
            from_f32(dt, buf[j], (uint16_t*)kutil_data(v->value[j]) + at + off, n);
          }
        }
      }
      break;
    }
  }
}

static void apply_compute(tfe_kernel_context* k) {
  const ta_op* op = k->op_def != NULL ? find_op(k->op_def->name) : NULL;
  ta_layout l;
  ta_vars v;
  ta_rows rows;
  ta_flags fl = {0, 1, 0};
  const TF_Tensor* grad;
  TF_DataType dt;
  int resource, sparse, i;
  int64_t gstep = 0, bad;
  if (op == NULL || !layout_of(k->op_def, &l)) {
    KUTIL_FAIL(k, TF_INTERNAL, "no optimizer update for op %s",
               k->op_def != NULL ? k->op_def->name : "?");
    return;
  }
  resource = strncmp(op->name, "Resource", 8) == 0;
  sparse = strstr(op->name, "SparseApply") != NULL;
  grad = k->inputs[l.grad];
  dt = grad->dtype;
  tfe_attrs_get_bool(k->attrs, "use_nesterov", &fl.nesterov, NULL);
  tfe_attrs_get_bool(k->attrs, "update_slots", &fl.update_slots, NULL);
  tfe_attrs_get_bool(k->attrs, "multiply_linear_by_lr", &fl.by_lr, NULL);
  if (!vars_acquire(k, &l, resource, &v)) goto done;
  /* A reference op's output is its var, whatever happens next. */
  if (!resource && !tfe_kernel_set_output_ref(k, 0, v.cell[0])) goto done;
  if (!check_scalars(k, op, sparse, &l)) goto done;
  if (!check_shapes(k, op, &l, &v, sparse, dt)) goto done;
  if (l.global_step >= 0) {
    const TF_Tensor* t = k->inputs[l.global_step];
    gstep = *(const int64_t*)kutil_data(t);
  }
  memset(&rows, 0, sizeof rows);
  rows.sparse = sparse;
  if (sparse) {
    const TF_Tensor* idx = k->inputs[l.indices];
    rows.first_dim = v.value[0]->dims[0];
    rows.nrows = idx->dims[0];
    rows.inner = rows.first_dim > 0 ? kutil_num_elements(v.value[0]) / rows.first_dim : 0;
    rows.idx = kutil_data(idx);
    rows.idx64 = idx->dtype == TF_INT64;
    bad = first_bad_index(&rows);
    if (bad >= 0) {
      if (op->kind == TA_KERAS_MOMENTUM) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "indices[%lld] = %lld is not in [0, %lld)",
                   (long long)bad, (long long)row_index(&rows, bad),
                   (long long)rows.first_dim);
      } else {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Index %lld at offset %lld in indices is out of range",
                   (long long)row_index(&rows, bad), (long long)bad);
      }
      goto done;
    }
  } else {
    rows.nrows = 1;
    rows.inner = kutil_num_elements(grad);
  }
  if (rows.inner == 0 || rows.nrows == 0) goto done;
  if (resource) {
    for (i = 0; i < v.n; i++) {
      /* Distinct slots only: a variable passed twice was prepared once. */
      if (!tfe_var_prepare_update(v.res[i], k->status)) goto done;
      v.value[i] = v.res[i]->value;
    }
  }
  run_rule(op->kind, dt, &l, &v, grad, &rows, gstep, &fl, k);
done:
  vars_release(&v);
}

void tfe_register_cpu_train_apply_kernels(void) {
  static const TF_DataType kAll[] = {TF_HALF,      TF_BFLOAT16,  TF_FLOAT,
                                     TF_DOUBLE,    TF_COMPLEX64, TF_COMPLEX128};
  static const TF_DataType kReal[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType kHalfUp[] = {TF_HALF, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType kF32F64[] = {TF_FLOAT, TF_DOUBLE};
  static const TF_DataType kNoBf16[] = {TF_HALF, TF_FLOAT, TF_DOUBLE, TF_COMPLEX64,
                                        TF_COMPLEX128};
  size_t i;
  tfe_register_cpu_train_scatter_kernels();
  for (i = 0; i < sizeof kOps / sizeof kOps[0]; i++) {
    const ta_op* op = &kOps[i];
    const TF_DataType* types = kAll;
    int n = KUTIL_COUNT(kAll);
    int sparse = strstr(op->name, "SparseApply") != NULL;
    switch (op->kind) {
      case TA_PROXIMAL_GD:
      case TA_PROXIMAL_ADAGRAD:
      case TA_ADAGRAD_DA:
        types = kF32F64;
        n = KUTIL_COUNT(kF32F64);
        break;
      case TA_ADAMAX:
        types = kHalfUp;
        n = KUTIL_COUNT(kHalfUp);
        break;
      case TA_FTRL:
      case TA_FTRL_V2:
      case TA_AMSGRAD:
      case TA_ADD_SIGN:
      case TA_POWER_SIGN:
        types = kReal;
        n = KUTIL_COUNT(kReal);
        break;
      case TA_RMSPROP:
      case TA_CENTERED_RMSPROP:
        if (sparse) {
          types = kNoBf16;
          n = KUTIL_COUNT(kNoBf16);
        }
        break;
      default:
        break;
    }
    if (sparse) {
      static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
      tfe_kutil_register(op->name, apply_compute, "T", types, n, "Tindices", kIdx,
                         KUTIL_COUNT(kIdx));
    } else {
      tfe_kutil_register(op->name, apply_compute, "T", types, n, NULL, NULL, 0);
    }
  }
}
