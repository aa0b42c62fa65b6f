/* The op-definition grammar: parsing "x: T", "N: int >= 1",
 * "T: {float, double} = DT_FLOAT" and friends into tfe_op_def parts, the
 * text form of default values, and rendering definitions back to specs.
 *
 * The accepted language follows TensorFlow's OpDefBuilder (attr, input and
 * output specs) and its text-format reading of default values. Checks that
 * need the whole definition (references between args and attrs, duplicate
 * names, defaults against allowed values) run at registration, in
 * op_registry.c, as TF runs them when an op is registered. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "core/tensor_internal.h"
#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "ops/ops_internal.h"
#include "tensorflow/c/tf_tstring.h"

/* ======================================================================
 * definitions: lifecycle
 * ====================================================================== */

static void arg_def_clear(tfe_arg_def* a) {
  tfe_free(a->name);
  tfe_free(a->type_attr);
  tfe_free(a->number_attr);
  tfe_free(a->type_list_attr);
  memset(a, 0, sizeof(*a));
}

/* Tensor-valued defaults of a definition belong to the op registry, which
 * lives as long as the process: they are not objects a caller could leak,
 * so TFE_LiveObjectCount leaves them out. They stop counting when the attr
 * joins a definition and count again just before the definition frees
 * them (add 0 / 1). */
void tfe_op_def_count_default_tensors(const tfe_attr_value* v, int add) {
  int i, n;
  TF_Tensor* const* ts;
  if (v->type != TF_ATTR_TENSOR) return;
  n = v->is_list ? v->list_size : 1;
  ts = v->is_list ? v->list.tensor : &v->v.tensor;
  for (i = 0; ts != NULL && i < n; i++) {
    if (ts[i] == NULL) continue;
    if (add) {
      tfe_count_inc(TFE_OBJ_TENSOR);
      tfe_count_inc(TFE_OBJ_TENSOR_BUFFER);
    } else {
      tfe_count_dec(TFE_OBJ_TENSOR);
      tfe_count_dec(TFE_OBJ_TENSOR_BUFFER);
    }
  }
}

static void attr_def_clear(tfe_attr_def* a) {
  tfe_free(a->name);
  tfe_free(a->type_str);
  tfe_attr_value_clear(&a->default_value);
  tfe_attr_value_clear(&a->allowed);
  memset(a, 0, sizeof(*a));
}

tfe_op_def* tfe_op_def_new(const char* name) {
  tfe_op_def* d;
  if (name == NULL) return NULL;
  d = (tfe_op_def*)tfe_calloc(1, sizeof(*d));
  if (d == NULL) return NULL;
  d->name = tfe_strdup(name);
  if (d->name == NULL) {
    tfe_free(d);
    return NULL;
  }
  return d;
}

void tfe_op_def_free(tfe_op_def* def) {
  int i;
  if (def == NULL) return;
  for (i = 0; i < def->num_inputs; i++) arg_def_clear(&def->inputs[i]);
  for (i = 0; i < def->num_outputs; i++) arg_def_clear(&def->outputs[i]);
  for (i = 0; i < def->num_attrs; i++) {
    if (def->attrs[i].has_default) tfe_op_def_count_default_tensors(&def->attrs[i].default_value, 1);
    attr_def_clear(&def->attrs[i]);
  }
  tfe_free(def->inputs);
  tfe_free(def->outputs);
  tfe_free(def->attrs);
  tfe_free(def->summary);
  tfe_free(def->name);
  tfe_free(def);
}

/* ======================================================================
 * dtype classes
 * ====================================================================== */

/* Members in enum order, the order TF's DataTypeSet iterates in. */
static const TF_DataType kNumberTypes[] = {
    TF_FLOAT,  TF_DOUBLE, TF_INT32,   TF_UINT8,     TF_INT16,
    TF_INT8,   TF_COMPLEX64, TF_INT64, TF_QINT8,    TF_QUINT8,
    TF_QINT32, TF_BFLOAT16, TF_QINT16, TF_QUINT16, TF_UINT16,
    TF_COMPLEX128, TF_HALF, TF_UINT32, TF_UINT64};
static const TF_DataType kRealNumberTypes[] = {
    TF_FLOAT,    TF_DOUBLE, TF_INT32,  TF_UINT8,  TF_INT16,  TF_INT8,
    TF_INT64,    TF_BFLOAT16, TF_UINT16, TF_HALF, TF_UINT32, TF_UINT64};
static const TF_DataType kQuantizedTypes[] = {TF_QINT8, TF_QUINT8, TF_QINT32,
                                              TF_QINT16, TF_QUINT16};

typedef struct type_class {
  const char* name;
  const TF_DataType* types;
  int n;
} type_class;

#define TFE_NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
static const type_class kTypeClasses[] = {
    {"numbertype", kNumberTypes, TFE_NELEM(kNumberTypes)},
    {"numerictype", kNumberTypes, TFE_NELEM(kNumberTypes)},
    {"realnumbertype", kRealNumberTypes, TFE_NELEM(kRealNumberTypes)},
    {"realnumerictype", kRealNumberTypes, TFE_NELEM(kRealNumberTypes)},
    {"quantizedtype", kQuantizedTypes, TFE_NELEM(kQuantizedTypes)},
};

static const type_class* find_type_class(const char* s, size_t n) {
  int i;
  for (i = 0; i < TFE_NELEM(kTypeClasses); i++) {
    if (strlen(kTypeClasses[i].name) == n &&
        memcmp(kTypeClasses[i].name, s, n) == 0) {
      return &kTypeClasses[i];
    }
  }
  return NULL;
}

/* Grammar dtype names: the short names ("float", "int32", aliases such as
 * "float32"), not the DT_ enum names. */
static int grammar_dtype(const char* s, size_t n, TF_DataType* out) {
  if (n >= 3 && memcmp(s, "DT_", 3) == 0) return 0;
  return tfe_dtype_from_name(s, n, out);
}

/* ======================================================================
 * a tiny scanner
 * ====================================================================== */

typedef struct cur {
  const char* p;
  const char* e;
} cur;

static void skip_ws(cur* c) {
  while (c->p < c->e && tfe_is_space((unsigned char)*c->p)) c->p++;
}

static int at_end(const cur* c) { return c->p >= c->e; }

static int peek_is(const cur* c, char ch) { return c->p < c->e && *c->p == ch; }

static int take_lit(cur* c, const char* s) {
  size_t n = strlen(s);
  if ((size_t)(c->e - c->p) >= n && memcmp(c->p, s, n) == 0) {
    c->p += n;
    return 1;
  }
  return 0;
}

/* An identifier: first char checked by `first`, the rest by `rest`. */
static int take_ident(cur* c, int (*first)(unsigned char),
                      int (*rest)(unsigned char), const char** s, size_t* n) {
  const char* p = c->p;
  if (p >= c->e || !first((unsigned char)*p)) return 0;
  p++;
  while (p < c->e && rest((unsigned char)*p)) p++;
  *s = c->p;
  *n = (size_t)(p - c->p);
  c->p = p;
  return 1;
}

/* "<name>:" with surrounding blanks; the name is checked like take_ident. */
static int take_name_colon(cur* c, int (*first)(unsigned char),
                           int (*rest)(unsigned char), const char** s,
                           size_t* n) {
  if (!take_ident(c, first, rest, s, n)) return 0;
  skip_ws(c);
  if (!peek_is(c, ':')) return 0;
  c->p++;
  skip_ws(c);
  return 1;
}

/* An optional "<word>(" prefix such as "Ref(" or "list(": consumed (with
 * the blanks after it) and 1 returned when present; else c is unchanged. */
static int take_open_call(cur* c, const char* word) {
  cur save = *c;
  if (take_lit(c, word)) {
    skip_ws(c);
    if (peek_is(c, '(')) {
      c->p++;
      skip_ws(c);
      return 1;
    }
  }
  *c = save;
  return 0;
}

static int is_lower_digit_us(unsigned char ch) {
  return tfe_is_lower(ch) || tfe_is_digit(ch) || ch == '_';
}
static int is_lower_digit(unsigned char ch) {
  return tfe_is_lower(ch) || tfe_is_digit(ch);
}
static int is_letter(unsigned char ch) { return tfe_is_letter(ch); }
static int is_lower(unsigned char ch) { return tfe_is_lower(ch); }
static int is_ident(unsigned char ch) { return tfe_is_ident(ch); }

/* ======================================================================
 * default values: TF's text format for an AttrValue field
 * ====================================================================== */

typedef struct tp {
  cur c;
  int oom;
} tp;

/* Whitespace and '#' comments, as the text format skips them. */
static void tp_ws(tp* t) {
  for (;;) {
    skip_ws(&t->c);
    if (peek_is(&t->c, '#')) {
      while (t->c.p < t->c.e && *t->c.p != '\n') t->c.p++;
      continue;
    }
    return;
  }
}

/* A token ends at a delimiter: nothing identifier-like may follow. */
static int tp_token_end(const tp* t) {
  unsigned char ch;
  if (at_end(&t->c)) return 1;
  ch = (unsigned char)*t->c.p;
  return !(tfe_is_ident(ch) || ch == '.' || ch == '-' || ch == '+');
}

static int hexval(unsigned char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* One quoted literal (or several adjacent ones, concatenated), with C
 * escapes. Appends the bytes to out. Returns 1, 0 on syntax error. */
static int tp_string(tp* t, tfe_strbuf* out) {
  int any = 0;
  for (;;) {
    char q;
    tp_ws(t);
    if (!peek_is(&t->c, '\'') && !peek_is(&t->c, '"')) break;
    q = *t->c.p++;
    for (;;) {
      unsigned char ch;
      if (at_end(&t->c)) return 0; /* unterminated */
      ch = (unsigned char)*t->c.p++;
      if (ch == (unsigned char)q) break;
      if (ch == '\n') return 0;
      if (ch != '\\') {
        tfe_sb_putc(out, (char)ch);
        continue;
      }
      if (at_end(&t->c)) return 0;
      ch = (unsigned char)*t->c.p++;
      switch (ch) {
        case 'n': tfe_sb_putc(out, '\n'); break;
        case 't': tfe_sb_putc(out, '\t'); break;
        case 'r': tfe_sb_putc(out, '\r'); break;
        case 'a': tfe_sb_putc(out, '\a'); break;
        case 'b': tfe_sb_putc(out, '\b'); break;
        case 'f': tfe_sb_putc(out, '\f'); break;
        case 'v': tfe_sb_putc(out, '\v'); break;
        case '\\': tfe_sb_putc(out, '\\'); break;
        case '\'': tfe_sb_putc(out, '\''); break;
        case '"': tfe_sb_putc(out, '"'); break;
        case '?': tfe_sb_putc(out, '?'); break;
        case 'x':
        case 'X': {
          int v = 0, k = 0, h;
          while (k < 2 && !at_end(&t->c) &&
                 (h = hexval((unsigned char)*t->c.p)) >= 0) {
            v = v * 16 + h;
            t->c.p++;
            k++;
          }
          if (k == 0) return 0;
          tfe_sb_putc(out, (char)v);
          break;
        }
        default:
          if (ch >= '0' && ch <= '7') {
            int v = ch - '0', k = 1;
            while (k < 3 && !at_end(&t->c) && *t->c.p >= '0' &&
                   *t->c.p <= '7') {
              v = v * 8 + (*t->c.p - '0');
              t->c.p++;
              k++;
            }
            if (v > 255) return 0;
            tfe_sb_putc(out, (char)v);
          } else {
            return 0; /* unknown escape */
          }
      }
    }
    any = 1;
  }
  if (out->oom) t->oom = 1;
  return any;
}

/* A signed 64-bit integer: decimal, 0x hex or 0 octal. */
static int tp_int(tp* t, int64_t* out) {
  int neg = 0;
  uint64_t v = 0, limit;
  int base = 10, digits = 0;
  tp_ws(t);
  if (peek_is(&t->c, '-')) {
    neg = 1;
    t->c.p++;
  }
  if (t->c.e - t->c.p >= 2 && t->c.p[0] == '0' &&
      (t->c.p[1] == 'x' || t->c.p[1] == 'X')) {
    base = 16;
    t->c.p += 2;
  } else if (t->c.e - t->c.p >= 2 && t->c.p[0] == '0' &&
             tfe_is_digit((unsigned char)t->c.p[1])) {
    base = 8;
    t->c.p++;
  }
  limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
  while (!at_end(&t->c)) {
    int d = hexval((unsigned char)*t->c.p);
    if (d < 0 || d >= base) break;
    if (v > (limit - (uint64_t)d) / (uint64_t)base) return 0; /* overflow */
    v = v * (uint64_t)base + (uint64_t)d;
    t->c.p++;
    digits++;
  }
  if (digits == 0 || !tp_token_end(t)) return 0;
  if (neg) {
    *out = v == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)v;
  } else {
    *out = (int64_t)v;
  }
  return 1;
}

static int ieq(const char* s, size_t n, const char* lit) {
  size_t i;
  if (strlen(lit) != n) return 0;
  for (i = 0; i < n; i++) {
    char a = s[i];
    if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
    if (a != lit[i]) return 0;
  }
  return 1;
}

static int tp_float(tp* t, float* out) {
  const char* start;
  char tmp[128];
  size_t n;
  int neg = 0;
  double d;
  char* endp;
  tp_ws(t);
  if (peek_is(&t->c, '-')) {
    neg = 1;
    t->c.p++;
  }
  start = t->c.p;
  if (!at_end(&t->c) && tfe_is_letter((unsigned char)*t->c.p)) {
    const char* s;
    size_t len;
    take_ident(&t->c, is_letter, is_ident, &s, &len);
    if (ieq(s, len, "inf") || ieq(s, len, "infinity")) {
      *out = neg ? -INFINITY : INFINITY;
      return 1;
    }
    if (ieq(s, len, "nan")) {
      *out = neg ? -NAN : NAN;
      return 1;
    }
    return 0;
  }
  while (!at_end(&t->c)) {
    unsigned char ch = (unsigned char)*t->c.p;
    if (tfe_is_digit(ch) || ch == '.') {
      t->c.p++;
    } else if ((ch == 'e' || ch == 'E') && t->c.p > start) {
      t->c.p++;
      if (!at_end(&t->c) && (*t->c.p == '-' || *t->c.p == '+')) t->c.p++;
    } else {
      break;
    }
  }
  n = (size_t)(t->c.p - start);
  if (n == 0 || n >= sizeof tmp) return 0;
  memcpy(tmp, start, n);
  tmp[n] = '\0';
  if (!tfe_is_digit((unsigned char)tmp[0]) &&
      !(tmp[0] == '.' && n > 1 && tfe_is_digit((unsigned char)tmp[1]))) {
    return 0;
  }
  errno = 0;
  d = strtod(tmp, &endp);
  if (endp != tmp + n) return 0;
  if (!at_end(&t->c) && (*t->c.p == 'f' || *t->c.p == 'F')) t->c.p++;
  if (!tp_token_end(t)) return 0;
  *out = (float)(neg ? -d : d);
  return 1;
}

static int tp_bool(tp* t, unsigned char* out) {
  const char* s;
  size_t n;
  tp_ws(t);
  if (take_lit(&t->c, "1")) {
    *out = 1;
    return tp_token_end(t);
  }
  if (take_lit(&t->c, "0")) {
    *out = 0;
    return tp_token_end(t);
  }
  if (!take_ident(&t->c, is_letter, is_ident, &s, &n)) return 0;
  if ((n == 4 && memcmp(s, "true", 4) == 0) ||
      (n == 4 && memcmp(s, "True", 4) == 0) || (n == 1 && s[0] == 't')) {
    *out = 1;
    return 1;
  }
  if ((n == 5 && memcmp(s, "false", 5) == 0) ||
      (n == 5 && memcmp(s, "False", 5) == 0) || (n == 1 && s[0] == 'f')) {
    *out = 0;
    return 1;
  }
  return 0;
}

/* DT_FLOAT (an enum name), its number, or (a tfe extension) "float". */
static int tp_type(tp* t, TF_DataType* out) {
  const char* s;
  size_t n;
  tp_ws(t);
  if (!at_end(&t->c) && tfe_is_digit((unsigned char)*t->c.p)) {
    int64_t v;
    if (!tp_int(t, &v)) return 0;
    if (v <= 0 || v > INT_MAX || !tfe_dtype_is_valid((TF_DataType)v)) return 0;
    *out = (TF_DataType)v;
    return 1;
  }
  if (!take_ident(&t->c, is_letter, is_ident, &s, &n)) return 0;
  return tfe_dtype_from_name(s, n, out);
}

/* Opening delimiter of a message: '{' or '<'; returns the closing one. */
static char tp_open_msg(tp* t) {
  tp_ws(t);
  if (peek_is(&t->c, '{')) {
    t->c.p++;
    return '}';
  }
  if (peek_is(&t->c, '<')) {
    t->c.p++;
    return '>';
  }
  return 0;
}

/* A field name inside a message, with its optional ':' consumed. Sets
 * *has_colon. */
static int tp_field(tp* t, const char** s, size_t* n, int* has_colon) {
  tp_ws(t);
  if (!take_ident(&t->c, is_letter, is_ident, s, n)) return 0;
  tp_ws(t);
  *has_colon = 0;
  if (peek_is(&t->c, ':')) {
    t->c.p++;
    *has_colon = 1;
  }
  return 1;
}

/* Optional ',' or ';' between fields. */
static void tp_field_sep(tp* t) {
  tp_ws(t);
  if (peek_is(&t->c, ',') || peek_is(&t->c, ';')) t->c.p++;
}

typedef struct i64vec {
  int64_t* v;
  int n, cap;
} i64vec;

static int i64vec_push(i64vec* a, int64_t x) {
  if (a->n == a->cap) {
    int cap = a->cap ? a->cap * 2 : 8;
    int64_t* p;
    if (cap > (1 << 24)) return -1;
    p = (int64_t*)tfe_realloc(a->v, sizeof(int64_t) * (size_t)cap);
    if (p == NULL) return -1;
    a->v = p;
    a->cap = cap;
  }
  a->v[a->n++] = x;
  return 1;
}

/* dim { size: 2 name: "x" } body after the opening delimiter. */
static int tp_dim_body(tp* t, char close, int64_t* size) {
  *size = 0;
  for (;;) {
    const char* s;
    size_t n;
    int colon;
    tp_ws(t);
    if (peek_is(&t->c, close)) {
      t->c.p++;
      return 1;
    }
    if (!tp_field(t, &s, &n, &colon) || !colon) return 0;
    if (n == 4 && memcmp(s, "size", 4) == 0) {
      if (!tp_int(t, size) || *size < -1) return 0;
    } else if (n == 4 && memcmp(s, "name", 4) == 0) {
      tfe_strbuf ignored;
      int ok;
      tfe_sb_init(&ignored);
      ok = tp_string(t, &ignored);
      tfe_sb_free(&ignored);
      if (!ok) return 0;
    } else {
      return 0;
    }
    tp_field_sep(t);
  }
}

/* One dim value (a message) appended to dims. */
static int tp_dim(tp* t, i64vec* dims) {
  int64_t size;
  char close = tp_open_msg(t);
  if (!close || !tp_dim_body(t, close, &size)) return 0;
  if (i64vec_push(dims, size) < 0) {
    t->oom = 1;
    return 0;
  }
  return 1;
}

/* A TensorShapeProto message body after its opening delimiter. */
static int tp_shape_body(tp* t, char close, tfe_shape* out) {
  i64vec dims = {NULL, 0, 0};
  int unknown = 0;
  for (;;) {
    const char* s;
    size_t n;
    int colon;
    tp_ws(t);
    if (peek_is(&t->c, close)) {
      t->c.p++;
      break;
    }
    if (!tp_field(t, &s, &n, &colon)) goto fail;
    if (n == 3 && memcmp(s, "dim", 3) == 0) {
      tp_ws(t);
      if (colon && peek_is(&t->c, '[')) {
        t->c.p++;
        tp_ws(t);
        if (!peek_is(&t->c, ']')) {
          for (;;) {
            if (!tp_dim(t, &dims)) goto fail;
            tp_ws(t);
            if (peek_is(&t->c, ',')) {
              t->c.p++;
              continue;
            }
            break;
          }
        }
        tp_ws(t);
        if (!peek_is(&t->c, ']')) goto fail;
        t->c.p++;
      } else if (!tp_dim(t, &dims)) {
        goto fail;
      }
    } else if (n == 12 && memcmp(s, "unknown_rank", 12) == 0) {
      unsigned char b;
      if (!colon || !tp_bool(t, &b)) goto fail;
      unknown = b;
    } else {
      goto fail;
    }
    tp_field_sep(t);
  }
  if (unknown && dims.n > 0) goto fail;
  if (dims.n > TFE_MAX_DIMS) goto fail;
  out->num_dims = unknown ? -1 : dims.n;
  out->dims = NULL;
  if (!unknown && dims.n > 0) {
    out->dims = dims.v;
    dims.v = NULL;
  }
  tfe_free(dims.v);
  return 1;
fail:
  tfe_free(dims.v);
  return 0;
}

/* A shape: a TensorShapeProto message, or (tfe extension) "[2, ?]", "[]",
 * "<unknown>". */
static int tp_shape(tp* t, tfe_shape* out) {
  char close;
  tp_ws(t);
  out->dims = NULL;
  out->num_dims = 0;
  if (take_lit(&t->c, "<unknown>")) {
    out->num_dims = -1;
    return 1;
  }
  if (peek_is(&t->c, '[')) {
    i64vec dims = {NULL, 0, 0};
    t->c.p++;
    tp_ws(t);
    if (!peek_is(&t->c, ']')) {
      for (;;) {
        int64_t d;
        tp_ws(t);
        if (peek_is(&t->c, '?')) {
          t->c.p++;
          d = -1;
        } else if (!tp_int(t, &d) || d < -1) {
          tfe_free(dims.v);
          return 0;
        }
        if (i64vec_push(&dims, d) < 0) {
          t->oom = 1;
          tfe_free(dims.v);
          return 0;
        }
        tp_ws(t);
        if (peek_is(&t->c, ',')) {
          t->c.p++;
          continue;
        }
        break;
      }
    }
    tp_ws(t);
    if (!peek_is(&t->c, ']') || dims.n > TFE_MAX_DIMS) {
      tfe_free(dims.v);
      return 0;
    }
    t->c.p++;
    out->num_dims = dims.n;
    out->dims = dims.n > 0 ? dims.v : NULL;
    if (dims.n == 0) tfe_free(dims.v);
    return 1;
  }
  close = tp_open_msg(t);
  if (!close) return 0;
  return tp_shape_body(t, close, out);
}

/* ---- tensor defaults: a subset of TensorProto's text format ---- */

typedef struct tensor_text {
  TF_DataType dtype;
  tfe_shape shape;
  int has_shape;
  int kind; /* which *_val field was used: 0 none */
  double* nums;
  int n_nums, cap_nums;
  tfe_strbuf* strs;
  int n_strs, cap_strs;
  tfe_strbuf content;
  int has_content;
} tensor_text;

enum { VAL_NONE, VAL_FLOAT, VAL_DOUBLE, VAL_INT, VAL_INT64, VAL_UINT32,
       VAL_UINT64, VAL_BOOL, VAL_STRING };

static void tensor_text_free(tensor_text* tt) {
  int i;
  tfe_free(tt->shape.dims);
  tfe_free(tt->nums);
  for (i = 0; i < tt->n_strs; i++) tfe_sb_free(&tt->strs[i]);
  tfe_free(tt->strs);
  tfe_sb_free(&tt->content);
}

static int tt_push_num(tp* t, tensor_text* tt, double x) {
  if (tt->n_nums == tt->cap_nums) {
    int cap = tt->cap_nums ? tt->cap_nums * 2 : 8;
    double* p;
    if (cap > (1 << 24)) return 0;
    p = (double*)tfe_realloc(tt->nums, sizeof(double) * (size_t)cap);
    if (p == NULL) {
      t->oom = 1;
      return 0;
    }
    tt->nums = p;
    tt->cap_nums = cap;
  }
  tt->nums[tt->n_nums++] = x;
  return 1;
}

static int tt_one_value(tp* t, tensor_text* tt, int kind) {
  switch (kind) {
    case VAL_FLOAT:
    case VAL_DOUBLE: {
      float f;
      /* Read as float text, keeping double precision when it parses so. */
      const char* save = t->c.p;
      double d;
      if (!tp_float(t, &f)) return 0;
      {
        char tmp[128];
        size_t n;
        const char* s = save;
        while (s < t->c.p && tfe_is_space((unsigned char)*s)) s++;
        n = (size_t)(t->c.p - s);
        if (n < sizeof tmp && n > 0) {
          memcpy(tmp, s, n);
          tmp[n] = '\0';
          if (tmp[n - 1] == 'f' || tmp[n - 1] == 'F') tmp[n - 1] = '\0';
          d = kind == VAL_DOUBLE && isfinite(f) ? strtod(tmp, NULL) : f;
        } else {
          d = f;
        }
      }
      return tt_push_num(t, tt, d);
    }
    case VAL_BOOL: {
      unsigned char b;
      if (!tp_bool(t, &b)) return 0;
      return tt_push_num(t, tt, b);
    }
    case VAL_STRING: {
      if (tt->n_strs == tt->cap_strs) {
        int cap = tt->cap_strs ? tt->cap_strs * 2 : 4;
        tfe_strbuf* p;
        if (cap > (1 << 20)) return 0;
        p = (tfe_strbuf*)tfe_realloc(tt->strs, sizeof(tfe_strbuf) * (size_t)cap);
        if (p == NULL) {
          t->oom = 1;
          return 0;
        }
        tt->strs = p;
        tt->cap_strs = cap;
      }
      tfe_sb_init(&tt->strs[tt->n_strs]);
      tt->n_strs++;
      return tp_string(t, &tt->strs[tt->n_strs - 1]) &&
             !tt->strs[tt->n_strs - 1].oom;
    }
    default: {
      int64_t v;
      if (!tp_int(t, &v)) return 0;
      return tt_push_num(t, tt, (double)v);
    }
  }
}

static int val_field_kind(const char* s, size_t n) {
  static const struct {
    const char* name;
    int kind;
  } k[] = {{"float_val", VAL_FLOAT},   {"double_val", VAL_DOUBLE},
           {"int_val", VAL_INT},       {"int64_val", VAL_INT64},
           {"uint32_val", VAL_UINT32}, {"uint64_val", VAL_UINT64},
           {"bool_val", VAL_BOOL},     {"string_val", VAL_STRING}};
  int i;
  for (i = 0; i < TFE_NELEM(k); i++) {
    if (strlen(k[i].name) == n && memcmp(k[i].name, s, n) == 0) {
      return k[i].kind;
    }
  }
  return VAL_NONE;
}

/* Which *_val field TF uses for a dtype (VAL_NONE: only tensor_content). */
static int dtype_val_kind(TF_DataType dt) {
  switch ((int)dt) {
    case TF_FLOAT: return VAL_FLOAT;
    case TF_DOUBLE: return VAL_DOUBLE;
    case TF_INT32: case TF_INT16: case TF_INT8: case TF_UINT8:
    case TF_UINT16: return VAL_INT;
    case TF_INT64: return VAL_INT64;
    case TF_UINT32: return VAL_UINT32;
    case TF_UINT64: return VAL_UINT64;
    case TF_BOOL: return VAL_BOOL;
    case TF_STRING: return VAL_STRING;
    default: return VAL_NONE;
  }
}

static void store_num(TF_DataType dt, void* data, int64_t i, double x) {
  switch ((int)dt) {
    case TF_FLOAT: ((float*)data)[i] = (float)x; break;
    case TF_DOUBLE: ((double*)data)[i] = x; break;
    case TF_INT32: ((int32_t*)data)[i] = (int32_t)x; break;
    case TF_INT16: ((int16_t*)data)[i] = (int16_t)x; break;
    case TF_INT8: ((int8_t*)data)[i] = (int8_t)x; break;
    case TF_UINT8: ((uint8_t*)data)[i] = (uint8_t)x; break;
    case TF_UINT16: ((uint16_t*)data)[i] = (uint16_t)x; break;
    case TF_INT64: ((int64_t*)data)[i] = (int64_t)x; break;
    case TF_UINT32: ((uint32_t*)data)[i] = (uint32_t)x; break;
    case TF_UINT64: ((uint64_t*)data)[i] = (uint64_t)x; break;
    case TF_BOOL: ((unsigned char*)data)[i] = x != 0; break;
    default: break;
  }
}

/* Integer values must fit the dtype (as TF's proto-to-tensor does). */
static int num_fits(TF_DataType dt, double x) {
  switch ((int)dt) {
    case TF_INT32: return x >= -2147483648.0 && x <= 2147483647.0;
    case TF_INT16: return x >= -32768.0 && x <= 32767.0;
    case TF_INT8: return x >= -128.0 && x <= 127.0;
    case TF_UINT8: return x >= 0 && x <= 255.0;
    case TF_UINT16: return x >= 0 && x <= 65535.0;
    case TF_UINT32: return x >= 0 && x <= 4294967295.0;
    case TF_UINT64: return x >= 0;
    default: return 1;
  }
}

static int tp_tensor_build(tp* t, tensor_text* tt, TF_Tensor** out) {
  int64_t n, i;
  TF_Tensor* ten;
  int want = dtype_val_kind(tt->dtype);
  if (!tfe_dtype_is_valid(tt->dtype) || tt->dtype == TF_RESOURCE ||
      tt->dtype == TF_VARIANT) {
    return 0;
  }
  if (tt->shape.num_dims < 0) return 0;
  n = tfe_shape_num_elements(tt->shape.dims, tt->shape.num_dims);
  if (n < 0 || n > (1 << 24)) return 0;
  if (tt->kind != VAL_NONE && tt->kind != want) return 0;
  if (tt->has_content && (tt->kind != VAL_NONE || tt->dtype == TF_STRING)) {
    return 0;
  }
  if (tt->n_nums > n || tt->n_strs > n) return 0;
  if (tt->dtype != TF_STRING && TF_DataTypeSize(tt->dtype) == 0) return 0;
  for (i = 0; i < tt->n_nums; i++) {
    if (!num_fits(tt->dtype, tt->nums[i])) return 0;
  }
  ten = TF_AllocateTensor(tt->dtype, tt->shape.dims, tt->shape.num_dims,
                          tt->dtype == TF_STRING
                              ? (size_t)n * sizeof(TF_TString)
                              : (size_t)n * TF_DataTypeSize(tt->dtype));
  if (ten == NULL) {
    t->oom = 1;
    return 0;
  }
  if (tt->dtype == TF_STRING) {
    TF_TString* s = (TF_TString*)TF_TensorData(ten);
    for (i = 0; i < n; i++) {
      const tfe_strbuf* src =
          tt->n_strs == 0 ? NULL : &tt->strs[i < tt->n_strs ? i : tt->n_strs - 1];
      if (src != NULL && src->len > 0) TF_StringCopy(&s[i], src->data, src->len);
    }
  } else if (tt->has_content) {
    size_t bytes = (size_t)n * TF_DataTypeSize(tt->dtype);
    if (tt->content.len != bytes) {
      TF_DeleteTensor(ten);
      return 0;
    }
    if (bytes > 0) memcpy(TF_TensorData(ten), tt->content.data, bytes);
  } else {
    void* d = TF_TensorData(ten);
    if (n > 0) memset(d, 0, (size_t)n * TF_DataTypeSize(tt->dtype));
    for (i = 0; i < n && tt->n_nums > 0; i++) {
      store_num(tt->dtype, d, i, tt->nums[i < tt->n_nums ? i : tt->n_nums - 1]);
    }
  }
  *out = ten;
  return 1;
}

static int tp_tensor(tp* t, TF_Tensor** out) {
  tensor_text tt;
  int ok = 0;
  char close;
  memset(&tt, 0, sizeof tt);
  tfe_sb_init(&tt.content);
  close = tp_open_msg(t);
  if (!close) return 0;
  for (;;) {
    const char* s;
    size_t n;
    int colon, kind;
    tp_ws(t);
    if (peek_is(&t->c, close)) {
      t->c.p++;
      break;
    }
    if (!tp_field(t, &s, &n, &colon)) goto done;
    if (n == 5 && memcmp(s, "dtype", 5) == 0) {
      if (!colon || !tp_type(t, &tt.dtype)) goto done;
    } else if (n == 12 && memcmp(s, "tensor_shape", 12) == 0) {
      char c2 = tp_open_msg(t);
      if (!c2 || tt.has_shape) goto done;
      if (!tp_shape_body(t, c2, &tt.shape)) goto done;
      tt.has_shape = 1;
    } else if (n == 14 && memcmp(s, "tensor_content", 14) == 0) {
      if (!colon || !tp_string(t, &tt.content)) goto done;
      tt.has_content = 1;
    } else if (n == 14 && memcmp(s, "version_number", 14) == 0) {
      int64_t ignored;
      if (!colon || !tp_int(t, &ignored)) goto done;
    } else if ((kind = val_field_kind(s, n)) != VAL_NONE) {
      if (!colon) goto done;
      if (tt.kind != VAL_NONE && tt.kind != kind) goto done;
      tt.kind = kind;
      tp_ws(t);
      if (peek_is(&t->c, '[')) {
        t->c.p++;
        tp_ws(t);
        if (!peek_is(&t->c, ']')) {
          for (;;) {
            if (!tt_one_value(t, &tt, kind)) goto done;
            tp_ws(t);
            if (peek_is(&t->c, ',')) {
              t->c.p++;
              continue;
            }
            break;
          }
        }
        tp_ws(t);
        if (!peek_is(&t->c, ']')) goto done;
        t->c.p++;
      } else if (!tt_one_value(t, &tt, kind)) {
        goto done;
      }
    } else {
      goto done;
    }
    tp_field_sep(t);
  }
  if (tt.content.oom) {
    t->oom = 1;
    goto done;
  }
  ok = tp_tensor_build(t, &tt, out);
done:
  tensor_text_free(&tt);
  return ok;
}

/* NameAttrList: { name: "f" } (attrs of the function are not supported). */
static int tp_func(tp* t, tfe_strbuf* name) {
  int have = 0;
  char close = tp_open_msg(t);
  if (!close) return 0;
  for (;;) {
    const char* s;
    size_t n;
    int colon;
    tp_ws(t);
    if (peek_is(&t->c, close)) {
      t->c.p++;
      break;
    }
    if (!tp_field(t, &s, &n, &colon) || !colon) return 0;
    if (n != 4 || memcmp(s, "name", 4) != 0 || have) return 0;
    if (!tp_string(t, name)) return 0;
    have = 1;
    tp_field_sep(t);
  }
  return 1;
}

/* Growable parallel arrays for list values. */
typedef struct valvec {
  tfe_attr_value* v;
  int n, cap;
} valvec;

static int valvec_push(valvec* a, tfe_attr_value* x) {
  if (a->n == a->cap) {
    int cap = a->cap ? a->cap * 2 : 8;
    tfe_attr_value* p;
    if (cap > (1 << 24)) return 0;
    p = (tfe_attr_value*)tfe_realloc(a->v, sizeof(tfe_attr_value) * (size_t)cap);
    if (p == NULL) return 0;
    a->v = p;
    a->cap = cap;
  }
  a->v[a->n++] = *x;
  return 1;
}

static void valvec_free(valvec* a) {
  int i;
  for (i = 0; i < a->n; i++) tfe_attr_value_clear(&a->v[i]);
  tfe_free(a->v);
}

/* One scalar of `kind` into *out (zeroed on failure). */
static int tp_scalar(tp* t, TF_AttrType kind, tfe_attr_value* out) {
  memset(out, 0, sizeof(*out));
  switch (kind) {
    case TF_ATTR_INT: {
      int64_t v;
      if (!tp_int(t, &v)) return 0;
      tfe_attr_value_set_int(out, v);
      return 1;
    }
    case TF_ATTR_FLOAT: {
      float f;
      if (!tp_float(t, &f)) return 0;
      tfe_attr_value_set_float(out, f);
      return 1;
    }
    case TF_ATTR_BOOL: {
      unsigned char b;
      if (!tp_bool(t, &b)) return 0;
      tfe_attr_value_set_bool(out, b);
      return 1;
    }
    case TF_ATTR_TYPE: {
      TF_DataType dt;
      if (!tp_type(t, &dt)) return 0;
      tfe_attr_value_set_type(out, dt);
      return 1;
    }
    case TF_ATTR_STRING:
    case TF_ATTR_FUNC: {
      tfe_strbuf s;
      int ok;
      tfe_sb_init(&s);
      ok = kind == TF_ATTR_STRING ? tp_string(t, &s) : tp_func(t, &s);
      if (s.oom) {
        t->oom = 1;
        ok = 0;
      }
      if (ok) {
        ok = kind == TF_ATTR_STRING
                 ? tfe_attr_value_set_string(out, tfe_sb_str(&s), s.len)
                 : tfe_attr_value_set_func(out, tfe_sb_str(&s), s.len);
        if (!ok) t->oom = 1;
      }
      tfe_sb_free(&s);
      return ok;
    }
    case TF_ATTR_SHAPE: {
      tfe_shape sh;
      if (!tp_shape(t, &sh)) return 0;
      out->type = TF_ATTR_SHAPE;
      out->v.shape = sh;
      return 1;
    }
    case TF_ATTR_TENSOR: {
      TF_Tensor* ten = NULL;
      if (!tp_tensor(t, &ten)) return 0;
      out->type = TF_ATTR_TENSOR;
      out->v.tensor = ten;
      return 1;
    }
    default:
      return 0;
  }
}

/* Moves the scalars in vv into one list value of `kind`. */
static int pack_list(TF_AttrType kind, valvec* vv, tfe_attr_value* out) {
  int i, n = vv->n;
  void* arr = NULL;
  size_t esz;
  memset(out, 0, sizeof(*out));
  out->type = kind;
  out->is_list = 1;
  if (n == 0) return 1;
  switch (kind) {
    case TF_ATTR_INT: esz = sizeof(int64_t); break;
    case TF_ATTR_FLOAT: esz = sizeof(float); break;
    case TF_ATTR_BOOL: esz = 1; break;
    case TF_ATTR_TYPE: esz = sizeof(TF_DataType); break;
    case TF_ATTR_STRING:
    case TF_ATTR_FUNC: esz = sizeof(char*); break;
    case TF_ATTR_SHAPE: esz = sizeof(tfe_shape); break;
    case TF_ATTR_TENSOR: esz = sizeof(TF_Tensor*); break;
    default: return 0;
  }
  arr = tfe_calloc((size_t)n, esz);
  if (arr == NULL) return -1;
  if (kind == TF_ATTR_STRING || kind == TF_ATTR_FUNC) {
    size_t* lens = (size_t*)tfe_calloc((size_t)n, sizeof(size_t));
    if (lens == NULL) {
      tfe_free(arr);
      return -1;
    }
    out->list.s.data = (char**)arr;
    out->list.s.len = lens;
  }
  for (i = 0; i < n; i++) {
    tfe_attr_value* e = &vv->v[i];
    switch (kind) {
      case TF_ATTR_INT: ((int64_t*)arr)[i] = e->v.i; break;
      case TF_ATTR_FLOAT: ((float*)arr)[i] = e->v.f; break;
      case TF_ATTR_BOOL: ((unsigned char*)arr)[i] = e->v.b; break;
      case TF_ATTR_TYPE: ((TF_DataType*)arr)[i] = e->v.type; break;
      case TF_ATTR_STRING:
      case TF_ATTR_FUNC:
        out->list.s.data[i] = e->v.s.data;
        out->list.s.len[i] = e->v.s.len;
        break;
      case TF_ATTR_SHAPE: ((tfe_shape*)arr)[i] = e->v.shape; break;
      case TF_ATTR_TENSOR: ((TF_Tensor**)arr)[i] = e->v.tensor; break;
      default: break;
    }
    /* Ownership moved into the list. */
    memset(e, 0, sizeof(*e));
  }
  switch (kind) {
    case TF_ATTR_INT: out->list.i = (int64_t*)arr; break;
    case TF_ATTR_FLOAT: out->list.f = (float*)arr; break;
    case TF_ATTR_BOOL: out->list.b = (unsigned char*)arr; break;
    case TF_ATTR_TYPE: out->list.type = (TF_DataType*)arr; break;
    case TF_ATTR_SHAPE: out->list.shape = (tfe_shape*)arr; break;
    case TF_ATTR_TENSOR: out->list.tensor = (TF_Tensor**)arr; break;
    default: break;
  }
  out->list_size = n;
  vv->n = 0;
  return 1;
}

int tfe_parse_attr_default(TF_AttrType kind, int is_list, const char* text,
                           size_t len, tfe_attr_value* out) {
  tp t;
  memset(out, 0, sizeof(*out));
  if (text == NULL) return 0;
  t.c.p = text;
  t.c.e = text + len;
  t.oom = 0;
  if (!is_list) {
    if (!tp_scalar(&t, kind, out)) {
      tfe_attr_value_clear(out);
      return t.oom ? -1 : 0;
    }
  } else {
    valvec vv = {NULL, 0, 0};
    int r;
    tp_ws(&t);
    if (!peek_is(&t.c, '[')) return 0;
    t.c.p++;
    tp_ws(&t);
    if (!peek_is(&t.c, ']')) {
      for (;;) {
        tfe_attr_value e;
        if (!tp_scalar(&t, kind, &e)) {
          valvec_free(&vv);
          return t.oom ? -1 : 0;
        }
        if (!valvec_push(&vv, &e)) {
          tfe_attr_value_clear(&e);
          valvec_free(&vv);
          return -1;
        }
        tp_ws(&t);
        if (peek_is(&t.c, ',')) {
          t.c.p++;
          continue;
        }
        break;
      }
    }
    tp_ws(&t);
    if (!peek_is(&t.c, ']')) {
      valvec_free(&vv);
      return 0;
    }
    t.c.p++;
    r = pack_list(kind, &vv, out);
    valvec_free(&vv);
    if (r <= 0) return r;
  }
  tp_ws(&t);
  if (!at_end(&t.c)) {
    tfe_attr_value_clear(out);
    return 0;
  }
  return 1;
}

/* ======================================================================
 * rendering defaults and specs
 * ====================================================================== */

static void render_quoted(const char* s, size_t n, tfe_strbuf* b) {
  tfe_sb_putc(b, '\'');
  tfe_c_escape(s, n, b);
  tfe_sb_putc(b, '\'');
}

static void render_shape(const tfe_shape* s, tfe_strbuf* b) {
  int i;
  if (s->num_dims < 0) {
    tfe_sb_puts(b, "{ unknown_rank: true }");
    return;
  }
  tfe_sb_puts(b, "{ ");
  for (i = 0; i < s->num_dims; i++) {
    tfe_sb_printf(b, "dim { size: %lld } ", (long long)s->dims[i]);
  }
  tfe_sb_putc(b, '}');
}

static void render_tensor(const TF_Tensor* t, tfe_strbuf* b) {
  tfe_shape s;
  int64_t n, i;
  if (t == NULL) {
    tfe_sb_puts(b, "{ }");
    return;
  }
  s.num_dims = TF_NumDims(t);
  s.dims = t->dims;
  tfe_sb_printf(b, "{ dtype: %s tensor_shape ", tfe_dtype_enum_name(t->dtype));
  render_shape(&s, b);
  n = TF_TensorElementCount(t);
  if (t->dtype == TF_STRING) {
    const TF_TString* str = (const TF_TString*)TF_TensorData(t);
    for (i = 0; i < n && str != NULL; i++) {
      tfe_sb_puts(b, " string_val: ");
      render_quoted(TF_StringGetDataPointer(&str[i]), TF_StringGetSize(&str[i]),
                    b);
    }
  } else if (n > 0) {
    size_t bytes = (size_t)n * TF_DataTypeSize(t->dtype);
    if (bytes > TF_TensorByteSize(t)) bytes = TF_TensorByteSize(t);
    tfe_sb_puts(b, " tensor_content: ");
    render_quoted((const char*)TF_TensorData(t), bytes, b);
  }
  tfe_sb_puts(b, " }");
}

static void render_scalar(const tfe_attr_value* v, int i, tfe_strbuf* b) {
  char fb[40];
  int is_list = v->is_list;
  switch (v->type) {
    case TF_ATTR_INT:
      tfe_sb_printf(b, "%lld", (long long)(is_list ? v->list.i[i] : v->v.i));
      break;
    case TF_ATTR_FLOAT:
      tfe_float_to_text(is_list ? v->list.f[i] : v->v.f, fb, sizeof fb);
      tfe_sb_puts(b, fb);
      break;
    case TF_ATTR_BOOL:
      tfe_sb_puts(b, (is_list ? v->list.b[i] : v->v.b) ? "true" : "false");
      break;
    case TF_ATTR_TYPE:
      tfe_sb_puts(b, tfe_dtype_enum_name(is_list ? v->list.type[i] : v->v.type));
      break;
    case TF_ATTR_STRING:
      if (is_list) {
        render_quoted(v->list.s.data[i], v->list.s.len[i], b);
      } else {
        render_quoted(v->v.s.data, v->v.s.len, b);
      }
      break;
    case TF_ATTR_FUNC:
      tfe_sb_puts(b, "{ name: ");
      if (is_list) {
        render_quoted(v->list.s.data[i], v->list.s.len[i], b);
      } else {
        render_quoted(v->v.s.data, v->v.s.len, b);
      }
      tfe_sb_puts(b, " }");
      break;
    case TF_ATTR_SHAPE:
      render_shape(is_list ? &v->list.shape[i] : &v->v.shape, b);
      break;
    case TF_ATTR_TENSOR:
      render_tensor(is_list ? v->list.tensor[i] : v->v.tensor, b);
      break;
    default: break;
  }
}

void tfe_render_attr_default(const tfe_attr_value* v, tfe_strbuf* b) {
  int i;
  if (!v->is_list) {
    render_scalar(v, 0, b);
    return;
  }
  tfe_sb_putc(b, '[');
  for (i = 0; i < v->list_size; i++) {
    if (i > 0) tfe_sb_puts(b, ", ");
    render_scalar(v, i, b);
  }
  tfe_sb_putc(b, ']');
}

void tfe_render_arg_spec(const tfe_arg_def* a, tfe_strbuf* b) {
  tfe_sb_puts(b, a->name);
  tfe_sb_puts(b, ": ");
  if (a->is_ref) tfe_sb_puts(b, "Ref(");
  if (a->number_attr != NULL) {
    tfe_sb_puts(b, a->number_attr);
    tfe_sb_puts(b, " * ");
  }
  if (a->type_list_attr != NULL) {
    tfe_sb_puts(b, a->type_list_attr);
  } else if (a->type_attr != NULL) {
    tfe_sb_puts(b, a->type_attr);
  } else {
    const char* n = tfe_dtype_short_name(a->type);
    tfe_sb_puts(b, n ? n : "INVALID");
  }
  if (a->is_ref) tfe_sb_putc(b, ')');
}

void tfe_render_attr_spec(const tfe_attr_def* a, tfe_strbuf* b) {
  int i;
  tfe_sb_puts(b, a->name);
  tfe_sb_puts(b, ": ");
  if (a->is_list) tfe_sb_puts(b, "list(");
  if (a->has_allowed && a->allowed.list_size > 0) {
    tfe_sb_putc(b, '{');
    for (i = 0; i < a->allowed.list_size; i++) {
      if (i > 0) tfe_sb_puts(b, ", ");
      if (a->allowed.type == TF_ATTR_TYPE) {
        const char* n = tfe_dtype_short_name(a->allowed.list.type[i]);
        tfe_sb_puts(b, n ? n : "INVALID");
      } else {
        render_quoted(a->allowed.list.s.data[i], a->allowed.list.s.len[i], b);
      }
    }
    tfe_sb_putc(b, '}');
  } else {
    tfe_sb_puts(b, tfe_attr_kind_name(a->type, 0));
  }
  if (a->is_list) tfe_sb_putc(b, ')');
  if (a->has_minimum) tfe_sb_printf(b, " >= %lld", (long long)a->minimum);
  if (a->has_default) {
    tfe_sb_puts(b, " = ");
    tfe_render_attr_default(&a->default_value, b);
  }
}

char* tfe_op_def_to_specs(const tfe_op_def* def) {
  tfe_strbuf b;
  int i;
  if (def == NULL) return NULL;
  tfe_sb_init(&b);
  for (i = 0; i < def->num_inputs; i++) {
    tfe_sb_puts(&b, "in: ");
    tfe_render_arg_spec(&def->inputs[i], &b);
    tfe_sb_putc(&b, '\n');
  }
  for (i = 0; i < def->num_outputs; i++) {
    tfe_sb_puts(&b, "out: ");
    tfe_render_arg_spec(&def->outputs[i], &b);
    tfe_sb_putc(&b, '\n');
  }
  for (i = 0; i < def->num_attrs; i++) {
    tfe_sb_puts(&b, "attr: ");
    tfe_render_attr_spec(&def->attrs[i], &b);
    tfe_sb_putc(&b, '\n');
  }
  if (def->is_stateful) tfe_sb_puts(&b, "stateful\n");
  if (def->is_commutative) tfe_sb_puts(&b, "commutative\n");
  if (def->is_aggregate) tfe_sb_puts(&b, "aggregate\n");
  if (def->allows_uninitialized_input) {
    tfe_sb_puts(&b, "allows_uninitialized_input\n");
  }
  return tfe_sb_take(&b);
}

/* ======================================================================
 * parsing specs
 * ====================================================================== */

/* Sets INVALID_ARGUMENT: "<what> from <Kind>("<spec>") for Op <name>". When
 * memory runs out while parsing, RESOURCE_EXHAUSTED instead. */
static int spec_error(TF_Status* s, const tfe_op_def* def, const char* kind,
                      const char* spec, tfe_strbuf* what) {
  if (what->oom) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "Out of memory while parsing %s spec for Op %s", kind,
                    def->name);
  } else {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "%s from %s(\"%s\") for Op %s",
                    tfe_sb_str(what), kind, spec, def->name);
  }
  tfe_sb_free(what);
  return 0;
}

static int oom_error(TF_Status* s, const tfe_op_def* def, const char* kind) {
  tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                  "Out of memory while parsing %s spec for Op %s", kind,
                  def != NULL && def->name != NULL ? def->name : "");
  return 0;
}

static void rest_text(const cur* c, tfe_strbuf* b) {
  tfe_sb_putn(b, c->p, (size_t)(c->e - c->p));
}

static int append_arg(tfe_arg_def** arr, int* n, tfe_arg_def* a) {
  tfe_arg_def* p =
      (tfe_arg_def*)tfe_realloc(*arr, sizeof(tfe_arg_def) * (size_t)(*n + 1));
  if (p == NULL) return 0;
  p[*n] = *a;
  *arr = p;
  (*n)++;
  return 1;
}

static int add_arg(tfe_op_def* def, const char* spec, int is_output,
                   TF_Status* s) {
  const char* kind = is_output ? "Output" : "Input";
  cur c;
  tfe_strbuf what;
  tfe_arg_def a;
  const char *nm, *first, *second = NULL, *tname;
  size_t nml, firstl, secondl = 0, tnamel;
  TF_DataType dt;

  if (def == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "No op definition given");
    return 0;
  }
  if (spec == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Missing %s spec for Op %s",
                    is_output ? "output" : "input", def->name);
    return 0;
  }
  if (def->num_inputs >= 100000 || def->num_outputs >= 100000) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Too many args for Op %s",
                    def->name);
    return 0;
  }
  tfe_sb_init(&what);
  memset(&a, 0, sizeof a);
  c.p = spec;
  c.e = spec + strlen(spec);

  /* "<name>:" with a lower-case name. */
  if (!take_name_colon(&c, is_lower, is_lower_digit_us, &nm, &nml)) goto bad_name;

  /* "Ref(" */
  if (take_open_call(&c, "Ref")) a.is_ref = 1;

  /* "<type|attr>" or "<number_attr> * <type|attr>" */
  if (!take_ident(&c, is_letter, is_ident, &first, &firstl)) {
    tfe_sb_puts(&what, "Trouble parsing either a type or an attr name at '");
    rest_text(&c, &what);
    tfe_sb_putc(&what, '\'');
    return spec_error(s, def, kind, spec, &what);
  }
  skip_ws(&c);
  {
    cur save = c;
    if (peek_is(&c, '*')) {
      c.p++;
      skip_ws(&c);
      if (take_ident(&c, is_letter, is_ident, &second, &secondl)) {
        skip_ws(&c);
      } else {
        second = NULL;
        c = save;
      }
    }
  }
  if (second != NULL) {
    tname = second;
    tnamel = secondl;
  } else {
    tname = first;
    tnamel = firstl;
  }

  if (a.is_ref) {
    if (!peek_is(&c, ')')) {
      tfe_sb_puts(&what, "Did not find closing ')' for 'Ref(', instead found: '");
      rest_text(&c, &what);
      tfe_sb_putc(&what, '\'');
      return spec_error(s, def, kind, spec, &what);
    }
    c.p++;
    skip_ws(&c);
  }
  if (!at_end(&c)) {
    tfe_sb_puts(&what, "Extra '");
    rest_text(&c, &what);
    tfe_sb_puts(&what, "' unparsed at the end");
    return spec_error(s, def, kind, spec, &what);
  }

  a.name = tfe_strndup(nm, nml);
  if (a.name == NULL) goto oom;
  if (second != NULL) {
    a.number_attr = tfe_strndup(first, firstl);
    if (a.number_attr == NULL) goto oom;
  }
  if (grammar_dtype(tname, tnamel, &dt)) {
    a.type = dt;
  } else {
    /* An attr reference; whether it names a type or a list(type) attr is
     * settled at registration, when every attr is known. */
    a.type_attr = tfe_strndup(tname, tnamel);
    if (a.type_attr == NULL) goto oom;
  }
  if (!(is_output ? append_arg(&def->outputs, &def->num_outputs, &a)
                  : append_arg(&def->inputs, &def->num_inputs, &a))) {
    goto oom;
  }
  tfe_status_ok(s);
  return 1;

bad_name:
  tfe_sb_puts(&what, "Trouble parsing 'name:'");
  return spec_error(s, def, kind, spec, &what);
oom:
  arg_def_clear(&a);
  tfe_sb_free(&what);
  return oom_error(s, def, kind);
}

int tfe_op_def_add_input(tfe_op_def* def, const char* spec, TF_Status* s) {
  return add_arg(def, spec, 0, s);
}

int tfe_op_def_add_output(tfe_op_def* def, const char* spec, TF_Status* s) {
  return add_arg(def, spec, 1, s);
}

/* Appends allowed types to the list held in vv-style arrays. */
typedef struct typevec {
  TF_DataType* v;
  int n, cap;
} typevec;

static int typevec_push(typevec* a, TF_DataType t) {
  if (a->n == a->cap) {
    int cap = a->cap ? a->cap * 2 : 16;
    TF_DataType* p;
    if (cap > (1 << 20)) return 0;
    p = (TF_DataType*)tfe_realloc(a->v, sizeof(TF_DataType) * (size_t)cap);
    if (p == NULL) return 0;
    a->v = p;
    a->cap = cap;
  }
  a->v[a->n++] = t;
  return 1;
}

static int typevec_push_class(typevec* a, const type_class* tc) {
  int i;
  for (i = 0; i < tc->n; i++) {
    if (!typevec_push(a, tc->types[i])) return 0;
  }
  return 1;
}

/* The number after ">=": spaces, an optional '-', decimal digits, spaces
 * (no hex, no '+'), within int64. */
static int take_min_number(cur* c, int64_t* out) {
  cur t = *c;
  int neg = 0, digits = 0;
  uint64_t v = 0, limit;
  skip_ws(&t);
  if (peek_is(&t, '-')) {
    neg = 1;
    t.p++;
  }
  limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
  while (!at_end(&t) && tfe_is_digit((unsigned char)*t.p)) {
    uint64_t d = (uint64_t)(*t.p - '0');
    if (v > (limit - d) / 10u) return 0;
    v = v * 10u + d;
    t.p++;
    digits++;
  }
  if (digits == 0) return 0;
  skip_ws(&t);
  *out = neg ? (v == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)v)
             : (int64_t)v;
  *c = t;
  return 1;
}

int tfe_op_def_add_attr(tfe_op_def* def, const char* spec, TF_Status* s) {
  static const struct {
    const char* word;
    TF_AttrType type;
  } kKinds[] = {{"string", TF_ATTR_STRING}, {"int", TF_ATTR_INT},
                {"float", TF_ATTR_FLOAT},   {"bool", TF_ATTR_BOOL},
                {"type", TF_ATTR_TYPE},     {"shape", TF_ATTR_SHAPE},
                {"tensor", TF_ATTR_TENSOR}, {"func", TF_ATTR_FUNC}};
  cur c;
  tfe_strbuf what;
  tfe_attr_def a;
  typevec types = {NULL, 0, 0};
  valvec strs = {NULL, 0, 0};
  const char* nm;
  size_t nml;
  int i, found = 0, r;
  tfe_attr_def* arr;

  if (def == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "No op definition given");
    return 0;
  }
  if (spec == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Missing attr spec for Op %s",
                    def->name);
    return 0;
  }
  if (def->num_attrs >= 100000) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "Too many attrs for Op %s",
                    def->name);
    return 0;
  }
  tfe_sb_init(&what);
  memset(&a, 0, sizeof a);
  c.p = spec;
  c.e = spec + strlen(spec);

  /* "<name>:" */
  if (!take_name_colon(&c, is_letter, is_ident, &nm, &nml)) goto bad_name;

  /* "list(" */
  if (take_open_call(&c, "list")) a.is_list = 1;

  /* "<type>", a type class, or "{...}" */
  for (i = 0; i < TFE_NELEM(kKinds); i++) {
    if (take_lit(&c, kKinds[i].word)) {
      a.type = kKinds[i].type;
      found = 1;
      break;
    }
  }
  if (!found) {
    for (i = 0; i < TFE_NELEM(kTypeClasses); i++) {
      if (take_lit(&c, kTypeClasses[i].name)) {
        a.type = TF_ATTR_TYPE;
        if (!typevec_push_class(&types, &kTypeClasses[i])) goto oom;
        a.has_allowed = 1;
        found = 1;
        break;
      }
    }
  }
  if (!found && peek_is(&c, '{')) {
    c.p++;
    skip_ws(&c);
    a.has_allowed = 1;
    found = 1;
    if (peek_is(&c, '\'') || peek_is(&c, '"')) {
      a.type = TF_ATTR_STRING;
      for (;;) {
        tp t;
        tfe_strbuf one;
        tfe_attr_value v;
        char q;
        const char* start;
        /* One quoted string (no concatenation here, as in TF). */
        if (!peek_is(&c, '\'') && !peek_is(&c, '"')) goto bad_allowed_string;
        q = *c.p;
        start = c.p;
        c.p++;
        while (c.p < c.e && *c.p != q) {
          if (*c.p == '\\' && c.p + 1 < c.e) c.p++;
          c.p++;
        }
        if (c.p >= c.e) {
          c.p = start;
          goto bad_allowed_string;
        }
        c.p++;
        t.c.p = start;
        t.c.e = c.p;
        t.oom = 0;
        tfe_sb_init(&one);
        if (!tp_string(&t, &one) || one.oom) {
          int was_oom = one.oom;
          tfe_sb_free(&one);
          if (was_oom) goto oom;
          tfe_sb_puts(&what, "Trouble unescaping \"");
          tfe_sb_putn(&what, start + 1, (size_t)(c.p - start - 2));
          tfe_sb_puts(&what, "\", got error: invalid escape sequence");
          goto fail_msg;
        }
        if (!tfe_attr_value_set_string(&v, tfe_sb_str(&one), one.len)) {
          tfe_sb_free(&one);
          goto oom;
        }
        tfe_sb_free(&one);
        if (!valvec_push(&strs, &v)) {
          tfe_attr_value_clear(&v);
          goto oom;
        }
        skip_ws(&c);
        if (peek_is(&c, ',')) {
          c.p++;
          skip_ws(&c);
          if (peek_is(&c, '}')) {
            c.p++;
            break;
          }
          continue;
        }
        if (peek_is(&c, '}')) {
          c.p++;
          break;
        }
        tfe_sb_puts(&what, "Expected , or } after strings in list, not: '");
        rest_text(&c, &what);
        tfe_sb_putc(&what, '\'');
        goto fail_msg;
      }
    } else {
      a.type = TF_ATTR_TYPE;
      for (;;) {
        const char* tn;
        size_t tnl;
        const type_class* tc;
        TF_DataType dt;
        if (!take_ident(&c, is_lower_digit, is_lower_digit_us, &tn, &tnl)) {
          tfe_sb_puts(&what, "Trouble parsing type string at '");
          rest_text(&c, &what);
          tfe_sb_putc(&what, '\'');
          goto fail_msg;
        }
        skip_ws(&c);
        if ((tc = find_type_class(tn, tnl)) != NULL) {
          if (!typevec_push_class(&types, tc)) goto oom;
        } else if (grammar_dtype(tn, tnl, &dt)) {
          if (!typevec_push(&types, dt)) goto oom;
        } else {
          tfe_sb_puts(&what, "Unrecognized type string '");
          tfe_sb_putn(&what, tn, tnl);
          tfe_sb_putc(&what, '\'');
          goto fail_msg;
        }
        if (peek_is(&c, ',')) {
          c.p++;
          skip_ws(&c);
          if (peek_is(&c, '}')) {
            c.p++;
            break;
          }
          continue;
        }
        if (peek_is(&c, '}')) {
          c.p++;
          break;
        }
        tfe_sb_puts(&what, "Expected , or } after types in list, not: '");
        rest_text(&c, &what);
        tfe_sb_putc(&what, '\'');
        goto fail_msg;
      }
    }
  }
  if (!found) {
    tfe_sb_puts(&what, "Trouble parsing type string at '");
    rest_text(&c, &what);
    tfe_sb_putc(&what, '\'');
    goto fail_msg;
  }
  skip_ws(&c);

  if (a.is_list) {
    if (!peek_is(&c, ')')) {
      tfe_sb_puts(&what, "Expected ) to close 'list(', not: '");
      rest_text(&c, &what);
      tfe_sb_putc(&what, '\'');
      goto fail_msg;
    }
    c.p++;
    skip_ws(&c);
  }

  /* ">= <min>" for int and list attrs */
  if ((a.is_list || a.type == TF_ATTR_INT) && take_lit(&c, ">=")) {
    if (!take_min_number(&c, &a.minimum)) {
      tfe_sb_puts(&what, "Could not parse integer lower limit after '>=', found '");
      rest_text(&c, &what);
      tfe_sb_puts(&what, "' instead");
      goto fail_msg;
    }
    a.has_minimum = 1;
  }

  /* "= <default>" */
  if (peek_is(&c, '=')) {
    c.p++;
    skip_ws(&c);
    r = tfe_parse_attr_default(a.type, a.is_list, c.p, (size_t)(c.e - c.p),
                               &a.default_value);
    if (r < 0) goto oom;
    if (r == 0) {
      tfe_sb_puts(&what, "Could not parse default value '");
      rest_text(&c, &what);
      tfe_sb_putc(&what, '\'');
      goto fail_msg;
    }
    a.has_default = 1;
  } else if (!at_end(&c)) {
    tfe_sb_puts(&what, "Extra '");
    rest_text(&c, &what);
    tfe_sb_puts(&what, "' unparsed at the end");
    goto fail_msg;
  }

  /* Build the definition's parts. */
  a.name = tfe_strndup(nm, nml);
  if (a.name == NULL) goto oom;
  a.type_str = tfe_strdup(tfe_attr_kind_name(a.type, a.is_list));
  if (a.type_str == NULL) goto oom;
  if (a.has_allowed) {
    if (a.type == TF_ATTR_STRING) {
      r = pack_list(TF_ATTR_STRING, &strs, &a.allowed);
      if (r <= 0) goto oom;
    } else {
      if (!tfe_attr_value_set_type_list(&a.allowed, types.v, types.n)) goto oom;
    }
  }
  arr = (tfe_attr_def*)tfe_realloc(def->attrs, sizeof(tfe_attr_def) *
                                                   (size_t)(def->num_attrs + 1));
  if (arr == NULL) goto oom;
  def->attrs = arr;
  if (a.has_default) tfe_op_def_count_default_tensors(&a.default_value, 0);
  def->attrs[def->num_attrs++] = a;
  tfe_free(types.v);
  valvec_free(&strs);
  tfe_status_ok(s);
  return 1;

bad_name:
  tfe_sb_puts(&what, "Trouble parsing '<name>:'");
  goto fail_msg;
bad_allowed_string:
  tfe_sb_puts(&what, "Trouble parsing allowed string at '");
  rest_text(&c, &what);
  tfe_sb_putc(&what, '\'');
fail_msg:
  tfe_free(types.v);
  valvec_free(&strs);
  attr_def_clear(&a);
  return spec_error(s, def, "Attr", spec, &what);
oom:
  tfe_free(types.v);
  valvec_free(&strs);
  attr_def_clear(&a);
  tfe_sb_free(&what);
  return oom_error(s, def, "Attr");
}
