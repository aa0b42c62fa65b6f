/* The parallel device (include/tfe/parallel_device.h) over logical CPU
 * devices: a small model (MatMul + BiasAdd + Relu + Sum) giving the same
 * values per component as on CPU with 2 and 4 components, packing and
 * unpacking, DeviceID, failing components, TF's placement rule, copies,
 * shapes, concurrency of the components, and argument errors. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eager_test_util.h"
#include "tfe/parallel_device.h"

#define PAR "/job:localhost/replica:0/task:0/device:CUSTOM:0"
#define LOCAL "/job:localhost/replica:0/task:0"

static TFE_Context* ctx_with_cpus(int n, TF_Status* s) {
  TFE_Context* ctx = new_ctx(s);
  if (n > 1) {
    TFE_SetLogicalCpuDevices(ctx, n, LOCAL, s);
    CHECK_CODE(s, TF_OK);
  }
  return ctx;
}

static const char* const kCpus[] = {FULL_CPU(0), FULL_CPU(1), FULL_CPU(2),
                                    FULL_CPU(3)};

static TFE_TensorHandle* floats(const int64_t* dims, int nd, const float* v,
                                TF_Status* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < nd; i++) n *= dims[i];
  return make_handle(TF_FLOAT, dims, nd, v, sizeof(float) * (size_t)n, s);
}

/* Runs `name` on `device` (NULL: no request) with inputs; one output. */
static TFE_TensorHandle* run(TFE_Context* ctx, const char* name,
                             const char* device, TFE_TensorHandle** in,
                             int n_in, TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int i, n = 1;
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  if (device != NULL) {
    TFE_OpSetDevice(op, device, s);
    CHECK_CODE(s, TF_OK);
  }
  for (i = 0; i < n_in; i++) {
    TFE_OpAddInput(op, in[i], s);
    CHECK_CODE(s, TF_OK);
  }
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  if (TF_GetCode(s) != TF_OK) return NULL;
  CHECK_EQ_INT(n, 1);
  return out[0];
}

/* y = Sum(Relu(BiasAdd(MatMul(x, w), b)), axis 1) on `device`. */
static TFE_TensorHandle* model(TFE_Context* ctx, const char* device,
                               TFE_TensorHandle* x, TFE_TensorHandle* w,
                               TFE_TensorHandle* b, TFE_TensorHandle* axis,
                               TF_Status* s) {
  TFE_TensorHandle* in[2];
  TFE_TensorHandle *mm, *ba, *re, *sum;
  in[0] = x;
  in[1] = w;
  mm = run(ctx, "MatMul", device, in, 2, s);
  if (mm == NULL) return NULL;
  in[0] = mm;
  in[1] = b;
  ba = run(ctx, "BiasAdd", device, in, 2, s);
  TFE_DeleteTensorHandle(mm);
  if (ba == NULL) return NULL;
  re = run(ctx, "Relu", device, &ba, 1, s);
  TFE_DeleteTensorHandle(ba);
  if (re == NULL) return NULL;
  in[0] = re;
  in[1] = axis;
  sum = run(ctx, "Sum", device, in, 2, s);
  TFE_DeleteTensorHandle(re);
  return sum;
}

static void read_floats(TFE_TensorHandle* h, float* out, int n, TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorType(t), TF_FLOAT);
  CHECK_EQ_INT(TF_TensorElementCount(t), n);
  memcpy(out, TF_TensorData(t), sizeof(float) * (size_t)n);
  TF_DeleteTensor(t);
}

static void check_model(int ncomp) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = ctx_with_cpus(ncomp, s);
  const int64_t xd[2] = {2, 3}, wd[2] = {3, 4}, bd[1] = {4};
  const float wv[12] = {0.5f, -1, 2, 0.25f, 1, 1, -0.5f, 3,
                        -2, 0.75f, 1, -1};
  const float bv[4] = {0.1f, -0.2f, 0.3f, -4};
  const int32_t axis_v = 1;
  TFE_TensorHandle *w, *b, *axis, *packed, *y;
  TFE_TensorHandle* xs[4];
  TFE_TensorHandle* parts[4];
  int i, k;

  TFE_RegisterParallelDevice(ctx, PAR, kCpus, ncomp, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_IsCustomDevice(ctx, PAR));
  w = floats(wd, 2, wv, s);
  b = floats(bd, 1, bv, s);
  axis = make_handle(TF_INT32, NULL, 0, &axis_v, sizeof(axis_v), s);
  for (i = 0; i < ncomp; i++) {
    float xv[6];
    for (k = 0; k < 6; k++) xv[k] = (float)((i + 1) * (k - 2)) * 0.7f;
    xs[i] = floats(xd, 2, xv, s);
  }

  packed = TFE_ParallelDevicePack(ctx, PAR, xs, ncomp, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(packed, s), PAR);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(packed, s), 2);
  CHECK_EQ_INT(TFE_TensorHandleDim(packed, 1, s), 3);

  /* w, b and axis are ordinary tensors: broadcast to every component. */
  y = model(ctx, PAR, packed, w, b, axis, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(y, s), PAR);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(y, s), 1);
  CHECK_EQ_INT(TFE_TensorHandleDim(y, 0, s), 2);

  TFE_ParallelDeviceUnpack(ctx, PAR, y, parts, ncomp, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < ncomp; i++) {
    float got[2], want[2];
    TFE_TensorHandle* ref = model(ctx, kCpus[i], xs[i], w, b, axis, s);
    CHECK_CODE(s, TF_OK);
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(parts[i], s), kCpus[i]);
    read_floats(parts[i], got, 2, s);
    read_floats(ref, want, 2, s);
    CHECK(memcmp(got, want, sizeof(got)) == 0);
    TFE_DeleteTensorHandle(ref);
    TFE_DeleteTensorHandle(parts[i]);
  }
  /* The components really differ (x differs per component). */
  TFE_DeleteTensorHandle(y);
  TFE_DeleteTensorHandle(packed);
  for (i = 0; i < ncomp; i++) TFE_DeleteTensorHandle(xs[i]);
  TFE_DeleteTensorHandle(w);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(axis);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(model_on_two_components_matches_cpu) { check_model(2); }
TEST(model_on_four_components_matches_cpu) { check_model(4); }

TEST(pack_unpack_and_device_ids) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = ctx_with_cpus(3, s);
  TFE_TensorHandle* xs[3];
  TFE_TensorHandle* parts[3];
  TFE_TensorHandle *p, *ids;
  int i, n;

  TFE_RegisterParallelDevice(ctx, PAR, kCpus, 3, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 3; i++) xs[i] = scalar_f32((float)(10 * i), s);
  p = TFE_ParallelDevicePack(ctx, PAR, xs, 3, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(p, s), 0);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(p, s), 1);
  CHECK_EQ_INT(TFE_TensorHandleDataType(p), TF_FLOAT);

  TFE_ParallelDeviceUnpack(ctx, PAR, p, parts, 3, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 3; i++) {
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(parts[i], s), kCpus[i]);
    CHECK(read_f32(parts[i], s) == (float)(10 * i));
    TFE_DeleteTensorHandle(parts[i]);
  }

  /* The raw ops work too: TPUReplicatedOutput with num_replicas. */
  {
    TFE_Op* op = TFE_NewOp(ctx, "TPUReplicatedOutput", s);
    CHECK_CODE(s, TF_OK);
    TFE_OpSetDevice(op, PAR, s);
    TFE_OpAddInput(op, p, s);
    TFE_OpSetAttrInt(op, "num_replicas", 3);
    n = 3;
    TFE_Execute(op, parts, &n, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(n, 3);
    TFE_DeleteOp(op);
    for (i = 0; i < 3; i++) TFE_DeleteTensorHandle(parts[i]);
  }

  /* DeviceID: component i holds i (int64). */
  ids = run(ctx, "DeviceID", PAR, NULL, 0, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleDataType(ids), TF_INT64);
  TFE_ParallelDeviceUnpack(ctx, PAR, ids, parts, 3, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < 3; i++) {
    TF_Tensor* t = TFE_TensorHandleResolve(parts[i], s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(*(int64_t*)TF_TensorData(t), i);
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(parts[i], s), kCpus[i]);
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(parts[i]);
  }
  /* Per-component values combine with the component index. */
  {
    TFE_TensorHandle* in[2];
    TFE_TensorHandle *idf, *sum;
    TFE_Op* op = TFE_NewOp(ctx, "Cast", s);
    TFE_TensorHandle* out[1];
    TFE_OpSetDevice(op, PAR, s);
    TFE_OpAddInput(op, ids, s);
    TFE_OpSetAttrType(op, "DstT", TF_FLOAT);
    n = 1;
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteOp(op);
    idf = out[0];
    in[0] = p;
    in[1] = idf;
    sum = run(ctx, "AddV2", PAR, in, 2, s);
    CHECK_CODE(s, TF_OK);
    TFE_ParallelDeviceUnpack(ctx, PAR, sum, parts, 3, s);
    CHECK_CODE(s, TF_OK);
    for (i = 0; i < 3; i++) {
      CHECK(read_f32(parts[i], s) == (float)(11 * i));
      TFE_DeleteTensorHandle(parts[i]);
    }
    TFE_DeleteTensorHandle(sum);
    TFE_DeleteTensorHandle(idf);
  }

  /* Several outputs per op: Unpack of a packed [2] vector. */
  {
    const int64_t d2[1] = {2};
    TFE_TensorHandle* vs[3];
    TFE_TensorHandle *pv, *outs[2];
    TFE_Op* op;
    for (i = 0; i < 3; i++) {
      const float v[2] = {(float)i, (float)(100 + i)};
      vs[i] = floats(d2, 1, v, s);
    }
    pv = TFE_ParallelDevicePack(ctx, PAR, vs, 3, s);
    CHECK_CODE(s, TF_OK);
    op = TFE_NewOp(ctx, "Unpack", s);
    TFE_OpSetDevice(op, PAR, s);
    TFE_OpAddInput(op, pv, s);
    TFE_OpSetAttrInt(op, "num", 2);
    n = 2;
    TFE_Execute(op, outs, &n, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(n, 2);
    TFE_DeleteOp(op);
    TFE_ParallelDeviceUnpack(ctx, PAR, outs[1], parts, 3, s);
    CHECK_CODE(s, TF_OK);
    for (i = 0; i < 3; i++) {
      CHECK(read_f32(parts[i], s) == (float)(100 + i));
      TFE_DeleteTensorHandle(parts[i]);
    }
    TFE_DeleteTensorHandle(outs[0]);
    TFE_DeleteTensorHandle(outs[1]);
    TFE_DeleteTensorHandle(pv);
    for (i = 0; i < 3; i++) TFE_DeleteTensorHandle(vs[i]);
  }

  TFE_DeleteTensorHandle(ids);
  TFE_DeleteTensorHandle(p);
  for (i = 0; i < 3; i++) TFE_DeleteTensorHandle(xs[i]);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* ------------------------------------------------------------------------
 * Errors. */

TEST(failing_component_fails_the_op) {
  TF_Status* s = TF_NewStatus();
  TF_Status* want = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = ctx_with_cpus(2, s);
  const int64_t d23[2] = {2, 3}, d22[2] = {2, 2}, d25[2] = {2, 5},
                d34[2] = {3, 4};
  const float v[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  TFE_TensorHandle *x0, *x1, *x2, *w, *p, *r;
  TFE_TensorHandle* xs[2];
  TFE_TensorHandle* in[2];
  live_counts mid;

  TFE_RegisterParallelDevice(ctx, PAR, kCpus, 2, s);
  CHECK_CODE(s, TF_OK);
  x0 = floats(d23, 2, v, s);
  x1 = floats(d22, 2, v, s);
  x2 = floats(d25, 2, v, s);
  w = floats(d34, 2, v, s);

  /* Only component 1 fails: its error is the op's. */
  xs[0] = x0;
  xs[1] = x1;
  p = TFE_ParallelDevicePack(ctx, PAR, xs, 2, s);
  CHECK_CODE(s, TF_OK);
  in[0] = x1;
  in[1] = w;
  CHECK(run(ctx, "MatMul", kCpus[1], in, 2, want) == NULL);
  CHECK_CODE(want, TF_INVALID_ARGUMENT);
  mid = live_now();
  in[0] = p;
  r = run(ctx, "MatMul", PAR, in, 2, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_GetCode(want));
  CHECK_STR_EQ(TF_Message(s), TF_Message(want));
  CHECK_LIVE_EQ(live_now(), mid);
  TFE_DeleteTensorHandle(p);

  /* Both fail, differently: component 0's error wins. */
  xs[0] = x2;
  xs[1] = x1;
  p = TFE_ParallelDevicePack(ctx, PAR, xs, 2, s);
  CHECK_CODE(s, TF_OK);
  in[0] = x2;
  in[1] = w;
  CHECK(run(ctx, "MatMul", kCpus[0], in, 2, want) == NULL);
  in[0] = p;
  CHECK(run(ctx, "MatMul", PAR, in, 2, s) == NULL);
  CHECK_CODE(s, TF_GetCode(want));
  CHECK_STR_EQ(TF_Message(s), TF_Message(want));
  CHECK_STR_CONTAINS(TF_Message(s), "5");
  TFE_DeleteTensorHandle(p);

  TFE_DeleteTensorHandle(x0);
  TFE_DeleteTensorHandle(x1);
  TFE_DeleteTensorHandle(x2);
  TFE_DeleteTensorHandle(w);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(want);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(unplaced_op_with_parallel_input_is_rejected) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_with_cpus(2, s);
  TFE_TensorHandle* xs[2];
  TFE_TensorHandle *p, *r;

  TFE_RegisterParallelDevice(ctx, PAR, kCpus, 2, s);
  xs[0] = scalar_f32(1, s);
  xs[1] = scalar_f32(2, s);
  p = TFE_ParallelDevicePack(ctx, PAR, xs, 2, s);
  CHECK_CODE(s, TF_OK);
  r = run(ctx, "Neg", NULL, &p, 1, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_EQ(TF_Message(s),
               "Ops must be placed on the parallel device explicitly, or "
               "their inputs first un-packed. Got an un-placed op with an "
               "input placed on the parallel device.");
  /* Placing it on a physical device needs a copy off: refused. */
  r = run(ctx, "Neg", kCpus[0], &p, 1, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "must be unpacked explicitly");
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(xs[0]);
  TFE_DeleteTensorHandle(xs[1]);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(copies_broadcast_on_and_refuse_off) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = ctx_with_cpus(2, s);
  TFE_TensorHandle *x, *p;
  TFE_TensorHandle* parts[2];

  TFE_RegisterParallelDevice(ctx, PAR, kCpus, 2, s);
  x = scalar_f32(7, s);
  p = TFE_TensorHandleCopyToDevice(x, ctx, "CUSTOM:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(p, s), PAR);
  TFE_ParallelDeviceUnpack(ctx, PAR, p, parts, 2, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(parts[0], s) == 7 && read_f32(parts[1], s) == 7);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(parts[1], s), kCpus[1]);
  TFE_DeleteTensorHandle(parts[0]);
  TFE_DeleteTensorHandle(parts[1]);

  CHECK(TFE_TensorHandleCopyToDevice(p, ctx, kCpus[0], s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "copy a tensor out of a parallel device");
  CHECK(TFE_TensorHandleResolve(p, s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  /* Its data is a parallel tensor: no memory size. */
  CHECK_EQ_INT(TFE_TensorHandleDeviceMemorySize(p, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(shapes_of_parallel_tensors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_with_cpus(2, s);
  const int64_t d23[2] = {2, 3}, d25[2] = {2, 5}, d2[1] = {2};
  const float v[10] = {0};
  TFE_TensorHandle *a, *b, *c, *p;
  TFE_TensorHandle* xs[2];

  TFE_RegisterParallelDevice(ctx, PAR, kCpus, 2, s);
  a = floats(d23, 2, v, s);
  b = floats(d25, 2, v, s);
  c = floats(d2, 1, v, s);

  /* Differing axis lengths: -1, and no element count. */
  xs[0] = a;
  xs[1] = b;
  p = TFE_ParallelDevicePack(ctx, PAR, xs, 2, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(p, s), 2);
  CHECK_EQ_INT(TFE_TensorHandleDim(p, 0, s), 2);
  CHECK_EQ_INT(TFE_TensorHandleDim(p, 1, s), -1);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(p, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(p);

  /* Differing ranks: the shape cannot be combined. */
  xs[1] = c;
  p = TFE_ParallelDevicePack(ctx, PAR, xs, 2, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(p, s), -1);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "same rank");
  TFE_DeleteTensorHandle(p);

  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(c);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(pack_and_unpack_errors) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = ctx_with_cpus(2, s);
  TFE_TensorHandle *f, *i32, *p;
  TFE_TensorHandle* xs[3];
  TFE_TensorHandle* parts[3];

  TFE_RegisterParallelDevice(ctx, PAR, kCpus, 2, s);
  f = scalar_f32(1, s);
  i32 = scalar_i32(1, s);

  xs[0] = xs[1] = xs[2] = f;
  CHECK(TFE_ParallelDevicePack(ctx, PAR, xs, 3, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "expected 2 inputs to "
                                    "TPUReplicatedInput, but got 3");
  CHECK(TFE_ParallelDevicePack(ctx, PAR, xs, 0, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_ParallelDevicePack(ctx, NULL, xs, 2, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  p = TFE_ParallelDevicePack(ctx, PAR, xs, 2, s);
  CHECK_CODE(s, TF_OK);
  xs[0] = p;
  CHECK(TFE_ParallelDevicePack(ctx, PAR, xs, 2, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "The input 0 was a parallel tensor");

  /* Mixed dtypes: the device needs the op's T to agree... */
  xs[0] = f;
  xs[1] = i32;
  CHECK(TFE_ParallelDevicePack(ctx, PAR, xs, 2, s) == NULL);
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_CONTAINS(TF_Message(s), "same dtype");

  TFE_ParallelDeviceUnpack(ctx, PAR, p, parts, 3, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "expected 2 outputs for "
                                    "TPUReplicatedOutput, but got 3");
  TFE_ParallelDeviceUnpack(ctx, PAR, f, parts, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "to be a parallel tensor");
  TFE_ParallelDeviceUnpack(ctx, PAR, p, NULL, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ParallelDeviceUnpack(ctx, PAR, p, parts, 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(f);
  TFE_DeleteTensorHandle(i32);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(new_parallel_device_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_with_cpus(2, s);
  TFE_CustomDevice dev;
  void* info = NULL;
  const char* bad[2] = {FULL_CPU(0), "not a device"};
  const char* self[2] = {FULL_CPU(0), "CUSTOM:0"};
  const char* withnull[2] = {FULL_CPU(0), NULL};

  TFE_NewParallelDevice(PAR, kCpus, 2, NULL, &info, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_NewParallelDevice(PAR, kCpus, 2, &dev, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_NewParallelDevice(NULL, kCpus, 2, &dev, &info, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_NewParallelDevice(PAR, NULL, 2, &dev, &info, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_NewParallelDevice(PAR, kCpus, 0, &dev, &info, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "at least one component");
  TFE_NewParallelDevice(PAR, bad, 2, &dev, &info, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "not a device");
  TFE_NewParallelDevice(PAR, withnull, 2, &dev, &info, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_NewParallelDevice(PAR, self, 2, &dev, &info, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "the parallel device itself");
  CHECK(info == NULL);

  /* Made but never registered: the caller frees it. */
  TFE_NewParallelDevice(PAR, kCpus, 2, &dev, &info, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(dev.version, TFE_CUSTOM_DEVICE_VERSION);
  CHECK(dev.pack == NULL && dev.shall_pin_to_this_device == NULL);
  dev.delete_device(info);

  /* Registration failures free it (ASan would see a leak otherwise). */
  TFE_RegisterParallelDevice(ctx, FULL_CPU(1), kCpus, 1, s);
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  TFE_RegisterParallelDevice(ctx, "CUSTOM:4", kCpus, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_RegisterParallelDevice(ctx, PAR, kCpus, 2, s);
  CHECK_CODE(s, TF_OK);
  TFE_RegisterParallelDevice(ctx, PAR, kCpus, 2, s);
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  TFE_RegisterParallelDevice(NULL, PAR, kCpus, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  /* An unknown component shows up when an op runs. */
  {
    const char* ghost[2] = {FULL_CPU(0), FULL_CPU(7)};
    TFE_TensorHandle *x, *r;
    TFE_RegisterParallelDevice(
        ctx, "/job:localhost/replica:0/task:0/device:CUSTOM:1", ghost, 2, s);
    CHECK_CODE(s, TF_OK);
    x = scalar_f32(1, s);
    r = TFE_TensorHandleCopyToDevice(x, ctx, "CUSTOM:1", s);
    CHECK(r == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "CPU:7");
    TFE_DeleteTensorHandle(x);
  }

  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(context_deleted_while_parallel_tensors_live) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = ctx_with_cpus(2, s);
  TFE_TensorHandle *x, *p, *q;

  TFE_RegisterParallelDevice(ctx, PAR, kCpus, 2, s);
  x = scalar_f32(3, s);
  p = TFE_TensorHandleCopyToDevice(x, ctx, PAR, s);
  CHECK_CODE(s, TF_OK);
  q = run(ctx, "Neg", PAR, &p, 1, s); /* starts the workers */
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContext(ctx); /* joins them; the tensors stay valid */
  CHECK_EQ_INT(TFE_TensorHandleNumDims(q, s), 0);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(q);
  TFE_DeleteTensorHandle(x);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(async_context_components_finish_before_the_op_returns) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  const int64_t d22[2] = {2, 2}, d23[2] = {2, 3};
  const float v[6] = {1, 2, 3, 4, 5, 6};
  TFE_TensorHandle *a, *b, *p, *r;
  TFE_TensorHandle* xs[2];
  TFE_TensorHandle* parts[2];

  TFE_ContextOptionsSetAsync(o, 1);
  ctx = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  TFE_SetLogicalCpuDevices(ctx, 2, LOCAL, s);
  CHECK_CODE(s, TF_OK);
  TFE_RegisterParallelDevice(ctx, PAR, kCpus, 2, s);
  CHECK_CODE(s, TF_OK);
  a = floats(d22, 2, v, s);
  b = floats(d23, 2, v, s);
  xs[0] = a;
  xs[1] = a;
  p = TFE_ParallelDevicePack(ctx, PAR, xs, 2, s);
  CHECK_CODE(s, TF_OK);
  xs[0] = p;
  xs[1] = p;
  r = run(ctx, "MatMul", PAR, xs, 2, s);
  CHECK_CODE(s, TF_OK);
  TFE_ParallelDeviceUnpack(ctx, PAR, r, parts, 2, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(parts[1], s) == 7); /* [1 2]x[1 3]^T */
  TFE_DeleteTensorHandle(parts[0]);
  TFE_DeleteTensorHandle(parts[1]);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(p);
  /* A failing component fails TFE_Execute itself, not a later wait. */
  xs[0] = a;
  xs[1] = b;
  p = TFE_ParallelDevicePack(ctx, PAR, xs, 2, s);
  CHECK_CODE(s, TF_OK);
  xs[0] = p;
  xs[1] = p;
  CHECK(run(ctx, "MatMul", PAR, xs, 2, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_ContextAsyncWait(ctx, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* ------------------------------------------------------------------------
 * Concurrency: components are custom devices whose execute waits until
 * every component has arrived. Run one after the other, the first would
 * wait forever (here: until a deadline, then the test fails). */

#define NBAR 4
static atomic_int g_arrived;
static atomic_int g_timed_out;
static pthread_t g_threads[NBAR];
static atomic_int g_nthreads;

static TFE_TensorHandle* bar_copy_to(TFE_Context* ctx, TFE_TensorHandle* t,
                                     TF_Status* s, void* info) {
  (void)info;
  return TFE_TensorHandleCopyToDevice(t, ctx, FULL_CPU(0), s);
}

static TFE_TensorHandle* bar_copy_from(TFE_Context* ctx, TFE_TensorHandle* t,
                                       const char* target, TF_Status* s,
                                       void* info) {
  (void)info;
  return TFE_TensorHandleCopyToDevice(t, ctx, target, s);
}

static void bar_execute(const TFE_Op* op, int* num_outputs,
                        TFE_TensorHandle** outputs, TF_Status* s,
                        void* info) {
  TFE_Context* ctx = TFE_OpGetContext(op, s);
  TFE_Op* fwd;
  int i, n = TFE_OpGetFlatInputCount(op, s), k;
  struct timespec start, now, pause = {0, 1000000};
  (void)info;
  k = atomic_fetch_add(&g_nthreads, 1);
  if (k < NBAR) g_threads[k] = pthread_self();
  atomic_fetch_add(&g_arrived, 1);
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (atomic_load(&g_arrived) < NBAR) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > 10) {
      atomic_store(&g_timed_out, 1);
      break;
    }
    nanosleep(&pause, NULL);
  }
  fwd = TFE_NewOp(ctx, TFE_OpGetName(op, s), s);
  TFE_OpAddAttrs(fwd, TFE_OpGetAttrs(op));
  TFE_OpSetDevice(fwd, FULL_CPU(0), s);
  for (i = 0; i < n; i++) TFE_OpAddInput(fwd, TFE_OpGetFlatInput(op, i, s), s);
  TFE_Execute(fwd, outputs, num_outputs, s);
  TFE_DeleteOp(fwd);
}

static void bar_delete(void* info) { (void)info; }

TEST(components_run_concurrently) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  const char* comps[NBAR];
  char names[NBAR][64];
  TFE_CustomDevice dev;
  TFE_TensorHandle *x, *p, *r;
  TFE_TensorHandle* parts[NBAR];
  int i, j;

  memset(&dev, 0, sizeof(dev));
  dev.version = TFE_CUSTOM_DEVICE_VERSION;
  dev.copy_tensor_to_device = bar_copy_to;
  dev.copy_tensor_from_device = bar_copy_from;
  dev.execute = bar_execute;
  dev.delete_device = bar_delete;
  for (i = 0; i < NBAR; i++) {
    snprintf(names[i], sizeof names[i], LOCAL "/device:BARRIER:%d", i);
    comps[i] = names[i];
    TFE_RegisterCustomDevice(ctx, dev, names[i], NULL, s);
    CHECK_CODE(s, TF_OK);
  }
  TFE_RegisterParallelDevice(ctx, PAR, comps, NBAR, s);
  CHECK_CODE(s, TF_OK);
  x = scalar_f32(2, s);
  p = TFE_TensorHandleCopyToDevice(x, ctx, PAR, s);
  CHECK_CODE(s, TF_OK);

  r = run(ctx, "Neg", PAR, &p, 1, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(atomic_load(&g_timed_out), 0);
  CHECK_EQ_INT(atomic_load(&g_arrived), NBAR);
  /* One distinct worker thread per component, none of them this one. */
  for (i = 0; i < NBAR; i++) {
    CHECK(!pthread_equal(g_threads[i], pthread_self()));
    for (j = 0; j < i; j++) CHECK(!pthread_equal(g_threads[i], g_threads[j]));
  }
  TFE_ParallelDeviceUnpack(ctx, PAR, r, parts, NBAR, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < NBAR; i++) {
    CHECK(read_f32(parts[i], s) == -2);
    TFE_DeleteTensorHandle(parts[i]);
  }
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
