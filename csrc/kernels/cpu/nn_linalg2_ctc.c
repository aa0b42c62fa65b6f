/* CPU kernels for connectionist temporal classification (issue 18,
 * session 8): CTCLoss and CTCGreedyDecoder (float, double), with TF 2.21's
 * conventions: inputs are unnormalized logits [max_time, batch,
 * num_classes], the blank is the last class (CTCLoss) and labels come as a
 * sparse [batch, max_label_len] tensor whose values, in index order, form
 * each batch entry's label sequence.
 *
 * CTCLoss uses Graves' forward/backward variables over the
 * blank-interleaved label sequence, one batch entry per task on the
 * kernel's pool. float runs them in the probability domain, rescaled at
 * every step (falling back to log space for an entry whose probabilities
 * leave double range); double runs in log space and, like TF, evaluates
 * the posterior term of the gradient with a single-precision exp, so
 * double gradients carry float rounding there. */
#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/threadpool.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/nn_linalg2_common.h"

static double lse(double a, double b) {
  if (a == -INFINITY) return b;
  if (b == -INFINITY) return a;
  if (a > b) return a + log1p(exp(b - a));
  return b + log1p(exp(a - b));
}

/* Appends "v0,v1,..." of n ints to buf. */
static void join_ints(char* buf, size_t cap, const int* v, int64_t n) {
  size_t len = 0;
  int64_t i;
  buf[0] = '\0';
  for (i = 0; i < n && len + 16 < cap; i++) {
    len += (size_t)snprintf(buf + len, cap - len, i ? ",%d" : "%d", v[i]);
  }
}

typedef struct ctc_labels {
  int64_t* start; /* [batch + 1] offsets into vals */
  int* vals;
} ctc_labels;

/* Validates the sparse labels (TF's SparseTensor checks with shape
 * [batch, max_label_len], ordered by (batch, position)) and groups the
 * values by batch entry. */
static int read_labels(tfe_kernel_context* k, const TF_Tensor* ind,
                       const TF_Tensor* vals, int64_t batch, ctc_labels* out) {
  int64_t n = ind->dims[0], i, maxlen = 0;
  const int64_t* ix = (const int64_t*)kutil_data(ind);
  out->start = (int64_t*)tfe_calloc((size_t)(batch + 1), sizeof(int64_t));
  out->vals = (int*)tfe_malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
  if (out->start == NULL || out->vals == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in CTC");
    return 0;
  }
  if (ind->dims[1] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "labels_indices must have 2 columns, got %lld",
               (long long)ind->dims[1]);
    return 0;
  }
  for (i = 0; i < n; i++) {
    if (ix[2 * i + 1] + 1 > maxlen) maxlen = ix[2 * i + 1] + 1;
  }
  for (i = 0; i < n; i++) {
    int64_t b = ix[2 * i], p = ix[2 * i + 1];
    if (b < 0 || b >= batch || p < 0 || p >= maxlen) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "label SparseTensor is not valid: indices[%lld] = "
                 "[%lld,%lld] is out of bounds: need 0 <= index < "
                 "[%lld,%lld]",
                 (long long)i, (long long)b, (long long)p, (long long)batch,
                 (long long)maxlen);
      return 0;
    }
    if (i > 0) {
      int64_t pb = ix[2 * i - 2], pp = ix[2 * i - 1];
      if (pb > b || (pb == b && pp > p)) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "label SparseTensor is not valid: indices[%lld] = "
                   "[%lld,%lld] is out of order. Many sparse ops require "
                   "sorted indices.\n    Use `tf.sparse.reorder` to create a "
                   "correctly ordered copy.\n\n",
                   (long long)i, (long long)b, (long long)p);
        return 0;
      }
      if (pb == b && pp == p) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "label SparseTensor is not valid: indices[%lld] = "
                   "[%lld,%lld] is repeated",
                   (long long)i, (long long)b, (long long)p);
        return 0;
      }
    }
    out->start[b + 1]++;
  }
  for (i = 0; i < batch; i++) out->start[i + 1] += out->start[i];
  for (i = 0; i < n; i++) out->vals[i] = ((const int32_t*)kutil_data(vals))[i];
  return 1;
}

/* One batch entry's loss and gradient, run per entry on the kernel's
 * pool (entries are independent; each worker has its own scratch). */
typedef struct ctc_job {
  const TF_Tensor* in;
  TF_Tensor *loss, *grad;
  TF_DataType dt;
  int64_t T, B, C, maxu;
  const int32_t* seq;
  const ctc_labels* lab;
  int* const* lp;
  const int64_t* lpn;
  int merge, ignore;
  atomic_int oom;
} ctc_job;

/* The float path in the probability domain: forward and backward
 * variables rescaled to sum 1 at every step (log p is the sum of the
 * logs of the scale factors), so no exp/log runs inside the recursions
 * and the gradient's posterior is a plain ratio. Returns 0 without a
 * result when a scale factor vanishes (probabilities below double range,
 * or no valid alignment): the log-domain pass then handles the entry. */
static int ctc_entry_scaled(const ctc_job* j, int64_t b, const double* y,
                            double* a, double* bt, double* ps) {
  int64_t Tb = j->seq[b], U = j->lpn[b], C = j->C, B = j->B, t, u, c;
  const int* l = j->lp[b];
  int blank = (int)(C - 1), merge = j->merge;
  double logp = 0, s, pend;
  float* gout = (float*)kutil_data(j->grad);
  /* a[t * U + u], bt[t * U + u] */
  for (u = 0; u < U; u++) a[u] = 0;
  a[0] = y[blank];
  if (U > 1) a[1] = y[l[1]];
  s = a[0] + (U > 1 ? a[1] : 0);
  if (!(s > 0) || !isfinite(s)) return 0;
  a[0] /= s;
  if (U > 1) a[1] /= s;
  logp += log(s);
  for (t = 1; t < Tb; t++) {
    const double* prev = a + (t - 1) * U;
    double* cur = a + t * U;
    const double* yt = y + t * C;
    int64_t lo = U - 2 * (Tb - t) > 0 ? U - 2 * (Tb - t) : 0;
    int64_t hi = 2 * (t + 1) < U ? 2 * (t + 1) : U;
    s = 0;
    for (u = 0; u < U; u++) cur[u] = 0;
    for (u = lo; u < hi; u++) {
      double v = (merge || l[u] == blank) ? prev[u] : 0;
      if (u > 0) v += prev[u - 1];
      if (u > 1 && l[u] != blank && !(merge && l[u] == l[u - 2])) {
        v += prev[u - 2];
      }
      cur[u] = yt[l[u]] * v;
      s += cur[u];
    }
    if (!(s > 0) || !isfinite(s)) return 0;
    for (u = lo; u < hi; u++) cur[u] /= s;
    logp += log(s);
  }
  pend = a[(Tb - 1) * U + U - 1] + (U > 1 ? a[(Tb - 1) * U + U - 2] : 0);
  if (!(pend > 0)) return 0;
  logp += log(pend);
  {
    double* last = bt + (Tb - 1) * U;
    for (u = 0; u < U; u++) last[u] = u >= U - 2 ? 1 : 0;
  }
  for (t = Tb - 2; t >= 0; t--) {
    const double* next = bt + (t + 1) * U;
    double* cur = bt + t * U;
    const double* yn = y + (t + 1) * C;
    int64_t lo = U - 2 * (Tb - t) > 0 ? U - 2 * (Tb - t) : 0;
    int64_t hi = 2 * (t + 1) < U ? 2 * (t + 1) : U;
    s = 0;
    for (u = 0; u < U; u++) cur[u] = 0;
    for (u = lo; u < hi; u++) {
      double v = 0;
      if (merge || l[u] == blank) v += next[u] * yn[l[u]];
      if (u + 1 < U) v += next[u + 1] * yn[l[u + 1]];
      if (u + 2 < U && l[u] != blank && !(merge && l[u] == l[u + 2])) {
        v += next[u + 2] * yn[l[u + 2]];
      }
      cur[u] = v;
      s += v;
    }
    if (!(s > 0) || !isfinite(s)) return 0;
    for (u = lo; u < hi; u++) cur[u] /= s;
  }
  /* posteriors: sum of alpha*beta over the positions of each class,
   * divided by the sum over all positions (the same p at every step) */
  for (t = 0; t < Tb; t++) {
    const double* at = a + t * U;
    const double* bt_ = bt + t * U;
    double dot = 0;
    for (c = 0; c < C; c++) ps[c] = 0;
    for (u = 0; u < U; u++) {
      double v = at[u] * bt_[u];
      ps[l[u]] += v;
      dot += v;
    }
    if (!(dot > 0) || !isfinite(dot)) return 0;
    dot = 1.0 / dot;
    for (c = 0; c < C; c++) {
      gout[(t * B + b) * C + c] = (float)(y[t * C + c] - ps[c] * dot);
    }
  }
  ((float*)kutil_data(j->loss))[b] = (float)-logp;
  return 1;
}

/* The log-domain pass (every dtype; the only one for double, whose
 * gradients carry TF's single-precision posterior rounding). */
static void ctc_entry_log(const ctc_job* j, int64_t b, const double* y,
                          double* la, double* lb, double* ps, double* ly) {
  int64_t Tb = j->seq[b], U = j->lpn[b], C = j->C, B = j->B, t, u, c, i;
  const int* l = j->lp[b];
  int blank = (int)(C - 1), merge = j->merge;
  TF_DataType dt = j->dt;
  double logp = -INFINITY;
  /* log y, once per (t, class) */
  for (i = 0; i < Tb * C; i++) ly[i] = log(y[i]);
  /* alpha[u][t], beta[u][t] as la[u * Tb + t] */
  for (i = 0; i < U * Tb; i++) la[i] = lb[i] = -INFINITY;
  la[0] = ly[blank];
  if (U > 1) la[1 * Tb] = ly[l[1]];
  for (t = 1; t < Tb; t++) {
    int64_t lo = U - 2 * (Tb - t) > 0 ? U - 2 * (Tb - t) : 0;
    int64_t hi = 2 * (t + 1) < U ? 2 * (t + 1) : U;
    for (u = lo; u < hi; u++) {
      double s = -INFINITY;
      if (merge || l[u] == blank) s = la[u * Tb + t - 1];
      if (u > 0) s = lse(s, la[(u - 1) * Tb + t - 1]);
      if (u > 1 && l[u] != blank && !(merge && l[u] == l[u - 2])) {
        s = lse(s, la[(u - 2) * Tb + t - 1]);
      }
      la[u * Tb + t] = ly[t * C + l[u]] + s;
    }
  }
  for (u = U - 2 >= 0 ? U - 2 : 0; u < U; u++) lb[u * Tb + Tb - 1] = 0;
  for (t = Tb - 2; t >= 0; t--) {
    int64_t lo = U - 2 * (Tb - t) > 0 ? U - 2 * (Tb - t) : 0;
    int64_t hi = 2 * (t + 1) < U ? 2 * (t + 1) : U;
    for (u = lo; u < hi; u++) {
      double* d = &lb[u * Tb + t];
      if (merge || l[u] == blank) {
        *d = lse(*d, lb[u * Tb + t + 1] + ly[(t + 1) * C + l[u]]);
      }
      if (u + 1 < U) {
        *d = lse(*d, lb[(u + 1) * Tb + t + 1] + ly[(t + 1) * C + l[u + 1]]);
      }
      if (u + 2 < U && l[u] != blank && !(merge && l[u] == l[u + 2])) {
        *d = lse(*d, lb[(u + 2) * Tb + t + 1] + ly[(t + 1) * C + l[u + 2]]);
      }
    }
  }
  for (u = 0; u < U; u++) logp = lse(logp, la[u * Tb] + lb[u * Tb]);
  nnl2_store(dt, kutil_data(j->loss), b, -logp);
  for (t = 0; t < Tb; t++) {
    int64_t base = (t * B + b) * C;
    if (logp == -INFINITY) {
      for (c = 0; c < C; c++) nnl2_store(dt, kutil_data(j->grad), base + c, y[t * C + c]);
      continue;
    }
    for (c = 0; c < C; c++) ps[c] = -INFINITY;
    for (u = 0; u < U; u++) {
      ps[l[u]] = lse(ps[l[u]], la[u * Tb + t] + lb[u * Tb + t]);
    }
    for (c = 0; c < C; c++) {
      double neg;
      if (dt == TF_FLOAT) {
        neg = expf((float)((float)ps[c] - (float)logp));
      } else {
        neg = expf((float)(ps[c] - logp));
      }
      nnl2_store(dt, kutil_data(j->grad), base + c, y[t * C + c] - neg);
    }
  }
}

static void ctc_entries(void* arg, int64_t begin, int64_t end) {
  ctc_job* j = (ctc_job*)arg;
  int64_t T = j->T, C = j->C, B = j->B, b, t, c;
  double *y, *la, *lb, *ps, *ly;
  y = (double*)tfe_malloc((size_t)(T * C + 1) * sizeof(double));
  ly = (double*)tfe_malloc((size_t)(T * C + 1) * sizeof(double));
  ps = (double*)tfe_malloc((size_t)(C + 1) * sizeof(double));
  la = (double*)tfe_malloc((size_t)(j->maxu * T + 1) * sizeof(double));
  lb = (double*)tfe_malloc((size_t)(j->maxu * T + 1) * sizeof(double));
  if (y == NULL || ly == NULL || ps == NULL || la == NULL || lb == NULL) {
    atomic_store(&j->oom, 1);
    goto done;
  }
  for (b = begin; b < end; b++) {
    int64_t Tb = j->seq[b];
    const void* x = kutil_data(j->in);
    if (Tb == 0 ||
        (j->ignore && j->lab->start[b + 1] - j->lab->start[b] > Tb)) {
      continue;
    }
    /* softmax over classes per step */
    for (t = 0; t < Tb; t++) {
      double mx = -INFINITY, sum = 0;
      double* yt = y + t * C;
      int64_t base = (t * B + b) * C;
      if (j->dt == TF_FLOAT) {
        const float* xf = (const float*)x + base;
        for (c = 0; c < C; c++) mx = xf[c] > mx ? xf[c] : mx;
        for (c = 0; c < C; c++) {
          yt[c] = exp((double)xf[c] - mx);
          sum += yt[c];
        }
      } else {
        for (c = 0; c < C; c++) {
          double v = nnl2_load(j->dt, x, base + c);
          if (v > mx) mx = v;
        }
        for (c = 0; c < C; c++) {
          yt[c] = exp(nnl2_load(j->dt, x, base + c) - mx);
          sum += yt[c];
        }
      }
      for (c = 0; c < C; c++) yt[c] /= sum;
    }
    if (j->dt == TF_FLOAT && ctc_entry_scaled(j, b, y, la, lb, ps)) continue;
    ctc_entry_log(j, b, y, la, lb, ps, ly);
  }
done:
  tfe_free(y);
  tfe_free(ly);
  tfe_free(ps);
  tfe_free(la);
  tfe_free(lb);
}

static void ctc_loss_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* li = k->inputs[1];
  const TF_Tensor* lv = k->inputs[2];
  const TF_Tensor* sl = k->inputs[3];
  int collapse = kutil_attr_bool(k, "preprocess_collapse_repeated", 0);
  int merge = kutil_attr_bool(k, "ctc_merge_repeated", 1);
  int ignore = kutil_attr_bool(k, "ignore_longer_outputs_than_inputs", 0);
  TF_DataType dt = in->dtype;
  int64_t T, B, C, b, i;
  const int32_t* seq;
  ctc_labels lab = {NULL, NULL};
  int** lp = NULL; /* l' per batch entry */
  int64_t* lpn = NULL;
  TF_Tensor *loss, *grad;
  kutil_shape_buf s1, s2;
  char lbuf[512], sbuf[512];
  if (in->num_dims != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "inputs is not a 3-Tensor");
    return;
  }
  if (sl->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "sequence_length is not a vector");
    return;
  }
  if (li->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "labels_indices is not a matrix");
    return;
  }
  if (lv->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "labels_values is not a vector");
    return;
  }
  T = in->dims[0];
  B = in->dims[1];
  C = in->dims[2];
  if (C > 2147483647) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "num_classes cannot exceed max int");
    return;
  }
  if (B != sl->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "len(sequence_length) != batch_size.  len(sequence_length):  "
               "%lld batch_size: %lld",
               (long long)sl->dims[0], (long long)B);
    return;
  }
  if (li->dims[0] != lv->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "labels_indices and labels_values must contain the same number "
               "of rows, but saw shapes: %s vs. %s",
               kutil_tshape(li, &s1), kutil_tshape(lv, &s2));
    return;
  }
  if (B == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "batch_size must not be 0");
    return;
  }
  if (!read_labels(k, li, lv, B, &lab)) goto done;
  seq = (const int32_t*)kutil_data(sl);
  for (b = 0; b < B; b++) {
    if (seq[b] > T) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "sequence_length(%lld) <= %lld",
                 (long long)b, (long long)T);
      goto done;
    }
  }
  loss = tfe_kernel_alloc_output(k, 0, dt, sl->dims, 1);
  if (loss == NULL) goto done;
  grad = tfe_kernel_alloc_output(k, 1, dt, in->dims, 3);
  if (grad == NULL) goto done;
  if (kutil_num_elements(grad) > 0) {
    memset(kutil_data(grad), 0,
           (size_t)kutil_num_elements(grad) * kutil_esize(dt));
  }
  for (b = 0; b < B; b++) nnl2_store(dt, kutil_data(loss), b, 0);
  for (b = 0; b < B; b++) {
    if (seq[b] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "seq_len(%lld) < 0", (long long)b);
      goto done;
    }
  }
  /* l' sequences, with TF's checks */
  lp = (int**)tfe_calloc((size_t)B, sizeof(int*));
  lpn = (int64_t*)tfe_calloc((size_t)B, sizeof(int64_t));
  if (lp == NULL || lpn == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in CTCLoss");
    goto done;
  }
  for (b = 0; b < B; b++) {
    const int* lab_b = lab.vals + lab.start[b];
    int64_t n = lab.start[b + 1] - lab.start[b], nl = 0;
    int finished = 0;
    int* l;
    if (n == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Labels length is zero in batch %lld",
                 (long long)b);
      goto done;
    }
    lp[b] = (int*)tfe_malloc((size_t)(2 * n + 1) * sizeof(int));
    if (lp[b] == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in CTCLoss");
      goto done;
    }
    l = (int*)tfe_malloc((size_t)n * sizeof(int));
    if (l == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in CTCLoss");
      goto done;
    }
    for (i = 0; i < n; i++) {
      if (i == 0 || !collapse || lab_b[i] != lab_b[i - 1]) {
        if (lab_b[i] >= C - 1) {
          finished = 1;
        } else {
          if (finished) {
            join_ints(lbuf, sizeof lbuf, lab_b, n);
            join_ints(sbuf, sizeof sbuf, l, nl);
            KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                       "Saw a non-null label (index >= num_classes - 1) "
                       "following a null label, batch: %lld num_classes: "
                       "%lld labels: %s labels seen so far: %s",
                       (long long)b, (long long)C, lbuf, sbuf);
            tfe_free(l);
            goto done;
          }
          l[nl++] = lab_b[i];
        }
      }
    }
    for (i = 0; i < nl; i++) {
      if (l[i] < 0) {
        join_ints(lbuf, sizeof lbuf, l, nl);
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "All labels must be nonnegative integers, batch: %lld "
                   "labels: %s",
                   (long long)b, lbuf);
        tfe_free(l);
        goto done;
      }
    }
    if (!ignore && n > seq[b]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Not enough time for target transition sequence (required: "
                 "%lld, available: %d)%lldYou can turn this error into a "
                 "warning by using the flag ignore_longer_outputs_than_inputs",
                 (long long)n, seq[b], (long long)b);
      tfe_free(l);
      goto done;
    }
    for (i = 0; i < nl; i++) {
      lp[b][2 * i] = (int)(C - 1);
      lp[b][2 * i + 1] = l[i];
    }
    lp[b][2 * nl] = (int)(C - 1);
    lpn[b] = 2 * nl + 1;
    tfe_free(l);
  }
  {
    ctc_job job;
    int64_t maxu = 0;
    for (b = 0; b < B; b++) maxu = lpn[b] > maxu ? lpn[b] : maxu;
    job.in = in;
    job.loss = loss;
    job.grad = grad;
    job.dt = dt;
    job.T = T;
    job.B = B;
    job.C = C;
    job.maxu = maxu;
    job.seq = seq;
    job.lab = &lab;
    job.lp = lp;
    job.lpn = lpn;
    job.merge = merge;
    job.ignore = ignore;
    atomic_init(&job.oom, 0);
    tfe_parallel_for(tfe_kernel_threadpool(k), B, 1, ctc_entries, &job);
    if (atomic_load(&job.oom)) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in CTCLoss");
    }
  }
done:
  if (lp != NULL) {
    for (b = 0; b < B; b++) tfe_free(lp[b]);
  }
  tfe_free(lp);
  tfe_free(lpn);
  tfe_free(lab.start);
  tfe_free(lab.vals);
}

/* ---- CTCGreedyDecoder ---- */

static void ctc_greedy_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* sl = k->inputs[1];
  int merge = kutil_attr_bool(k, "merge_repeated", 0);
  int64_t blank_attr = kutil_attr_int64(k, "blank_index", -1);
  TF_DataType dt = in->dtype;
  int64_t T, B, C, b, t, c, total = 0, maxlen = 0, blank, dims[2], pos;
  const int32_t* seq;
  int64_t *cls = NULL, *cnt = NULL;
  TF_Tensor *oi, *ov, *os, *olp;
  if (in->num_dims != 3) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "inputs is not a 3-Tensor");
    return;
  }
  if (sl->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "sequence_length is not a vector");
    return;
  }
  T = in->dims[0];
  B = in->dims[1];
  C = in->dims[2];
  if (C > 2147483647) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "num_classes cannot exceed max int");
    return;
  }
  if (B != sl->dims[0]) {
    KUTIL_FAIL(k, TF_FAILED_PRECONDITION,
               "len(sequence_length) != batch_size.  len(sequence_length):  "
               "%lld batch_size: %lld",
               (long long)sl->dims[0], (long long)B);
    return;
  }
  seq = (const int32_t*)kutil_data(sl);
  for (b = 0; b < B; b++) {
    if (seq[b] > T) {
      KUTIL_FAIL(k, TF_FAILED_PRECONDITION, "sequence_length(%lld) <= %lld",
                 (long long)b, (long long)T);
      return;
    }
  }
  if (C == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "num_classes cannot be 0");
    return;
  }
  blank = blank_attr < 0 ? blank_attr + C : blank_attr;
  if (blank < 0 || blank >= C) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "blank_index expected to be between %lld and %lld but was %lld",
               (long long)-C, (long long)(C - 1), (long long)blank_attr);
    return;
  }
  dims[0] = B;
  dims[1] = 1;
  olp = NULL;
  cls = (int64_t*)tfe_malloc((size_t)(B * T + 1) * sizeof(int64_t));
  cnt = (int64_t*)tfe_calloc((size_t)(B + 1), sizeof(int64_t));
  if (cls == NULL || cnt == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in CTCGreedyDecoder");
    goto done;
  }
  {
    double* lp = (double*)tfe_calloc((size_t)(B + 1), sizeof(double));
    if (lp == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in CTCGreedyDecoder");
      goto done;
    }
    for (b = 0; b < B; b++) {
      int64_t prev = -1;
      int L = seq[b] < 0 ? 0 : seq[b];
      for (t = 0; t < L; t++) {
        int64_t best = 0, base = (t * B + b) * C;
        double mv = nnl2_load(dt, kutil_data(in), base);
        for (c = 1; c < C; c++) {
          double v = nnl2_load(dt, kutil_data(in), base + c);
          if (v > mv) {
            mv = v;
            best = c;
          }
        }
        lp[b] -= mv;
        if (best != blank && !(merge && best == prev)) {
          cls[b * T + cnt[b]++] = best;
        }
        prev = best;
      }
      total += cnt[b];
      if (cnt[b] > maxlen) maxlen = cnt[b];
    }
    dims[0] = total;
    dims[1] = 2;
    oi = tfe_kernel_alloc_output(k, 0, TF_INT64, dims, 2);
    ov = oi == NULL ? NULL : tfe_kernel_alloc_output(k, 1, TF_INT64, &total, 1);
    dims[0] = 2;
    os = ov == NULL ? NULL : tfe_kernel_alloc_output(k, 2, TF_INT64, dims, 1);
    dims[0] = B;
    dims[1] = 1;
    olp = os == NULL ? NULL : tfe_kernel_alloc_output(k, 3, dt, dims, 2);
    if (olp == NULL) {
      tfe_free(lp);
      goto done;
    }
    pos = 0;
    for (b = 0; b < B; b++) {
      for (t = 0; t < cnt[b]; t++) {
        ((int64_t*)kutil_data(oi))[2 * pos] = b;
        ((int64_t*)kutil_data(oi))[2 * pos + 1] = t;
        ((int64_t*)kutil_data(ov))[pos] = cls[b * T + t];
        pos++;
      }
      nnl2_store(dt, kutil_data(olp), b, lp[b]);
    }
    ((int64_t*)kutil_data(os))[0] = B;
    ((int64_t*)kutil_data(os))[1] = maxlen;
    tfe_free(lp);
  }
done:
  tfe_free(cls);
  tfe_free(cnt);
}

void tfe_nn_linalg2_register_ctc(void) {
  static const TF_DataType kFD[] = {TF_FLOAT, TF_DOUBLE};
  tfe_kutil_register("CTCLoss", ctc_loss_compute, "T", kFD, 2, NULL, NULL, 0);
  tfe_kutil_register("CTCGreedyDecoder", ctc_greedy_compute, "T", kFD, 2,
                     NULL, NULL, 0);
}
