/* Pooling CPU kernels (NHWC): MaxPool (SAME/VALID/EXPLICIT) and AvgPool
 * (SAME/VALID). Padded positions never count: the max is over the real
 * elements of a window and the average divides by their number, as in
 * TensorFlow. Values are processed in double (exact for every registered
 * dtype up to 2^53); rows of the output run on the intra-op pool. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/threadpool.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_common.h"

void tfe_register_nn_pool_kernels(void);

typedef struct pool_job {
  int is_max;
  int64_t n, ih, iw, c, oh, ow;
  int64_t kh, kw, sh, sw, pt, pl;
  const double* x;
  double* y;
} pool_job;

static void pool_rows(void* arg, int64_t r0, int64_t r1) {
  const pool_job* j = (const pool_job*)arg;
  int64_t r;
  for (r = r0; r < r1; r++) {
    int64_t b = r / j->oh, oy = r % j->oh, ox, c;
    int64_t y0 = oy * j->sh - j->pt, y1 = y0 + j->kh;
    if (y0 < 0) y0 = 0;
    if (y1 > j->ih) y1 = j->ih;
    for (ox = 0; ox < j->ow; ox++) {
      int64_t x0 = ox * j->sw - j->pl, x1 = x0 + j->kw, yy, xx;
      double* out = j->y + ((b * j->oh + oy) * j->ow + ox) * j->c;
      if (x0 < 0) x0 = 0;
      if (x1 > j->iw) x1 = j->iw;
      for (c = 0; c < j->c; c++) out[c] = j->is_max ? -INFINITY : 0.0;
      for (yy = y0; yy < y1; yy++) {
        for (xx = x0; xx < x1; xx++) {
          const double* in = j->x + ((b * j->ih + yy) * j->iw + xx) * j->c;
          if (j->is_max) {
            for (c = 0; c < j->c; c++) {
              if (in[c] > out[c] || isnan(in[c])) out[c] = in[c];
            }
          } else {
            for (c = 0; c < j->c; c++) out[c] += in[c];
          }
        }
      }
      if (!j->is_max) {
        double cnt = (double)((y1 - y0) * (x1 - x0));
        for (c = 0; c < j->c; c++) out[c] = cnt > 0 ? out[c] / cnt : 0.0;
      }
    }
  }
}

static const char* str_attr(const tfe_kernel_context* k, const char* name,
                            const char* dflt) {
  const char* s = NULL;
  size_t len = 0;
  if (k->attrs == NULL || !tfe_attrs_get_string(k->attrs, name, &s, &len,
                                                NULL)) {
    return dflt;
  }
  return s;
}

static void pool_compute(tfe_kernel_context* k, int is_max) {
  const TF_Tensor* in = k->inputs[0];
  const char* opname = is_max ? "MaxPooling" : "AvgPooling";
  const int64_t *ks = NULL, *st = NULL, *ep = NULL;
  int nks = 0, nst = 0, nep = 0, owned = 0;
  const char* fmt = str_attr(k, "data_format", "NHWC");
  const char* pad = str_attr(k, "padding", "VALID");
  nn_padding padding = strcmp(pad, "SAME") == 0       ? NN_PAD_SAME
                       : strcmp(pad, "EXPLICIT") == 0 ? NN_PAD_EXPLICIT
                                                      : NN_PAD_VALID;
  kutil_shape_buf sb;
  pool_job j;
  int64_t od[4];
  TF_Tensor* out;
  double* yw = NULL;
  if (k->attrs != NULL) {
    tfe_attrs_get_int_list(k->attrs, "ksize", &ks, &nks, NULL);
    tfe_attrs_get_int_list(k->attrs, "strides", &st, &nst, NULL);
    tfe_attrs_get_int_list(k->attrs, "explicit_paddings", &ep, &nep, NULL);
  }
  if (strcmp(fmt, "NHWC") != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Default %sOp only supports NHWC on device type CPU", opname);
    return;
  }
  if (nks != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window ksize field must specify 4 dimensions");
    return;
  }
  if (nst != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window stride field must specify 4 dimensions");
    return;
  }
  if (ks[0] != 1 || st[0] != 1) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "Pooling is not yet supported on the batch dimension.");
    return;
  }
  if (ks[0] <= 0 || ks[1] <= 0 || ks[2] <= 0 || ks[3] <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window ksize must be positive. The specified or "
               "inferred ksize is: %lld,%lld,%lld,%lld",
               (long long)ks[0], (long long)ks[1], (long long)ks[2],
               (long long)ks[3]);
    return;
  }
  if (st[1] <= 0 || st[2] <= 0 || st[3] <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Sliding window stride must be positive.");
    return;
  }
  if (ks[3] != 1 || st[3] != 1) {
    if (is_max && (ks[1] != 1 || ks[2] != 1)) {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "MaxPooling supports exactly one of pooling across depth or "
                 "pooling across width/height.");
    } else {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "%s across the depth dimension is not implemented in tfe",
                 is_max ? "MaxPool" : "AvgPool");
    }
    return;
  }
  if (in->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input must be 4-dimensional: %s",
               kutil_tshape(in, &sb));
    return;
  }
  if (padding == NN_PAD_EXPLICIT) {
    int i;
    if (nep != 8) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "explicit_paddings attribute must contain 8 values, but "
                 "got: %d",
                 nep);
      return;
    }
    for (i = 0; i < 8; i++) {
      if (ep[i] < 0) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "All elements of explicit_paddings must be nonnegative");
        return;
      }
    }
    if (ep[0] || ep[1] || ep[6] || ep[7]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Nonzero explicit padding in the batch or depth dimensions "
                 "is not supported");
      return;
    }
    if (ep[2] >= ks[1] || ep[3] >= ks[1] || ep[4] >= ks[2] ||
        ep[5] >= ks[2]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Padding size must be smaller than the window size");
      return;
    }
  } else if (nep != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "explicit_paddings attribute must be empty if the padding "
               "attribute is not EXPLICIT");
    return;
  }
  memset(&j, 0, sizeof j);
  j.is_max = is_max;
  j.n = in->dims[0];
  j.ih = in->dims[1];
  j.iw = in->dims[2];
  j.c = in->dims[3];
  j.kh = ks[1];
  j.kw = ks[2];
  j.sh = st[1];
  j.sw = st[2];
  if (!nn_out_size(k, j.ih, j.kh, 1, j.sh, padding,
                   padding == NN_PAD_EXPLICIT ? ep[2] : 0,
                   padding == NN_PAD_EXPLICIT ? ep[3] : 0, &j.oh, &j.pt) ||
      !nn_out_size(k, j.iw, j.kw, 1, j.sw, padding,
                   padding == NN_PAD_EXPLICIT ? ep[4] : 0,
                   padding == NN_PAD_EXPLICIT ? ep[5] : 0, &j.ow, &j.pl)) {
    return;
  }
  od[0] = j.n;
  od[1] = j.oh;
  od[2] = j.ow;
  od[3] = j.c;
  out = tfe_kernel_alloc_output(k, 0, in->dtype, od, 4);
  if (out == NULL || kutil_num_elements(out) == 0) return;
  j.x = (const double*)nn_to_work(in, 1, &owned);
  yw = (double*)tfe_malloc((size_t)kutil_num_elements(out) * sizeof(double));
  if (j.x == NULL || yw == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               is_max ? "MaxPool" : "AvgPool");
    goto done;
  }
  j.y = yw;
  tfe_parallel_for(tfe_kernel_threadpool(k), j.n * j.oh,
                   1 + 32768 / (1 + j.ow * j.c * j.kh * j.kw), pool_rows, &j);
  nn_from_work(out, yw, 1, kutil_num_elements(out));
done:
  if (owned) tfe_free((void*)j.x);
  tfe_free(yw);
}

static void max_pool_compute(tfe_kernel_context* k) { pool_compute(k, 1); }
static void avg_pool_compute(tfe_kernel_context* k) { pool_compute(k, 0); }

void tfe_register_nn_pool_kernels(void) {
  static const TF_DataType kMax[] = {TF_HALF,  TF_BFLOAT16, TF_FLOAT,
                                     TF_DOUBLE, TF_INT32,   TF_INT64,
                                     TF_UINT8, TF_INT16,    TF_INT8,
                                     TF_UINT16};
  static const TF_DataType kAvg[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT,
                                     TF_DOUBLE};
  tfe_kutil_register("MaxPool", max_pool_compute, "T", kMax,
                     KUTIL_COUNT(kMax), NULL, NULL, 0);
  tfe_kutil_register("AvgPool", avg_pool_compute, "T", kAvg,
                     KUTIL_COUNT(kAvg), NULL, NULL, 0);
}
