/* Private helpers shared by the files of csrc/ops/ (attr values, the
 * op-definition grammar, the registry). Nothing outside csrc/ops/ should
 * include this header. */
#ifndef TFE_OPS_OPS_INTERNAL_H_
#define TFE_OPS_OPS_INTERNAL_H_

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ops/attr_value.h"
#include "ops/op_registry.h"

/* ---- growable strings ----
 * A strbuf collects text for messages and listings. Every append is
 * bounded-safe; when memory runs out the buffer remembers it (oom = 1) and
 * later appends do nothing, so callers check once at the end. */
typedef struct tfe_strbuf {
  char* data; /* NUL-terminated when non-NULL; owned (tfe_malloc) */
  size_t len;
  size_t cap;
  int oom;
} tfe_strbuf;

void tfe_sb_init(tfe_strbuf* b);
void tfe_sb_free(tfe_strbuf* b);
void tfe_sb_putn(tfe_strbuf* b, const char* s, size_t n);
void tfe_sb_puts(tfe_strbuf* b, const char* s);
void tfe_sb_putc(tfe_strbuf* b, char c);
void tfe_sb_printf(tfe_strbuf* b, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Returns the text ("" when empty or out of memory); valid until the next
 * append or free. */
const char* tfe_sb_str(const tfe_strbuf* b);
/* Hands the malloc'd text to the caller (NULL when out of memory) and
 * resets the buffer. */
char* tfe_sb_take(tfe_strbuf* b);

/* ---- ASCII classification (never locale-dependent, safe on any byte) ---- */
static inline int tfe_is_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }
static inline int tfe_is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static inline int tfe_is_letter(unsigned char c) {
  return tfe_is_lower(c) || tfe_is_upper(c);
}
static inline int tfe_is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static inline int tfe_is_ident(unsigned char c) {
  return tfe_is_letter(c) || tfe_is_digit(c) || c == '_';
}
static inline int tfe_is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

/* ---- attr value rendering ---- */

/* TF's summary of a value (SummarizeAttrValue): DT_FLOAT, [1, 2], "abc",
 * true, [2,3], <unknown>, Tensor<...>, f[]. Appends to b. */
void tfe_attr_value_summarize(const tfe_attr_value* v, tfe_strbuf* b);
/* The shortest decimal text that reads back as the same float ("0.2",
 * "1e-05", "inf", "nan"). buf needs 32 bytes. */
void tfe_float_to_text(float f, char* buf, size_t cap);
/* C-style escape of bytes (\n, \t, \", \', \\, octal for the rest of the
 * non-printables), as absl::CEscape. Appends to b. */
void tfe_c_escape(const char* s, size_t n, tfe_strbuf* b);
/* Name of an attr kind as the grammar spells it ("int", "list(type)"). */
const char* tfe_attr_kind_name(TF_AttrType t, int is_list);

/* ---- the grammar (op_grammar.c) ---- */

/* Tensor-valued attr defaults of op definitions are the registry's own and
 * are left out of TFE_LiveObjectCount: add 0 when a default joins a
 * definition, 1 just before the definition frees it (tfe_op_def_free does
 * that for every attr with a default). */
void tfe_op_def_count_default_tensors(const tfe_attr_value* v, int add);

/* Parses a default value written in the grammar (TF's text format for an
 * AttrValue of type kind/is_list) into *out. Returns 1 on success; 0 on a
 * syntax error (out zeroed) or -1 when memory runs out. */
int tfe_parse_attr_default(TF_AttrType kind, int is_list, const char* text,
                           size_t len, tfe_attr_value* out);
/* Renders a value so that tfe_parse_attr_default reads it back equal.
 * Appends to b. */
void tfe_render_attr_default(const tfe_attr_value* v, tfe_strbuf* b);
/* Appends the spec text of an arg ("x: T", "values: N * T", "y: Ref(float)"). */
void tfe_render_arg_spec(const tfe_arg_def* a, tfe_strbuf* b);
/* Appends the spec text of an attr ("T: {float, double} = DT_FLOAT"). */
void tfe_render_attr_spec(const tfe_attr_def* a, tfe_strbuf* b);

/* A valid dtype for an attr value (named in the dtype table). */
int tfe_dtype_is_valid(TF_DataType t);

/* ---- the registry (op_registry.c) ---- */

/* SummarizeOpDef-style text: Op<name=AddV2; signature=x:T, y:T -> z:T;
 * attr=T:type,allowed=[DT_FLOAT, ...]; is_commutative=true>. */
void tfe_op_def_summarize_to(const tfe_op_def* def, tfe_strbuf* b);

/* ---- built-in definitions (builtin_ops.c, defs_*.c) ---- */

/* One built-in op: its name and its NULL-terminated spec lines, in the
 * form tfe_op_register_specs takes. */
typedef struct tfe_builtin_op {
  const char* name;
  const char* const* specs;
} tfe_builtin_op;

/* Spec list literal for a table entry: TFE_OP("Name", "in: x: T", ...). */
#define TFE_OP(name, ...) \
  { name, (const char* const[]){__VA_ARGS__, NULL} }
/* An op without inputs, outputs or attrs. */
#define TFE_OP_NO_SPECS(name) \
  { name, (const char* const[]){NULL} }

/* Registers every op of a table; a failure is logged and remembered for
 * tfe_ops_builtin_error. Returns the number of failures. */
int tfe_ops_register_table(const tfe_builtin_op* ops, int n);

#endif /* TFE_OPS_OPS_INTERNAL_H_ */
