#define _GNU_SOURCE 1
/* Running on a PluggableDevice: the test device plugin
 * (tfe_py/examples/example_device.h) keeps its memory behind poisoned
 * pointers and runs its streams on worker threads, so the core touching
 * device memory crashes and missing stream ordering gives wrong values. */
#include <pthread.h>

#include "se_test_util.h"
#include "tensorflow/c/kernels.h"

TEST(devices_appear_in_new_contexts) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* before = new_ctx(s);
  TF_DeviceList* l;
  int i, n, mine = 0;
  load_test_device();
  {
    TFE_Context* ctx = new_ctx(s);
    l = TFE_ContextListDevices(ctx, s);
    CHECK_CODE(s, TF_OK);
    n = TF_DeviceListCount(l);
    for (i = 0; i < n; i++) {
      const char* name = TF_DeviceListName(l, i, s);
      const char* type = TF_DeviceListType(l, i, s);
      if (strcmp(type, "MY_DEVICE") == 0) {
        CHECK(strcmp(name, mine == 0 ? DEV0 : DEV1) == 0);
        CHECK(TF_DeviceListMemoryBytes(l, i, s) == 64ll << 20);
        mine++;
      }
    }
    CHECK_EQ_INT(mine, 2);
    TF_DeleteDeviceList(l);
    TFE_DeleteContext(ctx);
  }
  /* A context created before the load does not get the devices. */
  l = TFE_ContextListDevices(before, s);
  n = TF_DeviceListCount(l);
  for (i = 0; i < n; i++) {
    CHECK(strcmp(TF_DeviceListType(l, i, s), "MY_DEVICE") != 0);
  }
  TF_DeleteDeviceList(l);
  TFE_DeleteContext(before);
  TF_DeleteStatus(s);
}

/* TF_LoadPluggableDeviceLibrary of a library already loaded returns OK
 * and the live handle (TF would run SE_InitPlugin again and abort): the
 * plugin is initialised once, and each Delete drops one reference. */
TEST(loading_twice_returns_the_same_handle_and_inits_once) {
  TF_Status* s = TF_NewStatus();
  int64_t libs = TFE_LiveObjectCount(TFE_OBJ_LIBRARY);
  TF_Library *a, *b, *c;
  TF_Buffer ops_a, ops_b;
  TFE_Context* ctx;
  TF_DeviceList* l;
  int i, mine = 0;
  a = TF_LoadPluggableDeviceLibrary(TEST_DEVICE, s);
  CHECK_CODE(s, TF_OK);
  CHECK(a != NULL);
  CHECK_EQ_INT(plugin_counter("inits"), 1);
  b = TF_LoadPluggableDeviceLibrary(TEST_DEVICE, s);
  CHECK_CODE(s, TF_OK);
  CHECK(b == a);
  CHECK_EQ_INT(plugin_counter("inits"), 1);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_LIBRARY), libs + 1);
  ops_a = TF_GetOpList(a);
  ops_b = TF_GetOpList(b);
  CHECK(ops_a.data == ops_b.data && ops_a.length == ops_b.length);
  /* One reference gone: the handle is still usable. */
  TF_DeletePluggableDeviceLibraryHandle(b);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_LIBRARY), libs + 1);
  ops_a = TF_GetOpList(a);
  CHECK(ops_a.length == ops_b.length);
  TF_DeletePluggableDeviceLibraryHandle(a);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_LIBRARY), libs);
  /* After the last Delete, loading again gives a new handle, still
   * without a second SE_InitPlugin. */
  c = TF_LoadPluggableDeviceLibrary(TEST_DEVICE, s);
  CHECK_CODE(s, TF_OK);
  CHECK(c != NULL);
  CHECK_EQ_INT(plugin_counter("inits"), 1);
  TF_DeletePluggableDeviceLibraryHandle(c);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_LIBRARY), libs);
  /* The devices are there once. */
  ctx = new_ctx(s);
  l = TFE_ContextListDevices(ctx, s);
  for (i = 0; i < TF_DeviceListCount(l); i++) {
    if (strcmp(TF_DeviceListType(l, i, s), "MY_DEVICE") == 0) mine++;
  }
  CHECK_EQ_INT(mine, 2);
  TF_DeleteDeviceList(l);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(copies_round_trip_in_both_directions) {
  static const int64_t sizes[] = {0, 1, 63, 1000, 70000};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  size_t k;
  load_test_device();
  ctx = new_ctx(s);
  for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int64_t n = sizes[k];
    float* x = (float*)malloc((size_t)(n + 1) * sizeof(float));
    float* y = (float*)malloc((size_t)(n + 1) * sizeof(float));
    TFE_TensorHandle *h, *d0, *d1, *back;
    uintptr_t p;
    fill_random(x, n, (unsigned)k);
    h = f32_handle(&n, 1, x, s);
    d0 = to_device(ctx, h, "MY_DEVICE:0", s);
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(d0, s), DEV0);
    CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(d0, s), DEV0);
    CHECK_EQ_SIZE(TFE_TensorHandleDeviceMemorySize(d0, s),
                  (size_t)n * sizeof(float));
    p = (uintptr_t)TFE_TensorHandleDevicePointer(d0, s);
    CHECK_CODE(s, TF_OK);
    if (n > 0) CHECK_EQ_INT((unsigned)(p >> 56), 0xDE); /* poisoned */
    /* Resolve copies device memory to the host. */
    read_f32s(d0, y, n, s);
    CHECK(n == 0 || memcmp(x, y, (size_t)n * sizeof(float)) == 0);
    /* Device to device, then back to the host. */
    d1 = to_device(ctx, d0, "MY_DEVICE:1", s);
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(d1, s), DEV1);
    back = to_device(ctx, d1, "CPU:0", s);
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(back, s), CPU0);
    memset(y, 0, (size_t)(n + 1) * sizeof(float));
    read_f32s(back, y, n, s);
    CHECK(n == 0 || memcmp(x, y, (size_t)n * sizeof(float)) == 0);
    TFE_DeleteTensorHandle(back);
    TFE_DeleteTensorHandle(d1);
    TFE_DeleteTensorHandle(d0);
    TFE_DeleteTensorHandle(h);
    free(x);
    free(y);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* A copy between two devices of one plugin uses the plugin's memcpy_dtod
 * (as TF's PluggableDevice does), not the host: one memcpy_dtod, no
 * memcpy_dtoh/htod. With streams that sleep at random before every
 * operation, the copy still sees the kernel's result on the source and the
 * destination's kernel sees the copy. */
TEST(copy_between_devices_of_one_plugin_uses_memcpy_dtod) {
  static const int64_t sizes[] = {1, 1000, 70000};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  size_t k;
  setenv("TFE_TEST_DEVICE_JITTER_US", "200", 1);
  load_test_device();
  ctx = new_ctx(s);
  for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int64_t n = sizes[k], i;
    float* x = (float*)malloc((size_t)n * sizeof(float));
    float* y = (float*)malloc((size_t)n * sizeof(float));
    TFE_TensorHandle *h, *d0, *in[2], *sum0, *d1, *in1[2], *sum1;
    long dtod, dtoh, htod;
    fill_random(x, n, (unsigned)k + 7);
    h = f32_handle(&n, 1, x, s);
    d0 = to_device(ctx, h, "MY_DEVICE:0", s);
    in[0] = d0;
    in[1] = d0;
    sum0 = run_op(ctx, "AddV2", in, 2, "MY_DEVICE:0", s); /* 2x on dev 0 */
    CHECK_CODE(s, TF_OK);
    dtod = plugin_counter("dtod");
    dtoh = plugin_counter("dtoh");
    htod = plugin_counter("htod");
    d1 = to_device(ctx, sum0, "MY_DEVICE:1", s);
    CHECK_EQ_INT(plugin_counter("dtod"), dtod + 1);
    CHECK_EQ_INT(plugin_counter("dtoh"), dtoh);
    CHECK_EQ_INT(plugin_counter("htod"), htod);
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(d1, s), DEV1);
    CHECK_EQ_INT((unsigned)((uintptr_t)TFE_TensorHandleDevicePointer(d1, s) >>
                            48) & 0xff, 1); /* memory of device 1 */
    in1[0] = d1;
    in1[1] = d1;
    sum1 = run_op(ctx, "AddV2", in1, 2, "MY_DEVICE:1", s); /* 4x on dev 1 */
    CHECK_CODE(s, TF_OK);
    read_f32s(sum1, y, n, s);
    for (i = 0; i < n; i++) CHECK(y[i] == 4.0f * x[i]);
    read_f32s(d1, y, n, s);
    for (i = 0; i < n; i++) CHECK(y[i] == 2.0f * x[i]);
    /* And back from device 1 to device 0, again without the host. */
    dtod = plugin_counter("dtod");
    {
      TFE_TensorHandle* back = to_device(ctx, sum1, "MY_DEVICE:0", s);
      CHECK_EQ_INT(plugin_counter("dtod"), dtod + 1);
      CHECK_STR_EQ(TFE_TensorHandleDeviceName(back, s), DEV0);
      read_f32s(back, y, n, s);
      for (i = 0; i < n; i++) CHECK(y[i] == 4.0f * x[i]);
      TFE_DeleteTensorHandle(back);
    }
    TFE_DeleteTensorHandle(sum1);
    TFE_DeleteTensorHandle(d1);
    TFE_DeleteTensorHandle(sum0);
    TFE_DeleteTensorHandle(d0);
    TFE_DeleteTensorHandle(h);
    free(x);
    free(y);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* A plugin without memcpy_dtod: the copy goes through the host (one
 * memcpy_dtoh from device 0, one memcpy_htod into device 1). */
TEST(copy_between_devices_without_memcpy_dtod_goes_through_the_host) {
  TF_Status* s = TF_NewStatus();
  TF_Library* lib;
  TFE_Context* ctx;
  float x[5] = {1, -2, 3.5f, 4, 1e6f}, y[5];
  int64_t n = 5;
  TFE_TensorHandle *h, *d0, *d1;
  long (*counter)(const char*);
  void* dl;
  lib = TF_LoadPluggableDeviceLibrary(SE_PLUGIN("pd_no_dtod_device"), s);
  CHECK_CODE(s, TF_OK);
  TF_DeletePluggableDeviceLibraryHandle(lib);
  dl = dlopen(SE_PLUGIN("pd_no_dtod_device"), RTLD_NOW | RTLD_NOLOAD);
  CHECK(dl != NULL);
  *(void**)&counter = dlsym(dl, "pd_test_counter");
  CHECK(counter != NULL);
  ctx = new_ctx(s);
  h = f32_handle(&n, 1, x, s);
  d0 = to_device(ctx, h, "NODTOD_DEVICE:0", s);
  CHECK_EQ_INT(counter("htod"), 1);
  d1 = to_device(ctx, d0, "NODTOD_DEVICE:1", s);
  CHECK_EQ_INT(counter("dtod"), 0);
  CHECK_EQ_INT(counter("dtoh"), 1);
  CHECK_EQ_INT(counter("htod"), 2);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(d1, s),
               "/job:localhost/replica:0/task:0/device:NODTOD_DEVICE:1");
  read_f32s(d1, y, 5, s);
  CHECK(memcmp(x, y, sizeof x) == 0);
  TFE_DeleteTensorHandle(d1);
  TFE_DeleteTensorHandle(d0);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteContext(ctx);
  dlclose(dl);
  TF_DeleteStatus(s);
}

/* Blocks the plugin holds: allocations minus deallocations. */
static long plugin_blocks(void) {
  return plugin_counter("allocs") - plugin_counter("frees");
}

/* When the last context using the devices goes, every block of the
 * caching allocator goes back to the plugin: its own count of live blocks
 * returns to where it was before the context. */
TEST(deleting_the_last_context_returns_every_block_to_the_plugin) {
  TF_Status* s = TF_NewStatus();
  TFE_Context *ctx, *other;
  float x[64], y[64];
  int64_t n = 64;
  long base;
  int it;
  load_test_device();
  base = plugin_blocks();
  ctx = new_ctx(s);
  other = new_ctx(s);
  for (it = 0; it < 3; it++) {
    TFE_TensorHandle *h = f32_handle(&n, 1, x, s), *d0, *d1, *in[2], *sum;
    fill_random(x, n, (unsigned)it);
    d0 = to_device(ctx, h, "MY_DEVICE:0", s);
    d1 = to_device(ctx, d0, "MY_DEVICE:1", s);
    in[0] = d1;
    in[1] = d1;
    sum = run_op(ctx, "AddV2", in, 2, "MY_DEVICE:1", s);
    CHECK_CODE(s, TF_OK);
    read_f32s(sum, y, n, s);
    TFE_DeleteTensorHandle(sum);
    TFE_DeleteTensorHandle(d1);
    TFE_DeleteTensorHandle(d0);
    TFE_DeleteTensorHandle(h);
  }
  /* The freed blocks are cached while contexts use the devices. */
  CHECK(plugin_blocks() > base);
  TFE_DeleteContext(ctx);
  CHECK(plugin_blocks() > base); /* `other` still uses them */
  TFE_DeleteContext(other);
  CHECK_EQ_INT(plugin_blocks(), base);

  /* A handle that outlives TFE_DeleteContext keeps the context (and its
   * block) until it goes; then everything is back. */
  ctx = new_ctx(s);
  {
    TFE_TensorHandle* h = f32_handle(&n, 1, x, s);
    TFE_TensorHandle* d0 = to_device(ctx, h, "MY_DEVICE:0", s);
    TFE_DeleteTensorHandle(h);
    TFE_DeleteContext(ctx);
    CHECK(plugin_blocks() > base);
    read_f32s(d0, y, n, s);
    CHECK(memcmp(x, y, sizeof x) == 0);
    TFE_DeleteTensorHandle(d0);
  }
  CHECK_EQ_INT(plugin_blocks(), base);
  TF_DeleteStatus(s);
}

TEST(add_runs_on_the_device_with_the_high_priority_kernel) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  float a[3] = {1, 2, 3}, b[3] = {10, 20, 30}, c[3];
  int64_t dims[1] = {3};
  TFE_TensorHandle *ha, *hb, *in[2], *out;
  long launches;
  load_test_device();
  ctx = new_ctx(s);
  ha = f32_handle(dims, 1, a, s);
  hb = f32_handle(dims, 1, b, s);
  in[0] = ha;
  in[1] = hb;
  launches = plugin_counter("launches");
  out = run_op(ctx, "AddV2", in, 2, "MY_DEVICE:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(plugin_counter("launches"), launches + 1);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(out, s), DEV0);
  read_f32s(out, c, 3, s);
  CHECK(c[0] == 11 && c[1] == 22 && c[2] == 33);
  TFE_DeleteTensorHandle(out);
  /* int32 goes to the same kernel (two allowed types). */
  {
    TFE_TensorHandle *x = scalar_i32(5, s), *y = scalar_i32(-7, s);
    in[0] = x;
    in[1] = y;
    out = run_op(ctx, "Mul", in, 2, "MY_DEVICE:1", s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(read_i32(out, s), -35);
    TFE_DeleteTensorHandle(out);
    TFE_DeleteTensorHandle(x);
    TFE_DeleteTensorHandle(y);
  }
  TFE_DeleteTensorHandle(ha);
  TFE_DeleteTensorHandle(hb);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* x[4x8] @ w[8x5] + b[5] -> relu -> sum over axis 1 -> [4]. */
static TFE_TensorHandle* model(TFE_Context* ctx, TFE_TensorHandle* x,
                               TFE_TensorHandle* w, TFE_TensorHandle* b,
                               TFE_TensorHandle* axis, const char* dev,
                               TF_Status* s) {
  TFE_TensorHandle *in[2], *mm, *ba, *r, *sum;
  in[0] = x;
  in[1] = w;
  mm = run_op(ctx, "MatMul", in, 2, dev, s);
  CHECK_CODE(s, TF_OK);
  in[0] = mm;
  in[1] = b;
  ba = run_op(ctx, "BiasAdd", in, 2, dev, s);
  CHECK_CODE(s, TF_OK);
  r = run_op(ctx, "Relu", &ba, 1, dev, s);
  CHECK_CODE(s, TF_OK);
  in[0] = r;
  in[1] = axis;
  sum = run_op(ctx, "Sum", in, 2, dev, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(mm);
  TFE_DeleteTensorHandle(ba);
  TFE_DeleteTensorHandle(r);
  return sum;
}

TEST(model_matches_cpu) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  float x[32], w[40], b[5], dev_out[4], cpu_out[4];
  int64_t dx[2] = {4, 8}, dw[2] = {8, 5}, db[1] = {5};
  TFE_TensorHandle *hx, *hw, *hb, *axis, *on_dev, *on_cpu;
  int i;
  load_test_device();
  ctx = new_ctx(s);
  fill_random(x, 32, 1);
  fill_random(w, 40, 2);
  fill_random(b, 5, 3);
  hx = f32_handle(dx, 2, x, s);
  hw = f32_handle(dw, 2, w, s);
  hb = f32_handle(db, 1, b, s);
  axis = scalar_i32(1, s);
  on_cpu = model(ctx, hx, hw, hb, axis, "CPU:0", s);
  on_dev = model(ctx, hx, hw, hb, axis, "MY_DEVICE:0", s);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(on_dev, s), DEV0);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(on_dev, s), 1);
  CHECK_EQ_INT(TFE_TensorHandleDim(on_dev, 0, s), 4);
  read_f32s(on_cpu, cpu_out, 4, s);
  read_f32s(on_dev, dev_out, 4, s);
  for (i = 0; i < 4; i++) {
    if (!close_to(cpu_out[i], dev_out[i])) {
      TFE_FAIL("row %d: cpu %g device %g", i, cpu_out[i], dev_out[i]);
    }
  }
  TFE_DeleteTensorHandle(on_cpu);
  TFE_DeleteTensorHandle(on_dev);
  TFE_DeleteTensorHandle(hx);
  TFE_DeleteTensorHandle(hw);
  TFE_DeleteTensorHandle(hb);
  TFE_DeleteTensorHandle(axis);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(host_memory_input_comes_back_to_the_host) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  float x[6] = {1, 2, 3, 4, 5, 6}, out[3];
  int64_t dims[2] = {2, 3};
  TFE_TensorHandle *hx, *dx, *axis, *daxis, *in[2], *sum;
  load_test_device();
  ctx = new_ctx(s);
  hx = f32_handle(dims, 2, x, s);
  dx = to_device(ctx, hx, "MY_DEVICE:0", s);
  /* The indices are put on the device on purpose: the kernel declares
   * them host memory, so the runtime must bring them back. */
  axis = scalar_i32(0, s);
  daxis = to_device(ctx, axis, "MY_DEVICE:0", s);
  in[0] = dx;
  in[1] = daxis;
  sum = run_op(ctx, "Sum", in, 2, "MY_DEVICE:0", s);
  CHECK_CODE(s, TF_OK);
  read_f32s(sum, out, 3, s);
  CHECK(out[0] == 5 && out[1] == 7 && out[2] == 9);
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(daxis);
  TFE_DeleteTensorHandle(axis);
  TFE_DeleteTensorHandle(dx);
  TFE_DeleteTensorHandle(hx);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(memory_returns_to_the_plugin_baseline) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  float x[32], w[40], b[5];
  int64_t dx[2] = {4, 8}, dw[2] = {8, 5}, db[1] = {5};
  int64_t base_in_use = -1, base_allocs = 0, in_use = -1, allocs = 0;
  int64_t warm_plugin_allocs = 0, plugin_allocs = 0;
  TFE_TensorHandle *hx, *hw, *hb, *axis;
  int it;
  load_test_device();
  ctx = new_ctx(s);
  CHECK(TFE_PluggableDevicePluginMemoryStats(DEV0, &base_in_use, &base_allocs,
                                             s));
  CHECK_CODE(s, TF_OK);
  fill_random(x, 32, 4);
  fill_random(w, 40, 5);
  fill_random(b, 5, 6);
  hx = f32_handle(dx, 2, x, s);
  hw = f32_handle(dw, 2, w, s);
  hb = f32_handle(db, 1, b, s);
  axis = scalar_i32(1, s);
  for (it = 0; it < 20; it++) {
    TFE_TensorHandle* r = model(ctx, hx, hw, hb, axis, "MY_DEVICE:0", s);
    float out[4];
    read_f32s(r, out, 4, s);
    TFE_DeleteTensorHandle(r);
    if (it == 4) {
      TFE_PluggableDeviceMemoryStats(DEV0, NULL, NULL, &warm_plugin_allocs,
                                     NULL, s);
    }
  }
  /* Steady state: the caching allocator served every tensor. */
  TFE_PluggableDeviceMemoryStats(DEV0, &in_use, NULL, &plugin_allocs, NULL,
                                 s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(plugin_allocs, warm_plugin_allocs);
  CHECK_EQ_INT(in_use, 0);
  TFE_DeleteTensorHandle(hx);
  TFE_DeleteTensorHandle(hw);
  TFE_DeleteTensorHandle(hb);
  TFE_DeleteTensorHandle(axis);
  CHECK(TFE_PluggableDeviceReleaseCachedMemory(DEV0, s) > 0);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_PluggableDevicePluginMemoryStats(DEV0, &in_use, &allocs, s));
  CHECK_EQ_INT(in_use, base_in_use);
  CHECK(allocs > base_allocs);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Unplaced ops are placed as TF's eager runtime places them: on the
 * highest-priority device kind with a kernel (the plugin's, 220, before
 * CPU, 60), the kind's first device; inputs are copied there. */
TEST(unplaced_ops_run_on_the_best_device_with_a_kernel) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle *a, *b, *da, *db, *in[2], *sum, *diff;
  load_test_device();
  ctx = new_ctx(s);
  a = scalar_f32(2, s);
  b = scalar_f32(3, s);
  in[0] = a;
  in[1] = b;
  /* Host inputs, float AddV2: the device has a kernel, so it runs there. */
  sum = run_op(ctx, "AddV2", in, 2, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(sum, s), DEV0);
  CHECK(read_f32(sum, s) == 5);
  TFE_DeleteTensorHandle(sum);
  /* Inputs on MY_DEVICE:1 still go to the kind's first device. */
  da = to_device(ctx, a, "MY_DEVICE:1", s);
  db = to_device(ctx, b, "MY_DEVICE:1", s);
  in[0] = da;
  in[1] = db;
  sum = run_op(ctx, "AddV2", in, 2, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(sum, s), DEV0);
  CHECK(read_f32(sum, s) == 5);
  /* The device has no Sub kernel: an unplaced Sub runs on the host. */
  diff = run_op(ctx, "Sub", in, 2, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(diff, s), CPU0);
  CHECK(read_f32(diff, s) == -1);
  /* Placed explicitly there, it fails as in TF: the request cannot be
   * satisfied (INVALID_ARGUMENT naming the kinds that have a kernel). */
  CHECK(run_op(ctx, "Sub", in, 2, "MY_DEVICE:1", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Could not satisfy device specification "
                     "'/device:MY_DEVICE:1'. enable_soft_placement=0. "
                     "Supported device types [CPU]. All available devices [");
  /* An explicit request is kept: float AddV2 on the host. */
  TFE_DeleteTensorHandle(sum);
  in[0] = a;
  in[1] = b;
  sum = run_op(ctx, "AddV2", in, 2, "CPU:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(sum, s), CPU0);
  CHECK(read_f32(sum, s) == 5);
  TFE_DeleteTensorHandle(diff);
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(da);
  TFE_DeleteTensorHandle(db);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

static TFE_TensorHandle* i32_vector(int64_t n, int32_t v, TF_Status* s) {
  int32_t* data = (int32_t*)malloc(sizeof(int32_t) * (size_t)n);
  TFE_TensorHandle* h;
  int64_t i;
  for (i = 0; i < n; i++) data[i] = v;
  h = make_handle(TF_INT32, &n, 1, data, sizeof(int32_t) * (size_t)n, s);
  free(data);
  return h;
}

/* TF pins ops whose inputs are all small int32/int64 host tensors to the
 * host CPU; bigger ones go to the device like any other. */
TEST(small_integer_ops_are_pinned_to_the_host) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle *x, *y, *in[2], *out;
  TF_Tensor* t;
  load_test_device();
  ctx = new_ctx(s);
  x = i32_vector(64, 3, s);
  y = i32_vector(64, 4, s);
  in[0] = x;
  in[1] = y;
  out = run_op(ctx, "AddV2", in, 2, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(out, s), CPU0);
  t = TFE_TensorHandleResolve(out, s);
  CHECK(((const int32_t*)TF_TensorData(t))[63] == 7);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out);
  /* Explicitly on the device it runs there. */
  out = run_op(ctx, "AddV2", in, 2, "MY_DEVICE:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(out, s), DEV0);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
  /* 65 elements are not small: the device's int32 kernel runs. */
  x = i32_vector(65, 3, s);
  y = i32_vector(65, 4, s);
  in[0] = x;
  in[1] = y;
  out = run_op(ctx, "AddV2", in, 2, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(out, s), DEV0);
  t = TFE_TensorHandleResolve(out, s);
  CHECK_CODE(s, TF_OK);
  CHECK(((const int32_t*)TF_TensorData(t))[64] == 7);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

static void fail_on_device(void* kernel, TF_OpKernelContext* k) {
  TF_Status* s = TF_NewStatus();
  (void)kernel;
  TF_SetStatus(s, TF_ABORTED, "ReadVariableOp ran on MY_DEVICE");
  TF_OpKernelContext_Failure(k, s);
  TF_DeleteStatus(s);
}

static TFE_TensorHandle* run_attr_op(TFE_Context* ctx, const char* name,
                                     TFE_TensorHandle* in, const char* dev,
                                     TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  if (dev != NULL) TFE_OpSetDevice(op, dev, s);
  if (in != NULL) TFE_OpAddInput(op, in, s);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  TFE_OpSetAttrShape(op, "shape", NULL, 0, s);
  TFE_OpSetAttrString(op, "shared_name", "place_var", 9);
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  return out[0];
}

/* An op with a resource input runs where the resource is, even when a
 * higher-priority kind has a kernel for it (here one that fails). */
TEST(resource_ops_follow_their_resource) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle *var, *val, *out;
  TF_KernelBuilder* b;
  load_test_device();
  /* A device kernel that would fail if chosen. */
  b = TF_NewKernelBuilder("ReadVariableOp", "MY_DEVICE", NULL, fail_on_device,
                          NULL);
  TF_RegisterKernelBuilder("PlaceTestReadVariableOp", b, s);
  CHECK_CODE(s, TF_OK);
  ctx = new_ctx(s);
  var = run_attr_op(ctx, "VarHandleOp", NULL, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(var, s), CPU0);
  val = scalar_f32(7, s);
  {
    TFE_Op* op = TFE_NewOp(ctx, "AssignVariableOp", s);
    int n = 0;
    TFE_OpAddInput(op, var, s);
    TFE_OpAddInput(op, val, s);
    TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
    TFE_Execute(op, NULL, &n, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteOp(op);
  }
  out = run_attr_op(ctx, "ReadVariableOp", var, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(out, s), CPU0);
  CHECK(read_f32(out, s) == 7);
  TFE_DeleteTensorHandle(out);
  /* Even an explicit request yields to the resource's device, as in TF. */
  out = run_attr_op(ctx, "ReadVariableOp", var, "MY_DEVICE:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(out, s), CPU0);
  CHECK(read_f32(out, s) == 7);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(val);
  TFE_DeleteTensorHandle(var);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

static TFE_TensorHandle* add_with_label(TFE_Context* ctx, TFE_TensorHandle* a,
                                        TFE_TensorHandle* b, const char* label,
                                        TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, "AddV2", s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetDevice(op, "MY_DEVICE:0", s);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, b, s);
  if (label != NULL) TFE_OpSetAttrString(op, "_kernel", label, strlen(label));
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  return out[0];
}

/* The example device registers a second float AddV2 kernel with label
 * "never" (it fails when run): only a "_kernel" attr selects it. */
TEST(kernel_label_attr_selects_labelled_kernels) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle *a, *b, *out;
  load_test_device();
  ctx = new_ctx(s);
  a = scalar_f32(1, s);
  b = scalar_f32(2, s);
  out = add_with_label(ctx, a, b, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(out, s) == 3);
  TFE_DeleteTensorHandle(out);
  CHECK(add_with_label(ctx, a, b, "never", s) == NULL);
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_CONTAINS(TF_Message(s), "low-priority AddV2 kernel was chosen");
  /* No kernel has that label: TF's NOT_FOUND. */
  CHECK(add_with_label(ctx, a, b, "other", s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "label='never'");
  /* The unlabelled kernel again: the label is part of the cache key. */
  out = add_with_label(ctx, a, b, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(out, s) == 3);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(explicit_policy_refuses_implicit_copies) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle *a, *b, *in[2];
  load_test_device();
  ctx = new_ctx_policy(s, TFE_DEVICE_PLACEMENT_EXPLICIT);
  a = scalar_f32(1, s);
  b = scalar_f32(2, s);
  in[0] = a;
  in[1] = b;
  CHECK(run_op(ctx, "AddV2", in, 2, "MY_DEVICE:0", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Tensors on conflicting devices");
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(kernel_errors_reach_the_caller) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  float x[6] = {0};
  int64_t d23[2] = {2, 3};
  TFE_TensorHandle *a, *in[2];
  live_counts before;
  load_test_device();
  ctx = new_ctx(s);
  a = f32_handle(d23, 2, x, s);
  before = live_now();
  in[0] = a;
  in[1] = a;
  CHECK(run_op(ctx, "MatMul", in, 2, "MY_DEVICE:0", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Matrix size-incompatible");
  CHECK_EQ_INT(live_now().handles, before.handles);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(fills_through_the_plugin) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  float x[5] = {1, 2, 3, 4, 5}, y[5];
  int64_t n = 5;
  uint32_t words[5];
  TFE_TensorHandle *h, *d;
  int i;
  load_test_device();
  ctx = new_ctx(s);
  h = f32_handle(&n, 1, x, s);
  d = to_device(ctx, h, "MY_DEVICE:0", s);
  TFE_PluggableDeviceFill(d, 2, 0x3f800000u, s); /* 1.0f */
  CHECK_CODE(s, TF_OK);
  read_f32s(d, y, 5, s);
  for (i = 0; i < 5; i++) CHECK(y[i] == 1.0f);
  TFE_PluggableDeviceFill(d, 0, 0, s);
  CHECK_CODE(s, TF_OK);
  read_f32s(d, y, 5, s);
  for (i = 0; i < 5; i++) CHECK(y[i] == 0.0f);
  TFE_PluggableDeviceFill(d, 1, 0x41, s);
  CHECK_CODE(s, TF_OK);
  read_f32s(d, (float*)words, 5, s);
  for (i = 0; i < 5; i++) CHECK_EQ_INT(words[i], 0x41414141u);
  /* Host handles are not device memory. */
  TFE_PluggableDeviceFill(h, 0, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_PluggableDeviceFill(d, 7, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(d);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(old_plugin_loads_with_emulated_fills) {
  TF_Status* s = TF_NewStatus();
  TF_Library* lib = TF_LoadPluggableDeviceLibrary(SE_PLUGIN("pd_old_device"), s);
  TF_Buffer* desc;
  TFE_Context* ctx;
  float x[4] = {1, 2, 3, 4}, y[4];
  int64_t n = 4;
  TFE_TensorHandle *h, *d;
  int i;
  CHECK_CODE(s, TF_OK);
  TF_DeletePluggableDeviceLibraryHandle(lib);
  desc = TFE_DescribePluggableDevices(s);
  CHECK_CODE(s, TF_OK);
  {
    char* json = (char*)malloc(desc->length + 1);
    memcpy(json, desc->data, desc->length);
    json[desc->length] = '\0';
    CHECK_STR_CONTAINS(json,
                       "\"emulated\": [\"mem_zero\", \"memset\", \"memset32\"]");
    CHECK_STR_CONTAINS(json, "'mem_zero' field in SP_StreamExecutor is not "
                             "set");
    free(json);
  }
  TF_DeleteBuffer(desc);
  ctx = new_ctx(s);
  h = f32_handle(&n, 1, x, s);
  d = to_device(ctx, h, "OLD_DEVICE:0", s);
  TFE_PluggableDeviceFill(d, 2, 0x40000000u, s); /* 2.0f, emulated */
  CHECK_CODE(s, TF_OK);
  read_f32s(d, y, 4, s);
  for (i = 0; i < 4; i++) CHECK(y[i] == 2.0f);
  TFE_DeleteTensorHandle(d);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(self_test_and_description) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* b;
  char* json;
  load_test_device();
  b = TFE_PluggableDeviceSelfTest("MY_DEVICE:1", s);
  CHECK_CODE(s, TF_OK);
  json = (char*)malloc(b->length + 1);
  memcpy(json, b->data, b->length);
  json[b->length] = '\0';
  CHECK_STR_CONTAINS(json, "\"ok\": true}");
  CHECK(strstr(json, "\"ok\": false") == NULL);
  CHECK_STR_CONTAINS(json, "event orders streams");
  free(json);
  TF_DeleteBuffer(b);
  b = TFE_DescribePluggableDevices(s);
  CHECK_CODE(s, TF_OK);
  json = (char*)malloc(b->length + 1);
  memcpy(json, b->data, b->length);
  json[b->length] = '\0';
  CHECK_STR_CONTAINS(json, "\"name\": \"TFE_TEST_PLATFORM\"");
  CHECK_STR_CONTAINS(json, "\"type\": \"MY_DEVICE\"");
  CHECK_STR_CONTAINS(json, "\"hardware_name\": \"tfe arena device\"");
  CHECK_STR_CONTAINS(json, "\"op\": \"MatMul\"");
  CHECK_STR_CONTAINS(json, "\"host_memory\": [\"reduction_indices\"]");
  CHECK_STR_CONTAINS(json, "\"graph_optimizer\": {\"device_type\": "
                           "\"MY_DEVICE\"");
  CHECK_STR_CONTAINS(json, "\"remapping\": \"off\"");
  CHECK_STR_CONTAINS(json, "\"profiler\": {\"type\": \"MY_DEVICE\"}");
  CHECK_STR_CONTAINS(json, "\"emulated\": []");
  free(json);
  TF_DeleteBuffer(b);
  /* Unknown devices. */
  CHECK(TFE_PluggableDeviceSelfTest("CPU:0", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_PluggableDeviceSynchronize("NOPE:0", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteStatus(s);
}

TEST(ordering_holds_under_stream_jitter) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  float x[256], y[256], one[1] = {1};
  int64_t n = 256;
  TFE_TensorHandle *h, *acc, *inc, *in[2];
  int i, it;
  setenv("TFE_TEST_DEVICE_JITTER_US", "300", 1);
  load_test_device();
  ctx = new_ctx(s);
  for (i = 0; i < 256; i++) x[i] = (float)i;
  h = f32_handle(&n, 1, x, s);
  acc = to_device(ctx, h, "MY_DEVICE:0", s);
  {
    int64_t one_dim = 1;
    TFE_TensorHandle* o = f32_handle(&one_dim, 1, one, s);
    inc = to_device(ctx, o, "MY_DEVICE:0", s);
    TFE_DeleteTensorHandle(o);
  }
  for (it = 0; it < 30; it++) {
    TFE_TensorHandle* next;
    in[0] = acc;
    in[1] = inc;
    next = run_op(ctx, "AddV2", in, 2, "MY_DEVICE:0", s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteTensorHandle(acc);
    acc = next;
    if (it % 7 == 0) {
      /* Fresh copies in while kernels are queued. */
      TFE_TensorHandle* tmp = to_device(ctx, h, "MY_DEVICE:0", s);
      TFE_DeleteTensorHandle(tmp);
    }
  }
  read_f32s(acc, y, 256, s);
  for (i = 0; i < 256; i++) CHECK(y[i] == (float)i + 30);
  TFE_DeleteTensorHandle(acc);
  TFE_DeleteTensorHandle(inc);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

static int g_dealloc_calls;
static void count_dealloc(void* data, size_t len, void* arg) {
  (void)data;
  (void)len;
  (void)arg;
  g_dealloc_calls++;
}

TEST(handle_from_device_memory_wraps_plugin_blocks) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  float x[3] = {1, 2, 3}, y[3];
  int64_t n = 3;
  TFE_TensorHandle *h, *d, *wrapped, *in[2], *sum;
  void* ptr;
  load_test_device();
  ctx = new_ctx(s);
  h = f32_handle(&n, 1, x, s);
  d = to_device(ctx, h, "MY_DEVICE:0", s);
  ptr = TFE_TensorHandleDevicePointer(d, s);
  wrapped = TFE_NewTensorHandleFromDeviceMemory(ctx, "MY_DEVICE:0", TF_FLOAT,
                                                &n, 1, ptr, sizeof x,
                                                count_dealloc, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(wrapped, s), DEV0);
  in[0] = wrapped;
  in[1] = d;
  sum = run_op(ctx, "AddV2", in, 2, NULL, s);
  CHECK_CODE(s, TF_OK);
  read_f32s(sum, y, 3, s);
  CHECK(y[0] == 2 && y[1] == 4 && y[2] == 6);
  CHECK_EQ_INT(g_dealloc_calls, 0);
  TFE_DeleteTensorHandle(wrapped);
  CHECK_EQ_INT(g_dealloc_calls, 1);
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(d);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

typedef struct worker_arg {
  TFE_Context* ctx;
  const char* dev;
  int ok;
} worker_arg;

static void* worker(void* p) {
  worker_arg* w = (worker_arg*)p;
  TF_Status* s = TF_NewStatus();
  int i;
  w->ok = 1;
  for (i = 0; i < 50 && w->ok; i++) {
    TFE_TensorHandle *a = scalar_f32((float)i, s), *b = scalar_f32(1, s);
    TFE_TensorHandle *in[2] = {a, b}, *out;
    out = run_op(w->ctx, "AddV2", in, 2, w->dev, s);
    if (out == NULL || read_f32(out, s) != (float)i + 1) w->ok = 0;
    TFE_DeleteTensorHandle(out);
    TFE_DeleteTensorHandle(a);
    TFE_DeleteTensorHandle(b);
  }
  TF_DeleteStatus(s);
  return NULL;
}

TEST(threads_share_devices) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  pthread_t t[4];
  worker_arg a[4];
  int i;
  load_test_device();
  ctx = new_ctx(s);
  for (i = 0; i < 4; i++) {
    a[i].ctx = ctx;
    a[i].dev = i % 2 ? "MY_DEVICE:1" : "MY_DEVICE:0";
    pthread_create(&t[i], NULL, worker, &a[i]);
  }
  for (i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    CHECK(a[i].ok);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
