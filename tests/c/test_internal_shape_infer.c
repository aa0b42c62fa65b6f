/* Static shape inference (csrc/ops/shape_infer*.c): TF's rules for each
 * family of ops, with unknown dims and ranks, constant inputs, and TF's
 * errors for incompatible static shapes; plugin shape functions; the
 * rule table covers every registered op. White-box: links the static
 * core. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "ops/op_generated.h"
#include "ops/op_registry.h"
#include "ops/shape_infer.h"
#include "ops/shape_infer_internal.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/ops.h"
#include "tensorflow/c/tf_tensor.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

#define MAXIO 16

/* One inference call under construction. */
typedef struct T {
  const tfe_op_def* def;
  tfe_attrs attrs;
  int n_in;
  tfe_shape in[MAXIO];
  int64_t dims[MAXIO][16];
  TF_DataType types[MAXIO];
  TF_Tensor* vals[MAXIO];
  tfe_shape as_shapes[MAXIO];
  int64_t as_dims[MAXIO][16];
  int has_as_shapes;
  tfe_shape handle[MAXIO];
  int64_t handle_dims[MAXIO][16];
  int has_handle;
  const char* names[MAXIO];
  int n_out;
  tfe_shape out[MAXIO];
  char out_str[MAXIO][128];
  TF_Status* s;
} T;

/* "[2,?,3]" -> shape; "?" -> unknown rank; "[]" -> scalar. */
static void parse_shape(const char* txt, tfe_shape* sh, int64_t* dims) {
  int n = 0;
  const char* p = txt;
  if (strcmp(txt, "?") == 0) {
    sh->num_dims = -1;
    sh->dims = NULL;
    return;
  }
  CHECK(*p == '[');
  p++;
  while (*p != ']') {
    if (*p == ',') {
      p++;
      continue;
    }
    if (*p == '?') {
      dims[n++] = -1;
      p++;
    } else {
      char* end;
      dims[n++] = strtoll(p, &end, 10);
      p = end;
    }
  }
  sh->num_dims = n;
  sh->dims = dims;
}

static void t_begin(T* t, const char* op) {
  memset(t, 0, sizeof *t);
  t->def = tfe_op_lookup(op);
  if (t->def == NULL) TFE_FAIL("no op %s", op);
  tfe_attrs_init(&t->attrs);
  t->s = TF_NewStatus();
  for (int i = 0; i < MAXIO; i++) t->handle[i].num_dims = -1;
}

/* The value shape behind resource input i (handle data). */
static void t_handle_shape(T* t, int i, const char* shape) {
  parse_shape(shape, &t->handle[i], t->handle_dims[i]);
  t->has_handle = 1;
}

static void t_end(T* t) {
  int i;
  for (i = 0; i < t->n_out; i++) tfe_free(t->out[i].dims);
  for (i = 0; i < t->n_in; i++) {
    if (t->vals[i] != NULL) TF_DeleteTensor(t->vals[i]);
  }
  tfe_attrs_destroy(&t->attrs);
  TF_DeleteStatus(t->s);
}

static void t_in_typed(T* t, const char* shape, TF_DataType dt) {
  CHECK(t->n_in < MAXIO);
  parse_shape(shape, &t->in[t->n_in], t->dims[t->n_in]);
  t->types[t->n_in] = dt;
  t->as_shapes[t->n_in].num_dims = -1;
  t->n_in++;
}

static void t_in(T* t, const char* shape) { t_in_typed(t, shape, TF_FLOAT); }

/* A constant int32 input: a vector of n values, or a scalar (n < 0 means
 * a scalar holding v[0]). */
static void t_const_i32(T* t, int n, const int32_t* v) {
  int64_t d = n;
  int rank = n < 0 ? 0 : 1;
  size_t count = n < 0 ? 1 : (size_t)n;
  TF_Tensor* x = TF_AllocateTensor(TF_INT32, &d, rank, count * 4);
  CHECK(x != NULL);
  if (count > 0) memcpy(TF_TensorData(x), v, count * 4);
  CHECK(t->n_in < MAXIO);
  t->in[t->n_in].num_dims = rank;
  t->dims[t->n_in][0] = n;
  t->in[t->n_in].dims = t->dims[t->n_in];
  t->types[t->n_in] = TF_INT32;
  t->vals[t->n_in] = x;
  t->as_shapes[t->n_in].num_dims = -1;
  t->n_in++;
}

static void t_scalar_i32(T* t, int32_t v) { t_const_i32(t, -1, &v); }

static void t_const_f32(T* t, float v) {
  TF_Tensor* x = TF_AllocateTensor(TF_FLOAT, NULL, 0, 4);
  CHECK(x != NULL);
  memcpy(TF_TensorData(x), &v, 4);
  t->in[t->n_in].num_dims = 0;
  t->in[t->n_in].dims = NULL;
  t->types[t->n_in] = TF_FLOAT;
  t->vals[t->n_in] = x;
  t->as_shapes[t->n_in].num_dims = -1;
  t->n_in++;
}

/* An int32 vector input whose value is only partly known (a "shape"). */
static void t_partial_shape(T* t, const char* vec_shape, const char* value) {
  t_in_typed(t, vec_shape, TF_INT32);
  parse_shape(value, &t->as_shapes[t->n_in - 1], t->as_dims[t->n_in - 1]);
  t->has_as_shapes = 1;
}

static void put(T* t, const char* name, tfe_attr_value* v) {
  CHECK(tfe_attrs_put(&t->attrs, name, v));
}

static void t_attr_int(T* t, const char* name, int64_t x) {
  tfe_attr_value v;
  tfe_attr_value_set_int(&v, x);
  put(t, name, &v);
}

static void t_attr_bool(T* t, const char* name, int x) {
  tfe_attr_value v;
  tfe_attr_value_set_bool(&v, (unsigned char)x);
  put(t, name, &v);
}

static void t_attr_type(T* t, const char* name, TF_DataType x) {
  tfe_attr_value v;
  tfe_attr_value_set_type(&v, x);
  put(t, name, &v);
}

static void t_attr_str(T* t, const char* name, const char* x) {
  tfe_attr_value v;
  CHECK(tfe_attr_value_set_string(&v, x, strlen(x)));
  put(t, name, &v);
}

static void t_attr_ints(T* t, const char* name, int n, ...) {
  int64_t xs[16];
  int i;
  va_list ap;
  tfe_attr_value v;
  va_start(ap, n);
  for (i = 0; i < n; i++) xs[i] = va_arg(ap, int64_t);
  va_end(ap);
  CHECK(tfe_attr_value_set_int_list(&v, xs, n));
  put(t, name, &v);
}

static void t_attr_shape(T* t, const char* name, const char* shape) {
  tfe_shape sh;
  int64_t dims[16];
  tfe_attr_value v;
  parse_shape(shape, &sh, dims);
  CHECK(tfe_attr_value_set_shape(&v, sh.dims, sh.num_dims));
  put(t, name, &v);
}

static void t_attr_types(T* t, const char* name, int n,
                         const TF_DataType* ts) {
  tfe_attr_value v;
  CHECK(tfe_attr_value_set_type_list(&v, ts, n));
  put(t, name, &v);
}

static void t_attr_func(T* t, const char* name, const char* f) {
  tfe_attr_value v;
  CHECK(tfe_attr_value_set_func(&v, f, strlen(f)));
  put(t, name, &v);
}

/* output_shapes from "[2,?]" style strings (NULL-terminated list). */
static void t_attr_shapes(T* t, const char* name, const char* const* shapes) {
  int64_t dims[8][16];
  const int64_t* dp[8];
  int nd[8], n = 0;
  tfe_attr_value v;
  for (; shapes[n] != NULL; n++) {
    tfe_shape sh;
    parse_shape(shapes[n], &sh, dims[n]);
    dp[n] = dims[n];
    nd[n] = sh.num_dims;
  }
  CHECK(tfe_attr_value_set_shape_list(&v, dp, nd, n));
  put(t, name, &v);
}

/* Sets the type and number attrs the inputs imply, completes defaults,
 * counts outputs, runs inference. Returns 1 on success. */
static int t_run_named(T* t, const char* node) {
  int a, flat = 0, i;
  tfe_shape_infer_args args;
  for (a = 0; a < t->def->num_inputs; a++) {
    const tfe_arg_def* arg = &t->def->inputs[a];
    int len = 1;
    if (arg->number_attr != NULL) {
      const tfe_attr_value* v = tfe_attrs_find(&t->attrs, arg->number_attr);
      if (v == NULL) {
        /* Only the last arg may be a list whose length is implied. */
        len = t->n_in - flat - (t->def->num_inputs - a - 1);
        t_attr_int(t, arg->number_attr, len);
      } else {
        len = (int)v->v.i;
      }
    } else if (arg->type_list_attr != NULL) {
      const tfe_attr_value* v =
          tfe_attrs_find(&t->attrs, arg->type_list_attr);
      if (v == NULL) {
        tfe_attr_value lv;
        len = t->n_in - flat - (t->def->num_inputs - a - 1);
        CHECK(tfe_attr_value_set_type_list(&lv, t->types + flat, len));
        put(t, arg->type_list_attr, &lv);
      } else {
        len = v->list_size;
      }
    }
    if (arg->type_attr != NULL && flat < t->n_in &&
        tfe_attrs_find(&t->attrs, arg->type_attr) == NULL) {
      t_attr_type(t, arg->type_attr, t->types[flat]);
    }
    flat += len;
  }
  if (!tfe_op_def_complete_attrs(t->def, &t->attrs, t->s)) {
    TFE_FAIL("attrs of %s: %s", t->def->name, TF_Message(t->s));
  }
  CHECK(tfe_op_def_output_types(t->def, &t->attrs, NULL, 0, &t->n_out,
                                t->s));
  CHECK(t->n_out <= MAXIO);
  memset(&args, 0, sizeof args);
  args.def = t->def;
  args.attrs = &t->attrs;
  args.num_inputs = t->n_in;
  args.input_shapes = t->in;
  args.input_types = t->types;
  args.input_values = t->vals;
  args.input_as_shapes = t->has_as_shapes ? t->as_shapes : NULL;
  args.input_handle_shapes = t->has_handle ? t->handle : NULL;
  args.num_outputs = t->n_out;
  for (i = 0; i < t->n_in; i++) t->names[i] = i == 0 ? "x" : "y";
  args.input_names = t->names;
  return tfe_shape_infer(&args, node, t->out, t->s);
}

static int t_run(T* t) { return t_run_named(t, "n"); }

static const char* t_out(T* t, int i) {
  char* b = t->out_str[i];
  int k;
  size_t len = 0;
  if (t->out[i].num_dims < 0) return "?";
  b[len++] = '[';
  for (k = 0; k < t->out[i].num_dims; k++) {
    if (k > 0) b[len++] = ',';
    if (t->out[i].dims[k] < 0) {
      b[len++] = '?';
    } else {
      len += (size_t)snprintf(b + len, 128 - len, "%lld",
                              (long long)t->out[i].dims[k]);
    }
  }
  b[len++] = ']';
  b[len] = '\0';
  return b;
}

/* Runs and checks output 0 (and the status OK). */
static void expect(T* t, const char* want) {
  if (!t_run(t)) TFE_FAIL("%s failed: %s", t->def->name, TF_Message(t->s));
  CHECK_STR_EQ(t_out(t, 0), want);
}

/* Runs and checks failure with INVALID_ARGUMENT and a message part. */
static void expect_err(T* t, const char* part) {
  int i;
  if (t_run(t)) TFE_FAIL("%s succeeded: %s", t->def->name, t_out(t, 0));
  CHECK_CODE(t->s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(t->s), part);
  for (i = 0; i < t->n_out; i++) CHECK_EQ_INT(t->out[i].num_dims, -1);
}

/* One-line cases: op, input shapes, expected output 0. */
static void unary(const char* op, const char* in, const char* want) {
  T t;
  t_begin(&t, op);
  t_in(&t, in);
  expect(&t, want);
  t_end(&t);
}

static void binary(const char* op, const char* a, const char* b,
                   const char* want) {
  T t;
  t_begin(&t, op);
  t_in(&t, a);
  t_in(&t, b);
  expect(&t, want);
  t_end(&t);
}

static void binary_err(const char* op, const char* a, const char* b,
                       const char* part) {
  T t;
  t_begin(&t, op);
  t_in(&t, a);
  t_in(&t, b);
  expect_err(&t, part);
  t_end(&t);
}

/* ------------------------------------------------------------------------ */

TEST(unary_elementwise_keeps_shape) {
  unary("Neg", "[2,3]", "[2,3]");
  unary("Exp", "[?,3]", "[?,3]");
  unary("Sqrt", "?", "?");
  unary("Relu", "[]", "[]");
  unary("IsNan", "[4]", "[4]");
  unary("Identity", "[1,?,2]", "[1,?,2]");
  unary("StopGradient", "[5]", "[5]");
  unary("Softmax", "[2,4]", "[2,4]");
  unary("StringLength", "[3]", "[3]");
  unary("ZerosLike", "[2,2]", "[2,2]");
}

TEST(softmax_needs_rank_one) {
  T t;
  t_begin(&t, "Softmax");
  t_in(&t, "[]");
  expect_err(&t, "Shape must be at least rank 1 but is rank 0");
  t_end(&t);
}

TEST(binary_broadcasting) {
  binary("AddV2", "[2,3]", "[2,3]", "[2,3]");
  binary("AddV2", "[2,3]", "[3]", "[2,3]");
  binary("Mul", "[2,1]", "[1,4]", "[2,4]");
  binary("Sub", "[]", "[5,6]", "[5,6]");
  binary("AddV2", "[?,3]", "[3]", "[?,3]");
  binary("AddV2", "[?,3]", "[?,3]", "[?,3]");
  binary("AddV2", "[?]", "[1]", "[?]");
  binary("AddV2", "[?]", "[5]", "[5]");
  binary("Maximum", "?", "[2]", "?");
  binary("Pow", "[1]", "[?]", "[?]");
  binary("RealDiv", "[7,1,5]", "[3,1]", "[7,3,5]");
}

TEST(binary_broadcasting_errors) {
  T t;
  binary_err("AddV2", "[2,3]", "[4]",
             "Dimensions must be equal, but are 3 and 4");
  t_begin(&t, "Mul");
  t_in(&t, "[2,3]");
  t_in(&t, "[3,3]");
  expect_err(&t,
             "Dimensions must be equal, but are 2 and 3 for '{{node n}} = "
             "Mul[T=DT_FLOAT](x, y)' with input shapes: [2,3], [3,3].");
  t_end(&t);
}

TEST(comparisons_and_logic) {
  binary("Equal", "[2,3]", "[3]", "[2,3]");
  binary("Less", "[?,1]", "[4]", "[?,4]");
  binary_err("Greater", "[2]", "[3]", "Dimensions must be equal");
  {
    /* Equal with incompatible_shape_error=false gives a scalar. */
    T t;
    t_begin(&t, "Equal");
    t_in(&t, "[2]");
    t_in(&t, "[3]");
    t_attr_bool(&t, "incompatible_shape_error", 0);
    expect(&t, "[]");
    t_end(&t);
  }
  {
    T t;
    t_begin(&t, "LogicalAnd");
    t_in_typed(&t, "[4,1]", TF_BOOL);
    t_in_typed(&t, "[3]", TF_BOOL);
    expect(&t, "[4,3]");
    t_end(&t);
  }
}

TEST(gradients_merge_both_inputs) {
  binary("ReluGrad", "[?,3]", "[2,?]", "[2,3]");
  binary_err("TanhGrad", "[2,3]", "[2,4]",
             "Dimension 1 in both shapes must be equal, but are 3 and 4");
  binary_err("SigmoidGrad", "[2]", "[2,4]",
             "Shapes must be equal rank, but are 1 and 2");
}

TEST(cast_and_bitcast) {
  T t;
  t_begin(&t, "Cast");
  t_in(&t, "[2,?]");
  t_attr_type(&t, "DstT", TF_INT32);
  expect(&t, "[2,?]");
  t_end(&t);
  t_begin(&t, "Bitcast");
  t_in_typed(&t, "[3]", TF_INT32);
  t_attr_type(&t, "type", TF_UINT8);
  expect(&t, "[3,4]");
  t_end(&t);
  t_begin(&t, "Bitcast");
  t_in_typed(&t, "[3,2]", TF_INT32);
  t_attr_type(&t, "type", TF_INT64);
  expect(&t, "[3]");
  t_end(&t);
  t_begin(&t, "Bitcast");
  t_in_typed(&t, "[3,4]", TF_INT32);
  t_attr_type(&t, "type", TF_INT64);
  expect_err(&t, "Cannot bitcast due to shape. 4 does not match 2");
  t_end(&t);
  t_begin(&t, "Bitcast");
  t_in_typed(&t, "[3]", TF_FLOAT);
  t_attr_type(&t, "type", TF_INT32);
  expect(&t, "[3]");
  t_end(&t);
}

TEST(select_and_select_v2) {
  T t;
  t_begin(&t, "Select");
  t_in_typed(&t, "[]", TF_BOOL);
  t_in(&t, "[2,?]");
  t_in(&t, "[?,3]");
  expect(&t, "[2,3]");
  t_end(&t);
  t_begin(&t, "Select");
  t_in_typed(&t, "[?]", TF_BOOL);
  t_in(&t, "[4,3]");
  t_in(&t, "[4,3]");
  expect(&t, "[4,3]");
  t_end(&t);
  t_begin(&t, "Select");
  t_in_typed(&t, "[5]", TF_BOOL);
  t_in(&t, "[4,3]");
  t_in(&t, "[4,3]");
  expect_err(&t, "Dimension 0 in both shapes must be equal, but are 5 and 4");
  t_end(&t);
  t_begin(&t, "Select");
  t_in_typed(&t, "[2]", TF_BOOL);
  t_in(&t, "[]");
  t_in(&t, "[]");
  expect_err(&t, "Shapes must be equal rank, but are 0 and 1");
  t_end(&t);
  t_begin(&t, "SelectV2");
  t_in_typed(&t, "[2,1]", TF_BOOL);
  t_in(&t, "[3]");
  t_in(&t, "[]");
  expect(&t, "[2,3]");
  t_end(&t);
}

TEST(addn_merges_all) {
  T t;
  t_begin(&t, "AddN");
  t_in(&t, "[?,3]");
  t_in(&t, "[2,?]");
  t_in(&t, "?");
  expect(&t, "[2,3]");
  t_end(&t);
  t_begin(&t, "AddN");
  t_in(&t, "[2,3]");
  t_in(&t, "[3]");
  expect_err(&t,
             "Shapes must be equal rank, but are 2 and 1\n\tFrom merging "
             "shape 0 with other shapes.");
  t_end(&t);
}

TEST(reductions) {
  T t;
  int32_t ax1 = 1, axes[2] = {0, -1}, bad = 3;
  t_begin(&t, "Sum");
  t_in(&t, "[2,3,4]");
  t_scalar_i32(&t, ax1);
  expect(&t, "[2,4]");
  t_end(&t);
  t_begin(&t, "Mean");
  t_in(&t, "[2,3,4]");
  t_const_i32(&t, 2, axes);
  t_attr_bool(&t, "keep_dims", 1);
  expect(&t, "[1,3,1]");
  t_end(&t);
  t_begin(&t, "Max");
  t_in(&t, "[2,3,4]");
  t_in_typed(&t, "[1]", TF_INT32);
  expect(&t, "?");
  t_end(&t);
  t_begin(&t, "Max");
  t_in(&t, "[2,3,4]");
  t_in_typed(&t, "[1]", TF_INT32);
  t_attr_bool(&t, "keep_dims", 1);
  expect(&t, "[?,?,?]");
  t_end(&t);
  t_begin(&t, "Prod");
  t_in(&t, "[2,3]");
  t_scalar_i32(&t, bad);
  expect_err(&t, "Invalid reduction dimension 3 for input with 2 dimensions.");
  CHECK_STR_CONTAINS(TF_Message(t.s),
                     "and with computed input tensors: input[1] = <3>.");
  t_end(&t);
  t_begin(&t, "Sum");
  t_in(&t, "[2,3]");
  t_in_typed(&t, "[1,1]", TF_INT32);
  expect_err(&t, "Shape must be at most rank 1 but is rank 2");
  t_end(&t);
  t_begin(&t, "All");
  t_in_typed(&t, "[4]", TF_BOOL);
  t_const_i32(&t, 0, NULL);
  expect(&t, "[4]");
  t_end(&t);
}

TEST(argmax_argmin) {
  T t;
  t_begin(&t, "ArgMax");
  t_in(&t, "[2,3,4]");
  t_scalar_i32(&t, -1);
  expect(&t, "[2,3]");
  t_end(&t);
  t_begin(&t, "ArgMin");
  t_in(&t, "[2,3,4]");
  t_in_typed(&t, "[]", TF_INT32);
  expect(&t, "[?,?]");
  t_end(&t);
  t_begin(&t, "ArgMax");
  t_in(&t, "[5]");
  t_in_typed(&t, "[]", TF_INT32);
  expect(&t, "[]");
  t_end(&t);
  t_begin(&t, "ArgMax");
  t_in(&t, "[2,3]");
  t_scalar_i32(&t, 2);
  expect_err(&t, "Dimension (2) must be in the range [-2, 2)");
  t_end(&t);
}

TEST(matmul) {
  T t;
  binary("MatMul", "[?,3]", "[3,2]", "[?,2]");
  binary("MatMul", "?", "[3,2]", "[?,2]");
  t_begin(&t, "MatMul");
  t_in(&t, "[2,3]");
  t_in(&t, "[2,3]");
  t_attr_bool(&t, "transpose_b", 1);
  expect(&t, "[2,2]");
  t_end(&t);
  t_begin(&t, "MatMul");
  t_in(&t, "[?,3]");
  t_in(&t, "[2,2]");
  expect_err(&t,
             "Dimensions must be equal, but are 3 and 2 for '{{node n}} = "
             "MatMul[T=DT_FLOAT, grad_a=false, grad_b=false, "
             "transpose_a=false, transpose_b=false](x, y)' with input "
             "shapes: [?,3], [2,2].");
  t_end(&t);
  binary_err("MatMul", "[3]", "[3,2]", "Shape must be rank 2 but is rank 1");
}

TEST(batch_matmul) {
  T t;
  binary("BatchMatMulV2", "[5,2,3]", "[3,4]", "[5,2,4]");
  binary("BatchMatMulV2", "[5,1,2,3]", "[7,3,4]", "[5,7,2,4]");
  binary("BatchMatMulV2", "?", "[3,4]", "?");
  binary_err("BatchMatMulV2", "[5,2,3]", "[4,3,4]",
             "Dimensions must be equal, but are 5 and 4");
  binary_err("BatchMatMulV2", "[2,3]", "[2,4]",
             "Dimensions must be equal, but are 3 and 2");
  t_begin(&t, "BatchMatMul");
  t_in(&t, "[5,2,3]");
  t_in(&t, "[?,2,4]");
  t_attr_bool(&t, "adj_x", 1);
  expect(&t, "[5,3,4]");
  t_end(&t);
}

TEST(einsum) {
  T t;
  t_begin(&t, "Einsum");
  t_in(&t, "[2,3]");
  t_in(&t, "[3,5]");
  t_attr_str(&t, "equation", "ij,jk->ik");
  expect(&t, "[2,5]");
  t_end(&t);
  t_begin(&t, "Einsum");
  t_in(&t, "[7,2,3]");
  t_in(&t, "[3,5]");
  t_attr_str(&t, "equation", "...ij,jk->...ik");
  expect(&t, "[7,2,5]");
  t_end(&t);
  t_begin(&t, "Einsum");
  t_in(&t, "[2,3]");
  t_attr_str(&t, "equation", "ij->ji");
  expect(&t, "[3,2]");
  t_end(&t);
  t_begin(&t, "Einsum");
  t_in(&t, "[2,3]");
  t_in(&t, "[4,5]");
  t_attr_str(&t, "equation", "ij,jk->ik");
  expect_err(&t, "Dimensions must be equal, but are 3 and 4");
  t_end(&t);
  t_begin(&t, "Einsum");
  t_in(&t, "[2,3]");
  t_in(&t, "[3,4]");
  t_attr_str(&t, "equation", "ij,jk");
  expect_err(&t, "Expecting exactly one '->' in einsum equation: ij,jk");
  t_end(&t);
  t_begin(&t, "Einsum");
  t_in(&t, "[2,3]");
  t_attr_str(&t, "equation", "ij,jk->ik");
  expect_err(&t, "Expected 2 inputs for equation ij,jk->ik but got: 1");
  t_end(&t);
  t_begin(&t, "Einsum");
  t_in(&t, "[2,3,4]");
  t_attr_str(&t, "equation", "ij->ji");
  expect_err(&t, "Shape must be rank 2 but is rank 3\n\t for 0th input and "
                 "equation: ij->ji");
  t_end(&t);
}

TEST(conv2d_and_pooling) {
  T t;
  t_begin(&t, "Conv2D");
  t_in(&t, "[1,5,5,3]");
  t_in(&t, "[3,3,3,8]");
  t_attr_ints(&t, "strides", 4, (int64_t)1, (int64_t)1, (int64_t)1,
              (int64_t)1);
  t_attr_str(&t, "padding", "VALID");
  expect(&t, "[1,3,3,8]");
  t_end(&t);
  t_begin(&t, "Conv2D");
  t_in(&t, "[?,5,5,3]");
  t_in(&t, "[3,3,3,8]");
  t_attr_ints(&t, "strides", 4, (int64_t)1, (int64_t)2, (int64_t)2,
              (int64_t)1);
  t_attr_str(&t, "padding", "SAME");
  expect(&t, "[?,3,3,8]");
  t_end(&t);
  t_begin(&t, "Conv2D");
  t_in(&t, "[2,3,9,9]");
  t_in(&t, "[3,3,3,4]");
  t_attr_ints(&t, "strides", 4, (int64_t)1, (int64_t)1, (int64_t)1,
              (int64_t)1);
  t_attr_ints(&t, "dilations", 4, (int64_t)1, (int64_t)1, (int64_t)2,
              (int64_t)2);
  t_attr_str(&t, "padding", "VALID");
  t_attr_str(&t, "data_format", "NCHW");
  expect(&t, "[2,4,5,5]");
  t_end(&t);
  t_begin(&t, "Conv2D");
  t_in(&t, "[1,5,5,3]");
  t_in(&t, "[3,3,3,8]");
  t_attr_ints(&t, "strides", 4, (int64_t)1, (int64_t)1, (int64_t)1,
              (int64_t)1);
  t_attr_ints(&t, "explicit_paddings", 8, (int64_t)0, (int64_t)0,
              (int64_t)1, (int64_t)1, (int64_t)2, (int64_t)2, (int64_t)0,
              (int64_t)0);
  t_attr_str(&t, "padding", "EXPLICIT");
  expect(&t, "[1,5,7,8]");
  t_end(&t);
  t_begin(&t, "Conv2D");
  t_in(&t, "[1,2,2,3]");
  t_in(&t, "[3,3,3,8]");
  t_attr_ints(&t, "strides", 4, (int64_t)1, (int64_t)1, (int64_t)1,
              (int64_t)1);
  t_attr_str(&t, "padding", "VALID");
  expect_err(&t, "Negative dimension size caused by subtracting 3 from 2");
  t_end(&t);
  t_begin(&t, "Conv2D");
  t_in(&t, "[1,5,5,4]");
  t_in(&t, "[3,3,3,8]");
  t_attr_ints(&t, "strides", 4, (int64_t)1, (int64_t)1, (int64_t)1,
              (int64_t)1);
  t_attr_str(&t, "padding", "VALID");
  expect_err(&t, "Depth of input (4) is not a multiple of input depth of "
                 "filter (3)");
  t_end(&t);
  t_begin(&t, "DepthwiseConv2dNative");
  t_in(&t, "[1,5,5,3]");
  t_in(&t, "[3,3,3,2]");
  t_attr_ints(&t, "strides", 4, (int64_t)1, (int64_t)1, (int64_t)1,
              (int64_t)1);
  t_attr_str(&t, "padding", "SAME");
  expect(&t, "[1,5,5,6]");
  t_end(&t);
  t_begin(&t, "MaxPool");
  t_in(&t, "[1,4,4,3]");
  t_attr_ints(&t, "ksize", 4, (int64_t)1, (int64_t)2, (int64_t)2,
              (int64_t)1);
  t_attr_ints(&t, "strides", 4, (int64_t)1, (int64_t)2, (int64_t)2,
              (int64_t)1);
  t_attr_str(&t, "padding", "VALID");
  expect(&t, "[1,2,2,3]");
  t_end(&t);
  t_begin(&t, "AvgPool");
  t_in(&t, "[1,3,5,5]");
  t_attr_ints(&t, "ksize", 4, (int64_t)1, (int64_t)1, (int64_t)3,
              (int64_t)3);
  t_attr_ints(&t, "strides", 4, (int64_t)1, (int64_t)1, (int64_t)2,
              (int64_t)2);
  t_attr_str(&t, "padding", "SAME");
  t_attr_str(&t, "data_format", "NCHW");
  expect(&t, "[1,3,3,3]");
  t_end(&t);
  t_begin(&t, "MaxPool");
  t_in(&t, "[4,4,3]");
  t_attr_ints(&t, "ksize", 4, (int64_t)1, (int64_t)2, (int64_t)2,
              (int64_t)1);
  t_attr_ints(&t, "strides", 4, (int64_t)1, (int64_t)2, (int64_t)2,
              (int64_t)1);
  t_attr_str(&t, "padding", "VALID");
  expect_err(&t, "Shape must be rank 4 but is rank 3");
  t_end(&t);
}

TEST(bias_add_and_batch_norm) {
  T t;
  binary("BiasAdd", "[2,?,5]", "[5]", "[2,?,5]");
  binary("BiasAdd", "[2,?]", "[5]", "[2,5]");
  binary_err("BiasAdd", "[2,4]", "[5]",
             "Dimensions must be equal, but are 4 and 5");
  t_begin(&t, "BiasAdd");
  t_in(&t, "[2,3,4,4]");
  t_in(&t, "[3]");
  t_attr_str(&t, "data_format", "NCHW");
  expect(&t, "[2,3,4,4]");
  t_end(&t);
  unary("BiasAddGrad", "[2,7]", "[7]");
  t_begin(&t, "FusedBatchNormV3");
  t_in(&t, "[8,4,4,?]");
  t_in(&t, "[3]");
  t_in(&t, "[3]");
  t_in(&t, "[0]");
  t_in(&t, "[0]");
  t_attr_type(&t, "U", TF_FLOAT);
  expect(&t, "[8,4,4,3]");
  CHECK_STR_EQ(t_out(&t, 1), "[3]");
  CHECK_STR_EQ(t_out(&t, 4), "[3]");
  CHECK_STR_EQ(t_out(&t, 5), "?");
  t_end(&t);
  t_begin(&t, "FusedBatchNormV3");
  t_in(&t, "[8,3,4,4]");
  t_in(&t, "[3]");
  t_in(&t, "[3]");
  t_in(&t, "[0]");
  t_in(&t, "[0]");
  t_attr_type(&t, "U", TF_FLOAT);
  t_attr_str(&t, "data_format", "NCHW");
  t_attr_bool(&t, "is_training", 0);
  expect_err(&t, "Dimensions must be equal, but are 3 and 0");
  t_end(&t);
}

TEST(reshape) {
  T t;
  int32_t s1[2] = {-1, 6}, s2[2] = {4, 4}, s3[3] = {2, -1, 3};
  t_begin(&t, "Reshape");
  t_in(&t, "[2,3,4]");
  t_const_i32(&t, 2, s1);
  expect(&t, "[4,6]");
  t_end(&t);
  t_begin(&t, "Reshape");
  t_in(&t, "[2,3,4]");
  t_const_i32(&t, 2, s2);
  expect_err(&t, "Cannot reshape a tensor with 24 elements to shape [4,4] "
                 "(16 elements)");
  t_end(&t);
  t_begin(&t, "Reshape");
  t_in(&t, "[?,6]");
  t_const_i32(&t, 3, s3);
  expect(&t, "[2,?,3]");
  t_end(&t);
  t_begin(&t, "Reshape");
  t_in(&t, "[?,6]");
  t_const_i32(&t, 2, s1);
  expect(&t, "[?,6]");
  t_end(&t);
  t_begin(&t, "Reshape");
  t_in(&t, "[5,7]");
  t_const_i32(&t, 2, s1);
  expect_err(&t, "Dimension size must be evenly divisible by 6 but is 35");
  t_end(&t);
  t_begin(&t, "Reshape");
  t_in(&t, "?");
  t_in_typed(&t, "[3]", TF_INT32);
  expect(&t, "[?,?,?]");
  t_end(&t);
  t_begin(&t, "Reshape");
  t_in(&t, "[2,3]");
  t_partial_shape(&t, "[2]", "[?,2]");
  expect(&t, "[3,2]");
  t_end(&t);
  t_begin(&t, "Reshape");
  t_in(&t, "[2,3]");
  t_partial_shape(&t, "[2]", "[?,4]");
  expect_err(&t, "Dimension size must be evenly divisible by 4 but is 6");
  CHECK_STR_CONTAINS(TF_Message(t.s),
                     "with input shapes: [2,3], [2], and with input tensors "
                     "computed as partial shapes: input[1] = [?,4].");
  t_end(&t);
  t_begin(&t, "Reshape");
  t_in(&t, "[2,3]");
  t_in_typed(&t, "[2,2]", TF_INT32);
  expect_err(&t, "Shape must be rank 1 but is rank 2");
  t_end(&t);
}

TEST(fill_and_random_from_shape_inputs) {
  T t;
  int32_t d[2] = {2, 3};
  t_begin(&t, "Fill");
  t_const_i32(&t, 2, d);
  t_in(&t, "[]");
  expect(&t, "[2,3]");
  t_end(&t);
  t_begin(&t, "Fill");
  t_in_typed(&t, "[2]", TF_INT32);
  t_in(&t, "[]");
  expect(&t, "[?,?]");
  t_end(&t);
  t_begin(&t, "Fill");
  t_const_i32(&t, 2, d);
  t_in(&t, "[1]");
  expect_err(&t, "Shape must be rank 0 but is rank 1");
  t_end(&t);
  {
    int32_t neg[2] = {2, -1};
    t_begin(&t, "Fill");
    t_const_i32(&t, 2, neg);
    t_in(&t, "[]");
    expect_err(&t, "Fill dimensions must be >= 0");
    t_end(&t);
  }
  t_begin(&t, "RandomUniform");
  t_const_i32(&t, 2, d);
  t_attr_type(&t, "dtype", TF_FLOAT);
  expect(&t, "[2,3]");
  t_end(&t);
  t_begin(&t, "Range");
  t_scalar_i32(&t, 1);
  t_scalar_i32(&t, 10);
  t_scalar_i32(&t, 3);
  expect(&t, "[3]");
  t_end(&t);
  t_begin(&t, "Range");
  t_const_f32(&t, 0.0f);
  t_const_f32(&t, 1.0f);
  t_const_f32(&t, 0.3f);
  expect(&t, "[4]");
  t_end(&t);
  t_begin(&t, "Range");
  t_scalar_i32(&t, 1);
  t_in_typed(&t, "[]", TF_INT32);
  t_scalar_i32(&t, 3);
  expect(&t, "[?]");
  t_end(&t);
  t_begin(&t, "Range");
  t_scalar_i32(&t, 1);
  t_scalar_i32(&t, 10);
  t_scalar_i32(&t, 0);
  expect_err(&t, "Requires delta != 0");
  t_end(&t);
  t_begin(&t, "Range");
  t_scalar_i32(&t, 10);
  t_scalar_i32(&t, 1);
  t_scalar_i32(&t, 2);
  expect_err(&t, "Requires start <= limit when delta > 0");
  t_end(&t);
}

TEST(concat) {
  T t;
  t_begin(&t, "ConcatV2");
  t_in(&t, "[?,3]");
  t_in(&t, "[?,3]");
  t_scalar_i32(&t, 1);
  expect(&t, "[?,6]");
  t_end(&t);
  t_begin(&t, "ConcatV2");
  t_in(&t, "[2,3]");
  t_in(&t, "[4,?]");
  t_scalar_i32(&t, 0);
  expect(&t, "[6,3]");
  t_end(&t);
  t_begin(&t, "ConcatV2");
  t_in(&t, "[2,3]");
  t_in(&t, "[2,3]");
  t_scalar_i32(&t, -1);
  expect(&t, "[2,6]");
  t_end(&t);
  t_begin(&t, "ConcatV2");
  t_in(&t, "[2,3]");
  t_in(&t, "?");
  t_in_typed(&t, "[]", TF_INT32);
  expect(&t, "[?,?]");
  t_end(&t);
  t_begin(&t, "ConcatV2");
  t_in(&t, "[2,3]");
  t_in(&t, "[4,5]");
  t_scalar_i32(&t, 0);
  expect_err(&t, "Dimension 0 in both shapes must be equal, but are 3 and 5");
  t_end(&t);
  t_begin(&t, "ConcatV2");
  t_in(&t, "[]");
  t_in(&t, "[]");
  t_in_typed(&t, "[]", TF_INT32);
  expect_err(&t, "Can't concatenate scalars (use tf.stack instead)");
  t_end(&t);
  t_begin(&t, "ConcatV2");
  t_in(&t, "[2,3]");
  t_in(&t, "[2,3]");
  t_scalar_i32(&t, 2);
  expect_err(&t, "Shape must be at least rank 3 but is rank 2");
  t_end(&t);
  t_begin(&t, "Concat");
  t_scalar_i32(&t, 0);
  t_in(&t, "[1,2]");
  t_in(&t, "[3,2]");
  expect(&t, "[4,2]");
  t_end(&t);
}

TEST(split_and_split_v) {
  T t;
  int32_t sizes[3] = {1, -1, 2}, bad[2] = {4, 4};
  t_begin(&t, "Split");
  t_scalar_i32(&t, 0);
  t_in(&t, "[4,2]");
  t_attr_int(&t, "num_split", 2);
  expect(&t, "[2,2]");
  CHECK_STR_EQ(t_out(&t, 1), "[2,2]");
  t_end(&t);
  t_begin(&t, "Split");
  t_in_typed(&t, "[]", TF_INT32);
  t_in(&t, "[4,2]");
  t_attr_int(&t, "num_split", 2);
  expect(&t, "[?,?]");
  t_end(&t);
  t_begin(&t, "Split");
  t_scalar_i32(&t, 1);
  t_in(&t, "[4,3]");
  t_attr_int(&t, "num_split", 2);
  expect_err(&t, "Dimension size must be evenly divisible by 2 but is 3\n\t"
                 "Number of ways to split should evenly divide the split "
                 "dimension");
  t_end(&t);
  t_begin(&t, "SplitV");
  t_in(&t, "[6,2]");
  t_const_i32(&t, 3, sizes);
  t_scalar_i32(&t, 0);
  t_attr_int(&t, "num_split", 3);
  expect(&t, "[1,2]");
  CHECK_STR_EQ(t_out(&t, 1), "[3,2]");
  CHECK_STR_EQ(t_out(&t, 2), "[2,2]");
  t_end(&t);
  t_begin(&t, "SplitV");
  t_in(&t, "[6,2]");
  t_const_i32(&t, 2, bad);
  t_scalar_i32(&t, 0);
  t_attr_int(&t, "num_split", 2);
  expect_err(&t, "can't split axis of size 6 into pieces of size [4,4]");
  t_end(&t);
  t_begin(&t, "SplitV");
  t_in(&t, "[6,2]");
  t_in_typed(&t, "[2]", TF_INT32);
  t_scalar_i32(&t, 1);
  t_attr_int(&t, "num_split", 2);
  expect(&t, "[6,?]");
  t_end(&t);
}

TEST(pack_and_unpack) {
  T t;
  t_begin(&t, "Pack");
  t_in(&t, "[2,?]");
  t_in(&t, "[?,3]");
  expect(&t, "[2,2,3]");
  t_end(&t);
  t_begin(&t, "Pack");
  t_in(&t, "[2,3]");
  t_in(&t, "[2,3]");
  t_in(&t, "[2,3]");
  t_attr_int(&t, "axis", -1);
  expect(&t, "[2,3,3]");
  t_end(&t);
  t_begin(&t, "Pack");
  t_in(&t, "[2,3]");
  t_in(&t, "[2,4]");
  expect_err(&t, "From merging shape 0 with other shapes.");
  t_end(&t);
  t_begin(&t, "Pack");
  t_in(&t, "[2]");
  t_attr_int(&t, "axis", 3);
  expect_err(&t, "Invalid axis: 3; must be in [-2,2)");
  t_end(&t);
  t_begin(&t, "Unpack");
  t_in(&t, "[2,3]");
  t_attr_int(&t, "num", 3);
  t_attr_int(&t, "axis", 1);
  expect(&t, "[2]");
  CHECK_EQ_INT(t.n_out, 3);
  CHECK_STR_EQ(t_out(&t, 2), "[2]");
  t_end(&t);
  t_begin(&t, "Unpack");
  t_in(&t, "[2,3]");
  t_attr_int(&t, "num", 4);
  expect_err(&t, "Dimension must be 4 but is 2");
  t_end(&t);
}

TEST(squeeze_and_expand_dims) {
  T t;
  unary("Squeeze", "[1,3,1]", "[3]");
  unary("Squeeze", "[1,?]", "?");
  t_begin(&t, "Squeeze");
  t_in(&t, "[1,?,1]");
  t_attr_ints(&t, "squeeze_dims", 1, (int64_t)-1);
  expect(&t, "[1,?]");
  t_end(&t);
  t_begin(&t, "Squeeze");
  t_in(&t, "[1,3]");
  t_attr_ints(&t, "squeeze_dims", 1, (int64_t)1);
  expect_err(&t, "Can not squeeze dim[1], expected a dimension of 1, got 3");
  t_end(&t);
  t_begin(&t, "ExpandDims");
  t_in(&t, "[2,3]");
  t_scalar_i32(&t, -1);
  expect(&t, "[2,3,1]");
  t_end(&t);
  t_begin(&t, "ExpandDims");
  t_in(&t, "[2,3]");
  t_scalar_i32(&t, 0);
  expect(&t, "[1,2,3]");
  t_end(&t);
  t_begin(&t, "ExpandDims");
  t_in(&t, "[2,3]");
  t_scalar_i32(&t, 4);
  expect_err(&t, "dim 4 not in the interval [-3, 2].");
  t_end(&t);
}

TEST(transpose) {
  T t;
  int32_t perm[3] = {2, 0, 1}, bad[2] = {0, 2};
  t_begin(&t, "Transpose");
  t_in(&t, "[2,3,4]");
  t_const_i32(&t, 3, perm);
  expect(&t, "[4,2,3]");
  t_end(&t);
  t_begin(&t, "Transpose");
  t_in(&t, "[2,3,4]");
  t_in_typed(&t, "[3]", TF_INT32);
  expect(&t, "[?,?,?]");
  t_end(&t);
  t_begin(&t, "Transpose");
  t_in(&t, "?");
  t_in_typed(&t, "[2]", TF_INT32);
  expect(&t, "[?,?]");
  t_end(&t);
  t_begin(&t, "Transpose");
  t_in(&t, "[2,3]");
  t_const_i32(&t, 2, bad);
  expect_err(&t, "perm dim 2 is out of range of input rank 2");
  t_end(&t);
  t_begin(&t, "Transpose");
  t_in(&t, "[2,3]");
  t_const_i32(&t, 3, perm);
  expect_err(&t, "Dimension must be 2 but is 3");
  t_end(&t);
}

TEST(slice_and_strided_slice) {
  T t;
  int32_t b[2] = {1, 0}, sz[2] = {2, -1}, z3[3] = {0, 0, 0}, e3[3] = {0, 2, 0},
          one3[3] = {1, 1, 1}, b1[1] = {1}, e1[1] = {2}, s1[1] = {1},
          m1[1] = {-1}, s2[1] = {2};
  t_begin(&t, "Slice");
  t_in(&t, "[4,5]");
  t_const_i32(&t, 2, b);
  t_const_i32(&t, 2, sz);
  expect(&t, "[2,5]");
  t_end(&t);
  t_begin(&t, "Slice");
  t_in(&t, "[4,5]");
  t_in_typed(&t, "[2]", TF_INT32);
  t_in_typed(&t, "[2]", TF_INT32);
  expect(&t, "[?,?]");
  t_end(&t);
  t_begin(&t, "Slice");
  t_in(&t, "[4,5,6]");
  t_const_i32(&t, 2, b);
  t_const_i32(&t, 2, sz);
  expect_err(&t, "Shape must be rank 2 but is rank 3");
  t_end(&t);
  /* x[:, 0:2, :] */
  t_begin(&t, "StridedSlice");
  t_in(&t, "[4,5,6]");
  t_const_i32(&t, 3, z3);
  t_const_i32(&t, 3, e3);
  t_const_i32(&t, 3, one3);
  t_attr_int(&t, "begin_mask", 5);
  t_attr_int(&t, "end_mask", 5);
  expect(&t, "[4,2,6]");
  t_end(&t);
  /* x[1] shrinks the first axis */
  t_begin(&t, "StridedSlice");
  t_in(&t, "[4,5]");
  t_const_i32(&t, 1, b1);
  t_const_i32(&t, 1, e1);
  t_const_i32(&t, 1, s1);
  t_attr_int(&t, "shrink_axis_mask", 1);
  expect(&t, "[5]");
  t_end(&t);
  /* x[-1] on an unknown first dim */
  t_begin(&t, "StridedSlice");
  t_in(&t, "[?,5]");
  t_const_i32(&t, 1, m1);
  t_const_i32(&t, 1, b1);
  t_const_i32(&t, 1, s1);
  t_attr_int(&t, "shrink_axis_mask", 1);
  expect(&t, "[5]");
  t_end(&t);
  /* x[::2] and x[tf.newaxis] */
  t_begin(&t, "StridedSlice");
  t_in(&t, "[7]");
  t_const_i32(&t, 1, b1);
  t_const_i32(&t, 1, b1);
  t_const_i32(&t, 1, s2);
  t_attr_int(&t, "begin_mask", 1);
  t_attr_int(&t, "end_mask", 1);
  expect(&t, "[4]");
  t_end(&t);
  t_begin(&t, "StridedSlice");
  t_in(&t, "[3,4]");
  t_const_i32(&t, 1, b1);
  t_const_i32(&t, 1, b1);
  t_const_i32(&t, 1, s1);
  t_attr_int(&t, "new_axis_mask", 1);
  expect(&t, "[1,3,4]");
  t_end(&t);
  /* x[..., 1] */
  t_begin(&t, "StridedSlice");
  {
    int32_t eb[2] = {0, 1}, ee[2] = {0, 2}, es[2] = {1, 1};
    t_in(&t, "[2,3,4]");
    t_const_i32(&t, 2, eb);
    t_const_i32(&t, 2, ee);
    t_const_i32(&t, 2, es);
    t_attr_int(&t, "ellipsis_mask", 1);
    t_attr_int(&t, "shrink_axis_mask", 2);
    expect(&t, "[2,3]");
  }
  t_end(&t);
  /* unknown begin/end with known strides keep the rank */
  t_begin(&t, "StridedSlice");
  t_in(&t, "[4,5]");
  t_in_typed(&t, "[1]", TF_INT32);
  t_in_typed(&t, "[1]", TF_INT32);
  t_const_i32(&t, 1, s1);
  expect(&t, "[?,5]");
  t_end(&t);
  t_begin(&t, "StridedSlice");
  t_in(&t, "[4,5]");
  t_const_i32(&t, 1, e3 + 1);
  t_const_i32(&t, 1, e1);
  t_const_i32(&t, 1, z3);
  expect_err(&t, "strides[0] must be non-zero");
  t_end(&t);
  t_begin(&t, "StridedSlice");
  {
    int32_t big[1] = {7}, big1[1] = {8};
    t_in(&t, "[4,5]");
    t_const_i32(&t, 1, big);
    t_const_i32(&t, 1, big1);
    t_const_i32(&t, 1, s1);
    t_attr_int(&t, "shrink_axis_mask", 1);
    expect_err(&t, "slice index 7 of dimension 0 out of bounds.");
  }
  t_end(&t);
}

TEST(gather_family) {
  T t;
  t_begin(&t, "Gather");
  t_in(&t, "[10,3]");
  t_in_typed(&t, "[2,4]", TF_INT32);
  expect(&t, "[2,4,3]");
  t_end(&t);
  t_begin(&t, "GatherV2");
  t_in(&t, "[10,3,5]");
  t_in_typed(&t, "[2]", TF_INT32);
  t_scalar_i32(&t, 1);
  expect(&t, "[10,2,5]");
  t_end(&t);
  t_begin(&t, "GatherV2");
  t_in(&t, "[10,3]");
  t_in_typed(&t, "[2,4]", TF_INT32);
  t_in_typed(&t, "[]", TF_INT32);
  expect(&t, "[?,?,?]");
  t_end(&t);
  t_begin(&t, "GatherV2");
  t_in(&t, "[4,10,3]");
  t_in_typed(&t, "[4,2]", TF_INT32);
  t_scalar_i32(&t, 1);
  t_attr_int(&t, "batch_dims", 1);
  expect(&t, "[4,2,3]");
  t_end(&t);
  t_begin(&t, "GatherV2");
  t_in(&t, "[10]");
  t_in_typed(&t, "[2]", TF_INT32);
  t_scalar_i32(&t, 1);
  expect_err(&t, "Shape must be at least rank 2 but is rank 1");
  t_end(&t);
  t_begin(&t, "GatherNd");
  t_in(&t, "[4,5,6]");
  t_in_typed(&t, "[3,2]", TF_INT32);
  expect(&t, "[3,6]");
  t_end(&t);
  t_begin(&t, "GatherNd");
  t_in(&t, "[4,5]");
  t_in_typed(&t, "[3,3]", TF_INT32);
  expect_err(&t, "indices.shape[-1] must be <= params.rank");
  t_end(&t);
}

TEST(tile_and_pad) {
  T t;
  int32_t m[2] = {2, 3}, p[4] = {1, 1, 0, 2}, neg[4] = {-1, 0, 0, 0};
  t_begin(&t, "Tile");
  t_in(&t, "[2,?]");
  t_const_i32(&t, 2, m);
  expect(&t, "[4,?]");
  t_end(&t);
  t_begin(&t, "Tile");
  t_in(&t, "[2,3,4]");
  t_const_i32(&t, 2, m);
  expect_err(&t, "Shape must be rank 3 but is rank 2");
  t_end(&t);
  t_begin(&t, "Pad");
  t_in(&t, "[2,3]");
  {
    int64_t d[2] = {2, 2};
    TF_Tensor* x = TF_AllocateTensor(TF_INT32, d, 2, 16);
    memcpy(TF_TensorData(x), p, 16);
    t.in[1].num_dims = 2;
    t.dims[1][0] = 2;
    t.dims[1][1] = 2;
    t.in[1].dims = t.dims[1];
    t.types[1] = TF_INT32;
    t.vals[1] = x;
    t.as_shapes[1].num_dims = -1;
    t.n_in = 2;
  }
  expect(&t, "[4,5]");
  t_end(&t);
  t_begin(&t, "Pad");
  t_in(&t, "[2,3]");
  t_in_typed(&t, "[2,2]", TF_INT32);
  expect(&t, "[?,?]");
  t_end(&t);
  t_begin(&t, "Pad");
  t_in(&t, "[2,3,4]");
  t_in_typed(&t, "[2,2]", TF_INT32);
  expect_err(&t, "Shape must be rank 2 but is rank 3");
  t_end(&t);
  t_begin(&t, "MirrorPad");
  t_in(&t, "[2,3]");
  {
    int64_t d[2] = {2, 2};
    TF_Tensor* x = TF_AllocateTensor(TF_INT32, d, 2, 16);
    memcpy(TF_TensorData(x), neg, 16);
    t.in[1].num_dims = 2;
    t.dims[1][0] = 2;
    t.dims[1][1] = 2;
    t.in[1].dims = t.dims[1];
    t.types[1] = TF_INT32;
    t.vals[1] = x;
    t.as_shapes[1].num_dims = -1;
    t.n_in = 2;
  }
  t_attr_str(&t, "mode", "REFLECT");
  expect_err(&t, "Paddings must be non-negative");
  t_end(&t);
}

TEST(shape_size_rank_identity_n) {
  T t;
  unary("Shape", "[2,3,?]", "[3]");
  unary("Shape", "?", "[?]");
  unary("Size", "[2,3]", "[]");
  unary("Rank", "?", "[]");
  t_begin(&t, "IdentityN");
  t_in(&t, "[2]");
  t_in_typed(&t, "[?,3]", TF_INT32);
  expect(&t, "[2]");
  CHECK_STR_EQ(t_out(&t, 1), "[?,3]");
  t_end(&t);
  t_begin(&t, "ShapeN");
  t_in(&t, "[2]");
  t_in(&t, "[1,2,3]");
  expect(&t, "[1]");
  CHECK_STR_EQ(t_out(&t, 1), "[3]");
  t_end(&t);
}

TEST(placeholder_and_const) {
  T t;
  int64_t d[2] = {3, 2};
  tfe_attr_value v;
  TF_Tensor* x;
  if (tfe_op_lookup("Placeholder") != NULL) {
    t_begin(&t, "Placeholder");
    t_attr_type(&t, "dtype", TF_FLOAT);
    t_attr_shape(&t, "shape", "[?,3]");
    expect(&t, "[?,3]");
    t_end(&t);
    t_begin(&t, "Placeholder");
    t_attr_type(&t, "dtype", TF_FLOAT);
    expect(&t, "?");
    t_end(&t);
  }
  t_begin(&t, "Const");
  x = TF_AllocateTensor(TF_FLOAT, d, 2, 24);
  CHECK(tfe_attr_value_set_tensor(&v, x));
  TF_DeleteTensor(x);
  put(&t, "value", &v);
  t_attr_type(&t, "dtype", TF_FLOAT);
  expect(&t, "[3,2]");
  t_end(&t);
  t_begin(&t, "PlaceholderWithDefault");
  t_in(&t, "[2,3]");
  t_attr_shape(&t, "shape", "[?,3]");
  t_attr_type(&t, "dtype", TF_FLOAT);
  expect(&t, "[?,3]");
  t_end(&t);
  t_begin(&t, "PlaceholderWithDefault");
  t_in(&t, "[2,4]");
  t_attr_shape(&t, "shape", "[?,3]");
  t_attr_type(&t, "dtype", TF_FLOAT);
  expect_err(&t, "Dimension 1 in both shapes must be equal, but are 4 and 3");
  t_end(&t);
  t_begin(&t, "EnsureShape");
  t_in(&t, "[?,3]");
  t_attr_shape(&t, "shape", "[2,?]");
  expect(&t, "[2,3]");
  t_end(&t);
  t_begin(&t, "EnsureShape");
  t_in(&t, "[4,3]");
  t_attr_shape(&t, "shape", "[2,?]");
  expect_err(&t, "Dimension 0 in both shapes must be equal, but are 2 and 4");
  t_end(&t);
  t_begin(&t, "EnsureShape");
  t_in(&t, "[4,3,1]");
  t_attr_shape(&t, "shape", "[2,?]");
  expect_err(&t, "Shape must be rank 2 but is rank 3");
  t_end(&t);
}

TEST(one_hot_top_k_where) {
  T t;
  t_begin(&t, "OneHot");
  t_in_typed(&t, "[4,2]", TF_INT64);
  t_scalar_i32(&t, 5);
  t_in(&t, "[]");
  t_in(&t, "[]");
  expect(&t, "[4,2,5]");
  t_end(&t);
  t_begin(&t, "OneHot");
  t_in_typed(&t, "[4]", TF_INT64);
  t_scalar_i32(&t, 5);
  t_in(&t, "[]");
  t_in(&t, "[]");
  t_attr_int(&t, "axis", 0);
  expect(&t, "[5,4]");
  t_end(&t);
  t_begin(&t, "OneHot");
  t_in_typed(&t, "[4]", TF_INT64);
  t_scalar_i32(&t, -2);
  t_in(&t, "[]");
  t_in(&t, "[]");
  expect_err(&t, "must be non-negative but is -2");
  t_end(&t);
  t_begin(&t, "TopKV2");
  t_in(&t, "[3,10]");
  t_scalar_i32(&t, 4);
  expect(&t, "[3,4]");
  CHECK_STR_EQ(t_out(&t, 1), "[3,4]");
  t_end(&t);
  t_begin(&t, "TopKV2");
  t_in(&t, "[3,2]");
  t_scalar_i32(&t, 4);
  expect_err(&t, "input must have last dimension >= k = 4 but is 2");
  t_end(&t);
  t_begin(&t, "Where");
  t_in_typed(&t, "[3,4]", TF_BOOL);
  expect(&t, "[?,2]");
  t_end(&t);
  t_begin(&t, "Where");
  t_in_typed(&t, "?", TF_BOOL);
  expect(&t, "[?,?]");
  t_end(&t);
}

TEST(misc_array_ops) {
  T t;
  int32_t shp[3] = {4, 2, 3};
  t_begin(&t, "BroadcastTo");
  t_in(&t, "[2,1]");
  t_const_i32(&t, 3, shp);
  expect(&t, "[4,2,3]");
  t_end(&t);
  t_begin(&t, "BroadcastTo");
  t_in(&t, "[5,1]");
  t_const_i32(&t, 3, shp);
  expect_err(&t, "Dimensions must be equal, but are 5 and 2");
  t_end(&t);
  unary("Unique", "[7]", "[?]");
  unary("MatrixDiag", "[2,3]", "[2,3,3]");
  unary("MatrixDiagPart", "[2,3,4]", "[2,3]");
  unary("Diag", "[2,3]", "[2,3,2,3]");
  unary("DiagPart", "[2,3,2,3]", "[2,3]");
  t_begin(&t, "InvertPermutation");
  t_in_typed(&t, "[5]", TF_INT32);
  expect(&t, "[5]");
  t_end(&t);
  t_begin(&t, "DepthToSpace");
  t_in(&t, "[1,2,2,12]");
  t_attr_int(&t, "block_size", 2);
  expect(&t, "[1,4,4,3]");
  t_end(&t);
  t_begin(&t, "SpaceToDepth");
  t_in(&t, "[1,4,3,3]");
  t_attr_int(&t, "block_size", 2);
  expect_err(&t, "Dimension size must be evenly divisible by 2 but is 3");
  t_end(&t);
  t_begin(&t, "SpaceToBatchND");
  {
    int32_t bs[2] = {2, 2}, pads[4] = {0, 0, 1, 1};
    int64_t d2[2] = {2, 2};
    TF_Tensor* x;
    t_in(&t, "[1,4,2,3]");
    t_const_i32(&t, 2, bs);
    x = TF_AllocateTensor(TF_INT32, d2, 2, 16);
    memcpy(TF_TensorData(x), pads, 16);
    t.in[2].num_dims = 2;
    t.dims[2][0] = 2;
    t.dims[2][1] = 2;
    t.in[2].dims = t.dims[2];
    t.types[2] = TF_INT32;
    t.vals[2] = x;
    t.as_shapes[2].num_dims = -1;
    t.n_in = 3;
  }
  expect(&t, "[4,2,2,3]");
  t_end(&t);
  {
    int32_t bs[2] = {2, 2};
    t_begin(&t, "BatchToSpaceND");
    t_in(&t, "[8,2,3,5]");
    t_const_i32(&t, 2, bs);
    t_in_typed(&t, "[2,2]", TF_INT32);
    expect(&t, "[2,?,?,5]");
    t_end(&t);
    t_begin(&t, "BatchToSpaceND");
    t_in(&t, "[7,2,3,5]");
    t_const_i32(&t, 2, bs);
    t_in_typed(&t, "[2,2]", TF_INT32);
    expect_err(&t, "Dimension size must be evenly divisible by 2 but is 7");
    t_end(&t);
    t_begin(&t, "SpaceToBatchND");
    t_in(&t, "[1,4,4,3]");
    t_in_typed(&t, "?", TF_INT32);
    t_in_typed(&t, "[2,2]", TF_INT32);
    expect_err(&t, "block_shape must have rank 1.");
    t_end(&t);
  }
  unary("Cumsum", "[2,3]", "[2,3]");
  {
    int32_t ax[2] = {1, -2}, dup[2] = {0, -2};
    t_begin(&t, "ReverseV2");
    t_in(&t, "[2,?]");
    t_const_i32(&t, 2, ax);
    expect(&t, "[2,?]");
    t_end(&t);
    t_begin(&t, "ReverseV2");
    t_in(&t, "[2,3]");
    t_const_i32(&t, 2, dup);
    expect_err(&t, "axis 0 specified more than once.");
    t_end(&t);
    t_begin(&t, "ReverseV2");
    t_in(&t, "[2,3]");
    t_const_i32(&t, 1, ax + 1);
    expect(&t, "[2,3]");
    t_end(&t);
    t_begin(&t, "ReverseV2");
    t_in(&t, "[2,3]");
    ax[0] = 2;
    t_const_i32(&t, 1, ax);
    expect_err(&t, "'axis'[0] = 2 is out of valid range [0, 1");
    t_end(&t);
    t_begin(&t, "Reverse");
    t_in(&t, "[2,3]");
    t_in_typed(&t, "[3]", TF_BOOL);
    expect_err(&t, "Shape must be rank 3 but is rank 2");
    t_end(&t);
  }
  t_begin(&t, "SegmentSum");
  t_in(&t, "[6,3]");
  t_in_typed(&t, "[6]", TF_INT32);
  expect(&t, "[?,3]");
  t_end(&t);
  t_begin(&t, "UnsortedSegmentSum");
  t_in(&t, "[6,3]");
  t_in_typed(&t, "[6]", TF_INT32);
  t_scalar_i32(&t, 4);
  expect(&t, "[4,3]");
  t_end(&t);
}

TEST(string_ops) {
  T t;
  t_begin(&t, "StringJoin");
  t_in_typed(&t, "[]", TF_STRING);
  t_in_typed(&t, "[]", TF_STRING);
  expect(&t, "[]");
  t_end(&t);
  t_begin(&t, "StringJoin");
  t_in_typed(&t, "[3]", TF_STRING);
  t_in_typed(&t, "[]", TF_STRING);
  expect(&t, "[3]");
  t_end(&t);
  t_begin(&t, "StringJoin");
  t_in_typed(&t, "[3]", TF_STRING);
  t_in_typed(&t, "[4]", TF_STRING);
  expect_err(&t, "Dimension 0 in both shapes must be equal, but are 3 and 4");
  t_end(&t);
  t_begin(&t, "StringLower");
  t_in_typed(&t, "[2,2]", TF_STRING);
  expect(&t, "[2,2]");
  t_end(&t);
}

TEST(resources_lists_and_state) {
  T t;
  t_begin(&t, "VarHandleOp");
  t_attr_type(&t, "dtype", TF_FLOAT);
  t_attr_shape(&t, "shape", "[2,3]");
  expect(&t, "[]");
  CHECK(tfe_shape_infer_known(t.def));
  t_end(&t);
  t_begin(&t, "ReadVariableOp");
  t_in_typed(&t, "[]", TF_RESOURCE);
  t_attr_type(&t, "dtype", TF_FLOAT);
  expect(&t, "?");
  CHECK(tfe_shape_infer_known(t.def));
  t_end(&t);
  t_begin(&t, "ReadVariableOp");
  t_in_typed(&t, "[]", TF_RESOURCE);
  t_handle_shape(&t, 0, "[2,?]");
  t_attr_type(&t, "dtype", TF_FLOAT);
  expect(&t, "[2,?]");
  t_end(&t);
  t_begin(&t, "ResourceGather");
  t_in_typed(&t, "[]", TF_RESOURCE);
  t_in_typed(&t, "[5]", TF_INT32);
  t_handle_shape(&t, 0, "[10,3]");
  t_attr_type(&t, "dtype", TF_FLOAT);
  expect(&t, "[5,3]");
  t_end(&t);
  t_begin(&t, "VariableV2");
  t_attr_type(&t, "dtype", TF_FLOAT);
  t_attr_shape(&t, "shape", "[4]");
  expect(&t, "[4]");
  t_end(&t);
  t_begin(&t, "EmptyTensorList");
  t_in_typed(&t, "[]", TF_INT32);
  t_in_typed(&t, "[]", TF_INT32);
  t_attr_type(&t, "element_dtype", TF_FLOAT);
  expect(&t, "[]");
  t_end(&t);
  t_begin(&t, "TensorListStack");
  {
    int32_t es[1] = {3};
    t_in_typed(&t, "[]", TF_VARIANT);
    t_const_i32(&t, 1, es);
    t_attr_type(&t, "element_dtype", TF_FLOAT);
    t_attr_int(&t, "num_elements", 5);
    expect(&t, "[5,3]");
  }
  t_end(&t);
  t_begin(&t, "TensorListGetItem");
  {
    int32_t es[2] = {-1, 3};
    t_in_typed(&t, "[]", TF_VARIANT);
    t_in_typed(&t, "[]", TF_INT32);
    t_const_i32(&t, 2, es);
    t_handle_shape(&t, 0, "[2,?]");
    t_attr_type(&t, "element_dtype", TF_FLOAT);
    expect(&t, "[2,3]");
  }
  t_end(&t);
  t_begin(&t, "TensorListGetItem");
  {
    int32_t es[2] = {4, 3};
    t_in_typed(&t, "[]", TF_VARIANT);
    t_in_typed(&t, "[]", TF_INT32);
    t_const_i32(&t, 2, es);
    t_handle_shape(&t, 0, "[2,?]");
    t_attr_type(&t, "element_dtype", TF_FLOAT);
    expect_err(&t, "Dimension 0 in both shapes must be equal, but are 2 and 4");
  }
  t_end(&t);
  t_begin(&t, "TensorListLength");
  t_in_typed(&t, "[]", TF_VARIANT);
  expect(&t, "[]");
  t_end(&t);
}

TEST(control_flow_and_functions) {
  T t;
  if (tfe_op_lookup("Switch") != NULL) {
    t_begin(&t, "Switch");
    t_in(&t, "[2,?]");
    t_in_typed(&t, "[]", TF_BOOL);
    expect(&t, "[2,?]");
    CHECK_STR_EQ(t_out(&t, 1), "[2,?]");
    t_end(&t);
    t_begin(&t, "Switch");
    t_in(&t, "[2]");
    t_in_typed(&t, "[2]", TF_BOOL);
    expect_err(&t, "Shape must be rank 0 but is rank 1");
    t_end(&t);
    t_begin(&t, "Merge");
    t_in(&t, "[2,3]");
    t_in(&t, "[2,4]");
    expect(&t, "[2,?]");
    CHECK_STR_EQ(t_out(&t, 1), "[]");
    t_end(&t);
    t_begin(&t, "Merge");
    t_in(&t, "[2,3]");
    t_in(&t, "[2]");
    expect(&t, "?");
    t_end(&t);
    t_begin(&t, "Enter");
    t_in(&t, "[7]");
    t_attr_str(&t, "frame_name", "f");
    expect(&t, "?");
    t_end(&t);
    t_begin(&t, "Enter");
    t_in(&t, "[7]");
    t_attr_str(&t, "frame_name", "f");
    t_attr_bool(&t, "is_constant", 1);
    expect(&t, "[7]");
    t_end(&t);
    unary("Exit", "[1,2]", "[1,2]");
    unary("NextIteration", "[3]", "[3]");
    t_begin(&t, "LoopCond");
    t_in_typed(&t, "[]", TF_BOOL);
    expect(&t, "[]");
    t_end(&t);
  }
  if (tfe_op_lookup("StatelessWhile") != NULL) {
    static const TF_DataType two[2] = {TF_FLOAT, TF_INT32};
    static const char* const outs[] = {"[2,?]", "?", NULL};
    static const char* const one[] = {"[5]", NULL};
    const tfe_op_def* w = tfe_op_lookup("StatelessWhile");
    CHECK(tfe_shape_infer_known(w));
    /* Calls infer through the body (graph/function_shapes.c). */
    CHECK(tfe_shape_infer_known(tfe_op_lookup("PartitionedCall")));
    /* While: loop variables keep their shapes, or output_shapes. */
    t_begin(&t, "While");
    t_in(&t, "[3,4]");
    t_in_typed(&t, "[]", TF_INT32);
    t_attr_func(&t, "cond", "c");
    t_attr_func(&t, "body", "b");
    expect(&t, "[3,4]");
    CHECK_STR_EQ(t_out(&t, 1), "[]");
    t_end(&t);
    t_begin(&t, "StatelessWhile");
    t_in(&t, "[3,4]");
    t_in_typed(&t, "[]", TF_INT32);
    t_attr_func(&t, "cond", "c");
    t_attr_func(&t, "body", "b");
    t_attr_shapes(&t, "output_shapes", outs);
    expect(&t, "[2,?]");
    CHECK_STR_EQ(t_out(&t, 1), "?");
    t_end(&t);
    t_begin(&t, "While");
    t_in(&t, "[3,4]");
    t_in_typed(&t, "[]", TF_INT32);
    t_attr_func(&t, "cond", "c");
    t_attr_func(&t, "body", "b");
    t_attr_shapes(&t, "output_shapes", one);
    expect_err(&t, "`output_shapes` must be the same length as num outputs");
    t_end(&t);
    /* If: output_shapes when given, else unknown. */
    t_begin(&t, "If");
    t_in_typed(&t, "[]", TF_BOOL);
    t_in(&t, "[3]");
    t_attr_types(&t, "Tout", 2, two);
    t_attr_func(&t, "then_branch", "t");
    t_attr_func(&t, "else_branch", "e");
    expect(&t, "?");
    t_end(&t);
    t_begin(&t, "StatelessIf");
    t_in_typed(&t, "[]", TF_BOOL);
    t_in(&t, "[3]");
    t_attr_types(&t, "Tout", 2, two);
    t_attr_func(&t, "then_branch", "t");
    t_attr_func(&t, "else_branch", "e");
    t_attr_shapes(&t, "output_shapes", outs);
    expect(&t, "[2,?]");
    t_end(&t);
    /* _Arg: "_output_shapes" when present */
    t_begin(&t, "_Arg");
    t_attr_type(&t, "T", TF_FLOAT);
    t_attr_int(&t, "index", 0);
    expect(&t, "?");
    t_end(&t);
    t_begin(&t, "_Arg");
    t_attr_type(&t, "T", TF_FLOAT);
    t_attr_int(&t, "index", 0);
    t_attr_shapes(&t, "_output_shapes", one);
    expect(&t, "[5]");
    t_end(&t);
    t_begin(&t, "_Arg");
    t_attr_type(&t, "T", TF_RESOURCE);
    t_attr_int(&t, "index", 0);
    expect(&t, "[]");
    t_end(&t);
    t_begin(&t, "PartitionedCall");
    t_in(&t, "[3]");
    t_attr_types(&t, "Tout", 1, two);
    t_attr_func(&t, "f", "fn");
    expect(&t, "?");
    t_end(&t);
  }
}

TEST(queues) {
  T t;
  static const TF_DataType two[2] = {TF_FLOAT, TF_INT32};
  if (tfe_op_lookup("QueueDequeueManyV2") == NULL) return;
  t_begin(&t, "FIFOQueueV2");
  t_attr_types(&t, "component_types", 2, two);
  expect(&t, "[]");
  t_end(&t);
  t_begin(&t, "QueueDequeueManyV2");
  t_in_typed(&t, "[]", TF_RESOURCE);
  t_scalar_i32(&t, 3);
  t_attr_types(&t, "component_types", 2, two);
  expect(&t, "?");
  CHECK_STR_EQ(t_out(&t, 1), "?");
  t_end(&t);
  t_begin(&t, "QueueDequeueUpToV2");
  t_in_typed(&t, "[]", TF_RESOURCE);
  t_in_typed(&t, "[2]", TF_INT32);
  t_attr_types(&t, "component_types", 2, two);
  expect_err(&t, "Shape must be rank 0 but is rank 1");
  t_end(&t);
  t_begin(&t, "QueueSizeV2");
  t_in_typed(&t, "[]", TF_RESOURCE);
  expect(&t, "[]");
  t_end(&t);
}

/* TensorArray ops: registered here with TF's signatures when the build
 * does not have them yet. */
static void ensure_op(const char* name, const char* const* specs) {
  TF_Status* s;
  if (tfe_op_lookup(name) != NULL) return;
  s = TF_NewStatus();
  tfe_op_register_specs(name, specs, s);
  TF_DeleteStatus(s);
  CHECK(tfe_op_lookup(name) != NULL);
}

TEST(tensor_arrays) {
  static const char* const v3[] = {
      "in: size: int32", "out: handle: resource", "out: flow: float",
      "attr: dtype: type", "attr: element_shape: shape = { unknown_rank: true }",
      "attr: dynamic_size: bool = false", "attr: clear_after_read: bool = true",
      "attr: identical_element_shapes: bool = false",
      "attr: tensor_array_name: string = ''", "stateful", NULL};
  static const char* const write[] = {
      "in: handle: resource", "in: index: int32", "in: value: T",
      "in: flow_in: float", "out: flow_out: float", "attr: T: type", NULL};
  static const char* const read[] = {
      "in: handle: resource", "in: index: int32", "in: flow_in: float",
      "out: value: dtype", "attr: dtype: type", NULL};
  static const char* const gather[] = {
      "in: handle: resource", "in: indices: int32", "in: flow_in: float",
      "out: value: dtype", "attr: dtype: type",
      "attr: element_shape: shape = { unknown_rank: true }", NULL};
  T t;
  ensure_op("TensorArrayV3", v3);
  ensure_op("TensorArrayWriteV3", write);
  ensure_op("TensorArrayReadV3", read);
  ensure_op("TensorArrayGatherV3", gather);
  t_begin(&t, "TensorArrayV3");
  t_scalar_i32(&t, 3);
  t_attr_type(&t, "dtype", TF_FLOAT);
  expect(&t, "[2]");
  CHECK_STR_EQ(t_out(&t, 1), "[]");
  t_end(&t);
  t_begin(&t, "TensorArrayWriteV3");
  t_in_typed(&t, "[2]", TF_RESOURCE);
  t_in_typed(&t, "[]", TF_INT32);
  t_in(&t, "[4]");
  t_in(&t, "[]");
  expect(&t, "[]");
  t_end(&t);
  t_begin(&t, "TensorArrayWriteV3");
  t_in_typed(&t, "[3]", TF_RESOURCE);
  t_in_typed(&t, "[]", TF_INT32);
  t_in(&t, "[4]");
  t_in(&t, "[]");
  expect_err(&t, "Dimension must be 2 but is 3");
  t_end(&t);
  t_begin(&t, "TensorArrayReadV3");
  t_in_typed(&t, "[2]", TF_RESOURCE);
  t_in_typed(&t, "[]", TF_INT32);
  t_in(&t, "[]");
  t_handle_shape(&t, 0, "[4,?]");
  t_attr_type(&t, "dtype", TF_FLOAT);
  expect(&t, "[4,?]");
  t_end(&t);
  t_begin(&t, "TensorArrayGatherV3");
  t_in_typed(&t, "[2]", TF_RESOURCE);
  t_in_typed(&t, "[5]", TF_INT32);
  t_in(&t, "[]");
  t_attr_type(&t, "dtype", TF_FLOAT);
  t_attr_shape(&t, "element_shape", "[?,3]");
  expect(&t, "[5,?,3]");
  t_end(&t);
}

TEST(unknown_inputs_never_fail) {
  /* Every op with a rule accepts inputs of unknown rank (TF's shape
   * functions do) when its attrs are the defaults. */
  int n = tfe_op_count(), i, ran = 0;
  for (i = 0; i < n; i++) {
    const tfe_op_def* def = tfe_op_at(i);
    tfe_attrs attrs;
    tfe_shape ins[32], outs[64];
    TF_DataType types[32];
    tfe_shape_infer_args args;
    TF_Status* s = TF_NewStatus();
    int n_out = 0, k, n_in = 0, ok = 1;
    tfe_attrs_init(&attrs);
    /* Give every type attr float and every number attr 2. */
    for (k = 0; k < def->num_attrs; k++) {
      tfe_attr_value v;
      const tfe_attr_def* ad = &def->attrs[k];
      if (ad->has_default) continue;
      if (ad->type == TF_ATTR_TYPE && !ad->is_list) {
        tfe_attr_value_set_type(&v, TF_FLOAT);
      } else if (ad->type == TF_ATTR_INT && !ad->is_list) {
        tfe_attr_value_set_int(&v, 2);
      } else if (ad->type == TF_ATTR_TYPE && ad->is_list) {
        TF_DataType two[2] = {TF_FLOAT, TF_FLOAT};
        CHECK(tfe_attr_value_set_type_list(&v, two, 2));
      } else {
        continue;
      }
      CHECK(tfe_attrs_put(&attrs, ad->name, &v));
    }
    if (!tfe_op_def_complete_attrs(def, &attrs, s) ||
        !tfe_op_def_output_types(def, &attrs, NULL, 0, &n_out, s) ||
        n_out > 64) {
      ok = 0;
    }
    for (k = 0; ok && k < def->num_inputs; k++) {
      int len = 0;
      if (!tfe_op_def_arg_length(def, &def->inputs[k], &attrs, &len, s)) {
        ok = 0;
      }
      n_in += len;
    }
    if (ok && n_in <= 32) {
      for (k = 0; k < n_in; k++) {
        ins[k].num_dims = -1;
        ins[k].dims = NULL;
        types[k] = TF_FLOAT;
      }
      memset(&args, 0, sizeof args);
      args.def = def;
      args.attrs = &attrs;
      args.num_inputs = n_in;
      args.input_shapes = ins;
      args.input_types = types;
      args.num_outputs = n_out;
      if (!tfe_shape_infer(&args, "n", outs, s)) {
        /* Attrs with placeholder values may be invalid for the op; only
         * a few ops validate attrs that way. */
        CHECK(TF_GetCode(s) == TF_INVALID_ARGUMENT);
      } else {
        ran++;
      }
      for (k = 0; k < n_out; k++) tfe_free(outs[k].dims);
    }
    tfe_attrs_destroy(&attrs);
    TF_DeleteStatus(s);
  }
  CHECK(ran > 200);
}

/* ---- randomized robustness: every op, random shapes and constants ---- */

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return (uint32_t)(g_rng % n);
}

/* Fills attrs without a default with plausible values; 0 when the op
 * cannot be set up this way. */
static int fill_attrs(const tfe_op_def* def, tfe_attrs* attrs) {
  int k;
  for (k = 0; k < def->num_attrs; k++) {
    const tfe_attr_def* ad = &def->attrs[k];
    tfe_attr_value v;
    if (ad->has_default && rnd(4) != 0) continue;
    memset(&v, 0, sizeof v);
    if (ad->has_allowed && ad->allowed.list_size > 0) {
      int pick = (int)rnd((uint32_t)ad->allowed.list_size);
      if (ad->type == TF_ATTR_TYPE && !ad->is_list) {
        tfe_attr_value_set_type(&v, ad->allowed.list.type[pick]);
      } else if (ad->type == TF_ATTR_TYPE) {
        TF_DataType ts[2] = {ad->allowed.list.type[pick],
                             ad->allowed.list.type[pick]};
        CHECK(tfe_attr_value_set_type_list(&v, ts, 2));
      } else if (ad->type == TF_ATTR_STRING && !ad->is_list) {
        CHECK(tfe_attr_value_set_string(&v, ad->allowed.list.s.data[pick],
                                        ad->allowed.list.s.len[pick]));
      } else {
        continue;
      }
    } else {
      switch (ad->type) {
        case TF_ATTR_TYPE:
          if (ad->is_list) {
            TF_DataType ts[2] = {TF_FLOAT, TF_INT32};
            CHECK(tfe_attr_value_set_type_list(&v, ts, 2));
          } else {
            tfe_attr_value_set_type(&v, rnd(2) ? TF_FLOAT : TF_INT32);
          }
          break;
        case TF_ATTR_INT:
          if (ad->is_list) {
            static const int64_t big[4] = {INT64_MAX, INT64_MIN, -5,
                                           (int64_t)1 << 62};
            int64_t xs[8] = {1, 1 + rnd(3), 1 + rnd(3), 1, 1, 0, 1, 1};
            if (rnd(8) == 0) xs[rnd(8)] = big[rnd(4)];
            CHECK(tfe_attr_value_set_int_list(&v, xs, rnd(3) ? 4 : 8));
          } else {
            static const int64_t big[4] = {INT64_MAX, INT64_MIN, -5,
                                           (int64_t)1 << 62};
            int64_t x = rnd(10) == 0 ? big[rnd(4)] : (int64_t)rnd(4) - 1;
            if (ad->has_minimum && x < ad->minimum) x = ad->minimum;
            tfe_attr_value_set_int(&v, x);
          }
          break;
        case TF_ATTR_BOOL:
          if (ad->is_list) continue;
          tfe_attr_value_set_bool(&v, (unsigned char)rnd(2));
          break;
        case TF_ATTR_FLOAT:
          if (ad->is_list) continue;
          tfe_attr_value_set_float(&v, 0.5f);
          break;
        case TF_ATTR_STRING:
          if (ad->is_list) continue;
          CHECK(tfe_attr_value_set_string(&v, "ij,jk->ik", 9));
          break;
        case TF_ATTR_SHAPE:
          if (ad->is_list) {
            int64_t d[2] = {2, -1};
            const int64_t* ds[2] = {d, d};
            int nd[2] = {2, -1};
            CHECK(tfe_attr_value_set_shape_list(&v, ds, nd, 1 + rnd(2)));
          } else {
            int64_t d[2] = {2, -1};
            CHECK(tfe_attr_value_set_shape(&v, d, (int)rnd(4) - 1 > 1
                                                     ? 2
                                                     : (int)rnd(3) - 1));
          }
          break;
        case TF_ATTR_TENSOR: {
          int64_t d[2] = {2, 3};
          TF_Tensor* x;
          if (ad->is_list) continue;
          x = TF_AllocateTensor(TF_FLOAT, d, (int)rnd(3), 24);
          CHECK(x != NULL);
          memset(TF_TensorData(x), 0, 24);
          CHECK(tfe_attr_value_set_tensor(&v, x));
          TF_DeleteTensor(x);
          break;
        }
        case TF_ATTR_FUNC:
          if (ad->is_list) continue;
          CHECK(tfe_attr_value_set_func(&v, "f", 1));
          break;
        default:
          continue;
      }
    }
    CHECK(tfe_attrs_put(attrs, ad->name, &v));
  }
  return 1;
}

static void random_shape(tfe_shape* sh, int64_t* dims) {
  static const int64_t choices[6] = {-1, 0, 1, 2, 3, 4};
  int r = (int)rnd(7) - 1, i;
  sh->num_dims = r;
  sh->dims = r > 0 ? dims : NULL;
  for (i = 0; i < r; i++) dims[i] = choices[rnd(6)];
}

TEST(random_inputs_never_crash) {
  int n = tfe_op_count(), i, round, calls = 0, oks = 0, rounds = 60;
  /* TFE_SHAPE_FUZZ_ROUNDS / TFE_SHAPE_FUZZ_SEED run longer or other cases. */
  if (getenv("TFE_SHAPE_FUZZ_ROUNDS") != NULL) {
    rounds = atoi(getenv("TFE_SHAPE_FUZZ_ROUNDS"));
  }
  if (getenv("TFE_SHAPE_FUZZ_SEED") != NULL) {
    g_rng = strtoull(getenv("TFE_SHAPE_FUZZ_SEED"), NULL, 10) | 1;
  }
  for (round = 0; round < rounds; round++) {
    for (i = 0; i < n; i++) {
      const tfe_op_def* def = tfe_op_at(i);
      tfe_attrs attrs;
      tfe_shape ins[24], outs[64], as[24];
      int64_t dims[24][8], as_dims[24][8];
      TF_DataType types[24];
      TF_Tensor* vals[24];
      tfe_shape_infer_args args;
      TF_Status* s = TF_NewStatus();
      int n_out = 0, k, n_in = 0, ok = 1;
      if (def->shape_fn != NULL) {
        TF_DeleteStatus(s);
        continue;
      }
      tfe_attrs_init(&attrs);
      fill_attrs(def, &attrs);
      if (!tfe_op_def_complete_attrs(def, &attrs, s) ||
          !tfe_op_def_output_types(def, &attrs, NULL, 0, &n_out, s) ||
          n_out > 64) {
        ok = 0;
      }
      for (k = 0; ok && k < def->num_inputs; k++) {
        int len = 0, j;
        if (!tfe_op_def_arg_length(def, &def->inputs[k], &attrs, &len, s) ||
            n_in + len > 24) {
          ok = 0;
          break;
        }
        for (j = 0; j < len; j++) {
          if (!tfe_op_def_arg_dtype(def, &def->inputs[k], &attrs, j,
                                    &types[n_in + j], s)) {
            ok = 0;
          }
        }
        n_in += len;
      }
      if (!ok) {
        tfe_attrs_destroy(&attrs);
        TF_DeleteStatus(s);
        continue;
      }
      for (k = 0; k < n_in; k++) {
        random_shape(&ins[k], dims[k]);
        vals[k] = NULL;
        as[k].num_dims = -1;
        as[k].dims = NULL;
        if ((types[k] == TF_INT32 || types[k] == TF_INT64) && rnd(3) != 0 &&
            ins[k].num_dims >= 0 && ins[k].num_dims <= 2) {
          /* a constant of that shape (unknown dims become 2) */
          int64_t cd[2], cnt = 1, e;
          int r;
          size_t es = types[k] == TF_INT32 ? 4 : 8;
          TF_Tensor* x;
          for (r = 0; r < ins[k].num_dims; r++) {
            if (dims[k][r] < 0) dims[k][r] = 2;
            cd[r] = dims[k][r];
            cnt *= cd[r];
          }
          x = TF_AllocateTensor(types[k], cd, ins[k].num_dims,
                                (size_t)cnt * es);
          CHECK(x != NULL);
          for (e = 0; e < cnt; e++) {
            static const int64_t extremes[5] = {
                INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, (int64_t)1 << 40};
            int64_t v = rnd(12) == 0 ? extremes[rnd(5)] : (int64_t)rnd(9) - 3;
            if (es == 4) {
              ((int32_t*)TF_TensorData(x))[e] = (int32_t)v;
            } else {
              ((int64_t*)TF_TensorData(x))[e] = v;
            }
          }
          vals[k] = x;
        } else if ((types[k] == TF_INT32 || types[k] == TF_INT64) &&
                   rnd(2) == 0) {
          random_shape(&as[k], as_dims[k]);
        }
      }
      memset(&args, 0, sizeof args);
      args.def = def;
      args.attrs = &attrs;
      args.num_inputs = n_in;
      args.input_shapes = ins;
      args.input_types = types;
      args.input_values = vals;
      args.input_as_shapes = as;
      args.input_handle_shapes = rnd(2) ? as : NULL;
      args.num_outputs = n_out;
      calls++;
      if (tfe_shape_infer(&args, "n", outs, s)) {
        oks++;
        for (k = 0; k < n_out; k++) {
          int d;
          CHECK(outs[k].num_dims >= -1);
          for (d = 0; d < outs[k].num_dims; d++) CHECK(outs[k].dims[d] >= -1);
        }
      } else {
        if (TF_GetCode(s) != TF_INVALID_ARGUMENT) {
          TFE_FAIL("%s: code %d: %s", def->name, (int)TF_GetCode(s),
                   TF_Message(s));
        }
        for (k = 0; k < n_out; k++) CHECK_EQ_INT(outs[k].num_dims, -1);
      }
      for (k = 0; k < n_out; k++) tfe_free(outs[k].dims);
      for (k = 0; k < n_in; k++) {
        if (vals[k] != NULL) TF_DeleteTensor(vals[k]);
      }
      tfe_attrs_destroy(&attrs);
      TF_DeleteStatus(s);
    }
  }
  fprintf(stderr, "%d random calls, %d succeeded\n", calls, oks);
  CHECK(rounds < 60 || calls > 10000);
  CHECK(oks > calls / 10);
}

/* Ops that deliberately have no specific rule: their outputs depend on
 * runtime state (variables, queues, function bodies). */
static const char* const kKnownUnknown[] = {
    "PartitionedCall",
    "StatefulPartitionedCall", "QueueDequeueV2", "QueueDequeue",
    "QueueDequeueMany", "QueueDequeueUpTo", NULL};

TEST(every_registered_op_has_a_rule_entry) {
  int n = tfe_op_count(), i, missing = 0;
  tfe_ops_ensure_builtins();
  n = tfe_op_count();
  CHECK(n > 300);
  for (i = 0; i < n; i++) {
    const tfe_op_def* def = tfe_op_at(i);
    const si_rule* r = si_find_rule(def->name);
    /* A hand-written definition needs a hand-written entry: the generated
     * table's generic rules are for the generated definitions. */
    int generic = r != NULL && r >= si_rules_generated &&
                  r < si_rules_generated + tfe_gen_op_count;
    if (generic && !tfe_op_is_generated(def->name) && def->shape_fn == NULL) {
      fprintf(stderr, "hand-written op without its own shape rule entry: %s\n",
              def->name);
      missing++;
    } else if (r == NULL && def->shape_fn == NULL) {
      fprintf(stderr, "op without a shape rule entry: %s\n", def->name);
      missing++;
    } else if (r != NULL && r->fn == NULL) {
      int k, listed = 0;
      for (k = 0; kKnownUnknown[k] != NULL; k++) {
        if (strcmp(kKnownUnknown[k], def->name) == 0) listed = 1;
      }
      if (!listed) {
        fprintf(stderr, "op with an unlisted 'unknown' entry: %s\n",
                def->name);
        missing++;
      }
    }
  }
  CHECK_EQ_INT(missing, 0);
}

/* ---- plugin ops ---- */

static void plugin_shape_fn(TF_ShapeInferenceContext* ctx, TF_Status* s) {
  TF_ShapeHandle* in = TF_NewShapeHandle();
  TF_ShapeHandle* m = TF_NewShapeHandle();
  TF_ShapeInferenceContextGetInput(ctx, 0, in, s);
  if (TF_GetCode(s) == TF_OK) {
    TF_ShapeInferenceContextWithRank(ctx, in, 2, m, s);
  }
  if (TF_GetCode(s) == TF_OK) {
    TF_ShapeHandle* v = TF_ShapeInferenceContextVectorFromSize(ctx, 7);
    TF_ShapeInferenceContextSetOutput(ctx, 0, m, s);
    if (TF_GetCode(s) == TF_OK) TF_ShapeInferenceContextSetOutput(ctx, 1, v, s);
    TF_DeleteShapeHandle(v);
  }
  TF_DeleteShapeHandle(in);
  TF_DeleteShapeHandle(m);
}

static void register_plugin_op(void) {
  static int done = 0;
  TF_Status* s;
  TF_OpDefinitionBuilder* b;
  if (done) return;
  done = 1;
  s = TF_NewStatus();
  b = TF_NewOpDefinitionBuilder("ShapeInferTestPluginOp");
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_OpDefinitionBuilderAddOutput(b, "z: float");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(b, plugin_shape_fn);
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

TEST(plugin_shape_function_runs) {
  T t;
  register_plugin_op();
  t_begin(&t, "ShapeInferTestPluginOp");
  CHECK(tfe_shape_infer_known(t.def));
  t_in(&t, "[?,3]");
  expect(&t, "[?,3]");
  CHECK_STR_EQ(t_out(&t, 1), "[7]");
  t_end(&t);
  t_begin(&t, "ShapeInferTestPluginOp");
  t_in(&t, "?");
  expect(&t, "[?,?]");
  t_end(&t);
  t_begin(&t, "ShapeInferTestPluginOp");
  t_in(&t, "[3]");
  expect_err(&t, "Shape must be rank 2 but is rank 1 for '{{node n}} = "
                 "ShapeInferTestPluginOp[](x)' with input shapes: [3].");
  t_end(&t);
}

TEST(infer_shapes_c_api) {
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  TFE_Op* op;
  TF_ShapeAndTypeList* in = TF_NewShapeAndTypeList(2);
  TF_ShapeAndTypeList* out = NULL;
  TF_ShapeAndTypeList** out_res = NULL;
  int64_t a[2] = {-1, 3}, b[2] = {3, 2};
  CHECK_CODE(s, TF_OK);
  op = TFE_NewOp(ctx, "MatMul", s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrType(op, "T", TF_FLOAT);
  TF_ShapeAndTypeListSetShape(in, 0, a, 2);
  TF_ShapeAndTypeListSetShape(in, 1, b, 2);
  TFE_InferShapes(op, in, NULL, NULL, NULL, &out, &out_res, s);
  CHECK_CODE(s, TF_OK);
  CHECK(out != NULL);
  CHECK_EQ_INT(out->num_items, 1);
  CHECK_EQ_INT(out->items[0].num_dims, 2);
  CHECK_EQ_INT(out->items[0].dims[0], -1);
  CHECK_EQ_INT(out->items[0].dims[1], 2);
  CHECK(out_res != NULL);
  CHECK(out_res[0] == NULL);
  TF_DeleteShapeAndTypeList(out);
  TF_DeleteShapeAndTypeListArray(out_res, 1);
  /* incompatible shapes */
  b[0] = 4;
  TF_ShapeAndTypeListSetShape(in, 1, b, 2);
  out = NULL;
  TFE_InferShapes(op, in, NULL, NULL, NULL, &out, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Dimensions must be equal, but are 3 "
                                    "and 4");
  CHECK(out == NULL);
  /* a resource input's value shape (handle data) */
  {
    TFE_Op* rd = TFE_NewOp(ctx, "ReadVariableOp", s);
    TF_ShapeAndTypeList* one = TF_NewShapeAndTypeList(1);
    TF_ShapeAndTypeList* res = TF_NewShapeAndTypeList(1);
    TF_ShapeAndTypeList* res_arr[1];
    int64_t vs[3] = {4, -1, 2};
    CHECK_CODE(s, TF_OK);
    TFE_OpSetAttrType(rd, "dtype", TF_FLOAT);
    TF_ShapeAndTypeListSetShape(one, 0, NULL, 0);
    TF_ShapeAndTypeListSetShape(res, 0, vs, 3);
    res_arr[0] = res;
    out = NULL;
    TFE_InferShapes(rd, one, NULL, NULL, res_arr, &out, NULL, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(out->items[0].num_dims, 3);
    CHECK_EQ_INT(out->items[0].dims[0], 4);
    CHECK_EQ_INT(out->items[0].dims[1], -1);
    CHECK_EQ_INT(out->items[0].dtype, TF_FLOAT);
    TF_DeleteShapeAndTypeList(out);
    TF_DeleteShapeAndTypeList(one);
    TF_DeleteShapeAndTypeList(res);
    TFE_DeleteOp(rd);
  }
  /* wrong number of input shapes */
  TF_DeleteShapeAndTypeList(in);
  in = TF_NewShapeAndTypeList(1);
  TF_ShapeAndTypeListSetShape(in, 0, a, 2);
  TFE_InferShapes(op, in, NULL, NULL, NULL, &out, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_InferShapes(NULL, in, NULL, NULL, NULL, &out, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteShapeAndTypeList(in);
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TFE_DeleteContextOptions(o);
  TF_DeleteStatus(s);
}

/* ---- through the graph API (TF_FinishOperation runs the rules) ---- */

static TF_Operation* g_placeholder(TF_Graph* g, const char* name,
                                   const int64_t* dims, int nd,
                                   TF_Status* s) {
  TF_OperationDescription* d = TF_NewOperation(g, "Placeholder", name);
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  TF_SetAttrShape(d, "shape", dims, nd);
  return TF_FinishOperation(d, s);
}

static TF_Operation* g_const_i32(TF_Graph* g, const char* name,
                                 const int32_t* v, int64_t n, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, &n, 1, (size_t)n * 4);
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_Operation* op;
  memcpy(TF_TensorData(t), v, (size_t)n * 4);
  TF_SetAttrTensor(d, "value", t, s);
  TF_SetAttrType(d, "dtype", TF_INT32);
  op = TF_FinishOperation(d, s);
  TF_DeleteTensor(t);
  return op;
}

static void graph_shape(TF_Graph* g, TF_Operation* op, int i, char* buf) {
  TF_Status* s = TF_NewStatus();
  TF_Output o = {op, i};
  int64_t dims[8];
  int n = TF_GraphGetTensorNumDims(g, o, s), k;
  size_t len = 0;
  CHECK_CODE(s, TF_OK);
  if (n < 0) {
    strcpy(buf, "?");
    TF_DeleteStatus(s);
    return;
  }
  TF_GraphGetTensorShape(g, o, dims, n, s);
  CHECK_CODE(s, TF_OK);
  buf[len++] = '[';
  for (k = 0; k < n; k++) {
    if (k > 0) buf[len++] = ',';
    len += (size_t)(dims[k] < 0 ? sprintf(buf + len, "?")
                                : sprintf(buf + len, "%lld",
                                          (long long)dims[k]));
  }
  buf[len++] = ']';
  buf[len] = '\0';
  TF_DeleteStatus(s);
}

TEST(graph_api_uses_the_rules) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  int64_t xd[2] = {-1, 6}, wd[2] = {2, 2};
  int32_t shp[3] = {-1, 2, 3}, perm[3] = {2, 0, 1};
  char buf[64];
  TF_Operation *x, *w, *shape_c, *r, *perm_c, *tr, *mm;
  TF_OperationDescription* d;
  x = g_placeholder(g, "x", xd, 2, s);
  CHECK_CODE(s, TF_OK);
  w = g_placeholder(g, "w", wd, 2, s);
  CHECK_CODE(s, TF_OK);
  shape_c = g_const_i32(g, "shape", shp, 3, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "Reshape", "r");
  TF_AddInput(d, (TF_Output){x, 0});
  TF_AddInput(d, (TF_Output){shape_c, 0});
  r = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  graph_shape(g, r, 0, buf);
  CHECK_STR_EQ(buf, "[?,2,3]");
  perm_c = g_const_i32(g, "perm", perm, 3, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "Transpose", "tr");
  TF_AddInput(d, (TF_Output){r, 0});
  TF_AddInput(d, (TF_Output){perm_c, 0});
  tr = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  graph_shape(g, tr, 0, buf);
  CHECK_STR_EQ(buf, "[3,?,2]");
  /* incompatible static shapes fail at TF_FinishOperation */
  d = TF_NewOperation(g, "MatMul", "mm");
  TF_AddInput(d, (TF_Output){x, 0});
  TF_AddInput(d, (TF_Output){w, 0});
  mm = TF_FinishOperation(d, s);
  CHECK(mm == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Dimensions must be equal, but are 6 and 2 for '{{node "
                     "mm}} = MatMul[T=DT_FLOAT, grad_a=false, grad_b=false, "
                     "transpose_a=false, transpose_b=false]");
  CHECK_STR_CONTAINS(TF_Message(s), "' with input shapes: [?,6], [2,2].");
  CHECK(TF_GraphOperationByName(g, "mm") == NULL);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* Runs the prepared call with every allocation failing in turn: each run
 * either ends as a clean run would or with RESOURCE_EXHAUSTED (or, for a
 * failing case, INVALID_ARGUMENT with at least the base message), and
 * nothing leaks (ASan). */
static void sweep(T* t, int want_ok, const char* part) {
  tfe_shape_infer_args args;
  int n, i, done = 0;
  memset(&args, 0, sizeof args);
  CHECK(t_run(t) == want_ok); /* completes the attrs, counts outputs */
  for (i = 0; i < t->n_out; i++) {
    tfe_free(t->out[i].dims);
    t->out[i].dims = NULL;
  }
  args.def = t->def;
  args.attrs = &t->attrs;
  args.num_inputs = t->n_in;
  args.input_shapes = t->in;
  args.input_types = t->types;
  args.input_values = t->vals;
  args.num_outputs = t->n_out;
  args.input_names = t->names;
  for (n = 0; n < 200 && !done; n++) {
    int ok;
    TFE_TestFailAllocationsAfter(n);
    ok = tfe_shape_infer(&args, "n", t->out, t->s);
    TFE_TestFailAllocationsAfter(-1);
    if (ok) {
      CHECK(want_ok);
      done = 1;
    } else if (TF_GetCode(t->s) == TF_RESOURCE_EXHAUSTED) {
      for (i = 0; i < t->n_out; i++) CHECK_EQ_INT(t->out[i].num_dims, -1);
    } else {
      if (want_ok) {
        TFE_FAIL("%s after %d allocations: %s", t->def->name, n,
                 TF_Message(t->s));
      }
      CHECK_CODE(t->s, TF_INVALID_ARGUMENT);
      /* (the message itself may be what could not be allocated) */
      if (TF_Message(t->s)[0] != '\0') {
        CHECK_STR_CONTAINS(TF_Message(t->s), part);
      }
      if (strstr(TF_Message(t->s), "with input shapes") != NULL) done = 1;
    }
    for (i = 0; i < t->n_out; i++) {
      tfe_free(t->out[i].dims);
      t->out[i].dims = NULL;
    }
  }
  CHECK(done);
}

TEST(allocation_failures) {
  T t;
  t_begin(&t, "AddV2");
  t_in(&t, "[?,3]");
  t_in(&t, "[3]");
  sweep(&t, 1, "");
  t_end(&t);
  t_begin(&t, "MatMul");
  t_in(&t, "[?,3]");
  t_in(&t, "[2,2]");
  sweep(&t, 0, "Dimensions must be equal, but are 3 and 2");
  t_end(&t);
  t_begin(&t, "Unpack");
  t_in(&t, "[2,3,4]");
  t_attr_int(&t, "num", 3);
  t_attr_int(&t, "axis", 1);
  sweep(&t, 1, "");
  t_end(&t);
  register_plugin_op();
  t_begin(&t, "ShapeInferTestPluginOp");
  t_in(&t, "[?,3]");
  sweep(&t, 1, "");
  t_end(&t);
  t_begin(&t, "ShapeInferTestPluginOp");
  t_in(&t, "[3]");
  sweep(&t, 0, "Shape must be rank 2 but is rank 1");
  t_end(&t);
  {
    /* TFE_InferShapes */
    TF_Status* s = TF_NewStatus();
    TFE_ContextOptions* o = TFE_NewContextOptions();
    TFE_Context* ctx = TFE_NewContext(o, s);
    TFE_Op* op = TFE_NewOp(ctx, "MatMul", s);
    TF_ShapeAndTypeList* in = TF_NewShapeAndTypeList(2);
    int64_t a[2] = {-1, 3}, b[2] = {3, 2};
    int n, done = 0;
    CHECK_CODE(s, TF_OK);
    TFE_OpSetAttrType(op, "T", TF_FLOAT);
    TF_ShapeAndTypeListSetShape(in, 0, a, 2);
    TF_ShapeAndTypeListSetShape(in, 1, b, 2);
    for (n = 0; n < 200 && !done; n++) {
      TF_ShapeAndTypeList* out = NULL;
      TF_ShapeAndTypeList** res = NULL;
      TFE_TestFailAllocationsAfter(n);
      TFE_InferShapes(op, in, NULL, NULL, NULL, &out, &res, s);
      TFE_TestFailAllocationsAfter(-1);
      if (TF_GetCode(s) == TF_OK) {
        CHECK(out != NULL && out->items[0].num_dims == 2);
        done = 1;
      } else {
        CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
        CHECK(out == NULL && res == NULL);
      }
      TF_DeleteShapeAndTypeList(out);
      TF_DeleteShapeAndTypeListArray(res, 1);
    }
    CHECK(done);
    TF_DeleteShapeAndTypeList(in);
    TFE_DeleteOp(op);
    TFE_DeleteContext(ctx);
    TFE_DeleteContextOptions(o);
    TF_DeleteStatus(s);
  }
}

TEST(only_registered_definitions_get_rules) {
  /* A definition outside the registry (e.g. a function signature) with a
   * rule's name gets no rule. */
  tfe_op_def* def = tfe_op_def_new("MatMul");
  TF_Status* s = TF_NewStatus();
  tfe_shape ins[2], outs[1];
  int64_t a[2] = {2, 3}, b[2] = {5, 5};
  tfe_shape_infer_args args;
  CHECK(def != NULL);
  CHECK(tfe_op_def_add_input(def, "a: float", s));
  CHECK(tfe_op_def_add_input(def, "b: float", s));
  CHECK(tfe_op_def_add_output(def, "c: float", s));
  CHECK(!tfe_shape_infer_known(def));
  ins[0].num_dims = 2;
  ins[0].dims = a;
  ins[1].num_dims = 2;
  ins[1].dims = b;
  memset(&args, 0, sizeof args);
  args.def = def;
  args.num_inputs = 2;
  args.input_shapes = ins;
  args.num_outputs = 1;
  CHECK(tfe_shape_infer(&args, "f", outs, s));
  CHECK_EQ_INT(outs[0].num_dims, -1);
  CHECK(tfe_shape_infer_known(tfe_op_lookup("MatMul")));
  tfe_op_def_free(def);
  TF_DeleteStatus(s);
}

TEST(bad_arguments_and_large_ranks) {
  TF_Status* s = TF_NewStatus();
  tfe_shape out[1];
  tfe_shape_infer_args args;
  tfe_shape big;
  int64_t dims[300];
  int i;
  T t;
  CHECK(!tfe_shape_infer(NULL, "n", out, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  memset(&args, 0, sizeof args);
  CHECK(!tfe_shape_infer(&args, "n", out, s));
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(!tfe_shape_infer_known(NULL));
  TF_DeleteStatus(s);
  /* A rank beyond TF's limit gives unknown outputs, not a failure. */
  for (i = 0; i < 300; i++) dims[i] = 1;
  big.num_dims = 300;
  big.dims = dims;
  t_begin(&t, "Neg");
  t.in[0] = big;
  t.types[0] = TF_FLOAT;
  t.as_shapes[0].num_dims = -1;
  t.n_in = 1;
  expect(&t, "?");
  t_end(&t);
}

TEST(fast_enough_for_large_graphs) {
  /* 100,000 inferences of a broadcasting add: the common path allocates
   * only the output dims. */
  T t;
  int i;
  clock_t start;
  double secs;
  t_begin(&t, "AddV2");
  t_in(&t, "[?,3]");
  t_in(&t, "[3]");
  CHECK(t_run(&t));
  start = clock();
  for (i = 0; i < 100000; i++) {
    tfe_free(t.out[0].dims);
    t.out[0].dims = NULL;
    CHECK(t_run(&t));
  }
  secs = (double)(clock() - start) / CLOCKS_PER_SEC;
  CHECK_STR_EQ(t_out(&t, 0), "[?,3]");
  fprintf(stderr, "100000 inferences: %.3f s\n", secs);
  CHECK(secs < 5.0);
  t_end(&t);
}

TFE_TEST_MAIN
