/* CPU kernels: backprop ops of convolution, pooling and batch normalization
 * (issue 17/18).
 *
 * FusedBatchNormGrad/V2/V3: per-channel sums in double (NHWC, NCHW, and
 * NDHWC/NCDHW for V3), TF's formulas for training (saved batch mean and
 * biased variance) and inference (population statistics).
 * Conv3DBackpropInput/Filter(V2): im2col of 3-D windows in tiles of output
 * positions and one GEMM per tile (float work for half/bfloat16/float,
 * double for double).
 * MaxPool3DGrad routes each gradient to every element of its window that
 * equals the pooled value (TF's CPU kernel compares with orig_output);
 * MaxPool3DGradGrad and MaxPoolGradGrad(V2) take, per output, the gradient
 * at the first window element equal to orig_output (0 when none is);
 * AvgPool3DGrad spreads each gradient over the real elements of its
 * window. MaxPoolGradWithArgmax scatters the gradient to the argmax
 * positions. Dilation2DBackpropInput/Filter route each gradient to the
 * (input, filter tap) pair that won the max of input + filter (the first
 * strictly greater one, as TF). Element comparisons use long double (exact
 * for every 64-bit integer); integer accumulations wrap as in TF. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/threadpool.h"
#include "kernels/cpu/conv_direct.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_common.h"

void tfe_register_cpu_nn_grad_kernels(void);

/* ---- small helpers ---- */

static const char* sattr(const tfe_kernel_context* k, const char* name, const char* dflt) {
  const char* s = NULL;
  size_t len = 0;
  if (k->attrs == NULL || !tfe_attrs_get_string(k->attrs, name, &s, &len, NULL)) return dflt;
  return s;
}

static nn_padding pad_attr(const tfe_kernel_context* k) {
  return strcmp(sattr(k, "padding", "VALID"), "SAME") == 0 ? NN_PAD_SAME : NN_PAD_VALID;
}

static int is_int_dtype(TF_DataType dt) {
  return dt != TF_FLOAT && dt != TF_DOUBLE && dt != TF_HALF && dt != TF_BFLOAT16;
}

/* Element i of t as long double (exact for all registered dtypes). */
static long double ldv(const TF_Tensor* t, int64_t i) {
  const void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[i]);
    case TF_UINT64: return (long double)((const uint64_t*)d)[i];
    default: return (long double)kutil_get_int(t, i);
  }
}

/* Stores v (a floating value) into element i of a floating tensor. */
static void stf(TF_Tensor* t, int64_t i, double v) {
  void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: ((float*)d)[i] = (float)v; break;
    case TF_DOUBLE: ((double*)d)[i] = v; break;
    case TF_HALF: ((uint16_t*)d)[i] = kutil_f32_to_f16((float)v); break;
    case TF_BFLOAT16: ((uint16_t*)d)[i] = kutil_f32_to_bf16((float)v); break;
    default: break;
  }
}

/* dst[i] += src[j] in dst's dtype (integers wrap; half and bfloat16 round
 * after the addition, as TF adds in T). */
static void add_elem(TF_Tensor* dst, int64_t i, const TF_Tensor* src, int64_t j) {
  void* d = kutil_data(dst);
  const void* s = kutil_data(src);
  switch (dst->dtype) {
    case TF_FLOAT: ((float*)d)[i] += ((const float*)s)[j]; return;
    case TF_DOUBLE: ((double*)d)[i] += ((const double*)s)[j]; return;
    case TF_HALF:
    case TF_BFLOAT16: stf(dst, i, (double)((float)ldv(dst, i) + (float)ldv(src, j))); return;
    case TF_INT8: ((int8_t*)d)[i] = (int8_t)(uint8_t)((uint8_t)((int8_t*)d)[i] + (uint8_t)((const int8_t*)s)[j]); return;
    case TF_UINT8: ((uint8_t*)d)[i] = (uint8_t)(((uint8_t*)d)[i] + ((const uint8_t*)s)[j]); return;
    case TF_INT16: ((int16_t*)d)[i] = (int16_t)(uint16_t)((uint16_t)((int16_t*)d)[i] + (uint16_t)((const int16_t*)s)[j]); return;
    case TF_UINT16: ((uint16_t*)d)[i] = (uint16_t)(((uint16_t*)d)[i] + ((const uint16_t*)s)[j]); return;
    case TF_INT32: ((int32_t*)d)[i] = (int32_t)((uint32_t)((int32_t*)d)[i] + (uint32_t)((const int32_t*)s)[j]); return;
    case TF_UINT32: ((uint32_t*)d)[i] += ((const uint32_t*)s)[j]; return;
    case TF_INT64: ((int64_t*)d)[i] = (int64_t)((uint64_t)((int64_t*)d)[i] + (uint64_t)((const int64_t*)s)[j]); return;
    case TF_UINT64: ((uint64_t*)d)[i] += ((const uint64_t*)s)[j]; return;
    default: return;
  }
}

/* dst[i] = src[j] (same dtype). */
static void copy_elem(TF_Tensor* dst, int64_t i, const TF_Tensor* src, int64_t j) {
  size_t es = kutil_esize(dst->dtype);
  memcpy((char*)kutil_data(dst) + (size_t)i * es, (const char*)kutil_data(src) + (size_t)j * es, es);
}

static void zero_tensor(TF_Tensor* t) {
  int64_t n = kutil_num_elements(t);
  if (n > 0) memset(kutil_data(t), 0, (size_t)n * kutil_esize(t->dtype));
}

static int dims_equal(const int64_t* a, const TF_Tensor* t, int n) {
  int i;
  if (t->num_dims != n) return 0;
  for (i = 0; i < n; i++) {
    if (a[i] != t->dims[i]) return 0;
  }
  return 1;
}

/* ---- FusedBatchNormGrad, V2, V3 ---- */

typedef struct fbn_job {
  const float *x, *dy;
  float* dx;
  int64_t C, per, nblk;
  int training;
  const double *mean, *rinv, *scale;
  double* part; /* [nblk][2][C]: sums of dy and of dy * (x - mean) */
  float* ca;    /* [3][C]: dx = ca0 * dy + ca1 * x + ca2 */
} fbn_job;

/* Per-channel partial sums of row blocks [b0, b1) (block boundaries fixed
 * by nblk, so the result does not depend on the pool's size). */
KUTIL_CLONES static void fbn_sums(void* arg, int64_t b0, int64_t b1) {
  const fbn_job* j = (const fbn_job*)arg;
  const int64_t C = j->C;
  int64_t bk, r, c;
  float* fs = (float*)tfe_malloc((size_t)(3 * C) * sizeof(float));
  if (fs == NULL) {
    /* out of memory: the slow exact loop */
    for (bk = b0; bk < b1; bk++) {
      int64_t r0 = j->per * bk / j->nblk, r1 = j->per * (bk + 1) / j->nblk;
      double* sd = j->part + bk * 2 * C;
      for (r = r0; r < r1; r++) {
        for (c = 0; c < C; c++) {
          double gv = j->dy[r * C + c];
          sd[c] += gv;
          sd[C + c] += gv * ((double)j->x[r * C + c] - j->mean[c]);
          if (!j->training) j->dx[r * C + c] = j->ca[c] * j->dy[r * C + c];
        }
      }
    }
    return;
  }
  for (c = 0; c < C; c++) fs[2 * C + c] = (float)j->mean[c];
  for (bk = b0; bk < b1; bk++) {
    int64_t r0 = j->per * bk / j->nblk, r1 = j->per * (bk + 1) / j->nblk, q;
    double* sd = j->part + bk * 2 * C;
    double* sx = sd + C;
    /* float partial sums over runs of 16 rows, added up in double */
    for (r = r0; r < r1; r = q) {
      float* fd = fs;
      float* fx = fs + C;
      const float* fm = fs + 2 * C;
      q = r + 16 < r1 ? r + 16 : r1;
      memset(fs, 0, (size_t)(2 * C) * sizeof(float));
      for (; r < q; r++) {
        const float* xr = j->x + r * C;
        const float* gr = j->dy + r * C;
        for (c = 0; c < C; c++) {
          fd[c] += gr[c];
          fx[c] += gr[c] * (xr[c] - fm[c]);
        }
        if (!j->training) {
          /* inference: dx needs no sums, written in the same pass */
          float* o = j->dx + r * C;
          for (c = 0; c < C; c++) o[c] = j->ca[c] * gr[c];
        }
      }
      for (c = 0; c < C; c++) {
        sd[c] += fd[c];
        sx[c] += fx[c];
      }
    }
  }
  tfe_free(fs);
}

KUTIL_CLONES static void fbn_apply(void* arg, int64_t r0, int64_t r1) {
  const fbn_job* j = (const fbn_job*)arg;
  const int64_t C = j->C;
  const float *a = j->ca, *b = j->ca + C, *c0 = j->ca + 2 * C;
  int64_t r, c;
  for (r = r0; r < r1; r++) {
    const float* xr = j->x + r * C;
    const float* gr = j->dy + r * C;
    float* o = j->dx + r * C;
    for (c = 0; c < C; c++) o[c] = a[c] * gr[c] + b[c] * xr[c] + c0[c];
  }
}

static void fbn_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor* dy = k->inputs[0];
  const TF_Tensor* x = k->inputs[1];
  const TF_Tensor* sc = k->inputs[2];
  const TF_Tensor* m = k->inputs[3];
  const TF_Tensor* v = k->inputs[4];
  const char* fmt = sattr(k, "data_format", "NHWC");
  int training = kutil_attr_bool(k, "is_training", 1);
  float eps = 0.0001f;
  int cf = fmt[1] == 'C', i, onednn;
  int64_t C, inner, n, per, e, c;
  kutil_shape_buf b1, b2;
  TF_Tensor *dx, *dscale, *doff, *r3, *r4;
  double *sum_dy = NULL, *sum_dyx = NULL, *mean = NULL, *rinv = NULL, *scale = NULL;
  int64_t zero = 0;
  if (k->attrs != NULL) tfe_attrs_get_float(k->attrs, "epsilon", &eps, NULL);
  /* TF's x86 build runs float and bfloat16 4-D inputs through its oneDNN
   * kernel: rank errors name 4 dims, inference works in NCHW too, and the
   * two unused outputs are scalars; otherwise (half, 5-D) its own kernel
   * answers, with empty vectors. */
  onednn = (x->dtype == TF_FLOAT || x->dtype == TF_BFLOAT16) &&
           (x->num_dims == 4 || (x->num_dims != 5 && dy->num_dims != 5));
  if (dy->num_dims != 4 && dy->num_dims != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4%s-dimensional%s",
               onednn ? "" : " or 5", kutil_tshape(dy, &b1));
    return;
  }
  if (x->num_dims != 4 && x->num_dims != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4%s-dimensional%s",
               onednn ? "" : " or 5", kutil_tshape(x, &b1));
    return;
  }
  if (sc->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "scale must be 1-dimensional%s", kutil_tshape(sc, &b1));
    return;
  }
  if (m->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "saved mean must be 1-dimensional%s", kutil_tshape(m, &b1));
    return;
  }
  if (v->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "saved variance must be 1-dimensional%s",
               kutil_tshape(v, &b1));
    return;
  }
  if (!dims_equal(x->dims, dy, x->num_dims)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "x and y_backprop must have same shape, but x has shape %s and y_backprop has "
               "shape %s",
               kutil_tshape(x, &b1), kutil_tshape(dy, &b2));
    return;
  }
  if ((x->num_dims == 5) != (strcmp(fmt, "NDHWC") == 0 || strcmp(fmt, "NCDHW") == 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Cannot apply format %s to a %d-D tensor", fmt,
               x->num_dims);
    return;
  }
  C = x->dims[cf ? 1 : x->num_dims - 1];
  if (kutil_num_elements(sc) != C) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "scale must have the same number of elements as the channels of x, got %lld and "
               "%lld",
               (long long)kutil_num_elements(sc), (long long)C);
    return;
  }
  if (kutil_num_elements(m) != C) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "reserve_space_1 must have the same number of elements as the channels of x, got "
               "%lld and %lld",
               (long long)kutil_num_elements(m), (long long)C);
    return;
  }
  if (kutil_num_elements(v) != C) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "reserve_space_2 must have the same number of elements as the channels of x, got "
               "%lld and %lld",
               (long long)kutil_num_elements(v), (long long)C);
    return;
  }
  if (!training && cf && !onednn) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "The implementation of FusedBatchNormGrad with is_training=False only support "
               "NHWC tensor format for now.");
    return;
  }
  dx = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  dscale = dx ? tfe_kernel_alloc_output(k, 1, m->dtype, &C, 1) : NULL;
  doff = dscale ? tfe_kernel_alloc_output(k, 2, m->dtype, &C, 1) : NULL;
  r3 = doff ? tfe_kernel_alloc_output(k, 3, m->dtype, &zero, onednn ? 0 : 1) : NULL;
  r4 = r3 ? tfe_kernel_alloc_output(k, 4, m->dtype, &zero, onednn ? 0 : 1) : NULL;
  if (r4 == NULL) return;
  zero_tensor(r3);
  zero_tensor(r4);
  zero_tensor(dscale);
  zero_tensor(doff);
  n = kutil_num_elements(x);
  if (n == 0 || C == 0) return;
  inner = 1;
  if (cf) {
    for (i = 2; i < x->num_dims; i++) inner *= x->dims[i];
  }
  per = n / C;
  sum_dy = (double*)tfe_calloc((size_t)C, sizeof(double));
  sum_dyx = (double*)tfe_calloc((size_t)C, sizeof(double));
  mean = (double*)tfe_malloc((size_t)C * sizeof(double));
  rinv = (double*)tfe_malloc((size_t)C * sizeof(double));
  scale = (double*)tfe_malloc((size_t)C * sizeof(double));
  if (!sum_dy || !sum_dyx || !mean || !rinv || !scale) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in FusedBatchNormGrad");
    goto done;
  }
  for (c = 0; c < C; c++) {
    mean[c] = (double)ldv(m, c);
    rinv[c] = 1.0 / sqrt((double)(float)((float)ldv(v, c) + eps));
    scale[c] = (double)ldv(sc, c);
  }
  if (!cf && x->dtype == TF_FLOAT) {
    /* the common case: channels last in float; row blocks on the pool */
    fbn_job j;
    int64_t nblk = per < 64 ? per : 64, bk;
    j.x = (const float*)kutil_data(x);
    j.dy = (const float*)kutil_data(dy);
    j.dx = (float*)kutil_data(dx);
    j.C = C;
    j.per = per;
    j.nblk = nblk;
    j.training = training;
    j.mean = mean;
    j.rinv = rinv;
    j.scale = scale;
    j.part = (double*)tfe_calloc((size_t)(nblk * 2 * C), sizeof(double));
    if (j.part == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in FusedBatchNormGrad");
      goto done;
    }
    j.ca = NULL;
    if (!training) {
      j.ca = (float*)tfe_malloc((size_t)C * sizeof(float));
      if (j.ca == NULL) {
        tfe_free(j.part);
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in FusedBatchNormGrad");
        goto done;
      }
      for (c = 0; c < C; c++) j.ca[c] = (float)(scale[c] * rinv[c]);
    }
    tfe_parallel_for(tfe_kernel_threadpool(k), nblk, 1, fbn_sums, &j);
    tfe_free(j.ca);
    for (bk = 0; bk < nblk; bk++) {
      for (c = 0; c < C; c++) {
        sum_dy[c] += j.part[bk * 2 * C + c];
        sum_dyx[c] += j.part[bk * 2 * C + C + c];
      }
    }
    tfe_free(j.part);
    for (c = 0; c < C; c++) {
      sum_dy[c] /= (double)per;
      sum_dyx[c] /= (double)per;
    }
    /* per-channel coefficients: dx = a*dy + b*x + c0 (training; the
     * inference dx is already written) */
    j.ca = training ? (float*)tfe_malloc((size_t)(3 * C) * sizeof(float)) : NULL;
    if (!training) goto sums_done;
    if (j.ca == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in FusedBatchNormGrad");
      goto done;
    }
    for (c = 0; c < C; c++) {
      double sr = scale[c] * rinv[c];
      if (training) {
        double bcoef = -sr * sum_dyx[c] * rinv[c] * rinv[c];
        j.ca[c] = (float)sr;
        j.ca[C + c] = (float)bcoef;
        j.ca[2 * C + c] = (float)(-sr * sum_dy[c] - bcoef * mean[c]);
      } else {
        j.ca[c] = (float)sr;
        j.ca[C + c] = 0.0f;
        j.ca[2 * C + c] = 0.0f;
      }
    }
    tfe_parallel_for(tfe_kernel_threadpool(k), per, 256, fbn_apply, &j);
    tfe_free(j.ca);
  sums_done:;
  } else {
    for (e = 0; e < n; e++) {
      double g = (double)ldv(dy, e);
      c = (e / inner) % C;
      sum_dy[c] += g;
      sum_dyx[c] += g * ((double)ldv(x, e) - mean[c]);
    }
    for (c = 0; c < C; c++) {
      sum_dy[c] /= (double)per;
      sum_dyx[c] /= (double)per;
    }
    for (e = 0; e < n; e++) {
      double g = (double)ldv(dy, e), r;
      c = (e / inner) % C;
      if (training) {
        double xc = (double)ldv(x, e) - mean[c];
        r = scale[c] * rinv[c] * (g - sum_dy[c] - xc * sum_dyx[c] * rinv[c] * rinv[c]);
      } else {
        r = g * scale[c] * rinv[c];
      }
      stf(dx, e, r);
    }
  }
  for (c = 0; c < C; c++) {
    stf(dscale, c, sum_dyx[c] * (double)per * rinv[c]);
    stf(doff, c, sum_dy[c] * (double)per);
  }
done:
  tfe_free(sum_dy);
  tfe_free(sum_dyx);
  tfe_free(mean);
  tfe_free(rinv);
  tfe_free(scale);
}

/* ---- Conv3DBackpropInput / Conv3DBackpropFilter (V1 and V2) ---- */

typedef struct c3 {
  int64_t n, d, h, w, c;    /* input */
  int64_t kd, kh, kw, oc;   /* filter (kd, kh, kw, c, oc) */
  int64_t od, oh, ow;       /* output */
  int64_t sd, sh, sw;       /* strides */
  int64_t pd, ph, pw;       /* leading padding */
} c3;

/* The checks of TF's 3-D backprop ops; x is the input shape, f the filter
 * shape, ob the out_backprop tensor. */
static int c3_geometry(tfe_kernel_context* k, const char* op, const int64_t* x, const int64_t* f,
                       const TF_Tensor* ob, c3* g) {
  const int64_t *st = NULL, *dl = NULL;
  int nst = 0, ndl = 0, i;
  nn_padding padding = pad_attr(k);
  int64_t pad[3], o[3];
  if (!kutil_attr_int32_list(k, "strides", &st, &nst)) return 0;
  if (k->attrs != NULL) tfe_attrs_get_int_list(k->attrs, "dilations", &dl, &ndl, NULL);
  if (nst != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window strides field must specify 5 dimensions");
    return 0;
  }
  if (st[0] != 1 || st[4] != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Current implementation does not yet support strides in the batch and depth "
               "dimensions.");
    return 0;
  }
  if (dl != NULL && ndl != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dilation rates field must specify 5 dimensions");
    return 0;
  }
  if (dl != NULL && (dl[0] != 1 || dl[1] != 1 || dl[2] != 1 || dl[3] != 1 || dl[4] != 1)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Current CPU implementation does not yet support dilation rates larger than 1.");
    return 0;
  }
  if (ob->num_dims != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: out_backprop must be 5-dimensional", op);
    return 0;
  }
  if (x[0] != ob->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: input and out_backprop must have the same batch size, input batch: %lld "
               "outbackprop batch: %lld",
               op, (long long)x[0], (long long)ob->dims[0]);
    return 0;
  }
  if (x[4] != f[3]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input and filter must have the same depth: %lld vs %lld",
               (long long)x[4], (long long)f[3]);
    return 0;
  }
  if (f[4] != ob->dims[4]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: filter and out_backprop must have the same out_depth",
               op);
    return 0;
  }
  for (i = 0; i < 3; i++) {
    if (st[1 + i] <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Stride must be > 0, but got %lld", (long long)st[1 + i]);
      return 0;
    }
    if (!nn_out_size(k, x[1 + i], f[i], 1, st[1 + i], padding, 0, 0, &o[i], &pad[i])) return 0;
    if (o[i] != ob->dims[1 + i]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s: Size of out_backprop doesn't match computed: actual = %lld, computed = "
                 "%lld spatial_dim: %d input: %lld filter: %lld output: %lld stride: %lld "
                 "dilation: 1",
                 op, (long long)ob->dims[1 + i], (long long)o[i], i + 1, (long long)x[1 + i],
                 (long long)f[i], (long long)ob->dims[1 + i], (long long)st[1 + i]);
      return 0;
    }
  }
  g->n = x[0];
  g->d = x[1];
  g->h = x[2];
  g->w = x[3];
  g->c = x[4];
  g->kd = f[0];
  g->kh = f[1];
  g->kw = f[2];
  g->oc = f[4];
  g->od = o[0];
  g->oh = o[1];
  g->ow = o[2];
  g->sd = st[1];
  g->sh = st[2];
  g->sw = st[3];
  g->pd = pad[0];
  g->ph = pad[1];
  g->pw = pad[2];
  return 1;
}

/* Rows [p0, p0 + np) of the im2col matrix: one row per output position,
 * K = kd*kh*kw*c columns holding its input window (zeros outside). */
static void c3_cols(const c3* g, int dbl, const void* img, void* col, int64_t p0, int64_t np) {
  const int64_t K = g->kd * g->kh * g->kw * g->c;
  const size_t es = dbl ? 8 : 4;
  int64_t p;
  for (p = 0; p < np; p++) {
    int64_t q = p0 + p;
    int64_t ow = q % g->ow, oh = (q / g->ow) % g->oh, od = (q / g->ow / g->oh) % g->od;
    int64_t b = q / g->ow / g->oh / g->od, kd, kh, kw;
    char* row = (char*)col + (size_t)(p * K) * es;
    for (kd = 0; kd < g->kd; kd++) {
      int64_t d = od * g->sd - g->pd + kd;
      for (kh = 0; kh < g->kh; kh++) {
        int64_t h = oh * g->sh - g->ph + kh;
        for (kw = 0; kw < g->kw; kw++) {
          int64_t w = ow * g->sw - g->pw + kw;
          char* cp = row + (size_t)(((kd * g->kh + kh) * g->kw + kw) * g->c) * es;
          if (d >= 0 && d < g->d && h >= 0 && h < g->h && w >= 0 && w < g->w) {
            int64_t off = (((b * g->d + d) * g->h + h) * g->w + w) * g->c;
            memcpy(cp, (const char*)img + (size_t)off * es, (size_t)g->c * es);
          } else {
            memset(cp, 0, (size_t)g->c * es);
          }
        }
      }
    }
  }
}

/* float32 on CPUs with the direct 2-D kernel: the (batch, output depth)
 * pairs form the batch of one 2-D filter gradient whose input pixels hold
 * the KD depth slices the window reads side by side as channels (zeros
 * outside the volume); dy is already laid out as that batch. The result
 * [KH, KW, KD*C, OC] is then reordered to [KD, KH, KW, C, OC]. Returns 0
 * (nothing written) when the kernel is unavailable or memory is short. */
static int c3_filter_direct(tfe_kernel_context* k, const c3* g, const float* x, const float* dy,
                            float* df) {
  const int64_t pix = g->h * g->w, nb = g->n * g->od, cc = g->kd * g->c;
  tfe_conv_desc d;
  float *xb, *df2;
  int64_t b, od, p, kd, kh, kw;
  if (!tfe_conv_direct_available() || nb == 0 || pix == 0 || g->c == 0) return 0;
  xb = (float*)tfe_malloc((size_t)(nb * pix * cc) * sizeof(float));
  df2 = (float*)tfe_malloc((size_t)(g->kh * g->kw * cc * g->oc) * sizeof(float));
  if (xb == NULL || df2 == NULL) {
    tfe_free(xb);
    tfe_free(df2);
    return 0;
  }
  for (b = 0; b < g->n; b++) {
    for (od = 0; od < g->od; od++) {
      float* dst = xb + (b * g->od + od) * pix * cc;
      for (kd = 0; kd < g->kd; kd++) {
        int64_t dd = od * g->sd - g->pd + kd;
        const float* src = x + (b * g->d + dd) * pix * g->c;
        for (p = 0; p < pix; p++) {
          float* q = dst + p * cc + kd * g->c;
          if (dd < 0 || dd >= g->d) {
            memset(q, 0, (size_t)g->c * sizeof(float));
          } else {
            memcpy(q, src + p * g->c, (size_t)g->c * sizeof(float));
          }
        }
      }
    }
  }
  memset(&d, 0, sizeof d);
  d.n = nb;
  d.ih = g->h;
  d.iw = g->w;
  d.ic = cc;
  d.kh = g->kh;
  d.kw = g->kw;
  d.oh = g->oh;
  d.ow = g->ow;
  d.oc = g->oc;
  d.groups = 1;
  d.sh = g->sh;
  d.sw = g->sw;
  d.dh = 1;
  d.dw = 1;
  d.pt = g->ph;
  d.pl = g->pw;
  if (!tfe_conv_direct_filter_grad_f32(&d, xb, dy, df2, tfe_kernel_threadpool(k))) {
    tfe_free(xb);
    tfe_free(df2);
    return 0;
  }
  for (kd = 0; kd < g->kd; kd++) {
    for (kh = 0; kh < g->kh; kh++) {
      for (kw = 0; kw < g->kw; kw++) {
        memcpy(df + ((kd * g->kh + kh) * g->kw + kw) * g->c * g->oc,
               df2 + ((kh * g->kw + kw) * cc + kd * g->c) * g->oc,
               (size_t)(g->c * g->oc) * sizeof(float));
      }
    }
  }
  tfe_free(xb);
  tfe_free(df2);
  return 1;
}

/* Conv3DBackpropFilterV2: the filter gradient, col^T * dy summed over
 * tiles of output positions (float work for half/bfloat16/float, double
 * for double). */
static void c3_filter(tfe_kernel_context* k) {
  const char* op = "Conv3DBackpropFilterOp";
  const TF_Tensor* a = k->inputs[0];
  const TF_Tensor* b = k->inputs[1];
  const TF_Tensor* ob = k->inputs[2];
  int64_t x[5], f[5], P, K, tile, p0, total, e;
  int i, dbl = ob->dtype == TF_DOUBLE, o1 = 0, o2 = 0;
  c3 g;
  kutil_shape_buf sb;
  TF_Tensor* out;
  void *src = NULL, *gw = NULL, *acc = NULL, *col = NULL, *part = NULL;
  size_t es = dbl ? 8 : 4;
  if (strcmp(sattr(k, "data_format", "NDHWC"), "NDHWC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%sV2 only supports NDHWC on the CPU.", op);
    return;
  }
  if (a->num_dims != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 5-dimensional: %s", kutil_tshape(a, &sb));
    return;
  }
  memcpy(x, a->dims, sizeof x);
  if (b->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "filter_sizes must be 1-D, got %s", kutil_tshape(b, &sb));
    return;
  }
  if (b->dims[0] != 5) {
    int64_t v[64];
    int nv = b->dims[0] < 64 ? (int)b->dims[0] : 64;
    for (i = 0; i < nv; i++) v[i] = kutil_get_int(b, i);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "filter must be 5-dimensional: %s",
               kutil_shape_str(v, nv, sb.s, sizeof sb.s));
    return;
  }
  for (i = 0; i < 5; i++) {
    f[i] = kutil_get_int(b, i);
    if (f[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %d must be >= 0, got %lld", i,
                 (long long)f[i]);
      return;
    }
  }
  if (!c3_geometry(k, op, x, f, ob, &g)) return;
  out = tfe_kernel_alloc_output(k, 0, ob->dtype, f, 5);
  if (out == NULL) return;
  total = kutil_num_elements(out);
  if (total == 0) return;
  P = g.n * g.od * g.oh * g.ow;
  K = g.kd * g.kh * g.kw * g.c;
  if (P == 0 || K == 0 || g.oc == 0) {
    zero_tensor(out);
    return;
  }
  if (ob->dtype == TF_FLOAT && c3_filter_direct(k, &g, (const float*)kutil_data(a),
                                                 (const float*)kutil_data(ob),
                                                 (float*)kutil_data(out))) {
    return;
  }
  /* tiles of about 8 MB of columns */
  tile = (int64_t)((8u << 20) / ((size_t)K * es));
  if (tile < 16) tile = 16;
  if (tile > P) tile = P;
  src = nn_to_work(a, dbl, &o1);
  gw = nn_to_work(ob, dbl, &o2);
  acc = tfe_calloc((size_t)total, es);
  col = tfe_malloc((size_t)(tile * K) * es);
  part = tfe_malloc((size_t)(K * g.oc) * es);
  if (src == NULL || gw == NULL || acc == NULL || col == NULL || part == NULL) goto oom;
  for (p0 = 0; p0 < P; p0 += tile) {
    int64_t np = P - p0 < tile ? P - p0 : tile;
    const char* gt = (const char*)gw + (size_t)(p0 * g.oc) * es;
    /* part[K,OC] = col[np,K]^T * dy[np,OC] */
    c3_cols(&g, dbl, src, col, p0, np);
    if (!nn_gemm(dbl, 1, 0, K, g.oc, np, col, K, gt, g.oc, part, g.oc)) goto oom;
    if (dbl) {
      for (e = 0; e < K * g.oc; e++) ((double*)acc)[e] += ((double*)part)[e];
    } else {
      for (e = 0; e < K * g.oc; e++) ((float*)acc)[e] += ((float*)part)[e];
    }
  }
  nn_from_work(out, acc, dbl, total);
  goto done;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", op);
done:
  if (o1) tfe_free(src);
  if (o2) tfe_free(gw);
  tfe_free(acc);
  tfe_free(col);
  tfe_free(part);
}

/* The V1 ops are deprecated in TF's registry since GraphDef version 10:
 * TF refuses to run them, naming the V2 op to use. */
static void c3_v1_removed(tfe_kernel_context* k, const char* op) {
  KUTIL_FAIL(k, TF_UNIMPLEMENTED,
             "Op %s is not available in GraphDef version 2474. It has been removed in version "
             "10. Use %sV2.",
             op, op);
}
static void c3_input_v1(tfe_kernel_context* k) { c3_v1_removed(k, "Conv3DBackpropInput"); }
static void c3_filter_v1(tfe_kernel_context* k) { c3_v1_removed(k, "Conv3DBackpropFilter"); }

static void c3_filter_v2(tfe_kernel_context* k) { c3_filter(k); }

/* ---- 3-D pooling gradients ---- */

typedef struct p3 {
  int64_t n, d, h, w, c, od, oh, ow;
  int64_t kd, kh, kw, sd, sh, sw, pd, ph, pw;
} p3;

/* ksize/strides/padding/data_format with TF's Pool3dParameters checks;
 * x is the 5-D input shape. */
static int p3_geometry(tfe_kernel_context* k, const char* opname, const int64_t* x, p3* g) {
  const int64_t *ks = NULL, *st = NULL;
  int nks = 0, nst = 0, i;
  int64_t o[3], pad[3];
  nn_padding padding = pad_attr(k);
  if (!kutil_attr_int32_list(k, "ksize", &ks, &nks) ||
      !kutil_attr_int32_list(k, "strides", &st, &nst)) {
    return 0;
  }
  if (nks != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window ksize field must specify 5 dimensions");
    return 0;
  }
  if (nst != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window strides field must specify 5 dimensions");
    return 0;
  }
  if (ks[0] != 1 || st[0] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Pooling is not yet supported on the batch dimension.");
    return 0;
  }
  if (ks[4] != 1 || st[4] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Pooling is not yet supported on the depth dimension.");
    return 0;
  }
  if (strcmp(sattr(k, "data_format", "NDHWC"), "NDHWC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Default %s only supports NDHWC on device type CPU",
               opname);
    return 0;
  }
  for (i = 0; i < 3; i++) {
    if (ks[1 + i] <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Sliding window ksize field must have non-negative dimensions");
      return 0;
    }
    if (st[1 + i] <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Stride must be > 0, but got %lld", (long long)st[1 + i]);
      return 0;
    }
    if (!nn_out_size(k, x[1 + i], ks[1 + i], 1, st[1 + i], padding, 0, 0, &o[i], &pad[i])) {
      return 0;
    }
  }
  g->n = x[0];
  g->d = x[1];
  g->h = x[2];
  g->w = x[3];
  g->c = x[4];
  g->od = o[0];
  g->oh = o[1];
  g->ow = o[2];
  g->kd = ks[1];
  g->kh = ks[2];
  g->kw = ks[3];
  g->sd = st[1];
  g->sh = st[2];
  g->sw = st[3];
  g->pd = pad[0];
  g->ph = pad[1];
  g->pw = pad[2];
  return 1;
}

static int p3_out_matches(tfe_kernel_context* k, const p3* g, const TF_Tensor* t,
                          const char* what) {
  int64_t want[5];
  kutil_shape_buf a, b;
  want[0] = g->n;
  want[1] = g->od;
  want[2] = g->oh;
  want[3] = g->ow;
  want[4] = g->c;
  if (dims_equal(want, t, 5)) return 1;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected %s shape to be %s, but got %s", what,
             kutil_shape_str(want, 5, a.s, sizeof a.s), kutil_tshape(t, &b));
  return 0;
}

/* Visits the real elements of output o's window (flat input indices). */
#define P3_WINDOW(g, o, idx, BODY)                                                      \
  do {                                                                                  \
    int64_t c_ = (o) % (g)->c, r_ = (o) / (g)->c;                                       \
    int64_t ow_ = r_ % (g)->ow, oh_ = (r_ / (g)->ow) % (g)->oh;                         \
    int64_t od_ = (r_ / (g)->ow / (g)->oh) % (g)->od, b_ = r_ / (g)->ow / (g)->oh / (g)->od; \
    int64_t d0_ = od_ * (g)->sd - (g)->pd, h0_ = oh_ * (g)->sh - (g)->ph;               \
    int64_t w0_ = ow_ * (g)->sw - (g)->pw, d1_ = d0_ + (g)->kd, h1_ = h0_ + (g)->kh;   \
    int64_t w1_ = w0_ + (g)->kw, dd_, hh_, ww_;                                         \
    int stop_ = 0;                                                                      \
    if (d0_ < 0) d0_ = 0;                                                               \
    if (h0_ < 0) h0_ = 0;                                                               \
    if (w0_ < 0) w0_ = 0;                                                               \
    if (d1_ > (g)->d) d1_ = (g)->d;                                                     \
    if (h1_ > (g)->h) h1_ = (g)->h;                                                     \
    if (w1_ > (g)->w) w1_ = (g)->w;                                                     \
    for (dd_ = d0_; dd_ < d1_ && !stop_; dd_++) {                                       \
      for (hh_ = h0_; hh_ < h1_ && !stop_; hh_++) {                                     \
        for (ww_ = w0_; ww_ < w1_ && !stop_; ww_++) {                                   \
          int64_t idx = (((b_ * (g)->d + dd_) * (g)->h + hh_) * (g)->w + ww_) * (g)->c + c_; \
          BODY                                                                          \
        }                                                                               \
      }                                                                                 \
    }                                                                                   \
    (void)stop_;                                                                        \
  } while (0)

static int p3_check_rank(tfe_kernel_context* k, const TF_Tensor* t, const char* what) {
  if (t->num_dims == 5) return 1;
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be 5-dimensional", what);
  return 0;
}

/* ---- float32 fast paths of the pooling gradients ----
 * Loops run per output position over the window, channels innermost
 * (contiguous). MAXGG and AVG-free modes write only their own outputs and
 * split over output rows; MAXG and AVG add into the input-shaped output,
 * where windows of one batch element may overlap, so they split over the
 * batch. */
enum { PF_MAXG, PF_MAXGG, PF_AVG };

typedef struct pf_job {
  const p3* g;
  int mode;
  const float *in, *yo, *gr;
  float* out;
} pf_job;

KUTIL_CLONES static void pf_position(const pf_job* j, int64_t pos, unsigned char* found) {
  const p3* g = j->g;
  const int64_t C = g->c;
  int64_t ow = pos % g->ow, oh = (pos / g->ow) % g->oh, od = (pos / g->ow / g->oh) % g->od;
  int64_t b = pos / g->ow / g->oh / g->od;
  int64_t d0 = od * g->sd - g->pd, h0 = oh * g->sh - g->ph, w0 = ow * g->sw - g->pw;
  int64_t d1 = d0 + g->kd, h1 = h0 + g->kh, w1 = w0 + g->kw, dd, hh, ww, c;
  const int64_t ob = pos * C;
  if (d0 < 0) d0 = 0;
  if (h0 < 0) h0 = 0;
  if (w0 < 0) w0 = 0;
  if (d1 > g->d) d1 = g->d;
  if (h1 > g->h) h1 = g->h;
  if (w1 > g->w) w1 = g->w;
  if (j->mode == PF_MAXGG) memset(found, 0, (size_t)C);
  if (j->mode == PF_AVG) {
    int64_t cnt = (d1 - d0) * (h1 - h0) * (w1 - w0);
    if (cnt <= 0) return;
    for (dd = d0; dd < d1; dd++) {
      for (hh = h0; hh < h1; hh++) {
        for (ww = w0; ww < w1; ww++) {
          float* o = j->out + (((b * g->d + dd) * g->h + hh) * g->w + ww) * C;
          const float* gp = j->gr + ob;
          float inv = 1.0f / (float)cnt;
          for (c = 0; c < C; c++) o[c] += gp[c] * inv;
        }
      }
    }
    return;
  }
  for (dd = d0; dd < d1; dd++) {
    for (hh = h0; hh < h1; hh++) {
      for (ww = w0; ww < w1; ww++) {
        int64_t ib = (((b * g->d + dd) * g->h + hh) * g->w + ww) * C;
        const float* ip = j->in + ib;
        const float* yp = j->yo + ob;
        if (j->mode == PF_MAXG) {
          float* o = j->out + ib;
          const float* gp = j->gr + ob;
          for (c = 0; c < C; c++) {
            if (ip[c] == yp[c]) o[c] += gp[c];
          }
        } else {
          float* o = j->out + ob;
          const float* gp = j->gr + ib;
          for (c = 0; c < C; c++) {
            if (!found[c] && ip[c] == yp[c]) {
              o[c] = gp[c];
              found[c] = 1;
            }
          }
        }
      }
    }
  }
}

/* MAXGG: ranges of output positions. */
static void pf_rows(void* arg, int64_t p0, int64_t p1) {
  const pf_job* j = (const pf_job*)arg;
  unsigned char stackbuf[1024];
  unsigned char* found = j->g->c <= 1024 ? stackbuf : (unsigned char*)tfe_malloc((size_t)j->g->c);
  int64_t p;
  if (found == NULL) return;
  for (p = p0; p < p1; p++) pf_position(j, p, found);
  if (found != stackbuf) tfe_free(found);
}

/* MAXG, AVG: whole batch elements, or whole output depth slabs when the
 * depth windows do not overlap (kd <= sd). */
static void pf_batches(void* arg, int64_t b0, int64_t b1) {
  const pf_job* j = (const pf_job*)arg;
  const int64_t per = j->g->kd <= j->g->sd ? j->g->oh * j->g->ow
                                           : j->g->od * j->g->oh * j->g->ow;
  pf_rows(arg, b0 * per, b1 * per);
}

/* Runs mode over the float32 tensors (out already zeroed); 0 when out of
 * memory for a large channel count. */
static void pf_run(tfe_kernel_context* k, const p3* g, int mode, const TF_Tensor* in,
                   const TF_Tensor* yo, const TF_Tensor* gr, TF_Tensor* out) {
  pf_job j;
  j.g = g;
  j.mode = mode;
  j.in = in ? (const float*)kutil_data(in) : NULL;
  j.yo = yo ? (const float*)kutil_data(yo) : NULL;
  j.gr = (const float*)kutil_data(gr);
  j.out = (float*)kutil_data(out);
  if (mode == PF_MAXGG) {
    tfe_parallel_for(tfe_kernel_threadpool(k), g->n * g->od * g->oh * g->ow, 64, pf_rows, &j);
  } else {
    tfe_parallel_for(tfe_kernel_threadpool(k), g->kd <= g->sd ? g->n * g->od : g->n, 1,
                     pf_batches, &j);
  }
}

static void max_pool3d_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor *in = k->inputs[0], *yo = k->inputs[1], *gr = k->inputs[2];
  p3 g;
  int64_t total, o;
  TF_Tensor* out;
  if (!p3_check_rank(k, in, "tensor_in") || !p3_check_rank(k, yo, "tensor_out") ||
      !p3_check_rank(k, gr, "out_backprop")) {
    return;
  }
  if (!p3_geometry(k, "MaxPooling3dGradOp", in->dims, &g)) return;
  if (!p3_out_matches(k, &g, yo, "tensor_out") || !p3_out_matches(k, &g, gr, "grad")) {
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, gr->dtype, in->dims, 5);
  if (out == NULL) return;
  zero_tensor(out);
  total = kutil_num_elements(gr);
  if (kutil_num_elements(in) == 0) return;
  if (in->dtype == TF_FLOAT && gr->dtype == TF_FLOAT) {
    pf_run(k, &g, PF_MAXG, in, yo, gr, out);
    return;
  }
  for (o = 0; o < total; o++) {
    long double mv = ldv(yo, o);
    P3_WINDOW(&g, o, idx, {
      if (ldv(in, idx) == mv) add_elem(out, idx, gr, o);
    });
  }
}

static void max_pool3d_grad_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor *in = k->inputs[0], *yo = k->inputs[1], *gr = k->inputs[2];
  p3 g;
  int64_t total, o;
  TF_Tensor* out;
  kutil_shape_buf a, b;
  if (!p3_check_rank(k, in, "tensor_in") || !p3_check_rank(k, yo, "tensor_out")) return;
  if (!dims_equal(in->dims, gr, 5)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected grad shape to be %s, but got %s", kutil_tshape(in, &a),
               kutil_tshape(gr, &b));
    return;
  }
  if (!p3_geometry(k, "MaxPooling3dGradGradOp", in->dims, &g)) return;
  if (!p3_out_matches(k, &g, yo, "tensor_out")) return;
  out = tfe_kernel_alloc_output(k, 0, gr->dtype, yo->dims, 5);
  if (out == NULL) return;
  zero_tensor(out);
  total = kutil_num_elements(yo);
  if (gr->dtype == TF_FLOAT) {
    pf_run(k, &g, PF_MAXGG, in, yo, gr, out);
    return;
  }
  for (o = 0; o < total; o++) {
    long double mv = ldv(yo, o);
    P3_WINDOW(&g, o, idx, {
      if (ldv(in, idx) == mv) {
        copy_elem(out, o, gr, idx);
        stop_ = 1;
      }
    });
  }
}

static void avg_pool3d_grad_compute(tfe_kernel_context* k) {
  const TF_Tensor *shp = k->inputs[0], *gr = k->inputs[1];
  int64_t x[5], total, o, nin;
  int i;
  p3 g;
  TF_Tensor* out;
  double* acc;
  kutil_shape_buf sb;
  if (shp->num_dims != 1 || shp->dims[0] != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "tensor_in_shape must have 5 elements, got %s", kutil_tshape(shp, &sb));
    return;
  }
  for (i = 0; i < 5; i++) {
    x[i] = kutil_get_int(shp, i);
    if (x[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %d must be >= 0, got %lld", i,
                 (long long)x[i]);
      return;
    }
  }
  if (!p3_check_rank(k, gr, "out_backprop")) return;
  if (!p3_geometry(k, "AvgPooling3dGradOp", x, &g)) return;
  if (!p3_out_matches(k, &g, gr, "out_backprop")) return;
  out = tfe_kernel_alloc_output(k, 0, gr->dtype, x, 5);
  if (out == NULL) return;
  nin = kutil_num_elements(out);
  if (nin == 0) return;
  if (gr->dtype == TF_FLOAT) {
    zero_tensor(out);
    pf_run(k, &g, PF_AVG, NULL, NULL, gr, out);
    return;
  }
  acc = (double*)tfe_calloc((size_t)nin, sizeof(double));
  if (acc == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in AvgPool3DGrad");
    return;
  }
  total = kutil_num_elements(gr);
  for (o = 0; o < total; o++) {
    double cnt = 0, v;
    P3_WINDOW(&g, o, idx, {
      (void)idx;
      cnt += 1;
    });
    if (cnt == 0) continue;
    v = (double)ldv(gr, o) / cnt;
    P3_WINDOW(&g, o, idx, { acc[idx] += v; });
  }
  for (o = 0; o < nin; o++) stf(out, o, acc[o]);
  tfe_free(acc);
}

/* ---- MaxPoolGradGrad (V1: attrs, V2: ksize/strides tensors) ---- */

static void mpgg_run(tfe_kernel_context* k, const int64_t* ks, int nks, const int64_t* st,
                     int nst) {
  const TF_Tensor *in = k->inputs[0], *yo = k->inputs[1], *gr = k->inputs[2];
  nn_padding padding = pad_attr(k);
  int64_t oh, ow, ph, pw, want[4], total, o;
  kutil_shape_buf a, b;
  TF_Tensor* out;
  if (strcmp(sattr(k, "data_format", "NHWC"), "NHWC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Default MaxPoolingGradGradOp only supports NHWC on device type CPU");
    return;
  }
  if (nks != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window ksize field must specify 4 dimensions");
    return;
  }
  if (nst != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window strides field must specify 4 dimensions");
    return;
  }
  if (ks[0] != 1 || st[0] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Pooling is not yet supported on the batch dimension.");
    return;
  }
  if (ks[3] != 1 || st[3] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "MaxPoolingGradGrad is not yet supported on the depth dimension.");
    return;
  }
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "tensor_in must be 4-dimensional");
    return;
  }
  if (yo->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "tensor_out must be 4-dimensional");
    return;
  }
  if (gr->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "out_grad_backprop must be 4-dimensional");
    return;
  }
  if (ks[1] <= 0 || ks[2] <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window ksize field must have non-negative dimensions");
    return;
  }
  if (st[1] <= 0 || st[2] <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Stride must be > 0, but got %lld",
               (long long)(st[1] <= 0 ? st[1] : st[2]));
    return;
  }
  if (!nn_out_size(k, in->dims[1], ks[1], 1, st[1], padding, 0, 0, &oh, &ph) ||
      !nn_out_size(k, in->dims[2], ks[2], 1, st[2], padding, 0, 0, &ow, &pw)) {
    return;
  }
  want[0] = in->dims[0];
  want[1] = oh;
  want[2] = ow;
  want[3] = in->dims[3];
  if (!dims_equal(want, yo, 4)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected orig_output shape to be %s, but got %s",
               kutil_shape_str(want, 4, a.s, sizeof a.s), kutil_tshape(yo, &b));
    return;
  }
  if (!dims_equal(in->dims, gr, 4)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected grad shape to be %s, but got %s",
               kutil_tshape(in, &a), kutil_tshape(gr, &b));
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, gr->dtype, yo->dims, 4);
  if (out == NULL) return;
  zero_tensor(out);
  total = kutil_num_elements(yo);
  if (gr->dtype == TF_FLOAT) {
    p3 g;
    memset(&g, 0, sizeof g);
    g.n = in->dims[0];
    g.d = g.od = g.kd = g.sd = 1;
    g.h = in->dims[1];
    g.w = in->dims[2];
    g.c = in->dims[3];
    g.oh = oh;
    g.ow = ow;
    g.kh = ks[1];
    g.kw = ks[2];
    g.sh = st[1];
    g.sw = st[2];
    g.ph = ph;
    g.pw = pw;
    pf_run(k, &g, PF_MAXGG, in, yo, gr, out);
    return;
  }
  {
    const int64_t H = in->dims[1], W = in->dims[2], C = in->dims[3];
    for (o = 0; o < total; o++) {
      int64_t c = o % C, r = o / C, x = r % ow, y = (r / ow) % oh, bb = r / ow / oh;
      int64_t y0 = y * st[1] - ph, x0 = x * st[2] - pw, y1 = y0 + ks[1], x1 = x0 + ks[2], yy, xx;
      long double mv = ldv(yo, o);
      int found = 0;
      if (y0 < 0) y0 = 0;
      if (x0 < 0) x0 = 0;
      if (y1 > H) y1 = H;
      if (x1 > W) x1 = W;
      for (yy = y0; yy < y1 && !found; yy++) {
        for (xx = x0; xx < x1; xx++) {
          int64_t idx = ((bb * H + yy) * W + xx) * C + c;
          if (ldv(in, idx) == mv) {
            copy_elem(out, o, gr, idx);
            found = 1;
            break;
          }
        }
      }
    }
  }
}

static void mpgg_compute(tfe_kernel_context* k) {
  const int64_t *ks = NULL, *st = NULL;
  int nks = 0, nst = 0;
  if (!kutil_attr_int32_list(k, "ksize", &ks, &nks) ||
      !kutil_attr_int32_list(k, "strides", &st, &nst)) {
    return;
  }
  mpgg_run(k, ks, nks, st, nst);
}

static int read_list4(tfe_kernel_context* k, const TF_Tensor* t, const char* what, int64_t* v) {
  int64_t n = kutil_num_elements(t), i;
  kutil_shape_buf sb;
  if (t->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be 1-D, got %s", what, kutil_tshape(t, &sb));
    return -1;
  }
  for (i = 0; i < n && i < 4; i++) v[i] = kutil_get_int(t, i);
  return (int)(n > 4 ? 5 : n);
}

static void mpgg_v2_compute(tfe_kernel_context* k) {
  int64_t ks[4] = {0}, st[4] = {0};
  int nks = read_list4(k, k->inputs[3], "ksize", ks), nst;
  if (nks < 0) return;
  nst = read_list4(k, k->inputs[4], "strides", st);
  if (nst < 0) return;
  mpgg_run(k, ks, nks, st, nst);
}

/* ---- MaxPoolGradWithArgmax ---- */

static void mpg_argmax_compute(tfe_kernel_context* k) {
  const TF_Tensor *in = k->inputs[0], *gr = k->inputs[1], *am = k->inputs[2];
  const int64_t *ks = NULL, *st = NULL;
  int nks = 0, nst = 0, inc = kutil_attr_bool(k, "include_batch_in_index", 0);
  nn_padding padding = pad_attr(k);
  int64_t oh, ow, ph, pw, want[4], total, o, nin, per;
  kutil_shape_buf a, b;
  TF_Tensor* out;
  if (!kutil_attr_int32_list(k, "ksize", &ks, &nks) ||
      !kutil_attr_int32_list(k, "strides", &st, &nst)) {
    return;
  }
  if (nks != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window ksize field must specify 4 dimensions");
    return;
  }
  if (nst != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window stride field must specify 4 dimensions");
    return;
  }
  if (ks[0] != 1 || st[0] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Pooling is not yet supported on the batch dimension.");
    return;
  }
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "tensor_in must be 4-dimensional");
    return;
  }
  if (ks[1] <= 0 || ks[2] <= 0 || ks[3] != 1 || st[3] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "MaxPooling supports exactly one of pooling across depth or "
               "pooling across width/height.");
    return;
  }
  if (!nn_out_size(k, in->dims[1], ks[1], 1, st[1], padding, 0, 0, &oh, &ph) ||
      !nn_out_size(k, in->dims[2], ks[2], 1, st[2], padding, 0, 0, &ow, &pw)) {
    return;
  }
  want[0] = in->dims[0];
  want[1] = oh;
  want[2] = ow;
  want[3] = in->dims[3];
  if (!dims_equal(want, gr, 4)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected grad shape to be %s, but got %s",
               kutil_shape_str(want, 4, a.s, sizeof a.s), kutil_tshape(gr, &b));
    return;
  }
  if (!dims_equal(want, am, 4)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Expected argmax shape to be %s, but got %s",
               kutil_shape_str(want, 4, a.s, sizeof a.s), kutil_tshape(am, &b));
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, gr->dtype, in->dims, 4);
  if (out == NULL) return;
  zero_tensor(out);
  nin = kutil_num_elements(out);
  total = kutil_num_elements(gr);
  /* Nothing to scatter (and the dims of an empty tensor may multiply past
   * int64). */
  if (nin == 0 || total == 0) return;
  per = oh * ow * in->dims[3];
  if (gr->dtype == TF_FLOAT) {
    const int64_t* ap = (const int64_t*)kutil_data(am);
    const float* gp = (const float*)kutil_data(gr);
    float* op = (float*)kutil_data(out);
    const int64_t stride = nin / (in->dims[0] > 0 ? in->dims[0] : 1);
    int64_t bb, base = 0, lim = inc ? nin : stride;
    for (bb = 0, o = 0; o < total; bb++, base += inc ? 0 : stride) {
      int64_t oe = o + per;
      for (; o < oe; o++) {
        int64_t idx = ap[o];
        if (idx < 0 || idx >= lim) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Received out-of-range argmax value: %lld, expected range is [0, %lld)",
                     (long long)idx, (long long)lim);
          return;
        }
        op[base + idx] += gp[o];
      }
    }
    (void)bb;
    return;
  }
  for (o = 0; o < total; o++) {
    int64_t idx = kutil_get_int(am, o);
    if (!inc) idx += (o / per) * (nin / (in->dims[0] > 0 ? in->dims[0] : 1));
    if (idx < 0 || idx >= nin) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Received out-of-range argmax value: %lld, expected "
                 "range is [0, %lld)", (long long)kutil_get_int(am, o),
                 (long long)(inc ? nin : nin / (in->dims[0] > 0 ? in->dims[0] : 1)));
      return;
    }
    add_elem(out, idx, gr, o);
  }
}

/* ---- Dilation2DBackpropInput / Filter ---- */

typedef struct dil_job {
  const float *x, *f;
  int64_t H, W, C, KH, KW, oh, ow, sh, sw, rh, rw, pt, pl;
  int mode;
  int64_t* at; /* per output element: the input pixel (mode 0) or filter
                  tap (mode 1) that gets its gradient, -1 for none */
} dil_job;

KUTIL_CLONES static void dil_find(void* arg, int64_t p0, int64_t p1) {
  const dil_job* j = (const dil_job*)arg;
  const int64_t C = j->C;
  float cur[64];
  int64_t pos, c0, c, kh, kw;
  for (pos = p0; pos < p1; pos++) {
    int64_t ow = pos % j->ow, oh = (pos / j->ow) % j->oh, bb = pos / j->ow / j->oh;
    int64_t h0 = oh * j->sh - j->pt, w0 = ow * j->sw - j->pl;
    int64_t hs = h0 < 0 ? 0 : h0, ws = w0 < 0 ? 0 : w0;
    int64_t* at = j->at + pos * C;
    for (c0 = 0; c0 < C; c0 += 64) {
      int64_t cn = C - c0 < 64 ? C - c0 : 64;
      int first = 1;
      for (c = 0; c < cn; c++) {
        if (j->mode == 1) {
          at[c0 + c] = 0;
        } else {
          at[c0 + c] = hs < j->H && ws < j->W ? (bb * j->H + hs) * j->W + ws : -1;
        }
      }
      for (kh = 0; kh < j->KH; kh++) {
        int64_t h = h0 + kh * j->rh;
        if (h < 0 || h >= j->H) continue;
        for (kw = 0; kw < j->KW; kw++) {
          int64_t w = w0 + kw * j->rw, pix, tp, who;
          const float *xp, *fp;
          if (w < 0 || w >= j->W) continue;
          pix = (bb * j->H + h) * j->W + w;
          tp = kh * j->KW + kw;
          who = j->mode == 0 ? pix : tp;
          xp = j->x + pix * C + c0;
          fp = j->f + tp * C + c0;
          for (c = 0; c < cn; c++) {
            float v = xp[c] + fp[c];
            if (first || v > cur[c]) {
              cur[c] = v;
              at[c0 + c] = who;
            }
          }
          first = 0;
        }
      }
      if (first && (j->KH == 0 || j->KW == 0)) {
        for (c = 0; c < cn; c++) at[c0 + c] = -1;
      }
    }
  }
}

static void dil_backprop(tfe_kernel_context* k, int mode) {
  const TF_Tensor *in = k->inputs[0], *fl = k->inputs[1], *ob = k->inputs[2];
  const int64_t *st = NULL, *rt = NULL;
  int nst = 0, nrt = 0, i;
  nn_padding padding = pad_attr(k);
  int64_t od[4], pad[2], total, o;
  kutil_shape_buf a, b;
  TF_Tensor* out;
  if (!kutil_attr_int32_list(k, "strides", &st, &nst) ||
      !kutil_attr_int32_list(k, "rates", &rt, &nrt)) {
    return;
  }
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4-dimensional%s", kutil_tshape(in, &a));
    return;
  }
  if (fl->num_dims != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "filter must be 3-dimensional: %s", kutil_tshape(fl, &a));
    return;
  }
  if (nst != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window stride field must specify 4 dimensions");
    return;
  }
  if (st[0] != 1 || st[3] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Current implementation does not yet support strides in the batch and depth "
               "dimensions.");
    return;
  }
  if (nrt != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input stride (atrous rate) field must specify 4 dimensions");
    return;
  }
  if (rt[0] != 1 || rt[3] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED, "Rate is only supported across spatial dimensions.");
    return;
  }
  if (in->dims[3] != fl->dims[2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input and filter must have the same depth: %lld vs %lld",
               (long long)in->dims[3], (long long)fl->dims[2]);
    return;
  }
  for (i = 0; i < 2; i++) {
    int64_t eff = fl->dims[i] + (fl->dims[i] - 1) * (rt[1 + i] - 1);
    if (st[1 + i] <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Stride must be > 0, but got %lld", (long long)st[1 + i]);
      return;
    }
    if (eff < 0) eff = 0;
    if (!nn_out_size(k, in->dims[1 + i], eff, 1, st[1 + i], padding, 0, 0, &od[1 + i], &pad[i])) {
      return;
    }
  }
  od[0] = in->dims[0];
  od[3] = in->dims[3];
  if (!dims_equal(od, ob, 4)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "out_backprop has incompatible size.");
    (void)b;
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, in->dtype, mode == 0 ? in->dims : fl->dims,
                                mode == 0 ? 4 : 3);
  if (out == NULL) return;
  zero_tensor(out);
  total = kutil_num_elements(ob);
  if (in->dtype == TF_FLOAT && total > 0 && in->dims[3] > 0) {
    /* float32: the winners of all positions are found on the pool
     * (channels innermost), then the gradients are added in order */
    dil_job j;
    const int64_t C = in->dims[3];
    const float* g = (const float*)kutil_data(ob);
    float* y = (float*)kutil_data(out);
    int64_t e;
    j.x = (const float*)kutil_data(in);
    j.f = (const float*)kutil_data(fl);
    j.H = in->dims[1];
    j.W = in->dims[2];
    j.C = C;
    j.KH = fl->dims[0];
    j.KW = fl->dims[1];
    j.oh = od[1];
    j.ow = od[2];
    j.sh = st[1];
    j.sw = st[2];
    j.rh = rt[1];
    j.rw = rt[2];
    j.pt = pad[0];
    j.pl = pad[1];
    j.mode = mode;
    j.at = (int64_t*)tfe_malloc((size_t)total * sizeof(int64_t));
    if (j.at == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Dilation2D backprop");
      return;
    }
    tfe_parallel_for(tfe_kernel_threadpool(k), total / C, 16, dil_find, &j);
    for (e = 0; e < total; e++) {
      if (j.at[e] >= 0) y[j.at[e] * C + e % C] += g[e];
    }
    tfe_free(j.at);
    return;
  }
  {
    const int64_t H = in->dims[1], W = in->dims[2], C = in->dims[3];
    const int64_t KH = fl->dims[0], KW = fl->dims[1];
    const int fp = !is_int_dtype(in->dtype);
    for (o = 0; o < total; o++) {
      int64_t c = o % C, r = o / C;
      int64_t ow = r % od[2], oh = (r / od[2]) % od[1], bb = r / od[2] / od[1];
      int64_t h0 = oh * st[1] - pad[0], w0 = ow * st[2] - pad[1], kh, kw;
      int64_t hmax = h0 < 0 ? 0 : h0, wmax = w0 < 0 ? 0 : w0, khm = 0, kwm = 0;
      long double cur = -LDBL_MAX;
      int first = 1;
      for (kh = 0; kh < KH; kh++) {
        int64_t h = h0 + kh * rt[1];
        if (h < 0 || h >= H) continue;
        for (kw = 0; kw < KW; kw++) {
          int64_t w = w0 + kw * rt[2];
          long double v;
          if (w < 0 || w >= W) continue;
          v = ldv(in, ((bb * H + h) * W + w) * C + c) + ldv(fl, (kh * KW + kw) * C + c);
          if (fp) {
            /* the sum in the element type */
            if (in->dtype == TF_FLOAT) v = (float)v;
            if (in->dtype == TF_DOUBLE) v = (double)v;
            if (in->dtype == TF_HALF) v = kutil_f16_to_f32(kutil_f32_to_f16((float)v));
            if (in->dtype == TF_BFLOAT16) v = kutil_bf16_to_f32(kutil_f32_to_bf16((float)v));
          }
          if (first || v > cur) {
            cur = v;
            hmax = h;
            wmax = w;
            khm = kh;
            kwm = kw;
            first = 0;
          }
        }
      }
      if (first && (KH == 0 || KW == 0)) continue;
      if (mode == 0) {
        if (hmax < H && wmax < W) add_elem(out, ((bb * H + hmax) * W + wmax) * C + c, ob, o);
      } else {
        add_elem(out, (khm * KW + kwm) * C + c, ob, o);
      }
    }
  }
}

static void dil_input_compute(tfe_kernel_context* k) { dil_backprop(k, 0); }
static void dil_filter_compute(tfe_kernel_context* k) { dil_backprop(k, 1); }

/* ---- registration ---- */

void tfe_register_cpu_nn_grad_kernels(void) {
  static const TF_DataType kF[] = {TF_FLOAT};
  static const TF_DataType kHBF[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT};
  static const TF_DataType kHFD[] = {TF_HALF, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType kAll4[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType kBF[] = {TF_BFLOAT16, TF_FLOAT};
  static const TF_DataType kReal[] = {TF_FLOAT,  TF_DOUBLE, TF_INT32,  TF_UINT8,
                                      TF_INT16,  TF_INT8,   TF_INT64,  TF_BFLOAT16,
                                      TF_UINT16, TF_HALF,   TF_UINT32, TF_UINT64};
  static const TF_DataType kI64[] = {TF_INT64};
  tfe_kutil_register("FusedBatchNormGrad", fbn_grad_compute, "T", kF, 1, NULL, NULL, 0);
  tfe_kutil_register("FusedBatchNormGradV2", fbn_grad_compute, "T", kHBF, 3, "U", kF, 1);
  tfe_kutil_register("FusedBatchNormGradV3", fbn_grad_compute, "T", kHBF, 3, "U", kF, 1);
  tfe_kutil_register("Conv3DBackpropInput", c3_input_v1, "T", kHFD, 3, NULL, NULL, 0);
  tfe_kutil_register("Conv3DBackpropFilter", c3_filter_v1, "T", kHFD, 3, NULL, NULL, 0);
  tfe_kutil_register("Conv3DBackpropFilterV2", c3_filter_v2, "T", kAll4, 4, NULL, NULL, 0);
  tfe_kutil_register("MaxPool3DGrad", max_pool3d_grad_compute, "T", kBF, 2, "TInput", kBF, 2);
  tfe_kutil_register("MaxPool3DGradGrad", max_pool3d_grad_grad_compute, "T", kBF, 2, NULL, NULL,
                     0);
  tfe_kutil_register("AvgPool3DGrad", avg_pool3d_grad_compute, "T", kBF, 2, NULL, NULL, 0);
  tfe_kutil_register("MaxPoolGradGrad", mpgg_compute, "T", kReal, KUTIL_COUNT(kReal), NULL, NULL,
                     0);
  tfe_kutil_register("MaxPoolGradGradV2", mpgg_v2_compute, "T", kReal, KUTIL_COUNT(kReal), NULL,
                     NULL, 0);
  tfe_kutil_register("MaxPoolGradWithArgmax", mpg_argmax_compute, "T", kReal, KUTIL_COUNT(kReal),
                     "Targmax", kI64, 1);
  tfe_kutil_register("Dilation2DBackpropInput", dil_input_compute, "T", kReal, KUTIL_COUNT(kReal),
                     NULL, NULL, 0);
  tfe_kutil_register("Dilation2DBackpropFilter", dil_filter_compute, "T", kReal,
                     KUTIL_COUNT(kReal), NULL, NULL, 0);
}
