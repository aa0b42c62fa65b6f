/* CPU kernels: TF1 readers, summaries and summary writers, WAV and audio ops, PNG encoding (issue 18, session 8).
 * Definitions and shape rules come from TF 2.21's generated registry
 * (csrc/ops/defs_generated.c, shape_infer_rules_generated.c).
 *
 * This file: the summary ops (ScalarSummary, HistogramSummary,
 * TensorSummary, TensorSummaryV2, MergeSummary, ImageSummary,
 * AudioSummary, AudioSummaryV2), which build serialized tensorflow.Summary
 * protos with fields in TF's order, so the bytes equal TF's (the PNG
 * images inside an image summary decode to the same pixels; their deflate
 * streams differ from zlib's). Shared helpers (protobuf, histogram,
 * summaries of images and audio) live here too; the codecs are in
 * io_summary_codec.c, the writers in io_summary_writer.c and the readers
 * in io_summary_readers.c. */
#include <float.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/io_summary.h"
#include "kernels/cpu/kutil.h"

void tfe_register_cpu_io_summary_kernels(void);

/* Summary.Value field numbers. */
enum {
  SV_TAG = 1,
  SV_SIMPLE = 2,
  SV_IMAGE = 4,
  SV_HISTO = 5,
  SV_AUDIO = 6,
  SV_NODE = 7,
  SV_TENSOR = 8,
  SV_METADATA = 9
};

/* ------------------------------------------------------------------------
 * Protobuf and tensor helpers. */

void iosum_pb_double(tfe_pbw* b, int field, double v) {
  uint64_t u;
  unsigned char c[8];
  int i;
  memcpy(&u, &v, 8);
  if (u == 0) return;
  tfe_pbw_tag(b, field, 1);
  for (i = 0; i < 8; i++) c[i] = (unsigned char)(u >> (8 * i));
  tfe_pbw_bytes(b, c, 8);
}

int iosum_pb_tensor(tfe_pbw* b, const TF_Tensor* t) {
  tfe_pbw shape = {0};
  int i;
  size_t esz;
  int64_t n = kutil_num_elements(t);
  if (t->dtype == TF_RESOURCE || t->dtype == TF_VARIANT) return 0;
  tfe_pbw_uint(b, 1, (uint64_t)t->dtype);
  for (i = 0; i < t->num_dims; i++) {
    tfe_pbw d = {0};
    if (t->dims[i] != 0) tfe_pbw_uint(&d, 1, (uint64_t)t->dims[i]);
    tfe_pbw_sub(&shape, 2, &d);
  }
  tfe_pbw_sub(b, 2, &shape);
  if (t->dtype == TF_STRING) {
    const TF_TString* s = (const TF_TString*)kutil_data(t);
    int64_t j;
    for (j = 0; j < n; j++) {
      tfe_pbw_lenfield(b, 8, TF_TString_GetDataPointer(&s[j]),
                       TF_TString_GetSize(&s[j]));
    }
    return 1;
  }
  esz = TF_DataTypeSize(t->dtype);
  if (n > 0 && esz > 0) {
    tfe_pbw_lenfield(b, 4, kutil_data(t), (size_t)n * esz);
  }
  return 1;
}

double iosum_get_double(const TF_Tensor* t, int64_t i) {
  const void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[i]);
    case TF_INT8: return ((const int8_t*)d)[i];
    case TF_INT16: return ((const int16_t*)d)[i];
    case TF_INT32: return ((const int32_t*)d)[i];
    case TF_INT64: return (double)((const int64_t*)d)[i];
    case TF_UINT8: return ((const uint8_t*)d)[i];
    case TF_UINT16: return ((const uint16_t*)d)[i];
    case TF_UINT32: return ((const uint32_t*)d)[i];
    case TF_UINT64: return (double)((const uint64_t*)d)[i];
    case TF_BOOL: return ((const unsigned char*)d)[i] ? 1.0 : 0.0;
    default: return 0.0;
  }
}

/* The value as TF's ScalarSummary converts it: float(value). */
static float scalar_as_float(const TF_Tensor* t, int64_t i) {
  const void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return (float)((const double*)d)[i];
    case TF_INT64: return (float)((const int64_t*)d)[i];
    case TF_UINT64: return (float)((const uint64_t*)d)[i];
    case TF_INT32: return (float)((const int32_t*)d)[i];
    case TF_UINT32: return (float)((const uint32_t*)d)[i];
    default: return (float)iosum_get_double(t, i);
  }
}

int iosum_set_string_output(tfe_kernel_context* k, int index,
                            const void* data, size_t len) {
  TF_Tensor* out = tfe_kernel_alloc_output(k, index, TF_STRING, NULL, 0);
  if (out == NULL) return 0;
  TF_TString_Copy((TF_TString*)kutil_data(out), (const char*)data, len);
  return 1;
}

/* Sets a summary output from a writer, reporting its running out of
 * memory. */
static void finish_summary(tfe_kernel_context* k, tfe_pbw* s) {
  if (s->oom) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
  } else {
    iosum_set_string_output(k, 0, s->data != NULL ? (const void*)s->data : "",
                            s->len);
  }
  tfe_pbw_free(s);
}

static const char* tstr_data(const TF_Tensor* t, int64_t i, size_t* len) {
  const TF_TString* s = (const TF_TString*)kutil_data(t) + i;
  *len = TF_TString_GetSize(s);
  return TF_TString_GetDataPointer(s);
}

/* TF's TensorShape::DebugString: "[2,3]", "[]". */
static const char* shape_dbg(const TF_Tensor* t, kutil_shape_buf* b) {
  return kutil_tshape(t, b);
}

/* ------------------------------------------------------------------------
 * Histograms with TF's default bucket limits: 0, then +-1e-12 * 1.1^k up
 * to 1e20, then +-DBL_MAX. */

static double* g_limits;
static int g_nlimits;
static pthread_once_t g_limits_once = PTHREAD_ONCE_INIT;

static void init_limits(void) {
  double pos[1024];
  int n = 0, i, total;
  double v = 1.0e-12;
  while (v < 1.0e20 && n < 1023) {
    pos[n++] = v;
    v *= 1.1;
  }
  pos[n++] = DBL_MAX;
  total = 2 * n + 1;
  g_limits = (double*)malloc(sizeof(double) * (size_t)total);
  if (g_limits == NULL) return;
  for (i = 0; i < n; i++) g_limits[i] = -pos[n - 1 - i];
  g_limits[n] = 0.0;
  for (i = 0; i < n; i++) g_limits[n + 1 + i] = pos[i];
  g_nlimits = total;
}

/* Index of the first limit greater than v (std::upper_bound). The limits
 * grow by 10% per step, so a logarithm lands within a step or two of the
 * answer; the loops settle it exactly. */
static int bucket_of(double v) {
  const int npos = (g_nlimits - 1) / 2; /* positive limits, DBL_MAX included */
  int c;
  double a = fabs(v);
  if (a < 1.0e-12) {
    c = npos; /* at the 0 limit */
  } else {
    double k = log(a * 1.0e12) / log(1.1);
    int ki = k > (double)npos ? npos : (int)k;
    c = v > 0 ? npos + 1 + ki : npos - 1 - ki;
    if (c < 0) c = 0;
    if (c > g_nlimits) c = g_nlimits;
  }
  while (c > 0 && g_limits[c - 1] > v) c--;
  while (c < g_nlimits && g_limits[c] <= v) c++;
  return c;
}

int iosum_histogram(const TF_Tensor* t, tfe_pbw* out) {
  int64_t n = kutil_num_elements(t), i;
  double mn, mx = -DBL_MAX, sum = 0, sumsq = 0, num = 0;
  double* counts;
  int rc = 0, b;
  tfe_pbw lim = {0}, cnt = {0};
  pthread_once(&g_limits_once, init_limits);
  if (g_limits == NULL) {
    out->oom = 1;
    return 0;
  }
  mn = g_limits[g_nlimits - 1];
  counts = (double*)tfe_calloc((size_t)g_nlimits + 1, sizeof(double));
  if (counts == NULL) {
    out->oom = 1;
    return 0;
  }
  for (i = 0; i < n; i++) {
    double v = iosum_get_double(t, i);
    if (isnan(v)) {
      rc = 1;
      break;
    }
    if (isinf(v)) {
      rc = 2;
      break;
    }
    b = bucket_of(v);
    if (b >= g_nlimits) b = g_nlimits - 1; /* not reached: DBL_MAX is last */
    counts[b] += 1.0;
    if (mn > v) mn = v;
    if (mx < v) mx = v;
    num += 1;
    sum += v;
    sumsq += v * v;
  }
  iosum_pb_double(out, 1, mn);
  iosum_pb_double(out, 2, mx);
  iosum_pb_double(out, 3, num);
  iosum_pb_double(out, 4, sum);
  iosum_pb_double(out, 5, sumsq);
  /* Runs of empty buckets collapse into one entry ending at the run's
   * last limit. */
  {
    int j = 0;
    while (j < g_nlimits) {
      double end = g_limits[j], c = counts[j];
      j++;
      if (c <= 0.0) {
        while (j < g_nlimits && counts[j] <= 0.0) {
          end = g_limits[j];
          c = counts[j];
          j++;
        }
      }
      {
        uint64_t u;
        unsigned char cb[8];
        int q;
        memcpy(&u, &end, 8);
        for (q = 0; q < 8; q++) cb[q] = (unsigned char)(u >> (8 * q));
        tfe_pbw_bytes(&lim, cb, 8);
        memcpy(&u, &c, 8);
        for (q = 0; q < 8; q++) cb[q] = (unsigned char)(u >> (8 * q));
        tfe_pbw_bytes(&cnt, cb, 8);
      }
    }
  }
  if (lim.oom || cnt.oom) out->oom = 1;
  tfe_pbw_lenfield(out, 6, lim.data, lim.len);
  tfe_pbw_lenfield(out, 7, cnt.data, cnt.len);
  tfe_pbw_free(&lim);
  tfe_pbw_free(&cnt);
  tfe_free(counts);
  return rc;
}

/* ------------------------------------------------------------------------
 * ScalarSummary */

static void k_scalar_summary(tfe_kernel_context* k) {
  const TF_Tensor* tags = k->inputs[0];
  const TF_Tensor* values = k->inputs[1];
  tfe_pbw s = {0};
  int64_t n, i;
  int same = tags->num_dims == values->num_dims;
  for (i = 0; same && i < tags->num_dims; i++) {
    if (tags->dims[i] != values->dims[i]) same = 0;
  }
  if (!same) {
    kutil_shape_buf a, b;
    char single[600] = "";
    if (kutil_num_elements(tags) == 1) {
      size_t len;
      const char* p = tstr_data(tags, 0, &len);
      snprintf(single, sizeof single, " (tag '%.*s')",
               (int)(len > 500 ? 500 : len), p);
    }
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "tags and values are not the same shape: %s != %s%s",
               shape_dbg(tags, &a), shape_dbg(values, &b), single);
    return;
  }
  n = kutil_num_elements(tags);
  for (i = 0; i < n; i++) {
    tfe_pbw v = {0};
    size_t len;
    const char* p = tstr_data(tags, i, &len);
    if (len > 0) tfe_pbw_lenfield(&v, SV_TAG, p, len);
    tfe_pbw_float(&v, SV_SIMPLE, scalar_as_float(values, i));
    tfe_pbw_sub(&s, 1, &v);
  }
  finish_summary(k, &s);
}

/* ------------------------------------------------------------------------
 * HistogramSummary */

static void k_histogram_summary(tfe_kernel_context* k) {
  const TF_Tensor* tags = k->inputs[0];
  const TF_Tensor* values = k->inputs[1];
  tfe_pbw s = {0}, v = {0}, h = {0};
  int rc;
  size_t len;
  const char* p;
  if (tags->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "tags must be scalar");
    return;
  }
  rc = iosum_histogram(values, &h);
  if (rc != 0) {
    const char* node = k->node_name != NULL ? k->node_name : k->op_def->name;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s for: %s",
               rc == 1 ? "Nan in summary histogram" : "Infinity in Histogram",
               node);
    tfe_pbw_free(&h);
    return;
  }
  p = tstr_data(tags, 0, &len);
  if (len > 0) tfe_pbw_lenfield(&v, SV_TAG, p, len);
  tfe_pbw_sub(&v, SV_HISTO, &h);
  tfe_pbw_sub(&s, 1, &v);
  finish_summary(k, &s);
}

/* ------------------------------------------------------------------------
 * SummaryMetadata as TF writes it back after parsing: known fields in
 * field order (plugin_data{plugin_name, content}, display_name,
 * summary_description, data_class), empty proto3 scalars left out, the
 * last of repeated singular fields kept (sub-messages merged), unknown
 * fields after the known ones. */

static int copy_unknown(tfe_pbw* out, const unsigned char* start,
                        const unsigned char* end) {
  tfe_pbw_bytes(out, start, (size_t)(end - start));
  return 1;
}

static int canon_plugin_data(const unsigned char* p, size_t n,
                             const unsigned char** name, size_t* name_len,
                             const unsigned char** content,
                             size_t* content_len, tfe_pbw* unknown) {
  tfe_pbr r;
  int f, w;
  r.p = p;
  r.end = p + n;
  while (r.p < r.end) {
    const unsigned char* start = r.p;
    if (!tfe_pbr_tag(&r, &f, &w)) return 0;
    if ((f == 1 || f == 2) && w == 2) {
      tfe_pbr sub;
      if (!tfe_pbr_len(&r, &sub)) return 0;
      if (f == 1) {
        *name = sub.p;
        *name_len = (size_t)(sub.end - sub.p);
      } else {
        *content = sub.p;
        *content_len = (size_t)(sub.end - sub.p);
      }
    } else {
      if (!tfe_pbr_skip(&r, f, w)) return 0;
      copy_unknown(unknown, start, r.p);
    }
  }
  return 1;
}

/* Writes the canonical form of a serialized SummaryMetadata into out;
 * 0 (out untouched) when it does not parse. */
int iosum_canon_metadata(const unsigned char* p, size_t n, tfe_pbw* out) {
  tfe_pbr r;
  int f, w, has_pd = 0;
  const unsigned char* pd_name = NULL;
  const unsigned char* pd_content = NULL;
  size_t pd_name_len = 0, pd_content_len = 0;
  const unsigned char* str[4] = {NULL, NULL, NULL, NULL};
  size_t str_len[4] = {0, 0, 0, 0};
  uint64_t data_class = 0;
  tfe_pbw unknown = {0}, pd_unknown = {0}, res = {0};
  r.p = p;
  r.end = p + n;
  while (r.p < r.end) {
    const unsigned char* start = r.p;
    if (!tfe_pbr_tag(&r, &f, &w)) goto bad;
    if (f == 1 && w == 2) {
      tfe_pbr sub;
      if (!tfe_pbr_len(&r, &sub)) goto bad;
      has_pd = 1;
      if (!canon_plugin_data(sub.p, (size_t)(sub.end - sub.p), &pd_name,
                             &pd_name_len, &pd_content, &pd_content_len,
                             &pd_unknown)) {
        goto bad;
      }
    } else if ((f == 2 || f == 3) && w == 2) {
      tfe_pbr sub;
      if (!tfe_pbr_len(&r, &sub)) goto bad;
      str[f] = sub.p;
      str_len[f] = (size_t)(sub.end - sub.p);
    } else if (f == 4 && w == 0) {
      if (!tfe_pbr_varint(&r, &data_class)) goto bad;
    } else {
      if (!tfe_pbr_skip(&r, f, w)) goto bad;
      copy_unknown(&unknown, start, r.p);
    }
  }
  if (has_pd) {
    tfe_pbw pd = {0};
    if (pd_name_len > 0) tfe_pbw_lenfield(&pd, 1, pd_name, pd_name_len);
    if (pd_content_len > 0) {
      tfe_pbw_lenfield(&pd, 2, pd_content, pd_content_len);
    }
    tfe_pbw_bytes(&pd, pd_unknown.data, pd_unknown.len);
    tfe_pbw_sub(&res, 1, &pd);
  }
  if (str_len[2] > 0) tfe_pbw_lenfield(&res, 2, str[2], str_len[2]);
  if (str_len[3] > 0) tfe_pbw_lenfield(&res, 3, str[3], str_len[3]);
  /* An enum is written as its int32 value (sign-extended). */
  if ((uint32_t)data_class != 0) {
    tfe_pbw_uint(&res, 4, (uint64_t)(int64_t)(int32_t)(uint32_t)data_class);
  }
  tfe_pbw_bytes(&res, unknown.data, unknown.len);
  tfe_pbw_free(&unknown);
  tfe_pbw_free(&pd_unknown);
  if (res.oom) out->oom = 1;
  tfe_pbw_bytes(out, res.data, res.len);
  tfe_pbw_free(&res);
  return 1;
bad:
  tfe_pbw_free(&unknown);
  tfe_pbw_free(&pd_unknown);
  tfe_pbw_free(&res);
  return 0;
}

/* ------------------------------------------------------------------------
 * TensorSummary, TensorSummaryV2 */

static void k_tensor_summary_v2(tfe_kernel_context* k) {
  const TF_Tensor* tag = k->inputs[0];
  const TF_Tensor* tensor = k->inputs[1];
  const TF_Tensor* meta = k->inputs[2];
  tfe_pbw s = {0}, v = {0}, tp = {0};
  size_t len, mlen;
  const char* p;
  const char* m;
  if (tag->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "tag must be scalar");
    return;
  }
  if (meta->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "serialized_summary_metadata must be scalar");
    return;
  }
  p = tstr_data(tag, 0, &len);
  if (len > 0) tfe_pbw_lenfield(&v, SV_TAG, p, len);
  if (!iosum_pb_tensor(&tp, tensor)) {
    tfe_pbw_free(&tp);
    tfe_pbw_free(&v);
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "TensorSummaryV2: tensors of dtype %d are not encoded",
               (int)tensor->dtype);
    return;
  }
  tfe_pbw_sub(&v, SV_TENSOR, &tp);
  /* TF parses the metadata and writes it back (a malformed one leaves
   * the field empty). */
  m = tstr_data(meta, 0, &mlen);
  {
    tfe_pbw mb = {0};
    if (!iosum_canon_metadata((const unsigned char*)m, mlen, &mb)) mb.len = 0;
    tfe_pbw_sub(&v, SV_METADATA, &mb);
  }
  tfe_pbw_sub(&s, 1, &v);
  finish_summary(k, &s);
}

static void k_tensor_summary(tfe_kernel_context* k) {
  const TF_Tensor* tensor = k->inputs[0];
  tfe_pbw s = {0}, v = {0}, tp = {0};
  const char* node = k->node_name != NULL ? k->node_name : k->op_def->name;
  tfe_pbw_str(&v, SV_NODE, node);
  if (node[0] == '\0') v.len = 0;
  if (!iosum_pb_tensor(&tp, tensor)) {
    tfe_pbw_free(&tp);
    tfe_pbw_free(&v);
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "TensorSummary: tensors of dtype %d are not encoded",
               (int)tensor->dtype);
    return;
  }
  tfe_pbw_sub(&v, SV_TENSOR, &tp);
  tfe_pbw_sub(&s, 1, &v);
  finish_summary(k, &s);
}

/* ------------------------------------------------------------------------
 * MergeSummary */

typedef struct tagset {
  char** tags;
  size_t* lens;
  int n, cap;
} tagset;

static int tagset_add(tagset* ts, const char* p, size_t len, int* dup) {
  int i;
  *dup = 0;
  for (i = 0; i < ts->n; i++) {
    if (ts->lens[i] == len && memcmp(ts->tags[i], p, len) == 0) {
      *dup = 1;
      return 1;
    }
  }
  if (ts->n == ts->cap) {
    int nc = ts->cap ? ts->cap * 2 : 16;
    char** nt = (char**)tfe_realloc(ts->tags, sizeof(char*) * (size_t)nc);
    size_t* nl;
    if (nt == NULL) return 0;
    ts->tags = nt;
    nl = (size_t*)tfe_realloc(ts->lens, sizeof(size_t) * (size_t)nc);
    if (nl == NULL) return 0;
    ts->lens = nl;
    ts->cap = nc;
  }
  ts->tags[ts->n] = (char*)p; /* borrowed from the input tensor */
  ts->lens[ts->n] = len;
  ts->n++;
  return 1;
}

/* Checks one Summary.Value body and finds its tag. */
static int parse_value(const unsigned char* p, size_t n, const char** tag,
                       size_t* tag_len) {
  tfe_pbr r;
  int f, w;
  *tag = "";
  *tag_len = 0;
  r.p = p;
  r.end = p + n;
  while (r.p < r.end) {
    if (!tfe_pbr_tag(&r, &f, &w)) return 0;
    if ((f == SV_TAG || f == SV_NODE) && w == 2) {
      tfe_pbr sub;
      if (!tfe_pbr_len(&r, &sub)) return 0;
      if (f == SV_TAG) {
        *tag = (const char*)sub.p;
        *tag_len = (size_t)(sub.end - sub.p);
      }
    } else if (f >= 4 && f <= 9 && f != SV_NODE && w == 2) {
      tfe_pbr sub;
      if (!tfe_pbr_len(&r, &sub)) return 0;
      if (!tfe_pb_well_formed(sub.p, (size_t)(sub.end - sub.p))) return 0;
    } else if (!tfe_pbr_skip(&r, f, w)) {
      return 0;
    }
  }
  return 1;
}

static void k_merge_summary(tfe_kernel_context* k) {
  tfe_pbw s = {0};
  tagset ts = {0};
  int in;
  for (in = 0; in < k->num_inputs; in++) {
    const TF_Tensor* t = k->inputs[in];
    int64_t n = kutil_num_elements(t), i;
    for (i = 0; i < n; i++) {
      size_t len;
      const unsigned char* p = (const unsigned char*)tstr_data(t, i, &len);
      tfe_pbr r;
      int f, w, pass;
      /* Two passes: check the whole input first (TF drops nothing from a
       * Summary that fails to parse, it fails the op). */
      for (pass = 0; pass < 2; pass++) {
        r.p = p;
        r.end = p + len;
        while (r.p < r.end) {
          if (!tfe_pbr_tag(&r, &f, &w)) goto bad;
          if (f == 1 && w == 2) {
            tfe_pbr sub;
            const char* tag;
            size_t tag_len;
            if (!tfe_pbr_len(&r, &sub)) goto bad;
            if (!parse_value(sub.p, (size_t)(sub.end - sub.p), &tag,
                             &tag_len)) {
              goto bad;
            }
            if (pass == 1) {
              if (tag_len > 0) {
                int dup;
                if (!tagset_add(&ts, tag, tag_len, &dup)) {
                  s.oom = 1;
                } else if (dup) {
                  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                             "Duplicate tag %.*s found in summary inputs ",
                             (int)tag_len, tag);
                  goto done;
                }
              }
              tfe_pbw_lenfield(&s, 1, sub.p, (size_t)(sub.end - sub.p));
            }
          } else if (!tfe_pbr_skip(&r, f, w)) {
            goto bad;
          }
        }
      }
    }
  }
  tfe_free(ts.tags);
  tfe_free(ts.lens);
  finish_summary(k, &s);
  return;
bad:
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Could not parse one of the summary inputs");
done:
  tfe_free(ts.tags);
  tfe_free(ts.lens);
  tfe_pbw_free(&s);
}

/* ------------------------------------------------------------------------
 * ImageSummary */

static float elem_float(const TF_Tensor* t, int64_t i) {
  const void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    default: return (float)((const double*)d)[i];
  }
}

/* TF scales in the image's own type: for half the scale and offset are
 * rounded to half and so is the product. */
static uint8_t scale_to_u8(TF_DataType dt, double v, double scale,
                           double offset) {
  double r;
  if (dt == TF_HALF) {
    float sc = kutil_f16_to_f32(kutil_f32_to_f16((float)scale));
    float of = kutil_f16_to_f32(kutil_f32_to_f16((float)offset));
    float prod = kutil_f16_to_f32(kutil_f32_to_f16((float)v * sc));
    r = kutil_f16_to_f32(kutil_f32_to_f16(prod + of));
  } else if (dt == TF_FLOAT) {
    r = (float)((float)v * (float)scale + (float)offset);
  } else {
    r = v * scale + offset;
  }
  /* A float-to-uint8 cast of an out-of-range value is undefined in C;
   * TF's values are within [0, 255.x] by construction. */
  if (!(r >= 0.0)) return 0;
  if (r >= 255.0) return 255;
  return (uint8_t)r;
}

static void normalize_image(const TF_Tensor* t, int64_t base, int64_t hw,
                            int depth, const uint8_t* bad, uint8_t* img) {
  float mn = INFINITY, mx = -INFINITY;
  int64_t i;
  int j;
  double scale, offset;
  for (i = 0; i < hw; i++) {
    int fin = 1;
    for (j = 0; j < depth; j++) {
      if (!isfinite(elem_float(t, base + i * depth + j))) {
        fin = 0;
        break;
      }
    }
    if (fin) {
      for (j = 0; j < depth; j++) {
        float v = elem_float(t, base + i * depth + j);
        if (v < mn) mn = v;
        if (v > mx) mx = v;
      }
    }
  }
  if (mn < 0) {
    float m = fabsf(mn) > fabsf(mx) ? fabsf(mn) : fabsf(mx);
    scale = m < 1e-6f ? 0.0 : (double)(127.0f / m);
    offset = 128.0;
  } else {
    scale = mx < 1e-6f ? 0.0 : (double)(255.0f / mx);
    offset = 0.0;
  }
  if (t->dtype == TF_FLOAT) scale = (float)scale;
  for (i = 0; i < hw; i++) {
    int fin = 1;
    for (j = 0; j < depth; j++) {
      if (!isfinite(elem_float(t, base + i * depth + j))) {
        fin = 0;
        break;
      }
    }
    for (j = 0; j < depth; j++) {
      img[i * depth + j] =
          fin ? scale_to_u8(t->dtype,
                            t->dtype == TF_DOUBLE
                                ? ((const double*)kutil_data(t))[base + i *
                                                                 depth + j]
                                : (double)elem_float(t, base + i * depth + j),
                            scale, offset)
              : bad[j];
    }
  }
}

int iosum_add_images(tfe_kernel_context* k, tfe_pbw* summary,
                     const char* tag, size_t tag_len, const TF_Tensor* tensor,
                     int max_images, const uint8_t* bad_color,
                     int64_t bad_color_n) {
  kutil_shape_buf sb;
  int64_t batch, h, w, depth, hw, nimg, i;
  uint8_t* tmp = NULL;
  if (tensor->num_dims != 4 ||
      !(tensor->dims[3] == 1 || tensor->dims[3] == 3 ||
        tensor->dims[3] == 4)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Tensor must be 4-D with last dim 1, 3, or 4, not %s",
               shape_dbg(tensor, &sb));
    return 0;
  }
  batch = tensor->dims[0];
  h = tensor->dims[1];
  w = tensor->dims[2];
  depth = tensor->dims[3];
  if (!(batch < (1LL << 31) && h < (1LL << 31) && w < (1LL << 31) &&
        (h == 0 || w == 0 || h * w < (1LL << 29)))) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Tensor too large for summary %s",
               shape_dbg(tensor, &sb));
    return 0;
  }
  hw = h * w;
  if (tensor->dtype != TF_UINT8 && bad_color_n < depth) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "expected depth <= bad_color.size, got depth = %d, "
               "bad_color.size = %lld",
               (int)depth, (long long)bad_color_n);
    return 0;
  }
  nimg = batch < max_images ? batch : max_images;
  if (tensor->dtype != TF_UINT8 && nimg > 0 && hw > 0) {
    tmp = (uint8_t*)tfe_malloc((size_t)(hw * depth));
    if (tmp == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      return 0;
    }
  }
  for (i = 0; i < nimg; i++) {
    tfe_pbw v = {0}, im = {0};
    char tbuf[64];
    const uint8_t* pix;
    unsigned char* png = NULL;
    size_t png_len = 0;
    if (max_images > 1) {
      snprintf(tbuf, sizeof tbuf, "/image/%lld", (long long)i);
    } else {
      snprintf(tbuf, sizeof tbuf, "/image");
    }
    tfe_pbw_tag(&v, SV_TAG, 2);
    tfe_pbw_varint(&v, tag_len + strlen(tbuf));
    tfe_pbw_bytes(&v, tag, tag_len);
    tfe_pbw_bytes(&v, tbuf, strlen(tbuf));
    if (tensor->dtype == TF_UINT8) {
      pix = hw > 0 ? (const uint8_t*)kutil_data(tensor) + i * hw * depth
                   : (const uint8_t*)"";
    } else {
      if (tmp != NULL) {
        normalize_image(tensor, i * hw * depth, hw, depth, bad_color, tmp);
      }
      pix = tmp != NULL ? tmp : (const uint8_t*)"";
    }
    if (h > 0) tfe_pbw_uint(&im, 1, (uint64_t)h);
    if (w > 0) tfe_pbw_uint(&im, 2, (uint64_t)w);
    tfe_pbw_uint(&im, 3, (uint64_t)depth);
    if (!iosum_png_encode(pix, (int)w, (int)h, w * depth, (int)depth, 8, -1,
                          &png, &png_len)) {
      tfe_pbw_free(&v);
      tfe_pbw_free(&im);
      tfe_free(tmp);
      KUTIL_FAIL(k, TF_INTERNAL, "PNG encoding failed");
      return 0;
    }
    tfe_pbw_lenfield(&im, 4, png, png_len);
    tfe_free(png);
    tfe_pbw_sub(&v, SV_IMAGE, &im);
    tfe_pbw_sub(summary, 1, &v);
  }
  tfe_free(tmp);
  return 1;
}

static void k_image_summary(tfe_kernel_context* k) {
  const TF_Tensor* tags = k->inputs[0];
  const TF_Tensor* tensor = k->inputs[1];
  const tfe_attr_value* bc = tfe_attrs_find(k->attrs, "bad_color");
  const TF_Tensor* bad;
  int32_t max_images;
  tfe_pbw s = {0};
  size_t len;
  const char* tag;
  kutil_shape_buf sb;
  if (!kutil_attr_int32(k, "max_images", 3, &max_images)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "max_images must be < 2^31");
    return;
  }
  if (bc == NULL || bc->type != TF_ATTR_TENSOR || bc->is_list ||
      bc->v.tensor == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "bad_color must be uint8, got %s",
               "DT_INVALID");
    return;
  }
  bad = bc->v.tensor;
  if (bad->dtype != TF_UINT8) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "bad_color must be uint8, got %s",
               tfe_dtype_short_name(bad->dtype));
    return;
  }
  if (bad->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "bad_color must be a vector, got shape %s",
               shape_dbg(bad, &sb));
    return;
  }
  /* TF 2.21 takes only a true scalar (its legacy one-element vector
   * form is off). */
  if (tags->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Tags must be a scalar");
    return;
  }
  tag = tstr_data(tags, 0, &len);
  if (!iosum_add_images(k, &s, tag, len, tensor, max_images,
                        (const uint8_t*)kutil_data(bad), bad->dims[0])) {
    tfe_pbw_free(&s);
    return;
  }
  finish_summary(k, &s);
}

/* ------------------------------------------------------------------------
 * AudioSummary, AudioSummaryV2 */

int iosum_add_audio(tfe_kernel_context* k, tfe_pbw* summary,
                    const char* tag, size_t tag_len, const TF_Tensor* tensor,
                    float sample_rate, int max_outputs) {
  int64_t batch, frames, channels, n, i;
  long sr;
  if (!(sample_rate > 0.0f)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "sample_rate must be > 0");
    return 0;
  }
  batch = tensor->dims[0];
  frames = tensor->dims[1];
  channels = tensor->num_dims == 2 ? 1 : tensor->dims[2];
  n = batch < max_outputs ? batch : max_outputs;
  sr = lrintf(sample_rate);
  if (sr == 0) sr = 1;
  for (i = 0; i < n; i++) {
    tfe_pbw v = {0}, a = {0};
    char tbuf[64];
    unsigned char* wav = NULL;
    size_t wav_len = 0;
    char err[160];
    if (max_outputs > 1) {
      snprintf(tbuf, sizeof tbuf, "/audio/%lld", (long long)i);
    } else {
      snprintf(tbuf, sizeof tbuf, "/audio");
    }
    tfe_pbw_tag(&v, SV_TAG, 2);
    tfe_pbw_varint(&v, tag_len + strlen(tbuf));
    tfe_pbw_bytes(&v, tag, tag_len);
    tfe_pbw_bytes(&v, tbuf, strlen(tbuf));
    tfe_pbw_float(&a, 1, sample_rate);
    if (channels != 0) tfe_pbw_uint(&a, 2, (uint64_t)channels);
    if (frames != 0) tfe_pbw_uint(&a, 3, (uint64_t)frames);
    if (!iosum_wav_encode(
            frames * channels > 0
                ? (const float*)kutil_data(tensor) + i * frames * channels
                : NULL,
            (uint64_t)sr, (uint64_t)channels, (uint64_t)frames, &wav,
            &wav_len, err, sizeof err)) {
      tfe_pbw_free(&v);
      tfe_pbw_free(&a);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s", err);
      return 0;
    }
    tfe_pbw_lenfield(&a, 4, wav, wav_len);
    tfe_free(wav);
    tfe_pbw_str(&a, 5, "audio/wav");
    tfe_pbw_sub(&v, SV_AUDIO, &a);
    tfe_pbw_sub(summary, 1, &v);
  }
  return 1;
}

static void audio_summary(tfe_kernel_context* k, float sample_rate) {
  const TF_Tensor* tag = k->inputs[0];
  const TF_Tensor* tensor = k->inputs[1];
  int32_t max_outputs;
  tfe_pbw s = {0};
  size_t len;
  const char* p;
  kutil_shape_buf sb;
  if (!kutil_attr_int32(k, "max_outputs", 3, &max_outputs)) return;
  if (max_outputs <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "max_outputs must be > 0");
    return;
  }
  if (tag->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Tag must be a scalar");
    return;
  }
  if (tensor->num_dims < 2 || tensor->num_dims > 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Tensor must be 3-D or 2-D, got: %s",
               shape_dbg(tensor, &sb));
    return;
  }
  p = tstr_data(tag, 0, &len);
  if (!iosum_add_audio(k, &s, p, len, tensor, sample_rate, max_outputs)) {
    tfe_pbw_free(&s);
    return;
  }
  finish_summary(k, &s);
}

static void k_audio_summary(tfe_kernel_context* k) {
  float sr = 0;
  if (k->attrs != NULL) tfe_attrs_get_float(k->attrs, "sample_rate", &sr, NULL);
  audio_summary(k, sr);
}

static void k_audio_summary_v2(tfe_kernel_context* k) {
  const TF_Tensor* sr = k->inputs[2];
  if (kutil_num_elements(sr) < 1) {
    kutil_shape_buf sb;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "sample_rate must be a scalar, got shape %s",
               shape_dbg(sr, &sb));
    return;
  }
  audio_summary(k, ((const float*)kutil_data(sr))[0]);
}

/* ------------------------------------------------------------------------
 * Registration */

void tfe_register_cpu_io_summary_kernels(void) {
  static const TF_DataType real[] = {KUTIL_REAL_TYPES};
  static const TF_DataType all[] = {KUTIL_POD_TYPES, TF_STRING};
  tfe_kutil_register("ScalarSummary", k_scalar_summary, "T", real,
                     KUTIL_COUNT(real), NULL, NULL, 0);
  tfe_kutil_register("HistogramSummary", k_histogram_summary, "T", real,
                     KUTIL_COUNT(real), NULL, NULL, 0);
  tfe_kutil_register("TensorSummary", k_tensor_summary, "T", all,
                     KUTIL_COUNT(all), NULL, NULL, 0);
  tfe_kutil_register("TensorSummaryV2", k_tensor_summary_v2, "T", all,
                     KUTIL_COUNT(all), NULL, NULL, 0);
  tfe_kutil_register("MergeSummary", k_merge_summary, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("ImageSummary", k_image_summary, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("AudioSummary", k_audio_summary, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("AudioSummaryV2", k_audio_summary_v2, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_register_cpu_io_summary_codec_kernels();
  tfe_register_cpu_io_summary_writer_kernels();
  tfe_register_cpu_io_summary_reader_kernels();
}
