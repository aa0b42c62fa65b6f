/* CPU kernels of TF's logging ops: PrintV2 (tf.print's sink, fed by
 * StringFormat), TF 1's Print, so that models whose functions print can
 * load and run, Assert (tf.Assert and the tf.debugging checks inside
 * graphs and functions) and Timestamp.
 *
 * PrintV2 writes its scalar string and `end` to stdout, stderr, TF's log
 * (log(info|warning|error), through TF_Log) or appends them to a local file
 * (output_stream "file://<path>"). Print passes its input through and logs
 * `message` followed by each data tensor in TF 1's summary format
 * ("[1 2 3][4...]...": at most `summarize` elements in all), at most
 * `first_n` times per kernel instance when first_n >= 0. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kernels/cpu/array_kernels.h"
#include "kernels/cpu/text_util.h"
#include "tensorflow/c/logging.h"

void tfe_register_text_print_kernels(void);

/* ---- PrintV2 ---- */

static void print_v2_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  size_t sl, el;
  const char* stream = tx_attr_s(k, "output_stream", "stderr", &sl);
  const char* end = tx_attr_s(k, "end", "\n", &el);
  kutil_shape_buf sb;
  tx_buf b;
  int is_file = sl >= 7 && memcmp(stream, "file://", 7) == 0;
  FILE* f = NULL;
  TF_LogLevel level = TF_INFO;
  int to_log = 0;
  if (sl == 6 && memcmp(stream, "stdout", 6) == 0) {
    f = stdout;
  } else if (sl == 6 && memcmp(stream, "stderr", 6) == 0) {
    f = stderr;
  } else if (sl == 9 && memcmp(stream, "log(info)", 9) == 0) {
    to_log = 1;
  } else if (sl == 12 && memcmp(stream, "log(warning)", 12) == 0) {
    to_log = 1;
    level = TF_WARNING;
  } else if (sl == 10 && memcmp(stream, "log(error)", 10) == 0) {
    to_log = 1;
    level = TF_ERROR;
  } else if (!is_file) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Unknown output stream: %.*s, Valid streams are: stdout stderr "
               "log(info) log(warning) log(error)",
               (int)(sl > 200 ? 200 : sl), stream);
    return;
  }
  if (in->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input is expected to be scalar, but got %s",
               kutil_tshape(in, &sb));
    return;
  }
  tx_buf_init(&b);
  tx_buf_add(&b, tx_ptr(in, 0), tx_len(in, 0));
  tx_buf_add(&b, end, el);
  if (!b.ok) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in PrintV2");
    tx_buf_free(&b);
    return;
  }
  if (to_log) {
    TF_Log(level, "%.*s", (int)(b.n > (size_t)INT32_MAX ? INT32_MAX : b.n),
           b.p != NULL ? b.p : "");
  } else if (f != NULL) {
    if (b.n > 0) fwrite(b.p, 1, b.n, f);
    fflush(f);
  } else {
    char* path = tfe_strndup(stream + 7, sl - 7);
    FILE* out;
    if (path == NULL) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in PrintV2");
      tx_buf_free(&b);
      return;
    }
    out = fopen(path, "ab");
    if (out == NULL) {
      int e = errno;
      KUTIL_FAIL(k, e == ENOENT ? TF_NOT_FOUND : e == EACCES ? TF_PERMISSION_DENIED
                                                              : TF_UNKNOWN,
                 "%s; %s", path, strerror(e));
    } else {
      if (b.n > 0 && fwrite(b.p, 1, b.n, out) != b.n) {
        KUTIL_FAIL(k, TF_UNKNOWN, "%s; write failed", path);
      }
      if (fclose(out) != 0 && TF_GetCode(k->status) == TF_OK) {
        KUTIL_FAIL(k, TF_UNKNOWN, "%s; close failed", path);
      }
    }
    tfe_free(path);
  }
  tx_buf_free(&b);
}

/* ---- Print (TF 1) ---- */

typedef struct print_state {
  atomic_llong calls;
} print_state;

static void* print_create(const tfe_op_def* def, const tfe_attrs* attrs,
                          void* user_data, TF_Status* status) {
  print_state* st = (print_state*)tfe_calloc(1, sizeof *st);
  (void)def;
  (void)attrs;
  (void)user_data;
  if (st == NULL) {
    TF_SetStatus(status, TF_RESOURCE_EXHAUSTED, "out of memory in Print");
    return NULL;
  }
  atomic_init(&st->calls, 0);
  return st;
}

static void print_destroy(void* state, void* user_data) {
  (void)user_data;
  tfe_free(state);
}

static void v1_element(tx_buf* b, const TF_Tensor* t, int64_t i) {
  const void* d = kutil_data(t);
  char s[48];
  switch (t->dtype) {
    case TF_FLOAT:
    case TF_HALF:
    case TF_BFLOAT16: {
      float f = t->dtype == TF_FLOAT ? ((const float*)d)[i]
                : t->dtype == TF_HALF
                    ? kutil_f16_to_f32(((const uint16_t*)d)[i])
                    : kutil_bf16_to_f32(((const uint16_t*)d)[i]);
      if (f != f) {
        tx_buf_adds(b, "nan");
      } else {
        snprintf(s, sizeof s, "%.6g", (double)f);
        if (strtof(s, NULL) != f) snprintf(s, sizeof s, "%.9g", (double)f);
        tx_buf_adds(b, s);
      }
      return;
    }
    case TF_DOUBLE: {
      double v = ((const double*)d)[i];
      if (v != v) {
        tx_buf_adds(b, "nan");
      } else {
        snprintf(s, sizeof s, "%.15g", v);
        if (strtod(s, NULL) != v) snprintf(s, sizeof s, "%.17g", v);
        tx_buf_adds(b, s);
      }
      return;
    }
    case TF_BOOL:
      tx_buf_addc(b, ((const unsigned char*)d)[i] ? '1' : '0');
      return;
    case TF_STRING:
      tx_buf_add(b, tx_ptr(t, i), tx_len(t, i));
      return;
    case TF_UINT64:
      snprintf(s, sizeof s, "%llu", (unsigned long long)((const uint64_t*)d)[i]);
      tx_buf_adds(b, s);
      return;
    case TF_INT8: case TF_UINT8: case TF_INT16: case TF_UINT16:
    case TF_INT32: case TF_UINT32: case TF_INT64:
      snprintf(s, sizeof s, "%lld", (long long)kutil_get_int(t, i));
      tx_buf_adds(b, s);
      return;
    default:
      tx_buf_addc(b, '?');
      return;
  }
}

/* TF 1's PrintOneDim: nested brackets without spaces between them, the
 * elements counted across the whole tensor up to `limit`. */
static void v1_dims(tx_buf* b, const TF_Tensor* t, int dim, int64_t limit,
                    int64_t* idx) {
  int64_t count, i;
  if (*idx >= limit || !b->ok) return;
  count = t->dims[dim];
  if (dim == t->num_dims - 1) {
    for (i = 0; i < count; i++) {
      if (*idx >= limit) {
        if (dim != 0) tx_buf_add(b, "...", 3);
        return;
      }
      if (i > 0) tx_buf_addc(b, ' ');
      v1_element(b, t, (*idx)++);
    }
    return;
  }
  for (i = 0; i < count; i++) {
    int opened = 0;
    if (*idx < limit) {
      tx_buf_addc(b, '[');
      opened = 1;
    }
    v1_dims(b, t, dim + 1, limit, idx);
    if (*idx < limit || opened) tx_buf_addc(b, ']');
    if (*idx >= limit && !opened) return;
  }
}

static void v1_summary(tx_buf* b, const TF_Tensor* t, int64_t summarize) {
  int64_t n = kutil_num_elements(t), limit, idx = 0, i;
  limit = summarize < 0 || summarize > n ? n : summarize;
  if (t->num_dims == 0) {
    for (i = 0; i < limit; i++) v1_element(b, t, i);
  } else {
    v1_dims(b, t, 0, limit, &idx);
  }
  if (n > limit) tx_buf_add(b, "...", 3);
}

static void print_v1_compute(tfe_kernel_context* k) {
  print_state* st = (print_state*)k->state;
  int64_t first_n = kutil_attr_int64(k, "first_n", -1);
  int32_t summarize;
  size_t ml;
  const char* msg = tx_attr_s(k, "message", "", &ml);
  const TF_Tensor* x = k->inputs[0];
  int i, print = 1;
  tx_buf b;
  if (!kutil_attr_int32(k, "summarize", 3, &summarize)) return;
  if (tfe_kutil_forward(k, 0, 0, x->dims, x->num_dims) == NULL) return;
  if (first_n >= 0) {
    if (st == NULL || atomic_fetch_add(&st->calls, 1) >= first_n) print = 0;
  }
  if (!print) return;
  tx_buf_init(&b);
  tx_buf_add(&b, msg, ml);
  for (i = 1; i < k->num_inputs; i++) {
    tx_buf_addc(&b, '[');
    v1_summary(&b, k->inputs[i], summarize);
    tx_buf_addc(&b, ']');
  }
  if (b.ok) {
    TF_Log(TF_INFO, "%.*s", (int)(b.n > (size_t)INT32_MAX ? INT32_MAX : b.n),
           b.p != NULL ? b.p : "");
  }
  tx_buf_free(&b);
}

/* ---- Assert ---- */

/* Fails with INVALID_ARGUMENT "assertion failed: [d0] [d1] ..." (each data
 * tensor in TF 1's summary format, at most `summarize` elements; negative:
 * all) when the scalar condition is false. */
static void assert_compute(tfe_kernel_context* k) {
  const TF_Tensor* cond = k->inputs[0];
  int32_t summarize;
  kutil_shape_buf sb;
  tx_buf b;
  int i;
  if (!kutil_attr_int32(k, "summarize", 3, &summarize)) return;
  if (cond->num_dims != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "In[0] should be a scalar: %s",
               kutil_tshape(cond, &sb));
    return;
  }
  if (((const unsigned char*)kutil_data(cond))[0]) return;
  tx_buf_init(&b);
  tx_buf_adds(&b, "assertion failed: ");
  for (i = 1; i < k->num_inputs; i++) {
    tx_buf_addc(&b, '[');
    v1_summary(&b, k->inputs[i], summarize);
    tx_buf_addc(&b, ']');
    if (i < k->num_inputs - 1) tx_buf_addc(&b, ' ');
  }
  if (!b.ok) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in Assert");
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "%.*s",
               (int)(b.n > (size_t)INT32_MAX ? INT32_MAX : b.n),
               b.p != NULL ? b.p : "");
  }
  tx_buf_free(&b);
}

/* ---- Timestamp ---- */

/* Seconds since the epoch as a double (wall clock, microsecond-or-better
 * resolution, as TF's Env::NowMicros gives it). */
static void timestamp_compute(tfe_kernel_context* k) {
  struct timespec ts;
  TF_Tensor* out;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
    KUTIL_FAIL(k, TF_INTERNAL, "Timestamp: clock_gettime failed");
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, TF_DOUBLE, NULL, 0);
  if (out == NULL) return;
  ((double*)kutil_data(out))[0] = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void tfe_register_text_print_kernels(void) {
  tfe_kernel_reg r;
  TF_Status* s = TF_NewStatus();
  tfe_kutil_register("PrintV2", print_v2_compute, NULL, NULL, 0, NULL, NULL,
                     0);
  tfe_kutil_register("Assert", assert_compute, NULL, NULL, 0, NULL, NULL, 0);
  tfe_kutil_register("Timestamp", timestamp_compute, NULL, NULL, 0, NULL, NULL,
                     0);
  memset(&r, 0, sizeof r);
  r.op_name = "Print";
  r.device_type = "CPU";
  r.compute = print_v1_compute;
  r.create = print_create;
  r.destroy = print_destroy;
  if (s != NULL) {
    tfe_kernel_register(&r, s);
    TF_DeleteStatus(s);
  }
}
