/* A DEFLATE decoder (RFC 1951) inside zlib (RFC 1950) or gzip (RFC 1952)
 * framing, for DecodeCompressed (parsing_kernels.c). Written for this
 * project after the RFCs; the error strings are zlib's, because TF's
 * DecodeCompressed reports zlib's message ("inflate() failed with error
 * -3: <msg>").
 *
 * Behaviour follows what TF's ZlibInputStream makes of a buffer: input cut
 * short ends the output where decoding stopped (no error); bytes after the
 * end of a zlib stream are ignored; after a gzip member another member is
 * decoded while input remains. Huffman codes are decoded a bit at a time
 * from canonical (count, symbol) tables, which is simple and bounded. */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/parsing_inflate.h"

#define MAXBITS 15
#define MAXLCODES 286
#define MAXDCODES 30
#define FIXLCODES 288

typedef struct inf_out {
  unsigned char* p;
  size_t len, cap, limit;
} inf_out;

typedef struct inf_state {
  const unsigned char* in;
  size_t n, pos;
  uint32_t bitbuf;
  int bitcnt;
  int truncated; /* ran out of input: stop quietly */
  inf_out* out;
  const char* err;
  int oom;
} inf_state;

typedef struct huff {
  short count[MAXBITS + 1];
  short symbol[FIXLCODES];
  int empty; /* no codes at all: any use is an invalid code */
} huff;

static int out_put(inf_state* s, const unsigned char* p, size_t n) {
  inf_out* o = s->out;
  if (n == 0) return 1;
  if (o->len + n > o->limit) {
    s->oom = 1;
    return 0;
  }
  if (o->len + n > o->cap) {
    size_t cap = o->cap ? o->cap : 256;
    unsigned char* np;
    while (cap < o->len + n) cap *= 2;
    np = (unsigned char*)tfe_realloc(o->p, cap);
    if (np == NULL) {
      s->oom = 1;
      return 0;
    }
    o->p = np;
    o->cap = cap;
  }
  memcpy(o->p + o->len, p, n);
  o->len += n;
  return 1;
}

/* need bits; 0 when the input ran out (s->truncated set). */
static int getbits(inf_state* s, int need, uint32_t* v) {
  uint32_t val = s->bitbuf;
  while (s->bitcnt < need) {
    if (s->pos >= s->n) {
      s->truncated = 1;
      return 0;
    }
    val |= (uint32_t)s->in[s->pos++] << s->bitcnt;
    s->bitcnt += 8;
  }
  s->bitbuf = val >> need;
  s->bitcnt -= need;
  *v = need == 32 ? val : val & ((1u << need) - 1u);
  return 1;
}

/* Decodes one symbol; -1 truncated, -2 invalid code. */
static int decode(inf_state* s, const huff* h) {
  int code = 0, first = 0, index = 0, len;
  if (h->empty) return -2;
  for (len = 1; len <= MAXBITS; len++) {
    uint32_t b;
    int count;
    if (!getbits(s, 1, &b)) return -1;
    code |= (int)b;
    count = h->count[len];
    if (code - count < first) return h->symbol[index + (code - first)];
    index += count;
    first += count;
    first <<= 1;
    code <<= 1;
  }
  return -2;
}

/* Builds a canonical code from lengths. Returns 0 complete, > 0 incomplete
 * (codes left), < 0 over-subscribed. */
static int build(huff* h, const short* length, int n) {
  short offs[MAXBITS + 1];
  int len, sym, left;
  for (len = 0; len <= MAXBITS; len++) h->count[len] = 0;
  for (sym = 0; sym < n; sym++) h->count[length[sym]]++;
  h->empty = h->count[0] == n;
  if (h->empty) return 0;
  left = 1;
  for (len = 1; len <= MAXBITS; len++) {
    left <<= 1;
    left -= h->count[len];
    if (left < 0) return left;
  }
  offs[1] = 0;
  for (len = 1; len < MAXBITS; len++) offs[len + 1] = (short)(offs[len] + h->count[len]);
  for (sym = 0; sym < n; sym++) {
    if (length[sym] != 0) h->symbol[offs[length[sym]]++] = (short)sym;
  }
  return left;
}

/* Number of codes of the largest length in use (zlib accepts an
 * incomplete literal or distance code only when its longest code is one
 * bit long). */
static int max_len(const huff* h) {
  int len;
  for (len = MAXBITS; len > 0; len--) {
    if (h->count[len]) return len;
  }
  return 0;
}

static const short kLenBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                   31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const short kLenExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                    2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const short kDistBase[30] = {1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
                                    33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
                                    1025, 1537, 2049, 3073, 4097, 6145,  8193,  12289, 16385,
                                    24577};
static const short kDistExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                     6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* Decodes the symbols of one block; 1 at its end, 0 stopped (truncated,
 * error or out of memory). `base` is where this stream's output starts
 * (distances may not reach before it). */
static int codes(inf_state* s, const huff* lencode, const huff* distcode, size_t base) {
  for (;;) {
    int sym = decode(s, lencode);
    if (sym == -1) return 0;
    if (sym < 0) {
      s->err = "invalid literal/length code";
      return 0;
    }
    if (sym < 256) {
      unsigned char c = (unsigned char)sym;
      if (!out_put(s, &c, 1)) return 0;
    } else if (sym == 256) {
      return 1;
    } else {
      uint32_t extra;
      size_t len, dist, i;
      sym -= 257;
      if (sym >= 29) {
        s->err = "invalid literal/length code";
        return 0;
      }
      if (!getbits(s, kLenExtra[sym], &extra)) return 0;
      len = (size_t)kLenBase[sym] + extra;
      sym = decode(s, distcode);
      if (sym == -1) return 0;
      if (sym < 0 || sym >= 30) {
        s->err = "invalid distance code";
        return 0;
      }
      if (!getbits(s, kDistExtra[sym], &extra)) return 0;
      dist = (size_t)kDistBase[sym] + extra;
      if (dist > s->out->len - base) {
        s->err = "invalid distance too far back";
        return 0;
      }
      for (i = 0; i < len; i++) {
        unsigned char c = s->out->p[s->out->len - dist];
        if (!out_put(s, &c, 1)) return 0;
      }
    }
  }
}

static int stored(inf_state* s) {
  size_t len, avail;
  s->bitbuf = 0;
  s->bitcnt = 0; /* to a byte boundary */
  if (s->pos + 4 > s->n) {
    s->truncated = 1;
    return 0;
  }
  len = (size_t)s->in[s->pos] | ((size_t)s->in[s->pos + 1] << 8);
  if (s->in[s->pos + 2] != (unsigned char)~len ||
      s->in[s->pos + 3] != (unsigned char)(~len >> 8)) {
    s->err = "invalid stored block lengths";
    return 0;
  }
  s->pos += 4;
  avail = s->n - s->pos;
  if (avail < len) {
    if (!out_put(s, s->in + s->pos, avail)) return 0;
    s->pos = s->n;
    s->truncated = 1;
    return 0;
  }
  if (!out_put(s, s->in + s->pos, len)) return 0;
  s->pos += len;
  return 1;
}

static int fixed(inf_state* s, size_t base) {
  short lengths[FIXLCODES];
  huff lencode, distcode;
  int sym;
  for (sym = 0; sym < 144; sym++) lengths[sym] = 8;
  for (; sym < 256; sym++) lengths[sym] = 9;
  for (; sym < 280; sym++) lengths[sym] = 7;
  for (; sym < FIXLCODES; sym++) lengths[sym] = 8;
  build(&lencode, lengths, FIXLCODES);
  for (sym = 0; sym < MAXDCODES; sym++) lengths[sym] = 5;
  build(&distcode, lengths, MAXDCODES);
  return codes(s, &lencode, &distcode, base);
}

static int dynamic(inf_state* s, size_t base) {
  static const short kOrder[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  short lengths[MAXLCODES + MAXDCODES];
  huff lencode, distcode;
  uint32_t v;
  int nlen, ndist, ncode, index, err;
  if (!getbits(s, 5, &v)) return 0;
  nlen = (int)v + 257;
  if (!getbits(s, 5, &v)) return 0;
  ndist = (int)v + 1;
  if (!getbits(s, 4, &v)) return 0;
  ncode = (int)v + 4;
  if (nlen > MAXLCODES || ndist > MAXDCODES) {
    s->err = "too many length or distance symbols";
    return 0;
  }
  for (index = 0; index < ncode; index++) {
    if (!getbits(s, 3, &v)) return 0;
    lengths[kOrder[index]] = (short)v;
  }
  for (; index < 19; index++) lengths[kOrder[index]] = 0;
  err = build(&lencode, lengths, 19);
  if (err != 0 || lencode.empty) {
    s->err = "invalid code lengths set";
    return 0;
  }
  index = 0;
  while (index < nlen + ndist) {
    int sym = decode(s, &lencode), len = 0, rep;
    if (sym == -1) return 0;
    if (sym < 0) {
      s->err = "invalid code lengths set";
      return 0;
    }
    if (sym < 16) {
      lengths[index++] = (short)sym;
      continue;
    }
    if (sym == 16) {
      if (index == 0) {
        s->err = "invalid bit length repeat";
        return 0;
      }
      len = lengths[index - 1];
      if (!getbits(s, 2, &v)) return 0;
      rep = 3 + (int)v;
    } else if (sym == 17) {
      if (!getbits(s, 3, &v)) return 0;
      rep = 3 + (int)v;
    } else {
      if (!getbits(s, 7, &v)) return 0;
      rep = 11 + (int)v;
    }
    if (index + rep > nlen + ndist) {
      s->err = "invalid bit length repeat";
      return 0;
    }
    while (rep--) lengths[index++] = (short)len;
  }
  if (lengths[256] == 0) {
    s->err = "invalid code -- missing end-of-block";
    return 0;
  }
  err = build(&lencode, lengths, nlen);
  if (err < 0 || (err > 0 && max_len(&lencode) != 1)) {
    s->err = "invalid literal/lengths set";
    return 0;
  }
  err = build(&distcode, lengths + nlen, ndist);
  if (err < 0 || (err > 0 && max_len(&distcode) != 1)) {
    s->err = "invalid distances set";
    return 0;
  }
  return codes(s, &lencode, &distcode, base);
}

/* One raw DEFLATE stream; 1 when its last block ended. */
static int deflate_stream(inf_state* s) {
  size_t base = s->out->len;
  uint32_t last, type;
  do {
    int ok;
    if (!getbits(s, 1, &last)) return 0;
    if (!getbits(s, 2, &type)) return 0;
    if (type == 0) {
      ok = stored(s);
    } else if (type == 1) {
      ok = fixed(s, base);
    } else if (type == 2) {
      ok = dynamic(s, base);
    } else {
      s->err = "invalid block type";
      return 0;
    }
    if (!ok) return 0;
  } while (!last);
  s->bitbuf = 0;
  s->bitcnt = 0; /* the trailer starts at a byte boundary */
  return 1;
}

static uint32_t adler32(const unsigned char* p, size_t n) {
  uint32_t a = 1, b = 0;
  size_t i;
  for (i = 0; i < n; i++) {
    a = (a + p[i]) % 65521u;
    b = (b + a) % 65521u;
  }
  return (b << 16) | a;
}

static uint32_t crc32_of(const unsigned char* p, size_t n) {
  uint32_t table[256], c = 0xffffffffu;
  uint32_t i;
  size_t j;
  for (i = 0; i < 256; i++) {
    uint32_t r = i;
    int k;
    for (k = 0; k < 8; k++) r = (r & 1u) ? 0xedb88320u ^ (r >> 1) : r >> 1;
    table[i] = r;
  }
  for (j = 0; j < n; j++) c = table[(c ^ p[j]) & 0xffu] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

/* Skips a NUL-terminated header field; 0 when the input ends first. */
static int skip_cstring(inf_state* s) {
  while (s->pos < s->n) {
    if (s->in[s->pos++] == 0) return 1;
  }
  s->truncated = 1;
  return 0;
}

static int zlib_stream(inf_state* s) {
  uint32_t cmf, flg, want;
  size_t start;
  if (s->pos + 2 > s->n) {
    s->truncated = 1;
    return 0;
  }
  cmf = s->in[s->pos];
  flg = s->in[s->pos + 1];
  if (((cmf << 8) | flg) % 31u != 0) {
    s->err = "incorrect header check";
    return 0;
  }
  if ((cmf & 0x0f) != 8) {
    s->err = "unknown compression method";
    return 0;
  }
  if ((cmf >> 4) + 8 > 15) {
    s->err = "invalid window size";
    return 0;
  }
  if (flg & 0x20) {
    s->err = "need dictionary";
    return 0;
  }
  s->pos += 2;
  start = s->out->len;
  if (!deflate_stream(s)) return 0;
  if (s->pos + 4 > s->n) {
    s->truncated = 1;
    return 0;
  }
  want = ((uint32_t)s->in[s->pos] << 24) | ((uint32_t)s->in[s->pos + 1] << 16) |
         ((uint32_t)s->in[s->pos + 2] << 8) | s->in[s->pos + 3];
  s->pos += 4;
  if (adler32(s->out->p + start, s->out->len - start) != want) {
    s->err = "incorrect data check";
    return 0;
  }
  return 1;
}

static int gzip_member(inf_state* s) {
  unsigned flags;
  size_t start;
  uint32_t crc, isize;
  if (s->pos + 10 > s->n) {
    /* zlib looks at the magic bytes as soon as it has them */
    if (s->pos < s->n && s->in[s->pos] != 0x1f) s->err = "incorrect header check";
    if (s->pos + 1 < s->n && s->in[s->pos + 1] != 0x8b) s->err = "incorrect header check";
    s->truncated = s->err == NULL;
    return 0;
  }
  if (s->in[s->pos] != 0x1f || s->in[s->pos + 1] != 0x8b) {
    s->err = "incorrect header check";
    return 0;
  }
  if (s->in[s->pos + 2] != 8) {
    s->err = "unknown compression method";
    return 0;
  }
  flags = s->in[s->pos + 3];
  if (flags & 0xe0) {
    s->err = "unknown header flags set";
    return 0;
  }
  s->pos += 10;
  if (flags & 4) { /* FEXTRA */
    size_t xlen;
    if (s->pos + 2 > s->n) {
      s->truncated = 1;
      return 0;
    }
    xlen = (size_t)s->in[s->pos] | ((size_t)s->in[s->pos + 1] << 8);
    s->pos += 2;
    if (s->n - s->pos < xlen) {
      s->truncated = 1;
      return 0;
    }
    s->pos += xlen;
  }
  if ((flags & 8) && !skip_cstring(s)) return 0;  /* FNAME */
  if ((flags & 16) && !skip_cstring(s)) return 0; /* FCOMMENT */
  if (flags & 2) {                                /* FHCRC */
    if (s->pos + 2 > s->n) {
      s->truncated = 1;
      return 0;
    }
    s->pos += 2;
  }
  start = s->out->len;
  if (!deflate_stream(s)) return 0;
  if (s->pos + 8 > s->n) {
    s->truncated = 1;
    return 0;
  }
  crc = (uint32_t)s->in[s->pos] | ((uint32_t)s->in[s->pos + 1] << 8) |
        ((uint32_t)s->in[s->pos + 2] << 16) | ((uint32_t)s->in[s->pos + 3] << 24);
  isize = (uint32_t)s->in[s->pos + 4] | ((uint32_t)s->in[s->pos + 5] << 8) |
          ((uint32_t)s->in[s->pos + 6] << 16) | ((uint32_t)s->in[s->pos + 7] << 24);
  s->pos += 8;
  if (crc32_of(s->out->p + start, s->out->len - start) != crc) {
    s->err = "incorrect data check";
    return 0;
  }
  if ((uint32_t)(s->out->len - start) != isize) {
    s->err = "incorrect length check";
    return 0;
  }
  return 1;
}

int tfe_inflate_ex(const unsigned char* in, size_t n, int gzip, size_t limit, int keep_partial,
                   unsigned char** out, size_t* out_len, const char** err, int* ended) {
  inf_out o = {NULL, 0, 0, limit};
  inf_state s;
  memset(&s, 0, sizeof s);
  s.in = in;
  s.n = n;
  s.out = &o;
  *out = NULL;
  *out_len = 0;
  *err = NULL;
  if (ended != NULL) *ended = 0;
  if (n > 0) {
    if (gzip) {
      while (gzip_member(&s) && s.pos < s.n) {
      }
    } else {
      zlib_stream(&s);
    }
  }
  if (ended != NULL) *ended = !s.truncated && s.err == NULL && !s.oom;
  if (s.oom) {
    tfe_free(o.p);
    return TFE_INFLATE_NOMEM;
  }
  if (s.err != NULL) {
    *err = s.err;
    if (!keep_partial) {
      tfe_free(o.p);
      return TFE_INFLATE_DATA_ERROR;
    }
    *out = o.p;
    *out_len = o.len;
    return TFE_INFLATE_DATA_ERROR;
  }
  *out = o.p;
  *out_len = o.len;
  return TFE_INFLATE_OK;
}

int tfe_inflate(const unsigned char* in, size_t n, int gzip, size_t limit, unsigned char** out,
                size_t* out_len, const char** err) {
  return tfe_inflate_ex(in, n, gzip, limit, 0, out, out_len, err, NULL);
}
