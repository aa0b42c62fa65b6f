/* Elementwise ops end to end through the public eager C API
 * (TFE_NewOp / TFE_Execute / TFE_TensorHandleResolve): attrs set by name,
 * list inputs, broadcasting, and TF's error codes surfacing from kernels. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

static TF_Status* S;
static TFE_Context* CTX;

static void setup(void) {
  if (S == NULL) {
    TFE_ContextOptions* o = TFE_NewContextOptions();
    S = TF_NewStatus();
    CTX = TFE_NewContext(o, S);
    CHECK_CODE(S, TF_OK);
    TFE_DeleteContextOptions(o);
  }
  TF_SetStatus(S, TF_OK, "");
}

static TFE_TensorHandle* th(TF_DataType dt, const int64_t* dims, int nd,
                            const void* data) {
  size_t n = 1;
  int i;
  TF_Tensor* t;
  TFE_TensorHandle* h;
  for (i = 0; i < nd; i++) n *= (size_t)dims[i];
  t = TF_AllocateTensor(dt, dims, nd, n * TF_DataTypeSize(dt));
  CHECK(t != NULL);
  if (n) memcpy(TF_TensorData(t), data, n * TF_DataTypeSize(dt));
  h = TFE_NewTensorHandle(t, S);
  CHECK_CODE(S, TF_OK);
  TF_DeleteTensor(t);
  return h;
}

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define F32(...) ((const float[]){__VA_ARGS__})
#define I32(...) ((const int32_t[]){__VA_ARGS__})
#define B8(...) ((const uint8_t[]){__VA_ARGS__})

static TFE_Op* new_op(const char* name) {
  TFE_Op* op = TFE_NewOp(CTX, name, S);
  CHECK_CODE(S, TF_OK);
  return op;
}

static void add_in(TFE_Op* op, TFE_TensorHandle* h) {
  TFE_OpAddInput(op, h, S);
  CHECK_CODE(S, TF_OK);
}

/* Executes op (deleted afterwards) and returns its single output resolved
 * to a tensor, or NULL with S holding the error. */
static TF_Tensor* exec1(TFE_Op* op) {
  TFE_TensorHandle* r[1] = {NULL};
  int n = 1;
  TF_Tensor* t = NULL;
  TFE_Execute(op, r, &n, S);
  TFE_DeleteOp(op);
  if (TF_GetCode(S) != TF_OK) return NULL;
  CHECK_EQ_INT(n, 1);
  t = TFE_TensorHandleResolve(r[0], S);
  CHECK_CODE(S, TF_OK);
  TFE_DeleteTensorHandle(r[0]);
  return t;
}

static void check_dims(const TF_Tensor* t, const int64_t* dims, int nd) {
  int i;
  CHECK_EQ_INT(TF_NumDims(t), nd);
  for (i = 0; i < nd; i++) CHECK_EQ_INT(TF_Dim(t, i), dims[i]);
}

static void check_f32(TF_Tensor* t, const int64_t* dims, int nd,
                      const float* want) {
  int64_t n = TF_TensorElementCount(t), i;
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_TensorType(t), TF_FLOAT);
  check_dims(t, dims, nd);
  for (i = 0; i < n; i++) {
    float g = ((const float*)TF_TensorData(t))[i];
    if (!(g == want[i] || (isnan(g) && isnan(want[i])))) {
      TFE_FAIL("element %lld: %g != %g", (long long)i, g, want[i]);
    }
  }
  TF_DeleteTensor(t);
}

static void check_i32(TF_Tensor* t, TF_DataType dt, const int64_t* dims,
                      int nd, const int32_t* want) {
  int64_t n = TF_TensorElementCount(t), i;
  CHECK(t != NULL);
  CHECK_EQ_INT(TF_TensorType(t), dt);
  check_dims(t, dims, nd);
  for (i = 0; i < n; i++) {
    int32_t g = dt == TF_BOOL ? ((const uint8_t*)TF_TensorData(t))[i]
                              : ((const int32_t*)TF_TensorData(t))[i];
    CHECK_EQ_INT(g, want[i]);
  }
  TF_DeleteTensor(t);
}

TEST(add_broadcasts_through_execute) {
  TFE_TensorHandle *a, *b;
  TFE_Op* op;
  setup();
  a = th(TF_FLOAT, D(2, 1, 3), 3, F32(1, 2, 3, 4, 5, 6));
  b = th(TF_FLOAT, D(4, 1), 2, F32(10, 20, 30, 40));
  op = new_op("AddV2");
  add_in(op, a);
  add_in(op, b);
  check_f32(exec1(op), D(2, 4, 3), 3,
            F32(11, 12, 13, 21, 22, 23, 31, 32, 33, 41, 42, 43, 14, 15, 16,
                24, 25, 26, 34, 35, 36, 44, 45, 46));
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
}

TEST(kernel_errors_keep_tf_codes) {
  TFE_TensorHandle *x, *y, *z;
  TFE_Op* op;
  setup();
  x = th(TF_FLOAT, D(2, 3), 2, F32(1, 2, 3, 4, 5, 6));
  y = th(TF_FLOAT, D(4), 1, F32(1, 2, 3, 4));
  op = new_op("Mul");
  add_in(op, x);
  add_in(op, y);
  CHECK(exec1(op) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Incompatible shapes: [2,3] vs. [4]");
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);

  x = th(TF_INT32, D(2), 1, I32(7, -7));
  z = th(TF_INT32, D(2), 1, I32(0, 2));
  setup();
  op = new_op("FloorDiv");
  add_in(op, x);
  add_in(op, z);
  CHECK(exec1(op) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Integer division by zero");
  setup();
  op = new_op("TruncateDiv");
  add_in(op, x);
  add_in(op, z);
  CHECK(exec1(op) == NULL);
  CHECK_CODE(S, TF_INTERNAL);
  setup();
  op = new_op("Pow");
  add_in(op, z);
  y = th(TF_INT32, D(2), 1, I32(1, -1));
  add_in(op, y);
  CHECK(exec1(op) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "negative integer powers");
  TFE_DeleteTensorHandle(y);
  /* the context is healthy afterwards */
  setup();
  op = new_op("FloorMod");
  add_in(op, x);
  y = th(TF_INT32, D(2), 1, I32(3, 3));
  add_in(op, y);
  check_i32(exec1(op), TF_INT32, D(2), 1, I32(1, 2));
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteTensorHandle(z);
}

TEST(missing_kernel_is_not_found) {
  /* Mod allows half in its definition, but TF has no half kernel. */
  const uint16_t h[1] = {0x3c00};
  TFE_TensorHandle* x;
  TFE_Op* op;
  setup();
  x = th(TF_HALF, D(1), 1, h);
  op = new_op("Mod");
  add_in(op, x);
  add_in(op, x);
  CHECK(exec1(op) == NULL);
  CHECK_CODE(S, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(S), "Could not find device for node");
  CHECK_STR_CONTAINS(TF_Message(S), "DT_HALF");
  TFE_DeleteTensorHandle(x);
}

TEST(cast_attrs_by_name) {
  TFE_TensorHandle* x;
  TFE_Op* op;
  setup();
  x = th(TF_FLOAT, D(3), 1, F32(2.7f, -2.7f, 1.0f + 3.0f / 2048));
  op = new_op("Cast");
  add_in(op, x);
  TFE_OpSetAttrType(op, "DstT", TF_INT32);
  check_i32(exec1(op), TF_INT32, D(3), 1, I32(2, -2, 1));
  setup();
  op = new_op("Cast");
  add_in(op, x);
  TFE_OpSetAttrType(op, "DstT", TF_HALF);
  TFE_OpSetAttrBool(op, "Truncate", 1);
  {
    TF_Tensor* t = exec1(op);
    CHECK(t != NULL);
    CHECK_EQ_INT(TF_TensorType(t), TF_HALF);
    /* chopped: 1 + 1/1024, where rounding would give 1 + 2/1024 */
    CHECK_EQ_INT(((const uint16_t*)TF_TensorData(t))[2], 0x3c01);
    TF_DeleteTensor(t);
  }
  TFE_DeleteTensorHandle(x);
}

TEST(select_and_select_v2) {
  TFE_TensorHandle *c, *x, *y, *c2;
  TFE_Op* op;
  setup();
  c = th(TF_BOOL, D(2), 1, B8(0, 1));
  x = th(TF_FLOAT, D(2, 2), 2, F32(1, 2, 3, 4));
  y = th(TF_FLOAT, D(2, 2), 2, F32(-1, -2, -3, -4));
  op = new_op("Select");
  add_in(op, c);
  add_in(op, x);
  add_in(op, y);
  check_f32(exec1(op), D(2, 2), 2, F32(-1, -2, 3, 4));
  c2 = th(TF_BOOL, D(2), 1, B8(1, 0));
  setup();
  op = new_op("SelectV2");
  add_in(op, c2);
  add_in(op, x);
  add_in(op, y);
  check_f32(exec1(op), D(2, 2), 2, F32(1, -2, 3, -4));
  TFE_DeleteTensorHandle(c);
  TFE_DeleteTensorHandle(c2);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
}

TEST(attrs_of_activations_and_bucketize) {
  TFE_TensorHandle* x;
  TFE_Op* op;
  const float bounds[3] = {0, 1, 10};
  setup();
  x = th(TF_FLOAT, D(4), 1, F32(-10, 0, 5, 20));
  op = new_op("LeakyRelu");
  add_in(op, x);
  check_f32(exec1(op), D(4), 1, F32(-2, 0, 5, 20));
  setup();
  op = new_op("LeakyRelu");
  add_in(op, x);
  TFE_OpSetAttrFloat(op, "alpha", 0.5f);
  check_f32(exec1(op), D(4), 1, F32(-5, 0, 5, 20));
  setup();
  op = new_op("Bucketize");
  add_in(op, x);
  TFE_OpSetAttrFloatList(op, "boundaries", bounds, 3);
  check_i32(exec1(op), TF_INT32, D(4), 1, I32(0, 1, 2, 3));
  TFE_DeleteTensorHandle(x);
}

TEST(add_n_and_bias_add) {
  TFE_TensorHandle *a, *b, *v, *bias;
  TFE_TensorHandle* list[3];
  TFE_Op* op;
  setup();
  a = th(TF_FLOAT, D(3), 1, F32(1, 2, 3));
  b = th(TF_FLOAT, D(3), 1, F32(10, 20, 30));
  list[0] = a;
  list[1] = b;
  list[2] = a;
  op = new_op("AddN");
  TFE_OpAddInputList(op, list, 3, S);
  CHECK_CODE(S, TF_OK);
  check_f32(exec1(op), D(3), 1, F32(12, 24, 36));
  setup();
  v = th(TF_FLOAT, D(1, 2, 1, 2), 4, F32(1, 1, 1, 1));
  bias = th(TF_FLOAT, D(2), 1, F32(10, 20));
  op = new_op("BiasAdd");
  add_in(op, v);
  add_in(op, bias);
  TFE_OpSetAttrString(op, "data_format", "NCHW", 4);
  check_f32(exec1(op), D(1, 2, 1, 2), 4, F32(11, 11, 21, 21));
  setup();
  op = new_op("BiasAdd");
  add_in(op, v);
  add_in(op, bias);
  check_f32(exec1(op), D(1, 2, 1, 2), 4, F32(11, 21, 11, 21));
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(bias);
}

TEST(equal_with_incompatible_shapes_allowed) {
  TFE_TensorHandle *x, *y;
  TFE_Op* op;
  setup();
  x = th(TF_INT32, D(2), 1, I32(1, 2));
  y = th(TF_INT32, D(3), 1, I32(1, 2, 3));
  op = new_op("Equal");
  add_in(op, x);
  add_in(op, y);
  TFE_OpSetAttrBool(op, "incompatible_shape_error", 0);
  check_i32(exec1(op), TF_BOOL, NULL, 0, I32(0));
  setup();
  op = new_op("NotEqual");
  add_in(op, x);
  add_in(op, y);
  CHECK(exec1(op) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
}

TEST(no_handles_or_tensors_leak) {
  int64_t h0, t0;
  int i;
  TFE_TensorHandle *x, *y;
  setup();
  h0 = TFE_LiveObjectCount(TFE_OBJ_TENSOR_HANDLE);
  t0 = TFE_LiveObjectCount(TFE_OBJ_TENSOR);
  x = th(TF_FLOAT, D(3), 1, F32(1, 2, 3));
  y = th(TF_FLOAT, NULL, 0, F32(2));
  for (i = 0; i < 100; i++) {
    TFE_Op* op = new_op(i % 2 ? "Maximum" : "SquaredDifference");
    add_in(op, x);
    add_in(op, y);
    TF_DeleteTensor(exec1(op));
  }
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR_HANDLE), h0);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_TENSOR), t0);
}

TFE_TEST_MAIN
