/* CPU kernels: TF 2's summary writers with TF 2.21's semantics.
 *
 * SummaryWriter hands out a DT_RESOURCE handle naming (container,
 * shared_name) without making anything. CreateSummaryFileWriter registers a
 * writer under that key unless one is there already (TF's
 * LookupOrCreateResource); the Write* ops, ImportEvent and
 * FlushSummaryWriter look it up (NOT_FOUND with TF's message when there is
 * none) and CloseSummaryWriter flushes it and takes it out of the registry.
 * Writers are resources of kind TFE_RESOURCE_PLUGIN identified by their
 * delete function (writer_free), which flushes and closes the file, so a
 * writer left open is flushed when its context goes away.
 *
 * The file is TF's events file: <logdir>/events.out.tfevents.<seconds>.
 * <host>.<pid>.<n><suffix>, a TFRecord file (length, masked CRC-32C of the
 * length, data, masked CRC-32C of the data) of serialized tensorflow.Event
 * protos. The first record says file_version "brain.Event:2" (with
 * source_metadata.writer as TF writes it) and is flushed at once; later
 * events are queued and written when the queue holds more than max_queue
 * events, when flush_millis have passed since the last flush, on Flush and
 * on Close. Events carry TF's fields in TF's order (wall_time, step,
 * summary or graph_def), so they equal TF's apart from wall_time (PNGs
 * in image summaries decode to TF's pixels; see io_summary_codec.c).
 *
 * CreateSummaryDbWriter (TF's SQLite writer) fails with UNIMPLEMENTED: tfe
 * has no SQLite. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "fs/fs.h"
#include "graph/checkpoint_table.h"
#include "kernels/cpu/io_summary.h"
#include "kernels/cpu/kutil.h"
#include "kernels/resource.h"
#include "tensorflow/c/env.h"

#define WRITER_TYPE_NAME "N10tensorflow22SummaryWriterInterfaceE"

typedef struct sumwriter {
  pthread_mutex_t mu;
  TF_WritableFileHandle* file;
  char* filename;
  int32_t max_queue;
  int32_t flush_millis;
  uint64_t last_flush_us;
  tfe_pbw* queue; /* serialized events not yet written */
  int nq, capq;
} sumwriter;

/* ------------------------------------------------------------------------
 * Events file */

static int write_record(sumwriter* w, const unsigned char* data, size_t n,
                        TF_Status* s) {
  unsigned char hdr[12], ftr[4];
  uint64_t len = n;
  uint32_t c;
  int i;
  for (i = 0; i < 8; i++) hdr[i] = (unsigned char)(len >> (8 * i));
  c = tfe_crc32c_mask(tfe_crc32c(hdr, 8));
  for (i = 0; i < 4; i++) hdr[8 + i] = (unsigned char)(c >> (8 * i));
  c = tfe_crc32c_mask(tfe_crc32c(data, n));
  for (i = 0; i < 4; i++) ftr[i] = (unsigned char)(c >> (8 * i));
  TF_AppendWritableFile(w->file, (const char*)hdr, 12, s);
  if (TF_GetCode(s) == TF_OK && n > 0) {
    TF_AppendWritableFile(w->file, (const char*)data, n, s);
  }
  if (TF_GetCode(s) == TF_OK) {
    TF_AppendWritableFile(w->file, (const char*)ftr, 4, s);
  }
  return TF_GetCode(s) == TF_OK;
}

/* Writes the queued events and flushes the file (hold w->mu). */
static int flush_locked(sumwriter* w, TF_Status* s) {
  int i, ok = 1;
  for (i = 0; i < w->nq; i++) {
    if (ok && w->file != NULL) {
      ok = write_record(w, w->queue[i].data, w->queue[i].len, s);
    }
    tfe_pbw_free(&w->queue[i]);
  }
  w->nq = 0;
  if (ok && w->file != NULL) {
    TF_FlushWritableFile(w->file, s);
    ok = TF_GetCode(s) == TF_OK;
  }
  if (!ok) {
    char msg[1024];
    snprintf(msg, sizeof msg, "%s\n\tCould not flush events file.",
             TF_Message(s));
    TF_SetStatus(s, TF_GetCode(s), msg);
  }
  w->last_flush_us = TF_NowMicros();
  return ok;
}

static void writer_free(void* obj) {
  sumwriter* w = (sumwriter*)obj;
  TF_Status st;
  if (w == NULL) return;
  tfe_scratch_init(&st);
  pthread_mutex_lock(&w->mu);
  flush_locked(w, &st);
  if (w->file != NULL) {
    /* TF_CloseWritableFile also frees the handle. */
    TF_SetStatus(&st, TF_OK, "");
    TF_CloseWritableFile(w->file, &st);
    w->file = NULL;
  }
  pthread_mutex_unlock(&w->mu);
  tfe_scratch_release(&st);
  pthread_mutex_destroy(&w->mu);
  tfe_free(w->queue);
  tfe_free(w->filename);
  tfe_free(w);
}

/* Queues an event (taking its bytes) and flushes when TF would. */
static int writer_add(sumwriter* w, tfe_pbw* ev, TF_Status* s) {
  int ok = 1;
  if (ev->oom) {
    tfe_pbw_free(ev);
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "out of memory writing a summary");
    return 0;
  }
  pthread_mutex_lock(&w->mu);
  if (w->nq == w->capq) {
    int nc = w->capq ? w->capq * 2 : 8;
    tfe_pbw* nq = (tfe_pbw*)tfe_realloc(w->queue, sizeof(tfe_pbw) * (size_t)nc);
    if (nq == NULL) {
      pthread_mutex_unlock(&w->mu);
      tfe_pbw_free(ev);
      TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "out of memory writing a summary");
      return 0;
    }
    w->queue = nq;
    w->capq = nc;
  }
  w->queue[w->nq++] = *ev;
  memset(ev, 0, sizeof *ev);
  if (w->nq > w->max_queue ||
      (int64_t)(TF_NowMicros() - w->last_flush_us) >
          (int64_t)1000 * w->flush_millis) {
    ok = flush_locked(w, s);
  }
  pthread_mutex_unlock(&w->mu);
  return ok;
}

static sumwriter* writer_new(const char* logdir, int32_t max_queue,
                             int32_t flush_millis, const char* suffix,
                             TF_Status* s) {
  static _Atomic long counter;
  sumwriter* w;
  char host[256];
  size_t n = strlen(logdir), cap;
  uint64_t now = TF_NowMicros();
  long long secs = (long long)(now / 1000000u);
  tfe_pbw ev = {0}, meta = {0};
  bool is_dir;
  TF_Status* st = TF_NewStatus();
  if (st == NULL) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  is_dir = tfe_fs_is_directory(logdir, st);
  if (TF_GetCode(st) == TF_FAILED_PRECONDITION) {
    /* A path through a plain file: TF names the file. */
    char* pre = tfe_strdup(logdir);
    size_t i;
    for (i = 1; pre != NULL && pre[i - 1] != '\0'; i++) {
      if (pre[i] == '/' || pre[i] == '\0') {
        char c = pre[i];
        TF_Status* s2 = TF_NewStatus();
        bool d;
        pre[i] = '\0';
        d = s2 != NULL ? tfe_fs_is_directory(pre, s2) : true;
        if (s2 != NULL && TF_GetCode(s2) == TF_OK && !d) {
          TF_DeleteStatus(s2);
          TF_SetStatus(st, TF_FAILED_PRECONDITION, "");
          tfe_status_setf(s, TF_FAILED_PRECONDITION, "%s is not a directory",
                          pre);
          tfe_free(pre);
          TF_DeleteStatus(st);
          return NULL;
        }
        TF_DeleteStatus(s2);
        pre[i] = c;
        if (c == '\0') break;
      }
    }
    tfe_free(pre);
  }
  if (TF_GetCode(st) != TF_OK || !is_dir) {
    if (TF_GetCode(st) == TF_NOT_FOUND) {
      tfe_fs_recursively_create_dir(logdir, s);
      if (TF_GetCode(s) != TF_OK) {
        TF_DeleteStatus(st);
        return NULL;
      }
    } else {
      if (TF_GetCode(st) == TF_OK) {
        TF_SetStatus(s, TF_FAILED_PRECONDITION, "Not a directory");
      } else {
        TF_SetStatus(s, TF_GetCode(st), TF_Message(st));
      }
      TF_DeleteStatus(st);
      return NULL;
    }
  }
  TF_DeleteStatus(st);
  w = (sumwriter*)tfe_calloc(1, sizeof *w);
  if (w == NULL) {
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  pthread_mutex_init(&w->mu, NULL);
  w->max_queue = max_queue;
  w->flush_millis = flush_millis;
  if (gethostname(host, sizeof host) != 0) snprintf(host, sizeof host, "localhost");
  host[sizeof host - 1] = '\0';
  while (n > 1 && logdir[n - 1] == '/') n--;
  cap = n + strlen(host) + strlen(suffix) + 128;
  w->filename = (char*)tfe_malloc(cap);
  if (w->filename == NULL) {
    writer_free(w);
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  /* TF puts a '.' before a suffix that does not start with one (an empty
   * suffix leaves a trailing '.'). */
  snprintf(w->filename, cap,
           "%.*s%sevents.out.tfevents.%010lld.%s.%ld.%ld%s%s", (int)n, logdir,
           (n > 0 && logdir[n - 1] == '/') ? "" : "/", secs, host,
           (long)getpid(), (long)atomic_fetch_add(&counter, 1),
           suffix[0] == '.' ? "" : ".", suffix);
  TF_NewWritableFile(w->filename, &w->file, s);
  if (TF_GetCode(s) != TF_OK) {
    char msg[1200];
    w->file = NULL;
    snprintf(msg, sizeof msg, "%s\n\tCould not initialize events writer.",
             TF_Message(s));
    TF_SetStatus(s, TF_GetCode(s), msg);
    writer_free(w);
    return NULL;
  }
  /* The file's first event: its version, flushed right away. */
  iosum_pb_double(&ev, 1, (double)secs);
  tfe_pbw_str(&ev, 3, "brain.Event:2");
  tfe_pbw_str(&meta, 1, "tensorflow.core.util.events_writer");
  tfe_pbw_sub(&ev, 10, &meta);
  w->last_flush_us = now;
  {
    int saved = w->max_queue;
    w->max_queue = -1; /* force the flush */
    if (!writer_add(w, &ev, s)) {
      writer_free(w);
      return NULL;
    }
    w->max_queue = saved;
  }
  return w;
}

/* ------------------------------------------------------------------------
 * Handles and lookups */

/* 1 when t has exactly one element (TF's scalar<T>() reads such a tensor
 * whatever its shape); else INVALID_ARGUMENT naming the input. */
static int one_elem(tfe_kernel_context* k, int idx, const char* what) {
  const TF_Tensor* t = k->inputs[idx];
  if (kutil_num_elements(t) != 1) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be a scalar, got shape %s",
               what, kutil_tshape(t, &b));
    return 0;
  }
  return 1;
}

static const TF_TString* str_at(const TF_Tensor* t) {
  return (const TF_TString*)kutil_data(t);
}

static char* cstr_of(const TF_Tensor* t) {
  const TF_TString* s = str_at(t);
  size_t n = TF_TString_GetSize(s);
  char* c = (char*)tfe_malloc(n + 1);
  if (c == NULL) return NULL;
  memcpy(c, TF_TString_GetDataPointer(s), n);
  c[n] = '\0';
  return c;
}

/* The handle resource of input 0 (borrowed) or NULL with status. */
static tfe_resource* handle_of(tfe_kernel_context* k) {
  tfe_resource* h = k->inputs[0] != NULL ? tfe_resource_of_tensor(k->inputs[0])
                                         : NULL;
  if (h == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: input 0 is not a summary writer handle (a DT_RESOURCE "
               "tensor made by SummaryWriter)",
               k->op_def->name);
  }
  return h;
}

/* The writer registered under input 0's key, with a new reference on its
 * resource in *res. */
static sumwriter* writer_of(tfe_kernel_context* k, tfe_resource** res) {
  tfe_resource* h = handle_of(k);
  tfe_resource* r;
  *res = NULL;
  if (h == NULL) return NULL;
  r = tfe_resources_lookup_handle(h);
  if (r == NULL || r->object == NULL) {
    KUTIL_FAIL(k, TF_NOT_FOUND, "Resource %s/%s/%s does not exist.",
               h->container, h->name, WRITER_TYPE_NAME);
    tfe_resource_unref(r);
    return NULL;
  }
  if (r->kind != TFE_RESOURCE_PLUGIN || r->del != writer_free) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Trying to access resource %s located in device %s as a "
               "summary writer, but it is not one",
               r->name, r->device);
    tfe_resource_unref(r);
    return NULL;
  }
  *res = r;
  return (sumwriter*)r->object;
}

static void k_summary_writer(tfe_kernel_context* k) {
  const char* container = "";
  const char* shared = "";
  size_t len;
  tfe_resource* r;
  TF_Tensor* out;
  if (k->attrs != NULL) {
    tfe_attrs_get_string(k->attrs, "container", &container, &len, NULL);
    tfe_attrs_get_string(k->attrs, "shared_name", &shared, &len, NULL);
  }
  if (container[0] == '\0') container = TFE_RESOURCE_DEFAULT_CONTAINER;
  r = tfe_plugin_resource_new(tfe_resource_kernel_ctx_id(k),
                              k->device_name != NULL ? k->device_name : "",
                              container, shared, NULL, NULL);
  if (r == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in SummaryWriter");
    return;
  }
  out = tfe_resource_new_handle(r);
  tfe_resource_unref(r);
  if (out == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in SummaryWriter");
    return;
  }
  tfe_kernel_set_output(k, 0, out);
}

static void k_create_file_writer(tfe_kernel_context* k) {
  tfe_resource* h = handle_of(k);
  tfe_resource* r;
  char* logdir = NULL;
  char* suffix = NULL;
  int32_t max_queue, flush_millis;
  sumwriter* w;
  if (h == NULL) return;
  if (!one_elem(k, 1, "logdir") || !one_elem(k, 2, "max_queue") ||
      !one_elem(k, 3, "flush_millis") || !one_elem(k, 4, "filename_suffix")) {
    return;
  }
  r = tfe_resources_lookup_handle(h);
  if (r != NULL) {
    /* TF's LookupOrCreateResource: an existing writer stays as it is. */
    if (r->kind != TFE_RESOURCE_PLUGIN || r->del != writer_free) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Trying to access resource %s located in device %s as a "
                 "summary writer, but it is not one",
                 r->name, r->device);
    }
    tfe_resource_unref(r);
    return;
  }
  max_queue = ((const int32_t*)kutil_data(k->inputs[2]))[0];
  flush_millis = ((const int32_t*)kutil_data(k->inputs[3]))[0];
  logdir = cstr_of(k->inputs[1]);
  suffix = cstr_of(k->inputs[4]);
  if (logdir == NULL || suffix == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  w = writer_new(logdir, max_queue, flush_millis, suffix, k->status);
  if (w == NULL) goto done;
  r = tfe_plugin_resource_new(h->ctx_id, h->device, h->container, h->name, w,
                              writer_free);
  if (r == NULL) {
    writer_free(w);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  if (!tfe_resources_insert(r, k->status)) {
    /* Another kernel registered one in between: keep that one. */
    if (TF_GetCode(k->status) == TF_ALREADY_EXISTS) {
      TF_SetStatus(k->status, TF_OK, "");
    }
  }
  tfe_resource_unref(r);
done:
  tfe_free(logdir);
  tfe_free(suffix);
}

static void k_create_db_writer(tfe_kernel_context* k) {
  KUTIL_FAIL(k, TF_UNIMPLEMENTED,
             "CreateSummaryDbWriter: tfe has no SQLite, so TensorBoard "
             "SQLite summary databases are not supported; use "
             "CreateSummaryFileWriter");
}

static void k_flush_writer(tfe_kernel_context* k) {
  tfe_resource* r;
  sumwriter* w = writer_of(k, &r);
  if (w == NULL) return;
  pthread_mutex_lock(&w->mu);
  flush_locked(w, k->status);
  pthread_mutex_unlock(&w->mu);
  tfe_resource_unref(r);
}

static void k_close_writer(tfe_kernel_context* k) {
  tfe_resource* r;
  sumwriter* w = writer_of(k, &r);
  if (w == NULL) return;
  pthread_mutex_lock(&w->mu);
  flush_locked(w, k->status);
  pthread_mutex_unlock(&w->mu);
  tfe_resources_remove(r);
  tfe_resource_unref(r);
}

/* ------------------------------------------------------------------------
 * Events */

/* Starts an event: wall_time (now) and step. */
static void event_begin(tfe_pbw* ev, int64_t step) {
  iosum_pb_double(ev, 1, (double)TF_NowMicros() / 1.0e6);
  if (step != 0) tfe_pbw_uint(ev, 2, (uint64_t)step);
}

/* Reads step (input 1) after checking it. */
static int get_step(tfe_kernel_context* k, int64_t* step) {
  if (!one_elem(k, 1, "step")) return 0;
  *step = ((const int64_t*)kutil_data(k->inputs[1]))[0];
  return 1;
}

/* Appends a one-value Summary event and hands it to the writer. */
static void write_summary_event(tfe_kernel_context* k, sumwriter* w,
                                int64_t step, tfe_pbw* summary) {
  tfe_pbw ev = {0};
  event_begin(&ev, step);
  tfe_pbw_sub(&ev, 5, summary);
  writer_add(w, &ev, k->status);
}

static void k_write_summary(tfe_kernel_context* k) {
  tfe_resource* r;
  sumwriter* w = writer_of(k, &r);
  int64_t step;
  const TF_Tensor* tensor = k->inputs[2];
  const TF_TString* tag;
  const TF_TString* meta;
  tfe_pbw s = {0}, v = {0}, tp = {0};
  if (w == NULL) return;
  if (!get_step(k, &step) || !one_elem(k, 3, "tag") ||
      !one_elem(k, 4, "summary_metadata")) {
    goto done;
  }
  tag = str_at(k->inputs[3]);
  meta = str_at(k->inputs[4]);
  if (TF_TString_GetSize(tag) > 0) {
    tfe_pbw_lenfield(&v, 1, TF_TString_GetDataPointer(tag),
                     TF_TString_GetSize(tag));
  }
  if (!iosum_pb_tensor(&tp, tensor)) {
    tfe_pbw_free(&tp);
    tfe_pbw_free(&v);
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "WriteSummary: tensors of dtype %s are not encoded by tfe",
               tfe_dtype_short_name(tensor->dtype) != NULL
                   ? tfe_dtype_short_name(tensor->dtype)
                   : "?");
    goto done;
  }
  tfe_pbw_sub(&v, 8, &tp);
  if (TF_TString_GetSize(meta) > 0) {
    tfe_pbw mb = {0};
    if (!iosum_canon_metadata(
            (const unsigned char*)TF_TString_GetDataPointer(meta),
            TF_TString_GetSize(meta), &mb)) {
      mb.len = 0;
    }
    tfe_pbw_sub(&v, 9, &mb);
  }
  tfe_pbw_sub(&s, 1, &v);
  write_summary_event(k, w, step, &s);
done:
  tfe_resource_unref(r);
}

/* TF's TensorValueAt: the dtypes its summary converter reads. */
static int converter_reads(tfe_kernel_context* k, TF_DataType dt) {
  switch (dt) {
    case TF_BOOL: case TF_HALF: case TF_FLOAT: case TF_DOUBLE: case TF_INT8:
    case TF_INT16: case TF_INT32: case TF_INT64: case TF_UINT8:
    case TF_UINT16: case TF_UINT32: case TF_UINT64:
      return 1;
    default: {
      const char* nm = tfe_dtype_short_name(dt);
      KUTIL_FAIL(k, TF_UNIMPLEMENTED, "SummaryFileWriter %s not supported.",
                 nm != NULL ? nm : "unknown");
      return 0;
    }
  }
}

static void k_write_scalar(tfe_kernel_context* k) {
  tfe_resource* r;
  sumwriter* w = writer_of(k, &r);
  int64_t step;
  const TF_Tensor* value = k->inputs[3];
  const TF_TString* tag;
  tfe_pbw s = {0}, v = {0};
  if (w == NULL) return;
  if (!get_step(k, &step) || !one_elem(k, 2, "tag")) goto done;
  if (!converter_reads(k, value->dtype)) goto done;
  if (kutil_num_elements(value) < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "WriteScalarSummary: value has no elements");
    goto done;
  }
  tag = str_at(k->inputs[2]);
  if (TF_TString_GetSize(tag) > 0) {
    tfe_pbw_lenfield(&v, 1, TF_TString_GetDataPointer(tag),
                     TF_TString_GetSize(tag));
  }
  {
    const void* d = kutil_data(value);
    float f;
    switch (value->dtype) {
      case TF_FLOAT: f = ((const float*)d)[0]; break;
      case TF_DOUBLE: f = (float)((const double*)d)[0]; break;
      case TF_INT64: f = (float)((const int64_t*)d)[0]; break;
      case TF_UINT64: f = (float)((const uint64_t*)d)[0]; break;
      case TF_INT32: f = (float)((const int32_t*)d)[0]; break;
      case TF_UINT32: f = (float)((const uint32_t*)d)[0]; break;
      default: f = (float)iosum_get_double(value, 0); break;
    }
    tfe_pbw_float(&v, 2, f);
  }
  tfe_pbw_sub(&s, 1, &v);
  write_summary_event(k, w, step, &s);
done:
  tfe_resource_unref(r);
}

static void k_write_histogram(tfe_kernel_context* k) {
  tfe_resource* r;
  sumwriter* w = writer_of(k, &r);
  int64_t step;
  const TF_Tensor* values = k->inputs[3];
  const TF_TString* tag;
  tfe_pbw s = {0}, v = {0}, h = {0};
  int rc;
  if (w == NULL) return;
  if (!get_step(k, &step) || !one_elem(k, 2, "tag")) goto done;
  if (kutil_num_elements(values) > 0 && !converter_reads(k, values->dtype)) {
    goto done;
  }
  tag = str_at(k->inputs[2]);
  rc = iosum_histogram(values, &h);
  if (rc != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s in summary histogram for: %.*s",
               rc == 1 ? "Nan" : "Infinity", (int)TF_TString_GetSize(tag),
               TF_TString_GetDataPointer(tag));
    tfe_pbw_free(&h);
    goto done;
  }
  if (TF_TString_GetSize(tag) > 0) {
    tfe_pbw_lenfield(&v, 1, TF_TString_GetDataPointer(tag),
                     TF_TString_GetSize(tag));
  }
  tfe_pbw_sub(&v, 5, &h);
  tfe_pbw_sub(&s, 1, &v);
  write_summary_event(k, w, step, &s);
done:
  tfe_resource_unref(r);
}

static void k_write_image(tfe_kernel_context* k) {
  tfe_resource* r;
  sumwriter* w;
  int64_t step;
  const TF_Tensor* tensor = k->inputs[3];
  const TF_Tensor* bad = k->inputs[4];
  const TF_TString* tag;
  int32_t max_images;
  tfe_pbw s = {0};
  kutil_shape_buf sb;
  if (!kutil_attr_int32(k, "max_images", 3, &max_images)) {
    TF_SetStatus(k->status, TF_INVALID_ARGUMENT, "max_images must be < 2^31");
    return;
  }
  w = writer_of(k, &r);
  if (w == NULL) return;
  if (!get_step(k, &step) || !one_elem(k, 2, "tag")) goto done;
  if (bad->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "bad_color must be a vector, got shape %s",
               kutil_tshape(bad, &sb));
    goto done;
  }
  tag = str_at(k->inputs[2]);
  if (!iosum_add_images(k, &s, TF_TString_GetDataPointer(tag),
                        TF_TString_GetSize(tag), tensor, max_images,
                        (const uint8_t*)kutil_data(bad), bad->dims[0])) {
    tfe_pbw_free(&s);
    goto done;
  }
  write_summary_event(k, w, step, &s);
done:
  tfe_resource_unref(r);
}

static void k_write_audio(tfe_kernel_context* k) {
  tfe_resource* r;
  sumwriter* w;
  int64_t step;
  const TF_Tensor* tensor = k->inputs[3];
  const TF_TString* tag;
  int32_t max_outputs;
  float rate;
  tfe_pbw s = {0};
  if (!kutil_attr_int32(k, "max_outputs", 3, &max_outputs)) return;
  if (max_outputs <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "max_outputs must be > 0");
    return;
  }
  w = writer_of(k, &r);
  if (w == NULL) return;
  if (!get_step(k, &step) || !one_elem(k, 2, "tag") ||
      !one_elem(k, 4, "sample_rate")) {
    goto done;
  }
  tag = str_at(k->inputs[2]);
  rate = ((const float*)kutil_data(k->inputs[4]))[0];
  if (rate > 0.0f && (tensor->num_dims < 2 || tensor->num_dims > 3)) {
    /* TF reads dims 0 and 1 without checking (undefined for lower ranks). */
    kutil_shape_buf sb;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Tensor must be 3-D or 2-D, got: %s",
               kutil_tshape(tensor, &sb));
    goto done;
  }
  if (!iosum_add_audio(k, &s, TF_TString_GetDataPointer(tag),
                       TF_TString_GetSize(tag), tensor, rate, max_outputs)) {
    tfe_pbw_free(&s);
    goto done;
  }
  write_summary_event(k, w, step, &s);
done:
  tfe_resource_unref(r);
}

static void k_write_graph(tfe_kernel_context* k) {
  tfe_resource* r;
  sumwriter* w = writer_of(k, &r);
  int64_t step;
  const TF_TString* g;
  tfe_pbw ev = {0};
  if (w == NULL) return;
  if (!get_step(k, &step) || !one_elem(k, 2, "tensor")) goto done;
  g = str_at(k->inputs[2]);
  if (!tfe_pb_well_formed(TF_TString_GetDataPointer(g), TF_TString_GetSize(g))) {
    KUTIL_FAIL(k, TF_DATA_LOSS, "Bad tf.GraphDef binary proto tensor string");
    goto done;
  }
  event_begin(&ev, step);
  tfe_pbw_lenfield(&ev, 4, TF_TString_GetDataPointer(g), TF_TString_GetSize(g));
  writer_add(w, &ev, k->status);
done:
  tfe_resource_unref(r);
}

/* Appends the values of a serialized Summary to s; 0 when it does not
 * parse. */
static int append_summary_values(tfe_pbw* s, const unsigned char* p,
                                 size_t n) {
  tfe_pbr rd;
  int f, wt;
  size_t start = s->len;
  rd.p = p;
  rd.end = p + n;
  while (rd.p < rd.end) {
    if (!tfe_pbr_tag(&rd, &f, &wt)) goto bad;
    if (f == 1 && wt == 2) {
      tfe_pbr sub;
      if (!tfe_pbr_len(&rd, &sub)) goto bad;
      if (!tfe_pb_well_formed(sub.p, (size_t)(sub.end - sub.p))) goto bad;
      tfe_pbw_lenfield(s, 1, sub.p, (size_t)(sub.end - sub.p));
    } else if (!tfe_pbr_skip(&rd, f, wt)) {
      goto bad;
    }
  }
  return 1;
bad:
  s->len = start;
  return 0;
}

static void k_write_raw_proto(tfe_kernel_context* k) {
  tfe_resource* r;
  sumwriter* w = writer_of(k, &r);
  int64_t step, n, i;
  const TF_Tensor* t = k->inputs[2];
  tfe_pbw s = {0};
  if (w == NULL) return;
  if (!get_step(k, &step)) goto done;
  n = kutil_num_elements(t);
  for (i = 0; i < n; i++) {
    const TF_TString* e = str_at(t) + i;
    if (!append_summary_values(
            &s, (const unsigned char*)TF_TString_GetDataPointer(e),
            TF_TString_GetSize(e))) {
      tfe_pbw_free(&s);
      KUTIL_FAIL(k, TF_DATA_LOSS,
                 "Bad tf.compat.v1.Summary binary proto tensor string at "
                 "index %lld",
                 (long long)i);
      goto done;
    }
  }
  write_summary_event(k, w, step, &s);
done:
  tfe_resource_unref(r);
}

static void k_import_event(tfe_kernel_context* k) {
  tfe_resource* r;
  sumwriter* w = writer_of(k, &r);
  const TF_TString* e;
  tfe_pbw ev = {0};
  if (w == NULL) return;
  if (!one_elem(k, 1, "event")) goto done;
  e = str_at(k->inputs[1]);
  if (!tfe_pb_well_formed(TF_TString_GetDataPointer(e), TF_TString_GetSize(e))) {
    KUTIL_FAIL(k, TF_DATA_LOSS, "Bad tf.Event binary proto tensor string");
    goto done;
  }
  tfe_pbw_bytes(&ev, TF_TString_GetDataPointer(e), TF_TString_GetSize(e));
  writer_add(w, &ev, k->status);
done:
  tfe_resource_unref(r);
}

/* ------------------------------------------------------------------------
 * Registration */

void tfe_register_cpu_io_summary_writer_kernels(void) {
  /* TF registers these kernels without type constraints (the op
   * definitions restrict T). */
  static const char* const ops[] = {
      "SummaryWriter",      "CreateSummaryFileWriter", "CreateSummaryDbWriter",
      "FlushSummaryWriter", "CloseSummaryWriter",      "WriteSummary",
      "WriteScalarSummary", "WriteHistogramSummary",   "WriteImageSummary",
      "WriteAudioSummary",  "WriteGraphSummary",       "WriteRawProtoSummary",
      "ImportEvent"};
  static void (*const fns[])(tfe_kernel_context*) = {
      k_summary_writer, k_create_file_writer, k_create_db_writer,
      k_flush_writer,   k_close_writer,       k_write_summary,
      k_write_scalar,   k_write_histogram,    k_write_image,
      k_write_audio,    k_write_graph,        k_write_raw_proto,
      k_import_event};
  size_t i;
  for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    tfe_kutil_register(ops[i], fns[i], NULL, NULL, 0, NULL, NULL, 0);
  }
}
