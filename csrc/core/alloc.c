/* Allocation wrappers with fault injection and live-object counters. */
#include "core/alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Remaining allocations before injected failure; negative means off. */
static _Atomic int64_t g_fail_after = -1;

/* Per thread: depth of tfe_alloc_benign_begin scopes, and how many of the
 * core's allocations have failed on this thread (injected or real). */
static _Thread_local int t_benign_depth;
static _Thread_local uint64_t t_failures;

void tfe_alloc_benign_begin(void) { t_benign_depth++; }

void tfe_alloc_benign_end(void) {
  if (t_benign_depth > 0) t_benign_depth--;
}

uint64_t tfe_alloc_failures(void) { return t_failures; }

int tfe_alloc_injecting(void) {
  return atomic_load_explicit(&g_fail_after, memory_order_relaxed) >= 0;
}

static int should_fail(void) {
  int64_t left = atomic_load_explicit(&g_fail_after, memory_order_relaxed);
  if (left < 0 || t_benign_depth > 0) return 0;
  if (left == 0) {
    t_failures++;
    return 1;
  }
  /* Several threads may race here; an off-by-one under contention is fine
   * for a test-only facility. */
  atomic_fetch_sub_explicit(&g_fail_after, 1, memory_order_relaxed);
  return 0;
}

void TFE_TestFailAllocationsAfter(int64_t n) {
  atomic_store(&g_fail_after, n < 0 ? -1 : n);
}

/* No object may be larger than PTRDIFF_MAX bytes; glibc refuses such
 * requests itself. AddressSanitizer's allocator instead aborts the process
 * on any request above its maximum (1 TiB on x86-64) unless told
 * otherwise, so sanitizer builds refuse those here, giving the same clean
 * failure (NULL, reported as RESOURCE_EXHAUSTED) as a Release build whose
 * malloc cannot find that much memory. */
#if defined(__SANITIZE_ADDRESS__)
#define TFE_ASAN_ALLOC_LIMIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFE_ASAN_ALLOC_LIMIT 1
#endif
#endif
#ifdef TFE_ASAN_ALLOC_LIMIT
#define TFE_MAX_ALLOC ((size_t)1 << 40)
#else
#define TFE_MAX_ALLOC ((size_t)PTRDIFF_MAX)
#endif
#define TOO_BIG(n) ((n) > TFE_MAX_ALLOC)

/* Counts a failure of the system allocator (p == NULL). */
static void* noted(void* p) {
  if (p == NULL) t_failures++;
  return p;
}

void* tfe_malloc(size_t n) {
  if (TOO_BIG(n)) return noted(NULL);
  if (should_fail()) return NULL;
  return noted(malloc(n ? n : 1));
}

void* tfe_calloc(size_t count, size_t size) {
  if (should_fail()) return NULL;
  if (count == 0 || size == 0) return noted(calloc(1, 1));
  if (count > TFE_MAX_ALLOC / size) return noted(NULL);
  return noted(calloc(count, size));
}

void* tfe_realloc(void* p, size_t n) {
  if (TOO_BIG(n)) return noted(NULL);
  if (should_fail()) return NULL;
  return noted(realloc(p, n ? n : 1));
}

void* tfe_aligned_alloc(size_t n) {
  void* p = NULL;
  if (TOO_BIG(n)) return noted(NULL);
  if (should_fail()) return NULL;
  if (posix_memalign(&p, TFE_ALIGNMENT, n ? n : TFE_ALIGNMENT) != 0) {
    return noted(NULL);
  }
  return p;
}

void tfe_free(void* p) { free(p); }

char* tfe_strndup(const char* s, size_t n) {
  char* d;
  if (s == NULL || n == SIZE_MAX) return NULL; /* n + 1 would wrap */
  d = (char*)tfe_malloc(n + 1);
  if (d == NULL) return NULL;
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char* tfe_strdup(const char* s) {
  return s == NULL ? NULL : tfe_strndup(s, strlen(s));
}

/* Live-object counters. Counting happens on every op dispatch, so each
 * thread counts into its own slot with plain (relaxed load + store, no
 * locked instruction) updates; TFE_LiveObjectCount sums the slots of live
 * threads plus what exited threads left behind. */
typedef struct count_slot {
  _Atomic int64_t n[TFE_OBJ_KIND_COUNT];
  struct count_slot* next;
  struct count_slot* prev;
} count_slot;

static pthread_mutex_t g_slots_mu = PTHREAD_MUTEX_INITIALIZER;
static count_slot* g_slots;
static _Atomic int64_t g_retired[TFE_OBJ_KIND_COUNT];
static pthread_key_t g_slot_key;
static pthread_once_t g_slot_once = PTHREAD_ONCE_INIT;
/* initial-exec: the counters run for every tensor made and freed, and the
 * default model for a shared library costs a __tls_get_addr call each. */
#if defined(__GNUC__)
static _Thread_local count_slot* t_slot __attribute__((tls_model("initial-exec")));
#else
static _Thread_local count_slot* t_slot;
#endif

static void retire_slot(void* p) {
  count_slot* slot = (count_slot*)p;
  int k;
  pthread_mutex_lock(&g_slots_mu);
  for (k = 0; k < TFE_OBJ_KIND_COUNT; k++) {
    atomic_fetch_add(&g_retired[k], atomic_load(&slot->n[k]));
  }
  if (slot->prev) slot->prev->next = slot->next;
  else g_slots = slot->next;
  if (slot->next) slot->next->prev = slot->prev;
  pthread_mutex_unlock(&g_slots_mu);
  free(slot);
}

static void make_key(void) { (void)pthread_key_create(&g_slot_key, retire_slot); }

static count_slot* my_slot(void) {
  count_slot* slot = t_slot;
  if (slot != NULL) return slot;
  /* Not through tfe_malloc: counting must work while allocation failures
   * are being injected. */
  slot = (count_slot*)calloc(1, sizeof(*slot));
  if (slot == NULL) return NULL;
  pthread_once(&g_slot_once, make_key);
  pthread_mutex_lock(&g_slots_mu);
  slot->next = g_slots;
  if (g_slots) g_slots->prev = slot;
  g_slots = slot;
  pthread_mutex_unlock(&g_slots_mu);
  (void)pthread_setspecific(g_slot_key, slot);
  t_slot = slot;
  return slot;
}

static void count_add(TFE_ObjectKind kind, int64_t d) {
  count_slot* slot;
  if ((unsigned)kind >= TFE_OBJ_KIND_COUNT) return;
  slot = my_slot();
  if (slot == NULL) {
    atomic_fetch_add(&g_retired[kind], d);
    return;
  }
  atomic_store_explicit(
      &slot->n[kind],
      atomic_load_explicit(&slot->n[kind], memory_order_relaxed) + d,
      memory_order_relaxed);
}

void tfe_count_inc(TFE_ObjectKind kind) { count_add(kind, 1); }

void tfe_count_dec(TFE_ObjectKind kind) { count_add(kind, -1); }

int64_t TFE_LiveObjectCount(TFE_ObjectKind kind) {
  const count_slot* slot;
  int64_t total;
  if ((unsigned)kind >= TFE_OBJ_KIND_COUNT) return -1;
  pthread_mutex_lock(&g_slots_mu);
  total = atomic_load(&g_retired[kind]);
  for (slot = g_slots; slot != NULL; slot = slot->next) {
    total += atomic_load_explicit(&slot->n[kind], memory_order_relaxed);
  }
  pthread_mutex_unlock(&g_slots_mu);
  return total;
}

int tfe_mul_size(size_t n, size_t m, size_t* out) {
  if (m != 0 && n > SIZE_MAX / m) return 0;
  *out = n * m;
  return 1;
}
