/* The per-element update rules of the optimizer apply ops, instantiated
 * once per arithmetic type by train_apply_kernels.c: it defines TA_T (the
 * element type), TA_SFX (a name suffix), TA_REAL (1 for real types) and
 * the math macros TA_SQRT, TA_ABS, TA_POW, TA_EXP, then includes this
 * file. Each rule updates n consecutive elements of its slots s[0] (var),
 * s[1], ... from the gradient g and the scalars in c, with the formulas
 * and operation order of TensorFlow's CPU functors, in TA_T's precision.
 * Each rule is compiled for several x86 ISA levels (KUTIL_CLONES) and the
 * including file is built with -fno-math-errno, so the loops vectorize;
 * neither changes a result (no contraction, IEEE sqrt either way).
 * No include guard: the file is meant to be included several times. */

#define TA_CAT2(a, b) a##b
#define TA_CAT(a, b) TA_CAT2(a, b)
#define TA_FN(name) TA_CAT(name, TA_SFX)

typedef struct TA_FN(ta_sc_) {
  TA_T lr, alpha, l1, l2, l2s, lr_power, rho, eps, mom, b1, b2, b1p, b2p, sign_decay, beta,
      logbase;
  int64_t global_step;
  int nesterov, update_slots, by_lr;
} TA_FN(ta_sc_);

typedef void (*TA_FN(ta_rule_fn_))(int64_t n, TA_T* const* s, const TA_T* g,
                                   const TA_FN(ta_sc_) * c);

#define TA_ONE ((TA_T)1)

KUTIL_CLONES static void TA_FN(upd_gd_)(int64_t n, TA_T* const* s, const TA_T* g, const TA_FN(ta_sc_) * c) {
  TA_T* var = s[0];
  int64_t i;
  for (i = 0; i < n; i++) var[i] -= g[i] * c->lr;
}

KUTIL_CLONES static void TA_FN(upd_adadelta_)(int64_t n, TA_T* const* s, const TA_T* g,
                                 const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *acc = s[1], *upd = s[2];
  int64_t i;
  for (i = 0; i < n; i++) {
    TA_T u;
    acc[i] = acc[i] * c->rho + g[i] * g[i] * (TA_ONE - c->rho);
    u = TA_SQRT(upd[i] + c->eps) * (TA_ONE / TA_SQRT(acc[i] + c->eps)) * g[i];
    var[i] -= u * c->lr;
    upd[i] = upd[i] * c->rho + u * u * (TA_ONE - c->rho);
  }
}

KUTIL_CLONES static void TA_FN(upd_adagrad_)(int64_t n, TA_T* const* s, const TA_T* g,
                                const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *acc = s[1];
  int64_t i;
  for (i = 0; i < n; i++) {
    if (c->update_slots) acc[i] += g[i] * g[i];
    var[i] -= g[i] * c->lr * (TA_ONE / TA_SQRT(acc[i]));
  }
}

KUTIL_CLONES static void TA_FN(upd_adagrad_v2_)(int64_t n, TA_T* const* s, const TA_T* g,
                                   const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *acc = s[1];
  int64_t i;
  for (i = 0; i < n; i++) {
    if (c->update_slots) acc[i] += g[i] * g[i];
    var[i] -= g[i] * c->lr / (TA_SQRT(acc[i]) + c->eps);
  }
}

KUTIL_CLONES static void TA_FN(upd_momentum_)(int64_t n, TA_T* const* s, const TA_T* g,
                                 const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *acc = s[1];
  int64_t i;
  for (i = 0; i < n; i++) {
    acc[i] = acc[i] * c->mom + g[i];
    if (c->nesterov) {
      var[i] -= g[i] * c->lr + acc[i] * c->mom * c->lr;
    } else {
      var[i] -= acc[i] * c->lr;
    }
  }
}

KUTIL_CLONES static void TA_FN(upd_keras_momentum_)(int64_t n, TA_T* const* s, const TA_T* g,
                                       const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *acc = s[1];
  int64_t i;
  for (i = 0; i < n; i++) {
    acc[i] = acc[i] * c->mom - g[i] * c->lr;
    if (c->nesterov) {
      var[i] += acc[i] * c->mom - g[i] * c->lr;
    } else {
      var[i] += acc[i];
    }
  }
}

KUTIL_CLONES static void TA_FN(upd_adam_)(int64_t n, TA_T* const* s, const TA_T* g, const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *m = s[1], *v = s[2];
  const TA_T a = c->lr * TA_SQRT(TA_ONE - c->b2p) / (TA_ONE - c->b1p);
  int64_t i;
  for (i = 0; i < n; i++) {
    m[i] += (g[i] - m[i]) * (TA_ONE - c->b1);
    v[i] += (g[i] * g[i] - v[i]) * (TA_ONE - c->b2);
    if (c->nesterov) {
      var[i] -= ((g[i] * (TA_ONE - c->b1) + c->b1 * m[i]) * a) / (TA_SQRT(v[i]) + c->eps);
    } else {
      var[i] -= (m[i] * a) / (TA_SQRT(v[i]) + c->eps);
    }
  }
}

KUTIL_CLONES static void TA_FN(upd_rmsprop_)(int64_t n, TA_T* const* s, const TA_T* g,
                                const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *ms = s[1], *mom = s[2];
  int64_t i;
  for (i = 0; i < n; i++) {
    ms[i] += (g[i] * g[i] - ms[i]) * (TA_ONE - c->rho);
    mom[i] = mom[i] * c->mom + (g[i] * c->lr) / TA_SQRT(ms[i] + c->eps);
    var[i] -= mom[i];
  }
}

KUTIL_CLONES static void TA_FN(upd_centered_rmsprop_)(int64_t n, TA_T* const* s, const TA_T* g,
                                         const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *mg = s[1], *ms = s[2], *mom = s[3];
  int64_t i;
  for (i = 0; i < n; i++) {
    TA_T denom;
    ms[i] += (g[i] * g[i] - ms[i]) * (TA_ONE - c->rho);
    mg[i] += (g[i] - mg[i]) * (TA_ONE - c->rho);
    denom = (ms[i] - mg[i] * mg[i]) + c->eps;
    mom[i] = mom[i] * c->mom + (g[i] * c->lr) / TA_SQRT(denom);
    var[i] -= mom[i];
  }
}

#if TA_REAL

/* TF's sgn: 0 at 0, else -1 or 1. */
static inline TA_T TA_FN(ta_sign_)(TA_T x) {
  return x == (TA_T)0 ? (TA_T)0 : (x < (TA_T)0 ? -TA_ONE : TA_ONE);
}

static inline TA_T TA_FN(ta_max_)(TA_T a, TA_T b) { return a < b ? b : a; }

KUTIL_CLONES static void TA_FN(upd_proximal_gd_)(int64_t n, TA_T* const* s, const TA_T* g,
                                    const TA_FN(ta_sc_) * c) {
  TA_T* var = s[0];
  int64_t i;
  for (i = 0; i < n; i++) {
    const TA_T prox = var[i] - g[i] * c->lr;
    if (c->l1 > (TA_T)0) {
      var[i] = TA_FN(ta_sign_)(prox) * TA_FN(ta_max_)(TA_ABS(prox) - c->lr * c->l1, (TA_T)0) /
               (TA_ONE + c->l2 * c->lr);
    } else {
      var[i] = prox / (TA_ONE + c->l2 * c->lr);
    }
  }
}

KUTIL_CLONES static void TA_FN(upd_proximal_adagrad_)(int64_t n, TA_T* const* s, const TA_T* g,
                                         const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *acc = s[1];
  int64_t i;
  for (i = 0; i < n; i++) {
    TA_T rate, prox;
    acc[i] += g[i] * g[i];
    rate = c->lr * (TA_ONE / TA_SQRT(acc[i]));
    prox = var[i] - g[i] * rate;
    if (c->l1 > (TA_T)0) {
      var[i] = TA_FN(ta_sign_)(prox) * TA_FN(ta_max_)(TA_ABS(prox) - rate * c->l1, (TA_T)0) /
               (TA_ONE + c->l2 * rate);
    } else {
      var[i] = prox / (TA_ONE + c->l2 * rate);
    }
  }
}

KUTIL_CLONES static void TA_FN(upd_adagrad_da_)(int64_t n, TA_T* const* s, const TA_T* g,
                                   const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *ga = s[1], *gsa = s[2];
  /* TF converts the step to float before multiplying. */
  const TA_T step = (TA_T)(float)c->global_step;
  const TA_T step_lr = (TA_T)((float)c->global_step * (float)c->lr);
  int64_t i;
  for (i = 0; i < n; i++) {
    ga[i] += g[i];
    gsa[i] += g[i] * g[i];
    if (c->l1 > (TA_T)0) {
      var[i] = c->lr * (-TA_ONE) * TA_FN(ta_sign_)(ga[i]) *
               TA_FN(ta_max_)(TA_ABS(ga[i]) - step * c->l1, (TA_T)0) /
               (c->l2 * step_lr + TA_SQRT(gsa[i]));
    } else {
      var[i] = c->lr * ga[i] * (-TA_ONE) / (c->l2 * step_lr + TA_SQRT(gsa[i]));
    }
  }
}

/* FTRL (v1 when l2s is 0 and v2 is not requested). */
/* FTRL's loop body. With lr_power == -0.5 (the usual case) the powers are
 * square roots and the loop vectorizes; other powers call pow. by_lr and
 * the power case are fixed per call, so the body is expanded once for
 * each of the four combinations. */
#define TA_FTRL_BODY(POWF, BY_LR)                                            \
  for (i = 0; i < n; i++) {                                                 \
    const TA_T gi = g[i], vi = var[i], ai = acc[i];                          \
    const TA_T gs = gi + (TA_T)2 * l2s * vi;                                 \
    const TA_T nacc = ai + gi * gi;                                          \
    const TA_T pn = POWF(nacc), po = POWF(ai);                               \
    TA_T li, x, y;                                                           \
    if (BY_LR) {                                                             \
      li = lin[i] + (gs * lr - (pn - po) * vi);                              \
      x = l1 * lr * TA_FN(ta_sign_)(li) - li;                                \
      y = pn + (TA_T)2 * l2 * lr;                                            \
      var[i] = TA_ABS(li) > l1 * lr ? x / y : (TA_T)0;                       \
    } else {                                                                 \
      li = lin[i] + (gs - (pn - po) / lr * vi);                              \
      x = l1 * TA_FN(ta_sign_)(li) - li;                                     \
      y = pn / lr + (TA_T)2 * l2;                                            \
      var[i] = TA_ABS(li) > l1 ? x / y : (TA_T)0;                            \
    }                                                                        \
    lin[i] = li;                                                             \
    acc[i] = ai + gi * gi;                                                   \
  }

KUTIL_CLONES static void TA_FN(upd_ftrl_)(int64_t n, TA_T* const* s, const TA_T* g,
                                          const TA_FN(ta_sc_) * c) {
  TA_T* restrict var = s[0];
  TA_T* restrict acc = s[1];
  TA_T* restrict lin = s[2];
  const TA_T lr = c->lr, l1 = c->l1, l2 = c->l2, l2s = c->l2s, mp = -c->lr_power;
  int64_t i;
#define TA_FTRL_SQRT(x) TA_SQRT(x)
#define TA_FTRL_POW(x) TA_POW((x), mp)
  if (c->lr_power == (TA_T)-0.5) {
    if (c->by_lr) {
      TA_FTRL_BODY(TA_FTRL_SQRT, 1)
    } else {
      TA_FTRL_BODY(TA_FTRL_SQRT, 0)
    }
  } else if (c->by_lr) {
    TA_FTRL_BODY(TA_FTRL_POW, 1)
  } else {
    TA_FTRL_BODY(TA_FTRL_POW, 0)
  }
#undef TA_FTRL_SQRT
#undef TA_FTRL_POW
}
#undef TA_FTRL_BODY

KUTIL_CLONES static void TA_FN(upd_amsgrad_)(int64_t n, TA_T* const* s, const TA_T* g,
                                const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *m = s[1], *v = s[2], *vhat = s[3];
  const TA_T a = c->lr * TA_SQRT(TA_ONE - c->b2p) / (TA_ONE - c->b1p);
  int64_t i;
  for (i = 0; i < n; i++) {
    m[i] += (g[i] - m[i]) * (TA_ONE - c->b1);
    v[i] += (g[i] * g[i] - v[i]) * (TA_ONE - c->b2);
    vhat[i] = TA_FN(ta_max_)(vhat[i], v[i]);
    var[i] -= (m[i] * a) / (TA_SQRT(vhat[i]) + c->eps);
  }
}

KUTIL_CLONES static void TA_FN(upd_adamax_)(int64_t n, TA_T* const* s, const TA_T* g,
                               const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *m = s[1], *v = s[2];
  const TA_T a = c->lr / (TA_ONE - c->b1p);
  int64_t i;
  for (i = 0; i < n; i++) {
    m[i] += (g[i] - m[i]) * (TA_ONE - c->b1);
    v[i] = TA_FN(ta_max_)(c->b2 * v[i], TA_ABS(g[i]));
    var[i] -= a * (m[i] / (v[i] + c->eps));
  }
}

KUTIL_CLONES static void TA_FN(upd_add_sign_)(int64_t n, TA_T* const* s, const TA_T* g,
                                 const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *m = s[1];
  int64_t i;
  for (i = 0; i < n; i++) {
    TA_T sgm;
    m[i] = m[i] * c->beta + g[i] * (TA_ONE - c->beta);
    sgm = TA_FN(ta_sign_)(g[i]) * TA_FN(ta_sign_)(m[i]);
    var[i] -= c->lr * (c->alpha + c->sign_decay * sgm) * g[i];
  }
}

KUTIL_CLONES static void TA_FN(upd_power_sign_)(int64_t n, TA_T* const* s, const TA_T* g,
                                   const TA_FN(ta_sc_) * c) {
  TA_T *var = s[0], *m = s[1];
  int64_t i;
  for (i = 0; i < n; i++) {
    TA_T sgm;
    m[i] = m[i] * c->beta + g[i] * (TA_ONE - c->beta);
    sgm = TA_FN(ta_sign_)(g[i]) * TA_FN(ta_sign_)(m[i]);
    var[i] -= c->lr * TA_EXP(c->logbase * c->sign_decay * sgm) * g[i];
  }
}

#endif /* TA_REAL */

/* The rule of each kind (NULL: not defined for this type). */
static const TA_FN(ta_rule_fn_) TA_FN(ta_rules_)[TA_NUM_KINDS] = {
    [TA_GD] = TA_FN(upd_gd_),
    [TA_ADADELTA] = TA_FN(upd_adadelta_),
    [TA_ADAGRAD] = TA_FN(upd_adagrad_),
    [TA_ADAGRAD_V2] = TA_FN(upd_adagrad_v2_),
    [TA_MOMENTUM] = TA_FN(upd_momentum_),
    [TA_KERAS_MOMENTUM] = TA_FN(upd_keras_momentum_),
    [TA_ADAM] = TA_FN(upd_adam_),
    [TA_RMSPROP] = TA_FN(upd_rmsprop_),
    [TA_CENTERED_RMSPROP] = TA_FN(upd_centered_rmsprop_),
#if TA_REAL
    [TA_PROXIMAL_GD] = TA_FN(upd_proximal_gd_),
    [TA_PROXIMAL_ADAGRAD] = TA_FN(upd_proximal_adagrad_),
    [TA_ADAGRAD_DA] = TA_FN(upd_adagrad_da_),
    [TA_FTRL] = TA_FN(upd_ftrl_),
    [TA_FTRL_V2] = TA_FN(upd_ftrl_),
    [TA_AMSGRAD] = TA_FN(upd_amsgrad_),
    [TA_ADAMAX] = TA_FN(upd_adamax_),
    [TA_ADD_SIGN] = TA_FN(upd_add_sign_),
    [TA_POWER_SIGN] = TA_FN(upd_power_sign_),
#endif
};

#undef TA_ONE
#undef TA_FN
#undef TA_CAT
#undef TA_CAT2
