/* tfe: TF_CheckpointReader (tensorflow/c/c_api_experimental.h), a reader
 * for TensorFlow V2 checkpoints ("tensor bundles").
 *
 * A bundle with prefix P is `P.index`, a sorted table (checkpoint_table.c)
 * whose first entry is a BundleHeaderProto (key "") and whose other entries
 * map tensor names to BundleEntryProto records, and the data shards
 * `P.data-%05d-of-%05d`. Each record names its dtype, shape, shard, byte
 * offset and size, and the masked CRC-32C of those bytes. Numeric tensors
 * are stored as their raw little-endian bytes. A string tensor is stored
 * as one varint64 length per element, a masked CRC-32C of those lengths
 * (each checksummed as a little-endian uint32, or uint64 when it does not
 * fit), then the string bytes; the record's checksum covers the lengths
 * (as checksummed), the length checksum's four bytes and the string bytes.
 *
 * The whole index is read and checked when the reader is created (as
 * TensorFlow effectively does: it walks every entry to build its variable
 * maps); data shards are opened on first use and read through the
 * filesystem layer, so any registered scheme works. Not supported:
 * partitioned (sliced) variables, variant tensors, big-endian bundles and
 * V1 checkpoints; those report TF_UNIMPLEMENTED. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "fs/fs.h"
#include "graph/checkpoint_table.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"

/* TensorFlow's largest tensor rank. */
#define CKPT_MAX_DIMS 254
/* The tensor bundle format version this reader implements. */
#define CKPT_BUNDLE_VERSION 1

typedef struct ckpt_entry {
  const char* name; /* the table entry's key */
  size_t name_len;
  int dtype;
  int num_dims;
  int64_t* dims; /* tfe_malloc'd, NULL for a scalar */
  int32_t shard_id;
  int64_t offset, size;
  uint32_t crc32c; /* masked, as stored */
  int has_slices;
} ckpt_entry;

struct TF_CheckpointReader {
  char* prefix;
  int32_t num_shards;
  tfe_table_entry* table; /* every index entry, header first */
  size_t table_len;
  ckpt_entry* entries; /* table[1..], parsed */
  size_t num_entries;
  const char** variables; /* sorted names of the full tensors */
  int num_variables;
  pthread_mutex_t mu; /* guards shards */
  tfe_raf** shards;   /* opened on first use */
};

/* ------------------------------------------------------------------------
 * Proto parsing. */

static int parse_shape(tfe_pbr* r, ckpt_entry* e) {
  int field, wire;
  int unknown_rank = 0;
  int64_t dims[CKPT_MAX_DIMS];
  int n = 0;
  while (r->p < r->end) {
    if (!tfe_pbr_tag(r, &field, &wire)) return 0;
    if (field == 2 && wire == 2) { /* Dim { int64 size = 1; string name = 2 } */
      tfe_pbr dim;
      int64_t size = 0;
      if (!tfe_pbr_len(r, &dim)) return 0;
      while (dim.p < dim.end) {
        int f, w;
        if (!tfe_pbr_tag(&dim, &f, &w)) return 0;
        if (f == 1 && w == 0) {
          uint64_t v;
          if (!tfe_pbr_varint(&dim, &v)) return 0;
          size = (int64_t)v;
        } else if (!tfe_pbr_skip(&dim, f, w)) {
          return 0;
        }
      }
      if (n == CKPT_MAX_DIMS) return -1;
      dims[n++] = size;
    } else if (field == 3 && wire == 0) {
      uint64_t v;
      if (!tfe_pbr_varint(r, &v)) return 0;
      unknown_rank = v != 0;
    } else if (!tfe_pbr_skip(r, field, wire)) {
      return 0;
    }
  }
  if (unknown_rank) return -1;
  {
    int i;
    int64_t count = 1;
    for (i = 0; i < n; i++) {
      if (dims[i] < 0) return -1;
      if (dims[i] > 0 && count > INT64_MAX / dims[i]) return -1;
      count *= dims[i];
    }
  }
  if (n > 0) {
    e->dims = (int64_t*)tfe_malloc((size_t)n * sizeof(int64_t));
    if (e->dims == NULL) return -2;
    memcpy(e->dims, dims, (size_t)n * sizeof(int64_t));
  }
  e->num_dims = n;
  return 1;
}

/* 1 parsed, 0 malformed, -1 invalid shape, -2 out of memory. */
static int parse_entry(const unsigned char* p, size_t n, ckpt_entry* e) {
  tfe_pbr r;
  int field, wire;
  r.p = p;
  r.end = p + n;
  while (r.p < r.end) {
    uint64_t v;
    if (!tfe_pbr_tag(&r, &field, &wire)) return 0;
    if (wire == 0 && field >= 1 && field <= 5 && field != 2) {
      if (!tfe_pbr_varint(&r, &v)) return 0;
      if (field == 1) e->dtype = (int)(int32_t)v;
      if (field == 3) e->shard_id = (int32_t)v;
      if (field == 4) e->offset = (int64_t)v;
      if (field == 5) e->size = (int64_t)v;
    } else if (field == 2 && wire == 2) {
      tfe_pbr sub;
      int rc;
      if (!tfe_pbr_len(&r, &sub)) return 0;
      tfe_free(e->dims); /* a repeated message field merges; keep the last */
      e->dims = NULL;
      rc = parse_shape(&sub, e);
      if (rc != 1) return rc;
    } else if (field == 6 && wire == 5) {
      if (r.end - r.p < 4) return 0;
      e->crc32c = (uint32_t)r.p[0] | ((uint32_t)r.p[1] << 8) |
                  ((uint32_t)r.p[2] << 16) | ((uint32_t)r.p[3] << 24);
      r.p += 4;
    } else if (field == 7 && wire == 2) {
      tfe_pbr sub;
      if (!tfe_pbr_len(&r, &sub)) return 0;
      e->has_slices = 1;
    } else if (!tfe_pbr_skip(&r, field, wire)) {
      return 0;
    }
  }
  return 1;
}

typedef struct {
  int64_t num_shards, endianness;
  int64_t producer, min_consumer;
  int bad_consumer; /* the bundle rejects this reader's version */
} ckpt_header;

static int parse_header(const unsigned char* p, size_t n, ckpt_header* h) {
  tfe_pbr r;
  int field, wire;
  memset(h, 0, sizeof(*h));
  r.p = p;
  r.end = p + n;
  while (r.p < r.end) {
    uint64_t v;
    if (!tfe_pbr_tag(&r, &field, &wire)) return 0;
    if ((field == 1 || field == 2) && wire == 0) {
      if (!tfe_pbr_varint(&r, &v)) return 0;
      if (field == 1) h->num_shards = (int32_t)v;
      else h->endianness = (int32_t)v;
    } else if (field == 3 && wire == 2) { /* VersionDef */
      tfe_pbr ver;
      if (!tfe_pbr_len(&r, &ver)) return 0;
      while (ver.p < ver.end) {
        int f, w;
        if (!tfe_pbr_tag(&ver, &f, &w)) return 0;
        if (f >= 1 && f <= 3 && w == 0) {
          if (!tfe_pbr_varint(&ver, &v)) return 0;
          if (f == 1) h->producer = (int32_t)v;
          if (f == 2) h->min_consumer = (int32_t)v;
          if (f == 3 && (int32_t)v == CKPT_BUNDLE_VERSION) h->bad_consumer = 1;
        } else if (f == 3 && w == 2) { /* packed bad_consumers */
          tfe_pbr pk;
          if (!tfe_pbr_len(&ver, &pk)) return 0;
          while (pk.p < pk.end) {
            if (!tfe_pbr_varint(&pk, &v)) return 0;
            if ((int32_t)v == CKPT_BUNDLE_VERSION) h->bad_consumer = 1;
          }
        } else if (!tfe_pbr_skip(&ver, f, w)) {
          return 0;
        }
      }
    } else if (!tfe_pbr_skip(&r, field, wire)) {
      return 0;
    }
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * Creation and lookup. */

static void free_reader(TF_CheckpointReader* r) {
  size_t i;
  if (r->shards != NULL) {
    for (i = 0; i < (size_t)r->num_shards; i++) tfe_fs_raf_release(r->shards[i]);
    tfe_free(r->shards);
  }
  if (r->entries != NULL) {
    for (i = 0; i < r->num_entries; i++) tfe_free(r->entries[i].dims);
    tfe_free(r->entries);
  }
  tfe_table_entries_free(r->table, r->table_len);
  tfe_free((void*)r->variables);
  tfe_free(r->prefix);
  pthread_mutex_destroy(&r->mu);
  tfe_free(r);
}

static char* concat(const char* a, const char* b) {
  size_t na = strlen(a), nb = strlen(b);
  char* s = (char*)tfe_malloc(na + nb + 1);
  if (s == NULL) return NULL;
  memcpy(s, a, na);
  memcpy(s + na, b, nb + 1);
  return s;
}

/* Reads a whole file through the filesystem layer. */
static unsigned char* read_file(const char* path, size_t* len,
                                TF_Status* status) {
  int64_t size = tfe_fs_file_size(path, status);
  tfe_raf* f;
  unsigned char* buf;
  if (size < 0) return NULL;
  if ((uint64_t)size > (uint64_t)SIZE_MAX - 1) {
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
  *len = (size_t)size;
  return buf;
}

static const char kCorrupt[] =
    "Unable to read file (%s). Perhaps the file is corrupt or was produced "
    "by a newer version of TensorFlow with format changes (%s)%s%s";

/* Reports a missing `<prefix>.index`: NOT_FOUND as TensorFlow words it when
 * nothing matches the prefix, UNIMPLEMENTED when something does (TensorFlow
 * would then try the V1 format). */
static void no_index(const char* prefix, TF_Status* status) {
  tfe_strvec m = {NULL, 0, 0};
  TF_Status* st = TF_NewStatus();
  if (st == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  tfe_fs_glob(prefix, &m, st);
  if (TF_GetCode(st) == TF_OK && m.count > 0) {
    tfe_status_setf(status, TF_UNIMPLEMENTED,
                    "TF_NewCheckpointReader: '%s.index' does not exist, so "
                    "'%s' is not a V2 checkpoint; tfe reads only V2 "
                    "checkpoints (V1 checkpoints are not supported)",
                    prefix, prefix);
  } else {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Unsuccessful TensorSliceReader constructor: Failed to "
                    "find any matching files for %s",
                    prefix);
  }
  tfe_strvec_free(&m);
  TF_DeleteStatus(st);
}

static int cmp_names(const void* a, const void* b) {
  return strcmp(*(const char* const*)a, *(const char* const*)b);
}

/* Parses the header and entries of an index read into r->table. */
static int load_index(TF_CheckpointReader* r, const char* index_path,
                      TF_Status* status) {
  ckpt_header h;
  size_t i;
  int nvars = 0;
  if (r->table_len == 0) {
    tfe_status_setf(status, TF_INTERNAL, kCorrupt, index_path,
                    "failed to seek to header entry", "", "");
    return 0;
  }
  /* TensorFlow takes the first entry as the header, whatever its key. */
  if (!parse_header(r->table[0].value, r->table[0].value_len, &h)) {
    char detail[512];
    snprintf(detail, sizeof detail, "Entry for key %s not parseable.",
             r->table[0].key);
    tfe_status_setf(status, TF_DATA_LOSS, kCorrupt, index_path,
                    "unable to parse header", ": ", detail);
    return 0;
  }
  if (h.producer < 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Checkpoint producer version %lld below min producer 0 "
                    "supported by TensorFlow. Please regenerate your "
                    "checkpoint.",
                    (long long)h.producer);
    return 0;
  }
  if (h.min_consumer > CKPT_BUNDLE_VERSION) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Checkpoint min consumer version %lld above current "
                    "version %d for checkpoint. Please upgrade TensorFlow.",
                    (long long)h.min_consumer, CKPT_BUNDLE_VERSION);
    return 0;
  }
  if (h.bad_consumer) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Checkpoint disallows consumer version %d. Please "
                    "upgrade TensorFlow: this version is likely buggy.",
                    CKPT_BUNDLE_VERSION);
    return 0;
  }
  if (h.endianness != 0) {
    tfe_status_setf(status, TF_UNIMPLEMENTED,
                    "TF_NewCheckpointReader: '%s' was written on a big-endian "
                    "machine; tfe reads only little-endian checkpoints",
                    r->prefix);
    return 0;
  }
  if (h.num_shards < 0) {
    tfe_status_setf(status, TF_DATA_LOSS,
                    "Invalid number of shards %lld in the header of %s",
                    (long long)h.num_shards, index_path);
    return 0;
  }
  r->num_shards = (int32_t)h.num_shards;
  if (r->num_shards > 0) {
    r->shards = (tfe_raf**)tfe_calloc((size_t)r->num_shards, sizeof(tfe_raf*));
    if (r->shards == NULL) goto oom;
  }
  r->num_entries = r->table_len - 1;
  if (r->num_entries > 0) {
    r->entries = (ckpt_entry*)tfe_calloc(r->num_entries, sizeof(ckpt_entry));
    r->variables =
        (const char**)tfe_calloc(r->num_entries, sizeof(const char*));
    if (r->entries == NULL || r->variables == NULL) goto oom;
  }
  for (i = 0; i < r->num_entries; i++) {
    const tfe_table_entry* t = &r->table[i + 1];
    ckpt_entry* e = &r->entries[i];
    int rc;
    e->name = t->key;
    e->name_len = t->key_len;
    rc = parse_entry(t->value, t->value_len, e);
    if (rc == -2) goto oom;
    if (rc == 0) {
      tfe_status_setf(status, TF_DATA_LOSS, "Entry for key %s not parseable.",
                      t->key);
      return 0;
    }
    if (rc == -1) {
      tfe_status_setf(status, TF_DATA_LOSS, "Invalid tensor shape: %s",
                      t->key);
      return 0;
    }
    /* Slices of a partitioned variable live under encoded keys that begin
     * with a NUL byte; like TensorFlow, list only the full tensors. */
    if (t->key_len > 0 && memchr(t->key, '\0', t->key_len) != NULL) continue;
    r->variables[nvars++] = t->key;
  }
  qsort((void*)r->variables, (size_t)nvars, sizeof(const char*), cmp_names);
  r->num_variables = nvars;
  return 1;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "out of memory reading checkpoint %s", r->prefix);
  return 0;
}

TF_CheckpointReader* TF_NewCheckpointReader(const char* filename,
                                            TF_Status* status) {
  TF_CheckpointReader* r;
  char* index_path;
  unsigned char* file;
  size_t len = 0;
  long failed_block;
  if (status == NULL) return NULL;
  if (filename == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_NewCheckpointReader: filename is NULL");
    return NULL;
  }
  index_path = concat(filename, ".index");
  if (index_path == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfe_fs_exists(index_path, status);
  if (TF_GetCode(status) == TF_NOT_FOUND) {
    no_index(filename, status);
    tfe_free(index_path);
    return NULL;
  }
  if (TF_GetCode(status) != TF_OK) {
    tfe_free(index_path);
    return NULL;
  }
  file = read_file(index_path, &len, status);
  if (file == NULL) {
    tfe_free(index_path);
    return NULL;
  }
  r = (TF_CheckpointReader*)tfe_calloc(1, sizeof(*r));
  if (r == NULL || (r->prefix = tfe_strdup(filename)) == NULL) {
    tfe_free(r);
    tfe_free(file);
    tfe_free(index_path);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  pthread_mutex_init(&r->mu, NULL);
  if (tfe_table_read_all(file, len, &r->table, &r->table_len, &failed_block,
                         status) != 0) {
    if (failed_block == 0 && TF_GetCode(status) == TF_DATA_LOSS) {
      /* TensorFlow meets a bad first data block while seeking to the
       * header, and says so around the table's own message. */
      char detail[256];
      snprintf(detail, sizeof detail, "%s", TF_Message(status));
      tfe_status_setf(status, TF_DATA_LOSS, kCorrupt, index_path,
                      "failed to seek to header entry", ": ", detail);
    }
    tfe_free(file);
    tfe_free(index_path);
    free_reader(r);
    return NULL;
  }
  tfe_free(file);
  if (!load_index(r, index_path, status)) {
    tfe_free(index_path);
    free_reader(r);
    return NULL;
  }
  tfe_free(index_path);
  tfe_status_ok(status);
  return r;
}

void TF_DeleteCheckpointReader(TF_CheckpointReader* reader) {
  if (reader != NULL) free_reader(reader);
}

/* The entry named `name` (any table key but the header), or NULL. */
static const ckpt_entry* find_entry(const TF_CheckpointReader* r,
                                    const char* name) {
  size_t lo = 0, hi = r->num_entries, n = strlen(name);
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const ckpt_entry* e = &r->entries[mid];
    size_t m = e->name_len < n ? e->name_len : n;
    int c = memcmp(e->name, name, m);
    if (c == 0) c = e->name_len < n ? -1 : (e->name_len > n ? 1 : 0);
    if (c == 0) return e;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

/* The tensor `name` for the per-variable queries (NULL-safe). Slice keys
 * contain a NUL byte, so no C string names them. */
static const ckpt_entry* find_variable(const TF_CheckpointReader* r,
                                       const char* name) {
  if (r == NULL || name == NULL) return NULL;
  return find_entry(r, name);
}

int TF_CheckpointReaderHasTensor(TF_CheckpointReader* reader,
                                 const char* name) {
  if (reader == NULL || name == NULL) return 0;
  /* As in TensorFlow, any key of the index counts, the header's "" too. */
  if (name[0] == '\0' && reader->table_len > 0 && reader->table[0].key_len == 0)
    return 1;
  return find_entry(reader, name) != NULL;
}

const char* TF_CheckpointReaderGetVariable(TF_CheckpointReader* reader,
                                           int index) {
  if (reader == NULL || index < 0 || index >= reader->num_variables)
    return NULL;
  return reader->variables[index];
}

int TF_CheckpointReaderSize(TF_CheckpointReader* reader) {
  return reader == NULL ? 0 : reader->num_variables;
}

TF_DataType TF_CheckpointReaderGetVariableDataType(TF_CheckpointReader* reader,
                                                   const char* name) {
  const ckpt_entry* e = find_variable(reader, name);
  return e == NULL ? (TF_DataType)0 : (TF_DataType)e->dtype;
}

void TF_CheckpointReaderGetVariableShape(TF_CheckpointReader* reader,
                                         const char* name, int64_t* dims,
                                         int num_dims, TF_Status* status) {
  const ckpt_entry* e;
  if (status == NULL) return;
  if (reader == NULL || name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_CheckpointReaderGetVariableShape: %s is NULL",
                    reader == NULL ? "reader" : "name");
    return;
  }
  e = find_variable(reader, name);
  if (e == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND, "Key %s not found in checkpoint",
                    name);
    return;
  }
  if (num_dims != e->num_dims) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Expected rank is %d but actual rank is %d", num_dims,
                    e->num_dims);
    return;
  }
  if (num_dims > 0 && dims == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_CheckpointReaderGetVariableShape: dims is NULL");
    return;
  }
  if (num_dims > 0) memcpy(dims, e->dims, (size_t)num_dims * sizeof(int64_t));
  tfe_status_ok(status);
}

int TF_CheckpointReaderGetVariableNumDims(TF_CheckpointReader* reader,
                                          const char* name) {
  const ckpt_entry* e = find_variable(reader, name);
  return e == NULL ? -1 : e->num_dims;
}

/* ------------------------------------------------------------------------
 * Reading tensor data. */

/* Reads [offset, offset+n) of the entry's shard into buf. */
static int read_data(TF_CheckpointReader* r, const ckpt_entry* e,
                     unsigned char* buf, size_t n, TF_Status* status) {
  tfe_raf* f;
  int64_t got;
  if (e->shard_id < 0 || e->shard_id >= r->num_shards) {
    tfe_status_setf(status, TF_DATA_LOSS,
                    "Entry for key %s names shard %d of a %d-shard bundle",
                    e->name, (int)e->shard_id, (int)r->num_shards);
    return 0;
  }
  pthread_mutex_lock(&r->mu);
  f = r->shards[e->shard_id];
  if (f == NULL) {
    char* path = (char*)tfe_malloc(strlen(r->prefix) + 32);
    if (path == NULL) {
      pthread_mutex_unlock(&r->mu);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
    sprintf(path, "%s.data-%05d-of-%05d", r->prefix, (int)e->shard_id,
            (int)r->num_shards);
    f = tfe_fs_open_raf(path, status);
    tfe_free(path);
    r->shards[e->shard_id] = f;
  }
  pthread_mutex_unlock(&r->mu);
  if (f == NULL) return 0;
  if (n == 0) return 1;
  got = tfe_fs_raf_read(f, (uint64_t)e->offset, n, (char*)buf, status);
  if (got < 0 || (size_t)got != n) {
    if (TF_GetCode(status) == TF_OK)
      tfe_status_setf(status, TF_OUT_OF_RANGE, "Read less bytes than requested");
    return 0;
  }
  return 1;
}

static int checksum_ok(const TF_CheckpointReader* r, const ckpt_entry* e,
                       uint32_t actual, TF_Status* status) {
  uint32_t stored = tfe_crc32c_unmask(e->crc32c);
  if (stored == actual) return 1;
  tfe_status_setf(status, TF_DATA_LOSS,
                  "TensorBundle at %s shard %d (%lld bytes): Checksum does "
                  "not match: stored %08u vs. calculated on the restored "
                  "bytes %u",
                  r->prefix, (int)e->shard_id, (long long)e->size, stored,
                  actual);
  return 0;
}

/* Decodes a string tensor's bytes into the TF_TString slots of t. */
static int decode_strings(const TF_CheckpointReader* r, const ckpt_entry* e,
                          const unsigned char* buf, size_t n, int64_t count,
                          TF_TString* out, TF_Status* status) {
  const unsigned char* p = buf;
  const unsigned char* end = buf + n;
  uint64_t* lens = NULL;
  uint32_t crc = 0, stored;
  int64_t i;
  int ok = 0;
  if (n == 0) return checksum_ok(r, e, 0, status);
  lens = (uint64_t*)tfe_malloc((size_t)count * sizeof(uint64_t) + 1);
  if (lens == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  for (i = 0; i < count; i++) {
    tfe_pbr rd;
    unsigned char le[8];
    int k;
    rd.p = p;
    rd.end = end;
    if (!tfe_pbr_varint(&rd, &lens[i])) {
      tfe_status_setf(status, TF_DATA_LOSS,
                      "String lengths longer than expected offset %lld",
                      (long long)(e->offset + e->size));
      goto done;
    }
    p = rd.p;
    for (k = 0; k < 8; k++) le[k] = (unsigned char)(lens[i] >> (8 * k));
    crc = tfe_crc32c_extend(crc, le, lens[i] <= UINT32_MAX ? 4 : 8);
  }
  if (end - p < 4) {
    tfe_status_setf(status, TF_DATA_LOSS,
                    "String lengths longer than expected offset %lld",
                    (long long)(e->offset + e->size));
    goto done;
  }
  stored = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
  if (tfe_crc32c_unmask(stored) != crc) {
    tfe_status_setf(status, TF_DATA_LOSS,
                    "The length checksum does not match: expected %08u but "
                    "actual is %08u",
                    tfe_crc32c_unmask(stored), crc);
    goto done;
  }
  crc = tfe_crc32c_extend(crc, p, 4);
  p += 4;
  for (i = 0; i < count; i++) {
    if (lens[i] > (uint64_t)(end - p)) {
      tfe_status_setf(status, TF_DATA_LOSS,
                      "TensorBundle at %s shard %d (%lld bytes): string %lld "
                      "of %s runs past the end of its entry",
                      r->prefix, (int)e->shard_id, (long long)e->size,
                      (long long)i, e->name);
      goto done;
    }
    crc = tfe_crc32c_extend(crc, p, (size_t)lens[i]);
    TF_StringCopy(&out[i], (const char*)p, (size_t)lens[i]);
    p += lens[i];
  }
  ok = checksum_ok(r, e, crc, status);
done:
  tfe_free(lens);
  return ok;
}

TF_Tensor* TF_CheckpointReaderGetTensor(TF_CheckpointReader* reader,
                                        const char* name, TF_Status* status) {
  const ckpt_entry* e;
  int64_t count = 1;
  size_t elem, want;
  TF_Tensor* t;
  int i;
  if (status == NULL) return NULL;
  if (reader == NULL || name == NULL) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "TF_CheckpointReaderGetTensor: %s is NULL",
                    reader == NULL ? "reader" : "name");
    return NULL;
  }
  e = find_entry(reader, name);
  if (e == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND, "Key %s not found in checkpoint",
                    name);
    return NULL;
  }
  if (e->has_slices) {
    tfe_status_setf(status, TF_UNIMPLEMENTED,
                    "TF_CheckpointReaderGetTensor: '%s' is saved as slices of "
                    "a partitioned variable, which tfe does not assemble",
                    name);
    return NULL;
  }
  for (i = 0; i < e->num_dims; i++) count *= e->dims[i];
  if (e->dtype == TF_VARIANT || e->dtype == TF_RESOURCE) {
    tfe_status_setf(status, TF_UNIMPLEMENTED,
                    "TF_CheckpointReaderGetTensor: '%s' has dtype %s, which "
                    "tfe does not read from checkpoints",
                    name, e->dtype == TF_VARIANT ? "variant" : "resource");
    return NULL;
  }
  if (e->offset < 0 || e->size < 0 ||
      (uint64_t)e->size > (uint64_t)SIZE_MAX / 2) {
    tfe_status_setf(status, TF_DATA_LOSS,
                    "Invalid offset or size in bundle entry: key %s", name);
    return NULL;
  }
  if (e->dtype == TF_STRING) {
    unsigned char* buf;
    if ((uint64_t)e->size < (uint64_t)count) {
      tfe_status_setf(status, TF_DATA_LOSS,
                      "Invalid size in bundle entry: key %s; stored size "
                      "%lld; expected size is at least %lld",
                      name, (long long)e->size, (long long)count);
      return NULL;
    }
    if (!tfe_mul_size((size_t)count, sizeof(TF_TString), &want) ||
        (t = TF_AllocateTensor(TF_STRING, e->dims, e->num_dims, want)) ==
            NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "out of memory for checkpoint tensor %s", name);
      return NULL;
    }
    buf = (unsigned char*)tfe_malloc((size_t)e->size + 1);
    if (buf == NULL) {
      TF_DeleteTensor(t);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "out of memory for checkpoint tensor %s", name);
      return NULL;
    }
    if (!read_data(reader, e, buf, (size_t)e->size, status) ||
        !decode_strings(reader, e, buf, (size_t)e->size, count,
                        (TF_TString*)TF_TensorData(t), status)) {
      tfe_free(buf);
      TF_DeleteTensor(t);
      return NULL;
    }
    tfe_free(buf);
    tfe_status_ok(status);
    return t;
  }
  elem = TF_DataTypeSize((TF_DataType)e->dtype);
  if (elem == 0) {
    tfe_status_setf(status, TF_DATA_LOSS,
                    "Entry for key %s has an unknown dtype %d", name,
                    e->dtype);
    return NULL;
  }
  if (!tfe_mul_size((size_t)count, elem, &want) ||
      (uint64_t)e->size != (uint64_t)want) {
    tfe_status_setf(status, TF_DATA_LOSS,
                    "Invalid size in bundle entry: key %s; stored size %lld; "
                    "expected size %llu",
                    name, (long long)e->size, (unsigned long long)want);
    return NULL;
  }
  t = TF_AllocateTensor((TF_DataType)e->dtype, e->dims, e->num_dims, want);
  if (t == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory for checkpoint tensor %s", name);
    return NULL;
  }
  if (!read_data(reader, e, (unsigned char*)TF_TensorData(t), want, status) ||
      !checksum_ok(reader, e, tfe_crc32c(TF_TensorData(t), want), status)) {
    TF_DeleteTensor(t);
    return NULL;
  }
  tfe_status_ok(status);
  return t;
}
