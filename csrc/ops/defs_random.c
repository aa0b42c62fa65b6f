/* Built-in op definitions: stateful and stateless (Philox) random number ops.
 * Names, arg and attr names, types, defaults and allowed dtypes follow
 * TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_random_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("RandomUniform", "in: shape: T",
           "out: output: dtype",
           "attr: seed: int = 0",
           "attr: seed2: int = 0",
           "attr: dtype: {half, bfloat16, float, double}",
           "attr: T: {int32, int64}",
           "stateful"),
    TFE_OP("RandomStandardNormal", "in: shape: T",
           "out: output: dtype",
           "attr: seed: int = 0",
           "attr: seed2: int = 0",
           "attr: dtype: {half, bfloat16, float, double}",
           "attr: T: {int32, int64}",
           "stateful"),
    TFE_OP("TruncatedNormal", "in: shape: T",
           "out: output: dtype",
           "attr: seed: int = 0",
           "attr: seed2: int = 0",
           "attr: dtype: {half, bfloat16, float, double}",
           "attr: T: {int32, int64}",
           "stateful"),
    TFE_OP("StatelessRandomUniformV2", "in: shape: Tshape",
           "in: key: uint64",
           "in: counter: uint64",
           "in: alg: int32",
           "out: output: dtype",
           "attr: dtype: {half, bfloat16, float, double} = DT_FLOAT",
           "attr: Tshape: {int32, int64} = DT_INT32"),
    TFE_OP("StatelessRandomNormalV2", "in: shape: Tshape",
           "in: key: uint64",
           "in: counter: uint64",
           "in: alg: int32",
           "out: output: dtype",
           "attr: dtype: {half, bfloat16, float, double} = DT_FLOAT",
           "attr: Tshape: {int32, int64} = DT_INT32"),
    TFE_OP("StatelessRandomGetKeyCounter", "in: seed: Tseed",
           "out: key: uint64",
           "out: counter: uint64",
           "attr: Tseed: {int32, int64} = DT_INT64"),
    TFE_OP("StatelessRandomGetAlg", "out: alg: int32",
           "stateful"),
    TFE_OP("StatelessRandomGetKeyCounterAlg", "in: seed: Tseed",
           "out: key: uint64",
           "out: counter: uint64",
           "out: alg: int32",
           "attr: Tseed: {int32, int64} = DT_INT64"),
};

int tfe_ops_register_random_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]));
}
