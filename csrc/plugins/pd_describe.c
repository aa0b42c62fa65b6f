/* tfe/plugins.h: describing loaded PluggableDevice platforms and kernels
 * (JSON), memory statistics, cache release, synchronisation and fills. */
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "devices/pluggable_device.h"
#include "eager/eager_internal.h"
#include "kernels/kernel.h"
#include "plugins/json.h"
#include "tfe/plugins.h"

static void bool_field(tfe_json* j, int* first, const char* k, int v) {
  tfe_json_sep(j, first);
  tfe_json_key(j, k);
  tfe_json_raw(j, v ? "true" : "false");
}

static void int_field(tfe_json* j, int* first, const char* k, long long v) {
  tfe_json_sep(j, first);
  tfe_json_key(j, k);
  tfe_json_fmt(j, "%lld", v);
}

static void str_field(tfe_json* j, int* first, const char* k, const char* v) {
  tfe_json_sep(j, first);
  tfe_json_key(j, k);
  tfe_json_str(j, v);
}

static void kernel_json(tfe_json* j, const tfe_kernel_reg* r) {
  int first = 1, i, k;
  tfe_json_raw(j, "{");
  str_field(j, &first, "op", r->op_name);
  str_field(j, &first, "device", r->device_type);
  tfe_json_sep(j, &first);
  tfe_json_key(j, "constraints");
  tfe_json_raw(j, "{");
  for (i = 0; i < r->num_constraints; i++) {
    int f2 = 1;
    if (i) tfe_json_raw(j, ", ");
    tfe_json_key(j, r->constraints[i].attr);
    tfe_json_raw(j, "[");
    for (k = 0; k < r->constraints[i].num_types; k++) {
      tfe_json_sep(j, &f2);
      tfe_json_str(j, tfe_dtype_enum_name(r->constraints[i].types[k]));
    }
    tfe_json_raw(j, "]");
  }
  tfe_json_raw(j, "}");
  tfe_json_sep(j, &first);
  tfe_json_key(j, "host_memory");
  tfe_json_raw(j, "[");
  for (i = 0; i < r->num_host_memory_args; i++) {
    if (i) tfe_json_raw(j, ", ");
    tfe_json_str(j, r->host_memory_args[i]);
  }
  tfe_json_raw(j, "]");
  int_field(j, &first, "priority", r->priority);
  str_field(j, &first, "label", r->label ? r->label : "");
  tfe_json_raw(j, "}");
}

static const char* tri(TF_TriState t) {
  return t == TF_TriState_On ? "on" : t == TF_TriState_Off ? "off" : "default";
}

static void device_json(tfe_json* j, const tfe_platform* p,
                        const tfe_pdev* d) {
  int first = 1;
  int64_t free_b = -1, total_b = -1;
  char name[TFE_DEVICE_NAME_MAX];
  snprintf(name, sizeof name, "%s/device:%s:%d", TFE_LOCAL_ADDRESS_SPACE,
           p->type, d->ordinal);
  tfe_json_raw(j, "{");
  str_field(j, &first, "name", name);
  int_field(j, &first, "ordinal", d->dev.ordinal);
  str_field(j, &first, "hardware_name", d->dev.hardware_name);
  str_field(j, &first, "device_vendor", d->dev.device_vendor);
  str_field(j, &first, "pci_bus_id", d->dev.pci_bus_id);
  int_field(j, &first, "numa_node",
            p->device_fns.get_numa_node ? p->device_fns.get_numa_node(&d->dev)
                                        : -1);
  int_field(j, &first, "memory_bandwidth",
            p->device_fns.get_memory_bandwidth
                ? (long long)p->device_fns.get_memory_bandwidth(&d->dev)
                : -1);
  tfe_json_sep(j, &first);
  tfe_json_key(j, "gflops");
  tfe_json_fmt(j, "%g",
               p->device_fns.get_gflops ? p->device_fns.get_gflops(&d->dev)
                                        : -1.0);
  if (!p->dead && p->se.device_memory_usage != NULL &&
      !p->se.device_memory_usage(&d->dev, &free_b, &total_b)) {
    free_b = total_b = -1;
  }
  int_field(j, &first, "memory_total", (long long)total_b);
  int_field(j, &first, "memory_free", (long long)free_b);
  tfe_json_raw(j, "}");
}

static void platform_json(tfe_json* j, const tfe_platform* p) {
  int first = 1, i, f2;
  tfe_json_raw(j, "{");
  str_field(j, &first, "path", p->path);
  str_field(j, &first, "name", p->name);
  str_field(j, &first, "type", p->type);
  tfe_json_sep(j, &first);
  tfe_json_key(j, "version");
  tfe_json_fmt(j, "\"%d.%d.%d\"", (int)p->plugin_major, (int)p->plugin_minor,
               (int)p->plugin_patch);
  tfe_json_sep(j, &first);
  tfe_json_key(j, "struct_sizes");
  tfe_json_raw(j, "{");
  f2 = 1;
  int_field(j, &f2, "SE_PlatformRegistrationParams", (long long)p->params_size);
  int_field(j, &f2, "SP_Platform", (long long)p->platform_size);
  int_field(j, &f2, "SP_PlatformFns", (long long)p->platform_fns_size);
  int_field(j, &f2, "SP_DeviceFns", (long long)p->device_fns_size);
  int_field(j, &f2, "SP_StreamExecutor", (long long)p->se_size);
  int_field(j, &f2, "SP_TimerFns", (long long)p->timer_fns_size);
  tfe_json_raw(j, "}");
  tfe_json_sep(j, &first);
  tfe_json_key(j, "expected_struct_sizes");
  tfe_json_raw(j, "{");
  f2 = 1;
  int_field(j, &f2, "SE_PlatformRegistrationParams",
            (long long)SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE);
  int_field(j, &f2, "SP_Platform", (long long)SP_PLATFORM_STRUCT_SIZE);
  int_field(j, &f2, "SP_PlatformFns", (long long)SP_PLATFORM_FNS_STRUCT_SIZE);
  int_field(j, &f2, "SP_DeviceFns", (long long)SP_DEVICE_FNS_STRUCT_SIZE);
  int_field(j, &f2, "SP_StreamExecutor",
            (long long)SP_STREAMEXECUTOR_STRUCT_SIZE);
  int_field(j, &f2, "SP_TimerFns", (long long)SP_TIMER_FNS_STRUCT_SIZE);
  tfe_json_raw(j, "}");
  bool_field(j, &first, "supports_unified_memory",
             p->platform.supports_unified_memory);
  bool_field(j, &first, "use_bfc_allocator", p->platform.use_bfc_allocator);
  bool_field(j, &first, "force_memory_growth",
             p->platform.force_memory_growth);
  tfe_json_sep(j, &first);
  tfe_json_key(j, "optional_functions");
  tfe_json_raw(j, "{");
  f2 = 1;
  bool_field(j, &f2, "memcpy_dtod", p->se.memcpy_dtod != NULL);
  bool_field(j, &f2, "sync_memcpy_dtod", p->se.sync_memcpy_dtod != NULL);
  bool_field(j, &f2, "block_host_until_done",
             p->se.block_host_until_done != NULL);
  bool_field(j, &f2, "unified_memory_allocate",
             p->se.unified_memory_allocate != NULL);
  bool_field(j, &f2, "mem_zero", p->se.mem_zero != NULL);
  bool_field(j, &f2, "memset", p->se.memset != NULL);
  bool_field(j, &f2, "memset32", p->se.memset32 != NULL);
  bool_field(j, &f2, "get_numa_node", p->device_fns.get_numa_node != NULL);
  bool_field(j, &f2, "get_memory_bandwidth",
             p->device_fns.get_memory_bandwidth != NULL);
  bool_field(j, &f2, "get_gflops", p->device_fns.get_gflops != NULL);
  tfe_json_raw(j, "}");
  tfe_json_sep(j, &first);
  tfe_json_key(j, "emulated");
  tfe_json_raw(j, "[");
  f2 = 1;
  if (p->emulated_fills & TFE_PD_EMULATE_MEM_ZERO) {
    tfe_json_sep(j, &f2);
    tfe_json_str(j, "mem_zero");
  }
  if (p->emulated_fills & TFE_PD_EMULATE_MEMSET) {
    tfe_json_sep(j, &f2);
    tfe_json_str(j, "memset");
  }
  if (p->emulated_fills & TFE_PD_EMULATE_MEMSET32) {
    tfe_json_sep(j, &f2);
    tfe_json_str(j, "memset32");
  }
  tfe_json_raw(j, "]");
  tfe_json_sep(j, &first);
  tfe_json_key(j, "devices");
  tfe_json_raw(j, "[");
  for (i = 0; i < p->num_devices; i++) {
    if (i) tfe_json_raw(j, ", ");
    device_json(j, p, p->devices[i]);
  }
  tfe_json_raw(j, "]");
  bool_field(j, &first, "has_init_kernel", p->has_init_kernel);
  tfe_json_sep(j, &first);
  tfe_json_key(j, "kernels");
  tfe_json_raw(j, "[");
  for (i = p->kernels_first; p->has_init_kernel && i < p->kernels_end; i++) {
    const tfe_kernel_reg* r = tfe_kernel_at(i);
    if (r == NULL) continue;
    if (i > p->kernels_first) tfe_json_raw(j, ", ");
    kernel_json(j, r);
  }
  tfe_json_raw(j, "]");
  tfe_json_sep(j, &first);
  tfe_json_key(j, "graph_optimizer");
  if (p->has_optimizer) {
    const TP_OptimizerConfigs* c = &p->optimizer_configs;
    f2 = 1;
    tfe_json_raw(j, "{");
    str_field(j, &f2, "device_type", p->optimizer_device_type);
    bool_field(j, &f2, "create_func", p->optimizer.create_func != NULL);
    tfe_json_sep(j, &f2);
    tfe_json_key(j, "configs");
    tfe_json_fmt(j,
                 "{\"remapping\": \"%s\", \"layout_optimizer\": \"%s\", "
                 "\"constant_folding\": \"%s\", \"arithmetic_optimization\": "
                 "\"%s\", \"auto_mixed_precision\": \"%s\"}",
                 tri(c->remapping), tri(c->layout_optimizer),
                 tri(c->constant_folding), tri(c->arithmetic_optimization),
                 tri(c->auto_mixed_precision));
    bool_field(j, &f2, "runs", 0);
    tfe_json_raw(j, "}");
  } else {
    tfe_json_raw(j, "null");
  }
  tfe_json_sep(j, &first);
  tfe_json_key(j, "profiler");
  if (p->has_profiler) {
    f2 = 1;
    tfe_json_raw(j, "{");
    str_field(j, &f2, "type", p->profiler_type);
    tfe_json_raw(j, "}");
  } else {
    tfe_json_raw(j, "null");
  }
  tfe_json_sep(j, &first);
  tfe_json_key(j, "warnings");
  tfe_json_raw(j, "[");
  for (i = 0; i < p->num_warnings; i++) {
    if (i) tfe_json_raw(j, ", ");
    tfe_json_str(j, p->warnings[i]);
  }
  tfe_json_raw(j, "]");
  tfe_json_raw(j, "}");
}

static TF_Buffer* finish(tfe_json* j, TF_Status* status) {
  TF_Buffer* b = tfe_pb_to_buffer(j);
  if (b == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return b;
}

TF_Buffer* TFE_DescribePluggableDevices(TF_Status* status) {
  tfe_json j = {0};
  int i, n = tfe_platform_count();
  tfe_json_raw(&j, "[");
  for (i = 0; i < n; i++) {
    if (i) tfe_json_raw(&j, ", ");
    platform_json(&j, tfe_platform_at(i));
  }
  tfe_json_raw(&j, "]");
  return finish(&j, status);
}

TF_Buffer* TFE_DescribeKernels(const char* device_type, TF_Status* status) {
  tfe_json j = {0};
  int i, n, first = 1;
  tfe_kernels_ensure_builtins();
  n = tfe_kernel_count();
  tfe_json_raw(&j, "[");
  for (i = 0; i < n; i++) {
    const tfe_kernel_reg* r = tfe_kernel_at(i);
    if (r == NULL || (device_type != NULL && device_type[0] != '\0' &&
                      strcmp(r->device_type, device_type) != 0)) {
      continue;
    }
    tfe_json_sep(&j, &first);
    kernel_json(&j, r);
  }
  tfe_json_raw(&j, "]");
  return finish(&j, status);
}

/* ------------------------------------------------------------------------
 * Statistics and maintenance. */

static tfe_pdev* named(const char* device_name, const char* fn,
                       TF_Status* status) {
  tfe_pdev* d = tfe_pdev_from_name(device_name);
  if (d == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: '%s' is not a PluggableDevice device", fn,
                    device_name ? device_name : "(null)");
  }
  return d;
}

void TFE_PluggableDeviceMemoryStats(const char* device_name,
                                    int64_t* bytes_in_use,
                                    int64_t* bytes_cached,
                                    int64_t* plugin_allocs,
                                    int64_t* plugin_frees,
                                    TF_Status* status) {
  tfe_pdev* d = named(device_name, "TFE_PluggableDeviceMemoryStats", status);
  if (d == NULL) return;
  pthread_mutex_lock(&d->amu);
  if (bytes_in_use) *bytes_in_use = d->in_use_bytes;
  if (bytes_cached) *bytes_cached = d->cached_bytes;
  if (plugin_allocs) *plugin_allocs = d->plugin_allocs;
  if (plugin_frees) *plugin_frees = d->plugin_frees;
  pthread_mutex_unlock(&d->amu);
  tfe_status_ok(status);
}

int TFE_PluggableDevicePluginMemoryStats(const char* device_name,
                                         int64_t* bytes_in_use,
                                         int64_t* num_allocs,
                                         TF_Status* status) {
  SP_AllocatorStats st;
  tfe_pdev* d =
      named(device_name, "TFE_PluggableDevicePluginMemoryStats", status);
  if (d == NULL) return 0;
  memset(&st, 0, sizeof st);
  st.struct_size = SP_ALLOCATORSTATS_STRUCT_SIZE;
  tfe_status_ok(status);
  if (!d->plat->se.get_allocator_stats(&d->dev, &st)) return 0;
  if (st.struct_size == 0) {
    tfe_status_setf(status, TF_FAILED_PRECONDITION,
                    "device plugin '%s': struct_size field in "
                    "SP_AllocatorStats must be set to "
                    "SP_ALLOCATORSTATS_STRUCT_SIZE.",
                    d->plat->path);
    return 0;
  }
  if (bytes_in_use) *bytes_in_use = st.bytes_in_use;
  if (num_allocs) *num_allocs = st.num_allocs;
  return 1;
}

int64_t TFE_PluggableDeviceReleaseCachedMemory(const char* device_name,
                                               TF_Status* status) {
  tfe_pdev* d =
      named(device_name, "TFE_PluggableDeviceReleaseCachedMemory", status);
  if (d == NULL) return 0;
  tfe_status_ok(status);
  return tfe_pdev_release_cache(d);
}

void TFE_PluggableDeviceSynchronize(const char* device_name,
                                    TF_Status* status) {
  tfe_pdev* d = named(device_name, "TFE_PluggableDeviceSynchronize", status);
  if (d == NULL) return;
  tfe_pdev_synchronize(d, status);
}

void TFE_PluggableDeviceFill(TFE_TensorHandle* h, int which, uint32_t pattern,
                             TF_Status* status) {
  if (!tfe_handle_check(h, "TFE_PluggableDeviceFill", status) ||
      !tfe_handle_ready(h, status)) {
    return;
  }
  if (which < 0 || which > 2) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_PluggableDeviceFill: which must be 0, 1 or 2, got "
                    "%d",
                    which);
    return;
  }
  if (h->t == NULL || tfe_pdev_tensor_device(h->t) == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_PluggableDeviceFill: the handle is not in the "
                    "memory of a PluggableDevice");
    return;
  }
  tfe_pdev_fill(h->t, which, pattern, status);
}
