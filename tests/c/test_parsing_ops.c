/* The parsing op group (csrc/kernels/cpu/parsing_kernels.c) through the
 * public eager API: SerializeTensor/ParseTensor round trips and TF's wire
 * bytes, DecodeRaw/DecodePaddedRaw, DecodeCSV, UnicodeScript, and
 * deterministic garbage (random bytes, mutated protos, random CSV) that
 * must end in a status, never a crash (run under ASan by the sanitizer
 * step). */
#include <stdlib.h>

#include "eager_test_util.h"
#include "tensorflow/c/tf_tstring.h"

static TF_Status* S;
static TFE_Context* C;

static void setup(void) {
  if (S == NULL) S = TF_NewStatus();
  if (C == NULL) C = new_ctx(S);
}

/* Each test runs in a process of its own (ctest); it frees what it made. */
static void teardown(void) {
  TFE_DeleteContext(C);
  C = NULL;
  TF_DeleteStatus(S);
  S = NULL;
}

/* A string tensor handle of n strings (lens[i] bytes of strs[i]). */
static TFE_TensorHandle* hstr(const int64_t* dims, int nd, const char* const* strs,
                              const size_t* lens, int n) {
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, nd, sizeof(TF_TString) * (size_t)n);
  TF_TString* d = (TF_TString*)TF_TensorData(t);
  TFE_TensorHandle* h;
  int i;
  for (i = 0; i < n; i++) {
    TF_TString_Init(&d[i]);
    TF_TString_Copy(&d[i], strs[i], lens[i]);
  }
  h = TFE_NewTensorHandle(t, S);
  CHECK_CODE(S, TF_OK);
  TF_DeleteTensor(t);
  return h;
}

static TFE_TensorHandle* hscalar_str(const char* p, size_t n) {
  return hstr(NULL, 0, &p, &n, 1);
}

/* Runs a one-input op (plus optional second input) with one output. */
static TFE_TensorHandle* run1(const char* name, TFE_TensorHandle* a, TFE_TensorHandle* b,
                              const char* type_attr, TF_DataType type) {
  TFE_Op* op = TFE_NewOp(C, name, S);
  TFE_TensorHandle* out = NULL;
  int n = 1;
  CHECK_CODE(S, TF_OK);
  TFE_OpAddInput(op, a, S);
  CHECK_CODE(S, TF_OK);
  if (b != NULL) {
    TFE_OpAddInput(op, b, S);
    CHECK_CODE(S, TF_OK);
  }
  if (type_attr != NULL) TFE_OpSetAttrType(op, type_attr, type);
  TFE_Execute(op, &out, &n, S);
  TFE_DeleteOp(op);
  return TF_GetCode(S) == TF_OK ? out : NULL;
}

static TF_Tensor* resolve(TFE_TensorHandle* h) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, S);
  CHECK_CODE(S, TF_OK);
  return t;
}

TEST(serialize_tensor_writes_tfs_bytes) {
  static const int32_t v[3] = {1, 2, 3};
  static const unsigned char want[] = {0x08, 0x03, 0x12, 0x04, 0x12, 0x02, 0x08, 0x03, 0x22,
                                       0x0c, 1,    0,    0,    0,    2,    0,    0,    0,
                                       3,    0,    0,    0};
  int64_t dims[1] = {3};
  TFE_TensorHandle* x;
  TFE_TensorHandle* s;
  TF_Tensor* t;
  const TF_TString* ts;
  setup();
  x = make_handle(TF_INT32, dims, 1, v, sizeof v, S);
  s = run1("SerializeTensor", x, NULL, NULL, TF_FLOAT);
  CHECK_CODE(S, TF_OK);
  t = resolve(s);
  CHECK_EQ_INT(TF_NumDims(t), 0);
  ts = (const TF_TString*)TF_TensorData(t);
  CHECK_EQ_INT((int)TF_TString_GetSize(ts), (int)sizeof want);
  CHECK(memcmp(TF_TString_GetDataPointer(ts), want, sizeof want) == 0);
  TF_DeleteTensor(t);
  {
    TFE_TensorHandle* back = run1("ParseTensor", s, NULL, "out_type", TF_INT32);
    TF_Tensor* bt;
    CHECK_CODE(S, TF_OK);
    bt = resolve(back);
    CHECK_EQ_INT((int)TF_Dim(bt, 0), 3);
    CHECK(memcmp(TF_TensorData(bt), v, sizeof v) == 0);
    TF_DeleteTensor(bt);
    TFE_DeleteTensorHandle(back);
  }
  CHECK(run1("ParseTensor", s, NULL, "out_type", TF_FLOAT) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK(strstr(TF_Message(S), "Type mismatch between parsed tensor (int32) and dtype (float)") !=
        NULL);
  TFE_DeleteTensorHandle(s);
  TFE_DeleteTensorHandle(x);
  teardown();
}

TEST(parse_tensor_typed_fields_repeat_the_last_value) {
  /* dtype int32, shape [3], int_val 5, int_val 6 -> [5, 6, 6] */
  static const char proto[] = "\x08\x03\x12\x04\x12\x02\x08\x03\x38\x05\x38\x06";
  TFE_TensorHandle* p;
  TFE_TensorHandle* out;
  TF_Tensor* t;
  setup();
  p = hscalar_str(proto, sizeof proto - 1);
  out = run1("ParseTensor", p, NULL, "out_type", TF_INT32);
  CHECK_CODE(S, TF_OK);
  t = resolve(out);
  CHECK_EQ_INT(((int32_t*)TF_TensorData(t))[0], 5);
  CHECK_EQ_INT(((int32_t*)TF_TensorData(t))[2], 6);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(p);
  teardown();
}

TEST(decode_raw_and_padded_raw) {
  static const char* in[2] = {"\x01\x00\x02\x00", "\x03\x00\x04\x00"};
  static const size_t lens[2] = {4, 4};
  int64_t dims[1] = {2};
  TFE_TensorHandle* x;
  TFE_TensorHandle* out;
  TF_Tensor* t;
  int32_t fixed = 6;
  TFE_TensorHandle* fl;
  setup();
  x = hstr(dims, 1, in, lens, 2);
  out = run1("DecodeRaw", x, NULL, "out_type", TF_INT16);
  CHECK_CODE(S, TF_OK);
  t = resolve(out);
  CHECK_EQ_INT(TF_NumDims(t), 2);
  CHECK_EQ_INT((int)TF_Dim(t, 1), 2);
  CHECK_EQ_INT(((int16_t*)TF_TensorData(t))[3], 4);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out);
  out = run1("DecodeRaw", x, NULL, "out_type", TF_DOUBLE);
  CHECK(out == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  fl = scalar_i32(fixed, S);
  out = run1("DecodePaddedRaw", x, fl, "out_type", TF_INT16);
  CHECK_CODE(S, TF_OK);
  t = resolve(out);
  CHECK_EQ_INT((int)TF_Dim(t, 1), 3);
  CHECK_EQ_INT(((int16_t*)TF_TensorData(t))[2], 0);
  CHECK_EQ_INT(((int16_t*)TF_TensorData(t))[4], 4);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(fl);
  fl = scalar_i32(-2, S);
  CHECK(run1("DecodePaddedRaw", x, fl, "out_type", TF_INT16) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(fl);
  TFE_DeleteTensorHandle(x);
  teardown();
}

TEST(unicode_script_codes) {
  static const int32_t cps[5] = {0x41, 0x3b1, 0x4e00, -1, 0x110000};
  static const int32_t want[5] = {25, 14, 17, -1, -1};
  int64_t dims[1] = {5};
  TFE_TensorHandle* x;
  TFE_TensorHandle* out;
  TF_Tensor* t;
  setup();
  x = make_handle(TF_INT32, dims, 1, cps, sizeof cps, S);
  out = run1("UnicodeScript", x, NULL, NULL, TF_FLOAT);
  CHECK_CODE(S, TF_OK);
  t = resolve(out);
  CHECK(memcmp(TF_TensorData(t), want, sizeof want) == 0);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteTensorHandle(x);
  teardown();
}

/* DecodeCSV with two int32 columns (defaults 7 and required). */
static TF_Code csv2(const char* rec, size_t len, int32_t* a, int32_t* b) {
  TFE_Op* op = TFE_NewOp(C, "DecodeCSV", S);
  TFE_TensorHandle* r = hstr(NULL, 0, &rec, &len, 1);
  int64_t one = 1, zero = 0;
  int32_t seven = 7;
  TFE_TensorHandle* d0 = make_handle(TF_INT32, &one, 1, &seven, 4, S);
  TFE_TensorHandle* d1 = make_handle(TF_INT32, &zero, 1, NULL, 0, S);
  TFE_TensorHandle* defs[2];
  TFE_TensorHandle* outs[2] = {NULL, NULL};
  int n = 2;
  TF_Code code;
  defs[0] = d0;
  defs[1] = d1;
  CHECK_CODE(S, TF_OK);
  TFE_OpAddInput(op, r, S);
  TFE_OpAddInputList(op, defs, 2, S);
  CHECK_CODE(S, TF_OK);
  TFE_Execute(op, outs, &n, S);
  code = TF_GetCode(S);
  if (code == TF_OK) {
    *a = read_i32(outs[0], S);
    *b = read_i32(outs[1], S);
    TFE_DeleteTensorHandle(outs[0]);
    TFE_DeleteTensorHandle(outs[1]);
  }
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(d0);
  TFE_DeleteTensorHandle(d1);
  return code;
}

TEST(decode_csv_defaults_and_errors) {
  int32_t a = 0, b = 0;
  setup();
  CHECK_EQ_INT(csv2(",5", 2, &a, &b), TF_OK);
  CHECK_EQ_INT(a, 7);
  CHECK_EQ_INT(b, 5);
  CHECK_EQ_INT(csv2("\"1\",\"-2\"", 8, &a, &b), TF_OK);
  CHECK_EQ_INT(a, 1);
  CHECK_EQ_INT(b, -2);
  CHECK_EQ_INT(csv2("1,", 2, &a, &b), TF_INVALID_ARGUMENT);
  CHECK(strstr(TF_Message(S), "Field 1 is required but missing in record 0!") != NULL);
  CHECK_EQ_INT(csv2("1,2,3", 5, &a, &b), TF_INVALID_ARGUMENT);
  CHECK(strstr(TF_Message(S), "Expect 2 fields but have 3 in record 0") != NULL);
  teardown();
}

/* DecodeCompressed of one string; returns the code, *out gets the bytes. */
static TF_Code decompress(const char* p, size_t n, const char* type, char* out, size_t cap,
                          size_t* out_len) {
  TFE_Op* op = TFE_NewOp(C, "DecodeCompressed", S);
  TFE_TensorHandle* h = hscalar_str(p, n);
  TFE_TensorHandle* r = NULL;
  int nout = 1;
  TF_Code code;
  CHECK_CODE(S, TF_OK);
  TFE_OpAddInput(op, h, S);
  TFE_OpSetAttrString(op, "compression_type", type, strlen(type));
  TFE_Execute(op, &r, &nout, S);
  code = TF_GetCode(S);
  if (code == TF_OK) {
    TF_Tensor* t = resolve(r);
    const TF_TString* ts = (const TF_TString*)TF_TensorData(t);
    *out_len = TF_TString_GetSize(ts);
    if (*out_len <= cap) memcpy(out, TF_TString_GetDataPointer(ts), *out_len);
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(r);
  }
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(h);
  return code;
}

TEST(decode_compressed_zlib) {
  /* zlib.compress(b"hello hello hello") */
  static const char z[] = "\x78\x9c\xcb\x48\xcd\xc9\xc9\x57\xc8\x40\x90\x00\x3a\x2e\x06\x7d";
  char buf[64];
  size_t len = 0;
  setup();
  CHECK_EQ_INT(decompress(z, 16, "ZLIB", buf, sizeof buf, &len), TF_OK);
  CHECK_EQ_INT((int)len, 17);
  CHECK(memcmp(buf, "hello hello hello", 17) == 0);
  /* cut short: what was decoded so far, no error */
  CHECK_EQ_INT(decompress(z, 5, "ZLIB", buf, sizeof buf, &len), TF_OK);
  CHECK_EQ_INT((int)len, 2);
  CHECK_EQ_INT(decompress(z, 16, "GZIP", buf, sizeof buf, &len), TF_DATA_LOSS);
  CHECK_STR_CONTAINS(TF_Message(S), "inflate() failed with error -3: incorrect header check");
  CHECK_EQ_INT(decompress(z, 16, "LZ4", buf, sizeof buf, &len), TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(decompress(z, 16, "", buf, sizeof buf, &len), TF_OK);
  CHECK_EQ_INT((int)len, 16);
  teardown();
}

static uint32_t rnd(void);

TEST(decode_compressed_mutations_end_in_a_status) {
  static const char z[] = "\x78\x9c\xcb\x48\xcd\xc9\xc9\x57\xc8\x40\x90\x00\x3a\x2e\x06\x7d";
  char in[16], out[512];
  size_t len;
  int iter;
  setup();
  for (iter = 0; iter < 4000; iter++) {
    TF_Code code;
    memcpy(in, z, 16);
    in[2 + rnd() % 14] ^= (char)(1u << (rnd() % 8));
    if (iter % 2) in[2 + rnd() % 14] ^= (char)(1u << (rnd() % 8));
    code = decompress(in, 16, "ZLIB", out, sizeof out, &len);
    CHECK(code == TF_OK || code == TF_DATA_LOSS);
  }
  teardown();
}

/* An interlaced 3x2 RGB PNG: rows (10,200,30)(255,0,0)(7,8,9) and
 * (0,0,0)(1,2,3)(250,251,252). */
static const char kPng[] =
    "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x03"
    "\x00\x00\x00\x02\x08\x02\x00\x00\x01\x65\x11\xc1\xdb\x00\x00\x00\x1b\x49\x44\x41"
    "\x54\x78\x9c\x63\xe0\x3a\x21\xc7\xc0\xce\xc1\xc9\xf0\x9f\x01\x0c\x18\x99\x98\x7f"
    "\xfd\xfe\x03\x00\x27\x2f\x04\xff\x9d\x54\x39\x5d\x00\x00\x00\x00\x49\x45\x4e\x44"
    "\xae\x42\x60\x82";
#define PNG_LEN 84

/* DecodePng of p[0..n) with `channels`; the output (or NULL) in *out. */
static TF_Code decode_png(const char* p, size_t n, int64_t channels, TFE_TensorHandle** out) {
  TFE_Op* op = TFE_NewOp(C, "DecodePng", S);
  TFE_TensorHandle* h = hscalar_str(p, n);
  int nout = 1;
  TF_Code code;
  *out = NULL;
  TFE_OpAddInput(op, h, S);
  TFE_OpSetAttrInt(op, "channels", channels);
  TFE_Execute(op, out, &nout, S);
  code = TF_GetCode(S);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(h);
  return code;
}

TEST(decode_png_interlaced_rgb_and_gray) {
  static const uint8_t rgb[18] = {10, 200, 30, 255, 0, 0, 7, 8, 9, 0, 0, 0, 1, 2, 3, 250, 251, 252};
  static const uint8_t gray[6] = {123, 76, 7, 0, 1, 250};
  TFE_TensorHandle* out;
  TF_Tensor* t;
  setup();
  CHECK_EQ_INT(decode_png(kPng, PNG_LEN, 0, &out), TF_OK);
  t = resolve(out);
  CHECK_EQ_INT(TF_NumDims(t), 3);
  CHECK_EQ_INT((int)TF_Dim(t, 0), 2);
  CHECK_EQ_INT((int)TF_Dim(t, 1), 3);
  CHECK(memcmp(TF_TensorData(t), rgb, sizeof rgb) == 0);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out);
  CHECK_EQ_INT(decode_png(kPng, PNG_LEN, 1, &out), TF_OK);
  t = resolve(out);
  CHECK(memcmp(TF_TensorData(t), gray, sizeof gray) == 0);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out);
  CHECK_EQ_INT(decode_png(kPng, PNG_LEN, 2, &out), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "`channels` must be 0, 1, 3 or 4 but got 2");
  CHECK_EQ_INT(decode_png(kPng, PNG_LEN - 20, 0, &out), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Invalid PNG data, size 64");
  CHECK_EQ_INT(decode_png("\xff\xd8\xff\xe0", 4, 0, &out), TF_UNIMPLEMENTED);
  teardown();
}

static uint32_t crc32_bytes(const char* p, size_t n) {
  uint32_t c = 0xffffffffu;
  size_t i;
  int k;
  for (i = 0; i < n; i++) {
    c ^= (unsigned char)p[i];
    for (k = 0; k < 8; k++) c = (c & 1u) ? 0xedb88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xffffffffu;
}

static void put_be32(char* p, uint32_t v) {
  p[0] = (char)(v >> 24);
  p[1] = (char)(v >> 16);
  p[2] = (char)(v >> 8);
  p[3] = (char)v;
}

TEST(decode_png_mutations_end_in_a_status) {
  char buf[PNG_LEN];
  int iter;
  setup();
  for (iter = 0; iter < 4000; iter++) {
    TFE_TensorHandle* out;
    TF_Code code;
    size_t n = PNG_LEN;
    memcpy(buf, kPng, PNG_LEN);
    if (iter % 3 == 0) {
      /* IHDR fields (size, depth, colour type, interlace), CRC fixed */
      buf[16 + rnd() % 13] ^= (char)(1u << (rnd() % 8));
      put_be32(buf + 29, crc32_bytes(buf + 12, 17));
    } else if (iter % 3 == 1) {
      /* the zlib stream inside IDAT, CRC fixed */
      buf[41 + rnd() % 27] ^= (char)(1u << (rnd() % 8));
      put_be32(buf + 68, crc32_bytes(buf + 37, 31));
    } else {
      buf[8 + rnd() % (PNG_LEN - 8)] = (char)rnd();
    }
    if (iter % 5 == 0) n = 8 + rnd() % (PNG_LEN - 8);
    code = decode_png(buf, n, (int64_t)(iter % 2 ? 4 : 0), &out);
    CHECK(code == TF_OK || code == TF_INVALID_ARGUMENT || code == TF_RESOURCE_EXHAUSTED);
    if (out != NULL) TFE_DeleteTensorHandle(out);
  }
  teardown();
}

/* A bottom-up 3x2 24-bit BMP: rows (1,2,3)(4,5,6)(7,8,9) and
 * (10,11,12)(13,14,15)(16,17,18) in BGR order. */
static const char kBmp[] =
    "\x42\x4d\x4e\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00\x00\x00\x03\x00"
    "\x00\x00\x02\x00\x00\x00\x01\x00\x18\x00\x00\x00\x00\x00\x18\x00\x00\x00\x13\x0b"
    "\x00\x00\x13\x0b\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x0a\x0b\x0c\x0d\x0e\x0f"
    "\x10\x11\x12\x00\x00\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x00\x00\x00";
#define BMP_LEN 78

static TF_Code decode_bmp(const char* p, size_t n, int64_t channels, TFE_TensorHandle** out) {
  TFE_Op* op = TFE_NewOp(C, "DecodeBmp", S);
  TFE_TensorHandle* h = hscalar_str(p, n);
  int nout = 1;
  TF_Code code;
  *out = NULL;
  TFE_OpAddInput(op, h, S);
  TFE_OpSetAttrInt(op, "channels", channels);
  TFE_Execute(op, out, &nout, S);
  code = TF_GetCode(S);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(h);
  return code;
}

TEST(decode_bmp_rgb_and_errors) {
  static const uint8_t want[24] = {3,  2,  1,  255, 6,  5,  4,  255, 9,  8,  7,  255,
                                   12, 11, 10, 255, 15, 14, 13, 255, 18, 17, 16, 255};
  TFE_TensorHandle* out;
  TF_Tensor* t;
  int iter;
  char buf[BMP_LEN];
  setup();
  CHECK_EQ_INT(decode_bmp(kBmp, BMP_LEN, 4, &out), TF_OK);
  t = resolve(out);
  CHECK_EQ_INT((int)TF_Dim(t, 2), 4);
  CHECK(memcmp(TF_TensorData(t), want, sizeof want) == 0);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out);
  CHECK_EQ_INT(decode_bmp(kBmp, BMP_LEN - 1, 0, &out), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "they differ by -1");
  CHECK_EQ_INT(decode_bmp(kBmp, BMP_LEN, 1, &out), TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(decode_png(kBmp, BMP_LEN, 0, &out), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Trying to decode BMP format using a wrong op");
  CHECK_EQ_INT(decode_bmp(kPng, PNG_LEN, 0, &out), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Trying to decode PNG format using DecodeBmp op");
  for (iter = 0; iter < 4000; iter++) {
    TF_Code code;
    size_t n = BMP_LEN;
    memcpy(buf, kBmp, BMP_LEN);
    buf[2 + rnd() % 32] = (char)rnd(); /* header fields */
    if (iter % 2) buf[2 + rnd() % 32] ^= (char)(1u << (rnd() % 8));
    if (iter % 7 == 0) n = rnd() % BMP_LEN;
    code = decode_bmp(buf, n, (int64_t)(iter % 3 == 0 ? 3 : 0), &out);
    CHECK(code == TF_OK || code == TF_INVALID_ARGUMENT || code == TF_RESOURCE_EXHAUSTED);
    if (out != NULL) TFE_DeleteTensorHandle(out);
  }
  teardown();
}

static uint32_t rng_state = 12345u;
static uint32_t rnd(void) {  /* a fixed LCG: the same inputs every run */
  rng_state = rng_state * 1664525u + 1013904223u;
  return rng_state >> 8;
}

TEST(garbage_never_crashes) {
  static const char valid[] =
      "\x08\x03\x12\x04\x12\x02\x08\x03\x22\x0c\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00";
  static const char csv_alpha[] = "0123456789,\"\r\n .-+eEinfa";
  static const TF_DataType kTypes[] = {TF_INT32, TF_FLOAT,  TF_STRING,     TF_BOOL,  TF_HALF,
                                       TF_INT64, TF_DOUBLE, TF_COMPLEX128, TF_UINT64};
  char buf[64];
  int iter;
  setup();
  for (iter = 0; iter < 3000; iter++) {
    size_t len = rnd() % sizeof buf, i;
    TFE_TensorHandle* h;
    TFE_TensorHandle* out;
    if (iter % 3 == 0) {
      /* a valid proto with a few bytes flipped or cut */
      len = rnd() % (sizeof valid);
      memcpy(buf, valid, len);
      for (i = 0; i < 3 && len > 0; i++) buf[rnd() % len] = (char)rnd();
    } else if (iter % 3 == 1) {
      for (i = 0; i < len; i++) buf[i] = (char)rnd();
    } else {
      for (i = 0; i < len; i++) buf[i] = csv_alpha[rnd() % (sizeof csv_alpha - 1)];
    }
    h = hscalar_str(buf, len);
    out = run1("ParseTensor", h, NULL, "out_type", kTypes[rnd() % 9]);
    if (out != NULL) TFE_DeleteTensorHandle(out);
    out = run1("DecodeRaw", h, NULL, "out_type", iter % 2 ? TF_UINT8 : TF_COMPLEX64);
    if (out != NULL) TFE_DeleteTensorHandle(out);
    {
      int32_t a, b;
      char dec[256];
      size_t dlen;
      csv2(buf, len, &a, &b);
      if (iter % 3 == 1 && len > 2) {
        buf[0] = (char)0x78; /* a valid zlib header over random deflate data */
        buf[1] = (char)0x9c;
      }
      decompress(buf, len, iter % 2 ? "ZLIB" : "GZIP", dec, sizeof dec, &dlen);
    }
    TFE_DeleteTensorHandle(h);
  }
  TF_SetStatus(S, TF_OK, "");
  teardown();
}

TFE_TEST_MAIN
