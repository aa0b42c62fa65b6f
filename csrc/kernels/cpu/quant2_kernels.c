/* CPU kernels: quantize/dequantize, requantize, uniform-quantized and Quantized* ops (issue 18, session 8).
 * Definitions and shape rules come from TF 2.21's generated registry
 * (csrc/ops/defs_generated.c, shape_infer_rules_generated.c).
 *
 * This file: QuantizeV2, Dequantize, QuantizeAndDequantize (V1..V4, V4Grad),
 * Requantize, RequantizationRange, RequantizationRangePerChannel,
 * RequantizePerChannel, QuantizeDownAndShrinkRange.
 *
 * The numbers follow TF's reference CPU kernels (as TF runs them with its
 * oneDNN rewrites off): every step is done in the same precision and order
 * as TF (float where TF computes in float, double where it uses double), so
 * the results are bit-identical. Float to integer conversions copy what
 * x86 does for TF's casts (a truncating conversion gives INT32_MIN out of
 * range; qint32 values go through lrint). Nothing here may be contracted
 * into FMAs: the loops are plain C without target clones. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/kutil.h"

void tfe_register_cpu_quant2_kernels(void);

/* ------------------------------------------------------------ helpers */

/* TF's StrCat rendering of a float / double (shortest round-trip). */
static const char* q2_ffmt(float f, char* buf, size_t cap) {
  if (isnan(f)) {
    snprintf(buf, cap, "nan");
  } else if (isinf(f)) {
    snprintf(buf, cap, f < 0 ? "-inf" : "inf");
  } else {
    snprintf(buf, cap, "%.6g", (double)f);
    if (strtof(buf, NULL) != f) snprintf(buf, cap, "%.9g", (double)f);
  }
  return buf;
}

static const char* q2_dfmt(double d, char* buf, size_t cap) {
  if (isnan(d)) {
    snprintf(buf, cap, "nan");
  } else if (isinf(d)) {
    snprintf(buf, cap, d < 0 ? "-inf" : "inf");
  } else {
    snprintf(buf, cap, "%.15g", d);
    if (strtod(buf, NULL) != d) snprintf(buf, cap, "%.17g", d);
  }
  return buf;
}

/* Range of a quantized dtype. */
typedef struct q2_qt {
  int64_t lo, hi;
  int bits;
} q2_qt;

static q2_qt q2_qtype(TF_DataType dt) {
  q2_qt q;
  switch (dt) {
    case TF_QINT8: q.lo = -128; q.hi = 127; q.bits = 8; break;
    case TF_QUINT8: q.lo = 0; q.hi = 255; q.bits = 8; break;
    case TF_QINT16: q.lo = -32768; q.hi = 32767; q.bits = 16; break;
    case TF_QUINT16: q.lo = 0; q.hi = 65535; q.bits = 16; break;
    default: q.lo = INT32_MIN; q.hi = INT32_MAX; q.bits = 32; break;
  }
  return q;
}

static inline int64_t q2_load(const void* d, TF_DataType dt, int64_t i) {
  switch (dt) {
    case TF_QINT8: return ((const int8_t*)d)[i];
    case TF_QUINT8: return ((const uint8_t*)d)[i];
    case TF_QINT16: return ((const int16_t*)d)[i];
    case TF_QUINT16: return ((const uint16_t*)d)[i];
    default: return ((const int32_t*)d)[i];
  }
}

/* Stores the low bits of v (a narrowing integer conversion). */
static inline void q2_store(void* d, TF_DataType dt, int64_t i, int64_t v) {
  switch (dt) {
    case TF_QINT8: ((int8_t*)d)[i] = (int8_t)(uint8_t)(uint64_t)v; break;
    case TF_QUINT8: ((uint8_t*)d)[i] = (uint8_t)(uint64_t)v; break;
    case TF_QINT16: ((int16_t*)d)[i] = (int16_t)(uint16_t)(uint64_t)v; break;
    case TF_QUINT16: ((uint16_t*)d)[i] = (uint16_t)(uint64_t)v; break;
    default: ((int32_t*)d)[i] = (int32_t)(uint32_t)(uint64_t)v; break;
  }
}

/* A truncating float -> int32 conversion as x86 does it: NaN and values
 * outside the int32 range give INT32_MIN. */
static inline int32_t q2_trunc_i32(float v) {
  const int ok = (v >= -2147483648.0f) & (v < 2147483648.0f);
  return (int32_t)(ok ? v : -2147483648.0f);
}

/* lrint(v) narrowed to 32 bits, as Eigen's QInt32(float) constructor. */
static inline int32_t q2_lrint_i32(float v) {
  if (!(v >= -9.2233720368547758e18f && v < 9.2233720368547758e18f)) return 0;
  return (int32_t)(uint32_t)(uint64_t)llrintf(v);
}

/* A float converted to quantized dtype dt the way Eigen's cast<T> does. */
static inline int64_t q2_cast_q(float v, TF_DataType dt) {
  if (dt == TF_QINT32) return q2_lrint_i32(v);
  return q2_trunc_i32(v);
}

/* double -> int64 as x86 does (INT64_MIN for NaN or out of range). */
static inline int64_t q2_d2i64(double v) {
  if (!(v >= -9.2233720368547758e18 && v < 9.2233720368547758e18)) {
    return INT64_MIN;
  }
  return (int64_t)v;
}

static int q2_attr_str(tfe_kernel_context* k, const char* name,
                       const char** out) {
  size_t len;
  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, name, out, &len, k->status)) {
    if (KUTIL_OK(k)) *out = "";
    return KUTIL_OK(k);
  }
  return 1;
}

static float q2_attr_float(const tfe_kernel_context* k, const char* name,
                           float dflt) {
  float v;
  if (k->attrs != NULL && tfe_attrs_get_float(k->attrs, name, &v, NULL)) {
    return v;
  }
  return dflt;
}

static inline float q2_f0(const TF_Tensor* t) {
  return ((const float*)kutil_data(t))[0];
}

/* pre * slices * post view of a tensor split at `axis`. */
static void q2_split(const TF_Tensor* t, int axis, int64_t* pre,
                     int64_t* post) {
  *pre = kutil_dims_prod(t->dims, 0, axis);
  *post = kutil_dims_prod(t->dims, axis + 1, t->num_dims);
}

static inline int32_t q2u_clamp_fast(int32_t v, int32_t lo, int32_t hi) {
  v = v > hi ? hi : v;
  return v < lo ? lo : v;
}

/* ------------------------------------------- TF's quantization helpers */

/* QuantizedToFloat for one value (double arithmetic, as TF). */
static float q2_q_to_f(int64_t q, int bits, int64_t lowest, float rmin,
                       float rmax) {
  double steps, adjust, range, scale, rounded;
  if (rmin == rmax) return rmin;
  steps = (double)((int64_t)1 << bits);
  adjust = steps / (steps - 1.0);
  range = (double)(rmax - rmin) * adjust;
  scale = range / steps;
  rounded = (double)(roundf(rmin / (float)scale) * (float)scale);
  return (float)(rounded + ((double)q - (double)lowest) * scale);
}

/* The per-element dequantizer of TF's Eigen path (all float). */
typedef struct q2_deq {
  float scale, offset;
} q2_deq;

static q2_deq q2_deq_make(int bits, int64_t lowest, float rmin, float rmax) {
  q2_deq d;
  double steps = (double)((int64_t)1 << bits);
  float rounded;
  d.scale = (float)((double)(rmax - rmin) / (steps - 1.0));
  rounded = rmax == rmin ? rmin : roundf(rmin / d.scale) * d.scale;
  d.offset = rounded - (float)lowest * d.scale;
  return d;
}

/* The per-element quantizer of TF's Eigen path (all float). */
typedef struct q2_quant {
  float scale, shift, lo, hi;
} q2_quant;

static q2_quant q2_quant_make(q2_qt qt, float rmin, float rmax) {
  q2_quant f;
  double steps = (double)((int64_t)1 << qt.bits);
  float min_scaled;
  f.scale = rmax == rmin ? 0.0f : (float)((steps - 1.0) / (double)(rmax - rmin));
  min_scaled = roundf(rmin * f.scale);
  f.shift = min_scaled - (float)qt.lo;
  f.lo = (float)qt.lo < -2.147483648e+09f ? -2.147483648e+09f : (float)qt.lo;
  f.hi = (float)qt.hi > 2.147483520e+09f ? 2.147483520e+09f : (float)qt.hi;
  return f;
}

static inline int32_t q2_quant_one(float x, const q2_quant* f) {
  float v = roundf(x * f->scale) - f->shift;
  v = (v < f->lo) ? f->lo : v;
  v = (f->hi < v) ? f->hi : v;
  return q2_trunc_i32(v);
}

/* ------------------------------------------- fast elementwise jobs
 * The hot whole-tensor loops run here: split over the kernel thread pool
 * and compiled per ISA level (KUTIL_CLONES; ISO C mode, so no FMA
 * contraction). Each computes exactly what the scalar code above does. */

#include "core/threadpool.h"

enum {
  Q2J_COMBINED_U, /* quantize MIN_COMBINED, unsigned T */
  Q2J_COMBINED_S, /* quantize MIN_COMBINED, signed T */
  Q2J_SCALED,     /* quantize SCALED (p[4]: 1 = half to even) */
  Q2J_MIN_FIRST,  /* quantize MIN_FIRST */
  Q2J_DEQ_COMBINED,
  Q2J_DEQ_SCALED,
  Q2J_DEQ_MIN_FIRST,
  Q2J_UNIFORM,    /* UniformQuantize: p0 inv scale, i0 zp, i1 lo, i2 hi */
  Q2J_QDQ_F32     /* QuantizeAndDequantize, float: p0 min p1 max p2 scale
                   * p3 inverse, i0 clamp, i1 half to even */
};

typedef struct q2_job {
  int kind;
  TF_DataType dt;
  const void* in;
  void* out;
  float p[6];
  int32_t i[3];
} q2_job;

/* trunc_i32(std::round(v)): truncating v + (1/2 - ulp) toward zero is
 * the same and vectorizes (no libm call). */
static inline int32_t q2_round_i32(float v) {
  return q2_trunc_i32(v + copysignf(0.49999997f, v));
}

/* std::round(v) as a float, without a libm call: below 2^23 through an
 * int32, above it v is already an integer (or NaN/inf). */
static inline float q2_round_f(float v) {
  const float r = (float)q2_round_i32(v);
  return fabsf(v) < 8388608.0f ? r : v;
}

/* trunc_i32(floorf(v)) without a libm call. */
static inline int32_t q2_floor_i32(float v) {
  const float w = v < -2147483648.0f ? -2147483648.0f : v;
  const int32_t i = q2_trunc_i32(w);
  return (int32_t)((uint32_t)i - (uint32_t)((float)i > w));
}

/* floorf(v) without a libm call (v = +-0 gives +0). */
static inline float q2_floor_f(float v) {
  const float t = (float)q2_trunc_i32(v);
  const float f = t > v ? t - 1.0f : t;
  return fabsf(v) < 8388608.0f ? f : v;
}

static inline float q2_clampf(float v, float lo, float hi) {
  v = (hi < v) ? hi : v;
  return (v < lo) ? lo : v;
}

#define Q2_STORE_LOOP(TYPE, EXPR)                          \
  do {                                                     \
    const float* x_ = (const float*)j->in;                 \
    TYPE* o_ = (TYPE*)j->out;                              \
    for (idx = begin; idx < end; idx++) {                  \
      const float xv = x_[idx];                            \
      o_[idx] = (TYPE)(uint32_t)(EXPR);                    \
    }                                                      \
  } while (0)

#define Q2_BY_TYPE(EXPR)                                               \
  do {                                                                 \
    switch (j->dt) {                                                   \
      case TF_QINT8: Q2_STORE_LOOP(int8_t, EXPR); break;               \
      case TF_QUINT8: Q2_STORE_LOOP(uint8_t, EXPR); break;             \
      case TF_QINT16: Q2_STORE_LOOP(int16_t, EXPR); break;             \
      case TF_QUINT16: Q2_STORE_LOOP(uint16_t, EXPR); break;           \
      default: Q2_STORE_LOOP(int32_t, EXPR); break;                    \
    }                                                                  \
  } while (0)

#define Q2_LOAD_LOOP(TYPE, EXPR)                           \
  do {                                                     \
    const TYPE* x_ = (const TYPE*)j->in;                   \
    float* o_ = (float*)j->out;                            \
    for (idx = begin; idx < end; idx++) {                  \
      const float qv = (float)x_[idx];                     \
      o_[idx] = (EXPR);                                    \
    }                                                      \
  } while (0)

#define Q2_FROM_TYPE(EXPR)                                             \
  do {                                                                 \
    switch (j->dt) {                                                   \
      case TF_QINT8: Q2_LOAD_LOOP(int8_t, EXPR); break;                \
      case TF_QUINT8: Q2_LOAD_LOOP(uint8_t, EXPR); break;              \
      case TF_QINT16: Q2_LOAD_LOOP(int16_t, EXPR); break;              \
      case TF_QUINT16: Q2_LOAD_LOOP(uint16_t, EXPR); break;            \
      default: Q2_LOAD_LOOP(int32_t, EXPR); break;                     \
    }                                                                  \
  } while (0)

KUTIL_CLONES
static void q2_job_chunk(void* arg, int64_t begin, int64_t end) {
  const q2_job* j = (const q2_job*)arg;
  const float p0 = j->p[0], p1 = j->p[1], p2 = j->p[2], p3 = j->p[3];
  int64_t idx;
  switch (j->kind) {
    case Q2J_COMBINED_U: /* p0 min, p1 max, p2 scale */
      Q2_BY_TYPE(q2_trunc_i32((q2_clampf(xv, p0, p1) - p0) * p2 + 0.5f));
      break;
    case Q2J_COMBINED_S: /* p3 half range */
      Q2_BY_TYPE(q2_round_i32((q2_clampf(xv, p0, p1) - p0) * p2 - p3));
      break;
    case Q2J_SCALED:
      if (j->p[4] != 0.0f) {
        Q2_BY_TYPE(q2_trunc_i32(rintf(q2_clampf(xv, p0, p1) * p2)));
      } else {
        Q2_BY_TYPE(q2_round_i32(q2_clampf(xv, p0, p1) * p2));
      }
      break;
    case Q2J_MIN_FIRST: /* p0 scale, p1 shift, p2 lo, p3 hi */
      Q2_BY_TYPE(q2_trunc_i32(q2_clampf(q2_round_f(xv * p0) - p1, p2, p3)));
      break;
    case Q2J_DEQ_COMBINED: /* p0 half, p1 scale, p2 min */
      Q2_FROM_TYPE((qv + p0) * p1 + p2);
      break;
    case Q2J_DEQ_SCALED: /* p0 scale; p1 != 0: qint32 through int */
      if (p1 != 0.0f) {
        Q2_FROM_TYPE((float)q2_trunc_i32(qv) * p0);
      } else {
        Q2_FROM_TYPE(qv * p0);
      }
      break;
    case Q2J_DEQ_MIN_FIRST: /* p0 offset, p1 scale */
      Q2_FROM_TYPE(p0 + qv * p1);
      break;
    case Q2J_UNIFORM: {
      const int32_t zp = j->i[0], lo = j->i[1], hi = j->i[2];
#define Q2_UQ(v) q2u_clamp_fast((int32_t)((uint32_t)q2_floor_i32((v) * p0 + 0.5f) + (uint32_t)zp), lo, hi)
      Q2_BY_TYPE(Q2_UQ(xv));
#undef Q2_UQ
      break;
    }
    case Q2J_QDQ_F32: {
      const float* x = (const float*)j->in;
      float* y = (float*)j->out;
      const int clamp = j->i[0], even = j->i[1];
      if (clamp && even) {
        for (idx = begin; idx < end; idx++) {
          y[idx] = rintf(q2_clampf(x[idx], p0, p1) * p2) * p3;
        }
      } else if (clamp) {
        for (idx = begin; idx < end; idx++) {
          y[idx] = q2_floor_f(q2_clampf(x[idx], p0, p1) * p2 + 0.5f) * p3;
        }
      } else if (even) {
        for (idx = begin; idx < end; idx++) y[idx] = rintf(x[idx] * p2) * p3;
      } else {
        for (idx = begin; idx < end; idx++) {
          y[idx] = q2_floor_f(x[idx] * p2 + 0.5f) * p3;
        }
      }
      break;
    }
    default:
      break;
  }
}

static void q2_job_run(tfe_kernel_context* k, q2_job* j, int64_t n) {
  if (n <= 0) return;
  tfe_parallel_for(tfe_kernel_threadpool(k), n, 32768, q2_job_chunk, j);
}

/* ----------------------------------------------------------- QuantizeV2 */

enum { Q2_MIN_COMBINED, Q2_MIN_FIRST, Q2_SCALED };

static int q2_mode(const char* s) {
  if (strcmp(s, "MIN_FIRST") == 0) return Q2_MIN_FIRST;
  if (strcmp(s, "SCALED") == 0) return Q2_SCALED;
  return Q2_MIN_COMBINED;
}

typedef struct q2_qv2 {
  TF_DataType dt;
  q2_qt qt;
  int mode, even, narrow;
  float ensure;
} q2_qv2;

/* Quantizes slice s of a pre x ns x post float array into out. */
static void q2_quantize_slice(tfe_kernel_context* k, const q2_qv2* p,
                              const float* x, void* out, int64_t pre,
                              int64_t ns, int64_t post, int64_t s,
                              float in_min, float in_max, float* omin,
                              float* omax) {
  float min_range, max_range, eps, m;
  int64_t a, b;
  if (in_max < in_min) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input_max_range must be larger than input_min_range.");
    return;
  }
  min_range = in_min < 0.0f ? in_min : 0.0f;
  m = fabsf(in_min) > fabsf(in_max) ? fabsf(in_min) : fabsf(in_max);
  eps = (m > 1.0f ? m : 1.0f) * p->ensure;
  max_range = in_max > min_range + eps ? in_max : min_range + eps;
  if (max_range < 0.0f) max_range = 0.0f;
  if (p->mode == Q2_MIN_COMBINED) {
    const float sf =
        (float)(((double)p->qt.hi - (double)p->qt.lo) /
                (double)(max_range - min_range));
    const int is_signed = p->qt.lo < 0;
    const float half =
        is_signed ? (float)(((double)p->qt.hi - (double)p->qt.lo + 1) / 2.0)
                  : 0.0f;
    if (pre == 1 && ns == 1) {
      q2_job j = {is_signed ? Q2J_COMBINED_S : Q2J_COMBINED_U, p->dt, x, out,
                  {min_range, max_range, sf, half, 0, 0}, {0, 0, 0}};
      q2_job_run(k, &j, post);
      pre = 0; /* done */
    }
    for (a = 0; a < pre; a++) {
      for (b = 0; b < post; b++) {
        int64_t i = (a * ns + s) * post + b;
        float v = x[i];
        v = (max_range < v) ? max_range : v;
        v = (v < min_range) ? min_range : v;
        if (is_signed) {
          q2_store(out, p->dt, i, q2_cast_q(roundf((v - min_range) * sf - half), p->dt));
        } else {
          q2_store(out, p->dt, i, q2_trunc_i32((v - min_range) * sf + 0.5f));
        }
      }
    }
  } else if (p->mode == Q2_SCALED) {
    const int64_t lo_out = p->qt.lo + (p->narrow ? 1 : 0);
    const int64_t hi_out = p->qt.hi;
    const float from_min = ((float)lo_out * min_range > 0)
                               ? (float)lo_out / min_range
                               : FLT_MAX;
    const float from_max = ((float)hi_out * max_range > 0)
                               ? (float)hi_out / max_range
                               : FLT_MAX;
    const float sf = from_min < from_max ? from_min : from_max;
    min_range = (float)lo_out / sf;
    max_range = (float)hi_out / sf;
    if (pre == 1 && ns == 1) {
      q2_job j = {Q2J_SCALED, p->dt, x, out,
                  {min_range, max_range, sf, 0, p->even ? 1.0f : 0.0f, 0},
                  {0, 0, 0}};
      q2_job_run(k, &j, post);
      pre = 0;
    }
    for (a = 0; a < pre; a++) {
      for (b = 0; b < post; b++) {
        int64_t i = (a * ns + s) * post + b;
        float v = x[i];
        v = (max_range < v) ? max_range : v;
        v = (v < min_range) ? min_range : v;
        v *= sf;
        v = p->even ? rintf(v) : roundf(v);
        q2_store(out, p->dt, i, q2_cast_q(v, p->dt));
      }
    }
  } else {
    q2_quant f = q2_quant_make(p->qt, min_range, max_range);
    if (pre == 1 && ns == 1) {
      q2_job j = {Q2J_MIN_FIRST, p->dt, x, out, {f.scale, f.shift, f.lo, f.hi, 0, 0},
                  {0, 0, 0}};
      q2_job_run(k, &j, post);
      pre = 0;
    }
    for (a = 0; a < pre; a++) {
      for (b = 0; b < post; b++) {
        int64_t i = (a * ns + s) * post + b;
        q2_store(out, p->dt, i, q2_quant_one(x[i], &f));
      }
    }
  }
  *omin = min_range;
  *omax = max_range;
}

/* Per-axis QuantizeV2 (SCALED and MIN_COMBINED): every channel's clamp
 * range and scale are computed first, as q2_quantize_slice does them,
 * then one pass over the tensor quantizes with the same arithmetic. With
 * post == 1 (the last axis) a row holds every channel and the parameters
 * are read per element; otherwise a row is one channel's run of `post`
 * values with scalar parameters. Rows are split over the thread pool. */
typedef struct q2_axjob {
  int mode, even, is_signed;
  TF_DataType dt;
  const float* x;
  void* out;
  int64_t ns, post;
  const float *mn, *mx, *sf;
  float half;
} q2_axjob;

/* One quantized value of channel parameters MN, MX, SF, per kind. For
 * qint32 the per-slice code converts through lrint (q2_cast_q); narrower
 * types truncate, which q2_round_i32 matches for round-half-away. */
#define Q2A_U(v, MN, MX, SF) q2_trunc_i32((q2_clampf(v, MN, MX) - (MN)) * (SF) + 0.5f)
#define Q2A_S(v, MN, MX, SF) q2_round_i32((q2_clampf(v, MN, MX) - (MN)) * (SF) - half)
#define Q2A_S32(v, MN, MX, SF) \
  q2_lrint_i32(q2_round_f((q2_clampf(v, MN, MX) - (MN)) * (SF) - half))
#define Q2A_E(v, MN, MX, SF) q2_trunc_i32(rintf(q2_clampf(v, MN, MX) * (SF)))
#define Q2A_E32(v, MN, MX, SF) q2_lrint_i32(rintf(q2_clampf(v, MN, MX) * (SF)))
#define Q2A_A(v, MN, MX, SF) q2_round_i32(q2_clampf(v, MN, MX) * (SF))
#define Q2A_A32(v, MN, MX, SF) q2_lrint_i32(q2_round_f(q2_clampf(v, MN, MX) * (SF)))

#define Q2A_ROWS(TYPE, F)                                                    \
  do {                                                                       \
    const float* x_ = j->x;                                                  \
    TYPE* o_ = (TYPE*)j->out;                                                \
    if (post == 1) {                                                         \
      for (r = begin; r < end; r++) {                                        \
        const float* xr = x_ + r * ns;                                       \
        TYPE* orow = o_ + r * ns;                                            \
        for (c = 0; c < ns; c++) {                                           \
          orow[c] = (TYPE)(uint32_t)F(xr[c], mn[c], mx[c], sf[c]);           \
        }                                                                    \
      }                                                                      \
    } else {                                                                 \
      for (r = begin; r < end; r++) {                                        \
        const int64_t ch = r % ns;                                           \
        const float m0 = mn[ch], m1 = mx[ch], f = sf[ch];                    \
        const float* xr = x_ + r * post;                                     \
        TYPE* orow = o_ + r * post;                                          \
        for (c = 0; c < post; c++) {                                         \
          orow[c] = (TYPE)(uint32_t)F(xr[c], m0, m1, f);                     \
        }                                                                    \
      }                                                                      \
    }                                                                        \
  } while (0)

/* F8 for the 8/16-bit types, F32 for qint32. */
#define Q2A_BY_TYPE(F8, F32)                                                 \
  do {                                                                       \
    switch (j->dt) {                                                         \
      case TF_QINT8: Q2A_ROWS(int8_t, F8); break;                            \
      case TF_QUINT8: Q2A_ROWS(uint8_t, F8); break;                          \
      case TF_QINT16: Q2A_ROWS(int16_t, F8); break;                          \
      case TF_QUINT16: Q2A_ROWS(uint16_t, F8); break;                        \
      default: Q2A_ROWS(int32_t, F32); break;                                \
    }                                                                        \
  } while (0)

KUTIL_CLONES
static void q2_axjob_chunk(void* arg, int64_t begin, int64_t end) {
  const q2_axjob* j = (const q2_axjob*)arg;
  const int64_t ns = j->ns, post = j->post;
  const float *mn = j->mn, *mx = j->mx, *sf = j->sf;
  const float half = j->half;
  int64_t r, c;
  if (j->mode == Q2_SCALED) {
    if (j->even) {
      Q2A_BY_TYPE(Q2A_E, Q2A_E32);
    } else {
      Q2A_BY_TYPE(Q2A_A, Q2A_A32);
    }
  } else if (j->is_signed) {
    Q2A_BY_TYPE(Q2A_S, Q2A_S32);
  } else {
    Q2A_BY_TYPE(Q2A_U, Q2A_U);
  }
}
#undef Q2A_BY_TYPE
#undef Q2A_ROWS
#undef Q2A_U
#undef Q2A_S
#undef Q2A_S32
#undef Q2A_E
#undef Q2A_E32
#undef Q2A_A
#undef Q2A_A32

/* The clamp range and scale of one channel (q2_quantize_slice's first
 * half); *omin and *omax get the channel's output range. */
static int q2_qv2_params(tfe_kernel_context* k, const q2_qv2* p, float in_min,
                         float in_max, float* cmin, float* cmax, float* csf,
                         float* omin, float* omax) {
  float min_range, max_range, eps, m;
  if (in_max < in_min) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input_max_range must be larger than input_min_range.");
    return 0;
  }
  min_range = in_min < 0.0f ? in_min : 0.0f;
  m = fabsf(in_min) > fabsf(in_max) ? fabsf(in_min) : fabsf(in_max);
  eps = (m > 1.0f ? m : 1.0f) * p->ensure;
  max_range = in_max > min_range + eps ? in_max : min_range + eps;
  if (max_range < 0.0f) max_range = 0.0f;
  if (p->mode == Q2_MIN_COMBINED) {
    *csf = (float)(((double)p->qt.hi - (double)p->qt.lo) /
                   (double)(max_range - min_range));
  } else {
    const int64_t lo_out = p->qt.lo + (p->narrow ? 1 : 0);
    const int64_t hi_out = p->qt.hi;
    const float from_min = ((float)lo_out * min_range > 0)
                               ? (float)lo_out / min_range
                               : FLT_MAX;
    const float from_max = ((float)hi_out * max_range > 0)
                               ? (float)hi_out / max_range
                               : FLT_MAX;
    *csf = from_min < from_max ? from_min : from_max;
    min_range = (float)lo_out / *csf;
    max_range = (float)hi_out / *csf;
  }
  *cmin = *omin = min_range;
  *cmax = *omax = max_range;
  return 1;
}

/* Per-axis QuantizeV2 over a pre x ns x post input (mode is not
 * MIN_FIRST). */
static void q2_quantize_axis(tfe_kernel_context* k, const q2_qv2* p,
                             const float* x, void* out, int64_t pre,
                             int64_t ns, int64_t post, const float* in_min,
                             const float* in_max, float* omin, float* omax) {
  float* prm = (float*)tfe_malloc((size_t)(ns > 0 ? ns : 1) * 3 * sizeof(float));
  q2_axjob j;
  int64_t s, rows;
  if (prm == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory quantizing %lld channels",
               (long long)ns);
    return;
  }
  for (s = 0; s < ns; s++) {
    if (!q2_qv2_params(k, p, in_min[s], in_max[s], prm + s, prm + ns + s,
                       prm + 2 * ns + s, omin + s, omax + s)) {
      tfe_free(prm);
      return;
    }
  }
  memset(&j, 0, sizeof j);
  j.mode = p->mode;
  j.even = p->even;
  j.is_signed = p->qt.lo < 0;
  j.dt = p->dt;
  j.x = x;
  j.out = out;
  j.ns = ns;
  j.post = post;
  j.mn = prm;
  j.mx = prm + ns;
  j.sf = prm + 2 * ns;
  j.half = j.is_signed
               ? (float)(((double)p->qt.hi - (double)p->qt.lo + 1) / 2.0)
               : 0.0f;
  rows = post == 1 ? pre : pre * ns;
  if (rows > 0 && post > 0) {
    const int64_t per_row = post == 1 ? ns : post;
    int64_t grain = 32768 / (per_row > 0 ? per_row : 1);
    tfe_parallel_for(tfe_kernel_threadpool(k), rows, grain < 1 ? 1 : grain,
                     q2_axjob_chunk, &j);
  }
  tfe_free(prm);
}

static void k_quantize_v2(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* mn = k->inputs[1];
  const TF_Tensor* mx = k->inputs[2];
  const char *mode_s, *round_s;
  int32_t axis;
  int64_t ns = 1, pre, post, s;
  TF_Tensor *y, *ymin, *ymax;
  q2_qv2 p;
  if (!q2_attr_str(k, "mode", &mode_s) || !q2_attr_str(k, "round_mode", &round_s) ||
      !kutil_attr_int32(k, "axis", -1, &axis)) {
    return;
  }
  p.dt = k->output_types[0];
  p.qt = q2_qtype(p.dt);
  p.mode = q2_mode(mode_s);
  p.even = strcmp(round_s, "HALF_TO_EVEN") == 0;
  p.narrow = kutil_attr_bool(k, "narrow_range", 0);
  p.ensure = q2_attr_float(k, "ensure_minimum_range", 0.01f);
  if (p.even && p.mode != Q2_SCALED) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', "
               "but mode is '%s'.",
               mode_s);
    return;
  }
  if (axis > -1) {
    const TF_Tensor* r[2] = {mn, mx};
    const char* nm[2] = {"min_range", "max_range"};
    int j;
    if (axis >= x->num_dims) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Axis is on a zero-based index, so its value must always be "
                 "less than number of input's dims, but given axis value was "
                 "%d and input's dims was %d",
                 (int)axis, x->num_dims);
      return;
    }
    ns = x->dims[axis];
    for (j = 0; j < 2; j++) {
      if (r[j]->num_dims != 1) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "If axis is specified, %s must be a 1-D tensor whose size "
                   "matches the axis dimension of the input and output "
                   "tensors, but %s dims are %d",
                   nm[j], nm[j], r[j]->num_dims);
        return;
      }
      if (r[j]->dims[0] != ns) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "If axis is specified, %s must be a 1-D tensor whose size "
                   "matches the axis dimension of the input and output "
                   "tensors, but %s is a 1-D tensor of size %lld and input's "
                   "axis dimension is of size %lld",
                   nm[j], nm[j], (long long)r[j]->dims[0], (long long)ns);
        return;
      }
    }
  } else {
    if (kutil_num_elements(mn) != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "If axis is not specified, min_range must contain a single "
                 "float element, but it contains %lld elements",
                 (long long)kutil_num_elements(mn));
      return;
    }
    if (kutil_num_elements(mx) != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "If axis is not specified, max_range must contain a single "
                 "float element, but it contains %lld elements",
                 (long long)kutil_num_elements(mx));
      return;
    }
  }
  y = tfe_kernel_alloc_output(k, 0, p.dt, x->dims, x->num_dims);
  if (y == NULL) return;
  if (ns == 1) {
    ymin = tfe_kernel_alloc_output(k, 1, TF_FLOAT, NULL, 0);
    if (ymin == NULL) return;
    ymax = tfe_kernel_alloc_output(k, 2, TF_FLOAT, NULL, 0);
    if (ymax == NULL) return;
    q2_quantize_slice(k, &p, (const float*)kutil_data(x), kutil_data(y), 1, 1,
                      kutil_num_elements(x), 0, q2_f0(mn), q2_f0(mx),
                      (float*)kutil_data(ymin), (float*)kutil_data(ymax));
    return;
  }
  if (p.mode == Q2_MIN_FIRST) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "MIN_FIRST mode is not implemented for Quantize with axis != "
               "-1.");
    return;
  }
  ymin = tfe_kernel_alloc_output(k, 1, TF_FLOAT, mn->dims, mn->num_dims);
  if (ymin == NULL) return;
  ymax = tfe_kernel_alloc_output(k, 2, TF_FLOAT, mn->dims, mn->num_dims);
  if (ymax == NULL) return;
  if (kutil_num_elements(x) == 0) {
    for (s = 0; s < ns; s++) {
      ((float*)kutil_data(ymin))[s] = 0.0f;
      ((float*)kutil_data(ymax))[s] = 0.0f;
    }
  }
  q2_split(x, axis, &pre, &post);
  q2_quantize_axis(k, &p, (const float*)kutil_data(x), kutil_data(y), pre, ns,
                   post, (const float*)kutil_data(mn),
                   (const float*)kutil_data(mx), (float*)kutil_data(ymin),
                   (float*)kutil_data(ymax));
}

/* ----------------------------------------------------------- Dequantize */

/* Per-axis Dequantize (MIN_COMBINED or SCALED) of a pre x ns x post
 * tensor, each channel as TF's per-slice code: MIN_COMBINED gives
 * (q + half) * sf[c] + min[c], SCALED q * sf[c] (the whole-tensor qint32
 * round trip through int does not apply per axis); rows as in q2_axjob. */
typedef struct q2_dqjob {
  TF_DataType dt;
  const void* in;
  float* out;
  int64_t ns, post;
  const float *sf, *off;
  float half;
  int scaled;
} q2_dqjob;

#define Q2D_ROWS(TI)                                                         \
  do {                                                                       \
    const TI* x_ = (const TI*)j->in;                                         \
    if (post == 1) {                                                         \
      for (r = begin; r < end; r++) {                                        \
        const TI* xr = x_ + r * ns;                                          \
        float* orow = j->out + r * ns;                                       \
        if (j->scaled) {                                                     \
          for (c = 0; c < ns; c++) orow[c] = (float)xr[c] * sf[c];           \
        } else {                                                             \
          for (c = 0; c < ns; c++) {                                         \
            orow[c] = ((float)xr[c] + half) * sf[c] + off[c];                \
          }                                                                  \
        }                                                                    \
      }                                                                      \
    } else {                                                                 \
      for (r = begin; r < end; r++) {                                        \
        const float f = sf[r % ns], o = off[r % ns];                         \
        const TI* xr = x_ + r * post;                                        \
        float* orow = j->out + r * post;                                     \
        if (j->scaled) {                                                     \
          for (c = 0; c < post; c++) orow[c] = (float)xr[c] * f;             \
        } else {                                                             \
          for (c = 0; c < post; c++) orow[c] = ((float)xr[c] + half) * f + o; \
        }                                                                    \
      }                                                                      \
    }                                                                        \
  } while (0)

KUTIL_CLONES
static void q2_dqjob_chunk(void* arg, int64_t begin, int64_t end) {
  const q2_dqjob* j = (const q2_dqjob*)arg;
  const int64_t ns = j->ns, post = j->post;
  const float *sf = j->sf, *off = j->off;
  const float half = j->half;
  int64_t r, c;
  switch (j->dt) {
    case TF_QINT8: Q2D_ROWS(int8_t); break;
    case TF_QUINT8: Q2D_ROWS(uint8_t); break;
    case TF_QINT16: Q2D_ROWS(int16_t); break;
    case TF_QUINT16: Q2D_ROWS(uint16_t); break;
    default: Q2D_ROWS(int32_t); break;
  }
}
#undef Q2D_ROWS

/* Returns 0 (status set) when out of memory. */
static int q2_dequantize_axis(tfe_kernel_context* k, TF_DataType dt, int mode,
                              int narrow, const void* in, float* out,
                              int64_t pre, int64_t ns, int64_t post,
                              const float* mn, const float* mx) {
  const q2_qt qt = q2_qtype(dt);
  float* prm = (float*)tfe_malloc((size_t)(ns > 0 ? ns : 1) * 2 * sizeof(float));
  q2_dqjob j;
  int64_t s;
  if (prm == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory dequantizing");
    return 0;
  }
  for (s = 0; s < ns; s++) {
    const float rmin = mn[s], rmax = mx[s];
    if (mode == Q2_MIN_COMBINED) {
      prm[s] = (rmax - rmin) / ((float)qt.hi - (float)qt.lo);
      prm[ns + s] = rmin;
    } else {
      const int64_t lo_out = qt.lo + (narrow ? 1 : 0);
      if (qt.lo == 0) {
        prm[s] = rmax / (float)qt.hi;
      } else {
        const float f1 = rmin / (float)lo_out, f2 = rmax / (float)qt.hi;
        prm[s] = f1 < f2 ? f2 : f1;
      }
      prm[ns + s] = 0.0f;
    }
  }
  j.dt = dt;
  j.in = in;
  j.out = out;
  j.ns = ns;
  j.post = post;
  j.sf = prm;
  j.off = prm + ns;
  j.scaled = mode == Q2_SCALED;
  j.half = mode == Q2_MIN_COMBINED && qt.lo < 0
               ? ((float)qt.hi - (float)qt.lo + 1.0f) / 2.0f
               : 0.0f;
  if (pre > 0 && ns > 0 && post > 0) {
    const int64_t rows = post == 1 ? pre : pre * ns;
    const int64_t grain = 32768 / (post == 1 ? ns : post);
    tfe_parallel_for(tfe_kernel_threadpool(k), rows, grain < 1 ? 1 : grain,
                     q2_dqjob_chunk, &j);
  }
  tfe_free(prm);
  return 1;
}

static void k_dequantize(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* mn = k->inputs[1];
  const TF_Tensor* mx = k->inputs[2];
  const TF_DataType odt = k->output_types[0];
  const char* mode_s;
  int mode, narrow;
  int32_t axis;
  int64_t ns = 1, n, pre, post, i;
  TF_Tensor* y;
  float* fout;
  if (!q2_attr_str(k, "mode", &mode_s) ||
      !kutil_attr_int32(k, "axis", -1, &axis)) {
    return;
  }
  mode = q2_mode(mode_s);
  narrow = kutil_attr_bool(k, "narrow_range", 0);
  if (odt == TF_BFLOAT16 && mode != Q2_MIN_COMBINED) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "When output type is bfloat16, Mode string must be "
               "'MIN_COMBINED', is '%s'",
               mode_s);
    return;
  }
  if (axis >= x->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Axis must be less than input dimension(%d), got %d",
               x->num_dims, (int)axis);
    return;
  }
  if (axis > -1) ns = x->dims[axis];
  if (kutil_num_elements(mn) != ns) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input_min_tensor must have as many elements as input on the "
               "dequantization axis (%d), got %lld, expected %lld",
               (int)axis, (long long)kutil_num_elements(mn), (long long)ns);
    return;
  }
  if (kutil_num_elements(mx) != ns) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input_max_tensor must have as many elements as input on the "
               "dequantization axis (%d), got %lld, expected %lld",
               (int)axis, (long long)kutil_num_elements(mx), (long long)ns);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, odt, x->dims, x->num_dims);
  if (y == NULL) return;
  if (ns != 1 && mode == Q2_MIN_FIRST) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "MIN_FIRST mode is not implemented for Dequantize with axis != "
               "-1.");
    return;
  }
  n = kutil_num_elements(x);
  if (n == 0) return;
  if (odt == TF_FLOAT) {
    fout = (float*)kutil_data(y);
  } else {
    fout = (float*)tfe_malloc((size_t)n * sizeof(float));
    if (fout == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory dequantizing %lld values",
                 (long long)n);
      return;
    }
  }
  if (ns == 1) {
    const q2_qt qt = q2_qtype(x->dtype);
    const float rmin = q2_f0(mn), rmax = q2_f0(mx);
    q2_job j;
    memset(&j, 0, sizeof j);
    j.dt = x->dtype;
    j.in = kutil_data(x);
    j.out = fout;
    if (mode == Q2_MIN_COMBINED) {
      j.kind = Q2J_DEQ_COMBINED;
      j.p[0] = qt.lo < 0 ? ((float)qt.hi - (float)qt.lo + 1.0f) / 2.0f : 0.0f;
      j.p[1] = (rmax - rmin) / ((float)qt.hi - (float)qt.lo);
      j.p[2] = rmin;
    } else if (mode == Q2_SCALED) {
      const int64_t lo_out = qt.lo + (narrow ? 1 : 0);
      float sf;
      if (qt.lo == 0) {
        sf = rmax / (float)qt.hi;
      } else {
        float f1 = rmin / (float)lo_out, f2 = rmax / (float)qt.hi;
        sf = f1 < f2 ? f2 : f1;
      }
      j.kind = Q2J_DEQ_SCALED;
      j.p[0] = sf;
      j.p[1] = x->dtype == TF_QINT32 ? 1.0f : 0.0f;
    } else {
      q2_deq d = q2_deq_make(qt.bits, qt.lo, rmin, rmax);
      j.kind = Q2J_DEQ_MIN_FIRST;
      j.p[0] = d.offset;
      j.p[1] = d.scale;
    }
    q2_job_run(k, &j, n);
  } else {
    q2_split(x, axis, &pre, &post);
    if (!q2_dequantize_axis(k, x->dtype, mode, narrow, kutil_data(x), fout, pre,
                            ns, post, (const float*)kutil_data(mn),
                            (const float*)kutil_data(mx))) {
      if (odt != TF_FLOAT) tfe_free(fout);
      return;
    }
  }
  if (odt != TF_FLOAT) {
    uint16_t* o = (uint16_t*)kutil_data(y);
    for (i = 0; i < n; i++) o[i] = kutil_f32_to_bf16(fout[i]);
    tfe_free(fout);
  }
}

/* ------------------------------------------------ QuantizeAndDequantize */

static void k_qdq_v1(tfe_kernel_context* k) {
  KUTIL_FAIL(k, TF_UNIMPLEMENTED,
             "Op QuantizeAndDequantize is not available in GraphDef version "
             "2474. It has been removed in version 22. Replaced by "
             "QuantizeAndDequantizeV2.");
}

/* The scale of one channel (TF's ComputeQuantizationRange), in the
 * precision of T (float or double; is_f32 selects float rounding). */
typedef struct q2_qdq_p {
  int is_f32, signed_input, num_bits, even, narrow, range_given;
} q2_qdq_p;

static void q2_qdq_range(const q2_qdq_p* p, double* mn, double* mx,
                         double* scale, double* inv) {
  const int64_t qmin =
      p->signed_input
          ? (p->narrow ? -((int64_t)1 << (p->num_bits - 1)) + 1
                       : -((int64_t)1 << (p->num_bits - 1)))
          : 0;
  const int64_t qmax = p->signed_input ? ((int64_t)1 << (p->num_bits - 1)) - 1
                                       : ((int64_t)1 << p->num_bits) - 1;
  if (p->is_f32) {
    float fmn = (float)*mn, fmx = (float)*mx, s, iv;
    float smin = ((float)qmin * fmn > 0) ? (float)qmin / fmn : FLT_MAX;
    float smax = ((float)qmax * fmx > 0) ? (float)qmax / fmx : FLT_MAX;
    if (smin < smax) {
      s = smin;
      iv = fmn / (float)qmin;
      fmx = (float)qmax * iv;
    } else {
      s = smax;
      iv = fmx / (float)qmax;
      fmn = (float)qmin * iv;
    }
    *mn = fmn;
    *mx = fmx;
    *scale = s;
    *inv = iv;
  } else {
    double smin = ((double)qmin * *mn > 0) ? (double)qmin / *mn : DBL_MAX;
    double smax = ((double)qmax * *mx > 0) ? (double)qmax / *mx : DBL_MAX;
    if (smin < smax) {
      *scale = smin;
      *inv = *mn / (double)qmin;
      *mx = (double)qmax * *inv;
    } else {
      *scale = smax;
      *inv = *mx / (double)qmax;
      *mn = (double)qmin * *inv;
    }
  }
}

/* min and max of x as TF's sequential scan keeps them: a NaN x[0] stays,
 * later NaNs are skipped and of equal values (+0 and -0) the first one
 * wins. The values come from 16 independent lanes; a zero result then
 * takes its sign from the first zero in x. */
#if defined(__GNUC__)
/* GCC's (and clang's) vector extension: one compare and blend per 16
 * values (GCC does not vectorize the scalar form of the select). */
typedef float q2_v16f __attribute__((vector_size(64)));
typedef int32_t q2_v16i __attribute__((vector_size(64)));
#endif

KUTIL_CLONES
static void q2_minmax_lanes(const float* x, int64_t n, float* mn, float* mx) {
  float la[16], lb[16];
  int64_t i = 0;
  int l;
  for (l = 0; l < 16; l++) la[l] = lb[l] = x[0];
#if defined(__GNUC__)
  {
    q2_v16f va, vb;
    memcpy(&va, la, sizeof va);
    vb = va;
    for (; i + 16 <= n; i += 16) {
      q2_v16f v;
      q2_v16i lt, gt;
      memcpy(&v, x + i, sizeof v);
      lt = v < va;
      gt = v > vb;
      va = (q2_v16f)(((q2_v16i)v & lt) | ((q2_v16i)va & ~lt));
      vb = (q2_v16f)(((q2_v16i)v & gt) | ((q2_v16i)vb & ~gt));
    }
    memcpy(la, &va, sizeof va);
    memcpy(lb, &vb, sizeof vb);
  }
#endif
  for (; i + 16 <= n; i += 16) {
    for (l = 0; l < 16; l++) {
      const float v = x[i + l];
      la[l] = v < la[l] ? v : la[l];
      lb[l] = v > lb[l] ? v : lb[l];
    }
  }
  for (; i < n; i++) {
    la[0] = x[i] < la[0] ? x[i] : la[0];
    lb[0] = x[i] > lb[0] ? x[i] : lb[0];
  }
  for (l = 1; l < 16; l++) {
    la[0] = la[l] < la[0] ? la[l] : la[0];
    lb[0] = lb[l] > lb[0] ? lb[l] : lb[0];
  }
  *mn = la[0];
  *mx = lb[0];
}

static void q2_minmax_f32(const float* x, int64_t n, float* mn, float* mx) {
  int64_t i;
  if (isnan(x[0])) {
    *mn = *mx = x[0];
    return;
  }
  q2_minmax_lanes(x, n, mn, mx);
  if (*mn == 0.0f || *mx == 0.0f) {
    for (i = 0; i < n && x[i] != 0.0f; i++) {
    }
    if (*mn == 0.0f) *mn = x[i];
    if (*mx == 0.0f) *mx = x[i];
  }
}

/* Quantizes and dequantizes slice s of a pre x ns x post array. */
static void q2_qdq_slice(tfe_kernel_context* k, const q2_qdq_p* p,
                         const void* xin, void* yout,
                         int64_t pre, int64_t ns, int64_t post, int64_t s,
                         double mn, double mx) {
  int64_t a, b;
  double scale, inv;
  if (!p->range_given && p->is_f32 && pre == 1 && ns == 1) {
    float fa, fb;
    if (post == 0) return;
    q2_minmax_f32((const float*)xin, post, &fa, &fb);
    mn = fa;
    mx = fb;
  } else if (!p->range_given) {
    int first = 1;
    for (a = 0; a < pre; a++) {
      for (b = 0; b < post; b++) {
        int64_t i = (a * ns + s) * post + b;
        double v = p->is_f32 ? (double)((const float*)xin)[i]
                             : ((const double*)xin)[i];
        if (first) {
          mn = mx = v;
          first = 0;
        } else {
          if (v < mn) mn = v;
          if (v > mx) mx = v;
        }
      }
    }
    if (first) return; /* empty slice */
  }
  q2_qdq_range(p, &mn, &mx, &scale, &inv);
  if (p->is_f32 && pre == 1 && ns == 1 && k != NULL) {
    q2_job j = {Q2J_QDQ_F32, TF_FLOAT, xin, yout,
                {(float)mn, (float)mx, (float)scale, (float)inv, 0, 0},
                {p->range_given, p->even, 0}};
    q2_job_run(k, &j, post);
  } else if (p->is_f32) {
    const float fmn = (float)mn, fmx = (float)mx, fs = (float)scale,
                fi = (float)inv;
    const float* x = (const float*)xin;
    float* y = (float*)yout;
    for (a = 0; a < pre; a++) {
      for (b = 0; b < post; b++) {
        int64_t i = (a * ns + s) * post + b;
        float v = x[i];
        if (p->range_given) {
          v = (fmx < v) ? fmx : v;
          v = (v < fmn) ? fmn : v;
        }
        v *= fs;
        v = p->even ? rintf(v) : floorf(v + 0.5f);
        y[i] = v * fi;
      }
    }
  } else {
    const double* x = (const double*)xin;
    double* y = (double*)yout;
    for (a = 0; a < pre; a++) {
      for (b = 0; b < post; b++) {
        int64_t i = (a * ns + s) * post + b;
        double v = x[i];
        if (p->range_given) {
          v = (mx < v) ? mx : v;
          v = (v < mn) ? mn : v;
        }
        v *= scale;
        v = p->even ? rint(v) : floor(v + 0.5);
        y[i] = v * inv;
      }
    }
  }
}

static double q2_scalar_t(const TF_Tensor* t, int64_t i) {
  if (t->dtype == TF_FLOAT) return ((const float*)kutil_data(t))[i];
  return ((const double*)kutil_data(t))[i];
}

static const char* q2_tfmt(const TF_Tensor* t, double v, char* buf,
                           size_t cap) {
  if (t->dtype == TF_FLOAT) return q2_ffmt((float)v, buf, cap);
  return q2_dfmt(v, buf, cap);
}

/* Checks that the range tensors are 1-D with `depth` elements (the wording
 * TF's V2/V3 kernels use). */
static int q2_qdq_axis_ranges(tfe_kernel_context* k, const TF_Tensor* mn,
                              const TF_Tensor* mx, int64_t depth, int axis) {
  const TF_Tensor* r[2] = {mn, mx};
  const char* nm[2] = {"input_min_tensor", "input_max_tensor"};
  int j;
  kutil_shape_buf sb;
  for (j = 0; j < 2; j++) {
    if (r[j]->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shape must be rank 1 for %s when the axis is specified",
                 nm[j]);
      return 0;
    }
  }
  for (j = 0; j < 2; j++) {
    if (r[j]->dims[0] != depth) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s has incorrect size, was %lld expected %lld to match dim "
                 "%d of the input %s",
                 nm[j], (long long)r[j]->dims[0], (long long)depth, axis,
                 kutil_tshape(r[j], &sb));
      return 0;
    }
  }
  return 1;
}

static void q2_qdq_run(tfe_kernel_context* k, const q2_qdq_p* p, int axis,
                       const TF_Tensor* mn, const TF_Tensor* mx) {
  const TF_Tensor* x = k->inputs[0];
  TF_Tensor* y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  int64_t pre, post, ns, s;
  if (y == NULL || kutil_num_elements(x) == 0) return;
  if (axis == -1) {
    q2_qdq_slice(k, p, kutil_data(x), kutil_data(y), 1, 1, kutil_num_elements(x),
                 0, p->range_given ? q2_scalar_t(mn, 0) : 0.0,
                 p->range_given ? q2_scalar_t(mx, 0) : 0.0);
    return;
  }
  ns = x->dims[axis];
  q2_split(x, axis, &pre, &post);
  for (s = 0; s < ns; s++) {
    q2_qdq_slice(k, p, kutil_data(x), kutil_data(y), pre, ns, post, s,
                 p->range_given ? q2_scalar_t(mn, s) : 0.0,
                 p->range_given ? q2_scalar_t(mx, s) : 0.0);
  }
}

/* QuantizeAndDequantizeV2 and V4 (same kernel; they differ in gradient). */
static void k_qdq_v2(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* mn = k->inputs[1];
  const TF_Tensor* mx = k->inputs[2];
  const char* round_s;
  int32_t nb, axis;
  q2_qdq_p p;
  char b1[40], b2[40];
  if (!kutil_attr_int32(k, "num_bits", 8, &nb) ||
      !kutil_attr_int32(k, "axis", -1, &axis) ||
      !q2_attr_str(k, "round_mode", &round_s)) {
    return;
  }
  p.is_f32 = x->dtype == TF_FLOAT;
  p.signed_input = kutil_attr_bool(k, "signed_input", 1);
  p.range_given = kutil_attr_bool(k, "range_given", 0);
  p.narrow = kutil_attr_bool(k, "narrow_range", 0);
  p.even = strcmp(round_s, "HALF_UP") != 0;
  p.num_bits = nb;
  if (!(nb > 0 && nb < (p.signed_input ? 62 : 63))) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_bits is out of range: %d with signed_input_ %d", (int)nb,
               p.signed_input);
    return;
  }
  if (axis < -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Axis must be at least -1. Found %d",
               (int)axis);
    return;
  }
  if (axis != -1 && axis >= x->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Shape must be at least rank %d but is rank %d",
               (int)(int32_t)((uint32_t)axis + 1u),
               x->num_dims);
    return;
  }
  if (p.range_given) {
    double lo, hi;
    /* TF checks only input_min's rank for an axis, then wants scalars:
     * a given per-channel range is always refused. */
    if (axis != -1 && mn->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shape must be rank 1 for input_min_tensor when the axis is "
                 "specified");
      return;
    }
    if (mn->num_dims != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input_min must be a scalar.");
      return;
    }
    if (mx->num_dims != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input_max must be a scalar.");
      return;
    }
    lo = q2_scalar_t(mn, 0);
    hi = q2_scalar_t(mx, 0);
    if (!(lo <= hi)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid range: input_min %s > input_max %s",
                 q2_tfmt(mn, lo, b1, sizeof b1), q2_tfmt(mx, hi, b2, sizeof b2));
      return;
    }
  }
  q2_qdq_run(k, &p, axis, mn, mx);
}

static void k_qdq_v3(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* mn = k->inputs[1];
  const TF_Tensor* mx = k->inputs[2];
  const TF_Tensor* bits = k->inputs[3];
  int32_t axis, nb;
  q2_qdq_p p;
  char b1[40], b2[40];
  if (!kutil_attr_int32(k, "axis", -1, &axis)) return;
  p.is_f32 = x->dtype == TF_FLOAT;
  p.signed_input = kutil_attr_bool(k, "signed_input", 1);
  p.range_given = kutil_attr_bool(k, "range_given", 1);
  p.narrow = kutil_attr_bool(k, "narrow_range", 0);
  p.even = 1;
  if (axis < -1 || axis >= x->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Axis requested is larger than input dimensions. Axis: %d "
               "Input Dimensions: %d",
               (int)axis, x->num_dims);
    return;
  }
  if (bits->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Invalid shape. The `num_bits` tensor should be a scalar. Got "
               "dimensions: %d",
               bits->num_dims);
    return;
  }
  nb = ((const int32_t*)kutil_data(bits))[0];
  if (!(nb > 0 && nb < (p.signed_input ? 62 : 63))) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_bits is out of range: %d with `signed_input_` %d", (int)nb,
               p.signed_input);
    return;
  }
  p.num_bits = nb;
  if (p.range_given) {
    if (axis == -1) {
      double lo, hi;
      if (kutil_num_elements(mn) < 1 || kutil_num_elements(mx) < 1) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "input_min and input_max must each hold a value");
        return;
      }
      lo = q2_scalar_t(mn, 0);
      hi = q2_scalar_t(mx, 0);
      if (!(lo <= hi)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Invalid range: input_min %s > input_max %s",
                   q2_tfmt(mn, lo, b1, sizeof b1),
                   q2_tfmt(mx, hi, b2, sizeof b2));
        return;
      }
    } else if (!q2_qdq_axis_ranges(k, mn, mx, x->dims[axis], (int)axis)) {
      return;
    }
  }
  q2_qdq_run(k, &p, axis, mn, mx);
}

static void k_qdq_v4_grad(tfe_kernel_context* k) {
  const TF_Tensor* g = k->inputs[0];
  const TF_Tensor* x = k->inputs[1];
  const TF_Tensor* mn = k->inputs[2];
  const TF_Tensor* mx = k->inputs[3];
  int32_t axis;
  int64_t depth = 1, pre, post, s, a, b, n;
  int i;
  TF_Tensor *dx, *dmin, *dmax;
  if (!kutil_attr_int32(k, "axis", -1, &axis)) return;
  if (g->num_dims != x->num_dims) goto size_err;
  for (i = 0; i < x->num_dims; i++) {
    if (g->dims[i] != x->dims[i]) goto size_err;
  }
  if (axis < -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Axis must be at least -1. Found %d",
               (int)axis);
    return;
  }
  if (axis != -1 && axis >= x->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Axis should be -1 or 0 or a positive value less than %dbut "
               "given axis value was %d",
               x->num_dims, (int)axis);
    return;
  }
  if (axis != -1) depth = x->dims[axis];
  if (mn->num_dims > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input min tensor must have dimension 0 or 1. Received %d.",
               mn->num_dims);
    return;
  }
  if (mx->num_dims > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input max tensor must have dimension 0 or 1. Received %d.",
               mx->num_dims);
    return;
  }
  if (axis != -1) {
    if (mn->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shape must be rank 1 for input_min_tensor when the axis is "
                 "specified");
      return;
    }
    if (mx->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shape must be rank 1 for input_max_tensor when the axis is "
                 "specified");
      return;
    }
    if (mn->dims[0] != depth) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "min has incorrect size, expected %lld was %lld",
                 (long long)depth, (long long)mn->dims[0]);
      return;
    }
    if (mx->dims[0] != depth) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "max has incorrect size, expected %lld was %lld",
                 (long long)depth, (long long)mx->dims[0]);
      return;
    }
  } else {
    if (mn->num_dims != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "input_min must be a scalar if axis is unspecified");
      return;
    }
    if (mx->num_dims != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "input_max must be a scalar if axis is unspecified");
      return;
    }
  }
  dx = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (dx == NULL) return;
  dmin = tfe_kernel_alloc_output(k, 1, x->dtype, &depth, axis == -1 ? 0 : 1);
  if (dmin == NULL) return;
  dmax = tfe_kernel_alloc_output(k, 2, x->dtype, &depth, axis == -1 ? 0 : 1);
  if (dmax == NULL) return;
  memset(kutil_data(dmin), 0, (size_t)depth * kutil_esize(x->dtype));
  memset(kutil_data(dmax), 0, (size_t)depth * kutil_esize(x->dtype));
  n = kutil_num_elements(x);
  if (n == 0) return;
  if (axis == -1) {
    pre = 1;
    post = n;
  } else {
    q2_split(x, axis, &pre, &post);
  }
  for (s = 0; s < depth; s++) {
    const double lo = q2_scalar_t(mn, s), hi = q2_scalar_t(mx, s);
    for (a = 0; a < pre; a++) {
      for (b = 0; b < post; b++) {
        int64_t j = (a * depth + s) * post + b;
        if (x->dtype == TF_FLOAT) {
          const float v = ((const float*)kutil_data(x))[j];
          const float in = (v >= (float)lo && v <= (float)hi) ? 1.0f : 0.0f;
          ((float*)kutil_data(dx))[j] = ((const float*)kutil_data(g))[j] * in;
        } else {
          const double v = ((const double*)kutil_data(x))[j];
          const double in = (v >= lo && v <= hi) ? 1.0 : 0.0;
          ((double*)kutil_data(dx))[j] = ((const double*)kutil_data(g))[j] * in;
        }
      }
    }
  }
  return;
size_err:
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "gradient and input must be the same size");
}

/* ------------------------------------------------------------ Requantize */

/* TF's fixed-point qint32 -> quint8 requantization. */
static void q2_requant_32_to_u8(const int32_t* in, uint8_t* out, int64_t n,
                                float min_in, float max_in, float min_out,
                                float max_out) {
  const float in_range = max_in - min_in;
  const float out_range = max_out - min_out;
  const float recip = out_range == 0.0f ? 0.0f : (float)(255.0 / out_range);
  const float rezero = (float)((double)(min_in + max_in) / 2.0);
  const int64_t scale_fp =
      out_range == 0.0f
          ? 0
          : q2_d2i64(255.0 * 65536.0 * (double)in_range / (double)out_range);
  const float off_f = rezero * recip * 65536.0f;
  const int64_t in_off =
      (!(off_f >= -9.2233720368547758e18f && off_f < 9.2233720368547758e18f))
          ? INT64_MIN
          : (int64_t)off_f;
  const int64_t out_off =
      out_range == 0.0f
          ? 0
          : q2_d2i64(round(65536.0 * ((double)min_out * 255.0) /
                           (double)out_range));
  const int64_t add =
      (int64_t)((uint64_t)in_off - (uint64_t)out_off + (uint64_t)32768);
  int64_t i;
  for (i = 0; i < n; i++) {
    int64_t prod = (int64_t)((uint64_t)(int64_t)in[i] * (uint64_t)scale_fp);
    int64_t fp = (int64_t)((uint64_t)(prod >> 32) + (uint64_t)add);
    int64_t q = fp >> 16;
    q = q < 0 ? 0 : (q > 255 ? 255 : q);
    out[i] = (uint8_t)q;
  }
}

/* The general requantization (TF's Eigen dequantize then quantize): p is
 * the dequantizer's scale and offset then the quantizer's scale, shift, lo
 * and hi (q2_quant_one's arithmetic, roundf through q2_round_f). */
typedef struct q2_rqjob {
  const void* in;
  void* out;
  TF_DataType idt, odt;
  q2_deq d;
  q2_quant f;
} q2_rqjob;

#define Q2R_LOOP(TI, TO)                                                     \
  do {                                                                       \
    const TI* x_ = (const TI*)j->in;                                         \
    TO* o_ = (TO*)j->out;                                                    \
    for (i = begin; i < end; i++) {                                          \
      const float v = ds + (float)x_[i] * dsc;                               \
      o_[i] = (TO)(uint32_t)q2_trunc_i32(                                    \
          q2_clampf(q2_round_f(v * fs) - fsh, flo, fhi));                    \
    }                                                                        \
  } while (0)

#define Q2R_OUT(TI)                                                          \
  do {                                                                       \
    switch (j->odt) {                                                        \
      case TF_QINT8: Q2R_LOOP(TI, int8_t); break;                            \
      case TF_QUINT8: Q2R_LOOP(TI, uint8_t); break;                          \
      case TF_QINT16: Q2R_LOOP(TI, int16_t); break;                          \
      case TF_QUINT16: Q2R_LOOP(TI, uint16_t); break;                        \
      default: Q2R_LOOP(TI, int32_t); break;                                 \
    }                                                                        \
  } while (0)

KUTIL_CLONES
static void q2_rqjob_chunk(void* arg, int64_t begin, int64_t end) {
  const q2_rqjob* j = (const q2_rqjob*)arg;
  const float ds = j->d.offset, dsc = j->d.scale;
  const float fs = j->f.scale, fsh = j->f.shift, flo = j->f.lo, fhi = j->f.hi;
  int64_t i;
  switch (j->idt) {
    case TF_QINT8: Q2R_OUT(int8_t); break;
    case TF_QUINT8: Q2R_OUT(uint8_t); break;
    case TF_QINT16: Q2R_OUT(int16_t); break;
    case TF_QUINT16: Q2R_OUT(uint16_t); break;
    default: Q2R_OUT(int32_t); break;
  }
}
#undef Q2R_OUT
#undef Q2R_LOOP

static void q2_requant_general(tfe_kernel_context* k, const void* in,
                               TF_DataType idt, void* out, TF_DataType odt,
                               int64_t n, float min_in, float max_in,
                               float min_out, float max_out) {
  const q2_qt iq = q2_qtype(idt), oq = q2_qtype(odt);
  q2_rqjob j;
  j.in = in;
  j.out = out;
  j.idt = idt;
  j.odt = odt;
  j.d = q2_deq_make(iq.bits, iq.lo, min_in, max_in);
  j.f = q2_quant_make(oq, min_out, max_out);
  tfe_parallel_for(tfe_kernel_threadpool(k), n, 32768, q2_rqjob_chunk, &j);
}

static void q2_requant(tfe_kernel_context* k, const TF_Tensor* x,
                       TF_Tensor* y, float min_in,
                       float max_in, float min_out, float max_out) {
  int64_t n = kutil_num_elements(x);
  if (n == 0) return;
  if (x->dtype == TF_QINT32 && y->dtype == TF_QUINT8) {
    q2_requant_32_to_u8((const int32_t*)kutil_data(x), (uint8_t*)kutil_data(y),
                        n, min_in, max_in, min_out, max_out);
  } else {
    q2_requant_general(k, kutil_data(x), x->dtype, kutil_data(y), y->dtype, n,
                       min_in, max_in, min_out, max_out);
  }
}

static int q2_rank0(tfe_kernel_context* k, int idx, const char* name) {
  if (k->inputs[idx]->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "`%s` must be rank 0 but is rank %d",
               name, k->inputs[idx]->num_dims);
    return 0;
  }
  return 1;
}

static int q2_alloc_range(tfe_kernel_context* k, int idx, float mn, float mx) {
  TF_Tensor* a = tfe_kernel_alloc_output(k, idx, TF_FLOAT, NULL, 0);
  TF_Tensor* b;
  if (a == NULL) return 0;
  b = tfe_kernel_alloc_output(k, idx + 1, TF_FLOAT, NULL, 0);
  if (b == NULL) return 0;
  *(float*)kutil_data(a) = mn;
  *(float*)kutil_data(b) = mx;
  return 1;
}

static void k_requantize(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  float rmin, rmax;
  char b1[40], b2[40];
  TF_Tensor* y;
  if (!q2_rank0(k, 1, "input_min") || !q2_rank0(k, 2, "input_max") ||
      !q2_rank0(k, 3, "requested_output_min") ||
      !q2_rank0(k, 4, "requested_output_max")) {
    return;
  }
  rmin = q2_f0(k->inputs[3]);
  rmax = q2_f0(k->inputs[4]);
  if (!(rmin <= 0.0f)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "requested_output_min must be <= 0, but got %s",
               q2_ffmt(rmin, b1, sizeof b1));
    return;
  }
  if (!(rmax >= rmin)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "requested_output_max must be >= requested_output_min, but got "
               "%s and %s",
               q2_ffmt(rmax, b1, sizeof b1), q2_ffmt(rmin, b2, sizeof b2));
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, k->output_types[0], x->dims, x->num_dims);
  if (y == NULL) return;
  q2_requant(k, x, y, q2_f0(k->inputs[1]), q2_f0(k->inputs[2]), rmin, rmax);
  q2_alloc_range(k, 1, rmin, rmax);
}

/* Smallest and largest element of a qint32 tensor (INT32_MAX / INT32_MIN
 * when empty, as Eigen's reductions). */
static void q2_minmax32(const TF_Tensor* x, int32_t* lo, int32_t* hi) {
  const int32_t* d = (const int32_t*)kutil_data(x);
  int64_t n = kutil_num_elements(x), i;
  int32_t a = INT32_MAX, b = INT32_MIN;
  for (i = 0; i < n; i++) {
    if (d[i] < a) a = d[i];
    if (d[i] > b) b = d[i];
  }
  *lo = a;
  *hi = b;
}

static void k_requantization_range(tfe_kernel_context* k) {
  float in_min, in_max, umin, umax;
  int32_t lo, hi;
  if (kutil_num_elements(k->inputs[1]) == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input min must not be empty.");
    return;
  }
  if (kutil_num_elements(k->inputs[2]) == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input max must not be empty.");
    return;
  }
  in_min = q2_f0(k->inputs[1]);
  in_max = q2_f0(k->inputs[2]);
  q2_minmax32(k->inputs[0], &lo, &hi);
  umin = q2_q_to_f(lo, 32, INT32_MIN, in_min, in_max);
  if (umin > 0.0f) umin = 0.0f;
  umax = q2_q_to_f(hi, 32, INT32_MIN, in_min, in_max);
  q2_alloc_range(k, 0, umin, umax);
}

static void k_quantize_down_and_shrink_range(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  float in_min, in_max, amin, amax;
  int32_t lo, hi;
  TF_Tensor* y;
  if (!q2_rank0(k, 1, "input_min") || !q2_rank0(k, 2, "input_max")) return;
  in_min = q2_f0(k->inputs[1]);
  in_max = q2_f0(k->inputs[2]);
  q2_minmax32(x, &lo, &hi);
  amin = q2_q_to_f(lo, 32, INT32_MIN, in_min, in_max);
  if (amin > 0.0f) amin = 0.0f;
  amax = q2_q_to_f(hi, 32, INT32_MIN, in_min, in_max);
  y = tfe_kernel_alloc_output(k, 0, k->output_types[0], x->dims, x->num_dims);
  if (y == NULL) return;
  q2_requant(k, x, y, in_min, in_max, amin, amax);
  q2_alloc_range(k, 1, amin, amax);
}

/* Per-channel range checks shared by the two per-channel kernels. */
static int q2_pc_sizes(tfe_kernel_context* k, const TF_Tensor* mn,
                       const TF_Tensor* mx, int64_t depth) {
  const int64_t d0 = mn->num_dims > 0 ? mn->dims[0] : 1;
  const int64_t d1 = mx->num_dims > 0 ? mx->dims[0] : 1;
  if (d0 != depth || kutil_num_elements(mn) != depth) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input_min has incorrect size, expected %lld was %lld",
               (long long)depth, (long long)d0);
    return 0;
  }
  if (d1 != depth || kutil_num_elements(mx) != depth) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input_max has incorrect size, expected %lld was %lld",
               (long long)depth, (long long)d1);
    return 0;
  }
  return 1;
}

static inline int32_t q2_abs32(int32_t v) {
  return v < 0 ? (int32_t)(0u - (uint32_t)v) : v;
}

static void k_requantization_range_per_channel(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* mn = k->inputs[1];
  const TF_Tensor* mx = k->inputs[2];
  const int64_t depth = kutil_num_elements(mx);
  const float clip = q2_attr_float(k, "clip_value_max", 0.0f);
  const float* fmn = (const float*)kutil_data(mn);
  const float* fmx = (const float*)kutil_data(mx);
  const int32_t* d = (const int32_t*)kutil_data(x);
  float out_max = FLT_MIN;
  int non_neg = 1;
  int64_t c, i, rows;
  if (!q2_pc_sizes(k, mn, mx, depth)) return;
  if (x->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be in NHWC format");
    return;
  }
  if (x->dims[3] != depth) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input must have same number of channels as length of "
               "input_min: %lld vs %lld",
               (long long)x->dims[3], (long long)depth);
    return;
  }
  rows = depth == 0 ? 0 : kutil_num_elements(x) / depth;
  for (c = 0; c < depth; c++) {
    int32_t lo = INT32_MAX, hi = INT32_MIN, am, al, ah;
    float scale, r;
    for (i = 0; i < rows; i++) {
      int32_t v = d[i * depth + c];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    al = q2_abs32(lo);
    ah = q2_abs32(hi);
    am = al > ah ? al : ah;
    scale = fabsf(fmn[c]) > fabsf(fmx[c]) ? fabsf(fmn[c]) : fabsf(fmx[c]);
    r = scale * (float)am / 2147483648.0f;
    if (lo < 0) non_neg = 0;
    if (r > out_max) out_max = r;
  }
  if (out_max > clip) out_max = clip;
  q2_alloc_range(k, 0, non_neg ? 0.0f : -out_max, out_max);
}

static void k_requantize_per_channel(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* mn = k->inputs[1];
  const TF_Tensor* mx = k->inputs[2];
  const TF_DataType odt = k->output_types[0];
  const int64_t depth = kutil_num_elements(mn);
  float rmin, rmax, rmm, factor;
  float* scales;
  int64_t n, i;
  char b1[40];
  TF_Tensor* y;
  if (!q2_pc_sizes(k, mn, mx, depth)) return;
  if (x->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Current RequantizePerChannel operatorsupports 4D tensors only.");
    return;
  }
  if (kutil_num_elements(k->inputs[3]) < 1 ||
      kutil_num_elements(k->inputs[4]) < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "requested_output_min and requested_output_max must each hold "
               "a value");
    return;
  }
  /* TF reads the scales by channel without checking the input's last dim
   * (reading past them); tfe refuses that input. */
  if (x->dims[3] != depth) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input must have same number of channels as length of "
               "input_min: %lld vs %lld",
               (long long)x->dims[3], (long long)depth);
    return;
  }
  rmin = q2_f0(k->inputs[3]);
  rmax = q2_f0(k->inputs[4]);
  if (odt == TF_QINT8 && !(rmin < 0.0f)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "If out_type is QINT8, requested_output_max must be non "
               "negative, got %s",
               q2_ffmt(rmin, b1, sizeof b1));
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, odt, x->dims, x->num_dims);
  if (y == NULL) return;
  if (!q2_alloc_range(k, 1, rmin, rmax)) return;
  n = kutil_num_elements(x);
  if (n == 0 || depth == 0) return;
  factor = odt == TF_QINT8 ? 127.0f : 255.0f;
  rmm = fabsf(rmin) > fabsf(rmax) ? fabsf(rmin) : fabsf(rmax);
  scales = (float*)tfe_malloc((size_t)depth * sizeof(float));
  if (scales == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  for (i = 0; i < depth; i++) {
    const float a = fabsf(((const float*)kutil_data(mn))[i]);
    const float b = fabsf(((const float*)kutil_data(mx))[i]);
    scales[i] = factor * ((a > b ? a : b) / rmm / 2147483648.0f);
  }
  for (i = 0; i < n; i++) {
    float v = (float)((const int32_t*)kutil_data(x))[i] * scales[i % depth];
    int64_t q;
    v = rintf(v);
    if (odt == TF_QINT8) {
      q = v < -128.0f ? -128 : (v > 127.0f ? 127 : (isnan(v) ? 0 : (int64_t)v));
    } else {
      q = v < 0.0f ? 0 : (v > 255.0f ? 255 : (isnan(v) ? 0 : (int64_t)v));
    }
    q2_store(kutil_data(y), odt, i, q);
  }
  tfe_free(scales);
}

/* ------------------------------------------------ Uniform* (TF's affine
 * quantization with scale and zero point per tensor or per axis) */

/* A qint32 value as TF's kernels read it with static_cast<int32_t>: the
 * type only converts to float, so the value goes through float (large
 * values round; 2^31-1 becomes INT32_MIN). Narrower types read exactly. */
static inline int32_t q2u_int(const void* d, TF_DataType dt, int64_t i) {
  if (dt == TF_QINT32) return q2_trunc_i32((float)((const int32_t*)d)[i]);
  return (int32_t)q2_load(d, dt, i);
}

static inline int32_t q2u_add(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}

static inline int32_t q2u_sub(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a - (uint32_t)b);
}

static inline int32_t q2u_mul(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a * (uint32_t)b);
}

static inline int32_t q2u_clamp(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/* TF's QuantizationAxisAndShapeValid on a data shape. */
static int q2u_axis_valid(tfe_kernel_context* k, const int64_t* dims, int nd,
                          const TF_Tensor* scales, const TF_Tensor* zps,
                          int axis) {
  kutil_shape_buf b1, b2;
  int i, same = scales->num_dims == zps->num_dims;
  for (i = 0; same && i < scales->num_dims; i++) {
    same = scales->dims[i] == zps->dims[i];
  }
  if (!same) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "scales and zero_points shape must be same, but given scales "
               "shape %s and zero_points shape %s",
               kutil_tshape(scales, &b1), kutil_tshape(zps, &b2));
    return 0;
  }
  if (axis < -1 || axis >= nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "quantization_axis must be -1 or in range [0, input.rank), but "
               "given %d",
               axis);
    return 0;
  }
  if (axis == -1) {
    if (scales->num_dims != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "If quantization_axis is -1, scales and zero_points must be "
                 "scalar tensors, but given scales shape %s and zero_points "
                 "shape %s",
                 kutil_tshape(scales, &b1), kutil_tshape(zps, &b2));
      return 0;
    }
  } else if (!(scales->num_dims == 1 && scales->dims[0] == dims[axis])) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "If quantization_axis is not -1, scales and zero_points must "
               "be a tensor of rank 1 and the size must be equal to the "
               "input.dim_size(quantization_axis), but given "
               "quantization_axis %d, scales shape %s and zero_points shape %s",
               axis, kutil_tshape(scales, &b1), kutil_tshape(zps, &b2));
    return 0;
  }
  return 1;
}

static int q2u_all_positive(const TF_Tensor* t) {
  const float* d = (const float*)kutil_data(t);
  int64_t n = kutil_num_elements(t), i;
  for (i = 0; i < n; i++) {
    if (!(d[i] > 0.0f)) return 0;
  }
  return 1;
}

static inline float q2u_f(const TF_Tensor* t, int64_t i) {
  return ((const float*)kutil_data(t))[i];
}

static inline int32_t q2u_i(const TF_Tensor* t, int64_t i) {
  return ((const int32_t*)kutil_data(t))[i];
}

static int q2u_attr_axis(tfe_kernel_context* k, const char* name, int32_t* v) {
  return kutil_attr_int32(k, name, -1, v);
}

/* TF's QuantizeMultiplier: m = q * 2^shift with q a Q31 fixed-point value. */
static int q2u_quantize_multiplier(tfe_kernel_context* k, double m,
                                   int32_t* qm, int* shift) {
  double q;
  int64_t qf;
  char b[48];
  if (!isfinite(m) || m <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "double_multiplier must be a poisitive finite number. Given %s",
               q2_dfmt(m, b, sizeof b));
    return 0;
  }
  q = frexp(m, shift);
  qf = (int64_t)round(q * (double)((int64_t)1 << 31));
  if (qf == ((int64_t)1 << 31)) {
    qf /= 2;
    ++*shift;
  }
  if (*shift < -31) {
    *shift = 0;
    qf = 0;
  }
  if (*shift > 30) {
    *shift = 30;
    qf = ((int64_t)1 << 31) - 1;
  }
  *qm = (int32_t)qf;
  return 1;
}

static inline int32_t q2u_mul_qm(int32_t x, int32_t qm, int shift) {
  const int total = 31 - shift;
  const int64_t round_v = (int64_t)1 << (total - 1);
  int64_t r = ((int64_t)x * (int64_t)qm + round_v) >> total;
  if (r < INT32_MIN) r = INT32_MIN;
  if (r > INT32_MAX) r = INT32_MAX;
  return (int32_t)r;
}

static inline int32_t q2u_requant1(int32_t in, int32_t qm, int shift,
                                   int32_t izp, int32_t ozp, int32_t lo,
                                   int32_t hi) {
  const int32_t v = q2u_add(q2u_mul_qm(q2u_sub(in, izp), qm, shift), ozp);
  return q2u_clamp(v, lo, hi);
}


/* The elementwise Uniform* loops (quantize, dequantize, requantize) over a
 * pre x ns x post tensor with per-channel parameter arrays (one entry
 * when per tensor). Per tensor the elements are split over the thread
 * pool; per axis with post == 1 a row holds every channel and parameters
 * are read per element, otherwise a row is one channel's run of post
 * values. Each element is computed exactly as the scalar helpers above
 * (q2u_int, q2u_requant1) do; the wide form keeps input - zero_point in
 * 64 bits as TF's per-axis loop with a per-tensor input does (its int32
 * overflow is undefined there and the compiled kernel does not wrap). */
enum { Q2C_UQ, Q2C_UDQ, Q2C_UREQ, Q2C_UREQ_WIDE };

typedef struct q2_cj {
  int kind;
  TF_DataType idt, odt;
  const void* in;
  void* out;
  int64_t ns, post;
  const float* f;     /* UQ: 1 / scale; UDQ: scale */
  const int32_t* z;   /* UQ, UDQ: zero point; UREQ: input zero point */
  const int32_t* qm;  /* UREQ: Q31 multiplier */
  const int32_t* tot; /* UREQ: 31 - shift */
  const int32_t* oz;  /* UREQ: output zero point */
  int32_t lo, hi;
} q2_cj;

/* A value of input type TI as q2u_int reads it. */
#define Q2C_IN(TI, v) \
  (sizeof(TI) == 4 ? q2_trunc_i32((float)(v)) : (int32_t)(v))

#define Q2C_RQ(v32, PS)                                                      \
  q2u_clamp(q2u_add((int32_t)q2_clamp64(                                     \
                        ((int64_t)q2u_sub(v32, Q2C_GET(z, PS)) *             \
                             (int64_t)Q2C_GET(qm, PS) +                      \
                         ((int64_t)1 << (Q2C_GET(tot, PS) - 1))) >>          \
                        Q2C_GET(tot, PS)),                                   \
                    Q2C_GET(oz, PS)),                                        \
            lo, hi)

#define Q2C_RQW(v32, PS)                                                     \
  q2u_clamp(q2u_add((int32_t)q2_clamp64(                                     \
                        (int64_t)((uint64_t)((int64_t)(v32) -                \
                                             (int64_t)Q2C_GET(z, PS)) *      \
                                      (uint64_t)(int64_t)Q2C_GET(qm, PS) +   \
                                  ((uint64_t)1 << (Q2C_GET(tot, PS) - 1))) >> \
                        Q2C_GET(tot, PS)),                                   \
                    Q2C_GET(oz, PS)),                                        \
            lo, hi)

/* A parameter: with PS 0 the row's value hoisted into a local (fv, zv, ...),
 * with PS 1 the array entry of element c. */
#define Q2C_GET(arr, PS) Q2C_GET_##PS(arr)
#define Q2C_GET_0(arr) arr##v
#define Q2C_GET_1(arr) arr[c]

/* One row of len values from element offset off. */
#define Q2C_LOOP(TI, TO, EXPR, PS)                                           \
  do {                                                                       \
    const TI* x_ = (const TI*)j->in + off;                                   \
    TO* o_ = (TO*)j->out + off;                                              \
    for (c = 0; c < len; c++) {                                              \
      const TI xv = x_[c];                                                   \
      o_[c] = (TO)(EXPR);                                                    \
    }                                                                        \
  } while (0)

#define Q2C_UQ_EXPR(PS)                                                      \
  (uint32_t)q2u_clamp_fast(                                                  \
      (int32_t)((uint32_t)q2_floor_i32(xv * Q2C_GET(f, PS) + 0.5f) +         \
                (uint32_t)Q2C_GET(z, PS)),                                   \
      lo, hi)

#define Q2C_OUTS(TI, EXPR, PS)                                               \
  do {                                                                       \
    switch (j->odt) {                                                        \
      case TF_QINT8: Q2C_LOOP(TI, int8_t, (uint32_t)(EXPR), PS); break;      \
      case TF_QUINT8: Q2C_LOOP(TI, uint8_t, (uint32_t)(EXPR), PS); break;    \
      default: Q2C_LOOP(TI, int32_t, (uint32_t)(EXPR), PS); break;           \
    }                                                                        \
  } while (0)

#define Q2C_INS(MAC, PS)                                                     \
  do {                                                                       \
    switch (j->idt) {                                                        \
      case TF_QINT8: MAC(int8_t, PS); break;                                 \
      case TF_QUINT8: MAC(uint8_t, PS); break;                               \
      default: MAC(int32_t, PS); break;                                      \
    }                                                                        \
  } while (0)

#define Q2C_UDQ_M(TI, PS) \
  Q2C_LOOP(TI, float, (float)q2u_sub(Q2C_IN(TI, xv), Q2C_GET(z, PS)) * Q2C_GET(f, PS), PS)
#define Q2C_RQ_M(TI, PS) Q2C_OUTS(TI, Q2C_RQ(Q2C_IN(TI, xv), PS), PS)
#define Q2C_RQW_M(TI, PS) Q2C_OUTS(TI, Q2C_RQW(Q2C_IN(TI, xv), PS), PS)

#define Q2C_ROW(PS)                                                          \
  do {                                                                       \
    switch (j->kind) {                                                       \
      case Q2C_UQ: Q2C_OUTS(float, Q2C_UQ_EXPR(PS), PS); break;              \
      case Q2C_UDQ: Q2C_INS(Q2C_UDQ_M, PS); break;                           \
      case Q2C_UREQ: Q2C_INS(Q2C_RQ_M, PS); break;                           \
      default: Q2C_INS(Q2C_RQW_M, PS); break;                                \
    }                                                                        \
  } while (0)

static inline int64_t q2_clamp64(int64_t r) {
  r = r < INT32_MIN ? INT32_MIN : r;
  return r > INT32_MAX ? INT32_MAX : r;
}

KUTIL_CLONES
static void q2_cj_chunk(void* arg, int64_t begin, int64_t end) {
  const q2_cj* j = (const q2_cj*)arg;
  const int64_t ns = j->ns, post = j->post;
  const float* f = j->f;
  const int32_t *z = j->z, *qm = j->qm, *tot = j->tot, *oz = j->oz;
  const int32_t lo = j->lo, hi = j->hi;
  int64_t r, c, off, len;
  if (post == 1 && ns > 1) {
    for (r = begin; r < end; r++) {
      off = r * ns;
      len = ns;
      Q2C_ROW(1);
    }
  } else {
    /* one channel per row (the whole range when per tensor) */
    const int per_tensor = ns == 1;
    for (r = per_tensor ? 0 : begin; r < (per_tensor ? 1 : end); r++) {
      const int64_t pb = per_tensor ? 0 : r % ns;
      const float fv = f != NULL ? f[pb] : 0.0f;
      const int32_t zv = z != NULL ? z[pb] : 0;
      const int32_t qmv = qm != NULL ? qm[pb] : 0;
      const int32_t totv = tot != NULL ? tot[pb] : 1;
      const int32_t ozv = oz != NULL ? oz[pb] : 0;
      off = per_tensor ? begin : r * post;
      len = per_tensor ? end - begin : post;
      Q2C_ROW(0);
    }
  }
}
#undef Q2C_ROW
#undef Q2C_RQW_M
#undef Q2C_RQ_M
#undef Q2C_UDQ_M
#undef Q2C_INS
#undef Q2C_OUTS
#undef Q2C_UQ_EXPR
#undef Q2C_LOOP
#undef Q2C_RQW
#undef Q2C_RQ
#undef Q2C_IN
#undef Q2C_GET
#undef Q2C_GET_0
#undef Q2C_GET_1

/* Runs job j over a pre x ns x post tensor (ns == 1: per tensor). */
static void q2_cj_run(tfe_kernel_context* k, q2_cj* j, int64_t pre,
                      int64_t ns, int64_t post) {
  j->ns = ns;
  j->post = post;
  if (pre <= 0 || ns <= 0 || post <= 0) return;
  if (ns == 1) {
    tfe_parallel_for(tfe_kernel_threadpool(k), pre * post, 32768, q2_cj_chunk, j);
  } else {
    const int64_t rows = post == 1 ? pre : pre * ns;
    const int64_t len = post == 1 ? ns : post;
    const int64_t grain = 32768 / len;
    tfe_parallel_for(tfe_kernel_threadpool(k), rows, grain < 1 ? 1 : grain,
                     q2_cj_chunk, j);
  }
}

/* TF's EvalRequantize: per tensor, or per axis when either side has rank-1
 * scales. Output y has x's shape. */
static int q2u_requantize(tfe_kernel_context* k, const TF_Tensor* x,
                          const TF_Tensor* isc, const TF_Tensor* izp,
                          const TF_Tensor* osc, const int32_t* ozp,
                          int ozp_per_axis, int in_axis, int out_axis,
                          int32_t lo, int32_t hi, TF_Tensor* y) {
  const int64_t n = kutil_num_elements(x);
  int32_t* prm;
  int64_t ns = 1, pre = 1, post = n, c;
  int ipa = 0, opa = 0, ok = 1;
  q2_cj j;
  if (in_axis != -1 || out_axis != -1) {
    const int axis = in_axis >= 0 ? in_axis : out_axis;
    ipa = isc->num_dims == 1;
    opa = osc->num_dims == 1;
    if (axis >= x->num_dims) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "quantization axis %d is out of range for a tensor of rank %d",
                 axis, x->num_dims);
      return 0;
    }
    ns = x->dims[axis];
    if ((ipa && isc->dims[0] < ns) || (opa && osc->dims[0] < ns)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "per-axis scales are shorter than the quantization dimension "
                 "(%lld)",
                 (long long)ns);
      return 0;
    }
    q2_split(x, axis, &pre, &post);
  }
  prm = (int32_t*)tfe_malloc((size_t)(ns > 0 ? ns : 1) * 4 * sizeof(int32_t));
  if (prm == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory requantizing");
    return 0;
  }
  for (c = 0; c < ns && ok; c++) {
    int shift = 0;
    ok = q2u_quantize_multiplier(
        k, (double)q2u_f(isc, ipa ? c : 0) / (double)q2u_f(osc, opa ? c : 0),
        prm + c, &shift);
    prm[ns + c] = 31 - shift;
    prm[2 * ns + c] = q2u_i(izp, ipa ? c : 0);
    prm[3 * ns + c] = ozp[(opa && ozp_per_axis) ? c : 0];
  }
  if (ok) {
    memset(&j, 0, sizeof j);
    /* per axis with a per-tensor input: TF keeps input - zero_point wide */
    j.kind = (in_axis != -1 || out_axis != -1) && !ipa ? Q2C_UREQ_WIDE : Q2C_UREQ;
    j.idt = x->dtype;
    j.odt = y->dtype;
    j.in = kutil_data(x);
    j.out = kutil_data(y);
    j.qm = prm;
    j.tot = prm + ns;
    j.z = prm + 2 * ns;
    j.oz = prm + 3 * ns;
    j.lo = lo;
    j.hi = hi;
    q2_cj_run(k, &j, pre, ns, post);
  }
  tfe_free(prm);
  return ok;
}

static void k_uniform_quantize(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* sc = k->inputs[1];
  const TF_Tensor* zp = k->inputs[2];
  int32_t axis, lo, hi;
  int64_t ns = 1, pre = 1, post, c;
  float* inv;
  q2_cj j;
  TF_Tensor* y;
  if (!q2u_attr_axis(k, "quantization_axis", &axis) ||
      !kutil_attr_int32(k, "quantization_min_val", 0, &lo) ||
      !kutil_attr_int32(k, "quantization_max_val", 0, &hi)) {
    return;
  }
  if (axis < -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "quantization_axis must be >= -1, given: %d",
               (int)axis);
    return;
  }
  if (!q2u_axis_valid(k, x->dims, x->num_dims, sc, zp, axis)) return;
  y = tfe_kernel_alloc_output(k, 0, k->output_types[0], x->dims, x->num_dims);
  if (y == NULL || kutil_num_elements(x) == 0) return;
  if (axis >= 0) {
    ns = x->dims[axis];
    q2_split(x, axis, &pre, &post);
  } else {
    post = kutil_num_elements(x);
  }
  if (ns == 1 && pre == 1) {
    q2_job j = {Q2J_UNIFORM, y->dtype, kutil_data(x), kutil_data(y),
                {1.0f / q2u_f(sc, 0), 0, 0, 0, 0, 0}, {q2u_i(zp, 0), lo, hi}};
    q2_job_run(k, &j, post);
    return;
  }
  inv = (float*)tfe_malloc((size_t)ns * sizeof(float));
  if (inv == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in UniformQuantize");
    return;
  }
  for (c = 0; c < ns; c++) inv[c] = 1.0f / q2u_f(sc, c);
  memset(&j, 0, sizeof j);
  j.kind = Q2C_UQ;
  j.idt = TF_FLOAT;
  j.odt = y->dtype;
  j.in = kutil_data(x);
  j.out = kutil_data(y);
  j.f = inv;
  j.z = (const int32_t*)kutil_data(zp);
  j.lo = lo;
  j.hi = hi;
  q2_cj_run(k, &j, pre, ns, post);
  tfe_free(inv);
}

static void k_uniform_dequantize(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* sc = k->inputs[1];
  const TF_Tensor* zp = k->inputs[2];
  int32_t axis;
  int64_t ns = 1, pre = 1, post;
  q2_cj j;
  TF_Tensor* y;
  if (!q2u_attr_axis(k, "quantization_axis", &axis)) return;
  if (!q2u_axis_valid(k, x->dims, x->num_dims, sc, zp, axis)) return;
  if (!q2u_all_positive(sc)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "rhs scales elements must be all positive.");
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, TF_FLOAT, x->dims, x->num_dims);
  if (y == NULL || kutil_num_elements(x) == 0) return;
  if (axis >= 0) {
    ns = x->dims[axis];
    q2_split(x, axis, &pre, &post);
  } else {
    post = kutil_num_elements(x);
  }
  memset(&j, 0, sizeof j);
  j.kind = Q2C_UDQ;
  j.idt = x->dtype;
  j.odt = TF_FLOAT;
  j.in = kutil_data(x);
  j.out = kutil_data(y);
  j.f = (const float*)kutil_data(sc);
  j.z = (const int32_t*)kutil_data(zp);
  q2_cj_run(k, &j, pre, ns, post);
}

static void k_uniform_requantize(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int32_t ia, oa, lo, hi;
  TF_Tensor* y;
  if (!q2u_attr_axis(k, "input_quantization_axis", &ia) ||
      !q2u_attr_axis(k, "output_quantization_axis", &oa) ||
      !kutil_attr_int32(k, "output_quantization_min_val", 0, &lo) ||
      !kutil_attr_int32(k, "output_quantization_max_val", 0, &hi)) {
    return;
  }
  if (ia < -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input_quantization_axis must be >= -1, given: %d", (int)ia);
    return;
  }
  if (oa < -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "output_quantization_axis must be >= -1, given: %d", (int)oa);
    return;
  }
  if (ia >= 0 && oa >= 0 && ia != oa) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "If input and output is both per-axis quantized, the "
               "quantization axis must be same.");
    return;
  }
  if (!q2u_axis_valid(k, x->dims, x->num_dims, k->inputs[1], k->inputs[2], ia) ||
      !q2u_axis_valid(k, x->dims, x->num_dims, k->inputs[3], k->inputs[4], oa)) {
    return;
  }
  if (!q2u_all_positive(k->inputs[1]) || !q2u_all_positive(k->inputs[3])) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "input/output scales elements must be all positive.");
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, k->output_types[0], x->dims, x->num_dims);
  if (y == NULL || kutil_num_elements(x) == 0) return;
  q2u_requantize(k, x, k->inputs[1], k->inputs[2], k->inputs[3],
                 (const int32_t*)kutil_data(k->inputs[4]), 1, ia, oa, lo, hi, y);
}

static void k_uniform_add(tfe_kernel_context* k) {
  const TF_Tensor* l = k->inputs[0];
  const TF_Tensor* r = k->inputs[1];
  const TF_Tensor* osc = k->inputs[6];
  const TF_Tensor* ozp = k->inputs[7];
  int32_t la, ra, oa, lo, hi;
  int64_t od[16], n, oi, i;
  int nd, li, ri, d;
  TF_Tensor *y, *lq = NULL, *rq = NULL;
  int32_t* zeros = NULL;
  kutil_shape_buf b1, b2;
  if (!q2u_attr_axis(k, "lhs_quantization_axis", &la) ||
      !q2u_attr_axis(k, "rhs_quantization_axis", &ra) ||
      !q2u_attr_axis(k, "output_quantization_axis", &oa) ||
      !kutil_attr_int32(k, "output_quantization_min_val", 0, &lo) ||
      !kutil_attr_int32(k, "output_quantization_max_val", 0, &hi)) {
    return;
  }
  if (la < -1 || ra < -1 || oa < -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "lhs, rhs and output quantization_axis must be -1 or within "
               "[0, dims)");
    return;
  }
  if (!q2u_axis_valid(k, l->dims, l->num_dims, k->inputs[2], k->inputs[3], la) ||
      !q2u_axis_valid(k, r->dims, r->num_dims, k->inputs[4], k->inputs[5], ra)) {
    return;
  }
  nd = l->num_dims > r->num_dims ? l->num_dims : r->num_dims;
  if (nd > 16) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "UniformQuantizedAdd supports up to 16 dims");
    return;
  }
  if (l->num_dims == 0) {
    nd = r->num_dims;
    for (d = 0; d < nd; d++) od[d] = r->dims[d];
  } else if (r->num_dims == 0) {
    nd = l->num_dims;
    for (d = 0; d < nd; d++) od[d] = l->dims[d];
  } else {
    for (d = nd - 1, li = l->num_dims - 1, ri = r->num_dims - 1; d >= 0;
         d--, li--, ri--) {
      const int64_t ls = li >= 0 ? l->dims[li] : 1, rs = ri >= 0 ? r->dims[ri] : 1;
      if (ls != 1 && rs != 1 && ls != rs) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Cannot Add tensors of shapes: %s%s",
                   kutil_tshape(l, &b1), kutil_tshape(r, &b2));
        return;
      }
      od[d] = ls == 1 ? rs : ls;
    }
  }
  if (!q2u_axis_valid(k, od, nd, osc, ozp, oa)) return;
  if (la >= 0 && oa >= 0 && l->num_dims - la != nd - oa) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "If lhs and output is both per-axis quantized, the quantization "
               "axis must match.");
    return;
  }
  if (ra >= 0 && oa >= 0 && r->num_dims - ra != nd - oa) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "If rhs and output is both per-axis quantized, the quantization "
               "axis must match.");
    return;
  }
  if (!q2u_all_positive(k->inputs[2]) || !q2u_all_positive(k->inputs[4]) ||
      !q2u_all_positive(osc)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "lhs/rhs/output scales elements must be all positive.");
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, TF_QINT32, od, nd);
  if (y == NULL) return;
  n = kutil_num_elements(y);
  if (n == 0) return;
  /* Both operands are first requantized to the output scales (zero point
   * 0), then added with broadcasting and the output zero point. */
  zeros = (int32_t*)tfe_malloc((size_t)(kutil_num_elements(osc) + 1) * sizeof(int32_t));
  lq = TF_AllocateTensor(TF_QINT32, l->dims, l->num_dims,
                         (size_t)kutil_num_elements(l) * 4);
  rq = TF_AllocateTensor(TF_QINT32, r->dims, r->num_dims,
                         (size_t)kutil_num_elements(r) * 4);
  if (zeros == NULL || lq == NULL || rq == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in UniformQuantizedAdd");
    goto done;
  }
  memset(zeros, 0, (size_t)(kutil_num_elements(osc) + 1) * sizeof(int32_t));
  if (!q2u_requantize(k, l, k->inputs[2], k->inputs[3], osc, zeros, 0, la,
                      oa == -1 ? -1 : la, INT32_MIN, INT32_MAX, lq) ||
      !q2u_requantize(k, r, k->inputs[4], k->inputs[5], osc, zeros, 0, ra, oa,
                      INT32_MIN, INT32_MAX, rq)) {
    goto done;
  }
  for (oi = 0; oi < n; oi++) {
    int64_t rem = oi, lidx = 0, ridx = 0, linner = 1, rinner = 1, zpi = 0;
    int32_t v;
    for (d = nd - 1; d >= 0; d--) {
      const int64_t id = rem % od[d];
      const int ld = d - (nd - l->num_dims), rd = d - (nd - r->num_dims);
      rem /= od[d];
      if (oa == d) zpi = id;
      if (ld >= 0) {
        lidx += (l->dims[ld] == 1 ? 0 : id) * linner;
        linner *= l->dims[ld];
      }
      if (rd >= 0) {
        ridx += (r->dims[rd] == 1 ? 0 : id) * rinner;
        rinner *= r->dims[rd];
      }
    }
    v = q2u_add(q2u_add(q2u_int(kutil_data(lq), TF_QINT32, lidx),
                        q2u_int(kutil_data(rq), TF_QINT32, ridx)),
                q2u_i(ozp, zpi));
    ((int32_t*)kutil_data(y))[oi] = q2u_clamp(v, lo, hi);
  }
  (void)i;
done:
  tfe_free(zeros);
  TF_DeleteTensor(lq);
  TF_DeleteTensor(rq);
}

static int q2u_same_shape(const TF_Tensor* a, const TF_Tensor* b) {
  int i;
  if (a->num_dims != b->num_dims) return 0;
  for (i = 0; i < a->num_dims; i++) {
    if (a->dims[i] != b->dims[i]) return 0;
  }
  return 1;
}

static void k_uniform_clip(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* mn = k->inputs[1];
  const TF_Tensor* mx = k->inputs[2];
  const TF_Tensor* sc = k->inputs[3];
  int32_t axis;
  int64_t ns = 1, pre = 1, post, a, b, c;
  kutil_shape_buf b1, b2;
  TF_Tensor* y;
  if (!q2u_attr_axis(k, "quantization_axis", &axis)) return;
  if (!q2u_axis_valid(k, x->dims, x->num_dims, sc, k->inputs[4], axis)) return;
  if (!q2u_same_shape(mn, sc)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input min shape must be same as scales/zero_points. Given min "
               "of shape %s and scales/zero_points of shape %s",
               kutil_tshape(mn, &b1), kutil_tshape(sc, &b2));
    return;
  }
  if (!q2u_same_shape(mx, sc)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input max shape must be same as scales/zero_points. Given max "
               "of shape %s and scales/zero_points of shape %s",
               kutil_tshape(mx, &b1), kutil_tshape(sc, &b2));
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (y == NULL || kutil_num_elements(x) == 0) return;
  if (axis >= 0) {
    ns = x->dims[axis];
    q2_split(x, axis, &pre, &post);
  } else {
    post = kutil_num_elements(x);
  }
  for (c = 0; c < ns; c++) {
    const int32_t lo = q2u_i(mn, c), hi = q2u_i(mx, c);
    for (a = 0; a < pre; a++) {
      for (b = 0; b < post; b++) {
        int64_t j = (a * ns + c) * post + b;
        int32_t v = ((const int32_t*)kutil_data(x))[j];
        v = v < lo ? lo : v;
        v = hi < v ? hi : v;
        ((int32_t*)kutil_data(y))[j] = v;
      }
    }
  }
}

static int q2u_dot_shapes(tfe_kernel_context* k, const TF_Tensor* l,
                          const TF_Tensor* r) {
  kutil_shape_buf b1, b2;
  if (l->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "lhs rank must be 2, but given lhs shape %s",
               kutil_tshape(l, &b1));
    return 0;
  }
  if (r->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "rhs rank must be 2, but given rhs shape %s",
               kutil_tshape(r, &b1));
    return 0;
  }
  if (l->dims[1] != r->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "lhs.dim_size(1) and rhs.dim_size(0) must be equal, but given "
               "lhs shape %s and rhs shape %s",
               kutil_tshape(l, &b1), kutil_tshape(r, &b2));
    return 0;
  }
  return 1;
}

static void k_uniform_dot(tfe_kernel_context* k) {
  const TF_Tensor* l = k->inputs[0];
  const TF_Tensor* r = k->inputs[1];
  const TF_Tensor *lsc = k->inputs[2], *lzp = k->inputs[3], *rsc = k->inputs[4],
                  *rzp = k->inputs[5], *osc = k->inputs[6], *ozp = k->inputs[7];
  int32_t la, ra, oa, lo, hi;
  int64_t od[2], m, n, depth, bi, c, d;
  kutil_shape_buf b1, b2;
  TF_Tensor* y;
  int32_t* qms = NULL;
  int* shifts = NULL;
  if (!q2u_attr_axis(k, "lhs_quantization_axis", &la) ||
      !q2u_attr_axis(k, "rhs_quantization_axis", &ra) ||
      !q2u_attr_axis(k, "output_quantization_axis", &oa) ||
      !kutil_attr_int32(k, "output_quantization_min_val", 0, &lo) ||
      !kutil_attr_int32(k, "output_quantization_max_val", 0, &hi)) {
    return;
  }
  if (la != -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "lhs_quantization_axis Attr must be -1 (per-tensor).");
    return;
  }
  if (ra != 1 && ra != -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "rhs_quantization_axis Attr must be 1 (per-channel) or -1 "
               "(per-tensor).");
    return;
  }
  if (oa != 1 && oa != -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "output_quantization_axis Attr must be 1 (per-channel) or -1 "
               "(per-tensor).");
    return;
  }
  if (!q2u_all_positive(lsc)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "lhs scales elements must be all positive.");
    return;
  }
  if (!q2u_all_positive(rsc)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "rhs scales elements must be all positive.");
    return;
  }
  if (!q2u_all_positive(osc)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "output scales elements must be all positive.");
    return;
  }
  if (!q2u_dot_shapes(k, l, r)) return;
  if (!(q2u_same_shape(lsc, lzp) && lsc->num_dims == 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "lhs scales/zero_points must be all scalar tensors. Given: %s%s",
               kutil_tshape(lsc, &b1), kutil_tshape(lzp, &b2));
    return;
  }
  if (!q2u_axis_valid(k, r->dims, 2, rsc, rzp, rsc->num_dims == 0 ? -1 : 1)) return;
  od[0] = l->dims[0];
  od[1] = r->dims[1];
  if (!q2u_axis_valid(k, od, 2, osc, ozp, osc->num_dims == 0 ? -1 : 1)) return;
  if (!(rsc->num_dims > 0 || osc->num_dims == 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "If rhs is per-tensor quantized, output must be also per-tensor "
               "quantized. Given rhs scales and zero_points of shape %s but "
               "given output scales and zero_points of shape %s",
               kutil_tshape(rsc, &b1), kutil_tshape(osc, &b2));
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, TF_QINT32, od, 2);
  if (y == NULL) return;
  m = od[0];
  n = od[1];
  depth = r->dims[0];
  if (m == 0 || n == 0) return;
  qms = (int32_t*)tfe_malloc((size_t)n * sizeof(int32_t));
  shifts = (int*)tfe_malloc((size_t)n * sizeof(int));
  if (qms == NULL || shifts == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in UniformQuantizedDot");
    goto done;
  }
  {
    const int8_t* ld = (const int8_t*)kutil_data(l);
    const int8_t* rd = (const int8_t*)kutil_data(r);
    int32_t* yd = (int32_t*)kutil_data(y);
    const int32_t lz = q2u_i(lzp, 0);
    const int per_channel = rsc->num_dims != 0;
    const int out_scalar = osc->num_dims == 0;
    for (c = 0; c < n; c++) {
      double em;
      if (per_channel) {
        em = (double)q2u_f(lsc, 0) * q2u_f(rsc, c) / q2u_f(osc, out_scalar ? 0 : c);
      } else {
        em = (double)q2u_f(lsc, 0) * q2u_f(rsc, 0) / q2u_f(osc, 0);
      }
      if (!q2u_quantize_multiplier(k, em, &qms[c], &shifts[c])) goto done;
      if (!per_channel) {
        for (c = 1; c < n; c++) {
          qms[c] = qms[0];
          shifts[c] = shifts[0];
        }
        break;
      }
    }
    for (bi = 0; bi < m; bi++) {
      for (c = 0; c < n; c++) {
        const int32_t rz = q2u_i(rzp, per_channel ? c : 0);
        int32_t acc = 0;
        if (per_channel) {
          for (d = 0; d < depth; d++) {
            acc = q2u_add(acc, q2u_mul(q2u_sub(ld[bi * depth + d], lz),
                                       q2u_sub(rd[d * n + c], rz)));
          }
        } else {
          /* TF accumulates the per-tensor products through qint32, which
           * adds as float: the running sum is rounded to float each step. */
          for (d = 0; d < depth; d++) {
            const int32_t p = q2u_mul(q2u_sub(ld[bi * depth + d], lz),
                                      q2u_sub(rd[d * n + c], rz));
            acc = q2_trunc_i32((float)acc + (float)p);
          }
        }
        yd[bi * n + c] = q2u_requant1(acc, qms[c], shifts[c], 0,
                                      q2u_i(ozp, out_scalar ? 0 : c), lo, hi);
      }
    }
  }
done:
  tfe_free(qms);
  tfe_free(shifts);
}

/* TF's AsymmetricQuantize of one float row into int8 (per-batch dynamic
 * range quantization of the hybrid dot's lhs). */
static void q2u_asym_quantize(const float* x, int64_t n, int8_t* q,
                              float* scale_out, int32_t* zp_out) {
  const double qmin = -128.0, qmax = 127.0;
  float mn = x[0], mx = x[0], scale, inv = 0.0f;
  double rmin, rmax, zp_d, from_min, from_max;
  int32_t zp;
  int64_t i;
  for (i = 1; i < n; i++) {
    if (x[i] < mn) mn = x[i];
    if (x[i] > mx) mx = x[i];
  }
  rmin = (double)(mn < 0.0f ? mn : 0.0f);
  rmax = (double)(mx > 0.0f ? mx : 0.0f);
  scale = (float)((rmax - rmin) / (qmax - qmin));
  if (rmax - rmin != 0) inv = (float)((qmax - qmin) / (rmax - rmin));
  if (scale == 0 || !isfinite(inv)) {
    memset(q, 0, (size_t)n);
    *scale_out = 1.0f;
    *zp_out = 0;
    return;
  }
  from_min = qmin - rmin / scale;
  from_max = qmax - rmax / scale;
  zp_d = (fabs(qmin) + fabs(rmin / scale)) < (fabs(qmax) + fabs(rmax / scale))
             ? from_min
             : from_max;
  if (zp_d <= qmin) {
    zp = -128;
  } else if (zp_d >= qmax) {
    zp = 127;
  } else {
    zp = (int8_t)round(zp_d);
  }
  for (i = 0; i < n; i++) {
    int32_t v = q2u_add(q2_trunc_i32(floorf(x[i] * inv + 0.5f)), zp);
    v = v > 127 ? 127 : (v < -128 ? -128 : v);
    q[i] = (int8_t)v;
  }
  *scale_out = scale;
  *zp_out = zp;
}

static void k_uniform_dot_hybrid(tfe_kernel_context* k) {
  const TF_Tensor* l = k->inputs[0];
  const TF_Tensor* r = k->inputs[1];
  const TF_Tensor *rsc = k->inputs[2], *rzp = k->inputs[3];
  int32_t ra;
  int64_t od[2], m, n, depth, bi, c, d;
  TF_Tensor* y;
  int8_t* lq = NULL;
  if (!q2u_attr_axis(k, "rhs_quantization_axis", &ra)) return;
  if (ra != 1 && ra != -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "rhs_quantization_axis Attr must be 1 (per-channel) or -1 "
               "(per-tensor).");
    return;
  }
  if (!q2u_dot_shapes(k, l, r)) return;
  if (!q2u_axis_valid(k, r->dims, 2, rsc, rzp, rsc->num_dims == 0 ? -1 : 1)) return;
  if (!q2u_all_positive(rsc)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "rhs scales elements must be all positive.");
    return;
  }
  od[0] = l->dims[0];
  od[1] = r->dims[1];
  y = tfe_kernel_alloc_output(k, 0, TF_FLOAT, od, 2);
  if (y == NULL) return;
  m = od[0];
  n = od[1];
  depth = r->dims[0];
  if (m == 0 || n == 0) return;
  if (depth == 0) {
    memset(kutil_data(y), 0, (size_t)(m * n) * sizeof(float));
    return;
  }
  lq = (int8_t*)tfe_malloc((size_t)depth);
  if (lq == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in UniformQuantizedDotHybrid");
    return;
  }
  {
    const float* ld = (const float*)kutil_data(l);
    const int8_t* rd = (const int8_t*)kutil_data(r);
    float* yd = (float*)kutil_data(y);
    const int per_channel = rsc->num_dims != 0;
    for (bi = 0; bi < m; bi++) {
      float ls;
      int32_t lz;
      q2u_asym_quantize(ld + bi * depth, depth, lq, &ls, &lz);
      for (c = 0; c < n; c++) {
        const int32_t rz = q2u_i(rzp, per_channel ? c : 0);
        int32_t acc = 0;
        for (d = 0; d < depth; d++) {
          acc = q2u_add(acc, q2u_mul(q2u_sub(lq[d], lz), q2u_sub(rd[d * n + c], rz)));
        }
        yd[bi * n + c] = (float)acc * ls * q2u_f(rsc, per_channel ? c : 0);
      }
    }
  }
  tfe_free(lq);
}

/* ------------------------------------------------------- QuantizedMatMul */

/* TF's FloatToQuantizedUnclamped for 8-bit types: the code of `x`. */
static int64_t q2_f2q_unclamped(float x, int bits, int64_t lowest, float rmin,
                                float rmax) {
  double steps, adjust, range, scale;
  if (rmin == rmax) return lowest;
  steps = (double)((int64_t)1 << bits);
  adjust = steps / (steps - 1.0);
  range = (double)(rmax - rmin) * adjust;
  scale = steps / range;
  return q2_d2i64(round((double)x * scale) - round((double)rmin * scale)) +
         lowest;
}

static int q2_scalar_in(tfe_kernel_context* k, int idx, const char* name) {
  kutil_shape_buf b;
  if (k->inputs[idx]->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be a scalar, but got shape%s",
               name, kutil_tshape(k->inputs[idx], &b));
    return 0;
  }
  return 1;
}

/* c = (a - offset_a) x (b - offset_b) in exact int32 arithmetic (TF runs
 * gemmlowp, whose int32 result is the same; sums wrap modulo 2^32, done
 * in uint32 here). b is packed once into panels of Q2_NR columns
 * (bp[panel][p][j] = b - offset_b, zero past n), a into panels of Q2_MR
 * rows (ap[panel][p][i] = a - offset_a, zero past m), and a
 * register-blocked micro-kernel computes each Q2_MR x Q2_NR tile of c
 * over the whole depth; its fixed-size loops vectorize per ISA level
 * (KUTIL_CLONES). Row panels are split over the thread pool. */
#define Q2_MR 6
#define Q2_NR 16

typedef struct q2_gemm_args {
  const uint8_t* a;
  uint32_t* ap;
  const uint32_t* bp;
  int32_t* c;
  int64_t m, n, kd, npan;
  int ta;
  int32_t oa;
} q2_gemm_args;

/* One Q2_MR x Q2_NR tile: tile = sum over p of a[p][i] * b[p][j]. With
 * GCC's vector extension the accumulators are Q2_MR vectors of Q2_NR
 * lanes kept in registers (GCC's vectorizer does not find that itself). */
#if defined(__GNUC__)
typedef uint32_t q2_v16u __attribute__((vector_size(Q2_NR * 4)));
#endif

KUTIL_CLONES
static void q2_ukern(int64_t kd, const uint32_t* restrict a,
                     const uint32_t* restrict b, uint32_t* restrict tile) {
  int64_t p;
  int i;
#if defined(__GNUC__)
  q2_v16u acc[Q2_MR];
  for (i = 0; i < Q2_MR; i++) acc[i] = (q2_v16u){0};
  for (p = 0; p < kd; p++) {
    q2_v16u bv;
    memcpy(&bv, b + p * Q2_NR, sizeof bv);
    for (i = 0; i < Q2_MR; i++) acc[i] += a[p * Q2_MR + i] * bv;
  }
  for (i = 0; i < Q2_MR; i++) memcpy(tile + i * Q2_NR, &acc[i], sizeof acc[i]);
#else
  int j;
  for (i = 0; i < Q2_MR * Q2_NR; i++) tile[i] = 0;
  for (p = 0; p < kd; p++) {
    for (i = 0; i < Q2_MR; i++) {
      for (j = 0; j < Q2_NR; j++) {
        tile[i * Q2_NR + j] += a[p * Q2_MR + i] * b[p * Q2_NR + j];
      }
    }
  }
#endif
}

static void q2_gemm_rows(void* arg, int64_t begin, int64_t end) {
  const q2_gemm_args* g = (const q2_gemm_args*)arg;
  const int64_t n = g->n, kd = g->kd, m = g->m;
  int64_t rp, jp, p;
  int i, j;
  for (rp = begin; rp < end; rp++) {
    const int64_t i0 = rp * Q2_MR;
    const int rows = m - i0 < Q2_MR ? (int)(m - i0) : Q2_MR;
    uint32_t* ap = g->ap + rp * kd * Q2_MR;
    for (p = 0; p < kd; p++) {
      for (i = 0; i < Q2_MR; i++) {
        const int64_t r = i0 + i;
        const uint32_t v =
            i < rows ? (uint32_t)(g->ta ? g->a[p * m + r] : g->a[r * kd + p]) -
                           (uint32_t)g->oa
                     : 0u;
        ap[p * Q2_MR + i] = v;
      }
    }
    for (jp = 0; jp < g->npan; jp++) {
      const uint32_t* bp = g->bp + jp * kd * Q2_NR;
      const int64_t j0 = jp * Q2_NR;
      const int cols = n - j0 < Q2_NR ? (int)(n - j0) : Q2_NR;
      uint32_t acc[Q2_MR][Q2_NR];
      q2_ukern(kd, ap, bp, &acc[0][0]);
      for (i = 0; i < rows; i++) {
        int32_t* cr = g->c + (i0 + i) * n + j0;
        for (j = 0; j < cols; j++) cr[j] = (int32_t)acc[i][j];
      }
    }
  }
}

static void q2_qgemm(tfe_kernel_context* k, const uint8_t* a, const uint8_t* b,
                     int32_t* c, int64_t m, int64_t n, int64_t kd, int ta,
                     int tb, int32_t oa, int32_t ob) {
  const int64_t npan = (n + Q2_NR - 1) / Q2_NR;
  const int64_t mpan = (m + Q2_MR - 1) / Q2_MR;
  int64_t p, j, jp;
  q2_gemm_args g;
  uint32_t* bp;
  uint32_t* ap;
  if (kd == 0) {
    memset(c, 0, (size_t)(m * n) * sizeof(int32_t));
    return;
  }
  bp = (uint32_t*)tfe_malloc((size_t)(npan * kd * Q2_NR) * sizeof(uint32_t));
  ap = (uint32_t*)tfe_malloc((size_t)(mpan * kd * Q2_MR) * sizeof(uint32_t));
  if (bp == NULL || ap == NULL) {
    tfe_free(bp);
    tfe_free(ap);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in QuantizedMatMul");
    return;
  }
  for (jp = 0; jp < npan; jp++) {
    uint32_t* dst = bp + jp * kd * Q2_NR;
    for (p = 0; p < kd; p++) {
      for (j = 0; j < Q2_NR; j++) {
        const int64_t col = jp * Q2_NR + j;
        dst[p * Q2_NR + j] =
            col < n ? (uint32_t)(tb ? b[col * kd + p] : b[p * n + col]) - (uint32_t)ob
                    : 0u;
      }
    }
  }
  g.a = a;
  g.ap = ap;
  g.bp = bp;
  g.c = c;
  g.m = m;
  g.n = n;
  g.kd = kd;
  g.npan = npan;
  g.ta = ta;
  g.oa = oa;
  tfe_parallel_for(tfe_kernel_threadpool(k), mpan,
                   n * kd > 65536 ? 1 : 16, q2_gemm_rows, &g);
  tfe_free(bp);
  tfe_free(ap);
}

static void k_quantized_matmul(tfe_kernel_context* k) {
  const TF_Tensor* a = k->inputs[0];
  const TF_Tensor* b = k->inputs[1];
  const int ta = kutil_attr_bool(k, "transpose_a", 0);
  const int tb = kutil_attr_bool(k, "transpose_b", 0);
  float min_a, max_a, min_b, max_b, la, lb;
  int32_t oa, ob;
  int64_t od[2], kd;
  kutil_shape_buf b1, b2;
  TF_Tensor* c;
  if (!q2_scalar_in(k, 2, "min_a") || !q2_scalar_in(k, 3, "max_a") ||
      !q2_scalar_in(k, 4, "min_b")) {
    return;
  }
  if (kutil_num_elements(k->inputs[5]) < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "max_b must hold a value");
    return;
  }
  min_a = q2_f0(k->inputs[2]);
  max_a = q2_f0(k->inputs[3]);
  min_b = q2_f0(k->inputs[4]);
  max_b = q2_f0(k->inputs[5]);
  if (!(max_a > min_a)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "max_a must be larger than min_a.");
    return;
  }
  if (!(max_b > min_b)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "max_b must be larger than min_b.");
    return;
  }
  oa = (int32_t)q2_f2q_unclamped(0.0f, 8, 0, min_a, max_a);
  ob = (int32_t)q2_f2q_unclamped(0.0f, 8, 0, min_b, max_b);
  if (a->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "In[0] is not a matrix");
    return;
  }
  if (b->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "In[1] is not a matrix");
    return;
  }
  kd = a->dims[ta ? 0 : 1];
  if (kd != b->dims[tb ? 1 : 0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Matrix size-incompatible: In[0]: %s, In[1]: %s",
               kutil_tshape(a, &b1), kutil_tshape(b, &b2));
    return;
  }
  od[0] = a->dims[ta ? 1 : 0];
  od[1] = b->dims[tb ? 0 : 1];
  c = tfe_kernel_alloc_output(k, 0, TF_QINT32, od, 2);
  if (c == NULL) return;
  la = (max_a - min_a) / 255.0f;
  lb = (max_b - min_b) / 255.0f;
  if (!q2_alloc_range(k, 1, la * lb * (float)INT32_MIN, la * lb * (float)INT32_MAX)) {
    return;
  }
  if (od[0] == 0 || od[1] == 0) return;
  q2_qgemm(k, (const uint8_t*)kutil_data(a), (const uint8_t*)kutil_data(b),
           (int32_t*)kutil_data(c), od[0], od[1], kd, ta, tb, oa, ob);
}

/* --------------------------------------------------------- registration */

static const TF_DataType k_qtypes[] = {TF_QINT8, TF_QUINT8, TF_QINT16,
                                       TF_QUINT16, TF_QINT32};
static const TF_DataType k_deq_out[] = {TF_FLOAT, TF_BFLOAT16};
static const TF_DataType k_fd[] = {TF_FLOAT, TF_DOUBLE};
static const TF_DataType k_q32[] = {TF_QINT32};
static const TF_DataType k_q8[] = {TF_QINT8, TF_QUINT8};
static const TF_DataType k_qu8[] = {TF_QUINT8};
static const TF_DataType k_f32[] = {TF_FLOAT};
static const TF_DataType k_qi8[] = {TF_QINT8};
static const TF_DataType k_uq_out[] = {TF_QINT8, TF_QUINT8, TF_QINT32};
static const TF_DataType k_ureq_in[] = {TF_QINT8, TF_QINT32};

/* A registration with three type constraints (tfe_kutil_register takes
 * two). */
static void q2_register3(const char* op, void (*fn)(tfe_kernel_context*),
                         const char* a1, const TF_DataType* t1, int n1,
                         const char* a2, const TF_DataType* t2, int n2,
                         const char* a3, const TF_DataType* t3, int n3) {
  tfe_kernel_reg reg;
  TF_Status* st = TF_NewStatus();
  if (st == NULL) return;
  memset(&reg, 0, sizeof reg);
  reg.op_name = op;
  reg.device_type = "CPU";
  reg.compute = fn;
  reg.constraints[0].attr = a1;
  reg.constraints[0].types = t1;
  reg.constraints[0].num_types = n1;
  reg.constraints[1].attr = a2;
  reg.constraints[1].types = t2;
  reg.constraints[1].num_types = n2;
  reg.constraints[2].attr = a3;
  reg.constraints[2].types = t3;
  reg.constraints[2].num_types = n3;
  reg.num_constraints = 3;
  tfe_kernel_register(&reg, st);
  TF_DeleteStatus(st);
}

void tfe_register_cpu_quant2_kernels(void) {
  tfe_kutil_register("QuantizeV2", k_quantize_v2, "T", k_qtypes,
                     KUTIL_COUNT(k_qtypes), NULL, NULL, 0);
  tfe_kutil_register("Dequantize", k_dequantize, "T", k_qtypes,
                     KUTIL_COUNT(k_qtypes), "dtype", k_deq_out,
                     KUTIL_COUNT(k_deq_out));
  tfe_kutil_register("QuantizeAndDequantize", k_qdq_v1, "T", k_fd,
                     KUTIL_COUNT(k_fd), NULL, NULL, 0);
  tfe_kutil_register("QuantizeAndDequantizeV2", k_qdq_v2, "T", k_fd,
                     KUTIL_COUNT(k_fd), NULL, NULL, 0);
  tfe_kutil_register("QuantizeAndDequantizeV4", k_qdq_v2, "T", k_fd,
                     KUTIL_COUNT(k_fd), NULL, NULL, 0);
  tfe_kutil_register("QuantizeAndDequantizeV3", k_qdq_v3, "T", k_fd,
                     KUTIL_COUNT(k_fd), NULL, NULL, 0);
  tfe_kutil_register("QuantizeAndDequantizeV4Grad", k_qdq_v4_grad, "T", k_fd,
                     KUTIL_COUNT(k_fd), NULL, NULL, 0);
  tfe_kutil_register("Requantize", k_requantize, "Tinput", k_q32, 1,
                     "out_type", k_q8, KUTIL_COUNT(k_q8));
  tfe_kutil_register("RequantizationRange", k_requantization_range, "Tinput",
                     k_q32, 1, NULL, NULL, 0);
  tfe_kutil_register("QuantizeDownAndShrinkRange",
                     k_quantize_down_and_shrink_range, "Tinput", k_q32, 1,
                     "out_type", k_qu8, 1);
  tfe_kutil_register("RequantizationRangePerChannel",
                     k_requantization_range_per_channel, "T", k_q32, 1, NULL,
                     NULL, 0);
  tfe_kutil_register("RequantizePerChannel", k_requantize_per_channel, "T",
                     k_q32, 1, "out_type", k_q8, KUTIL_COUNT(k_q8));
  q2_register3("QuantizedMatMul", k_quantized_matmul, "T1", k_qu8, 1, "T2",
               k_qu8, 1, "Toutput", k_q32, 1);
  tfe_kutil_register("UniformQuantize", k_uniform_quantize, "Tin", k_f32, 1,
                     "Tout", k_uq_out, KUTIL_COUNT(k_uq_out));
  tfe_kutil_register("UniformDequantize", k_uniform_dequantize, "Tin",
                     k_uq_out, KUTIL_COUNT(k_uq_out), "Tout", k_f32, 1);
  tfe_kutil_register("UniformRequantize", k_uniform_requantize, "Tin",
                     k_ureq_in, KUTIL_COUNT(k_ureq_in), "Tout", k_qi8, 1);
  tfe_kutil_register("UniformQuantizedAdd", k_uniform_add, "T", k_q32, 1, NULL,
                     NULL, 0);
  tfe_kutil_register("UniformQuantizedClipByValue", k_uniform_clip, "T", k_q32,
                     1, NULL, NULL, 0);
  tfe_kutil_register("UniformQuantizedDot", k_uniform_dot, "Tin", k_qi8, 1,
                     "Tout", k_q32, 1);
  q2_register3("UniformQuantizedDotHybrid", k_uniform_dot_hybrid, "Tlhs",
               k_f32, 1, "Trhs", k_qi8, 1, "Tout", k_f32, 1);
}
