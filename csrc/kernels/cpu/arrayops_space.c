/* DepthToSpace, SpaceToDepth (NHWC; TF has no CPU kernel for the other
 * layouts) and ReverseSequence. */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/arrayops_common.h"
#include "kernels/cpu/kutil.h"

/* TF registers these CPU kernels for NHWC only; any other layout finds no
 * kernel. Returns 1 when the layout is NHWC, else sets NOT_FOUND the way
 * the kernel lookup words it. */
static int require_nhwc(tfe_kernel_context* k, const char* op,
                        int64_t block) {
  const char* fmt = "NHWC";
  size_t len = 4;
  if (k->attrs != NULL) {
    tfe_attrs_get_string(k->attrs, "data_format", &fmt, &len, NULL);
  }
  if (len == 4 && memcmp(fmt, "NHWC", 4) == 0) return 1;
  KUTIL_FAIL(k, TF_NOT_FOUND,
             "Could not find device for node: {{node %s}} = %s[T=%s, "
             "block_size=%lld, data_format=\"%.*s\"]",
             op, op, tfe_dtype_enum_name(k->inputs[0]->dtype), (long long)block,
             (int)len, fmt);
  return 0;
}

static void depth_space(tfe_kernel_context* k, int to_space) {
  const TF_Tensor* x = k->inputs[0];
  int32_t bs32;
  int64_t bs, bs2;
  size_t esz = kutil_esize(x->dtype);
  int64_t B, H, W, C, OH, OW, OC, dims[4], b, h, w, i, j;
  TF_Tensor* y;
  char* o;
  const char* s;
  /* TF reads block_size as an int32 (2^32 would make bs * bs wrap to 0);
   * the op definition guarantees >= 2, checked again as it is a divisor.
   * Within int32, bs * bs fits an int64; the output dims are products
   * of input dims and bs, checked (a zero-size input may have huge
   * dims). */
  if (!kutil_attr_int32(k, "block_size", 2, &bs32)) return;
  bs = bs32;
  if (!require_nhwc(k, to_space ? "DepthToSpace" : "SpaceToDepth", bs)) return;
  if (bs < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Value for attr 'block_size' of %lld must be at least minimum 2",
               (long long)bs);
    return;
  }
  bs2 = bs * bs;
  if (x->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               to_space ? "Input rank should be: 4 instead of: %d"
                        : "Input rank should be 4 instead of %d",
               x->num_dims);
    return;
  }
  B = x->dims[0];
  H = x->dims[1];
  W = x->dims[2];
  C = x->dims[3];
  if (to_space) {
    if (C % bs2 != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input depth dimension %lld should be divisible by: %lld",
                 (long long)C, (long long)bs2);
      return;
    }
    if (!tfe_checked_mul_i64(H, bs, &OH) || !tfe_checked_mul_i64(W, bs, &OW)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Output shape of DepthToSpace overflows: input [%lld,%lld,"
                 "%lld,%lld], block_size %lld",
                 (long long)B, (long long)H, (long long)W, (long long)C,
                 (long long)bs);
      return;
    }
    OC = C / bs2;
  } else {
    if (W % bs != 0 || H % bs != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Image width %lld and height %lld should be divisible by "
                 "block_size: %lld",
                 (long long)W, (long long)H, (long long)bs);
      return;
    }
    OH = H / bs;
    OW = W / bs;
    if (!tfe_checked_mul_i64(C, bs2, &OC)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Output shape of SpaceToDepth overflows: input [%lld,%lld,"
                 "%lld,%lld], block_size %lld",
                 (long long)B, (long long)H, (long long)W, (long long)C,
                 (long long)bs);
      return;
    }
  }
  dims[0] = B;
  dims[1] = OH;
  dims[2] = OW;
  dims[3] = OC;
  y = tfe_kernel_alloc_output(k, 0, x->dtype, dims, 4);
  if (y == NULL) return;
  /* Nothing to move (and the loops below would count through bs * bs
   * empty runs). */
  if (kutil_num_elements(y) == 0) return;
  o = (char*)kutil_data(y);
  s = (const char*)kutil_data(x);
  /* The depth-side tensor [B, h, w, bs, bs, c] and the space-side tensor
   * [B, h, bs, w, bs, c] hold the same elements; copy runs of c. */
  {
    int64_t h_small = to_space ? H : OH, w_small = to_space ? W : OW;
    int64_t c = to_space ? OC : C;
    for (b = 0; b < B; b++) {
      for (h = 0; h < h_small; h++) {
        for (w = 0; w < w_small; w++) {
          for (i = 0; i < bs; i++) {
            for (j = 0; j < bs; j++) {
              int64_t deep = (((b * h_small + h) * w_small + w) * bs + i) * bs + j;
              int64_t wide =
                  (((b * h_small + h) * bs + i) * w_small + w) * bs + j;
              const char* from = s + (size_t)((to_space ? deep : wide) * c) * esz;
              char* to = o + (size_t)((to_space ? wide : deep) * c) * esz;
              if (x->dtype == TF_STRING) {
                kutil_copy(x->dtype, to, from, c);
              } else {
                memcpy(to, from, (size_t)c * esz);
              }
            }
          }
        }
      }
    }
  }
}

static void k_depth_to_space(tfe_kernel_context* k) { depth_space(k, 1); }
static void k_space_to_depth(tfe_kernel_context* k) { depth_space(k, 0); }

/* ----------------------------------------------------- ReverseSequence */

static void k_reverse_sequence(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* lens = k->inputs[1];
  int32_t seq_dim, batch_dim;
  int nd = x->num_dims, d;
  int64_t n, i, stride[TFE_MAX_DIMS], idx[TFE_MAX_DIMS];
  size_t esz = kutil_esize(x->dtype);
  TF_Tensor* y;
  char* o;
  const char* s;
  if (!kutil_attr_int32(k, "seq_dim", 0, &seq_dim) ||
      !kutil_attr_int32(k, "batch_dim", 0, &batch_dim)) {
    return;
  }
  if (seq_dim < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid seq_dim %lld",
               (long long)seq_dim);
    return;
  }
  if (batch_dim < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Invalid batch_dim %lld",
               (long long)batch_dim);
    return;
  }
  if (batch_dim == seq_dim) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "batch_dim == seq_dim == %lld",
               (long long)seq_dim);
    return;
  }
  if (seq_dim >= nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seq_dim must be < input rank ( %lld vs. %d)",
               (long long)seq_dim, nd);
    return;
  }
  if (batch_dim >= nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "batch_dim must be < input rank ( %lld vs. %d)",
               (long long)batch_dim, nd);
    return;
  }
  if (lens->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seq_lengths must be 1-dim, not %d",
               lens->num_dims);
    return;
  }
  if (lens->dims[0] != x->dims[batch_dim]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Length of seq_lengths != input.dims(%lld), (%lld vs. %lld)",
               (long long)batch_dim, (long long)lens->dims[0],
               (long long)x->dims[batch_dim]);
    return;
  }
  for (i = 0; i < lens->dims[0]; i++) {
    int64_t L = kutil_get_int(lens, i);
    if (L < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seq_lens(%lld) < 0", (long long)i);
      return;
    }
    if (L > x->dims[seq_dim]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seq_lens(%lld) > input.dims(%lld)",
                 (long long)i, (long long)seq_dim);
      return;
    }
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, nd);
  if (y == NULL) return;
  n = kutil_num_elements(x);
  if (n == 0) return;
  o = (char*)kutil_data(y);
  s = (const char*)kutil_data(x);
  stride[nd - 1] = 1;
  for (d = nd - 2; d >= 0; d--) stride[d] = stride[d + 1] * x->dims[d + 1];
  for (d = 0; d < nd; d++) idx[d] = 0;
  for (i = 0; i < n; i++) {
    int64_t L = kutil_get_int(lens, idx[batch_dim]), src = i;
    if (idx[seq_dim] < L) {
      src += (L - 1 - 2 * idx[seq_dim]) * stride[seq_dim];
    }
    kutil_copy1(x->dtype, esz, o + (size_t)i * esz, s + (size_t)src * esz);
    for (d = nd - 1; d >= 0; d--) {
      if (++idx[d] < x->dims[d]) break;
      idx[d] = 0;
    }
  }
}

void tfe_register_arrayops_space_kernels(void) {
  static const TF_DataType t[] = {KUTIL_POD_TYPES, TF_STRING};
  int n = KUTIL_COUNT(t);
  tfe_kutil_register("DepthToSpace", k_depth_to_space, "T", t, n, NULL, NULL,
                     0);
  {
    static const TF_DataType s2d[] = {KUTIL_POD_TYPES, TF_STRING, TF_QINT8};
    tfe_kutil_register("SpaceToDepth", k_space_to_depth, "T", s2d,
                       KUTIL_COUNT(s2d), NULL, NULL, 0);
  }
  tfe_kutil_register("ReverseSequence", k_reverse_sequence, "T", t, n, NULL,
                     NULL, 0);
}
