/* tfe's example PluggableDevice plugin: what `python -m tfe_py doctor`
 * checks by default, and the device the tests run on. It uses only
 * TensorFlow's C headers (stream_executor.h, kernels.h, grappler.h,
 * pluggable_profiler.h), so the same source builds a plugin for TensorFlow.
 * example_device.c builds it as is; tests/plugins/pd_test_device.c and
 * pd_old_device.c include this file with different settings.
 *
 * "Device memory" is a private arena per device. The opaque pointers the
 * plugin hands out are poisoned: tag byte 0xDE in the top byte of a 64-bit
 * value, which is not a canonical address, so any attempt by the core to
 * dereference one faults at once. Only the plugin's stream workers decode
 * them. Freed blocks are filled with 0xCD to expose use after free.
 *
 * Each stream is a worker thread running a queue of operations in order
 * (copies, kernel launches, event records and waits, timers, host
 * callbacks); with TFE_TEST_DEVICE_JITTER_US set, the worker sleeps a
 * random time up to that many microseconds before every operation, so
 * missing ordering between streams shows up as wrong results.
 *
 * TF_InitKernel registers float kernels for AddV2, Mul (also int32), MatMul,
 * BiasAdd, Relu (asynchronous, finished by a host callback on the stream)
 * and Sum (reduction_indices in host memory), plus a low-priority AddV2
 * that must never be chosen, and float reference kernels (TemporaryVariable,
 * Assign, DestroyTemporaryVariable, RefIdentity) built on
 * kernels_experimental.h. TF_InitGraph and TF_InitProfiler register a
 * no-op optimizer and profiler.
 *
 * Compile-time knobs (set before including):
 *   PD_PLATFORM_NAME, PD_DEVICE_TYPE: names (default TFE_TEST_PLATFORM,
 *       MY_DEVICE);
 *   PD_OLD: behave like a plugin built for an older TensorFlow (smaller
 *       SP_Platform and SP_StreamExecutor, no mem_zero/memset/memset32, no
 *       graph or profiler entry points);
 *   PD_NUM_DEVICES: devices (default 2; TFE_TEST_DEVICE_COUNT overrides);
 *   PD_NO_DTOD: leave memcpy_dtod NULL (the core must copy between
 *       devices through the host).
 *
 * memcpy_dtod accepts blocks of any device of this plugin (as a GPU with
 * peer access would): the core calls it on the source device's stream to
 * copy into another device's memory. */
#ifndef TFE_PY_EXAMPLES_EXAMPLE_DEVICE_H_
#define TFE_PY_EXAMPLES_EXAMPLE_DEVICE_H_

/* usleep, rand_r and clock_gettime are POSIX, not ISO C. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"

#ifndef PD_PLATFORM_NAME
#define PD_PLATFORM_NAME "TFE_TEST_PLATFORM"
#endif
#ifndef PD_DEVICE_TYPE
#define PD_DEVICE_TYPE "MY_DEVICE"
#endif
#ifndef PD_NUM_DEVICES
#define PD_NUM_DEVICES 2
#endif
#define PD_MAX_DEVICES 8
#define PD_ARENA_BYTES (64u << 20)
#define PD_TAG 0xDEull
#define PD_ALIGN 64

/* ------------------------------------------------------------------------
 * Counters the tests read through dlsym. */

static atomic_long pd_allocs, pd_frees, pd_launches, pd_streams_live,
    pd_events_live, pd_devices_live, pd_inits, pd_teardowns, pd_htods,
    pd_dtohs, pd_dtods;

TF_CAPI_EXPORT long pd_test_counter(const char* name);
long pd_test_counter(const char* name) {
  if (strcmp(name, "allocs") == 0) return atomic_load(&pd_allocs);
  if (strcmp(name, "frees") == 0) return atomic_load(&pd_frees);
  if (strcmp(name, "launches") == 0) return atomic_load(&pd_launches);
  if (strcmp(name, "streams") == 0) return atomic_load(&pd_streams_live);
  if (strcmp(name, "events") == 0) return atomic_load(&pd_events_live);
  if (strcmp(name, "devices") == 0) return atomic_load(&pd_devices_live);
  if (strcmp(name, "inits") == 0) return atomic_load(&pd_inits);
  if (strcmp(name, "teardowns") == 0) return atomic_load(&pd_teardowns);
  /* Calls of memcpy_htod, memcpy_dtoh and memcpy_dtod that were queued. */
  if (strcmp(name, "htod") == 0) return atomic_load(&pd_htods);
  if (strcmp(name, "dtoh") == 0) return atomic_load(&pd_dtohs);
  if (strcmp(name, "dtod") == 0) return atomic_load(&pd_dtods);
  return -1;
}

/* ------------------------------------------------------------------------
 * Arena. */

typedef struct pd_block {
  uint64_t off, size;
  int used;
  struct pd_block* next;
} pd_block;

typedef struct pd_dev {
  int ordinal;
  unsigned char* arena;
  uint64_t arena_size;
  pthread_mutex_t mu;
  pd_block* blocks; /* sorted by offset, covering the arena */
  int64_t in_use, peak, num_allocs, largest;
  struct SP_Stream_st* streams; /* live streams (guarded by mu) */
} pd_dev;

static pd_dev pd_devs[PD_MAX_DEVICES];
static int pd_count_devices;

static int pd_env_int(const char* name, int dflt) {
  const char* v = getenv(name);
  return v != NULL && *v ? atoi(v) : dflt;
}

static void* pd_encode(int ordinal, uint64_t off) {
  uint64_t v = (PD_TAG << 56) | ((uint64_t)ordinal << 48) | (off + PD_ALIGN);
  return (void*)(uintptr_t)v;
}

/* The host address behind an opaque pointer, after checking that
 * [opaque, opaque + size) lies inside device `dev`'s arena; NULL when not. */
static unsigned char* pd_decode(const pd_dev* dev, const void* opaque,
                                uint64_t size) {
  uint64_t v = (uint64_t)(uintptr_t)opaque, off;
  if ((v >> 56) != PD_TAG || (int)((v >> 48) & 0xff) != dev->ordinal) {
    return NULL;
  }
  off = (v & 0xffffffffffffull);
  if (off < PD_ALIGN) return NULL;
  off -= PD_ALIGN;
  if (off > dev->arena_size || size > dev->arena_size - off) return NULL;
  return dev->arena + off;
}

static pd_dev* pd_of(const SP_Device* d) { return (pd_dev*)d->device_handle; }

/* Like pd_decode, for a block of whichever device the pointer names. */
static unsigned char* pd_decode_any(const void* opaque, uint64_t size) {
  uint64_t v = (uint64_t)(uintptr_t)opaque;
  int ordinal = (int)((v >> 48) & 0xff);
  if ((v >> 56) != PD_TAG || ordinal >= PD_MAX_DEVICES ||
      pd_devs[ordinal].arena == NULL) {
    return NULL;
  }
  return pd_decode(&pd_devs[ordinal], opaque, size);
}

static void* pd_arena_alloc(pd_dev* d, uint64_t size) {
  pd_block* b;
  uint64_t need = (size + PD_ALIGN - 1) / PD_ALIGN * PD_ALIGN;
  void* out = NULL;
  if (need == 0) need = PD_ALIGN;
  pthread_mutex_lock(&d->mu);
  for (b = d->blocks; b != NULL; b = b->next) {
    if (!b->used && b->size >= need) {
      if (b->size > need) {
        pd_block* rest = (pd_block*)calloc(1, sizeof(*rest));
        if (rest == NULL) break;
        rest->off = b->off + need;
        rest->size = b->size - need;
        rest->next = b->next;
        b->next = rest;
        b->size = need;
      }
      b->used = 1;
      d->in_use += (int64_t)need;
      if (d->in_use > d->peak) d->peak = d->in_use;
      if ((int64_t)need > d->largest) d->largest = (int64_t)need;
      d->num_allocs++;
      out = pd_encode(d->ordinal, b->off);
      break;
    }
  }
  pthread_mutex_unlock(&d->mu);
  return out;
}

static int pd_arena_free(pd_dev* d, const void* opaque) {
  uint64_t v = (uint64_t)(uintptr_t)opaque, off;
  pd_block *b, *prev = NULL;
  int found = 0;
  if (opaque == NULL) return 1;
  if ((v >> 56) != PD_TAG) return 0;
  off = (v & 0xffffffffffffull) - PD_ALIGN;
  pthread_mutex_lock(&d->mu);
  for (b = d->blocks; b != NULL; prev = b, b = b->next) {
    if (b->off == off && b->used) {
      found = 1;
      b->used = 0;
      d->in_use -= (int64_t)b->size;
      memset(d->arena + b->off, 0xCD, b->size);
      /* Coalesce with the next and the previous free block. */
      if (b->next != NULL && !b->next->used) {
        pd_block* n = b->next;
        b->size += n->size;
        b->next = n->next;
        free(n);
      }
      if (prev != NULL && !prev->used) {
        prev->size += b->size;
        prev->next = b->next;
        free(b);
      }
      break;
    }
  }
  pthread_mutex_unlock(&d->mu);
  return found;
}

/* ------------------------------------------------------------------------
 * Events and timers (reference counted: queued operations hold them). */

struct SP_Event_st {
  atomic_int refs;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int state; /* 0 never recorded, 1 pending, 2 complete */
};

static SP_Event pd_event_new(void) {
  SP_Event e = (SP_Event)calloc(1, sizeof(*e));
  if (e == NULL) return NULL;
  atomic_init(&e->refs, 1);
  pthread_mutex_init(&e->mu, NULL);
  pthread_cond_init(&e->cv, NULL);
  atomic_fetch_add(&pd_events_live, 1);
  return e;
}

static void pd_event_unref(SP_Event e) {
  if (e == NULL || atomic_fetch_sub(&e->refs, 1) != 1) return;
  pthread_mutex_destroy(&e->mu);
  pthread_cond_destroy(&e->cv);
  free(e);
  atomic_fetch_sub(&pd_events_live, 1);
}

static void pd_event_set(SP_Event e, int state) {
  pthread_mutex_lock(&e->mu);
  e->state = state;
  pthread_cond_broadcast(&e->cv);
  pthread_mutex_unlock(&e->mu);
}

static void pd_event_wait(SP_Event e) {
  pthread_mutex_lock(&e->mu);
  while (e->state == 1) pthread_cond_wait(&e->cv, &e->mu);
  pthread_mutex_unlock(&e->mu);
}

struct SP_Timer_st {
  atomic_int refs;
  uint64_t start_ns, stop_ns;
};

static uint64_t pd_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pd_timer_unref(SP_Timer t) {
  if (t != NULL && atomic_fetch_sub(&t->refs, 1) == 1) free(t);
}

/* ------------------------------------------------------------------------
 * Streams: a worker thread per stream. */

enum {
  PD_OP_H2D,
  PD_OP_D2H,
  PD_OP_D2D,
  PD_OP_RECORD,
  PD_OP_WAIT,
  PD_OP_CALLBACK,
  PD_OP_LAUNCH,
  PD_OP_TIMER_START,
  PD_OP_TIMER_STOP,
  PD_OP_FILL
};

typedef struct pd_op {
  int kind;
  void* dst;
  const void* src;
  uint64_t size;
  SP_Event event;
  SP_Timer timer;
  SE_StatusCallbackFn cb;
  void* cb_arg;
  void (*fn)(pd_dev*, void*);
  void* args;
  uint32_t pattern;
  int pattern_width; /* 1 or 4 */
  struct pd_op* next;
} pd_op;

struct SP_Stream_st {
  pd_dev* dev;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pd_op *head, *tail;
  int stop;
  TF_Code error;
  char error_msg[128];
  unsigned seed;
  int jitter_us;
  struct SP_Stream_st* next_live; /* in dev->streams */
};

static void pd_stream_fail(SP_Stream s, const char* msg) {
  if (s->error == TF_OK) {
    s->error = TF_INTERNAL;
    snprintf(s->error_msg, sizeof s->error_msg, "%s", msg);
  }
}

static void pd_run_op(SP_Stream s, pd_op* op) {
  pd_dev* d = s->dev;
  unsigned char* p;
  const unsigned char* q;
  switch (op->kind) {
    case PD_OP_H2D:
      p = pd_decode(d, op->dst, op->size);
      if (p == NULL) pd_stream_fail(s, "memcpy_htod: bad device pointer");
      else memcpy(p, op->src, op->size);
      break;
    case PD_OP_D2H:
      q = pd_decode(d, op->src, op->size);
      if (q == NULL) pd_stream_fail(s, "memcpy_dtoh: bad device pointer");
      else memcpy(op->dst, q, op->size);
      break;
    case PD_OP_D2D:
      p = pd_decode_any(op->dst, op->size);
      q = pd_decode_any(op->src, op->size);
      if (p == NULL || q == NULL) {
        pd_stream_fail(s, "memcpy_dtod: bad device pointer");
      } else {
        memmove(p, q, op->size);
      }
      break;
    case PD_OP_RECORD:
      pd_event_set(op->event, 2);
      break;
    case PD_OP_WAIT:
      pd_event_wait(op->event);
      break;
    case PD_OP_CALLBACK: {
      TF_Status* st = TF_NewStatus();
      op->cb(op->cb_arg, st);
      if (TF_GetCode(st) != TF_OK) pd_stream_fail(s, TF_Message(st));
      TF_DeleteStatus(st);
      break;
    }
    case PD_OP_LAUNCH:
      op->fn(d, op->args);
      free(op->args);
      break;
    case PD_OP_TIMER_START:
      op->timer->start_ns = pd_now_ns();
      break;
    case PD_OP_TIMER_STOP:
      op->timer->stop_ns = pd_now_ns();
      break;
    case PD_OP_FILL:
      p = pd_decode(d, op->dst, op->size);
      if (p == NULL) {
        pd_stream_fail(s, "fill: bad device pointer");
      } else if (op->pattern_width == 1) {
        memset(p, (int)(op->pattern & 0xff), op->size);
      } else {
        uint64_t i;
        for (i = 0; i + 4 <= op->size; i += 4) memcpy(p + i, &op->pattern, 4);
      }
      break;
  }
  pd_event_unref(op->event);
  pd_timer_unref(op->timer);
}

static void* pd_worker(void* arg) {
  SP_Stream s = (SP_Stream)arg;
  for (;;) {
    pd_op* op;
    pthread_mutex_lock(&s->mu);
    while (s->head == NULL && !s->stop) pthread_cond_wait(&s->cv, &s->mu);
    if (s->head == NULL && s->stop) {
      pthread_mutex_unlock(&s->mu);
      return NULL;
    }
    op = s->head;
    pthread_mutex_unlock(&s->mu);
    if (s->jitter_us > 0) usleep((useconds_t)(rand_r(&s->seed) % s->jitter_us));
    pd_run_op(s, op);
    pthread_mutex_lock(&s->mu);
    s->head = op->next;
    if (s->head == NULL) s->tail = NULL;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    free(op);
  }
}

static int pd_enqueue(SP_Stream s, const pd_op* tmpl, TF_Status* status) {
  pd_op* op = (pd_op*)calloc(1, sizeof(*op));
  if (op == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "test device: out of memory");
    return 0;
  }
  *op = *tmpl;
  op->next = NULL;
  if (op->event != NULL) atomic_fetch_add(&op->event->refs, 1);
  if (op->timer != NULL) atomic_fetch_add(&op->timer->refs, 1);
  pthread_mutex_lock(&s->mu);
  if (s->tail != NULL) s->tail->next = op;
  else s->head = op;
  s->tail = op;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  if (status != NULL) TF_SetStatus(status, TF_OK, "");
  return 1;
}

/* Waits until the queue is empty. */
static void pd_drain(SP_Stream s) {
  pthread_mutex_lock(&s->mu);
  while (s->head != NULL) pthread_cond_wait(&s->cv, &s->mu);
  pthread_mutex_unlock(&s->mu);
}

/* ------------------------------------------------------------------------
 * SP_StreamExecutor. */

static void pd_allocate(const SP_Device* device, uint64_t size,
                        int64_t memory_space, SP_DeviceMemoryBase* mem) {
  (void)memory_space;
  mem->struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  mem->opaque = pd_arena_alloc(pd_of(device), size);
  mem->size = mem->opaque != NULL ? size : 0;
  if (mem->opaque != NULL) atomic_fetch_add(&pd_allocs, 1);
}

static void pd_deallocate(const SP_Device* device, SP_DeviceMemoryBase* mem) {
  if (mem == NULL || mem->opaque == NULL) return;
  if (pd_arena_free(pd_of(device), mem->opaque)) {
    atomic_fetch_add(&pd_frees, 1);
  } else {
    fprintf(stderr, "test device: deallocate of unknown block %p\n",
            mem->opaque);
    abort();
  }
}

static void* pd_host_alloc(const SP_Device* device, uint64_t size) {
  (void)device;
  return malloc(size ? size : 1);
}

static void pd_host_free(const SP_Device* device, void* mem) {
  (void)device;
  free(mem);
}

static TF_Bool pd_stats(const SP_Device* device, SP_AllocatorStats* stats) {
  pd_dev* d = pd_of(device);
  stats->struct_size = SP_ALLOCATORSTATS_STRUCT_SIZE;
  pthread_mutex_lock(&d->mu);
  stats->num_allocs = d->num_allocs;
  stats->bytes_in_use = d->in_use;
  stats->peak_bytes_in_use = d->peak;
  stats->largest_alloc_size = d->largest;
  stats->has_bytes_limit = 1;
  stats->bytes_limit = (int64_t)d->arena_size;
  pthread_mutex_unlock(&d->mu);
  return 1;
}

static TF_Bool pd_usage(const SP_Device* device, int64_t* free_b,
                        int64_t* total) {
  pd_dev* d = pd_of(device);
  pthread_mutex_lock(&d->mu);
  *total = (int64_t)d->arena_size;
  *free_b = (int64_t)d->arena_size - d->in_use;
  pthread_mutex_unlock(&d->mu);
  return 1;
}

static void pd_create_stream(const SP_Device* device, SP_Stream* stream,
                             TF_Status* status) {
  pd_dev* d = pd_of(device);
  SP_Stream s = (SP_Stream)calloc(1, sizeof(*s));
  if (s == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "test device: no memory");
    return;
  }
  s->dev = d;
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  s->seed = (unsigned)(uintptr_t)s;
  s->jitter_us = pd_env_int("TFE_TEST_DEVICE_JITTER_US", 0);
  if (pthread_create(&s->thread, NULL, pd_worker, s) != 0) {
    free(s);
    TF_SetStatus(status, TF_INTERNAL, "test device: no thread");
    return;
  }
  pthread_mutex_lock(&d->mu);
  s->next_live = d->streams;
  d->streams = s;
  pthread_mutex_unlock(&d->mu);
  atomic_fetch_add(&pd_streams_live, 1);
  *stream = s;
  TF_SetStatus(status, TF_OK, "");
}

static void pd_destroy_stream(const SP_Device* device, SP_Stream s) {
  pd_dev* d = pd_of(device);
  SP_Stream* pp;
  if (s == NULL) return;
  pthread_mutex_lock(&s->mu);
  s->stop = 1;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  pthread_join(s->thread, NULL);
  pthread_mutex_lock(&d->mu);
  for (pp = &d->streams; *pp != NULL; pp = &(*pp)->next_live) {
    if (*pp == s) {
      *pp = s->next_live;
      break;
    }
  }
  pthread_mutex_unlock(&d->mu);
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->cv);
  free(s);
  atomic_fetch_sub(&pd_streams_live, 1);
}

static void pd_record(const SP_Device* device, SP_Stream stream,
                      SP_Event event, TF_Status* status);
static void pd_wait(const SP_Device* const device, SP_Stream stream,
                    SP_Event event, TF_Status* const status);

static void pd_stream_dep(const SP_Device* device, SP_Stream dependent,
                          SP_Stream other, TF_Status* status) {
  SP_Event e = pd_event_new();
  if (e == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "test device: no memory");
    return;
  }
  pd_record(device, other, e, status);
  if (TF_GetCode(status) == TF_OK) pd_wait(device, dependent, e, status);
  pd_event_unref(e);
}

static void pd_stream_status(const SP_Device* device, SP_Stream stream,
                             TF_Status* status) {
  (void)device;
  if (stream->error != TF_OK) {
    TF_SetStatus(status, stream->error, stream->error_msg);
  } else {
    TF_SetStatus(status, TF_OK, "");
  }
}

static void pd_create_event(const SP_Device* device, SP_Event* event,
                            TF_Status* status) {
  (void)device;
  *event = pd_event_new();
  if (*event == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "test device: no memory");
  } else {
    TF_SetStatus(status, TF_OK, "");
  }
}

static void pd_destroy_event(const SP_Device* device, SP_Event event) {
  (void)device;
  pd_event_unref(event);
}

static SE_EventStatus pd_event_status(const SP_Device* device, SP_Event e) {
  int st;
  (void)device;
  pthread_mutex_lock(&e->mu);
  st = e->state;
  pthread_mutex_unlock(&e->mu);
  return st == 1 ? SE_EVENT_PENDING : SE_EVENT_COMPLETE;
}

static void pd_record(const SP_Device* device, SP_Stream stream,
                      SP_Event event, TF_Status* status) {
  pd_op op;
  (void)device;
  memset(&op, 0, sizeof op);
  op.kind = PD_OP_RECORD;
  op.event = event;
  pd_event_set(event, 1);
  pd_enqueue(stream, &op, status);
}

static void pd_wait(const SP_Device* const device, SP_Stream stream,
                    SP_Event event, TF_Status* const status) {
  pd_op op;
  (void)device;
  memset(&op, 0, sizeof op);
  op.kind = PD_OP_WAIT;
  op.event = event;
  pd_enqueue(stream, &op, status);
}

static void pd_create_timer(const SP_Device* device, SP_Timer* timer,
                            TF_Status* status) {
  SP_Timer t = (SP_Timer)calloc(1, sizeof(*t));
  (void)device;
  if (t == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "test device: no memory");
    return;
  }
  atomic_init(&t->refs, 1);
  *timer = t;
  TF_SetStatus(status, TF_OK, "");
}

static void pd_destroy_timer(const SP_Device* device, SP_Timer timer) {
  (void)device;
  pd_timer_unref(timer);
}

static void pd_timer_op(SP_Stream stream, SP_Timer timer, int kind,
                        TF_Status* status) {
  pd_op op;
  memset(&op, 0, sizeof op);
  op.kind = kind;
  op.timer = timer;
  pd_enqueue(stream, &op, status);
}

static void pd_start_timer(const SP_Device* device, SP_Stream stream,
                           SP_Timer timer, TF_Status* status) {
  (void)device;
  pd_timer_op(stream, timer, PD_OP_TIMER_START, status);
}

static void pd_stop_timer(const SP_Device* device, SP_Stream stream,
                          SP_Timer timer, TF_Status* status) {
  (void)device;
  pd_timer_op(stream, timer, PD_OP_TIMER_STOP, status);
}

static int pd_check_ptr(const SP_Device* device, const void* opaque,
                        uint64_t size, const char* fn, TF_Status* status) {
  if (pd_decode(pd_of(device), opaque, size) == NULL) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "%s: %p is not a block of %llu bytes on test device %d", fn,
             opaque, (unsigned long long)size, (int)device->ordinal);
    TF_SetStatus(status, TF_INVALID_ARGUMENT, msg);
    return 0;
  }
  return 1;
}

static void pd_copy(SP_Stream stream, int kind, void* dst, const void* src,
                    uint64_t size, TF_Status* status) {
  pd_op op;
  memset(&op, 0, sizeof op);
  op.kind = kind;
  op.dst = dst;
  op.src = src;
  op.size = size;
  pd_enqueue(stream, &op, status);
}

static void pd_memcpy_dtoh(const SP_Device* device, SP_Stream stream,
                           void* host_dst, const SP_DeviceMemoryBase* src,
                           uint64_t size, TF_Status* status) {
  if (!pd_check_ptr(device, src->opaque, size, "memcpy_dtoh", status)) return;
  atomic_fetch_add(&pd_dtohs, 1);
  pd_copy(stream, PD_OP_D2H, host_dst, src->opaque, size, status);
}

static void pd_memcpy_htod(const SP_Device* device, SP_Stream stream,
                           SP_DeviceMemoryBase* dst, const void* host_src,
                           uint64_t size, TF_Status* status) {
  if (!pd_check_ptr(device, dst->opaque, size, "memcpy_htod", status)) return;
  atomic_fetch_add(&pd_htods, 1);
  pd_copy(stream, PD_OP_H2D, dst->opaque, host_src, size, status);
}

#ifndef PD_NO_DTOD
/* Either block may be on another device of the plugin (a peer copy). */
static void pd_memcpy_dtod(const SP_Device* device, SP_Stream stream,
                           SP_DeviceMemoryBase* dst,
                           const SP_DeviceMemoryBase* src, uint64_t size,
                           TF_Status* status) {
  if (pd_decode_any(dst->opaque, size) == NULL ||
      pd_decode_any(src->opaque, size) == NULL) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "memcpy_dtod: %p or %p is not a block of %llu bytes on a test "
             "device (called on device %d)",
             dst->opaque, src->opaque, (unsigned long long)size,
             (int)device->ordinal);
    TF_SetStatus(status, TF_INVALID_ARGUMENT, msg);
    return;
  }
  atomic_fetch_add(&pd_dtods, 1);
  pd_copy(stream, PD_OP_D2D, dst->opaque, src->opaque, size, status);
}
#endif

static void pd_sync_dtoh(const SP_Device* device, void* host_dst,
                         const SP_DeviceMemoryBase* src, uint64_t size,
                         TF_Status* status) {
  unsigned char* p = pd_decode(pd_of(device), src->opaque, size);
  if (!pd_check_ptr(device, src->opaque, size, "sync_memcpy_dtoh", status)) {
    return;
  }
  memcpy(host_dst, p, size);
  TF_SetStatus(status, TF_OK, "");
}

static void pd_sync_htod(const SP_Device* device, SP_DeviceMemoryBase* dst,
                         const void* host_src, uint64_t size,
                         TF_Status* status) {
  unsigned char* p = pd_decode(pd_of(device), dst->opaque, size);
  if (!pd_check_ptr(device, dst->opaque, size, "sync_memcpy_htod", status)) {
    return;
  }
  memcpy(p, host_src, size);
  TF_SetStatus(status, TF_OK, "");
}

static void pd_sync_dtod(const SP_Device* device, SP_DeviceMemoryBase* dst,
                         const SP_DeviceMemoryBase* src, uint64_t size,
                         TF_Status* status) {
  unsigned char* p = pd_decode(pd_of(device), dst->opaque, size);
  unsigned char* q = pd_decode(pd_of(device), src->opaque, size);
  if (p == NULL || q == NULL) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "sync_memcpy_dtod: bad block");
    return;
  }
  memmove(p, q, size);
  TF_SetStatus(status, TF_OK, "");
}

static void pd_block_for_event(const SP_Device* device, SP_Event event,
                               TF_Status* status) {
  (void)device;
  pd_event_wait(event);
  TF_SetStatus(status, TF_OK, "");
}

static void pd_block_until_done(const SP_Device* device, SP_Stream stream,
                                TF_Status* status) {
  (void)device;
  pd_drain(stream);
  pd_stream_status(device, stream, status);
}

static void pd_sync_all(const SP_Device* device, TF_Status* status) {
  pd_dev* d = pd_of(device);
  SP_Stream s;
  pthread_mutex_lock(&d->mu);
  s = d->streams;
  pthread_mutex_unlock(&d->mu);
  /* Streams are only destroyed by their owner, not while syncing. */
  for (; s != NULL; s = s->next_live) pd_drain(s);
  TF_SetStatus(status, TF_OK, "");
}

static TF_Bool pd_host_callback(const SP_Device* device, SP_Stream stream,
                                SE_StatusCallbackFn fn, void* arg) {
  pd_op op;
  TF_Status* st = TF_NewStatus();
  int ok;
  (void)device;
  memset(&op, 0, sizeof op);
  op.kind = PD_OP_CALLBACK;
  op.cb = fn;
  op.cb_arg = arg;
  ok = pd_enqueue(stream, &op, st);
  TF_DeleteStatus(st);
  return (TF_Bool)ok;
}

#ifndef PD_OLD
static void pd_fill(const SP_Device* device, SP_Stream stream,
                    SP_DeviceMemoryBase* loc, uint32_t pattern, int width,
                    uint64_t size, TF_Status* status) {
  pd_op op;
  if (!pd_check_ptr(device, loc->opaque, size, "fill", status)) return;
  memset(&op, 0, sizeof op);
  op.kind = PD_OP_FILL;
  op.dst = loc->opaque;
  op.size = size;
  op.pattern = pattern;
  op.pattern_width = width;
  pd_enqueue(stream, &op, status);
}

static void pd_mem_zero(const SP_Device* device, SP_Stream stream,
                        SP_DeviceMemoryBase* location, uint64_t size,
                        TF_Status* status) {
  pd_fill(device, stream, location, 0, 1, size, status);
}

static void pd_memset(const SP_Device* device, SP_Stream stream,
                      SP_DeviceMemoryBase* location, uint8_t pattern,
                      uint64_t size, TF_Status* status) {
  pd_fill(device, stream, location, pattern, 1, size, status);
}

static void pd_memset32(const SP_Device* device, SP_Stream stream,
                        SP_DeviceMemoryBase* location, uint32_t pattern,
                        uint64_t size, TF_Status* status) {
  pd_fill(device, stream, location, pattern, 4, size, status);
}
#endif

/* ------------------------------------------------------------------------
 * SP_PlatformFns. */

static void pd_device_count(const SP_Platform* platform, int* count,
                            TF_Status* status) {
  (void)platform;
  *count = pd_count_devices;
  TF_SetStatus(status, TF_OK, "");
}

static void pd_create_device(const SP_Platform* platform,
                             SE_CreateDeviceParams* params,
                             TF_Status* status) {
  pd_dev* d;
  (void)platform;
  if (params->ordinal < 0 || params->ordinal >= pd_count_devices) {
    TF_SetStatus(status, TF_INVALID_ARGUMENT, "test device: bad ordinal");
    return;
  }
  d = &pd_devs[params->ordinal];
  d->ordinal = params->ordinal;
  d->arena_size = (uint64_t)pd_env_int("TFE_TEST_DEVICE_MEMORY",
                                       (int)PD_ARENA_BYTES);
  d->arena = (unsigned char*)malloc(d->arena_size);
  d->blocks = (pd_block*)calloc(1, sizeof(pd_block));
  if (d->arena == NULL || d->blocks == NULL) {
    free(d->arena);
    free(d->blocks);
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "test device: no arena");
    return;
  }
  d->blocks->size = d->arena_size;
  pthread_mutex_init(&d->mu, NULL);
  params->device->struct_size = SP_DEVICE_STRUCT_SIZE;
  params->device->ordinal = params->ordinal;
  params->device->device_handle = d;
  params->device->hardware_name = "tfe arena device";
  params->device->device_vendor = "tfe tests";
  params->device->pci_bus_id = params->ordinal == 0 ? "0000:00:00.0"
                                                    : "0000:00:01.0";
  atomic_fetch_add(&pd_devices_live, 1);
  TF_SetStatus(status, TF_OK, "");
}

static void pd_destroy_device(const SP_Platform* platform, SP_Device* device) {
  pd_dev* d = pd_of(device);
  pd_block* b;
  (void)platform;
  if (d == NULL) return;
  b = d->blocks;
  while (b != NULL) {
    pd_block* n = b->next;
    if (b->used) {
      fprintf(stderr, "test device %d: block of %llu bytes never freed\n",
              d->ordinal, (unsigned long long)b->size);
    }
    free(b);
    b = n;
  }
  d->blocks = NULL;
  free(d->arena);
  d->arena = NULL;
  pthread_mutex_destroy(&d->mu);
  device->device_handle = NULL;
  atomic_fetch_sub(&pd_devices_live, 1);
}

static int32_t pd_numa(const SP_Device* device) {
  (void)device;
  return 0;
}

static int64_t pd_bandwidth(const SP_Device* device) {
  (void)device;
  return 1000000000;
}

static double pd_gflops(const SP_Device* device) {
  (void)device;
  return 1.5;
}

static void pd_create_device_fns(const SP_Platform* platform,
                                 SE_CreateDeviceFnsParams* params,
                                 TF_Status* status) {
  (void)platform;
  params->device_fns->struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
  params->device_fns->get_numa_node = pd_numa;
  params->device_fns->get_memory_bandwidth = pd_bandwidth;
  params->device_fns->get_gflops = pd_gflops;
  TF_SetStatus(status, TF_OK, "");
}

static void pd_destroy_device_fns(const SP_Platform* platform,
                                  SP_DeviceFns* fns) {
  (void)platform;
  (void)fns;
}

static void pd_create_se(const SP_Platform* platform,
                         SE_CreateStreamExecutorParams* params,
                         TF_Status* status) {
  SP_StreamExecutor* se = params->stream_executor;
  (void)platform;
#ifdef PD_OLD
  /* Headers older than mem_zero/memset/memset32 ended the struct with
   * host_callback, at the offset mem_zero has now: write it there, with the
   * struct_size those headers gave. */
  se->struct_size = TF_OFFSET_OF_END(SP_StreamExecutor, mem_zero);
  {
    TF_Bool (*callback)(const SP_Device*, SP_Stream, SE_StatusCallbackFn,
                        void*) = pd_host_callback;
    memcpy(&se->mem_zero, &callback, sizeof callback);
  }
#else
  se->struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE;
  se->mem_zero = pd_mem_zero;
  se->memset = pd_memset;
  se->memset32 = pd_memset32;
#endif
  se->allocate = pd_allocate;
  se->deallocate = pd_deallocate;
  se->host_memory_allocate = pd_host_alloc;
  se->host_memory_deallocate = pd_host_free;
  se->get_allocator_stats = pd_stats;
  se->device_memory_usage = pd_usage;
  se->create_stream = pd_create_stream;
  se->destroy_stream = pd_destroy_stream;
  se->create_stream_dependency = pd_stream_dep;
  se->get_stream_status = pd_stream_status;
  se->create_event = pd_create_event;
  se->destroy_event = pd_destroy_event;
  se->get_event_status = pd_event_status;
  se->record_event = pd_record;
  se->wait_for_event = pd_wait;
  se->create_timer = pd_create_timer;
  se->destroy_timer = pd_destroy_timer;
  se->start_timer = pd_start_timer;
  se->stop_timer = pd_stop_timer;
  se->memcpy_dtoh = pd_memcpy_dtoh;
  se->memcpy_htod = pd_memcpy_htod;
#ifndef PD_NO_DTOD
  se->memcpy_dtod = pd_memcpy_dtod;
#endif
  se->sync_memcpy_dtoh = pd_sync_dtoh;
  se->sync_memcpy_htod = pd_sync_htod;
  se->sync_memcpy_dtod = pd_sync_dtod;
  se->block_host_for_event = pd_block_for_event;
  se->block_host_until_done = pd_block_until_done;
  se->synchronize_all_activity = pd_sync_all;
#ifndef PD_OLD
  se->host_callback = pd_host_callback;
#endif
  TF_SetStatus(status, TF_OK, "");
}

static void pd_destroy_se(const SP_Platform* platform, SP_StreamExecutor* se) {
  (void)platform;
  (void)se;
}

static uint64_t pd_nanoseconds(SP_Timer timer) {
  return timer->stop_ns >= timer->start_ns ? timer->stop_ns - timer->start_ns
                                           : 0;
}

static void pd_create_timer_fns(const SP_Platform* platform,
                                SP_TimerFns* timer_fns, TF_Status* status) {
  (void)platform;
  timer_fns->struct_size = SP_TIMER_FNS_STRUCT_SIZE;
  timer_fns->nanoseconds = pd_nanoseconds;
  TF_SetStatus(status, TF_OK, "");
}

static void pd_destroy_timer_fns(const SP_Platform* platform,
                                 SP_TimerFns* timer_fns) {
  (void)platform;
  (void)timer_fns;
}

static void pd_destroy_platform(SP_Platform* platform) {
  (void)platform;
  atomic_fetch_add(&pd_teardowns, 1);
}

static void pd_destroy_platform_fns(SP_PlatformFns* fns) { (void)fns; }

TF_CAPI_EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params,
                                  TF_Status* status);
void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  SP_Platform* p = params->platform;
  SP_PlatformFns* f = params->platform_fns;
  atomic_fetch_add(&pd_inits, 1);
  pd_count_devices = pd_env_int("TFE_TEST_DEVICE_COUNT", PD_NUM_DEVICES);
  if (pd_count_devices > PD_MAX_DEVICES) pd_count_devices = PD_MAX_DEVICES;
#ifdef PD_OLD
  p->struct_size = TF_OFFSET_OF_END(SP_Platform, supports_unified_memory);
#else
  p->struct_size = SP_PLATFORM_STRUCT_SIZE;
  p->use_bfc_allocator = 1;
#endif
  p->name = PD_PLATFORM_NAME;
  p->type = PD_DEVICE_TYPE;
  p->supports_unified_memory = 0;
  f->struct_size = SP_PLATFORM_FNS_STRUCT_SIZE;
  f->get_device_count = pd_device_count;
  f->create_device = pd_create_device;
  f->destroy_device = pd_destroy_device;
  f->create_device_fns = pd_create_device_fns;
  f->destroy_device_fns = pd_destroy_device_fns;
  f->create_stream_executor = pd_create_se;
  f->destroy_stream_executor = pd_destroy_se;
  f->create_timer_fns = pd_create_timer_fns;
  f->destroy_timer_fns = pd_destroy_timer_fns;
  params->destroy_platform = pd_destroy_platform;
  params->destroy_platform_fns = pd_destroy_platform_fns;
  params->major_version = SE_MAJOR;
  params->minor_version = SE_MINOR;
  params->patch_version = SE_PATCH;
  TF_SetStatus(status, TF_OK, "");
}

/* ------------------------------------------------------------------------
 * Kernels: compute functions read shapes on the host and enqueue a launch
 * on the kernel's stream; the launch decodes the device pointers. */

#define PD_MAXR 8

typedef struct pd_shape {
  int rank;
  int64_t dims[PD_MAXR];
} pd_shape;

static int pd_get_shape(const TF_Tensor* t, pd_shape* s) {
  int i;
  s->rank = TF_NumDims(t);
  if (s->rank > PD_MAXR) return 0;
  for (i = 0; i < s->rank; i++) s->dims[i] = TF_Dim(t, i);
  return 1;
}

static int64_t pd_elems(const pd_shape* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < s->rank; i++) n *= s->dims[i];
  return n;
}

static void pd_fail(TF_OpKernelContext* ctx, TF_Code code, const char* msg) {
  TF_Status* s = TF_NewStatus();
  TF_SetStatus(s, code, msg);
  TF_OpKernelContext_Failure(ctx, s);
  TF_DeleteStatus(s);
}

/* Enqueues fn(args) on the kernel's stream (args is freed after). */
static int pd_launch(TF_OpKernelContext* ctx, void (*fn)(pd_dev*, void*),
                     void* args) {
  TF_Status* s = TF_NewStatus();
  SP_Stream stream = TF_GetStream(ctx, s);
  pd_op op;
  int ok = 0;
  if (TF_GetCode(s) == TF_OK) {
    memset(&op, 0, sizeof op);
    op.kind = PD_OP_LAUNCH;
    op.fn = fn;
    op.args = args;
    ok = pd_enqueue(stream, &op, s);
  }
  if (!ok) {
    free(args);
    TF_OpKernelContext_Failure(ctx, s);
  } else {
    atomic_fetch_add(&pd_launches, 1);
  }
  TF_DeleteStatus(s);
  return ok;
}

/* Binary element-wise with broadcasting (AddV2, Mul). */
typedef struct pd_binary_args {
  int op; /* 0 add, 1 mul */
  TF_DataType dtype;
  pd_shape a, b, out;
  const void *pa, *pb;
  void* pout;
} pd_binary_args;

static int64_t pd_bcast_index(const pd_shape* in, const pd_shape* out,
                              int64_t flat) {
  int64_t idx = 0, stride = 1;
  int i, off = out->rank - in->rank;
  for (i = out->rank - 1; i >= 0; i--) {
    int64_t coord = flat % out->dims[i];
    flat /= out->dims[i];
    if (i - off >= 0) {
      int64_t d = in->dims[i - off];
      if (d != 1) idx += coord * stride;
      stride *= d;
    }
  }
  return idx;
}

static void pd_binary_run(pd_dev* d, void* p) {
  pd_binary_args* a = (pd_binary_args*)p;
  int64_t n = pd_elems(&a->out), i;
  size_t esz = a->dtype == TF_FLOAT ? 4 : 4;
  unsigned char* x = pd_decode(d, a->pa, (uint64_t)pd_elems(&a->a) * esz);
  unsigned char* y = pd_decode(d, a->pb, (uint64_t)pd_elems(&a->b) * esz);
  unsigned char* z = pd_decode(d, a->pout, (uint64_t)n * esz);
  if (n == 0) return;
  if (x == NULL || y == NULL || z == NULL) {
    fprintf(stderr, "test device: binary kernel got a bad pointer\n");
    abort();
  }
  for (i = 0; i < n; i++) {
    int64_t ia = pd_bcast_index(&a->a, &a->out, i);
    int64_t ib = pd_bcast_index(&a->b, &a->out, i);
    if (a->dtype == TF_FLOAT) {
      float u = ((float*)x)[ia], v = ((float*)y)[ib];
      ((float*)z)[i] = a->op == 0 ? u + v : u * v;
    } else {
      int32_t u = ((int32_t*)x)[ia], v = ((int32_t*)y)[ib];
      ((int32_t*)z)[i] = a->op == 0 ? (int32_t)((uint32_t)u + (uint32_t)v)
                                    : (int32_t)((uint32_t)u * (uint32_t)v);
    }
  }
}

static void pd_binary(TF_OpKernelContext* ctx, int op) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor *x = NULL, *y = NULL, *z = NULL;
  pd_binary_args* a = (pd_binary_args*)calloc(1, sizeof(*a));
  int i;
  TF_GetInput(ctx, 0, &x, s);
  if (TF_GetCode(s) == TF_OK) TF_GetInput(ctx, 1, &y, s);
  if (TF_GetCode(s) != TF_OK || a == NULL) {
    TF_OpKernelContext_Failure(ctx, s);
    goto done;
  }
  a->op = op;
  a->dtype = TF_TensorType(x);
  if (!pd_get_shape(x, &a->a) || !pd_get_shape(y, &a->b)) {
    pd_fail(ctx, TF_UNIMPLEMENTED, "test device: rank above 8");
    goto done;
  }
  a->out.rank = a->a.rank > a->b.rank ? a->a.rank : a->b.rank;
  for (i = 0; i < a->out.rank; i++) {
    int ia = i - (a->out.rank - a->a.rank), ib = i - (a->out.rank - a->b.rank);
    int64_t da = ia >= 0 ? a->a.dims[ia] : 1, db = ib >= 0 ? a->b.dims[ib] : 1;
    if (da != db && da != 1 && db != 1) {
      pd_fail(ctx, TF_INVALID_ARGUMENT, "Incompatible shapes");
      goto done;
    }
    a->out.dims[i] = da == 1 ? db : da;
  }
  z = TF_AllocateOutput(ctx, 0, a->dtype, a->out.dims, a->out.rank,
                        (size_t)pd_elems(&a->out) * 4, s);
  if (z == NULL) {
    TF_OpKernelContext_Failure(ctx, s);
    goto done;
  }
  a->pa = TF_TensorData(x);
  a->pb = TF_TensorData(y);
  a->pout = TF_TensorData(z);
  pd_launch(ctx, pd_binary_run, a);
  a = NULL;
done:
  free(a);
  TF_DeleteTensor(x);
  TF_DeleteTensor(y);
  TF_DeleteTensor(z);
  TF_DeleteStatus(s);
}

static void pd_add_compute(void* k, TF_OpKernelContext* ctx) {
  (void)k;
  pd_binary(ctx, 0);
}

static void pd_mul_compute(void* k, TF_OpKernelContext* ctx) {
  (void)k;
  pd_binary(ctx, 1);
}

static void pd_wrong_compute(void* k, TF_OpKernelContext* ctx) {
  (void)k;
  pd_fail(ctx, TF_INTERNAL, "the low-priority AddV2 kernel was chosen");
}

/* MatMul. */
typedef struct pd_matmul {
  TF_Bool ta, tb;
} pd_matmul;

static void* pd_matmul_create(TF_OpKernelConstruction* ctx) {
  pd_matmul* m = (pd_matmul*)calloc(1, sizeof(*m));
  TF_Status* s = TF_NewStatus();
  TF_OpKernelConstruction_GetAttrBool(ctx, "transpose_a", &m->ta, s);
  if (TF_GetCode(s) == TF_OK) {
    TF_OpKernelConstruction_GetAttrBool(ctx, "transpose_b", &m->tb, s);
  }
  if (TF_GetCode(s) != TF_OK) TF_OpKernelConstruction_Failure(ctx, s);
  TF_DeleteStatus(s);
  return m;
}

static void pd_free_state(void* k) { free(k); }

typedef struct pd_matmul_args {
  int64_t m, n, k;
  TF_Bool ta, tb;
  const void *pa, *pb;
  void* pout;
} pd_matmul_args;

static void pd_matmul_run(pd_dev* d, void* p) {
  pd_matmul_args* a = (pd_matmul_args*)p;
  const float* x = (const float*)pd_decode(d, a->pa, (uint64_t)(a->m * a->k) * 4);
  const float* y = (const float*)pd_decode(d, a->pb, (uint64_t)(a->k * a->n) * 4);
  float* z = (float*)pd_decode(d, a->pout, (uint64_t)(a->m * a->n) * 4);
  int64_t i, j, l;
  if (a->m * a->n == 0) return;
  if (z == NULL || ((x == NULL || y == NULL) && a->k > 0)) {
    fprintf(stderr, "test device: MatMul got a bad pointer\n");
    abort();
  }
  for (i = 0; i < a->m; i++) {
    for (j = 0; j < a->n; j++) {
      double acc = 0;
      for (l = 0; l < a->k; l++) {
        float u = a->ta ? x[l * a->m + i] : x[i * a->k + l];
        float v = a->tb ? y[j * a->k + l] : y[l * a->n + j];
        acc += (double)u * v;
      }
      z[i * a->n + j] = (float)acc;
    }
  }
}

static void pd_matmul_compute(void* k, TF_OpKernelContext* ctx) {
  pd_matmul* m = (pd_matmul*)k;
  TF_Status* s = TF_NewStatus();
  TF_Tensor *x = NULL, *y = NULL, *z = NULL;
  pd_matmul_args* a = (pd_matmul_args*)calloc(1, sizeof(*a));
  int64_t dims[2], k1, k2;
  TF_GetInput(ctx, 0, &x, s);
  if (TF_GetCode(s) == TF_OK) TF_GetInput(ctx, 1, &y, s);
  if (TF_GetCode(s) != TF_OK || a == NULL) {
    TF_OpKernelContext_Failure(ctx, s);
    goto done;
  }
  if (TF_NumDims(x) != 2 || TF_NumDims(y) != 2) {
    pd_fail(ctx, TF_INVALID_ARGUMENT, "In[0] and In[1] must be matrices");
    goto done;
  }
  a->ta = m->ta;
  a->tb = m->tb;
  a->m = TF_Dim(x, m->ta ? 1 : 0);
  k1 = TF_Dim(x, m->ta ? 0 : 1);
  k2 = TF_Dim(y, m->tb ? 1 : 0);
  a->n = TF_Dim(y, m->tb ? 0 : 1);
  if (k1 != k2) {
    pd_fail(ctx, TF_INVALID_ARGUMENT, "Matrix size-incompatible");
    goto done;
  }
  a->k = k1;
  dims[0] = a->m;
  dims[1] = a->n;
  z = TF_AllocateOutput(ctx, 0, TF_FLOAT, dims, 2, (size_t)(a->m * a->n) * 4,
                        s);
  if (z == NULL) {
    TF_OpKernelContext_Failure(ctx, s);
    goto done;
  }
  a->pa = TF_TensorData(x);
  a->pb = TF_TensorData(y);
  a->pout = TF_TensorData(z);
  pd_launch(ctx, pd_matmul_run, a);
  a = NULL;
done:
  free(a);
  TF_DeleteTensor(x);
  TF_DeleteTensor(y);
  TF_DeleteTensor(z);
  TF_DeleteStatus(s);
}

/* BiasAdd (NHWC: bias along the last dimension). */
static void* pd_biasadd_create(TF_OpKernelConstruction* ctx) {
  TF_Status* s = TF_NewStatus();
  char fmt[8] = {0};
  int32_t list_size = 0, total = 0;
  TF_OpKernelConstruction_GetAttrSize(ctx, "data_format", &list_size, &total,
                                      s);
  if (TF_GetCode(s) == TF_OK && total < (int32_t)sizeof fmt) {
    TF_OpKernelConstruction_GetAttrString(ctx, "data_format", fmt,
                                          sizeof fmt - 1, s);
  }
  if (TF_GetCode(s) == TF_OK && strcmp(fmt, "NHWC") != 0) {
    TF_SetStatus(s, TF_UNIMPLEMENTED,
                 "the test device's BiasAdd supports data_format NHWC only");
  }
  if (TF_GetCode(s) != TF_OK) TF_OpKernelConstruction_Failure(ctx, s);
  TF_DeleteStatus(s);
  return NULL;
}

typedef struct pd_bias_args {
  int64_t n, c;
  const void *pv, *pb;
  void* pout;
} pd_bias_args;

static void pd_bias_run(pd_dev* d, void* p) {
  pd_bias_args* a = (pd_bias_args*)p;
  const float* v = (const float*)pd_decode(d, a->pv, (uint64_t)a->n * 4);
  const float* b = (const float*)pd_decode(d, a->pb, (uint64_t)a->c * 4);
  float* z = (float*)pd_decode(d, a->pout, (uint64_t)a->n * 4);
  int64_t i;
  if (a->n == 0) return;
  if (v == NULL || b == NULL || z == NULL) {
    fprintf(stderr, "test device: BiasAdd got a bad pointer\n");
    abort();
  }
  for (i = 0; i < a->n; i++) z[i] = v[i] + b[i % a->c];
}

static void pd_biasadd_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor *v = NULL, *b = NULL, *z = NULL;
  pd_bias_args* a = (pd_bias_args*)calloc(1, sizeof(*a));
  pd_shape sv;
  (void)k;
  TF_GetInput(ctx, 0, &v, s);
  if (TF_GetCode(s) == TF_OK) TF_GetInput(ctx, 1, &b, s);
  if (TF_GetCode(s) != TF_OK || a == NULL) {
    TF_OpKernelContext_Failure(ctx, s);
    goto done;
  }
  if (!pd_get_shape(v, &sv) || sv.rank < 1 || TF_NumDims(b) != 1 ||
      TF_Dim(b, 0) != sv.dims[sv.rank - 1]) {
    pd_fail(ctx, TF_INVALID_ARGUMENT,
            "Must provide as many biases as the last dimension of the input");
    goto done;
  }
  a->n = pd_elems(&sv);
  a->c = sv.dims[sv.rank - 1];
  z = TF_AllocateOutput(ctx, 0, TF_FLOAT, sv.dims, sv.rank, (size_t)a->n * 4,
                        s);
  if (z == NULL) {
    TF_OpKernelContext_Failure(ctx, s);
    goto done;
  }
  a->pv = TF_TensorData(v);
  a->pb = TF_TensorData(b);
  a->pout = TF_TensorData(z);
  if (a->c == 0) {
    a->n = 0;
  }
  pd_launch(ctx, pd_bias_run, a);
  a = NULL;
done:
  free(a);
  TF_DeleteTensor(v);
  TF_DeleteTensor(b);
  TF_DeleteTensor(z);
  TF_DeleteStatus(s);
}

/* Relu: asynchronous; `done` runs from the stream after the launch. */
typedef struct pd_relu_args {
  int64_t n;
  const void* pin;
  void* pout;
} pd_relu_args;

static void pd_relu_run(pd_dev* d, void* p) {
  pd_relu_args* a = (pd_relu_args*)p;
  const float* x = (const float*)pd_decode(d, a->pin, (uint64_t)a->n * 4);
  float* z = (float*)pd_decode(d, a->pout, (uint64_t)a->n * 4);
  int64_t i;
  if (a->n == 0) return;
  if (x == NULL || z == NULL) {
    fprintf(stderr, "test device: Relu got a bad pointer\n");
    abort();
  }
  for (i = 0; i < a->n; i++) z[i] = x[i] > 0 ? x[i] : 0;
}

static void pd_relu_done(void* arg, TF_Status* status) {
  TF_RunAsyncOpKernelDoneCallback((TF_AsyncOpKernelDoneCallback*)arg);
  TF_SetStatus(status, TF_OK, "");
}

static void pd_relu_compute(void* k, TF_OpKernelContext* ctx,
                            TF_AsyncOpKernelDoneCallback* done) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor *x = NULL, *z = NULL;
  pd_relu_args* a = (pd_relu_args*)calloc(1, sizeof(*a));
  pd_shape sx;
  SP_Stream stream;
  pd_op op;
  (void)k;
  TF_GetInput(ctx, 0, &x, s);
  if (TF_GetCode(s) != TF_OK || a == NULL || !pd_get_shape(x, &sx)) {
    TF_OpKernelContext_Failure(ctx, s);
    free(a);
    TF_RunAsyncOpKernelDoneCallback(done);
    goto out;
  }
  a->n = pd_elems(&sx);
  z = TF_AllocateOutput(ctx, 0, TF_FLOAT, sx.dims, sx.rank, (size_t)a->n * 4,
                        s);
  if (z == NULL) {
    TF_OpKernelContext_Failure(ctx, s);
    free(a);
    TF_RunAsyncOpKernelDoneCallback(done);
    goto out;
  }
  a->pin = TF_TensorData(x);
  a->pout = TF_TensorData(z);
  if (!pd_launch(ctx, pd_relu_run, a)) {
    TF_RunAsyncOpKernelDoneCallback(done);
    goto out;
  }
  stream = TF_GetStream(ctx, s);
  memset(&op, 0, sizeof op);
  op.kind = PD_OP_CALLBACK;
  op.cb = pd_relu_done;
  op.cb_arg = done;
  if (!pd_enqueue(stream, &op, s)) TF_RunAsyncOpKernelDoneCallback(done);
out:
  TF_DeleteTensor(x);
  TF_DeleteTensor(z);
  TF_DeleteStatus(s);
}

/* Sum over reduction_indices (a host-memory input). */
typedef struct pd_sum {
  TF_Bool keep_dims;
} pd_sum;

static void* pd_sum_create(TF_OpKernelConstruction* ctx) {
  pd_sum* m = (pd_sum*)calloc(1, sizeof(*m));
  TF_Status* s = TF_NewStatus();
  TF_OpKernelConstruction_GetAttrBool(ctx, "keep_dims", &m->keep_dims, s);
  if (TF_GetCode(s) != TF_OK) TF_OpKernelConstruction_Failure(ctx, s);
  TF_DeleteStatus(s);
  return m;
}

typedef struct pd_sum_args {
  pd_shape in;
  int reduce[PD_MAXR];
  int64_t out_n;
  const void* pin;
  void* pout;
} pd_sum_args;

static void pd_sum_run(pd_dev* d, void* p) {
  pd_sum_args* a = (pd_sum_args*)p;
  int64_t n = pd_elems(&a->in), i;
  const float* x = (const float*)pd_decode(d, a->pin, (uint64_t)n * 4);
  float* z = (float*)pd_decode(d, a->pout, (uint64_t)a->out_n * 4);
  double* acc;
  if (a->out_n == 0) return;
  if (z == NULL || (x == NULL && n > 0)) {
    fprintf(stderr, "test device: Sum got a bad pointer\n");
    abort();
  }
  acc = (double*)calloc((size_t)a->out_n, sizeof(double));
  if (acc == NULL) abort();
  for (i = 0; i < n; i++) {
    int64_t rem = i, o = 0, stride = 1;
    int r;
    for (r = a->in.rank - 1; r >= 0; r--) {
      int64_t c = rem % a->in.dims[r];
      rem /= a->in.dims[r];
      if (!a->reduce[r]) {
        o += c * stride;
        stride *= a->in.dims[r];
      }
    }
    acc[o] += x[i];
  }
  for (i = 0; i < a->out_n; i++) z[i] = (float)acc[i];
  free(acc);
}

static void pd_sum_compute(void* k, TF_OpKernelContext* ctx) {
  pd_sum* m = (pd_sum*)k;
  TF_Status* s = TF_NewStatus();
  TF_Tensor *x = NULL, *idx = NULL, *z = NULL;
  pd_sum_args* a = (pd_sum_args*)calloc(1, sizeof(*a));
  int64_t out_dims[PD_MAXR];
  int out_rank = 0, r;
  int64_t i, n_idx;
  TF_GetInput(ctx, 0, &x, s);
  if (TF_GetCode(s) == TF_OK) TF_GetInput(ctx, 1, &idx, s);
  if (TF_GetCode(s) != TF_OK || a == NULL) {
    TF_OpKernelContext_Failure(ctx, s);
    goto done;
  }
  if (!TF_IsHostMemoryInput(ctx, 1, s)) {
    pd_fail(ctx, TF_INTERNAL, "reduction_indices is not in host memory");
    goto done;
  }
  if (!pd_get_shape(x, &a->in)) {
    pd_fail(ctx, TF_UNIMPLEMENTED, "test device: rank above 8");
    goto done;
  }
  /* reduction_indices lives in host memory: read it right here. */
  n_idx = TF_TensorElementCount(idx);
  for (i = 0; i < n_idx; i++) {
    int64_t v = TF_TensorType(idx) == TF_INT32
                    ? ((const int32_t*)TF_TensorData(idx))[i]
                    : ((const int64_t*)TF_TensorData(idx))[i];
    if (v < 0) v += a->in.rank;
    if (v < 0 || v >= a->in.rank) {
      pd_fail(ctx, TF_INVALID_ARGUMENT, "Invalid reduction dimension");
      goto done;
    }
    a->reduce[v] = 1;
  }
  a->out_n = 1;
  for (r = 0; r < a->in.rank; r++) {
    if (!a->reduce[r]) {
      out_dims[out_rank++] = a->in.dims[r];
      a->out_n *= a->in.dims[r];
    } else if (m->keep_dims) {
      out_dims[out_rank++] = 1;
    }
  }
  z = TF_AllocateOutput(ctx, 0, TF_FLOAT, out_dims, out_rank,
                        (size_t)a->out_n * 4, s);
  if (z == NULL) {
    TF_OpKernelContext_Failure(ctx, s);
    goto done;
  }
  a->pin = TF_TensorData(x);
  a->pout = TF_TensorData(z);
  pd_launch(ctx, pd_sum_run, a);
  a = NULL;
done:
  free(a);
  TF_DeleteTensor(x);
  TF_DeleteTensor(idx);
  TF_DeleteTensor(z);
  TF_DeleteStatus(s);
}

static void pd_register(TF_KernelBuilder* b, const char* name) {
  TF_Status* s = TF_NewStatus();
  TF_RegisterKernelBuilder(name, b, s);
  if (TF_GetCode(s) != TF_OK) {
    fprintf(stderr, "test device: registering %s failed: %s\n", name,
            TF_Message(s));
  }
  TF_DeleteStatus(s);
}

static void pd_constrain(TF_KernelBuilder* b, const char* attr,
                         TF_DataType t) {
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder_TypeConstraint(b, attr, t, s);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Reference (Ref(T)) kernels for float: TemporaryVariable, Assign,
 * DestroyTemporaryVariable and RefIdentity, written on the
 * kernels_experimental.h functions as a TensorFlow plugin would. The
 * variable's memory comes from TF_AllocateTemp; copies run on the stream
 * with the device's own memcpy. */

typedef struct pd_copy_args {
  uint64_t bytes;
  const void* src;
  void* dst;
} pd_copy_args;

static void pd_copy_run(pd_dev* d, void* p) {
  pd_copy_args* a = (pd_copy_args*)p;
  const unsigned char* src;
  unsigned char* dst;
  if (a->bytes == 0) return;
  src = pd_decode(d, a->src, a->bytes);
  dst = pd_decode(d, a->dst, a->bytes);
  if (src == NULL || dst == NULL) {
    fprintf(stderr, "test device: a variable copy got a bad pointer\n");
    abort();
  }
  memmove(dst, src, (size_t)a->bytes);
}

/* copyFunc of TF_AssignRefVariable: device-to-device on the stream. */
static void pd_var_copy(TF_OpKernelContext* ctx, TF_Tensor* source,
                        TF_Tensor* dest) {
  pd_copy_args* a;
  if (TF_TensorByteSize(source) != TF_TensorByteSize(dest)) {
    pd_fail(ctx, TF_INTERNAL, "variable copy between different sizes");
    return;
  }
  a = (pd_copy_args*)calloc(1, sizeof(*a));
  if (a == NULL) {
    pd_fail(ctx, TF_RESOURCE_EXHAUSTED, "out of host memory");
    return;
  }
  a->bytes = (uint64_t)TF_TensorByteSize(source);
  a->src = TF_TensorData(source);
  a->dst = TF_TensorData(dest);
  pd_launch(ctx, pd_copy_run, a);
}

/* plugin_allocator of TF_TemporaryVariable: a temp in device memory whose
 * buffer `dest` takes over. */
static void pd_var_alloc(TF_OpKernelContext* ctx, TF_Tensor* dest,
                         TF_DataType dtype, const int64_t* dims, int num_dims,
                         TF_Status* status) {
  TF_AllocatorAttributes attrs;
  TF_Tensor* tmp;
  memset(&attrs, 0, sizeof attrs);
  attrs.struct_size = TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE;
  tmp = TF_AllocateTemp(ctx, dtype, dims, num_dims, &attrs, status);
  if (TF_GetCode(status) != TF_OK) return;
  TF_TensorBitcastFrom(tmp, dtype, dest, dims, num_dims, status);
  TF_DeleteTensor(tmp);
}

typedef struct pd_var {
  int rank;
  int64_t dims[PD_MAXR];
  char name[256];
  TF_Bool validate_shape, use_locking;
} pd_var;

/* Reads the attrs the four kernels use (each takes what it has). */
static void* pd_var_create(TF_OpKernelConstruction* ctx) {
  pd_var* v = (pd_var*)calloc(1, sizeof(*v));
  TF_Status* s = TF_NewStatus();
  int32_t list_size = 0;
  int32_t total = 0;
  if (v == NULL) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "out of host memory");
    TF_OpKernelConstruction_Failure(ctx, s);
    TF_DeleteStatus(s);
    return NULL;
  }
  TF_OpKernelConstruction_GetAttrSize(ctx, "shape", &list_size, &total, s);
  if (TF_GetCode(s) == TF_OK && total >= 0 && total <= PD_MAXR) {
    v->rank = total;
    TF_OpKernelConstruction_GetAttrTensorShape(ctx, "shape", v->dims,
                                               (size_t)total, s);
  }
  TF_OpKernelConstruction_GetAttrSize(ctx, "var_name", &list_size, &total, s);
  if (TF_GetCode(s) == TF_OK && total > 0 && total < (int32_t)sizeof v->name) {
    TF_OpKernelConstruction_GetAttrString(ctx, "var_name", v->name,
                                          (size_t)total, s);
  }
  v->validate_shape = 1;
  v->use_locking = 1;
  TF_OpKernelConstruction_GetAttrBool(ctx, "validate_shape",
                                      &v->validate_shape, s);
  TF_OpKernelConstruction_GetAttrBool(ctx, "use_locking", &v->use_locking, s);
  TF_DeleteStatus(s);
  return v;
}

static TF_StringView pd_var_name(const pd_var* v) {
  TF_StringView name;
  name.data = v->name;
  name.len = strlen(v->name);
  return name;
}

static void pd_tmpvar_compute(void* k, TF_OpKernelContext* ctx) {
  pd_var* v = (pd_var*)k;
  TF_Status* s = TF_NewStatus();
  TF_StringView name = pd_var_name(v);
  TF_TemporaryVariable(ctx, TF_FLOAT, v->dims, v->rank, &name, pd_var_alloc,
                       s);
  if (TF_GetCode(s) != TF_OK) TF_OpKernelContext_Failure(ctx, s);
  TF_DeleteStatus(s);
}

static void pd_assign_compute(void* k, TF_OpKernelContext* ctx) {
  pd_var* v = (pd_var*)k;
  TF_Status* s = TF_NewStatus();
  TF_AssignRefVariable(ctx, 0, 0, 1, v->use_locking, v->validate_shape,
                       pd_var_copy, s);
  if (TF_GetCode(s) != TF_OK) TF_OpKernelContext_Failure(ctx, s);
  TF_DeleteStatus(s);
}

static void pd_destroy_tmpvar_compute(void* k, TF_OpKernelContext* ctx) {
  pd_var* v = (pd_var*)k;
  TF_Status* s = TF_NewStatus();
  TF_StringView name = pd_var_name(v);
  TF_DestroyTemporaryVariable(ctx, 0, &name, s);
  if (TF_GetCode(s) != TF_OK) TF_OpKernelContext_Failure(ctx, s);
  TF_DeleteStatus(s);
}

static void pd_ref_identity_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  (void)k;
  if (!TF_IsRefInput(ctx, 0, s)) {
    if (TF_GetCode(s) == TF_OK) {
      TF_SetStatus(s, TF_INVALID_ARGUMENT, "RefIdentity needs a reference");
    }
    TF_OpKernelContext_Failure(ctx, s);
  } else {
    TF_OpKernelContext_ForwardRefInputToRefOutput(ctx, 0, 0);
  }
  TF_DeleteStatus(s);
}

static void pd_register_ref_kernels(void) {
  static const struct {
    const char* op;
    const char* type_attr;
    void (*compute)(void*, TF_OpKernelContext*);
    const char* name;
  } kRef[] = {
      {"TemporaryVariable", "dtype", pd_tmpvar_compute,
       "TestDeviceTemporaryVariable"},
      {"Assign", "T", pd_assign_compute, "TestDeviceAssign"},
      {"DestroyTemporaryVariable", "T", pd_destroy_tmpvar_compute,
       "TestDeviceDestroyTemporaryVariable"},
      {"RefIdentity", "T", pd_ref_identity_compute, "TestDeviceRefIdentity"},
  };
  size_t i;
  for (i = 0; i < sizeof kRef / sizeof kRef[0]; i++) {
    TF_KernelBuilder* b = TF_NewKernelBuilder(kRef[i].op, PD_DEVICE_TYPE,
                                              pd_var_create, kRef[i].compute,
                                              pd_free_state);
    pd_constrain(b, kRef[i].type_attr, TF_FLOAT);
    pd_register(b, kRef[i].name);
  }
}

TF_CAPI_EXPORT void TF_InitKernel(void);
void TF_InitKernel(void) {
  TF_KernelBuilder* b;
  b = TF_NewKernelBuilder("AddV2", PD_DEVICE_TYPE, NULL, pd_add_compute, NULL);
  pd_constrain(b, "T", TF_FLOAT);
  pd_constrain(b, "T", TF_INT32);
  TF_KernelBuilder_Priority(b, 1);
  pd_register(b, "TestDeviceAddV2");
  b = TF_NewKernelBuilder("AddV2", PD_DEVICE_TYPE, NULL, pd_wrong_compute,
                          NULL);
  pd_constrain(b, "T", TF_FLOAT);
  TF_KernelBuilder_Priority(b, 0);
  TF_KernelBuilder_Label(b, "never");
  pd_register(b, "TestDeviceAddV2LowPriority");
  b = TF_NewKernelBuilder("Mul", PD_DEVICE_TYPE, NULL, pd_mul_compute, NULL);
  pd_constrain(b, "T", TF_FLOAT);
  pd_constrain(b, "T", TF_INT32);
  pd_register(b, "TestDeviceMul");
  b = TF_NewKernelBuilder("MatMul", PD_DEVICE_TYPE, pd_matmul_create,
                          pd_matmul_compute, pd_free_state);
  pd_constrain(b, "T", TF_FLOAT);
  pd_register(b, "TestDeviceMatMul");
  b = TF_NewKernelBuilder("BiasAdd", PD_DEVICE_TYPE, pd_biasadd_create,
                          pd_biasadd_compute, NULL);
  pd_constrain(b, "T", TF_FLOAT);
  pd_register(b, "TestDeviceBiasAdd");
  b = TF_NewAsyncKernelBuilder("Relu", PD_DEVICE_TYPE, NULL, pd_relu_compute,
                               NULL);
  pd_constrain(b, "T", TF_FLOAT);
  pd_register(b, "TestDeviceRelu");
  b = TF_NewKernelBuilder("Sum", PD_DEVICE_TYPE, pd_sum_create, pd_sum_compute,
                          pd_free_state);
  pd_constrain(b, "T", TF_FLOAT);
  pd_constrain(b, "Tidx", TF_INT32);
  pd_constrain(b, "Tidx", TF_INT64);
  TF_KernelBuilder_HostMemory(b, "reduction_indices");
  pd_register(b, "TestDeviceSum");
  pd_register_ref_kernels();
}

#ifndef PD_OLD
/* ------------------------------------------------------------------------
 * A graph optimizer and a profiler that do nothing. */

static void pd_optimize(void* optimizer, const TF_Buffer* graph,
                        const TF_GrapplerItem* item, TF_Buffer* out,
                        TF_Status* status) {
  (void)optimizer;
  (void)graph;
  (void)item;
  (void)out;
  TF_SetStatus(status, TF_OK, "");
}

TF_CAPI_EXPORT void TF_InitGraph(TP_OptimizerRegistrationParams* params,
                                 TF_Status* status);
void TF_InitGraph(TP_OptimizerRegistrationParams* params, TF_Status* status) {
  params->struct_size = TP_OPTIMIZER_REGISTRATION_PARAMS_STRUCT_SIZE;
  params->device_type = PD_DEVICE_TYPE;
  params->optimizer_configs->struct_size = TP_OPTIMIZER_CONFIGS_STRUCT_SIZE;
  params->optimizer_configs->remapping = TF_TriState_Off;
  params->optimizer->struct_size = TP_OPTIMIZER_STRUCT_SIZE;
  params->optimizer->optimize_func = pd_optimize;
  TF_SetStatus(status, TF_OK, "");
}

static atomic_int pd_profiling;

static void pd_prof_start(const TP_Profiler* p, TF_Status* status) {
  (void)p;
  atomic_store(&pd_profiling, 1);
  TF_SetStatus(status, TF_OK, "");
}

static void pd_prof_stop(const TP_Profiler* p, TF_Status* status) {
  (void)p;
  atomic_store(&pd_profiling, 0);
  TF_SetStatus(status, TF_OK, "");
}

static void pd_prof_collect(const TP_Profiler* p, uint8_t* buffer,
                            size_t* size, TF_Status* status) {
  (void)p;
  (void)buffer;
  *size = 0;
  TF_SetStatus(status, TF_OK, "");
}

static void pd_prof_destroy(TP_Profiler* p) { (void)p; }
static void pd_prof_destroy_fns(TP_ProfilerFns* f) { (void)f; }

TF_CAPI_EXPORT void TF_InitProfiler(TF_ProfilerRegistrationParams* params,
                                    TF_Status* status);
void TF_InitProfiler(TF_ProfilerRegistrationParams* params,
                     TF_Status* status) {
  params->struct_size = TF_PROFILER_REGISTRATION_PARAMS_STRUCT_SIZE;
  params->profiler->struct_size = TP_PROFILER_STRUCT_SIZE;
  params->profiler->device_type = PD_DEVICE_TYPE;
  params->profiler_fns->struct_size = TP_PROFILER_FNS_STRUCT_SIZE;
  params->profiler_fns->start = pd_prof_start;
  params->profiler_fns->stop = pd_prof_stop;
  params->profiler_fns->collect_data_xspace = pd_prof_collect;
  params->destroy_profiler = pd_prof_destroy;
  params->destroy_profiler_fns = pd_prof_destroy_fns;
  TF_SetStatus(status, TF_OK, "");
}
#endif

#endif /* TFE_PY_EXAMPLES_EXAMPLE_DEVICE_H_ */
