/* CPU kernels: random distributions and generator-state ops (issue 16).
 *
 *  - RandomGamma, StatelessRandomGammaV2/V3: Marsaglia-Tsang
 *    transformation-rejection in double from Box-Muller normals and
 *    uniforms (alpha == 1: an exponential -log1p(-u); alpha < 1: d is
 *    raised by one and the result scaled by u^(1/alpha));
 *  - RandomPoisson, RandomPoissonV2, StatelessRandomPoisson: Knuth's
 *    product of uniforms below rate 10, Hormann's transformed rejection
 *    above, in double whatever the rate's type;
 *  - StatelessRandomBinomial, StatefulRandomBinomial: inversion by summed
 *    geometric variables when count * p < 10, Hormann's BTRS otherwise,
 *    with p and q = 1 - p mirrored around 0.5;
 *  - RandomShuffle, StatelessShuffle: a Fisher-Yates pass drawing
 *    word % (n - i) for i = 0 .. n-2;
 *  - RngReadAndSkip, RngSkip, StatefulUniform, StatefulUniformInt,
 *    StatefulUniformFullInt, StatefulStandardNormalV2,
 *    StatefulStandardNormal, StatefulTruncatedNormal: a Philox state
 *    [counter_lo, counter_hi, key] (int64) in a resource variable, moved on
 *    by 256 blocks per output;
 *  - NonDeterministicInts: 64 bits from the OS per element.
 *
 * These follow TensorFlow's CPU kernels step for step so the same seeds,
 * keys and counters give TF's numbers: every output element starts at its
 * own generator position (base + 256 blocks * element, or 42 for the
 * binomial inversion), buffered numbers are consumed from the last one of
 * a block backwards, and stateful kernels keep one generator per kernel
 * instance (seed/seed2 attrs; both 0 seeds it from the OS), reserving 256
 * blocks per output after each call. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/random_common.h"
#include "fs/fs.h"
#include "kernels/resource.h"

void tfe_register_cpu_random_dist_kernels(void);

/* ---- Philox-4x32-10 ---- */

typedef struct rd_px {
  uint32_t ctr[4];
  uint32_t key[2];
} rd_px;

static void rd_block(const rd_px* g, uint32_t out[4]) {
  uint32_t c0 = g->ctr[0], c1 = g->ctr[1], c2 = g->ctr[2], c3 = g->ctr[3];
  uint32_t k0 = g->key[0], k1 = g->key[1];
  int r;
  for (r = 0; r < 10; r++) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c0;
    uint64_t p1 = (uint64_t)0xCD9E8D57u * c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1;
    c3 = (uint32_t)p0;
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/* Adds n to the 128-bit counter, carrying as TF's PhiloxRandom::Skip. */
static void rd_skip(rd_px* g, uint64_t n) {
  uint32_t lo = (uint32_t)n, hi = (uint32_t)(n >> 32);
  g->ctr[0] += lo;
  if (g->ctr[0] < lo) hi++;
  g->ctr[1] += hi;
  if (g->ctr[1] < hi) {
    if (++g->ctr[2] == 0) ++g->ctr[3];
  }
}

static void rd_next(rd_px* g, uint32_t out[4]) {
  rd_block(g, out);
  rd_skip(g, 1);
}

static void rd_from_seeds(rd_px* g, uint64_t lo, uint64_t hi) {
  g->key[0] = (uint32_t)lo;
  g->key[1] = (uint32_t)(lo >> 32);
  g->ctr[0] = 0;
  g->ctr[1] = 0;
  g->ctr[2] = (uint32_t)hi;
  g->ctr[3] = (uint32_t)(hi >> 32);
}

/* Generator from the int64 state words [counter_lo, counter_hi, key]. */
static void rd_from_state(rd_px* g, const int64_t* s) {
  uint64_t c0 = (uint64_t)s[0], c1 = (uint64_t)s[1], k = (uint64_t)s[2];
  g->ctr[0] = (uint32_t)c0;
  g->ctr[1] = (uint32_t)(c0 >> 32);
  g->ctr[2] = (uint32_t)c1;
  g->ctr[3] = (uint32_t)(c1 >> 32);
  g->key[0] = (uint32_t)k;
  g->key[1] = (uint32_t)(k >> 32);
}

static void rd_counter_to_state(const rd_px* g, int64_t* s) {
  s[0] = (int64_t)((uint64_t)g->ctr[0] | ((uint64_t)g->ctr[1] << 32));
  s[1] = (int64_t)((uint64_t)g->ctr[2] | ((uint64_t)g->ctr[3] << 32));
}

/* ---- numbers from words ---- */

static double rd_w2d(uint32_t x0, uint32_t x1) {
  uint64_t v = (1023ull << 52) | ((uint64_t)(x0 & 0xfffffu) << 32) | x1;
  double d;
  memcpy(&d, &v, 8);
  return d - 1.0;
}

/* Buffered doubles, handed out from the last of a block backwards (TF's
 * SampleBuffer and UNIFORM macro). kind 0: uniforms (2 per block),
 * 1: Box-Muller normals (2 per block). */
typedef struct rd_dbuf {
  double v[2];
  int rem;
  int kind;
} rd_dbuf;

static double rd_dnext(rd_dbuf* b, rd_px* g) {
  if (b->rem == 0) {
    uint32_t w[4];
    rd_next(g, w);
    if (b->kind == 0) {
      b->v[0] = rd_w2d(w[0], w[1]);
      b->v[1] = rd_w2d(w[2], w[3]);
    } else {
      double u1 = rd_w2d(w[0], w[1]), v1, u2;
      if (u1 < 1.0e-7) u1 = 1.0e-7;
      v1 = 2.0 * M_PI * rd_w2d(w[2], w[3]);
      u2 = sqrt(-2.0 * log(u1));
      b->v[0] = sin(v1) * u2;
      b->v[1] = cos(v1) * u2;
    }
    b->rem = 2;
  }
  return b->v[--b->rem];
}

/* ---- element access ---- */

static double rd_get(const TF_Tensor* t, int64_t i) {
  const void* p = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)p)[i];
    case TF_DOUBLE: return ((const double*)p)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)p)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)p)[i]);
    case TF_INT32: return ((const int32_t*)p)[i];
    case TF_INT64: return (double)((const int64_t*)p)[i];
    default: return 0;
  }
}

/* Stores v converted as C++'s static_cast does on x86 (out-of-range and
 * NaN integers become the "integer indefinite" value INT_MIN), without
 * undefined behaviour. Half and bfloat16 round through float, as Eigen. */
static void rd_put(TF_Tensor* t, int64_t i, double v) {
  void* p = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: ((float*)p)[i] = (float)v; break;
    case TF_DOUBLE: ((double*)p)[i] = v; break;
    case TF_HALF: ((uint16_t*)p)[i] = kutil_f32_to_f16((float)v); break;
    case TF_BFLOAT16: ((uint16_t*)p)[i] = kutil_f32_to_bf16((float)v); break;
    case TF_INT32:
      ((int32_t*)p)[i] = (v > -2147483649.0 && v < 2147483648.0)
                             ? (int32_t)v
                             : INT32_MIN;
      break;
    case TF_INT64:
      ((int64_t*)p)[i] = (v >= -9223372036854775808.0 &&
                          v < 9223372036854775808.0)
                             ? (int64_t)v
                             : INT64_MIN;
      break;
    default: break;
  }
}

/* ---- shapes ---- */

/* TF's MakeShape from a shape vector input. */
static int rd_read_shape(tfe_kernel_context* k, const TF_Tensor* in,
                         int64_t* dims, int* nd) {
  int64_t i, n;
  kutil_shape_buf b;
  if (in->num_dims > 1 || !kutil_is_int_index_type(in->dtype)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "shape must be a vector of {int32,int64}, got shape %s",
               kutil_tshape(in, &b));
    return 0;
  }
  n = in->num_dims == 0 ? 1 : in->dims[0];
  if (in->num_dims == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "shape must be a vector of {int32,int64}, got shape %s",
               kutil_tshape(in, &b));
    return 0;
  }
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

/* Appends t's dims to dims[*nd]; fails when the rank gets too large. */
static int rd_append_dims(tfe_kernel_context* k, int64_t* dims, int* nd,
                          const TF_Tensor* t) {
  int i;
  if (*nd + t->num_dims > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many dimensions in tensor");
    return 0;
  }
  for (i = 0; i < t->num_dims; i++) dims[(*nd)++] = t->dims[i];
  if (tfe_shape_num_elements(dims, *nd) < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shape would have more than 2**63 - 1 elements");
    return 0;
  }
  return 1;
}

/* Whether shape dims[0..nd) ends with t's shape. */
static int rd_ends_with(const int64_t* dims, int nd, const TF_Tensor* t) {
  int i;
  if (t->num_dims > nd) return 0;
  for (i = 0; i < t->num_dims; i++) {
    if (dims[nd - t->num_dims + i] != t->dims[i]) return 0;
  }
  return 1;
}

static TF_DataType rd_attr_type(const tfe_kernel_context* k, const char* name,
                                TF_DataType dflt) {
  TF_DataType t = dflt;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, name, &t, NULL);
  return t;
}

/* ---- seeds ---- */

static uint64_t rd_os_random64(void) {
  uint64_t v = 0;
  FILE* f = fopen("/dev/urandom", "rb");
  if (f != NULL) {
    if (fread(&v, sizeof v, 1, f) != 1) v = 0;
    fclose(f);
  }
  if (v == 0) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    v = ((uint64_t)ts.tv_sec * 1000000007ull) ^ (uint64_t)ts.tv_nsec ^
        ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&ts;
  }
  return v;
}

/* TF's GenerateKey: a [2] int32/int64 seed scrambled through one Philox
 * block with a fixed key gives the key and the high counter words. */
static int rd_seed_gen(tfe_kernel_context* k, const TF_Tensor* seed,
                       rd_px* g) {
  kutil_shape_buf b;
  uint64_t s0, s1;
  rd_px mixer;
  uint32_t mix[4];
  if (seed->num_dims != 1 || seed->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seed must have shape [2], not %s",
               kutil_tshape(seed, &b));
    return 0;
  }
  if (seed->dtype != TF_INT32 && seed->dtype != TF_INT64) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid seed type: %s",
               tfe_dtype_short_name(seed->dtype) != NULL
                   ? tfe_dtype_short_name(seed->dtype)
                   : "unknown");
    return 0;
  }
  s0 = (uint64_t)kutil_get_int(seed, 0);
  s1 = (uint64_t)kutil_get_int(seed, 1);
  mixer.ctr[0] = (uint32_t)s0;
  mixer.ctr[1] = (uint32_t)(s0 >> 32);
  mixer.ctr[2] = (uint32_t)s1;
  mixer.ctr[3] = (uint32_t)(s1 >> 32);
  mixer.key[0] = 0x3ec8f720u;
  mixer.key[1] = 0x02461e29u;
  rd_block(&mixer, mix);
  g->key[0] = mix[0];
  g->key[1] = mix[1];
  g->ctr[0] = 0;
  g->ctr[1] = 0;
  g->ctr[2] = mix[2];
  g->ctr[3] = mix[3];
  return 1;
}

/* key [1] / counter [>=2] / alg [] inputs at key_i, key_i+1, key_i+2 of
 * the V2 stateless ops. */
static int rd_key_counter_alg(tfe_kernel_context* k, int key_i, rd_px* g) {
  const TF_Tensor* key = k->inputs[key_i];
  const TF_Tensor* ctr = k->inputs[key_i + 1];
  const TF_Tensor* alg_t = k->inputs[key_i + 2];
  kutil_shape_buf b;
  int32_t alg;
  const uint64_t *kv, *cv;
  if (alg_t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input %d (0-based) must have shape [], not %s", key_i + 2,
               kutil_tshape(alg_t, &b));
    return 0;
  }
  alg = *(const int32_t*)kutil_data(alg_t);
  if (alg == 3) alg = 1; /* AUTO_SELECT is Philox on CPU */
  if (alg != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Unsupported algorithm id: %d",
               (int)alg);
    return 0;
  }
  if (key->num_dims != 1 || key->dims[0] != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "key must have shape [1], not %s. (Note that batched keys are "
               "not supported yet.)",
               kutil_tshape(key, &b));
    return 0;
  }
  if (ctr->num_dims != 1 || ctr->dims[0] < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "counter must be a vector with length at least 2; got shape: "
               "%s. (Note that batched counters are not supported yet.)",
               kutil_tshape(ctr, &b));
    return 0;
  }
  kv = (const uint64_t*)kutil_data(key);
  cv = (const uint64_t*)kutil_data(ctr);
  g->key[0] = (uint32_t)kv[0];
  g->key[1] = (uint32_t)(kv[0] >> 32);
  g->ctr[0] = (uint32_t)cv[0];
  g->ctr[1] = (uint32_t)(cv[0] >> 32);
  g->ctr[2] = (uint32_t)cv[1];
  g->ctr[3] = (uint32_t)(cv[1] >> 32);
  return 1;
}

/* ---- stateful kernels with seed/seed2 attrs (GuardedPhiloxRandom) ---- */

typedef struct rd_guarded {
  pthread_mutex_t mu;
  rd_px gen;
} rd_guarded;

static void* rd_guarded_create(const tfe_op_def* def, const tfe_attrs* attrs,
                               void* user_data, TF_Status* status) {
  rd_guarded* st;
  int64_t seed = 0, seed2 = 0;
  (void)def;
  (void)user_data;
  st = (rd_guarded*)tfe_calloc(1, sizeof *st);
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
    rd_from_seeds(&st->gen, rd_os_random64(), rd_os_random64());
  } else {
    rd_from_seeds(&st->gen, (uint64_t)seed, (uint64_t)seed2);
  }
  pthread_mutex_init(&st->mu, NULL);
  return st;
}

static void rd_guarded_destroy(void* state, void* user_data) {
  rd_guarded* st = (rd_guarded*)state;
  (void)user_data;
  if (st == NULL) return;
  pthread_mutex_destroy(&st->mu);
  tfe_free(st);
}

/* The generator for `blocks` reserved 128-bit samples (TF's
 * ReserveSamples128); the kernel's generator moves on past them. */
static int rd_reserve(tfe_kernel_context* k, uint64_t blocks, rd_px* base) {
  rd_guarded* st = (rd_guarded*)k->state;
  if (st == NULL) {
    rd_guarded* tmp =
        (rd_guarded*)rd_guarded_create(k->op_def, k->attrs, NULL, k->status);
    if (tmp == NULL) return 0;
    *base = tmp->gen;
    rd_guarded_destroy(tmp, NULL);
    return 1;
  }
  pthread_mutex_lock(&st->mu);
  *base = st->gen;
  rd_skip(&st->gen, blocks);
  pthread_mutex_unlock(&st->mu);
  return 1;
}

/* ---- gamma ---- */

static double rd_gamma_one(double alpha, const rd_px* base, uint64_t idx) {
  rd_px gen = *base;
  rd_dbuf nb, ub;
  rd_skip(&gen, 256u * idx);
  nb.rem = 0;
  nb.kind = 1;
  ub.rem = 0;
  ub.kind = 0;
  if (alpha == 1.0) {
    double u = rd_dnext(&ub, &gen);
    return -log1p(-u);
  } else {
    const int less = alpha < 1;
    const double d = alpha + (less ? 2.0 / 3 : -1.0 / 3);
    const double c = 1.0 / 3 / sqrt(d);
    int tries;
    /* TF loops until acceptance; the cap only stops inputs (NaN alpha)
     * that could never be accepted. */
    for (tries = 0; tries < 1000000; tries++) {
      const double x = rd_dnext(&nb, &gen);
      double v = 1 + c * x, u;
      if (v <= 0) continue;
      v = v * v * v;
      u = rd_dnext(&ub, &gen);
      if ((u < 1 - 0.0331 * (x * x) * (x * x)) ||
          (log(u) < 0.5 * x * x + d * (1 - v + log(v)))) {
        double res = d * v;
        if (less) {
          double b = rd_dnext(&ub, &gen);
          res *= pow(b, 1 / alpha);
        }
        return res;
      }
    }
    return NAN;
  }
}

/* samples[s * num_alphas + a] for s < per_alpha, a < num_alphas. */
static void rd_gamma_fill(const TF_Tensor* alpha, int64_t per_alpha,
                          const rd_px* base, TF_Tensor* out) {
  int64_t num_alphas = kutil_num_elements(alpha), i, total;
  total = num_alphas * per_alpha;
  for (i = 0; i < total; i++) {
    int64_t a = i / per_alpha, s = i % per_alpha;
    double r = rd_gamma_one(rd_get(alpha, a), base, (uint64_t)i);
    rd_put(out, s * num_alphas + a, r);
  }
}

static void random_gamma_compute(tfe_kernel_context* k) {
  const TF_Tensor* alpha = k->inputs[1];
  int64_t dims[TFE_MAX_DIMS], per_alpha;
  int nd = 0;
  TF_Tensor* out;
  rd_px base;
  if (!rd_read_shape(k, k->inputs[0], dims, &nd)) return;
  per_alpha = tfe_shape_num_elements(dims, nd);
  if (!rd_append_dims(k, dims, &nd, alpha)) return;
  out = tfe_kernel_alloc_output(k, 0, alpha->dtype, dims, nd);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  if (!rd_reserve(k, (uint64_t)kutil_num_elements(out) * 256u, &base)) return;
  rd_gamma_fill(alpha, per_alpha, &base, out);
}

/* Stateless gamma: output shape = shape input, which must end with
 * alpha's shape. */
static void stateless_gamma_common(tfe_kernel_context* k, const rd_px* g,
                                   const int64_t* dims, int nd,
                                   const TF_Tensor* alpha) {
  TF_Tensor* out;
  int64_t n;
  TF_DataType dt = rd_attr_type(k, "dtype", alpha->dtype);
  out = tfe_kernel_alloc_output(k, 0, dt, dims, nd);
  if (out == NULL) return;
  n = kutil_num_elements(out);
  if (n == 0) return;
  if (!rd_ends_with(dims, nd, alpha)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shape passed in must end with broadcasted shape.");
    return;
  }
  if (kutil_num_elements(alpha) <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input alpha should have non-zero element count, got: %lld",
               (long long)kutil_num_elements(alpha));
    return;
  }
  rd_gamma_fill(alpha, n / kutil_num_elements(alpha), g, out);
}

static void stateless_gamma_v2_compute(tfe_kernel_context* k) {
  int64_t dims[TFE_MAX_DIMS];
  int nd = 0;
  rd_px g;
  kutil_shape_buf b;
  const TF_Tensor* seed = k->inputs[1];
  if (!rd_read_shape(k, k->inputs[0], dims, &nd)) return;
  if (seed->num_dims != 1 || seed->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seed must have shape [2], not %s",
               kutil_tshape(seed, &b));
    return;
  }
  if (tfe_shape_num_elements(dims, nd) == 0) {
    tfe_kernel_alloc_output(k, 0, rd_attr_type(k, "dtype", TF_FLOAT), dims,
                            nd);
    return;
  }
  if (!rd_seed_gen(k, seed, &g)) return;
  stateless_gamma_common(k, &g, dims, nd, k->inputs[2]);
}

static void stateless_gamma_v3_compute(tfe_kernel_context* k) {
  int64_t dims[TFE_MAX_DIMS];
  int nd = 0;
  rd_px g;
  if (!rd_read_shape(k, k->inputs[0], dims, &nd)) return;
  if (!rd_key_counter_alg(k, 1, &g)) return;
  stateless_gamma_common(k, &g, dims, nd, k->inputs[4]);
}

/* ---- Poisson ---- */

/* One sample, in double (rate double, ints) or float (float, half). */
static double rd_poisson_one(double rate_d, const rd_px* base, uint64_t idx) {
  rd_px gen = *base;
  int tries;
  rd_skip(&gen, 256u * idx);
  if (isnan(rate_d)) return NAN;
  {
    const double rate = rate_d;
    rd_dbuf ub;
    ub.rem = 0;
    ub.kind = 0;
    if (rate < 10.0) {
      const double exp_neg_rate = exp(-rate);
      double prod = 1, x = 0;
      for (tries = 0; tries < 100000000; tries++) {
        double u = rd_dnext(&ub, &gen);
        prod = prod * u;
        if (prod <= exp_neg_rate) return x;
        x += 1;
      }
      return x;
    }
    if (isinf(rate)) return INFINITY;
    {
      const double log_rate = log(rate);
      const double b = 0.931 + 2.53 * sqrt(rate);
      const double a = -0.059 + 0.02483 * b;
      const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
      for (tries = 0; tries < 100000000; tries++) {
        double u = rd_dnext(&ub, &gen), v, us, kk, s, t;
        u -= 0.5;
        v = rd_dnext(&ub, &gen);
        us = 0.5 - fabs(u);
        kk = floor((2 * a / us + b) * u + rate + 0.43);
        if (us >= 0.07 && v <= 0.9277 - 3.6224 / (b - 2)) return kk;
        if (kk < 0 || (us < 0.013 && v > us)) continue;
        s = log(v * inv_alpha / (a / (us * us) + b));
        t = -rate + kk * log_rate - lgamma(kk + 1);
        if (s <= t) return kk;
      }
      return NAN;
    }
  }
}

static void rd_poisson_fill(const TF_Tensor* rate, int64_t per_rate,
                            const rd_px* base, TF_Tensor* out) {
  int64_t num_rate = kutil_num_elements(rate), i, total;
  total = num_rate * per_rate;
  for (i = 0; i < total; i++) {
    int64_t r = i / per_rate, s = i % per_rate;
    double v = rd_poisson_one(rd_get(rate, r), base, (uint64_t)i);
    rd_put(out, s * num_rate + r, v);
  }
}

static void random_poisson_compute(tfe_kernel_context* k) {
  const TF_Tensor* rate = k->inputs[1];
  int64_t dims[TFE_MAX_DIMS], per_rate;
  int nd = 0;
  TF_Tensor* out;
  rd_px base;
  TF_DataType dt = rd_attr_type(k, "dtype", rate->dtype);
  if (!rd_read_shape(k, k->inputs[0], dims, &nd)) return;
  per_rate = tfe_shape_num_elements(dims, nd);
  if (!rd_append_dims(k, dims, &nd, rate)) return;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, nd);
  if (out == NULL || per_rate == 0) return;
  if (kutil_num_elements(rate) <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input rate should have non-zero element count, got: %lld",
               (long long)kutil_num_elements(rate));
    return;
  }
  if (!rd_reserve(k, (uint64_t)kutil_num_elements(out) * 256u, &base)) return;
  rd_poisson_fill(rate, per_rate, &base, out);
}

/* TF keeps RandomPoisson's definition but refuses to run it. */
static void random_poisson_v1_compute(tfe_kernel_context* k) {
  KUTIL_FAIL(k, TF_UNIMPLEMENTED,
             "Op RandomPoisson is not available in GraphDef version 2474. It "
             "has been removed in version 25. Replaced by RandomPoissonV2.");
}

static void stateless_poisson_compute(tfe_kernel_context* k) {
  const TF_Tensor* rate = k->inputs[2];
  const TF_Tensor* seed = k->inputs[1];
  int64_t dims[TFE_MAX_DIMS], n;
  int nd = 0;
  TF_Tensor* out;
  rd_px g;
  kutil_shape_buf b;
  if (!rd_read_shape(k, k->inputs[0], dims, &nd)) return;
  if (seed->num_dims != 1 || seed->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seed must have shape [2], not %s",
               kutil_tshape(seed, &b));
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, rd_attr_type(k, "dtype", TF_INT64), dims,
                                nd);
  if (out == NULL) return;
  n = kutil_num_elements(out);
  if (n == 0) return;
  if (!rd_seed_gen(k, seed, &g)) return;
  if (!rd_ends_with(dims, nd, rate)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shape passed in must end with broadcasted shape.");
    return;
  }
  rd_poisson_fill(rate, n / kutil_num_elements(rate), &g, out);
}

/* ---- binomial ---- */

static double rd_binomial_inversion(double count, double prob, rd_px* gen) {
  double geom_sum = 0;
  int64_t num_geom = 0;
  rd_dbuf ub;
  ub.rem = 0;
  ub.kind = 0;
  for (;;) {
    double u = rd_dnext(&ub, gen);
    double geom = ceil(log(u) / log1p(-prob));
    geom_sum += geom;
    if (!(geom_sum <= count)) break;
    ++num_geom;
  }
  return (double)num_geom;
}

static double rd_stirling_tail(double k) {
  static const double kTail[] = {0.0810614667953272,  0.0413406959554092,
                                 0.0276779256849983,  0.02079067210376509,
                                 0.0166446911898211,  0.0138761288230707,
                                 0.0118967099458917,  0.0104112652619720,
                                 0.00925546218271273, 0.00833056343336287};
  double kp1sq;
  if (k <= 9 && k >= 0) return kTail[(int)k];
  kp1sq = (k + 1) * (k + 1);
  return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

static double rd_btrs(double count, double prob, rd_px* gen) {
  const double stddev = sqrt(count * prob * (1 - prob));
  const double b = 1.15 + 2.53 * stddev;
  const double a = -0.0873 + 0.0248 * b + 0.01 * prob;
  const double c = count * prob + 0.5;
  const double v_r = 0.92 - 4.2 / b;
  const double r = prob / (1 - prob);
  const double alpha = (2.83 + 5.1 / b) * stddev;
  const double m = floor((count + 1) * prob);
  rd_dbuf ub;
  int tries;
  ub.rem = 0;
  ub.kind = 0;
  for (tries = 0; tries < 100000000; tries++) {
    double u = rd_dnext(&ub, gen), v = rd_dnext(&ub, gen), us, kk, ub_;
    u = u - 0.5;
    us = 0.5 - fabs(u);
    kk = floor((2 * a / us + b) * u + c);
    if (us >= 0.07 && v <= v_r) return kk;
    if (kk < 0 || kk > count) continue;
    v = log(v * alpha / (a / (us * us) + b));
    ub_ = ((m + 0.5) * log((m + 1) / (r * (count - m + 1))) +
           (count + 1) * log((count - m + 1) / (count - kk + 1)) +
           (kk + 0.5) * log(r * (count - kk + 1) / (kk + 1)) +
           rd_stirling_tail(m) + rd_stirling_tail(count - m) -
           rd_stirling_tail(kk) - rd_stirling_tail(count - kk));
    if (v <= ub_) return kk;
  }
  return NAN;
}

/* Rounds v to the type of T (counts/probs arithmetic happens in T). */
static double rd_round_to(TF_DataType t, double v) {
  switch (t) {
    case TF_FLOAT: return (float)v;
    case TF_HALF: return kutil_f16_to_f32(kutil_f32_to_f16((float)v));
    default: return v;
  }
}

/* Index into x (rank xr, dims xd) for flat index b of the broadcast
 * shape (rank br, dims bd). */
static int64_t rd_bcast_index(int64_t b, const int64_t* bd, int br,
                              const int64_t* xd, int xr) {
  int64_t idx = 0, stride = 1;
  int i;
  for (i = br - 1; i >= 0; i--) {
    int64_t coord = b % bd[i];
    int xi = i - (br - xr);
    b /= bd[i];
    if (xi >= 0) {
      if (xd[xi] != 1) idx += coord * stride;
      stride *= xd[xi];
    }
  }
  return idx;
}

typedef struct rd_binom_job {
  const TF_Tensor* counts;
  const TF_Tensor* probs;
  int64_t bd[TFE_MAX_DIMS];
  int br;
  int64_t num_batches, per_batch;
} rd_binom_job;

/* Checks counts/probs/shape and fills the job; output dims in dims/nd. */
static int rd_binom_setup(tfe_kernel_context* k, const TF_Tensor* shape_t,
                          const TF_Tensor* counts, const TF_Tensor* probs,
                          rd_binom_job* j, int64_t* dims, int* nd) {
  int i, nsd;
  kutil_shape_buf a, b;
  j->counts = counts;
  j->probs = probs;
  j->br = counts->num_dims > probs->num_dims ? counts->num_dims
                                             : probs->num_dims;
  for (i = 0; i < j->br; i++) {
    int ci = i - (j->br - counts->num_dims), pi = i - (j->br - probs->num_dims);
    int64_t cd = ci >= 0 ? counts->dims[ci] : 1;
    int64_t pd = pi >= 0 ? probs->dims[pi] : 1;
    if (cd != pd && cd != 1 && pd != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "counts and probs must have compatible batch dimensions: %s "
                 "vs. %s",
                 kutil_tshape(counts, &a), kutil_tshape(probs, &b));
      return 0;
    }
    j->bd[i] = cd == 1 ? pd : cd;
  }
  if (shape_t->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input shape should be a vector, got shape: %s",
               kutil_tshape(shape_t, &a));
    return 0;
  }
  if (!kutil_is_int_index_type(shape_t->dtype)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input shape should have dtype {int32, int64}.");
    return 0;
  }
  if (!rd_read_shape(k, shape_t, dims, nd)) return 0;
  if (j->br > *nd) goto not_ending;
  for (i = 0; i < j->br; i++) {
    if (dims[*nd - j->br + i] != j->bd[i]) goto not_ending;
  }
  nsd = *nd - j->br;
  j->per_batch = 1;
  for (i = 0; i < nsd; i++) j->per_batch *= dims[i];
  j->num_batches = 1;
  for (i = nsd; i < *nd; i++) j->num_batches *= dims[i];
  return 1;
not_ending:
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Shape passed in must end with broadcasted shape.");
  return 0;
}

static void rd_binom_fill(const rd_binom_job* j, const rd_px* gen,
                          TF_Tensor* out) {
  int64_t total = j->num_batches * j->per_batch, i;
  TF_DataType T = j->counts->dtype;
  for (i = 0; i < total; i++) {
    int64_t batch = i / j->per_batch, s = i % j->per_batch;
    int64_t ci = rd_bcast_index(batch, j->bd, j->br, j->counts->dims,
                                j->counts->num_dims);
    int64_t pi = rd_bcast_index(batch, j->bd, j->br, j->probs->dims,
                                j->probs->num_dims);
    double count = rd_get(j->counts, ci), prob = rd_get(j->probs, pi), r;
    int64_t o = s * j->num_batches + batch;
    rd_px g = *gen;
    if (count <= 0.0 || prob <= 0.0) {
      r = 0.0;
    } else if (prob >= 1.0) {
      r = count;
    } else if (prob <= 0.5) {
      if (rd_round_to(T, count * prob) >= 10) {
        rd_skip(&g, 256u * (uint64_t)i);
        r = rd_btrs(count, prob, &g);
      } else {
        rd_skip(&g, 42u * (uint64_t)i);
        r = rd_binomial_inversion(count, prob, &g);
      }
    } else if (prob > 0.5) {
      double q = rd_round_to(T, 1.0 - prob);
      if (rd_round_to(T, count * q) >= 10) {
        rd_skip(&g, 256u * (uint64_t)i);
        r = count - rd_btrs(count, q, &g);
      } else {
        rd_skip(&g, 42u * (uint64_t)i);
        r = count - rd_binomial_inversion(count, q, &g);
      }
    } else {
      r = NAN;
    }
    rd_put(out, o, r);
  }
}

static void stateless_binomial_compute(tfe_kernel_context* k) {
  const TF_Tensor* seed = k->inputs[1];
  int64_t dims[TFE_MAX_DIMS];
  int nd = 0;
  rd_binom_job j;
  rd_px g;
  TF_Tensor* out;
  kutil_shape_buf b;
  if (seed->num_dims != 1 || seed->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seed must have shape [2], not %s",
               kutil_tshape(seed, &b));
    return;
  }
  if (!rd_binom_setup(k, k->inputs[0], k->inputs[2], k->inputs[3], &j, dims,
                      &nd)) {
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, rd_attr_type(k, "dtype", TF_INT64), dims,
                                nd);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  if (!rd_seed_gen(k, seed, &g)) return;
  rd_binom_fill(&j, &g, out);
}

/* ---- parameterized truncated normal ----
 * TF's TruncatedNormalFunctor (stateful op) and TruncatedNormalFunctorV2
 * (stateless op), computed in the output type T: every arithmetic step is
 * rounded to T (double: none; float; half), which gives exactly what
 * float or Eigen::half arithmetic gives, and exp/log go through the float
 * functions for float and half. TF runs the batches of a large output in
 * parallel shards, each starting its generator at a shard-dependent
 * position; tfe runs one shard, which is what TF does for outputs too small
 * to split (and on one thread). */

enum { PT_DOUBLE = 0, PT_FLOAT = 1, PT_HALF = 2 };

static double pt_r(int m, double x) {
  if (m == PT_FLOAT) return (float)x;
  if (m == PT_HALF) return kutil_f16_to_f32(kutil_f32_to_f16((float)x));
  return x;
}
static double pt_exp(int m, double x) {
  return m == PT_DOUBLE ? exp(x) : pt_r(m, expf((float)x));
}
static double pt_log(int m, double x) {
  return m == PT_DOUBLE ? log(x) : pt_r(m, logf((float)x));
}
static double pt_sqrt(int m, double x) {
  return m == PT_DOUBLE ? sqrt(x) : pt_r(m, sqrtf((float)x));
}

/* One block of uniforms (2 doubles or 4 float/half values) into v;
 * returns the count. */
static int pt_uniform(int m, rd_px* g, double v[4]) {
  uint32_t w[4];
  int i;
  rd_next(g, w);
  if (m == PT_DOUBLE) {
    v[0] = rd_w2d(w[0], w[1]);
    v[1] = rd_w2d(w[2], w[3]);
    return 2;
  }
  for (i = 0; i < 4; i++) {
    if (m == PT_FLOAT) {
      uint32_t bits = (127u << 23) | (w[i] & 0x7fffffu);
      float f;
      memcpy(&f, &bits, 4);
      v[i] = f - 1.0f;
    } else {
      v[i] = kutil_f16_to_f32((uint16_t)((15u << 10) | (w[i] & 0x3ffu))) - 1.0f;
    }
  }
  return 4;
}

/* One block of normals (Box-Muller: 2 doubles, or 4 floats rounded to T). */
static int pt_normal(int m, rd_px* g, double v[4]) {
  uint32_t w[4];
  int i;
  rd_next(g, w);
  if (m == PT_DOUBLE) {
    double u1 = rd_w2d(w[0], w[1]), v1, u2;
    if (u1 < 1.0e-7) u1 = 1.0e-7;
    v1 = 2.0 * M_PI * rd_w2d(w[2], w[3]);
    u2 = sqrt(-2.0 * log(u1));
    v[0] = sin(v1) * u2;
    v[1] = cos(v1) * u2;
    return 2;
  }
  for (i = 0; i < 4; i += 2) {
    uint32_t b0 = (127u << 23) | (w[i] & 0x7fffffu);
    uint32_t b1 = (127u << 23) | (w[i + 1] & 0x7fffffu);
    float f0, f1, u1, v1, u2;
    memcpy(&f0, &b0, 4);
    memcpy(&f1, &b1, 4);
    u1 = f0 - 1.0f;
    if (u1 < 1.0e-7f) u1 = 1.0e-7f;
    v1 = (float)(2.0f * M_PI * (f1 - 1.0f));
    u2 = sqrtf(-2.0f * logf(u1));
    v[i] = pt_r(m, sinf(v1) * u2);
    v[i + 1] = pt_r(m, cosf(v1) * u2);
  }
  return 4;
}

/* Draws samples [first, first + count) of one parameter set into out at
 * index base + sample * step, continuing generator g. Returns 0 with the
 * status set on TF's errors. */
static int pt_batch(tfe_kernel_context* k, int m, rd_px* g, double mean,
                    double stddev, double minval, double maxval,
                    int64_t first, int64_t count, int64_t base, int64_t step,
                    TF_Tensor* out) {
  const double kInside = pt_r(m, 1.3);
  const int kMaxIter = 1000;
  double normMin, normMax, sqrtFactor, cutoff, diff, v[4], u[4];
  int64_t done = 0;
  int iters = 0, n, i;
  if (!(stddev > 0 && minval < maxval && (isfinite(minval) || isfinite(maxval)))) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid parameters");
    return 0;
  }
  if ((isinf(minval) && minval < 0) || maxval < mean) {
    double t = minval;
    minval = maxval;
    maxval = t;
    stddev = -stddev;
  }
  normMin = pt_r(m, pt_r(m, minval - mean) / stddev);
  normMax = pt_r(m, pt_r(m, maxval - mean) / stddev);
  sqrtFactor = pt_sqrt(m, pt_r(m, pt_r(m, normMin * normMin) + 4));
  cutoff = pt_r(m, pt_r(m, 2 * pt_exp(m, pt_r(m, 0.5 + pt_r(m, pt_r(m, normMin * pt_r(m, normMin - sqrtFactor)) / 4)))) /
                       pt_r(m, normMin + sqrtFactor));
  diff = pt_r(m, normMax - normMin);
#define PT_STORE(x)                                                   \
  do {                                                                \
    rd_put(out, base + (first + done) * step, (x));                   \
    done++;                                                           \
  } while (0)
  if ((normMin < -kInside && normMax >= 0) ||
      (normMax > kInside && normMin <= 0)) {
    while (done < count) {
      n = pt_normal(m, g, v);
      for (i = 0; i < n; i++) {
        if (v[i] >= normMin && v[i] <= normMax) {
          PT_STORE(pt_r(m, pt_r(m, v[i] * stddev) + mean));
          if (done >= count) break;
          iters = 0;
        } else if (++iters > kMaxIter) {
          KUTIL_FAIL(k, TF_INTERNAL,
                     "TruncatedNormal randn rejection sampler failed to "
                     "accept a sample.");
          return 0;
        }
      }
    }
  } else if (diff < cutoff) {
    const double plus = normMin < 0 ? 0 : pt_r(m, normMin * normMin);
    double z[4], gg[4];
    while (done < count) {
      n = pt_uniform(m, g, v);
      for (i = 0; i < n; i++) {
        z[i] = pt_r(m, pt_r(m, v[i] * diff) + normMin);
        gg[i] = pt_r(m, pt_r(m, plus - pt_r(m, z[i] * z[i])) / 2);
      }
      pt_uniform(m, g, u);
      for (i = 0; i < n; i++) {
        int accept = u[i] <= pt_exp(m, gg[i]);
        if (accept || iters + 1 >= kMaxIter) {
          if (!accept) {
            KUTIL_FAIL(k, TF_INTERNAL,
                       "TruncatedNormal uniform rejection sampler failed to  "
                       "accept a sample.");
            return 0;
          }
          PT_STORE(pt_r(m, pt_r(m, z[i] * stddev) + mean));
          if (done >= count) break;
          iters = 0;
        } else {
          iters++;
        }
      }
    }
  } else {
    const double alpha = pt_r(m, pt_r(m, normMin + pt_sqrt(m, pt_r(m, pt_r(m, normMin * normMin) + 4))) / 2);
    while (done < count) {
      n = pt_uniform(m, g, v);
      i = 0;
      while (i < n) {
        double z = pt_r(m, pt_r(m, -pt_log(m, v[i]) / alpha) + normMin), x, gv, uu;
        int accept;
        i++;
        x = normMin < alpha ? pt_r(m, alpha - z) : pt_r(m, normMin - alpha);
        gv = pt_exp(m, pt_r(m, pt_r(m, -x * x) / 2));
        uu = v[i];
        i++;
        accept = uu <= gv && z < normMax;
        if (accept || iters + 1 >= kMaxIter) {
          if (!accept) {
            KUTIL_FAIL(k, TF_INTERNAL,
                       "TruncatedNormal exponential distribution rejection "
                       "sampler failed to accept a sample.");
            return 0;
          }
          PT_STORE(pt_r(m, pt_r(m, z * stddev) + mean));
          if (done >= count) break;
          iters = 0;
        } else {
          iters++;
        }
      }
    }
  }
#undef PT_STORE
  return 1;
}

static int pt_mode(TF_DataType dt) {
  return dt == TF_DOUBLE ? PT_DOUBLE : dt == TF_HALF ? PT_HALF : PT_FLOAT;
}

static int pt_param_vec(tfe_kernel_context* k, const TF_Tensor* t,
                        const char* name) {
  kutil_shape_buf b;
  if (t->num_dims > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input %s should be a scalar or vector, got shape: %s", name,
               kutil_tshape(t, &b));
    return 0;
  }
  return 1;
}

static void parameterized_truncated_normal_compute(tfe_kernel_context* k) {
  const TF_Tensor* shape_t = k->inputs[0];
  const TF_Tensor* p[4];
  static const char* const kNames[4] = {"means", "stddevs", "minvals",
                                        "maxvals"};
  int64_t dims[TFE_MAX_DIMS], num_batches, per_batch = 1, num_elements, bidx;
  int nd = 0, i, m;
  TF_Tensor* out;
  rd_px g;
  kutil_shape_buf b;
  TF_DataType dt = rd_attr_type(k, "dtype", TF_FLOAT);
  for (i = 0; i < 4; i++) p[i] = k->inputs[1 + i];
  if (shape_t->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input shape should be a vector, got shape: %s",
               kutil_tshape(shape_t, &b));
    return;
  }
  if (shape_t->dims[0] == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape tensor must not be empty");
    return;
  }
  if (!rd_read_shape(k, shape_t, dims, &nd)) return;
  num_batches = dims[0];
  for (i = 1; i < nd; i++) per_batch *= dims[i];
  num_elements = num_batches * per_batch;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, nd);
  if (out == NULL) return;
  for (i = 0; i < 4; i++) {
    if (!pt_param_vec(k, p[i], kNames[i])) return;
  }
  if ((p[0]->num_dims == 0 || p[0]->dims[0] == 1) &&
      (p[1]->num_dims == 0 || p[1]->dims[0] == 1) && p[2]->num_dims == 0 &&
      p[3]->num_dims == 0) {
    per_batch = 100;
    num_batches = (num_elements + 99) / 100;
  } else {
    for (i = 0; i < 4; i++) {
      if (!(p[i]->num_dims == 0 || p[i]->dims[0] == 1 ||
            p[i]->dims[0] == num_batches)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Input %s should have length 1 or shape[0], got shape: %s",
                   kNames[i], kutil_tshape(p[i], &b));
        return;
      }
    }
  }
  for (i = 0; i < 4; i++) {
    if (kutil_num_elements(p[i]) == 0 && num_elements > 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input %s is empty", kNames[i]);
      return;
    }
  }
  if (!rd_reserve(k, (uint64_t)num_batches * 2u * 1000u *
                         (uint64_t)(per_batch + 3) / 4u, &g)) {
    return;
  }
  m = pt_mode(dt);
  for (bidx = 0; bidx < num_batches; bidx++) {
    double prm[4];
    int64_t first = bidx * per_batch, last = first + per_batch;
    if (last > num_elements) last = num_elements;
    if (first >= last) break;
    for (i = 0; i < 4; i++) {
      prm[i] = rd_get(p[i], kutil_num_elements(p[i]) == 1 ? 0 : bidx);
    }
    if (!pt_batch(k, m, &g, prm[0], prm[1], prm[2], prm[3], first,
                  last - first, 0, 1, out)) {
      return;
    }
  }
}

static void stateless_ptn_compute(tfe_kernel_context* k) {
  const TF_Tensor* seed = k->inputs[1];
  const TF_Tensor* p[4];
  int64_t bd[TFE_MAX_DIMS], dims[TFE_MAX_DIMS], num_batches = 1, per_batch = 1;
  int br = 0, nd = 0, i, j, nsd, m;
  TF_Tensor* out;
  rd_px g;
  kutil_shape_buf b0, b1, b2, b3;
  TF_DataType dt = rd_attr_type(k, "dtype", TF_FLOAT);
  for (i = 0; i < 4; i++) p[i] = k->inputs[2 + i];
  if (seed->num_dims != 1 || seed->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seed must have shape [2], not %s",
               kutil_tshape(seed, &b0));
    return;
  }
  for (i = 0; i < 4; i++) {
    if (p[i]->num_dims > br) br = p[i]->num_dims;
  }
  for (j = 0; j < br; j++) {
    int64_t d = 1;
    int ok = 1;
    for (i = 0; i < 4; i++) {
      int xi = j - (br - p[i]->num_dims);
      int64_t xd = xi >= 0 ? p[i]->dims[xi] : 1;
      if (xd == 1) continue;
      if (d == 1) {
        d = xd;
      } else if (d != xd) {
        ok = 0;
      }
    }
    if (!ok) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "means, stddevs, minvals, maxvals must have compatible batch "
                 "dimensions: %s vs. %s vs. %s vs. %s",
                 kutil_tshape(p[0], &b0), kutil_tshape(p[1], &b1),
                 kutil_tshape(p[2], &b2), kutil_tshape(p[3], &b3));
      return;
    }
    bd[j] = d;
  }
  if (k->inputs[0]->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input shape should be a vector, got shape: %s",
               kutil_tshape(k->inputs[0], &b0));
    return;
  }
  if (!rd_read_shape(k, k->inputs[0], dims, &nd)) return;
  if (br > nd) goto not_ending;
  for (j = 0; j < br; j++) {
    if (dims[nd - br + j] != bd[j]) goto not_ending;
  }
  nsd = nd - br;
  for (j = 0; j < nsd; j++) per_batch *= dims[j];
  for (j = nsd; j < nd; j++) num_batches *= dims[j];
  out = tfe_kernel_alloc_output(k, 0, dt, dims, nd);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  if (!rd_seed_gen(k, seed, &g)) return;
  m = pt_mode(dt);
  for (j = 0; j < num_batches; j++) {
    double prm[4];
    for (i = 0; i < 4; i++) {
      prm[i] = rd_get(p[i], rd_bcast_index(j, bd, br, p[i]->dims,
                                           p[i]->num_dims));
    }
    if (!pt_batch(k, m, &g, prm[0], prm[1], prm[2], prm[3], 0, per_batch, j,
                  num_batches, out)) {
      return;
    }
  }
  return;
not_ending:
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Shape passed in must end with broadcasted shape.");
}

/* ---- RandomIndexShuffle ----
 * TF's cycle-walking permutation: the Simon block cipher (Feistel rounds
 * on two W-bit halves, round keys from the 3 seed words) with the block
 * size the smallest even number of bits >= ceil(log2(max_index)), at least
 * 16; values above max_index are encrypted again until one is not. */

static uint64_t ris_mask(int w) {
  return w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1);
}
static uint64_t ris_rotl(uint64_t x, int r, int w) {
  return ((x << r) | (x >> (w - r))) & ris_mask(w);
}
static uint64_t ris_rotr(uint64_t x, int r, int w) {
  return ((x >> r) | (x << (w - r))) & ris_mask(w);
}
static uint64_t ris_f(uint64_t x, int w) {
  return (ris_rotl(x, 1, w) & ris_rotl(x, 8, w)) ^ ris_rotl(x, 2, w);
}

static uint64_t ris_shuffle(uint64_t index, const uint32_t key[3],
                            uint64_t max_index, int rounds) {
  uint64_t rk[64], z, c, v;
  int block, w, i;
  long tries;
  if (max_index == 0) return 0;
  block = (int)ceil(log2((double)max_index));
  block = block + block % 2;
  if (block < 16) block = 16;
  if (block > 62) block = 64;
  w = block / 2;
  c = 0xfffffffcull & ris_mask(w);
  z = 0x7369f885192c0ef5ull & ris_mask(w);
  for (i = 0; i < 3 && i < rounds; i++) rk[i] = key[i] & ris_mask(w);
  for (i = 3; i < rounds; i++) {
    rk[i] = c ^ (z & 1u) ^ rk[i - 3] ^ ris_rotr(rk[i - 1], 3, w) ^
            ris_rotr(rk[i - 1], 4, w);
    z >>= 1;
  }
  v = index;
  /* A permutation of the 2^block values: walking from an index <= 2^block
   * returns within 2^block steps; the cap only guards inputs above it. */
  for (tries = 0; tries < (1L << 22); tries++) {
    uint64_t left = (w >= 64 ? 0 : (v >> w)) & ris_mask(w);
    uint64_t right = v & ris_mask(w);
    for (i = 0; i + 1 < rounds; i += 2) {
      left ^= ris_f(right, w);
      left ^= rk[i];
      right ^= ris_f(left, w);
      right ^= rk[i + 1];
    }
    v = (w >= 64 ? 0 : (left << w)) | right;
    if (v <= max_index) return v;
  }
  return v;
}

static uint64_t ris_get(const TF_Tensor* t, int64_t i) {
  return (uint64_t)kutil_get_int(t, i);
}

static void random_index_shuffle_compute(tfe_kernel_context* k) {
  const TF_Tensor* index_t = k->inputs[0];
  const TF_Tensor* seed_t = k->inputs[1];
  const TF_Tensor* max_t = k->inputs[2];
  int64_t rounds = 4, n, i, nseed;
  int all_scalar;
  TF_Tensor* out;
  kutil_shape_buf b;
  if (k->attrs != NULL) tfe_attrs_get_int(k->attrs, "rounds", &rounds, NULL);
  /* TF documents an even number of rounds >= 4; other counts give
   * numbers tfe cannot reproduce (TF reads past its round keys). */
  if (rounds < 4 || rounds % 2 != 0 || rounds > 64) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "RandomIndexShuffle: tfe supports an even number of rounds "
               "from 4 to 64, got %lld",
               (long long)rounds);
    return;
  }
  all_scalar = index_t->num_dims == 0 && seed_t->num_dims == 1 &&
               max_t->num_dims == 0;
  nseed = kutil_num_elements(seed_t) / 3;
  n = kutil_num_elements(index_t);
  if (kutil_num_elements(max_t) > n) n = kutil_num_elements(max_t);
  if (nseed > n) n = nseed;
  if (!(index_t->num_dims == 0 ||
        (index_t->num_dims == 1 && index_t->dims[0] == n))) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Index bust be a scalar or vector.");
    return;
  }
  if (!((seed_t->num_dims == 1 && seed_t->dims[0] == 3) ||
        (seed_t->num_dims == 2 && seed_t->dims[0] == n &&
         seed_t->dims[1] == 3))) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Seed must be a vector of size [3] or a matrix of size [%lld, "
               "3] but got %s.",
               (long long)n, kutil_tshape(seed_t, &b));
    return;
  }
  if (!(max_t->num_dims == 0 || (max_t->num_dims == 1 && max_t->dims[0] == n))) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Maxval must be a scalar or a vector of the same size as index "
               "but got %s",
               kutil_tshape(max_t, &b));
    return;
  }
  if (all_scalar) {
    out = tfe_kernel_alloc_output(k, 0, index_t->dtype, NULL, 0);
  } else {
    out = tfe_kernel_alloc_output(k, 0, index_t->dtype, &n, 1);
  }
  if (out == NULL) return;
  for (i = 0; i < n; i++) {
    uint64_t idx = ris_get(index_t, index_t->num_dims ? i : 0);
    uint64_t mx = ris_get(max_t, max_t->num_dims ? i : 0);
    int64_t row = seed_t->num_dims == 1 ? 0 : i;
    uint32_t key[3];
    uint64_t r;
    key[0] = (uint32_t)ris_get(seed_t, 3 * row);
    key[1] = (uint32_t)ris_get(seed_t, 3 * row + 1);
    key[2] = (uint32_t)ris_get(seed_t, 3 * row + 2);
    if (mx < idx) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "max_index must be >= index, but %llu < %llu",
                 (unsigned long long)mx, (unsigned long long)idx);
      return;
    }
    r = ris_shuffle(idx, key, mx, (int)rounds);
    if (index_t->dtype == TF_INT32 || index_t->dtype == TF_UINT32) {
      ((uint32_t*)kutil_data(out))[i] = (uint32_t)r;
    } else {
      ((uint64_t*)kutil_data(out))[i] = r;
    }
  }
}

/* ---- candidate samplers ----
 * TF's RangeSampler family on SimplePhilox (32-bit words one at a time):
 * Uniform draws Uniform64(range) (rejection of the low remainder), LogUniform
 * exp(u * log1p(range)) - 1, All returns 0..n-1. With `unique`, draws that
 * repeat are rejected and the expected counts become 1 - (1 - p)^tries. The
 * kernel reserves 2048 32-bit words per sampled candidate per call. */

enum {
  CS_UNIFORM = 0,
  CS_LOG_UNIFORM = 1,
  CS_ALL = 2,
  CS_UNIGRAM = 3,
  CS_FIXED = 4
};

/* FixedUnigramCandidateSampler's per-kernel state: the generator (first)
 * and TF's FixedUnigramSampler: the weights (reserved ids 0, then the
 * vocabulary's or the unigrams' weights ^ distortion, keeping this shard's
 * ids) and Walker's alias table over them (TF's DistributionSampler). */
typedef struct cs_fixed_state {
  rd_guarded base;
  int n;
  float* weights;
  float total;
  float* prob;
  int* alt;
} cs_fixed_state;

static void cs_fixed_destroy(void* state, void* user_data) {
  cs_fixed_state* st = (cs_fixed_state*)state;
  (void)user_data;
  if (st == NULL) return;
  tfe_free(st->weights);
  tfe_free(st->prob);
  tfe_free(st->alt);
  pthread_mutex_destroy(&st->base.mu);
  tfe_free(st);
}

/* Appends weight w (already distorted) for word id `id` if it is this
 * shard's. */
static int cs_fixed_push(cs_fixed_state* st, int* cap, float w) {
  if (st->n == *cap) {
    int nc = *cap ? *cap * 2 : 64;
    float* nw = (float*)tfe_realloc(st->weights, sizeof(float) * (size_t)nc);
    if (nw == NULL) return 0;
    st->weights = nw;
    *cap = nc;
  }
  st->weights[st->n++] = w;
  return 1;
}

/* Parses a float the way TF's safe_strtof does (surrounding blanks
 * allowed, nothing else). */
static int cs_parse_float(const char* s, size_t len, float* out) {
  char buf[128];
  char* end;
  size_t a = 0, b = len;
  while (a < b && (s[a] == ' ' || s[a] == '\t')) a++;
  while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t')) b--;
  if (b == a || b - a >= sizeof buf) return 0;
  memcpy(buf, s + a, b - a);
  buf[b - a] = '\0';
  *out = strtof(buf, &end);
  return *end == '\0';
}

static void* cs_fixed_create(const tfe_op_def* def, const tfe_attrs* attrs,
                             void* user_data, TF_Status* status) {
  cs_fixed_state* st;
  rd_guarded* g;
  int64_t range = 0, reserved = 0, shards = 1, shard = 0, word = 0;
  float distortion = 1.0f;
  const char* vocab = "";
  size_t vocab_len = 0;
  const tfe_attr_value* ug = NULL;
  int cap = 0, nug = 0, i;
  int64_t* low = NULL;
  int64_t* high = NULL;
  double* pr = NULL;
  double sum = 0;
  int64_t nl = 0, nh = 0;
  if (attrs != NULL) {
    tfe_attrs_get_int(attrs, "range_max", &range, NULL);
    tfe_attrs_get_int(attrs, "num_reserved_ids", &reserved, NULL);
    tfe_attrs_get_int(attrs, "num_shards", &shards, NULL);
    tfe_attrs_get_int(attrs, "shard", &shard, NULL);
    tfe_attrs_get_float(attrs, "distortion", &distortion, NULL);
    if (!tfe_attrs_get_string(attrs, "vocab_file", &vocab, &vocab_len, NULL)) {
      vocab = "";
      vocab_len = 0;
    }
    ug = tfe_attrs_find(attrs, "unigrams");
  }
  if (ug != NULL && ug->is_list) nug = ug->list_size;
  if (vocab_len == 0 && nug == 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Must provide either vocab_file or unigrams.");
    return NULL;
  }
  if (vocab_len != 0 && nug != 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Must only provide one of vocab_file and unigrams.");
    return NULL;
  }
  if (shards < 1) shards = 1;
  g = (rd_guarded*)rd_guarded_create(def, attrs, user_data, status);
  if (g == NULL) return NULL;
  st = (cs_fixed_state*)tfe_calloc(1, sizeof *st);
  if (st == NULL) {
    rd_guarded_destroy(g, NULL);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory creating a candidate sampler");
    return NULL;
  }
  st->base.gen = g->gen;
  rd_guarded_destroy(g, NULL);
  pthread_mutex_init(&st->base.mu, NULL);
  if (reserved > shard && shard < shards &&
      (reserved - shard + shards - 1) / shards > range) {
    /* more reserved ids than the range: the size check below would fail */
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "range is %lld must be equal to weights size  %lld",
                    (long long)range,
                    (long long)((reserved - shard + shards - 1) / shards));
    goto fail;
  }
  for (word = 0; word < reserved && word < INT32_MAX; word++) {
    if (word % shards == shard && !cs_fixed_push(st, &cap, 0.0f)) goto oom;
  }
  word = st->n;
  if (nug != 0) {
    for (i = 0; i < nug; i++, word++) {
      if (word % shards == shard) {
        float w = powf(ug->list.f[i], distortion);
        st->total += w;
        if (!cs_fixed_push(st, &cap, w)) goto oom;
      }
    }
  } else {
    char path[4096];
    tfe_raf* f;
    char* buf = NULL;
    size_t len = 0, bcap = 0, pos = 0;
    if (vocab_len >= sizeof path) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT, "vocab_file name too long");
      goto fail;
    }
    memcpy(path, vocab, vocab_len);
    path[vocab_len] = '\0';
    f = tfe_fs_open_raf(path, status);
    if (f == NULL) goto fail;
    for (;;) {
      int64_t got;
      if (bcap - len < 65536) {
        size_t nc = bcap ? bcap * 2 : 65536;
        char* nb = (char*)tfe_realloc(buf, nc);
        if (nb == NULL) {
          tfe_free(buf);
          tfe_fs_raf_release(f);
          goto oom;
        }
        buf = nb;
        bcap = nc;
      }
      got = tfe_fs_raf_read(f, (uint64_t)len, bcap - len, buf + len, status);
      if (got > 0) len += (size_t)got;
      if (TF_GetCode(status) == TF_OUT_OF_RANGE) break;
      if (TF_GetCode(status) != TF_OK) {
        tfe_free(buf);
        tfe_fs_raf_release(f);
        goto fail;
      }
      if (got == 0) break;
    }
    tfe_fs_raf_release(f);
    TF_SetStatus(status, TF_OK, "");
    while (pos < len) {
      size_t e = pos, ll, c;
      float w = 0;
      while (e < len && buf[e] != '\n') e++;
      ll = e - pos;
      if (ll > 0 && buf[pos + ll - 1] == '\r') ll--;
      if (word % shards == shard) {
        c = ll;
        while (c > 0 && buf[pos + c - 1] != ',') c--;
        if (!cs_parse_float(buf + pos + c, ll - c, &w)) {
          tfe_status_setf(status, TF_INVALID_ARGUMENT,
                          "Wrong vocabulary format at line: %.*s", (int)ll,
                          buf + pos);
          tfe_free(buf);
          goto fail;
        }
        w = powf(w, distortion);
        st->total += w;
        if (!cs_fixed_push(st, &cap, w)) {
          tfe_free(buf);
          goto oom;
        }
      }
      word++;
      pos = e + 1;
    }
    tfe_free(buf);
  }
  if (range != st->n) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "range is %lld must be equal to weights size  %d",
                    (long long)range, st->n);
    goto fail;
  }
  /* Walker's alias table, paired from the back of the low/high lists. */
  st->prob = (float*)tfe_malloc(sizeof(float) * (size_t)st->n);
  st->alt = (int*)tfe_malloc(sizeof(int) * (size_t)st->n);
  pr = (double*)tfe_malloc(sizeof(double) * (size_t)st->n);
  low = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)st->n);
  high = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)st->n);
  if (st->prob == NULL || st->alt == NULL || pr == NULL || low == NULL ||
      high == NULL) {
    goto oom;
  }
  for (i = 0; i < st->n; i++) {
    sum += st->weights[i];
    st->alt[i] = -1;
  }
  for (i = 0; i < st->n; i++) {
    double p = (double)(st->weights[i] * (float)st->n) / sum;
    pr[i] = p;
    if (p < 1.0) {
      low[nl++] = i;
    } else {
      high[nh++] = i;
    }
  }
  while (nh > 0 && nl > 0) {
    int64_t l = low[--nl], h = high[--nh];
    double rem;
    st->alt[l] = (int)h;
    rem = pr[h] - (1.0 - pr[l]);
    pr[h] = rem;
    if (rem < 1.0) {
      low[nl++] = h;
    } else {
      high[nh++] = h;
    }
  }
  for (i = 0; i < st->n; i++) st->prob[i] = (float)pr[i];
  for (i = 0; i < nh; i++) {
    st->prob[high[i]] = 1.0f;
    st->alt[high[i]] = (int)high[i];
  }
  for (i = 0; i < nl; i++) {
    st->prob[low[i]] = 1.0f;
    st->alt[low[i]] = (int)low[i];
  }
  tfe_free(pr);
  tfe_free(low);
  tfe_free(high);
  return st;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "out of memory creating a candidate sampler");
fail:
  tfe_free(pr);
  tfe_free(low);
  tfe_free(high);
  cs_fixed_destroy(st, NULL);
  return NULL;
}

/* The learned unigram samplers' per-kernel state: the generator (first, so
 * rd_reserve sees an rd_guarded) and TF's WeightedPicker, a complete
 * binary tree of int32 weight sums over `n` leaves, all weights 1 at the
 * start and each true class seen adding 1 to its weight. */
typedef struct cs_picker_state {
  rd_guarded base;
  int n;
  int levels;
  int32_t** level; /* level[l] has 1 << l nodes; level[levels-1] leaves */
} cs_picker_state;

static void cs_picker_destroy(void* state, void* user_data) {
  cs_picker_state* st = (cs_picker_state*)state;
  int l;
  (void)user_data;
  if (st == NULL) return;
  if (st->level != NULL) {
    for (l = 0; l < st->levels; l++) tfe_free(st->level[l]);
    tfe_free(st->level);
  }
  pthread_mutex_destroy(&st->base.mu);
  tfe_free(st);
}

static void* cs_picker_create(const tfe_op_def* def, const tfe_attrs* attrs,
                              void* user_data, TF_Status* status) {
  cs_picker_state* st;
  rd_guarded* g;
  int64_t range = 0;
  int l, i;
  if (attrs != NULL) tfe_attrs_get_int(attrs, "range_max", &range, NULL);
  if (range <= 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "range_max must be positive");
    return NULL;
  }
  if (range >= INT32_MAX) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "range_max must be less than 2147483647 for unigram "
                    "samplers, got %lld",
                    (long long)range);
    return NULL;
  }
  g = (rd_guarded*)rd_guarded_create(def, attrs, user_data, status);
  if (g == NULL) return NULL;
  st = (cs_picker_state*)tfe_calloc(1, sizeof *st);
  if (st == NULL) {
    rd_guarded_destroy(g, NULL);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory creating a candidate sampler");
    return NULL;
  }
  st->base.gen = g->gen;
  rd_guarded_destroy(g, NULL);
  pthread_mutex_init(&st->base.mu, NULL);
  st->n = (int)range;
  st->levels = 1;
  while (((int64_t)1 << (st->levels - 1)) < range) st->levels++;
  st->level = (int32_t**)tfe_calloc((size_t)st->levels, sizeof(int32_t*));
  if (st->level == NULL) goto oom;
  for (l = 0; l < st->levels; l++) {
    st->level[l] = (int32_t*)tfe_calloc((size_t)1 << l, sizeof(int32_t));
    if (st->level[l] == NULL) goto oom;
  }
  for (i = 0; i < st->n; i++) st->level[st->levels - 1][i] = 1;
  for (l = st->levels - 2; l >= 0; l--) {
    for (i = 0; i < (1 << l); i++) {
      st->level[l][i] = st->level[l + 1][2 * i] + st->level[l + 1][2 * i + 1];
    }
  }
  return st;
oom:
  cs_picker_destroy(st, NULL);
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "out of memory creating a candidate sampler");
  return NULL;
}

static int32_t cs_picker_total(const cs_picker_state* st) {
  return st->level[0][0];
}

typedef struct cs_rng {
  rd_px* g;
  uint32_t buf[4];
  int used;
} cs_rng;

static uint32_t cs_rand32(cs_rng* r) {
  if (r->used == 4) {
    rd_next(r->g, r->buf);
    r->used = 0;
  }
  return r->buf[r->used++];
}

static uint64_t cs_rand64(cs_rng* r) {
  uint32_t lo = cs_rand32(r), hi = cs_rand32(r);
  return (uint64_t)lo | ((uint64_t)hi << 32);
}

static uint64_t cs_uniform64(cs_rng* r, uint64_t n) {
  uint64_t rem, v;
  if (n == 0) return 0;
  if ((n & (n - 1)) == 0) return cs_rand64(r) & (n - 1);
  rem = (~(uint64_t)0 % n) + 1;
  do {
    v = cs_rand64(r);
  } while (v < rem);
  return v % n;
}

/* TF's UnbiasedUniform over 32-bit words. */
static int32_t cs_uniform32(cs_rng* r, int32_t n) {
  uint32_t rem, v;
  if (n == 0) return 0;
  if ((n & (n - 1)) == 0) return (int32_t)(cs_rand32(r) & (uint32_t)(n - 1));
  rem = (0xffffffffu % (uint32_t)n) + 1;
  do {
    v = cs_rand32(r);
  } while (v < rem);
  return (int32_t)(v % (uint32_t)n);
}

static int64_t cs_pick(const cs_picker_state* st, cs_rng* r) {
  int32_t pos, left;
  int index = 0, l;
  if (cs_picker_total(st) == 0) return -1;
  pos = cs_uniform32(r, cs_picker_total(st));
  for (l = 1; l < st->levels; l++) {
    left = st->level[l][2 * index];
    if (pos < left) {
      index = 2 * index;
    } else {
      index = 2 * index + 1;
      pos -= left;
    }
  }
  return index;
}

static int64_t cs_sample(int kind, int64_t range, const void* pk,
                         cs_rng* r) {
  if (kind == CS_UNIFORM) return (int64_t)cs_uniform64(r, (uint64_t)range);
  if (kind == CS_UNIGRAM) return cs_pick((const cs_picker_state*)pk, r);
  if (kind == CS_FIXED) {
    const cs_fixed_state* fs = (const cs_fixed_state*)pk;
    uint32_t bits = (127u << 23) | (cs_rand32(r) & 0x7fffffu);
    float u;
    int32_t idx;
    memcpy(&u, &bits, 4);
    u -= 1.0f;
    idx = cs_uniform32(r, fs->n);
    return u < fs->prob[idx] ? idx : fs->alt[idx];
  }
  {
    uint32_t x0 = cs_rand32(r), x1 = cs_rand32(r);
    double e = exp(rd_w2d(x0, x1) * log1p((double)range));
    int64_t v = (e < 9.2e18) ? (int64_t)e - 1 : INT64_MAX;
    return v % range;
  }
}

static float cs_probability(int kind, int64_t range, const void* pk,
                            int64_t v) {
  if (kind == CS_UNIFORM) return (float)(1.0 / (double)range);
  if (kind == CS_FIXED) {
    const cs_fixed_state* fs = (const cs_fixed_state*)pk;
    if (v < 0 || v >= fs->n) return 0.0f;
    return fs->weights[v] / fs->total;
  }
  if (kind == CS_UNIGRAM) {
    const cs_picker_state* st = (const cs_picker_state*)pk;
    int32_t w = (v >= 0 && v < st->n) ? st->level[st->levels - 1][v] : 0;
    return (float)w / (float)cs_picker_total(st);
  }
  return (float)(log((v + 2.0) / (v + 1.0)) / log1p((double)range));
}

static float cs_expected(float p, int batch, int tries) {
  if (tries == batch) return p * (float)batch;
  return -expm1f((float)tries * log1pf(-p));
}

/* Open-addressing set of int64 values (the unique draws). */
typedef struct cs_set {
  int64_t* v;
  unsigned char* used;
  uint64_t cap;
} cs_set;

static int cs_set_insert(cs_set* s, int64_t x) {
  uint64_t h = ((uint64_t)x * 0x9E3779B97F4A7C15ull) & (s->cap - 1);
  while (s->used[h]) {
    if (s->v[h] == x) return 0;
    h = (h + 1) & (s->cap - 1);
  }
  s->used[h] = 1;
  s->v[h] = x;
  return 1;
}

static void candidate_sampler_common(tfe_kernel_context* k, int kind) {
  const TF_Tensor* tc = k->inputs[0];
  int32_t num_true = 0, num_sampled = 0;
  int unique, batch, i, tries;
  int64_t range = 0, od[2], n;
  TF_Tensor *cand, *true_exp, *samp_exp;
  int64_t* cv;
  const int64_t* tv;
  rd_px g;
  cs_rng r;
  cs_picker_state* pk = NULL;
  const cs_fixed_state* fx = NULL;
  if (!kutil_attr_int32(k, "num_true", 1, &num_true)) return;
  if (!kutil_attr_int32(k, "num_sampled", 1, &num_sampled)) return;
  unique = kutil_attr_bool(k, "unique", 0);
  if (kind == CS_ALL) {
    range = num_sampled;
  } else {
    range = kutil_attr_int64(k, "range_max", 0);
    if (range <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "range_max must be positive");
      return;
    }
  }
  if (tc->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "true_classes must be a matrix");
    return;
  }
  if (tc->dims[1] != num_true) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "true_classes must have num_true columns, expected: %lld was: "
               "%d",
               (long long)tc->dims[1], num_true);
    return;
  }
  if (tc->dims[0] > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "true_classes has too many rows");
    return;
  }
  batch = (int)tc->dims[0];
  if (unique && num_sampled > range) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sampler's range is too small.");
    return;
  }
  od[0] = num_sampled;
  cand = tfe_kernel_alloc_output(k, 0, TF_INT64, od, 1);
  if (cand == NULL) return;
  od[0] = batch;
  od[1] = num_true;
  true_exp = tfe_kernel_alloc_output(k, 1, TF_FLOAT, od, 2);
  if (true_exp == NULL) return;
  od[0] = num_sampled;
  samp_exp = tfe_kernel_alloc_output(k, 2, TF_FLOAT, od, 1);
  if (samp_exp == NULL) return;
  tv = (const int64_t*)kutil_data(tc);
  n = kutil_num_elements(tc);
  for (i = 0; i < n; i++) {
    if (tv[i] < 0 || tv[i] >= range) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "`true_candidate` out of range [0, %lld), received %lld",
                 (long long)range, (long long)tv[i]);
      return;
    }
  }
  cv = (int64_t*)kutil_data(cand);
  if (kind == CS_ALL) {
    for (i = 0; i < num_sampled; i++) {
      cv[i] = i;
      ((float*)kutil_data(samp_exp))[i] = 1;
    }
    for (i = 0; i < n; i++) ((float*)kutil_data(true_exp))[i] = 1;
    if (!rd_reserve(k, ((uint64_t)2048u * (uint64_t)num_sampled + 3) / 4u, &g)) {
      return;
    }
    return;
  }
  if (!rd_reserve(k, ((uint64_t)2048u * (uint64_t)num_sampled + 3) / 4u, &g)) {
    return;
  }
  r.g = &g;
  r.used = 4;
  if (kind == CS_UNIGRAM || kind == CS_FIXED) {
    if (k->state == NULL) {
      KUTIL_FAIL(k, TF_INTERNAL, "unigram candidate sampler without state");
      return;
    }
    if (kind == CS_UNIGRAM) {
      pk = (cs_picker_state*)k->state;
      pthread_mutex_lock(&pk->base.mu);
    } else {
      fx = (const cs_fixed_state*)k->state;
    }
  }
  if (unique) {
    cs_set set;
    int picked = 0;
    set.cap = 16;
    while (set.cap < (uint64_t)num_sampled * 2u) set.cap <<= 1;
    set.v = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)set.cap);
    set.used = (unsigned char*)tfe_calloc((size_t)set.cap, 1);
    if (set.v == NULL || set.used == NULL) {
      tfe_free(set.v);
      tfe_free(set.used);
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in candidate sampler");
      goto unlock;
    }
    tries = 0;
    while (picked < num_sampled) {
      int64_t v;
      if (tries == INT32_MAX - 1) {
        tfe_free(set.v);
        tfe_free(set.used);
        KUTIL_FAIL(k, TF_INTERNAL, "candidate sampler: too many tries");
        goto unlock;
      }
      tries++;
      v = cs_sample(kind, range, pk != NULL ? (const void*)pk : (const void*)fx, &r);
      if (cs_set_insert(&set, v)) cv[picked++] = v;
    }
    tfe_free(set.v);
    tfe_free(set.used);
  } else {
    for (i = 0; i < num_sampled; i++) {
      cv[i] = cs_sample(kind, range,
                        pk != NULL ? (const void*)pk : (const void*)fx, &r);
    }
    tries = num_sampled;
  }
  for (i = 0; i < num_sampled; i++) {
    ((float*)kutil_data(samp_exp))[i] =
        cs_expected(cs_probability(kind, range,
                                   pk != NULL ? (const void*)pk : (const void*)fx,
                                   cv[i]),
                    num_sampled, tries);
  }
  for (i = 0; i < n; i++) {
    ((float*)kutil_data(true_exp))[i] =
        cs_expected(cs_probability(kind, range,
                                   pk != NULL ? (const void*)pk : (const void*)fx,
                                   tv[i]),
                    num_sampled, tries);
  }
  if (pk != NULL) {
    /* TF's Update: each true class adds 1 to its weight, while the total
     * stays below INT32_MAX. */
    int64_t room = (int64_t)INT32_MAX - cs_picker_total(pk), u;
    int64_t nu = n < room ? n : room;
    for (u = 0; u < nu; u++) {
      int idx = (int)tv[u], l;
      for (l = pk->levels - 1; l >= 0; l--) {
        pk->level[l][idx] += 1;
        idx >>= 1;
      }
    }
  }
unlock:
  if (pk != NULL) pthread_mutex_unlock(&pk->base.mu);
}

static void uniform_candidate_sampler_compute(tfe_kernel_context* k) {
  candidate_sampler_common(k, CS_UNIFORM);
}
static void log_uniform_candidate_sampler_compute(tfe_kernel_context* k) {
  candidate_sampler_common(k, CS_LOG_UNIFORM);
}
static void all_candidate_sampler_compute(tfe_kernel_context* k) {
  candidate_sampler_common(k, CS_ALL);
}
static void unigram_candidate_sampler_compute(tfe_kernel_context* k) {
  candidate_sampler_common(k, CS_UNIGRAM);
}
static void fixed_candidate_sampler_compute(tfe_kernel_context* k) {
  candidate_sampler_common(k, CS_FIXED);
}

/* ComputeAccidentalHits: (row, position in sampled, -FLT_MAX) for every true
 * class found among the sampled candidates (the last position of a repeated
 * candidate). */
static void compute_accidental_hits_compute(tfe_kernel_context* k) {
  const TF_Tensor* tc = k->inputs[0];
  const TF_Tensor* sc = k->inputs[1];
  int64_t num_true = kutil_attr_int64(k, "num_true", 0), ns, b, i, j, hits = 0;
  int64_t* pos = NULL;
  TF_Tensor *oi, *oid, *ow;
  const int64_t *tv, *sv;
  if (tc->num_dims != 2 || tc->dims[1] != num_true) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "true_candidates must be a batch_size * num_true matrix");
    return;
  }
  if (sc->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "sampled_candidates must be a vector, which is typically an "
               "output from CandidateSampler");
    return;
  }
  ns = sc->dims[0];
  b = tc->dims[0];
  tv = (const int64_t*)kutil_data(tc);
  sv = (const int64_t*)kutil_data(sc);
  pos = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(b * num_true + 1));
  if (pos == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ComputeAccidentalHits");
    return;
  }
  /* For each true class, the last sampled position holding it (or -1). */
  for (i = 0; i < b * num_true; i++) {
    pos[i] = -1;
    for (j = ns - 1; j >= 0; j--) {
      if (sv[j] == tv[i]) {
        pos[i] = j;
        break;
      }
    }
    if (pos[i] >= 0) hits++;
  }
  oi = tfe_kernel_alloc_output(k, 0, TF_INT32, &hits, 1);
  oid = oi != NULL ? tfe_kernel_alloc_output(k, 1, TF_INT64, &hits, 1) : NULL;
  ow = oid != NULL ? tfe_kernel_alloc_output(k, 2, TF_FLOAT, &hits, 1) : NULL;
  if (ow != NULL) {
    int64_t h = 0;
    for (i = 0; i < b * num_true; i++) {
      if (pos[i] < 0) continue;
      ((int32_t*)kutil_data(oi))[h] = (int32_t)(i / num_true);
      ((int64_t*)kutil_data(oid))[h] = pos[i];
      ((float*)kutil_data(ow))[h] = -3.40282346638528859812e+38f;
      h++;
    }
  }
  tfe_free(pos);
}

/* ---- resource state (Generator) ---- */

/* Locks the RNG state variable of handle input 0 and checks it (TF's
 * CheckState / CheckPhiloxState); on success returns the variable locked
 * with an exclusive value buffer. */
static tfe_resource* rd_lock_state(tfe_kernel_context* k, int64_t alg,
                                   int64_t skip) {
  tfe_resource* r = tfe_var_from_handle(k->inputs[0], k->status);
  if (r == NULL) return NULL;
  pthread_mutex_lock(&r->mu);
  if (r->value == NULL) {
    tfe_var_set_missing_error(r, 0, k->status);
    goto fail;
  }
  if (r->value->dtype != TF_INT64) {
    const char* n = tfe_dtype_short_name(r->value->dtype);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "dtype of RNG state variable must be int64, not %s",
               n != NULL ? n : "unknown");
    goto fail;
  }
  if (r->value->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "RNG state must have one and only one dimension, not %d",
               r->value->num_dims);
    goto fail;
  }
  if (skip == 1) {
    if (kutil_num_elements(r->value) < 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Size of tensor must be at least 1");
      goto fail;
    }
    alg = ((const int64_t*)kutil_data(r->value))[0];
  }
  if (alg != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Unsupported algorithm id: %lld",
               (long long)alg);
    goto fail;
  }
  if (kutil_num_elements(r->value) < skip + 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "For the Philox algorithm, the size of state must be at least "
               "%lld; got %lld",
               (long long)(skip + 3),
               (long long)kutil_num_elements(r->value));
    goto fail;
  }
  if (!tfe_var_prepare_update(r, k->status)) goto fail;
  return r;
fail:
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
  return NULL;
}

static void rd_unlock_state(tfe_resource* r) {
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
}

/* Scalar input i of dtype dt (TF's GetScalar). */
static int rd_scalar(tfe_kernel_context* k, int i, TF_DataType dt,
                     int64_t* out) {
  const TF_Tensor* t = k->inputs[i];
  kutil_shape_buf b;
  if (t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input %d (0-based) must have shape [], not %s", i,
               kutil_tshape(t, &b));
    return 0;
  }
  if (t->dtype != dt) {
    const char* want = tfe_dtype_short_name(dt);
    const char* got = tfe_dtype_short_name(t->dtype);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "dtype of input %d (0-based) must be %s, not %s", i,
               want != NULL ? want : "unknown", got != NULL ? got : "unknown");
    return 0;
  }
  *out = kutil_get_int(t, 0);
  return 1;
}

/* Reads the Philox generator of the state (after `skip` tag words) and
 * moves the state's counter on by out_size * 256 blocks. */
static void rd_state_take(tfe_resource* r, int64_t skip, uint64_t out_size,
                          rd_px* base) {
  int64_t* s = (int64_t*)kutil_data(r->value) + skip;
  rd_px next;
  rd_from_state(base, s);
  next = *base;
  rd_skip(&next, out_size * 256u);
  rd_counter_to_state(&next, s);
}

static void rng_read_and_skip_compute(tfe_kernel_context* k) {
  int64_t alg = 0, delta = 0, three = 3, n, i;
  tfe_resource* r;
  TF_Tensor* out;
  rd_px g;
  if (!rd_scalar(k, 1, TF_INT32, &alg)) return;
  if (!rd_scalar(k, 2, TF_UINT64, &delta)) return;
  if (alg == 3) alg = 1;
  if (alg == 2) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Non-XLA devices don't support the ThreeFry algorithm.");
    return;
  }
  r = rd_lock_state(k, alg, 0);
  if (r == NULL) return;
  out = tfe_kernel_alloc_output(k, 0, TF_INT64, &three, 1);
  if (out != NULL) {
    const int64_t* s = (const int64_t*)kutil_data(r->value);
    int64_t* o = (int64_t*)kutil_data(out);
    n = kutil_num_elements(r->value);
    for (i = 0; i < 3; i++) o[i] = i < n ? s[i] : 0;
    rd_state_take(r, 0, (uint64_t)delta, &g);
  }
  rd_unlock_state(r);
}

static void rng_skip_compute(tfe_kernel_context* k) {
  int64_t alg = 0, delta = 0;
  tfe_resource* r;
  rd_px g;
  if (!rd_scalar(k, 1, TF_INT64, &alg)) return;
  if (!rd_scalar(k, 2, TF_INT64, &delta)) return;
  if (alg == 3) alg = 1; /* auto-select is Philox on CPU, as in TF */
  r = rd_lock_state(k, alg, 0);
  if (r == NULL) return;
  rd_state_take(r, 0, (uint64_t)delta, &g);
  rd_unlock_state(r);
}

/* StatefulUniform & co: kind is a TFE_RND_* distribution. */
static void stateful_v2_common(tfe_kernel_context* k, int kind, int skip) {
  int64_t alg = 1, dims[TFE_MAX_DIMS], lo = 0, hi = 0;
  int nd = 0, shape_i = skip == 1 ? 1 : 2;
  TF_DataType dt = rd_attr_type(k, "dtype", TF_FLOAT);
  tfe_resource* r;
  TF_Tensor* out;
  rd_px g;
  kutil_shape_buf b;
  if (skip == 0 && !rd_scalar(k, 1, TF_INT64, &alg)) return;
  if (alg == 3) alg = 1; /* auto-select is Philox on CPU, as in TF */
  if (kind == TFE_RND_INT) {
    const TF_Tensor* mn = k->inputs[3];
    const TF_Tensor* mx = k->inputs[4];
    if (mn->num_dims != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "minval must be 0-D, got shape %s",
                 kutil_tshape(mn, &b));
      return;
    }
    if (mx->num_dims != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "maxval must be 0-D, got shape %s",
                 kutil_tshape(mx, &b));
      return;
    }
    if (dt == TF_UINT32 || dt == TF_UINT64) {
      uint64_t ulo = (uint64_t)kutil_get_int(mn, 0);
      uint64_t uhi = (uint64_t)kutil_get_int(mx, 0);
      if (!(ulo < uhi)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Need minval < maxval, got %llu >= %llu",
                   (unsigned long long)ulo, (unsigned long long)uhi);
        return;
      }
    }
    lo = kutil_get_int(mn, 0);
    hi = kutil_get_int(mx, 0);
    if (dt != TF_UINT32 && dt != TF_UINT64 && !(lo < hi)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Need minval < maxval, got %lld >= %lld",
                 (long long)lo, (long long)hi);
      return;
    }
  }
  if (!rd_read_shape(k, k->inputs[shape_i], dims, &nd)) return;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, nd);
  if (out == NULL) return;
  r = rd_lock_state(k, alg, skip);
  if (r == NULL) return;
  rd_state_take(r, skip, (uint64_t)kutil_num_elements(out), &g);
  rd_unlock_state(r);
  {
    uint64_t range = (uint64_t)hi - (uint64_t)lo;
    if (dt == TF_INT32 || dt == TF_UINT32) range &= 0xffffffffu;
    tfe_random_fill(kind, (uint64_t)lo, range, g.key, g.ctr, out);
  }
}

static void stateful_uniform_compute(tfe_kernel_context* k) {
  stateful_v2_common(k, TFE_RND_UNIFORM, 0);
}
static void stateful_normal_v2_compute(tfe_kernel_context* k) {
  stateful_v2_common(k, TFE_RND_NORMAL, 0);
}
static void stateful_normal_v1_compute(tfe_kernel_context* k) {
  stateful_v2_common(k, TFE_RND_NORMAL, 1);
}
static void stateful_truncated_compute(tfe_kernel_context* k) {
  stateful_v2_common(k, TFE_RND_TRUNC, 0);
}
static void stateful_int_compute(tfe_kernel_context* k) {
  stateful_v2_common(k, TFE_RND_INT, 0);
}
static void stateful_full_int_compute(tfe_kernel_context* k) {
  stateful_v2_common(k, TFE_RND_FULLINT, 0);
}

static void stateful_binomial_compute(tfe_kernel_context* k) {
  int64_t dims[TFE_MAX_DIMS];
  int nd = 0;
  rd_binom_job j;
  TF_Tensor* out;
  tfe_resource* r;
  rd_px g;
  kutil_shape_buf b;
  const TF_Tensor* alg_t = k->inputs[1];
  int64_t alg;
  if (!rd_binom_setup(k, k->inputs[2], k->inputs[3], k->inputs[4], &j, dims,
                      &nd)) {
    return;
  }
  if (alg_t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "algorithm must be of shape [], not %s",
               kutil_tshape(alg_t, &b));
    return;
  }
  alg = kutil_get_int(alg_t, 0);
  out = tfe_kernel_alloc_output(k, 0, rd_attr_type(k, "dtype", TF_INT64), dims,
                                nd);
  if (out == NULL) return;
  r = rd_lock_state(k, alg, 0);
  if (r == NULL) return;
  {
    /* TF moves the state by this many outputs' worth (int64 arithmetic). */
    uint64_t n = (uint64_t)j.num_batches * 2u * 100u *
                 (uint64_t)(j.per_batch + 3) / 4u;
    rd_state_take(r, 0, n, &g);
  }
  rd_unlock_state(r);
  if (kutil_num_elements(out) > 0) rd_binom_fill(&j, &g, out);
}

/* ---- NonDeterministicInts ---- */

static void non_deterministic_ints_compute(tfe_kernel_context* k) {
  int64_t dims[TFE_MAX_DIMS], n, i;
  int nd = 0;
  TF_DataType dt = rd_attr_type(k, "dtype", TF_INT64);
  TF_Tensor* out;
  if (!rd_read_shape(k, k->inputs[0], dims, &nd)) return;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, nd);
  if (out == NULL) return;
  n = kutil_num_elements(out);
  for (i = 0; i < n; i++) {
    uint64_t v = rd_os_random64();
    if (dt == TF_INT32 || dt == TF_UINT32) {
      ((uint32_t*)kutil_data(out))[i] = (uint32_t)v;
    } else {
      ((uint64_t*)kutil_data(out))[i] = v;
    }
  }
}

/* ---- shuffles ---- */

/* Shuffles input 0 along dimension 0 into output 0, drawing from gen (TF's
 * RandomShuffle in shuffle_common.h). get_gen is called only when a
 * shuffle is needed, with the number of 32-bit samples it takes. */
typedef int (*rd_get_gen)(tfe_kernel_context* k, int64_t samples, rd_px* g);

static void rd_shuffle(tfe_kernel_context* k, rd_get_gen get_gen) {
  const TF_Tensor* in = k->inputs[0];
  int64_t n = kutil_num_elements(in), size, i, row;
  size_t esz = kutil_esize(in->dtype);
  rd_px g;
  uint32_t buf[4];
  int used = 4;
  TF_Tensor* out;
  int64_t* perm;
  if (in->num_dims == 0 || n <= 1 || in->dims[0] <= 1) {
    tfe_kernel_alias_input(k, 0, 0, in->dims, in->num_dims);
    return;
  }
  size = in->dims[0];
  if (!get_gen(k, size - 1, &g)) return;
  out = tfe_kernel_alloc_output(k, 0, in->dtype, in->dims, in->num_dims);
  if (out == NULL) return;
  row = n / size;
  perm = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)size);
  if (perm == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in RandomShuffle");
    return;
  }
  for (i = 0; i < size; i++) perm[i] = i;
  for (i = 0; i < size - 1; i++) {
    uint32_t w, m = (uint32_t)(size - i);
    int64_t j, t;
    if (used == 4) {
      rd_next(&g, buf);
      used = 0;
    }
    w = buf[used++];
    j = i + (int64_t)(w % m);
    t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (i = 0; i < size; i++) {
    kutil_copy(in->dtype, (char*)kutil_data(out) + (size_t)(i * row) * esz,
               (const char*)kutil_data(in) + (size_t)(perm[i] * row) * esz,
               row);
  }
  tfe_free(perm);
}

static int rd_shuffle_reserve(tfe_kernel_context* k, int64_t samples,
                              rd_px* g) {
  return rd_reserve(k, (uint64_t)(samples + 3) / 4u, g);
}

static int rd_shuffle_keyed(tfe_kernel_context* k, int64_t samples,
                            rd_px* g) {
  (void)samples;
  return rd_key_counter_alg(k, 1, g);
}

static void random_shuffle_compute(tfe_kernel_context* k) {
  rd_shuffle(k, rd_shuffle_reserve);
}

static void stateless_shuffle_compute(tfe_kernel_context* k) {
  rd_px g;
  /* The key/counter/alg inputs are checked even when nothing moves. */
  if (!rd_key_counter_alg(k, 1, &g)) return;
  rd_shuffle(k, rd_shuffle_keyed);
}

/* ---- registration ---- */

static void rd_reg(const char* op, void (*compute)(tfe_kernel_context*),
                   int guarded, const char* a1, const TF_DataType* t1, int n1,
                   const char* a2, const TF_DataType* t2, int n2) {
  tfe_kernel_reg reg;
  TF_Status* s;
  if (!guarded) {
    tfe_kutil_register(op, compute, a1, t1, n1, a2, t2, n2);
    return;
  }
  s = TF_NewStatus();
  if (s == NULL) return;
  memset(&reg, 0, sizeof reg);
  reg.op_name = op;
  reg.device_type = "CPU";
  if (a1 != NULL) {
    reg.constraints[0].attr = a1;
    reg.constraints[0].types = t1;
    reg.constraints[0].num_types = n1;
    reg.num_constraints = 1;
  }
  if (a2 != NULL) {
    reg.constraints[reg.num_constraints].attr = a2;
    reg.constraints[reg.num_constraints].types = t2;
    reg.constraints[reg.num_constraints].num_types = n2;
    reg.num_constraints++;
  }
  reg.create = rd_guarded_create;
  reg.compute = compute;
  reg.destroy = rd_guarded_destroy;
  tfe_kernel_register(&reg, s);
  TF_DeleteStatus(s);
}

void tfe_register_cpu_random_dist_kernels(void) {
  static const TF_DataType kGammaT[] = {TF_HALF, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType kFloats[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT,
                                        TF_DOUBLE};
  static const TF_DataType kNum5[] = {TF_HALF, TF_FLOAT, TF_DOUBLE, TF_INT32,
                                      TF_INT64};
  static const TF_DataType kAllInt[] = {TF_INT32, TF_INT64, TF_UINT32,
                                        TF_UINT64};
  static const TF_DataType kShuffle[] = {KUTIL_POD_TYPES, TF_STRING,
                                         KUTIL_QUANTIZED_TYPES};
  rd_reg("RandomGamma", random_gamma_compute, 1, "T", kGammaT, 3, NULL, NULL,
         0);
  rd_reg("StatelessRandomGammaV2", stateless_gamma_v2_compute, 0, "dtype",
         kGammaT, 3, NULL, NULL, 0);
  rd_reg("StatelessRandomGammaV3", stateless_gamma_v3_compute, 0, "dtype",
         kGammaT, 3, NULL, NULL, 0);
  rd_reg("RandomPoisson", random_poisson_v1_compute, 0, "dtype", kGammaT, 3,
         NULL, NULL, 0);
  rd_reg("RandomPoissonV2", random_poisson_compute, 1, "R", kNum5, 5, "dtype",
         kNum5, 5);
  rd_reg("StatelessRandomPoisson", stateless_poisson_compute, 0, "Rtype",
         kNum5, 5, "dtype", kNum5, 5);
  rd_reg("StatelessRandomBinomial", stateless_binomial_compute, 0, "T",
         kGammaT, 3, "dtype", kNum5, 5);
  rd_reg("StatefulRandomBinomial", stateful_binomial_compute, 0, "T", kGammaT,
         3, "dtype", kNum5, 5);
  rd_reg("RandomShuffle", random_shuffle_compute, 1, "T", kShuffle,
         KUTIL_COUNT(kShuffle), NULL, NULL, 0);
  rd_reg("StatelessShuffle", stateless_shuffle_compute, 0, "T", kShuffle,
         KUTIL_COUNT(kShuffle), NULL, NULL, 0);
  rd_reg("RngReadAndSkip", rng_read_and_skip_compute, 0, NULL, NULL, 0, NULL,
         NULL, 0);
  rd_reg("RngSkip", rng_skip_compute, 0, NULL, NULL, 0, NULL, NULL, 0);
  rd_reg("StatefulUniform", stateful_uniform_compute, 0, "dtype", kFloats, 4,
         NULL, NULL, 0);
  rd_reg("StatefulStandardNormalV2", stateful_normal_v2_compute, 0, "dtype",
         kFloats, 4, NULL, NULL, 0);
  rd_reg("StatefulStandardNormal", stateful_normal_v1_compute, 0, "dtype",
         kFloats, 4, NULL, NULL, 0);
  rd_reg("StatefulTruncatedNormal", stateful_truncated_compute, 0, "dtype",
         kFloats, 4, NULL, NULL, 0);
  rd_reg("StatefulUniformInt", stateful_int_compute, 0, "dtype", kAllInt, 4,
         NULL, NULL, 0);
  rd_reg("StatefulUniformFullInt", stateful_full_int_compute, 0, "dtype",
         kAllInt, 4, NULL, NULL, 0);
  rd_reg("ParameterizedTruncatedNormal", parameterized_truncated_normal_compute,
         1, "dtype", kGammaT, 3, NULL, NULL, 0);
  rd_reg("StatelessParameterizedTruncatedNormal", stateless_ptn_compute, 0,
         "dtype", kGammaT, 3, NULL, NULL, 0);
  rd_reg("RandomIndexShuffle", random_index_shuffle_compute, 0, "dtype",
         kAllInt, 4, NULL, NULL, 0);
  rd_reg("UniformCandidateSampler", uniform_candidate_sampler_compute, 1, NULL,
         NULL, 0, NULL, NULL, 0);
  rd_reg("LogUniformCandidateSampler", log_uniform_candidate_sampler_compute,
         1, NULL, NULL, 0, NULL, NULL, 0);
  rd_reg("AllCandidateSampler", all_candidate_sampler_compute, 1, NULL, NULL,
         0, NULL, NULL, 0);
  {
    static const char* const kUnigram[] = {"LearnedUnigramCandidateSampler",
                                           "ThreadUnsafeUnigramCandidateSampler"};
    int u;
    for (u = 0; u < 2; u++) {
      tfe_kernel_reg reg;
      TF_Status* st = TF_NewStatus();
      if (st == NULL) break;
      memset(&reg, 0, sizeof reg);
      reg.op_name = kUnigram[u];
      reg.device_type = "CPU";
      reg.create = cs_picker_create;
      reg.compute = unigram_candidate_sampler_compute;
      reg.destroy = cs_picker_destroy;
      tfe_kernel_register(&reg, st);
      TF_DeleteStatus(st);
    }
  }
  {
    tfe_kernel_reg reg;
    TF_Status* st = TF_NewStatus();
    if (st != NULL) {
      memset(&reg, 0, sizeof reg);
      reg.op_name = "FixedUnigramCandidateSampler";
      reg.device_type = "CPU";
      reg.create = cs_fixed_create;
      reg.compute = fixed_candidate_sampler_compute;
      reg.destroy = cs_fixed_destroy;
      tfe_kernel_register(&reg, st);
      TF_DeleteStatus(st);
    }
  }
  rd_reg("ComputeAccidentalHits", compute_accidental_hits_compute, 0, NULL,
         NULL, 0, NULL, NULL, 0);
  rd_reg("NonDeterministicInts", non_deterministic_ints_compute, 0, "dtype",
         kAllInt, 4, NULL, NULL, 0);
}
