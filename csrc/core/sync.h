/* Waiting on an address: a fixed table of mutex + condition variable pairs
 * ("stripes") chosen by hashing an object's address, so that any object can
 * be waited for without carrying a mutex and a condition variable itself.
 *
 * Usage, for a flag that one thread changes and others wait for:
 *
 *   waiter:                          notifier:
 *     tfe_addr_lock(obj);              tfe_addr_lock(obj);
 *     while (!done(obj))               set_done(obj);
 *       tfe_addr_wait(obj);            tfe_addr_broadcast(obj);
 *     tfe_addr_unlock(obj);            tfe_addr_unlock(obj);
 *
 * Several objects share a stripe, so a wake-up may concern another object:
 * waiters always re-check their own condition (as with any condition
 * variable). The stripe mutex must not be held while calling code that may
 * take another stripe (no nesting), which keeps the table deadlock-free.
 *
 * Implementation: csrc/core/sync.c. */
#ifndef TFE_CORE_SYNC_H_
#define TFE_CORE_SYNC_H_

#include <stdint.h>

void tfe_addr_lock(const void* addr);
void tfe_addr_unlock(const void* addr);
/* Atomically releases the stripe of addr and sleeps until a broadcast on
 * that stripe; the stripe is held again on return. Spurious wake-ups are
 * possible. */
void tfe_addr_wait(const void* addr);
/* Wakes every thread waiting on addr's stripe (the stripe must be held). */
void tfe_addr_broadcast(const void* addr);

/* Monotonic clock in nanoseconds (benchmarks, statistics). */
int64_t tfe_now_ns(void);

#endif /* TFE_CORE_SYNC_H_ */
