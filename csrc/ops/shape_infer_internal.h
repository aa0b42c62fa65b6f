/* Private to the shape-inference files (csrc/ops/shape_infer*.c): the rule
 * context, the helpers rules are written with, and the rule tables.
 *
 * A rule is a C function that reads the input shapes, attrs and known
 * constant inputs through the helpers below and sets the output shapes.
 * Before a rule runs every output is unknown rank, so a rule only sets what
 * it can tell. A rule returns 1 on success and 0 after one of the si_err /
 * si_merge_* / si_with_* helpers reported an error; the dispatcher then
 * adds TF's context (" for '{{node n}} = Op[...](...)' with input shapes:
 * ...") and resets the outputs to unknown.
 *
 * Shapes inside a rule are si_sh values: a rank (-1 unknown) and up to
 * SI_MAX_RANK dims inline, so the common case allocates nothing but the
 * output arrays the caller owns. */
#ifndef TFE_OPS_SHAPE_INFER_INTERNAL_H_
#define TFE_OPS_SHAPE_INFER_INTERNAL_H_

#include <stdint.h>

#include "ops/shape_infer.h"

/* TF's limit on the rank of a tensor shape. Inputs of a larger rank make
 * every output unknown (no rule sees them). */
#define SI_MAX_RANK 254
#define SI_UNKNOWN (-1)

typedef struct si_sh {
  int rank;
  int64_t d[SI_MAX_RANK];
} si_sh;

typedef struct si_ctx {
  const tfe_shape_infer_args* a;
  tfe_shape* out;
  TF_Status* s;
  /* Inputs whose constant value a rule looked at (TF's "computed input
   * tensors" in error messages); bit i for input i < 64. */
  uint64_t used_values;
  /* Inputs whose partial shape value (input_as_shapes) a rule used. */
  uint64_t used_as_shapes;
} si_ctx;

typedef int (*si_rule_fn)(si_ctx* c);

/* One table entry. fn == NULL marks an op whose outputs TF's own shape
 * function cannot tell either (or that tfe knowingly leaves unknown). */
typedef struct si_rule {
  const char* op;
  si_rule_fn fn;
} si_rule;

/* ---- rule tables (one per family, each ends with {NULL, NULL}) ---- */
extern const si_rule si_rules_elementwise[];
extern const si_rule si_rules_math[];
extern const si_rule si_rules_array[];
extern const si_rule si_rules_nn[];
extern const si_rule si_rules_misc[];
extern const si_rule si_rules_io[];
extern const si_rule si_rules_regex[];
extern const si_rule si_rules_text[];
extern const si_rule si_rules_lookup[];
extern const si_rule si_rules_image[];
extern const si_rule si_rules_array_extra[];
extern const si_rule si_rules_math_special[];
extern const si_rule si_rules_nn_extra[];
extern const si_rule si_rules_random_dist[];
extern const si_rule si_rules_parsing[];
extern const si_rule si_rules_signal[];
extern const si_rule si_rules_linalg_extra[];
extern const si_rule si_rules_nn_grad[];
extern const si_rule si_rules_train_apply[];
extern const si_rule si_rules_sparse[];
extern const si_rule si_rules_containers[];
extern const si_rule si_rules_misc18[];
extern const si_rule si_rules_quant[];
extern const si_rule si_rules_image_codec[];
extern const si_rule si_rules_s9[];
extern const si_rule si_rules_generated[]; /* tools/gen_op_defs.py */

/* ---- errors ---- */

/* Sets INVALID_ARGUMENT with the printf message; returns 0. */
int si_err(si_ctx* c, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends "\n\t<text>" to the current error message (TF's
 * TF_RETURN_WITH_CONTEXT_IF_ERROR); returns 0. */
int si_err_context(si_ctx* c, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- inputs ---- */

int si_num_inputs(const si_ctx* c);
int si_num_outputs(const si_ctx* c);
/* Input i's shape into *out (unknown rank when i is out of range). */
void si_in(const si_ctx* c, int i, si_sh* out);
int si_in_rank(const si_ctx* c, int i);
TF_DataType si_in_type(const si_ctx* c, int i);
/* Shape of the value resource input i refers to (unknown rank when the
 * caller did not say). */
void si_in_handle(const si_ctx* c, int i, si_sh* out);
/* Constant value of input i, or NULL. */
TF_Tensor* si_value(si_ctx* c, int i);
/* Constant int32/int64 input i read as int64 values: returns the element
 * count (0..cap) when known, -1 when unknown or not an integer tensor, or
 * too large for cap. */
int si_value_ints(si_ctx* c, int i, int64_t* vals, int cap);
/* A constant scalar (or one-element) integer input; 1 when known. */
int si_value_scalar(si_ctx* c, int i, int64_t* v);
/* TF's MakeShapeFromShapeTensor: input i must be a vector; its value (or
 * partial value) gives the shape; -1 entries are unknown dims. */
int si_shape_from_tensor(si_ctx* c, int i, si_sh* out);
/* TF's MakeDimForScalarInput: a constant scalar input as a dim (unknown
 * when not constant); negative values are an error. */
int si_dim_from_scalar(si_ctx* c, int i, int64_t* out);

/* ---- attrs (defaults are already in the attrs; the fallback is used
 * only when an attr is absent) ---- */
int64_t si_attr_int(const si_ctx* c, const char* name, int64_t dflt);
int si_attr_bool(const si_ctx* c, const char* name, int dflt);
TF_DataType si_attr_type(const si_ctx* c, const char* name);
const char* si_attr_str(const si_ctx* c, const char* name, const char* dflt);
/* An int attr TF reads as int32: 0 with TF's error when out of range. */
int si_attr_int32(si_ctx* c, const char* name, int64_t dflt, int64_t* out);
/* Checks every element of an int list attr TF reads as int32s. */
int si_attr_ints32(si_ctx* c, const char* name);
/* Borrowed list; NULL (and *n = 0) when absent. */
const int64_t* si_attr_ints(const si_ctx* c, const char* name, int* n);
const tfe_attr_value* si_attr(const si_ctx* c, const char* name);

/* ---- shapes ---- */
void si_unknown(si_sh* s);
void si_unknown_of_rank(si_sh* s, int rank);
void si_scalar(si_sh* s);
void si_vector(si_sh* s, int64_t d);
void si_matrix(si_sh* s, int64_t d0, int64_t d1);
void si_from_tfe(si_sh* dst, const tfe_shape* src);
int si_fully_defined(const si_sh* s);
/* Product of the dims, or -1 when some dim or the rank is unknown. */
int64_t si_num_elements(const si_sh* s);

/* TF's InferenceContext checks. `out` may alias `in`. */
int si_with_rank(si_ctx* c, const si_sh* in, int rank, si_sh* out);
int si_with_rank_at_least(si_ctx* c, const si_sh* in, int rank, si_sh* out);
int si_with_rank_at_most(si_ctx* c, const si_sh* in, int rank, si_sh* out);
int si_with_value(si_ctx* c, int64_t dim, int64_t value, int64_t* out);
int si_merge_dim(si_ctx* c, int64_t a, int64_t b, int64_t* out);
/* a = merge(a, b). */
int si_merge(si_ctx* c, si_sh* a, const si_sh* b);
/* Merges the first rank(prefix) dims of s with prefix (both updated). */
int si_merge_prefix(si_ctx* c, si_sh* s, si_sh* prefix);
/* out = s[start:end] with TF's negative-index rules (end may be INT64_MAX
 * for "to the end"). out may alias s. */
int si_subshape(si_ctx* c, const si_sh* s, int64_t start, int64_t end,
                si_sh* out);
/* a = a + b (unknown when either rank is unknown). */
void si_concat(si_sh* a, const si_sh* b);
void si_append_dim(si_sh* a, int64_t d);
/* Dim arithmetic with unknown propagation and TF's errors. */
int si_dim_add(si_ctx* c, int64_t a, int64_t b, int64_t* out);
int si_dim_sub(si_ctx* c, int64_t a, int64_t b, int64_t* out);
int si_dim_mul(si_ctx* c, int64_t a, int64_t b, int64_t* out);
int si_dim_div(si_ctx* c, int64_t a, int64_t b, int evenly, int64_t* out);
/* TF's BroadcastBinaryOpOutputShapeFnHelper. */
int si_broadcast(si_ctx* c, const si_sh* x, const si_sh* y,
                 int incompatible_error, si_sh* out);
/* Rendering as TF's DebugString: "[2,?]" or "?". buf >= 32 bytes; long
 * shapes are cut with "...". */
void si_debug_string(const si_sh* s, char* buf, size_t cap);

/* ---- outputs ---- */
int si_set(si_ctx* c, int i, const si_sh* s);
int si_set_input(si_ctx* c, int out_i, int in_i);
int si_set_scalar(si_ctx* c, int i);
int si_set_vector(si_ctx* c, int i, int64_t d);
/* Output i from a shape attr (e.g. Placeholder's "shape"). */
int si_set_from_attr_shape(si_ctx* c, int i, const tfe_shape* s);

/* ---- common rules, shared by tables ---- */
int si_rule_unchanged(si_ctx* c);       /* output 0 = input 0 */
int si_rule_scalar(si_ctx* c);          /* every output a scalar */
int si_rule_passthrough(si_ctx* c);     /* output i = input i */
int si_rule_merge_both(si_ctx* c);      /* output 0 = merge(in0, in1) */
int si_rule_broadcast(si_ctx* c);       /* binary broadcasting */
int si_rule_shape_from_input0(si_ctx* c); /* shape tensor input 0 */
int si_rule_explicit_shape(si_ctx* c);  /* "shape" attr */
int si_rule_unknown(si_ctx* c);         /* outputs stay unknown */

/* Looks up a rule entry by op name (NULL when none). For tests. */
const si_rule* si_find_rule(const char* op);

#endif /* TFE_OPS_SHAPE_INFER_INTERNAL_H_ */
