/* Broadcast shape computation and collapsing (see broadcast.h). */
#include "kernels/cpu/broadcast.h"

#include <stdio.h>
#include <string.h>

int tfe_bcast_init(tfe_bcast* b, int n, const int64_t* const* dims,
                   const int* ranks) {
  int R = 0, i, j, k;
  unsigned prev_mask = 0;
  int have_prev = 0;
  int too_complex = 0;
  if (b == NULL || n < 1 || n > TFE_BCAST_MAX_INPUTS || dims == NULL ||
      ranks == NULL) {
    return TFE_BCAST_BAD_ARGS;
  }
  b->num_inputs = n;
  for (j = 0; j < n; j++) {
    if (ranks[j] < 0 || ranks[j] > TFE_MAX_DIMS ||
        (ranks[j] > 0 && dims[j] == NULL)) {
      return TFE_BCAST_BAD_ARGS;
    }
    if (ranks[j] > R) R = ranks[j];
  }
  b->out_rank = R;
  b->out_elems = 1;
  b->rank = 0;
  for (j = 0; j < n; j++) b->in_elems[j] = 1;

  for (i = 0; i < R; i++) {
    int64_t out = 1;
    unsigned mask = 0;
    /* Sizes of this axis for every input (1 where the input has no such
     * axis). */
    for (j = 0; j < n; j++) {
      int a = i - (R - ranks[j]);
      int64_t d = a >= 0 ? dims[j][a] : 1;
      if (d < 0) return TFE_BCAST_BAD_ARGS;
      if (d != 1) {
        if (out != 1 && out != d) return TFE_BCAST_INCOMPATIBLE;
        out = d;
      }
    }
    for (j = 0; j < n; j++) {
      int a = i - (R - ranks[j]);
      int64_t d = a >= 0 ? dims[j][a] : 1;
      if (d == out) mask |= 1u << j;
      b->in_elems[j] *= d;
    }
    b->out_dims[i] = out;
    b->out_elems *= out;
    if (out == 1) continue; /* axes of size 1 are dropped */
    if (have_prev && mask == prev_mask) {
      if (!too_complex) b->dims[b->rank - 1] *= out;
      continue;
    }
    if (b->rank == TFE_BCAST_MAX_COLLAPSED) {
      too_complex = 1;
      continue;
    }
    if (!too_complex) {
      b->dims[b->rank] = out;
      /* Stash the mask in the stride slot; real strides are computed
       * below. */
      for (j = 0; j < n; j++) b->strides[j][b->rank] = (mask >> j) & 1u;
      b->rank++;
    }
    prev_mask = mask;
    have_prev = 1;
  }
  if (too_complex) {
    b->rank = 0;
    return TFE_BCAST_TOO_COMPLEX;
  }
  if (b->rank == 0) {
    /* Every axis has size 1 (or there are none): one element. */
    b->rank = 1;
    b->dims[0] = 1;
    for (j = 0; j < n; j++) b->strides[j][0] = 1;
    return TFE_BCAST_OK;
  }
  /* Turn the "varies along this axis" flags into element strides. */
  for (j = 0; j < n; j++) {
    int64_t s = 1;
    for (k = b->rank - 1; k >= 0; k--) {
      if (b->strides[j][k]) {
        b->strides[j][k] = s;
        s *= b->dims[k];
      } else {
        b->strides[j][k] = 0;
      }
    }
  }
  return TFE_BCAST_OK;
}

void tfe_bcast_iter_init(tfe_bcast_iter* it, const tfe_bcast* b,
                         int64_t begin, int64_t end) {
  int64_t rem = begin;
  int j, k;
  it->b = b;
  it->pos = begin;
  it->end = end;
  for (j = 0; j < b->num_inputs; j++) it->off[j] = 0;
  for (k = b->rank - 1; k >= 0; k--) {
    int64_t d = b->dims[k];
    int64_t q = d > 0 ? rem % d : 0;
    it->idx[k] = q;
    rem = d > 0 ? rem / d : 0;
    for (j = 0; j < b->num_inputs; j++) it->off[j] += q * b->strides[j][k];
  }
}

char* tfe_format_shape(const int64_t* dims, int num_dims, char* buf,
                       size_t cap) {
  size_t len = 0;
  int i;
  if (buf == NULL || cap == 0) return buf;
  buf[0] = '\0';
  if (cap < 2) return buf;
  buf[len++] = '[';
  for (i = 0; i < num_dims && dims != NULL; i++) {
    int w = snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                     (long long)dims[i]);
    if (w < 0 || (size_t)w >= cap - len) {
      /* Out of room: end with "...]" when it fits. */
      len = cap > 5 ? cap - 5 : 1;
      snprintf(buf + len, cap - len, "...]");
      return buf;
    }
    len += (size_t)w;
  }
  if (len + 1 < cap) {
    buf[len++] = ']';
    buf[len] = '\0';
  } else {
    buf[cap - 1] = '\0';
  }
  return buf;
}
