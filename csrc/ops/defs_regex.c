/* Built-in op definitions: regular-expression string ops.
 * Names, args, attrs and defaults follow TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_regex_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("RegexFullMatch", "in: input: string",
           "in: pattern: string",
           "out: output: bool"),
    TFE_OP("StaticRegexFullMatch", "in: input: string",
           "out: output: bool",
           "attr: pattern: string"),
    TFE_OP("RegexReplace", "in: input: string",
           "in: pattern: string",
           "in: rewrite: string",
           "out: output: string",
           "attr: replace_global: bool = true"),
    TFE_OP("StaticRegexReplace", "in: input: string",
           "out: output: string",
           "attr: pattern: string",
           "attr: rewrite: string",
           "attr: replace_global: bool = true"),
};

int tfe_ops_register_regex_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]));
}
