/* GraphDef import: parsing the serialized GraphDef (core/pb.h reader) and
 * adding its nodes to a graph with TF's ImportGraphDef semantics.
 *
 * GraphDef fields read: node 1 (NodeDef), library 2 (FunctionDefLibrary,
 * handed to the graph's function library), versions 4 (VersionDef:
 * producer 1, min_consumer 2, bad_consumers 3); version 3 (deprecated) and
 * everything else is skipped. NodeDef: name 1, op 2, input 3, device 4,
 * attr 5 (map<string, AttrValue>: key 1, value 2); the debug info and
 * full-type fields are skipped. Nothing is copied out of the caller's
 * bytes: the parsed form only points into them.
 *
 * The import follows the steps of TF's graph constructor, with TF's
 * messages: version checks, name collisions and the prefix, the input map
 * and control dependencies, the node index (valid and unique names, an op
 * per node, control inputs last), the edges (every input must name a node
 * of the GraphDef or be remapped), the function library, then the nodes in
 * topological order (among the ready ones, GraphDef order first, as TF
 * does). Every node is built with the description API under the graph's
 * lock (TF_NewOperationLocked ... TF_FinishOperationLocked), so imported
 * operations get exactly the checks and shape inference of hand-built
 * ones. v1 loops: a Merge whose data input comes from a NextIteration is
 * created before that NextIteration exists, with its first forward input
 * standing in for the back edge, and rewired once the NextIteration is
 * built. A failure removes everything the import added (operations and
 * functions), so the graph is left as it was. Everything is linear in the
 * size of the GraphDef except the ready queue (a binary heap). */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "eager/eager_internal.h"
#include "graph/function_lib.h"
#include "graph/import_internal.h"
#include "ops/proto_encode.h"

/* ========================================================================
 * Parsed form. */

typedef struct slice {
  const char* p;
  size_t n;
} slice;

typedef struct gattr {
  slice key, value;
} gattr;

typedef struct ginput {
  slice raw;    /* as written in the NodeDef */
  slice node;   /* node name part */
  int index;    /* output index; -1 for "^name" */
  int src;      /* GraphDef node it names, or -1 when remapped */
  int map;      /* input-map entry (sorted index) when remapped, else -1 */
} ginput;

typedef struct gnode {
  slice name, type, device; /* type: the op */
  int first_input, num_inputs;
  int first_attr, num_attrs;
  /* Import state. */
  int pending;
  int out_first, out_count; /* successor list (CSR) */
  TF_Operation* op;
  int skipped_outputs; /* flat outputs of a node skip_mapped_nodes left out */
  unsigned char is_merge, is_next_iteration, uniquified, skipped;
  unsigned char has_private_attr; /* an attr name starts with '_' */
} gnode;

struct tfe_gdef {
  gnode* nodes;
  int num_nodes, cap_nodes;
  ginput* inputs;
  int num_inputs, cap_inputs;
  gattr* attrs;
  int num_attrs, cap_attrs;
  int producer, min_consumer;
  int* bad_consumers;
  int num_bad, cap_bad;
  /* FunctionDefLibrary bytes: a slice of the input, or (when the field
   * appears several times, which protobuf merges) an owned concatenation. */
  const unsigned char* library;
  size_t library_len;
  unsigned char* library_owned;
};

/* Grows *items (of `size` bytes each) to hold one more; 0 on OOM. */
static int grow(void** items, int* cap, int count, size_t size) {
  int ncap;
  size_t bytes;
  void* p;
  if (count < *cap) return 1;
  ncap = *cap ? *cap * 2 : 16;
  if (ncap < *cap || !tfe_mul_size((size_t)ncap, size, &bytes)) return 0;
  p = tfe_realloc(*items, bytes);
  if (p == NULL) return 0;
  *items = p;
  *cap = ncap;
  return 1;
}

void tfe_gdef_free(tfe_gdef* gd) {
  if (gd == NULL) return;
  tfe_free(gd->nodes);
  tfe_free(gd->inputs);
  tfe_free(gd->attrs);
  tfe_free(gd->bad_consumers);
  tfe_free(gd->library_owned);
  tfe_free(gd);
}

static slice slice_of(const tfe_pbr* r) {
  slice s;
  s.p = (const char*)r->p;
  s.n = (size_t)(r->end - r->p);
  return s;
}

/* Parse results: 1 ok, 0 malformed, -1 out of memory. */
#define P_BAD 0
#define P_OOM (-1)

static int parse_attr_entry(tfe_gdef* gd, tfe_pbr* r) {
  gattr a;
  int f, w;
  a.key.p = a.value.p = "";
  a.key.n = a.value.n = 0;
  while (r->p < r->end) {
    tfe_pbr sub;
    if (!tfe_pbr_tag(r, &f, &w)) return P_BAD;
    if ((f == 1 || f == 2) && w == 2) {
      if (!tfe_pbr_len(r, &sub)) return P_BAD;
      if (f == 1) {
        a.key = slice_of(&sub);
      } else {
        a.value = slice_of(&sub);
      }
    } else if (!tfe_pbr_skip(r, f, w)) {
      return P_BAD;
    }
  }
  /* The AttrValue must at least be well-formed on the wire. */
  if (!tfe_pb_well_formed(a.value.p, a.value.n)) return P_BAD;
  if (!grow((void**)&gd->attrs, &gd->cap_attrs, gd->num_attrs, sizeof(a))) {
    return P_OOM;
  }
  gd->attrs[gd->num_attrs++] = a;
  return 1;
}

static int parse_node(tfe_gdef* gd, tfe_pbr* r) {
  gnode n;
  int f, w, rc;
  memset(&n, 0, sizeof(n));
  n.name.p = n.type.p = n.device.p = "";
  n.first_input = gd->num_inputs;
  n.first_attr = gd->num_attrs;
  while (r->p < r->end) {
    tfe_pbr sub;
    if (!tfe_pbr_tag(r, &f, &w)) return P_BAD;
    if (w == 2 && f >= 1 && f <= 5) {
      if (!tfe_pbr_len(r, &sub)) return P_BAD;
      switch (f) {
        case 1:
          n.name = slice_of(&sub);
          break;
        case 2:
          n.type = slice_of(&sub);
          break;
        case 3: {
          ginput in;
          memset(&in, 0, sizeof(in));
          in.raw = slice_of(&sub);
          if (!grow((void**)&gd->inputs, &gd->cap_inputs, gd->num_inputs,
                    sizeof(in))) {
            return P_OOM;
          }
          gd->inputs[gd->num_inputs++] = in;
          break;
        }
        case 4:
          n.device = slice_of(&sub);
          break;
        default:
          if ((rc = parse_attr_entry(gd, &sub)) != 1) return rc;
          if (gd->attrs[gd->num_attrs - 1].key.n > 0 &&
              gd->attrs[gd->num_attrs - 1].key.p[0] == '_') {
            n.has_private_attr = 1;
          }
          break;
      }
    } else if (!tfe_pbr_skip(r, f, w)) {
      return P_BAD;
    }
  }
  n.num_inputs = gd->num_inputs - n.first_input;
  n.num_attrs = gd->num_attrs - n.first_attr;
  if (!grow((void**)&gd->nodes, &gd->cap_nodes, gd->num_nodes, sizeof(n))) {
    return P_OOM;
  }
  gd->nodes[gd->num_nodes++] = n;
  return 1;
}

static int add_bad_consumer(tfe_gdef* gd, uint64_t v) {
  if (!grow((void**)&gd->bad_consumers, &gd->cap_bad, gd->num_bad,
            sizeof(int))) {
    return P_OOM;
  }
  gd->bad_consumers[gd->num_bad++] = (int)(int32_t)(uint32_t)v;
  return 1;
}

static int parse_versions(tfe_gdef* gd, tfe_pbr* r) {
  int f, w, rc;
  uint64_t v;
  while (r->p < r->end) {
    if (!tfe_pbr_tag(r, &f, &w)) return P_BAD;
    if ((f == 1 || f == 2 || f == 3) && w == 0) {
      if (!tfe_pbr_varint(r, &v)) return P_BAD;
      if (f == 1) {
        gd->producer = (int)(int32_t)(uint32_t)v;
      } else if (f == 2) {
        gd->min_consumer = (int)(int32_t)(uint32_t)v;
      } else if ((rc = add_bad_consumer(gd, v)) != 1) {
        return rc;
      }
    } else if (f == 3 && w == 2) { /* packed bad_consumers */
      tfe_pbr sub;
      if (!tfe_pbr_len(r, &sub)) return P_BAD;
      while (sub.p < sub.end) {
        if (!tfe_pbr_varint(&sub, &v)) return P_BAD;
        if ((rc = add_bad_consumer(gd, v)) != 1) return rc;
      }
    } else if (!tfe_pbr_skip(r, f, w)) {
      return P_BAD;
    }
  }
  return 1;
}

/* Appends another library field (protobuf merges repeated messages by
 * concatenating their repeated fields, i.e. their bytes). */
static int add_library(tfe_gdef* gd, const tfe_pbr* sub) {
  size_t n = (size_t)(sub->end - sub->p);
  unsigned char* p;
  if (gd->library == NULL) {
    gd->library = sub->p;
    gd->library_len = n;
    return 1;
  }
  if (n == 0) return 1;
  p = (unsigned char*)tfe_malloc(gd->library_len + n);
  if (p == NULL) return P_OOM;
  memcpy(p, gd->library, gd->library_len);
  memcpy(p + gd->library_len, sub->p, n);
  tfe_free(gd->library_owned);
  gd->library_owned = p;
  gd->library = p;
  gd->library_len += n;
  return 1;
}

/* Counts the nodes, inputs and attrs of a GraphDef with a quick scan of
 * the tags, so that the parse allocates its tables once. Stops at the
 * first malformed byte (the parse then reports it); the counts are only a
 * reservation. */
static void count_gdef(const unsigned char* p, const unsigned char* end,
                       int* nodes, int* inputs, int* attrs) {
  tfe_pbr r, sub;
  int f, w;
  r.p = p;
  r.end = end;
  *nodes = *inputs = *attrs = 0;
  while (r.p < r.end) {
    if (!tfe_pbr_tag(&r, &f, &w)) return;
    if (f == 1 && w == 2) {
      if (!tfe_pbr_len(&r, &sub) || *nodes == INT_MAX) return;
      (*nodes)++;
      while (sub.p < sub.end) {
        int nf, nw;
        if (!tfe_pbr_tag(&sub, &nf, &nw)) return;
        if (nw == 2 && nf == 3 && *inputs < INT_MAX) (*inputs)++;
        if (nw == 2 && nf == 5 && *attrs < INT_MAX) (*attrs)++;
        if (!tfe_pbr_skip(&sub, nf, nw)) return;
      }
    } else if (!tfe_pbr_skip(&r, f, w)) {
      return;
    }
  }
}

/* Allocates room for n items of `size` bytes up front (best effort: the
 * parse grows the table itself when this fails). */
static void reserve_table(void** items, int* cap, int n, size_t size) {
  size_t bytes;
  void* p;
  if (n <= 0 || !tfe_mul_size((size_t)n, size, &bytes)) return;
  p = tfe_malloc(bytes);
  if (p == NULL) return;
  *items = p;
  *cap = n;
}

tfe_gdef* tfe_gdef_parse(const void* data, size_t len, TF_Status* s) {
  tfe_gdef* gd = (tfe_gdef*)tfe_calloc(1, sizeof(*gd));
  tfe_pbr r;
  int f, w, rc = 1;
  if (gd == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory parsing GraphDef");
    return NULL;
  }
  if (len > 0 && (data == NULL || len > (size_t)PTRDIFF_MAX)) {
    rc = P_BAD;
  } else {
    int nn, ni, na;
    if (data != NULL) {
      count_gdef((const unsigned char*)data,
                 (const unsigned char*)data + len, &nn, &ni, &na);
      reserve_table((void**)&gd->nodes, &gd->cap_nodes, nn, sizeof(gnode));
      reserve_table((void**)&gd->inputs, &gd->cap_inputs, ni, sizeof(ginput));
      reserve_table((void**)&gd->attrs, &gd->cap_attrs, na, sizeof(gattr));
    }
    r.p = (const unsigned char*)data;
    r.end = data == NULL ? r.p : r.p + len;
    while (rc == 1 && r.p < r.end) {
      tfe_pbr sub;
      if (!tfe_pbr_tag(&r, &f, &w)) {
        rc = P_BAD;
      } else if (w == 2 && (f == 1 || f == 2 || f == 4)) {
        if (!tfe_pbr_len(&r, &sub)) {
          rc = P_BAD;
        } else if (f == 1) {
          rc = parse_node(gd, &sub);
        } else if (f == 2) {
          rc = tfe_pb_well_formed(sub.p, (size_t)(sub.end - sub.p))
                   ? add_library(gd, &sub)
                   : P_BAD;
        } else {
          rc = parse_versions(gd, &sub);
        }
      } else if (!tfe_pbr_skip(&r, f, w)) {
        rc = P_BAD;
      }
    }
  }
  if (rc != 1) {
    if (rc == P_OOM) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "out of memory parsing GraphDef");
    } else {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "Invalid GraphDef");
    }
    tfe_gdef_free(gd);
    return NULL;
  }
  return gd;
}

/* ========================================================================
 * Small helpers: strings, hashing, names. */

static int slice_eq(slice a, slice b) {
  return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static int slice_eq_str(slice a, const char* s) {
  size_t n = strlen(s);
  return a.n == n && memcmp(a.p, s, n) == 0;
}

/* slice_eq_str for a string literal (its length known at compile time). */
#define SLICE_EQ_LIT(a, lit) \
  ((a).n == sizeof(lit) - 1 && memcmp((a).p, lit, sizeof(lit) - 1) == 0)

/* std::string ordering: bytes as unsigned, then length. */
static int slice_cmp(slice a, slice b) {
  size_t n = a.n < b.n ? a.n : b.n;
  int c = n ? memcmp(a.p, b.p, n) : 0;
  if (c != 0) return c;
  return a.n < b.n ? -1 : (a.n > b.n ? 1 : 0);
}

static int has_nul(slice a) { return a.n > 0 && memchr(a.p, '\0', a.n); }

static uint64_t hash_slice(slice s) {
  uint64_t h = 1469598103934665603ull;
  size_t i;
  for (i = 0; i < s.n; i++) {
    h ^= (unsigned char)s.p[i];
    h *= 1099511628211ull;
  }
  return h ^ (h >> 31);
}

/* A growable NUL-terminated string. */
typedef struct sbuf {
  char* p;
  size_t n, cap;
  int oom;
} sbuf;

static void sb_add(sbuf* b, const char* p, size_t n) {
  if (b->oom) return;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    char* q;
    while (cap < b->n + n + 1) cap *= 2;
    q = (char*)tfe_realloc(b->p, cap);
    if (q == NULL) {
      b->oom = 1;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
  if (n) memcpy(b->p + b->n, p, n);
  b->n += n;
  b->p[b->n] = '\0';
}

static void sb_slice(sbuf* b, slice s) { sb_add(b, s.p, s.n); }
static void sb_str(sbuf* b, const char* s) { sb_add(b, s, strlen(s)); }
static void sb_reset(sbuf* b) {
  b->n = 0;
  if (b->p != NULL) b->p[0] = '\0';
}
static const char* sb_cstr(sbuf* b) { return b->p != NULL ? b->p : ""; }

/* An open-addressing set of names (slices borrowed from elsewhere), or a
 * map from names to GraphDef node indices (vals). */
typedef struct nameset {
  slice* keys; /* keys[i].p == NULL: empty slot */
  int* vals;
  size_t cap, count;
} nameset;

static void ns_free(nameset* t) {
  tfe_free(t->keys);
  tfe_free(t->vals);
  memset(t, 0, sizeof(*t));
}

static int ns_init(nameset* t, size_t expected, int with_vals) {
  size_t cap = 16;
  memset(t, 0, sizeof(*t));
  while (cap < expected * 2 + 1) {
    if (cap > SIZE_MAX / 4) return 0;
    cap *= 2;
  }
  t->keys = (slice*)tfe_calloc(cap, sizeof(slice));
  if (t->keys == NULL) return 0;
  if (with_vals) {
    t->vals = (int*)tfe_calloc(cap, sizeof(int));
    if (t->vals == NULL) {
      ns_free(t);
      return 0;
    }
  }
  t->cap = cap;
  return 1;
}

/* Index of the slot holding `k` or of the empty slot where it would go. */
static size_t ns_slot(const nameset* t, slice k) {
  size_t mask = t->cap - 1, i = (size_t)hash_slice(k) & mask;
  while (t->keys[i].p != NULL && !slice_eq(t->keys[i], k)) i = (i + 1) & mask;
  return i;
}

static int ns_has(const nameset* t, slice k) {
  return t->cap > 0 && t->keys[ns_slot(t, k)].p != NULL;
}

static int ns_get(const nameset* t, slice k) {
  size_t i;
  if (t->cap == 0) return -1;
  i = ns_slot(t, k);
  return t->keys[i].p != NULL ? t->vals[i] : -1;
}

/* Inserts k (val ignored without vals). Returns 1 when added, 0 when it
 * was there, -1 on OOM. */
static int ns_put(nameset* t, slice k, int val) {
  size_t i;
  if ((t->count + 1) * 2 > t->cap) {
    nameset bigger;
    size_t j;
    if (!ns_init(&bigger, t->count + 1, t->vals != NULL)) return -1;
    for (j = 0; j < t->cap; j++) {
      if (t->keys[j].p != NULL) {
        size_t at = ns_slot(&bigger, t->keys[j]);
        bigger.keys[at] = t->keys[j];
        if (bigger.vals != NULL) bigger.vals[at] = t->vals[j];
      }
    }
    bigger.count = t->count;
    ns_free(t);
    *t = bigger;
  }
  i = ns_slot(t, k);
  if (t->keys[i].p != NULL) return 0;
  t->keys[i] = k;
  if (t->vals != NULL) t->vals[i] = val;
  t->count++;
  return 1;
}

/* Adds every proper prefix of `name` ending before a '/'. */
static int ns_put_prefixes(nameset* t, slice name) {
  size_t i;
  for (i = 0; i < name.n; i++) {
    if (name.p[i] == '/') {
      slice pre;
      pre.p = name.p;
      pre.n = i;
      if (ns_put(t, pre, 0) < 0) return 0;
    }
  }
  return 1;
}

static int is_letter_digit(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

static int is_name_body(unsigned char c) {
  return is_letter_digit(c) || c == '-' || c == '.' || c == '/' || c == '_';
}

/* TF's node-name rule: [A-Za-z0-9.][A-Za-z0-9_./-]*, optionally followed
 * by pieces ">[A-Za-z0-9.][A-Za-z0-9_./-]*". */
static int valid_node_name(slice s) {
  size_t i = 0;
  for (;;) {
    if (i >= s.n) return 0;
    if (!is_letter_digit((unsigned char)s.p[i]) && s.p[i] != '.') return 0;
    i++;
    while (i < s.n && is_name_body((unsigned char)s.p[i])) i++;
    if (i == s.n) return 1;
    if (s.p[i] != '>') return 0;
    i++;
  }
}

/* TF's ParseTensorName: "name:digits" is an output, "^name" a control
 * input, anything else output 0 of the whole string. */
static void parse_tensor_name(slice in, slice* node, int* index) {
  size_t i = in.n;
  uint64_t idx = 0, mul = 1;
  int digits = 0;
  while (i > 1 && in.p[i - 1] >= '0' && in.p[i - 1] <= '9') {
    if (digits < 19) {
      idx += (uint64_t)(in.p[i - 1] - '0') * mul;
      mul *= 10;
    } else if (in.p[i - 1] != '0') {
      idx = (uint64_t)INT_MAX; /* far out of range either way */
    }
    digits++;
    i--;
  }
  if (i > 1 && digits > 0 && in.p[i - 1] == ':') {
    node->p = in.p;
    node->n = i - 1;
    *index = idx > (uint64_t)INT_MAX ? INT_MAX : (int)idx;
  } else if (in.n > 0 && in.p[0] == '^') {
    node->p = in.p + 1;
    node->n = in.n - 1;
    *index = -1;
  } else {
    *node = in;
    *index = 0;
  }
}

static const char* dtype_text(TF_DataType t, char* buf, size_t cap) {
  int base = (int)t > 100 ? (int)t - 100 : (int)t;
  const char* n = tfe_dtype_short_name((TF_DataType)base);
  snprintf(buf, cap, "%s%s", n != NULL ? n : "invalid",
           (int)t > 100 ? "_ref" : "");
  return buf;
}

static int types_compatible(TF_DataType expected, TF_DataType actual) {
  int base = (int)actual > 100 ? (int)actual - 100 : (int)actual;
  return expected == actual || (int)expected == base;
}

/* ========================================================================
 * The importer. */

typedef struct imap {
  slice src;       /* borrowed from the options */
  int src_index;
  TF_Operation* dst;
  int dst_index;
  int used;
  int order;       /* position in the options (later wins) */
} imap;

typedef struct back_edge {
  TF_Operation* dst;
  int dst_input;
  int src;      /* GraphDef node */
  int src_index;
} back_edge;

/* One edge out of a GraphDef node; `back` marks a NextIteration -> Merge
 * data edge, which the Merge does not wait for. */
typedef struct succ_entry {
  int dst;
  int back;
} succ_entry;

/* What a node's op type resolves to (node_type_of); the importer keeps
 * the first few types it meets (a GraphDef uses few), since neither the
 * registry nor the graph's library changes while nodes are built. */
typedef struct type_entry {
  slice type;
  const tfe_op_def* def;
  int reg;         /* def is the registered op of exactly that name */
  int deprecated;  /* tfe_op_deprecation's answer for def->name */
  int dep_version;
  const char* dep_why;
} type_entry;

#define TYPE_CACHE 32 /* slots (a power of two), at most 3/4 used */

typedef struct importer {
  TF_Graph* g;
  const TF_ImportGraphDefOptions* opts;
  const tfe_gdef* gd;
  gnode* nodes; /* writable copy of gd->nodes */
  ginput* inputs;
  TF_Status* s;
  int first_new;      /* ops with id >= this were added by the import */
  int flib_count;     /* functions before the import (-1: no library) */
  char* prefix;       /* "" or "name/" */
  size_t prefix_len;
  imap* map;          /* sorted by (src, src_index), unique keys */
  int num_map;
  TF_Operation** ctl_deps;
  int num_ctl_deps;
  nameset gdef_names;     /* name -> node index */
  nameset gdef_prefixes;  /* built when uniquifying */
  nameset graph_prefixes; /* prefixes of the names in the graph */
  int have_gdef_prefixes, have_graph_prefixes;
  succ_entry* succ;   /* successor lists (CSR) */
  back_edge* back;
  int num_back, cap_back;
  int any_uniquified;
  sbuf tmp, tmp2;
  type_entry types[TYPE_CACHE]; /* open addressing; type.p NULL: empty */
  int num_types;
  type_entry type_miss; /* the answer when the cache is full */
} importer;

static int oom(importer* im) {
  tfe_status_setf(im->s, TF_RESOURCE_EXHAUSTED,
                  "out of memory importing a GraphDef");
  return 0;
}

static int fail(importer* im, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int fail(importer* im, const char* fmt, ...) {
  va_list ap;
  char small[512];
  int n;
  va_start(ap, fmt);
  n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) {
    TF_SetStatus(im->s, TF_INVALID_ARGUMENT, "invalid GraphDef");
  } else if ((size_t)n < sizeof small) {
    TF_SetStatus(im->s, TF_INVALID_ARGUMENT, small);
  } else {
    char* big = (char*)tfe_malloc((size_t)n + 1);
    if (big == NULL) {
      TF_SetStatus(im->s, TF_INVALID_ARGUMENT, small);
    } else {
      va_start(ap, fmt);
      vsnprintf(big, (size_t)n + 1, fmt, ap);
      va_end(ap);
      TF_SetStatus(im->s, TF_INVALID_ARGUMENT, big);
      tfe_free(big);
    }
  }
  return 0;
}

/* "name:index" / "^name" as TF's TensorId::ToString prints it. */
static const char* tensor_id_text(sbuf* b, slice name, int index) {
  char num[16];
  sb_reset(b);
  if (index == -1) {
    sb_str(b, "^");
    sb_slice(b, name);
  } else {
    sb_slice(b, name);
    snprintf(num, sizeof num, ":%d", index);
    sb_str(b, num);
  }
  return sb_cstr(b);
}

static slice slice_cstr(const char* s) {
  slice r;
  r.p = s;
  r.n = strlen(s);
  return r;
}

/* Does `name` name an operation or a prefix of one in the graph as it was
 * before the import? */
static int exists_in_graph(importer* im, slice name) {
  TF_Operation* op;
  if (im->first_new == 0 || has_nul(name)) return 0;
  sb_reset(&im->tmp2);
  sb_slice(&im->tmp2, name);
  if (im->tmp2.oom) return 0;
  op = tfe_graph_find(im->g, sb_cstr(&im->tmp2));
  if (op != NULL && op->id < im->first_new) return 1;
  return im->have_graph_prefixes && ns_has(&im->graph_prefixes, name);
}

static int exists_in_gdef(importer* im, slice name) {
  return ns_has(&im->gdef_names, name) ||
         (im->have_gdef_prefixes && ns_has(&im->gdef_prefixes, name));
}

/* TF's FindUniqueName: name, name_1, name_2, ... skipping names of the
 * graph and (when check_gdef) of the GraphDef. Result in *out. */
static int find_unique_name(importer* im, slice name, int check_gdef,
                            sbuf* out) {
  int count = 0;
  sb_reset(out);
  sb_slice(out, name);
  for (;;) {
    slice cur;
    if (out->oom) return oom(im);
    cur.p = out->p;
    cur.n = out->n;
    if (!exists_in_graph(im, cur) &&
        !(count > 0 && check_gdef && exists_in_gdef(im, cur))) {
      break;
    }
    {
      char num[16];
      snprintf(num, sizeof num, "_%d", ++count);
      sb_reset(out);
      sb_slice(out, name);
      sb_str(out, num);
    }
  }
  if (im->tmp2.oom) return oom(im);
  return 1;
}

static int build_graph_prefixes(importer* im) {
  int i;
  if (im->have_graph_prefixes) return 1;
  if (!ns_init(&im->graph_prefixes, 16, 0)) return oom(im);
  im->have_graph_prefixes = 1;
  for (i = 0; i < im->first_new; i++) {
    if (!ns_put_prefixes(&im->graph_prefixes,
                         slice_cstr(im->g->ops[i]->name))) {
      return oom(im);
    }
  }
  return 1;
}

static int build_gdef_prefixes(importer* im) {
  int i;
  if (im->have_gdef_prefixes) return 1;
  if (!ns_init(&im->gdef_prefixes, 16, 0)) return oom(im);
  im->have_gdef_prefixes = 1;
  for (i = 0; i < im->gd->num_nodes; i++) {
    if (!ns_put_prefixes(&im->gdef_prefixes, im->nodes[i].name)) {
      return oom(im);
    }
  }
  return 1;
}

/* An operation of the graph as it was before the import. */
static int live_op(importer* im, const TF_Operation* op) {
  return op != NULL && op->graph == im->g && op->id >= 0 &&
         op->id < im->first_new && im->g->ops[op->id] == op;
}

static int check_versions(importer* im) {
  const tfe_gdef* gd = im->gd;
  int i;
  if (gd->producer < 0) {
    return fail(im,
                "GraphDef producer version %d below min producer 0 supported "
                "by TensorFlow %s.  Please regenerate your graph.",
                gd->producer, TF_Version());
  }
  if (gd->min_consumer > TFE_GRAPH_DEF_VERSION) {
    return fail(im,
                "GraphDef min consumer version %d above current version %d "
                "for TensorFlow %s.  Please upgrade TensorFlow.",
                gd->min_consumer, TFE_GRAPH_DEF_VERSION, TF_Version());
  }
  for (i = 0; i < gd->num_bad; i++) {
    if (gd->bad_consumers[i] == TFE_GRAPH_DEF_VERSION) {
      return fail(im,
                  "GraphDef disallows consumer version %d.  Please upgrade "
                  "TensorFlow: this version is likely buggy.",
                  TFE_GRAPH_DEF_VERSION);
    }
  }
  return 1;
}

/* TF's EnsureNoNameCollisions (the prefix is settled here). */
static int check_names_and_prefix(importer* im) {
  const TF_ImportGraphDefOptions* o = im->opts;
  const char* prefix = o->prefix != NULL ? o->prefix : "";
  size_t plen = strlen(prefix);
  int i;
  int need_prefixes = (plen == 0 && !o->uniquify_names) ||
                      (plen > 0 && o->uniquify_prefix) || o->uniquify_names;
  if (need_prefixes && im->first_new > 0 && !build_graph_prefixes(im)) return 0;
  if (plen == 0) {
    im->prefix = tfe_strdup("");
    if (im->prefix == NULL) return oom(im);
    if (!o->uniquify_names) {
      for (i = 0; i < im->gd->num_nodes; i++) {
        if (exists_in_graph(im, im->nodes[i].name)) {
          return fail(im, "Node name '%.*s' already exists in the Graph",
                      (int)im->nodes[i].name.n, im->nodes[i].name.p);
        }
      }
      if (im->tmp2.oom) return oom(im);
    }
    return 1;
  }
  {
    slice no_slash;
    no_slash.p = prefix;
    no_slash.n = prefix[plen - 1] == '/' ? plen - 1 : plen;
    if (!valid_node_name(no_slash)) {
      return fail(im,
                  "Imported node name prefix '%s%s' would lead to invalid "
                  "node names",
                  prefix, prefix[plen - 1] == '/' ? "" : "/");
    }
    sb_reset(&im->tmp);
    if (o->uniquify_prefix && exists_in_graph(im, no_slash)) {
      /* The GraphDef's own names are not indexed yet at this point in TF,
       * so only the graph's names are avoided. */
      if (!find_unique_name(im, no_slash, 0, &im->tmp)) return 0;
    } else {
      sb_slice(&im->tmp, no_slash);
    }
    sb_str(&im->tmp, "/");
    if (im->tmp.oom) return oom(im);
    im->prefix = tfe_strdup(sb_cstr(&im->tmp));
    if (im->prefix == NULL) return oom(im);
    im->prefix_len = strlen(im->prefix);
  }
  return 1;
}

static int cmp_imap(const void* a, const void* b) {
  const imap* x = (const imap*)a;
  const imap* y = (const imap*)b;
  int c = slice_cmp(x->src, y->src);
  if (c != 0) return c;
  if (x->src_index != y->src_index) return x->src_index < y->src_index ? -1 : 1;
  return x->order < y->order ? -1 : (x->order > y->order ? 1 : 0);
}

/* Binary search of the sorted input map. */
static int find_map(const importer* im, slice name, int index) {
  int lo = 0, hi = im->num_map - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    int c = slice_cmp(im->map[mid].src, name);
    if (c == 0 && im->map[mid].src_index != index) {
      c = im->map[mid].src_index < index ? -1 : 1;
    }
    if (c == 0) return mid;
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

/* TF's ValidateInputMapAndControlDependencies; builds the sorted map. */
static int check_input_map(importer* im) {
  const TF_ImportGraphDefOptions* o = im->opts;
  const tfe_import_mapping* ms = (const tfe_import_mapping*)o->input_mappings.items;
  int i, n = o->input_mappings.count, k = 0;
  if (n > 0) {
    im->map = (imap*)tfe_calloc((size_t)n, sizeof(imap));
    if (im->map == NULL) return oom(im);
    for (i = 0; i < n; i++) {
      im->map[i].src = slice_cstr(ms[i].src_name);
      im->map[i].src_index = ms[i].src_index;
      im->map[i].dst = ms[i].dst.oper;
      im->map[i].dst_index = ms[i].dst.index;
      im->map[i].order = i;
    }
    qsort(im->map, (size_t)n, sizeof(imap), cmp_imap);
    /* Keep the last of equal keys (a map assignment replaces). */
    for (i = 0; i < n; i++) {
      if (i + 1 < n && slice_eq(im->map[i].src, im->map[i + 1].src) &&
          im->map[i].src_index == im->map[i + 1].src_index) {
        continue;
      }
      im->map[k++] = im->map[i];
    }
    im->num_map = k;
  }
  for (i = 0; i < im->num_map; i++) {
    const imap* m = &im->map[i];
    char src_text[1024];
    snprintf(src_text, sizeof src_text, "%s",
             tensor_id_text(&im->tmp, m->src, m->src_index));
    if (im->tmp.oom) return oom(im);
    if (m->dst == NULL) {
      return fail(im,
                  "input_map entry for '%s' has no destination operation "
                  "(NULL)",
                  src_text);
    }
    if (!live_op(im, m->dst)) {
      return fail(im,
                  "node '%s' in input_map does not exist in graph "
                  "(input_map entry: %s->%s)",
                  m->dst->graph == im->g ? m->dst->name : "<other graph>",
                  src_text,
                  tensor_id_text(&im->tmp, slice_cstr(m->dst->graph == im->g
                                                          ? m->dst->name
                                                          : "<other graph>"),
                                 m->dst_index));
    }
    if ((m->src_index == -1) != (m->dst_index == -1)) {
      return fail(im,
                  "input_map entry %s->%s between control edge and "
                  "non-control edge",
                  src_text,
                  tensor_id_text(&im->tmp, slice_cstr(m->dst->name),
                                 m->dst_index));
    }
  }
  n = o->control_deps.count;
  if (n > 0) {
    TF_Operation* const* deps = (TF_Operation* const*)o->control_deps.items;
    im->ctl_deps = (TF_Operation**)tfe_malloc((size_t)n * sizeof(TF_Operation*));
    if (im->ctl_deps == NULL) return oom(im);
    for (i = 0; i < n; i++) {
      if (!live_op(im, deps[i])) {
        return fail(im,
                    "node '%s' in control_dependencies does not exist in graph",
                    deps[i]->graph == im->g ? deps[i]->name : "<other graph>");
      }
      im->ctl_deps[i] = deps[i];
    }
    im->num_ctl_deps = n;
  }
  return 1;
}

/* TF's BuildNodeIndex. */
static int build_node_index(importer* im) {
  int i, k;
  if (!ns_init(&im->gdef_names, (size_t)im->gd->num_nodes, 1)) return oom(im);
  for (i = 0; i < im->gd->num_nodes; i++) {
    gnode* n = &im->nodes[i];
    int seen_control = 0, rc;
    if (!valid_node_name(n->name)) {
      return fail(im, "Node '%.*s': Node name contains invalid characters",
                  (int)n->name.n, n->name.p);
    }
    rc = ns_put(&im->gdef_names, n->name, i);
    if (rc < 0) return oom(im);
    if (rc == 0) {
      return fail(im, "Node '%.*s' is not unique", (int)n->name.n, n->name.p);
    }
    if (n->type.n == 0) {
      return fail(im, "Node '%.*s' does not specify an operation",
                  (int)n->name.n, n->name.p);
    }
    n->is_merge = SLICE_EQ_LIT(n->type, "Merge") ||
                  SLICE_EQ_LIT(n->type, "RefMerge") ||
                  SLICE_EQ_LIT(n->type, "_XlaMerge");
    n->is_next_iteration = SLICE_EQ_LIT(n->type, "NextIteration") ||
                           SLICE_EQ_LIT(n->type, "RefNextIteration");
    for (k = 0; k < n->num_inputs; k++) {
      const ginput* in = &im->inputs[n->first_input + k];
      if (in->raw.n > 0 && in->raw.p[0] == '^') {
        seen_control = 1;
      } else if (seen_control) {
        return fail(im,
                    "Node '%.*s': Control dependencies must come after "
                    "regular dependencies",
                    (int)n->name.n, n->name.p);
      }
    }
  }
  return 1;
}

/* TF's InitFromEdges: resolves every input, counts what each node waits
 * for and builds the successor lists. */
static int init_edges(importer* im) {
  int n = im->gd->num_nodes, i, k, total = 0;
  int* fill;
  for (i = 0; i < n; i++) {
    gnode* nd = &im->nodes[i];
    int pending = 0, forward = 0, loop_inputs = 0;
    for (k = 0; k < nd->num_inputs; k++) {
      ginput* in = &im->inputs[nd->first_input + k];
      parse_tensor_name(in->raw, &in->node, &in->index);
      in->map = im->num_map > 0 ? find_map(im, in->node, in->index) : -1;
      in->src = -1;
      if (in->map >= 0) {
        if (in->index >= 0) forward++;
        continue;
      }
      in->src = ns_get(&im->gdef_names, in->node);
      if (in->src < 0) {
        return fail(im, "Node '%.*s': Unknown input node '%.*s'",
                    (int)nd->name.n, nd->name.p, (int)in->raw.n, in->raw.p);
      }
      total++;
      if (nd->is_merge && in->index >= 0 &&
          im->nodes[in->src].is_next_iteration) {
        loop_inputs++; /* a back edge: not waited for */
      } else {
        pending++;
        if (in->index >= 0) forward++;
      }
    }
    /* A Merge fed only by NextIterations could never be created. */
    if (loop_inputs > 0 && forward == 0) pending++;
    nd->pending = pending;
    nd->out_count = 0;
  }
  for (i = 0; i < n; i++) {
    gnode* nd = &im->nodes[i];
    for (k = 0; k < nd->num_inputs; k++) {
      const ginput* in = &im->inputs[nd->first_input + k];
      if (in->src >= 0) im->nodes[in->src].out_count++;
    }
  }
  im->succ = (succ_entry*)tfe_malloc((size_t)(total > 0 ? total : 1) *
                                     sizeof(succ_entry));
  fill = (int*)tfe_calloc((size_t)(n > 0 ? n : 1), sizeof(int));
  if (im->succ == NULL || fill == NULL) {
    tfe_free(fill);
    return oom(im);
  }
  for (i = 0, total = 0; i < n; i++) {
    im->nodes[i].out_first = total;
    total += im->nodes[i].out_count;
  }
  for (i = 0; i < n; i++) {
    gnode* nd = &im->nodes[i];
    for (k = 0; k < nd->num_inputs; k++) {
      const ginput* in = &im->inputs[nd->first_input + k];
      if (in->src >= 0) {
        gnode* src = &im->nodes[in->src];
        succ_entry* e = &im->succ[src->out_first + fill[in->src]++];
        e->dst = i;
        e->back = nd->is_merge && in->index >= 0 && src->is_next_iteration;
      }
    }
  }
  tfe_free(fill);
  return 1;
}

/* ---- a min-heap of ready node indices (GraphDef order among ready) ---- */

typedef struct heap {
  int* a;
  int n;
} heap;

static void heap_push(heap* h, int v) {
  int i = h->n++;
  h->a[i] = v;
  while (i > 0) {
    int p = (i - 1) / 2;
    if (h->a[p] <= h->a[i]) break;
    int t = h->a[p];
    h->a[p] = h->a[i];
    h->a[i] = t;
    i = p;
  }
}

static int heap_pop(heap* h) {
  int top = h->a[0], i = 0;
  h->a[0] = h->a[--h->n];
  for (;;) {
    int l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->n && h->a[l] < h->a[m]) m = l;
    if (r < h->n && h->a[r] < h->a[m]) m = r;
    if (m == i) break;
    int t = h->a[m];
    h->a[m] = h->a[i];
    h->a[i] = t;
    i = m;
  }
  return top;
}

/* ---- per-node work ---- */

/* The last attr of node `nd` named `name`, or NULL. */
static const gattr* node_attr(const importer* im, const gnode* nd,
                              const char* name) {
  int i;
  size_t n;
  /* Private attrs ("_class", "_output_shapes") are asked for on every
   * node; most nodes have none. */
  if (name[0] == '_' && !nd->has_private_attr) return NULL;
  n = strlen(name);
  for (i = nd->num_attrs - 1; i >= 0; i--) {
    const gattr* a = &im->gd->attrs[nd->first_attr + i];
    if (a->key.n == n && memcmp(a->key.p, name, n) == 0) return a;
  }
  return NULL;
}

/* One resolved input of the node being built. */
typedef struct rinput {
  TF_Operation* op; /* NULL: a back edge (its source is not built yet) */
  int index;        /* -1: control */
  slice ref_name;   /* the name TF sorts control inputs by */
  int src;          /* GraphDef source, -1 for an existing operation */
} rinput;

typedef struct node_scratch {
  rinput* in;
  int n, cap;
  TF_Output* outs;
  int outs_cap;
  /* Decoded attrs the args need. Kept from node to node (replacing a value
   * allocates nothing); `done` names the ones set for the current node,
   * the only ones the lookups below may reach (every attr an arg names has
   * a value, a default, or was reported missing before). */
  tfe_attrs attrs;
  const char** done;
  int num_done, cap_done;
  sbuf name, uniq; /* the node's final name */
  TF_OperationDescription* spare; /* tfe_desc_new_registered's */
  /* The `done` names are strings of the registered definition the
   * node's description was made from (tfe_desc_put_decoded may borrow
   * them). */
  int done_reg;
} node_scratch;

static int push_rinput(node_scratch* ns, rinput r) {
  if (!grow((void**)&ns->in, &ns->cap, ns->n, sizeof(rinput))) return 0;
  ns->in[ns->n++] = r;
  return 1;
}

static int cmp_rinput_name(const void* a, const void* b) {
  const rinput* x = (const rinput*)a;
  const rinput* y = (const rinput*)b;
  int c = slice_cmp(x->ref_name, y->ref_name);
  if (c != 0) return c;
  /* Equal names: keep a deterministic order (pointer order is not). */
  return x->src < y->src ? -1 : (x->src > y->src ? 1 : 0);
}

/* TF's ValidateColocationConstraints. */
static int check_colocation(importer* im, const gnode* nd) {
  const gattr* a = node_attr(im, nd, "_class");
  tfe_attr_value v;
  TF_Status* tmp;
  int i, ok = 1;
  if (a == NULL) return 1;
  tmp = TF_NewStatus();
  if (tmp == NULL) return oom(im);
  if (!tfe_attr_proto_decode(a->value.p, a->value.n, &v, tmp)) {
    TF_DeleteStatus(tmp);
    return 1; /* not a list: nothing to check (finish reports it) */
  }
  TF_DeleteStatus(tmp);
  if (v.is_list && v.type == TF_ATTR_STRING) {
    for (i = 0; i < v.list_size && ok; i++) {
      slice val;
      val.p = v.list.s.data[i];
      val.n = v.list.s.len[i];
      if (val.n >= 5 && memcmp(val.p, "loc:@", 5) == 0) {
        val.p += 5;
        val.n -= 5;
        if (!ns_has(&im->gdef_names, val)) {
          ok = fail(im,
                    "Node '%.*s' expects to be colocated with unknown node "
                    "'%.*s'",
                    (int)nd->name.n, nd->name.p, (int)val.n, val.p);
        }
      }
    }
  }
  tfe_attr_value_clear(&v);
  return ok;
}

/* The "_class" AttrValue with the prefix added to "loc:@" targets (TF's
 * AddPrefixToNodeDef), in *out (owned by the caller); 0 when the value is
 * not a list of strings (then it is passed on unchanged). */
static int prefixed_class(importer* im, const gattr* a, tfe_pbw* out) {
  tfe_attr_value v;
  TF_Status* tmp = TF_NewStatus();
  tfe_pbw list = {0};
  int i, ok;
  if (tmp == NULL) return 0;
  ok = tfe_attr_proto_decode(a->value.p, a->value.n, &v, tmp);
  TF_DeleteStatus(tmp);
  if (!ok) return 0;
  if (!v.is_list || v.type != TF_ATTR_STRING) {
    tfe_attr_value_clear(&v);
    return 0;
  }
  for (i = 0; i < v.list_size; i++) {
    const char* s = v.list.s.data[i];
    size_t n = v.list.s.len[i];
    if (n >= 5 && memcmp(s, "loc:@", 5) == 0) {
      sbuf b = {0};
      sb_str(&b, "loc:@");
      sb_str(&b, im->prefix);
      sb_add(&b, s + 5, n - 5);
      if (b.oom) list.oom = 1;
      tfe_pbw_lenfield(&list, 2, b.p, b.n);
      tfe_free(b.p);
    } else {
      tfe_pbw_lenfield(&list, 2, s, n);
    }
  }
  tfe_attr_value_clear(&v);
  tfe_pbw_sub(out, 1, &list);
  return 1;
}

/* Is attr i of nd repeated later in the NodeDef (a map: the last value
 * wins)? `later` holds the keys after i when the node has many attrs. */
static int attr_overridden(const importer* im, const gnode* nd, int i,
                           const nameset* later) {
  const gattr* a = &im->gd->attrs[nd->first_attr + i];
  int j;
  if (later != NULL) return ns_get(later, a->key) > i;
  for (j = i + 1; j < nd->num_attrs; j++) {
    if (slice_eq(im->gd->attrs[nd->first_attr + j].key, a->key)) return 1;
  }
  return 0;
}

static int set_one_attr(importer* im, const gnode* nd,
                        TF_OperationDescription* desc, int i,
                        const nameset* later, node_scratch* ns);

/* Sets every NodeDef attr on the description (the last value of a
 * repeated key), except _output_shapes. */
static int set_attrs(importer* im, const gnode* nd,
                     TF_OperationDescription* desc, node_scratch* ns) {
  int i, ok = 1;
  nameset last_index; /* key -> index of its last occurrence */
  nameset* later = NULL;
  if (nd->num_attrs > 16) {
    if (!ns_init(&last_index, (size_t)nd->num_attrs, 1)) return oom(im);
    later = &last_index;
    for (i = nd->num_attrs - 1; i >= 0; i--) {
      if (ns_put(later, im->gd->attrs[nd->first_attr + i].key, i) < 0) {
        ns_free(later);
        return oom(im);
      }
    }
  }
  for (i = 0; i < nd->num_attrs && ok; i++) {
    ok = set_one_attr(im, nd, desc, i, later, ns);
  }
  if (later != NULL) ns_free(later);
  return ok;
}

/* Sets attr i of nd unless it is _output_shapes or repeated later. */
static int set_one_attr(importer* im, const gnode* nd,
                        TF_OperationDescription* desc, int i,
                        const nameset* later, node_scratch* ns) {
  {
    const gattr* a = &im->gd->attrs[nd->first_attr + i];
    int is_class;
    if (SLICE_EQ_LIT(a->key, "_output_shapes")) return 1;
    if (attr_overridden(im, nd, i, later)) return 1;
    if (has_nul(a->key)) {
      return fail(im, "Node '%.*s': attr name contains a NUL byte",
                  (int)nd->name.n, nd->name.p);
    }
    is_class = SLICE_EQ_LIT(a->key, "_class");
    if (!is_class) {
      /* decode_arg_attrs already decoded this node's value of the attrs
       * the input args use (ns->done): hand it over instead of decoding
       * the proto again. */
      int d;
      for (d = 0; d < ns->num_done; d++) {
        if (slice_eq_str(a->key, ns->done[d])) {
          tfe_attr_value* v =
              (tfe_attr_value*)tfe_attrs_find(&ns->attrs, ns->done[d]);
          tfe_attr_value tmp;
          if (v == NULL) break;
          tmp = *v;
          memset(v, 0, sizeof(*v));
          tfe_desc_put_decoded(desc, ns->done[d], &tmp, ns->done_reg);
          tfe_status_ok(im->s);
          return 1;
        }
      }
    }
    sb_reset(&im->tmp);
    sb_slice(&im->tmp, a->key);
    if (im->tmp.oom) return oom(im);
    if (im->prefix_len > 0 && is_class) {
      tfe_pbw w = {0};
      if (prefixed_class(im, a, &w)) {
        if (w.oom) {
          tfe_pbw_free(&w);
          return oom(im);
        }
        TF_SetAttrValueProto(desc, sb_cstr(&im->tmp), w.data, w.len, im->s);
        tfe_pbw_free(&w);
        return TF_GetCode(im->s) == TF_OK;
      }
      tfe_pbw_free(&w);
    }
    TF_SetAttrValueProto(desc, sb_cstr(&im->tmp), a->value.p, a->value.n,
                         im->s);
    return TF_GetCode(im->s) == TF_OK;
  }
}

/* Decodes the NodeDef attrs that args[0..num_args) of `def` refer to (or
 * their defaults) into ns->attrs (added to what is there). Attrs without
 * value or default are left out (the missing-attr check reports them). */
static int decode_attrs_for(importer* im, const gnode* nd,
                            const tfe_op_def* def, const tfe_arg_def* args,
                            int num_args, node_scratch* ns) {
  int i, j, d;
  for (i = 0; i < num_args; i++) {
    const tfe_arg_def* arg = &args[i];
    const char* names[3];
    names[0] = arg->type_attr;
    names[1] = arg->number_attr;
    names[2] = arg->type_list_attr;
    for (j = 0; j < 3; j++) {
      const gattr* a;
      tfe_attr_value v;
      int seen = 0;
      if (names[j] == NULL) continue;
      for (d = 0; d < ns->num_done && !seen; d++) {
        seen = strcmp(ns->done[d], names[j]) == 0;
      }
      if (seen) continue;
      a = node_attr(im, nd, names[j]);
      if (a != NULL) {
        if (!tfe_attr_proto_decode(a->value.p, a->value.n, &v, im->s)) {
          return fail(im, "%s for attr '%s' of node '%.*s'",
                      TF_Message(im->s), names[j], (int)nd->name.n,
                      nd->name.p);
        }
      } else {
        const tfe_attr_def* ad = tfe_op_def_find_attr(def, names[j]);
        if (ad == NULL || !ad->has_default) continue;
        if (!tfe_attr_value_copy(&v, &ad->default_value)) return oom(im);
      }
      if (!tfe_attrs_put(&ns->attrs, names[j], &v)) return oom(im);
      if (!grow((void**)&ns->done, &ns->cap_done, ns->num_done,
                sizeof(const char*))) {
        return oom(im);
      }
      ns->done[ns->num_done++] = names[j];
    }
  }
  return 1;
}

static int decode_arg_attrs(importer* im, const gnode* nd,
                            const tfe_op_def* def, node_scratch* ns) {
  ns->num_done = 0;
  return decode_attrs_for(im, nd, def, def->inputs, def->num_inputs, ns);
}

/* The op definition of node nd (a function of the graph's library first,
 * as TF's lookup does), or NULL with TF's NOT_FOUND. */
static const type_entry* node_type_of(importer* im, const gnode* nd);
static const tfe_op_def* node_def_of(importer* im, const gnode* nd);

/* TF's IsNodeFullyMapped (skip_mapped_nodes): every output arg index of
 * the node is a key of the input map. Also counts the node's flat outputs
 * (for the missing-key report). -1 on error. */
static int fully_mapped(importer* im, gnode* nd, node_scratch* ns) {
  const tfe_op_def* def = node_def_of(im, nd);
  int i, total = 0;
  if (def == NULL) return -1;
  for (i = 0; i < def->num_outputs; i++) {
    if (find_map(im, nd->name, i) < 0) return 0;
  }
  ns->num_done = 0;
  if (!decode_attrs_for(im, nd, def, def->outputs, def->num_outputs, ns)) {
    return -1;
  }
  for (i = 0; i < def->num_outputs; i++) {
    int len = 0;
    if (tfe_op_def_arg_length(def, &def->outputs[i], &ns->attrs, &len,
                              im->s)) {
      total += len;
    }
  }
  tfe_status_ok(im->s);
  nd->skipped_outputs = total;
  return 1;
}

/* TF's ValidateNodeDef checks that must come before the inputs are
 * grouped: attrs unknown to the op, attrs missing without default. */
static int check_node_attrs(importer* im, const gnode* nd,
                            const tfe_op_def* def, const char* final_name) {
  int i, j;
  for (i = 0; i < nd->num_attrs; i++) {
    const gattr* a = &im->gd->attrs[nd->first_attr + i];
    int found = 0;
    if (a->key.n > 0 && a->key.p[0] == '_') continue;
    for (j = 0; j < def->num_attrs && !found; j++) {
      found = slice_eq_str(a->key, def->attrs[j].name);
    }
    if (!found) {
      char* sum = tfe_op_def_summarize(def);
      fail(im,
           "NodeDef mentions attr '%.*s' not in %s; NodeDef: {{node %s}}. "
           "(Check whether your GraphDef-interpreting binary is up to date "
           "with your GraphDef-generating binary.).",
           (int)a->key.n, a->key.p, sum != NULL ? sum : def->name,
           final_name);
      tfe_free(sum);
      return 0;
    }
  }
  for (j = 0; j < def->num_attrs; j++) {
    const tfe_attr_def* ad = &def->attrs[j];
    if (ad->has_default || node_attr(im, nd, ad->name) != NULL) continue;
    {
      char* sum = tfe_op_def_summarize(def);
      fail(im, "NodeDef missing attr '%s' from %s; NodeDef: {{node %s}}",
           ad->name, sum != NULL ? sum : def->name, final_name);
      tfe_free(sum);
      return 0;
    }
  }
  return 1;
}

/* Lengths of the input args (lens[i]), checked against the number of data
 * inputs, and the expected dtype of every flat input (types). */
static int arg_layout(importer* im, const tfe_op_def* def, node_scratch* ns,
                      int num_data, int* lens, TF_DataType* types,
                      const char* final_name) {
  int i, k, total = 0;
  for (i = 0; i < def->num_inputs; i++) {
    const tfe_arg_def* arg = &def->inputs[i];
    if (arg->number_attr == NULL && arg->type_list_attr == NULL) {
      lens[i] = 1; /* a single tensor */
    } else if (!tfe_op_def_arg_length(def, arg, &ns->attrs, &lens[i],
                                      im->s)) {
      if (TF_GetCode(im->s) == TF_RESOURCE_EXHAUSTED) return 0;
      return fail(im, "%s; NodeDef: {{node %s}}", TF_Message(im->s),
                  final_name);
    }
    if (lens[i] < 0) {
      return fail(im, "Value for number_attr() %d < 0", lens[i]);
    }
    if (total > INT_MAX - lens[i]) return fail(im, "too many inputs");
    total += lens[i];
  }
  if (total != num_data) {
    /* The message lists the dtypes the op expects. */
    sbuf b = {0};
    char* sum;
    int first = 1;
    for (i = 0; i < def->num_inputs && total <= 4096; i++) {
      for (k = 0; k < lens[i]; k++) {
        TF_DataType t;
        char buf[32];
        if (!tfe_op_def_arg_dtype(def, &def->inputs[i], &ns->attrs, k, &t,
                                  im->s)) {
          t = (TF_DataType)0;
        }
        if (def->inputs[i].is_ref) t = (TF_DataType)((int)t + 100);
        if (!first) sb_str(&b, ", ");
        first = 0;
        sb_str(&b, dtype_text(t, buf, sizeof buf));
      }
    }
    sum = tfe_op_def_summarize(def);
    fail(im,
         "NodeDef expected inputs '%s' do not match %d inputs specified; %s; "
         "NodeDef: {{node %s}}",
         b.p != NULL ? b.p : "", num_data, sum != NULL ? sum : def->name,
         final_name);
    tfe_free(sum);
    tfe_free(b.p);
    return 0;
  }
  for (i = 0, total = 0; i < def->num_inputs; i++) {
    const tfe_arg_def* arg = &def->inputs[i];
    if (lens[i] == 1 && arg->number_attr == NULL &&
        arg->type_list_attr == NULL) {
      /* A single tensor of a fixed type or of a type attr's value. */
      TF_DataType t = arg->type;
      if (t == 0 && arg->type_attr != NULL) {
        const tfe_attr_value* v = tfe_attrs_find(&ns->attrs, arg->type_attr);
        if (v != NULL && !v->is_list && v->type == TF_ATTR_TYPE) t = v->v.type;
      }
      if (t != 0) {
        types[total++] = arg->is_ref ? (TF_DataType)((int)t + 100) : t;
        continue;
      }
    }
    for (k = 0; k < lens[i]; k++, total++) {
      TF_DataType t;
      if (!tfe_op_def_arg_dtype(def, &def->inputs[i], &ns->attrs, k, &t,
                                im->s)) {
        if (TF_GetCode(im->s) == TF_RESOURCE_EXHAUSTED) return 0;
        return fail(im, "%s; NodeDef: {{node %s}}", TF_Message(im->s),
                    final_name);
      }
      types[total] = def->inputs[i].is_ref ? (TF_DataType)((int)t + 100) : t;
    }
  }
  return 1;
}

static int output_error(importer* im, const gnode* nd, const rinput* r) {
  const char* t = r->op->op_type;
  int hint = strcmp(t, "If") == 0 || strcmp(t, "StatelessIf") == 0 ||
             strcmp(t, "While") == 0 || strcmp(t, "StatelessWhile") == 0;
  return fail(im,
              "Node '%.*s': Connecting to invalid output %d of source node "
              "%.*s which has %d outputs.%s",
              (int)nd->name.n, nd->name.p, r->index, (int)r->ref_name.n,
              r->ref_name.p, r->op->num_outputs,
              hint ? " Try using "
                     "tf.compat.v1.experimental.output_all_intermediates("
                     "True)."
                   : "");
}

/* Sets an output shape from _output_shapes, merging it with the inferred
 * one as TF's refiner does. */
static int shape_text(const tfe_shape* s, char* buf, size_t cap) {
  size_t n = 0;
  int i;
  if (s->num_dims < 0) return snprintf(buf, cap, "?");
  n += (size_t)snprintf(buf + n, cap - n, "[");
  for (i = 0; i < s->num_dims && n < cap; i++) {
    if (s->dims[i] < 0) {
      n += (size_t)snprintf(buf + n, cap - n, "%s?", i ? "," : "");
    } else {
      n += (size_t)snprintf(buf + n, cap - n, "%s%lld", i ? "," : "",
                            (long long)s->dims[i]);
    }
  }
  if (n < cap) snprintf(buf + n, cap - n, "]");
  return 0;
}

static int apply_output_shapes(importer* im, const gnode* nd,
                               TF_Operation* op) {
  const gattr* a = node_attr(im, nd, "_output_shapes");
  tfe_attr_value v;
  TF_Status* tmp;
  int i, ok = 1, nshapes;
  if (a == NULL) return 1;
  tmp = TF_NewStatus();
  if (tmp == NULL) return oom(im);
  ok = tfe_attr_proto_decode(a->value.p, a->value.n, &v, tmp);
  TF_DeleteStatus(tmp);
  /* Not a list of shapes: TF ignores it. */
  if (!ok) return 1;
  if (!v.is_list || (v.type != TF_ATTR_SHAPE && v.list_size > 0)) {
    tfe_attr_value_clear(&v);
    return 1;
  }
  nshapes = v.list_size;
  if (nshapes < op->num_outputs) {
    tfe_attr_value_clear(&v);
    return fail(im,
                "Node '%s' has %d outputs but the _output_shapes attribute "
                "specifies shapes for %d outputs",
                op->name, op->num_outputs, nshapes);
  }
  if (nshapes > op->num_outputs) {
    TF_Log(TF_WARNING,
           "Node '%s' has %d outputs but the _output_shapes attribute "
           "specifies shapes for %d outputs. Output shapes may be inaccurate.",
           op->name, op->num_outputs, nshapes);
  }
  for (i = 0; i < op->num_outputs && ok; i++) {
    const tfe_shape* given = &v.list.shape[i];
    tfe_shape* have = &op->output_shapes[i];
    int d;
    char a_txt[256], b_txt[256];
    for (d = 0; d < given->num_dims; d++) {
      if (given->dims[d] < -1) {
        shape_text(given, a_txt, sizeof a_txt);
        ok = fail(im,
                  "Node '%s has an invalid _output_shapes attribute (shape "
                  "#%d error:'Shape %s has dimensions with values below -1 "
                  "(where -1 means unknown)'",
                  op->name, i, a_txt);
        break;
      }
    }
    if (!ok || given->num_dims < 0) continue;
    if (have->num_dims >= 0 && have->num_dims != given->num_dims) {
      ok = fail(im,
                "Node '%s' has an _output_shapes attribute inconsistent with "
                "the GraphDef for output #%d: Shapes must be equal rank, but "
                "are %d and %d",
                op->name, i, have->num_dims, given->num_dims);
      break;
    }
    if (have->num_dims >= 0) {
      for (d = 0; d < given->num_dims; d++) {
        int64_t x = have->dims[d], y = given->dims[d];
        if (x >= 0 && y >= 0 && x != y) {
          shape_text(have, a_txt, sizeof a_txt);
          shape_text(given, b_txt, sizeof b_txt);
          ok = fail(im,
                    "Node '%s' has an _output_shapes attribute inconsistent "
                    "with the GraphDef for output #%d: Dimension %d in both "
                    "shapes must be equal, but are %lld and %lld. Shapes are "
                    "%s and %s.",
                    op->name, i, d, (long long)x, (long long)y, a_txt, b_txt);
          break;
        }
      }
      if (!ok) break;
      for (d = 0; d < given->num_dims; d++) {
        if (have->dims[d] < 0) have->dims[d] = given->dims[d];
      }
    } else {
      int64_t* dims = (int64_t*)tfe_malloc(
          (size_t)(given->num_dims > 0 ? given->num_dims : 1) *
          sizeof(int64_t));
      if (dims == NULL) {
        ok = oom(im);
        break;
      }
      if (given->num_dims > 0) {
        memcpy(dims, given->dims, (size_t)given->num_dims * sizeof(int64_t));
      }
      tfe_op_clear_dims(op, i);
      have->dims = dims;
      have->num_dims = given->num_dims;
    }
  }
  tfe_attr_value_clear(&v);
  return ok;
}

static int record_back_edge(importer* im, TF_Operation* dst, int dst_input,
                            int src, int src_index) {
  back_edge e;
  e.dst = dst;
  e.dst_input = dst_input;
  e.src = src;
  e.src_index = src_index;
  if (!grow((void**)&im->back, &im->cap_back, im->num_back, sizeof(e))) {
    return oom(im);
  }
  im->back[im->num_back++] = e;
  return 1;
}

static int unknown_op(importer* im, const gnode* nd) {
  char host[256];
  if (gethostname(host, sizeof(host)) != 0) strcpy(host, "localhost");
  host[sizeof(host) - 1] = '\0';
  tfe_status_setf(im->s, TF_NOT_FOUND,
                  "Op type not registered '%.*s' in binary running on %s. "
                  "Make sure the Op and Kernel are registered in the binary "
                  "running in this process. Note that if you are loading a "
                  "saved graph which used ops from tf.contrib (e.g. "
                  "`tf.contrib.resampler`), accessing should be done before "
                  "importing the graph, as contrib ops are lazily registered "
                  "when the module is first accessed.",
                  (int)nd->type.n, nd->type.p, host);
  return 0;
}

static const type_entry* node_type_of(importer* im, const gnode* nd) {
  const tfe_op_def* def = NULL;
  type_entry* e;
  int reg = 0;
  size_t slot = 0, n = nd->type.n;
  if (n > 0) {
    const unsigned char* p = (const unsigned char*)nd->type.p;
    slot = (n * 31u + p[0] * 7u + p[n - 1] + p[n / 2] * 13u) &
           (TYPE_CACHE - 1);
  }
  for (e = &im->types[slot]; e->type.p != NULL;
       slot = (slot + 1) & (TYPE_CACHE - 1), e = &im->types[slot]) {
    if (e->type.n == n && memcmp(e->type.p, nd->type.p, n) == 0) return e;
  }
  /* e: the free slot for this type. */
  if (has_nul(nd->type)) {
    unknown_op(im, nd);
    return NULL;
  }
  sb_reset(&im->tmp);
  sb_slice(&im->tmp, nd->type);
  if (im->tmp.oom) {
    oom(im);
    return NULL;
  }
  if (im->g->flib != NULL) {
    def = tfe_flib_signature(im->g->flib, sb_cstr(&im->tmp));
  }
  if (def == NULL) {
    def = tfe_op_lookup(sb_cstr(&im->tmp));
    reg = def != NULL && strcmp(def->name, sb_cstr(&im->tmp)) == 0;
  }
  if (def == NULL) {
    unknown_op(im, nd);
    return NULL;
  }
  if (im->num_types < TYPE_CACHE * 3 / 4) {
    im->num_types++;
  } else {
    e = &im->type_miss;
  }
  e->type = nd->type;
  e->def = def;
  e->reg = reg;
  e->deprecated = tfe_op_deprecation(def->name, &e->dep_version, &e->dep_why);
  return e;
}

static const tfe_op_def* node_def_of(importer* im, const gnode* nd) {
  const type_entry* e = node_type_of(im, nd);
  return e != NULL ? e->def : NULL;
}

/* Builds GraphDef node `idx` (TF's Convert loop body). */
static int build_node(importer* im, int idx, node_scratch* ns) {
  gnode* nd = &im->nodes[idx];
  const TF_ImportGraphDefOptions* o = im->opts;
  const tfe_op_def* def;
  const type_entry* te;
  TF_OperationDescription* desc;
  TF_Operation* op;
  sbuf* name = &ns->name;
  int i, k, num_data = 0, ok = 0, first_ctl, forward = -1, has_back = 0;
  int lens_small[16];
  TF_DataType types_small[32];
  int* lens = lens_small;
  TF_DataType* types = types_small;

  ns->n = 0;
  sb_reset(name);
  /* Resolved inputs (TF's RemapNodeDefInputs: remapped ones refer to the
   * existing operation). */
  for (k = 0; k < nd->num_inputs; k++) {
    ginput* in = &im->inputs[nd->first_input + k];
    rinput r;
    r.index = in->index;
    if (in->map >= 0) {
      imap* m = &im->map[in->map];
      m->used = 1;
      r.op = m->dst;
      r.index = m->dst_index;
      r.ref_name = slice_cstr(m->dst->name);
      r.src = -1;
    } else {
      if (im->nodes[in->src].skipped) {
        return fail(im,
                    "Node '%.*s': input '%.*s' comes from a node that was "
                    "not imported (all its outputs are remapped)",
                    (int)nd->name.n, nd->name.p, (int)in->raw.n, in->raw.p);
      }
      r.op = im->nodes[in->src].op;
      r.ref_name = in->node;
      r.src = in->src;
    }
    if (!push_rinput(ns, r)) return oom(im);
  }
  /* TF's AddControlDependencies: only nodes that inherit none from an
   * already imported input get the extra control inputs. */
  if (im->num_ctl_deps > 0) {
    int inherits = 0;
    for (k = 0; k < ns->n && !inherits; k++) {
      inherits = ns->in[k].src >= 0 && ns->in[k].op != NULL;
    }
    if (!inherits) {
      for (i = 0; i < im->num_ctl_deps; i++) {
        int found = 0;
        for (k = ns->n - 1; k >= 0 && ns->in[k].index == -1 && !found; k--) {
          found = ns->in[k].src < 0 && ns->in[k].op == im->ctl_deps[i];
        }
        if (!found) {
          rinput r;
          r.op = im->ctl_deps[i];
          r.index = -1;
          r.ref_name = slice_cstr(r.op->name);
          r.src = -1;
          if (!push_rinput(ns, r)) return oom(im);
        }
      }
    }
  }
  if (o->validate_colocation && !check_colocation(im, nd)) return 0;
  for (k = 0; k < ns->n; k++) {
    rinput* r = &ns->in[k];
    if (r->index < 0) continue;
    num_data++;
    if (r->op == NULL) {
      has_back = 1;
      continue;
    }
    if (forward < 0) forward = k;
    if (r->index >= r->op->num_outputs) return output_error(im, nd, r);
  }
  if (has_back && (!nd->is_merge || forward < 0)) {
    return fail(im,
                "Node '%.*s' had a back edge, but only Merge nodes can have "
                "back edges.",
                (int)nd->name.n, nd->name.p);
  }
  /* The node's name: prefix, then uniquified when asked. */
  sb_str(name, im->prefix);
  sb_slice(name, nd->name);
  if (name->oom) return oom(im);
  if (o->uniquify_names && (im->prefix_len == 0 || !o->uniquify_prefix)) {
    slice cur;
    cur.p = name->p;
    cur.n = name->n;
    if (exists_in_graph(im, cur)) {
      sbuf t;
      if (!build_gdef_prefixes(im) ||
          !find_unique_name(im, cur, 1, &ns->uniq)) {
        return 0;
      }
      t = ns->name;
      ns->name = ns->uniq;
      ns->uniq = t;
      nd->uniquified = 1;
      im->any_uniquified = 1;
    }
    if (im->tmp2.oom) {
      return oom(im);
    }
  }
  /* TF_FinishOperation looks the name up in the graph's index: a cache
   * miss per node unless the slot is on its way by then. */
  tfe_graph_prefetch_name(im->g, sb_cstr(name));
  /* The op: a function of the graph's library or a registered op. */
  te = node_type_of(im, nd);
  if (te == NULL) {
    return 0;
  }
  def = te->def;
  if (te->deprecated && im->gd->producer >= te->dep_version &&
      !tfe_op_check_not_removed(def->name, im->gd->producer, im->s)) {
    return 0;
  }
  if (!check_node_attrs(im, nd, def, sb_cstr(name)) ||
      !decode_arg_attrs(im, nd, def, ns)) {
    return 0;
  }
  if (def->num_inputs > (int)(sizeof lens_small / sizeof lens_small[0])) {
    lens = (int*)tfe_malloc((size_t)def->num_inputs * sizeof(int));
    if (lens == NULL) {
      return oom(im);
    }
  }
  if (num_data > (int)(sizeof types_small / sizeof types_small[0])) {
    types = (TF_DataType*)tfe_malloc((size_t)num_data * sizeof(TF_DataType));
    if (types == NULL) goto out_oom;
  }
  if (!arg_layout(im, def, ns, num_data, lens, types, sb_cstr(name))) {
    goto out;
  }
  /* Input types, as TF's MakeEdge checks them (back edges: later). */
  for (k = 0, i = 0; k < ns->n; k++) {
    const rinput* r = &ns->in[k];
    if (r->index < 0) continue;
    if (r->op != NULL) {
      TF_DataType got = r->op->output_types[r->index];
      if (!types_compatible(types[i], got)) {
        char e[32], a[32];
        fail(im,
             "Input %d of node %s was passed %s from %s:%d incompatible with "
             "expected %s.",
             i, sb_cstr(name), dtype_text(got, a, sizeof a), r->op->name,
             r->index, dtype_text(types[i], e, sizeof e));
        goto out;
      }
    }
    i++;
  }
  /* The description. */
  ns->done_reg = te->reg;
  if (te->reg) {
    desc = tfe_desc_new_registered(im->g, def, sb_cstr(name), &ns->spare);
  } else {
    sb_reset(&im->tmp);
    sb_slice(&im->tmp, nd->type);
    if (im->tmp.oom) goto out_oom;
    desc = TF_NewOperationLocked(im->g, sb_cstr(&im->tmp), sb_cstr(name));
  }
  if (desc == NULL) goto out_oom;
  if (!set_attrs(im, nd, desc, ns)) {
    TF_Status* sink = TF_NewStatus();
    op = TF_FinishOperationLocked(desc, sink); /* frees desc */
    TF_DeleteStatus(sink);
    goto out;
  }
  /* Data inputs, grouped by arg; a back edge gets the first forward input
   * as a stand-in. */
  if (num_data > ns->outs_cap) {
    TF_Output* p =
        (TF_Output*)tfe_realloc(ns->outs, (size_t)num_data * sizeof(TF_Output));
    if (p == NULL) {
      TF_Status* sink = TF_NewStatus();
      TF_FinishOperationLocked(desc, sink);
      TF_DeleteStatus(sink);
      goto out_oom;
    }
    ns->outs = p;
    ns->outs_cap = num_data;
  }
  for (k = 0, i = 0; k < ns->n; k++) {
    const rinput* r = &ns->in[k];
    if (r->index < 0) continue;
    if (r->op == NULL) {
      ns->outs[i].oper = ns->in[forward].op;
      ns->outs[i].index = ns->in[forward].index;
    } else {
      ns->outs[i].oper = r->op;
      ns->outs[i].index = r->index;
    }
    i++;
  }
  for (i = 0, k = 0; i < def->num_inputs; i++) {
    const tfe_arg_def* arg = &def->inputs[i];
    if (arg->number_attr != NULL || arg->type_list_attr != NULL) {
      TF_AddInputList(desc, lens[i] > 0 ? ns->outs + k : NULL, lens[i]);
    } else {
      TF_AddInput(desc, ns->outs[k]);
    }
    k += lens[i];
  }
  /* Control inputs: sorted by name and without duplicates, as TF adds
   * them. Back edges never come as control inputs here. */
  first_ctl = ns->n;
  for (k = 0; k < ns->n; k++) {
    if (ns->in[k].index < 0) {
      first_ctl = k;
      break;
    }
  }
  if (ns->n - first_ctl > 1) {
    qsort(ns->in + first_ctl, (size_t)(ns->n - first_ctl), sizeof(rinput),
          cmp_rinput_name);
  }
  for (k = first_ctl; k < ns->n; k++) {
    /* One operation always sorts under one name, so its duplicates are
     * neighbours. */
    const rinput* r = &ns->in[k];
    if (r->op == NULL || (k > first_ctl && ns->in[k - 1].op == r->op)) continue;
    TF_AddControlInput(desc, r->op);
  }
  if (nd->device.n > 0 || o->default_device != NULL) {
    if (nd->device.n > 0) {
      if (has_nul(nd->device)) {
        TF_Status* sink = TF_NewStatus();
        TF_FinishOperationLocked(desc, sink);
        TF_DeleteStatus(sink);
        fail(im, "Node '%.*s': malformed device specification",
             (int)nd->name.n, nd->name.p);
        goto out;
      }
      sb_reset(&im->tmp2);
      sb_slice(&im->tmp2, nd->device);
      if (im->tmp2.oom) {
        TF_Status* sink = TF_NewStatus();
        TF_FinishOperationLocked(desc, sink);
        TF_DeleteStatus(sink);
        goto out_oom;
      }
      TF_SetDevice(desc, sb_cstr(&im->tmp2));
    } else {
      TF_SetDevice(desc, o->default_device);
    }
  }
  op = TF_FinishOperationLocked(desc, im->s);
  if (op == NULL) goto out;
  nd->op = op;
  /* The refiner sees a back edge as an unknown input: a Merge fed by a
   * NextIteration has an output of unknown shape. */
  if (has_back && op->num_outputs > 0) tfe_op_clear_dims(op, 0);
  for (k = 0, i = 0; k < ns->n; k++) {
    const rinput* r = &ns->in[k];
    if (r->index < 0) continue;
    if (r->op == NULL) {
      const ginput* in = &im->inputs[nd->first_input + k];
      if (!record_back_edge(im, op, i, in->src, in->index)) goto out;
    }
    i++;
  }
  if (!apply_output_shapes(im, nd, op)) goto out;
  ok = 1;
  goto out;
out_oom:
  oom(im);
out:
  if (lens != lens_small) tfe_free(lens);
  if (types != types_small) tfe_free(types);
  return ok;
}

/* TF's AddBackEdges. */
static int add_back_edges(importer* im) {
  int i;
  for (i = 0; i < im->num_back; i++) {
    const back_edge* e = &im->back[i];
    TF_Operation* src = im->nodes[e->src].op;
    TF_Output o;
    TF_DataType want = e->dst->input_types[e->dst_input];
    if (e->src_index >= src->num_outputs) {
      return fail(im,
                  "Output %d of node %s does not exist. Node only has %d "
                  "outputs.",
                  e->src_index, src->name, src->num_outputs);
    }
    if (!types_compatible(want, src->output_types[e->src_index])) {
      char a[32], b[32];
      return fail(im,
                  "Input %d of node %s was passed %s from %s:%d incompatible "
                  "with expected %s.",
                  e->dst_input, e->dst->name,
                  dtype_text(src->output_types[e->src_index], a, sizeof a),
                  src->name, e->src_index, dtype_text(want, b, sizeof b));
    }
    o.oper = src;
    o.index = e->src_index;
    if (!tfe_graph_set_input(im->g, e->dst, e->dst_input, o)) return oom(im);
  }
  return 1;
}

static int node_outputs(const gnode* nd) {
  return nd->op != NULL ? nd->op->num_outputs : nd->skipped_outputs;
}

/* TF's PopulateReturnTensors / ReturnNodes / MissingUnusedInputMapKeys. */
static int fill_results(importer* im, TF_ImportGraphDefResults* res) {
  const TF_ImportGraphDefOptions* o = im->opts;
  const tfe_import_return_output* ro =
      (const tfe_import_return_output*)o->return_outputs.items;
  char* const* rn = (char* const*)o->return_opers.items;
  int i, n;
  n = o->return_outputs.count;
  if (n > 0) {
    res->return_outputs = (TF_Output*)tfe_calloc((size_t)n, sizeof(TF_Output));
    if (res->return_outputs == NULL) return oom(im);
    for (i = 0; i < n; i++) {
      slice name = slice_cstr(ro[i].oper_name);
      int m = find_map(im, name, ro[i].index);
      if (m >= 0) {
        res->return_outputs[i].oper = im->map[m].dst;
        res->return_outputs[i].index = im->map[m].dst_index;
      } else {
        int at = ns_get(&im->gdef_names, name);
        TF_Operation* op = at >= 0 ? im->nodes[at].op : NULL;
        if (op == NULL) {
          return fail(im, "Requested return tensor '%s' not found in graph def",
                      tensor_id_text(&im->tmp, name, ro[i].index));
        }
        if ((ro[i].index < 0 || ro[i].index >= op->num_outputs) &&
            ro[i].index != -1) {
          return fail(im,
                      "Invalid return output %d of node '%s', which has %d "
                      "output(s)",
                      ro[i].index, ro[i].oper_name, op->num_outputs);
        }
        res->return_outputs[i].oper = op;
        res->return_outputs[i].index = ro[i].index;
      }
    }
    res->num_return_outputs = n;
  }
  n = o->return_opers.count;
  if (n > 0) {
    res->return_opers =
        (TF_Operation**)tfe_calloc((size_t)n, sizeof(TF_Operation*));
    if (res->return_opers == NULL) return oom(im);
    for (i = 0; i < n; i++) {
      int at = ns_get(&im->gdef_names, slice_cstr(rn[i]));
      TF_Operation* op = at >= 0 ? im->nodes[at].op : NULL;
      if (op == NULL) {
        return fail(im, "Requested return node '%s' not found in graph def",
                    rn[i]);
      }
      res->return_opers[i] = op;
    }
    res->num_return_opers = n;
  }
  /* Input-map keys never used, whose node or output the GraphDef lacks. */
  for (i = 0, n = 0; i < im->num_map; i++) {
    const imap* m = &im->map[i];
    int at;
    if (m->used) continue;
    at = ns_get(&im->gdef_names, m->src);
    if (at >= 0 && m->src_index < node_outputs(&im->nodes[at])) continue;
    n++;
  }
  if (n > 0) {
    res->missing_names = (const char**)tfe_calloc((size_t)n, sizeof(char*));
    res->missing_indexes = (int*)tfe_calloc((size_t)n, sizeof(int));
    if (res->missing_names == NULL || res->missing_indexes == NULL) {
      return oom(im);
    }
    for (i = 0; i < im->num_map; i++) {
      const imap* m = &im->map[i];
      int at;
      char* copy;
      if (m->used) continue;
      at = ns_get(&im->gdef_names, m->src);
      if (at >= 0 && m->src_index < node_outputs(&im->nodes[at])) continue;
      copy = tfe_strndup(m->src.p, m->src.n);
      if (copy == NULL) return oom(im);
      res->missing_names[res->num_missing] = copy;
      res->missing_indexes[res->num_missing] = m->src_index;
      res->num_missing++;
    }
  }
  return 1;
}

/* TF's UpdateUniquifiedColocationNames: "loc:@x" values naming a node that
 * was renamed follow the new name. */
static int fix_colocation(importer* im) {
  int i, j;
  for (i = 0; i < im->gd->num_nodes; i++) {
    TF_Operation* op = im->nodes[i].op;
    const tfe_attr_value* v;
    tfe_attr_value nv;
    const void** ptrs;
    size_t* lens;
    char** owned;
    int changed = 0, ok = 1;
    if (op == NULL) continue;
    v = tfe_attrs_find(&op->attrs, "_class");
    if (v == NULL || !v->is_list || v->type != TF_ATTR_STRING ||
        v->list_size == 0) {
      continue;
    }
    ptrs = (const void**)tfe_calloc((size_t)v->list_size, sizeof(void*));
    lens = (size_t*)tfe_calloc((size_t)v->list_size, sizeof(size_t));
    owned = (char**)tfe_calloc((size_t)v->list_size, sizeof(char*));
    if (ptrs == NULL || lens == NULL || owned == NULL) ok = 0;
    for (j = 0; ok && j < v->list_size; j++) {
      slice val;
      int at = -1;
      ptrs[j] = v->list.s.data[j];
      lens[j] = v->list.s.len[j];
      val.p = v->list.s.data[j];
      val.n = v->list.s.len[j];
      if (val.n >= 5 + im->prefix_len && memcmp(val.p, "loc:@", 5) == 0 &&
          memcmp(val.p + 5, im->prefix, im->prefix_len) == 0) {
        slice target;
        target.p = val.p + 5 + im->prefix_len;
        target.n = val.n - 5 - im->prefix_len;
        at = ns_get(&im->gdef_names, target);
      }
      if (at >= 0 && im->nodes[at].uniquified && im->nodes[at].op != NULL) {
        sbuf b = {0};
        sb_str(&b, "loc:@");
        sb_str(&b, im->nodes[at].op->name);
        if (b.oom) {
          ok = 0;
          break;
        }
        owned[j] = b.p;
        ptrs[j] = b.p;
        lens[j] = b.n;
        changed = 1;
      }
    }
    if (ok && changed) {
      ok = tfe_attr_value_set_string_list(&nv, ptrs, lens, v->list_size) &&
           tfe_attrs_put(&op->attrs, "_class", &nv);
    }
    for (j = 0; owned != NULL && j < v->list_size; j++) tfe_free(owned[j]);
    tfe_free(owned);
    tfe_free((void*)ptrs);
    tfe_free(lens);
    if (!ok) return oom(im);
  }
  return 1;
}

/* Undoes the import: operations added, functions added. */
static void undo(importer* im) {
  if (im->g->num_ops > im->first_new) {
    tfe_graph_remove_ops_from(im->g, im->first_new);
  }
  if (im->flib_count >= 0 && im->g->flib != NULL) {
    while (tfe_flib_count(im->g->flib) > im->flib_count) {
      const TF_Function* fn =
          tfe_flib_at(im->g->flib, tfe_flib_count(im->g->flib) - 1);
      TF_Status* sink = TF_NewStatus();
      int removed = fn != NULL && sink != NULL &&
                    tfe_flib_remove(im->g->flib, TF_FunctionName((TF_Function*)fn), sink);
      TF_DeleteStatus(sink);
      if (!removed) break;
    }
  }
}

/* Appends TF's hint for GraphDefs far newer than this binary. */
static void version_hint(importer* im) {
  int producer = im->gd->producer;
  if (producer - TFE_GRAPH_DEF_VERSION > 21 && TF_GetCode(im->s) != TF_OK) {
    const char* msg = TF_Message(im->s);
    size_t n = strlen(msg) + 512;
    char* buf = (char*)tfe_malloc(n);
    if (buf == NULL) return;
    snprintf(buf, n,
             "Converting GraphDef to Graph has failed with an error: '%s' The "
             "binary trying to import the GraphDef was built when GraphDef "
             "version was %d. The GraphDef was produced by a binary built "
             "when GraphDef version was %d. The difference between these "
             "versions is larger than TensorFlow's forward compatibility "
             "guarantee, and might be the root cause for failing to import "
             "the GraphDef.",
             msg, TFE_GRAPH_DEF_VERSION, producer);
    TF_SetStatus(im->s, TF_GetCode(im->s), buf);
    tfe_free(buf);
  }
}

/* Splits the FunctionDefLibrary bytes into its GradientDef entries
 * (field 2) and everything else. The bytes are well-formed (parsed). */
static int split_library(importer* im, tfe_pbw* fns, tfe_pbw* grads) {
  tfe_pbr r;
  int f, w;
  r.p = im->gd->library;
  r.end = r.p + im->gd->library_len;
  while (r.p < r.end) {
    const unsigned char* start = r.p;
    if (!tfe_pbr_tag(&r, &f, &w) || !tfe_pbr_skip(&r, f, w)) break;
    tfe_pbw_bytes(f == 2 && w == 2 ? grads : fns, start,
                  (size_t)(r.p - start));
  }
  if (fns->oom || grads->oom) {
    tfe_pbw_free(fns);
    tfe_pbw_free(grads);
    return 0;
  }
  return 1;
}

/* Bytes the operations of this import will likely take in the graph's
 * arena (operation.c op_alloc's layout, guessing at most two outputs per
 * node; nodes that need more fall back to the heap). */
static size_t arena_estimate(const importer* im) {
  size_t total = 0;
  int i;
  for (i = 0; i < im->gd->num_nodes; i++) {
    const gnode* nd = &im->nodes[i];
    size_t b = ((sizeof(TF_Operation) + 7) & ~(size_t)7) +
               (size_t)nd->num_inputs * (sizeof(TF_Output) + sizeof(TF_DataType)) +
               2 * (sizeof(tfe_shape) + sizeof(TF_Input*) + sizeof(TF_DataType) +
                    2 * sizeof(int) +
                    TFE_OP_INLINE_CONSUMERS * sizeof(TF_Input) +
                    TFE_OP_INLINE_DIMS * sizeof(int64_t)) +
               (size_t)(nd->num_attrs + 1) * sizeof(tfe_attr_entry) +
               (size_t)im->prefix_len + nd->name.n + nd->type.n + 2 + 16;
    total += (b + 7) & ~(size_t)7;
  }
  return total;
}

static int run_import(importer* im, TF_ImportGraphDefResults* results) {
  int n = im->gd->num_nodes, processed = 0, i;
  node_scratch ns;
  heap h;
  tfe_pbw fns = {0}, grads = {0};
  memset(&ns, 0, sizeof(ns));
  tfe_attrs_init(&ns.attrs);
  h.a = NULL;
  h.n = 0;

  if (!check_versions(im) || !check_names_and_prefix(im) ||
      !check_input_map(im) || !build_node_index(im) || !init_edges(im)) {
    return 0;
  }
  /* The function library first: nodes may call its functions. Its
   * gradients are recorded last, once nothing else can fail (a recorded
   * gradient cannot be taken back, a function can). */
  if (im->gd->library != NULL && im->gd->library_len > 0) {
    struct tfe_flib* lib = tfe_graph_flib(im->g);
    int ok;
    if (lib == NULL) return oom(im);
    if (!split_library(im, &fns, &grads)) return oom(im);
    im->flib_count = tfe_flib_count(lib);
    ok = tfe_flib_add_library(lib, fns.data, fns.len, im->s);
    tfe_pbw_free(&fns);
    if (!ok) {
      tfe_pbw_free(&grads);
      undo(im);
      return 0;
    }
  }
  h.a = (int*)tfe_malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
  /* Room for every new operation in the graph's tables up front. */
  if (h.a == NULL || !tfe_graph_reserve(im->g, n) ||
      !tfe_graph_arena_reserve(im->g, arena_estimate(im))) {
    oom(im);
    goto failed;
  }
  for (i = 0; i < n; i++) {
    if (im->nodes[i].pending == 0) heap_push(&h, i);
  }
  while (h.n > 0) {
    int o = heap_pop(&h), k;
    gnode* nd = &im->nodes[o];
    int skip = 0;
    if (im->opts->skip_mapped_nodes) {
      skip = fully_mapped(im, nd, &ns);
      if (skip < 0) goto failed;
    }
    if (skip) {
      nd->skipped = 1;
    } else if (!build_node(im, o, &ns)) {
      goto failed;
    }
    processed++;
    for (k = 0; k < nd->out_count; k++) {
      const succ_entry* e = &im->succ[nd->out_first + k];
      gnode* d = &im->nodes[e->dst];
      if (e->back) continue; /* never waited for */
      if (--d->pending == 0) heap_push(&h, e->dst);
    }
  }
  if (processed < n) {
    fail(im, "%d nodes in a cycle", n - processed);
    goto failed;
  }
  if (!add_back_edges(im)) goto failed;
  if (results != NULL && !fill_results(im, results)) goto failed;
  if (im->any_uniquified && !fix_colocation(im)) goto failed;
  if (grads.len > 0 &&
      !tfe_flib_add_library(im->g->flib, grads.data, grads.len, im->s)) {
    goto failed;
  }
  /* TF's UpdateVersionDef. */
  if (im->gd->producer < im->g->producer) im->g->producer = im->gd->producer;
  if (im->gd->min_consumer > im->g->min_consumer) {
    im->g->min_consumer = im->gd->min_consumer;
  }
  atomic_fetch_add(&im->g->generation, 1);
  tfe_pbw_free(&grads);
  tfe_free(h.a);
  tfe_free(ns.in);
  tfe_free(ns.outs);
  tfe_free(ns.done);
  tfe_free(ns.name.p);
  tfe_free(ns.uniq.p);
  tfe_attrs_destroy(&ns.attrs);
  tfe_desc_spare_free(ns.spare);
  return 1;
failed:
  undo(im);
  tfe_pbw_free(&grads);
  tfe_free(h.a);
  tfe_free(ns.in);
  tfe_free(ns.outs);
  tfe_free(ns.done);
  tfe_free(ns.name.p);
  tfe_free(ns.uniq.p);
  tfe_attrs_destroy(&ns.attrs);
  tfe_desc_spare_free(ns.spare);
  return 0;
}

static int import_gdef(TF_Graph* g, tfe_gdef* consumed, const tfe_gdef* gd,
                       const TF_ImportGraphDefOptions* opts,
                       TF_ImportGraphDefResults* results, TF_Status* s);

int tfe_gdef_import_locked(TF_Graph* g, const tfe_gdef* gd,
                           const TF_ImportGraphDefOptions* opts,
                           TF_ImportGraphDefResults* results, TF_Status* s) {
  return import_gdef(g, NULL, gd, opts, results, s);
}

int tfe_gdef_import_consume_locked(TF_Graph* g, tfe_gdef* gd,
                                   const TF_ImportGraphDefOptions* opts,
                                   TF_ImportGraphDefResults* results,
                                   TF_Status* s) {
  return import_gdef(g, gd, gd, opts, results, s);
}

/* consumed == gd: the import works in gd's own node and input tables
 * (no copies); gd can only be freed afterwards. */
static int import_gdef(TF_Graph* g, tfe_gdef* consumed, const tfe_gdef* gd,
                       const TF_ImportGraphDefOptions* opts,
                       TF_ImportGraphDefResults* results, TF_Status* s) {
  importer im;
  TF_ImportGraphDefOptions defaults;
  int ok;
  if (g == NULL || gd == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "GraphDef import: NULL argument");
    return 0;
  }
  if (opts == NULL) {
    memset(&defaults, 0, sizeof defaults);
    defaults.validate_colocation = 1;
    opts = &defaults;
  }
  if (opts->skip_mapped_nodes && opts->return_opers.count > 0) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Requesting return_nodes with skip_mapped_nodes set is not "
                    "currently supported");
    return 0;
  }
  memset(&im, 0, sizeof im);
  im.g = g;
  im.opts = opts;
  im.gd = gd;
  im.s = s;
  im.first_new = g->num_ops;
  im.flib_count = -1;
  tfe_status_ok(s);
  /* Writable copies of the node and input tables (or gd's own). */
  if (consumed != NULL) {
    im.nodes = consumed->nodes;
    im.inputs = consumed->inputs;
  } else if (gd->num_nodes > 0) {
    im.nodes = (gnode*)tfe_malloc((size_t)gd->num_nodes * sizeof(gnode));
    if (im.nodes == NULL) return oom(&im);
    memcpy(im.nodes, gd->nodes, (size_t)gd->num_nodes * sizeof(gnode));
  }
  if (consumed == NULL && gd->num_inputs > 0) {
    im.inputs = (ginput*)tfe_malloc((size_t)gd->num_inputs * sizeof(ginput));
    if (im.inputs == NULL) {
      tfe_free(im.nodes);
      return oom(&im);
    }
    memcpy(im.inputs, gd->inputs, (size_t)gd->num_inputs * sizeof(ginput));
  }
  ok = run_import(&im, results);
  if (!ok) version_hint(&im);
  if (consumed == NULL) {
    tfe_free(im.nodes);
    tfe_free(im.inputs);
  }
  tfe_free(im.prefix);
  tfe_free(im.map);
  tfe_free(im.ctl_deps);
  tfe_free(im.succ);
  tfe_free(im.back);
  ns_free(&im.gdef_names);
  ns_free(&im.gdef_prefixes);
  ns_free(&im.graph_prefixes);
  tfe_free(im.tmp.p);
  tfe_free(im.tmp2.p);
  if (ok) tfe_status_ok(s);
  return ok;
}
