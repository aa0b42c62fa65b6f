/* Shape rules for the random_dist op group (random distributions and generator-state ops (gamma, Poisson, binomial, shuffle, RNG state)). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_random_dist[] = {
    {NULL, NULL},
};
