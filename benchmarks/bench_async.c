/* Asynchronous vs synchronous eager execution of small ops.
 *
 *   bench_async [N] [DEVICE_PLUGIN.so]
 *
 * For each device (CPU:0, and MY_DEVICE:0 of the test device plugin when
 * its path is given) and each mode (a synchronous context, an asynchronous
 * one), runs a chain of N (default 1000) small ops -- AddV2 on 16 floats,
 * each consuming the previous result -- and reports, as the median of 9
 * runs:
 *   issue   time until the N TFE_Execute calls returned (for async: the
 *           time the caller is blocked; it may do other work afterwards);
 *   total   time until the last result was resolved on the host;
 *   in-flight high-water mark of the async executor (tfe/executor.h).
 * A second workload interleaves host-to-device copies with the ops
 * ("copy+op"): each step copies a fresh host tensor to the device and adds
 * it. A third one ("64K op+host", CPU only) uses 65536-float tensors and
 * has the caller do 20 us of its own work after each TFE_Execute, which an
 * asynchronous executor overlaps with the kernels.
 * Build and run: benchmarks/run_async.sh, or
 *   cc -O2 -Iinclude benchmarks/bench_async.c -Lbuild -ltfe -lm */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tfe/executor.h"

#define RUNS 9
#define SMALL 16
#define LARGE 65536
#define HOST_WORK_US 20

static int g_len = SMALL;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void die(const char* what, TF_Status* s) {
  fprintf(stderr, "bench_async: %s: %s\n", what, TF_Message(s));
  exit(1);
}

/* The caller's own work between ops (a busy wait). */
static void host_work(void) {
  double end = now_ms() + HOST_WORK_US / 1000.0;
  while (now_ms() < end) {
  }
}

static TFE_TensorHandle* host_vec(float v, TF_Status* s) {
  int64_t dims[1] = {g_len};
  TF_Tensor* t =
      TF_AllocateTensor(TF_FLOAT, dims, 1, sizeof(float) * (size_t)g_len);
  float* p = (float*)TF_TensorData(t);
  TFE_TensorHandle* h;
  int i;
  for (i = 0; i < g_len; i++) p[i] = v;
  h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  if (TF_GetCode(s) != TF_OK) die("TFE_NewTensorHandle", s);
  return h;
}

static TFE_TensorHandle* add(TFE_Context* c, TFE_TensorHandle* a,
                             TFE_TensorHandle* b, const char* dev,
                             TF_Status* s) {
  TFE_Op* op = TFE_NewOp(c, "AddV2", s);
  TFE_TensorHandle* out = NULL;
  int n = 1;
  if (dev != NULL) TFE_OpSetDevice(op, dev, s);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, b, s);
  TFE_Execute(op, &out, &n, s);
  TFE_DeleteOp(op);
  if (TF_GetCode(s) != TF_OK) die("TFE_Execute", s);
  return out;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

typedef struct result {
  double issue_ms;
  double total_ms;
  int high_water;
} result;

/* One run of the workload; with_copies adds a host-to-device copy of a
 * fresh tensor to every step, 2 means host work after every op instead. */
static result run_once(TFE_Context* c, const char* dev, int n,
                       int with_copies, TF_Status* s) {
  TFE_TensorHandle* one = host_vec(1.0f, s);
  TFE_TensorHandle* x = host_vec(0.0f, s);
  TFE_TensorHandle *cur, *one_dev;
  TFE_Executor* ex = TFE_ContextGetExecutorForThread(c);
  TFE_ExecutorStats st;
  TF_Tensor* t;
  result r;
  double t0, t1;
  int i;
  /* Inputs on the device first (not timed). */
  cur = TFE_TensorHandleCopyToDevice(x, c, dev, s);
  if (TF_GetCode(s) != TF_OK) die("copy to device", s);
  one_dev = TFE_TensorHandleCopyToDevice(one, c, dev, s);
  if (TF_GetCode(s) != TF_OK) die("copy to device", s);
  TFE_ContextAsyncWait(c, s);
  TFE_ExecutorResetStats(ex);
  t0 = now_ms();
  for (i = 0; i < n; i++) {
    TFE_TensorHandle* next;
    if (with_copies == 1) {
      TFE_TensorHandle* d = TFE_TensorHandleCopyToDevice(one, c, dev, s);
      if (TF_GetCode(s) != TF_OK) die("copy to device", s);
      next = add(c, cur, d, dev, s);
      TFE_DeleteTensorHandle(d);
    } else {
      next = add(c, cur, one_dev, dev, s);
      if (with_copies == 2) host_work();
    }
    TFE_DeleteTensorHandle(cur);
    cur = next;
  }
  t1 = now_ms();
  t = TFE_TensorHandleResolve(cur, s);
  if (TF_GetCode(s) != TF_OK) die("resolve", s);
  r.issue_ms = t1 - t0;
  r.total_ms = now_ms() - t0;
  if (((float*)TF_TensorData(t))[0] != (float)n) {
    fprintf(stderr, "bench_async: wrong result %g, expected %d\n",
            ((float*)TF_TensorData(t))[0], n);
    exit(1);
  }
  TF_DeleteTensor(t);
  TFE_ExecutorGetStats(ex, &st, s);
  r.high_water = st.in_flight_high_water;
  TFE_DeleteExecutor(ex);
  TFE_DeleteTensorHandle(cur);
  TFE_DeleteTensorHandle(one_dev);
  TFE_DeleteTensorHandle(one);
  TFE_DeleteTensorHandle(x);
  return r;
}

static void bench(const char* label, const char* dev, int n, int with_copies,
                  TF_Status* s) {
  double issue[2][RUNS], total[2][RUNS];
  int hw = 0, mode, k;
  for (mode = 0; mode < 2; mode++) {
    TFE_ContextOptions* o = TFE_NewContextOptions();
    TFE_Context* c;
    TFE_ContextOptionsSetAsync(o, (unsigned char)mode);
    c = TFE_NewContext(o, s);
    TFE_DeleteContextOptions(o);
    if (TF_GetCode(s) != TF_OK) die("TFE_NewContext", s);
    run_once(c, dev, n, with_copies, s); /* warm-up: kernel cache, memory */
    for (k = 0; k < RUNS; k++) {
      result r = run_once(c, dev, n, with_copies, s);
      issue[mode][k] = r.issue_ms;
      total[mode][k] = r.total_ms;
      if (mode == 1 && r.high_water > hw) hw = r.high_water;
    }
    TFE_ContextAsyncWait(c, s);
    TFE_DeleteContext(c);
    qsort(issue[mode], RUNS, sizeof(double), cmp_double);
    qsort(total[mode], RUNS, sizeof(double), cmp_double);
  }
  printf("%-22s sync: issue %7.2f ms total %7.2f ms | async: issue %7.2f ms "
         "total %7.2f ms (x%.2f total), high-water %d\n",
         label, issue[0][RUNS / 2], total[0][RUNS / 2], issue[1][RUNS / 2],
         total[1][RUNS / 2], total[0][RUNS / 2] / total[1][RUNS / 2], hw);
}

int main(int argc, char** argv) {
  TF_Status* s = TF_NewStatus();
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  char label[64];
  if (n <= 0) n = 1000;
  printf("bench_async: chains of %d AddV2 ops on %d floats, median of %d "
         "runs\n",
         n, SMALL, RUNS);
  snprintf(label, sizeof(label), "CPU:0 op");
  bench(label, "CPU:0", n, 0, s);
  snprintf(label, sizeof(label), "CPU:0 copy+op");
  bench(label, "CPU:0", n, 1, s);
  g_len = LARGE;
  bench("CPU:0 64K op+host", "CPU:0", n, 2, s);
  g_len = SMALL;
  if (argc > 2) {
    TF_Library* lib = TF_LoadPluggableDeviceLibrary(argv[2], s);
    if (TF_GetCode(s) != TF_OK) die("TF_LoadPluggableDeviceLibrary", s);
    TF_DeletePluggableDeviceLibraryHandle(lib);
    bench("MY_DEVICE:0 op", "MY_DEVICE:0", n, 0, s);
    bench("MY_DEVICE:0 copy+op", "MY_DEVICE:0", n, 1, s);
  }
  TF_DeleteStatus(s);
  return 0;
}
