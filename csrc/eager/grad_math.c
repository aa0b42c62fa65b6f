/* Built-in gradient functions, registered by grad_registry.c on first use.
 *
 * Each is written against the unified API (c_api_unified_experimental.h
 * and tfe/unified.h), from the forward op's inputs, outputs, attrs and
 * upstream gradients, following the math of TensorFlow's registered
 * gradients: the same ops TF's gradient builds, so the values agree with
 * TF's. Binary elementwise ops sum their gradients over the broadcast
 * dimensions (BroadcastGradientArgs) and reshape them back to the input's
 * shape. This first set covers elementwise arithmetic, the common
 * activations, MatMul, Sum, Reshape, Cast and AddN; ops TF marks as not
 * differentiable (shape queries, comparisons, ArgMax, ...) stop gradients. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "eager/tape.h"
#include "tfe/unified.h"

int tfe_grad_register_builtin(const char* op_type, TFE_GradientFunction fn);

static atomic_int g_name_counter;

/* Starts an op of type `type` on the gradient's context; a traced context
 * needs a node name, which is made unique here. */
static TF_AbstractOp* new_op(TFE_GradientContext* g, const char* type, TF_Status* s) {
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
static TF_AbstractTensor* finish(TF_AbstractOp* op, int which, TF_Status* s) {
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
static TF_AbstractTensor* call2(TFE_GradientContext* g, const char* type, TF_AbstractTensor* a,
                                TF_AbstractTensor* b, TF_Status* s) {
  TF_AbstractOp* op;
  if (TF_GetCode(s) != TF_OK || a == NULL) return NULL;
  op = new_op(g, type, s);
  if (op == NULL) return NULL;
  TFE_AbstractOpAddInput(op, a, s);
  if (b != NULL && TF_GetCode(s) == TF_OK) TFE_AbstractOpAddInput(op, b, s);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return NULL;
  }
  return finish(op, 0, s);
}

static TF_AbstractTensor* call1(TFE_GradientContext* g, const char* type, TF_AbstractTensor* a,
                                TF_Status* s) {
  return call2(g, type, a, NULL, s);
}

/* Sets input i's gradient (takes t over; NULL leaves it unset). */
static void give(TFE_GradientContext* g, int i, TF_AbstractTensor* t, TF_Status* s) {
  if (t == NULL) return;
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractTensor(t);
    return;
  }
  TFE_GradientContextSetInputGradient(g, i, t, s);
}

static int is_complex(TF_AbstractTensor* t, TF_Status* s) {
  TF_DataType dt = TFE_AbstractTensorDataType(t, s);
  return dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
}

/* conj(t) for complex values, a new reference to t otherwise. */
static TF_AbstractTensor* conj_of(TFE_GradientContext* g, TF_AbstractTensor* t, TF_Status* s) {
  if (TF_GetCode(s) != TF_OK || t == NULL) return NULL;
  if (is_complex(t, s)) return call1(g, "Conj", t, s);
  return TFE_AbstractTensorCopy(t, s);
}

/* 1 when a and b have the same fully known shape. */
static int same_shape(TF_AbstractTensor* a, TF_AbstractTensor* b, TF_Status* s) {
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
static TF_AbstractTensor* unbroadcast(TFE_GradientContext* g, TF_AbstractTensor* grad, int which,
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
  if (same_shape(x, y, s) && same_shape(mine, grad, s)) return grad;
  sx = call1(g, "Shape", x, s);
  sy = call1(g, "Shape", y, s);
  op = TF_GetCode(s) == TF_OK ? new_op(g, "BroadcastGradientArgs", s) : NULL;
  if (op != NULL) {
    TFE_AbstractOpAddInput(op, sx, s);
    TFE_AbstractOpAddInput(op, sy, s);
    if (TF_GetCode(s) == TF_OK) {
      axes = finish(op, which, s);
    } else {
      TF_DeleteAbstractOp(op);
    }
  }
  if (axes != NULL) {
    op = new_op(g, "Sum", s);
    if (op != NULL) {
      TFE_AbstractOpAddInput(op, grad, s);
      TFE_AbstractOpAddInput(op, axes, s);
      TFE_AbstractOpSetAttrBool(op, "keep_dims", 1, s);
      if (TF_GetCode(s) == TF_OK) {
        summed = finish(op, 0, s);
      } else {
        TF_DeleteAbstractOp(op);
      }
    }
  }
  if (summed != NULL) out = call2(g, "Reshape", summed, which == 0 ? sx : sy, s);
  TF_DeleteAbstractTensor(grad);
  TF_DeleteAbstractTensor(sx);
  TF_DeleteAbstractTensor(sy);
  TF_DeleteAbstractTensor(axes);
  TF_DeleteAbstractTensor(summed);
  return out;
}

static TF_AbstractTensor* upstream(TFE_GradientContext* g) {
  return TFE_GradientContextOutputGradient(g, 0);
}

/* ---- the gradient functions ---- */

static void grad_identity(TFE_GradientContext* g, TF_Status* s) {
  give(g, 0, TFE_AbstractTensorCopy(upstream(g), s), s);
}

static void grad_add(TFE_GradientContext* g, TF_Status* s) {
  give(g, 0, unbroadcast(g, TFE_AbstractTensorCopy(upstream(g), s), 0, s), s);
  give(g, 1, unbroadcast(g, TFE_AbstractTensorCopy(upstream(g), s), 1, s), s);
}

static void grad_sub(TFE_GradientContext* g, TF_Status* s) {
  give(g, 0, unbroadcast(g, TFE_AbstractTensorCopy(upstream(g), s), 0, s), s);
  give(g, 1, unbroadcast(g, call1(g, "Neg", upstream(g), s), 1, s), s);
}

static void grad_mul(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* cx = conj_of(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* cy = conj_of(g, TFE_GradientContextInput(g, 1), s);
  give(g, 0, unbroadcast(g, call2(g, "Mul", upstream(g), cy, s), 0, s), s);
  give(g, 1, unbroadcast(g, call2(g, "Mul", cx, upstream(g), s), 1, s), s);
  TF_DeleteAbstractTensor(cx);
  TF_DeleteAbstractTensor(cy);
}

/* x / y: dx = dz / y, dy = dz * (-x / y / y). */
static void grad_realdiv(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = conj_of(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* y = conj_of(g, TFE_GradientContextInput(g, 1), s);
  TF_AbstractTensor* negx = call1(g, "Neg", x, s);
  TF_AbstractTensor* q1 = call2(g, "RealDiv", negx, y, s);
  TF_AbstractTensor* q2 = call2(g, "RealDiv", q1, y, s);
  give(g, 0, unbroadcast(g, call2(g, "RealDiv", upstream(g), y, s), 0, s), s);
  give(g, 1, unbroadcast(g, call2(g, "Mul", upstream(g), q2, s), 1, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(y);
  TF_DeleteAbstractTensor(negx);
  TF_DeleteAbstractTensor(q1);
  TF_DeleteAbstractTensor(q2);
}

static void grad_neg(TFE_GradientContext* g, TF_Status* s) {
  give(g, 0, call1(g, "Neg", upstream(g), s), s);
}

/* exp: dx = dy * conj(y). */
static void grad_exp(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* y = conj_of(g, TFE_GradientContextOutput(g, 0), s);
  give(g, 0, call2(g, "Mul", upstream(g), y, s), s);
  TF_DeleteAbstractTensor(y);
}

/* log: dx = dy * reciprocal(conj(x)). */
static void grad_log(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = conj_of(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* r = call1(g, "Reciprocal", x, s);
  give(g, 0, call2(g, "Mul", upstream(g), r, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(r);
}

/* square: dx = dy * 2 * conj(x), with 2x computed as x + x. */
static void grad_square(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = conj_of(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* twice = call2(g, "AddV2", x, x, s);
  give(g, 0, call2(g, "Mul", upstream(g), twice, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(twice);
}

/* The ops whose gradient op takes (y, dy): TanhGrad, SigmoidGrad, SqrtGrad,
 * RsqrtGrad, ReciprocalGrad. */
static void grad_from_output(TFE_GradientContext* g, const char* grad_op, TF_Status* s) {
  TF_AbstractTensor* y = conj_of(g, TFE_GradientContextOutput(g, 0), s);
  give(g, 0, call2(g, grad_op, y, upstream(g), s), s);
  TF_DeleteAbstractTensor(y);
}
static void grad_tanh(TFE_GradientContext* g, TF_Status* s) {
  grad_from_output(g, "TanhGrad", s);
}
static void grad_sigmoid(TFE_GradientContext* g, TF_Status* s) {
  grad_from_output(g, "SigmoidGrad", s);
}
static void grad_sqrt(TFE_GradientContext* g, TF_Status* s) {
  grad_from_output(g, "SqrtGrad", s);
}
static void grad_rsqrt(TFE_GradientContext* g, TF_Status* s) {
  grad_from_output(g, "RsqrtGrad", s);
}
static void grad_reciprocal(TFE_GradientContext* g, TF_Status* s) {
  grad_from_output(g, "ReciprocalGrad", s);
}

/* relu: ReluGrad(dy, y), as TF (the output, not the input). */
static void grad_relu(TFE_GradientContext* g, TF_Status* s) {
  give(g, 0, call2(g, "ReluGrad", upstream(g), TFE_GradientContextOutput(g, 0), s), s);
}

static TF_AbstractTensor* matmul(TFE_GradientContext* g, TF_AbstractTensor* a,
                                 TF_AbstractTensor* b, int ta, int tb, TF_Status* s) {
  TF_AbstractOp* op;
  if (TF_GetCode(s) != TF_OK) return NULL;
  op = new_op(g, "MatMul", s);
  if (op == NULL) return NULL;
  TFE_AbstractOpAddInput(op, a, s);
  TFE_AbstractOpAddInput(op, b, s);
  TFE_AbstractOpSetAttrBool(op, "transpose_a", (unsigned char)ta, s);
  TFE_AbstractOpSetAttrBool(op, "transpose_b", (unsigned char)tb, s);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return NULL;
  }
  return finish(op, 0, s);
}

static void grad_matmul(TFE_GradientContext* g, TF_Status* s) {
  int ta = TFE_GradientContextAttrBool(g, "transpose_a", s);
  int tb = TFE_GradientContextAttrBool(g, "transpose_b", s);
  TF_AbstractTensor* a = conj_of(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* b = conj_of(g, TFE_GradientContextInput(g, 1), s);
  TF_AbstractTensor* dy = upstream(g);
  if (!ta && !tb) {
    give(g, 0, matmul(g, dy, b, 0, 1, s), s);
    give(g, 1, matmul(g, a, dy, 1, 0, s), s);
  } else if (!ta && tb) {
    give(g, 0, matmul(g, dy, b, 0, 0, s), s);
    give(g, 1, matmul(g, dy, a, 1, 0, s), s);
  } else if (ta && !tb) {
    give(g, 0, matmul(g, b, dy, 0, 1, s), s);
    give(g, 1, matmul(g, a, dy, 0, 0, s), s);
  } else {
    give(g, 0, matmul(g, b, dy, 1, 1, s), s);
    give(g, 1, matmul(g, dy, a, 1, 1, s), s);
  }
  TF_DeleteAbstractTensor(a);
  TF_DeleteAbstractTensor(b);
}

/* sum(x, axes): dy broadcast back to x's shape, through the shape x has
 * with the reduced axes kept as 1. Eager only: the kept shape is computed
 * from the values. */
static TF_AbstractTensor* sum_grad(TFE_GradientContext* g, TF_Status* s);

static void grad_sum(TFE_GradientContext* g, TF_Status* s) { give(g, 0, sum_grad(g, s), s); }

/* mean: the Sum gradient divided by the number of elements averaged,
 * size(x) / size(y), cast to x's dtype. */
static void grad_mean(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* spread = sum_grad(g, s);
  TF_AbstractTensor* nx = call1(g, "Size", TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* ny = call1(g, "Size", TFE_GradientContextOutput(g, 0), s);
  TF_AbstractTensor* n = call2(g, "FloorDiv", nx, ny, s);
  TF_AbstractTensor* nf = NULL;
  TF_AbstractOp* op = n != NULL ? new_op(g, "Cast", s) : NULL;
  if (op != NULL) {
    TFE_AbstractOpAddInput(op, n, s);
    TF_AbstractOpSetAttrType(op, "DstT", TFE_AbstractTensorDataType(spread, s), s);
    if (TF_GetCode(s) == TF_OK) {
      nf = finish(op, 0, s);
    } else {
      TF_DeleteAbstractOp(op);
    }
  }
  give(g, 0, call2(g, "RealDiv", spread, nf, s), s);
  TF_DeleteAbstractTensor(spread);
  TF_DeleteAbstractTensor(nx);
  TF_DeleteAbstractTensor(ny);
  TF_DeleteAbstractTensor(n);
  TF_DeleteAbstractTensor(nf);
}

/* An int32 vector constant. */
static TF_AbstractTensor* const_i32(TFE_GradientContext* g, const int32_t* v, int n,
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
  op = new_op(g, "Const", s);
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
  r = finish(op, 0, s);
  return r;
}

static TF_AbstractTensor* cast_to(TFE_GradientContext* g, TF_AbstractTensor* x, TF_DataType dt,
                                  TF_Status* s) {
  TF_AbstractOp* op;
  if (TF_GetCode(s) != TF_OK || x == NULL) return NULL;
  op = new_op(g, "Cast", s);
  if (op == NULL) return NULL;
  TFE_AbstractOpAddInput(op, x, s);
  TF_AbstractOpSetAttrType(op, "DstT", dt, s);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return NULL;
  }
  return finish(op, 0, s);
}

/* The Sum gradient: dy reshaped to x's shape with the reduced axes kept as
 * 1 (TensorScatterUpdate of Shape(x) at the normalized axes), then
 * broadcast to x's shape. Built from ops only, so it works eagerly and in
 * graphs alike. */
static TF_AbstractTensor* sum_grad(TFE_GradientContext* g, TF_Status* s) {
  static const int32_t kColumn[2] = {-1, 1};
  static const int32_t kFlat[1] = {-1};
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* axes = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* sx = call1(g, "Shape", x, s);
  TF_AbstractTensor* rank = call1(g, "Rank", x, s);
  TF_AbstractTensor* ax32 = cast_to(g, axes, TF_INT32, s);
  TF_AbstractTensor* flat = const_i32(g, kFlat, 1, s);
  TF_AbstractTensor* ax1 = call2(g, "Reshape", ax32, flat, s);
  TF_AbstractTensor* axn = call2(g, "FloorMod", ax1, rank, s);
  TF_AbstractTensor* col = const_i32(g, kColumn, 2, s);
  TF_AbstractTensor* idx = call2(g, "Reshape", axn, col, s);
  TF_AbstractTensor* ones = call1(g, "OnesLike", axn, s);
  TF_AbstractTensor* kept = NULL;
  TF_AbstractTensor* shaped = NULL;
  TF_AbstractTensor* out = NULL;
  TF_AbstractOp* op = TF_GetCode(s) == TF_OK ? new_op(g, "TensorScatterUpdate", s) : NULL;
  if (op != NULL) {
    TFE_AbstractOpAddInput(op, sx, s);
    TFE_AbstractOpAddInput(op, idx, s);
    TFE_AbstractOpAddInput(op, ones, s);
    if (TF_GetCode(s) == TF_OK) {
      kept = finish(op, 0, s);
    } else {
      TF_DeleteAbstractOp(op);
    }
  }
  shaped = call2(g, "Reshape", upstream(g), kept, s);
  out = call2(g, "BroadcastTo", shaped, sx, s);
  TF_DeleteAbstractTensor(sx);
  TF_DeleteAbstractTensor(rank);
  TF_DeleteAbstractTensor(ax32);
  TF_DeleteAbstractTensor(flat);
  TF_DeleteAbstractTensor(ax1);
  TF_DeleteAbstractTensor(axn);
  TF_DeleteAbstractTensor(col);
  TF_DeleteAbstractTensor(idx);
  TF_DeleteAbstractTensor(ones);
  TF_DeleteAbstractTensor(kept);
  TF_DeleteAbstractTensor(shaped);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractTensor(out);
    return NULL;
  }
  return out;
}

static void grad_reshape(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* xs = call1(g, "Shape", TFE_GradientContextInput(g, 0), s);
  give(g, 0, call2(g, "Reshape", upstream(g), xs, s), s);
  TF_DeleteAbstractTensor(xs);
}

/* cast: the gradient cast back, between trainable types only. */
static void grad_cast(TFE_GradientContext* g, TF_Status* s) {
  TF_DataType src = TFE_GradientContextAttrType(g, "SrcT", s);
  TF_AbstractOp* op;
  if (TF_GetCode(s) != TF_OK) return;
  if (src != TF_FLOAT && src != TF_DOUBLE && src != TF_HALF && src != TF_BFLOAT16 &&
      src != TF_COMPLEX64 && src != TF_COMPLEX128) {
    return;
  }
  op = new_op(g, "Cast", s);
  if (op == NULL) return;
  TFE_AbstractOpAddInput(op, upstream(g), s);
  TF_AbstractOpSetAttrType(op, "DstT", src, s);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return;
  }
  give(g, 0, finish(op, 0, s), s);
}

static void grad_addn(TFE_GradientContext* g, TF_Status* s) {
  int i, n = TFE_GradientContextNumInputs(g);
  for (i = 0; i < n && TF_GetCode(s) == TF_OK; i++) {
    give(g, i, TFE_AbstractTensorCopy(upstream(g), s), s);
  }
}

/* ---- more elementwise gradients ---- */

/* sin: dy * cos(x); cos: -dy * sin(x). */
static void grad_sin(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = conj_of(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* c = call1(g, "Cos", x, s);
  give(g, 0, call2(g, "Mul", upstream(g), c, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(c);
}

static void grad_cos(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = conj_of(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* sn = call1(g, "Sin", x, s);
  TF_AbstractTensor* neg = call1(g, "Neg", sn, s);
  give(g, 0, call2(g, "Mul", upstream(g), neg, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(sn);
  TF_DeleteAbstractTensor(neg);
}

/* abs: dy * sign(x) (real inputs). */
static void grad_abs(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* sg = call1(g, "Sign", TFE_GradientContextInput(g, 0), s);
  give(g, 0, call2(g, "Mul", upstream(g), sg, s), s);
  TF_DeleteAbstractTensor(sg);
}

/* log1p: dy / (1 + x), as dy * reciprocal(x + 1) with 1 = ones_like(x). */
static void grad_log1p(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* x = conj_of(g, TFE_GradientContextInput(g, 0), s);
  TF_AbstractTensor* one = call1(g, "OnesLike", x, s);
  TF_AbstractTensor* xp1 = call2(g, "AddV2", one, x, s);
  give(g, 0, call2(g, "RealDiv", upstream(g), xp1, s), s);
  TF_DeleteAbstractTensor(x);
  TF_DeleteAbstractTensor(one);
  TF_DeleteAbstractTensor(xp1);
}

/* Activations whose gradient op takes (dy, features) or (dy, outputs). */
static void grad_act(TFE_GradientContext* g, const char* op, int from_output, TF_Status* s) {
  TF_AbstractTensor* ref =
      from_output ? TFE_GradientContextOutput(g, 0) : TFE_GradientContextInput(g, 0);
  TF_AbstractOp* o;
  if (strcmp(op, "LeakyReluGrad") == 0) {
    float alpha = TFE_GradientContextAttrFloat(g, "alpha", s);
    o = TF_GetCode(s) == TF_OK ? new_op(g, op, s) : NULL;
    if (o == NULL) return;
    TFE_AbstractOpAddInput(o, upstream(g), s);
    TFE_AbstractOpAddInput(o, ref, s);
    TFE_AbstractOpSetAttrFloat(o, "alpha", alpha, s);
    if (TF_GetCode(s) != TF_OK) {
      TF_DeleteAbstractOp(o);
      return;
    }
    give(g, 0, finish(o, 0, s), s);
    return;
  }
  give(g, 0, call2(g, op, upstream(g), ref, s), s);
}
static void grad_relu6(TFE_GradientContext* g, TF_Status* s) { grad_act(g, "Relu6Grad", 0, s); }
static void grad_elu(TFE_GradientContext* g, TF_Status* s) { grad_act(g, "EluGrad", 1, s); }
static void grad_selu(TFE_GradientContext* g, TF_Status* s) { grad_act(g, "SeluGrad", 1, s); }
static void grad_softplus(TFE_GradientContext* g, TF_Status* s) {
  grad_act(g, "SoftplusGrad", 0, s);
}
static void grad_softsign(TFE_GradientContext* g, TF_Status* s) {
  grad_act(g, "SoftsignGrad", 0, s);
}
static void grad_leaky_relu(TFE_GradientContext* g, TF_Status* s) {
  grad_act(g, "LeakyReluGrad", 0, s);
}

/* maximum/minimum: the gradient goes to the input that was picked (x on
 * ties, as TF's GreaterEqual/LessEqual mask gives). */
static void grad_minmax(TFE_GradientContext* g, const char* cmp, TF_Status* s) {
  TF_AbstractTensor* x = TFE_GradientContextInput(g, 0);
  TF_AbstractTensor* y = TFE_GradientContextInput(g, 1);
  TF_AbstractTensor* dy = upstream(g);
  TF_AbstractTensor* mask = call2(g, cmp, x, y, s);
  TF_AbstractTensor* zeros = call1(g, "ZerosLike", dy, s);
  TF_AbstractTensor *gx = NULL, *gy = NULL;
  TF_AbstractOp* op;
  if (TF_GetCode(s) == TF_OK) {
    op = new_op(g, "SelectV2", s);
    if (op != NULL) {
      TFE_AbstractOpAddInput(op, mask, s);
      TFE_AbstractOpAddInput(op, dy, s);
      TFE_AbstractOpAddInput(op, zeros, s);
      gx = TF_GetCode(s) == TF_OK ? finish(op, 0, s) : (TF_DeleteAbstractOp(op), NULL);
    }
  }
  if (TF_GetCode(s) == TF_OK) {
    op = new_op(g, "SelectV2", s);
    if (op != NULL) {
      TFE_AbstractOpAddInput(op, mask, s);
      TFE_AbstractOpAddInput(op, zeros, s);
      TFE_AbstractOpAddInput(op, dy, s);
      gy = TF_GetCode(s) == TF_OK ? finish(op, 0, s) : (TF_DeleteAbstractOp(op), NULL);
    }
  }
  give(g, 0, unbroadcast(g, gx, 0, s), s);
  give(g, 1, unbroadcast(g, gy, 1, s), s);
  TF_DeleteAbstractTensor(mask);
  TF_DeleteAbstractTensor(zeros);
}
static void grad_maximum(TFE_GradientContext* g, TF_Status* s) {
  grad_minmax(g, "GreaterEqual", s);
}
static void grad_minimum(TFE_GradientContext* g, TF_Status* s) {
  grad_minmax(g, "LessEqual", s);
}

/* squared_difference: d/dx = 2 (x - y) dy, d/dy = -2 (x - y) dy. */
static void grad_squared_difference(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* d = call2(g, "Sub", TFE_GradientContextInput(g, 0),
                               TFE_GradientContextInput(g, 1), s);
  TF_AbstractTensor* d2 = call2(g, "AddV2", d, d, s);
  TF_AbstractTensor* gx = call2(g, "Mul", upstream(g), d2, s);
  TF_AbstractTensor* gy = call1(g, "Neg", gx, s);
  give(g, 0, unbroadcast(g, gx, 0, s), s);
  give(g, 1, unbroadcast(g, gy, 1, s), s);
  TF_DeleteAbstractTensor(d);
  TF_DeleteAbstractTensor(d2);
}

/* bias_add: dy for the value, BiasAddGrad(dy) for the bias. */
static void grad_bias_add(TFE_GradientContext* g, TF_Status* s) {
  const char* fmt = NULL;
  TF_AbstractOp* op;
  char buf[16] = "NHWC";
  size_t len = 0;
  if (tfe_attrs_get_string(g->attrs, "data_format", &fmt, &len, NULL) && len < sizeof buf) {
    memcpy(buf, fmt, len);
    buf[len] = '\0';
  }
  give(g, 0, TFE_AbstractTensorCopy(upstream(g), s), s);
  op = TF_GetCode(s) == TF_OK ? new_op(g, "BiasAddGrad", s) : NULL;
  if (op == NULL) return;
  TFE_AbstractOpAddInput(op, upstream(g), s);
  TFE_AbstractOpSetAttrString(op, "data_format", buf, strlen(buf), s);
  if (TF_GetCode(s) != TF_OK) {
    TF_DeleteAbstractOp(op);
    return;
  }
  give(g, 1, finish(op, 0, s), s);
}

/* A Sum over the last axis with keep_dims. */
static TF_AbstractTensor* sum_last(TFE_GradientContext* g, TF_AbstractTensor* x, TF_Status* s) {
  static const int32_t kLast[1] = {-1};
  TF_AbstractTensor* axis = const_i32(g, kLast, 1, s);
  TF_AbstractTensor* r = NULL;
  TF_AbstractOp* op = TF_GetCode(s) == TF_OK ? new_op(g, "Sum", s) : NULL;
  if (op != NULL) {
    TFE_AbstractOpAddInput(op, x, s);
    TFE_AbstractOpAddInput(op, axis, s);
    TFE_AbstractOpSetAttrBool(op, "keep_dims", 1, s);
    r = TF_GetCode(s) == TF_OK ? finish(op, 0, s) : (TF_DeleteAbstractOp(op), NULL);
  }
  TF_DeleteAbstractTensor(axis);
  return r;
}

/* softmax: (dy - sum(dy * y, -1)) * y. */
static void grad_softmax(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* y = TFE_GradientContextOutput(g, 0);
  TF_AbstractTensor* dyy = call2(g, "Mul", upstream(g), y, s);
  TF_AbstractTensor* sm = sum_last(g, dyy, s);
  TF_AbstractTensor* d = call2(g, "Sub", upstream(g), sm, s);
  give(g, 0, call2(g, "Mul", d, y, s), s);
  TF_DeleteAbstractTensor(dyy);
  TF_DeleteAbstractTensor(sm);
  TF_DeleteAbstractTensor(d);
}

/* log_softmax: dy - exp(y) * sum(dy, -1). */
static void grad_log_softmax(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* e = call1(g, "Exp", TFE_GradientContextOutput(g, 0), s);
  TF_AbstractTensor* sm = sum_last(g, upstream(g), s);
  TF_AbstractTensor* m = call2(g, "Mul", e, sm, s);
  give(g, 0, call2(g, "Sub", upstream(g), m, s), s);
  TF_DeleteAbstractTensor(e);
  TF_DeleteAbstractTensor(sm);
  TF_DeleteAbstractTensor(m);
}

/* The cross entropies: logits get expand_dims(dloss, -1) * backprop (the
 * op's second output); dense labels get -log_softmax(logits) * dloss. A
 * gradient flowing into the backprop output itself (second order) is not
 * supported yet. */
static TF_AbstractTensor* expand_last(TFE_GradientContext* g, TF_AbstractTensor* x,
                                      TF_Status* s) {
  static const int32_t kLast[1] = {-1};
  TF_AbstractTensor* axis = const_i32(g, kLast, 1, s);
  TF_AbstractTensor* r = call2(g, "ExpandDims", x, axis, s);
  TF_DeleteAbstractTensor(axis);
  return r;
}

static void grad_xent(TFE_GradientContext* g, int sparse, TF_Status* s) {
  TF_AbstractTensor* dloss = TFE_GradientContextOutputGradient(g, 0);
  TF_AbstractTensor* e;
  if (TFE_GradientContextOutputGradient(g, 1) != NULL) {
    tfe_status_setf(s, TF_UNIMPLEMENTED,
                    "the gradient of %s's backprop output (a second-order gradient) is not "
                    "supported by tfe yet",
                    TFE_GradientContextOpType(g));
    return;
  }
  if (dloss == NULL) return;
  e = expand_last(g, dloss, s);
  give(g, 0, call2(g, "Mul", e, TFE_GradientContextOutput(g, 1), s), s);
  if (!sparse) {
    TF_AbstractTensor* ls = call1(g, "LogSoftmax", TFE_GradientContextInput(g, 0), s);
    TF_AbstractTensor* nls = call1(g, "Neg", ls, s);
    give(g, 1, call2(g, "Mul", nls, e, s), s);
    TF_DeleteAbstractTensor(ls);
    TF_DeleteAbstractTensor(nls);
  }
  TF_DeleteAbstractTensor(e);
}
static void grad_softmax_xent(TFE_GradientContext* g, TF_Status* s) { grad_xent(g, 0, s); }
static void grad_sparse_softmax_xent(TFE_GradientContext* g, TF_Status* s) {
  grad_xent(g, 1, s);
}

/* transpose: transpose(dy, invert_permutation(perm)). */
static void grad_transpose(TFE_GradientContext* g, TF_Status* s) {
  TF_AbstractTensor* inv = call1(g, "InvertPermutation", TFE_GradientContextInput(g, 1), s);
  give(g, 0, call2(g, "Transpose", upstream(g), inv, s), s);
  TF_DeleteAbstractTensor(inv);
}

/* expand_dims, squeeze: dy back in x's shape (Reshape's gradient). */

/* ---- registration ---- */

int tfe_grad_register_builtins(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"Identity", grad_identity},
      {"AddV2", grad_add},
      {"Add", grad_add},
      {"Sub", grad_sub},
      {"Mul", grad_mul},
      {"RealDiv", grad_realdiv},
      {"Div", grad_realdiv},
      {"Neg", grad_neg},
      {"Exp", grad_exp},
      {"Log", grad_log},
      {"Square", grad_square},
      {"Tanh", grad_tanh},
      {"Sigmoid", grad_sigmoid},
      {"Sqrt", grad_sqrt},
      {"Rsqrt", grad_rsqrt},
      {"Reciprocal", grad_reciprocal},
      {"Relu", grad_relu},
      {"MatMul", grad_matmul},
      {"Sum", grad_sum},
      {"Mean", grad_mean},
      {"Reshape", grad_reshape},
      {"Cast", grad_cast},
      {"AddN", grad_addn},
      {"Sin", grad_sin},
      {"Cos", grad_cos},
      {"Abs", grad_abs},
      {"Log1p", grad_log1p},
      {"Relu6", grad_relu6},
      {"Elu", grad_elu},
      {"Selu", grad_selu},
      {"Softplus", grad_softplus},
      {"Softsign", grad_softsign},
      {"LeakyRelu", grad_leaky_relu},
      {"Maximum", grad_maximum},
      {"Minimum", grad_minimum},
      {"SquaredDifference", grad_squared_difference},
      {"BiasAdd", grad_bias_add},
      {"Softmax", grad_softmax},
      {"LogSoftmax", grad_log_softmax},
      {"SoftmaxCrossEntropyWithLogits", grad_softmax_xent},
      {"SparseSoftmaxCrossEntropyWithLogits", grad_sparse_softmax_xent},
      {"Transpose", grad_transpose},
      {"ExpandDims", grad_reshape},
      {"Squeeze", grad_reshape},
      /* A variable read passes the gradient to the variable's handle. */
      {"ReadVariableOp", grad_identity},
  };
  /* TF's NotDifferentiable ops among tfe's (gradients stop at them). */
  static const char* const kStop[] = {
      "Shape",     "ShapeN",       "Size",         "Rank",
      "ZerosLike", "OnesLike",     "Equal",        "NotEqual",
      "Less",      "LessEqual",    "Greater",      "GreaterEqual",
      "ArgMax",    "ArgMin",       "LogicalAnd",   "LogicalOr",
      "LogicalNot", "BroadcastGradientArgs", "IsFinite", "IsInf",
      "IsNan",     "Floor",        "Ceil",         "Round",
      "RandomUniform", "RandomStandardNormal", "TruncatedNormal", "StopGradient",
  };
  size_t i;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  for (i = 0; i < sizeof kStop / sizeof kStop[0]; i++) {
    if (!tfe_grad_register_builtin(kStop[i], NULL)) return 0;
  }
  return 1;
}
