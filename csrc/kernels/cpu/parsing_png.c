/* DecodePng, DecodeBmp and DecodeImage (PNG and BMP input) for
 * tf.io.decode_png / decode_bmp / decode_image. The PNG reader is written
 * for this project after the PNG specification and produces what TF's
 * libpng setup produces:
 *
 *  - channels 0 means the file's own (a palette gives 3, or 4 with tRNS);
 *    1 and 3 drop alpha, 2 and 4 keep it (tRNS becomes alpha, else
 *    libpng's opaque filler: (1 << depth) - 1 below 8 bits); colour to
 *    gray uses libpng's fixed-point weights for (0.299, 0.587):
 *    (9797 r + 19234 g + 3737 b) >> 15 on 8-bit samples, rounded
 *    (+16384) on 16-bit ones; gray to RGB repeats the sample;
 *  - gray below 8 bits is scaled to 8 bits (x 255 / (2^depth - 1));
 *  - 16-bit samples become 8-bit by keeping the high byte (strip_16);
 *    8-bit samples become 16-bit as v * 257; DecodeImage's float output
 *    is the 16-bit value times 1/65535 (in float, as TF);
 *  - Adam7 interlacing, all five filters, every valid depth/colour type.
 * Errors use TF's messages: problems up to the first IDAT are "Invalid
 * PNG. Failed to initialize decoder.", later ones "Invalid PNG data, size
 * N".
 *
 * BMP follows TF's own decoder: 8, 24 or 32 bits per pixel, uncompressed,
 * pixels at the offset the file header gives, rows padded to 4 bytes,
 * bottom-up unless the height is negative; BGR(A) becomes RGB(A); the
 * file's size must be exactly offset + rows; uint16 output is v << 8 and
 * float v * (1/255). As in TF, DecodeImage reads both formats, DecodePng
 * refuses a BMP and DecodeBmp a PNG (once its header has been read). A JPEG, GIF or WebP input is
 * UNIMPLEMENTED (tfe has no decoder for them). */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/kutil.h"
#include "kernels/cpu/parsing_inflate.h"
#include "ops/attr_value.h"

void tfe_register_cpu_parsing_png_kernels(void);

#define PNG_MAX_BYTES ((size_t)1 << 31)
#define PNG_MAX_DIM 1000000u /* libpng's default user limit */

typedef struct png_info {
  uint32_t w, h;
  int depth, color, interlace;
  int src_ch;        /* samples per pixel in the file */
  uint8_t plte[768]; /* RGB entries */
  int nplte;
  uint8_t trns_pal[256];
  int ntrns_pal;
  int has_trns_key;
  uint16_t trns_key[3]; /* gray (key[0]) or RGB */
} png_info;

static uint32_t be32(const unsigned char* p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static uint32_t png_crc(const unsigned char* p, size_t n) {
  uint32_t c = 0xffffffffu;
  size_t i;
  int k;
  for (i = 0; i < n; i++) {
    c ^= p[i];
    for (k = 0; k < 8; k++) c = (c & 1u) ? 0xedb88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xffffffffu;
}

static int png_channels_of(int color) {
  switch (color) {
    case 0: return 1;
    case 2: return 3;
    case 3: return 1;
    case 4: return 2;
    case 6: return 4;
    default: return 0;
  }
}

static int png_depth_ok(int color, int depth) {
  switch (color) {
    case 0: return depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16;
    case 3: return depth == 1 || depth == 2 || depth == 4 || depth == 8;
    case 2: case 4: case 6: return depth == 8 || depth == 16;
    default: return 0;
  }
}

static int paeth(int a, int b, int c) {
  int p = a + b - c;
  int pa = p > a ? p - a : a - p;
  int pb = p > b ? p - b : b - p;
  int pc = p > c ? p - c : c - p;
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/* Undoes the filters of one pass (rows of `rowbytes` after a filter byte)
 * in place; 0 on a bad filter type. */
static int unfilter(unsigned char* data, uint32_t rows, size_t rowbytes, size_t bpp) {
  uint32_t y;
  unsigned char* prev = NULL;
  for (y = 0; y < rows; y++) {
    unsigned char* line = data + (size_t)y * (rowbytes + 1);
    unsigned char ft = line[0];
    unsigned char* cur = line + 1;
    size_t i;
    if (ft > 4) return 0;
    for (i = 0; i < rowbytes; i++) {
      int a = i >= bpp ? cur[i - bpp] : 0;
      int b = prev ? prev[i] : 0;
      int c = prev && i >= bpp ? prev[i - bpp] : 0;
      int p = 0;
      switch (ft) {
        case 1: p = a; break;
        case 2: p = b; break;
        case 3: p = (a + b) >> 1; break;
        case 4: p = paeth(a, b, c); break;
        default: break;
      }
      cur[i] = (unsigned char)(cur[i] + p);
    }
    prev = cur;
  }
  return 1;
}

/* Sample k (0-based) of a row of packed samples. */
static uint16_t sample_at(const unsigned char* row, size_t k, int depth) {
  if (depth == 16) return (uint16_t)((row[2 * k] << 8) | row[2 * k + 1]);
  if (depth == 8) return row[k];
  {
    size_t bit = k * (size_t)depth;
    int shift = 8 - depth - (int)(bit & 7);
    return (uint16_t)((row[bit >> 3] >> shift) & ((1 << depth) - 1));
  }
}

typedef struct png_out {
  void* data;
  TF_DataType dt;
  int ch; /* output channels */
} png_out;

/* Converts pixel (x, y) whose raw samples start at sample index k of
 * `row` and stores it into the output. */
static void put_pixel(const png_info* pi, const png_out* o, const unsigned char* row, size_t k,
                      uint32_t x, uint32_t y) {
  uint32_t v[4] = {0, 0, 0, 0}; /* at `bits` precision */
  int bits = pi->depth == 16 ? 16 : 8;
  int is_gray = 0, has_alpha = 0, i;
  /* The opaque filler libpng adds is masked to the file's bit depth when
   * that is below 8 (a 1-bit image gets alpha 1, a 4-bit one 15), and is
   * not scaled like the samples: TF's output keeps that. */
  uint32_t alpha = bits == 16 ? 65535u : pi->depth < 8 ? (1u << pi->depth) - 1u : 255u;
  size_t base = ((size_t)y * pi->w + x) * (size_t)o->ch;
  uint32_t out[4];
  if (pi->color == 3) {
    uint16_t idx = sample_at(row, k, pi->depth);
    if ((int)idx < pi->nplte) {
      v[0] = pi->plte[3 * idx];
      v[1] = pi->plte[3 * idx + 1];
      v[2] = pi->plte[3 * idx + 2];
    }
    if (pi->ntrns_pal > 0) {
      has_alpha = 1;
      alpha = (int)idx < pi->ntrns_pal ? pi->trns_pal[idx] : 255u;
    }
  } else if (pi->color == 0 || pi->color == 4) {
    uint16_t g = sample_at(row, k, pi->depth);
    is_gray = 1;
    if (pi->has_trns_key && pi->color == 0) {
      has_alpha = 1;
      alpha = g == pi->trns_key[0] ? 0u : (bits == 16 ? 65535u : 255u);
    }
    if (pi->depth < 8) g = (uint16_t)(g * 255u / ((1u << pi->depth) - 1u));
    v[0] = v[1] = v[2] = g;
    if (pi->color == 4) {
      has_alpha = 1;
      alpha = sample_at(row, k + 1, pi->depth);
    }
  } else {
    for (i = 0; i < 3; i++) v[i] = sample_at(row, k + (size_t)i, pi->depth);
    if (pi->has_trns_key && pi->color == 2) {
      has_alpha = 1;
      alpha = (v[0] == pi->trns_key[0] && v[1] == pi->trns_key[1] && v[2] == pi->trns_key[2])
                  ? 0u
                  : (bits == 16 ? 65535u : 255u);
    }
    if (pi->color == 6) {
      has_alpha = 1;
      alpha = sample_at(row, k + 3, pi->depth);
    }
  }
  (void)has_alpha;
  if (o->ch <= 2) {
    uint32_t gray = v[0];
    if (!is_gray && !(v[0] == v[1] && v[0] == v[2])) {
      uint32_t sum = 9797u * v[0] + 19234u * v[1] + 3737u * v[2];
      gray = bits == 16 ? (sum + 16384u) >> 15 : sum >> 15;
    }
    out[0] = gray;
    out[1] = alpha;
  } else {
    out[0] = v[0];
    out[1] = v[1];
    out[2] = v[2];
    out[3] = alpha;
  }
  for (i = 0; i < o->ch; i++) {
    uint32_t s = out[i];
    uint32_t s16 = bits == 16 ? s : s * 257u;
    if (o->dt == TF_UINT8) {
      ((uint8_t*)o->data)[base + (size_t)i] = (uint8_t)(bits == 16 ? s >> 8 : s);
    } else if (o->dt == TF_UINT16) {
      ((uint16_t*)o->data)[base + (size_t)i] = (uint16_t)s16;
    } else {
      ((float*)o->data)[base + (size_t)i] = (float)s16 * (1.0f / 65535.0f);
    }
  }
}

static const char kInitError[] = "Invalid PNG. Failed to initialize decoder.";

/* Decodes one PNG into output 0 of k. */
static void decode_png(tfe_kernel_context* k, const unsigned char* p, size_t n, int channels,
                       TF_DataType dt) {
  png_info pi;
  size_t pos = 8, idat_len = 0;
  unsigned char* idat = NULL;
  unsigned char* raw = NULL;
  size_t raw_len = 0;
  int seen_ihdr = 0, seen_idat = 0, seen_iend = 0;
  const char* zerr = NULL; /* zlib's reason; TF reports only the size */
  int rc, ended = 0;
  memset(&pi, 0, sizeof pi);
  while (!seen_iend) {
    uint32_t len;
    const unsigned char* type;
    const unsigned char* data;
    int critical;
    /* libpng reads an IDAT's header while initialising and its data
     * while decoding: damage from an IDAT on is a data error. */
    if (!seen_idat && n - pos >= 8 && memcmp(p + pos + 4, "IDAT", 4) == 0 && seen_ihdr) {
      seen_idat = 1;
      /* TF checks the op once the decoder is initialised */
      if (k->op_def != NULL && strcmp(k->op_def->name, "DecodeBmp") == 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Trying to decode PNG format using DecodeBmp op. Use `decode_png` or "
                   "`decode_image` instead.");
        goto done;
      }
    }
    if (n - pos < 12) goto data_error_or_init;
    len = be32(p + pos);
    if (len > 0x7fffffffu || (size_t)len > n - pos - 12) goto data_error_or_init;
    type = p + pos + 4;
    data = p + pos + 8;
    critical = !(type[0] & 0x20);
    if (png_crc(type, (size_t)len + 4) != be32(data + len)) {
      if (critical) goto data_error_or_init;
      pos += (size_t)len + 12;
      continue; /* a damaged ancillary chunk is skipped, as libpng does */
    }
    if (memcmp(type, "IHDR", 4) == 0) {
      if (seen_ihdr || len != 13) goto init_error;
      pi.w = be32(data);
      pi.h = be32(data + 4);
      pi.depth = data[8];
      pi.color = data[9];
      pi.interlace = data[12];
      if (pi.w == 0 || pi.h == 0 || pi.w > PNG_MAX_DIM || pi.h > PNG_MAX_DIM ||
          !png_depth_ok(pi.color, pi.depth) || data[10] != 0 || data[11] != 0 ||
          pi.interlace > 1) {
        goto init_error;
      }
      pi.src_ch = png_channels_of(pi.color);
      seen_ihdr = 1;
    } else if (!seen_ihdr) {
      goto init_error; /* IHDR must come first */
    } else if (memcmp(type, "PLTE", 4) == 0) {
      if (seen_idat || len % 3 != 0 || len == 0 || len > 768) goto init_error;
      memcpy(pi.plte, data, len);
      pi.nplte = (int)(len / 3);
      /* libpng keeps at most 2^depth entries of a palette image's PLTE */
      if (pi.color == 3 && pi.nplte > (1 << pi.depth)) pi.nplte = 1 << pi.depth;
    } else if (memcmp(type, "tRNS", 4) == 0) {
      if (pi.color == 3) {
        /* more entries than the palette has: libpng ignores the chunk */
        if (len > 0 && (int)len <= pi.nplte) {
          memcpy(pi.trns_pal, data, len);
          pi.ntrns_pal = (int)len;
        }
      } else if (pi.color == 0 && len == 2) {
        pi.trns_key[0] = (uint16_t)((data[0] << 8) | data[1]);
        pi.has_trns_key = 1;
      } else if (pi.color == 2 && len == 6) {
        int i;
        for (i = 0; i < 3; i++) pi.trns_key[i] = (uint16_t)((data[2 * i] << 8) | data[2 * i + 1]);
        pi.has_trns_key = 1;
      }
    } else if (memcmp(type, "IDAT", 4) == 0) {
      unsigned char* np;
      if (pi.color == 3 && pi.nplte == 0) goto init_error;
      seen_idat = 1;
      np = (unsigned char*)tfe_realloc(idat, idat_len + len + 1);
      if (np == NULL) goto oom;
      idat = np;
      memcpy(idat + idat_len, data, len);
      idat_len += len;
    } else if (memcmp(type, "IEND", 4) == 0) {
      seen_iend = 1;
    } else if (critical) {
      goto data_error_or_init; /* an unknown critical chunk */
    }
    pos += (size_t)len + 12;
    if (seen_iend) break;
    if (pos == n) break;
  }
  if (!seen_idat) goto data_error_or_init;
  {
    /* Sizes of the passes and of the whole inflated stream. */
    static const int kX0[7] = {0, 4, 0, 2, 0, 1, 0}, kY0[7] = {0, 0, 4, 0, 2, 0, 1};
    static const int kDx[7] = {8, 8, 4, 4, 2, 2, 1}, kDy[7] = {8, 8, 8, 4, 4, 2, 2};
    int npass = pi.interlace ? 7 : 1, pass;
    size_t bits_pp = (size_t)pi.src_ch * (size_t)pi.depth;
    size_t bpp = bits_pp >= 8 ? bits_pp / 8 : 1;
    size_t need = 0, off = 0;
    size_t out_bytes;
    int64_t dims[3];
    png_out o;
    TF_Tensor* t;
    int out_ch = channels;
    if (out_ch == 0) {
      out_ch = pi.color == 3 ? (pi.ntrns_pal > 0 ? 4 : 3) : pi.src_ch;
    }
    for (pass = 0; pass < npass; pass++) {
      uint32_t pw = pi.interlace ? (pi.w + (uint32_t)kDx[pass] - 1u - (uint32_t)kX0[pass]) /
                                       (uint32_t)kDx[pass]
                                 : pi.w;
      uint32_t ph = pi.interlace ? (pi.h + (uint32_t)kDy[pass] - 1u - (uint32_t)kY0[pass]) /
                                       (uint32_t)kDy[pass]
                                 : pi.h;
      if (pi.interlace && (pi.w <= (uint32_t)kX0[pass] || pi.h <= (uint32_t)kY0[pass])) continue;
      need += (size_t)ph * (((size_t)pw * bits_pp + 7) / 8 + 1);
    }
    out_bytes = (size_t)pi.w * pi.h * (size_t)out_ch * (dt == TF_UINT8 ? 1 : dt == TF_UINT16 ? 2 : 4);
    if (need > PNG_MAX_BYTES || out_bytes > PNG_MAX_BYTES) goto oom;
    /* Bytes past what the image needs are ignored (libpng warns); a
     * stream far longer than that is refused as corrupt. */
    rc = tfe_inflate_ex(idat, idat_len, 0, need + need / 2 + 65536, 1, &raw, &raw_len, &zerr,
                        &ended);
    tfe_free(idat);
    idat = NULL;
    /* As libpng: a stream that stops before its end is "not enough image
     * data", even when the rows are complete. */
    if (rc == TFE_INFLATE_OK && !ended) rc = TFE_INFLATE_DATA_ERROR;
    if (rc != TFE_INFLATE_OK || raw_len < need) goto data_error;
    dims[0] = pi.h;
    dims[1] = pi.w;
    dims[2] = out_ch;
    t = tfe_kernel_alloc_output(k, 0, dt, dims, 3);
    if (t == NULL) goto done;
    o.data = kutil_data(t);
    o.dt = dt;
    o.ch = out_ch;
    for (pass = 0; pass < npass; pass++) {
      uint32_t x0 = pi.interlace ? (uint32_t)kX0[pass] : 0, y0 = pi.interlace ? (uint32_t)kY0[pass] : 0;
      uint32_t dx = pi.interlace ? (uint32_t)kDx[pass] : 1, dy = pi.interlace ? (uint32_t)kDy[pass] : 1;
      uint32_t pw, ph, yy, xx;
      size_t rowbytes;
      if (pi.w <= x0 || pi.h <= y0) continue;
      pw = (pi.w - x0 + dx - 1) / dx;
      ph = (pi.h - y0 + dy - 1) / dy;
      rowbytes = ((size_t)pw * bits_pp + 7) / 8;
      if (!unfilter(raw + off, ph, rowbytes, bpp)) goto data_error;
      for (yy = 0; yy < ph; yy++) {
        const unsigned char* row = raw + off + (size_t)yy * (rowbytes + 1) + 1;
        for (xx = 0; xx < pw; xx++) {
          put_pixel(&pi, &o, row, (size_t)xx * (size_t)pi.src_ch, x0 + xx * dx, y0 + yy * dy);
        }
      }
      off += (size_t)ph * (rowbytes + 1);
    }
  }
  goto done;
data_error_or_init:
  if (seen_idat) goto data_error;
init_error:
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s", kInitError);
  goto done;
data_error:
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid PNG data, size %zu", n);
  goto done;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "PNG image too large to decode");
done:
  tfe_free(idat);
  tfe_free(raw);
}

static int32_t le32s(const unsigned char* p) {
  return (int32_t)((uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
                   ((uint32_t)p[3] << 24));
}

/* TF's BMP decoder (checks and messages included). */
static void decode_bmp(tfe_kernel_context* k, const unsigned char* p, size_t n, int channels,
                       TF_DataType dt) {
  int32_t header, width, height, abs_height;
  int bpp, img_ch, out_ch, row_size;
  int64_t size_diff, last, i, j, c;
  int64_t dims[3];
  TF_Tensor* t;
  if (channels == 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "`channels` must be 0, 3 or 4 for BMP, but got 1");
    return;
  }
  if (n < 32) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Incomplete bmp content, requires at least 32 bytes to find the header size, "
               "width, height, and bpp, got %zu bytes",
               n);
    return;
  }
  header = le32s(p + 10);
  width = le32s(p + 18);
  height = le32s(p + 22);
  bpp = (int16_t)(p[28] | (p[29] << 8));
  img_ch = bpp / 8;
  if (img_ch != 1 && img_ch != 3 && img_ch != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of channels inherent in the image must be 1, 3 or 4, was %d", img_ch);
    return;
  }
  out_ch = channels ? channels : img_ch;
  if (width <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Width must be positive");
    return;
  }
  if (height == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Height must be nonzero");
    return;
  }
  if (header < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "header size must be nonnegative");
    return;
  }
  abs_height = height == INT32_MIN ? INT32_MAX : (height < 0 ? -height : height);
  if ((int64_t)width * abs_height >= (int64_t)(INT32_MAX / 8)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Total possible pixel bytes must be less than 2^30");
    return;
  }
  row_size = (img_ch * width + 3) / 4 * 4;
  size_diff = (int64_t)n - header - (int64_t)row_size * abs_height;
  if (size_diff != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input size should match (header_size + row_size * abs_height) but they differ "
               "by %lld",
               (long long)size_diff);
    return;
  }
  last = (int64_t)header + (int64_t)(abs_height - 1) * row_size + (int64_t)(width - 1) * img_ch +
         img_ch;
  if (last > (int64_t)n) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected %lld bytes, but only have %zu", (long long)last,
               n);
    return;
  }
  dims[0] = abs_height;
  dims[1] = width;
  dims[2] = out_ch;
  t = tfe_kernel_alloc_output(k, 0, dt, dims, 3);
  if (t == NULL) return;
  for (i = 0; i < abs_height; i++) {
    const unsigned char* row =
        p + header + (height < 0 ? i : (int64_t)abs_height - 1 - i) * (int64_t)row_size;
    for (j = 0; j < width; j++) {
      const unsigned char* px = row + j * img_ch;
      uint8_t v[4];
      if (img_ch == 1) {
        v[0] = v[1] = v[2] = px[0];
        v[3] = 255;
      } else {
        v[0] = px[2];
        v[1] = px[1];
        v[2] = px[0];
        v[3] = img_ch == 4 ? px[3] : 255;
      }
      for (c = 0; c < out_ch; c++) {
        size_t at = ((size_t)i * (size_t)width + (size_t)j) * (size_t)out_ch + (size_t)c;
        if (dt == TF_UINT8) {
          ((uint8_t*)kutil_data(t))[at] = v[c];
        } else if (dt == TF_UINT16) {
          ((uint16_t*)kutil_data(t))[at] = (uint16_t)(v[c] << 8);
        } else {
          ((float*)kutil_data(t))[at] = (float)v[c] * (1.0f / 255.0f);
        }
      }
    }
  }
}

/* Shared by DecodePng, DecodeBmp and DecodeImage: checks, format
 * sniffing, dispatch. */
static void decode_image_common(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType dt = k->output_types != NULL ? k->output_types[0] : TF_UINT8;
  const char* op = k->op_def != NULL ? k->op_def->name : "DecodeImage";
  int32_t channels = 0;
  const TF_TString* s;
  const unsigned char* p;
  size_t n;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, "dtype", &dt, NULL);
  if (!kutil_attr_int32(k, "channels", 0, &channels)) return;
  if (channels != 0 && channels != 1 && channels != 3 && channels != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "`channels` must be 0, 1, 3 or 4 but got %d",
               (int)channels);
    return;
  }
  if (in->num_dims != 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "`contents` must be scalar but got shape%s",
               kutil_tshape(in, &b));
    return;
  }
  s = &((const TF_TString*)kutil_data(in))[0];
  p = (const unsigned char*)TF_TString_GetDataPointer(s);
  n = TF_TString_GetSize(s);
  if (n >= 8 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0) {
    decode_png(k, p, n, channels, dt);
    return;
  }
  if (n >= 2 && memcmp(p, "BM", 2) == 0) {
    if (strcmp(op, "DecodePng") == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Trying to decode BMP format using a wrong op. Use `decode_bmp` or "
                 "`decode_image` instead. Op used: %s",
                 op);
      return;
    }
    decode_bmp(k, p, n, channels, dt);
    return;
  }
  if ((n >= 3 && memcmp(p, "\xff\xd8\xff", 3) == 0) || (n >= 4 && memcmp(p, "GIF8", 4) == 0) ||
      (n >= 12 && memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "WEBP", 4) == 0)) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "%s: tfe decodes PNG and BMP images only (this is a JPEG, GIF or WebP image)", op);
    return;
  }
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required.");
}

void tfe_register_cpu_parsing_png_kernels(void) {
  static const TF_DataType kPng[] = {TF_UINT8, TF_UINT16};
  static const TF_DataType kImage[] = {TF_UINT8, TF_UINT16, TF_FLOAT};
  tfe_kutil_register("DecodePng", decode_image_common, "dtype", kPng, KUTIL_COUNT(kPng), NULL,
                     NULL, 0);
  tfe_kutil_register("DecodeImage", decode_image_common, "dtype", kImage, KUTIL_COUNT(kImage),
                     NULL, NULL, 0);
  tfe_kutil_register("DecodeBmp", decode_image_common, NULL, NULL, 0, NULL, NULL, 0);
}
