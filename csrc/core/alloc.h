/* Memory for the core: every allocation the core makes for its own objects
 * goes through these functions, so tests can make the Nth one fail and can
 * count live objects by kind. */
#ifndef TFE_CORE_ALLOC_H_
#define TFE_CORE_ALLOC_H_

#include <stddef.h>
#include <stdint.h>

#include "tfe/tfe.h"

/* 64 bytes, TF's preferred tensor alignment. */
#define TFE_ALIGNMENT 64

void* tfe_malloc(size_t n);
void* tfe_calloc(size_t count, size_t size);
void* tfe_realloc(void* p, size_t n);
/* Aligned to TFE_ALIGNMENT; release with tfe_free. */
void* tfe_aligned_alloc(size_t n);
void tfe_free(void* p);
/* strdup through tfe_malloc; NULL in gives NULL out. */
char* tfe_strdup(const char* s);
char* tfe_strndup(const char* s, size_t n);

/* Allocations this thread makes between tfe_alloc_benign_begin() and the
 * matching tfe_alloc_benign_end() are never failed by fault injection
 * (TFE_TestFailAllocationsAfter); scopes nest. For one-time
 * initialisation of process-wide tables (built-in kernels, filesystems,
 * devices) that cannot be retried once pthread_once has run: an injected
 * failure there would break the process for good, which no caller could
 * report as the clean RESOURCE_EXHAUSTED the injection tests look for. */
void tfe_alloc_benign_begin(void);
void tfe_alloc_benign_end(void);

/* How many of the core's allocations (tfe_malloc and friends) have failed
 * on the calling thread so far, injected or real. Comparing the value
 * before and after a callback (e.g. a plugin kernel) tells whether memory
 * ran out while it ran, so a missing output can be reported as
 * RESOURCE_EXHAUSTED. */
uint64_t tfe_alloc_failures(void);

/* 1 while TFE_TestFailAllocationsAfter is counting down (injection on), so
 * caches that would skip an allocation can allocate instead and every
 * allocation point stays a possible failure. */
int tfe_alloc_injecting(void);

/* Live-object counters. */
void tfe_count_inc(TFE_ObjectKind kind);
void tfe_count_dec(TFE_ObjectKind kind);

/* n * m without overflow; returns 0 and leaves *out alone on overflow. */
int tfe_mul_size(size_t n, size_t m, size_t* out);

#endif /* TFE_CORE_ALLOC_H_ */
