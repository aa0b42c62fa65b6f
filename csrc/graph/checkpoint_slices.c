/* Tensor slices for the checkpoint ops (see checkpoint_ops.h): parsing and
 * rendering TensorFlow's slice and shape_and_slice strings, the
 * TensorSliceProto wire form, the ordered-code keys slices are stored
 * under, and copying the overlap of two slices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "graph/checkpoint_ops.h"
#include "ops/attr_value.h"
#include "tensorflow/c/tf_tstring.h"

void tfe_tslice_free(tfe_tslice* s) {
  if (s == NULL) return;
  tfe_free(s->se);
  s->se = NULL;
  s->rank = 0;
}

int tfe_tslice_init_full(tfe_tslice* s, int rank) {
  int d;
  s->rank = 0;
  s->se = NULL;
  if (rank > 0) {
    s->se = (int64_t*)tfe_malloc((size_t)rank * 2 * sizeof(int64_t));
    if (s->se == NULL) return 0;
  }
  s->rank = rank;
  for (d = 0; d < rank; d++) {
    s->se[2 * d] = 0;
    s->se[2 * d + 1] = TFE_TSLICE_FULL;
  }
  return 1;
}

int tfe_tslice_copy(tfe_tslice* dst, const tfe_tslice* src) {
  if (!tfe_tslice_init_full(dst, src->rank)) return 0;
  if (src->rank > 0)
    memcpy(dst->se, src->se, (size_t)src->rank * 2 * sizeof(int64_t));
  return 1;
}

int tfe_tslice_is_full_at(const tfe_tslice* s, int d) {
  return s->se[2 * d] == 0 && s->se[2 * d + 1] == TFE_TSLICE_FULL;
}

int tfe_tslice_is_full(const tfe_tslice* s) {
  int d;
  for (d = 0; d < s->rank; d++)
    if (!tfe_tslice_is_full_at(s, d)) return 0;
  return 1;
}

int tfe_tslice_equal(const tfe_tslice* a, const tfe_tslice* b) {
  return a->rank == b->rank &&
         (a->rank == 0 ||
          memcmp(a->se, b->se, (size_t)a->rank * 2 * sizeof(int64_t)) == 0);
}

static void put_str(tfe_pbw* b, const char* s) { tfe_pbw_bytes(b, s, strlen(s)); }

void tfe_tslice_debug(const tfe_tslice* s, tfe_pbw* b) {
  int d;
  char buf[64];
  for (d = 0; d < s->rank; d++) {
    if (d > 0) put_str(b, ":");
    if (tfe_tslice_is_full_at(s, d)) {
      put_str(b, "-");
    } else {
      snprintf(buf, sizeof buf, "%lld,%lld", (long long)s->se[2 * d],
               (long long)s->se[2 * d + 1]);
      put_str(b, buf);
    }
  }
}

void tfe_ckpt_shape_str(const int64_t* dims, int rank, tfe_pbw* b) {
  int d;
  char buf[32];
  put_str(b, "[");
  for (d = 0; d < rank; d++) {
    snprintf(buf, sizeof buf, d ? ",%lld" : "%lld", (long long)dims[d]);
    put_str(b, buf);
  }
  put_str(b, "]");
}

const char* tfe_ckpt_dtype_name(TF_DataType t) {
  const char* n = tfe_dtype_short_name(t);
  return n != NULL ? n : "unknown";
}

/* A NUL-terminated copy of a pbw's text for messages (never NULL). */
static const char* pbw_text(tfe_pbw* b) {
  tfe_pbw_bytes(b, "", 1);
  return b->oom || b->data == NULL ? "" : (const char*)b->data;
}

/* TF's safe_strto64: optional surrounding whitespace and sign, decimal
 * digits, no overflow. */
static int parse_i64(const char* s, size_t n, int64_t* out) {
  size_t i = 0;
  int neg = 0;
  uint64_t v = 0, lim;
  while (i < n && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))) i++;
  while (n > i && (s[n - 1] == ' ' || (s[n - 1] >= '\t' && s[n - 1] <= '\r')))
    n--;
  if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  if (i >= n) return 0;
  lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; i < n; i++) {
    unsigned dgt;
    if (s[i] < '0' || s[i] > '9') return 0;
    dgt = (unsigned)(s[i] - '0');
    if (v > (lim - dgt) / 10) return 0;
    v = v * 10 + dgt;
  }
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return 1;
}

int tfe_tslice_parse(const char* str, size_t n, tfe_tslice* out,
                     TF_Status* status) {
  size_t i = 0, cap = 0;
  out->rank = 0;
  out->se = NULL;
  while (i <= n) {
    size_t j = i;
    int64_t s, l;
    while (j < n && str[j] != ':') j++;
    if (j > i) {
      const char* x = str + i;
      size_t xl = j - i;
      if (xl == 1 && x[0] == '-') {
        s = 0;
        l = TFE_TSLICE_FULL;
      } else {
        /* "start,length", empty pieces skipped */
        const char* parts[3];
        size_t plen[3];
        int np = 0;
        size_t a = 0;
        while (a <= xl) {
          size_t c = a;
          while (c < xl && x[c] != ',') c++;
          if (c > a) {
            if (np < 3) {
              parts[np] = x + a;
              plen[np] = c - a;
            }
            np++;
          }
          a = c + 1;
        }
        if (np != 2 || !parse_i64(parts[0], plen[0], &s) ||
            !parse_i64(parts[1], plen[1], &l)) {
          tfe_status_setf(status, TF_INVALID_ARGUMENT,
                          "Expected a pair of numbers or '-' but got '%.*s': "
                          "string = %.*s",
                          (int)xl, x, (int)n, str);
          tfe_tslice_free(out);
          return 0;
        }
        if (s < 0 || l <= 0) {
          tfe_status_setf(status, TF_INVALID_ARGUMENT,
                          "Expected non-negative start and positive length "
                          "but got start = %lld, length = %lld: string = %.*s",
                          (long long)s, (long long)l, (int)n, str);
          tfe_tslice_free(out);
          return 0;
        }
        if (s > INT64_MAX - l) {
          tfe_status_setf(status, TF_INVALID_ARGUMENT,
                          "Extent end exceeds the maximum possible size: "
                          "string = %.*s",
                          (int)n, str);
          tfe_tslice_free(out);
          return 0;
        }
      }
      if ((size_t)out->rank == cap) {
        size_t nc = cap ? cap * 2 : 4;
        int64_t* se = (int64_t*)tfe_realloc(out->se, nc * 2 * sizeof(int64_t));
        if (se == NULL || nc > 1000000) {
          if (se != NULL) out->se = se;
          tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                          "out of memory parsing a slice");
          tfe_tslice_free(out);
          return 0;
        }
        out->se = se;
        cap = nc;
      }
      out->se[2 * out->rank] = s;
      out->se[2 * out->rank + 1] = l;
      out->rank++;
    }
    i = j + 1;
  }
  return 1;
}

int tfe_tslice_shape(const tfe_tslice* s, const int64_t* dims, int rank,
                     int64_t** out, TF_Status* status) {
  int d;
  int64_t* r = NULL;
  *out = NULL;
  if (rank != s->rank) {
    tfe_pbw a = {0}, b = {0};
    tfe_ckpt_shape_str(dims, rank, &a);
    tfe_tslice_debug(s, &b);
    tfe_status_setf(status, TF_INTERNAL,
                    "Mismatching ranks: shape = %s, slice = %s", pbw_text(&a),
                    pbw_text(&b));
    tfe_pbw_free(&a);
    tfe_pbw_free(&b);
    return 0;
  }
  if (rank > 0) {
    r = (int64_t*)tfe_malloc((size_t)rank * sizeof(int64_t));
    if (r == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
      return 0;
    }
  }
  for (d = 0; d < rank; d++) {
    if (tfe_tslice_is_full_at(s, d)) {
      r[d] = dims[d];
    } else if (s->se[2 * d + 1] >= 0 && s->se[2 * d] >= 0 &&
               s->se[2 * d] <= INT64_MAX - s->se[2 * d + 1] &&
               s->se[2 * d] + s->se[2 * d + 1] <= dims[d]) {
      r[d] = s->se[2 * d + 1];
    } else {
      tfe_pbw a = {0}, b = {0};
      tfe_ckpt_shape_str(dims, rank, &a);
      tfe_tslice_debug(s, &b);
      tfe_status_setf(status, TF_INTERNAL,
                      "Extent in dimension %d out of bounds: shape = %s, "
                      "slice = %s",
                      d, pbw_text(&a), pbw_text(&b));
      tfe_pbw_free(&a);
      tfe_pbw_free(&b);
      tfe_free(r);
      return 0;
    }
  }
  *out = r;
  return 1;
}

int tfe_tslice_covers(const tfe_tslice* s, const int64_t* dims, int rank) {
  int d;
  if (tfe_tslice_is_full(s)) return 1;
  if (s->rank != rank) return rank == 0 && s->rank == 0;
  for (d = 0; d < rank; d++) {
    if (tfe_tslice_is_full_at(s, d)) continue;
    if (s->se[2 * d] < 0 || s->se[2 * d] > INT64_MAX - s->se[2 * d + 1] ||
        s->se[2 * d] + s->se[2 * d + 1] > dims[d])
      return 0; /* TF: the shape error empties the sliced shape */
    if (s->se[2 * d + 1] != dims[d]) return 0;
  }
  return 1;
}

static int64_t slice_end(const tfe_tslice* s, int d) {
  return s->se[2 * d] + s->se[2 * d + 1];
}

int tfe_tslice_intersect(const tfe_tslice* a, const tfe_tslice* b,
                         tfe_tslice* out) {
  int d;
  if (a->rank != b->rank) return 0;
  if (out != NULL && !tfe_tslice_init_full(out, a->rank)) return 0;
  for (d = 0; d < a->rank; d++) {
    int64_t s, l;
    if (tfe_tslice_is_full_at(a, d)) {
      s = b->se[2 * d];
      l = b->se[2 * d + 1];
    } else if (tfe_tslice_is_full_at(b, d)) {
      s = a->se[2 * d];
      l = a->se[2 * d + 1];
    } else {
      int64_t ea = slice_end(a, d), eb = slice_end(b, d);
      s = a->se[2 * d] > b->se[2 * d] ? a->se[2 * d] : b->se[2 * d];
      l = (ea < eb ? ea : eb) - s;
      if (l <= 0) {
        if (out != NULL) tfe_tslice_free(out);
        return 0;
      }
    }
    if (out != NULL) {
      out->se[2 * d] = s;
      out->se[2 * d + 1] = l;
    }
  }
  return 1;
}

void tfe_tslice_to_proto(const tfe_tslice* s, tfe_pbw* b) {
  int d;
  for (d = 0; d < s->rank; d++) {
    tfe_pbw e = {0};
    if (!tfe_tslice_is_full_at(s, d)) {
      if (s->se[2 * d] != 0) tfe_pbw_uint(&e, 1, (uint64_t)s->se[2 * d]);
      tfe_pbw_uint(&e, 2, (uint64_t)s->se[2 * d + 1]);
    }
    tfe_pbw_sub(b, 1, &e);
  }
}

int tfe_tslice_from_proto(const unsigned char* p, size_t n, tfe_tslice* out) {
  tfe_pbr r;
  int field, wire;
  size_t cap = 0;
  out->rank = 0;
  out->se = NULL;
  r.p = p;
  r.end = p + n;
  while (r.p < r.end) {
    if (!tfe_pbr_tag(&r, &field, &wire)) goto bad;
    if (field == 1 && wire == 2) {
      tfe_pbr e;
      int64_t s = 0, l = TFE_TSLICE_FULL;
      if (!tfe_pbr_len(&r, &e)) goto bad;
      while (e.p < e.end) {
        int f, w;
        uint64_t v;
        if (!tfe_pbr_tag(&e, &f, &w)) goto bad;
        if ((f == 1 || f == 2) && w == 0) {
          if (!tfe_pbr_varint(&e, &v)) goto bad;
          if (f == 1) s = (int64_t)v;
          else l = (int64_t)v;
        } else if (!tfe_pbr_skip(&e, f, w)) {
          goto bad;
        }
      }
      /* TF's BuildTensorSlice checks: a non-full extent needs a
       * non-negative start, a positive length and an end that fits. */
      if (s != 0 || l != TFE_TSLICE_FULL) {
        if (s < 0 || l <= 0 || s > INT64_MAX - l) goto bad;
      }
      if ((size_t)out->rank == cap) {
        size_t nc = cap ? cap * 2 : 4;
        int64_t* se;
        if (nc > 4096) goto bad;
        se = (int64_t*)tfe_realloc(out->se, nc * 2 * sizeof(int64_t));
        if (se == NULL) goto bad;
        out->se = se;
        cap = nc;
      }
      out->se[2 * out->rank] = s;
      out->se[2 * out->rank + 1] = l;
      out->rank++;
    } else if (!tfe_pbr_skip(&r, field, wire)) {
      goto bad;
    }
  }
  return 1;
bad:
  tfe_tslice_free(out);
  return 0;
}

/* ---- ordered code (TensorFlow's strings::OrderedCode) ---- */

static void oc_num_increasing(tfe_pbw* b, uint64_t v) {
  unsigned char buf[9];
  int len = 0;
  while (v > 0) {
    len++;
    buf[9 - len] = (unsigned char)(v & 0xff);
    v >>= 8;
  }
  buf[9 - len - 1] = (unsigned char)len;
  tfe_pbw_bytes(b, buf + 9 - len - 1, (size_t)len + 1);
}

static void oc_string(tfe_pbw* b, const char* s, size_t n) {
  size_t i;
  static const unsigned char esc0[2] = {0x00, 0xff}, escff[2] = {0xff, 0x00},
                             sep[2] = {0x00, 0x01};
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == 0x00) tfe_pbw_bytes(b, esc0, 2);
    else if (c == 0xff) tfe_pbw_bytes(b, escff, 2);
    else tfe_pbw_bytes(b, &c, 1);
  }
  tfe_pbw_bytes(b, sep, 2);
}

static int log2_floor64(uint64_t x) {
  int r = -1;
  while (x) {
    r++;
    x >>= 1;
  }
  return r;
}

static void oc_signed_increasing(tfe_pbw* b, int64_t val) {
  static const unsigned char header[11][2] = {
      {0, 0},    {0x80, 0}, {0xc0, 0}, {0xe0, 0},    {0xf0, 0},   {0xf8, 0},
      {0xfc, 0}, {0xfe, 0}, {0xff, 0}, {0xff, 0x80}, {0xff, 0xc0}};
  static const signed char bits_to_len[64] = {
      1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 4,
      4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 7,
      7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 10};
  uint64_t x = val < 0 ? ~(uint64_t)val : (uint64_t)val;
  unsigned char buf[10];
  int len, i;
  if (x < 64) {
    unsigned char c = (unsigned char)(0x80 ^ (unsigned char)(uint64_t)val);
    tfe_pbw_bytes(b, &c, 1);
    return;
  }
  buf[0] = buf[1] = val < 0 ? 0xff : 0x00;
  for (i = 0; i < 8; i++)
    buf[2 + i] = (unsigned char)((uint64_t)val >> (56 - 8 * i));
  len = bits_to_len[log2_floor64(x) + 1];
  buf[10 - len] ^= header[len][0];
  buf[10 - len + 1] ^= header[len][1];
  tfe_pbw_bytes(b, buf + 10 - len, (size_t)len);
}

void tfe_tslice_encode_key(const char* name, size_t name_len,
                           const tfe_tslice* s, tfe_pbw* b) {
  int d;
  oc_num_increasing(b, 0);
  oc_string(b, name, name_len);
  oc_num_increasing(b, (uint64_t)s->rank);
  for (d = 0; d < s->rank; d++) {
    oc_signed_increasing(b, s->se[2 * d]);
    oc_signed_increasing(b, s->se[2 * d + 1]);
  }
}

int tfe_parse_shape_and_slice(const char* str, size_t n, int64_t** full_dims,
                              int* rank, tfe_tslice* slice,
                              int64_t** slice_dims, TF_Status* status) {
  size_t last = n, i, count = 0;
  int64_t* dims = NULL;
  int nd = 0;
  *full_dims = NULL;
  *slice_dims = NULL;
  *rank = 0;
  slice->rank = 0;
  slice->se = NULL;
  for (i = 0; i < n; i++) {
    if (str[i] == ' ') {
      count++;
      last = i;
    }
  }
  /* Split on every ' ' (empty pieces kept): count + 1 pieces. */
  if (count + 1 < 2) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Need least two elements in shape_and_slice "
                    "specification: %.*s",
                    (int)n, str);
    return 0;
  }
  if (!tfe_tslice_parse(str + last + 1, n - last - 1, slice, status)) return 0;
  dims = (int64_t*)tfe_malloc(count * sizeof(int64_t));
  if (dims == NULL) {
    tfe_tslice_free(slice);
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory");
    return 0;
  }
  {
    size_t a = 0;
    while (a <= last && nd < (int)count) {
      size_t c = a;
      int64_t v;
      while (c < last && str[c] != ' ') c++;
      if (!parse_i64(str + a, c - a, &v)) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Non numerical dimension in shape_and_slice: %.*s",
                        (int)n, str);
        goto fail;
      }
      if (v < 0) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Dimension %lld must be >= 0", (long long)v);
        goto fail;
      }
      dims[nd++] = v;
      a = c + 1;
    }
  }
  {
    /* The shape must have a representable element count. */
    int64_t total = 1;
    int d;
    for (d = 0; d < nd; d++) {
      if (dims[d] != 0 && total > INT64_MAX / dims[d]) {
        tfe_status_setf(status, TF_INVALID_ARGUMENT,
                        "Encountered overflow when multiplying shape "
                        "dimensions in shape_and_slice: %.*s",
                        (int)n, str);
        goto fail;
      }
      total *= dims[d];
    }
  }
  if (nd > 254) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "Too many dimensions in tensor");
    goto fail;
  }
  if (!tfe_tslice_shape(slice, dims, nd, slice_dims, status)) goto fail;
  *full_dims = dims;
  *rank = nd;
  return 1;
fail:
  tfe_free(dims);
  tfe_tslice_free(slice);
  return 0;
}

/* ---- copying the overlap of two slices ---- */

int tfe_tslice_copy_data(const int64_t* dims, int rank,
                         const tfe_tslice* src_slice,
                         const tfe_tslice* dst_slice, TF_DataType dtype,
                         size_t esize, const void* src, void* dst) {
  tfe_tslice inter;
  int64_t *sshape = NULL, *dshape = NULL, *idx = NULL, *len = NULL;
  int64_t *sstride = NULL, *dstride = NULL, *soff = NULL, *doff = NULL;
  int d, ok = 0;
  TF_Status* st;
  if (!tfe_tslice_intersect(src_slice, dst_slice, &inter)) return 0;
  st = TF_NewStatus();
  if (st == NULL) goto done;
  if (!tfe_tslice_shape(src_slice, dims, rank, &sshape, st) ||
      !tfe_tslice_shape(dst_slice, dims, rank, &dshape, st))
    goto done;
  if (rank > 0) {
    idx = (int64_t*)tfe_calloc((size_t)rank * 7, sizeof(int64_t));
    if (idx == NULL) goto done;
    len = idx + rank;
    sstride = len + rank;
    dstride = sstride + rank;
    soff = dstride + rank;
    doff = soff + rank;
  }
  for (d = rank - 1; d >= 0; d--) {
    int64_t is = tfe_tslice_is_full_at(&inter, d) ? 0 : inter.se[2 * d];
    int64_t il = tfe_tslice_is_full_at(&inter, d) ? dims[d] : inter.se[2 * d + 1];
    int64_t ss = tfe_tslice_is_full_at(src_slice, d) ? 0 : src_slice->se[2 * d];
    int64_t ds = tfe_tslice_is_full_at(dst_slice, d) ? 0 : dst_slice->se[2 * d];
    sstride[d] = d == rank - 1 ? 1 : sstride[d + 1] * sshape[d + 1];
    dstride[d] = d == rank - 1 ? 1 : dstride[d + 1] * dshape[d + 1];
    len[d] = il;
    soff[d] = is - ss;
    doff[d] = is - ds;
    if (il == 0) {
      ok = 1; /* nothing to copy */
      goto done;
    }
  }
  for (;;) {
    int64_t si = 0, di = 0;
    for (d = 0; d < rank; d++) {
      si += (soff[d] + idx[d]) * sstride[d];
      di += (doff[d] + idx[d]) * dstride[d];
    }
    if (dtype == TF_STRING) {
      TF_TString_Assign(&((TF_TString*)dst)[di],
                        &((const TF_TString*)src)[si]);
    } else {
      memcpy((char*)dst + (size_t)di * esize,
             (const char*)src + (size_t)si * esize, esize);
    }
    for (d = rank - 1; d >= 0; d--) {
      if (++idx[d] < len[d]) break;
      idx[d] = 0;
    }
    if (d < 0) break;
  }
  ok = 1;
done:
  tfe_free(idx);
  tfe_free(sshape);
  tfe_free(dshape);
  tfe_tslice_free(&inter);
  TF_DeleteStatus(st);
  return ok;
}
