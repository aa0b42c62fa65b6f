/* V1 checkpoints (TensorFlow's TensorSliceWriter / TensorSliceReader
 * format), for Save, SaveSlices, Restore, RestoreSlice and RestoreV2's
 * fallback (see checkpoint_ops.h).
 *
 * A V1 checkpoint file is one sorted table (checkpoint_table.c). Key ""
 * holds a SavedTensorSlices whose `meta` lists every tensor (name, full
 * shape, dtype, the slices saved) and the format versions; every slice is
 * a record under its ordered-code key (checkpoint_slices.c) holding a
 * SavedTensorSlices whose `data` is {name, slice, a TensorProto with the
 * slice's values in the typed repeated field of its dtype}. A checkpoint
 * may be spread over several files (a reader takes a glob pattern). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "fs/fs.h"
#include "graph/checkpoint_ops.h"
#include "graph/checkpoint_table.h"
#include "tensorflow/c/tf_tstring.h"

/* TF_CHECKPOINT_VERSION and its minimums. */
#define V1_VERSION 1
#define V1_MIN_PRODUCER 0

static const char* pbw_cstr(tfe_pbw* b) {
  tfe_pbw_bytes(b, "", 1);
  return b->oom || b->data == NULL ? "" : (const char*)b->data;
}

/* ------------------------------------------------------------------------
 * TensorProto values. */

/* The TensorProto field a dtype's values go in, 0 when V1 cannot hold it. */
static int value_field(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: return 5;
    case TF_DOUBLE: return 6;
    case TF_INT32: case TF_INT16: case TF_INT8: case TF_UINT8:
    case TF_UINT16: case TF_QINT8: case TF_QUINT8: case TF_QINT32:
      return 7;
    case TF_STRING: return 8;
    case TF_COMPLEX64: return 9;
    case TF_INT64: return 10;
    case TF_BOOL: return 11;
    case TF_COMPLEX128: return 12;
    case TF_HALF: return 13;
    case TF_UINT32: return 16;
    case TF_UINT64: return 17;
    default: return 0;
  }
}

/* Dtypes the save ops accept at all (TF_CALL_SAVE_RESTORE_TYPES). */
static int save_restore_type(TF_DataType dt) {
  switch (dt) {
    case TF_UINT64: case TF_INT64: case TF_UINT32: case TF_UINT16:
    case TF_INT16: case TF_UINT8: case TF_INT8: case TF_INT32:
    case TF_HALF: case TF_FLOAT: case TF_DOUBLE: case TF_COMPLEX64:
    case TF_COMPLEX128: case TF_QINT8: case TF_QUINT8: case TF_QINT32:
    case TF_BOOL: case TF_STRING:
      return 1;
    default:
      return 0;
  }
}

static int64_t elem_int(TF_DataType dt, const void* p, int64_t i) {
  switch (dt) {
    case TF_INT32: case TF_QINT32: return ((const int32_t*)p)[i];
    case TF_INT16: return ((const int16_t*)p)[i];
    case TF_INT8: case TF_QINT8: return ((const int8_t*)p)[i];
    case TF_UINT8: case TF_QUINT8: return ((const uint8_t*)p)[i];
    case TF_UINT16: case TF_HALF: return ((const uint16_t*)p)[i];
    case TF_BOOL: return ((const uint8_t*)p)[i] != 0;
    default: return 0;
  }
}

/* Appends a TensorProto holding n values of dtype dt from data. */
static void fill_values(TF_DataType dt, const void* data, int64_t n,
                        tfe_pbw* b) {
  int field = value_field(dt);
  int64_t i;
  if (n <= 0) return;
  if (dt == TF_STRING) {
    const TF_TString* s = (const TF_TString*)data;
    for (i = 0; i < n; i++)
      tfe_pbw_lenfield(b, 8, TF_TString_GetDataPointer(&s[i]),
                       TF_TString_GetSize(&s[i]));
    return;
  }
  {
    tfe_pbw packed = {0};
    switch (dt) {
      case TF_FLOAT:
        tfe_pbw_bytes(&packed, data, (size_t)n * 4);
        break;
      case TF_COMPLEX64:
        tfe_pbw_bytes(&packed, data, (size_t)n * 8);
        break;
      case TF_DOUBLE:
        tfe_pbw_bytes(&packed, data, (size_t)n * 8);
        break;
      case TF_COMPLEX128:
        tfe_pbw_bytes(&packed, data, (size_t)n * 16);
        break;
      case TF_INT64:
        for (i = 0; i < n; i++)
          tfe_pbw_varint(&packed, (uint64_t)((const int64_t*)data)[i]);
        break;
      case TF_UINT32:
        for (i = 0; i < n; i++)
          tfe_pbw_varint(&packed, ((const uint32_t*)data)[i]);
        break;
      case TF_UINT64:
        for (i = 0; i < n; i++)
          tfe_pbw_varint(&packed, ((const uint64_t*)data)[i]);
        break;
      default:
        for (i = 0; i < n; i++)
          tfe_pbw_varint(&packed, (uint64_t)elem_int(dt, data, i));
        break;
    }
    tfe_pbw_sub(b, field, &packed);
  }
}

/* Decodes the values of field `field` of a TensorProto into dst (n
 * elements of dtype dt). Returns 1 when exactly n values were there. */
static int decode_values(const unsigned char* p, size_t len, TF_DataType dt,
                         int64_t n, void* dst) {
  int field = value_field(dt);
  int per = (dt == TF_COMPLEX64 || dt == TF_COMPLEX128) ? 2 : 1;
  int64_t want = n * per, got = 0;
  tfe_pbr r;
  r.p = p;
  r.end = p + len;
  while (r.p < r.end) {
    int f, w;
    if (!tfe_pbr_tag(&r, &f, &w)) return 0;
    if (f != field) {
      if (!tfe_pbr_skip(&r, f, w)) return 0;
      continue;
    }
    if (dt == TF_STRING) {
      tfe_pbr s;
      if (w != 2 || !tfe_pbr_len(&r, &s)) return 0;
      if (got >= want) return 0;
      TF_TString_Copy(&((TF_TString*)dst)[got], (const char*)s.p,
                      (size_t)(s.end - s.p));
      got++;
      continue;
    }
    {
      tfe_pbr vals;
      int fixed = (dt == TF_FLOAT || dt == TF_COMPLEX64)    ? 4
                  : (dt == TF_DOUBLE || dt == TF_COMPLEX128) ? 8
                                                              : 0;
      if (w == 2) {
        if (!tfe_pbr_len(&r, &vals)) return 0;
      } else if ((fixed == 4 && w == 5) || (fixed == 8 && w == 1) ||
                 (fixed == 0 && w == 0)) {
        /* one unpacked value */
        vals.p = r.p;
        vals.end = r.end;
      } else {
        return 0;
      }
      do {
        if (got >= want) return 0;
        if (fixed) {
          if (vals.end - vals.p < fixed) return 0;
          memcpy((char*)dst + (size_t)got * (size_t)fixed, vals.p, (size_t)fixed);
          vals.p += fixed;
        } else {
          uint64_t v;
          if (!tfe_pbr_varint(&vals, &v)) return 0;
          switch (dt) {
            case TF_INT64: ((int64_t*)dst)[got] = (int64_t)v; break;
            case TF_UINT64: ((uint64_t*)dst)[got] = v; break;
            case TF_UINT32: ((uint32_t*)dst)[got] = (uint32_t)v; break;
            case TF_INT32: case TF_QINT32:
              ((int32_t*)dst)[got] = (int32_t)v; break;
            case TF_INT16: ((int16_t*)dst)[got] = (int16_t)(int32_t)v; break;
            case TF_INT8: case TF_QINT8:
              ((int8_t*)dst)[got] = (int8_t)(int32_t)v; break;
            case TF_UINT8: case TF_QUINT8:
              ((uint8_t*)dst)[got] = (uint8_t)(int32_t)v; break;
            case TF_UINT16: case TF_HALF:
              ((uint16_t*)dst)[got] = (uint16_t)(int32_t)v; break;
            case TF_BOOL: ((uint8_t*)dst)[got] = v != 0; break;
            default: return 0;
          }
        }
        got++;
      } while (w == 2 && vals.p < vals.end);
      if (w != 2) r.p = vals.p;
    }
  }
  return got == want;
}

/* ------------------------------------------------------------------------
 * Writing. */

typedef struct {
  char* key;
  size_t key_len;
  tfe_pbw value;
} v1_record;

typedef struct {
  const char* name;
  size_t name_len;
  const int64_t* dims;
  int rank;
  TF_DataType dtype;
  tfe_pbw slices; /* SavedSliceMeta.slice fields, serialized */
} v1_meta;

static int cmp_items(const void* a, const void* b) {
  const tfe_v1_item* x = *(const tfe_v1_item* const*)a;
  const tfe_v1_item* y = *(const tfe_v1_item* const*)b;
  return tfe_table_key_cmp(x->name, x->name_len, y->name, y->name_len);
}

static int cmp_records(const void* a, const void* b) {
  const v1_record* x = (const v1_record*)a;
  const v1_record* y = (const v1_record*)b;
  return tfe_table_key_cmp(x->key, x->key_len, y->key, y->key_len);
}

static size_t max_bytes_per_element(TF_DataType dt) {
  switch (dt) {
    case TF_FLOAT: return 4;
    case TF_DOUBLE: return 8;
    case TF_INT32: case TF_INT16: case TF_INT8: case TF_INT64:
    case TF_QINT8: case TF_QINT32: case TF_QINT16:
      return 10;
    case TF_UINT8: case TF_QUINT8: return 2;
    case TF_COMPLEX64: return 8;
    case TF_BOOL: return 1;
    case TF_QUINT16: case TF_UINT16: case TF_HALF: return 3;
    case TF_COMPLEX128: return 16;
    default: return 0;
  }
}

int tfe_v1_save(const char* filename, const tfe_v1_item* items, int n,
                TF_Status* status) {
  const tfe_v1_item** order = NULL;
  v1_meta* metas = NULL;
  v1_record* recs = NULL;
  tfe_table_entry* rows = NULL;
  int nmeta = 0, nrec = 0, i, ok = 0;
  tfe_pbw meta = {0}, sts = {0};
  unsigned char* file = NULL;
  size_t flen = 0;
  char* tmp = NULL;
  if (n > 0) {
    order = (const tfe_v1_item**)tfe_calloc((size_t)n, sizeof(*order));
    metas = (v1_meta*)tfe_calloc((size_t)n, sizeof(v1_meta));
    recs = (v1_record*)tfe_calloc((size_t)n, sizeof(v1_record));
    if (order == NULL || metas == NULL || recs == NULL) goto oom;
  }
  for (i = 0; i < n; i++) order[i] = &items[i];
  /* TF saves in name order. */
  if (n > 1) qsort(order, (size_t)n, sizeof(*order), cmp_items);
  for (i = 0; i < n; i++) {
    const tfe_v1_item* it = order[i];
    TF_DataType dt = TF_TensorType(it->t);
    v1_meta* m = NULL;
    int k;
    int64_t* sshape = NULL;
    int64_t count = 1;
    tfe_pbw ss = {0}, sp = {0}, data = {0}, key = {0};
    if (!save_restore_type(dt)) {
      tfe_status_setf(status, TF_UNIMPLEMENTED,
                      "Saving data type %s not yet supported",
                      tfe_ckpt_dtype_name(dt));
      goto done;
    }
    if (it->rank != it->slice->rank) {
      tfe_pbw a = {0}, b = {0};
      tfe_ckpt_shape_str(it->full_dims, it->rank, &a);
      tfe_tslice_debug(it->slice, &b);
      tfe_status_setf(status, TF_INTERNAL,
                      "Incompatible tensor shape and slice: shape = %s, slice "
                      "= %s",
                      pbw_cstr(&a), pbw_cstr(&b));
      tfe_pbw_free(&a);
      tfe_pbw_free(&b);
      goto done;
    }
    for (k = 0; k < nmeta; k++) {
      if (metas[k].name_len == it->name_len &&
          memcmp(metas[k].name, it->name, it->name_len) == 0) {
        m = &metas[k];
        break;
      }
    }
    if (m != NULL) {
      int same = m->rank == it->rank &&
                 (it->rank == 0 || memcmp(m->dims, it->full_dims,
                                          (size_t)it->rank * sizeof(int64_t)) == 0);
      if (!same) {
        tfe_pbw a = {0}, b = {0};
        tfe_ckpt_shape_str(m->dims, m->rank, &a);
        tfe_ckpt_shape_str(it->full_dims, it->rank, &b);
        tfe_status_setf(status, TF_INTERNAL,
                        "Mismatching shapes: existing tensor = %s, trying to "
                        "add name %.*s, shape = %s",
                        pbw_cstr(&a), (int)it->name_len, it->name, pbw_cstr(&b));
        tfe_pbw_free(&a);
        tfe_pbw_free(&b);
        goto done;
      }
      if (m->dtype != dt) {
        tfe_status_setf(status, TF_INTERNAL,
                        "Mismatching types: existing type = %s, trying to add "
                        "name %.*s, type = %s",
                        tfe_ckpt_dtype_name(m->dtype), (int)it->name_len,
                        it->name, tfe_ckpt_dtype_name(dt));
        goto done;
      }
    } else {
      m = &metas[nmeta++];
      m->name = it->name;
      m->name_len = it->name_len;
      m->dims = it->full_dims;
      m->rank = it->rank;
      m->dtype = dt;
    }
    tfe_tslice_to_proto(it->slice, &sp);
    tfe_pbw_lenfield(&m->slices, 4, sp.data, sp.len);
    if (!tfe_tslice_shape(it->slice, it->full_dims, it->rank, &sshape, status)) {
      tfe_pbw_free(&sp);
      goto done;
    }
    for (k = 0; k < it->rank; k++) count *= sshape[k];
    tfe_free(sshape);
    {
      size_t per = max_bytes_per_element(dt);
      size_t bound = it->name_len + sp.len + 16 + 1024;
      if (dt == TF_STRING) {
        const TF_TString* s = (const TF_TString*)TF_TensorData(it->t);
        int64_t j;
        bound += (size_t)count * 10;
        for (j = 0; j < count; j++) bound += TF_TString_GetSize(&s[j]);
      } else if (per == 0) {
        tfe_pbw_free(&sp);
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Tensor slice serialization not implemented for dtype "
                        "%d",
                        (int)dt);
        goto done;
      } else {
        bound += per * (size_t)count;
      }
      if (bound > ((size_t)1 << 31)) {
        tfe_pbw_free(&sp);
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Tensor slice is too large to serialize (conservative "
                        "estimate: %zu bytes)",
                        bound);
        goto done;
      }
    }
    /* SavedSlice {name, slice, data} inside SavedTensorSlices.data. */
    if (it->name_len > 0) tfe_pbw_lenfield(&ss, 1, it->name, it->name_len);
    tfe_pbw_lenfield(&ss, 2, sp.data, sp.len);
    tfe_pbw_free(&sp);
    fill_values(dt, TF_TensorData(it->t), count, &data);
    tfe_pbw_sub(&ss, 3, &data);
    tfe_tslice_encode_key(it->name, it->name_len, it->slice, &key);
    {
      int dup = 0;
      for (k = 0; k < nrec; k++) {
        if (recs[k].key_len == key.len &&
            memcmp(recs[k].key, key.data, key.len) == 0) {
          dup = 1; /* TF keeps the first record of a key */
          break;
        }
      }
      if (!dup) {
        v1_record* rec = &recs[nrec];
        tfe_pbw_sub(&rec->value, 2, &ss);
        rec->key = (char*)key.data;
        rec->key_len = key.len;
        key.data = NULL;
        nrec++;
        if (rec->value.oom || rec->key == NULL) {
          tfe_pbw_free(&key);
          goto oom;
        }
      }
    }
    tfe_pbw_free(&ss);
    tfe_pbw_free(&key);
    if (m->slices.oom) goto oom;
  }
  /* The meta record: SavedTensorSlices { meta { tensor..., versions } }. */
  for (i = 0; i < nmeta; i++) {
    tfe_pbw t = {0}, shape = {0};
    int d;
    v1_meta* m = &metas[i];
    if (m->name_len > 0) tfe_pbw_lenfield(&t, 1, m->name, m->name_len);
    for (d = 0; d < m->rank; d++) {
      tfe_pbw dim = {0};
      if (m->dims[d] != 0) tfe_pbw_uint(&dim, 1, (uint64_t)m->dims[d]);
      tfe_pbw_sub(&shape, 2, &dim);
    }
    tfe_pbw_sub(&t, 2, &shape);
    if (m->dtype != 0) tfe_pbw_uint(&t, 3, (uint64_t)m->dtype);
    tfe_pbw_bytes(&t, m->slices.data, m->slices.len);
    tfe_pbw_sub(&meta, 1, &t);
  }
  {
    tfe_pbw ver = {0};
    tfe_pbw_uint(&ver, 1, V1_VERSION);
    tfe_pbw_sub(&meta, 2, &ver);
  }
  tfe_pbw_sub(&sts, 1, &meta);
  if (sts.oom) goto oom;
  if (nrec > 1) qsort(recs, (size_t)nrec, sizeof(v1_record), cmp_records);
  rows = (tfe_table_entry*)tfe_calloc((size_t)nrec + 1, sizeof(*rows));
  if (rows == NULL) goto oom;
  rows[0].key = (char*)"";
  rows[0].value = sts.data;
  rows[0].value_len = sts.len;
  for (i = 0; i < nrec; i++) {
    rows[i + 1].key = recs[i].key;
    rows[i + 1].key_len = recs[i].key_len;
    rows[i + 1].value = recs[i].value.data != NULL ? recs[i].value.data
                                                   : (unsigned char*)"";
    rows[i + 1].value_len = recs[i].value.len;
  }
  if (tfe_table_build(rows, (size_t)nrec + 1, &file, &flen) != 0) goto oom;
  tmp = tfe_ckpt_temp_name(filename);
  if (tmp == NULL) goto oom;
  if (!tfe_ckpt_write_file(tmp, file, flen, status)) {
    TF_Status st;
    tfe_scratch_init(&st);
    tfe_fs_delete_file(tmp, &st);
    tfe_scratch_release(&st);
    goto done;
  }
  tfe_fs_rename(tmp, filename, status);
  if (TF_GetCode(status) != TF_OK) {
    TF_Status st;
    tfe_scratch_init(&st);
    tfe_fs_delete_file(tmp, &st);
    tfe_scratch_release(&st);
    goto done;
  }
  ok = 1;
  goto done;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                  "out of memory writing checkpoint %s", filename);
done:
  tfe_free(tmp);
  tfe_free(file);
  tfe_free(rows);
  tfe_pbw_free(&sts);
  tfe_pbw_free(&meta);
  for (i = 0; i < nrec; i++) {
    tfe_free(recs[i].key);
    tfe_pbw_free(&recs[i].value);
  }
  if (metas != NULL)
    for (i = 0; i < n; i++) tfe_pbw_free(&metas[i].slices);
  tfe_free(recs);
  tfe_free(metas);
  tfe_free(order);
  if (ok) tfe_status_ok(status);
  return ok;
}

/* ------------------------------------------------------------------------
 * Reading. */

typedef struct {
  char* name;
  size_t name_len;
  TF_DataType dtype;
  int64_t* dims;
  int rank;
  int nslices;
  tfe_tslice* slices;
  int* file_of; /* which file holds each slice */
} v1_tensor;

typedef struct {
  tfe_table_entry* rows;
  size_t count;
} v1_file;

struct tfe_v1_reader {
  v1_file* files;
  int nfiles;
  v1_tensor* tensors;
  int ntensors, cap;
};

void tfe_v1_reader_free(tfe_v1_reader* r) {
  int i, j;
  if (r == NULL) return;
  for (i = 0; i < r->nfiles; i++)
    tfe_table_entries_free(r->files[i].rows, r->files[i].count);
  for (i = 0; i < r->ntensors; i++) {
    v1_tensor* t = &r->tensors[i];
    for (j = 0; j < t->nslices; j++) tfe_tslice_free(&t->slices[j]);
    tfe_free(t->slices);
    tfe_free(t->file_of);
    tfe_free(t->dims);
    tfe_free(t->name);
  }
  tfe_free(r->tensors);
  tfe_free(r->files);
  tfe_free(r);
}

static v1_tensor* find_tensor(tfe_v1_reader* r, const char* name, size_t n) {
  int i;
  for (i = 0; i < r->ntensors; i++) {
    if (r->tensors[i].name_len == n && memcmp(r->tensors[i].name, name, n) == 0)
      return &r->tensors[i];
  }
  return NULL;
}

/* TF's RegisterTensorSlice. */
static int register_slice(tfe_v1_reader* r, const char* name, size_t nlen,
                          const int64_t* dims, int rank, TF_DataType dtype,
                          tfe_tslice* slice, int file, TF_Status* status) {
  v1_tensor* t = find_tensor(r, name, nlen);
  int64_t* sshape = NULL;
  int j;
  if (t == NULL) {
    if (r->ntensors == r->cap) {
      int nc = r->cap ? r->cap * 2 : 16;
      v1_tensor* ts = (v1_tensor*)tfe_realloc(r->tensors, (size_t)nc * sizeof(v1_tensor));
      if (ts == NULL) goto oom;
      r->tensors = ts;
      r->cap = nc;
    }
    t = &r->tensors[r->ntensors];
    memset(t, 0, sizeof(*t));
    t->name = (char*)tfe_malloc(nlen + 1);
    if (t->name == NULL) goto oom;
    memcpy(t->name, name, nlen);
    t->name[nlen] = '\0';
    t->name_len = nlen;
    t->dtype = dtype;
    t->rank = rank;
    if (rank > 0) {
      t->dims = (int64_t*)tfe_malloc((size_t)rank * sizeof(int64_t));
      if (t->dims == NULL) {
        tfe_free(t->name);
        goto oom;
      }
      memcpy(t->dims, dims, (size_t)rank * sizeof(int64_t));
    }
    r->ntensors++;
  } else {
    int same = t->rank == rank &&
               (rank == 0 || memcmp(t->dims, dims, (size_t)rank * sizeof(int64_t)) == 0);
    if (!same) {
      tfe_pbw a = {0}, b = {0};
      tfe_ckpt_shape_str(t->dims, t->rank, &a);
      tfe_ckpt_shape_str(dims, rank, &b);
      tfe_status_setf(status, TF_INTERNAL,
                      "Incompatible tensor shapes detected for tensor %.*s: "
                      "existing = %s, new = %s",
                      (int)nlen, name, pbw_cstr(&a), pbw_cstr(&b));
      tfe_pbw_free(&a);
      tfe_pbw_free(&b);
      return 0;
    }
    if (t->dtype != dtype) {
      tfe_status_setf(status, TF_INTERNAL,
                      "Incompatible tensor types detected for tensor %.*s: "
                      "existing = %s, new = %s",
                      (int)nlen, name, tfe_ckpt_dtype_name(t->dtype),
                      tfe_ckpt_dtype_name(dtype));
      return 0;
    }
  }
  if (!tfe_tslice_shape(slice, t->dims, t->rank, &sshape, status)) return 0;
  tfe_free(sshape);
  for (j = 0; j < t->nslices; j++) {
    if (tfe_tslice_intersect(slice, &t->slices[j], NULL)) {
      tfe_pbw a = {0}, b = {0};
      tfe_tslice_debug(&t->slices[j], &a);
      tfe_tslice_debug(slice, &b);
      tfe_status_setf(status, TF_INTERNAL,
                      "Overlapping slices: existing slice = %s, new slice = %s",
                      pbw_cstr(&a), pbw_cstr(&b));
      tfe_pbw_free(&a);
      tfe_pbw_free(&b);
      return 0;
    }
  }
  {
    tfe_tslice* ns = (tfe_tslice*)tfe_realloc(
        t->slices, (size_t)(t->nslices + 1) * sizeof(tfe_tslice));
    int* nf;
    if (ns == NULL) goto oom;
    t->slices = ns;
    nf = (int*)tfe_realloc(t->file_of, (size_t)(t->nslices + 1) * sizeof(int));
    if (nf == NULL) goto oom;
    t->file_of = nf;
    t->slices[t->nslices] = *slice;
    slice->se = NULL;
    slice->rank = 0;
    t->file_of[t->nslices] = file;
    t->nslices++;
  }
  return 1;
oom:
  tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
  return 0;
}

static const tfe_table_entry* file_get(const v1_file* f, const char* key,
                                       size_t n) {
  size_t lo = 0, hi = f->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = tfe_table_key_cmp(f->rows[mid].key, f->rows[mid].key_len, key, n);
    if (c == 0) return &f->rows[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

/* Checks that `fname` ends in a table footer (TF's Table::Open messages):
 * 1 when it does, 0 (DATA_LOSS in st) when it is not a table, -1 when the
 * file could not be read (the filesystem's status in st). */
static int footer_ok(const char* fname, TF_Status* st) {
  int64_t size = tfe_fs_file_size(fname, st);
  tfe_raf* f;
  unsigned char foot[8];
  static const unsigned char magic[8] = {0x57, 0xfb, 0x80, 0x8b,
                                         0x24, 0x75, 0x47, 0xdb};
  if (size < 0) return -1;
  if (size < 48) {
    TF_SetStatus(st, TF_DATA_LOSS, "file is too short to be an sstable");
    return 0;
  }
  f = tfe_fs_open_raf(fname, st);
  if (f == NULL) return -1;
  if (tfe_fs_raf_read(f, (uint64_t)size - 8, 8, (char*)foot, st) != 8) {
    tfe_fs_raf_release(f);
    if (TF_GetCode(st) == TF_OK)
      TF_SetStatus(st, TF_DATA_LOSS, "truncated block read");
    return -1;
  }
  tfe_fs_raf_release(f);
  if (memcmp(foot, magic, 8) != 0) {
    TF_SetStatus(st, TF_DATA_LOSS, "not an sstable (bad magic number)");
    return 0;
  }
  TF_SetStatus(st, TF_OK, "");
  return 1;
}

/* Loads one file's meta (TF's LoadShard). */
static int load_file(tfe_v1_reader* r, int idx, const char* fname,
                     TF_Status* status) {
  v1_file* f = &r->files[idx];
  unsigned char* bytes;
  size_t len;
  long failed;
  const tfe_table_entry* head;
  tfe_pbr rd, meta;
  int have_meta = 0;
  int64_t producer = 0, min_consumer = 0;
  int bad_consumer = 0, rc;
  TF_Status* st = TF_NewStatus();
  if (st == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  /* A file that does not end in a table footer is refused before it is
   * read whole (a pattern may match large files of other kinds). */
  bytes = NULL;
  rc = footer_ok(fname, st);
  if (rc == 0) {
    char msg[512];
    snprintf(msg, sizeof msg,
             "%s: perhaps your file is in a different file format and you "
             "need to use a different restore operator?",
             TF_Message(st));
    TF_SetStatus(st, TF_GetCode(st), msg);
  } else if (rc == 1) {
    bytes = tfe_ckpt_read_file(fname, &len, st);
  }
  if (bytes != NULL &&
      tfe_table_read_all(bytes, len, &f->rows, &f->count, &failed, st) != 0) {
    /* TF appends a hint to the table's own message. */
    char msg[512];
    snprintf(msg, sizeof msg,
             "%s: perhaps your file is in a different file format and you "
             "need to use a different restore operator?",
             TF_Message(st));
    TF_SetStatus(st, TF_GetCode(st), msg);
  }
  tfe_free(bytes);
  if (TF_GetCode(st) != TF_OK) {
    tfe_pbw why = {0};
    tfe_ckpt_status_string(st, &why);
    tfe_status_setf(status, TF_DATA_LOSS, "Unable to open table file %s: %s",
                    fname, pbw_cstr(&why));
    tfe_pbw_free(&why);
    TF_DeleteStatus(st);
    return 0;
  }
  TF_DeleteStatus(st);
  head = file_get(f, "", 0);
  if (head != NULL) {
    rd.p = head->value;
    rd.end = head->value + head->value_len;
    have_meta = 1;
    meta.p = meta.end = NULL;
    while (have_meta && rd.p < rd.end) {
      int fl, w;
      if (!tfe_pbr_tag(&rd, &fl, &w)) have_meta = 0;
      else if (fl == 1 && w == 2) {
        if (!tfe_pbr_len(&rd, &meta)) have_meta = 0;
      } else if (!tfe_pbr_skip(&rd, fl, w)) {
        have_meta = 0;
      }
    }
    if (have_meta && meta.p != NULL) {
      /* Versions first (TF checks them before registering slices). */
      tfe_pbr m2 = meta;
      while (have_meta && m2.p < m2.end) {
        int fl, w;
        if (!tfe_pbr_tag(&m2, &fl, &w)) have_meta = 0;
        else if (fl == 2 && w == 2) {
          tfe_pbr ver;
          if (!tfe_pbr_len(&m2, &ver)) {
            have_meta = 0;
            break;
          }
          while (ver.p < ver.end) {
            int g, x;
            uint64_t v;
            if (!tfe_pbr_tag(&ver, &g, &x)) {
              have_meta = 0;
              break;
            }
            if (g >= 1 && g <= 3 && x == 0) {
              if (!tfe_pbr_varint(&ver, &v)) {
                have_meta = 0;
                break;
              }
              if (g == 1) producer = (int32_t)v;
              if (g == 2) min_consumer = (int32_t)v;
              if (g == 3 && (int32_t)v == V1_VERSION) bad_consumer = 1;
            } else if (!tfe_pbr_skip(&ver, g, x)) {
              have_meta = 0;
              break;
            }
          }
        } else if (!tfe_pbr_skip(&m2, fl, w)) {
          have_meta = 0;
        }
      }
    }
  }
  if (!have_meta) {
    tfe_status_setf(status, TF_INTERNAL,
                    "Failed to find the saved tensor slices at the beginning "
                    "of the checkpoint file: %s",
                    fname);
    return 0;
  }
  if (producer < V1_MIN_PRODUCER) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Checkpoint producer version %lld below min producer %d "
                    "supported by TensorFlow. Please regenerate your "
                    "checkpoint.",
                    (long long)producer, V1_MIN_PRODUCER);
    return 0;
  }
  if (min_consumer > V1_VERSION) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Checkpoint min consumer version %lld above current "
                    "version %d for TensorFlow. Please upgrade TensorFlow.",
                    (long long)min_consumer, V1_VERSION);
    return 0;
  }
  if (bad_consumer) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Checkpoint disallows consumer version %d. Please upgrade "
                    "TensorFlow: this version is likely buggy.",
                    V1_VERSION);
    return 0;
  }
  /* Each SavedSliceMeta: name, shape, type, slices. */
  while (meta.p != NULL && meta.p < meta.end) {
    int fl, w;
    tfe_pbr t;
    if (!tfe_pbr_tag(&meta, &fl, &w)) goto bad_meta;
    if (!(fl == 1 && w == 2)) {
      if (!tfe_pbr_skip(&meta, fl, w)) goto bad_meta;
      continue;
    }
    if (!tfe_pbr_len(&meta, &t)) goto bad_meta;
    {
      const char* name = "";
      size_t nlen = 0;
      int64_t dims[256];
      int rank = 0, unknown = 0, g, x;
      TF_DataType dtype = (TF_DataType)0;
      tfe_pbr scan = t;
      while (scan.p < scan.end) {
        if (!tfe_pbr_tag(&scan, &g, &x)) goto bad_meta;
        if (g == 1 && x == 2) {
          tfe_pbr s;
          if (!tfe_pbr_len(&scan, &s)) goto bad_meta;
          name = (const char*)s.p;
          nlen = (size_t)(s.end - s.p);
        } else if (g == 2 && x == 2) {
          tfe_pbr sh;
          if (!tfe_pbr_len(&scan, &sh)) goto bad_meta;
          rank = 0;
          while (sh.p < sh.end) {
            int h, y;
            if (!tfe_pbr_tag(&sh, &h, &y)) goto bad_meta;
            if (h == 2 && y == 2) {
              tfe_pbr dim;
              int64_t size = 0;
              if (!tfe_pbr_len(&sh, &dim)) goto bad_meta;
              while (dim.p < dim.end) {
                int q, z;
                uint64_t v;
                if (!tfe_pbr_tag(&dim, &q, &z)) goto bad_meta;
                if (q == 1 && z == 0) {
                  if (!tfe_pbr_varint(&dim, &v)) goto bad_meta;
                  size = (int64_t)v;
                } else if (!tfe_pbr_skip(&dim, q, z)) {
                  goto bad_meta;
                }
              }
              if (rank >= 254 || size < 0) goto bad_meta;
              dims[rank++] = size;
            } else if (h == 3 && y == 0) {
              uint64_t v;
              if (!tfe_pbr_varint(&sh, &v)) goto bad_meta;
              unknown = v != 0;
            } else if (!tfe_pbr_skip(&sh, h, y)) {
              goto bad_meta;
            }
          }
        } else if (g == 3 && x == 0) {
          uint64_t v;
          if (!tfe_pbr_varint(&scan, &v)) goto bad_meta;
          dtype = (TF_DataType)(int32_t)v;
        } else if (!tfe_pbr_skip(&scan, g, x)) {
          goto bad_meta;
        }
      }
      if (unknown) goto bad_meta;
      {
        int64_t total = 1;
        int d;
        for (d = 0; d < rank; d++) {
          if (dims[d] > 0 && total > INT64_MAX / dims[d]) goto bad_meta;
          total *= dims[d];
        }
      }
      scan = t;
      while (scan.p < scan.end) {
        if (!tfe_pbr_tag(&scan, &g, &x)) goto bad_meta;
        if (g == 4 && x == 2) {
          tfe_pbr s;
          tfe_tslice sl;
          if (!tfe_pbr_len(&scan, &s)) goto bad_meta;
          if (!tfe_tslice_from_proto(s.p, (size_t)(s.end - s.p), &sl))
            goto bad_meta;
          if (!register_slice(r, name, nlen, dims, rank, dtype, &sl, idx,
                              status)) {
            tfe_tslice_free(&sl);
            return 0;
          }
        } else if (!tfe_pbr_skip(&scan, g, x)) {
          goto bad_meta;
        }
      }
    }
  }
  return 1;
bad_meta:
  tfe_status_setf(status, TF_DATA_LOSS,
                  "Malformed tensor metadata in checkpoint file %s", fname);
  return 0;
}

tfe_v1_reader* tfe_v1_reader_open(const char* pattern, TF_Status* status) {
  tfe_strvec m = {NULL, 0, 0};
  tfe_v1_reader* r;
  size_t i;
  TF_Status* st = TF_NewStatus();
  if (st == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  tfe_fs_glob(pattern, &m, st);
  if (TF_GetCode(st) != TF_OK) {
    tfe_pbw why = {0};
    tfe_ckpt_status_string(st, &why);
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Unsuccessful TensorSliceReader constructor: Failed to get "
                    "matching files on %s: %s",
                    pattern, pbw_cstr(&why));
    tfe_pbw_free(&why);
    TF_DeleteStatus(st);
    tfe_strvec_free(&m);
    return NULL;
  }
  TF_DeleteStatus(st);
  if (m.count == 0) {
    tfe_status_setf(status, TF_NOT_FOUND,
                    "Unsuccessful TensorSliceReader constructor: Failed to "
                    "find any matching files for %s",
                    pattern);
    tfe_strvec_free(&m);
    return NULL;
  }
  r = (tfe_v1_reader*)tfe_calloc(1, sizeof(*r));
  if (r == NULL ||
      (r->files = (v1_file*)tfe_calloc(m.count, sizeof(v1_file))) == NULL) {
    tfe_free(r);
    tfe_strvec_free(&m);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  r->nfiles = (int)m.count;
  for (i = 0; i < m.count; i++) {
    if (!load_file(r, (int)i, m.items[i], status)) {
      tfe_strvec_free(&m);
      tfe_v1_reader_free(r);
      return NULL;
    }
  }
  tfe_strvec_free(&m);
  tfe_status_ok(status);
  return r;
}

int tfe_v1_reader_has(tfe_v1_reader* r, const char* name, size_t len,
                      TF_DataType* dtype, const int64_t** dims, int* rank) {
  v1_tensor* t = find_tensor(r, name, len);
  if (t == NULL) return 0;
  *dtype = t->dtype;
  *dims = t->dims;
  *rank = t->rank;
  return 1;
}

static int64_t prod(const int64_t* d, int n) {
  int64_t p = 1;
  int i;
  for (i = 0; i < n; i++) p *= d[i];
  return p;
}

int tfe_v1_reader_copy(tfe_v1_reader* r, const char* name, size_t len,
                       const tfe_tslice* spec, TF_Tensor* out,
                       TF_Status* status) {
  v1_tensor* t = find_tensor(r, name, len);
  int* use = NULL;
  int nuse = 0, i, ok = 0;
  int64_t* target = NULL;
  TF_Status* st = TF_NewStatus();
  size_t esize;
  if (st == NULL || t == NULL) goto fail;
  esize = t->dtype == TF_STRING ? sizeof(TF_TString) : TF_DataTypeSize(t->dtype);
  if (esize == 0) goto fail;
  use = (int*)tfe_calloc((size_t)t->nslices + 1, sizeof(int));
  if (use == NULL) goto fail;
  for (i = 0; i < t->nslices; i++) {
    if (tfe_tslice_equal(&t->slices[i], spec)) {
      use[nuse++] = i;
      break;
    }
  }
  if (nuse == 0) {
    int64_t total, overlap = 0;
    if (!tfe_tslice_shape(spec, t->dims, t->rank, &target, st)) goto fail;
    total = prod(target, t->rank);
    for (i = 0; i < t->nslices; i++) {
      tfe_tslice inter;
      int64_t* ishape = NULL;
      if (!tfe_tslice_intersect(spec, &t->slices[i], &inter)) continue;
      if (tfe_tslice_shape(&inter, t->dims, t->rank, &ishape, st)) {
        overlap += prod(ishape, t->rank);
        use[nuse++] = i;
      }
      tfe_free(ishape);
      tfe_tslice_free(&inter);
    }
    if (total != overlap) goto fail;
  }
  if (t->rank > 8) goto fail; /* TF's slice copies stop at rank 8 */
  for (i = 0; i < nuse; i++) {
    const tfe_tslice* sl = &t->slices[use[i]];
    const v1_file* f = &r->files[t->file_of[use[i]]];
    tfe_pbw key = {0};
    const tfe_table_entry* rec;
    int64_t* sshape = NULL;
    int64_t count;
    void* buf;
    tfe_pbr rd, data, values;
    int found = 0;
    tfe_tslice_encode_key(t->name, t->name_len, sl, &key);
    rec = key.oom ? NULL : file_get(f, (const char*)key.data, key.len);
    tfe_pbw_free(&key);
    if (rec == NULL) goto fail;
    if (!tfe_tslice_shape(sl, t->dims, t->rank, &sshape, st)) goto fail;
    count = prod(sshape, t->rank);
    tfe_free(sshape);
    /* SavedTensorSlices.data (2) -> SavedSlice.data (3): TensorProto. */
    rd.p = rec->value;
    rd.end = rec->value + rec->value_len;
    values.p = values.end = NULL;
    while (rd.p < rd.end) {
      int fl, w;
      if (!tfe_pbr_tag(&rd, &fl, &w)) goto fail;
      if (fl == 2 && w == 2) {
        if (!tfe_pbr_len(&rd, &data)) goto fail;
        while (data.p < data.end) {
          int g, x;
          if (!tfe_pbr_tag(&data, &g, &x)) goto fail;
          if (g == 3 && x == 2) {
            if (!tfe_pbr_len(&data, &values)) goto fail;
            found = 1;
          } else if (!tfe_pbr_skip(&data, g, x)) {
            goto fail;
          }
        }
      } else if (!tfe_pbr_skip(&rd, fl, w)) {
        goto fail;
      }
    }
    if (!found) {
      values.p = values.end = rec->value; /* an empty TensorProto */
    }
    if (count > 0 && (uint64_t)count > (uint64_t)(SIZE_MAX / esize / 2)) goto fail;
    buf = tfe_calloc((size_t)(count > 0 ? count : 1), esize);
    if (buf == NULL) goto fail;
    if (!decode_values(values.p, (size_t)(values.end - values.p), t->dtype,
                       count, buf)) {
      if (t->dtype == TF_STRING) {
        int64_t j;
        for (j = 0; j < count; j++) TF_TString_Dealloc(&((TF_TString*)buf)[j]);
      }
      tfe_free(buf);
      goto fail;
    }
    tfe_tslice_copy_data(t->dims, t->rank, sl, spec, t->dtype, esize, buf,
                         TF_TensorData(out));
    if (t->dtype == TF_STRING) {
      int64_t j;
      for (j = 0; j < count; j++) TF_TString_Dealloc(&((TF_TString*)buf)[j]);
    }
    tfe_free(buf);
  }
  ok = 1;
fail:
  if (!ok)
    tfe_status_setf(status, TF_INVALID_ARGUMENT, "Error copying slice data");
  else
    tfe_status_ok(status);
  TF_DeleteStatus(st);
  tfe_free(target);
  tfe_free(use);
  return ok;
}
