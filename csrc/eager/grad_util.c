/* Building blocks of gradient functions (grad_util.h): ops on the
 * gradient's execution context, named uniquely when traced, and the
 * broadcasting reduction of binary ops. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/grad_util.h"
#include "tfe/unified.h"

static atomic_int g_name_counter;

/* Starts an op of type `type` on the gradient's context; a traced context
 * needs a node name, which is made unique here. */
TF_AbstractOp* gu_new_op(TFE_GradientContext* g, const char* type, TF_Status* s) {
  TF_ExecutionContext* ec = TFE_GradientContextExecutionContext(g);
  TF_AbstractOp* op = TF_NewAbstractOp(ec);
  TF_AbstractTensor* probe = TFE_GradientContextInput(g, 0);
  if (op == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient of %s: out of memory",
                    TFE_GradientContextOpType(g));
    return NULL;
  }
  TF_AbstractOpSetOpType(op, type, s);
  if (TF_GetCode(s) == TF_OK && probe != NULL && !TFE_AbstractTensorIsEager(probe)) {
    char name[256];
    if (!tfe_unified_node_name(ec, type, name, sizeof name)) {
      snprintf(name, sizeof name, "gradients/%s_%d", type,
               atomic_fetch_add_explicit(&g_name_counter, 1, memory_order_relaxed));
    }
    TF_AbstractOpSetOpName(op, name, s);
  }
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return NULL;
  }
  return op;
}

/* Runs op (inputs already added) and returns its output `which` (the
 * caller's); the other outputs are freed. Frees op. */
TF_AbstractTensor* gu_finish(TF_AbstractOp* op, int which, TF_Status* s) {
  TF_OutputList* o = TF_NewOutputList();
  TF_AbstractTensor* r = NULL;
  int i;
  if (o == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    TF_DeleteAbstractOp(op);
    return NULL;
  }
  TF_OutputListSetNumOutputs(o, which + 1 < 2 ? 2 : which + 1, s);
  if (TF_GetCode(s) == TF_OK) TF_ExecuteOperation(op, 0, NULL, o, s);
  if (TF_GetCode(s) == TF_OK) {
    for (i = 0; i < TF_OutputListNumOutputs(o); i++) {
      if (i == which) {
        r = TF_OutputListGet(o, i);
      } else {
        TF_DeleteAbstractTensor(TF_OutputListGet(o, i));
      }
    }
  }
  TF_DeleteOutputList(o);
  TF_DeleteAbstractOp(op);
  return r;
}

/* type(a), type(a, b): one-output ops. */
TF_AbstractTensor* gu_call2(TFE_GradientContext* g, const char* type, TF_AbstractTensor* a,
                                TF_AbstractTensor* b, TF_Status* s) {
  TF_AbstractOp* op;
  if (TF_GetCode(s) != TF_OK || a == NULL) return NULL;
  op = gu_new_op(g, type, s);
  if (op == NULL) return NULL;
  TFE_AbstractOpAddInput(op, a, s);
  if (b != NULL && TF_GetCode(s) == TF_OK) TFE_AbstractOpAddInput(op, b, s);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return NULL;
  }
  return gu_finish(op, 0, s);
}

TF_AbstractTensor* gu_call1(TFE_GradientContext* g, const char* type, TF_AbstractTensor* a,
                                TF_Status* s) {
  return gu_call2(g, type, a, NULL, s);
}

/* Sets input i's gradient (takes t over; NULL leaves it unset). */
void gu_give(TFE_GradientContext* g, int i, TF_AbstractTensor* t, TF_Status* s) {
  if (t == NULL) return;
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractTensor(t);
    return;
  }
  TFE_GradientContextSetInputGradient(g, i, t, s);
}

int gu_is_complex(TF_AbstractTensor* t, TF_Status* s) {
  TF_DataType dt = TFE_AbstractTensorDataType(t, s);
  return dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
}

/* conj(t) for complex values, a new reference to t otherwise. */
TF_AbstractTensor* gu_conj(TFE_GradientContext* g, TF_AbstractTensor* t, TF_Status* s) {
  if (TF_GetCode(s) != TF_OK || t == NULL) return NULL;
  if (gu_is_complex(t, s)) return gu_call1(g, "Conj", t, s);
  return TFE_AbstractTensorCopy(t, s);
}

/* 1 when a and b have the same fully known shape. */
int gu_same_shape(TF_AbstractTensor* a, TF_AbstractTensor* b, TF_Status* s) {
  int i, n = TFE_AbstractTensorNumDims(a, s);
  if (TF_GetCode(s) != TF_OK || n < 0 || n != TFE_AbstractTensorNumDims(b, s)) return 0;
  for (i = 0; i < n; i++) {
    int64_t da = TFE_AbstractTensorDim(a, i, s);
    if (da < 0 || da != TFE_AbstractTensorDim(b, i, s)) return 0;
  }
  return TF_GetCode(s) == TF_OK;
}

/* The gradient `grad` (taken over) of a binary op's input `which` (0 or
 * 1) summed over the dimensions broadcasting added, in that input's
 * shape. */
TF_AbstractTensor* gu_unbroadcast(TFE_GradientContext* g, TF_AbstractTensor* grad, int which,
                                      TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* y = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* mine = which == 0 ? x : y;
  TF_AbstractTensor *sx = NULL, *sy = NULL, *axes = NULL, *summed = NULL, *out = NULL;
  TF_AbstractOp* op;
  if (grad == NULL || TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractTensor(grad);
    return NULL;
  }
  if (gu_same_shape(x, y, s) && gu_same_shape(mine, grad, s)) return grad;
  sx = gu_call1(g, "Shape", x, s);
  sy = gu_call1(g, "Shape", y, s);
  op = TF_GetCode(s) == TF_OK ? gu_new_op(g, "BroadcastGradientArgs", s) : NULL;
  if (op != NULL) {
    TFE_AbstractOpAddInput(op, sx, s);
    TFE_AbstractOpAddInput(op, sy, s);
    if (TF_GetCode(s) == TF_OK) {
      axes = gu_finish(op, which, s);
    } else {
      TF_DeleteAbstractOp(op);
    }
  }
  if (axes != NULL) {
    op = gu_new_op(g, "Sum", s);
    if (op != NULL) {
      TFE_AbstractOpAddInput(op, grad, s);
      TFE_AbstractOpAddInput(op, axes, s);
      TFE_AbstractOpSetAttrBool(op, "keep_dims", 1, s);
      if (TF_GetCode(s) == TF_OK) {
        summed = gu_finish(op, 0, s);
      } else {
        TF_DeleteAbstractOp(op);
      }
    }
  }
  if (summed != NULL) out = gu_call2(g, "Reshape", summed, which == 0 ? sx : sy, s);
  TF_DeleteAbstractTensor(grad);
  TF_DeleteAbstractTensor(sx);
  TF_DeleteAbstractTensor(sy);
  TF_DeleteAbstractTensor(axes);
  TF_DeleteAbstractTensor(summed);
  return out;
}

TF_AbstractTensor* gu_upstream(TFE_GradientContext* g) {
  return TFE_GradientContextOutputGradient(g, 0);
}

/* An int32 vector constant. */
TF_AbstractTensor* gu_const_i32(TFE_GradientContext* g, const int32_t* v, int n,
                                    TF_Status* s) {
  int64_t dims[1];
  TF_Tensor* t;
  TF_AbstractOp* op;
  TF_AbstractTensor* r;
  if (TF_GetCode(s) != TF_OK) return NULL;
  dims[0] = n;
  t = TF_AllocateTensor(TF_INT32, dims, 1, (size_t)n * sizeof(int32_t));
  if (t == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED, "gradient: out of memory");
    return NULL;
  }
  memcpy(TF_TensorData(t), v, (size_t)n * sizeof(int32_t));
  op = gu_new_op(g, "Const", s);
  if (op == NULL) {
    TF_DeleteTensor(t);
    return NULL;
  }
  TFE_AbstractOpSetAttrTensor(op, "value", t, s);
  TF_AbstractOpSetAttrType(op, "dtype", TF_INT32, s);
  TF_DeleteTensor(t);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return NULL;
  }
  r = gu_finish(op, 0, s);
  return r;
}

TF_AbstractTensor* gu_cast(TFE_GradientContext* g, TF_AbstractTensor* x, TF_DataType dt,
                                  TF_Status* s) {
  TF_AbstractOp* op;
  if (TF_GetCode(s) != TF_OK || x == NULL) return NULL;
  op = gu_new_op(g, "Cast", s);
  if (op == NULL) return NULL;
  TFE_AbstractOpAddInput(op, x, s);
  TF_AbstractOpSetAttrType(op, "DstT", dt, s);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return NULL;
  }
  return gu_finish(op, 0, s);
}

