/* Fuzz harness for the plugin loaders' checks: the StreamExecutor loader
 * (csrc/plugins/se_loader.c: SE_InitPlugin's tables, devices, a graph
 * optimizer and a profiler) and the filesystem loader
 * (csrc/plugins/fs_loader.c: TF_FilesystemPluginInfo). Instead of loading
 * shared libraries it hands the loaders in-process fake plugins whose init
 * functions fill the structs from the fuzz input: every struct_size (0, the
 * minimum, one byte short, the legacy layouts, random and huge values),
 * every version number, every function pointer (NULL or set), names and
 * schemes (valid, malformed, duplicate, over-long) and the status each
 * plugin callback returns.
 *
 * What it looks for: crashes, reads past what a plugin declared (the fake
 * filesystem tables are allocated with exactly their declared size),
 * memory the loader should have released with the plugin's own functions
 * (each fake device owns a heap block, freed only by destroy_device, so a
 * missed destroy is a leak and a doubled one a double free), and one
 * invariant: a load either succeeds or sets a non-OK status.
 *
 * Built with the other targets (tests/fuzz/CMakeLists.txt; see
 * tests/fuzz/README.md). Input: byte 0 picks the loader; every later
 * decision takes the next byte(s), and an exhausted input reads as zeros,
 * which always means "the value a well-behaved plugin would use". */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "devices/pluggable_device.h"
#include "fs/fs.h"
#include "plugins/fs_loader.h"
#include "plugins/se_loader.h"
#include "tensorflow/c/tf_status.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* ---- reading decisions from the input ---- */

static const uint8_t* g_in;
static size_t g_left;

static unsigned u8(void) {
  if (g_left == 0) return 0;
  g_left--;
  return *g_in++;
}

static uint32_t u32(void) {
  uint32_t v = 0;
  int i;
  for (i = 0; i < 4; i++) v = (v << 8) | u8();
  return v;
}

/* A struct_size a plugin might declare: the right one (byte 0), 0, the
 * minimum the loader needs, one byte short of it, `legacy` (an older
 * header's size, when there is one), a little larger, or arbitrary. */
static size_t pick_size(size_t right, size_t minimum, size_t legacy) {
  unsigned b = u8();
  switch (b % 10) {
    case 0:
      return right;
    case 1:
      return 0;
    case 2:
      return minimum;
    case 3:
      return minimum - 1;
    case 4:
      return legacy ? legacy : right;
    case 5:
      return right + 1 + u8();
    case 6:
      return u8();
    case 7:
      return (size_t)u32();
    case 8:
      return SIZE_MAX - u8();
    default:
      return right - 1 - (u8() % right);
  }
}

/* A name for SP_Platform.name/type, an optimizer's or a profiler's device
 * type: valid ones, malformed ones, NULL and one longer than any buffer. */
static const char* pick_name(void) {
  static char long_name[400];
  static const char* const names[] = {
      "FUZZ", "FUZZ_DEV", "", "fuzz", "FUZZ DEV", "1FUZZ", "CPU", "GPU",
      "F\xff", "_FUZZ", "A", "FUZZ_", NULL, long_name};
  unsigned b = u8();
  if (long_name[0] == '\0') memset(long_name, 'Z', sizeof long_name - 1);
  return names[b % (sizeof names / sizeof names[0])];
}

/* 0 (the right value) or a few wrong ones. */
static int32_t pick_version(int32_t right) {
  switch (u8() % 6) {
    case 1:
      return right + 1;
    case 2:
      return right - 1;
    case 3:
      return -1;
    case 4:
      return INT32_MAX;
    case 5:
      return INT32_MIN;
    default:
      return right;
  }
}

/* 1 = leave the function out (byte values 1 mod 8, so zeros keep it). */
static int drop(void) { return u8() % 8 == 1; }

/* The status a plugin callback returns: OK unless the byte says so. */
static void maybe_fail(TF_Status* s, const char* where) {
  unsigned b = u8();
  if (b % 16 == 1) TF_SetStatus(s, TF_INTERNAL, where);
  if (b % 16 == 2) TF_SetStatus(s, TF_OK, "ok with a message");
}

/* Writes `fn` into the pointer-sized slot at `off` of a struct, when the
 * slot lies inside the first `limit` bytes. */
static void put_slot(void* base, size_t limit, size_t off, void* fn) {
  if (off + sizeof fn <= limit) memcpy((char*)base + off, &fn, sizeof fn);
}

/* Functions the loaders store but never call: one generic body. The
 * loaders only compare them with NULL and copy them, so the mismatched
 * type is never used for a call. */
static void* fz_unused(void) { return NULL; }
#define UNUSED_FN ((void*)(uintptr_t)&fz_unused)

/* ---- a fake StreamExecutor plugin ---- */

static void fz_destroy_platform(SP_Platform* p) { (void)p; }
static void fz_destroy_platform_fns(SP_PlatformFns* f) { (void)f; }

static void fz_get_device_count(const SP_Platform* p, int* count,
                                TF_Status* s) {
  (void)p;
  switch (u8() % 6) {
    case 1:
      *count = -1;
      break;
    case 2:
      *count = 65 + (int)u8();
      break;
    case 3:
      *count = INT32_MAX;
      break;
    case 4:
      *count = 0;
      break;
    default:
      *count = 1 + (int)(u8() % 3);
  }
  maybe_fail(s, "get_device_count failed");
}

static void fz_create_device(const SP_Platform* p, SE_CreateDeviceParams* cp,
                             TF_Status* s) {
  SP_Device* d = cp->device;
  (void)p;
  maybe_fail(s, "create_device failed");
  if (TF_GetCode(s) != TF_OK) return;
  d->struct_size = pick_size(SP_DEVICE_STRUCT_SIZE,
                             TF_OFFSET_OF_END(SP_Device, device_handle), 0);
  d->ordinal = u8() % 8 == 1 ? cp->ordinal + 1 : cp->ordinal;
  /* Owned by the device until destroy_device: leak or double free if the
   * loader gets cleanup wrong. */
  d->device_handle = malloc(16);
  d->hardware_name = u8() % 4 == 1 ? NULL : "fuzz hardware";
}

static void fz_destroy_device(const SP_Platform* p, SP_Device* d) {
  (void)p;
  free(d->device_handle);
  d->device_handle = NULL;
}

static void fz_create_device_fns(const SP_Platform* p,
                                 SE_CreateDeviceFnsParams* dp, TF_Status* s) {
  SP_DeviceFns* f = dp->device_fns;
  (void)p;
  maybe_fail(s, "create_device_fns failed");
  if (TF_GetCode(s) != TF_OK) return;
  f->struct_size = pick_size(SP_DEVICE_FNS_STRUCT_SIZE,
                             TF_OFFSET_OF_END(SP_DeviceFns, ext), 0);
  put_slot(f, sizeof *f, offsetof(SP_DeviceFns, get_numa_node),
           drop() ? NULL : UNUSED_FN);
}

static void fz_destroy_device_fns(const SP_Platform* p, SP_DeviceFns* f) {
  (void)p;
  (void)f;
}

static void fz_create_stream_executor(const SP_Platform* p,
                                      SE_CreateStreamExecutorParams* sp,
                                      TF_Status* s) {
  SP_StreamExecutor* se = sp->stream_executor;
  size_t off;
  (void)p;
  maybe_fail(s, "create_stream_executor failed");
  if (TF_GetCode(s) != TF_OK) return;
  se->struct_size =
      pick_size(SP_STREAMEXECUTOR_STRUCT_SIZE,
                TF_OFFSET_OF_END(SP_StreamExecutor, host_callback),
                TF_OFFSET_OF_END(SP_StreamExecutor, mem_zero));
  /* Every slot after ext is a function pointer. */
  for (off = offsetof(SP_StreamExecutor, ext) + sizeof(void*);
       off + sizeof(void*) <= sizeof *se; off += sizeof(void*)) {
    put_slot(se, sizeof *se, off, drop() ? NULL : UNUSED_FN);
  }
}

static void fz_destroy_stream_executor(const SP_Platform* p,
                                       SP_StreamExecutor* se) {
  (void)p;
  (void)se;
}

static uint64_t fz_nanoseconds(SP_Timer t) {
  (void)t;
  return 0;
}

static void fz_create_timer_fns(const SP_Platform* p, SP_TimerFns* t,
                                TF_Status* s) {
  (void)p;
  maybe_fail(s, "create_timer_fns failed");
  if (TF_GetCode(s) != TF_OK) return;
  t->struct_size = pick_size(SP_TIMER_FNS_STRUCT_SIZE,
                             TF_OFFSET_OF_END(SP_TimerFns, nanoseconds), 0);
  t->nanoseconds = drop() ? NULL : fz_nanoseconds;
}

static void fz_destroy_timer_fns(const SP_Platform* p, SP_TimerFns* t) {
  (void)p;
  (void)t;
}

static void fz_se_init(SE_PlatformRegistrationParams* params, TF_Status* s) {
  SP_Platform* ps = params->platform;
  SP_PlatformFns* f = params->platform_fns;
  maybe_fail(s, "SE_InitPlugin failed");
  if (TF_GetCode(s) != TF_OK) return;
  params->struct_size = pick_size(
      SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE,
      TF_OFFSET_OF_END(SE_PlatformRegistrationParams, destroy_platform_fns),
      0);
  params->major_version = pick_version(SE_MAJOR);
  params->minor_version = pick_version(SE_MINOR);
  params->patch_version = pick_version(SE_PATCH);
  params->destroy_platform = drop() ? NULL : fz_destroy_platform;
  params->destroy_platform_fns = drop() ? NULL : fz_destroy_platform_fns;

  ps->struct_size = pick_size(SP_PLATFORM_STRUCT_SIZE,
                              TF_OFFSET_OF_END(SP_Platform, type), 0);
  ps->name = pick_name();
  ps->type = pick_name();
  ps->supports_unified_memory = u8() % 4 == 1;
  ps->use_bfc_allocator = u8() % 2;
  ps->force_memory_growth = u8() % 2;

  f->struct_size =
      pick_size(SP_PLATFORM_FNS_STRUCT_SIZE,
                TF_OFFSET_OF_END(SP_PlatformFns, destroy_timer_fns), 0);
  f->get_device_count = drop() ? NULL : fz_get_device_count;
  f->create_device = drop() ? NULL : fz_create_device;
  f->destroy_device = drop() ? NULL : fz_destroy_device;
  f->create_device_fns = drop() ? NULL : fz_create_device_fns;
  f->destroy_device_fns = drop() ? NULL : fz_destroy_device_fns;
  f->create_stream_executor = drop() ? NULL : fz_create_stream_executor;
  f->destroy_stream_executor = drop() ? NULL : fz_destroy_stream_executor;
  f->create_timer_fns = drop() ? NULL : fz_create_timer_fns;
  f->destroy_timer_fns = drop() ? NULL : fz_destroy_timer_fns;
}

/* ---- a fake graph optimizer ---- */

static void fz_optimize(void* o, const TF_Buffer* in, const TF_GrapplerItem* g,
                        TF_Buffer* out, TF_Status* s) {
  (void)o;
  (void)in;
  (void)g;
  (void)out;
  (void)s;
}
static void* fz_opt_create(void) { return NULL; }
static void fz_opt_destroy(void* o) { (void)o; }

static void fz_graph_init(TP_OptimizerRegistrationParams* params,
                          TF_Status* s) {
  TP_OptimizerConfigs* cfg = params->optimizer_configs;
  TP_Optimizer* opt = params->optimizer;
  size_t off;
  maybe_fail(s, "TF_InitGraph failed");
  if (TF_GetCode(s) != TF_OK) return;
  params->struct_size = pick_size(
      TP_OPTIMIZER_REGISTRATION_PARAMS_STRUCT_SIZE,
      TF_OFFSET_OF_END(TP_OptimizerRegistrationParams, optimizer), 0);
  params->major_version = pick_version(GO_MAJOR);
  params->minor_version = pick_version(GO_MINOR);
  params->patch_version = pick_version(GO_PATCH);
  params->device_type = pick_name();
  cfg->struct_size =
      pick_size(TP_OPTIMIZER_CONFIGS_STRUCT_SIZE,
                TF_OFFSET_OF_END(TP_OptimizerConfigs, ext),
                TF_OFFSET_OF_END(TP_OptimizerConfigs, memory_optimization));
  for (off = offsetof(TP_OptimizerConfigs, disable_model_pruning);
       off + sizeof(TF_TriState) <= sizeof *cfg; off += sizeof(TF_TriState)) {
    TF_TriState v = (TF_TriState)(u8() % 4); /* 3 is out of range */
    memcpy((char*)cfg + off, &v, sizeof v);
  }
  opt->struct_size = pick_size(TP_OPTIMIZER_STRUCT_SIZE,
                               TF_OFFSET_OF_END(TP_Optimizer, optimize_func),
                               0);
  opt->create_func = drop() ? NULL : fz_opt_create;
  opt->optimize_func = drop() ? NULL : fz_optimize;
  opt->destroy_func = drop() ? NULL : fz_opt_destroy;
}

/* ---- a fake profiler ---- */

static void fz_prof_start(const TP_Profiler* p, TF_Status* s) {
  (void)p;
  (void)s;
}
static void fz_prof_collect(const TP_Profiler* p, uint8_t* b, size_t* n,
                            TF_Status* s) {
  (void)p;
  (void)b;
  (void)s;
  *n = 0;
}
static void fz_destroy_profiler(TP_Profiler* p) { (void)p; }
static void fz_destroy_profiler_fns(TP_ProfilerFns* f) { (void)f; }

static void fz_profiler_init(TF_ProfilerRegistrationParams* params,
                             TF_Status* s) {
  maybe_fail(s, "TF_InitProfiler failed");
  if (TF_GetCode(s) != TF_OK) return;
  params->struct_size = pick_size(
      TF_PROFILER_REGISTRATION_PARAMS_STRUCT_SIZE,
      TF_OFFSET_OF_END(TF_ProfilerRegistrationParams, destroy_profiler_fns),
      0);
  params->major_version = pick_version(TP_MAJOR);
  params->minor_version = pick_version(TP_MINOR);
  params->patch_version = pick_version(TP_PATCH);
  params->destroy_profiler = drop() ? NULL : fz_destroy_profiler;
  params->destroy_profiler_fns = drop() ? NULL : fz_destroy_profiler_fns;
  params->profiler->struct_size = pick_size(
      TP_PROFILER_STRUCT_SIZE, TF_OFFSET_OF_END(TP_Profiler, device_type), 0);
  params->profiler->device_type = pick_name();
  params->profiler_fns->struct_size =
      pick_size(TP_PROFILER_FNS_STRUCT_SIZE,
                TF_OFFSET_OF_END(TP_ProfilerFns, collect_data_xspace), 0);
  params->profiler_fns->start = drop() ? NULL : fz_prof_start;
  params->profiler_fns->stop = drop() ? NULL : fz_prof_start;
  params->profiler_fns->collect_data_xspace =
      drop() ? NULL : fz_prof_collect;
}

static void check_failed(TF_Status* s, int ok, const char* what) {
  if (!ok && TF_GetCode(s) == TF_OK) {
    fprintf(stderr, "%s failed with an OK status\n", what);
    abort();
  }
  if (ok && TF_GetCode(s) != TF_OK) {
    fprintf(stderr, "%s succeeded with status %d: %s\n", what,
            (int)TF_GetCode(s), TF_Message(s));
    abort();
  }
}

static void run_se(TF_Status* s) {
  tfe_platform* p = tfe_se_load("fuzz-plugin.so", fz_se_init, s);
  check_failed(s, p != NULL, "tfe_se_load");
  if (p == NULL) return;
  if (u8() % 2 == 0) {
    check_failed(s, tfe_graph_load(p, fz_graph_init, s), "tfe_graph_load");
  }
  if (u8() % 2 == 0) {
    check_failed(s, tfe_profiler_load(p, fz_profiler_init, s),
                 "tfe_profiler_load");
  }
  tfe_platform_destroy(p);
}

/* ---- a fake filesystem plugin ---- */

static void* fz_alloc(size_t n) { return malloc(n); }
static void fz_free(void* p) { free(p); }

static void fz_fs_init(TF_Filesystem* fs, TF_Status* s) {
  (void)fs;
  TF_SetStatus(s, TF_OK, "");
}
static void fz_fs_init_fails(TF_Filesystem* fs, TF_Status* s) {
  (void)fs;
  TF_SetStatus(s, TF_UNAVAILABLE, "fuzz filesystem init failed");
}
static void fz_fs_cleanup(TF_Filesystem* fs) { (void)fs; }

/* A table the plugin allocates with exactly its declared size (the core's
 * size when it declares more, or 0), with each function slot NULL or set.
 * Slot 0 of every table is the first function; `init`/`cleanup` get real
 * functions when they are the filesystem table's. */
static void* fake_table(size_t declared, size_t core, int is_fs) {
  size_t n = declared > 0 && declared < core ? declared : core;
  size_t off;
  char* t = (char*)malloc(n);
  if (t == NULL) return NULL;
  memset(t, 0, n);
  for (off = 0; off + sizeof(void*) <= n; off += sizeof(void*)) {
    void* fn = drop() ? NULL : UNUSED_FN;
    if (is_fs && off == offsetof(TF_FilesystemOps, init) && fn != NULL) {
      fn = (void*)(uintptr_t)(u8() % 8 == 1 ? &fz_fs_init_fails : &fz_fs_init);
    } else if (is_fs && off == offsetof(TF_FilesystemOps, cleanup) &&
               fn != NULL) {
      fn = (void*)(uintptr_t)&fz_fs_cleanup;
    }
    put_slot(t, n, off, fn);
  }
  return t;
}

static char* fake_scheme(void) {
  static const char* const fixed[] = {"", "file", "ram", "1bad", "a b",
                                      "s3:", "x.y", "gs"};
  unsigned b = u8();
  char buf[300];
  if (b % 4 == 1) return NULL;
  if (b % 4 == 2) {
    snprintf(buf, sizeof buf, "%s", fixed[u8() % 8]);
  } else if (b % 4 == 3) {
    memset(buf, 'q', 299);
    buf[299] = '\0';
  } else {
    /* A fresh, valid scheme: at most 256 of them ever get registered. */
    snprintf(buf, sizeof buf, "fz%u", u8());
  }
  {
    char* r = (char*)malloc(strlen(buf) + 1);
    if (r != NULL) memcpy(r, buf, strlen(buf) + 1);
    return r;
  }
}

static void free_info_ourselves(TF_FilesystemPluginInfo* info, size_t n) {
  size_t i;
  if (info->ops == NULL) return;
  for (i = 0; i < n; i++) {
    TF_FilesystemPluginOps* e = &info->ops[i];
    free(e->scheme);
    free(e->filesystem_ops);
    free(e->random_access_file_ops);
    free(e->writable_file_ops);
    free(e->read_only_memory_region_ops);
  }
  free(info->ops);
}

static void run_fs(TF_Status* s) {
  TF_FilesystemPluginInfo info;
  size_t i, n = u8() % 4, built = n;
  memset(&info, 0, sizeof info);
  info.plugin_memory_allocate = drop() ? NULL : fz_alloc;
  info.plugin_memory_free = drop() ? NULL : fz_free;
  info.num_schemes = n;
  if (u8() % 8 == 1) {
    /* num_schemes without an ops array, possibly huge. */
    info.num_schemes = u8() % 2 ? SIZE_MAX : n + 1;
    built = 0;
  } else if (n > 0) {
    info.ops = (TF_FilesystemPluginOps*)calloc(n, sizeof *info.ops);
    if (info.ops == NULL) return;
  }
  for (i = 0; i < built; i++) {
    TF_FilesystemPluginOps* e = &info.ops[i];
    e->scheme = fake_scheme();
    e->filesystem_ops_abi = u8() % 8 == 1 ? 7 : TF_FILESYSTEM_OPS_ABI;
    e->filesystem_ops_api = u8() % 8 == 1 ? 7 : TF_FILESYSTEM_OPS_API;
    e->filesystem_ops_size = pick_size(
        TF_FILESYSTEM_OPS_SIZE, TF_OFFSET_OF_END(TF_FilesystemOps, cleanup),
        0);
    if (!drop()) {
      e->filesystem_ops = (TF_FilesystemOps*)fake_table(
          e->filesystem_ops_size, sizeof(TF_FilesystemOps), 1);
    }
    e->random_access_file_ops_abi = TF_RANDOM_ACCESS_FILE_OPS_ABI;
    e->random_access_file_ops_api = TF_RANDOM_ACCESS_FILE_OPS_API;
    e->random_access_file_ops_size =
        pick_size(TF_RANDOM_ACCESS_FILE_OPS_SIZE,
                  TF_OFFSET_OF_END(TF_RandomAccessFileOps, cleanup), 0);
    if (!drop()) {
      e->random_access_file_ops = (TF_RandomAccessFileOps*)fake_table(
          e->random_access_file_ops_size, sizeof(TF_RandomAccessFileOps), 0);
    }
    e->writable_file_ops_abi = TF_WRITABLE_FILE_OPS_ABI;
    e->writable_file_ops_api = TF_WRITABLE_FILE_OPS_API;
    e->writable_file_ops_size =
        pick_size(TF_WRITABLE_FILE_OPS_SIZE,
                  TF_OFFSET_OF_END(TF_WritableFileOps, cleanup), 0);
    if (!drop()) {
      e->writable_file_ops = (TF_WritableFileOps*)fake_table(
          e->writable_file_ops_size, sizeof(TF_WritableFileOps), 0);
    }
    e->read_only_memory_region_ops_abi = TF_READ_ONLY_MEMORY_REGION_OPS_ABI;
    e->read_only_memory_region_ops_api = TF_READ_ONLY_MEMORY_REGION_OPS_API;
    e->read_only_memory_region_ops_size =
        pick_size(TF_READ_ONLY_MEMORY_REGION_OPS_SIZE,
                  TF_OFFSET_OF_END(TF_ReadOnlyMemoryRegionOps, length), 0);
    if (!drop()) {
      e->read_only_memory_region_ops = (TF_ReadOnlyMemoryRegionOps*)fake_table(
          e->read_only_memory_region_ops_size,
          sizeof(TF_ReadOnlyMemoryRegionOps), 0);
    }
  }
  tfe_fs_register_plugin_info(&info, "fuzz-fs.so", s);
  /* The loader frees everything with plugin_memory_free and clears info;
   * without that function it leaves everything to us. */
  if (info.plugin_memory_free == NULL) free_info_ourselves(&info, built);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static int ready;
  TF_Status* s;
  if (!ready) {
    tfe_fs_builtins_ensure(); /* "", file and ram are then taken */
    ready = 1;
  }
  g_in = data;
  g_left = size;
  s = TF_NewStatus();
  if (s == NULL) return 0;
  if (u8() % 2 == 0) {
    run_se(s);
  } else {
    run_fs(s);
  }
  TF_DeleteStatus(s);
  return 0;
}
