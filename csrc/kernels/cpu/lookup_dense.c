/* TF's MutableDenseHashTable store (lookup_dense.h). */
#include "kernels/cpu/lookup_dense.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "kernels/cpu/lookup_table.h"
#include "kernels/cpu/text_hash.h"
#include "tensorflow/c/tf_tstring.h"

/* Bucket arrays bigger than this many bytes are refused (TF would try). */
#define DENSE_MAX_BYTES ((uint64_t)1 << 34)

struct lk_dense {
  TF_DataType kdt, vdt;
  int krank;       /* 0 or 1 */
  int64_t ks, vs;  /* key and value elements per bucket */
  size_t vesize;   /* bytes per value element (POD) */
  float mlf;
  int64_t nb, entries;
  /* Buckets: keys nb * ks (ints widened, or strings), values nb * vs. */
  int64_t* ik;
  lk_bytes* sk;
  unsigned char* pv;
  lk_bytes* sv;
  /* The empty and deleted keys (ks elements each). */
  int64_t* empty_i;
  int64_t* deleted_i;
  lk_bytes* empty_s;
  lk_bytes* deleted_s;
  uint64_t empty_hash, deleted_hash;
};

static size_t pod_size(TF_DataType dt) {
  switch (dt) {
    case TF_BOOL: return 1;
    case TF_INT32:
    case TF_FLOAT: return 4;
    case TF_INT64:
    case TF_DOUBLE: return 8;
    default: return 0;
  }
}

static void free_strs(lk_bytes* b, int64_t n) {
  int64_t i;
  if (b == NULL) return;
  for (i = 0; i < n; i++) tfe_free(b[i].p);
  tfe_free(b);
}

/* A view of ks key elements: ints or strings. */
typedef struct kview {
  const int64_t* i;       /* widened ints (bucket storage) */
  const lk_bytes* s;      /* stored strings */
  const TF_Tensor* t;     /* or a tensor row */
  int64_t row;
} kview;

static int64_t kv_int(const lk_dense* d, const kview* v, int64_t j) {
  if (v->t == NULL) return v->i[j];
  if (d->kdt == TF_INT32) {
    return ((const int32_t*)v->t->buf->data)[v->row * d->ks + j];
  }
  return ((const int64_t*)v->t->buf->data)[v->row * d->ks + j];
}

static void kv_str(const lk_dense* d, const kview* v, int64_t j,
                   const char** p, size_t* n) {
  if (v->t == NULL) {
    *p = v->s[j].p != NULL ? v->s[j].p : "";
    *n = v->s[j].n;
  } else {
    const TF_TString* e =
        (const TF_TString*)v->t->buf->data + v->row * d->ks + j;
    *p = TF_TString_GetDataPointer(e);
    *n = TF_TString_GetSize(e);
  }
}

static uint64_t hash_elem(const lk_dense* d, const kview* v, int64_t j) {
  if (d->kdt == TF_STRING) {
    const char* p;
    size_t n;
    kv_str(d, v, j, &p, &n);
    return tfe_tf_legacy_hash64(p, n);
  }
  return (uint64_t)kv_int(d, v, j);
}

/* TF's HashKey: the element's hash for one-element keys, else
 * Hash64Combine folded over the elements from 0. */
static uint64_t hash_key(const lk_dense* d, const kview* v) {
  uint64_t r = 0;
  int64_t j;
  if (d->ks == 1) return hash_elem(d, v, 0);
  for (j = 0; j < d->ks; j++) {
    uint64_t b = hash_elem(d, v, j);
    r = r ^ (b + 0x9e3779b97f4a7800ULL + (r << 10) + (r >> 4));
  }
  return r;
}

static int key_eq(const lk_dense* d, const kview* a, const kview* b) {
  int64_t j;
  for (j = 0; j < d->ks; j++) {
    if (d->kdt == TF_STRING) {
      const char *pa, *pb;
      size_t na, nb;
      kv_str(d, a, j, &pa, &na);
      kv_str(d, b, j, &pb, &nb);
      if (na != nb || (na > 0 && memcmp(pa, pb, na) != 0)) return 0;
    } else if (kv_int(d, a, j) != kv_int(d, b, j)) {
      return 0;
    }
  }
  return 1;
}

static kview bucket_view(const lk_dense* d, int64_t b) {
  kview v = {NULL, NULL, NULL, 0};
  if (d->kdt == TF_STRING) {
    v.s = d->sk + b * d->ks;
  } else {
    v.i = d->ik + b * d->ks;
  }
  return v;
}

static kview empty_view(const lk_dense* d) {
  kview v = {d->empty_i, d->empty_s, NULL, 0};
  return v;
}

static kview deleted_view(const lk_dense* d) {
  kview v = {d->deleted_i, d->deleted_s, NULL, 0};
  return v;
}

static kview row_view(const TF_Tensor* t, int64_t row) {
  kview v = {NULL, NULL, t, row};
  return v;
}

static int dup_into(lk_bytes* dst, const char* p, size_t n) {
  char* c = (char*)tfe_malloc(n > 0 ? n : 1);
  if (c == NULL) return 0;
  if (n > 0) memcpy(c, p, n);
  tfe_free(dst->p);
  dst->p = c;
  dst->n = n;
  return 1;
}

/* Copies key view src into bucket b. 0 on OOM. */
static int set_bucket_key(lk_dense* d, int64_t b, const kview* src) {
  int64_t j;
  for (j = 0; j < d->ks; j++) {
    if (d->kdt == TF_STRING) {
      const char* p;
      size_t n;
      kv_str(d, src, j, &p, &n);
      if (!dup_into(&d->sk[b * d->ks + j], p, n)) return 0;
    } else {
      d->ik[b * d->ks + j] = kv_int(d, src, j);
    }
  }
  return 1;
}

/* Copies value row `row` of tensor t (or of bucket arrays when t is NULL:
 * row of old arrays pv/sv) into bucket b. */
static int set_bucket_value(lk_dense* d, int64_t b, const TF_Tensor* t,
                            int64_t row, const unsigned char* opv,
                            const lk_bytes* osv) {
  int64_t j;
  if (d->vdt == TF_STRING) {
    for (j = 0; j < d->vs; j++) {
      const char* p;
      size_t n;
      if (t != NULL) {
        const TF_TString* e = (const TF_TString*)t->buf->data + row * d->vs + j;
        p = TF_TString_GetDataPointer(e);
        n = TF_TString_GetSize(e);
      } else {
        p = osv[row * d->vs + j].p != NULL ? osv[row * d->vs + j].p : "";
        n = osv[row * d->vs + j].n;
      }
      if (!dup_into(&d->sv[b * d->vs + j], p, n)) return 0;
    }
  } else if (d->vs > 0) {
    const unsigned char* src =
        t != NULL ? (const unsigned char*)t->buf->data : opv;
    memcpy(d->pv + (size_t)(b * d->vs) * d->vesize,
           src + (size_t)(row * d->vs) * d->vesize,
           (size_t)d->vs * d->vesize);
  }
  return 1;
}

static void free_buckets(lk_dense* d) {
  if (d->sk != NULL) free_strs(d->sk, d->nb * d->ks);
  if (d->sv != NULL) free_strs(d->sv, d->nb * d->vs);
  tfe_free(d->ik);
  tfe_free(d->pv);
  d->sk = NULL;
  d->sv = NULL;
  d->ik = NULL;
  d->pv = NULL;
}

/* TF's AllocateBuckets: empty keys, zero values. */
static int allocate_buckets(lk_dense* d, int64_t nb, TF_Status* s) {
  int64_t i, j;
  uint64_t kbytes, vbytes;
  if (nb < 4 || (nb & (nb - 1)) != 0) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Number of buckets must be at least 4 and a power of 2, "
                    "got: %lld",
                    (long long)nb);
    return 0;
  }
  kbytes = (uint64_t)nb * (uint64_t)(d->ks > 0 ? d->ks : 1) *
           (d->kdt == TF_STRING ? sizeof(lk_bytes) : sizeof(int64_t));
  vbytes = (uint64_t)nb * (uint64_t)(d->vs > 0 ? d->vs : 1) *
           (d->vdt == TF_STRING ? sizeof(lk_bytes) : d->vesize);
  if ((uint64_t)nb > DENSE_MAX_BYTES || kbytes > DENSE_MAX_BYTES ||
      vbytes > DENSE_MAX_BYTES || kbytes + vbytes > DENSE_MAX_BYTES) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "OOM when allocating %lld buckets for a "
                    "MutableDenseHashTable",
                    (long long)nb);
    return 0;
  }
  d->nb = nb;
  d->entries = 0;
  if (d->kdt == TF_STRING) {
    d->sk = (lk_bytes*)tfe_calloc((size_t)(nb * d->ks) + 1, sizeof(lk_bytes));
  } else {
    d->ik = (int64_t*)tfe_malloc((size_t)kbytes + 8);
  }
  if (d->vdt == TF_STRING) {
    d->sv = (lk_bytes*)tfe_calloc((size_t)(nb * d->vs) + 1, sizeof(lk_bytes));
  } else {
    d->pv = (unsigned char*)tfe_calloc((size_t)vbytes + 8, 1);
  }
  if ((d->kdt == TF_STRING ? (void*)d->sk : (void*)d->ik) == NULL ||
      (d->vdt == TF_STRING ? (void*)d->sv : (void*)d->pv) == NULL) {
    free_buckets(d);
    d->nb = 0;
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "OOM when allocating %lld buckets for a "
                    "MutableDenseHashTable",
                    (long long)nb);
    return 0;
  }
  for (i = 0; i < nb; i++) {
    for (j = 0; j < d->ks; j++) {
      if (d->kdt == TF_STRING) {
        if (!dup_into(&d->sk[i * d->ks + j], d->empty_s[j].p,
                      d->empty_s[j].n)) {
          free_buckets(d);
          d->nb = 0;
          tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                          "OOM filling a MutableDenseHashTable");
          return 0;
        }
      } else {
        d->ik[i * d->ks + j] = d->empty_i[j];
      }
    }
  }
  tfe_status_ok(s);
  return 1;
}

static int read_key_tensor(const lk_dense* d, const TF_Tensor* t,
                           int64_t** iv, lk_bytes** sv) {
  int64_t j;
  if (d->kdt == TF_STRING) {
    *sv = (lk_bytes*)tfe_calloc((size_t)d->ks + 1, sizeof(lk_bytes));
    if (*sv == NULL) return 0;
    for (j = 0; j < d->ks; j++) {
      const TF_TString* e = (const TF_TString*)t->buf->data + j;
      if (!dup_into(&(*sv)[j], TF_TString_GetDataPointer(e),
                    TF_TString_GetSize(e))) {
        return 0;
      }
    }
  } else {
    kview v = row_view(t, 0);
    *iv = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(d->ks + 1));
    if (*iv == NULL) return 0;
    for (j = 0; j < d->ks; j++) (*iv)[j] = kv_int(d, &v, j);
  }
  return 1;
}

static void shape_text(const TF_Tensor* t, char* buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  int i;
  for (i = 0; i < t->num_dims && len < cap; i++) {
    len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                            (long long)t->dims[i]);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

lk_dense* lk_dense_new(TF_DataType kdt, TF_DataType vdt,
                       const TF_Tensor* empty_key,
                       const TF_Tensor* deleted_key, int64_t vdim,
                       int64_t num_buckets, float max_load_factor,
                       TF_Status* s) {
  lk_dense* d;
  char a[256], b[256];
  int i;
  if (!(max_load_factor > 0 && max_load_factor < 1)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "max_load_factor must be between 0 and 1, got: %g",
                    (double)max_load_factor);
    return NULL;
  }
  if (empty_key->num_dims > 1) {
    shape_text(empty_key, a, sizeof a);
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Empty key must be a scalar or a vector, got shape %s", a);
    return NULL;
  }
  if (deleted_key->num_dims != empty_key->num_dims ||
      (empty_key->num_dims == 1 && deleted_key->dims[0] != empty_key->dims[0])) {
    shape_text(empty_key, a, sizeof a);
    shape_text(deleted_key, b, sizeof b);
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Empty and deleted keys must have same shape, got shapes: "
                    "%s and %s",
                    a, b);
    return NULL;
  }
  d = (lk_dense*)tfe_calloc(1, sizeof(*d));
  if (d == NULL) goto oom;
  d->kdt = kdt;
  d->vdt = vdt;
  d->krank = empty_key->num_dims;
  d->ks = empty_key->num_dims == 1 ? empty_key->dims[0] : 1;
  d->vs = vdim;
  d->vesize = pod_size(vdt);
  d->mlf = max_load_factor;
  if (!read_key_tensor(d, empty_key, &d->empty_i, &d->empty_s) ||
      !read_key_tensor(d, deleted_key, &d->deleted_i, &d->deleted_s)) {
    lk_dense_free(d);
    goto oom;
  }
  {
    kview e = empty_view(d), x = deleted_view(d);
    d->empty_hash = hash_key(d, &e);
    d->deleted_hash = hash_key(d, &x);
    if (d->empty_hash == d->deleted_hash && key_eq(d, &e, &x)) {
      lk_dense_free(d);
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Empty and deleted keys cannot be equal");
      return NULL;
    }
  }
  if (!allocate_buckets(d, num_buckets, s)) {
    lk_dense_free(d);
    return NULL;
  }
  (void)i;
  return d;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "out of memory making a MutableDenseHashTable");
  return NULL;
}

void lk_dense_free(lk_dense* d) {
  if (d == NULL) return;
  free_buckets(d);
  tfe_free(d->empty_i);
  tfe_free(d->deleted_i);
  if (d->empty_s != NULL) free_strs(d->empty_s, d->ks);
  if (d->deleted_s != NULL) free_strs(d->deleted_s, d->ks);
  tfe_free(d);
}

int lk_dense_key_rank(const lk_dense* d) { return d->krank; }
int64_t lk_dense_key_size(const lk_dense* d) { return d->ks; }
int64_t lk_dense_size(const lk_dense* d) { return d->entries; }
int64_t lk_dense_num_buckets(const lk_dense* d) { return d->nb; }

/* The key rows of a Find/Insert/Remove input: one for a scalar, else its
 * first dimension; the elements must be rows * key_size. */
static int key_rows(const lk_dense* d, const TF_Tensor* keys, int64_t* rows,
                    TF_Status* s) {
  int64_t n = keys->num_dims == 0 ? 1 : keys->dims[0];
  int64_t total = 1, want;
  int i;
  for (i = 0; i < keys->num_dims; i++) total *= keys->dims[i];
  if (keys->num_dims > 0 && keys->dims[0] == 0) total = 0;
  if (__builtin_mul_overflow(n, d->ks, &want) || total != want) {
    char a[256], b[256];
    if (d->krank == 1) {
      snprintf(a, sizeof a, "[%lld,%lld]", (long long)n, (long long)d->ks);
    } else {
      snprintf(a, sizeof a, "[%lld]", (long long)n);
    }
    shape_text(keys, b, sizeof b);
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Expected key shape %s got %s", a,
                    b);
    return 0;
  }
  *rows = n;
  return 1;
}

static int special_key(const lk_dense* d, const kview* k, uint64_t h,
                       TF_Status* s) {
  kview e = empty_view(d), x = deleted_view(d);
  if (h == d->empty_hash && key_eq(d, &e, k)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Using the empty_key as a table key is not allowed");
    return 1;
  }
  if (h == d->deleted_hash && key_eq(d, &x, k)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Using the deleted_key as a table key is not allowed");
    return 1;
  }
  return 0;
}

int lk_dense_find(const lk_dense* d, const TF_Tensor* keys, TF_Tensor* out,
                  const TF_Tensor* def, TF_Status* s) {
  int64_t n, i, j;
  kview e = empty_view(d);
  if (!key_rows(d, keys, &n, s)) return 0;
  for (i = 0; i < n; i++) {
    kview k = row_view(keys, i);
    uint64_t h = hash_key(d, &k);
    int64_t b, probes = 0, found = -1;
    if (special_key(d, &k, h, s)) return 0;
    if (d->nb < 1) {
      tfe_status_setf(s, TF_INTERNAL,
                      "Internal error in MutableDenseHashTable lookup");
      return 0;
    }
    b = (int64_t)(h & (uint64_t)(d->nb - 1));
    for (;;) {
      kview bk = bucket_view(d, b);
      if (key_eq(d, &bk, &k)) {
        found = b;
        break;
      }
      if (key_eq(d, &bk, &e)) break;
      ++probes;
      b = (int64_t)((uint64_t)(b + probes) & (uint64_t)(d->nb - 1));
      if (probes >= d->nb) {
        tfe_status_setf(s, TF_INTERNAL,
                        "Internal error in MutableDenseHashTable lookup");
        return 0;
      }
    }
    for (j = 0; j < d->vs; j++) {
      int64_t o = i * d->vs + j;
      if (d->vdt == TF_STRING) {
        TF_TString* dst = (TF_TString*)out->buf->data + o;
        if (found >= 0) {
          const lk_bytes* v = &d->sv[found * d->vs + j];
          TF_TString_Copy(dst, v->p != NULL ? v->p : "", v->n);
        } else {
          const TF_TString* dv = (const TF_TString*)def->buf->data + j;
          TF_TString_Copy(dst, TF_TString_GetDataPointer(dv),
                          TF_TString_GetSize(dv));
        }
      } else {
        const unsigned char* src =
            found >= 0 ? d->pv + (size_t)(found * d->vs + j) * d->vesize
                       : (const unsigned char*)def->buf->data +
                             (size_t)j * d->vesize;
        memcpy((unsigned char*)out->buf->data + (size_t)o * d->vesize, src,
               d->vesize);
      }
    }
  }
  tfe_status_ok(s);
  return 1;
}

/* TF's DoInsert: rows of keys (a tensor, or the old buckets when ok/ov are
 * given) with their values. */
static int do_insert(lk_dense* d, int64_t n, const TF_Tensor* kt,
                     const TF_Tensor* vt, const int64_t* oki,
                     const lk_bytes* oks, const unsigned char* opv,
                     const lk_bytes* osv, int ignore_special, TF_Status* s) {
  int64_t i;
  kview e = empty_view(d), x = deleted_view(d);
  for (i = 0; i < n; i++) {
    kview k;
    uint64_t h;
    int64_t b, probes = 0;
    if (kt != NULL) {
      k = row_view(kt, i);
    } else {
      k.t = NULL;
      k.row = 0;
      k.i = oki != NULL ? oki + i * d->ks : NULL;
      k.s = oks != NULL ? oks + i * d->ks : NULL;
    }
    h = hash_key(d, &k);
    if ((h == d->empty_hash && key_eq(d, &e, &k)) ||
        (h == d->deleted_hash && key_eq(d, &x, &k))) {
      if (ignore_special) continue;
      special_key(d, &k, h, s);
      return 0;
    }
    if (d->nb < 1) {
      tfe_status_setf(s, TF_INTERNAL,
                      "Internal error in MutableDenseHashTable insert");
      return 0;
    }
    b = (int64_t)(h & (uint64_t)(d->nb - 1));
    for (;;) {
      kview bk = bucket_view(d, b);
      if (key_eq(d, &bk, &k)) {
        if (!set_bucket_value(d, b, vt, i, opv, osv)) goto oom;
        break;
      }
      if (key_eq(d, &bk, &e) || key_eq(d, &bk, &x)) {
        ++d->entries;
        if (!set_bucket_key(d, b, &k) ||
            !set_bucket_value(d, b, vt, i, opv, osv)) {
          goto oom;
        }
        break;
      }
      ++probes;
      b = (int64_t)((uint64_t)(b + probes) & (uint64_t)(d->nb - 1));
      if (probes >= d->nb) {
        tfe_status_setf(s, TF_INTERNAL,
                        "Internal error in MutableDenseHashTable insert");
        return 0;
      }
    }
  }
  tfe_status_ok(s);
  return 1;
oom:
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "out of memory inserting into a MutableDenseHashTable");
  return 0;
}

static int rebucket(lk_dense* d, int64_t nb, TF_Status* s) {
  int64_t onb = d->nb;
  int64_t* oki = d->ik;
  lk_bytes* oks = d->sk;
  unsigned char* opv = d->pv;
  lk_bytes* osv = d->sv;
  int ok;
  d->ik = NULL;
  d->sk = NULL;
  d->pv = NULL;
  d->sv = NULL;
  if (!allocate_buckets(d, nb, s)) {
    /* Keep the old buckets. */
    d->nb = onb;
    d->ik = oki;
    d->sk = oks;
    d->pv = opv;
    d->sv = osv;
    return 0;
  }
  ok = do_insert(d, onb, NULL, NULL, oki, oks, opv, osv, 1, s);
  if (oks != NULL) free_strs(oks, onb * d->ks);
  if (osv != NULL) free_strs(osv, onb * d->vs);
  tfe_free(oki);
  tfe_free(opv);
  return ok;
}

int lk_dense_insert(lk_dense* d, const TF_Tensor* keys, const TF_Tensor* vals,
                    TF_Status* s) {
  int64_t n, pending;
  if (!key_rows(d, keys, &n, s)) return 0;
  pending = d->entries + n;
  /* TF compares in float: pending > num_buckets * max_load_factor. */
  if ((float)pending > (float)d->nb * d->mlf) {
    int64_t nb = d->nb;
    if (nb < 1) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Number of buckets must be at least 4 and a power of 2, "
                      "got: %lld",
                      (long long)nb);
      return 0;
    }
    do {
      if (nb > INT64_MAX / 2) {
        tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                        "MutableDenseHashTable cannot grow past %lld buckets",
                        (long long)nb);
        return 0;
      }
      nb <<= 1;
    } while ((float)pending > (float)nb * d->mlf);
    if (!rebucket(d, nb, s)) return 0;
  }
  return do_insert(d, n, keys, vals, NULL, NULL, NULL, NULL, 0, s);
}

int lk_dense_remove(lk_dense* d, const TF_Tensor* keys, TF_Status* s) {
  int64_t n, i, j;
  kview e = empty_view(d), x = deleted_view(d);
  if (!key_rows(d, keys, &n, s)) return 0;
  for (i = 0; i < n; i++) {
    kview k = row_view(keys, i);
    uint64_t h = hash_key(d, &k);
    int64_t b, probes = 0;
    if (special_key(d, &k, h, s)) return 0;
    if (d->nb < 1) {
      tfe_status_setf(s, TF_INTERNAL,
                      "Internal error in MutableDenseHashTable remove");
      return 0;
    }
    b = (int64_t)(h & (uint64_t)(d->nb - 1));
    for (;;) {
      kview bk = bucket_view(d, b);
      if (key_eq(d, &bk, &k)) {
        --d->entries;
        if (d->kdt == TF_STRING) {
          for (j = 0; j < d->ks; j++) {
            if (!dup_into(&d->sk[b * d->ks + j], x.s[j].p, x.s[j].n)) {
              tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                              "out of memory in a MutableDenseHashTable");
              return 0;
            }
          }
        } else {
          for (j = 0; j < d->ks; j++) d->ik[b * d->ks + j] = x.i[j];
        }
        break;
      }
      if (key_eq(d, &bk, &e)) break;
      ++probes;
      b = (int64_t)((uint64_t)(b + probes) & (uint64_t)(d->nb - 1));
      if (probes >= d->nb) {
        tfe_status_setf(s, TF_INTERNAL,
                        "Internal error in MutableDenseHashTable remove");
        return 0;
      }
    }
  }
  tfe_status_ok(s);
  return 1;
}

int lk_dense_import(lk_dense* d, const TF_Tensor* keys, const TF_Tensor* vals,
                    TF_Status* s) {
  int64_t nb, i;
  lk_dense tmp;
  kview e, x;
  if (keys->num_dims != 2 || keys->dims[1] != d->ks || vals->num_dims != 2 ||
      vals->dims[0] != keys->dims[0] || vals->dims[1] != d->vs) {
    char a[256], b[256];
    shape_text(keys, a, sizeof a);
    shape_text(vals, b, sizeof b);
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "MutableDenseHashTable import needs keys of shape "
                    "[buckets, %lld] and values of shape [buckets, %lld], got "
                    "%s and %s",
                    (long long)d->ks, (long long)d->vs, a, b);
    return 0;
  }
  nb = keys->dims[0];
  /* Build the new arrays beside the old ones, then swap. */
  tmp = *d;
  tmp.ik = NULL;
  tmp.sk = NULL;
  tmp.pv = NULL;
  tmp.sv = NULL;
  tmp.nb = nb;
  if (d->kdt == TF_STRING) {
    tmp.sk = (lk_bytes*)tfe_calloc((size_t)(nb * d->ks) + 1, sizeof(lk_bytes));
  } else {
    tmp.ik = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(nb * d->ks) + 8);
  }
  if (d->vdt == TF_STRING) {
    tmp.sv = (lk_bytes*)tfe_calloc((size_t)(nb * d->vs) + 1, sizeof(lk_bytes));
  } else {
    tmp.pv = (unsigned char*)tfe_malloc((size_t)(nb * d->vs) * d->vesize + 8);
  }
  if ((d->kdt == TF_STRING ? (void*)tmp.sk : (void*)tmp.ik) == NULL ||
      (d->vdt == TF_STRING ? (void*)tmp.sv : (void*)tmp.pv) == NULL) {
    goto oom;
  }
  for (i = 0; i < nb; i++) {
    kview k = row_view(keys, i);
    if (!set_bucket_key(&tmp, i, &k) ||
        !set_bucket_value(&tmp, i, vals, i, NULL, NULL)) {
      goto oom;
    }
  }
  free_buckets(d);
  d->nb = nb;
  d->ik = tmp.ik;
  d->sk = tmp.sk;
  d->pv = tmp.pv;
  d->sv = tmp.sv;
  d->entries = 0;
  e = empty_view(d);
  x = deleted_view(d);
  for (i = 0; i < nb; i++) {
    kview bk = bucket_view(d, i);
    if (!key_eq(d, &bk, &e) && !key_eq(d, &bk, &x)) d->entries++;
  }
  tfe_status_ok(s);
  return 1;
oom:
  if (tmp.sk != NULL) free_strs(tmp.sk, nb * d->ks);
  if (tmp.sv != NULL) free_strs(tmp.sv, nb * d->vs);
  tfe_free(tmp.ik);
  tfe_free(tmp.pv);
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "out of memory importing into a MutableDenseHashTable");
  return 0;
}

void lk_dense_export(const lk_dense* d, TF_Tensor* keys, TF_Tensor* vals) {
  int64_t i, n = d->nb * d->ks;
  for (i = 0; i < n; i++) {
    if (d->kdt == TF_STRING) {
      const lk_bytes* b = &d->sk[i];
      TF_TString_Copy((TF_TString*)keys->buf->data + i,
                      b->p != NULL ? b->p : "", b->n);
    } else if (d->kdt == TF_INT32) {
      ((int32_t*)keys->buf->data)[i] = (int32_t)d->ik[i];
    } else {
      ((int64_t*)keys->buf->data)[i] = d->ik[i];
    }
  }
  n = d->nb * d->vs;
  if (d->vdt == TF_STRING) {
    for (i = 0; i < n; i++) {
      const lk_bytes* b = &d->sv[i];
      TF_TString_Copy((TF_TString*)vals->buf->data + i,
                      b->p != NULL ? b->p : "", b->n);
    }
  } else if (n > 0) {
    memcpy(vals->buf->data, d->pv, (size_t)n * d->vesize);
  }
}
