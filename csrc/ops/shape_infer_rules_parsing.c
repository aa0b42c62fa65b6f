/* Shape rules for the parsing op group (parsing and serialization ops of tf.io and tf.strings (DecodeCSV, SerializeTensor, ParseTensor, ...)). */
#include "ops/shape_infer_internal.h"

const si_rule si_rules_parsing[] = {
    {NULL, NULL},
};
