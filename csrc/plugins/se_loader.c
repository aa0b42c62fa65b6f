/* The ordered checks of a StreamExecutor plugin (se_loader.h):
 *   1. (caller) dlopen and dlsym SE_InitPlugin: NOT_FOUND
 *   2. the runtime presets struct sizes and versions in zeroed scratch
 *      structs, calls SE_InitPlugin, and returns a failing status as is
 *   3. struct_size 0: "struct_size field in S must be set to S_SIZE."
 *   4. struct_size below the fields the core needs: "... expected at least
 *      N bytes, got M"; a smaller size that covers them is an older plugin
 *      (its missing optional fields count as NULL); a larger one is fine
 *   5. major version differs: FAILED_PRECONDITION "cannot be loaded";
 *      minor or patch differs: a warning
 *   6. required functions: "'field' field in S must be set."
 *   7. platform name and type match [A-Z][A-Z_]*; duplicates are
 *      ALREADY_EXISTS
 *   8. each table is copied (min of both sizes) into a zeroed core-owned
 *      table; fields an older plugin lacks stay NULL
 *   9. any failure registers nothing and releases what the plugin
 *      allocated, newest first, with the plugin's destroy functions
 * The same steps then run for SP_DeviceFns, SP_StreamExecutor, SP_TimerFns
 * and each SP_Device, and (tp_loader part below) for a graph optimizer and
 * a profiler. */
#include "plugins/se_loader.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "tensorflow/c/logging.h"

/* Scratch structs are this much larger than the core's, so a plugin built
 * against a newer header cannot write past them. */
#define SCRATCH_SLACK 512
/* Devices per platform tfe accepts. */
#define MAX_DEVICES 64

#define END_OF(T, F) TF_OFFSET_OF_END(T, F)

/* SP_STREAMEXECUTOR_STRUCT_SIZE of the headers before TensorFlow added
 * mem_zero, memset and memset32 in front of host_callback: host_callback was
 * then the last field, at today's offset of mem_zero. No header ever ended
 * the struct at mem_zero, so this size identifies that layout. */
#define SE_LEGACY_SIZE END_OF(SP_StreamExecutor, mem_zero)
/* TP_OPTIMIZER_CONFIGS_STRUCT_SIZE of the headers before
 * auto_mixed_precision_onednn_bfloat16 was inserted after
 * auto_mixed_precision (no header ends the struct at memory_optimization). */
#define CFG_LEGACY_SIZE END_OF(TP_OptimizerConfigs, memory_optimization)

int tfe_se_valid_type_name(const char* s) {
  size_t i, n;
  if (s == NULL) return 0;
  n = strlen(s);
  if (n == 0 || n >= TFE_DEVICE_TYPE_MAX) return 0;
  if (s[0] < 'A' || s[0] > 'Z') return 0;
  for (i = 1; i < n; i++) {
    if (!((s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_')) return 0;
  }
  return 1;
}

static void* scratch(size_t size) { return tfe_calloc(1, size + SCRATCH_SLACK); }

/* Rules 3 and 4 for one struct. */
static int check_size(const char* path, const char* sname, const char* macro,
                      size_t have, size_t need, TF_Status* s) {
  if (have == 0) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "device plugin '%s': struct_size field in %s must be set "
                    "to %s.",
                    path, sname, macro);
    return 0;
  }
  if (have < need) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "device plugin '%s': %s is too small: expected at least "
                    "%zu bytes, got %zu",
                    path, sname, need, have);
    return 0;
  }
  return 1;
}

/* Rule 8: copies min(declared, core) bytes into a zeroed core table. */
static void copy_table(void* dst, size_t core_size, const void* src,
                       size_t declared) {
  memset(dst, 0, core_size);
  memcpy(dst, src, declared < core_size ? declared : core_size);
}

static int missing(const char* path, const char* sname, const char* field,
                   TF_Status* s) {
  tfe_status_setf(s, TF_FAILED_PRECONDITION,
                  "device plugin '%s': '%s' field in %s must be set.", path,
                  field, sname);
  return 0;
}

#define REQUIRE(S, obj, field) \
  if ((obj).field == NULL) return missing(path, #S, #field, s)

static int check_versions(tfe_platform* p, const char* path, const char* api,
                          int32_t major, int32_t minor, int32_t patch,
                          int want_major, int want_minor, int want_patch,
                          TF_Status* s) {
  if (major != want_major) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "device plugin '%s' cannot be loaded: it implements the "
                    "%s C API version %d.%d.%d and tfe implements %d.%d.%d "
                    "(the major versions differ)",
                    path, api, (int)major, (int)minor, (int)patch, want_major,
                    want_minor, want_patch);
    return 0;
  }
  if (minor != want_minor || patch != want_patch) {
    tfe_platform_warn(p,
                      "device plugin '%s': built for the %s C API version "
                      "%d.%d.%d, tfe implements %d.%d.%d; loading it anyway",
                      path, api, (int)major, (int)minor, (int)patch,
                      want_major, want_minor, want_patch);
  }
  return 1;
}

static int check_platform_fns(const char* path, const SP_PlatformFns* f,
                              TF_Status* s) {
  REQUIRE(SP_PlatformFns, *f, get_device_count);
  REQUIRE(SP_PlatformFns, *f, create_device);
  REQUIRE(SP_PlatformFns, *f, destroy_device);
  REQUIRE(SP_PlatformFns, *f, create_stream_executor);
  REQUIRE(SP_PlatformFns, *f, destroy_stream_executor);
  REQUIRE(SP_PlatformFns, *f, create_timer_fns);
  REQUIRE(SP_PlatformFns, *f, destroy_timer_fns);
  REQUIRE(SP_PlatformFns, *f, create_device_fns);
  REQUIRE(SP_PlatformFns, *f, destroy_device_fns);
  return 1;
}

static int check_se(const char* path, const SP_StreamExecutor* se,
                    const SP_Platform* platform, TF_Status* s) {
  REQUIRE(SP_StreamExecutor, *se, allocate);
  REQUIRE(SP_StreamExecutor, *se, deallocate);
  REQUIRE(SP_StreamExecutor, *se, get_allocator_stats);
  REQUIRE(SP_StreamExecutor, *se, host_memory_allocate);
  REQUIRE(SP_StreamExecutor, *se, host_memory_deallocate);
  if (platform->supports_unified_memory) {
    /* Dependent requirement: the flag promises these two. */
    REQUIRE(SP_StreamExecutor, *se, unified_memory_allocate);
    REQUIRE(SP_StreamExecutor, *se, unified_memory_deallocate);
  }
  REQUIRE(SP_StreamExecutor, *se, device_memory_usage);
  REQUIRE(SP_StreamExecutor, *se, create_stream);
  REQUIRE(SP_StreamExecutor, *se, destroy_stream);
  REQUIRE(SP_StreamExecutor, *se, create_stream_dependency);
  REQUIRE(SP_StreamExecutor, *se, get_stream_status);
  REQUIRE(SP_StreamExecutor, *se, create_event);
  REQUIRE(SP_StreamExecutor, *se, destroy_event);
  REQUIRE(SP_StreamExecutor, *se, get_event_status);
  REQUIRE(SP_StreamExecutor, *se, record_event);
  REQUIRE(SP_StreamExecutor, *se, wait_for_event);
  REQUIRE(SP_StreamExecutor, *se, create_timer);
  REQUIRE(SP_StreamExecutor, *se, destroy_timer);
  REQUIRE(SP_StreamExecutor, *se, start_timer);
  REQUIRE(SP_StreamExecutor, *se, stop_timer);
  REQUIRE(SP_StreamExecutor, *se, memcpy_dtoh);
  REQUIRE(SP_StreamExecutor, *se, memcpy_htod);
  REQUIRE(SP_StreamExecutor, *se, sync_memcpy_dtoh);
  REQUIRE(SP_StreamExecutor, *se, sync_memcpy_htod);
  REQUIRE(SP_StreamExecutor, *se, block_host_for_event);
  REQUIRE(SP_StreamExecutor, *se, synchronize_all_activity);
  REQUIRE(SP_StreamExecutor, *se, host_callback);
  return 1;
}

/* Older plugins lack the fill functions TensorFlow 2.21 calls: emulate. */
static void note_fills(tfe_platform* p) {
  static const struct {
    size_t off;
    const char* name;
    unsigned bit;
  } fills[] = {
      {offsetof(SP_StreamExecutor, mem_zero), "mem_zero",
       TFE_PD_EMULATE_MEM_ZERO},
      {offsetof(SP_StreamExecutor, memset), "memset", TFE_PD_EMULATE_MEMSET},
      {offsetof(SP_StreamExecutor, memset32), "memset32",
       TFE_PD_EMULATE_MEMSET32},
  };
  size_t i;
  for (i = 0; i < sizeof fills / sizeof fills[0]; i++) {
    void* fn;
    memcpy(&fn, (const char*)&p->se + fills[i].off, sizeof fn);
    if (fn == NULL) {
      p->emulated_fills |= fills[i].bit;
      tfe_platform_warn(p,
                        "device plugin '%s': '%s' field in SP_StreamExecutor "
                        "is not set (TensorFlow 2.21 requires it; the plugin "
                        "was probably built for an older TensorFlow); tfe "
                        "emulates it with memcpy_htod",
                        p->path, fills[i].name);
    }
  }
}

static tfe_platform* new_platform(const char* path) {
  tfe_platform* p = (tfe_platform*)tfe_calloc(1, sizeof(*p));
  if (p == NULL) return NULL;
  p->path = tfe_strdup(path);
  if (p->path == NULL) {
    tfe_free(p);
    return NULL;
  }
  return p;
}

static int oom(const char* path, TF_Status* s) {
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "device plugin '%s': out of memory",
                  path);
  return 0;
}

/* Steps after SE_InitPlugin: device functions, stream executor, timers,
 * devices. */
static int build_rest(tfe_platform* p, TF_Status* s) {
  const char* path = p->path;
  int i, count = 0;
  SE_CreateDeviceFnsParams dfp;
  SE_CreateStreamExecutorParams sep;
  SP_DeviceFns* dfs = (SP_DeviceFns*)scratch(sizeof(SP_DeviceFns));
  SP_StreamExecutor* ses =
      (SP_StreamExecutor*)scratch(sizeof(SP_StreamExecutor));
  SP_TimerFns* tfs = (SP_TimerFns*)scratch(sizeof(SP_TimerFns));
  int ok = 0;
  if (dfs == NULL || ses == NULL || tfs == NULL) {
    oom(path, s);
    goto done;
  }

  /* Device functions. */
  memset(&dfp, 0, sizeof dfp);
  dfp.struct_size = SE_CREATE_DEVICE_FNS_PARAMS_STRUCT_SIZE;
  dfs->struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
  dfp.device_fns = dfs;
  tfe_status_ok(s);
  p->fns.create_device_fns(&p->platform, &dfp, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  p->device_fns_size = dfs->struct_size;
  copy_table(&p->device_fns, sizeof p->device_fns, dfs, dfs->struct_size);
  p->have |= TFE_PD_HAVE_DEVICE_FNS;
  if (!check_size(path, "SP_DeviceFns", "SP_DEVICE_FNS_STRUCT_SIZE",
                  dfs->struct_size, END_OF(SP_DeviceFns, ext), s)) {
    goto done;
  }

  /* Stream executor. */
  memset(&sep, 0, sizeof sep);
  sep.struct_size = SE_CREATE_STREAM_EXECUTOR_PARAMS_STRUCT_SIZE;
  ses->struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE;
  sep.stream_executor = ses;
  tfe_status_ok(s);
  p->fns.create_stream_executor(&p->platform, &sep, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  p->se_size = ses->struct_size;
  copy_table(&p->se, sizeof p->se, ses, ses->struct_size);
  p->have |= TFE_PD_HAVE_SE;
  if (ses->struct_size == SE_LEGACY_SIZE) {
    /* Built with headers from before mem_zero, memset and memset32: its
     * host_callback sits in today's mem_zero slot (and it has no fills). */
    memcpy(&p->se.host_callback, &p->se.mem_zero, sizeof p->se.host_callback);
    p->se.mem_zero = NULL;
  }
  if (!check_size(path, "SP_StreamExecutor", "SP_STREAMEXECUTOR_STRUCT_SIZE",
                  ses->struct_size,
                  ses->struct_size == SE_LEGACY_SIZE
                      ? SE_LEGACY_SIZE
                      : END_OF(SP_StreamExecutor, host_callback),
                  s) ||
      !check_se(path, &p->se, &p->platform, s)) {
    goto done;
  }
  note_fills(p);

  /* Timer functions. */
  tfs->struct_size = SP_TIMER_FNS_STRUCT_SIZE;
  tfe_status_ok(s);
  p->fns.create_timer_fns(&p->platform, tfs, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  p->timer_fns_size = tfs->struct_size;
  copy_table(&p->timer_fns, sizeof p->timer_fns, tfs, tfs->struct_size);
  p->have |= TFE_PD_HAVE_TIMER_FNS;
  if (!check_size(path, "SP_TimerFns", "SP_TIMER_FNS_STRUCT_SIZE",
                  tfs->struct_size, END_OF(SP_TimerFns, nanoseconds), s)) {
    goto done;
  }
  if (p->timer_fns.nanoseconds == NULL) {
    missing(path, "SP_TimerFns", "nanoseconds", s);
    goto done;
  }

  /* Devices. */
  tfe_status_ok(s);
  p->fns.get_device_count(&p->platform, &count, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  if (count < 0 || count > MAX_DEVICES) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "device plugin '%s': get_device_count reported %d "
                    "devices (tfe accepts 0 to %d)",
                    path, count, MAX_DEVICES);
    goto done;
  }
  p->devices = (tfe_pdev**)tfe_calloc((size_t)(count > 0 ? count : 1),
                                      sizeof(tfe_pdev*));
  if (p->devices == NULL) {
    oom(path, s);
    goto done;
  }
  for (i = 0; i < count; i++) {
    SE_CreateDeviceParams cp;
    tfe_pdev* d = (tfe_pdev*)tfe_calloc(1, sizeof(*d));
    if (d == NULL) {
      oom(path, s);
      goto done;
    }
    pthread_mutex_init(&d->mu, NULL);
    pthread_mutex_init(&d->amu, NULL);
    d->plat = p;
    d->ordinal = i;
    p->devices[i] = d;
    p->num_devices = i + 1;
    memset(&cp, 0, sizeof cp);
    cp.struct_size = SE_CREATE_DEVICE_PARAMS_STRUCT_SIZE;
    cp.ordinal = i;
    d->dev.struct_size = SP_DEVICE_STRUCT_SIZE;
    cp.device = &d->dev;
    tfe_status_ok(s);
    p->fns.create_device(&p->platform, &cp, s);
    if (TF_GetCode(s) != TF_OK) goto done;
    d->created = 1;
    if (!check_size(path, "SP_Device", "SP_DEVICE_STRUCT_SIZE",
                    d->dev.struct_size, END_OF(SP_Device, device_handle), s)) {
      goto done;
    }
    if (d->dev.struct_size < sizeof d->dev) {
      /* Fields an older plugin does not know about count as NULL. */
      memset((char*)&d->dev + d->dev.struct_size, 0,
             sizeof d->dev - d->dev.struct_size);
    }
    if (d->dev.ordinal != i) {
      tfe_platform_warn(p,
                        "device plugin '%s': create_device for ordinal %d "
                        "set SP_Device.ordinal to %d",
                        path, i, (int)d->dev.ordinal);
    }
  }
  ok = 1;
done:
  tfe_free(dfs);
  tfe_free(ses);
  tfe_free(tfs);
  return ok;
}

tfe_platform* tfe_se_load(const char* path, tfe_se_init_fn init,
                          TF_Status* s) {
  SE_PlatformRegistrationParams* params;
  SP_Platform* ps;
  SP_PlatformFns* fs;
  tfe_platform* p = new_platform(path ? path : "(unnamed)");
  if (p == NULL) {
    oom(path, s);
    return NULL;
  }
  path = p->path;
  params = (SE_PlatformRegistrationParams*)scratch(sizeof(*params));
  ps = (SP_Platform*)scratch(sizeof(*ps));
  fs = (SP_PlatformFns*)scratch(sizeof(*fs));
  if (params == NULL || ps == NULL || fs == NULL) {
    oom(path, s);
    goto fail;
  }
  /* Rule 2. */
  params->struct_size = SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE;
  params->major_version = SE_MAJOR;
  params->minor_version = SE_MINOR;
  params->patch_version = SE_PATCH;
  ps->struct_size = SP_PLATFORM_STRUCT_SIZE;
  fs->struct_size = SP_PLATFORM_FNS_STRUCT_SIZE;
  params->platform = ps;
  params->platform_fns = fs;
  tfe_status_ok(s);
  init(params, s);
  if (TF_GetCode(s) != TF_OK) goto fail; /* the plugin's status, unchanged */

  /* Rules 3-4 for the registration params; after this the destroy
   * functions can be trusted for cleanup. */
  p->params_size = params->struct_size;
  if (!check_size(path, "SE_PlatformRegistrationParams",
                  "SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE",
                  params->struct_size,
                  END_OF(SE_PlatformRegistrationParams, destroy_platform_fns),
                  s)) {
    goto fail;
  }
  p->destroy_platform = params->destroy_platform;
  p->destroy_platform_fns = params->destroy_platform_fns;
  p->plugin_major = params->major_version;
  p->plugin_minor = params->minor_version;
  p->plugin_patch = params->patch_version;
  /* Rule 8 now, so that cleanup works on the core's copies. */
  p->platform_size = ps->struct_size;
  p->platform_fns_size = fs->struct_size;
  copy_table(&p->platform, sizeof p->platform, ps, ps->struct_size);
  copy_table(&p->fns, sizeof p->fns, fs, fs->struct_size);
  p->have |= TFE_PD_HAVE_PLATFORM | TFE_PD_HAVE_PLATFORM_FNS;

  if (!check_size(path, "SP_Platform", "SP_PLATFORM_STRUCT_SIZE",
                  ps->struct_size, END_OF(SP_Platform, type), s) ||
      !check_size(path, "SP_PlatformFns", "SP_PLATFORM_FNS_STRUCT_SIZE",
                  fs->struct_size, END_OF(SP_PlatformFns, destroy_timer_fns),
                  s)) {
    goto fail;
  }
  /* Rule 5. */
  if (!check_versions(p, path, "StreamExecutor", params->major_version,
                      params->minor_version, params->patch_version, SE_MAJOR,
                      SE_MINOR, SE_PATCH, s)) {
    goto fail;
  }
  /* Rule 6. */
  if (p->destroy_platform == NULL) {
    missing(path, "SE_PlatformRegistrationParams", "destroy_platform", s);
    goto fail;
  }
  if (p->destroy_platform_fns == NULL) {
    missing(path, "SE_PlatformRegistrationParams", "destroy_platform_fns", s);
    goto fail;
  }
  if (p->platform.name == NULL) {
    missing(path, "SP_Platform", "name", s);
    goto fail;
  }
  if (p->platform.type == NULL) {
    missing(path, "SP_Platform", "type", s);
    goto fail;
  }
  if (!check_platform_fns(path, &p->fns, s)) goto fail;
  /* Rule 7. */
  if (!tfe_se_valid_type_name(p->platform.name)) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "device plugin '%s': Device name/type '%s' must match "
                    "[A-Z][A-Z_]*. (SP_Platform.name)",
                    path, p->platform.name);
    goto fail;
  }
  if (!tfe_se_valid_type_name(p->platform.type)) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "device plugin '%s': Device name/type '%s' must match "
                    "[A-Z][A-Z_]*. (SP_Platform.type)",
                    path, p->platform.type);
    goto fail;
  }
  snprintf(p->name, sizeof p->name, "%s", p->platform.name);
  snprintf(p->type, sizeof p->type, "%s", p->platform.type);
  if (!tfe_platform_check_unique(path, p->name, p->type, s)) goto fail;

  if (!build_rest(p, s)) goto fail;
  tfe_free(params);
  tfe_free(ps);
  tfe_free(fs);
  tfe_status_ok(s);
  return p;

fail:
  /* Rule 9: newest first, with the plugin's own destroy functions. */
  tfe_platform_destroy(p);
  tfe_free(params);
  tfe_free(ps);
  tfe_free(fs);
  return NULL;
}

/* ------------------------------------------------------------------------
 * Graph optimizers (TF_InitGraph). */

int tfe_graph_load(tfe_platform* p, tfe_graph_init_fn init, TF_Status* s) {
  const char* path = p->path;
  TP_OptimizerRegistrationParams* params =
      (TP_OptimizerRegistrationParams*)scratch(sizeof(*params));
  TP_OptimizerConfigs* cfg = (TP_OptimizerConfigs*)scratch(sizeof(*cfg));
  TP_Optimizer* opt = (TP_Optimizer*)scratch(sizeof(*opt));
  int ok = 0;
  if (params == NULL || cfg == NULL || opt == NULL) {
    oom(path, s);
    goto done;
  }
  params->struct_size = TP_OPTIMIZER_REGISTRATION_PARAMS_STRUCT_SIZE;
  params->major_version = GO_MAJOR;
  params->minor_version = GO_MINOR;
  params->patch_version = GO_PATCH;
  cfg->struct_size = TP_OPTIMIZER_CONFIGS_STRUCT_SIZE;
  opt->struct_size = TP_OPTIMIZER_STRUCT_SIZE;
  params->optimizer_configs = cfg;
  params->optimizer = opt;
  tfe_status_ok(s);
  init(params, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  if (!check_size(path, "TP_OptimizerRegistrationParams",
                  "TP_OPTIMIZER_REGISTRATION_PARAMS_STRUCT_SIZE",
                  params->struct_size,
                  END_OF(TP_OptimizerRegistrationParams, optimizer), s) ||
      !check_size(path, "TP_OptimizerConfigs",
                  "TP_OPTIMIZER_CONFIGS_STRUCT_SIZE", cfg->struct_size,
                  END_OF(TP_OptimizerConfigs, ext), s) ||
      !check_size(path, "TP_Optimizer", "TP_OPTIMIZER_STRUCT_SIZE",
                  opt->struct_size, END_OF(TP_Optimizer, optimize_func), s) ||
      !check_versions(p, path, "graph optimizer", params->major_version,
                      params->minor_version, params->patch_version, GO_MAJOR,
                      GO_MINOR, GO_PATCH, s)) {
    goto done;
  }
  copy_table(&p->optimizer, sizeof p->optimizer, opt, opt->struct_size);
  copy_table(&p->optimizer_configs, sizeof p->optimizer_configs, cfg,
             cfg->struct_size);
  if (cfg->struct_size == CFG_LEGACY_SIZE) {
    /* Headers before auto_mixed_precision_onednn_bfloat16: the fields from
     * auto_mixed_precision_mkl on sit one slot earlier; move them up. */
    char* base = (char*)&p->optimizer_configs;
    const size_t at =
        offsetof(TP_OptimizerConfigs, auto_mixed_precision_onednn_bfloat16);
    memmove(base + at + sizeof(TF_TriState), base + at, CFG_LEGACY_SIZE - at);
    p->optimizer_configs.auto_mixed_precision_onednn_bfloat16 =
        TF_TriState_Default;
  }
  if (params->device_type == NULL) {
    missing(path, "TP_OptimizerRegistrationParams", "device_type", s);
    goto done;
  }
  if (p->optimizer.optimize_func == NULL) {
    missing(path, "TP_Optimizer", "optimize_func", s);
    goto done;
  }
  if (p->optimizer.create_func != NULL && p->optimizer.destroy_func == NULL) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "device plugin '%s': 'destroy_func' field in "
                    "TP_Optimizer must be set when 'create_func' is.",
                    path);
    goto done;
  }
  if (!tfe_se_valid_type_name(params->device_type)) {
    tfe_status_setf(s, TF_FAILED_PRECONDITION,
                    "device plugin '%s': Device name/type '%s' must match "
                    "[A-Z][A-Z_]*. (TP_OptimizerRegistrationParams."
                    "device_type)",
                    path, params->device_type);
    goto done;
  }
  snprintf(p->optimizer_device_type, sizeof p->optimizer_device_type, "%s",
           params->device_type);
  p->has_optimizer = 1;
  ok = 1;
  tfe_status_ok(s);
done:
  if (!ok) {
    memset(&p->optimizer, 0, sizeof p->optimizer);
    memset(&p->optimizer_configs, 0, sizeof p->optimizer_configs);
  }
  tfe_free(params);
  tfe_free(cfg);
  tfe_free(opt);
  return ok;
}

/* ------------------------------------------------------------------------
 * Profilers (TF_InitProfiler). */

int tfe_profiler_load(tfe_platform* p, tfe_profiler_init_fn init,
                      TF_Status* s) {
  const char* path = p->path;
  TF_ProfilerRegistrationParams* params =
      (TF_ProfilerRegistrationParams*)scratch(sizeof(*params));
  TP_Profiler* prof = (TP_Profiler*)scratch(sizeof(*prof));
  TP_ProfilerFns* fns = (TP_ProfilerFns*)scratch(sizeof(*fns));
  int ok = 0, have_destroy = 0;
  if (params == NULL || prof == NULL || fns == NULL) {
    oom(path, s);
    goto done;
  }
  params->struct_size = TF_PROFILER_REGISTRATION_PARAMS_STRUCT_SIZE;
  params->major_version = TP_MAJOR;
  params->minor_version = TP_MINOR;
  params->patch_version = TP_PATCH;
  prof->struct_size = TP_PROFILER_STRUCT_SIZE;
  fns->struct_size = TP_PROFILER_FNS_STRUCT_SIZE;
  params->profiler = prof;
  params->profiler_fns = fns;
  tfe_status_ok(s);
  init(params, s);
  if (TF_GetCode(s) != TF_OK) goto done;
  if (!check_size(path, "TF_ProfilerRegistrationParams",
                  "TF_PROFILER_REGISTRATION_PARAMS_STRUCT_SIZE",
                  params->struct_size,
                  END_OF(TF_ProfilerRegistrationParams, destroy_profiler_fns),
                  s)) {
    goto done;
  }
  p->destroy_profiler = params->destroy_profiler;
  p->destroy_profiler_fns = params->destroy_profiler_fns;
  copy_table(&p->profiler, sizeof p->profiler, prof, prof->struct_size);
  copy_table(&p->profiler_fns, sizeof p->profiler_fns, fns, fns->struct_size);
  have_destroy = 1;
  if (!check_size(path, "TP_Profiler", "TP_PROFILER_STRUCT_SIZE",
                  prof->struct_size, END_OF(TP_Profiler, device_type), s) ||
      !check_size(path, "TP_ProfilerFns", "TP_PROFILER_FNS_STRUCT_SIZE",
                  fns->struct_size,
                  END_OF(TP_ProfilerFns, collect_data_xspace), s) ||
      !check_versions(p, path, "profiler", params->major_version,
                      params->minor_version, params->patch_version, TP_MAJOR,
                      TP_MINOR, TP_PATCH, s)) {
    goto done;
  }
  if (p->destroy_profiler == NULL) {
    missing(path, "TF_ProfilerRegistrationParams", "destroy_profiler", s);
    goto done;
  }
  if (p->destroy_profiler_fns == NULL) {
    missing(path, "TF_ProfilerRegistrationParams", "destroy_profiler_fns", s);
    goto done;
  }
  if (p->profiler.device_type == NULL) {
    missing(path, "TP_Profiler", "device_type", s);
    goto done;
  }
  if (p->profiler_fns.start == NULL) {
    missing(path, "TP_ProfilerFns", "start", s);
    goto done;
  }
  if (p->profiler_fns.stop == NULL) {
    missing(path, "TP_ProfilerFns", "stop", s);
    goto done;
  }
  if (p->profiler_fns.collect_data_xspace == NULL) {
    missing(path, "TP_ProfilerFns", "collect_data_xspace", s);
    goto done;
  }
  snprintf(p->profiler_type, sizeof p->profiler_type, "%s",
           p->profiler.device_type);
  p->has_profiler = 1;
  ok = 1;
  tfe_status_ok(s);
done:
  if (!ok && have_destroy) {
    /* Release what the plugin allocated inside the two structs. */
    if (p->destroy_profiler_fns) p->destroy_profiler_fns(&p->profiler_fns);
    if (p->destroy_profiler) p->destroy_profiler(&p->profiler);
  }
  if (!ok) {
    p->destroy_profiler = NULL;
    p->destroy_profiler_fns = NULL;
    memset(&p->profiler, 0, sizeof p->profiler);
    memset(&p->profiler_fns, 0, sizeof p->profiler_fns);
  }
  tfe_free(params);
  tfe_free(prof);
  tfe_free(fns);
  return ok;
}
