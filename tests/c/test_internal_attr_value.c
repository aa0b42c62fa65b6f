/* Attr values and attr sets: construction, copies, equality and hashing
 * (the kernel-cache key), TF-style rendering, typed getters, dtype names,
 * allocation failures. White-box: links the static core. */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/attr_value.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

static void fmt(const tfe_attr_value* v, char* buf, size_t cap) {
  buf[0] = '\0';
  tfe_attr_value_format(v, buf, cap);
}

static TF_Tensor* int_tensor(const int32_t* vals, int64_t n) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, &n, 1, (size_t)n * 4);
  CHECK(t != NULL);
  memcpy(TF_TensorData(t), vals, (size_t)n * 4);
  return t;
}

TEST(scalars_and_format) {
  tfe_attr_value v;
  char buf[128];
  tfe_attr_value_set_int(&v, -42);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "-42");
  tfe_attr_value_set_float(&v, 0.2f);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "0.2");
  tfe_attr_value_set_float(&v, 1e-5f);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "1e-05");
  tfe_attr_value_set_float(&v, 16777216.0f);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "16777216");
  tfe_attr_value_set_float(&v, INFINITY);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "inf");
  tfe_attr_value_set_bool(&v, 7);
  CHECK_EQ_INT(v.v.b, 1);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "true");
  tfe_attr_value_set_bool(&v, 0);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "false");
  tfe_attr_value_set_type(&v, TF_FLOAT);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "DT_FLOAT");
  tfe_attr_value_set_type(&v, TF_BFLOAT16);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "DT_BFLOAT16");

  CHECK(tfe_attr_value_set_string(&v, "abc", 3));
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "\"abc\"");
  CHECK_EQ_SIZE(v.v.s.len, 3);
  CHECK_EQ_INT(v.v.s.data[3], '\0');
  tfe_attr_value_clear(&v);
  CHECK(tfe_attr_value_set_string(&v, "a\"b\n\x01", 5));
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "\"a\\\"b\\n\\001\"");
  tfe_attr_value_clear(&v);
  /* Long strings keep 10 characters each side. */
  CHECK(tfe_attr_value_set_string(
      &v, "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 82));
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "\"0123456789...0123456789\"");
  tfe_attr_value_clear(&v);
  CHECK(tfe_attr_value_set_func(&v, "my_fn", 5));
  CHECK_EQ_INT(v.type, TF_ATTR_FUNC);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "my_fn[]");
  tfe_attr_value_clear(&v);
  CHECK(tfe_attr_value_set_string(&v, NULL, 0));
  CHECK_EQ_SIZE(v.v.s.len, 0);
  tfe_attr_value_clear(&v);
  tfe_attr_value_clear(NULL);
}

TEST(shapes_and_format) {
  tfe_attr_value v;
  char buf[64];
  CHECK(tfe_attr_value_set_shape(&v, (const int64_t[]){2, 3}, 2));
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "[2,3]");
  tfe_attr_value_clear(&v);
  CHECK(tfe_attr_value_set_shape(&v, (const int64_t[]){-1, 3}, 2));
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "[?,3]");
  tfe_attr_value_clear(&v);
  CHECK(tfe_attr_value_set_shape(&v, NULL, -1));
  CHECK_EQ_INT(v.v.shape.num_dims, -1);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "<unknown>");
  tfe_attr_value_clear(&v);
  CHECK(tfe_attr_value_set_shape(&v, NULL, 0));
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "[]");
  tfe_attr_value_clear(&v);
  CHECK(tfe_attr_value_set_shape(&v, NULL, 2)); /* dims unknown */
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "[?,?]");
  tfe_attr_value_clear(&v);
}

TEST(lists_and_format) {
  tfe_attr_value v;
  char buf[256];
  CHECK(tfe_attr_value_set_int_list(&v, (const int64_t[]){1, 2}, 2));
  CHECK(v.is_list);
  CHECK_EQ_INT(v.list_size, 2);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "[1, 2]");
  tfe_attr_value_clear(&v);
  CHECK(tfe_attr_value_set_int_list(&v, NULL, 0));
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "[]");
  tfe_attr_value_clear(&v);
  CHECK(tfe_attr_value_set_float_list(&v, (const float[]){1.5f, -0.25f}, 2));
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "[1.5, -0.25]");
  tfe_attr_value_clear(&v);
  CHECK(tfe_attr_value_set_bool_list(&v, (const unsigned char[]){1, 0, 5}, 3));
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "[true, false, true]");
  tfe_attr_value_clear(&v);
  CHECK(tfe_attr_value_set_type_list(&v, (const TF_DataType[]){TF_FLOAT, TF_INT32}, 2));
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "[DT_FLOAT, DT_INT32]");
  tfe_attr_value_clear(&v);
  {
    const void* strs[] = {"a", "bc"};
    const size_t lens[] = {1, 2};
    CHECK(tfe_attr_value_set_string_list(&v, strs, lens, 2));
    fmt(&v, buf, sizeof buf);
    CHECK_STR_EQ(buf, "[\"a\", \"bc\"]");
    CHECK_EQ_SIZE(v.list.s.len[1], 2);
    tfe_attr_value_clear(&v);
    /* lens NULL: NUL-terminated strings */
    CHECK(tfe_attr_value_set_string_list(&v, strs, NULL, 2));
    CHECK_EQ_SIZE(v.list.s.len[1], 2);
    tfe_attr_value_clear(&v);
  }
  {
    const int64_t d0[] = {2, -1};
    const int64_t* dims[] = {d0, NULL};
    const int nd[] = {2, -1};
    CHECK(tfe_attr_value_set_shape_list(&v, dims, nd, 2));
    fmt(&v, buf, sizeof buf);
    CHECK_STR_EQ(buf, "[[2,?], <unknown>]");
    tfe_attr_value_clear(&v);
  }
  /* 30 or more elements are shortened as TF does. */
  {
    int64_t xs[40];
    int i;
    for (i = 0; i < 40; i++) xs[i] = i;
    CHECK(tfe_attr_value_set_int_list(&v, xs, 40));
    fmt(&v, buf, sizeof buf);
    CHECK(strncmp(buf, "[0, 1, 2, 3, 4, ..., 34, 35, 36, 37, 38, 39]{attr_hash=",
                  55) == 0);
    tfe_attr_value_clear(&v);
  }
}

TEST(format_appends_and_truncates) {
  tfe_attr_value v;
  char buf[16];
  char junk[4] = {'x', 'x', 'x', 'x'};
  tfe_attr_value_set_type(&v, TF_COMPLEX128);
  strcpy(buf, "T=");
  tfe_attr_value_format(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "T=DT_COMPLEX128");
  strcpy(buf, "xyz=");
  tfe_attr_value_format(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "xyz=DT_COMPLEX1");
  CHECK_EQ_SIZE(strlen(buf), 15);
  /* No NUL in the buffer: written from the start. */
  tfe_attr_value_set_int(&v, 5);
  tfe_attr_value_format(&v, junk, sizeof junk);
  CHECK_STR_EQ(junk, "5");
  tfe_attr_value_format(&v, NULL, 10);
  tfe_attr_value_format(&v, buf, 0);
}

TEST(tensor_values_share_buffers) {
  tfe_attr_value v, c;
  char buf[128];
  TF_Tensor* t = int_tensor((const int32_t[]){9, 8, 7, 6}, 4);
  TF_Tensor* t2 = int_tensor((const int32_t[]){9, 8, 7, 6}, 4);
  TF_Tensor* t3 = int_tensor((const int32_t[]){9, 8, 7, 5}, 4);
  int64_t before = TFE_LiveObjectCount(TFE_OBJ_TENSOR_BUFFER);
  CHECK(tfe_attr_value_set_tensor(&v, t));
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR_BUFFER), before);
  CHECK(TF_TensorData(v.v.tensor) == TF_TensorData(t));
  TF_DeleteTensor(t); /* the value keeps the buffer alive */
  CHECK_EQ_INT(((const int32_t*)TF_TensorData(v.v.tensor))[3], 6);
  fmt(&v, buf, sizeof buf);
  CHECK_STR_EQ(buf, "Tensor<type: int32 shape: [4] values: 9 8 7...>");
  CHECK(tfe_attr_value_copy(&c, &v));
  CHECK(tfe_attr_value_equal(&c, &v));
  tfe_attr_value_clear(&c);
  CHECK(tfe_attr_value_set_tensor(&c, t2));
  CHECK(tfe_attr_value_equal(&c, &v));
  CHECK_EQ_INT(tfe_attr_value_hash(&c), tfe_attr_value_hash(&v));
  tfe_attr_value_clear(&c);
  CHECK(tfe_attr_value_set_tensor(&c, t3));
  CHECK(!tfe_attr_value_equal(&c, &v));
  tfe_attr_value_clear(&c);
  CHECK(!tfe_attr_value_set_tensor(&c, NULL));
  {
    TF_Tensor* ts[] = {t2, t3};
    CHECK(tfe_attr_value_set_tensor_list(&c, ts, 2));
    CHECK_EQ_INT(c.list_size, 2);
    tfe_attr_value_clear(&c);
  }
  tfe_attr_value_clear(&v);
  TF_DeleteTensor(t2);
  TF_DeleteTensor(t3);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR_BUFFER), before - 3);
}

TEST(string_tensors_compare_by_content) {
  int64_t n = 2;
  TF_Tensor* a = TF_AllocateTensor(TF_STRING, &n, 1, 2 * sizeof(TF_TString));
  TF_Tensor* b = TF_AllocateTensor(TF_STRING, &n, 1, 2 * sizeof(TF_TString));
  tfe_attr_value va, vb;
  TF_StringCopy(&((TF_TString*)TF_TensorData(a))[0], "hello", 5);
  TF_StringCopy(&((TF_TString*)TF_TensorData(a))[1], "a much longer string here", 25);
  TF_StringCopy(&((TF_TString*)TF_TensorData(b))[0], "hello", 5);
  TF_StringCopy(&((TF_TString*)TF_TensorData(b))[1], "a much longer string here", 25);
  CHECK(tfe_attr_value_set_tensor(&va, a));
  CHECK(tfe_attr_value_set_tensor(&vb, b));
  CHECK(tfe_attr_value_equal(&va, &vb));
  CHECK_EQ_INT(tfe_attr_value_hash(&va), tfe_attr_value_hash(&vb));
  TF_StringCopy(&((TF_TString*)TF_TensorData(b))[0], "hellO", 5);
  CHECK(!tfe_attr_value_equal(&va, &vb));
  tfe_attr_value_clear(&va);
  tfe_attr_value_clear(&vb);
  TF_DeleteTensor(a);
  TF_DeleteTensor(b);
}

/* Copies are deep and equal; equal values hash equal. */
TEST(copy_equal_hash) {
  tfe_attr_value vals[10], c;
  const void* strs[] = {"x", "yy"};
  const int64_t d0[] = {3};
  const int64_t* dims[] = {d0};
  const int nd[] = {1};
  int i, j;
  tfe_attr_value_set_int(&vals[0], 3);
  tfe_attr_value_set_float(&vals[1], 3.0f);
  tfe_attr_value_set_bool(&vals[2], 1);
  tfe_attr_value_set_type(&vals[3], TF_INT32);
  CHECK(tfe_attr_value_set_string(&vals[4], "abc", 3));
  CHECK(tfe_attr_value_set_shape(&vals[5], (const int64_t[]){1, 2}, 2));
  CHECK(tfe_attr_value_set_int_list(&vals[6], (const int64_t[]){1, 2}, 2));
  CHECK(tfe_attr_value_set_string_list(&vals[7], strs, NULL, 2));
  CHECK(tfe_attr_value_set_shape_list(&vals[8], dims, nd, 1));
  CHECK(tfe_attr_value_set_func(&vals[9], "abc", 3));
  for (i = 0; i < 10; i++) {
    CHECK(tfe_attr_value_copy(&c, &vals[i]));
    CHECK(tfe_attr_value_equal(&c, &vals[i]));
    CHECK_EQ_INT(tfe_attr_value_hash(&c), tfe_attr_value_hash(&vals[i]));
    /* Deep: the copy owns separate memory. */
    if (vals[i].type == TF_ATTR_STRING && !vals[i].is_list) {
      CHECK(c.v.s.data != vals[i].v.s.data);
    }
    if (vals[i].is_list && vals[i].type == TF_ATTR_STRING) {
      CHECK(c.list.s.data[0] != vals[i].list.s.data[0]);
    }
    tfe_attr_value_clear(&c);
    for (j = 0; j < 10; j++) {
      CHECK_EQ_INT(tfe_attr_value_equal(&vals[i], &vals[j]), i == j);
    }
  }
  /* Empty lists carry no element type: all equal. */
  {
    tfe_attr_value e1, e2;
    CHECK(tfe_attr_value_set_int_list(&e1, NULL, 0));
    CHECK(tfe_attr_value_set_type_list(&e2, NULL, 0));
    CHECK(tfe_attr_value_equal(&e1, &e2));
    CHECK_EQ_INT(tfe_attr_value_hash(&e1), tfe_attr_value_hash(&e2));
    tfe_attr_value_clear(&e1);
    tfe_attr_value_clear(&e2);
  }
  /* Floats compare by bits, as TF's serialized protos do. */
  {
    tfe_attr_value z, nz;
    tfe_attr_value_set_float(&z, 0.0f);
    tfe_attr_value_set_float(&nz, -0.0f);
    CHECK(!tfe_attr_value_equal(&z, &nz));
  }
  for (i = 0; i < 10; i++) tfe_attr_value_clear(&vals[i]);
  CHECK(!tfe_attr_value_copy(&c, NULL));
  CHECK(tfe_attr_value_equal(NULL, NULL));
}

TEST(attr_sets) {
  tfe_attrs a, b;
  tfe_attr_value v;
  int64_t i64 = 0;
  tfe_attrs_init(&a);
  tfe_attrs_init(&b);
  tfe_attr_value_set_type(&v, TF_FLOAT);
  CHECK(tfe_attrs_put(&a, "T", &v));
  CHECK_EQ_INT(v.type, 0); /* moved out */
  tfe_attr_value_set_int(&v, 3);
  CHECK(tfe_attrs_put(&a, "N", &v));
  CHECK(tfe_attr_value_set_string(&v, "SAME", 4));
  CHECK(tfe_attrs_put(&a, "padding", &v));
  CHECK_EQ_INT(a.count, 3);
  CHECK(tfe_attrs_find(&a, "N") != NULL);
  CHECK(tfe_attrs_find(&a, "M") == NULL);
  CHECK(tfe_attrs_find(NULL, "N") == NULL);
  CHECK(tfe_attrs_find(&a, NULL) == NULL);
  /* Replacing keeps the count. */
  tfe_attr_value_set_int(&v, 4);
  CHECK(tfe_attrs_put(&a, "N", &v));
  CHECK_EQ_INT(a.count, 3);
  CHECK(tfe_attrs_get_int(&a, "N", &i64, NULL));
  CHECK_EQ_INT(i64, 4);

  /* The same entries in another order: equal, same hash. */
  CHECK(tfe_attr_value_set_string(&v, "SAME", 4));
  CHECK(tfe_attrs_put(&b, "padding", &v));
  tfe_attr_value_set_int(&v, 4);
  CHECK(tfe_attrs_put(&b, "N", &v));
  tfe_attr_value_set_type(&v, TF_FLOAT);
  CHECK(tfe_attrs_put(&b, "T", &v));
  CHECK(tfe_attrs_equal(&a, &b));
  CHECK_EQ_INT(tfe_attrs_hash(&a), tfe_attrs_hash(&b));
  tfe_attr_value_set_type(&v, TF_DOUBLE);
  CHECK(tfe_attrs_put(&b, "T", &v));
  CHECK(!tfe_attrs_equal(&a, &b));
  CHECK(tfe_attrs_hash(&a) != tfe_attrs_hash(&b));
  /* Swapping values between names changes the hash. */
  {
    tfe_attrs x, y;
    tfe_attrs_init(&x);
    tfe_attrs_init(&y);
    tfe_attr_value_set_int(&v, 1);
    CHECK(tfe_attrs_put(&x, "a", &v));
    tfe_attr_value_set_int(&v, 2);
    CHECK(tfe_attrs_put(&x, "b", &v));
    tfe_attr_value_set_int(&v, 2);
    CHECK(tfe_attrs_put(&y, "a", &v));
    tfe_attr_value_set_int(&v, 1);
    CHECK(tfe_attrs_put(&y, "b", &v));
    CHECK(!tfe_attrs_equal(&x, &y));
    CHECK(tfe_attrs_hash(&x) != tfe_attrs_hash(&y));
    tfe_attrs_destroy(&x);
    tfe_attrs_destroy(&y);
  }
  /* merge copies deeply and replaces same names. */
  tfe_attrs_clear(&b);
  CHECK_EQ_INT(b.count, 0);
  tfe_attr_value_set_int(&v, 99);
  CHECK(tfe_attrs_put(&b, "N", &v));
  tfe_attr_value_set_bool(&v, 1);
  CHECK(tfe_attrs_put(&b, "extra", &v));
  CHECK(tfe_attrs_merge(&b, &a));
  CHECK_EQ_INT(b.count, 4);
  CHECK(tfe_attrs_get_int(&b, "N", &i64, NULL));
  CHECK_EQ_INT(i64, 4);
  CHECK(tfe_attrs_find(&b, "padding")->v.s.data != tfe_attrs_find(&a, "padding")->v.s.data);
  CHECK(tfe_attrs_merge(&b, NULL));
  CHECK(tfe_attrs_merge(&b, &b));
  tfe_attrs_destroy(&a);
  tfe_attrs_destroy(&b);
  tfe_attrs_destroy(NULL);
  CHECK(!tfe_attrs_put(NULL, "x", NULL));
}

TEST(typed_getters) {
  TF_Status* s = TF_NewStatus();
  tfe_attrs a;
  tfe_attr_value v;
  int64_t i64;
  float f;
  int b;
  TF_DataType t;
  const char* str;
  size_t len;
  const int64_t* il;
  const TF_DataType* tl;
  const tfe_shape* sh;
  int n;
  tfe_attrs_init(&a);
  tfe_attr_value_set_int(&v, 7);
  CHECK(tfe_attrs_put(&a, "i", &v));
  tfe_attr_value_set_float(&v, 1.5f);
  CHECK(tfe_attrs_put(&a, "f", &v));
  tfe_attr_value_set_bool(&v, 1);
  CHECK(tfe_attrs_put(&a, "b", &v));
  tfe_attr_value_set_type(&v, TF_HALF);
  CHECK(tfe_attrs_put(&a, "t", &v));
  CHECK(tfe_attr_value_set_string(&v, "xy", 2));
  CHECK(tfe_attrs_put(&a, "s", &v));
  CHECK(tfe_attr_value_set_int_list(&v, (const int64_t[]){5, 6}, 2));
  CHECK(tfe_attrs_put(&a, "il", &v));
  CHECK(tfe_attr_value_set_type_list(&v, (const TF_DataType[]){TF_BOOL}, 1));
  CHECK(tfe_attrs_put(&a, "tl", &v));
  CHECK(tfe_attr_value_set_shape(&v, (const int64_t[]){4}, 1));
  CHECK(tfe_attrs_put(&a, "sh", &v));
  CHECK(tfe_attr_value_set_float_list(&v, NULL, 0));
  CHECK(tfe_attrs_put(&a, "empty", &v));

  CHECK(tfe_attrs_get_int(&a, "i", &i64, s) && i64 == 7);
  CHECK(tfe_attrs_get_float(&a, "f", &f, s) && f == 1.5f);
  CHECK(tfe_attrs_get_bool(&a, "b", &b, s) && b == 1);
  CHECK(tfe_attrs_get_type(&a, "t", &t, s) && t == TF_HALF);
  CHECK(tfe_attrs_get_string(&a, "s", &str, &len, s) && len == 2);
  CHECK_STR_EQ(str, "xy");
  CHECK(tfe_attrs_get_int_list(&a, "il", &il, &n, s) && n == 2 && il[1] == 6);
  CHECK(tfe_attrs_get_type_list(&a, "tl", &tl, &n, s) && n == 1 && tl[0] == TF_BOOL);
  CHECK(tfe_attrs_get_shape(&a, "sh", &sh, s) && sh->num_dims == 1 && sh->dims[0] == 4);
  /* An empty list matches any list getter. */
  CHECK(tfe_attrs_get_int_list(&a, "empty", &il, &n, s) && n == 0 && il == NULL);
  CHECK_CODE(s, TF_OK);

  CHECK(!tfe_attrs_get_int(&a, "missing", &i64, s));
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_EQ(TF_Message(s), "No attr named 'missing' in NodeDef:");
  CHECK(!tfe_attrs_get_float(&a, "s", &f, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "AttrValue had value with type 'string' when 'float' expected\n"
               "\t for attr 's'");
  CHECK(!tfe_attrs_get_int(&a, "il", &i64, s));
  CHECK_STR_CONTAINS(TF_Message(s), "type 'list(int)' when 'int' expected");
  CHECK(!tfe_attrs_get_int_list(&a, "i", &il, &n, s));
  CHECK_STR_CONTAINS(TF_Message(s), "type 'int' when 'list(int)' expected");
  CHECK(!tfe_attrs_get_type(&a, "i", &t, NULL)); /* NULL status is fine */
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

TEST(dtype_names_for_every_value) {
  int i;
  for (i = 1; i <= 33; i++) {
    const char* e = tfe_dtype_enum_name((TF_DataType)i);
    const char* sn = tfe_dtype_short_name((TF_DataType)i);
    TF_DataType back = (TF_DataType)0;
    CHECK(strncmp(e, "DT_", 3) == 0);
    CHECK(strcmp(e, "DT_INVALID") != 0);
    CHECK(sn != NULL);
    CHECK(tfe_dtype_from_name(sn, strlen(sn), &back));
    CHECK_EQ_INT(back, i);
    back = (TF_DataType)0;
    CHECK(tfe_dtype_from_name(e, strlen(e), &back));
    CHECK_EQ_INT(back, i);
  }
  CHECK_STR_EQ(tfe_dtype_enum_name(TF_FLOAT), "DT_FLOAT");
  CHECK_STR_EQ(tfe_dtype_short_name(TF_FLOAT), "float");
  CHECK_STR_EQ(tfe_dtype_short_name(TF_HALF), "half");
  CHECK_STR_EQ(tfe_dtype_short_name(TF_RESOURCE), "resource");
  CHECK_STR_EQ(tfe_dtype_short_name(TF_FLOAT8_E4M3FN), "float8_e4m3fn");
  CHECK_STR_EQ(tfe_dtype_enum_name(TF_UINT2), "DT_UINT2");
  CHECK_STR_EQ(tfe_dtype_enum_name((TF_DataType)0), "DT_INVALID");
  CHECK_STR_EQ(tfe_dtype_enum_name((TF_DataType)77), "DT_INVALID");
  CHECK_STR_EQ(tfe_dtype_enum_name((TF_DataType)-3), "DT_INVALID");
  CHECK(tfe_dtype_short_name((TF_DataType)0) == NULL);
  CHECK(tfe_dtype_short_name((TF_DataType)34) == NULL);
  {
    TF_DataType t;
    CHECK(tfe_dtype_from_name("float32", 7, &t) && t == TF_FLOAT);
    CHECK(tfe_dtype_from_name("float64", 7, &t) && t == TF_DOUBLE);
    CHECK(tfe_dtype_from_name("float16", 7, &t) && t == TF_HALF);
    CHECK(tfe_dtype_from_name("int32xyz", 5, &t) && t == TF_INT32);
    CHECK(!tfe_dtype_from_name("floa", 4, &t));
    CHECK(!tfe_dtype_from_name("", 0, &t));
    CHECK(!tfe_dtype_from_name(NULL, 3, &t));
    CHECK(!tfe_dtype_from_name("DT_INVALID", 10, &t));
  }
}

/* The kernel-cache key is computed without allocating. */
TEST(hash_allocates_nothing) {
  tfe_attrs a;
  tfe_attr_value v;
  uint64_t h1, h2;
  tfe_attrs_init(&a);
  tfe_attr_value_set_type(&v, TF_FLOAT);
  CHECK(tfe_attrs_put(&a, "T", &v));
  CHECK(tfe_attr_value_set_int_list(&v, (const int64_t[]){1, 2, 3}, 3));
  CHECK(tfe_attrs_put(&a, "dims", &v));
  CHECK(tfe_attr_value_set_string(&v, "NHWC", 4));
  CHECK(tfe_attrs_put(&a, "data_format", &v));
  h1 = tfe_attrs_hash(&a);
  TFE_TestFailAllocationsAfter(0);
  h2 = tfe_attrs_hash(&a);
  CHECK(tfe_attrs_equal(&a, &a));
  TFE_TestFailAllocationsAfter(-1);
  CHECK_EQ_INT(h1, h2);
  tfe_attrs_destroy(&a);
}

TEST(out_of_memory_paths) {
  int n, ok_seen = 0;
  const void* strs[] = {"alpha", "beta", "gamma"};
  const int64_t d0[] = {1, 2}, d1[] = {3};
  const int64_t* dims[] = {d0, d1};
  const int nd[] = {2, 1};
  for (n = 0; n < 50 && !ok_seen; n++) {
    tfe_attr_value a, b, c;
    tfe_attrs set;
    int r1, r2, r3, r4, r5;
    tfe_attrs_init(&set);
    TFE_TestFailAllocationsAfter(n);
    r1 = tfe_attr_value_set_string_list(&a, strs, NULL, 3);
    r2 = tfe_attr_value_set_shape_list(&b, dims, nd, 2);
    r3 = r1 ? tfe_attr_value_copy(&c, &a) : 0;
    r4 = r2 ? tfe_attrs_put(&set, "shapes", &b) : 0;
    r5 = r3 ? tfe_attrs_put(&set, "strings", &c) : 0;
    TFE_TestFailAllocationsAfter(-1);
    /* Failures leave zeroed values; nothing leaks (ASan checks). */
    if (!r1) CHECK_EQ_INT(a.list_size, 0);
    if (!r2) CHECK_EQ_INT(b.list_size, 0);
    if (r1 && !r3) CHECK_EQ_INT(c.list_size, 0);
    if (r1) tfe_attr_value_clear(&a);
    if (r2 && !r4) tfe_attr_value_clear(&b);
    if (r3 && !r5) CHECK_EQ_INT(c.list_size, 0);
    if (r1 && r2 && r3 && r4 && r5) {
      ok_seen = 1;
      CHECK_EQ_INT(set.count, 2);
    }
    tfe_attrs_destroy(&set);
  }
  CHECK(ok_seen);
}

TFE_TEST_MAIN
