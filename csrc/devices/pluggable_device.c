/* PluggableDevice platforms and devices: registry, teardown, streams, the
 * caching allocator and copies. See pluggable_device.h for the model. */
#include "devices/pluggable_device.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "kernels/resource.h"
#include "tensorflow/c/logging.h"

/* Device memory is requested from the plugin in multiples of this. */
#define PD_ROUND 256
/* Cached bytes above which a free triggers returning the cache. */
#define PD_CACHE_LIMIT (256ll * 1024 * 1024)

struct tfe_pmem {
  tfe_pdev* dev;
  SP_DeviceMemoryBase mem;
  uint64_t capacity; /* bytes requested from the plugin */
  SP_Event ready;    /* recorded after a pending host-to-device copy */
  int touched;       /* used by the compute stream since allocation */
  tfe_pmem* next;
  /* Memory the caller owns (TFE_NewTensorHandleFromDeviceMemory): freed
   * with its deallocator, never cached. */
  void (*foreign_free)(void* data, size_t len, void* arg);
  void* foreign_arg;
  int foreign;
};

/* ------------------------------------------------------------------------
 * Registry. */

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static tfe_platform** g_platforms;
static int g_count, g_cap;
static tfe_platform* g_newest; /* load order, newest first */
static int g_atexit_done;

int tfe_platform_count(void) {
  int n;
  pthread_mutex_lock(&g_mu);
  n = g_count;
  pthread_mutex_unlock(&g_mu);
  return n;
}

tfe_platform* tfe_platform_at(int i) {
  tfe_platform* p = NULL;
  pthread_mutex_lock(&g_mu);
  if (i >= 0 && i < g_count) p = g_platforms[i];
  pthread_mutex_unlock(&g_mu);
  return p;
}

tfe_platform* tfe_platform_by_type(const char* type) {
  int i;
  tfe_platform* p = NULL;
  if (type == NULL) return NULL;
  pthread_mutex_lock(&g_mu);
  for (i = 0; i < g_count; i++) {
    if (strcmp(g_platforms[i]->type, type) == 0) {
      p = g_platforms[i];
      break;
    }
  }
  pthread_mutex_unlock(&g_mu);
  return p;
}

void tfe_platform_warn(tfe_platform* p, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  TF_Log(TF_WARNING, "%s", buf);
  if (p != NULL && p->num_warnings < TFE_PD_MAX_WARNINGS) {
    char* w = tfe_strdup(buf);
    if (w != NULL) p->warnings[p->num_warnings++] = w;
  }
}

int tfe_platform_check_unique(const char* path, const char* name,
                              const char* type, TF_Status* s) {
  int i;
  pthread_mutex_lock(&g_mu);
  for (i = 0; i < g_count; i++) {
    const tfe_platform* o = g_platforms[i];
    if (strcmp(o->name, name) == 0 || strcmp(o->type, type) == 0) {
      pthread_mutex_unlock(&g_mu);
      tfe_status_setf(s, TF_ALREADY_EXISTS,
                      "device plugin '%s': platform %s (device type %s) "
                      "conflicts with platform %s (device type %s) loaded "
                      "from '%s'",
                      path, name, type, o->name, o->type, o->path);
      return 0;
    }
  }
  pthread_mutex_unlock(&g_mu);
  tfe_devices_ensure_builtins();
  if (tfe_device_factory_find(type) != NULL) {
    tfe_status_setf(s, TF_ALREADY_EXISTS,
                    "device plugin '%s': device type %s is already "
                    "registered by another device kind",
                    path, type);
    return 0;
  }
  tfe_status_ok(s);
  return 1;
}

/* ------------------------------------------------------------------------
 * Teardown. */

static void destroy_streams(tfe_pdev* d) {
  const SP_StreamExecutor* se = &d->plat->se;
  if (!d->streams_ready) return;
  if (d->compute) se->destroy_stream(&d->dev, d->compute);
  if (d->h2d) se->destroy_stream(&d->dev, d->h2d);
  if (d->d2h) se->destroy_stream(&d->dev, d->d2h);
  d->compute = d->h2d = d->d2h = NULL;
  d->streams_ready = 0;
}

static void pdev_teardown(tfe_pdev* d) {
  tfe_platform* p = d->plat;
  TF_Status* st = TF_NewStatus();
  if (d->created) {
    if (p->have & TFE_PD_HAVE_SE) {
      if (d->streams_ready) tfe_pdev_synchronize(d, st);
      tfe_pdev_release_cache(d);
      destroy_streams(d);
    }
    p->fns.destroy_device(&p->platform, &d->dev);
    d->created = 0;
  }
  TF_DeleteStatus(st);
}

/* Everything in reverse order of creation; the platform struct itself
 * stays (pointers to it may still exist) unless `free_it`. */
static void platform_teardown(tfe_platform* p, int free_it) {
  int i;
  if (p == NULL) return;
  for (i = p->num_devices - 1; i >= 0; i--) {
    if (p->devices[i] != NULL) pdev_teardown(p->devices[i]);
  }
  if (p->has_profiler) {
    if (p->destroy_profiler_fns) p->destroy_profiler_fns(&p->profiler_fns);
    if (p->destroy_profiler) p->destroy_profiler(&p->profiler);
    p->has_profiler = 0;
  }
  if (p->has_optimizer) {
    if (p->optimizer_object != NULL && p->optimizer.destroy_func != NULL) {
      p->optimizer.destroy_func(p->optimizer_object);
    }
    p->optimizer_object = NULL;
    p->has_optimizer = 0;
  }
  if (p->have & TFE_PD_HAVE_TIMER_FNS) {
    p->fns.destroy_timer_fns(&p->platform, &p->timer_fns);
  }
  if (p->have & TFE_PD_HAVE_SE) {
    p->fns.destroy_stream_executor(&p->platform, &p->se);
  }
  if (p->have & TFE_PD_HAVE_DEVICE_FNS) {
    p->fns.destroy_device_fns(&p->platform, &p->device_fns);
  }
  if ((p->have & TFE_PD_HAVE_PLATFORM_FNS) && p->destroy_platform_fns) {
    p->destroy_platform_fns(&p->fns);
  }
  if ((p->have & TFE_PD_HAVE_PLATFORM) && p->destroy_platform) {
    p->destroy_platform(&p->platform);
  }
  p->have = 0;
  if (!free_it) return;
  for (i = 0; i < p->num_devices; i++) {
    if (p->devices[i] != NULL) {
      pthread_mutex_destroy(&p->devices[i]->mu);
      pthread_mutex_destroy(&p->devices[i]->amu);
      tfe_free(p->devices[i]);
    }
  }
  tfe_free(p->devices);
  for (i = 0; i < p->num_warnings; i++) tfe_free(p->warnings[i]);
  tfe_free(p->path);
  tfe_free(p);
}

void tfe_platform_destroy(tfe_platform* p) { platform_teardown(p, 1); }

/* At process exit: newest platform first, so a plugin never outlives one
 * loaded after it. Later buffer releases find `dead` set and do nothing. */
static void teardown_all(void) {
  tfe_platform* p;
  pthread_mutex_lock(&g_mu);
  p = g_newest;
  g_newest = NULL;
  pthread_mutex_unlock(&g_mu);
  for (; p != NULL; p = p->next_load) {
    int i;
    for (i = 0; i < p->num_devices; i++) {
      char prefix[TFE_DEVICE_NAME_MAX];
      snprintf(prefix, sizeof prefix, "%s/device:%s:%d",
               TFE_LOCAL_ADDRESS_SPACE, p->type, i);
      tfe_resources_clear_device(prefix);
    }
    platform_teardown(p, 0);
    p->dead = 1;
  }
}

/* ------------------------------------------------------------------------
 * Publishing. */

static int pd_count(int requested, void* user_data) {
  const tfe_platform* p = (const tfe_platform*)user_data;
  if (requested >= 0 && requested < p->num_devices) return requested;
  return p->num_devices;
}

int tfe_platform_publish(tfe_platform* p, TF_Status* s) {
  tfe_device_factory f;
  int64_t free_b = 0, total_b = 0;
  memset(&f, 0, sizeof f);
  f.type = p->type;
  f.is_host = 0;
  /* TF registers PluggableDevice factories at 220, above CPU (60): an op
   * without a device request runs on the plugin's device when it has a
   * kernel there (csrc/eager/execute.c, docs/PLUGINS.md). */
  f.priority = 220;
  if (p->num_devices > 0 && p->se.device_memory_usage != NULL &&
      p->se.device_memory_usage(&p->devices[0]->dev, &free_b, &total_b)) {
    f.memory_bytes = total_b;
  }
  f.count = pd_count;
  f.user_data = p;
  f.memory_ops = &tfe_pluggable_memory_ops;
  pthread_mutex_lock(&g_mu);
  if (g_count == g_cap) {
    int ncap = g_cap ? g_cap * 2 : 8;
    tfe_platform** n = (tfe_platform**)tfe_realloc(
        g_platforms, sizeof(tfe_platform*) * (size_t)ncap);
    if (n == NULL) {
      pthread_mutex_unlock(&g_mu);
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "device plugin '%s': out of memory", p->path);
      return 0;
    }
    g_platforms = n;
    g_cap = ncap;
  }
  if (!tfe_device_factory_register(&f, s)) {
    pthread_mutex_unlock(&g_mu);
    return 0;
  }
  g_platforms[g_count++] = p;
  p->next_load = g_newest;
  g_newest = p;
  p->published = 1;
  if (!g_atexit_done) {
    g_atexit_done = 1;
    atexit(teardown_all);
  }
  pthread_mutex_unlock(&g_mu);
  tfe_status_ok(s);
  return 1;
}

/* ------------------------------------------------------------------------
 * Devices. */

tfe_pdev* tfe_pdev_find(const char* type, int ordinal) {
  tfe_platform* p = tfe_platform_by_type(type);
  if (p == NULL || p->dead || ordinal < 0 || ordinal >= p->num_devices) {
    return NULL;
  }
  return p->devices[ordinal];
}

tfe_pdev* tfe_pdev_from_name(const char* name) {
  tfe_device_spec spec;
  if (name == NULL || !tfe_device_spec_parse(name, &spec) || !spec.has_type) {
    return NULL;
  }
  return tfe_pdev_find(spec.type, spec.has_id ? spec.id : 0);
}

tfe_pdev* tfe_pdev_of_device(const tfe_device* d) {
  tfe_platform* p;
  if (d == NULL || d->factory == NULL ||
      d->factory->memory_ops != &tfe_pluggable_memory_ops) {
    return NULL;
  }
  p = (tfe_platform*)d->factory->user_data;
  if (p == NULL || p->dead || d->id < 0 || d->id >= p->num_devices) {
    return NULL;
  }
  return p->devices[d->id];
}

void tfe_pdev_lock(tfe_pdev* d) { pthread_mutex_lock(&d->mu); }
void tfe_pdev_unlock(tfe_pdev* d) { pthread_mutex_unlock(&d->mu); }

static int ensure_streams_locked(tfe_pdev* d, TF_Status* s) {
  const SP_StreamExecutor* se = &d->plat->se;
  SP_Stream made[3] = {NULL, NULL, NULL};
  int i;
  if (d->streams_ready) return 1;
  if (d->plat->dead) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "device %s:%d has been shut down", d->plat->type,
                    d->ordinal);
    return 0;
  }
  for (i = 0; i < 3; i++) {
    tfe_status_ok(s);
    se->create_stream(&d->dev, &made[i], s);
    if (TF_GetCode(s) == TF_OK && made[i] == NULL)
      tfe_status_setf(s, TF_INTERNAL,
                      "plugin for %s: SP_StreamExecutor.create_stream "
                      "returned OK but left the SP_Stream NULL",
                      d->plat->type);
    if (TF_GetCode(s) != TF_OK) {
      int j;
      for (j = 0; j < i; j++) se->destroy_stream(&d->dev, made[j]);
      return 0;
    }
  }
  d->compute = made[0];
  d->h2d = made[1];
  d->d2h = made[2];
  d->streams_ready = 1;
  return 1;
}

SP_Stream tfe_pdev_compute_stream_locked(tfe_pdev* d, TF_Status* s) {
  if (!ensure_streams_locked(d, s)) return NULL;
  tfe_status_ok(s);
  return d->compute;
}

/* Creates an event through the plugin; an OK answer with a NULL event is
   the plugin's bug and becomes INTERNAL (the event is never used). */
static int new_event(tfe_pdev* d, SP_Event* ev, TF_Status* s) {
  *ev = NULL;
  d->plat->se.create_event(&d->dev, ev, s);
  if (TF_GetCode(s) == TF_OK && *ev == NULL)
    tfe_status_setf(s, TF_INTERNAL,
                    "plugin for %s: SP_StreamExecutor.create_event returned "
                    "OK but left the SP_Event NULL",
                    d->plat->type);
  return TF_GetCode(s) == TF_OK;
}

/* Blocks until the work enqueued on `stream` so far is done. */
static int wait_stream(tfe_pdev* d, SP_Stream stream, TF_Status* s) {
  const SP_StreamExecutor* se = &d->plat->se;
  SP_Event ev = NULL;
  tfe_status_ok(s);
  if (se->block_host_until_done != NULL) {
    se->block_host_until_done(&d->dev, stream, s);
    return TF_GetCode(s) == TF_OK;
  }
  if (!new_event(d, &ev, s)) return 0;
  se->record_event(&d->dev, stream, ev, s);
  if (TF_GetCode(s) == TF_OK) se->block_host_for_event(&d->dev, ev, s);
  se->destroy_event(&d->dev, ev);
  return TF_GetCode(s) == TF_OK;
}

int tfe_pdev_synchronize(tfe_pdev* d, TF_Status* s) {
  tfe_status_ok(s);
  if (d == NULL || d->plat->dead) return 1;
  if (!d->streams_ready) {
    d->plat->se.synchronize_all_activity(&d->dev, s);
    return TF_GetCode(s) == TF_OK;
  }
  return wait_stream(d, d->compute, s) && wait_stream(d, d->h2d, s) &&
         wait_stream(d, d->d2h, s);
}

/* ------------------------------------------------------------------------
 * Allocator. */

static void pmem_release(void* data, size_t len, void* arg);

tfe_pdev* tfe_pdev_tensor_device(const TF_Tensor* t) {
  if (t == NULL || t->buf == NULL || t->buf->dealloc != pmem_release) {
    return NULL;
  }
  return ((const tfe_pmem*)t->buf->dealloc_arg)->dev;
}

SP_DeviceMemoryBase tfe_pdev_tensor_memory(const TF_Tensor* t) {
  SP_DeviceMemoryBase m;
  if (tfe_pdev_tensor_device(t) == NULL) {
    memset(&m, 0, sizeof m);
    m.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
    return m;
  }
  return ((const tfe_pmem*)t->buf->dealloc_arg)->mem;
}

static tfe_pmem* block_of(const TF_Tensor* t) {
  return tfe_pdev_tensor_device(t) ? (tfe_pmem*)t->buf->dealloc_arg : NULL;
}

/* Retires a completed ready event (returns 1 when none is pending). */
static int retire_ready(tfe_pdev* d, tfe_pmem* m) {
  if (m->ready == NULL) return 1;
  if (d->plat->se.get_event_status(&d->dev, m->ready) == SE_EVENT_COMPLETE) {
    d->plat->se.destroy_event(&d->dev, m->ready);
    m->ready = NULL;
    return 1;
  }
  return 0;
}

int64_t tfe_pdev_release_cache(tfe_pdev* d) {
  tfe_pmem* list;
  int64_t bytes;
  TF_Status* st;
  if (d == NULL) return 0;
  pthread_mutex_lock(&d->amu);
  list = d->cache;
  bytes = d->cached_bytes;
  d->cache = NULL;
  d->cached_bytes = 0;
  pthread_mutex_unlock(&d->amu);
  if (list == NULL) return 0;
  st = TF_NewStatus();
  /* Blocks may still be read by work queued before they were freed. */
  if (d->streams_ready && !d->plat->dead) tfe_pdev_synchronize(d, st);
  while (list != NULL) {
    tfe_pmem* m = list;
    list = m->next;
    if (!d->plat->dead) {
      d->plat->se.deallocate(&d->dev, &m->mem);
      pthread_mutex_lock(&d->amu);
      d->plugin_frees++;
      pthread_mutex_unlock(&d->amu);
    }
    tfe_free(m);
  }
  TF_DeleteStatus(st);
  return bytes;
}

/* Called when the last tensor sharing a block goes. */
static void pmem_release(void* data, size_t len, void* arg) {
  tfe_pmem* m = (tfe_pmem*)arg;
  tfe_pdev* d = m->dev;
  int trim;
  if (m->foreign) {
    if (m->ready != NULL && !d->plat->dead) {
      TF_Status* st = TF_NewStatus();
      d->plat->se.block_host_for_event(&d->dev, m->ready, st);
      d->plat->se.destroy_event(&d->dev, m->ready);
      TF_DeleteStatus(st);
    }
    if (m->foreign_free != NULL) m->foreign_free(data, len, m->foreign_arg);
    tfe_free(m);
    return;
  }
  if (d->plat->dead) {
    tfe_free(m);
    return;
  }
  if (m->ready != NULL) {
    /* A copy into the block may still be running: wait for it. */
    TF_Status* st = TF_NewStatus();
    d->plat->se.block_host_for_event(&d->dev, m->ready, st);
    d->plat->se.destroy_event(&d->dev, m->ready);
    m->ready = NULL;
    TF_DeleteStatus(st);
  }
  pthread_mutex_lock(&d->amu);
  d->in_use_bytes -= (int64_t)m->capacity;
  d->live_blocks--;
  if (m->capacity == 0) {
    pthread_mutex_unlock(&d->amu);
    tfe_free(m);
    return;
  }
  m->next = d->cache;
  d->cache = m;
  d->cached_bytes += (int64_t)m->capacity;
  /* No context uses the device any more: nothing to cache for. */
  trim = d->cached_bytes > PD_CACHE_LIMIT || d->ctx_users == 0;
  pthread_mutex_unlock(&d->amu);
  if (trim) tfe_pdev_release_cache(d);
}

/* A block of at least `bytes`; NULL with status set. */
static tfe_pmem* block_alloc(tfe_pdev* d, uint64_t bytes, TF_Status* s) {
  uint64_t cap = bytes == 0 ? 0 : (bytes + PD_ROUND - 1) / PD_ROUND * PD_ROUND;
  tfe_pmem *m, **best = NULL, **pp;
  int attempt;
  if (d->plat->dead) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "device %s:%d has been shut down", d->plat->type,
                    d->ordinal);
    return NULL;
  }
  pthread_mutex_lock(&d->amu);
  if (cap > 0) {
    /* Best fit among cached blocks no more than twice as large. */
    for (pp = &d->cache; *pp != NULL; pp = &(*pp)->next) {
      uint64_t c = (*pp)->capacity;
      if (c >= cap && c <= 2 * cap && (best == NULL || c < (*best)->capacity)) {
        best = pp;
        if (c == cap) break;
      }
    }
  }
  if (best != NULL) {
    m = *best;
    *best = m->next;
    m->next = NULL;
    d->cached_bytes -= (int64_t)m->capacity;
    d->cache_hits++;
    d->in_use_bytes += (int64_t)m->capacity;
    if (d->in_use_bytes > d->peak_in_use_bytes) {
      d->peak_in_use_bytes = d->in_use_bytes;
    }
    d->live_blocks++;
    pthread_mutex_unlock(&d->amu);
    return m;
  }
  pthread_mutex_unlock(&d->amu);

  m = (tfe_pmem*)tfe_calloc(1, sizeof(*m));
  if (m == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of host memory allocating on %s:%d", d->plat->type,
                    d->ordinal);
    return NULL;
  }
  m->dev = d;
  m->capacity = cap;
  m->mem.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  for (attempt = 0; cap > 0 && attempt < 2; attempt++) {
    memset(&m->mem, 0, sizeof m->mem);
    m->mem.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
    d->plat->se.allocate(&d->dev, cap, 0, &m->mem);
    pthread_mutex_lock(&d->amu);
    d->plugin_allocs++;
    pthread_mutex_unlock(&d->amu);
    if (m->mem.opaque != NULL) break;
    /* Out of device memory: give the cache back and try once more. */
    if (attempt == 0 && tfe_pdev_release_cache(d) == 0) attempt++;
  }
  if (cap > 0 && m->mem.opaque == NULL) {
    tfe_free(m);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "OOM when allocating %llu bytes on /job:localhost/"
                    "replica:0/task:0/device:%s:%d (the plugin's allocate "
                    "returned no memory)",
                    (unsigned long long)bytes, d->plat->type, d->ordinal);
    return NULL;
  }
  if (cap > 0 && m->mem.struct_size == 0) {
    tfe_platform_warn(d->plat,
                      "device plugin '%s': allocate left the struct_size "
                      "field of SP_DeviceMemoryBase at 0; it must be set to "
                      "SP_DEVICE_MEMORY_BASE_STRUCT_SIZE",
                      d->plat->path);
    m->mem.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  }
  pthread_mutex_lock(&d->amu);
  d->in_use_bytes += (int64_t)cap;
  if (d->in_use_bytes > d->peak_in_use_bytes) {
    d->peak_in_use_bytes = d->in_use_bytes;
  }
  d->live_blocks++;
  pthread_mutex_unlock(&d->amu);
  return m;
}

/* A tensor over block m (which the tensor's buffer then owns). */
static TF_Tensor* tensor_over(tfe_pmem* m, TF_DataType dtype,
                              const int64_t* dims, int num_dims, size_t bytes,
                              TF_Status* s) {
  tfe_tensor_buffer* b = (tfe_tensor_buffer*)tfe_calloc(1, sizeof(*b));
  TF_Tensor* t;
  if (b == NULL) {
    pmem_release(m->mem.opaque, bytes, m);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of host memory");
    return NULL;
  }
  atomic_init(&b->refcount, 1);
  b->data = m->mem.opaque;
  b->len = bytes;
  b->dealloc = pmem_release;
  b->dealloc_arg = m;
  tfe_count_inc(TFE_OBJ_TENSOR_BUFFER);
  t = tfe_tensor_from_buffer(dtype, dims, num_dims, b);
  tfe_buffer_unref(b); /* gives the block back when t failed */
  if (t == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of host memory");
    return NULL;
  }
  return t;
}

static int plain_bytes(TF_DataType dtype, const int64_t* dims, int num_dims,
                       size_t* out, const char* where, TF_Status* s) {
  int64_t n;
  size_t esz;
  if (num_dims < 0 || num_dims > TFE_MAX_DIMS ||
      (num_dims > 0 && dims == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: invalid rank %d", where,
                    num_dims);
    return 0;
  }
  n = tfe_shape_num_elements(dims, num_dims);
  esz = TF_DataTypeSize(dtype);
  if (dtype == TF_STRING || dtype == TF_RESOURCE || dtype == TF_VARIANT ||
      esz == 0) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: tensors of dtype %d cannot live in device memory "
                    "(only fixed-size types can)",
                    where, (int)dtype);
    return 0;
  }
  if (n < 0 || !tfe_mul_size((size_t)n, esz, out)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: invalid shape", where);
    return 0;
  }
  return 1;
}

TF_Tensor* tfe_pdev_alloc_tensor(tfe_pdev* d, TF_DataType dtype,
                                 const int64_t* dims, int num_dims,
                                 int for_compute, TF_Status* s) {
  size_t bytes;
  tfe_pmem* m;
  TF_Tensor* t;
  if (!plain_bytes(dtype, dims, num_dims, &bytes, "device allocation", s)) {
    return NULL;
  }
  m = block_alloc(d, bytes, s);
  if (m == NULL) return NULL;
  m->touched = m->touched || for_compute;
  t = tensor_over(m, dtype, dims, num_dims, bytes, s);
  if (t != NULL) tfe_status_ok(s);
  return t;
}

TF_Tensor* tfe_pdev_wrap_memory(tfe_pdev* d, TF_DataType dtype,
                                const int64_t* dims, int num_dims, void* data,
                                size_t len,
                                void (*deallocator)(void*, size_t, void*),
                                void* deallocator_arg, TF_Status* s) {
  size_t bytes;
  tfe_pmem* m;
  if (!plain_bytes(dtype, dims, num_dims, &bytes, "device memory handle",
                   s)) {
    if (deallocator != NULL) deallocator(data, len, deallocator_arg);
    return NULL;
  }
  m = (tfe_pmem*)tfe_calloc(1, sizeof(*m));
  if (m == NULL) {
    if (deallocator != NULL) deallocator(data, len, deallocator_arg);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of host memory");
    return NULL;
  }
  m->dev = d;
  m->foreign = 1;
  m->touched = 1; /* unknown history: order after queued compute work */
  m->foreign_free = deallocator;
  m->foreign_arg = deallocator_arg;
  m->mem.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  m->mem.opaque = data;
  m->mem.size = len;
  (void)bytes;
  return tensor_over(m, dtype, dims, num_dims, len, s);
}

/* ------------------------------------------------------------------------
 * Ordering around kernels. */

int tfe_pdev_prepare_inputs_locked(tfe_pdev* d, TF_Tensor* const* ins, int n,
                                   TF_Status* s) {
  int i, need_h2d = 0;
  tfe_status_ok(s);
  if (!ensure_streams_locked(d, s)) return 0;
  for (i = 0; i < n; i++) {
    tfe_pmem* m = block_of(ins[i]);
    if (m == NULL || m->dev != d) continue;
    if (!retire_ready(d, m)) need_h2d = 1;
    m->touched = 1;
  }
  if (need_h2d) {
    d->plat->se.create_stream_dependency(&d->dev, d->compute, d->h2d, s);
    if (TF_GetCode(s) != TF_OK) return 0;
  }
  return 1;
}

void tfe_pdev_mark_compute(const TF_Tensor* t) {
  tfe_pmem* m = block_of(t);
  if (m != NULL) m->touched = 1;
}

/* ------------------------------------------------------------------------
 * Copies. */

static void release_host_buffer(void* arg, TF_Status* status) {
  tfe_buffer_unref((tfe_tensor_buffer*)arg);
  if (status != NULL) tfe_status_ok(status);
}

TF_Tensor* tfe_pdev_copy_from_host(tfe_pdev* d, const TF_Tensor* host,
                                   TF_Status* s) {
  const SP_StreamExecutor* se = &d->plat->se;
  size_t bytes;
  TF_Tensor* t;
  tfe_pmem* m;
  SP_Event ev = NULL;
  if (!plain_bytes(host->dtype, host->dims, host->num_dims, &bytes,
                   "copy to device", s)) {
    return NULL;
  }
  tfe_pdev_lock(d);
  if (!ensure_streams_locked(d, s)) goto fail_locked;
  t = tfe_pdev_alloc_tensor(d, host->dtype, host->dims, host->num_dims, 0, s);
  if (t == NULL) goto fail_locked;
  if (bytes == 0) {
    tfe_pdev_unlock(d);
    return t;
  }
  m = block_of(t);
  tfe_status_ok(s);
  if (m->touched) {
    /* A reused block may still be read by queued kernels. */
    se->create_stream_dependency(&d->dev, d->h2d, d->compute, s);
    if (TF_GetCode(s) != TF_OK) goto fail_tensor;
  }
  se->memcpy_htod(&d->dev, d->h2d, &m->mem, host->buf->data, bytes, s);
  if (TF_GetCode(s) != TF_OK) goto fail_tensor;
  if (new_event(d, &ev, s)) {
    se->record_event(&d->dev, d->h2d, ev, s);
    if (TF_GetCode(s) != TF_OK) {
      se->destroy_event(&d->dev, ev);
      ev = NULL;
    }
  }
  if (ev == NULL) {
    /* No event: finish the copy now. */
    if (!wait_stream(d, d->h2d, s)) goto fail_tensor;
  } else {
    m->ready = ev;
    /* The host buffer must outlive the copy: release it from the stream. */
    tfe_buffer_ref(host->buf);
    if (!se->host_callback(&d->dev, d->h2d, release_host_buffer, host->buf)) {
      TF_Status* st = TF_NewStatus();
      se->block_host_for_event(&d->dev, ev, st);
      TF_DeleteStatus(st);
      tfe_buffer_unref(host->buf);
    }
  }
  tfe_pdev_unlock(d);
  tfe_status_ok(s);
  return t;

fail_tensor:
  tfe_pdev_unlock(d);
  TF_DeleteTensor(t);
  return NULL;
fail_locked:
  tfe_pdev_unlock(d);
  return NULL;
}

TF_Tensor* tfe_pdev_copy_to_host(const TF_Tensor* t, TF_Status* s) {
  tfe_pmem* m = block_of(t);
  tfe_pdev* d;
  const SP_StreamExecutor* se;
  TF_Tensor* host;
  size_t bytes;
  if (m == NULL) {
    tfe_status_setf(s, TF_INTERNAL, "copy to host: not a device tensor");
    return NULL;
  }
  d = m->dev;
  se = &d->plat->se;
  bytes = t->buf->len;
  host = TF_AllocateTensor(t->dtype, t->dims, t->num_dims, bytes);
  if (host == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "out of host memory copying %zu bytes from the device",
                    bytes);
    return NULL;
  }
  if (bytes == 0) {
    tfe_status_ok(s);
    return host;
  }
  tfe_pdev_lock(d);
  if (!ensure_streams_locked(d, s)) goto fail;
  tfe_status_ok(s);
  if (m->touched) {
    se->create_stream_dependency(&d->dev, d->d2h, d->compute, s);
    if (TF_GetCode(s) != TF_OK) goto fail;
  }
  if (!retire_ready(d, m)) {
    se->create_stream_dependency(&d->dev, d->d2h, d->h2d, s);
    if (TF_GetCode(s) != TF_OK) goto fail;
  }
  se->memcpy_dtoh(&d->dev, d->d2h, host->buf->data, &m->mem, bytes, s);
  if (TF_GetCode(s) != TF_OK) goto fail;
  if (!wait_stream(d, d->d2h, s)) goto fail;
  tfe_pdev_unlock(d);
  return host;
fail:
  tfe_pdev_unlock(d);
  TF_DeleteTensor(host);
  return NULL;
}

/* Between two devices of one platform with the plugin's memcpy_dtod, as
 * TF's PluggableDevice does it: on a stream of the source device (its d2h
 * stream here), ordered after the writers of the source block and after
 * the destination device's compute stream (which may still read a reused
 * destination block); the host waits for the copy, so the result is ready
 * for any stream of the destination. Never holds both device locks. */
static TF_Tensor* copy_peer(tfe_pdev* dst, const TF_Tensor* t, TF_Status* s) {
  tfe_pmem* m = block_of(t);
  tfe_pdev* src = m->dev;
  const SP_StreamExecutor* se = &src->plat->se;
  TF_Tensor* out;
  tfe_pmem* om;
  tfe_pdev_lock(dst);
  if (!ensure_streams_locked(dst, s)) {
    tfe_pdev_unlock(dst);
    return NULL;
  }
  out = tfe_pdev_alloc_tensor(dst, t->dtype, t->dims, t->num_dims, 0, s);
  tfe_pdev_unlock(dst);
  if (out == NULL) return NULL;
  if (t->buf->len == 0) return out;
  om = block_of(out);
  tfe_pdev_lock(src);
  if (!ensure_streams_locked(src, s)) goto fail;
  tfe_status_ok(s);
  if (m->touched) {
    se->create_stream_dependency(&src->dev, src->d2h, src->compute, s);
    if (TF_GetCode(s) != TF_OK) goto fail;
  }
  if (!retire_ready(src, m)) {
    se->create_stream_dependency(&src->dev, src->d2h, src->h2d, s);
    if (TF_GetCode(s) != TF_OK) goto fail;
  }
  if (om->touched) {
    se->create_stream_dependency(&src->dev, src->d2h, dst->compute, s);
    if (TF_GetCode(s) != TF_OK) goto fail;
  }
  se->memcpy_dtod(&src->dev, src->d2h, &om->mem, &m->mem, t->buf->len, s);
  if (TF_GetCode(s) != TF_OK) goto fail;
  if (!wait_stream(src, src->d2h, s)) goto fail;
  tfe_pdev_unlock(src);
  return out;
fail:
  tfe_pdev_unlock(src);
  TF_DeleteTensor(out);
  return NULL;
}

TF_Tensor* tfe_pdev_copy_device_to_device(tfe_pdev* dst, const TF_Tensor* t,
                                          TF_Status* s) {
  tfe_pmem* m = block_of(t);
  const SP_StreamExecutor* se;
  TF_Tensor* out;
  TF_Tensor* host;
  tfe_pmem* om;
  if (m == NULL) {
    tfe_status_setf(s, TF_INTERNAL, "device copy: not a device tensor");
    return NULL;
  }
  se = &dst->plat->se;
  if (se->memcpy_dtod != NULL && m->dev != dst && m->dev->plat == dst->plat) {
    return copy_peer(dst, t, s);
  }
  if (m->dev != dst || se->memcpy_dtod == NULL) {
    /* Another platform, or no memcpy_dtod: through the host. */
    host = tfe_pdev_copy_to_host(t, s);
    if (host == NULL) return NULL;
    out = tfe_pdev_copy_from_host(dst, host, s);
    TF_DeleteTensor(host);
    return out;
  }
  tfe_pdev_lock(dst);
  if (!ensure_streams_locked(dst, s)) {
    tfe_pdev_unlock(dst);
    return NULL;
  }
  out = tfe_pdev_alloc_tensor(dst, t->dtype, t->dims, t->num_dims, 1, s);
  if (out == NULL) {
    tfe_pdev_unlock(dst);
    return NULL;
  }
  om = block_of(out);
  tfe_status_ok(s);
  if (t->buf->len > 0) {
    if (!retire_ready(dst, m)) {
      se->create_stream_dependency(&dst->dev, dst->compute, dst->h2d, s);
    }
    if (TF_GetCode(s) == TF_OK) {
      se->memcpy_dtod(&dst->dev, dst->compute, &om->mem, &m->mem,
                      t->buf->len, s);
    }
    m->touched = 1;
  }
  tfe_pdev_unlock(dst);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteTensor(out);
    return NULL;
  }
  return out;
}

/* ------------------------------------------------------------------------
 * Fills. */

int tfe_pdev_fill(const TF_Tensor* t, int which, uint32_t pattern,
                  TF_Status* s) {
  tfe_pmem* m = block_of(t);
  tfe_pdev* d;
  const SP_StreamExecutor* se;
  size_t bytes;
  unsigned char* host = NULL;
  if (m == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "fill: not a device tensor");
    return 0;
  }
  d = m->dev;
  se = &d->plat->se;
  bytes = t->buf->len;
  if (which == 2 && bytes % 4 != 0) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "memset32 needs a multiple of 4 bytes, got %zu", bytes);
    return 0;
  }
  tfe_pdev_lock(d);
  if (!ensure_streams_locked(d, s)) goto out;
  tfe_status_ok(s);
  if (!retire_ready(d, m)) {
    se->create_stream_dependency(&d->dev, d->compute, d->h2d, s);
    if (TF_GetCode(s) != TF_OK) goto out;
  }
  m->touched = 1;
  if (bytes == 0) goto out;
  if (which == 0 && se->mem_zero != NULL) {
    se->mem_zero(&d->dev, d->compute, &m->mem, bytes, s);
  } else if (which == 1 && se->memset != NULL) {
    se->memset(&d->dev, d->compute, &m->mem, (uint8_t)pattern, bytes, s);
  } else if (which == 2 && se->memset32 != NULL) {
    se->memset32(&d->dev, d->compute, &m->mem, pattern, bytes, s);
  } else {
    /* Emulation for older plugins: copy a host pattern in. */
    size_t i;
    host = (unsigned char*)tfe_malloc(bytes);
    if (host == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of host memory");
      goto out;
    }
    if (which == 2) {
      for (i = 0; i < bytes; i += 4) memcpy(host + i, &pattern, 4);
    } else {
      memset(host, which == 0 ? 0 : (int)(pattern & 0xff), bytes);
    }
    se->memcpy_htod(&d->dev, d->compute, &m->mem, host, bytes, s);
  }
  if (TF_GetCode(s) == TF_OK) wait_stream(d, d->compute, s);
out:
  tfe_pdev_unlock(d);
  tfe_free(host);
  return TF_GetCode(s) == TF_OK;
}

/* ------------------------------------------------------------------------
 * Memory hooks of the device kinds. */

static TF_Tensor* hook_from_host(const tfe_device* dst, const TF_Tensor* host,
                                 TF_Status* s) {
  tfe_pdev* d = tfe_pdev_of_device(dst);
  if (d == NULL) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION, "device %s is not available",
                    dst->name);
    return NULL;
  }
  return tfe_pdev_copy_from_host(d, host, s);
}

static TF_Tensor* hook_to_host(const tfe_device* src, const TF_Tensor* t,
                               TF_Status* s) {
  if (tfe_pdev_tensor_device(t) == NULL) {
    tfe_status_setf(s, TF_INTERNAL,
                    "a tensor of %s is not in that device's memory",
                    src->name);
    return NULL;
  }
  return tfe_pdev_copy_to_host(t, s);
}

static TF_Tensor* hook_between(const tfe_device* dst, const tfe_device* src,
                               const TF_Tensor* t, TF_Status* s) {
  tfe_pdev* d = tfe_pdev_of_device(dst);
  (void)src;
  if (d == NULL) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION, "device %s is not available",
                    dst->name);
    return NULL;
  }
  return tfe_pdev_copy_device_to_device(d, t, s);
}

/* Contexts holding the device: when the last one goes, the cached blocks
 * go back to the plugin. */
static void hook_acquire(const tfe_device* dev) {
  tfe_pdev* d = tfe_pdev_of_device(dev);
  if (d == NULL) return;
  pthread_mutex_lock(&d->amu);
  d->ctx_users++;
  pthread_mutex_unlock(&d->amu);
}

static void hook_release(const tfe_device* dev) {
  tfe_pdev* d = tfe_pdev_of_device(dev);
  int last;
  if (d == NULL) return;
  pthread_mutex_lock(&d->amu);
  last = d->ctx_users > 0 && --d->ctx_users == 0;
  pthread_mutex_unlock(&d->amu);
  if (last) tfe_pdev_release_cache(d);
}

const tfe_device_memory_ops tfe_pluggable_memory_ops = {
    hook_from_host, hook_to_host, hook_between, hook_acquire, hook_release};
