/* Layout of an execution plan (plan.h), shared by plan.c (building) and
 * exec.c (running). Nothing outside those two files reads it.
 *
 * A plan is an array of nodes in creation order (for a graph without
 * cycles that is a topological order). Two ways to run it:
 *   - static (no v1 control flow op in the plan): a slot per value with a
 *     use count, walked in order (or in parallel for wide graphs); a value
 *     is freed after its last consumer, and the last consumer may reuse its
 *     buffer (input forwarding);
 *   - dynamic (Switch/Merge/Enter/Exit/NextIteration present): TF's
 *     dataflow semantics with dead values, frames and iterations, driven by
 *     a ready queue and pending counts (exec.c). */
#ifndef TFE_GRAPH_PLAN_INTERNAL_H_
#define TFE_GRAPH_PLAN_INTERNAL_H_

#include "eager/eager_internal.h"
#include "graph/plan.h"
#include "kernels/ref_var.h"

enum {
  PK_NORMAL = 0,
  PK_SWITCH,
  PK_MERGE,
  PK_ENTER,
  PK_EXIT,
  PK_NEXT,
  PK_PLACEHOLDER /* an unfed Placeholder: running it is an error */
};

/* A data edge out of a node: output src_out feeds input dst_in of plan
 * node dst; dst < 0 means fetch number -(dst + 1). */
typedef struct plan_edge {
  int dst;
  int dst_in;
  int src_out;
} plan_edge;

typedef struct plan_node {
  TF_Operation* op;
  const char* name; /* op->name */
  int kind;
  tfe_kcache_entry* e; /* kernel (PK_NORMAL), else NULL */
  int own_e; /* e is the node's own copy (a seeded random op's state) */
  const tfe_device* dev;
  int num_in;      /* data inputs */
  int num_ctrl_in; /* control inputs inside the plan */
  int num_out;
  /* Static runs: where each input comes from, and the first output slot. */
  int* in_slot;
  int slot0;
  /* Out-edges (data edges from fed outputs are not here: those start at
   * the feed) and control out-edges (plan node indices). */
  plan_edge* edges;
  int num_edges;
  int* ctrl_out;
  int num_ctrl_out;
  /* Dynamic runs: static frame, index among the frame's nodes, offset of
   * the node's inputs in an iteration's input array. */
  int frame;
  int local;
  int in_off;
  int child_frame; /* Enter: the frame it enters */
  int is_constant; /* Enter: loop invariant */
  int exit_idx;    /* Exit: index among its frame's exits */
  int is_trigger;  /* ControlTrigger: runs even when its inputs are dead */
  /* Static runs: a host kernel without reference arguments and at most 16
   * inputs and outputs, called straight from the slots (exec.c). */
  int host_fast;
} plan_node;

typedef struct plan_frame {
  char* name;
  int parent; /* -1 for the root frame */
  int num_nodes;
  int num_in;     /* total inputs of the frame's nodes */
  int num_enters; /* Enter nodes (in the parent) that enter this frame */
  int* exits;     /* plan node indices of the frame's Exit nodes */
  int num_exits;
  int* nodes;     /* plan node index of each local index */
} plan_frame;

/* Sequential static runs (exec.c run_static_seq) walk one step per node,
 * in the plan's order, with what plan time can decide about the values:
 * which slots the node is the last reader of (released right after it
 * runs, no use counting), which inputs it may reuse (their last use, not
 * a feed: the buffer is then reusable when nothing else holds it), and
 * whether its inputs are known to be host tensors of the dtypes its
 * kernel expects (produced by such steps or fed), so nothing is checked
 * per input. */
enum {
  STEP_FAST = 1,     /* node->host_fast */
  STEP_CHECKED = 2,  /* inputs known plain host tensors of the right dtype */
  STEP_DROP_OUT = 4  /* some output has no reader: released at once */
};

typedef struct plan_step {
  const plan_node* n;
  const tfe_kcache_entry* e; /* n->e */
  const int* in_slot;        /* n->in_slot */
  const int* rel;            /* num_rel slots released after the node */
  uint64_t fwd;              /* inputs (< 64) at their last use, not feeds */
  /* The same releases as input positions (one per slot), for STEP_FAST
   * steps (at most 16 inputs). */
  uint64_t rel_in;
  int num_in;
  int num_out;
  int slot0;
  int num_rel;
  int flags;
} plan_step;

/* Edges from one feed into the nodes that read it. */
typedef struct plan_feed {
  TF_DataType dtype;
  plan_edge* edges;
  int num_edges;
} plan_feed;

struct tfe_plan {
  TFE_Context* ctx;
  int num_nodes;
  plan_node* nodes;
  int num_feeds;
  int num_fetches;
  plan_feed* feeds;
  /* A run-time error every run reports (an unfed Placeholder the fetches
   * need), or TF_OK. */
  TF_Code error_code;
  char* error_msg;
  int dynamic;
  /* Static runs. */
  int num_slots;
  int* init_uses;
  int* feed_slot;  /* num_feeds */
  int* fetch_slot; /* num_fetches */
  int max_in;      /* largest num_in (scratch sizing) */
  int max_out;
  int wide;        /* worth running on the inter-op pool */
  int* pending0;   /* static parallel runs: initial pending count per node */
  int* order;      /* static runs: the nodes in a topological order */
  int inter_op;    /* inter-op threads (context setting) */
  plan_step* steps;  /* static runs: num_nodes, in `order` */
  int* step_rel;     /* the steps' rel arrays */
  unsigned char* fetch_take; /* static runs: fetch j hands its value over
                                (its last reader, not a feed) */
  /* Dynamic runs. */
  plan_frame* frames;
  int num_frames;
  /* Fetch j's producing node, for error messages. */
  int* fetch_node;
  int* fetch_out;
};

/* One value while a plan runs: a tensor (owned unless it is a feed) in the
 * memory of `dev`, or a reference cell (one reference). */
typedef struct plan_val {
  TF_Tensor* t;
  tfe_ref_cell* ref;
  const tfe_device* dev;
} plan_val;

/* Runs node n's kernel on ins (n->num_in values, borrowed) into outs
 * (n->num_out, filled on success). fwd: inputs whose buffer the kernel may
 * reuse. On failure returns 0 with the error (naming the node) in s and
 * outs untouched. (exec.c) */
int tfe_plan_run_kernel(tfe_plan* p, const plan_node* n, const plan_val* ins,
                        plan_val* outs, uint64_t fwd, TF_Status* s);

/* Partial runs of a static plan (prun.c): one execution that advances as
 * feeds arrive, each node running at most once. (exec.c) */
typedef struct tfe_plan_prun tfe_plan_prun;
/* NULL with UNIMPLEMENTED for plans with v1 control flow (those run each
 * step separately), RESOURCE_EXHAUSTED on OOM. */
tfe_plan_prun* tfe_plan_prun_new(tfe_plan* p, TF_Status* s);
/* Feeds feed_idx[i] (plan feed numbers) with vals[i] (shared), runs every
 * node that became ready, then hands out fetch_idx[i] (plan fetch numbers)
 * in outs[i] and checks that target nodes (plan node indices) ran. A fetch
 * or target that needs a feed not given yet is INVALID_ARGUMENT; a kernel
 * error ends the partial run (later steps report it again). */
int tfe_plan_prun_step(tfe_plan_prun* r, const int* feed_idx,
                       TF_Tensor* const* vals, int nfeed,
                       const int* fetch_idx, TF_Tensor** outs, int nfetch,
                       const int* target_nodes, int ntargets,
                       struct TFE_CancellationManager* cancel, TF_Status* s);
void tfe_plan_prun_free(tfe_plan_prun* r);
/* Plan node index of op, or -1. */
int tfe_plan_node_of(const tfe_plan* p, const TF_Operation* op);

/* Adds "\n\t [[{{node NAME}}]]" to the message in s, as TF does. */
void tfe_plan_annotate(TF_Status* s, const char* node);

#endif /* TFE_GRAPH_PLAN_INTERNAL_H_ */
