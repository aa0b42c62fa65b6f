/* Built-in op definitions: string tensors.
 * Names, arg and attr names, types, defaults and allowed dtypes follow
 * TensorFlow 2.21's op registry. */
#include "ops/ops_internal.h"

int tfe_ops_register_string_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("StringJoin", "in: inputs: N * string",
           "out: output: string",
           "attr: N: int >= 0",
           "attr: separator: string = ''"),
    TFE_OP("StringLength", "in: input: string",
           "out: output: int32",
           "attr: unit: {'BYTE', 'UTF8_CHAR'} = 'BYTE'"),
    TFE_OP("Substr", "in: input: string",
           "in: pos: T",
           "in: len: T",
           "out: output: string",
           "attr: T: {int32, int64}",
           "attr: unit: {'BYTE', 'UTF8_CHAR'} = 'BYTE'"),
    TFE_OP("AsString", "in: input: T",
           "out: output: string",
           "attr: T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64, complex64, complex128, bool, variant, string}",
           "attr: precision: int = -1",
           "attr: scientific: bool = false",
           "attr: shortest: bool = false",
           "attr: width: int = -1",
           "attr: fill: string = ''"),
    TFE_OP("StringToNumber", "in: string_tensor: string",
           "out: output: out_type",
           "attr: out_type: {float, double, int32, int64, uint32, uint64} = DT_FLOAT"),
};

int tfe_ops_register_string_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]));
}
