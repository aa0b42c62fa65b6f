/* TF 2.21's op definitions as a generated table (csrc/ops/defs_generated.c,
 * written by tools/gen_op_defs.py from data/tf221_ops.txt), registered
 * lazily: the registry consults the table only when a lookup misses, and
 * parses and registers just that op; everything is registered when a caller
 * enumerates the registry (tfe_op_count). Hand-written definitions
 * (csrc/ops/defs_*.c) are registered first and always win: a table entry
 * whose name is already registered is skipped. Thread-safe. */
#ifndef TFE_OPS_OP_GENERATED_H_
#define TFE_OPS_OP_GENERATED_H_

#include <stdint.h>

#include "ops/op_registry.h"

/* 1 once every hand-written built-in group registered (builtin_ops.c);
 * until then the generated table is not consulted. */
int tfe_ops_builtins_ready(void);

/* ---- the generated data (defs_generated.c) ---- */
extern const int tfe_gen_op_count;
/* Records "Name\nspec\nspec..." each NUL-terminated, sorted by name. */
extern const char tfe_gen_op_text[];
extern const uint32_t tfe_gen_op_offsets[];

/* Ops TF's registry marks as removed at a GraphDef version (sorted by
 * name). */
typedef struct tfe_gen_deprecation {
  const char* op;
  int version;
  const char* explanation;
} tfe_gen_deprecation;
extern const int tfe_gen_dep_count;
extern const tfe_gen_deprecation tfe_gen_deprecations[];

/* Index of the record for op `name`, or -1 (binary search). */
int tfe_gen_op_find(const char* name);
/* The record of index i ("Name\nspec..."), or NULL when out of range. */
const char* tfe_gen_op_record(int i);

/* Called by tfe_op_lookup when `name` is not registered: registers the
 * table's definition of `name` (once) if the table has one. Returns the
 * registered definition, or NULL. Never called while the built-ins are
 * still registering. */
const tfe_op_def* tfe_ops_generated_lookup(const char* name);
/* Note: the few TF ops with tensor-valued attr defaults (ImageSummary and
 * two of TF's test ops) allocate those TF_Tensors when they register, so
 * live-object counts grow by them at their first lookup or listing. */
/* Registers every table op not registered yet (for listings). */
void tfe_ops_generated_register_all(void);
/* 1 when the registered op `name` came from the table (no hand-written
 * definition existed when it registered), else 0. */
int tfe_op_is_generated(const char* name);
/* Number of ops registered from the table so far. */
int tfe_ops_generated_registered(void);

/* Registers the table's record `i` under the name `as_name` instead of
 * its own (tests compare hand-written definitions with TF's this way).
 * Returns 1 on success, else 0 with the status set. */
int tfe_gen_op_register_as(int i, const char* as_name, TF_Status* s);

#endif /* TFE_OPS_OP_GENERATED_H_ */
