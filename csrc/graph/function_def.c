/* The FunctionDef model: parsing and writing FunctionDef messages
 * (tensorflow/core/framework/function.proto: signature 1, node_def 3,
 * ret 4, attr 5, control_ret 6, arg_attr 7, resource_arg_unique_id 8),
 * TF's equality rule for two definitions of one name, and the signature
 * as an op definition. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "graph/function_internal.h"
#include "ops/ops_internal.h"

/* ------------------------------------------------------------------------
 * Maps. */

static int kv_cmp(const void* a, const void* b) {
  return strcmp(((const tfe_fkv*)a)->key, ((const tfe_fkv*)b)->key);
}

void tfe_fkv_sort(tfe_fkv* kv, int n) {
  if (n > 1) qsort(kv, (size_t)n, sizeof(*kv), kv_cmp);
}

const tfe_fkv* tfe_fkv_find(const tfe_fkv* kv, int n, const char* key) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    int c = strcmp(kv[mid].key, key);
    if (c == 0) return &kv[mid];
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return NULL;
}

void tfe_fkv_free(tfe_fkv* kv, int n) {
  int i;
  for (i = 0; i < n; i++) {
    tfe_free(kv[i].key);
    tfe_free(kv[i].val);
  }
  tfe_free(kv);
}

/* Copies bytes and adds a NUL (so string values are C strings). */
static char* dup_bytes(const void* p, size_t n) {
  char* d = (char*)tfe_malloc(n + 1);
  if (d == NULL) return NULL;
  if (n > 0) memcpy(d, p, n);
  d[n] = '\0';
  return d;
}

/* Appends or replaces (unsorted; callers sort once at the end). */
static int kv_put_raw(tfe_fkv** kv, int* n, const char* key, size_t klen,
                      const void* val, size_t len) {
  int i;
  char* v = dup_bytes(val, len);
  tfe_fkv* grown;
  if (v == NULL) return 0;
  for (i = 0; i < *n; i++) {
    if (strlen((*kv)[i].key) == klen && memcmp((*kv)[i].key, key, klen) == 0) {
      tfe_free((*kv)[i].val);
      (*kv)[i].val = v;
      (*kv)[i].len = len;
      return 1;
    }
  }
  grown = (tfe_fkv*)tfe_realloc(*kv, sizeof(**kv) * (size_t)(*n + 1));
  if (grown == NULL) {
    tfe_free(v);
    return 0;
  }
  *kv = grown;
  grown[*n].key = dup_bytes(key, klen);
  if (grown[*n].key == NULL) {
    tfe_free(v);
    return 0;
  }
  grown[*n].val = v;
  grown[*n].len = len;
  (*n)++;
  return 1;
}

int tfe_fkv_set(tfe_fkv** kv, int* n, const char* key, const void* val,
                size_t len) {
  if (!kv_put_raw(kv, n, key, strlen(key), val, len)) return 0;
  tfe_fkv_sort(*kv, *n);
  return 1;
}

/* ------------------------------------------------------------------------
 * Clearing. */

static void node_clear(tfe_fnode* nd) {
  int i;
  tfe_free(nd->name);
  tfe_free(nd->op);
  tfe_free(nd->device);
  for (i = 0; i < nd->num_inputs; i++) tfe_free(nd->inputs[i]);
  tfe_free(nd->inputs);
  tfe_fkv_free(nd->attrs, nd->num_attrs);
  tfe_free(nd->extra);
  memset(nd, 0, sizeof(*nd));
}

void tfe_fdef_clear(tfe_fdef* fd) {
  int i;
  if (fd == NULL) return;
  tfe_free(fd->name);
  tfe_free(fd->sig_rest);
  tfe_fkv_free(fd->attrs, fd->num_attrs);
  for (i = 0; i < fd->num_nodes; i++) node_clear(&fd->nodes[i]);
  tfe_free(fd->nodes);
  tfe_fkv_free(fd->ret, fd->num_ret);
  tfe_fkv_free(fd->control_ret, fd->num_control_ret);
  for (i = 0; i < fd->num_raw; i++) tfe_free(fd->raw[i].data);
  tfe_free(fd->raw);
  for (i = 0; i < fd->num_control_outputs; i++) {
    tfe_free(fd->control_outputs[i]);
  }
  tfe_free(fd->control_outputs);
  memset(fd, 0, sizeof(*fd));
}

/* ------------------------------------------------------------------------
 * Parsing. */

static int append_bytes(unsigned char** buf, size_t* len, const void* p,
                        size_t n) {
  unsigned char* g;
  if (n == 0) return 1;
  g = (unsigned char*)tfe_realloc(*buf, *len + n);
  if (g == NULL) return 0;
  memcpy(g + *len, p, n);
  *buf = g;
  *len += n;
  return 1;
}

static int push_str(char*** arr, int* n, const void* p, size_t len) {
  char** g = (char**)tfe_realloc(*arr, sizeof(char*) * (size_t)(*n + 1));
  if (g == NULL) return 0;
  *arr = g;
  g[*n] = dup_bytes(p, len);
  if (g[*n] == NULL) return 0;
  (*n)++;
  return 1;
}

/* A map<string, X> entry: key 1, value 2 (bytes). */
static int parse_entry(tfe_pbr* r, tfe_pbr* key, tfe_pbr* val) {
  int f, w;
  key->p = key->end = r->p;
  val->p = val->end = r->p;
  while (r->p < r->end) {
    if (!tfe_pbr_tag(r, &f, &w)) return 0;
    if (f == 1 && w == 2) {
      if (!tfe_pbr_len(r, key)) return 0;
    } else if (f == 2 && w == 2) {
      if (!tfe_pbr_len(r, val)) return 0;
    } else if (!tfe_pbr_skip(r, f, w)) {
      return 0;
    }
  }
  return 1;
}

/* A map<uint32, X> entry's key. */
static int parse_int_key(tfe_pbr r, uint32_t* key) {
  int f, w;
  uint64_t v;
  *key = 0;
  while (r.p < r.end) {
    if (!tfe_pbr_tag(&r, &f, &w)) return 0;
    if (f == 1 && w == 0) {
      if (!tfe_pbr_varint(&r, &v)) return 0;
      *key = (uint32_t)v;
    } else if (!tfe_pbr_skip(&r, f, w)) {
      return 0;
    }
  }
  return 1;
}

/* -1: malformed, 0: OOM, 1: ok. */
static int parse_node(tfe_pbr r, tfe_fnode* nd) {
  int f, w;
  while (r.p < r.end) {
    const unsigned char* start = r.p;
    tfe_pbr sub;
    if (!tfe_pbr_tag(&r, &f, &w)) return -1;
    if (w == 2 && f >= 1 && f <= 5) {
      if (!tfe_pbr_len(&r, &sub)) return -1;
      size_t n = (size_t)(sub.end - sub.p);
      char** slot = NULL;
      switch (f) {
        case 1: slot = &nd->name; break;
        case 2: slot = &nd->op; break;
        case 4: slot = &nd->device; break;
        case 3:
          if (!push_str(&nd->inputs, &nd->num_inputs, sub.p, n)) return 0;
          continue;
        case 5: {
          tfe_pbr k, v;
          if (!parse_entry(&sub, &k, &v)) return -1;
          if (!kv_put_raw(&nd->attrs, &nd->num_attrs, (const char*)k.p,
                          (size_t)(k.end - k.p), v.p, (size_t)(v.end - v.p))) {
            return 0;
          }
          continue;
        }
      }
      tfe_free(*slot);
      *slot = dup_bytes(sub.p, n);
      if (*slot == NULL) return 0;
      continue;
    }
    if (!tfe_pbr_skip(&r, f, w)) return -1;
    if (!append_bytes(&nd->extra, &nd->extra_len, start,
                      (size_t)(r.p - start))) {
      return 0;
    }
  }
  if (nd->name == NULL && (nd->name = dup_bytes("", 0)) == NULL) return 0;
  if (nd->op == NULL && (nd->op = dup_bytes("", 0)) == NULL) return 0;
  if (nd->device == NULL && (nd->device = dup_bytes("", 0)) == NULL) return 0;
  tfe_fkv_sort(nd->attrs, nd->num_attrs);
  return 1;
}

static int parse_signature(tfe_pbr r, tfe_fdef* fd) {
  int f, w;
  while (r.p < r.end) {
    const unsigned char* start = r.p;
    tfe_pbr sub;
    if (!tfe_pbr_tag(&r, &f, &w)) return -1;
    if (f == 1 && w == 2) {
      if (!tfe_pbr_len(&r, &sub)) return -1;
      tfe_free(fd->name);
      fd->name = dup_bytes(sub.p, (size_t)(sub.end - sub.p));
      if (fd->name == NULL) return 0;
      continue;
    }
    if (f == 20 && w == 2) {
      if (!tfe_pbr_len(&r, &sub)) return -1;
      if (!push_str(&fd->control_outputs, &fd->num_control_outputs, sub.p,
                    (size_t)(sub.end - sub.p))) {
        return 0;
      }
    } else if (!tfe_pbr_skip(&r, f, w)) {
      return -1;
    }
    if (!append_bytes(&fd->sig_rest, &fd->sig_rest_len, start,
                      (size_t)(r.p - start))) {
      return 0;
    }
  }
  return 1;
}

int tfe_fdef_parse(const void* data, size_t len, tfe_fdef* fd,
                   const char* who, TF_Status* s) {
  tfe_pbr r;
  int f, w, rc = 1;
  memset(fd, 0, sizeof(*fd));
  if (data == NULL && len > 0) goto bad;
  r.p = (const unsigned char*)data;
  r.end = data == NULL ? r.p : r.p + len;
  while (r.p < r.end && rc == 1) {
    const unsigned char* start = r.p;
    tfe_pbr sub, k, v;
    if (!tfe_pbr_tag(&r, &f, &w)) goto bad;
    if (w != 2 || f < 1 || f > 8 || f == 2) {
      if (!tfe_pbr_skip(&r, f, w)) goto bad;
      continue;
    }
    if (!tfe_pbr_len(&r, &sub)) goto bad;
    switch (f) {
      case 1:
        rc = parse_signature(sub, fd);
        break;
      case 3: {
        tfe_fnode* g = (tfe_fnode*)tfe_realloc(
            fd->nodes, sizeof(*g) * (size_t)(fd->num_nodes + 1));
        if (g == NULL) {
          rc = 0;
          break;
        }
        fd->nodes = g;
        memset(&g[fd->num_nodes], 0, sizeof(*g));
        fd->num_nodes++;
        rc = parse_node(sub, &g[fd->num_nodes - 1]);
        break;
      }
      case 4:
      case 5:
      case 6: {
        tfe_fkv** kv = f == 4 ? &fd->ret : f == 5 ? &fd->attrs : &fd->control_ret;
        int* n = f == 4 ? &fd->num_ret
                        : f == 5 ? &fd->num_attrs : &fd->num_control_ret;
        if (!parse_entry(&sub, &k, &v)) {
          rc = -1;
          break;
        }
        rc = kv_put_raw(kv, n, (const char*)k.p, (size_t)(k.end - k.p), v.p,
                        (size_t)(v.end - v.p));
        break;
      }
      case 7:
      case 8: {
        uint32_t key;
        int i;
        tfe_fraw* g;
        if (!parse_int_key(sub, &key)) {
          rc = -1;
          break;
        }
        for (i = 0; i < fd->num_raw; i++) {
          if (fd->raw[i].field == f && fd->raw[i].key == key) break;
        }
        if (i == fd->num_raw) {
          g = (tfe_fraw*)tfe_realloc(fd->raw,
                                     sizeof(*g) * (size_t)(fd->num_raw + 1));
          if (g == NULL) {
            rc = 0;
            break;
          }
          fd->raw = g;
          memset(&g[i], 0, sizeof(*g));
          fd->num_raw++;
        }
        tfe_free(fd->raw[i].data);
        fd->raw[i].field = f;
        fd->raw[i].key = key;
        fd->raw[i].len = (size_t)(sub.end - sub.p);
        fd->raw[i].data = (unsigned char*)dup_bytes(sub.p, fd->raw[i].len);
        rc = fd->raw[i].data != NULL;
        break;
      }
      default:
        (void)start;
        break;
    }
  }
  if (rc == -1) goto bad;
  if (rc == 0) {
    tfe_fdef_clear(fd);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "%s: out of memory", who);
    return 0;
  }
  if (fd->name == NULL && (fd->name = dup_bytes("", 0)) == NULL) {
    tfe_fdef_clear(fd);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "%s: out of memory", who);
    return 0;
  }
  tfe_fkv_sort(fd->attrs, fd->num_attrs);
  tfe_fkv_sort(fd->ret, fd->num_ret);
  tfe_fkv_sort(fd->control_ret, fd->num_control_ret);
  tfe_status_ok(s);
  return 1;
bad:
  tfe_fdef_clear(fd);
  tfe_status_setf(s, TF_INVALID_ARGUMENT, "Invalid FunctionDef given to %s",
                  who);
  return 0;
}

/* ------------------------------------------------------------------------
 * Writing. */

static void enc_kv_entry(tfe_pbw* out, int field, const tfe_fkv* e) {
  tfe_pbw sub = {0};
  tfe_pbw_str(&sub, 1, e->key);
  tfe_pbw_lenfield(&sub, 2, e->val, e->len);
  tfe_pbw_sub(out, field, &sub);
}

static void enc_node(tfe_pbw* out, const tfe_fnode* nd) {
  int i;
  tfe_pbw_str(out, 1, nd->name);
  tfe_pbw_str(out, 2, nd->op);
  for (i = 0; i < nd->num_inputs; i++) tfe_pbw_str(out, 3, nd->inputs[i]);
  if (nd->device[0] != '\0') tfe_pbw_str(out, 4, nd->device);
  for (i = 0; i < nd->num_attrs; i++) enc_kv_entry(out, 5, &nd->attrs[i]);
  tfe_pbw_bytes(out, nd->extra, nd->extra_len);
}

static int raw_cmp(const void* a, const void* b) {
  const tfe_fraw* x = (const tfe_fraw*)a;
  const tfe_fraw* y = (const tfe_fraw*)b;
  if (x->field != y->field) return x->field < y->field ? -1 : 1;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return 0;
}

void tfe_fdef_encode(const tfe_fdef* fd, tfe_pbw* out) {
  tfe_pbw sig = {0};
  int i;
  tfe_fraw* raw = NULL;
  tfe_pbw_str(&sig, 1, fd->name);
  tfe_pbw_bytes(&sig, fd->sig_rest, fd->sig_rest_len);
  tfe_pbw_sub(out, 1, &sig);
  for (i = 0; i < fd->num_nodes; i++) {
    tfe_pbw nd = {0};
    enc_node(&nd, &fd->nodes[i]);
    tfe_pbw_sub(out, 3, &nd);
  }
  for (i = 0; i < fd->num_ret; i++) enc_kv_entry(out, 4, &fd->ret[i]);
  for (i = 0; i < fd->num_attrs; i++) enc_kv_entry(out, 5, &fd->attrs[i]);
  for (i = 0; i < fd->num_control_ret; i++) {
    enc_kv_entry(out, 6, &fd->control_ret[i]);
  }
  if (fd->num_raw > 0) {
    raw = (tfe_fraw*)tfe_malloc(sizeof(*raw) * (size_t)fd->num_raw);
    if (raw == NULL) {
      out->oom = 1;
      return;
    }
    memcpy(raw, fd->raw, sizeof(*raw) * (size_t)fd->num_raw);
    qsort(raw, (size_t)fd->num_raw, sizeof(*raw), raw_cmp);
    for (i = 0; i < fd->num_raw; i++) {
      tfe_pbw_lenfield(out, raw[i].field, raw[i].data, raw[i].len);
    }
    tfe_free(raw);
  }
}

/* ------------------------------------------------------------------------
 * Equality. */

static int kv_equal(const tfe_fkv* a, int na, const tfe_fkv* b, int nb) {
  int i;
  if (na != nb) return 0;
  for (i = 0; i < na; i++) {
    if (strcmp(a[i].key, b[i].key) != 0 || a[i].len != b[i].len ||
        (a[i].len > 0 && memcmp(a[i].val, b[i].val, a[i].len) != 0)) {
      return 0;
    }
  }
  return 1;
}

static int node_equal(const tfe_fnode* a, const tfe_fnode* b) {
  int i;
  if (strcmp(a->name, b->name) != 0 || strcmp(a->op, b->op) != 0 ||
      strcmp(a->device, b->device) != 0 || a->num_inputs != b->num_inputs) {
    return 0;
  }
  for (i = 0; i < a->num_inputs; i++) {
    if (strcmp(a->inputs[i], b->inputs[i]) != 0) return 0;
  }
  return kv_equal(a->attrs, a->num_attrs, b->attrs, b->num_attrs);
}

int tfe_fdef_equal(const tfe_fdef* a, const tfe_fdef* b) {
  int i, j;
  if (strcmp(a->name, b->name) != 0 || a->sig_rest_len != b->sig_rest_len ||
      (a->sig_rest_len > 0 &&
       memcmp(a->sig_rest, b->sig_rest, a->sig_rest_len) != 0)) {
    return 0;
  }
  if (!kv_equal(a->attrs, a->num_attrs, b->attrs, b->num_attrs) ||
      !kv_equal(a->ret, a->num_ret, b->ret, b->num_ret) ||
      !kv_equal(a->control_ret, a->num_control_ret, b->control_ret,
                b->num_control_ret)) {
    return 0;
  }
  if (a->num_raw != b->num_raw || a->num_nodes != b->num_nodes) return 0;
  for (i = 0; i < a->num_raw; i++) {
    for (j = 0; j < b->num_raw; j++) {
      if (raw_cmp(&a->raw[i], &b->raw[j]) == 0) break;
    }
    if (j == b->num_raw || a->raw[i].len != b->raw[j].len ||
        memcmp(a->raw[i].data, b->raw[j].data, a->raw[i].len) != 0) {
      return 0;
    }
  }
  /* Nodes are matched by name, in any order. */
  for (i = 0; i < a->num_nodes; i++) {
    const tfe_fnode* x = &a->nodes[i];
    const tfe_fnode* y = NULL;
    if (i < b->num_nodes && strcmp(b->nodes[i].name, x->name) == 0) {
      y = &b->nodes[i];
    } else {
      for (j = 0; j < b->num_nodes; j++) {
        if (strcmp(b->nodes[j].name, x->name) == 0) {
          y = &b->nodes[j];
          break;
        }
      }
    }
    if (y == NULL || !node_equal(x, y)) return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * The signature as an op definition. */

static int kind_of(const char* t, size_t n, TF_AttrType* kind, int* is_list) {
  static const struct {
    const char* name;
    TF_AttrType kind;
  } kinds[] = {{"string", TF_ATTR_STRING}, {"int", TF_ATTR_INT},
               {"float", TF_ATTR_FLOAT},   {"bool", TF_ATTR_BOOL},
               {"type", TF_ATTR_TYPE},     {"shape", TF_ATTR_SHAPE},
               {"tensor", TF_ATTR_TENSOR}, {"func", TF_ATTR_FUNC}};
  size_t i;
  *is_list = 0;
  if (n > 6 && memcmp(t, "list(", 5) == 0 && t[n - 1] == ')') {
    *is_list = 1;
    t += 5;
    n -= 6;
  }
  for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
    if (strlen(kinds[i].name) == n && memcmp(kinds[i].name, t, n) == 0) {
      *kind = kinds[i].kind;
      return 1;
    }
  }
  return 0;
}

static int parse_arg(tfe_pbr r, tfe_arg_def* a) {
  int f, w;
  uint64_t v;
  while (r.p < r.end) {
    tfe_pbr sub;
    if (!tfe_pbr_tag(&r, &f, &w)) return -1;
    if (w == 2 && (f == 1 || f == 4 || f == 5 || f == 6)) {
      char** slot = f == 1 ? &a->name
                  : f == 4 ? &a->type_attr
                  : f == 5 ? &a->number_attr : &a->type_list_attr;
      if (!tfe_pbr_len(&r, &sub)) return -1;
      tfe_free(*slot);
      *slot = NULL;
      if (sub.end > sub.p || f == 1) {
        *slot = dup_bytes(sub.p, (size_t)(sub.end - sub.p));
        if (*slot == NULL) return 0;
      }
    } else if (w == 0 && (f == 3 || f == 16)) {
      if (!tfe_pbr_varint(&r, &v)) return -1;
      if (f == 3) {
        a->type = (TF_DataType)v;
      } else {
        a->is_ref = v != 0;
      }
    } else if (!tfe_pbr_skip(&r, f, w)) {
      return -1;
    }
  }
  if (a->name == NULL && (a->name = dup_bytes("", 0)) == NULL) return 0;
  return 1;
}

static int parse_attr_def(tfe_pbr r, tfe_attr_def* a, TF_Status* s) {
  int f, w;
  uint64_t v;
  while (r.p < r.end) {
    tfe_pbr sub;
    if (!tfe_pbr_tag(&r, &f, &w)) return -1;
    if (w == 2 && (f == 1 || f == 2)) {
      char** slot = f == 1 ? &a->name : &a->type_str;
      if (!tfe_pbr_len(&r, &sub)) return -1;
      tfe_free(*slot);
      *slot = dup_bytes(sub.p, (size_t)(sub.end - sub.p));
      if (*slot == NULL) return 0;
    } else if (w == 2 && (f == 3 || f == 7)) {
      tfe_attr_value val;
      if (!tfe_pbr_len(&r, &sub)) return -1;
      if (sub.end == sub.p) continue;
      if (!tfe_attr_proto_decode(sub.p, (size_t)(sub.end - sub.p), &val, s)) {
        tfe_status_ok(s);
        continue; /* a default tfe cannot represent is left out */
      }
      if (f == 3) {
        if (a->has_default) tfe_op_def_count_default_tensors(&a->default_value, 1);
        tfe_attr_value_clear(&a->default_value);
        a->default_value = val;
        a->has_default = 1;
        tfe_op_def_count_default_tensors(&a->default_value, 0);
      } else {
        tfe_attr_value_clear(&a->allowed);
        a->allowed = val;
        a->has_allowed = val.is_list;
        if (!val.is_list) tfe_attr_value_clear(&a->allowed);
      }
    } else if (w == 0 && (f == 5 || f == 6)) {
      if (!tfe_pbr_varint(&r, &v)) return -1;
      if (f == 5) {
        a->has_minimum = v != 0;
      } else {
        a->minimum = (int64_t)v;
      }
    } else if (!tfe_pbr_skip(&r, f, w)) {
      return -1;
    }
  }
  if (a->name == NULL && (a->name = dup_bytes("", 0)) == NULL) return 0;
  if (a->type_str == NULL && (a->type_str = dup_bytes("", 0)) == NULL) {
    return 0;
  }
  return 1;
}

static const tfe_attr_def* sig_attr(const tfe_op_def* d, const char* name) {
  int i;
  for (i = 0; i < d->num_attrs; i++) {
    if (strcmp(d->attrs[i].name, name) == 0) return &d->attrs[i];
  }
  return NULL;
}

static int check_arg(const tfe_op_def* d, const tfe_arg_def* a,
                     TF_Status* s) {
  const tfe_attr_def* at;
  if (a->type_attr != NULL) {
    at = sig_attr(d, a->type_attr);
    if (at == NULL || at->type != TF_ATTR_TYPE || at->is_list) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Attr '%s' for arg '%s' of function '%s' is not a "
                      "type attr of the signature",
                      a->type_attr, a->name, d->name);
      return 0;
    }
  } else if (a->type_list_attr != NULL) {
    at = sig_attr(d, a->type_list_attr);
    if (at == NULL || at->type != TF_ATTR_TYPE || !at->is_list) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Attr '%s' for arg '%s' of function '%s' is not a "
                      "list(type) attr of the signature",
                      a->type_list_attr, a->name, d->name);
      return 0;
    }
  } else if (a->type == 0) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Missing type for arg '%s' of function '%s'", a->name,
                    d->name);
    return 0;
  }
  if (a->number_attr != NULL) {
    at = sig_attr(d, a->number_attr);
    if (at == NULL || at->type != TF_ATTR_INT || at->is_list) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Attr '%s' used as length for arg '%s' of function "
                      "'%s' is not an int attr of the signature",
                      a->number_attr, a->name, d->name);
      return 0;
    }
  }
  return 1;
}

static int push_arg(tfe_arg_def** arr, int* n) {
  tfe_arg_def* g =
      (tfe_arg_def*)tfe_realloc(*arr, sizeof(**arr) * (size_t)(*n + 1));
  if (g == NULL) return 0;
  *arr = g;
  memset(&g[*n], 0, sizeof(g[*n]));
  (*n)++;
  return 1;
}

tfe_op_def* tfe_fdef_signature(const tfe_fdef* fd, TF_Status* s) {
  tfe_op_def* d = tfe_op_def_new(fd->name);
  tfe_pbr r;
  int f, w, rc = 1, i;
  uint64_t v;
  if (d == NULL) goto oom;
  r.p = fd->sig_rest;
  r.end = fd->sig_rest == NULL ? r.p : r.p + fd->sig_rest_len;
  while (r.p < r.end && rc == 1) {
    tfe_pbr sub;
    if (!tfe_pbr_tag(&r, &f, &w)) {
      rc = -1;
      break;
    }
    if (w == 2 && (f == 2 || f == 3)) {
      if (!tfe_pbr_len(&r, &sub)) {
        rc = -1;
        break;
      }
      if (f == 2) {
        if (!push_arg(&d->inputs, &d->num_inputs)) goto oom;
        rc = parse_arg(sub, &d->inputs[d->num_inputs - 1]);
      } else {
        if (!push_arg(&d->outputs, &d->num_outputs)) goto oom;
        rc = parse_arg(sub, &d->outputs[d->num_outputs - 1]);
      }
    } else if (w == 2 && f == 4) {
      tfe_attr_def* g;
      if (!tfe_pbr_len(&r, &sub)) {
        rc = -1;
        break;
      }
      g = (tfe_attr_def*)tfe_realloc(d->attrs,
                                     sizeof(*g) * (size_t)(d->num_attrs + 1));
      if (g == NULL) goto oom;
      d->attrs = g;
      memset(&g[d->num_attrs], 0, sizeof(*g));
      d->num_attrs++;
      rc = parse_attr_def(sub, &g[d->num_attrs - 1], s);
    } else if (w == 0 && f >= 16 && f <= 19) {
      if (!tfe_pbr_varint(&r, &v)) {
        rc = -1;
        break;
      }
      if (f == 16) d->is_aggregate = v != 0;
      if (f == 17) d->is_stateful = v != 0;
      if (f == 18) d->is_commutative = v != 0;
      if (f == 19) d->allows_uninitialized_input = v != 0;
    } else if (!tfe_pbr_skip(&r, f, w)) {
      rc = -1;
    }
  }
  if (rc == 0) goto oom;
  if (rc == -1) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Invalid signature (OpDef) in FunctionDef '%s'", fd->name);
    tfe_op_def_free(d);
    return NULL;
  }
  for (i = 0; i < d->num_attrs; i++) {
    tfe_attr_def* a = &d->attrs[i];
    if (!kind_of(a->type_str, strlen(a->type_str), &a->type, &a->is_list)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Attr '%s' of function '%s' has an unknown type '%s'",
                      a->name, d->name, a->type_str);
      tfe_op_def_free(d);
      return NULL;
    }
  }
  for (i = 0; i < d->num_inputs + d->num_outputs; i++) {
    const tfe_arg_def* a = i < d->num_inputs ? &d->inputs[i]
                                             : &d->outputs[i - d->num_inputs];
    if (!check_arg(d, a, s)) {
      tfe_op_def_free(d);
      return NULL;
    }
    if (a->type == TF_RESOURCE) d->is_stateful = 1;
  }
  tfe_status_ok(s);
  return d;
oom:
  tfe_op_def_free(d);
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "out of memory reading the signature of function '%s'",
                  fd->name);
  return NULL;
}

void tfe_fdef_signature_free(tfe_op_def* def) { tfe_op_def_free(def); }

/* ------------------------------------------------------------------------
 * TF_Function objects. */

int tfe_function_valid(const TF_Function* fn) {
  return fn != NULL && fn->magic == TFE_FUNCTION_MAGIC;
}

TF_Function* tfe_function_from_fdef(tfe_fdef* fd, TF_Status* s) {
  TF_Function* fn = (TF_Function*)tfe_calloc(1, sizeof(*fn));
  if (fn == NULL) {
    tfe_fdef_clear(fd);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  fn->sig = tfe_fdef_signature(fd, s);
  if (fn->sig == NULL) {
    tfe_fdef_clear(fd);
    tfe_free(fn);
    return NULL;
  }
  fn->fd = *fd;
  memset(fd, 0, sizeof(*fd));
  fn->magic = TFE_FUNCTION_MAGIC;
  return fn;
}

TF_Function* tfe_function_copy(const TF_Function* fn, TF_Status* s) {
  tfe_pbw w = {0};
  tfe_fdef fd;
  TF_Function* out;
  tfe_fdef_encode(&fn->fd, &w);
  if (w.oom) {
    tfe_pbw_free(&w);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "out of memory copying a "
                    "function");
    return NULL;
  }
  if (!tfe_fdef_parse(w.data, w.len, &fd, "a function copy", s)) {
    tfe_pbw_free(&w);
    return NULL;
  }
  tfe_pbw_free(&w);
  out = tfe_function_from_fdef(&fd, s);
  return out;
}
