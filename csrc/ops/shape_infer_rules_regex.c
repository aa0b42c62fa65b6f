/* Shape rules for the regular-expression string ops: the output has the
 * input's shape; the pattern and rewrite inputs must be scalars (TF's
 * shape functions check their rank). */
#include "ops/shape_infer_internal.h"

/* RegexFullMatch(input, pattern) and RegexReplace(input, pattern,
 * rewrite): every input after the first is a scalar. */
static int rule_regex_dynamic(si_ctx* c) {
  int i;
  for (i = 1; i < si_num_inputs(c); i++) {
    si_sh s;
    si_in(c, i, &s);
    if (!si_with_rank(c, &s, 0, &s)) return 0;
  }
  return si_set_input(c, 0, 0);
}

const si_rule si_rules_regex[] = {
    {"RegexFullMatch", rule_regex_dynamic},
    {"RegexReplace", rule_regex_dynamic},
    {"StaticRegexFullMatch", si_rule_unchanged},
    {"StaticRegexReplace", si_rule_unchanged},
    {NULL, NULL},
};
