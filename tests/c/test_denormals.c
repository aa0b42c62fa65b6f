/* Kernels run with denormals flushed to zero and round-to-nearest, as in
 * TensorFlow 2.21 (checked against TF: tf.math.sigmoid(-88.) == 0,
 * tf.constant(1e-39) * 1.0 == 0, a sum of denormals == 0, while Neg and
 * Identity move a denormal through untouched), on the calling thread, on
 * the intra-op pool's workers and on an asynchronous executor's worker; and
 * the caller's floating-point control register is the same after
 * TFE_Execute as before. Only on the platforms where tfe controls denormals
 * (x86 with SSE2, AArch64); elsewhere every test passes vacuously. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "eager_test_util.h"

#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2__))
#include <xmmintrin.h>
#define FLUSHES 1
static uint32_t ctl_get(void) { return _mm_getcsr(); }
static void ctl_put(uint32_t v) { _mm_setcsr(v); }
#define CTL_FLUSH 0x8040u     /* FTZ | DAZ */
#define CTL_ROUND_DOWN 0x2000u /* RC = toward -inf */
#define CTL_ROUND_MASK 0x6000u
#define CTL_SOME_FLAG 0x0020u /* precision (inexact) flag */
#elif defined(__aarch64__)
#define FLUSHES 1
static uint32_t ctl_get(void) {
  uint64_t v;
  __asm__ __volatile__("mrs %0, fpcr" : "=r"(v));
  return (uint32_t)v;
}
static void ctl_put(uint32_t v) {
  __asm__ __volatile__("msr fpcr, %0" : : "r"((uint64_t)v));
}
#define CTL_FLUSH (1u << 24)       /* FZ */
#define CTL_ROUND_DOWN (2u << 22)  /* RMode = toward -inf */
#define CTL_ROUND_MASK (3u << 22)
#define CTL_SOME_FLAG 0u           /* flags live in FPSR, not FPCR */
#else
#define FLUSHES 0
#endif

#if FLUSHES

/* 1e-39f: a float denormal (the smallest normal float is ~1.18e-38). */
static float denormal_f32(void) {
  uint32_t bits = 0x000ae398u;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static uint32_t bits_f32(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

static TFE_TensorHandle* unary(TFE_Context* ctx, const char* name,
                               TFE_TensorHandle* a, TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, a, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);
  return out[0];
}

/* Reads h (a scalar float) and deletes it. */
static float take_f32(TFE_TensorHandle* h, TF_Status* s) {
  float v = read_f32(h, s);
  TFE_DeleteTensorHandle(h);
  return v;
}

static float binary_f32(TFE_Context* ctx, const char* name, float x, float y,
                        TF_Status* s) {
  TFE_TensorHandle* a = scalar_f32(x, s);
  TFE_TensorHandle* b = scalar_f32(y, s);
  TFE_TensorHandle* r = binary(ctx, name, a, b, NULL, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  return take_f32(r, s);
}

static float unary_f32(TFE_Context* ctx, const char* name, float x,
                       TF_Status* s) {
  TFE_TensorHandle* a = scalar_f32(x, s);
  float v = take_f32(unary(ctx, name, a, s), s);
  TFE_DeleteTensorHandle(a);
  return v;
}

/* The values TF 2.21 gives for the same ops. */
static void check_flushing_results(TFE_Context* ctx, TF_Status* s) {
  const float den = denormal_f32();
  /* exp(88) overflows the float range's normal part: the result would be a
   * denormal (~6e-39) and is flushed; one step up it is still normal. */
  CHECK(unary_f32(ctx, "Sigmoid", -88.0f, s) == 0.0f);
  CHECK(unary_f32(ctx, "Sigmoid", -87.0f, s) > 1e-38f);
  /* Denormal inputs read as zero (DAZ), denormal results become zero. */
  CHECK_EQ_INT(bits_f32(binary_f32(ctx, "Mul", den, 1.0f, s)), 0);
  CHECK_EQ_INT(bits_f32(binary_f32(ctx, "AddV2", den, 0.0f, s)), 0);
  CHECK_EQ_INT(bits_f32(binary_f32(ctx, "Mul", 1e-20f, 1e-20f, s)), 0);
  CHECK_EQ_INT(bits_f32(binary_f32(ctx, "Sub", 1.5e-38f, 1.4e-38f, s)), 0);
  CHECK(binary_f32(ctx, "RealDiv", 1.0f, den, s) > 3.0e38f); /* inf in TF */
  /* Ops that only move or flip bits keep the denormal, as in TF. */
  CHECK_EQ_INT(bits_f32(unary_f32(ctx, "Identity", den, s)), bits_f32(den));
  CHECK_EQ_INT(bits_f32(unary_f32(ctx, "Neg", den, s)),
               bits_f32(den) | 0x80000000u);
}

#endif /* FLUSHES */

TEST(scalar_kernels_flush_like_tf) {
#if FLUSHES
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  check_flushing_results(ctx, s);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
#endif
}

TEST(float64_kernels_flush) {
#if FLUSHES
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  double x = 1e-310, one = 1.0, r;
  TFE_TensorHandle* a = make_handle(TF_DOUBLE, NULL, 0, &x, sizeof x, s);
  TFE_TensorHandle* b = make_handle(TF_DOUBLE, NULL, 0, &one, sizeof one, s);
  TFE_TensorHandle* out = binary(ctx, "Mul", a, b, NULL, s);
  TF_Tensor* t;
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(out, s);
  CHECK_CODE(s, TF_OK);
  memcpy(&r, TF_TensorData(t), sizeof r);
  CHECK(r == 0.0);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
#endif
}

TEST(sum_of_denormals_is_zero) {
#if FLUSHES
  /* 1000 x 1e-39 would be ~1e-36 (normal) without DAZ; TF gives 0. */
  enum { N = 1000 };
  static float v[N];
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const int64_t dims[1] = {N};
  int32_t axis = 0;
  TFE_TensorHandle *x, *ax, *r;
  int i;
  for (i = 0; i < N; i++) v[i] = denormal_f32();
  x = make_handle(TF_FLOAT, dims, 1, v, sizeof v, s);
  ax = scalar_i32(axis, s);
  r = binary(ctx, "Sum", x, ax, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(bits_f32(take_f32(r, s)), 0);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(ax);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
#endif
}

TEST(callers_control_register_is_unchanged) {
#if FLUSHES
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const uint32_t orig = ctl_get();
  /* Plain state, a state with a raised flag and rounding toward -inf, and
   * one already flushing: each is exactly what the caller finds after. */
  const uint32_t states[3] = {
      orig & ~(CTL_FLUSH | CTL_ROUND_MASK),
      (orig & ~(CTL_FLUSH | CTL_ROUND_MASK)) | CTL_ROUND_DOWN | CTL_SOME_FLAG,
      (orig & ~CTL_ROUND_MASK) | CTL_FLUSH};
  int i;
  for (i = 0; i < 3; i++) {
    float r;
    uint32_t after;
    ctl_put(states[i]);
    r = binary_f32(ctx, "Mul", denormal_f32(), 1.0f, s);
    after = ctl_get();
    ctl_put(orig);
    CHECK_EQ_INT(bits_f32(r), 0);
    CHECK_EQ_INT(after, states[i]);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
#endif
}

TEST(kernels_round_to_nearest_whatever_the_caller_uses) {
#if FLUSHES
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const uint32_t orig = ctl_get();
  float third;
  ctl_put((orig & ~CTL_ROUND_MASK) | CTL_ROUND_DOWN);
  third = binary_f32(ctx, "RealDiv", 1.0f, 3.0f, s);
  ctl_put(orig);
  /* Nearest rounds 1/3 up to 0x3eaaaaab; toward -inf would give ...aa. */
  CHECK_EQ_INT(bits_f32(third), 0x3eaaaaabu);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
#endif
}

TEST(pool_workers_flush) {
#if FLUSHES
  /* A large elementwise Mul is split over the intra-op pool (4 threads
   * asked for in the ConfigProto); every chunk, whichever thread ran it,
   * must flush. (Workers set the modes when they start; they would also
   * inherit them, as the pool is made inside the first kernel using it.) */
  enum { N = 1 << 20 };
  static const unsigned char cfg[] = {0x10, 0x04}; /* intra_op = 4 */
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  float* v = (float*)malloc(sizeof(float) * N);
  const int64_t dims[1] = {N};
  TFE_TensorHandle *x, *one, *r;
  TF_Tensor* t;
  const float* out;
  int64_t i, nonzero = 0;
  CHECK(v != NULL);
  TFE_ContextOptionsSetConfig(o, cfg, sizeof cfg, s);
  CHECK_CODE(s, TF_OK);
  ctx = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  for (i = 0; i < N; i++) v[i] = denormal_f32();
  x = make_handle(TF_FLOAT, dims, 1, v, sizeof(float) * N, s);
  one = scalar_f32(1.0f, s);
  r = binary(ctx, "Mul", x, one, NULL, s);
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(r, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorElementCount(t), N);
  out = (const float*)TF_TensorData(t);
  for (i = 0; i < N; i++) nonzero += bits_f32(out[i]) != 0;
  CHECK_EQ_INT(nonzero, 0);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(one);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  free(v);
#endif
}

TEST(async_executor_worker_flushes) {
#if FLUSHES
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  const uint32_t orig = ctl_get();
  TFE_ContextOptionsSetAsync(o, 1);
  ctx = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  check_flushing_results(ctx, s);
  /* The modes are the caller's; sticky flags may have been raised by tfe's
   * own code outside kernels, so only the mode bits are compared here
   * (callers_control_register_is_unchanged checks the whole register
   * around TFE_Execute). */
  CHECK_EQ_INT(ctl_get() & (CTL_FLUSH | CTL_ROUND_MASK),
               orig & (CTL_FLUSH | CTL_ROUND_MASK));
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
#endif
}

TFE_TEST_MAIN
