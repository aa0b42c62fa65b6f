/* The one op registry: registration with TF's validation rules, lock-free
 * lookup by name, and the execution-time uses of a definition (completing
 * attrs, arg lengths and dtypes).
 *
 * Concurrency: writers (registration) serialize on a pthread rwlock held
 * for writing. tfe_op_lookup does not lock: the hash table is an array of
 * atomically published pointers; a slot is written once (release) after the
 * definition is complete, and a full table is replaced by a bigger copy that
 * is published atomically. Replaced tables are kept (never freed), so a
 * reader still probing an old table stays safe. Definitions are never
 * freed: tfe_op_unregister (a library's load failed) publishes a table
 * without them and keeps them in g_unregistered. The listing
 * (tfe_op_count/tfe_op_at) reads under the read lock. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/checked.h"
#include "core/status_internal.h"
#include "ops/attr_value.h"
#include "ops/op_generated.h"
#include "ops/op_registry.h"
#include "ops/ops_internal.h"

/* ======================================================================
 * the table
 * ====================================================================== */

typedef struct op_table {
  size_t cap; /* power of two */
  uint64_t* hashes;
  _Atomic(tfe_op_def*)* slots;
  struct op_table* retired_next;
} op_table;

static _Atomic(op_table*) g_table;
static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static tfe_op_def** g_order; /* registration order; guarded by g_lock */
static int g_count;
static int g_cap;
static op_table* g_retired; /* replaced tables, kept alive */
/* Definitions taken out by tfe_op_unregister (kept alive). */
static tfe_op_def** g_unregistered;
static int g_unregistered_count;

/* The last n < 8 bytes of a key as one word, with plain loads (a partial
 * memcpy into a stack word stalls store forwarding). Overlapping reads are
 * fine for hashing. */
static inline uint64_t load_tail(const unsigned char* p, size_t n) {
  if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + n - 4, 4);
    return a | ((uint64_t)b << 32);
  }
  if (n > 0) {
    return (uint64_t)p[0] | ((uint64_t)p[n / 2] << 8) |
           ((uint64_t)p[n - 1] << 16);
  }
  return 0;
}

/* Op names are short: hash them a word at a time. */
static uint64_t hash_name(const char* s) {
  uint64_t h = 0xcbf29ce484222325ULL, w;
  size_t n = strlen(s);
  while (n >= 8) {
    memcpy(&w, s, 8);
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 32;
    s += 8;
    n -= 8;
  }
  w = load_tail((const unsigned char*)s, n);
  h = (h ^ w ^ ((uint64_t)n << 59)) * 0x9E3779B97F4A7C15ULL;
  return h ^ (h >> 32);
}

static op_table* table_new(size_t cap) {
  op_table* t = (op_table*)tfe_calloc(1, sizeof(*t));
  if (t == NULL) return NULL;
  t->cap = cap;
  t->hashes = (uint64_t*)tfe_calloc(cap, sizeof(uint64_t));
  t->slots = (_Atomic(tfe_op_def*)*)tfe_calloc(cap, sizeof(*t->slots));
  if (t->hashes == NULL || t->slots == NULL) {
    tfe_free(t->hashes);
    tfe_free((void*)t->slots);
    tfe_free(t);
    return NULL;
  }
  return t;
}

/* Inserts into t (caller holds the write lock; t has room). */
static void table_insert(op_table* t, uint64_t h, tfe_op_def* def) {
  size_t mask = t->cap - 1, i = (size_t)h & mask;
  while (atomic_load_explicit(&t->slots[i], memory_order_relaxed) != NULL) {
    i = (i + 1) & mask;
  }
  t->hashes[i] = h;
  atomic_store_explicit(&t->slots[i], def, memory_order_release);
}

static tfe_op_def* table_find(const op_table* t, const char* name,
                              uint64_t h) {
  size_t mask, i;
  if (t == NULL) return NULL;
  mask = t->cap - 1;
  i = (size_t)h & mask;
  for (;;) {
    tfe_op_def* d = atomic_load_explicit(&t->slots[i], memory_order_acquire);
    if (d == NULL) return NULL;
    if (t->hashes[i] == h && strcmp(d->name, name) == 0) return d;
    i = (i + 1) & mask;
  }
}

/* Makes room for one more definition (write lock held). 0 on OOM. */
static int reserve_one(void) {
  op_table* t = atomic_load_explicit(&g_table, memory_order_relaxed);
  if (g_count == g_cap) {
    int cap = g_cap ? g_cap * 2 : 256;
    tfe_op_def** o =
        (tfe_op_def**)tfe_realloc(g_order, sizeof(tfe_op_def*) * (size_t)cap);
    if (o == NULL) return 0;
    g_order = o;
    g_cap = cap;
  }
  if (t == NULL || (size_t)(g_count + 1) * 2 > t->cap) {
    size_t cap = t ? t->cap * 2 : 512;
    op_table* nt = table_new(cap);
    int i;
    if (nt == NULL) return 0;
    for (i = 0; i < g_count; i++) {
      table_insert(nt, hash_name(g_order[i]->name), g_order[i]);
    }
    atomic_store_explicit(&g_table, nt, memory_order_release);
    if (t != NULL) {
      t->retired_next = g_retired;
      g_retired = t;
    }
  }
  return 1;
}

/* ======================================================================
 * validation at registration (TF's ValidateOpDef and the reference checks
 * of OpDefBuilder)
 * ====================================================================== */

static int valid_op_name(const char* n) {
  const unsigned char* p = (const unsigned char*)n;
  if (*p == '_') {
    /* TF leaves internal names alone; tfe still wants printable text. */
    for (p++; *p; p++) {
      if (!tfe_is_ident(*p) && *p != '>') return 0;
    }
    return 1;
  }
  for (;;) {
    if (!tfe_is_upper(*p)) return 0;
    for (p++; tfe_is_ident(*p); p++) {
    }
    if (*p == '\0') return 1;
    if (*p != '>') return 0;
    p++;
  }
}

static void node_context(const tfe_op_def* def, tfe_strbuf* b) {
  tfe_sb_puts(b, "\n\t; NodeDef: {{node ");
  tfe_sb_puts(b, def->name);
  tfe_sb_puts(b, "}}; ");
  tfe_op_def_summarize_to(def, b);
}

/* Sets status from a message builder; RESOURCE_EXHAUSTED if it ran out of
 * memory. Frees b. Returns 0. */
static int fail_with(TF_Status* s, TF_Code code, tfe_strbuf* b) {
  if (b->oom) {
    tfe_status_setf(s, code, "(message lost: out of memory)");
  } else {
    tfe_status_setf(s, code, "%s", tfe_sb_str(b));
  }
  tfe_sb_free(b);
  return 0;
}

static void dtype_text(TF_DataType t, tfe_strbuf* b) {
  const char* n = tfe_dtype_short_name(t);
  if (n != NULL) {
    tfe_sb_puts(b, n);
  } else if ((int)t == 0) {
    tfe_sb_puts(b, "INVALID");
  } else {
    tfe_sb_printf(b, "unknown dtype enum (%d)", (int)t);
  }
}

static int allowed_type(TF_DataType t, const tfe_attr_def* a, tfe_strbuf* b) {
  int i;
  for (i = 0; i < a->allowed.list_size; i++) {
    if (a->allowed.list.type[i] == t) return 1;
  }
  tfe_sb_printf(b, "Value for attr '%s' of ", a->name);
  dtype_text(t, b);
  tfe_sb_puts(b, " is not in the list of allowed values: ");
  for (i = 0; i < a->allowed.list_size; i++) {
    if (i > 0) tfe_sb_puts(b, ", ");
    dtype_text(a->allowed.list.type[i], b);
  }
  return 0;
}

static int allowed_string(const char* s, size_t n, const tfe_attr_def* a,
                          tfe_strbuf* b) {
  int i;
  for (i = 0; i < a->allowed.list_size; i++) {
    if (a->allowed.list.s.len[i] == n &&
        memcmp(a->allowed.list.s.data[i], s, n) == 0) {
      return 1;
    }
  }
  tfe_sb_printf(b, "Value for attr '%s' of \"", a->name);
  tfe_sb_putn(b, s, n);
  tfe_sb_puts(b, "\" is not in the list of allowed values: ");
  for (i = 0; i < a->allowed.list_size; i++) {
    if (i > 0) tfe_sb_puts(b, ", ");
    tfe_sb_putc(b, '"');
    tfe_sb_putn(b, a->allowed.list.s.data[i], a->allowed.list.s.len[i]);
    tfe_sb_putc(b, '"');
  }
  return 0;
}

/* TF's ValidateAttrValue: kind, dtype validity, minimum, allowed values.
 * Returns 1 when fine; otherwise 0 with the message in b. */
static int validate_value(const tfe_attr_value* v, const tfe_attr_def* a,
                          tfe_strbuf* b) {
  int i;
  if (v->is_list != a->is_list ||
      (v->type != a->type && !(v->is_list && v->list_size == 0))) {
    tfe_sb_printf(b,
                  "AttrValue had value with type '%s' when '%s' expected\n"
                  "\t for attr '%s'",
                  tfe_attr_kind_name(v->type, v->is_list),
                  tfe_attr_kind_name(a->type, a->is_list), a->name);
    return 0;
  }
  if (a->type == TF_ATTR_TYPE) {
    if (!a->is_list) {
      if ((int)v->v.type == 0) {
        tfe_sb_printf(b, "AttrValue has invalid DataType\n\t for attr '%s'",
                      a->name);
        return 0;
      }
      if (!tfe_dtype_is_valid(v->v.type)) {
        tfe_sb_printf(b,
                      "AttrValue has invalid DataType enum: %d\n\t for attr "
                      "'%s'",
                      (int)v->v.type, a->name);
        return 0;
      }
    } else {
      for (i = 0; i < v->list_size; i++) {
        if ((int)v->list.type[i] == 0) {
          tfe_sb_printf(b,
                        "AttrValue contains invalid DataType\n\t for attr "
                        "'%s'",
                        a->name);
          return 0;
        }
        if (!tfe_dtype_is_valid(v->list.type[i])) {
          tfe_sb_printf(b,
                        "AttrValue has invalid DataType enum: %d\n\t for "
                        "attr '%s'",
                        (int)v->list.type[i], a->name);
          return 0;
        }
      }
    }
  }
  if (a->has_minimum) {
    if (!a->is_list && a->type == TF_ATTR_INT) {
      if (v->v.i < a->minimum) {
        tfe_sb_printf(b, "Value for attr '%s' of %lld must be at least minimum %lld",
                      a->name, (long long)v->v.i, (long long)a->minimum);
        return 0;
      }
    } else if (a->is_list && v->list_size < a->minimum) {
      tfe_sb_printf(b, "Length for attr '%s' of %d must be at least minimum %lld",
                    a->name, v->list_size, (long long)a->minimum);
      return 0;
    }
  }
  if (a->has_allowed) {
    if (a->type == TF_ATTR_TYPE) {
      if (!a->is_list) return allowed_type(v->v.type, a, b);
      for (i = 0; i < v->list_size; i++) {
        if (!allowed_type(v->list.type[i], a, b)) return 0;
      }
    } else if (a->type == TF_ATTR_STRING) {
      if (!a->is_list) return allowed_string(v->v.s.data, v->v.s.len, a, b);
      for (i = 0; i < v->list_size; i++) {
        if (!allowed_string(v->list.s.data[i], v->list.s.len[i], a, b)) {
          return 0;
        }
      }
    }
  }
  return 1;
}

static tfe_attr_def* find_attr_mut(tfe_op_def* def, const char* name) {
  int i;
  for (i = 0; i < def->num_attrs; i++) {
    if (strcmp(def->attrs[i].name, name) == 0) return &def->attrs[i];
  }
  return NULL;
}

/* "<msg> from Input("x: T") for Op Foo" for arg reference errors. */
static int arg_ref_error(TF_Status* s, const tfe_op_def* def,
                         const tfe_arg_def* a, int is_output, tfe_strbuf* b) {
  tfe_sb_printf(b, " from %s(\"", is_output ? "Output" : "Input");
  tfe_render_arg_spec(a, b);
  tfe_sb_printf(b, "\") for Op %s", def->name);
  return fail_with(s, TF_INVALID_ARGUMENT, b);
}

/* "<msg>; in OpDef: Op<...>" for ValidateOpDef errors. */
static int opdef_error(TF_Status* s, const tfe_op_def* def, tfe_strbuf* b) {
  tfe_sb_puts(b, "; in OpDef: ");
  tfe_op_def_summarize_to(def, b);
  return fail_with(s, TF_INVALID_ARGUMENT, b);
}

/* Settles attr references of an arg and checks them. */
static int resolve_arg(tfe_op_def* def, tfe_arg_def* a, int is_output,
                       TF_Status* s) {
  tfe_strbuf b;
  const char* what = is_output ? "output" : "input";
  tfe_sb_init(&b);
  if (a->type_attr != NULL) {
    tfe_attr_def* at = find_attr_mut(def, a->type_attr);
    if (at == NULL) {
      tfe_sb_printf(&b, "Reference to unknown attr '%s'", a->type_attr);
      return arg_ref_error(s, def, a, is_output, &b);
    }
    if (at->is_list && at->type == TF_ATTR_TYPE) {
      if (a->number_attr != NULL) {
        tfe_sb_printf(&b,
                      "Can't have both number_attr and type_list_attr for %s "
                      "'%s'",
                      what, a->name);
        return opdef_error(s, def, &b);
      }
      a->type_list_attr = a->type_attr;
      a->type_attr = NULL;
      if (!at->has_minimum) {
        at->has_minimum = 1;
        at->minimum = 1;
      }
    } else if (at->is_list || at->type != TF_ATTR_TYPE) {
      tfe_sb_printf(&b,
                    "Reference to attr '%s' with type %s that isn't type or "
                    "list(type)",
                    a->type_attr, tfe_attr_kind_name(at->type, at->is_list));
      return arg_ref_error(s, def, a, is_output, &b);
    }
  }
  if (a->number_attr != NULL) {
    tfe_attr_def* at = find_attr_mut(def, a->number_attr);
    if (at == NULL) {
      tfe_sb_printf(&b, "No attr with name '%s' for %s '%s'", a->number_attr,
                    what, a->name);
      return opdef_error(s, def, &b);
    }
    if (at->is_list || at->type != TF_ATTR_INT) {
      tfe_sb_printf(&b, "Attr '%s' used as length for %s '%s' has type %s != int",
                    at->name, what, a->name,
                    tfe_attr_kind_name(at->type, at->is_list));
      return opdef_error(s, def, &b);
    }
    if (!at->has_minimum) {
      at->has_minimum = 1;
      at->minimum = 1;
    }
    if (at->minimum < 0) {
      tfe_sb_printf(&b,
                    "Attr '%s' used as length for %s '%s' must have minimum "
                    ">= 0",
                    at->name, what, a->name);
      return opdef_error(s, def, &b);
    }
  }
  if (a->type_attr == NULL && a->type_list_attr == NULL &&
      !tfe_dtype_is_valid(a->type)) {
    tfe_sb_printf(&b, "Missing type for %s '%s'", what, a->name);
    return opdef_error(s, def, &b);
  }
  if (a->type == TF_RESOURCE) def->is_stateful = 1;
  tfe_sb_free(&b);
  return 1;
}

static int validate_def(tfe_op_def* def, TF_Status* s) {
  tfe_strbuf b;
  int i, j;
  tfe_sb_init(&b);
  if (def->name == NULL || def->name[0] == '\0' || !valid_op_name(def->name)) {
    tfe_sb_printf(&b, "Invalid name: %s (Did you use CamelCase?)",
                  def->name ? def->name : "");
    return opdef_error(s, def, &b);
  }
  /* Args first: resolving them adds implicit minimums to attrs, which the
   * attr checks (defaults against minimums) must see. */
  for (i = 0; i < def->num_inputs; i++) {
    if (!resolve_arg(def, &def->inputs[i], 0, s)) return 0;
  }
  for (i = 0; i < def->num_outputs; i++) {
    if (!resolve_arg(def, &def->outputs[i], 1, s)) return 0;
  }
  for (i = 0; i < def->num_attrs; i++) {
    tfe_attr_def* a = &def->attrs[i];
    for (j = 0; j < i; j++) {
      if (strcmp(def->attrs[j].name, a->name) == 0) {
        tfe_sb_printf(&b, "Duplicate name: %s", a->name);
        return opdef_error(s, def, &b);
      }
    }
    if (tfe_dtype_from_name(a->name, strlen(a->name), NULL) &&
        strncmp(a->name, "DT_", 3) != 0) {
      tfe_sb_printf(&b, "Attr can't have name %s that matches a data type",
                    a->name);
      return opdef_error(s, def, &b);
    }
    if (a->has_minimum && a->is_list && a->minimum < 0) {
      tfe_sb_printf(&b,
                    "Attr '%s' with list type must have a non-negative "
                    "minimum, not %lld",
                    a->name, (long long)a->minimum);
      return opdef_error(s, def, &b);
    }
    if (a->has_default && !validate_value(&a->default_value, a, &b)) {
      tfe_sb_printf(&b, "\n\t in Op '%s'", def->name);
      return fail_with(s, TF_INVALID_ARGUMENT, &b);
    }
  }
  /* Arg names are unique among inputs, outputs and attrs. */
  for (i = 0; i < def->num_inputs + def->num_outputs; i++) {
    const tfe_arg_def* a = i < def->num_inputs
                               ? &def->inputs[i]
                               : &def->outputs[i - def->num_inputs];
    int dup = find_attr_mut(def, a->name) != NULL;
    for (j = 0; j < i && !dup; j++) {
      const tfe_arg_def* o = j < def->num_inputs
                                 ? &def->inputs[j]
                                 : &def->outputs[j - def->num_inputs];
      dup = strcmp(o->name, a->name) == 0;
    }
    if (dup) {
      tfe_sb_printf(&b, "Duplicate name: %s", a->name);
      return opdef_error(s, def, &b);
    }
  }
  tfe_sb_free(&b);
  return 1;
}

/* ======================================================================
 * registration and lookup
 * ====================================================================== */

int tfe_op_register(tfe_op_def* def, TF_Status* s) {
  uint64_t h;
  int rc;
  if (def == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "No op definition to register");
    return 0;
  }
  tfe_ops_ensure_builtins();
  if (!validate_def(def, s)) {
    tfe_op_def_free(def);
    return 0;
  }
  /* A name TF defines is taken by TF's definition (as in TF, where a
   * library registering an existing op name fails). */
  if (tfe_ops_builtins_ready()) (void)tfe_ops_generated_lookup(def->name);
  h = hash_name(def->name);
  pthread_rwlock_wrlock(&g_lock);
  if (table_find(atomic_load_explicit(&g_table, memory_order_relaxed),
                 def->name, h) != NULL) {
    pthread_rwlock_unlock(&g_lock);
    tfe_status_setf(s, TF_ALREADY_EXISTS, "Op with name %s already registered",
                    def->name);
    tfe_op_def_free(def);
    return 0;
  }
  rc = reserve_one();
  if (rc) {
    g_order[g_count++] = def;
    table_insert(atomic_load_explicit(&g_table, memory_order_relaxed), h, def);
  }
  pthread_rwlock_unlock(&g_lock);
  if (!rc) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "Out of memory while registering Op %s", def->name);
    tfe_op_def_free(def);
    return 0;
  }
  tfe_status_ok(s);
  return 1;
}

static int word_is(const char* line, const char* word) {
  size_t n = strlen(word);
  const char* p;
  if (strncmp(line, word, n) != 0) return 0;
  for (p = line + n; *p; p++) {
    if (!tfe_is_space((unsigned char)*p)) return 0;
  }
  return 1;
}

int tfe_op_register_specs(const char* name, const char* const* specs,
                          TF_Status* s) {
  tfe_op_def* def;
  int i;
  if (name == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT, "No op name given");
    return 0;
  }
  def = tfe_op_def_new(name);
  if (def == NULL) {
    tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                    "Out of memory while registering Op %s", name);
    return 0;
  }
  for (i = 0; specs != NULL && specs[i] != NULL; i++) {
    const char* line = specs[i];
    int ok;
    while (tfe_is_space((unsigned char)*line)) line++;
    if (strncmp(line, "in:", 3) == 0) {
      line += 3;
      while (tfe_is_space((unsigned char)*line)) line++;
      ok = tfe_op_def_add_input(def, line, s);
    } else if (strncmp(line, "out:", 4) == 0) {
      line += 4;
      while (tfe_is_space((unsigned char)*line)) line++;
      ok = tfe_op_def_add_output(def, line, s);
    } else if (strncmp(line, "attr:", 5) == 0) {
      line += 5;
      while (tfe_is_space((unsigned char)*line)) line++;
      ok = tfe_op_def_add_attr(def, line, s);
    } else if (word_is(line, "stateful")) {
      def->is_stateful = 1;
      ok = 1;
    } else if (word_is(line, "commutative")) {
      def->is_commutative = 1;
      ok = 1;
    } else if (word_is(line, "aggregate")) {
      def->is_aggregate = 1;
      ok = 1;
    } else if (word_is(line, "allows_uninitialized_input")) {
      def->allows_uninitialized_input = 1;
      ok = 1;
    } else if (strncmp(line, "summary:", 8) == 0) {
      line += 8;
      while (tfe_is_space((unsigned char)*line)) line++;
      tfe_free(def->summary);
      def->summary = tfe_strdup(line);
      ok = def->summary != NULL;
      if (!ok) {
        tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                        "Out of memory while registering Op %s", name);
      }
    } else {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Unrecognized spec '%s' for Op %s (expected a line "
                      "starting with in:, out: or attr:, or a flag)",
                      specs[i], name);
      ok = 0;
    }
    if (!ok) {
      tfe_op_def_free(def);
      return 0;
    }
  }
  return tfe_op_register(def, s);
}

int tfe_op_unregister(const tfe_op_def* const* defs, int n) {
  op_table *t, *nt;
  tfe_op_def** gone;
  int i, j, kept = 0, removed = 0;
  if (defs == NULL || n <= 0) return 0;
  pthread_rwlock_wrlock(&g_lock);
  t = atomic_load_explicit(&g_table, memory_order_relaxed);
  gone = (tfe_op_def**)tfe_realloc(
      g_unregistered,
      sizeof(tfe_op_def*) * (size_t)(g_unregistered_count + n));
  nt = t != NULL ? table_new(t->cap) : NULL;
  if (gone == NULL || nt == NULL) {
    if (gone != NULL) g_unregistered = gone;
    if (nt != NULL) {
      tfe_free(nt->hashes);
      tfe_free((void*)nt->slots);
      tfe_free(nt);
    }
    pthread_rwlock_unlock(&g_lock);
    return 0;
  }
  g_unregistered = gone;
  for (i = 0; i < g_count; i++) {
    tfe_op_def* d = g_order[i];
    int drop = 0;
    for (j = 0; j < n && !drop; j++) drop = defs[j] == d;
    if (drop) {
      g_unregistered[g_unregistered_count++] = d;
      removed++;
    } else {
      g_order[kept++] = d;
      table_insert(nt, hash_name(d->name), d);
    }
  }
  g_count = kept;
  if (removed == 0) {
    tfe_free(nt->hashes);
    tfe_free((void*)nt->slots);
    tfe_free(nt);
  } else {
    atomic_store_explicit(&g_table, nt, memory_order_release);
    t->retired_next = g_retired;
    g_retired = t;
  }
  pthread_rwlock_unlock(&g_lock);
  return removed;
}

const tfe_op_def* tfe_op_lookup(const char* name) {
  const tfe_op_def* d;
  if (name == NULL) return NULL;
  tfe_ops_ensure_builtins();
  d = table_find(atomic_load_explicit(&g_table, memory_order_acquire), name,
                 hash_name(name));
  /* A miss consults TF's generated table (op_generated.c), which registers
   * that one op; hand-written groups registered before and win. */
  if (d == NULL && tfe_ops_builtins_ready()) d = tfe_ops_generated_lookup(name);
  return d;
}

int tfe_op_count(void) {
  int n;
  tfe_ops_ensure_builtins();
  /* Listings see every op, so the generated ones register now. */
  if (tfe_ops_builtins_ready()) tfe_ops_generated_register_all();
  pthread_rwlock_rdlock(&g_lock);
  n = g_count;
  pthread_rwlock_unlock(&g_lock);
  return n;
}

const tfe_op_def* tfe_op_at(int i) {
  const tfe_op_def* d = NULL;
  tfe_ops_ensure_builtins();
  pthread_rwlock_rdlock(&g_lock);
  if (i >= 0 && i < g_count) d = g_order[i];
  pthread_rwlock_unlock(&g_lock);
  return d;
}

const tfe_attr_def* tfe_op_def_find_attr(const tfe_op_def* def,
                                         const char* name) {
  int i;
  if (def == NULL || name == NULL) return NULL;
  for (i = 0; i < def->num_attrs; i++) {
    const char* n = def->attrs[i].name;
    if (n[0] == name[0] && strcmp(n, name) == 0) return &def->attrs[i];
  }
  return NULL;
}

/* ======================================================================
 * summaries (TF's SummarizeOpDef)
 * ====================================================================== */

static void summarize_args(const tfe_arg_def* args, int n, tfe_strbuf* b) {
  int i;
  for (i = 0; i < n; i++) {
    const tfe_arg_def* a = &args[i];
    if (i > 0) tfe_sb_puts(b, ", ");
    tfe_sb_puts(b, a->name);
    tfe_sb_putc(b, ':');
    if (a->is_ref) tfe_sb_puts(b, "Ref(");
    if (a->number_attr != NULL) {
      tfe_sb_puts(b, a->number_attr);
      tfe_sb_putc(b, '*');
    }
    if (a->type_attr != NULL) {
      tfe_sb_puts(b, a->type_attr);
    } else if (a->type_list_attr != NULL) {
      tfe_sb_puts(b, a->type_list_attr);
    } else {
      dtype_text(a->type, b);
    }
    if (a->is_ref) tfe_sb_putc(b, ')');
  }
}

void tfe_op_def_summarize_to(const tfe_op_def* def, tfe_strbuf* b) {
  int i;
  tfe_sb_printf(b, "Op<name=%s; signature=", def->name ? def->name : "");
  summarize_args(def->inputs, def->num_inputs, b);
  tfe_sb_puts(b, " -> ");
  summarize_args(def->outputs, def->num_outputs, b);
  for (i = 0; i < def->num_attrs; i++) {
    const tfe_attr_def* a = &def->attrs[i];
    tfe_sb_printf(b, "; attr=%s:%s", a->name,
                  tfe_attr_kind_name(a->type, a->is_list));
    if (a->has_default) {
      tfe_sb_puts(b, ",default=");
      tfe_attr_value_summarize(&a->default_value, b);
    }
    if (a->has_minimum) tfe_sb_printf(b, ",min=%lld", (long long)a->minimum);
    if (a->has_allowed) {
      tfe_sb_puts(b, ",allowed=");
      tfe_attr_value_summarize(&a->allowed, b);
    }
  }
  if (def->is_commutative) tfe_sb_puts(b, "; is_commutative=true");
  if (def->is_aggregate) tfe_sb_puts(b, "; is_aggregate=true");
  if (def->is_stateful) tfe_sb_puts(b, "; is_stateful=true");
  if (def->allows_uninitialized_input) {
    tfe_sb_puts(b, "; allows_uninitialized_input=true");
  }
  tfe_sb_putc(b, '>');
}

char* tfe_op_def_summarize(const tfe_op_def* def) {
  tfe_strbuf b;
  if (def == NULL) return NULL;
  tfe_sb_init(&b);
  tfe_op_def_summarize_to(def, &b);
  return tfe_sb_take(&b);
}

/* ======================================================================
 * execution-time helpers
 * ====================================================================== */

static int missing_attr_not_found(const tfe_op_def* def, const char* name,
                                  TF_Status* s) {
  tfe_status_setf(s, TF_NOT_FOUND,
                  "No attr named '%s' in NodeDef:\n\t [[{{node %s}}]]", name,
                  def->name);
  return 0;
}

static int complete_attrs(const tfe_op_def* def, tfe_attrs* attrs,
                          int borrow_names, TF_Status* s);

int tfe_op_def_complete_attrs(const tfe_op_def* def, tfe_attrs* attrs,
                              TF_Status* s) {
  return complete_attrs(def, attrs, 0, s);
}

int tfe_op_def_complete_attrs_static(const tfe_op_def* def, tfe_attrs* attrs,
                                     TF_Status* s) {
  return complete_attrs(def, attrs, 1, s);
}

static int complete_attrs(const tfe_op_def* def, tfe_attrs* attrs,
                          int borrow_names, TF_Status* s) {
  int i, j, missing = 0;
  tfe_strbuf b;
  if (def == NULL || attrs == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "tfe_op_def_complete_attrs: NULL definition or attrs");
    return 0;
  }
  /* 1. Defaults for what is not set. */
  for (i = 0; i < def->num_attrs; i++) {
    const tfe_attr_def* a = &def->attrs[i];
    tfe_attr_value v;
    if (tfe_attrs_find(attrs, a->name) != NULL) continue;
    if (!a->has_default) {
      missing++;
      continue;
    }
    if (!tfe_attr_value_copy(&v, &a->default_value) ||
        !(borrow_names ? tfe_attrs_put_static(attrs, a->name, &v)
                       : tfe_attrs_put(attrs, a->name, &v))) {
      tfe_status_setf(s, TF_RESOURCE_EXHAUSTED,
                      "Out of memory while filling attr defaults of %s",
                      def->name);
      return 0;
    }
  }
  /* 2. A missing attr that an arg needs: NOT_FOUND, as TF's signature
   * computation reports it. */
  if (missing > 0) {
    for (i = 0; i < def->num_inputs + def->num_outputs; i++) {
      const tfe_arg_def* a = i < def->num_inputs
                                 ? &def->inputs[i]
                                 : &def->outputs[i - def->num_inputs];
      const char* refs[3];
      refs[0] = a->type_attr;
      refs[1] = a->number_attr;
      refs[2] = a->type_list_attr;
      /* TF reads the number attr before the type attr. */
      if (refs[1] != NULL && tfe_attrs_find(attrs, refs[1]) == NULL) {
        return missing_attr_not_found(def, refs[1], s);
      }
      for (j = 0; j < 3; j++) {
        if (refs[j] != NULL && tfe_attrs_find(attrs, refs[j]) == NULL) {
          return missing_attr_not_found(def, refs[j], s);
        }
      }
    }
  }
  /* 3. Every attr present is checked against its definition. Empty lists
   * take the element kind of the definition. */
  tfe_sb_init(&b);
  for (i = 0; i < def->num_attrs; i++) {
    const tfe_attr_def* a = &def->attrs[i];
    tfe_attr_value* v = (tfe_attr_value*)tfe_attrs_find(attrs, a->name);
    if (v == NULL) continue;
    if (v->is_list && a->is_list && v->list_size == 0 && v->type != a->type) {
      tfe_attr_value_clear(v);
      v->type = a->type;
      v->is_list = 1;
    }
    if (!validate_value(v, a, &b)) {
      node_context(def, &b);
      return fail_with(s, TF_INVALID_ARGUMENT, &b);
    }
  }
  /* 4. Attrs without a value and without a default. */
  if (missing > 0) {
    int k = 0;
    tfe_sb_printf(&b, "NodeDef missing attr%s '", missing == 1 ? "" : "s");
    for (i = 0; i < def->num_attrs; i++) {
      if (tfe_attrs_find(attrs, def->attrs[i].name) != NULL) continue;
      if (k++ > 0) tfe_sb_puts(&b, "', '");
      tfe_sb_puts(&b, def->attrs[i].name);
    }
    tfe_sb_puts(&b, "' from ");
    tfe_op_def_summarize_to(def, &b);
    tfe_sb_printf(&b, "; NodeDef: {{node %s}}", def->name);
    return fail_with(s, TF_INVALID_ARGUMENT, &b);
  }
  tfe_sb_free(&b);
  tfe_status_ok(s);
  return 1;
}

int tfe_op_def_arg_length(const tfe_op_def* def, const tfe_arg_def* arg,
                          const tfe_attrs* attrs, int* len, TF_Status* s) {
  const tfe_attr_value* v;
  if (def == NULL || arg == NULL || len == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "tfe_op_def_arg_length: NULL argument");
    return 0;
  }
  if (arg->number_attr != NULL) {
    v = tfe_attrs_find(attrs, arg->number_attr);
    if (v == NULL) return missing_attr_not_found(def, arg->number_attr, s);
    if (v->is_list || v->type != TF_ATTR_INT) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "AttrValue had value with type '%s' when 'int' "
                      "expected\n\t for attr '%s'",
                      tfe_attr_kind_name(v->type, v->is_list),
                      arg->number_attr);
      return 0;
    }
    /* TF reads a number attr as an int32 (GetNodeAttr's range check),
     * then refuses a negative length. */
    if (!tfe_fits_int32(v->v.i)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, TFE_ATTR_INT32_RANGE_FMT,
                      arg->number_attr, (long long)v->v.i);
      return 0;
    }
    if (v->v.i < 0) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "Value for attr '%s' of %lld is not a valid length for "
                      "arg '%s' of %s",
                      arg->number_attr, (long long)v->v.i, arg->name,
                      def->name);
      return 0;
    }
    *len = (int)v->v.i;
  } else if (arg->type_list_attr != NULL) {
    v = tfe_attrs_find(attrs, arg->type_list_attr);
    if (v == NULL) return missing_attr_not_found(def, arg->type_list_attr, s);
    if (!v->is_list || (v->type != TF_ATTR_TYPE && v->list_size > 0)) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "AttrValue had value with type '%s' when 'list(type)' "
                      "expected\n\t for attr '%s'",
                      tfe_attr_kind_name(v->type, v->is_list),
                      arg->type_list_attr);
      return 0;
    }
    *len = v->list_size;
  } else {
    *len = 1;
  }
  tfe_status_ok(s);
  return 1;
}

int tfe_op_def_arg_dtype(const tfe_op_def* def, const tfe_arg_def* arg,
                         const tfe_attrs* attrs, int k, TF_DataType* out,
                         TF_Status* s) {
  int len;
  const tfe_attr_value* v;
  if (out == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "tfe_op_def_arg_dtype: NULL argument");
    return 0;
  }
  if (!tfe_op_def_arg_length(def, arg, attrs, &len, s)) return 0;
  if (k < 0 || k >= len) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "Index %d out of range for arg '%s' of %s with %d "
                    "element(s)",
                    k, arg->name, def->name, len);
    return 0;
  }
  if (arg->type_list_attr != NULL) {
    v = tfe_attrs_find(attrs, arg->type_list_attr);
    *out = v->list.type[k];
  } else if (arg->type_attr != NULL) {
    v = tfe_attrs_find(attrs, arg->type_attr);
    if (v == NULL) return missing_attr_not_found(def, arg->type_attr, s);
    if (v->is_list || v->type != TF_ATTR_TYPE) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT,
                      "AttrValue had value with type '%s' when 'type' "
                      "expected\n\t for attr '%s'",
                      tfe_attr_kind_name(v->type, v->is_list), arg->type_attr);
      return 0;
    }
    *out = v->v.type;
  } else {
    *out = arg->type;
  }
  tfe_status_ok(s);
  return 1;
}

int tfe_op_def_output_types(const tfe_op_def* def, const tfe_attrs* attrs,
                            TF_DataType* types, int cap, int* num_outputs,
                            TF_Status* s) {
  int i, k, total = 0;
  if (def == NULL || num_outputs == NULL) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "tfe_op_def_output_types: NULL argument");
    return 0;
  }
  /* Count first, so that a short array still learns how many it needs. */
  for (i = 0; i < def->num_outputs; i++) {
    int len;
    if (!tfe_op_def_arg_length(def, &def->outputs[i], attrs, &len, s)) {
      return 0;
    }
    if (len > 0x7fffffff - total) {
      tfe_status_setf(s, TF_INVALID_ARGUMENT, "Too many outputs for %s",
                      def->name);
      return 0;
    }
    total += len;
  }
  *num_outputs = total;
  if (types == NULL) {
    tfe_status_ok(s);
    return 1;
  }
  if (total > cap) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "%s has %d outputs but room was given for %d", def->name,
                    total, cap);
    return 0;
  }
  total = 0;
  for (i = 0; i < def->num_outputs; i++) {
    int len;
    if (!tfe_op_def_arg_length(def, &def->outputs[i], attrs, &len, s)) {
      return 0;
    }
    for (k = 0; k < len; k++) {
      if (!tfe_op_def_arg_dtype(def, &def->outputs[i], attrs, k,
                                &types[total + k], s)) {
        return 0;
      }
    }
    total += len;
  }
  tfe_status_ok(s);
  return 1;
}
