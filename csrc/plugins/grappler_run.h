/* Running graph optimizer plugins (TP_Optimizer, registered through
 * TF_InitGraph) on a graph before a session executes it.
 * Implementation: csrc/plugins/grappler_run.c. */
#ifndef TFE_PLUGINS_GRAPPLER_RUN_H_
#define TFE_PLUGINS_GRAPPLER_RUN_H_

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"

/* Runs every registered optimizer whose device type is a device of `ctx`
 * on `g` (serialized as a GraphDef; the nodes to preserve are the feeds,
 * fetches and targets named in preserve[0..num_preserve)). Returns 1 and
 * sets *optimized to NULL when no optimizer applies; returns 1 and sets
 * *optimized to a new graph (owned by the caller, TF_DeleteGraph) holding
 * the optimized GraphDef otherwise. Returns 0 with an error naming the
 * plugin when an optimizer fails or returns a graph tfe cannot import. */
int tfe_grappler_maybe_optimize(TF_Graph* g, TFE_Context* ctx,
                                const char* const* preserve,
                                int num_preserve, TF_Graph** optimized,
                                TF_Status* s);

#endif /* TFE_PLUGINS_GRAPPLER_RUN_H_ */
