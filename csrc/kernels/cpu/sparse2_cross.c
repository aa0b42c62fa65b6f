/* CPU kernels of the sparse2 group: feature crosses (SparseCross,
 * SparseCrossHashed, SparseCrossV2). Each batch row crosses every feature
 * of every input column (sparse columns first, then dense ones), in
 * odometer order (the last column varies fastest). Hashed crosses combine
 * per-feature fingerprints with TF's FingerprintCat64; string crosses join
 * the features with a separator. Hash values match TF 2.21 bit for bit
 * (FarmHash Fingerprint64 and SipHash-2-4 from text_hash.c). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernels/cpu/sparse2_common.h"
#include "kernels/cpu/text_hash.h"

static uint64_t shift_mix(uint64_t v) { return v ^ (v >> 47); }

/* TF's FingerprintCat64 (tensorflow/core/platform/fingerprint.h). */
static uint64_t fp_cat64(uint64_t fp1, uint64_t fp2) {
  const uint64_t mul = 0xc6a4a7935bd1e995ULL;
  uint64_t r = fp1 ^ mul;
  r ^= shift_mix(fp2 * mul) * mul;
  r *= mul;
  r = shift_mix(r) * mul;
  r = shift_mix(r);
  return r;
}

enum { CROSS_V1 = 0, CROSS_HASHED = 1, CROSS_V2 = 2 };

/* One input column, with per-batch feature counts and starts. */
typedef struct xcol {
  const TF_Tensor* vals; /* sparse values [nnz] or dense [batch, width] */
  int dense;
  int64_t width;     /* dense: features per row */
  int64_t* count;    /* sparse: per batch */
  int64_t* start;    /* sparse: per batch */
} xcol;

static int64_t col_count(const xcol* c, int64_t b) {
  return c->dense ? c->width : c->count[b];
}

static int64_t col_pos(const xcol* c, int64_t b, int64_t n) {
  return c->dense ? b * c->width + n : c->start[b] + n;
}

typedef struct xcfg {
  int version;
  int hashed;       /* hashed output */
  int strong;       /* SparseCrossHashed: strong keyed hash */
  int int_internal; /* SparseCross hashed: features of int64 kept raw */
  uint64_t key[2];
  uint64_t hash_key;
  int64_t num_buckets;
  const char* sep;
  size_t sep_len;
} xcfg;

/* The 64-bit feature a hashed cross uses. */
static uint64_t feature_hash(const xcfg* cfg, const xcol* c, int64_t pos) {
  if (c->vals->dtype == TF_STRING) {
    const TF_TString* s = (const TF_TString*)kutil_data(c->vals) + pos;
    const char* p = TF_TString_GetDataPointer(s);
    size_t n = TF_TString_GetSize(s);
    if (cfg->version == CROSS_HASHED && cfg->strong) {
      return tfe_siphash24(cfg->key[0], cfg->key[1], p, n);
    }
    return tfe_farmhash_fingerprint64(p, n);
  }
  {
    int64_t v = ((const int64_t*)kutil_data(c->vals))[pos];
    if (cfg->version == CROSS_HASHED && (cfg->strong || !c->dense)) {
      /* TF hashes sizeof(DataType) == 4 bytes of the value here. */
      char b[8];
      memcpy(b, &v, 8);
      return cfg->strong ? tfe_siphash24(cfg->key[0], cfg->key[1], b, 4)
                         : tfe_farmhash_fingerprint64(b, 4);
    }
    return (uint64_t)v;
  }
}

/* Appends the text of a feature to buf (grows it). */
static int feature_text(const xcol* c, int64_t pos, char** buf, size_t* len,
                        size_t* cap) {
  char tmp[32];
  const char* p;
  size_t n;
  if (c->vals->dtype == TF_STRING) {
    const TF_TString* s = (const TF_TString*)kutil_data(c->vals) + pos;
    p = TF_TString_GetDataPointer(s);
    n = TF_TString_GetSize(s);
  } else {
    n = (size_t)snprintf(tmp, sizeof tmp, "%" PRId64,
                         ((const int64_t*)kutil_data(c->vals))[pos]);
    p = tmp;
  }
  if (*len + n + 1 > *cap) {
    size_t nc = (*len + n + 1) * 2;
    char* nb = (char*)tfe_realloc(*buf, nc);
    if (nb == NULL) return 0;
    *buf = nb;
    *cap = nc;
  }
  if (n) memcpy(*buf + *len, p, n);
  *len += n;
  return 1;
}

static int append_raw(const char* p, size_t n, char** buf, size_t* len,
                      size_t* cap) {
  if (*len + n + 1 > *cap) {
    size_t nc = (*len + n + 1) * 2;
    char* nb = (char*)tfe_realloc(*buf, nc);
    if (nb == NULL) return 0;
    *buf = nb;
    *cap = nc;
  }
  if (n) memcpy(*buf + *len, p, n);
  *len += n;
  return 1;
}

/* TF's DebugString of a small tensor, for the separator message. */
static void tensor_debug(const TF_Tensor* t, char* out, size_t cap) {
  kutil_shape_buf b;
  size_t len;
  int64_t i, n = kutil_num_elements(t);
  len = (size_t)snprintf(out, cap, "Tensor<type: string shape: %s values: ",
                         kutil_tshape(t, &b));
  for (i = 0; i < n && i < 3 && len < cap; i++) {
    const TF_TString* s = (const TF_TString*)kutil_data(t) + i;
    len += (size_t)snprintf(out + len, cap - len, "%s%.*s", i ? " " : "",
                            (int)(TF_TString_GetSize(s) > 100 ? 100 : TF_TString_GetSize(s)),
                            TF_TString_GetDataPointer(s));
  }
  if (n > 3 && len < cap) len += (size_t)snprintf(out + len, cap - len, "...");
  if (len < cap) snprintf(out + len, cap - len, ">");
}

static void sparse_cross(tfe_kernel_context* k, int version) {
  int64_t nattr = 0;
  int n, ns, nd_, i, ncols;
  const TF_DataType* st = NULL;
  const TF_DataType* dtl = NULL;
  int nst = 0, ndt = 0;
  TF_DataType internal = TF_INT64, out_type = TF_INT64;
  int64_t batch = 0, b, total = 0, maxc = 0;
  int64_t* out_start = NULL;
  xcol* cols = NULL;
  int64_t* perm = NULL;
  char* sbuf = NULL;
  size_t scap = 0;
  xcfg cfg;
  kutil_shape_buf b1;
  TF_Tensor *oi = NULL, *ov = NULL;
  memset(&cfg, 0, sizeof cfg);
  cfg.version = version;
  if (!tfe_attrs_get_int(k->attrs, "N", &nattr, NULL)) nattr = 0;
  n = (int)nattr;
  tfe_attrs_get_type_list(k->attrs, "sparse_types", &st, &nst, NULL);
  tfe_attrs_get_type_list(k->attrs, "dense_types", &dtl, &ndt, NULL);
  ns = nst;
  nd_ = ndt;
  if (n < 0 || 2 * n + ns + nd_ > k->num_inputs) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "SparseCross: input count mismatch");
    return;
  }
  if (version == CROSS_V1) {
    tfe_attrs_get_type(k->attrs, "internal_type", &internal, NULL);
    tfe_attrs_get_type(k->attrs, "out_type", &out_type, NULL);
    /* TF picks its kernel by out_type alone (hashed_output is unused) */
    cfg.hashed = out_type == TF_INT64;
    cfg.num_buckets = kutil_attr_int64(k, "num_buckets", 0);
    cfg.hash_key = (uint64_t)kutil_attr_int64(k, "hash_key", 0);
    cfg.sep = "_X_";
    cfg.sep_len = 3;
  } else if (version == CROSS_HASHED) {
    cfg.hashed = 1;
    out_type = TF_INT64;
  } else {
    out_type = TF_STRING;
  }
  /* TF's ValidateInput */
  for (i = 0; i < n; i++) {
    const TF_Tensor* t = k->inputs[i];
    if (t->num_dims != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input indices should be a matrix but received shape %s at "
                 "position %d",
                 kutil_tshape(t, &b1), i);
      return;
    }
    if (t->dims[1] != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected D2 of index to be 2 got %lld at position %d",
                 (long long)t->dims[1], i);
      return;
    }
  }
  if (ns != n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected %d input values, got %d", n,
               ns);
    return;
  }
  for (i = 0; i < n; i++) {
    const TF_Tensor* v = k->inputs[n + i];
    if (version == CROSS_V1 && internal == TF_STRING && v->dtype == TF_INT64) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input values should be of internal type %d but received %d",
                 (int)internal, (int)v->dtype);
      return;
    }
    if (v->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input values should be a vector but received shape %s at "
                 "position %d",
                 kutil_tshape(v, &b1), i);
      return;
    }
    if (k->inputs[i]->dims[0] != v->dims[0]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected size of values to be %lld got %lld at position %d",
                 (long long)k->inputs[i]->dims[0], (long long)v->dims[0], i);
      return;
    }
  }
  for (i = 0; i < n; i++) {
    const TF_Tensor* s = k->inputs[n + ns + i];
    if (s->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input shapes should be a vector but received shape %s at "
                 "position %d",
                 kutil_tshape(s, &b1), i);
      return;
    }
    if (s->dims[0] != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "shape should imply a 2D tensor, but got %s at position %d",
                 kutil_tshape(s, &b1), i);
      return;
    }
  }
  for (i = 0; i < nd_; i++) {
    const TF_Tensor* d = k->inputs[2 * n + ns + i];
    if (version == CROSS_V1 && internal == TF_STRING && d->dtype == TF_INT64) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Dense inputs should be of internal type %d but received %d",
                 (int)internal, (int)d->dtype);
      return;
    }
    if (d->num_dims != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Dense inputs should be a matrix but received shape %s at "
                 "position %d",
                 kutil_tshape(d, &b1), i);
      return;
    }
  }
  if (n > 0) {
    batch = ((const int64_t*)kutil_data(k->inputs[n + ns]))[0];
  } else if (nd_ > 0) {
    batch = k->inputs[2 * n + ns]->dims[0];
  }
  for (i = 0; i < n; i++) {
    int64_t bi = ((const int64_t*)kutil_data(k->inputs[n + ns + i]))[0];
    if (bi != batch) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected batch size %lld got %lld at position %d",
                 (long long)batch, (long long)bi, i);
      return;
    }
  }
  for (i = 0; i < nd_; i++) {
    int64_t bi = k->inputs[2 * n + ns + i]->dims[0];
    if (bi != batch) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected batch size %lld got %lld at dense tensor %d",
                 (long long)batch, (long long)bi, i);
      return;
    }
  }
  if (batch < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected a non-negative batch size, got %lld",
               (long long)batch);
    return;
  }
  if (version == CROSS_V2) {
    const TF_Tensor* sep = k->inputs[2 * n + ns + nd_];
    if (sep->num_dims != 0) {
      char dbg[512];
      tensor_debug(sep, dbg, sizeof dbg);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input separator should be a scalar. Received: %s", dbg);
      return;
    }
    cfg.sep = TF_TString_GetDataPointer((const TF_TString*)kutil_data(sep));
    cfg.sep_len = TF_TString_GetSize((const TF_TString*)kutil_data(sep));
  } else if (version == CROSS_HASHED) {
    const TF_Tensor* nb = k->inputs[2 * n + ns + nd_];
    const TF_Tensor* sh = k->inputs[2 * n + ns + nd_ + 1];
    const TF_Tensor* salt = k->inputs[2 * n + ns + nd_ + 2];
    if (kutil_num_elements(nb) != 1 || kutil_num_elements(sh) != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "num_buckets and strong_hash must be scalars");
      return;
    }
    cfg.num_buckets = ((const int64_t*)kutil_data(nb))[0];
    cfg.strong = ((const unsigned char*)kutil_data(sh))[0] != 0;
    if (kutil_num_elements(salt) != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input \"salt\" must have length 2 but has length %lld",
                 (long long)kutil_num_elements(salt));
      return;
    }
    cfg.key[0] = (uint64_t)((const int64_t*)kutil_data(salt))[0];
    cfg.key[1] = (uint64_t)((const int64_t*)kutil_data(salt))[1];
  }
  ncols = n + nd_;
  cols = (xcol*)tfe_calloc((size_t)(ncols > 0 ? ncols : 1), sizeof(xcol));
  out_start = (int64_t*)tfe_malloc((size_t)(batch > 0 ? batch : 1) * sizeof(int64_t));
  perm = (int64_t*)tfe_calloc((size_t)(ncols > 0 ? ncols : 1), sizeof(int64_t));
  if (cols == NULL || out_start == NULL || perm == NULL) goto oom;
  for (i = 0; i < n; i++) {
    const TF_Tensor* ind = k->inputs[i];
    const int64_t* ix = (const int64_t*)kutil_data(ind);
    int64_t row = 0, rows = ind->dims[0];
    cols[i].vals = k->inputs[n + i];
    cols[i].count = (int64_t*)tfe_malloc((size_t)(batch > 0 ? batch : 1) * sizeof(int64_t));
    cols[i].start = (int64_t*)tfe_malloc((size_t)(batch > 0 ? batch : 1) * sizeof(int64_t));
    if (cols[i].count == NULL || cols[i].start == NULL) goto oom;
    /* rows are taken in order while their batch coordinate is b */
    for (b = 0; b < batch; b++) {
      cols[i].start[b] = row;
      while (row < rows && ix[row * 2] == b) row++;
      cols[i].count[b] = row - cols[i].start[b];
    }
  }
  for (i = 0; i < nd_; i++) {
    const TF_Tensor* d = k->inputs[2 * n + ns + i];
    cols[n + i].vals = d;
    cols[n + i].dense = 1;
    cols[n + i].width = d->dims[1];
  }
  for (b = 0; b < batch; b++) {
    int64_t c = ncols > 0 ? 1 : 0;
    for (i = 0; i < ncols; i++) {
      int64_t fc = col_count(&cols[i], b);
      if (fc == 0) {
        c = 0;
        break;
      }
      if (!tfe_checked_mul_i64(c, fc, &c)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many feature crosses");
        goto done;
      }
    }
    out_start[b] = total;
    if (c > maxc) maxc = c;
    if (!tfe_checked_add_i64(total, c, &total)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many feature crosses");
      goto done;
    }
  }
  {
    int64_t od[2];
    od[0] = total;
    od[1] = 2;
    oi = tfe_kernel_alloc_output(k, 0, TF_INT64, od, 2);
    if (oi == NULL) goto done;
    ov = tfe_kernel_alloc_output(k, 1, cfg.hashed ? TF_INT64 : TF_STRING, od, 1);
    if (ov == NULL) goto done;
  }
  for (b = 0; b < batch; b++) {
    int64_t cnt, pos = out_start[b];
    int go = ncols > 0;
    for (i = 0; i < ncols; i++) {
      perm[i] = 0;
      if (col_count(&cols[i], b) == 0) go = 0;
    }
    for (cnt = 0; go; cnt++) {
      int64_t* orow = (int64_t*)kutil_data(oi) + (pos + cnt) * 2;
      orow[0] = b;
      orow[1] = cnt;
      if (cfg.hashed) {
        uint64_t h;
        int first = 1;
        h = version == CROSS_V1 ? cfg.hash_key : 0;
        for (i = 0; i < ncols; i++) {
          uint64_t f = feature_hash(&cfg, &cols[i], col_pos(&cols[i], b, perm[i]));
          if (version == CROSS_HASHED && first) {
            h = f;
          } else {
            h = fp_cat64(h, f);
          }
          first = 0;
        }
        ((int64_t*)kutil_data(ov))[pos + cnt] =
            (int64_t)(cfg.num_buckets > 0 ? h % (uint64_t)cfg.num_buckets
                                          : h % (uint64_t)INT64_MAX);
      } else {
        size_t len = 0;
        for (i = 0; i < ncols; i++) {
          if (i > 0 && !append_raw(cfg.sep, cfg.sep_len, &sbuf, &len, &scap)) goto oom;
          if (!feature_text(&cols[i], col_pos(&cols[i], b, perm[i]), &sbuf, &len, &scap)) {
            goto oom;
          }
        }
        TF_TString_Copy((TF_TString*)kutil_data(ov) + pos + cnt, sbuf ? sbuf : "", len);
      }
      /* next combination: the last column varies fastest */
      for (i = ncols - 1; i >= 0; i--) {
        if (++perm[i] < col_count(&cols[i], b)) break;
        perm[i] = 0;
      }
      if (i < 0) go = 0;
    }
  }
  {
    int64_t shp[2];
    shp[0] = batch;
    shp[1] = maxc;
    sp2_alloc_vec_i64(k, 2, shp, 2);
  }
  goto done;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SparseCross");
done:
  if (cols != NULL) {
    for (i = 0; i < ncols; i++) {
      tfe_free(cols[i].count);
      tfe_free(cols[i].start);
    }
  }
  tfe_free(cols);
  tfe_free(out_start);
  tfe_free(perm);
  tfe_free(sbuf);
}

static void k_sparse_cross(tfe_kernel_context* k) { sparse_cross(k, CROSS_V1); }
static void k_sparse_cross_hashed(tfe_kernel_context* k) {
  sparse_cross(k, CROSS_HASHED);
}
static void k_sparse_cross_v2(tfe_kernel_context* k) { sparse_cross(k, CROSS_V2); }

void tfe_register_cpu_sparse2_cross_kernels(void) {
  static const TF_DataType ot[] = {TF_INT64, TF_STRING};
  tfe_kutil_register("SparseCross", k_sparse_cross, "out_type", ot, 2,
                     "internal_type", ot, 2);
  tfe_kutil_register("SparseCrossHashed", k_sparse_cross_hashed, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("SparseCrossV2", k_sparse_cross_v2, NULL, NULL, 0, NULL,
                     NULL, 0);
}
