/* Random number CPU kernels: RandomUniform, RandomStandardNormal,
 * TruncatedNormal (stateful, seed/seed2 attrs), StatelessRandomUniformV2,
 * StatelessRandomNormalV2 (key/counter/alg inputs) and the key/counter
 * helpers StatelessRandomGetKeyCounter, StatelessRandomGetAlg and
 * StatelessRandomGetKeyCounterAlg.
 *
 * The generator is Philox-4x32-10 and the conversion of its 32-bit words
 * to floats and normals follows TensorFlow's CPU kernels step by step, so
 * the same key/counter (or seed/seed2 on the first call of a kernel) gives
 * the same numbers as TensorFlow:
 *  - uniform floats put 23 (float), 52 (double), 10 (half) or 7 (bfloat16)
 *    random mantissa bits into a number in [1, 2) and subtract 1;
 *  - normals use Box-Muller on pairs of uniforms (float math for float,
 *    half and bfloat16; double math from 4 words per pair for double);
 *  - outputs are produced in groups (4 values per 128-bit block for
 *    float/half/bfloat16, 2 for double); group g of a fixed-cost
 *    distribution uses block g, and group g of the truncated normal (which
 *    rejects samples) starts 256 words * group-size / 4 blocks in;
 *  - a stateful kernel keeps one generator per kernel instance and moves
 *    it forward by 256 blocks per output element after each call.
 * Large outputs are filled in parallel on the intra-op pool; every group
 * derives its own generator position, so results do not depend on the
 * number of threads. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/threadpool.h"
#include "kernels/cpu/kutil.h"

void tfe_register_random_kernels(void);

/* ---- Philox-4x32-10 ---- */

typedef struct philox {
  uint32_t ctr[4];
  uint32_t key[2];
} philox;

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

static void philox_block(const uint32_t in[4], const uint32_t key_in[2],
                         uint32_t out[4]) {
  uint32_t c0 = in[0], c1 = in[1], c2 = in[2], c3 = in[3];
  uint32_t k0 = key_in[0], k1 = key_in[1];
  int r;
  for (r = 0; r < 10; r++) {
    uint64_t p0 = (uint64_t)PHILOX_M0 * c0;
    uint64_t p1 = (uint64_t)PHILOX_M1 * c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    uint32_t n1 = (uint32_t)p1;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    uint32_t n3 = (uint32_t)p0;
    c0 = n0;
    c1 = n1;
    c2 = n2;
    c3 = n3;
    k0 += PHILOX_W0;
    k1 += PHILOX_W1;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/* Advances the 128-bit counter by n blocks. */
static void philox_skip(philox* g, uint64_t n) {
  uint32_t lo = (uint32_t)n, hi = (uint32_t)(n >> 32);
  g->ctr[0] += lo;
  if (g->ctr[0] < lo) hi++;
  g->ctr[1] += hi;
  if (g->ctr[1] < hi) {
    if (++g->ctr[2] == 0) ++g->ctr[3];
  }
}

/* Next block of 4 words; moves the counter on by one. */
static void philox_next(philox* g, uint32_t out[4]) {
  philox_block(g->ctr, g->key, out);
  philox_skip(g, 1);
}

/* Generator from two 64-bit seeds, as TF's PhiloxRandom(seed_lo, seed_hi). */
static void philox_from_seeds(philox* g, uint64_t lo, uint64_t hi) {
  g->key[0] = (uint32_t)lo;
  g->key[1] = (uint32_t)(lo >> 32);
  g->ctr[0] = 0;
  g->ctr[1] = 0;
  g->ctr[2] = (uint32_t)hi;
  g->ctr[3] = (uint32_t)(hi >> 32);
}

/* One word at a time over a generator (for the rejection sampler). */
typedef struct single_sampler {
  philox* g;
  uint32_t buf[4];
  int used;
} single_sampler;

static uint32_t single_next(single_sampler* s) {
  if (s->used == 4) {
    philox_next(s->g, s->buf);
    s->used = 0;
  }
  return s->buf[s->used++];
}

/* ---- word to float conversions ---- */

static float u32_to_float(uint32_t x) {
  uint32_t v = (127u << 23) | (x & 0x7fffffu);
  float f;
  memcpy(&f, &v, 4);
  return f - 1.0f;
}

static double u64_to_double(uint32_t x0, uint32_t x1) {
  uint64_t man = ((uint64_t)(x0 & 0xfffffu) << 32) | x1;
  uint64_t v = (1023ull << 52) | man;
  double d;
  memcpy(&d, &v, 8);
  return d - 1.0;
}

/* Half in [0, 1) from 10 random mantissa bits (exact in half). */
static uint16_t u16_to_half(uint32_t x) {
  float f = kutil_f16_to_f32((uint16_t)((15u << 10) | (x & 0x3ffu))) - 1.0f;
  return kutil_f32_to_f16(f);
}

static uint16_t u16_to_bf16(uint32_t x) {
  float f = kutil_bf16_to_f32((uint16_t)((127u << 7) | (x & 0x7fu))) - 1.0f;
  return kutil_f32_to_bf16(f);
}

static void box_muller_f(uint32_t x0, uint32_t x1, float* f0, float* f1) {
  const float eps = 1.0e-7f;
  float u1 = u32_to_float(x0);
  float v1, u2;
  if (u1 < eps) u1 = eps;
  /* the product is formed in double and rounded once, as in TF */
  v1 = (float)(2.0f * M_PI * u32_to_float(x1));
  u2 = sqrtf(-2.0f * logf(u1));
  *f0 = sinf(v1) * u2;
  *f1 = cosf(v1) * u2;
}

static void box_muller_d(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3,
                         double* d0, double* d1) {
  const double eps = 1.0e-7;
  double u1 = u64_to_double(x0, x1);
  double v1, u2;
  if (u1 < eps) u1 = eps;
  v1 = 2.0 * M_PI * u64_to_double(x2, x3);
  u2 = sqrt(-2.0 * log(u1));
  *d0 = sin(v1) * u2;
  *d1 = cos(v1) * u2;
}

/* ---- distributions: one group of outputs per call ---- */

enum { DIST_UNIFORM = 0, DIST_NORMAL = 1, DIST_TRUNCATED = 2 };

static int group_size(TF_DataType dt) { return dt == TF_DOUBLE ? 2 : 4; }

static void store_f(TF_DataType dt, void* out, int64_t i, float v) {
  switch (dt) {
    case TF_FLOAT: ((float*)out)[i] = v; break;
    case TF_HALF: ((uint16_t*)out)[i] = kutil_f32_to_f16(v); break;
    case TF_BFLOAT16: ((uint16_t*)out)[i] = kutil_f32_to_bf16(v); break;
    default: break;
  }
}

/* Fills up to `count` (<= group size) outputs starting at index `at`. */
static void gen_group(int dist, TF_DataType dt, philox* g, void* out,
                      int64_t at, int count) {
  uint32_t w[4];
  int i;
  if (dist == DIST_TRUNCATED) {
    single_sampler s;
    int idx = 0;
    const int want = group_size(dt);
    s.g = g;
    s.used = 4;
    if (dt == TF_DOUBLE) {
      double r[2];
      while (idx < want) {
        uint32_t a = single_next(&s), b = single_next(&s);
        uint32_t c = single_next(&s), d = single_next(&s);
        double d0, d1;
        box_muller_d(a, b, c, d, &d0, &d1);
        if (fabs(d0) < 2.0) r[idx++] = d0;
        if (idx < want && fabs(d1) < 2.0) r[idx++] = d1;
      }
      for (i = 0; i < count; i++) ((double*)out)[at + i] = r[i];
    } else {
      float r[4];
      while (idx < want) {
        uint32_t a = single_next(&s), b = single_next(&s);
        float f0, f1;
        box_muller_f(a, b, &f0, &f1);
        if (fabsf(f0) < 2.0f) r[idx++] = f0;
        if (idx < want && fabsf(f1) < 2.0f) r[idx++] = f1;
      }
      for (i = 0; i < count; i++) store_f(dt, out, at + i, r[i]);
    }
    return;
  }
  philox_next(g, w);
  if (dist == DIST_UNIFORM) {
    switch (dt) {
      case TF_FLOAT:
        for (i = 0; i < count; i++) ((float*)out)[at + i] = u32_to_float(w[i]);
        break;
      case TF_DOUBLE:
        for (i = 0; i < count; i++) {
          ((double*)out)[at + i] = u64_to_double(w[2 * i], w[2 * i + 1]);
        }
        break;
      case TF_HALF:
        for (i = 0; i < count; i++) ((uint16_t*)out)[at + i] = u16_to_half(w[i]);
        break;
      case TF_BFLOAT16:
        for (i = 0; i < count; i++) ((uint16_t*)out)[at + i] = u16_to_bf16(w[i]);
        break;
      default: break;
    }
  } else {
    if (dt == TF_DOUBLE) {
      double d[2];
      box_muller_d(w[0], w[1], w[2], w[3], &d[0], &d[1]);
      for (i = 0; i < count; i++) ((double*)out)[at + i] = d[i];
    } else {
      float f[4];
      box_muller_f(w[0], w[1], &f[0], &f[1]);
      box_muller_f(w[2], w[3], &f[2], &f[3]);
      for (i = 0; i < count; i++) store_f(dt, out, at + i, f[i]);
    }
  }
}

typedef struct fill_job {
  int dist;
  TF_DataType dt;
  philox base;
  void* out;
  int64_t n;
} fill_job;

/* Fills groups [g0, g1). */
static void fill_groups(void* arg, int64_t g0, int64_t g1) {
  const fill_job* j = (const fill_job*)arg;
  const int gs = group_size(j->dt);
  philox g = j->base;
  int64_t grp;
  if (j->dist == DIST_TRUNCATED) {
    /* 256 words reserved per output: gs * 256 / 4 blocks per group. */
    const uint64_t per_group = (uint64_t)gs * 256u / 4u;
    for (grp = g0; grp < g1; grp++) {
      int64_t at = grp * gs;
      int cnt = (int)(j->n - at < gs ? j->n - at : gs);
      g = j->base;
      philox_skip(&g, per_group * (uint64_t)grp);
      gen_group(j->dist, j->dt, &g, j->out, at, cnt);
    }
    return;
  }
  philox_skip(&g, (uint64_t)g0);
  for (grp = g0; grp < g1; grp++) {
    int64_t at = grp * gs;
    int cnt = (int)(j->n - at < gs ? j->n - at : gs);
    gen_group(j->dist, j->dt, &g, j->out, at, cnt);
  }
}

static void fill(tfe_kernel_context* k, int dist, TF_DataType dt,
                 const philox* base, TF_Tensor* out) {
  fill_job j;
  int64_t groups;
  j.dist = dist;
  j.dt = dt;
  j.base = *base;
  j.out = kutil_data(out);
  j.n = kutil_num_elements(out);
  groups = (j.n + group_size(dt) - 1) / group_size(dt);
  tfe_parallel_for(groups > 4096 ? tfe_kernel_threadpool(k) : NULL, groups,
                   dist == DIST_TRUNCATED ? 256 : 2048, fill_groups, &j);
}

/* ---- shape input ---- */

/* Reads the shape vector input `in` into dims; fails as TF's MakeShape. */
static int read_shape(tfe_kernel_context* k, const TF_Tensor* in,
                      int64_t* dims, int* nd) {
  int64_t i, n;
  kutil_shape_buf b;
  if (in->num_dims != 1 || !kutil_is_int_index_type(in->dtype)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "shape must be a vector of {int32,int64}, got shape %s",
               kutil_tshape(in, &b));
    return 0;
  }
  n = in->dims[0];
  if (n > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many dimensions in tensor");
    return 0;
  }
  for (i = 0; i < n; i++) {
    dims[i] = kutil_get_int(in, i);
    if (dims[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %lld must be >= 0",
                 (long long)dims[i]);
      return 0;
    }
  }
  if (tfe_shape_num_elements(dims, (int)n) < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shape would have more than 2**63 - 1 elements");
    return 0;
  }
  *nd = (int)n;
  return 1;
}

static TF_DataType out_dtype(const tfe_kernel_context* k) {
  TF_DataType t = TF_FLOAT;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, "dtype", &t, NULL);
  return t;
}

/* ---- stateful ops ---- */

typedef struct stateful {
  pthread_mutex_t mu;
  philox gen;
} stateful;

/* 64 bits from the OS, for seed = seed2 = 0 ("non-deterministic"). */
static uint64_t os_random64(void) {
  uint64_t v = 0;
  FILE* f = fopen("/dev/urandom", "rb");
  if (f != NULL) {
    if (fread(&v, sizeof v, 1, f) != 1) v = 0;
    fclose(f);
  }
  if (v == 0) {
    struct timespec ts;
    static _Atomic uint64_t salt;
    /* The salt's new value is read back with an explicit atomic op: clang
     * (14) rejects a compound assignment on an _Atomic used as an operand. */
    const uint64_t step = 0x9E3779B97F4A7C15ull;
    uint64_t salted = atomic_fetch_add(&salt, step) + step;
    clock_gettime(CLOCK_REALTIME, &ts);
    v = ((uint64_t)ts.tv_sec * 1000000007ull) ^ (uint64_t)ts.tv_nsec ^
        ((uint64_t)getpid() << 32) ^ salted;
  }
  return v;
}

static void* stateful_create(const tfe_op_def* def, const tfe_attrs* attrs,
                             void* user_data, TF_Status* status) {
  stateful* st;
  int64_t seed = 0, seed2 = 0;
  (void)def;
  (void)user_data;
  st = (stateful*)tfe_calloc(1, sizeof *st);
  if (st == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory creating a random kernel");
    return NULL;
  }
  if (attrs != NULL) {
    tfe_attrs_get_int(attrs, "seed", &seed, NULL);
    tfe_attrs_get_int(attrs, "seed2", &seed2, NULL);
  }
  if (seed == 0 && seed2 == 0) {
    philox_from_seeds(&st->gen, os_random64(), os_random64());
  } else {
    philox_from_seeds(&st->gen, (uint64_t)seed, (uint64_t)seed2);
  }
  pthread_mutex_init(&st->mu, NULL);
  return st;
}

static void stateful_destroy(void* state, void* user_data) {
  stateful* st = (stateful*)state;
  (void)user_data;
  if (st == NULL) return;
  pthread_mutex_destroy(&st->mu);
  tfe_free(st);
}

static void stateful_compute(tfe_kernel_context* k, int dist) {
  stateful* st = (stateful*)k->state;
  stateful local;
  int64_t dims[TFE_MAX_DIMS];
  int nd = 0;
  TF_DataType dt = out_dtype(k);
  TF_Tensor* out;
  philox base;
  int64_t n;
  if (!read_shape(k, k->inputs[0], dims, &nd)) return;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, nd);
  if (out == NULL) return;
  n = kutil_num_elements(out);
  if (st == NULL) {
    /* Unit contexts without create(): a fresh generator per call. */
    st = (stateful*)stateful_create(k->op_def, k->attrs, NULL, k->status);
    if (st == NULL) return;
    local = *st;
    stateful_destroy(st, NULL);
    st = NULL;
    base = local.gen;
  } else {
    /* Reserve 256 blocks per output, as TF's guarded generator does. */
    pthread_mutex_lock(&st->mu);
    base = st->gen;
    philox_skip(&st->gen, (uint64_t)n * 256u);
    pthread_mutex_unlock(&st->mu);
  }
  if (n > 0) fill(k, dist, dt, &base, out);
}

static void random_uniform_compute(tfe_kernel_context* k) {
  stateful_compute(k, DIST_UNIFORM);
}
static void random_normal_compute(tfe_kernel_context* k) {
  stateful_compute(k, DIST_NORMAL);
}
static void truncated_normal_compute(tfe_kernel_context* k) {
  stateful_compute(k, DIST_TRUNCATED);
}

/* ---- stateless V2 ops ---- */

#define RNG_ALG_PHILOX 1
#define RNG_ALG_THREEFRY 2
#define RNG_ALG_AUTO_SELECT 3

static void stateless_compute(tfe_kernel_context* k, int dist) {
  const TF_Tensor* key = k->inputs[1];
  const TF_Tensor* ctr = k->inputs[2];
  const TF_Tensor* alg_t = k->inputs[3];
  int64_t dims[TFE_MAX_DIMS];
  int nd = 0;
  int32_t alg;
  kutil_shape_buf b;
  TF_DataType dt = out_dtype(k);
  TF_Tensor* out;
  philox g;
  const uint64_t* kv;
  const uint64_t* cv;
  if (alg_t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input 3 (0-based) must have shape [], not %s",
               kutil_tshape(alg_t, &b));
    return;
  }
  alg = *(const int32_t*)kutil_data(alg_t);
  if (alg == RNG_ALG_AUTO_SELECT) alg = RNG_ALG_PHILOX;
  if (key->num_dims != 1 || key->dims[0] != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "key must have shape [1], not %s. (Note that batched keys are "
               "not supported yet.)",
               kutil_tshape(key, &b));
    return;
  }
  if (alg != RNG_ALG_PHILOX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Unsupported algorithm id: %d",
               (int)alg);
    return;
  }
  if (ctr->num_dims != 1 || ctr->dims[0] < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "counter must be a vector with length at least 2; got shape: "
               "%s. (Note that batched counters are not supported yet.)",
               kutil_tshape(ctr, &b));
    return;
  }
  if (!read_shape(k, k->inputs[0], dims, &nd)) return;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, nd);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  kv = (const uint64_t*)kutil_data(key);
  cv = (const uint64_t*)kutil_data(ctr);
  g.key[0] = (uint32_t)kv[0];
  g.key[1] = (uint32_t)(kv[0] >> 32);
  g.ctr[0] = (uint32_t)cv[0];
  g.ctr[1] = (uint32_t)(cv[0] >> 32);
  g.ctr[2] = (uint32_t)cv[1];
  g.ctr[3] = (uint32_t)(cv[1] >> 32);
  fill(k, dist, dt, &g, out);
}

static void stateless_uniform_compute(tfe_kernel_context* k) {
  stateless_compute(k, DIST_UNIFORM);
}
static void stateless_normal_compute(tfe_kernel_context* k) {
  stateless_compute(k, DIST_NORMAL);
}

/* Key and counter from a [2] seed, scrambled through one Philox block as
 * TF does so that both halves of the seed matter equally. */
static int key_counter(tfe_kernel_context* k, uint64_t* key_out,
                       uint64_t ctr_out[2]) {
  const TF_Tensor* seed = k->inputs[0];
  uint64_t s0, s1;
  uint32_t c[4], kk[2], mix[4];
  kutil_shape_buf b;
  if (seed->num_dims != 1 || seed->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seed must have shape [2], not %s",
               kutil_tshape(seed, &b));
    return 0;
  }
  s0 = (uint64_t)kutil_get_int(seed, 0);
  s1 = (uint64_t)kutil_get_int(seed, 1);
  kk[0] = 0x3ec8f720u;
  kk[1] = 0x02461e29u;
  c[0] = (uint32_t)s0;
  c[1] = (uint32_t)(s0 >> 32);
  c[2] = (uint32_t)s1;
  c[3] = (uint32_t)(s1 >> 32);
  philox_block(c, kk, mix);
  *key_out = (uint64_t)mix[0] | ((uint64_t)mix[1] << 32);
  ctr_out[0] = 0;
  ctr_out[1] = (uint64_t)mix[2] | ((uint64_t)mix[3] << 32);
  return 1;
}

static int write_key_counter(tfe_kernel_context* k) {
  uint64_t key, ctr[2];
  int64_t one = 1, two = 2;
  TF_Tensor *kt, *ct;
  if (!key_counter(k, &key, ctr)) return 0;
  kt = tfe_kernel_alloc_output(k, 0, TF_UINT64, &one, 1);
  if (kt == NULL) return 0;
  ct = tfe_kernel_alloc_output(k, 1, TF_UINT64, &two, 1);
  if (ct == NULL) return 0;
  *(uint64_t*)kutil_data(kt) = key;
  memcpy(kutil_data(ct), ctr, sizeof ctr);
  return 1;
}

static int write_alg(tfe_kernel_context* k, int index) {
  TF_Tensor* a = tfe_kernel_alloc_output(k, index, TF_INT32, NULL, 0);
  if (a == NULL) return 0;
  *(int32_t*)kutil_data(a) = RNG_ALG_PHILOX;
  return 1;
}

static void get_key_counter_compute(tfe_kernel_context* k) {
  write_key_counter(k);
}
static void get_alg_compute(tfe_kernel_context* k) { write_alg(k, 0); }
static void get_key_counter_alg_compute(tfe_kernel_context* k) {
  if (write_key_counter(k)) write_alg(k, 2);
}

/* ---- registration ---- */

static void reg_stateful(const char* op, void (*compute)(tfe_kernel_context*),
                         const TF_DataType* types, int n) {
  tfe_kernel_reg reg;
  TF_Status* s = TF_NewStatus();
  if (s == NULL) return;
  memset(&reg, 0, sizeof reg);
  reg.op_name = op;
  reg.device_type = "CPU";
  reg.constraints[0].attr = "dtype";
  reg.constraints[0].types = types;
  reg.constraints[0].num_types = n;
  reg.num_constraints = 1;
  reg.create = stateful_create;
  reg.compute = compute;
  reg.destroy = stateful_destroy;
  tfe_kernel_register(&reg, s);
  TF_DeleteStatus(s);
}

void tfe_register_random_kernels(void) {
  static const TF_DataType kFloats[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT,
                                        TF_DOUBLE};
  static const TF_DataType kSeed[] = {TF_INT32, TF_INT64};
  reg_stateful("RandomUniform", random_uniform_compute, kFloats, 4);
  reg_stateful("RandomStandardNormal", random_normal_compute, kFloats, 4);
  reg_stateful("TruncatedNormal", truncated_normal_compute, kFloats, 4);
  tfe_kutil_register("StatelessRandomUniformV2", stateless_uniform_compute,
                     "dtype", kFloats, 4, NULL, NULL, 0);
  tfe_kutil_register("StatelessRandomNormalV2", stateless_normal_compute,
                     "dtype", kFloats, 4, NULL, NULL, 0);
  tfe_kutil_register("StatelessRandomGetKeyCounter", get_key_counter_compute,
                     "Tseed", kSeed, 2, NULL, NULL, 0);
  tfe_kutil_register("StatelessRandomGetAlg", get_alg_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("StatelessRandomGetKeyCounterAlg",
                     get_key_counter_alg_compute, "Tseed", kSeed, 2, NULL,
                     NULL, 0);
}
