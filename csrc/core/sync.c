/* The striped wait table of sync.h. Stripes are statically initialised, so
 * the table needs no set-up and is usable from any thread at any time. */
#include "core/sync.h"

#include <pthread.h>
#include <time.h>

#define STRIPES 64 /* power of two */

typedef struct stripe {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  /* Keeps stripes on separate cache lines. */
  char pad[64];
} stripe;

#define S1 {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {0}}
#define S4 S1, S1, S1, S1
#define S16 S4, S4, S4, S4
static stripe g_stripes[STRIPES] = {S16, S16, S16, S16};

static stripe* stripe_of(const void* addr) {
  uintptr_t a = (uintptr_t)addr;
  /* Objects are at least 16-byte aligned: drop the low bits, then fold
   * higher bits in so that neighbouring objects spread over stripes. */
  a >>= 4;
  a ^= (a >> 6) ^ (a >> 12);
  return &g_stripes[a & (STRIPES - 1)];
}

void tfe_addr_lock(const void* addr) {
  pthread_mutex_lock(&stripe_of(addr)->mu);
}

void tfe_addr_unlock(const void* addr) {
  pthread_mutex_unlock(&stripe_of(addr)->mu);
}

void tfe_addr_wait(const void* addr) {
  stripe* s = stripe_of(addr);
  pthread_cond_wait(&s->cv, &s->mu);
}

void tfe_addr_broadcast(const void* addr) {
  pthread_cond_broadcast(&stripe_of(addr)->cv);
}

int64_t tfe_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
