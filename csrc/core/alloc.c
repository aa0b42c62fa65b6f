/* Allocation wrappers with fault injection and live-object counters. */
#include "core/alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Remaining allocations before injected failure; negative means off. */
static _Atomic int64_t g_fail_after = -1;
static _Atomic int64_t g_live[TFE_OBJ_KIND_COUNT];

static int should_fail(void) {
  int64_t left = atomic_load_explicit(&g_fail_after, memory_order_relaxed);
  if (left < 0) return 0;
  if (left == 0) return 1;
  /* Several threads may race here; an off-by-one under contention is fine
   * for a test-only facility. */
  atomic_fetch_sub_explicit(&g_fail_after, 1, memory_order_relaxed);
  return 0;
}

void TFE_TestFailAllocationsAfter(int64_t n) {
  atomic_store(&g_fail_after, n < 0 ? -1 : n);
}

void* tfe_malloc(size_t n) {
  if (should_fail()) return NULL;
  return malloc(n ? n : 1);
}

void* tfe_calloc(size_t count, size_t size) {
  if (should_fail()) return NULL;
  if (count == 0 || size == 0) return calloc(1, 1);
  return calloc(count, size);
}

void* tfe_realloc(void* p, size_t n) {
  if (should_fail()) return NULL;
  return realloc(p, n ? n : 1);
}

void* tfe_aligned_alloc(size_t n) {
  void* p = NULL;
  if (should_fail()) return NULL;
  if (posix_memalign(&p, TFE_ALIGNMENT, n ? n : TFE_ALIGNMENT) != 0) {
    return NULL;
  }
  return p;
}

void tfe_free(void* p) { free(p); }

char* tfe_strndup(const char* s, size_t n) {
  char* d;
  if (s == NULL) return NULL;
  d = (char*)tfe_malloc(n + 1);
  if (d == NULL) return NULL;
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char* tfe_strdup(const char* s) {
  return s == NULL ? NULL : tfe_strndup(s, strlen(s));
}

void tfe_count_inc(TFE_ObjectKind kind) {
  if ((unsigned)kind < TFE_OBJ_KIND_COUNT) atomic_fetch_add(&g_live[kind], 1);
}

void tfe_count_dec(TFE_ObjectKind kind) {
  if ((unsigned)kind < TFE_OBJ_KIND_COUNT) atomic_fetch_sub(&g_live[kind], 1);
}

int64_t TFE_LiveObjectCount(TFE_ObjectKind kind) {
  if ((unsigned)kind >= TFE_OBJ_KIND_COUNT) return -1;
  return atomic_load(&g_live[kind]);
}

int tfe_mul_size(size_t n, size_t m, size_t* out) {
  if (m != 0 && n > SIZE_MAX / m) return 0;
  *out = n * m;
  return 1;
}
