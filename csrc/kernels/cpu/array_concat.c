/* Joining and splitting along one axis: ConcatV2, Pack, Unpack, Split,
 * SplitV. Every one of them views tensors as [outer, axis, inner] and moves
 * contiguous runs of axis*inner elements. */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"

static int64_t prod(const int64_t* d, int from, int to) {
  return kutil_dims_prod(d, from, to);
}

/* Copies the block [o, off:off+len, :] of src ([outer, src_len, inner]) into
 * dst ([outer, len, inner]) for every o. */
static void take_axis_block(TF_DataType dt, size_t esz, const char* src,
                            int64_t outer, int64_t src_len, int64_t inner,
                            int64_t off, int64_t len, char* dst) {
  int64_t o, run = len * inner;
  for (o = 0; o < outer; o++) {
    kutil_copy(dt, dst + (size_t)(o * run) * esz,
               src + (size_t)((o * src_len + off) * inner) * esz, run);
  }
}

/* ------------------------------------------------------------- ConcatV2 */

static void k_concat_v2(tfe_kernel_context* k) {
  int n = k->num_inputs - 1, i, j, nd;
  const TF_Tensor* axis_t = k->inputs[n];
  const TF_Tensor* first = k->inputs[0];
  kutil_shape_buf sa, sb;
  int64_t axis_v, axis, odims[TFE_MAX_DIMS], outer, out_run, o, pos;
  size_t esz;
  TF_Tensor* y;
  char* dst;

  if (axis_t->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "axis tensor should be a scalar integer, but got shape %s",
               kutil_tshape(axis_t, &sa));
    return;
  }
  axis_v = kutil_get_int(axis_t, 0);
  nd = first->num_dims;
  axis = axis_v < 0 ? axis_v + nd : axis_v;
  if (!(0 <= axis && axis < nd)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "ConcatOp : Expected concatenating dimensions in the range "
               "[%d, %d), but got %lld",
               -nd, nd, (long long)axis_v);
    return;
  }
  memcpy(odims, first->dims, sizeof(int64_t) * (size_t)nd);
  odims[axis] = 0;
  for (i = 0; i < n; i++) {
    const TF_Tensor* in = k->inputs[i];
    if (in->num_dims != nd) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "ConcatOp : Ranks of all input tensors should match: "
                 "shape[0] = %s vs. shape[%d] = %s",
                 kutil_tshape(first, &sa), i, kutil_tshape(in, &sb));
      return;
    }
    for (j = 0; j < nd; j++) {
      if (j == axis) continue;
      if (in->dims[j] != first->dims[j]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "ConcatOp : Dimension %d in both shapes must be equal: "
                   "shape[0] = %s vs. shape[%d] = %s",
                   j, kutil_tshape(first, &sa), i, kutil_tshape(in, &sb));
        return;
      }
    }
    if (!tfe_checked_add_i64(odims[axis], in->dims[axis], &odims[axis])) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "ConcatOp : output dimension %d overflows an int64", (int)axis);
      return;
    }
  }
  if (n == 1) {
    tfe_kutil_forward(k, 0, 0, odims, nd);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, first->dtype, odims, nd);
  if (y == NULL) return;
  if (kutil_num_elements(y) == 0) return;
  esz = kutil_esize(first->dtype);
  outer = prod(odims, 0, (int)axis);
  out_run = prod(odims, (int)axis, nd);
  dst = (char*)kutil_data(y);
  for (o = 0; o < outer; o++) {
    pos = o * out_run;
    for (i = 0; i < n; i++) {
      const TF_Tensor* in = k->inputs[i];
      int64_t run = prod(in->dims, (int)axis, nd);
      if (run > 0) {
        kutil_copy(first->dtype, dst + (size_t)pos * esz,
                   (const char*)kutil_data(in) + (size_t)(o * run) * esz, run);
      }
      pos += run;
    }
  }
}

/* ----------------------------------------------------------------- Pack */

static void k_pack(tfe_kernel_context* k) {
  int n = k->num_inputs, i, nd;
  const TF_Tensor* first = k->inputs[0];
  kutil_shape_buf sa, sb;
  int32_t axis_attr;
  int64_t axis, odims[TFE_MAX_DIMS], outer, inner, o;
  size_t esz;
  TF_Tensor* y;
  char* dst;

  if (!kutil_attr_int32(k, "axis", 0, &axis_attr)) return;
  nd = first->num_dims + 1;
  axis = axis_attr < 0 ? (int64_t)axis_attr + nd : axis_attr;
  if (!(0 <= axis && axis < nd)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "axis = %lld not in [%d, %d)",
               (long long)axis_attr, -nd, nd);
    return;
  }
  if (nd > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Pack: too many dimensions");
    return;
  }
  for (i = 0; i < nd; i++) {
    odims[i] = i < axis ? first->dims[i] : i == axis ? n : first->dims[i - 1];
  }
  if (n == 1) {
    tfe_kutil_forward(k, 0, 0, odims, nd);
    return;
  }
  for (i = 1; i < n; i++) {
    const TF_Tensor* in = k->inputs[i];
    int same = in->num_dims == first->num_dims, j;
    for (j = 0; same && j < in->num_dims; j++) {
      same = in->dims[j] == first->dims[j];
    }
    if (!same) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shapes of all inputs must match: values[0].shape = %s != "
                 "values[%d].shape = %s",
                 kutil_tshape(first, &sa), i, kutil_tshape(in, &sb));
      return;
    }
  }
  y = tfe_kernel_alloc_output(k, 0, first->dtype, odims, nd);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  esz = kutil_esize(first->dtype);
  outer = prod(first->dims, 0, (int)axis);
  inner = prod(first->dims, (int)axis, first->num_dims);
  dst = (char*)kutil_data(y);
  for (o = 0; o < outer; o++) {
    for (i = 0; i < n; i++) {
      kutil_copy(first->dtype, dst + (size_t)((o * n + i) * inner) * esz,
                 (const char*)kutil_data(k->inputs[i]) +
                     (size_t)(o * inner) * esz,
                 inner);
    }
  }
}

/* --------------------------------------------------------------- Unpack */

static void k_unpack(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int num = k->num_outputs, nd = x->num_dims, i, j;
  kutil_shape_buf sa;
  int32_t axis_attr;
  int64_t axis, odims[TFE_MAX_DIMS], outer, inner;
  size_t esz = kutil_esize(x->dtype);

  if (!kutil_attr_int32(k, "axis", 0, &axis_attr)) return;
  axis = axis_attr < 0 ? (int64_t)axis_attr + nd : axis_attr;
  if (!(0 <= axis && axis < nd)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "axis = %lld not in [%d, %d)",
               (long long)axis_attr, -nd, nd);
    return;
  }
  if (x->dims[axis] != num) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input shape axis %lld must equal %d, got shape %s",
               (long long)axis, num, kutil_tshape(x, &sa));
    return;
  }
  for (i = 0, j = 0; i < nd; i++) {
    if (i != axis) odims[j++] = x->dims[i];
  }
  outer = prod(x->dims, 0, (int)axis);
  inner = prod(x->dims, (int)axis + 1, nd);
  for (i = 0; i < num; i++) {
    TF_Tensor* y = tfe_kernel_alloc_output(k, i, x->dtype, odims, nd - 1);
    if (y == NULL) return;
    if (outer * inner == 0) continue;
    take_axis_block(x->dtype, esz, (const char*)kutil_data(x), outer, num,
                    inner, i, 1, (char*)kutil_data(y));
  }
}

/* ---------------------------------------------------------- Split(V) */

static int split_dim_ok(tfe_kernel_context* k, int64_t orig, int nd,
                        int64_t* out) {
  int64_t d = orig < 0 ? orig + nd : orig;
  if (!(0 <= d && d < nd)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "-input rank(-%d) <= split_dim < input rank (%d), but got "
               "%lld",
               nd, nd, (long long)orig);
    return 0;
  }
  *out = d;
  return 1;
}

/* Emits outputs of sizes[i] along `axis`. */
static void split_emit(tfe_kernel_context* k, const TF_Tensor* x,
                       int64_t axis, const int64_t* sizes, int num) {
  int nd = x->num_dims, i;
  int64_t odims[TFE_MAX_DIMS], outer, inner, off = 0;
  size_t esz = kutil_esize(x->dtype);
  outer = prod(x->dims, 0, (int)axis);
  inner = prod(x->dims, (int)axis + 1, nd);
  memcpy(odims, x->dims, sizeof(int64_t) * (size_t)nd);
  for (i = 0; i < num; i++) {
    TF_Tensor* y;
    odims[axis] = sizes[i];
    y = tfe_kernel_alloc_output(k, i, x->dtype, odims, nd);
    if (y == NULL) return;
    if (outer * inner * sizes[i] > 0) {
      take_axis_block(x->dtype, esz, (const char*)kutil_data(x), outer,
                      x->dims[axis], inner, off, sizes[i],
                      (char*)kutil_data(y));
    }
    off += sizes[i];
  }
}

static void k_split(tfe_kernel_context* k) {
  const TF_Tensor* dim_t = k->inputs[0];
  const TF_Tensor* x = k->inputs[1];
  int num = k->num_outputs, i;
  int64_t axis, sizes_inline[64], *sizes;
  if (kutil_num_elements(dim_t) < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "split_dim must be a scalar");
    return;
  }
  if (!split_dim_ok(k, kutil_get_int(dim_t, 0), x->num_dims, &axis)) return;
  if (num <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of ways to split should be > 0, but got %d", num);
    return;
  }
  if (x->dims[axis] % num != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of ways to split should evenly divide the split "
               "dimension, but got split_dim %lld (size = %lld) and "
               "num_split %d",
               (long long)axis, (long long)x->dims[axis], num);
    return;
  }
  sizes = num <= 64 ? sizes_inline
                    : (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)num);
  if (sizes == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in Split");
    return;
  }
  for (i = 0; i < num; i++) sizes[i] = x->dims[axis] / num;
  split_emit(k, x, axis, sizes, num);
  if (sizes != sizes_inline) tfe_free(sizes);
}

static void k_split_v(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* st = k->inputs[1];
  const TF_Tensor* dim_t = k->inputs[2];
  int num = k->num_outputs, i, neg = -1;
  int64_t axis, determined = 0, sizes_inline[64], *sizes;
  if (!(st->num_dims == 1 && st->dims[0] == num)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "size of the split_tensor must be 1-D and have the same "
               "elements as outputs got %d -D and %lld elements",
               st->num_dims, (long long)kutil_num_elements(st));
    return;
  }
  if (kutil_num_elements(dim_t) < 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "split_dim must be a scalar");
    return;
  }
  if (!split_dim_ok(k, kutil_get_int(dim_t, 0), x->num_dims, &axis)) return;
  if (num <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of ways to split should be > 0, but got %d", num);
    return;
  }
  sizes = num <= 64 ? sizes_inline
                    : (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)num);
  if (sizes == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in SplitV");
    return;
  }
  for (i = 0; i < num; i++) {
    sizes[i] = kutil_get_int(st, i);
    if (sizes[i] == -1) {
      if (neg != -1) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "There can only be one -1 in the input.");
        goto done;
      }
      neg = i;
    } else if (sizes[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Split size at index %d must be >= 0. Got: %lld", i,
                 (long long)sizes[i]);
      goto done;
    } else {
      determined += sizes[i];
    }
  }
  if (!((neg == -1 && determined == x->dims[axis]) ||
        (neg >= 0 && determined <= x->dims[axis]))) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Determined shape must either match input shape along "
               "split_dim exactly if fully specified, or be less than the "
               "size of the input along split_dim if not fully specified.  "
               "Got: %lld",
               (long long)determined);
    goto done;
  }
  if (neg >= 0) sizes[neg] = x->dims[axis] - determined;
  split_emit(k, x, axis, sizes, num);
done:
  if (sizes != sizes_inline) tfe_free(sizes);
}

void tfe_register_array_concat_kernels(void) {
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType all[] = {KUTIL_POD_TYPES, TF_STRING,
                                    KUTIL_QUANTIZED_TYPES, TF_FLOAT8_E4M3FN,
                                    TF_FLOAT8_E5M2};
  /* Split and SplitV also move int4/uint4 (stored one element per byte). */
  static const TF_DataType splits[] = {KUTIL_POD_TYPES, TF_STRING,
                                       KUTIL_QUANTIZED_TYPES, TF_FLOAT8_E4M3FN,
                                       TF_FLOAT8_E5M2, TF_INT4, TF_UINT4};
  static const TF_DataType lens[] = {TF_INT8, TF_INT32, TF_INT64};
  tfe_kutil_register("ConcatV2", k_concat_v2, "T", all, KUTIL_COUNT(all),
                     "Tidx", idx, 2);
  tfe_kutil_register("Pack", k_pack, "T", all, KUTIL_COUNT(all), NULL, NULL,
                     0);
  tfe_kutil_register("Unpack", k_unpack, "T", all, KUTIL_COUNT(all), NULL,
                     NULL, 0);
  tfe_kutil_register("Split", k_split, "T", splits, KUTIL_COUNT(splits), NULL,
                     NULL, 0);
  tfe_kutil_register("SplitV", k_split_v, "T", splits, KUTIL_COUNT(splits),
                     "Tlen",
                     lens, KUTIL_COUNT(lens));
}
