/* Built-in op definitions: parsing and serialization ops of tf.io and
 * tf.strings (UnicodeScript, SerializeTensor, ParseTensor, DecodeRaw,
 * DecodePaddedRaw, DecodeCSV, DecodeCompressed, DecodePng, DecodeBmp,
 * DecodeImage). Names, args, attrs and defaults follow TensorFlow 2.21's op
 * registry. The kernels are in csrc/kernels/cpu/parsing_kernels.c and
 * parsing_png.c. */
#include "ops/ops_internal.h"

int tfe_ops_register_parsing_defs(void);

static const tfe_builtin_op kOps[] = {
    TFE_OP("UnicodeScript", "in: input: int32",
           "out: output: int32"),
    TFE_OP("SerializeTensor", "in: tensor: T",
           "out: serialized: string",
           "attr: T: type"),
    TFE_OP("ParseTensor", "in: serialized: string",
           "out: output: out_type",
           "attr: out_type: type"),
    TFE_OP("DecodeRaw", "in: bytes: string",
           "out: output: out_type",
           "attr: out_type: {half, float, double, int32, uint16, uint8, "
           "int16, int8, int64, complex64, complex128, bool, bfloat16}",
           "attr: little_endian: bool = true"),
    TFE_OP("DecodePaddedRaw", "in: input_bytes: string",
           "in: fixed_length: int32",
           "out: output: out_type",
           "attr: out_type: {half, float, double, int32, uint16, uint8, "
           "int16, int8, int64, bfloat16}",
           "attr: little_endian: bool = true"),
    TFE_OP("DecodeCSV", "in: records: string",
           "in: record_defaults: OUT_TYPE",
           "out: output: OUT_TYPE",
           "attr: OUT_TYPE: list({float, double, int32, int64, string}) >= 1",
           "attr: field_delim: string = ','",
           "attr: use_quote_delim: bool = true",
           "attr: na_value: string = ''",
           "attr: select_cols: list(int) = []"),
    TFE_OP("DecodeCompressed", "in: bytes: string",
           "out: output: string",
           "attr: compression_type: string = ''"),
    TFE_OP("DecodePng", "in: contents: string",
           "out: image: dtype",
           "attr: channels: int = 0",
           "attr: dtype: {uint8, uint16} = DT_UINT8"),
    TFE_OP("DecodeBmp", "in: contents: string",
           "out: image: uint8",
           "attr: channels: int = 0"),
    TFE_OP("DecodeImage", "in: contents: string",
           "out: image: dtype",
           "attr: channels: int = 0",
           "attr: dtype: {uint8, uint16, float} = DT_UINT8",
           "attr: expand_animations: bool = true"),
    {NULL, NULL}, /* end marker: not registered */
};

int tfe_ops_register_parsing_defs(void) {
  return tfe_ops_register_table(kOps, (int)(sizeof kOps / sizeof kOps[0]) - 1);
}
