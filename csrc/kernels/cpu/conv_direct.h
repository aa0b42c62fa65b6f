/* Direct (im2col-free) float32 NHWC convolution for x86-64 CPUs with AVX2
 * or AVX-512.
 *
 * Each output pixel block (a few consecutive output pixels in row-major
 * order) times each block of output channels is computed in registers:
 * for every filter tap the input pixels' channels are broadcast and
 * multiplied into the repacked filter rows, and taps whose whole window
 * row is inside the image are merged into one long run (the kw taps of one
 * filter row are contiguous in NHWC when the horizontal dilation is 1).
 * Padding taps read a zero buffer. Work is split over the given thread
 * pool in tiles of output pixels.
 * Implementation: csrc/kernels/cpu/conv_direct.c. */
#ifndef TFE_KERNELS_CPU_CONV_DIRECT_H_
#define TFE_KERNELS_CPU_CONV_DIRECT_H_

#include <stdint.h>

#include "core/threadpool.h"

typedef struct tfe_conv_desc {
  int64_t n, ih, iw, ic;  /* input [n, ih, iw, ic] */
  int64_t kh, kw;         /* filter [kh, kw, ic / groups, oc] */
  int64_t oh, ow, oc;     /* output [n, oh, ow, oc] */
  int64_t groups;         /* ic and oc are both multiples of groups */
  int64_t sh, sw, dh, dw; /* strides and dilations (>= 1) */
  int64_t pt, pl;         /* rows/columns of padding before the image; may
                             be negative (the window starts inside it) */
} tfe_conv_desc;

/* 1 when this CPU has an ISA the direct kernel is built for. */
int tfe_conv_direct_available(void);

/* y = conv(x, f) as described by d (y is fully written). pool may be NULL.
 * Returns 1 on success, 0 when the kernel is unavailable on this CPU or
 * scratch memory could not be allocated (y then unspecified). */
int tfe_conv_direct_f32(const tfe_conv_desc* d, const float* x,
                        const float* f, float* y, tfe_threadpool* pool);

/* Filter gradient of the same convolution:
 *   df[i][j][c][o] = sum over (b, oy, ox) of
 *     x[b][oy*sh - pt + i*dh][ox*sw - pl + j*dw][g*icg + c] * dy[b][oy][ox][o]
 * (g = o's group; taps in the padding add nothing); df [kh, kw, icg, oc] is
 * fully written. Output pixel rows are shared out in contiguous ranges,
 * one per thread of pool, each summed into its own copy of df in a fixed
 * order; the copies are then added in thread order, so the result only
 * depends on the pool's size. Register blocks hold a few input channels
 * of one tap times 16..64 output channels and run over whole rows of
 * output pixels. Same return convention as tfe_conv_direct_f32. */
int tfe_conv_direct_filter_grad_f32(const tfe_conv_desc* d, const float* x,
                                    const float* dy, float* df,
                                    tfe_threadpool* pool);

#endif /* TFE_KERNELS_CPU_CONV_DIRECT_H_ */
