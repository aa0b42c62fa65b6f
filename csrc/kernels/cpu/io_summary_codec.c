/* CPU kernels: EncodePng, EncodeWav, DecodeWav, AudioSpectrogram and Mfcc
 * with TF 2.21's semantics and messages, plus the PNG and WAV encoders the
 * summary ops share (io_summary.h).
 *
 * PNG: a self-contained encoder. Rows are filtered the way libpng does by
 * default (each row takes the filter whose output has the smallest sum of
 * absolute signed bytes), then compressed with our own DEFLATE (greedy
 * LZ77 over hash chains whose depth follows the zlib level, dynamic
 * Huffman blocks; level 0 stores). The stream is valid zlib but not
 * zlib's exact bytes, so PNGs decode to TF's pixels without being
 * byte-identical to TF's.
 *
 * WAV: 16-bit PCM little-endian as TF writes it (44-byte header) and TF's
 * reader (skips JUNK-like chunks before "fmt ", 16 or 18 byte format
 * chunk, exactly one "data" chunk).
 *
 * AudioSpectrogram: periodic Hann window, frames of window_size every
 * stride samples, an FFT of the next power of two in double precision,
 * squared magnitudes (or their square roots). Mfcc: HTK-style mel
 * filterbank on sqrt of the spectrogram, log with a 1e-12 floor, DCT-II
 * with sqrt(2/N) scaling, as TF's. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/io_summary.h"
#include "kernels/cpu/kutil.h"

/* ------------------------------------------------------------------------
 * CRC-32 (PNG chunks) and Adler-32 (zlib trailer). */

static uint32_t g_crc_table[256];
static pthread_once_t g_crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void) {
  uint32_t n;
  for (n = 0; n < 256; n++) {
    uint32_t c = n;
    int k;
    for (k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    g_crc_table[n] = c;
  }
}

static uint32_t crc32_update(uint32_t crc, const unsigned char* p, size_t n) {
  size_t i;
  crc = ~crc;
  for (i = 0; i < n; i++) crc = g_crc_table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

static uint32_t adler32(const unsigned char* p, size_t n) {
  uint32_t a = 1, b = 0;
  while (n > 0) {
    size_t chunk = n > 5552 ? 5552 : n;
    size_t i;
    n -= chunk;
    for (i = 0; i < chunk; i++) {
      a += p[i];
      b += a;
    }
    p += chunk;
    a %= 65521u;
    b %= 65521u;
  }
  return (b << 16) | a;
}

/* ------------------------------------------------------------------------
 * Output bytes and LSB-first bits. */

typedef struct obuf {
  unsigned char* d;
  size_t len, cap;
  uint64_t acc;
  int nbits;
  int oom;
} obuf;

static int ob_reserve(obuf* o, size_t extra) {
  size_t cap;
  unsigned char* p;
  if (o->oom) return 0;
  if (o->len + extra <= o->cap) return 1;
  cap = o->cap ? o->cap : 256;
  while (cap < o->len + extra) cap *= 2;
  p = (unsigned char*)tfe_realloc(o->d, cap);
  if (p == NULL) {
    o->oom = 1;
    return 0;
  }
  o->d = p;
  o->cap = cap;
  return 1;
}

static void ob_bytes(obuf* o, const void* p, size_t n) {
  if (n == 0 || !ob_reserve(o, n)) return;
  memcpy(o->d + o->len, p, n);
  o->len += n;
}

static void ob_be32(obuf* o, uint32_t v) {
  unsigned char c[4];
  c[0] = (unsigned char)(v >> 24);
  c[1] = (unsigned char)(v >> 16);
  c[2] = (unsigned char)(v >> 8);
  c[3] = (unsigned char)v;
  ob_bytes(o, c, 4);
}

static void ob_bits(obuf* o, uint32_t bits, int n) {
  o->acc |= (uint64_t)bits << o->nbits;
  o->nbits += n;
  if (o->nbits >= 32) {
    if (ob_reserve(o, 4)) {
      o->d[o->len] = (unsigned char)o->acc;
      o->d[o->len + 1] = (unsigned char)(o->acc >> 8);
      o->d[o->len + 2] = (unsigned char)(o->acc >> 16);
      o->d[o->len + 3] = (unsigned char)(o->acc >> 24);
      o->len += 4;
    }
    o->acc >>= 32;
    o->nbits -= 32;
  }
}

/* Pads to a byte boundary and writes out the pending bits. */
static void ob_align(obuf* o) {
  while (o->nbits > 0) {
    unsigned char c = (unsigned char)o->acc;
    ob_bytes(o, &c, 1);
    o->acc >>= 8;
    o->nbits = o->nbits >= 8 ? o->nbits - 8 : 0;
  }
  o->acc = 0;
  o->nbits = 0;
}

/* ------------------------------------------------------------------------
 * Huffman codes limited to maxbits (zlib's way of shortening a tree that
 * is too deep: move leaves up while keeping the code complete). */

typedef struct hsym {
  uint32_t freq;
  int sym;
} hsym;

static int hsym_cmp(const void* a, const void* b) {
  const hsym* x = (const hsym*)a;
  const hsym* y = (const hsym*)b;
  if (x->freq != y->freq) return x->freq < y->freq ? -1 : 1;
  return x->sym - y->sym;
}

/* Code lengths for n symbols (n <= 288); at least two symbols must have
 * a nonzero frequency. */
static void huff_lengths(const uint32_t* freq, int n, int maxbits,
                         uint8_t* lens) {
  hsym leaves[288];
  uint64_t w[576];
  int parent[576], depth[576], bl_count[32];
  int m = 0, i, q1, q2, nnodes, bits, overflow = 0, idx;
  memset(lens, 0, (size_t)n);
  for (i = 0; i < n; i++) {
    if (freq[i] > 0) {
      leaves[m].freq = freq[i];
      leaves[m].sym = i;
      m++;
    }
  }
  if (m == 0) return;
  if (m == 1) {
    lens[leaves[0].sym] = 1;
    return;
  }
  qsort(leaves, (size_t)m, sizeof(hsym), hsym_cmp);
  for (i = 0; i < m; i++) w[i] = leaves[i].freq;
  /* Two queues: leaves in order, internal nodes in creation order. */
  q1 = 0;
  q2 = m;
  nnodes = m;
  while (nnodes < 2 * m - 1) {
    int pick[2], j;
    for (j = 0; j < 2; j++) {
      if (q1 < m && (q2 >= nnodes || w[q1] <= w[q2])) {
        pick[j] = q1++;
      } else {
        pick[j] = q2++;
      }
    }
    w[nnodes] = w[pick[0]] + w[pick[1]];
    parent[pick[0]] = nnodes;
    parent[pick[1]] = nnodes;
    nnodes++;
  }
  depth[nnodes - 1] = 0;
  for (i = nnodes - 2; i >= 0; i--) depth[i] = depth[parent[i]] + 1;
  memset(bl_count, 0, sizeof bl_count);
  for (i = 0; i < m; i++) {
    int d = depth[i];
    if (d > maxbits) {
      d = maxbits;
      overflow++;
    }
    bl_count[d]++;
  }
  while (overflow > 0) {
    bits = maxbits - 1;
    while (bits > 0 && bl_count[bits] == 0) bits--;
    if (bits == 0) break;
    bl_count[bits]--;
    bl_count[bits + 1] += 2;
    bl_count[maxbits]--;
    overflow -= 2;
  }
  /* The least frequent symbols get the longest codes. */
  idx = 0;
  for (bits = maxbits; bits >= 1; bits--) {
    int c;
    for (c = 0; c < bl_count[bits] && idx < m; c++) {
      lens[leaves[idx++].sym] = (uint8_t)bits;
    }
  }
}

/* Canonical codes, bit-reversed for LSB-first output. */
static void huff_codes(const uint8_t* lens, int n, uint16_t* codes) {
  int bl_count[16] = {0}, next[16], i, code = 0, b;
  for (i = 0; i < n; i++) bl_count[lens[i]]++;
  bl_count[0] = 0;
  for (b = 1; b < 16; b++) {
    code = (code + bl_count[b - 1]) << 1;
    next[b] = code;
  }
  for (i = 0; i < n; i++) {
    int len = lens[i], c, r = 0, j;
    if (len == 0) {
      codes[i] = 0;
      continue;
    }
    c = next[len]++;
    for (j = 0; j < len; j++) {
      r = (r << 1) | (c & 1);
      c >>= 1;
    }
    codes[i] = (uint16_t)r;
  }
}

/* ------------------------------------------------------------------------
 * DEFLATE */

static const uint16_t kLenBase[29] = {3,  4,  5,  6,   7,   8,   9,   10,
                                      11, 13, 15, 17,  19,  23,  27,  31,
                                      35, 43, 51, 59,  67,  83,  99,  115,
                                      131, 163, 195, 227, 258};
static const uint16_t kDistBase[30] = {
    1,    2,    3,    4,    5,    7,     9,     13,    17,    25,
    33,   49,   65,   97,   129,  193,   257,   385,   513,   769,
    1025, 1537, 2049, 3073, 4097, 6145,  8193,  12289, 16385, 24577};

static int hibit(uint32_t x) {
  int b = 0;
  while (x >>= 1) b++;
  return b;
}

static int len_code(int len) {
  int l = len - 3, hb;
  if (l < 8) return 257 + l;
  if (l == 255) return 285;
  hb = hibit((uint32_t)l);
  return 257 + 4 * (hb - 1) + ((l >> (hb - 2)) & 3);
}

static int len_extra(int code) {
  if (code < 265 || code == 285) return 0;
  return (code - 261) / 4;
}

static int dist_code(int d) {
  int x = d - 1, hb;
  if (d <= 4) return d - 1;
  hb = hibit((uint32_t)x);
  return 2 * hb + ((x >> (hb - 1)) & 1);
}

static int dist_extra(int code) { return code < 4 ? 0 : code / 2 - 1; }

#define DF_WSIZE 32768
#define DF_WMASK (DF_WSIZE - 1)
#define DF_HBITS 15
#define DF_HSIZE (1 << DF_HBITS)
#define DF_BLOCK 16384 /* symbols per block */

typedef struct dfsym {
  uint16_t lit_or_len; /* literal byte, or match length */
  uint16_t dist;       /* 0 for a literal */
} dfsym;

static void write_block(obuf* o, const dfsym* syms, int nsyms, int last) {
  uint32_t lf[286], df[30], cf[19];
  uint8_t ll[286], dl[30], cl[19], all[316];
  uint16_t lc[286], dc[30], cc[19];
  int i, hlit, hdist, hclen, nall, nrle = 0;
  uint8_t rle_sym[316], rle_extra[316];
  static const uint8_t order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                    11, 4,  12, 3, 13, 2, 14, 1, 15};
  memset(lf, 0, sizeof lf);
  memset(df, 0, sizeof df);
  memset(cf, 0, sizeof cf);
  for (i = 0; i < nsyms; i++) {
    if (syms[i].dist == 0) {
      lf[syms[i].lit_or_len]++;
    } else {
      lf[len_code(syms[i].lit_or_len)]++;
      df[dist_code(syms[i].dist)]++;
    }
  }
  lf[256] = 1;
  /* Keep every code complete: at least two used symbols per tree. */
  {
    int used = 0;
    for (i = 0; i < 286; i++) used += lf[i] > 0;
    if (used < 2) lf[lf[0] ? 1 : 0] = 1;
    used = 0;
    for (i = 0; i < 30; i++) used += df[i] > 0;
    if (used < 2) {
      if (df[0] == 0) df[0] = 1;
      if (used < 2 && df[1] == 0) df[1] = 1;
    }
  }
  huff_lengths(lf, 286, 15, ll);
  huff_lengths(df, 30, 15, dl);
  huff_codes(ll, 286, lc);
  huff_codes(dl, 30, dc);
  for (hlit = 286; hlit > 257 && ll[hlit - 1] == 0; hlit--) {
  }
  for (hdist = 30; hdist > 1 && dl[hdist - 1] == 0; hdist--) {
  }
  nall = hlit + hdist;
  memcpy(all, ll, (size_t)hlit);
  memcpy(all + hlit, dl, (size_t)hdist);
  /* Run-length code the lengths (16: repeat previous, 17/18: zeros). */
  for (i = 0; i < nall;) {
    int v = all[i], run = 1;
    while (i + run < nall && all[i + run] == v) run++;
    if (v == 0 && run >= 3) {
      int r = run > 138 ? 138 : run;
      if (r >= 11) {
        rle_sym[nrle] = 18;
        rle_extra[nrle++] = (uint8_t)(r - 11);
      } else {
        rle_sym[nrle] = 17;
        rle_extra[nrle++] = (uint8_t)(r - 3);
      }
      i += r;
    } else if (v != 0 && run >= 4) {
      int r;
      rle_sym[nrle] = (uint8_t)v;
      rle_extra[nrle++] = 0;
      i++;
      run--;
      while (run >= 3) {
        r = run > 6 ? 6 : run;
        rle_sym[nrle] = 16;
        rle_extra[nrle++] = (uint8_t)(r - 3);
        i += r;
        run -= r;
      }
    } else {
      rle_sym[nrle] = (uint8_t)v;
      rle_extra[nrle++] = 0;
      i++;
    }
  }
  for (i = 0; i < nrle; i++) cf[rle_sym[i]]++;
  {
    int used = 0;
    for (i = 0; i < 19; i++) used += cf[i] > 0;
    if (used < 2) {
      if (cf[0] == 0) {
        cf[0] = 1;
      } else {
        cf[1] = 1;
      }
    }
  }
  huff_lengths(cf, 19, 7, cl);
  huff_codes(cl, 19, cc);
  for (hclen = 19; hclen > 4 && cl[order[hclen - 1]] == 0; hclen--) {
  }
  ob_bits(o, last ? 1u : 0u, 1);
  ob_bits(o, 2, 2);
  ob_bits(o, (uint32_t)(hlit - 257), 5);
  ob_bits(o, (uint32_t)(hdist - 1), 5);
  ob_bits(o, (uint32_t)(hclen - 4), 4);
  for (i = 0; i < hclen; i++) ob_bits(o, cl[order[i]], 3);
  for (i = 0; i < nrle; i++) {
    int s = rle_sym[i];
    ob_bits(o, cc[s], cl[s]);
    if (s == 16) ob_bits(o, rle_extra[i], 2);
    if (s == 17) ob_bits(o, rle_extra[i], 3);
    if (s == 18) ob_bits(o, rle_extra[i], 7);
  }
  for (i = 0; i < nsyms; i++) {
    if (syms[i].dist == 0) {
      int s = syms[i].lit_or_len;
      ob_bits(o, lc[s], ll[s]);
    } else {
      int len = syms[i].lit_or_len, d = syms[i].dist;
      int c = len_code(len), e = len_extra(c);
      int dcode = dist_code(d), de = dist_extra(dcode);
      ob_bits(o, lc[c], ll[c]);
      if (e) ob_bits(o, (uint32_t)(len - kLenBase[c - 257]), e);
      ob_bits(o, dc[dcode], dl[dcode]);
      if (de) ob_bits(o, (uint32_t)(d - kDistBase[dcode]), de);
    }
  }
  ob_bits(o, lc[256], ll[256]);
}

static void store_blocks(obuf* o, const unsigned char* in, size_t n) {
  size_t pos = 0;
  do {
    size_t chunk = n - pos > 65535 ? 65535 : n - pos;
    unsigned char hdr[4];
    int last = pos + chunk >= n;
    ob_bits(o, last ? 1u : 0u, 1);
    ob_bits(o, 0, 2);
    ob_align(o);
    hdr[0] = (unsigned char)chunk;
    hdr[1] = (unsigned char)(chunk >> 8);
    hdr[2] = (unsigned char)~chunk;
    hdr[3] = (unsigned char)(~chunk >> 8);
    ob_bytes(o, hdr, 4);
    ob_bytes(o, in + pos, chunk);
    pos += chunk;
  } while (pos < n);
}

static inline uint32_t hash3(const unsigned char* p) {
  uint32_t v = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16);
  return (v * 2654435761u) >> (32 - DF_HBITS);
}

/* A zlib stream of in[0..n) at zlib level `level` (-1 = 6). */
static int zlib_compress(const unsigned char* in, size_t n, int level,
                         obuf* o) {
  unsigned char hdr[2] = {0x78, 0x9C};
  int32_t* head = NULL;
  int32_t* prev = NULL;
  dfsym* syms = NULL;
  int nsyms = 0, chain_max, nice;
  size_t pos = 0;
  if (level < 0) level = 6;
  if (level == 0) hdr[1] = 0x01;
  if (level >= 1 && level <= 5) hdr[1] = 0x5E;
  if (level >= 7) hdr[1] = 0xDA;
  ob_bytes(o, hdr, 2);
  if (level == 0 || n == 0) {
    store_blocks(o, in, n);
  } else {
    static const int kChain[10] = {0, 4, 8, 16, 16, 32, 64, 128, 256, 1024};
    static const int kNice[10] = {0, 8, 16, 32, 32, 64, 128, 128, 258, 258};
    chain_max = kChain[level];
    nice = kNice[level];
    head = (int32_t*)tfe_malloc(sizeof(int32_t) * DF_HSIZE);
    prev = (int32_t*)tfe_malloc(sizeof(int32_t) * DF_WSIZE);
    syms = (dfsym*)tfe_malloc(sizeof(dfsym) * DF_BLOCK);
    if (head == NULL || prev == NULL || syms == NULL) {
      o->oom = 1;
      goto out;
    }
    memset(head, 0xFF, sizeof(int32_t) * DF_HSIZE);
    while (pos < n) {
      int best = 0, bdist = 0;
      if (pos + 3 <= n) {
        uint32_t h = hash3(in + pos);
        int32_t cand = head[h];
        int chain = chain_max;
        size_t maxlen = n - pos > 258 ? 258 : n - pos;
        while (cand >= 0 && chain-- > 0 && pos - (size_t)cand <= DF_WSIZE) {
          const unsigned char* a = in + cand;
          const unsigned char* b = in + pos;
          if (a[best] == b[best] && a[0] == b[0]) {
            size_t l = 0;
            while (l < maxlen && a[l] == b[l]) l++;
            if ((int)l > best) {
              best = (int)l;
              bdist = (int)(pos - (size_t)cand);
              if (best >= nice || (size_t)best == maxlen) break;
            }
          }
          {
            int32_t nx = prev[cand & DF_WMASK];
            if (nx >= cand) break;
            cand = nx;
          }
        }
        prev[pos & DF_WMASK] = head[h];
        head[h] = (int32_t)pos;
      }
      if (best >= 3) {
        size_t end = pos + (size_t)best, p;
        syms[nsyms].lit_or_len = (uint16_t)best;
        syms[nsyms].dist = (uint16_t)bdist;
        nsyms++;
        /* Index the match's other positions (all of them for short
         * matches; long runs only at their start). */
        if (best <= 32) {
          for (p = pos + 1; p < end && p + 3 <= n; p++) {
            uint32_t h = hash3(in + p);
            prev[p & DF_WMASK] = head[h];
            head[h] = (int32_t)p;
          }
        }
        pos = end;
      } else {
        syms[nsyms].lit_or_len = in[pos];
        syms[nsyms].dist = 0;
        nsyms++;
        pos++;
      }
      if (nsyms == DF_BLOCK) {
        write_block(o, syms, nsyms, pos >= n);
        nsyms = 0;
      }
    }
    if (nsyms > 0 || pos == 0) write_block(o, syms, nsyms, 1);
    ob_align(o);
  }
  ob_be32(o, adler32(in, n));
out:
  tfe_free(head);
  tfe_free(prev);
  tfe_free(syms);
  return !o->oom;
}

/* ------------------------------------------------------------------------
 * PNG */

static void png_chunk(obuf* o, const char* type, const unsigned char* data,
                      size_t n) {
  uint32_t crc;
  size_t start;
  ob_be32(o, (uint32_t)n);
  start = o->len;
  ob_bytes(o, type, 4);
  ob_bytes(o, data, n);
  if (o->oom) return;
  crc = crc32_update(0, o->d + start, n + 4);
  ob_be32(o, crc);
}

/* Sum of the filtered bytes read as signed magnitudes (libpng's
 * heuristic). */
static uint64_t row_cost(const unsigned char* out, size_t rb) {
  uint64_t sum = 0;
  size_t i;
  for (i = 0; i < rb; i++) {
    unsigned v = out[i];
    sum += v < 128 ? v : 256 - v;
  }
  return sum;
}

/* Filters one row (cur, with the previous raw row prv or NULL) into dst
 * (1 + rb bytes), picking the filter with the smallest cost. tmp holds
 * 4 * rb bytes. */
static void filter_row(const unsigned char* cur, const unsigned char* prv,
                       size_t rb, int bpp, unsigned char* dst,
                       unsigned char* tmp) {
  unsigned char* sub = tmp;
  unsigned char* up = tmp + rb;
  unsigned char* avg = tmp + 2 * rb;
  unsigned char* pae = tmp + 3 * rb;
  size_t i, b = (size_t)bpp < rb ? (size_t)bpp : rb;
  uint64_t best, c;
  int f = 0;
  const unsigned char* out = cur;
  if (prv == NULL) {
    /* Up is None and Paeth is Sub on the first row. */
    for (i = 0; i < b; i++) {
      sub[i] = cur[i];
      avg[i] = cur[i];
    }
    for (i = b; i < rb; i++) {
      sub[i] = (unsigned char)(cur[i] - cur[i - b]);
      avg[i] = (unsigned char)(cur[i] - (cur[i - b] >> 1));
    }
    best = row_cost(cur, rb);
    c = row_cost(sub, rb);
    if (c < best) {
      best = c;
      f = 1;
      out = sub;
    }
    c = row_cost(avg, rb);
    if (c < best) {
      f = 3;
      out = avg;
    }
  } else {
    for (i = 0; i < b; i++) {
      sub[i] = cur[i];
      up[i] = (unsigned char)(cur[i] - prv[i]);
      avg[i] = (unsigned char)(cur[i] - (prv[i] >> 1));
      pae[i] = (unsigned char)(cur[i] - prv[i]);
    }
    for (i = b; i < rb; i++) {
      int a = cur[i - b], u = prv[i], cc = prv[i - b];
      int p = a + u - cc;
      int pa = abs(p - a), pb = abs(p - u), pc = abs(p - cc);
      int pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? u : cc);
      sub[i] = (unsigned char)(cur[i] - a);
      up[i] = (unsigned char)(cur[i] - u);
      avg[i] = (unsigned char)(cur[i] - ((a + u) >> 1));
      pae[i] = (unsigned char)(cur[i] - pred);
    }
    best = row_cost(cur, rb);
    {
      unsigned char* cand[4];
      int k;
      cand[0] = sub;
      cand[1] = up;
      cand[2] = avg;
      cand[3] = pae;
      for (k = 0; k < 4; k++) {
        c = row_cost(cand[k], rb);
        if (c < best) {
          best = c;
          f = k + 1;
          out = cand[k];
        }
      }
    }
  }
  dst[0] = (unsigned char)f;
  memcpy(dst + 1, out, rb);
}

int iosum_png_encode(const uint8_t* data, int width, int height,
                     int64_t row_bytes, int channels, int bits, int level,
                     unsigned char** out, size_t* len) {
  obuf o = {0}, z = {0};
  unsigned char ihdr[13];
  static const unsigned char sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  static const unsigned char color_type[5] = {0, 0, 4, 2, 6};
  size_t rb = (size_t)width * (size_t)channels * (size_t)(bits / 8);
  unsigned char* filt = NULL;
  unsigned char* tmp = NULL;
  unsigned char* swapped = NULL;
  int y, bpp = channels * (bits / 8);
  *out = NULL;
  *len = 0;
  if (width <= 0 || height <= 0 || channels < 1 || channels > 4 ||
      (bits != 8 && bits != 16)) {
    return 0;
  }
  pthread_once(&g_crc_once, crc_init);
  filt = (unsigned char*)tfe_malloc((rb + 1) * (size_t)height);
  tmp = (unsigned char*)tfe_malloc(4 * rb);
  if (bits == 16) swapped = (unsigned char*)tfe_malloc(rb * 2);
  if (filt == NULL || tmp == NULL || (bits == 16 && swapped == NULL)) {
    tfe_free(filt);
    tfe_free(tmp);
    tfe_free(swapped);
    return 0;
  }
  for (y = 0; y < height; y++) {
    const unsigned char* cur = data + (size_t)y * (size_t)row_bytes;
    const unsigned char* prv =
        y > 0 ? data + (size_t)(y - 1) * (size_t)row_bytes : NULL;
    if (bits == 16) {
      /* PNG stores 16-bit samples big-endian. */
      unsigned char* c2 = swapped + (size_t)(y & 1) * rb;
      size_t i;
      uint16_t v;
      for (i = 0; i < rb; i += 2) {
        memcpy(&v, cur + i, 2);
        c2[i] = (unsigned char)(v >> 8);
        c2[i + 1] = (unsigned char)v;
      }
      prv = y > 0 ? swapped + (size_t)((y - 1) & 1) * rb : NULL;
      cur = c2;
    }
    filter_row(cur, prv, rb, bpp, filt + (size_t)y * (rb + 1), tmp);
  }
  tfe_free(tmp);
  tfe_free(swapped);
  ob_bytes(&o, sig, 8);
  ihdr[0] = (unsigned char)(width >> 24);
  ihdr[1] = (unsigned char)(width >> 16);
  ihdr[2] = (unsigned char)(width >> 8);
  ihdr[3] = (unsigned char)width;
  ihdr[4] = (unsigned char)(height >> 24);
  ihdr[5] = (unsigned char)(height >> 16);
  ihdr[6] = (unsigned char)(height >> 8);
  ihdr[7] = (unsigned char)height;
  ihdr[8] = (unsigned char)bits;
  ihdr[9] = color_type[channels];
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  png_chunk(&o, "IHDR", ihdr, 13);
  if (!zlib_compress(filt, (rb + 1) * (size_t)height, level, &z)) {
    tfe_free(filt);
    tfe_free(z.d);
    tfe_free(o.d);
    return 0;
  }
  tfe_free(filt);
  png_chunk(&o, "IDAT", z.d, z.len);
  tfe_free(z.d);
  png_chunk(&o, "IEND", NULL, 0);
  if (o.oom) {
    tfe_free(o.d);
    return 0;
  }
  *out = o.d;
  *len = o.len;
  return 1;
}

/* ------------------------------------------------------------------------
 * WAV */

static void le16(unsigned char* p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}

static void le32(unsigned char* p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}

int iosum_wav_encode(const float* audio, uint64_t sample_rate,
                     uint64_t num_channels, uint64_t num_frames,
                     unsigned char** out, size_t* len, char* errbuf,
                     size_t errcap) {
  uint64_t num_samples, file_size, i;
  unsigned char* d;
  *out = NULL;
  *len = 0;
  if (audio == NULL && num_frames > 0 && num_channels > 0) {
    snprintf(errbuf, errcap, "audio is null");
    return 0;
  }
  if (sample_rate == 0 || sample_rate > 0xFFFFFFFFull) {
    snprintf(errbuf, errcap, "sample_rate must be in (0, 2^32), got: %llu",
             (unsigned long long)sample_rate);
    return 0;
  }
  if (num_channels == 0 || num_channels > 0xFFFFull) {
    snprintf(errbuf, errcap, "num_channels must be in (0, 2^16), got: %llu",
             (unsigned long long)num_channels);
    return 0;
  }
  if (num_frames > (0xFFFFFFFFull / num_channels)) {
    snprintf(errbuf, errcap,
             "Provided channels and frames cannot be encoded as a WAV.");
    return 0;
  }
  num_samples = num_frames * num_channels;
  file_size = 44 + num_samples * 2;
  if (file_size > 0xFFFFFFFFull) {
    snprintf(errbuf, errcap,
             "Provided channels and frames cannot be encoded as a WAV.");
    return 0;
  }
  d = (unsigned char*)tfe_malloc((size_t)file_size);
  if (d == NULL) {
    snprintf(errbuf, errcap, "out of memory encoding a WAV");
    return 0;
  }
  memcpy(d, "RIFF", 4);
  le32(d + 4, (uint32_t)(file_size - 8));
  memcpy(d + 8, "WAVE", 4);
  memcpy(d + 12, "fmt ", 4);
  le32(d + 16, 16);
  le16(d + 20, 1);
  le16(d + 22, (uint32_t)num_channels);
  le32(d + 24, (uint32_t)sample_rate);
  le32(d + 28, (uint32_t)(sample_rate * 2 * num_channels));
  le16(d + 32, (uint32_t)(2 * num_channels));
  le16(d + 34, 16);
  memcpy(d + 36, "data", 4);
  le32(d + 40, (uint32_t)(num_samples * 2));
  for (i = 0; i < num_samples; i++) {
    float v = roundf(audio[i] * 32768.0f);
    int16_t s;
    /* NaN compares false both ways and ends up as the lower clamp, as
     * std::max(NaN, -32768) returns its first argument... then min keeps
     * it: TF's cast of NaN; we map it to 0 instead of undefined. */
    if (v != v) {
      s = 0;
    } else if (v < -32768.0f) {
      s = -32768;
    } else if (v > 32767.0f) {
      s = 32767;
    } else {
      s = (int16_t)v;
    }
    le16(d + 44 + i * 2, (uint16_t)s);
  }
  *out = d;
  *len = (size_t)file_size;
  return 1;
}

/* TF's WAV reader with its messages. */
typedef struct wavr {
  const unsigned char* d;
  int64_t size;
  int64_t off;
  char* err;
  size_t errcap;
} wavr;

static int wr_advance(wavr* r, int64_t inc, int64_t* new_off) {
  if (r->off > r->size) {
    snprintf(r->err, r->errcap, "Initial offset is outside data range: %lld",
             (long long)r->off);
    return 0;
  }
  *new_off = r->off + inc;
  if (*new_off > r->size) {
    snprintf(r->err, r->errcap, "Data too short when trying to read string");
    return 0;
  }
  return 1;
}

static int wr_bytes(wavr* r, int64_t n, const unsigned char** p) {
  int64_t no;
  if (!wr_advance(r, n, &no)) return 0;
  *p = r->d + r->off;
  r->off = no;
  return 1;
}

static int wr_u32(wavr* r, uint32_t* v) {
  const unsigned char* p;
  if (!wr_bytes(r, 4, &p)) return 0;
  *v = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
       ((uint32_t)p[3] << 24);
  return 1;
}

static int wr_u16(wavr* r, uint16_t* v) {
  const unsigned char* p;
  if (!wr_bytes(r, 2, &p)) return 0;
  *v = (uint16_t)(p[0] | (p[1] << 8));
  return 1;
}

static int wr_expect(wavr* r, const char* text) {
  const unsigned char* p;
  if (!wr_bytes(r, 4, &p)) return 0;
  if (memcmp(p, text, 4) != 0) {
    snprintf(r->err, r->errcap, "Header mismatch: Expected %s but found %.4s",
             text, (const char*)p);
    return 0;
  }
  return 1;
}

static int wav_decode(const unsigned char* data, int64_t size, float** out,
                      uint32_t* sample_count, uint16_t* channels,
                      uint32_t* sample_rate, char* err, size_t errcap) {
  wavr r;
  uint32_t total, fmt_size, bytes_per_second, chunk_size;
  uint16_t audio_format, bytes_per_sample, bits;
  const unsigned char* id;
  int data_found = 0;
  static const char* const kSkip[] = {"JUNK", "bext", "iXML", "qlty",
                                      "mext", "levl", "link", "axml"};
  r.d = data;
  r.size = size;
  r.off = 0;
  r.err = err;
  r.errcap = errcap;
  *out = NULL;
  if (!wr_expect(&r, "RIFF") || !wr_u32(&r, &total) ||
      !wr_expect(&r, "WAVE") || !wr_bytes(&r, 4, &id)) {
    return 0;
  }
  while (memcmp(id, "fmt ", 4) != 0) {
    size_t q;
    int ok = 0;
    int64_t no;
    for (q = 0; q < sizeof kSkip / sizeof kSkip[0]; q++) {
      if (memcmp(id, kSkip[q], 4) == 0) ok = 1;
    }
    if (!ok) {
      snprintf(err, errcap, "Unexpected field %.4s", (const char*)id);
      return 0;
    }
    if (!wr_u32(&r, &chunk_size)) return 0;
    if (!wr_advance(&r, chunk_size, &no)) return 0;
    r.off = no;
    if (!wr_bytes(&r, 4, &id)) return 0;
  }
  if (!wr_u32(&r, &fmt_size)) return 0;
  if (fmt_size != 16 && fmt_size != 18) {
    snprintf(err, errcap,
             "Bad format chunk size for WAV: Expected 16 or 18, but got%u",
             fmt_size);
    return 0;
  }
  if (!wr_u16(&r, &audio_format)) return 0;
  if (audio_format != 1) {
    snprintf(err, errcap,
             "Bad audio format for WAV: Expected 1 (PCM), but got%u",
             (unsigned)audio_format);
    return 0;
  }
  if (!wr_u16(&r, channels)) return 0;
  if (*channels < 1) {
    snprintf(err, errcap,
             "Bad number of channels for WAV: Expected at least 1, but got %u",
             (unsigned)*channels);
    return 0;
  }
  if (!wr_u32(&r, sample_rate) || !wr_u32(&r, &bytes_per_second) ||
      !wr_u16(&r, &bytes_per_sample) || !wr_u16(&r, &bits)) {
    return 0;
  }
  if (bits != 16) {
    snprintf(err, errcap, "Can only read 16-bit WAV files, but received %u",
             (unsigned)bits);
    return 0;
  }
  {
    uint32_t expect_bps = ((uint32_t)bits * *channels + 7) / 8;
    uint32_t expect_bpsec;
    if (bytes_per_sample != expect_bps) {
      snprintf(err, errcap,
               "Bad bytes per sample in WAV header: Expected %u but got %u",
               expect_bps, (unsigned)bytes_per_sample);
      return 0;
    }
    expect_bpsec = (uint32_t)bytes_per_sample * *sample_rate;
    if (bytes_per_second != expect_bpsec) {
      snprintf(err, errcap,
               "Bad bytes per second in WAV header: Expected %u but got %u "
               "(sample_rate=%u, bytes_per_sample=%u)",
               expect_bpsec, bytes_per_second, *sample_rate,
               (unsigned)bytes_per_sample);
      return 0;
    }
  }
  if (fmt_size == 18) r.off += 2;
  while (r.off < r.size) {
    const unsigned char* cid;
    if (!wr_bytes(&r, 4, &cid) || !wr_u32(&r, &chunk_size)) {
      tfe_free(*out);
      *out = NULL;
      return 0;
    }
    if (chunk_size > 2147483647u) {
      snprintf(err, errcap,
               "WAV data chunk '%.4s' is too large: %u bytes, but the limit "
               "is 2147483647",
               (const char*)cid, chunk_size);
      tfe_free(*out);
      *out = NULL;
      return 0;
    }
    if (memcmp(cid, "data", 4) == 0) {
      uint32_t data_count, i;
      int64_t no;
      if (data_found) {
        snprintf(err, errcap, "More than one data chunk found in WAV");
        tfe_free(*out);
        *out = NULL;
        return 0;
      }
      data_found = 1;
      *sample_count = chunk_size / bytes_per_sample;
      data_count = *sample_count * *channels;
      /* TF checks 2 * data_count as an int64 increment. */
      if (!wr_advance(&r, (int64_t)2 * data_count, &no)) return 0;
      *out = (float*)tfe_malloc(sizeof(float) * (data_count ? data_count : 1));
      if (*out == NULL) {
        snprintf(err, errcap, "out of memory decoding a WAV");
        return 0;
      }
      for (i = 0; i < data_count; i++) {
        const unsigned char* p = r.d + r.off + 2 * (int64_t)i;
        int16_t s = (int16_t)(uint16_t)(p[0] | (p[1] << 8));
        (*out)[i] = (float)s * (1.0f / 32768.0f);
      }
      r.off += 2 * (int64_t)data_count;
    } else {
      r.off += chunk_size;
    }
  }
  if (!data_found) {
    snprintf(err, errcap, "No data chunk found in WAV");
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------------
 * EncodeWav / DecodeWav */

static void k_encode_wav(tfe_kernel_context* k) {
  const TF_Tensor* audio = k->inputs[0];
  const TF_Tensor* sr = k->inputs[1];
  kutil_shape_buf sb;
  int32_t rate;
  int64_t n;
  unsigned char* wav = NULL;
  size_t len = 0;
  char err[200];
  if (audio->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "audio must be 2-dimensional%s",
               kutil_tshape(audio, &sb));
    return;
  }
  if (sr->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input sample_rate should be a scalar tensor, got %s instead.",
               kutil_tshape(sr, &sb));
    return;
  }
  rate = ((const int32_t*)kutil_data(sr))[0];
  n = kutil_num_elements(audio);
  if (n >= 2147483647LL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Cannot encode audio with >= max int32 elements");
    return;
  }
  if (!iosum_wav_encode((const float*)kutil_data(audio),
                        (uint64_t)(int64_t)rate,
                        (uint64_t)(int64_t)(int32_t)audio->dims[1],
                        (uint64_t)(int64_t)(int32_t)audio->dims[0], &wav,
                        &len, err, sizeof err)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s", err);
    return;
  }
  iosum_set_string_output(k, 0, wav, len);
  tfe_free(wav);
}

static void k_decode_wav(tfe_kernel_context* k) {
  const TF_Tensor* c = k->inputs[0];
  kutil_shape_buf sb;
  const TF_TString* s;
  int32_t want_ch, want_n, out_n, out_ch;
  float* samples = NULL;
  uint32_t count = 0, rate = 0;
  uint16_t chans = 0;
  char err[256];
  int64_t dims[2], i, j;
  TF_Tensor* out;
  TF_Tensor* rt;
  float* o;
  if (c->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "contents must be scalar, got shape %s",
               kutil_tshape(c, &sb));
    return;
  }
  if (!kutil_attr_int32(k, "desired_channels", -1, &want_ch) ||
      !kutil_attr_int32(k, "desired_samples", -1, &want_n)) {
    return;
  }
  s = (const TF_TString*)kutil_data(c);
  if (TF_TString_GetSize(s) > 2147483647u) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "WAV contents are too large for int: %zu",
               TF_TString_GetSize(s));
    return;
  }
  if (!wav_decode((const unsigned char*)TF_TString_GetDataPointer(s),
                  (int64_t)TF_TString_GetSize(s), &samples, &count, &chans,
                  &rate, err, sizeof err)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s", err);
    return;
  }
  if (want_ch < -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "desired_channels must be >= -1, got %d",
               want_ch);
    goto done;
  }
  if (want_n < -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "desired_samples must be >= -1, got %d",
               want_n);
    goto done;
  }
  out_n = want_n == -1 ? (int32_t)count : want_n;
  out_ch = want_ch == -1 ? (int32_t)chans : want_ch;
  if (out_n < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Output sample count must be >= 0, got %d", out_n);
    goto done;
  }
  if (out_ch < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Output channel count must be >= 0, got %d", out_ch);
    goto done;
  }
  dims[0] = out_n;
  dims[1] = out_ch;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, dims, 2);
  if (out == NULL) goto done;
  o = (float*)kutil_data(out);
  for (i = 0; i < out_n; i++) {
    for (j = 0; j < out_ch; j++) {
      float v = 0.0f;
      if (i < (int64_t)count) {
        int64_t src = j < chans ? j : chans - 1;
        v = samples[i * chans + src];
      }
      o[i * out_ch + j] = v;
    }
  }
  rt = tfe_kernel_alloc_output(k, 1, TF_INT32, NULL, 0);
  if (rt != NULL) ((int32_t*)kutil_data(rt))[0] = (int32_t)rate;
done:
  tfe_free(samples);
}

/* ------------------------------------------------------------------------
 * EncodePng */

static void k_encode_png(tfe_kernel_context* k) {
  const TF_Tensor* im = k->inputs[0];
  kutil_shape_buf sb;
  int32_t level;
  int bits = im->dtype == TF_UINT16 ? 16 : 8;
  int bd, i;
  int64_t h, w, c, nb = 1, b, n;
  int64_t row_bytes, img_bytes;
  TF_Tensor* out;
  TF_TString* os;
  char bad[512];
  size_t blen = 0;
  int nbad = 0;
  if (!kutil_attr_int32(k, "compression", -1, &level)) return;
  if (level < -1 || level > 9) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "compression should be in [-1,9], got %d",
               level);
    return;
  }
  if (im->num_dims < 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "images must be at least rank 3%s",
               kutil_tshape(im, &sb));
    return;
  }
  n = kutil_num_elements(im);
  if (n >= 2147483647LL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "image cannot have >= int32 max elements");
    return;
  }
  bd = im->num_dims - 3;
  h = im->dims[bd];
  w = im->dims[bd + 1];
  c = im->dims[bd + 2];
  /* TF multiplies width and channels as int32 (the element count bound
   * keeps the product in range unless the image is empty). */
  {
    int64_t wc = (int64_t)(int32_t)w * (int64_t)(int32_t)c;
    if (wc < 0 || wc >= 2147483647LL / 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "image too wide to encode");
      return;
    }
  }
  if (c < 1 || c > 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "image must have 1, 2, 3, or 4 channels, got %d", (int)c);
    return;
  }
  for (i = 0; i < bd; i++) {
    if (!tfe_checked_mul_i64(nb, im->dims[i], &nb)) nb = -1;
  }
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, im->dims, bd);
  if (out == NULL) return;
  if (n == 0) {
    /* No pixels: nothing to encode, or images of zero width or height,
     * which libpng refuses (TF's encoder aborts on them; tfe reports each
     * image as failed, listing the first few). Dims may be huge here:
     * nothing below multiplies them. */
    if (nb != 0) {
      bad[0] = '\0';
      for (b = 0; b < nb && b < 16; b++) {
        blen += (size_t)snprintf(bad + blen, sizeof bad - blen, "%s%lld",
                                 b ? ", " : "", (long long)b);
      }
      KUTIL_FAIL(k, TF_INTERNAL,
                 "PNG encoding failed at the following flattened batch "
                 "indices: %s%s",
                 bad, (nb < 0 || nb > 16) ? ", ..." : "");
    }
    return;
  }
  row_bytes = w * c * bits / 8;
  img_bytes = h * row_bytes;
  os = (TF_TString*)kutil_data(out);
  bad[0] = '\0';
  for (b = 0; b < nb; b++) {
    unsigned char* png = NULL;
    size_t len = 0;
    if (!iosum_png_encode((const uint8_t*)kutil_data(im) + b * img_bytes,
                          (int)w, (int)h, row_bytes, (int)c, bits, level, &png,
                          &len)) {
      if (blen < sizeof bad - 32) {
        blen += (size_t)snprintf(bad + blen, sizeof bad - blen, "%s%lld",
                                 nbad ? ", " : "", (long long)b);
      }
      nbad++;
      continue;
    }
    TF_TString_Copy(&os[b], (const char*)png, len);
    tfe_free(png);
  }
  if (nbad > 0) {
    KUTIL_FAIL(k, TF_INTERNAL,
               "PNG encoding failed at the following flattened batch "
               "indices: %s",
               bad);
  }
}

/* ------------------------------------------------------------------------
 * FFT (radix 2, double) for the spectrogram. */

typedef struct rfft_plan {
  int n;      /* real length, a power of two >= 2 */
  int m;      /* n / 2 complex points */
  double* tw; /* m/2 twiddles of the half-size FFT (cos, sin pairs) */
  double* rt; /* twiddles for the real split: n/2 (cos, sin) pairs */
  int* rev;   /* bit reversal of m */
} rfft_plan;

static void rfft_free(rfft_plan* p) {
  tfe_free(p->tw);
  tfe_free(p->rt);
  tfe_free(p->rev);
}

static int rfft_init(rfft_plan* p, int n) {
  const double pi = 3.14159265358979323846;
  int i, bits = 0;
  memset(p, 0, sizeof *p);
  p->n = n;
  p->m = n / 2;
  p->tw = (double*)tfe_malloc(sizeof(double) * (size_t)(p->m + 1) * 2);
  /* (m - 1 stage twiddles fit in m + 1) */
  p->rt = (double*)tfe_malloc(sizeof(double) * (size_t)(p->m + 1) * 2);
  p->rev = (int*)tfe_malloc(sizeof(int) * (size_t)(p->m + 1));
  if (p->tw == NULL || p->rt == NULL || p->rev == NULL) {
    rfft_free(p);
    return 0;
  }
  while ((1 << bits) < p->m) bits++;
  for (i = 0; i < p->m; i++) {
    int r = 0, j, x = i;
    for (j = 0; j < bits; j++) {
      r = (r << 1) | (x & 1);
      x >>= 1;
    }
    p->rev[i] = r;
  }
  /* Stage with half-length h uses exp(-2 pi i j / (2h)) for j < h, kept at
   * entries h-1 .. 2h-2 (m - 1 entries in all). */
  {
    int h;
    for (h = 1; h < p->m; h <<= 1) {
      for (i = 0; i < h; i++) {
        p->tw[2 * (h - 1 + i)] = cos(pi * i / h);
        p->tw[2 * (h - 1 + i) + 1] = -sin(pi * i / h);
      }
    }
  }
  for (i = 0; i <= p->m; i++) {
    p->rt[2 * i] = cos(2 * pi * i / n);
    p->rt[2 * i + 1] = -sin(2 * pi * i / n);
  }
  return 1;
}

/* x: n reals; out: (n/2 + 1) complex values (re, im) of its DFT. z is
 * scratch of n doubles. */
static void rfft_run(const rfft_plan* p, const double* x, double* out,
                     double* z) {
  int m = p->m, i, len;
  for (i = 0; i < m; i++) {
    int r = p->rev[i];
    z[2 * r] = x[2 * i];
    z[2 * r + 1] = x[2 * i + 1];
  }
  for (len = 2; len <= m; len <<= 1) {
    int half = len / 2, s, j;
    /* this stage's twiddles, stored one after another (see rfft_init) */
    const double* tw = p->tw + 2 * (half - 1);
    for (s = 0; s < m; s += len) {
      for (j = 0; j < half; j++) {
        double wr = tw[2 * j], wi = tw[2 * j + 1];
        double* a = z + 2 * (s + j);
        double* b = z + 2 * (s + j + half);
        double tr = b[0] * wr - b[1] * wi;
        double ti = b[0] * wi + b[1] * wr;
        b[0] = a[0] - tr;
        b[1] = a[1] - ti;
        a[0] += tr;
        a[1] += ti;
      }
    }
  }
  /* Split the half-size transform into the real signal's spectrum. */
  for (i = 0; i <= m; i++) {
    int a = i % m, b = (m - i) % m;
    double zr = z[2 * a], zi = z[2 * a + 1];
    double cr = z[2 * b], ci = -z[2 * b + 1];
    double er = 0.5 * (zr + cr), ei = 0.5 * (zi + ci);
    double orr = 0.5 * (zi - ci), oi = -0.5 * (zr - cr);
    double wr = p->rt[2 * i], wi = p->rt[2 * i + 1];
    out[2 * i] = er + orr * wr - oi * wi;
    out[2 * i + 1] = ei + orr * wi + oi * wr;
  }
}

/* ------------------------------------------------------------------------
 * AudioSpectrogram */

static void k_audio_spectrogram(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  kutil_shape_buf sb;
  int32_t window, stride;
  int mag_sq = kutil_attr_bool(k, "magnitude_squared", 0);
  int64_t samples, channels, width, height, ch, f, i, dims[3];
  int fft_n = 1;
  rfft_plan plan;
  double *win = NULL, *buf = NULL, *spec = NULL, *z = NULL;
  const float* x;
  float* o;
  TF_Tensor* out;
  if (!kutil_attr_int32(k, "window_size", 0, &window) ||
      !kutil_attr_int32(k, "stride", 0, &stride)) {
    return;
  }
  if (in->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 2-dimensional%s",
               kutil_tshape(in, &sb));
    return;
  }
  /* TF's Spectrogram::Initialize refuses windows under 2 samples and
   * strides under 1 (and we refuse FFTs past 2^30 points). */
  if (window <= 1 || stride <= 0 || window > (1 << 30)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Spectrogram initialization failed for window size %d and "
               "stride %d",
               window, stride);
    return;
  }
  while (fft_n < window) fft_n <<= 1;
  samples = in->dims[0];
  channels = in->dims[1];
  width = 1 + fft_n / 2;
  height = samples < window ? 0 : 1 + (samples - window) / stride;
  dims[0] = channels;
  dims[1] = height;
  dims[2] = width;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, dims, 3);
  if (out == NULL || channels == 0 || height == 0) return;
  if (!rfft_init(&plan, fft_n)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in AudioSpectrogram");
    return;
  }
  win = (double*)tfe_malloc(sizeof(double) * (size_t)window);
  buf = (double*)tfe_malloc(sizeof(double) * (size_t)fft_n);
  z = (double*)tfe_malloc(sizeof(double) * (size_t)fft_n + 16);
  spec = (double*)tfe_malloc(sizeof(double) * (size_t)(fft_n + 2));
  if (win == NULL || buf == NULL || z == NULL || spec == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in AudioSpectrogram");
    goto done;
  }
  {
    const double pi = atan(1.0) * 4;
    for (i = 0; i < window; i++) {
      win[i] = 0.5 - 0.5 * cos((2 * pi * (double)i) / window);
    }
  }
  x = (const float*)kutil_data(in);
  o = (float*)kutil_data(out);
  for (ch = 0; ch < channels; ch++) {
    for (f = 0; f < height; f++) {
      int64_t start = f * stride;
      float* row = o + (ch * height + f) * width;
      for (i = 0; i < window; i++) {
        buf[i] = (double)x[(start + i) * channels + ch] * win[i];
      }
      for (i = window; i < fft_n; i++) buf[i] = 0.0;
      rfft_run(&plan, buf, spec, z);
      for (i = 0; i < width; i++) {
        double re = spec[2 * i], im = spec[2 * i + 1];
        float v = (float)(re * re + im * im);
        row[i] = mag_sq ? v : sqrtf(v);
      }
    }
  }
done:
  rfft_free(&plan);
  tfe_free(win);
  tfe_free(buf);
  tfe_free(z);
  tfe_free(spec);
}

/* ------------------------------------------------------------------------
 * Mfcc */

static double freq_to_mel(double f) { return 1127.0 * log1p(f / 700.0); }

static void k_mfcc(tfe_kernel_context* k) {
  const TF_Tensor* spec = k->inputs[0];
  const TF_Tensor* srt = k->inputs[1];
  kutil_shape_buf sb;
  float upper = 4000.0f, lower = 20.0f;
  int32_t nfilt, ndct, rate;
  int64_t nch, nsamp, nin, dims[3], a, s, i, c;
  double *center = NULL, *weights = NULL, *cosines = NULL, *work = NULL;
  int* band = NULL;
  int64_t start_idx = 0, end_idx = 0;
  TF_Tensor* out;
  int ok;
  if (k->attrs != NULL) {
    tfe_attrs_get_float(k->attrs, "upper_frequency_limit", &upper, NULL);
    tfe_attrs_get_float(k->attrs, "lower_frequency_limit", &lower, NULL);
  }
  if (!kutil_attr_int32(k, "filterbank_channel_count", 40, &nfilt) ||
      !kutil_attr_int32(k, "dct_coefficient_count", 13, &ndct)) {
    return;
  }
  if (spec->num_dims != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "spectrogram must be 3-dimensional%s",
               kutil_tshape(spec, &sb));
    return;
  }
  if (srt->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input sample_rate should be a scalar tensor, got %s instead.",
               kutil_tshape(srt, &sb));
    return;
  }
  rate = ((const int32_t*)kutil_data(srt))[0];
  nin = (int32_t)spec->dims[2];
  nsamp = spec->dims[1];
  nch = spec->dims[0];
  ok = nfilt >= 1 && rate > 0 && nin >= 2 && lower >= 0 &&
       (double)upper > (double)lower && ndct >= 1 && ndct <= nfilt;
  if (!ok) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Mfcc initialization failed for channel count %d, sample "
               "rate %d and filterbank_channel_count %d",
               (int)nin, rate, nfilt);
    return;
  }
  /* TF would try to allocate its tables whatever their size; tfe refuses
   * ones it could not hold (the DCT table is ndct x nfilt doubles). */
  if ((uint64_t)ndct * (uint64_t)nfilt > ((uint64_t)1 << 28) ||
      nin > ((int64_t)1 << 28)) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "Mfcc: tables for %d filterbank channels, %d coefficients and "
               "%lld spectrogram bins are too large",
               nfilt, ndct, (long long)nin);
    return;
  }
  dims[0] = nch;
  dims[1] = nsamp;
  dims[2] = ndct;
  out = tfe_kernel_alloc_output(k, 0, TF_FLOAT, dims, 3);
  if (out == NULL || nch == 0 || nsamp == 0) return;
  center = (double*)tfe_malloc(sizeof(double) * (size_t)(nfilt + 1));
  weights = (double*)tfe_malloc(sizeof(double) * (size_t)nin);
  band = (int*)tfe_malloc(sizeof(int) * (size_t)nin);
  cosines = (double*)tfe_malloc(sizeof(double) * (size_t)ndct * (size_t)nfilt);
  work = (double*)tfe_malloc(sizeof(double) * (size_t)nfilt);
  if (center == NULL || weights == NULL || band == NULL || cosines == NULL ||
      work == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Mfcc");
    goto done;
  }
  {
    const double mel_low = freq_to_mel(lower), mel_hi = freq_to_mel(upper);
    const double spacing = (mel_hi - mel_low) / (double)(nfilt + 1);
    const double hz_per_bin = 0.5 * rate / (double)(nin - 1);
    double si = 1.5 + lower / hz_per_bin, ei = upper / hz_per_bin;
    int channel = 0;
    const double pi = atan(1.0) * 4;
    double fnorm = sqrt(2.0 / nfilt), arg = pi / nfilt;
    for (i = 0; i <= nfilt; i++) center[i] = mel_low + spacing * (double)(i + 1);
    /* The indexes are C++ int casts of finite values here (limits are
     * ordered and non-negative, the rate positive). */
    start_idx = si < 2147483647.0 ? (int64_t)si : 2147483647;
    end_idx = ei < 2147483647.0 ? (int64_t)ei : 2147483647;
    for (i = 0; i < nin; i++) {
      double melf = freq_to_mel((double)i * hz_per_bin);
      if (i < start_idx || i > end_idx) {
        band[i] = -2;
      } else {
        while (channel < nfilt && center[channel] < melf) channel++;
        band[i] = channel - 1;
      }
    }
    for (i = 0; i < nin; i++) {
      int ch = band[i];
      if (i < start_idx || i > end_idx) {
        weights[i] = 0.0;
      } else if (ch >= 0) {
        weights[i] = (center[ch + 1] - freq_to_mel((double)i * hz_per_bin)) /
                     (center[ch + 1] - center[ch]);
      } else {
        weights[i] = (center[0] - freq_to_mel((double)i * hz_per_bin)) /
                     (center[0] - mel_low);
      }
    }
    for (i = 0; i < ndct; i++) {
      int64_t j;
      for (j = 0; j < nfilt; j++) {
        cosines[i * nfilt + j] = fnorm * cos((double)i * arg * ((double)j + 0.5));
      }
    }
  }
  {
    const float* sp = (const float*)kutil_data(spec);
    float* o = (float*)kutil_data(out);
    for (a = 0; a < nch; a++) {
      for (s = 0; s < nsamp; s++) {
        const float* frame = sp + (a * nsamp + s) * nin;
        float* orow = o + (a * nsamp + s) * ndct;
        if (nin <= end_idx) {
          /* TF's filterbank gives nothing for a frame shorter than its
           * top bin: every coefficient is 0. */
          for (c = 0; c < ndct; c++) orow[c] = 0.0f;
          continue;
        }
        for (c = 0; c < nfilt; c++) work[c] = 0.0;
        for (i = start_idx; i <= end_idx; i++) {
          double v = sqrt((double)frame[i]);
          double wv = v * weights[i];
          int ch = band[i];
          if (ch >= 0) work[ch] += wv;
          ch++;
          if (ch < nfilt) work[ch] += v - wv;
        }
        for (c = 0; c < nfilt; c++) {
          double v = work[c];
          if (v < 1e-12) v = 1e-12;
          work[c] = log(v);
        }
        for (c = 0; c < ndct; c++) {
          double sum = 0.0;
          int64_t j;
          const double* cr = cosines + c * nfilt;
          for (j = 0; j < nfilt; j++) sum += cr[j] * work[j];
          orow[c] = (float)sum;
        }
      }
    }
  }
done:
  tfe_free(center);
  tfe_free(weights);
  tfe_free(band);
  tfe_free(cosines);
  tfe_free(work);
}

/* ------------------------------------------------------------------------
 * Registration */

void tfe_register_cpu_io_summary_codec_kernels(void) {
  static const TF_DataType png_types[] = {TF_UINT8, TF_UINT16};
  tfe_kutil_register("EncodePng", k_encode_png, "T", png_types, 2, NULL, NULL,
                     0);
  tfe_kutil_register("EncodeWav", k_encode_wav, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("DecodeWav", k_decode_wav, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("AudioSpectrogram", k_audio_spectrogram, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("Mfcc", k_mfcc, NULL, NULL, 0, NULL, NULL, 0);
}
