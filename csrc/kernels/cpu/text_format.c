/* CPU kernel: StringFormat. The template is split at each placeholder and
 * the inputs are printed between the pieces the way TF 2.21 summarizes a
 * tensor for printing (tf.print's format): numpy-like nested brackets,
 * elements separated by spaces, "..." where a dimension longer than
 * 2 * summarize keeps only its first and last `summarize` entries, floats
 * with the shortest of 6/9 (float) or 15/17 (double) significant digits
 * that reads back exactly, strings quoted with C escapes, bools as 1/0,
 * and "?" for complex values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/text_util.h"

void tfe_register_text_format_kernels(void);

static void fmt_float(tx_buf* b, double v, int is_double) {
  char t[64];
  if (isnan(v)) {
    tx_buf_adds(b, "nan");
    return;
  }
  if (isinf(v)) {
    tx_buf_adds(b, v < 0 ? "-inf" : "inf");
    return;
  }
  if (is_double) {
    snprintf(t, sizeof t, "%.15g", v);
    if (strtod(t, NULL) != v) snprintf(t, sizeof t, "%.17g", v);
  } else {
    float f = (float)v;
    snprintf(t, sizeof t, "%.6g", (double)f);
    if (strtof(t, NULL) != f) snprintf(t, sizeof t, "%.9g", (double)f);
  }
  tx_buf_adds(b, t);
}

/* A string element: quoted, with \n \r \t \" \' \\ escaped and other
 * control bytes as three-digit octal; bytes >= 0x80 are kept as they are
 * (UTF-8 passes through). */
static void fmt_string(tx_buf* b, const char* p, size_t n) {
  size_t i;
  tx_buf_addc(b, '"');
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    char t[8];
    switch (c) {
      case '\n': tx_buf_add(b, "\\n", 2); break;
      case '\r': tx_buf_add(b, "\\r", 2); break;
      case '\t': tx_buf_add(b, "\\t", 2); break;
      case '"': tx_buf_add(b, "\\\"", 2); break;
      case '\'': tx_buf_add(b, "\\'", 2); break;
      case '\\': tx_buf_add(b, "\\\\", 2); break;
      default:
        if (c < 0x20 || c == 0x7f) {
          snprintf(t, sizeof t, "\\%03o", c);
          tx_buf_add(b, t, 4);
        } else {
          tx_buf_addc(b, (char)c);
        }
    }
  }
  tx_buf_addc(b, '"');
}

static void fmt_element(tx_buf* b, const TF_Tensor* t, int64_t i) {
  const void* d = kutil_data(t);
  char s[32];
  switch (t->dtype) {
    case TF_FLOAT: fmt_float(b, ((const float*)d)[i], 0); return;
    case TF_DOUBLE: fmt_float(b, ((const double*)d)[i], 1); return;
    case TF_HALF:
      fmt_float(b, kutil_f16_to_f32(((const uint16_t*)d)[i]), 0);
      return;
    case TF_BFLOAT16:
      fmt_float(b, kutil_bf16_to_f32(((const uint16_t*)d)[i]), 0);
      return;
    case TF_BOOL:
      tx_buf_addc(b, ((const unsigned char*)d)[i] ? '1' : '0');
      return;
    case TF_STRING: fmt_string(b, tx_ptr(t, i), tx_len(t, i)); return;
    case TF_UINT64:
      snprintf(s, sizeof s, "%llu",
               (unsigned long long)((const uint64_t*)d)[i]);
      tx_buf_adds(b, s);
      return;
    case TF_INT8: case TF_UINT8: case TF_INT16: case TF_UINT16:
    case TF_INT32: case TF_UINT32: case TF_INT64:
      snprintf(s, sizeof s, "%lld", (long long)kutil_get_int(t, i));
      tx_buf_adds(b, s);
      return;
    case TF_QINT8:
      snprintf(s, sizeof s, "%d", ((const int8_t*)d)[i]);
      tx_buf_adds(b, s);
      return;
    case TF_QUINT8:
      snprintf(s, sizeof s, "%d", ((const uint8_t*)d)[i]);
      tx_buf_adds(b, s);
      return;
    case TF_QINT16:
      snprintf(s, sizeof s, "%d", ((const int16_t*)d)[i]);
      tx_buf_adds(b, s);
      return;
    case TF_QUINT16:
      snprintf(s, sizeof s, "%d", ((const uint16_t*)d)[i]);
      tx_buf_adds(b, s);
      return;
    case TF_QINT32:
      snprintf(s, sizeof s, "%d", ((const int32_t*)d)[i]);
      tx_buf_adds(b, s);
      return;
    default:
      tx_buf_addc(b, '?');
      return;
  }
}

/* Between two entries of dimension dim: a space in the last dimension,
 * else one newline per inner dimension and dim + 1 spaces. */
static void fmt_spacing(tx_buf* b, int dim, int nd) {
  int j;
  if (dim == nd - 1) {
    tx_buf_addc(b, ' ');
    return;
  }
  for (j = 0; j < nd - dim - 1; j++) tx_buf_addc(b, '\n');
  for (j = 0; j <= dim; j++) tx_buf_addc(b, ' ');
}

static void fmt_dims(tx_buf* b, const TF_Tensor* t, int dim, int64_t ends,
                     int64_t base, const int64_t* strides) {
  int nd = t->num_dims;
  int64_t count, tail, i;
  if (dim == nd) {
    fmt_element(b, t, base);
    return;
  }
  if (!b->ok) return;
  tx_buf_addc(b, '[');
  count = t->dims[dim];
  tail = count - ends > ends ? count - ends : ends;
  for (i = 0; i < ends && i < count; i++) {
    if (i > 0) fmt_spacing(b, dim, nd);
    fmt_dims(b, t, dim + 1, ends, base + strides[dim] * i, strides);
  }
  if (count > 2 * ends) {
    fmt_spacing(b, dim, nd);
    tx_buf_add(b, "...", 3);
  }
  for (i = tail; i < count; i++) {
    fmt_spacing(b, dim, nd);
    fmt_dims(b, t, dim + 1, ends, base + strides[dim] * i, strides);
  }
  tx_buf_addc(b, ']');
}

static void fmt_tensor(tx_buf* b, const TF_Tensor* t, int64_t summarize) {
  int64_t n = kutil_num_elements(t), strides[TFE_MAX_DIMS], s = 1;
  int64_t ends;
  int d;
  if (t->num_dims == 0) {
    fmt_element(b, t, 0);
    return;
  }
  for (d = t->num_dims - 1; d >= 0; d--) {
    strides[d] = s;
    if (!tfe_checked_mul_i64(s, t->dims[d], &s)) s = 0;
  }
  ends = summarize < 0 || summarize > n ? n : summarize;
  fmt_dims(b, t, 0, ends, 0, strides);
}

static void string_format_compute(tfe_kernel_context* k) {
  size_t tl, pl, i = 0, piece = 0;
  const char* tmpl = tx_attr_s(k, "template", "%s", &tl);
  const char* ph = tx_attr_s(k, "placeholder", "%s", &pl);
  int32_t summarize;
  int64_t nph = 0;
  int next = 0;
  TF_Tensor* out;
  tx_buf b;
  if (!kutil_attr_int32(k, "summarize", 3, &summarize)) return;
  /* Count the placeholders as absl::StrSplit cuts: non-overlapping
   * matches, and an empty placeholder between every two characters. */
  if (pl == 0) {
    nph = tl == 0 ? 0 : (int64_t)tl - 1;
  } else {
    size_t j = 0;
    while (j + pl <= tl) {
      if (memcmp(tmpl + j, ph, pl) == 0) {
        nph++;
        j += pl;
      } else {
        j++;
      }
    }
  }
  if (nph != k->num_inputs) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "num placeholders in template and num inputs must match: %lld "
               "vs. %d",
               (long long)nph, k->num_inputs);
    return;
  }
  tx_buf_init(&b);
  if (pl == 0) {
    for (i = 0; i < tl; i++) {
      tx_buf_addc(&b, tmpl[i]);
      if (i + 1 < tl) fmt_tensor(&b, k->inputs[next++], summarize);
    }
  } else {
    while (i + pl <= tl) {
      if (memcmp(tmpl + i, ph, pl) == 0) {
        tx_buf_add(&b, tmpl + piece, i - piece);
        fmt_tensor(&b, k->inputs[next++], summarize);
        i += pl;
        piece = i;
      } else {
        i++;
      }
    }
    tx_buf_add(&b, tmpl + piece, tl - piece);
  }
  if (!b.ok) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in StringFormat");
    tx_buf_free(&b);
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, NULL, 0);
  if (out != NULL) tx_set(k, &tx_sdata_mut(out)[0], b.p, b.n);
  tx_buf_free(&b);
}

void tfe_register_text_format_kernels(void) {
  tfe_kutil_register("StringFormat", string_format_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
}
