/* Running graph optimizer plugins (TP_Optimizer, registered through
 * TF_InitGraph) on a graph before a session executes it.
 * Implementation: csrc/plugins/grappler_run.c (the runner) and
 * csrc/plugins/grappler.c (grappler.h's helpers over TF_GrapplerItem). */
#ifndef TFE_PLUGINS_GRAPPLER_RUN_H_
#define TFE_PLUGINS_GRAPPLER_RUN_H_

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/experimental/grappler/grappler.h"

/* What an optimizer's optimize_func gets as its TF_GrapplerItem: the graph
 * its input GraphDef was made from and TF's GrapplerItem lists. */
struct TF_GrapplerItem {
  TF_Graph* graph; /* borrowed; read under graph->mu */
  /* TF's item.fetch: the nodes of the fetches and targets (owned). */
  char** fetch;
  int num_fetch;
  /* TF's NodesToPreserve(): fetch nodes and feed nodes, each once
   * (owned). */
  char** preserve;
  int num_preserve;
};

/* Runs every registered optimizer whose device type is a device of `ctx`
 * on `g` (serialized as a GraphDef; the nodes to preserve are the feeds,
 * fetches and targets named in preserve[0..num_preserve)). Returns 1 and
 * sets *optimized to NULL when no optimizer applies; returns 1 and sets
 * *optimized to a new graph (owned by the caller, TF_DeleteGraph) holding
 * the optimized GraphDef otherwise. Returns 0 with an error naming the
 * plugin when an optimizer fails or returns a graph tfe cannot import.
 * (Every preserved name counts as a fetch node too; tfe_grappler_optimize
 * tells them apart.) */
int tfe_grappler_maybe_optimize(TF_Graph* g, TFE_Context* ctx,
                                const char* const* preserve,
                                int num_preserve, TF_Graph** optimized,
                                TF_Status* s);

/* The same with feeds and fetches apart: feeds[0..num_feeds) are the fed
 * nodes, fetches[0..num_fetches) the nodes of the fetches and targets
 * (TF's GrapplerItem.fetch). Names may repeat. As in TF:
 *   - optimizers run in the order their plugins loaded, each on the
 *     previous one's output;
 *   - an optimizer that returns ABORTED changed nothing (TF's convention);
 *     so does one that leaves the output buffer empty (tfe's reading of a
 *     no-op optimizer);
 *   - its create_func/destroy_func bracket each optimization.
 * An output GraphDef that does not import, or lacks a node that must be
 * preserved, is INVALID_ARGUMENT naming the plugin, its device type and
 * the reason; an optimizer's own error keeps its code, prefixed with the
 * plugin's name. */
int tfe_grappler_optimize(TF_Graph* g, TFE_Context* ctx,
                          const char* const* feeds, int num_feeds,
                          const char* const* fetches, int num_fetches,
                          TF_Graph** optimized, TF_Status* s);

/* Runs the optimizer of one loaded plugin platform (struct tfe_platform,
 * devices/pluggable_device.h) on g, with the same rules (used by `doctor`'s
 * self-test). *optimized is NULL when the optimizer changed nothing. */
struct tfe_platform;
int tfe_grappler_run_platform(struct tfe_platform* p, TF_Graph* g,
                              const char* const* feeds, int num_feeds,
                              const char* const* fetches, int num_fetches,
                              TF_Graph** optimized, TF_Status* s);

/* Number of optimizer runs so far (every call of an optimize_func), for
 * tests and `doctor`. */
long long tfe_grappler_run_count(void);

#endif /* TFE_PLUGINS_GRAPPLER_RUN_H_ */
