/* Static shape inference: the dispatcher (rule lookup cached on the op
 * definition), the helpers the rules in shape_infer_rules_*.c are written
 * with, TF's error context, and plugin shape functions. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/status_internal.h"
#include "ops/capi_shape_internal.h"
#include "ops/ops_internal.h"
#include "ops/shape_infer_internal.h"

/* ------------------------------------------------------------------------
 * Rule lookup: one open-addressing table over every family's entries,
 * built once; the entry found for a definition is cached in
 * def->shape_rule so later calls for the same op cost one load. */

#define SI_SLOTS 8192 /* power of two, well above the number of rules */

static const si_rule* g_slots[SI_SLOTS];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
/* Cached in def->shape_rule when no entry exists. */
static const si_rule k_no_rule = {"", NULL};

static uint32_t name_hash(const char* s) {
  uint32_t h = 2166136261u;
  while (*s != '\0') {
    h ^= (unsigned char)*s++;
    h *= 16777619u;
  }
  return h;
}

static void add_table(const si_rule* t) {
  for (; t->op != NULL; t++) {
    uint32_t h = name_hash(t->op) & (SI_SLOTS - 1);
    while (g_slots[h] != NULL) {
      if (strcmp(g_slots[h]->op, t->op) == 0) break; /* first one wins */
      h = (h + 1) & (SI_SLOTS - 1);
    }
    if (g_slots[h] == NULL) g_slots[h] = t;
  }
}

static void build_tables(void) {
  add_table(si_rules_elementwise);
  add_table(si_rules_math);
  add_table(si_rules_array);
  add_table(si_rules_nn);
  add_table(si_rules_misc);
  add_table(si_rules_io);
  add_table(si_rules_regex);
  add_table(si_rules_text);
  add_table(si_rules_lookup);
  add_table(si_rules_image);
  add_table(si_rules_array_extra);
  add_table(si_rules_math_special);
  add_table(si_rules_nn_extra);
  add_table(si_rules_random_dist);
  add_table(si_rules_parsing);
  add_table(si_rules_signal);
  add_table(si_rules_linalg_extra);
  add_table(si_rules_nn_grad);
  add_table(si_rules_train_apply);
  add_table(si_rules_sparse);
  add_table(si_rules_containers);
  add_table(si_rules_misc18);
  add_table(si_rules_quant);
  add_table(si_rules_image_codec);
  add_table(si_rules_s9);
  /* Last: generic rules for TF's generated definitions; every hand-written
   * table above wins. */
  add_table(si_rules_generated);
}

const si_rule* si_find_rule(const char* op) {
  uint32_t h;
  if (op == NULL) return NULL;
  pthread_once(&g_once, build_tables);
  h = name_hash(op) & (SI_SLOTS - 1);
  while (g_slots[h] != NULL) {
    if (strcmp(g_slots[h]->op, op) == 0) return g_slots[h];
    h = (h + 1) & (SI_SLOTS - 1);
  }
  return NULL;
}

static const si_rule* rule_for(const tfe_op_def* def) {
  const si_rule* r;
  const void* cached = __atomic_load_n(&def->shape_rule, __ATOMIC_ACQUIRE);
  if (cached != NULL) {
    r = (const si_rule*)cached;
    return r == &k_no_rule ? NULL : r;
  }
  r = si_find_rule(def->name);
  /* Rules belong to registered ops: a definition that is not the
   * registry's (a function's signature that happens to share a name) has
   * none. */
  if (r != NULL && tfe_op_lookup(def->name) != def) r = NULL;
  /* Racing threads store the same value; the cache is the only field of a
   * registered definition that changes after registration. */
  __atomic_store_n(&((tfe_op_def*)def)->shape_rule,
                   (const void*)(r != NULL ? r : &k_no_rule),
                   __ATOMIC_RELEASE);
  return r;
}

int tfe_shape_infer_known(const tfe_op_def* def) {
  const si_rule* r;
  if (def == NULL) return 0;
  if (def->shape_fn != NULL) return 1;
  r = rule_for(def);
  return r != NULL && r->fn != NULL;
}

/* ------------------------------------------------------------------------
 * Errors */

int si_err(si_ctx* c, const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  TF_SetStatus(c->s, TF_INVALID_ARGUMENT, buf);
  return 0;
}

int si_err_context(si_ctx* c, const char* fmt, ...) {
  char extra[512];
  tfe_strbuf b;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(extra, sizeof extra, fmt, ap);
  va_end(ap);
  tfe_sb_init(&b);
  tfe_sb_puts(&b, TF_Message(c->s));
  tfe_sb_puts(&b, "\n\t");
  tfe_sb_puts(&b, extra);
  if (!b.oom) TF_SetStatus(c->s, TF_GetCode(c->s), tfe_sb_str(&b));
  tfe_sb_free(&b);
  return 0;
}

/* ------------------------------------------------------------------------
 * Inputs */

int si_num_inputs(const si_ctx* c) { return c->a->num_inputs; }
int si_num_outputs(const si_ctx* c) { return c->a->num_outputs; }

void si_from_tfe(si_sh* dst, const tfe_shape* src) {
  int i;
  if (src == NULL || src->num_dims < 0 || src->num_dims > SI_MAX_RANK) {
    dst->rank = -1;
    return;
  }
  dst->rank = src->num_dims;
  for (i = 0; i < src->num_dims; i++) {
    int64_t d = src->dims != NULL ? src->dims[i] : -1;
    dst->d[i] = d < 0 ? -1 : d;
  }
}

void si_in(const si_ctx* c, int i, si_sh* out) {
  if (i < 0 || i >= c->a->num_inputs || c->a->input_shapes == NULL) {
    out->rank = -1;
    return;
  }
  si_from_tfe(out, &c->a->input_shapes[i]);
}

int si_in_rank(const si_ctx* c, int i) {
  if (i < 0 || i >= c->a->num_inputs || c->a->input_shapes == NULL) {
    return -1;
  }
  return c->a->input_shapes[i].num_dims < 0 ? -1
                                             : c->a->input_shapes[i].num_dims;
}

void si_in_handle(const si_ctx* c, int i, si_sh* out) {
  if (i < 0 || i >= c->a->num_inputs || c->a->input_handle_shapes == NULL) {
    out->rank = -1;
    return;
  }
  si_from_tfe(out, &c->a->input_handle_shapes[i]);
}

TF_DataType si_in_type(const si_ctx* c, int i) {
  if (i < 0 || i >= c->a->num_inputs || c->a->input_types == NULL) {
    return (TF_DataType)0;
  }
  return c->a->input_types[i];
}

TF_Tensor* si_value(si_ctx* c, int i) {
  TF_Tensor* t;
  if (i < 0 || i >= c->a->num_inputs || c->a->input_values == NULL) {
    return NULL;
  }
  t = c->a->input_values[i];
  if (t != NULL && i < 64) c->used_values |= (uint64_t)1 << i;
  return t;
}

int si_value_ints(si_ctx* c, int i, int64_t* vals, int cap) {
  TF_Tensor* t = si_value(c, i);
  int64_t n, k;
  const void* data;
  if (t == NULL) return -1;
  n = TF_TensorElementCount(t);
  if (n < 0 || n > cap) return -1;
  data = TF_TensorData(t);
  if (n > 0 && data == NULL) return -1;
  if (TF_TensorType(t) == TF_INT32) {
    for (k = 0; k < n; k++) vals[k] = ((const int32_t*)data)[k];
  } else if (TF_TensorType(t) == TF_INT64) {
    for (k = 0; k < n; k++) vals[k] = ((const int64_t*)data)[k];
  } else if (TF_TensorType(t) == TF_INT16) {
    for (k = 0; k < n; k++) vals[k] = ((const int16_t*)data)[k];
  } else {
    return -1;
  }
  return (int)n;
}

int si_value_scalar(si_ctx* c, int i, int64_t* v) {
  return si_value_ints(c, i, v, 1) == 1;
}

int si_shape_from_tensor(si_ctx* c, int i, si_sh* out) {
  si_sh in;
  int64_t vals[SI_MAX_RANK];
  TF_Tensor* t;
  int n, k;
  si_in(c, i, &in);
  if (!si_with_rank(c, &in, 1, &in)) return 0;
  t = si_value(c, i);
  if (t != NULL) {
    if (TF_NumDims(t) != 1) {
      return si_err(c, "Input tensor must be rank 1, but was rank %d",
                    TF_NumDims(t));
    }
    if (TF_TensorType(t) != TF_INT32 && TF_TensorType(t) != TF_INT64) {
      return si_err(c, "Input tensor must be int32 or int64, but was %s",
                    tfe_dtype_enum_name(TF_TensorType(t)));
    }
    n = si_value_ints(c, i, vals, SI_MAX_RANK);
    if (n < 0) {
      si_unknown(out); /* beyond TF's rank limit */
      return 1;
    }
    out->rank = n;
    for (k = 0; k < n; k++) {
      if (vals[k] < -1) {
        return si_err(c, "Invalid value in tensor used for shape: %lld",
                      (long long)vals[k]);
      }
      out->d[k] = vals[k];
    }
    return 1;
  }
  if (c->a->input_as_shapes != NULL && i < c->a->num_inputs &&
      c->a->input_as_shapes[i].num_dims >= 0) {
    si_from_tfe(out, &c->a->input_as_shapes[i]);
    if (out->rank >= 0) {
      if (i < 64) c->used_as_shapes |= (uint64_t)1 << i;
      return 1;
    }
  }
  if (in.d[0] < 0 || in.d[0] > SI_MAX_RANK) {
    si_unknown(out);
  } else {
    si_unknown_of_rank(out, (int)in.d[0]);
  }
  return 1;
}

int si_dim_from_scalar(si_ctx* c, int i, int64_t* out) {
  int64_t v;
  *out = -1;
  if (!si_value_scalar(c, i, &v)) return 1;
  if (v < 0) {
    return si_err(c,
                  "Dimension size, given by scalar input %d, must be "
                  "non-negative but is %lld",
                  i, (long long)v);
  }
  *out = v;
  return 1;
}

/* ------------------------------------------------------------------------
 * Attrs */

const tfe_attr_value* si_attr(const si_ctx* c, const char* name) {
  return c->a->attrs != NULL ? tfe_attrs_find(c->a->attrs, name) : NULL;
}

int64_t si_attr_int(const si_ctx* c, const char* name, int64_t dflt) {
  const tfe_attr_value* v = si_attr(c, name);
  return v != NULL && !v->is_list && v->type == TF_ATTR_INT ? v->v.i : dflt;
}

int si_attr_bool(const si_ctx* c, const char* name, int dflt) {
  const tfe_attr_value* v = si_attr(c, name);
  return v != NULL && !v->is_list && v->type == TF_ATTR_BOOL ? v->v.b != 0
                                                             : dflt;
}

TF_DataType si_attr_type(const si_ctx* c, const char* name) {
  const tfe_attr_value* v = si_attr(c, name);
  return v != NULL && !v->is_list && v->type == TF_ATTR_TYPE
             ? v->v.type
             : (TF_DataType)0;
}

const char* si_attr_str(const si_ctx* c, const char* name, const char* dflt) {
  const tfe_attr_value* v = si_attr(c, name);
  return v != NULL && !v->is_list && v->type == TF_ATTR_STRING
             ? v->v.s.data
             : dflt;
}

int si_attr_int32(si_ctx* c, const char* name, int64_t dflt, int64_t* out) {
  int64_t v = si_attr_int(c, name, dflt);
  if (v > INT32_MAX || v < INT32_MIN) {
    return si_err(c, "Attr %s has value %lld out of range for an int32", name,
                  (long long)v);
  }
  *out = v;
  return 1;
}

int si_attr_ints32(si_ctx* c, const char* name) {
  int n, i;
  const int64_t* v = si_attr_ints(c, name, &n);
  for (i = 0; i < n; i++) {
    if (v[i] > INT32_MAX || v[i] < INT32_MIN) {
      return si_err(c, "Attr %s has value %lld out of range for an int32",
                    name, (long long)v[i]);
    }
  }
  return 1;
}

const int64_t* si_attr_ints(const si_ctx* c, const char* name, int* n) {
  const tfe_attr_value* v = si_attr(c, name);
  *n = 0;
  if (v == NULL || !v->is_list) return NULL;
  if (v->list_size > 0 && v->type != TF_ATTR_INT) return NULL;
  *n = v->list_size;
  return v->list.i;
}

/* ------------------------------------------------------------------------
 * Shapes */

void si_unknown(si_sh* s) { s->rank = -1; }

void si_unknown_of_rank(si_sh* s, int rank) {
  int i;
  if (rank < 0 || rank > SI_MAX_RANK) {
    s->rank = -1;
    return;
  }
  s->rank = rank;
  for (i = 0; i < rank; i++) s->d[i] = -1;
}

void si_scalar(si_sh* s) { s->rank = 0; }

void si_vector(si_sh* s, int64_t d) {
  s->rank = 1;
  s->d[0] = d < 0 ? -1 : d;
}

void si_matrix(si_sh* s, int64_t d0, int64_t d1) {
  s->rank = 2;
  s->d[0] = d0 < 0 ? -1 : d0;
  s->d[1] = d1 < 0 ? -1 : d1;
}

int si_fully_defined(const si_sh* s) {
  int i;
  if (s->rank < 0) return 0;
  for (i = 0; i < s->rank; i++) {
    if (s->d[i] < 0) return 0;
  }
  return 1;
}

int64_t si_num_elements(const si_sh* s) {
  int i;
  int64_t n = 1;
  if (s->rank < 0) return -1;
  for (i = 0; i < s->rank; i++) {
    if (s->d[i] < 0) return -1;
    if (s->d[i] != 0 && n > INT64_MAX / s->d[i]) return -1;
    n *= s->d[i];
  }
  return n;
}

static void sh_copy(si_sh* dst, const si_sh* src) {
  if (dst == src) return;
  dst->rank = src->rank;
  if (src->rank > 0) {
    memcpy(dst->d, src->d, sizeof(int64_t) * (size_t)src->rank);
  }
}

int si_with_rank(si_ctx* c, const si_sh* in, int rank, si_sh* out) {
  if (in->rank == rank) {
    sh_copy(out, in);
    return 1;
  }
  if (in->rank < 0) {
    si_unknown_of_rank(out, rank);
    return 1;
  }
  return si_err(c, "Shape must be rank %d but is rank %d", rank, in->rank);
}

int si_with_rank_at_least(si_ctx* c, const si_sh* in, int rank, si_sh* out) {
  if (in->rank < 0 || in->rank >= rank) {
    sh_copy(out, in);
    return 1;
  }
  return si_err(c, "Shape must be at least rank %d but is rank %d", rank,
                in->rank);
}

int si_with_rank_at_most(si_ctx* c, const si_sh* in, int rank, si_sh* out) {
  if (in->rank < 0 || in->rank <= rank) {
    sh_copy(out, in);
    return 1;
  }
  return si_err(c, "Shape must be at most rank %d but is rank %d", rank,
                in->rank);
}

int si_with_value(si_ctx* c, int64_t dim, int64_t value, int64_t* out) {
  if (dim < 0 || dim == value) {
    if (out != NULL) *out = value;
    return 1;
  }
  return si_err(c, "Dimension must be %lld but is %lld", (long long)value,
                (long long)dim);
}

int si_merge_dim(si_ctx* c, int64_t a, int64_t b, int64_t* out) {
  if (b < 0 || a == b) {
    if (out != NULL) *out = a;
    return 1;
  }
  if (a < 0) {
    if (out != NULL) *out = b;
    return 1;
  }
  return si_err(c, "Dimensions must be equal, but are %lld and %lld",
                (long long)a, (long long)b);
}

int si_merge(si_ctx* c, si_sh* a, const si_sh* b) {
  int i;
  if (b->rank < 0) return 1;
  if (a->rank < 0) {
    sh_copy(a, b);
    return 1;
  }
  if (a->rank != b->rank) {
    return si_err(c, "Shapes must be equal rank, but are %d and %d", a->rank,
                  b->rank);
  }
  for (i = 0; i < a->rank; i++) {
    if (a->d[i] >= 0 && b->d[i] >= 0 && a->d[i] != b->d[i]) {
      return si_err(c,
                    "Dimension %d in both shapes must be equal, but are "
                    "%lld and %lld",
                    i, (long long)a->d[i], (long long)b->d[i]);
    }
  }
  for (i = 0; i < a->rank; i++) {
    if (a->d[i] < 0) a->d[i] = b->d[i];
  }
  return 1;
}

int si_merge_prefix(si_ctx* c, si_sh* s, si_sh* prefix) {
  int i;
  if (s->rank < 0 || prefix->rank < 0) return 1;
  if (!si_with_rank_at_least(c, s, prefix->rank, s)) return 0;
  for (i = 0; i < prefix->rank; i++) {
    int64_t m = -1;
    if (!si_merge_dim(c, s->d[i], prefix->d[i], &m)) return 0;
    s->d[i] = m;
    prefix->d[i] = m;
  }
  return 1;
}

int si_subshape(si_ctx* c, const si_sh* s, int64_t start_in, int64_t end_in,
                si_sh* out) {
  int64_t start = start_in, end = end_in, rank = s->rank;
  int64_t i;
  if (start == 0 && (end == INT64_MAX || (rank >= 0 && end >= rank))) {
    sh_copy(out, s);
    return 1;
  }
  if (rank < 0) {
    si_unknown(out);
    return 1;
  }
  if (start > rank) start = rank;
  if (end > rank) end = rank;
  if (start < 0) {
    start += rank;
    if (start < 0) {
      return si_err(c,
                    "Subshape start out of bounds: %lld, for shape with rank "
                    "%lld",
                    (long long)start_in, (long long)rank);
    }
  }
  if (end < 0) {
    end += rank;
    if (end < 0) {
      return si_err(c,
                    "Subshape end out of bounds: %lld, for shape with rank "
                    "%lld",
                    (long long)end_in, (long long)rank);
    }
  }
  if (start > end) {
    return si_err(c,
                  "Subshape must have computed start <= end, but is %lld and "
                  "%lld (computed from start %lld and end %lld over shape "
                  "with rank %lld)",
                  (long long)start, (long long)end, (long long)start_in,
                  (long long)end_in, (long long)rank);
  }
  for (i = start; i < end; i++) out->d[i - start] = s->d[i];
  out->rank = (int)(end - start);
  return 1;
}

void si_concat(si_sh* a, const si_sh* b) {
  int i;
  if (a->rank < 0 || b->rank < 0 || a->rank + b->rank > SI_MAX_RANK) {
    a->rank = -1;
    return;
  }
  for (i = 0; i < b->rank; i++) a->d[a->rank + i] = b->d[i];
  a->rank += b->rank;
}

void si_append_dim(si_sh* a, int64_t d) {
  if (a->rank < 0) return;
  if (a->rank >= SI_MAX_RANK) {
    a->rank = -1;
    return;
  }
  a->d[a->rank++] = d < 0 ? -1 : d;
}

int si_dim_add(si_ctx* c, int64_t a, int64_t b, int64_t* out) {
  if (b == 0) {
    *out = a;
  } else if (a == 0) {
    *out = b;
  } else if (a < 0 || b < 0) {
    *out = -1;
  } else {
    if (a > INT64_MAX - b) {
      return si_err(c, "Dimension size overflow from adding %lld and %lld",
                    (long long)a, (long long)b);
    }
    *out = a + b;
  }
  return 1;
}

int si_dim_sub(si_ctx* c, int64_t a, int64_t b, int64_t* out) {
  if (b == 0) {
    *out = a;
  } else if (a < 0 || b < 0) {
    *out = -1;
  } else if (a < b) {
    return si_err(c,
                  "Negative dimension size caused by subtracting %lld from "
                  "%lld",
                  (long long)b, (long long)a);
  } else {
    *out = a - b;
  }
  return 1;
}

int si_dim_mul(si_ctx* c, int64_t a, int64_t b, int64_t* out) {
  if (a == 0 || b == 0) {
    *out = 0;
  } else if (a == 1) {
    *out = b;
  } else if (b == 1) {
    *out = a;
  } else if (a < 0 || b < 0) {
    *out = -1;
  } else {
    if (a > INT64_MAX / b) {
      return si_err(c,
                    "Negative dimension size caused by overflow when "
                    "multiplying %lld and %lld",
                    (long long)a, (long long)b);
    }
    *out = a * b;
  }
  return 1;
}

int si_dim_div(si_ctx* c, int64_t a, int64_t b, int evenly, int64_t* out) {
  if (b == 1) {
    *out = a;
    return 1;
  }
  if (b < 0) {
    *out = -1;
    return 1;
  }
  if (b == 0) return si_err(c, "Divisor must be positive but is 0");
  if (a < 0) {
    *out = -1;
    return 1;
  }
  if (evenly && a % b != 0) {
    return si_err(c,
                  "Dimension size must be evenly divisible by %lld but is "
                  "%lld",
                  (long long)b, (long long)a);
  }
  *out = a / b;
  return 1;
}

int si_broadcast(si_ctx* c, const si_sh* x, const si_sh* y,
                 int incompatible_error, si_sh* out) {
  int rx = x->rank, ry = y->rank, ro, i;
  int64_t dims[SI_MAX_RANK];
  if (rx < 0 || ry < 0) {
    si_unknown(out);
    return 1;
  }
  ro = rx > ry ? rx : ry;
  for (i = 0; i < ro; i++) {
    int y_pad = i < ro - ry;
    int64_t dx = i < ro - rx ? 1 : x->d[i - (ro - rx)];
    int64_t dy = y_pad ? 1 : y->d[i - (ro - ry)];
    if (dx < 0 || dy < 0) {
      if (dx > 1 || dy > 1) {
        if (!incompatible_error) {
          si_unknown(out);
          return 1;
        }
        dims[i] = dx > 1 ? dx : dy;
      } else if (dx == 1) {
        dims[i] = dy;
      } else if (dy == 1) {
        dims[i] = dx;
      } else {
        /* Both unknown: TF keeps the dim only when it is the same handle,
         * which a static graph cannot tell apart; it is unknown. */
        if (!incompatible_error) {
          si_unknown(out);
          return 1;
        }
        dims[i] = -1;
      }
    } else if (dx == 1 || dy == 1) {
      dims[i] = (dx == 1 && !y_pad) ? dy : dx;
    } else if (dx != dy) {
      if (!incompatible_error) {
        si_scalar(out);
        return 1;
      }
      return si_err(c, "Dimensions must be equal, but are %lld and %lld",
                    (long long)dx, (long long)dy);
    } else {
      dims[i] = dx;
    }
  }
  out->rank = ro;
  if (ro > 0) memcpy(out->d, dims, sizeof(int64_t) * (size_t)ro);
  return 1;
}

void si_debug_string(const si_sh* s, char* buf, size_t cap) {
  size_t len = 0;
  int i;
  if (cap < 8) {
    if (cap > 0) buf[0] = '\0';
    return;
  }
  if (s->rank < 0) {
    snprintf(buf, cap, "?");
    return;
  }
  buf[len++] = '[';
  for (i = 0; i < s->rank; i++) {
    char tmp[24];
    int n = s->d[i] < 0 ? snprintf(tmp, sizeof tmp, "?")
                        : snprintf(tmp, sizeof tmp, "%lld",
                                   (long long)s->d[i]);
    if (len + (size_t)n + 6 >= cap) {
      memcpy(buf + len, "...", 3);
      len += 3;
      break;
    }
    if (i > 0) buf[len++] = ',';
    memcpy(buf + len, tmp, (size_t)n);
    len += (size_t)n;
  }
  buf[len++] = ']';
  buf[len] = '\0';
}

/* ------------------------------------------------------------------------
 * Outputs */

/* Output i's room in a->out_dims_inline, or NULL. */
static int64_t* inline_dims(const tfe_shape_infer_args* a, int i) {
  if (a->out_dims_inline == NULL || a->out_dims_inline_cap <= 0) return NULL;
  return a->out_dims_inline + (size_t)i * (size_t)a->out_dims_inline_cap;
}

/* Frees output i's dims unless they are its inline room. */
static void free_out_dims(const tfe_shape_infer_args* a, int i,
                          int64_t* dims) {
  if (dims != NULL && dims != inline_dims(a, i)) tfe_free(dims);
}

static int set_dims(si_ctx* c, int i, int rank, const int64_t* dims) {
  tfe_shape* o;
  int64_t* nd = NULL;
  int64_t* room;
  if (i < 0 || i >= c->a->num_outputs) return 1; /* no such output */
  o = &c->out[i];
  room = inline_dims(c->a, i);
  if (rank > 0 && room != NULL && rank <= c->a->out_dims_inline_cap) {
    int k;
    /* In place: dims may be this very room (k-th read before written). */
    for (k = 0; k < rank; k++) {
      room[k] = dims != NULL ? (dims[k] < 0 ? -1 : dims[k]) : -1;
    }
    if (o->dims != room) free_out_dims(c->a, i, o->dims);
    o->dims = room;
    o->num_dims = rank;
    return 1;
  }
  if (rank > 0) {
    nd = (int64_t*)tfe_malloc(sizeof(int64_t) * (size_t)rank);
    if (nd == NULL) {
      tfe_status_setf(c->s, TF_RESOURCE_EXHAUSTED,
                      "shape inference: out of memory");
      return 0;
    }
    if (dims != NULL) {
      int k;
      for (k = 0; k < rank; k++) nd[k] = dims[k] < 0 ? -1 : dims[k];
    } else {
      int k;
      for (k = 0; k < rank; k++) nd[k] = -1;
    }
  }
  free_out_dims(c->a, i, o->dims);
  o->dims = nd;
  o->num_dims = rank < 0 ? -1 : rank;
  return 1;
}

int si_set(si_ctx* c, int i, const si_sh* s) {
  return set_dims(c, i, s->rank, s->d);
}

int si_set_input(si_ctx* c, int out_i, int in_i) {
  const tfe_shape* in;
  if (in_i < 0 || in_i >= c->a->num_inputs || c->a->input_shapes == NULL) {
    return set_dims(c, out_i, -1, NULL);
  }
  in = &c->a->input_shapes[in_i];
  return set_dims(c, out_i, in->num_dims < 0 ? -1 : in->num_dims, in->dims);
}

int si_set_scalar(si_ctx* c, int i) { return set_dims(c, i, 0, NULL); }

int si_set_vector(si_ctx* c, int i, int64_t d) {
  return set_dims(c, i, 1, &d);
}

int si_set_from_attr_shape(si_ctx* c, int i, const tfe_shape* s) {
  if (s == NULL || s->num_dims < 0) return set_dims(c, i, -1, NULL);
  return set_dims(c, i, s->num_dims, s->dims);
}

/* ------------------------------------------------------------------------
 * Common rules */

int si_rule_unknown(si_ctx* c) {
  (void)c;
  return 1;
}

int si_rule_unchanged(si_ctx* c) { return si_set_input(c, 0, 0); }

int si_rule_scalar(si_ctx* c) {
  int i;
  for (i = 0; i < c->a->num_outputs; i++) {
    if (!si_set_scalar(c, i)) return 0;
  }
  return 1;
}

int si_rule_passthrough(si_ctx* c) {
  int i;
  for (i = 0; i < c->a->num_outputs && i < c->a->num_inputs; i++) {
    if (!si_set_input(c, i, i)) return 0;
  }
  return 1;
}

int si_rule_merge_both(si_ctx* c) {
  si_sh a, b;
  si_in(c, 0, &a);
  si_in(c, 1, &b);
  if (!si_merge(c, &a, &b)) return 0;
  return si_set(c, 0, &a);
}

int si_rule_broadcast(si_ctx* c) {
  si_sh x, y, o;
  int incompatible = si_attr_bool(c, "incompatible_shape_error", 1);
  si_in(c, 0, &x);
  si_in(c, 1, &y);
  if (!si_broadcast(c, &x, &y, incompatible, &o)) return 0;
  return si_set(c, 0, &o);
}

int si_rule_shape_from_input0(si_ctx* c) {
  si_sh o;
  if (!si_shape_from_tensor(c, 0, &o)) return 0;
  return si_set(c, 0, &o);
}

int si_rule_explicit_shape(si_ctx* c) {
  const tfe_attr_value* v = si_attr(c, "shape");
  if (v == NULL || v->is_list || v->type != TF_ATTR_SHAPE) return 1;
  return si_set_from_attr_shape(c, 0, &v->v.shape);
}

/* ------------------------------------------------------------------------
 * TF's error context: " for '{{node n}} = Op[a=1, b=2](x, y)' with input
 * shapes: [2,3], ?[, and with computed input tensors: input[1] = <1 2>]." */

static int cmp_entry(const void* x, const void* y) {
  const tfe_attr_entry* a = *(const tfe_attr_entry* const*)x;
  const tfe_attr_entry* b = *(const tfe_attr_entry* const*)y;
  return strcmp(a->name, b->name);
}

static void summarize_value(const TF_Tensor* t, tfe_strbuf* b) {
  int64_t n = TF_TensorElementCount(t), i;
  const void* d = TF_TensorData(t);
  TF_DataType dt = TF_TensorType(t);
  for (i = 0; i < n && i < 256; i++) {
    if (i > 0) tfe_sb_putc(b, ' ');
    switch ((int)dt) {
      case TF_INT32: tfe_sb_printf(b, "%d", ((const int32_t*)d)[i]); break;
      case TF_INT64:
        tfe_sb_printf(b, "%lld", (long long)((const int64_t*)d)[i]);
        break;
      case TF_FLOAT: {
        char f[40];
        tfe_float_to_text(((const float*)d)[i], f, sizeof f);
        tfe_sb_puts(b, f);
        break;
      }
      case TF_DOUBLE: tfe_sb_printf(b, "%.17g", ((const double*)d)[i]); break;
      case TF_BOOL:
        tfe_sb_puts(b, ((const unsigned char*)d)[i] ? "1" : "0");
        break;
      default: tfe_sb_puts(b, "?"); break;
    }
  }
  if (n > 256) tfe_sb_puts(b, "...");
}

static void attach_context(si_ctx* c, const char* node_name) {
  const tfe_shape_infer_args* a = c->a;
  tfe_strbuf b;
  const tfe_attr_entry* stack_items[32];
  const tfe_attr_entry** items = stack_items;
  int i, n = a->attrs != NULL ? a->attrs->count : 0, first;
  char shape_buf[256];
  tfe_sb_init(&b);
  tfe_sb_puts(&b, TF_Message(c->s));
  tfe_sb_puts(&b, " for '{{node ");
  tfe_sb_puts(&b, node_name != NULL ? node_name : a->def->name);
  tfe_sb_puts(&b, "}} = ");
  tfe_sb_puts(&b, a->def->name);
  tfe_sb_putc(&b, '[');
  if (n > 32) {
    items = (const tfe_attr_entry**)tfe_malloc(sizeof(*items) * (size_t)n);
    if (items == NULL) n = 0;
  }
  for (i = 0; i < n; i++) items[i] = &a->attrs->items[i];
  if (n > 1) qsort(items, (size_t)n, sizeof(*items), cmp_entry);
  for (i = 0; i < n; i++) {
    if (i > 0) tfe_sb_puts(&b, ", ");
    tfe_sb_puts(&b, items[i]->name);
    tfe_sb_putc(&b, '=');
    tfe_attr_value_summarize(&items[i]->value, &b);
  }
  if (items != stack_items) tfe_free((void*)items);
  tfe_sb_putc(&b, ']');
  if (a->input_names != NULL) {
    tfe_sb_putc(&b, '(');
    for (i = 0; i < a->num_inputs; i++) {
      if (i > 0) tfe_sb_puts(&b, ", ");
      tfe_sb_puts(&b, a->input_names[i] != NULL ? a->input_names[i] : "");
    }
    tfe_sb_putc(&b, ')');
  }
  tfe_sb_puts(&b, "' with input shapes: ");
  for (i = 0; i < a->num_inputs; i++) {
    si_sh sh;
    si_in(c, i, &sh);
    si_debug_string(&sh, shape_buf, sizeof shape_buf);
    if (i > 0) tfe_sb_puts(&b, ", ");
    tfe_sb_puts(&b, shape_buf);
  }
  first = 1;
  for (i = 0; i < a->num_inputs && i < 64; i++) {
    if ((c->used_values & ((uint64_t)1 << i)) == 0) continue;
    tfe_sb_puts(&b, first ? ", and with computed input tensors: " : ", ");
    first = 0;
    tfe_sb_printf(&b, "input[%d] = <", i);
    summarize_value(a->input_values[i], &b);
    tfe_sb_putc(&b, '>');
  }
  first = 1;
  for (i = 0; i < a->num_inputs && i < 64; i++) {
    si_sh sh;
    if ((c->used_as_shapes & ((uint64_t)1 << i)) == 0) continue;
    tfe_sb_puts(&b, first ? ", and with input tensors computed as partial "
                            "shapes: "
                          : ", ");
    first = 0;
    si_from_tfe(&sh, &a->input_as_shapes[i]);
    si_debug_string(&sh, shape_buf, sizeof shape_buf);
    tfe_sb_printf(&b, "input[%d] = %s", i, shape_buf);
  }
  tfe_sb_putc(&b, '.');
  if (!b.oom) TF_SetStatus(c->s, TF_GetCode(c->s), tfe_sb_str(&b));
  tfe_sb_free(&b);
}

/* ------------------------------------------------------------------------
 * Entry point */

static void reset_outputs(const tfe_shape_infer_args* a, tfe_shape* out,
                          int n) {
  int i;
  for (i = 0; i < n; i++) {
    free_out_dims(a, i, out[i].dims);
    out[i].dims = NULL;
    out[i].num_dims = -1;
  }
}

int tfe_shape_infer(const tfe_shape_infer_args* a, const char* node_name,
                    tfe_shape* out, TF_Status* s) {
  si_ctx c;
  const si_rule* r;
  int i, ok;
  if (a == NULL || a->def == NULL || a->num_outputs < 0 ||
      a->num_inputs < 0 || (a->num_outputs > 0 && out == NULL) ||
      (a->num_inputs > 0 && a->input_shapes == NULL)) {
    tfe_status_setf(s, TF_INVALID_ARGUMENT,
                    "tfe_shape_infer: missing arguments");
    return 0;
  }
  for (i = 0; i < a->num_outputs; i++) {
    out[i].num_dims = -1;
    out[i].dims = NULL;
  }
  tfe_status_ok(s);
  if (a->def->shape_fn != NULL) {
    /* An op registered through ops.h runs its own shape function. */
    ok = tfe_run_plugin_shape_fn(a->def, a->attrs, a->num_inputs,
                                 a->input_shapes, a->num_outputs, out, s);
    if (!ok) {
      if (TF_GetCode(s) != TF_RESOURCE_EXHAUSTED) {
        c.a = a;
        c.out = out;
        c.s = s;
        c.used_values = 0;
        c.used_as_shapes = 0;
        attach_context(&c, node_name);
      }
      reset_outputs(a, out, a->num_outputs);
    }
    return ok;
  }
  r = rule_for(a->def);
  if (r == NULL || r->fn == NULL) return 1;
  for (i = 0; i < a->num_inputs; i++) {
    if (a->input_shapes[i].num_dims > SI_MAX_RANK) return 1;
  }
  c.a = a;
  c.out = out;
  c.s = s;
  c.used_values = 0;
  c.used_as_shapes = 0;
  ok = r->fn(&c);
  if (!ok) {
    if (TF_GetCode(s) == TF_OK) {
      TF_SetStatus(s, TF_INTERNAL, "shape inference failed without a status");
    }
    if (TF_GetCode(s) != TF_RESOURCE_EXHAUSTED) attach_context(&c, node_name);
    reset_outputs(a, out, a->num_outputs);
    return 0;
  }
  return 1;
}
