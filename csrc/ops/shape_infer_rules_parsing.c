/* Shape rules for the parsing op group (UnicodeScript, SerializeTensor,
 * ParseTensor, DecodeRaw, DecodePaddedRaw, DecodeCSV, DecodeCompressed,
 * DecodePng, DecodeBmp, DecodeImage),
 * as TF's shape functions give them. */
#include "ops/shape_infer_internal.h"

#include "tensorflow/c/tf_datatype.h"

/* DecodeRaw: the input's shape plus one unknown dim (the data decides). */
static int rule_decode_raw(si_ctx* c) {
  si_sh in, v;
  si_in(c, 0, &in);
  si_vector(&v, SI_UNKNOWN);
  si_concat(&in, &v);
  return si_set(c, 0, &in);
}

/* DecodePaddedRaw: input shape plus fixed_length / sizeof(out_type). */
static int rule_decode_padded_raw(si_ctx* c) {
  si_sh in, v;
  int64_t fixed, width;
  size_t size = TF_DataTypeSize(si_attr_type(c, "out_type"));
  if (!si_dim_from_scalar(c, 1, &fixed)) return 0;
  if (size == 0) return 1;
  if (!si_dim_div(c, fixed, (int64_t)size, 1, &width)) return 0;
  si_in(c, 0, &in);
  si_vector(&v, width);
  si_concat(&in, &v);
  return si_set(c, 0, &in);
}

/* DecodeCSV: every default a scalar or a vector of at most one element;
 * every output has the shape of records. */
static int rule_decode_csv(si_ctx* c) {
  int i, n = si_num_inputs(c);
  for (i = 1; i < n; i++) {
    si_sh d;
    si_in(c, i, &d);
    if (!si_with_rank_at_most(c, &d, 1, &d)) return 0;
    if (d.rank == 1 && d.d[0] != SI_UNKNOWN && d.d[0] > 1) {
      return si_err(c, "Shape of a default must be a length-0 or length-1 "
                       "vector, or a scalar.");
    }
  }
  for (i = 0; i < si_num_outputs(c); i++) {
    if (!si_set_input(c, i, 0)) return 0;
  }
  return 1;
}

/* DecodePng / DecodeBmp / DecodeImage: a scalar in; [?, ?, channels] out
 * (channels 0 is unknown). DecodeImage with expand_animations may give 3-D or 4-D:
 * unknown rank. */
static int rule_decode_image(si_ctx* c) {
  si_sh in, out;
  int64_t channels = si_attr_int(c, "channels", 0);
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 0, &in)) return 0;
  if (channels < 0) {
    return si_err(c, "channels must be non-negative, got %lld", (long long)channels);
  }
  if (si_attr(c, "expand_animations") != NULL && si_attr_bool(c, "expand_animations", 1)) {
    return 1;
  }
  out.rank = 3;
  out.d[0] = SI_UNKNOWN;
  out.d[1] = SI_UNKNOWN;
  out.d[2] = channels == 0 ? SI_UNKNOWN : channels;
  return si_set(c, 0, &out);
}

const si_rule si_rules_parsing[] = {
    {"UnicodeScript", si_rule_unchanged},
    {"SerializeTensor", si_rule_scalar},
    {"ParseTensor", si_rule_unknown}, /* TF: UnknownShape */
    {"DecodeRaw", rule_decode_raw},
    {"DecodePaddedRaw", rule_decode_padded_raw},
    {"DecodeCSV", rule_decode_csv},
    {"DecodeCompressed", si_rule_unchanged},
    {"DecodePng", rule_decode_image},
    {"DecodeBmp", rule_decode_image},
    {"DecodeImage", rule_decode_image},
    {NULL, NULL},
};
