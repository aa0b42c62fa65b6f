/* Custom gradients from C (TFE_GradientTapeRecordCustom in tfe/gradients.h)
 * and gradients through custom devices.
 *
 * Custom gradients: a clipped gradient checked by value, which tapes record
 * an entry (none, one not tracking the inputs, a paused one), argument
 * errors (the deleter runs exactly once in every case), a NULL gradient for
 * an output nothing depends on, an error from the gradient function reaching
 * the gradient call without leaks, persistent tapes calling the function
 * twice, and a second derivative through a gradient function made of ops.
 *
 * Custom devices: ops placed on the parallel device and on a wrapping test
 * device are recorded with the handles the caller sees, their gradient ops
 * run on the device, and the gradient of each component equals the gradient
 * computed on one CPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"
#include "tfe/custom_device.h"
#include "tfe/gradients.h"
#include "tfe/parallel_device.h"

#define PDEV "/job:localhost/replica:0/task:0/device:CUSTOM:0"
#define WDEV "/job:localhost/replica:0/task:0/device:CUSTOM:1"

static TFE_TensorHandle* f64(const double* v, const int64_t* dims, int nd, TF_Status* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return make_handle(TF_DOUBLE, dims, nd, v, (size_t)n * sizeof(double), s);
}

static TFE_TensorHandle* vec(const double* v, int n, TF_Status* s) {
  int64_t d[1];
  d[0] = n;
  return f64(v, d, 1, s);
}

static TFE_TensorHandle* scalar_f64(double v, TF_Status* s) {
  return make_handle(TF_DOUBLE, NULL, 0, &v, sizeof v, s);
}

/* Reads n doubles of a host handle. */
static void read_f64(TFE_TensorHandle* h, double* out, int n, TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_DOUBLE);
  CHECK_EQ_INT(TF_TensorElementCount(t), n);
  memcpy(out, TF_TensorData(t), (size_t)n * sizeof(double));
  TF_DeleteTensor(t);
}

static void check_close(const double* got, const double* want, int n) {
  int i;
  for (i = 0; i < n; i++) {
    if (fabs(got[i] - want[i]) > 1e-9 * (1 + fabs(want[i]))) {
      fprintf(stderr, "element %d: got %.12g, want %.12g\n", i, got[i], want[i]);
      CHECK(0);
    }
  }
}

/* Where run1 places its ops (the parallel device wants explicit placement,
 * as under TF's device scope); NULL: no placement. */
static const char* g_dev;

static TFE_TensorHandle* run1(TFE_Context* ctx, const char* name, TFE_TensorHandle* a,
                              TFE_TensorHandle* b, TFE_TensorHandle* c, TF_Status* s) {
  TFE_TensorHandle* out = NULL;
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  if (TF_GetCode(s) != TF_OK) return NULL;
  if (g_dev != NULL) TFE_OpSetDevice(op, g_dev, s);
  if (TF_GetCode(s) == TF_OK) TFE_OpAddInput(op, a, s);
  if (b != NULL && TF_GetCode(s) == TF_OK) TFE_OpAddInput(op, b, s);
  if (c != NULL && TF_GetCode(s) == TF_OK) TFE_OpAddInput(op, c, s);
  if (TF_GetCode(s) == TF_OK) TFE_Execute(op, &out, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s) == TF_OK ? out : NULL;
}

/* Sum over every axis of a handle of the given rank. */
static TFE_TensorHandle* sum_all(TFE_Context* ctx, TFE_TensorHandle* x, int rank,
                                 TF_Status* s) {
  int32_t axes[4] = {0, 1, 2, 3};
  int64_t d[1];
  TFE_TensorHandle* ax;
  TFE_TensorHandle* r;
  d[0] = rank;
  ax = make_handle(TF_INT32, d, 1, axes, (size_t)rank * sizeof(int32_t), s);
  r = run1(ctx, "Sum", x, ax, NULL, s);
  TFE_DeleteTensorHandle(ax);
  return r;
}

/* ------------------------------------------------------------------------
 * Closures of the custom gradient functions below. */

typedef struct closure {
  TFE_TensorHandle* x; /* borrowed */
  double lo, hi;       /* clip range */
  double scale;        /* multi-output test: d out0 = scale * dy0 */
  int calls;
  int fail;            /* the function fails after setting a gradient */
  int saw_null_dy1;    /* multi-output test: output 1 had no gradient */
  int* deleted;        /* incremented by the deleter */
} closure;

static closure* new_closure(TFE_TensorHandle* x, int* deleted, TF_Status* s) {
  closure* c = (closure*)calloc(1, sizeof *c);
  CHECK(c != NULL);
  (void)s;
  /* Borrowed (the tests keep x alive): the same handle, so that the ops of
   * the gradient function use the tensor the tapes track. */
  c->x = x;
  c->deleted = deleted;
  return c;
}

static void closure_delete(void* data) {
  closure* c = (closure*)data;
  (*c->deleted)++;
  free(c);
}

/* y = x * x with the gradient clip(2 * x * dy, lo, hi). */
static void clipped_square_grad(void* data, TFE_Context* ctx, int no,
                                TFE_TensorHandle* const* dys, int ni, TFE_TensorHandle** dxs,
                                TF_Status* s) {
  closure* c = (closure*)data;
  TFE_TensorHandle* two = scalar_f64(2.0, s);
  TFE_TensorHandle* lo = scalar_f64(c->lo, s);
  TFE_TensorHandle* hi = scalar_f64(c->hi, s);
  TFE_TensorHandle* t1;
  TFE_TensorHandle* t2 = NULL;
  c->calls++;
  CHECK_EQ_INT(no, 1);
  CHECK_EQ_INT(ni, 1);
  CHECK(dys[0] != NULL && dxs[0] == NULL);
  t1 = run1(ctx, "Mul", c->x, two, NULL, s);
  if (t1 != NULL) t2 = run1(ctx, "Mul", t1, dys[0], NULL, s);
  if (t2 != NULL) dxs[0] = run1(ctx, "ClipByValue", t2, lo, hi, s);
  if (c->fail && TF_GetCode(s) == TF_OK) {
    TF_SetStatus(s, TF_ABORTED, "the custom gradient gives up");
  }
  TFE_DeleteTensorHandle(two);
  TFE_DeleteTensorHandle(lo);
  TFE_DeleteTensorHandle(hi);
  TFE_DeleteTensorHandle(t1);
  TFE_DeleteTensorHandle(t2);
}

/* Records y = x * x on the tapes of ctx with the clipped gradient; returns
 * the new output handle (the caller owns it) and the number of tapes. */
static TFE_TensorHandle* clipped_square(TFE_Context* ctx, TFE_TensorHandle* x, closure* c,
                                        int* ntapes, TF_Status* s) {
  TFE_TensorHandle* y0 = run1(ctx, "Mul", x, x, NULL, s);
  TFE_TensorHandle* y;
  CHECK_CODE(s, TF_OK);
  y = TFE_TensorHandleCopySharingTensor(y0, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(y0);
  *ntapes = TFE_GradientTapeRecordCustom(ctx, 1, &x, 1, &y, clipped_square_grad, c,
                                         closure_delete, s);
  return y;
}

TEST(clipped_gradient_values_and_deleter) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  const double xv[3] = {0.5, 2.0, -3.0};
  const double want[3] = {1.0, 1.5, -1.5}; /* clip(2x, -1.5, 1.5) */
  double got[3];
  int deleted = 0, ntapes = -1;
  TFE_TensorHandle* x = vec(xv, 3, s);
  TFE_GradientTape* tape = TFE_NewGradientTape(ctx, 0, s);
  closure* c = new_closure(x, &deleted, s);
  TFE_TensorHandle* y;
  TFE_TensorHandle* loss;
  TFE_TensorHandle* dx = NULL;
  c->lo = -1.5;
  c->hi = 1.5;
  TFE_GradientTapeWatch(tape, x, s);
  CHECK_CODE(s, TF_OK);
  y = clipped_square(ctx, x, c, &ntapes, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(ntapes, 1);
  loss = sum_all(ctx, y, 1, s);
  CHECK_CODE(s, TF_OK);
  TFE_GradientTapeGradient(tape, 1, &loss, NULL, 1, &x, TFE_UNCONNECTED_NONE, &dx, s);
  CHECK_CODE(s, TF_OK);
  CHECK(dx != NULL);
  read_f64(dx, got, 3, s);
  check_close(got, want, 3);
  /* A non-persistent tape lets go of everything once it answered. */
  CHECK_EQ_INT(deleted, 1);
  TFE_DeleteTensorHandle(dx);
  TFE_DeleteTensorHandle(loss);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

static int g_null_deleter_calls;
static void count_delete(void* data) {
  (void)data;
  g_null_deleter_calls++;
}

static void never_called(void* data, TFE_Context* ctx, int no, TFE_TensorHandle* const* dys,
                         int ni, TFE_TensorHandle** dxs, TF_Status* s) {
  (void)data, (void)ctx, (void)no, (void)dys, (void)ni, (void)dxs;
  TF_SetStatus(s, TF_INTERNAL, "never_called was called");
}

TEST(which_tapes_record_and_argument_errors) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  const double xv[2] = {1.0, 2.0};
  TFE_TensorHandle* x = vec(xv, 2, s);
  TFE_TensorHandle* other = vec(xv, 2, s);
  TFE_TensorHandle* ix = scalar_i32(3, s);
  TFE_TensorHandle* y = TFE_TensorHandleCopySharingTensor(x, s);
  TFE_TensorHandle* y2 = TFE_TensorHandleCopySharingTensor(x, s);
  TFE_TensorHandle* sq;
  TFE_TensorHandle* ins[2];
  TFE_TensorHandle* outs[2];
  TFE_GradientTape* tape;
  int n;
  CHECK_CODE(s, TF_OK);

  /* No tape at all: nothing recorded, the deleter runs at once. */
  g_null_deleter_calls = 0;
  n = TFE_GradientTapeRecordCustom(ctx, 1, &x, 1, &y, never_called, NULL, count_delete, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 0);
  CHECK_EQ_INT(g_null_deleter_calls, 1);

  /* A tape that tracks none of the inputs. */
  tape = TFE_NewGradientTape(ctx, 1, s);
  TFE_GradientTapeWatch(tape, other, s);
  n = TFE_GradientTapeRecordCustom(ctx, 1, &x, 1, &y, never_called, NULL, count_delete, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 0);
  CHECK_EQ_INT(g_null_deleter_calls, 2);
  CHECK_EQ_INT(TFE_GradientTapeNumRecordedOps(tape), 0);

  /* A paused tape does not record either. */
  TFE_GradientTapeWatch(tape, x, s);
  TFE_GradientTapeStopRecording(tape, s);
  CHECK_CODE(s, TF_OK);
  n = TFE_GradientTapeRecordCustom(ctx, 1, &x, 1, &y, never_called, NULL, count_delete, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 0);
  CHECK_EQ_INT(g_null_deleter_calls, 3);
  TFE_GradientTapeResumeRecording(tape, s);
  CHECK_CODE(s, TF_OK);

  /* Argument errors: the deleter runs once each time. */
  n = TFE_GradientTapeRecordCustom(ctx, 1, &x, 1, &y, NULL, NULL, count_delete, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "gradient function is NULL");
  CHECK_EQ_INT(n, 0);
  CHECK_EQ_INT(g_null_deleter_calls, 4);
  n = TFE_GradientTapeRecordCustom(NULL, 1, &x, 1, &y, never_called, NULL, count_delete, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_null_deleter_calls, 5);
  n = TFE_GradientTapeRecordCustom(ctx, 1, NULL, 1, &y, never_called, NULL, count_delete, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_null_deleter_calls, 6);
  n = TFE_GradientTapeRecordCustom(ctx, -1, &x, 1, &y, never_called, NULL, count_delete, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_null_deleter_calls, 7);
  ins[0] = x;
  ins[1] = NULL;
  n = TFE_GradientTapeRecordCustom(ctx, 2, ins, 1, &y, never_called, NULL, count_delete, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "input 1 is NULL");
  CHECK_EQ_INT(g_null_deleter_calls, 8);
  n = TFE_GradientTapeRecordCustom(ctx, 1, &x, 1, &x, never_called, NULL, count_delete, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "output 0 is also input 0");
  CHECK_EQ_INT(g_null_deleter_calls, 9);
  outs[0] = y;
  outs[1] = y;
  n = TFE_GradientTapeRecordCustom(ctx, 1, &x, 2, outs, never_called, NULL, count_delete, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "outputs 0 and 1 are the same handle");
  CHECK_EQ_INT(g_null_deleter_calls, 10);
  /* An output a recorded op produced. */
  sq = run1(ctx, "Mul", x, x, NULL, s);
  CHECK_CODE(s, TF_OK);
  n = TFE_GradientTapeRecordCustom(ctx, 1, &x, 1, &sq, never_called, NULL, count_delete, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "already known to a recording tape");
  CHECK_EQ_INT(g_null_deleter_calls, 11);
  /* A NULL deleter is fine. */
  n = TFE_GradientTapeRecordCustom(ctx, 1, &x, 1, &y, never_called, NULL, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 1);
  CHECK_EQ_INT(TFE_GradientTapeNumRecordedOps(tape), 2); /* the Mul and this */
  /* An integer input may be tracked by no tape: nothing recorded. */
  n = TFE_GradientTapeRecordCustom(ctx, 1, &ix, 1, &y2, never_called, NULL, count_delete, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 0);
  CHECK_EQ_INT(g_null_deleter_calls, 12);
  /* A recorded entry whose outputs the targets do not use is never asked. */
  {
    TFE_TensorHandle* dx = NULL;
    TFE_GradientTapeGradient(tape, 1, &sq, NULL, 1, &x, TFE_UNCONNECTED_NONE, &dx, s);
    CHECK_CODE(s, TF_OK);
    CHECK(dx != NULL);
    TFE_DeleteTensorHandle(dx);
  }
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(sq);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(other);
  TFE_DeleteTensorHandle(ix);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteTensorHandle(y2);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(new_reference_is_the_same_handle) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  const double xv[2] = {1.0, 2.0};
  TFE_TensorHandle* x = vec(xv, 2, s);
  TFE_TensorHandle* r = TFE_TensorHandleNewReference(x, s);
  double got[2];
  CHECK_CODE(s, TF_OK);
  CHECK(r == x);
  TFE_DeleteTensorHandle(x); /* r keeps it alive */
  read_f64(r, got, 2, s);
  check_close(got, xv, 2);
  TFE_DeleteTensorHandle(r);
  CHECK(TFE_TensorHandleNewReference(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleNewReference(NULL, NULL) == NULL); /* no status: nothing */
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

/* Two outputs (x and 2x); the targets only use the first. */
static void two_outputs_grad(void* data, TFE_Context* ctx, int no,
                             TFE_TensorHandle* const* dys, int ni, TFE_TensorHandle** dxs,
                             TF_Status* s) {
  closure* c = (closure*)data;
  TFE_TensorHandle* k = scalar_f64(c->scale, s);
  c->calls++;
  CHECK_EQ_INT(no, 2);
  CHECK_EQ_INT(ni, 1);
  c->saw_null_dy1 = dys[1] == NULL;
  if (dys[0] != NULL) dxs[0] = run1(ctx, "Mul", dys[0], k, NULL, s);
  TFE_DeleteTensorHandle(k);
}

TEST(missing_output_gradient_is_null_and_persistent_tapes_ask_twice) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  const double xv[2] = {1.0, -4.0};
  const double want[2] = {10.0, 10.0};
  double got[2];
  int deleted = 0, n, k;
  TFE_TensorHandle* x = vec(xv, 2, s);
  TFE_TensorHandle* two = scalar_f64(2.0, s);
  TFE_TensorHandle* outs[2];
  TFE_TensorHandle* loss;
  TFE_GradientTape* tape = TFE_NewGradientTape(ctx, 1, s);
  closure* c = new_closure(NULL, &deleted, s);
  c->scale = 10.0;
  TFE_GradientTapeWatch(tape, x, s);
  outs[0] = TFE_TensorHandleCopySharingTensor(x, s);
  {
    TFE_TensorHandle* d = run1(ctx, "Mul", x, two, NULL, s);
    outs[1] = TFE_TensorHandleCopySharingTensor(d, s);
    TFE_DeleteTensorHandle(d);
  }
  CHECK_CODE(s, TF_OK);
  n = TFE_GradientTapeRecordCustom(ctx, 1, &x, 2, outs, two_outputs_grad, c, closure_delete,
                                   s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 1);
  loss = sum_all(ctx, outs[0], 1, s);
  for (k = 1; k <= 2; k++) {
    TFE_TensorHandle* dx = NULL;
    TFE_GradientTapeGradient(tape, 1, &loss, NULL, 1, &x, TFE_UNCONNECTED_NONE, &dx, s);
    CHECK_CODE(s, TF_OK);
    read_f64(dx, got, 2, s);
    check_close(got, want, 2);
    CHECK_EQ_INT(c->calls, k);
    CHECK(c->saw_null_dy1);
    TFE_DeleteTensorHandle(dx);
  }
  CHECK_EQ_INT(deleted, 0); /* the persistent tape still holds it */
  TFE_DeleteGradientTape(tape);
  CHECK_EQ_INT(deleted, 1);
  TFE_DeleteTensorHandle(loss);
  TFE_DeleteTensorHandle(outs[0]);
  TFE_DeleteTensorHandle(outs[1]);
  TFE_DeleteTensorHandle(two);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(gradient_function_error_reaches_the_caller_without_leaks) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  const double xv[2] = {1.0, 2.0};
  int deleted = 0, ntapes;
  TFE_TensorHandle* x = vec(xv, 2, s);
  TFE_GradientTape* tape = TFE_NewGradientTape(ctx, 0, s);
  closure* c = new_closure(x, &deleted, s);
  TFE_TensorHandle* y;
  TFE_TensorHandle* loss;
  TFE_TensorHandle* dx = (TFE_TensorHandle*)1; /* must come back NULL */
  c->lo = -10;
  c->hi = 10;
  c->fail = 1; /* sets a gradient, then fails */
  TFE_GradientTapeWatch(tape, x, s);
  y = clipped_square(ctx, x, c, &ntapes, s);
  CHECK_CODE(s, TF_OK);
  loss = sum_all(ctx, y, 1, s);
  TFE_GradientTapeGradient(tape, 1, &loss, NULL, 1, &x, TFE_UNCONNECTED_ZERO, &dx, s);
  CHECK_CODE(s, TF_ABORTED);
  CHECK_STR_EQ(TF_Message(s), "the custom gradient gives up");
  CHECK(dx == NULL);
  CHECK_EQ_INT(deleted, 1);
  TFE_DeleteTensorHandle(loss);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

/* y = x^3 with the gradient 3 x^2 dy, built from ops. */
static void cube_grad(void* data, TFE_Context* ctx, int no, TFE_TensorHandle* const* dys,
                      int ni, TFE_TensorHandle** dxs, TF_Status* s) {
  closure* c = (closure*)data;
  TFE_TensorHandle* three = scalar_f64(3.0, s);
  TFE_TensorHandle* sq = run1(ctx, "Mul", c->x, c->x, NULL, s);
  TFE_TensorHandle* t = sq != NULL ? run1(ctx, "Mul", sq, three, NULL, s) : NULL;
  (void)no, (void)ni;
  c->calls++;
  if (t != NULL) dxs[0] = run1(ctx, "Mul", t, dys[0], NULL, s);
  TFE_DeleteTensorHandle(three);
  TFE_DeleteTensorHandle(sq);
  TFE_DeleteTensorHandle(t);
}

TEST(second_derivative_through_a_custom_gradient) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  const double xv[3] = {0.5, -1.0, 2.0};
  double got[3], want[3];
  int deleted = 0, n, i;
  TFE_TensorHandle* x = vec(xv, 3, s);
  TFE_GradientTape* outer = TFE_NewGradientTape(ctx, 0, s);
  TFE_GradientTape* inner = TFE_NewGradientTape(ctx, 0, s);
  closure* c = new_closure(x, &deleted, s);
  TFE_TensorHandle* y;
  TFE_TensorHandle* loss;
  TFE_TensorHandle* g = NULL;
  TFE_TensorHandle* h = NULL;
  TFE_GradientTapeWatch(outer, x, s);
  TFE_GradientTapeWatch(inner, x, s);
  {
    /* The forward values: x * x * x (recorded too, but the targets use
     * the custom entry's output). */
    TFE_TensorHandle* sq = run1(ctx, "Mul", x, x, NULL, s);
    TFE_TensorHandle* cu = run1(ctx, "Mul", sq, x, NULL, s);
    y = TFE_TensorHandleCopySharingTensor(cu, s);
    TFE_DeleteTensorHandle(sq);
    TFE_DeleteTensorHandle(cu);
  }
  CHECK_CODE(s, TF_OK);
  n = TFE_GradientTapeRecordCustom(ctx, 1, &x, 1, &y, cube_grad, c, closure_delete, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 2); /* both tapes */
  loss = sum_all(ctx, y, 1, s);
  TFE_GradientTapeGradient(inner, 1, &loss, NULL, 1, &x, TFE_UNCONNECTED_NONE, &g, s);
  CHECK_CODE(s, TF_OK);
  read_f64(g, got, 3, s);
  for (i = 0; i < 3; i++) want[i] = 3 * xv[i] * xv[i];
  check_close(got, want, 3);
  CHECK_EQ_INT(deleted, 0); /* the outer tape still holds its entry */
  CHECK_EQ_INT(c->calls, 1);
  /* The outer tape recorded the gradient function's ops: d/dx sum(3x^2). */
  TFE_GradientTapeGradient(outer, 1, &g, NULL, 1, &x, TFE_UNCONNECTED_NONE, &h, s);
  CHECK_CODE(s, TF_OK);
  read_f64(h, got, 3, s);
  for (i = 0; i < 3; i++) want[i] = 6 * xv[i];
  check_close(got, want, 3);
  CHECK_EQ_INT(deleted, 1); /* c is gone now */
  TFE_DeleteTensorHandle(g);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(loss);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteGradientTape(inner);
  TFE_DeleteGradientTape(outer);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Gradients through custom devices. */

/* loss = sum(tanh(x @ w) * c) + sum(x * x), with x [2,3], w [3,2], c [2]
 * broadcast over rows; placed wherever x's device puts it. */
static TFE_TensorHandle* model(TFE_Context* ctx, TFE_TensorHandle* x, TFE_TensorHandle* w,
                               TFE_TensorHandle* c, TF_Status* s) {
  TFE_TensorHandle* m = run1(ctx, "MatMul", x, w, NULL, s);
  TFE_TensorHandle* t = m ? run1(ctx, "Tanh", m, NULL, NULL, s) : NULL;
  TFE_TensorHandle* u = t ? run1(ctx, "Mul", t, c, NULL, s) : NULL;
  TFE_TensorHandle* a = u ? sum_all(ctx, u, 2, s) : NULL;
  TFE_TensorHandle* xx = a ? run1(ctx, "Mul", x, x, NULL, s) : NULL;
  TFE_TensorHandle* b = xx ? sum_all(ctx, xx, 2, s) : NULL;
  TFE_TensorHandle* r = b ? run1(ctx, "AddV2", a, b, NULL, s) : NULL;
  TFE_DeleteTensorHandle(m);
  TFE_DeleteTensorHandle(t);
  TFE_DeleteTensorHandle(u);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(xx);
  TFE_DeleteTensorHandle(b);
  return r;
}

static const int64_t kXDims[2] = {2, 3};
static const int64_t kWDims[2] = {3, 2};

/* The gradients of model with respect to x and w on one CPU. */
static void cpu_grads(TFE_Context* ctx, const double* xv, const double* wv, const double* cv,
                      double* gx, double* gw, TF_Status* s) {
  TFE_TensorHandle* x = f64(xv, kXDims, 2, s);
  TFE_TensorHandle* w = f64(wv, kWDims, 2, s);
  TFE_TensorHandle* c = vec(cv, 2, s);
  TFE_TensorHandle* srcs[2];
  TFE_TensorHandle* grads[2] = {NULL, NULL};
  TFE_GradientTape* tape = TFE_NewGradientTape(ctx, 0, s);
  TFE_TensorHandle* loss;
  TFE_GradientTapeWatch(tape, x, s);
  TFE_GradientTapeWatch(tape, w, s);
  loss = model(ctx, x, w, c, s);
  CHECK_CODE(s, TF_OK);
  srcs[0] = x;
  srcs[1] = w;
  TFE_GradientTapeGradient(tape, 1, &loss, NULL, 2, srcs, TFE_UNCONNECTED_NONE, grads, s);
  CHECK_CODE(s, TF_OK);
  read_f64(grads[0], gx, 6, s);
  read_f64(grads[1], gw, 6, s);
  TFE_DeleteTensorHandle(grads[0]);
  TFE_DeleteTensorHandle(grads[1]);
  TFE_DeleteTensorHandle(loss);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(w);
  TFE_DeleteTensorHandle(c);
}

static TFE_Context* ctx_with_cpus(int n, TF_Status* s) {
  TFE_Context* ctx = new_ctx(s);
  TFE_SetLogicalCpuDevices(ctx, n, "/job:localhost/replica:0/task:0", s);
  CHECK_CODE(s, TF_OK);
  return ctx;
}

TEST(gradients_through_the_parallel_device) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = ctx_with_cpus(2, s);
  const char* comps[2] = {FULL_CPU(0), FULL_CPU(1)};
  const double xv[2][6] = {{0.1, -0.2, 0.3, 0.4, 0.5, -0.6}, {1.0, 0.7, -0.3, 0.2, -0.9, 0.8}};
  const double wv[6] = {0.3, -0.1, 0.2, 0.5, -0.4, 0.6};
  const double cv[2] = {1.5, -2.0};
  TFE_TensorHandle* parts[2];
  TFE_TensorHandle* x;
  TFE_TensorHandle* w;
  TFE_TensorHandle* c;
  TFE_TensorHandle* loss;
  TFE_TensorHandle* srcs[2];
  TFE_TensorHandle* grads[2] = {NULL, NULL};
  TFE_GradientTape* tape;
  int i, k;
  TFE_RegisterParallelDevice(ctx, PDEV, comps, 2, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 2; i++) parts[i] = f64(xv[i], kXDims, 2, s);
  x = TFE_ParallelDevicePack(ctx, PDEV, parts, 2, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(parts[0]);
  TFE_DeleteTensorHandle(parts[1]);
  w = f64(wv, kWDims, 2, s); /* a host tensor the device broadcasts */
  c = vec(cv, 2, s);
  tape = TFE_NewGradientTape(ctx, 0, s);
  TFE_GradientTapeWatch(tape, x, s);
  TFE_GradientTapeWatch(tape, w, s);
  CHECK_CODE(s, TF_OK);
  g_dev = PDEV;
  loss = model(ctx, x, w, c, s);
  g_dev = NULL;
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(loss, s), PDEV);
  CHECK(TFE_GradientTapeNumRecordedOps(tape) >= 7);
  srcs[0] = x;
  srcs[1] = w;
  TFE_GradientTapeGradient(tape, 1, &loss, NULL, 2, srcs, TFE_UNCONNECTED_NONE, grads, s);
  CHECK_CODE(s, TF_OK);
  for (k = 0; k < 2; k++) {
    TFE_TensorHandle* got[2];
    CHECK(grads[k] != NULL);
    /* Both gradients live on the parallel device: one per component. */
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(grads[k], s), PDEV);
    TFE_ParallelDeviceUnpack(ctx, PDEV, grads[k], got, 2, s);
    CHECK_CODE(s, TF_OK);
    for (i = 0; i < 2; i++) {
      double gx[6], gw[6], v[6];
      CHECK_STR_EQ(TFE_TensorHandleDeviceName(got[i], s), comps[i]);
      cpu_grads(ctx, xv[i], wv, cv, gx, gw, s);
      read_f64(got[i], v, 6, s);
      check_close(v, k == 0 ? gx : gw, 6);
      TFE_DeleteTensorHandle(got[i]);
    }
    TFE_DeleteTensorHandle(grads[k]);
  }
  TFE_DeleteTensorHandle(loss);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(w);
  TFE_DeleteTensorHandle(c);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

/* A wrapping device: its tensors wrap CPU:0 handles, and it runs every op
 * on CPU:0 on the unwrapped inputs, counting the ops it ran. */
typedef struct wrapdev {
  int executes;
} wrapdev;

static int w_num_dims(void* data, TF_Status* s) {
  return TFE_TensorHandleNumDims((TFE_TensorHandle*)data, s);
}
static int64_t w_dim(void* data, int i, TF_Status* s) {
  return TFE_TensorHandleDim((TFE_TensorHandle*)data, i, s);
}
static void w_dealloc(void* data) { TFE_DeleteTensorHandle((TFE_TensorHandle*)data); }

static TFE_TensorHandle* wrap(TFE_Context* ctx, TFE_TensorHandle* inner, TF_Status* s) {
  TFE_CustomDeviceTensorHandle m;
  memset(&m, 0, sizeof m);
  m.version = TFE_CUSTOM_DEVICE_VERSION;
  m.num_dims = w_num_dims;
  m.dim = w_dim;
  m.deallocator = w_dealloc;
  return TFE_NewCustomDeviceTensorHandle(ctx, WDEV, TFE_TensorHandleDataType(inner), inner, m,
                                         s);
}

static TFE_TensorHandle* w_copy_to(TFE_Context* ctx, TFE_TensorHandle* t, TF_Status* s,
                                   void* info) {
  TFE_TensorHandle* inner = TFE_TensorHandleCopyToDevice(t, ctx, FULL_CPU(0), s);
  (void)info;
  return TF_GetCode(s) == TF_OK ? wrap(ctx, inner, s) : NULL;
}

static TFE_TensorHandle* w_copy_from(TFE_Context* ctx, TFE_TensorHandle* t, const char* target,
                                     TF_Status* s, void* info) {
  TFE_TensorHandle* inner = (TFE_TensorHandle*)TFE_TensorHandleDevicePointer(t, s);
  (void)info;
  return inner != NULL ? TFE_TensorHandleCopyToDevice(inner, ctx, target, s) : NULL;
}

static void w_execute(const TFE_Op* op, int* num_outputs, TFE_TensorHandle** outputs,
                      TF_Status* s, void* info) {
  wrapdev* d = (wrapdev*)info;
  TFE_Context* ctx = TFE_OpGetContext(op, s);
  int i, n = TFE_OpGetFlatInputCount(op, s), m = *num_outputs;
  TFE_TensorHandle* tmp[8];
  TFE_Op* fwd = TFE_NewOp(ctx, TFE_OpGetName(op, s), s);
  d->executes++;
  if (TF_GetCode(s) != TF_OK) return;
  TFE_OpAddAttrs(fwd, TFE_OpGetAttrs(op));
  for (i = 0; i < n && TF_GetCode(s) == TF_OK; i++) {
    TFE_TensorHandle* h = TFE_OpGetFlatInput(op, i, s);
    int mine = strcmp(TFE_TensorHandleDeviceName(h, s), WDEV) == 0;
    TFE_OpAddInput(fwd, mine ? (TFE_TensorHandle*)TFE_TensorHandleDevicePointer(h, s) : h, s);
  }
  if (m > 8) m = 8;
  if (TF_GetCode(s) == TF_OK) TFE_Execute(fwd, tmp, &m, s);
  TFE_DeleteOp(fwd);
  if (TF_GetCode(s) != TF_OK) return;
  for (i = 0; i < m; i++) outputs[i] = wrap(ctx, tmp[i], s);
  *num_outputs = m;
}

static void w_delete(void* info) { free(info); }

TEST(gradients_through_a_wrapping_custom_device) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  const double xv[6] = {0.1, -0.2, 0.3, 0.4, 0.5, -0.6};
  const double wv[6] = {0.3, -0.1, 0.2, 0.5, -0.4, 0.6};
  const double cv[2] = {1.5, -2.0};
  double gx[6], gw[6], v[6];
  wrapdev* d = (wrapdev*)calloc(1, sizeof *d);
  TFE_CustomDevice dev;
  TFE_TensorHandle* hx;
  TFE_TensorHandle* hw;
  TFE_TensorHandle* x;
  TFE_TensorHandle* w;
  TFE_TensorHandle* c;
  TFE_TensorHandle* loss;
  TFE_TensorHandle* srcs[2];
  TFE_TensorHandle* grads[2] = {NULL, NULL};
  TFE_GradientTape* tape;
  int k, forward_ops;
  memset(&dev, 0, sizeof dev);
  dev.version = TFE_CUSTOM_DEVICE_VERSION;
  dev.copy_tensor_to_device = w_copy_to;
  dev.copy_tensor_from_device = w_copy_from;
  dev.execute = w_execute;
  dev.delete_device = w_delete;
  TFE_RegisterCustomDevice(ctx, dev, WDEV, d, s);
  CHECK_CODE(s, TF_OK);
  cpu_grads(ctx, xv, wv, cv, gx, gw, s);
  hx = f64(xv, kXDims, 2, s);
  hw = f64(wv, kWDims, 2, s);
  x = TFE_TensorHandleCopyToDevice(hx, ctx, WDEV, s);
  w = TFE_TensorHandleCopyToDevice(hw, ctx, WDEV, s);
  CHECK_CODE(s, TF_OK);
  c = vec(cv, 2, s); /* a host tensor, passed through by the device */
  tape = TFE_NewGradientTape(ctx, 0, s);
  TFE_GradientTapeWatch(tape, x, s);
  TFE_GradientTapeWatch(tape, w, s);
  d->executes = 0;
  loss = model(ctx, x, w, c, s);
  CHECK_CODE(s, TF_OK);
  forward_ops = d->executes;
  CHECK_EQ_INT(forward_ops, 7);
  CHECK_EQ_INT(TFE_GradientTapeNumRecordedOps(tape), 7);
  srcs[0] = x;
  srcs[1] = w;
  TFE_GradientTapeGradient(tape, 1, &loss, NULL, 2, srcs, TFE_UNCONNECTED_NONE, grads, s);
  CHECK_CODE(s, TF_OK);
  CHECK(d->executes > forward_ops); /* the gradient ops ran on the device */
  for (k = 0; k < 2; k++) {
    TFE_TensorHandle* host;
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(grads[k], s), WDEV);
    host = TFE_TensorHandleCopyToDevice(grads[k], ctx, FULL_CPU(0), s);
    CHECK_CODE(s, TF_OK);
    read_f64(host, v, 6, s);
    check_close(v, k == 0 ? gx : gw, 6);
    TFE_DeleteTensorHandle(host);
    TFE_DeleteTensorHandle(grads[k]);
  }
  TFE_DeleteTensorHandle(loss);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(w);
  TFE_DeleteTensorHandle(hx);
  TFE_DeleteTensorHandle(hw);
  TFE_DeleteTensorHandle(c);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

/* An op on a physical device with an input on the custom device: the input
 * is copied off, and the gradient still reaches it through the copy. */
TEST(gradient_through_a_copy_off_a_custom_device) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  const double xv[3] = {0.5, -1.0, 2.0};
  const double want[3] = {1.0, -2.0, 4.0};
  double got[3];
  wrapdev* d = (wrapdev*)calloc(1, sizeof *d);
  TFE_CustomDevice dev;
  TFE_TensorHandle* hx;
  TFE_TensorHandle* x;
  TFE_TensorHandle* y;
  TFE_TensorHandle* loss;
  TFE_TensorHandle* dx = NULL;
  TFE_GradientTape* tape;
  memset(&dev, 0, sizeof dev);
  dev.version = TFE_CUSTOM_DEVICE_VERSION;
  dev.copy_tensor_to_device = w_copy_to;
  dev.copy_tensor_from_device = w_copy_from;
  dev.execute = w_execute;
  dev.delete_device = w_delete;
  TFE_RegisterCustomDevice(ctx, dev, WDEV, d, s);
  CHECK_CODE(s, TF_OK);
  hx = vec(xv, 3, s);
  x = TFE_TensorHandleCopyToDevice(hx, ctx, WDEV, s);
  CHECK_CODE(s, TF_OK);
  tape = TFE_NewGradientTape(ctx, 0, s);
  TFE_GradientTapeWatch(tape, x, s);
  g_dev = FULL_CPU(0); /* the op runs on the CPU: x is copied off first */
  y = run1(ctx, "Mul", x, x, NULL, s);
  g_dev = NULL;
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(y, s), FULL_CPU(0));
  CHECK_EQ_INT(d->executes, 0);
  CHECK_EQ_INT(TFE_GradientTapeNumRecordedOps(tape), 3); /* a copy per input, the Mul */
  loss = sum_all(ctx, y, 1, s);
  TFE_GradientTapeGradient(tape, 1, &loss, NULL, 1, &x, TFE_UNCONNECTED_NONE, &dx, s);
  CHECK_CODE(s, TF_OK);
  CHECK(dx != NULL);
  read_f64(dx, got, 3, s); /* a host tensor: the upstream gradient was one */
  check_close(got, want, 3);
  TFE_DeleteTensorHandle(dx);
  TFE_DeleteTensorHandle(loss);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(hx);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

/* A custom gradient recorded on a custom device's handles. */
TEST(custom_gradient_on_parallel_handles) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_with_cpus(2, s);
  const char* comps[2] = {FULL_CPU(0), FULL_CPU(1)};
  const double xv[2][3] = {{0.5, 2.0, -3.0}, {-0.25, 0.5, 1.0}};
  const double want[2][3] = {{1.0, 1.5, -1.5}, {-0.5, 1.0, 1.5}};
  int deleted = 0, ntapes, i;
  TFE_TensorHandle* parts[2];
  TFE_TensorHandle* x;
  TFE_TensorHandle* y;
  TFE_TensorHandle* loss;
  TFE_TensorHandle* dx = NULL;
  TFE_TensorHandle* got[2];
  TFE_GradientTape* tape;
  closure* c;
  TFE_RegisterParallelDevice(ctx, PDEV, comps, 2, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 2; i++) parts[i] = vec(xv[i], 3, s);
  x = TFE_ParallelDevicePack(ctx, PDEV, parts, 2, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(parts[0]);
  TFE_DeleteTensorHandle(parts[1]);
  tape = TFE_NewGradientTape(ctx, 0, s);
  TFE_GradientTapeWatch(tape, x, s);
  c = new_closure(x, &deleted, s);
  c->lo = -1.5;
  c->hi = 1.5;
  g_dev = PDEV; /* the forward ops and the gradient function's */
  y = clipped_square(ctx, x, c, &ntapes, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(ntapes, 1);
  loss = sum_all(ctx, y, 1, s);
  TFE_GradientTapeGradient(tape, 1, &loss, NULL, 1, &x, TFE_UNCONNECTED_NONE, &dx, s);
  g_dev = NULL;
  CHECK_CODE(s, TF_OK);
  TFE_ParallelDeviceUnpack(ctx, PDEV, dx, got, 2, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 2; i++) {
    double v[3];
    read_f64(got[i], v, 3, s);
    check_close(v, want[i], 3);
    TFE_DeleteTensorHandle(got[i]);
  }
  CHECK_EQ_INT(deleted, 1);
  TFE_DeleteTensorHandle(dx);
  TFE_DeleteTensorHandle(loss);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteGradientTape(tape);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
