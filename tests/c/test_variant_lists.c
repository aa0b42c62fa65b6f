/* DT_VARIANT tensors end to end through TFE_Execute: the TensorList and
 * Optional ops, AddN / ZerosLike of variants with the built-in CPU kernels,
 * TensorFlow's error codes and messages for common misuse, variant
 * buffers released, and a kernel library (tests/plugins/variant_kernels.c)
 * whose AddN / ZerosLike kernels go through TF_AddNVariant /
 * TF_ZerosLikeVariant. Expected values and messages were checked against
 * TensorFlow 2.21. */
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "eager_test_util.h"
#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tfe_test.h"

#define VARIANT_PLUGIN TFE_TEST_PLUGIN_DIR "/variant_kernels.so"

/* ---- small builders ---- */

static TFE_TensorHandle* f32_handle(const float* v, const int64_t* dims,
                                    int nd, TF_Status* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return make_handle(TF_FLOAT, dims, nd, v, (size_t)n * sizeof(float), s);
}

static TFE_TensorHandle* i32_vec(const int32_t* v, int64_t n, TF_Status* s) {
  return make_handle(TF_INT32, &n, 1, v, (size_t)n * sizeof(int32_t), s);
}

/* The unknown shape (-1 scalar). */
static TFE_TensorHandle* unknown_shape(TF_Status* s) {
  return scalar_i32(-1, s);
}

static TFE_Op* new_op(TFE_Context* ctx, const char* name, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  return op;
}

static void add_in(TFE_Op* op, TFE_TensorHandle* h, TF_Status* s) {
  TFE_OpAddInput(op, h, s);
  CHECK_CODE(s, TF_OK);
}

/* Executes and deletes op; returns output 0 (others into rest) or NULL
 * with s holding the error. */
static TFE_TensorHandle* run(TFE_Op* op, int nout, TFE_TensorHandle** rest,
                             TF_Status* s) {
  TFE_TensorHandle* out[4] = {NULL, NULL, NULL, NULL};
  int n = nout, i;
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  if (TF_GetCode(s) != TF_OK) return NULL;
  CHECK_EQ_INT(n, nout);
  for (i = 1; i < nout; i++) rest[i - 1] = out[i];
  return out[0];
}

/* TensorListFromTensor(values [rows, cols]) with element_shape [-1]. */
static TFE_TensorHandle* list_from(TFE_Context* ctx, const float* v,
                                   int64_t rows, int64_t cols, TF_Status* s) {
  int64_t dims[2];
  int32_t es = -1;
  TFE_TensorHandle *t, *shape, *l;
  TFE_Op* op = new_op(ctx, "TensorListFromTensor", s);
  dims[0] = rows;
  dims[1] = cols;
  t = f32_handle(v, dims, 2, s);
  shape = i32_vec(&es, 1, s);
  add_in(op, t, s);
  add_in(op, shape, s);
  l = run(op, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(t);
  TFE_DeleteTensorHandle(shape);
  return l;
}

/* TensorListReserve(element_shape, n) of floats. */
static TFE_TensorHandle* reserve(TFE_Context* ctx, const int32_t* shape,
                                 int rank, int32_t n, TF_Status* s) {
  TFE_TensorHandle *sh, *num, *l;
  TFE_Op* op = new_op(ctx, "TensorListReserve", s);
  sh = rank < 0 ? unknown_shape(s) : i32_vec(shape, rank, s);
  num = scalar_i32(n, s);
  add_in(op, sh, s);
  add_in(op, num, s);
  TFE_OpSetAttrType(op, "element_dtype", TF_FLOAT);
  l = run(op, 1, NULL, s);
  TFE_DeleteTensorHandle(sh);
  TFE_DeleteTensorHandle(num);
  return l;
}

static TFE_TensorHandle* empty_list(TFE_Context* ctx, int32_t max_n,
                                    TF_Status* s) {
  TFE_TensorHandle *sh = unknown_shape(s), *mx = scalar_i32(max_n, s), *l;
  TFE_Op* op = new_op(ctx, "EmptyTensorList", s);
  add_in(op, sh, s);
  add_in(op, mx, s);
  TFE_OpSetAttrType(op, "element_dtype", TF_FLOAT);
  l = run(op, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(sh);
  TFE_DeleteTensorHandle(mx);
  return l;
}

/* TensorListStack with element_shape -1 (or the given vector). */
static TFE_TensorHandle* stack(TFE_Context* ctx, TFE_TensorHandle* l,
                               TF_DataType dt, TF_Status* s) {
  TFE_TensorHandle *sh = unknown_shape(s), *r;
  TFE_Op* op = new_op(ctx, "TensorListStack", s);
  add_in(op, l, s);
  add_in(op, sh, s);
  TFE_OpSetAttrType(op, "element_dtype", dt);
  r = run(op, 1, NULL, s);
  TFE_DeleteTensorHandle(sh);
  return r;
}

static TFE_TensorHandle* get_item(TFE_Context* ctx, TFE_TensorHandle* l,
                                  int32_t i, TF_DataType dt, TF_Status* s) {
  TFE_TensorHandle *ix = scalar_i32(i, s), *sh = unknown_shape(s), *r;
  TFE_Op* op = new_op(ctx, "TensorListGetItem", s);
  add_in(op, l, s);
  add_in(op, ix, s);
  add_in(op, sh, s);
  TFE_OpSetAttrType(op, "element_dtype", dt);
  r = run(op, 1, NULL, s);
  TFE_DeleteTensorHandle(ix);
  TFE_DeleteTensorHandle(sh);
  return r;
}

static TFE_TensorHandle* set_item(TFE_Context* ctx, TFE_TensorHandle* l,
                                  int32_t i, TFE_TensorHandle* item,
                                  TF_Status* s) {
  TFE_TensorHandle *ix = scalar_i32(i, s), *r;
  TFE_Op* op = new_op(ctx, "TensorListSetItem", s);
  add_in(op, l, s);
  add_in(op, ix, s);
  add_in(op, item, s);
  r = run(op, 1, NULL, s);
  TFE_DeleteTensorHandle(ix);
  return r;
}

static TFE_TensorHandle* push_back(TFE_Context* ctx, TFE_TensorHandle* l,
                                   TFE_TensorHandle* item, TF_Status* s) {
  TFE_Op* op = new_op(ctx, "TensorListPushBack", s);
  add_in(op, l, s);
  add_in(op, item, s);
  return run(op, 1, NULL, s);
}

static int32_t length(TFE_Context* ctx, TFE_TensorHandle* l, TF_Status* s) {
  TFE_Op* op = new_op(ctx, "TensorListLength", s);
  TFE_TensorHandle* r;
  int32_t n;
  add_in(op, l, s);
  r = run(op, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  n = read_i32(r, s);
  TFE_DeleteTensorHandle(r);
  return n;
}

/* Variadic ops (AddN) over n handles. */
static TFE_TensorHandle* add_n(TFE_Context* ctx, TFE_TensorHandle** in,
                               int n, TF_Status* s) {
  TFE_Op* op = new_op(ctx, "AddN", s);
  TFE_OpAddInputList(op, in, n, s);
  CHECK_CODE(s, TF_OK);
  return run(op, 1, NULL, s);
}

static TFE_TensorHandle* zeros_like(TFE_Context* ctx, TFE_TensorHandle* x,
                                    TF_Status* s) {
  TFE_Op* op = new_op(ctx, "ZerosLike", s);
  add_in(op, x, s);
  return run(op, 1, NULL, s);
}

/* Copies the float contents of h into v (n values) and checks its dims. */
static void read_floats(TFE_TensorHandle* h, float* v, int64_t n,
                        const int64_t* dims, int nd, TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  int i;
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(t), TF_FLOAT);
  CHECK_EQ_INT(TF_NumDims(t), nd);
  for (i = 0; i < nd; i++) CHECK_EQ_INT(TF_Dim(t, i), dims[i]);
  CHECK_EQ_INT(TF_TensorElementCount(t), n);
  memcpy(v, TF_TensorData(t), (size_t)n * sizeof(float));
  TF_DeleteTensor(t);
}

static void check_floats(const float* got, const float* want, int n) {
  int i;
  for (i = 0; i < n; i++) {
    if (got[i] != want[i]) {
      TFE_FAIL("element %d: got %g, want %g", i, (double)got[i],
               (double)want[i]);
    }
  }
}

/* A handle of shape [2] and dtype variant (both elements empty). */
static TFE_TensorHandle* variant_vector(TF_Status* s) {
  int64_t two = 2;
  TF_Tensor* t = TF_AllocateTensor(TF_VARIANT, &two, 1, 0);
  TFE_TensorHandle* h;
  CHECK(t != NULL);
  h = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  return h;
}

static const float kA[6] = {1, 2, 3, 4, 5, 6};
static const float kB[6] = {10, 20, 30, 40, 50, 60};

/* ------------------------------------------------------------------------
 * TensorList ops. */

TEST(list_from_tensor_get_set_push_pop_stack) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle *l, *l2, *l3, *l4, *item, *st, *rest[1];
  float got[8];
  const float nine[2] = {9, 9}, seven[2] = {7, 8};
  int64_t d1[1] = {2}, d2[2] = {4, 2};
  const float want[8] = {9, 9, 3, 4, 5, 6, 7, 8};
  TFE_Op* op;

  l = list_from(ctx, kA, 3, 2, s);
  CHECK_EQ_INT(length(ctx, l, s), 3);
  item = get_item(ctx, l, 1, TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  read_floats(item, got, 2, d1, 1, s);
  check_floats(got, kA + 2, 2);
  TFE_DeleteTensorHandle(item);

  item = f32_handle(nine, d1, 1, s);
  l2 = set_item(ctx, l, 0, item, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(item);
  item = f32_handle(seven, d1, 1, s);
  l3 = push_back(ctx, l2, item, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(item);
  CHECK_EQ_INT(length(ctx, l3, s), 4);
  /* The input lists are unchanged. */
  CHECK_EQ_INT(length(ctx, l, s), 3);
  item = get_item(ctx, l, 0, TF_FLOAT, s);
  read_floats(item, got, 2, d1, 1, s);
  check_floats(got, kA, 2);
  TFE_DeleteTensorHandle(item);

  st = stack(ctx, l3, TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  read_floats(st, got, 8, d2, 2, s);
  check_floats(got, want, 8);
  TFE_DeleteTensorHandle(st);

  op = new_op(ctx, "TensorListPopBack", s);
  add_in(op, l3, s);
  item = unknown_shape(s);
  add_in(op, item, s);
  TFE_OpSetAttrType(op, "element_dtype", TF_FLOAT);
  l4 = run(op, 2, rest, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(item);
  read_floats(rest[0], got, 2, d1, 1, s);
  check_floats(got, seven, 2);
  CHECK_EQ_INT(length(ctx, l4, s), 3);
  CHECK_EQ_INT(length(ctx, l3, s), 4);
  TFE_DeleteTensorHandle(rest[0]);

  TFE_DeleteTensorHandle(l);
  TFE_DeleteTensorHandle(l2);
  TFE_DeleteTensorHandle(l3);
  TFE_DeleteTensorHandle(l4);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(list_reserve_uninitialised_elements_read_as_zeros) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const int32_t shape[1] = {2};
  const float five[2] = {5, 6};
  const float want[6] = {0, 0, 5, 6, 0, 0};
  int64_t d1[1] = {2}, d2[2] = {3, 2};
  float got[6];
  TFE_TensorHandle *l = reserve(ctx, shape, 1, 3, s), *l2, *item, *st;
  CHECK_CODE(s, TF_OK);
  st = stack(ctx, l, TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  read_floats(st, got, 6, d2, 2, s);
  check_floats(got, want, 2);
  TFE_DeleteTensorHandle(st);
  item = f32_handle(five, d1, 1, s);
  l2 = set_item(ctx, l, 1, item, s);
  CHECK_CODE(s, TF_OK);
  st = stack(ctx, l2, TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  read_floats(st, got, 6, d2, 2, s);
  check_floats(got, want, 6);
  TFE_DeleteTensorHandle(st);
  st = get_item(ctx, l2, 2, TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  read_floats(st, got, 2, d1, 1, s);
  check_floats(got, want, 2);
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(item);
  TFE_DeleteTensorHandle(l);
  TFE_DeleteTensorHandle(l2);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(list_element_shape_partial_and_unknown) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const int32_t shape[2] = {-1, 3};
  TFE_TensorHandle *l = reserve(ctx, shape, 2, 1, s), *r;
  TF_Tensor* t;
  TFE_Op* op = new_op(ctx, "TensorListElementShape", s);
  CHECK_CODE(s, TF_OK);
  add_in(op, l, s);
  TFE_OpSetAttrType(op, "shape_type", TF_INT64);
  r = run(op, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(r, s);
  CHECK_EQ_INT(TF_TensorType(t), TF_INT64);
  CHECK_EQ_INT(TF_TensorElementCount(t), 2);
  CHECK_EQ_INT(((int64_t*)TF_TensorData(t))[0], -1);
  CHECK_EQ_INT(((int64_t*)TF_TensorData(t))[1], 3);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(l);
  l = reserve(ctx, NULL, -1, 1, s);
  op = new_op(ctx, "TensorListElementShape", s);
  add_in(op, l, s);
  TFE_OpSetAttrType(op, "shape_type", TF_INT32);
  r = run(op, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(read_i32(r, s), -1);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(l);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(list_misuse_reports_tensorflow_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const int32_t shape[1] = {2};
  const float three[3] = {1, 2, 3};
  int64_t d3[1] = {3};
  TFE_TensorHandle *l = reserve(ctx, shape, 1, 3, s), *e, *r, *item;
  TFE_TensorHandle *u = reserve(ctx, NULL, -1, 2, s);

  r = get_item(ctx, l, 5, TF_FLOAT, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Trying to access element 5 in a list with 3 elements.");
  r = get_item(ctx, l, 0, TF_INT32, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Invalid data types; op elements int32 but list "
                     "elements float");
  r = get_item(ctx, u, 0, TF_FLOAT, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Trying to read an uninitialized tensor but element_shape "
                     "is not fully defined: <unknown> and no list element is "
                     "set.");
  r = stack(ctx, u, TF_FLOAT, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Tried to stack list which only contains uninitialized "
                     "tensors and has a non-fully-defined element_shape: "
                     "<unknown>");

  e = empty_list(ctx, 1, s);
  r = stack(ctx, e, TF_FLOAT, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Tried to stack elements of an empty list with "
                     "non-fully-defined element_shape: <unknown>");

  item = f32_handle(three, d3, 1, s);
  r = set_item(ctx, l, 3, item, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Trying to modify element 3 in a list with 3 elements.");
  r = set_item(ctx, l, 0, item, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Tried to set a tensor with incompatible shape at a list "
                     "index. Item element shape: [3] list shape: [2]");
  r = push_back(ctx, l, item, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Tried to append a tensor with incompatible shape to a "
                     "list. Op element shape: [3] list shape: [2]");
  r = push_back(ctx, e, item, s);
  CHECK_CODE(s, TF_OK);
  {
    TFE_TensorHandle* r2 = push_back(ctx, r, item, s);
    CHECK(r2 == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "Tried to push item into a full list list size: 1 "
                       "max_num_elements: 1");
  }
  TFE_DeleteTensorHandle(r);
  r = reserve(ctx, shape, 1, -1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "The num_elements to reserve must be a non negative "
                     "number, but got -1");
  {
    /* Popping from an empty list, and a list op on an Optional. */
    TFE_TensorHandle *sh = unknown_shape(s), *rest[1], *none;
    TFE_Op* op = new_op(ctx, "TensorListPopBack", s);
    add_in(op, e, s);
    add_in(op, sh, s);
    TFE_OpSetAttrType(op, "element_dtype", TF_FLOAT);
    CHECK(run(op, 2, rest, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "Trying to pop from an empty list.");
    TFE_DeleteTensorHandle(sh);
    op = new_op(ctx, "OptionalNone", s);
    none = run(op, 1, NULL, s);
    CHECK_CODE(s, TF_OK);
    op = new_op(ctx, "TensorListLength", s);
    add_in(op, none, s);
    CHECK(run(op, 1, NULL, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "Input handle is not a list. Saw: '");
    TFE_DeleteTensorHandle(none);
  }
  {
    /* TensorListFromTensor of a scalar. */
    float one = 1;
    TFE_TensorHandle *x = f32_handle(&one, NULL, 0, s), *sh = unknown_shape(s);
    TFE_Op* op = new_op(ctx, "TensorListFromTensor", s);
    add_in(op, x, s);
    add_in(op, sh, s);
    CHECK(run(op, 1, NULL, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "Tensor must be at least a vector, but saw shape: []");
    TFE_DeleteTensorHandle(x);
    TFE_DeleteTensorHandle(sh);
  }
  TFE_DeleteTensorHandle(item);
  TFE_DeleteTensorHandle(e);
  TFE_DeleteTensorHandle(u);
  TFE_DeleteTensorHandle(l);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * AddN / ZerosLike with the built-in kernels. */

TEST(addn_of_lists_sums_elements_builtin) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* in[3];
  TFE_TensorHandle *sum, *st;
  float got[6], want[6];
  int64_t d2[2] = {3, 2};
  int i;
  in[0] = list_from(ctx, kA, 3, 2, s);
  in[1] = list_from(ctx, kB, 3, 2, s);
  in[2] = in[0];
  sum = add_n(ctx, in, 3, s);
  CHECK_CODE(s, TF_OK);
  st = stack(ctx, sum, TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  read_floats(st, got, 6, d2, 2, s);
  for (i = 0; i < 6; i++) want[i] = 2 * kA[i] + kB[i];
  check_floats(got, want, 6);
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(sum);
  /* One input: the output is that input. */
  sum = add_n(ctx, in, 1, s);
  CHECK_CODE(s, TF_OK);
  st = stack(ctx, sum, TF_FLOAT, s);
  read_floats(st, got, 6, d2, 2, s);
  check_floats(got, kA, 6);
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(in[0]);
  TFE_DeleteTensorHandle(in[1]);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(addn_uninitialised_side_gives_other_side) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const int32_t shape[1] = {2};
  const float five[2] = {5, 6};
  const float want[6] = {0, 0, 10, 12, 0, 0};
  int64_t d1[1] = {2}, d2[2] = {3, 2};
  float got[6];
  TFE_TensorHandle *l = reserve(ctx, shape, 1, 3, s), *item, *in[2], *sum,
                   *st;
  item = f32_handle(five, d1, 1, s);
  in[0] = set_item(ctx, l, 1, item, s);
  in[1] = in[0];
  sum = add_n(ctx, in, 2, s);
  CHECK_CODE(s, TF_OK);
  st = stack(ctx, sum, TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  read_floats(st, got, 6, d2, 2, s);
  check_floats(got, want, 6);
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(in[0]);
  TFE_DeleteTensorHandle(item);
  TFE_DeleteTensorHandle(l);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(addn_variant_errors_builtin) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle *a = list_from(ctx, kA, 3, 2, s), *b = list_from(ctx, kB, 2, 2, s);
  TFE_TensorHandle *in[2], *pair, *none;
  TFE_Op* op;
  in[0] = a;
  in[1] = b;
  CHECK(add_n(ctx, in, 2, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Trying to add two lists of tensors with different "
                     "lengths. One is 3 and the other is 2");
  /* Non-scalar variants (two empty variants in a vector). */
  pair = variant_vector(s);
  in[0] = pair;
  in[1] = pair;
  CHECK(add_n(ctx, in, 2, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "AddN of non-scalar Tensor with dtype=DT_VARIANT is not "
                     "supported; inputs[0 has shape: [2].");
  CHECK(zeros_like(ctx, pair, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "ZerosLike non-scalar Tensor with dtype=DT_VARIANT is "
                     "not supported.");
  /* A list plus an optional. */
  op = new_op(ctx, "OptionalNone", s);
  none = run(op, 1, NULL, s);
  in[0] = a;
  in[1] = none;
  CHECK(add_n(ctx, in, 2, s) == NULL);
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "BinaryOpVariants: Variants a and b have different type "
                     "ids.  Type names: 'tensorflow::TensorList' vs. "
                     "'tensorflow::data::Optional'");
  TFE_DeleteTensorHandle(none);
  TFE_DeleteTensorHandle(pair);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(zeros_like_list_builtin) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle *a = list_from(ctx, kA, 3, 2, s), *z, *st;
  const float zero[6] = {0, 0, 0, 0, 0, 0};
  int64_t d2[2] = {3, 2};
  float got[6];
  z = zeros_like(ctx, a, s);
  CHECK_CODE(s, TF_OK);
  st = stack(ctx, z, TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  read_floats(st, got, 6, d2, 2, s);
  check_floats(got, zero, 6);
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(z);
  /* The input is untouched. */
  st = stack(ctx, a, TF_FLOAT, s);
  read_floats(st, got, 6, d2, 2, s);
  check_floats(got, kA, 6);
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Optionals. */

static TFE_TensorHandle* optional_of(TFE_Context* ctx, TFE_TensorHandle** c,
                                     int n, TF_Status* s) {
  TFE_Op* op = new_op(ctx, "OptionalFromValue", s);
  TFE_OpAddInputList(op, c, n, s);
  CHECK_CODE(s, TF_OK);
  return run(op, 1, NULL, s);
}

/* OptionalGetValue with output_types (float, int32), shapes ([2], []). */
static TFE_TensorHandle* get_value(TFE_Context* ctx, TFE_TensorHandle* o,
                                   TFE_TensorHandle** second, TF_Status* s) {
  TF_DataType types[2] = {TF_FLOAT, TF_INT32};
  int64_t d2[1] = {2};
  const int64_t* dims[2];
  int nd[2] = {1, 0};
  TFE_Op* op = new_op(ctx, "OptionalGetValue", s);
  dims[0] = d2;
  dims[1] = NULL;
  add_in(op, o, s);
  TFE_OpSetAttrTypeList(op, "output_types", types, 2);
  TFE_OpSetAttrShapeList(op, "output_shapes", dims, nd, 2, s);
  CHECK_CODE(s, TF_OK);
  return run(op, 2, second, s);
}

TEST(optional_ops_addn_and_zeros) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const float v[2] = {1, 2};
  int64_t d1[1] = {2};
  float got[2];
  TFE_TensorHandle *c[2], *o, *none, *r, *rest[1], *in[2], *sum;
  TFE_Op* op;
  c[0] = f32_handle(v, d1, 1, s);
  c[1] = scalar_i32(3, s);
  o = optional_of(ctx, c, 2, s);
  CHECK_CODE(s, TF_OK);
  op = new_op(ctx, "OptionalHasValue", s);
  add_in(op, o, s);
  r = run(op, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  {
    TF_Tensor* t = TFE_TensorHandleResolve(r, s);
    CHECK_EQ_INT(*(unsigned char*)TF_TensorData(t), 1);
    TF_DeleteTensor(t);
  }
  TFE_DeleteTensorHandle(r);
  r = get_value(ctx, o, rest, s);
  CHECK_CODE(s, TF_OK);
  read_floats(r, got, 2, d1, 1, s);
  check_floats(got, v, 2);
  CHECK_EQ_INT(read_i32(rest[0], s), 3);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(rest[0]);

  /* AddN and ZerosLike of optionals. */
  in[0] = o;
  in[1] = o;
  sum = add_n(ctx, in, 2, s);
  CHECK_CODE(s, TF_OK);
  r = get_value(ctx, sum, rest, s);
  CHECK_CODE(s, TF_OK);
  read_floats(r, got, 2, d1, 1, s);
  CHECK(got[0] == 2 && got[1] == 4);
  CHECK_EQ_INT(read_i32(rest[0], s), 6);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(rest[0]);
  TFE_DeleteTensorHandle(sum);
  sum = zeros_like(ctx, o, s);
  CHECK_CODE(s, TF_OK);
  r = get_value(ctx, sum, rest, s);
  CHECK_CODE(s, TF_OK);
  read_floats(r, got, 2, d1, 1, s);
  CHECK(got[0] == 0 && got[1] == 0);
  CHECK_EQ_INT(read_i32(rest[0], s), 0);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(rest[0]);
  TFE_DeleteTensorHandle(sum);

  /* None: no value, adding to a value fails. */
  op = new_op(ctx, "OptionalNone", s);
  none = run(op, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK(get_value(ctx, none, rest, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "The given optional does not have a value.");
  in[1] = none;
  CHECK(add_n(ctx, in, 2, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Cannot add optionals because one has a value and the "
                     "other doesn't.");
  /* Wrong expected types. */
  {
    TF_DataType types[2] = {TF_INT32, TF_INT32};
    int64_t d2[1] = {2};
    const int64_t* dims[2] = {d2, NULL};
    int nd[2] = {1, 0};
    op = new_op(ctx, "OptionalGetValue", s);
    add_in(op, o, s);
    TFE_OpSetAttrTypeList(op, "output_types", types, 2);
    TFE_OpSetAttrShapeList(op, "output_shapes", dims, nd, 2, s);
    CHECK(run(op, 2, rest, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "The given optional does not match the expected type "
                       "for component 0. Expected: int32. Actual: float.");
  }
  TFE_DeleteTensorHandle(none);
  TFE_DeleteTensorHandle(o);
  TFE_DeleteTensorHandle(c[0]);
  TFE_DeleteTensorHandle(c[1]);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Memory: variant buffers, their objects and element tensors go away. */

TEST(variant_buffers_are_released) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now(), after;
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle *a = list_from(ctx, kA, 3, 2, s), *in[2], *sum, *z, *st;
  TF_Tensor* t;
  in[0] = a;
  in[1] = a;
  sum = add_n(ctx, in, 2, s);
  CHECK_CODE(s, TF_OK);
  z = zeros_like(ctx, sum, s);
  CHECK_CODE(s, TF_OK);
  st = stack(ctx, z, TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  /* Resolving a variant handle gives a scalar TF_VARIANT tensor. */
  t = TFE_TensorHandleResolve(sum, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(t), TF_VARIANT);
  CHECK_EQ_INT(TF_NumDims(t), 0);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(z);
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  after = live_now();
  CHECK_EQ_INT(after.tensors, before.tensors);
  CHECK_EQ_INT(after.buffers, before.buffers);
  CHECK_EQ_INT(after.handles, before.handles);
}

TEST(allocate_tensor_variant_keeps_tensorflow_answers) {
  int64_t dims[1] = {3};
  TF_Tensor* t;
  CHECK_EQ_SIZE(TF_DataTypeSize(TF_VARIANT), 0);
  t = TF_AllocateTensor(TF_VARIANT, dims, 1, 0);
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_TensorType(t), TF_VARIANT);
  CHECK_EQ_INT(TF_TensorElementCount(t), 3);
  TF_DeleteTensor(t);
}

TEST(capi_variant_functions_validate_arguments) {
  TF_Status* st = TF_NewStatus();
  TF_AddNVariant(NULL, NULL, st);
  CHECK_CODE(st, TF_INVALID_ARGUMENT);
  TF_ZerosLikeVariant(NULL, NULL, st);
  CHECK_CODE(st, TF_INVALID_ARGUMENT);
  TF_DeleteStatus(st);
}

/* ------------------------------------------------------------------------
 * A kernel library whose AddN / ZerosLike call TF_AddNVariant /
 * TF_ZerosLikeVariant. It replaces the built-ins for the whole process, so
 * the built-in results are computed first. */

static int* plugin_int(void* lib, const char* name) {
  int* p = (int*)dlsym(lib, name);
  CHECK(p != NULL);
  return p;
}

TEST(plugin_addn_and_zeros_through_capi_match_builtin) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now(), after;
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle *a, *b, *in[3], *sum, *st, *z;
  float builtin_sum[6], plugin_sum[6], got[6];
  const float zero[6] = {0, 0, 0, 0, 0, 0};
  int64_t d2[2] = {3, 2};
  TF_Library* lib;
  void* h;
  int *adds, *zeros, *runs, *last;

  a = list_from(ctx, kA, 3, 2, s);
  b = list_from(ctx, kB, 3, 2, s);
  in[0] = a;
  in[1] = b;
  in[2] = a;
  sum = add_n(ctx, in, 3, s);
  CHECK_CODE(s, TF_OK);
  st = stack(ctx, sum, TF_FLOAT, s);
  read_floats(st, builtin_sum, 6, d2, 2, s);
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);

  lib = TF_LoadLibrary(VARIANT_PLUGIN, s);
  CHECK_CODE(s, TF_OK);
  h = dlopen(VARIANT_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
  CHECK(h != NULL);
  CHECK_EQ_INT(*plugin_int(h, "variant_kernels_registered"), 2);
  adds = plugin_int(h, "variant_kernels_add_calls");
  zeros = plugin_int(h, "variant_kernels_zeros_calls");
  runs = plugin_int(h, "variant_kernels_addn_runs");
  last = plugin_int(h, "variant_kernels_last_code");

  ctx = new_ctx(s);
  a = list_from(ctx, kA, 3, 2, s);
  b = list_from(ctx, kB, 3, 2, s);
  in[0] = a;
  in[1] = b;
  in[2] = a;
  sum = add_n(ctx, in, 3, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(*runs, 1);
  CHECK_EQ_INT(*last, TF_OK);
  /* Two pairwise list additions of three elements each. */
  CHECK_EQ_INT(*adds, 6);
  st = stack(ctx, sum, TF_FLOAT, s);
  read_floats(st, plugin_sum, 6, d2, 2, s);
  check_floats(plugin_sum, builtin_sum, 6);
  TFE_DeleteTensorHandle(st);

  z = zeros_like(ctx, sum, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(*zeros, 3);
  CHECK_EQ_INT(*last, TF_OK);
  st = stack(ctx, z, TF_FLOAT, s);
  read_floats(st, got, 6, d2, 2, s);
  check_floats(got, zero, 6);
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(z);
  TFE_DeleteTensorHandle(sum);

  /* Mismatched lengths: the kernel sees the error in its status and the
   * op fails with it. */
  {
    TFE_TensorHandle* c = list_from(ctx, kB, 2, 2, s);
    in[1] = c;
    CHECK(add_n(ctx, in, 2, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "Trying to add two lists of tensors with different "
                       "lengths. One is 3 and the other is 2");
    CHECK_EQ_INT(*last, TF_INVALID_ARGUMENT);
    TFE_DeleteTensorHandle(c);
  }
  /* Non-scalar variants. */
  {
    TFE_TensorHandle* pair = variant_vector(s);
    in[0] = pair;
    in[1] = pair;
    CHECK(add_n(ctx, in, 2, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "AddN of non-scalar Tensor with dtype=DT_VARIANT is "
                       "not supported; inputs[0 has shape: [2].");
    CHECK_EQ_INT(*last, TF_INVALID_ARGUMENT);
    CHECK(zeros_like(ctx, pair, s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "ZerosLike non-scalar Tensor with dtype=DT_VARIANT is "
                       "not supported.");
    CHECK_EQ_INT(*last, TF_INVALID_ARGUMENT);
    TFE_DeleteTensorHandle(pair);
  }
  /* An optional through the plugin: one call per component. */
  {
    const float v[2] = {1, 2};
    int64_t d1[1] = {2};
    TFE_TensorHandle *c[1], *o, *r;
    int before_adds = *adds, before_zeros = *zeros;
    c[0] = f32_handle(v, d1, 1, s);
    o = optional_of(ctx, c, 1, s);
    CHECK_CODE(s, TF_OK);
    in[0] = o;
    in[1] = o;
    sum = add_n(ctx, in, 2, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(*adds, before_adds + 1);
    {
      TF_DataType types[1] = {TF_FLOAT};
      const int64_t* dims[1] = {d1};
      int nd[1] = {1};
      TFE_Op* op = new_op(ctx, "OptionalGetValue", s);
      add_in(op, sum, s);
      TFE_OpSetAttrTypeList(op, "output_types", types, 1);
      TFE_OpSetAttrShapeList(op, "output_shapes", dims, nd, 1, s);
      r = run(op, 1, NULL, s);
      CHECK_CODE(s, TF_OK);
      read_floats(r, got, 2, d1, 1, s);
      CHECK(got[0] == 2 && got[1] == 4);
      TFE_DeleteTensorHandle(r);
    }
    z = zeros_like(ctx, o, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(*zeros, before_zeros + 1);
    TFE_DeleteTensorHandle(z);
    TFE_DeleteTensorHandle(sum);
    TFE_DeleteTensorHandle(o);
    TFE_DeleteTensorHandle(c[0]);
  }
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  dlclose(h);
  TF_DeleteLibraryHandle(lib);
  TF_DeleteStatus(s);
  after = live_now();
  CHECK_EQ_INT(after.tensors, before.tensors);
  CHECK_EQ_INT(after.buffers, before.buffers);
}

/* ------------------------------------------------------------------------
 * Variables holding DT_VARIANT values, seen from a C-API kernel: the
 * isVariantType paths of TF_AssignUpdateVariable and
 * TF_GetInputTensorFromVariable copy by sharing element objects. */

static int g_updates;
static void* g_update_data;

static void never_copy(TF_OpKernelContext* ctx, TF_Tensor* src, TF_Tensor* dst) {
  (void)ctx;
  (void)src;
  (void)dst;
  TFE_FAIL("copyFunc must not be called for DT_VARIANT values");
}

static void note_update(TF_OpKernelContext* ctx, TF_Tensor* var,
                        TF_Tensor* value, int op) {
  (void)ctx;
  (void)op;
  CHECK_EQ_INT(TF_TensorType(var), TF_VARIANT);
  CHECK_EQ_INT(TF_TensorType(value), TF_VARIANT);
  g_update_data = TF_TensorData(var);
  g_updates++;
}

static void variant_update_compute(void* kernel, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* got = NULL;
  (void)kernel;
  TF_AssignUpdateVariable(ctx, 0, 1, 0, 1, never_copy, note_update, s);
  CHECK_CODE(s, TF_OK);
  TF_GetInputTensorFromVariable(ctx, 0, false, true, true, never_copy, &got,
                                s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(got), TF_VARIANT);
  CHECK_EQ_INT(TF_NumDims(got), 0);
  TF_DeleteTensor(got);
  TF_DeleteStatus(s);
}

TEST(variant_variable_update_and_read_share_objects) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle *var, *a, *b, *read, *st, *out[1];
  TF_Tensor* before;
  TFE_Op* op;
  TF_KernelBuilder* kb;
  float got[6];
  int64_t d2[2] = {3, 2};
  int n = 0;

  kb = TF_NewKernelBuilder("AssignAddVariableOp", "CPU", NULL,
                           variant_update_compute, NULL);
  TF_KernelBuilder_TypeConstraint(kb, "dtype", TF_VARIANT, s);
  CHECK_CODE(s, TF_OK);
  TF_RegisterKernelBuilder("VariantAssignAddForTest", kb, s);
  CHECK_CODE(s, TF_OK);

  ctx = new_ctx(s);
  op = new_op(ctx, "VarHandleOp", s);
  TFE_OpSetAttrType(op, "dtype", TF_VARIANT);
  TFE_OpSetAttrShape(op, "shape", NULL, 0, s);
  TFE_OpSetAttrString(op, "shared_name", "vlist", 5);
  var = run(op, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  a = list_from(ctx, kA, 3, 2, s);
  b = list_from(ctx, kB, 3, 2, s);
  op = new_op(ctx, "AssignVariableOp", s);
  add_in(op, var, s);
  add_in(op, a, s);
  TFE_OpSetAttrType(op, "dtype", TF_VARIANT);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);

  /* A read keeps the variable's buffer shared, so the update must work on
   * a private copy and leave the read value alone. */
  op = new_op(ctx, "ReadVariableOp", s);
  add_in(op, var, s);
  TFE_OpSetAttrType(op, "dtype", TF_VARIANT);
  read = run(op, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  before = TFE_TensorHandleResolve(read, s);
  CHECK_CODE(s, TF_OK);

  op = new_op(ctx, "AssignAddVariableOp", s);
  add_in(op, var, s);
  add_in(op, b, s);
  TFE_OpSetAttrType(op, "dtype", TF_VARIANT);
  n = 0;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteOp(op);
  CHECK_EQ_INT(g_updates, 1);
  CHECK(g_update_data != NULL && g_update_data != TF_TensorData(before));

  /* The read value and the variable's copy both still hold list a. */
  st = stack(ctx, read, TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  read_floats(st, got, 6, d2, 2, s);
  check_floats(got, kA, 6);
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(read);
  op = new_op(ctx, "ReadVariableOp", s);
  add_in(op, var, s);
  TFE_OpSetAttrType(op, "dtype", TF_VARIANT);
  read = run(op, 1, NULL, s);
  CHECK_CODE(s, TF_OK);
  st = stack(ctx, read, TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  read_floats(st, got, 6, d2, 2, s);
  check_floats(got, kA, 6);
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(read);
  TF_DeleteTensor(before);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(var);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
