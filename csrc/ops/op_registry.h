/* The one op registry. Op definitions are written in TensorFlow's op
 * definition grammar (the strings that ops.h's TF_OpDefinitionBuilder takes):
 *   inputs/outputs:  "x: T", "values: N * T", "out: list(type)" style
 *                    ("name: TYPE" where TYPE is a fixed dtype such as
 *                    float/int32, a type attr name, "N * T", "N * int32",
 *                    or a list(type) attr name), optionally "Ref(T)".
 *   attrs:           "T: {float, double, int32}", "N: int >= 1",
 *                    "transpose_a: bool = false", "Tout: list(type)",
 *                    "mode: {'REFLECT', 'SYMMETRIC'}", "shape: shape",
 *                    "value: tensor", "f: func", "axis: int = -1",
 *                    "dims: list(int) >= 1", "T: type = DT_FLOAT",
 *                    "T: numbertype" (and TF's other type classes).
 * Built-in ops and plugin ops (ops.h) are registered through the same
 * functions. Implementation: csrc/ops/op_registry.c, csrc/ops/op_grammar.c;
 * built-in definitions in csrc/ops/defs_*.c. Thread-safe: registration
 * takes a write lock; lookups are cheap and may run concurrently. */
#ifndef TFE_OPS_OP_REGISTRY_H_
#define TFE_OPS_OP_REGISTRY_H_

#include "ops/attr_value.h"
#include "tensorflow/c/tf_status.h"

typedef struct tfe_arg_def {
  char* name;
  TF_DataType type;     /* fixed dtype, or 0 when given by an attr */
  char* type_attr;      /* "T" for "x: T" or "x: N * T"; else NULL */
  char* number_attr;    /* "N" for "x: N * T"; else NULL */
  char* type_list_attr; /* "Tout" for "x: Tout" with Tout: list(type) */
  int is_ref;
} tfe_arg_def;

typedef struct tfe_attr_def {
  char* name;
  char* type_str;  /* as TF spells it: "type", "list(type)", "int", ... */
  TF_AttrType type;
  int is_list;
  int has_default;
  tfe_attr_value default_value;
  int has_minimum; /* ">= N": minimum value for int, minimum length for list */
  int64_t minimum;
  int has_allowed; /* "{...}": allowed types or strings, as a list value */
  tfe_attr_value allowed;
} tfe_attr_def;

typedef struct tfe_op_def {
  char* name;
  tfe_arg_def* inputs;
  int num_inputs;
  tfe_arg_def* outputs;
  int num_outputs;
  tfe_attr_def* attrs;
  int num_attrs;
  int is_stateful;
  int is_commutative;
  int is_aggregate;
  int allows_uninitialized_input;
  char* summary;
  /* Shape function registered through ops.h (opaque here), or NULL. */
  void* shape_fn;
  /* Cache of shape_infer.c: the built-in shape rule found for this op
   * (read and written atomically there; NULL until first used). */
  const void* shape_rule;
} tfe_op_def;

/* ---- building a definition ---- */

/* New empty definition named `name` (copied). NULL on OOM. */
tfe_op_def* tfe_op_def_new(const char* name);
void tfe_op_def_free(tfe_op_def* def);
/* Parse one spec in the grammar and append it. On a syntax error, sets
 * INVALID_ARGUMENT naming the op and quoting the spec, in TF's words
 * ("Trouble parsing '<name>:' from Attr(\"...\") for Op Foo"); def
 * unchanged. RESOURCE_EXHAUSTED when memory runs out. Returns 1 on success,
 * 0 on failure. Default values use TF's text format ('VALID', -1, 1.5,
 * true, DT_FLOAT, [1, 2], { dim { size: 2 } }, { unknown_rank: true }, ...);
 * tfe also reads a dtype default as a short name ("= float") and a shape
 * as "[2, ?]" / "<unknown>". */
int tfe_op_def_add_input(tfe_op_def* def, const char* spec, TF_Status* s);
int tfe_op_def_add_output(tfe_op_def* def, const char* spec, TF_Status* s);
int tfe_op_def_add_attr(tfe_op_def* def, const char* spec, TF_Status* s);

/* Checks the definition (every attr an arg refers to exists with the right
 * kind; names are unique and valid; defaults satisfy minimums and allowed
 * values) and registers it; the registry takes ownership whether or not it
 * succeeds. ALREADY_EXISTS for a duplicate name, INVALID_ARGUMENT for a bad
 * definition, RESOURCE_EXHAUSTED when memory runs out. Registering first
 * makes sure the built-in ops are registered. Attr references in arg specs
 * are settled here (TF settles them once all attrs are known), so specs may
 * be added in any order; a number attr or type-list attr without an explicit
 * minimum gets minimum 1, and a fixed DT_RESOURCE arg marks the op
 * stateful, as in TF. Returns 1 on success, 0 on failure. */
int tfe_op_register(tfe_op_def* def, TF_Status* s);

/* Convenience for built-in definitions: name plus a NULL-terminated list of
 * specs, each prefixed "in:", "out:" or "attr:" (also the flags
 * "stateful", "commutative", "aggregate", "allows_uninitialized_input", and
 * "summary: <text>"), e.g.
 *   tfe_op_register_specs("AddV2", (const char*[]){"in: x: T", "in: y: T",
 *       "out: z: T", "attr: T: {float, double, int32}", "commutative",
 *       NULL}, status);  */
int tfe_op_register_specs(const char* name, const char* const* specs,
                          TF_Status* s);

/* Takes defs[0..n) (registered definitions) out of lookups and listings,
 * for a library whose load failed. The definitions stay allocated, since
 * pointers to them may have been handed out; a lookup racing with the
 * removal may still see them. Returns how many were removed; 0 (nothing
 * changed) when memory for the new index runs out. */
int tfe_op_unregister(const tfe_op_def* const* defs, int n);

/* ---- lookup ---- */

/* Registers every built-in op exactly once (safe to call often, from any
 * thread; cheap once done). If memory runs out part way, the missing ops
 * are registered by a later call. */
void tfe_ops_ensure_builtins(void);
/* The definition named `name`, or NULL. Definitions are never removed, so
 * the pointer stays valid for the life of the process (also after
 * tfe_op_unregister). Lock-free and
 * allocation-free (a hash probe); registers the built-ins on first use. */
const tfe_op_def* tfe_op_lookup(const char* name);
/* Snapshot listing: number of ops, and the i-th in registration order. */
int tfe_op_count(void);
const tfe_op_def* tfe_op_at(int i);

const tfe_attr_def* tfe_op_def_find_attr(const tfe_op_def* def,
                                         const char* name);

/* ---- using a definition at execution time ---- */

/* Fills in defaults for attrs not present, then checks every attr against
 * the definition: present, right kind, allowed values, minimums. Errors are
 * INVALID_ARGUMENT with TF-like wording that names the op and the attr,
 * e.g. "Value for attr 'T' of string is not in the list of allowed values:
 * float, double\n\t; NodeDef: {{node AddV2}}; Op<name=AddV2; ...>".
 * As in TF eager, an attr without value or default that an input or output
 * needs (a type, number or type-list attr, e.g. Cast's DstT or Unpack's num)
 * is NOT_FOUND: "No attr named 'DstT' in NodeDef:..."; any other missing
 * attr is INVALID_ARGUMENT "NodeDef missing attr 'x' from Op<...>". Checks
 * run in that order: missing arg attrs, then values in definition order,
 * then the remaining missing attrs. An empty list value takes the list kind
 * of the definition. Out of memory: RESOURCE_EXHAUSTED. Unknown extra attrs
 * are allowed (TF ignores them in eager mode). */
int tfe_op_def_complete_attrs(const tfe_op_def* def, tfe_attrs* attrs,
                              TF_Status* s);
/* The same, but defaults are added with tfe_attrs_put_static (the
 * entries borrow the definition's attr names): only for registered
 * definitions, which are never freed. */
int tfe_op_def_complete_attrs_static(const tfe_op_def* def, tfe_attrs* attrs,
                                     TF_Status* s);

/* Number of flat tensors arg `arg` stands for, given complete attrs
 * (1, N from number_attr, or the length of the type_list_attr). */
int tfe_op_def_arg_length(const tfe_op_def* def, const tfe_arg_def* arg,
                          const tfe_attrs* attrs, int* len, TF_Status* s);
/* dtype of element `k` of arg `arg` under complete attrs. */
int tfe_op_def_arg_dtype(const tfe_op_def* def, const tfe_arg_def* arg,
                         const tfe_attrs* attrs, int k, TF_DataType* out,
                         TF_Status* s);
/* Flat output count and dtypes under complete attrs. `types` may be NULL
 * to only count; otherwise it must hold `cap` entries. */
int tfe_op_def_output_types(const tfe_op_def* def, const tfe_attrs* attrs,
                            TF_DataType* types, int cap, int* num_outputs,
                            TF_Status* s);

/* The definition rendered back as grammar lines (one per line, prefixed
 * "in: ", "out: ", "attr: ", plus "stateful"/"commutative"), into a new
 * malloc'd NUL-terminated string the caller frees with tfe_free. Used by
 * the Python binding to generate op wrappers. */
char* tfe_op_def_to_specs(const tfe_op_def* def);

/* TF's one-line summary of a definition, as its error messages show it:
 * "Op<name=AddV2; signature=x:T, y:T -> z:T; attr=T:type,allowed=[DT_FLOAT,
 * ...]; is_commutative=true>". New string, freed by the caller with
 * tfe_free; NULL when memory runs out. */
char* tfe_op_def_summarize(const tfe_op_def* def);

/* NULL when every built-in definition registered; otherwise the message of
 * the first one that failed (static storage). For tests. */
const char* tfe_ops_builtin_error(void);

#endif /* TFE_OPS_OP_REGISTRY_H_ */
