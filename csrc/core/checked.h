/* Checked integer arithmetic for sizes, indices and divisors.
 *
 * The rule (docs/ARCHITECTURE.md, "Sizes from users"): wherever a value the
 * caller controls (a dim, an int attr, a length, an element of an index
 * tensor) becomes a size, an offset, a loop bound or a divisor, it goes
 * through these helpers or is first range-checked so that the plain
 * arithmetic provably cannot overflow. Signed overflow is undefined in C,
 * and a wrapped size turns into a short allocation or a division by zero.
 *
 * Every helper returns 1 and stores the exact result in *out, or returns 0
 * (overflow) and leaves *out untouched. They are static inline so that
 * the core, the kernels and white-box tests share one definition. */
#ifndef TFE_CORE_CHECKED_H_
#define TFE_CORE_CHECKED_H_

#include <stddef.h>
#include <stdint.h>

static inline int tfe_checked_mul_i64(int64_t a, int64_t b, int64_t* out) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return 0;
  *out = r;
  return 1;
}

static inline int tfe_checked_add_i64(int64_t a, int64_t b, int64_t* out) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return 0;
  *out = r;
  return 1;
}

static inline int tfe_checked_sub_i64(int64_t a, int64_t b, int64_t* out) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return 0;
  *out = r;
  return 1;
}

static inline int tfe_checked_mul_int(int a, int b, int* out) {
  int r;
  if (__builtin_mul_overflow(a, b, &r)) return 0;
  *out = r;
  return 1;
}

static inline int tfe_checked_add_int(int a, int b, int* out) {
  int r;
  if (__builtin_add_overflow(a, b, &r)) return 0;
  *out = r;
  return 1;
}

static inline int tfe_checked_mul_sz(size_t a, size_t b, size_t* out) {
  size_t r;
  if (__builtin_mul_overflow(a, b, &r)) return 0;
  *out = r;
  return 1;
}

static inline int tfe_checked_add_sz(size_t a, size_t b, size_t* out) {
  size_t r;
  if (__builtin_add_overflow(a, b, &r)) return 0;
  *out = r;
  return 1;
}

/* 1 when v is representable as an int32 (what TF's GetAttr<int32> and
 * its number-attr readers accept). */
static inline int tfe_fits_int32(int64_t v) {
  return v >= INT32_MIN && v <= INT32_MAX;
}

/* The message TF gives when an int attr read as int32 does not fit:
 * printf format taking the attr name (%s) and the value (%lld). Code:
 * INVALID_ARGUMENT. */
#define TFE_ATTR_INT32_RANGE_FMT \
  "Attr %s has value %lld out of range for an int32"

/* Product of n dims, each >= 0, as int64; 0 when a product overflows or a
 * dim is negative (a zero dim makes the product 0, whatever the others). */
static inline int tfe_checked_dims_product(const int64_t* dims, int n,
                                           int64_t* out) {
  int64_t p = 1;
  int i, zero = 0;
  for (i = 0; i < n; i++) {
    if (dims[i] < 0) return 0;
    if (dims[i] == 0) zero = 1;
  }
  if (zero) {
    *out = 0;
    return 1;
  }
  for (i = 0; i < n; i++) {
    if (!tfe_checked_mul_i64(p, dims[i], &p)) return 0;
  }
  *out = p;
  return 1;
}

#endif /* TFE_CORE_CHECKED_H_ */
