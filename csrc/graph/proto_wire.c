/* A schema-free check that bytes are a well-formed protobuf message. */
#include <stdint.h>

#include "graph/graph_internal.h"

#define MAX_DEPTH 64

typedef struct wire {
  const unsigned char* p;
  const unsigned char* end;
} wire;

static int varint(wire* w, uint64_t* out) {
  uint64_t v = 0;
  int i;
  for (i = 0; i < 10; i++) {
    unsigned char b;
    if (w->p >= w->end) return 0;
    b = *w->p++;
    if (i == 9 && b > 1) return 0; /* more than 64 bits */
    v |= (uint64_t)(b & 0x7f) << (7 * i);
    if ((b & 0x80) == 0) {
      *out = v;
      return 1;
    }
  }
  return 0;
}

static int skip(wire* w, size_t n) {
  if ((size_t)(w->end - w->p) < n) return 0;
  w->p += n;
  return 1;
}

/* Reads fields until the data ends (end_group == 0) or until the end-group
 * tag of field `end_group` (then returns 1 only if it was found). */
static int fields(wire* w, uint32_t end_group, int depth) {
  while (w->p < w->end) {
    uint64_t tag, v;
    uint32_t field;
    if (!varint(w, &tag) || (tag >> 32) != 0) return 0;
    field = (uint32_t)(tag >> 3);
    if (field == 0) return 0;
    switch ((int)(tag & 7)) {
      case 0:
        if (!varint(w, &v)) return 0;
        break;
      case 1:
        if (!skip(w, 8)) return 0;
        break;
      case 2:
        if (!varint(w, &v) || v > (uint64_t)(w->end - w->p)) return 0;
        w->p += (size_t)v;
        break;
      case 3:
        if (depth >= MAX_DEPTH || !fields(w, field, depth + 1)) return 0;
        break;
      case 4:
        return end_group != 0 && field == end_group;
      case 5:
        if (!skip(w, 4)) return 0;
        break;
      default:
        return 0;
    }
  }
  return end_group == 0;
}

int tfe_proto_wire_valid(const void* data, size_t len) {
  wire w;
  if (len == 0) return 1;
  if (data == NULL) return 0;
  w.p = (const unsigned char*)data;
  w.end = w.p + len;
  return fields(&w, 0, 0);
}
