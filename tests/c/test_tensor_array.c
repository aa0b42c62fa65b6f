/* TF 1's TensorArray ops (TensorArrayV3 and the ops on its handle), run
 * eagerly and in a graph session, with TensorFlow 2.21's semantics and
 * messages (checked against TF 2.21 running the same ops in a
 * tf.compat.v1 session): writes, reads (zeros for an unwritten index of a
 * fully known element shape), clear_after_read, dynamic_size,
 * identical_element_shapes, gather/scatter/concat/split, size, close,
 * gradient arrays, and the errors; and the TF 1 stack ops (StackV2 & co.)
 * that gradients of v1 while loops use. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"
#include "tensorflow/c/c_api.h"

/* ---- eager helpers ---- */

typedef struct ta_opts {
  int32_t size;
  int shape_rank; /* -2: leave element_shape at its default */
  int64_t shape[4];
  int dynamic_size, clear_after_read, identical;
  TF_DataType dtype;
  const char* name;
} ta_opts;

static ta_opts opts(int32_t size) {
  ta_opts o;
  memset(&o, 0, sizeof o);
  o.size = size;
  o.shape_rank = -2;
  o.clear_after_read = 1;
  o.dtype = TF_FLOAT;
  o.name = "ta";
  return o;
}

/* Makes a TensorArray; *flow gets the flow output. */
static TFE_TensorHandle* make_ta(TFE_Context* ctx, const ta_opts* o,
                                 TFE_TensorHandle** flow, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, "TensorArrayV3", s);
  TFE_TensorHandle* size;
  TFE_TensorHandle* out[2] = {NULL, NULL};
  int n = 2;
  CHECK_CODE(s, TF_OK);
  size = scalar_i32(o->size, s);
  TFE_OpAddInput(op, size, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrType(op, "dtype", o->dtype);
  if (o->shape_rank != -2) {
    TFE_OpSetAttrShape(op, "element_shape", o->shape, o->shape_rank, s);
    CHECK_CODE(s, TF_OK);
  }
  TFE_OpSetAttrBool(op, "dynamic_size", (unsigned char)o->dynamic_size);
  TFE_OpSetAttrBool(op, "clear_after_read",
                    (unsigned char)o->clear_after_read);
  TFE_OpSetAttrBool(op, "identical_element_shapes",
                    (unsigned char)o->identical);
  TFE_OpSetAttrString(op, "tensor_array_name", o->name, strlen(o->name));
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(size);
  if (TF_GetCode(s) != TF_OK) return NULL;
  CHECK_EQ_INT(n, 2);
  *flow = out[1];
  return out[0];
}

/* Runs op with the given inputs; attr_name/attr_type set one type attr
 * (NULL: none); shape_attr sets one shape attr (rank -2: none). Returns
 * the code; outputs go to outs. */
static TF_Code run(TFE_Context* ctx, const char* name,
                   TFE_TensorHandle* const* ins, int nin, const char* tattr,
                   TF_DataType t, const char* sattr, const int64_t* dims,
                   int rank, TFE_TensorHandle** outs, int nout,
                   TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  int i, n = nout;
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < nin; i++) {
    TFE_OpAddInput(op, ins[i], s);
    CHECK_CODE(s, TF_OK);
  }
  if (tattr != NULL) TFE_OpSetAttrType(op, tattr, t);
  if (sattr != NULL && rank != -2) {
    TFE_OpSetAttrShape(op, sattr, dims, rank, s);
    CHECK_CODE(s, TF_OK);
  }
  for (i = 0; i < nout; i++) outs[i] = NULL;
  TFE_Execute(op, outs, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s);
}

static TFE_TensorHandle* vec_f32(const float* v, int64_t n, TF_Status* s) {
  return make_handle(TF_FLOAT, &n, 1, v, sizeof(float) * (size_t)n, s);
}

static TFE_TensorHandle* vec_i32(const int32_t* v, int64_t n, TF_Status* s) {
  return make_handle(TF_INT32, &n, 1, v, sizeof(int32_t) * (size_t)n, s);
}

/* Writes value at index; returns the code (the new flow replaces *flow). */
static TF_Code ta_write(TFE_Context* ctx, TFE_TensorHandle* h,
                        TFE_TensorHandle** flow, int32_t index,
                        TFE_TensorHandle* value, TF_Status* s) {
  TFE_TensorHandle* idx = scalar_i32(index, s);
  TFE_TensorHandle* ins[4];
  TFE_TensorHandle* out[1];
  TF_Code c;
  ins[0] = h;
  ins[1] = idx;
  ins[2] = value;
  ins[3] = *flow;
  c = run(ctx, "TensorArrayWriteV3", ins, 4, NULL, TF_FLOAT, NULL, NULL, -2,
          out, 1, s);
  TFE_DeleteTensorHandle(idx);
  if (c == TF_OK) {
    TFE_DeleteTensorHandle(*flow);
    *flow = out[0];
  }
  return c;
}

static TF_Code ta_write_f32s(TFE_Context* ctx, TFE_TensorHandle* h,
                             TFE_TensorHandle** flow, int32_t index,
                             const float* v, int64_t n, TF_Status* s) {
  TF_Status* s2 = TF_NewStatus();
  TFE_TensorHandle* value = vec_f32(v, n, s2);
  TF_Code c = ta_write(ctx, h, flow, index, value, s);
  TFE_DeleteTensorHandle(value);
  TF_DeleteStatus(s2);
  return c;
}

static TF_Code ta_read(TFE_Context* ctx, TFE_TensorHandle* h,
                       TFE_TensorHandle* flow, int32_t index, TF_DataType dt,
                       TFE_TensorHandle** out, TF_Status* s) {
  TFE_TensorHandle* idx = scalar_i32(index, s);
  TFE_TensorHandle* ins[3];
  TF_Code c;
  ins[0] = h;
  ins[1] = idx;
  ins[2] = flow;
  c = run(ctx, "TensorArrayReadV3", ins, 3, "dtype", dt, NULL, NULL, -2, out,
          1, s);
  TFE_DeleteTensorHandle(idx);
  return c;
}

static TF_Code ta_gather(TFE_Context* ctx, TFE_TensorHandle* h,
                         TFE_TensorHandle* flow, const int32_t* idx, int n,
                         const int64_t* dims, int rank, TFE_TensorHandle** out,
                         TF_Status* s) {
  TF_Status* s2 = TF_NewStatus();
  TFE_TensorHandle* ix = vec_i32(idx, n, s2);
  TFE_TensorHandle* ins[3];
  TF_Code c;
  ins[0] = h;
  ins[1] = ix;
  ins[2] = flow;
  c = run(ctx, "TensorArrayGatherV3", ins, 3, "dtype", TF_FLOAT,
          "element_shape", dims, rank, out, 1, s);
  TFE_DeleteTensorHandle(ix);
  TF_DeleteStatus(s2);
  return c;
}

static int32_t ta_size(TFE_Context* ctx, TFE_TensorHandle* h,
                       TFE_TensorHandle* flow, TF_Status* s) {
  TFE_TensorHandle* ins[2];
  TFE_TensorHandle* out[1];
  int32_t v;
  ins[0] = h;
  ins[1] = flow;
  if (run(ctx, "TensorArraySizeV3", ins, 2, NULL, TF_FLOAT, NULL, NULL, -2,
          out, 1, s) != TF_OK) {
    return -1;
  }
  v = read_i32(out[0], s);
  TFE_DeleteTensorHandle(out[0]);
  return v;
}

/* Copies a float handle's values into v (n of them); checks the shape. */
static void check_f32(TFE_TensorHandle* h, const int64_t* dims, int rank,
                      const float* want, int n) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  int i;
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_FLOAT);
  CHECK_EQ_INT(TF_NumDims(t), rank);
  for (i = 0; i < rank; i++) CHECK_EQ_INT(TF_Dim(t, i), dims[i]);
  for (i = 0; i < n; i++) {
    if (((const float*)TF_TensorData(t))[i] != want[i]) {
      TFE_FAIL("element %d: %g, want %g", i,
               (double)((const float*)TF_TensorData(t))[i], (double)want[i]);
    }
  }
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
}

/* ---- eager tests ---- */

TEST(write_read_gather_size) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  ta_opts o = opts(3);
  TFE_TensorHandle *flow, *h, *out[1];
  static const float a[2] = {1, 2}, b[2] = {3, 4};
  static const int32_t idx[2] = {2, 0};
  o.shape_rank = 1;
  o.shape[0] = 2;
  o.clear_after_read = 0;
  h = make_ta(ctx, &o, &flow, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(read_f32(flow, s), 0);
  CHECK_EQ_INT(ta_size(ctx, h, flow, s), 3);
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 0, a, 2, s), TF_OK);
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 2, b, 2, s), TF_OK);
  /* Read index 0 twice (clear_after_read off). */
  CHECK_EQ_INT(ta_read(ctx, h, flow, 0, TF_FLOAT, out, s), TF_OK);
  {
    int64_t d[1] = {2};
    check_f32(out[0], d, 1, a, 2);
  }
  TFE_DeleteTensorHandle(out[0]);
  CHECK_EQ_INT(ta_read(ctx, h, flow, 0, TF_FLOAT, out, s), TF_OK);
  TFE_DeleteTensorHandle(out[0]);
  /* Index 1 was never written: zeros of the element shape. */
  CHECK_EQ_INT(ta_read(ctx, h, flow, 1, TF_FLOAT, out, s), TF_OK);
  {
    int64_t d[1] = {2};
    static const float z[2] = {0, 0};
    check_f32(out[0], d, 1, z, 2);
  }
  TFE_DeleteTensorHandle(out[0]);
  CHECK_EQ_INT(ta_gather(ctx, h, flow, idx, 2, NULL, -2, out, s), TF_OK);
  {
    int64_t d[2] = {2, 2};
    static const float w[4] = {3, 4, 1, 2};
    check_f32(out[0], d, 2, w, 4);
  }
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(flow);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(write_and_read_errors_match_tf) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  ta_opts o = opts(2);
  TFE_TensorHandle *flow, *h, *out[1], *v;
  static const float a[2] = {1, 2};
  h = make_ta(ctx, &o, &flow, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 0, a, 2, s), TF_OK);
  /* Writing an index twice. */
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 0, a, 2, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "TensorArray ta_");
  CHECK_STR_CONTAINS(TF_Message(s),
                     ": Could not write to TensorArray index 0 because it has "
                     "already been written to.");
  /* Outside a fixed size. */
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 3, a, 2, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     ": Tried to write to index 3 but array is not resizeable "
                     "and size is: 2");
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, -1, a, 2, s),
               TF_INVALID_ARGUMENT);
  /* Wrong dtype. */
  v = scalar_i32(7, s);
  CHECK_EQ_INT(ta_write(ctx, h, &flow, 1, v, s), TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "TensorArray dtype is float but Op is trying to write dtype "
               "int32.");
  TFE_DeleteTensorHandle(v);
  CHECK_EQ_INT(ta_read(ctx, h, flow, 0, TF_INT32, out, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "TensorArray dtype is float but Op requested dtype int32.");
  /* Out of range and unwritten (element shape unknown) reads. */
  CHECK_EQ_INT(ta_read(ctx, h, flow, 5, TF_FLOAT, out, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Tried to read from index 5 but array size is: 2");
  CHECK_EQ_INT(ta_read(ctx, h, flow, 1, TF_FLOAT, out, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     ": Could not read from TensorArray index 1.  "
                     "Furthermore, the element shape is not fully defined: "
                     "<unknown>.  It is possible");
  /* clear_after_read (the default): a second read fails, and so does a
   * write after a read. */
  CHECK_EQ_INT(ta_read(ctx, h, flow, 0, TF_FLOAT, out, s), TF_OK);
  TFE_DeleteTensorHandle(out[0]);
  CHECK_EQ_INT(ta_read(ctx, h, flow, 0, TF_FLOAT, out, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     ": Could not read index 0 twice because it was cleared "
                     "after a previous read (perhaps try setting "
                     "clear_after_read = false?).");
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 0, a, 2, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "because it has already been read.");
  /* A non-scalar index. */
  {
    static const int32_t two[2] = {0, 1};
    TFE_TensorHandle* ix = vec_i32(two, 2, s);
    TFE_TensorHandle* ins[3];
    ins[0] = h;
    ins[1] = ix;
    ins[2] = flow;
    CHECK_EQ_INT(run(ctx, "TensorArrayReadV3", ins, 3, "dtype", TF_FLOAT,
                     NULL, NULL, -2, out, 1, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s),
                 "TensorArray index must be scalar, but had shape: [2]");
    TFE_DeleteTensorHandle(ix);
  }
  /* Close: everything after it fails. */
  {
    TFE_TensorHandle* ins[1];
    ins[0] = h;
    CHECK_EQ_INT(run(ctx, "TensorArrayCloseV3", ins, 1, NULL, TF_FLOAT, NULL,
                     NULL, -2, out, 0, s),
                 TF_OK);
  }
  CHECK_EQ_INT(ta_size(ctx, h, flow, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), " has already been closed.");
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 1, a, 2, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), " has already been closed.");
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(flow);
  /* Bad sizes. */
  o = opts(-1);
  CHECK(make_ta(ctx, &o, &flow, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Size should be >= 0.");
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(dynamic_size_and_identical_shapes) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  ta_opts o = opts(0);
  TFE_TensorHandle *flow, *h;
  static const float a[2] = {1, 2}, c[1] = {5};
  o.dynamic_size = 1;
  h = make_ta(ctx, &o, &flow, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(ta_size(ctx, h, flow, s), 0);
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 3, a, 2, s), TF_OK);
  CHECK_EQ_INT(ta_size(ctx, h, flow, s), 4);
  /* Without identical_element_shapes other shapes are fine. */
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 0, c, 1, s), TF_OK);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(flow);
  o = opts(2);
  o.identical = 1;
  h = make_ta(ctx, &o, &flow, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 0, a, 2, s), TF_OK);
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 1, c, 1, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     ": Could not write to TensorArray index 1 because the "
                     "value shape is [1] which is incompatible with the "
                     "TensorArray's inferred element shape: [2] (consider "
                     "setting infer_shape=False).");
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(flow);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(scatter_split_concat_gather) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  ta_opts o = opts(2);
  TFE_TensorHandle *flow, *h, *out[2], *ins[4], *val, *ix, *len;
  static const float v6[6] = {1, 2, 3, 4, 5, 6};
  static const int32_t sidx[3] = {2, 0, 1};
  static const int32_t all3[3] = {0, 1, 2};
  /* Split [1,2,3] by lengths [1,2], then concat back. */
  h = make_ta(ctx, &o, &flow, s);
  CHECK_CODE(s, TF_OK);
  {
    int64_t n3 = 3, n2 = 2;
    static const int64_t lengths[2] = {1, 2};
    val = make_handle(TF_FLOAT, &n3, 1, v6, 3 * sizeof(float), s);
    len = make_handle(TF_INT64, &n2, 1, lengths, sizeof lengths, s);
  }
  ins[0] = h;
  ins[1] = val;
  ins[2] = len;
  ins[3] = flow;
  CHECK_EQ_INT(run(ctx, "TensorArraySplitV3", ins, 4, NULL, TF_FLOAT, NULL,
                   NULL, -2, out, 1, s),
               TF_OK);
  TFE_DeleteTensorHandle(flow);
  flow = out[0];
  ins[1] = flow;
  CHECK_EQ_INT(run(ctx, "TensorArrayConcatV3", ins, 2, "dtype", TF_FLOAT,
                   NULL, NULL, -2, out, 2, s),
               TF_OK);
  {
    int64_t d3[1] = {3};
    TF_Tensor* lt = TFE_TensorHandleResolve(out[1], s);
    check_f32(out[0], d3, 1, v6, 3);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_Dim(lt, 0), 2);
    CHECK_EQ_INT(((const int64_t*)TF_TensorData(lt))[0], 1);
    CHECK_EQ_INT(((const int64_t*)TF_TensorData(lt))[1], 2);
    TF_DeleteTensor(lt);
  }
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(out[1]);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(flow);
  /* Split with lengths that do not match a fixed size. */
  o = opts(3);
  h = make_ta(ctx, &o, &flow, s);
  CHECK_CODE(s, TF_OK);
  ins[0] = h;
  ins[1] = val;
  ins[2] = len;
  ins[3] = flow;
  CHECK_EQ_INT(run(ctx, "TensorArraySplitV3", ins, 4, NULL, TF_FLOAT, NULL,
                   NULL, -2, out, 1, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "TensorArray's size is not equal to the size of lengths (3 vs. "
               "2), and the TensorArray is not marked as dynamically "
               "resizeable");
  TFE_DeleteTensorHandle(val);
  TFE_DeleteTensorHandle(len);
  /* Scatter rows of a [3,2] value to indices [2,0,1], gather all. */
  {
    int64_t d[2] = {3, 2};
    val = make_handle(TF_FLOAT, d, 2, v6, sizeof v6, s);
  }
  ix = vec_i32(sidx, 3, s);
  ins[1] = ix;
  ins[2] = val;
  CHECK_EQ_INT(run(ctx, "TensorArrayScatterV3", ins, 4, NULL, TF_FLOAT, NULL,
                   NULL, -2, out, 1, s),
               TF_OK);
  TFE_DeleteTensorHandle(flow);
  flow = out[0];
  CHECK_EQ_INT(ta_gather(ctx, h, flow, all3, 3, NULL, -2, out, s), TF_OK);
  {
    int64_t d[2] = {3, 2};
    static const float w[6] = {3, 4, 5, 6, 1, 2};
    check_f32(out[0], d, 2, w, 6);
  }
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(ix);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(flow);
  /* Scatter past a fixed size. */
  o = opts(2);
  h = make_ta(ctx, &o, &flow, s);
  CHECK_CODE(s, TF_OK);
  {
    static const int32_t bad[3] = {0, 5, 1};
    ix = vec_i32(bad, 3, s);
  }
  ins[0] = h;
  ins[1] = ix;
  ins[2] = val;
  ins[3] = flow;
  CHECK_EQ_INT(run(ctx, "TensorArrayScatterV3", ins, 4, NULL, TF_FLOAT, NULL,
                   NULL, -2, out, 1, s),
               TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s),
               "Max scatter index must be < array size (5 vs. 2)");
  TFE_DeleteTensorHandle(ix);
  TFE_DeleteTensorHandle(val);
  /* Gather of inconsistent shapes. */
  {
    static const float one[1] = {1};
    static const int32_t both[2] = {0, 1};
    CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 0, one, 1, s), TF_OK);
    CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 1, v6, 2, s), TF_OK);
    CHECK_EQ_INT(ta_gather(ctx, h, flow, both, 2, NULL, -2, out, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s),
                 "TensorArray has inconsistent shapes.  Index 0 has shape: "
                 "[1] but index 1 has shape: [2]");
  }
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(flow);
  /* Empty gathers: a known element shape gives [0, ...]; else
   * UNIMPLEMENTED. */
  o = opts(0);
  h = make_ta(ctx, &o, &flow, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(ta_gather(ctx, h, flow, NULL, 0, NULL, -2, out, s),
               TF_UNIMPLEMENTED);
  CHECK_STR_EQ(TF_Message(s),
               "TensorArray has size zero, but element shape <unknown> is not "
               "fully defined. Currently only static shapes are supported "
               "when packing zero-size TensorArrays.");
  {
    int64_t three[1] = {3}, d[2] = {0, 3};
    CHECK_EQ_INT(ta_gather(ctx, h, flow, NULL, 0, three, 1, out, s), TF_OK);
    check_f32(out[0], d, 2, NULL, 0);
    TFE_DeleteTensorHandle(out[0]);
    /* The gather's shape merged into the array's: [2] no longer fits. */
    three[0] = 2;
    CHECK_EQ_INT(ta_gather(ctx, h, flow, NULL, 0, three, 1, out, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s),
                 "PartialTensorShape: Incompatible shapes during merge: [3] "
                 "vs. [2]");
  }
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(flow);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(gradient_arrays) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  ta_opts o = opts(2);
  TFE_TensorHandle *flow, *h, *out[2], *ins[2], *gh, *gf, *gh2;
  static const float a[2] = {1, 2}, b[2] = {3, 4}, one[2] = {1, 1};
  static const int32_t both[2] = {0, 1};
  TFE_Op* op;
  int n;
  o.dynamic_size = 1;
  h = make_ta(ctx, &o, &flow, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 0, a, 2, s), TF_OK);
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 1, b, 2, s), TF_OK);
  op = TFE_NewOp(ctx, "TensorArrayGradV3", s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, h, s);
  TFE_OpAddInput(op, flow, s);
  TFE_OpSetAttrString(op, "source", "gradients", 9);
  n = 2;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  gh = out[0];
  gf = out[1];
  /* The same source gives the same array. */
  n = 2;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  gh2 = out[0];
  TFE_DeleteTensorHandle(out[1]);
  TFE_DeleteOp(op);
  /* Two writes to one index add up; the unwritten index reads as zeros of
   * the forward value's shape. */
  CHECK_EQ_INT(ta_write_f32s(ctx, gh, &gf, 0, one, 2, s), TF_OK);
  CHECK_EQ_INT(ta_write_f32s(ctx, gh2, &gf, 0, a, 2, s), TF_OK);
  /* A mismatching aggregate (index 1 holds the shape [2] only). */
  {
    static const float three[3] = {1, 2, 3};
    CHECK_EQ_INT(ta_write_f32s(ctx, gh, &gf, 1, three, 3, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "@gradients: Could not aggregate to TensorArray index "
                       "1 because the existing shape is [2] but the new input "
                       "shape is [3].");
  }
  CHECK_EQ_INT(ta_gather(ctx, gh, gf, both, 2, NULL, -2, out, s), TF_OK);
  {
    int64_t d[2] = {2, 2};
    static const float w[4] = {2, 3, 0, 0};
    check_f32(out[0], d, 2, w, 4);
  }
  TFE_DeleteTensorHandle(out[0]);
  /* The forward array can no longer grow. */
  CHECK_EQ_INT(ta_write_f32s(ctx, h, &flow, 5, a, 2, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "array is not resizeable and size is: 2");
  ins[0] = h;
  ins[1] = flow;
  CHECK_EQ_INT(ta_size(ctx, h, flow, s), 2);
  TFE_DeleteTensorHandle(gh);
  TFE_DeleteTensorHandle(gh2);
  TFE_DeleteTensorHandle(gf);
  /* TensorArrayGradWithShape prepends dims to the element shapes. */
  {
    static const int32_t prep[1] = {3};
    TFE_TensorHandle* p = vec_i32(prep, 1, s);
    op = TFE_NewOp(ctx, "TensorArrayGradWithShape", s);
    CHECK_CODE(s, TF_OK);
    TFE_OpAddInput(op, h, s);
    TFE_OpAddInput(op, flow, s);
    TFE_OpAddInput(op, p, s);
    TFE_OpSetAttrString(op, "source", "g2", 2);
    n = 2;
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteOp(op);
    TFE_DeleteTensorHandle(p);
    gh = out[0];
    gf = out[1];
    CHECK_EQ_INT(ta_read(ctx, gh, gf, 1, TF_FLOAT, out, s), TF_OK);
    {
      int64_t d[2] = {3, 2};
      static const float z[6] = {0, 0, 0, 0, 0, 0};
      check_f32(out[0], d, 2, z, 6);
    }
    TFE_DeleteTensorHandle(out[0]);
    TFE_DeleteTensorHandle(gh);
    TFE_DeleteTensorHandle(gf);
  }
  (void)ins;
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(flow);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(string_elements_and_wrong_handles) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  ta_opts o = opts(2);
  TFE_TensorHandle *flow, *h, *out[1], *v, *ins[2];
  static const int32_t both[2] = {1, 0};
  TF_Tensor* t;
  int i;
  o.dtype = TF_STRING;
  h = make_ta(ctx, &o, &flow, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 2; i++) {
    static const char* const words[2] = {"a fairly long string, not inline",
                                         "b"};
    TF_Tensor* st = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
    TF_TString_Copy((TF_TString*)TF_TensorData(st), words[i],
                    strlen(words[i]));
    v = TFE_NewTensorHandle(st, s);
    TF_DeleteTensor(st);
    CHECK_EQ_INT(ta_write(ctx, h, &flow, i, v, s), TF_OK);
    TFE_DeleteTensorHandle(v);
  }
  {
    TF_Status* s2 = TF_NewStatus();
    TFE_TensorHandle* ix = vec_i32(both, 2, s2);
    TFE_TensorHandle* gins[3];
    gins[0] = h;
    gins[1] = ix;
    gins[2] = flow;
    CHECK_EQ_INT(run(ctx, "TensorArrayGatherV3", gins, 3, "dtype", TF_STRING,
                     NULL, NULL, -2, out, 1, s),
                 TF_OK);
    TFE_DeleteTensorHandle(ix);
    TF_DeleteStatus(s2);
  }
  t = TFE_TensorHandleResolve(out[0], s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_Dim(t, 0), 2);
  {
    const TF_TString* w = (const TF_TString*)TF_TensorData(t);
    CHECK_EQ_INT(TF_TString_GetSize(&w[0]), 1);
    CHECK(memcmp(TF_TString_GetDataPointer(&w[1]), "a fairly long", 13) == 0);
  }
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out[0]);
  /* A handle that is not a TensorArray's. */
  v = scalar_f32(1, s);
  ins[0] = v;
  ins[1] = flow;
  CHECK_EQ_INT(run(ctx, "TensorArraySizeV3", ins, 2, NULL, TF_FLOAT, NULL,
                   NULL, -2, out, 1, s),
               TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(v);
  {
    TFE_Op* op = TFE_NewOp(ctx, "VarHandleOp", s);
    int n = 1;
    CHECK_CODE(s, TF_OK);
    TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
    TFE_OpSetAttrShape(op, "shape", NULL, 0, s);
    TFE_OpSetAttrString(op, "shared_name", "v", 1);
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteOp(op);
    ins[0] = out[0];
    v = out[0];
    CHECK_EQ_INT(run(ctx, "TensorArraySizeV3", ins, 2, NULL, TF_FLOAT, NULL,
                     NULL, -2, out, 1, s),
                 TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "as a TensorArray, but it is not one");
    TFE_DeleteTensorHandle(v);
  }
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(flow);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

/* ---- TF 1 stacks (what v1 while-loop gradients use) ---- */

static TFE_TensorHandle* make_stack(TFE_Context* ctx, int32_t max_size,
                                    TF_Status* s) {
  TFE_TensorHandle* ms = scalar_i32(max_size, s);
  TFE_TensorHandle* out[1];
  TFE_Op* op = TFE_NewOp(ctx, "StackV2", s);
  int n = 1;
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, ms, s);
  TFE_OpSetAttrType(op, "elem_type", TF_FLOAT);
  TFE_OpSetAttrString(op, "stack_name", "st", 2);
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(ms);
  return TF_GetCode(s) == TF_OK ? out[0] : NULL;
}

static TF_Code push(TFE_Context* ctx, TFE_TensorHandle* st,
                    TFE_TensorHandle* v, TF_Status* s) {
  TFE_TensorHandle* ins[2];
  TFE_TensorHandle* out[1];
  TF_Code c;
  ins[0] = st;
  ins[1] = v;
  c = run(ctx, "StackPushV2", ins, 2, NULL, TF_FLOAT, NULL, NULL, -2, out, 1,
          s);
  if (c == TF_OK) TFE_DeleteTensorHandle(out[0]);
  return c;
}

static TF_Code pop(TFE_Context* ctx, TFE_TensorHandle* st, float* v,
                   TF_Status* s) {
  TFE_TensorHandle* out[1];
  TF_Code c = run(ctx, "StackPopV2", &st, 1, "elem_type", TF_FLOAT, NULL,
                  NULL, -2, out, 1, s);
  if (c == TF_OK) {
    TF_Status* s2 = TF_NewStatus();
    *v = read_f32(out[0], s2);
    TFE_DeleteTensorHandle(out[0]);
    TF_DeleteStatus(s2);
  }
  return c;
}

TEST(stacks_push_pop_close) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* st = make_stack(ctx, 2, s);
  TFE_TensorHandle *one, *two, *i;
  TFE_TensorHandle* out[1];
  float v = 0;
  CHECK_CODE(s, TF_OK);
  one = scalar_f32(1, s);
  two = scalar_f32(2, s);
  i = scalar_i32(3, s);
  CHECK_EQ_INT(pop(ctx, st, &v, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Stack[st_");
  CHECK_STR_CONTAINS(TF_Message(s), "] is empty when calling Pop().");
  CHECK_EQ_INT(push(ctx, st, one, s), TF_OK);
  CHECK_EQ_INT(push(ctx, st, two, s), TF_OK);
  CHECK_EQ_INT(push(ctx, st, one, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "] overflowed its max_size (2)");
  /* TF names the dtypes by their enum values here. */
  CHECK_EQ_INT(push(ctx, st, i, s), TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Must have type 1 but got 3");
  CHECK_EQ_INT(pop(ctx, st, &v, s), TF_OK);
  CHECK(v == 2);
  CHECK_EQ_INT(pop(ctx, st, &v, s), TF_OK);
  CHECK(v == 1);
  CHECK_EQ_INT(push(ctx, st, two, s), TF_OK);
  CHECK_EQ_INT(run(ctx, "StackCloseV2", &st, 1, NULL, TF_FLOAT, NULL, NULL,
                   -2, out, 0, s),
               TF_OK);
  CHECK_EQ_INT(push(ctx, st, one, s), TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "] has already been closed.");
  CHECK_EQ_INT(pop(ctx, st, &v, s), TF_INVALID_ARGUMENT);
  /* A TensorArray handle is not a stack (and the reverse). */
  {
    ta_opts o = opts(1);
    TFE_TensorHandle* flow;
    TFE_TensorHandle* ta = make_ta(ctx, &o, &flow, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(push(ctx, ta, one, s), TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "as a Stack, but it is not one");
    CHECK_EQ_INT(ta_size(ctx, st, flow, s), -1);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TFE_DeleteTensorHandle(ta);
    TFE_DeleteTensorHandle(flow);
  }
  TFE_DeleteTensorHandle(st);
  /* A negative max_size: no bound. */
  st = make_stack(ctx, -1, s);
  CHECK_CODE(s, TF_OK);
  {
    int k;
    for (k = 0; k < 20; k++) CHECK_EQ_INT(push(ctx, st, one, s), TF_OK);
  }
  TFE_DeleteTensorHandle(st);
  TFE_DeleteTensorHandle(one);
  TFE_DeleteTensorHandle(two);
  TFE_DeleteTensorHandle(i);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

/* ConcatOffset: what gradients of Concat in these graphs (dynamic_rnn's
 * cells) use. Values and messages as TF 2.21's. */
TEST(concat_offset) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  static const int32_t a[3] = {2, 2, 7}, b[3] = {2, 3, 7}, c[3] = {2, 5, 7},
                       bad[3] = {3, 3, 7};
  TFE_TensorHandle *ha = vec_i32(a, 3, s), *hb = vec_i32(b, 3, s),
                   *hc = vec_i32(c, 3, s), *hbad = vec_i32(bad, 3, s);
  TFE_TensorHandle *axis, *ins[4], *out[3];
  int i;
  axis = scalar_i32(1, s);
  ins[0] = axis;
  ins[1] = ha;
  ins[2] = hb;
  ins[3] = hc;
  {
    TFE_Op* op = TFE_NewOp(ctx, "ConcatOffset", s);
    int n = 3;
    CHECK_CODE(s, TF_OK);
    TFE_OpAddInput(op, axis, s);
    TFE_OpAddInputList(op, ins + 1, 3, s);
    CHECK_CODE(s, TF_OK);
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(n, 3);
    TFE_DeleteOp(op);
  }
  for (i = 0; i < 3; i++) {
    static const int32_t want[3] = {0, 2, 5};
    TF_Tensor* t = TFE_TensorHandleResolve(out[i], s);
    const int32_t* v = (const int32_t*)TF_TensorData(t);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(v[0], 0);
    CHECK_EQ_INT(v[1], want[i]);
    CHECK_EQ_INT(v[2], 0);
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(out[i]);
  }
  {
    TFE_Op* op = TFE_NewOp(ctx, "ConcatOffset", s);
    int n = 2;
    TFE_TensorHandle* two[2];
    two[0] = ha;
    two[1] = hbad;
    TFE_OpAddInput(op, axis, s);
    TFE_OpAddInputList(op, two, 2, s);
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s),
                 "All dimensions except 1 must match. Input 1 has shape "
                 "[3 3 7] and doesn't match input 0 with shape [2 2 7].");
    TFE_DeleteOp(op);
  }
  TFE_DeleteTensorHandle(axis);
  axis = scalar_i32(3, s);
  {
    TFE_Op* op = TFE_NewOp(ctx, "ConcatOffset", s);
    int n = 2;
    TFE_OpAddInput(op, axis, s);
    TFE_OpAddInputList(op, ins + 1, 2, s);
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_EQ(TF_Message(s), "Concat dim is out of range: 3 vs. 3");
    TFE_DeleteOp(op);
  }
  TFE_DeleteTensorHandle(axis);
  TFE_DeleteTensorHandle(ha);
  TFE_DeleteTensorHandle(hb);
  TFE_DeleteTensorHandle(hc);
  TFE_DeleteTensorHandle(hbad);
  TFE_DeleteContext(ctx);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

/* ---- allocation failures ---- */

/* Runs op name on ins; one type attr (tattr, NULL: none), one bool attr
 * (battr, NULL: none), one string attr (sattr). Never asserts: returns the
 * code, and on success the outputs in outs. */
static TF_Code try_run(TFE_Context* ctx, const char* name,
                       TFE_TensorHandle* const* ins, int nin,
                       const char* tattr, TF_DataType t, const char* battr,
                       const char* sattr, TFE_TensorHandle** outs, int nout,
                       TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  int i, n = nout;
  if (op == NULL) return TF_GetCode(s);
  for (i = 0; i < nin && TF_GetCode(s) == TF_OK; i++) {
    TFE_OpAddInput(op, ins[i], s);
  }
  if (TF_GetCode(s) == TF_OK && tattr != NULL) TFE_OpSetAttrType(op, tattr, t);
  if (TF_GetCode(s) == TF_OK && battr != NULL) TFE_OpSetAttrBool(op, battr, 0);
  if (TF_GetCode(s) == TF_OK && sattr != NULL) {
    TFE_OpSetAttrString(op, sattr, "src", 3);
  }
  for (i = 0; i < nout; i++) outs[i] = NULL;
  if (TF_GetCode(s) == TF_OK) TFE_Execute(op, outs, &n, s);
  TFE_DeleteOp(op);
  return TF_GetCode(s);
}

#define KEEP_MAX 24

/* Runs every TensorArray and stack op once; returns the first failure's
 * code (TF_OK when all ran). Every handle made is deleted. */
static TF_Code ta_sequence(TFE_Context* ctx, TFE_TensorHandle* const* in,
                           TF_Status* s) {
  /* in: size3, v2 ([2]), v22 ([2,2]), idx01, idx012, i0, i1, max2 */
  TFE_TensorHandle* keep[KEEP_MAX];
  TFE_TensorHandle *h, *flow, *x[4], *o[2];
  int nk = 0, i;
  TF_Code c;
#define KEEP(t) (keep[nk++] = (t))
  x[0] = in[0];
  if ((c = try_run(ctx, "TensorArrayV3", x, 1, "dtype", TF_FLOAT,
                   "clear_after_read", NULL, o, 2, s)) != TF_OK) {
    goto done;
  }
  h = KEEP(o[0]);
  flow = KEEP(o[1]);
  x[0] = h, x[1] = in[5], x[2] = in[1], x[3] = flow;
  if ((c = try_run(ctx, "TensorArrayWriteV3", x, 4, NULL, TF_FLOAT, NULL,
                   NULL, o, 1, s)) != TF_OK) {
    goto done;
  }
  flow = KEEP(o[0]);
  x[0] = h, x[1] = in[6], x[2] = in[1], x[3] = flow;
  if ((c = try_run(ctx, "TensorArrayWriteV3", x, 4, NULL, TF_FLOAT, NULL,
                   NULL, o, 1, s)) != TF_OK) {
    goto done;
  }
  flow = KEEP(o[0]);
  x[0] = h, x[1] = in[5], x[2] = flow;
  if ((c = try_run(ctx, "TensorArrayReadV3", x, 3, "dtype", TF_FLOAT, NULL,
                   NULL, o, 1, s)) != TF_OK) {
    goto done;
  }
  KEEP(o[0]);
  x[0] = h, x[1] = in[3], x[2] = flow;
  if ((c = try_run(ctx, "TensorArrayGatherV3", x, 3, "dtype", TF_FLOAT, NULL,
                   NULL, o, 1, s)) != TF_OK) {
    goto done;
  }
  KEEP(o[0]);
  x[0] = h, x[1] = flow;
  if ((c = try_run(ctx, "TensorArrayGradV3", x, 2, NULL, TF_FLOAT, NULL,
                   "source", o, 2, s)) != TF_OK) {
    goto done;
  }
  KEEP(o[0]);
  KEEP(o[1]);
  {
    TFE_TensorHandle* gh = o[0];
    TFE_TensorHandle* gf = o[1];
    x[0] = gh, x[1] = in[5], x[2] = in[1], x[3] = gf;
    if ((c = try_run(ctx, "TensorArrayWriteV3", x, 4, NULL, TF_FLOAT, NULL,
                     NULL, o, 1, s)) != TF_OK) {
      goto done;
    }
    gf = KEEP(o[0]);
    x[0] = gh, x[1] = in[5], x[2] = in[1], x[3] = gf;
    /* A second write adds up. */
    if ((c = try_run(ctx, "TensorArrayWriteV3", x, 4, NULL, TF_FLOAT, NULL,
                     NULL, o, 1, s)) != TF_OK) {
      goto done;
    }
    gf = KEEP(o[0]);
    x[0] = gh, x[1] = in[3], x[2] = gf;
    if ((c = try_run(ctx, "TensorArrayGatherV3", x, 3, "dtype", TF_FLOAT,
                     NULL, NULL, o, 1, s)) != TF_OK) {
      goto done;
    }
    KEEP(o[0]);
  }
  /* A second array: scatter, concat, split. */
  x[0] = in[0];
  if ((c = try_run(ctx, "TensorArrayV3", x, 1, "dtype", TF_FLOAT,
                   "clear_after_read", NULL, o, 2, s)) != TF_OK) {
    goto done;
  }
  h = KEEP(o[0]);
  flow = KEEP(o[1]);
  x[0] = h, x[1] = in[3], x[2] = in[2], x[3] = flow;
  if ((c = try_run(ctx, "TensorArrayScatterV3", x, 4, "T", TF_FLOAT, NULL,
                   NULL, o, 1, s)) != TF_OK) {
    goto done;
  }
  flow = KEEP(o[0]);
  x[0] = h, x[1] = in[6], x[2] = flow;
  if ((c = try_run(ctx, "TensorArrayReadV3", x, 3, "dtype", TF_FLOAT, NULL,
                   NULL, o, 1, s)) != TF_OK) {
    goto done;
  }
  KEEP(o[0]);
  x[0] = h, x[1] = flow;
  if ((c = try_run(ctx, "TensorArraySizeV3", x, 2, NULL, TF_FLOAT, NULL,
                   NULL, o, 1, s)) != TF_OK) {
    goto done;
  }
  KEEP(o[0]);
  x[0] = h;
  if ((c = try_run(ctx, "TensorArrayCloseV3", x, 1, NULL, TF_FLOAT, NULL,
                   NULL, o, 0, s)) != TF_OK) {
    goto done;
  }
  /* A stack. */
  x[0] = in[7];
  if ((c = try_run(ctx, "StackV2", x, 1, "elem_type", TF_FLOAT, NULL, NULL,
                   o, 1, s)) != TF_OK) {
    goto done;
  }
  h = KEEP(o[0]);
  x[0] = h, x[1] = in[1];
  if ((c = try_run(ctx, "StackPushV2", x, 2, "T", TF_FLOAT, NULL, NULL, o, 1,
                   s)) != TF_OK) {
    goto done;
  }
  KEEP(o[0]);
  x[0] = h;
  if ((c = try_run(ctx, "StackPopV2", x, 1, "elem_type", TF_FLOAT, NULL,
                   NULL, o, 1, s)) != TF_OK) {
    goto done;
  }
  KEEP(o[0]);
  c = TF_OK;
done:
#undef KEEP
  for (i = 0; i < nk; i++) TFE_DeleteTensorHandle(keep[i]);
  return c;
}

TEST(allocation_failures_are_resource_exhausted_and_leak_nothing) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  static const float v4[4] = {1, 2, 3, 4};
  static const int32_t i01[2] = {0, 1}, i012[3] = {0, 1, 2};
  TFE_TensorHandle* in[8];
  live_counts before;
  int64_t k;
  int done = 0;
  in[0] = scalar_i32(3, s);
  in[1] = vec_f32(v4, 2, s);
  {
    int64_t d[2] = {2, 2};
    in[2] = make_handle(TF_FLOAT, d, 2, v4, sizeof v4, s);
  }
  in[3] = vec_i32(i01, 2, s);
  in[4] = vec_i32(i012, 3, s);
  in[5] = scalar_i32(0, s);
  in[6] = scalar_i32(1, s);
  in[7] = scalar_i32(2, s);
  /* Warm up (caches that live as long as the context), then sweep. */
  CHECK_EQ_INT(ta_sequence(ctx, in, s), TF_OK);
  before = live_now();
  for (k = 0; k < 4000 && !done; k++) {
    TF_Code c;
    TFE_TestFailAllocationsAfter(k);
    c = ta_sequence(ctx, in, s);
    TFE_TestFailAllocationsAfter(-1);
    if (c == TF_OK) {
      done = 1;
    } else if (c != TF_RESOURCE_EXHAUSTED) {
      TFE_FAIL("failing allocation %lld: %s: %s", (long long)k,
               TFE_CodeName(c), TF_Message(s));
    }
    TF_SetStatus(s, TF_OK, "");
    CHECK_LIVE_EQ(live_now(), before);
  }
  CHECK(done);
  /* (About a hundred allocations in all: each one failed once.) */
  CHECK(k > 30);
  for (k = 0; k < 8; k++) TFE_DeleteTensorHandle(in[k]);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- threads ---- */

typedef struct writer_arg {
  TFE_Context* ctx;
  TFE_TensorHandle* h;
  TFE_TensorHandle* flow;
  int first, step, count;
  int failures;
} writer_arg;

static void* writer_main(void* p) {
  writer_arg* a = (writer_arg*)p;
  TF_Status* s = TF_NewStatus();
  int i;
  for (i = a->first; i < a->count; i += a->step) {
    float v[2];
    TFE_TensorHandle* flow = a->flow;
    TFE_TensorHandle* value;
    TFE_TensorHandle* idx;
    TFE_TensorHandle* ins[4];
    TFE_TensorHandle* out[1];
    int64_t two = 2;
    TF_Tensor* t;
    v[0] = (float)i;
    v[1] = (float)(-i);
    t = TF_AllocateTensor(TF_FLOAT, &two, 1, sizeof v);
    memcpy(TF_TensorData(t), v, sizeof v);
    value = TFE_NewTensorHandle(t, s);
    TF_DeleteTensor(t);
    t = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
    *(int32_t*)TF_TensorData(t) = i;
    idx = TFE_NewTensorHandle(t, s);
    TF_DeleteTensor(t);
    ins[0] = a->h;
    ins[1] = idx;
    ins[2] = value;
    ins[3] = flow;
    if (try_run(a->ctx, "TensorArrayWriteV3", ins, 4, NULL, TF_FLOAT, NULL,
                NULL, out, 1, s) != TF_OK) {
      a->failures++;
    } else {
      TFE_DeleteTensorHandle(out[0]);
    }
    TFE_DeleteTensorHandle(idx);
    TFE_DeleteTensorHandle(value);
  }
  TF_DeleteStatus(s);
  return NULL;
}

TEST(threads_write_one_array) {
  enum { kThreads = 4, kCount = 64 };
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  ta_opts o = opts(0);
  TFE_TensorHandle *flow, *h, *out[1];
  pthread_t th[kThreads];
  writer_arg args[kThreads];
  int32_t all[kCount];
  int i;
  o.dynamic_size = 1; /* every thread grows the array */
  h = make_ta(ctx, &o, &flow, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < kThreads; i++) {
    args[i].ctx = ctx;
    args[i].h = h;
    args[i].flow = flow;
    args[i].first = i;
    args[i].step = kThreads;
    args[i].count = kCount;
    args[i].failures = 0;
    CHECK(pthread_create(&th[i], NULL, writer_main, &args[i]) == 0);
  }
  for (i = 0; i < kThreads; i++) {
    pthread_join(th[i], NULL);
    CHECK_EQ_INT(args[i].failures, 0);
  }
  CHECK_EQ_INT(ta_size(ctx, h, flow, s), kCount);
  for (i = 0; i < kCount; i++) all[i] = i;
  CHECK_EQ_INT(ta_gather(ctx, h, flow, all, kCount, NULL, -2, out, s), TF_OK);
  {
    TF_Tensor* t = TFE_TensorHandleResolve(out[0], s);
    const float* v = (const float*)TF_TensorData(t);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_Dim(t, 0), kCount);
    for (i = 0; i < kCount; i++) {
      CHECK(v[2 * i] == (float)i && v[2 * i + 1] == (float)(-i));
    }
    TF_DeleteTensor(t);
  }
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(flow);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ---- in a session ---- */

static TF_Operation* const_i32(TF_Graph* g, const char* name,
                               const int32_t* v, int n, int scalar,
                               TF_Status* s) {
  int64_t dims[1];
  TF_Tensor* t;
  TF_OperationDescription* d = TF_NewOperation(g, "Const", name);
  TF_Operation* op;
  dims[0] = n;
  t = TF_AllocateTensor(TF_INT32, dims, scalar ? 0 : 1,
                        sizeof(int32_t) * (size_t)n);
  memcpy(TF_TensorData(t), v, sizeof(int32_t) * (size_t)n);
  TF_SetAttrTensor(d, "value", t, s);
  TF_SetAttrType(d, "dtype", TF_INT32);
  op = TF_FinishOperation(d, s);
  TF_DeleteTensor(t);
  CHECK_CODE(s, TF_OK);
  return op;
}

TEST(session_runs_make_new_arrays) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_OperationDescription* d;
  TF_Operation *size, *ta, *x, *i0, *i1, *w0, *w1, *all, *gather, *ret;
  TF_Session* sess;
  TF_SessionOptions* so = TF_NewSessionOptions();
  static const int32_t two = 2, zero = 0, one = 1, idx[2] = {1, 0};
  int run_no;
  size = const_i32(g, "size", &two, 1, 1, s);
  d = TF_NewOperation(g, "TensorArrayV3", "ta");
  TF_AddInput(d, (TF_Output){size, 0});
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  ta = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  /* Shapes: handle [2] and flow [] as TF's shape function says. */
  CHECK_EQ_INT(TF_GraphGetTensorNumDims(g, (TF_Output){ta, 1}, s), 0);
  d = TF_NewOperation(g, "Placeholder", "x");
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  x = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  i0 = const_i32(g, "i0", &zero, 1, 1, s);
  i1 = const_i32(g, "i1", &one, 1, 1, s);
  d = TF_NewOperation(g, "TensorArrayWriteV3", "w0");
  TF_AddInput(d, (TF_Output){ta, 0});
  TF_AddInput(d, (TF_Output){i0, 0});
  TF_AddInput(d, (TF_Output){x, 0});
  TF_AddInput(d, (TF_Output){ta, 1});
  w0 = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "Square", "sq");
  TF_AddInput(d, (TF_Output){x, 0});
  ret = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  d = TF_NewOperation(g, "TensorArrayWriteV3", "w1");
  TF_AddInput(d, (TF_Output){ta, 0});
  TF_AddInput(d, (TF_Output){i1, 0});
  TF_AddInput(d, (TF_Output){ret, 0});
  TF_AddInput(d, (TF_Output){w0, 0});
  w1 = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  all = const_i32(g, "idx", idx, 2, 0, s);
  d = TF_NewOperation(g, "TensorArrayGatherV3", "gather");
  TF_AddInput(d, (TF_Output){ta, 0});
  TF_AddInput(d, (TF_Output){all, 0});
  TF_AddInput(d, (TF_Output){w1, 0});
  TF_SetAttrType(d, "dtype", TF_FLOAT);
  gather = TF_FinishOperation(d, s);
  CHECK_CODE(s, TF_OK);
  sess = TF_NewSession(g, so, s);
  CHECK_CODE(s, TF_OK);
  /* Each run makes its own array, so writing index 0 again is fine. */
  for (run_no = 1; run_no <= 3; run_no++) {
    float xv = (float)run_no;
    TF_Tensor* feed = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
    TF_Tensor* out = NULL;
    TF_Output in = {x, 0}, fetch = {gather, 0};
    memcpy(TF_TensorData(feed), &xv, sizeof xv);
    TF_SessionRun(sess, NULL, &in, &feed, 1, &fetch, &out, 1, NULL, 0, NULL,
                  s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_NumDims(out), 1);
    CHECK_EQ_INT(TF_Dim(out, 0), 2);
    CHECK(((const float*)TF_TensorData(out))[0] == xv * xv);
    CHECK(((const float*)TF_TensorData(out))[1] == xv);
    TF_DeleteTensor(out);
    TF_DeleteTensor(feed);
  }
  /* A kernel error stops the run with TF's message: reading int32 from a
   * float array. */
  {
    TF_Operation* bad;
    TF_Tensor* out = NULL;
    TF_Output fetch;
    TF_Tensor* feed = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
    TF_Output in = {x, 0};
    memset(TF_TensorData(feed), 0, sizeof(float));
    d = TF_NewOperation(g, "TensorArrayReadV3", "bad");
    TF_AddInput(d, (TF_Output){ta, 0});
    TF_AddInput(d, (TF_Output){i0, 0});
    TF_AddInput(d, (TF_Output){w1, 0});
    TF_SetAttrType(d, "dtype", TF_INT32);
    bad = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
    fetch.oper = bad;
    fetch.index = 0;
    TF_SessionRun(sess, NULL, &in, &feed, 1, &fetch, &out, 1, NULL, 0, NULL,
                  s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s),
                       "TensorArray dtype is float but Op requested dtype "
                       "int32.");
    CHECK(out == NULL);
    TF_DeleteTensor(feed);
  }
  TF_CloseSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* The GraphDef TF 2.21 wrote for a tf.compat.v1 while_loop filling a
 * TensorArray (tests/data/graphs/while_v1_tensorarray.pb): row i of the
 * stacked result is i * [1, 2]; n = 0, 1, 5 iterations. */
TEST(tf_written_v1_loop_over_a_tensor_array) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_SessionOptions* so = TF_NewSessionOptions();
  TF_Session* sess;
  TF_Buffer* buf;
  char path[1024];
  FILE* f;
  long len;
  char* data;
  static const int32_t ns[3] = {0, 1, 5};
  int k;
  snprintf(path, sizeof path, "%s/graphs/while_v1_tensorarray.pb",
           TFE_TEST_DATA_DIR);
  f = fopen(path, "rb");
  CHECK(f != NULL);
  fseek(f, 0, SEEK_END);
  len = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = (char*)malloc((size_t)len);
  CHECK(data != NULL);
  CHECK(fread(data, 1, (size_t)len, f) == (size_t)len);
  fclose(f);
  buf = TF_NewBufferFromString(data, (size_t)len);
  free(data);
  TF_GraphImportGraphDef(g, buf, NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteBuffer(buf);
  sess = TF_NewSession(g, so, s);
  CHECK_CODE(s, TF_OK);
  for (k = 0; k < 3; k++) {
    TF_Output in = {TF_GraphOperationByName(g, "n"), 0};
    TF_Output fetch = {TF_GraphOperationByName(g, "stacked"), 0};
    TF_Tensor* feed = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(int32_t));
    TF_Tensor* out = NULL;
    int i;
    CHECK(in.oper != NULL && fetch.oper != NULL);
    memcpy(TF_TensorData(feed), &ns[k], sizeof(int32_t));
    TF_SessionRun(sess, NULL, &in, &feed, 1, &fetch, &out, 1, NULL, 0, NULL,
                  s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TF_NumDims(out), 2);
    CHECK_EQ_INT(TF_Dim(out, 0), ns[k]);
    CHECK_EQ_INT(TF_Dim(out, 1), 2);
    for (i = 0; i < ns[k]; i++) {
      CHECK(((const float*)TF_TensorData(out))[2 * i] == (float)i);
      CHECK(((const float*)TF_TensorData(out))[2 * i + 1] == (float)(2 * i));
    }
    TF_DeleteTensor(out);
    TF_DeleteTensor(feed);
  }
  TF_CloseSession(sess, s);
  TF_DeleteSession(sess, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSessionOptions(so);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

/* Static shapes as TF's shape functions give them: a read of an array
 * whose element shape is fully defined (or marked identical) has that
 * shape, also through Identity and for its gradient array; otherwise it
 * is unknown. */
TEST(graph_static_shapes_from_handle_data) {
  static const struct {
    int rank;
    int64_t dims[2];
    int identical;
    int want_rank;
    int64_t want[2];
  } cases[] = {{2, {2, 3}, 0, 2, {2, 3}},
               {2, {2, -1}, 0, -1, {0, 0}},
               {2, {2, -1}, 1, 2, {2, -1}}};
  TF_Status* s = TF_NewStatus();
  int c;
  for (c = 0; c < 3; c++) {
    TF_Graph* g = TF_NewGraph();
    static const int32_t three = 3, zero = 0;
    TF_Operation *size = const_i32(g, "size", &three, 1, 1, s),
                 *i0 = const_i32(g, "i0", &zero, 1, 1, s), *ta, *id, *gr,
                 *rd[2];
    TF_OperationDescription* d = TF_NewOperation(g, "TensorArrayV3", "ta");
    int64_t dims[2];
    int k, r;
    TF_AddInput(d, (TF_Output){size, 0});
    TF_SetAttrType(d, "dtype", TF_FLOAT);
    TF_SetAttrShape(d, "element_shape", cases[c].dims, cases[c].rank);
    TF_SetAttrBool(d, "identical_element_shapes",
                   (unsigned char)cases[c].identical);
    ta = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
    d = TF_NewOperation(g, "Identity", "id");
    TF_AddInput(d, (TF_Output){ta, 0});
    id = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
    d = TF_NewOperation(g, "TensorArrayGradV3", "grad");
    TF_AddInput(d, (TF_Output){ta, 0});
    TF_AddInput(d, (TF_Output){ta, 1});
    TF_SetAttrString(d, "source", "g", 1);
    gr = TF_FinishOperation(d, s);
    CHECK_CODE(s, TF_OK);
    for (k = 0; k < 2; k++) {
      d = TF_NewOperation(g, "TensorArrayReadV3", k ? "read_grad" : "read");
      TF_AddInput(d, (TF_Output){k ? gr : id, 0});
      TF_AddInput(d, (TF_Output){i0, 0});
      TF_AddInput(d, (TF_Output){k ? gr : ta, 1});
      TF_SetAttrType(d, "dtype", TF_FLOAT);
      rd[k] = TF_FinishOperation(d, s);
      CHECK_CODE(s, TF_OK);
      r = TF_GraphGetTensorNumDims(g, (TF_Output){rd[k], 0}, s);
      CHECK_CODE(s, TF_OK);
      CHECK_EQ_INT(r, cases[c].want_rank);
      if (r == 2) {
        TF_GraphGetTensorShape(g, (TF_Output){rd[k], 0}, dims, 2, s);
        CHECK_CODE(s, TF_OK);
        CHECK_EQ_INT(dims[0], cases[c].want[0]);
        CHECK_EQ_INT(dims[1], cases[c].want[1]);
      }
    }
    TF_DeleteGraph(g);
  }
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
