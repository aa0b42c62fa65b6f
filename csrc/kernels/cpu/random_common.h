/* Shared by the random kernels (random_extra.c, random_dist_kernels.c):
 * filling a tensor with one of TF's fixed distributions from a Philox
 * key/counter, exactly as TF's FillPhiloxRandom does (group g of outputs
 * from block g; truncated normals 256 words per output apart). */
#ifndef TFE_KERNELS_CPU_RANDOM_COMMON_H_
#define TFE_KERNELS_CPU_RANDOM_COMMON_H_

#include <stdint.h>

#include "tensorflow/c/tf_tensor.h"

enum {
  TFE_RND_INT = 0,     /* integers lo + bits mod range (int32/int64) */
  TFE_RND_FULLINT = 1, /* the raw bits (int32/int64/uint32/uint64) */
  TFE_RND_TRUNC = 2,   /* truncated standard normal (floats) */
  TFE_RND_UNIFORM = 3, /* uniform [0, 1) (floats) */
  TFE_RND_NORMAL = 4   /* standard normal (floats) */
};

/* Fills every element of out (its dtype decides the conversion) from the
 * Philox generator with key[2] and counter ctr[4] (32-bit words, low
 * first). lo and range are used by TFE_RND_INT only. */
void tfe_random_fill(int kind, uint64_t lo, uint64_t range,
                     const uint32_t key[2], const uint32_t ctr[4],
                     TF_Tensor* out);

#endif /* TFE_KERNELS_CPU_RANDOM_COMMON_H_ */
