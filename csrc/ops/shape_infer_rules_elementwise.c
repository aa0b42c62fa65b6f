/* Shape rules: element-wise ops (unary: output shaped as the input;
 * binary: broadcasting; comparisons; gradients that merge both inputs),
 * casts, Select/SelectV2, AddN, string element-wise ops. */
#include "core/status_internal.h"
#include "ops/shape_infer_internal.h"

/* AddN and other ops whose N inputs must all have one shape. */
static int rule_merge_all(si_ctx* c) {
  si_sh cur, in;
  int i, n = si_num_inputs(c);
  if (n == 0) return 1;
  si_in(c, n - 1, &cur);
  for (i = n - 2; i >= 0; i--) {
    si_in(c, i, &in);
    if (!si_merge(c, &in, &cur)) {
      return si_err_context(c, "From merging shape %d with other shapes.", i);
    }
    cur = in;
  }
  return si_set(c, 0, &cur);
}

static int rule_softmax(si_ctx* c) {
  si_sh in;
  si_in(c, 0, &in);
  if (!si_with_rank_at_least(c, &in, 1, &in)) return 0;
  return si_set(c, 0, &in);
}

static int rule_bitcast(si_ctx* c) {
  si_sh in;
  TF_DataType from = si_attr_type(c, "T"), to = si_attr_type(c, "type");
  size_t fs, ts;
  si_in(c, 0, &in);
  if (in.rank < 0) return 1;
  fs = TF_DataTypeSize(from);
  ts = TF_DataTypeSize(to);
  if (fs == 0 || ts == 0) {
    return si_err(c,
                  "Cannot bitcast types %s to %s because one of the type "
                  "sizes is zero.",
                  tfe_dtype_enum_name(from), tfe_dtype_enum_name(to));
  }
  if (fs < ts) {
    int64_t want = (int64_t)(ts / fs), last;
    if (!si_with_rank_at_least(c, &in, 1, &in)) return 0;
    last = in.d[in.rank - 1];
    if (last >= 0 && last != want) {
      return si_err(c, "Cannot bitcast due to shape. %lld does not match %lld",
                    (long long)last, (long long)want);
    }
    in.rank--;
  } else if (fs > ts) {
    si_append_dim(&in, (int64_t)(fs / ts));
  }
  return si_set(c, 0, &in);
}

/* Select(condition, t, e): t and e merge; the condition is a scalar, a
 * vector over the first dim of non-scalar data, or the data's shape. The
 * output is the merged data shape (a vector condition only checks). */
static int rule_select(si_ctx* c) {
  si_sh cond, data, e;
  si_in(c, 0, &cond);
  si_in(c, 1, &data);
  si_in(c, 2, &e);
  if (!si_merge(c, &data, &e)) return 0;
  if (cond.rank < 0 || data.rank < 0 || cond.rank == 0) {
    return si_set(c, 0, &data);
  }
  if (cond.rank == 1 && data.rank != 0) {
    si_sh first;
    si_vector(&first, data.d[0]);
    if (!si_merge(c, &cond, &first)) return 0;
    return si_set(c, 0, &data);
  }
  if (!si_merge(c, &data, &cond)) return 0;
  return si_set(c, 0, &data);
}

static int rule_select_v2(si_ctx* c) {
  si_sh cond, t, e, te, o;
  si_in(c, 0, &cond);
  si_in(c, 1, &t);
  si_in(c, 2, &e);
  if (!si_broadcast(c, &t, &e, 1, &te)) return 0;
  if (!si_broadcast(c, &cond, &te, 1, &o)) return 0;
  return si_set(c, 0, &o);
}

/* StringJoin: every non-scalar input has one shape; all scalars give a
 * scalar. */
static int rule_string_join(si_ctx* c) {
  si_sh out, in;
  int i, all_scalar = 1;
  si_unknown(&out);
  for (i = 0; i < si_num_inputs(c); i++) {
    si_in(c, i, &in);
    if (in.rank != 0) all_scalar = 0;
    if (in.rank <= 0) continue;
    if (!si_merge(c, &out, &in)) return 0;
  }
  if (all_scalar) return si_set_scalar(c, 0);
  return si_set(c, 0, &out);
}

/* Substr(input, pos, len): pos and len have one shape that broadcasts
 * with the input. */
static int rule_substr(si_ctx* c) {
  si_sh in, pos, len, o;
  si_in(c, 0, &in);
  si_in(c, 1, &pos);
  si_in(c, 2, &len);
  if (!si_merge(c, &pos, &len)) return 0;
  if (!si_broadcast(c, &in, &pos, 1, &o)) return 0;
  return si_set(c, 0, &o);
}

static int rule_lrn(si_ctx* c) {
  si_sh in;
  si_in(c, 0, &in);
  if (!si_with_rank(c, &in, 4, &in)) return 0;
  return si_set(c, 0, &in);
}

static int rule_lrn_grad(si_ctx* c) {
  si_sh a, b;
  int i;
  si_in(c, 0, &a);
  if (!si_with_rank(c, &a, 4, &a)) return 0;
  for (i = 1; i < 3; i++) {
    si_in(c, i, &b);
    if (!si_with_rank(c, &b, 4, &b)) return 0;
    if (!si_merge(c, &a, &b)) return 0;
  }
  return si_set(c, 0, &a);
}

static int rule_cross(si_ctx* c) {
  si_sh a, b;
  si_in(c, 0, &a);
  si_in(c, 1, &b);
  if (!si_with_rank_at_least(c, &a, 1, &a)) return 0;
  if (!si_with_rank_at_least(c, &b, 1, &b)) return 0;
  if (!si_merge(c, &a, &b)) return 0;
  if (a.rank > 0 && !si_with_value(c, a.d[a.rank - 1], 3, NULL)) return 0;
  return si_set(c, 0, &a);
}

/* ClipByValue(t, clip_value_min, clip_value_max): the output is t. */
#define UNCHANGED(name) {name, si_rule_unchanged}
#define BROADCAST(name) {name, si_rule_broadcast}
#define MERGE2(name) {name, si_rule_merge_both}

const si_rule si_rules_elementwise[] = {
    /* unary math */
    UNCHANGED("Neg"), UNCHANGED("Abs"), UNCHANGED("Square"),
    UNCHANGED("Sqrt"), UNCHANGED("Rsqrt"), UNCHANGED("Exp"),
    UNCHANGED("Expm1"), UNCHANGED("Log"), UNCHANGED("Log1p"),
    UNCHANGED("Tanh"), UNCHANGED("Sigmoid"), UNCHANGED("Sin"),
    UNCHANGED("Cos"), UNCHANGED("Tan"), UNCHANGED("Asin"), UNCHANGED("Acos"),
    UNCHANGED("Atan"), UNCHANGED("Sinh"), UNCHANGED("Cosh"),
    UNCHANGED("Asinh"), UNCHANGED("Acosh"), UNCHANGED("Atanh"),
    UNCHANGED("Floor"), UNCHANGED("Ceil"), UNCHANGED("Round"),
    UNCHANGED("Rint"), UNCHANGED("Sign"), UNCHANGED("Reciprocal"),
    UNCHANGED("Inv"), UNCHANGED("Erf"), UNCHANGED("Erfc"),
    UNCHANGED("Lgamma"), UNCHANGED("Digamma"), UNCHANGED("IsNan"),
    UNCHANGED("IsInf"), UNCHANGED("IsFinite"), UNCHANGED("LogicalNot"),
    UNCHANGED("Invert"), UNCHANGED("PopulationCount"), UNCHANGED("Real"),
    UNCHANGED("Imag"), UNCHANGED("Conj"), UNCHANGED("Angle"),
    UNCHANGED("ComplexAbs"), UNCHANGED("Cast"), UNCHANGED("Bucketize"),
    UNCHANGED("ClipByValue"), UNCHANGED("BesselI0e"),
    UNCHANGED("BesselI1e"), UNCHANGED("BesselI0"), UNCHANGED("BesselI1"),
    UNCHANGED("BesselK0"), UNCHANGED("BesselK1"), UNCHANGED("BesselK0e"),
    UNCHANGED("BesselK1e"), UNCHANGED("BesselJ0"), UNCHANGED("BesselJ1"),
    UNCHANGED("BesselY0"), UNCHANGED("BesselY1"), UNCHANGED("Ndtri"),
    UNCHANGED("Erfinv"), UNCHANGED("Dawsn"), UNCHANGED("Expint"),
    /* activations */
    UNCHANGED("Relu"), UNCHANGED("Relu6"), UNCHANGED("Elu"),
    UNCHANGED("Selu"), UNCHANGED("LeakyRelu"), UNCHANGED("Softplus"),
    UNCHANGED("Softsign"), {"Softmax", rule_softmax},
    {"LogSoftmax", rule_softmax},
    /* gradients of unary ops: both inputs have the output's shape */
    MERGE2("ReluGrad"), MERGE2("Relu6Grad"), MERGE2("EluGrad"),
    MERGE2("SeluGrad"), MERGE2("SoftplusGrad"), MERGE2("SoftsignGrad"),
    MERGE2("LeakyReluGrad"), MERGE2("SigmoidGrad"), MERGE2("TanhGrad"),
    MERGE2("SqrtGrad"), MERGE2("RsqrtGrad"), MERGE2("ReciprocalGrad"),
    MERGE2("InvGrad"), MERGE2("ApproximateEqual"),
    /* binary broadcasting */
    BROADCAST("AddV2"), BROADCAST("Add"), BROADCAST("Sub"),
    BROADCAST("Mul"), BROADCAST("RealDiv"), BROADCAST("Div"),
    BROADCAST("FloorDiv"), BROADCAST("FloorMod"), BROADCAST("TruncateDiv"),
    BROADCAST("TruncateMod"), BROADCAST("Mod"), BROADCAST("DivNoNan"),
    BROADCAST("MulNoNan"), BROADCAST("Maximum"), BROADCAST("Minimum"),
    BROADCAST("Pow"), BROADCAST("SquaredDifference"), BROADCAST("Atan2"),
    BROADCAST("Xlogy"), BROADCAST("Xdivy"), BROADCAST("Xlog1py"),
    BROADCAST("NextAfter"), BROADCAST("BitwiseAnd"), BROADCAST("BitwiseOr"),
    BROADCAST("BitwiseXor"), BROADCAST("LeftShift"),
    BROADCAST("RightShift"), BROADCAST("Complex"), BROADCAST("Igamma"),
    BROADCAST("Igammac"), BROADCAST("Zeta"), BROADCAST("Polygamma"),
    /* Betainc's rule (scalars or one shape) is in
     * shape_infer_rules_math_special.c. */
    /* comparisons and logic */
    BROADCAST("Equal"), BROADCAST("NotEqual"), BROADCAST("Less"),
    BROADCAST("LessEqual"), BROADCAST("Greater"), BROADCAST("GreaterEqual"),
    BROADCAST("LogicalAnd"), BROADCAST("LogicalOr"),
    /* casts and selection */
    {"Bitcast", rule_bitcast}, {"Select", rule_select},
    {"SelectV2", rule_select_v2}, {"AddN", rule_merge_all},
    {"AccumulateNV2", rule_merge_all},
    /* strings */
    {"StringJoin", rule_string_join}, {"Substr", rule_substr},
    UNCHANGED("StringLength"), UNCHANGED("AsString"),
    UNCHANGED("StringToNumber"), UNCHANGED("StringLower"),
    UNCHANGED("StringUpper"), UNCHANGED("StringStrip"),
    /* misc element-wise */
    {"LRN", rule_lrn}, {"LRNGrad", rule_lrn_grad}, {"Cross", rule_cross},
    {NULL, NULL}};
