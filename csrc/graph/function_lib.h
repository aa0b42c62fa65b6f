/* Function libraries: the FunctionDefs a graph, a session or an eager
 * context knows, by name. A library is thread-safe (its own lock) and
 * append-mostly; a function found in it stays valid as long as the library
 * lives, even if it is removed (removed functions are retired, not freed,
 * until the library is freed).
 *
 * A function is kept as its body graph (a TF_Graph whose inputs are "_Arg"
 * operations and whose outputs are recorded as TF_Outputs), its signature
 * as an op definition (so callers look it up like a registered op), and
 * its FunctionDef bytes (canonical serialized form, for export and
 * equality). Implementation: csrc/graph/function_lib.c (library) and
 * csrc/graph/function*.c (TF_Function, FunctionDef conversion). */
#ifndef TFE_GRAPH_FUNCTION_LIB_H_
#define TFE_GRAPH_FUNCTION_LIB_H_

#include <stddef.h>

#include "core/pb.h"
#include "ops/op_registry.h"
#include "tensorflow/c/c_api.h"

typedef struct tfe_flib tfe_flib;

/* New empty library; NULL on OOM. */
tfe_flib* tfe_flib_new(void);
/* Frees the library and every function in it (NULL is fine). */
void tfe_flib_free(tfe_flib* lib);

/* Adds a copy of `fn` (a TF_Function made by TF_GraphToFunction or
 * TF_FunctionImportFunctionDef). As in TF: adding a function whose
 * FunctionDef equals the one already stored under its name is a no-op;
 * a different definition under a taken name is INVALID_ARGUMENT. */
int tfe_flib_add(tfe_flib* lib, const TF_Function* fn, TF_Status* s);
/* Parses a serialized FunctionDef and adds it (same rules). */
int tfe_flib_add_fdef(tfe_flib* lib, const void* fdef, size_t len,
                      TF_Status* s);
/* Parses a serialized FunctionDefLibrary body (repeated FunctionDef
 * `function` = 1, repeated GradientDef `gradient` = 2) and adds every
 * function; all or nothing. */
int tfe_flib_add_library(tfe_flib* lib, const void* data, size_t len,
                         TF_Status* s);
/* Copies every function of src into dst (same rules as tfe_flib_add). */
int tfe_flib_merge(tfe_flib* dst, const tfe_flib* src, TF_Status* s);
/* Removes `name` (retired, not freed); the error for a missing name is the
 * one TF's TF_GraphRemoveFunction / TFE_ContextRemoveFunction report. */
int tfe_flib_remove(tfe_flib* lib, const char* name, TF_Status* s);

/* Number of functions, and the i-th in insertion order (borrowed, or NULL
 * when i is out of range). */
int tfe_flib_count(const tfe_flib* lib);
const TF_Function* tfe_flib_at(const tfe_flib* lib, int i);
/* The signature of function `name` as an op definition (inputs, outputs,
 * attrs), or NULL when the library (may be NULL) has no such function.
 * Valid as long as the library lives. */
const tfe_op_def* tfe_flib_signature(const tfe_flib* lib, const char* name);
/* The stored function `name` (borrowed, valid as long as the library
 * lives), or NULL. */
const TF_Function* tfe_flib_find(const tfe_flib* lib, const char* name);
/* Appends the library as a FunctionDefLibrary message body. */
void tfe_flib_encode(const tfe_flib* lib, tfe_pbw* out);

#endif /* TFE_GRAPH_FUNCTION_LIB_H_ */
