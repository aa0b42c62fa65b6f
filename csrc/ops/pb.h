/* A tiny protocol-buffer wire-format writer and reader, enough for the
 * messages the plugin APIs exchange (OpDef/OpList, KernelDef/KernelList,
 * NodeDef, AttrValue, ResourceHandleProto). Header-only: every function is
 * static inline.
 *
 * Writer: a growable byte buffer; the first allocation failure sets `oom`
 * and later writes do nothing, so callers check once at the end.
 * Reader: a cursor over [p, end); every read returns 0 on malformed input. */
#ifndef TFE_OPS_PB_H_
#define TFE_OPS_PB_H_

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

static inline void tfe_pbw_float(tfe_pbw* b, int field, float f) {
  uint32_t u;
  unsigned char c[4];
  memcpy(&u, &f, 4);
  c[0] = (unsigned char)u;
  c[1] = (unsigned char)(u >> 8);
  c[2] = (unsigned char)(u >> 16);
  c[3] = (unsigned char)(u >> 24);
  tfe_pbw_tag(b, field, 5);
  tfe_pbw_bytes(b, c, 4);
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

static inline int tfe_pbr_varint(tfe_pbr* r, uint64_t* out) {
  uint64_t v = 0;
  int shift = 0;
  while (r->p < r->end && shift < 64) {
    unsigned char c = *r->p++;
    v |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) {
      *out = v;
      return 1;
    }
    shift += 7;
  }
  return 0;
}

static inline int tfe_pbr_tag(tfe_pbr* r, int* field, int* wire) {
  uint64_t t;
  if (!tfe_pbr_varint(r, &t)) return 0;
  *field = (int)(t >> 3);
  *wire = (int)(t & 7);
  return *field > 0;
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

static inline int tfe_pbr_skip(tfe_pbr* r, int wire) {
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
    case 5:
      if (r->end - r->p < 4) return 0;
      r->p += 4;
      return 1;
    default:
      return 0;
  }
}

#endif /* TFE_OPS_PB_H_ */
