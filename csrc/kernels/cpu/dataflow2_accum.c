/* CPU kernels: dense conditional accumulators (ConditionalAccumulator,
 * AccumulatorApplyGradient, AccumulatorNumAccumulated,
 * AccumulatorSetGlobalStep, AccumulatorTakeGradient and their Resource*
 * forms) and sparse ones (SparseConditionalAccumulator,
 * SparseAccumulatorApplyGradient, SparseAccumulatorTakeGradient) with
 * TensorFlow 2.21's semantics and messages. A sparse accumulator sums
 * IndexedSlices (row indices, rows, shape): rows of equal index add up,
 * each row keeps its own count, and MEAN divides each row by it.
 *
 * An accumulator sums gradients of one dtype (half, float or double) and a
 * partially known shape. ApplyGradient adds its gradient when its
 * local_step is not older than the accumulator's global step (a stale one
 * is dropped silently) and counts it. TakeGradient waits until at least
 * num_required gradients were counted, then returns the sum (divided by
 * the count for reduction_type MEAN), resets the count and advances the
 * global step. A wait ends by another op or by the run's cancellation
 * (CANCELLED "TakeGrad operation was cancelled"). TF 1 ops hand out a
 * Ref(string) handle (graphs only), Resource* ops a resource handle. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/tensor_internal.h"
#include "kernels/cpu/dataflow2_common.h"
#include "kernels/cpu/kutil.h"
#include "ops/attr_value.h"
#include "tensorflow/c/eager/c_api_experimental.h"

void tfe_register_cpu_dataflow2_accum_kernels(void);

#define STRING_REF ((TF_DataType)-1)

typedef struct accum {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  TF_DataType dtype;
  int rank; /* -1: unknown */
  int64_t* dims; /* -1 where unknown */
  int mean;
  int64_t counter, global_step;
  TF_Tensor* sum; /* valid while counter > 0 (sparse: the values) */
  /* SparseConditionalAccumulator: row indices and per-row counts */
  int sparse;
  int64_t* idx;
  int* counts;
  int64_t nnz;
} accum;

static void accum_free(void* obj) {
  accum* a = (accum*)obj;
  if (a == NULL) return;
  TF_DeleteTensor(a->sum);
  tfe_free(a->idx);
  tfe_free(a->counts);
  tfe_free(a->dims);
  pthread_cond_destroy(&a->cv);
  pthread_mutex_destroy(&a->mu);
  tfe_free(a);
}

static void* accum_make(tfe_kernel_context* k, const char* name) {
  accum* a = (accum*)tfe_calloc(1, sizeof(*a));
  const tfe_attr_value* sh = tfe_attrs_find(k->attrs, "shape");
  const char* red = "MEAN";
  size_t len;
  (void)name;
  if (a == NULL) goto oom;
  if (!df2_sync_init(&a->mu, &a->cv)) {
    tfe_free(a);
    goto oom;
  }
  a->dtype = TF_FLOAT;
  tfe_attrs_get_type(k->attrs, "dtype", &a->dtype, NULL);
  tfe_attrs_get_string(k->attrs, "reduction_type", &red, &len, NULL);
  a->mean = strcmp(red, "MEAN") == 0;
  a->sparse = strcmp(k->op_def->name, "SparseConditionalAccumulator") == 0;
  a->rank = -1;
  if (sh != NULL && !sh->is_list && sh->v.shape.num_dims >= 0) {
    a->rank = sh->v.shape.num_dims;
    if (a->rank > 0) {
      a->dims = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)a->rank);
      if (a->dims == NULL) {
        accum_free(a);
        goto oom;
      }
      memcpy(a->dims, sh->v.shape.dims, sizeof(int64_t) * (size_t)a->rank);
    }
  }
  return a;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
             k->op_def->name);
  return NULL;
}

static const df2_kind kAccum = {"N10tensorflow26ConditionalAccumulatorBaseE",
                                accum_make, NULL, accum_free};

static void k_make_ref(tfe_kernel_context* k) {
  df2_maker_compute(k, &kAccum, 1);
}
static void k_make_res(tfe_kernel_context* k) {
  df2_maker_compute(k, &kAccum, 0);
}

static int is_resource_op(const tfe_kernel_context* k) {
  return strncmp(k->op_def->name, "Resource", 8) == 0;
}

/* TF's MatchSignature message for an accumulator op. */
static void signature_error(tfe_kernel_context* k, const TF_DataType* have_in,
                            const TF_DataType* want_in, int nin,
                            const TF_DataType* have_out,
                            const TF_DataType* want_out, int nout) {
  char hi[256], wi[256], ho[64], wo[64];
  df2_dtype_list(have_in, nin, hi, sizeof hi);
  df2_dtype_list(want_in, nin, wi, sizeof wi);
  df2_dtype_list(have_out, nout, ho, sizeof ho);
  df2_dtype_list(want_out, nout, wo, sizeof wo);
  KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
             "Signature mismatch, have: %s->%s expected: %s->%s", hi, ho, wi,
             wo);
}

/* "[2,?]" or "<unknown>" */
static void pshape_text(const accum* a, char* buf, size_t cap) {
  size_t len;
  int i;
  if (a->rank < 0) {
    snprintf(buf, cap, "<unknown>");
    return;
  }
  len = (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < a->rank && len < cap; i++) {
    if (a->dims[i] < 0) {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",?" : "?");
    } else {
      len += (size_t)snprintf(buf + len, cap - len, i ? ",%lld" : "%lld",
                              (long long)a->dims[i]);
    }
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

static int same_shape(const TF_Tensor* x, const TF_Tensor* y) {
  int i;
  if (x->num_dims != y->num_dims) return 0;
  for (i = 0; i < x->num_dims; i++) {
    if (x->dims[i] != y->dims[i]) return 0;
  }
  return 1;
}

static int compatible(const accum* a, const TF_Tensor* t) {
  int i;
  if (a->rank < 0) return 1;
  if (a->rank != t->num_dims) return 0;
  for (i = 0; i < a->rank; i++) {
    if (a->dims[i] >= 0 && a->dims[i] != t->dims[i]) return 0;
  }
  return 1;
}

/* A dense op on a sparse accumulator (or the reverse): TF finds no input
 * or output of the names the accumulator reads. */
static int kind_matches(tfe_kernel_context* k, const accum* a, int sparse) {
  if (a->sparse != sparse) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "%s: the accumulator is a %s accumulator", k->op_def->name,
               a->sparse ? "sparse" : "dense");
    return 0;
  }
  return 1;
}

static void k_apply(tfe_kernel_context* k) {
  tfe_resource* res;
  accum* a = (accum*)df2_object_from_input(k, &kAccum, &res);
  const TF_Tensor *ls, *g;
  int64_t step;
  if (a == NULL) return;
  if (!kind_matches(k, a, 0)) goto done;
  ls = k->inputs[1];
  g = k->inputs[2];
  if (g->dtype != a->dtype) {
    TF_DataType h0 = is_resource_op(k) ? TF_RESOURCE : STRING_REF;
    TF_DataType have[3] = {h0, TF_INT64, g->dtype};
    TF_DataType want[3] = {h0, TF_INT64, a->dtype};
    signature_error(k, have, want, 3, NULL, NULL, 0);
    goto done;
  }
  if (ls->num_dims != 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Argument local_step must be scalar, but had bad shape %s",
               kutil_tshape(ls, &b));
    goto done;
  }
  step = *(const int64_t*)kutil_data(ls);
  pthread_mutex_lock(&a->mu);
  if (step >= a->global_step) {
    kutil_shape_buf b1, b2;
    char want[256];
    if (a->counter > 0 && !same_shape(a->sum, g)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape mismatch: expected %s, got %s",
                 kutil_tshape(a->sum, &b1), kutil_tshape(g, &b2));
    } else if (!compatible(a, g)) {
      pshape_text(a, want, sizeof want);
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Shape mismatch: expected %s, got %s",
                 want, kutil_tshape(g, &b2));
    } else if (a->counter > 0) {
      /* The sum is a private copy (made below), so add in place. */
      tfe_cpu_add_sub_inplace(a->dtype, kutil_data(a->sum), kutil_data(g),
                              kutil_num_elements(g), 0);
      a->counter++;
    } else {
      TF_Tensor* s = tfe_tensor_deep_copy(g);
      if (s == NULL) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                   k->op_def->name);
      } else {
        TF_DeleteTensor(a->sum);
        a->sum = s;
        a->counter++;
      }
    }
    pthread_cond_broadcast(&a->cv);
  }
  pthread_mutex_unlock(&a->mu);
done:
  tfe_resource_unref(res);
}

/* sum /= counter, rounding half through float as Eigen does. */
static void divide(TF_Tensor* t, int64_t counter) {
  int64_t n = kutil_num_elements(t), i;
  void* p = kutil_data(t);
  switch (t->dtype) {
    case TF_FLOAT: {
      float c = (float)(int)counter;
      for (i = 0; i < n; i++) ((float*)p)[i] /= c;
      break;
    }
    case TF_DOUBLE: {
      double c = (double)(int)counter;
      for (i = 0; i < n; i++) ((double*)p)[i] /= c;
      break;
    }
    case TF_HALF: {
      /* the count is first converted to half */
      float c = kutil_f16_to_f32(kutil_f32_to_f16((float)(int)counter));
      uint16_t* h = (uint16_t*)p;
      for (i = 0; i < n; i++) {
        h[i] = kutil_f32_to_f16(kutil_f16_to_f32(h[i]) / c);
      }
      break;
    }
    default:
      break;
  }
}

static void k_take(tfe_kernel_context* k) {
  tfe_resource* res;
  accum* a = (accum*)df2_object_from_input(k, &kAccum, &res);
  const TF_Tensor* nr;
  int32_t num;
  df2_wait w;
  TF_Tensor* out = NULL;
  if (a == NULL) return;
  if (!kind_matches(k, a, 0)) goto done;
  nr = k->inputs[1];
  if (k->output_types[0] != a->dtype) {
    TF_DataType h0 = is_resource_op(k) ? TF_RESOURCE : STRING_REF;
    TF_DataType in[2] = {h0, TF_INT32};
    signature_error(k, in, in, 2, k->output_types, &a->dtype, 1);
    goto done;
  }
  if (nr->num_dims != 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Argument num_required must be scalar, but had bad shape %s",
               kutil_tshape(nr, &b));
    goto done;
  }
  num = *(const int32_t*)kutil_data(nr);
  if (num <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Argument num_required must be positive, but was %d", (int)num);
    goto done;
  }
  if (!df2_wait_begin(k, &w, &a->mu, &a->cv, "accumulator take")) {
    KUTIL_FAIL(k, TF_CANCELLED, "TakeGrad operation was cancelled");
    goto done;
  }
  pthread_mutex_lock(&a->mu);
  while (a->counter < num && !w.cancelled) pthread_cond_wait(&a->cv, &a->mu);
  if (a->counter < num) {
    KUTIL_FAIL(k, TF_CANCELLED, "TakeGrad operation was cancelled");
  } else {
    a->global_step++;
    if (a->mean) divide(a->sum, a->counter);
    /* The sum goes out as is; the next gradient starts a new one. */
    out = a->sum;
    a->sum = NULL;
    a->counter = 0;
  }
  pthread_mutex_unlock(&a->mu);
  df2_wait_end(k, &w);
  if (out != NULL) tfe_kernel_set_output(k, 0, out);
done:
  tfe_resource_unref(res);
}

/* ---- SparseConditionalAccumulator ---- */

static int sparse_validate(tfe_kernel_context* k, accum* a,
                           const TF_Tensor* gi, const TF_Tensor* gv,
                           const TF_Tensor* gs, int known) {
  int64_t i;
  const int64_t* iv = (const int64_t*)kutil_data(gi);
  if (known && a->rank > 0) {
    const int64_t* sv = (const int64_t*)kutil_data(gs);
    if (a->rank > kutil_num_elements(gs)) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shape mismatch: expected shape rank at least %d, got %lld",
                 a->rank, (long long)kutil_num_elements(gs));
      return 0;
    }
    for (i = 0; i < a->rank; i++) {
      if (a->dims[i] != -1 && a->dims[i] != sv[i]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Shape mismatch: expected shape dim %lld to be %lld, got "
                   "%lld",
                   (long long)i, (long long)a->dims[i], (long long)sv[i]);
        return 0;
      }
    }
  }
  if (a->rank > 0 && a->dims[0] != -1 && gi->num_dims > 0) {
    for (i = 0; i < gi->dims[0]; i++) {
      if (iv[i] >= a->dims[0]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Shape mismatch: index of slice %lld exceeded limits of "
                   "shape; index is %lld exceeded %lld",
                   (long long)i, (long long)iv[i], (long long)a->dims[0]);
        return 0;
      }
    }
  }
  if (a->counter > 0) {
    if (a->sum->num_dims != gv->num_dims) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shape mismatch: expected values rank %d, got %d",
                 a->sum->num_dims, gv->num_dims);
      return 0;
    }
    for (i = 1; i < gv->num_dims; i++) {
      if (a->sum->dims[i] != gv->dims[i]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Shape mismatch: expected values dim %lld to be %lld, got "
                   "%lld",
                   (long long)i, (long long)a->sum->dims[i],
                   (long long)gv->dims[i]);
        return 0;
      }
    }
  } else {
    if (a->rank > gv->num_dims) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Shape mismatch: expected values rank at least %d, got %d",
                 a->rank, gv->num_dims);
      return 0;
    }
    for (i = 1; i < a->rank; i++) {
      if (a->dims[i] != -1 && a->dims[i] != gv->dims[i]) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Shape mismatch: expected values dim %lld to be %lld, got "
                   "%lld",
                   (long long)i, (long long)a->dims[i], (long long)gv->dims[i]);
        return 0;
      }
    }
  }
  return 1;
}

/* Merges the gradient into the sum, as TF's merge of two index lists. */
static int sparse_add(accum* a, const TF_Tensor* gi, const TF_Tensor* gv) {
  const int64_t* bi = (const int64_t*)kutil_data(gi);
  int64_t an = a->nnz, bn = gi->dims[0], i = 0, j = 0, n = 0;
  int64_t cols = kutil_dims_prod(gv->dims, 1, gv->num_dims);
  size_t esz = kutil_esize(a->dtype);
  int64_t* ni = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(an + bn + 1));
  int* nc = (int*)tfe_malloc(sizeof(int) * (size_t)(an + bn + 1));
  TF_Tensor* nv;
  int64_t dims[64];
  int d;
  char *dst;
  const char *av = (const char*)kutil_data(a->sum), *gvp = (const char*)kutil_data(gv);
  if (ni == NULL || nc == NULL || gv->num_dims > 64) {
    tfe_free(ni);
    tfe_free(nc);
    return 0;
  }
  /* count the merged rows first */
  while (i < an && j < bn) {
    if (a->idx[i] < bi[j]) {
      i++;
    } else if (a->idx[i] > bi[j]) {
      j++;
    } else {
      i++;
      j++;
    }
    n++;
  }
  n += (an - i) + (bn - j);
  for (d = 0; d < gv->num_dims; d++) dims[d] = gv->dims[d];
  dims[0] = n;
  nv = TF_AllocateTensor(a->dtype, dims, gv->num_dims,
                         (size_t)(n * cols) * esz);
  if (nv == NULL) {
    tfe_free(ni);
    tfe_free(nc);
    return 0;
  }
  dst = (char*)kutil_data(nv);
  i = j = n = 0;
  while (i < an || j < bn) {
    char* row = dst + (size_t)(n * cols) * esz;
    if (j >= bn || (i < an && a->idx[i] < bi[j])) {
      ni[n] = a->idx[i];
      nc[n] = a->counts[i];
      memcpy(row, av + (size_t)(i * cols) * esz, (size_t)cols * esz);
      i++;
    } else if (i >= an || a->idx[i] > bi[j]) {
      ni[n] = bi[j];
      nc[n] = 1;
      memcpy(row, gvp + (size_t)(j * cols) * esz, (size_t)cols * esz);
      j++;
    } else {
      ni[n] = a->idx[i];
      nc[n] = a->counts[i] + 1;
      memcpy(row, av + (size_t)(i * cols) * esz, (size_t)cols * esz);
      tfe_cpu_add_sub_inplace(a->dtype, row, gvp + (size_t)(j * cols) * esz,
                              cols, 0);
      i++;
      j++;
    }
    n++;
  }
  tfe_free(a->idx);
  tfe_free(a->counts);
  TF_DeleteTensor(a->sum);
  a->idx = ni;
  a->counts = nc;
  a->nnz = n;
  a->sum = nv;
  return 1;
}

static void k_sparse_apply(tfe_kernel_context* k) {
  tfe_resource* res;
  accum* a = (accum*)df2_object_from_input(k, &kAccum, &res);
  const TF_Tensor *ls, *gi, *gv, *gs;
  int known = kutil_attr_bool(k, "has_known_shape", 0);
  int64_t step;
  if (a == NULL) return;
  if (!kind_matches(k, a, 1)) goto done;
  ls = k->inputs[1];
  gi = k->inputs[2];
  gv = k->inputs[3];
  gs = k->inputs[4];
  if (gv->dtype != a->dtype) {
    TF_DataType have[5] = {STRING_REF, TF_INT64, TF_INT64, gv->dtype, TF_INT64};
    TF_DataType want[5] = {STRING_REF, TF_INT64, TF_INT64, a->dtype, TF_INT64};
    signature_error(k, have, want, 5, NULL, NULL, 0);
    goto done;
  }
  if (ls->num_dims != 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Argument local_step must be scalar, but had bad shape %s",
               kutil_tshape(ls, &b));
    goto done;
  }
  step = *(const int64_t*)kutil_data(ls);
  pthread_mutex_lock(&a->mu);
  if (step >= a->global_step) {
    kutil_shape_buf b;
    if (gi->num_dims != 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Input indices should be vector but received shape: %s",
                 kutil_tshape(gi, &b));
    } else if (gv->num_dims == 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Values cannot be 0-dimensional.");
    } else if (gv->dims[0] != gi->dims[0]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expected %lld non-empty input values, got %lld",
                 (long long)gi->dims[0], (long long)gv->dims[0]);
    } else if (sparse_validate(k, a, gi, gv, gs, known)) {
      int ok;
      if (a->counter > 0) {
        ok = sparse_add(a, gi, gv);
      } else {
        TF_Tensor* s = tfe_tensor_deep_copy(gv);
        int64_t n = gi->dims[0], i;
        int64_t* ni = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)(n + 1));
        int* nc = (int*)tfe_malloc(sizeof(int) * (size_t)(n + 1));
        ok = s != NULL && ni != NULL && nc != NULL;
        if (ok) {
          for (i = 0; i < n; i++) {
            ni[i] = ((const int64_t*)kutil_data(gi))[i];
            nc[i] = 1;
          }
          TF_DeleteTensor(a->sum);
          tfe_free(a->idx);
          tfe_free(a->counts);
          a->sum = s;
          a->idx = ni;
          a->counts = nc;
          a->nnz = n;
        } else {
          TF_DeleteTensor(s);
          tfe_free(ni);
          tfe_free(nc);
        }
      }
      if (ok) {
        a->counter++;
      } else {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                   k->op_def->name);
      }
    }
    pthread_cond_broadcast(&a->cv);
  }
  pthread_mutex_unlock(&a->mu);
done:
  tfe_resource_unref(res);
}

/* Each row divided by its own count (TF's element-wise average). */
static void sparse_divide(accum* a) {
  int64_t cols = a->nnz > 0 ? kutil_num_elements(a->sum) / a->nnz : 0, r, c;
  void* p = kutil_data(a->sum);
  for (r = 0; r < a->nnz; r++) {
    int cnt = a->counts[r];
    for (c = 0; c < cols; c++) {
      int64_t x = r * cols + c;
      if (a->dtype == TF_FLOAT) {
        ((float*)p)[x] /= (float)cnt;
      } else if (a->dtype == TF_DOUBLE) {
        ((double*)p)[x] /= (double)cnt;
      } else if (a->dtype == TF_HALF) {
        float hc = kutil_f16_to_f32(kutil_f32_to_f16((float)cnt));
        uint16_t* h = (uint16_t*)p;
        h[x] = kutil_f32_to_f16(kutil_f16_to_f32(h[x]) / hc);
      }
    }
  }
}

static void k_sparse_take(tfe_kernel_context* k) {
  tfe_resource* res;
  accum* a = (accum*)df2_object_from_input(k, &kAccum, &res);
  const TF_Tensor* nr;
  int32_t num;
  df2_wait w;
  TF_Tensor *vals = NULL, *idx = NULL, *shp = NULL;
  int64_t* ids = NULL;
  int64_t nnz = 0, i;
  if (a == NULL) return;
  if (!kind_matches(k, a, 1)) goto done;
  nr = k->inputs[1];
  if (k->output_types[1] != a->dtype) {
    TF_DataType in[2] = {STRING_REF, TF_INT32};
    TF_DataType want[3] = {TF_INT64, a->dtype, TF_INT64};
    signature_error(k, in, in, 2, k->output_types, want, 3);
    goto done;
  }
  if (nr->num_dims != 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Argument num_required must be scalar, but had bad shape %s",
               kutil_tshape(nr, &b));
    goto done;
  }
  num = *(const int32_t*)kutil_data(nr);
  if (num <= 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Argument num_required must be positive, but was %d", (int)num);
    goto done;
  }
  if (!df2_wait_begin(k, &w, &a->mu, &a->cv, "accumulator take")) {
    KUTIL_FAIL(k, TF_CANCELLED, "TakeGrad operation was cancelled");
    goto done;
  }
  pthread_mutex_lock(&a->mu);
  while (a->counter < num && !w.cancelled) pthread_cond_wait(&a->cv, &a->mu);
  if (a->counter < num) {
    KUTIL_FAIL(k, TF_CANCELLED, "TakeGrad operation was cancelled");
  } else {
    a->global_step++;
    if (a->mean) sparse_divide(a);
    vals = a->sum;
    a->sum = NULL;
    ids = a->idx;
    a->idx = NULL;
    nnz = a->nnz;
    a->counter = 0;
  }
  pthread_mutex_unlock(&a->mu);
  df2_wait_end(k, &w);
  if (vals != NULL) {
    int64_t d1 = nnz, dr = vals->num_dims;
    idx = tfe_kernel_alloc_output(k, 0, TF_INT64, &d1, 1);
    if (idx != NULL) {
      for (i = 0; i < nnz; i++) ((int64_t*)kutil_data(idx))[i] = ids[i];
      tfe_kernel_set_output(k, 1, vals);
      vals = NULL;
      shp = tfe_kernel_alloc_output(k, 2, TF_INT64, &dr, 1);
      if (shp != NULL && dr > 0) {
        int64_t* sv = (int64_t*)kutil_data(shp);
        const TF_Tensor* v = k->outputs[1];
        sv[0] = a->rank > 0 ? a->dims[0] : -1;
        for (i = 1; i < dr; i++) sv[i] = v->dims[i];
      }
    }
  }
  TF_DeleteTensor(vals);
  tfe_free(ids);
done:
  tfe_resource_unref(res);
}

static void k_num(tfe_kernel_context* k) {
  tfe_resource* res;
  accum* a = (accum*)df2_object_from_input(k, &kAccum, &res);
  TF_Tensor* o;
  int64_t n;
  if (a == NULL) return;
  pthread_mutex_lock(&a->mu);
  n = a->counter;
  pthread_mutex_unlock(&a->mu);
  tfe_resource_unref(res);
  o = tfe_kernel_alloc_output(k, 0, TF_INT32, NULL, 0);
  if (o != NULL) *(int32_t*)kutil_data(o) = (int32_t)n;
}

static void k_set_step(tfe_kernel_context* k) {
  tfe_resource* res;
  accum* a = (accum*)df2_object_from_input(k, &kAccum, &res);
  const TF_Tensor* t;
  if (a == NULL) return;
  t = k->inputs[1];
  if (t->num_dims != 0) {
    kutil_shape_buf b;
    /* (TF's message names num_required here) */
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Argument num_required must be scalar, but had bad shape %s",
               kutil_tshape(t, &b));
  } else {
    pthread_mutex_lock(&a->mu);
    a->global_step = *(const int64_t*)kutil_data(t);
    pthread_mutex_unlock(&a->mu);
  }
  tfe_resource_unref(res);
}

static void reg(const char* op, void (*fn)(tfe_kernel_context*), int maker) {
  static const TF_DataType kFloats[] = {TF_HALF, TF_FLOAT, TF_DOUBLE};
  tfe_kernel_reg r;
  TF_Status* s = TF_NewStatus();
  memset(&r, 0, sizeof r);
  r.op_name = op;
  r.device_type = "CPU";
  r.compute = fn;
  if (maker) {
    r.create = df2_maker_create;
    r.destroy = df2_maker_destroy;
    r.constraints[0].attr = "dtype";
    r.constraints[0].types = kFloats;
    r.constraints[0].num_types = 3;
    r.num_constraints = 1;
  }
  if (s != NULL) {
    tfe_kernel_register(&r, s);
    TF_DeleteStatus(s);
  }
}

void tfe_register_cpu_dataflow2_accum_kernels(void) {
  reg("ConditionalAccumulator", k_make_ref, 1);
  reg("ResourceConditionalAccumulator", k_make_res, 1);
  reg("SparseConditionalAccumulator", k_make_ref, 1);
  reg("SparseAccumulatorApplyGradient", k_sparse_apply, 0);
  reg("SparseAccumulatorTakeGradient", k_sparse_take, 0);
  reg("AccumulatorApplyGradient", k_apply, 0);
  reg("ResourceAccumulatorApplyGradient", k_apply, 0);
  reg("AccumulatorTakeGradient", k_take, 0);
  reg("ResourceAccumulatorTakeGradient", k_take, 0);
  reg("AccumulatorNumAccumulated", k_num, 0);
  reg("ResourceAccumulatorNumAccumulated", k_num, 0);
  reg("AccumulatorSetGlobalStep", k_set_step, 0);
  reg("ResourceAccumulatorSetGlobalStep", k_set_step, 0);
}
