/* Helpers shared by the string processing kernels (text_*.c): a growable
 * byte buffer, a growable list of (offset, length) pieces, and access to
 * string tensor elements. Everything is static inline. */
#ifndef TFE_KERNELS_CPU_TEXT_UTIL_H_
#define TFE_KERNELS_CPU_TEXT_UTIL_H_

#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "tensorflow/c/tf_tstring.h"

static inline const TF_TString* tx_sdata(const TF_Tensor* t) {
  return (const TF_TString*)kutil_data(t);
}
static inline TF_TString* tx_sdata_mut(TF_Tensor* t) {
  return (TF_TString*)kutil_data(t);
}
static inline const char* tx_ptr(const TF_Tensor* t, int64_t i) {
  return TF_TString_GetDataPointer(&tx_sdata(t)[i]);
}
static inline size_t tx_len(const TF_Tensor* t, int64_t i) {
  return TF_TString_GetSize(&tx_sdata(t)[i]);
}

/* A byte buffer; ok turns 0 (and stays 0) when memory ran out. */
typedef struct tx_buf {
  char* p;
  size_t n, cap;
  int ok;
} tx_buf;

static inline void tx_buf_init(tx_buf* b) {
  b->p = NULL;
  b->n = b->cap = 0;
  b->ok = 1;
}
static inline void tx_buf_free(tx_buf* b) {
  tfe_free(b->p);
  tx_buf_init(b);
}
static inline int tx_buf_reserve(tx_buf* b, size_t extra) {
  size_t need, cap;
  if (!b->ok) return 0;
  if (!tfe_checked_add_sz(b->n, extra, &need)) {
    b->ok = 0;
    return 0;
  }
  if (need <= b->cap) return 1;
  cap = b->cap < 64 ? 64 : b->cap;
  while (cap < need) {
    if (cap > SIZE_MAX / 2) {
      cap = need;
      break;
    }
    cap *= 2;
  }
  {
    char* np = (char*)tfe_realloc(b->p, cap);
    if (np == NULL) {
      b->ok = 0;
      return 0;
    }
    b->p = np;
    b->cap = cap;
  }
  return 1;
}
static inline void tx_buf_add(tx_buf* b, const void* s, size_t n) {
  if (n == 0 || !tx_buf_reserve(b, n)) return;
  memcpy(b->p + b->n, s, n);
  b->n += n;
}
static inline void tx_buf_addc(tx_buf* b, char c) { tx_buf_add(b, &c, 1); }
static inline void tx_buf_adds(tx_buf* b, const char* s) {
  tx_buf_add(b, s, strlen(s));
}

/* A list of pieces (byte ranges) with the row each belongs to. */
typedef struct tx_piece {
  const char* p;
  size_t n;
  int64_t row, col;
} tx_piece;

typedef struct tx_pieces {
  tx_piece* v;
  int64_t n, cap;
  int ok;
} tx_pieces;

static inline void tx_pieces_init(tx_pieces* l) {
  l->v = NULL;
  l->n = l->cap = 0;
  l->ok = 1;
}
static inline void tx_pieces_free(tx_pieces* l) {
  tfe_free(l->v);
  tx_pieces_init(l);
}
static inline int tx_pieces_add(tx_pieces* l, const char* p, size_t n,
                                int64_t row, int64_t col) {
  if (!l->ok) return 0;
  if (l->n == l->cap) {
    int64_t cap = l->cap < 16 ? 16 : l->cap * 2;
    size_t bytes;
    tx_piece* nv;
    if (!tfe_checked_mul_sz((size_t)cap, sizeof(tx_piece), &bytes)) {
      l->ok = 0;
      return 0;
    }
    nv = (tx_piece*)tfe_realloc(l->v, bytes);
    if (nv == NULL) {
      l->ok = 0;
      return 0;
    }
    l->v = nv;
    l->cap = cap;
  }
  l->v[l->n].p = p;
  l->v[l->n].n = n;
  l->v[l->n].row = row;
  l->v[l->n].col = col;
  l->n++;
  return 1;
}

/* Attr string with a default when absent (hand-built contexts). */
static inline const char* tx_attr_s(const tfe_kernel_context* k,
                                    const char* name, const char* dflt,
                                    size_t* len) {
  const char* s = NULL;
  size_t n = 0;
  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, name, &s, &n, NULL)) {
    *len = strlen(dflt);
    return dflt;
  }
  *len = n;
  return s;
}

/* Stores (p, n) into string element dst; 0 (status set) when memory ran
 * out. */
static inline int tx_set(tfe_kernel_context* k, TF_TString* dst,
                         const char* p, size_t n) {
  if (n > 0 && TF_TString_ResizeUninitialized(dst, n) == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory for a string of %zu "
               "bytes", n);
    return 0;
  }
  if (n > 0) memcpy(TF_TString_GetMutableDataPointer(dst), p, n);
  return 1;
}

#endif /* TFE_KERNELS_CPU_TEXT_UTIL_H_ */
