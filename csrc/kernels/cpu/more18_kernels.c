/* CPU kernels added in session 9 (group more18): ops real models reach
 * that still had no kernel.
 *
 * - StridedSliceAssign (Ref), ResourceStridedSliceAssign and
 *   TensorStridedSliceUpdate: the slice is resolved by StridedSlice's own
 *   spec code (tfe_strided_slice_spec, array_slice.c); the value is
 *   broadcast to the slice's final shape, then written element by element
 *   at the slice's positions.
 * - ResourceGatherNd, VariableShape: resource-variable reads (the variable
 *   model is csrc/kernels/resource.h).
 * - ImageProjectiveTransformV2/V3.
 *
 * Semantics, checks and messages follow TensorFlow 2.21's CPU kernels. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/tensor_internal.h"
#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "kernels/ref_var.h"
#include "kernels/resource.h"

static const char* m18_dt_name(TF_DataType t) {
  const char* n = tfe_dtype_short_name(t);
  return n != NULL ? n : "unknown";
}

/* ------------------------------------------------ strided-slice assign */

/* Writes n_src values (already in the slice's element order) into dst, a
 * tensor of dims[nd], at positions begin[d] + i_d * stride[d] for i_d in
 * [0, proc[d]). */
static void ssa_scatter(TF_DataType dt, size_t esz, const char* src,
                        const int64_t* dims, int nd, const int64_t* begin,
                        const int64_t* stride, const int64_t* proc,
                        char* dst) {
  int64_t pitch[TFE_MAX_DIMS], step[TFE_MAX_DIMS], idx[TFE_MAX_DIMS];
  int64_t outer = 1, inner, inner_step, off = 0, o, t;
  int d;
  if (nd <= 0 || nd > TFE_MAX_DIMS) {
    if (nd == 0) kutil_copy1(dt, esz, dst, src);
    return;
  }
  for (d = 0; d < nd; d++) {
    if (proc[d] == 0) return;
  }
  pitch[nd - 1] = 1;
  for (d = nd - 2; d >= 0; d--) pitch[d] = pitch[d + 1] * dims[d + 1];
  for (d = 0; d < nd; d++) {
    step[d] = stride[d] * pitch[d];
    off += begin[d] * pitch[d];
    idx[d] = 0;
  }
  inner = proc[nd - 1];
  inner_step = step[nd - 1];
  for (d = 0; d < nd - 1; d++) outer *= proc[d];
  for (o = 0; o < outer; o++) {
    const char* row = src + (size_t)(o * inner) * esz;
    if (inner_step == 1) {
      kutil_copy(dt, dst + (size_t)off * esz, row, inner);
    } else if (dt != TF_STRING && esz == 4) {
      uint32_t* dp = (uint32_t*)(void*)dst + off;
      const uint32_t* sp = (const uint32_t*)(const void*)row;
      for (t = 0; t < inner; t++) dp[t * inner_step] = sp[t];
    } else if (dt != TF_STRING && esz == 8) {
      uint64_t* dp = (uint64_t*)(void*)dst + off;
      const uint64_t* sp = (const uint64_t*)(const void*)row;
      for (t = 0; t < inner; t++) dp[t * inner_step] = sp[t];
    } else {
      for (t = 0; t < inner; t++)
        kutil_copy1(dt, esz, dst + (size_t)(off + t * inner_step) * esz,
                    row + (size_t)t * esz);
    }
    for (d = nd - 2; d >= 0; d--) {
      idx[d]++;
      off += step[d];
      if (idx[d] < proc[d]) break;
      off -= step[d] * proc[d];
      idx[d] = 0;
    }
  }
}

/* Broadcasts value v to dims fd[nf] into a new buffer of n elements (the
 * caller frees it, deleting strings first). NULL with k->status set when
 * the shapes do not broadcast or memory runs out. */
static char* ssa_broadcast(tfe_kernel_context* k, const TF_Tensor* v,
                           const int64_t* fd, int nf, int64_t n) {
  size_t esz = kutil_esize(v->dtype);
  int64_t vstride[TFE_MAX_DIMS], idx[TFE_MAX_DIMS], acc = 1, off = 0, i;
  int d, shift = nf - v->num_dims, ok = shift >= 0;
  char* buf;
  const char* src = (const char*)kutil_data(v);
  for (d = 0; ok && d < v->num_dims; d++) {
    if (v->dims[d] != 1 && v->dims[d] != fd[d + shift]) ok = 0;
  }
  if (!ok) {
    kutil_shape_buf a;
    char b[256];
    kutil_shape_str(fd, nf, b, sizeof b);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Cannot broadcast input shape %s into final shape %s",
               kutil_tshape(v, &a), b);
    return NULL;
  }
  for (d = nf - 1; d >= 0; d--) {
    int vd = d - shift;
    if (vd >= 0 && v->dims[vd] != 1) {
      vstride[d] = acc;
      acc *= v->dims[vd];
    } else {
      vstride[d] = 0;
    }
    idx[d] = 0;
  }
  buf = (char*)calloc((size_t)n, esz);
  if (buf == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory");
    return NULL;
  }
  if (v->dtype == TF_STRING) {
    for (i = 0; i < n; i++) TF_TString_Init((TF_TString*)(void*)buf + i);
  }
  for (i = 0; i < n; i++) {
    kutil_copy1(v->dtype, esz, buf + (size_t)i * esz,
                src + (size_t)off * esz);
    for (d = nf - 1; d >= 0; d--) {
      idx[d]++;
      off += vstride[d];
      if (idx[d] < fd[d]) break;
      off -= vstride[d] * fd[d];
      idx[d] = 0;
    }
  }
  return buf;
}

static void ssa_free(TF_DataType dt, char* buf, int64_t n) {
  int64_t i;
  if (buf == NULL) return;
  if (dt == TF_STRING) {
    for (i = 0; i < n; i++) TF_TString_Dealloc((TF_TString*)(void*)buf + i);
  }
  free(buf);
}

/* Assigns value (input 4) to the slice of lhs (inputs 1..3 and the mask
 * attrs) in place. */
static void ssa_assign(tfe_kernel_context* k, TF_Tensor* lhs) {
  const TF_Tensor* v = k->inputs[4];
  int64_t begin[TFE_MAX_DIMS], stride[TFE_MAX_DIMS], proc[TFE_MAX_DIMS];
  int64_t fd[TFE_MAX_DIMS], n = 1;
  int nf = 0, d, same;
  size_t esz = kutil_esize(lhs->dtype);
  char* tmp = NULL;
  if (!tfe_strided_slice_spec(k, lhs->dims, lhs->num_dims, k->inputs[1],
                              k->inputs[2], k->inputs[3], begin, stride, proc,
                              fd, &nf))
    return;
  for (d = 0; d < lhs->num_dims; d++) n *= proc[d];
  if (n == 0) return;
  same = v->num_dims == nf;
  for (d = 0; same && d < nf; d++) same = v->dims[d] == fd[d];
  if (!same) {
    tmp = ssa_broadcast(k, v, fd, nf, n);
    if (tmp == NULL) return;
  }
  ssa_scatter(lhs->dtype, esz, tmp != NULL ? tmp : (const char*)kutil_data(v),
              lhs->dims, lhs->num_dims, begin, stride, proc,
              (char*)kutil_data(lhs));
  ssa_free(lhs->dtype, tmp, n);
}

static void k_tensor_strided_slice_update(tfe_kernel_context* k) {
  const TF_Tensor* x = k->inputs[0];
  int cand = 0, fwd = -1;
  TF_Tensor* y = tfe_kernel_forward_or_alloc_output(
      k, &cand, 1, 0, x->dtype, x->dims, x->num_dims, &fwd);
  if (y == NULL) return;
  if (fwd != 0) kutil_copy(x->dtype, kutil_data(y), kutil_data(x),
                           kutil_num_elements(x));
  ssa_assign(k, y);
}

static void k_resource_strided_slice_assign(tfe_kernel_context* k) {
  TF_DataType t = TF_FLOAT;
  tfe_resource* r;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, "T", &t, NULL);
  r = tfe_var_from_handle(k->inputs[0], k->status);
  if (r == NULL) return;
  pthread_mutex_lock(&r->mu);
  if (r->value == NULL) {
    tfe_var_set_missing_error(r, 0, k->status);
  } else if (r->value->dtype != t) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "l-value dtype %s does not match r-value dtype %s",
               m18_dt_name(r->value->dtype), m18_dt_name(t));
  } else if (tfe_var_prepare_update(r, k->status)) {
    ssa_assign(k, r->value);
  }
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
}

static void k_strided_slice_assign(tfe_kernel_context* k) {
  tfe_ref_cell* c = tfe_kernel_input_ref(k, 0);
  if (c == NULL) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "input 0 of %s is not a reference",
               k->op_def != NULL ? k->op_def->name : "?");
    return;
  }
  if (!tfe_kernel_set_output_ref(k, 0, c)) return;
  pthread_mutex_lock(&c->mu);
  if (c->value == NULL) {
    KUTIL_FAIL(k, TF_FAILED_PRECONDITION,
               "Attempting to use uninitialized value ref");
  } else {
    ssa_assign(k, c->value);
  }
  pthread_mutex_unlock(&c->mu);
}

/* ------------------------------------- ResourceGatherNd, VariableShape */

static void k_resource_gather_nd(tfe_kernel_context* k) {
  tfe_resource* r = tfe_var_from_handle(k->inputs[0], k->status);
  if (r == NULL) return;
  pthread_mutex_lock(&r->mu);
  if (r->value == NULL) {
    tfe_var_set_missing_error(r, 0, k->status);
  } else {
    TF_DataType want = r->value->dtype;
    if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, "dtype", &want, NULL);
    if (want != r->value->dtype) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Trying to gather from variable with wrong dtype. Expected "
                 "%s got %s",
                 m18_dt_name(want), m18_dt_name(r->value->dtype));
    } else {
      tfe_gather_nd_compute(k, r->value, k->inputs[1]);
    }
  }
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
}

static void k_variable_shape(tfe_kernel_context* k) {
  TF_DataType ot = TF_INT32;
  tfe_resource* r;
  int nd, d;
  int64_t dims[TFE_MAX_DIMS], n;
  TF_Tensor* y;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, "out_type", &ot, NULL);
  r = tfe_var_from_handle(k->inputs[0], k->status);
  if (r == NULL) return;
  pthread_mutex_lock(&r->mu);
  if (r->value == NULL) {
    tfe_var_set_missing_error(r, 0, k->status);
    pthread_mutex_unlock(&r->mu);
    tfe_resource_unref(r);
    return;
  }
  nd = r->value->num_dims;
  for (d = 0; d < nd; d++) dims[d] = r->value->dims[d];
  pthread_mutex_unlock(&r->mu);
  tfe_resource_unref(r);
  if (ot == TF_INT32) {
    for (d = 0; d < nd; d++) {
      if (dims[d] > INT32_MAX) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "VariableShape's output type is int32 but dimension "
                   "exceeds maximum int32 value");
        return;
      }
    }
  }
  n = nd;
  y = tfe_kernel_alloc_output(k, 0, ot, &n, 1);
  if (y == NULL) return;
  for (d = 0; d < nd; d++) {
    if (ot == TF_INT32) {
      ((int32_t*)kutil_data(y))[d] = (int32_t)dims[d];
    } else {
      ((int64_t*)kutil_data(y))[d] = dims[d];
    }
  }
}

/* ------------------------------------------------------- registration */

void tfe_register_cpu_more18_kernels(void) {
  /* TF_CALL_ALL_TYPES + uint32/uint64 that have a host layout here */
  static const TF_DataType ssa[] = {KUTIL_POD_TYPES, TF_STRING, TF_QINT8,
                                    TF_QUINT8, TF_QINT32};
  static const TF_DataType gnd[] = {KUTIL_POD_TYPES, TF_STRING};
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  tfe_kutil_register("TensorStridedSliceUpdate", k_tensor_strided_slice_update,
                     "T", ssa, KUTIL_COUNT(ssa), NULL, NULL, 0);
  tfe_kutil_register("ResourceStridedSliceAssign",
                     k_resource_strided_slice_assign, "T", ssa,
                     KUTIL_COUNT(ssa), NULL, NULL, 0);
  tfe_kutil_register("StridedSliceAssign", k_strided_slice_assign, "T", ssa,
                     KUTIL_COUNT(ssa), NULL, NULL, 0);
  tfe_kutil_register("ResourceGatherNd", k_resource_gather_nd, "dtype", gnd,
                     KUTIL_COUNT(gnd), "Tindices", idx, KUTIL_COUNT(idx));
  tfe_kutil_register("VariableShape", k_variable_shape, "out_type", idx,
                     KUTIL_COUNT(idx), NULL, NULL, 0);
}
