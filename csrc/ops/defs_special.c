/* Built-in op definitions: special mathematical functions (Bessel
 * functions, the inverse normal CDF and error function, Dawson's integral,
 * the exponential integral) and the string ops StringLower, StringUpper
 * and StringStrip. Generated from TensorFlow 2.21's op registry:
 * names, args, attrs and allowed dtypes match it. */
#include "ops/ops_internal.h"

int tfe_ops_register_special_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("BesselI0e", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("BesselI1e", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("BesselI0", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("BesselI1", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("BesselK0", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("BesselK1", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("BesselK0e", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("BesselK1e", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("BesselJ0", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("BesselJ1", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("BesselY0", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("BesselY1", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("Ndtri", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("Erfinv", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("Dawsn", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("Expint", "in: x: T",
           "out: y: T",
           "attr: T: {bfloat16, half, float, double}"),
    TFE_OP("StringLower", "in: input: string",
           "out: output: string",
           "attr: encoding: string = ''"),
    TFE_OP("StringUpper", "in: input: string",
           "out: output: string",
           "attr: encoding: string = ''"),
    TFE_OP("StringStrip", "in: input: string",
           "out: output: string"),
};

int tfe_ops_register_special_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]));
}
