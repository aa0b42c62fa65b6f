/* Reading V2 checkpoints for RestoreV2 (see checkpoint_ops.h), with
 * TensorFlow's BundleReader semantics: whole tensors, slices of them, and
 * tensors saved as slices (partitioned variables) assembled from the
 * stored slices that cover the requested one. The layout is described in
 * checkpoint_writer.c; TF_CheckpointReader (checkpoint_reader.c) is the
 * separate C-API reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "fs/fs.h"
#include "graph/checkpoint_ops.h"
#include "graph/checkpoint_table.h"
#include "tensorflow/c/tf_tstring.h"

#define BUNDLE_VERSION 1

struct tfe_bundle_reader {
  char* prefix;
  int32_t num_shards;
  tfe_table_entry* rows; /* header first, then sorted keys */
  size_t count;
  tfe_raf** shards;
};

static const char kCorrupt[] =
    "Unable to read file (%s). Perhaps the file is corrupt or was produced "
    "by a newer version of TensorFlow with format changes (%s)%s%s";

void tfe_bundle_reader_free(tfe_bundle_reader* r) {
  int i;
  if (r == NULL) return;
  if (r->shards != NULL) {
    for (i = 0; i < r->num_shards; i++) tfe_fs_raf_release(r->shards[i]);
    tfe_free(r->shards);
  }
  tfe_table_entries_free(r->rows, r->count);
  tfe_free(r->prefix);
  tfe_free(r);
}

/* Header checks: shard count, endianness, versions (TF's CheckVersions). */
static int check_header(tfe_bundle_reader* r, const char* index,
                        TF_Status* status) {
  tfe_pbr rd;
  int64_t num_shards = 0, endian = 0, producer = 0, min_consumer = 0;
  int bad_consumer = 0;
  rd.p = r->rows[0].value;
  rd.end = rd.p + r->rows[0].value_len;
  while (rd.p < rd.end) {
    int f, w;
    uint64_t v;
    if (!tfe_pbr_tag(&rd, &f, &w)) goto bad;
    if ((f == 1 || f == 2) && w == 0) {
      if (!tfe_pbr_varint(&rd, &v)) goto bad;
      if (f == 1) num_shards = (int32_t)v;
      else endian = (int32_t)v;
    } else if (f == 3 && w == 2) {
      tfe_pbr ver;
      if (!tfe_pbr_len(&rd, &ver)) goto bad;
      while (ver.p < ver.end) {
        int g, x;
        if (!tfe_pbr_tag(&ver, &g, &x)) goto bad;
        if (g >= 1 && g <= 3 && x == 0) {
          if (!tfe_pbr_varint(&ver, &v)) goto bad;
          if (g == 1) producer = (int32_t)v;
          if (g == 2) min_consumer = (int32_t)v;
          if (g == 3 && (int32_t)v == BUNDLE_VERSION) bad_consumer = 1;
        } else if (g == 3 && x == 2) {
          tfe_pbr pk;
          if (!tfe_pbr_len(&ver, &pk)) goto bad;
          while (pk.p < pk.end) {
            if (!tfe_pbr_varint(&pk, &v)) goto bad;
            if ((int32_t)v == BUNDLE_VERSION) bad_consumer = 1;
          }
        } else if (!tfe_pbr_skip(&ver, g, x)) {
          goto bad;
        }
      }
    } else if (!tfe_pbr_skip(&rd, f, w)) {
      goto bad;
    }
  }
  if (producer < 0) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Checkpoint producer version %lld below min producer 0 "
                    "supported by TensorFlow. Please regenerate your "
                    "checkpoint.",
                    (long long)producer);
    return 0;
  }
  if (min_consumer > BUNDLE_VERSION) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Checkpoint min consumer version %lld above current "
                    "version %d for checkpoint. Please upgrade TensorFlow.",
                    (long long)min_consumer, BUNDLE_VERSION);
    return 0;
  }
  if (bad_consumer) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Checkpoint disallows consumer version %d. Please upgrade "
                    "TensorFlow: this version is likely buggy.",
                    BUNDLE_VERSION);
    return 0;
  }
  if (endian != 0) {
    tfe_status_setf(status, TF_UNIMPLEMENTED,
                    "RestoreV2: %s was written on a big-endian machine; tfe "
                    "reads only little-endian checkpoints",
                    r->prefix);
    return 0;
  }
  if (num_shards < 0 || num_shards > 99999) {
    tfe_status_setf(status, TF_DATA_LOSS,
                    "Invalid number of shards %lld in the header of %s",
                    (long long)num_shards, index);
    return 0;
  }
  r->num_shards = (int32_t)num_shards;
  return 1;
bad: {
  char detail[512];
  snprintf(detail, sizeof detail, "Entry for key %s not parseable.",
           r->rows[0].key);
  tfe_status_setf(status, TF_DATA_LOSS, kCorrupt, index,
                  "unable to parse header", ": ", detail);
  return 0;
}
}

tfe_bundle_reader* tfe_bundle_reader_open(const char* prefix,
                                          TF_Status* status) {
  tfe_bundle_reader* r = (tfe_bundle_reader*)tfe_calloc(1, sizeof(*r));
  char* index = NULL;
  unsigned char* file = NULL;
  size_t len = 0;
  long failed_block;
  if (r == NULL || (r->prefix = tfe_strdup(prefix)) == NULL ||
      (index = tfe_ckpt_index_filename(prefix)) == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto fail;
  }
  file = tfe_ckpt_read_file(index, &len, status);
  if (file == NULL) goto fail;
  if (tfe_table_read_all(file, len, &r->rows, &r->count, &failed_block,
                         status) != 0) {
    if (failed_block == 0 && TF_GetCode(status) == TF_DATA_LOSS) {
      char detail[256];
      snprintf(detail, sizeof detail, "%s", TF_Message(status));
      tfe_status_setf(status, TF_DATA_LOSS, kCorrupt, index,
                      "failed to seek to header entry", ": ", detail);
    }
    goto fail;
  }
  if (r->count == 0) {
    tfe_status_setf(status, TF_INTERNAL, kCorrupt, index,
                    "failed to seek to header entry", "", "");
    goto fail;
  }
  if (!check_header(r, index, status)) goto fail;
  if (r->num_shards > 0) {
    r->shards = (tfe_raf**)tfe_calloc((size_t)r->num_shards, sizeof(tfe_raf*));
    if (r->shards == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      goto fail;
    }
  }
  tfe_free(file);
  tfe_free(index);
  tfe_status_ok(status);
  return r;
fail:
  tfe_free(file);
  tfe_free(index);
  tfe_bundle_reader_free(r);
  return NULL;
}

/* The table row for `key` (the header row excluded), or NULL. */
static const tfe_table_entry* find_row(const tfe_bundle_reader* r,
                                       const char* key, size_t n) {
  size_t lo = 1, hi = r->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = tfe_table_key_cmp(r->rows[mid].key, r->rows[mid].key_len, key, n);
    if (c == 0) return &r->rows[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

/* Looks up and parses the entry for `key` (TF's GetBundleEntryProto). */
static int get_entry(const tfe_bundle_reader* r, const char* key, size_t n,
                     tfe_bundle_entry* e, TF_Status* status) {
  const tfe_table_entry* row = find_row(r, key, n);
  int rc, d;
  memset(e, 0, sizeof(*e));
  if (row == NULL) {
    tfe_status_setf(status, TF_NOT_FOUND, "Key %.*s not found in checkpoint",
                    (int)n, key);
    return 0;
  }
  rc = tfe_bundle_entry_parse(row->value, row->value_len, e);
  if (rc < 0) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  if (rc == 0) {
    tfe_status_setf(status, TF_DATA_LOSS, "Entry for key %.*s not parseable.",
                    (int)n, key);
    return 0;
  }
  {
    int64_t count = 1;
    int valid = !e->shape_unknown_rank && e->rank <= 254;
    for (d = 0; valid && d < e->rank; d++) {
      if (e->dims[d] < 0) valid = 0;
      else if (e->dims[d] > 0 && count > INT64_MAX / e->dims[d]) valid = 0;
      else count *= e->dims[d];
    }
    if (!valid) {
      tfe_bundle_entry_clear(e);
      tfe_status_setf(status, TF_DATA_LOSS, "Invalid tensor shape: %.*s",
                      (int)n, key);
      return 0;
    }
  }
  return 1;
}

int tfe_bundle_reader_meta(tfe_bundle_reader* r, const char* key,
                           size_t key_len, TF_DataType* dtype, int64_t** dims,
                           int* rank, TF_Status* status) {
  tfe_bundle_entry e;
  *dims = NULL;
  *rank = 0;
  if (!get_entry(r, key, key_len, &e, status)) return 0;
  *dtype = (TF_DataType)e.dtype;
  *rank = e.rank;
  *dims = e.dims;
  e.dims = NULL;
  tfe_bundle_entry_clear(&e);
  return 1;
}

static int64_t prod(const int64_t* d, int n) {
  int64_t p = 1;
  int i;
  for (i = 0; i < n; i++) p *= d[i];
  return p;
}

static int read_bytes(tfe_bundle_reader* r, const tfe_bundle_entry* e,
                      unsigned char* buf, size_t n, TF_Status* status) {
  tfe_raf* f;
  int64_t got;
  if (e->shard_id < 0 || e->shard_id >= r->num_shards) {
    tfe_status_setf(status, TF_DATA_LOSS,
                    "Bundle entry names shard %d of a %d-shard bundle",
                    (int)e->shard_id, (int)r->num_shards);
    return 0;
  }
  f = r->shards[e->shard_id];
  if (f == NULL) {
    char* path = tfe_ckpt_data_filename(r->prefix, e->shard_id, r->num_shards);
    if (path == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
    f = tfe_fs_open_raf(path, status);
    tfe_free(path);
    if (f == NULL) return 0;
    r->shards[e->shard_id] = f;
  }
  if (n == 0) return 1;
  got = tfe_fs_raf_read(f, (uint64_t)e->offset, n, (char*)buf, status);
  if (got < 0 || (size_t)got != n) {
    if (TF_GetCode(status) == TF_OK || TF_GetCode(status) == TF_OUT_OF_RANGE)
      tfe_status_setf(status, TF_OUT_OF_RANGE, "Read less bytes than requested");
    return 0;
  }
  return 1;
}

static int crc_check(const tfe_bundle_reader* r, const tfe_bundle_entry* e,
                     uint32_t actual, TF_Status* status) {
  uint32_t stored = tfe_crc32c_unmask(e->crc32c);
  if (stored == actual) return 1;
  tfe_status_setf(status, TF_DATA_LOSS,
                  "TensorBundle at %s shard %d (%lld bytes): Checksum does not "
                  "match: stored %08u vs. calculated on the restored bytes %u",
                  r->prefix, (int)e->shard_id, (long long)e->size, stored,
                  actual);
  return 0;
}

/* TF's GetValue: reads entry e (whose shape must equal out's) into out. */
static int get_value(tfe_bundle_reader* r, const tfe_bundle_entry* e,
                     const char* key, size_t key_len, TF_Tensor* out,
                     TF_Status* status) {
  int64_t count = prod(e->dims, e->rank);
  if (e->dtype != (int)TF_TensorType(out)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "tensor_name = %.*s; expected dtype %s does not equal "
                    "original dtype %s",
                    (int)key_len, key, tfe_ckpt_dtype_name(TF_TensorType(out)),
                    tfe_ckpt_dtype_name((TF_DataType)e->dtype));
    return 0;
  }
  if (e->offset < 0 || e->size < 0 || (uint64_t)e->size > (uint64_t)SIZE_MAX / 2) {
    tfe_status_setf(status, TF_DATA_LOSS,
                    "Invalid offset or size in bundle entry: key %.*s",
                    (int)key_len, key);
    return 0;
  }
  if (e->dtype == TF_STRING) {
    unsigned char* buf;
    const unsigned char* p;
    const unsigned char* end;
    TF_TString* dst = (TF_TString*)TF_TensorData(out);
    uint64_t* lens;
    uint32_t crc = 0, stored;
    int64_t i;
    int ok = 0;
    if ((uint64_t)e->size < (uint64_t)count) {
      tfe_status_setf(status, TF_DATA_LOSS,
                      "Invalid size in bundle entry: key %.*s; stored size "
                      "%lld; expected size is at least %lld",
                      (int)key_len, key, (long long)e->size, (long long)count);
      return 0;
    }
    if (e->size == 0) return read_bytes(r, e, NULL, 0, status) &&
                             crc_check(r, e, 0, status);
    buf = (unsigned char*)tfe_malloc((size_t)e->size);
    lens = (uint64_t*)tfe_malloc((size_t)count * sizeof(uint64_t) + 1);
    if (buf == NULL || lens == NULL) {
      tfe_free(buf);
      tfe_free(lens);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
    if (!read_bytes(r, e, buf, (size_t)e->size, status)) goto sdone;
    p = buf;
    end = buf + e->size;
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
        goto sdone;
      }
      p = rd.p;
      for (k = 0; k < 8; k++) le[k] = (unsigned char)(lens[i] >> (8 * k));
      crc = tfe_crc32c_extend(crc, le, lens[i] <= UINT32_MAX ? 4 : 8);
    }
    if (end - p < 4) {
      tfe_status_setf(status, TF_DATA_LOSS,
                      "String lengths longer than expected offset %lld",
                      (long long)(e->offset + e->size));
      goto sdone;
    }
    stored = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
             ((uint32_t)p[3] << 24);
    if (tfe_crc32c_unmask(stored) != crc) {
      tfe_status_setf(status, TF_DATA_LOSS,
                      "The length checksum does not match: expected %08u but "
                      "actual is %08u",
                      tfe_crc32c_unmask(stored), crc);
      goto sdone;
    }
    crc = tfe_crc32c_extend(crc, p, 4);
    p += 4;
    for (i = 0; i < count; i++) {
      if (lens[i] > (uint64_t)(end - p)) {
        tfe_status_setf(status, TF_DATA_LOSS,
                        "TensorBundle at %s shard %d (%lld bytes): string %lld "
                        "of %.*s runs past the end of its entry",
                        r->prefix, (int)e->shard_id, (long long)e->size,
                        (long long)i, (int)key_len, key);
        goto sdone;
      }
      crc = tfe_crc32c_extend(crc, p, (size_t)lens[i]);
      TF_TString_Copy(&dst[i], (const char*)p, (size_t)lens[i]);
      p += lens[i];
    }
    ok = crc_check(r, e, crc, status);
  sdone:
    tfe_free(buf);
    tfe_free(lens);
    return ok;
  }
  {
    size_t esize = TF_DataTypeSize((TF_DataType)e->dtype);
    size_t want;
    if (e->dtype == TF_VARIANT || e->dtype == TF_RESOURCE || esize == 0) {
      tfe_status_setf(status, TF_UNIMPLEMENTED,
                      "RestoreV2: '%.*s' has dtype %s, which tfe does not "
                      "restore",
                      (int)key_len, key,
                      tfe_ckpt_dtype_name((TF_DataType)e->dtype));
      return 0;
    }
    want = (size_t)count * esize;
    if ((uint64_t)e->size != (uint64_t)want || want != TF_TensorByteSize(out)) {
      tfe_status_setf(status, TF_DATA_LOSS,
                      "Invalid size in bundle entry: key %.*s; stored size "
                      "%lld; expected size %zu",
                      (int)key_len, key, (long long)e->size, want);
      return 0;
    }
    if (!read_bytes(r, e, (unsigned char*)TF_TensorData(out), want, status))
      return 0;
    return crc_check(r, e, tfe_crc32c(TF_TensorData(out), want), status);
  }
}

/* Registered stored slices of one tensor (TF's TensorSliceSet). */
typedef struct {
  tfe_tslice* slices;
  int n;
} slice_set;

static void slice_set_free(slice_set* s) {
  int i;
  for (i = 0; i < s->n; i++) tfe_tslice_free(&s->slices[i]);
  tfe_free(s->slices);
  s->slices = NULL;
  s->n = 0;
}

/* TF's RegisterTensorSlice for each stored slice of `e`. */
static int register_slices(const tfe_bundle_entry* e, slice_set* set,
                           TF_Status* status) {
  int n = e->num_slices > 0 ? e->num_slices : 1, i, j;
  set->n = 0;
  set->slices = (tfe_tslice*)tfe_calloc((size_t)n, sizeof(tfe_tslice));
  if (set->slices == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  for (i = 0; i < n; i++) {
    tfe_tslice* s = &set->slices[i];
    int64_t* shp = NULL;
    if (e->num_slices == 0) {
      if (!tfe_tslice_init_full(s, e->rank)) goto oom;
    } else {
      const unsigned char* p;
      size_t len;
      if (!tfe_bundle_entry_slice(e, i, &p, &len) ||
          !tfe_tslice_from_proto(p, len, s)) {
        tfe_status_setf(status, TF_DATA_LOSS,
                        "Invalid slice in a checkpoint entry");
        return 0;
      }
    }
    set->n++;
    if (!tfe_tslice_shape(s, e->dims, e->rank, &shp, status)) return 0;
    tfe_free(shp);
    for (j = 0; j < i; j++) {
      if (tfe_tslice_intersect(s, &set->slices[j], NULL)) {
        tfe_pbw a = {0}, b = {0};
        tfe_tslice_debug(&set->slices[j], &a);
        tfe_tslice_debug(s, &b);
        tfe_pbw_bytes(&a, "", 1);
        tfe_pbw_bytes(&b, "", 1);
        tfe_status_setf(status, TF_INTERNAL,
                        "Overlapping slices: existing slice = %s, new slice = "
                        "%s",
                        a.oom ? "" : (const char*)a.data,
                        b.oom ? "" : (const char*)b.data);
        tfe_pbw_free(&a);
        tfe_pbw_free(&b);
        return 0;
      }
    }
  }
  return 1;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
  return 0;
}

/* Dtypes TF's GetSliceValue copies between differing slices. */
static int slice_copy_dtype(int dt) {
  switch (dt) {
    case TF_FLOAT: case TF_DOUBLE: case TF_INT32: case TF_UINT8:
    case TF_INT16: case TF_INT8: case TF_COMPLEX64: case TF_COMPLEX128:
    case TF_INT64: case TF_BOOL: case TF_QINT32: case TF_QUINT8:
    case TF_QINT8: case TF_BFLOAT16: case TF_INT4: case TF_UINT4:
      return 1;
    default:
      return 0;
  }
}

/* TF's GetSliceValue. */
static int get_slice_value(tfe_bundle_reader* r, const char* key,
                           size_t key_len, const tfe_bundle_entry* full,
                           const tfe_tslice* spec, TF_Tensor* out,
                           TF_Status* status) {
  slice_set set = {NULL, 0};
  int* use = NULL;
  int nuse = 0, i, ok = 0;
  int64_t* target = NULL;
  if (!register_slices(full, &set, status)) goto done;
  use = (int*)tfe_calloc((size_t)set.n + 1, sizeof(int));
  if (use == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  /* QueryMeta: an exact match, or stored slices whose overlaps add up to
   * the requested slice. */
  for (i = 0; i < set.n; i++) {
    if (tfe_tslice_equal(&set.slices[i], spec)) {
      use[nuse++] = i;
      break;
    }
  }
  if (nuse == 0) {
    TF_Status* st = TF_NewStatus();
    int covered = 0;
    if (st != NULL && tfe_tslice_shape(spec, full->dims, full->rank, &target, st)) {
      int64_t total = prod(target, full->rank), overlap = 0;
      for (i = 0; i < set.n; i++) {
        tfe_tslice inter;
        int64_t* ishape = NULL;
        if (!tfe_tslice_intersect(spec, &set.slices[i], &inter)) continue;
        if (tfe_tslice_shape(&inter, full->dims, full->rank, &ishape, st)) {
          overlap += prod(ishape, full->rank);
          use[nuse++] = i;
        }
        tfe_free(ishape);
        tfe_tslice_free(&inter);
      }
      covered = total == overlap;
    }
    TF_DeleteStatus(st);
    if (!covered) {
      tfe_pbw d = {0};
      tfe_tslice_debug(spec, &d);
      tfe_pbw_bytes(&d, "", 1);
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Does not have sufficient slices for partitioned tensor "
                      "%.*s to restore in slice_spec: %s",
                      (int)key_len, key, d.oom ? "" : (const char*)d.data);
      tfe_pbw_free(&d);
      goto done;
    }
  }
  for (i = 0; i < nuse; i++) {
    const tfe_tslice* stored = &set.slices[use[i]];
    tfe_bundle_entry se;
    const tfe_bundle_entry* sep = full;
    TF_Tensor* tmp;
    int direct, rc;
    memset(&se, 0, sizeof se);
    if (!tfe_tslice_is_full(stored)) {
      tfe_pbw k = {0};
      tfe_tslice_encode_key(key, key_len, stored, &k);
      if (k.oom) {
        tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
        goto done;
      }
      rc = get_entry(r, (const char*)k.data, k.len, &se, status);
      tfe_pbw_free(&k);
      if (!rc) goto done;
      sep = &se;
    }
    {
      int same_shape = sep->rank == TF_NumDims(out);
      int d;
      for (d = 0; same_shape && d < sep->rank; d++)
        same_shape = sep->dims[d] == TF_Dim(out, d);
      direct = tfe_tslice_equal(stored, spec) ||
               (same_shape && tfe_tslice_covers(stored, sep->dims, sep->rank) &&
                tfe_tslice_covers(spec, sep->dims, sep->rank));
    }
    if (direct) {
      ok = get_value(r, sep, key, key_len, out, status);
      tfe_bundle_entry_clear(&se);
      goto done;
    }
    if (!slice_copy_dtype(full->dtype)) {
      tfe_bundle_entry_clear(&se);
      tfe_status_setf(status, TF_INVALID_ARGUMENT, "Dtype %s not supported.",
                      tfe_ckpt_dtype_name((TF_DataType)full->dtype));
      goto done;
    }
    if (full->rank > 8) {
      tfe_bundle_entry_clear(&se);
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "Only tensors of size up to 8 are supported");
      goto done;
    }
    tmp = TF_AllocateTensor((TF_DataType)sep->dtype, sep->dims, sep->rank,
                            (size_t)prod(sep->dims, sep->rank) *
                                TF_DataTypeSize((TF_DataType)sep->dtype));
    if (tmp == NULL) {
      tfe_bundle_entry_clear(&se);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                      "out of memory restoring %.*s", (int)key_len, key);
      goto done;
    }
    rc = get_value(r, sep, key, key_len, tmp, status);
    tfe_bundle_entry_clear(&se);
    if (!rc) {
      TF_DeleteTensor(tmp);
      goto done;
    }
    tfe_tslice_copy_data(full->dims, full->rank, stored, spec,
                         (TF_DataType)full->dtype,
                         TF_DataTypeSize((TF_DataType)full->dtype),
                         TF_TensorData(tmp), TF_TensorData(out));
    TF_DeleteTensor(tmp);
  }
  ok = 1;
done:
  tfe_free(target);
  tfe_free(use);
  slice_set_free(&set);
  return ok;
}

int tfe_bundle_reader_read(tfe_bundle_reader* r, const char* key,
                           size_t key_len, const tfe_tslice* spec,
                           TF_Tensor* out, TF_Status* status) {
  tfe_bundle_entry e;
  int ok;
  if (!get_entry(r, key, key_len, &e, status)) return 0;
  if (spec == NULL && e.num_slices == 0) {
    ok = get_value(r, &e, key, key_len, out, status);
  } else if (spec == NULL) {
    tfe_tslice full;
    if (!tfe_tslice_init_full(&full, e.rank)) {
      tfe_bundle_entry_clear(&e);
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
    ok = get_slice_value(r, key, key_len, &e, &full, out, status);
    tfe_tslice_free(&full);
  } else {
    ok = get_slice_value(r, key, key_len, &e, spec, out, status);
  }
  tfe_bundle_entry_clear(&e);
  if (ok) tfe_status_ok(status);
  return ok;
}
