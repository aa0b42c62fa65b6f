/* The parallel device as TF's own parallel-device tests use it: variables
 * made with TF's "no sharing" shared name (one per component, also when two
 * components are the same device), nested parallel devices, and the
 * collective ops (CollectiveReduce v1, CollectiveReduceV2 with every
 * merge/final op, CollectiveGather/GatherV2, CollectiveBcastSend/Recv v1
 * and V2, CollectiveReduceScatterV2, CollectiveAllToAllV2) across
 * components and across plain threads, TFE_AbortCollectiveOps, their errors
 * (group size and shape mismatches, timeouts, bad arguments), and one step
 * of data-parallel training that matches the single-device computation. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eager_test_util.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tfe/parallel_device.h"

#define LOCAL "/job:localhost/replica:0/task:0"
#define PAR "/job:localhost/replica:0/task:0/device:CUSTOM:0"
#define PAR2 "/job:localhost/replica:0/task:0/device:CUSTOM:1"
#define NO_SHARING "cd2c89b7-88b7-44c8-ad83-06c2a9158347"

static TFE_Context* ctx_cpus(int n, int async, TF_Status* s) {
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx;
  TFE_ContextOptionsSetAsync(o, (unsigned char)async);
  ctx = TFE_NewContext(o, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteContextOptions(o);
  if (n > 1) {
    TFE_SetLogicalCpuDevices(ctx, n, LOCAL, s);
    CHECK_CODE(s, TF_OK);
  }
  return ctx;
}

static void reg(TFE_Context* ctx, const char* name, const char* a,
                const char* b, TF_Status* s) {
  const char* comps[2];
  comps[0] = a;
  comps[1] = b;
  TFE_RegisterParallelDevice(ctx, name, comps, 2, s);
  CHECK_CODE(s, TF_OK);
}

static TFE_TensorHandle* vec_f32(const float* v, int64_t n, TF_Status* s) {
  return make_handle(TF_FLOAT, &n, 1, v, sizeof(float) * (size_t)n, s);
}

static TFE_TensorHandle* pack2(TFE_Context* ctx, const char* dev,
                               TFE_TensorHandle* a, TFE_TensorHandle* b,
                               TF_Status* s) {
  TFE_TensorHandle* in[2];
  TFE_TensorHandle* out;
  in[0] = a;
  in[1] = b;
  out = TFE_ParallelDevicePack(ctx, dev, in, 2, s);
  CHECK_CODE(s, TF_OK);
  return out;
}

static void unpack2(TFE_Context* ctx, const char* dev, TFE_TensorHandle* p,
                    TFE_TensorHandle** out, TF_Status* s) {
  TFE_ParallelDeviceUnpack(ctx, dev, p, out, 2, s);
  CHECK_CODE(s, TF_OK);
}

/* Executes op (deleted) expecting at most one output; NULL on failure. */
static TFE_TensorHandle* exec1(TFE_Op* op, TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  if (TF_GetCode(s) != TF_OK) return NULL;
  return n == 1 ? out[0] : NULL;
}

static TFE_Op* new_op(TFE_Context* ctx, const char* name, const char* device,
                      TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  if (device != NULL) {
    TFE_OpSetDevice(op, device, s);
    CHECK_CODE(s, TF_OK);
  }
  return op;
}

static void add_input(TFE_Op* op, TFE_TensorHandle* h, TF_Status* s) {
  TFE_OpAddInput(op, h, s);
  CHECK_CODE(s, TF_OK);
}

static void add_i32(TFE_Op* op, int32_t v, TF_Status* s) {
  TFE_TensorHandle* h = scalar_i32(v, s);
  add_input(op, h, s);
  TFE_DeleteTensorHandle(h);
}

static void set_str(TFE_Op* op, const char* name, const char* v) {
  TFE_OpSetAttrString(op, name, v, strlen(v));
}

/* Reads n floats of a (local) handle. */
static void read_floats(TFE_TensorHandle* h, float* out, int n,
                        TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), sizeof(float) * (size_t)n);
  memcpy(out, TF_TensorData(t), sizeof(float) * (size_t)n);
  TF_DeleteTensor(t);
}

/* ------------------------------------------------------------------------
 * Variables with TF's no-sharing name (TF's BasicTestsForTwoDevices). */

static TFE_TensorHandle* new_var(TFE_Context* ctx, const char* dev,
                                 const int64_t* dims, int nd, TF_Status* s) {
  TFE_Op* op = new_op(ctx, "VarHandleOp", dev, s);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  TFE_OpSetAttrShape(op, "shape", dims, nd, s);
  CHECK_CODE(s, TF_OK);
  set_str(op, "container", "");
  set_str(op, "shared_name", NO_SHARING);
  return exec1(op, s);
}

static void var_update(TFE_Context* ctx, const char* op_name,
                       TFE_TensorHandle* var, TFE_TensorHandle* v,
                       const char* dev, TF_Status* s) {
  TFE_Op* op = new_op(ctx, op_name, dev, s);
  TFE_TensorHandle* out[1];
  int n = 0;
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  add_input(op, var, s);
  add_input(op, v, s);
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
}

static TFE_TensorHandle* var_read(TFE_Context* ctx, TFE_TensorHandle* var,
                                  const char* dev, TF_Status* s) {
  TFE_Op* op = new_op(ctx, "ReadVariableOp", dev, s);
  TFE_OpSetAttrType(op, "dtype", TF_FLOAT);
  add_input(op, var, s);
  return exec1(op, s);
}

static void var_destroy(TFE_Context* ctx, TFE_TensorHandle* var,
                        const char* dev, TF_Status* s) {
  TFE_Op* op = new_op(ctx, "DestroyResourceOp", dev, s);
  TFE_TensorHandle* out[1];
  int n = 0;
  add_input(op, var, s);
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(var);
}

static void basic_two_devices(const char* first, const char* second) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, 0, s);
  TFE_TensorHandle *var, *init, *a, *b, *packed, *read, *comps[2];
  reg(ctx, PAR, first, second, s);

  var = new_var(ctx, PAR, NULL, 0, s);
  CHECK_CODE(s, TF_OK);
  init = scalar_f32(20.f, s);
  var_update(ctx, "AssignVariableOp", var, init, PAR, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(init);

  read = var_read(ctx, var, PAR, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, read, comps, s);
  CHECK(read_f32(comps[0], s) == 20.f);
  CHECK(read_f32(comps[1], s) == 20.f);
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(comps[0], s), first);
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(comps[1], s), second);
  TFE_DeleteTensorHandle(comps[0]);
  TFE_DeleteTensorHandle(comps[1]);
  TFE_DeleteTensorHandle(read);

  /* Different values per component: the variables must be distinct. */
  a = scalar_f32(3.f, s);
  b = scalar_f32(-2.f, s);
  packed = pack2(ctx, PAR, a, b, s);
  var_update(ctx, "AssignAddVariableOp", var, packed, PAR, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(packed);

  read = var_read(ctx, var, PAR, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, read, comps, s);
  CHECK(read_f32(comps[0], s) == 23.f);
  CHECK(read_f32(comps[1], s) == 18.f);
  TFE_DeleteTensorHandle(comps[0]);
  TFE_DeleteTensorHandle(comps[1]);
  TFE_DeleteTensorHandle(read);

  var_destroy(ctx, var, PAR, s);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(no_sharing_variables_two_cpus) {
  basic_two_devices(FULL_CPU(0), FULL_CPU(1));
}

TEST(no_sharing_variables_aliased_cpu) {
  basic_two_devices(FULL_CPU(0), FULL_CPU(0));
}

/* Two VarHandleOps with the no-sharing name on one device are two
 * variables; a named one stays shared. */
TEST(no_sharing_name_makes_a_new_variable_each_run) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(1, 0, s);
  TFE_TensorHandle* v1 = new_var(ctx, FULL_CPU(0), NULL, 0, s);
  TFE_TensorHandle* v2 = new_var(ctx, FULL_CPU(0), NULL, 0, s);
  TFE_TensorHandle *one = scalar_f32(1.f, s), *two = scalar_f32(2.f, s);
  TFE_TensorHandle* r;
  var_update(ctx, "AssignVariableOp", v1, one, NULL, s);
  CHECK_CODE(s, TF_OK);
  var_update(ctx, "AssignVariableOp", v2, two, NULL, s);
  CHECK_CODE(s, TF_OK);
  r = var_read(ctx, v1, NULL, s);
  CHECK(read_f32(r, s) == 1.f);
  TFE_DeleteTensorHandle(r);
  r = var_read(ctx, v2, NULL, s);
  CHECK(read_f32(r, s) == 2.f);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(one);
  TFE_DeleteTensorHandle(two);
  TFE_DeleteTensorHandle(v1);
  TFE_DeleteTensorHandle(v2);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Nesting (TF's TestNestedParallelDevices), copies in and out. */

TEST(nested_parallel_devices) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(3, 0, s);
  TFE_TensorHandle *one, *two, *three, *inner, *outer, *neg_inner, *neg_outer;
  TFE_TensorHandle *prod, *outer_comps[2], *inner_comps[2], *copied, *bad;
  reg(ctx, PAR, FULL_CPU(0), FULL_CPU(1), s);
  reg(ctx, PAR2, PAR, FULL_CPU(2), s);

  one = scalar_f32(1.f, s);
  two = scalar_f32(2.f, s);
  three = scalar_f32(3.f, s);
  inner = pack2(ctx, PAR, one, two, s);
  outer = pack2(ctx, PAR2, inner, three, s);
  neg_inner = pack2(ctx, PAR, three, three, s);
  neg_outer = pack2(ctx, PAR2, neg_inner, three, s);

  prod = binary(ctx, "Mul", outer, neg_outer, PAR2, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR2, prod, outer_comps, s);
  CHECK(read_f32(outer_comps[1], s) == 9.f);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(outer_comps[0], s), PAR);
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(outer_comps[1], s),
               FULL_CPU(2));
  unpack2(ctx, PAR, outer_comps[0], inner_comps, s);
  CHECK(read_f32(inner_comps[0], s) == 3.f);
  CHECK(read_f32(inner_comps[1], s) == 6.f);
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(inner_comps[0], s),
               FULL_CPU(0));
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(inner_comps[1], s),
               FULL_CPU(1));
  TFE_DeleteTensorHandle(inner_comps[0]);
  TFE_DeleteTensorHandle(inner_comps[1]);
  TFE_DeleteTensorHandle(outer_comps[0]);
  TFE_DeleteTensorHandle(outer_comps[1]);

  /* Copying in broadcasts through both levels; copying out is refused. */
  copied = TFE_TensorHandleCopyToDevice(two, ctx, PAR2, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(prod);
  prod = binary(ctx, "Mul", outer, copied, PAR2, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR2, prod, outer_comps, s);
  CHECK(read_f32(outer_comps[1], s) == 6.f);
  unpack2(ctx, PAR, outer_comps[0], inner_comps, s);
  CHECK(read_f32(inner_comps[0], s) == 2.f);
  CHECK(read_f32(inner_comps[1], s) == 4.f);
  bad = TFE_TensorHandleCopyToDevice(prod, ctx, FULL_CPU(0), s);
  CHECK(bad == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  bad = TFE_TensorHandleCopyToDevice(outer_comps[0], ctx, FULL_CPU(0), s);
  CHECK(bad == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);

  TFE_DeleteTensorHandle(inner_comps[0]);
  TFE_DeleteTensorHandle(inner_comps[1]);
  TFE_DeleteTensorHandle(outer_comps[0]);
  TFE_DeleteTensorHandle(outer_comps[1]);
  TFE_DeleteTensorHandle(copied);
  TFE_DeleteTensorHandle(prod);
  TFE_DeleteTensorHandle(neg_outer);
  TFE_DeleteTensorHandle(neg_inner);
  TFE_DeleteTensorHandle(outer);
  TFE_DeleteTensorHandle(inner);
  TFE_DeleteTensorHandle(one);
  TFE_DeleteTensorHandle(two);
  TFE_DeleteTensorHandle(three);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Collectives on a parallel device. */

/* CollectiveReduce (v1) of x on x's device. */
static TFE_TensorHandle* reduce_v1(TFE_Context* ctx, TFE_TensorHandle* x,
                                   int group_size, const char* merge,
                                   const char* final_op, TF_Status* s) {
  const char* dev = TFE_TensorHandleDeviceName(x, s);
  TFE_Op* op = new_op(ctx, "CollectiveReduce", dev, s);
  TFE_OpSetAttrType(op, "T", TFE_TensorHandleDataType(x));
  TFE_OpSetAttrInt(op, "group_size", group_size);
  TFE_OpSetAttrInt(op, "group_key", 0);
  TFE_OpSetAttrInt(op, "instance_key", 0);
  set_str(op, "merge_op", merge);
  set_str(op, "final_op", final_op);
  TFE_OpSetAttrIntList(op, "subdiv_offsets", NULL, 0);
  add_input(op, x, s);
  return exec1(op, s);
}

/* CollectiveReduceV2 of x on `dev`. */
static TFE_TensorHandle* reduce_v2(TFE_Context* ctx, const char* dev,
                                   TFE_TensorHandle* x, int group_size,
                                   int group_key, int instance_key,
                                   const char* merge, const char* final_op,
                                   float timeout, TF_Status* s) {
  TFE_Op* op = new_op(ctx, "CollectiveReduceV2", dev, s);
  add_input(op, x, s);
  add_i32(op, group_size, s);
  add_i32(op, group_key, s);
  add_i32(op, instance_key, s);
  set_str(op, "merge_op", merge);
  set_str(op, "final_op", final_op);
  if (timeout > 0) TFE_OpSetAttrFloat(op, "timeout_seconds", timeout);
  return exec1(op, s);
}

static void collective_v1(int async) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, async, s);
  TFE_TensorHandle *a, *b, *p, *r, *comps[2];
  reg(ctx, PAR, FULL_CPU(0), FULL_CPU(1), s);
  a = scalar_f32(1.f, s);
  b = scalar_f32(2.f, s);
  p = pack2(ctx, PAR, a, b, s);
  r = reduce_v1(ctx, p, 2, "Add", "Id", s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, r, comps, s);
  CHECK(read_f32(comps[0], s) == 3.f);
  CHECK(read_f32(comps[1], s) == 3.f);
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(comps[0], s), FULL_CPU(0));
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(comps[1], s), FULL_CPU(1));
  TFE_DeleteTensorHandle(comps[0]);
  TFE_DeleteTensorHandle(comps[1]);
  TFE_DeleteTensorHandle(r);
  /* The same keys again: a new run of the instance. */
  r = reduce_v1(ctx, p, 2, "Mul", "Id", s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, r, comps, s);
  CHECK(read_f32(comps[0], s) == 2.f);
  CHECK(read_f32(comps[1], s) == 2.f);
  TFE_DeleteTensorHandle(comps[0]);
  TFE_DeleteTensorHandle(comps[1]);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(collective_reduce_v1_sync) { collective_v1(0); }
TEST(collective_reduce_v1_async) { collective_v1(1); }

/* Every merge op with every final op, float and int32, on 3 components
 * (two of them the same CPU). */
TEST(collective_reduce_v2_merge_and_final_ops) {
  static const char* const merges[] = {"Add", "Mul", "Min", "Max"};
  static const float fa[3][2] = {{1.f, -4.f}, {2.f, 8.f}, {6.f, 0.5f}};
  static const int32_t ia[3][2] = {{1, -4}, {2, 8}, {6, 3}};
  const char* comps[3] = {FULL_CPU(1), FULL_CPU(0), FULL_CPU(1)};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, 0, s);
  TFE_TensorHandle *fin[3], *iin[3], *fp, *ip, *out[3];
  int m, f, c, key = 1;
  int64_t two = 2;
  TFE_RegisterParallelDevice(ctx, PAR, comps, 3, s);
  CHECK_CODE(s, TF_OK);
  for (c = 0; c < 3; c++) {
    fin[c] = vec_f32(fa[c], 2, s);
    iin[c] = make_handle(TF_INT32, &two, 1, ia[c], sizeof ia[c], s);
  }
  fp = TFE_ParallelDevicePack(ctx, PAR, fin, 3, s);
  CHECK_CODE(s, TF_OK);
  ip = TFE_ParallelDevicePack(ctx, PAR, iin, 3, s);
  CHECK_CODE(s, TF_OK);
  for (m = 0; m < 4; m++) {
    for (f = 0; f < 2; f++) {
      const char* fin_op = f ? "Div" : "Id";
      float fe[2];
      int32_t ie[2];
      int e;
      TFE_TensorHandle* r;
      for (e = 0; e < 2; e++) {
        float x = fa[0][e], y = fa[1][e], z = fa[2][e];
        int32_t i = ia[0][e], j = ia[1][e], k = ia[2][e];
        switch (m) {
          case 0: fe[e] = x + y + z; ie[e] = i + j + k; break;
          case 1: fe[e] = x * y * z; ie[e] = i * j * k; break;
          case 2:
            fe[e] = fminf(x, fminf(y, z));
            ie[e] = i < j ? (i < k ? i : k) : (j < k ? j : k);
            break;
          default:
            fe[e] = fmaxf(x, fmaxf(y, z));
            ie[e] = i > j ? (i > k ? i : k) : (j > k ? j : k);
            break;
        }
        if (f) {
          fe[e] /= 3.f;
          ie[e] /= 3;
        }
      }
      r = reduce_v2(ctx, PAR, fp, 3, 7, key++, merges[m], fin_op, 0, s);
      CHECK_CODE(s, TF_OK);
      TFE_ParallelDeviceUnpack(ctx, PAR, r, out, 3, s);
      CHECK_CODE(s, TF_OK);
      for (c = 0; c < 3; c++) {
        float got[2];
        read_floats(out[c], got, 2, s);
        if (fabsf(got[0] - fe[0]) > 1e-6f || fabsf(got[1] - fe[1]) > 1e-6f) {
          TFE_FAIL("%s/%s float component %d: got %g %g want %g %g",
                   merges[m], fin_op, c, got[0], got[1], fe[0], fe[1]);
        }
        TFE_DeleteTensorHandle(out[c]);
      }
      TFE_DeleteTensorHandle(r);

      r = reduce_v2(ctx, PAR, ip, 3, 7, key++, merges[m], fin_op, 0, s);
      CHECK_CODE(s, TF_OK);
      TFE_ParallelDeviceUnpack(ctx, PAR, r, out, 3, s);
      CHECK_CODE(s, TF_OK);
      for (c = 0; c < 3; c++) {
        TF_Tensor* t = TFE_TensorHandleResolve(out[c], s);
        const int32_t* got = (const int32_t*)TF_TensorData(t);
        CHECK_CODE(s, TF_OK);
        if (got[0] != ie[0] || got[1] != ie[1]) {
          TFE_FAIL("%s/%s int component %d: got %d %d want %d %d",
                   merges[m], fin_op, c, got[0], got[1], ie[0], ie[1]);
        }
        TF_DeleteTensor(t);
        TFE_DeleteTensorHandle(out[c]);
      }
      TFE_DeleteTensorHandle(r);
    }
  }
  for (c = 0; c < 3; c++) {
    TFE_DeleteTensorHandle(fin[c]);
    TFE_DeleteTensorHandle(iin[c]);
  }
  TFE_DeleteTensorHandle(fp);
  TFE_DeleteTensorHandle(ip);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* The other dtypes of reductions: double, int64, half and bfloat16
 * (16-bit floats given by their bits: 1.5, 2.5 and 4 are exact). */
TEST(collective_reduce_v2_other_dtypes) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, 0, s);
  const double da[2] = {1.25, -3.0}, db[2] = {2.5, 7.0};
  const int64_t la[2] = {5, -(1LL << 40)}, lb[2] = {-2, 3};
  const uint16_t ha[2] = {0x3E00, 0x4100}, hb[2] = {0x4100, 0x3E00}; /* half */
  const uint16_t ba[2] = {0x3FC0, 0x4020}, bb[2] = {0x4020, 0x3FC0}; /* bf16 */
  int64_t two = 2;
  TFE_TensorHandle *in[2], *p, *r, *out[2];
  int c, k = 40;
  reg(ctx, PAR, FULL_CPU(0), FULL_CPU(1), s);

  /* double: Add/Div -> mean. */
  in[0] = make_handle(TF_DOUBLE, &two, 1, da, sizeof da, s);
  in[1] = make_handle(TF_DOUBLE, &two, 1, db, sizeof db, s);
  p = pack2(ctx, PAR, in[0], in[1], s);
  r = reduce_v2(ctx, PAR, p, 2, 9, k++, "Add", "Div", 0, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, r, out, s);
  for (c = 0; c < 2; c++) {
    TF_Tensor* t = TFE_TensorHandleResolve(out[c], s);
    const double* v = (const double*)TF_TensorData(t);
    CHECK(v[0] == 1.875 && v[1] == 2.0);
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(out[c]);
  }
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(in[0]);
  TFE_DeleteTensorHandle(in[1]);

  /* int64: Min, and Add of values beyond 32 bits. */
  in[0] = make_handle(TF_INT64, &two, 1, la, sizeof la, s);
  in[1] = make_handle(TF_INT64, &two, 1, lb, sizeof lb, s);
  p = pack2(ctx, PAR, in[0], in[1], s);
  r = reduce_v2(ctx, PAR, p, 2, 9, k++, "Min", "Id", 0, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, r, out, s);
  for (c = 0; c < 2; c++) {
    TF_Tensor* t = TFE_TensorHandleResolve(out[c], s);
    const int64_t* v = (const int64_t*)TF_TensorData(t);
    CHECK(v[0] == -2 && v[1] == -(1LL << 40));
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(out[c]);
  }
  TFE_DeleteTensorHandle(r);
  r = reduce_v2(ctx, PAR, p, 2, 9, k++, "Add", "Id", 0, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, r, out, s);
  for (c = 0; c < 2; c++) {
    TF_Tensor* t = TFE_TensorHandleResolve(out[c], s);
    const int64_t* v = (const int64_t*)TF_TensorData(t);
    CHECK(v[0] == 3 && v[1] == -(1LL << 40) + 3);
    TF_DeleteTensor(t);
    TFE_DeleteTensorHandle(out[c]);
  }
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(in[0]);
  TFE_DeleteTensorHandle(in[1]);

  /* half and bfloat16: 1.5 + 2.5 = 4, Div -> 2 (bits 0x4000 / 0x4000). */
  for (c = 0; c < 2; c++) {
    TF_DataType dt = c == 0 ? TF_HALF : TF_BFLOAT16;
    const uint16_t* xa = c == 0 ? ha : ba;
    const uint16_t* xb = c == 0 ? hb : bb;
    const uint16_t two_bits = 0x4000; /* 2.0 in both formats */
    int m;
    in[0] = make_handle(dt, &two, 1, xa, sizeof ha, s);
    in[1] = make_handle(dt, &two, 1, xb, sizeof hb, s);
    p = pack2(ctx, PAR, in[0], in[1], s);
    r = reduce_v2(ctx, PAR, p, 2, 9, k++, "Add", "Div", 0, s);
    CHECK_CODE(s, TF_OK);
    unpack2(ctx, PAR, r, out, s);
    for (m = 0; m < 2; m++) {
      TF_Tensor* t = TFE_TensorHandleResolve(out[m], s);
      const uint16_t* v = (const uint16_t*)TF_TensorData(t);
      CHECK_EQ_INT(TF_TensorType(t), dt);
      CHECK_EQ_INT(v[0], two_bits);
      CHECK_EQ_INT(v[1], two_bits);
      TF_DeleteTensor(t);
      TFE_DeleteTensorHandle(out[m]);
    }
    TFE_DeleteTensorHandle(r);
    TFE_DeleteTensorHandle(p);
    TFE_DeleteTensorHandle(in[0]);
    TFE_DeleteTensorHandle(in[1]);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Gathers concatenate in rank order: by device name, then (same device)
 * by component. */
static void check_gather(const char* c0, const char* c1, int v2,
                         const float* want) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, 0, s);
  const float xa[2] = {1.f, 2.f}, xb[2] = {3.f, 4.f};
  TFE_TensorHandle *a, *b, *p, *r, *comps[2];
  TFE_Op* op;
  int c;
  reg(ctx, PAR, c0, c1, s);
  a = vec_f32(xa, 2, s);
  b = vec_f32(xb, 2, s);
  p = pack2(ctx, PAR, a, b, s);
  if (v2) {
    op = new_op(ctx, "CollectiveGatherV2", PAR, s);
    add_input(op, p, s);
    add_i32(op, 2, s);
    add_i32(op, 1, s);
    add_i32(op, 1, s);
  } else {
    int64_t dims[1] = {2};
    op = new_op(ctx, "CollectiveGather", PAR, s);
    add_input(op, p, s);
    TFE_OpSetAttrInt(op, "group_size", 2);
    TFE_OpSetAttrInt(op, "group_key", 1);
    TFE_OpSetAttrInt(op, "instance_key", 1);
    TFE_OpSetAttrShape(op, "shape", dims, 1, s);
    CHECK_CODE(s, TF_OK);
  }
  r = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, r, comps, s);
  for (c = 0; c < 2; c++) {
    float got[4];
    CHECK_EQ_INT(TFE_TensorHandleDim(comps[c], 0, s), 4);
    read_floats(comps[c], got, 4, s);
    CHECK(memcmp(got, want, sizeof got) == 0);
    TFE_DeleteTensorHandle(comps[c]);
  }
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(collective_gather_rank_order) {
  const float ab[4] = {1.f, 2.f, 3.f, 4.f}, ba[4] = {3.f, 4.f, 1.f, 2.f};
  check_gather(FULL_CPU(0), FULL_CPU(1), 1, ab);
  /* Component 0 on CPU:1: CPU:0's block still comes first. */
  check_gather(FULL_CPU(1), FULL_CPU(0), 1, ba);
  check_gather(FULL_CPU(1), FULL_CPU(0), 0, ba);
  /* Same device twice: component order. */
  check_gather(FULL_CPU(0), FULL_CPU(0), 1, ab);
}

/* CollectiveReduceScatterV2 and CollectiveAllToAllV2 over components
 * {CPU:1, CPU:0}: rank 0 is CPU:0, i.e. component 1. */
static TFE_TensorHandle* split_op(TFE_Context* ctx, const char* name,
                                  TFE_TensorHandle* x, int instance_key,
                                  TF_Status* s) {
  TFE_Op* op = new_op(ctx, name, PAR, s);
  add_input(op, x, s);
  add_i32(op, 2, s);
  add_i32(op, 5, s);
  add_i32(op, instance_key, s);
  if (strcmp(name, "CollectiveReduceScatterV2") == 0) {
    set_str(op, "merge_op", "Add");
    set_str(op, "final_op", "Id");
  }
  return exec1(op, s);
}

TEST(collective_reduce_scatter_and_all_to_all) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, 0, s);
  const float xa[4] = {1.f, 2.f, 3.f, 4.f}, xb[4] = {10.f, 20.f, 30.f, 40.f};
  const float odd[3] = {1.f, 2.f, 3.f};
  TFE_TensorHandle *a, *b, *p, *r, *comps[2], *o;
  float got[4];
  reg(ctx, PAR, FULL_CPU(1), FULL_CPU(0), s);
  a = vec_f32(xa, 4, s);
  b = vec_f32(xb, 4, s);
  p = pack2(ctx, PAR, a, b, s);

  /* Sum = {11, 22, 33, 44}; rank 0 (component 1) gets the first half. */
  r = split_op(ctx, "CollectiveReduceScatterV2", p, 1, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, r, comps, s);
  CHECK_EQ_INT(TFE_TensorHandleDim(comps[0], 0, s), 2);
  read_floats(comps[0], got, 2, s);
  CHECK(got[0] == 33.f && got[1] == 44.f);
  read_floats(comps[1], got, 2, s);
  CHECK(got[0] == 11.f && got[1] == 22.f);
  TFE_DeleteTensorHandle(comps[0]);
  TFE_DeleteTensorHandle(comps[1]);
  TFE_DeleteTensorHandle(r);

  /* Rank r gets block r of every member, in rank order: rank 0 (CPU:0,
   * component 1, input b) gets {b[0..1], a[0..1]}. */
  r = split_op(ctx, "CollectiveAllToAllV2", p, 2, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, r, comps, s);
  read_floats(comps[1], got, 4, s);
  CHECK(got[0] == 10.f && got[1] == 20.f && got[2] == 1.f && got[3] == 2.f);
  read_floats(comps[0], got, 4, s);
  CHECK(got[0] == 30.f && got[1] == 40.f && got[2] == 3.f && got[3] == 4.f);
  TFE_DeleteTensorHandle(comps[0]);
  TFE_DeleteTensorHandle(comps[1]);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(p);

  /* Dimension 0 must split evenly. */
  o = vec_f32(odd, 3, s);
  p = pack2(ctx, PAR, o, o, s);
  r = split_op(ctx, "CollectiveAllToAllV2", p, 3, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "multiple of group_size");
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(o);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Communicators: CollectiveInitializeCommunicator waits for its group;
 * the V3 ops use the ranks it was given (here the reverse of the device
 * order) and a new instance key each. */
TEST(communicator_and_v3_ops) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, 0, s);
  const float xa[2] = {1.f, 2.f}, xb[2] = {10.f, 20.f};
  TFE_TensorHandle *r0, *r1, *ranks, *comm, *a, *b, *p, *r, *empty, *out[2];
  TFE_Op* op;
  int64_t zero = 0;
  float got[2];
  int c;
  reg(ctx, PAR, FULL_CPU(0), FULL_CPU(1), s);
  r0 = scalar_i32(1, s);
  r1 = scalar_i32(0, s);
  ranks = pack2(ctx, PAR, r0, r1, s);
  op = new_op(ctx, "CollectiveInitializeCommunicator", PAR, s);
  add_i32(op, 6, s); /* group_key */
  add_input(op, ranks, s);
  add_i32(op, 2, s); /* group_size */
  comm = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleDataType(comm), TF_RESOURCE);

  a = vec_f32(xa, 2, s);
  b = vec_f32(xb, 2, s);
  p = pack2(ctx, PAR, a, b, s);
  empty = make_handle(TF_INT32, &zero, 1, NULL, 0, s);
  for (c = 0; c < 2; c++) { /* twice: the instance keys advance */
    op = new_op(ctx, "CollectiveReduceV3", PAR, s);
    add_input(op, p, s);
    add_input(op, comm, s);
    add_input(op, empty, s);
    set_str(op, "reduction", c == 0 ? "Add" : "Max");
    r = exec1(op, s);
    CHECK_CODE(s, TF_OK);
    unpack2(ctx, PAR, r, out, s);
    read_floats(out[1], got, 2, s);
    CHECK(got[0] == (c == 0 ? 11.f : 10.f) && got[1] == (c == 0 ? 22.f : 20.f));
    TFE_DeleteTensorHandle(out[0]);
    TFE_DeleteTensorHandle(out[1]);
    TFE_DeleteTensorHandle(r);
  }
  /* Rank 0 is component 1 (input b): component 0 (rank 1) gets block 1 of
   * b, then of a. */
  op = new_op(ctx, "CollectiveAllToAllV3", PAR, s);
  add_input(op, p, s);
  add_input(op, comm, s);
  add_input(op, empty, s);
  r = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, r, out, s);
  read_floats(out[0], got, 2, s);
  CHECK(got[0] == 20.f && got[1] == 2.f);
  read_floats(out[1], got, 2, s);
  CHECK(got[0] == 10.f && got[1] == 1.f);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(out[1]);
  TFE_DeleteTensorHandle(r);

  /* Group assignments are not supported (as in TF). */
  TFE_DeleteTensorHandle(empty);
  empty = scalar_i32(3, s);
  op = new_op(ctx, "CollectiveReduceV3", PAR, s);
  add_input(op, p, s);
  add_input(op, comm, s);
  add_input(op, empty, s);
  set_str(op, "reduction", "Add");
  r = exec1(op, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);

  /* rank >= group_size */
  op = new_op(ctx, "CollectiveInitializeCommunicator", FULL_CPU(0), s);
  add_i32(op, 7, s);
  add_i32(op, 2, s);
  add_i32(op, 2, s);
  r = exec1(op, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "rank must be less than group size");

  TFE_DeleteTensorHandle(empty);
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(comm);
  TFE_DeleteTensorHandle(ranks);
  TFE_DeleteTensorHandle(r0);
  TFE_DeleteTensorHandle(r1);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Collectives from plain threads (one member per thread). */

typedef struct member {
  TFE_Context* ctx;
  const char* device;
  const char* op; /* "send", "recv", "send1", "recv1", "reduce" */
  float value[2];
  int group_size;
  float timeout;
  float got[2];
  TF_Code code;
  char msg[512];
} member;

static void* member_main(void* arg) {
  member* m = (member*)arg;
  TF_Status* s = TF_NewStatus();
  TFE_TensorHandle* x = vec_f32(m->value, 2, s);
  TFE_TensorHandle* r = NULL;
  TFE_Op* op;
  int64_t dims[1] = {2};
  int v1 = strcmp(m->op, "send1") == 0 || strcmp(m->op, "recv1") == 0;
  if (strcmp(m->op, "reduce") == 0) {
    r = reduce_v2(m->ctx, m->device, x, m->group_size, 3, 5, "Add", "Div",
                  m->timeout, s);
  } else {
    int send = strncmp(m->op, "send", 4) == 0;
    if (v1) {
      op = new_op(m->ctx, send ? "CollectiveBcastSend" : "CollectiveBcastRecv",
                  m->device, s);
      if (send) add_input(op, x, s);
      TFE_OpSetAttrType(op, "T", TF_FLOAT);
      TFE_OpSetAttrInt(op, "group_size", m->group_size);
      TFE_OpSetAttrInt(op, "group_key", 4);
      TFE_OpSetAttrInt(op, "instance_key", 9);
      TFE_OpSetAttrShape(op, "shape", dims, 1, s);
    } else {
      op = new_op(m->ctx,
                  send ? "CollectiveBcastSendV2" : "CollectiveBcastRecvV2",
                  m->device, s);
      if (send) add_input(op, x, s);
      add_i32(op, m->group_size, s);
      add_i32(op, 4, s);
      add_i32(op, 8, s);
      if (!send) {
        int64_t rank1 = 1;
        TFE_TensorHandle* shape = make_handle(TF_INT64, &rank1, 1, dims,
                                              sizeof dims, s);
        add_input(op, shape, s);
        TFE_DeleteTensorHandle(shape);
        TFE_OpSetAttrType(op, "T", TF_FLOAT);
      }
    }
    if (m->timeout > 0) TFE_OpSetAttrFloat(op, "timeout_seconds", m->timeout);
    r = exec1(op, s);
  }
  m->code = TF_GetCode(s);
  snprintf(m->msg, sizeof m->msg, "%s", TF_Message(s));
  if (r != NULL) {
    read_floats(r, m->got, 2, s);
    TFE_DeleteTensorHandle(r);
  }
  TFE_DeleteTensorHandle(x);
  TF_DeleteStatus(s);
  return NULL;
}

static void run_members(member* ms, int n) {
  pthread_t t[8];
  int i;
  for (i = 0; i < n; i++) CHECK(pthread_create(&t[i], NULL, member_main, &ms[i]) == 0);
  for (i = 0; i < n; i++) pthread_join(t[i], NULL);
}

static void broadcast_threads(const char* send, const char* recv) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(3, 0, s);
  member ms[3];
  int i;
  memset(ms, 0, sizeof ms);
  for (i = 0; i < 3; i++) {
    ms[i].ctx = ctx;
    ms[i].group_size = 3;
    ms[i].value[0] = (float)(10 * i);
    ms[i].value[1] = (float)(10 * i + 1);
  }
  ms[0].device = FULL_CPU(1);
  ms[0].op = send;
  ms[1].device = FULL_CPU(0);
  ms[1].op = recv;
  ms[2].device = FULL_CPU(2);
  ms[2].op = recv;
  run_members(ms, 3);
  for (i = 0; i < 3; i++) {
    if (ms[i].code != TF_OK) TFE_FAIL("member %d: %s", i, ms[i].msg);
    CHECK(ms[i].got[0] == 0.f && ms[i].got[1] == 1.f);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(collective_broadcast_v2_threads) { broadcast_threads("send", "recv"); }
TEST(collective_broadcast_v1_threads) { broadcast_threads("send1", "recv1"); }

TEST(collective_reduce_v2_threads_mean) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, 0, s);
  member ms[2];
  memset(ms, 0, sizeof ms);
  ms[0].ctx = ms[1].ctx = ctx;
  ms[0].group_size = ms[1].group_size = 2;
  ms[0].op = ms[1].op = "reduce";
  ms[0].device = FULL_CPU(0);
  ms[1].device = FULL_CPU(1);
  ms[0].value[0] = 1.f;
  ms[0].value[1] = 5.f;
  ms[1].value[0] = 3.f;
  ms[1].value[1] = -1.f;
  run_members(ms, 2);
  CHECK_EQ_INT(ms[0].code, TF_OK);
  CHECK_EQ_INT(ms[1].code, TF_OK);
  CHECK(ms[0].got[0] == 2.f && ms[0].got[1] == 2.f);
  CHECK(ms[1].got[0] == 2.f && ms[1].got[1] == 2.f);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Errors: nothing hangs. */

TEST(collective_group_size_mismatch) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, 0, s);
  member ms[2];
  int i;
  memset(ms, 0, sizeof ms);
  for (i = 0; i < 2; i++) {
    ms[i].ctx = ctx;
    ms[i].op = "reduce";
    ms[i].timeout = 5.f;
  }
  ms[0].device = FULL_CPU(0);
  ms[0].group_size = 2;
  ms[1].device = FULL_CPU(1);
  ms[1].group_size = 3;
  run_members(ms, 2);
  /* Whoever joined second breaks the group; both fail with TF's error. */
  for (i = 0; i < 2; i++) {
    CHECK_EQ_INT(ms[i].code, TF_INTERNAL);
    CHECK_STR_CONTAINS(ms[i].msg, "but that group has size");
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(collective_timeout_and_shape_mismatch) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, 0, s);
  const float xa[2] = {1.f, 2.f}, xb[3] = {3.f, 4.f, 5.f};
  TFE_TensorHandle *a, *b, *p, *r;
  reg(ctx, PAR, FULL_CPU(0), FULL_CPU(1), s);
  a = vec_f32(xa, 2, s);
  b = vec_f32(xb, 3, s);

  /* group_size 3 with 2 components: nobody else comes. */
  p = pack2(ctx, PAR, a, a, s);
  r = reduce_v2(ctx, PAR, p, 3, 11, 1, "Add", "Id", 0.2f, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_DEADLINE_EXCEEDED);
  CHECK_STR_CONTAINS(TF_Message(s), "Collective has timed out");
  TFE_DeleteTensorHandle(p);

  /* Different shapes per component. */
  p = pack2(ctx, PAR, a, b, s);
  r = reduce_v2(ctx, PAR, p, 2, 12, 1, "Add", "Id", 5.f, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Shape mismatch in the collective instance");
  TFE_DeleteTensorHandle(p);

  /* The failed keys can be used again. */
  p = pack2(ctx, PAR, a, a, s);
  r = reduce_v2(ctx, PAR, p, 2, 12, 1, "Add", "Id", 5.f, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(p);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(collective_argument_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(1, 0, s);
  const float xa[2] = {1.f, 2.f};
  TFE_TensorHandle *a = vec_f32(xa, 2, s), *sc = scalar_f32(1.f, s), *r;
  TFE_Op* op;
  int64_t two = 2;
  int32_t sizes[2] = {1, 1};
  TFE_TensorHandle* vec_size;

  /* group_size must be positive. */
  r = reduce_v2(ctx, FULL_CPU(0), a, 0, 1, 1, "Add", "Id", 0, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "group_size must be positive integer but got 0");

  /* An unknown merge op is refused by the op's attr values. */
  op = new_op(ctx, "CollectiveReduceV2", FULL_CPU(0), s);
  add_input(op, a, s);
  add_i32(op, 1, s);
  add_i32(op, 1, s);
  add_i32(op, 1, s);
  set_str(op, "merge_op", "Sum");
  set_str(op, "final_op", "Id");
  r = exec1(op, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "merge_op");

  /* group_size must be a scalar. */
  vec_size = make_handle(TF_INT32, &two, 1, sizes, sizeof sizes, s);
  op = new_op(ctx, "CollectiveReduceV2", FULL_CPU(0), s);
  add_input(op, a, s);
  add_input(op, vec_size, s);
  add_i32(op, 1, s);
  add_i32(op, 1, s);
  set_str(op, "merge_op", "Add");
  set_str(op, "final_op", "Id");
  r = exec1(op, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "Unexpected dimensions on input group_size");
  TFE_DeleteTensorHandle(vec_size);

  /* Gathers need rank >= 1. */
  op = new_op(ctx, "CollectiveGatherV2", FULL_CPU(0), s);
  add_input(op, sc, s);
  add_i32(op, 1, s);
  add_i32(op, 1, s);
  add_i32(op, 1, s);
  r = exec1(op, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "input should have rank > 0");

  /* A group of one is the identity. */
  r = reduce_v2(ctx, FULL_CPU(0), a, 1, 2, 1, "Add", "Div", 0, s);
  CHECK_CODE(s, TF_OK);
  {
    float got[2];
    read_floats(r, got, 2, s);
    CHECK(got[0] == 1.f && got[1] == 2.f);
  }
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(sc);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* TFE_AbortCollectiveOps fails the waiting members and every later
 * collective of the context with the given status. */
TEST(abort_collective_ops_wakes_waiting_members) {
  TF_Status* s = TF_NewStatus();
  TF_Status* why = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, 0, s);
  struct timespec pause = {0, 100 * 1000 * 1000};
  const float xa[2] = {1.f, 2.f};
  TFE_TensorHandle *a, *r;
  member m;
  pthread_t t;
  memset(&m, 0, sizeof m);
  m.ctx = ctx;
  m.device = FULL_CPU(0);
  m.op = "reduce";
  m.group_size = 2; /* the second member never comes */
  m.timeout = 30.f;
  CHECK(pthread_create(&t, NULL, member_main, &m) == 0);
  nanosleep(&pause, NULL);
  TF_SetStatus(why, TF_CANCELLED, "stop now");
  TFE_AbortCollectiveOps(ctx, why);
  pthread_join(t, NULL);
  CHECK_EQ_INT(m.code, TF_CANCELLED);
  CHECK_STR_EQ(m.msg, "stop now");
  /* Later collectives of the context fail at once. */
  a = vec_f32(xa, 2, s);
  r = reduce_v2(ctx, FULL_CPU(1), a, 1, 30, 1, "Add", "Id", 0, s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_CANCELLED);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(why);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Data-parallel training: one gradient-descent step of a linear model,
 * loss = mean((x w - y)^2), with each component holding half the batch and
 * the gradients averaged by an all-reduce. The new weights equal the
 * full-batch step on one device. */

static TFE_TensorHandle* mat(const float* v, int64_t r, int64_t c,
                             TF_Status* s) {
  int64_t dims[2];
  dims[0] = r;
  dims[1] = c;
  return make_handle(TF_FLOAT, dims, 2, v, sizeof(float) * (size_t)(r * c), s);
}

/* grad = (2 / rows) * x^T (x w - y) on `dev`. */
static TFE_TensorHandle* gradient(TFE_Context* ctx, const char* dev,
                                  TFE_TensorHandle* x, TFE_TensorHandle* w,
                                  TFE_TensorHandle* y, float scale,
                                  TF_Status* s) {
  TFE_TensorHandle *pred, *err, *xt_err, *k, *g;
  TFE_Op* op;
  pred = binary(ctx, "MatMul", x, w, dev, s);
  CHECK_CODE(s, TF_OK);
  err = binary(ctx, "Sub", pred, y, dev, s);
  CHECK_CODE(s, TF_OK);
  op = new_op(ctx, "MatMul", dev, s);
  add_input(op, x, s);
  add_input(op, err, s);
  TFE_OpSetAttrBool(op, "transpose_a", 1);
  xt_err = exec1(op, s);
  CHECK_CODE(s, TF_OK);
  k = scalar_f32(scale, s);
  g = binary(ctx, "Mul", xt_err, k, dev, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(pred);
  TFE_DeleteTensorHandle(err);
  TFE_DeleteTensorHandle(xt_err);
  TFE_DeleteTensorHandle(k);
  return g;
}

TEST(data_parallel_training_step_matches_one_device) {
  /* 4 examples, 3 features, 1 output; components get rows 0-1 and 2-3. */
  static const float X[12] = {1, 2, 0.5f, -1, 0, 3, 2, 2, 1, 0.5f, -2, 1};
  static const float Y[4] = {1, -2, 4, 0.5f};
  static const float W0[3] = {0.1f, -0.2f, 0.3f};
  const float lr = 0.05f;
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = ctx_cpus(2, 0, s);
  TFE_TensorHandle *x_all, *y_all, *w0, *x0, *x1, *y0, *y1, *xp, *yp;
  TFE_TensorHandle *var, *wread, *g, *gmean, *lrh, *step, *comps[2];
  TFE_TensorHandle *g_ref, *step_ref, *w_ref;
  int64_t wdims[2] = {3, 1};
  float want[3], got[3];
  int c, i;
  reg(ctx, PAR, FULL_CPU(0), FULL_CPU(1), s);

  x_all = mat(X, 4, 3, s);
  y_all = mat(Y, 4, 1, s);
  w0 = mat(W0, 3, 1, s);
  x0 = mat(X, 2, 3, s);
  x1 = mat(X + 6, 2, 3, s);
  y0 = mat(Y, 2, 1, s);
  y1 = mat(Y + 2, 2, 1, s);
  xp = pack2(ctx, PAR, x0, x1, s);
  yp = pack2(ctx, PAR, y0, y1, s);
  lrh = scalar_f32(lr, s);

  /* Replicated weights: a no-sharing variable per component. */
  var = new_var(ctx, PAR, wdims, 2, s);
  CHECK_CODE(s, TF_OK);
  var_update(ctx, "AssignVariableOp", var, w0, PAR, s);
  CHECK_CODE(s, TF_OK);

  wread = var_read(ctx, var, PAR, s);
  CHECK_CODE(s, TF_OK);
  g = gradient(ctx, PAR, xp, wread, yp, 2.f / 2.f, s);
  gmean = reduce_v2(ctx, PAR, g, 2, 21, 1, "Add", "Div", 0, s);
  CHECK_CODE(s, TF_OK);
  step = binary(ctx, "Mul", gmean, lrh, PAR, s);
  CHECK_CODE(s, TF_OK);
  var_update(ctx, "AssignSubVariableOp", var, step, PAR, s);
  CHECK_CODE(s, TF_OK);

  /* The same step on one device with the whole batch. */
  g_ref = gradient(ctx, FULL_CPU(0), x_all, w0, y_all, 2.f / 4.f, s);
  step_ref = binary(ctx, "Mul", g_ref, lrh, FULL_CPU(0), s);
  CHECK_CODE(s, TF_OK);
  w_ref = binary(ctx, "Sub", w0, step_ref, FULL_CPU(0), s);
  CHECK_CODE(s, TF_OK);
  read_floats(w_ref, want, 3, s);

  TFE_DeleteTensorHandle(wread);
  wread = var_read(ctx, var, PAR, s);
  CHECK_CODE(s, TF_OK);
  unpack2(ctx, PAR, wread, comps, s);
  for (c = 0; c < 2; c++) {
    read_floats(comps[c], got, 3, s);
    for (i = 0; i < 3; i++) {
      if (fabsf(got[i] - want[i]) > 1e-6f) {
        TFE_FAIL("component %d weight %d: %g vs %g", c, i, got[i], want[i]);
      }
    }
    CHECK(got[0] != W0[0]); /* it did move */
    TFE_DeleteTensorHandle(comps[c]);
  }

  TFE_DeleteTensorHandle(wread);
  TFE_DeleteTensorHandle(g);
  TFE_DeleteTensorHandle(gmean);
  TFE_DeleteTensorHandle(step);
  TFE_DeleteTensorHandle(g_ref);
  TFE_DeleteTensorHandle(step_ref);
  TFE_DeleteTensorHandle(w_ref);
  var_destroy(ctx, var, PAR, s);
  TFE_DeleteTensorHandle(lrh);
  TFE_DeleteTensorHandle(xp);
  TFE_DeleteTensorHandle(yp);
  TFE_DeleteTensorHandle(x_all);
  TFE_DeleteTensorHandle(y_all);
  TFE_DeleteTensorHandle(w0);
  TFE_DeleteTensorHandle(x0);
  TFE_DeleteTensorHandle(x1);
  TFE_DeleteTensorHandle(y0);
  TFE_DeleteTensorHandle(y1);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
