/* String kernels (StringJoin, StringLength, Substr, AsString,
 * StringToNumber) against TensorFlow 2.21's results and messages. */
#include <math.h>
#include <stdlib.h>

#include "kernel_test_util.h"

static TF_Status* S;
static tfe_attrs A;
static TF_Tensor* OUT[KT_MAX_IO];

static void begin(void) {
  if (S == NULL) S = TF_NewStatus();
  tfe_attrs_destroy(&A);
  tfe_attrs_init(&A);
}

static TF_Tensor* strs(const int64_t* dims, int nd, const char* const* v) {
  int64_t n = tfe_shape_num_elements(dims, nd), i;
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, dims, nd,
                                   (size_t)n * sizeof(TF_TString));
  TF_TString* d = (TF_TString*)TF_TensorData(t);
  for (i = 0; i < n; i++) TF_TString_Copy(&d[i], v[i], strlen(v[i]));
  return t;
}
#define SV(...) ((const char* const[]){__VA_ARGS__})

static TF_Tensor* svec(int64_t n, const char* const* v) {
  return strs(&n, 1, v);
}

static void check_strs(const TF_Tensor* t, int64_t n, const char* const* want) {
  int64_t i;
  CHECK(t != NULL && t->dtype == TF_STRING);
  CHECK_EQ_INT(kutil_num_elements(t), n);
  for (i = 0; i < n; i++) {
    const TF_TString* s = &((const TF_TString*)TF_TensorData(t))[i];
    size_t len = TF_TString_GetSize(s);
    if (len != strlen(want[i]) ||
        memcmp(TF_TString_GetDataPointer(s), want[i], len) != 0) {
      TFE_FAIL("element %lld is \"%.*s\", expected \"%s\"", (long long)i,
               (int)len, TF_TString_GetDataPointer(s), want[i]);
    }
  }
}

static void done1(void) {
  TF_DeleteTensor(OUT[0]);
  OUT[0] = NULL;
}

TEST(string_join) {
  TF_Tensor* in[3];
  begin();
  in[0] = svec(2, SV("a", "b"));
  in[1] = strs(NULL, 0, SV("x"));
  in[2] = svec(2, SV("c", "d"));
  kt_attr_string(&A, "separator", "-");
  CHECK_EQ_INT(kt_run("StringJoin", &A, in, 3, OUT, S), 1);
  check_strs(OUT[0], 2, SV("a-x-c", "b-x-d"));
  kt_check_shape(OUT[0], KT_DIMS(2), __FILE__, __LINE__);
  done1();
  begin();
  in[0] = strs(NULL, 0, SV("a"));
  in[1] = strs(NULL, 0, SV("b"));
  kt_attr_string(&A, "separator", ", ");
  CHECK_EQ_INT(kt_run("StringJoin", &A, in, 2, OUT, S), 1);
  check_strs(OUT[0], 1, SV("a, b"));
  CHECK_EQ_INT(OUT[0]->num_dims, 0);
  done1();
  begin();
  in[0] = svec(2, SV("a", "b"));
  in[1] = svec(3, SV("c", "d", "e"));
  CHECK_EQ_INT(kt_run("StringJoin", &A, in, 2, OUT, S), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Input shapes do not match: [2] vs. [3]");
}

TEST(string_length) {
  TF_Tensor* in[1];
  begin();
  in[0] = svec(4, SV("h\xc3\xa9llo", "", "ab", "\xff\xfe"));
  CHECK_EQ_INT(kt_run("StringLength", &A, in, 1, OUT, S), 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(4), KT_V(6, 0, 2, 2));
  done1();
  begin();
  in[0] = svec(4, SV("h\xc3\xa9llo", "", "ab", "\xff\xfe"));
  kt_attr_string(&A, "unit", "UTF8_CHAR");
  CHECK_EQ_INT(kt_run("StringLength", &A, in, 1, OUT, S), 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(4), KT_V(5, 0, 2, 2));
  done1();
}

static int substr(TF_Tensor* s, TF_Tensor* pos, TF_Tensor* len,
                  const char* unit) {
  TF_Tensor* in[3] = {s, pos, len};
  if (unit) kt_attr_string(&A, "unit", unit);
  return kt_run("Substr", &A, in, 3, OUT, S);
}

TEST(substr_values) {
  begin();
  CHECK_EQ_INT(substr(svec(2, SV("hello", "world")), kt_scalar(TF_INT32, 1),
                      kt_scalar(TF_INT32, 3), NULL), 1);
  check_strs(OUT[0], 2, SV("ell", "orl"));
  done1();
  begin();
  CHECK_EQ_INT(substr(svec(2, SV("hello", "world")), kt_scalar(TF_INT64, -3),
                      kt_scalar(TF_INT64, 2), NULL), 1);
  check_strs(OUT[0], 2, SV("ll", "rl"));
  done1();
  begin();
  CHECK_EQ_INT(substr(svec(1, SV("hello")), kt_scalar(TF_INT32, 2),
                      kt_scalar(TF_INT32, 100), NULL), 1);
  check_strs(OUT[0], 1, SV("llo"));
  done1();
  begin();
  CHECK_EQ_INT(substr(svec(1, SV("hello")), kt_scalar(TF_INT32, 2),
                      kt_scalar(TF_INT32, -1), NULL), 1);
  check_strs(OUT[0], 1, SV("llo"));
  done1();
  begin();
  CHECK_EQ_INT(substr(svec(1, SV("hello")), kt_scalar(TF_INT32, 5),
                      kt_scalar(TF_INT32, 1), NULL), 1);
  check_strs(OUT[0], 1, SV(""));
  done1();
  begin();
  CHECK_EQ_INT(substr(svec(2, SV("hello", "world")), kt_vec(TF_INT32, 2, KT_V(0, 1)),
                      kt_vec(TF_INT32, 2, KT_V(1, 2)), NULL), 1);
  check_strs(OUT[0], 2, SV("h", "or"));
  done1();
  begin();
  CHECK_EQ_INT(substr(strs(KT_DIMS(2, 2), SV("hello", "world", "abc", "def")),
                      kt_vec(TF_INT32, 2, KT_V(0, 1)),
                      kt_vec(TF_INT32, 2, KT_V(1, 2)), NULL), 1);
  check_strs(OUT[0], 4, SV("h", "or", "a", "ef"));
  kt_check_shape(OUT[0], KT_DIMS(2, 2), __FILE__, __LINE__);
  done1();
  begin();
  CHECK_EQ_INT(substr(svec(1, SV("h\xc3\xa9llo")), kt_scalar(TF_INT32, 1),
                      kt_scalar(TF_INT32, 2), "UTF8_CHAR"), 1);
  check_strs(OUT[0], 1, SV("\xc3\xa9l"));
  done1();
  begin();
  CHECK_EQ_INT(substr(svec(1, SV("h\xc3\xa9llo")), kt_scalar(TF_INT32, -4),
                      kt_scalar(TF_INT32, 2), "UTF8_CHAR"), 1);
  check_strs(OUT[0], 1, SV("\xc3\xa9l"));
  done1();
}

TEST(substr_errors) {
  begin();
  CHECK_EQ_INT(substr(svec(2, SV("hello", "hi")), kt_scalar(TF_INT32, 3),
                      kt_scalar(TF_INT32, 1), NULL), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "pos 3 out of range for string b'hi' at index 1");
  begin();
  CHECK_EQ_INT(substr(svec(2, SV("hello", "hi")), kt_scalar(TF_INT32, -3),
                      kt_scalar(TF_INT32, 1), NULL), -1);
  CHECK_STR_CONTAINS(TF_Message(S), "pos -3 out of range for string b'hi' at index 1");
  begin();
  CHECK_EQ_INT(substr(svec(1, SV("h\xc3\xa9llo")), kt_scalar(TF_INT32, 6),
                      kt_scalar(TF_INT32, 2), "UTF8_CHAR"), -1);
  CHECK_STR_CONTAINS(TF_Message(S), "pos 6 out of range for string at index 0");
  begin();
  CHECK_EQ_INT(substr(svec(2, SV("hello", "world")), kt_vec(TF_INT32, 3, KT_V(0, 1, 2)),
                      kt_vec(TF_INT32, 3, KT_V(1, 2, 3)), NULL), -1);
  CHECK_STR_CONTAINS(TF_Message(S), "Incompatible shapes: [2] vs. [3]");
  begin();
  CHECK_EQ_INT(substr(svec(2, SV("hello", "world")), kt_vec(TF_INT32, 2, KT_V(0, 1)),
                      kt_scalar(TF_INT32, 2), NULL), -1);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "pos and len should have the same shape, got: [2] vs. []");
}

static int as_string(TF_Tensor* x) {
  TF_Tensor* in[1] = {x};
  return kt_run("AsString", &A, in, 1, OUT, S);
}

TEST(as_string_formats) {
  begin();
  CHECK_EQ_INT(as_string(kt_vec(TF_FLOAT, 5, KT_V(1.5, -2.25, 1e10, NAN, INFINITY))), 1);
  check_strs(OUT[0], 5, SV("1.500000", "-2.250000", "10000000000.000000", "nan", "inf"));
  done1();
  begin();
  kt_attr_int(&A, "precision", 2);
  CHECK_EQ_INT(as_string(kt_vec(TF_FLOAT, 2, KT_V(1.5, -2.25))), 1);
  check_strs(OUT[0], 2, SV("1.50", "-2.25"));
  done1();
  begin();
  kt_attr_bool(&A, "scientific", 1);
  CHECK_EQ_INT(as_string(kt_vec(TF_FLOAT, 2, KT_V(1.5, -2.25))), 1);
  check_strs(OUT[0], 2, SV("1.500000e+00", "-2.250000e+00"));
  done1();
  begin();
  kt_attr_bool(&A, "shortest", 1);
  CHECK_EQ_INT(as_string(kt_vec(TF_FLOAT, 4, KT_V(1.5, 0.1, 1e20, 123456789.0))), 1);
  check_strs(OUT[0], 4, SV("1.5", "0.1", "1e+20", "1.23457e+08"));
  done1();
  begin();
  kt_attr_int(&A, "width", 12);
  kt_attr_string(&A, "fill", "0");
  CHECK_EQ_INT(as_string(kt_vec(TF_FLOAT, 1, KT_V(1.5))), 1);
  check_strs(OUT[0], 1, SV("00001.500000"));
  done1();
  begin();
  kt_attr_int(&A, "width", 12);
  CHECK_EQ_INT(as_string(kt_vec(TF_DOUBLE, 1, KT_V(1.5))), 1);
  check_strs(OUT[0], 1, SV("    1.500000"));
  done1();
  begin();
  kt_attr_int(&A, "width", 5);
  kt_attr_string(&A, "fill", "0");
  CHECK_EQ_INT(as_string(kt_vec(TF_INT64, 3, KT_V(1, -22, 333))), 1);
  check_strs(OUT[0], 3, SV("00001", "-0022", "00333"));
  done1();
  begin();
  CHECK_EQ_INT(as_string(kt_vec(TF_BOOL, 2, KT_V(1, 0))), 1);
  check_strs(OUT[0], 2, SV("true", "false"));
  done1();
  begin();
  {
    TF_Tensor* c = kt_vec(TF_COMPLEX64, 1, KT_V(1));
    ((float*)TF_TensorData(c))[1] = 2;
    kt_attr_int(&A, "precision", 1);
    CHECK_EQ_INT(as_string(c), 1);
    check_strs(OUT[0], 1, SV("(1.0,2.0)"));
    done1();
  }
  begin();
  CHECK_EQ_INT(as_string(kt_vec(TF_HALF, 1, KT_V(1.5))), 1);
  check_strs(OUT[0], 1, SV("1.500000"));
  done1();
  begin();
  CHECK_EQ_INT(as_string(kt_vec(TF_UINT8, 1, KT_V(200))), 1);
  check_strs(OUT[0], 1, SV("200"));
  done1();
  begin();
  kt_attr_int(&A, "width", 5);
  CHECK_EQ_INT(as_string(svec(1, SV("ab"))), 1);
  check_strs(OUT[0], 1, SV("   ab"));
  done1();
}

static void as_string_error(TF_Tensor* x, const char* msg) {
  CHECK_EQ_INT(as_string(x), -1);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), msg);
}

TEST(as_string_errors) {
  begin();
  kt_attr_int(&A, "precision", 2);
  as_string_error(kt_vec(TF_INT32, 1, KT_V(1)),
                  "precision not supported for datatype int32");
  begin();
  kt_attr_bool(&A, "scientific", 1);
  as_string_error(kt_vec(TF_INT32, 1, KT_V(1)),
                  "scientific and shortest format not supported for datatype int32");
  begin();
  kt_attr_bool(&A, "scientific", 1);
  kt_attr_bool(&A, "shortest", 1);
  as_string_error(kt_vec(TF_FLOAT, 1, KT_V(1)),
                  "Cannot select both scientific and shortest notation");
  begin();
  kt_attr_string(&A, "fill", "ab");
  as_string_error(kt_vec(TF_FLOAT, 1, KT_V(1)),
                  "Fill string must be one or fewer characters");
  begin();
  kt_attr_int(&A, "width", 4);
  kt_attr_string(&A, "fill", "x");
  as_string_error(kt_vec(TF_FLOAT, 1, KT_V(1)), "Fill argument not supported: \"x\"");
}

static int to_number(TF_Tensor* x, TF_DataType t) {
  TF_Tensor* in[1] = {x};
  kt_attr_type(&A, "out_type", t);
  return kt_run("StringToNumber", &A, in, 1, OUT, S);
}

TEST(string_to_number) {
  begin();
  CHECK_EQ_INT(to_number(svec(6, SV("1.5", " 2 ", "-3e2", "inf", "nan", "0x10")), TF_FLOAT), 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(6), KT_V(1.5, 2, -300, INFINITY, NAN, 16));
  done1();
  begin();
  CHECK_EQ_INT(to_number(svec(5, SV("1e40", "1e-50", "Infinity", "-INF", "NaN")), TF_FLOAT), 1);
  KT_CHECK(OUT[0], TF_FLOAT, KT_DIMS(5), KT_V(INFINITY, 0, INFINITY, -INFINITY, NAN));
  done1();
  begin();
  CHECK_EQ_INT(to_number(svec(2, SV("0.1", "1e308")), TF_DOUBLE), 1);
  KT_CHECK(OUT[0], TF_DOUBLE, KT_DIMS(2), KT_V(0.1, 1e308));
  done1();
  begin();
  CHECK_EQ_INT(to_number(svec(3, SV("12", " -3 ", "+4")), TF_INT32), 1);
  KT_CHECK(OUT[0], TF_INT32, KT_DIMS(3), KT_V(12, -3, 4));
  done1();
  begin();
  CHECK_EQ_INT(to_number(svec(2, SV("3000000000", "-9223372036854775808")), TF_INT64), 1);
  CHECK(((int64_t*)TF_TensorData(OUT[0]))[0] == 3000000000LL);
  CHECK(((int64_t*)TF_TensorData(OUT[0]))[1] == INT64_MIN);
  done1();
  begin();
  CHECK_EQ_INT(to_number(svec(1, SV("4000000000")), TF_UINT32), 1);
  KT_CHECK(OUT[0], TF_UINT32, KT_DIMS(1), KT_V(4000000000.0));
  done1();
  begin();
  CHECK_EQ_INT(to_number(svec(1, SV("18446744073709551615")), TF_UINT64), 1);
  CHECK(((uint64_t*)TF_TensorData(OUT[0]))[0] == UINT64_MAX);
  done1();
  {
    static const struct {
      const char* s;
      TF_DataType t;
    } bad[] = {{"abc", TF_FLOAT},        {"", TF_FLOAT},
               {"1.5x", TF_FLOAT},       {"1.5", TF_INT32},
               {"3000000000", TF_INT32}, {"-1", TF_UINT32},
               {"0x10", TF_INT32},       {"18446744073709551616", TF_UINT64}};
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      char want[128];
      begin();
      CHECK_EQ_INT(to_number(svec(1, &bad[i].s), bad[i].t), -1);
      CHECK_CODE(S, TF_INVALID_ARGUMENT);
      snprintf(want, sizeof want,
               "StringToNumberOp could not correctly convert string: %s",
               bad[i].s);
      CHECK_STR_CONTAINS(TF_Message(S), want);
    }
  }
}

TFE_TEST_MAIN
