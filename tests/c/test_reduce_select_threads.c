/* Reductions (Sum, Mean, Prod, Max, Min, All, Any), Select, SelectV2 and
 * ClipByValue on inputs large enough to be split over the intra-op pool:
 * the same bits with 1, 2 and 3 threads (contexts with
 * intra_op_parallelism_threads set), float sums within a tight bound of a
 * double reference, and every exact result (integers, max/min, bools,
 * selects, clips, NaN propagation) equal to a plain loop. Shapes cover
 * the three ways a reduction is split: by output rows, by column blocks
 * and by chunks of one long row. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"

static TFE_Context* ctx_threads(int n, TF_Status* s) {
  unsigned char cfg[2] = {0x10, (unsigned char)n}; /* intra_op = n */
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  TFE_ContextOptionsSetConfig(o, cfg, sizeof cfg, s);
  CHECK_CODE(s, TF_OK);
  ctx = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  return ctx;
}

/* Runs op on nin handles; returns the output resolved (caller deletes). */
static TF_Tensor* run(TFE_Context* ctx, const char* name,
                      TFE_TensorHandle** in, int nin, TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1, i;
  TF_Tensor* t;
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < nin; i++) {
    TFE_OpAddInput(op, in[i], s);
    CHECK_CODE(s, TF_OK);
  }
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(out[0], s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(out[0]);
  return t;
}

static uint32_t rng_state = 99;
static double urand(void) {
  rng_state = rng_state * 1664525u + 1013904223u;
  return (double)(rng_state >> 8) / 16777216.0 * 2.0 - 1.0;
}

typedef struct rcase {
  int64_t dims[3];
  int nd;
  int axis;
} rcase;

/* The shapes: chunks of one row, few long rows, many rows, columns, and
 * a middle axis with few outer rows (column blocks). */
static const rcase kCases[] = {
    {{600001, 0, 0}, 1, 0},  {{3, 200003, 0}, 2, 1}, {{1000, 701, 0}, 2, 1},
    {{700, 1001, 0}, 2, 0},  {{3, 500, 301}, 3, 1},
};
#define NCASES ((int)(sizeof kCases / sizeof kCases[0]))

/* out[o][j] of the reduction of case c (O, R, I view) in double. */
static void view(const rcase* c, int64_t* O, int64_t* R, int64_t* I) {
  int d;
  *O = *R = *I = 1;
  for (d = 0; d < c->nd; d++) {
    if (d < c->axis) *O *= c->dims[d];
    if (d == c->axis) *R = c->dims[d];
    if (d > c->axis) *I *= c->dims[d];
  }
}

static const char* const kFloatOps[] = {"Sum", "Mean", "Prod", "Max", "Min"};

TEST(float_reductions_same_bits_on_any_pool_and_accurate) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx[3];
  int c, k, t;
  for (t = 0; t < 3; t++) ctx[t] = ctx_threads(t + 1, s);
  for (c = 0; c < NCASES; c++) {
    int64_t O, R, I, n, i, o, r, j;
    float* v;
    TFE_TensorHandle *x, *ax;
    view(&kCases[c], &O, &R, &I);
    n = O * R * I;
    v = (float*)malloc(sizeof(float) * (size_t)n);
    for (i = 0; i < n; i++) v[i] = (float)urand();
    x = make_handle(TF_FLOAT, kCases[c].dims, kCases[c].nd, v,
                    sizeof(float) * (size_t)n, s);
    ax = scalar_i32(kCases[c].axis, s);
    for (k = 0; k < 5; k++) {
      TF_Tensor* res[3];
      TFE_TensorHandle* in[2];
      const float* got;
      in[0] = x;
      in[1] = ax;
      if (k == 2) {
        /* +-1 with rare 2 and 0.5: every product is exact (and finite) */
        for (i = 0; i < n; i++) {
          double u = urand();
          v[i] = u > 0.9999 ? 2.0f : u < -0.9999 ? 0.5f : u > 0 ? 1.0f : -1.0f;
        }
        TFE_DeleteTensorHandle(x);
        x = make_handle(TF_FLOAT, kCases[c].dims, kCases[c].nd, v,
                        sizeof(float) * (size_t)n, s);
        in[0] = x;
      }
      for (t = 0; t < 3; t++) res[t] = run(ctx[t], kFloatOps[k], in, 2, s);
      CHECK_EQ_INT(TF_TensorElementCount(res[0]), O * I);
      for (t = 1; t < 3; t++) {
        if (memcmp(TF_TensorData(res[0]), TF_TensorData(res[t]),
                   sizeof(float) * (size_t)(O * I)) != 0) {
          TFE_FAIL("%s case %d: %d threads differ from 1", kFloatOps[k], c,
                   t + 1);
        }
      }
      got = (const float*)TF_TensorData(res[0]);
      for (o = 0; o < O; o++) {
        for (j = 0; j < I; j++) {
          double acc = k == 2 ? 1.0 : k == 3 ? -INFINITY : k == 4 ? INFINITY : 0;
          double mag = 0, want, tol;
          for (r = 0; r < R; r++) {
            double e = v[(o * R + r) * I + j];
            if (k <= 1) acc += e;
            if (k == 2) acc *= e;
            if (k == 3 && e > acc) acc = e;
            if (k == 4 && e < acc) acc = e;
            mag += fabs(e);
          }
          want = k == 1 ? acc / (double)R : acc;
          /* sums: a few float roundings of partial sums; max/min exact */
          tol = k <= 1 ? 1e-6 * mag / (k == 1 ? (double)R : 1.0) + 1e-6
                                 : 0;
          if (!(fabs(got[o * I + j] - want) <= tol)) {
            TFE_FAIL("%s case %d [%lld,%lld]: %.9g vs %.9g", kFloatOps[k], c,
                     (long long)o, (long long)j, got[o * I + j], want);
            o = O;
            break;
          }
        }
      }
      for (t = 0; t < 3; t++) TF_DeleteTensor(res[t]);
      if (k == 2) {
        /* back to [-1, 1) values for Max/Min */
        for (i = 0; i < n; i++) v[i] = (float)urand();
        TFE_DeleteTensorHandle(x);
        x = make_handle(TF_FLOAT, kCases[c].dims, kCases[c].nd, v,
                        sizeof(float) * (size_t)n, s);
      }
    }
    TFE_DeleteTensorHandle(x);
    TFE_DeleteTensorHandle(ax);
    free(v);
  }
  for (t = 0; t < 3; t++) TFE_DeleteContext(ctx[t]);
  TF_DeleteStatus(s);
}

TEST(large_max_min_propagate_nan_and_inf) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_threads(2, s);
  const int64_t n = 1 << 20;
  float* v = (float*)malloc(sizeof(float) * (size_t)n);
  TFE_TensorHandle *x, *ax = scalar_i32(0, s), *in[2];
  TF_Tensor* r;
  int64_t i;
  for (i = 0; i < n; i++) v[i] = (float)urand();
  v[777777] = INFINITY;
  v[3] = -INFINITY;
  x = make_handle(TF_FLOAT, &n, 1, v, sizeof(float) * (size_t)n, s);
  in[0] = x;
  in[1] = ax;
  r = run(ctx, "Max", in, 2, s);
  CHECK(isinf(*(float*)TF_TensorData(r)) && *(float*)TF_TensorData(r) > 0);
  TF_DeleteTensor(r);
  r = run(ctx, "Min", in, 2, s);
  CHECK(isinf(*(float*)TF_TensorData(r)) && *(float*)TF_TensorData(r) < 0);
  TF_DeleteTensor(r);
  TFE_DeleteTensorHandle(x);
  v[654321] = NAN; /* in a chunk run by a worker */
  x = make_handle(TF_FLOAT, &n, 1, v, sizeof(float) * (size_t)n, s);
  in[0] = x;
  r = run(ctx, "Max", in, 2, s);
  CHECK(isnan(*(float*)TF_TensorData(r)));
  TF_DeleteTensor(r);
  r = run(ctx, "Min", in, 2, s);
  CHECK(isnan(*(float*)TF_TensorData(r)));
  TF_DeleteTensor(r);
  TFE_DeleteTensorHandle(x);
  /* NaN in one column of a column reduction */
  {
    const int64_t d2[2] = {1024, 1024};
    v[5 * 1024 + 7] = NAN;
    x = make_handle(TF_FLOAT, d2, 2, v, sizeof(float) * (size_t)n, s);
    in[0] = x;
    r = run(ctx, "Max", in, 2, s);
    for (i = 0; i < 1024; i++) {
      CHECK(isnan(((float*)TF_TensorData(r))[i]) == (i == 7 || i == 654321 % 1024));
    }
    TF_DeleteTensor(r);
    TFE_DeleteTensorHandle(x);
  }
  TFE_DeleteTensorHandle(ax);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  free(v);
}

TEST(integer_and_small_bool_reductions_exact_on_any_pool) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx[3];
  static const char* const ops[] = {"Sum", "Mean", "Max", "Min", "Prod"};
  int c, k, t;
  for (t = 0; t < 3; t++) ctx[t] = ctx_threads(t + 1, s);
  for (c = 0; c < NCASES; c++) {
    int64_t O, R, I, n, i, o, r, j;
    int32_t* v;
    unsigned char* b;
    TFE_TensorHandle *x, *xb, *ax, *in[2];
    view(&kCases[c], &O, &R, &I);
    n = O * R * I;
    v = (int32_t*)malloc(sizeof(int32_t) * (size_t)n);
    b = (unsigned char*)malloc((size_t)n);
    for (i = 0; i < n; i++) {
      v[i] = (int32_t)(urand() * 1e6);
      b[i] = urand() > -0.9999;
    }
    x = make_handle(TF_INT32, kCases[c].dims, kCases[c].nd, v,
                    sizeof(int32_t) * (size_t)n, s);
    /* bools: whole columns all true for Any/All variety */
    xb = make_handle(TF_BOOL, kCases[c].dims, kCases[c].nd, b, (size_t)n, s);
    ax = scalar_i32(kCases[c].axis, s);
    in[1] = ax;
    for (k = 0; k < 7; k++) {
      const char* name = k < 5 ? ops[k] : k == 5 ? "All" : "Any";
      TF_Tensor* res[3];
      in[0] = k < 5 ? x : xb;
      for (t = 0; t < 3; t++) res[t] = run(ctx[t], name, in, 2, s);
      for (o = 0; o < O; o++) {
        for (j = 0; j < I; j++) {
          int64_t acc = k == 4 ? 1 : k == 2 ? INT32_MIN : k == 3 ? INT32_MAX : 0;
          uint32_t prod = 1;
          int all = 1, any = 0;
          int64_t want, got;
          for (r = 0; r < R; r++) {
            int64_t idx = (o * R + r) * I + j;
            if (k <= 1) acc += v[idx];
            if (k == 2 && v[idx] > acc) acc = v[idx];
            if (k == 3 && v[idx] < acc) acc = v[idx];
            prod *= (uint32_t)v[idx];
            all = all && b[idx];
            any = any || b[idx];
          }
          want = k == 0 ? (int32_t)(uint32_t)(uint64_t)acc
                 : k == 1 ? (int32_t)(acc / R)
                 : k == 4 ? (int32_t)prod
                 : k == 5 ? all
                 : k == 6 ? any
                          : acc;
          for (t = 0; t < 3; t++) {
            got = k < 5 ? ((int32_t*)TF_TensorData(res[t]))[o * I + j]
                        : ((unsigned char*)TF_TensorData(res[t]))[o * I + j];
            if (got != want) {
              TFE_FAIL("%s case %d [%lld,%lld] %d threads: %lld vs %lld", name,
                       c, (long long)o, (long long)j, t + 1, (long long)got,
                       (long long)want);
              o = O;
              j = I;
              break;
            }
          }
        }
      }
      for (t = 0; t < 3; t++) TF_DeleteTensor(res[t]);
    }
    TFE_DeleteTensorHandle(x);
    TFE_DeleteTensorHandle(xb);
    TFE_DeleteTensorHandle(ax);
    free(v);
    free(b);
  }
  for (t = 0; t < 3; t++) TFE_DeleteContext(ctx[t]);
  TF_DeleteStatus(s);
}

/* Bool inputs of >= 1 MiB (the split threshold is in bytes). */
static const rcase kBoolCases[] = {
    {{2400001, 0, 0}, 1, 0}, {{3, 800003, 0}, 2, 1}, {{4000, 701, 0}, 2, 1},
    {{1400, 1001, 0}, 2, 0}, {{3, 1000, 401}, 3, 1},
};

TEST(bool_reductions_exact_on_any_pool) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx[3];
  int c, k, t;
  for (t = 0; t < 3; t++) ctx[t] = ctx_threads(t + 1, s);
  for (c = 0; c < 5; c++) {
    int64_t O, R, I, n, i, o, r, j;
    unsigned char* b;
    TFE_TensorHandle *xb, *ax, *in[2];
    view(&kBoolCases[c], &O, &R, &I);
    n = O * R * I;
    b = (unsigned char*)malloc((size_t)n);
    for (k = 0; k < 4; k++) {
      /* mostly true (All decides late), mostly false (Any decides late) */
      const int mostly = k < 2;
      const char* name = k % 2 == 0 ? "All" : "Any";
      TF_Tensor* res[3];
      for (i = 0; i < n; i++) {
        b[i] = (unsigned char)(mostly ? urand() > -0.99999 : urand() > 0.99999);
      }
      xb = make_handle(TF_BOOL, kBoolCases[c].dims, kBoolCases[c].nd, b,
                       (size_t)n, s);
      ax = scalar_i32(kBoolCases[c].axis, s);
      in[0] = xb;
      in[1] = ax;
      for (t = 0; t < 3; t++) res[t] = run(ctx[t], name, in, 2, s);
      for (o = 0; o < O; o++) {
        for (j = 0; j < I; j++) {
          int all = 1, any = 0, want;
          for (r = 0; r < R; r++) {
            all = all && b[(o * R + r) * I + j];
            any = any || b[(o * R + r) * I + j];
          }
          want = k % 2 == 0 ? all : any;
          for (t = 0; t < 3; t++) {
            int got = ((unsigned char*)TF_TensorData(res[t]))[o * I + j];
            if (got != want) {
              TFE_FAIL("%s case %d [%lld,%lld] %d threads: %d vs %d", name, c,
                       (long long)o, (long long)j, t + 1, got, want);
              o = O;
              j = I;
              break;
            }
          }
        }
      }
      for (t = 0; t < 3; t++) TF_DeleteTensor(res[t]);
      TFE_DeleteTensorHandle(xb);
      TFE_DeleteTensorHandle(ax);
    }
    free(b);
  }
  for (t = 0; t < 3; t++) TFE_DeleteContext(ctx[t]);
  TF_DeleteStatus(s);
}

TEST(large_select_selectv2_clip_match_a_loop_on_any_pool) {
  TF_Status* s = TF_NewStatus();
  const int64_t n = 300006, d2[2] = {300006 / 7, 7}, dcol[2] = {300006 / 7, 1};
  float *a = (float*)malloc(sizeof(float) * (size_t)n),
        *e = (float*)malloc(sizeof(float) * (size_t)n);
  unsigned char* cnd = (unsigned char*)malloc((size_t)n);
  int64_t i;
  int t;
  for (i = 0; i < n; i++) {
    a[i] = (float)urand();
    e[i] = (float)urand();
    cnd[i] = urand() > 0;
  }
  for (t = 1; t <= 3; t++) {
    TFE_Context* ctx = ctx_threads(t, s);
    TFE_TensorHandle* hc = make_handle(TF_BOOL, &n, 1, cnd, (size_t)n, s);
    TFE_TensorHandle* ha = make_handle(TF_FLOAT, &n, 1, a, 4 * (size_t)n, s);
    TFE_TensorHandle* he = make_handle(TF_FLOAT, &n, 1, e, 4 * (size_t)n, s);
    TFE_TensorHandle* h0 = scalar_f32(0.25f, s);
    TFE_TensorHandle* lo = scalar_f32(-0.5f, s);
    TFE_TensorHandle* hc2 = make_handle(TF_BOOL, dcol, 2, cnd, (size_t)d2[0], s);
    TFE_TensorHandle* ha2 = make_handle(TF_FLOAT, d2, 2, a, 4 * (size_t)n, s);
    TFE_TensorHandle* he2 = make_handle(TF_FLOAT, d2, 2, e, 4 * (size_t)n, s);
    TFE_TensorHandle* in[3];
    TF_Tensor* r;
    const float* z;
    in[0] = hc;
    in[1] = ha;
    in[2] = he;
    r = run(ctx, "Select", in, 3, s);
    z = (const float*)TF_TensorData(r);
    for (i = 0; i < n; i++) {
      if (z[i] != (cnd[i] ? a[i] : e[i])) {
        TFE_FAIL("Select %d threads element %lld", t, (long long)i);
        break;
      }
    }
    TF_DeleteTensor(r);
    r = run(ctx, "SelectV2", in, 3, s);
    for (i = 0; i < n; i++) {
      if (((const float*)TF_TensorData(r))[i] != (cnd[i] ? a[i] : e[i])) {
        TFE_FAIL("SelectV2 %d threads element %lld", t, (long long)i);
        break;
      }
    }
    TF_DeleteTensor(r);
    in[2] = h0; /* scalar else */
    r = run(ctx, "SelectV2", in, 3, s);
    for (i = 0; i < n; i++) {
      if (((const float*)TF_TensorData(r))[i] != (cnd[i] ? a[i] : 0.25f)) {
        TFE_FAIL("SelectV2 scalar-else %d threads element %lld", t,
                 (long long)i);
        break;
      }
    }
    TF_DeleteTensor(r);
    in[0] = hc; /* scalar then */
    in[1] = h0;
    in[2] = he;
    r = run(ctx, "SelectV2", in, 3, s);
    for (i = 0; i < n; i++) {
      if (((const float*)TF_TensorData(r))[i] != (cnd[i] ? 0.25f : e[i])) {
        TFE_FAIL("SelectV2 scalar-then %d threads element %lld", t,
                 (long long)i);
        break;
      }
    }
    TF_DeleteTensor(r);
    /* a [rows, 1] condition broadcast over 7 columns (general path) */
    in[0] = hc2;
    in[1] = ha2;
    in[2] = he2;
    r = run(ctx, "SelectV2", in, 3, s);
    for (i = 0; i < n; i++) {
      if (((const float*)TF_TensorData(r))[i] != (cnd[i / 7] ? a[i] : e[i])) {
        TFE_FAIL("SelectV2 broadcast %d threads element %lld", t,
                 (long long)i);
        break;
      }
    }
    TF_DeleteTensor(r);
    in[0] = ha;
    in[1] = lo;
    in[2] = h0;
    r = run(ctx, "ClipByValue", in, 3, s);
    for (i = 0; i < n; i++) {
      float w = a[i] < -0.5f ? -0.5f : a[i] > 0.25f ? 0.25f : a[i];
      if (((const float*)TF_TensorData(r))[i] != w) {
        TFE_FAIL("ClipByValue %d threads element %lld", t, (long long)i);
        break;
      }
    }
    TF_DeleteTensor(r);
    /* tensor bounds */
    in[0] = ha;
    in[1] = he;
    in[2] = he;
    r = run(ctx, "ClipByValue", in, 3, s);
    CHECK(memcmp(TF_TensorData(r), e, 4 * (size_t)n) == 0);
    TF_DeleteTensor(r);
    TFE_DeleteTensorHandle(hc);
    TFE_DeleteTensorHandle(ha);
    TFE_DeleteTensorHandle(he);
    TFE_DeleteTensorHandle(h0);
    TFE_DeleteTensorHandle(lo);
    TFE_DeleteTensorHandle(hc2);
    TFE_DeleteTensorHandle(ha2);
    TFE_DeleteTensorHandle(he2);
    TFE_DeleteContext(ctx);
  }
  free(a);
  free(e);
  free(cnd);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
