/* Intra-op thread pool: lets one kernel split its work over several cores.
 *
 * Usage from a kernel:
 *
 *   static void rows(void* arg, int64_t begin, int64_t end) {
 *     ... handle items [begin, end) ...
 *   }
 *   tfe_parallel_for(tfe_kernel_threadpool(k), n, 64, rows, &args);
 *
 * tfe_parallel_for runs fn over [0, n) split into contiguous chunks of at
 * least min_chunk items, on the pool's workers and the calling thread, and
 * returns when every chunk is done. Chunks of one call may run in any order
 * and concurrently, so fn must only write to memory owned by its range.
 * Work is not stolen across calls: several threads may call
 * tfe_parallel_for on the same pool at once and each call completes
 * independently. A call made from inside a chunk (nested parallelism) runs
 * its whole range inline on the calling thread, so nesting never deadlocks.
 * The pool allocates nothing per call.
 *
 * Pool size: tfe_kernel_threadpool (csrc/kernels/kernel.h's context)
 * follows the eager context's ConfigProto intra_op_parallelism_threads;
 * 0 or unset means the number of CPUs this process may run on. Pools are
 * shared per size for the whole process, created on first use and joined
 * and freed when the library unloads (or by tfe_threadpool_shutdown_all).
 * A size of 1 means "run inline": tfe_parallel_for then calls fn once with
 * the whole range.
 *
 * Implementation: csrc/core/threadpool.c. */
#ifndef TFE_CORE_THREADPOOL_H_
#define TFE_CORE_THREADPOOL_H_

#include <stdint.h>

typedef struct tfe_threadpool tfe_threadpool;

/* Function run on one chunk [begin, end) of a parallel loop. */
typedef void (*tfe_parallel_fn)(void* arg, int64_t begin, int64_t end);

/* New pool with num_threads threads of parallelism in total (the caller of
 * tfe_parallel_for counts as one, so num_threads - 1 workers are started).
 * num_threads <= 0 means the number of usable CPUs. NULL when memory or
 * threads cannot be had. The caller owns the pool: tfe_threadpool_delete. */
tfe_threadpool* tfe_threadpool_new(int num_threads);

/* Stops and joins the workers and frees the pool; NULL is ignored. No call
 * of tfe_parallel_for on the pool may be running. */
void tfe_threadpool_delete(tfe_threadpool* pool);

/* Total parallelism of the pool (workers + caller); 1 for NULL. */
int tfe_threadpool_size(const tfe_threadpool* pool);

/* The process-wide pool of num_threads threads (<= 0: usable CPUs), made
 * on first use. Borrowed: do not delete it. Returns NULL only when it
 * could not be made (callers then run inline, which tfe_parallel_for does
 * for a NULL pool). */
tfe_threadpool* tfe_threadpool_shared(int num_threads);

/* Number of CPUs this process may run on (affinity mask), at least 1. */
int tfe_threadpool_num_cpus(void);

/* Runs fn(arg, begin, end) over [0, n) as described above. n <= 0 does
 * nothing; min_chunk < 1 counts as 1. pool may be NULL (inline). */
void tfe_parallel_for(tfe_threadpool* pool, int64_t n, int64_t min_chunk,
                      tfe_parallel_fn fn, void* arg);

/* The shared pool a kernel should use: sized by its eager context's
 * intra_op_parallelism_threads (k->eager_ctx, a TFE_Context), or the
 * number of CPUs without a context or when that setting is 0/unset.
 * Borrowed; may be NULL (run inline). */
struct tfe_kernel_context;
tfe_threadpool* tfe_kernel_threadpool(const struct tfe_kernel_context* k);

/* Joins and frees every shared pool (tests; also run at unload). Safe to
 * call again; later tfe_threadpool_shared calls make new pools. */
void tfe_threadpool_shutdown_all(void);

#endif /* TFE_CORE_THREADPOOL_H_ */
