/* FusedBatchNorm, FusedBatchNormV2 and FusedBatchNormV3 CPU kernels
 * (training and inference; NHWC/NDHWC with
 * channels last, NCHW/NCDHW with channels second). x is half, bfloat16
 * or float; scale/offset/mean/variance and the statistics are float.
 * Statistics accumulate in double.
 *
 * Outputs, as TensorFlow's CPU kernel: y; batch_mean and batch_variance
 * (training: the batch statistics, variance unbiased by n/(n-1), blended
 * with the running mean/variance inputs when exponential_avg_factor != 1;
 * inference: the mean/variance inputs); reserve_space_1/2 (training: the
 * batch mean and biased variance; inference: zeros); reserve_space_3 (a
 * scalar 0, V3 only). V1 and V2 compute exactly what V3 does (TF's kernels
 * share their code). */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_common.h"

void tfe_register_nn_norm_kernels(void);

static int64_t nelem(const TF_Tensor* t) { return kutil_num_elements(t); }

static void fbn_compute(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  const TF_Tensor* scale = k->inputs[1];
  const TF_Tensor* offset = k->inputs[2];
  const TF_Tensor* mean_in = k->inputs[3];
  const TF_Tensor* var_in = k->inputs[4];
  float eps = 0.0001f, factor = 1.0f;
  int training = kutil_attr_bool(k, "is_training", 1);
  const char* fmt = "NHWC";
  size_t flen;
  kutil_shape_buf sb;
  int64_t C, outer, inner, n, i, c, o;
  int ch_last, owned = 0, wdbl = 0;
  const float *sc, *of, *mi, *vi;
  float* xw = NULL;
  double *sum = NULL, *sq = NULL;
  TF_Tensor *y, *bm, *bv, *r1, *r2, *r3;
  int64_t cdim;
  (void)wdbl;
  if (k->attrs != NULL) {
    tfe_attrs_get_float(k->attrs, "epsilon", &eps, NULL);
    tfe_attrs_get_float(k->attrs, "exponential_avg_factor", &factor, NULL);
    tfe_attrs_get_string(k->attrs, "data_format", &fmt, &flen, NULL);
  }
  if (x->num_dims != 4 && x->num_dims != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4 or 5-dimensional%s",
               kutil_tshape(x, &sb));
    return;
  }
  ch_last = strcmp(fmt, "NHWC") == 0 || strcmp(fmt, "NDHWC") == 0;
  C = ch_last ? x->dims[x->num_dims - 1] : x->dims[1];
  if (scale->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "scale must be 1-dimensional%s",
               kutil_tshape(scale, &sb));
    return;
  }
  if (offset->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "offset must be 1-dimensional%s",
               kutil_tshape(offset, &sb));
    return;
  }
  if (nelem(scale) != C) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "scale must have the same number of elements as the channels "
               "of x, got %lld and %lld",
               (long long)nelem(scale), (long long)C);
    return;
  }
  if (nelem(offset) != C) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "offset must have the same number of elements as the channels "
               "of x, got %lld and %lld",
               (long long)nelem(offset), (long long)C);
    return;
  }
  if (!training || factor != 1.0f) {
    const char* when = training ? "When exponential_avg_factor != 1"
                                : "When is_training=false";
    if (nelem(mean_in) != C) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s, mean must have the same number of elements as the "
                 "channels of x, got %lld and %lld",
                 when, (long long)nelem(mean_in), (long long)C);
      return;
    }
    if (nelem(var_in) != C) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s, variance must have the same number of elements as the "
                 "channels of x, got %lld and %lld",
                 when, (long long)nelem(var_in), (long long)C);
      return;
    }
  }
  /* x viewed as [outer, C, inner] (inner = 1 for channels last). */
  if (ch_last) {
    outer = C > 0 ? nelem(x) / C : 0;
    inner = 1;
  } else {
    outer = x->dims[0];
    inner = 1;
    for (i = 2; i < x->num_dims; i++) inner *= x->dims[i];
  }
  n = outer * inner;
  cdim = C;
  y = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  bm = y ? tfe_kernel_alloc_output(k, 1, TF_FLOAT, &cdim, 1) : NULL;
  bv = bm ? tfe_kernel_alloc_output(k, 2, TF_FLOAT, &cdim, 1) : NULL;
  r1 = bv ? tfe_kernel_alloc_output(k, 3, TF_FLOAT, &cdim, 1) : NULL;
  r2 = r1 ? tfe_kernel_alloc_output(k, 4, TF_FLOAT, &cdim, 1) : NULL;
  if (r2 == NULL) return;
  if (k->num_outputs > 5) {
    /* V3 only: reserve_space_3 */
    /* an empty vector, as TF's CPU kernels give */
    int64_t zero = 0;
    r3 = tfe_kernel_alloc_output(k, 5, TF_FLOAT, &zero, 1);
    if (r3 == NULL) return;
  }
  sc = (const float*)kutil_data(scale);
  of = (const float*)kutil_data(offset);
  mi = (const float*)kutil_data(mean_in);
  vi = (const float*)kutil_data(var_in);
  xw = (float*)nn_to_work(x, 0, &owned);
  sum = (double*)tfe_calloc((size_t)(C > 0 ? C : 1), sizeof(double));
  sq = (double*)tfe_calloc((size_t)(C > 0 ? C : 1), sizeof(double));
  if ((xw == NULL && nelem(x) > 0) || sum == NULL || sq == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in FusedBatchNormV3");
    goto done;
  }
  {
    float* bmd = (float*)kutil_data(bm);
    float* bvd = (float*)kutil_data(bv);
    float* r1d = (float*)kutil_data(r1);
    float* r2d = (float*)kutil_data(r2);
    float* yw = (float*)tfe_malloc((size_t)(nelem(x) > 0 ? nelem(x) : 1) *
                                   sizeof(float));
    if (yw == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                 "out of memory in FusedBatchNormV3");
      goto done;
    }
    if (training) {
      /* two passes: mean, then centred squares (stable) */
      for (o = 0; o < outer; o++) {
        for (c = 0; c < C; c++) {
          const float* p = xw + (o * C + c) * inner;
          for (i = 0; i < inner; i++) sum[c] += p[i];
        }
      }
      for (c = 0; c < C; c++) sum[c] = n > 0 ? sum[c] / (double)n : 0.0;
      for (o = 0; o < outer; o++) {
        for (c = 0; c < C; c++) {
          const float* p = xw + (o * C + c) * inner;
          for (i = 0; i < inner; i++) {
            double d = p[i] - sum[c];
            sq[c] += d * d;
          }
        }
      }
      for (c = 0; c < C; c++) {
        double var = n > 0 ? sq[c] / (double)n : 0.0;
        double unbiased = n > 1 ? var * (double)n / (double)(n - 1) : var;
        sq[c] = var;
        r1d[c] = (float)sum[c];
        r2d[c] = (float)var;
        if (factor == 1.0f) {
          bmd[c] = (float)sum[c];
          bvd[c] = (float)unbiased;
        } else {
          bmd[c] = (float)((1.0 - factor) * mi[c] + factor * sum[c]);
          bvd[c] = (float)((1.0 - factor) * vi[c] + factor * unbiased);
        }
      }
    } else {
      for (c = 0; c < C; c++) {
        sum[c] = mi[c];
        sq[c] = vi[c];
        bmd[c] = mi[c];
        bvd[c] = vi[c];
        /* TF passes the population statistics through */
        r1d[c] = mi[c];
        r2d[c] = vi[c];
      }
    }
    for (c = 0; c < C; c++) {
      /* per-channel multiplier and shift */
      float inv = 1.0f / sqrtf((float)sq[c] + eps);
      sq[c] = (double)(inv * sc[c]);
      sum[c] = (double)of[c] - sum[c] * sq[c];
    }
    for (o = 0; o < outer; o++) {
      for (c = 0; c < C; c++) {
        const float* p = xw + (o * C + c) * inner;
        float* q = yw + (o * C + c) * inner;
        float m = (float)sq[c], s = (float)sum[c];
        for (i = 0; i < inner; i++) q[i] = p[i] * m + s;
      }
    }
    nn_from_work(y, yw, 0, nelem(x));
    tfe_free(yw);
  }
done:
  if (owned) tfe_free(xw);
  tfe_free(sum);
  tfe_free(sq);
}

void tfe_register_nn_norm_kernels(void) {
  static const TF_DataType kT[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT};
  static const TF_DataType kU[] = {TF_FLOAT};
  static const TF_DataType kV1[] = {TF_FLOAT};
  /* TF's CPU kernels: V2 and V3 for (half|bfloat16|float, float), the
   * original op for float only (its T is also the statistics' type). */
  tfe_kutil_register("FusedBatchNormV3", fbn_compute, "T", kT, 3, "U", kU, 1);
  tfe_kutil_register("FusedBatchNormV2", fbn_compute, "T", kT, 3, "U", kU, 1);
  tfe_kutil_register("FusedBatchNorm", fbn_compute, "T", kV1, 1, NULL, NULL,
                     0);
}
