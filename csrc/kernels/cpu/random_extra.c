/* More random CPU kernels (issue 15): RandomUniformInt and Multinomial
 * (stateful, seed/seed2 attrs), StatelessRandomUniformIntV2,
 * StatelessRandomUniformFullIntV2 and StatelessTruncatedNormalV2
 * (key/counter/alg inputs).
 *
 * Same generator and conventions as random_ops.c (Philox-4x32-10, TF's
 * word-to-number conversions and output grouping), so a given key/counter,
 * or seed/seed2 on a kernel's first call, gives TF's numbers:
 *  - integers in [lo, hi): lo + (32-bit word, or two words low-first for
 *    64-bit types) mod (hi - lo), 4 (32-bit) or 2 (64-bit) per block;
 *  - full-range integers: the words' bits;
 *  - truncated normals: Box-Muller pairs, values with |x| >= 2 rejected,
 *    group g of outputs starting 256 words per output into the stream;
 *  - Multinomial: per batch row, a running sum of exp(logit - max) over
 *    the finite logits, then per sample a uniform double (two words) times
 *    the total located by binary search; rows draw one after another from
 *    one stream, as TF's kernel does when it runs in one shard.
 * A stateful kernel instance keeps its generator and skips 256 blocks per
 * reserved output after each call, as TF's GuardedPhiloxRandom does. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "kernels/cpu/image_kernels.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/random_common.h"

/* ---- Philox-4x32-10 ---- */

typedef struct px {
  uint32_t ctr[4];
  uint32_t key[2];
} px;

static void px_block(const px* g, uint32_t out[4]) {
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

static void px_skip(px* g, uint64_t n) {
  uint32_t lo = (uint32_t)n, hi = (uint32_t)(n >> 32);
  g->ctr[0] += lo;
  if (g->ctr[0] < lo) hi++;
  g->ctr[1] += hi;
  if (g->ctr[1] < hi) {
    if (++g->ctr[2] == 0) ++g->ctr[3];
  }
}

static void px_next(px* g, uint32_t out[4]) {
  px_block(g, out);
  px_skip(g, 1);
}

/* One word at a time (TF's SingleSampleAdapter). */
typedef struct px_single {
  px* g;
  uint32_t buf[4];
  int used;
} px_single;

static uint32_t px_word(px_single* s) {
  if (s->used == 4) {
    px_next(s->g, s->buf);
    s->used = 0;
  }
  return s->buf[s->used++];
}

static float w2f(uint32_t x) {
  uint32_t v = (127u << 23) | (x & 0x7fffffu);
  float f;
  memcpy(&f, &v, 4);
  return f - 1.0f;
}

static double w2d(uint32_t x0, uint32_t x1) {
  uint64_t v = (1023ull << 52) | ((uint64_t)(x0 & 0xfffffu) << 32) | x1;
  double d;
  memcpy(&d, &v, 8);
  return d - 1.0;
}

/* ---- distributions, one output group per call ---- */

enum { D_INT = 0, D_FULLINT = 1, D_TRUNC = 2, D_UNIFORM = 3, D_NORMAL = 4 };

typedef struct dist {
  int kind;
  TF_DataType dt;
  uint64_t lo, range; /* D_INT: lo and hi - lo, as unsigned bits */
} dist;

static int is64(TF_DataType dt) {
  return dt == TF_INT64 || dt == TF_UINT64 || dt == TF_DOUBLE;
}

static int group_of(const dist* d) { return is64(d->dt) ? 2 : 4; }

static void store_int(TF_DataType dt, void* out, int64_t i, uint64_t v) {
  if (is64(dt)) {
    ((uint64_t*)out)[i] = v;
  } else {
    ((uint32_t*)out)[i] = (uint32_t)v;
  }
}

static void store_real(TF_DataType dt, void* out, int64_t i, double v) {
  switch (dt) {
    case TF_FLOAT: ((float*)out)[i] = (float)v; break;
    case TF_DOUBLE: ((double*)out)[i] = v; break;
    case TF_HALF: ((uint16_t*)out)[i] = kutil_f32_to_f16((float)v); break;
    case TF_BFLOAT16: ((uint16_t*)out)[i] = kutil_f32_to_bf16((float)v); break;
    default: break;
  }
}

static void box_muller_f(uint32_t x0, uint32_t x1, float* f0, float* f1) {
  float u1 = w2f(x0), v1, u2;
  if (u1 < 1.0e-7f) u1 = 1.0e-7f;
  v1 = (float)(2.0f * M_PI * w2f(x1));
  u2 = sqrtf(-2.0f * logf(u1));
  *f0 = sinf(v1) * u2;
  *f1 = cosf(v1) * u2;
}

static void box_muller_d(uint32_t a, uint32_t b, uint32_t c, uint32_t e,
                         double* d0, double* d1) {
  double u1 = w2d(a, b), v1, u2;
  if (u1 < 1.0e-7) u1 = 1.0e-7;
  v1 = 2.0 * M_PI * w2d(c, e);
  u2 = sqrt(-2.0 * log(u1));
  *d0 = sin(v1) * u2;
  *d1 = cos(v1) * u2;
}

static void gen_group(const dist* d, px* g, void* out, int64_t at, int cnt) {
  uint32_t w[4];
  int i;
  if (d->kind == D_TRUNC) {
    px_single s;
    double r[4];
    int idx = 0, want = group_of(d);
    s.g = g;
    s.used = 4;
    while (idx < want) {
      if (d->dt == TF_DOUBLE) {
        uint32_t a = px_word(&s), b = px_word(&s), c = px_word(&s),
                 e = px_word(&s);
        double d0, d1;
        box_muller_d(a, b, c, e, &d0, &d1);
        if (fabs(d0) < 2.0) r[idx++] = d0;
        if (idx < want && fabs(d1) < 2.0) r[idx++] = d1;
      } else {
        uint32_t a = px_word(&s), b = px_word(&s);
        float f0, f1;
        box_muller_f(a, b, &f0, &f1);
        if (fabsf(f0) < 2.0f) r[idx++] = f0;
        if (idx < want && fabsf(f1) < 2.0f) r[idx++] = f1;
      }
    }
    for (i = 0; i < cnt; i++) store_real(d->dt, out, at + i, r[i]);
    return;
  }
  px_next(g, w);
  if (d->kind == D_UNIFORM) {
    for (i = 0; i < cnt; i++) {
      switch (d->dt) {
        case TF_DOUBLE: store_real(d->dt, out, at + i, w2d(w[2 * i], w[2 * i + 1])); break;
        case TF_HALF: {
          /* 10 random mantissa bits, exact in half */
          float f = kutil_f16_to_f32((uint16_t)((15u << 10) | (w[i] & 0x3ffu))) - 1.0f;
          store_real(d->dt, out, at + i, f);
          break;
        }
        case TF_BFLOAT16: {
          float f = kutil_bf16_to_f32((uint16_t)((127u << 7) | (w[i] & 0x7fu))) - 1.0f;
          store_real(d->dt, out, at + i, f);
          break;
        }
        default: store_real(d->dt, out, at + i, w2f(w[i])); break;
      }
    }
    return;
  }
  if (d->kind == D_NORMAL) {
    double r[4];
    if (d->dt == TF_DOUBLE) {
      box_muller_d(w[0], w[1], w[2], w[3], &r[0], &r[1]);
    } else {
      float f[4];
      box_muller_f(w[0], w[1], &f[0], &f[1]);
      box_muller_f(w[2], w[3], &f[2], &f[3]);
      for (i = 0; i < 4; i++) r[i] = f[i];
    }
    for (i = 0; i < cnt; i++) store_real(d->dt, out, at + i, r[i]);
    return;
  }
  for (i = 0; i < cnt; i++) {
    uint64_t bits =
        is64(d->dt) ? ((uint64_t)w[2 * i] | ((uint64_t)w[2 * i + 1] << 32))
                    : w[i];
    if (d->kind == D_INT) bits = d->lo + bits % d->range;
    store_int(d->dt, out, at + i, bits);
  }
}

static void fill(const dist* d, const px* base, TF_Tensor* out) {
  int64_t n = kutil_num_elements(out), gs = group_of(d), grp, groups;
  void* o = kutil_data(out);
  px g = *base;
  groups = (n + gs - 1) / gs;
  for (grp = 0; grp < groups; grp++) {
    int64_t at = grp * gs;
    int cnt = (int)(n - at < gs ? n - at : gs);
    if (d->kind == D_TRUNC) {
      g = *base;
      px_skip(&g, (uint64_t)grp * (uint64_t)gs * 256u / 4u);
    }
    gen_group(d, &g, o, at, cnt);
  }
}

/* ---- shape input (TF's MakeShape) ---- */

static int read_shape(tfe_kernel_context* k, const TF_Tensor* in,
                      int64_t* dims, int* nd) {
  int64_t i, n;
  kutil_shape_buf b;
  if (in->num_dims != 1) {
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

static TF_DataType attr_type(const tfe_kernel_context* k, const char* name,
                             TF_DataType dflt) {
  TF_DataType t = dflt;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, name, &t, NULL);
  return t;
}

/* Reads scalar bound inputs lo/hi of dtype dt; checks lo < hi. */
static int read_bounds(tfe_kernel_context* k, const TF_Tensor* lo_t,
                       const TF_Tensor* hi_t, dist* d) {
  kutil_shape_buf b;
  int is_signed = d->dt == TF_INT32 || d->dt == TF_INT64;
  int64_t slo, shi;
  uint64_t ulo, uhi;
  if (lo_t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "minval must be 0-D, got shape %s",
               kutil_tshape(lo_t, &b));
    return 0;
  }
  if (hi_t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "maxval must be 0-D, got shape %s",
               kutil_tshape(hi_t, &b));
    return 0;
  }
  slo = kutil_get_int(lo_t, 0);
  shi = kutil_get_int(hi_t, 0);
  ulo = (uint64_t)slo;
  uhi = (uint64_t)shi;
  if (is_signed ? !(slo < shi) : !(ulo < uhi)) {
    if (is_signed) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Need minval < maxval, got %lld >= %lld",
                 (long long)slo, (long long)shi);
    } else {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Need minval < maxval, got %llu >= %llu",
                 (unsigned long long)ulo, (unsigned long long)uhi);
    }
    return 0;
  }
  d->lo = ulo;
  d->range = uhi - ulo;
  if (!is64(d->dt)) d->range &= 0xffffffffu;
  return 1;
}

/* ---- stateful kernels ---- */

typedef struct stateful {
  pthread_mutex_t mu;
  px gen;
} stateful;

static uint64_t os_random64(void) {
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

static void px_from_seeds(px* g, uint64_t lo, uint64_t hi) {
  g->key[0] = (uint32_t)lo;
  g->key[1] = (uint32_t)(lo >> 32);
  g->ctr[0] = 0;
  g->ctr[1] = 0;
  g->ctr[2] = (uint32_t)hi;
  g->ctr[3] = (uint32_t)(hi >> 32);
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
    px_from_seeds(&st->gen, os_random64(), os_random64());
  } else {
    px_from_seeds(&st->gen, (uint64_t)seed, (uint64_t)seed2);
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

/* The generator position for `n` reserved outputs (256 blocks each). */
static int reserve(tfe_kernel_context* k, uint64_t n, px* base) {
  stateful* st = (stateful*)k->state;
  if (st == NULL) {
    /* Unit contexts without create(): a fresh generator per call. */
    stateful* tmp =
        (stateful*)stateful_create(k->op_def, k->attrs, NULL, k->status);
    if (tmp == NULL) return 0;
    *base = tmp->gen;
    stateful_destroy(tmp, NULL);
    return 1;
  }
  pthread_mutex_lock(&st->mu);
  *base = st->gen;
  px_skip(&st->gen, n * 256u);
  pthread_mutex_unlock(&st->mu);
  return 1;
}

static void random_uniform_int_compute(tfe_kernel_context* k) {
  int64_t dims[TFE_MAX_DIMS];
  int nd = 0;
  dist d;
  TF_Tensor* out;
  px base;
  kutil_shape_buf b;
  memset(&d, 0, sizeof d);
  d.kind = D_INT;
  d.dt = attr_type(k, "Tout", k->inputs[1]->dtype);
  if (k->inputs[1]->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "minval must be 0-D, got shape %s",
               kutil_tshape(k->inputs[1], &b));
    return;
  }
  if (k->inputs[2]->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "maxval must be 0-D, got shape %s",
               kutil_tshape(k->inputs[2], &b));
    return;
  }
  if (!read_shape(k, k->inputs[0], dims, &nd)) return;
  out = tfe_kernel_alloc_output(k, 0, d.dt, dims, nd);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  if (!read_bounds(k, k->inputs[1], k->inputs[2], &d)) return;
  if (!reserve(k, (uint64_t)kutil_num_elements(out), &base)) return;
  fill(&d, &base, out);
}

static double logit_at(const TF_Tensor* t, int64_t i) {
  const void* p = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)p)[i];
    case TF_DOUBLE: return ((const double*)p)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)p)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)p)[i]);
    default: return (double)kutil_get_int(t, i);
  }
}

static double lowest_of(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: return -3.4028234663852886e38;
    case TF_HALF: return -65504.0;
    case TF_BFLOAT16: return -3.3895313892515355e38;
    default: return -1.7976931348623157e308;
  }
}

/* Multinomial's sampling; `fixed` is the generator of StatelessMultinomial
 * (NULL: reserve from the stateful kernel's generator). */
static void multinomial_do(tfe_kernel_context* k, const px* fixed) {
  const TF_Tensor* lg = k->inputs[0];
  const TF_Tensor* ns = k->inputs[1];
  TF_DataType odt = attr_type(k, "output_dtype", TF_INT64);
  kutil_shape_buf b;
  int64_t batch, classes, nsamp, od[2], r, j;
  double* cdf = NULL;
  TF_Tensor* out;
  px base;
  px_single s;
  if (lg->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "logits should be a matrix, got shape %s", kutil_tshape(lg, &b));
    return;
  }
  if (ns->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_samples should be a scalar, got shape %s",
               kutil_tshape(ns, &b));
    return;
  }
  nsamp = *(const int32_t*)kutil_data(ns);
  if (nsamp < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_samples should be nonnegative, got %lld", (long long)nsamp);
    return;
  }
  if (lg->dims[0] > INT32_MAX || lg->dims[1] > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "logits.shape = %s too large for int",
               kutil_tshape(lg, &b));
    return;
  }
  batch = lg->dims[0];
  classes = lg->dims[1];
  if (classes <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_classes should be positive, got %lld", (long long)classes);
    return;
  }
  od[0] = batch;
  od[1] = nsamp;
  out = tfe_kernel_alloc_output(k, 0, odt, od, 2);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  if (fixed != NULL) {
    base = *fixed;
  } else {
    /* TF reserves 2 words per sample, samples rounded up to 4 per row */
    uint64_t per_row = (uint64_t)((nsamp + 3) / 4 * 4) * 2u;
    if (!reserve(k, (uint64_t)batch * per_row, &base)) return;
  }
  cdf = (double*)tfe_malloc(sizeof(double) * (size_t)classes);
  if (cdf == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Multinomial");
    return;
  }
  s.g = &base;
  s.used = 4;
  for (r = 0; r < batch; r++) {
    double mx = lowest_of(lg->dtype), total = 0;
    for (j = 0; j < classes; j++) {
      double v = logit_at(lg, r * classes + j);
      if (isfinite(v) && v > mx) mx = v;
    }
    for (j = 0; j < classes; j++) {
      double v = logit_at(lg, r * classes + j);
      if (isfinite(v)) total += exp(v - mx);
      cdf[j] = total;
    }
    for (j = 0; j < nsamp; j++) {
      uint32_t x0 = px_word(&s), x1 = px_word(&s);
      double find = w2d(x0, x1) * total;
      /* first index whose cdf exceeds find (upper bound) */
      int64_t lo = 0, hi = classes;
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (cdf[mid] > find) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      if (odt == TF_INT32) {
        ((int32_t*)kutil_data(out))[r * nsamp + j] = (int32_t)lo;
      } else {
        ((int64_t*)kutil_data(out))[r * nsamp + j] = lo;
      }
    }
  }
  tfe_free(cdf);
}

static void multinomial_compute(tfe_kernel_context* k) {
  multinomial_do(k, NULL);
}

/* ---- stateless V1 kernels (a [2] seed input) ---- */

/* TF's GenerateKey: the seed pair scrambled through one Philox block with
 * a fixed key becomes the key and the high half of the counter. */
static int seed_to_gen(tfe_kernel_context* k, const TF_Tensor* seed, px* g) {
  kutil_shape_buf b;
  uint64_t s0, s1;
  px mixer;
  uint32_t mix[4];
  if (seed->num_dims != 1 || seed->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seed must have shape [2], not %s",
               kutil_tshape(seed, &b));
    return 0;
  }
  if (seed->dtype != TF_INT32 && seed->dtype != TF_INT64) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid seed type: %s",
               seed->dtype == TF_UINT32 ? "uint32" : "uint64");
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
  px_block(&mixer, mix);
  g->key[0] = mix[0];
  g->key[1] = mix[1];
  g->ctr[0] = 0;
  g->ctr[1] = 0;
  g->ctr[2] = mix[2];
  g->ctr[3] = mix[3];
  return 1;
}

/* Shape and seed checks, output allocation (NULL when failed or empty). */
static TF_Tensor* stateless_v1_setup(tfe_kernel_context* k, TF_DataType dt,
                                     px* g) {
  int64_t dims[TFE_MAX_DIMS];
  int nd = 0;
  kutil_shape_buf b;
  const TF_Tensor* seed = k->inputs[1];
  TF_Tensor* out;
  if (!read_shape(k, k->inputs[0], dims, &nd)) return NULL;
  if (seed->num_dims != 1 || seed->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seed must have shape [2], not %s",
               kutil_tshape(seed, &b));
    return NULL;
  }
  out = tfe_kernel_alloc_output(k, 0, dt, dims, nd);
  if (out == NULL || kutil_num_elements(out) == 0) return NULL;
  if (!seed_to_gen(k, seed, g)) return NULL;
  return out;
}

static void stateless_v1_compute(tfe_kernel_context* k, int kind) {
  dist d;
  px g;
  TF_Tensor* out;
  memset(&d, 0, sizeof d);
  d.kind = kind;
  d.dt = attr_type(k, "dtype", kind == D_FULLINT ? TF_UINT64 : TF_FLOAT);
  out = stateless_v1_setup(k, d.dt, &g);
  if (out == NULL) return;
  if (kind == D_INT && !read_bounds(k, k->inputs[2], k->inputs[3], &d)) return;
  fill(&d, &g, out);
}

static void sl_uniform_compute(tfe_kernel_context* k) {
  stateless_v1_compute(k, D_UNIFORM);
}
static void sl_normal_compute(tfe_kernel_context* k) {
  stateless_v1_compute(k, D_NORMAL);
}
static void sl_truncated_compute(tfe_kernel_context* k) {
  stateless_v1_compute(k, D_TRUNC);
}
static void sl_int_compute(tfe_kernel_context* k) {
  stateless_v1_compute(k, D_INT);
}
static void sl_full_int_compute(tfe_kernel_context* k) {
  stateless_v1_compute(k, D_FULLINT);
}

static void sl_multinomial_compute(tfe_kernel_context* k) {
  px g;
  if (!seed_to_gen(k, k->inputs[2], &g)) return;
  multinomial_do(k, &g);
}

/* ---- stateless V2 kernels ---- */

/* Checks alg/key/counter and the shape, allocates the output; returns the
 * output (NULL when failed or empty) and the generator. */
static TF_Tensor* stateless_setup(tfe_kernel_context* k, TF_DataType dt,
                                  px* g) {
  const TF_Tensor* key = k->inputs[1];
  const TF_Tensor* ctr = k->inputs[2];
  const TF_Tensor* alg_t = k->inputs[3];
  int64_t dims[TFE_MAX_DIMS];
  int nd = 0;
  int32_t alg;
  kutil_shape_buf b;
  TF_Tensor* out;
  const uint64_t *kv, *cv;
  if (alg_t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input 3 (0-based) must have shape [], not %s",
               kutil_tshape(alg_t, &b));
    return NULL;
  }
  alg = *(const int32_t*)kutil_data(alg_t);
  if (alg == 3) alg = 1; /* AUTO_SELECT is Philox on CPU */
  if (!read_shape(k, k->inputs[0], dims, &nd)) return NULL;
  if (alg != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Unsupported algorithm id: %d",
               (int)alg);
    return NULL;
  }
  if (key->num_dims != 1 || key->dims[0] != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "key must have shape [1], not %s. (Note that batched keys are "
               "not supported yet.)",
               kutil_tshape(key, &b));
    return NULL;
  }
  if (ctr->num_dims != 1 || ctr->dims[0] < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "counter must be a vector with length at least 2; got shape: "
               "%s. (Note that batched counters are not supported yet.)",
               kutil_tshape(ctr, &b));
    return NULL;
  }
  out = tfe_kernel_alloc_output(k, 0, dt, dims, nd);
  if (out == NULL || kutil_num_elements(out) == 0) return NULL;
  kv = (const uint64_t*)kutil_data(key);
  cv = (const uint64_t*)kutil_data(ctr);
  g->key[0] = (uint32_t)kv[0];
  g->key[1] = (uint32_t)(kv[0] >> 32);
  g->ctr[0] = (uint32_t)cv[0];
  g->ctr[1] = (uint32_t)(cv[0] >> 32);
  g->ctr[2] = (uint32_t)cv[1];
  g->ctr[3] = (uint32_t)(cv[1] >> 32);
  return out;
}

static void stateless_int_compute(tfe_kernel_context* k) {
  dist d;
  px g;
  TF_Tensor* out;
  memset(&d, 0, sizeof d);
  d.kind = D_INT;
  d.dt = attr_type(k, "dtype", k->inputs[4]->dtype);
  out = stateless_setup(k, d.dt, &g);
  if (out == NULL) return;
  if (!read_bounds(k, k->inputs[4], k->inputs[5], &d)) return;
  fill(&d, &g, out);
}

static void stateless_full_int_compute(tfe_kernel_context* k) {
  dist d;
  px g;
  TF_Tensor* out;
  memset(&d, 0, sizeof d);
  d.kind = D_FULLINT;
  d.dt = attr_type(k, "dtype", TF_UINT64);
  out = stateless_setup(k, d.dt, &g);
  if (out == NULL) return;
  fill(&d, &g, out);
}

static void stateless_truncated_compute(tfe_kernel_context* k) {
  dist d;
  px g;
  TF_Tensor* out;
  memset(&d, 0, sizeof d);
  d.kind = D_TRUNC;
  d.dt = attr_type(k, "dtype", TF_FLOAT);
  out = stateless_setup(k, d.dt, &g);
  if (out == NULL) return;
  fill(&d, &g, out);
}

/* ---- registration ---- */

static void reg_stateful(const char* op, void (*compute)(tfe_kernel_context*),
                         const char* a1, const TF_DataType* t1, int n1,
                         const char* a2, const TF_DataType* t2, int n2) {
  tfe_kernel_reg reg;
  TF_Status* s = TF_NewStatus();
  if (s == NULL) return;
  memset(&reg, 0, sizeof reg);
  reg.op_name = op;
  reg.device_type = "CPU";
  reg.constraints[0].attr = a1;
  reg.constraints[0].types = t1;
  reg.constraints[0].num_types = n1;
  reg.num_constraints = 1;
  if (a2 != NULL) {
    reg.constraints[1].attr = a2;
    reg.constraints[1].types = t2;
    reg.constraints[1].num_types = n2;
    reg.num_constraints = 2;
  }
  reg.create = stateful_create;
  reg.compute = compute;
  reg.destroy = stateful_destroy;
  tfe_kernel_register(&reg, s);
  TF_DeleteStatus(s);
}

void tfe_register_cpu_random_extra_kernels(void) {
  static const TF_DataType kInt[] = {TF_INT32, TF_INT64};
  static const TF_DataType kAllInt[] = {TF_INT32, TF_INT64, TF_UINT32,
                                        TF_UINT64};
  static const TF_DataType kLogits[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT,
                                        TF_DOUBLE};
  static const TF_DataType kFloats[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT,
                                        TF_DOUBLE};
  reg_stateful("RandomUniformInt", random_uniform_int_compute, "Tout", kInt, 2,
               NULL, NULL, 0);
  reg_stateful("Multinomial", multinomial_compute, "T", kLogits, 4,
               "output_dtype", kInt, 2);
  /* TF's CPU kernels for the int V2 op cover int32 and int64 only. */
  tfe_kutil_register("StatelessRandomUniformIntV2", stateless_int_compute,
                     "dtype", kInt, 2, NULL, NULL, 0);
  tfe_kutil_register("StatelessRandomUniformFullIntV2",
                     stateless_full_int_compute, "dtype", kAllInt, 4, NULL,
                     NULL, 0);
  tfe_kutil_register("StatelessTruncatedNormalV2", stateless_truncated_compute,
                     "dtype", kFloats, 4, NULL, NULL, 0);
  tfe_kutil_register("StatelessRandomUniform", sl_uniform_compute, "dtype",
                     kFloats, 4, NULL, NULL, 0);
  tfe_kutil_register("StatelessRandomNormal", sl_normal_compute, "dtype",
                     kFloats, 4, NULL, NULL, 0);
  tfe_kutil_register("StatelessTruncatedNormal", sl_truncated_compute, "dtype",
                     kFloats, 4, NULL, NULL, 0);
  tfe_kutil_register("StatelessRandomUniformInt", sl_int_compute, "dtype",
                     kInt, 2, NULL, NULL, 0);
  tfe_kutil_register("StatelessRandomUniformFullInt", sl_full_int_compute,
                     "dtype", kAllInt, 4, NULL, NULL, 0);
  tfe_kutil_register("StatelessMultinomial", sl_multinomial_compute, "T",
                     kLogits, 4, "output_dtype", kInt, 2);
}

/* random_common.h: the fill above for other kernel files. */
void tfe_random_fill(int kind, uint64_t lo, uint64_t range,
                     const uint32_t key[2], const uint32_t ctr[4],
                     TF_Tensor* out) {
  dist d;
  px g;
  memset(&d, 0, sizeof d);
  d.kind = kind;
  d.dt = out->dtype;
  d.lo = lo;
  d.range = range;
  memcpy(g.key, key, sizeof g.key);
  memcpy(g.ctr, ctr, sizeof g.ctr);
  if (kutil_num_elements(out) > 0) fill(&d, &g, out);
}
