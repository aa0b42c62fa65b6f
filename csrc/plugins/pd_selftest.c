/* TFE_PluggableDeviceSelfTest (tfe/plugins.h): exercises a device's
 * SP_StreamExecutor directly, on streams of its own, and reports each
 * check. Used by `python -m tfe_py doctor`. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "devices/pluggable_device.h"
#include "plugins/grappler_run.h"
#include "plugins/json.h"
#include "tfe/plugins.h"

typedef struct report {
  tfe_json j;
  int first;
  int all_ok;
} report;

static void check(report* r, const char* name, int ok, const char* detail) {
  int f = 1;
  tfe_json_sep(&r->j, &r->first);
  tfe_json_raw(&r->j, "{");
  tfe_json_sep(&r->j, &f);
  tfe_json_key(&r->j, "name");
  tfe_json_str(&r->j, name);
  tfe_json_sep(&r->j, &f);
  tfe_json_key(&r->j, "ok");
  tfe_json_raw(&r->j, ok ? "true" : "false");
  tfe_json_sep(&r->j, &f);
  tfe_json_key(&r->j, "detail");
  tfe_json_str(&r->j, detail ? detail : "");
  tfe_json_raw(&r->j, "}");
  if (!ok) r->all_ok = 0;
}

/* x: float[2] fed; y = (x * c) + x with c a Const; out = Identity(y).
 * NULL with status set when the graph cannot be built. */
static TF_Graph* optimizer_input(TF_Status* st) {
  static const int64_t dims[1] = {2};
  static const float cval[2] = {2.0f, 3.0f};
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d;
  TF_Operation *x, *c, *m, *y;
  TF_Tensor* t;
  TF_Output a, b;
  if (g == NULL) return NULL;
  d = TF_NewOperation(g, "Placeholder", "x");
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", dims, 1);
  x = TF_FinishOperation(d, st);
  if (x == NULL) goto fail;
  t = TF_AllocateTensor(TF_FLOAT, dims, 1, sizeof cval);
  if (t == NULL) goto fail;
  memcpy(TF_TensorData(t), cval, sizeof cval);
  d = TF_NewOperation(g, "Const", "c");
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrTensor(d, "value", t, st);
  TF_DeleteTensor(t);
  c = TF_FinishOperation(d, st);
  if (c == NULL) goto fail;
  a.oper = x;
  a.index = 0;
  b.oper = c;
  b.index = 0;
  d = TF_NewOperation(g, "Mul", "m");
  TF_AddInput(d, a);
  TF_AddInput(d, b);
  m = TF_FinishOperation(d, st);
  if (m == NULL) goto fail;
  b.oper = m;
  d = TF_NewOperation(g, "AddV2", "y");
  TF_AddInput(d, b);
  TF_AddInput(d, a);
  y = TF_FinishOperation(d, st);
  if (y == NULL) goto fail;
  a.oper = y;
  d = TF_NewOperation(g, "Identity", "out");
  TF_AddInput(d, a);
  if (TF_FinishOperation(d, st) == NULL) goto fail;
  return g;
fail:
  TF_DeleteGraph(g);
  return NULL;
}

static int count_ops(TF_Graph* g) {
  size_t pos = 0;
  int n = 0;
  while (TF_GraphNextOperation(g, &pos) != NULL) n++;
  return n;
}

/* Runs the platform's optimizer as a session would (feeds {x}, fetches
 * {out}) and reports what came back: the error naming the plugin, "changed
 * nothing", or the size of the optimized graph (which imported and kept
 * the fed and fetched nodes). */
static void optimizer_check(report* r, tfe_platform* p) {
  static const char* const feeds[1] = {"x"};
  static const char* const fetches[1] = {"out"};
  TF_Status* st = TF_NewStatus();
  TF_Graph* g;
  TF_Graph* opt = NULL;
  char detail[1024];
  long long before = tfe_grappler_run_count();
  if (st == NULL) {
    check(r, "graph optimizer", 0, "out of host memory");
    return;
  }
  g = optimizer_input(st);
  if (g == NULL) {
    snprintf(detail, sizeof detail, "could not build the test graph: %s",
             TF_Message(st));
    check(r, "graph optimizer", 0, detail);
    TF_DeleteStatus(st);
    return;
  }
  if (!tfe_grappler_run_platform(p, g, feeds, 1, fetches, 1, &opt, st)) {
    check(r, "graph optimizer", 0, TF_Message(st));
  } else if (opt == NULL) {
    snprintf(detail, sizeof detail,
             "ran (%lld call) on a %d-node graph and changed nothing",
             tfe_grappler_run_count() - before, count_ops(g));
    check(r, "graph optimizer", 1, detail);
  } else {
    snprintf(detail, sizeof detail,
             "ran (%lld call) on a %d-node graph; its %d-node output graph "
             "imports and keeps the fed and fetched nodes",
             tfe_grappler_run_count() - before, count_ops(g), count_ops(opt));
    check(r, "graph optimizer", 1, detail);
  }
  if (opt != NULL) TF_DeleteGraph(opt);
  TF_DeleteGraph(g);
  TF_DeleteStatus(st);
}

static void pattern(unsigned char* p, size_t n, unsigned seed) {
  size_t i;
  for (i = 0; i < n; i++) p[i] = (unsigned char)((i * 131u + seed) & 0xff);
}

/* A plugin callback that reported success but left its output handle
 * NULL: the handle is never passed back to the plugin (which would most
 * likely dereference it); the status names the struct and field. */
static void null_handle(TF_Status* st, const char* field, const char* what) {
  tfe_status_setf(st, TF_INTERNAL,
                  "SP_StreamExecutor.%s returned OK but left the %s NULL",
                  field, what);
}

/* Blocks until the stream is idle (block_host_until_done, else an event). */
static void drain(const SP_StreamExecutor* se, const SP_Device* dev,
                  SP_Stream s, TF_Status* st) {
  SP_Event ev = NULL;
  if (se->block_host_until_done != NULL) {
    se->block_host_until_done(dev, s, st);
    return;
  }
  se->create_event(dev, &ev, st);
  if (TF_GetCode(st) != TF_OK) return;
  if (ev == NULL) {
    null_handle(st, "create_event", "SP_Event");
    return;
  }
  se->record_event(dev, s, ev, st);
  if (TF_GetCode(st) == TF_OK) se->block_host_for_event(dev, ev, st);
  se->destroy_event(dev, ev);
}

static void on_host(void* arg, TF_Status* status) {
  int* flag = (int*)arg;
  *flag += 1;
  TF_SetStatus(status, TF_OK, "");
}

TF_Buffer* TFE_PluggableDeviceSelfTest(const char* device_name,
                                       TF_Status* status) {
  static const uint64_t sizes[] = {1, 255, 4096, 65536 + 3, 1u << 20};
  tfe_pdev* d = tfe_pdev_from_name(device_name);
  const SP_StreamExecutor* se;
  const SP_Device* dev;
  report r;
  TF_Status* st;
  SP_Stream a = NULL, b = NULL;
  char detail[256];
  size_t i;
  const size_t big = 1u << 20;
  unsigned char *src = NULL, *dst = NULL;
  SP_DeviceMemoryBase m1, m2;
  TF_Buffer* out;
  if (d == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TFE_PluggableDeviceSelfTest: '%s' is not a "
                    "PluggableDevice device",
                    device_name ? device_name : "(null)");
    return NULL;
  }
  se = &d->plat->se;
  dev = &d->dev;
  memset(&r, 0, sizeof r);
  r.first = 1;
  r.all_ok = 1;
  st = TF_NewStatus();
  src = (unsigned char*)malloc(big + 64);
  dst = (unsigned char*)malloc(big + 64);
  memset(&m1, 0, sizeof m1);
  memset(&m2, 0, sizeof m2);
  tfe_json_raw(&r.j, "{\"checks\": [");
  if (st == NULL || src == NULL || dst == NULL) {
    check(&r, "setup", 0, "out of host memory");
    goto finish;
  }

  /* The graph optimizer, when the library registered one: run it on a
   * small graph the way a session does and check the graph it returns
   * (first: it does not depend on the device's memory). */
  if (d->plat->has_optimizer) optimizer_check(&r, d->plat);

  /* Allocation and synchronous round trips of several sizes. */
  for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    SP_DeviceMemoryBase m;
    uint64_t n = sizes[i];
    char name[64];
    snprintf(name, sizeof name, "sync round trip %llu bytes",
             (unsigned long long)n);
    memset(&m, 0, sizeof m);
    m.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
    se->allocate(dev, n, 0, &m);
    if (m.opaque == NULL) {
      check(&r, name, 0,
            "SP_StreamExecutor.allocate left SP_DeviceMemoryBase.opaque "
            "NULL (no memory)");
      continue;
    }
    pattern(src, n, (unsigned)i + 1);
    memset(dst, 0, n);
    TF_SetStatus(st, TF_OK, "");
    se->sync_memcpy_htod(dev, &m, src, n, st);
    if (TF_GetCode(st) == TF_OK) se->sync_memcpy_dtoh(dev, dst, &m, n, st);
    if (TF_GetCode(st) != TF_OK) {
      check(&r, name, 0, TF_Message(st));
    } else {
      check(&r, name, memcmp(src, dst, n) == 0,
            memcmp(src, dst, n) == 0 ? "" : "data differs after the copy");
    }
    se->deallocate(dev, &m);
  }

  /* Streams. */
  TF_SetStatus(st, TF_OK, "");
  se->create_stream(dev, &a, st);
  if (TF_GetCode(st) == TF_OK && a == NULL) {
    null_handle(st, "create_stream", "SP_Stream");
  }
  if (TF_GetCode(st) == TF_OK) se->create_stream(dev, &b, st);
  if (TF_GetCode(st) == TF_OK && b == NULL) {
    null_handle(st, "create_stream", "SP_Stream");
  }
  check(&r, "create two streams", TF_GetCode(st) == TF_OK, TF_Message(st));
  if (TF_GetCode(st) != TF_OK) goto finish;
  m1.struct_size = m2.struct_size = SP_DEVICE_MEMORY_BASE_STRUCT_SIZE;
  se->allocate(dev, big, 0, &m1);
  se->allocate(dev, big, 0, &m2);
  if (m1.opaque == NULL || m2.opaque == NULL) {
    check(&r, "allocate 1 MiB twice", 0,
          "SP_StreamExecutor.allocate left SP_DeviceMemoryBase.opaque NULL "
          "(no memory)");
    goto finish;
  }

  /* Event ordering: copy in on stream a, copy out on stream b after an
   * event recorded on a. */
  {
    SP_Event ev = NULL;
    pattern(src, big, 7);
    memset(dst, 0, big);
    TF_SetStatus(st, TF_OK, "");
    se->create_event(dev, &ev, st);
    if (TF_GetCode(st) == TF_OK && ev == NULL) {
      null_handle(st, "create_event", "SP_Event");
    }
    if (TF_GetCode(st) == TF_OK) se->memcpy_htod(dev, a, &m1, src, big, st);
    if (TF_GetCode(st) == TF_OK) se->record_event(dev, a, ev, st);
    if (TF_GetCode(st) == TF_OK) se->wait_for_event(dev, b, ev, st);
    if (TF_GetCode(st) == TF_OK) se->memcpy_dtoh(dev, b, dst, &m1, big, st);
    if (TF_GetCode(st) == TF_OK) drain(se, dev, b, st);
    if (TF_GetCode(st) != TF_OK) {
      check(&r, "event orders streams", 0, TF_Message(st));
    } else {
      int same = memcmp(src, dst, big) == 0;
      check(&r, "event orders streams", same,
            same ? "" : "the copy out ran before the copy in finished");
      int complete = se->get_event_status(dev, ev) == SE_EVENT_COMPLETE;
      check(&r, "event complete after use", complete,
            complete ? "" : "get_event_status did not report "
                            "SE_EVENT_COMPLETE");
    }
    if (ev != NULL) se->destroy_event(dev, ev);
  }

  /* Stream dependency. */
  pattern(src, big, 11);
  memset(dst, 0, big);
  TF_SetStatus(st, TF_OK, "");
  se->memcpy_htod(dev, a, &m2, src, big, st);
  if (TF_GetCode(st) == TF_OK) se->create_stream_dependency(dev, b, a, st);
  if (TF_GetCode(st) == TF_OK) se->memcpy_dtoh(dev, b, dst, &m2, big, st);
  if (TF_GetCode(st) == TF_OK) drain(se, dev, b, st);
  if (TF_GetCode(st) != TF_OK) {
    check(&r, "stream dependency orders streams", 0, TF_Message(st));
  } else {
    int same = memcmp(src, dst, big) == 0;
    check(&r, "stream dependency orders streams", same,
          same ? "" : "the copy out ran before the copy in finished");
  }

  /* Device-to-device copy. */
  if (se->memcpy_dtod != NULL) {
    memset(dst, 0, big);
    TF_SetStatus(st, TF_OK, "");
    drain(se, dev, a, st);
    se->memcpy_dtod(dev, a, &m1, &m2, big, st);
    if (TF_GetCode(st) == TF_OK) se->memcpy_dtoh(dev, a, dst, &m1, big, st);
    if (TF_GetCode(st) == TF_OK) drain(se, dev, a, st);
    check(&r, "memcpy_dtod",
          TF_GetCode(st) == TF_OK && memcmp(src, dst, big) == 0,
          TF_GetCode(st) != TF_OK ? TF_Message(st) : "");
  } else {
    check(&r, "memcpy_dtod", 1, "not provided (optional)");
  }

  /* Fills: the plugin's own, or reported as emulated. */
  {
    static const char* names[] = {"mem_zero", "memset", "memset32"};
    int k;
    for (k = 0; k < 3; k++) {
      int provided = k == 0 ? se->mem_zero != NULL
                            : k == 1 ? se->memset != NULL
                                     : se->memset32 != NULL;
      size_t n = 4096, j;
      int good = 1;
      unsigned char want[4] = {0, 0, 0, 0};
      if (!provided) {
        snprintf(detail, sizeof detail,
                 "not set by the plugin (TensorFlow 2.21 requires it); tfe "
                 "emulates it with memcpy_htod");
        check(&r, names[k], 0, detail);
        continue;
      }
      TF_SetStatus(st, TF_OK, "");
      if (k == 0) {
        se->mem_zero(dev, a, &m1, n, st);
      } else if (k == 1) {
        se->memset(dev, a, &m1, 0x5a, n, st);
        memset(want, 0x5a, 4);
      } else {
        uint32_t pat = 0x01020304u;
        se->memset32(dev, a, &m1, pat, n, st);
        memcpy(want, &pat, 4);
      }
      if (TF_GetCode(st) == TF_OK) se->memcpy_dtoh(dev, a, dst, &m1, n, st);
      if (TF_GetCode(st) == TF_OK) drain(se, dev, a, st);
      for (j = 0; TF_GetCode(st) == TF_OK && j < n; j++) {
        if (dst[j] != want[j % 4]) good = 0;
      }
      check(&r, names[k], TF_GetCode(st) == TF_OK && good,
            TF_GetCode(st) != TF_OK ? TF_Message(st)
                                    : good ? "" : "wrong bytes after the fill");
    }
  }

  /* Host callbacks run after earlier work, on the host. */
  {
    int flag = 0;
    TF_SetStatus(st, TF_OK, "");
    se->memcpy_htod(dev, a, &m1, src, big, st);
    if (TF_GetCode(st) == TF_OK && !se->host_callback(dev, a, on_host, &flag)) {
      TF_SetStatus(st, TF_INTERNAL, "host_callback returned false");
    }
    if (TF_GetCode(st) == TF_OK) drain(se, dev, a, st);
    check(&r, "host_callback", TF_GetCode(st) == TF_OK && flag == 1,
          TF_GetCode(st) != TF_OK ? TF_Message(st)
                                  : flag == 1 ? "" : "the callback did not run");
  }

  /* Timers. */
  {
    SP_Timer t = NULL;
    TF_SetStatus(st, TF_OK, "");
    se->create_timer(dev, &t, st);
    if (TF_GetCode(st) == TF_OK && t == NULL) {
      null_handle(st, "create_timer", "SP_Timer");
    }
    if (TF_GetCode(st) == TF_OK) se->start_timer(dev, a, t, st);
    if (TF_GetCode(st) == TF_OK) se->memcpy_htod(dev, a, &m1, src, big, st);
    if (TF_GetCode(st) == TF_OK) se->stop_timer(dev, a, t, st);
    if (TF_GetCode(st) == TF_OK) drain(se, dev, a, st);
    if (TF_GetCode(st) == TF_OK) {
      uint64_t ns = d->plat->timer_fns.nanoseconds(t);
      snprintf(detail, sizeof detail, "%llu ns for a 1 MiB copy",
               (unsigned long long)ns);
      check(&r, "timer", 1, detail);
    } else {
      check(&r, "timer", 0, TF_Message(st));
    }
    if (t != NULL) se->destroy_timer(dev, t);
  }

  /* The profiler, when the library registered one. */
  if (d->plat->has_profiler) {
    const TP_ProfilerFns* pf = &d->plat->profiler_fns;
    size_t n = 0;
    TF_SetStatus(st, TF_OK, "");
    pf->start(&d->plat->profiler, st);
    if (TF_GetCode(st) == TF_OK) pf->stop(&d->plat->profiler, st);
    if (TF_GetCode(st) == TF_OK) {
      pf->collect_data_xspace(&d->plat->profiler, NULL, &n, st);
    }
    snprintf(detail, sizeof detail, "%zu bytes of XSpace", n);
    check(&r, "profiler start, stop and collect", TF_GetCode(st) == TF_OK,
          TF_GetCode(st) == TF_OK ? detail : TF_Message(st));
  }

  /* Stream status, allocator statistics, memory usage, host memory. */
  TF_SetStatus(st, TF_OK, "");
  se->get_stream_status(dev, a, st);
  check(&r, "get_stream_status", TF_GetCode(st) == TF_OK, TF_Message(st));
  {
    SP_AllocatorStats stats;
    int64_t free_b = 0, total_b = 0;
    void* hm;
    memset(&stats, 0, sizeof stats);
    stats.struct_size = SP_ALLOCATORSTATS_STRUCT_SIZE;
    if (se->get_allocator_stats(dev, &stats)) {
      snprintf(detail, sizeof detail, "%lld bytes in use, %lld allocations",
               (long long)stats.bytes_in_use, (long long)stats.num_allocs);
      check(&r, "get_allocator_stats", stats.struct_size != 0,
            stats.struct_size != 0 ? detail
                                   : "struct_size field in SP_AllocatorStats "
                                     "must be set");
    } else {
      check(&r, "get_allocator_stats", 1, "no statistics (allowed)");
    }
    if (se->device_memory_usage(dev, &free_b, &total_b)) {
      snprintf(detail, sizeof detail, "%lld of %lld bytes free",
               (long long)free_b, (long long)total_b);
      check(&r, "device_memory_usage", free_b >= 0 && free_b <= total_b,
            detail);
    } else {
      check(&r, "device_memory_usage", 1, "not known (allowed)");
    }
    hm = se->host_memory_allocate(dev, 4096);
    if (hm != NULL) {
      memset(hm, 1, 4096);
      se->host_memory_deallocate(dev, hm);
    }
    check(&r, "host_memory_allocate", hm != NULL,
          hm != NULL ? ""
                     : "SP_StreamExecutor.host_memory_allocate returned NULL "
                       "for 4096 bytes");
  }
  TF_SetStatus(st, TF_OK, "");
  se->synchronize_all_activity(dev, st);
  check(&r, "synchronize_all_activity", TF_GetCode(st) == TF_OK,
        TF_Message(st));

finish:
  if (se != NULL && st != NULL) {
    TF_SetStatus(st, TF_OK, "");
    if (a != NULL) drain(se, dev, a, st);
    if (b != NULL) drain(se, dev, b, st);
    if (m1.opaque != NULL) se->deallocate(dev, &m1);
    if (m2.opaque != NULL) se->deallocate(dev, &m2);
    if (a != NULL) se->destroy_stream(dev, a);
    if (b != NULL) se->destroy_stream(dev, b);
  }
  tfe_json_fmt(&r.j, "], \"ok\": %s}", r.all_ok ? "true" : "false");
  free(src);
  free(dst);
  TF_DeleteStatus(st);
  out = tfe_pb_to_buffer(&r.j);
  if (out == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfe_status_ok(status);
  return out;
}
