/* Slice, StridedSlice, ReverseV2 and Reverse, all built on one strided copy:
 * output element (i0, ..., ik) = input (b0 + i0*s0, ..., bk + ik*sk).
 *
 * StridedSlice follows TF's two-step canonicalisation: the "sparse" spec
 * (one entry per element of begin/end/strides, with ellipsis and new-axis
 * entries) is expanded into a "dense" spec with one entry per input dim;
 * each dim's begin/end are then resolved against the masks, negative
 * indices and clamping, giving a processing shape; the final shape inserts
 * new axes and drops shrunk ones. */
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/kutil.h"

void tfe_kutil_strided_copy(TF_DataType dt, size_t esz, const void* src,
                            const int64_t* in_dims, int nd,
                            const int64_t* begin, const int64_t* stride,
                            const int64_t* out_dims, void* dst) {
  int64_t in_stride[TFE_MAX_DIMS], step[TFE_MAX_DIMS], idx[TFE_MAX_DIMS];
  int64_t total = 1, outer = 1, inner, off = 0, o, t, inner_step;
  const char* s = (const char*)src;
  char* d = (char*)dst;
  int i;
  if (nd <= 0 || nd > TFE_MAX_DIMS) {
    if (nd == 0) kutil_copy(dt, dst, src, 1);
    return;
  }
  for (i = 0; i < nd; i++) total *= out_dims[i];
  if (total == 0) return;
  in_stride[nd - 1] = 1;
  for (i = nd - 2; i >= 0; i--) in_stride[i] = in_stride[i + 1] * in_dims[i + 1];
  for (i = 0; i < nd; i++) {
    step[i] = stride[i] * in_stride[i];
    off += begin[i] * in_stride[i];
    idx[i] = 0;
  }
  inner = out_dims[nd - 1];
  inner_step = step[nd - 1];
  for (i = 0; i < nd - 1; i++) outer *= out_dims[i];
  for (o = 0; o < outer; o++) {
    char* row = d + (size_t)(o * inner) * esz;
    if (inner_step == 1) {
      kutil_copy(dt, row, s + (size_t)off * esz, inner);
    } else if (dt != TF_STRING && esz == 4) {
      const uint32_t* sp = (const uint32_t*)s + off;
      uint32_t* dp = (uint32_t*)row;
      for (t = 0; t < inner; t++) dp[t] = sp[t * inner_step];
    } else if (dt != TF_STRING && esz == 8) {
      const uint64_t* sp = (const uint64_t*)s + off;
      uint64_t* dp = (uint64_t*)row;
      for (t = 0; t < inner; t++) dp[t] = sp[t * inner_step];
    } else {
      for (t = 0; t < inner; t++) {
        kutil_copy1(dt, esz, row + (size_t)t * esz,
                    s + (size_t)(off + t * inner_step) * esz);
      }
    }
    for (i = nd - 2; i >= 0; i--) {
      idx[i]++;
      off += step[i];
      if (idx[i] < out_dims[i]) break;
      off -= step[i] * out_dims[i];
      idx[i] = 0;
    }
  }
}

/* ---------------------------------------------------------------- Slice */

static void k_slice(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* bt = k->inputs[1];
  const TF_Tensor* st = k->inputs[2];
  kutil_shape_buf sa, sb;
  int nd = x->num_dims, i, identity = 1;
  int64_t begin[TFE_MAX_DIMS], size[TFE_MAX_DIMS], ones[TFE_MAX_DIMS];
  TF_Tensor* y;
  if (bt->num_dims != 1 || st->num_dims != 1 || bt->dims[0] != nd ||
      st->dims[0] != nd) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected begin and size arguments to be 1-D tensors of size "
               "%d, but got shapes %s and %s instead.",
               nd, kutil_tshape(bt, &sa), kutil_tshape(st, &sb));
    return;
  }
  for (i = 0; i < nd; i++) {
    int64_t b = kutil_get_int(bt, i), s = kutil_get_int(st, i);
    if (s == -1) s = x->dims[i] - b;
    if (!(0 <= b && b <= x->dims[i])) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected begin[%d] in [0, %lld], but got %lld", i,
                 (long long)x->dims[i], (long long)b);
      return;
    }
    if (!(0 <= s && b + s <= x->dims[i])) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected size[%d] in [0, %lld], but got %lld", i,
                 (long long)(x->dims[i] - b), (long long)s);
      return;
    }
    begin[i] = b;
    size[i] = s;
    ones[i] = 1;
    if (b != 0 || s != x->dims[i]) identity = 0;
  }
  if (identity) {
    tfe_kutil_forward(k, 0, 0, x->dims, nd);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, size, nd);
  if (y == NULL) return;
  tfe_kutil_strided_copy(x->dtype, kutil_esize(x->dtype), kutil_data(x),
                         x->dims, nd, begin, ones, size, kutil_data(y));
}

/* --------------------------------------------------------- StridedSlice */

#define NEW_AXIS (-1)
#define SHRINK_AXIS (-2)

int tfe_strided_slice_spec(tfe_kernel_context* k, const int64_t* in_dims,
                           int nd, const TF_Tensor* bt, const TF_Tensor* et,
                           const TF_Tensor* st, int64_t* d_begin,
                           int64_t* d_stride, int64_t* proc,
                           int64_t* final_dims, int* nfinal_out) {
  kutil_shape_buf sa, sb, sc;
  int32_t m32[5];
  int64_t begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_mask;
  int sparse_dims, i, full = 0, nafter = 0, seen = 0;
  int ngather = 0, nfinal = 0;
  int64_t d_end[TFE_MAX_DIMS];
  int64_t d_bmask = 0, d_emask = 0, d_shrink = 0;
  int gather[2 * TFE_MAX_DIMS + 2];

  if (!kutil_attr_int32(k, "begin_mask", 0, &m32[0]) ||
      !kutil_attr_int32(k, "end_mask", 0, &m32[1]) ||
      !kutil_attr_int32(k, "ellipsis_mask", 0, &m32[2]) ||
      !kutil_attr_int32(k, "new_axis_mask", 0, &m32[3]) ||
      !kutil_attr_int32(k, "shrink_axis_mask", 0, &m32[4])) {
    return 0;
  }
  begin_mask = m32[0];
  end_mask = m32[1];
  ellipsis_mask = m32[2];
  new_axis_mask = m32[3];
  shrink_mask = m32[4];
  if (!(bt->num_dims == 1 && et->num_dims == 1 && st->num_dims == 1 &&
        bt->dims[0] == et->dims[0] && bt->dims[0] == st->dims[0])) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected begin, end, and strides to be 1D equal size tensors, "
               "but got shapes %s, %s, and %s instead.",
               kutil_tshape(bt, &sa), kutil_tshape(et, &sb),
               kutil_tshape(st, &sc));
    return 0;
  }
  if (bt->dims[0] > 32) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Requires begin, end and strides of at most 32 elements");
    return 0;
  }
  if (ellipsis_mask && (ellipsis_mask & (ellipsis_mask - 1)) != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Multiple ellipses in slice spec not allowed");
    return 0;
  }
  sparse_dims = (int)bt->dims[0];
  for (i = 0; i < sparse_dims; i++) {
    if (seen && (new_axis_mask & (1LL << i))) nafter++;
    if (ellipsis_mask & (1LL << i)) seen = 1;
  }
  if (!seen) {
    ellipsis_mask |= 1LL << sparse_dims;
    sparse_dims++;
  }
  /* sparse -> dense */
  for (i = 0; i < sparse_dims; i++) {
    if (ellipsis_mask & (1LL << i)) {
      int next = nd - (sparse_dims - i) + 1 + nafter;
      if (next > nd) next = nd;
      for (; full < next; full++) {
        d_begin[full] = d_end[full] = 0;
        d_stride[full] = 1;
        d_bmask |= 1LL << full;
        d_emask |= 1LL << full;
        gather[ngather++] = full;
      }
    } else if (new_axis_mask & (1LL << i)) {
      gather[ngather++] = NEW_AXIS;
    } else {
      if (full == nd) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Index out of range using input dim %d; input has only %d "
                   "dims",
                   full, nd);
        return 0;
      }
      d_begin[full] = kutil_get_int(bt, i);
      d_end[full] = kutil_get_int(et, i);
      d_stride[full] = kutil_get_int(st, i);
      if (begin_mask & (1LL << i)) d_bmask |= 1LL << full;
      if (end_mask & (1LL << i)) d_emask |= 1LL << full;
      if (shrink_mask & (1LL << i)) {
        gather[ngather++] = SHRINK_AXIS;
        d_shrink |= 1LL << full;
      } else {
        gather[ngather++] = full;
      }
      full++;
    }
  }
  /* resolve every dense dim */
  for (i = 0; i < nd; i++) {
    int64_t dim = in_dims[i], s = d_stride[i], len, size;
    int shrink = (d_shrink >> i) & 1;
    if (s == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "strides[%d] must be non-zero", i);
      return 0;
    }
    if (shrink && s <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "only stride 1 allowed on non-range indexing.");
      return 0;
    }
    if (shrink) {
      int64_t fwd = d_begin[i] < 0 ? dim + d_begin[i] : d_begin[i];
      d_begin[i] = fwd;
      d_end[i] = fwd + 1;
      if (fwd < 0 || fwd >= dim) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "slice index %lld of dimension %d out of bounds.",
                   (long long)fwd, i);
        return 0;
      }
    } else {
      int64_t lo = s > 0 ? 0 : -1, hi = s > 0 ? dim : dim - 1;
      int c;
      for (c = 0; c < 2; c++) {
        int masked = c == 0 ? (int)((d_bmask >> i) & 1) : (int)((d_emask >> i) & 1);
        int64_t* v = c == 0 ? &d_begin[i] : &d_end[i];
        if (masked) {
          /* begin masked: start of the range in stride direction; end
           * masked: its end */
          if (s > 0) {
            *v = c == 0 ? lo : hi;
          } else {
            *v = c == 0 ? hi : lo;
          }
        } else {
          int64_t f = *v < 0 ? dim + *v : *v;
          *v = f < lo ? lo : f > hi ? hi : f;
        }
      }
    }
    len = d_end[i] - d_begin[i];
    if (len == 0 || ((len < 0) != (s < 0))) {
      size = 0;
    } else {
      size = len / s + (len % s != 0 ? 1 : 0);
    }
    proc[i] = size;
  }
  for (i = 0; i < ngather; i++) {
    if (gather[i] >= 0) {
      final_dims[nfinal++] = proc[gather[i]];
    } else if (gather[i] == NEW_AXIS) {
      final_dims[nfinal++] = 1;
    }
    if (nfinal > TFE_MAX_DIMS) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "StridedSlice: too many dimensions");
      return 0;
    }
  }
  *nfinal_out = nfinal;
  return 1;
}

static void k_strided_slice(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int64_t d_begin[TFE_MAX_DIMS], d_stride[TFE_MAX_DIMS];
  int64_t proc[TFE_MAX_DIMS], final_dims[TFE_MAX_DIMS];
  int nfinal = 0;
  TF_Tensor* y;
  if (!tfe_strided_slice_spec(k, x->dims, x->num_dims, k->inputs[1],
                              k->inputs[2], k->inputs[3], d_begin, d_stride,
                              proc, final_dims, &nfinal))
    return;
  y = tfe_kernel_alloc_output(k, 0, x->dtype, final_dims, nfinal);
  if (y == NULL) return;
  tfe_kutil_strided_copy(x->dtype, kutil_esize(x->dtype), kutil_data(x),
                         x->dims, x->num_dims, d_begin, d_stride, proc,
                         kutil_data(y));
}

/* ------------------------------------------------------ ReverseV2/Reverse */

static void reverse_axes(tfe_kernel_context* k, const unsigned char* rev) {
  const TF_Tensor* x = k->inputs[0];
  int nd = x->num_dims, i, any = 0;
  int64_t begin[TFE_MAX_DIMS], stride[TFE_MAX_DIMS];
  TF_Tensor* y;
  for (i = 0; i < nd; i++) {
    int r = rev[i] && x->dims[i] > 1;
    begin[i] = r ? x->dims[i] - 1 : 0;
    stride[i] = r ? -1 : 1;
    any |= r;
  }
  if (!any) {
    tfe_kutil_forward(k, 0, 0, x->dims, nd);
    return;
  }
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, nd);
  if (y == NULL) return;
  tfe_kutil_strided_copy(x->dtype, kutil_esize(x->dtype), kutil_data(x),
                         x->dims, nd, begin, stride, x->dims, kutil_data(y));
}

static void k_reverse_v2(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* at = k->inputs[1];
  kutil_shape_buf sa;
  unsigned char rev[TFE_MAX_DIMS];
  int nd = x->num_dims;
  int64_t i, n;
  if (at->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "'dims' must be 1-dimension, not %d", at->num_dims);
    return;
  }
  (void)sa;
  memset(rev, 0, sizeof rev);
  n = at->dims[0];
  for (i = 0; i < n; i++) {
    int64_t a = kutil_get_int(at, i);
    int64_t c = a < 0 ? a + nd : a;
    if (a < -nd || a >= nd) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "'axis'[%lld] = %lld is out of valid range [0, %d].",
                 (long long)i, (long long)a, nd - 1);
      return;
    }
    if (rev[c]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "axis %lld specified more than once.",
                 (long long)c);
      return;
    }
    rev[c] = 1;
  }
  reverse_axes(k, rev);
}

static void k_reverse(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* dt = k->inputs[1];
  unsigned char rev[TFE_MAX_DIMS];
  int i;
  if (dt->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "'dims' must be 1-dimension, not %d", dt->num_dims);
    return;
  }
  if (dt->dims[0] != x->num_dims) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "'dims' must have the same number of values as 'input' has "
               "dimensions. 'input' has %d'dims' has %lld values",
               x->num_dims, (long long)dt->dims[0]);
    return;
  }
  for (i = 0; i < x->num_dims; i++) {
    rev[i] = ((const unsigned char*)kutil_data(dt))[i] != 0;
  }
  reverse_axes(k, rev);
}

void tfe_register_array_slice_kernels(void) {
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType all[] = {KUTIL_POD_TYPES, TF_STRING,
                                    KUTIL_QUANTIZED_TYPES, TF_FLOAT8_E4M3FN,
                                    TF_FLOAT8_E5M2};
  static const TF_DataType rev[] = {KUTIL_POD_TYPES, TF_STRING};
  /* TF's CPU Slice/StridedSlice kernels accept every Index type the op
   * definitions allow */
  tfe_kutil_register("Slice", k_slice, "T", all, KUTIL_COUNT(all), NULL, NULL,
                     0);
  tfe_kutil_register("StridedSlice", k_strided_slice, "T", all,
                     KUTIL_COUNT(all), NULL, NULL, 0);
  tfe_kutil_register("ReverseV2", k_reverse_v2, "T", rev, KUTIL_COUNT(rev),
                     "Tidx", idx, 2);
  tfe_kutil_register("Reverse", k_reverse, "T", rev, KUTIL_COUNT(rev), NULL,
                     NULL, 0);
}
