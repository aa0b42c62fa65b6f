/* Shape rules for the nn_extra op group (nn ops of tf.nn not in the older nn groups):
 * MaxPool3D, AvgPool3D, Conv3D (TF's Pool3DShape / Conv3DShape) and
 * Dilation2D (Dilation2DShapeImpl), IsotonicRegression and the depthwise
 * convolution gradients (shape from their sizes input). */
#include <string.h>

#include "ops/shape_infer_internal.h"

/* Output size of one windowed dim for an effective window eff (unknown
 * stays unknown); 0 after an error (a window larger than the input under
 * VALID padding). */
static int window_dim(si_ctx* c, int64_t in, int64_t eff, int64_t stride, int same, int64_t* out) {
  if (stride <= 0) return si_err(c, "Stride must be > 0, but got %lld", (long long)stride);
  if (in == SI_UNKNOWN) {
    *out = SI_UNKNOWN;
    return 1;
  }
  if (eff < 0) eff = 0;
  if (eff > ((int64_t)1 << 62)) eff = (int64_t)1 << 62;
  if (same) {
    *out = in / stride + (in % stride != 0);
    return 1;
  }
  if (in - eff + stride < 0 || (in - eff + stride) / stride < 0) {
    return si_err(c,
                  "Computed output size would be negative: %lld [input_size: %lld, "
                  "effective_filter_size: %lld, stride: %lld]",
                  (long long)((in - eff) / stride), (long long)in, (long long)eff,
                  (long long)stride);
  }
  *out = (in - eff + stride) / stride;
  return 1;
}

static int is_same(si_ctx* c) { return strcmp(si_attr_str(c, "padding", "VALID"), "SAME") == 0; }

/* Pool3D and Conv3D: 5-D input, window from ksize or from the filter. */
static int rule_3d(si_ctx* c, int conv) {
  si_sh in, f, o;
  int ns = 0, nk = 0, nd = 0, i;
  const int64_t *st, *ks = NULL, *dl = NULL;
  int cf = strcmp(si_attr_str(c, "data_format", "NDHWC"), "NCDHW") == 0;
  int sp0 = cf ? 2 : 1, ci = cf ? 1 : 4;
  const char* name = conv ? "Conv3D" : "Pool3D";
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 5, &in)) return 0;
  if (!si_attr_ints32(c, "strides")) return 0;
  st = si_attr_ints(c, "strides", &ns);
  if (ns != 5) {
    return si_err(c, "%s %s the stride attribute to contain 5 values, but got: %d", name,
                  conv ? "requires" : "ops require", ns);
  }
  if (conv) {
    si_in(c, 1, &f);
    if (!si_with_rank(c, &f, 5, &f)) return 0;
    dl = si_attr_ints(c, "dilations", &nd);
    if (dl != NULL && nd != 5) {
      return si_err(c, "Conv3D requires the dilation attribute to contain 5 values, but got: %d",
                    nd);
    }
  } else {
    if (!si_attr_ints32(c, "ksize")) return 0;
    ks = si_attr_ints(c, "ksize", &nk);
    if (nk != 5) {
      return si_err(c, "Pool3D requires the ksize attribute to contain 5 values, but got: %d", nk);
    }
  }
  si_unknown_of_rank(&o, 5);
  o.d[0] = in.d[0];
  for (i = 0; i < 3; i++) {
    int64_t k = conv ? f.d[i] : ks[sp0 + i];
    int64_t dil = conv && dl != NULL ? dl[sp0 + i] : 1;
    if (conv && k == SI_UNKNOWN) continue;
    if (k > ((int64_t)1 << 31) || dil > ((int64_t)1 << 31)) continue; /* no overflow */
    if (!window_dim(c, in.d[sp0 + i], (k - 1) * dil + 1, st[sp0 + i], is_same(c),
                    &o.d[sp0 + i])) {
      return 0;
    }
  }
  if (conv) {
    if (in.d[ci] != SI_UNKNOWN && f.d[3] != SI_UNKNOWN && f.d[3] > 0 && in.d[ci] % f.d[3] != 0) {
      return si_err(c, "Depth of input (%lld) is not a multiple of input depth of filter (%lld)",
                    (long long)in.d[ci], (long long)f.d[3]);
    }
    o.d[ci] = f.d[4];
  } else {
    o.d[ci] = in.d[ci];
  }
  return si_set(c, 0, &o);
}

static int rule_pool3d(si_ctx* c) { return rule_3d(c, 0); }
static int rule_conv3d(si_ctx* c) { return rule_3d(c, 1); }

static int rule_dilation2d(si_ctx* c) {
  si_sh in, f, o;
  int ns = 0, nr = 0, i;
  const int64_t *st, *rt;
  int64_t depth;
  si_in(c, 0, &in);
  si_in(c, 1, &f);
  if (!si_with_rank(c, &in, 4, &in) || !si_with_rank(c, &f, 3, &f)) return 0;
  if (!si_attr_ints32(c, "strides") || !si_attr_ints32(c, "rates")) return 0;
  st = si_attr_ints(c, "strides", &ns);
  rt = si_attr_ints(c, "rates", &nr);
  if (ns != 4) {
    return si_err(c, "Dilation2D requires the stride attribute to contain 4 values, but got: %d",
                  ns);
  }
  if (nr != 4) {
    return si_err(c, "Dilation2D requires the rates attribute to contain 4 values, but got: %d",
                  nr);
  }
  if (!si_merge_dim(c, in.d[3], f.d[2], &depth)) return 0;
  si_unknown_of_rank(&o, 4);
  o.d[0] = in.d[0];
  o.d[3] = depth;
  for (i = 0; i < 2; i++) {
    if (f.d[i] == SI_UNKNOWN || f.d[i] > ((int64_t)1 << 31)) continue;
    if (!window_dim(c, in.d[1 + i], f.d[i] + (f.d[i] - 1) * (rt[1 + i] - 1), st[1 + i],
                    is_same(c), &o.d[1 + i])) {
      return 0;
    }
  }
  return si_set(c, 0, &o);
}

/* IsotonicRegression: both outputs have the input's shape. */
static int si_rule_isotonic(si_ctx* c) {
  si_sh in;
  si_in(c, 0, &in);
  return si_set(c, 0, &in) && si_set(c, 1, &in);
}

/* Depthwise gradients: the shape comes from the sizes input (a 4-vector). */
static int rule_sizes_input(si_ctx* c, int i) {
  si_sh o;
  if (!si_shape_from_tensor(c, i, &o)) return 0;
  if (!si_with_rank(c, &o, 4, &o)) return 0;
  return si_set(c, 0, &o);
}

static int rule_dw_input(si_ctx* c) { return rule_sizes_input(c, 0); }

/* Conv3DBackpropInputV2: a 5-D shape from input_sizes. */
static int rule_conv3d_backprop_input(si_ctx* c) {
  si_sh o;
  if (!si_shape_from_tensor(c, 0, &o)) return 0;
  if (!si_with_rank(c, &o, 5, &o)) return 0;
  return si_set(c, 0, &o);
}
static int rule_dw_filter(si_ctx* c) { return rule_sizes_input(c, 1); }

const si_rule si_rules_nn_extra[] = {
    {"MaxPool3D", rule_pool3d},
    {"AvgPool3D", rule_pool3d},
    {"Conv3D", rule_conv3d},
    {"Conv3DBackpropInputV2", rule_conv3d_backprop_input},
    {"Dilation2D", rule_dilation2d},
    {"IsotonicRegression", si_rule_isotonic},
    {"DepthwiseConv2dNativeBackpropInput", rule_dw_input},
    {"DepthwiseConv2dNativeBackpropFilter", rule_dw_filter},
    {NULL, NULL},
};
