/* Contexts: options, creation, the zombie lifetime, devices, per-thread
 * settings and the small context-level settings of the experimental API. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "devices/device_list.h"
#include "eager/custom_device.h"
#include "eager/eager_internal.h"
#include "eager/executor.h"
#include "kernels/ref_var.h"
#include "kernels/cpu/collective.h"
#include "kernels/resource.h"
#include "tensorflow/c/logging.h"

#define TLS_SLOTS 16
#define MAX_LOGICAL_CPUS 1024

/* ------------------------------------------------------------------------
 * Context options. */

TFE_ContextOptions* TFE_NewContextOptions(void) {
  TFE_ContextOptions* o = (TFE_ContextOptions*)tfe_calloc(1, sizeof(*o));
  if (o == NULL) return NULL;
  o->policy = TFE_DEVICE_PLACEMENT_SILENT;
  o->cpu_count = -1;
  o->intra_op_threads = -1;
  o->inter_op_threads = -1;
  return o;
}

void TFE_ContextOptionsSetConfig(TFE_ContextOptions* options,
                                 const void* proto, size_t proto_len,
                                 TF_Status* status) {
  if (options == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ContextOptionsSetConfig: options is NULL");
    return;
  }
  if ((proto == NULL && proto_len > 0) || proto_len > (size_t)PTRDIFF_MAX) {
    /* (No buffer is longer than PTRDIFF_MAX: proto + proto_len would wrap
     * around.) */
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ContextOptionsSetConfig: proto is %s but "
                    "proto_len is %zu",
                    proto == NULL ? "NULL" : "a buffer", proto_len);
    return;
  }
  tfe_config_proto_parse(proto, proto_len, options, status);
}

void TFE_ContextOptionsSetAsync(TFE_ContextOptions* options,
                                unsigned char enable) {
  if (options != NULL) options->async = enable != 0;
}

void TFE_ContextOptionsSetDevicePlacementPolicy(
    TFE_ContextOptions* options, TFE_ContextDevicePlacementPolicy policy) {
  if (options == NULL) return;
  if ((int)policy < 0 || (int)policy > 3) return;
  options->policy = policy;
}

void TFE_DeleteContextOptions(TFE_ContextOptions* options) {
  tfe_free(options);
}

void TFE_ContextOptionsSetTfrt(TFE_ContextOptions* options, bool use_tfrt) {
  if (options != NULL) options->use_tfrt = use_tfrt;
}

/* ------------------------------------------------------------------------
 * Creation and lifetime. */

static _Atomic uint64_t g_next_ctx_id = 1;

static void ctx_free(TFE_Context* ctx) {
  int i, n;
  /* The default executor's worker (may be the calling thread). */
  tfe_executor_ctx_release(ctx);
  tfe_custom_devices_free(ctx);
  tfe_kcache_destroy(&ctx->cache);
  tfe_ctx_flib_free(ctx);
  /* Resources kernels kept for this context (kernels/resource.h). */
  tfe_resources_clear_context(ctx->id);
  /* Its temporary variables (kernels/ref_var.h). */
  tfe_tmpvars_clear_context(ctx->id);
  /* Its collective groups (kernels/cpu/collective.h). */
  tfe_collectives_clear_context(ctx->id);
  n = atomic_load(&ctx->num_devices);
  for (i = 0; i < n; i++) {
    /* The kind learns the context let go (a PluggableDevice may return
     * its cached memory to the plugin). */
    tfe_device_fini(ctx->devices[i]);
    tfe_free(ctx->devices[i]);
  }
  if (ctx->executed_names != NULL) {
    for (i = 0; i < ctx->executed_count; i++) {
      tfe_free(ctx->executed_names[(ctx->executed_start + i) %
                                   TFE_EXECUTED_NAMES_MAX]);
    }
    tfe_free(ctx->executed_names);
  }
  pthread_mutex_destroy(&ctx->lock);
  ctx->magic = TFE_DEAD_MAGIC;
  tfe_free(ctx);
  tfe_count_dec(TFE_OBJ_CONTEXT);
}

void tfe_ctx_ref(TFE_Context* ctx) {
  atomic_fetch_add_explicit(&ctx->refs, 1, memory_order_relaxed);
}

void tfe_ctx_unref(TFE_Context* ctx) {
  if (atomic_fetch_sub_explicit(&ctx->refs, 1, memory_order_acq_rel) == 1) {
    ctx_free(ctx);
  }
}

/* Adds device `id` of kind f; 0 on OOM or when the table is full. */
static int add_device(TFE_Context* ctx, const tfe_device_factory* f, int id) {
  int n = atomic_load(&ctx->num_devices);
  tfe_device* d;
  if (n >= TFE_MAX_CONTEXT_DEVICES) return 0;
  d = (tfe_device*)tfe_malloc(sizeof(*d));
  if (d == NULL) return 0;
  tfe_device_init(d, f, id);
  ctx->devices[n] = d;
  atomic_store_explicit(&ctx->num_devices, n + 1, memory_order_release);
  return 1;
}

TFE_Context* TFE_NewContext(const TFE_ContextOptions* opts,
                            TF_Status* status) {
  TFE_ContextOptions defaults;
  TFE_Context* ctx;
  int i, nf, best_priority = -2147483647;

  if (opts == NULL) {
    memset(&defaults, 0, sizeof(defaults));
    defaults.policy = TFE_DEVICE_PLACEMENT_SILENT;
    defaults.cpu_count = defaults.intra_op_threads =
        defaults.inter_op_threads = -1;
    opts = &defaults;
  }
  tfe_ops_ensure_builtins();
  tfe_kernels_ensure_builtins();
  tfe_devices_ensure_builtins();

  ctx = (TFE_Context*)tfe_calloc(1, sizeof(*ctx));
  if (ctx == NULL) goto oom;
  ctx->magic = TFE_CTX_MAGIC;
  atomic_init(&ctx->refs, 1);
  atomic_init(&ctx->deleted, 0);
  ctx->id = atomic_fetch_add(&g_next_ctx_id, 1);
  ctx->policy = opts->policy;
  ctx->is_async = opts->async;
  ctx->intra_op_threads = opts->intra_op_threads;
  ctx->inter_op_threads = opts->inter_op_threads;
  atomic_init(&ctx->soft_placement, opts->soft_placement != 0);
  atomic_init(&ctx->log_placement, 0);
  atomic_init(&ctx->step_depth, 0);
  atomic_init(&ctx->num_devices, 0);
  atomic_init(&ctx->devices_gen, 1);
  atomic_init(&ctx->custom_devices, NULL);
  atomic_init(&ctx->num_custom, 0);
  atomic_init(&ctx->flib, NULL);
  tfe_kcache_init(&ctx->cache);
  ctx->default_executor.is_async = opts->async;
  ctx->default_executor.in_flight_nodes_limit = 32;
  if (pthread_mutex_init(&ctx->lock, NULL) != 0) {
    tfe_free(ctx);
    goto oom;
  }
  tfe_count_inc(TFE_OBJ_CONTEXT);

  /* Every registered device kind contributes its devices. */
  nf = tfe_device_factory_count();
  for (i = 0; i < nf; i++) {
    const tfe_device_factory* f = tfe_device_factory_at(i);
    int requested = strcmp(f->type, "CPU") == 0 ? opts->cpu_count : -1;
    int n, k;
    if (f->count != NULL) {
      n = f->count(requested, f->user_data);
    } else {
      n = requested < 0 ? 1 : requested;
    }
    if (n > MAX_LOGICAL_CPUS) n = MAX_LOGICAL_CPUS;
    for (k = 0; k < n; k++) {
      if (!add_device(ctx, f, k)) {
        ctx_free(ctx);
        goto oom;
      }
      /* The default device (soft placement's last resort) is the host
       * CPU:0, whatever the kinds' placement priorities. */
      if (f->is_host && f->priority > best_priority) {
        best_priority = f->priority;
        ctx->default_device = ctx->devices[atomic_load(&ctx->num_devices) - 1];
      }
    }
  }
  if (ctx->default_device == NULL) {
    ctx_free(ctx);
    tfe_status_setf(status, TF_INTERNAL,
                    "TFE_NewContext: no device is available");
    return NULL;
  }
  tfe_status_ok(status);
  return ctx;

oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "TFE_NewContext: out of memory");
  return NULL;
}

void TFE_DeleteContext(TFE_Context* ctx) {
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) return;
  /* A second delete of a zombie is a caller bug; ignore it rather than
   * dropping a reference that belongs to a handle. */
  if (atomic_exchange(&ctx->deleted, 1) != 0) return;
  /* Custom devices are deleted now, as in TF, even when handles keep the
   * context alive as a zombie (their device_info may hold references). */
  tfe_custom_devices_release(ctx);
  tfe_ctx_unref(ctx);
}

int tfe_ctx_check(TFE_Context* ctx, const char* fn, TF_Status* s) {
  if (ctx == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s: context is NULL", fn);
    return 0;
  }
  if (ctx->magic != TFE_CTX_MAGIC) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s: the argument is not a live TFE_Context", fn);
    return 0;
  }
  if (atomic_load_explicit(&ctx->deleted, memory_order_relaxed)) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "%s: the context was deleted (TFE_DeleteContext); only "
                    "its remaining handles and ops may still be used or "
                    "deleted",
                    fn);
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * Devices. */

TF_DeviceList* TFE_ContextListDevices(TFE_Context* ctx, TF_Status* status) {
  TF_DeviceList* l;
  int n;
  if (!tfe_ctx_check(ctx, "TFE_ContextListDevices", status)) return NULL;
  n = atomic_load_explicit(&ctx->num_devices, memory_order_acquire);
  l = tfe_device_list_new((const tfe_device* const*)ctx->devices, n);
  if (l == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_ContextListDevices: out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return l;
}

const tfe_device* tfe_ctx_find_device(TFE_Context* ctx,
                                      const tfe_device_spec* spec) {
  int i, n = atomic_load_explicit(&ctx->num_devices, memory_order_acquire);
  /* A spec naming only a kind (or nothing) prefers the default device. */
  if (tfe_device_spec_matches(spec, ctx->default_device)) {
    if (!spec->has_id || spec->id == ctx->default_device->id) {
      return ctx->default_device;
    }
  }
  for (i = 0; i < n; i++) {
    if (tfe_device_spec_matches(spec, ctx->devices[i])) return ctx->devices[i];
  }
  return NULL;
}

const tfe_device* tfe_ctx_same_device(TFE_Context* ctx, const tfe_device* d) {
  int i, n;
  if (d == ctx->default_device) return d;
  n = atomic_load_explicit(&ctx->num_devices, memory_order_acquire);
  for (i = 0; i < n; i++) {
    if (tfe_device_same(ctx->devices[i], d)) return ctx->devices[i];
  }
  return NULL;
}

void TFE_SetLogicalCpuDevices(TFE_Context* ctx, int num_cpus,
                              const char* prefix, TF_Status* status) {
  const tfe_device_factory* cpu;
  int id, i, n;
  if (!tfe_ctx_check(ctx, "TFE_SetLogicalCpuDevices", status)) return;
  if (num_cpus < 1 || num_cpus > MAX_LOGICAL_CPUS) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_SetLogicalCpuDevices: num_cpus must be in [1, %d], "
                    "got %d",
                    MAX_LOGICAL_CPUS, num_cpus);
    return;
  }
  if (prefix != NULL && prefix[0] != '\0' &&
      strcmp(prefix, TFE_LOCAL_ADDRESS_SPACE) != 0 &&
      strcmp(prefix, TFE_LOCAL_ADDRESS_SPACE "/") != 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_SetLogicalCpuDevices: prefix '%s' is not the local "
                    "address space '%s' (remote devices are not supported)",
                    prefix, TFE_LOCAL_ADDRESS_SPACE);
    return;
  }
  cpu = tfe_device_factory_find("CPU");
  pthread_mutex_lock(&ctx->lock);
  n = atomic_load(&ctx->num_devices);
  /* Like TF: CPU:0 is the host device and stays; any other name that
   * exists already is a conflict, and then nothing is added. */
  for (id = 1; id < num_cpus; id++) {
    for (i = 0; i < n; i++) {
      if (ctx->devices[i]->factory == cpu && ctx->devices[i]->id == id) {
        pthread_mutex_unlock(&ctx->lock);
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Trying to add device %s to manager but its name "
                        "conflicts with an existing device.",
                        ctx->devices[i]->name);
        return;
      }
    }
  }
  if (n + num_cpus - 1 > TFE_MAX_CONTEXT_DEVICES) {
    pthread_mutex_unlock(&ctx->lock);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_SetLogicalCpuDevices: too many devices (limit %d)",
                    TFE_MAX_CONTEXT_DEVICES);
    return;
  }
  for (id = 1; id < num_cpus; id++) {
    if (!add_device(ctx, cpu, id)) {
      atomic_fetch_add(&ctx->devices_gen, 1);
      pthread_mutex_unlock(&ctx->lock);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "TFE_SetLogicalCpuDevices: out of memory after adding "
                      "CPU:%d",
                      id - 1);
      return;
    }
  }
  atomic_fetch_add(&ctx->devices_gen, 1);
  pthread_mutex_unlock(&ctx->lock);
  tfe_status_ok(status);
}

void TFE_ContextClearCaches(TFE_Context* ctx) {
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) return;
  tfe_kcache_clear(&ctx->cache);
}

/* ------------------------------------------------------------------------
 * Per-thread settings. Each thread keeps a few (context id, settings)
 * slots; ids are never reused, so a slot of a dead context never matches
 * again and is simply recycled. */

typedef struct tls_slot {
  uint64_t ctx_id;
  int has_policy;
  TFE_ContextDevicePlacementPolicy policy;
  TFE_Executor* executor;
} tls_slot;

static _Thread_local tls_slot g_tls[TLS_SLOTS];
static _Thread_local int g_tls_next;

static tls_slot* tls_find(uint64_t id, int create) {
  int i;
  tls_slot* s;
  for (i = 0; i < TLS_SLOTS; i++) {
    if (g_tls[i].ctx_id == id) return &g_tls[i];
  }
  if (!create) return NULL;
  s = &g_tls[g_tls_next];
  g_tls_next = (g_tls_next + 1) % TLS_SLOTS;
  memset(s, 0, sizeof(*s));
  s->ctx_id = id;
  return s;
}

void TFE_ContextSetThreadLocalDevicePlacementPolicy(
    TFE_Context* ctx, TFE_ContextDevicePlacementPolicy policy) {
  tls_slot* s;
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) return;
  if ((int)policy < 0 || (int)policy > 3) return;
  s = tls_find(ctx->id, 1);
  s->has_policy = 1;
  s->policy = policy;
}

TFE_ContextDevicePlacementPolicy tfe_ctx_policy(TFE_Context* ctx) {
  tls_slot* s = tls_find(ctx->id, 0);
  if (s != NULL && s->has_policy) return s->policy;
  return ctx->policy;
}

TFE_ContextDevicePlacementPolicy TFE_ContextGetDevicePlacementPolicy(
    TFE_Context* ctx) {
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) {
    return TFE_DEVICE_PLACEMENT_SILENT;
  }
  return tfe_ctx_policy(ctx);
}

TFE_Executor* tfe_ctx_thread_executor(TFE_Context* ctx) {
  tls_slot* s = tls_find(ctx->id, 0);
  if (s != NULL && s->executor != NULL) return s->executor;
  return &ctx->default_executor;
}

void tfe_ctx_set_thread_executor(TFE_Context* ctx, TFE_Executor* ex) {
  tls_slot* s = tls_find(ctx->id, ex != NULL);
  if (s != NULL) s->executor = ex;
}

/* ------------------------------------------------------------------------
 * Logged placement and executed op names. */

void tfe_ctx_record_op(TFE_Context* ctx, const char* name,
                       const tfe_device* device) {
  char* copy;
  TF_Log(TF_INFO, "Executing op %s in device %s", name, device->name);
  copy = tfe_strdup(name);
  if (copy == NULL) return; /* the log is best effort */
  pthread_mutex_lock(&ctx->lock);
  if (ctx->executed_names == NULL) {
    ctx->executed_names =
        (char**)tfe_calloc(TFE_EXECUTED_NAMES_MAX, sizeof(char*));
    if (ctx->executed_names == NULL) {
      pthread_mutex_unlock(&ctx->lock);
      tfe_free(copy);
      return;
    }
  }
  if (ctx->executed_count == TFE_EXECUTED_NAMES_MAX) {
    tfe_free(ctx->executed_names[ctx->executed_start]);
    ctx->executed_names[ctx->executed_start] = copy;
    ctx->executed_start = (ctx->executed_start + 1) % TFE_EXECUTED_NAMES_MAX;
  } else {
    ctx->executed_names[(ctx->executed_start + ctx->executed_count) %
                        TFE_EXECUTED_NAMES_MAX] = copy;
    ctx->executed_count++;
  }
  pthread_mutex_unlock(&ctx->lock);
}

static void free_buffer_bytes(void* data, size_t len) {
  (void)len;
  tfe_free(data);
}

/* Replaces buf's contents with a copy of bytes[0..len). */
static int buffer_set(TF_Buffer* buf, const char* bytes, size_t len) {
  char* copy = (char*)tfe_malloc(len + 1);
  if (copy == NULL) return 0;
  if (len) memcpy(copy, bytes, len);
  copy[len] = '\0';
  if (buf->data_deallocator != NULL) {
    buf->data_deallocator((void*)buf->data, buf->length);
  }
  buf->data = copy;
  buf->length = len;
  buf->data_deallocator = free_buffer_bytes;
  return 1;
}

void TFE_GetExecutedOpNames(TFE_Context* ctx, TF_Buffer* buf,
                            TF_Status* status) {
  size_t total = 0;
  char* out;
  int i;
  if (!tfe_ctx_check(ctx, "TFE_GetExecutedOpNames", status)) return;
  if (buf == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_GetExecutedOpNames: buf is NULL");
    return;
  }
  pthread_mutex_lock(&ctx->lock);
  for (i = 0; i < ctx->executed_count; i++) {
    total += strlen(ctx->executed_names[(ctx->executed_start + i) %
                                        TFE_EXECUTED_NAMES_MAX]) +
             2;
  }
  out = (char*)tfe_malloc(total + 1);
  if (out != NULL) {
    size_t pos = 0;
    for (i = 0; i < ctx->executed_count; i++) {
      const char* n = ctx->executed_names[(ctx->executed_start + i) %
                                          TFE_EXECUTED_NAMES_MAX];
      size_t l = strlen(n);
      memcpy(out + pos, n, l);
      memcpy(out + pos + l, ", ", 2);
      pos += l + 2;
    }
    out[pos] = '\0';
  }
  pthread_mutex_unlock(&ctx->lock);
  if (out == NULL || !buffer_set(buf, out, total)) {
    tfe_free(out);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_GetExecutedOpNames: out of memory");
    return;
  }
  tfe_free(out);
  tfe_status_ok(status);
}

void TFE_ContextSetSoftDevicePlacement(TFE_Context* ctx, unsigned char enable,
                                       TF_Status* status) {
  if (!tfe_ctx_check(ctx, "TFE_ContextSetSoftDevicePlacement", status)) {
    return;
  }
  atomic_store(&ctx->soft_placement, enable != 0);
  tfe_status_ok(status);
}

void TFE_ContextSetLogDevicePlacement(TFE_Context* ctx, unsigned char enable,
                                      TF_Status* status) {
  if (!tfe_ctx_check(ctx, "TFE_ContextSetLogDevicePlacement", status)) return;
  atomic_store(&ctx->log_placement, enable != 0);
  tfe_status_ok(status);
}

void TFE_ContextSetRunEagerOpAsFunction(TFE_Context* ctx, unsigned char enable,
                                        TF_Status* status) {
  if (!tfe_ctx_check(ctx, "TFE_ContextSetRunEagerOpAsFunction", status)) {
    return;
  }
  ctx->run_eager_op_as_function = enable != 0;
  tfe_status_ok(status);
}

void TFE_ContextSetJitCompileRewrite(TFE_Context* ctx, unsigned char enable,
                                     TF_Status* status) {
  if (!tfe_ctx_check(ctx, "TFE_ContextSetJitCompileRewrite", status)) return;
  ctx->jit_compile_rewrite = enable != 0;
  tfe_status_ok(status);
}

uint64_t TFE_GetContextId(TFE_Context* ctx) {
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC) return 0;
  return ctx->id;
}

void TFE_HostAddressSpace(TFE_Context* ctx, TF_Buffer* buf) {
  if (ctx == NULL || ctx->magic != TFE_CTX_MAGIC || buf == NULL) return;
  if (!buffer_set(buf, TFE_LOCAL_ADDRESS_SPACE,
                  strlen(TFE_LOCAL_ADDRESS_SPACE))) {
    TF_Log(TF_WARNING, "TFE_HostAddressSpace: out of memory");
  }
}

/* ------------------------------------------------------------------------
 * Run metadata and steps. */

void TFE_ContextEnableRunMetadata(TFE_Context* ctx) {
  if (ctx != NULL && ctx->magic == TFE_CTX_MAGIC) ctx->run_metadata = 1;
}

void TFE_ContextDisableRunMetadata(TFE_Context* ctx) {
  if (ctx != NULL && ctx->magic == TFE_CTX_MAGIC) ctx->run_metadata = 0;
}

void TFE_ContextExportRunMetadata(TFE_Context* ctx, TF_Buffer* buf,
                                  TF_Status* status) {
  if (!tfe_ctx_check(ctx, "TFE_ContextExportRunMetadata", status)) return;
  if (buf == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_ContextExportRunMetadata: buf is NULL");
    return;
  }
  /* No step statistics are collected: an empty RunMetadata message. */
  if (!buffer_set(buf, "", 0)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "TFE_ContextExportRunMetadata: out of memory");
    return;
  }
  tfe_status_ok(status);
}

void TFE_ContextStartStep(TFE_Context* ctx) {
  if (ctx != NULL && ctx->magic == TFE_CTX_MAGIC) {
    atomic_fetch_add(&ctx->step_depth, 1);
  }
}

void TFE_ContextEndStep(TFE_Context* ctx) {
  if (ctx != NULL && ctx->magic == TFE_CTX_MAGIC) {
    int d = atomic_load(&ctx->step_depth);
    while (d > 0 && !atomic_compare_exchange_weak(&ctx->step_depth, &d, d - 1)) {
    }
  }
}
