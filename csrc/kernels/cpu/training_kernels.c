/* CPU kernels: optimizer updates on resource variables
 * (ResourceApplyMomentum, ResourceApplyKerasMomentum, ResourceApplyAdam),
 * with TF's formulas in TF's operation order, computed in the variable's
 * own precision (float for half and bfloat16, as TF's Eigen code does), so
 * float32 results match TF bit for bit.
 *
 * Every variable an update touches is locked, in address order (a
 * variable passed twice is locked once), and made exclusively its own
 * before it is written (tfe_var_prepare_update). */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "kernels/cpu/kutil.h"
#include "kernels/resource.h"

void tfe_register_cpu_training_kernels(void);

#define MAX_VARS 3

typedef struct vars {
  tfe_resource* r[MAX_VARS];
  tfe_resource* locked[MAX_VARS];
  int n, nlocked;
} vars;

static void vars_release(vars* v) {
  int i;
  for (i = v->nlocked - 1; i >= 0; i--) pthread_mutex_unlock(&v->locked[i]->mu);
  for (i = 0; i < v->n; i++) {
    if (v->r[i] != NULL) tfe_resource_unref(v->r[i]);
  }
}

/* Looks up the first n inputs as variables, locks them, checks that each
 * is initialized, has dtype dt and the shape of `like`, and prepares them
 * for update. names: the input names for messages. */
static int vars_acquire(tfe_kernel_context* k, vars* v, int n, const char* const* names,
                        TF_DataType dt, const TF_Tensor* like) {
  int i, j;
  memset(v, 0, sizeof *v);
  for (i = 0; i < n; i++) {
    v->r[i] = tfe_var_from_handle(k->inputs[i], k->status);
    v->n = i + 1;
    if (v->r[i] == NULL) return 0;
  }
  /* Lock in address order, each distinct resource once. */
  for (i = 0; i < n; i++) {
    tfe_resource* lowest = NULL;
    for (j = 0; j < n; j++) {
      int taken = 0, t;
      for (t = 0; t < v->nlocked; t++) taken |= v->locked[t] == v->r[j];
      if (!taken && (lowest == NULL || (uintptr_t)v->r[j] < (uintptr_t)lowest)) {
        lowest = v->r[j];
      }
    }
    if (lowest == NULL) break;
    pthread_mutex_lock(&lowest->mu);
    v->locked[v->nlocked++] = lowest;
  }
  for (i = 0; i < n; i++) {
    tfe_resource* r = v->r[i];
    if (r->value == NULL) {
      tfe_var_set_missing_error(r, 0, k->status);
      return 0;
    }
    if (r->dtype != dt) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "DType of variable handle and value does not match.");
      return 0;
    }
    if (r->value->num_dims != like->num_dims ||
        (like->num_dims > 0 &&
         memcmp(r->value->dims, like->dims, (size_t)like->num_dims * sizeof(int64_t)) != 0)) {
      kutil_shape_buf a, b;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s and grad do not have the same shape%s %s",
                 names[i], kutil_tshape(r->value, &a), kutil_tshape(like, &b));
      return 0;
    }
  }
  for (i = 0; i < n; i++) {
    if (!tfe_var_prepare_update(v->r[i], k->status)) return 0;
  }
  return 1;
}

/* Checks that inputs [first, first + n) are scalars. */
static int scalars(tfe_kernel_context* k, int first, int n, const char* const* names) {
  int i;
  for (i = 0; i < n; i++) {
    const TF_Tensor* t = k->inputs[first + i];
    if (t->num_dims != 0) {
      kutil_shape_buf a;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s is not a scalar: %s", names[i],
                 kutil_tshape(t, &a));
      return 0;
    }
  }
  return 1;
}

/* Element access in float or double for the four floating types. */
static double load(TF_DataType dt, const void* p, int64_t i) {
  switch (dt) {
    case TF_FLOAT:
      return ((const float*)p)[i];
    case TF_DOUBLE:
      return ((const double*)p)[i];
    case TF_HALF:
      return kutil_f16_to_f32(((const uint16_t*)p)[i]);
    default:
      return kutil_bf16_to_f32(((const uint16_t*)p)[i]);
  }
}

static void store(TF_DataType dt, void* p, int64_t i, double v) {
  switch (dt) {
    case TF_FLOAT:
      ((float*)p)[i] = (float)v;
      break;
    case TF_DOUBLE:
      ((double*)p)[i] = v;
      break;
    case TF_HALF:
      ((uint16_t*)p)[i] = kutil_f32_to_f16((float)v);
      break;
    default:
      ((uint16_t*)p)[i] = kutil_f32_to_bf16((float)v);
      break;
  }
}

/* ---- momentum ---- */

/* The float-precision loop (float, half, bfloat16) and the double one
 * differ only in the arithmetic type. */
#define MOMENTUM_LOOP(T, keras)                                                  \
  do {                                                                           \
    const T lr = (T)load(dt, kutil_data(k->inputs[2]), 0);                       \
    const T mom = (T)load(dt, kutil_data(k->inputs[4]), 0);                      \
    for (i = 0; i < n; i++) {                                                    \
      T var = (T)load(dt, vp, i), acc = (T)load(dt, ap, i);                      \
      const T g = (T)load(dt, gp, i);                                            \
      if (keras) {                                                               \
        acc = acc * mom - g * lr;                                                \
        var = nesterov ? var + (acc * mom - g * lr) : var + acc;                 \
      } else {                                                                   \
        acc = acc * mom + g;                                                     \
        var = nesterov ? var - (g * lr + acc * mom * lr) : var - acc * lr;       \
      }                                                                          \
      store(dt, vp, i, (double)var);                                             \
      store(dt, ap, i, (double)acc);                                             \
    }                                                                            \
  } while (0)

static void momentum(tfe_kernel_context* k, int keras) {
  static const char* const kVars[] = {"var", "accum"};
  static const char* const kLr[] = {"lr"};
  static const char* const kMom[] = {"momentum"};
  const TF_Tensor* grad = k->inputs[3];
  TF_DataType dt = grad->dtype;
  int nesterov = 0;
  vars v;
  void *vp, *ap;
  const void* gp;
  int64_t i, n;
  if (!tfe_attrs_get_bool(k->attrs, "use_nesterov", &nesterov, k->status)) return;
  if (!scalars(k, 2, 1, kLr) || !scalars(k, 4, 1, kMom)) return;
  if (!vars_acquire(k, &v, 2, kVars, dt, grad)) {
    vars_release(&v);
    return;
  }
  vp = kutil_data(v.r[0]->value);
  ap = kutil_data(v.r[1]->value);
  gp = kutil_data(grad);
  n = kutil_num_elements(grad);
  if (dt == TF_DOUBLE) {
    MOMENTUM_LOOP(double, keras);
  } else {
    MOMENTUM_LOOP(float, keras);
  }
  vars_release(&v);
}

static void momentum_compute(tfe_kernel_context* k) { momentum(k, 0); }
static void keras_momentum_compute(tfe_kernel_context* k) { momentum(k, 1); }

/* ---- Adam ---- */

#define ADAM_LOOP(T, SQRT)                                                       \
  do {                                                                           \
    const T b1p = (T)load(dt, kutil_data(k->inputs[3]), 0);                      \
    const T b2p = (T)load(dt, kutil_data(k->inputs[4]), 0);                      \
    const T lr = (T)load(dt, kutil_data(k->inputs[5]), 0);                       \
    const T b1 = (T)load(dt, kutil_data(k->inputs[6]), 0);                       \
    const T b2 = (T)load(dt, kutil_data(k->inputs[7]), 0);                       \
    const T eps = (T)load(dt, kutil_data(k->inputs[8]), 0);                      \
    const T alpha = lr * SQRT((T)1 - b2p) / ((T)1 - b1p);                        \
    for (i = 0; i < n; i++) {                                                    \
      T var = (T)load(dt, vp, i), m = (T)load(dt, mp, i), vv = (T)load(dt, sp, i); \
      const T g = (T)load(dt, gp, i);                                            \
      m = m + (g - m) * ((T)1 - b1);                                             \
      vv = vv + (g * g - vv) * ((T)1 - b2);                                      \
      if (nesterov) {                                                            \
        var = var - ((g * ((T)1 - b1) + b1 * m) * alpha) / (SQRT(vv) + eps);     \
      } else {                                                                   \
        var = var - (m * alpha) / (SQRT(vv) + eps);                              \
      }                                                                          \
      store(dt, vp, i, (double)var);                                             \
      store(dt, mp, i, (double)m);                                               \
      store(dt, sp, i, (double)vv);                                              \
    }                                                                            \
  } while (0)

static void adam_compute(tfe_kernel_context* k) {
  static const char* const kVars[] = {"var", "m", "v"};
  static const char* const kScalars[] = {"beta1_power", "beta2_power", "lr",
                                         "beta1",       "beta2",       "epsilon"};
  const TF_Tensor* grad = k->inputs[9];
  TF_DataType dt = grad->dtype;
  int nesterov = 0;
  vars v;
  void *vp, *mp, *sp;
  const void* gp;
  int64_t i, n;
  if (!tfe_attrs_get_bool(k->attrs, "use_nesterov", &nesterov, k->status)) return;
  if (!scalars(k, 3, 6, kScalars)) return;
  if (!vars_acquire(k, &v, 3, kVars, dt, grad)) {
    vars_release(&v);
    return;
  }
  vp = kutil_data(v.r[0]->value);
  mp = kutil_data(v.r[1]->value);
  sp = kutil_data(v.r[2]->value);
  gp = kutil_data(grad);
  n = kutil_num_elements(grad);
  if (dt == TF_DOUBLE) {
    ADAM_LOOP(double, sqrt);
  } else {
    ADAM_LOOP(float, sqrtf);
  }
  vars_release(&v);
}

void tfe_register_cpu_training_kernels(void) {
  static const TF_DataType kFloat[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT, TF_DOUBLE};
  tfe_kutil_register("ResourceApplyMomentum", momentum_compute, "T", kFloat,
                     KUTIL_COUNT(kFloat), NULL, NULL, 0);
  tfe_kutil_register("ResourceApplyKerasMomentum", keras_momentum_compute, "T", kFloat,
                     KUTIL_COUNT(kFloat), NULL, NULL, 0);
  tfe_kutil_register("ResourceApplyAdam", adam_compute, "T", kFloat, KUTIL_COUNT(kFloat),
                     NULL, NULL, 0);
}
