/* Test device plugin with a graph optimizer that rewrites graphs
 * (tests/c/test_grappler_run.c). The device itself is the do-nothing
 * StreamExecutor device of se_broken_common.h (type GR_DEVICE); ops run on
 * the CPU. The optimizer works on TF's serialized GraphDef with a small
 * protobuf re-encoder of its own, as a real plugin would with protobuf:
 *
 *   GR_MODE unset or "rewrite": every node of op "Sub" becomes "AddV2"
 *     (same signature), so a session computes a + b where the graph says
 *     a - b;
 *   "fail": the optimizer reports INTERNAL "gr: boom";
 *   "garbage": it returns bytes that are not a GraphDef;
 *   "unknown_op": the rewritten node's op becomes "NoSuchOpGr";
 *   "drop": it leaves out every node named "y";
 *   "abort": it returns ABORTED (TF's "did nothing");
 *   "empty": it writes nothing.
 *
 * The optimizer also calls the grappler.h helpers and records what they
 * said; the test reads it with gr_seen() (dlsym). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SE_PLATFORM_NAME "GR_PLATFORM"
#define SE_DEVICE_TYPE "GR_DEVICE"
#include "se_broken_common.h"

static char gr_record[2048];
static int gr_calls;

TF_CAPI_EXPORT const char* gr_seen(void);
const char* gr_seen(void) { return gr_record; }
TF_CAPI_EXPORT int gr_num_calls(void);
int gr_num_calls(void) { return gr_calls; }

/* ---- a tiny protobuf writer/reader ---- */

typedef struct wbuf {
  unsigned char* p;
  size_t len, cap;
} wbuf;

static void w_bytes(wbuf* w, const void* d, size_t n) {
  if (w->len + n > w->cap) {
    size_t cap = w->cap ? w->cap * 2 : 256;
    while (cap < w->len + n) cap *= 2;
    w->p = (unsigned char*)realloc(w->p, cap);
    w->cap = cap;
  }
  memcpy(w->p + w->len, d, n);
  w->len += n;
}

static void w_varint(wbuf* w, uint64_t v) {
  unsigned char b[10];
  int n = 0;
  do {
    b[n] = (unsigned char)(v & 0x7f);
    v >>= 7;
    if (v) b[n] |= 0x80;
    n++;
  } while (v);
  w_bytes(w, b, (size_t)n);
}

static void w_len_field(wbuf* w, int field, const void* d, size_t n) {
  w_varint(w, ((uint64_t)field << 3) | 2);
  w_varint(w, n);
  w_bytes(w, d, n);
}

static int r_varint(const unsigned char** p, const unsigned char* end,
                    uint64_t* v) {
  int shift = 0;
  *v = 0;
  while (*p < end && shift < 64) {
    unsigned char c = *(*p)++;
    *v |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) return 1;
    shift += 7;
  }
  return 0;
}

/* Skips a field's value; 0 on malformed input. */
static int r_skip(const unsigned char** p, const unsigned char* end,
                  int wire) {
  uint64_t v;
  switch (wire) {
    case 0: return r_varint(p, end, &v);
    case 1: if (end - *p < 8) return 0; *p += 8; return 1;
    case 5: if (end - *p < 4) return 0; *p += 4; return 1;
    case 2:
      if (!r_varint(p, end, &v) || (uint64_t)(end - *p) < v) return 0;
      *p += v;
      return 1;
    default: return 0;
  }
}

/* The string field `field` of a message, or NULL (len in *n). */
static const unsigned char* find_str(const unsigned char* p,
                                     const unsigned char* end, int field,
                                     size_t* n) {
  while (p < end) {
    uint64_t tag, len;
    if (!r_varint(&p, end, &tag)) return NULL;
    if ((int)(tag >> 3) == field && (tag & 7) == 2) {
      if (!r_varint(&p, end, &len) || (uint64_t)(end - p) < len) return NULL;
      *n = (size_t)len;
      return p;
    }
    if (!r_skip(&p, end, (int)(tag & 7))) return NULL;
  }
  return NULL;
}

/* A NodeDef re-encoded with its op (field 2) replaced by new_op. */
static void rewrite_node(wbuf* out, const unsigned char* p,
                         const unsigned char* end, const char* new_op) {
  while (p < end) {
    const unsigned char* start = p;
    uint64_t tag;
    if (!r_varint(&p, end, &tag)) return;
    if ((tag >> 3) == 2 && (tag & 7) == 2) {
      uint64_t len;
      if (!r_varint(&p, end, &len)) return;
      p += len;
      w_len_field(out, 2, new_op, strlen(new_op));
      continue;
    }
    if (!r_skip(&p, end, (int)(tag & 7))) return;
    w_bytes(out, start, (size_t)(p - start));
  }
}

/* ---- what the helpers report ---- */

static void record_lists(const TF_GrapplerItem* item) {
  TF_Status* s = TF_NewStatus();
  size_t off = strlen(gr_record);
  int kind;
  for (kind = 0; kind < 2; kind++) {
    int n = 0, i;
    size_t bytes = 0;
    char** vals;
    size_t* lens;
    char* storage;
    if (kind == 0) {
      TF_GetFetchNodesListSize(item, &n, &bytes, s);
    } else {
      TF_GetNodesToPreserveListSize(item, &n, &bytes, s);
    }
    if (TF_GetCode(s) != TF_OK) break;
    vals = (char**)calloc((size_t)n + 1, sizeof(char*));
    lens = (size_t*)calloc((size_t)n + 1, sizeof(size_t));
    storage = (char*)malloc(bytes + 1);
    if (kind == 0) {
      TF_GetFetchNodesList(item, vals, lens, n, storage, bytes, s);
    } else {
      TF_GetNodesToPreserveList(item, vals, lens, n, storage, bytes, s);
    }
    off += (size_t)snprintf(gr_record + off, sizeof gr_record - off, "%s=",
                            kind == 0 ? "fetch" : "preserve");
    for (i = 0; i < n && TF_GetCode(s) == TF_OK; i++) {
      off += (size_t)snprintf(gr_record + off, sizeof gr_record - off,
                              "%s%.*s", i ? "," : "", (int)lens[i], vals[i]);
    }
    off += (size_t)snprintf(gr_record + off, sizeof gr_record - off, ";");
    free(vals);
    free(lens);
    free(storage);
  }
  /* Output properties of node "a": count and the first one's dtype and
   * rank (TensorProperties: dtype = 1, shape = 2 with dim = 2). */
  {
    TF_GraphProperties* gp = TF_NewGraphProperties(item);
    int n = -1;
    TF_InferStatically(gp, 0, 0, 0, 1, s);
    TF_GetOutputPropertiesListSize(gp, "a", &n, s);
    off += (size_t)snprintf(gr_record + off, sizeof gr_record - off,
                            "props(a)=%d", n);
    if (n >= 1 && TF_GetCode(s) == TF_OK) {
      TF_Buffer* b = TF_NewBuffer();
      TF_GetOutputPropertiesList(gp, "a", &b, 1, s);
      if (TF_GetCode(s) == TF_OK) {
        const unsigned char* p = (const unsigned char*)b->data;
        const unsigned char* end = p + b->length;
        uint64_t tag, v = 0;
        int dims = -1, has_value = 0;
        while (p < end && r_varint(&p, end, &tag)) {
          if (tag == ((1 << 3) | 0)) {
            r_varint(&p, end, &v);
          } else if ((tag >> 3) == 2 && (tag & 7) == 2) {
            uint64_t len;
            const unsigned char* q;
            r_varint(&p, end, &len);
            q = p;
            dims = 0;
            while (q < p + len) {
              uint64_t t2;
              r_varint(&q, p + len, &t2);
              if ((t2 >> 3) == 2) dims++;
              if (!r_skip(&q, p + len, (int)(t2 & 7))) break;
            }
            p += len;
          } else {
            if ((tag >> 3) == 3) has_value = 1;
            if (!r_skip(&p, end, (int)(tag & 7))) break;
          }
        }
        off += (size_t)snprintf(gr_record + off, sizeof gr_record - off,
                                ":dtype=%d:rank=%d:value=%d", (int)v, dims,
                                has_value);
      }
      TF_DeleteBuffer(b);
    }
    TF_DeleteGraphProperties(gp);
  }
  TF_DeleteStatus(s);
}

/* ---- the optimizer ---- */

static void* gr_create(void) { return malloc(16); }
static void gr_destroy(void* o) { free(o); }

static void free_data(void* data, size_t len) {
  (void)len;
  free(data);
}

static void gr_optimize(void* obj, const TF_Buffer* in,
                        const TF_GrapplerItem* item, TF_Buffer* out,
                        TF_Status* st) {
  const char* mode = getenv("GR_MODE");
  const unsigned char* p = (const unsigned char*)in->data;
  const unsigned char* end = p + in->length;
  wbuf w = {NULL, 0, 0};
  const char* new_op = "AddV2";
  (void)obj;
  gr_calls++;
  gr_record[0] = '\0';
  record_lists(item);
  if (mode == NULL) mode = "rewrite";
  if (strcmp(mode, "fail") == 0) {
    TF_SetStatus(st, TF_INTERNAL, "gr: boom");
    return;
  }
  if (strcmp(mode, "abort") == 0) {
    TF_SetStatus(st, TF_ABORTED, "gr: nothing to do");
    return;
  }
  if (strcmp(mode, "empty") == 0) {
    TF_SetStatus(st, TF_OK, "");
    return;
  }
  if (strcmp(mode, "garbage") == 0) {
    static const unsigned char junk[] = {0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01};
    w_bytes(&w, junk, sizeof junk);
  } else {
    if (strcmp(mode, "unknown_op") == 0) new_op = "NoSuchOpGr";
    while (p < end) {
      const unsigned char* start = p;
      uint64_t tag;
      if (!r_varint(&p, end, &tag)) break;
      if ((tag >> 3) == 1 && (tag & 7) == 2) {
        uint64_t len;
        const unsigned char* body;
        size_t n = 0, nn = 0;
        const unsigned char* op;
        const unsigned char* name;
        if (!r_varint(&p, end, &len) || (uint64_t)(end - p) < len) break;
        body = p;
        p += len;
        op = find_str(body, body + len, 2, &n);
        name = find_str(body, body + len, 1, &nn);
        if (strcmp(mode, "drop") == 0 && name != NULL && nn == 1 &&
            name[0] == 'y') {
          continue;
        }
        if (op != NULL && n == 3 && memcmp(op, "Sub", 3) == 0) {
          wbuf node = {NULL, 0, 0};
          rewrite_node(&node, body, body + len, new_op);
          w_len_field(&w, 1, node.p, node.len);
          free(node.p);
          continue;
        }
      } else if (!r_skip(&p, end, (int)(tag & 7))) {
        break;
      }
      w_bytes(&w, start, (size_t)(p - start));
    }
  }
  /* The bytes go to the output buffer, which frees them with free(). */
  out->data = w.p;
  out->length = w.len;
  out->data_deallocator = w.p != NULL ? free_data : NULL;
  TF_SetStatus(st, TF_OK, "");
}

TF_CAPI_EXPORT void TF_InitGraph(TP_OptimizerRegistrationParams* params,
                                 TF_Status* status);
void TF_InitGraph(TP_OptimizerRegistrationParams* params, TF_Status* status) {
  params->struct_size = TP_OPTIMIZER_REGISTRATION_PARAMS_STRUCT_SIZE;
  params->device_type = SE_DEVICE_TYPE;
  params->optimizer_configs->struct_size = TP_OPTIMIZER_CONFIGS_STRUCT_SIZE;
  params->optimizer->struct_size = TP_OPTIMIZER_STRUCT_SIZE;
  params->optimizer->create_func = gr_create;
  params->optimizer->destroy_func = gr_destroy;
  params->optimizer->optimize_func = gr_optimize;
  TF_SetStatus(status, TF_OK, "");
}
