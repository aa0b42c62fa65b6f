/* Helpers shared by the neural-network kernels (see nn_common.h). */
#include "kernels/cpu/nn_common.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/blas.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/matmul_gemm.h"

static int read_ints(const tfe_kernel_context* k, const char* name,
                     const int64_t** v, int* n) {
  *v = NULL;
  *n = 0;
  if (k->attrs == NULL) return 0;
  return tfe_attrs_get_int_list(k->attrs, name, v, n, NULL);
}

static const char* read_str(const tfe_kernel_context* k, const char* name,
                            const char* dflt) {
  const char* s = NULL;
  size_t len = 0;
  if (k->attrs == NULL || !tfe_attrs_get_string(k->attrs, name, &s, &len,
                                                NULL)) {
    return dflt;
  }
  return s;
}

int nn_read_conv_window(tfe_kernel_context* k, const char* op, nn_window* w,
                        int check_dilations) {
  const int64_t *st, *dl, *ep;
  int nst, ndl, nep;
  const char* fmt = read_str(k, "data_format", "NHWC");
  const char* pad = read_str(k, "padding", "VALID");
  memset(w, 0, sizeof *w);
  /* strides and dilations are int32 lists in TF (explicit_paddings is
   * int64). */
  if (!kutil_attr_int32_list(k, "strides", &st, &nst)) return 0;
  if (nst != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window strides field must specify 4 dimensions");
    return 0;
  }
  if (strcmp(fmt, "NHWC") != 0) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "The %s op currently only supports the NHWC tensor format on "
               "the CPU. The op was given the format: %s",
               op, fmt);
    return 0;
  }
  if (st[0] != 1 || st[3] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Current implementation does not yet support strides in the "
               "batch and depth dimensions.");
    return 0;
  }
  if (st[1] <= 0 || st[2] <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Row and column strides should be larger than 0.");
    return 0;
  }
  w->stride_h = st[1];
  w->stride_w = st[2];
  w->dil_h = w->dil_w = 1;
  if (check_dilations && read_ints(k, "dilations", &dl, &ndl)) {
    if (!kutil_attr_int32_list(k, "dilations", &dl, &ndl)) return 0;
    if (ndl != 4) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Sliding window dilations field must specify 4 dimensions");
      return 0;
    }
    if (dl[0] != 1 || dl[3] != 1) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "Current implementation does not yet support dilations in "
                 "the batch and depth dimensions.");
      return 0;
    }
    if (dl[1] <= 0 || dl[2] <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Dilated rates should be larger than 0.");
      return 0;
    }
    w->dil_h = dl[1];
    w->dil_w = dl[2];
  }
  w->padding = strcmp(pad, "SAME") == 0    ? NN_PAD_SAME
               : strcmp(pad, "EXPLICIT") == 0 ? NN_PAD_EXPLICIT
                                              : NN_PAD_VALID;
  read_ints(k, "explicit_paddings", &ep, &nep);
  if (w->padding == NN_PAD_EXPLICIT) {
    int i;
    if (nep != 8) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "explicit_paddings attribute must contain 8 values, but "
                 "got: %d",
                 nep);
      return 0;
    }
    for (i = 0; i < 8; i++) {
      if (ep[i] < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "All elements of explicit_paddings must be nonnegative");
        return 0;
      }
    }
    if (ep[0] != 0 || ep[1] != 0 || ep[6] != 0 || ep[7] != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Nonzero explicit padding in the batch or depth dimensions "
                 "is not supported");
      return 0;
    }
    w->pad_top = ep[2];
    w->pad_bottom = ep[3];
    w->pad_left = ep[4];
    w->pad_right = ep[5];
  } else if (nep != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "explicit_paddings attribute must be empty if the padding "
               "attribute is not EXPLICIT");
    return 0;
  }
  return 1;
}

int nn_out_size(tfe_kernel_context* k, int64_t in, int64_t ksize,
                int64_t dilation, int64_t stride, nn_padding pad,
                int64_t explicit_before, int64_t explicit_after,
                int64_t* out, int64_t* pad_before) {
  /* Every operand may come from a user (dims, int32 attrs, int64
   * explicit paddings): all arithmetic is checked. */
  int64_t eff, t;
  int ok;
  if (stride <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Stride must be > 0, but got %lld",
               (long long)stride);
    return 0;
  }
  ok = tfe_checked_sub_i64(ksize, 1, &eff) &&
       tfe_checked_mul_i64(eff, dilation, &eff) &&
       tfe_checked_add_i64(eff, 1, &eff);
  if (ok) {
    switch (pad) {
      case NN_PAD_VALID:
        ok = tfe_checked_sub_i64(in, eff, &t) &&
             tfe_checked_add_i64(t, stride, &t);
        if (ok) *out = t / stride;
        *pad_before = 0;
        break;
      case NN_PAD_SAME: {
        int64_t total = 0;
        ok = tfe_checked_add_i64(in, stride - 1, &t);
        if (!ok) break;
        *out = t / stride;
        ok = tfe_checked_mul_i64(*out - 1, stride, &total) &&
             tfe_checked_add_i64(total, eff, &total) &&
             tfe_checked_sub_i64(total, in, &total);
        if (total < 0) total = 0;
        *pad_before = total / 2;
        break;
      }
      case NN_PAD_EXPLICIT:
        ok = tfe_checked_add_i64(in, explicit_before, &t) &&
             tfe_checked_add_i64(t, explicit_after, &t) &&
             tfe_checked_sub_i64(t, eff, &t) &&
             tfe_checked_add_i64(t, stride, &t);
        if (ok) *out = t / stride;
        *pad_before = explicit_before;
        break;
    }
  }
  if (!ok) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Computed output size overflows [input_size: %lld, "
               "filter_size: %lld, dilation: %lld, stride: %lld, padding: "
               "%lld + %lld]",
               (long long)in, (long long)ksize, (long long)dilation,
               (long long)stride, (long long)explicit_before,
               (long long)explicit_after);
    return 0;
  }
  if (*out < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Computed output size would be negative: %lld [input_size: "
               "%lld, effective_filter_size: %lld, stride: %lld]",
               (long long)*out, (long long)in, (long long)eff,
               (long long)stride);
    return 0;
  }
  return 1;
}

int nn_work_is_double(TF_DataType dt) {
  return dt == TF_DOUBLE || dt == TF_INT32 || dt == TF_INT64;
}

void* nn_to_work(const TF_Tensor* t, int is_double, int* owned) {
  int64_t n = kutil_num_elements(t), i;
  const void* d = kutil_data(t);
  void* w;
  *owned = 0;
  if ((!is_double && t->dtype == TF_FLOAT) ||
      (is_double && t->dtype == TF_DOUBLE)) {
    return (void*)d;
  }
  w = tfe_malloc((size_t)(n > 0 ? n : 1) * (is_double ? 8 : 4));
  if (w == NULL) return NULL;
  *owned = 1;
  for (i = 0; i < n; i++) {
    double v;
    switch (t->dtype) {
      case TF_FLOAT: v = ((const float*)d)[i]; break;
      case TF_DOUBLE: v = ((const double*)d)[i]; break;
      case TF_HALF: v = kutil_f16_to_f32(((const uint16_t*)d)[i]); break;
      case TF_BFLOAT16: v = kutil_bf16_to_f32(((const uint16_t*)d)[i]); break;
      default: v = (double)kutil_get_int(t, i); break;
    }
    if (is_double) {
      ((double*)w)[i] = v;
    } else {
      ((float*)w)[i] = (float)v;
    }
  }
  return w;
}

void nn_from_work(TF_Tensor* t, const void* work, int is_double, int64_t n) {
  void* d = kutil_data(t);
  int64_t i;
  if ((!is_double && t->dtype == TF_FLOAT) ||
      (is_double && t->dtype == TF_DOUBLE)) {
    if (d != work && n > 0) memcpy(d, work, (size_t)n * (is_double ? 8 : 4));
    return;
  }
  for (i = 0; i < n; i++) {
    double v = is_double ? ((const double*)work)[i]
                         : (double)((const float*)work)[i];
    switch (t->dtype) {
      case TF_FLOAT: ((float*)d)[i] = (float)v; break;
      case TF_DOUBLE: ((double*)d)[i] = v; break;
      case TF_HALF: ((uint16_t*)d)[i] = kutil_f32_to_f16((float)v); break;
      case TF_BFLOAT16: ((uint16_t*)d)[i] = kutil_f32_to_bf16((float)v); break;
      case TF_INT32: ((int32_t*)d)[i] = (int32_t)(int64_t)llround(v); break;
      case TF_INT64: ((int64_t*)d)[i] = (int64_t)llround(v); break;
      case TF_INT8: ((int8_t*)d)[i] = (int8_t)llround(v); break;
      case TF_INT16: ((int16_t*)d)[i] = (int16_t)llround(v); break;
      case TF_UINT8: ((uint8_t*)d)[i] = (uint8_t)llround(v); break;
      case TF_UINT16: ((uint16_t*)d)[i] = (uint16_t)llround(v); break;
      case TF_UINT32: ((uint32_t*)d)[i] = (uint32_t)llround(v); break;
      case TF_UINT64: ((uint64_t*)d)[i] = (uint64_t)llround(v); break;
      default: break;
    }
  }
}

int nn_have_blas(void) { return tfe_blas_available(); }

int nn_gemm(int is_double, int ta, int tb, int64_t M, int64_t N, int64_t K,
            const void* A, int64_t lda, const void* B, int64_t ldb, void* C,
            int64_t ldc) {
  if (M <= 0 || N <= 0) return 1;
  if (K <= 0) {
    int64_t i;
    for (i = 0; i < M; i++) {
      memset((char*)C + (size_t)(i * ldc) * (is_double ? 8 : 4), 0,
             (size_t)N * (is_double ? 8 : 4));
    }
    return 1;
  }
  if (is_double) {
    if (tfe_blas_dgemm(ta, tb, M, N, K, (const double*)A, lda,
                       (const double*)B, ldb, (double*)C, ldc)) {
      return 1;
    }
    return tfe_gemm_f64(ta, tb, M, N, K, (const double*)A, lda,
                        (const double*)B, ldb, (double*)C, ldc);
  }
  if (tfe_blas_sgemm(ta, tb, M, N, K, (const float*)A, lda, (const float*)B,
                     ldb, (float*)C, ldc)) {
    return 1;
  }
  return tfe_gemm_f32(ta, tb, M, N, K, (const float*)A, lda, (const float*)B,
                      ldb, (float*)C, ldc);
}
