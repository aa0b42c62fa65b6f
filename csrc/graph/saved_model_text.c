/* saved_model.pbtxt: a SavedModel in protobuf text format, turned into the
 * binary wire format (core/pb.h writer) so that the rest of the loader
 * reads one format. The field names, numbers and kinds come from the
 * generated table saved_model_text_schema.h (every message reachable from
 * tensorflow.SavedModel).
 *
 * The text format read: `name: value`, `name { ... }` / `name < ... >`
 * (the colon optional before a message), `name: [v, v, ...]` lists,
 * separators `,` / `;`, `#` comments, strings in single or double quotes
 * with C escapes (\n \t \r \\ \' \" \? \a \b \f \v, octal, \x hex) and
 * adjacent strings concatenated, integers (decimal, 0x hex, 0 octal),
 * floats (also inf, -inf, nan and a trailing f), enums by name or number,
 * booleans (true/false, t/f, 1/0), and an Any written expanded as
 * `[type.googleapis.com/full.Name] { ... }`. A field the message does not
 * have, or anything else malformed, fails as TF's ReadTextProto does:
 * DATA_LOSS "Can't parse <path> as text proto", or OUT_OF_RANGE when the
 * failure comes at the end of the text (see failed_at_end). */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/pb.h"
#include "core/status_internal.h"
#include "graph/saved_model_internal.h"
#include "graph/saved_model_text_schema.h"

#define NUM_MSGS ((int)(sizeof(tfe_smt_msgs) / sizeof(tfe_smt_msgs[0])))
#define MAX_DEPTH 100

typedef struct lex {
  const char* p;
  const char* end;
  /* A string with a bad escape or a line break: TF's tokenizer reports
   * it and reads on, and the parse fails once the whole text is read. */
  int soft_error;
} lex;

static void skip_ws(lex* l) {
  while (l->p < l->end) {
    if (isspace((unsigned char)*l->p)) {
      l->p++;
    } else if (*l->p == '#') {
      while (l->p < l->end && *l->p != '\n') l->p++;
    } else {
      break;
    }
  }
}

static int at(lex* l, char c) {
  skip_ws(l);
  return l->p < l->end && *l->p == c;
}

static int eat(lex* l, char c) {
  if (!at(l, c)) return 0;
  l->p++;
  return 1;
}

/* An identifier or a number-like token: [A-Za-z0-9_.+-]+. */
static int word(lex* l, const char** s, size_t* n) {
  const char* b;
  skip_ws(l);
  b = l->p;
  while (l->p < l->end &&
         (isalnum((unsigned char)*l->p) || *l->p == '_' || *l->p == '.' ||
          *l->p == '+' || *l->p == '-')) {
    l->p++;
  }
  *s = b;
  *n = (size_t)(l->p - b);
  return *n > 0;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* One or more adjacent quoted strings, unescaped, appended to w. */
static int string_value(lex* l, tfe_pbw* w) {
  int any = 0;
  for (;;) {
    char q;
    skip_ws(l);
    if (l->p >= l->end || (*l->p != '"' && *l->p != '\'')) return any;
    q = *l->p++;
    while (l->p < l->end && *l->p != q) {
      unsigned char c = (unsigned char)*l->p++;
      if (c == '\n') { /* strings end at the line's end */
        l->soft_error = 1;
        l->p--;
        break;
      }
      if (c == '\\') {
        if (l->p >= l->end) return 0;
        c = (unsigned char)*l->p++;
        switch (c) {
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          case 'r': c = '\r'; break;
          case 'a': c = '\a'; break;
          case 'b': c = '\b'; break;
          case 'f': c = '\f'; break;
          case 'v': c = '\v'; break;
          case '\\': case '\'': case '"': case '?': break;
          case 'x': {
            int v = 0, k = 0, h;
            while (k < 2 && l->p < l->end && (h = hexval(*l->p)) >= 0) {
              v = v * 16 + h;
              l->p++;
              k++;
            }
            if (k == 0) l->soft_error = 1;
            c = (unsigned char)v;
            break;
          }
          default:
            if (c >= '0' && c <= '7') {
              int v = c - '0', k = 1;
              while (k < 3 && l->p < l->end && *l->p >= '0' && *l->p <= '7') {
                v = v * 8 + (*l->p++ - '0');
                k++;
              }
              if (v > 255) l->soft_error = 1;
              c = (unsigned char)v;
            } else {
              l->soft_error = 1;
            }
        }
      }
      tfe_pbw_bytes(w, &c, 1);
    }
    if (l->p >= l->end) return 0;
    if (*l->p == q) l->p++;
    any = 1;
  }
}

static int tok_is(const char* s, size_t n, const char* lit) {
  return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* A signed or unsigned integer token (decimal, 0x hex, leading-0 octal). */
static int int_token(lex* l, int is_unsigned, uint64_t* out) {
  const char* s;
  size_t n;
  char buf[72];
  char* e;
  if (!word(l, &s, &n) || n >= sizeof(buf)) return 0;
  memcpy(buf, s, n);
  buf[n] = '\0';
  errno = 0;
  if (is_unsigned) {
    if (buf[0] == '-') return 0;
    *out = strtoull(buf, &e, 0);
  } else {
    *out = (uint64_t)strtoll(buf, &e, 0);
  }
  return errno == 0 && *e == '\0';
}

static int float_token(lex* l, double* out) {
  const char* s;
  size_t n;
  char buf[72];
  char* e;
  if (!word(l, &s, &n) || n >= sizeof(buf)) return 0;
  memcpy(buf, s, n);
  buf[n] = '\0';
  if (n > 1 && (buf[n - 1] == 'f' || buf[n - 1] == 'F') &&
      !tok_is(s, n, "inf") && !tok_is(s, n, "-inf") &&
      (isdigit((unsigned char)buf[n - 2]) || buf[n - 2] == '.')) {
    buf[--n] = '\0';
  }
  *out = strtod(buf, &e);
  return *e == '\0';
}

static void put_fixed(tfe_pbw* w, int field, int wire, uint64_t v) {
  unsigned char b[8];
  int i, n = wire == 1 ? 8 : 4;
  for (i = 0; i < n; i++) b[i] = (unsigned char)(v >> (8 * i));
  tfe_pbw_tag(w, field, wire);
  tfe_pbw_bytes(w, b, (size_t)n);
}

/* One scalar of field f, written to w. */
static int scalar(lex* l, const tfe_smt_field* f, tfe_pbw* w) {
  uint64_t u;
  double d;
  switch (f->kind) {
    case 's': {
      tfe_pbw sub = {0};
      if (!string_value(l, &sub)) {
        tfe_pbw_free(&sub);
        return 0;
      }
      tfe_pbw_sub(w, f->num, &sub);
      return 1;
    }
    case 'i':
    case 'u':
      if (!int_token(l, f->kind == 'u', &u)) return 0;
      tfe_pbw_uint(w, f->num, u);
      return 1;
    case 'z': {
      int64_t v;
      if (!int_token(l, 0, &u)) return 0;
      v = (int64_t)u;
      tfe_pbw_uint(w, f->num, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
      return 1;
    }
    case '4':
    case '8':
      if (!int_token(l, 0, &u)) return 0;
      put_fixed(w, f->num, f->kind == '8' ? 1 : 5, u);
      return 1;
    case 'b': {
      const char* s;
      size_t n;
      if (!word(l, &s, &n)) return 0;
      if (tok_is(s, n, "true") || tok_is(s, n, "True") || tok_is(s, n, "t") ||
          tok_is(s, n, "1")) {
        tfe_pbw_uint(w, f->num, 1);
      } else if (tok_is(s, n, "false") || tok_is(s, n, "False") ||
                 tok_is(s, n, "f") || tok_is(s, n, "0")) {
        tfe_pbw_uint(w, f->num, 0);
      } else {
        return 0;
      }
      return 1;
    }
    case 'f':
      if (!float_token(l, &d)) return 0;
      tfe_pbw_float(w, f->num, (float)d);
      return 1;
    case 'd': {
      uint64_t bits;
      if (!float_token(l, &d)) return 0;
      memcpy(&bits, &d, 8);
      put_fixed(w, f->num, 1, bits);
      return 1;
    }
    case 'e': {
      const char* s;
      size_t n;
      int i;
      const tfe_smt_enum* e = &tfe_smt_enums[f->ref];
      const char* save = l->p;
      if (word(l, &s, &n) && (isalpha((unsigned char)s[0]) || s[0] == '_')) {
        for (i = 0; i < e->num_values; i++) {
          if (tok_is(s, n, e->values[i].name)) {
            tfe_pbw_uint(w, f->num, (uint64_t)(int64_t)e->values[i].value);
            return 1;
          }
        }
        return 0;
      }
      l->p = save;
      if (!int_token(l, 0, &u)) return 0;
      tfe_pbw_uint(w, f->num, u);
      return 1;
    }
    default:
      return 0;
  }
}

static int message(lex* l, int msg, tfe_pbw* w, char close, int depth);

static int find_msg(const char* name, size_t n) {
  int i;
  for (i = 0; i < NUM_MSGS; i++) {
    if (tok_is(name, n, tfe_smt_msgs[i].name)) return i;
  }
  return -1;
}

/* A nested message value: '{' ... '}' or '<' ... '>', written as field
 * `num` of w. */
static int nested(lex* l, int msg, int num, tfe_pbw* w, int depth) {
  tfe_pbw sub = {0};
  char close;
  if (eat(l, '{')) {
    close = '}';
  } else if (eat(l, '<')) {
    close = '>';
  } else {
    return 0;
  }
  if (!message(l, msg, &sub, close, depth + 1)) {
    tfe_pbw_free(&sub);
    return 0;
  }
  tfe_pbw_sub(w, num, &sub);
  return 1;
}

/* `[type.googleapis.com/full.Name] { ... }` inside an Any. */
static int expanded_any(lex* l, tfe_pbw* w, int depth) {
  const char* url = l->p;
  const char* slash = NULL;
  size_t n;
  int m;
  tfe_pbw sub = {0};
  char close;
  while (l->p < l->end && *l->p != ']') {
    if (*l->p == '/') slash = l->p;
    l->p++;
  }
  if (l->p >= l->end || slash == NULL) return 0;
  n = (size_t)(l->p - url);
  l->p++;
  m = find_msg(slash + 1, (size_t)(url + n - slash - 1));
  if (m < 0) return 0;
  (void)eat(l, ':');
  if (eat(l, '{')) {
    close = '}';
  } else if (eat(l, '<')) {
    close = '>';
  } else {
    return 0;
  }
  if (!message(l, m, &sub, close, depth + 1)) {
    tfe_pbw_free(&sub);
    return 0;
  }
  tfe_pbw_lenfield(w, 1, url, n);
  tfe_pbw_sub(w, 2, &sub);
  return 1;
}

/* The fields of message `msg` up to `close` (0: the end of the text). */
static int message(lex* l, int msg, tfe_pbw* w, char close, int depth) {
  const tfe_smt_msg* m = &tfe_smt_msgs[msg];
  if (depth > MAX_DEPTH) return 0;
  for (;;) {
    const char* name;
    size_t n;
    const tfe_smt_field* f = NULL;
    int i;
    skip_ws(l);
    if (l->p >= l->end) return close == 0;
    if (close != 0 && *l->p == close) {
      l->p++;
      return 1;
    }
    if (*l->p == '[') {
      l->p++;
      if (strcmp(m->name, "google.protobuf.Any") != 0 ||
          !expanded_any(l, w, depth)) {
        return 0;
      }
    } else {
      if (!word(l, &name, &n)) return 0;
      for (i = 0; i < m->num_fields; i++) {
        if (tok_is(name, n, m->fields[i].name)) f = &m->fields[i];
      }
      if (f == NULL) return 0;
      if (f->kind == 'm') {
        (void)eat(l, ':');
        if (eat(l, '[')) {
          if (!eat(l, ']')) {
            do {
              if (!nested(l, f->ref, f->num, w, depth)) return 0;
            } while (eat(l, ','));
            if (!eat(l, ']')) return 0;
          }
        } else if (!nested(l, f->ref, f->num, w, depth)) {
          return 0;
        }
      } else {
        if (!eat(l, ':')) return 0;
        if (eat(l, '[')) {
          if (!eat(l, ']')) {
            do {
              if (!scalar(l, f, w)) return 0;
            } while (eat(l, ','));
            if (!eat(l, ']')) return 0;
          }
        } else if (!scalar(l, f, w)) {
          return 0;
        }
      }
    }
    if (!eat(l, ';')) (void)eat(l, ',');
  }
}

/* TF reads the text through a stream and its tokenizer looks one
 * character past the current token: a failure on a token that ends the
 * text (or after the whole text was read) comes with the stream's
 * end-of-file status, OUT_OF_RANGE "Read less bytes than requested";
 * other failures are DATA_LOSS. */
static int failed_at_end(lex* l) {
  const char* q = l->p;
  if (q >= l->end) return 1;
  /* Right after the failing token: the character looked at is there. */
  if (isspace((unsigned char)*q) || *q == '#') return 0;
  if (isalnum((unsigned char)*q) || *q == '_' || *q == '.' || *q == '+' ||
      *q == '-') {
    while (q < l->end && (isalnum((unsigned char)*q) || *q == '_' ||
                          *q == '.' || *q == '+' || *q == '-')) {
      q++;
    }
  } else if (*q == '"' || *q == '\'') {
    char quote = *q++;
    while (q < l->end && *q != quote && *q != '\n') q += *q == '\\' ? 2 : 1;
    if (q < l->end) q++;
  } else {
    q++;
  }
  return q >= l->end;
}

unsigned char* tfe_sm_text_to_binary(const char* text, size_t len,
                                     const char* path, size_t* out_len,
                                     TF_Status* s) {
  lex l;
  tfe_pbw w = {0};
  int root = find_msg("tensorflow.SavedModel", 21);
  int ok;
  l.p = text;
  l.end = text + len;
  l.soft_error = 0;
  ok = root >= 0 && message(&l, root, &w, 0, 0);
  if (!ok || l.soft_error) {
    tfe_pbw_free(&w);
    if (ok || failed_at_end(&l)) {
      tfe_status_setf(s, TF_OUT_OF_RANGE, "Read less bytes than requested");
    } else {
      tfe_status_setf(s, TF_DATA_LOSS, "Can't parse %s as text proto", path);
    }
    return NULL;
  }
  if (w.oom) {
    tfe_pbw_free(&w);
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "TF_LoadSessionFromSavedModel: out of memory");
    return NULL;
  }
  *out_len = w.len;
  if (w.data == NULL) {
    w.data = (unsigned char*)tfe_malloc(1);
    if (w.data == NULL) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "TF_LoadSessionFromSavedModel: out of memory");
      return NULL;
    }
  }
  tfe_status_ok(s);
  return w.data;
}
