/* Helpers for white-box kernel tests (tests/c/test_internal_*_kernels.c):
 * build tensors, run one kernel by op name with explicit attrs, and compare
 * results. Kernels run through the real registry (tfe_kernel_find) with a
 * hand-filled tfe_kernel_context, so these tests do not need the eager
 * runtime. */
#ifndef TFE_TESTS_KERNEL_TEST_UTIL_H_
#define TFE_TESTS_KERNEL_TEST_UTIL_H_

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tensor_internal.h"
#include "kernels/cpu/kutil.h"
#include "kernels/kernel.h"
#include "ops/op_registry.h"
#include "tensorflow/c/tf_tensor.h"
#include "tfe_test.h"

#define KT_MAX_IO 16

/* ---- building tensors ---- */

/* New tensor of dtype with dims, elements converted from doubles. */
static inline TF_Tensor* kt_tensor(TF_DataType dt, const int64_t* dims,
                                   int nd, const double* vals) {
  int64_t n = tfe_shape_num_elements(dims, nd), i;
  size_t esz = kutil_esize(dt);
  TF_Tensor* t = TF_AllocateTensor(dt, dims, nd, (size_t)n * esz);
  char* d;
  if (t == NULL) return NULL;
  d = (char*)TF_TensorData(t);
  for (i = 0; i < n && vals != NULL; i++) {
    double v = vals[i];
    void* p = d + (size_t)i * esz;
    switch (dt) {
      case TF_FLOAT: *(float*)p = (float)v; break;
      case TF_DOUBLE: *(double*)p = v; break;
      case TF_HALF: *(uint16_t*)p = kutil_f32_to_f16((float)v); break;
      case TF_BFLOAT16: *(uint16_t*)p = kutil_f32_to_bf16((float)v); break;
      case TF_INT8: *(int8_t*)p = (int8_t)v; break;
      case TF_INT16: *(int16_t*)p = (int16_t)v; break;
      case TF_INT32: *(int32_t*)p = (int32_t)v; break;
      case TF_INT64: *(int64_t*)p = (int64_t)v; break;
      case TF_UINT8: *(uint8_t*)p = (uint8_t)v; break;
      case TF_UINT16: *(uint16_t*)p = (uint16_t)v; break;
      case TF_UINT32: *(uint32_t*)p = (uint32_t)v; break;
      case TF_UINT64: *(uint64_t*)p = (uint64_t)v; break;
      case TF_BOOL: *(unsigned char*)p = v != 0; break;
      case TF_COMPLEX64: ((float*)p)[0] = (float)v; ((float*)p)[1] = 0; break;
      case TF_COMPLEX128: ((double*)p)[0] = v; ((double*)p)[1] = 0; break;
      default: break;
    }
  }
  return t;
}

/* Element i of t as a double (real part for complex). */
static inline double kt_get(const TF_Tensor* t, int64_t i) {
  const char* d = (const char*)TF_TensorData(t);
  switch (t->dtype) {
    case TF_FLOAT: return ((const float*)d)[i];
    case TF_DOUBLE: return ((const double*)d)[i];
    case TF_HALF: return kutil_f16_to_f32(((const uint16_t*)d)[i]);
    case TF_BFLOAT16: return kutil_bf16_to_f32(((const uint16_t*)d)[i]);
    case TF_INT8: return ((const int8_t*)d)[i];
    case TF_INT16: return ((const int16_t*)d)[i];
    case TF_INT32: return ((const int32_t*)d)[i];
    case TF_INT64: return (double)((const int64_t*)d)[i];
    case TF_UINT8: return ((const uint8_t*)d)[i];
    case TF_UINT16: return ((const uint16_t*)d)[i];
    case TF_UINT32: return ((const uint32_t*)d)[i];
    case TF_UINT64: return (double)((const uint64_t*)d)[i];
    case TF_BOOL: return ((const unsigned char*)d)[i];
    case TF_COMPLEX64: return ((const float*)d)[2 * i];
    case TF_COMPLEX128: return ((const double*)d)[2 * i];
    default: return NAN;
  }
}

/* Dims argument pair for kt_tensor/kt_check: KT_DIMS(2, 3) expands to
 * "array, 2"; KT_SCALAR expands to "NULL, 0". */
#define KT_DIMS(...) \
  ((const int64_t[]){__VA_ARGS__}), \
      ((int)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define KT_SCALAR NULL, 0
#define KT_V(...) ((const double[]){__VA_ARGS__})

static inline TF_Tensor* kt_scalar(TF_DataType dt, double v) {
  return kt_tensor(dt, NULL, 0, &v);
}

static inline TF_Tensor* kt_vec(TF_DataType dt, int64_t n, const double* v) {
  return kt_tensor(dt, &n, 1, v);
}

/* ---- attrs ---- */

static inline void kt_attr_type(tfe_attrs* a, const char* name,
                                TF_DataType t) {
  tfe_attr_value v;
  tfe_attr_value_set_type(&v, t);
  tfe_attrs_put(a, name, &v);
}
static inline void kt_attr_int(tfe_attrs* a, const char* name, int64_t x) {
  tfe_attr_value v;
  tfe_attr_value_set_int(&v, x);
  tfe_attrs_put(a, name, &v);
}
static inline void kt_attr_bool(tfe_attrs* a, const char* name, int x) {
  tfe_attr_value v;
  tfe_attr_value_set_bool(&v, (unsigned char)x);
  tfe_attrs_put(a, name, &v);
}
static inline void kt_attr_ints(tfe_attrs* a, const char* name,
                                const int64_t* xs, int n) {
  tfe_attr_value v;
  tfe_attr_value_set_int_list(&v, xs, n);
  tfe_attrs_put(a, name, &v);
}
static inline void kt_attr_types(tfe_attrs* a, const char* name,
                                 const TF_DataType* xs, int n) {
  tfe_attr_value v;
  tfe_attr_value_set_type_list(&v, xs, n);
  tfe_attrs_put(a, name, &v);
}
static inline void kt_attr_string(tfe_attrs* a, const char* name,
                                  const char* s) {
  tfe_attr_value v;
  tfe_attr_value_set_string(&v, s, strlen(s));
  tfe_attrs_put(a, name, &v);
}
static inline void kt_attr_shape(tfe_attrs* a, const char* name,
                                 const int64_t* dims, int nd) {
  tfe_attr_value v;
  tfe_attr_value_set_shape(&v, dims, nd);
  tfe_attrs_put(a, name, &v);
}
static inline void kt_attr_tensor(tfe_attrs* a, const char* name,
                                  const TF_Tensor* t) {
  tfe_attr_value v;
  tfe_attr_value_set_tensor(&v, t);
  tfe_attrs_put(a, name, &v);
}

/* ---- running ---- */

/* Referencing a symbol of register_array.c makes the linker take the array
 * kernels out of the static library even if a weak placeholder for their
 * registration function is linked first. */
static void* volatile kt_array_kernels_anchor = (void*)&tfe_kutil_register;

static inline void kt_setup(void) {
  (void)kt_array_kernels_anchor;
  tfe_ops_ensure_builtins();
  tfe_kernels_ensure_builtins();
}

/* Infers unset type attrs of single-tensor args from the inputs (list args
 * need their number/type-list attrs set by the caller), completes the attrs
 * and runs the CPU kernel. Returns the number of outputs (>= 0) with the
 * outputs stored in out[], or -1 with status set. Consumes the inputs. */
static inline int kt_run(const char* op, tfe_attrs* attrs, TF_Tensor** in,
                         int nin, TF_Tensor** out, TF_Status* s) {
  const tfe_op_def* def;
  const tfe_kernel_reg* reg;
  tfe_kernel_context k;
  TF_DataType otypes[KT_MAX_IO];
  int nout = 0, i, flat = 0, rc = -1;
  void* state = NULL;
  kt_setup();
  TF_SetStatus(s, TF_OK, "");
  def = tfe_op_lookup(op);
  if (def == NULL) {
    TF_SetStatus(s, TF_NOT_FOUND, "no such op");
    goto done;
  }
  for (i = 0; i < def->num_inputs && flat < nin; i++) {
    const tfe_arg_def* arg = &def->inputs[i];
    int len = 1;
    if (arg->number_attr != NULL) {
      int64_t n;
      if (!tfe_attrs_get_int(attrs, arg->number_attr, &n, NULL)) {
        /* default: the rest of the inputs minus the remaining args */
        n = nin - flat - (def->num_inputs - i - 1);
        kt_attr_int(attrs, arg->number_attr, n);
      }
      len = (int)n;
    } else if (arg->type_list_attr != NULL) {
      const TF_DataType* ts;
      int n;
      if (tfe_attrs_get_type_list(attrs, arg->type_list_attr, &ts, &n,
                                  NULL)) {
        len = n;
      } else {
        TF_DataType tl[KT_MAX_IO];
        int j;
        n = nin - flat - (def->num_inputs - i - 1);
        for (j = 0; j < n; j++) tl[j] = in[flat + j]->dtype;
        kt_attr_types(attrs, arg->type_list_attr, tl, n);
        len = n;
      }
    }
    if (arg->type_attr != NULL && tfe_attrs_find(attrs, arg->type_attr) == NULL &&
        len > 0) {
      kt_attr_type(attrs, arg->type_attr, in[flat]->dtype);
    }
    flat += len;
  }
  if (!tfe_op_def_complete_attrs(def, attrs, s)) goto done;
  reg = tfe_kernel_find(def, "CPU", attrs, s);
  if (reg == NULL) goto done;
  if (!tfe_op_def_output_types(def, attrs, otypes, KT_MAX_IO, &nout, s)) {
    goto done;
  }
  if (reg->create != NULL) {
    state = reg->create(def, attrs, reg->user_data, s);
    if (TF_GetCode(s) != TF_OK) goto done;
  }
  memset(&k, 0, sizeof k);
  for (i = 0; i < nout; i++) out[i] = NULL;
  k.op_def = def;
  k.attrs = attrs;
  k.inputs = in;
  k.num_inputs = nin;
  k.outputs = out;
  k.num_outputs = nout;
  k.output_types = otypes;
  k.status = s;
  k.state = state;
  k.user_data = reg->user_data;
  k.device_name = "/job:localhost/replica:0/task:0/device:CPU:0";
  reg->compute(&k);
  if (reg->destroy != NULL) reg->destroy(state, reg->user_data);
  if (TF_GetCode(s) != TF_OK) {
    for (i = 0; i < nout; i++) {
      TF_DeleteTensor(out[i]);
      out[i] = NULL;
    }
    goto done;
  }
  for (i = 0; i < nout; i++) {
    if (out[i] == NULL) {
      TF_SetStatus(s, TF_INTERNAL, "kernel left an output unset");
      goto done;
    }
  }
  rc = nout;
done:
  for (i = 0; i < nin; i++) TF_DeleteTensor(in[i]);
  return rc;
}

/* ---- checking ---- */

static inline void kt_check_shape(const TF_Tensor* t, const int64_t* dims,
                                  int nd, const char* where, int line) {
  int i;
  if (t == NULL) {
    fprintf(stderr, "%s:%d: NULL tensor\n", where, line);
    exit(1);
  }
  if (t->num_dims != nd) {
    fprintf(stderr, "%s:%d: rank %d, expected %d\n", where, line,
            t->num_dims, nd);
    exit(1);
  }
  for (i = 0; i < nd; i++) {
    if (t->dims[i] != dims[i]) {
      fprintf(stderr, "%s:%d: dim %d is %lld, expected %lld\n", where, line,
              i, (long long)t->dims[i], (long long)dims[i]);
      exit(1);
    }
  }
}

/* Checks dtype, shape and values (|got - want| <= tol; NaN matches NaN). */
static inline void kt_check(const TF_Tensor* t, TF_DataType dt,
                            const int64_t* dims, int nd, const double* vals,
                            double tol, const char* where, int line) {
  int64_t n, i;
  kt_check_shape(t, dims, nd, where, line);
  if (t->dtype != dt) {
    fprintf(stderr, "%s:%d: dtype %d, expected %d\n", where, line,
            (int)t->dtype, (int)dt);
    exit(1);
  }
  n = tfe_shape_num_elements(dims, nd);
  for (i = 0; i < n && vals != NULL; i++) {
    double g = kt_get(t, i), w = vals[i];
    int ok = (isnan(w) && isnan(g)) || g == w || fabs(g - w) <= tol;
    if (!ok) {
      fprintf(stderr, "%s:%d: element %lld is %.9g, expected %.9g\n", where,
              line, (long long)i, g, w);
      exit(1);
    }
  }
}

/* KT_CHECK(t, TF_FLOAT, KT_DIMS(2, 3), KT_V(...)) */
#define KT_CHECK(t, dt, dims, vals) \
  kt_check((t), (dt), dims, (vals), 0.0, __FILE__, __LINE__)
#define KT_CHECK_TOL(t, dt, dims, vals, tol) \
  kt_check((t), (dt), dims, (vals), (tol), __FILE__, __LINE__)

#endif /* TFE_TESTS_KERNEL_TEST_UTIL_H_ */
