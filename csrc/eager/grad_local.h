/* Small op-building shortcuts shared by the grad_*.c files
 * (static inline, private to them; grad_util.h holds the
 * common helpers). Each does nothing once the status holds an error and
 * returns NULL then, so a gradient can chain calls and check once.
 * Returned tensors are the caller's. */
#ifndef TFE_EAGER_GRAD_LOCAL_H_
#define TFE_EAGER_GRAD_LOCAL_H_

#include <string.h>

#include "core/status_internal.h"
#include "eager/grad_util.h"
#include "tensorflow/c/tf_tensor.h"
#include "tfe/unified.h"

#define GL_OK(s) (TF_GetCode(s) == TF_OK)

/* A new op of `type` (NULL when the status already failed). */
static inline TF_AbstractOp* gl_op(TFE_GradientContext* g, const char* type, TF_Status* s) {
  return GL_OK(s) ? gu_new_op(g, type, s) : NULL;
}

static inline void gl_in(TF_AbstractOp* op, TF_AbstractTensor* t, TF_Status* s) {
  if (op == NULL || !GL_OK(s)) return;
  if (t == NULL) {
    tfe_status_setf(s, TF_INTERNAL, "gradient: missing input tensor");
    return;
  }
  TFE_AbstractOpAddInput(op, t, s);
}

static inline void gl_in_list(TF_AbstractOp* op, TF_AbstractTensor* const* t, int n,
                              TF_Status* s) {
  if (op == NULL || !GL_OK(s)) return;
  TFE_AbstractOpAddInputList(op, t, n, s);
}

/* Runs op and returns output 0. */
static inline TF_AbstractTensor* gl_fin(TF_AbstractOp* op, TF_Status* s) {
  if (op == NULL) return NULL;
  if (!GL_OK(s)) {
    TF_DeleteAbstractOp(op);
    return NULL;
  }
  return gu_finish(op, 0, s);
}

/* Runs op and stores its n outputs in outs (all NULL on failure). */
static inline void gl_fin_n(TF_AbstractOp* op, int n, TF_AbstractTensor** outs, TF_Status* s) {
  TF_OutputList* o;
  int i;
  for (i = 0; i < n; i++) outs[i] = NULL;
  if (op == NULL) return;
  if (!GL_OK(s)) {
    TF_DeleteAbstractOp(op);
    return;
  }
  o = TF_NewOutputList();
  if (o == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    TF_DeleteAbstractOp(op);
    return;
  }
  TF_OutputListSetNumOutputs(o, n, s);
  if (GL_OK(s)) TF_ExecuteOperation(op, 0, NULL, o, s);
  if (GL_OK(s)) {
    int got = TF_OutputListNumOutputs(o);
    for (i = 0; i < got; i++) {
      if (i < n) {
        outs[i] = TF_OutputListGet(o, i);
      } else {
        TF_DeleteAbstractTensor(TF_OutputListGet(o, i));
      }
    }
  }
  TF_DeleteOutputList(o);
  TF_DeleteAbstractOp(op);
}

/* Attr setters and copies from the forward op (a copy of an attr the
 * forward op lacks does nothing: the new op keeps its default). */
static inline void gl_set_bool(TF_AbstractOp* op, const char* n, int v, TF_Status* s) {
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrBool(op, n, (unsigned char)(v != 0), s);
}
static inline void gl_set_int(TF_AbstractOp* op, const char* n, int64_t v, TF_Status* s) {
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrInt(op, n, v, s);
}
static inline void gl_set_type(TF_AbstractOp* op, const char* n, TF_DataType v, TF_Status* s) {
  if (op != NULL && GL_OK(s)) TF_AbstractOpSetAttrType(op, n, v, s);
}
static inline void gl_cp_ilist(TFE_GradientContext* g, TF_AbstractOp* op, const char* n,
                               TF_Status* s) {
  const int64_t* v = NULL;
  int k = 0;
  if (op == NULL || !GL_OK(s)) return;
  if (tfe_attrs_get_int_list(g->attrs, n, &v, &k, NULL)) {
    TFE_AbstractOpSetAttrIntList(op, n, v, k, s);
  }
}
static inline void gl_cp_str(TFE_GradientContext* g, TF_AbstractOp* op, const char* n,
                             TF_Status* s) {
  const char* v = NULL;
  size_t len = 0;
  if (op == NULL || !GL_OK(s)) return;
  if (tfe_attrs_get_string(g->attrs, n, &v, &len, NULL)) {
    TFE_AbstractOpSetAttrString(op, n, v, len, s);
  }
}
static inline void gl_cp_int(TFE_GradientContext* g, TF_AbstractOp* op, const char* n,
                             TF_Status* s) {
  int64_t v = 0;
  if (op == NULL || !GL_OK(s)) return;
  if (tfe_attrs_get_int(g->attrs, n, &v, NULL)) TFE_AbstractOpSetAttrInt(op, n, v, s);
}
static inline void gl_cp_bool(TFE_GradientContext* g, TF_AbstractOp* op, const char* n,
                              TF_Status* s) {
  int v = 0;
  if (op == NULL || !GL_OK(s)) return;
  if (tfe_attrs_get_bool(g->attrs, n, &v, NULL)) {
    TFE_AbstractOpSetAttrBool(op, n, (unsigned char)(v != 0), s);
  }
}
static inline void gl_cp_float(TFE_GradientContext* g, TF_AbstractOp* op, const char* n,
                               TF_Status* s) {
  float v = 0;
  if (op == NULL || !GL_OK(s)) return;
  if (tfe_attrs_get_float(g->attrs, n, &v, NULL)) TFE_AbstractOpSetAttrFloat(op, n, v, s);
}

/* A scalar constant of dtype dt holding v (float, double, int32, int64
 * directly; other dtypes through a Cast of a double). */
static inline TF_AbstractTensor* gl_scalar(TFE_GradientContext* g, TF_DataType dt, double v,
                                           TF_Status* s) {
  TF_DataType make = (dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_INT32 || dt == TF_INT64)
                         ? dt
                         : TF_DOUBLE;
  TF_Tensor* t;
  TF_AbstractOp* op;
  TF_AbstractTensor* r;
  if (!GL_OK(s)) return NULL;
  t = TF_AllocateTensor(make, NULL, 0, TF_DataTypeSize(make));
  if (t == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return NULL;
  }
  switch (make) {
    case TF_FLOAT: *(float*)TF_TensorData(t) = (float)v; break;
    case TF_INT32: *(int32_t*)TF_TensorData(t) = (int32_t)v; break;
    case TF_INT64: *(int64_t*)TF_TensorData(t) = (int64_t)v; break;
    default: *(double*)TF_TensorData(t) = v; break;
  }
  op = gl_op(g, "Const", s);
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrTensor(op, "value", t, s);
  gl_set_type(op, "dtype", make, s);
  r = gl_fin(op, s);
  TF_DeleteTensor(t);
  if (make != dt && r != NULL) {
    TF_AbstractTensor* c = gu_cast(g, r, dt, s);
    TF_DeleteAbstractTensor(r);
    r = c;
  }
  return r;
}

static inline TF_AbstractTensor* gl_i32(TFE_GradientContext* g, int32_t v, TF_Status* s) {
  return gl_scalar(g, TF_INT32, v, s);
}

/* Shape(x) with out_type dt (int32 or int64). */
static inline TF_AbstractTensor* gl_shape(TFE_GradientContext* g, TF_AbstractTensor* x,
                                          TF_DataType dt, TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, "Shape", s);
  gl_in(op, x, s);
  gl_set_type(op, "out_type", dt, s);
  return gl_fin(op, s);
}

/* Sum(x, axes, keep_dims). */
static inline TF_AbstractTensor* gl_sum(TFE_GradientContext* g, TF_AbstractTensor* x,
                                        TF_AbstractTensor* axes, int keep, TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, "Sum", s);
  gl_in(op, x, s);
  gl_in(op, axes, s);
  gl_set_bool(op, "keep_dims", keep, s);
  return gl_fin(op, s);
}

/* Range(a, b, d) over int32 scalars. */
static inline TF_AbstractTensor* gl_range(TFE_GradientContext* g, TF_AbstractTensor* a,
                                          TF_AbstractTensor* b, TF_AbstractTensor* d,
                                          TF_Status* s) {
  TF_AbstractOp* op = gl_op(g, "Range", s);
  gl_in(op, a, s);
  gl_in(op, b, s);
  gl_in(op, d, s);
  return gl_fin(op, s);
}

/* grad summed to the shape of x (grad's shape broadcasts from x's):
 * BroadcastGradientArgs(Shape(x), Shape(grad)), Sum, Reshape. */
static inline TF_AbstractTensor* gl_reduce_to(TFE_GradientContext* g, TF_AbstractTensor* grad,
                                              TF_AbstractTensor* x, TF_Status* s) {
  TF_AbstractTensor *sx, *sg, *r[2], *sum, *out;
  TF_AbstractOp* op;
  if (!GL_OK(s) || grad == NULL) return NULL;
  if (gu_same_shape(grad, x, s)) return TFE_AbstractTensorCopy(grad, s);
  sx = gl_shape(g, x, TF_INT32, s);
  sg = gl_shape(g, grad, TF_INT32, s);
  op = gl_op(g, "BroadcastGradientArgs", s);
  gl_in(op, sx, s);
  gl_in(op, sg, s);
  gl_fin_n(op, 2, r, s);
  sum = gl_sum(g, grad, r[0], 1, s);
  out = gu_call2(g, "Reshape", sum, sx, s);
  TF_DeleteAbstractTensor(sx);
  TF_DeleteAbstractTensor(sg);
  TF_DeleteAbstractTensor(r[0]);
  TF_DeleteAbstractTensor(r[1]);
  TF_DeleteAbstractTensor(sum);
  return out;
}

/* The upstream gradient of output i, or ZerosLike(output i) when none. */
static inline TF_AbstractTensor* gl_grad_or_zeros(TFE_GradientContext* g, int i, TF_Status* s) {
  TF_AbstractTensor* d = TFE_GradientContextOutputGradient(g, i);
  if (!GL_OK(s)) return NULL;
  if (d != NULL) return TFE_AbstractTensorCopy(d, s);
  return gu_call1(g, "ZerosLike", TFE_GradientContextOutput(g, i), s);
}

static inline void gl_free(TF_AbstractTensor** t, int n) {
  int i;
  for (i = 0; i < n; i++) {
    TF_DeleteAbstractTensor(t[i]);
    t[i] = NULL;
  }
}

#endif /* TFE_EAGER_GRAD_LOCAL_H_ */
