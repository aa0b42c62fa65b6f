/* Softmax cross-entropy CPU kernels: SparseSoftmaxCrossEntropyWithLogits
 * (integer labels) and SoftmaxCrossEntropyWithLogits (label distributions,
 * broadcast between logits and labels as TF allows). Both return the
 * per-row loss and the gradient softmax(logits) - labels; rows are
 * computed with the max subtracted first: float rows step by step in
 * float as TensorFlow's CPU kernel does (its exp/log and summation order,
 * see nn_tf_expf in nn_common.h), so losses print TF's digits; the other
 * types in double. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_common.h"

void tfe_register_nn_xent_kernels(void);

/* Loss of one row and its gradient, given a label accessor. */
static double xent_row(const double* l, int64_t C, const double* lab,
                       int64_t label, double* grad) {
  double mx = -INFINITY, sum = 0.0, loss = 0.0, lse;
  int64_t c;
  for (c = 0; c < C; c++) mx = l[c] > mx ? l[c] : mx;
  for (c = 0; c < C; c++) sum += exp(l[c] - mx);
  lse = log(sum);
  for (c = 0; c < C; c++) {
    double t = lab != NULL ? lab[c] : (c == label ? 1.0 : 0.0);
    double logp = l[c] - mx - lse;
    if (t != 0.0) loss -= t * logp;
    grad[c] = exp(logp) - t;
  }
  return loss;
}

/* A float row as TF evaluates it: shifted = l - max, sum of exp(shifted)
 * (a reduction over the row), loss = sum(labels * (log(sum) - shifted))
 * for label distributions (log over the [B] sums: packet positions are
 * the first B / 8 * 8 rows), log(sum) - shifted[label] with libm's log
 * for a class index, gradient exp(shifted) / sum - labels (an elementwise
 * pass over all B * C values). sh and tmp hold C floats. */
static double xent_row_f32(const double* l, int64_t C, const double* lab,
                           int64_t label, double* grad, float* sh, float* tmp,
                           int64_t r, int64_t B) {
  float mx = -INFINITY, sum, loss;
  int64_t c, row_vec = C / 8 * 8, flat_vec = (B * C) / 8 * 8;
  for (c = 0; c < C; c++) {
    float v = (float)l[c];
    if (v > mx || isnan(v)) mx = v;
  }
  for (c = 0; c < C; c++) sh[c] = (float)l[c] - mx;
  for (c = 0; c < C; c++) tmp[c] = nn_tf_expf(sh[c], c, row_vec);
  sum = nn_tf_sumf(tmp, r * C, C);
  if (lab != NULL) {
    float lse = nn_tf_logf(sum, r, B / 8 * 8);
    for (c = 0; c < C; c++) tmp[c] = (float)lab[c] * (lse - sh[c]);
    loss = nn_tf_sumf(tmp, r * C, C);
  } else {
    loss = logf(sum) - sh[label];
  }
  for (c = 0; c < C; c++) {
    float g = nn_tf_expf(sh[c], r * C + c, flat_vec) / sum;
    if (lab != NULL) {
      g = g - (float)lab[c];
    } else if (c == label) {
      g = g - 1.0f;
    }
    grad[c] = g;
  }
  return loss;
}

static void sparse_xent_compute(tfe_kernel_context* k) {
  const TF_Tensor* lg = k->inputs[0];
  const TF_Tensor* lb = k->inputs[1];
  kutil_shape_buf a, b;
  int64_t B, C, r;
  int owned = 0;
  double *lw = NULL, *loss = NULL, *grad = NULL;
  TF_Tensor *lo, *bp;
  if (lg->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "logits must be 2-D, but got shape %s",
               kutil_tshape(lg, &a));
    return;
  }
  if (lb->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "labels must be 1-D, but got shape %s",
               kutil_tshape(lb, &a));
    return;
  }
  if (lg->dims[0] != lb->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "logits and labels must have the same first dimension, got "
               "logits shape %s and labels shape %s",
               kutil_tshape(lg, &a), kutil_tshape(lb, &b));
    return;
  }
  B = lg->dims[0];
  C = lg->dims[1];
  if (C == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Must have at least one class, but got logits shape %s",
               kutil_tshape(lg, &a));
    return;
  }
  for (r = 0; r < B; r++) {
    int64_t v = kutil_get_int(lb, r);
    if (v < 0 || v >= C) {
      char vals[256];
      size_t len = 0;
      int64_t i;
      vals[0] = '\0';
      for (i = 0; i < B && i < 10 && len < sizeof vals; i++) {
        len += (size_t)snprintf(vals + len, sizeof vals - len, i ? " %lld" : "%lld",
                                (long long)kutil_get_int(lb, i));
      }
      if (B > 10 && len < sizeof vals) snprintf(vals + len, sizeof vals - len, "...");
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Received a label value of %lld which is outside the valid "
                 "range of [0, %lld).  Label values: %s",
                 (long long)v, (long long)C, vals);
      return;
    }
  }
  lo = tfe_kernel_alloc_output(k, 0, lg->dtype, &B, 1);
  bp = lo ? tfe_kernel_alloc_output(k, 1, lg->dtype, lg->dims, 2) : NULL;
  if (bp == NULL) return;
  lw = (double*)nn_to_work(lg, 1, &owned);
  loss = (double*)tfe_malloc(sizeof(double) * (size_t)(B > 0 ? B : 1));
  grad = (double*)tfe_malloc(sizeof(double) * (size_t)(B * C > 0 ? B * C : 1));
  if (lw == NULL || loss == NULL || grad == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               "SparseSoftmaxCrossEntropyWithLogits");
    goto done;
  }
  if (lg->dtype == TF_FLOAT) {
    float* fw = (float*)tfe_malloc(sizeof(float) * (size_t)(2 * C));
    if (fw == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 "SparseSoftmaxCrossEntropyWithLogits");
      goto done;
    }
    for (r = 0; r < B; r++) {
      loss[r] = xent_row_f32(lw + r * C, C, NULL, kutil_get_int(lb, r),
                             grad + r * C, fw, fw + C, r, B);
    }
    tfe_free(fw);
  } else {
    for (r = 0; r < B; r++) {
      loss[r] = xent_row(lw + r * C, C, NULL, kutil_get_int(lb, r), grad + r * C);
    }
  }
  nn_from_work(lo, loss, 1, B);
  nn_from_work(bp, grad, 1, B * C);
done:
  if (owned) tfe_free(lw);
  tfe_free(loss);
  tfe_free(grad);
}

static void xent_compute(tfe_kernel_context* k) {
  const TF_Tensor* lg = k->inputs[0];
  const TF_Tensor* lb = k->inputs[1];
  kutil_shape_buf a, b;
  int64_t od[2], B, C, r, c;
  int o1 = 0, o2 = 0, nd, d;
  double *lw = NULL, *tw = NULL, *loss = NULL, *grad = NULL, *lrow = NULL,
         *trow = NULL;
  TF_Tensor *lo, *bp;
  int64_t ls[2] = {0, 0}, ts[2] = {0, 0}; /* broadcast strides (rows, cols) */
  nd = lg->num_dims > lb->num_dims ? lg->num_dims : lb->num_dims;
  if (nd > 2 || lg->num_dims == 0 || lb->num_dims == 0) {
    int same = lg->num_dims == lb->num_dims;
    for (d = 0; same && d < lg->num_dims; d++) same = lg->dims[d] == lb->dims[d];
    if (!same && nd > 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "logits and labels must be either 2-dimensional, or "
                 "broadcasted to be 2-dimensional");
      return;
    }
  }
  for (d = 0; d < nd; d++) {
    int dl = d - (nd - lg->num_dims), dt = d - (nd - lb->num_dims);
    int64_t x = dl >= 0 ? lg->dims[dl] : 1, y = dt >= 0 ? lb->dims[dt] : 1;
    if (x != y && x != 1 && y != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "logits and labels must be broadcastable: logits_size=%s "
                 "labels_size=%s",
                 kutil_tshape(lg, &a), kutil_tshape(lb, &b));
      return;
    }
  }
  if (nd != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "logits and labels must be either 2-dimensional, or "
               "broadcasted to be 2-dimensional");
    return;
  }
  for (d = 0; d < 2; d++) {
    int dl = d - (2 - lg->num_dims), dt = d - (2 - lb->num_dims);
    int64_t x = dl >= 0 ? lg->dims[dl] : 1, y = dt >= 0 ? lb->dims[dt] : 1;
    od[d] = x == 1 ? y : x;
    ls[d] = x == 1 ? 0 : 1;
    ts[d] = y == 1 ? 0 : 1;
  }
  B = od[0];
  C = od[1];
  lo = tfe_kernel_alloc_output(k, 0, lg->dtype, &B, 1);
  bp = lo ? tfe_kernel_alloc_output(k, 1, lg->dtype, od, 2) : NULL;
  if (bp == NULL) return;
  lw = (double*)nn_to_work(lg, 1, &o1);
  tw = (double*)nn_to_work(lb, 1, &o2);
  loss = (double*)tfe_malloc(sizeof(double) * (size_t)(B > 0 ? B : 1));
  grad = (double*)tfe_malloc(sizeof(double) * (size_t)(B * C > 0 ? B * C : 1));
  lrow = (double*)tfe_malloc(sizeof(double) * (size_t)(C > 0 ? C : 1));
  trow = (double*)tfe_malloc(sizeof(double) * (size_t)(C > 0 ? C : 1));
  if (lw == NULL || tw == NULL || loss == NULL || grad == NULL ||
      lrow == NULL || trow == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "out of memory in SoftmaxCrossEntropyWithLogits");
    goto done;
  }
  {
    /* Row/column strides of each operand in its own (<= 2-D) layout. */
    int64_t lcols = lg->num_dims == 2 ? lg->dims[1] : lg->num_dims == 1 ? lg->dims[0] : 1;
    int64_t tcols = lb->num_dims == 2 ? lb->dims[1] : lb->num_dims == 1 ? lb->dims[0] : 1;
    float* fw = NULL;
    if (lg->dtype == TF_FLOAT && C > 0) {
      fw = (float*)tfe_malloc(sizeof(float) * (size_t)(2 * C));
      if (fw == NULL) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
                   "out of memory in SoftmaxCrossEntropyWithLogits");
        goto done;
      }
    }
    for (r = 0; r < B; r++) {
      for (c = 0; c < C; c++) {
        lrow[c] = lw[(ls[0] ? r : 0) * lcols + (ls[1] ? c : 0)];
        trow[c] = tw[(ts[0] ? r : 0) * tcols + (ts[1] ? c : 0)];
      }
      loss[r] = fw != NULL
                    ? xent_row_f32(lrow, C, trow, -1, grad + r * C, fw, fw + C, r, B)
                    : xent_row(lrow, C, trow, -1, grad + r * C);
    }
    tfe_free(fw);
  }
  nn_from_work(lo, loss, 1, B);
  nn_from_work(bp, grad, 1, B * C);
done:
  if (o1) tfe_free(lw);
  if (o2) tfe_free(tw);
  tfe_free(loss);
  tfe_free(grad);
  tfe_free(lrow);
  tfe_free(trow);
}

void tfe_register_nn_xent_kernels(void) {
  static const TF_DataType kT[] = {TF_HALF, TF_BFLOAT16, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType kL[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("SparseSoftmaxCrossEntropyWithLogits",
                     sparse_xent_compute, "T", kT, 4, "Tlabels", kL, 2);
  tfe_kutil_register("SoftmaxCrossEntropyWithLogits", xent_compute, "T", kT,
                     4, NULL, NULL, 0);
}
