/* Gradient functions (session 9, group more3): the recurrent, CTC and
 * sparse ops that received kernels in session 8 and that TF 2.21
 * differentiates: BlockLSTM/BlockLSTMV2 (through BlockLSTMGrad[V2]),
 * CTCLoss, SparseMatMul and SparseSlice (through SparseSliceGrad).
 * The math is that of TF 2.21's registered Python gradients; the code is
 * tfe's own. One deliberate difference: TF 2.21 registers its BlockLSTM
 * gradient (which runs BlockLSTMGrad, gates in i,c,f,o order) for
 * BlockLSTMV2 too, whose weights hold the gates in i,f,c,o order, so TF's
 * BlockLSTMV2 gradients are not the derivative (central differences
 * disagree). tfe runs BlockLSTMGradV2 there, the gradient kernel TF defines
 * for that layout. CTCLossV2 has no CPU kernel (in TF as in tfe), so no
 * gradient is registered for it here.
 *
 * Cases: tools/grad_cases/more3.py; BlockLSTMV2, short sequences, an
 * empty slice and CTCLoss's second derivative: tests/python/test_grad_more3.py;
 * under the sanitizers: tests/c/test_grad_more3.c. */
#include <stdint.h>
#include <string.h>

#include "eager/grad_local.h"
#include "eager/tape.h"

typedef TF_AbstractTensor T;

/* ---- BlockLSTM / BlockLSTMV2 ----
 * Inputs (seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b), outputs
 * (i, cs, f, o, ci, co, h). As TF's gradient, only the gradients of cs
 * and h are used (the gate outputs are intermediates the gradient kernel
 * reads; what flows into them is dropped); a missing one is zeros. The
 * kernel returns the gradients of inputs 1..8 in order. */
static void block_lstm_common(TFE_GradientContext* g, TF_Status* s, const char* grad_op) {
  T *dcs, *dh, *outs[8];
  TF_AbstractOp* op;
  int i;
  dcs = gl_grad_or_zeros(g, 1, s);
  dh = gl_grad_or_zeros(g, 6, s);
  op = gl_op(g, grad_op, s);
  for (i = 0; i < 9; i++) gl_in(op, TFE_GradientContextInput(g, i), s);
  for (i = 0; i < 7; i++) gl_in(op, TFE_GradientContextOutput(g, i), s);
  gl_in(op, dcs, s);
  gl_in(op, dh, s);
  gl_cp_bool(g, op, "use_peephole", s);
  gl_fin_n(op, 8, outs, s);
  TF_DeleteAbstractTensor(dcs);
  TF_DeleteAbstractTensor(dh);
  /* gu_give takes each over (and frees it once the status failed) */
  for (i = 0; i < 8; i++) gu_give(g, i + 1, outs[i], s);
}

static void grad_block_lstm(TFE_GradientContext* g, TF_Status* s) {
  block_lstm_common(g, s, "BlockLSTMGrad");
}

static void grad_block_lstm_v2(TFE_GradientContext* g, TF_Status* s) {
  block_lstm_common(g, s, "BlockLSTMGradV2");
}

/* ---- CTCLoss ----
 * (inputs, labels_indices, labels_values, sequence_length) -> (loss,
 * gradient): the op computes d loss_b / d inputs[t, b, :] itself (its
 * second output); the inputs' gradient is that scaled per batch entry by
 * the loss's upstream gradient (zeros when none, as TF's tape fills
 * them). The second output is wrapped in PreventGradient, as in TF: the
 * fused op has no second derivative, so differentiating this gradient
 * again fails with TF's message. What flows into the second output is
 * ignored, as in TF. */
static void grad_ctc_loss(TFE_GradientContext* g, TF_Status* s) {
  static const char kMsg[] =
      "Currently there is no way to take the second  derivative of ctc_loss due to the "
      "fused implementation's interaction  with tf.gradients()";
  T *dl, *pg, *axis, *dl2, *res;
  TF_AbstractOp* op;
  dl = gl_grad_or_zeros(g, 0, s);
  op = gl_op(g, "PreventGradient", s);
  gl_in(op, TFE_GradientContextOutput(g, 1), s);
  if (op != NULL && GL_OK(s)) TFE_AbstractOpSetAttrString(op, "message", kMsg, strlen(kMsg), s);
  pg = gl_fin(op, s);
  axis = gl_i32(g, -1, s);
  dl2 = GL_OK(s) ? gu_call2(g, "ExpandDims", dl, axis, s) : NULL;
  res = GL_OK(s) ? gu_call2(g, "Mul", dl2, pg, s) : NULL;
  gu_give(g, 0, res, s);
  TF_DeleteAbstractTensor(dl);
  TF_DeleteAbstractTensor(pg);
  TF_DeleteAbstractTensor(axis);
  TF_DeleteAbstractTensor(dl2);
}

/* ---- SparseMatMul ----
 * product = op(a) @ op(b) in float32, a and b float32 or bfloat16. Each
 * input's gradient is a product of the float32 upstream gradient with the
 * other input, cast back to the input's dtype. As TF's math_ops.matmul
 * does for these products: MatMul when both factors are float32 and
 * neither is flagged sparse, else SparseMatMul with the flags (the
 * upstream gradient is never flagged: TF flags it only in graphs when a
 * ReluGrad made it, a choice of algorithm that changes no value). */
static T* smm(TFE_GradientContext* g, T* t1, T* t2, int sp1, int sp2, int ta, int tb,
              TF_DataType out, TF_Status* s) {
  TF_DataType d1, d2;
  int sparse;
  TF_AbstractOp* op;
  T *prod, *cast;
  if (!GL_OK(s)) return NULL;
  d1 = TFE_AbstractTensorDataType(t1, s);
  d2 = TFE_AbstractTensorDataType(t2, s);
  sparse = sp1 || sp2 || d1 != TF_FLOAT || d2 != TF_FLOAT;
  op = gl_op(g, sparse ? "SparseMatMul" : "MatMul", s);
  gl_in(op, t1, s);
  gl_in(op, t2, s);
  gl_set_bool(op, "transpose_a", ta, s);
  gl_set_bool(op, "transpose_b", tb, s);
  if (sparse) {
    gl_set_bool(op, "a_is_sparse", sp1, s);
    gl_set_bool(op, "b_is_sparse", sp2, s);
  }
  prod = gl_fin(op, s);
  if (prod == NULL || out == TF_FLOAT) return prod;
  cast = gu_cast(g, prod, out, s);
  TF_DeleteAbstractTensor(prod);
  return cast;
}

static void grad_sparse_matmul(TFE_GradientContext* g, TF_Status* s) {
  T *dy = gu_upstream(g), *a, *b, *da = NULL, *db = NULL;
  int ta, tb, asp, bsp;
  TF_DataType dta, dtb;
  if (dy == NULL) return;
  a = TFE_GradientContextInput(g, 0);
  b = TFE_GradientContextInput(g, 1);
  ta = TFE_GradientContextAttrBool(g, "transpose_a", s) != 0;
  tb = GL_OK(s) ? TFE_GradientContextAttrBool(g, "transpose_b", s) != 0 : 0;
  asp = GL_OK(s) ? TFE_GradientContextAttrBool(g, "a_is_sparse", s) != 0 : 0;
  bsp = GL_OK(s) ? TFE_GradientContextAttrBool(g, "b_is_sparse", s) != 0 : 0;
  if (!GL_OK(s)) return;
  dta = TFE_AbstractTensorDataType(a, s);
  dtb = TFE_AbstractTensorDataType(b, s);
  if (!ta && !tb) {
    /* y = a b: da = dy b^T, db = a^T dy */
    da = smm(g, dy, b, 0, bsp, 0, 1, dta, s);
    db = smm(g, a, dy, asp, 0, 1, 0, dtb, s);
  } else if (!ta) {
    /* y = a b^T: da = dy b, db = dy^T a */
    da = smm(g, dy, b, 0, bsp, 0, 0, dta, s);
    db = smm(g, dy, a, 0, asp, 1, 0, dtb, s);
  } else if (!tb) {
    /* y = a^T b: da = b dy^T, db = a dy */
    da = smm(g, b, dy, bsp, 0, 0, 1, dta, s);
    db = smm(g, a, dy, asp, 0, 0, 0, dtb, s);
  } else {
    /* y = a^T b^T: da = b^T dy^T, db = dy^T a^T */
    da = smm(g, b, dy, bsp, 0, 1, 1, dta, s);
    db = smm(g, dy, a, 0, asp, 1, 1, dtb, s);
  }
  gu_give(g, 0, da, s);
  gu_give(g, 1, db, s);
}

/* ---- SparseSlice ----
 * (indices, values, shape, start, size) -> (output_indices, output_values,
 * output_shape): each kept value's gradient goes back to the input value
 * it came from (SparseSliceGrad matches the output indices, shifted by
 * start, against the input's); the others get zero. */
static void grad_sparse_slice(TFE_GradientContext* g, TF_Status* s) {
  T* dv = TFE_GradientContextOutputGradient(g, 1);
  TF_AbstractOp* op;
  if (dv == NULL) return;
  op = gl_op(g, "SparseSliceGrad", s);
  gl_in(op, dv, s);
  gl_in(op, TFE_GradientContextInput(g, 0), s);
  gl_in(op, TFE_GradientContextInput(g, 3), s);
  gl_in(op, TFE_GradientContextOutput(g, 0), s);
  gu_give(g, 1, gl_fin(op, s), s);
}

int tfe_grad_register_more3(void) {
  static const struct {
    const char* op;
    TFE_GradientFunction fn;
  } kGrads[] = {
      {"BlockLSTM", grad_block_lstm},       {"BlockLSTMV2", grad_block_lstm_v2},
      {"CTCLoss", grad_ctc_loss},           {"SparseMatMul", grad_sparse_matmul},
      {"SparseSlice", grad_sparse_slice},
  };
  size_t i;
  for (i = 0; i < sizeof kGrads / sizeof kGrads[0]; i++) {
    if (!tfe_grad_register_builtin(kGrads[i].op, kGrads[i].fn)) return 0;
  }
  return 1;
}
