/* Shape rules for the nn_grad op group (backprop ops of convolution,
 * pooling and batch normalization, issue 17/18). Every backprop op's
 * output has the shape of one of its inputs, or comes from a sizes
 * vector; the batch-norm gradients add per-channel vectors. */
#include <string.h>

#include "ops/shape_infer_internal.h"

/* Output 0 has input i's shape, of rank `rank` when rank > 0. */
static int same_as(si_ctx* c, int i, int rank) {
  si_sh s;
  si_in(c, i, &s);
  if (rank > 0 && !si_with_rank(c, &s, rank, &s)) return 0;
  return si_set(c, 0, &s);
}

/* Output 0 from the shape vector in input i (rank `rank`). */
static int from_sizes(si_ctx* c, int i, int rank) {
  si_sh s;
  if (!si_shape_from_tensor(c, i, &s)) return 0;
  if (!si_with_rank(c, &s, rank, &s)) return 0;
  return si_set(c, 0, &s);
}

static int rule_in0_r4(si_ctx* c) { return same_as(c, 0, 4); }
static int rule_in1_r4(si_ctx* c) { return same_as(c, 1, 4); }
static int rule_in1_r3(si_ctx* c) { return same_as(c, 1, 3); }
static int rule_in0_r5(si_ctx* c) { return same_as(c, 0, 5); }
static int rule_in1_r5(si_ctx* c) { return same_as(c, 1, 5); }
static int rule_sizes0_r5(si_ctx* c) { return from_sizes(c, 0, 5); }
static int rule_sizes1_r5(si_ctx* c) { return from_sizes(c, 1, 5); }

/* FusedBatchNormGrad*: x_backprop like x (and y_backprop), the scale and
 * offset gradients one value per channel, the two unused outputs empty
 * vectors. */
static int rule_fbn_grad(si_ctx* c) {
  si_sh dy, x, ch, empty;
  const char* fmt = si_attr_str(c, "data_format", "NHWC");
  int rank = (strcmp(fmt, "NDHWC") == 0 || strcmp(fmt, "NCDHW") == 0) ? 5 : 4;
  int cf = fmt[1] == 'C';
  int64_t depth;
  si_in(c, 0, &dy);
  si_in(c, 1, &x);
  if (!si_with_rank(c, &dy, rank, &dy) || !si_with_rank(c, &x, rank, &x)) return 0;
  if (!si_merge(c, &x, &dy)) return 0;
  depth = x.d[cf ? 1 : rank - 1];
  si_vector(&ch, depth);
  si_vector(&empty, 0);
  return si_set(c, 0, &x) && si_set(c, 1, &ch) && si_set(c, 2, &ch) && si_set(c, 3, &empty) &&
         si_set(c, 4, &empty);
}

const si_rule si_rules_nn_grad[] = {
    {"FusedBatchNormGrad", rule_fbn_grad},
    {"FusedBatchNormGradV2", rule_fbn_grad},
    {"FusedBatchNormGradV3", rule_fbn_grad},
    {"Conv3DBackpropInput", rule_in0_r5},
    {"Conv3DBackpropFilter", rule_in1_r5},
    {"Conv3DBackpropFilterV2", rule_sizes1_r5},
    {"MaxPool3DGrad", rule_in0_r5},
    {"MaxPool3DGradGrad", rule_in1_r5},
    {"AvgPool3DGrad", rule_sizes0_r5},
    {"MaxPoolGradGrad", rule_in1_r4},
    {"MaxPoolGradGradV2", rule_in1_r4},
    {"MaxPoolGradWithArgmax", rule_in0_r4},
    {"Dilation2DBackpropInput", rule_in0_r4},
    {"Dilation2DBackpropFilter", rule_in1_r3},
    {NULL, NULL},
};
