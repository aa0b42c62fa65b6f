/* Shape rules for the random_dist op group (random distributions and generator-state ops (gamma, Poisson, binomial, shuffle, RNG state)). */
#include "ops/shape_infer_internal.h"

/* Output 0 from the shape tensor input i (TF's MakeShapeFromShapeTensor). */
static int shape_from(si_ctx* c, int i) {
  si_sh o;
  if (!si_shape_from_tensor(c, i, &o)) return 0;
  return si_set(c, 0, &o);
}

/* Input i must be a vector of n elements (TF's seed checks). */
static int vec_of(si_ctx* c, int i, int64_t n) {
  si_sh s;
  int64_t d;
  si_in(c, i, &s);
  if (!si_with_rank(c, &s, 1, &s)) return 0;
  return si_with_value(c, s.d[0], n, &d);
}

static int scalar_in(si_ctx* c, int i) {
  si_sh s;
  si_in(c, i, &s);
  return si_with_rank(c, &s, 0, &s);
}

/* shape tensor input 0 followed by input 1's shape (RandomGamma,
 * RandomPoisson). */
static int rule_shape_then_param(si_ctx* c) {
  si_sh o, p;
  if (!si_shape_from_tensor(c, 0, &o)) return 0;
  si_in(c, 1, &p);
  si_concat(&o, &p);
  return si_set(c, 0, &o);
}

static int rule_seeded_shape0(si_ctx* c) {
  if (!vec_of(c, 1, 2)) return 0;
  return shape_from(c, 0);
}

static int rule_keyed_shape0(si_ctx* c) {
  si_sh s;
  si_in(c, 1, &s);
  if (!si_with_rank(c, &s, 1, &s)) return 0;
  si_in(c, 2, &s);
  if (!si_with_rank(c, &s, 1, &s)) return 0;
  if (!scalar_in(c, 3)) return 0;
  return shape_from(c, 0);
}

static int rule_stateful_shape2(si_ctx* c) {
  if (!scalar_in(c, 1)) return 0;
  return shape_from(c, 2);
}

static int rule_stateful_shape1(si_ctx* c) { return shape_from(c, 1); }

static int rule_read_and_skip(si_ctx* c) {
  if (!scalar_in(c, 1)) return 0;
  if (!scalar_in(c, 2)) return 0;
  return si_set_vector(c, 0, 3);
}

static int rule_rng_skip(si_ctx* c) {
  if (!scalar_in(c, 1)) return 0;
  return scalar_in(c, 2);
}

static int rule_stateful_uniform_int(si_ctx* c) {
  if (!scalar_in(c, 1)) return 0;
  if (!scalar_in(c, 3)) return 0;
  if (!scalar_in(c, 4)) return 0;
  return shape_from(c, 2);
}

static int rule_keyed_shuffle(si_ctx* c) {
  si_sh s;
  si_in(c, 1, &s);
  if (!si_with_rank(c, &s, 1, &s)) return 0;
  si_in(c, 2, &s);
  if (!si_with_rank(c, &s, 1, &s)) return 0;
  if (!scalar_in(c, 3)) return 0;
  return si_set_input(c, 0, 0);
}

/* TF's shape fn: scalar index/seed [3]/scalar max give a scalar, else a
 * vector whose length is the first known of index, seed rows and max. */
static int rule_index_shuffle(si_ctx* c) {
  si_sh idx, seed, mx;
  int64_t n = -1;
  si_in(c, 0, &idx);
  si_in(c, 1, &seed);
  si_in(c, 2, &mx);
  if (idx.rank == 0 && seed.rank == 1 && mx.rank == 0) return si_set_scalar(c, 0);
  if (idx.rank == 1) n = idx.d[0];
  if (n < 0 && seed.rank == 2) n = seed.d[0];
  if (n < 0 && mx.rank == 1) n = mx.d[0];
  return si_set_vector(c, 0, n);
}

/* TF's CandidateSamplerShapeFn: [num_sampled], [batch, num_true],
 * [num_sampled]; true_classes a matrix with num_true columns. */
static int rule_candidate_sampler(si_ctx* c) {
  int64_t ns = si_attr_int(c, "num_sampled", -1);
  int64_t nt = si_attr_int(c, "num_true", -1);
  si_sh tc, o;
  si_in(c, 0, &tc);
  if (!si_with_rank(c, &tc, 2, &tc)) return 0;
  if (!si_set_vector(c, 0, ns)) return 0;
  si_matrix(&o, tc.rank == 2 ? tc.d[0] : -1, nt);
  if (!si_set(c, 1, &o)) return 0;
  return si_set_vector(c, 2, ns);
}

/* ComputeAccidentalHits: three vectors of unknown length. */
static int rule_accidental_hits(si_ctx* c) {
  si_sh s;
  int64_t nt = si_attr_int(c, "num_true", -1), d;
  si_in(c, 0, &s);
  if (!si_with_rank(c, &s, 2, &s)) return 0;
  if (!si_with_value(c, s.d[1], nt, &d)) return 0;
  si_in(c, 1, &s);
  if (!si_with_rank(c, &s, 1, &s)) return 0;
  if (!si_set_vector(c, 0, -1)) return 0;
  if (!si_set_vector(c, 1, -1)) return 0;
  return si_set_vector(c, 2, -1);
}

const si_rule si_rules_random_dist[] = {
    {"RandomShuffle", si_rule_unchanged},
    {"StatelessShuffle", rule_keyed_shuffle},
    {"RandomGamma", rule_shape_then_param},
    {"StatelessRandomGammaV2", rule_seeded_shape0},
    {"StatelessRandomGammaV3", rule_keyed_shape0},
    {"RandomPoisson", rule_shape_then_param},
    {"RandomPoissonV2", rule_shape_then_param},
    {"StatelessRandomPoisson", rule_seeded_shape0},
    {"StatelessRandomBinomial", rule_seeded_shape0},
    {"StatefulRandomBinomial", rule_stateful_shape2},
    {"RngReadAndSkip", rule_read_and_skip},
    {"RngSkip", rule_rng_skip},
    {"NonDeterministicInts", si_rule_shape_from_input0},
    {"StatefulUniform", rule_stateful_shape2},
    {"StatefulUniformInt", rule_stateful_uniform_int},
    {"StatefulUniformFullInt", rule_stateful_shape2},
    {"StatefulStandardNormalV2", rule_stateful_shape2},
    {"StatefulStandardNormal", rule_stateful_shape1},
    {"StatefulTruncatedNormal", rule_stateful_shape2},
    {"ParameterizedTruncatedNormal", si_rule_shape_from_input0},
    {"StatelessParameterizedTruncatedNormal", rule_seeded_shape0},
    {"RandomIndexShuffle", rule_index_shuffle},
    {"UniformCandidateSampler", rule_candidate_sampler},
    {"LogUniformCandidateSampler", rule_candidate_sampler},
    {"AllCandidateSampler", rule_candidate_sampler},
    {"LearnedUnigramCandidateSampler", rule_candidate_sampler},
    {"ThreadUnsafeUnigramCandidateSampler", rule_candidate_sampler},
    {"FixedUnigramCandidateSampler", rule_candidate_sampler},
    {"ComputeAccidentalHits", rule_accidental_hits},
    {NULL, NULL},
};
