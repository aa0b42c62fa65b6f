/* IEEE binary16 (TF_HALF) and bfloat16 (TF_BFLOAT16) values stored as
 * uint16_t, and their conversions to and from float.
 *
 * Narrowing conversions round to nearest, ties to even, like TensorFlow's
 * (Eigen's) half and bfloat16 types: overflow gives infinity, NaN stays NaN
 * (quiet), values below the smallest subnormal round to signed zero.
 * The *_trunc variants drop the extra mantissa bits instead (TF's Cast with
 * Truncate=true). Everything is branch-light and inline so that loops over
 * arrays can vectorize. */
#ifndef TFE_KERNELS_CPU_HALF_H_
#define TFE_KERNELS_CPU_HALF_H_

#include <stdint.h>
#include <string.h>

typedef uint16_t tfe_half;
typedef uint16_t tfe_bf16;

static inline uint32_t tfe_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float tfe_bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* ---- binary16 ---- */

static inline float tfe_half_to_float(tfe_half h) {
  /* Normal values: move exponent and mantissa into float position and
   * rebias the exponent. Subnormals are mantissa * 2^-24, computed exactly
   * without any float subnormal in between (so a flush-to-zero mode cannot
   * disturb them). inf/NaN get the float exponent of all ones. */
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  const uint32_t em = (uint32_t)(h & 0x7fffu);
  uint32_t bits = (em << 13) + (112u << 23);
  if (em >= 0x7c00u) bits = (em << 13) | 0x7f800000u;
  if (em < 0x0400u) {
    bits = tfe_f32_bits((float)em * 5.9604644775390625e-08f); /* 2^-24 */
  }
  return tfe_bits_f32(bits | sign);
}

static inline tfe_half tfe_float_to_half(float f) {
  const uint32_t u = tfe_f32_bits(f);
  const uint32_t sign = (u >> 16) & 0x8000u;
  uint32_t a = u & 0x7fffffffu;
  uint16_t out;
  if (a >= 0x7f800000u) {
    /* inf stays inf; NaN keeps its top payload bits and is made quiet */
    out = (uint16_t)(a > 0x7f800000u ? 0x7e00u | ((a >> 13) & 0x3ffu)
                                     : 0x7c00u);
  } else if (a >= 0x477ff000u) {
    /* 65520 and above round to infinity */
    out = 0x7c00u;
  } else if (a < 0x38800000u) {
    /* Below the smallest normal half (2^-14): let the FPU do the
     * rounding by adding 0.5, which leaves the subnormal mantissa in the
     * low bits with round-to-nearest-even applied. */
    float r = tfe_bits_f32(a) + 0.5f;
    out = (uint16_t)(tfe_f32_bits(r) - 0x3f000000u);
  } else {
    /* Normal: rebias the exponent and round the 13 dropped bits to
     * nearest even. */
    uint32_t odd = (a >> 13) & 1u;
    a += 0xc8000fffu + odd; /* (15-127) << 23, plus rounding bias */
    out = (uint16_t)(a >> 13);
  }
  return (tfe_half)(out | sign);
}

/* Keeps only the bits a half mantissa can hold before converting, so the
 * value is chopped toward zero instead of rounded (subnormal halves still
 * round, as TF's truncating cast does). */
static inline tfe_half tfe_float_to_half_trunc(float f) {
  uint32_t u = tfe_f32_bits(f);
  if ((u & 0x7f800000u) != 0x7f800000u) u &= 0xffffe000u;
  return tfe_float_to_half(tfe_bits_f32(u));
}

/* ---- bfloat16 ---- */

static inline float tfe_bf16_to_float(tfe_bf16 b) {
  return tfe_bits_f32((uint32_t)b << 16);
}

static inline tfe_bf16 tfe_float_to_bf16(float f) {
  uint32_t u = tfe_f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) {
    /* NaN: keep the sign and make it a quiet NaN */
    return (tfe_bf16)(((u >> 16) & 0x8000u) | 0x7fc0u);
  }
  u += 0x7fffu + ((u >> 16) & 1u);
  return (tfe_bf16)(u >> 16);
}

static inline tfe_bf16 tfe_float_to_bf16_trunc(float f) {
  uint32_t u = tfe_f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) {
    return (tfe_bf16)(((u >> 16) & 0x8000u) | 0x7fc0u);
  }
  return (tfe_bf16)(u >> 16);
}

#endif /* TFE_KERNELS_CPU_HALF_H_ */
