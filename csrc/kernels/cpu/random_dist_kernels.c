/* CPU kernels: random distributions and generator-state ops (gamma, Poisson, binomial, shuffle, RNG state). */
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_random_dist_kernels(void);

void tfe_register_cpu_random_dist_kernels(void) {}
