/* Shape rules for the checkpoint and file ops (SaveV2, RestoreV2,
 * ReadFile, ...), as TensorFlow 2.21's shape functions in io_ops.cc. */
#include <string.h>

#include "core/alloc.h"
#include "graph/checkpoint_ops.h"
#include "ops/shape_infer_internal.h"
#include "tensorflow/c/tf_tstring.h"

/* Every input a scalar, every output a scalar. */
static int rule_scalar_io(si_ctx* c) {
  int i;
  si_sh s;
  for (i = 0; i < si_num_inputs(c); i++) {
    si_in(c, i, &s);
    if (!si_with_rank(c, &s, 0, &s)) return 0;
  }
  for (i = 0; i < si_num_outputs(c); i++) si_set_scalar(c, i);
  return 1;
}

/* SaveV2 / SaveSlices (fixed = 3) and Save (fixed = 2): a scalar name and
 * vectors of one entry per saved tensor. */
static int check_save(si_ctx* c, int fixed) {
  si_sh s;
  int64_t unused;
  int i;
  si_in(c, 0, &s);
  if (!si_with_rank(c, &s, 0, &s)) return 0;
  for (i = 1; i < fixed; i++) {
    si_in(c, i, &s);
    if (!si_with_rank(c, &s, 1, &s)) return 0;
    if (!si_with_value(c, s.d[0], si_num_inputs(c) - fixed, &unused)) return 0;
  }
  return 1;
}
static int rule_save_v2(si_ctx* c) { return check_save(c, 3); }
static int rule_save(si_ctx* c) { return check_save(c, 2); }

/* Output shape from a constant shape_and_slice string (unknown when
 * empty). */
static int slice_output(si_ctx* c, int out, const TF_TString* spec) {
  int64_t *full = NULL, *sdims = NULL;
  int rank, d;
  tfe_tslice sl;
  si_sh s;
  size_t n = TF_TString_GetSize(spec);
  if (n == 0) return 1;
  if (!tfe_parse_shape_and_slice(TF_TString_GetDataPointer(spec), n, &full,
                                 &rank, &sl, &sdims, c->s))
    return 0;
  if (rank > SI_MAX_RANK) rank = SI_MAX_RANK;
  s.rank = rank;
  for (d = 0; d < rank; d++) s.d[d] = sdims[d];
  tfe_free(full);
  tfe_free(sdims);
  tfe_tslice_free(&sl);
  return si_set(c, out, &s);
}

static int rule_restore_v2(si_ctx* c) {
  si_sh a, b, p;
  TF_Tensor* v;
  int64_t i, n;
  si_in(c, 0, &p);
  if (!si_with_rank(c, &p, 0, &p)) return 0;
  si_in(c, 1, &a);
  if (!si_with_rank(c, &a, 1, &a)) return 0;
  si_in(c, 2, &b);
  if (!si_with_rank(c, &b, 1, &b)) return 0;
  if (!si_merge(c, &a, &b)) return 0;
  v = si_value(c, 2);
  if (v == NULL) return 1;
  if (TF_TensorType(v) != TF_STRING)
    return si_err(c, "Expected an input tensor of type string.");
  n = TF_TensorElementCount(v);
  if (n != si_num_outputs(c))
    return si_err(c,
                  "The number of shape_and_slice doesn't match tensor outputs.");
  for (i = 0; i < n; i++) {
    if (!slice_output(c, (int)i, &((const TF_TString*)TF_TensorData(v))[i]))
      return 0;
  }
  return 1;
}

static int rule_merge_v2(si_ctx* c) {
  si_sh s;
  si_in(c, 0, &s);
  if (!si_with_rank(c, &s, 1, &s)) return 0;
  si_in(c, 1, &s);
  return si_with_rank(c, &s, 0, &s);
}

static int rule_restore(si_ctx* c) {
  si_sh s;
  si_in(c, 0, &s);
  if (!si_with_rank(c, &s, 0, &s)) return 0;
  si_in(c, 1, &s);
  return si_with_rank(c, &s, 0, &s);
}

static int rule_restore_slice(si_ctx* c) {
  si_sh s;
  TF_Tensor* v;
  int i;
  for (i = 0; i < 3; i++) {
    si_in(c, i, &s);
    if (!si_with_rank(c, &s, 0, &s)) return 0;
  }
  v = si_value(c, 2);
  if (v == NULL || TF_TensorType(v) != TF_STRING ||
      TF_TensorElementCount(v) < 1)
    return 1;
  return slice_output(c, 0, (const TF_TString*)TF_TensorData(v));
}

static int rule_write_file(si_ctx* c) {
  si_sh s;
  si_in(c, 0, &s);
  if (!si_with_rank(c, &s, 0, &s)) return 0;
  si_in(c, 1, &s);
  return si_with_rank(c, &s, 0, &s);
}

static int rule_matching_files(si_ctx* c) {
  si_sh s;
  si_in(c, 0, &s);
  if (!si_with_rank_at_most(c, &s, 1, &s)) return 0;
  return si_set_vector(c, 0, SI_UNKNOWN);
}

const si_rule si_rules_io[] = {
    {"SaveV2", rule_save_v2},
    {"RestoreV2", rule_restore_v2},
    {"MergeV2Checkpoints", rule_merge_v2},
    {"Save", rule_save},
    {"SaveSlices", rule_save_v2},
    {"Restore", rule_restore},
    {"RestoreSlice", rule_restore_slice},
    {"ShardedFilename", rule_scalar_io},
    {"ShardedFilespec", rule_scalar_io},
    {"ReadFile", rule_scalar_io},
    {"WriteFile", rule_write_file},
    {"MatchingFiles", rule_matching_files},
    {"ImmutableConst", si_rule_explicit_shape},
    {NULL, NULL}};
