/* The op-definition grammar: accepted and rejected specs (with TF's codes
 * and message fragments), parse results, default values, nasty inputs and
 * the render/parse round trip. White-box: links the static core. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "tfe_test.h"

enum { IN, OUT, ATTR };

static int add_spec(tfe_op_def* d, int kind, const char* spec, TF_Status* s) {
  switch (kind) {
    case IN: return tfe_op_def_add_input(d, spec, s);
    case OUT: return tfe_op_def_add_output(d, spec, s);
    default: return tfe_op_def_add_attr(d, spec, s);
  }
}

/* Parses one spec into a fresh def "Foo"; returns the def (caller frees)
 * and leaves the status set. */
static tfe_op_def* parse_one(int kind, const char* spec, TF_Status* s) {
  tfe_op_def* d = tfe_op_def_new("Foo");
  CHECK(d != NULL);
  add_spec(d, kind, spec, s);
  return d;
}

typedef struct {
  int kind;
  const char* spec;
} good_case;

TEST(accepts_tf_grammar) {
  static const good_case cases[] = {
      {ATTR, "T: {float, double, int32}"},
      {ATTR, "T: {float,double}"},
      {ATTR, "T: { float , double , }"},
      {ATTR, "T: numbertype"},
      {ATTR, "T: realnumbertype"},
      {ATTR, "T: quantizedtype"},
      {ATTR, "T: numerictype"},
      {ATTR, "T: {numbertype, bool, string}"},
      {ATTR, "T: type"},
      {ATTR, "T: type = DT_FLOAT"},
      {ATTR, "T: type = float"},
      {ATTR, "T: {float, int32} = DT_INT32"},
      {ATTR, "N: int >= 1"},
      {ATTR, "N: int>=0"},
      {ATTR, "N: int >= -5"},
      {ATTR, "N: int >= 2 = 3"},
      {ATTR, "axis: int = -1"},
      {ATTR, "axis: int = 0x10"},
      {ATTR, "transpose_a: bool = false"},
      {ATTR, "transpose_a: bool = true"},
      {ATTR, "b: bool = True"},
      {ATTR, "alpha: float = 0.2"},
      {ATTR, "alpha: float = 1"},
      {ATTR, "alpha: float = -1.5e-3"},
      {ATTR, "alpha: float = 2.0f"},
      {ATTR, "alpha: float = inf"},
      {ATTR, "alpha: float = -inf"},
      {ATTR, "alpha: float = nan"},
      {ATTR, "padding: {'SAME', 'VALID'}"},
      {ATTR, "padding: {\"SAME\", \"VALID\"} = \"VALID\""},
      {ATTR, "mode: {'REFLECT', 'SYMMETRIC'} = 'REFLECT'"},
      {ATTR, "data_format: string = 'NHWC'"},
      {ATTR, "s: string = ''"},
      {ATTR, "s: string = 'a\\n\\t\\'b\\x41\\101'"},
      {ATTR, "s: string = 'ab' \"cd\""},
      {ATTR, "dims: list(int) >= 1"},
      {ATTR, "dims: list(int) = [1, 2]"},
      {ATTR, "dims: list(int) = []"},
      {ATTR, "dims: list(int) >= 0 = [ ]"},
      {ATTR, "f: list(float) = [1.0, 2.5]"},
      {ATTR, "b: list(bool) = [true, false]"},
      {ATTR, "T: list(type)"},
      {ATTR, "T: list(type) >= 0"},
      {ATTR, "T: list({float, int32}) = [DT_FLOAT]"},
      {ATTR, "s: list(string) = ['a', 'b']"},
      {ATTR, "s: list({'a', 'b'}) = ['a']"},
      {ATTR, "shape: shape"},
      {ATTR, "shape: shape = { unknown_rank: true }"},
      {ATTR, "shape: shape = {}"},
      {ATTR, "shape: shape = { dim { size: 2 } dim { size: -1 } }"},
      {ATTR, "shape: shape = { dim: { size: 2 }, dim { size: 3 name: 'x' } }"},
      {ATTR, "shape: shape = [2, ?, 3]"},
      {ATTR, "shape: shape = []"},
      {ATTR, "shape: shape = <unknown>"},
      {ATTR, "shapes: list(shape) >= 0 = []"},
      {ATTR, "shapes: list(shape) = [{ dim { size: 1 } }, { unknown_rank: true }]"},
      {ATTR, "value: tensor"},
      {ATTR, "value: tensor = { dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: 7 }"},
      {ATTR, "value: tensor = { dtype: DT_STRING tensor_shape { } string_val: 'x' }"},
      {ATTR, "f: func"},
      {ATTR, "f: func = { name: 'g' }"},
      {ATTR, "fs: list(func) = []"},
      {ATTR, "x1_Y: int"},
      {ATTR, "T : type"},
      {ATTR, "T:type"},
      {IN, "x: T"},
      {IN, "x:T"},
      {IN, "x : T"},
      {IN, "x: float"},
      {IN, "x: float32"},
      {IN, "x: resource"},
      {IN, "values: N * T"},
      {IN, "values: N*T"},
      {IN, "values: N * int32"},
      {IN, "x: Ref(T)"},
      {IN, "x: Ref( T )"},
      {IN, "x: Ref(N * T)"},
      {OUT, "out: Tout"},
      {OUT, "y_2: bool"},
  };
  TF_Status* s = TF_NewStatus();
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tfe_op_def* d = parse_one(cases[i].kind, cases[i].spec, s);
    if (TF_GetCode(s) != TF_OK) {
      TFE_FAIL("spec \"%s\" rejected: %s", cases[i].spec, TF_Message(s));
    }
    tfe_op_def_free(d);
  }
  TF_DeleteStatus(s);
}

typedef struct {
  int kind;
  const char* spec;
  const char* fragment;
} bad_case;

TEST(rejects_with_tf_messages) {
  static const bad_case cases[] = {
      {ATTR, "", "Trouble parsing '<name>:' from Attr(\"\") for Op Foo"},
      {ATTR, "T", "Trouble parsing '<name>:'"},
      {ATTR, "1T: type", "Trouble parsing '<name>:'"},
      {ATTR, "_T: type", "Trouble parsing '<name>:'"},
      {ATTR, "T: ", "Trouble parsing type string at ''"},
      {ATTR, "T: floaty", "Extra 'y' unparsed at the end"},
      {ATTR, "T: flo", "Trouble parsing type string at 'flo'"},
      {ATTR, "T: int32", "Extra '32' unparsed at the end"},
      {ATTR, "T: type x", "Extra 'x' unparsed at the end"},
      {ATTR, "T: {float, double", "Expected , or } after types in list, not: ''"},
      {ATTR, "T: {", "Trouble parsing type string at ''"},
      {ATTR, "T: {}", "Trouble parsing type string at '}'"},
      {ATTR, "T: {float double}", "Expected , or } after types in list, not: 'double}'"},
      {ATTR, "T: {floot}", "Unrecognized type string 'floot'"},
      {ATTR, "T: {DT_FLOAT}", "Trouble parsing type string at 'DT_FLOAT}'"},
      {ATTR, "m: {'A', 'B'", "Expected , or } after strings in list, not: ''"},
      {ATTR, "m: {'A", "Trouble parsing allowed string at ''A'"},
      {ATTR, "m: {'A', B}", "Trouble parsing allowed string at 'B}'"},
      {ATTR, "m: {'\\q'}", "Trouble unescaping"},
      {ATTR, "l: list(int", "Expected ) to close 'list(', not: ''"},
      {ATTR, "l: list(int] = []", "Expected ) to close 'list(', not: '] = []'"},
      {ATTR, "N: int >= ", "Could not parse integer lower limit after '>=', found ' ' instead"},
      {ATTR, "N: int >= x", "Could not parse integer lower limit after '>=', found ' x' instead"},
      {ATTR, "N: int >= 99999999999999999999", "Could not parse integer lower limit"},
      {ATTR, "N: int >= 0x10", "Extra 'x10' unparsed at the end"},
      {ATTR, "f: float >= 1", "Extra '>= 1' unparsed at the end"},
      {ATTR, "T: type >= 1", "Extra '>= 1' unparsed at the end"},
      {ATTR, "N: int = ", "Could not parse default value ''"},
      {ATTR, "N: int = 1.5", "Could not parse default value '1.5'"},
      {ATTR, "N: int = x", "Could not parse default value 'x'"},
      {ATTR, "N: int = 99999999999999999999", "Could not parse default value"},
      {ATTR, "N: int = 1 2", "Could not parse default value '1 2'"},
      {ATTR, "N: int = [1]", "Could not parse default value '[1]'"},
      {ATTR, "b: bool = yes", "Could not parse default value 'yes'"},
      {ATTR, "f: float = abc", "Could not parse default value 'abc'"},
      {ATTR, "f: float = 1e", "Could not parse default value"},
      {ATTR, "s: string = 'abc", "Could not parse default value ''abc'"},
      {ATTR, "s: string = abc", "Could not parse default value 'abc'"},
      {ATTR, "s: string = '\\z'", "Could not parse default value"},
      {ATTR, "T: type = DT_BOGUS", "Could not parse default value 'DT_BOGUS'"},
      {ATTR, "T: type = 999", "Could not parse default value '999'"},
      {ATTR, "l: list(int) = 1", "Could not parse default value '1'"},
      {ATTR, "l: list(int) = [1, 2", "Could not parse default value '[1, 2'"},
      {ATTR, "l: list(int) = [1,]", "Could not parse default value"},
      {ATTR, "l: list(int) = [1 2]", "Could not parse default value"},
      {ATTR, "shape: shape = { dim { size: -2 } }", "Could not parse default value"},
      {ATTR, "shape: shape = { dim { size: 1 }", "Could not parse default value"},
      {ATTR, "shape: shape = { bogus: 1 }", "Could not parse default value"},
      {ATTR, "shape: shape = [1, x]", "Could not parse default value"},
      {ATTR, "value: tensor = { dtype: DT_INT32 int_val: 'a' }", "Could not parse default value"},
      {ATTR, "value: tensor = { dtype: DT_FLOAT tensor_shape { dim { size: 1 } } int_val: 1 }", "Could not parse default value"},
      {ATTR, "value: tensor = { tensor_shape { } }", "Could not parse default value"},
      {ATTR, "f: func = { name: 'g' attr { } }", "Could not parse default value"},
      {IN, "", "Trouble parsing 'name:' from Input(\"\") for Op Foo"},
      {IN, "X: T", "Trouble parsing 'name:'"},
      {IN, "x T", "Trouble parsing 'name:'"},
      {IN, "x: ", "Trouble parsing either a type or an attr name at ''"},
      {IN, "x: 3", "Trouble parsing either a type or an attr name at '3'"},
      {IN, "x: T extra", "Extra 'extra' unparsed at the end"},
      {IN, "x: N *", "Extra '*' unparsed at the end"},
      {IN, "x: N * T * U", "Extra '* U' unparsed at the end"},
      {IN, "x: Ref(T", "Did not find closing ')' for 'Ref(', instead found: ''"},
      {IN, "x: Ref(T]", "Did not find closing ')' for 'Ref(', instead found: ']'"},
      {OUT, "y", "Trouble parsing 'name:' from Output(\"y\") for Op Foo"},
      {OUT, "y: T)", "Extra ')' unparsed at the end"},
  };
  TF_Status* s = TF_NewStatus();
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tfe_op_def* d = parse_one(cases[i].kind, cases[i].spec, s);
    if (TF_GetCode(s) != TF_INVALID_ARGUMENT) {
      TFE_FAIL("spec \"%s\": code %d, expected INVALID_ARGUMENT (%s)",
               cases[i].spec, (int)TF_GetCode(s), TF_Message(s));
    }
    if (strstr(TF_Message(s), cases[i].fragment) == NULL) {
      TFE_FAIL("spec \"%s\": message \"%s\" lacks \"%s\"", cases[i].spec,
               TF_Message(s), cases[i].fragment);
    }
    if (strstr(TF_Message(s), "for Op Foo") == NULL) {
      TFE_FAIL("spec \"%s\": message \"%s\" does not name the op",
               cases[i].spec, TF_Message(s));
    }
    /* A failed spec leaves the definition unchanged. */
    CHECK_EQ_INT(d->num_inputs + d->num_outputs + d->num_attrs, 0);
    tfe_op_def_free(d);
  }
  TF_DeleteStatus(s);
}

TEST(attr_parse_results) {
  TF_Status* s = TF_NewStatus();
  tfe_op_def* d = tfe_op_def_new("Foo");
  const tfe_attr_def* a;
  CHECK(tfe_op_def_add_attr(d, "T: {float, double, int32} = DT_INT32", s));
  CHECK(tfe_op_def_add_attr(d, "N: int >= 2 = 3", s));
  CHECK(tfe_op_def_add_attr(d, "ta: bool = true", s));
  CHECK(tfe_op_def_add_attr(d, "pad: {'SAME', 'VALID'} = 'VALID'", s));
  CHECK(tfe_op_def_add_attr(d, "dims: list(int) >= 1 = [4, -5]", s));
  CHECK(tfe_op_def_add_attr(d, "alpha: float = 0.2", s));
  CHECK(tfe_op_def_add_attr(d, "Tl: list(type) >= 0", s));
  CHECK(tfe_op_def_add_attr(d, "sh: shape = { dim { size: 2 } dim { size: -1 } }", s));
  CHECK(tfe_op_def_add_attr(d, "t: type = float", s));
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(d->num_attrs, 9);

  a = &d->attrs[0];
  CHECK_STR_EQ(a->name, "T");
  CHECK_STR_EQ(a->type_str, "type");
  CHECK_EQ_INT(a->type, TF_ATTR_TYPE);
  CHECK_EQ_INT(a->is_list, 0);
  CHECK(a->has_allowed);
  CHECK_EQ_INT(a->allowed.list_size, 3);
  CHECK_EQ_INT(a->allowed.list.type[0], TF_FLOAT);
  CHECK_EQ_INT(a->allowed.list.type[1], TF_DOUBLE);
  CHECK_EQ_INT(a->allowed.list.type[2], TF_INT32);
  CHECK(a->has_default);
  CHECK_EQ_INT(a->default_value.v.type, TF_INT32);

  a = &d->attrs[1];
  CHECK_EQ_INT(a->type, TF_ATTR_INT);
  CHECK(a->has_minimum);
  CHECK_EQ_INT(a->minimum, 2);
  CHECK_EQ_INT(a->default_value.v.i, 3);

  a = &d->attrs[2];
  CHECK_EQ_INT(a->type, TF_ATTR_BOOL);
  CHECK_EQ_INT(a->default_value.v.b, 1);

  a = &d->attrs[3];
  CHECK_EQ_INT(a->type, TF_ATTR_STRING);
  CHECK_STR_EQ(a->type_str, "string");
  CHECK_EQ_INT(a->allowed.list_size, 2);
  CHECK_STR_EQ(a->allowed.list.s.data[0], "SAME");
  CHECK_STR_EQ(a->allowed.list.s.data[1], "VALID");
  CHECK_STR_EQ(a->default_value.v.s.data, "VALID");
  CHECK_EQ_SIZE(a->default_value.v.s.len, 5);

  a = &d->attrs[4];
  CHECK_STR_EQ(a->type_str, "list(int)");
  CHECK(a->is_list);
  CHECK_EQ_INT(a->minimum, 1);
  CHECK_EQ_INT(a->default_value.list_size, 2);
  CHECK_EQ_INT(a->default_value.list.i[0], 4);
  CHECK_EQ_INT(a->default_value.list.i[1], -5);

  a = &d->attrs[5];
  CHECK(a->default_value.v.f == 0.2f);

  a = &d->attrs[6];
  CHECK_STR_EQ(a->type_str, "list(type)");
  CHECK(a->has_minimum);
  CHECK_EQ_INT(a->minimum, 0);
  CHECK(!a->has_allowed);

  a = &d->attrs[7];
  CHECK_EQ_INT(a->default_value.v.shape.num_dims, 2);
  CHECK_EQ_INT(a->default_value.v.shape.dims[0], 2);
  CHECK_EQ_INT(a->default_value.v.shape.dims[1], -1);

  CHECK_EQ_INT(d->attrs[8].default_value.v.type, TF_FLOAT);
  tfe_op_def_free(d);
  TF_DeleteStatus(s);
}

TEST(type_classes_match_tf) {
  /* Members in TF's DataTypeSet order (by enum value). */
  /* TF 2.21's numbertype includes qint16 and quint16. */
  static const TF_DataType number[] = {
      TF_FLOAT, TF_DOUBLE, TF_INT32, TF_UINT8, TF_INT16, TF_INT8,
      TF_COMPLEX64, TF_INT64, TF_QINT8, TF_QUINT8, TF_QINT32, TF_BFLOAT16,
      TF_QINT16, TF_QUINT16, TF_UINT16, TF_COMPLEX128, TF_HALF, TF_UINT32,
      TF_UINT64};
  static const TF_DataType real[] = {
      TF_FLOAT, TF_DOUBLE, TF_INT32, TF_UINT8, TF_INT16, TF_INT8, TF_INT64,
      TF_BFLOAT16, TF_UINT16, TF_HALF, TF_UINT32, TF_UINT64};
  static const TF_DataType quant[] = {TF_QINT8, TF_QUINT8, TF_QINT32,
                                      TF_QINT16, TF_QUINT16};
  TF_Status* s = TF_NewStatus();
  tfe_op_def* d = tfe_op_def_new("Foo");
  int i;
  CHECK(tfe_op_def_add_attr(d, "A: numbertype", s));
  CHECK(tfe_op_def_add_attr(d, "B: realnumbertype", s));
  CHECK(tfe_op_def_add_attr(d, "C: quantizedtype", s));
  CHECK(tfe_op_def_add_attr(d, "D: {bool, quantizedtype}", s));
  CHECK_EQ_INT(d->attrs[0].allowed.list_size, 19);
  for (i = 0; i < 19; i++) CHECK_EQ_INT(d->attrs[0].allowed.list.type[i], number[i]);
  CHECK_EQ_INT(d->attrs[1].allowed.list_size, 12);
  for (i = 0; i < 12; i++) CHECK_EQ_INT(d->attrs[1].allowed.list.type[i], real[i]);
  CHECK_EQ_INT(d->attrs[2].allowed.list_size, 5);
  for (i = 0; i < 5; i++) CHECK_EQ_INT(d->attrs[2].allowed.list.type[i], quant[i]);
  CHECK_EQ_INT(d->attrs[3].allowed.list_size, 6);
  CHECK_EQ_INT(d->attrs[3].allowed.list.type[0], TF_BOOL);
  CHECK_EQ_INT(d->attrs[3].allowed.list.type[1], TF_QINT8);
  tfe_op_def_free(d);
  TF_DeleteStatus(s);
}

TEST(arg_parse_results) {
  TF_Status* s = TF_NewStatus();
  tfe_op_def* d = tfe_op_def_new("Foo");
  CHECK(tfe_op_def_add_input(d, "x: T", s));
  CHECK(tfe_op_def_add_input(d, "values: N * T", s));
  CHECK(tfe_op_def_add_input(d, "ids: N * int32", s));
  CHECK(tfe_op_def_add_input(d, "r: Ref(float)", s));
  CHECK(tfe_op_def_add_output(d, "h: float16", s));
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(d->inputs[0].name, "x");
  CHECK_STR_EQ(d->inputs[0].type_attr, "T");
  CHECK(d->inputs[0].number_attr == NULL);
  CHECK_EQ_INT(d->inputs[0].type, 0);
  CHECK_STR_EQ(d->inputs[1].number_attr, "N");
  CHECK_STR_EQ(d->inputs[1].type_attr, "T");
  CHECK_STR_EQ(d->inputs[2].number_attr, "N");
  CHECK(d->inputs[2].type_attr == NULL);
  CHECK_EQ_INT(d->inputs[2].type, TF_INT32);
  CHECK(d->inputs[3].is_ref);
  CHECK_EQ_INT(d->inputs[3].type, TF_FLOAT);
  CHECK_EQ_INT(d->outputs[0].type, TF_HALF);
  tfe_op_def_free(d);
  TF_DeleteStatus(s);
}

TEST(string_escapes_in_defaults) {
  TF_Status* s = TF_NewStatus();
  tfe_op_def* d = tfe_op_def_new("Foo");
  const tfe_attr_value* v;
  CHECK(tfe_op_def_add_attr(d, "s: string = 'a\\n\\t\\'b\\x41\\101\\0z'", s));
  v = &d->attrs[0].default_value;
  CHECK_EQ_SIZE(v->v.s.len, 9);
  CHECK(memcmp(v->v.s.data, "a\n\t'bAA\0z", 9) == 0);
  CHECK(tfe_op_def_add_attr(d, "c: string = 'ab' \"cd\"", s));
  CHECK_STR_EQ(d->attrs[1].default_value.v.s.data, "abcd");
  tfe_op_def_free(d);
  TF_DeleteStatus(s);
}

TEST(tensor_defaults) {
  TF_Status* s = TF_NewStatus();
  tfe_op_def* d = tfe_op_def_new("Foo");
  const TF_Tensor* t;
  CHECK(tfe_op_def_add_attr(
      d,
      "v: tensor = { dtype: DT_INT32 tensor_shape { dim { size: 3 } } "
      "int_val: 7 int_val: 8 }",
      s));
  t = d->attrs[0].default_value.v.tensor;
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_TensorType(t), TF_INT32);
  CHECK_EQ_INT(TF_NumDims(t), 1);
  CHECK_EQ_INT(TF_Dim(t, 0), 3);
  /* Fewer values than elements: the last one repeats, as in TF. */
  CHECK_EQ_INT(((const int32_t*)TF_TensorData(t))[0], 7);
  CHECK_EQ_INT(((const int32_t*)TF_TensorData(t))[1], 8);
  CHECK_EQ_INT(((const int32_t*)TF_TensorData(t))[2], 8);
  CHECK(tfe_op_def_add_attr(
      d, "w: tensor = { dtype: DT_FLOAT tensor_shape { } float_val: [2.5] }",
      s));
  t = d->attrs[1].default_value.v.tensor;
  CHECK_EQ_INT(TF_NumDims(t), 0);
  CHECK(((const float*)TF_TensorData(t))[0] == 2.5f);
  tfe_op_def_free(d);
  TF_DeleteStatus(s);
}

TEST(nasty_inputs_never_crash) {
  TF_Status* s = TF_NewStatus();
  char* big = (char*)malloc(10001);
  char* deep = (char*)malloc(20001);
  const char* nasty[] = {
      "",
      ":",
      "::::",
      "T: {",
      "T: {'",
      "T: {'a',",
      "T: list(",
      "T: list(list(int))",
      "N: int >= -9223372036854775808",
      "N: int >= -9223372036854775809",
      "N: int = -9223372036854775808",
      "N: int = 9223372036854775808",
      "f: float = 1e999999",
      "f: float = .",
      "f: float = -",
      "s: string = '\\",
      "s: string = '\\x'",
      "s: string = '\\777'",
      "T: {\xc3\xa9t\xc3\xa9}",
      "\xc3\xa9: int",
      "x: \xff\xfe",
      "shape: shape = {{{{{{",
      "shape: shape = { dim { dim { } } }",
      "value: tensor = {",
      "value: tensor = { dtype: DT_INT32 tensor_shape { dim { size: 99999999999 } } }",
      "value: tensor = { dtype: DT_RESOURCE }",
      "value: tensor = { dtype: DT_INT8 tensor_shape { } int_val: 300 }",
      "value: tensor = { dtype: DT_INT32 tensor_shape { dim { size: 2 } } tensor_content: 'abc' }",
      "l: list(shape) = [<unknown>, [1], { }]",
      "x: Ref(Ref(T))",
      "x: N * Ref(T)",
  };
  size_t i;
  memset(big, 'a', 10000);
  big[10000] = '\0';
  memcpy(big, "T: {", 4);
  for (i = 0; i < 20000; i += 2) {
    deep[i] = i < 10000 ? '{' : '}';
    deep[i + 1] = ' ';
  }
  deep[20000] = '\0';
  for (i = 0; i < sizeof nasty / sizeof nasty[0]; i++) {
    int k;
    for (k = IN; k <= ATTR; k++) {
      tfe_op_def* d = parse_one(k, nasty[i], s);
      CHECK(TF_GetCode(s) == TF_OK || TF_GetCode(s) == TF_INVALID_ARGUMENT);
      tfe_op_def_free(d);
    }
  }
  {
    int k;
    for (k = IN; k <= ATTR; k++) {
      tfe_op_def* d = parse_one(k, big, s);
      CHECK_CODE(s, TF_INVALID_ARGUMENT);
      CHECK_STR_CONTAINS(TF_Message(s), "for Op Foo");
      tfe_op_def_free(d);
    }
  }
  {
    char* spec = (char*)malloc(20100);
    tfe_op_def* d;
    strcpy(spec, "shape: shape = ");
    strcat(spec, deep);
    d = parse_one(ATTR, spec, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    tfe_op_def_free(d);
    strcpy(spec, "v: tensor = ");
    strcat(spec, deep);
    d = parse_one(ATTR, spec, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    tfe_op_def_free(d);
    free(spec);
  }
  /* A long list default is fine. */
  {
    char* spec = (char*)malloc(60000);
    tfe_op_def* d;
    size_t n;
    strcpy(spec, "l: list(int) = [");
    n = strlen(spec);
    for (i = 0; i < 5000; i++) n += (size_t)sprintf(spec + n, "%d,", (int)i);
    spec[n - 1] = ']';
    spec[n] = '\0';
    d = parse_one(ATTR, spec, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(d->attrs[0].default_value.list_size, 5000);
    CHECK_EQ_INT(d->attrs[0].default_value.list.i[4999], 4999);
    tfe_op_def_free(d);
    free(spec);
  }
  /* NULL arguments. */
  CHECK(!tfe_op_def_add_attr(NULL, "T: type", s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  {
    tfe_op_def* d = tfe_op_def_new("Foo");
    CHECK(!tfe_op_def_add_input(d, NULL, s));
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    tfe_op_def_free(d);
  }
  CHECK(tfe_op_def_new(NULL) == NULL);
  tfe_op_def_free(NULL);
  free(big);
  free(deep);
  TF_DeleteStatus(s);
}

/* Every spec renders back to text that parses to an equal definition. */
TEST(render_parse_round_trip) {
  static const char* const specs[] = {
      "in: x: T",
      "in: values: N * T",
      "in: ids: M * int64",
      "in: r: Ref(float)",
      "out: y: Tout",
      "out: z: T",
      "attr: T: {float, double, int32} = DT_INT32",
      "attr: N: int >= 2 = 3",
      "attr: M: int >= 0",
      "attr: Tout: list(type)",
      "attr: ta: bool = true",
      "attr: pad: {'SA\\'ME', 'VALID'} = 'VALID'",
      "attr: dims: list(int) >= 1 = [4, -5]",
      "attr: alpha: float = 0.1",
      "attr: beta: float = -inf",
      "attr: gamma: float = 3.40282347e+38",
      "attr: sh: shape = { dim { size: 2 } dim { size: -1 } }",
      "attr: sh2: shape = { unknown_rank: true }",
      "attr: shl: list(shape) = [{ dim { size: 1 } }, { }]",
      "attr: s: string = 'a\\n\\001\\377'",
      "attr: ls: list(string) = ['x', '']",
      "attr: f: func = { name: 'g' }",
      "attr: v: tensor = { dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: 7 int_val: 9 }",
      "attr: vs: tensor = { dtype: DT_STRING tensor_shape { dim { size: 2 } } string_val: 'p' string_val: 'q' }",
      "attr: tl: list({float, bool}) = [DT_BOOL]",
      "attr: Q: quantizedtype",
      "stateful",
      "commutative",
      NULL};
  TF_Status* s = TF_NewStatus();
  tfe_op_def* d = tfe_op_def_new("RoundTrip");
  tfe_op_def* d2 = tfe_op_def_new("RoundTrip");
  char* text;
  char* text2;
  int i;
  for (i = 0; specs[i] != NULL; i++) {
    const char* sp = specs[i];
    if (strncmp(sp, "in: ", 4) == 0) {
      CHECK(tfe_op_def_add_input(d, sp + 4, s));
    } else if (strncmp(sp, "out: ", 5) == 0) {
      CHECK(tfe_op_def_add_output(d, sp + 5, s));
    } else if (strncmp(sp, "attr: ", 6) == 0) {
      if (!tfe_op_def_add_attr(d, sp + 6, s)) TFE_FAIL("%s", TF_Message(s));
    } else if (strcmp(sp, "stateful") == 0) {
      d->is_stateful = 1;
    } else {
      d->is_commutative = 1;
    }
  }
  text = tfe_op_def_to_specs(d);
  CHECK(text != NULL);
  /* Parse the rendered lines into d2. */
  {
    char* p = text;
    while (*p) {
      char* nl = strchr(p, '\n');
      CHECK(nl != NULL);
      *nl = '\0';
      if (strncmp(p, "in: ", 4) == 0) {
        if (!tfe_op_def_add_input(d2, p + 4, s)) TFE_FAIL("%s", TF_Message(s));
      } else if (strncmp(p, "out: ", 5) == 0) {
        if (!tfe_op_def_add_output(d2, p + 5, s)) TFE_FAIL("%s", TF_Message(s));
      } else if (strncmp(p, "attr: ", 6) == 0) {
        if (!tfe_op_def_add_attr(d2, p + 6, s)) TFE_FAIL("%s: %s", p, TF_Message(s));
      } else if (strcmp(p, "stateful") == 0) {
        d2->is_stateful = 1;
      } else if (strcmp(p, "commutative") == 0) {
        d2->is_commutative = 1;
      } else {
        TFE_FAIL("unexpected line %s", p);
      }
      *nl = '\n';
      p = nl + 1;
    }
  }
  text2 = tfe_op_def_to_specs(d2);
  CHECK_STR_EQ(text, text2);
  CHECK_EQ_INT(d2->num_attrs, d->num_attrs);
  for (i = 0; i < d->num_attrs; i++) {
    const tfe_attr_def* a = &d->attrs[i];
    const tfe_attr_def* b = &d2->attrs[i];
    CHECK_STR_EQ(a->name, b->name);
    CHECK_STR_EQ(a->type_str, b->type_str);
    CHECK_EQ_INT(a->has_default, b->has_default);
    if (a->has_default && !tfe_attr_value_equal(&a->default_value, &b->default_value)) {
      TFE_FAIL("default of %s differs after round trip", a->name);
    }
    CHECK_EQ_INT(a->has_allowed, b->has_allowed);
    if (a->has_allowed) CHECK(tfe_attr_value_equal(&a->allowed, &b->allowed));
    CHECK_EQ_INT(a->has_minimum, b->has_minimum);
    CHECK_EQ_INT(a->minimum, b->minimum);
  }
  CHECK_EQ_INT(d2->num_inputs, d->num_inputs);
  CHECK_EQ_INT(d2->num_outputs, d->num_outputs);
  CHECK_EQ_INT(d2->is_stateful, 1);
  CHECK_EQ_INT(d2->is_commutative, 1);
  tfe_free(text);
  tfe_free(text2);
  tfe_op_def_free(d);
  tfe_op_def_free(d2);
  TF_DeleteStatus(s);
}

/* Allocation failures while parsing give RESOURCE_EXHAUSTED, never a crash
 * or a leak, and leave the definition unchanged. */
TEST(parse_out_of_memory) {
  static const char* const specs[] = {
      "T: {float, double, int32} = DT_INT32",
      "pad: {'SAME', 'VALID'} = 'VALID'",
      "dims: list(int) >= 1 = [4, -5, 6, 7, 8, 9, 10, 11, 12]",
      "sh: list(shape) = [{ dim { size: 2 } }, [1, 2, 3]]",
      "v: tensor = { dtype: DT_STRING tensor_shape { dim { size: 2 } } string_val: 'p' }",
      "f: list(func) = [{ name: 'g' }]",
      "T: numbertype"};
  TF_Status* s = TF_NewStatus();
  size_t i;
  for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    int n, ok_seen = 0;
    for (n = 0; n < 200 && !ok_seen; n++) {
      tfe_op_def* d = tfe_op_def_new("Foo");
      int r;
      CHECK(d != NULL);
      TFE_TestFailAllocationsAfter(n);
      r = tfe_op_def_add_attr(d, specs[i], s);
      TFE_TestFailAllocationsAfter(-1);
      if (r) {
        CHECK_CODE(s, TF_OK);
        CHECK_EQ_INT(d->num_attrs, 1);
        ok_seen = 1;
      } else {
        CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
        CHECK_EQ_INT(d->num_attrs, 0);
      }
      tfe_op_def_free(d);
    }
    CHECK(ok_seen);
  }
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
