/* Helpers for the white-box elementwise kernel tests: build tensors from
 * double values in any dtype, run one op through the kernel registry with
 * a hand-filled tfe_kernel_context, and compare results.
 * Used by tests/c/test_internal_kernels_*.c (linked against tfe_static). */
#ifndef TFE_TESTS_EW_TEST_UTIL_H_
#define TFE_TESTS_EW_TEST_UTIL_H_

#include <complex.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "core/tensor_internal.h"
#include "kernels/cpu/half.h"
#include "kernels/kernel.h"
#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

#define EW_DIMS(...) ((const int64_t[]){__VA_ARGS__})
#define EW_V(...) ((const double[]){__VA_ARGS__})
#define EW_V_F(...) ((const float[]){__VA_ARGS__})
#define EW_MAX_IO 8

static TF_Status* ew_status;
static tfe_attrs ew_attrs;
static TF_Tensor* ew_out[EW_MAX_IO];

static inline void ew_begin(void) {
  tfe_ops_ensure_builtins();
  tfe_kernels_ensure_builtins();
  if (ew_status == NULL) ew_status = TF_NewStatus();
  TF_SetStatus(ew_status, TF_OK, "");
  tfe_attrs_destroy(&ew_attrs);
  tfe_attrs_init(&ew_attrs);
}

static inline void ew_drop(void) {
  int i;
  for (i = 0; i < EW_MAX_IO; i++) {
    TF_DeleteTensor(ew_out[i]);
    ew_out[i] = NULL;
  }
}

/* ---- attrs ---- */
static inline void ew_attr_type(const char* name, TF_DataType t) {
  tfe_attr_value v;
  tfe_attr_value_set_type(&v, t);
  CHECK(tfe_attrs_put(&ew_attrs, name, &v));
}
static inline void ew_attr_bool(const char* name, int b) {
  tfe_attr_value v;
  tfe_attr_value_set_bool(&v, (unsigned char)b);
  CHECK(tfe_attrs_put(&ew_attrs, name, &v));
}
static inline void ew_attr_float(const char* name, float f) {
  tfe_attr_value v;
  tfe_attr_value_set_float(&v, f);
  CHECK(tfe_attrs_put(&ew_attrs, name, &v));
}
static inline void ew_attr_int(const char* name, int64_t i) {
  tfe_attr_value v;
  tfe_attr_value_set_int(&v, i);
  CHECK(tfe_attrs_put(&ew_attrs, name, &v));
}
static inline void ew_attr_string(const char* name, const char* s) {
  tfe_attr_value v;
  CHECK(tfe_attr_value_set_string(&v, s, strlen(s)));
  CHECK(tfe_attrs_put(&ew_attrs, name, &v));
}
static inline void ew_attr_float_list(const char* name, const float* xs,
                                      int n) {
  tfe_attr_value v;
  CHECK(tfe_attr_value_set_float_list(&v, xs, n));
  CHECK(tfe_attrs_put(&ew_attrs, name, &v));
}

/* ---- tensors ---- */

static inline int64_t ew_count(const int64_t* dims, int nd) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return n;
}

/* Stores v (a double) as element i of a buffer of dtype dt. Complex
 * elements get v as the real part. */
static inline void ew_store(TF_DataType dt, void* p, int64_t i, double v) {
  switch (dt) {
    case TF_FLOAT: ((float*)p)[i] = (float)v; break;
    case TF_DOUBLE: ((double*)p)[i] = v; break;
    case TF_HALF: ((uint16_t*)p)[i] = tfe_float_to_half((float)v); break;
    case TF_BFLOAT16: ((uint16_t*)p)[i] = tfe_float_to_bf16((float)v); break;
    case TF_INT8: case TF_QINT8: ((int8_t*)p)[i] = (int8_t)v; break;
    case TF_INT16: case TF_QINT16: ((int16_t*)p)[i] = (int16_t)v; break;
    case TF_INT32: case TF_QINT32: ((int32_t*)p)[i] = (int32_t)v; break;
    case TF_INT64: ((int64_t*)p)[i] = (int64_t)v; break;
    case TF_UINT8: case TF_QUINT8: ((uint8_t*)p)[i] = (uint8_t)(int64_t)v; break;
    case TF_UINT16: case TF_QUINT16:
      ((uint16_t*)p)[i] = (uint16_t)(int64_t)v;
      break;
    case TF_UINT32: ((uint32_t*)p)[i] = (uint32_t)(int64_t)v; break;
    case TF_UINT64:
      ((uint64_t*)p)[i] =
          v >= 9223372036854775808.0 ? (uint64_t)v : (uint64_t)(int64_t)v;
      break;
    case TF_BOOL: ((uint8_t*)p)[i] = v != 0; break;
    case TF_COMPLEX64:
      ((float*)p)[2 * i] = (float)v;
      ((float*)p)[2 * i + 1] = 0;
      break;
    case TF_COMPLEX128:
      ((double*)p)[2 * i] = v;
      ((double*)p)[2 * i + 1] = 0;
      break;
    default: TFE_FAIL("ew_store: unsupported dtype %d", (int)dt);
  }
}

/* Element i as a double (real part for complex). */
static inline double ew_load(const TF_Tensor* t, int64_t i) {
  const void* p = TF_TensorData(t);
  switch (TF_TensorType(t)) {
    case TF_FLOAT: return ((const float*)p)[i];
    case TF_DOUBLE: return ((const double*)p)[i];
    case TF_HALF: return tfe_half_to_float(((const uint16_t*)p)[i]);
    case TF_BFLOAT16: return tfe_bf16_to_float(((const uint16_t*)p)[i]);
    case TF_INT8: case TF_QINT8: return ((const int8_t*)p)[i];
    case TF_INT16: case TF_QINT16: return ((const int16_t*)p)[i];
    case TF_INT32: case TF_QINT32: return ((const int32_t*)p)[i];
    case TF_INT64: return (double)((const int64_t*)p)[i];
    case TF_UINT8: case TF_QUINT8: return ((const uint8_t*)p)[i];
    case TF_UINT16: case TF_QUINT16: return ((const uint16_t*)p)[i];
    case TF_UINT32: return ((const uint32_t*)p)[i];
    case TF_UINT64: return (double)((const uint64_t*)p)[i];
    case TF_BOOL: return ((const uint8_t*)p)[i];
    case TF_COMPLEX64: return ((const float*)p)[2 * i];
    case TF_COMPLEX128: return ((const double*)p)[2 * i];
    default: TFE_FAIL("ew_load: unsupported dtype %d", (int)TF_TensorType(t));
  }
  return 0;
}

/* New tensor of dt with the given values (count from dims). */
static inline TF_Tensor* ew_t(TF_DataType dt, const int64_t* dims, int nd,
                              const double* v) {
  int64_t n = ew_count(dims, nd), i;
  TF_Tensor* t =
      TF_AllocateTensor(dt, dims, nd, (size_t)n * TF_DataTypeSize(dt));
  CHECK(t != NULL);
  for (i = 0; i < n; i++) ew_store(dt, TF_TensorData(t), i, v[i]);
  return t;
}
/* Rank-1 tensor. */
static inline TF_Tensor* ew_vec(TF_DataType dt, int64_t n, const double* v) {
  return ew_t(dt, &n, 1, v);
}
/* Scalar. */
static inline TF_Tensor* ew_scalar(TF_DataType dt, double v) {
  return ew_t(dt, NULL, 0, &v);
}
/* Tensor over raw bytes (copied). */
static inline TF_Tensor* ew_raw(TF_DataType dt, const int64_t* dims, int nd,
                                const void* bytes) {
  size_t len = (size_t)ew_count(dims, nd) * TF_DataTypeSize(dt);
  TF_Tensor* t = TF_AllocateTensor(dt, dims, nd, len);
  CHECK(t != NULL);
  if (len) memcpy(TF_TensorData(t), bytes, len);
  return t;
}
/* Complex64 vector from (re, im) pairs. */
static inline TF_Tensor* ew_c64(int64_t n, const float* reim) {
  return ew_raw(TF_COMPLEX64, &n, 1, reim);
}
/* String vector. */
static inline TF_Tensor* ew_strs(const int64_t* dims, int nd,
                                 const char* const* s) {
  int64_t n = ew_count(dims, nd), i;
  TF_Tensor* t =
      TF_AllocateTensor(TF_STRING, dims, nd, (size_t)n * sizeof(TF_TString));
  TF_TString* d;
  CHECK(t != NULL);
  d = (TF_TString*)TF_TensorData(t);
  for (i = 0; i < n; i++) TF_StringCopy(&d[i], s[i], strlen(s[i]));
  return t;
}

/* ---- running ops ---- */

/* Runs `op` on the inputs (ownership taken) with the attrs collected in
 * ew_attrs; type attrs of inputs and number attrs of list inputs are
 * inferred. Returns the number of outputs (in ew_out) or -1 with
 * ew_status holding the error. */
static inline int ew_run_n(const char* op, TF_Tensor** in, int nin) {
  const tfe_op_def* def = tfe_op_lookup(op);
  const tfe_kernel_reg* reg;
  tfe_kernel_context k;
  TF_DataType otypes[EW_MAX_IO];
  int nout = 0, i, flat = 0, rc = -1;
  ew_drop();
  TF_SetStatus(ew_status, TF_OK, "");
  if (def == NULL) TFE_FAIL("no op definition for %s", op);
  for (i = 0; i < def->num_inputs && flat < nin; i++) {
    const tfe_arg_def* arg = &def->inputs[i];
    int len = 1;
    if (arg->number_attr != NULL) {
      len = nin - flat - (def->num_inputs - i - 1);
      if (tfe_attrs_find(&ew_attrs, arg->number_attr) == NULL) {
        ew_attr_int(arg->number_attr, len);
      }
    }
    if (arg->type_attr != NULL &&
        tfe_attrs_find(&ew_attrs, arg->type_attr) == NULL && len > 0) {
      ew_attr_type(arg->type_attr, in[flat]->dtype);
    }
    flat += len;
  }
  if (!tfe_op_def_complete_attrs(def, &ew_attrs, ew_status)) goto done;
  reg = tfe_kernel_find(def, "CPU", &ew_attrs, ew_status);
  if (reg == NULL) goto done;
  if (!tfe_op_def_output_types(def, &ew_attrs, otypes, EW_MAX_IO, &nout,
                               ew_status)) {
    goto done;
  }
  memset(&k, 0, sizeof k);
  k.op_def = def;
  k.attrs = &ew_attrs;
  k.inputs = in;
  k.num_inputs = nin;
  k.outputs = ew_out;
  k.num_outputs = nout;
  k.output_types = otypes;
  k.status = ew_status;
  k.user_data = reg->user_data;
  k.device_name = "/job:localhost/replica:0/task:0/device:CPU:0";
  reg->compute(&k);
  if (TF_GetCode(ew_status) != TF_OK) {
    ew_drop();
    goto done;
  }
  for (i = 0; i < nout; i++) {
    if (ew_out[i] == NULL) TFE_FAIL("%s left output %d unset", op, i);
    if (TF_TensorType(ew_out[i]) != otypes[i]) {
      TFE_FAIL("%s output %d has dtype %d, op says %d", op, i,
               (int)TF_TensorType(ew_out[i]), (int)otypes[i]);
    }
  }
  rc = nout;
done:
  for (i = 0; i < nin; i++) TF_DeleteTensor(in[i]);
  tfe_attrs_clear(&ew_attrs);
  return rc;
}

static inline int ew_run(const char* op, int nin, ...) {
  TF_Tensor* in[EW_MAX_IO];
  va_list ap;
  int i;
  va_start(ap, nin);
  for (i = 0; i < nin; i++) in[i] = va_arg(ap, TF_Tensor*);
  va_end(ap);
  return ew_run_n(op, in, nin);
}

/* ---- checks ---- */

#define EW_OK(n)                                                          \
  do {                                                                    \
    if ((n) != 1) {                                                       \
      TFE_FAIL("op failed (%d): %s %s", (n),                              \
               TFE_CodeName(TF_GetCode(ew_status)),                  \
               TF_Message(ew_status));                                    \
    }                                                                     \
  } while (0)

#define EW_ERR(n, code, frag)                                  \
  do {                                                         \
    CHECK_EQ_INT((n), -1);                                     \
    CHECK_CODE(ew_status, (code));                             \
    CHECK_STR_CONTAINS(TF_Message(ew_status), (frag));         \
  } while (0)

/* Values equal within rel/abs tolerance tol (0 = exact); NaN matches NaN;
 * zero signs are not compared unless tol < 0 (then -0 != +0). */
static inline int ew_close(double got, double want, double tol) {
  if (isnan(want)) return isnan(got);
  if (isinf(want)) return got == want;
  if (tol < 0) {
    return got == want && signbit(got) == signbit(want);
  }
  if (tol == 0) return got == want;
  return fabs(got - want) <= tol * (fabs(want) > 1 ? fabs(want) : 1);
}

/* Checks dtype, shape and values of t. */
static inline void ew_expect_at(const char* file, int line, const TF_Tensor* t,
                                TF_DataType dt, const int64_t* dims, int nd,
                                const double* want, double tol) {
  int i;
  int64_t n, j;
  if (t == NULL) {
    fprintf(stderr, "%s:%d: tensor is NULL\n", file, line);
    exit(1);
  }
  if (TF_TensorType(t) != dt) {
    fprintf(stderr, "%s:%d: dtype %d, expected %d\n", file, line,
            (int)TF_TensorType(t), (int)dt);
    exit(1);
  }
  if (TF_NumDims(t) != nd) {
    fprintf(stderr, "%s:%d: rank %d, expected %d\n", file, line,
            TF_NumDims(t), nd);
    exit(1);
  }
  for (i = 0; i < nd; i++) {
    if (TF_Dim(t, i) != dims[i]) {
      fprintf(stderr, "%s:%d: dim %d is %lld, expected %lld\n", file, line, i,
              (long long)TF_Dim(t, i), (long long)dims[i]);
      exit(1);
    }
  }
  n = ew_count(dims, nd);
  for (j = 0; j < n; j++) {
    double g = ew_load(t, j);
    if (!ew_close(g, want[j], tol)) {
      fprintf(stderr, "%s:%d: element %lld is %.17g, expected %.17g\n", file,
              line, (long long)j, g, want[j]);
      exit(1);
    }
  }
}
#define EW_EXPECT(t, dt, dims, nd, want) \
  ew_expect_at(__FILE__, __LINE__, (t), (dt), (dims), (nd), (want), 0)
#define EW_EXPECT_TOL(t, dt, dims, nd, want, tol) \
  ew_expect_at(__FILE__, __LINE__, (t), (dt), (dims), (nd), (want), (tol))
/* Rank-1 result of n elements. */
#define EW_EXPECT_VEC(t, dt, n, want)                                    \
  do {                                                                   \
    int64_t n_ = (n);                                                    \
    ew_expect_at(__FILE__, __LINE__, (t), (dt), &n_, 1, (want), 0);      \
  } while (0)
#define EW_EXPECT_VEC_TOL(t, dt, n, want, tol)                           \
  do {                                                                   \
    int64_t n_ = (n);                                                    \
    ew_expect_at(__FILE__, __LINE__, (t), (dt), &n_, 1, (want), (tol));  \
  } while (0)
/* Exact including the sign of zero. */
#define EW_EXPECT_VEC_SIGNED(t, dt, n, want)                             \
  do {                                                                   \
    int64_t n_ = (n);                                                    \
    ew_expect_at(__FILE__, __LINE__, (t), (dt), &n_, 1, (want), -1);     \
  } while (0)

/* Raw element bits for checks on integer results beyond 2^53. */
static inline uint64_t ew_u64_at(const TF_Tensor* t, int64_t i) {
  return ((const uint64_t*)TF_TensorData(t))[i];
}

#endif /* TFE_TESTS_EW_TEST_UTIL_H_ */
