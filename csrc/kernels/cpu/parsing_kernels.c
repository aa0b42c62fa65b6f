/* CPU kernels: parsing and serialization ops of tf.io and tf.strings
 * (UnicodeScript, SerializeTensor, ParseTensor, DecodeRaw,
 * DecodePaddedRaw, DecodeCSV, DecodeCompressed), with TensorFlow's checks
 * and messages.
 *
 * TensorProto field numbers (tensorflow/core/framework/tensor.proto):
 *   dtype 1, tensor_shape 2 (TensorShapeProto: dim 2 {size 1}, unknown_rank
 *   3), tensor_content 4, float_val 5, double_val 6, int_val 7, string_val
 *   8, scomplex_val 9, int64_val 10, bool_val 11, dcomplex_val 12,
 *   half_val 13, uint32_val 16, uint64_val 17.
 * SerializeTensor writes what TF writes: dtype, the shape (a dim's size only
 * when non-zero, as proto3 does), then tensor_content for every dtype but
 * strings, which go to string_val. ParseTensor reads tensor_content or the
 * typed *_val field of the dtype (fewer values than elements repeat the
 * last one; none give zeros), as TF's Tensor::FromProto. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/pb.h"
#include "kernels/cpu/kutil.h"
#include "kernels/cpu/parsing_inflate.h"
#include "ops/attr_value.h"

#include "kernels/cpu/unicode_script_table.inc"

void tfe_register_cpu_parsing_kernels(void);
void tfe_register_cpu_parsing_png_kernels(void); /* parsing_png.c */
void tfe_register_cpu_parse_example_kernels(void); /* parse_example.c */

/* Outputs larger than this are refused (RESOURCE_EXHAUSTED) rather than
 * attempted: ParseTensor and DecodePaddedRaw take their sizes from data. */
#define PK_MAX_BYTES ((int64_t)1 << 31)

static const TF_TString* pk_sdata(const TF_Tensor* t) {
  return (const TF_TString*)kutil_data(t);
}
static TF_TString* pk_sdata_mut(TF_Tensor* t) {
  return (TF_TString*)kutil_data(t);
}

static const char* pk_type_name(TF_DataType t) {
  const char* s = tfe_dtype_short_name(t);
  return s != NULL ? s : "unknown";
}

/* ====================================================== UnicodeScript */

static int32_t script_of(int32_t cp) {
  int lo = 0, hi = TFE_UNICODE_SCRIPT_RANGES - 1;
  if (cp < 0 || cp > 0x10FFFF) return -1; /* USCRIPT_INVALID_CODE */
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    if (kScriptRanges[mid].start <= cp) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return kScriptRanges[lo].code;
}

static void unicode_script_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_Tensor* out =
      tfe_kernel_alloc_output(k, 0, TF_INT32, in->dims, in->num_dims);
  const int32_t* src = (const int32_t*)kutil_data(in);
  int32_t* dst;
  int64_t i, n;
  if (out == NULL) return;
  dst = (int32_t*)kutil_data(out);
  n = kutil_num_elements(in);
  for (i = 0; i < n; i++) dst[i] = script_of(src[i]);
}

/* ===================================================== SerializeTensor */

static void serialize_tensor_compute(tfe_kernel_context* k) {
  const TF_Tensor* t = k->inputs[0];
  tfe_pbw msg = {0}, shape = {0};
  TF_Tensor* out;
  int i;
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, NULL, 0);
  if (out == NULL) return;
  tfe_pbw_uint(&msg, 1, (uint64_t)t->dtype);
  for (i = 0; i < t->num_dims; i++) {
    tfe_pbw dim = {0};
    if (t->dims[i] != 0) tfe_pbw_uint(&dim, 1, (uint64_t)t->dims[i]);
    tfe_pbw_sub(&shape, 2, &dim);
  }
  tfe_pbw_sub(&msg, 2, &shape);
  if (t->dtype == TF_STRING) {
    int64_t n = kutil_num_elements(t), j;
    for (j = 0; j < n; j++) {
      const TF_TString* s = &pk_sdata(t)[j];
      tfe_pbw_lenfield(&msg, 8, TF_TString_GetDataPointer(s),
                       TF_TString_GetSize(s));
    }
  } else {
    size_t bytes = (size_t)kutil_num_elements(t) * TF_DataTypeSize(t->dtype);
    if (bytes > 0) tfe_pbw_lenfield(&msg, 4, kutil_data(t), bytes);
  }
  if (msg.oom) {
    tfe_pbw_free(&msg);
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in SerializeTensor");
    return;
  }
  TF_TString_Copy(&pk_sdata_mut(out)[0], (const char*)msg.data, msg.len);
  tfe_pbw_free(&msg);
}

/* ========================================================= ParseTensor */

/* What the first pass over a TensorProto found. */
typedef struct pk_proto {
  uint64_t dtype;
  int64_t dims[TFE_MAX_DIMS];
  int num_dims; /* -1: unknown rank */
  int bad_dims; /* a negative dim or too many dims */
  tfe_pbr content;
  int has_content;
} pk_proto;

static int pk_parse_shape(tfe_pbr* r, pk_proto* p) {
  int f, w;
  p->num_dims = 0;
  p->bad_dims = 0;
  while (r->p < r->end) {
    if (!tfe_pbr_tag(r, &f, &w)) return 0;
    if (f == 2 && w == 2) {
      tfe_pbr dim;
      int64_t size = 0;
      if (!tfe_pbr_len(r, &dim)) return 0;
      while (dim.p < dim.end) {
        int df, dw;
        if (!tfe_pbr_tag(&dim, &df, &dw)) return 0;
        if (df == 1 && dw == 0) {
          uint64_t u;
          if (!tfe_pbr_varint(&dim, &u)) return 0;
          size = (int64_t)u;
        } else if (!tfe_pbr_skip(&dim, df, dw)) {
          return 0;
        }
      }
      if (p->num_dims >= 0) {
        if (p->num_dims >= TFE_MAX_DIMS || size < 0) {
          p->bad_dims = 1;
        } else {
          p->dims[p->num_dims++] = size;
        }
      }
    } else if (f == 3 && w == 0) {
      uint64_t u;
      if (!tfe_pbr_varint(r, &u)) return 0;
      if (u) p->num_dims = -1;
    } else if (!tfe_pbr_skip(r, f, w)) {
      return 0;
    }
  }
  return 1;
}

/* First pass: structure, dtype, shape and content. 0 when malformed. */
static int pk_parse_proto(const unsigned char* data, size_t len, pk_proto* p) {
  tfe_pbr r;
  int f, w;
  memset(p, 0, sizeof *p);
  r.p = data;
  r.end = data + len;
  while (r.p < r.end) {
    if (!tfe_pbr_tag(&r, &f, &w)) return 0;
    if (f == 1 && w == 0) {
      if (!tfe_pbr_varint(&r, &p->dtype)) return 0;
    } else if (f == 2 && w == 2) {
      tfe_pbr s;
      if (!tfe_pbr_len(&r, &s) || !pk_parse_shape(&s, p)) return 0;
    } else if (f == 4 && w == 2) {
      if (!tfe_pbr_len(&r, &p->content)) return 0;
      p->has_content = p->content.end > p->content.p;
    } else if (w == 2 && (f == 5 || f == 6 || f == 7 || f == 9 || f == 10 || f == 11 ||
                          f == 12 || f == 13 || f == 16 || f == 17)) {
      /* A packed list of a repeated numeric field must be whole, as the
       * protobuf parser requires, whichever dtype the proto names. */
      tfe_pbr s;
      if (!tfe_pbr_len(&r, &s)) return 0;
      if (f == 5 || f == 9) {
        if ((s.end - s.p) % 4 != 0) return 0;
      } else if (f == 6 || f == 12) {
        if ((s.end - s.p) % 8 != 0) return 0;
      } else {
        while (s.p < s.end) {
          uint64_t v;
          if (!tfe_pbr_varint(&s, &v)) return 0;
        }
      }
    } else if ((f == 14 || f == 15) && w == 2) {
      /* resource_handle_val / variant_val: messages, which must parse */
      tfe_pbr s;
      if (!tfe_pbr_len(&r, &s) || !tfe_pb_well_formed(s.p, (size_t)(s.end - s.p))) return 0;
    } else if (!tfe_pbr_skip(&r, f, w)) {
      return 0;
    }
  }
  return 1;
}

/* How values of a dtype are stored in the typed fields. */
typedef enum { PK_VARINT, PK_FIXED32, PK_FIXED64 } pk_wire;

static int pk_value_field(TF_DataType dt, pk_wire* kind, int* per_elem) {
  *per_elem = 1;
  switch (dt) {
    case TF_FLOAT: *kind = PK_FIXED32; return 5;
    case TF_DOUBLE: *kind = PK_FIXED64; return 6;
    case TF_INT32: case TF_INT16: case TF_INT8: case TF_UINT8:
    case TF_UINT16: case TF_QINT8: case TF_QUINT8: case TF_QINT16:
    case TF_QUINT16: case TF_QINT32:
      *kind = PK_VARINT; return 7;
    case TF_INT64: *kind = PK_VARINT; return 10;
    case TF_BOOL: *kind = PK_VARINT; return 11;
    case TF_COMPLEX64: *kind = PK_FIXED32; *per_elem = 2; return 9;
    case TF_COMPLEX128: *kind = PK_FIXED64; *per_elem = 2; return 12;
    case TF_HALF: case TF_BFLOAT16: *kind = PK_VARINT; return 13;
    case TF_UINT32: *kind = PK_VARINT; return 16;
    case TF_UINT64: *kind = PK_VARINT; return 17;
    default: return 0;
  }
}

static int pk_read_one(tfe_pbr* r, pk_wire kind, uint64_t* v) {
  int i;
  size_t n = kind == PK_FIXED32 ? 4 : 8;
  if (kind == PK_VARINT) return tfe_pbr_varint(r, v);
  if ((size_t)(r->end - r->p) < n) return 0;
  *v = 0;
  for (i = 0; i < (int)n; i++) *v |= (uint64_t)r->p[i] << (8 * i);
  r->p += n;
  return 1;
}

/* Visits the values of typed field `field` in order (packed or not):
 * stores value j at vals[j] for j < cap and returns the count, or -1 when
 * malformed. */
static int64_t pk_values(const unsigned char* data, size_t len, int field,
                         pk_wire kind, uint64_t* vals, int64_t cap) {
  tfe_pbr r;
  int f, w;
  int64_t count = 0;
  int unpacked_wire = kind == PK_VARINT ? 0 : kind == PK_FIXED32 ? 5 : 1;
  r.p = data;
  r.end = data + len;
  while (r.p < r.end) {
    if (!tfe_pbr_tag(&r, &f, &w)) return -1;
    if (f == field && w == 2) {
      tfe_pbr s;
      if (!tfe_pbr_len(&r, &s)) return -1;
      while (s.p < s.end) {
        uint64_t v;
        if (!pk_read_one(&s, kind, &v)) return -1;
        if (count < cap) vals[count] = v;
        count++;
      }
    } else if (f == field && w == unpacked_wire) {
      uint64_t v;
      if (!pk_read_one(&r, kind, &v)) return -1;
      if (count < cap) vals[count] = v;
      count++;
    } else if (!tfe_pbr_skip(&r, f, w)) {
      return -1;
    }
  }
  return count;
}

/* Stores typed value v (as read from its field) into element slot dst. */
static void pk_store(TF_DataType dt, void* dst, uint64_t v) {
  switch (dt) {
    case TF_FLOAT: case TF_UINT32: case TF_INT32: case TF_QINT32: {
      uint32_t x = (uint32_t)v;
      memcpy(dst, &x, 4);
      break;
    }
    case TF_COMPLEX64: { /* one component */
      uint32_t x = (uint32_t)v;
      memcpy(dst, &x, 4);
      break;
    }
    case TF_INT16: case TF_UINT16: case TF_HALF: case TF_BFLOAT16:
    case TF_QINT16: case TF_QUINT16: {
      uint16_t x = (uint16_t)v;
      memcpy(dst, &x, 2);
      break;
    }
    case TF_INT8: case TF_UINT8: case TF_QINT8: case TF_QUINT8: {
      uint8_t x = (uint8_t)v;
      memcpy(dst, &x, 1);
      break;
    }
    case TF_BOOL: {
      uint8_t x = v != 0;
      memcpy(dst, &x, 1);
      break;
    }
    default: /* 8-byte values, and a complex128 component */
      memcpy(dst, &v, 8);
      break;
  }
}

/* Fills a non-string tensor from the typed field of its dtype. 0 when the
 * proto holds more values than the tensor has elements (TF refuses). */
static int pk_fill_typed(const unsigned char* data, size_t len, TF_Tensor* t,
                         int64_t n) {
  pk_wire kind;
  int per;
  int field = pk_value_field(t->dtype, &kind, &per);
  size_t esz = TF_DataTypeSize(t->dtype);
  size_t comp = esz / (size_t)per;
  int64_t nvals, in_n, i;
  uint64_t* vals;
  char* dst = (char*)kutil_data(t);
  if (n == 0) return 1;
  memset(dst, 0, (size_t)n * esz);
  if (field == 0) return 1; /* no typed field (e.g. float8): zeros */
  nvals = pk_values(data, len, field, kind, NULL, 0);
  if (nvals < 0) return 0;
  in_n = nvals / per;
  if (in_n == 0) return 1;
  if (in_n > n) in_n = n; /* extra values are ignored, as TF does */
  vals = (uint64_t*)tfe_malloc((size_t)nvals * sizeof *vals);
  if (vals == NULL) return -1;
  pk_values(data, len, field, kind, vals, nvals);
  for (i = 0; i < n; i++) {
    int64_t src = i < in_n ? i : in_n - 1;
    int c;
    for (c = 0; c < per; c++) {
      pk_store(t->dtype, dst + (size_t)i * esz + (size_t)c * comp,
               vals[src * per + c]);
    }
  }
  tfe_free(vals);
  return 1;
}

/* string_val entries into a string tensor (repeat-last as the typed
 * fields). 0 when there are more strings than elements. */
static int pk_fill_strings(const unsigned char* data, size_t len,
                           TF_Tensor* t, int64_t n) {
  tfe_pbr r, last = {NULL, NULL};
  int f, w;
  int64_t count = 0, i;
  TF_TString* out = pk_sdata_mut(t);
  r.p = data;
  r.end = data + len;
  while (r.p < r.end) {
    tfe_pbr s;
    if (!tfe_pbr_tag(&r, &f, &w)) return 0;
    if (f != 8 || w != 2) {
      if (!tfe_pbr_skip(&r, f, w)) return 0;
      continue;
    }
    if (!tfe_pbr_len(&r, &s)) return 0;
    if (count >= n) continue; /* extra values are ignored, as TF does */
    TF_TString_Copy(&out[count], (const char*)s.p, (size_t)(s.end - s.p));
    last = s;
    count++;
  }
  for (i = count; i < n && count > 0; i++) {
    TF_TString_Copy(&out[i], (const char*)last.p, (size_t)(last.end - last.p));
  }
  return 1;
}

/* tensor_content of a string tensor: n varint lengths, then the bytes. */
static int pk_fill_string_content(const tfe_pbr* content, TF_Tensor* t,
                                  int64_t n) {
  tfe_pbr r = *content;
  uint64_t* lens;
  int64_t i;
  if (n == 0) return 1;
  lens = (uint64_t*)tfe_malloc((size_t)n * sizeof *lens);
  if (lens == NULL) return 0;
  for (i = 0; i < n; i++) {
    uint64_t v;
    if (!tfe_pbr_varint(&r, &v) || v > 0xffffffffu) {
      tfe_free(lens);
      return 0;
    }
    lens[i] = v;
  }
  for (i = 0; i < n; i++) {
    if (lens[i] > (uint64_t)(r.end - r.p)) {
      tfe_free(lens);
      return 0;
    }
    TF_TString_Copy(&pk_sdata_mut(t)[i], (const char*)r.p, (size_t)lens[i]);
    r.p += lens[i];
  }
  tfe_free(lens);
  return r.p == r.end;
}

/* Standard base64 with padding, as TF shows unparseable input. */
static void pk_base64(const unsigned char* p, size_t n, char* out, size_t cap) {
  static const char kAlpha[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t i, o = 0;
  for (i = 0; i < n && o + 5 < cap; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16;
    if (i + 1 < n) v |= (uint32_t)p[i + 1] << 8;
    if (i + 2 < n) v |= p[i + 2];
    out[o++] = kAlpha[(v >> 18) & 63];
    out[o++] = kAlpha[(v >> 12) & 63];
    out[o++] = i + 1 < n ? kAlpha[(v >> 6) & 63] : '=';
    out[o++] = i + 2 < n ? kAlpha[v & 63] : '=';
  }
  out[o] = '\0';
}

static void parse_tensor_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType want = k->output_types != NULL ? k->output_types[0] : TF_FLOAT;
  const unsigned char* data;
  size_t len, esz;
  pk_proto p;
  int64_t n = 1, bytes;
  int i, ok;
  TF_Tensor* out;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, "out_type", &want, NULL);
  if (in->num_dims != 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Expected `serialized` to be a scalar, got shape: %s",
               kutil_tshape(in, &b));
    return;
  }
  data = (const unsigned char*)TF_TString_GetDataPointer(&pk_sdata(in)[0]);
  len = TF_TString_GetSize(&pk_sdata(in)[0]);
  if (!pk_parse_proto(data, len, &p)) {
    char b64[160];
    pk_base64(data, len > 96 ? 96 : len, b64, sizeof b64);
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Could not parse `serialized` as TensorProto, base64: %s%s", b64,
               len > 96 ? "..." : "");
    return;
  }
  if ((p.dtype == TF_RESOURCE || p.dtype == TF_VARIANT) && p.num_dims >= 0 && !p.bad_dims) {
    /* TF builds these; tfe only reports them. */
    if ((TF_DataType)p.dtype != want) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Type mismatch between parsed tensor (%s) and dtype (%s)",
                 pk_type_name((TF_DataType)p.dtype), pk_type_name(want));
    } else {
      KUTIL_FAIL(k, TF_UNIMPLEMENTED,
                 "ParseTensor of %s tensors is not implemented in tfe",
                 pk_type_name(want));
    }
    return;
  }
  esz = p.dtype == TF_STRING ? sizeof(TF_TString)
                             : TF_DataTypeSize((TF_DataType)p.dtype);
  ok = p.dtype != 0 && p.dtype < 1000 && esz > 0 && p.num_dims >= 0 &&
       !p.bad_dims && p.dtype != TF_RESOURCE && p.dtype != TF_VARIANT;
  for (i = 0; ok && i < p.num_dims; i++) {
    if (p.dims[i] == 0) n = 0;
    if (n != 0 && !tfe_checked_mul_i64(n, p.dims[i], &n)) ok = 0;
  }
  /* TF reads the values only when there are elements to fill. */
  if (ok && n > 0 && p.has_content && p.dtype != TF_STRING &&
      (uint64_t)(p.content.end - p.content.p) != (uint64_t)n * esz) {
    ok = 0;
  }
  if (ok && n > 0 && p.has_content && p.dtype == TF_BOOL) {
    const unsigned char* b;
    for (b = p.content.p; b < p.content.end; b++) {
      if (*b > 1) ok = 0; /* a bool byte must be 0 or 1 */
    }
  }
  if (!ok) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Cannot parse tensor from proto: %s",
               "the dtype, shape or values are invalid");
    return;
  }
  if (!tfe_checked_mul_i64(n, (int64_t)esz, &bytes) || bytes > PK_MAX_BYTES) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "OOM when allocating the tensor parsed by ParseTensor");
    return;
  }
  if ((TF_DataType)p.dtype != want) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Type mismatch between parsed tensor (%s) and dtype (%s)",
               pk_type_name((TF_DataType)p.dtype), pk_type_name(want));
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, want, p.dims, p.num_dims);
  if (out == NULL) return;
  if (n == 0) {
    ok = 1;
  } else if (want == TF_STRING) {
    ok = p.has_content ? pk_fill_string_content(&p.content, out, n)
                       : pk_fill_strings(data, len, out, n);
  } else if (p.has_content) {
    memcpy(kutil_data(out), p.content.p, (size_t)bytes);
    ok = 1;
  } else {
    ok = pk_fill_typed(data, len, out, n);
  }
  if (ok < 0) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in ParseTensor");
  } else if (!ok) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "Cannot parse tensor from proto: %s",
               "more values than elements, or malformed values");
  }
}

/* ====================================================== DecodeRaw (+Padded) */

/* Size of the unit whose bytes are reversed for big-endian data: the
 * element, or one component of a complex number. */
static size_t pk_swap_unit(TF_DataType dt) {
  size_t esz = TF_DataTypeSize(dt);
  return dt == TF_COMPLEX64 || dt == TF_COMPLEX128 ? esz / 2 : esz;
}

static void pk_swap(char* p, size_t bytes, size_t unit) {
  size_t i, j;
  if (unit <= 1) return;
  for (i = 0; i + unit <= bytes; i += unit) {
    for (j = 0; j < unit / 2; j++) {
      char c = p[i + j];
      p[i + j] = p[i + unit - 1 - j];
      p[i + unit - 1 - j] = c;
    }
  }
}

static TF_DataType pk_out_type(tfe_kernel_context* k) {
  TF_DataType dt = k->output_types != NULL ? k->output_types[0] : TF_UINT8;
  if (k->attrs != NULL) tfe_attrs_get_type(k->attrs, "out_type", &dt, NULL);
  return dt;
}

static void decode_raw_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  TF_DataType dt = pk_out_type(k);
  size_t esz = TF_DataTypeSize(dt);
  int little = kutil_attr_bool(k, "little_endian", 1);
  int64_t n = kutil_num_elements(in), i, width = 0;
  int64_t dims[TFE_MAX_DIMS + 1];
  size_t str_size = 0;
  TF_Tensor* out;
  char* dst;
  if (esz == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "DecodeRaw: unsupported out_type");
    return;
  }
  if (n > 0) str_size = TF_TString_GetSize(&pk_sdata(in)[0]);
  for (i = 0; i < n; i++) {
    size_t sz = TF_TString_GetSize(&pk_sdata(in)[i]);
    if (sz != str_size) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "DecodeRaw requires input strings to all be the same size, "
                 "but element %lld has size %zu != %zu",
                 (long long)i, str_size, sz);
      return;
    }
  }
  if (str_size % esz != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Input to DecodeRaw has length %zu that is not a multiple of "
               "%zu, the size of %s",
               str_size, esz, pk_type_name(dt));
    return;
  }
  width = (int64_t)(str_size / esz);
  if (in->num_dims >= TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "DecodeRaw: input rank too large");
    return;
  }
  if (in->num_dims > 0) memcpy(dims, in->dims, sizeof(int64_t) * (size_t)in->num_dims);
  dims[in->num_dims] = width;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, in->num_dims + 1);
  if (out == NULL) return;
  dst = (char*)kutil_data(out);
  for (i = 0; i < n && str_size > 0; i++) {
    memcpy(dst + (size_t)i * str_size,
           TF_TString_GetDataPointer(&pk_sdata(in)[i]), str_size);
  }
  if (!little) pk_swap(dst, (size_t)n * str_size, pk_swap_unit(dt));
}

static void decode_padded_raw_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const TF_Tensor* fl = k->inputs[1];
  TF_DataType dt = pk_out_type(k);
  size_t esz = TF_DataTypeSize(dt);
  int little = kutil_attr_bool(k, "little_endian", 1);
  int64_t n = kutil_num_elements(in), i, fixed, bytes;
  int64_t dims[TFE_MAX_DIMS + 1];
  TF_Tensor* out;
  char* dst;
  if (fl->num_dims != 0) {
    kutil_shape_buf b;
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "fixed_length must be a scalar, got shape: %s",
               kutil_tshape(fl, &b));
    return;
  }
  fixed = ((const int32_t*)kutil_data(fl))[0];
  if (esz == 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "DecodePaddedRaw: unsupported out_type");
    return;
  }
  if (fixed < 0 || fixed % (int64_t)esz != 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "fixed_length (%lld) must be a multiple of the size of "
               "out_type (%zu)",
               (long long)fixed, esz);
    return;
  }
  if (!tfe_checked_mul_i64(n, fixed, &bytes) || bytes > PK_MAX_BYTES) {
    KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED,
               "OOM when allocating the output of DecodePaddedRaw");
    return;
  }
  if (in->num_dims >= TFE_MAX_DIMS) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "DecodePaddedRaw: input rank too large");
    return;
  }
  if (in->num_dims > 0) memcpy(dims, in->dims, sizeof(int64_t) * (size_t)in->num_dims);
  dims[in->num_dims] = fixed / (int64_t)esz;
  out = tfe_kernel_alloc_output(k, 0, dt, dims, in->num_dims + 1);
  if (out == NULL) return;
  dst = (char*)kutil_data(out);
  if (bytes > 0) memset(dst, 0, (size_t)bytes);
  for (i = 0; i < n; i++) {
    size_t sz = TF_TString_GetSize(&pk_sdata(in)[i]);
    if (sz > (size_t)fixed) sz = (size_t)fixed;
    if (sz > 0) {
      memcpy(dst + (size_t)i * (size_t)fixed,
             TF_TString_GetDataPointer(&pk_sdata(in)[i]), sz);
    }
  }
  if (!little) pk_swap(dst, (size_t)bytes, esz);
}

/* ========================================================== DecodeCSV */

typedef struct pk_field {
  char* s;
  size_t len, cap;
} pk_field;

typedef struct pk_fields {
  pk_field* f;
  int n, cap;
} pk_fields;

static int pk_field_putc(pk_field* f, char c) {
  if (f->len + 1 >= f->cap) {
    size_t cap = f->cap ? f->cap * 2 : 32;
    char* p = (char*)tfe_realloc(f->s, cap);
    if (p == NULL) return 0;
    f->s = p;
    f->cap = cap;
  }
  f->s[f->len++] = c;
  f->s[f->len] = '\0';
  return 1;
}

/* A new empty field at the end of the list (NULL when out of memory). */
static pk_field* pk_fields_add(pk_fields* fs) {
  if (fs->n == fs->cap) {
    int cap = fs->cap ? fs->cap * 2 : 8;
    pk_field* p = (pk_field*)tfe_realloc(fs->f, sizeof *p * (size_t)cap);
    if (p == NULL) return NULL;
    fs->f = p;
    fs->cap = cap;
  }
  memset(&fs->f[fs->n], 0, sizeof fs->f[0]);
  return &fs->f[fs->n++];
}

static void pk_fields_clear(pk_fields* fs) {
  int i;
  for (i = 0; i < fs->n; i++) tfe_free(fs->f[i].s);
  fs->n = 0;
}

typedef struct pk_csv {
  char delim;
  int use_quote;
  const int64_t* select;
  int nselect;
} pk_csv;

/* Splits one record into fields as TF's DecodeCSV does (the selected
 * columns only, when select_cols is given). 0 with status set on a
 * malformed record. */
static int pk_csv_split(tfe_kernel_context* k, const pk_csv* c,
                        const char* in, size_t n, pk_fields* out) {
  size_t cur = 0;
  int64_t parsed = 0;
  int sel = 0, all = c->nselect == 0, include;
  pk_field scratch;
  if (n == 0) return 1;
  while (cur < n) {
    pk_field* field;
    int quoted = 0;
    if (in[cur] == '\n' || in[cur] == '\r') {
      cur++;
      continue;
    }
    include = all || c->select[sel] == parsed;
    if (include) {
      field = pk_fields_add(out);
      if (field == NULL) goto oom;
    } else {
      memset(&scratch, 0, sizeof scratch);
      field = &scratch;
    }
    if (c->use_quote && in[cur] == '"') {
      quoted = 1;
      cur++;
    }
    if (!quoted) {
      while (cur < n && in[cur] != c->delim) {
        if ((c->use_quote && in[cur] == '"') || in[cur] == '\n' ||
            in[cur] == '\r') {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Unquoted fields cannot have quotes/CRLFs inside");
          return 0;
        }
        if (include && !pk_field_putc(field, in[cur])) goto oom;
        cur++;
      }
      cur++;
    } else {
      while (cur + 1 < n && (in[cur] != '"' || in[cur + 1] != c->delim)) {
        if (in[cur] != '"') {
          if (include && !pk_field_putc(field, in[cur])) goto oom;
          cur++;
        } else {
          if (in[cur + 1] != '"') {
            KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                       "Quote inside a string has to be escaped by another "
                       "quote");
            return 0;
          }
          if (include && !pk_field_putc(field, '"')) goto oom;
          cur += 2;
        }
      }
      if (!(cur < n && in[cur] == '"' &&
            (cur == n - 1 || in[cur + 1] == c->delim))) {
        KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                   "Quoted field has to end with quote followed by delim or "
                   "end");
        return 0;
      }
      cur += 2;
    }
    parsed++;
    if (include) {
      sel++;
      if (!all && sel == c->nselect) return 1;
    }
  }
  include = all || c->select[sel] == parsed;
  if (include && in[n - 1] == c->delim) {
    if (pk_fields_add(out) == NULL) goto oom;
  }
  return 1;
oom:
  KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory in DecodeCSV");
  return 0;
}

/* TF's safe_strto32/64: optional spaces, an optional sign, digits,
 * optional spaces; no overflow. */
static int pk_parse_int(const char* s, size_t n, int64_t lo, int64_t hi,
                        int64_t* out) {
  size_t i = 0;
  int neg = 0;
  uint64_t v = 0, limit;
  while (i < n && isspace((unsigned char)s[i])) i++;
  if (i < n && (s[i] == '-' || s[i] == '+')) {
    neg = s[i] == '-';
    i++;
  }
  if (i >= n || !isdigit((unsigned char)s[i])) return 0;
  limit = neg ? (uint64_t)(-(lo + 1)) + 1 : (uint64_t)hi;
  while (i < n && isdigit((unsigned char)s[i])) {
    unsigned d = (unsigned)(s[i] - '0');
    if (v > (limit - d) / 10) return 0;
    v = v * 10 + d;
    i++;
  }
  while (i < n && isspace((unsigned char)s[i])) i++;
  if (i != n) return 0;
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return 1;
}

/* TF's safe_strtof/safe_strtod: the whole field (spaces allowed around)
 * must be a number as strtod reads it: decimal or hexadecimal, "inf",
 * "infinity" or "nan" in any case. */
static int pk_parse_float(const char* s, size_t n, int is_float, double* out) {
  char buf[128];
  size_t b = 0, e = n;
  char* end = NULL;
  while (b < e && isspace((unsigned char)s[b])) b++;
  while (e > b && isspace((unsigned char)s[e - 1])) e--;
  if (b == e || e - b >= sizeof buf) return 0;
  memcpy(buf, s + b, e - b);
  buf[e - b] = '\0';
  if (strlen(buf) != e - b) return 0; /* an embedded NUL */
  errno = 0;
  if (is_float) {
    *out = strtof(buf, &end);
  } else {
    *out = strtod(buf, &end);
  }
  return end != NULL && *end == '\0' && end != buf;
}

static void decode_csv_compute(tfe_kernel_context* k) {
  const TF_Tensor* records = k->inputs[0];
  int nout = k->num_outputs, f;
  const int64_t* select = NULL;
  int nselect = 0;
  const char* delim = ",";
  size_t delim_len = 1;
  const char* na = "";
  size_t na_len = 0;
  pk_csv csv;
  pk_fields fields = {NULL, 0, 0};
  int64_t n = kutil_num_elements(records), i;
  if (k->attrs != NULL) {
    tfe_attrs_get_int_list(k->attrs, "select_cols", &select, &nselect, NULL);
    tfe_attrs_get_string(k->attrs, "field_delim", &delim, &delim_len, NULL);
    tfe_attrs_get_string(k->attrs, "na_value", &na, &na_len, NULL);
  }
  /* Attr checks in the order TF's kernel constructor makes them. */
  if (nselect != 0 && nselect != nout) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "select_cols should match output size");
    return;
  }
  for (f = 1; f < nselect; f++) {
    if (select[f] <= select[f - 1]) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "select_cols should be strictly increasing indices");
      return;
    }
  }
  if (nselect > 0 && select[0] < 0) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "select_cols should be non-negative indices");
    return;
  }
  if (delim_len != 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "field_delim should be only 1 char");
    return;
  }
  if (k->num_inputs != nout + 1) {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT, "DecodeCSV: expected %d defaults",
               nout);
    return;
  }
  for (f = 0; f < nout; f++) {
    const TF_Tensor* d = k->inputs[1 + f];
    if (d->num_dims > 1) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Each record default should be at most rank 1");
      return;
    }
    if (kutil_num_elements(d) >= 2) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "There should only be 1 default per field but field %d has "
                 "%lld",
                 f, (long long)kutil_num_elements(d));
      return;
    }
  }
  for (f = 0; f < nout; f++) {
    if (tfe_kernel_alloc_output(k, f, k->inputs[1 + f]->dtype, records->dims,
                                records->num_dims) == NULL) {
      return;
    }
  }
  csv.delim = delim[0];
  csv.use_quote = kutil_attr_bool(k, "use_quote_delim", 1);
  csv.select = select;
  csv.nselect = nselect;
  for (i = 0; i < n; i++) {
    const TF_TString* rec = &pk_sdata(records)[i];
    pk_fields_clear(&fields);
    if (!pk_csv_split(k, &csv, TF_TString_GetDataPointer(rec),
                      TF_TString_GetSize(rec), &fields)) {
      break;
    }
    if (fields.n != nout) {
      KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                 "Expect %d fields but have %d in record %lld", nout, fields.n,
                 (long long)i);
      break;
    }
    for (f = 0; f < nout; f++) {
      const TF_Tensor* dflt = k->inputs[1 + f];
      TF_Tensor* out = k->outputs[f];
      const pk_field* fd = &fields.f[f];
      const char* s = fd->s != NULL ? fd->s : "";
      TF_DataType dt = dflt->dtype;
      int missing = fd->len == 0 || (fd->len == na_len && memcmp(s, na, na_len) == 0);
      if (missing) {
        if (kutil_num_elements(dflt) != 1) {
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "Field %d is required but missing in record %lld!", f,
                     (long long)i);
          goto done;
        }
        if (dt == TF_STRING) {
          TF_TString_Assign(&pk_sdata_mut(out)[i], &pk_sdata(dflt)[0]);
        } else {
          size_t esz = TF_DataTypeSize(dt);
          memcpy((char*)kutil_data(out) + (size_t)i * esz, kutil_data(dflt), esz);
        }
        continue;
      }
      switch (dt) {
        case TF_INT32:
        case TF_INT64: {
          int64_t v;
          int is32 = dt == TF_INT32;
          if (!pk_parse_int(s, fd->len, is32 ? INT32_MIN : INT64_MIN,
                            is32 ? INT32_MAX : INT64_MAX, &v)) {
            KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                       "Field %d in record %lld is not a valid %s: %.*s", f,
                       (long long)i, is32 ? "int32" : "int64",
                       (int)(fd->len > 1000 ? 1000 : fd->len), s);
            goto done;
          }
          if (is32) {
            ((int32_t*)kutil_data(out))[i] = (int32_t)v;
          } else {
            ((int64_t*)kutil_data(out))[i] = v;
          }
          break;
        }
        case TF_FLOAT:
        case TF_DOUBLE: {
          double v;
          int isf = dt == TF_FLOAT;
          if (!pk_parse_float(s, fd->len, isf, &v)) {
            KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                       "Field %d in record %lld is not a valid %s: %.*s", f,
                       (long long)i, isf ? "float" : "double",
                       (int)(fd->len > 1000 ? 1000 : fd->len), s);
            goto done;
          }
          if (isf) {
            ((float*)kutil_data(out))[i] = (float)v;
          } else {
            ((double*)kutil_data(out))[i] = v;
          }
          break;
        }
        case TF_STRING:
          TF_TString_Copy(&pk_sdata_mut(out)[i], s, fd->len);
          break;
        default:
          KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
                     "csv: data type %s not supported in field %d",
                     pk_type_name(dt), f);
          goto done;
      }
    }
  }
done:
  pk_fields_clear(&fields);
  tfe_free(fields.f);
}

/* =================================================== DecodeCompressed */

static void decode_compressed_compute(tfe_kernel_context* k) {
  const TF_Tensor* in = k->inputs[0];
  const char* type = "";
  size_t type_len = 0;
  int gzip;
  int64_t n = kutil_num_elements(in), i;
  TF_Tensor* out;
  if (k->attrs != NULL) tfe_attrs_get_string(k->attrs, "compression_type", &type, &type_len, NULL);
  if (type_len == 0) {
    gzip = -1;
  } else if (type_len == 4 && memcmp(type, "ZLIB", 4) == 0) {
    gzip = 0;
  } else if (type_len == 4 && memcmp(type, "GZIP", 4) == 0) {
    gzip = 1;
  } else if (type_len == 4 && memcmp(type, "ZSTD", 4) == 0) {
    KUTIL_FAIL(k, TF_UNIMPLEMENTED,
               "DecodeCompressed: ZSTD decompression is not implemented in tfe");
    return;
  } else {
    KUTIL_FAIL(k, TF_INVALID_ARGUMENT,
               "Only ZLIB, ZSTD, GZIP or NONE are supported compressions");
    return;
  }
  out = tfe_kernel_alloc_output(k, 0, TF_STRING, in->dims, in->num_dims);
  if (out == NULL) return;
  for (i = 0; i < n; i++) {
    const TF_TString* s = &pk_sdata(in)[i];
    unsigned char* data = NULL;
    size_t len = 0;
    const char* err = NULL;
    int rc;
    if (gzip < 0) {
      TF_TString_Assign(&pk_sdata_mut(out)[i], s);
      continue;
    }
    rc = tfe_inflate((const unsigned char*)TF_TString_GetDataPointer(s), TF_TString_GetSize(s),
                     gzip, (size_t)PK_MAX_BYTES, &data, &len, &err);
    if (rc == TFE_INFLATE_DATA_ERROR) {
      KUTIL_FAIL(k, TF_DATA_LOSS, "inflate() failed with error -3: %s", err);
      return;
    }
    if (rc != TFE_INFLATE_OK) {
      KUTIL_FAIL(k, TF_RESOURCE_EXHAUSTED, "out of memory decompressing in DecodeCompressed");
      return;
    }
    TF_TString_Copy(&pk_sdata_mut(out)[i], (const char*)data, len);
    tfe_free(data);
  }
}

/* ======================================================== registration */

void tfe_register_cpu_parsing_kernels(void) {
  static const TF_DataType kSerialize[] = {KUTIL_POD_TYPES, TF_STRING};
  static const TF_DataType kRaw[] = {
      TF_HALF,  TF_FLOAT, TF_DOUBLE,    TF_INT32,      TF_UINT16,
      TF_UINT8, TF_INT16, TF_INT8,      TF_INT64,      TF_COMPLEX64,
      TF_COMPLEX128,      TF_BOOL,      TF_BFLOAT16};
  static const TF_DataType kPadded[] = {
      TF_HALF,  TF_FLOAT, TF_DOUBLE, TF_INT32, TF_UINT16,
      TF_UINT8, TF_INT16, TF_INT8,   TF_INT64, TF_BFLOAT16};
  tfe_kutil_register("UnicodeScript", unicode_script_compute, NULL, NULL, 0,
                     NULL, NULL, 0);
  tfe_kutil_register("SerializeTensor", serialize_tensor_compute, "T",
                     kSerialize, KUTIL_COUNT(kSerialize), NULL, NULL, 0);
  tfe_kutil_register("ParseTensor", parse_tensor_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("DecodeRaw", decode_raw_compute, "out_type", kRaw,
                     KUTIL_COUNT(kRaw), NULL, NULL, 0);
  tfe_kutil_register("DecodePaddedRaw", decode_padded_raw_compute, "out_type",
                     kPadded, KUTIL_COUNT(kPadded), NULL, NULL, 0);
  tfe_kutil_register("DecodeCSV", decode_csv_compute, NULL, NULL, 0, NULL,
                     NULL, 0);
  tfe_kutil_register("DecodeCompressed", decode_compressed_compute, NULL, NULL, 0, NULL, NULL,
                     0);
  tfe_register_cpu_parsing_png_kernels();
  tfe_register_cpu_parse_example_kernels();
}
