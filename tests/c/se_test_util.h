/* Helpers for the PluggableDevice tests (tests/c/test_se_*.c): loading the
 * test device plugin once per process, handles, copies and reads. */
#ifndef TFE_TESTS_SE_TEST_UTIL_H_
#define TFE_TESTS_SE_TEST_UTIL_H_

#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tfe/plugins.h"

#define SE_PLUGIN(name) TFE_TEST_PLUGIN_DIR "/" name ".so"
#define TEST_DEVICE SE_PLUGIN("pd_test_device")
#define DEV0 "/job:localhost/replica:0/task:0/device:MY_DEVICE:0"
#define DEV1 "/job:localhost/replica:0/task:0/device:MY_DEVICE:1"
#define CPU0 "/job:localhost/replica:0/task:0/device:CPU:0"

/* Loads the test device plugin (once per process). */
static inline void load_test_device(void) {
  static int loaded;
  TF_Status* s;
  TF_Library* lib;
  if (loaded) return;
  s = TF_NewStatus();
  lib = TF_LoadPluggableDeviceLibrary(TEST_DEVICE, s);
  CHECK_CODE(s, TF_OK);
  CHECK(lib != NULL);
  TF_DeletePluggableDeviceLibraryHandle(lib);
  TF_DeleteStatus(s);
  loaded = 1;
}

/* A counter of the test plugin (tfe_py/examples/example_device.h). */
static inline long plugin_counter(const char* name) {
  void* h = dlopen(TEST_DEVICE, RTLD_NOW | RTLD_NOLOAD);
  long (*fn)(const char*);
  long v;
  CHECK(h != NULL);
  *(void**)&fn = dlsym(h, "pd_test_counter");
  CHECK(fn != NULL);
  v = fn(name);
  dlclose(h);
  return v;
}

static inline TFE_TensorHandle* f32_handle(const int64_t* dims, int nd,
                                           const float* data, TF_Status* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return make_handle(TF_FLOAT, dims, nd, data, (size_t)n * sizeof(float), s);
}

static inline TFE_TensorHandle* to_device(TFE_Context* ctx,
                                          TFE_TensorHandle* h,
                                          const char* dev, TF_Status* s) {
  TFE_TensorHandle* d = TFE_TensorHandleCopyToDevice(h, ctx, dev, s);
  CHECK_CODE(s, TF_OK);
  CHECK(d != NULL);
  return d;
}

/* Copies the values of h (any device) into out[0..n). */
static inline void read_f32s(TFE_TensorHandle* h, float* out, int64_t n,
                             TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_FLOAT);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), (size_t)n * sizeof(float));
  if (n) memcpy(out, TF_TensorData(t), (size_t)n * sizeof(float));
  TF_DeleteTensor(t);
}

/* Runs op `name` with inputs[0..n) on `device` (NULL: unplaced) and returns
 * the single output, or NULL with the status set. attrs: optional bool
 * attrs as "name" / value pairs terminated by NULL. */
static inline TFE_TensorHandle* run_op(TFE_Context* ctx, const char* name,
                                       TFE_TensorHandle** inputs, int n,
                                       const char* device, TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int nout = 1, i;
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  if (device != NULL) {
    TFE_OpSetDevice(op, device, s);
    CHECK_CODE(s, TF_OK);
  }
  for (i = 0; i < n; i++) {
    TFE_OpAddInput(op, inputs[i], s);
    CHECK_CODE(s, TF_OK);
  }
  TFE_Execute(op, out, &nout, s);
  TFE_DeleteOp(op);
  if (TF_GetCode(s) != TF_OK) return NULL;
  return out[0];
}

static inline int close_to(float a, float b) {
  return fabsf(a - b) <= 1e-4f * (1.0f + fabsf(a) + fabsf(b));
}

/* Deterministic pseudo-random floats in [-1, 1). */
static inline void fill_random(float* x, int64_t n, unsigned seed) {
  int64_t i;
  uint32_t v = seed * 2654435761u + 1;
  for (i = 0; i < n; i++) {
    v = v * 1664525u + 1013904223u;
    x[i] = (float)((v >> 8) & 0xffff) / 32768.0f - 1.0f;
  }
}

#endif /* TFE_TESTS_SE_TEST_UTIL_H_ */
