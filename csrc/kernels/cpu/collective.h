/* Collective ops inside one process: the rendezvous that brings the
 * members of a group together (collective_rendezvous.c) and the CPU
 * kernels built on it (collective_ops.c).
 *
 * Model (TensorFlow's, restricted to one process):
 *   - A group is (eager context, group_key). The first member to join fixes
 *     its size and device type; a member that disagrees fails with TF's
 *     INTERNAL error, and the group stays failed (as in TF). A group knows
 *     at most group_size distinct members.
 *   - An instance is (context, group_key, instance_key): one run of one
 *     collective. Every member blocks until group_size members arrived,
 *     then each gets its output. The first member fixes the instance's
 *     kind, dtype and shape; a member that disagrees fails the whole
 *     instance (every waiting member gets the error: nothing hangs).
 *   - Members are identified by the device their kernel runs on and, on a
 *     parallel device, by the component: the parallel device tags the
 *     thread of each component (tfe_collective_set_thread_replica), so two
 *     components whose kernels run on the same device (the same device
 *     twice, or custom devices forwarding to one device) are distinct
 *     members. Rank = position in the members sorted by full device name
 *     (TF's order), then by that tag.
 *   - A member waits at most timeout_seconds (the op's attr), or, when the
 *     attr is 0 (TF: wait forever), TFE_COLLECTIVE_TIMEOUT_SECONDS from the
 *     environment, default 60: then the instance fails with
 *     DEADLINE_EXCEEDED.
 *   - Once every member has left, the instance is forgotten, so instance
 *     keys can be reused by later runs. */
#ifndef TFE_KERNELS_CPU_COLLECTIVE_H_
#define TFE_KERNELS_CPU_COLLECTIVE_H_

#include <stdint.h>

#include "kernels/kernel.h"

enum {
  TFE_COLL_REDUCE = 1,
  TFE_COLL_GATHER = 2,
  TFE_COLL_BCAST = 3,
  /* Reduction whose dimension 0 is split in group_size blocks: the member
   * of rank r gets block r. */
  TFE_COLL_REDUCE_SCATTER = 4,
  /* Each member's dimension 0 split in group_size blocks: the member of
   * rank r gets block r of every member, in rank order. */
  TFE_COLL_ALL_TO_ALL = 5,
  /* No data: returns once group_size members arrived
   * (CollectiveInitializeCommunicator's wait for its group). */
  TFE_COLL_BARRIER = 6
};

/* Instance key of the barrier of CollectiveInitializeCommunicator. */
#define TFE_COLL_BARRIER_INSTANCE INT32_MIN

enum { TFE_COLL_ADD = 1, TFE_COLL_MUL, TFE_COLL_MIN, TFE_COLL_MAX };
enum { TFE_COLL_ID = 1, TFE_COLL_DIV };

typedef struct tfe_coll_request {
  int kind;
  int32_t group_size; /* > 0 (checked by the caller) */
  int32_t group_key;
  int32_t instance_key;
  int merge_op; /* reductions */
  int final_op; /* reductions */
  int is_source; /* broadcasts: 1 for the sender */
  TF_DataType dtype;
  /* The member's input (borrowed; NULL for a broadcast receiver). */
  const TF_Tensor* input;
  /* The instance's shape as this member sees it: the input's for
   * reductions, all-to-all and the sender, the declared one for receivers,
   * the output's for gathers and reduce-scatters. Borrowed. */
  const int64_t* dims;
  int num_dims;
  float timeout_seconds; /* the op's attr; 0 = the default */
  /* The member's rank chosen by the user (communicators), or -1: ranks by
   * device name. Members of an instance give one all or none. */
  int user_rank;
} tfe_coll_request;

/* Runs one member of a collective for kernel k: joins the group and the
 * instance, waits for the others, and stores the member's output as
 * output 0 of k. Errors are set on k->status. */
void tfe_collective_run(tfe_kernel_context* k, const tfe_coll_request* r);

/* Tags the calling thread as component `replica` of a parallel device
 * (-1: no tag). Collectives run on that thread then count as a member of
 * their own even when another component runs on the same device. */
void tfe_collective_set_thread_replica(int replica);
int tfe_collective_thread_replica(void);

/* Forgets the groups of a context and its abort (called when the context
 * is deleted). */
void tfe_collectives_clear_context(uint64_t ctx_id);

/* TFE_AbortCollectiveOps: every member of the context's collectives that
 * is waiting fails with (code, msg), and so does every later collective of
 * the context. code TF_OK does nothing. */
void tfe_collectives_abort(uint64_t ctx_id, TF_Code code, const char* msg);

#endif /* TFE_KERNELS_CPU_COLLECTIVE_H_ */
