/* SpaceToBatchND and BatchToSpaceND (and the 4-D SpaceToBatch and
 * BatchToSpace with one block size for both spatial dimensions): moving blocks of the M spatial
 * dimensions (after the batch dimension) into the batch dimension and
 * back, with zero padding or cropping. Batch index of block offset
 * (o_1..o_M) and original batch b is ((o_1 * block_2 + o_2) ...) * B + b. */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/arrayops_common.h"
#include "kernels/cpu/kutil.h"

typedef struct bs_geom {
  int m;                          /* number of block dimensions */
  int64_t block[TFE_MAX_DIMS];    /* block sizes */
  int64_t before[TFE_MAX_DIMS];   /* padding/crop at the start */
  int64_t after[TFE_MAX_DIMS];    /* padding/crop at the end */
} bs_geom;

/* Shared checks of block_shape and paddings/crops. The ND ops pass the
 * block_shape tensor; the 4-D ops (SpaceToBatch, BatchToSpace) pass NULL
 * and their block_size, which applies to both spatial dimensions. */
static int read_geom(tfe_kernel_context* k, const char* what,
                     const TF_Tensor* bs, int64_t block_size,
                     const TF_Tensor* pc, bs_geom* g) {
  const TF_Tensor* x = k->inputs[0];
  kutil_shape_buf sb;
  int i;
  if (bs == NULL) {
    if (x->num_dims != 4) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input rank should be: 4instead of: %d", x->num_dims);
      return 0;
    }
    g->m = 2;
  } else {
    if (bs->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "block_shape rank should be 1 instead of %d", bs->num_dims);
      return 0;
    }
    if (bs->dims[0] > TFE_MAX_DIMS - 1 || x->num_dims < 1 + bs->dims[0]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "input rank should be >= %lld instead of %d",
                 (long long)(1 + bs->dims[0]), x->num_dims);
      return 0;
    }
    g->m = (int)bs->dims[0];
  }
  if (pc->num_dims != 2 || pc->dims[0] != g->m || pc->dims[1] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s should have shape [%d, 2] instead of %s", what, g->m,
               kutil_tshape(pc, &sb));
    return 0;
  }
  for (i = 0; i < g->m; i++) {
    g->block[i] = bs != NULL ? kutil_get_int(bs, i) : block_size;
    g->before[i] = kutil_get_int(pc, 2 * i);
    g->after[i] = kutil_get_int(pc, 2 * i + 1);
  }
  return 1;
}
/* Walks every element of the batch-side tensor (dims `bdims`) and copies
 * it to or from the space-side tensor (dims `sdims`); positions that fall
 * into the padding read as zero (to batch) or are dropped (to space). */
static void move(const bs_geom* g, TF_DataType dt, const int64_t* bdims,
                 const int64_t* sdims, int nd, char* batch_side,
                 char* space_side, int to_batch) {
  size_t esz = kutil_esize(dt);
  int64_t n = 1, i, idx[TFE_MAX_DIMS], sstride[TFE_MAX_DIMS];
  int64_t B = sdims[0];
  int d;
  for (d = 0; d < nd; d++) n *= bdims[d];
  if (n == 0) return;
  sstride[nd - 1] = 1;
  for (d = nd - 2; d >= 0; d--) sstride[d] = sstride[d + 1] * sdims[d + 1];
  for (d = 0; d < nd; d++) idx[d] = 0;
  for (i = 0; i < n; i++) {
    /* split the batch index into block offsets and the original batch */
    int64_t rest = idx[0] / B, b = idx[0] % B, off = b * sstride[0];
    int inside = 1;
    for (d = g->m - 1; d >= 0; d--) {
      int64_t o = rest % g->block[d], pos;
      rest /= g->block[d];
      pos = idx[d + 1] * g->block[d] + o - g->before[d];
      if (pos < 0 || pos >= sdims[d + 1]) inside = 0;
      off += pos * sstride[d + 1];
    }
    for (d = g->m + 1; d < nd; d++) off += idx[d] * sstride[d];
    if (to_batch) {
      if (inside) {
        memcpy(batch_side + (size_t)i * esz, space_side + (size_t)off * esz, esz);
      } else {
        memset(batch_side + (size_t)i * esz, 0, esz);
      }
    } else if (inside) {
      memcpy(space_side + (size_t)off * esz, batch_side + (size_t)i * esz, esz);
    }
    for (d = nd - 1; d >= 0; d--) {
      if (++idx[d] < bdims[d]) break;
      idx[d] = 0;
    }
  }
}

static void space_to_batch(tfe_kernel_context* k, const TF_Tensor* bs,
                           int64_t block_size, const TF_Tensor* pads) {
  const TF_Tensor* x = k->inputs[0];
  bs_geom g;
  int64_t odims[TFE_MAX_DIMS], prod = 1;
  int i, nd = x->num_dims;
  TF_Tensor* y;
  if (!read_geom(k, "paddings", bs, block_size, pads, &g)) return;
  for (i = 0; i < g.m; i++) {
    if (g.block[i] < 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "All values in block_shape must be positive, got value, "
                 "%lld at index %d.",
                 (long long)g.block[i], i);
      return;
    }
  }
  for (i = 0; i < g.m; i++) {
    int64_t padded;
    if (g.before[i] < 0 || g.after[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Paddings must be non-negative");
      return;
    }
    if (!tfe_checked_add_i64(x->dims[i + 1], g.before[i], &padded) ||
        !tfe_checked_add_i64(padded, g.after[i], &padded)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "padded_shape[%d] overflows: input size %lld, paddings "
                 "%lld and %lld",
                 i, (long long)x->dims[i + 1], (long long)g.before[i],
                 (long long)g.after[i]);
      return;
    }
    if (padded % g.block[i] != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "padded_shape[%d]=%lld is not divisible by "
                 "block_shape[%d]=%lld",
                 i, (long long)padded, i, (long long)g.block[i]);
      return;
    }
    odims[i + 1] = padded / g.block[i];
    if (!tfe_checked_mul_i64(prod, g.block[i], &prod)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Product of block sizes overflows an int64");
      return;
    }
  }
  if (!tfe_checked_mul_i64(x->dims[0], prod, &odims[0])) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Output batch size %lld * %lld overflows an int64",
               (long long)x->dims[0], (long long)prod);
    return;
  }
  for (i = g.m + 1; i < nd; i++) odims[i] = x->dims[i];
  y = tfe_kernel_alloc_output(k, 0, x->dtype, odims, nd);
  if (y == NULL) return;
  move(&g, x->dtype, odims, x->dims, nd, (char*)kutil_data(y),
       (char*)kutil_data(x), 1);
}

static void batch_to_space(tfe_kernel_context* k, const TF_Tensor* bs,
                           int64_t block_size, const TF_Tensor* crops) {
  const TF_Tensor* x = k->inputs[0];
  bs_geom g;
  int64_t odims[TFE_MAX_DIMS], prod = 1;
  int i, nd = x->num_dims, bad = 0;
  TF_Tensor* y;
  if (!read_geom(k, "crops", bs, block_size, crops, &g)) return;
  for (i = 0; i < g.m; i++) {
    if (g.block[i] < 1) bad = 1;
    if (!tfe_checked_mul_i64(prod, g.block[i], &prod)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Product of block sizes overflows an int64");
      return;
    }
  }
  if (prod <= 0 || bad) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Product of block sizes must be positive, got %lld",
               (long long)prod);
    return;
  }
  if (x->dims[0] % prod != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input batch dimension (%lld) is not divisible by product of "
               "block sizes (%lld)",
               (long long)x->dims[0], (long long)prod);
    return;
  }
  for (i = 0; i < g.m; i++) {
    int64_t size;
    if (g.before[i] < 0 || g.after[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Crops must be non-negative");
      return;
    }
    if (!tfe_checked_mul_i64(x->dims[i + 1], g.block[i], &size) ||
        !tfe_checked_sub_i64(size, g.before[i], &size) ||
        !tfe_checked_sub_i64(size, g.after[i], &size)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "cropped_shape[%d] overflows: input size %lld, block size "
                 "%lld",
                 i, (long long)x->dims[i + 1], (long long)g.block[i]);
      return;
    }
    if (size < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "cropped_shape[%d]=%lld must be non-negative", i,
                 (long long)size);
      return;
    }
    odims[i + 1] = size;
  }
  odims[0] = x->dims[0] / prod;
  for (i = g.m + 1; i < nd; i++) odims[i] = x->dims[i];
  y = tfe_kernel_alloc_output(k, 0, x->dtype, odims, nd);
  if (y == NULL) return;
  move(&g, x->dtype, x->dims, odims, nd, (char*)kutil_data(x),
       (char*)kutil_data(y), 0);
}

static void k_space_to_batch_nd(tfe_kernel_context* k) {
  space_to_batch(k, k->inputs[1], 0, k->inputs[2]);
}
static void k_batch_to_space_nd(tfe_kernel_context* k) {
  batch_to_space(k, k->inputs[1], 0, k->inputs[2]);
}
static void k_space_to_batch(tfe_kernel_context* k) {
  int32_t bs;
  if (!kutil_attr_int32(k, "block_size", 2, &bs)) return;
  space_to_batch(k, NULL, bs, k->inputs[1]);
}
static void k_batch_to_space(tfe_kernel_context* k) {
  int32_t bs;
  if (!kutil_attr_int32(k, "block_size", 2, &bs)) return;
  batch_to_space(k, NULL, bs, k->inputs[1]);
}

void tfe_register_arrayops_batch_kernels(void) {
  static const TF_DataType t[] = {KUTIL_REAL_TYPES};
  tfe_kutil_register("SpaceToBatchND", k_space_to_batch_nd, "T", t,
                     KUTIL_COUNT(t), NULL, NULL, 0);
  tfe_kutil_register("BatchToSpaceND", k_batch_to_space_nd, "T", t,
                     KUTIL_COUNT(t), NULL, NULL, 0);
  tfe_kutil_register("SpaceToBatch", k_space_to_batch, "T", t,
                     KUTIL_COUNT(t), NULL, NULL, 0);
  tfe_kutil_register("BatchToSpace", k_batch_to_space, "T", t,
                     KUTIL_COUNT(t), NULL, NULL, 0);
}
