/* CPU kernels of the sparse2 group: EditDistance (Levenshtein distance
 * between the sequences of two sparse tensors, grouped by all but the last
 * dimension) and the first two NonMaxSuppression versions, which run the
 * NonMaxSuppressionV3 kernel of image_nms.c with V2's implicit score
 * threshold (the lowest float) after their own argument checks. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cpu/sparse2_common.h"

/* ------------------------------------------------------- EditDistance */

/* Element equality as std::equal_to<T> (NaN differs from itself). */
static int elem_eq(const TF_Tensor* t, int64_t i, const TF_Tensor* u, int64_t j) {
  if (t->dtype == TF_STRING) {
    const TF_TString* a = (const TF_TString*)kutil_data(t) + i;
    const TF_TString* b = (const TF_TString*)kutil_data(u) + j;
    size_t n = TF_TString_GetSize(a);
    return n == TF_TString_GetSize(b) &&
           (n == 0 || memcmp(TF_TString_GetDataPointer(a),
                             TF_TString_GetDataPointer(b), n) == 0);
  }
  {
    spv x, y;
    int kind = sp_kind(t->dtype);
    sp_load(t->dtype, kutil_data(t), i, &x);
    sp_load(u->dtype, kutil_data(u), j, &y);
    if (kind == SPK_F) return x.re == y.re;
    if (kind == SPK_C) return x.re == y.re && x.im == y.im;
    return x.i == y.i;
  }
}

/* Levenshtein distance between t[t0..t0+n) and h[h0..h0+m); row is a
 * scratch array of m + 1 entries. */
static int64_t levenshtein(const TF_Tensor* tt, int64_t t0, int64_t n,
                           const TF_Tensor* hh, int64_t h0, int64_t m,
                           int64_t* row, const int64_t* tk, const int64_t* hk) {
  int64_t i, j;
  if (n == 0) return m;
  if (m == 0) return n;
  for (j = 0; j <= m; j++) row[j] = j;
  for (i = 1; i <= n; i++) {
    int64_t diag = row[0];
    row[0] = i;
    for (j = 1; j <= m; j++) {
      int64_t up = row[j];
      int eq = tk != NULL ? tk[t0 + i - 1] == hk[h0 + j - 1]
                          : elem_eq(tt, t0 + i - 1, hh, h0 + j - 1);
      int64_t best = diag + (eq ? 0 : 1);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[m];
}

/* Lexicographic comparison of the group parts (first g coordinates) of
 * row a of ia and row b of ib. */
static int group_cmp(const int64_t* ia, int64_t a, const int64_t* ib,
                     int64_t b, int nd, int g) {
  int d;
  for (d = 0; d < g; d++) {
    int64_t x = ia[a * nd + d], y = ib[b * nd + d];
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

static int64_t run_end(const int64_t* ix, int64_t r, int64_t nnz, int nd, int g) {
  int64_t e = r + 1;
  while (e < nnz && group_cmp(ix, e, ix, r, nd, g) == 0) e++;
  return e;
}

static void k_edit_distance(tfe_kernel_context* k) {
  const TF_Tensor* hi = k->inputs[0];
  const TF_Tensor* hv = k->inputs[1];
  const TF_Tensor* hs = k->inputs[2];
  const TF_Tensor* ti = k->inputs[3];
  const TF_Tensor* tv = k->inputs[4];
  const TF_Tensor* ts = k->inputs[5];
  int normalize = kutil_attr_bool(k, "normalize", 1);
  kutil_shape_buf b1, b2;
  int nd, g, d;
  int64_t odims[TFE_MAX_DIMS], strides[TFE_MAX_DIMS];
  int64_t total, r1 = 0, r2 = 0, nh, nt, maxlen = 0;
  const int64_t *hx, *tx, *hsv, *tsv;
  int64_t* row = NULL;
  int64_t* hk = NULL;
  int64_t* tk = NULL;
  float* out;
  TF_Tensor* o;
  if (hi->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "hypothesis_indices should be a matrix, but got shape: %s",
               kutil_tshape(hi, &b1));
    return;
  }
  if (ti->num_dims != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "truth_indices should be a matrix, but got shape: %s",
               kutil_tshape(ti, &b1));
    return;
  }
  if (hv->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "hypothesis_values should be a vector, but got shape: %s",
               kutil_tshape(hv, &b1));
    return;
  }
  if (tv->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "truth_values should be a vector, but got shape: %s",
               kutil_tshape(tv, &b1));
    return;
  }
  if (hs->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "hypothesis_shape should be a vector, but got shape: %s",
               kutil_tshape(hs, &b1));
    return;
  }
  if (ts->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "truth_shape should be a vector, but got shape: %s",
               kutil_tshape(ts, &b1));
    return;
  }
  if (hv->dims[0] != hi->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected hypothesis_values.NumElements == "
               "#rows(hypothesis_indices), their shapes are: %s and %s",
               kutil_tshape(hv, &b1), kutil_tshape(hi, &b2));
    return;
  }
  if (hs->dims[0] != hi->dims[1]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected hypothesis_shape.NumElements == "
               "#cols(hypothesis_indices), their shapes are: %s and %s",
               kutil_tshape(hs, &b1), kutil_tshape(hi, &b2));
    return;
  }
  if (tv->dims[0] != ti->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected truth_values.NumElements == #rows(truth_indices), "
               "their shapes are: %s and %s",
               kutil_tshape(tv, &b1), kutil_tshape(ti, &b2));
    return;
  }
  if (ts->dims[0] < 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input SparseTensors must have rank at least 2, but "
               "truth_shape rank is: %lld",
               (long long)ts->dims[0]);
    return;
  }
  if (ts->dims[0] != ti->dims[1]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected truth_shape.NumElements == #cols(truth_indices), "
               "their shapes are: %s and %s",
               kutil_tshape(ts, &b1), kutil_tshape(ti, &b2));
    return;
  }
  if (ts->dims[0] != hs->dims[0]) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected truth and hypothesis to have matching ranks, but "
               "their shapes are: %s and %s",
               kutil_tshape(ts, &b1), kutil_tshape(hs, &b2));
    return;
  }
  if (ts->dims[0] > TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Too many dimensions");
    return;
  }
  nd = (int)ts->dims[0];
  g = nd - 1;
  hsv = (const int64_t*)kutil_data(hs);
  tsv = (const int64_t*)kutil_data(ts);
  for (d = 0; d < nd; d++) {
    if (hsv[d] < 0 || tsv[d] < 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Dimension %lld must be >= 0",
                 (long long)(hsv[d] < 0 ? hsv[d] : tsv[d]));
      return;
    }
  }
  for (d = 0; d < g; d++) odims[d] = hsv[d] > tsv[d] ? hsv[d] : tsv[d];
  o = tfe_kernel_alloc_output(k, 0, TF_FLOAT, odims, g);
  if (o == NULL) return;
  total = kutil_num_elements(o);
  out = (float*)kutil_data(o);
  if (total > 0) memset(out, 0, (size_t)total * sizeof(float));
  strides[g - 1] = 1;
  for (d = g - 2; d >= 0; d--) strides[d] = strides[d + 1] * odims[d + 1];
  hx = (const int64_t*)kutil_data(hi);
  tx = (const int64_t*)kutil_data(ti);
  nh = hi->dims[0];
  nt = ti->dims[0];
  /* longest hypothesis run bounds the scratch row */
  {
    int64_t r = 0;
    while (r < nh) {
      int64_t e = run_end(hx, r, nh, nd, g);
      if (e - r > maxlen) maxlen = e - r;
      r = e;
    }
  }
  row = (int64_t*)tfe_malloc((size_t)(maxlen + 1) * sizeof(int64_t));
  if (row == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in EditDistance");
    return;
  }
  /* Integer and bool values compare as int64 keys (exact equality). */
  if (hv->dtype != TF_STRING && (sp_kind(hv->dtype) == SPK_I || sp_kind(hv->dtype) == SPK_U)) {
    int64_t i;
    hk = (int64_t*)tfe_malloc((size_t)(nh > 0 ? nh : 1) * sizeof(int64_t));
    tk = (int64_t*)tfe_malloc((size_t)(nt > 0 ? nt : 1) * sizeof(int64_t));
    if (hk == NULL || tk == NULL) {
      tfe_free(hk);
      tfe_free(tk);
      hk = tk = NULL;
    } else {
      int isb = hv->dtype == TF_BOOL;
      for (i = 0; i < nh; i++) {
        hk[i] = isb ? ((const uint8_t*)kutil_data(hv))[i] != 0 : kutil_get_int(hv, i);
      }
      for (i = 0; i < nt; i++) {
        tk[i] = isb ? ((const uint8_t*)kutil_data(tv))[i] != 0 : kutil_get_int(tv, i);
      }
    }
  }
  while (r1 < nh || r2 < nt) {
    int c;
    int64_t e1 = 0, e2 = 0, loc = 0;
    const int64_t* key;
    float v;
    if (r1 >= nh) {
      c = 1; /* only truths left */
    } else if (r2 >= nt) {
      c = -1;
    } else {
      c = group_cmp(hx, r1, tx, r2, nd, g);
    }
    if (c <= 0) e1 = run_end(hx, r1, nh, nd, g);
    if (c >= 0) e2 = run_end(tx, r2, nt, nd, g);
    key = c <= 0 ? hx + r1 * nd : tx + r2 * nd;
    for (d = 0; d < g; d++) loc += key[d] * strides[d];
    if (loc < 0 || loc >= total) {
      KUTIL_FAIL(k, TF_INTERNAL,
                 "Got an inner product %lld which would require writing to "
                 "outside of the buffer for the output tensor (max elements "
                 "%lld)",
                 (long long)loc, (long long)total);
      break;
    }
    if (c == 0) {
      int64_t dist = levenshtein(tv, r2, e2 - r2, hv, r1, e1 - r1, row, tk, hk);
      v = (float)dist;
      if (normalize) v /= (float)(e2 - r2);
      r1 = e1;
      r2 = e2;
    } else if (c < 0) { /* a hypothesis without truth */
      v = (float)(e1 - r1);
      if (normalize) v = v / 0.0f;
      r1 = e1;
    } else { /* a truth without hypothesis */
      v = normalize ? 1.0f : (float)(e2 - r2);
      r2 = e2;
    }
    out[loc] = v;
  }
  tfe_free(row);
  tfe_free(hk);
  tfe_free(tk);
}

/* --------------------------------------------- NonMaxSuppression, V2 */

static const tfe_kernel_reg* nms_v3_kernel(void) {
  int i, n = tfe_kernel_count();
  for (i = 0; i < n; i++) {
    const tfe_kernel_reg* r = tfe_kernel_at(i);
    if (r != NULL && strcmp(r->device_type, "CPU") == 0 &&
        strcmp(r->op_name, "NonMaxSuppressionV3") == 0) {
      return r;
    }
  }
  return NULL;
}

static TF_Tensor* scalar_f32(float v) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  if (t != NULL) memcpy(TF_TensorData(t), &v, sizeof v);
  return t;
}

/* Runs V3 on (boxes, scores, max_output_size, iou, lowest float). */
static void run_v3(tfe_kernel_context* k, TF_Tensor* iou) {
  const tfe_kernel_reg* v3 = nms_v3_kernel();
  TF_Tensor* thr = scalar_f32(-FLT_MAX);
  TF_Tensor* in[5];
  tfe_kernel_context sub;
  if (v3 == NULL || thr == NULL) {
    TF_DeleteTensor(thr);
    KUTIL_FAIL(k, TF_INTERNAL, "NonMaxSuppressionV3 kernel is missing");
    return;
  }
  in[0] = k->inputs[0];
  in[1] = k->inputs[1];
  in[2] = k->inputs[2];
  in[3] = iou;
  in[4] = thr;
  sub = *k;
  sub.inputs = in;
  sub.num_inputs = 5;
  sub.forwardable = 0;
  sub.input_refs = NULL;
  v3->compute(&sub);
  k->forwarded = 0;
  TF_DeleteTensor(thr);
}

static int check_scalar(tfe_kernel_context* k, int i, const char* what) {
  kutil_shape_buf b;
  if (k->inputs[i]->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be 0-D, got shape %s", what,
               kutil_tshape(k->inputs[i], &b));
    return 0;
  }
  return 1;
}

static void k_nms_v1(tfe_kernel_context* k) {
  float iou = 0.5f;
  TF_Tensor* t;
  if (k->attrs != NULL) tfe_attrs_get_float(k->attrs, "iou_threshold", &iou, NULL);
  if (!(iou >= 0.0f && iou <= 1.0f)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "iou_threshold must be in [0, 1]");
    return;
  }
  if (!check_scalar(k, 2, "max_output_size")) return;
  t = scalar_f32(iou);
  if (t == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "OOM in NonMaxSuppression");
    return;
  }
  run_v3(k, t);
  TF_DeleteTensor(t);
}

static void k_nms_v2(tfe_kernel_context* k) {
  if (!check_scalar(k, 2, "max_output_size")) return;
  if (!check_scalar(k, 3, "iou_threshold")) return;
  run_v3(k, k->inputs[3]);
}

/* ------------------------------------- Copy, CopyHost, DebugIdentity,
 * DebugNanCount (no debug URLs: the tensor passes through / is counted) */

/* TF's debug ops parse tensor_name as "node[:output]"; an empty name fails. */
static int debug_name_ok(tfe_kernel_context* k) {
  const char* name = NULL;
  size_t len = 0;
  if (k->attrs != NULL) tfe_attrs_get_string(k->attrs, "tensor_name", &name, &len, NULL);
  if (name == NULL || len == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Failed to parse tensor name: \"\"");
    return 0;
  }
  return 1;
}

static void copy_input(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  TF_Tensor* o = tfe_kernel_alloc_output(k, 0, x->dtype, x->dims, x->num_dims);
  if (o == NULL) return;
  kutil_copy(x->dtype, kutil_data(o), kutil_data(x), kutil_num_elements(x));
}

static void k_copy(tfe_kernel_context* k) { copy_input(k); }

static void k_debug_identity(tfe_kernel_context* k) {
  if (!debug_name_ok(k)) return;
  copy_input(k);
}

static void k_debug_nan_count(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int64_t n = kutil_num_elements(x), i, c = 0, one = 1;
  TF_Tensor* o;
  if (!debug_name_ok(k)) return;
  if (sp_kind(x->dtype) == SPK_F) {
    for (i = 0; i < n; i++) {
      spv v;
      sp_load(x->dtype, kutil_data(x), i, &v);
      if (v.re != v.re) c++;
    }
  }
  o = tfe_kernel_alloc_output(k, 0, TF_INT64, &one, 1);
  if (o != NULL) ((int64_t*)kutil_data(o))[0] = c;
}

void tfe_register_cpu_sparse2_misc_kernels(void) {
  static const TF_DataType real[] = {KUTIL_REAL_TYPES};
  static const TF_DataType all[] = {KUTIL_NUMBER_TYPES, TF_BOOL, TF_STRING};
  static const TF_DataType ft[] = {TF_HALF, TF_FLOAT};
  tfe_kutil_register("EditDistance", k_edit_distance, "T", all,
                     (int)(sizeof all / sizeof all[0]), NULL, NULL, 0);
  tfe_kutil_register("NonMaxSuppression", k_nms_v1, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("NonMaxSuppressionV2", k_nms_v2, "T", ft, 2, "T_threshold",
                     ft, 2);
  tfe_kutil_register("Copy", k_copy, "T", all, (int)(sizeof all / sizeof all[0]),
                     NULL, NULL, 0);
  tfe_kutil_register("CopyHost", k_copy, "T", all, (int)(sizeof all / sizeof all[0]),
                     NULL, NULL, 0);
  tfe_kutil_register("DebugIdentity", k_debug_identity, "T", all,
                     (int)(sizeof all / sizeof all[0]), NULL, NULL, 0);
  tfe_kutil_register("DebugNanCount", k_debug_nan_count, "T", real,
                     (int)(sizeof real / sizeof real[0]), NULL, NULL, 0);
}
