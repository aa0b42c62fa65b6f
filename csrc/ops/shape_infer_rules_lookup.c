/* Shape rules for the lookup tables (HashTableV2 and friends), as TF
 * 2.21's shape functions for them check and set shapes. One difference:
 * TF records the key and value shapes of a mutable table in the handle's
 * handle data and derives LookupTableFindV2's output shape from them; tfe's
 * graphs carry a variable's shape only, so that output stays unknown (as
 * TF's is for HashTableV2, which records nothing). */
#include "ops/shape_infer_internal.h"

/* The TF 1 handle input 0: a string vector of 2 ([container, name]). */
static int v1_handle(si_ctx* c) {
  si_sh h;
  int64_t d;
  si_in(c, 0, &h);
  if (!si_with_rank(c, &h, 1, &h)) return 0;
  return si_with_value(c, h.d[0], 2, &d);
}

/* The resource handle input 0: a scalar. */
static int v2_handle(si_ctx* c) {
  si_sh h;
  si_in(c, 0, &h);
  return si_with_rank(c, &h, 0, &h);
}

static int rule_v1_maker(si_ctx* c) { return si_set_vector(c, 0, 2); }

/* MutableDenseHashTableV2: the empty key is a scalar or a vector. */
static int rule_dense_maker(si_ctx* c) {
  si_sh k;
  si_in(c, 0, &k);
  if (!si_with_rank_at_most(c, &k, 1, &k)) return 0;
  return si_set_scalar(c, 0);
}

/* InitializeTable(V2): keys a vector, values of the same shape (TF's
 * InferenceContext::Merge, whose message names both shapes). */
static int init_keys_values(si_ctx* c) {
  si_sh k, v;
  int i;
  si_in(c, 1, &k);
  si_in(c, 2, &v);
  if (!si_with_rank(c, &k, 1, &k)) return 0;
  if (v.rank < 0) return 1;
  if (v.rank != k.rank) {
    return si_err(c, "Shapes must be equal rank, but are %d and %d", k.rank,
                  v.rank);
  }
  for (i = 0; i < k.rank; i++) {
    if (k.d[i] >= 0 && v.d[i] >= 0 && k.d[i] != v.d[i]) {
      char a[64], b[64];
      si_debug_string(&k, a, sizeof a);
      si_debug_string(&v, b, sizeof b);
      return si_err(c,
                    "Dimension %d in both shapes must be equal, but are %lld "
                    "and %lld. Shapes are %s and %s.",
                    i, (long long)k.d[i], (long long)v.d[i], a, b);
    }
  }
  return 1;
}

static int rule_init_v2(si_ctx* c) {
  return v2_handle(c) && init_keys_values(c);
}

static int rule_init_v1(si_ctx* c) {
  return v1_handle(c) && init_keys_values(c);
}

static int filename_scalar(si_ctx* c) {
  si_sh f;
  si_in(c, 1, &f);
  return si_with_rank(c, &f, 0, &f);
}

static int rule_init_file_v2(si_ctx* c) {
  return v2_handle(c) && filename_scalar(c);
}

static int rule_init_file_v1(si_ctx* c) {
  return v1_handle(c) && filename_scalar(c);
}

/* Find: the output shape depends on the table (unknown here). */
static int rule_find_v2(si_ctx* c) { return v2_handle(c); }

static int rule_find_v1(si_ctx* c) {
  si_sh d;
  if (!v1_handle(c)) return 0;
  si_in(c, 2, &d);
  return si_with_rank_at_most(c, &d, 1, &d);
}

static int rule_v2_handle_only(si_ctx* c) { return v2_handle(c); }
static int rule_v1_handle_only(si_ctx* c) { return v1_handle(c); }

static int rule_remove_v2(si_ctx* c) {
  si_sh k;
  if (!v2_handle(c)) return 0;
  si_in(c, 1, &k);
  return si_with_rank_at_least(c, &k, 1, &k);
}

/* LookupTableImportV2: keys a vector, values at least a vector with as
 * many rows. */
static int rule_import_v2(si_ctx* c) {
  si_sh k, v;
  int64_t d;
  if (!v2_handle(c)) return 0;
  si_in(c, 1, &k);
  si_in(c, 2, &v);
  if (!si_with_rank(c, &k, 1, &k)) return 0;
  if (!si_with_rank_at_least(c, &v, 1, &v)) return 0;
  if (k.rank < 1 || v.rank < 1) return 1;
  return si_merge_dim(c, k.d[0], v.d[0], &d);
}

/* LookupTableExport (v1): keys a vector as long as the values' first
 * dimension, which is unknown. */
static int rule_export_v1(si_ctx* c) {
  if (!v1_handle(c)) return 0;
  return si_set_vector(c, 0, SI_UNKNOWN);
}

static int rule_size_v2(si_ctx* c) {
  return v2_handle(c) && si_set_scalar(c, 0);
}

static int rule_size_v1(si_ctx* c) {
  return v1_handle(c) && si_set_scalar(c, 0);
}

const si_rule si_rules_lookup[] = {
    {"HashTableV2", si_rule_scalar},
    {"MutableHashTableV2", si_rule_scalar},
    {"MutableHashTableOfTensorsV2", si_rule_scalar},
    {"AnonymousHashTable", si_rule_scalar},
    {"AnonymousMutableHashTable", si_rule_scalar},
    {"AnonymousMutableHashTableOfTensors", si_rule_scalar},
    {"MutableDenseHashTableV2", rule_dense_maker},
    {"AnonymousMutableDenseHashTable", rule_dense_maker},
    {"HashTable", rule_v1_maker},
    {"MutableHashTable", rule_v1_maker},
    {"MutableHashTableOfTensors", rule_v1_maker},
    {"InitializeTableV2", rule_init_v2},
    {"InitializeTable", rule_init_v1},
    {"InitializeTableFromTextFileV2", rule_init_file_v2},
    {"InitializeTableFromTextFile", rule_init_file_v1},
    {"LookupTableFindV2", rule_find_v2},
    {"LookupTableFind", rule_find_v1},
    {"LookupTableInsertV2", rule_v2_handle_only},
    {"LookupTableInsert", rule_v1_handle_only},
    {"LookupTableRemoveV2", rule_remove_v2},
    {"LookupTableImportV2", rule_import_v2},
    {"LookupTableImport", rule_v1_handle_only},
    {"LookupTableExportV2", rule_v2_handle_only},
    {"LookupTableExport", rule_export_v1},
    {"LookupTableSizeV2", rule_size_v2},
    {"LookupTableSize", rule_size_v1},
    {NULL, NULL}};
