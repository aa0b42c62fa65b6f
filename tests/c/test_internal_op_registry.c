/* The op registry: built-in definitions against TF 2.21's facts,
 * registration and validation errors, attr completion, arg lengths and
 * dtypes, concurrency, allocation failures. White-box: links the static
 * core. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ops/attr_value.h"
#include "ops/op_registry.h"
#include "tensorflow/c/tf_buffer.h"
#include "tfe/op_registry.h"
#include "tfe_test.h"

/* ---- helpers ---- */

static const tfe_op_def* must_lookup(const char* name) {
  const tfe_op_def* d = tfe_op_lookup(name);
  if (d == NULL) TFE_FAIL("op %s is not registered", name);
  return d;
}

static const tfe_attr_def* must_attr(const tfe_op_def* d, const char* name) {
  const tfe_attr_def* a = tfe_op_def_find_attr(d, name);
  if (a == NULL) TFE_FAIL("op %s has no attr %s", d->name, name);
  return a;
}

/* The allowed dtypes of a type attr, as short names joined by ", ". */
static void allowed_text(const tfe_attr_def* a, char* buf, size_t cap) {
  int i;
  buf[0] = '\0';
  for (i = 0; i < a->allowed.list_size; i++) {
    if (i > 0) strncat(buf, ", ", cap - strlen(buf) - 1);
    strncat(buf, tfe_dtype_short_name(a->allowed.list.type[i]),
            cap - strlen(buf) - 1);
  }
}

static void check_allowed(const tfe_op_def* d, const char* attr,
                          const char* expected) {
  char buf[512];
  const tfe_attr_def* a = must_attr(d, attr);
  CHECK(a->has_allowed);
  allowed_text(a, buf, sizeof buf);
  if (strcmp(buf, expected) != 0) {
    TFE_FAIL("%s.%s allowed {%s}, expected {%s}", d->name, attr, buf,
             expected);
  }
}

static void check_arg(const tfe_arg_def* a, const char* name,
                      const char* type_attr, const char* number_attr,
                      const char* type_list_attr, TF_DataType type) {
  CHECK_STR_EQ(a->name, name);
  if ((a->type_attr == NULL) != (type_attr == NULL) ||
      (type_attr && strcmp(a->type_attr, type_attr) != 0)) {
    TFE_FAIL("arg %s type_attr %s, expected %s", name,
             a->type_attr ? a->type_attr : "(null)",
             type_attr ? type_attr : "(null)");
  }
  if ((a->number_attr == NULL) != (number_attr == NULL) ||
      (number_attr && strcmp(a->number_attr, number_attr) != 0)) {
    TFE_FAIL("arg %s number_attr mismatch", name);
  }
  if ((a->type_list_attr == NULL) != (type_list_attr == NULL) ||
      (type_list_attr && strcmp(a->type_list_attr, type_list_attr) != 0)) {
    TFE_FAIL("arg %s type_list_attr mismatch", name);
  }
  CHECK_EQ_INT(a->type, type);
}

static int reg(const char* name, const char* const* specs, TF_Status* s) {
  return tfe_op_register_specs(name, specs, s);
}

/* ---- built-ins ---- */

TEST(every_builtin_registers) {
  static const char* const names[] = {
      /* the core set of the eager runtime */
      "AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod", "Neg",
      "Abs", "Square", "Sqrt", "Rsqrt", "Exp", "Log", "Tanh", "Sigmoid",
      "Relu", "Maximum", "Minimum", "Pow", "SquaredDifference", "Equal",
      "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
      "LogicalAnd", "LogicalOr", "LogicalNot", "Select", "SelectV2", "Cast",
      "Identity", "IdentityN", "Reshape", "Shape", "Size", "Rank",
      "ExpandDims", "Squeeze", "Fill", "ZerosLike", "OnesLike", "Range",
      "ConcatV2", "Pack", "Transpose", "Sum", "Mean", "Max", "Min", "Prod",
      "MatMul", "Const", "Bucketize", "EnsureShape", "ReverseV2", "Reverse",
      "LeakyRelu", "MirrorPad", "StridedSlice", "Unpack",
      /* the op library */
      "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Atan2", "Sinh", "Cosh",
      "Asinh", "Acosh", "Atanh", "Floor", "Ceil", "Round", "Rint", "Sign",
      "Reciprocal", "Expm1", "Log1p", "Erf", "Erfc", "Lgamma", "Digamma",
      "IsNan", "IsInf", "IsFinite", "Softplus", "Softsign", "Relu6", "Elu",
      "Selu", "Mod", "TruncateDiv", "TruncateMod", "DivNoNan", "MulNoNan",
      "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift",
      "RightShift", "ClipByValue", "AddN", "BiasAdd", "Softmax", "LogSoftmax",
      "BatchMatMulV2", "Einsum", "Conv2D", "DepthwiseConv2dNative",
      "Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPool", "AvgPool",
      "FusedBatchNormV3", "ResizeBilinear", "ResizeNearestNeighbor", "All",
      "Any", "ArgMax", "ArgMin", "Cumsum", "Cumprod", "TopKV2", "Slice",
      "Tile", "Pad", "PadV2", "GatherV2", "GatherNd", "ScatterNd",
      "TensorScatterUpdate", "OneHot", "Where", "BroadcastTo",
      "BroadcastArgs", "BroadcastGradientArgs", "ShapeN", "Split", "SplitV",
      "Unique", "InvertPermutation", "MatrixDiag", "MatrixBandPart",
      "L2Loss", "SparseSoftmaxCrossEntropyWithLogits",
      "SoftmaxCrossEntropyWithLogits", "RandomUniform",
      "RandomStandardNormal", "TruncatedNormal", "StatelessRandomUniformV2",
      "StatelessRandomNormalV2", "StringJoin", "StringLength", "Substr",
      "AsString", "StringToNumber", "NoOp", "VarHandleOp",
      "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp",
      "ReadVariableOp", "VarIsInitializedOp", "DestroyResourceOp",
      "ResourceGather", "ResourceScatterAdd", "ResourceScatterUpdate"};
  size_t i;
  const char* err = tfe_ops_builtin_error();
  if (err != NULL) TFE_FAIL("a built-in failed to register: %s", err);
  for (i = 0; i < sizeof names / sizeof names[0]; i++) must_lookup(names[i]);
  CHECK(tfe_op_count() >= (int)(sizeof names / sizeof names[0]));
  CHECK(tfe_op_lookup("NoSuchOpXyz") == NULL);
  CHECK(tfe_op_lookup("") == NULL);
  CHECK(tfe_op_lookup(NULL) == NULL);
  CHECK(tfe_op_at(-1) == NULL);
  CHECK(tfe_op_at(tfe_op_count()) == NULL);
  CHECK_STR_EQ(tfe_op_at(0)->name, "AddV2");
}

TEST(matmul_matches_tf) {
  const tfe_op_def* d = must_lookup("MatMul");
  const char* bools[] = {"transpose_a", "transpose_b", "grad_a", "grad_b"};
  size_t i;
  CHECK_EQ_INT(d->num_inputs, 2);
  CHECK_EQ_INT(d->num_outputs, 1);
  check_arg(&d->inputs[0], "a", "T", NULL, NULL, 0);
  check_arg(&d->inputs[1], "b", "T", NULL, NULL, 0);
  check_arg(&d->outputs[0], "product", "T", NULL, NULL, 0);
  CHECK_EQ_INT(d->num_attrs, 5);
  for (i = 0; i < 4; i++) {
    const tfe_attr_def* a = must_attr(d, bools[i]);
    CHECK_EQ_INT(a->type, TF_ATTR_BOOL);
    CHECK(a->has_default);
    CHECK_EQ_INT(a->default_value.v.b, 0);
  }
  /* TF 2.21 has no int8/int16 MatMul. */
  check_allowed(d, "T",
                "bfloat16, half, float, double, int32, int64, uint8, uint16, "
                "uint32, uint64, complex64, complex128");
  CHECK(!d->is_stateful);
}

TEST(elementwise_defs_match_tf) {
  const tfe_op_def* d = must_lookup("AddV2");
  check_arg(&d->inputs[0], "x", "T", NULL, NULL, 0);
  check_arg(&d->outputs[0], "z", "T", NULL, NULL, 0);
  check_allowed(d, "T",
                "bfloat16, half, float, double, uint8, uint16, uint32, uint64, "
                "int8, int16, int32, int64, complex64, complex128");
  CHECK(d->is_commutative);
  CHECK(d->is_aggregate);

  d = must_lookup("Sqrt");
  check_allowed(d, "T", "bfloat16, half, float, double, complex64, complex128");
  d = must_lookup("Equal");
  CHECK_EQ_INT(d->outputs[0].type, TF_BOOL);
  CHECK(must_attr(d, "incompatible_shape_error")->default_value.v.b == 1);
  d = must_lookup("LogicalAnd");
  CHECK_EQ_INT(d->inputs[0].type, TF_BOOL);
  CHECK_EQ_INT(d->num_attrs, 0);
  d = must_lookup("Relu");
  check_allowed(d, "T",
                "float, double, int32, uint8, int16, int8, int64, bfloat16, "
                "uint16, half, uint32, uint64, qint8");
  d = must_lookup("LeakyRelu");
  CHECK(must_attr(d, "alpha")->default_value.v.f == 0.2f);
  CHECK_EQ_INT(must_attr(d, "T")->default_value.v.type, TF_FLOAT);
  check_allowed(d, "T", "half, bfloat16, float, double");
}

TEST(array_defs_match_tf) {
  const tfe_op_def* d = must_lookup("ConcatV2");
  const tfe_attr_def* a;
  check_arg(&d->inputs[0], "values", "T", "N", NULL, 0);
  check_arg(&d->inputs[1], "axis", "Tidx", NULL, NULL, 0);
  a = must_attr(d, "N");
  CHECK(a->has_minimum);
  CHECK_EQ_INT(a->minimum, 2);
  a = must_attr(d, "Tidx");
  CHECK_EQ_INT(a->default_value.v.type, TF_INT32);
  check_allowed(d, "Tidx", "int32, int64");
  CHECK(!must_attr(d, "T")->has_allowed);

  d = must_lookup("IdentityN");
  check_arg(&d->inputs[0], "input", NULL, NULL, "T", 0);
  check_arg(&d->outputs[0], "output", NULL, NULL, "T", 0);
  a = must_attr(d, "T");
  CHECK_STR_EQ(a->type_str, "list(type)");
  CHECK(a->has_minimum);
  CHECK_EQ_INT(a->minimum, 1);

  d = must_lookup("Unpack");
  check_arg(&d->outputs[0], "output", "T", "num", NULL, 0);
  a = must_attr(d, "num");
  CHECK_EQ_INT(a->minimum, 0);
  CHECK(!a->has_default);
  CHECK_EQ_INT(must_attr(d, "axis")->default_value.v.i, 0);

  d = must_lookup("MirrorPad");
  a = must_attr(d, "mode");
  CHECK_EQ_INT(a->type, TF_ATTR_STRING);
  CHECK(!a->has_default);
  CHECK_EQ_INT(a->allowed.list_size, 2);
  CHECK_STR_EQ(a->allowed.list.s.data[0], "REFLECT");
  CHECK_STR_EQ(a->allowed.list.s.data[1], "SYMMETRIC");
  CHECK_EQ_INT(must_attr(d, "Tpaddings")->default_value.v.type, TF_INT32);

  d = must_lookup("StridedSlice");
  check_allowed(d, "Index", "int16, int32, int64");
  CHECK_EQ_INT(must_attr(d, "shrink_axis_mask")->default_value.v.i, 0);
  CHECK_EQ_INT(d->num_inputs, 4);

  d = must_lookup("Squeeze");
  a = must_attr(d, "squeeze_dims");
  CHECK_STR_EQ(a->type_str, "list(int)");
  CHECK_EQ_INT(a->minimum, 0);
  CHECK(a->has_default);
  CHECK_EQ_INT(a->default_value.list_size, 0);

  d = must_lookup("Const");
  CHECK_EQ_INT(d->num_inputs, 0);
  check_arg(&d->outputs[0], "output", "dtype", NULL, NULL, 0);
  CHECK_EQ_INT(must_attr(d, "value")->type, TF_ATTR_TENSOR);

  d = must_lookup("EnsureShape");
  CHECK_EQ_INT(must_attr(d, "shape")->type, TF_ATTR_SHAPE);
  d = must_lookup("Bucketize");
  a = must_attr(d, "boundaries");
  CHECK_STR_EQ(a->type_str, "list(float)");
  CHECK_EQ_INT(d->outputs[0].type, TF_INT32);
  d = must_lookup("Sum");
  CHECK_EQ_INT(must_attr(d, "keep_dims")->default_value.v.b, 0);
  d = must_lookup("Cast");
  CHECK(!must_attr(d, "DstT")->has_default);
  CHECK_EQ_INT(must_attr(d, "Truncate")->default_value.v.b, 0);
}

TEST(stateful_and_resource_defs) {
  const tfe_op_def* d = must_lookup("VarHandleOp");
  CHECK(d->is_stateful);
  CHECK_EQ_INT(d->outputs[0].type, TF_RESOURCE);
  CHECK_EQ_INT(must_attr(d, "shape")->type, TF_ATTR_SHAPE);
  CHECK_EQ_SIZE(must_attr(d, "container")->default_value.v.s.len, 0);
  d = must_lookup("ReadVariableOp");
  CHECK(d->is_stateful);
  CHECK_EQ_INT(d->inputs[0].type, TF_RESOURCE);
  d = must_lookup("AssignVariableOp");
  CHECK_EQ_INT(must_attr(d, "validate_shape")->default_value.v.b, 0);
  CHECK(must_lookup("RandomUniform")->is_stateful);
  CHECK(must_lookup("RandomStandardNormal")->is_stateful);
  CHECK(!must_lookup("StatelessRandomUniformV2")->is_stateful);
  CHECK(!must_lookup("AddV2")->is_stateful);
  d = must_lookup("StringJoin");
  CHECK_EQ_INT(must_attr(d, "N")->minimum, 0);
  CHECK_EQ_INT(d->inputs[0].type, TF_STRING);
}

/* Every built-in renders to specs that register again as an equal op. */
TEST(builtin_specs_round_trip) {
  TF_Status* s = TF_NewStatus();
  int i, n = tfe_op_count();
  for (i = 0; i < n; i++) {
    const tfe_op_def* d = tfe_op_at(i);
    char* text = tfe_op_def_to_specs(d);
    char* lines[256];
    int k = 0;
    char name[160];
    const tfe_op_def* d2;
    char* text2;
    char* p = text;
    CHECK(text != NULL);
    while (*p && k < 255) {
      char* nl = strchr(p, '\n');
      CHECK(nl != NULL);
      *nl = '\0';
      lines[k++] = p;
      p = nl + 1;
    }
    lines[k] = NULL;
    snprintf(name, sizeof name, "RoundTrip%s", d->name);
    if (!reg(name, (const char* const*)lines, s)) {
      TFE_FAIL("%s: %s", d->name, TF_Message(s));
    }
    d2 = must_lookup(name);
    text2 = tfe_op_def_to_specs(d2);
    /* Restore the newlines for the comparison. */
    {
      int j;
      for (j = 0; j < k; j++) lines[j][strlen(lines[j])] = '\n';
    }
    CHECK_STR_EQ(text, text2);
    tfe_free(text);
    tfe_free(text2);
  }
  TF_DeleteStatus(s);
}

/* ---- registration ---- */

TEST(duplicates_are_already_exists) {
  TF_Status* s = TF_NewStatus();
  CHECK(!reg("AddV2", (const char* const[]){"in: x: float", NULL}, s));
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  CHECK_STR_CONTAINS(TF_Message(s), "AddV2");
  CHECK(reg("MyDupOp", (const char* const[]){"in: x: float", NULL}, s));
  CHECK_CODE(s, TF_OK);
  CHECK(!reg("MyDupOp", (const char* const[]){"in: y: int32", NULL}, s));
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  /* The first definition stays. */
  CHECK_STR_EQ(must_lookup("MyDupOp")->inputs[0].name, "x");
  /* The registry owns a definition even when it refuses it. */
  {
    tfe_op_def* d = tfe_op_def_new("MyDupOp");
    CHECK(!tfe_op_register(d, s));
    CHECK_CODE(s, TF_ALREADY_EXISTS);
  }
  CHECK(!tfe_op_register(NULL, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(!reg(NULL, NULL, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteStatus(s);
}

typedef struct {
  const char* name;
  const char* specs[6];
  TF_Code code;
  const char* fragment;
} reg_case;

TEST(invalid_definitions) {
  static const reg_case cases[] = {
      {"BadRef1", {"in: x: T", NULL}, TF_INVALID_ARGUMENT,
       "Reference to unknown attr 'T' from Input(\"x: T\") for Op BadRef1"},
      {"BadRef2", {"out: y: N", "attr: N: int", NULL}, TF_INVALID_ARGUMENT,
       "Reference to attr 'N' with type int that isn't type or list(type) "
       "from Output(\"y: N\") for Op BadRef2"},
      {"BadRef3", {"in: x: N * T", "attr: T: type", NULL}, TF_INVALID_ARGUMENT,
       "No attr with name 'N' for input 'x'"},
      {"BadRef4", {"in: x: N * T", "attr: T: type", "attr: N: float", NULL},
       TF_INVALID_ARGUMENT,
       "Attr 'N' used as length for input 'x' has type float != int"},
      {"BadRef5", {"in: x: N * T", "attr: T: list(type)", "attr: N: int", NULL},
       TF_INVALID_ARGUMENT, "Can't have both number_attr and type_list_attr"},
      {"BadRef6", {"in: x: N * T", "attr: T: type", "attr: N: int >= -1", NULL},
       TF_INVALID_ARGUMENT, "must have minimum >= 0"},
      {"BadDup1", {"attr: T: type", "attr: T: int", NULL}, TF_INVALID_ARGUMENT,
       "Duplicate name: T"},
      {"BadDup2", {"in: x: float", "in: x: int32", NULL}, TF_INVALID_ARGUMENT,
       "Duplicate name: x"},
      {"BadDup3", {"in: x: float", "out: x: int32", NULL}, TF_INVALID_ARGUMENT,
       "Duplicate name: x"},
      {"BadDup4", {"in: x: float", "attr: x: int", NULL}, TF_INVALID_ARGUMENT,
       "Duplicate name: x"},
      {"BadAttrName", {"attr: float: int", NULL}, TF_INVALID_ARGUMENT,
       "Attr can't have name float that matches a data type"},
      {"badName", {NULL}, TF_INVALID_ARGUMENT,
       "Invalid name: badName (Did you use CamelCase?)"},
      {"Bad Name", {NULL}, TF_INVALID_ARGUMENT, "Invalid name: Bad Name"},
      {"", {NULL}, TF_INVALID_ARGUMENT, "Invalid name: "},
      {"BadDefault1", {"attr: T: {float, int32} = DT_BOOL", NULL},
       TF_INVALID_ARGUMENT,
       "Value for attr 'T' of bool is not in the list of allowed values: "
       "float, int32\n\t in Op 'BadDefault1'"},
      {"BadDefault2", {"attr: N: int >= 2 = 1", NULL}, TF_INVALID_ARGUMENT,
       "Value for attr 'N' of 1 must be at least minimum 2"},
      {"BadDefault3", {"attr: l: list(int) >= 2 = [1]", NULL},
       TF_INVALID_ARGUMENT, "Length for attr 'l' of 1 must be at least minimum 2"},
      {"BadDefault4", {"attr: m: {'A', 'B'} = 'C'", NULL}, TF_INVALID_ARGUMENT,
       "Value for attr 'm' of \"C\" is not in the list of allowed values: "
       "\"A\", \"B\""},
      {"BadDefault5", {"in: x: N * float", "attr: N: int = 0", NULL},
       TF_INVALID_ARGUMENT, "Value for attr 'N' of 0 must be at least minimum 1"},
      {"BadListMin", {"attr: l: list(int) >= -1", NULL}, TF_INVALID_ARGUMENT,
       "Attr 'l' with list type must have a non-negative minimum, not -1"},
      {"BadSpecLine", {"input: x: float", NULL}, TF_INVALID_ARGUMENT,
       "Unrecognized spec 'input: x: float' for Op BadSpecLine"},
      {"BadSyntax", {"attr: T: {float", NULL}, TF_INVALID_ARGUMENT,
       "Expected , or } after types in list, not: '' from Attr(\"T: {float\") "
       "for Op BadSyntax"},
  };
  TF_Status* s = TF_NewStatus();
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (reg(cases[i].name, cases[i].specs, s)) {
      TFE_FAIL("%s registered", cases[i].name);
    }
    if (TF_GetCode(s) != cases[i].code ||
        strstr(TF_Message(s), cases[i].fragment) == NULL) {
      TFE_FAIL("%s: code %d message \"%s\", expected %d with \"%s\"",
               cases[i].name, (int)TF_GetCode(s), TF_Message(s),
               (int)cases[i].code, cases[i].fragment);
    }
    CHECK(tfe_op_lookup(cases[i].name) == NULL);
  }
  TF_DeleteStatus(s);
}

TEST(registration_settles_references) {
  TF_Status* s = TF_NewStatus();
  const tfe_op_def* d;
  /* Inputs may come before the attrs they name. */
  CHECK(reg("MyRefs",
            (const char* const[]){"in: a: Tlist", "in: b: N * T",
                                  "in: c: M * int32", "in: h: resource",
                                  "out: o: Tout", "attr: Tlist: list(type)",
                                  "attr: T: type", "attr: N: int",
                                  "attr: M: int >= 0", "attr: Tout: list(type) >= 0",
                                  NULL},
            s));
  CHECK_CODE(s, TF_OK);
  d = must_lookup("MyRefs");
  check_arg(&d->inputs[0], "a", NULL, NULL, "Tlist", 0);
  check_arg(&d->inputs[1], "b", "T", "N", NULL, 0);
  check_arg(&d->inputs[2], "c", NULL, "M", NULL, TF_INT32);
  check_arg(&d->outputs[0], "o", NULL, NULL, "Tout", 0);
  /* Implicit minimums, as TF adds them. */
  CHECK(must_attr(d, "Tlist")->has_minimum);
  CHECK_EQ_INT(must_attr(d, "Tlist")->minimum, 1);
  CHECK_EQ_INT(must_attr(d, "N")->minimum, 1);
  CHECK_EQ_INT(must_attr(d, "M")->minimum, 0);
  CHECK_EQ_INT(must_attr(d, "Tout")->minimum, 0);
  /* A fixed resource arg makes the op stateful. */
  CHECK(d->is_stateful);
  TF_DeleteStatus(s);
}

/* ---- attr completion ---- */

static void set_type(tfe_attrs* a, const char* name, TF_DataType t) {
  tfe_attr_value v;
  tfe_attr_value_set_type(&v, t);
  CHECK(tfe_attrs_put(a, name, &v));
}

static void set_int(tfe_attrs* a, const char* name, int64_t x) {
  tfe_attr_value v;
  tfe_attr_value_set_int(&v, x);
  CHECK(tfe_attrs_put(a, name, &v));
}

TEST(complete_attrs_applies_defaults) {
  TF_Status* s = TF_NewStatus();
  tfe_attrs a;
  const tfe_op_def* d = must_lookup("MatMul");
  int b = -1;
  tfe_attrs_init(&a);
  set_type(&a, "T", TF_FLOAT);
  CHECK(tfe_op_def_complete_attrs(d, &a, s));
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(a.count, 5);
  CHECK(tfe_attrs_get_bool(&a, "transpose_a", &b, s));
  CHECK_EQ_INT(b, 0);
  /* Values already set are kept; unknown extra attrs are fine. */
  tfe_attrs_clear(&a);
  set_type(&a, "T", TF_DOUBLE);
  {
    tfe_attr_value v;
    tfe_attr_value_set_bool(&v, 1);
    CHECK(tfe_attrs_put(&a, "transpose_b", &v));
  }
  set_int(&a, "not_in_def", 7);
  CHECK(tfe_op_def_complete_attrs(d, &a, s));
  CHECK(tfe_attrs_get_bool(&a, "transpose_b", &b, s));
  CHECK_EQ_INT(b, 1);
  CHECK_EQ_INT(a.count, 6);
  tfe_attrs_destroy(&a);
  CHECK(!tfe_op_def_complete_attrs(NULL, &a, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteStatus(s);
}

TEST(complete_attrs_rejects_bad_values) {
  TF_Status* s = TF_NewStatus();
  tfe_attrs a;
  tfe_attr_value v;
  tfe_attrs_init(&a);

  /* dtype not allowed: TF's wording, then the node and the op summary. */
  set_type(&a, "T", TF_BOOL);
  CHECK(!tfe_op_def_complete_attrs(must_lookup("AddV2"), &a, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strncmp(TF_Message(s),
                "Value for attr 'T' of bool is not in the list of allowed "
                "values: bfloat16, half, float, double, uint8, uint16, uint32, "
                "uint64, int8, int16, int32, int64, complex64, complex128\n\t; "
                "NodeDef: {{node AddV2}}; Op<name=AddV2; signature=x:T, y:T -> "
                "z:T; attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, ",
                224) == 0);
  CHECK_STR_CONTAINS(TF_Message(s), "DT_COMPLEX128]; is_commutative=true; "
                                    "is_aggregate=true>");

  tfe_attrs_clear(&a);
  set_type(&a, "T", TF_INT32);
  CHECK(!tfe_op_def_complete_attrs(must_lookup("Sqrt"), &a, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Value for attr 'T' of int32 is not in the "
                                    "list of allowed values: bfloat16, half, "
                                    "float, double, complex64, complex128");

  /* String enums. */
  tfe_attrs_clear(&a);
  set_type(&a, "T", TF_FLOAT);
  CHECK(tfe_attr_value_set_string(&v, "WRAPAROUND", 10));
  CHECK(tfe_attrs_put(&a, "mode", &v));
  CHECK(!tfe_op_def_complete_attrs(must_lookup("MirrorPad"), &a, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strncmp(TF_Message(s),
                "Value for attr 'mode' of \"WRAPAROUND\" is not in the list of "
                "allowed values: \"REFLECT\", \"SYMMETRIC\"\n\t; NodeDef: "
                "{{node MirrorPad}}; Op<name=MirrorPad;",
                124) == 0);

  /* Wrong kinds. */
  tfe_attrs_clear(&a);
  set_type(&a, "T", TF_FLOAT);
  CHECK(tfe_attr_value_set_string(&v, "x", 1));
  CHECK(tfe_attrs_put(&a, "alpha", &v));
  CHECK(!tfe_op_def_complete_attrs(must_lookup("LeakyRelu"), &a, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strncmp(TF_Message(s),
                "AttrValue had value with type 'string' when 'float' "
                "expected\n\t for attr 'alpha'\n\t; NodeDef: {{node "
                "LeakyRelu}}",
                100) == 0);
  tfe_attrs_clear(&a);
  set_type(&a, "T", TF_FLOAT);
  tfe_attr_value_set_float(&v, 1.0f);
  CHECK(tfe_attrs_put(&a, "transpose_b", &v));
  CHECK(!tfe_op_def_complete_attrs(must_lookup("MatMul"), &a, s));
  CHECK_STR_CONTAINS(TF_Message(s), "AttrValue had value with type 'float' "
                                    "when 'bool' expected");
  tfe_attrs_clear(&a);
  set_int(&a, "T", 3);
  CHECK(!tfe_op_def_complete_attrs(must_lookup("Neg"), &a, s));
  CHECK_STR_CONTAINS(TF_Message(s), "type 'int' when 'type' expected");
  tfe_attrs_clear(&a);
  tfe_attr_value_set_type(&v, TF_FLOAT);
  CHECK(tfe_attrs_put(&a, "T", &v));
  CHECK(tfe_attr_value_set_int_list(&v, (const int64_t[]){1}, 1));
  CHECK(tfe_attrs_put(&a, "squeeze_dims", &v));
  CHECK(tfe_op_def_complete_attrs(must_lookup("Squeeze"), &a, s));
  tfe_attr_value_set_int(&v, 1);
  CHECK(tfe_attrs_put(&a, "squeeze_dims", &v));
  CHECK(!tfe_op_def_complete_attrs(must_lookup("Squeeze"), &a, s));
  CHECK_STR_CONTAINS(TF_Message(s), "AttrValue had value with type 'int' when "
                                    "'list(int)' expected");

  /* Invalid dtype values. */
  tfe_attrs_clear(&a);
  set_type(&a, "T", (TF_DataType)99);
  CHECK(!tfe_op_def_complete_attrs(must_lookup("Identity"), &a, s));
  CHECK_STR_CONTAINS(TF_Message(s), "AttrValue has invalid DataType enum: 99");
  tfe_attrs_clear(&a);
  set_type(&a, "T", (TF_DataType)0);
  CHECK(!tfe_op_def_complete_attrs(must_lookup("Identity"), &a, s));
  CHECK_STR_CONTAINS(TF_Message(s), "AttrValue has invalid DataType");

  /* Minimums: int values and list lengths. */
  tfe_attrs_clear(&a);
  set_type(&a, "T", TF_FLOAT);
  set_int(&a, "N", 0);
  CHECK(!tfe_op_def_complete_attrs(must_lookup("AddN"), &a, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strncmp(TF_Message(s),
                "Value for attr 'N' of 0 must be at least minimum 1", 50) == 0);
  tfe_attrs_clear(&a);
  CHECK(tfe_attr_value_set_type_list(&v, NULL, 0));
  CHECK(tfe_attrs_put(&a, "T", &v));
  CHECK(!tfe_op_def_complete_attrs(must_lookup("IdentityN"), &a, s));
  CHECK(strncmp(TF_Message(s),
                "Length for attr 'T' of 0 must be at least minimum 1", 51) == 0);
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

TEST(complete_attrs_missing) {
  TF_Status* s = TF_NewStatus();
  tfe_attrs a;
  tfe_attr_value v;
  tfe_attrs_init(&a);
  /* An attr an output needs: NOT_FOUND, as TF eager reports Cast without
   * DstT and Unpack without num. */
  set_type(&a, "SrcT", TF_FLOAT);
  CHECK(!tfe_op_def_complete_attrs(must_lookup("Cast"), &a, s));
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK(strncmp(TF_Message(s), "No attr named 'DstT' in NodeDef:", 32) == 0);
  CHECK_STR_CONTAINS(TF_Message(s), "{{node Cast}}");
  tfe_attrs_clear(&a);
  set_type(&a, "T", TF_FLOAT);
  CHECK(!tfe_op_def_complete_attrs(must_lookup("Unpack"), &a, s));
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "No attr named 'num' in NodeDef:");
  /* Other missing attrs: INVALID_ARGUMENT naming them. */
  tfe_attrs_clear(&a);
  set_type(&a, "T", TF_FLOAT);
  set_type(&a, "Tpaddings", TF_INT32);
  CHECK(!tfe_op_def_complete_attrs(must_lookup("MirrorPad"), &a, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(strncmp(TF_Message(s),
                "NodeDef missing attr 'mode' from Op<name=MirrorPad;", 51) == 0);
  CHECK_STR_CONTAINS(TF_Message(s), "; NodeDef: {{node MirrorPad}}");
  CHECK(reg("MyTwoMissing",
            (const char* const[]){"attr: a: int", "attr: b: string", NULL}, s));
  tfe_attrs_clear(&a);
  CHECK(!tfe_op_def_complete_attrs(must_lookup("MyTwoMissing"), &a, s));
  CHECK_STR_CONTAINS(TF_Message(s), "NodeDef missing attrs 'a', 'b' from");
  /* An empty list of another kind is accepted as the defined list kind. */
  tfe_attrs_clear(&a);
  set_type(&a, "T", TF_FLOAT);
  CHECK(tfe_attr_value_set_float_list(&v, NULL, 0));
  CHECK(tfe_attrs_put(&a, "squeeze_dims", &v));
  CHECK(tfe_op_def_complete_attrs(must_lookup("Squeeze"), &a, s));
  CHECK_EQ_INT(tfe_attrs_find(&a, "squeeze_dims")->type, TF_ATTR_INT);
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

/* ---- arg lengths and dtypes ---- */

TEST(arg_lengths_and_dtypes) {
  TF_Status* s = TF_NewStatus();
  tfe_attrs a;
  tfe_attr_value v;
  const tfe_op_def* d;
  int len = -1, n = -1;
  TF_DataType dt, types[8];
  tfe_attrs_init(&a);

  /* N * T */
  d = must_lookup("ConcatV2");
  set_type(&a, "T", TF_FLOAT);
  set_int(&a, "N", 3);
  CHECK(tfe_op_def_complete_attrs(d, &a, s));
  CHECK(tfe_op_def_arg_length(d, &d->inputs[0], &a, &len, s));
  CHECK_EQ_INT(len, 3);
  CHECK(tfe_op_def_arg_length(d, &d->inputs[1], &a, &len, s));
  CHECK_EQ_INT(len, 1);
  CHECK(tfe_op_def_arg_dtype(d, &d->inputs[0], &a, 2, &dt, s));
  CHECK_EQ_INT(dt, TF_FLOAT);
  CHECK(tfe_op_def_arg_dtype(d, &d->inputs[1], &a, 0, &dt, s));
  CHECK_EQ_INT(dt, TF_INT32); /* Tidx default */
  CHECK(!tfe_op_def_arg_dtype(d, &d->inputs[0], &a, 3, &dt, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(!tfe_op_def_arg_dtype(d, &d->inputs[0], &a, -1, &dt, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(tfe_op_def_output_types(d, &a, types, 8, &n, s));
  CHECK_EQ_INT(n, 1);
  CHECK_EQ_INT(types[0], TF_FLOAT);

  /* N * int32 (fixed type) */
  CHECK(reg("MyNInt",
            (const char* const[]){"in: ids: N * int32", "out: o: N * int64",
                                  "attr: N: int", NULL},
            s));
  d = must_lookup("MyNInt");
  tfe_attrs_clear(&a);
  set_int(&a, "N", 2);
  CHECK(tfe_op_def_complete_attrs(d, &a, s));
  CHECK(tfe_op_def_arg_length(d, &d->inputs[0], &a, &len, s));
  CHECK_EQ_INT(len, 2);
  CHECK(tfe_op_def_arg_dtype(d, &d->inputs[0], &a, 1, &dt, s));
  CHECK_EQ_INT(dt, TF_INT32);
  CHECK(tfe_op_def_output_types(d, &a, types, 8, &n, s));
  CHECK_EQ_INT(n, 2);
  CHECK_EQ_INT(types[0], TF_INT64);
  CHECK_EQ_INT(types[1], TF_INT64);

  /* list(type) */
  d = must_lookup("IdentityN");
  tfe_attrs_clear(&a);
  CHECK(tfe_attr_value_set_type_list(
      &v, (const TF_DataType[]){TF_FLOAT, TF_INT32, TF_STRING}, 3));
  CHECK(tfe_attrs_put(&a, "T", &v));
  CHECK(tfe_op_def_complete_attrs(d, &a, s));
  CHECK(tfe_op_def_arg_length(d, &d->inputs[0], &a, &len, s));
  CHECK_EQ_INT(len, 3);
  CHECK(tfe_op_def_arg_dtype(d, &d->inputs[0], &a, 2, &dt, s));
  CHECK_EQ_INT(dt, TF_STRING);
  /* Counting only, then a too-small array. */
  CHECK(tfe_op_def_output_types(d, &a, NULL, 0, &n, s));
  CHECK_EQ_INT(n, 3);
  n = -1;
  CHECK(!tfe_op_def_output_types(d, &a, types, 2, &n, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(n, 3);
  CHECK(tfe_op_def_output_types(d, &a, types, 3, &n, s));
  CHECK_EQ_INT(types[1], TF_INT32);

  /* Unpack: num * T outputs */
  d = must_lookup("Unpack");
  tfe_attrs_clear(&a);
  set_type(&a, "T", TF_DOUBLE);
  set_int(&a, "num", 4);
  CHECK(tfe_op_def_complete_attrs(d, &a, s));
  CHECK(tfe_op_def_output_types(d, &a, types, 8, &n, s));
  CHECK_EQ_INT(n, 4);
  CHECK_EQ_INT(types[3], TF_DOUBLE);

  /* Fixed types and multiple outputs: Unique (y: T, idx: out_idx). */
  d = must_lookup("Unique");
  tfe_attrs_clear(&a);
  set_type(&a, "T", TF_INT64);
  CHECK(tfe_op_def_complete_attrs(d, &a, s));
  CHECK(tfe_op_def_output_types(d, &a, types, 8, &n, s));
  CHECK_EQ_INT(n, 2);
  CHECK_EQ_INT(types[0], TF_INT64);
  CHECK_EQ_INT(types[1], TF_INT32);
  d = must_lookup("Shape");
  tfe_attrs_clear(&a);
  CHECK(!tfe_op_def_arg_dtype(d, &d->inputs[0], &a, 0, &dt, s));
  CHECK_CODE(s, TF_NOT_FOUND);
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

/* ---- concurrency ---- */

#define NREADERS 4
#define NREGISTER 600

static volatile int g_stop;

static void* reader_main(void* arg) {
  long hits = 0;
  int i = 0;
  (void)arg;
  while (!g_stop) {
    char name[32];
    const tfe_op_def* d = tfe_op_lookup("MatMul");
    if (d == NULL || strcmp(d->name, "MatMul") != 0) abort();
    snprintf(name, sizeof name, "MyConc%d", i % NREGISTER);
    d = tfe_op_lookup(name);
    if (d != NULL) {
      if (strcmp(d->name, name) != 0 || d->num_inputs != 1) abort();
      hits++;
    }
    if (tfe_op_at(tfe_op_count() - 1) == NULL) abort();
    i++;
  }
  return (void*)hits;
}

TEST(concurrent_lookup_while_registering) {
  pthread_t th[NREADERS];
  TF_Status* s = TF_NewStatus();
  int i, before;
  tfe_ops_ensure_builtins();
  before = tfe_op_count();
  g_stop = 0;
  for (i = 0; i < NREADERS; i++) {
    CHECK(pthread_create(&th[i], NULL, reader_main, NULL) == 0);
  }
  for (i = 0; i < NREGISTER; i++) {
    char name[32];
    snprintf(name, sizeof name, "MyConc%d", i);
    if (!reg(name, (const char* const[]){"in: x: T", "attr: T: type", NULL},
             s)) {
      TFE_FAIL("%s", TF_Message(s));
    }
  }
  g_stop = 1;
  for (i = 0; i < NREADERS; i++) CHECK(pthread_join(th[i], NULL) == 0);
  CHECK_EQ_INT(tfe_op_count(), before + NREGISTER);
  for (i = 0; i < NREGISTER; i++) {
    char name[32];
    snprintf(name, sizeof name, "MyConc%d", i);
    must_lookup(name);
  }
  TF_DeleteStatus(s);
}

/* ---- allocation failures ---- */

TEST(register_out_of_memory) {
  static const char* const specs[] = {
      "in: values: N * T", "in: axis: Tidx", "out: output: T",
      "attr: N: int >= 2", "attr: T: {float, double, int32} = DT_FLOAT",
      "attr: Tidx: {int32, int64} = DT_INT32",
      "attr: mode: {'A', 'B'} = 'A'", "attr: l: list(int) = [1, 2, 3]", NULL};
  TF_Status* s = TF_NewStatus();
  int n, ok_seen = 0;
  tfe_ops_ensure_builtins();
  for (n = 0; n < 300 && !ok_seen; n++) {
    char name[32];
    int r;
    snprintf(name, sizeof name, "MyOom%d", n);
    TFE_TestFailAllocationsAfter(n);
    r = reg(name, specs, s);
    TFE_TestFailAllocationsAfter(-1);
    if (r) {
      CHECK_CODE(s, TF_OK);
      must_lookup(name);
      ok_seen = 1;
    } else {
      CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
      CHECK(tfe_op_lookup(name) == NULL);
    }
  }
  CHECK(ok_seen);
  TF_DeleteStatus(s);
}

TEST(complete_attrs_out_of_memory) {
  TF_Status* s = TF_NewStatus();
  const tfe_op_def* d = must_lookup("StridedSlice");
  int n, ok_seen = 0;
  for (n = 0; n < 100 && !ok_seen; n++) {
    tfe_attrs a;
    int r;
    tfe_attrs_init(&a);
    set_type(&a, "T", TF_FLOAT);
    set_type(&a, "Index", TF_INT32);
    TFE_TestFailAllocationsAfter(n);
    r = tfe_op_def_complete_attrs(d, &a, s);
    TFE_TestFailAllocationsAfter(-1);
    if (r) {
      ok_seen = 1;
      CHECK_EQ_INT(a.count, 7);
    } else {
      CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    }
    tfe_attrs_destroy(&a);
  }
  CHECK(ok_seen);
  TF_DeleteStatus(s);
}

/* Lookups and the hot-path checks allocate nothing: they still work while
 * every allocation fails. */
TEST(lookup_allocates_nothing) {
  TF_Status* s = TF_NewStatus();
  tfe_attrs a;
  const tfe_op_def* d;
  int len;
  tfe_ops_ensure_builtins();
  tfe_attrs_init(&a);
  set_type(&a, "T", TF_FLOAT);
  d = must_lookup("AddV2");
  TFE_TestFailAllocationsAfter(0);
  CHECK(tfe_op_lookup("AddV2") == d);
  CHECK(tfe_op_lookup("Conv2D") != NULL);
  CHECK(tfe_op_lookup("NotThere") == NULL);
  CHECK(tfe_op_def_complete_attrs(d, &a, s));
  CHECK(tfe_op_def_arg_length(d, &d->inputs[0], &a, &len, s));
  CHECK(tfe_attrs_hash(&a) != 0);
  TFE_TestFailAllocationsAfter(-1);
  CHECK_CODE(s, TF_OK);
  tfe_attrs_destroy(&a);
  TF_DeleteStatus(s);
}

TEST(summary_matches_tf_shape) {
  char* text = tfe_op_def_summarize(must_lookup("ConcatV2"));
  CHECK_STR_EQ(text,
               "Op<name=ConcatV2; signature=values:N*T, axis:Tidx -> output:T; "
               "attr=N:int,min=2; attr=T:type; "
               "attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]>");
  tfe_free(text);
  text = tfe_op_def_summarize(must_lookup("LeakyRelu"));
  CHECK_STR_CONTAINS(text, "attr=alpha:float,default=0.2;");
  tfe_free(text);
  text = tfe_op_def_summarize(must_lookup("MirrorPad"));
  CHECK_STR_CONTAINS(text, "attr=mode:string,allowed=[\"REFLECT\", \"SYMMETRIC\"]>");
  tfe_free(text);
  CHECK(tfe_op_def_summarize(NULL) == NULL);
}

/* TFE_ListOpNames / TFE_GetOpDefSpecs: every listed op's specs parse back
 * (registered under a new name) to a definition with the same specs. */
TEST(list_and_specs_round_trip) {
  TF_Buffer* names = TF_NewBuffer();
  TF_Buffer* specs = TF_NewBuffer();
  TF_Buffer* specs2 = TF_NewBuffer();
  TF_Status* s = TF_NewStatus();
  char* list;
  char* p;
  int count = 0;
  TFE_ListOpNames(names);
  list = (char*)malloc(names->length + 1);
  memcpy(list, names->data, names->length + 1);
  for (p = list; *p;) {
    char* nl = strchr(p, '\n');
    char* lines[256];
    char newname[200];
    char* text;
    char* q;
    int k = 0;
    CHECK(nl != NULL);
    *nl = '\0';
    TFE_GetOpDefSpecs(p, specs, s);
    if (TF_GetCode(s) != TF_OK) TFE_FAIL("%s: %s", p, TF_Message(s));
    text = (char*)malloc(specs->length + 1);
    memcpy(text, specs->data, specs->length + 1);
    for (q = text; *q && k < 255;) {
      char* e = strchr(q, '\n');
      CHECK(e != NULL);
      *e = '\0';
      lines[k++] = q;
      q = e + 1;
    }
    lines[k] = NULL;
    snprintf(newname, sizeof newname, "ApiRoundTrip%s", p);
    if (strncmp(p, "ApiRoundTrip", 12) != 0 && strncmp(p, "RoundTrip", 9) != 0) {
      if (!reg(newname, (const char* const*)lines, s)) {
        TFE_FAIL("%s: %s", p, TF_Message(s));
      }
      TFE_GetOpDefSpecs(newname, specs2, s);
      CHECK_CODE(s, TF_OK);
      CHECK_EQ_SIZE(specs2->length, specs->length);
      CHECK(memcmp(specs2->data, specs->data, specs->length) == 0);
      count++;
    }
    free(text);
    p = nl + 1;
  }
  CHECK(count >= 180);
  free(list);
  TF_DeleteBuffer(names);
  TF_DeleteBuffer(specs);
  TF_DeleteBuffer(specs2);
  TF_DeleteStatus(s);
}

/* If memory runs out the first time the built-ins register (another
 * test's fault injection may be the first to touch the registry), the
 * missing ones are registered on the next use. */
TEST(builtins_retry_after_out_of_memory) {
  int n;
  for (n = 0; n < 400; n += 37) {
    TFE_TestFailAllocationsAfter(n);
    (void)tfe_op_lookup("AddV2");
    TFE_TestFailAllocationsAfter(-1);
  }
  CHECK(tfe_ops_builtin_error() == NULL);
  must_lookup("AddV2");
  must_lookup("NoOp");
  must_lookup("ResourceScatterUpdate");
  CHECK(tfe_op_count() >= 180);
}

TFE_TEST_MAIN
