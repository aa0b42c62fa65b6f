/* Every TF 2.21 op definition in the registry (issue 18): the names against
 * TF's recorded list (data/tf221_ops.txt), generated ops registered lazily
 * and hand-written ones winning, every hand-written definition equal to
 * TF's, the generated records matching the recorded data. White-box. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/op_generated.h"
#include "ops/op_registry.h"
#include "ops/ops_internal.h"
#include "tfe_test.h"

#define DATA_ROOT TFE_TEST_DATA_DIR "/../../data/"

/* ---- reading data files ---- */

static char* read_file(const char* path) {
  FILE* f = fopen(path, "rb");
  long n;
  char* buf;
  if (f == NULL) TFE_FAIL("cannot open %s", path);
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = (char*)malloc((size_t)n + 1);
  CHECK(buf != NULL);
  CHECK(fread(buf, 1, (size_t)n, f) == (size_t)n);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

/* Names of data/tf221_ops.txt ("op: Name" lines), in file order; *n set. */
static char** tf_op_names(int* n) {
  char* text = read_file(DATA_ROOT "tf221_ops.txt");
  char** names = (char**)calloc(4096, sizeof(char*));
  char* p = text;
  int k = 0;
  CHECK(names != NULL);
  while ((p = strstr(p, "op: ")) != NULL) {
    char* e;
    if (p != text && p[-1] != '\n') {
      p += 4;
      continue;
    }
    p += 4;
    e = strchr(p, '\n');
    CHECK(e != NULL && k < 4096);
    names[k] = (char*)malloc((size_t)(e - p) + 1);
    memcpy(names[k], p, (size_t)(e - p));
    names[k][e - p] = '\0';
    k++;
    p = e;
  }
  free(text);
  *n = k;
  return names;
}

static void free_names(char** names, int n) {
  int i;
  for (i = 0; i < n; i++) free(names[i]);
  free(names);
}

/* Whether `name` is a whole line's first word in `list` (lines
 * "Name<space or tab>reason"; '#' comments). */
static int listed(const char* list, const char* name) {
  size_t n = strlen(name);
  const char* p = list;
  while (*p) {
    if (*p != '#' && strncmp(p, name, n) == 0 &&
        (p[n] == ' ' || p[n] == '\t' || p[n] == '\n' || p[n] == '\0')) {
      return 1;
    }
    p = strchr(p, '\n');
    if (p == NULL) break;
    p++;
  }
  return 0;
}

/* ---- tests ---- */

TEST(generated_table_is_sorted_and_matches_data) {
  int n, i;
  char** names = tf_op_names(&n);
  CHECK_EQ_INT(n, tfe_gen_op_count);
  CHECK_EQ_INT(n, 1908);
  for (i = 0; i < n; i++) {
    const char* rec = tfe_gen_op_record(i);
    size_t len = strlen(names[i]);
    CHECK(strncmp(rec, names[i], len) == 0 &&
          (rec[len] == '\n' || rec[len] == '\0'));
    CHECK_EQ_INT(tfe_gen_op_find(names[i]), i);
    if (i > 0) CHECK(strcmp(names[i - 1], names[i]) < 0);
  }
  CHECK_EQ_INT(tfe_gen_op_find("NoSuchOpAnywhere"), -1);
  CHECK_EQ_INT(tfe_gen_op_find(""), -1);
  CHECK_EQ_INT(tfe_gen_op_find("A0"), -1);
  CHECK_EQ_INT(tfe_gen_op_find("zzzz"), -1);
  CHECK_EQ_INT(tfe_gen_op_find(NULL), -1);
  CHECK(tfe_gen_op_record(-1) == NULL);
  CHECK(tfe_gen_op_record(n) == NULL);
  free_names(names, n);
}

/* A lookup registers just the op asked for; listings register the rest. */
TEST(generated_ops_register_lazily) {
  const tfe_op_def* d;
  int before;
  tfe_ops_ensure_builtins();
  CHECK_EQ_INT(tfe_ops_generated_registered(), 0);
  d = tfe_op_lookup("TPUReplicateMetadata");
  CHECK(d != NULL);
  CHECK_STR_EQ(d->name, "TPUReplicateMetadata");
  CHECK(tfe_op_is_generated("TPUReplicateMetadata"));
  CHECK_EQ_INT(tfe_ops_generated_registered(), 1);
  CHECK(tfe_op_lookup("TPUReplicateMetadata") == d);
  CHECK(tfe_op_lookup("NoSuchOpAnywhere") == NULL);
  CHECK_EQ_INT(tfe_ops_generated_registered(), 1);
  /* Hand-written ones are not generated. */
  CHECK(tfe_op_lookup("AddV2") != NULL);
  CHECK(!tfe_op_is_generated("AddV2"));
  before = tfe_op_count();
  CHECK(tfe_ops_generated_registered() > 1);
  CHECK(before >= 1908);
  CHECK_EQ_INT(tfe_op_count(), before);
}

/* A later registration under a TF op name fails as in TF, whether or not the
 * generated op was looked up before. */
TEST(registering_a_tf_name_is_already_exists) {
  static const char* const specs[] = {"in: x: float", "out: y: float", NULL};
  TF_Status* s = TF_NewStatus();
  tfe_ops_ensure_builtins();
  CHECK(!tfe_op_register_specs("Conv3DBackpropInputV2", specs, s));
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  CHECK(tfe_op_lookup("Conv3DBackpropInputV2")->num_inputs == 3);
  TF_DeleteStatus(s);
}

/* >= 95% of TF 2.21's 1,908 op names are defined; every one left out is
 * listed with its reason in data/tf221_ops_not_defined.txt, and every
 * listed one is indeed missing. */
TEST(registry_defines_tf_ops) {
  int n, i, defined = 0, missing = 0;
  char** names = tf_op_names(&n);
  char* skip = read_file(DATA_ROOT "tf221_ops_not_defined.txt");
  CHECK(tfe_op_count() > 0);
  for (i = 0; i < n; i++) {
    int have = tfe_op_lookup(names[i]) != NULL;
    if (have) {
      defined++;
      if (listed(skip, names[i])) {
        fprintf(stderr, "defined but listed as not defined: %s\n", names[i]);
        missing++;
      }
    } else if (!listed(skip, names[i])) {
      fprintf(stderr, "not defined and not listed: %s\n", names[i]);
      missing++;
    }
  }
  fprintf(stderr, "%d of %d TF 2.21 ops defined\n", defined, n);
  CHECK_EQ_INT(missing, 0);
  CHECK(defined * 100 >= n * 95);
  free(skip);
  free_names(names, n);
}

/* Every generated definition registered from its record (nothing failed to
 * parse), with the record's flags. */
TEST(generated_definitions_keep_tf_flags) {
  int i, bad = 0;
  CHECK(tfe_op_count() > 0);
  for (i = 0; i < tfe_gen_op_count; i++) {
    const char* rec = tfe_gen_op_record(i);
    const char* nl = strchr(rec, '\n');
    char name[256];
    size_t len = nl ? (size_t)(nl - rec) : strlen(rec);
    const tfe_op_def* d;
    CHECK(len < sizeof name);
    memcpy(name, rec, len);
    name[len] = '\0';
    d = tfe_op_lookup(name);
    if (d == NULL || !tfe_op_is_generated(name)) continue;
    if (d->is_stateful != (strstr(rec, "\nstateful") != NULL) ||
        d->is_commutative != (strstr(rec, "\ncommutative") != NULL) ||
        d->is_aggregate != (strstr(rec, "\naggregate") != NULL)) {
      fprintf(stderr, "flags differ from TF's: %s\n", name);
      bad++;
    }
  }
  CHECK_EQ_INT(bad, 0);
}

/* Every hand-written definition renders the same specs as TF's record
 * (registered under a scratch name). Known differences are listed in
 * data/tf221_handwritten_mismatches.txt; anything else fails. */
TEST(handwritten_definitions_equal_tf) {
  int i, handwritten = 0, differ = 0, unexpected = 0;
  char* known = read_file(DATA_ROOT "tf221_handwritten_mismatches.txt");
  TF_Status* s = TF_NewStatus();
  CHECK(tfe_op_count() > 0);
  for (i = 0; i < tfe_gen_op_count; i++) {
    const char* rec = tfe_gen_op_record(i);
    const char* nl = strchr(rec, '\n');
    char name[256], scratch[300];
    size_t len = nl ? (size_t)(nl - rec) : strlen(rec);
    const tfe_op_def *mine, *tf;
    char *a, *b;
    memcpy(name, rec, len);
    name[len] = '\0';
    mine = tfe_op_lookup(name);
    if (mine == NULL || tfe_op_is_generated(name)) continue;
    handwritten++;
    snprintf(scratch, sizeof scratch, "TfeTfReference%s", name);
    if (!tfe_gen_op_register_as(i, scratch, s)) {
      TFE_FAIL("TF's %s did not register: %s", name, TF_Message(s));
    }
    tf = tfe_op_lookup(scratch);
    CHECK(tf != NULL);
    a = tfe_op_def_to_specs(mine);
    b = tfe_op_def_to_specs(tf);
    CHECK(a != NULL && b != NULL);
    if (strcmp(a, b) != 0) {
      differ++;
      if (!listed(known, name)) {
        unexpected++;
        fprintf(stderr, "== %s differs from TF 2.21's\n-- tfe:\n%s-- TF:\n%s",
                name, a, b);
      }
    } else if (listed(known, name)) {
      fprintf(stderr, "%s now equals TF's: remove it from "
              "data/tf221_handwritten_mismatches.txt\n", name);
      unexpected++;
    }
    tfe_free(a);
    tfe_free(b);
  }
  fprintf(stderr, "%d hand-written definitions, %d differ from TF's\n",
          handwritten, differ);
  CHECK(handwritten > 300);
  CHECK_EQ_INT(unexpected, 0);
  TF_DeleteStatus(s);
  free(known);
}

TFE_TEST_MAIN
