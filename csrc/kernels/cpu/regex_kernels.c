/* CPU kernels: regular-expression string ops (RegexFullMatch,
 * StaticRegexFullMatch, RegexReplace, StaticRegexReplace) on tfe's own
 * engine (csrc/core/regex.h), with TF's checks and messages: a pattern or
 * rewrite input that is not a scalar, and an invalid pattern
 * ("Invalid pattern: <pattern>, error: <RE2's message>"), are
 * INVALID_ARGUMENT. A pattern RE2 accepts but tfe's engine does not (see
 * docs/STRINGS.md) is UNIMPLEMENTED with the same wording.
 *
 * The static forms compile their pattern once per kernel instance (the
 * create hook), as TF compiles it when the kernel is constructed; the
 * dynamic forms keep the last pattern they compiled (per kernel instance,
 * shared by concurrent runs under a mutex, reference-counted), as TF's
 * RegexFullMatch does, so a graph feeding the same pattern every step
 * compiles it once. */
#include <pthread.h>
#include <string.h>

#include "core/alloc.h"
#include "core/regex.h"
#include "core/status_internal.h"
#include "kernels/cpu/kutil.h"
#include "ops/attr_value.h"
#include "tensorflow/c/tf_tstring.h"

void tfe_register_cpu_regex_kernels(void);

static const TF_TString* rx_sdata(const TF_Tensor* t) {
  return (const TF_TString*)kutil_data(t);
}
static TF_TString* rx_sdata_mut(TF_Tensor* t) {
  return (TF_TString*)kutil_data(t);
}

/* Compiles pattern p[0..n) or sets status with TF's message. */
static tfe_regex* rx_compile(const char* p, size_t n, TF_Status* status) {
  char err[512];
  tfe_regex_err code;
  tfe_regex* re = tfe_regex_compile(p, n, &code, err, sizeof err);
  if (re != NULL) return re;
  if (code == TFE_REGEX_ERR_NOMEM) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED,
                    "out of memory compiling a regular expression");
  } else {
    tfe_status_setf(status,
                    code == TFE_REGEX_ERR_UNSUPPORTED ? TF_UNIMPLEMENTED
                                                      : TF_INVALID_ARGUMENT,
                    "Invalid pattern: %.*s, error: %s", (int)n, p, err);
  }
  return NULL;
}

/* Scalar string input i (its data and size), or 0 with TF's message. */
static int rx_scalar_input(tfe_kernel_context* k, int i, const char* what,
                           const char** s, size_t* n) {
  const TF_Tensor* t = k->inputs[i];
  if (t->num_dims != 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%s must be scalar, but received %s",
               what, kutil_tshape(t, &b));
    return 0;
  }
  *s = TF_TString_GetDataPointer(&rx_sdata(t)[0]);
  *n = TF_TString_GetSize(&rx_sdata(t)[0]);
  return 1;
}

/* ---- the dynamic forms' cache of the last compiled pattern ---- */

typedef struct rx_cached {
  tfe_regex* re;
  char* pat;
  size_t len;
  int refs;
} rx_cached;

typedef struct rx_dyn {
  pthread_mutex_t mu;
  rx_cached* cur;
} rx_dyn;

static void rx_cached_unref(rx_cached* c) {
  if (c == NULL || --c->refs > 0) return;
  tfe_regex_free(c->re);
  tfe_free(c->pat);
  tfe_free(c);
}

static void* rx_dyn_create(const tfe_op_def* def, const tfe_attrs* attrs,
                           void* user_data, TF_Status* status) {
  rx_dyn* d = (rx_dyn*)tfe_calloc(1, sizeof *d);
  (void)attrs;
  (void)user_data;
  if (d == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                    def->name);
    return NULL;
  }
  if (pthread_mutex_init(&d->mu, NULL) != 0) {
    tfe_free(d);
    tfe_status_setf(status, TF_INTERNAL, "%s: cannot create a mutex",
                    def->name);
    return NULL;
  }
  return d;
}

static void rx_dyn_destroy(void* state, void* user_data) {
  rx_dyn* d = (rx_dyn*)state;
  (void)user_data;
  if (d == NULL) return;
  rx_cached_unref(d->cur);
  pthread_mutex_destroy(&d->mu);
  tfe_free(d);
}

/* The compiled pattern p[0..n) with one reference for the caller (release
 * with rx_dyn_release), from the cache when it holds that pattern; NULL
 * with status set when the pattern does not compile. Without a cache
 * (kernels called directly) it compiles a private copy. */
static rx_cached* rx_dyn_get(tfe_kernel_context* k, const char* p, size_t n) {
  rx_dyn* d = (rx_dyn*)k->state;
  rx_cached* c = NULL;
  if (d != NULL) {
    pthread_mutex_lock(&d->mu);
    if (d->cur != NULL && d->cur->len == n &&
        (n == 0 || memcmp(d->cur->pat, p, n) == 0)) {
      c = d->cur;
      c->refs++;
    }
    pthread_mutex_unlock(&d->mu);
    if (c != NULL) return c;
  }
  c = (rx_cached*)tfe_calloc(1, sizeof *c);
  if (c != NULL) c->pat = (char*)tfe_malloc(n + 1);
  if (c == NULL || c->pat == NULL) {
    if (c != NULL) tfe_free(c);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return NULL;
  }
  if (n > 0) memcpy(c->pat, p, n);
  c->len = n;
  c->refs = 1;
  c->re = rx_compile(p, n, k->status);
  if (c->re == NULL) {
    rx_cached_unref(c);
    return NULL;
  }
  if (d != NULL) {
    rx_cached* old;
    pthread_mutex_lock(&d->mu);
    old = d->cur;
    d->cur = c;
    c->refs++;
    if (old != NULL) rx_cached_unref(old);
    pthread_mutex_unlock(&d->mu);
  }
  return c;
}

static void rx_dyn_release(tfe_kernel_context* k, rx_cached* c) {
  rx_dyn* d = (rx_dyn*)k->state;
  if (d != NULL) pthread_mutex_lock(&d->mu);
  rx_cached_unref(c);
  if (d != NULL) pthread_mutex_unlock(&d->mu);
}

/* ---- full match ---- */

static void rx_full_match_run(tfe_kernel_context* k, const tfe_regex* re) {
  const TF_Tensor* in = k->inputs[0];
  TF_Tensor* out =
      tfe_kernel_alloc_output(k, 0, TF_BOOL, in->dims, in->num_dims);
  tfe_regex_scratch* s;
  int64_t n, i;
  if (out == NULL) return;
  n = kutil_num_elements(in);
  if (n == 0) return;
  s = tfe_regex_scratch_new(re);
  if (s == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  for (i = 0; i < n; i++) {
    const TF_TString* e = &rx_sdata(in)[i];
    int r = tfe_regex_full_match(re, s, TF_TString_GetDataPointer(e),
                                 TF_TString_GetSize(e));
    if (r < 0) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      break;
    }
    ((TF_Bool*)kutil_data(out))[i] = (TF_Bool)r;
  }
  tfe_regex_scratch_free(s);
}

static void regex_full_match_compute(tfe_kernel_context* k) {
  const char* p;
  size_t n;
  rx_cached* c;
  if (!rx_scalar_input(k, 1, "Pattern", &p, &n)) return;
  c = rx_dyn_get(k, p, n);
  if (c == NULL) return;
  rx_full_match_run(k, c->re);
  rx_dyn_release(k, c);
}

/* ---- replace ---- */

static void rx_replace_run(tfe_kernel_context* k, const tfe_regex* re,
                           const char* rw, size_t rwn, int global) {
  const TF_Tensor* in = k->inputs[0];
  TF_Tensor* out =
      tfe_kernel_alloc_output(k, 0, TF_STRING, in->dims, in->num_dims);
  tfe_regex_scratch* s;
  int64_t n, i;
  if (out == NULL) return;
  n = kutil_num_elements(in);
  if (n == 0) return;
  s = tfe_regex_scratch_new(re);
  if (s == NULL) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
               k->op_def->name);
    return;
  }
  for (i = 0; i < n; i++) {
    const TF_TString* e = &rx_sdata(in)[i];
    const char* d = TF_TString_GetDataPointer(e);
    size_t len = TF_TString_GetSize(e);
    char* res = NULL;
    size_t res_len = 0;
    int64_t c = tfe_regex_replace(re, s, d, len, rw, rwn, global, &res,
                                  &res_len);
    if (c < 0) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                 k->op_def->name);
      break;
    }
    if (c == 0) {
      TF_TString_Copy(&rx_sdata_mut(out)[i], d, len);
    } else {
      TF_TString_Copy(&rx_sdata_mut(out)[i], res, res_len);
      tfe_free(res);
    }
  }
  tfe_regex_scratch_free(s);
}

static int rx_attr_bool(const tfe_attrs* a, const char* name, int dflt) {
  int v = dflt;
  if (a == NULL || !tfe_attrs_get_bool(a, name, &v, NULL)) return dflt;
  return v;
}

static void regex_replace_compute(tfe_kernel_context* k) {
  const char *p, *rw;
  size_t n, rwn;
  rx_cached* c;
  if (!rx_scalar_input(k, 1, "Pattern", &p, &n)) return;
  c = rx_dyn_get(k, p, n);
  if (c == NULL) return;
  if (rx_scalar_input(k, 2, "Rewrite", &rw, &rwn)) {
    rx_replace_run(k, c->re, rw, rwn,
                   rx_attr_bool(k->attrs, "replace_global", 1));
  }
  rx_dyn_release(k, c);
}

/* ---- static forms ---- */

typedef struct rx_static {
  tfe_regex* re;
  char* rewrite;
  size_t rewrite_len;
  int global;
} rx_static;

static void rx_static_destroy(void* state, void* user_data) {
  rx_static* st = (rx_static*)state;
  (void)user_data;
  if (st == NULL) return;
  tfe_regex_free(st->re);
  tfe_free(st->rewrite);
  tfe_free(st);
}

static void* rx_static_create(const tfe_op_def* def, const tfe_attrs* attrs,
                              void* user_data, TF_Status* status) {
  rx_static* st;
  const char* p = NULL;
  size_t n = 0;
  (void)user_data;
  if (attrs == NULL || !tfe_attrs_get_string(attrs, "pattern", &p, &n, NULL)) {
    tfe_status_setf(status, TF_INVALID_ARGUMENT,
                    "%s: missing attr 'pattern'", def->name);
    return NULL;
  }
  st = (rx_static*)tfe_calloc(1, sizeof *st);
  if (st == NULL) {
    tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                    def->name);
    return NULL;
  }
  st->global = rx_attr_bool(attrs, "replace_global", 1);
  if (strcmp(def->name, "StaticRegexReplace") == 0) {
    const char* rw = NULL;
    size_t rwn = 0;
    if (!tfe_attrs_get_string(attrs, "rewrite", &rw, &rwn, NULL)) {
      tfe_status_setf(status, TF_INVALID_ARGUMENT,
                      "%s: missing attr 'rewrite'", def->name);
      rx_static_destroy(st, NULL);
      return NULL;
    }
    st->rewrite = (char*)tfe_malloc(rwn + 1);
    if (st->rewrite == NULL) {
      tfe_status_setf(status, TF_RESOURCE_EXHAUSTED, "out of memory in %s",
                      def->name);
      rx_static_destroy(st, NULL);
      return NULL;
    }
    if (rwn > 0) memcpy(st->rewrite, rw, rwn);
    st->rewrite_len = rwn;
  }
  st->re = rx_compile(p, n, status);
  if (st->re == NULL) {
    rx_static_destroy(st, NULL);
    return NULL;
  }
  return st;
}

static void static_full_match_compute(tfe_kernel_context* k) {
  const rx_static* st = (const rx_static*)k->state;
  if (st == NULL) {
    KUTIL_FAIL(k, TF_INTERNAL, "StaticRegexFullMatch: no compiled pattern");
    return;
  }
  rx_full_match_run(k, st->re);
}

static void static_replace_compute(tfe_kernel_context* k) {
  const rx_static* st = (const rx_static*)k->state;
  if (st == NULL) {
    KUTIL_FAIL(k, TF_INTERNAL, "StaticRegexReplace: no compiled pattern");
    return;
  }
  rx_replace_run(k, st->re, st->rewrite, st->rewrite_len, st->global);
}

static void rx_reg(const char* op, void (*compute)(tfe_kernel_context*),
                   int is_static) {
  tfe_kernel_reg r;
  TF_Status* s = TF_NewStatus();
  memset(&r, 0, sizeof r);
  r.op_name = op;
  r.device_type = "CPU";
  r.compute = compute;
  r.create = is_static ? rx_static_create : rx_dyn_create;
  r.destroy = is_static ? rx_static_destroy : rx_dyn_destroy;
  if (s != NULL) {
    tfe_kernel_register(&r, s);
    TF_DeleteStatus(s);
  }
}

void tfe_register_cpu_regex_kernels(void) {
  rx_reg("RegexFullMatch", regex_full_match_compute, 0);
  rx_reg("StaticRegexFullMatch", static_full_match_compute, 1);
  rx_reg("RegexReplace", regex_replace_compute, 0);
  rx_reg("StaticRegexReplace", static_replace_compute, 1);
}
