/* CPU kernels: tf.Example parsing (ParseExampleV2, ParseExample,
 * ParseSingleExample) with TensorFlow 2.21's outputs, checks and messages.
 *
 * Wire format read here (tensorflow/core/example/{example,feature}.proto):
 *   Example  { Features features = 1; }
 *   Features { map<string, Feature> feature = 1; }  -- entries: key 1, value 2
 *   Feature  { oneof { BytesList bytes_list = 1; FloatList float_list = 2;
 *                      Int64List int64_list = 3; } }
 *   *List    { repeated value = 1; }  -- floats/int64s packed or not.
 * A key that appears twice (concatenated Examples) keeps its last value, a
 * Feature with no list set matches every dtype with zero values, and any
 * malformed bytes give "Could not parse example input". Every read is
 * bounds-checked (tfe_pbr); nothing here trusts a length from the data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/checked.h"
#include "core/pb.h"
#include "kernels/cpu/kutil.h"
#include "ops/attr_value.h"

void tfe_register_cpu_parse_example_kernels(void);

#define PE_MAX_DIMS 32

/* Feature kinds: the Feature oneof field numbers (0: none set). */
enum { PE_NONE = 0, PE_BYTES = 1, PE_FLOAT = 2, PE_INT64 = 3 };

typedef struct pe_key {
  const char* s;
  size_t n;
} pe_key;

/* One requested feature of an example: the list message (if any). */
typedef struct pe_feat {
  int present;
  int kind;
  tfe_pbr list;
  int64_t count;
} pe_feat;

typedef struct pe_cfg {
  int ns, nd, nr;
  pe_key* keys; /* ns sparse, then nd dense, then nr ragged */
  const TF_DataType* sparse_types;
  const TF_DataType* dense_types;
  const TF_DataType* ragged_types;
  const TF_DataType* split_types;
  const tfe_shape* dense_shapes;
  TF_Tensor* const* defaults;
  const TF_TString* serialized;
  int64_t batch;
  int scalar; /* serialized is a scalar: no batch dimension in outputs */
  int single; /* ParseSingleExample: messages name neither example nor index */
  const TF_TString* names;
  int64_t num_names;
} pe_cfg;

static int pe_kind_of(TF_DataType dt) {
  return dt == TF_STRING ? PE_BYTES : dt == TF_FLOAT ? PE_FLOAT : PE_INT64;
}
static const char* pe_kind_name(int kind) {
  return kind == PE_BYTES ? "string" : kind == PE_FLOAT ? "float" : "int64";
}

static void pe_name(const pe_cfg* c, int64_t e, const char** s, int* n) {
  if (c->num_names > 0 && e < c->num_names) {
    *s = TF_TString_GetDataPointer(&c->names[e]);
    *n = (int)TF_TString_GetSize(&c->names[e]);
  } else {
    *s = "<unknown>";
    *n = 9;
  }
}

/* The start of a per-feature message: "Name: n, Key: k, Index: i." (one
 * example alone: "Key: k."). */
static const char* pe_prefix(const pe_cfg* c, int64_t e, const pe_key* key,
                             char* buf, size_t cap) {
  const char* nm;
  int nml;
  if (c->single) {
    snprintf(buf, cap, "Key: %.*s.", (int)key->n, key->s);
  } else {
    pe_name(c, e, &nm, &nml);
    snprintf(buf, cap, "Name: %.*s, Key: %.*s, Index: %lld.", nml, nm, (int)key->n, key->s,
             (long long)e);
  }
  return buf;
}

/* Counts the values of a list of the given kind; 0 when malformed. As
 * TF's fast parser: a float/int64 list is either one packed block or only
 * unpacked values, and a list holds nothing but its value field. */
static int pe_count(const tfe_pbr* list, int kind, int64_t* count) {
  tfe_pbr r = *list, sub;
  int f, w;
  uint64_t v;
  int64_t n = 0;
  int want_wire = kind == PE_BYTES ? 2 : kind == PE_FLOAT ? 5 : 0;
  if (kind != PE_BYTES && r.p < r.end && *r.p == 0x0a) {
    if (!tfe_pbr_tag(&r, &f, &w) || !tfe_pbr_len(&r, &sub) || r.p != r.end) return 0;
    if (kind == PE_FLOAT) {
      if ((sub.end - sub.p) % 4 != 0) return 0;
      n = (sub.end - sub.p) / 4;
    } else {
      while (sub.p < sub.end) {
        if (!tfe_pbr_varint(&sub, &v)) return 0;
        n++;
      }
    }
    *count = n;
    return 1;
  }
  while (r.p < r.end) {
    if (!tfe_pbr_tag(&r, &f, &w) || f != 1 || w != want_wire) return 0;
    if (kind == PE_BYTES) {
      if (!tfe_pbr_len(&r, &sub)) return 0;
    } else if (kind == PE_FLOAT) {
      if (r.end - r.p < 4) return 0;
      r.p += 4;
    } else if (!tfe_pbr_varint(&r, &v)) {
      return 0;
    }
    n++;
  }
  *count = n;
  return 1;
}

/* Writes the (already validated) values of a list at dst[0..]. */
static void pe_fill(const tfe_pbr* list, int kind, void* dst) {
  tfe_pbr r = *list, sub;
  int f, w;
  uint64_t v;
  float x;
  int64_t i = 0;
  while (r.p < r.end) {
    if (!tfe_pbr_tag(&r, &f, &w)) return;
    if (f != 1) {
      if (!tfe_pbr_skip(&r, f, w)) return;
      continue;
    }
    if (kind == PE_BYTES) {
      if (!tfe_pbr_len(&r, &sub)) return;
      TF_TString_Copy(&((TF_TString*)dst)[i++], (const char*)sub.p,
                      (size_t)(sub.end - sub.p));
    } else if (kind == PE_FLOAT) {
      if (w == 5) {
        if (!tfe_pbr_fixed32(&r, &x)) return;
        ((float*)dst)[i++] = x;
      } else {
        if (!tfe_pbr_len(&r, &sub)) return;
        while (sub.p < sub.end && tfe_pbr_fixed32(&sub, &x)) {
          ((float*)dst)[i++] = x;
        }
      }
    } else {
      if (w == 0) {
        if (!tfe_pbr_varint(&r, &v)) return;
        ((int64_t*)dst)[i++] = (int64_t)v;
      } else {
        if (!tfe_pbr_len(&r, &sub)) return;
        while (sub.p < sub.end && tfe_pbr_varint(&sub, &v)) {
          ((int64_t*)dst)[i++] = (int64_t)v;
        }
      }
    }
  }
}

/* Reads a Feature message: its kind and list. 0 when malformed. */
static int pe_read_feature(tfe_pbr fr, pe_feat* out) {
  int f, w;
  tfe_pbr sub;
  out->present = 1;
  out->kind = PE_NONE;
  out->list.p = out->list.end = NULL;
  while (fr.p < fr.end) {
    if (!tfe_pbr_tag(&fr, &f, &w)) return 0;
    if (f >= 1 && f <= 3) {
      if (w != 2 || !tfe_pbr_len(&fr, &sub)) return 0;
      out->kind = f;
      out->list = sub;
    } else if (!tfe_pbr_skip(&fr, f, w)) {
      return 0;
    }
  }
  return 1;
}

/* Finds the requested features of one serialized Example (feats has
 * nkeys entries). 0 when the bytes are not an Example. */
static int pe_parse_example(const unsigned char* data, size_t len,
                            const pe_key* keys, int nkeys, pe_feat* feats) {
  tfe_pbr r, fs, ent, key, val;
  int f, w, i;
  r.p = data;
  r.end = data + len;
  for (i = 0; i < nkeys; i++) memset(&feats[i], 0, sizeof feats[i]);
  while (r.p < r.end) {
    if (!tfe_pbr_tag(&r, &f, &w)) return 0;
    if (f != 1) {
      if (!tfe_pbr_skip(&r, f, w)) return 0;
      continue;
    }
    if (w != 2 || !tfe_pbr_len(&r, &fs)) return 0;
    while (fs.p < fs.end) {
      int has_val = 0;
      if (!tfe_pbr_tag(&fs, &f, &w)) return 0;
      if (f != 1) {
        if (!tfe_pbr_skip(&fs, f, w)) return 0;
        continue;
      }
      if (w != 2 || !tfe_pbr_len(&fs, &ent)) return 0;
      key.p = key.end = ent.p;
      val.p = val.end = ent.p;
      while (ent.p < ent.end) {
        if (!tfe_pbr_tag(&ent, &f, &w)) return 0;
        if (f == 1) {
          if (w != 2 || !tfe_pbr_len(&ent, &key)) return 0;
        } else if (f == 2) {
          if (w != 2 || !tfe_pbr_len(&ent, &val)) return 0;
          has_val = 1;
        } else if (!tfe_pbr_skip(&ent, f, w)) {
          return 0;
        }
      }
      for (i = 0; i < nkeys; i++) {
        if ((size_t)(key.end - key.p) == keys[i].n &&
            (keys[i].n == 0 || memcmp(key.p, keys[i].s, keys[i].n) == 0)) {
          if (has_val) {
            if (!pe_read_feature(val, &feats[i])) return 0;
          } else {
            feats[i].present = 1;
            feats[i].kind = PE_NONE;
            feats[i].list.p = feats[i].list.end = NULL;
          }
        }
      }
    }
  }
  return 1;
}

/* "[?,2]": a dense shape with its unknown dims as '?'. */
static void pe_shape_str(const tfe_shape* s, char* buf, size_t cap) {
  size_t len = 0;
  int i;
  len += (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < s->num_dims && len < cap; i++) {
    if (s->dims[i] < 0) {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",?" : "?");
    } else {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                              (long long)s->dims[i]);
    }
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

static size_t pe_esize(TF_DataType dt) {
  return dt == TF_STRING ? sizeof(TF_TString) : dt == TF_FLOAT ? 4 : 8;
}

/* Copies n elements of dtype dt from src (element si) to dst (element di). */
static void pe_copy(TF_DataType dt, void* dst, int64_t di, const void* src,
                    int64_t si, int64_t n) {
  int64_t i;
  if (dt == TF_STRING) {
    for (i = 0; i < n; i++) {
      const TF_TString* s = &((const TF_TString*)src)[si + i];
      TF_TString_Copy(&((TF_TString*)dst)[di + i], TF_TString_GetDataPointer(s),
                      TF_TString_GetSize(s));
    }
  } else {
    size_t es = pe_esize(dt);
    memcpy((char*)dst + (size_t)di * es, (const char*)src + (size_t)si * es,
           (size_t)n * es);
  }
}

/* Checks the attrs against the defaults (TF does it at kernel creation). */
static int pe_check_dense(tfe_kernel_context* k, const pe_cfg* c) {
  int d, i;
  char sb[256], db[256];
  for (d = 0; d < c->nd; d++) {
    const tfe_shape* s = &c->dense_shapes[d];
    const TF_Tensor* def = c->defaults[d];
    int64_t n = kutil_num_elements(def);
    if (s->num_dims < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "dense_shapes[%d] has unknown rank", d);
      return 0;
    }
    for (i = 1; i < s->num_dims; i++) {
      if (s->dims[i] < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "dense_shapes[%d] has unknown inner dimensions", d);
        return 0;
      }
    }
    if (TF_TensorType(def) != c->dense_types[d]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "dense_defaults[%d] has the wrong dtype", d);
      return 0;
    }
    pe_shape_str(s, sb, sizeof sb);
    if (s->num_dims > 0 && s->dims[0] < 0) {
      if (n != 1) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "dense_shape[%d] is a variable length shape: %s, therefore "
                   "def_value[%d] must contain a single element (the padding "
                   "element).  But its shape is: %s",
                   d, sb, d, kutil_shape_str(def->dims, def->num_dims, db, sizeof db));
        return 0;
      }
    } else if (n > 0) {
      int same = def->num_dims == s->num_dims;
      for (i = 0; same && i < s->num_dims; i++) same = def->dims[i] == s->dims[i];
      if (!same) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "def_value[%d].shape() == %s is not compatible with "
                   "dense_shapes_[%d] == %s",
                   d, kutil_shape_str(def->dims, def->num_dims, db, sizeof db), d, sb);
        return 0;
      }
    }
  }
  return 1;
}

/* Parses the batch and writes every output. Outputs are laid out as
 * sparse indices[ns], values[ns], shapes[ns], dense[nd], ragged
 * values[nr], ragged splits[nr]. */
static void pe_run(tfe_kernel_context* k, pe_cfg* c) {
  int nk = c->ns + c->nd + c->nr, i, j;
  int64_t e, B = c->batch;
  pe_feat* feats = NULL;
  int64_t* stride = NULL;
  int64_t* rows = NULL; /* per dense key: max rows (varlen) */
  int64_t* totals = NULL; /* per sparse/ragged key: total values */
  int64_t* maxlen = NULL;
  size_t nf;
  if (!pe_check_dense(k, c)) return;
  nf = (size_t)(B > 0 ? B : 1) * (size_t)(nk > 0 ? nk : 1);
  if (B > ((int64_t)1 << 40) / (nk > 0 ? nk : 1)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "batch too large");
    return;
  }
  feats = (pe_feat*)tfe_calloc(nf, sizeof *feats);
  stride = (int64_t*)tfe_calloc((size_t)nk + 1, sizeof *stride);
  rows = (int64_t*)tfe_calloc((size_t)nk + 1, sizeof *rows);
  totals = (int64_t*)tfe_calloc((size_t)nk + 1, sizeof *totals);
  maxlen = (int64_t*)tfe_calloc((size_t)nk + 1, sizeof *maxlen);
  if (feats == NULL || stride == NULL || rows == NULL || totals == NULL || maxlen == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", k->op_def ? k->op_def->name : "ParseExample");
    goto done;
  }
  for (i = 0; i < c->nd; i++) {
    const tfe_shape* s = &c->dense_shapes[i];
    int64_t st = 1;
    for (j = (s->num_dims > 0 && s->dims[0] < 0) ? 1 : 0; j < s->num_dims; j++) {
      if (!tfe_checked_mul_i64(st, s->dims[j], &st)) st = -1;
    }
    stride[i] = st;
  }
  /* Pass 1: parse, check, size. */
  for (e = 0; e < B; e++) {
    const TF_TString* ts = &c->serialized[e];
    const unsigned char* p = (const unsigned char*)TF_TString_GetDataPointer(ts);
    size_t len = TF_TString_GetSize(ts);
    pe_feat* fe = &feats[e * nk];
    const char* nm;
    int nml;
    if (!pe_parse_example(p, len, c->keys, nk, fe)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Could not parse example input, value: '%.*s'",
                 (int)(len > 4096 ? 4096 : len), (const char*)p);
      goto done;
    }
    pe_name(c, e, &nm, &nml);
    for (i = 0; i < nk; i++) {
      const pe_feat* f = &fe[i];
      TF_DataType want;
      int is_dense = i >= c->ns && i < c->ns + c->nd;
      int di = i - c->ns;
      const pe_key* key = &c->keys[i];
      char pb[512];
      want = i < c->ns ? c->sparse_types[i]
             : is_dense ? c->dense_types[di] : c->ragged_types[i - c->ns - c->nd];
      if (!f->present) {
        if (is_dense && kutil_num_elements(c->defaults[di]) == 0 &&
            !(c->dense_shapes[di].num_dims > 0 && c->dense_shapes[di].dims[0] < 0)) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "%s%.*s%sFeature: %.*s (data type: %s) is required but "
                     "could not be found.",
                     c->single ? "" : "Name: ", c->single ? 0 : nml, nm, c->single ? "" : ", ",
                     (int)key->n, key->s, pe_kind_name(pe_kind_of(want)));
          goto done;
        }
        continue;
      }
      if (f->kind != PE_NONE && f->kind != pe_kind_of(want)) {
        if (is_dense) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "%s  Data types don't match. Data type: %s but expected type: %s",
                     pe_prefix(c, e, key, pb, sizeof pb),
                     pe_kind_name(f->kind), pe_kind_name(pe_kind_of(want)));
        } else {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "%s  Data types don't match. Expected type: %s, Actual type: %s",
                     pe_prefix(c, e, key, pb, sizeof pb),
                     pe_kind_name(pe_kind_of(want)), pe_kind_name(f->kind));
        }
        goto done;
      }
      if (f->kind != PE_NONE && !pe_count(&f->list, f->kind, &fe[i].count)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "%s  Can't parse serialized Example.", pe_prefix(c, e, key, pb, sizeof pb));
        goto done;
      }
      if (is_dense) {
        const tfe_shape* s = &c->dense_shapes[di];
        char sb[256];
        pe_shape_str(s, sb, sizeof sb);
        if (s->num_dims > 0 && s->dims[0] < 0) {
          if (stride[di] <= 0 ? f->count != 0 : f->count % stride[di] != 0) {
            KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                       "%s  Number of %s values is not a multiple of stride length. "
                       "Saw %lld values but output shape is: %s",
                       pe_prefix(c, e, key, pb, sizeof pb),
                       pe_kind_name(pe_kind_of(want)), (long long)f->count, sb);
            goto done;
          }
          if (stride[di] > 0 && f->count / stride[di] > rows[i]) rows[i] = f->count / stride[di];
        } else if (f->count != stride[di]) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "%s  Number of %s values != expected.  Values size: %lld but "
                     "output shape: %s",
                     pe_prefix(c, e, key, pb, sizeof pb),
                     pe_kind_name(pe_kind_of(want)), (long long)f->count, sb);
          goto done;
        }
      } else {
        totals[i] += f->count;
        if (f->count > maxlen[i]) maxlen[i] = f->count;
      }
    }
  }
  /* Pass 2: outputs. */
  for (i = 0; i < c->ns; i++) {
    int64_t idims[2], vd[1], sd[2];
    TF_Tensor *ti, *tv, *tsh;
    int64_t pos = 0, *ip, *sp;
    int rank = c->scalar ? 1 : 2;
    idims[0] = totals[i];
    idims[1] = rank;
    vd[0] = totals[i];
    sd[0] = rank;
    ti = tfe_kernel_alloc_output(k, i, TF_INT64, idims, 2);
    if (ti == NULL) goto done;
    tv = tfe_kernel_alloc_output(k, c->ns + i, c->sparse_types[i], vd, 1);
    if (tv == NULL) goto done;
    tsh = tfe_kernel_alloc_output(k, 2 * c->ns + i, TF_INT64, sd, 1);
    if (tsh == NULL) goto done;
    ip = (int64_t*)kutil_data(ti);
    sp = (int64_t*)kutil_data(tsh);
    if (c->scalar) {
      sp[0] = maxlen[i];
    } else {
      sp[0] = B;
      sp[1] = maxlen[i];
    }
    for (e = 0; e < B; e++) {
      const pe_feat* f = &feats[e * nk + i];
      int64_t q;
      if (!f->present || f->count == 0) continue;
      pe_fill(&f->list, f->kind, (char*)kutil_data(tv) + (size_t)pos * pe_esize(c->sparse_types[i]));
      for (q = 0; q < f->count; q++) {
        if (c->scalar) {
          ip[pos + q] = q;
        } else {
          ip[2 * (pos + q)] = e;
          ip[2 * (pos + q) + 1] = q;
        }
      }
      pos += f->count;
    }
  }
  for (i = 0; i < c->nd; i++) {
    const tfe_shape* s = &c->dense_shapes[i];
    int ki = c->ns + i, nd = 0, varlen = s->num_dims > 0 && s->dims[0] < 0;
    int64_t dims[PE_MAX_DIMS], per, bytes;
    TF_Tensor* t;
    TF_DataType dt = c->dense_types[i];
    const TF_Tensor* def = c->defaults[i];
    char* out;
    if (s->num_dims + 1 > PE_MAX_DIMS) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "dense_shapes[%d] has too many dimensions", i);
      goto done;
    }
    if (!c->scalar) dims[nd++] = B;
    for (j = 0; j < s->num_dims; j++) dims[nd++] = (j == 0 && varlen) ? rows[ki] : s->dims[j];
    per = varlen ? rows[ki] * stride[i] : stride[i];
    if (per < 0 || !tfe_checked_mul_i64(per, B, &bytes) ||
        !tfe_checked_mul_i64(bytes, (int64_t)pe_esize(dt), &bytes) || bytes > ((int64_t)1 << 34)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "dense output %d is too large", i);
      goto done;
    }
    t = tfe_kernel_alloc_output(k, 3 * c->ns + i, dt, dims, nd);
    if (t == NULL) goto done;
    out = (char*)kutil_data(t);
    for (e = 0; e < B; e++) {
      const pe_feat* f = &feats[e * nk + ki];
      int64_t base = e * per, q;
      if (f->present && f->kind != PE_NONE && f->count > 0) {
        pe_fill(&f->list, f->kind, out + (size_t)base * pe_esize(dt));
        if (varlen) {
          for (q = f->count; q < per; q++) pe_copy(dt, out, base + q, kutil_data(def), 0, 1);
        }
      } else if (varlen) {
        for (q = 0; q < per; q++) pe_copy(dt, out, base + q, kutil_data(def), 0, 1);
      } else if (!f->present) {
        pe_copy(dt, out, base, kutil_data(def), 0, per);
      }
    }
  }
  for (i = 0; i < c->nr; i++) {
    int ki = c->ns + c->nd + i;
    int64_t vd[1], sd[1], pos = 0;
    TF_Tensor *tv, *tsp;
    TF_DataType st = c->split_types[i];
    vd[0] = totals[ki];
    sd[0] = c->scalar ? 0 : B + 1;
    tv = tfe_kernel_alloc_output(k, 3 * c->ns + c->nd + i, c->ragged_types[i], vd, 1);
    if (tv == NULL) goto done;
    tsp = tfe_kernel_alloc_output(k, 3 * c->ns + c->nd + c->nr + i, st, sd, 1);
    if (tsp == NULL) goto done;
    if (!c->scalar) {
      if (st == TF_INT32) ((int32_t*)kutil_data(tsp))[0] = 0;
      else ((int64_t*)kutil_data(tsp))[0] = 0;
    }
    for (e = 0; e < B; e++) {
      const pe_feat* f = &feats[e * nk + ki];
      if (f->present && f->count > 0) {
        pe_fill(&f->list, f->kind, (char*)kutil_data(tv) + (size_t)pos * pe_esize(c->ragged_types[i]));
        pos += f->count;
      }
      if (!c->scalar) {
        if (st == TF_INT32) ((int32_t*)kutil_data(tsp))[e + 1] = (int32_t)pos;
        else ((int64_t*)kutil_data(tsp))[e + 1] = pos;
      }
    }
  }
done:
  tfe_free(feats);
  tfe_free(stride);
  tfe_free(rows);
  tfe_free(totals);
  tfe_free(maxlen);
}

/* ====================================================== op front ends */

static const TF_TString* pe_str(const TF_Tensor* t) {
  return (const TF_TString*)kutil_data(t);
}

static int pe_list_types(tfe_kernel_context* k, const char* name,
                         const TF_DataType** out, int* n) {
  *out = NULL;
  *n = 0;
  if (k->attrs == NULL) return 1;
  if (tfe_attrs_find(k->attrs, name) == NULL) return 1;
  return tfe_attrs_get_type_list(k->attrs, name, out, n, k->status);
}

/* dense_shapes (a list of shapes): the array and its length. */
static void pe_shapes(tfe_kernel_context* k, const tfe_shape** shapes, int* n) {
  const tfe_attr_value* v = k->attrs ? tfe_attrs_find(k->attrs, "dense_shapes") : NULL;
  *shapes = NULL;
  *n = 0;
  if (v != NULL && v->is_list) {
    *shapes = v->list.shape;
    *n = v->list_size;
  }
}

/* Keys from a string vector input into keys[off..off+n). */
static int pe_keys_from_vector(tfe_kernel_context* k, const TF_Tensor* t,
                               const char* what, int64_t want, pe_key* keys) {
  int64_t i, n = kutil_num_elements(t);
  if (t->num_dims > 1 || n != want) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected len(%s) == %lld, got shape: %s", what, (long long)want,
               kutil_tshape(t, &b));
    return 0;
  }
  for (i = 0; i < n; i++) {
    keys[i].s = TF_TString_GetDataPointer(&pe_str(t)[i]);
    keys[i].n = TF_TString_GetSize(&pe_str(t)[i]);
  }
  return 1;
}

/* Common setup of the batch (serialized, names) and the dense attrs. */
static int pe_setup(tfe_kernel_context* k, pe_cfg* c, const TF_Tensor* ser,
                    const TF_Tensor* names, int max_rank) {
  kutil_shape_buf b;
  if (ser->num_dims > max_rank) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               max_rank == 0 ? "Expected serialized to be a scalar, got shape: %s"
               : "Expected serialized to be a scalar or vector, got shape: %s",
               kutil_tshape(ser, &b));
    return 0;
  }
  c->serialized = pe_str(ser);
  c->batch = kutil_num_elements(ser);
  c->scalar = ser->num_dims == 0;
  c->names = NULL;
  c->num_names = 0;
  if (names != NULL && kutil_num_elements(names) > 0) {
    int same = names->num_dims == ser->num_dims &&
               kutil_num_elements(names) == c->batch;
    if (!same) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected names to be either empty or the same shape as "
                 "serialized, got shape: %s", kutil_tshape(names, &b));
      return 0;
    }
    c->names = pe_str(names);
    c->num_names = c->batch;
  }
  return 1;
}

static int pe_check_counts(tfe_kernel_context* k, pe_cfg* c, int nshapes) {
  if (nshapes != c->nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "len(dense_keys) != len(dense_shapes): %d vs. %d", c->nd, nshapes);
    return 0;
  }
  return 1;
}

static void parse_example_v2_compute(tfe_kernel_context* k) {
  pe_cfg c;
  int nshapes, nsplit, ntd;
  int64_t ns = kutil_attr_int64(k, "num_sparse", 0);
  memset(&c, 0, sizeof c);
  if (!pe_list_types(k, "sparse_types", &c.sparse_types, &c.ns) ||
      !pe_list_types(k, "Tdense", &c.dense_types, &ntd) ||
      !pe_list_types(k, "ragged_value_types", &c.ragged_types, &c.nr) ||
      !pe_list_types(k, "ragged_split_types", &c.split_types, &nsplit)) {
    return;
  }
  pe_shapes(k, &c.dense_shapes, &nshapes);
  c.nd = ntd;
  if (ns != c.ns || nsplit != c.nr || k->num_inputs != 5 + c.nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_sparse (%lld), len(sparse_types) (%d), len(ragged_value_types) "
               "(%d) and len(ragged_split_types) (%d) do not agree",
               (long long)ns, c.ns, c.nr, nsplit);
    return;
  }
  if (!pe_check_counts(k, &c, nshapes)) return;
  if (!pe_setup(k, &c, k->inputs[0], k->inputs[1], 1)) return;
  c.keys = (pe_key*)tfe_calloc((size_t)(c.ns + c.nd + c.nr) + 1, sizeof *c.keys);
  if (c.keys == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ParseExampleV2");
    return;
  }
  if (pe_keys_from_vector(k, k->inputs[2], "sparse_keys", c.ns, c.keys) &&
      pe_keys_from_vector(k, k->inputs[3], "dense_keys", c.nd, c.keys + c.ns) &&
      pe_keys_from_vector(k, k->inputs[4], "ragged_keys", c.nr, c.keys + c.ns + c.nd)) {
    c.defaults = k->inputs + 5;
    pe_run(k, &c);
  }
  tfe_free(c.keys);
}

/* ParseExample: keys are scalar string inputs, serialized a vector. */
static void parse_example_compute(tfe_kernel_context* k) {
  pe_cfg c;
  int nshapes, i;
  int64_t ns = kutil_attr_int64(k, "Nsparse", 0), nd = kutil_attr_int64(k, "Ndense", 0);
  memset(&c, 0, sizeof c);
  if (!pe_list_types(k, "sparse_types", &c.sparse_types, &c.ns) ||
      !pe_list_types(k, "Tdense", &c.dense_types, &c.nd)) {
    return;
  }
  pe_shapes(k, &c.dense_shapes, &nshapes);
  if (ns != c.ns || nd != c.nd || k->num_inputs != 2 + 2 * c.nd + c.ns) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Nsparse, Ndense and the key/type lists do not agree");
    return;
  }
  if (!pe_check_counts(k, &c, nshapes)) return;
  if (k->inputs[0]->num_dims != 1) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected serialized to be a vector, got shape: %s",
               kutil_tshape(k->inputs[0], &b));
    return;
  }
  if (!pe_setup(k, &c, k->inputs[0], k->inputs[1], 1)) return;
  c.keys = (pe_key*)tfe_calloc((size_t)(c.ns + c.nd) + 1, sizeof *c.keys);
  if (c.keys == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ParseExample");
    return;
  }
  for (i = 0; i < c.ns + c.nd; i++) {
    const TF_Tensor* t = k->inputs[2 + i];
    if (t->num_dims != 0) {
      kutil_shape_buf b;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected %s_keys[%d] to be a scalar, got shape: %s",
                 i < c.ns ? "sparse" : "dense", i < c.ns ? i : i - c.ns, kutil_tshape(t, &b));
      tfe_free(c.keys);
      return;
    }
    c.keys[i].s = TF_TString_GetDataPointer(&pe_str(t)[0]);
    c.keys[i].n = TF_TString_GetSize(&pe_str(t)[0]);
  }
  c.defaults = k->inputs + 2 + c.ns + c.nd;
  pe_run(k, &c);
  tfe_free(c.keys);
}

/* ParseSingleExample: keys are attrs, serialized a scalar. */
static void parse_single_example_compute(tfe_kernel_context* k) {
  pe_cfg c;
  int nshapes, i;
  int64_t ns = kutil_attr_int64(k, "num_sparse", 0);
  const tfe_attr_value* sk = k->attrs ? tfe_attrs_find(k->attrs, "sparse_keys") : NULL;
  const tfe_attr_value* dk = k->attrs ? tfe_attrs_find(k->attrs, "dense_keys") : NULL;
  int nsk = sk && sk->is_list ? sk->list_size : 0, ndk = dk && dk->is_list ? dk->list_size : 0;
  memset(&c, 0, sizeof c);
  if (!pe_list_types(k, "sparse_types", &c.sparse_types, &c.ns) ||
      !pe_list_types(k, "Tdense", &c.dense_types, &c.nd)) {
    return;
  }
  pe_shapes(k, &c.dense_shapes, &nshapes);
  if (ns != c.ns || nsk != c.ns || ndk != c.nd || k->num_inputs != 1 + c.nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_sparse, sparse_keys, dense_keys and the type lists do not agree");
    return;
  }
  if (!pe_check_counts(k, &c, nshapes)) return;
  if (!pe_setup(k, &c, k->inputs[0], NULL, 0)) return;
  c.single = 1;
  c.keys = (pe_key*)tfe_calloc((size_t)(c.ns + c.nd) + 1, sizeof *c.keys);
  if (c.keys == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ParseSingleExample");
    return;
  }
  for (i = 0; i < c.ns; i++) {
    c.keys[i].s = sk->list.s.data[i];
    c.keys[i].n = sk->list.s.len[i];
  }
  for (i = 0; i < c.nd; i++) {
    c.keys[c.ns + i].s = dk->list.s.data[i];
    c.keys[c.ns + i].n = dk->list.s.len[i];
  }
  c.defaults = k->inputs + 1;
  pe_run(k, &c);
  tfe_free(c.keys);
}

void tfe_register_cpu_parse_example_kernels(void) {
  tfe_kutil_register("ParseExampleV2", parse_example_v2_compute, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("ParseExample", parse_example_compute, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("ParseSingleExample", parse_single_example_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
}
