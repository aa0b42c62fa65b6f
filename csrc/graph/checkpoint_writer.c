/* Writing TensorFlow V2 checkpoints ("tensor bundles"), as SaveV2 and
 * MergeV2Checkpoints do (see checkpoint_ops.h).
 *
 * A bundle with prefix P is P.data-00000-of-00001, the tensors' bytes back
 * to back (no padding: TF's writers use an alignment of 1), and P.index, a
 * sorted table (checkpoint_table.c) whose first entry, key "", is a
 * BundleHeaderProto {num_shards, endianness, version {producer 1}} and
 * whose other entries map keys to BundleEntryProto {dtype, shape,
 * shard_id, offset, size, crc32c, slices}. Numeric tensors are their raw
 * little-endian bytes; a string tensor is a varint64 length per element,
 * the masked CRC-32C of the lengths (each as a little-endian uint32, or
 * uint64 when it does not fit), then the bytes; the entry's crc32c (masked)
 * covers the data as written (for strings: the lengths as checksummed, the
 * length checksum and the bytes). A slice of a partitioned tensor is
 * stored under its ordered-code key, and the tensor's own key holds an
 * entry with the full shape and the list of slices but no data.
 *
 * Files are written through the filesystem registry: the data to a
 * temporary name renamed into place when done, the index last (so a
 * reader never sees an index without its data). The same tensors always
 * give the same bytes, equal to what TensorFlow 2.21 writes. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "fs/fs.h"
#include "graph/checkpoint_ops.h"
#include "graph/checkpoint_table.h"
#include "tensorflow/c/env.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe/tfe.h"

/* ------------------------------------------------------------------------
 * Small helpers. */

char* tfe_ckpt_data_filename(const char* prefix, int shard, int num_shards) {
  size_t n = strlen(prefix) + 48;
  char* s = (char*)tfe_malloc(n);
  if (s != NULL) snprintf(s, n, "%s.data-%05d-of-%05d", prefix, shard, num_shards);
  return s;
}

char* tfe_ckpt_index_filename(const char* prefix) {
  size_t n = strlen(prefix);
  char* s = (char*)tfe_malloc(n + 7);
  if (s != NULL) {
    memcpy(s, prefix, n);
    memcpy(s + n, ".index", 7);
  }
  return s;
}

char* tfe_ckpt_dirname(const char* path) {
  const char* rest = path;
  const char* sep = strstr(path, "://");
  const char* last;
  size_t keep;
  char* out;
  if (sep != NULL) {
    const char* host_end;
    rest = sep + 3;
    host_end = strchr(rest, '/');
    if (host_end == NULL) return tfe_strdup(path); /* "scheme://host" */
    rest = host_end;
  }
  last = strrchr(rest, '/');
  if (last == NULL) {
    keep = (size_t)(rest - path);
  } else if (last == rest) {
    keep = (size_t)(rest - path) + 1; /* the root */
  } else {
    keep = (size_t)(last - path);
  }
  out = (char*)tfe_malloc(keep + 1);
  if (out != NULL) {
    memcpy(out, path, keep);
    out[keep] = '\0';
  }
  return out;
}

char* tfe_ckpt_temp_name(const char* path) {
  static _Atomic uint64_t counter;
  struct timespec ts;
  uint64_t z;
  size_t n = strlen(path) + 40;
  char* s = (char*)tfe_malloc(n);
  if (s == NULL) return NULL;
  clock_gettime(CLOCK_REALTIME, &ts);
  z = ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^
      (atomic_fetch_add(&counter, 1) * 0x9E3779B97F4A7C15ull) ^
      ((uint64_t)(uintptr_t)s << 7);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  snprintf(s, n, "%s.tempstate%llu", path, (unsigned long long)z);
  return s;
}

unsigned char* tfe_ckpt_read_file(const char* path, size_t* len,
                                  TF_Status* status) {
  int64_t size = tfe_fs_file_size(path, status);
  tfe_raf* f;
  unsigned char* buf;
  *len = 0;
  if (size < 0) return NULL;
  if ((uint64_t)size > (uint64_t)SIZE_MAX / 2) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "'%s' is too large", path);
    return NULL;
  }
  buf = (unsigned char*)tfe_malloc((size_t)size + 1);
  if (buf == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory reading '%s'", path);
    return NULL;
  }
  f = tfe_fs_open_raf(path, status);
  if (f == NULL) {
    tfe_free(buf);
    return NULL;
  }
  if (size > 0 &&
      tfe_fs_raf_read(f, 0, (size_t)size, (char*)buf, status) != size) {
    if (TF_GetCode(status) == TF_OK)
      tfe_status_setf(status, TF_DATA_LOSS, "short read of '%s'", path);
    tfe_fs_raf_release(f);
    tfe_free(buf);
    return NULL;
  }
  tfe_fs_raf_release(f);
  tfe_status_ok(status);
  *len = (size_t)size;
  return buf;
}

int tfe_ckpt_write_file(const char* path, const void* data, size_t len,
                        TF_Status* status) {
  TF_WritableFileHandle* h = tfe_fs_open_writable(path, false, status);
  if (h == NULL) return 0;
  if (len > 0) {
    if (h->fs->wf_ops.append == NULL) {
      tfe_fs_unimplemented(h->fs, "append", path, status);
      tfe_fs_writable_release(h, false, NULL);
      return 0;
    }
    h->fs->wf_ops.append(&h->file, (const char*)data, len, status);
    if (TF_GetCode(status) != TF_OK) {
      TF_Status scratch;
      tfe_scratch_init(&scratch);
      tfe_fs_writable_release(h, true, &scratch);
      tfe_scratch_release(&scratch);
      return 0;
    }
  }
  tfe_fs_writable_release(h, true, status);
  return TF_GetCode(status) == TF_OK;
}

void tfe_ckpt_status_string(const TF_Status* s, tfe_pbw* b) {
  const char* name;
  if (TF_GetCode(s) == TF_OK) {
    tfe_pbw_bytes(b, "OK", 2);
    return;
  }
  name = TFE_CodeName(TF_GetCode(s));
  tfe_pbw_bytes(b, name, strlen(name));
  tfe_pbw_bytes(b, ": ", 2);
  tfe_pbw_bytes(b, TF_Message(s), strlen(TF_Message(s)));
}

/* ------------------------------------------------------------------------
 * BundleEntryProto. */

void tfe_bundle_entry_clear(tfe_bundle_entry* e) {
  tfe_free(e->dims);
  tfe_pbw_free(&e->slices);
  memset(e, 0, sizeof(*e));
}

void tfe_bundle_entry_add_slice(tfe_bundle_entry* e, const unsigned char* p,
                                size_t n) {
  tfe_pbw_varint(&e->slices, n);
  tfe_pbw_bytes(&e->slices, p, n);
  e->num_slices++;
}

int tfe_bundle_entry_slice(const tfe_bundle_entry* e, int i,
                           const unsigned char** p, size_t* n) {
  tfe_pbr r;
  int k;
  r.p = e->slices.data;
  r.end = e->slices.data + e->slices.len;
  for (k = 0; k <= i; k++) {
    tfe_pbr sub;
    if (!tfe_pbr_len(&r, &sub)) return 0;
    if (k == i) {
      *p = sub.p;
      *n = (size_t)(sub.end - sub.p);
      return 1;
    }
  }
  return 0;
}

static int parse_shape(tfe_pbr* r, tfe_bundle_entry* e) {
  int field, wire;
  size_t cap = 0;
  tfe_free(e->dims);
  e->dims = NULL;
  e->rank = 0;
  e->shape_unknown_rank = 0;
  while (r->p < r->end) {
    if (!tfe_pbr_tag(r, &field, &wire)) return 0;
    if (field == 2 && wire == 2) {
      tfe_pbr dim;
      int64_t size = 0;
      if (!tfe_pbr_len(r, &dim)) return 0;
      while (dim.p < dim.end) {
        int f, w;
        uint64_t v;
        if (!tfe_pbr_tag(&dim, &f, &w)) return 0;
        if (f == 1 && w == 0) {
          if (!tfe_pbr_varint(&dim, &v)) return 0;
          size = (int64_t)v;
        } else if (!tfe_pbr_skip(&dim, f, w)) {
          return 0;
        }
      }
      if ((size_t)e->rank == cap) {
        size_t nc = cap ? cap * 2 : 4;
        int64_t* d;
        if (nc > 1024) return 0;
        d = (int64_t*)tfe_realloc(e->dims, nc * sizeof(int64_t));
        if (d == NULL) return -1;
        e->dims = d;
        cap = nc;
      }
      e->dims[e->rank++] = size;
    } else if (field == 3 && wire == 0) {
      uint64_t v;
      if (!tfe_pbr_varint(r, &v)) return 0;
      e->shape_unknown_rank = v != 0;
    } else if (!tfe_pbr_skip(r, field, wire)) {
      return 0;
    }
  }
  return 1;
}

int tfe_bundle_entry_parse(const unsigned char* p, size_t n,
                           tfe_bundle_entry* e) {
  tfe_pbr r;
  int field, wire;
  memset(e, 0, sizeof(*e));
  r.p = p;
  r.end = p + n;
  while (r.p < r.end) {
    uint64_t v;
    if (!tfe_pbr_tag(&r, &field, &wire)) goto bad;
    if (wire == 0 && field >= 1 && field <= 5 && field != 2) {
      if (!tfe_pbr_varint(&r, &v)) goto bad;
      if (field == 1) e->dtype = (int)(int32_t)v;
      if (field == 3) e->shard_id = (int32_t)v;
      if (field == 4) e->offset = (int64_t)v;
      if (field == 5) e->size = (int64_t)v;
    } else if (field == 2 && wire == 2) {
      tfe_pbr sub;
      int rc;
      if (!tfe_pbr_len(&r, &sub)) goto bad;
      e->has_shape = 1;
      rc = parse_shape(&sub, e);
      if (rc != 1) {
        tfe_bundle_entry_clear(e);
        return rc;
      }
    } else if (field == 6 && wire == 5) {
      if (r.end - r.p < 4) goto bad;
      e->crc32c = (uint32_t)r.p[0] | ((uint32_t)r.p[1] << 8) |
                  ((uint32_t)r.p[2] << 16) | ((uint32_t)r.p[3] << 24);
      r.p += 4;
    } else if (field == 7 && wire == 2) {
      tfe_pbr sub;
      if (!tfe_pbr_len(&r, &sub)) goto bad;
      tfe_bundle_entry_add_slice(e, sub.p, (size_t)(sub.end - sub.p));
    } else if (!tfe_pbr_skip(&r, field, wire)) {
      goto bad;
    }
  }
  if (e->slices.oom) {
    tfe_bundle_entry_clear(e);
    return -1;
  }
  return 1;
bad:
  tfe_bundle_entry_clear(e);
  return 0;
}

static void shape_proto(const int64_t* dims, int rank, int unknown_rank,
                        tfe_pbw* b) {
  int d;
  for (d = 0; d < rank; d++) {
    tfe_pbw dim = {0};
    if (dims[d] != 0) tfe_pbw_uint(&dim, 1, (uint64_t)dims[d]);
    tfe_pbw_sub(b, 2, &dim);
  }
  if (unknown_rank) tfe_pbw_uint(b, 3, 1);
}

void tfe_bundle_entry_serialize(const tfe_bundle_entry* e, tfe_pbw* b) {
  int i;
  if (e->dtype != 0) tfe_pbw_uint(b, 1, (uint64_t)(int64_t)e->dtype);
  if (e->has_shape) {
    tfe_pbw sh = {0};
    shape_proto(e->dims, e->rank, e->shape_unknown_rank, &sh);
    tfe_pbw_sub(b, 2, &sh);
  }
  if (e->shard_id != 0) tfe_pbw_uint(b, 3, (uint64_t)(int64_t)e->shard_id);
  if (e->offset != 0) tfe_pbw_uint(b, 4, (uint64_t)e->offset);
  if (e->size != 0) tfe_pbw_uint(b, 5, (uint64_t)e->size);
  if (e->crc32c != 0) {
    unsigned char c[4];
    c[0] = (unsigned char)e->crc32c;
    c[1] = (unsigned char)(e->crc32c >> 8);
    c[2] = (unsigned char)(e->crc32c >> 16);
    c[3] = (unsigned char)(e->crc32c >> 24);
    tfe_pbw_tag(b, 6, 5);
    tfe_pbw_bytes(b, c, 4);
  }
  for (i = 0; i < e->num_slices; i++) {
    const unsigned char* p;
    size_t n;
    if (tfe_bundle_entry_slice(e, i, &p, &n)) tfe_pbw_lenfield(b, 7, p, n);
  }
}

/* ------------------------------------------------------------------------
 * Entry sets: the writer's and the merge's key -> entry maps. Kept as an
 * array plus an open-addressing hash index for duplicate checks; sorted
 * once when the index is written. */

typedef struct {
  char* key;
  size_t key_len;
  tfe_bundle_entry e;
} wentry;

typedef struct {
  wentry* items;
  size_t count, cap;
  size_t* slots; /* index + 1, 0 empty */
  size_t nslots;
} entry_set;

static uint64_t key_hash(const char* k, size_t n) {
  uint64_t h = 1469598103934665603ull;
  size_t i;
  for (i = 0; i < n; i++) {
    h ^= (unsigned char)k[i];
    h *= 1099511628211ull;
  }
  return h;
}

static void entry_set_free(entry_set* s) {
  size_t i;
  for (i = 0; i < s->count; i++) {
    tfe_free(s->items[i].key);
    tfe_bundle_entry_clear(&s->items[i].e);
  }
  tfe_free(s->items);
  tfe_free(s->slots);
  memset(s, 0, sizeof(*s));
}

/* The entry for `key`, or NULL. */
static wentry* entry_set_find(entry_set* s, const char* key, size_t n) {
  size_t i;
  if (s->nslots == 0) return NULL;
  i = (size_t)(key_hash(key, n) & (s->nslots - 1));
  while (s->slots[i] != 0) {
    wentry* w = &s->items[s->slots[i] - 1];
    if (w->key_len == n && memcmp(w->key, key, n) == 0) return w;
    i = (i + 1) & (s->nslots - 1);
  }
  return NULL;
}

static int entry_set_rehash(entry_set* s, size_t nslots) {
  size_t* slots = (size_t*)tfe_calloc(nslots, sizeof(size_t));
  size_t k;
  if (slots == NULL) return 0;
  tfe_free(s->slots);
  s->slots = slots;
  s->nslots = nslots;
  for (k = 0; k < s->count; k++) {
    size_t i = (size_t)(key_hash(s->items[k].key, s->items[k].key_len) &
                        (nslots - 1));
    while (slots[i] != 0) i = (i + 1) & (nslots - 1);
    slots[i] = k + 1;
  }
  return 1;
}

/* Adds a new (empty) entry for `key`; NULL when memory runs out. */
static wentry* entry_set_add(entry_set* s, const char* key, size_t n) {
  wentry* w;
  if (s->count == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 16;
    wentry* items = (wentry*)tfe_realloc(s->items, cap * sizeof(wentry));
    if (items == NULL) return NULL;
    s->items = items;
    s->cap = cap;
  }
  if ((s->count + 1) * 2 > s->nslots &&
      !entry_set_rehash(s, s->nslots ? s->nslots * 2 : 64))
    return NULL;
  w = &s->items[s->count];
  memset(w, 0, sizeof(*w));
  w->key = (char*)tfe_malloc(n + 1);
  if (w->key == NULL) return NULL;
  if (n) memcpy(w->key, key, n);
  w->key[n] = '\0';
  w->key_len = n;
  {
    size_t i = (size_t)(key_hash(key, n) & (s->nslots - 1));
    while (s->slots[i] != 0) i = (i + 1) & (s->nslots - 1);
    s->slots[i] = s->count + 1;
  }
  s->count++;
  return w;
}

static int cmp_wentry(const void* a, const void* b) {
  const wentry* x = (const wentry*)a;
  const wentry* y = (const wentry*)b;
  return tfe_table_key_cmp(x->key, x->key_len, y->key, y->key_len);
}

/* Serializes header + sorted entries into a table and writes it to path.
 * `header` is the BundleHeaderProto's bytes. The set is sorted in place
 * (its hash index is dropped). */
static int write_index(entry_set* s, const tfe_pbw* header, const char* path,
                       TF_Status* status) {
  tfe_table_entry* rows;
  tfe_pbw* vals;
  size_t i;
  unsigned char* file = NULL;
  size_t len = 0;
  int ok = 0;
  if (s->count > 1) qsort(s->items, s->count, sizeof(wentry), cmp_wentry);
  tfe_free(s->slots);
  s->slots = NULL;
  s->nslots = 0;
  rows = (tfe_table_entry*)tfe_calloc(s->count + 1, sizeof(*rows));
  vals = (tfe_pbw*)tfe_calloc(s->count + 1, sizeof(*vals));
  if (rows == NULL || vals == NULL) goto oom;
  rows[0].key = (char*)"";
  rows[0].key_len = 0;
  rows[0].value = header->data != NULL ? header->data : (unsigned char*)"";
  rows[0].value_len = header->len;
  for (i = 0; i < s->count; i++) {
    tfe_bundle_entry_serialize(&s->items[i].e, &vals[i]);
    if (vals[i].oom) goto oom;
    rows[i + 1].key = s->items[i].key;
    rows[i + 1].key_len = s->items[i].key_len;
    rows[i + 1].value = vals[i].data != NULL ? vals[i].data : (unsigned char*)"";
    rows[i + 1].value_len = vals[i].len;
  }
  if (tfe_table_build(rows, s->count + 1, &file, &len) != 0) goto oom;
  ok = tfe_ckpt_write_file(path, file, len, status);
  goto done;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "out of memory writing checkpoint index %s", path);
done:
  tfe_free(file);
  if (vals != NULL)
    for (i = 0; i < s->count; i++) tfe_pbw_free(&vals[i]);
  tfe_free(vals);
  tfe_free(rows);
  return ok;
}

/* BundleHeaderProto bytes: num_shards, endianness (little = 0, left out),
 * version {producer, min_consumer, bad_consumers}. */
static void header_proto(int64_t num_shards, int64_t endianness,
                         const tfe_pbw* version, tfe_pbw* b) {
  if (num_shards != 0) tfe_pbw_uint(b, 1, (uint64_t)num_shards);
  if (endianness != 0) tfe_pbw_uint(b, 2, (uint64_t)endianness);
  tfe_pbw_lenfield(b, 3, version->data, version->len);
}

/* ------------------------------------------------------------------------
 * The writer. */

#define WRITER_BUF (1u << 20)

struct tfe_bundle_writer {
  char* prefix;
  char* data_path; /* temporary name */
  TF_WritableFileHandle* out;
  unsigned char* buf;
  size_t buf_len;
  int64_t size; /* bytes written to the data file so far */
  entry_set entries;
  int failed, finished;
};

static int flush_buf(tfe_bundle_writer* w, TF_Status* status) {
  if (w->buf_len == 0) return 1;
  if (w->out->fs->wf_ops.append == NULL) {
    tfe_fs_unimplemented(w->out->fs, "append", w->data_path, status);
    return 0;
  }
  tfe_status_ok(status);
  w->out->fs->wf_ops.append(&w->out->file, (const char*)w->buf, w->buf_len,
                            status);
  w->buf_len = 0;
  return TF_GetCode(status) == TF_OK;
}

static int append(tfe_bundle_writer* w, const void* p, size_t n,
                  uint32_t* crc, TF_Status* status) {
  const unsigned char* c = (const unsigned char*)p;
  if (crc != NULL) *crc = tfe_crc32c_extend(*crc, p, n);
  while (n > 0) {
    size_t take = WRITER_BUF - w->buf_len;
    if (take > n) take = n;
    memcpy(w->buf + w->buf_len, c, take);
    w->buf_len += take;
    c += take;
    n -= take;
    if (w->buf_len == WRITER_BUF && !flush_buf(w, status)) return 0;
  }
  return 1;
}

tfe_bundle_writer* tfe_bundle_writer_new(const char* prefix,
                                         TF_Status* status) {
  tfe_bundle_writer* w;
  char* dir;
  char* data_name;
  if (prefix == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "checkpoint prefix is NULL");
    return NULL;
  }
  w = (tfe_bundle_writer*)tfe_calloc(1, sizeof(*w));
  if (w == NULL) goto oom;
  w->prefix = tfe_strdup(prefix);
  data_name = tfe_ckpt_data_filename(prefix, 0, 1);
  w->data_path = data_name != NULL ? tfe_ckpt_temp_name(data_name) : NULL;
  tfe_free(data_name);
  w->buf = (unsigned char*)tfe_malloc(WRITER_BUF);
  if (w->prefix == NULL || w->data_path == NULL || w->buf == NULL) goto oom;
  dir = tfe_ckpt_dirname(prefix);
  if (dir == NULL) goto oom;
  if (dir[0] != '\0') {
    TF_Status st;
    tfe_scratch_init(&st);
    tfe_fs_create_dir(dir, &st);
    if (st.code != TF_OK && st.code != TF_ALREADY_EXISTS) {
      TF_SetStatus(status, st.code, TF_Message(&st));
      tfe_scratch_release(&st);
      tfe_free(dir);
      tfe_bundle_writer_free(w);
      return NULL;
    }
    tfe_scratch_release(&st);
  }
  tfe_free(dir);
  w->out = tfe_fs_open_writable(w->data_path, false, status);
  if (w->out == NULL) {
    tfe_bundle_writer_free(w);
    return NULL;
  }
  tfe_status_ok(status);
  return w;
oom:
  tfe_bundle_writer_free(w);
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "out of memory starting checkpoint %s", prefix);
  return NULL;
}

static int64_t num_elements(const TF_Tensor* t) {
  int64_t n = 1;
  int i, nd = TF_NumDims(t);
  for (i = 0; i < nd; i++) n *= TF_Dim(t, i);
  return n;
}

/* Writes a tensor's data; sets *size and *crc (unmasked). */
static int write_data(tfe_bundle_writer* w, const TF_Tensor* t, int64_t* size,
                      uint32_t* crc, TF_Status* status) {
  TF_DataType dt = TF_TensorType(t);
  *crc = 0;
  if (dt == TF_STRING) {
    const TF_TString* s = (const TF_TString*)TF_TensorData(t);
    int64_t n = num_elements(t), i;
    int64_t written = 0;
    uint32_t lcrc = 0, masked;
    unsigned char le[4];
    for (i = 0; i < n; i++) {
      uint64_t len = TF_TString_GetSize(&s[i]);
      unsigned char vb[10], lb[8];
      size_t k = 0;
      int j;
      uint64_t v = len;
      do {
        vb[k] = (unsigned char)(v & 0x7f);
        v >>= 7;
        if (v) vb[k] |= 0x80;
        k++;
      } while (v);
      for (j = 0; j < 8; j++) lb[j] = (unsigned char)(len >> (8 * j));
      lcrc = tfe_crc32c_extend(lcrc, lb, len <= UINT32_MAX ? 4 : 8);
      if (!append(w, vb, k, NULL, status)) return 0;
      written += (int64_t)k;
    }
    masked = tfe_crc32c_mask(lcrc);
    le[0] = (unsigned char)masked;
    le[1] = (unsigned char)(masked >> 8);
    le[2] = (unsigned char)(masked >> 16);
    le[3] = (unsigned char)(masked >> 24);
    if (!append(w, le, 4, NULL, status)) return 0;
    *crc = tfe_crc32c_extend(lcrc, le, 4);
    written += 4;
    for (i = 0; i < n; i++) {
      size_t len = TF_TString_GetSize(&s[i]);
      if (!append(w, TF_TString_GetDataPointer(&s[i]), len, crc, status))
        return 0;
      written += (int64_t)len;
    }
    *size = written;
    return 1;
  }
  if (dt == TF_VARIANT || dt == TF_RESOURCE || TF_DataTypeSize(dt) == 0) {
    tfe_status_setf(status, TF_UNIMPLEMENTED,
                    "SaveV2: tensors of dtype %s cannot be saved by tfe",
                    tfe_ckpt_dtype_name(dt));
    return 0;
  }
  *size = (int64_t)TF_TensorByteSize(t);
  return append(w, TF_TensorData(t), TF_TensorByteSize(t), crc, status);
}

static int fail(tfe_bundle_writer* w) {
  w->failed = 1;
  return 0;
}

static int set_shape(tfe_bundle_entry* e, const int64_t* dims, int rank) {
  e->has_shape = 1;
  e->rank = rank;
  tfe_free(e->dims);
  e->dims = NULL;
  if (rank > 0) {
    e->dims = (int64_t*)tfe_malloc((size_t)rank * sizeof(int64_t));
    if (e->dims == NULL) return 0;
    memcpy(e->dims, dims, (size_t)rank * sizeof(int64_t));
  }
  return 1;
}

int tfe_bundle_writer_add(tfe_bundle_writer* w, const char* key,
                          size_t key_len, const TF_Tensor* t,
                          TF_Status* status) {
  wentry* we;
  int64_t size = 0;
  uint32_t crc = 0;
  int64_t dims[256];
  int nd, i;
  if (w->failed || w->finished) {
    tfe_status_setf(status, TF_INTERNAL, "BundleWriter is closed");
    return 0;
  }
  if (key_len == 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "the empty tensor name is reserved for the checkpoint's "
                    "header");
    return fail(w);
  }
  if (entry_set_find(&w->entries, key, key_len) != NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "Adding duplicate key: %.*s",
                    (int)key_len, key);
    return fail(w);
  }
  nd = TF_NumDims(t);
  if (nd > 255) nd = 255;
  for (i = 0; i < nd; i++) dims[i] = TF_Dim(t, i);
  if (!write_data(w, t, &size, &crc, status)) return fail(w);
  we = entry_set_add(&w->entries, key, key_len);
  if (we == NULL || !set_shape(&we->e, dims, nd)) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory saving %.*s", (int)key_len, key);
    return fail(w);
  }
  we->e.dtype = (int)TF_TensorType(t);
  we->e.shard_id = 0;
  we->e.offset = w->size;
  we->e.size = size;
  we->e.crc32c = tfe_crc32c_mask(crc);
  w->size += size;
  tfe_status_ok(status);
  return 1;
}

int tfe_bundle_writer_add_slice(tfe_bundle_writer* w, const char* key,
                                size_t key_len, const int64_t* full, int rank,
                                const tfe_tslice* slice, const TF_Tensor* t,
                                TF_Status* status) {
  wentry* we;
  tfe_pbw name = {0}, sp = {0};
  int ok;
  if (w->failed || w->finished) {
    tfe_status_setf(status, TF_INTERNAL, "BundleWriter is closed");
    return 0;
  }
  if (tfe_tslice_covers(slice, full, rank))
    return tfe_bundle_writer_add(w, key, key_len, t, status);
  we = entry_set_find(&w->entries, key, key_len);
  if (we != NULL) {
    /* TF CHECK-fails on these; report them instead. */
    int same = we->e.num_slices > 0 && we->e.rank == rank &&
               we->e.dtype == (int)TF_TensorType(t) &&
               (rank == 0 ||
                memcmp(we->e.dims, full, (size_t)rank * sizeof(int64_t)) == 0);
    if (!same) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Slice of %.*s does not match the dtype and shape "
                      "already saved under that name",
                      (int)key_len, key);
      return fail(w);
    }
  } else {
    we = entry_set_add(&w->entries, key, key_len);
    if (we == NULL || !set_shape(&we->e, full, rank)) goto oom;
    we->e.dtype = (int)TF_TensorType(t);
  }
  tfe_tslice_to_proto(slice, &sp);
  if (sp.oom) goto oom;
  tfe_bundle_entry_add_slice(&we->e, sp.data != NULL ? sp.data : (const unsigned char*)"",
                             sp.len);
  tfe_pbw_free(&sp);
  tfe_tslice_encode_key(key, key_len, slice, &name);
  if (name.oom) goto oom;
  ok = tfe_bundle_writer_add(w, (const char*)name.data, name.len, t, status);
  tfe_pbw_free(&name);
  return ok;
oom:
  tfe_pbw_free(&sp);
  tfe_pbw_free(&name);
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory saving %.*s",
                  (int)key_len, key);
  return fail(w);
}

int tfe_bundle_writer_finish(tfe_bundle_writer* w, TF_Status* status) {
  char* data_final = NULL;
  char* index_final = NULL;
  char* index_tmp = NULL;
  tfe_pbw header = {0}, version = {0};
  TF_WritableFileHandle* out;
  int ok = 0;
  if (w->failed || w->finished) {
    tfe_status_setf(status, TF_INTERNAL, "BundleWriter is closed");
    return 0;
  }
  w->finished = 1;
  tfe_status_ok(status);
  if (!flush_buf(w, status)) {
    fail(w);
    return 0;
  }
  out = w->out;
  w->out = NULL;
  tfe_fs_writable_release(out, true, status);
  if (TF_GetCode(status) != TF_OK) return fail(w);
  data_final = tfe_ckpt_data_filename(w->prefix, 0, 1);
  index_final = tfe_ckpt_index_filename(w->prefix);
  index_tmp = index_final != NULL ? tfe_ckpt_temp_name(index_final) : NULL;
  if (data_final == NULL || index_tmp == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  tfe_fs_rename(w->data_path, data_final, status);
  if (TF_GetCode(status) != TF_OK) goto done;
  tfe_free(w->data_path);
  w->data_path = NULL; /* nothing temporary left to delete */
  tfe_pbw_uint(&version, 1, 1); /* producer: the bundle format version */
  header_proto(1, 0, &version, &header);
  if (header.oom || version.oom) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  if (!write_index(&w->entries, &header, index_tmp, status)) {
    TF_Status st;
    tfe_scratch_init(&st);
    tfe_fs_delete_file(index_tmp, &st);
    tfe_scratch_release(&st);
    goto done;
  }
  tfe_fs_rename(index_tmp, index_final, status);
  ok = TF_GetCode(status) == TF_OK;
done:
  if (!ok) w->failed = 1;
  tfe_pbw_free(&header);
  tfe_pbw_free(&version);
  tfe_free(data_final);
  tfe_free(index_final);
  tfe_free(index_tmp);
  return ok;
}

void tfe_bundle_writer_free(tfe_bundle_writer* w) {
  if (w == NULL) return;
  if (w->out != NULL) {
    TF_Status st;
    tfe_scratch_init(&st);
    tfe_fs_writable_release(w->out, true, &st);
    tfe_scratch_release(&st);
  }
  if (w->data_path != NULL && (w->out != NULL || w->failed || !w->finished)) {
    TF_Status st;
    tfe_scratch_init(&st);
    tfe_fs_delete_file(w->data_path, &st);
    tfe_scratch_release(&st);
  }
  entry_set_free(&w->entries);
  tfe_free(w->buf);
  tfe_free(w->data_path);
  tfe_free(w->prefix);
  tfe_free(w);
}

/* ------------------------------------------------------------------------
 * Merging (MergeV2Checkpoints). */

typedef struct {
  char* path;
  int id;
} shard_map;

static void parse_version(tfe_pbr* r, tfe_pbw* canon, int* ok) {
  int64_t producer = 0, min_consumer = 0;
  tfe_pbw bad = {0};
  while (r->p < r->end) {
    int f, w;
    uint64_t v;
    if (!tfe_pbr_tag(r, &f, &w)) {
      *ok = 0;
      break;
    }
    if ((f == 1 || f == 2 || f == 3) && w == 0) {
      if (!tfe_pbr_varint(r, &v)) {
        *ok = 0;
        break;
      }
      if (f == 1) producer = (int32_t)v;
      else if (f == 2) min_consumer = (int32_t)v;
      else tfe_pbw_varint(&bad, (uint64_t)(int64_t)(int32_t)v);
    } else if (f == 3 && w == 2) {
      tfe_pbr pk;
      if (!tfe_pbr_len(r, &pk)) {
        *ok = 0;
        break;
      }
      while (pk.p < pk.end) {
        if (!tfe_pbr_varint(&pk, &v)) {
          *ok = 0;
          break;
        }
        tfe_pbw_varint(&bad, (uint64_t)(int64_t)(int32_t)v);
      }
    } else if (!tfe_pbr_skip(r, f, w)) {
      *ok = 0;
      break;
    }
  }
  if (producer != 0) tfe_pbw_uint(canon, 1, (uint64_t)producer);
  if (min_consumer != 0) tfe_pbw_uint(canon, 2, (uint64_t)min_consumer);
  if (bad.len > 0) tfe_pbw_lenfield(canon, 3, bad.data, bad.len);
  tfe_pbw_free(&bad);
}

static const char kCorruptFmt[] =
    "Unable to read file (%s). Perhaps the file is corrupt or was produced "
    "by a newer version of TensorFlow with format changes (%s)%s%s";

typedef struct {
  int seen_first;
  int64_t num_shards;
  int64_t endianness;
  tfe_pbw version;
  entry_set entries;
  shard_map* shards;
  int num_shard_ids, cap_shard_ids;
} merge_state;

static int merge_one(const char* prefix, merge_state* m, TF_Status* status) {
  char* index = tfe_ckpt_index_filename(prefix);
  unsigned char* file = NULL;
  size_t len = 0, count = 0, i;
  tfe_table_entry* rows = NULL;
  long failed_block;
  int ok = 0;
  int64_t hdr_shards = 0, hdr_endian = 0;
  tfe_pbw version = {0};
  if (index == NULL) goto oom;
  file = tfe_ckpt_read_file(index, &len, status);
  if (file == NULL) goto done;
  if (tfe_table_read_all(file, len, &rows, &count, &failed_block, status) != 0)
    goto done;
  if (count == 0) {
    tfe_status_setf(status, TF_INTERNAL, kCorruptFmt, index,
                    "failed to seek to header entry", "", "");
    goto done;
  }
  {
    tfe_pbr r;
    int hok = 1, have_version = 0;
    r.p = rows[0].value;
    r.end = rows[0].value + rows[0].value_len;
    while (hok && r.p < r.end) {
      int f, w;
      uint64_t v;
      if (!tfe_pbr_tag(&r, &f, &w)) {
        hok = 0;
      } else if ((f == 1 || f == 2) && w == 0) {
        if (!tfe_pbr_varint(&r, &v)) hok = 0;
        else if (f == 1) hdr_shards = (int32_t)v;
        else hdr_endian = (int32_t)v;
      } else if (f == 3 && w == 2) {
        tfe_pbr sub;
        if (!tfe_pbr_len(&r, &sub)) {
          hok = 0;
        } else {
          version.len = 0;
          parse_version(&sub, &version, &hok);
          have_version = 1;
        }
      } else if (!tfe_pbr_skip(&r, f, w)) {
        hok = 0;
      }
    }
    (void)have_version;
    if (!hok) {
      char detail[512];
      snprintf(detail, sizeof detail, "Entry for key %s not parseable.",
               rows[0].key);
      tfe_status_setf(status, TF_DATA_LOSS, kCorruptFmt, index,
                      "unable to parse header", ": ", detail);
      goto done;
    }
  }
  if (hdr_shards < 0 || hdr_shards > 99999) {
    tfe_status_setf(status, TF_DATA_LOSS,
                    "Invalid number of shards %lld in the header of %s",
                    (long long)hdr_shards, index);
    goto done;
  }
  m->num_shards += hdr_shards;
  if (!m->seen_first) {
    m->seen_first = 1;
    m->endianness = hdr_endian;
    tfe_pbw_bytes(&m->version, version.data, version.len);
  } else {
    if (m->endianness != hdr_endian) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Merging bundles with conflicting endianness; inputs "
                      "corrupted?");
      goto done;
    }
    if (m->version.len != version.len ||
        (version.len > 0 && memcmp(m->version.data, version.data, version.len) != 0)) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Merging bundles with different format versions: "
                      "merged %.*s vs. curr %.*s",
                      (int)m->version.len,
                      m->version.data ? (const char*)m->version.data : "",
                      (int)version.len,
                      version.data ? (const char*)version.data : "");
      goto done;
    }
  }
  for (i = 1; i < count; i++) {
    wentry* existing = entry_set_find(&m->entries, rows[i].key, rows[i].key_len);
    tfe_bundle_entry e;
    int rc;
    if (existing != NULL && existing->e.num_slices == 0) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Duplicate tensor keyed by %s encountered, when "
                      "merging prefix: %s",
                      rows[i].key, prefix);
      goto done;
    }
    rc = tfe_bundle_entry_parse(rows[i].value, rows[i].value_len, &e);
    if (rc < 0) goto oom;
    if (rc == 0) {
      tfe_status_setf(status, TF_DATA_LOSS, "Entry for key %s not parseable.",
                      rows[i].key);
      goto done;
    }
    if (existing != NULL) {
      int k;
      int same_shape = existing->e.rank == e.rank &&
                       (e.rank == 0 || memcmp(existing->e.dims, e.dims,
                                              (size_t)e.rank * sizeof(int64_t)) == 0);
      if (e.num_slices == 0) {
        tfe_bundle_entry_clear(&e);
        tfe_status_setf(status, TF_INTERNAL,
                        "Duplicate tensor keyed by %s; attempting to merge in "
                        "a non-slice bundle entry",
                        rows[i].key);
        goto done;
      }
      if (existing->e.dtype != e.dtype || !same_shape) {
        tfe_bundle_entry_clear(&e);
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Merging slices of %s with different dtypes or shapes",
                        rows[i].key);
        goto done;
      }
      for (k = 0; k < e.num_slices; k++) {
        const unsigned char* p;
        size_t n;
        if (tfe_bundle_entry_slice(&e, k, &p, &n))
          tfe_bundle_entry_add_slice(&existing->e, p, n);
      }
      tfe_bundle_entry_clear(&e);
      if (existing->e.slices.oom) goto oom;
      continue;
    }
    {
      /* A fresh entry: its data file gets the next merged shard id. */
      char* dpath = tfe_ckpt_data_filename(prefix, e.shard_id, (int)hdr_shards);
      int id = -1, k;
      wentry* we;
      if (dpath == NULL) {
        tfe_bundle_entry_clear(&e);
        goto oom;
      }
      for (k = 0; k < m->num_shard_ids; k++) {
        if (strcmp(m->shards[k].path, dpath) == 0) {
          id = m->shards[k].id;
          break;
        }
      }
      if (id < 0) {
        if (m->num_shard_ids == m->cap_shard_ids) {
          int nc = m->cap_shard_ids ? m->cap_shard_ids * 2 : 8;
          shard_map* sm =
              (shard_map*)tfe_realloc(m->shards, (size_t)nc * sizeof(shard_map));
          if (sm == NULL) {
            tfe_free(dpath);
            tfe_bundle_entry_clear(&e);
            goto oom;
          }
          m->shards = sm;
          m->cap_shard_ids = nc;
        }
        id = m->num_shard_ids;
        m->shards[m->num_shard_ids].path = dpath;
        m->shards[m->num_shard_ids].id = id;
        m->num_shard_ids++;
      } else {
        tfe_free(dpath);
      }
      e.shard_id = id;
      we = entry_set_add(&m->entries, rows[i].key, rows[i].key_len);
      if (we == NULL) {
        tfe_bundle_entry_clear(&e);
        goto oom;
      }
      we->e = e;
    }
  }
  ok = 1;
  goto done;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory merging %s",
                  prefix);
done:
  tfe_pbw_free(&version);
  tfe_table_entries_free(rows, count);
  tfe_free(file);
  tfe_free(index);
  return ok;
}

int tfe_bundle_merge(const char* const* prefixes, int n, const char* merged,
                     int allow_missing_files, TF_Status* status) {
  merge_state m;
  char* dir;
  int i, ok = 0, any = 0;
  char* index = NULL;
  tfe_pbw header = {0};
  memset(&m, 0, sizeof m);
  dir = tfe_ckpt_dirname(merged);
  if (dir == NULL) goto oom;
  if (dir[0] != '\0') {
    TF_Status st;
    tfe_scratch_init(&st);
    tfe_fs_create_dir(dir, &st);
    if (st.code != TF_OK && st.code != TF_ALREADY_EXISTS) {
      TF_SetStatus(status, st.code, TF_Message(&st));
      tfe_scratch_release(&st);
      goto done;
    }
    tfe_scratch_release(&st);
  }
  for (i = 0; i < n; i++) {
    char* idx = tfe_ckpt_index_filename(prefixes[i]);
    TF_Status st;
    int exists;
    if (idx == NULL) goto oom;
    tfe_scratch_init(&st);
    tfe_fs_exists(idx, &st);
    exists = st.code == TF_OK;
    tfe_scratch_release(&st);
    tfe_free(idx);
    if (!exists) {
      tfe_pbw why = {0};
      if (allow_missing_files) continue;
      tfe_scratch_init(&st);
      tfe_fs_exists(prefixes[i], &st);
      tfe_ckpt_status_string(&st, &why);
      tfe_scratch_release(&st);
      tfe_pbw_bytes(&why, "", 1);
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "allow_missing_files was set to false and %s did not "
                      "exist.%s",
                      prefixes[i], why.oom ? "" : (const char*)why.data);
      tfe_pbw_free(&why);
      goto done;
    }
    any = 1;
    if (!merge_one(prefixes[i], &m, status)) goto done;
  }
  if (!any) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "At least one prefix checkpoint file must exist, but none "
                    "existed.");
    goto done;
  }
  for (i = 0; i < m.num_shard_ids; i++) {
    char* dst = tfe_ckpt_data_filename(merged, m.shards[i].id, m.num_shard_ids);
    if (dst == NULL) goto oom;
    tfe_status_ok(status);
    if (strcmp(dst, m.shards[i].path) != 0)
      tfe_fs_rename(m.shards[i].path, dst, status);
    tfe_free(dst);
    if (TF_GetCode(status) != TF_OK) goto done;
  }
  header_proto(m.num_shards, m.endianness, &m.version, &header);
  index = tfe_ckpt_index_filename(merged);
  if (index == NULL || header.oom) goto oom;
  if (!write_index(&m.entries, &header, index, status)) goto done;
  for (i = 0; i < n; i++) {
    char* idx = tfe_ckpt_index_filename(prefixes[i]);
    TF_Status st;
    if (idx == NULL) continue;
    if (strcmp(idx, index) != 0) {
      tfe_scratch_init(&st);
      tfe_fs_delete_file(idx, &st);
      tfe_scratch_release(&st);
    }
    tfe_free(idx);
  }
  tfe_status_ok(status);
  ok = 1;
  goto done;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory merging into %s",
                  merged);
done:
  for (i = 0; i < m.num_shard_ids; i++) tfe_free(m.shards[i].path);
  tfe_free(m.shards);
  entry_set_free(&m.entries);
  tfe_pbw_free(&m.version);
  tfe_pbw_free(&header);
  tfe_free(index);
  tfe_free(dir);
  return ok;
}
