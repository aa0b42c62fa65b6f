/* The hash map behind the lookup tables (lookup_table.h). */
#include "kernels/cpu/lookup_table.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_internal.h"
#include "core/variant.h"
#include "tensorflow/c/tf_tstring.h"

#define SLOT_EMPTY (-1)
#define SLOT_REMOVED (-2)

static size_t pod_size(TF_DataType dt) {
  switch (dt) {
    case TF_BOOL: return 1;
    case TF_INT32:
    case TF_FLOAT: return 4;
    case TF_INT64:
    case TF_DOUBLE: return 8;
    case TF_VARIANT: return sizeof(tfe_variant*);
    default: return 0;
  }
}

/* Variant values are object pointers holding a reference each. */
static tfe_variant** var_at(const lk_map* m, int64_t e) {
  return (tfe_variant**)(void*)(m->vals + (size_t)(e * m->vdim) * m->vesize);
}

static void unref_values(lk_map* m, int64_t e) {
  int64_t j;
  if (m->vdt != TF_VARIANT) return;
  for (j = 0; j < m->vdim; j++) {
    tfe_variant_unref(var_at(m, e)[j]);
    var_at(m, e)[j] = NULL;
  }
}

void lk_map_init(lk_map* m, TF_DataType kdt, TF_DataType vdt, int64_t vdim) {
  memset(m, 0, sizeof(*m));
  m->kdt = kdt;
  m->vdt = vdt;
  m->vdim = vdim;
  m->vesize = pod_size(vdt);
}

static void free_bytes(lk_bytes* b, int64_t n) {
  int64_t i;
  if (b == NULL) return;
  for (i = 0; i < n; i++) tfe_free(b[i].p);
}

void lk_map_clear(lk_map* m) {
  int64_t e;
  if (m->vdt == TF_VARIANT && m->vals != NULL) {
    for (e = 0; e < m->n; e++) unref_values(m, e);
  }
  free_bytes(m->skeys, m->n);
  if (m->svals != NULL) free_bytes(m->svals, m->n * m->vdim);
  m->n = 0;
  if (m->slots != NULL) {
    int64_t i;
    for (i = 0; i < m->nslots; i++) m->slots[i] = SLOT_EMPTY;
  }
  m->nused = 0;
}

void lk_map_free(lk_map* m) {
  lk_map_clear(m);
  tfe_free(m->ikeys);
  tfe_free(m->skeys);
  tfe_free(m->hashes);
  tfe_free(m->vals);
  tfe_free(m->svals);
  tfe_free(m->slots);
  memset(m, 0, sizeof(*m));
}

/* ---- keys ---- */

static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t hash_bytes(const char* p, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = mix64(h ^ w) + 0x632BE59BD9B4E019ull;
  }
  if (i < n) {
    uint64_t w = 0;
    memcpy(&w, p + i, n - i);
    h = mix64(h ^ w ^ ((uint64_t)(n - i) << 56));
  }
  return mix64(h);
}

static uint64_t key_hash(const lk_map* m, lk_key k) {
  return m->kdt == TF_STRING ? hash_bytes(k.p, k.n) : mix64((uint64_t)k.i);
}

lk_key lk_key_at(const lk_map* m, const TF_Tensor* t, int64_t i) {
  lk_key k = {0, NULL, 0};
  const void* d = t->buf->data;
  switch (m->kdt) {
    case TF_STRING: {
      const TF_TString* s = (const TF_TString*)d + i;
      k.p = TF_TString_GetDataPointer(s);
      k.n = TF_TString_GetSize(s);
      break;
    }
    case TF_INT32: k.i = ((const int32_t*)d)[i]; break;
    default: k.i = ((const int64_t*)d)[i]; break;
  }
  return k;
}

static int key_equal(const lk_map* m, int64_t e, lk_key k) {
  if (m->kdt == TF_STRING) {
    const lk_bytes* b = &m->skeys[e];
    return b->n == k.n && (k.n == 0 || memcmp(b->p, k.p, k.n) == 0);
  }
  return m->ikeys[e] == k.i;
}

static lk_key entry_key(const lk_map* m, int64_t e) {
  lk_key k = {0, NULL, 0};
  if (m->kdt == TF_STRING) {
    k.p = m->skeys[e].p;
    k.n = m->skeys[e].n;
  } else {
    k.i = m->ikeys[e];
  }
  return k;
}

/* Slot holding entry e's number, or of the first free slot for key k
 * (when *found is 0). */
static int64_t probe(const lk_map* m, lk_key k, uint64_t h, int* found) {
  uint64_t mask = (uint64_t)m->nslots - 1;
  uint64_t i = h & mask, step = 0;
  int64_t first_free = -1;
  *found = 0;
  for (;;) {
    int64_t s = m->slots[i];
    if (s == SLOT_EMPTY) return first_free >= 0 ? first_free : (int64_t)i;
    if (s == SLOT_REMOVED) {
      if (first_free < 0) first_free = (int64_t)i;
    } else if (m->hashes[s] == h && key_equal(m, s, k)) {
      *found = 1;
      return (int64_t)i;
    }
    step++;
    i = (i + step) & mask;
  }
}

int64_t lk_map_find(const lk_map* m, lk_key k) {
  int found;
  int64_t s;
  if (m->n == 0 || m->slots == NULL) return -1;
  s = probe(m, k, key_hash(m, k), &found);
  return found ? m->slots[s] : -1;
}

/* Rebuilds the index with at least 2 slots per entry. */
static int reindex(lk_map* m, int64_t want_entries) {
  int64_t ns = 16, i;
  int64_t* slots;
  while (ns < want_entries * 2) {
    if (ns > INT64_MAX / 4) return 0;
    ns *= 2;
  }
  if ((uint64_t)ns > SIZE_MAX / sizeof(int64_t)) return 0;
  slots = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)ns);
  if (slots == NULL) return 0;
  for (i = 0; i < ns; i++) slots[i] = SLOT_EMPTY;
  tfe_free(m->slots);
  m->slots = slots;
  m->nslots = ns;
  for (i = 0; i < m->n; i++) {
    int found;
    int64_t s = probe(m, entry_key(m, i), m->hashes[i], &found);
    m->slots[s] = i;
  }
  m->nused = m->n;
  return 1;
}

static int grow_entries(lk_map* m) {
  int64_t ncap = m->cap ? m->cap * 2 : 8;
  int64_t vd = m->vdim > 0 ? m->vdim : 1;
  int64_t* ik = NULL;
  lk_bytes* sk = NULL;
  uint64_t* hs;
  if (ncap > INT64_MAX / vd || (uint64_t)(ncap * vd) > SIZE_MAX / 16) {
    return 0;
  }
  hs = (uint64_t*)tfe_realloc(m->hashes, sizeof(uint64_t) * (size_t)ncap);
  if (hs == NULL) return 0;
  m->hashes = hs;
  if (m->kdt == TF_STRING) {
    sk = (lk_bytes*)tfe_realloc(m->skeys, sizeof(lk_bytes) * (size_t)ncap);
    if (sk == NULL) return 0;
    m->skeys = sk;
  } else {
    ik = (int64_t*)tfe_realloc(m->ikeys, sizeof(int64_t) * (size_t)ncap);
    if (ik == NULL) return 0;
    m->ikeys = ik;
  }
  if (m->vdt == TF_STRING) {
    lk_bytes* sv = (lk_bytes*)tfe_realloc(
        m->svals, sizeof(lk_bytes) * (size_t)(ncap * vd));
    if (sv == NULL) return 0;
    m->svals = sv;
  } else {
    unsigned char* v = (unsigned char*)tfe_realloc(
        m->vals, m->vesize * (size_t)(ncap * vd));
    if (v == NULL) return 0;
    m->vals = v;
  }
  m->cap = ncap;
  return 1;
}

static int dup_bytes(lk_bytes* dst, const char* p, size_t n) {
  dst->p = (char*)tfe_malloc(n > 0 ? n : 1);
  if (dst->p == NULL) return 0;
  if (n > 0) memcpy(dst->p, p, n);
  dst->n = n;
  return 1;
}

/* Sets entry e's value from a tensor block (strings copied). 0 on OOM,
 * with the entry's old strings kept. */
static int set_value_from_tensor(lk_map* m, int64_t e, const TF_Tensor* src,
                                 int64_t at) {
  int64_t j, vd = m->vdim;
  if (m->vdt == TF_STRING) {
    const TF_TString* s = (const TF_TString*)src->buf->data + at * vd;
    lk_bytes* dst = &m->svals[e * vd];
    lk_bytes tmp;
    for (j = 0; j < vd; j++) {
      if (!dup_bytes(&tmp, TF_TString_GetDataPointer(&s[j]),
                     TF_TString_GetSize(&s[j]))) {
        return 0;
      }
      tfe_free(dst[j].p);
      dst[j] = tmp;
    }
  } else if (m->vdt == TF_VARIANT) {
    tfe_variant** sl = tfe_variant_slots(src);
    for (j = 0; j < vd; j++) {
      tfe_variant* v = sl != NULL ? sl[at * vd + j] : NULL;
      if (v != NULL) tfe_variant_ref(v);
      tfe_variant_unref(var_at(m, e)[j]);
      var_at(m, e)[j] = v;
    }
  } else if (vd > 0) {
    memcpy(m->vals + (size_t)(e * vd) * m->vesize,
           (const unsigned char*)src->buf->data + (size_t)(at * vd) * m->vesize,
           (size_t)vd * m->vesize);
  }
  return 1;
}

static int set_value_scalar(lk_map* m, int64_t e, const void* pod,
                            const char* sp, size_t sn) {
  if (m->vdim != 1) return 1;
  if (m->vdt == TF_STRING) {
    lk_bytes tmp;
    if (!dup_bytes(&tmp, sp, sn)) return 0;
    tfe_free(m->svals[e].p);
    m->svals[e] = tmp;
  } else {
    memcpy(m->vals + (size_t)e * m->vesize, pod, m->vesize);
  }
  return 1;
}

/* Compares entry e's value with a tensor block as TF's operator!= on the
 * element type does (floats by value: NaN differs from itself). */
static int value_differs(const lk_map* m, int64_t e, const TF_Tensor* src,
                         int64_t at) {
  int64_t j, vd = m->vdim;
  const void* sd = src->buf->data;
  for (j = 0; j < vd; j++) {
    int64_t a = e * vd + j, b = at * vd + j;
    switch (m->vdt) {
      case TF_STRING: {
        const TF_TString* s = (const TF_TString*)sd + b;
        size_t n = TF_TString_GetSize(s);
        if (m->svals[a].n != n ||
            (n > 0 && memcmp(m->svals[a].p, TF_TString_GetDataPointer(s), n))) {
          return 1;
        }
        break;
      }
      case TF_FLOAT: {
        float x, y = ((const float*)sd)[b];
        memcpy(&x, m->vals + (size_t)a * 4, 4);
        if (x != y) return 1;
        break;
      }
      case TF_DOUBLE: {
        double x, y = ((const double*)sd)[b];
        memcpy(&x, m->vals + (size_t)a * 8, 8);
        if (x != y) return 1;
        break;
      }
      default:
        if (memcmp(m->vals + (size_t)a * m->vesize,
                   (const unsigned char*)sd + (size_t)b * m->vesize,
                   m->vesize) != 0) {
          return 1;
        }
        break;
    }
  }
  return 0;
}

static int scalar_differs(const lk_map* m, int64_t e, const void* pod,
                          const char* sp, size_t sn) {
  if (m->vdim != 1) return 0;
  switch (m->vdt) {
    case TF_STRING:
      return m->svals[e].n != sn ||
             (sn > 0 && memcmp(m->svals[e].p, sp, sn) != 0);
    case TF_FLOAT: {
      float x, y;
      memcpy(&x, m->vals + (size_t)e * 4, 4);
      memcpy(&y, pod, 4);
      return x != y;
    }
    case TF_DOUBLE: {
      double x, y;
      memcpy(&x, m->vals + (size_t)e * 8, 8);
      memcpy(&y, pod, 8);
      return x != y;
    }
    default:
      return memcmp(m->vals + (size_t)e * m->vesize, pod, m->vesize) != 0;
  }
}

/* Finds key or adds an entry for it with an empty value; *added tells
 * which. -1 on OOM. */
static int64_t find_or_add(lk_map* m, lk_key k, int* added) {
  uint64_t h = key_hash(m, k);
  int found;
  int64_t s, e, j;
  *added = 0;
  if (m->slots == NULL || (m->nused + 1) * 4 > m->nslots * 3) {
    if (!reindex(m, m->n + 1)) return -1;
  }
  s = probe(m, k, h, &found);
  if (found) return m->slots[s];
  if (m->n == m->cap && !grow_entries(m)) return -1;
  e = m->n;
  if (m->kdt == TF_STRING) {
    if (!dup_bytes(&m->skeys[e], k.p, k.n)) return -1;
  } else {
    m->ikeys[e] = k.i;
  }
  m->hashes[e] = h;
  if (m->vdt == TF_STRING) {
    for (j = 0; j < m->vdim; j++) {
      m->svals[e * m->vdim + j].p = NULL;
      m->svals[e * m->vdim + j].n = 0;
    }
  } else if (m->vdim > 0) {
    memset(m->vals + (size_t)(e * m->vdim) * m->vesize, 0,
           (size_t)m->vdim * m->vesize);
  }
  if (m->slots[s] == SLOT_EMPTY) m->nused++;
  m->slots[s] = e;
  m->n++;
  *added = 1;
  return e;
}

/* Takes back an entry just added (its value could not be set). */
static void drop_last(lk_map* m, lk_key k) {
  lk_map_remove(m, k);
}

int lk_map_put(lk_map* m, lk_key k, const TF_Tensor* vals, int64_t at,
               int keep_first, int64_t* conflict) {
  int added;
  int64_t e = find_or_add(m, k, &added);
  *conflict = -1;
  if (e < 0) return 0;
  if (!added && keep_first) {
    if (value_differs(m, e, vals, at)) *conflict = e;
    return 1;
  }
  if (!set_value_from_tensor(m, e, vals, at)) {
    if (added) drop_last(m, k);
    return 0;
  }
  return 1;
}

int lk_map_put_scalar(lk_map* m, lk_key k, const void* pod, const char* sp,
                      size_t sn, int keep_first, int64_t* conflict) {
  int added;
  int64_t e = find_or_add(m, k, &added);
  *conflict = -1;
  if (e < 0) return 0;
  if (!added && keep_first) {
    if (scalar_differs(m, e, pod, sp, sn)) *conflict = e;
    return 1;
  }
  if (!set_value_scalar(m, e, pod, sp, sn)) {
    if (added) drop_last(m, k);
    return 0;
  }
  return 1;
}

void lk_map_remove(lk_map* m, lk_key k) {
  int found;
  int64_t s, e, last, j, vd = m->vdim;
  if (m->n == 0 || m->slots == NULL) return;
  s = probe(m, k, key_hash(m, k), &found);
  if (!found) return;
  e = m->slots[s];
  m->slots[s] = SLOT_REMOVED;
  last = m->n - 1;
  /* Free entry e's data, then move the last entry into its place. */
  if (m->kdt == TF_STRING) tfe_free(m->skeys[e].p);
  if (m->vdt == TF_STRING) {
    for (j = 0; j < vd; j++) tfe_free(m->svals[e * vd + j].p);
  }
  unref_values(m, e);
  if (e != last) {
    int f2;
    int64_t s2 = probe(m, entry_key(m, last), m->hashes[last], &f2);
    if (m->kdt == TF_STRING) {
      m->skeys[e] = m->skeys[last];
    } else {
      m->ikeys[e] = m->ikeys[last];
    }
    m->hashes[e] = m->hashes[last];
    if (m->vdt == TF_STRING) {
      for (j = 0; j < vd; j++) m->svals[e * vd + j] = m->svals[last * vd + j];
    } else if (vd > 0) {
      memcpy(m->vals + (size_t)(e * vd) * m->vesize,
             m->vals + (size_t)(last * vd) * m->vesize,
             (size_t)vd * m->vesize);
    }
    if (f2) m->slots[s2] = e;
  }
  m->n--;
}

/* ---- values out ---- */

void lk_map_copy_value(const lk_map* m, int64_t e, TF_Tensor* dst,
                       int64_t at) {
  int64_t j, vd = m->vdim;
  if (m->vdt == TF_STRING) {
    TF_TString* d = (TF_TString*)dst->buf->data + at * vd;
    for (j = 0; j < vd; j++) {
      const lk_bytes* b = &m->svals[e * vd + j];
      TF_TString_Copy(&d[j], b->p != NULL ? b->p : "", b->n);
    }
  } else if (m->vdt == TF_VARIANT) {
    tfe_variant** sl = tfe_variant_slots(dst);
    for (j = 0; sl != NULL && j < vd; j++) {
      tfe_variant* v = var_at(m, e)[j];
      if (v != NULL) tfe_variant_ref(v);
      tfe_variant_unref(sl[at * vd + j]);
      sl[at * vd + j] = v;
    }
  } else if (vd > 0) {
    memcpy((unsigned char*)dst->buf->data + (size_t)(at * vd) * m->vesize,
           m->vals + (size_t)(e * vd) * m->vesize, (size_t)vd * m->vesize);
  }
}

void lk_copy_block(TF_DataType vdt, int64_t vdim, const TF_Tensor* src,
                   int64_t from, TF_Tensor* dst, int64_t at) {
  int64_t j;
  if (vdt == TF_STRING) {
    const TF_TString* s = (const TF_TString*)src->buf->data + from * vdim;
    TF_TString* d = (TF_TString*)dst->buf->data + at * vdim;
    for (j = 0; j < vdim; j++) {
      TF_TString_Copy(&d[j], TF_TString_GetDataPointer(&s[j]),
                      TF_TString_GetSize(&s[j]));
    }
  } else if (vdt == TF_VARIANT) {
    tfe_variant** ss = tfe_variant_slots(src);
    tfe_variant** ds = tfe_variant_slots(dst);
    for (j = 0; ss != NULL && ds != NULL && j < vdim; j++) {
      tfe_variant* v = ss[from * vdim + j];
      if (v != NULL) tfe_variant_ref(v);
      tfe_variant_unref(ds[at * vdim + j]);
      ds[at * vdim + j] = v;
    }
  } else if (vdim > 0) {
    size_t es = pod_size(vdt);
    memcpy((unsigned char*)dst->buf->data + (size_t)(at * vdim) * es,
           (const unsigned char*)src->buf->data + (size_t)(from * vdim) * es,
           (size_t)vdim * es);
  }
}

/* ---- messages ---- */

void lk_key_text(const lk_map* m, lk_key k, char* buf, size_t cap) {
  if (m->kdt == TF_STRING) {
    snprintf(buf, cap, "%.*s", (int)(k.n > 200 ? 200 : k.n),
             k.p != NULL ? k.p : "");
  } else {
    snprintf(buf, cap, "%lld", (long long)k.i);
  }
}

void lk_scalar_value_text(TF_DataType vdt, const void* pod, const char* sp,
                          size_t sn, char* buf, size_t cap) {
  switch (vdt) {
    case TF_STRING:
      if (sp == NULL) sn = 0;
      snprintf(buf, cap, "%.*s", (int)(sn > 200 ? 200 : sn),
               sp != NULL ? sp : "");
      break;
    case TF_BOOL:
      snprintf(buf, cap, "%d", *(const unsigned char*)pod != 0);
      break;
    case TF_INT32: {
      int32_t v;
      memcpy(&v, pod, 4);
      snprintf(buf, cap, "%d", (int)v);
      break;
    }
    case TF_INT64: {
      int64_t v;
      memcpy(&v, pod, 8);
      snprintf(buf, cap, "%lld", (long long)v);
      break;
    }
    case TF_FLOAT: {
      float v;
      memcpy(&v, pod, 4);
      snprintf(buf, cap, "%g", (double)v);
      break;
    }
    case TF_DOUBLE: {
      double v;
      memcpy(&v, pod, 8);
      snprintf(buf, cap, "%g", v);
      break;
    }
    default: snprintf(buf, cap, "?"); break;
  }
}

void lk_value_text(const lk_map* m, int64_t e, char* buf, size_t cap) {
  if (m->vdt == TF_STRING) {
    const lk_bytes* b = &m->svals[e * m->vdim];
    lk_scalar_value_text(m->vdt, NULL, b->p, b->n, buf, cap);
  } else {
    lk_scalar_value_text(m->vdt, m->vals + (size_t)(e * m->vdim) * m->vesize,
                         NULL, 0, buf, cap);
  }
}

void lk_tensor_value_text(TF_DataType vdt, const TF_Tensor* t, int64_t i,
                          char* buf, size_t cap) {
  if (vdt == TF_STRING) {
    const TF_TString* s = (const TF_TString*)t->buf->data + i;
    lk_scalar_value_text(vdt, NULL, TF_TString_GetDataPointer(s),
                         TF_TString_GetSize(s), buf, cap);
  } else {
    lk_scalar_value_text(
        vdt, (const unsigned char*)t->buf->data + (size_t)i * pod_size(vdt),
        NULL, 0, buf, cap);
  }
}
