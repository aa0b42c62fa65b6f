/* Direct float32 NHWC convolution (see conv_direct.h).
 *
 * Layout of the work:
 *   - the filter of each group is repacked into column panels of NR output
 *     channels (zero-padded past the group's last channel), rows in
 *     (kh, kw, in-channel) order, so a micro-kernel step reads NR
 *     contiguous, aligned floats;
 *   - output pixels are numbered over (batch, row, column) and cut into
 *     blocks of MR; a block's inputs are described by "segments": one per
 *     filter row when every pixel's window row lies inside the image and
 *     the taps are contiguous (groups == 1, horizontal dilation 1), else
 *     one per tap; a pixel whose tap falls in the padding reads zeros;
 *   - the micro-kernel keeps MR x NR sums in vector registers across all
 *     segments and writes them once.
 * GCC vector extensions with per-function target attributes produce the
 * AVX2 and AVX-512 copies; the ISA is the one the built-in GEMM detected. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3", "fp-contract=fast")
#endif

#include "kernels/cpu/conv_direct.h"

#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/matmul_gemm.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define CD_HAVE_X86 1
#else
#define CD_HAVE_X86 0
#endif

/* One run of consecutive filter rows: w = first panel row, len rows. */
typedef struct cd_seg {
  const float* w;
  int64_t len;
} cd_seg;

/* y[rows, cols] (row stride ldy) = sum over segments of
 * a_p[0..len) * panel rows; ap holds MR pointers per segment. */
typedef void (*cd_kernel_fn)(const cd_seg* segs, int nseg,
                             const float* const* ap, float* y, int64_t ldy,
                             int rows, int cols);

#if CD_HAVE_X86

#define CD_MAX_MR 12

#define DEF_CD_KERNEL(S, V, VU, VL, MR, NV, ATTR)                            \
  ATTR static void cd_kern_##S(const cd_seg* segs, int nseg,                \
                               const float* const* ap, float* y,            \
                               int64_t ldy, int rows, int cols) {           \
    V acc[MR][NV];                                                          \
    int s, p, v;                                                            \
    for (p = 0; p < MR; p++)                                                \
      for (v = 0; v < NV; v++) acc[p][v] = (V){0};                          \
    for (s = 0; s < nseg; s++) {                                            \
      const float* w = segs[s].w;                                           \
      const int64_t len = segs[s].len;                                      \
      const float* a[MR];                                                   \
      int64_t t;                                                            \
      for (p = 0; p < MR; p++) a[p] = ap[s * MR + p];                       \
      for (t = 0; t < len; t++) {                                           \
        V wv[NV];                                                           \
        _Pragma("GCC unroll 8") for (v = 0; v < NV; v++) wv[v] =            \
            *(const V*)(w + t * (NV * VL) + v * VL);                        \
        _Pragma("GCC unroll 16") for (p = 0; p < MR; p++) {                 \
          const float av = a[p][t];                                         \
          _Pragma("GCC unroll 8") for (v = 0; v < NV; v++) acc[p][v] +=     \
              av * wv[v];                                                   \
        }                                                                   \
      }                                                                     \
    }                                                                       \
    if (rows == MR && cols == NV * VL) {                                    \
      for (p = 0; p < MR; p++)                                              \
        for (v = 0; v < NV; v++) *(VU*)(y + p * ldy + v * VL) = acc[p][v];  \
    } else {                                                                \
      float tmp[MR * NV * VL];                                              \
      for (p = 0; p < MR; p++)                                              \
        for (v = 0; v < NV; v++) *(VU*)(tmp + (p * NV + v) * VL) = acc[p][v]; \
      for (p = 0; p < rows; p++)                                            \
        memcpy(y + p * ldy, tmp + p * NV * VL, sizeof(float) * (size_t)cols); \
    }                                                                       \
  }

typedef float cd_v16 __attribute__((vector_size(64)));
typedef float cd_v16u __attribute__((vector_size(64), aligned(4)));
typedef float cd_v8 __attribute__((vector_size(32)));
typedef float cd_v8u __attribute__((vector_size(32), aligned(4)));

#define CD_ATTR_AVX512 __attribute__((target("avx512f,avx512vl,avx2,fma")))
#define CD_ATTR_AVX2 __attribute__((target("avx2,fma")))

DEF_CD_KERNEL(avx512_w, cd_v16, cd_v16u, 16, 6, 4, CD_ATTR_AVX512)
DEF_CD_KERNEL(avx512_n, cd_v16, cd_v16u, 16, 12, 2, CD_ATTR_AVX512)
DEF_CD_KERNEL(avx2_w, cd_v8, cd_v8u, 8, 6, 2, CD_ATTR_AVX2)

#endif /* CD_HAVE_X86 */

typedef struct cd_variant {
  cd_kernel_fn fn;
  int mr, nr;
} cd_variant;

/* Picks the micro-kernel for this CPU and group width; 0 when none. */
static int pick_variant(int64_t ocg, cd_variant* out) {
#if CD_HAVE_X86
  const char* isa = tfe_gemm_isa();
  if (strcmp(isa, "avx512") == 0) {
    if (ocg <= 32) {
      out->fn = cd_kern_avx512_n;
      out->mr = 12;
      out->nr = 32;
    } else {
      out->fn = cd_kern_avx512_w;
      out->mr = 6;
      out->nr = 64;
    }
    return 1;
  }
  if (strcmp(isa, "avx2") == 0) {
    out->fn = cd_kern_avx2_w;
    out->mr = 6;
    out->nr = 16;
    return 1;
  }
#endif
  (void)ocg;
  (void)out;
  return 0;
}

int tfe_conv_direct_available(void) {
  cd_variant v;
  return pick_variant(64, &v);
}

typedef struct cd_job {
  const tfe_conv_desc* d;
  cd_variant var;
  const float* x;
  const float* panels; /* [groups][nob][kh*kw*icg][nr] */
  const float* zero;   /* kw*icg zeros */
  float* y;
  int64_t icg, ocg, nob, rows_per_panel, M, tile, ntiles;
  int failed;
} cd_job;

/* Segments of the pixel block [m0, m0+h) of group grp for panel pw;
 * returns their count. */
static int build_segments(const cd_job* j, int64_t m0, int64_t h, int64_t grp,
                          const float* pw, cd_seg* segs, const float** ptrs) {
  const tfe_conv_desc* d = j->d;
  const int mr = j->var.mr;
  const int64_t P = d->oh * d->ow;
  int64_t bb[CD_MAX_MR], iy0[CD_MAX_MR], ix0[CD_MAX_MR];
  int merged = d->groups == 1 && d->dw == 1;
  int nseg = 0, p;
  int64_t i, jj;
  for (p = 0; p < h; p++) {
    int64_t m = m0 + p, r = m % P;
    bb[p] = m / P;
    iy0[p] = (r / d->ow) * d->sh - d->pt;
    ix0[p] = (r % d->ow) * d->sw - d->pl;
    if (ix0[p] < 0 || ix0[p] + d->kw > d->iw) merged = 0;
  }
  for (i = 0; i < d->kh; i++) {
    if (merged) {
      int any = 0;
      for (p = 0; p < mr; p++) {
        int64_t iy = p < h ? iy0[p] + i * d->dh : -1;
        if (iy >= 0 && iy < d->ih) {
          ptrs[nseg * mr + p] =
              j->x + ((bb[p] * d->ih + iy) * d->iw + ix0[p]) * d->ic;
          any = 1;
        } else {
          ptrs[nseg * mr + p] = j->zero;
        }
      }
      if (any) {
        segs[nseg].w = pw + i * d->kw * j->icg * j->var.nr;
        segs[nseg].len = d->kw * j->icg;
        nseg++;
      }
      continue;
    }
    for (jj = 0; jj < d->kw; jj++) {
      int any = 0;
      for (p = 0; p < mr; p++) {
        int64_t iy = p < h ? iy0[p] + i * d->dh : -1;
        int64_t ix = p < h ? ix0[p] + jj * d->dw : -1;
        if (iy >= 0 && iy < d->ih && ix >= 0 && ix < d->iw) {
          ptrs[nseg * mr + p] = j->x +
                                ((bb[p] * d->ih + iy) * d->iw + ix) * d->ic +
                                grp * j->icg;
          any = 1;
        } else {
          ptrs[nseg * mr + p] = j->zero;
        }
      }
      if (any) {
        segs[nseg].w = pw + (i * d->kw + jj) * j->icg * j->var.nr;
        segs[nseg].len = j->icg;
        nseg++;
      }
    }
  }
  return nseg;
}

/* Work items [t0, t1): item = group * ntiles + tile. */
static void cd_items(void* arg, int64_t t0, int64_t t1) {
  cd_job* j = (cd_job*)arg;
  const tfe_conv_desc* d = j->d;
  const int mr = j->var.mr, nr = j->var.nr;
  const int64_t taps = d->kh * d->kw;
  cd_seg* segs = (cd_seg*)tfe_malloc(sizeof(cd_seg) * (size_t)taps);
  const float** ptrs =
      (const float**)tfe_malloc(sizeof(float*) * (size_t)(taps * mr));
  int64_t t;
  if (segs == NULL || ptrs == NULL) {
    j->failed = 1;
    tfe_free(segs);
    tfe_free((void*)ptrs);
    return;
  }
  for (t = t0; t < t1; t++) {
    const int64_t grp = t / j->ntiles, tile = t % j->ntiles;
    const int64_t mbeg = tile * j->tile;
    const int64_t mend = mbeg + j->tile < j->M ? mbeg + j->tile : j->M;
    int64_t ob, m0;
    for (ob = 0; ob < j->nob; ob++) {
      const float* pw = j->panels + (grp * j->nob + ob) * j->rows_per_panel * nr;
      const int64_t c0 = grp * j->ocg + ob * nr;
      const int cols = (int)(j->ocg - ob * nr < nr ? j->ocg - ob * nr : nr);
      for (m0 = mbeg; m0 < mend; m0 += mr) {
        const int h = (int)(mend - m0 < mr ? mend - m0 : mr);
        const int nseg = build_segments(j, m0, h, grp, pw, segs, ptrs);
        j->var.fn(segs, nseg, ptrs, j->y + m0 * d->oc + c0, d->oc, h, cols);
      }
    }
  }
  tfe_free(segs);
  tfe_free((void*)ptrs);
}

int tfe_conv_direct_f32(const tfe_conv_desc* d, const float* x,
                        const float* f, float* y, tfe_threadpool* pool) {
  cd_job j;
  float* panels;
  float* zero;
  int64_t g, ob, r, c, nthreads;
  memset(&j, 0, sizeof j);
  if (d->groups <= 0 || d->ic % d->groups != 0 || d->oc % d->groups != 0) {
    return 0;
  }
  j.icg = d->ic / d->groups;
  j.ocg = d->oc / d->groups;
  if (!pick_variant(j.ocg, &j.var)) return 0;
  j.d = d;
  j.x = x;
  j.y = y;
  j.M = d->n * d->oh * d->ow;
  if (j.M <= 0 || d->oc <= 0) return 1;
  j.nob = (j.ocg + j.var.nr - 1) / j.var.nr;
  j.rows_per_panel = d->kh * d->kw * j.icg;
  panels = (float*)tfe_aligned_alloc(
      sizeof(float) *
      (size_t)(d->groups * j.nob * j.rows_per_panel * j.var.nr + 1));
  zero = (float*)tfe_calloc((size_t)(d->kw * j.icg + 16), sizeof(float));
  if (panels == NULL || zero == NULL) {
    tfe_free(panels);
    tfe_free(zero);
    return 0;
  }
  for (g = 0; g < d->groups; g++) {
    for (ob = 0; ob < j.nob; ob++) {
      float* pw = panels + (g * j.nob + ob) * j.rows_per_panel * j.var.nr;
      const int64_t c0 = g * j.ocg + ob * j.var.nr;
      const int64_t w = j.ocg - ob * j.var.nr < j.var.nr
                            ? j.ocg - ob * j.var.nr
                            : j.var.nr;
      for (r = 0; r < j.rows_per_panel; r++) {
        const float* src = f + r * d->oc + c0;
        float* dst = pw + r * j.var.nr;
        for (c = 0; c < w; c++) dst[c] = src[c];
        for (c = w; c < j.var.nr; c++) dst[c] = 0;
      }
    }
  }
  j.panels = panels;
  j.zero = zero;
  /* Tiles: a few per thread for balance, at most 480 pixels so that a
   * tile's input rows stay in L2 while every panel sweeps over them. */
  nthreads = tfe_threadpool_size(pool);
  j.tile = (j.M * d->groups + 4 * nthreads - 1) / (4 * nthreads);
  if (j.tile > 480) j.tile = 480;
  j.tile = (j.tile + j.var.mr - 1) / j.var.mr * j.var.mr;
  j.ntiles = (j.M + j.tile - 1) / j.tile;
  tfe_parallel_for(pool, d->groups * j.ntiles, 1, cd_items, &j);
  tfe_free(panels);
  tfe_free(zero);
  return !j.failed;
}

/* ================================================== filter gradient
 *
 * df is a product [kh*kw*icg, ocg] = patches^T [.., pixels] x dy [pixels,
 * ocg] per group whose inner dimension (the output pixels) is long. A
 * register block holds MR consecutive input channels of one tap times NR
 * output channels; for each output pixel it broadcasts the MR input values
 * (contiguous in NHWC) and multiplies them into NR values of dy. The pixels
 * of one tap whose input lies inside the image form, per output row, one
 * run with constant strides in x and dy, so padding costs nothing.
 *
 * Work items are (group, column panel, tap, channel block): each owns its
 * block of df, so no reduction is needed and every element is summed in
 * the same order (pixel rows in order) whatever the number of threads.
 * Each thread takes a contiguous range of items and walks the output rows
 * in tiles of a few rows, running all its items on a tile while the
 * tile's x and dy rows are in cache.
 *
 * With at most 4 input channels (a 3-channel image stem) a block of
 * channels of one tap would be mostly empty; the input is then copied
 * with its padding made explicit, so that every tap of every output pixel
 * is inside it and a block can take consecutive rows of df across taps
 * (each row with its own offset into the window). */

/* One output row's run of pixels for one tap: x at the run's first input
 * pixel (channel 0), dy at its first output pixel (column 0). */
typedef struct fg_seg {
  const float* x;
  const float* dy;
} fg_seg;

/* out[p*ldo + 0..NR) += sum over segments and t < len of
 * x[t*xs + off_p] * dy[t*ys + dyo + 0..NR), for p < rows, where off_p is
 * offs[p] when offs is given, else c0 + p. */
typedef void (*fg_kernel_fn)(const fg_seg* segs, int64_t nseg, int64_t len,
                             int64_t xs, int64_t ys, int64_t c0,
                             const int64_t* offs, int64_t dyo, float* out,
                             int64_t ldo, int rows);

#if CD_HAVE_X86

#define FG_STEP(V, VU, VL, MR, NV, XOFF)                                                       \
  do {                                                                      \
    V dv[NV];                                                               \
    _Pragma("GCC unroll 8") for (v = 0; v < NV; v++) dv[v] =                \
        *(const VU*)(dp + v * VL);                                          \
    _Pragma("GCC unroll 32") for (p = 0; p < MR; p++) {                     \
      const float av = xp[XOFF];                                            \
      _Pragma("GCC unroll 8") for (v = 0; v < NV; v++) acc[p][v] +=         \
          av * dv[v];                                                       \
    }                                                                       \
  } while (0)

#define DEF_FG_KERNEL(S, V, VU, VL, MR, NV, ATTR)                           \
  ATTR static void fg_kern_##S(const fg_seg* segs, int64_t nseg,            \
                               int64_t len, int64_t xs, int64_t ys,         \
                               int64_t c0, const int64_t* offs,             \
                               int64_t dyo, float* out, int64_t ldo,        \
                               int rows) {                                  \
    V acc[MR][NV];                                                          \
    int64_t s, t;                                                           \
    int p, v;                                                               \
    for (p = 0; p < MR; p++)                                                \
      for (v = 0; v < NV; v++) acc[p][v] = (V){0};                          \
    if (rows == MR && offs == NULL) {                                       \
      for (s = 0; s < nseg; s++) {                                          \
        const float* xp = segs[s].x + c0;                                   \
        const float* dp = segs[s].dy + dyo;                                 \
        for (t = 0; t < len; t++, xp += xs, dp += ys) FG_STEP(V, VU, VL, MR, NV, p);           \
      }                                                                     \
    } else {                                                                \
      int64_t co[MR];                                                       \
      for (p = 0; p < MR; p++) {                                            \
        const int q = p < rows ? p : 0;                                     \
        co[p] = offs != NULL ? offs[q] : c0 + q;                            \
      }                                                                     \
      for (s = 0; s < nseg; s++) {                                          \
        const float* xp = segs[s].x;                                        \
        const float* dp = segs[s].dy + dyo;                                 \
        for (t = 0; t < len; t++, xp += xs, dp += ys) FG_STEP(V, VU, VL, MR, NV, co[p]);       \
      }                                                                     \
    }                                                                       \
    for (p = 0; p < rows; p++)                                              \
      for (v = 0; v < NV; v++) *(VU*)(out + p * ldo + v * VL) += acc[p][v]; \
  }

DEF_FG_KERNEL(avx512_4, cd_v16, cd_v16u, 16, 6, 4, CD_ATTR_AVX512)
DEF_FG_KERNEL(avx512_2, cd_v16, cd_v16u, 16, 12, 2, CD_ATTR_AVX512)
DEF_FG_KERNEL(avx512_1, cd_v16, cd_v16u, 16, 24, 1, CD_ATTR_AVX512)
DEF_FG_KERNEL(avx2_2, cd_v8, cd_v8u, 8, 6, 2, CD_ATTR_AVX2)
DEF_FG_KERNEL(avx2_1, cd_v8, cd_v8u, 8, 12, 1, CD_ATTR_AVX2)

#endif /* CD_HAVE_X86 */

typedef struct fg_variant {
  fg_kernel_fn fn;
  int mr, nr;
} fg_variant;

/* The kernels for this CPU, widest first; returns their count (0: none)
 * and the vector width in floats. */
static int fg_variants(fg_variant* v, int* vl) {
#if CD_HAVE_X86
  const char* isa = tfe_gemm_isa();
  if (strcmp(isa, "avx512") == 0) {
    v[0].fn = fg_kern_avx512_4;
    v[0].mr = 6;
    v[0].nr = 64;
    v[1].fn = fg_kern_avx512_2;
    v[1].mr = 12;
    v[1].nr = 32;
    v[2].fn = fg_kern_avx512_1;
    v[2].mr = 24;
    v[2].nr = 16;
    *vl = 16;
    return 3;
  }
  if (strcmp(isa, "avx2") == 0) {
    v[0].fn = fg_kern_avx2_2;
    v[0].mr = 6;
    v[0].nr = 16;
    v[1].fn = fg_kern_avx2_1;
    v[1].mr = 12;
    v[1].nr = 8;
    *vl = 8;
    return 2;
  }
#endif
  (void)v;
  *vl = 0;
  return 0;
}

typedef struct fg_item {
  const fg_variant* var;
  int64_t grp, col, tap, c0;
} fg_item;

typedef struct fg_job {
  const tfe_conv_desc* d;
  /* padded mode: x is a zero-padded copy [n][ihp][iwp][ic] in which every
   * tap of every output pixel is inside, so a block of rows may span taps
   * (offs[k] = offset of df row k from the window's first input); items
   * then carry the first df row in c0 and no tap */
  int padded;
  int64_t ihp, iwp;
  const int64_t* offs;
  const float* x;
  const float* dy; /* [n*oh*ow][ys], group g's column 0 at g*ocgp */
  float* acc;      /* [kh*kw*icg][ldo] */
  const fg_item* items;
  int64_t nitems, nunits, ys, icg, ocgp, ldo, rows_total, tile_rows;
  int failed;
} fg_job;

/* Units [u0, u1): unit u runs items [nitems*u/nunits, nitems*(u+1)/nunits)
 * over every output row. */
static void fg_units(void* arg, int64_t u0, int64_t u1) {
  fg_job* j = (fg_job*)arg;
  const tfe_conv_desc* d = j->d;
  fg_seg* segs =
      (fg_seg*)tfe_malloc(sizeof(fg_seg) * (size_t)(j->tile_rows + 1));
  int64_t u;
  if (segs == NULL) {
    j->failed = 1;
    return;
  }
  for (u = u0; u < u1; u++) {
    const int64_t i0 = j->nitems * u / j->nunits;
    const int64_t i1 = j->nitems * (u + 1) / j->nunits;
    int64_t r0;
    for (r0 = 0; r0 < j->rows_total; r0 += j->tile_rows) {
      const int64_t r1 = r0 + j->tile_rows < j->rows_total
                             ? r0 + j->tile_rows
                             : j->rows_total;
      int64_t it, seg_tap = -1, nseg = 0, len = 0;
      for (it = i0; it < i1; it++) {
        const fg_item* m = &j->items[it];
        const int64_t ti = m->tap / d->kw, tj = m->tap % d->kw;
        if (j->padded) {
          const int64_t K = d->kh * d->kw * j->icg;
          const int64_t rows = K - m->c0 < m->var->mr ? K - m->c0 : m->var->mr;
          int64_t r;
          if (seg_tap < 0) {
            seg_tap = 0;
            nseg = 0;
            len = d->ow;
            for (r = r0; r < r1; r++) {
              const int64_t b = r / d->oh, oy = r % d->oh;
              segs[nseg].x = j->x + (b * j->ihp + oy * d->sh) * j->iwp * d->ic;
              segs[nseg].dy = j->dy + r * d->ow * j->ys;
              nseg++;
            }
          }
          m->var->fn(segs, nseg, len, d->sw * d->ic, j->ys, 0,
                     j->offs + m->c0, m->col,
                     j->acc + m->c0 * j->ldo + m->col, j->ldo, (int)rows);
          continue;
        }
        if (m->tap != seg_tap) {
          /* runs of this tap in rows [r0, r1) */
          const int64_t a = d->pl - tj * d->dw;
          const int64_t lo = a <= 0 ? 0 : (a + d->sw - 1) / d->sw;
          const int64_t hiin = d->iw - 1 + a;
          int64_t hi = hiin < 0 ? 0 : hiin / d->sw + 1, r;
          if (hi > d->ow) hi = d->ow;
          seg_tap = m->tap;
          nseg = 0;
          len = hi - lo;
          if (len > 0) {
            for (r = r0; r < r1; r++) {
              const int64_t b = r / d->oh, oy = r % d->oh;
              const int64_t iy = oy * d->sh - d->pt + ti * d->dh;
              if (iy < 0 || iy >= d->ih) continue;
              segs[nseg].x =
                  j->x + ((b * d->ih + iy) * d->iw + lo * d->sw - a) * d->ic;
              segs[nseg].dy = j->dy + (r * d->ow + lo) * j->ys;
              nseg++;
            }
          }
        }
        if (nseg == 0 || len <= 0) continue;
        {
          const int64_t rows =
              j->icg - m->c0 < m->var->mr ? j->icg - m->c0 : m->var->mr;
          const int64_t dyo = m->grp * j->ocgp + m->col;
          m->var->fn(segs, nseg, len, d->sw * d->ic, j->ys,
                     m->grp * j->icg + m->c0, NULL, dyo,
                     j->acc + (m->tap * j->icg + m->c0) * j->ldo + dyo,
                     j->ldo, (int)rows);
        }
      }
    }
  }
  tfe_free(segs);
}

int tfe_conv_direct_filter_grad_f32(const tfe_conv_desc* d, const float* x,
                                    const float* dy, float* df,
                                    tfe_threadpool* pool) {
  fg_variant vars[3];
  fg_job j;
  fg_item* items = NULL;
  float* dyp = NULL;
  float* acc = NULL;
  float* xpad = NULL;
  int64_t* offs = NULL;
  int nvar, vl = 0, ok = 0;
  int64_t ocg, ocgp, taps, g, col, t, c0, n, K, M, nthreads, r, o;
  memset(&j, 0, sizeof j);
  nvar = fg_variants(vars, &vl);
  if (nvar == 0 || d->groups <= 0 || d->ic % d->groups != 0 ||
      d->oc % d->groups != 0) {
    return 0;
  }
  j.icg = d->ic / d->groups;
  ocg = d->oc / d->groups;
  taps = d->kh * d->kw;
  K = taps * j.icg;
  if (K <= 0 || d->oc <= 0) return 1;
  M = d->n * d->oh * d->ow;
  ocgp = (ocg + vl - 1) / vl * vl;
  j.ocgp = ocgp;
  j.ldo = d->groups * ocgp;
  /* dy is read NR columns at a time: pad each group to whole vectors
   * unless it already is. */
  if (ocgp != ocg || d->groups > 1) {
    dyp = (float*)tfe_calloc((size_t)(M * j.ldo + 1), sizeof(float));
    if (dyp == NULL) goto done;
    for (r = 0; r < M; r++) {
      for (g = 0; g < d->groups; g++) {
        memcpy(dyp + r * j.ldo + g * ocgp, dy + r * d->oc + g * ocg,
               sizeof(float) * (size_t)ocg);
      }
    }
    j.dy = dyp;
    j.ys = j.ldo;
  } else {
    j.dy = dy;
    j.ys = d->oc;
  }
  acc = (float*)tfe_calloc((size_t)(K * j.ldo + 1), sizeof(float));
  if (acc == NULL) goto done;
  /* Few input channels would leave most rows of a register block empty:
   * pad the input instead so that blocks can span taps. */
  j.padded = d->groups == 1 && j.icg <= 4 && taps > 1 && M > 0;
  if (j.padded) {
    int64_t b, py, px, i, jj, c;
    j.ihp = (d->oh - 1) * d->sh + (d->kh - 1) * d->dh + 1;
    j.iwp = (d->ow - 1) * d->sw + (d->kw - 1) * d->dw + 1;
    xpad = (float*)tfe_calloc((size_t)(d->n * j.ihp * j.iwp * d->ic + 1),
                              sizeof(float));
    offs = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)K);
    if (xpad == NULL || offs == NULL) goto done;
    for (b = 0; b < d->n; b++) {
      for (py = 0; py < j.ihp; py++) {
        const int64_t iy = py - d->pt;
        if (iy < 0 || iy >= d->ih) continue;
        for (px = 0; px < j.iwp; px++) {
          const int64_t ix = px - d->pl;
          if (ix < 0 || ix >= d->iw) continue;
          memcpy(xpad + ((b * j.ihp + py) * j.iwp + px) * d->ic,
                 x + ((b * d->ih + iy) * d->iw + ix) * d->ic,
                 sizeof(float) * (size_t)d->ic);
        }
      }
    }
    for (i = 0; i < d->kh; i++) {
      for (jj = 0; jj < d->kw; jj++) {
        for (c = 0; c < j.icg; c++) {
          offs[(i * d->kw + jj) * j.icg + c] =
              (i * d->dh * j.iwp + jj * d->dw) * d->ic + c;
        }
      }
    }
    j.offs = offs;
  }
  /* items: for each group, panels of 64/32/16 (AVX2: 16/8) columns */
  n = 0;
  for (g = 0; g < d->groups; g++) {
    for (col = 0; col < ocgp;) {
      int v = 0;
      while (vars[v].nr > ocgp - col) v++;
      n += j.padded ? (K + vars[v].mr - 1) / vars[v].mr
                    : taps * ((j.icg + vars[v].mr - 1) / vars[v].mr);
      col += vars[v].nr;
    }
  }
  items = (fg_item*)tfe_malloc(sizeof(fg_item) * (size_t)(n + 1));
  if (items == NULL) goto done;
  n = 0;
  for (g = 0; g < d->groups; g++) {
    for (col = 0; col < ocgp;) {
      int v = 0;
      while (vars[v].nr > ocgp - col) v++;
      if (j.padded) {
        for (c0 = 0; c0 < K; c0 += vars[v].mr) {
          items[n].var = &vars[v];
          items[n].grp = 0;
          items[n].col = col;
          items[n].tap = 0;
          items[n].c0 = c0;
          n++;
        }
        col += vars[v].nr;
        continue;
      }
      for (t = 0; t < taps; t++) {
        for (c0 = 0; c0 < j.icg; c0 += vars[v].mr) {
          items[n].var = &vars[v];
          items[n].grp = g;
          items[n].col = col;
          items[n].tap = t;
          items[n].c0 = c0;
          n++;
        }
      }
      col += vars[v].nr;
    }
  }
  j.d = d;
  j.x = j.padded ? xpad : x;
  j.acc = acc;
  j.items = items;
  j.nitems = n;
  j.rows_total = d->n * d->oh;
  j.tile_rows = d->ow >= 128 ? 1 : (256 + d->ow - 1) / (d->ow > 0 ? d->ow : 1);
  nthreads = tfe_threadpool_size(pool);
  j.nunits = nthreads < n ? nthreads : n;
  if (j.rows_total > 0 && M > 0) {
    tfe_parallel_for(pool, j.nunits, 1, fg_units, &j);
  }
  if (j.failed) goto done;
  for (r = 0; r < K; r++) {
    for (g = 0; g < d->groups; g++) {
      const float* src = acc + r * j.ldo + g * ocgp;
      float* dst = df + r * d->oc + g * ocg;
      for (o = 0; o < ocg; o++) dst[o] = src[o];
    }
  }
  ok = 1;
done:
  tfe_free(dyp);
  tfe_free(acc);
  tfe_free(items);
  tfe_free(xpad);
  tfe_free(offs);
  return ok;
}
