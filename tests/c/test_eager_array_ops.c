/* Array, reduction and matrix ops through the public eager API
 * (TFE_NewOp / TFE_OpAddInput / attrs / TFE_Execute / resolve): attr
 * inference for list inputs, defaults, every output of multi-output ops,
 * kernel errors surfacing with TF's codes, and nothing leaking. */
#include <math.h>
#include <stdarg.h>

#include "eager_test_util.h"

static TF_Status* S;
static TFE_Context* C;

static void setup(void) {
  if (S == NULL) S = TF_NewStatus();
  if (C == NULL) C = new_ctx(S);
}

static TFE_TensorHandle* hf32(const int64_t* dims, int nd, const float* v) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return make_handle(TF_FLOAT, dims, nd, v, (size_t)n * sizeof(float), S);
}

static TFE_TensorHandle* hi32(const int64_t* dims, int nd, const int32_t* v) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return make_handle(TF_INT32, dims, nd, v, (size_t)n * sizeof(int32_t), S);
}

/* Checks a float handle's shape and values. */
static void expect_f32(TFE_TensorHandle* h, const int64_t* dims, int nd,
                       const float* want) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, S);
  int64_t n = 1;
  int i;
  CHECK_CODE(S, TF_OK);
  CHECK_EQ_INT(TF_TensorType(t), TF_FLOAT);
  CHECK_EQ_INT(TF_NumDims(t), nd);
  for (i = 0; i < nd; i++) {
    CHECK_EQ_INT(TF_Dim(t, i), dims[i]);
    n *= dims[i];
  }
  for (i = 0; i < n; i++) {
    float g = ((const float*)TF_TensorData(t))[i];
    if (g != want[i]) TFE_FAIL("element %d: %g, want %g", i, g, want[i]);
  }
  TF_DeleteTensor(t);
}

TEST(concat_infers_n_t_tidx_and_sum_keep_dims) {
  live_counts before;
  TFE_TensorHandle *a, *b, *ax, *list[2], *out[1], *cat, *sum;
  TFE_Op* op;
  int n = 1;
  setup();
  before = live_now();
  a = hf32((const int64_t[]){2, 2}, 2, (const float[]){1, 2, 3, 4});
  b = hf32((const int64_t[]){2, 1}, 2, (const float[]){5, 6});
  ax = scalar_i32(-1, S);
  list[0] = a;
  list[1] = b;
  op = TFE_NewOp(C, "ConcatV2", S);
  CHECK_CODE(S, TF_OK);
  TFE_OpAddInputList(op, list, 2, S);
  TFE_OpAddInput(op, ax, S);
  TFE_Execute(op, out, &n, S);
  CHECK_CODE(S, TF_OK);
  TFE_DeleteOp(op);
  cat = out[0];
  expect_f32(cat, (const int64_t[]){2, 3}, 2, (const float[]){1, 2, 5, 3, 4, 6});
  /* Sum over axis 1 with keep_dims */
  op = TFE_NewOp(C, "Sum", S);
  TFE_OpAddInput(op, cat, S);
  {
    TFE_TensorHandle* axes =
        hi32((const int64_t[]){1}, 1, (const int32_t[]){1});
    TFE_OpAddInput(op, axes, S);
    TFE_OpSetAttrBool(op, "keep_dims", 1);
    n = 1;
    TFE_Execute(op, out, &n, S);
    CHECK_CODE(S, TF_OK);
    TFE_DeleteTensorHandle(axes);
  }
  TFE_DeleteOp(op);
  sum = out[0];
  expect_f32(sum, (const int64_t[]){2, 1}, 2, (const float[]){8, 13});
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(cat);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(ax);
  {
    live_counts after = live_now();
    CHECK_EQ_INT(after.handles, before.handles);
    CHECK_EQ_INT(after.tensors, before.tensors);
  }
}

TEST(matmul_transpose_attr_and_size_error) {
  TFE_TensorHandle *m, *r, *x;
  setup();
  m = hf32((const int64_t[]){2, 2}, 2, (const float[]){1, 2, 3, 4});
  {
    TFE_TensorHandle* out[1];
    int n = 1;
    TFE_Op* op = TFE_NewOp(C, "MatMul", S);
    TFE_OpAddInput(op, m, S);
    TFE_OpAddInput(op, m, S);
    TFE_OpSetAttrBool(op, "transpose_a", 1);
    TFE_Execute(op, out, &n, S);
    CHECK_CODE(S, TF_OK);
    TFE_DeleteOp(op);
    r = out[0];
  }
  expect_f32(r, (const int64_t[]){2, 2}, 2, (const float[]){10, 14, 14, 20});
  TFE_DeleteTensorHandle(r);
  x = hf32((const int64_t[]){2, 3}, 2, (const float[]){1, 2, 3, 4, 5, 6});
  CHECK(binary(C, "MatMul", x, x, NULL, S) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S),
                     "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3]");
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(m);
}

TEST(reshape_errors_surface_with_codes) {
  TFE_TensorHandle *x, *s1, *s2;
  setup();
  x = hf32((const int64_t[]){2, 3}, 2, (const float[]){1, 2, 3, 4, 5, 6});
  s1 = hi32((const int64_t[]){2}, 1, (const int32_t[]){4, 4});
  s2 = hi32((const int64_t[]){2}, 1, (const int32_t[]){-1, -1});
  CHECK(binary(C, "Reshape", x, s1, NULL, S) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "tensor with 6 values");
  CHECK(binary(C, "Reshape", x, s2, NULL, S) == NULL);
  CHECK_CODE(S, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(S), "Only one input size may be -1");
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(s1);
  TFE_DeleteTensorHandle(s2);
}

TEST(unpack_and_split_multiple_outputs) {
  TFE_TensorHandle *x, *out[3];
  TFE_Op* op;
  int n = 3;
  setup();
  x = hf32((const int64_t[]){3, 2}, 2, (const float[]){1, 2, 3, 4, 5, 6});
  op = TFE_NewOp(C, "Unpack", S);
  TFE_OpAddInput(op, x, S);
  TFE_OpSetAttrInt(op, "num", 3);
  TFE_Execute(op, out, &n, S);
  CHECK_CODE(S, TF_OK);
  CHECK_EQ_INT(n, 3);
  TFE_DeleteOp(op);
  expect_f32(out[2], (const int64_t[]){2}, 1, (const float[]){5, 6});
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(out[1]);
  TFE_DeleteTensorHandle(out[2]);
  {
    TFE_TensorHandle* dim = scalar_i32(1, S);
    n = 2;
    op = TFE_NewOp(C, "Split", S);
    TFE_OpAddInput(op, dim, S);
    TFE_OpAddInput(op, x, S);
    TFE_OpSetAttrInt(op, "num_split", 2);
    TFE_Execute(op, out, &n, S);
    CHECK_CODE(S, TF_OK);
    TFE_DeleteOp(op);
    expect_f32(out[1], (const int64_t[]){3, 1}, 2, (const float[]){2, 4, 6});
    TFE_DeleteTensorHandle(out[0]);
    TFE_DeleteTensorHandle(out[1]);
    TFE_DeleteTensorHandle(dim);
  }
  TFE_DeleteTensorHandle(x);
}

TEST(strided_slice_masks_via_attrs) {
  TFE_TensorHandle *x, *b, *e, *st, *out[1];
  TFE_Op* op;
  int n = 1;
  setup();
  x = hf32((const int64_t[]){3, 2}, 2, (const float[]){1, 2, 3, 4, 5, 6});
  b = hi32((const int64_t[]){2}, 1, (const int32_t[]){0, 1});
  e = hi32((const int64_t[]){2}, 1, (const int32_t[]){0, 2});
  st = hi32((const int64_t[]){2}, 1, (const int32_t[]){-1, 1});
  op = TFE_NewOp(C, "StridedSlice", S);
  TFE_OpAddInput(op, x, S);
  TFE_OpAddInput(op, b, S);
  TFE_OpAddInput(op, e, S);
  TFE_OpAddInput(op, st, S);
  TFE_OpSetAttrInt(op, "begin_mask", 1);
  TFE_OpSetAttrInt(op, "end_mask", 1);
  TFE_OpSetAttrInt(op, "shrink_axis_mask", 2);
  TFE_Execute(op, out, &n, S);
  CHECK_CODE(S, TF_OK);
  TFE_DeleteOp(op);
  /* x[::-1, 1] */
  expect_f32(out[0], (const int64_t[]){3}, 1, (const float[]){6, 4, 2});
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(e);
  TFE_DeleteTensorHandle(st);
}

TEST(teardown) {
  setup();
  TFE_DeleteContext(C);
  C = NULL;
  TF_DeleteStatus(S);
  S = NULL;
}

TFE_TEST_MAIN
