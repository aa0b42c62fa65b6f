/* Execution plans: how a graph (a session's, or a function's body) runs on
 * the eager runtime's devices, kernels and placement rules.
 *
 * A plan is built once for a (graph, context, feeds, fetches, targets)
 * combination: the operations the fetches and targets need (pruned at the
 * feeds), in dependency order, each with its placement, its kernel and the
 * slots its inputs come from. Running a plan walks that array; independent
 * operations may run in parallel. A plan is immutable once built and may
 * be run by several threads at once; it does not see operations added to
 * the graph after it was built. Implementation: csrc/graph/plan*.c,
 * csrc/graph/exec*.c. */
#ifndef TFE_GRAPH_PLAN_H_
#define TFE_GRAPH_PLAN_H_

#include "graph/graph_internal.h"
#include "tensorflow/c/eager/c_api.h"

typedef struct tfe_plan tfe_plan;
struct TFE_CancellationManager;

/* Builds a plan. Feeds may be any output of the graph (not only
 * placeholders); a fed output's producer does not run unless something
 * else needs another of its outputs. Errors use TF's codes: an unknown
 * operation or output index is INVALID_ARGUMENT/OUT_OF_RANGE as
 * TF_SessionRun reports them; an unfed Placeholder that the fetches need
 * is INVALID_ARGUMENT at run time, as in TF. Locks g->mu while reading
 * the graph. `ctx` (borrowed, must outlive the plan) gives the devices,
 * kernel cache, resources and function library. */
tfe_plan* tfe_plan_new(TF_Graph* g, TFE_Context* ctx, const TF_Output* feeds,
                       int num_feeds, const TF_Output* fetches,
                       int num_fetches, TF_Operation* const* targets,
                       int num_targets, TF_Status* s);

/* Seeded stateful random ops (seed/seed2 attrs) get a kernel state per
 * plan node, as TF's kernel instances have. A store shared by several
 * plans (a session's) keeps one state per node name instead, so that a
 * node continues its draws whatever the run fetches; the store must
 * outlive those plans. */
typedef struct tfe_node_states tfe_node_states;
tfe_node_states* tfe_node_states_new(void); /* NULL on OOM */
void tfe_node_states_free(tfe_node_states* st); /* accepts NULL */
/* tfe_plan_new with a store (NULL: per-plan states). */
tfe_plan* tfe_plan_new_shared(TF_Graph* g, TFE_Context* ctx,
                              tfe_node_states* states,
                              const TF_Output* feeds, int num_feeds,
                              const TF_Output* fetches, int num_fetches,
                              TF_Operation* const* targets, int num_targets,
                              TF_Status* s);

/* Runs the plan: feed_values[i] is the value of feeds[i] (borrowed); on
 * success fetch_values[i] receives a new tensor for fetches[i] (owned by
 * the caller). A kernel error stops the run with its status, fetch_values
 * are then all NULL and nothing the run started is still running when this
 * returns. `cancel` (may be NULL) cancels blocked kernels (queues) when
 * triggered. Safe to call from inside a kernel (function calls run their
 * body's plan this way); nested runs do not wait on the inter-op pool. */
int tfe_plan_run(tfe_plan* p, TF_Tensor* const* feed_values,
                 TF_Tensor** fetch_values,
                 struct TFE_CancellationManager* cancel, TF_Status* s);

void tfe_plan_free(tfe_plan* p);

/* The cancellation manager of the plan run whose kernel is executing on
 * the calling thread (the `cancel` given to tfe_plan_run), or NULL outside
 * plan runs. Blocking kernels (queues) register a callback on it to wake
 * up when a session is closed. */
struct TFE_CancellationManager* tfe_plan_current_cancel(void);

#endif /* TFE_GRAPH_PLAN_H_ */
