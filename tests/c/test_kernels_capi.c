/* kernels.h: builders, registration and selection, TF_OpKernelConstruction
 * attrs and failures, TF_OpKernelContext inputs/outputs/allocation/ids.
 * The ops (ops.h) and CPU kernels are defined by this test program
 * itself, as a kernel library would. */
#define _GNU_SOURCE 1
#include <pthread.h>

#include "se_test_util.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/kernels_experimental.h"
#include "tensorflow/c/ops.h"

static void define_op(const char* name, const char* const* specs) {
  TF_Status* s = TF_NewStatus();
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder(name);
  for (; *specs != NULL; specs++) {
    if (strncmp(*specs, "in:", 3) == 0) {
      TF_OpDefinitionBuilderAddInput(b, *specs + 3);
    } else if (strncmp(*specs, "out:", 4) == 0) {
      TF_OpDefinitionBuilderAddOutput(b, *specs + 4);
    } else {
      TF_OpDefinitionBuilderAddAttr(b, *specs + 5);
    }
  }
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

static void reg(TF_KernelBuilder* b, const char* name) {
  TF_Status* s = TF_NewStatus();
  TF_RegisterKernelBuilder(name, b, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteStatus(s);
}

/* ======================================================================
 * Attributes at construction. */

typedef struct seen_attrs {
  int ran;
  int32_t list_size, total_size, str_total, shape_total;
  char s[16];
  int64_t i;
  int32_t i32;
  float f;
  TF_Bool b;
  TF_DataType t;
  int64_t shape[3];
  float tensor0;
  int64_t li[3];
  int32_t li32[3];
  float lf[2];
  TF_Bool lb[2];
  TF_DataType lt[2];
  char ls[2][8];
  size_t ls_len[2];
  float lte[2];
  int has_i, has_nope;
  TF_Code missing, wrong_kind, i32_range, string_list_small;
  char node_name[32];
  int nodedef_has_attr;
  int func_len;
} seen_attrs;

static seen_attrs g_seen;

static void* attrs_create(TF_OpKernelConstruction* c) {
  TF_Status* st = TF_NewStatus();
  TF_Tensor* t = NULL;
  TF_Tensor* ts[2] = {NULL, NULL};
  char* vals[2];
  char storage[16];
  int32_t ls, ts_total;
  TF_StringView name;
  TF_Buffer* nd;
  memset(&g_seen, 0, sizeof g_seen);
  g_seen.ran = 1;
  TF_OpKernelConstruction_GetAttrSize(c, "li", &g_seen.list_size,
                                      &g_seen.total_size, st);
  CHECK_CODE(st, TF_OK);
  TF_OpKernelConstruction_GetAttrSize(c, "s", &ls, &g_seen.str_total, st);
  CHECK_EQ_INT(ls, -1);
  TF_OpKernelConstruction_GetAttrSize(c, "sh", &ls, &g_seen.shape_total, st);
  TF_OpKernelConstruction_GetAttrSize(c, "ls", &ls, &ts_total, st);
  CHECK_EQ_INT(ls, 2);
  CHECK_EQ_INT(ts_total, 7);
  TF_OpKernelConstruction_GetAttrString(c, "s", g_seen.s, sizeof g_seen.s,
                                        st);
  CHECK_CODE(st, TF_OK);
  TF_OpKernelConstruction_GetAttrInt64(c, "i", &g_seen.i, st);
  TF_OpKernelConstruction_GetAttrInt32(c, "i", &g_seen.i32, st);
  CHECK_CODE(st, TF_OK);
  TF_OpKernelConstruction_GetAttrFloat(c, "f", &g_seen.f, st);
  TF_OpKernelConstruction_GetAttrBool(c, "b", &g_seen.b, st);
  TF_OpKernelConstruction_GetAttrType(c, "T", &g_seen.t, st);
  TF_OpKernelConstruction_GetAttrTensorShape(c, "sh", g_seen.shape, 3, st);
  CHECK_CODE(st, TF_OK);
  TF_OpKernelConstruction_GetAttrTensor(c, "te", &t, st);
  CHECK_CODE(st, TF_OK);
  memcpy(&g_seen.tensor0, TF_TensorData(t), sizeof(float));
  TF_DeleteTensor(t);
  TF_OpKernelConstruction_GetAttrInt64List(c, "li", g_seen.li, 3, st);
  TF_OpKernelConstruction_GetAttrInt32List(c, "li", g_seen.li32, 3, st);
  TF_OpKernelConstruction_GetAttrFloatList(c, "lf", g_seen.lf, 2, st);
  TF_OpKernelConstruction_GetAttrBoolList(c, "lb", g_seen.lb, 2, st);
  TF_OpKernelConstruction_GetAttrTypeList(c, "lt", g_seen.lt, 2, st);
  CHECK_CODE(st, TF_OK);
  TF_OpKernelConstruction_GetAttrStringList(c, "ls", vals, g_seen.ls_len, 2,
                                            storage, sizeof storage, st);
  CHECK_CODE(st, TF_OK);
  memcpy(g_seen.ls[0], vals[0], g_seen.ls_len[0]);
  memcpy(g_seen.ls[1], vals[1], g_seen.ls_len[1]);
  TF_OpKernelConstruction_GetAttrStringList(c, "ls", vals, g_seen.ls_len, 2,
                                            storage, 3, st);
  g_seen.string_list_small = TF_GetCode(st);
  TF_OpKernelConstruction_GetAttrTensorList(c, "lte", ts, 2, st);
  CHECK_CODE(st, TF_OK);
  memcpy(&g_seen.lte[0], TF_TensorData(ts[0]), sizeof(float));
  memcpy(&g_seen.lte[1], TF_TensorData(ts[1]), sizeof(float));
  TF_DeleteTensor(ts[0]);
  TF_DeleteTensor(ts[1]);
  g_seen.has_i = TF_OpKernelConstruction_HasAttr(c, "i", st);
  g_seen.has_nope = TF_OpKernelConstruction_HasAttr(c, "nope", st);
  TF_OpKernelConstruction_GetAttrInt64(c, "nope", &g_seen.i, st);
  g_seen.missing = TF_GetCode(st);
  TF_OpKernelConstruction_GetAttrFloat(c, "i", &g_seen.f, st);
  g_seen.wrong_kind = TF_GetCode(st);
  TF_OpKernelConstruction_GetAttrInt32(c, "big", &g_seen.i32, st);
  g_seen.i32_range = TF_GetCode(st);
  TF_OpKernelConstruction_GetAttrInt32(c, "i", &g_seen.i32, st);
  name = TF_OpKernelConstruction_GetName(c);
  memcpy(g_seen.node_name, name.data, name.len);
  nd = TF_OpKernelConstruction_GetNodeDef(c, st);
  CHECK_CODE(st, TF_OK);
  {
    size_t k;
    for (k = 0; k + 3 <= nd->length; k++) {
      if (memcmp((const char*)nd->data + k, "lte", 3) == 0) {
        g_seen.nodedef_has_attr = 1;
      }
    }
  }
  TF_DeleteBuffer(nd);
  {
    TF_Buffer* fb = TF_OpKernelConstruction_GetAttrFunction(c, "fn", st);
    CHECK_CODE(st, TF_OK);
    g_seen.func_len = (int)fb->length;
    TF_DeleteBuffer(fb);
  }
  TF_DeleteStatus(st);
  return NULL;
}

static void noop_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TF_AllocateOutput(ctx, 0, TF_FLOAT, NULL, 0, 4, s);
  CHECK_CODE(s, TF_OK);
  *(float*)TF_TensorData(t) = 0;
  TF_DeleteTensor(t);
  (void)k;
  TF_DeleteStatus(s);
}

TEST(construction_sees_attrs_of_every_type) {
  static const char* const specs[] = {
      "out:y: float",          "attr:s: string",
      "attr:i: int",           "attr:big: int = 5000000000",
      "attr:f: float",         "attr:b: bool",
      "attr:T: type",          "attr:sh: shape",
      "attr:te: tensor",       "attr:li: list(int)",
      "attr:lf: list(float)",  "attr:lb: list(bool)",
      "attr:lt: list(type)",   "attr:ls: list(string)",
      "attr:lte: list(tensor)", "attr:fn: func",
      NULL};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_Op* op;
  TFE_TensorHandle* out;
  int n = 1;
  int64_t shape[3] = {2, -1, 4}, li[3] = {1, 2, 3};
  float lf[2] = {0.5f, 1.5f};
  unsigned char lb[2] = {1, 0};
  TF_DataType lt[2] = {TF_INT32, TF_DOUBLE};
  const void* ls[2] = {"abc", "dcba"};
  size_t ls_len[2] = {3, 4};
  float te = 4.25f;
  TF_Tensor* tt;
  define_op("KcAttrs", specs);
  reg(TF_NewKernelBuilder("KcAttrs", "CPU", attrs_create, noop_compute, NULL),
      "KcAttrsCpu");
  ctx = new_ctx(s);
  op = TFE_NewOp(ctx, "KcAttrs", s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrString(op, "s", "hello", 5);
  TFE_OpSetAttrInt(op, "i", -42);
  TFE_OpSetAttrFloat(op, "f", 2.5f);
  TFE_OpSetAttrBool(op, "b", 1);
  TFE_OpSetAttrType(op, "T", TF_HALF);
  TFE_OpSetAttrShape(op, "sh", shape, 3, s);
  tt = TF_AllocateTensor(TF_FLOAT, NULL, 0, 4);
  memcpy(TF_TensorData(tt), &te, 4);
  TFE_OpSetAttrTensor(op, "te", tt, s);
  TFE_OpSetAttrIntList(op, "li", li, 3);
  TFE_OpSetAttrFloatList(op, "lf", lf, 2);
  TFE_OpSetAttrBoolList(op, "lb", lb, 2);
  TFE_OpSetAttrTypeList(op, "lt", lt, 2);
  TFE_OpSetAttrStringList(op, "ls", ls, ls_len, 2);
  {
    /* AttrValue{list{tensor: [7.0f, 8.0f]}}: the eager API has no setter
     * for tensor lists, so the value goes in as a proto. */
    static const unsigned char proto[] = {
        0x0a, 0x18,                                           /* list */
        0x42, 0x0a, 0x08, 0x01, 0x12, 0x00, 0x2a, 0x04, 0x00, 0x00, 0xe0,
        0x40,                                                 /* 7.0f */
        0x42, 0x0a, 0x08, 0x01, 0x12, 0x00, 0x2a, 0x04, 0x00, 0x00, 0x00,
        0x41};                                                /* 8.0f */
    TFE_OpSetAttrValueProto(op, "lte", proto, sizeof proto, s);
    CHECK_CODE(s, TF_OK);
  }
  TFE_OpSetAttrFunctionName(op, "fn", "my_function", 11);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK(g_seen.ran);
  CHECK_EQ_INT(g_seen.list_size, 3);
  CHECK_EQ_INT(g_seen.str_total, 5);
  CHECK_EQ_INT(g_seen.shape_total, 3);
  CHECK(memcmp(g_seen.s, "hello", 5) == 0);
  CHECK_EQ_INT(g_seen.i, -42);
  CHECK_EQ_INT(g_seen.i32, -42);
  CHECK(g_seen.f == 2.5f);
  CHECK_EQ_INT(g_seen.b, 1);
  CHECK_EQ_INT(g_seen.t, TF_HALF);
  CHECK(g_seen.shape[0] == 2 && g_seen.shape[1] == -1 && g_seen.shape[2] == 4);
  CHECK(g_seen.tensor0 == 4.25f);
  CHECK(g_seen.li[2] == 3 && g_seen.li32[0] == 1);
  CHECK(g_seen.lf[1] == 1.5f);
  CHECK(g_seen.lb[0] == 1 && g_seen.lb[1] == 0);
  CHECK(g_seen.lt[0] == TF_INT32 && g_seen.lt[1] == TF_DOUBLE);
  CHECK(g_seen.ls_len[0] == 3 && memcmp(g_seen.ls[1], "dcba", 4) == 0);
  CHECK_EQ_INT(g_seen.string_list_small, TF_INVALID_ARGUMENT);
  CHECK(g_seen.lte[0] == 7 && g_seen.lte[1] == 8);
  CHECK(g_seen.has_i && !g_seen.has_nope);
  CHECK_EQ_INT(g_seen.missing, TF_NOT_FOUND);
  CHECK_EQ_INT(g_seen.wrong_kind, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_seen.i32_range, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(g_seen.node_name, "KcAttrs");
  CHECK(g_seen.nodedef_has_attr);
  CHECK_EQ_INT(g_seen.func_len, 13); /* field 1, length 11, "my_function" */
  TFE_DeleteTensorHandle(out);
  TFE_DeleteOp(op);
  TF_DeleteTensor(tt);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ======================================================================
 * Construction failure and delete_func. */

static int g_deletes, g_creates;

static void* failing_create(TF_OpKernelConstruction* c) {
  TF_Status* st = TF_NewStatus();
  g_creates++;
  TF_SetStatus(st, TF_FAILED_PRECONDITION, "kernel refuses these attrs");
  TF_OpKernelConstruction_Failure(c, st);
  TF_DeleteStatus(st);
  return &g_deletes;
}

static void counting_delete(void* p) {
  CHECK(p == &g_deletes || p == NULL);
  g_deletes++;
}

TEST(construction_failure_fails_the_op) {
  static const char* const specs[] = {"out:y: float", NULL};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle* out = NULL;
  TFE_Op* op;
  int n = 1;
  define_op("KcFailCreate", specs);
  reg(TF_NewKernelBuilder("KcFailCreate", "CPU", failing_create, noop_compute,
                          counting_delete),
      "KcFailCreateCpu");
  ctx = new_ctx(s);
  op = TFE_NewOp(ctx, "KcFailCreate", s);
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK_STR_EQ(TF_Message(s), "kernel refuses these attrs");
  CHECK_EQ_INT(g_creates, 1);
  CHECK_EQ_INT(g_deletes, 1); /* what create returned is deleted */
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ======================================================================
 * The kernel context. */

typedef struct ctx_seen {
  int num_inputs, num_outputs, start, stop;
  TF_DataType in_dtype, expected;
  int host_in, host_out;
  TF_Code get_input_oob, set_output_null, set_output_dtype, stream_code,
      mutable_unset, alloc_bad_dtype, ref_oob, by_name_list;
  int forwarded;
  int64_t step, frame, iter;
  int device_id, graph_version;
  char device[96], kernel_name[32], container[32];
  size_t requested_len;
  int is_ref;
  size_t fdl_len;
  TF_Code cfg_nonempty;
} ctx_seen;

static ctx_seen g_ctx;

/* KcSum(xs: N * T, scale: float) -> total: T, copy: T */
static void ctx_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  TF_InputRange_Args range;
  TF_Tensor *t = NULL, *total, *tmp, *scale = NULL, *first = NULL;
  TF_AllocatorAttributes host_attrs;
  TF_StringView v;
  TF_Buffer fdl = {NULL, 0, NULL}, cfg = {"x", 1, NULL};
  float acc = 0;
  int i, fwd = 7, cand[1] = {0};
  (void)k;
  memset(&g_ctx, 0, sizeof g_ctx);
  g_ctx.num_inputs = TF_NumInputs(ctx);
  g_ctx.num_outputs = TF_NumOutputs(ctx);
  range.struct_size = TF_InputRange_Args_STRUCT_SIZE;
  range.status = st;
  TF_InputRange(ctx, "xs", &range);
  CHECK_CODE(st, TF_OK);
  g_ctx.start = range.start;
  g_ctx.stop = range.stop;
  TF_InputRange(ctx, "nope", &range);
  CHECK_CODE(st, TF_INVALID_ARGUMENT);
  g_ctx.in_dtype = TF_InputDatatype(ctx, 0);
  g_ctx.expected = TF_ExpectedOutputDataType(ctx, 1);
  g_ctx.host_in = TF_IsHostMemoryInput(ctx, 0, st);
  g_ctx.host_out = TF_IsHostMemoryOutput(ctx, 0, st);
  TF_GetInput(ctx, 99, &t, st);
  g_ctx.get_input_oob = TF_GetCode(st);
  for (i = range.start; i < range.stop; i++) {
    TF_GetInput(ctx, i, &t, st);
    CHECK_CODE(st, TF_OK);
    acc += *(const float*)TF_TensorData(t);
    if (i == 0) first = t;
    else TF_DeleteTensor(t);
  }
  TF_GetInputByName(ctx, "scale", &scale, st);
  CHECK_CODE(st, TF_OK);
  acc *= *(const float*)TF_TensorData(scale);
  TF_GetInputByName(ctx, "xs", &t, st);
  g_ctx.by_name_list = TF_GetCode(st);
  /* A scratch tensor, on the host. */
  host_attrs.struct_size = TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE;
  host_attrs.on_host = 1;
  tmp = TF_AllocateTemp(ctx, TF_FLOAT, NULL, 0, &host_attrs, st);
  CHECK_CODE(st, TF_OK);
  *(float*)TF_TensorData(tmp) = acc;
  total = TF_ForwardInputOrAllocateOutput(ctx, cand, 1, 0, NULL, 0, &fwd, st);
  CHECK_CODE(st, TF_OK);
  g_ctx.forwarded = fwd;
  memcpy(TF_TensorData(total), TF_TensorData(tmp), sizeof(float));
  TF_DeleteTensor(tmp);
  TF_DeleteTensor(total);
  /* Output 1 is set from an existing tensor; errors first. */
  TF_GetMutableOutput(ctx, 1, st);
  g_ctx.mutable_unset = TF_GetCode(st);
  TF_SetOutput(ctx, 1, NULL, st);
  g_ctx.set_output_null = TF_GetCode(st);
  {
    TF_Tensor* wrong = TF_AllocateTensor(TF_INT32, NULL, 0, 4);
    TF_SetOutput(ctx, 1, wrong, st);
    g_ctx.set_output_dtype = TF_GetCode(st);
    TF_DeleteTensor(wrong);
  }
  TF_AllocateOutput(ctx, 1, TF_INT32, NULL, 0, 4, st);
  g_ctx.alloc_bad_dtype = TF_GetCode(st);
  TF_SetOutput(ctx, 1, first, st);
  CHECK_CODE(st, TF_OK);
  t = TF_GetMutableOutput(ctx, 1, st);
  CHECK_CODE(st, TF_OK);
  CHECK(TF_TensorData(t) == TF_TensorData(first));
  TF_DeleteTensor(t);
  TF_DeleteTensor(first);
  TF_DeleteTensor(scale);
  TF_GetStream(ctx, st);
  g_ctx.stream_code = TF_GetCode(st);
  g_ctx.step = TF_StepId(ctx) + TF_GetStepId(ctx);
  g_ctx.frame = (int64_t)TF_GetFrameId(ctx);
  g_ctx.iter = TF_GetIterId(ctx);
  g_ctx.device_id = TF_GetDeviceId(ctx);
  g_ctx.graph_version = TF_GetGraphDefVersion(ctx);
  v = TF_GetDeviceName(ctx);
  memcpy(g_ctx.device, v.data, v.len);
  v = TF_GetOpKernelName(ctx);
  memcpy(g_ctx.kernel_name, v.data, v.len);
  v = TF_GetResourceMgrDefaultContainerName(ctx);
  memcpy(g_ctx.container, v.data, v.len);
  g_ctx.requested_len = TF_GetOpKernelRequestedInput(ctx, 0).len;
  g_ctx.is_ref = TF_IsRefInput(ctx, 0, st);
  TF_IsRefInput(ctx, -1, st);
  g_ctx.ref_oob = TF_GetCode(st);
  TF_GetSerializedFunctionDefLibrary(ctx, &fdl, st);
  CHECK_CODE(st, TF_OK);
  g_ctx.fdl_len = fdl.length;
  TF_GetSerializedConfigProto(ctx, &cfg, st);
  g_ctx.cfg_nonempty = TF_GetCode(st);
  TF_IncNumDeferredOps(ctx);
  TF_DecNumDeferredOps(ctx);
  TF_DeleteStatus(st);
}

TEST(kernel_context_inputs_outputs_and_ids) {
  static const char* const specs[] = {
      "in:xs: N * T", "in:scale: float", "out:total: T", "out:copy: T",
      "attr:N: int >= 1", "attr:T: {float}", NULL};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle *a, *b, *c, *sc, *out[2];
  TFE_Op* op;
  int n = 2;
  define_op("KcSum", specs);
  reg(TF_NewKernelBuilder("KcSum", "CPU", NULL, ctx_compute, NULL), "KcSumCpu");
  ctx = new_ctx(s);
  a = scalar_f32(1, s);
  b = scalar_f32(2, s);
  c = scalar_f32(4, s);
  sc = scalar_f32(10, s);
  op = TFE_NewOp(ctx, "KcSum", s);
  {
    TFE_TensorHandle* xs[3] = {a, b, c};
    TFE_OpAddInputList(op, xs, 3, s);
  }
  TFE_OpAddInput(op, sc, s);
  CHECK_CODE(s, TF_OK);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(out[0], s) == 70);
  CHECK(read_f32(out[1], s) == 1);
  CHECK_EQ_INT(g_ctx.num_inputs, 4);
  CHECK_EQ_INT(g_ctx.num_outputs, 2);
  CHECK(g_ctx.start == 0 && g_ctx.stop == 3);
  CHECK_EQ_INT(g_ctx.in_dtype, TF_FLOAT);
  CHECK_EQ_INT(g_ctx.expected, TF_FLOAT);
  CHECK(g_ctx.host_in && g_ctx.host_out);
  CHECK_EQ_INT(g_ctx.get_input_oob, TF_OUT_OF_RANGE);
  CHECK_EQ_INT(g_ctx.by_name_list, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_ctx.forwarded, -1);
  CHECK_EQ_INT(g_ctx.mutable_unset, TF_FAILED_PRECONDITION);
  CHECK_EQ_INT(g_ctx.set_output_null, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_ctx.set_output_dtype, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_ctx.alloc_bad_dtype, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_ctx.stream_code, TF_FAILED_PRECONDITION);
  CHECK_EQ_INT(g_ctx.step + g_ctx.frame + g_ctx.iter, 0);
  CHECK_EQ_INT(g_ctx.device_id, 0);
  CHECK_EQ_INT(g_ctx.graph_version, 2474); /* TF 2.21.0's TF_GRAPH_DEF_VERSION */
  CHECK_STR_EQ(g_ctx.device, CPU0);
  CHECK_STR_EQ(g_ctx.kernel_name, "KcSum");
  CHECK_STR_EQ(g_ctx.container, "localhost");
  CHECK_EQ_SIZE(g_ctx.requested_len, 0);
  CHECK(!g_ctx.is_ref);
  CHECK_EQ_INT(g_ctx.ref_oob, TF_OUT_OF_RANGE);
  CHECK_EQ_SIZE(g_ctx.fdl_len, 0);
  CHECK_EQ_INT(g_ctx.cfg_nonempty, TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(out[1]);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(c);
  TFE_DeleteTensorHandle(sc);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ======================================================================
 * Failures from compute, async kernels, selection. */

static void failing_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  TF_Tensor* t = TF_AllocateOutput(ctx, 0, TF_FLOAT, NULL, 0, 4, st);
  TF_DeleteTensor(t);
  (void)k;
  TF_SetStatus(st, TF_OUT_OF_RANGE, "compute says no");
  TF_OpKernelContext_Failure(ctx, st);
  /* An OK status does not clear the failure. */
  TF_SetStatus(st, TF_OK, "");
  TF_OpKernelContext_Failure(ctx, st);
  TF_DeleteStatus(st);
}

TEST(compute_failure_fails_the_op_without_leaks) {
  static const char* const specs[] = {"out:y: float", NULL};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle* out = NULL;
  TFE_Op* op;
  live_counts before;
  int n = 1;
  define_op("KcFailCompute", specs);
  reg(TF_NewKernelBuilder("KcFailCompute", "CPU", NULL, failing_compute, NULL),
      "KcFailComputeCpu");
  ctx = new_ctx(s);
  op = TFE_NewOp(ctx, "KcFailCompute", s);
  before = live_now();
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_OUT_OF_RANGE);
  CHECK_STR_EQ(TF_Message(s), "compute says no");
  CHECK(out == NULL);
  CHECK_EQ_INT(live_now().handles, before.handles);
  CHECK_EQ_INT(live_now().tensors, before.tensors);
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

typedef struct async_job {
  TF_OpKernelContext* ctx;
  TF_AsyncOpKernelDoneCallback* done;
} async_job;

static void* async_worker(void* p) {
  async_job* j = (async_job*)p;
  TF_Status* st = TF_NewStatus();
  TF_Tensor* t = TF_AllocateOutput(j->ctx, 0, TF_FLOAT, NULL, 0, 4, st);
  *(float*)TF_TensorData(t) = 99;
  TF_DeleteTensor(t);
  TF_DeleteStatus(st);
  TF_RunAsyncOpKernelDoneCallback(j->done);
  return NULL;
}

static void async_compute(void* k, TF_OpKernelContext* ctx,
                          TF_AsyncOpKernelDoneCallback* done) {
  static async_job job;
  static pthread_t th;
  (void)k;
  job.ctx = ctx;
  job.done = done;
  pthread_create(&th, NULL, async_worker, &job);
  pthread_detach(th);
}

TEST(async_kernels_finish_from_another_thread) {
  static const char* const specs[] = {"out:y: float", NULL};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle* out;
  TFE_Op* op;
  int n = 1;
  define_op("KcAsync", specs);
  reg(TF_NewAsyncKernelBuilder("KcAsync", "CPU", NULL, async_compute, NULL),
      "KcAsyncCpu");
  ctx = new_ctx(s);
  op = TFE_NewOp(ctx, "KcAsync", s);
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(out, s) == 99);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TF_RunAsyncOpKernelDoneCallback(NULL);
  TF_DeleteStatus(s);
}

static void value_compute(float v, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  TF_Tensor* t = TF_AllocateOutput(ctx, 0, TF_FLOAT, NULL, 0, 4, st);
  *(float*)TF_TensorData(t) = v;
  TF_DeleteTensor(t);
  TF_DeleteStatus(st);
}
static void one_compute(void* k, TF_OpKernelContext* c) {
  (void)k;
  value_compute(1, c);
}
static void two_compute(void* k, TF_OpKernelContext* c) {
  (void)k;
  value_compute(2, c);
}
static void three_compute(void* k, TF_OpKernelContext* c) {
  (void)k;
  value_compute(3, c);
}

static float run_pick(TFE_Context* ctx, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, "KcPick", s);
  TFE_TensorHandle* out;
  int n = 1;
  float v;
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_OK);
  v = read_f32(out, s);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteOp(op);
  return v;
}

TEST(priority_selects_kernels_and_labels_are_recorded) {
  static const char* const specs[] = {"out:y: float",
                                      "attr:T: type = DT_FLOAT", NULL};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TF_KernelBuilder* b;
  TF_Buffer* list;
  size_t k;
  int labelled = 0;
  define_op("KcPick", specs);
  b = TF_NewKernelBuilder("KcPick", "CPU", NULL, one_compute, NULL);
  TF_KernelBuilder_TypeConstraint(b, "T", TF_FLOAT, s);
  TF_KernelBuilder_Priority(b, 1);
  reg(b, "KcPickLow");
  b = TF_NewKernelBuilder("KcPick", "CPU", NULL, two_compute, NULL);
  TF_KernelBuilder_TypeConstraint(b, "T", TF_FLOAT, s);
  TF_KernelBuilder_TypeConstraint(b, "T", TF_DOUBLE, s);
  TF_KernelBuilder_Priority(b, 5);
  reg(b, "KcPickHigh");
  b = TF_NewKernelBuilder("KcPick", "CPU", NULL, three_compute, NULL);
  TF_KernelBuilder_Label(b, "first");
  TF_KernelBuilder_Label(b, "special"); /* a second call replaces it */
  reg(b, "KcPickLabelled");
  ctx = new_ctx(s);
  CHECK(run_pick(ctx, s) == 2);
  list = TF_GetRegisteredKernelsForOp("KcPick", s);
  for (k = 0; k + 7 <= list->length; k++) {
    if (memcmp((const char*)list->data + k, "special", 7) == 0) labelled = 1;
  }
  CHECK(labelled);
  TF_DeleteBuffer(list);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* Runs KcPrio with an optional "_kernel" label; returns the value or -1
 * (status set) on failure. */
static float run_prio(TFE_Context* ctx, const char* label, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, "KcPrio", s);
  TFE_TensorHandle* out = NULL;
  int n = 1;
  float v = -1;
  CHECK_CODE(s, TF_OK);
  if (label != NULL) TFE_OpSetAttrString(op, "_kernel", label, strlen(label));
  TFE_Execute(op, &out, &n, s);
  if (TF_GetCode(s) == TF_OK) {
    v = read_f32(out, s);
    TFE_DeleteTensorHandle(out);
  }
  TFE_DeleteOp(op);
  return v;
}

/* As in TF: registrations that differ only in priority are both kept and
 * the higher one runs; two at the same priority make the lookup fail; a
 * "_kernel" attr selects among labelled kernels only. */
TEST(priority_only_differences_and_kernel_labels) {
  static const char* const specs[] = {"out:y: float",
                                      "attr:T: type = DT_FLOAT", NULL};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TF_KernelBuilder* b;
  define_op("KcPrio", specs);
  b = TF_NewKernelBuilder("KcPrio", "CPU", NULL, one_compute, NULL);
  TF_KernelBuilder_Priority(b, 1);
  reg(b, "KcPrio1");
  b = TF_NewKernelBuilder("KcPrio", "CPU", NULL, two_compute, NULL);
  TF_KernelBuilder_Priority(b, 2);
  reg(b, "KcPrio2");
  /* The very same registration again is still a duplicate. */
  b = TF_NewKernelBuilder("KcPrio", "CPU", NULL, three_compute, NULL);
  TF_KernelBuilder_Priority(b, 2);
  TF_RegisterKernelBuilder("KcPrio2Again", b, s);
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  b = TF_NewKernelBuilder("KcPrio", "CPU", NULL, three_compute, NULL);
  TF_KernelBuilder_Label(b, "three");
  reg(b, "KcPrioLabelled");
  ctx = new_ctx(s);
  CHECK(run_prio(ctx, NULL, s) == 2);
  CHECK(run_prio(ctx, "three", s) == 3);
  CHECK(run_prio(ctx, "four", s) == -1);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "label='three'");
  /* Labels are part of the kernel cache key. */
  CHECK(run_prio(ctx, NULL, s) == 2);
  /* A second labelled kernel at the same priority: TF's error. */
  b = TF_NewKernelBuilder("KcPrio", "CPU", NULL, one_compute, NULL);
  TF_KernelBuilder_Label(b, "three");
  TF_KernelBuilder_TypeConstraint(b, "T", TF_FLOAT, s);
  TF_KernelBuilder_TypeConstraint(b, "T", TF_DOUBLE, s);
  TF_KernelBuilder_HostMemory(b, "y");
  reg(b, "KcPrioLabelledTwin");
  TFE_ContextClearCaches(ctx);
  CHECK(run_prio(ctx, "three", s) == -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "Multiple OpKernel registrations match NodeDef at the "
                     "same priority '{{node KcPrio}}': 'op: \"KcPrio\" "
                     "device_type: \"CPU\" label: \"three\"' and 'op: "
                     "\"KcPrio\" device_type: \"CPU\" constraint { name: "
                     "\"T\" allowed_values { list { type: DT_FLOAT type: "
                     "DT_DOUBLE } } } host_memory_arg: \"y\" label: "
                     "\"three\"'");
  CHECK(run_prio(ctx, NULL, s) == 2);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(registration_errors) {
  static const char* const specs[] = {"in:x: T", "out:y: T",
                                      "attr:T: {float, int32}", NULL};
  TF_Status* s = TF_NewStatus();
  TF_KernelBuilder* b;
  define_op("KcReg", specs);
  CHECK(TF_NewKernelBuilder(NULL, "CPU", NULL, one_compute, NULL) == NULL);
  CHECK(TF_NewKernelBuilder("KcReg", NULL, NULL, one_compute, NULL) == NULL);
  CHECK(TF_NewKernelBuilder("KcReg", "CPU", NULL, NULL, NULL) == NULL);
  CHECK(TF_NewAsyncKernelBuilder("KcReg", "CPU", NULL, NULL, NULL) == NULL);
  TF_DeleteKernelBuilder(NULL);
  TF_RegisterKernelBuilder("x", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* A constraint on an attr the op does not have. */
  b = TF_NewKernelBuilder("KcReg", "CPU", NULL, one_compute, NULL);
  TF_KernelBuilder_TypeConstraint(b, "U", TF_FLOAT, s);
  CHECK_CODE(s, TF_OK);
  TF_RegisterKernelBuilder("KcRegBadAttr", b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "constraint on attr 'U'");
  /* A host-memory arg the op does not have. */
  b = TF_NewKernelBuilder("KcReg", "CPU", NULL, one_compute, NULL);
  TF_KernelBuilder_HostMemory(b, "nope");
  TF_RegisterKernelBuilder("KcRegBadHost", b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "HostMemory arg 'nope'");
  /* Twice the same signature. */
  b = TF_NewKernelBuilder("KcReg", "GPU", NULL, one_compute, NULL);
  TF_KernelBuilder_TypeConstraint(b, "T", TF_FLOAT, s);
  TF_RegisterKernelBuilder("KcRegGpu", b, s);
  CHECK_CODE(s, TF_OK);
  b = TF_NewKernelBuilder("KcReg", "GPU", NULL, two_compute, NULL);
  TF_KernelBuilder_TypeConstraint(b, "T", TF_FLOAT, s);
  TF_RegisterKernelBuilder("KcRegGpuAgain", b, s);
  CHECK_CODE(s, TF_ALREADY_EXISTS);
  /* Too many constrained attrs is reported at registration. */
  b = TF_NewKernelBuilder("KcReg", "CPU", NULL, one_compute, NULL);
  TF_KernelBuilder_TypeConstraint(b, "A", TF_FLOAT, s);
  TF_KernelBuilder_TypeConstraint(b, "B", TF_FLOAT, s);
  TF_KernelBuilder_TypeConstraint(b, "C", TF_FLOAT, s);
  TF_KernelBuilder_TypeConstraint(b, "D", TF_FLOAT, s);
  TF_KernelBuilder_TypeConstraint(b, "E", TF_FLOAT, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_RegisterKernelBuilder("KcRegTooMany", b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* NULL arguments to the setters are harmless. */
  TF_KernelBuilder_TypeConstraint(NULL, "T", TF_FLOAT, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_KernelBuilder_HostMemory(NULL, "x");
  TF_KernelBuilder_Priority(NULL, 1);
  TF_KernelBuilder_Label(NULL, "x");
  b = TF_NewKernelBuilder("KcReg", "CPU", NULL, one_compute, NULL);
  TF_DeleteKernelBuilder(b);
  TF_DeleteStatus(s);
}

TEST(kernels_may_come_before_their_op) {
  static const char* const specs[] = {"out:y: float", NULL};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  reg(TF_NewKernelBuilder("KcLater", "CPU", NULL, three_compute, NULL),
      "KcLaterCpu");
  define_op("KcLater", specs);
  ctx = new_ctx(s);
  {
    TFE_Op* op = TFE_NewOp(ctx, "KcLater", s);
    TFE_TensorHandle* out;
    int n = 1;
    TFE_Execute(op, &out, &n, s);
    CHECK_CODE(s, TF_OK);
    CHECK(read_f32(out, s) == 3);
    TFE_DeleteTensorHandle(out);
    TFE_DeleteOp(op);
  }
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(kernel_def_overrides_the_builder) {
  static const char* const specs[] = {"in:x: T", "out:y: float",
                                      "attr:T: {float, int32}", NULL};
  /* KernelDef{op: "KcDef", device_type: "CPU", constraint{name: "T",
   * allowed_values{list{type: [DT_INT32, DT_INT32]}}},
   * host_memory_arg: "x", priority: 3} */
  static const char kdef[] = "\x0a\x05KcDef\x12\x03" "CPU"
                             "\x1a\x0b\x0a\x01T\x12\x06\x0a\x04\x32\x02\x03"
                             "\x03"
                             "\x22\x01x\x30\x03";
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle *x, *out;
  TFE_Op* op;
  TF_Buffer* list;
  int n = 1;
  define_op("KcDef", specs);
  TF_RegisterKernelBuilderWithKernelDef(
      kdef, "KcDefCpu",
      TF_NewKernelBuilder("Ignored", "GPU", NULL, two_compute, NULL), s);
  CHECK_CODE(s, TF_OK);
  list = TF_GetRegisteredKernelsForOp("KcDef", s);
  CHECK(list->length > 0);
  TF_DeleteBuffer(list);
  ctx = new_ctx(s);
  x = scalar_i32(1, s);
  op = TFE_NewOp(ctx, "KcDef", s);
  TFE_OpAddInput(op, x, s);
  TFE_Execute(op, &out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(out, s) == 2);
  TFE_DeleteTensorHandle(out);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  /* Malformed KernelDefs are rejected and the builder is consumed. */
  TF_RegisterKernelBuilderWithKernelDef(
      "\x0a\x7f", "Bad",
      TF_NewKernelBuilder("KcDef", "CPU", NULL, one_compute, NULL), s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(host_memory_flags_on_a_device_kernel) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  float x[4] = {1, 2, 3, 4}, out[2];
  int64_t d22[2] = {2, 2};
  TFE_TensorHandle *hx, *axis, *in[2], *sum;
  /* The test device's Sum checks TF_IsHostMemoryInput(ctx, 1) itself and
   * fails otherwise. */
  load_test_device();
  ctx = new_ctx(s);
  hx = f32_handle(d22, 2, x, s);
  axis = scalar_i32(1, s);
  in[0] = hx;
  in[1] = axis;
  sum = run_op(ctx, "Sum", in, 2, "MY_DEVICE:0", s);
  CHECK_CODE(s, TF_OK);
  read_f32s(sum, out, 2, s);
  CHECK(out[0] == 3 && out[1] == 7);
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(hx);
  TFE_DeleteTensorHandle(axis);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* ======================================================================
 * A kernel of this program for the test device type: device memory,
 * streams, host-memory outputs. */

typedef struct dev_seen {
  int stream_ok, device_id, out0_host, out1_host, in0_host, temp_poisoned,
      host_temp_plain;
  char device[96];
} dev_seen;

static dev_seen g_dev;

/* KcDeviceProbe(x: float) -> (y: float, count: int32); count is host
 * memory. y is x itself (TF_SetOutput), count the number of elements. */
static void device_probe_compute(void* k, TF_OpKernelContext* ctx) {
  TF_Status* st = TF_NewStatus();
  TF_Tensor *x = NULL, *count, *temp, *host_temp;
  TF_AllocatorAttributes host;
  TF_StringView v;
  int64_t dims[1] = {4};
  (void)k;
  memset(&g_dev, 0, sizeof g_dev);
  g_dev.stream_ok = TF_GetStream(ctx, st) != NULL && TF_GetCode(st) == TF_OK;
  g_dev.device_id = TF_GetDeviceId(ctx);
  v = TF_GetDeviceName(ctx);
  memcpy(g_dev.device, v.data, v.len);
  g_dev.in0_host = TF_IsHostMemoryInput(ctx, 0, st);
  g_dev.out0_host = TF_IsHostMemoryOutput(ctx, 0, st);
  g_dev.out1_host = TF_IsHostMemoryOutput(ctx, 1, st);
  temp = TF_AllocateTemp(ctx, TF_FLOAT, dims, 1, NULL, st);
  CHECK_CODE(st, TF_OK);
  g_dev.temp_poisoned = ((uintptr_t)TF_TensorData(temp) >> 56) == 0xDE;
  TF_DeleteTensor(temp);
  host.struct_size = TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE;
  host.on_host = 1;
  host_temp = TF_AllocateTemp(ctx, TF_FLOAT, dims, 1, &host, st);
  CHECK_CODE(st, TF_OK);
  ((float*)TF_TensorData(host_temp))[3] = 1.0f; /* host memory: writable */
  g_dev.host_temp_plain = 1;
  TF_DeleteTensor(host_temp);
  TF_GetInput(ctx, 0, &x, st);
  TF_SetOutput(ctx, 0, x, st);
  CHECK_CODE(st, TF_OK);
  count = TF_AllocateOutput(ctx, 1, TF_INT32, NULL, 0, 4, st);
  CHECK_CODE(st, TF_OK);
  *(int32_t*)TF_TensorData(count) = (int32_t)TF_TensorElementCount(x);
  TF_DeleteTensor(count);
  TF_DeleteTensor(x);
  TF_DeleteStatus(st);
}

TEST(device_kernels_get_device_memory_streams_and_host_outputs) {
  static const char* const specs[] = {"in:x: float", "out:y: float",
                                      "out:count: int32", NULL};
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx;
  TFE_TensorHandle *x, *out[2];
  TFE_Op* op;
  TF_KernelBuilder* b;
  float data[3] = {1, 2, 3}, back[3];
  int64_t n = 3;
  int nout = 2;
  load_test_device();
  define_op("KcDeviceProbe", specs);
  b = TF_NewKernelBuilder("KcDeviceProbe", "MY_DEVICE", NULL,
                          device_probe_compute, NULL);
  TF_KernelBuilder_HostMemory(b, "count");
  reg(b, "KcDeviceProbeMyDevice");
  ctx = new_ctx(s);
  x = f32_handle(&n, 1, data, s);
  op = TFE_NewOp(ctx, "KcDeviceProbe", s);
  TFE_OpAddInput(op, x, s);
  TFE_OpSetDevice(op, "MY_DEVICE:1", s);
  TFE_Execute(op, out, &nout, s);
  CHECK_CODE(s, TF_OK);
  CHECK(g_dev.stream_ok);
  CHECK_EQ_INT(g_dev.device_id, 1);
  CHECK_STR_EQ(g_dev.device, DEV1);
  CHECK(!g_dev.in0_host && !g_dev.out0_host && g_dev.out1_host);
  CHECK(g_dev.temp_poisoned && g_dev.host_temp_plain);
  /* y is in the device's memory, count in host memory. */
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(out[0], s), DEV1);
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(out[0], s), DEV1);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(out[1], s), DEV1);
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(out[1], s), CPU0);
  CHECK_EQ_INT(read_i32(out[1], s), 3);
  read_f32s(out[0], back, 3, s);
  CHECK(back[0] == 1 && back[2] == 3);
  TFE_PluggableDeviceSynchronize(DEV1, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(out[1]);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(out_of_memory_in_builders_and_registration) {
  static const char* const specs[] = {"in:x: T", "out:y: T",
                                      "attr:T: {float}", NULL};
  TF_Status* s = TF_NewStatus();
  int n, ok = 0, oom = 0;
  define_op("KcOom", specs);
  for (n = 0; n < 40; n++) {
    char name[32];
    TF_KernelBuilder* b;
    snprintf(name, sizeof name, "KcOomLabel%d", n);
    TFE_TestFailAllocationsAfter(n);
    b = TF_NewKernelBuilder("KcOom", "CPU", NULL, one_compute, NULL);
    if (b != NULL) {
      TF_KernelBuilder_TypeConstraint(b, "T", TF_FLOAT, s);
      TF_KernelBuilder_HostMemory(b, "x");
      TF_KernelBuilder_Label(b, name);
      TF_RegisterKernelBuilder(name, b, s);
      if (TF_GetCode(s) == TF_OK) ok++;
      else CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    } else {
      oom++;
    }
    TFE_TestFailAllocationsAfter(-1);
  }
  CHECK(ok > 0);
  CHECK(oom > 0);
  for (n = 0; n < 30; n++) {
    TF_OpDefinitionBuilder* b;
    char name[32];
    snprintf(name, sizeof name, "KcOomOp%d", n);
    TFE_TestFailAllocationsAfter(n);
    b = TF_NewOpDefinitionBuilder(name);
    TF_OpDefinitionBuilderAddInput(b, "x: T");
    TF_OpDefinitionBuilderAddAttr(b, "T: type");
    TF_RegisterOpDefinition(b, s);
    TFE_TestFailAllocationsAfter(-1);
    CHECK(TF_GetCode(s) == TF_OK || TF_GetCode(s) == TF_RESOURCE_EXHAUSTED ||
          TF_GetCode(s) == TF_INVALID_ARGUMENT);
  }
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
