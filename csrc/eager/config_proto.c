/* A small reader for serialized tensorflow.ConfigProto messages.
 *
 * Only the fields that shape an eager context are read:
 *   field 1  device_count: map<string, int32> (entries: key = 1, value = 2)
 *   field 2  intra_op_parallelism_threads: int32
 *   field 5  inter_op_parallelism_threads: int32
 * Every other field is skipped according to its wire type. Anything that is
 * not well-formed protobuf (truncated varints or lengths, field number 0,
 * unknown wire types, unbalanced groups) is INVALID_ARGUMENT. */
#include <stdint.h>
#include <string.h>

#include "core/status_internal.h"
#include "eager/eager_internal.h"

#define MAX_GROUP_DEPTH 64

typedef struct reader {
  const unsigned char* p;
  const unsigned char* end;
} reader;

static int read_varint(reader* r, uint64_t* out) {
  uint64_t v = 0;
  int shift = 0;
  while (r->p < r->end) {
    unsigned char b = *r->p++;
    if (shift == 63 && (b & 0x7e) != 0) return 0; /* overflows 64 bits */
    v |= (uint64_t)(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *out = v;
      return 1;
    }
    shift += 7;
    if (shift > 63) return 0;
  }
  return 0;
}

static int read_tag(reader* r, uint32_t* field, int* wire) {
  uint64_t tag;
  if (!read_varint(r, &tag)) return 0;
  if (tag >> 32) return 0;
  *field = (uint32_t)(tag >> 3);
  *wire = (int)(tag & 7);
  return *field != 0;
}

static int read_len(reader* r, reader* sub) {
  uint64_t n;
  if (!read_varint(r, &n)) return 0;
  if (n > (uint64_t)(r->end - r->p)) return 0;
  sub->p = r->p;
  sub->end = r->p + n;
  r->p += n;
  return 1;
}

/* Skips a field's value of wire type `wire` (`field` is needed to match
 * the end of a group). */
static int skip_value(reader* r, uint32_t field, int wire, int depth) {
  uint64_t v;
  reader sub;
  switch (wire) {
    case 0:
      return read_varint(r, &v);
    case 1:
      if (r->end - r->p < 8) return 0;
      r->p += 8;
      return 1;
    case 2:
      return read_len(r, &sub);
    case 5:
      if (r->end - r->p < 4) return 0;
      r->p += 4;
      return 1;
    case 3: { /* start group: skip fields until the matching end group */
      if (depth >= MAX_GROUP_DEPTH) return 0;
      for (;;) {
        uint32_t f;
        int w;
        if (!read_tag(r, &f, &w)) return 0;
        if (w == 4) return f == field;
        if (!skip_value(r, f, w, depth + 1)) return 0;
      }
    }
    default: /* 4 (an unmatched end group), 6, 7 */
      return 0;
  }
}

/* One device_count map entry. */
static int read_device_count(reader* r, int* cpu_count) {
  char key[64];
  size_t key_len = 0;
  int has_key = 0;
  uint64_t value = 0;
  while (r->p < r->end) {
    uint32_t f;
    int w;
    if (!read_tag(r, &f, &w)) return 0;
    if (f == 1 && w == 2) {
      reader s;
      if (!read_len(r, &s)) return 0;
      key_len = (size_t)(s.end - s.p);
      if (key_len < sizeof(key)) {
        memcpy(key, s.p, key_len);
        key[key_len] = '\0';
        has_key = 1;
      } else {
        has_key = 0; /* a long key is not "CPU" */
      }
    } else if (f == 2 && w == 0) {
      if (!read_varint(r, &value)) return 0;
    } else if (!skip_value(r, f, w, 0)) {
      return 0;
    }
  }
  if (has_key && strcmp(key, "CPU") == 0) {
    int32_t n = (int32_t)(uint32_t)value;
    *cpu_count = n < 0 ? 0 : n;
  }
  return 1;
}

int tfe_config_proto_parse(const void* data, size_t len,
                           TFE_ContextOptions* opts, TF_Status* s) {
  reader r;
  int cpu_count = opts->cpu_count;
  int intra = opts->intra_op_threads, inter = opts->inter_op_threads;
  r.p = (const unsigned char*)data;
  r.end = r.p + (data == NULL ? 0 : len);
  while (r.p < r.end) {
    uint32_t f;
    int w;
    uint64_t v;
    if (!read_tag(&r, &f, &w)) goto bad;
    if (f == 1 && w == 2) {
      reader sub;
      if (!read_len(&r, &sub) || !read_device_count(&sub, &cpu_count)) {
        goto bad;
      }
    } else if ((f == 2 || f == 5) && w == 0) {
      int32_t n;
      if (!read_varint(&r, &v)) goto bad;
      n = (int32_t)(uint32_t)v;
      if (f == 2) {
        intra = n;
      } else {
        inter = n;
      }
    } else if (!skip_value(&r, f, w, 0)) {
      goto bad;
    }
  }
  opts->cpu_count = cpu_count;
  opts->intra_op_threads = intra;
  opts->inter_op_threads = inter;
  tfe_status_ok(s);
  return 1;

bad:
  tfe_status_setf(s, TF_INVALID_ARGUMENT, "Unparseable ConfigProto");
  return 0;
}
