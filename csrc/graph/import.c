/* Importing serialized GraphDefs. The options and results objects work
 * (they only hold data); the import itself is a TF_UNIMPLEMENTED stub,
 * so no results object is ever created in tfe. */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "graph/graph_internal.h"

/* A growable array of fixed-size items. */
typedef struct vec {
  void* items;
  int count;
  int cap;
} vec;

/* Appends the `size` bytes at `item`; 0 when memory runs out (the array
 * is then unchanged). */
static int vec_push(vec* v, const void* item, size_t size) {
  if (v->count == v->cap) {
    int cap = v->cap == 0 ? 4 : v->cap * 2;
    size_t bytes;
    void* grown;
    if (cap < v->cap || !tfe_mul_size((size_t)cap, size, &bytes)) return 0;
    grown = tfe_realloc(v->items, bytes);
    if (grown == NULL) return 0;
    v->items = grown;
    v->cap = cap;
  }
  memcpy((char*)v->items + (size_t)v->count * size, item, size);
  v->count++;
  return 1;
}

typedef struct input_mapping {
  char* src_name;
  int src_index;
  TF_Output dst;
} input_mapping;

typedef struct control_remap {
  char* src_name;
  TF_Operation* dst;
} control_remap;

typedef struct return_output {
  char* oper_name;
  int index;
} return_output;

struct TF_ImportGraphDefOptions {
  char* prefix;         /* NULL: none */
  char* default_device; /* NULL: none */
  unsigned char uniquify_names;
  unsigned char uniquify_prefix;
  vec input_mappings;   /* input_mapping */
  vec control_remaps;   /* control_remap */
  vec control_deps;     /* TF_Operation* */
  vec return_outputs;   /* return_output */
  vec return_opers;     /* char* */
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

/* ------------------------------------------------------------------------
 * Options. */

TF_ImportGraphDefOptions* TF_NewImportGraphDefOptions(void) {
  return (TF_ImportGraphDefOptions*)tfe_calloc(
      1, sizeof(TF_ImportGraphDefOptions));
}

void TF_DeleteImportGraphDefOptions(TF_ImportGraphDefOptions* opts) {
  int i;
  if (opts == NULL) return;
  tfe_free(opts->prefix);
  tfe_free(opts->default_device);
  for (i = 0; i < opts->input_mappings.count; i++) {
    tfe_free(((input_mapping*)opts->input_mappings.items)[i].src_name);
  }
  for (i = 0; i < opts->control_remaps.count; i++) {
    tfe_free(((control_remap*)opts->control_remaps.items)[i].src_name);
  }
  for (i = 0; i < opts->return_outputs.count; i++) {
    tfe_free(((return_output*)opts->return_outputs.items)[i].oper_name);
  }
  for (i = 0; i < opts->return_opers.count; i++) {
    tfe_free(((char**)opts->return_opers.items)[i]);
  }
  tfe_free(opts->input_mappings.items);
  tfe_free(opts->control_remaps.items);
  tfe_free(opts->control_deps.items);
  tfe_free(opts->return_outputs.items);
  tfe_free(opts->return_opers.items);
  tfe_free(opts);
}

/* Replaces *slot by a copy of s (NULL clears it). Keeps the old value
 * when the copy cannot be allocated. */
static void set_string(char** slot, const char* s) {
  char* copy = NULL;
  if (s != NULL && (copy = tfe_strdup(s)) == NULL) return;
  tfe_free(*slot);
  *slot = copy;
}

void TF_ImportGraphDefOptionsSetPrefix(TF_ImportGraphDefOptions* opts,
                                       const char* prefix) {
  if (opts != NULL) set_string(&opts->prefix, prefix);
}

void TF_ImportGraphDefOptionsSetDefaultDevice(TF_ImportGraphDefOptions* opts,
                                              const char* device) {
  if (opts != NULL) set_string(&opts->default_device, device);
}

void TF_ImportGraphDefOptionsSetUniquifyNames(TF_ImportGraphDefOptions* opts,
                                              unsigned char uniquify_names) {
  if (opts != NULL) opts->uniquify_names = uniquify_names ? 1 : 0;
}

void TF_ImportGraphDefOptionsSetUniquifyPrefix(TF_ImportGraphDefOptions* opts,
                                               unsigned char uniquify_prefix) {
  if (opts != NULL) opts->uniquify_prefix = uniquify_prefix ? 1 : 0;
}

void TF_ImportGraphDefOptionsAddInputMapping(TF_ImportGraphDefOptions* opts,
                                             const char* src_name,
                                             int src_index, TF_Output dst) {
  input_mapping m;
  if (opts == NULL || src_name == NULL) return;
  m.src_name = tfe_strdup(src_name);
  m.src_index = src_index;
  m.dst = dst;
  if (m.src_name == NULL) return;
  if (!vec_push(&opts->input_mappings, &m, sizeof(m))) tfe_free(m.src_name);
}

void TF_ImportGraphDefOptionsRemapControlDependency(
    TF_ImportGraphDefOptions* opts, const char* src_name, TF_Operation* dst) {
  control_remap r;
  if (opts == NULL || src_name == NULL) return;
  r.src_name = tfe_strdup(src_name);
  r.dst = dst;
  if (r.src_name == NULL) return;
  if (!vec_push(&opts->control_remaps, &r, sizeof(r))) tfe_free(r.src_name);
}

void TF_ImportGraphDefOptionsAddControlDependency(
    TF_ImportGraphDefOptions* opts, TF_Operation* oper) {
  if (opts == NULL) return;
  (void)vec_push(&opts->control_deps, &oper, sizeof(oper));
}

void TF_ImportGraphDefOptionsAddReturnOutput(TF_ImportGraphDefOptions* opts,
                                             const char* oper_name,
                                             int index) {
  return_output r;
  if (opts == NULL || oper_name == NULL) return;
  r.oper_name = tfe_strdup(oper_name);
  r.index = index;
  if (r.oper_name == NULL) return;
  if (!vec_push(&opts->return_outputs, &r, sizeof(r))) tfe_free(r.oper_name);
}

int TF_ImportGraphDefOptionsNumReturnOutputs(
    const TF_ImportGraphDefOptions* opts) {
  return opts == NULL ? 0 : opts->return_outputs.count;
}

void TF_ImportGraphDefOptionsAddReturnOperation(TF_ImportGraphDefOptions* opts,
                                                const char* oper_name) {
  char* name;
  if (opts == NULL || oper_name == NULL) return;
  name = tfe_strdup(oper_name);
  if (name == NULL) return;
  if (!vec_push(&opts->return_opers, &name, sizeof(name))) tfe_free(name);
}

int TF_ImportGraphDefOptionsNumReturnOperations(
    const TF_ImportGraphDefOptions* opts) {
  return opts == NULL ? 0 : opts->return_opers.count;
}

/* ------------------------------------------------------------------------
 * Results. */

void TF_ImportGraphDefResultsReturnOutputs(TF_ImportGraphDefResults* results,
                                           int* num_outputs,
                                           TF_Output** outputs) {
  if (num_outputs != NULL) {
    *num_outputs = results == NULL ? 0 : results->num_return_outputs;
  }
  if (outputs != NULL) {
    *outputs = results == NULL ? NULL : results->return_outputs;
  }
}

void TF_ImportGraphDefResultsReturnOperations(TF_ImportGraphDefResults* results,
                                              int* num_opers,
                                              TF_Operation*** opers) {
  if (num_opers != NULL) {
    *num_opers = results == NULL ? 0 : results->num_return_opers;
  }
  if (opers != NULL) *opers = results == NULL ? NULL : results->return_opers;
}

void TF_ImportGraphDefResultsMissingUnusedInputMappings(
    TF_ImportGraphDefResults* results, int* num_missing_unused_input_mappings,
    const char*** src_names, int** src_indexes) {
  if (num_missing_unused_input_mappings != NULL) {
    *num_missing_unused_input_mappings =
        results == NULL ? 0 : results->num_missing;
  }
  if (src_names != NULL) {
    *src_names = results == NULL ? NULL : results->missing_names;
  }
  if (src_indexes != NULL) {
    *src_indexes = results == NULL ? NULL : results->missing_indexes;
  }
}

void TF_DeleteImportGraphDefResults(TF_ImportGraphDefResults* results) {
  int i;
  if (results == NULL) return;
  for (i = 0; i < results->num_missing; i++) {
    tfe_free((void*)results->missing_names[i]);
  }
  tfe_free(results->missing_names);
  tfe_free(results->missing_indexes);
  tfe_free(results->return_outputs);
  tfe_free(results->return_opers);
  tfe_free(results);
}

/* ------------------------------------------------------------------------
 * The import itself. */

TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResults(
    TF_Graph* graph, const TF_Buffer* graph_def,
    const TF_ImportGraphDefOptions* options, TF_Status* status) {
  (void)graph, (void)graph_def, (void)options;
  TFE_UNIMPLEMENTED(status, "TF_GraphImportGraphDefWithResults");
  return NULL;
}

TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResultsNoSerialization(
    TF_Graph* graph, const TF_Buffer* graph_def,
    const TF_ImportGraphDefOptions* options, TF_Status* status) {
  (void)graph, (void)graph_def, (void)options;
  TFE_UNIMPLEMENTED(status, "TF_GraphImportGraphDefWithResultsNoSerialization");
  return NULL;
}

void TF_GraphImportGraphDefWithReturnOutputs(
    TF_Graph* graph, const TF_Buffer* graph_def,
    const TF_ImportGraphDefOptions* options, TF_Output* return_outputs,
    int num_return_outputs, TF_Status* status) {
  (void)graph, (void)graph_def, (void)options, (void)return_outputs,
      (void)num_return_outputs;
  TFE_UNIMPLEMENTED(status, "TF_GraphImportGraphDefWithReturnOutputs");
}

void TF_GraphImportGraphDef(TF_Graph* graph, const TF_Buffer* graph_def,
                            const TF_ImportGraphDefOptions* options,
                            TF_Status* status) {
  (void)graph, (void)graph_def, (void)options;
  TFE_UNIMPLEMENTED(status, "TF_GraphImportGraphDef");
}
