/* Cast between every pair of numeric, bool, half, bfloat16, complex and
 * quantized-integer dtypes, with TensorFlow's CPU results:
 *  - float to integer truncates toward zero; NaN and out-of-range values
 *    give what TF's x86 kernels give element by element (its scalar code
 *    path; TF's auto-vectorized blocks of 8-32 elements saturate some of
 *    these instead, which depends on the tensor length and is not
 *    reproduced): the most negative int32/int64 for 32/64-bit targets, the
 *    low bits of that int32 for 8/16-bit targets, the low 32 bits of the
 *    int64 result for uint32, and for uint64 2^63 for NaN and huge values
 *    with wrap-around for negatives;
 *  - integer to integer wraps (keeps the low bits);
 *  - to half/bfloat16 rounds to nearest even, going through float first
 *    (so double and int64 sources are rounded twice, like TF);
 *  - Truncate=true chops the extra mantissa bits instead for the pairs
 *    where TF does (see the truncation table below);
 *  - complex to real keeps the real part (also for bool: real != 0);
 *  - anything to bool is "!= 0" (NaN is true).
 * float8 (e4m3fn, e5m2) and int4/uint4 casts are described further down.
 * Same-type casts share the input buffer. Strings only cast to strings
 * (UNIMPLEMENTED otherwise, as in TF). */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "kernels/cpu/elementwise_common.h"

/* ---- scalar conversions with defined results for every input ---- */

static inline int32_t ew_f2i32(float v) {
  return (v >= -2147483648.0f && v < 2147483648.0f) ? (int32_t)v : INT32_MIN;
}
static inline int32_t ew_d2i32(double v) {
  return (v >= -2147483648.0 && v < 2147483648.0) ? (int32_t)v : INT32_MIN;
}
static inline int64_t ew_f2i64(float v) {
  return (v >= -9223372036854775808.0f && v < 9223372036854775808.0f)
             ? (int64_t)v
             : INT64_MIN;
}
static inline int64_t ew_d2i64(double v) {
  return (v >= -9223372036854775808.0 && v < 9223372036854775808.0)
             ? (int64_t)v
             : INT64_MIN;
}
/* uint32 targets keep the low 32 bits of the int64 conversion (NaN and
 * huge values give 0). */
static inline uint32_t ew_f2u32(float v) { return (uint32_t)ew_f2i64(v); }
static inline uint32_t ew_d2u32(double v) { return (uint32_t)ew_d2i64(v); }
/* uint64 targets: convert v and v - 2^63 as int64; keep the first unless
 * it overflowed (negative), then OR in the second. NaN and huge values
 * give 2^63, negative values wrap around. */
static inline uint64_t ew_f2u64(float v) {
  int64_t a = ew_f2i64(v), b = ew_f2i64(v - 9223372036854775808.0f);
  return (uint64_t)a | ((uint64_t)b & (uint64_t)(a >> 63));
}
static inline uint64_t ew_d2u64(double v) {
  int64_t a = ew_d2i64(v), b = ew_d2i64(v - 9223372036854775808.0);
  return (uint64_t)a | ((uint64_t)b & (uint64_t)(a >> 63));
}
/* double with its low `bits` bits cleared (finite values only). */
static inline double ew_chop_d(double v, int bits) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  if ((u & 0x7ff0000000000000ull) != 0x7ff0000000000000ull) {
    u &= ~((1ull << bits) - 1);
  }
  memcpy(&v, &u, sizeof v);
  return v;
}
/* double to float with the 29 extra mantissa bits dropped. */
static inline float ew_d2f_trunc(double v) { return (float)ew_chop_d(v, 29); }

/* ---- conversions by destination and source kind ----
 * Kinds: KF (value read as float), KD (double), KI (int64), KU (uint64).
 * (Not plain F/D/I/U: complex.h defines I.) */
#define EW_KT_KF float
#define EW_KT_KD double
#define EW_KT_KI int64_t
#define EW_KT_KU uint64_t

#define EW_TO_f32_KF(v) (v)
#define EW_TO_f32_KD(v) ((float)(v))
#define EW_TO_f32_KI(v) ((float)(v))
#define EW_TO_f32_KU(v) ((float)(v))
#define EW_TO_f64_KF(v) ((double)(v))
#define EW_TO_f64_KD(v) (v)
#define EW_TO_f64_KI(v) ((double)(v))
#define EW_TO_f64_KU(v) ((double)(v))
#define EW_TO_f16_KF(v) tfe_float_to_half(v)
#define EW_TO_f16_KD(v) tfe_float_to_half((float)(v))
#define EW_TO_f16_KI(v) tfe_float_to_half((float)(v))
#define EW_TO_f16_KU(v) tfe_float_to_half((float)(v))
#define EW_TO_bf16_KF(v) tfe_float_to_bf16(v)
#define EW_TO_bf16_KD(v) tfe_float_to_bf16((float)(v))
#define EW_TO_bf16_KI(v) tfe_float_to_bf16((float)(v))
#define EW_TO_bf16_KU(v) tfe_float_to_bf16((float)(v))
#define EW_TO_i8_KF(v) ((int8_t)ew_f2i32(v))
#define EW_TO_i8_KD(v) ((int8_t)ew_d2i32(v))
#define EW_TO_i8_KI(v) ((int8_t)(v))
#define EW_TO_i8_KU(v) ((int8_t)(v))
#define EW_TO_i16_KF(v) ((int16_t)ew_f2i32(v))
#define EW_TO_i16_KD(v) ((int16_t)ew_d2i32(v))
#define EW_TO_i16_KI(v) ((int16_t)(v))
#define EW_TO_i16_KU(v) ((int16_t)(v))
#define EW_TO_i32_KF(v) ew_f2i32(v)
#define EW_TO_i32_KD(v) ew_d2i32(v)
#define EW_TO_i32_KI(v) ((int32_t)(v))
#define EW_TO_i32_KU(v) ((int32_t)(v))
#define EW_TO_i64_KF(v) ew_f2i64(v)
#define EW_TO_i64_KD(v) ew_d2i64(v)
#define EW_TO_i64_KI(v) (v)
#define EW_TO_i64_KU(v) ((int64_t)(v))
#define EW_TO_u8_KF(v) ((uint8_t)ew_f2i32(v))
#define EW_TO_u8_KD(v) ((uint8_t)ew_d2i32(v))
#define EW_TO_u8_KI(v) ((uint8_t)(v))
#define EW_TO_u8_KU(v) ((uint8_t)(v))
#define EW_TO_u16_KF(v) ((uint16_t)ew_f2i32(v))
#define EW_TO_u16_KD(v) ((uint16_t)ew_d2i32(v))
#define EW_TO_u16_KI(v) ((uint16_t)(v))
#define EW_TO_u16_KU(v) ((uint16_t)(v))
#define EW_TO_u32_KF(v) ew_f2u32(v)
#define EW_TO_u32_KD(v) ew_d2u32(v)
#define EW_TO_u32_KI(v) ((uint32_t)(v))
#define EW_TO_u32_KU(v) ((uint32_t)(v))
#define EW_TO_u64_KF(v) ew_f2u64(v)
#define EW_TO_u64_KD(v) ew_d2u64(v)
#define EW_TO_u64_KI(v) ((uint64_t)(v))
#define EW_TO_u64_KU(v) (v)
#define EW_TO_bool_KF(v) ((uint8_t)((v) != 0))
#define EW_TO_bool_KD(v) ((uint8_t)((v) != 0))
#define EW_TO_bool_KI(v) ((uint8_t)((v) != 0))
#define EW_TO_bool_KU(v) ((uint8_t)((v) != 0))
#define EW_TO_c64_KF(v) CMPLXF((v), 0.0f)
#define EW_TO_c64_KD(v) CMPLXF((float)(v), 0.0f)
#define EW_TO_c64_KI(v) CMPLXF((float)(v), 0.0f)
#define EW_TO_c64_KU(v) CMPLXF((float)(v), 0.0f)
#define EW_TO_c128_KF(v) CMPLX((double)(v), 0.0)
#define EW_TO_c128_KD(v) CMPLX((v), 0.0)
#define EW_TO_c128_KI(v) CMPLX((double)(v), 0.0)
#define EW_TO_c128_KU(v) CMPLX((double)(v), 0.0)

/* Truncating narrowings. */
#define EW_TOT_f16_KF(v) tfe_float_to_half_trunc(v)
#define EW_TOT_bf16_KF(v) tfe_float_to_bf16_trunc(v)
#define EW_TOT_f32_KD(v) ew_d2f_trunc(v)
#define EW_TOT_f16_KD(v) tfe_float_to_half_trunc(ew_d2f_trunc(v))

/* Loads of the source element into its kind. */
#define EW_LD_BOOL(v) ((int64_t)((v) != 0))
#define EW_LD_RE_F(v) crealf(v)
#define EW_LD_RE_D(v) creal(v)

/* Sources: X(..., ssfx, ST, SDT, KIND, LOAD). */
#define EW_CAST_SRCS(X)                                    \
  X(f32, float, TF_FLOAT, KF, TFE_EW_ID)                    \
  X(f64, double, TF_DOUBLE, KD, TFE_EW_ID)                  \
  X(f16, tfe_half, TF_HALF, KF, TFE_EW_H2F)                 \
  X(bf16, tfe_bf16, TF_BFLOAT16, KF, TFE_EW_B2F)            \
  X(i8, int8_t, TF_INT8, KI, TFE_EW_ID)                     \
  X(i16, int16_t, TF_INT16, KI, TFE_EW_ID)                  \
  X(i32, int32_t, TF_INT32, KI, TFE_EW_ID)                  \
  X(i64, int64_t, TF_INT64, KI, TFE_EW_ID)                  \
  X(u8, uint8_t, TF_UINT8, KI, TFE_EW_ID)                   \
  X(u16, uint16_t, TF_UINT16, KI, TFE_EW_ID)                \
  X(u32, uint32_t, TF_UINT32, KI, TFE_EW_ID)                \
  X(u64, uint64_t, TF_UINT64, KU, TFE_EW_ID)                \
  X(bool, uint8_t, TF_BOOL, KI, EW_LD_BOOL)                 \
  X(c64, tfe_c64, TF_COMPLEX64, KF, EW_LD_RE_F)             \
  X(c128, tfe_c128, TF_COMPLEX128, KD, EW_LD_RE_D)

/* Destinations: Y(ssfx, ST, KIND, LOAD, dsfx, DTY, DDT). */
#define EW_CAST_DSTS(Y, ssfx, ST, KIND, LOAD)              \
  Y(ssfx, ST, KIND, LOAD, f32, float, TF_FLOAT)            \
  Y(ssfx, ST, KIND, LOAD, f64, double, TF_DOUBLE)          \
  Y(ssfx, ST, KIND, LOAD, f16, tfe_half, TF_HALF)          \
  Y(ssfx, ST, KIND, LOAD, bf16, tfe_bf16, TF_BFLOAT16)     \
  Y(ssfx, ST, KIND, LOAD, i8, int8_t, TF_INT8)             \
  Y(ssfx, ST, KIND, LOAD, i16, int16_t, TF_INT16)          \
  Y(ssfx, ST, KIND, LOAD, i32, int32_t, TF_INT32)          \
  Y(ssfx, ST, KIND, LOAD, i64, int64_t, TF_INT64)          \
  Y(ssfx, ST, KIND, LOAD, u8, uint8_t, TF_UINT8)           \
  Y(ssfx, ST, KIND, LOAD, u16, uint16_t, TF_UINT16)        \
  Y(ssfx, ST, KIND, LOAD, u32, uint32_t, TF_UINT32)        \
  Y(ssfx, ST, KIND, LOAD, u64, uint64_t, TF_UINT64)        \
  Y(ssfx, ST, KIND, LOAD, bool, uint8_t, TF_BOOL)          \
  Y(ssfx, ST, KIND, LOAD, c64, tfe_c64, TF_COMPLEX64)      \
  Y(ssfx, ST, KIND, LOAD, c128, tfe_c128, TF_COMPLEX128)

#define EW_CAST_GEN_ONE(ssfx, ST, KIND, LOAD, dsfx, DTY, DDT)              \
  TFE_EW_UNARY_T(cast_##ssfx##_##dsfx, ST, DTY, EW_KT_##KIND, LOAD,        \
                 TFE_EW_ID, EW_TO_##dsfx##_##KIND(x))
#define EW_CAST_GEN_ROW(ssfx, ST, SDT, KIND, LOAD) \
  EW_CAST_DSTS(EW_CAST_GEN_ONE, ssfx, ST, KIND, LOAD)
EW_CAST_SRCS(EW_CAST_GEN_ROW)

#define EW_CAST_ENT_ONE(ssfx, ST, KIND, LOAD, dsfx, DTY, DDT) \
  [DDT] = cast_##ssfx##_##dsfx,
#define EW_CAST_ENT_ROW(ssfx, ST, SDT, KIND, LOAD) \
  [SDT] = {EW_CAST_DSTS(EW_CAST_ENT_ONE, ssfx, ST, KIND, LOAD)},

static const tfe_ew_fn k_cast_table[TFE_EW_NTYPES][TFE_EW_NTYPES] = {
    EW_CAST_SRCS(EW_CAST_ENT_ROW)};

/* ---- truncating variants ----
 * TF's Truncate=true chops mantissa bits only for these pairs (observed
 * in TF 2.21): float/complex64 to half, float to bfloat16, double and
 * complex128 to float and half, complex128 to complex64. Other narrowings
 * (to bfloat16 from double, half or complex) still round. double to
 * complex64 clears 53 low bits of the double (exponent bit included), as
 * TF 2.21 does. */
#define EW_TRUNC_GEN(ssfx, ST, KIND, LOAD, dsfx, DTY)                      \
  TFE_EW_UNARY_T(castt_##ssfx##_##dsfx, ST, DTY, EW_KT_##KIND, LOAD,       \
                 TFE_EW_ID, EW_TOT_##dsfx##_##KIND(x))
EW_TRUNC_GEN(f32, float, KF, TFE_EW_ID, f16, tfe_half)
EW_TRUNC_GEN(f32, float, KF, TFE_EW_ID, bf16, tfe_bf16)
EW_TRUNC_GEN(c64, tfe_c64, KF, EW_LD_RE_F, f16, tfe_half)
EW_TRUNC_GEN(f64, double, KD, TFE_EW_ID, f32, float)
EW_TRUNC_GEN(f64, double, KD, TFE_EW_ID, f16, tfe_half)
EW_TRUNC_GEN(c128, tfe_c128, KD, EW_LD_RE_D, f32, float)
EW_TRUNC_GEN(c128, tfe_c128, KD, EW_LD_RE_D, f16, tfe_half)
TFE_EW_UNARY_T(castt_f64_c64, double, tfe_c64, double, TFE_EW_ID, TFE_EW_ID,
               CMPLXF((float)ew_chop_d(x, 53), 0.0f))

static const tfe_ew_fn k_cast_trunc_table[TFE_EW_NTYPES][TFE_EW_NTYPES] = {
    [TF_FLOAT] = {[TF_HALF] = castt_f32_f16, [TF_BFLOAT16] = castt_f32_bf16},
    [TF_COMPLEX64] = {[TF_HALF] = castt_c64_f16},
    [TF_DOUBLE] = {[TF_FLOAT] = castt_f64_f32, [TF_HALF] = castt_f64_f16,
                   [TF_COMPLEX64] = castt_f64_c64},
    [TF_COMPLEX128] = {[TF_FLOAT] = castt_c128_f32,
                       [TF_HALF] = castt_c128_f16},
};

/* ---- complex to complex keeps both parts ---- */
TFE_EW_UNARY_T(cplx_c64_c128, tfe_c64, tfe_c128, tfe_c64, TFE_EW_ID, TFE_EW_ID,
               CMPLX((double)crealf(x), (double)cimagf(x)))
TFE_EW_UNARY_T(cplx_c128_c64, tfe_c128, tfe_c64, tfe_c128, TFE_EW_ID,
               TFE_EW_ID, CMPLXF((float)creal(x), (float)cimag(x)))
TFE_EW_UNARY_T(cplxt_c128_c64, tfe_c128, tfe_c64, tfe_c128, TFE_EW_ID,
               TFE_EW_ID, CMPLXF(ew_d2f_trunc(creal(x)), ew_d2f_trunc(cimag(x))))

/* ---- float8 (e4m3fn, e5m2) and 4-bit integers ----
 * As TF 2.21's CPU Cast (ml_dtypes' conversions):
 *  - float8_e4m3fn and float8_e5m2 cast to every real, complex, bool and
 *    integer type, and from half, bfloat16, float, double and each other.
 *    Integer, bool and complex sources are not supported, nor the fnuz
 *    float8 types at all.
 *  - To float8: one rounding to nearest even straight from the source
 *    value (a double is not rounded to float first). e4m3fn has no
 *    infinity: overflow (above 464) and +-inf give NaN (0x7f, sign kept);
 *    e5m2 overflows to +-inf. NaN gives the quiet NaN with its sign
 *    (0x7f / 0x7e), except that a half NaN keeps its top payload bits in
 *    e5m2 (the two formats share their exponent layout) with the quiet bit
 *    set.
 *  - Truncate=true clears the source mantissa bits the target cannot
 *    hold (on the raw field, subnormal sources included) and then converts
 *    with rounding, so results below the target's normal range may still
 *    round up.
 *  - From float8: the exact value, through float; integer targets then
 *    behave as float sources do, except uint32, which gets the low bits of
 *    the int32 conversion (NaN and inf give 2^31).
 *  - int4/uint4 are stored one per byte in the low nibble (the high
 *    nibble is zero on output and ignored on input). They cast to and from
 *    the 8- to 64-bit integer types and each other only; every cast keeps
 *    the low bits (wraps).
 *  - float4_e2m1fn (values 0, 0.5, 1, 1.5, 2, 3, 4, 6 and negatives, one
 *    per byte in the low nibble) casts like a float8 type, with the same
 *    peers. It has neither infinity nor NaN: as ml_dtypes converts, values
 *    round to nearest even, overflow and +-inf give +-6, and NaN gives a
 *    zero whose sign bit is the NaN's flipped (0x8 for +NaN). */

static int is_f8(TF_DataType t) {
  return t == TF_FLOAT8_E4M3FN || t == TF_FLOAT8_E5M2;
}
static int is_f4(TF_DataType t) { return t == TF_FLOAT4_E2M1FN; }
/* float8 or float4: the narrow floats cast through f8_cast_range. */
static int is_narrow_float(TF_DataType t) { return is_f8(t) || is_f4(t); }
static int is_i4(TF_DataType t) { return t == TF_INT4 || t == TF_UINT4; }
static int is_plain_int(TF_DataType t) {
  switch (t) {
    case TF_INT8: case TF_INT16: case TF_INT32: case TF_INT64:
    case TF_UINT8: case TF_UINT16: case TF_UINT32: case TF_UINT64:
      return 1;
    default:
      return 0;
  }
}
static int is_f8_peer(TF_DataType t) {
  return t == TF_HALF || t == TF_BFLOAT16 || t == TF_FLOAT ||
         t == TF_DOUBLE || is_narrow_float(t);
}

/* Exact value of a float4_e2m1fn nibble (bias 1, no inf or NaN). */
static float f4_decode(uint8_t b) {
  const unsigned e = (b >> 1) & 3u, m = b & 1u;
  const float v = e == 0 ? 0.5f * (float)m
                         : ldexpf(1.0f + 0.5f * (float)m, (int)e - 1);
  return (b & 0x8u) ? -v : v;
}

/* Nearest float4_e2m1fn to d, ties to an even code (mantissa bit 0);
 * beyond 6 and +-inf saturate to +-6; NaN as ml_dtypes: +NaN 0x8, -NaN
 * 0x0. */
static uint8_t f4_encode(double d) {
  static const double grid[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
  const uint8_t sign = signbit(d) ? 0x8u : 0u;
  const double a = fabs(d);
  unsigned k;
  if (isnan(d)) return (uint8_t)(sign ^ 0x8u);
  for (k = 0; k < 7; k++) {
    const double mid = 0.5 * (grid[k] + grid[k + 1]);
    if (a < mid) return (uint8_t)(sign | k);
    if (a == mid) return (uint8_t)(sign | ((k & 1u) ? k + 1 : k));
  }
  return (uint8_t)(sign | 7u);
}

/* Exact value of a float8 byte (NaN is the quiet NaN with its sign). */
static float f8_decode(uint8_t b, int e4m3) {
  const float sign = (b & 0x80u) ? -1.0f : 1.0f;
  const unsigned em = b & 0x7fu;
  float v;
  if (e4m3) {
    unsigned e = em >> 3, m = em & 7u;
    if (em == 0x7fu) return tfe_bits_f32((b & 0x80u) ? 0xffc00000u : 0x7fc00000u);
    v = e == 0 ? (float)m * 0.001953125f /* 2^-9 */
               : ldexpf(1.0f + (float)m / 8.0f, (int)e - 7);
  } else {
    unsigned e = em >> 2, m = em & 3u;
    if (e == 31u) {
      if (m != 0) return tfe_bits_f32((b & 0x80u) ? 0xffc00000u : 0x7fc00000u);
      return sign * INFINITY;
    }
    v = e == 0 ? (float)m * 1.52587890625e-05f /* 2^-16 */
               : ldexpf(1.0f + (float)m / 4.0f, (int)e - 15);
  }
  return sign * v;
}

/* Exact value of a narrow float byte of type t. */
static float narrow_decode(uint8_t b, TF_DataType t) {
  return is_f4(t) ? f4_decode(b) : f8_decode(b, t == TF_FLOAT8_E4M3FN);
}

/* Nearest float8 to d, ties to even. */
static uint8_t f8_encode(double d, int e4m3) {
  const uint8_t sign = signbit(d) ? 0x80u : 0u;
  const int mb = e4m3 ? 3 : 2, emin = e4m3 ? -6 : -14, bias = e4m3 ? 7 : 15;
  const double maxv = e4m3 ? 448.0 : 57344.0;
  const uint8_t over = e4m3 ? 0x7fu : 0x7cu;
  double a = fabs(d), q, fl, r, v;
  int e;
  if (isnan(d)) return (uint8_t)(sign | (e4m3 ? 0x7fu : 0x7eu));
  if (isinf(d)) return (uint8_t)(sign | over);
  if (a == 0.0) return sign;
  (void)frexp(a, &e);
  e -= 1; /* a is in [2^e, 2^(e+1)) */
  if (e < emin) e = emin;
  if (e > 64) return (uint8_t)(sign | over);
  q = ldexp(a, mb - e); /* in units of the last place at exponent e */
  fl = floor(q);
  r = q - fl;
  if (r > 0.5 || (r == 0.5 && fmod(fl, 2.0) != 0.0)) fl += 1.0;
  v = ldexp(fl, e - mb);
  if (v > maxv) return (uint8_t)(sign | over);
  if (v < ldexp(1.0, emin)) return (uint8_t)(sign | (uint8_t)fl);
  (void)frexp(v, &e);
  e -= 1;
  return (uint8_t)(sign | (unsigned)((e + bias) << mb) |
                   (unsigned)(ldexp(v, mb - e) - (double)(1 << mb)));
}

typedef struct f8_cast_params {
  TF_DataType src, dst;
  int truncate;
} f8_cast_params;

/* Source element i as a double, for a float8 target: Truncate clears the
 * mantissa bits the target lacks first. *nan_bits receives a ready target
 * byte for half NaNs going to e5m2 (else -1). */
static double f8_load(const void* in, int64_t i, const f8_cast_params* p,
                      int* nan_bits) {
  const int mb = p->dst == TF_FLOAT8_E4M3FN ? 3 : is_f4(p->dst) ? 1 : 2;
  const int tr = p->truncate && is_narrow_float(p->dst);
  *nan_bits = -1;
  switch (p->src) {
    case TF_FLOAT: {
      uint32_t u;
      memcpy(&u, (const float*)in + i, sizeof u);
      if (tr && (u & 0x7f800000u) != 0x7f800000u) u &= ~((1u << (23 - mb)) - 1u);
      return (double)tfe_bits_f32(u);
    }
    case TF_DOUBLE: {
      double d = ((const double*)in)[i];
      return tr ? ew_chop_d(d, 52 - mb) : d;
    }
    case TF_HALF: {
      uint16_t h = ((const uint16_t*)in)[i];
      if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0 &&
          p->dst == TF_FLOAT8_E5M2) {
        *nan_bits = (h >> 8) | 0x02;
      }
      if (tr && (h & 0x7c00u) != 0x7c00u) h &= (uint16_t)~((1u << (10 - mb)) - 1u);
      return (double)tfe_half_to_float(h);
    }
    case TF_BFLOAT16: {
      uint16_t b = ((const uint16_t*)in)[i];
      if (tr && (b & 0x7f80u) != 0x7f80u) b &= (uint16_t)~((1u << (7 - mb)) - 1u);
      return (double)tfe_bf16_to_float(b);
    }
    case TF_FLOAT8_E4M3FN: {
      uint8_t b = ((const uint8_t*)in)[i];
      if (tr && mb < 3 && (b & 0x7fu) != 0x7fu) {
        b &= (uint8_t)~((1u << (3 - mb)) - 1u);
      }
      return (double)f8_decode(b, 1);
    }
    case TF_FLOAT4_E2M1FN: /* no target has fewer mantissa bits */
      return (double)f4_decode(((const uint8_t*)in)[i]);
    default: { /* TF_FLOAT8_E5M2 */
      uint8_t b = ((const uint8_t*)in)[i];
      if (tr && mb < 2 && (b & 0x7cu) != 0x7cu) b &= (uint8_t)~1u;
      return (double)f8_decode(b, 0);
    }
  }
}

static int f8_cast_range(const tfe_bcast* bc, const void* const* in,
                         void* out, int64_t b, int64_t e, const void* prm) {
  const f8_cast_params* p = (const f8_cast_params*)prm;
  int64_t i;
  (void)bc;
  if (is_f8(p->dst)) {
    const int e4m3 = p->dst == TF_FLOAT8_E4M3FN;
    uint8_t* o = (uint8_t*)out;
    for (i = b; i < e; i++) {
      int nb;
      double d = f8_load(in[0], i, p, &nb);
      o[i] = nb >= 0 ? (uint8_t)nb : f8_encode(d, e4m3);
    }
    return 0;
  }
  if (is_f4(p->dst)) {
    uint8_t* o = (uint8_t*)out;
    for (i = b; i < e; i++) {
      int nb;
      o[i] = f4_encode(f8_load(in[0], i, p, &nb));
    }
    return 0;
  }
  /* narrow float source, any other target: through the exact float value */
  for (i = b; i < e; i++) {
    const float x = narrow_decode(((const uint8_t*)in[0])[i], p->src);
    switch (p->dst) {
      case TF_FLOAT: ((float*)out)[i] = x; break;
      case TF_DOUBLE: ((double*)out)[i] = x; break;
      case TF_HALF: ((tfe_half*)out)[i] = tfe_float_to_half(x); break;
      case TF_BFLOAT16: ((tfe_bf16*)out)[i] = tfe_float_to_bf16(x); break;
      case TF_INT8: ((int8_t*)out)[i] = EW_TO_i8_KF(x); break;
      case TF_INT16: ((int16_t*)out)[i] = EW_TO_i16_KF(x); break;
      case TF_INT32: ((int32_t*)out)[i] = EW_TO_i32_KF(x); break;
      case TF_INT64: ((int64_t*)out)[i] = EW_TO_i64_KF(x); break;
      case TF_UINT8: ((uint8_t*)out)[i] = EW_TO_u8_KF(x); break;
      case TF_UINT16: ((uint16_t*)out)[i] = EW_TO_u16_KF(x); break;
      case TF_UINT32: ((uint32_t*)out)[i] = (uint32_t)ew_f2i32(x); break;
      case TF_UINT64: ((uint64_t*)out)[i] = EW_TO_u64_KF(x); break;
      case TF_BOOL: ((uint8_t*)out)[i] = EW_TO_bool_KF(x); break;
      case TF_COMPLEX64: ((tfe_c64*)out)[i] = EW_TO_c64_KF(x); break;
      case TF_COMPLEX128: ((tfe_c128*)out)[i] = EW_TO_c128_KF(x); break;
      default: break;
    }
  }
  return 0;
}

/* Integer element i (int4 sign-extended, uint4 zero-extended) as int64
 * bits. */
static int64_t i4_load(const void* in, int64_t i, TF_DataType t) {
  switch (t) {
    case TF_INT4: {
      int v = ((const uint8_t*)in)[i] & 0xf;
      return v >= 8 ? v - 16 : v;
    }
    case TF_UINT4: return ((const uint8_t*)in)[i] & 0xf;
    case TF_INT8: return ((const int8_t*)in)[i];
    case TF_INT16: return ((const int16_t*)in)[i];
    case TF_INT32: return ((const int32_t*)in)[i];
    case TF_INT64: return ((const int64_t*)in)[i];
    case TF_UINT8: return ((const uint8_t*)in)[i];
    case TF_UINT16: return ((const uint16_t*)in)[i];
    case TF_UINT32: return ((const uint32_t*)in)[i];
    default: return (int64_t)((const uint64_t*)in)[i];
  }
}

static int i4_cast_range(const tfe_bcast* bc, const void* const* in,
                         void* out, int64_t b, int64_t e, const void* prm) {
  const f8_cast_params* p = (const f8_cast_params*)prm;
  int64_t i;
  (void)bc;
  for (i = b; i < e; i++) {
    const int64_t v = i4_load(in[0], i, p->src);
    switch (p->dst) {
      case TF_INT4: case TF_UINT4: ((uint8_t*)out)[i] = (uint8_t)(v & 0xf); break;
      case TF_INT8: ((int8_t*)out)[i] = (int8_t)v; break;
      case TF_INT16: ((int16_t*)out)[i] = (int16_t)v; break;
      case TF_INT32: ((int32_t*)out)[i] = (int32_t)v; break;
      case TF_INT64: ((int64_t*)out)[i] = v; break;
      case TF_UINT8: ((uint8_t*)out)[i] = (uint8_t)v; break;
      case TF_UINT16: ((uint16_t*)out)[i] = (uint16_t)v; break;
      case TF_UINT32: ((uint32_t*)out)[i] = (uint32_t)v; break;
      default: ((uint64_t*)out)[i] = (uint64_t)v; break;
    }
  }
  return 0;
}

/* The float8 / 4-bit function for src -> dst, or NULL when TF has none. */
static tfe_ew_fn narrow_cast_fn(TF_DataType src, TF_DataType dst) {
  if (is_narrow_float(dst)) return is_f8_peer(src) ? f8_cast_range : NULL;
  if (is_narrow_float(src)) {
    return (is_f8_peer(dst) || is_plain_int(dst) || dst == TF_BOOL ||
            dst == TF_COMPLEX64 || dst == TF_COMPLEX128)
               ? f8_cast_range
               : NULL;
  }
  if (is_i4(src) || is_i4(dst)) {
    return ((is_i4(src) || is_plain_int(src)) &&
            (is_i4(dst) || is_plain_int(dst)))
               ? i4_cast_range
               : NULL;
  }
  return NULL;
}

/* Quantized integers share the layout (and casts) of the plain ones. */
static TF_DataType plain_type(TF_DataType t) {
  switch (t) {
    case TF_QINT8: return TF_INT8;
    case TF_QUINT8: return TF_UINT8;
    case TF_QINT16: return TF_INT16;
    case TF_QUINT16: return TF_UINT16;
    case TF_QINT32: return TF_INT32;
    default: return t;
  }
}

static const char* type_word(TF_DataType t) {
  const char* s = tfe_dtype_short_name(t);
  return s != NULL ? s : "unknown";
}

static void cast_compute(tfe_kernel_context* k) {
  const TF_Tensor* x;
  TF_DataType src, dst, ps, pd;
  int truncate = 0;
  tfe_ew_fn fn = NULL;
  TF_Tensor* out;
  const void* in[1];
  tfe_ew_params prm;
  if (!tfe_ew_check_inputs(k, 1)) return;
  x = k->inputs[0];
  src = x->dtype;
  if (!tfe_attrs_get_type(k->attrs, "DstT", &dst, k->status)) return;
  {
    const tfe_attr_value* v =
        k->attrs != NULL ? tfe_attrs_find(k->attrs, "Truncate") : NULL;
    if (v != NULL && v->type == TF_ATTR_BOOL && !v->is_list) truncate = v->v.b;
  }
  if (src == dst) {
    /* Nothing to convert: share the input's buffer. */
    tfe_kernel_alias_input(k, 0, 0, x->dims, x->num_dims);
    return;
  }
  if (is_narrow_float(src) || is_narrow_float(dst) || is_i4(src) ||
      is_i4(dst)) {
    f8_cast_params fp;
    fn = narrow_cast_fn(src, dst);
    if (fn == NULL) {
      tfe_status_setf(k->status, TF_UNIMPLEMENTED,
                      "Cast %s to %s is not supported", type_word(src),
                      type_word(dst));
      return;
    }
    out = tfe_kernel_alloc_output(k, 0, dst, x->dims, x->num_dims);
    if (out == NULL) return;
    fp.src = src;
    fp.dst = dst;
    fp.truncate = truncate;
    in[0] = tfe_ew_data(x);
    tfe_ew_run(k, fn, NULL, in, tfe_ew_data(out), tfe_ew_num_elements(x), &fp,
               TFE_EW_CHUNK_CHEAP);
    return;
  }
  ps = plain_type(src);
  pd = plain_type(dst);
  if ((unsigned)ps < TFE_EW_NTYPES && (unsigned)pd < TFE_EW_NTYPES) {
    if (ps == pd) {
      /* Same layout (e.g. qint8 and int8): plain copy. */
      out = tfe_kernel_alloc_output(k, 0, dst, x->dims, x->num_dims);
      if (out == NULL) return;
      memcpy(tfe_ew_data(out), tfe_ew_data(x),
             (size_t)tfe_ew_num_elements(x) * TF_DataTypeSize(src));
      return;
    }
    if ((ps == TF_COMPLEX64 || ps == TF_COMPLEX128) &&
        (pd == TF_COMPLEX64 || pd == TF_COMPLEX128)) {
      fn = ps == TF_COMPLEX64 ? cplx_c64_c128
                              : (truncate ? cplxt_c128_c64 : cplx_c128_c64);
    } else {
      if (truncate) fn = k_cast_trunc_table[ps][pd];
      if (fn == NULL) fn = k_cast_table[ps][pd];
    }
  }
  if (fn == NULL) {
    tfe_status_setf(k->status, TF_UNIMPLEMENTED,
                    "Cast %s to %s is not supported", type_word(src),
                    type_word(dst));
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, dst, x->dims, x->num_dims);
  if (out == NULL) return;
  memset(&prm, 0, sizeof prm);
  in[0] = tfe_ew_data(x);
  tfe_ew_run(k, fn, NULL, in, tfe_ew_data(out), tfe_ew_num_elements(x), &prm,
             TFE_EW_CHUNK_CHEAP);
}

void tfe_ew_register_cast(void) {
  /* TF's Cast kernel has no type constraint: unsupported pairs fail at
   * run time with UNIMPLEMENTED. */
  tfe_ew_register_fn("Cast", cast_compute, NULL, NULL, NULL, 0, NULL, NULL, 0);
}
