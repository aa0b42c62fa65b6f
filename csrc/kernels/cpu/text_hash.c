/* Hash functions for the string-to-bucket ops (see text_hash.h). All three
 * read their input as little-endian 64-bit words regardless of the host. */
#include "kernels/cpu/text_hash.h"

#include <string.h>

static uint64_t load64(const char* p) {
  const unsigned char* b = (const unsigned char*)p;
  return (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
         (uint64_t)b[3] << 24 | (uint64_t)b[4] << 32 | (uint64_t)b[5] << 40 |
         (uint64_t)b[6] << 48 | (uint64_t)b[7] << 56;
}

static uint32_t load32(const char* p) {
  const unsigned char* b = (const unsigned char*)p;
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
         (uint32_t)b[3] << 24;
}

static uint64_t rotr64(uint64_t v, int s) {
  return s == 0 ? v : (v >> s) | (v << (64 - s));
}

static uint64_t rotl64(uint64_t v, int s) {
  return (v << s) | (v >> (64 - s));
}

/* ---- FarmHash Fingerprint64 ---- */

/* The three odd constants of the FarmHash/CityHash family. */
#define FH_K0 0xc3a5c85c97cb3127ULL
#define FH_K1 0xb492b66fbe98f273ULL
#define FH_K2 0x9ae16a3b2f90404fULL

static uint64_t fh_shift_mix(uint64_t v) { return v ^ (v >> 47); }

/* Mixes two words into one with multiplier mul. */
static uint64_t fh_mix16(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = (u ^ v) * mul, b;
  a ^= a >> 47;
  b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

static uint64_t fh_len0to16(const char* s, size_t len) {
  if (len >= 8) {
    uint64_t mul = FH_K2 + (uint64_t)len * 2;
    uint64_t a = load64(s) + FH_K2;
    uint64_t b = load64(s + len - 8);
    uint64_t c = rotr64(b, 37) * mul + a;
    uint64_t d = (rotr64(a, 25) + b) * mul;
    return fh_mix16(c, d, mul);
  }
  if (len >= 4) {
    uint64_t mul = FH_K2 + (uint64_t)len * 2;
    uint64_t a = load32(s);
    return fh_mix16((uint64_t)len + (a << 3), load32(s + len - 4), mul);
  }
  if (len > 0) {
    uint8_t a = (uint8_t)s[0], b = (uint8_t)s[len >> 1],
            c = (uint8_t)s[len - 1];
    uint32_t y = (uint32_t)a + ((uint32_t)b << 8);
    uint32_t z = (uint32_t)len + ((uint32_t)c << 2);
    return fh_shift_mix((uint64_t)y * FH_K2 ^ (uint64_t)z * FH_K0) * FH_K2;
  }
  return FH_K2;
}

static uint64_t fh_len17to32(const char* s, size_t len) {
  uint64_t mul = FH_K2 + (uint64_t)len * 2;
  uint64_t a = load64(s) * FH_K1;
  uint64_t b = load64(s + 8);
  uint64_t c = load64(s + len - 8) * mul;
  uint64_t d = load64(s + len - 16) * FH_K2;
  return fh_mix16(rotr64(a + b, 43) + rotr64(c, 30) + d,
                  a + rotr64(b + FH_K2, 18) + c, mul);
}

static uint64_t fh_len33to64(const char* s, size_t len) {
  uint64_t mul = FH_K2 + (uint64_t)len * 2;
  uint64_t a = load64(s) * FH_K2;
  uint64_t b = load64(s + 8);
  uint64_t c = load64(s + len - 8) * mul;
  uint64_t d = load64(s + len - 16) * FH_K2;
  uint64_t y = rotr64(a + b, 43) + rotr64(c, 30) + d;
  uint64_t z = fh_mix16(y, a + rotr64(b + FH_K2, 18) + c, mul);
  uint64_t e = load64(s + 16) * mul;
  uint64_t f = load64(s + 24);
  uint64_t g = (y + load64(s + len - 32)) * mul;
  uint64_t h = (z + load64(s + len - 24)) * mul;
  return fh_mix16(rotr64(e + f, 43) + rotr64(g, 30) + h,
                  e + rotr64(f + a, 18) + g, mul);
}

typedef struct fh_pair {
  uint64_t first, second;
} fh_pair;

/* Weak 32-byte hash of the four words at s, with seeds a and b. */
static fh_pair fh_weak32(const char* s, uint64_t a, uint64_t b) {
  uint64_t w = load64(s), x = load64(s + 8), y = load64(s + 16),
           z = load64(s + 24), c;
  fh_pair r;
  a += w;
  b = rotr64(b + a + z, 21);
  c = a;
  a += x;
  a += y;
  b += rotr64(a, 44);
  r.first = a + z;
  r.second = b + c;
  return r;
}

uint64_t tfe_farmhash_fingerprint64(const char* s, size_t len) {
  const uint64_t seed = 81;
  uint64_t x, y, z, mul, t;
  fh_pair v = {0, 0}, w = {0, 0};
  const char* end;
  const char* last64;
  if (len <= 16) return fh_len0to16(s, len);
  if (len <= 32) return fh_len17to32(s, len);
  if (len <= 64) return fh_len33to64(s, len);
  /* Over 64 bytes: 64-byte blocks through a 56-byte state, then the last
   * 64 bytes (which may overlap the previous block). */
  x = seed;
  y = seed * FH_K1 + 113;
  z = fh_shift_mix(y * FH_K2 + 113) * FH_K2;
  x = x * FH_K2 + load64(s);
  end = s + ((len - 1) / 64) * 64;
  last64 = end + ((len - 1) & 63) - 63;
  do {
    x = rotr64(x + y + v.first + load64(s + 8), 37) * FH_K1;
    y = rotr64(y + v.second + load64(s + 48), 42) * FH_K1;
    x ^= w.second;
    y += v.first + load64(s + 40);
    z = rotr64(z + w.first, 33) * FH_K1;
    v = fh_weak32(s, v.second * FH_K1, x + w.first);
    w = fh_weak32(s + 32, z + w.second, y + load64(s + 16));
    t = z;
    z = x;
    x = t;
    s += 64;
  } while (s != end);
  mul = FH_K1 + ((z & 0xff) << 1);
  s = last64;
  w.first += ((len - 1) & 63);
  v.first += w.first;
  w.first += v.first;
  x = rotr64(x + y + v.first + load64(s + 8), 37) * mul;
  y = rotr64(y + v.second + load64(s + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + load64(s + 40);
  z = rotr64(z + w.first, 33) * mul;
  v = fh_weak32(s, v.second * mul, x + w.first);
  w = fh_weak32(s + 32, z + w.second, y + load64(s + 16));
  t = z;
  z = x;
  x = t;
  return fh_mix16(fh_mix16(v.first, w.first, mul) + fh_shift_mix(y) * FH_K0 +
                      z,
                  fh_mix16(v.second, w.second, mul) + x, mul);
}

/* ---- SipHash-2-4 ---- */

#define SIP_ROUND(v0, v1, v2, v3) \
  do {                            \
    v0 += v1;                     \
    v1 = rotl64(v1, 13);          \
    v1 ^= v0;                     \
    v0 = rotl64(v0, 32);          \
    v2 += v3;                     \
    v3 = rotl64(v3, 16);          \
    v3 ^= v2;                     \
    v0 += v3;                     \
    v3 = rotl64(v3, 21);          \
    v3 ^= v0;                     \
    v2 += v1;                     \
    v1 = rotl64(v1, 17);          \
    v1 ^= v2;                     \
    v2 = rotl64(v2, 32);          \
  } while (0)

uint64_t tfe_siphash24(uint64_t k0, uint64_t k1, const char* s, size_t len) {
  uint64_t v0 = k0 ^ 0x736f6d6570736575ULL;
  uint64_t v1 = k1 ^ 0x646f72616e646f6dULL;
  uint64_t v2 = k0 ^ 0x6c7967656e657261ULL;
  uint64_t v3 = k1 ^ 0x7465646279746573ULL;
  uint64_t m;
  size_t i, full = len & ~(size_t)7;
  unsigned char tail[8];
  for (i = 0; i < full; i += 8) {
    m = load64(s + i);
    v3 ^= m;
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    v0 ^= m;
  }
  /* The last word: the remaining bytes, the length's low byte on top. */
  memset(tail, 0, sizeof tail);
  if (len > full) memcpy(tail, s + full, len - full);
  tail[7] = (unsigned char)(len & 0xff);
  m = load64((const char*)tail);
  v3 ^= m;
  SIP_ROUND(v0, v1, v2, v3);
  SIP_ROUND(v0, v1, v2, v3);
  v0 ^= m;
  v2 ^= 0xff;
  SIP_ROUND(v0, v1, v2, v3);
  SIP_ROUND(v0, v1, v2, v3);
  SIP_ROUND(v0, v1, v2, v3);
  SIP_ROUND(v0, v1, v2, v3);
  return v0 ^ v1 ^ v2 ^ v3;
}

/* ---- TF's legacy Hash64 (MurmurHash64A, seed 0xDECAFCAFFE) ---- */

uint64_t tfe_tf_legacy_hash64(const char* s, size_t len) {
  const uint64_t m = 0xc6a4a7935bd1e995ULL;
  const int r = 47;
  uint64_t h = 0xDECAFCAFFEULL ^ ((uint64_t)len * m);
  size_t n = len;
  const unsigned char* p;
  while (n >= 8) {
    uint64_t k = load64(s);
    s += 8;
    n -= 8;
    k *= m;
    k ^= k >> r;
    k *= m;
    h ^= k;
    h *= m;
  }
  p = (const unsigned char*)s;
  if (n > 0) {
    /* The 1..7 remaining bytes as one little-endian word. */
    uint64_t k = 0;
    size_t i;
    for (i = n; i > 0; i--) k = (k << 8) | p[i - 1];
    h ^= k;
    h *= m;
  }
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return h;
}
