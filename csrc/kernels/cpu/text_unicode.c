/* CPU kernels: UnicodeDecode, UnicodeDecodeWithOffsets, UnicodeEncode and
 * UnicodeTranscode, with TensorFlow 2.21's semantics.
 *
 * TF converts through ICU; tfe has its own decoders and encoders for the
 * encodings models use: UTF-8, UTF-16 and UTF-32 (big and little endian),
 * ISO-8859-1 and US-ASCII. Encoding names match as ICU matches aliases
 * (case and '-', '_', ' ' ignored: "utf-8", "UTF8", "latin1", ...); any
 * other name fails as TF fails for a name ICU does not know. An ill-formed
 * sequence counts as one error per maximal subpart (the Unicode standard's
 * recommendation, which ICU follows): errors='replace' puts one
 * replacement_char for each, 'ignore' drops it, 'strict' fails. */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/text_case.h"
#include "kernels/cpu/text_util.h"

void tfe_register_text_unicode_kernels(void);

enum {
  UC_UTF8,
  UC_UTF16BE,
  UC_UTF16LE,
  UC_UTF32BE,
  UC_UTF32LE,
  UC_LATIN1,
  UC_ASCII
};

/* Encoding from a name, -1 when unknown. */
static int uc_encoding(const char* name, size_t n) {
  static const struct {
    const char* name;
    int enc;
  } kNames[] = {{"utf8", UC_UTF8},         {"utf16be", UC_UTF16BE},
                {"utf16le", UC_UTF16LE},   {"utf32be", UC_UTF32BE},
                {"utf32le", UC_UTF32LE},   {"iso88591", UC_LATIN1},
                {"latin1", UC_LATIN1},     {"l1", UC_LATIN1},
                {"usascii", UC_ASCII},     {"ascii", UC_ASCII},
                {"ansix3.41968", UC_ASCII}};
  char norm[32];
  size_t i, m = 0;
  for (i = 0; i < n; i++) {
    char c = name[i];
    if (c == '-' || c == '_' || c == ' ') continue;
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (m + 1 >= sizeof norm) return -1;
    norm[m++] = c;
  }
  norm[m] = '\0';
  for (i = 0; i < sizeof kNames / sizeof kNames[0]; i++) {
    if (strcmp(norm, kNames[i].name) == 0) return kNames[i].enc;
  }
  return -1;
}

static int uc_is_cont(unsigned char c, unsigned char lo, unsigned char hi) {
  return c >= lo && c <= hi;
}

/* Decodes the character at s[*pos] (n bytes in all). Returns 1 with *cp
 * set, or 0 for an ill-formed sequence; *pos moves past what was read. */
static int uc_next(int enc, const unsigned char* s, size_t n, size_t* pos,
                   int32_t* cp) {
  size_t i = *pos, left = n - i;
  switch (enc) {
    case UC_UTF8: {
      unsigned char c = s[i];
      size_t need, k;
      unsigned char lo = 0x80, hi = 0xBF;
      uint32_t v;
      if (c < 0x80) {
        *cp = c;
        *pos = i + 1;
        return 1;
      }
      if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
        v = c & 0x1F;
      } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        v = c & 0x0F;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
      } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        v = c & 0x07;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
      } else {
        *pos = i + 1;
        return 0;
      }
      /* The second byte has a narrower range for some leads. */
      for (k = 1; k <= need; k++) {
        unsigned char b = i + k < n ? s[i + k] : 0;
        int ok = i + k < n &&
                 (k == 1 ? uc_is_cont(b, lo, hi) : uc_is_cont(b, 0x80, 0xBF));
        if (!ok) {
          *pos = i + k;
          return 0;
        }
        v = (v << 6) | (b & 0x3F);
      }
      *cp = (int32_t)v;
      *pos = i + need + 1;
      return 1;
    }
    case UC_UTF16BE:
    case UC_UTF16LE: {
      int be = enc == UC_UTF16BE;
      uint32_t u, u2;
      if (left < 2) {
        *pos = n;
        return 0;
      }
      u = be ? (uint32_t)s[i] << 8 | s[i + 1] : (uint32_t)s[i + 1] << 8 | s[i];
      if (u >= 0xDC00 && u <= 0xDFFF) {
        *pos = i + 2;
        return 0;
      }
      if (u >= 0xD800 && u <= 0xDBFF) {
        if (left < 4) {
          *pos = i + 2;
          return 0;
        }
        u2 = be ? (uint32_t)s[i + 2] << 8 | s[i + 3]
                : (uint32_t)s[i + 3] << 8 | s[i + 2];
        if (u2 < 0xDC00 || u2 > 0xDFFF) {
          *pos = i + 2;
          return 0;
        }
        *cp = (int32_t)(0x10000 + ((u - 0xD800) << 10) + (u2 - 0xDC00));
        *pos = i + 4;
        return 1;
      }
      *cp = (int32_t)u;
      *pos = i + 2;
      return 1;
    }
    case UC_UTF32BE:
    case UC_UTF32LE: {
      uint32_t u;
      if (left < 4) {
        *pos = n;
        return 0;
      }
      if (enc == UC_UTF32BE) {
        u = (uint32_t)s[i] << 24 | (uint32_t)s[i + 1] << 16 |
            (uint32_t)s[i + 2] << 8 | s[i + 3];
      } else {
        u = (uint32_t)s[i + 3] << 24 | (uint32_t)s[i + 2] << 16 |
            (uint32_t)s[i + 1] << 8 | s[i];
      }
      *pos = i + 4;
      if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)) return 0;
      *cp = (int32_t)u;
      return 1;
    }
    case UC_LATIN1:
      *cp = s[i];
      *pos = i + 1;
      return 1;
    default: /* UC_ASCII */
      *pos = i + 1;
      if (s[i] >= 0x80) return 0;
      *cp = s[i];
      return 1;
  }
}

enum { UC_STRICT, UC_REPLACE, UC_IGNORE };

typedef struct uc_opts {
  int in_enc;
  int errors;
  int32_t subst;
  int replace_control;
} uc_opts;

/* Reads the attrs shared by the decoding ops; 0 with status set. */
static int uc_read_opts(tfe_kernel_context* k, int decode, uc_opts* o) {
  size_t n;
  const char* e = tx_attr_s(k, "errors", "replace", &n);
  int32_t rc;
  o->errors = n == 6 && memcmp(e, "strict", 6) == 0   ? UC_STRICT
              : n == 6 && memcmp(e, "ignore", 6) == 0 ? UC_IGNORE
                                                      : UC_REPLACE;
  o->replace_control = kutil_attr_bool(k, "replace_control_characters", 0);
  o->in_enc = UC_UTF8;
  if (!kutil_attr_int32(k, "replacement_char", 0xFFFD, &rc)) return 0;
  if (rc < 0 || rc > 0x10FFFF) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "replacement_char out of unicode codepoint range");
    return 0;
  }
  o->subst = rc;
  if (decode) {
    const char* name = tx_attr_s(k, "input_encoding", "", &n);
    o->in_enc = uc_encoding(name, n);
    if (o->in_enc < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Could not create converter for input encoding: %.*s",
                 (int)(n > 200 ? 200 : n), name);
      return 0;
    }
  }
  return 1;
}

int tfe_text_utf8_next(const unsigned char* s, size_t n, size_t* pos,
                       int32_t* cp) {
  return uc_next(UC_UTF8, s, n, pos, cp);
}

/* Growable int32 + int64 arrays for decoded characters and offsets. */
typedef struct uc_chars {
  int32_t* cp;
  int64_t* off;
  int64_t n, cap;
} uc_chars;

static int uc_push(uc_chars* c, int32_t cp, int64_t off) {
  if (c->n == c->cap) {
    int64_t cap = c->cap < 64 ? 64 : c->cap * 2;
    int32_t* a;
    int64_t* b;
    if (cap > INT64_MAX / 16) return 0;
    a = (int32_t*)tfe_realloc(c->cp, (size_t)cap * sizeof(int32_t));
    if (a == NULL) return 0;
    c->cp = a;
    b = (int64_t*)tfe_realloc(c->off, (size_t)cap * sizeof(int64_t));
    if (b == NULL) return 0;
    c->off = b;
    c->cap = cap;
  }
  c->cp[c->n] = cp;
  c->off[c->n] = off;
  c->n++;
  return 1;
}

/* Decodes one string into chars; 0 with status set on failure. */
static int uc_decode_one(tfe_kernel_context* k, const uc_opts* o,
                         const char* p, size_t n, uc_chars* out) {
  const unsigned char* s = (const unsigned char*)p;
  size_t pos = 0;
  while (pos < n) {
    size_t start = pos;
    int32_t cp = 0;
    if (uc_next(o->in_enc, s, n, &pos, &cp)) {
      /* A C0 control character counts as an error that is replaced (with
       * errors='ignore' it is dropped). */
      if (o->replace_control && cp < 0x20) {
        if (o->errors == UC_IGNORE) continue;
        cp = o->subst;
      }
    } else if (o->errors == UC_STRICT) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid formatting on input string");
      return 0;
    } else if (o->errors == UC_IGNORE) {
      continue;
    } else {
      cp = o->subst;
    }
    if (!uc_push(out, cp, (int64_t)start)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory decoding unicode");
      return 0;
    }
  }
  return 1;
}

static void uc_set_split(TF_Tensor* t, int64_t i, int64_t v) {
  if (t->dtype == TF_INT32) {
    ((int32_t*)kutil_data(t))[i] = (int32_t)v;
  } else {
    ((int64_t*)kutil_data(t))[i] = v;
  }
}

/* Decodes one string, storing the characters (and their byte offsets)
 * at cp[*count...] / off[*count...] when cp is not NULL, else only
 * counting them; 0 with status set on a strict error. */
static int uc_decode_into(tfe_kernel_context* k, const uc_opts* o,
                          const char* p, size_t n, int32_t* cp_out,
                          int64_t* off_out, int64_t* count) {
  const unsigned char* s = (const unsigned char*)p;
  size_t pos = 0;
  while (pos < n) {
    size_t start = pos;
    int32_t cp = 0;
    if (uc_next(o->in_enc, s, n, &pos, &cp)) {
      if (o->replace_control && cp < 0x20) {
        if (o->errors == UC_IGNORE) continue;
        cp = o->subst;
      }
    } else if (o->errors == UC_STRICT) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid formatting on input string");
      return 0;
    } else if (o->errors == UC_IGNORE) {
      continue;
    } else {
      cp = o->subst;
    }
    if (cp_out != NULL) {
      cp_out[*count] = cp;
      if (off_out != NULL) off_out[*count] = (int64_t)start;
    }
    (*count)++;
  }
  return 1;
}

/* Two passes: count the characters, then decode straight into outputs of
 * the exact size. */
static void decode_compute(tfe_kernel_context* k, int with_offsets) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType ts = k->output_types != NULL ? k->output_types[0] : TF_INT64;
  uc_opts o;
  int64_t n, i, nsp, total = 0;
  TF_Tensor *sp, *vals, *offs = NULL;
  int32_t* vd;
  int64_t* od = NULL;
  if (!uc_read_opts(k, 1, &o)) return;
  n = kutil_num_elements(in);
  for (i = 0; i < n; i++) {
    if (!uc_decode_into(k, &o, tx_ptr(in, i), tx_len(in, i), NULL, NULL,
                        &total)) {
      return;
    }
  }
  if (ts == TF_INT32 && total > INT32_MAX) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "too many characters for int32 row_splits");
    return;
  }
  nsp = n + 1;
  sp = tfe_kernel_alloc_output(k, 0, ts, &nsp, 1);
  if (sp == NULL) return;
  vals = tfe_kernel_alloc_output(k, 1, TF_INT32, &total, 1);
  if (vals == NULL) return;
  vd = (int32_t*)kutil_data(vals);
  if (with_offsets) {
    offs = tfe_kernel_alloc_output(k, 2, TF_INT64, &total, 1);
    if (offs == NULL) return;
    od = (int64_t*)kutil_data(offs);
  }
  total = 0;
  uc_set_split(sp, 0, 0);
  for (i = 0; i < n; i++) {
    uc_decode_into(k, &o, tx_ptr(in, i), tx_len(in, i), vd, od, &total);
    uc_set_split(sp, i + 1, total);
  }
}

static void decode_plain_compute(tfe_kernel_context* k) {
  decode_compute(k, 0);
}
static void decode_offsets_compute(tfe_kernel_context* k) {
  decode_compute(k, 1);
}

/* ---- encoding ---- */

static int uc_out_encoding(tfe_kernel_context* k) {
  size_t n;
  const char* e = tx_attr_s(k, "output_encoding", "UTF-8", &n);
  int enc = uc_encoding(e, n);
  if (enc != UC_UTF8 && enc != UC_UTF16BE && enc != UC_UTF32BE) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Unsupported output encoding: %.*s",
               (int)(n > 200 ? 200 : n), e);
    return -1;
  }
  return enc;
}

/* Appends code point cp (already checked or a replacement) in enc. */
static void uc_put(tx_buf* b, int enc, uint32_t cp) {
  unsigned char t[4];
  if (enc == UC_UTF8) {
    if (cp < 0x80) {
      t[0] = (unsigned char)cp;
      tx_buf_add(b, t, 1);
    } else if (cp < 0x800) {
      t[0] = (unsigned char)(0xC0 | (cp >> 6));
      t[1] = (unsigned char)(0x80 | (cp & 0x3F));
      tx_buf_add(b, t, 2);
    } else if (cp < 0x10000) {
      t[0] = (unsigned char)(0xE0 | (cp >> 12));
      t[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
      t[2] = (unsigned char)(0x80 | (cp & 0x3F));
      tx_buf_add(b, t, 3);
    } else {
      t[0] = (unsigned char)(0xF0 | (cp >> 18));
      t[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
      t[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
      t[3] = (unsigned char)(0x80 | (cp & 0x3F));
      tx_buf_add(b, t, 4);
    }
  } else if (enc == UC_UTF16BE) {
    if (cp >= 0x10000) {
      uint32_t v = cp - 0x10000;
      uint32_t hi = 0xD800 + (v >> 10), lo = 0xDC00 + (v & 0x3FF);
      t[0] = (unsigned char)(hi >> 8);
      t[1] = (unsigned char)(hi & 0xFF);
      t[2] = (unsigned char)(lo >> 8);
      t[3] = (unsigned char)(lo & 0xFF);
      tx_buf_add(b, t, 4);
    } else {
      t[0] = (unsigned char)(cp >> 8);
      t[1] = (unsigned char)(cp & 0xFF);
      tx_buf_add(b, t, 2);
    }
  } else {
    t[0] = (unsigned char)(cp >> 24);
    t[1] = (unsigned char)((cp >> 16) & 0xFF);
    t[2] = (unsigned char)((cp >> 8) & 0xFF);
    t[3] = (unsigned char)(cp & 0xFF);
    tx_buf_add(b, t, 4);
  }
}

static int uc_valid(int64_t cp) {
  return cp >= 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
}

static void encode_compute(tfe_kernel_context* k) {
  const TF_Tensor* vals = k->inputs[0];
  const TF_Tensor* splits = k->inputs[1];
  uc_opts o;
  int enc;
  int64_t nsp, nv, i, j, nout;
  TF_Tensor* out;
  tx_buf b;
  if (!uc_read_opts(k, 0, &o)) return;
  if ((enc = uc_out_encoding(k)) < 0) return;
  if (vals->num_dims != 1 || splits->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Both the input_tensor and input_splits should be of rank 1. ");
    return;
  }
  nsp = splits->dims[0];
  nv = vals->dims[0];
  if (nsp == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input_splits should contain elements, but given input_values "
               "has 0 elements");
    return;
  }
  if (kutil_get_int(splits, 0) != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "First value in input_splits must be zero.");
    return;
  }
  for (i = 1; i < nsp; i++) {
    if (kutil_get_int(splits, i) < kutil_get_int(splits, i - 1)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Values in input_splits must be equal or in ascending "
                 "order.");
      return;
    }
  }
  if (kutil_get_int(splits, nsp - 1) != nv) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Last value in input_splits must be equal to length of "
               "input_tensor.");
    return;
  }
  nout = nsp - 1;
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, &nout, 1);
  if (out == NULL) return;
  tx_buf_init(&b);
  for (i = 0; i < nout; i++) {
    int64_t a = kutil_get_int(splits, i), e = kutil_get_int(splits, i + 1);
    b.n = 0;
    for (j = a; j < e; j++) {
      int32_t cp = ((const int32_t*)kutil_data(vals))[j];
      if (!uc_valid(cp)) {
        if (o.errors == UC_STRICT) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Code point is out of range for Unicode, or is a "
                     "surrogate.");
          tx_buf_free(&b);
          return;
        }
        if (o.errors == UC_IGNORE) continue;
        cp = o.subst;
      }
      uc_put(&b, enc, (uint32_t)cp);
    }
    if (!b.ok) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in UnicodeEncode");
      break;
    }
    if (!tx_set(k, &tx_sdata_mut(out)[i], b.p, b.n)) break;
  }
  tx_buf_free(&b);
}

static void transcode_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  uc_opts o;
  int enc;
  int64_t n, i, j;
  TF_Tensor* out;
  uc_chars c;
  tx_buf b;
  if (!uc_read_opts(k, 1, &o)) return;
  if ((enc = uc_out_encoding(k)) < 0) return;
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, in->dims, in->num_dims);
  if (out == NULL) return;
  n = kutil_num_elements(in);
  memset(&c, 0, sizeof c);
  tx_buf_init(&b);
  for (i = 0; i < n; i++) {
    c.n = 0;
    if (!uc_decode_one(k, &o, tx_ptr(in, i), tx_len(in, i), &c)) break;
    b.n = 0;
    for (j = 0; j < c.n; j++) uc_put(&b, enc, (uint32_t)c.cp[j]);
    if (!b.ok) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                 "out of memory in UnicodeTranscode");
      break;
    }
    if (!tx_set(k, &tx_sdata_mut(out)[i], b.p, b.n)) break;
  }
  tx_buf_free(&b);
  tfe_free(c.cp);
  tfe_free(c.off);
}

void tfe_register_text_unicode_kernels(void) {
  static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("UnicodeDecode", decode_plain_compute, "Tsplits", kIdx,
                     2, NULL, NULL, 0);
  tfe_kutil_register("UnicodeDecodeWithOffsets", decode_offsets_compute,
                     "Tsplits", kIdx, 2, NULL, NULL, 0);
  tfe_kutil_register("UnicodeEncode", encode_compute, "Tsplits", kIdx, 2,
                     NULL, NULL, 0);
  tfe_kutil_register("UnicodeTranscode", transcode_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
}
