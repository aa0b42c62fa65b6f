/* CPU kernels: TF 1's readers (WholeFileReader, TextLineReader,
 * TFRecordReader, FixedLengthRecordReader, IdentityReader, each in its
 * Ref(string) and V2 resource form; LMDBReader) and the Reader* ops, with
 * TF 2.21's semantics.
 *
 * A reader is an object made by its maker op the way TF's
 * ResourceOpKernel makes one (dataflow2_common.h's df2_maker: per node and
 * context, registered under container/shared_name). It keeps TF's
 * ReaderBase state: work units started and finished, records produced and
 * the current work unit (a file name taken from a queue). A Read takes the
 * next work unit from the queue when none is in progress, by running the
 * queue's own dequeue kernel (QueueDequeueV2 / QueueDequeue), so a read
 * from an empty queue waits like a dequeue (and is cancellable), and a
 * closed empty queue gives the dequeue's OUT_OF_RANGE. Files are read
 * whole through the filesystem registry when their work unit starts.
 *
 * Keys: WholeFileReader and IdentityReader use the work unit itself;
 * TextLineReader "<file>:<line>" (lines counted from 1, header lines
 * included); FixedLengthRecordReader "<file>:<record index>";
 * TFRecordReader "<file>:<byte offset of the record>". Only the
 * WholeFileReader and IdentityReader serialize and restore their state (a
 * ReaderBaseState proto), as in TF; the others say UNIMPLEMENTED as TF's
 * do. LMDBReader fails with UNIMPLEMENTED, as TF 2.21's (which no longer
 * reads LMDB). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "graph/checkpoint_ops.h"
#include "graph/checkpoint_table.h"
#include "kernels/cpu/dataflow2_common.h"
#include "kernels/cpu/io_summary.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/parsing_inflate.h"
#include "ops/op_registry.h"

enum { RD_WHOLE, RD_TEXT, RD_TFRECORD, RD_FIXED, RD_IDENTITY };

typedef struct reader {
  pthread_mutex_t mu;
  int type;
  char* name;
  /* attrs */
  int64_t skip_header_lines;
  int compression; /* 0 none, 1 zlib, 2 gzip */
  int64_t header_bytes, record_bytes, footer_bytes, hop_bytes;
  /* ReaderBase state */
  int64_t work_started, work_finished, produced;
  char* work;
  size_t work_len;
  /* the current file */
  unsigned char* data;
  size_t len, pos;
  int64_t counter; /* line or record number */
} reader;

static void reader_clear_file(reader* r) {
  tfe_free(r->data);
  r->data = NULL;
  r->len = 0;
  r->pos = 0;
  r->counter = 0;
}

static void reader_free(void* obj) {
  reader* r = (reader*)obj;
  if (r == NULL) return;
  reader_clear_file(r);
  tfe_free(r->work);
  tfe_free(r->name);
  pthread_mutex_destroy(&r->mu);
  tfe_free(r);
}

static int compression_of(const char* s) {
  if (strcmp(s, "ZLIB") == 0) return 1;
  if (strcmp(s, "GZIP") == 0) return 2;
  return 0;
}

static void* reader_make(tfe_kernel_context* k, const char* name) {
  const char* op = k->op_def->name;
  reader* r;
  const char* str = "";
  size_t len;
  if (strncmp(op, "LMDBReader", 10) == 0) {
    /* TF 2.21 dropped LMDB too; the message is its kernel's */
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "LMDB support is removed from TensorFlow. This API will be "
               "deleted in the next TensorFlow release. If you need LMDB "
               "support, please file a GitHub issue.");
    return NULL;
  }
  r = (reader*)tfe_calloc(1, sizeof *r);
  if (r == NULL) goto oom;
  pthread_mutex_init(&r->mu, NULL);
  {
    /* TF's reader name: "<type> '<node>'" (the node is the op in eager). */
    const char* node = k->node_name != NULL ? k->node_name : op;
    size_t tl = strlen(op), cap;
    if (tl > 2 && strcmp(op + tl - 2, "V2") == 0) tl -= 2;
    cap = tl + strlen(node) + 4;
    r->name = (char*)tfe_malloc(cap);
    if (r->name == NULL) goto oom;
    snprintf(r->name, cap, "%.*s '%s'", (int)tl, op, node);
  }
  (void)name;
  if (strncmp(op, "WholeFileReader", 15) == 0) {
    r->type = RD_WHOLE;
  } else if (strncmp(op, "TextLineReader", 14) == 0) {
    r->type = RD_TEXT;
    r->skip_header_lines = kutil_attr_int64(k, "skip_header_lines", 0);
  } else if (strncmp(op, "TFRecordReader", 14) == 0) {
    r->type = RD_TFRECORD;
    if (k->attrs != NULL) {
      tfe_attrs_get_string(k->attrs, "compression_type", &str, &len, NULL);
    }
    r->compression = compression_of(str);
  } else if (strncmp(op, "FixedLengthRecordReader", 23) == 0) {
    r->type = RD_FIXED;
    r->header_bytes = kutil_attr_int64(k, "header_bytes", 0);
    r->record_bytes = kutil_attr_int64(k, "record_bytes", 0);
    r->footer_bytes = kutil_attr_int64(k, "footer_bytes", 0);
    r->hop_bytes = kutil_attr_int64(k, "hop_bytes", 0);
    if (k->attrs != NULL) {
      tfe_attrs_get_string(k->attrs, "encoding", &str, &len, NULL);
    }
    r->compression = compression_of(str);
    if (r->header_bytes < 0 || r->record_bytes <= 0 || r->footer_bytes < 0 ||
        r->hop_bytes < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s: header_bytes, footer_bytes and hop_bytes must be >= 0 "
                 "and record_bytes > 0 (got %lld, %lld, %lld, %lld)",
                 op, (long long)r->header_bytes, (long long)r->footer_bytes,
                 (long long)r->hop_bytes, (long long)r->record_bytes);
      reader_free(r);
      return NULL;
    }
  } else {
    r->type = RD_IDENTITY;
  }
  return r;
oom:
  reader_free(r);
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", op);
  return NULL;
}

static const df2_kind kReaderKind = {"N10tensorflow15ReaderInterfaceE",
                                     reader_make, NULL, reader_free};

static void k_reader_maker_v1(tfe_kernel_context* k) {
  df2_maker_compute(k, &kReaderKind, 1);
}

static void k_reader_maker_v2(tfe_kernel_context* k) {
  df2_maker_compute(k, &kReaderKind, 0);
}

/* ------------------------------------------------------------------------
 * Taking a work unit from the queue (input queue_input) with the queue's
 * own dequeue kernel. */

static int dequeue_work(tfe_kernel_context* k, int queue_input, char** work,
                        size_t* work_len) {
  int ref = k->op_def->inputs[queue_input].is_ref;
  const tfe_op_def* def = tfe_op_lookup(ref ? "QueueDequeue" : "QueueDequeueV2");
  const tfe_kernel_reg* reg;
  tfe_attrs attrs;
  tfe_attr_value v;
  TF_DataType st = TF_STRING;
  tfe_kernel_context c;
  TF_Tensor* ins[1];
  TF_Tensor* outs[1] = {NULL};
  TF_DataType ot[1] = {TF_STRING};
  int ok = 0;
  *work = NULL;
  *work_len = 0;
  if (def == NULL) {
    KUTIL_FAIL(k, TF_INTERNAL, "%s: no queue dequeue op", k->op_def->name);
    return 0;
  }
  tfe_attrs_init(&attrs);
  if (!tfe_attr_value_set_type_list(&v, &st, 1) ||
      !tfe_attrs_put(&attrs, "component_types", &v)) {
    tfe_attrs_destroy(&attrs);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  tfe_attr_value_set_int(&v, -1);
  if (!tfe_attrs_put(&attrs, "timeout_ms", &v)) {
    tfe_attrs_destroy(&attrs);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  reg = tfe_kernel_find(def, "CPU", &attrs, k->status);
  if (reg == NULL) {
    tfe_attrs_destroy(&attrs);
    return 0;
  }
  memset(&c, 0, sizeof c);
  ins[0] = k->inputs[queue_input];
  c.op_def = def;
  c.attrs = &attrs;
  c.inputs = ins;
  c.num_inputs = 1;
  c.outputs = outs;
  c.num_outputs = 1;
  c.output_types = ot;
  c.status = k->status;
  c.user_data = reg->user_data;
  c.eager_ctx = k->eager_ctx;
  c.device_name = k->device_name;
  c.cancel = k->cancel;
  c.node_name = k->node_name;
  reg->compute(&c);
  if (!KUTIL_OK(k)) {
    /* TF's reader checks the dequeued tuple itself; the dequeue kernel
     * reports a queue of another signature as a mismatch. */
    const char* msg = TF_Message(k->status);
    if (TF_GetCode(k->status) == TF_INVALID_ARGUMENT &&
        strncmp(msg, "Signature mismatch", 18) == 0) {
      const char* exp = strstr(msg, "expected: ");
      const char* arrow = exp != NULL ? strstr(exp, "->") : NULL;
      if (arrow != NULL && strchr(arrow, ',') != NULL) {
        TF_SetStatus(k->status, TF_INVALID_ARGUMENT,
                     "Expected single component queue");
      } else {
        TF_SetStatus(k->status, TF_INVALID_ARGUMENT,
                     "Expected queue with single string component");
      }
    }
  } else if (outs[0] == NULL || kutil_num_elements(outs[0]) != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected to dequeue a one-element string tensor");
  } else {
    const TF_TString* s = (const TF_TString*)kutil_data(outs[0]);
    size_t n = TF_TString_GetSize(s);
    *work = (char*)tfe_malloc(n + 1);
    if (*work == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    } else {
      memcpy(*work, TF_TString_GetDataPointer(s), n);
      (*work)[n] = '\0';
      *work_len = n;
      ok = 1;
    }
  }
  if (outs[0] != NULL) TF_DeleteTensor(outs[0]);
  tfe_attrs_destroy(&attrs);
  return ok;
}

/* ------------------------------------------------------------------------
 * Reading */

/* A produced record: key and value as tfe_malloc'd bytes. */
typedef struct rec {
  char* key;
  size_t key_len;
  char* val;
  size_t val_len;
} rec;

static void rec_free(rec* x) {
  tfe_free(x->key);
  tfe_free(x->val);
  memset(x, 0, sizeof *x);
}

static char* dup_bytes(const void* p, size_t n) {
  char* d = (char*)tfe_malloc(n + 1);
  if (d == NULL) return NULL;
  if (n > 0) memcpy(d, p, n);
  d[n] = '\0';
  return d;
}

/* "<work>:<n>" */
static char* key_name(const reader* r, long long n, size_t* len) {
  char buf[32];
  size_t bl = (size_t)snprintf(buf, sizeof buf, ":%lld", n);
  char* d = (char*)tfe_malloc(r->work_len + bl + 1);
  if (d == NULL) return NULL;
  memcpy(d, r->work, r->work_len);
  memcpy(d + r->work_len, buf, bl + 1);
  *len = r->work_len + bl;
  return d;
}

static int load_file(tfe_kernel_context* k, reader* r, int compression) {
  size_t n = 0;
  unsigned char* d;
  reader_clear_file(r);
  d = tfe_ckpt_read_file(r->work, &n, k->status);
  if (d == NULL) return 0;
  if (compression != 0) {
    unsigned char* out = NULL;
    size_t out_len = 0;
    const char* err = NULL;
    int rc = tfe_inflate(d, n, compression == 2, (size_t)1 << 40, &out,
                         &out_len, &err);
    tfe_free(d);
    if (rc != TFE_INFLATE_OK) {
      KUTIL_FAIL(k, TF_DATA_LOSS, "%s: %s", r->work,
                 err != NULL ? err : "out of memory decompressing");
      return 0;
    }
    d = out;
    n = out_len;
  }
  r->data = d;
  r->len = n;
  r->pos = 0;
  return 1;
}

/* TF's OnWorkStartedLocked. */
static int work_started(tfe_kernel_context* k, reader* r) {
  r->counter = 0;
  switch (r->type) {
    case RD_TEXT: {
      if (!load_file(k, r, 0)) return 0;
      while (r->counter < r->skip_header_lines) {
        const unsigned char* nl;
        if (r->pos >= r->len) break; /* end of file while skipping */
        nl = (const unsigned char*)memchr(r->data + r->pos, '\n',
                                          r->len - r->pos);
        r->pos = nl != NULL ? (size_t)(nl - r->data) + 1 : r->len;
        r->counter++;
      }
      return 1;
    }
    case RD_TFRECORD:
      return load_file(k, r, r->compression);
    case RD_FIXED:
      if (!load_file(k, r, r->compression)) return 0;
      r->pos = (size_t)r->header_bytes;
      return 1;
    default:
      reader_clear_file(r);
      return 1;
  }
}

/* TF's ReadLocked: 1 with *produced / *at_end set, or 0 with status. */
static int read_locked(tfe_kernel_context* k, reader* r, rec* out,
                       int* produced, int* at_end) {
  *produced = 0;
  *at_end = 0;
  switch (r->type) {
    case RD_WHOLE: {
      size_t n = 0;
      unsigned char* d = tfe_ckpt_read_file(r->work, &n, k->status);
      if (d == NULL) return 0;
      out->key = dup_bytes(r->work, r->work_len);
      out->key_len = r->work_len;
      out->val = (char*)d;
      out->val_len = n;
      *produced = 1;
      *at_end = 1;
      return out->key != NULL ? 1 : (KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                                                "out of memory"), 0);
    }
    case RD_IDENTITY:
      out->key = dup_bytes(r->work, r->work_len);
      out->val = dup_bytes(r->work, r->work_len);
      out->key_len = out->val_len = r->work_len;
      *produced = 1;
      *at_end = 1;
      if (out->key == NULL || out->val == NULL) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
        return 0;
      }
      return 1;
    case RD_TEXT: {
      const unsigned char* start;
      const unsigned char* nl;
      size_t n;
      if (r->pos >= r->len) {
        *at_end = 1;
        return 1;
      }
      start = r->data + r->pos;
      nl = (const unsigned char*)memchr(start, '\n', r->len - r->pos);
      n = nl != NULL ? (size_t)(nl - start) : r->len - r->pos;
      r->pos += n + (nl != NULL ? 1 : 0);
      if (n > 0 && start[n - 1] == '\r') n--;
      r->counter++;
      out->val = dup_bytes(start, n);
      out->val_len = n;
      out->key = key_name(r, (long long)r->counter, &out->key_len);
      break;
    }
    case RD_FIXED: {
      size_t end = r->len >= (size_t)r->footer_bytes
                       ? r->len - (size_t)r->footer_bytes
                       : 0;
      size_t start = r->pos;
      if (start > end || end - start < (size_t)r->record_bytes) {
        *at_end = 1;
        return 1;
      }
      out->val = dup_bytes(r->data + start, (size_t)r->record_bytes);
      out->val_len = (size_t)r->record_bytes;
      out->key = key_name(r, (long long)r->counter, &out->key_len);
      r->counter++;
      r->pos += (size_t)(r->hop_bytes > 0 ? r->hop_bytes : r->record_bytes);
      break;
    }
    default: { /* RD_TFRECORD */
      size_t off = r->pos, left = r->len - r->pos;
      uint64_t n = 0;
      uint32_t crc;
      int i;
      if (left == 0) {
        *at_end = 1;
        return 1;
      }
      if (left < 12) {
        KUTIL_FAIL(k, TF_DATA_LOSS, "truncated record at %llu",
                   (unsigned long long)off);
        return 0;
      }
      for (i = 0; i < 8; i++) n |= (uint64_t)r->data[off + i] << (8 * i);
      crc = (uint32_t)r->data[off + 8] | ((uint32_t)r->data[off + 9] << 8) |
            ((uint32_t)r->data[off + 10] << 16) |
            ((uint32_t)r->data[off + 11] << 24);
      if (tfe_crc32c_unmask(crc) != tfe_crc32c(r->data + off, 8)) {
        KUTIL_FAIL(k, TF_DATA_LOSS, "corrupted record at %llu",
                   (unsigned long long)off);
        return 0;
      }
      if (n > left - 12 || left - 12 - n < 4) {
        KUTIL_FAIL(k, TF_DATA_LOSS, "truncated record at %llu",
                   (unsigned long long)off);
        return 0;
      }
      {
        const unsigned char* p = r->data + off + 12;
        const unsigned char* q = p + n;
        crc = (uint32_t)q[0] | ((uint32_t)q[1] << 8) | ((uint32_t)q[2] << 16) |
              ((uint32_t)q[3] << 24);
        if (tfe_crc32c_unmask(crc) != tfe_crc32c(p, (size_t)n)) {
          KUTIL_FAIL(k, TF_DATA_LOSS, "corrupted record at %llu",
                     (unsigned long long)off);
          return 0;
        }
        out->val = dup_bytes(p, (size_t)n);
        out->val_len = (size_t)n;
      }
      out->key = key_name(r, (long long)off, &out->key_len);
      r->pos = off + 12 + (size_t)n + 4;
      break;
    }
  }
  if (out->key == NULL || out->val == NULL) {
    rec_free(out);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  *produced = 1;
  return 1;
}

/* TF's ReaderBase::ReadUpTo (Read is the one-record case): reads up to
 * max records into recs (capacity max), returns how many. */
static int64_t read_up_to(tfe_kernel_context* k, reader* r, int64_t max,
                          rec* recs) {
  int64_t got = 0;
  while (got < max) {
    int produced, at_end;
    if (!(r->work_finished < r->work_started)) {
      char* w;
      size_t wl;
      if (!dequeue_work(k, 1, &w, &wl)) return got;
      tfe_free(r->work);
      r->work = w;
      r->work_len = wl;
      if (!work_started(k, r)) return got;
      r->work_started++;
    }
    if (!read_locked(k, r, &recs[got], &produced, &at_end)) return got;
    if (produced) {
      got++;
      r->produced++;
    }
    if (at_end) {
      reader_clear_file(r);
      r->work_finished = r->work_started;
      if (got > 0 && max > 1) return got;
    }
  }
  return got;
}

static reader* reader_of(tfe_kernel_context* k, tfe_resource** res) {
  return (reader*)df2_object_from_input(k, &kReaderKind, res);
}

static int set_str(tfe_kernel_context* k, TF_Tensor* t, int64_t i,
                   const char* p, size_t n) {
  TF_TString_Copy((TF_TString*)kutil_data(t) + i, p != NULL ? p : "", n);
  (void)k;
  return 1;
}

static void k_reader_read(tfe_kernel_context* k) {
  tfe_resource* res;
  reader* r = reader_of(k, &res);
  rec x = {0};
  int64_t got;
  if (r == NULL) return;
  pthread_mutex_lock(&r->mu);
  got = read_up_to(k, r, 1, &x);
  pthread_mutex_unlock(&r->mu);
  if (got == 1 && KUTIL_OK(k)) {
    TF_Tensor* kt = tfe_kernel_alloc_output(k, 0, TF_STRING, NULL, 0);
    TF_Tensor* vt = kt != NULL ? tfe_kernel_alloc_output(k, 1, TF_STRING, NULL, 0)
                               : NULL;
    if (vt != NULL) {
      set_str(k, kt, 0, x.key, x.key_len);
      set_str(k, vt, 0, x.val, x.val_len);
    }
  }
  rec_free(&x);
  tfe_resource_unref(res);
}

static void k_reader_read_up_to(tfe_kernel_context* k) {
  tfe_resource* res;
  reader* r;
  const TF_Tensor* nt = k->inputs[2];
  int64_t want, got, i;
  rec* recs;
  if (kutil_num_elements(nt) != 1) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_records must be a scalar, got shape %s",
               kutil_tshape(nt, &b));
    return;
  }
  want = ((const int64_t*)kutil_data(nt))[0];
  if (want < 0 || want > (1 << 24)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_records must be in [0, 16777216], got %lld",
               (long long)want);
    return;
  }
  r = reader_of(k, &res);
  if (r == NULL) return;
  recs = (rec*)tfe_calloc((size_t)(want > 0 ? want : 1), sizeof(rec));
  if (recs == NULL) {
    tfe_resource_unref(res);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return;
  }
  pthread_mutex_lock(&r->mu);
  got = read_up_to(k, r, want, recs);
  pthread_mutex_unlock(&r->mu);
  if (KUTIL_OK(k)) {
    int64_t dims[1];
    TF_Tensor* kt;
    TF_Tensor* vt;
    dims[0] = got;
    kt = tfe_kernel_alloc_output(k, 0, TF_STRING, dims, 1);
    vt = kt != NULL ? tfe_kernel_alloc_output(k, 1, TF_STRING, dims, 1) : NULL;
    for (i = 0; vt != NULL && i < got; i++) {
      set_str(k, kt, i, recs[i].key, recs[i].key_len);
      set_str(k, vt, i, recs[i].val, recs[i].val_len);
    }
  }
  for (i = 0; i < got; i++) rec_free(&recs[i]);
  tfe_free(recs);
  tfe_resource_unref(res);
}

static void k_num_records(tfe_kernel_context* k) {
  tfe_resource* res;
  reader* r = reader_of(k, &res);
  TF_Tensor* out;
  if (r == NULL) return;
  out = tfe_kernel_alloc_output(k, 0, TF_INT64, NULL, 0);
  if (out != NULL) {
    pthread_mutex_lock(&r->mu);
    ((int64_t*)kutil_data(out))[0] = r->produced;
    pthread_mutex_unlock(&r->mu);
  }
  tfe_resource_unref(res);
}

static void k_num_work_units(tfe_kernel_context* k) {
  tfe_resource* res;
  reader* r = reader_of(k, &res);
  TF_Tensor* out;
  if (r == NULL) return;
  out = tfe_kernel_alloc_output(k, 0, TF_INT64, NULL, 0);
  if (out != NULL) {
    pthread_mutex_lock(&r->mu);
    ((int64_t*)kutil_data(out))[0] = r->work_finished;
    pthread_mutex_unlock(&r->mu);
  }
  tfe_resource_unref(res);
}

static void reset_locked(reader* r) {
  r->work_started = 0;
  r->work_finished = 0;
  r->produced = 0;
  tfe_free(r->work);
  r->work = NULL;
  r->work_len = 0;
  reader_clear_file(r);
}

static void k_reader_reset(tfe_kernel_context* k) {
  tfe_resource* res;
  reader* r = reader_of(k, &res);
  if (r == NULL) return;
  pthread_mutex_lock(&r->mu);
  reset_locked(r);
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(res);
}

static void k_serialize_state(tfe_kernel_context* k) {
  tfe_resource* res;
  reader* r = reader_of(k, &res);
  tfe_pbw b = {0};
  if (r == NULL) return;
  if (r->type != RD_WHOLE && r->type != RD_IDENTITY) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Reader SerializeState");
    tfe_resource_unref(res);
    return;
  }
  pthread_mutex_lock(&r->mu);
  if (r->work_started != 0) tfe_pbw_uint(&b, 1, (uint64_t)r->work_started);
  if (r->work_finished != 0) tfe_pbw_uint(&b, 2, (uint64_t)r->work_finished);
  if (r->produced != 0) tfe_pbw_uint(&b, 3, (uint64_t)r->produced);
  if (r->work_len > 0) tfe_pbw_lenfield(&b, 4, r->work, r->work_len);
  pthread_mutex_unlock(&r->mu);
  if (b.oom) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
  } else {
    iosum_set_string_output(k, 0, b.data != NULL ? (const void*)b.data : "",
                            b.len);
  }
  tfe_pbw_free(&b);
  tfe_resource_unref(res);
}

/* absl::CEscape of n bytes into b. */
static void c_escape(tfe_pbw* b, const unsigned char* p, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) {
    char tmp[8];
    unsigned c = p[i];
    switch (c) {
      case '\n': tfe_pbw_bytes(b, "\\n", 2); break;
      case '\r': tfe_pbw_bytes(b, "\\r", 2); break;
      case '\t': tfe_pbw_bytes(b, "\\t", 2); break;
      case '"': tfe_pbw_bytes(b, "\\\"", 2); break;
      case '\'': tfe_pbw_bytes(b, "\\'", 2); break;
      case '\\': tfe_pbw_bytes(b, "\\\\", 2); break;
      default:
        if (c < 0x20 || c >= 0x7F) {
          snprintf(tmp, sizeof tmp, "\\%03o", c);
          tfe_pbw_bytes(b, tmp, 4);
        } else {
          tmp[0] = (char)c;
          tfe_pbw_bytes(b, tmp, 1);
        }
    }
  }
}

static void k_restore_state(tfe_kernel_context* k) {
  tfe_resource* res;
  reader* r;
  const TF_Tensor* st = k->inputs[1];
  const TF_TString* s;
  tfe_pbr rd;
  int f, w, ok = 1;
  uint64_t v;
  int64_t ws = 0, wf = 0, np = 0;
  const unsigned char* work = NULL;
  size_t work_len = 0;
  if (st->num_dims != 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Reader state must be scalar, but had shape: %s",
               kutil_tshape(st, &b));
    return;
  }
  r = reader_of(k, &res);
  if (r == NULL) return;
  if (r->type != RD_WHOLE && r->type != RD_IDENTITY) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Reader RestoreState");
    pthread_mutex_lock(&r->mu);
    reset_locked(r);
    pthread_mutex_unlock(&r->mu);
    tfe_resource_unref(res);
    return;
  }
  s = (const TF_TString*)kutil_data(st);
  rd.p = (const unsigned char*)TF_TString_GetDataPointer(s);
  rd.end = rd.p + TF_TString_GetSize(s);
  while (ok && rd.p < rd.end) {
    if (!tfe_pbr_tag(&rd, &f, &w)) {
      ok = 0;
    } else if (f >= 1 && f <= 3 && w == 0) {
      if (!tfe_pbr_varint(&rd, &v)) {
        ok = 0;
      } else if (f == 1) {
        ws = (int64_t)v;
      } else if (f == 2) {
        wf = (int64_t)v;
      } else {
        np = (int64_t)v;
      }
    } else if (f == 4 && w == 2) {
      tfe_pbr sub;
      if (!tfe_pbr_len(&rd, &sub)) {
        ok = 0;
      } else {
        work = sub.p;
        work_len = (size_t)(sub.end - sub.p);
      }
    } else if (!tfe_pbr_skip(&rd, f, w)) {
      ok = 0;
    }
  }
  pthread_mutex_lock(&r->mu);
  if (!ok) {
    tfe_pbw e = {0};
    c_escape(&e, (const unsigned char*)TF_TString_GetDataPointer(s),
             TF_TString_GetSize(s));
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Could not parse state for %s: %.*s",
               r->name, (int)e.len, e.data != NULL ? (const char*)e.data : "");
    tfe_pbw_free(&e);
    reset_locked(r);
  } else if (ws < 0 || wf < 0 || np < 0 || ws > wf) {
    /* TF appends the state's protobuf debug text. */
    tfe_pbw e = {0};
    char tmp[64];
    if (ws != 0) {
      snprintf(tmp, sizeof tmp, "work_started: %lld\n", (long long)ws);
      tfe_pbw_bytes(&e, tmp, strlen(tmp));
    }
    if (wf != 0) {
      snprintf(tmp, sizeof tmp, "work_finished: %lld\n", (long long)wf);
      tfe_pbw_bytes(&e, tmp, strlen(tmp));
    }
    if (np != 0) {
      snprintf(tmp, sizeof tmp, "num_records_produced: %lld\n",
               (long long)np);
      tfe_pbw_bytes(&e, tmp, strlen(tmp));
    }
    if (work_len > 0) {
      tfe_pbw_bytes(&e, "current_work: \"", 15);
      c_escape(&e, work, work_len);
      tfe_pbw_bytes(&e, "\"\n", 2);
    }
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s when restoring in %s: %.*s",
               ws > wf && ws >= 0 && wf >= 0 && np >= 0
                   ? "Inconsistent work started vs. finished"
                   : "Unexpected negative value",
               r->name, (int)e.len, e.data != NULL ? (const char*)e.data : "");
    tfe_pbw_free(&e);
    reset_locked(r);
  } else {
    char* wk = dup_bytes(work != NULL ? (const void*)work : "", work_len);
    if (wk == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    } else {
      reset_locked(r);
      r->work_started = ws;
      r->work_finished = wf;
      r->produced = np;
      r->work = wk;
      r->work_len = work_len;
    }
  }
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(res);
}

/* ------------------------------------------------------------------------
 * Registration */

static void reg(const char* op, void (*fn)(tfe_kernel_context*), int maker) {
  tfe_kernel_reg r;
  TF_Status* s = TF_NewStatus();
  memset(&r, 0, sizeof r);
  r.op_name = op;
  r.device_type = "CPU";
  r.compute = fn;
  if (maker) {
    r.create = df2_maker_create;
    r.destroy = df2_maker_destroy;
  }
  if (s != NULL) {
    tfe_kernel_register(&r, s);
    TF_DeleteStatus(s);
  }
}

void tfe_register_cpu_io_summary_reader_kernels(void) {
  static const char* const makers[] = {
      "WholeFileReader", "TextLineReader", "TFRecordReader",
      "FixedLengthRecordReader", "IdentityReader", "LMDBReader"};
  size_t i;
  for (i = 0; i < sizeof makers / sizeof makers[0]; i++) {
    char v2[64];
    reg(makers[i], k_reader_maker_v1, 1);
    snprintf(v2, sizeof v2, "%sV2", makers[i]);
    if (strcmp(makers[i], "LMDBReader") != 0) reg(v2, k_reader_maker_v2, 1);
  }
  reg("ReaderRead", k_reader_read, 0);
  reg("ReaderReadV2", k_reader_read, 0);
  reg("ReaderReadUpTo", k_reader_read_up_to, 0);
  reg("ReaderReadUpToV2", k_reader_read_up_to, 0);
  reg("ReaderNumRecordsProduced", k_num_records, 0);
  reg("ReaderNumRecordsProducedV2", k_num_records, 0);
  reg("ReaderNumWorkUnitsCompleted", k_num_work_units, 0);
  reg("ReaderNumWorkUnitsCompletedV2", k_num_work_units, 0);
  reg("ReaderSerializeState", k_serialize_state, 0);
  reg("ReaderSerializeStateV2", k_serialize_state, 0);
  reg("ReaderRestoreState", k_restore_state, 0);
  reg("ReaderRestoreStateV2", k_restore_state, 0);
  reg("ReaderReset", k_reader_reset, 0);
  reg("ReaderResetV2", k_reader_reset, 0);
}
