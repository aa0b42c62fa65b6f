/* tfe's regular-expression engine: RE2's syntax, a Pike VM for matching.
 *
 * Pipeline: the parser turns the pattern into a tree of nodes (literals,
 * character classes as sorted code-point ranges, assertions, concatenation,
 * alternation, repetition, captures); the compiler turns the tree into a
 * program of a few instruction kinds; the VM runs the program over the
 * text one code point at a time, keeping at most one thread per
 * instruction, so time is linear in the text for a given program.
 *
 * Text decoding follows what RE2's byte automata accept: valid UTF-8 is
 * decoded to code points; a byte that starts no sequence RE2 would accept
 * is one "bad" unit that nothing matches; the loosely formed 3- and 4-byte
 * sequences RE2's "any character above U+007F" automaton still accepts
 * (overlong E0/F0 forms, F4 forms past U+10FFFF) are one "loose" unit
 * that only classes spanning all of U+0080..U+10FFFF (".", "[^a]", "\D",
 * ...) match. Encoded surrogates decode to their value (RE2's automata
 * for a range that spans U+D800..U+DFFF accept them). */
#include "core/regex.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

typedef struct rx_uni_table {
  const char* name;
  int off;
  int n;
} rx_uni_table;

#include "core/regex_unicode.inc"

#define RX_MAX_CP 0x10FFFF
#define RX_BAD 0x110000   /* a byte no RE2 automaton accepts */
#define RX_LOOSE 0x110001 /* a loosely formed multi-byte sequence */
#define RX_END (-1)       /* past the end of the text */

/* RE2's limits: repetition counts up to 1000, and a program budget that
 * its default 8 MB memory gives (about 87,000 byte instructions). tfe's
 * instructions work on code points, so a class is charged what RE2's
 * UTF-8 automaton for it would roughly cost. */
#define RX_MAX_REPEAT 1000
#define RX_MAX_COST 87000
/* Nesting of groups the recursive parser accepts. */
#define RX_MAX_DEPTH 1000

/* ------------------------------------------------------------------ */
/* UTF-8 */

static int rx_cont(unsigned char b) { return (b & 0xC0) == 0x80; }

/* Decodes one unit of text at s[0..n) (n >= 1); *len gets its size. */
static int32_t rx_decode(const unsigned char* s, size_t n, int* len) {
  unsigned char b = s[0];
  if (b < 0x80) {
    *len = 1;
    return b;
  }
  if (b >= 0xC2 && b <= 0xDF) {
    if (n >= 2 && rx_cont(s[1])) {
      *len = 2;
      return ((b & 0x1F) << 6) | (s[1] & 0x3F);
    }
  } else if (b >= 0xE0 && b <= 0xEF) {
    if (n >= 3 && rx_cont(s[1]) && rx_cont(s[2])) {
      int32_t cp = ((b & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F);
      *len = 3;
      /* Surrogates keep their value: RE2's automata for ranges that
       * span them accept their 3-byte forms. */
      if (cp < 0x800) return RX_LOOSE;
      return cp;
    }
  } else if (b >= 0xF0 && b <= 0xF4) {
    if (n >= 4 && rx_cont(s[1]) && rx_cont(s[2]) && rx_cont(s[3])) {
      int32_t cp = ((b & 0x07) << 18) | ((s[1] & 0x3F) << 12) |
                   ((s[2] & 0x3F) << 6) | (s[3] & 0x3F);
      *len = 4;
      if (cp < 0x10000 || cp > RX_MAX_CP) return RX_LOOSE;
      return cp;
    }
  }
  *len = 1;
  return RX_BAD;
}

static int rx_utf8_len(uint32_t cp) {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* ------------------------------------------------------------------ */
/* Character classes: sorted, disjoint, non-adjacent ranges. */

typedef struct rx_range {
  uint32_t lo, hi;
} rx_range;

typedef struct rx_cset {
  rx_range* r;
  int n, cap;
  int oom;
} rx_cset;

static void cs_free(rx_cset* c) {
  tfe_free(c->r);
  c->r = NULL;
  c->n = c->cap = 0;
}

static void cs_add(rx_cset* c, uint32_t lo, uint32_t hi) {
  if (lo > hi) return;
  if (c->n == c->cap) {
    int nc = c->cap ? c->cap * 2 : 8;
    rx_range* nr = (rx_range*)tfe_realloc(c->r, (size_t)nc * sizeof(rx_range));
    if (nr == NULL) {
      c->oom = 1;
      return;
    }
    c->r = nr;
    c->cap = nc;
  }
  c->r[c->n].lo = lo;
  c->r[c->n].hi = hi;
  c->n++;
}

static int cs_cmp(const void* a, const void* b) {
  const rx_range* x = (const rx_range*)a;
  const rx_range* y = (const rx_range*)b;
  return x->lo < y->lo ? -1 : x->lo > y->lo ? 1 : 0;
}

static void cs_norm(rx_cset* c) {
  int i, w = 0;
  if (c->n <= 1) return;
  qsort(c->r, (size_t)c->n, sizeof(rx_range), cs_cmp);
  for (i = 1; i < c->n; i++) {
    if (c->r[i].lo <= c->r[w].hi + 1) {
      if (c->r[i].hi > c->r[w].hi) c->r[w].hi = c->r[i].hi;
    } else {
      c->r[++w] = c->r[i];
    }
  }
  c->n = w + 1;
}

static int cs_has(const rx_range* r, int n, uint32_t cp) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (cp < r[mid].lo) {
      hi = mid - 1;
    } else if (cp > r[mid].hi) {
      lo = mid + 1;
    } else {
      return 1;
    }
  }
  return 0;
}

/* In place: the complement within 0..U+10FFFF (c normalized). */
static void cs_negate(rx_cset* c) {
  rx_cset o = {NULL, 0, 0, 0};
  uint32_t next = 0;
  int i;
  for (i = 0; i < c->n; i++) {
    if (c->r[i].lo > next) cs_add(&o, next, c->r[i].lo - 1);
    next = c->r[i].hi + 1;
  }
  if (next <= RX_MAX_CP) cs_add(&o, next, RX_MAX_CP);
  if (o.oom) c->oom = 1;
  cs_free(c);
  c->r = o.r;
  c->n = o.n;
  c->cap = o.cap;
}

/* Adds every simple case-folding partner of the members (c normalized). */
static void cs_fold(rx_cset* c) {
  size_t nf = sizeof rx_uni_fold / sizeof rx_uni_fold[0], i;
  int n0 = c->n;
  rx_range* snap;
  if (n0 == 0) return;
  snap = (rx_range*)tfe_malloc((size_t)n0 * sizeof(rx_range));
  if (snap == NULL) {
    c->oom = 1;
    return;
  }
  memcpy(snap, c->r, (size_t)n0 * sizeof(rx_range));
  for (i = 0; i < nf; i++) {
    uint32_t cp = rx_uni_fold[i][0], o;
    if (!cs_has(snap, n0, cp)) continue;
    /* Walk the orbit (a cycle) from cp. */
    for (o = rx_uni_fold[i][1]; o != cp;) {
      size_t lo = 0, hi = nf;
      cs_add(c, o, o);
      while (lo < hi) { /* find o's entry to continue the cycle */
        size_t mid = (lo + hi) / 2;
        if (rx_uni_fold[mid][0] < o) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      if (lo >= nf || rx_uni_fold[lo][0] != o) break;
      o = rx_uni_fold[lo][1];
    }
  }
  tfe_free(snap);
  cs_norm(c);
}

/* A Unicode table by name, or NULL. */
static const rx_uni_table* rx_uni_find(const char* name, size_t len) {
  int lo = 0, hi = (int)(sizeof rx_uni_tables / sizeof rx_uni_tables[0]) - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    const char* t = rx_uni_tables[mid].name;
    size_t tl = strlen(t);
    /* Byte order, then length (the name may hold any byte, NUL too). */
    int c = memcmp(t, name, tl < len ? tl : len);
    if (c == 0) c = tl < len ? -1 : tl > len ? 1 : 0;
    if (c == 0) return &rx_uni_tables[mid];
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Program */

enum {
  I_CHAR,   /* c: one code point */
  I_CLASS,  /* c: class index */
  I_ANY,    /* any unit but a bad byte */
  I_ANYNL,  /* any unit but a bad byte and \n */
  I_SPLIT,  /* x preferred, then y */
  I_JMP,    /* x */
  I_SAVE,   /* c: capture slot */
  I_ASSERT, /* c: assertion bits, all must hold */
  I_MATCH,
  I_FAIL,
  I_NOP
};

enum {
  A_BEGIN_LINE = 1,
  A_END_LINE = 2,
  A_BEGIN_TEXT = 4,
  A_END_TEXT = 8,
  A_WORD_B = 16,
  A_NOT_WORD_B = 32
};

typedef struct rx_inst {
  int op;
  int x, y;
  uint32_t c;
} rx_inst;

typedef struct rx_class {
  rx_range* r;
  int n;
  int loose;          /* matches RX_LOOSE units */
  uint64_t ascii[2];  /* membership of U+0000..U+007F, one bit each */
} rx_class;

typedef struct rx_name {
  char* name;
  int index;
} rx_name;

struct tfe_regex {
  rx_inst* inst;
  int ninst;
  rx_class* cls;
  int ncls;
  int ngroups;
  rx_name* names;
  int nnames;
  /* Bytes a match can start with (when has_first): a search with no live
   * thread skips ahead to the next such byte. */
  int has_first;
  unsigned char first[256];
};

/* ------------------------------------------------------------------ */
/* Parse tree */

enum {
  N_EMPTY,
  N_LIT,
  N_CLASS, /* cls: index into the parser's class list */
  N_ANY,
  N_ANYNL,
  N_ASSERT,
  N_CAT,
  N_ALT,
  N_STAR,
  N_PLUS,
  N_QUEST,
  N_REPEAT,
  N_CAP
};

typedef struct rx_node {
  int op;
  int first, next; /* children list (CAT/ALT), sibling link */
  int sub;         /* STAR/PLUS/QUEST/REPEAT/CAP */
  uint32_t c;      /* LIT rune, ASSERT bits, CLASS index */
  int min, max;    /* REPEAT (max -1: unbounded) */
  int greedy;
  int cap;
} rx_node;

enum { F_I = 1, F_M = 2, F_S = 4, F_U = 8 };

typedef struct rx_parser {
  const unsigned char* p;
  const unsigned char* end;
  const unsigned char* start;
  rx_node* nodes;
  int nn, ncap_nodes;
  rx_cset* sets;
  int nsets, capsets;
  int ngroups;
  rx_name* names;
  int nnames, capnames;
  tfe_regex_err code;
  char* err;
  size_t errcap;
  int depth;
} rx_parser;

static int px_fail(rx_parser* ps, tfe_regex_err code, const char* what,
                   const unsigned char* a, size_t alen) {
  if (ps->code != TFE_REGEX_OK) return -1;
  ps->code = code;
  if (ps->err != NULL && ps->errcap > 0) {
    if (a != NULL) {
      snprintf(ps->err, ps->errcap, "%s: %.*s", what, (int)alen,
               (const char*)a);
    } else {
      snprintf(ps->err, ps->errcap, "%s", what);
    }
  }
  return -1;
}

static int px_oom(rx_parser* ps) {
  return px_fail(ps, TFE_REGEX_ERR_NOMEM, "out of memory", NULL, 0);
}

static int px_node(rx_parser* ps, int op) {
  rx_node* n;
  if (ps->nn == ps->ncap_nodes) {
    int nc = ps->ncap_nodes ? ps->ncap_nodes * 2 : 64;
    rx_node* nd = (rx_node*)tfe_realloc(ps->nodes, (size_t)nc * sizeof(rx_node));
    if (nd == NULL) return px_oom(ps);
    ps->nodes = nd;
    ps->ncap_nodes = nc;
  }
  n = &ps->nodes[ps->nn];
  memset(n, 0, sizeof *n);
  n->op = op;
  n->first = n->next = n->sub = -1;
  n->greedy = 1;
  return ps->nn++;
}

/* Takes ownership of *c's ranges; returns a CLASS node (or -1). */
static int px_class_node(rx_parser* ps, rx_cset* c) {
  int id;
  if (c->oom) {
    cs_free(c);
    return px_oom(ps);
  }
  if (ps->nsets == ps->capsets) {
    int nc = ps->capsets ? ps->capsets * 2 : 8;
    rx_cset* ns = (rx_cset*)tfe_realloc(ps->sets, (size_t)nc * sizeof(rx_cset));
    if (ns == NULL) {
      cs_free(c);
      return px_oom(ps);
    }
    ps->sets = ns;
    ps->capsets = nc;
  }
  id = px_node(ps, N_CLASS);
  if (id < 0) {
    cs_free(c);
    return -1;
  }
  ps->sets[ps->nsets] = *c;
  ps->nodes[id].c = (uint32_t)ps->nsets++;
  memset(c, 0, sizeof *c);
  return id;
}

/* Literal node honouring case folding. */
static int px_literal(rx_parser* ps, uint32_t cp, int flags) {
  int id;
  if (flags & F_I) {
    rx_cset c = {NULL, 0, 0, 0};
    cs_add(&c, cp, cp);
    cs_fold(&c);
    if (c.oom) {
      cs_free(&c);
      return px_oom(ps);
    }
    if (c.n > 1 || c.r[0].lo != c.r[0].hi) return px_class_node(ps, &c);
    cs_free(&c);
  }
  id = px_node(ps, N_LIT);
  if (id >= 0) ps->nodes[id].c = cp;
  return id;
}

/* Decodes one pattern character strictly; -1 (error set) when invalid. */
static int32_t px_char(rx_parser* ps, const unsigned char** pp) {
  int len;
  int32_t cp = rx_decode(*pp, (size_t)(ps->end - *pp), &len);
  if (cp == RX_BAD || cp == RX_LOOSE) {
    px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid UTF-8", NULL, 0);
    return -1;
  }
  *pp += len;
  return cp;
}

static int px_hex(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int px_isalnum(int c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z');
}

/* Fails with "invalid escape sequence: <text from b to the character
 * after p>" (the whole character). */
static int px_bad_escape(rx_parser* ps, const unsigned char* b,
                         const unsigned char* p) {
  const unsigned char* e = p;
  if (e < ps->end) {
    int len;
    rx_decode(e, (size_t)(ps->end - e), &len);
    e += len;
  }
  return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid escape sequence", b,
                 (size_t)(e - b));
}

/* A single-character escape (after the backslash at b, with *pp at the
 * character after it). Returns the code point, or -1 (error set), or -2
 * when the escape is not a single character (left for the caller). */
static int32_t px_escape_char(rx_parser* ps, const unsigned char* b,
                              const unsigned char** pp) {
  const unsigned char* p = *pp;
  int c;
  if (p >= ps->end) {
    px_fail(ps, TFE_REGEX_ERR_SYNTAX, "trailing \\", NULL, 0);
    return -1;
  }
  c = *p;
  if (c >= '1' && c <= '7') {
    /* A lone digit would be a backreference, which RE2 lacks. */
    if (p + 1 >= ps->end || p[1] < '0' || p[1] > '7') {
      px_bad_escape(ps, b, p);
      return -1;
    }
  }
  if (c >= '0' && c <= '7') {
    int32_t v = c - '0';
    p++;
    if (p < ps->end && *p >= '0' && *p <= '7') {
      v = v * 8 + (*p++ - '0');
      if (p < ps->end && *p >= '0' && *p <= '7') v = v * 8 + (*p++ - '0');
    }
    *pp = p;
    return v;
  }
  if (c == 'x') {
    int32_t v = 0;
    int h1, h2, nd = 0;
    p++;
    if (p >= ps->end) {
      px_bad_escape(ps, b, p);
      return -1;
    }
    if (*p == '{') {
      p++;
      for (;;) {
        int h;
        if (p >= ps->end) {
          px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid UTF-8", NULL, 0);
          return -1;
        }
        if (*p == '}') break;
        h = px_hex(*p);
        if (h < 0 || v > RX_MAX_CP) {
          px_bad_escape(ps, b, p);
          return -1;
        }
        v = v * 16 + h;
        nd++;
        p++;
      }
      if (nd == 0 || v > RX_MAX_CP) {
        px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid escape sequence", b,
                (size_t)(p - b));
        return -1;
      }
      *pp = p + 1;
      return v;
    }
    h1 = px_hex(*p);
    if (h1 < 0) {
      px_bad_escape(ps, b, p);
      return -1;
    }
    if (p + 1 >= ps->end) {
      px_bad_escape(ps, b, p + 1);
      return -1;
    }
    h2 = px_hex(p[1]);
    if (h2 < 0) {
      px_bad_escape(ps, b, p + 1);
      return -1;
    }
    *pp = p + 2;
    return h1 * 16 + h2;
  }
  switch (c) {
    case 'a': *pp = p + 1; return 7;
    case 'f': *pp = p + 1; return 12;
    case 'n': *pp = p + 1; return 10;
    case 'r': *pp = p + 1; return 13;
    case 't': *pp = p + 1; return 9;
    case 'v': *pp = p + 1; return 11;
    default: break;
  }
  if (c < 0x80 && !px_isalnum(c)) {
    *pp = p + 1;
    return c;
  }
  return -2;
}

/* Adds an ASCII class given as "lo hi lo hi ..." pairs. */
static void cs_add_pairs(rx_cset* c, const char* pairs) {
  for (; pairs[0] && pairs[1]; pairs += 2) {
    cs_add(c, (unsigned char)pairs[0], (unsigned char)pairs[1]);
  }
}

/* Adds one component (ranges in comp) to the class under construction:
 * folded first when case-insensitive, then negated when neg. */
static void cs_merge_component(rx_cset* dst, rx_cset* comp, int fold, int neg) {
  int i;
  cs_norm(comp);
  if (fold) cs_fold(comp);
  if (neg) cs_negate(comp);
  for (i = 0; i < comp->n; i++) cs_add(dst, comp->r[i].lo, comp->r[i].hi);
  if (comp->oom) dst->oom = 1;
  cs_free(comp);
}

/* Perl class letter (d s w D S W) into dst; 0 when c is none. */
static int px_perl_class(int c, rx_cset* dst, int fold) {
  rx_cset comp = {NULL, 0, 0, 0};
  int neg = (c == 'D' || c == 'S' || c == 'W');
  switch (c) {
    case 'd': case 'D': cs_add_pairs(&comp, "09"); break;
    case 's': case 'S': cs_add_pairs(&comp, "\t\n\f\r  "); break;
    case 'w': case 'W': cs_add_pairs(&comp, "09AZaz__"); break;
    default: return 0;
  }
  cs_merge_component(dst, &comp, fold, neg);
  return 1;
}

/* \p / \P after the backslash at b; *pp at the 'p'/'P'. */
static int px_unicode_class(rx_parser* ps, const unsigned char* b,
                            const unsigned char** pp, rx_cset* dst, int fold) {
  const unsigned char* p = *pp;
  int neg = (*p == 'P');
  const unsigned char *name, *name_end, *after;
  rx_cset comp = {NULL, 0, 0, 0};
  const rx_uni_table* t;
  p++;
  if (p >= ps->end) {
    return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid character class range",
                   b, (size_t)(p - b));
  }
  if (*p == '{') {
    const unsigned char* q = p + 1;
    while (q < ps->end && *q != '}') q++;
    if (q >= ps->end) {
      return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid character class range",
                     b, (size_t)(ps->end - b));
    }
    name = p + 1;
    name_end = q;
    after = q + 1;
  } else {
    int len;
    int32_t cp = rx_decode(p, (size_t)(ps->end - p), &len);
    if (cp == RX_BAD || cp == RX_LOOSE) {
      return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid UTF-8", NULL, 0);
    }
    name = p;
    name_end = p + len;
    after = name_end;
  }
  if (name < name_end && *name == '^') {
    neg = !neg;
    name++;
  }
  if ((size_t)(name_end - name) == 3 && memcmp(name, "Any", 3) == 0) {
    cs_add(&comp, 0, RX_MAX_CP);
  } else {
    int i;
    t = rx_uni_find((const char*)name, (size_t)(name_end - name));
    if (t == NULL) {
      return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid character class range",
                     b, (size_t)(after - b));
    }
    for (i = 0; i < t->n; i++) {
      cs_add(&comp, rx_uni_ranges[2 * (t->off + i)],
             rx_uni_ranges[2 * (t->off + i) + 1]);
    }
  }
  cs_merge_component(dst, &comp, fold, neg);
  *pp = after;
  return 0;
}

static const struct {
  const char* name;
  const char* pairs;
} kPosix[] = {
    {"alnum", "09AZaz"},      {"alpha", "AZaz"},
    {"ascii", "\x01\x7f"},    {"blank", "\t\t  "},
    {"cntrl", "\x01\x1f\x7f\x7f"}, {"digit", "09"},
    {"graph", "!~"},          {"lower", "az"},
    {"print", " ~"},          {"punct", "!/:@[`{~"},
    {"space", "\t\r  "},      {"upper", "AZ"},
    {"word", "09AZaz__"},     {"xdigit", "09AFaf"},
};

/* [:name:] or [:^name:] at *pp (which points at '['); 1 when parsed, 0
 * when the text is not a POSIX class, -1 on error. */
static int px_posix(rx_parser* ps, const unsigned char** pp, rx_cset* dst,
                    int fold) {
  const unsigned char* p = *pp;
  const unsigned char* q;
  const unsigned char* name;
  int neg = 0;
  size_t i, len;
  if (ps->end - p < 2 || p[1] != ':') return 0;
  for (q = p + 2; q + 1 < ps->end; q++) {
    if (q[0] == ':' && q[1] == ']') break;
  }
  if (q + 1 >= ps->end) return 0;
  name = p + 2;
  if (name < q && *name == '^') {
    neg = 1;
    name++;
  }
  len = (size_t)(q - name);
  for (i = 0; i < sizeof kPosix / sizeof kPosix[0]; i++) {
    if (strlen(kPosix[i].name) == len && memcmp(kPosix[i].name, name, len) == 0) {
      rx_cset comp = {NULL, 0, 0, 0};
      cs_add_pairs(&comp, kPosix[i].pairs);
      /* ascii and cntrl start at NUL, which a C string cannot hold. */
      if (strcmp(kPosix[i].name, "ascii") == 0 ||
          strcmp(kPosix[i].name, "cntrl") == 0) {
        cs_add(&comp, 0, 0);
      }
      cs_merge_component(dst, &comp, fold, neg);
      *pp = q + 2;
      return 1;
    }
  }
  px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid character class range", p,
          (size_t)(q + 2 - p));
  return -1;
}

/* One class member that may be a range end: a literal or single-char
 * escape. Returns the code point or -1 (error set). */
static int32_t px_class_char(rx_parser* ps, const unsigned char** pp) {
  const unsigned char* p = *pp;
  if (*p == '\\') {
    const unsigned char* q = p + 1;
    int32_t v = px_escape_char(ps, p, &q);
    if (v == -2) {
      px_bad_escape(ps, p, p + 1);
      return -1;
    }
    if (v >= 0) *pp = q;
    return v;
  }
  return px_char(ps, pp);
}

/* Character class at *pp == '['. */
static int px_class(rx_parser* ps, int flags) {
  const unsigned char* b = ps->p;
  const unsigned char* p = b + 1;
  rx_cset set = {NULL, 0, 0, 0};
  int neg = 0, first = 1, fold = (flags & F_I) != 0;
  if (p < ps->end && *p == '^') {
    neg = 1;
    p++;
  }
  for (;;) {
    if (p >= ps->end) {
      cs_free(&set);
      return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "missing ]", b,
                     (size_t)(ps->end - b));
    }
    if (*p == ']' && !first) break;
    first = 0;
    if (*p == '[') {
      int r = px_posix(ps, &p, &set, fold);
      if (r < 0) {
        cs_free(&set);
        return -1;
      }
      if (r > 0) continue;
    }
    if (*p == '\\' && p + 1 < ps->end &&
        (p[1] == 'd' || p[1] == 's' || p[1] == 'w' || p[1] == 'D' ||
         p[1] == 'S' || p[1] == 'W')) {
      px_perl_class(p[1], &set, fold);
      p += 2;
      continue;
    }
    if (*p == '\\' && p + 1 < ps->end && (p[1] == 'p' || p[1] == 'P')) {
      const unsigned char* q = p + 1;
      if (px_unicode_class(ps, p, &q, &set, fold) < 0) {
        cs_free(&set);
        return -1;
      }
      p = q;
      continue;
    }
    {
      const unsigned char* rb = p;
      int32_t lo = px_class_char(ps, &p), hi;
      if (lo < 0) {
        cs_free(&set);
        return -1;
      }
      hi = lo;
      if (p + 1 < ps->end && *p == '-' && p[1] != ']') {
        p++;
        hi = px_class_char(ps, &p);
        if (hi < 0) {
          cs_free(&set);
          return -1;
        }
        if (hi < lo) {
          cs_free(&set);
          return px_fail(ps, TFE_REGEX_ERR_SYNTAX,
                         "invalid character class range", rb,
                         (size_t)(p - rb));
        }
      }
      {
        rx_cset comp = {NULL, 0, 0, 0};
        cs_add(&comp, (uint32_t)lo, (uint32_t)hi);
        cs_merge_component(&set, &comp, fold, 0);
      }
    }
  }
  ps->p = p + 1;
  cs_norm(&set);
  if (neg) cs_negate(&set);
  return px_class_node(ps, &set);
}

static int px_alt(rx_parser* ps, int* flags);

static int px_isword(int c) { return px_isalnum(c) || c == '_'; }

/* A group at ps->p == '('. */
static int px_group(rx_parser* ps, int* flags) {
  const unsigned char* b = ps->p;
  const unsigned char* p = b + 1;
  int inner_flags = *flags, sub, id, cap = -1;
  if (p < ps->end && *p == '?') {
    p++;
    if (p < ps->end && *p == 'P') {
      const unsigned char* q;
      if (p + 1 >= ps->end || p[1] != '<') {
        return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid perl operator", b,
                       (size_t)(p + 1 - b));
      }
      for (q = p + 2; q < ps->end && *q != '>'; q++) {
      }
      if (q >= ps->end) {
        return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid named capture group",
                       b, (size_t)(ps->end - b));
      }
      {
        const unsigned char* n;
        if (q == p + 2) {
          return px_fail(ps, TFE_REGEX_ERR_SYNTAX,
                         "invalid named capture group", b, (size_t)(q + 1 - b));
        }
        for (n = p + 2; n < q; n++) {
          if (!px_isword(*n)) {
            return px_fail(ps, TFE_REGEX_ERR_SYNTAX,
                           "invalid named capture group", b,
                           (size_t)(q + 1 - b));
          }
        }
      }
      cap = ++ps->ngroups;
      if (ps->nnames == ps->capnames) {
        int nc = ps->capnames ? ps->capnames * 2 : 4;
        rx_name* nn = (rx_name*)tfe_realloc(ps->names, (size_t)nc * sizeof(rx_name));
        if (nn == NULL) return px_oom(ps);
        ps->names = nn;
        ps->capnames = nc;
      }
      {
        size_t len = (size_t)(q - (p + 2));
        char* nm = (char*)tfe_malloc(len + 1);
        if (nm == NULL) return px_oom(ps);
        memcpy(nm, p + 2, len);
        nm[len] = '\0';
        ps->names[ps->nnames].name = nm;
        ps->names[ps->nnames].index = cap;
        ps->nnames++;
      }
      p = q + 1;
    } else {
      /* Flags: (?flags) or (?flags:re). */
      int neg = 0, seen_neg = 0, any = 0, nf = *flags;
      for (;;) {
        int c;
        if (p >= ps->end) {
          return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid perl operator", b,
                         (size_t)(ps->end - b));
        }
        c = *p++;
        if (c == 'i' || c == 'm' || c == 's' || c == 'U') {
          int bit = c == 'i' ? F_I : c == 'm' ? F_M : c == 's' ? F_S : F_U;
          if (neg) {
            nf &= ~bit;
          } else {
            nf |= bit;
          }
          any = 1;
          if (neg) seen_neg = 1;
          continue;
        }
        if (c == '-' && !neg) {
          neg = 1;
          seen_neg = 0;
          continue;
        }
        if ((c == ')' || c == ':') && !(neg && !seen_neg)) {
          (void)any;
          if (c == ')') {
            int e;
            *flags = nf;
            ps->p = p;
            e = px_node(ps, N_EMPTY);
            if (e >= 0) ps->nodes[e].c = 1; /* no atom: nothing to repeat */
            return e;
          }
          inner_flags = nf;
          break;
        }
        {
          int len;
          const unsigned char* e = p - 1;
          rx_decode(e, (size_t)(ps->end - e), &len);
          return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid perl operator", b,
                         (size_t)(e + len - b));
        }
      }
    }
  } else {
    cap = ++ps->ngroups;
  }
  ps->p = p;
  if (++ps->depth > RX_MAX_DEPTH) {
    return px_fail(ps, TFE_REGEX_ERR_UNSUPPORTED,
                   "groups nested more than 1000 deep are not supported by "
                   "tfe's regex engine", NULL, 0);
  }
  sub = px_alt(ps, &inner_flags);
  ps->depth--;
  if (sub < 0) return -1;
  if (ps->p >= ps->end || *ps->p != ')') {
    return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "missing )", ps->start,
                   (size_t)(ps->end - ps->start));
  }
  ps->p++;
  if (cap < 0) return sub;
  id = px_node(ps, N_CAP);
  if (id < 0) return -1;
  ps->nodes[id].sub = sub;
  ps->nodes[id].cap = cap;
  return id;
}

static int px_assert(rx_parser* ps, uint32_t bits) {
  int id = px_node(ps, N_ASSERT);
  if (id >= 0) ps->nodes[id].c = bits;
  return id;
}

/* An atom at ps->p; -3 when none starts here (| ) or end). Escapes that
 * expand to several literals (\Q...\E) come back as a CAT node. */
static int px_atom(rx_parser* ps, int* flags) {
  const unsigned char* p = ps->p;
  int c = *p;
  switch (c) {
    case '(':
      return px_group(ps, flags);
    case '[':
      return px_class(ps, *flags);
    case '.':
      ps->p++;
      return px_node(ps, (*flags & F_S) ? N_ANY : N_ANYNL);
    case '^':
      ps->p++;
      return px_assert(ps, (*flags & F_M) ? A_BEGIN_LINE : A_BEGIN_TEXT);
    case '$':
      ps->p++;
      return px_assert(ps, (*flags & F_M) ? A_END_LINE : A_END_TEXT);
    case '\\': {
      const unsigned char* q = p + 1;
      int32_t v;
      if (q < ps->end) {
        switch (*q) {
          case 'A': ps->p = q + 1; return px_assert(ps, A_BEGIN_TEXT);
          case 'z': ps->p = q + 1; return px_assert(ps, A_END_TEXT);
          case 'b': ps->p = q + 1; return px_assert(ps, A_WORD_B);
          case 'B': ps->p = q + 1; return px_assert(ps, A_NOT_WORD_B);
          case 'C':
            return px_fail(ps, TFE_REGEX_ERR_UNSUPPORTED,
                           "\\C (any single byte) is not supported by tfe's "
                           "regex engine", NULL, 0);
          case 'p':
          case 'P': {
            rx_cset set = {NULL, 0, 0, 0};
            if (px_unicode_class(ps, p, &q, &set, (*flags & F_I) != 0) < 0) {
              cs_free(&set);
              return -1;
            }
            ps->p = q;
            cs_norm(&set);
            return px_class_node(ps, &set);
          }
          case 'd': case 's': case 'w': case 'D': case 'S': case 'W': {
            rx_cset set = {NULL, 0, 0, 0};
            px_perl_class(*q, &set, (*flags & F_I) != 0);
            ps->p = q + 1;
            cs_norm(&set);
            return px_class_node(ps, &set);
          }
          case 'Q': {
            /* Literal text up to \E or the end. */
            const unsigned char* r = q + 1;
            int cat = px_node(ps, N_CAT), last = -1;
            if (cat < 0) return -1;
            while (r < ps->end) {
              int32_t cp;
              int lit;
              if (r + 1 < ps->end && r[0] == '\\' && r[1] == 'E') {
                r += 2;
                break;
              }
              if (r + 1 < ps->end && r[0] == '\\' && r[1] == '\\') r++;
              cp = px_char(ps, &r);
              if (cp < 0) return -1;
              lit = px_literal(ps, (uint32_t)cp, *flags);
              if (lit < 0) return -1;
              if (last < 0) {
                ps->nodes[cat].first = lit;
              } else {
                ps->nodes[last].next = lit;
              }
              last = lit;
            }
            ps->p = r;
            ps->nodes[cat].c = last < 0 ? 1 : 2; /* see px_concat */
            if (last < 0) ps->nodes[cat].op = N_EMPTY;
            return cat;
          }
          default:
            break;
        }
      }
      v = px_escape_char(ps, p, &q);
      if (v == -2) return px_bad_escape(ps, p, q);
      if (v < 0) return -1;
      ps->p = q;
      return px_literal(ps, (uint32_t)v, *flags);
    }
    default: {
      const unsigned char* q = p;
      int32_t cp = px_char(ps, &q);
      if (cp < 0) return -1;
      ps->p = q;
      return px_literal(ps, (uint32_t)cp, *flags);
    }
  }
}

/* Parses {n}, {n,} or {n,m} at p; 1 with *pp past it, 0 when the text is
 * not a repetition (then '{' is a literal). */
static int px_braces(rx_parser* ps, const unsigned char** pp, int* mn,
                     int* mx) {
  const unsigned char* p = *pp + 1;
  long a = 0, b;
  int nd = 0;
  while (p < ps->end && *p >= '0' && *p <= '9') {
    if (a < 100000) a = a * 10 + (*p - '0');
    p++;
    nd++;
  }
  if (nd == 0 || p >= ps->end) return 0;
  if (*p == '}') {
    b = a;
  } else if (*p == ',') {
    p++;
    if (p < ps->end && *p == '}') {
      b = -1;
    } else {
      b = 0;
      nd = 0;
      while (p < ps->end && *p >= '0' && *p <= '9') {
        if (b < 100000) b = b * 10 + (*p - '0');
        p++;
        nd++;
      }
      if (nd == 0 || p >= ps->end || *p != '}') return 0;
    }
  } else {
    return 0;
  }
  *mn = (int)a;
  *mx = (int)b;
  *pp = p + 1;
  return 1;
}

/* RE2's check that nested counted repetitions do not multiply past 1000:
 * the budget is divided by each count on the way down. */
static int px_rep_budget(const rx_parser* ps, int id, int budget) {
  const rx_node* n = &ps->nodes[id];
  int best = budget, ch;
  if (n->op == N_REPEAT) {
    int m = n->max < 0 ? n->min : n->max;
    if (m > 0) budget /= m;
    best = budget;
  }
  switch (n->op) {
    case N_CAT:
    case N_ALT:
      for (ch = n->first; ch >= 0; ch = ps->nodes[ch].next) {
        int r = px_rep_budget(ps, ch, budget);
        if (r < best) best = r;
      }
      break;
    case N_STAR:
    case N_PLUS:
    case N_QUEST:
    case N_REPEAT:
    case N_CAP: {
      int r = px_rep_budget(ps, n->sub, budget);
      if (r < best) best = r;
      break;
    }
    default:
      break;
  }
  return best;
}

/* A sequence of atoms with their repetition operators. */
static int px_concat(rx_parser* ps, int* flags) {
  int cat = px_node(ps, N_CAT), last = -1;
  if (cat < 0) return -1;
  while (ps->p < ps->end && *ps->p != '|' && *ps->p != ')') {
    const unsigned char* op_start = ps->p;
    int c = *ps->p, atom;
    int mn, mx;
    const unsigned char* q = ps->p;
    if (c == '*' || c == '+' || c == '?' ||
        (c == '{' && px_braces(ps, &q, &mn, &mx))) {
      size_t oplen = c == '{' ? (size_t)(q - op_start) : 1;
      return px_fail(ps, TFE_REGEX_ERR_SYNTAX,
                     "no argument for repetition operator", op_start, oplen);
    }
    atom = px_atom(ps, flags);
    if (atom < 0) return -1;
    if (ps->nodes[atom].op == N_EMPTY && ps->nodes[atom].c == 1) continue;
    if (ps->nodes[atom].op == N_CAT && ps->nodes[atom].c == 2) {
      /* \Q...\E: its literals join this sequence one by one, and only
       * the last is the operand of a following repetition. */
      int ch = ps->nodes[atom].first;
      while (ps->nodes[ch].next >= 0) {
        int nx = ps->nodes[ch].next;
        ps->nodes[ch].next = -1;
        if (last < 0) {
          ps->nodes[cat].first = ch;
        } else {
          ps->nodes[last].next = ch;
        }
        last = ch;
        ch = nx;
      }
      atom = ch;
    }
    /* Repetition operators after the atom. */
    {
      const unsigned char* first_op = NULL;
      for (;;) {
        int op, greedy = 1, id;
        const unsigned char* s = ps->p;
        if (s >= ps->end) break;
        c = *s;
        q = s;
        if (c == '*' || c == '+' || c == '?') {
          op = c == '*' ? N_STAR : c == '+' ? N_PLUS : N_QUEST;
          q = s + 1;
          mn = mx = 0;
        } else if (c == '{' && px_braces(ps, &q, &mn, &mx)) {
          op = N_REPEAT;
        } else {
          break;
        }
        if (first_op != NULL) {
          /* RE2 (Perl mode) rejects a repetition of a repetition. */
          const unsigned char* e = q;
          if (e < ps->end && *e == '?') e++;
          return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "bad repetition operator",
                         first_op, (size_t)(e - first_op));
        }
        if (q < ps->end && *q == '?') {
          greedy = 0;
          q++;
        }
        if (*flags & F_U) greedy = !greedy;
        if (op == N_REPEAT &&
            (mn > RX_MAX_REPEAT || mx > RX_MAX_REPEAT || (mx >= 0 && mx < mn))) {
          return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid repetition size", s,
                         (size_t)(q - s));
        }
        id = px_node(ps, op);
        if (id < 0) return -1;
        ps->nodes[id].sub = atom;
        ps->nodes[id].greedy = greedy;
        ps->nodes[id].min = mn;
        ps->nodes[id].max = mx;
        if (op == N_REPEAT && (mn >= 2 || mx >= 2) &&
            px_rep_budget(ps, id, RX_MAX_REPEAT) == 0) {
          return px_fail(ps, TFE_REGEX_ERR_SYNTAX, "invalid repetition size", s,
                         (size_t)(q - s));
        }
        atom = id;
        ps->p = q;
        first_op = s;
      }
    }
    if (last < 0) {
      ps->nodes[cat].first = atom;
    } else {
      ps->nodes[last].next = atom;
    }
    last = atom;
  }
  return cat;
}

static int px_alt(rx_parser* ps, int* flags) {
  int alt = -1, last = -1;
  for (;;) {
    int cat = px_concat(ps, flags);
    if (cat < 0) return -1;
    if (ps->p < ps->end && *ps->p == '|') {
      ps->p++;
      if (alt < 0) {
        alt = px_node(ps, N_ALT);
        if (alt < 0) return -1;
        ps->nodes[alt].first = cat;
      } else {
        ps->nodes[last].next = cat;
      }
      last = cat;
      continue;
    }
    if (alt < 0) return cat;
    ps->nodes[last].next = cat;
    return alt;
  }
}

/* ------------------------------------------------------------------ */
/* Compiler */

typedef struct rx_comp {
  rx_parser* ps;
  rx_inst* inst;
  int n, cap;
  long cost;
  int* cls_cost; /* per class */
  int too_big;
  int oom;
} rx_comp;

static int cp_emit(rx_comp* c, int op, int x, int y, uint32_t v, int cost) {
  if (c->too_big || c->oom) return -1;
  c->cost += cost;
  if (c->cost > RX_MAX_COST) {
    c->too_big = 1;
    return -1;
  }
  if (c->n == c->cap) {
    int nc = c->cap ? c->cap * 2 : 64;
    rx_inst* ni = (rx_inst*)tfe_realloc(c->inst, (size_t)nc * sizeof(rx_inst));
    if (ni == NULL) {
      c->oom = 1;
      return -1;
    }
    c->inst = ni;
    c->cap = nc;
  }
  c->inst[c->n].op = op;
  c->inst[c->n].x = x;
  c->inst[c->n].y = y;
  c->inst[c->n].c = v;
  return c->n++;
}

static int nd_nullable(const rx_parser* ps, int id) {
  const rx_node* n = &ps->nodes[id];
  int ch;
  switch (n->op) {
    case N_EMPTY:
    case N_ASSERT:
    case N_STAR:
    case N_QUEST:
      return 1;
    case N_CAT:
      for (ch = n->first; ch >= 0; ch = ps->nodes[ch].next) {
        if (!nd_nullable(ps, ch)) return 0;
      }
      return 1;
    case N_ALT:
      for (ch = n->first; ch >= 0; ch = ps->nodes[ch].next) {
        if (nd_nullable(ps, ch)) return 1;
      }
      return 0;
    case N_PLUS:
    case N_CAP:
      return nd_nullable(ps, n->sub);
    case N_REPEAT:
      return n->min == 0 || nd_nullable(ps, n->sub);
    default:
      return 0;
  }
}

static int cp_node(rx_comp* c, int id);

/* x* : L: split(body, out); body; jmp L. A body that can match empty is
 * compiled as (x+)? instead, which keeps the preference order of the
 * threads right when the loop makes no progress (RE2 does the same). */
static int cp_star(rx_comp* c, int sub, int greedy) {
  int l, j;
  if (nd_nullable(c->ps, sub)) {
    int s = cp_emit(c, I_SPLIT, 0, 0, 0, 1), body, s2;
    if (s < 0) return -1;
    body = c->n;
    if (cp_node(c, sub) < 0) return -1;
    s2 = cp_emit(c, I_SPLIT, 0, 0, 0, 1);
    if (s2 < 0) return -1;
    c->inst[s2].x = greedy ? body : c->n;
    c->inst[s2].y = greedy ? c->n : body;
    c->inst[s].x = greedy ? body : c->n;
    c->inst[s].y = greedy ? c->n : body;
    return 0;
  }
  l = cp_emit(c, I_SPLIT, 0, 0, 0, 1);
  if (l < 0) return -1;
  if (cp_node(c, sub) < 0) return -1;
  j = cp_emit(c, I_JMP, l, 0, 0, 1);
  if (j < 0) return -1;
  c->inst[l].x = greedy ? l + 1 : c->n;
  c->inst[l].y = greedy ? c->n : l + 1;
  return 0;
}

static int cp_plus(rx_comp* c, int sub, int greedy) {
  int body = c->n, s;
  if (cp_node(c, sub) < 0) return -1;
  s = cp_emit(c, I_SPLIT, 0, 0, 0, 1);
  if (s < 0) return -1;
  c->inst[s].x = greedy ? body : c->n;
  c->inst[s].y = greedy ? c->n : body;
  return 0;
}

static int cp_quest(rx_comp* c, int sub, int greedy) {
  int s = cp_emit(c, I_SPLIT, 0, 0, 0, 1);
  if (s < 0) return -1;
  if (cp_node(c, sub) < 0) return -1;
  c->inst[s].x = greedy ? s + 1 : c->n;
  c->inst[s].y = greedy ? c->n : s + 1;
  return 0;
}

static int cp_node(rx_comp* c, int id) {
  const rx_node* n = &c->ps->nodes[id];
  int ch;
  switch (n->op) {
    case N_EMPTY:
      return 0;
    case N_LIT:
      return cp_emit(c, I_CHAR, 0, 0, n->c, rx_utf8_len(n->c)) < 0 ? -1 : 0;
    case N_CLASS: {
      const rx_cset* s = &c->ps->sets[n->c];
      if (s->n == 0) return cp_emit(c, I_FAIL, 0, 0, 0, 1) < 0 ? -1 : 0;
      return cp_emit(c, I_CLASS, 0, 0, n->c, c->cls_cost[n->c]) < 0 ? -1 : 0;
    }
    case N_ANY:
      return cp_emit(c, I_ANY, 0, 0, 0, 8) < 0 ? -1 : 0;
    case N_ANYNL:
      return cp_emit(c, I_ANYNL, 0, 0, 0, 9) < 0 ? -1 : 0;
    case N_ASSERT:
      return cp_emit(c, I_ASSERT, 0, 0, n->c, 1) < 0 ? -1 : 0;
    case N_CAT:
      for (ch = n->first; ch >= 0; ch = c->ps->nodes[ch].next) {
        if (cp_node(c, ch) < 0) return -1;
      }
      return 0;
    case N_ALT: {
      /* split L1, next; L1: a; jmp end; next: split L2, ...; last. */
      int jmps[64], nj = 0, k;
      int* jl = jmps;
      int cnt = 0;
      for (ch = n->first; ch >= 0; ch = c->ps->nodes[ch].next) cnt++;
      if (cnt > 64) {
        jl = (int*)tfe_malloc((size_t)cnt * sizeof(int));
        if (jl == NULL) {
          c->oom = 1;
          return -1;
        }
      }
      for (ch = n->first; ch >= 0; ch = c->ps->nodes[ch].next) {
        if (c->ps->nodes[ch].next >= 0) {
          int s = cp_emit(c, I_SPLIT, 0, 0, 0, 1);
          if (s < 0) goto alt_fail;
          c->inst[s].x = s + 1;
          if (cp_node(c, ch) < 0) goto alt_fail;
          jl[nj] = cp_emit(c, I_JMP, 0, 0, 0, 1);
          if (jl[nj] < 0) goto alt_fail;
          nj++;
          c->inst[s].y = c->n;
        } else {
          if (cp_node(c, ch) < 0) goto alt_fail;
        }
      }
      for (k = 0; k < nj; k++) c->inst[jl[k]].x = c->n;
      if (jl != jmps) tfe_free(jl);
      return 0;
    alt_fail:
      if (jl != jmps) tfe_free(jl);
      return -1;
    }
    case N_STAR:
      return cp_star(c, n->sub, n->greedy);
    case N_PLUS:
      return cp_plus(c, n->sub, n->greedy);
    case N_QUEST:
      return cp_quest(c, n->sub, n->greedy);
    case N_REPEAT: {
      int i, mn = n->min, mx = n->max, sub = n->sub, greedy = n->greedy;
      if (mx < 0) {
        /* x{n,}: n-1 copies then x+ (x* when n is 0). */
        if (mn == 0) return cp_star(c, sub, greedy);
        for (i = 0; i < mn - 1; i++) {
          if (cp_node(c, sub) < 0) return -1;
        }
        return cp_plus(c, sub, greedy);
      }
      for (i = 0; i < mn; i++) {
        if (cp_node(c, sub) < 0) return -1;
      }
      if (mx > mn) {
        /* (x(x(x)?)?)? for the optional copies. */
        int k = mx - mn;
        int* splits = (int*)tfe_malloc((size_t)k * sizeof(int));
        if (splits == NULL) {
          c->oom = 1;
          return -1;
        }
        for (i = 0; i < k; i++) {
          splits[i] = cp_emit(c, I_SPLIT, 0, 0, 0, 1);
          if (splits[i] < 0 || cp_node(c, sub) < 0) {
            tfe_free(splits);
            return -1;
          }
        }
        for (i = 0; i < k; i++) {
          c->inst[splits[i]].x = greedy ? splits[i] + 1 : c->n;
          c->inst[splits[i]].y = greedy ? c->n : splits[i] + 1;
        }
        tfe_free(splits);
      }
      return 0;
    }
    case N_CAP:
      if (cp_emit(c, I_SAVE, 0, 0, (uint32_t)(2 * n->cap), 1) < 0) return -1;
      if (cp_node(c, n->sub) < 0) return -1;
      return cp_emit(c, I_SAVE, 0, 0, (uint32_t)(2 * n->cap + 1), 1) < 0 ? -1
                                                                          : 0;
    default:
      return -1;
  }
}

static void px_cleanup(rx_parser* ps, int keep_names) {
  int i;
  for (i = 0; i < ps->nsets; i++) cs_free(&ps->sets[i]);
  tfe_free(ps->sets);
  tfe_free(ps->nodes);
  if (!keep_names) {
    for (i = 0; i < ps->nnames; i++) tfe_free(ps->names[i].name);
    tfe_free(ps->names);
  }
}

void tfe_regex_free(tfe_regex* re) {
  int i;
  if (re == NULL) return;
  for (i = 0; i < re->ncls; i++) tfe_free(re->cls[i].r);
  tfe_free(re->cls);
  tfe_free(re->inst);
  for (i = 0; i < re->nnames; i++) tfe_free(re->names[i].name);
  tfe_free(re->names);
  tfe_free(re);
}

/* UTF-8 lead byte of a code point. */
static unsigned rx_lead(uint32_t cp) {
  if (cp < 0x80) return cp;
  if (cp < 0x800) return 0xC0 | (cp >> 6);
  if (cp < 0x10000) return 0xE0 | (cp >> 12);
  return 0xF0 | (cp >> 18);
}

static void rx_first_range(tfe_regex* re, uint32_t lo, uint32_t hi) {
  uint32_t b;
  for (b = lo; b <= hi && b < 0x80; b++) re->first[b] = 1;
  if (hi >= 0x80) {
    uint32_t a = rx_lead(lo < 0x80 ? 0x80 : lo), z = rx_lead(hi);
    for (b = a; b <= z && b < 256; b++) re->first[b] = 1;
  }
}

/* Fills re->first: the lead bytes of every character a match can begin
 * with. A program that can match without consuming anything, or that
 * starts with "any character", gets no filter. */
static int rx_compute_first(tfe_regex* re) {
  unsigned char* seen = (unsigned char*)tfe_calloc((size_t)re->ninst, 1);
  int* stack = (int*)tfe_malloc((size_t)re->ninst * 2 * sizeof(int) + sizeof(int));
  int sp = 0, ok = 1;
  if (seen == NULL || stack == NULL) {
    tfe_free(seen);
    tfe_free(stack);
    return 0;
  }
  memset(re->first, 0, sizeof re->first);
  stack[sp++] = 0;
  while (sp > 0 && ok) {
    int pc = stack[--sp];
    const rx_inst* in;
    if (seen[pc]) continue;
    seen[pc] = 1;
    in = &re->inst[pc];
    switch (in->op) {
      case I_JMP:
        stack[sp++] = in->x;
        break;
      case I_SPLIT:
        stack[sp++] = in->x;
        stack[sp++] = in->y;
        break;
      case I_SAVE:
      case I_ASSERT:
      case I_NOP:
        stack[sp++] = pc + 1;
        break;
      case I_CHAR:
        re->first[rx_lead(in->c)] = 1;
        break;
      case I_CLASS: {
        const rx_class* c = &re->cls[in->c];
        int k;
        for (k = 0; k < c->n; k++) rx_first_range(re, c->r[k].lo, c->r[k].hi);
        break;
      }
      case I_FAIL:
        break;
      default: /* MATCH, ANY, ANYNL */
        ok = 0;
        break;
    }
  }
  tfe_free(seen);
  tfe_free(stack);
  re->has_first = ok;
  return 1;
}

tfe_regex* tfe_regex_compile(const char* pat, size_t len, tfe_regex_err* err_code,
                             char* err, size_t errcap) {
  rx_parser ps;
  rx_comp cc;
  tfe_regex* re = NULL;
  int root, flags = 0, i;
  if (err_code != NULL) *err_code = TFE_REGEX_OK;
  if (err != NULL && errcap > 0) err[0] = '\0';
  if (pat == NULL && len > 0) {
    if (err_code != NULL) *err_code = TFE_REGEX_ERR_SYNTAX;
    if (err != NULL && errcap > 0) snprintf(err, errcap, "NULL pattern");
    return NULL;
  }
  memset(&ps, 0, sizeof ps);
  memset(&cc, 0, sizeof cc);
  ps.start = ps.p = (const unsigned char*)(pat != NULL ? pat : "");
  ps.end = ps.start + len;
  ps.err = err;
  ps.errcap = errcap;
  root = px_alt(&ps, &flags);
  if (root >= 0 && ps.p < ps.end) {
    /* Only an unmatched ')' stops the top level early. */
    px_fail(&ps, TFE_REGEX_ERR_SYNTAX, "unexpected )", ps.start, len);
    root = -1;
  }
  if (root < 0) goto fail;
  cc.ps = &ps;
  cc.cls_cost = (int*)tfe_calloc((size_t)(ps.nsets > 0 ? ps.nsets : 1), sizeof(int));
  if (cc.cls_cost == NULL) {
    px_oom(&ps);
    goto fail;
  }
  for (i = 0; i < ps.nsets; i++) {
    long cost = 1;
    int k;
    long tenths = 0;
    /* RE2 shares the common suffixes of a class's UTF-8 sequences, so a
     * class costs it far less than its byte sequences; fitted to where
     * RE2 2024 stops accepting \pX{n} (\pL{200} fits and {500} does
     * not, \p{Lu}{500} fits and {1000} does not, \pP{1000} fits): a
     * single code point about 0.2, a wider range about 0.5. */
    for (k = 0; k < ps.sets[i].n; k++) {
      tenths += ps.sets[i].r[k].lo == ps.sets[i].r[k].hi ? 2 : 5;
    }
    cost += tenths / 10;
    cc.cls_cost[i] = (int)(cost > RX_MAX_COST ? RX_MAX_COST : cost);
  }
  cp_emit(&cc, I_SAVE, 0, 0, 0, 1);
  cp_node(&cc, root);
  cp_emit(&cc, I_SAVE, 0, 0, 1, 1);
  cp_emit(&cc, I_MATCH, 0, 0, 0, 1);
  tfe_free(cc.cls_cost);
  if (cc.oom) {
    px_oom(&ps);
    goto fail;
  }
  if (cc.too_big) {
    px_fail(&ps, TFE_REGEX_ERR_SYNTAX, "pattern too large - compile failed",
            NULL, 0);
    goto fail;
  }
  re = (tfe_regex*)tfe_calloc(1, sizeof *re);
  if (re == NULL) {
    px_oom(&ps);
    goto fail;
  }
  re->inst = cc.inst;
  cc.inst = NULL;
  re->ninst = cc.n;
  re->ngroups = ps.ngroups;
  re->cls = (rx_class*)tfe_calloc((size_t)(ps.nsets > 0 ? ps.nsets : 1),
                                  sizeof(rx_class));
  if (re->cls == NULL) {
    tfe_regex_free(re);
    re = NULL;
    px_oom(&ps);
    goto fail;
  }
  re->ncls = ps.nsets;
  for (i = 0; i < ps.nsets; i++) {
    rx_cset* s = &ps.sets[i];
    int k;
    re->cls[i].r = s->r;
    re->cls[i].n = s->n;
    re->cls[i].loose = 0;
    for (k = 0; k < s->n; k++) {
      uint32_t b;
      if (s->r[k].lo <= 0x80 && s->r[k].hi == RX_MAX_CP) re->cls[i].loose = 1;
      for (b = s->r[k].lo; b <= s->r[k].hi && b < 0x80; b++) {
        re->cls[i].ascii[b >> 6] |= (uint64_t)1 << (b & 63);
      }
    }
    s->r = NULL;
    s->n = s->cap = 0;
  }
  re->names = ps.names;
  re->nnames = ps.nnames;
  px_cleanup(&ps, 1);
  if (!rx_compute_first(re)) {
    tfe_regex_free(re);
    if (err_code != NULL) *err_code = TFE_REGEX_ERR_NOMEM;
    if (err != NULL && errcap > 0) snprintf(err, errcap, "out of memory");
    return NULL;
  }
  return re;
fail:
  tfe_free(cc.inst);
  if (err_code != NULL) *err_code = ps.code != TFE_REGEX_OK ? ps.code : TFE_REGEX_ERR_NOMEM;
  px_cleanup(&ps, 0);
  return NULL;
}

int tfe_regex_num_groups(const tfe_regex* re) { return re ? re->ngroups : 0; }

int tfe_regex_group_index(const tfe_regex* re, const char* name) {
  int i;
  if (re == NULL || name == NULL) return -1;
  for (i = 0; i < re->nnames; i++) {
    if (strcmp(re->names[i].name, name) == 0) return re->names[i].index;
  }
  return -1;
}

/* ------------------------------------------------------------------ */
/* Pike VM */

typedef struct rx_list {
  unsigned* mark; /* mark[pc] == gen: pc already visited at this step */
  unsigned gen;
  int* tpc;      /* thread pcs (consuming instructions and MATCH) */
  int64_t* tcap; /* ncap per thread */
  int nthreads;
} rx_list;

typedef struct rx_stack_ent {
  int pc;   /* -1: restore cap[slot] = val */
  int slot;
  int64_t val;
} rx_stack_ent;

struct tfe_regex_scratch {
  const tfe_regex* re;
  int ncap; /* capacity per thread */
  rx_list l[3]; /* current, next, and one for probing start positions */
  rx_stack_ent* stack;
  int64_t* cur;
  int64_t* best;
};

static void rx_list_free(rx_list* l) {
  tfe_free(l->mark);
  tfe_free(l->tpc);
  tfe_free(l->tcap);
}

void tfe_regex_scratch_free(tfe_regex_scratch* s) {
  if (s == NULL) return;
  rx_list_free(&s->l[0]);
  rx_list_free(&s->l[1]);
  rx_list_free(&s->l[2]);
  tfe_free(s->stack);
  tfe_free(s->cur);
  tfe_free(s->best);
  tfe_free(s);
}

/* Makes room for ncap captures per thread. */
static int rx_scratch_caps(tfe_regex_scratch* s, int ncap) {
  int i;
  size_t n = (size_t)s->re->ninst;
  if (ncap <= s->ncap) return 1;
  for (i = 0; i < 3; i++) {
    int64_t* t = (int64_t*)tfe_realloc(s->l[i].tcap, n * (size_t)ncap * sizeof(int64_t) + 8);
    if (t == NULL) return 0;
    s->l[i].tcap = t;
  }
  {
    int64_t* c = (int64_t*)tfe_realloc(s->cur, (size_t)ncap * sizeof(int64_t) + 8);
    if (c == NULL) return 0;
    s->cur = c;
    c = (int64_t*)tfe_realloc(s->best, (size_t)ncap * sizeof(int64_t) + 8);
    if (c == NULL) return 0;
    s->best = c;
  }
  s->ncap = ncap;
  return 1;
}

tfe_regex_scratch* tfe_regex_scratch_new(const tfe_regex* re) {
  tfe_regex_scratch* s;
  size_t n;
  int i;
  if (re == NULL) return NULL;
  n = (size_t)re->ninst;
  s = (tfe_regex_scratch*)tfe_calloc(1, sizeof *s);
  if (s == NULL) return NULL;
  s->re = re;
  for (i = 0; i < 3; i++) {
    s->l[i].mark = (unsigned*)tfe_calloc(n, sizeof(unsigned));
    s->l[i].gen = 1;
    s->l[i].tpc = (int*)tfe_malloc(n * sizeof(int));
    if (!s->l[i].mark || !s->l[i].tpc) goto fail;
  }
  s->stack = (rx_stack_ent*)tfe_malloc((2 * n + 2) * sizeof(rx_stack_ent));
  if (s->stack == NULL || !rx_scratch_caps(s, 2)) goto fail;
  return s;
fail:
  tfe_regex_scratch_free(s);
  return NULL;
}

static int rx_is_word(const unsigned char* t, size_t n, size_t i) {
  unsigned char c;
  if (i >= n) return 0;
  c = t[i];
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z') || c == '_';
}

/* Assertion bits that hold at byte position p. */
static unsigned rx_flags_at(const unsigned char* t, size_t n, size_t p) {
  unsigned f = 0;
  int wb, wa;
  if (p == 0) f |= A_BEGIN_TEXT | A_BEGIN_LINE;
  if (p > 0 && t[p - 1] == '\n') f |= A_BEGIN_LINE;
  if (p == n) f |= A_END_TEXT | A_END_LINE;
  if (p < n && t[p] == '\n') f |= A_END_LINE;
  wb = p > 0 && rx_is_word(t, n, p - 1);
  wa = rx_is_word(t, n, p);
  f |= (wb != wa) ? A_WORD_B : A_NOT_WORD_B;
  return f;
}

static int rx_class_match(const rx_class* c, int32_t cp) {
  if (cp < 0x80) return (int)((c->ascii[cp >> 6] >> (cp & 63)) & 1);
  if (cp == RX_BAD) return 0;
  if (cp == RX_LOOSE) return c->loose;
  return cs_has(c->r, c->n, (uint32_t)cp);
}

/* Follows the empty transitions from pc at position p and adds the
 * threads that wait for a character (or match) to l, in priority order.
 * caps (ncap entries) are the thread's captures; s->cur is clobbered. */
static void rx_add(tfe_regex_scratch* s, rx_list* l, int pc0, int64_t pos,
                   unsigned at_flags, const int64_t* caps, int ncap) {
  const rx_inst* prog = s->re->inst;
  rx_stack_ent* st = s->stack;
  int sp = 0;
  int64_t* cur = s->cur;
  if (ncap > 0) memcpy(cur, caps, (size_t)ncap * sizeof(int64_t));
  st[sp].pc = pc0;
  sp++;
  while (sp > 0) {
    rx_stack_ent e = st[--sp];
    int pc = e.pc;
    if (pc < 0) {
      cur[e.slot] = e.val;
      continue;
    }
    if (l->mark[pc] == l->gen) continue;
    l->mark[pc] = l->gen;
    switch (prog[pc].op) {
      case I_JMP:
        st[sp++].pc = prog[pc].x;
        break;
      case I_SPLIT:
        st[sp++].pc = prog[pc].y;
        st[sp++].pc = prog[pc].x;
        break;
      case I_NOP:
        st[sp++].pc = pc + 1;
        break;
      case I_SAVE: {
        int slot = (int)prog[pc].c;
        if (slot < ncap) {
          st[sp].pc = -1;
          st[sp].slot = slot;
          st[sp].val = cur[slot];
          sp++;
          cur[slot] = pos;
        }
        st[sp++].pc = pc + 1;
        break;
      }
      case I_ASSERT:
        if ((prog[pc].c & at_flags) == prog[pc].c) st[sp++].pc = pc + 1;
        break;
      case I_FAIL:
        break;
      default: {
        int t = l->nthreads++;
        l->tpc[t] = pc;
        if (ncap > 0) {
          memcpy(l->tcap + (size_t)t * (size_t)ncap, cur,
                 (size_t)ncap * sizeof(int64_t));
        }
        break;
      }
    }
  }
}

static void rx_clear(rx_list* l, size_t ninst) {
  if (++l->gen == 0) { /* wrapped: forget every old mark */
    memset(l->mark, 0, ninst * sizeof(unsigned));
    l->gen = 1;
  }
  l->nthreads = 0;
}

/* The search itself; ncap captures wanted (>= 0). */
static int rx_run(tfe_regex_scratch* s, const unsigned char* t, size_t n,
                  size_t start, int anchor_start, int anchor_end, int64_t* caps,
                  int ncap) {
  const tfe_regex* re = s->re;
  const rx_inst* prog = re->inst;
  rx_list* cl = &s->l[0];
  rx_list* nl = &s->l[1];
  size_t p = start;
  int matched = 0, i, have_fl = 0;
  unsigned fl_carry = 0;
  int64_t* init;
  if (ncap > 2 * (re->ngroups + 1)) ncap = 2 * (re->ngroups + 1);
  if (!rx_scratch_caps(s, ncap > 0 ? ncap : 1)) return -1;
  init = s->best; /* reused as the initial all-unset captures */
  for (i = 0; i < ncap; i++) init[i] = -1;
  rx_clear(cl, (size_t)re->ninst);
  rx_clear(nl, (size_t)re->ninst);
  for (;;) {
    int32_t ch = RX_END;
    int w = 0;
    unsigned fl_here, fl_next;
    if (re->has_first && cl->nthreads == 0 && !matched && !anchor_start &&
        p < n && !re->first[t[p]]) {
      /* Nothing alive and no match can start here: skip to the next byte
       * that can start one (never into the middle of a character, as no
       * continuation byte is in the set). */
      do {
        p++;
      } while (p < n && !re->first[t[p]]);
      if (p >= n) break;
      have_fl = 0;
    }
    fl_here = have_fl ? fl_carry : rx_flags_at(t, n, p);
    if (!matched && (!anchor_start || p == start)) {
      int64_t* tmp = caps;
      /* The start thread has no captures set: pass the unset array. */
      if (ncap > 0) {
        for (i = 0; i < ncap; i++) init[i] = -1;
        tmp = init;
      }
      rx_add(s, cl, 0, (int64_t)p, fl_here, tmp, ncap);
    }
    if (cl->nthreads == 0 && (matched || anchor_start || p >= n)) break;
    if (p < n) ch = rx_decode(t + p, n - p, &w);
    fl_next = p < n ? rx_flags_at(t, n, p + (size_t)w) : 0;
    fl_carry = fl_next;
    have_fl = 1;
    for (i = 0; i < cl->nthreads; i++) {
      int pc = cl->tpc[i];
      const rx_inst* in = &prog[pc];
      const int64_t* tc = cl->tcap + (size_t)i * (size_t)ncap;
      int ok = 0;
      switch (in->op) {
        case I_MATCH:
          if (anchor_end && p != n) break;
          matched = 1;
          if (caps != NULL && ncap > 0) {
            memcpy(caps, tc, (size_t)ncap * sizeof(int64_t));
          }
          /* Threads after this one have lower priority: drop them. */
          i = cl->nthreads;
          continue;
        case I_CHAR:
          ok = ch >= 0 && (uint32_t)ch == in->c;
          break;
        case I_CLASS:
          ok = ch >= 0 && rx_class_match(&re->cls[in->c], ch);
          break;
        case I_ANY:
          ok = ch >= 0 && ch != RX_BAD;
          break;
        case I_ANYNL:
          ok = ch >= 0 && ch != RX_BAD && ch != '\n';
          break;
        default:
          break;
      }
      if (ok) rx_add(s, nl, pc + 1, (int64_t)(p + (size_t)w), fl_next, tc, ncap);
    }
    if (p >= n) break;
    if (w > 1 && !matched && !anchor_start && !anchor_end && !re->has_first) {
      /* RE2 searches byte by byte, so an empty match may begin inside a
       * multi-byte character (between its bytes, where \B holds). Only
       * an empty one can: a continuation byte starts no character. Such
       * a match ranks below every thread still running (they started
       * earlier). */
      size_t q;
      rx_list* pl = &s->l[2];
      for (q = p + 1; q < p + (size_t)w && !matched; q++) {
        int j;
        rx_clear(pl, (size_t)re->ninst);
        if (ncap > 0) {
          for (j = 0; j < ncap; j++) init[j] = -1;
        }
        rx_add(s, pl, 0, (int64_t)q, rx_flags_at(t, n, q), init, ncap);
        for (j = 0; j < pl->nthreads; j++) {
          if (prog[pl->tpc[j]].op != I_MATCH) continue;
          matched = 1;
          if (caps != NULL && ncap > 0) {
            memcpy(caps, pl->tcap + (size_t)j * (size_t)ncap,
                   (size_t)ncap * sizeof(int64_t));
          }
          break;
        }
      }
    }
    {
      rx_list* tmp = cl;
      cl = nl;
      nl = tmp;
      rx_clear(nl, (size_t)re->ninst);
    }
    p += (size_t)w;
    if (cl->nthreads == 0 && (matched || anchor_start)) break;
  }
  return matched;
}

static int rx_with_scratch(const tfe_regex* re, tfe_regex_scratch** sp,
                           tfe_regex_scratch** owned) {
  *owned = NULL;
  if (*sp != NULL && (*sp)->re == re) return 1;
  *owned = tfe_regex_scratch_new(re);
  *sp = *owned;
  return *owned != NULL;
}

int tfe_regex_search(const tfe_regex* re, tfe_regex_scratch* scratch,
                     const char* text, size_t n, size_t start, int anchor_start,
                     int anchor_end, int64_t* caps, int ncaps) {
  tfe_regex_scratch* owned;
  int r, i, want;
  if (re == NULL || (text == NULL && n > 0) || start > n) return 0;
  if (!rx_with_scratch(re, &scratch, &owned)) return -1;
  want = caps != NULL && ncaps > 0 ? 2 * ncaps : 0;
  r = rx_run(scratch, (const unsigned char*)(text ? text : ""), n, start,
             anchor_start, anchor_end, caps, want);
  if (r == 1 && caps != NULL) {
    int have = 2 * (re->ngroups + 1);
    for (i = have; i < 2 * ncaps; i++) caps[i] = -1;
  }
  tfe_regex_scratch_free(owned);
  return r;
}

int tfe_regex_full_match(const tfe_regex* re, tfe_regex_scratch* scratch,
                         const char* text, size_t n) {
  return tfe_regex_search(re, scratch, text, n, 0, 1, 1, NULL, 0);
}

int tfe_regex_max_submatch(const char* rw, size_t len) {
  size_t i;
  int mx = 0;
  if (rw == NULL) return 0;
  for (i = 0; i < len; i++) {
    if (rw[i] == '\\') {
      i++;
      if (i < len && rw[i] >= '0' && rw[i] <= '9' && rw[i] - '0' > mx) {
        mx = rw[i] - '0';
      }
    }
  }
  return mx;
}

typedef struct rx_buf {
  char* d;
  size_t n, cap;
  int oom;
} rx_buf;

static void rb_put(rx_buf* b, const char* s, size_t n) {
  if (n == 0 || b->oom) return;
  if (b->n + n > b->cap) {
    size_t nc = b->cap ? b->cap : 64;
    char* nd;
    while (nc < b->n + n) nc *= 2;
    nd = (char*)tfe_realloc(b->d, nc);
    if (nd == NULL) {
      b->oom = 1;
      return;
    }
    b->d = nd;
    b->cap = nc;
  }
  memcpy(b->d + b->n, s, n);
  b->n += n;
}

/* Appends the rewrite with submatches; 0 at a malformed escape (what was
 * appended so far stays, as in RE2). */
static int rx_rewrite(rx_buf* b, const char* rw, size_t len, const char* text,
                      const int64_t* caps, int nvec) {
  size_t i;
  for (i = 0; i < len; i++) {
    int c;
    if (rw[i] != '\\') {
      rb_put(b, rw + i, 1);
      continue;
    }
    i++;
    c = i < len ? (unsigned char)rw[i] : -1;
    if (c >= '0' && c <= '9') {
      int g = c - '0';
      if (g >= nvec) return 0;
      if (caps[2 * g] >= 0 && caps[2 * g + 1] > caps[2 * g]) {
        rb_put(b, text + caps[2 * g], (size_t)(caps[2 * g + 1] - caps[2 * g]));
      }
    } else if (c == '\\') {
      rb_put(b, "\\", 1);
    } else {
      return 0;
    }
  }
  return 1;
}

int64_t tfe_regex_replace(const tfe_regex* re, tfe_regex_scratch* scratch,
                          const char* text, size_t n, const char* rewrite,
                          size_t rewrite_len, int global, char** out,
                          size_t* out_len) {
  tfe_regex_scratch* owned;
  int64_t caps[20];
  int nvec;
  rx_buf b = {NULL, 0, 0, 0};
  int64_t count = 0;
  const unsigned char* t = (const unsigned char*)(text ? text : "");
  if (out != NULL) *out = NULL;
  if (out_len != NULL) *out_len = 0;
  if (re == NULL || out == NULL || out_len == NULL || (text == NULL && n > 0) ||
      (rewrite == NULL && rewrite_len > 0)) {
    return 0;
  }
  nvec = 1 + tfe_regex_max_submatch(rewrite, rewrite_len);
  if (nvec > 1 + re->ngroups) return 0;
  if (!rx_with_scratch(re, &scratch, &owned)) return -1;
  if (!global) {
    int r = rx_run(scratch, t, n, 0, 0, 0, caps, 2 * nvec);
    if (r <= 0) {
      tfe_regex_scratch_free(owned);
      return r;
    }
    rb_put(&b, (const char*)t, (size_t)caps[0]);
    if (!rx_rewrite(&b, rewrite, rewrite_len, (const char*)t, caps, nvec)) {
      tfe_free(b.d);
      tfe_regex_scratch_free(owned);
      return 0;
    }
    rb_put(&b, (const char*)t + caps[1], n - (size_t)caps[1]);
    count = 1;
  } else {
    size_t p = 0;
    int64_t lastend = -1;
    while (p <= n) {
      int r = rx_run(scratch, t, n, p, 0, 0, caps, 2 * nvec);
      if (r < 0) {
        tfe_free(b.d);
        tfe_regex_scratch_free(owned);
        return -1;
      }
      if (r == 0) break;
      rb_put(&b, (const char*)t + p, (size_t)caps[0] - p);
      if (caps[0] == caps[1] && caps[0] == lastend) {
        /* An empty match right where the last one ended is not taken:
         * copy one character (one byte when not valid UTF-8) and go on. */
        if (p < n) {
          int w;
          int32_t cp = rx_decode(t + p, n - p, &w);
          if (cp == RX_BAD || cp == RX_LOOSE) w = 1;
          rb_put(&b, (const char*)t + p, (size_t)w);
          p += (size_t)w;
        } else {
          p++;
        }
        continue;
      }
      rx_rewrite(&b, rewrite, rewrite_len, (const char*)t, caps, nvec);
      p = (size_t)caps[1];
      lastend = caps[1];
      count++;
    }
    if (count > 0 && p < n) rb_put(&b, (const char*)t + p, n - p);
  }
  tfe_regex_scratch_free(owned);
  if (b.oom) {
    tfe_free(b.d);
    return -1;
  }
  if (count == 0) {
    tfe_free(b.d);
    return 0;
  }
  if (b.d == NULL) {
    b.d = (char*)tfe_malloc(1);
    if (b.d == NULL) return -1;
  }
  *out = b.d;
  *out_len = b.n;
  return count;
}
