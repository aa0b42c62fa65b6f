/* Shape rules: neural-network ops (BiasAdd, convolutions, pooling, batch
 * normalisation, resizing, losses, TopK/InTopK) and their gradients. */
#include <string.h>

#include "core/status_internal.h"
#include "ops/shape_infer_internal.h"

enum { PAD_SAME, PAD_VALID, PAD_EXPLICIT };

static int padding_kind(const si_ctx* c) {
  const char* p = si_attr_str(c, "padding", "VALID");
  if (strcmp(p, "SAME") == 0) return PAD_SAME;
  if (strcmp(p, "EXPLICIT") == 0) return PAD_EXPLICIT;
  return PAD_VALID;
}

static int is_nchw(const si_ctx* c) {
  const char* f = si_attr_str(c, "data_format", "NHWC");
  return strcmp(f, "NCHW") == 0;
}

/* TF's windowed output size: one spatial dim. */
static int windowed(si_ctx* c, int64_t in, int64_t k, int64_t dil,
                    int64_t stride, int pad, int64_t before, int64_t after,
                    int64_t* out) {
  int64_t x;
  if (stride <= 0) {
    return si_err(c, "Stride must be > 0, but got %lld", (long long)stride);
  }
  if (dil < 1) {
    return si_err(c, "Dilation rate must be >= 1, but got %lld",
                  (long long)dil);
  }
  if (pad == PAD_SAME) {
    if (!si_dim_add(c, in, stride - 1, &x)) return 0;
    return si_dim_div(c, x, stride, 0, out);
  }
  if (pad == PAD_VALID) before = after = 0;
  if (before < 0 || after < 0) {
    return si_err(c, "All explicit padding values must be nonnegative");
  }
  if (!si_dim_add(c, in, before, &in)) return 0;
  if (!si_dim_add(c, in, after, &in)) return 0;
  if (dil > 1 && k > 0) {
    if (!si_dim_mul(c, k - 1, dil, &k)) return 0;
    if (!si_dim_add(c, k, 1, &k)) return 0;
  }
  if (!si_dim_sub(c, in, k, &x)) return 0;
  if (!si_dim_add(c, x, stride, &x)) return 0;
  return si_dim_div(c, x, stride, 0, out);
}

static int check_explicit(si_ctx* c, int pad, int nep) {
  if (pad == PAD_EXPLICIT) {
    if (nep != 8) {
      return si_err(c,
                    "explicit_paddings attribute must contain 8 values, but "
                    "got: %d",
                    nep);
    }
  } else if (nep != 0) {
    return si_err(c,
                  "explicit_paddings attribute must be empty if the padding "
                  "attribute is not EXPLICIT");
  }
  return 1;
}

/* BiasAdd(value, bias). */
static int rule_bias_add(si_ctx* c) {
  si_sh in, b;
  int nchw = is_nchw(c);
  int ci;
  si_in(c, 0, &in);
  si_in(c, 1, &b);
  if (!si_with_rank_at_least(c, &in, nchw ? 3 : 2, &in)) return 0;
  if (!si_with_rank(c, &b, 1, &b)) return 0;
  if (in.rank < 0) return 1;
  ci = nchw ? 1 : in.rank - 1;
  if (!si_merge_dim(c, in.d[ci], b.d[0], &in.d[ci])) return 0;
  return si_set(c, 0, &in);
}

static int rule_bias_add_grad(si_ctx* c) {
  si_sh in;
  int nchw = is_nchw(c);
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, nchw ? 3 : 2, &in)) return 0;
  if (in.rank < 0) return si_set_vector(c, 0, -1);
  return si_set_vector(c, 0, in.d[nchw ? 1 : in.rank - 1]);
}

/* Conv2D and DepthwiseConv2dNative(input, filter). */
static int conv2d(si_ctx* c, int depthwise) {
  si_sh in, f, o;
  int nchw = is_nchw(c), ns, nd, nep, pad = padding_kind(c);
  const int64_t* st = si_attr_ints(c, "strides", &ns);
  const int64_t* dl = si_attr_ints(c, "dilations", &nd);
  const int64_t* ep = si_attr_ints(c, "explicit_paddings", &nep);
  int hi = nchw ? 2 : 1, wi = nchw ? 3 : 2, ci = nchw ? 1 : 3;
  int64_t out_depth, rows, cols;
  static const int64_t ones[4] = {1, 1, 1, 1};
  if (!si_attr_ints32(c, "strides") || !si_attr_ints32(c, "dilations")) {
    return 0;
  }
  si_in(c, 0, &in);
  si_in(c, 1, &f);
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  if (!si_with_rank(c, &f, 4, &f)) return 0;
  if (dl == NULL && nd == 0) {
    dl = ones;
    nd = 4;
  }
  if (nd != 4) {
    return si_err(c,
                  "%s requires the dilation attribute to contain 4 values, "
                  "but got: %d",
                  depthwise ? "DepthwiseConv2D" : "Conv2D", nd);
  }
  if (ns != 4) {
    return si_err(c,
                  "Conv2D on data format %s requires the stride attribute to "
                  "contain 4 values, but got: %d",
                  nchw ? "NCHW" : "NHWC", ns);
  }
  if (depthwise) {
    if (st[hi] != st[wi]) {
      return si_err(c,
                    "Current implementation only supports equal length "
                    "strides in the row and column dimensions.");
    }
    if (!si_merge_dim(c, in.d[ci], f.d[2], NULL)) return 0;
    if (!si_dim_mul(c, f.d[2], f.d[3], &out_depth)) return 0;
  } else {
    int64_t id = in.d[ci], fd = f.d[2];
    out_depth = f.d[3];
    if (id >= 0 && fd > 0) {
      if (id % fd != 0) {
        return si_err(c,
                      "Depth of input (%lld) is not a multiple of input "
                      "depth of filter (%lld)",
                      (long long)id, (long long)fd);
      }
      if (id != fd && id / fd > 0 && out_depth >= 0 &&
          out_depth % (id / fd) != 0) {
        return si_err(c,
                      "Depth of output (%lld) is not a multiple of the "
                      "number of groups (%lld)",
                      (long long)out_depth, (long long)(id / fd));
      }
    }
  }
  if (!check_explicit(c, pad, nep)) return 0;
  if (!windowed(c, in.d[hi], f.d[0], dl[hi], st[hi], pad,
                pad == PAD_EXPLICIT ? ep[2 * hi] : 0,
                pad == PAD_EXPLICIT ? ep[2 * hi + 1] : 0, &rows)) {
    return 0;
  }
  if (!windowed(c, in.d[wi], f.d[1], dl[wi], st[wi], pad,
                pad == PAD_EXPLICIT ? ep[2 * wi] : 0,
                pad == PAD_EXPLICIT ? ep[2 * wi + 1] : 0, &cols)) {
    return 0;
  }
  o.rank = 4;
  o.d[0] = in.d[0];
  o.d[hi] = rows;
  o.d[wi] = cols;
  o.d[ci] = out_depth;
  return si_set(c, 0, &o);
}

static int rule_conv2d(si_ctx* c) { return conv2d(c, 0); }
static int rule_depthwise(si_ctx* c) { return conv2d(c, 1); }

/* Pooling with ksize/strides as attrs (or, for V2, constant inputs). */
static int pool(si_ctx* c, int max_pool, int v2) {
  si_sh in, o;
  const char* fmt = si_attr_str(c, "data_format", "NHWC");
  int nchw = strcmp(fmt, "NCHW") == 0, nk, ns, nep = 0;
  int pad = padding_kind(c), i;
  int64_t kbuf[4], sbuf[4];
  const int64_t* k;
  const int64_t* st;
  const int64_t* ep = NULL;
  int hi = nchw ? 2 : 1, wi = nchw ? 3 : 2, ci = nchw ? 1 : 3;
  const char* name = c->a->def->name;
  si_in(c, 0, &in);
  if (strcmp(fmt, "NCHW_VECT_C") == 0) {
    if (!si_with_rank(c, &in, 5, &in)) return 0;
    return 1; /* tfe does not model the vectorised layout */
  }
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  if (v2) {
    si_sh ks, ss;
    si_in(c, 1, &ks);
    si_in(c, 2, &ss);
    if (!si_with_rank(c, &ks, 1, &ks)) return 0;
    if (!si_with_value(c, ks.d[0], 4, NULL)) return 0;
    if (!si_with_rank(c, &ss, 1, &ss)) return 0;
    if (!si_with_value(c, ss.d[0], 4, NULL)) return 0;
    nk = si_value_ints(c, 1, kbuf, 4);
    ns = si_value_ints(c, 2, sbuf, 4);
    if (nk < 0 || ns < 0) return 1;
    k = kbuf;
    st = sbuf;
    name = "MaxPool";
  } else {
    if (!si_attr_ints32(c, "ksize") || !si_attr_ints32(c, "strides")) {
      return 0;
    }
    k = si_attr_ints(c, "ksize", &nk);
    st = si_attr_ints(c, "strides", &ns);
    ep = si_attr_ints(c, "explicit_paddings", &nep);
  }
  if (ns != 4) {
    return si_err(c,
                  "%s requires the stride attribute to contain 4 values, but "
                  "got: %d",
                  name, ns);
  }
  if (nk != 4) {
    return si_err(c,
                  "%s requires the ksize attribute to contain 4 values, but "
                  "got: %d",
                  name, nk);
  }
  if (pad == PAD_EXPLICIT && !check_explicit(c, pad, nep)) return 0;
  o = in;
  if (!windowed(c, in.d[hi], k[hi], 1, st[hi], pad,
                pad == PAD_EXPLICIT ? ep[2 * hi] : 0,
                pad == PAD_EXPLICIT ? ep[2 * hi + 1] : 0, &o.d[hi])) {
    return 0;
  }
  if (!windowed(c, in.d[wi], k[wi], 1, st[wi], pad,
                pad == PAD_EXPLICIT ? ep[2 * wi] : 0,
                pad == PAD_EXPLICIT ? ep[2 * wi + 1] : 0, &o.d[wi])) {
    return 0;
  }
  if (max_pool && !windowed(c, in.d[ci], k[ci], 1, st[ci],
                            pad == PAD_EXPLICIT ? PAD_VALID : pad, 0, 0,
                            &o.d[ci])) {
    return 0;
  }
  for (i = 0; i < si_num_outputs(c); i++) {
    if (!si_set(c, i, &o)) return 0;
  }
  return 1;
}

static int rule_max_pool(si_ctx* c) { return pool(c, 1, 0); }
static int rule_max_pool_v2(si_ctx* c) { return pool(c, 1, 1); }
static int rule_avg_pool(si_ctx* c) { return pool(c, 0, 0); }

/* Gradients whose output is shaped by a shape tensor of rank 4. */
static int shape_tensor_rank4(si_ctx* c, int i) {
  si_sh o;
  if (!si_shape_from_tensor(c, i, &o)) return 0;
  if (!si_with_rank(c, &o, 4, &o)) return 0;
  return si_set(c, 0, &o);
}

static int rule_conv_backprop_input(si_ctx* c) {
  return shape_tensor_rank4(c, 0);
}
static int rule_conv_backprop_filter(si_ctx* c) {
  return shape_tensor_rank4(c, 1);
}
static int rule_avg_pool_grad(si_ctx* c) { return shape_tensor_rank4(c, 0); }

static int rule_input0_rank4(si_ctx* c) {
  si_sh in;
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  return si_set(c, 0, &in);
}

static int rule_input1_rank4(si_ctx* c) {
  si_sh in;
  si_in(c, 1, &in);
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  return si_set(c, 0, &in);
}

/* FusedBatchNorm*(x, scale, offset, mean, variance): the channel dim
 * merges with scale and offset (and with mean and variance unless plain
 * training); y is x, the statistics are vectors over the channels. */
static int rule_fused_batch_norm(si_ctx* c) {
  si_sh x, v;
  const char* fmt = si_attr_str(c, "data_format", "NHWC");
  int rank5 = strcmp(fmt, "NDHWC") == 0 || strcmp(fmt, "NCDHW") == 0;
  int channels_first = strncmp(fmt, "NC", 2) == 0;
  int i, train = si_attr_bool(c, "is_training", 1), ci, n_check;
  const tfe_attr_value* f = si_attr(c, "exponential_avg_factor");
  float factor = f != NULL && !f->is_list && f->type == TF_ATTR_FLOAT
                     ? f->v.f
                     : 1.0f;
  int64_t ch;
  si_in(c, 0, &x);
  if (!si_with_rank(c, &x, rank5 ? 5 : 4, &x)) return 0;
  ci = channels_first ? 1 : x.rank - 1;
  ch = x.d[ci];
  n_check = (train && factor == 1.0f) ? 3 : 5;
  for (i = 1; i < n_check && i < si_num_inputs(c); i++) {
    si_in(c, i, &v);
    if (!si_with_rank(c, &v, 1, &v)) return 0;
    if (!si_merge_dim(c, ch, v.d[0], &ch)) return 0;
  }
  x.d[ci] = ch;
  if (!si_set(c, 0, &x)) return 0;
  for (i = 1; i < 5 && i < si_num_outputs(c); i++) {
    if (!si_set_vector(c, i, ch)) return 0;
  }
  return 1; /* reserve_space_3 of V3 stays unknown, as in TF */
}

/* ResizeBilinear/ResizeNearestNeighbor(images, size). */
static int rule_resize(si_ctx* c) {
  si_sh in, sz, o;
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  si_in(c, 1, &sz);
  if (!si_with_rank(c, &sz, 1, &sz)) return 0;
  if (!si_with_value(c, sz.d[0], 2, NULL)) return 0;
  if (!si_shape_from_tensor(c, 1, &sz)) return 0;
  o.rank = 4;
  o.d[0] = in.d[0];
  o.d[1] = sz.rank == 2 ? sz.d[0] : -1;
  o.d[2] = sz.rank == 2 ? sz.d[1] : -1;
  o.d[3] = in.d[3];
  return si_set(c, 0, &o);
}

static int rule_sparse_xent(si_ctx* c) {
  si_sh f, l, b;
  int64_t batch;
  si_in(c, 0, &f);
  si_in(c, 1, &l);
  if (!si_with_rank(c, &f, 2, &f)) return 0;
  if (!si_with_rank(c, &l, 1, &l)) return 0;
  if (!si_merge_dim(c, f.d[0], l.d[0], &batch)) return 0;
  f.d[0] = batch;
  si_vector(&b, batch);
  if (!si_set(c, 0, &b)) return 0;
  return si_set(c, 1, &f);
}

static int rule_xent(si_ctx* c) {
  si_sh f, l, o;
  si_in(c, 0, &f);
  si_in(c, 1, &l);
  if (!si_with_rank(c, &f, 2, &f)) return 0;
  if (!si_with_rank(c, &l, 2, &l)) return 0;
  if (!si_broadcast(c, &f, &l, 1, &o)) return 0;
  if (!si_set_vector(c, 0, o.d[0])) return 0;
  return si_set(c, 1, &o);
}

/* TopKV2(input, k). */
static int rule_top_k(si_ctx* c) {
  si_sh in;
  int64_t k, last;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 1, &in)) return 0;
  if (si_num_inputs(c) >= 2) {
    if (!si_dim_from_scalar(c, 1, &k)) return 0;
  } else {
    k = si_attr_int(c, "k", -1);
    if (k < 0) return si_err(c, "Need k >= 0, got %lld", (long long)k);
  }
  if (in.rank < 0) return 1;
  last = in.d[in.rank - 1];
  if (last >= 0 && k >= 0 && last < k) {
    return si_err(c, "input must have last dimension >= k = %lld but is %lld",
                  (long long)k, (long long)last);
  }
  in.d[in.rank - 1] = k;
  if (!si_set(c, 0, &in)) return 0;
  return si_set(c, 1, &in);
}

/* InTopK(predictions, targets) / InTopKV2(predictions, targets, k). */
static int rule_in_top_k(si_ctx* c) {
  si_sh p, t;
  int64_t b;
  si_in(c, 0, &p);
  si_in(c, 1, &t);
  if (!si_with_rank(c, &p, 2, &p)) return 0;
  if (!si_with_rank(c, &t, 1, &t)) return 0;
  if (si_num_inputs(c) > 2) {
    si_sh k;
    si_in(c, 2, &k);
    if (!si_with_rank(c, &k, 0, &k)) return 0;
  }
  if (!si_merge_dim(c, p.d[0], t.d[0], &b)) return 0;
  return si_set_vector(c, 0, b);
}

static int rule_l2_loss(si_ctx* c) { return si_set_scalar(c, 0); }

/* ResizeNearestNeighborGrad(grads, size): [batch, size, channels]. */
static int rule_resize_nn_grad(si_ctx* c) {
  si_sh g, sz, o;
  si_in(c, 0, &g);
  if (!si_with_rank(c, &g, 4, &g)) return 0;
  if (!si_shape_from_tensor(c, 1, &sz)) return 0;
  if (!si_with_rank(c, &sz, 2, &sz)) return 0;
  o.rank = 4;
  o.d[0] = g.d[0];
  o.d[1] = sz.d[0];
  o.d[2] = sz.d[1];
  o.d[3] = g.d[3];
  return si_set(c, 0, &o);
}

const si_rule si_rules_nn[] = {
    {"BiasAdd", rule_bias_add}, {"BiasAddV1", rule_bias_add},
    {"BiasAddGrad", rule_bias_add_grad}, {"Conv2D", rule_conv2d},
    {"DepthwiseConv2dNative", rule_depthwise},
    {"Conv2DBackpropInput", rule_conv_backprop_input},
    {"Conv2DBackpropFilter", rule_conv_backprop_filter},
    {"MaxPool", rule_max_pool}, {"MaxPoolV2", rule_max_pool_v2},
    {"AvgPool", rule_avg_pool}, {"MaxPoolWithArgmax", rule_max_pool},
    {"MaxPoolGrad", rule_input0_rank4}, {"MaxPoolGradV2", rule_input0_rank4},
    {"AvgPoolGrad", rule_avg_pool_grad},
    {"FusedBatchNorm", rule_fused_batch_norm},
    {"FusedBatchNormV2", rule_fused_batch_norm},
    {"FusedBatchNormV3", rule_fused_batch_norm},
    {"ResizeBilinear", rule_resize}, {"ResizeNearestNeighbor", rule_resize},
    {"ResizeBilinearGrad", rule_input1_rank4},
    {"ResizeNearestNeighborGrad", rule_resize_nn_grad},
    {"L2Loss", rule_l2_loss},
    {"SparseSoftmaxCrossEntropyWithLogits", rule_sparse_xent},
    {"SoftmaxCrossEntropyWithLogits", rule_xent}, {"TopKV2", rule_top_k},
    {"TopK", rule_top_k}, {"InTopK", rule_in_top_k},
    {"InTopKV2", rule_in_top_k},
    {NULL, NULL}};
