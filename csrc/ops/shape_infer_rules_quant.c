/* Shape rules for the quant op group (fake quantization, quantize/dequantize
 * and the quantized arithmetic ops (issue 18)), as TF 2.21's shape
 * functions. */
#include "ops/shape_infer_internal.h"

/* FakeQuantWithMinMaxVars: min and max scalars, output = inputs. */
static int r_fq_vars(si_ctx* c) {
  si_sh s, o;
  si_in(c, 1, &s);
  if (!si_with_rank(c, &s, 0, &o)) return 0;
  si_in(c, 2, &s);
  if (!si_with_rank(c, &s, 0, &o)) return 0;
  return si_set_input(c, 0, 0);
}

/* FakeQuantWithMinMaxVarsGradient: inputs merged with gradients; scalar
 * min/max and their backprops. */
static int r_fq_vars_grad(si_ctx* c) {
  si_sh g, x, s, o;
  si_in(c, 2, &s);
  if (!si_with_rank(c, &s, 0, &o)) return 0;
  si_in(c, 3, &s);
  if (!si_with_rank(c, &s, 0, &o)) return 0;
  si_in(c, 0, &g);
  si_in(c, 1, &x);
  if (!si_merge(c, &x, &g)) return 0;
  if (!si_set(c, 0, &x)) return 0;
  if (!si_set_scalar(c, 1)) return 0;
  return si_set_scalar(c, 2);
}

/* The channel count: the last dim of x merged with min's and max's. */
static int fq_depth(si_ctx* c, const si_sh* x, int imin, int64_t* depth) {
  si_sh mn, mx;
  *depth = x->rank == SI_UNKNOWN ? SI_UNKNOWN : x->d[x->rank - 1];
  si_in(c, imin, &mn);
  if (!si_with_rank(c, &mn, 1, &mn)) return 0;
  si_in(c, imin + 1, &mx);
  if (!si_with_rank(c, &mx, 1, &mx)) return 0;
  if (!si_merge_dim(c, *depth, mn.d[0], depth)) return 0;
  return si_merge_dim(c, *depth, mx.d[0], depth);
}

static int r_fq_per_channel(si_ctx* c) {
  si_sh x;
  int64_t depth;
  si_in(c, 0, &x);
  if (!si_with_rank_at_least(c, &x, 1, &x)) return 0;
  if (!fq_depth(c, &x, 1, &depth)) return 0;
  return si_set_input(c, 0, 0);
}

static int r_fq_per_channel_grad(si_ctx* c) {
  si_sh g, x;
  int64_t depth;
  si_in(c, 1, &x);
  if (!si_with_rank_at_least(c, &x, 1, &x)) return 0;
  if (!si_with_rank_at_most(c, &x, 4, &x)) return 0;
  si_in(c, 0, &g);
  if (!si_merge(c, &x, &g)) return 0;
  if (!fq_depth(c, &x, 2, &depth)) return 0;
  if (!si_set(c, 0, &x)) return 0;
  if (!si_set_vector(c, 1, depth)) return 0;
  return si_set_vector(c, 2, depth);
}

const si_rule si_rules_quant[] = {
    {"FakeQuantWithMinMaxArgs", si_rule_unchanged},
    {"FakeQuantWithMinMaxArgsGradient", si_rule_unchanged},
    {"FakeQuantWithMinMaxVars", r_fq_vars},
    {"FakeQuantWithMinMaxVarsGradient", r_fq_vars_grad},
    {"FakeQuantWithMinMaxVarsPerChannel", r_fq_per_channel},
    {"FakeQuantWithMinMaxVarsPerChannelGradient", r_fq_per_channel_grad},
    {NULL, NULL},
};
