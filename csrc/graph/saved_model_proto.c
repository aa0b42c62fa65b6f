/* The SavedModel reader of TF_LoadSessionFromSavedModel: finds the
 * MetaGraphDef that matches the tags and pulls out what the loader needs
 * (saved_model_internal.h lists the fields). Wire-format reading uses the
 * core reader (core/pb.h); nothing is copied out of the file's bytes except
 * a graph_def split over several occurrences of its field.
 *
 * Malformed input is reported as TF's ReadBinaryProto reports it: when
 * the parser needs bytes beyond the end of the file (a length or a varint
 * running past it), the file stream's OUT_OF_RANGE "Read less bytes than
 * requested"; any other malformation, DATA_LOSS "Can't parse <path> as
 * binary proto". Only the SavedModel's top level, the tags of every
 * MetaGraphDef and the parts of the chosen one read here are checked; the
 * GraphDef is checked by the importer. */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "graph/saved_model_internal.h"

typedef struct pctx {
  const unsigned char* file_end;
  int eof; /* the failure needed bytes past the end of the file */
  /* Start of the innermost field that failed to parse (NULL: none). */
  const unsigned char* fail_at;
} pctx;

static int rd_varint(pctx* c, tfe_pbr* r, uint64_t* v) {
  if (tfe_pbr_varint(r, v)) return 1;
  if (r->p >= r->end && r->end == c->file_end) c->eof = 1;
  return 0;
}

static int rd_tag(pctx* c, tfe_pbr* r, int* field, int* wire) {
  uint64_t t;
  if (!rd_varint(c, r, &t)) return 0;
  if ((t >> 32) != 0 || (t >> 3) == 0) return 0;
  *field = (int)(t >> 3);
  *wire = (int)(t & 7);
  return 1;
}

static int rd_len(pctx* c, tfe_pbr* r, tfe_pbr* sub) {
  uint64_t n;
  if (!rd_varint(c, r, &n)) return 0;
  if (n > (uint64_t)(r->end - r->p)) {
    if (n > (uint64_t)(c->file_end - r->p)) c->eof = 1;
    return 0;
  }
  sub->p = r->p;
  sub->end = r->p + n;
  r->p += n;
  return 1;
}

static int rd_skip(pctx* c, tfe_pbr* r, int field, int wire) {
  tfe_pbr sub;
  uint64_t v;
  switch (wire) {
    case 0:
      return rd_varint(c, r, &v);
    case 2:
      return rd_len(c, r, &sub);
    case 1:
    case 5: {
      ptrdiff_t need = wire == 1 ? 8 : 4;
      if (r->end - r->p < need) {
        if (c->file_end - r->p < need) c->eof = 1;
        return 0;
      }
      r->p += need;
      return 1;
    }
    default:
      return tfe_pbr_skip(r, field, wire);
  }
}

static int str_is(tfe_sm_str s, const char* lit) {
  size_t n = strlen(lit);
  return s.p != NULL && s.n == n && memcmp(s.p, lit, n) == 0;
}

static tfe_sm_str view(const tfe_pbr* sub) {
  tfe_sm_str s;
  s.p = (const char*)sub->p;
  s.n = (size_t)(sub->end - sub->p);
  return s;
}

/* Walks the fields of message *m; for each length-delimited field calls
 * fn(c, field, &payload, arg) (0 from fn stops with failure); other fields
 * are skipped. */
typedef int (*field_fn)(pctx* c, int field, tfe_pbr* payload, void* arg);

static int failed_at(pctx* c, const unsigned char* at) {
  if (c->fail_at == NULL) c->fail_at = at;
  return 0;
}

static int walk(pctx* c, tfe_pbr m, field_fn fn, void* arg) {
  int field, wire;
  while (m.p < m.end) {
    const unsigned char* at = m.p;
    if (!rd_tag(c, &m, &field, &wire)) return failed_at(c, at);
    if (wire == 2) {
      tfe_pbr sub;
      if (!rd_len(c, &m, &sub)) return failed_at(c, at);
      if (fn != NULL && !fn(c, field, &sub, arg)) return failed_at(c, at);
    } else if (!rd_skip(c, &m, field, wire)) {
      return failed_at(c, at);
    }
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * Tags. */

typedef struct tag_match {
  const char* const* tags;
  int n;
  unsigned char* seen; /* n flags */
  int foreign;         /* the graph has a tag not given */
} tag_match;

static int on_meta_info(pctx* c, int field, tfe_pbr* p, void* arg) {
  tag_match* t = (tag_match*)arg;
  int i, hit = 0;
  tfe_sm_str tag;
  (void)c;
  if (field != 4) return 1;
  tag = view(p);
  for (i = 0; i < t->n; i++) {
    if (strlen(t->tags[i]) == tag.n && memcmp(t->tags[i], tag.p, tag.n) == 0) {
      t->seen[i] = 1;
      hit = 1;
    }
  }
  if (!hit) t->foreign = 1;
  return 1;
}

static int on_meta_for_tags(pctx* c, int field, tfe_pbr* p, void* arg) {
  if (field != 1) return 1;
  return walk(c, *p, on_meta_info, arg);
}

/* ------------------------------------------------------------------------
 * The chosen MetaGraphDef. */

typedef struct any_item {
  tfe_sm_str url, value;
} any_item;

typedef struct meta_state {
  tfe_sm_meta* m;
  /* graph_def payloads (usually one) */
  tfe_pbr* gd;
  int ngd, capgd;
  /* "saved_model_assets" Any values */
  any_item* anys;
  int nanys, capanys;
  int capassets;
  int oom;
  /* map entry being read */
  tfe_sm_str key;
  tfe_sm_node_list* list; /* node list filled by the current entry */
  tfe_sm_str* tensor_name; /* TensorInfo.name target */
  any_item cur_any;
} meta_state;

static int grow(void** items, int* cap, int n, size_t size) {
  size_t bytes;
  void* p;
  int c;
  if (n < *cap) return 1;
  c = *cap == 0 ? 4 : *cap * 2;
  if (!tfe_mul_size((size_t)c, size, &bytes)) return 0;
  p = tfe_realloc(*items, bytes);
  if (p == NULL) return 0;
  *items = p;
  *cap = c;
  return 1;
}

/* Map entry key: the last field 1. */
static int on_key(pctx* c, int field, tfe_pbr* p, void* arg) {
  (void)c;
  if (field == 1) *(tfe_sm_str*)arg = view(p);
  return 1;
}

static int entry_key(pctx* c, tfe_pbr entry, tfe_sm_str* key) {
  key->p = NULL;
  key->n = 0;
  return walk(c, entry, on_key, key);
}

/* TensorInfo: name (1); another encoding (4, 5) clears it (a oneof). */
static int on_tensor_info(pctx* c, int field, tfe_pbr* p, void* arg) {
  tfe_sm_str* name = (tfe_sm_str*)arg;
  (void)c;
  if (field == 1) {
    *name = view(p);
  } else if (field == 4 || field == 5) {
    name->p = NULL;
    name->n = 0;
  }
  return 1;
}

/* AssetFileDef: tensor_info (1), filename (2). */
static int on_asset(pctx* c, int field, tfe_pbr* p, void* arg) {
  tfe_sm_asset* a = (tfe_sm_asset*)arg;
  if (field == 1) return walk(c, *p, on_tensor_info, &a->tensor_name);
  if (field == 2) a->filename = view(p);
  return 1;
}

/* NodeList: value (1). */
static int on_node_list(pctx* c, int field, tfe_pbr* p, void* arg) {
  tfe_sm_node_list* l = (tfe_sm_node_list*)arg;
  (void)c;
  if (field != 1) return 1;
  if (l->count == 0) l->first = view(p);
  l->count++;
  return 1;
}

/* CollectionDef holding a node list: node_list (1); another kind clears
 * it. */
static int on_collection_nodes(pctx* c, int field, tfe_pbr* p, void* arg) {
  tfe_sm_node_list* l = (tfe_sm_node_list*)arg;
  if (field == 1) return walk(c, *p, on_node_list, l);
  if (field >= 2 && field <= 5) {
    l->count = 0;
    l->first.p = NULL;
    l->first.n = 0;
  }
  return 1;
}

/* Any: type_url (1), value (2). */
static int on_any(pctx* c, int field, tfe_pbr* p, void* arg) {
  any_item* a = (any_item*)arg;
  (void)c;
  if (field == 1) a->url = view(p);
  if (field == 2) a->value = view(p);
  return 1;
}

/* AnyList: value (1). */
static int on_any_list(pctx* c, int field, tfe_pbr* p, void* arg) {
  meta_state* st = (meta_state*)arg;
  any_item a;
  if (field != 1) return 1;
  memset(&a, 0, sizeof(a));
  if (!walk(c, *p, on_any, &a)) return 0;
  if (!grow((void**)&st->anys, &st->capanys, st->nanys, sizeof(any_item))) {
    st->oom = 1;
    return 0;
  }
  st->anys[st->nanys++] = a;
  return 1;
}

/* CollectionDef holding the assets: any_list (5); another kind clears it. */
static int on_collection_assets(pctx* c, int field, tfe_pbr* p, void* arg) {
  meta_state* st = (meta_state*)arg;
  if (field == 5) return walk(c, *p, on_any_list, st);
  if (field >= 1 && field <= 4) st->nanys = 0;
  return 1;
}

static int on_collection_entry_value(pctx* c, int field, tfe_pbr* p,
                                     void* arg) {
  meta_state* st = (meta_state*)arg;
  if (field != 2) return 1;
  if (st->list != NULL) return walk(c, *p, on_collection_nodes, st->list);
  return walk(c, *p, on_collection_assets, st);
}

/* SignatureDef.outputs entry value for the init op signature. */
static int on_sig_output_entry_value(pctx* c, int field, tfe_pbr* p,
                                     void* arg) {
  if (field != 2) return 1;
  return walk(c, *p, on_tensor_info, arg);
}

/* SignatureDef of "__saved_model_init_op": outputs (2). */
static int on_init_sig(pctx* c, int field, tfe_pbr* p, void* arg) {
  tfe_sm_meta* m = (tfe_sm_meta*)arg;
  tfe_sm_str key;
  if (field != 2) return 1;
  if (!entry_key(c, *p, &key)) return 0;
  if (!str_is(key, "__saved_model_init_op")) return 1;
  /* A later entry with the same key replaces an earlier one. */
  m->init_sig_has_output = 1;
  m->init_sig_name.p = NULL;
  m->init_sig_name.n = 0;
  return walk(c, *p, on_sig_output_entry_value, &m->init_sig_name);
}

static int on_sig_entry_value(pctx* c, int field, tfe_pbr* p, void* arg) {
  if (field != 2) return 1;
  return walk(c, *p, on_init_sig, arg);
}

/* SaverDef: filename_tensor_name (1), restore_op_name (3). */
static int on_saver(pctx* c, int field, tfe_pbr* p, void* arg) {
  tfe_sm_meta* m = (tfe_sm_meta*)arg;
  (void)c;
  if (field == 1) m->saver_filename_tensor = view(p);
  if (field == 3) m->saver_restore_op = view(p);
  return 1;
}

static int on_meta(pctx* c, int field, tfe_pbr* p, void* arg) {
  meta_state* st = (meta_state*)arg;
  tfe_sm_meta* m = st->m;
  switch (field) {
    case 2: /* graph_def */
      if (!grow((void**)&st->gd, &st->capgd, st->ngd, sizeof(tfe_pbr))) {
        st->oom = 1;
        return 0;
      }
      st->gd[st->ngd++] = *p;
      return 1;
    case 3: /* saver_def */
      m->has_saver_def = 1;
      return walk(c, *p, on_saver, m);
    case 4: { /* collection_def entry */
      tfe_sm_str key;
      if (!entry_key(c, *p, &key)) return 0;
      st->list = NULL;
      if (str_is(key, "saved_model_main_op")) {
        st->list = &m->main_op;
      } else if (str_is(key, "legacy_init_op")) {
        st->list = &m->legacy_op;
      } else if (!str_is(key, "saved_model_assets")) {
        return 1;
      }
      if (st->list != NULL) {
        memset(st->list, 0, sizeof(*st->list));
        st->list->present = 1;
      } else {
        st->nanys = 0;
      }
      return walk(c, *p, on_collection_entry_value, st);
    }
    case 5: { /* signature_def entry */
      tfe_sm_str key;
      if (!entry_key(c, *p, &key)) return 0;
      if (!str_is(key, "__saved_model_init_op")) return 1;
      m->has_init_sig = 1;
      m->init_sig_has_output = 0;
      m->init_sig_name.p = NULL;
      m->init_sig_name.n = 0;
      return walk(c, *p, on_sig_entry_value, m);
    }
    case 6: { /* asset_file_def */
      tfe_sm_asset a;
      memset(&a, 0, sizeof(a));
      if (!walk(c, *p, on_asset, &a)) return 0;
      if (!grow((void**)&m->assets, &st->capassets, m->num_assets,
                sizeof(tfe_sm_asset))) {
        st->oom = 1;
        return 0;
      }
      m->assets[m->num_assets++] = a;
      return 1;
    }
    default:
      return 1;
  }
}

/* Fills m->assets from the "saved_model_assets" Anys (TF1 models) when
 * the MetaGraphDef has no asset_file_def. */
static int assets_from_collection(meta_state* st, TF_Status* s) {
  static const char kType[] = "tensorflow.AssetFileDef";
  tfe_sm_meta* m = st->m;
  int i;
  if (st->nanys == 0) return 1;
  m->assets = (tfe_sm_asset*)tfe_calloc((size_t)st->nanys, sizeof(tfe_sm_asset));
  if (m->assets == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "TF_LoadSessionFromSavedModel: out of memory");
    return 0;
  }
  for (i = 0; i < st->nanys; i++) {
    const any_item* a = &st->anys[i];
    const char* slash = NULL;
    size_t k, tn = sizeof(kType) - 1;
    pctx c2;
    tfe_pbr r;
    for (k = 0; a->url.p != NULL && k < a->url.n; k++) {
      if (a->url.p[k] == '/') slash = a->url.p + k;
    }
    /* Any::Is: the part after the last '/' names the type. */
    if (slash == NULL || (size_t)(a->url.p + a->url.n - slash - 1) != tn ||
        memcmp(slash + 1, kType, tn) != 0) {
      tfe_status_setf(s, TF_FAILED_PRECONDITION,
                      "Expected Any type_url for: %s. Got: %.*s.", kType,
                      (int)a->url.n, a->url.p != NULL ? a->url.p : "");
      return 0;
    }
    memset(&c2, 0, sizeof(c2));
    r.p = (const unsigned char*)a->value.p;
    r.end = r.p + a->value.n;
    c2.file_end = r.end;
    if (r.p == NULL) r.p = r.end = (const unsigned char*)"";
    if (!walk(&c2, r, on_asset, &m->assets[m->num_assets])) {
      tfe_status_setf(s, TF_FAILED_PRECONDITION,
                      "Failed to unpack: a \"saved_model_assets\" entry of "
                      "type %s does not parse",
                      kType);
      return 0;
    }
    m->num_assets++;
  }
  return 1;
}

void tfe_sm_meta_free(tfe_sm_meta* m) {
  if (m == NULL) return;
  tfe_free(m->graph_def_owned);
  tfe_free(m->assets);
  memset(m, 0, sizeof(*m));
}

/* TF's parser reads the file through a stream with a 16-byte look-ahead:
 * a failure that needed bytes past the end of the file, or one within
 * the last 16 bytes, made the stream read at the end of the file, and
 * that read's OUT_OF_RANGE is what TF reports. */
static void malformed(const pctx* c, const char* path, TF_Status* s) {
  if (c->eof || (c->fail_at != NULL && c->file_end - c->fail_at <= 16)) {
    tfe_status_setf(s, TF_OUT_OF_RANGE, "Read less bytes than requested");
  } else {
    tfe_status_setf(s, TF_DATA_LOSS, "Can't parse %s as binary proto", path);
  }
}

static void oom(TF_Status* s) {
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "TF_LoadSessionFromSavedModel: out of memory");
}

/* " a b c" for the message (given order, duplicates once). */
static char* join_tags(const char* const* tags, int n) {
  size_t len = 1;
  int i, j;
  char* out;
  for (i = 0; i < n; i++) len += strlen(tags[i]) + 1;
  out = (char*)tfe_malloc(len);
  if (out == NULL) return NULL;
  out[0] = '\0';
  len = 0;
  for (i = 0; i < n; i++) {
    for (j = 0; j < i && strcmp(tags[i], tags[j]) != 0; j++) {
    }
    if (j < i) continue;
    if (len > 0) out[len++] = ' ';
    memcpy(out + len, tags[i], strlen(tags[i]) + 1);
    len += strlen(tags[i]);
  }
  return out;
}

int tfe_sm_find_meta_graph(const unsigned char* data, size_t len,
                           const char* path, const char* const* tags,
                           int tags_len, tfe_sm_meta* out, TF_Status* s) {
  pctx c;
  tfe_pbr r, chosen;
  int field, wire, found = 0;
  tag_match tm;
  meta_state st;
  memset(out, 0, sizeof(*out));
  memset(&c, 0, sizeof(c));
  if (data == NULL) data = (const unsigned char*)"";
  c.file_end = data + len;
  r.p = data;
  r.end = data + len;
  memset(&tm, 0, sizeof(tm));
  tm.tags = tags;
  tm.n = tags_len;
  tm.seen = (unsigned char*)tfe_calloc((size_t)(tags_len > 0 ? tags_len : 1), 1);
  if (tm.seen == NULL) {
    oom(s);
    return 0;
  }
  memset(&chosen, 0, sizeof(chosen));
  /* The whole top level is checked (TF parses the file before looking for
   * the tags); the first MetaGraphDef whose tags match is the one. */
  while (r.p < r.end) {
    const unsigned char* at = r.p;
    c.fail_at = at;
    if (!rd_tag(&c, &r, &field, &wire)) goto bad;
    if (field == 2 && wire == 2) {
      tfe_pbr sub;
      int i, all = 1;
      if (!rd_len(&c, &r, &sub)) goto bad;
      memset(tm.seen, 0, (size_t)(tags_len > 0 ? tags_len : 1));
      tm.foreign = 0;
      c.fail_at = NULL;
      if (!walk(&c, sub, on_meta_for_tags, &tm)) goto bad;
      for (i = 0; i < tags_len; i++) all &= tm.seen[i];
      if (!found && all && !tm.foreign) {
        found = 1;
        chosen = sub;
      }
    } else if (!rd_skip(&c, &r, field, wire)) {
      goto bad;
    }
  }
  c.fail_at = NULL;
  tfe_free(tm.seen);
  tm.seen = NULL;
  if (!found) {
    char* joined = join_tags(tags, tags_len);
    if (joined == NULL) {
      oom(s);
      return 0;
    }
    tfe_status_setf(s, TF_NOT_FOUND,
                    "Could not find meta graph def matching supplied tags: "
                    "{ %s }. To inspect available tag-sets in the "
                    "SavedModel, please use the SavedModel CLI: "
                    "`saved_model_cli`",
                    joined);
    tfe_free(joined);
    return 0;
  }
  out->bytes = chosen.p;
  out->len = (size_t)(chosen.end - chosen.p);
  memset(&st, 0, sizeof(st));
  st.m = out;
  if (!walk(&c, chosen, on_meta, &st)) {
    if (st.oom) {
      oom(s);
    } else {
      malformed(&c, path, s);
    }
    goto fail;
  }
  if (st.ngd == 1) {
    out->graph_def = st.gd[0].p;
    out->graph_def_len = (size_t)(st.gd[0].end - st.gd[0].p);
  } else if (st.ngd > 1) {
    size_t total = 0, at = 0;
    int i;
    for (i = 0; i < st.ngd; i++) total += (size_t)(st.gd[i].end - st.gd[i].p);
    out->graph_def_owned = (unsigned char*)tfe_malloc(total > 0 ? total : 1);
    if (out->graph_def_owned == NULL) {
      oom(s);
      goto fail;
    }
    for (i = 0; i < st.ngd; i++) {
      size_t n = (size_t)(st.gd[i].end - st.gd[i].p);
      if (n > 0) memcpy(out->graph_def_owned + at, st.gd[i].p, n);
      at += n;
    }
    out->graph_def = out->graph_def_owned;
    out->graph_def_len = total;
  }
  if (out->num_assets == 0 && !assets_from_collection(&st, s)) goto fail;
  tfe_free(st.gd);
  tfe_free(st.anys);
  tfe_status_ok(s);
  return 1;
bad:
  tfe_free(tm.seen);
  malformed(&c, path, s);
  return 0;
fail:
  tfe_free(st.gd);
  tfe_free(st.anys);
  tfe_sm_meta_free(out);
  return 0;
}

int tfe_sm_check_message(const unsigned char* data, size_t len,
                         const char* path, TF_Status* s) {
  pctx c;
  tfe_pbr r;
  memset(&c, 0, sizeof(c));
  if (data == NULL) data = (const unsigned char*)"";
  r.p = data;
  r.end = data + len;
  c.file_end = r.end;
  if (!walk(&c, r, NULL, NULL)) {
    malformed(&c, path, s);
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * GraphDef checks (TF's ValidateSavedTensors). */

typedef struct node_info {
  tfe_sm_str name, op;
  int has_value;   /* attr "value" present */
  int has_tensor;  /* ... holding a tensor */
  int64_t elements; /* its shape's element count, -1 when unknown */
} node_info;

typedef struct shape_acc {
  int unknown_rank;
  int64_t elements;
  int unknown;
} shape_acc;

/* TensorShapeProto: dim (2) {size (1)}, unknown_rank (3). Varint fields
 * need their own loop. */
static int read_shape(pctx* c, tfe_pbr m, shape_acc* acc) {
  int field, wire;
  while (m.p < m.end) {
    if (!rd_tag(c, &m, &field, &wire)) return 0;
    if (field == 3 && wire == 0) {
      uint64_t v;
      if (!rd_varint(c, &m, &v)) return 0;
      acc->unknown_rank = v != 0;
    } else if (field == 2 && wire == 2) {
      tfe_pbr d;
      int64_t size = 0;
      int f2, w2;
      if (!rd_len(c, &m, &d)) return 0;
      while (d.p < d.end) {
        if (!rd_tag(c, &d, &f2, &w2)) return 0;
        if (f2 == 1 && w2 == 0) {
          uint64_t v;
          if (!rd_varint(c, &d, &v)) return 0;
          size = (int64_t)v;
        } else if (!rd_skip(c, &d, f2, w2)) {
          return 0;
        }
      }
      if (size < 0) {
        acc->unknown = 1;
      } else if (!acc->unknown) {
        if (size != 0 && acc->elements > INT64_MAX / size) {
          acc->unknown = 1; /* too large to count */
        } else {
          acc->elements *= size;
        }
      }
    } else if (!rd_skip(c, &m, field, wire)) {
      return 0;
    }
  }
  return 1;
}

/* TensorProto: tensor_shape (2). */
static int on_tensor(pctx* c, int field, tfe_pbr* p, void* arg) {
  shape_acc* acc = (shape_acc*)arg;
  if (field != 2) return 1;
  /* A repeated occurrence merges into the same shape. */
  return read_shape(c, *p, acc);
}

/* AttrValue: tensor (8); another value kind clears it (a oneof). */
typedef struct attr_acc {
  int has_tensor;
  shape_acc shape;
} attr_acc;

static int on_attr_value(pctx* c, int field, tfe_pbr* p, void* arg) {
  attr_acc* a = (attr_acc*)arg;
  if (field == 8) {
    if (!a->has_tensor) {
      memset(&a->shape, 0, sizeof(a->shape));
      a->shape.elements = 1;
    }
    a->has_tensor = 1;
    return walk(c, *p, on_tensor, &a->shape);
  }
  if (field == 1 || field == 2 || field == 7 || field == 9 || field == 10) {
    a->has_tensor = 0; /* s, shape, placeholder, func, list: the oneof */
  }
  return 1;
}

static int on_attr_entry_value(pctx* c, int field, tfe_pbr* p, void* arg) {
  if (field != 2) return 1;
  return walk(c, *p, on_attr_value, arg);
}

/* NodeDef: name (1), op (2), attr (5). */
static int on_node(pctx* c, int field, tfe_pbr* p, void* arg) {
  node_info* n = (node_info*)arg;
  if (field == 1) n->name = view(p);
  if (field == 2) n->op = view(p);
  if (field == 5) {
    tfe_sm_str key;
    attr_acc a;
    if (!entry_key(c, *p, &key)) return 0;
    if (!str_is(key, "value")) return 1;
    memset(&a, 0, sizeof(a));
    if (!walk(c, *p, on_attr_entry_value, &a)) return 0;
    n->has_value = 1;
    n->has_tensor = a.has_tensor;
    n->elements =
        a.shape.unknown_rank || a.shape.unknown ? -1 : a.shape.elements;
  }
  return 1;
}

typedef struct validate_state {
  TF_Status* s;
  int failed;
  tfe_sm_str fn_name; /* the function whose nodes are read, if any */
} validate_state;

static int check_node(pctx* c, tfe_pbr* p, validate_state* v) {
  node_info n;
  memset(&n, 0, sizeof(n));
  if (!walk(c, *p, on_node, &n)) return 0;
  if (n.has_value) {
    if (n.has_tensor && n.elements < 0) {
      tfe_status_setf(v->s, TF_FAILED_PRECONDITION,
                      "Saved model contains node \"%.*s\" (op \"%.*s\") which "
                      "initializes from a tensor with %lld elements",
                      (int)n.name.n, n.name.p ? n.name.p : "", (int)n.op.n,
                      n.op.p ? n.op.p : "", (long long)n.elements);
      v->failed = 1;
      return 0;
    }
  } else if (str_is(n.op, "Const")) {
    tfe_status_setf(v->s, TF_FAILED_PRECONDITION,
                    "Saved model contains node \"%.*s\" which is a constant "
                    "tensor but no value has been provided",
                    (int)n.name.n, n.name.p ? n.name.p : "");
    v->failed = 1;
    return 0;
  }
  if (v->fn_name.p != NULL && n.op.n == v->fn_name.n &&
      memcmp(n.op.p, v->fn_name.p, n.op.n) == 0) {
    tfe_status_setf(v->s, TF_FAILED_PRECONDITION,
                    "Function %.*s is self recursive and TensorFlow does not "
                    "support this scenario.",
                    (int)v->fn_name.n, v->fn_name.p);
    v->failed = 1;
    return 0;
  }
  return 1;
}

/* OpDef: name (1). */
static int on_op_def(pctx* c, int field, tfe_pbr* p, void* arg) {
  (void)c;
  if (field == 1) *(tfe_sm_str*)arg = view(p);
  return 1;
}

/* FunctionDef: signature (1) first, then node_def (3). */
static int on_fn_sig(pctx* c, int field, tfe_pbr* p, void* arg) {
  if (field != 1) return 1;
  return walk(c, *p, on_op_def, arg);
}

static int on_fn_node(pctx* c, int field, tfe_pbr* p, void* arg) {
  if (field != 3) return 1;
  return check_node(c, p, (validate_state*)arg);
}

static int on_library(pctx* c, int field, tfe_pbr* p, void* arg) {
  validate_state* v = (validate_state*)arg;
  tfe_sm_str name = {NULL, 0};
  int ok;
  if (field != 1) return 1;
  if (!walk(c, *p, on_fn_sig, &name)) return 0;
  v->fn_name = name;
  if (v->fn_name.p == NULL) v->fn_name.p = "";
  ok = walk(c, *p, on_fn_node, v);
  v->fn_name.p = NULL;
  v->fn_name.n = 0;
  return ok;
}

/* GraphDef: node (1), library (2). TF checks every node, then the
 * library's functions. */
static int on_graph_node(pctx* c, int field, tfe_pbr* p, void* arg) {
  if (field != 1) return 1;
  return check_node(c, p, (validate_state*)arg);
}

static int on_graph_library(pctx* c, int field, tfe_pbr* p, void* arg) {
  if (field != 2) return 1;
  return walk(c, *p, on_library, arg);
}

int tfe_sm_validate_graph_def(const unsigned char* data, size_t len,
                              TF_Status* s) {
  pctx c;
  tfe_pbr r;
  validate_state v;
  memset(&c, 0, sizeof(c));
  memset(&v, 0, sizeof(v));
  v.s = s;
  if (data == NULL) data = (const unsigned char*)"";
  r.p = data;
  r.end = data + len;
  c.file_end = r.end;
  if (!walk(&c, r, on_graph_node, &v)) return v.failed ? 0 : 1;
  if (!walk(&c, r, on_graph_library, &v)) return v.failed ? 0 : 1;
  return 1;
}
