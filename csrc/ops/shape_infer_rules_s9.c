/* Shape rules (session 9, issues 17/18) for ops that have tfe CPU kernels
 * but only had the generated "unknown" rule: Eig, MatrixSolveLs, the
 * QuantizeAndDequantize family, the BlockLSTM family, CTCLoss,
 * SparseMatMul, SparseSlice, the LSTM/GRU block cells, CholeskyGrad and
 * the QuantizeV2/Dequantize/Requantize helpers, NonMaxSuppression/V2,
 * SampleDistortedBoundingBox, CTCGreedyDecoder and the quantized
 * MatMul/Add/Mul/BiasAdd/AvgPool/MaxPool/Reshape, fractional pooling and
 * ImageProjectiveTransformV2/V3. Each follows TF 2.21's shape function
 * (same checks in the same order, same messages); the expected shapes and
 * errors are recorded from TF in tests/data/shapes_s9_tf221.json. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ops/shape_infer_internal.h"

/* Runs the hand-written rule of another op whose shape function TF shares
 * (SparseMatMul uses MatMul's). */
static int delegate(si_ctx* c, const char* op) {
  const si_rule* r = si_find_rule(op);
  if (r == NULL || r->fn == NULL) return si_rule_unknown(c);
  return r->fn(c);
}

/* TF's Merge of two shapes, with its message naming both shapes (the
 * shared si_merge leaves out the ". Shapes are ..." part). a = merge(a, b). */
static int merge_shapes(si_ctx* c, si_sh* a, const si_sh* b) {
  char sa[64], sb[64];
  if (a->rank >= 0 && b->rank == a->rank) {
    for (int i = 0; i < a->rank; i++) {
      if (a->d[i] >= 0 && b->d[i] >= 0 && a->d[i] != b->d[i]) {
        si_debug_string(a, sa, sizeof sa);
        si_debug_string(b, sb, sizeof sb);
        return si_err(c,
                      "Dimension %d in both shapes must be equal, but are %lld and %lld. "
                      "Shapes are %s and %s.",
                      i, (long long)a->d[i], (long long)b->d[i], sa, sb);
      }
    }
  }
  return si_merge(c, a, b);
}

/* Eig(input [..., N, N]) -> e [..., N], v [..., N, N] (compute_v) or the
 * empty vector [0]. */
static int rule_eig(si_ctx* c) {
  si_sh in, e, v;
  int64_t n;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 2, &in)) return 0;
  if (in.rank >= 0) {
    if (!si_merge_dim(c, in.d[in.rank - 2], in.d[in.rank - 1], &n)) return 0;
    in.d[in.rank - 2] = in.d[in.rank - 1] = n;
    if (!si_subshape(c, &in, 0, -1, &e)) return 0;
    if (!si_set(c, 0, &e)) return 0;
  }
  if (!si_attr_bool(c, "compute_v", 1)) {
    si_vector(&v, 0);
    return si_set(c, 1, &v);
  }
  return in.rank < 0 || si_set(c, 1, &in);
}
static int rule_sparse_matmul(si_ctx* c) { return delegate(c, "MatMul"); }

/* MatrixSolveLs(matrix [..., M, N], rhs [..., M, K], l2 scalar) ->
 * [..., N, K]: the batch dims and M merged. */
static int rule_matrix_solve_ls(si_ctx* c) {
  si_sh l2, m, r, mb, rb;
  int64_t rows;
  si_in(c, 2, &l2);
  if (!si_with_rank(c, &l2, 0, &l2)) return 0;
  si_in(c, 0, &m);
  si_in(c, 1, &r);
  if (!si_with_rank_at_least(c, &m, 2, &m)) return 0;
  if (!si_with_rank_at_least(c, &r, 2, &r)) return 0;
  if (!si_subshape(c, &m, 0, -2, &mb)) return 0;
  if (!si_subshape(c, &r, 0, -2, &rb)) return 0;
  if (!merge_shapes(c, &mb, &rb)) return 0;
  if (m.rank >= 0 && r.rank >= 0 &&
      !si_merge_dim(c, m.d[m.rank - 2], r.d[r.rank - 2], &rows))
    return 0;
  si_append_dim(&mb, m.rank >= 0 ? m.d[m.rank - 1] : SI_UNKNOWN);
  si_append_dim(&mb, r.rank >= 0 ? r.d[r.rank - 1] : SI_UNKNOWN);
  return si_set(c, 0, &mb);
}

/* The min/max inputs of the QuantizeAndDequantize ops: scalars when axis
 * is -1, else vectors whose length is the input's `axis` dim. Merges
 * input_min (index i) and input_max (i + 1) into *mm; checks `in`. */
static int qdq_minmax(si_ctx* c, int i, const si_sh* in, si_sh* mm) {
  si_sh mx, x;
  int64_t axis = si_attr_int(c, "axis", -1), d;
  si_in(c, i, mm);
  if (!si_with_rank(c, mm, axis == -1 ? 0 : 1, mm)) return 0;
  si_in(c, i + 1, &mx);
  if (!merge_shapes(c, &mx, mm)) return 0;
  *mm = mx;
  if (axis < -1) return si_err(c, "axis should be at least -1, got %lld", (long long)axis);
  if (axis != -1) {
    /* A rank beyond TF's limit can only come from a fuzzed attr: the
     * input cannot have it, so say so as WithRankAtLeast would. */
    if (axis >= SI_MAX_RANK) {
      if (in->rank < 0) return 1;
      return si_err(c, "Shape must be at least rank %lld but is rank %d", (long long)axis + 1,
                    in->rank);
    }
    if (!si_with_rank_at_least(c, in, (int)axis + 1, &x)) return 0;
    if (x.rank >= 0 && mm->rank >= 0) {
      if (!si_merge_dim(c, mm->d[0], x.d[axis], &d)) return 0;
      mm->d[0] = d;
    }
  }
  return 1;
}

/* QuantizeAndDequantizeV2/V3/V4: output = input. */
static int rule_qdq(si_ctx* c) {
  si_sh in, mm;
  si_in(c, 0, &in);
  if (!qdq_minmax(c, 1, &in, &mm)) return 0;
  return si_set(c, 0, &in);
}

static int rule_qdq_v3(si_ctx* c) {
  si_sh nb;
  if (!rule_qdq(c)) return 0;
  si_in(c, 3, &nb);
  return si_with_rank(c, &nb, 0, &nb);
}

/* QuantizeAndDequantizeV4Grad(gradients, input, min, max): the input's
 * gradient like merge(gradients, input), min/max's like min/max. */
static int rule_qdq_v4_grad(si_ctx* c) {
  si_sh g, x, mm;
  si_sh m;
  si_in(c, 0, &g);
  si_in(c, 1, &x);
  m = g;
  if (!merge_shapes(c, &m, &x)) return 0;
  /* TF checks the axis against the gradients' own shape, not the merge. */
  if (!qdq_minmax(c, 2, &g, &mm)) return 0;
  return si_set(c, 0, &m) && si_set(c, 1, &mm) && si_set(c, 2, &mm);
}

/* BlockLSTM / BlockLSTMV2: seven outputs [time, batch, cell], with x
 * [time, batch, input] and cell = len(b) / 4. */
static int rule_block_lstm(si_ctx* c) {
  si_sh x, b, o;
  int64_t cell;
  si_in(c, 1, &x);
  if (!si_with_rank(c, &x, 3, &x)) return 0;
  si_in(c, si_num_inputs(c) - 1, &b);
  if (!si_with_rank(c, &b, 1, &b)) return 0;
  if (!si_dim_div(c, b.d[0], 4, 1, &cell)) return 0;
  o.rank = 3;
  o.d[0] = x.d[0];
  o.d[1] = x.d[1];
  o.d[2] = cell;
  for (int i = 0; i < si_num_outputs(c); i++)
    if (!si_set(c, i, &o)) return 0;
  return 1;
}

/* BlockLSTMGrad / V2: the gradient of input i + 1 (x, cs_prev, h_prev, w,
 * wci, wcf, wco, b) has that input's shape, each of its expected rank. */
static int rule_block_lstm_grad(si_ctx* c) {
  static const int ranks[8] = {3, 2, 2, 2, 1, 1, 1, 1};
  si_sh s[8];
  for (int i = 0; i < 8; i++) {
    si_in(c, i + 1, &s[i]);
    if (!si_with_rank(c, &s[i], ranks[i], &s[i])) return 0;
  }
  for (int i = 0; i < 8 && i < si_num_outputs(c); i++)
    if (!si_set(c, i, &s[i])) return 0;
  return 1;
}

/* CTCLoss / CTCLossV2(inputs [T, B, C], labels_indices [N, 2],
 * labels_values [N], sequence_length [B]) -> loss [B], gradient [T, B, C]. */
static int rule_ctc_loss(si_ctx* c) {
  si_sh in, li, lv, sl;
  int64_t d;
  si_in(c, 0, &in);
  si_in(c, 1, &li);
  si_in(c, 2, &lv);
  si_in(c, 3, &sl);
  if (!si_with_rank(c, &in, 3, &in) || !si_with_rank(c, &li, 2, &li) ||
      !si_with_rank(c, &lv, 1, &lv) || !si_with_rank(c, &sl, 1, &sl))
    return 0;
  if (!si_merge_dim(c, li.d[0], lv.d[0], &d)) return 0;
  if (!si_merge_dim(c, in.d[1], sl.d[0], &d)) return 0;
  in.d[1] = d;
  return si_set_vector(c, 0, d) && si_set(c, 1, &in);
}

/* SparseSlice(indices, values, shape, start, size): output_indices
 * [?, number of entries of shape], output_values [?], output_shape like
 * shape. TF checks no ranks here. */
static int rule_sparse_slice(si_ctx* c) {
  si_sh shape, oi;
  si_in(c, 2, &shape);
  si_matrix(&oi, SI_UNKNOWN, si_num_elements(&shape));
  return si_set(c, 0, &oi) && si_set_vector(c, 1, SI_UNKNOWN) && si_set(c, 2, &shape);
}

/* LSTMBlockCell(x [B, I], cs_prev [B, C], ...): seven [B, C] outputs. */
static int rule_lstm_cell(si_ctx* c) {
  si_sh x, cs, o;
  si_in(c, 0, &x);
  si_in(c, 1, &cs);
  if (!si_with_rank(c, &x, 2, &x) || !si_with_rank(c, &cs, 2, &cs)) return 0;
  si_matrix(&o, x.d[0], cs.d[1]);
  for (int i = 0; i < si_num_outputs(c); i++)
    if (!si_set(c, i, &o)) return 0;
  return 1;
}

/* LSTMBlockCellGrad: cs_prev_grad [B, C], dicfo [B, 4C], and the three
 * peephole gradients [C]. */
static int rule_lstm_cell_grad(si_ctx* c) {
  si_sh x, cs, o;
  int64_t c4;
  si_in(c, 0, &x);
  si_in(c, 1, &cs);
  if (!si_with_rank(c, &x, 2, &x) || !si_with_rank(c, &cs, 2, &cs)) return 0;
  if (!si_dim_mul(c, cs.d[1], 4, &c4)) return 0;
  si_matrix(&o, x.d[0], cs.d[1]);
  if (!si_set(c, 0, &o)) return 0;
  si_matrix(&o, x.d[0], c4);
  if (!si_set(c, 1, &o)) return 0;
  for (int i = 2; i < 5; i++)
    if (!si_set_vector(c, i, cs.d[1])) return 0;
  return 1;
}

/* GRUBlockCell(x [B, I], h_prev [B, C], ...): four [B, C] outputs. */
static int rule_gru_cell(si_ctx* c) {
  si_sh x, h, o;
  si_in(c, 0, &x);
  si_in(c, 1, &h);
  if (!si_with_rank(c, &x, 2, &x) || !si_with_rank(c, &h, 2, &h)) return 0;
  si_matrix(&o, x.d[0], h.d[1]);
  for (int i = 0; i < si_num_outputs(c); i++)
    if (!si_set(c, i, &o)) return 0;
  return 1;
}

/* GRUBlockCellGrad: d_x like x, d_h_prev and d_c_bar [B, C],
 * d_r_bar_u_bar [B, 2C] with 2C taken from w_ru's columns. */
static int rule_gru_cell_grad(si_ctx* c) {
  si_sh x, h, w, o;
  si_in(c, 0, &x);
  si_in(c, 1, &h);
  si_in(c, 2, &w);
  if (!si_with_rank(c, &x, 2, &x) || !si_with_rank(c, &h, 2, &h) ||
      !si_with_rank(c, &w, 2, &w))
    return 0;
  if (!si_set(c, 0, &x)) return 0;
  si_matrix(&o, x.d[0], h.d[1]);
  if (!si_set(c, 1, &o) || !si_set(c, 2, &o)) return 0;
  si_matrix(&o, x.d[0], w.d[1]);
  return si_set(c, 3, &o);
}

/* CholeskyGrad(l [..., M, M], grad): the gradient has l's shape. */
static int rule_cholesky_grad(si_ctx* c) {
  si_sh l;
  int64_t m;
  si_in(c, 0, &l);
  if (!si_with_rank_at_least(c, &l, 2, &l)) return 0;
  if (l.rank >= 0) {
    if (!si_merge_dim(c, l.d[l.rank - 2], l.d[l.rank - 1], &m)) return 0;
    l.d[l.rank - 2] = l.d[l.rank - 1] = m;
  }
  return si_set(c, 0, &l);
}

/* The per-tensor (axis -1: scalars) or per-channel (vectors) range inputs
 * of QuantizeV2 and Dequantize at i and i + 1; *mm ends as input i + 1's
 * shape. Checks the channel count against the input's `axis` dim. */
static int quant_axis_minmax(si_ctx* c, int64_t axis, si_sh* mm) {
  si_sh in, x;
  int64_t d;
  si_in(c, 0, &in);
  si_in(c, 1, mm);
  if (!si_with_rank(c, mm, axis == -1 ? 0 : 1, mm)) return 0;
  si_in(c, 2, mm);
  if (!si_with_rank(c, mm, axis == -1 ? 0 : 1, mm)) return 0;
  if (axis != -1) {
    if (axis >= SI_MAX_RANK) {
      if (in.rank < 0) return 1;
      return si_err(c, "Shape must be at least rank %lld but is rank %d", (long long)axis + 1,
                    in.rank);
    }
    if (!si_with_rank_at_least(c, &in, (int)axis + 1, &x)) return 0;
    if (x.rank >= 0 && !si_merge_dim(c, mm->d[0], x.d[axis], &d)) return 0;
  }
  return 1;
}

/* QuantizeV2: output like input, output_min/max like the range inputs. */
static int rule_quantize_v2(si_ctx* c) {
  si_sh mm;
  int64_t axis = si_attr_int(c, "axis", -1);
  if (!si_set_input(c, 0, 0)) return 0;
  if (axis < -1) return si_err(c, "axis should be at least -1, got %lld", (long long)axis);
  if (!quant_axis_minmax(c, axis, &mm)) return 0;
  return si_set(c, 1, &mm) && si_set(c, 2, &mm);
}

/* Dequantize: output like input; TF also refuses an axis beyond the
 * input's rank (an unknown rank counting as -1). */
static int rule_dequantize(si_ctx* c) {
  si_sh mm;
  int64_t axis = si_attr_int(c, "axis", -1);
  int rank = si_in_rank(c, 0);
  if (axis < -1) return si_err(c, "axis should be at least -1, got %lld", (long long)axis);
  if (axis > rank)
    return si_err(c, "Axis must be less than input dimension(%d), got %lld", rank,
                  (long long)axis);
  if (!quant_axis_minmax(c, axis, &mm)) return 0;
  return si_set_input(c, 0, 0);
}

/* Inputs first..last must be scalars. */
static int scalars(si_ctx* c, int first, int last) {
  si_sh s;
  for (int i = first; i <= last; i++) {
    si_in(c, i, &s);
    if (!si_with_rank(c, &s, 0, &s)) return 0;
  }
  return 1;
}

/* RequantizationRange(input, min, max) -> two scalars. */
static int rule_requant_range(si_ctx* c) {
  if (!scalars(c, 1, 2)) return 0;
  return si_set_scalar(c, 0) && si_set_scalar(c, 1);
}

/* Output like input 0 plus two scalar range outputs; inputs 1..last are
 * scalars (QuantizeDownAndShrinkRange, Requantize, QuantizedRelu/Relu6). */
static int quant_unary(si_ctx* c, int last) {
  if (!si_set_input(c, 0, 0)) return 0;
  if (!scalars(c, 1, last)) return 0;
  return si_set_scalar(c, 1) && si_set_scalar(c, 2);
}
static int rule_quant_unary2(si_ctx* c) { return quant_unary(c, 2); }
static int rule_requantize(si_ctx* c) { return quant_unary(c, 4); }

/* NonMaxSuppression / V2 (boxes [N, 4], scores [N], scalars...) ->
 * selected_indices [?]. */
static int rule_nms(si_ctx* c) {
  si_sh b, sc;
  int64_t d;
  si_in(c, 0, &b);
  si_in(c, 1, &sc);
  if (!si_with_rank(c, &b, 2, &b) || !si_with_rank(c, &sc, 1, &sc)) return 0;
  if (!scalars(c, 2, si_num_inputs(c) - 1)) return 0;
  if (!si_merge_dim(c, b.d[0], sc.d[0], &d)) return 0;
  if (!si_with_value(c, b.d[1], 4, &d)) return 0;
  return si_set_vector(c, 0, SI_UNKNOWN);
}

/* SampleDistortedBoundingBox(image_size [3], bounding_boxes [B, N, 4]) ->
 * begin [3], size [3], bboxes [1, 1, 4]. */
static int rule_sample_distorted_bbox(si_ctx* c) {
  si_sh im, bb, o;
  int64_t d;
  si_in(c, 0, &im);
  si_in(c, 1, &bb);
  if (!si_with_rank(c, &im, 1, &im) || !si_with_rank(c, &bb, 3, &bb)) return 0;
  if (!si_with_value(c, bb.d[2], 4, &d)) return 0;
  if (!si_set_vector(c, 0, 3) || !si_set_vector(c, 1, 3)) return 0;
  o.rank = 3;
  o.d[0] = o.d[1] = 1;
  o.d[2] = 4;
  return si_set(c, 2, &o);
}

/* CTCGreedyDecoder(inputs [T, B, C], sequence_length [B]) -> sparse
 * decoded [?, 2], [?], [2] and log_probability [B, 1]. */
static int rule_ctc_greedy(si_ctx* c) {
  si_sh in, sl, o;
  int64_t b;
  si_in(c, 0, &in);
  si_in(c, 1, &sl);
  if (!si_with_rank(c, &in, 3, &in) || !si_with_rank(c, &sl, 1, &sl)) return 0;
  if (!si_merge_dim(c, in.d[1], sl.d[0], &b)) return 0;
  si_matrix(&o, SI_UNKNOWN, 2);
  if (!si_set(c, 0, &o) || !si_set_vector(c, 1, SI_UNKNOWN) || !si_set_vector(c, 2, 2)) return 0;
  si_matrix(&o, b, 1);
  return si_set(c, 3, &o);
}

/* Quantized ops whose output 0 follows a float op's rule (`op`), with
 * scalar range inputs first..last and two scalar range outputs. */
static int quant_like(si_ctx* c, const char* op, int first, int last) {
  if (!delegate(c, op)) return 0;
  if (last >= first && !scalars(c, first, last)) return 0;
  return si_set_scalar(c, 1) && si_set_scalar(c, 2);
}
static int rule_quantized_matmul(si_ctx* c) { return quant_like(c, "MatMul", 2, 5); }
static int rule_quantized_add(si_ctx* c) { return quant_like(c, "Add", 2, 5); }
/* TF's QuantizedMul checks no range input. */
static int rule_quantized_mul(si_ctx* c) { return quant_like(c, "Mul", 2, 1); }
static int rule_quantized_bias_add(si_ctx* c) { return quant_like(c, "BiasAdd", 2, 5); }

/* A float as TF's StrCat prints it: the shortest of 6 or 9 significant
 * digits that reads back as the same float. */
static void float_text(float f, char* buf, size_t cap) {
  snprintf(buf, cap, "%.6g", (double)f);
  if (strtof(buf, NULL) != f) snprintf(buf, cap, "%.9g", (double)f);
}

/* FractionalMaxPool / FractionalAvgPool(value [N, H, W, C]): output dims
 * floor(dim / pooling_ratio) (in float, as TF), row and column pooling
 * sequences [H'] and [W']. */
static int rule_fractional_pool(si_ctx* c) {
  si_sh in, o;
  const tfe_attr_value* r = si_attr(c, "pooling_ratio");
  char buf[32];
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  if (r == NULL || !r->is_list || r->list_size != 4 || r->list.f == NULL)
    return si_err(c, "pooling_ratio field must specify 4 dimensions");
  for (int i = 0; i < 4; i++) {
    if (r->list.f[i] < 1.0f) {
      float_text(r->list.f[i], buf, sizeof buf);
      return si_err(c, "pooling_ratio cannot be smaller than 1, got: %s", buf);
    }
  }
  o.rank = 4;
  for (int i = 0; i < 4; i++) {
    float q;
    o.d[i] = SI_UNKNOWN;
    if (in.rank < 0 || in.d[i] < 0) continue;
    q = floorf((float)in.d[i] / r->list.f[i]);
    /* A NaN ratio or a result beyond int64 leaves the dim unknown. */
    if (q >= 0.0f && q < 9.2e18f) o.d[i] = (int64_t)q;
  }
  return si_set(c, 0, &o) && si_set_vector(c, 1, o.d[1]) && si_set_vector(c, 2, o.d[2]);
}

/* ImageProjectiveTransformV2/V3(images [N, H, W, C], transforms,
 * output_shape [2], ...) -> [N, out_h, out_w, C], the sizes from a
 * constant output_shape. */
static int rule_image_projective_transform(si_ctx* c) {
  si_sh in, sz, o;
  int64_t d, v[2];
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  si_in(c, 2, &sz);
  if (!si_with_rank(c, &sz, 1, &sz)) return 0;
  if (!si_with_value(c, sz.d[0], 2, &d)) return 0;
  o.rank = 4;
  o.d[0] = in.rank >= 0 ? in.d[0] : SI_UNKNOWN;
  o.d[1] = o.d[2] = SI_UNKNOWN;
  o.d[3] = in.rank >= 0 ? in.d[3] : SI_UNKNOWN;
  if (si_value_ints(c, 2, v, 2) == 2) {
    o.d[1] = v[0] >= 0 ? v[0] : SI_UNKNOWN;
    o.d[2] = v[1] >= 0 ? v[1] : SI_UNKNOWN;
  }
  return si_set(c, 0, &o);
}

static int rule_quantized_avg_pool(si_ctx* c) { return quant_like(c, "AvgPool", 1, 2); }
static int rule_quantized_max_pool(si_ctx* c) { return quant_like(c, "MaxPool", 1, 2); }
static int rule_quantized_reshape(si_ctx* c) { return quant_like(c, "Reshape", 2, 3); }

const si_rule si_rules_s9[] = {
    {"Eig", rule_eig},
    {"MatrixSolveLs", rule_matrix_solve_ls},
    {"QuantizeAndDequantizeV2", rule_qdq},
    {"QuantizeAndDequantizeV3", rule_qdq_v3},
    {"QuantizeAndDequantizeV4", rule_qdq},
    {"QuantizeAndDequantizeV4Grad", rule_qdq_v4_grad},
    {"BlockLSTM", rule_block_lstm},
    {"BlockLSTMV2", rule_block_lstm},
    {"BlockLSTMGrad", rule_block_lstm_grad},
    {"BlockLSTMGradV2", rule_block_lstm_grad},
    {"CTCLoss", rule_ctc_loss},
    {"CTCLossV2", rule_ctc_loss},
    {"SparseMatMul", rule_sparse_matmul},
    {"SparseSlice", rule_sparse_slice},
    {"LSTMBlockCell", rule_lstm_cell},
    {"LSTMBlockCellGrad", rule_lstm_cell_grad},
    {"GRUBlockCell", rule_gru_cell},
    {"GRUBlockCellGrad", rule_gru_cell_grad},
    {"CholeskyGrad", rule_cholesky_grad},
    {"QuantizeV2", rule_quantize_v2},
    {"Dequantize", rule_dequantize},
    {"RequantizationRange", rule_requant_range},
    {"QuantizeDownAndShrinkRange", rule_quant_unary2},
    {"QuantizedRelu", rule_quant_unary2},
    {"QuantizedRelu6", rule_quant_unary2},
    {"Requantize", rule_requantize},
    {"NonMaxSuppression", rule_nms},
    {"NonMaxSuppressionV2", rule_nms},
    {"SampleDistortedBoundingBox", rule_sample_distorted_bbox},
    {"CTCGreedyDecoder", rule_ctc_greedy},
    {"QuantizedMatMul", rule_quantized_matmul},
    {"QuantizedAdd", rule_quantized_add},
    {"QuantizedMul", rule_quantized_mul},
    {"QuantizedBiasAdd", rule_quantized_bias_add},
    {"FractionalMaxPool", rule_fractional_pool},
    {"FractionalAvgPool", rule_fractional_pool},
    {"ImageProjectiveTransformV2", rule_image_projective_transform},
    {"ImageProjectiveTransformV3", rule_image_projective_transform},
    {"QuantizedAvgPool", rule_quantized_avg_pool},
    {"QuantizedMaxPool", rule_quantized_max_pool},
    {"QuantizedReshape", rule_quantized_reshape},
    {NULL, NULL},
};
