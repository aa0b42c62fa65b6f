/* String CPU kernels: StringJoin, StringLength, Substr, AsString and
 * StringToNumber, with TensorFlow's shapes rules, formats and messages. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "kernels/cpu/kutil.h"
#include "tensorflow/c/tf_tstring.h"

void tfe_register_string_kernels(void);

static const TF_TString* sdata(const TF_Tensor* t) {
  return (const TF_TString*)kutil_data(t);
}
static TF_TString* sdata_mut(TF_Tensor* t) {
  return (TF_TString*)kutil_data(t);
}

static int same_dims(const TF_Tensor* a, const TF_Tensor* b) {
  int i;
  if (a->num_dims != b->num_dims) return 0;
  for (i = 0; i < a->num_dims; i++) {
    if (a->dims[i] != b->dims[i]) return 0;
  }
  return 1;
}

static const char* attr_s(const tfe_kernel_context* k, const char* name,
                          const char* dflt, size_t* len) {
  const char* s = NULL;
  size_t n = 0;
  if (k->attrs == NULL ||
      !tfe_attrs_get_string(k->attrs, name, &s, &n, NULL)) {
    *len = strlen(dflt);
    return dflt;
  }
  *len = n;
  return s;
}

/* ---- StringJoin ---- */

static void string_join_compute(tfe_kernel_context* k) {
  size_t sep_len;
  const char* sep = attr_s(k, "separator", "", &sep_len);
  const TF_Tensor* shape_src = NULL;
  TF_Tensor* out;
  int64_t n, i;
  int j;
  char* buf = NULL;
  size_t cap = 0;
  for (j = 0; j < k->num_inputs; j++) {
    const TF_Tensor* in = k->inputs[j];
    if (in->num_dims == 0) continue;
    if (shape_src == NULL) {
      shape_src = in;
    } else if (!same_dims(shape_src, in)) {
      kutil_shape_buf a, b;
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Input shapes do not match: %s vs. %s",
                 kutil_tshape(shape_src, &a), kutil_tshape(in, &b));
      return;
    }
  }
  out = shape_src != NULL
            ? tfe_kernel_alloc_output(k, 0, TF_STRING, shape_src->dims,
                                      shape_src->num_dims)
            : tfe_kernel_alloc_output(k, 0, TF_STRING, NULL, 0);
  if (out == NULL) return;
  n = kutil_num_elements(out);
  for (i = 0; i < n; i++) {
    size_t total = 0, pos = 0;
    for (j = 0; j < k->num_inputs; j++) {
      const TF_Tensor* in = k->inputs[j];
      const TF_TString* s = &sdata(in)[in->num_dims == 0 ? 0 : i];
      total += TF_TString_GetSize(s) + (j > 0 ? sep_len : 0);
    }
    if (total > cap) {
      char* nb = (char*)tfe_malloc(total);
      if (nb == NULL) {
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in StringJoin");
        tfe_free(buf);
        return;
      }
      tfe_free(buf);
      buf = nb;
      cap = total;
    }
    for (j = 0; j < k->num_inputs; j++) {
      const TF_Tensor* in = k->inputs[j];
      const TF_TString* s = &sdata(in)[in->num_dims == 0 ? 0 : i];
      size_t len = TF_TString_GetSize(s);
      if (j > 0 && sep_len > 0) {
        memcpy(buf + pos, sep, sep_len);
        pos += sep_len;
      }
      if (len > 0) memcpy(buf + pos, TF_TString_GetDataPointer(s), len);
      pos += len;
    }
    TF_TString_Copy(&sdata_mut(out)[i], buf != NULL ? buf : "", pos);
  }
  tfe_free(buf);
}

/* ---- StringLength ---- */

static int unit_is_utf8(const tfe_kernel_context* k) {
  size_t len;
  const char* u = attr_s(k, "unit", "BYTE", &len);
  return strcmp(u, "UTF8_CHAR") == 0;
}

/* Number of UTF-8 characters: bytes that do not continue a sequence. */
static int64_t utf8_len(const char* s, size_t n) {
  int64_t c = 0;
  size_t i;
  for (i = 0; i < n; i++) {
    if (((unsigned char)s[i] & 0xC0) != 0x80) c++;
  }
  return c;
}

static void string_length_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  int utf8 = unit_is_utf8(k);
  TF_Tensor* out =
      tfe_kernel_alloc_output(k, 0, TF_INT32, in->dims, in->num_dims);
  int64_t n, i;
  if (out == NULL) return;
  n = kutil_num_elements(in);
  for (i = 0; i < n; i++) {
    const TF_TString* s = &sdata(in)[i];
    size_t len = TF_TString_GetSize(s);
    ((int32_t*)kutil_data(out))[i] =
        (int32_t)(utf8 ? utf8_len(TF_TString_GetDataPointer(s), len)
                       : (int64_t)len);
  }
}

/* ---- Substr ---- */

/* Byte offset of character `ch` of s (n bytes), or n past the end. */
static size_t utf8_offset(const char* s, size_t n, int64_t ch) {
  size_t i = 0;
  int64_t c = 0;
  while (i < n) {
    if (((unsigned char)s[i] & 0xC0) != 0x80) {
      if (c == ch) return i;
      c++;
    }
    i++;
  }
  return n;
}

/* Output element i from string s with (pos, len); 0 with status set when
 * pos is out of range. */
static int substr_one(tfe_kernel_context* k, int utf8, const TF_TString* s,
                      int64_t pos, int64_t len, int64_t index,
                      TF_TString* dst) {
  const char* p = TF_TString_GetDataPointer(s);
  size_t n = TF_TString_GetSize(s);
  int64_t size = utf8 ? utf8_len(p, n) : (int64_t)n;
  int64_t start = pos < 0 ? pos + size : pos;
  if (start < 0 || start > size) {
    if (utf8) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "pos %lld out of range for string at index %lld",
                 (long long)pos, (long long)index);
    } else {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "pos %lld out of range for string b'%.*s' at index %lld",
                 (long long)pos, (int)(n > 1000 ? 1000 : n), p,
                 (long long)index);
    }
    return 0;
  }
  /* A negative length means "to the end" in bytes (TF reads it as a
   * huge size_t) but "nothing" in UTF-8 characters. */
  if (utf8 && len < 0) len = 0;
  if (len < 0 || len > size - start) len = size - start;
  if (utf8) {
    size_t b = utf8_offset(p, n, start);
    size_t e = utf8_offset(p, n, start + len);
    TF_TString_Copy(dst, p + b, e - b);
  } else {
    TF_TString_Copy(dst, p + start, (size_t)len);
  }
  return 1;
}

static void substr_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* pos = k->inputs[1];
  const TF_Tensor* len = k->inputs[2];
  int utf8 = unit_is_utf8(k);
  kutil_shape_buf a, b;
  TF_Tensor* out;
  int64_t n, i;
  if (!same_dims(pos, len)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "pos and len should have the same shape, got: %s vs. %s",
               kutil_tshape(pos, &a), kutil_tshape(len, &b));
    return;
  }
  if (pos->num_dims == 0 || same_dims(in, pos)) {
    int scalar = pos->num_dims == 0;
    out = tfe_kernel_alloc_output(k, 0, TF_STRING, in->dims, in->num_dims);
    if (out == NULL) return;
    n = kutil_num_elements(in);
    for (i = 0; i < n; i++) {
      int64_t pi = kutil_get_int(pos, scalar ? 0 : i);
      int64_t li = kutil_get_int(len, scalar ? 0 : i);
      if (!substr_one(k, utf8, &sdata(in)[i], pi, li, i,
                      &sdata_mut(out)[i])) {
        return;
      }
    }
    return;
  }
  {
    /* General broadcasting between the input and pos/len. */
    int nd = in->num_dims > pos->num_dims ? in->num_dims : pos->num_dims;
    int64_t od[TFE_MAX_DIMS], is[TFE_MAX_DIMS], ps[TFE_MAX_DIMS];
    int64_t si = 1, sp = 1;
    int d;
    for (d = nd - 1; d >= 0; d--) {
      int di = d - (nd - in->num_dims), dp = d - (nd - pos->num_dims);
      int64_t x = di >= 0 ? in->dims[di] : 1;
      int64_t y = dp >= 0 ? pos->dims[dp] : 1;
      if (x != y && x != 1 && y != 1) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Incompatible shapes: %s vs. %s",
                   kutil_tshape(in, &a), kutil_tshape(pos, &b));
        return;
      }
      od[d] = x == 1 ? y : x;
      is[d] = x == 1 ? 0 : si;
      ps[d] = y == 1 ? 0 : sp;
      /* strides of valid tensors; an empty one may overflow (nothing is
       * read then) */
      if (!tfe_checked_mul_i64(si, x, &si)) si = 0;
      if (!tfe_checked_mul_i64(sp, y, &sp)) sp = 0;
    }
    out = tfe_kernel_alloc_output(k, 0, TF_STRING, od, nd);
    if (out == NULL) return;
    n = kutil_num_elements(out);
    for (i = 0; i < n; i++) {
      int64_t rem = i, ii = 0, pi = 0;
      for (d = nd - 1; d >= 0; d--) {
        int64_t c = rem % od[d];
        rem /= od[d];
        ii += c * is[d];
        pi += c * ps[d];
      }
      if (!substr_one(k, utf8, &sdata(in)[ii], kutil_get_int(pos, pi),
                      kutil_get_int(len, pi), i, &sdata_mut(out)[i])) {
        return;
      }
    }
  }
}

/* ---- AsString ---- */

static void as_string_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType dt = in->dtype;
  int32_t precision, width;
  int scientific = kutil_attr_bool(k, "scientific", 0);
  int shortest = kutil_attr_bool(k, "shortest", 0);
  size_t fill_len;
  const char* fill = attr_s(k, "fill", "", &fill_len);
  char spec[64], fmt[160], buf[512];
  size_t sl = 0;
  int is_float = dt == TF_FLOAT || dt == TF_DOUBLE || dt == TF_HALF ||
                 dt == TF_BFLOAT16;
  int is_complex = dt == TF_COMPLEX64 || dt == TF_COMPLEX128;
  TF_Tensor* out;
  int64_t n, i;
  const char* tname = tfe_dtype_short_name(dt);
  if (tname == NULL) tname = "unknown";
  if (!kutil_attr_int32(k, "precision", -1, &precision) ||
      !kutil_attr_int32(k, "width", -1, &width)) {
    return;
  }
  if (scientific && shortest) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Cannot select both scientific and shortest notation");
    return;
  }
  if (fill_len > 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Fill string must be one or fewer characters");
    return;
  }
  if (!is_float && !is_complex && (scientific || shortest)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "scientific and shortest format not supported for datatype %s",
               tname);
    return;
  }
  if (!is_float && !is_complex && precision > -1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "precision not supported for datatype %s", tname);
    return;
  }
  spec[sl++] = '%';
  if (fill_len == 1) {
    switch (fill[0]) {
      case ' ': case '+': case '-': case '0': case '#':
        spec[sl++] = fill[0];
        break;
      default:
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Fill argument not supported: \"%s\"",
                   fill);
        return;
    }
  }
  /* TF has no limit; tfe refuses widths and precisions that would make
   * every element a string of more than a megabyte. */
  if (width > (1 << 20) || precision > (1 << 20)) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "AsString: width and precision must be at most 1048576");
    return;
  }
  if (width > -1) sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%d", (int)width);
  if (precision > -1 && (is_float || is_complex)) {
    sl += (size_t)snprintf(spec + sl, sizeof spec - sl, ".%d", (int)precision);
  }
  spec[sl] = '\0';
  if (dt == TF_STRING) {
    if (fill_len == 1 && fill[0] == '0') spec[1] = '\0', sl = 1;
    if (width > -1 && fill_len == 1 && fill[0] == '0') {
      snprintf(spec, sizeof spec, "%%%d", (int)width);
    }
  }
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, in->dims, in->num_dims);
  if (out == NULL) return;
  n = kutil_num_elements(in);
  if (is_float || is_complex) {
    const char* conv = scientific ? "e" : shortest ? "g" : "f";
    if (is_complex) {
      snprintf(fmt, sizeof fmt, "(%s%s,%s%s)", spec, conv, spec, conv);
    } else {
      snprintf(fmt, sizeof fmt, "%s%s", spec, conv);
    }
  } else if (dt == TF_STRING) {
    snprintf(fmt, sizeof fmt, "%s.*s", spec);
  } else {
    snprintf(fmt, sizeof fmt, "%slld", spec);
  }
  /* Formats into buf, or into a malloc'd `big` when buf is too small (a
   * wide field or a huge %f value). */
#define AS_FMT(...)                                                     \
  do {                                                                  \
    len = snprintf(buf, sizeof buf, __VA_ARGS__);                       \
    if (len >= (int)sizeof buf) {                                       \
      big = (char*)tfe_malloc((size_t)len + 1);                         \
      if (big == NULL) {                                                \
        KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in AsString"); \
        return;                                                         \
      }                                                                 \
      len = snprintf(big, (size_t)len + 1, __VA_ARGS__);                \
    }                                                                   \
  } while (0)
  for (i = 0; i < n; i++) {
    int len = 0;
    char* big = NULL;
    const void* d = kutil_data(in);
    switch (dt) {
      case TF_FLOAT:
        AS_FMT(fmt, (double)((const float*)d)[i]);
        break;
      case TF_DOUBLE:
        AS_FMT(fmt, ((const double*)d)[i]);
        break;
      case TF_HALF:
        AS_FMT(fmt,
               (double)kutil_f16_to_f32(((const uint16_t*)d)[i]));
        break;
      case TF_BFLOAT16:
        AS_FMT(fmt,
               (double)kutil_bf16_to_f32(((const uint16_t*)d)[i]));
        break;
      case TF_COMPLEX64:
        AS_FMT(fmt, (double)((const float*)d)[2 * i],
               (double)((const float*)d)[2 * i + 1]);
        break;
      case TF_COMPLEX128:
        AS_FMT(fmt, ((const double*)d)[2 * i],
               ((const double*)d)[2 * i + 1]);
        break;
      case TF_BOOL:
        AS_FMT("%s",
               ((const unsigned char*)d)[i] ? "true" : "false");
        break;
      case TF_UINT64:
        /* print unsigned values with %llu */
        {
          char f2[160];
          snprintf(f2, sizeof f2, "%sllu", spec);
          AS_FMT(f2,
               (unsigned long long)((const uint64_t*)d)[i]);
        }
        break;
      case TF_STRING: {
        const TF_TString* s = &sdata(in)[i];
        size_t sz = TF_TString_GetSize(s);
        int need = width > (int64_t)sz ? (int)width : (int)sz;
        char* sbuf = (char*)tfe_malloc((size_t)need + 1);
        if (sbuf == NULL) {
          KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in AsString");
          return;
        }
        len = snprintf(sbuf, (size_t)need + 1, fmt, (int)sz,
                       TF_TString_GetDataPointer(s));
        if (len < 0) len = 0;
        TF_TString_Copy(&sdata_mut(out)[i], sbuf, (size_t)len);
        tfe_free(sbuf);
        continue;
      }
      case TF_UINT8:
      case TF_UINT16:
      case TF_UINT32: {
        /* unsigned conversions, as TF formats them (a '+' fill is then
         * ignored) */
        char f2[160];
        snprintf(f2, sizeof f2, "%sllu", spec);
        AS_FMT(f2,
               (unsigned long long)kutil_get_int(in, i));
        break;
      }
      default:
        AS_FMT(fmt, (long long)kutil_get_int(in, i));
        break;
    }
    if (len < 0) len = 0;
    TF_TString_Copy(&sdata_mut(out)[i], big != NULL ? big : buf, (size_t)len);
    tfe_free(big);
  }
#undef AS_FMT
}

/* ---- StringToNumber ---- */

/* Copies s without leading/trailing ASCII whitespace into buf (NUL
 * terminated); 0 when it does not fit or is empty. */
static int trimmed(const char* s, size_t n, char* buf, size_t cap) {
  size_t b = 0, e = n;
  while (b < e && isspace((unsigned char)s[b])) b++;
  while (e > b && isspace((unsigned char)s[e - 1])) e--;
  if (e == b || e - b >= cap) return 0;
  memcpy(buf, s + b, e - b);
  buf[e - b] = '\0';
  /* an embedded NUL would end the number early: reject it */
  return strlen(buf) == e - b;
}

static int parse_int(const char* s, int is_unsigned, int64_t lo, uint64_t hi,
                     uint64_t* mag, int* neg) {
  const char* p = s;
  uint64_t v = 0;
  *neg = 0;
  if (*p == '+' || *p == '-') {
    *neg = *p == '-';
    p++;
  }
  if (*p == '\0') return 0;
  if (is_unsigned && *neg) return 0;
  for (; *p; p++) {
    unsigned dgt;
    if (*p < '0' || *p > '9') return 0;
    dgt = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - dgt) / 10) return 0;
    v = v * 10 + dgt;
  }
  if (*neg) {
    if (v > (uint64_t)(-(lo + 1)) + 1) return 0;
  } else if (v > hi) {
    return 0;
  }
  *mag = v;
  return 1;
}

static void string_to_number_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType ot = k->output_types != NULL ? k->output_types[0] : TF_FLOAT;
  TF_Tensor* out;
  int64_t n, i;
  char buf[512];
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, "out_type", &ot, NULL);
  out = tfe_kernel_alloc_output(k, 0, ot, in->dims, in->num_dims);
  if (out == NULL) return;
  n = kutil_num_elements(in);
  for (i = 0; i < n; i++) {
    const TF_TString* s = &sdata(in)[i];
    const char* p = TF_TString_GetDataPointer(s);
    size_t len = TF_TString_GetSize(s);
    int ok = trimmed(p, len, buf, sizeof buf);
    void* d = kutil_data(out);
    if (ok) {
      char* end = NULL;
      uint64_t mag = 0;
      int neg = 0;
      switch (ot) {
        case TF_FLOAT:
          errno = 0;
          ((float*)d)[i] = strtof(buf, &end);
          ok = end != NULL && *end == '\0';
          break;
        case TF_DOUBLE:
          errno = 0;
          ((double*)d)[i] = strtod(buf, &end);
          ok = end != NULL && *end == '\0';
          break;
        case TF_INT32:
          ok = parse_int(buf, 0, INT32_MIN, INT32_MAX, &mag, &neg);
          if (ok) ((int32_t*)d)[i] = neg ? (int32_t)(0 - mag) : (int32_t)mag;
          break;
        case TF_INT64:
          ok = parse_int(buf, 0, INT64_MIN, INT64_MAX, &mag, &neg);
          if (ok) ((int64_t*)d)[i] = neg ? (int64_t)(0 - mag) : (int64_t)mag;
          break;
        case TF_UINT32:
          ok = parse_int(buf, 1, 0, UINT32_MAX, &mag, &neg);
          if (ok) ((uint32_t*)d)[i] = (uint32_t)mag;
          break;
        case TF_UINT64:
          ok = parse_int(buf, 1, 0, UINT64_MAX, &mag, &neg);
          if (ok) ((uint64_t*)d)[i] = mag;
          break;
        default:
          ok = 0;
          break;
      }
    }
    if (!ok) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "StringToNumberOp could not correctly convert string: %.*s",
                 (int)(len > 1000 ? 1000 : len), p);
      return;
    }
  }
}

/* ---- registration ---- */

void tfe_register_string_kernels(void) {
  static const TF_DataType kAsString[] = {
      TF_FLOAT,  TF_DOUBLE, TF_INT32,  TF_UINT8,     TF_INT16,
      TF_INT8,   TF_INT64,  TF_BFLOAT16, TF_UINT16,  TF_HALF,
      TF_UINT32, TF_UINT64, TF_COMPLEX64, TF_COMPLEX128, TF_BOOL,
      TF_STRING};
  static const TF_DataType kIdx[] = {TF_INT32, TF_INT64};
  static const TF_DataType kNum[] = {TF_FLOAT, TF_DOUBLE, TF_INT32,
                                     TF_INT64, TF_UINT32, TF_UINT64};
  tfe_kutil_register("StringJoin", string_join_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("StringLength", string_length_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("Substr", substr_compute, "T", kIdx, 2, NULL, NULL, 0);
  tfe_kutil_register("AsString", as_string_compute, "T", kAsString,
                     KUTIL_COUNT(kAsString), NULL, NULL, 0);
  tfe_kutil_register("StringToNumber", string_to_number_compute, "out_type",
                     kNum, KUTIL_COUNT(kNum), NULL, NULL, 0);
}
