/* The session object and the helpers shared by session.c, prun.c and
 * deprecated_session.c. */
#ifndef TFE_GRAPH_SESSION_PRIV_H_
#define TFE_GRAPH_SESSION_PRIV_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "graph/graph_internal.h"
#include "graph/plan.h"
#include "tensorflow/c/eager/c_api_experimental.h"

/* A cached plan and the key it was built for. */
typedef struct tfe_plan_entry {
  struct tfe_plan_entry* next;
  tfe_plan* plan;
  uint64_t hash;
  uint64_t gen;
  int nin, nout, nt;
  TF_Output* in;
  TF_Output* out;
  const TF_Operation** tg;
  /* Runs using the plan: raised under the session's mu, lowered without
   * it; an entry is freed (under mu) only at 0. */
  atomic_int users;
  /* The graph a graph optimizer plugin returned, which the plan runs
   * instead of the session's (owned), or NULL. */
  TF_Graph* optimized;
} tfe_plan_entry;

/* A partial run (prun.c). */
typedef struct tfe_prun {
  struct tfe_prun* next;
  char* handle;
  int nin, nout, nt;
  TF_Output* in;
  TF_Tensor** fed; /* nin: shares of the values fed so far (NULL: not yet) */
  TF_Output* out;
  unsigned char* fetched;
  const TF_Operation** tg;
  /* Static graphs: one execution advancing step by step (plan_internal.h),
   * on the cached plan `entry` (held). NULL otherwise. */
  struct tfe_plan_prun* exec;
  tfe_plan_entry* entry;
  TF_Session* session;
} tfe_prun;

struct TF_Session {
  uint32_t magic;
  TF_Graph* graph;
  TFE_Context* ctx;
  TFE_CancellationManager* cancel;
  pthread_mutex_t mu; /* plans, pruns */
  atomic_int closed;
  tfe_plan_entry* plans;
  tfe_plan_entry* last; /* most recently used */
  int num_plans;
  tfe_prun* pruns;
  uint64_t next_prun;
  /* ConfigProto.operation_timeout_in_ms: the deadline of runs whose
   * RunOptions give none (0: no deadline). */
  int64_t timeout_ms;
  /* Set by TF_ExtendSession: the graph as the session knows it. */
  int frozen_gen_set;
  int frozen_ops;
  uint64_t frozen_gen;
  /* Seeded random ops' states by node name, shared by the plans. */
  tfe_node_states* node_states;
};

/* session.c */
TFE_Context* tfe_session_make_context(const TF_SessionOptions* opts,
                                      TF_Status* status);
TF_Session* tfe_session_new(TF_Graph* graph, const TF_SessionOptions* opts,
                            TF_Status* status);
void tfe_session_free(TF_Session* s);
int tfe_session_check(const TF_Session* s, const char* fn, TF_Status* st);
int tfe_session_check_run_options(const TF_Buffer* run_options,
                                  TF_Status* status);
tfe_plan_entry* tfe_session_get_plan(TF_Session* s, const TF_Output* in,
                                     int nin, const TF_Output* out, int nout,
                                     const TF_Operation* const* tg, int nt,
                                     TF_Status* status);
void tfe_session_put_plan(TF_Session* s, tfe_plan_entry* e);

/* prun.c */
void tfe_prun_free(tfe_prun* pr);

#endif /* TFE_GRAPH_SESSION_PRIV_H_ */
