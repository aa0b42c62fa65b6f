/* The core's one protocol-buffer wire-format writer and reader, enough for
 * the messages the C API exchanges (OpDef/OpList, KernelDef/KernelList,
 * NodeDef, AttrValue, TensorProto, ConfigProto, ResourceHandleProto) and
 * for a schema-free well-formedness check. Header-only: every function is
 * static inline.
 *
 * Writer: a growable byte buffer; the first allocation failure sets `oom`
 * and later writes do nothing, so callers check once at the end.
 * Reader: a cursor over [p, end); every read returns 0 on malformed input. */
#ifndef TFE_CORE_PB_H_
#define TFE_CORE_PB_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"

typedef struct tfe_pbw {
  unsigned char* data;
  size_t len, cap;
  int oom;
} tfe_pbw;

static inline void tfe_pbw_reserve(tfe_pbw* b, size_t extra) {
  size_t cap;
  unsigned char* p;
  if (b->oom || b->len + extra <= b->cap) return;
  cap = b->cap ? b->cap * 2 : 64;
  while (cap < b->len + extra) cap *= 2;
  p = (unsigned char*)tfe_realloc(b->data, cap);
  if (p == NULL) {
    b->oom = 1;
    return;
  }
  b->data = p;
  b->cap = cap;
}

static inline void tfe_pbw_bytes(tfe_pbw* b, const void* p, size_t n) {
  if (n == 0) return;
  tfe_pbw_reserve(b, n);
  if (b->oom) return;
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

static inline void tfe_pbw_varint(tfe_pbw* b, uint64_t v) {
  unsigned char tmp[10];
  size_t n = 0;
  do {
    unsigned char c = (unsigned char)(v & 0x7f);
    v >>= 7;
    if (v) c |= 0x80;
    tmp[n++] = c;
  } while (v);
  tfe_pbw_bytes(b, tmp, n);
}

static inline void tfe_pbw_tag(tfe_pbw* b, int field, int wire) {
  tfe_pbw_varint(b, ((uint64_t)field << 3) | (uint64_t)wire);
}

/* varint field (ints, enums, bools) */
static inline void tfe_pbw_uint(tfe_pbw* b, int field, uint64_t v) {
  tfe_pbw_tag(b, field, 0);
  tfe_pbw_varint(b, v);
}

static inline void tfe_pbw_lenfield(tfe_pbw* b, int field, const void* p,
                                    size_t n) {
  tfe_pbw_tag(b, field, 2);
  tfe_pbw_varint(b, n);
  tfe_pbw_bytes(b, p, n);
}

static inline void tfe_pbw_str(tfe_pbw* b, int field, const char* s) {
  tfe_pbw_lenfield(b, field, s ? s : "", s ? strlen(s) : 0);
}

/* A float's four little-endian bytes, without a tag (packed lists). */
static inline void tfe_pbw_fixed32(tfe_pbw* b, float f) {
  uint32_t u;
  unsigned char c[4];
  memcpy(&u, &f, 4);
  c[0] = (unsigned char)u;
  c[1] = (unsigned char)(u >> 8);
  c[2] = (unsigned char)(u >> 16);
  c[3] = (unsigned char)(u >> 24);
  tfe_pbw_bytes(b, c, 4);
}

static inline void tfe_pbw_float(tfe_pbw* b, int field, float f) {
  tfe_pbw_tag(b, field, 5);
  tfe_pbw_fixed32(b, f);
}

/* Appends sub as a length-delimited field and releases it. */
static inline void tfe_pbw_sub(tfe_pbw* b, int field, tfe_pbw* sub) {
  if (sub->oom) b->oom = 1;
  tfe_pbw_lenfield(b, field, sub->data, sub->len);
  tfe_free(sub->data);
  memset(sub, 0, sizeof(*sub));
}

static inline void tfe_pbw_free(tfe_pbw* b) {
  tfe_free(b->data);
  memset(b, 0, sizeof(*b));
}

typedef struct tfe_pbr {
  const unsigned char* p;
  const unsigned char* end;
} tfe_pbr;

/* A varint of at most 64 bits (ten bytes, the last one 0 or 1). */
static inline int tfe_pbr_varint(tfe_pbr* r, uint64_t* out) {
  uint64_t v = 0;
  int i;
  for (i = 0; i < 10 && r->p < r->end; i++) {
    unsigned char c = *r->p++;
    if (i == 9 && c > 1) return 0;
    v |= (uint64_t)(c & 0x7f) << (7 * i);
    if (!(c & 0x80)) {
      *out = v;
      return 1;
    }
  }
  return 0;
}

/* A field tag: field numbers are 1 .. 2^29-1, tags fit 32 bits. */
static inline int tfe_pbr_tag(tfe_pbr* r, int* field, int* wire) {
  uint64_t t;
  if (!tfe_pbr_varint(r, &t) || (t >> 32) != 0 || (t >> 3) == 0) return 0;
  *field = (int)(t >> 3);
  *wire = (int)(t & 7);
  return 1;
}

/* Reads a length-delimited payload into sub. */
static inline int tfe_pbr_len(tfe_pbr* r, tfe_pbr* sub) {
  uint64_t n;
  if (!tfe_pbr_varint(r, &n) || n > (uint64_t)(r->end - r->p)) return 0;
  sub->p = r->p;
  sub->end = r->p + n;
  r->p += n;
  return 1;
}

/* A float stored as four little-endian bytes (wire type 5). */
static inline int tfe_pbr_fixed32(tfe_pbr* r, float* f) {
  uint32_t u;
  if (r->end - r->p < 4) return 0;
  u = (uint32_t)r->p[0] | ((uint32_t)r->p[1] << 8) |
      ((uint32_t)r->p[2] << 16) | ((uint32_t)r->p[3] << 24);
  memcpy(f, &u, 4);
  r->p += 4;
  return 1;
}

/* Groups nest at most this deep (deeper input is rejected, not recursed). */
#define TFE_PB_MAX_GROUP_DEPTH 64

static inline int tfe_pbr_skip_at(tfe_pbr* r, int field, int wire,
                                  int depth);

/* Skips the fields of a group up to its end tag for `field`. */
static inline int tfe_pbr_skip_group(tfe_pbr* r, int field, int depth) {
  int f, w;
  if (depth >= TFE_PB_MAX_GROUP_DEPTH) return 0;
  for (;;) {
    if (!tfe_pbr_tag(r, &f, &w)) return 0;
    if (w == 4) return f == field;
    if (!tfe_pbr_skip_at(r, f, w, depth + 1)) return 0;
  }
}

static inline int tfe_pbr_skip_at(tfe_pbr* r, int field, int wire,
                                  int depth) {
  uint64_t v;
  tfe_pbr sub;
  switch (wire) {
    case 0:
      return tfe_pbr_varint(r, &v);
    case 1:
      if (r->end - r->p < 8) return 0;
      r->p += 8;
      return 1;
    case 2:
      return tfe_pbr_len(r, &sub);
    case 3:
      return tfe_pbr_skip_group(r, field, depth);
    case 5:
      if (r->end - r->p < 4) return 0;
      r->p += 4;
      return 1;
    default: /* 4 (an end tag without its start), 6, 7 */
      return 0;
  }
}

/* Skips the value of field `field` read with wire type `wire` (a group
 * is skipped up to its matching end tag). 0 on malformed input. */
static inline int tfe_pbr_skip(tfe_pbr* r, int field, int wire) {
  return tfe_pbr_skip_at(r, field, wire, 0);
}

/* 1 when [data, data+len) is a well-formed message of any schema. */
static inline int tfe_pb_well_formed(const void* data, size_t len) {
  tfe_pbr r;
  int f, w;
  if (len == 0) return 1;
  /* No buffer is that long: data + len would wrap around. */
  if (data == NULL || len > (size_t)PTRDIFF_MAX) return 0;
  r.p = (const unsigned char*)data;
  r.end = r.p + len;
  while (r.p < r.end) {
    if (!tfe_pbr_tag(&r, &f, &w) || !tfe_pbr_skip(&r, f, w)) return 0;
  }
  return 1;
}

#endif /* TFE_CORE_PB_H_ */
