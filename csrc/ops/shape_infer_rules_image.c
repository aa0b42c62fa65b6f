/* Shape rules for the image, ragged, linear algebra and random ops that
 * exported models use (defs_image.c). Each rule tells what TF 2.21's
 * shape function tells and reports the same mistakes at graph build. */
#include <string.h>

#include "ops/shape_infer_internal.h"

/* [batch, h, w, channels] from images (input 0) and a size vector
 * (input 1) of two elements: ResizeBicubic, ResizeArea. */
static int rule_resize(si_ctx* c) {
  si_sh in, sz, o;
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  si_in(c, 1, &sz);
  if (!si_with_rank(c, &sz, 1, &sz)) return 0;
  if (!si_with_value(c, sz.d[0], 2, NULL)) return 0;
  if (!si_shape_from_tensor(c, 1, &sz)) return 0;
  o.rank = 4;
  o.d[0] = in.d[0];
  o.d[1] = sz.rank == 2 ? sz.d[0] : -1;
  o.d[2] = sz.rank == 2 ? sz.d[1] : -1;
  o.d[3] = in.d[3];
  return si_set(c, 0, &o);
}

/* CropAndResize(image, boxes, box_ind, crop_size):
 * [num_boxes, crop_h, crop_w, depth]. */
static int rule_crop_and_resize(si_ctx* c) {
  si_sh img, boxes, ind, cs, o;
  int64_t nb;
  si_in(c, 0, &img);
  if (!si_with_rank(c, &img, 4, &img)) return 0;
  si_in(c, 1, &boxes);
  if (!si_with_rank(c, &boxes, 2, &boxes)) return 0;
  si_in(c, 2, &ind);
  if (!si_with_rank(c, &ind, 1, &ind)) return 0;
  if (!si_merge_dim(c, boxes.d[0], ind.d[0], &nb)) return 0;
  if (!si_with_value(c, boxes.d[1], 4, NULL)) return 0;
  si_in(c, 3, &cs);
  if (!si_with_rank(c, &cs, 1, &cs)) return 0;
  if (!si_with_value(c, cs.d[0], 2, NULL)) return 0;
  if (!si_shape_from_tensor(c, 3, &cs)) return 0;
  o.rank = 4;
  o.d[0] = nb;
  o.d[1] = cs.rank == 2 ? cs.d[0] : -1;
  o.d[2] = cs.rank == 2 ? cs.d[1] : -1;
  o.d[3] = img.d[3];
  return si_set(c, 0, &o);
}

/* Checks NMS inputs: boxes [n, 4], scores [n], scalar thresholds (inputs
 * 2..last_scalar). */
static int nms_inputs(si_ctx* c, int last_scalar) {
  si_sh boxes, scores, s;
  int i;
  si_in(c, 0, &boxes);
  if (!si_with_rank(c, &boxes, 2, &boxes)) return 0;
  si_in(c, 1, &scores);
  if (!si_with_rank(c, &scores, 1, &scores)) return 0;
  for (i = 2; i <= last_scalar; i++) {
    si_in(c, i, &s);
    if (!si_with_rank(c, &s, 0, &s)) return 0;
  }
  if (!si_merge_dim(c, boxes.d[0], scores.d[0], NULL)) return 0;
  return si_with_value(c, boxes.d[1], 4, NULL);
}

/* The selected-index vector: max_output_size long when padded and known. */
static int nms_len(si_ctx* c, int64_t* len) {
  *len = -1;
  if (si_attr_bool(c, "pad_to_max_output_size", 0)) {
    int64_t v;
    if (si_value_scalar(c, 2, &v) && v >= 0) *len = v;
  }
  return 1;
}

static int rule_nms_v3(si_ctx* c) {
  if (!nms_inputs(c, 4)) return 0;
  return si_set_vector(c, 0, -1);
}

static int rule_nms_v4(si_ctx* c) {
  int64_t n;
  if (!nms_inputs(c, 4)) return 0;
  nms_len(c, &n);
  if (!si_set_vector(c, 0, n)) return 0;
  return si_set_scalar(c, 1);
}

static int rule_nms_v5(si_ctx* c) {
  int64_t n;
  if (!nms_inputs(c, 5)) return 0;
  nms_len(c, &n);
  if (!si_set_vector(c, 0, n)) return 0;
  if (!si_set_vector(c, 1, n)) return 0;
  return si_set_scalar(c, 2);
}

/* Svd(input): s [..., p], u [..., m, m or p], v [..., n, n or p]; u and v
 * are [0] vectors without compute_uv. */
static int rule_svd(si_ctx* c) {
  si_sh in, s, u, v;
  int64_t m, n, p;
  int full = si_attr_bool(c, "full_matrices", 0);
  int uv = si_attr_bool(c, "compute_uv", 1);
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 2, &in)) return 0;
  if (in.rank < 0) return 1;
  m = in.d[in.rank - 2];
  n = in.d[in.rank - 1];
  p = (m < 0 || n < 0) ? -1 : (m < n ? m : n);
  s = in;
  s.rank -= 2;
  u = s;
  v = s;
  si_append_dim(&s, p);
  if (!si_set(c, 0, &s)) return 0;
  if (!uv) {
    if (!si_set_vector(c, 1, 0)) return 0;
    return si_set_vector(c, 2, 0);
  }
  si_append_dim(&u, m);
  si_append_dim(&u, full ? m : p);
  si_append_dim(&v, n);
  si_append_dim(&v, full ? n : p);
  if (!si_set(c, 1, &u)) return 0;
  return si_set(c, 2, &v);
}

/* Multinomial(logits [batch, classes], num_samples) -> [batch, n]. */
static int rule_multinomial(si_ctx* c) {
  si_sh lg, ns;
  int64_t n;
  si_in(c, 0, &lg);
  if (!si_with_rank(c, &lg, 2, &lg)) return 0;
  si_in(c, 1, &ns);
  if (!si_with_rank(c, &ns, 0, &ns)) return 0;
  if (!si_dim_from_scalar(c, 1, &n)) return 0;
  {
    si_sh o;
    si_matrix(&o, lg.d[0], n);
    return si_set(c, 0, &o);
  }
}

/* StatelessRandomUniformIntV2: the shape input, scalar bounds. */
static int rule_stateless_int(si_ctx* c) {
  si_sh s;
  si_in(c, 4, &s);
  if (!si_with_rank(c, &s, 0, &s)) return 0;
  si_in(c, 5, &s);
  if (!si_with_rank(c, &s, 0, &s)) return 0;
  return si_rule_shape_from_input0(c);
}

/* StatelessRandomUniformInt(shape, seed, minval, maxval): scalar bounds. */
static int rule_stateless_v1_int(si_ctx* c) {
  si_sh s;
  si_in(c, 2, &s);
  if (!si_with_rank(c, &s, 0, &s)) return 0;
  si_in(c, 3, &s);
  if (!si_with_rank(c, &s, 0, &s)) return 0;
  return si_rule_shape_from_input0(c);
}

/* ---- RaggedTensorToTensor ---- */

enum { RP_FIRST_DIM_SIZE = 1, RP_VALUE_ROWIDS = 2, RP_ROW_SPLITS = 3 };

static int rp_type(const char* s) {
  if (strcmp(s, "FIRST_DIM_SIZE") == 0) return RP_FIRST_DIM_SIZE;
  if (strcmp(s, "VALUE_ROWIDS") == 0) return RP_VALUE_ROWIDS;
  if (strcmp(s, "ROW_SPLITS") == 0) return RP_ROW_SPLITS;
  return 0;
}

static int rule_ragged_to_tensor(si_ctx* c) {
  const tfe_attr_value* av = si_attr(c, "row_partition_types");
  si_sh shape, vals, dflt, part, out;
  int ntypes = 0, types[SI_MAX_RANK], i, ragged_rank, nparts;
  char a[64], b[64];
  si_in(c, 0, &shape);
  if (shape.rank == 0) {
    si_unknown(&shape);
  } else if (!si_shape_from_tensor(c, 0, &shape)) {
    return 0;
  }
  if (av == NULL || !av->is_list) return 1;
  if (av->list_size > 0 && av->type != TF_ATTR_STRING) return 1;
  for (i = 0; i < av->list_size && i < SI_MAX_RANK; i++) {
    const char* name = av->list.s.data[i];
    types[i] = rp_type(name);
    if (types[i] == 0) {
      return si_err(c, "Unknown string for partition info type: %s", name);
    }
  }
  ntypes = i;
  if (ntypes == 0) {
    return si_err(c, "Partition info types should not be empty");
  }
  for (i = 1; i < ntypes; i++) {
    if (types[i] == RP_FIRST_DIM_SIZE) {
      return si_err(c, "FIRST_DIM_SIZE must be first");
    }
  }
  if (types[0] == RP_FIRST_DIM_SIZE &&
      (ntypes < 2 || types[1] != RP_VALUE_ROWIDS)) {
    return si_err(c, "FIRST_DIM_SIZE must be followed by VALUE_ROWIDS");
  }
  if (types[0] == RP_VALUE_ROWIDS) {
    return si_err(c, "VALUE_ROWIDS cannot be first");
  }
  nparts = (int)si_attr_int(c, "num_row_partition_tensors", ntypes);
  if (nparts != ntypes) {
    return si_err(c,
                  "Number of row partition tensors (%d) does not equal the "
                  "number of row partition types(%d).",
                  nparts, ntypes);
  }
  for (i = 0; i < nparts; i++) {
    si_in(c, 3 + i, &part);
    if (part.rank < 0) continue;
    if (types[i] == RP_FIRST_DIM_SIZE && part.rank != 0) {
      return si_err(c, "FIRST_DIM_SIZE must be a scalar.");
    }
    if (types[i] != RP_FIRST_DIM_SIZE && part.rank != 1) {
      return si_err(c, "Row partition must be a vector.");
    }
  }
  ragged_rank = types[0] == RP_FIRST_DIM_SIZE ? ntypes - 1 : ntypes;
  si_in(c, 1, &vals);
  si_in(c, 2, &dflt);
  if (vals.rank >= 0 && dflt.rank >= 0) {
    if (dflt.rank >= vals.rank) {
      si_debug_string(&dflt, a, sizeof a);
      si_debug_string(&vals, b, sizeof b);
      return si_err(c,
                    "default_value.shape=%s and rt_input.flat_values.shape=%s "
                    "are incompatible: default_value.rank = %d  must be less "
                    "than rt_input.flat_values.rank = %d",
                    a, b, dflt.rank, vals.rank);
    }
    for (i = 0; i < dflt.rank; i++) {
      int64_t dd = dflt.d[i], vd = vals.d[i + 1];
      if (dd >= 0 && vd >= 0 && dd != 1 && dd != vd) {
        si_debug_string(&dflt, a, sizeof a);
        si_debug_string(&vals, b, sizeof b);
        return si_err(c,
                      "default_value.shape=%s and rt_input.flat_values.shape="
                      "%s are incompatible: default_value.shape[%d] = %lld "
                      "but rt_input.flat_values.shape[%d] = %lld",
                      a, b, i - dflt.rank, (long long)dd, i - dflt.rank,
                      (long long)vd);
      }
    }
  }
  if (vals.rank < 0 && shape.rank < 0) return 1;
  if (shape.rank < 0) {
    if (ragged_rank + vals.rank > SI_MAX_RANK) return 1;
    si_unknown_of_rank(&out, ragged_rank + vals.rank);
  } else {
    out = shape;
  }
  if (vals.rank >= 0) {
    if (ragged_rank + vals.rank != out.rank) {
      si_debug_string(&shape, a, sizeof a);
      return si_err(c,
                    "rt_input.shape and shape=%s are incompatible: "
                    "rt_input.rank = %d but shape.rank = %d",
                    a, ragged_rank + vals.rank, out.rank);
    }
    for (i = 1; i < vals.rank; i++) {
      int64_t* od = &out.d[out.rank - vals.rank + i];
      if (vals.d[i] < 0) continue;
      if (*od >= 0 && *od != vals.d[i]) {
        si_debug_string(&shape, a, sizeof a);
        return si_err(c,
                      "rt_input.shape and shape=%s are incompatible: "
                      "rt_input.shape[%d] = %lld but shape[%d] = %lld",
                      a, i + ragged_rank, (long long)vals.d[i],
                      i + ragged_rank, (long long)*od);
      }
      *od = vals.d[i];
    }
  }
  return si_set(c, 0, &out);
}

const si_rule si_rules_image[] = {
    {"DisableCopyOnRead", si_rule_unknown},
    {"RaggedTensorToTensor", rule_ragged_to_tensor},
    {"NonMaxSuppressionV3", rule_nms_v3},
    {"NonMaxSuppressionV4", rule_nms_v4},
    {"NonMaxSuppressionV5", rule_nms_v5},
    {"ResizeBicubic", rule_resize},
    {"ResizeArea", rule_resize},
    {"CropAndResize", rule_crop_and_resize},
    {"Svd", rule_svd},
    {"Multinomial", rule_multinomial},
    {"StatelessRandomUniformIntV2", rule_stateless_int},
    {"StatelessRandomUniformFullIntV2", si_rule_shape_from_input0},
    {"StatelessTruncatedNormalV2", si_rule_shape_from_input0},
    /* StatelessRandomUniform/Normal have entries in si_rules_misc */
    {"StatelessTruncatedNormal", si_rule_shape_from_input0},
    {"StatelessRandomUniformInt", rule_stateless_v1_int},
    {"StatelessRandomUniformFullInt", si_rule_shape_from_input0},
    {"StatelessMultinomial", rule_multinomial},
    {NULL, NULL}};
