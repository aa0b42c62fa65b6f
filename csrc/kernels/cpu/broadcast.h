/* TensorFlow's broadcasting rules for up to TFE_BCAST_MAX_INPUTS inputs,
 * and iteration over the broadcast result in flat ranges.
 *
 * Shapes are aligned at their last dimension; missing leading dimensions
 * count as 1. Along each axis every input must either have the output's
 * size or size 1 (a 0-sized axis broadcasts only against 1). The result is
 * also "collapsed" the way TF's BCast does it: axes of size 1 are dropped
 * and neighbouring axes along which the same inputs broadcast are merged,
 * so [2,3,4] + [4] is iterated as [6,4] + [1,4]. Kernels use the collapsed
 * rank for TF's "not supported yet" limits and iterate contiguous runs of
 * the innermost collapsed axis.
 *
 * Usable by any kernel (elementwise, SelectV2, BroadcastTo, ...).
 * Implementation: broadcast.c. */
#ifndef TFE_KERNELS_CPU_BROADCAST_H_
#define TFE_KERNELS_CPU_BROADCAST_H_

#include <stddef.h>
#include <stdint.h>

#include "core/tensor_internal.h"

#define TFE_BCAST_MAX_INPUTS 3
/* Most collapsed axes supported (TF itself stops at 5 for binary ops and
 * 8 for SelectV2). */
#define TFE_BCAST_MAX_COLLAPSED 16

enum {
  TFE_BCAST_OK = 0,
  TFE_BCAST_INCOMPATIBLE = 1, /* some axis has two different sizes > 1 */
  TFE_BCAST_TOO_COMPLEX = 2,  /* more than TFE_BCAST_MAX_COLLAPSED axes */
  TFE_BCAST_BAD_ARGS = 3      /* NULL dims, rank < 0 or > TFE_MAX_DIMS */
};

typedef struct tfe_bcast {
  int num_inputs;
  /* The broadcast result shape. */
  int out_rank;
  int64_t out_dims[TFE_MAX_DIMS];
  int64_t out_elems;
  /* Element count of each input. An input is "full" when it has
   * out_elems elements (it is then laid out exactly like the output) and
   * "scalar" when it has one element. */
  int64_t in_elems[TFE_BCAST_MAX_INPUTS];
  /* Collapsed iteration space: rank >= 1 axes; strides are in elements of
   * each input, 0 along axes where that input is broadcast. The innermost
   * stride of each input is 0 or 1. */
  int rank;
  int64_t dims[TFE_BCAST_MAX_COLLAPSED];
  int64_t strides[TFE_BCAST_MAX_INPUTS][TFE_BCAST_MAX_COLLAPSED];
} tfe_bcast;

/* Fills *b for inputs with shapes (dims[i], ranks[i]), i < n (1..3).
 * Returns one of the TFE_BCAST_* codes; on TFE_BCAST_TOO_COMPLEX the output
 * shape (out_rank, out_dims, out_elems) and in_elems are still valid, so a
 * kernel can still handle the full/scalar cases. */
int tfe_bcast_init(tfe_bcast* b, int n, const int64_t* const* dims,
                   const int* ranks);

/* 1 when every input is full or a scalar, so flat index i of the output
 * reads element i (full) or element 0 (scalar) of each input. */
static inline int tfe_bcast_is_linear(const tfe_bcast* b) {
  int j;
  for (j = 0; j < b->num_inputs; j++) {
    if (b->in_elems[j] != b->out_elems && b->in_elems[j] != 1) return 0;
  }
  return 1;
}

/* Walks output elements [begin, end) as runs along the innermost collapsed
 * axis. */
typedef struct tfe_bcast_iter {
  const tfe_bcast* b;
  int64_t pos;
  int64_t end;
  int64_t idx[TFE_BCAST_MAX_COLLAPSED];
  int64_t off[TFE_BCAST_MAX_INPUTS];
} tfe_bcast_iter;

void tfe_bcast_iter_init(tfe_bcast_iter* it, const tfe_bcast* b,
                         int64_t begin, int64_t end);

/* Next run: output elements [*out_off, *out_off + *len) read input j from
 * in_off[j] on with stride b->strides[j][b->rank - 1]. Returns 0 when the
 * range is exhausted. */
static inline int tfe_bcast_iter_next(tfe_bcast_iter* it, int64_t* out_off,
                                      int64_t* in_off, int64_t* len) {
  const tfe_bcast* b = it->b;
  const int last = b->rank - 1;
  const int64_t inner = b->dims[last];
  int64_t run;
  int j, k;
  if (it->pos >= it->end) return 0;
  run = inner - it->idx[last];
  if (run > it->end - it->pos) run = it->end - it->pos;
  *out_off = it->pos;
  *len = run;
  for (j = 0; j < b->num_inputs; j++) in_off[j] = it->off[j];
  it->pos += run;
  it->idx[last] += run;
  for (j = 0; j < b->num_inputs; j++) it->off[j] += run * b->strides[j][last];
  if (it->idx[last] < inner || it->pos >= it->end) return 1;
  /* Carry into the outer axes. */
  it->idx[last] = 0;
  for (j = 0; j < b->num_inputs; j++) it->off[j] -= inner * b->strides[j][last];
  for (k = last - 1; k >= 0; k--) {
    it->idx[k]++;
    for (j = 0; j < b->num_inputs; j++) it->off[j] += b->strides[j][k];
    if (it->idx[k] < b->dims[k]) break;
    it->idx[k] = 0;
    for (j = 0; j < b->num_inputs; j++) {
      it->off[j] -= b->dims[k] * b->strides[j][k];
    }
  }
  return 1;
}

/* Writes TF's rendering of a shape, "[2,3]" ("[]" for a scalar), into buf
 * (always NUL-terminated, truncated to cap). Returns buf. */
char* tfe_format_shape(const int64_t* dims, int num_dims, char* buf,
                       size_t cap);

#endif /* TFE_KERNELS_CPU_BROADCAST_H_ */
