/* TF_ImportGraphDefOptions, TF_ImportGraphDefResults and the public
 * TF_GraphImportGraphDef* entry points. The importer itself is in
 * import_graphdef.c (import_internal.h).
 *
 * Ownership: options and results are created and freed by the caller
 * (TF_NewImportGraphDefOptions / TF_DeleteImportGraphDefOptions,
 * TF_DeleteImportGraphDefResults); every string given to a setter is
 * copied; arrays returned by the results accessors belong to the results.
 * Operations given to the options (input-mapping destinations, control
 * dependencies) are borrowed and must belong to the graph imported into. */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "graph/import_internal.h"
#include "tensorflow/c/c_api_experimental.h"

int tfe_import_vec_push(tfe_import_vec* v, const void* item, size_t size) {
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

/* ------------------------------------------------------------------------
 * Options. */

TF_ImportGraphDefOptions* TF_NewImportGraphDefOptions(void) {
  TF_ImportGraphDefOptions* o = (TF_ImportGraphDefOptions*)tfe_calloc(
      1, sizeof(TF_ImportGraphDefOptions));
  if (o != NULL) o->validate_colocation = 1;
  return o;
}

void TF_DeleteImportGraphDefOptions(TF_ImportGraphDefOptions* opts) {
  int i;
  if (opts == NULL) return;
  tfe_free(opts->prefix);
  tfe_free(opts->default_device);
  for (i = 0; i < opts->input_mappings.count; i++) {
    tfe_free(((tfe_import_mapping*)opts->input_mappings.items)[i].src_name);
  }
  for (i = 0; i < opts->return_outputs.count; i++) {
    tfe_free(
        ((tfe_import_return_output*)opts->return_outputs.items)[i].oper_name);
  }
  for (i = 0; i < opts->return_opers.count; i++) {
    tfe_free(((char**)opts->return_opers.items)[i]);
  }
  tfe_free(opts->input_mappings.items);
  tfe_free(opts->control_deps.items);
  tfe_free(opts->return_outputs.items);
  tfe_free(opts->return_opers.items);
  tfe_free(opts);
}

/* Replaces *slot by a copy of s (NULL or "" clears it). Keeps the old
 * value when the copy cannot be allocated. */
static void set_string(char** slot, const char* s) {
  char* copy = NULL;
  if (s != NULL && s[0] != '\0' && (copy = tfe_strdup(s)) == NULL) return;
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

void TF_ImportGraphDefOptionsSetValidateColocationConstraints(
    TF_ImportGraphDefOptions* opts, unsigned char enable) {
  if (opts != NULL) opts->validate_colocation = enable ? 1 : 0;
}

static void add_mapping(TF_ImportGraphDefOptions* opts, const char* src_name,
                        int src_index, TF_Output dst) {
  tfe_import_mapping m;
  if (opts == NULL || src_name == NULL) return;
  m.src_name = tfe_strdup(src_name);
  m.src_index = src_index;
  m.dst = dst;
  if (m.src_name == NULL) return;
  if (!tfe_import_vec_push(&opts->input_mappings, &m, sizeof(m))) {
    tfe_free(m.src_name);
  }
}

void TF_ImportGraphDefOptionsAddInputMapping(TF_ImportGraphDefOptions* opts,
                                             const char* src_name,
                                             int src_index, TF_Output dst) {
  add_mapping(opts, src_name, src_index, dst);
}

void TF_ImportGraphDefOptionsRemapControlDependency(
    TF_ImportGraphDefOptions* opts, const char* src_name, TF_Operation* dst) {
  TF_Output o;
  o.oper = dst;
  o.index = -1;
  add_mapping(opts, src_name, -1, o);
}

void TF_ImportGraphDefOptionsAddControlDependency(
    TF_ImportGraphDefOptions* opts, TF_Operation* oper) {
  if (opts == NULL || oper == NULL) return;
  (void)tfe_import_vec_push(&opts->control_deps, &oper, sizeof(oper));
}

void TF_ImportGraphDefOptionsAddReturnOutput(TF_ImportGraphDefOptions* opts,
                                             const char* oper_name,
                                             int index) {
  tfe_import_return_output r;
  if (opts == NULL || oper_name == NULL) return;
  r.oper_name = tfe_strdup(oper_name);
  r.index = index;
  if (r.oper_name == NULL) return;
  if (!tfe_import_vec_push(&opts->return_outputs, &r, sizeof(r))) {
    tfe_free(r.oper_name);
  }
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
  if (!tfe_import_vec_push(&opts->return_opers, &name, sizeof(name))) {
    tfe_free(name);
  }
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
 * The import entry points. As in TF, the bytes are parsed before the
 * graph is locked; the import itself runs under the graph's lock. */

/* Checks the graph and buffer arguments shared by every entry point. */
static int check_args(TF_Graph* graph, const TF_Buffer* graph_def,
                      const char* fn, TF_Status* status) {
  if (graph == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s: graph is NULL", fn);
    return 0;
  }
  if (graph_def == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "%s: graph_def is NULL", fn);
    return 0;
  }
  if (graph_def->data == NULL && graph_def->length != 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "Invalid GraphDef");
    return 0;
  }
  return 1;
}

/* An import that failed after memory ran out on this thread (since
 * `failures` was read) reports RESOURCE_EXHAUSTED: a check that failed
 * because of it (a name or message that could not be made) would
 * otherwise show as INVALID_ARGUMENT. Returns 0. */
static int out_of_memory_wins(uint64_t failures, TF_Status* s) {
  if (TF_GetCode(s) == TF_INVALID_ARGUMENT &&
      tfe_alloc_failures() != failures) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "Out of memory while importing a GraphDef");
  }
  return 0;
}

/* Parses, locks, imports. results may be NULL. */
static int import_buffer(TF_Graph* graph, const TF_Buffer* graph_def,
                         const TF_ImportGraphDefOptions* options,
                         TF_ImportGraphDefResults* results,
                         TF_Status* status) {
  int ok;
  const uint64_t failures = tfe_alloc_failures();
  tfe_gdef* gd = tfe_gdef_parse(graph_def->data, graph_def->length, status);
  if (gd == NULL) return out_of_memory_wins(failures, status);
  pthread_mutex_lock(&graph->mu);
  ok = tfe_gdef_import_consume_locked(graph, gd, options, results, status);
  pthread_mutex_unlock(&graph->mu);
  tfe_gdef_free(gd);
  return ok ? 1 : out_of_memory_wins(failures, status);
}

TF_ImportGraphDefResults* TF_GraphImportGraphDefWithResults(
    TF_Graph* graph, const TF_Buffer* graph_def,
    const TF_ImportGraphDefOptions* options, TF_Status* status) {
  TF_ImportGraphDefResults* results;
  if (!check_args(graph, graph_def, "TF_GraphImportGraphDefWithResults",
                  status)) {
    return NULL;
  }
  results = (TF_ImportGraphDefResults*)tfe_calloc(1, sizeof(*results));
  if (results == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TF_GraphImportGraphDefWithResults: out of memory");
    return NULL;
  }
  if (!import_buffer(graph, graph_def, options, results, status)) {
    TF_DeleteImportGraphDefResults(results);
    return NULL;
  }
  tfe_status_ok(status);
  return results;
}

/* TF's variant takes a pointer to an in-memory C++ tensorflow::GraphDef;
 * tfe has no C++ protobuf objects, so there is nothing it could read. */
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
  TF_ImportGraphDefResults results;
  int expected = TF_ImportGraphDefOptionsNumReturnOutputs(options);
  if (num_return_outputs != expected) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Expected 'num_return_outputs' to be %d, got %d", expected,
                    num_return_outputs);
    return;
  }
  if (num_return_outputs > 0 && return_outputs == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "'return_outputs' must be preallocated to length %d",
                    num_return_outputs);
    return;
  }
  if (!check_args(graph, graph_def, "TF_GraphImportGraphDefWithReturnOutputs",
                  status)) {
    return;
  }
  memset(&results, 0, sizeof(results));
  if (import_buffer(graph, graph_def, options, &results, status)) {
    if (num_return_outputs > 0) {
      memcpy(return_outputs, results.return_outputs,
             (size_t)num_return_outputs * sizeof(TF_Output));
    }
    tfe_status_ok(status);
  }
  /* Free the members only (the struct itself is on the stack). */
  {
    int i;
    for (i = 0; i < results.num_missing; i++) {
      tfe_free((void*)results.missing_names[i]);
    }
    tfe_free(results.missing_names);
    tfe_free(results.missing_indexes);
    tfe_free(results.return_outputs);
    tfe_free(results.return_opers);
  }
}

void TF_GraphImportGraphDef(TF_Graph* graph, const TF_Buffer* graph_def,
                            const TF_ImportGraphDefOptions* options,
                            TF_Status* status) {
  TF_DeleteImportGraphDefResults(
      TF_GraphImportGraphDefWithResults(graph, graph_def, options, status));
}

int tfe_graph_import_locked(TF_Graph* g, const void* data, size_t len,
                            const TF_ImportGraphDefOptions* opts,
                            TF_ImportGraphDefResults* results, TF_Status* s) {
  int ok;
  const uint64_t failures = tfe_alloc_failures();
  tfe_gdef* gd = tfe_gdef_parse(data, len, s);
  if (gd == NULL) return out_of_memory_wins(failures, s);
  ok = tfe_gdef_import_consume_locked(g, gd, opts, results, s);
  tfe_gdef_free(gd);
  return ok ? 1 : out_of_memory_wins(failures, s);
}
