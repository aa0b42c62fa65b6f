/* The registry of device kinds and device objects. */
#include "devices/device.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/status_internal.h"

#define MAX_FACTORIES 64

typedef struct factory_slot {
  tfe_device_factory f;
  char type[TFE_DEVICE_TYPE_MAX];
} factory_slot;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static factory_slot g_slots[MAX_FACTORIES];
/* Published count: slots below it are complete and never change. */
static atomic_int g_count;

static int valid_type(const char* t) {
  size_t i, n;
  if (t == NULL) return 0;
  n = strlen(t);
  if (n == 0 || n >= TFE_DEVICE_TYPE_MAX) return 0;
  if (!(t[0] >= 'A' && t[0] <= 'Z')) return 0;
  for (i = 1; i < n; i++) {
    char c = t[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
      return 0;
    }
  }
  return 1;
}

int tfe_device_factory_register(const tfe_device_factory* f, TF_Status* s) {
  int n, i;
  if (f == NULL || !valid_type(f->type)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Device type '%s' is not valid: it must match "
                    "[A-Z][A-Z0-9_]* (at most %d characters)",
                    f == NULL || f->type == NULL ? "(null)" : f->type,
                    TFE_DEVICE_TYPE_MAX - 1);
    return 0;
  }
  pthread_mutex_lock(&g_lock);
  n = atomic_load(&g_count);
  for (i = 0; i < n; i++) {
    if (strcmp(g_slots[i].type, f->type) == 0) {
      pthread_mutex_unlock(&g_lock);
      tfe_status_setf(s, TF_ALREADY_EXISTS,
                      "Device type '%s' is already registered", f->type);
      return 0;
    }
  }
  if (n >= MAX_FACTORIES) {
    pthread_mutex_unlock(&g_lock);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "Too many device types registered (limit %d)",
                    MAX_FACTORIES);
    return 0;
  }
  g_slots[n].f = *f;
  strcpy(g_slots[n].type, f->type);
  g_slots[n].f.type = g_slots[n].type;
  atomic_store(&g_count, n + 1);
  pthread_mutex_unlock(&g_lock);
  tfe_status_ok(s);
  return 1;
}

int tfe_device_factory_count(void) {
  tfe_devices_ensure_builtins();
  return atomic_load(&g_count);
}

const tfe_device_factory* tfe_device_factory_at(int i) {
  if (i < 0 || i >= tfe_device_factory_count()) return NULL;
  return &g_slots[i].f;
}

const tfe_device_factory* tfe_device_factory_find(const char* type) {
  int i, n = tfe_device_factory_count();
  if (type == NULL) return NULL;
  for (i = 0; i < n; i++) {
    if (strcmp(g_slots[i].type, type) == 0) return &g_slots[i].f;
  }
  return NULL;
}

/* Incarnations only need to differ between device instances. */
static uint64_t next_incarnation(void) {
  static _Atomic uint64_t counter;
  uint64_t x = atomic_fetch_add(&counter, 1) + 1;
  uint64_t seed = (uint64_t)time(NULL);
  /* splitmix64 of (seed, counter): well spread and never repeats. */
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + x * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return z == 0 ? 1 : z;
}

void tfe_device_init(tfe_device* d, const tfe_device_factory* f, int id) {
  memset(d, 0, sizeof(*d));
  snprintf(d->name, sizeof(d->name), "%s/device:%s:%d",
           TFE_LOCAL_ADDRESS_SPACE, f->type, id);
  d->factory = f;
  d->type = f->type;
  d->id = id;
  d->is_host = f->is_host;
  d->incarnation = next_incarnation();
  if (f->memory_ops != NULL && f->memory_ops->context_acquire != NULL) {
    f->memory_ops->context_acquire(d);
  }
}

void tfe_device_fini(tfe_device* d) {
  const tfe_device_factory* f;
  if (d == NULL || (f = d->factory) == NULL) return;
  if (f->memory_ops != NULL && f->memory_ops->context_release != NULL) {
    f->memory_ops->context_release(d);
  }
  d->factory = NULL;
}

static tfe_device g_host_cpu;
static pthread_once_t g_host_once = PTHREAD_ONCE_INIT;

static void init_host_cpu(void) {
  const tfe_device_factory* f;
  tfe_devices_ensure_builtins();
  f = tfe_device_factory_find("CPU");
  if (f != NULL) tfe_device_init(&g_host_cpu, f, 0);
}

const tfe_device* tfe_host_cpu_device(void) {
  pthread_once(&g_host_once, init_host_cpu);
  return &g_host_cpu;
}
