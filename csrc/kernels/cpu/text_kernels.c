/* CPU kernels: string processing ops. This file: StringSplit,
 * StringSplitV2, the three StringToHashBucket ops, ReduceJoin,
 * UnsortedSegmentJoin, StringNGrams, EncodeBase64 and DecodeBase64, plus
 * the registration of every text kernel (StringFormat is in
 * text_format.c, the unicode ops in text_unicode.c, PrintV2 and Print in
 * text_print.c). Semantics, error
 * codes and messages follow TensorFlow 2.21's kernels. */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/text_hash.h"
#include "kernels/cpu/text_util.h"

void tfe_register_text_format_kernels(void);
void tfe_register_text_unicode_kernels(void);
void tfe_register_text_print_kernels(void);

/* ---- StringSplit / StringSplitV2 ---- */

static int tx_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
         c == '\r';
}

/* Python's str.split as TF's StringSplitV2 does it (see the op's doc):
 * sep empty splits on runs of whitespace with no empty pieces; maxsplit > 0
 * caps the number of splits (the rest of the text is the last piece);
 * maxsplit == 0 keeps the text whole. */
static void split_v2_row(tx_pieces* out, const char* s, size_t n,
                         const char* sep, size_t sl, int64_t maxsplit,
                         int64_t row) {
  int64_t col = 0, splits = 0;
  if (maxsplit == 0) {
    tx_pieces_add(out, s, n, row, 0);
    return;
  }
  if (sl == 0) {
    size_t i = 0;
    while (i < n && tx_is_space(s[i])) i++;
    while (i < n) {
      size_t b = i;
      while (i < n && !tx_is_space(s[i])) i++;
      tx_pieces_add(out, s + b, i - b, row, col++);
      while (i < n && tx_is_space(s[i])) i++;
      splits++;
      if (maxsplit > 0 && splits == maxsplit) {
        tx_pieces_add(out, s + i, n - i, row, col++);
        return;
      }
    }
    return;
  }
  {
    size_t b = 0, i = 0;
    while (sl <= n && i + sl <= n) {
      if (memcmp(s + i, sep, sl) != 0) {
        i++;
        continue;
      }
      tx_pieces_add(out, s + b, i - b, row, col++);
      i += sl;
      b = i;
      splits++;
      if (maxsplit > 0 && splits == maxsplit) break;
    }
    tx_pieces_add(out, s + b, n - b, row, col++);
  }
}

/* StringSplit (v1): every byte of the delimiter separates; an empty
 * delimiter splits into single bytes; an empty input gives no pieces. */
static void split_v1_row(tx_pieces* out, const char* s, size_t n,
                         const char* d, size_t dl, int skip_empty,
                         int64_t row) {
  int64_t col = 0;
  size_t i, b = 0;
  if (n == 0) return;
  if (dl == 0) {
    for (i = 0; i < n; i++) tx_pieces_add(out, s + i, 1, row, col++);
    return;
  }
  for (i = 0; i <= n; i++) {
    if (i == n || memchr(d, s[i], dl) != NULL) {
      if (!skip_empty || i > b) tx_pieces_add(out, s + b, i - b, row, col++);
      b = i + 1;
    }
  }
}

static void split_compute(tfe_kernel_context* k, int v2) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* sep = k->inputs[1];
  kutil_shape_buf sb;
  tx_pieces pieces;
  int64_t maxsplit = -1, rows, i, width = 0;
  int skip_empty = 1;
  TF_Tensor *ti, *tv, *ts;
  int64_t dims[2];
  const char* sp;
  size_t sl;
  if (v2) {
    int32_t m;
    if (!kutil_attr_int32(k, "maxsplit", -1, &m)) return;
    maxsplit = m;
  } else {
    skip_empty = kutil_attr_bool(k, "skip_empty", 1);
  }
  if (in->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be a vector, got shape: %s",
               kutil_tshape(in, &sb));
    return;
  }
  if (sep->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be a scalar, got shape: %s",
               v2 ? "sep" : "delimiter", kutil_tshape(sep, &sb));
    return;
  }
  sp = tx_ptr(sep, 0);
  sl = tx_len(sep, 0);
  rows = in->dims[0];
  tx_pieces_init(&pieces);
  for (i = 0; i < rows; i++) {
    int64_t before = pieces.n;
    if (v2) {
      split_v2_row(&pieces, tx_ptr(in, i), tx_len(in, i), sp, sl, maxsplit,
                   i);
    } else {
      split_v1_row(&pieces, tx_ptr(in, i), tx_len(in, i), sp, sl, skip_empty,
                   i);
    }
    if (pieces.n - before > width) width = pieces.n - before;
    if (!pieces.ok) break;
  }
  if (!pieces.ok) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory splitting strings");
    tx_pieces_free(&pieces);
    return;
  }
  dims[0] = pieces.n;
  dims[1] = 2;
  ti = tfe_kernel_alloc_output(k, 0, TF_INT64, dims, 2);
  tv = ti != NULL ? tfe_kernel_alloc_output(k, 1, TF_STRING, dims, 1) : NULL;
  dims[0] = 2;
  ts = tv != NULL ? tfe_kernel_alloc_output(k, 2, TF_INT64, dims, 1) : NULL;
  if (ts != NULL) {
    int64_t* id = (int64_t*)kutil_data(ti);
    int64_t* sd = (int64_t*)kutil_data(ts);
    for (i = 0; i < pieces.n; i++) {
      id[2 * i] = pieces.v[i].row;
      id[2 * i + 1] = pieces.v[i].col;
      if (!tx_set(k, &tx_sdata_mut(tv)[i], pieces.v[i].p, pieces.v[i].n)) {
        break;
      }
    }
    sd[0] = rows;
    sd[1] = width;
  }
  tx_pieces_free(&pieces);
}

static void split_v1_compute(tfe_kernel_context* k) { split_compute(k, 0); }
static void split_v2_compute(tfe_kernel_context* k) { split_compute(k, 1); }

/* ---- StringToHashBucket{,Fast,Strong} ---- */

enum { HASH_FAST, HASH_STRONG, HASH_LEGACY };

static void hash_compute(tfe_kernel_context* k, int kind) {
  const TF_Tensor* in = k->inputs[0];
  int64_t nb = kutil_attr_int64(k, "num_buckets", 1), n, i;
  uint64_t k0 = 0, k1 = 0;
  TF_Tensor* out;
  int64_t* o;
  if (nb < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num_buckets must be at least 1, got %lld", (long long)nb);
    return;
  }
  if (kind == HASH_STRONG) {
    const int64_t* key = NULL;
    int nk = 0;
    if (k->attrs == NULL ||
        !tfe_attrs_get_int_list(k->attrs, "key", &key, &nk, NULL) ||
        nk != 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Key must have 2 elements");
      return;
    }
    k0 = (uint64_t)key[0];
    k1 = (uint64_t)key[1];
  }
  out = tfe_kernel_alloc_output(k, 0, TF_INT64, in->dims, in->num_dims);
  if (out == NULL) return;
  o = (int64_t*)kutil_data(out);
  n = kutil_num_elements(in);
  for (i = 0; i < n; i++) {
    const char* p = tx_ptr(in, i);
    size_t len = tx_len(in, i);
    uint64_t h = kind == HASH_FAST     ? tfe_farmhash_fingerprint64(p, len)
                 : kind == HASH_STRONG ? tfe_siphash24(k0, k1, p, len)
                                       : tfe_tf_legacy_hash64(p, len);
    o[i] = (int64_t)(h % (uint64_t)nb);
  }
}

static void hash_fast_compute(tfe_kernel_context* k) {
  hash_compute(k, HASH_FAST);
}
static void hash_strong_compute(tfe_kernel_context* k) {
  hash_compute(k, HASH_STRONG);
}
static void hash_legacy_compute(tfe_kernel_context* k) {
  hash_compute(k, HASH_LEGACY);
}

/* ---- Fingerprint ---- */

static void put_le64(uint8_t* o, uint64_t v) {
  int b;
  for (b = 0; b < 8; b++) o[b] = (uint8_t)(v >> (8 * b));
}

/* One FarmHash fingerprint per row (dim 0) of data: of the row's bytes,
 * or for strings, of the row's string fingerprints (8 little-endian bytes
 * each; a row of one string gets that string's fingerprint). The result is
 * the 8 little-endian bytes of the fingerprint. */
static void fingerprint_compute(tfe_kernel_context* k) {
  const TF_Tensor* data = k->inputs[0];
  const TF_Tensor* method = k->inputs[1];
  kutil_shape_buf sb;
  int64_t rows, cols, i, j, odims[2];
  TF_Tensor* out;
  uint8_t* o;
  if (method->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "`method` should be a scalar string: %s",
               kutil_tshape(method, &sb));
    return;
  }
  if (tx_len(method, 0) != 10 ||
      memcmp(tx_ptr(method, 0), "farmhash64", 10) != 0) {
    size_t n = tx_len(method, 0);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Unsupported fingerprint method: %.*s",
               (int)(n > 200 ? 200 : n), tx_ptr(method, 0));
    return;
  }
  if (data->num_dims < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "`data` should have at least one dimension: %s",
               kutil_tshape(data, &sb));
    return;
  }
  rows = data->dims[0];
  cols = kutil_dims_prod(data->dims, 1, data->num_dims);
  odims[0] = rows;
  odims[1] = 8;
  out = tfe_kernel_alloc_output(k, 0, TF_UINT8, odims, 2);
  if (out == NULL || rows == 0) return;
  o = (uint8_t*)kutil_data(out);
  if (data->dtype == TF_STRING) {
    /* (TF leaves the rows of a string tensor with no columns
     * uninitialized; tfe gives them the fingerprint of no bytes.) */
    size_t bytes;
    uint8_t* buf;
    if (!tfe_checked_mul_sz((size_t)cols, 8, &bytes) ||
        (buf = (uint8_t*)tfe_malloc(bytes > 0 ? bytes : 1)) == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Fingerprint");
      return;
    }
    for (i = 0; i < rows; i++) {
      if (cols == 1) {
        /* one string per row: its own fingerprint, as TF */
        put_le64(o + 8 * i,
                 tfe_farmhash_fingerprint64(tx_ptr(data, i), tx_len(data, i)));
        continue;
      }
      for (j = 0; j < cols; j++) {
        int64_t e = i * cols + j;
        put_le64(buf + 8 * j,
                 tfe_farmhash_fingerprint64(tx_ptr(data, e), tx_len(data, e)));
      }
      put_le64(o + 8 * i, tfe_farmhash_fingerprint64((const char*)buf, bytes));
    }
    tfe_free(buf);
    return;
  }
  {
    /* Fixed-size elements: the row's raw bytes (no bytes for dtypes
     * without a host layout, such as resources and variants). */
    size_t es = kutil_esize(data->dtype);
    size_t row_bytes = (size_t)cols * es;
    const char* base = (const char*)kutil_data(data);
    if (data->dtype == TF_RESOURCE || data->dtype == TF_VARIANT) row_bytes = 0;
    for (i = 0; i < rows; i++) {
      put_le64(o + 8 * i,
               tfe_farmhash_fingerprint64(
                   row_bytes > 0 ? base + (size_t)i * row_bytes : "",
                   row_bytes));
    }
  }
}

/* ---- ReduceJoin ---- */

static void reduce_join_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* ri = k->inputs[1];
  int keep = kutil_attr_bool(k, "keep_dims", 0);
  size_t sep_len;
  const char* sep = tx_attr_s(k, "separator", "", &sep_len);
  int nd = in->num_dims, nr = 0, i, j;
  int64_t nidx = kutil_num_elements(ri);
  int axes[TFE_MAX_DIMS];
  unsigned char reduced[TFE_MAX_DIMS];
  int64_t odims[TFE_MAX_DIMS], kept_dims[TFE_MAX_DIMS];
  int kept_axes[TFE_MAX_DIMS];
  int nk = 0, ond = 0;
  int64_t in_strides[TFE_MAX_DIMS];
  int64_t nout, nred = 1, o, r;
  TF_Tensor* out;
  tx_buf b;
  memset(reduced, 0, sizeof reduced);
  for (j = 0; j < nidx; j++) {
    int64_t a = ((const int32_t*)kutil_data(ri))[j];
    int64_t norm = a < 0 ? a + nd : a;
    if (norm < 0 || norm >= nd) {
      KUTIL_FAIL(k, TF_OUT_OF_RANGE,
                 "Invalid reduction dimension %lld for input with %d "
                 "dimension(s)",
                 (long long)a, nd);
      return;
    }
    if (reduced[norm]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Duplicate reduction dimension %lld",
                 (long long)a);
      return;
    }
    reduced[norm] = 1;
    axes[nr++] = (int)norm;
  }
  /* Row-major strides of the input (0 for an empty tensor: nothing is
   * read then). */
  {
    int64_t s = 1;
    for (i = nd - 1; i >= 0; i--) {
      in_strides[i] = s;
      if (!tfe_checked_mul_i64(s, in->dims[i], &s)) s = 0;
    }
  }
  for (i = 0; i < nd; i++) {
    if (reduced[i]) {
      if (keep) odims[ond++] = 1;
      if (!tfe_checked_mul_i64(nred, in->dims[i], &nred)) nred = 0;
    } else {
      odims[ond++] = in->dims[i];
      kept_axes[nk] = i;
      kept_dims[nk++] = in->dims[i];
    }
  }
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, odims, ond);
  if (out == NULL) return;
  nout = kutil_num_elements(out);
  if (kutil_num_elements(in) == 0) return; /* every output is "" */
  tx_buf_init(&b);
  for (o = 0; o < nout; o++) {
    /* Offset of the first input element of this output. */
    int64_t base = 0, rem = o;
    for (i = nk - 1; i >= 0; i--) {
      base += (rem % kept_dims[i]) * in_strides[kept_axes[i]];
      rem /= kept_dims[i];
    }
    b.n = 0;
    /* The reduced elements, the first listed axis varying fastest (the
     * order TF joins them in). */
    for (r = 0; r < nred; r++) {
      int64_t off = base, q = r;
      for (j = 0; j < nr; j++) {
        int64_t d = in->dims[axes[j]];
        off += (q % d) * in_strides[axes[j]];
        q /= d;
      }
      if (r > 0) tx_buf_add(&b, sep, sep_len);
      tx_buf_add(&b, tx_ptr(in, off), tx_len(in, off));
    }
    if (!b.ok) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ReduceJoin");
      break;
    }
    if (!tx_set(k, &tx_sdata_mut(out)[o], b.p, b.n)) break;
  }
  tx_buf_free(&b);
}

/* ---- UnsortedSegmentJoin ---- */

static void segment_join_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* ids = k->inputs[1];
  const TF_Tensor* ns = k->inputs[2];
  size_t sep_len;
  const char* sep = tx_attr_s(k, "separator", "", &sep_len);
  int64_t num, nids, inner, i, j, odims[TFE_MAX_DIMS];
  int d;
  TF_Tensor* out;
  if (kutil_num_elements(ns) == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Number of segments cannot be empty.");
    return;
  }
  if (ns->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Number of segments must be a scalar");
    return;
  }
  num = kutil_get_int(ns, 0);
  if (num < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of segments must be non-negative but got %lld",
               (long long)num);
    return;
  }
  if (ids->num_dims == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Segment_id cannot have rank 0");
    return;
  }
  if (ids->num_dims > in->num_dims) {
    KUTIL_FAIL(k, TF_OUT_OF_RANGE,
               "Invalid segment_id rank %d for input with %d dimension(s)",
               ids->num_dims, in->num_dims);
    return;
  }
  for (d = 0; d < ids->num_dims; d++) {
    if (ids->dims[d] != in->dims[d]) {
      /* TF names the input's rank here, not its dim. */
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Segment dimension is %lld while input dimension is %d in "
                 "rank %d",
                 (long long)ids->dims[d], in->num_dims, d);
      return;
    }
  }
  odims[0] = num;
  for (d = ids->num_dims; d < in->num_dims; d++) {
    odims[d - ids->num_dims + 1] = in->dims[d];
  }
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, odims,
                                in->num_dims - ids->num_dims + 1);
  if (out == NULL) return;
  nids = kutil_num_elements(ids);
  inner = kutil_dims_prod(in->dims, ids->num_dims, in->num_dims);
  for (i = 0; i < nids; i++) {
    int64_t s = kutil_get_int(ids, i);
    if (s < 0 || s >= num) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "segment_ids are not allowed to exceed num_segments or to "
                 "have negative values.");
      return;
    }
    for (j = 0; j < inner; j++) {
      TF_TString* dst = &tx_sdata_mut(out)[s * inner + j];
      const char* p = tx_ptr(in, i * inner + j);
      size_t len = tx_len(in, i * inner + j);
      /* TF puts the separator only after a non-empty partial result. */
      size_t have = TF_TString_GetSize(dst);
      size_t add = (have > 0 ? sep_len : 0) + len;
      char* w;
      if (add == 0) continue;
      w = TF_TString_Resize(dst, have + add, '\0');
      if (w == NULL) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                   "out of memory in UnsortedSegmentJoin");
        return;
      }
      if (have > 0 && sep_len > 0) memcpy(w + have, sep, sep_len);
      if (len > 0) memcpy(w + have + (have > 0 ? sep_len : 0), p, len);
    }
  }
}

/* ---- StringNGrams ---- */

/* TF caps the padding of an n-gram of width w at w - 1; a negative
 * pad_width means "w - 1". */
static int64_t ng_pad(int64_t pad_width, int64_t w) {
  int64_t p = pad_width < 0 ? w - 1 : pad_width;
  return p < w - 1 ? p : w - 1;
}

static int64_t ng_count(int64_t len, int64_t pad_width, int64_t w) {
  int64_t c = len + 2 * ng_pad(pad_width, w) - w + 1;
  return c > 0 ? c : 0;
}

typedef struct ng_args {
  const char *sep, *lp, *rp;
  size_t sep_len, lp_len, rp_len;
  int64_t pad_width;
} ng_args;

/* Writes `num` n-grams of width w over data[start, start+len) into
 * out[o...]; 0 when memory ran out. */
static int ng_make(tfe_kernel_context* k, const ng_args* a,
                   const TF_Tensor* data, int64_t start, int64_t len,
                   int64_t num, int64_t w, TF_Tensor* out, int64_t o,
                   tx_buf* b) {
  int64_t pw = ng_pad(a->pad_width, w), g, p;
  for (g = 0; g < num; g++) {
    b->n = 0;
    /* Padded position p holds left padding before the data, right
     * padding after it. */
    for (p = g; p < g + w; p++) {
      int64_t di = p - pw;
      if (p > g) tx_buf_add(b, a->sep, a->sep_len);
      if (di < 0) {
        tx_buf_add(b, a->lp, a->lp_len);
      } else if (di >= len) {
        tx_buf_add(b, a->rp, a->rp_len);
      } else {
        tx_buf_add(b, tx_ptr(data, start + di), tx_len(data, start + di));
      }
    }
    if (!b->ok) return 0;
    if (!tx_set(k, &tx_sdata_mut(out)[o + g], b->p, b->n)) return 0;
  }
  return 1;
}

static void ngrams_compute(tfe_kernel_context* k) {
  const TF_Tensor* data = k->inputs[0];
  const TF_Tensor* splits = k->inputs[1];
  ng_args a;
  int pss = kutil_attr_bool(k, "preserve_short_sequences", 0);
  const int64_t* widths = NULL;
  int nw = 0, w;
  int32_t pad32;
  int64_t nsplits, nrows, ndata, i, total = 0, o, pieces = 0;
  int64_t* row_splits;
  TF_Tensor *out, *osplits;
  tx_buf b;
  a.sep = tx_attr_s(k, "separator", "", &a.sep_len);
  a.lp = tx_attr_s(k, "left_pad", "", &a.lp_len);
  a.rp = tx_attr_s(k, "right_pad", "", &a.rp_len);
  if (!kutil_attr_int32_list(k, "ngram_widths", &widths, &nw)) return;
  if (!kutil_attr_int32(k, "pad_width", 0, &pad32)) return;
  a.pad_width = pad32;
  for (w = 0; w < nw; w++) {
    if (widths[w] <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "ngram_widths must contain positive values");
      return;
    }
  }
  if (data->num_dims != 1 || splits->num_dims != 1) {
    kutil_shape_buf sb;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be a vector, got shape: %s",
               data->num_dims != 1 ? "data" : "data_splits",
               kutil_tshape(data->num_dims != 1 ? data : splits, &sb));
    return;
  }
  nsplits = splits->dims[0];
  ndata = data->dims[0];
  if (nsplits == 0 || kutil_get_int(splits, 0) != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "First split value must be 0, got %lld",
               (long long)(nsplits == 0 ? 0 : kutil_get_int(splits, 0)));
    return;
  }
  for (i = 1; i < nsplits; i++) {
    int64_t prev = kutil_get_int(splits, i - 1), c = kutil_get_int(splits, i);
    if (c < prev || c > ndata) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Invalid split value %lld, must be in [%lld, %lld]",
                 (long long)c, (long long)prev, (long long)ndata);
      return;
    }
  }
  if (kutil_get_int(splits, nsplits - 1) != ndata) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Last split value must be data size. Expected %lld, got %lld",
               (long long)ndata,
               (long long)kutil_get_int(splits, nsplits - 1));
    return;
  }
  nrows = nsplits - 1;
  row_splits = (int64_t*)tfe_calloc((size_t)nsplits, sizeof(int64_t));
  if (row_splits == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in StringNGrams");
    return;
  }
  /* Count the n-grams of each row (and the pieces they join, to refuse
   * outputs that could never fit in memory before building any). */
  for (i = 0; i < nrows; i++) {
    int64_t len = kutil_get_int(splits, i + 1) - kutil_get_int(splits, i);
    int64_t row = 0;
    for (w = 0; w < nw; w++) {
      int64_t c = ng_count(len, a.pad_width, widths[w]);
      row += c;
      if (c > 0 && pieces <= INT64_MAX / 4) {
        int64_t pc;
        if (!tfe_checked_mul_i64(c, widths[w], &pc) ||
            !tfe_checked_add_i64(pieces, pc, &pieces)) {
          pieces = INT64_MAX;
        }
      }
    }
    if (pss && len > 0 && row == 0) {
      row = 1;
      if (!tfe_checked_add_i64(pieces, len + 2 * (int64_t)pad32, &pieces)) {
        pieces = INT64_MAX;
      }
    }
    row_splits[i + 1] = row_splits[i] + row;
  }
  total = row_splits[nrows];
  if (pieces > ((int64_t)1 << 32)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "StringNGrams: the output would join %lld strings; too large",
               (long long)pieces);
    tfe_free(row_splits);
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, &total, 1);
  osplits = out != NULL
                ? tfe_kernel_alloc_output(k, 1, splits->dtype, &nsplits, 1)
                : NULL;
  if (osplits == NULL) {
    tfe_free(row_splits);
    return;
  }
  for (i = 0; i < nsplits; i++) {
    if (splits->dtype == TF_INT32) {
      ((int32_t*)kutil_data(osplits))[i] = (int32_t)row_splits[i];
    } else {
      ((int64_t*)kutil_data(osplits))[i] = row_splits[i];
    }
  }
  tx_buf_init(&b);
  for (i = 0; i < nrows; i++) {
    int64_t start = kutil_get_int(splits, i);
    int64_t len = kutil_get_int(splits, i + 1) - start;
    o = row_splits[i];
    for (w = 0; w < nw; w++) {
      int64_t c = ng_count(len, a.pad_width, widths[w]);
      if (!ng_make(k, &a, data, start, len, c, widths[w], out, o, &b)) {
        goto oom;
      }
      o += c;
    }
    if (pss && len > 0 && o == row_splits[i]) {
      /* A sequence too short for any n-gram: the whole of it, with
       * pad_width pads on each side. */
      if (!ng_make(k, &a, data, start, len, 1, len + 2 * (int64_t)pad32, out,
                   o, &b)) {
        goto oom;
      }
    }
  }
  tx_buf_free(&b);
  tfe_free(row_splits);
  return;
oom:
  if (TF_GetCode(k->status) == TF_OK) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in StringNGrams");
  }
  tx_buf_free(&b);
  tfe_free(row_splits);
}

/* ---- EncodeBase64 / DecodeBase64 (the web-safe alphabet) ---- */

static const char kB64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static void encode_b64_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int pad = kutil_attr_bool(k, "pad", 0);
  TF_Tensor* out =
      tfe_kernel_alloc_output(k, 0, TF_STRING, in->dims, in->num_dims);
  int64_t n, i;
  tx_buf b;
  if (out == NULL) return;
  n = kutil_num_elements(in);
  tx_buf_init(&b);
  for (i = 0; i < n; i++) {
    const unsigned char* p = (const unsigned char*)tx_ptr(in, i);
    size_t len = tx_len(in, i), j;
    b.n = 0;
    for (j = 0; j + 3 <= len; j += 3) {
      uint32_t v = (uint32_t)p[j] << 16 | (uint32_t)p[j + 1] << 8 | p[j + 2];
      tx_buf_addc(&b, kB64[v >> 18]);
      tx_buf_addc(&b, kB64[(v >> 12) & 63]);
      tx_buf_addc(&b, kB64[(v >> 6) & 63]);
      tx_buf_addc(&b, kB64[v & 63]);
    }
    if (len - j == 1) {
      uint32_t v = (uint32_t)p[j] << 16;
      tx_buf_addc(&b, kB64[v >> 18]);
      tx_buf_addc(&b, kB64[(v >> 12) & 63]);
      if (pad) tx_buf_add(&b, "==", 2);
    } else if (len - j == 2) {
      uint32_t v = (uint32_t)p[j] << 16 | (uint32_t)p[j + 1] << 8;
      tx_buf_addc(&b, kB64[v >> 18]);
      tx_buf_addc(&b, kB64[(v >> 12) & 63]);
      tx_buf_addc(&b, kB64[(v >> 6) & 63]);
      if (pad) tx_buf_addc(&b, '=');
    }
    if (!b.ok) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in EncodeBase64");
      break;
    }
    if (!tx_set(k, &tx_sdata_mut(out)[i], b.p, b.n)) break;
  }
  tx_buf_free(&b);
}

static int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

/* Decodes web-safe base64 as TF's Base64Decode does: groups of four
 * characters; '=' padding is only dropped from a final complete group (at
 * most two); a final group of one character is an error; 0 with *why set
 * on malformed input. */
static int b64_group(const unsigned char* p, size_t n, tx_buf* b) {
  uint32_t acc = 0;
  size_t j;
  for (j = 0; j < n; j++) {
    int v = b64_value(p[j]);
    if (v < 0) return 0;
    acc = (acc << 6) | (uint32_t)v;
  }
  if (n == 4) {
    tx_buf_addc(b, (char)(acc >> 16));
    tx_buf_addc(b, (char)((acc >> 8) & 0xff));
    tx_buf_addc(b, (char)(acc & 0xff));
  } else if (n == 3) {
    tx_buf_addc(b, (char)(acc >> 10));
    tx_buf_addc(b, (char)((acc >> 2) & 0xff));
  } else if (n == 2) {
    tx_buf_addc(b, (char)(acc >> 4));
  }
  return 1;
}

static int b64_decode(const unsigned char* p, size_t len, tx_buf* b,
                      const char** why) {
  size_t i = 0, remain;
  while (len - i > 4) {
    if (!b64_group(p + i, 4, b)) {
      *why = "Invalid character found in base64.";
      return 0;
    }
    i += 4;
  }
  remain = len - i;
  if (remain == 4 && p[i + 3] == '=') {
    remain--;
    if (p[i + 2] == '=') remain--;
  }
  if (remain == 1) {
    *why = "Base64 string length cannot be 1 modulo 4.";
    return 0;
  }
  if (!b64_group(p + i, remain, b)) {
    *why = "Invalid character found in base64.";
    return 0;
  }
  return 1;
}

static void decode_b64_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_Tensor* out =
      tfe_kernel_alloc_output(k, 0, TF_STRING, in->dims, in->num_dims);
  int64_t n, i;
  tx_buf b;
  if (out == NULL) return;
  n = kutil_num_elements(in);
  tx_buf_init(&b);
  for (i = 0; i < n; i++) {
    const char* why = NULL;
    b.n = 0;
    if (!b64_decode((const unsigned char*)tx_ptr(in, i), tx_len(in, i), &b,
                    &why)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s", why);
      break;
    }
    if (!b.ok) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in DecodeBase64");
      break;
    }
    if (!tx_set(k, &tx_sdata_mut(out)[i], b.p, b.n)) break;
  }
  tx_buf_free(&b);
}

/* ---- registration ---- */

void tfe_register_cpu_text_kernels(void) {
  static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("StringSplit", split_v1_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("StringSplitV2", split_v2_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("StringToHashBucketFast", hash_fast_compute, NULL, NULL,
                     0, NULL, NULL, 0);
  tfe_kutil_register("StringToHashBucketStrong", hash_strong_compute, NULL,
                     NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("StringToHashBucket", hash_legacy_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("Fingerprint", fingerprint_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("ReduceJoin", reduce_join_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("UnsortedSegmentJoin", segment_join_compute, "Tindices",
                     kIdx, 2, "Tnumsegments", kIdx, 2);
  tfe_kutil_register("StringNGrams", ngrams_compute, "Tsplits", kIdx, 2, NULL,
                     NULL, 0);
  tfe_kutil_register("EncodeBase64", encode_b64_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("DecodeBase64", decode_b64_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_register_text_format_kernels();
  tfe_register_text_unicode_kernels();
  tfe_register_text_print_kernels();
}
