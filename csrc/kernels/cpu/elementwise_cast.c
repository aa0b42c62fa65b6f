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
 * Same-type casts share the input buffer. Strings only cast to strings
 * (UNIMPLEMENTED otherwise, as in TF). */
#include <complex.h>
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
