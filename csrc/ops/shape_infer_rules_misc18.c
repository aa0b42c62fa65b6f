/* Shape rules for the misc18 op group (remaining array, math and linalg ops of TF 2.21 (issue 18)).
 * TopK and BiasAddV1 have their rules in shape_infer_rules_nn.c (shared
 * with TopKV2 and BiasAdd). */
#include "ops/shape_infer_internal.h"

/* NthElement(input, n): input without its last dim; when n is known the
 * last dim must exceed it. */
static int rule_nth_element(si_ctx* c) {
  si_sh in, nsh, out;
  int64_t n = -1, last;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 1, &in)) return 0;
  si_in(c, 1, &nsh);
  if (!si_with_rank(c, &nsh, 0, &nsh)) return 0;
  if (!si_dim_from_scalar(c, 1, &n)) return 0;
  if (in.rank < 0) return 1;
  last = in.d[in.rank - 1];
  if (last >= 0 && n >= 0 && last <= n) {
    return si_err(c, "Input must have last dimension > n = %lld",
                  (long long)n);
  }
  if (!si_subshape(c, &in, 0, -1, &out)) return 0;
  return si_set(c, 0, &out);
}

/* TileGrad(input, multiples): same rank as input, each dim divided by its
 * multiple when both are known. */
static int rule_tile_grad(si_ctx* c) {
  si_sh in, m;
  int64_t mv[SI_MAX_RANK];
  int i, nm;
  si_in(c, 0, &in);
  si_in(c, 1, &m);
  if (!si_with_rank(c, &m, 1, &m)) return 0;
  if (in.rank < 0) return 1;
  if (m.d[0] >= 0 && m.d[0] != in.rank) {
    return si_err(c, "Dimension must be %d but is %lld", in.rank,
                  (long long)m.d[0]);
  }
  nm = si_value_ints(c, 1, mv, SI_MAX_RANK);
  if (nm != in.rank) {
    si_sh u;
    si_unknown_of_rank(&u, in.rank);
    return si_set(c, 0, &u);
  }
  for (i = 0; i < in.rank; i++) {
    if (in.d[i] < 0 || mv[i] <= 0) {
      in.d[i] = SI_UNKNOWN;
    } else {
      in.d[i] = in.d[i] / mv[i];
    }
  }
  return si_set(c, 0, &in);
}

/* UniqueV2 / UniqueWithCountsV2 (as TF's shape function, which treats
 * every input as 1-D): y and count are vectors of unknown length, idx has
 * x's shape. */
static int rule_unique_v2(si_ctx* c) {
  si_sh v;
  si_vector(&v, SI_UNKNOWN);
  if (!si_set(c, 0, &v)) return 0;
  if (!si_set_input(c, 1, 0)) return 0;
  if (si_num_outputs(c) > 2) return si_set(c, 2, &v);
  return 1;
}

/* MirrorPadGrad(input, paddings): paddings is [rank, 2]; with known
 * paddings each dim shrinks by its two paddings. */
static int rule_mirror_pad_grad(si_ctx* c) {
  si_sh in, p;
  int64_t pv[2 * 64];
  int i, np;
  si_in(c, 0, &in);
  si_in(c, 1, &p);
  if (!si_with_rank(c, &p, 2, &p)) return 0;
  if (!si_with_value(c, p.d[1], 2, &p.d[1])) return 0;
  if (in.rank < 0) {
    if (p.d[0] < 0) return 1;
    si_unknown_of_rank(&in, (int)p.d[0]);
    return si_set(c, 0, &in);
  }
  if (!si_with_value(c, p.d[0], in.rank, &p.d[0])) return 0;
  np = in.rank <= 64 ? si_value_ints(c, 1, pv, 2 * 64) : -1;
  for (i = 0; i < in.rank; i++) {
    if (np != 2 * in.rank || in.d[i] < 0) {
      in.d[i] = SI_UNKNOWN;
    } else if (!si_dim_sub(c, in.d[i], pv[2 * i] + pv[2 * i + 1], &in.d[i])) {
      return 0;
    }
  }
  return si_set(c, 0, &in);
}

const si_rule si_rules_misc18[] = {
    {"MirrorPadGrad", rule_mirror_pad_grad},
    {"UniqueV2", rule_unique_v2},
    {"UniqueWithCountsV2", rule_unique_v2},
    {"InplaceAdd", si_rule_unchanged},
    {"InplaceSub", si_rule_unchanged},
    {"InplaceUpdate", si_rule_unchanged},
    {"DataFormatDimMap", si_rule_unchanged},
    {"DataFormatVecPermute", si_rule_unchanged},
    {"NthElement", rule_nth_element},
    {"TileGrad", rule_tile_grad},
    {"Spence", si_rule_unchanged},
    {"StridedSliceGrad", si_rule_shape_from_input0},
    {"ParallelConcat", si_rule_explicit_shape},
    {NULL, NULL},
};
