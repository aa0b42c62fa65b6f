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
 * - AdjustContrast (v1) and RandomCrop: TF 2.21 has CPU kernels but
 *   refuses both ops (deprecated GraphDef versions); so does tfe.
 *
 * Semantics, checks and messages follow TensorFlow 2.21's CPU kernels. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/tensor_internal.h"
#include "core/threadpool.h"
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

/* ResourceGatherNd's common case: fixed-size elements, int32/int64
 * indices all in bounds. Offsets are found and checked in one pass, then
 * the slices copied in parallel. Returns 0 (nothing done) when another
 * case or a bad index needs GatherNd's general code and messages. */
typedef struct rgnd_job {
  const char* src;
  char* dst;
  const int64_t* off;
  size_t bytes;
} rgnd_job;

static void rgnd_rows(void* arg, int64_t r0, int64_t r1) {
  const rgnd_job* j = (const rgnd_job*)arg;
  int64_t r;
  for (r = r0; r < r1; r++)
    memcpy(j->dst + (size_t)r * j->bytes, j->src + (size_t)j->off[r] * j->bytes, j->bytes);
}

static int rgnd_fast(tfe_kernel_context* k, const TF_Tensor* p, const TF_Tensor* ix) {
  int pr = p->num_dims, ir = ix->num_dims, i, on = 0;
  int64_t kd, nrows, slice, r, odims[TFE_MAX_DIMS];
  int64_t* off;
  rgnd_job j;
  TF_Tensor* y;
  if (p->dtype == TF_STRING || ir < 1 || pr < 1 || kutil_num_elements(p) == 0 ||
      (ix->dtype != TF_INT32 && ix->dtype != TF_INT64))
    return 0;
  kd = ix->dims[ir - 1];
  if (kd < 1 || kd > pr) return 0;
  nrows = kutil_dims_prod(ix->dims, 0, ir - 1);
  if (nrows == 0) return 0;
  slice = kutil_dims_prod(p->dims, (int)kd, pr);
  off = (int64_t*)malloc(sizeof(int64_t) * (size_t)nrows);
  if (off == NULL) return 0;
  for (r = 0; r < nrows; r++) {
    int64_t o = 0, q;
    for (q = 0; q < kd; q++) {
      int64_t v = ix->dtype == TF_INT32 ? ((const int32_t*)kutil_data(ix))[r * kd + q]
                                        : ((const int64_t*)kutil_data(ix))[r * kd + q];
      if (v < 0 || v >= p->dims[q]) {
        free(off);
        return 0;
      }
      o = o * p->dims[q] + v;
    }
    off[r] = o;
  }
  for (i = 0; i < ir - 1; i++) odims[on++] = ix->dims[i];
  for (i = (int)kd; i < pr; i++) odims[on++] = p->dims[i];
  y = tfe_kernel_alloc_output(k, 0, p->dtype, odims, on);
  if (y != NULL && slice > 0) {
    j.src = (const char*)kutil_data(p);
    j.dst = (char*)kutil_data(y);
    j.off = off;
    j.bytes = (size_t)slice * kutil_esize(p->dtype);
    tfe_parallel_for(tfe_kernel_threadpool(k), nrows,
                     j.bytes >= 16384 ? 1 : (int64_t)(16384 / j.bytes), rgnd_rows, &j);
  }
  free(off);
  return 1;
}

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
    } else if (!rgnd_fast(k, r->value, k->inputs[1])) {
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

/* ------------------------------------ ImageProjectiveTransformV2 / V3 */

/* Output pixel (y, x) of image b samples the input at
 *   ((t0 x + t1 y + t2) / k, (t3 x + t4 y + t5) / k), k = t6 x + t7 y + 1,
 * in float arithmetic as TF; fill_mode maps coordinates outside the image
 * back into it (CONSTANT keeps them). NEAREST reads the pixel at the
 * rounded coordinates; BILINEAR blends the four neighbours in float and
 * converts the blend to the dtype; a pixel position outside the image
 * reads as fill_value (as does every pixel when k is 0). */

enum { IPT_REFLECT, IPT_WRAP, IPT_CONSTANT, IPT_NEAREST };

/* float -> T as a C++ static_cast compiles on x86-64: truncation toward
 * zero, NaN and out-of-range values becoming the "integer indefinite"
 * (INT32_MIN / INT64_MIN) before narrowing. */
static int32_t ipt_f2i32(float f) {
  if (!(f > -2147483904.0f && f < 2147483648.0f)) return INT32_MIN;
  return (int32_t)f;
}

static int64_t ipt_f2i64(float f) {
  if (!(f > -9.2233730e18f && f < 9.2233720e18f)) return INT64_MIN;
  return (int64_t)f;
}

static void ipt_store(TF_DataType dt, void* dst, int64_t i, float v) {
  switch (dt) {
    case TF_FLOAT: ((float*)dst)[i] = v; break;
    case TF_DOUBLE: ((double*)dst)[i] = (double)v; break;
    case TF_HALF: ((uint16_t*)dst)[i] = kutil_f32_to_f16(v); break;
    case TF_BFLOAT16: ((uint16_t*)dst)[i] = kutil_f32_to_bf16(v); break;
    case TF_UINT8: ((uint8_t*)dst)[i] = (uint8_t)(uint32_t)ipt_f2i32(v); break;
    case TF_INT32: ((int32_t*)dst)[i] = ipt_f2i32(v); break;
    case TF_INT64: ((int64_t*)dst)[i] = ipt_f2i64(v); break;
    default: break;
  }
}

static float ipt_load(TF_DataType dt, const void* src, int64_t i) {
  switch (dt) {
    case TF_FLOAT: return ((const float*)src)[i];
    case TF_DOUBLE: return (float)((const double*)src)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)src)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)src)[i]);
    case TF_UINT8: return (float)((const uint8_t*)src)[i];
    case TF_INT32: return (float)((const int32_t*)src)[i];
    case TF_INT64: return (float)((const int64_t*)src)[i];
    default: return 0.0f;
  }
}

static float ipt_clamp(float v, float lo, float hi) {
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

static float ipt_map(int mode, float c, int64_t len) {
  float v = c;
  if (mode == IPT_CONSTANT) return c;
  if (mode == IPT_REFLECT) {
    if (v < 0) {
      if (len <= 1) {
        v = 0;
      } else {
        int64_t sz2 = 2 * len;
        if (v < (float)sz2) v = (float)sz2 * (float)(int64_t)(-v / (float)sz2) + v;
        v = v < (float)-len ? v + (float)sz2 : -v - 1;
      }
    } else if (v > (float)(len - 1)) {
      if (len <= 1) {
        v = 0;
      } else {
        int64_t sz2 = 2 * len;
        v -= (float)sz2 * (float)(int64_t)(v / (float)sz2);
        if (v >= (float)len) v = (float)sz2 - v - 1;
      }
    }
  } else if (mode == IPT_WRAP) {
    if (v < 0) {
      if (len <= 1) {
        v = 0;
      } else {
        int64_t sz = len - 1;
        v += (float)len * (float)((int64_t)(-v / (float)sz) + 1);
      }
    } else if (v > (float)(len - 1)) {
      if (len <= 1) {
        v = 0;
      } else {
        int64_t sz = len - 1;
        v -= (float)len * (float)(int64_t)(v / (float)sz);
      }
    }
  }
  return ipt_clamp(v, 0.0f, (float)(len - 1));
}

typedef struct ipt_job {
  TF_DataType dt;
  size_t esz;
  const char* in;
  char* out;
  const float* tr;
  int64_t ntr, h, w, c, oh, ow;
  int mode, bilinear;
  float fill;     /* fill value converted to T, as float */
  char fill_t[8]; /* fill value as one T */
} ipt_job;

/* Coordinates that the float -> int64 conversion cannot hold (huge or
 * NaN) never index the image: pixels there are the fill value. */
static int64_t ipt_idx(float v) {
  if (!(v > -1e18f && v < 1e18f)) return -1;
  return (int64_t)v;
}

static void ipt_rows(void* arg, int64_t r0, int64_t r1) {
  const ipt_job* j = (const ipt_job*)arg;
  int64_t r, ox, ch;
  for (r = r0; r < r1; r++) {
    int64_t b = r / j->oh, oy = r % j->oh;
    const float* t = j->tr + (j->ntr == 1 ? 0 : b * 8);
    const char* img = j->in + (size_t)(b * j->h * j->w * j->c) * j->esz;
    char* orow = j->out + (size_t)(r * j->ow * j->c) * j->esz;
    for (ox = 0; ox < j->ow; ox++) {
      char* op = orow + (size_t)(ox * j->c) * j->esz;
      float fx = (float)ox, fy = (float)oy;
      float proj = t[6] * fx + t[7] * fy + 1.f, ix, iy, x, y;
      if (proj == 0) goto fill;
      ix = (t[0] * fx + t[1] * fy + t[2]) / proj;
      iy = (t[3] * fx + t[4] * fy + t[5]) / proj;
      x = ipt_map(j->mode, ix, j->w);
      y = ipt_map(j->mode, iy, j->h);
      if (!j->bilinear) {
        int64_t yi = ipt_idx(roundf(y)), xi = ipt_idx(roundf(x));
        if (yi >= 0 && yi < j->h && xi >= 0 && xi < j->w) {
          memcpy(op, img + (size_t)((yi * j->w + xi) * j->c) * j->esz,
                 (size_t)j->c * j->esz);
          continue;
        }
        goto fill;
      } else {
        float y0 = floorf(y), x0 = floorf(x), y1 = y0 + 1, x1 = x0 + 1;
        int64_t yi[2], xi[2];
        int ok[2][2], a, bb;
        yi[0] = ipt_idx(y0);
        yi[1] = ipt_idx(y1);
        xi[0] = ipt_idx(x0);
        xi[1] = ipt_idx(x1);
        for (a = 0; a < 2; a++)
          for (bb = 0; bb < 2; bb++)
            ok[a][bb] = yi[a] >= 0 && yi[a] < j->h && xi[bb] >= 0 &&
                        xi[bb] < j->w;
        if (j->dt == TF_FLOAT) {
          /* the same arithmetic with direct float reads */
          const float* fi = (const float*)(const void*)img;
          float* fo = (float*)(void*)op;
          const float* pp[2][2];
          for (a = 0; a < 2; a++)
            for (bb = 0; bb < 2; bb++)
              pp[a][bb] = ok[a][bb] ? fi + (yi[a] * j->w + xi[bb]) * j->c : NULL;
          for (ch = 0; ch < j->c; ch++) {
            float v00 = pp[0][0] ? pp[0][0][ch] : j->fill;
            float v01 = pp[0][1] ? pp[0][1][ch] : j->fill;
            float v10 = pp[1][0] ? pp[1][0][ch] : j->fill;
            float v11 = pp[1][1] ? pp[1][1][ch] : j->fill;
            float lo = (x1 - x) * v00 + (x - x0) * v01;
            float hi = (x1 - x) * v10 + (x - x0) * v11;
            fo[ch] = (y1 - y) * lo + (y - y0) * hi;
          }
          continue;
        }
        for (ch = 0; ch < j->c; ch++) {
          float v[2][2], lo, hi;
          for (a = 0; a < 2; a++)
            for (bb = 0; bb < 2; bb++)
              v[a][bb] = ok[a][bb] ? ipt_load(j->dt, img,
                                              (yi[a] * j->w + xi[bb]) * j->c +
                                                  ch)
                                   : j->fill;
          lo = (x1 - x) * v[0][0] + (x - x0) * v[0][1];
          hi = (x1 - x) * v[1][0] + (x - x0) * v[1][1];
          ipt_store(j->dt, op, ch, (y1 - y) * lo + (y - y0) * hi);
        }
        continue;
      }
    fill:
      for (ch = 0; ch < j->c; ch++)
        memcpy(op + (size_t)ch * j->esz, j->fill_t, j->esz);
    }
  }
}

static void k_image_projective_transform(tfe_kernel_context* k) {
  const TF_Tensor *im = k->inputs[0], *tr = k->inputs[1], *sh = k->inputs[2];
  const char* interp = NULL;
  const char* fmode = NULL;
  size_t li = 0, lf = 0;
  ipt_job j;
  int64_t od[4];
  kutil_shape_buf sb;
  TF_Tensor* y;
  memset(&j, 0, sizeof j);
  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, "interpolation", &interp, &li,
                            k->status))
    return;
  if (!tfe_attrs_get_string(k->attrs, "fill_mode", &fmode, &lf, NULL)) {
    fmode = "CONSTANT";
    lf = 8;
  }
  if (li == 7 && memcmp(interp, "NEAREST", 7) == 0) {
    j.bilinear = 0;
  } else if (li == 8 && memcmp(interp, "BILINEAR", 8) == 0) {
    j.bilinear = 1;
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Invalid interpolation %.*s. Supported types: NEAREST, "
               "BILINEAR",
               (int)li, interp);
    return;
  }
  if (lf == 7 && memcmp(fmode, "REFLECT", 7) == 0) {
    j.mode = IPT_REFLECT;
  } else if (lf == 4 && memcmp(fmode, "WRAP", 4) == 0) {
    j.mode = IPT_WRAP;
  } else if (lf == 8 && memcmp(fmode, "CONSTANT", 8) == 0) {
    j.mode = IPT_CONSTANT;
  } else if (lf == 7 && memcmp(fmode, "NEAREST", 7) == 0) {
    j.mode = IPT_NEAREST;
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Invalid mode %.*s. Supported types: REFLECT, WRAP, CONSTANT, "
               "NEAREST",
               (int)lf, fmode);
    return;
  }
  if (im->num_dims != 4) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input images must have rank 4");
    return;
  }
  if (!(tr->num_dims == 2 && (tr->dims[0] == im->dims[0] || tr->dims[0] == 1) &&
        tr->dims[1] == 8)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input transform should be num_images x 8 or 1 x 8");
    return;
  }
  if (sh->num_dims != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "output shape must be 1-dimensional%s",
               kutil_tshape(sh, &sb));
    return;
  }
  if (sh->dims[0] != 2) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "output shape must have two elements%s",
               kutil_tshape(sh, &sb));
    return;
  }
  od[0] = im->dims[0];
  od[1] = ((const int32_t*)kutil_data(sh))[0];
  od[2] = ((const int32_t*)kutil_data(sh))[1];
  od[3] = im->dims[3];
  if (!(od[1] > 0 && od[2] > 0)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "output dimensions must be positive");
    return;
  }
  j.dt = im->dtype;
  j.esz = kutil_esize(im->dtype);
  if (k->num_inputs >= 4) {
    const TF_Tensor* fv = k->inputs[3];
    if (fv->num_dims != 0) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "fill_value must be a scalar%s",
                 kutil_tshape(fv, &sb));
      return;
    }
    ipt_store(j.dt, j.fill_t, 0, *(const float*)kutil_data(fv));
  } else {
    ipt_store(j.dt, j.fill_t, 0, 0.0f);
  }
  j.fill = ipt_load(j.dt, j.fill_t, 0);
  y = tfe_kernel_alloc_output(k, 0, im->dtype, od, 4);
  if (y == NULL || kutil_num_elements(y) == 0) return;
  j.in = (const char*)kutil_data(im);
  j.out = (char*)kutil_data(y);
  j.tr = (const float*)kutil_data(tr);
  j.ntr = tr->dims[0];
  j.h = im->dims[1];
  j.w = im->dims[2];
  j.c = im->dims[3];
  j.oh = od[1];
  j.ow = od[2];
  tfe_parallel_for(tfe_kernel_threadpool(k), od[0] * od[1],
                   od[2] * od[3] >= 4096 ? 1 : 4096 / (od[2] * od[3]), ipt_rows,
                   &j);
}

/* ------------------------------------------------- AdjustContrast (v1) */

/* TF 2.21 registers CPU kernels for AdjustContrast but refuses to run the
 * op: it was deprecated at GraphDef version 2 (AdjustContrastv2 replaces
 * it), so every run fails with TF's UNIMPLEMENTED message before the
 * inputs are looked at. */
static void k_adjust_contrast(tfe_kernel_context* k) {
  KUTIL_FAIL(k, TF_UNIMPLEMENTED,
             "Op AdjustContrast is not available in GraphDef version 2474. It has been "
             "removed in version 2. Use AdjustContrastv2 instead.");
}

/* RandomCrop likewise: deprecated at GraphDef version 8 (random crop is
 * done in Python now), refused by TF 2.21 for every input. */
static void k_random_crop(tfe_kernel_context* k) {
  KUTIL_FAIL(k, TF_UNIMPLEMENTED,
             "Op RandomCrop is not available in GraphDef version 2474. It has been "
             "removed in version 8. Random crop is now pure Python.");
}

/* ------------------------------------------------------- registration */

void tfe_register_cpu_more18_kernels(void) {
  /* TF_CALL_ALL_TYPES + uint32/uint64 that have a host layout here */
  static const TF_DataType ssa[] = {KUTIL_POD_TYPES, TF_STRING, TF_QINT8,
                                    TF_QUINT8, TF_QINT32};
  static const TF_DataType gnd[] = {KUTIL_POD_TYPES, TF_STRING};
  static const TF_DataType idx[] = {TF_INT32, TF_INT64};
  static const TF_DataType rcd[] = {KUTIL_REAL_TYPES};
  static const TF_DataType acd[] = {TF_UINT8, TF_INT8,  TF_INT16,
                                    TF_INT32, TF_FLOAT, TF_DOUBLE};
  static const TF_DataType ipt[] = {TF_UINT8, TF_INT32,  TF_INT64,   TF_HALF,
                                    TF_FLOAT, TF_DOUBLE, TF_BFLOAT16};
  tfe_kutil_register("TensorStridedSliceUpdate", k_tensor_strided_slice_update,
                     "T", ssa, KUTIL_COUNT(ssa), NULL, NULL, 0);
  tfe_kutil_register("ResourceStridedSliceAssign",
                     k_resource_strided_slice_assign, "T", ssa,
                     KUTIL_COUNT(ssa), NULL, NULL, 0);
  tfe_kutil_register("StridedSliceAssign", k_strided_slice_assign, "T", ssa,
                     KUTIL_COUNT(ssa), NULL, NULL, 0);
  tfe_kutil_register("ResourceGatherNd", k_resource_gather_nd, "dtype", gnd,
                     KUTIL_COUNT(gnd), "Tindices", idx, KUTIL_COUNT(idx));
  tfe_kutil_register("ImageProjectiveTransformV2",
                     k_image_projective_transform, "dtype", ipt,
                     KUTIL_COUNT(ipt), NULL, NULL, 0);
  tfe_kutil_register("ImageProjectiveTransformV3",
                     k_image_projective_transform, "dtype", ipt,
                     KUTIL_COUNT(ipt), NULL, NULL, 0);
  tfe_kutil_register("AdjustContrast", k_adjust_contrast, "T", acd,
                     KUTIL_COUNT(acd), NULL, NULL, 0);
  tfe_kutil_register("RandomCrop", k_random_crop, "T", rcd, KUTIL_COUNT(rcd),
                     NULL, NULL, 0);
  tfe_kutil_register("VariableShape", k_variable_shape, "out_type", idx,
                     KUTIL_COUNT(idx), NULL, NULL, 0);
}
