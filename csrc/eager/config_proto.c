/* A small reader for serialized tensorflow.ConfigProto messages.
 *
 * Only the fields that shape an eager context are read:
 *   field 1  device_count: map<string, int32> (entries: key = 1, value = 2)
 *   field 2  intra_op_parallelism_threads: int32
 *   field 5  inter_op_parallelism_threads: int32
 *   field 7  allow_soft_placement: bool (the context's soft placement)
 * Every other field is skipped according to its wire type. Anything that is
 * not well-formed protobuf (truncated varints or lengths, field number 0,
 * unknown wire types, unbalanced groups) is INVALID_ARGUMENT. */
#include <stdint.h>
#include <string.h>

#include "core/pb.h"
#include "core/status_internal.h"
#include "eager/eager_internal.h"

/* One device_count map entry. */
static int read_device_count(tfe_pbr* r, int* cpu_count) {
  char key[64];
  size_t key_len = 0;
  int has_key = 0;
  uint64_t value = 0;
  while (r->p < r->end) {
    int f;
    int w;
    if (!tfe_pbr_tag(r, &f, &w)) return 0;
    if (f == 1 && w == 2) {
      tfe_pbr s;
      if (!tfe_pbr_len(r, &s)) return 0;
      key_len = (size_t)(s.end - s.p);
      if (key_len < sizeof(key)) {
        memcpy(key, s.p, key_len);
        key[key_len] = '\0';
        has_key = 1;
      } else {
        has_key = 0; /* a long key is not "CPU" */
      }
    } else if (f == 2 && w == 0) {
      if (!tfe_pbr_varint(r, &value)) return 0;
    } else if (!tfe_pbr_skip(r, f, w)) {
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
  tfe_pbr r;
  int cpu_count = opts->cpu_count;
  int intra = opts->intra_op_threads, inter = opts->inter_op_threads;
  int soft = opts->soft_placement;
  r.p = (const unsigned char*)data;
  /* No arithmetic on a NULL pointer (UB even when adding 0). */
  r.end = data == NULL ? r.p : r.p + len;
  while (r.p < r.end) {
    int f;
    int w;
    uint64_t v;
    if (!tfe_pbr_tag(&r, &f, &w)) goto bad;
    if (f == 1 && w == 2) {
      tfe_pbr sub;
      if (!tfe_pbr_len(&r, &sub) || !read_device_count(&sub, &cpu_count)) {
        goto bad;
      }
    } else if ((f == 2 || f == 5) && w == 0) {
      int32_t n;
      if (!tfe_pbr_varint(&r, &v)) goto bad;
      n = (int32_t)(uint32_t)v;
      if (f == 2) {
        intra = n;
      } else {
        inter = n;
      }
    } else if (f == 7 && w == 0) {
      if (!tfe_pbr_varint(&r, &v)) goto bad;
      soft = v != 0;
    } else if (!tfe_pbr_skip(&r, f, w)) {
      goto bad;
    }
  }
  opts->soft_placement = soft;
  opts->cpu_count = cpu_count;
  opts->intra_op_threads = intra;
  opts->inter_op_threads = inter;
  tfe_status_ok(s);
  return 1;

bad:
  tfe_status_setf(s, TF_INVALID_ARGUMENT, "Unparseable ConfigProto");
  return 0;
}
