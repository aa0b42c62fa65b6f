/* Shared by the se_broken_*.c test plugins: a small StreamExecutor plugin
 * that fills every table correctly (its device functions do nothing
 * useful) and lets the including file break exactly one thing through
 * these hooks, each a statement run at the end of the matching plugin
 * function (define before including; all default to nothing):
 *
 *   SE_BREAK_INIT(params)      end of SE_InitPlugin
 *   SE_BREAK_DEVICE_FNS(fns)   end of create_device_fns
 *   SE_BREAK_SE(se)            end of create_stream_executor
 *   SE_BREAK_TIMER(tf)         end of create_timer_fns
 *   SE_BREAK_DEVICE(params, status)  end of create_device
 *   SE_BREAK_COUNT(count)      end of get_device_count
 *   SE_WITH_GRAPH / SE_BREAK_GRAPH(params)        define TF_InitGraph
 *   SE_WITH_PROFILER / SE_BREAK_PROFILER(params)  define TF_InitProfiler
 *
 * SE_PLATFORM_NAME / SE_DEVICE_TYPE default to BROKEN_PLATFORM /
 * BROKEN_DEVICE. Every destroy function appends its name to a log that the
 * tests read with se_test_log() ("device0 device1 ..."), so they can check
 * that the core released everything, newest first. */
#ifndef TFE_TESTS_PLUGINS_SE_BROKEN_COMMON_H_
#define TFE_TESTS_PLUGINS_SE_BROKEN_COMMON_H_

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_status.h"

#ifndef SE_PLATFORM_NAME
#define SE_PLATFORM_NAME "BROKEN_PLATFORM"
#endif
#ifndef SE_DEVICE_TYPE
#define SE_DEVICE_TYPE "BROKEN_DEVICE"
#endif
#ifndef SE_BREAK_INIT
#define SE_BREAK_INIT(params)
#endif
#ifndef SE_BREAK_DEVICE_FNS
#define SE_BREAK_DEVICE_FNS(fns)
#endif
#ifndef SE_BREAK_SE
#define SE_BREAK_SE(se)
#endif
#ifndef SE_BREAK_TIMER
#define SE_BREAK_TIMER(tf)
#endif
#ifndef SE_BREAK_DEVICE
#define SE_BREAK_DEVICE(params, status)
#endif
#ifndef SE_BREAK_COUNT
#define SE_BREAK_COUNT(count)
#endif
#ifndef SE_BREAK_GRAPH
#define SE_BREAK_GRAPH(params)
#endif
#ifndef SE_BREAK_PROFILER
#define SE_BREAK_PROFILER(params)
#endif

static char se_log[512];

TF_CAPI_EXPORT const char* se_test_log(void);
const char* se_test_log(void) { return se_log; }

static void se_note(const char* what) {
  size_t n = strlen(se_log);
  snprintf(se_log + n, sizeof se_log - n, "%s%s", n ? " " : "", what);
}

/* ---- a stream executor whose functions succeed and do nothing ---- */

static char se_fake_memory[1024];

static void se_allocate(const SP_Device* d, uint64_t size, int64_t space,
                        SP_DeviceMemoryBase* mem) {
  (void)d;
  (void)space;
  mem->struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  mem->opaque = size <= sizeof se_fake_memory ? se_fake_memory : NULL;
  mem->size = size;
}
static void se_deallocate(const SP_Device* d, SP_DeviceMemoryBase* m) {
  (void)d;
  (void)m;
}
static void* se_host_alloc(const SP_Device* d, uint64_t size) {
  (void)d;
  return malloc(size ? size : 1);
}
static void se_host_free(const SP_Device* d, void* p) {
  (void)d;
  free(p);
}
static void* se_unified_alloc(const SP_Device* d, uint64_t size) {
  (void)d;
  return malloc(size ? size : 1);
}
static void se_unified_free(const SP_Device* d, void* p) {
  (void)d;
  free(p);
}
static TF_Bool se_stats(const SP_Device* d, SP_AllocatorStats* s) {
  (void)d;
  (void)s;
  return 0;
}
static TF_Bool se_usage(const SP_Device* d, int64_t* f, int64_t* t) {
  (void)d;
  *f = *t = 1024;
  return 1;
}
static void se_ok(TF_Status* s) { TF_SetStatus(s, TF_OK, ""); }
static void se_create_stream(const SP_Device* d, SP_Stream* s, TF_Status* st) {
  (void)d;
  *s = (SP_Stream)malloc(1);
  se_ok(st);
}
static void se_destroy_stream(const SP_Device* d, SP_Stream s) {
  (void)d;
  free(s);
}
static void se_dep(const SP_Device* d, SP_Stream a, SP_Stream b,
                   TF_Status* st) {
  (void)d;
  (void)a;
  (void)b;
  se_ok(st);
}
static void se_stream_status(const SP_Device* d, SP_Stream s, TF_Status* st) {
  (void)d;
  (void)s;
  se_ok(st);
}
static void se_create_event(const SP_Device* d, SP_Event* e, TF_Status* st) {
  (void)d;
  *e = (SP_Event)malloc(1);
  se_ok(st);
}
static void se_destroy_event(const SP_Device* d, SP_Event e) {
  (void)d;
  free(e);
}
static SE_EventStatus se_event_status(const SP_Device* d, SP_Event e) {
  (void)d;
  (void)e;
  return SE_EVENT_COMPLETE;
}
static void se_record(const SP_Device* d, SP_Stream s, SP_Event e,
                      TF_Status* st) {
  (void)d;
  (void)s;
  (void)e;
  se_ok(st);
}
static void se_wait(const SP_Device* const d, SP_Stream s, SP_Event e,
                    TF_Status* const st) {
  (void)d;
  (void)s;
  (void)e;
  se_ok(st);
}
static void se_create_timer(const SP_Device* d, SP_Timer* t, TF_Status* st) {
  (void)d;
  *t = (SP_Timer)malloc(1);
  se_ok(st);
}
static void se_destroy_timer(const SP_Device* d, SP_Timer t) {
  (void)d;
  free(t);
}
static void se_timer_op(const SP_Device* d, SP_Stream s, SP_Timer t,
                        TF_Status* st) {
  (void)d;
  (void)s;
  (void)t;
  se_ok(st);
}
static void se_dtoh(const SP_Device* d, SP_Stream s, void* dst,
                    const SP_DeviceMemoryBase* src, uint64_t n,
                    TF_Status* st) {
  (void)d;
  (void)s;
  memcpy(dst, src->opaque, n);
  se_ok(st);
}
static void se_htod(const SP_Device* d, SP_Stream s, SP_DeviceMemoryBase* dst,
                    const void* src, uint64_t n, TF_Status* st) {
  (void)d;
  (void)s;
  memcpy(dst->opaque, src, n);
  se_ok(st);
}
static void se_sync_dtoh(const SP_Device* d, void* dst,
                         const SP_DeviceMemoryBase* src, uint64_t n,
                         TF_Status* st) {
  se_dtoh(d, NULL, dst, src, n, st);
}
static void se_sync_htod(const SP_Device* d, SP_DeviceMemoryBase* dst,
                         const void* src, uint64_t n, TF_Status* st) {
  se_htod(d, NULL, dst, src, n, st);
}
static void se_block_event(const SP_Device* d, SP_Event e, TF_Status* st) {
  (void)d;
  (void)e;
  se_ok(st);
}
static void se_sync_all(const SP_Device* d, TF_Status* st) {
  (void)d;
  se_ok(st);
}
static TF_Bool se_callback(const SP_Device* d, SP_Stream s,
                           SE_StatusCallbackFn fn, void* arg) {
  TF_Status* st = TF_NewStatus();
  (void)d;
  (void)s;
  fn(arg, st);
  TF_DeleteStatus(st);
  return 1;
}
static void se_mem_zero(const SP_Device* d, SP_Stream s,
                        SP_DeviceMemoryBase* m, uint64_t n, TF_Status* st) {
  (void)d;
  (void)s;
  memset(m->opaque, 0, n);
  se_ok(st);
}
static void se_memset(const SP_Device* d, SP_Stream s, SP_DeviceMemoryBase* m,
                      uint8_t p, uint64_t n, TF_Status* st) {
  (void)d;
  (void)s;
  memset(m->opaque, p, n);
  se_ok(st);
}
static void se_memset32(const SP_Device* d, SP_Stream s,
                        SP_DeviceMemoryBase* m, uint32_t p, uint64_t n,
                        TF_Status* st) {
  uint64_t i;
  (void)d;
  (void)s;
  for (i = 0; i + 4 <= n; i += 4) memcpy((char*)m->opaque + i, &p, 4);
  se_ok(st);
}

/* ---- platform functions ---- */

static void se_count(const SP_Platform* p, int* count, TF_Status* st) {
  (void)p;
  *count = 2;
  se_ok(st);
  SE_BREAK_COUNT(*count)
}
static void se_create_device(const SP_Platform* p, SE_CreateDeviceParams* params,
                             TF_Status* status) {
  (void)p;
  params->device->struct_size = SP_DEVICE_STRUCT_SIZE;
  params->device->ordinal = params->ordinal;
  se_ok(status);
  SE_BREAK_DEVICE(params, status)
}
static void se_destroy_device(const SP_Platform* p, SP_Device* d) {
  char what[32];
  (void)p;
  snprintf(what, sizeof what, "device%d", (int)d->ordinal);
  se_note(what);
}
static void se_create_device_fns(const SP_Platform* p,
                                 SE_CreateDeviceFnsParams* params,
                                 TF_Status* st) {
  (void)p;
  params->device_fns->struct_size = SP_DEVICE_FNS_STRUCT_SIZE;
  se_ok(st);
  SE_BREAK_DEVICE_FNS(params->device_fns)
}
static void se_destroy_device_fns(const SP_Platform* p, SP_DeviceFns* f) {
  (void)p;
  (void)f;
  se_note("device_fns");
}
static void se_create_se(const SP_Platform* p,
                         SE_CreateStreamExecutorParams* params,
                         TF_Status* st) {
  SP_StreamExecutor* se = params->stream_executor;
  (void)p;
  se->struct_size = SP_STREAMEXECUTOR_STRUCT_SIZE;
  se->allocate = se_allocate;
  se->deallocate = se_deallocate;
  se->host_memory_allocate = se_host_alloc;
  se->host_memory_deallocate = se_host_free;
  se->unified_memory_allocate = se_unified_alloc;
  se->unified_memory_deallocate = se_unified_free;
  se->get_allocator_stats = se_stats;
  se->device_memory_usage = se_usage;
  se->create_stream = se_create_stream;
  se->destroy_stream = se_destroy_stream;
  se->create_stream_dependency = se_dep;
  se->get_stream_status = se_stream_status;
  se->create_event = se_create_event;
  se->destroy_event = se_destroy_event;
  se->get_event_status = se_event_status;
  se->record_event = se_record;
  se->wait_for_event = se_wait;
  se->create_timer = se_create_timer;
  se->destroy_timer = se_destroy_timer;
  se->start_timer = se_timer_op;
  se->stop_timer = se_timer_op;
  se->memcpy_dtoh = se_dtoh;
  se->memcpy_htod = se_htod;
  se->sync_memcpy_dtoh = se_sync_dtoh;
  se->sync_memcpy_htod = se_sync_htod;
  se->block_host_for_event = se_block_event;
  se->synchronize_all_activity = se_sync_all;
  se->host_callback = se_callback;
  se->mem_zero = se_mem_zero;
  se->memset = se_memset;
  se->memset32 = se_memset32;
  se_ok(st);
  SE_BREAK_SE(se)
}
static void se_destroy_se(const SP_Platform* p, SP_StreamExecutor* se) {
  (void)p;
  (void)se;
  se_note("stream_executor");
}
static uint64_t se_ns(SP_Timer t) {
  (void)t;
  return 1;
}
static void se_create_timer_fns(const SP_Platform* p, SP_TimerFns* tf,
                                TF_Status* st) {
  (void)p;
  tf->struct_size = SP_TIMER_FNS_STRUCT_SIZE;
  tf->nanoseconds = se_ns;
  se_ok(st);
  SE_BREAK_TIMER(tf)
}
static void se_destroy_timer_fns(const SP_Platform* p, SP_TimerFns* tf) {
  (void)p;
  (void)tf;
  se_note("timer_fns");
}
static void se_destroy_platform(SP_Platform* p) {
  (void)p;
  se_note("platform");
}
static void se_destroy_platform_fns(SP_PlatformFns* f) {
  (void)f;
  se_note("platform_fns");
}

TF_CAPI_EXPORT void SE_InitPlugin(SE_PlatformRegistrationParams* params,
                                  TF_Status* status);
void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status) {
  SP_Platform* p = params->platform;
  SP_PlatformFns* f = params->platform_fns;
  p->struct_size = SP_PLATFORM_STRUCT_SIZE;
  p->name = SE_PLATFORM_NAME;
  p->type = SE_DEVICE_TYPE;
  f->struct_size = SP_PLATFORM_FNS_STRUCT_SIZE;
  f->get_device_count = se_count;
  f->create_device = se_create_device;
  f->destroy_device = se_destroy_device;
  f->create_device_fns = se_create_device_fns;
  f->destroy_device_fns = se_destroy_device_fns;
  f->create_stream_executor = se_create_se;
  f->destroy_stream_executor = se_destroy_se;
  f->create_timer_fns = se_create_timer_fns;
  f->destroy_timer_fns = se_destroy_timer_fns;
  params->destroy_platform = se_destroy_platform;
  params->destroy_platform_fns = se_destroy_platform_fns;
  se_ok(status);
  SE_BREAK_INIT(params)
}

#ifdef SE_WITH_GRAPH
static void se_optimize(void* o, const TF_Buffer* in, const TF_GrapplerItem* i,
                        TF_Buffer* out, TF_Status* st) {
  (void)o;
  (void)in;
  (void)i;
  (void)out;
  se_ok(st);
}
TF_CAPI_EXPORT void TF_InitGraph(TP_OptimizerRegistrationParams* params,
                                 TF_Status* status);
void TF_InitGraph(TP_OptimizerRegistrationParams* params, TF_Status* status) {
  params->device_type = SE_DEVICE_TYPE;
  params->optimizer->optimize_func = se_optimize;
  se_ok(status);
  SE_BREAK_GRAPH(params)
}
#endif

#ifdef SE_WITH_PROFILER
static void se_prof_op(const TP_Profiler* p, TF_Status* st) {
  (void)p;
  se_ok(st);
}
static void se_prof_collect(const TP_Profiler* p, uint8_t* b, size_t* n,
                            TF_Status* st) {
  (void)p;
  (void)b;
  *n = 0;
  se_ok(st);
}
static void se_prof_destroy(TP_Profiler* p) {
  (void)p;
  se_note("profiler");
}
static void se_prof_destroy_fns(TP_ProfilerFns* f) {
  (void)f;
  se_note("profiler_fns");
}
TF_CAPI_EXPORT void TF_InitProfiler(TF_ProfilerRegistrationParams* params,
                                    TF_Status* status);
void TF_InitProfiler(TF_ProfilerRegistrationParams* params,
                     TF_Status* status) {
  params->profiler->device_type = SE_DEVICE_TYPE;
  params->profiler_fns->start = se_prof_op;
  params->profiler_fns->stop = se_prof_op;
  params->profiler_fns->collect_data_xspace = se_prof_collect;
  params->destroy_profiler = se_prof_destroy;
  params->destroy_profiler_fns = se_prof_destroy_fns;
  se_ok(status);
  SE_BREAK_PROFILER(params)
}
#endif

#endif /* TFE_TESTS_PLUGINS_SE_BROKEN_COMMON_H_ */
