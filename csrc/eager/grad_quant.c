/* Gradients of the fake-quantization ops, as TF 2.21's Python registry
 * defines them: the straight-through estimator of FakeQuantWithMinMax*,
 * computed by the matching *Gradient kernel (inside the nudged range the
 * gradient passes, outside it goes to min / max for the Vars forms).
 * Cases: tools/grad_cases/quant.py. */
#include "eager/grad_local.h"
#include "eager/grad_util.h"

/* FakeQuantWithMinMaxArgs: FakeQuantWithMinMaxArgsGradient(dy, x) with
 * the forward op's attrs. */
static void grad_fq_args(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* r;
  TF_AbstractOp* op;
  if (dy == NULL) return;
  op = gl_op(g, "FakeQuantWithMinMaxArgsGradient", s);
  gl_in(op, dy, s);
  gl_in(op, TFE_GradientContextInput(g, 0), s);
  gl_cp_float(g, op, "min", s);
  gl_cp_float(g, op, "max", s);
  gl_cp_int(g, op, "num_bits", s);
  gl_cp_bool(g, op, "narrow_range", s);
  r = gl_fin(op, s);
  gu_give(g, 0, r, s);
}

/* FakeQuantWithMinMaxVars[PerChannel]: the *Gradient op gives the input,
 * min and max gradients at once. */
static void vars_grad(TFE_GradientContext* g, const char* grad_op, TF_Status* s) {
  TF_AbstractTensor* dy = gu_upstream(g);
  TF_AbstractTensor* outs[3] = {NULL, NULL, NULL};
  TF_AbstractOp* op;
  int i;
  if (dy == NULL) return;
  op = gl_op(g, grad_op, s);
  gl_in(op, dy, s);
  for (i = 0; i < 3; i++) gl_in(op, TFE_GradientContextInput(g, i), s);
  gl_cp_int(g, op, "num_bits", s);
  gl_cp_bool(g, op, "narrow_range", s);
  gl_fin_n(op, 3, outs, s);
  for (i = 0; i < 3; i++) gu_give(g, i, outs[i], s);
}

static void grad_fq_vars(TFE_GradientContext* g, TF_Status* s) {
  vars_grad(g, "FakeQuantWithMinMaxVarsGradient", s);
}

static void grad_fq_per_channel(TFE_GradientContext* g, TF_Status* s) {
  vars_grad(g, "FakeQuantWithMinMaxVarsPerChannelGradient", s);
}

int tfe_grad_register_quant(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"FakeQuantWithMinMaxArgs", grad_fq_args},
      {"FakeQuantWithMinMaxVars", grad_fq_vars},
      {"FakeQuantWithMinMaxVarsPerChannel", grad_fq_per_channel},
  };
  size_t i;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  return 1;
}
