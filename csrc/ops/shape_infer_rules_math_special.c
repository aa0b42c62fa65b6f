/* Shape rules for the math_special op group (special math functions and
 * math ops of tf.math not in the older groups: Igamma, Igammac, Zeta,
 * Polygamma, Betainc, EuclideanNorm, ApproxTopK), as TF 2.21's shape
 * functions tell them. */
#include "ops/shape_infer_internal.h"

/* Betainc(a, b, x): every non-scalar input has one shape (merged); scalars
 * are broadcast. When all but one input are known scalars the output is
 * that input's shape; when all are scalars it is a scalar. */
static int rule_betainc(si_ctx* c) {
  si_sh out, in, some;
  int i, scalars = 0;
  si_unknown(&out);
  si_unknown(&some);
  for (i = 0; i < 3; i++) {
    si_in(c, i, &in);
    if (in.rank < 0) {
      some = in;
    } else if (in.rank == 0) {
      scalars++;
    } else {
      if (!si_merge(c, &out, &in)) return 0;
      some = out;
    }
  }
  if (scalars == 2) {
    out = some;
  } else if (scalars == 3) {
    si_scalar(&out);
  }
  return si_set(c, 0, &out);
}

/* EuclideanNorm reads its inputs and attrs as Sum does. */
static int rule_euclidean_norm(si_ctx* c) {
  const si_rule* r = si_find_rule("Sum");
  if (r == NULL || r->fn == NULL) return 1;
  return r->fn(c);
}

/* ApproxTopK(input): rank >= 1; both outputs are the input's shape with
 * the reduction dimension replaced by k (unknown when the results are not
 * aggregated to the top k). */
static int rule_approx_top_k(si_ctx* c) {
  si_sh in;
  int64_t k = si_attr_int(c, "k", 0);
  int64_t dim = si_attr_int(c, "reduction_dimension", -1);
  int agg = si_attr_bool(c, "aggregate_to_topk", 1);
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 1, &in)) return 0;
  if (in.rank < 0) return 1;
  if (dim < 0) dim += in.rank;
  if (dim < 0 || dim >= in.rank) {
    return si_err(c,
                  "Invalid reduction dimension: %lld. Must be within the "
                  "range of [0, %d]",
                  (long long)dim, in.rank - 1);
  }
  in.d[dim] = agg ? k : SI_UNKNOWN;
  if (!si_set(c, 0, &in)) return 0;
  return si_set(c, 1, &in);
}

const si_rule si_rules_math_special[] = {
    {"Igamma", si_rule_broadcast},
    {"Igammac", si_rule_broadcast},
    {"Zeta", si_rule_broadcast},
    {"Polygamma", si_rule_broadcast},
    {"Betainc", rule_betainc},
    {"EuclideanNorm", rule_euclidean_norm},
    {"ApproxTopK", rule_approx_top_k},
    {NULL, NULL},
};
