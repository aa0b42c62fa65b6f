/* GraphDef import internals (csrc/graph/import.c: options, results and the
 * public entry points; csrc/graph/import_graphdef.c: parsing and the
 * importer itself). Other parts of the graph runtime that must add a
 * serialized GraphDef to a graph (TF_ExtendGraph, loop builders) use
 * tfe_graph_import_locked. */
#ifndef TFE_GRAPH_IMPORT_INTERNAL_H_
#define TFE_GRAPH_IMPORT_INTERNAL_H_

#include <stddef.h>

#include "graph/graph_internal.h"

/* A growable array of fixed-size items (import.c). */
typedef struct tfe_import_vec {
  void* items;
  int count;
  int cap;
} tfe_import_vec;

/* Appends the `size` bytes at `item`; 0 when memory runs out (the array is
 * then unchanged). */
int tfe_import_vec_push(tfe_import_vec* v, const void* item, size_t size);

typedef struct tfe_import_mapping {
  char* src_name;  /* owned */
  int src_index;   /* -1: a control input ("^name") */
  TF_Output dst;   /* dst.index -1 for a control mapping */
} tfe_import_mapping;

typedef struct tfe_import_return_output {
  char* oper_name; /* owned */
  int index;
} tfe_import_return_output;

struct TF_ImportGraphDefOptions {
  char* prefix;         /* NULL: none */
  char* default_device; /* NULL: none */
  unsigned char uniquify_names;
  unsigned char uniquify_prefix;
  /* TF's default is to check that "loc:@x" colocation targets exist in the
   * GraphDef (TF_ImportGraphDefOptionsSetValidateColocationConstraints). */
  unsigned char validate_colocation;
  /* Internal only (TF's skip_mapped_nodes, used by loop builders): nodes
   * whose every output is remapped by the input map are not imported. */
  unsigned char skip_mapped_nodes;
  tfe_import_vec input_mappings; /* tfe_import_mapping, in the order added */
  tfe_import_vec control_deps;   /* TF_Operation*, in the order added */
  tfe_import_vec return_outputs; /* tfe_import_return_output */
  tfe_import_vec return_opers;   /* char* (owned) */
};

struct TF_ImportGraphDefResults {
  TF_Output* return_outputs;
  int num_return_outputs;
  TF_Operation** return_opers;
  int num_return_opers;
  const char** missing_names; /* each string owned by the results */
  int* missing_indexes;
  int num_missing;
};

/* Imports the serialized GraphDef data[0..len) into g with `opts` (NULL:
 * defaults). The caller holds g->mu. On success returns 1 and, when
 * `results` is non-NULL (it must be zeroed), fills it (the caller frees it
 * with TF_DeleteImportGraphDefResults). On failure returns 0 with TF's
 * code and message in `s`, and the graph is exactly as before (operations,
 * versions, function library). Malformed bytes are INVALID_ARGUMENT
 * "Invalid GraphDef". */
int tfe_graph_import_locked(TF_Graph* g, const void* data, size_t len,
                            const TF_ImportGraphDefOptions* opts,
                            TF_ImportGraphDefResults* results, TF_Status* s);

/* The same split in two, so that the bytes are parsed before the graph is
 * locked: tfe_gdef_parse returns a parsed GraphDef that borrows `data`
 * (which must outlive it) or NULL with "Invalid GraphDef" (or
 * RESOURCE_EXHAUSTED) in s; tfe_gdef_import_locked imports it (same rules
 * as above); tfe_gdef_free releases it (NULL is fine). */
typedef struct tfe_gdef tfe_gdef;
tfe_gdef* tfe_gdef_parse(const void* data, size_t len, TF_Status* s);
int tfe_gdef_import_locked(TF_Graph* g, const tfe_gdef* gd,
                           const TF_ImportGraphDefOptions* opts,
                           TF_ImportGraphDefResults* results, TF_Status* s);
/* Like tfe_gdef_import_locked, but works in gd's own tables instead of
 * copies (faster); afterwards gd can only be freed. */
int tfe_gdef_import_consume_locked(TF_Graph* g, tfe_gdef* gd,
                                   const TF_ImportGraphDefOptions* opts,
                                   TF_ImportGraphDefResults* results,
                                   TF_Status* s);
void tfe_gdef_free(tfe_gdef* gd);

/* TF_SetAttrValueProto for a value the importer has already decoded
 * (operation.c): sets attr `name` of d, taking *v (left cleared). `name`
 * must not be "_class". name_is_reg: `name` is an attr name string of d's
 * registered definition (an arg's type/number attr of the definition
 * tfe_desc_new_registered was given), which the attr may borrow. */
void tfe_desc_put_decoded(TF_OperationDescription* d, const char* name,
                          tfe_attr_value* v, int name_is_reg);

/* TF_NewOperationLocked for a registered op whose definition the caller
 * already has (reg, as tfe_op_lookup gives it; the op type is reg->name).
 * With spare non-NULL, the description's memory is taken from *spare
 * when it holds a block, and the finished (or abandoned) description
 * leaves its block there for the next one when *spare is empty. *spare
 * belongs to the caller (one thread at a time), who frees what is left in
 * it with tfe_desc_spare_free (NULL is fine). */
TF_OperationDescription* tfe_desc_new_registered(
    TF_Graph* g, const tfe_op_def* reg, const char* oper_name,
    TF_OperationDescription** spare);
void tfe_desc_spare_free(TF_OperationDescription* spare);

#endif /* TFE_GRAPH_IMPORT_INTERNAL_H_ */
