/* Lazy registration of the generated TF 2.21 op table (see op_generated.h).
 * A lookup miss costs one binary search over the sorted names; a hit in the
 * table parses that one record and registers it. Listings register the
 * rest. Per-record state lives in g_state (0 = not tried, 1 = registered
 * from the table, 2 = skipped because the name was already registered,
 * 3 = the record did not parse, which tests report). */
#include "ops/op_generated.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "ops/ops_internal.h"
#include "tensorflow/c/logging.h"

enum { ST_NONE = 0, ST_TABLE = 1, ST_SKIPPED = 2, ST_FAILED = 3 };

/* Largest number of spec lines one record has (TF's biggest op has fewer
 * than 64); longer records are reported as failures. */
#define MAX_LINES 128

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(_Atomic(unsigned char)*) g_state; /* tfe_gen_op_count entries */
static atomic_int g_all_done;
static atomic_int g_from_table;
/* Set while this thread registers a record, so that the registry's own
 * calls back into this file (tfe_op_register's check) do not recurse. */
static _Thread_local int tl_busy;

const char* tfe_gen_op_record(int i) {
  if (i < 0 || i >= tfe_gen_op_count) return NULL;
  return tfe_gen_op_text + tfe_gen_op_offsets[i];
}

/* strcmp of `name` against the record's name (which ends at '\n' or NUL). */
static int cmp_name(const char* name, const char* rec) {
  const unsigned char* a = (const unsigned char*)name;
  const unsigned char* b = (const unsigned char*)rec;
  for (;; a++, b++) {
    unsigned ca = *a, cb = (*b == '\n') ? 0u : *b;
    if (ca != cb) return ca < cb ? -1 : 1;
    if (ca == 0) return 0;
  }
}

int tfe_gen_op_find(const char* name) {
  int lo = 0, hi = tfe_gen_op_count - 1;
  if (name == NULL) return -1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    int c = cmp_name(name, tfe_gen_op_text + tfe_gen_op_offsets[mid]);
    if (c == 0) return mid;
    if (c < 0) {
      hi = mid - 1;
    } else {
      lo = mid + 1;
    }
  }
  return -1;
}

/* Splits record i into a malloc'd copy with '\n' turned into NULs: name in
 * *name, NULL-terminated spec pointers in lines. Returns the copy (caller
 * frees) or NULL (out of memory, or too many lines: *too_long set). */
static char* split_record(int i, const char** name, const char** lines,
                          int* too_long) {
  const char* rec = tfe_gen_op_record(i);
  size_t n = strlen(rec);
  char* copy = (char*)tfe_malloc(n + 1);
  char* p;
  int k = 0;
  *too_long = 0;
  if (copy == NULL) return NULL;
  memcpy(copy, rec, n + 1);
  *name = copy;
  p = strchr(copy, '\n');
  while (p != NULL) {
    *p++ = '\0';
    if (k == MAX_LINES - 1) {
      *too_long = 1;
      tfe_free(copy);
      return NULL;
    }
    lines[k++] = p;
    p = strchr(p, '\n');
  }
  lines[k] = NULL;
  return copy;
}

static int ensure_state(void) {
  if (atomic_load_explicit(&g_state, memory_order_acquire) != NULL) return 1;
  pthread_mutex_lock(&g_mu);
  if (g_state == NULL) {
    _Atomic(unsigned char)* st = (_Atomic(unsigned char)*)tfe_calloc(
        (size_t)tfe_gen_op_count, sizeof(*st));
    if (st != NULL) atomic_store_explicit(&g_state, st, memory_order_release);
  }
  pthread_mutex_unlock(&g_mu);
  return atomic_load_explicit(&g_state, memory_order_acquire) != NULL;
}

/* Registers record i under `as_name` (its own name when NULL). Sets the
 * status; returns 1 on success. */
static int register_record(int i, const char* as_name, TF_Status* s) {
  const char* lines[MAX_LINES];
  const char* name;
  int too_long, ok;
  char* copy = split_record(i, &name, lines, &too_long);
  if (copy == NULL) {
    if (too_long) {
      tfe_status_setf(s, TF_INTERNAL, "generated op record %d has too many lines",
                      i);
    } else {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "Out of memory while registering a generated op");
    }
    return 0;
  }
  tl_busy++;
  ok = tfe_op_register_specs(as_name != NULL ? as_name : name, lines, s);
  tl_busy--;
  tfe_free(copy);
  return ok;
}

/* Tries record i once; the caller holds g_mu. */
static void materialize_locked(int i, TF_Status* s) {
  unsigned char st;
  if (atomic_load_explicit(&g_state[i], memory_order_relaxed) != ST_NONE) return;
  if (register_record(i, NULL, s)) {
    st = ST_TABLE;
    atomic_fetch_add(&g_from_table, 1);
  } else if (TF_GetCode(s) == TF_ALREADY_EXISTS) {
    st = ST_SKIPPED; /* a hand-written or plugin definition came first */
  } else if (TF_GetCode(s) == TF_RESOURCE_EXHAUSTED) {
    return; /* tried again on a later miss */
  } else {
    st = ST_FAILED;
    TF_Log(TF_ERROR, "tfe: generated op definition did not register: %s",
           TF_Message(s));
  }
  atomic_store_explicit(&g_state[i], st, memory_order_release);
}

const tfe_op_def* tfe_ops_generated_lookup(const char* name) {
  int i;
  TF_Status* s;
  if (tl_busy || name == NULL) return NULL;
  i = tfe_gen_op_find(name);
  if (i < 0 || !ensure_state()) return NULL;
  if (atomic_load_explicit(&g_state[i], memory_order_acquire) == ST_NONE) {
    s = TF_NewStatus();
    if (s == NULL) return NULL;
    pthread_mutex_lock(&g_mu);
    tl_busy++;
    materialize_locked(i, s);
    tl_busy--;
    pthread_mutex_unlock(&g_mu);
    TF_DeleteStatus(s);
  }
  tl_busy++;
  {
    const tfe_op_def* d = tfe_op_lookup(name);
    tl_busy--;
    return d;
  }
}

void tfe_ops_generated_register_all(void) {
  int i;
  TF_Status* s;
  if (tl_busy) return;
  if (atomic_load_explicit(&g_all_done, memory_order_acquire)) return;
  if (!ensure_state()) return;
  s = TF_NewStatus();
  if (s == NULL) return;
  pthread_mutex_lock(&g_mu);
  tl_busy++;
  for (i = 0; i < tfe_gen_op_count; i++) materialize_locked(i, s);
  for (i = 0; i < tfe_gen_op_count; i++) {
    if (atomic_load_explicit(&g_state[i], memory_order_relaxed) == ST_NONE) break;
  }
  if (i == tfe_gen_op_count) {
    atomic_store_explicit(&g_all_done, 1, memory_order_release);
  }
  tl_busy--;
  pthread_mutex_unlock(&g_mu);
  TF_DeleteStatus(s);
}

int tfe_op_is_generated(const char* name) {
  int i = tfe_gen_op_find(name);
  if (i < 0 || !ensure_state()) return 0;
  return atomic_load_explicit(&g_state[i], memory_order_acquire) == ST_TABLE;
}

int tfe_ops_generated_registered(void) {
  return atomic_load_explicit(&g_from_table, memory_order_acquire);
}

int tfe_gen_op_register_as(int i, const char* as_name, TF_Status* s) {
  if (i < 0 || i >= tfe_gen_op_count || as_name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "tfe_gen_op_register_as: no record %d or no name", i);
    return 0;
  }
  return register_record(i, as_name, s);
}
