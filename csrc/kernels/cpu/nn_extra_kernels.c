/* CPU kernels: nn ops of tf.nn not in the older nn groups.
 *
 * MaxPool3D and AvgPool3D (NDHWC, SAME/VALID): as the 2-D kernels of
 * nn_pool.c, padded positions never count (the max is over the real
 * elements, which replace the running value only when strictly greater;
 * the average divides by the number of real elements). Conv3D (NDHWC):
 * a direct loop over the window, accumulated in double. Dilation2D
 * (grayscale morphological dilation): the max over the window of
 * input + filter, computed in the element type as TF does (integers
 * wrap). IsotonicRegression: pool-adjacent-violators per row, in the
 * output type's precision. Floating types work in double and are rounded
 * once at the end unless said otherwise. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_common.h"

void tfe_register_cpu_nn_extra_kernels(void);

static const char* str_attr(const tfe_kernel_context* k, const char* name, const char* dflt) {
  const char* s = NULL;
  size_t len = 0;
  if (k->attrs == NULL || !tfe_attrs_get_string(k->attrs, name, &s, &len, NULL)) return dflt;
  return s;
}

static nn_padding padding_attr(const tfe_kernel_context* k) {
  return strcmp(str_attr(k, "padding", "VALID"), "SAME") == 0 ? NN_PAD_SAME : NN_PAD_VALID;
}

/* Lowest finite value of a floating dtype (TF's NumTraits<T>::lowest()). */
static double lowest_of(TF_DataType dt) {
  switch (dt) {
    case TF_HALF: return -65504.0;
    case TF_BFLOAT16: return -3.38953138925153547590470800371487866880e38;
    case TF_FLOAT: return -FLT_MAX;
    default: return -DBL_MAX;
  }
}

/* ---- MaxPool3D / AvgPool3D ---- */

static void pool3d_compute(tfe_kernel_context* k, int is_max) {
  const TF_Tensor* in = k->inputs[0];
  const int64_t *ks = NULL, *st = NULL;
  int nks = 0, nst = 0, i, ci, owned = 0;
  int64_t od[5], pad[3], total, o;
  nn_padding padding = padding_attr(k);
  const double* x;
  double* y;
  TF_Tensor* out;
  if (!kutil_attr_int32_list(k, "ksize", &ks, &nks) ||
      !kutil_attr_int32_list(k, "strides", &st, &nst)) {
    return;
  }
  if (nks != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window ksize field must specify 5 dimensions");
    return;
  }
  if (nst != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window stride field must specify 5 dimensions");
    return;
  }
  ci = strcmp(str_attr(k, "data_format", "NDHWC"), "NCDHW") == 0 ? 1 : 4;
  if (ks[0] != 1 || st[0] != 1 || ks[ci] != 1 || st[ci] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Pooling is not yet supported on the batch nor channel dimension.");
    return;
  }
  if (strcmp(str_attr(k, "data_format", "NDHWC"), "NDHWC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Default Pooling3DOp only supports NDHWC on device type CPU");
    return;
  }
  for (i = 1; i < 4; i++) {
    if (ks[i] <= 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Sliding window ksize field must have non-negative dimensions");
      return;
    }
  }
  if (in->num_dims != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "tensor_in must be 5-dimensional");
    return;
  }
  od[0] = in->dims[0];
  od[4] = in->dims[4];
  for (i = 0; i < 3; i++) {
    if (!nn_out_size(k, in->dims[1 + i], ks[1 + i], 1, st[1 + i], padding, 0, 0, &od[1 + i],
                     &pad[i])) {
      return;
    }
  }
  out = tfe_kernel_alloc_output(k, 0, in->dtype, od, 5);
  if (out == NULL) return;
  total = kutil_num_elements(out);
  if (total == 0) return;
  x = (const double*)nn_to_work(in, 1, &owned);
  y = (double*)tfe_malloc((size_t)total * sizeof(double));
  if (x == NULL || y == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", is_max ? "MaxPool3D" : "AvgPool3D");
    goto done;
  }
  {
    const int64_t D = in->dims[1], H = in->dims[2], W = in->dims[3], C = in->dims[4];
    const double lowest = lowest_of(in->dtype);
    for (o = 0; o < total; o++) {
      int64_t c = o % C, r = o / C;
      int64_t ow = r % od[3], oh = (r / od[3]) % od[2], odp = (r / od[3] / od[2]) % od[1];
      int64_t b = r / od[3] / od[2] / od[1];
      int64_t d0 = odp * st[1] - pad[0], h0 = oh * st[2] - pad[1], w0 = ow * st[3] - pad[2];
      int64_t d1 = d0 + ks[1], h1 = h0 + ks[2], w1 = w0 + ks[3], d, h, w, count = 0;
      double acc = is_max ? lowest : 0.0;
      if (d0 < 0) d0 = 0;
      if (h0 < 0) h0 = 0;
      if (w0 < 0) w0 = 0;
      if (d1 > D) d1 = D;
      if (h1 > H) h1 = H;
      if (w1 > W) w1 = W;
      for (d = d0; d < d1; d++) {
        for (h = h0; h < h1; h++) {
          for (w = w0; w < w1; w++) {
            double v = x[(((b * D + d) * H + h) * W + w) * C + c];
            if (is_max) {
              if (v > acc) acc = v;
            } else {
              acc += v;
            }
            count++;
          }
        }
      }
      y[o] = is_max ? acc : acc / (double)(count > 0 ? count : 1);
    }
  }
  nn_from_work(out, y, 1, total);
done:
  if (owned) tfe_free((void*)x);
  tfe_free(y);
}

static void max_pool3d_compute(tfe_kernel_context* k) { pool3d_compute(k, 1); }
static void avg_pool3d_compute(tfe_kernel_context* k) { pool3d_compute(k, 0); }

/* ---- Conv3D ---- */

static void conv3d_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* fl = k->inputs[1];
  const int64_t *st = NULL, *dl = NULL;
  int nst = 0, ndl = 0, i, o1 = 0, o2 = 0;
  int64_t od[5], pad[3], total, o;
  nn_padding padding = padding_attr(k);
  kutil_shape_buf b;
  const double *x = NULL, *f = NULL;
  double* y = NULL;
  TF_Tensor* out;
  if (!kutil_attr_int32_list(k, "strides", &st, &nst) ||
      !kutil_attr_int32_list(k, "dilations", &dl, &ndl)) {
    return;
  }
  if (strcmp(str_attr(k, "data_format", "NDHWC"), "NDHWC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "CPU implementation of Conv3D currently only supports the NHWC tensor format.");
    return;
  }
  if (nst != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window strides field must specify 5 dimensions");
    return;
  }
  if (st[0] != 1 || st[4] != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Current implementation does not yet support strides in the batch and depth "
               "dimensions.");
    return;
  }
  if (st[1] <= 0 || st[2] <= 0 || st[3] <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Spatial strides should be larger than 0.");
    return;
  }
  if (dl != NULL) {
    if (ndl != 5) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dilation rates field must specify 5 dimensions");
      return;
    }
    if (dl[0] != 1 || dl[4] != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Current implementation does not yet support dilation rates in the batch and "
                 "depth dimensions.");
      return;
    }
    if (dl[1] != 1 || dl[2] != 1 || dl[3] != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "CPU implementation of Conv3D currently only supports dilated rates of 1.");
      return;
    }
  }
  if (in->num_dims != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 5-dimensional%s", kutil_tshape(in, &b));
    return;
  }
  if (fl->num_dims != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "filter must be 5-dimensional%s", kutil_tshape(fl, &b));
    return;
  }
  if (kutil_num_elements(fl) == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "filter must not have zero elements (i.e. all dimensions must be non-zero)");
    return;
  }
  if (in->dims[4] != fl->dims[3]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Number of channels in filter (%lld) must match last dimension of input (%lld)",
               (long long)fl->dims[3], (long long)in->dims[4]);
    return;
  }
  od[0] = in->dims[0];
  od[4] = fl->dims[4];
  for (i = 0; i < 3; i++) {
    if (!nn_out_size(k, in->dims[1 + i], fl->dims[i], 1, st[1 + i], padding, 0, 0, &od[1 + i],
                     &pad[i])) {
      return;
    }
  }
  out = tfe_kernel_alloc_output(k, 0, in->dtype, od, 5);
  if (out == NULL) return;
  total = kutil_num_elements(out);
  if (total == 0) return;
  x = (const double*)nn_to_work(in, 1, &o1);
  f = (const double*)nn_to_work(fl, 1, &o2);
  y = (double*)tfe_malloc((size_t)total * sizeof(double));
  if (x == NULL || f == NULL || y == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Conv3D");
    goto done;
  }
  {
    const int64_t D = in->dims[1], H = in->dims[2], W = in->dims[3], C = in->dims[4];
    const int64_t KD = fl->dims[0], KH = fl->dims[1], KW = fl->dims[2], OC = fl->dims[4];
    for (o = 0; o < total; o++) {
      int64_t oc = o % OC, r = o / OC;
      int64_t ow = r % od[3], oh = (r / od[3]) % od[2], odp = (r / od[3] / od[2]) % od[1];
      int64_t bb = r / od[3] / od[2] / od[1];
      int64_t d0 = odp * st[1] - pad[0], h0 = oh * st[2] - pad[1], w0 = ow * st[3] - pad[2];
      int64_t kd, kh, kw, c;
      double acc = 0.0;
      for (kd = 0; kd < KD; kd++) {
        int64_t d = d0 + kd;
        if (d < 0 || d >= D) continue;
        for (kh = 0; kh < KH; kh++) {
          int64_t h = h0 + kh;
          if (h < 0 || h >= H) continue;
          for (kw = 0; kw < KW; kw++) {
            int64_t w = w0 + kw;
            const double* xp;
            const double* fp;
            if (w < 0 || w >= W) continue;
            xp = x + (((bb * D + d) * H + h) * W + w) * C;
            fp = f + ((kd * KH + kh) * KW + kw) * C * OC + oc;
            for (c = 0; c < C; c++) acc += xp[c] * fp[c * OC];
          }
        }
      }
      y[o] = acc;
    }
  }
  nn_from_work(out, y, 1, total);
done:
  if (o1) tfe_free((void*)x);
  if (o2) tfe_free((void*)f);
  tfe_free(y);
}

/* ---- Conv3DBackpropInputV2 (tf.nn.conv3d_transpose) ---- */

static void conv3d_backprop_input_compute(tfe_kernel_context* k) {
  const char* op = "Conv3DBackpropInputOp";
  const TF_Tensor* sz = k->inputs[0];
  const TF_Tensor* fl = k->inputs[1];
  const TF_Tensor* ob = k->inputs[2];
  const int64_t *st = NULL, *dl = NULL;
  int nst = 0, ndl = 0, i, o1 = 0, o2 = 0;
  int64_t x[5], pad[3], total;
  nn_padding padding = padding_attr(k);
  kutil_shape_buf b;
  const double *f = NULL, *g = NULL;
  double* y = NULL;
  TF_Tensor* out;
  if (!kutil_attr_int32_list(k, "strides", &st, &nst) ||
      !kutil_attr_int32_list(k, "dilations", &dl, &ndl)) {
    return;
  }
  if (strcmp(str_attr(k, "data_format", "NDHWC"), "NDHWC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Conv3DBackpropInputOpV2 only supports NDHWC on the CPU.");
    return;
  }
  if (nst != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Sliding window strides field must specify 5 dimensions");
    return;
  }
  if (st[0] != 1 || st[4] != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Current implementation does not yet support strides in the batch and depth "
               "dimensions.");
    return;
  }
  if (dl != NULL && ndl != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dilation rates field must specify 5 dimensions");
    return;
  }
  if (dl != NULL && (dl[0] != 1 || dl[1] != 1 || dl[2] != 1 || dl[3] != 1 || dl[4] != 1)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Current CPU implementation does not yet support dilation rates larger than 1.");
    return;
  }
  if (sz->num_dims != 1 || sz->dims[0] != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input_sizes must be 1-D with 5 elements, actual shape: %s",
               kutil_tshape(sz, &b));
    return;
  }
  for (i = 0; i < 5; i++) {
    x[i] = kutil_get_int(sz, i);
    if (x[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %d must be >= 0, got %lld", i,
                 (long long)x[i]);
      return;
    }
  }
  if (fl->num_dims != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: filter must be 5-dimensional", op);
    return;
  }
  if (ob->num_dims != 5) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: out_backprop must be 5-dimensional", op);
    return;
  }
  if (x[0] != ob->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: input and out_backprop must have the same batch size, input batch: %lld "
               "outbackprop batch: %lld",
               op, (long long)x[0], (long long)ob->dims[0]);
    return;
  }
  if (fl->dims[4] != ob->dims[4]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: filter and out_backprop must have the same out_depth", op);
    return;
  }
  if (x[4] != fl->dims[3]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: input and filter must have the same depth", op);
    return;
  }
  for (i = 0; i < 3; i++) {
    int64_t o;
    if (!nn_out_size(k, x[1 + i], fl->dims[i], 1, st[1 + i], padding, 0, 0, &o, &pad[i])) return;
    if (o != ob->dims[1 + i]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "%s: Size of out_backprop doesn't match computed: actual = %lld, computed = "
                 "%lld spatial_dim: %d",
                 op, (long long)ob->dims[1 + i], (long long)o, i);
      return;
    }
  }
  out = tfe_kernel_alloc_output(k, 0, fl->dtype, x, 5);
  if (out == NULL) return;
  total = kutil_num_elements(out);
  if (total == 0) return;
  y = (double*)tfe_malloc((size_t)total * sizeof(double));
  f = (const double*)nn_to_work(fl, 1, &o1);
  g = (const double*)nn_to_work(ob, 1, &o2);
  if (y == NULL || f == NULL || g == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Conv3DBackpropInputV2");
    goto done;
  }
  memset(y, 0, (size_t)total * sizeof(double));
  {
    const int64_t D = x[1], H = x[2], W = x[3], C = x[4];
    const int64_t KD = fl->dims[0], KH = fl->dims[1], KW = fl->dims[2], OC = fl->dims[4];
    const int64_t OD = ob->dims[1], OH = ob->dims[2], OW = ob->dims[3];
    int64_t n, od, oh, ow, kd, kh, kw, c, oc;
    for (n = 0; n < x[0]; n++) {
      for (od = 0; od < OD; od++) {
        for (oh = 0; oh < OH; oh++) {
          for (ow = 0; ow < OW; ow++) {
            const double* gp = g + (((n * OD + od) * OH + oh) * OW + ow) * OC;
            for (kd = 0; kd < KD; kd++) {
              int64_t d = od * st[1] - pad[0] + kd;
              if (d < 0 || d >= D) continue;
              for (kh = 0; kh < KH; kh++) {
                int64_t h = oh * st[2] - pad[1] + kh;
                if (h < 0 || h >= H) continue;
                for (kw = 0; kw < KW; kw++) {
                  int64_t w = ow * st[3] - pad[2] + kw;
                  double* yp;
                  const double* fp;
                  if (w < 0 || w >= W) continue;
                  yp = y + (((n * D + d) * H + h) * W + w) * C;
                  fp = f + ((kd * KH + kh) * KW + kw) * C * OC;
                  for (c = 0; c < C; c++) {
                    double acc = 0.0;
                    for (oc = 0; oc < OC; oc++) acc += gp[oc] * fp[c * OC + oc];
                    yp[c] += acc;
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  nn_from_work(out, y, 1, total);
done:
  if (o1) tfe_free((void*)f);
  if (o2) tfe_free((void*)g);
  tfe_free(y);
}

/* ---- Dilation2D ---- */

static int is_float_type(TF_DataType dt) {
  return dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF || dt == TF_BFLOAT16;
}

static int is_unsigned_type(TF_DataType dt) {
  return dt == TF_UINT8 || dt == TF_UINT16 || dt == TF_UINT32 || dt == TF_UINT64;
}

/* a + b in the integer type dt (wrapping), as a sign- or zero-extended
 * int64 (uint64 values above INT64_MAX keep their bits). */
static int64_t int_add(TF_DataType dt, int64_t a, int64_t b) {
  uint64_t s = (uint64_t)a + (uint64_t)b;
  switch (dt) {
    case TF_INT8: return (int8_t)(uint8_t)s;
    case TF_INT16: return (int16_t)(uint16_t)s;
    case TF_INT32: return (int32_t)(uint32_t)s;
    case TF_UINT8: return (uint8_t)s;
    case TF_UINT16: return (uint16_t)s;
    case TF_UINT32: return (uint32_t)s;
    default: return (int64_t)s;
  }
}

static int64_t int_lowest(TF_DataType dt) {
  switch (dt) {
    case TF_INT8: return INT8_MIN;
    case TF_INT16: return INT16_MIN;
    case TF_INT32: return INT32_MIN;
    case TF_INT64: return INT64_MIN;
    default: return 0;
  }
}

static void int_store(TF_Tensor* t, int64_t i, int64_t v) {
  void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_INT8: ((int8_t*)d)[i] = (int8_t)v; break;
    case TF_INT16: ((int16_t*)d)[i] = (int16_t)v; break;
    case TF_INT32: ((int32_t*)d)[i] = (int32_t)v; break;
    case TF_INT64: ((int64_t*)d)[i] = v; break;
    case TF_UINT8: ((uint8_t*)d)[i] = (uint8_t)v; break;
    case TF_UINT16: ((uint16_t*)d)[i] = (uint16_t)v; break;
    case TF_UINT32: ((uint32_t*)d)[i] = (uint32_t)v; break;
    case TF_UINT64: ((uint64_t*)d)[i] = (uint64_t)v; break;
    default: break;
  }
}

static void dilation2d_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* fl = k->inputs[1];
  const int64_t *st = NULL, *rt = NULL;
  int nst = 0, nrt = 0, i, o1 = 0, o2 = 0;
  int64_t od[4], pad[2], total, o;
  nn_padding padding = padding_attr(k);
  kutil_shape_buf b;
  int is_fl = is_float_type(in->dtype), uns = is_unsigned_type(in->dtype);
  const double *x = NULL, *f = NULL;
  double* y = NULL;
  TF_Tensor* out;
  if (!kutil_attr_int32_list(k, "strides", &st, &nst) ||
      !kutil_attr_int32_list(k, "rates", &rt, &nrt)) {
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
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Current implementation does not yet support rates in the batch and depth "
               "dimensions.");
    return;
  }
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4-dimensional%s", kutil_tshape(in, &b));
    return;
  }
  if (fl->num_dims != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "filter must be 3-dimensional: %s", kutil_tshape(fl, &b));
    return;
  }
  if (in->dims[3] != fl->dims[2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input and filter must have the same depth: %lld vs %lld",
               (long long)in->dims[3], (long long)fl->dims[2]);
    return;
  }
  for (i = 0; i < 2; i++) {
    /* TF's effective window: k + (k - 1) * (rate - 1), not checked for
     * sign (a zero-sized filter or rate gives a window of the lowest
     * value everywhere). */
    int64_t eff = fl->dims[i] + (fl->dims[i] - 1) * (rt[1 + i] - 1);
    if (eff < 0) eff = 0;
    if (!nn_out_size(k, in->dims[1 + i], eff, 1, st[1 + i], padding, 0, 0, &od[1 + i],
                     &pad[i])) {
      return;
    }
  }
  od[0] = in->dims[0];
  od[3] = in->dims[3];
  out = tfe_kernel_alloc_output(k, 0, in->dtype, od, 4);
  if (out == NULL) return;
  total = kutil_num_elements(out);
  if (total == 0) return;
  if (is_fl) {
    x = (const double*)nn_to_work(in, 1, &o1);
    f = (const double*)nn_to_work(fl, 1, &o2);
    y = (double*)tfe_malloc((size_t)total * sizeof(double));
    if (x == NULL || f == NULL || y == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Dilation2D");
      goto done;
    }
  }
  {
    const int64_t H = in->dims[1], W = in->dims[2], C = in->dims[3];
    const int64_t KH = fl->dims[0], KW = fl->dims[1];
    const double lowest = lowest_of(in->dtype);
    for (o = 0; o < total; o++) {
      int64_t c = o % C, r = o / C;
      int64_t ow = r % od[2], oh = (r / od[2]) % od[1], bb = r / od[2] / od[1];
      int64_t h0 = oh * st[1] - pad[0], w0 = ow * st[2] - pad[1], kh, kw;
      double accf = lowest;
      int64_t acci = int_lowest(in->dtype);
      for (kh = 0; kh < KH; kh++) {
        int64_t h = h0 + kh * rt[1];
        if (h < 0 || h >= H) continue;
        for (kw = 0; kw < KW; kw++) {
          int64_t w = w0 + kw * rt[2];
          int64_t xi, fi;
          if (w < 0 || w >= W) continue;
          xi = ((bb * H + h) * W + w) * C + c;
          fi = (kh * KW + kw) * C + c;
          if (is_fl) {
            /* the sum rounded to the element type, as TF adds in T */
            double v = x[xi] + f[fi];
            if (in->dtype == TF_FLOAT) v = (float)v;
            if (in->dtype == TF_HALF) v = kutil_f16_to_f32(kutil_f32_to_f16((float)v));
            if (in->dtype == TF_BFLOAT16) v = kutil_bf16_to_f32(kutil_f32_to_bf16((float)v));
            if (v > accf) accf = v;
          } else {
            int64_t v = int_add(in->dtype, kutil_get_int(in, xi), kutil_get_int(fl, fi));
            int greater = uns ? (uint64_t)v > (uint64_t)acci : v > acci;
            if (greater) acci = v;
          }
        }
      }
      if (is_fl) {
        y[o] = accf;
      } else {
        int_store(out, o, acci);
      }
    }
  }
  if (is_fl) nn_from_work(out, y, 1, total);
done:
  if (o1) tfe_free((void*)x);
  if (o2) tfe_free((void*)f);
  tfe_free(y);
}

/* ---- IsotonicRegression ---- */

/* Rounds v to the output type (half and bfloat16 round every step, as
 * TF's arithmetic in those types does; float rounds to float). */
static double iso_round(TF_DataType dt, double v) {
  switch (dt) {
    case TF_FLOAT: return (float)v;
    case TF_HALF: return kutil_f16_to_f32(kutil_f32_to_f16((float)v));
    case TF_BFLOAT16: return kutil_bf16_to_f32(kutil_f32_to_bf16((float)v));
    default: return v;
  }
}

static double iso_input(const TF_Tensor* t, int64_t i) {
  const void* d = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[i]);
    case TF_UINT64: return (double)((const uint64_t*)d)[i];
    default: return (double)kutil_get_int(t, i);
  }
}

/* Pool-adjacent-violators over each row (the last dimension): a new
 * element starts a segment; while the previous segment's mean is strictly
 * below the current one's they merge (sum and count; the mean is
 * sum / count in the output type). The fit is non-increasing; segments
 * numbers each element's block from 0 within its row. */
static void isotonic_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType odt = TF_FLOAT;
  int64_t n = kutil_num_elements(in), len, rows, r, i;
  double *sum = NULL, *y = NULL;
  int64_t *cnt = NULL, *start = NULL;
  TF_Tensor *out, *seg;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, "output_dtype", &odt, NULL);
  out = tfe_kernel_alloc_output(k, 0, odt, in->dims, in->num_dims);
  seg = out ? tfe_kernel_alloc_output(k, 1, TF_INT32, in->dims, in->num_dims) : NULL;
  if (seg == NULL || n == 0) return;
  len = in->num_dims == 0 ? 1 : in->dims[in->num_dims - 1];
  rows = n / len;
  sum = (double*)tfe_malloc(sizeof(double) * (size_t)len);
  cnt = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)len);
  start = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)len);
  y = (double*)tfe_malloc(sizeof(double) * (size_t)n);
  if (sum == NULL || cnt == NULL || start == NULL || y == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in IsotonicRegression");
    goto done;
  }
  for (r = 0; r < rows; r++) {
    int64_t top = 0, s;
    int32_t* sg = (int32_t*)kutil_data(seg) + r * len;
    for (i = 0; i < len; i++) {
      double cs = iso_round(odt, iso_input(in, r * len + i));
      int64_t cc = 1, cst = i;
      while (top > 0 && iso_round(odt, sum[top - 1] / (double)cnt[top - 1]) <
                            iso_round(odt, cs / (double)cc)) {
        top--;
        cs = iso_round(odt, sum[top] + cs);
        cc += cnt[top];
        cst = start[top];
      }
      sum[top] = cs;
      cnt[top] = cc;
      start[top] = cst;
      top++;
    }
    for (s = 0; s < top; s++) {
      double mean = iso_round(odt, sum[s] / (double)cnt[s]);
      for (i = start[s]; i < start[s] + cnt[s]; i++) {
        y[r * len + i] = mean;
        sg[i] = (int32_t)s;
      }
    }
  }
  nn_from_work(out, y, 1, n);
done:
  tfe_free(sum);
  tfe_free(cnt);
  tfe_free(start);
  tfe_free(y);
}

/* ---- DepthwiseConv2dNativeBackpropInput / BackpropFilter ---- */

/* Reads a 1-D int32 sizes input of 4 non-negative values into d. */
static int dw_sizes(tfe_kernel_context* k, const TF_Tensor* t, const char* op, const char* what,
                    int64_t d[4]) {
  int i;
  if (t->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: %s input must be 1-dim, not %d", op, what,
               t->num_dims);
    return 0;
  }
  if (t->dims[0] != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: %s must have 4 elements, got %lld", op, what,
               (long long)t->dims[0]);
    return 0;
  }
  for (i = 0; i < 4; i++) {
    d[i] = kutil_get_int(t, i);
    if (d[i] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Dimension %d must be >= 0, got %lld", i,
                 (long long)d[i]);
      return 0;
    }
  }
  return 1;
}

/* Shared checks: x is the input shape [N,H,W,C], f the filter shape
 * [KH,KW,C,M], ob the out_backprop tensor; fills the window and padding. */
static int dw_geometry(tfe_kernel_context* k, const char* op, const int64_t* x, const int64_t* f,
                       const TF_Tensor* ob, nn_window* w, int64_t* pt, int64_t* pl) {
  int64_t oh, ow;
  if (!nn_read_conv_window(k, op, w, 1)) return 0;
  if (w->dil_h != 1 || w->dil_w != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Current libxsmm and customized CPU implementations do not yet support dilation "
               "rates larger than 1.");
    return 0;
  }
  if (w->stride_h != w->stride_w) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Current implementation only supports equal length strides in the row and "
               "column dimensions.");
    return 0;
  }
  if (ob->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: out_backprop must be 4-dimensional", op);
    return 0;
  }
  if (x[3] != f[2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: input and filter must have the same depth", op);
    return 0;
  }
  if (x[0] != ob->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s: input and out_backprop must have the same batch size",
               op);
    return 0;
  }
  if (f[2] > 0 && f[3] > 0 && ob->dims[3] != f[2] * f[3]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: depth_multiplier * in_depth not equal to out_depth", op);
    return 0;
  }
  if ((f[2] == 0 || f[3] == 0) && ob->dims[3] != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: depth_multiplier * in_depth not equal to out_depth", op);
    return 0;
  }
  if (!nn_out_size(k, x[1], f[0], w->dil_h, w->stride_h, w->padding, w->pad_top, w->pad_bottom,
                   &oh, pt) ||
      !nn_out_size(k, x[2], f[1], w->dil_w, w->stride_w, w->padding, w->pad_left, w->pad_right,
                   &ow, pl)) {
    return 0;
  }
  if (w->padding == NN_PAD_EXPLICIT) {
    *pt = w->pad_top;
    *pl = w->pad_left;
  }
  if (oh != ob->dims[1] || ow != ob->dims[2]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: Size of out_backprop doesn't match computed: actual = %lld, computed = %lld",
               op, (long long)(oh != ob->dims[1] ? ob->dims[1] : ob->dims[2]),
               (long long)(oh != ob->dims[1] ? oh : ow));
    return 0;
  }
  return 1;
}

/* Visits every (input position, filter tap, output position) triple:
 * grad_input (mode 0) or grad_filter (mode 1) accumulates the products,
 * in double. */
static void dw_backprop(tfe_kernel_context* k, int mode) {
  const char* op = mode == 0 ? "DepthwiseConv2DBackpropInput" : "DepthwiseConv2DBackpropFilter";
  const TF_Tensor* a = k->inputs[0]; /* input_sizes or input */
  const TF_Tensor* b = k->inputs[1]; /* filter or filter_sizes */
  const TF_Tensor* ob = k->inputs[2];
  int64_t x[4], f[4], pt = 0, pl = 0, total, i;
  nn_window w;
  kutil_shape_buf sb;
  int o1 = 0, o2 = 0;
  const double *src = NULL, *g = NULL;
  double* y = NULL;
  TF_Tensor* out;
  if (mode == 0) {
    if (!dw_sizes(k, a, op, "input_sizes", x)) return;
    if (b->num_dims != 4) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "filter must be 4-dimensional: %s", kutil_tshape(b, &sb));
      return;
    }
    memcpy(f, b->dims, sizeof f);
  } else {
    if (a->num_dims != 4) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4-dimensional%s", kutil_tshape(a, &sb));
      return;
    }
    memcpy(x, a->dims, sizeof x);
    if (!dw_sizes(k, b, op, "filter_sizes", f)) return;
  }
  memset(&w, 0, sizeof w);
  if (!dw_geometry(k, op, x, f, ob, &w, &pt, &pl)) return;
  out = tfe_kernel_alloc_output(k, 0, ob->dtype, mode == 0 ? x : f, 4);
  if (out == NULL) return;
  total = kutil_num_elements(out);
  if (total == 0) return;
  y = (double*)tfe_malloc((size_t)total * sizeof(double));
  src = (const double*)nn_to_work(mode == 0 ? b : a, 1, &o1);
  g = (const double*)nn_to_work(ob, 1, &o2);
  if (y == NULL || src == NULL || g == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s", op);
    goto done;
  }
  for (i = 0; i < total; i++) y[i] = 0.0;
  {
    const int64_t N = x[0], H = x[1], W = x[2], C = x[3], KH = f[0], KW = f[1], M = f[3];
    const int64_t OH = ob->dims[1], OW = ob->dims[2];
    int64_t n, oh, ow, kh, kw, c, m;
    for (n = 0; n < N; n++) {
      for (oh = 0; oh < OH; oh++) {
        for (ow = 0; ow < OW; ow++) {
          const double* gp = g + ((n * OH + oh) * OW + ow) * C * M;
          for (kh = 0; kh < KH; kh++) {
            int64_t ih = oh * w.stride_h - pt + kh * w.dil_h;
            if (ih < 0 || ih >= H) continue;
            for (kw = 0; kw < KW; kw++) {
              int64_t iw = ow * w.stride_w - pl + kw * w.dil_w;
              int64_t xo, fo;
              if (iw < 0 || iw >= W) continue;
              xo = ((n * H + ih) * W + iw) * C;
              fo = (kh * KW + kw) * C * M;
              for (c = 0; c < C; c++) {
                for (m = 0; m < M; m++) {
                  if (mode == 0) {
                    y[xo + c] += gp[c * M + m] * src[fo + c * M + m];
                  } else {
                    y[fo + c * M + m] += gp[c * M + m] * src[xo + c];
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  nn_from_work(out, y, 1, total);
done:
  if (o1) tfe_free((void*)src);
  if (o2) tfe_free((void*)g);
  tfe_free(y);
}

static void dw_backprop_input_compute(tfe_kernel_context* k) { dw_backprop(k, 0); }
static void dw_backprop_filter_compute(tfe_kernel_context* k) { dw_backprop(k, 1); }

void tfe_register_cpu_nn_extra_kernels(void) {
  static const TF_DataType kMax3[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT};
  static const TF_DataType kFloat[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType kDil[] = {TF_FLOAT,  TF_DOUBLE, TF_INT32,  TF_UINT8,
                                     TF_INT16,  TF_INT8,   TF_INT64,  TF_BFLOAT16,
                                     TF_UINT16, TF_HALF,   TF_UINT32, TF_UINT64};
  tfe_kutil_register("MaxPool3D", max_pool3d_compute, "T", kMax3, KUTIL_COUNT(kMax3), NULL, NULL,
                     0);
  /* TF registers no CPU AvgPool3D for double */
  tfe_kutil_register("AvgPool3D", avg_pool3d_compute, "T", kMax3, KUTIL_COUNT(kMax3), NULL, NULL,
                     0);
  tfe_kutil_register("Conv3D", conv3d_compute, "T", kFloat, KUTIL_COUNT(kFloat), NULL, NULL, 0);
  {
    static const TF_DataType kShape[] = {TF_INT32, TF_INT64};
    tfe_kutil_register("Conv3DBackpropInputV2", conv3d_backprop_input_compute, "T", kFloat,
                       KUTIL_COUNT(kFloat), "Tshape", kShape, 2);
  }
  tfe_kutil_register("Dilation2D", dilation2d_compute, "T", kDil, KUTIL_COUNT(kDil), NULL, NULL,
                     0);
  tfe_kutil_register("DepthwiseConv2dNativeBackpropInput", dw_backprop_input_compute, "T", kFloat,
                     KUTIL_COUNT(kFloat), NULL, NULL, 0);
  tfe_kutil_register("DepthwiseConv2dNativeBackpropFilter", dw_backprop_filter_compute, "T",
                     kFloat, KUTIL_COUNT(kFloat), NULL, NULL, 0);
  tfe_kutil_register("IsotonicRegression", isotonic_compute, "T", kDil, KUTIL_COUNT(kDil),
                     "output_dtype", kFloat, KUTIL_COUNT(kFloat));
}
