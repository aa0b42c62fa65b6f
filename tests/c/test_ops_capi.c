/* ops.h (op definition builders, shape functions) and the op queries of
 * c_api.h / c_api_experimental.h; TF_LoadLibrary of an op library whose
 * ops are callable at once. */
#define _GNU_SOURCE 1
#include "se_test_util.h"
#include "tensorflow/c/ops.h"

#define OP_LIB SE_PLUGIN("op_lib_test")

/* ---- a tiny reader for the protos the API returns ---- */

typedef struct rd {
  const unsigned char *p, *end;
} rd;

static int rd_varint(rd* r, uint64_t* v) {
  int shift = 0;
  *v = 0;
  while (r->p < r->end) {
    unsigned char c = *r->p++;
    *v |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) return 1;
    shift += 7;
  }
  return 0;
}

/* Calls fn(field, payload) for every length-delimited field; returns the
 * number of fields of any kind, or -1 when malformed. */
static int walk(const void* data, size_t len,
                void (*fn)(int field, rd* payload, void* arg), void* arg) {
  rd r = {(const unsigned char*)data, (const unsigned char*)data + len};
  int n = 0;
  while (r.p < r.end) {
    uint64_t tag, v;
    int wire;
    if (!rd_varint(&r, &tag)) return -1;
    wire = (int)(tag & 7);
    n++;
    if (wire == 0) {
      if (!rd_varint(&r, &v)) return -1;
    } else if (wire == 2) {
      rd sub;
      if (!rd_varint(&r, &v) || v > (uint64_t)(r.end - r.p)) return -1;
      sub.p = r.p;
      sub.end = r.p + v;
      r.p += v;
      if (fn != NULL) fn((int)(tag >> 3), &sub, arg);
    } else if (wire == 5) {
      r.p += 4;
    } else if (wire == 1) {
      r.p += 8;
    } else {
      return -1;
    }
  }
  return n;
}

typedef struct names {
  char list[64][64];
  int n;
} names;

/* OpDef.name (field 1) of each OpList.op (field 1). */
static void op_name(int field, rd* p, void* arg) {
  names* nm = (names*)arg;
  if (field == 1 && nm->n < 64) {
    size_t len = (size_t)(p->end - p->p);
    if (len > 63) len = 63;
    memcpy(nm->list[nm->n], p->p, len);
    nm->list[nm->n][len] = '\0';
    nm->n++;
  }
}

static void op_entry(int field, rd* p, void* arg) {
  if (field == 1) walk(p->p, (size_t)(p->end - p->p), op_name, arg);
}

static int contains_bytes(const void* data, size_t len, const char* s) {
  size_t n = strlen(s), i;
  for (i = 0; i + n <= len; i++) {
    if (memcmp((const char*)data + i, s, n) == 0) return 1;
  }
  return 0;
}

/* ---- TF_LoadLibrary ---- */

TEST(op_library_ops_are_listed_and_callable) {
  TF_Status* s = TF_NewStatus();
  TF_Library* lib = TF_LoadLibrary(OP_LIB, s);
  TF_Buffer ops;
  names nm;
  TFE_Context* ctx;
  TFE_TensorHandle *x, *y, *in[2], *z;
  TFE_Op* op;
  float xs[3] = {1, 2, 3}, out[3];
  int64_t n = 3;
  int nout = 1;
  CHECK_CODE(s, TF_OK);
  CHECK(lib != NULL);
  ops = TF_GetOpList(lib);
  memset(&nm, 0, sizeof nm);
  CHECK(walk(ops.data, ops.length, op_entry, &nm) == 2);
  CHECK_EQ_INT(nm.n, 2);
  CHECK_STR_EQ(nm.list[0], "TfeTestScaleAdd");
  CHECK_STR_EQ(nm.list[1], "TfeTestRowSums");
  /* Attr and arg details are encoded (AttrDef type, default). */
  CHECK(contains_bytes(ops.data, ops.length, "scale"));
  CHECK(contains_bytes(ops.data, ops.length, "use a reduction instead"));

  /* Callable at once. */
  ctx = new_ctx(s);
  x = f32_handle(&n, 1, xs, s);
  y = scalar_f32(10, s);
  op = TFE_NewOp(ctx, "TfeTestScaleAdd", s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, x, s);
  TFE_OpAddInput(op, y, s);
  TFE_OpSetAttrFloat(op, "scale", 3.0f);
  TFE_Execute(op, &z, &nout, s);
  CHECK_CODE(s, TF_OK);
  read_f32s(z, out, 3, s);
  CHECK(out[0] == 13 && out[1] == 16 && out[2] == 19);
  TFE_DeleteTensorHandle(z);
  /* The default scale, through the run_op helper. */
  in[0] = x;
  in[1] = y;
  z = run_op(ctx, "TfeTestScaleAdd", in, 2, NULL, s);
  CHECK_CODE(s, TF_OK);
  read_f32s(z, out, 3, s);
  CHECK(out[0] == 12 && out[1] == 14 && out[2] == 16);
  TFE_DeleteTensorHandle(z);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
  TFE_DeleteContext(ctx);

  /* A second load is a new handle with the same op list; the initialiser
   * does not run again. */
  {
    TF_Library* again = TF_LoadLibrary(OP_LIB, s);
    TF_Buffer ops2;
    void* h = dlopen(OP_LIB, RTLD_NOW | RTLD_NOLOAD);
    int (*loads)(void);
    CHECK_CODE(s, TF_OK);
    ops2 = TF_GetOpList(again);
    CHECK_EQ_SIZE(ops2.length, ops.length);
    CHECK(memcmp(ops2.data, ops.data, ops.length) == 0);
    *(void**)&loads = dlsym(h, "op_lib_test_loads");
    CHECK_EQ_INT(loads(), 1);
    dlclose(h);
    TF_DeleteLibraryHandle(again);
  }
  TF_DeleteLibraryHandle(lib);
  TF_DeleteStatus(s);
}

TEST(shape_functions_run_for_eager_ops) {
  TF_Status* s = TF_NewStatus();
  TF_Library* lib = TF_LoadLibrary(OP_LIB, s);
  TFE_Context* ctx = new_ctx(s);
  float m[6] = {1, 2, 3, 4, 5, 6};
  int64_t d23[2] = {2, 3}, dims[4], n = 3;
  TFE_TensorHandle *hm = f32_handle(d23, 2, m, s), *v, *sc;
  TFE_Op* op;
  CHECK_CODE(s, TF_OK);
  op = TFE_NewOp(ctx, "TfeTestRowSums", s);
  TFE_OpAddInput(op, hm, s);
  CHECK_EQ_INT(TFE_OpInferOutputShape(op, 0, dims, 4, s), 1);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(dims[0], 2);
  /* A bad output index and a bad rank. */
  CHECK_EQ_INT(TFE_OpInferOutputShape(op, 1, dims, 4, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteOp(op);
  v = f32_handle(&n, 1, m, s);
  op = TFE_NewOp(ctx, "TfeTestRowSums", s);
  TFE_OpAddInput(op, v, s);
  CHECK_EQ_INT(TFE_OpInferOutputShape(op, 0, dims, 4, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Shape must be rank 2 but is rank 1");
  TFE_DeleteOp(op);
  /* ScaleAdd: the output takes x's shape; a scalar x needs a scalar y. */
  sc = scalar_f32(1, s);
  op = TFE_NewOp(ctx, "TfeTestScaleAdd", s);
  TFE_OpAddInput(op, hm, s);
  TFE_OpAddInput(op, sc, s);
  CHECK_EQ_INT(TFE_OpInferOutputShape(op, 0, dims, 4, s), 2);
  CHECK(dims[0] == 2 && dims[1] == 3);
  TFE_DeleteOp(op);
  op = TFE_NewOp(ctx, "TfeTestScaleAdd", s);
  TFE_OpAddInput(op, sc, s);
  TFE_OpAddInput(op, v, s);
  CHECK_EQ_INT(TFE_OpInferOutputShape(op, 0, dims, 4, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TF_Message(s), "Shape must be at least rank 1 but is rank 0");
  TFE_DeleteOp(op);
  /* Built-in ops have no C shape function here. */
  op = TFE_NewOp(ctx, "AddV2", s);
  TFE_OpAddInput(op, sc, s);
  TFE_OpAddInput(op, sc, s);
  CHECK_EQ_INT(TFE_OpInferOutputShape(op, 0, dims, 4, s), -1);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  TFE_DeleteOp(op);
  CHECK_EQ_INT(TFE_OpInferOutputShape(NULL, 0, dims, 4, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(hm);
  TFE_DeleteTensorHandle(v);
  TFE_DeleteTensorHandle(sc);
  TFE_DeleteContext(ctx);
  TF_DeleteLibraryHandle(lib);
  TF_DeleteStatus(s);
}

/* ---- builders ---- */

TEST(builder_registers_flags_and_rejects_bad_specs) {
  TF_Status* s = TF_NewStatus();
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("OcFlags");
  TF_OpDefinitionBuilderAddInput(b, "a: T");
  TF_OpDefinitionBuilderAddInput(b, "b: T");
  TF_OpDefinitionBuilderAddOutput(b, "sum: T");
  TF_OpDefinitionBuilderAddAttr(b, "T: numbertype");
  TF_OpDefinitionBuilderSetIsCommutative(b, true);
  TF_OpDefinitionBuilderSetIsAggregate(b, true);
  TF_OpDefinitionBuilderSetAllowsUninitializedInput(b, true);
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_OpIsStateful("OcFlags", s), 0);
  CHECK_CODE(s, TF_OK);

  /* Duplicate name. */
  b = TF_NewOpDefinitionBuilder("OcFlags");
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_ALREADY_EXISTS);

  /* A spec that does not parse is reported at registration, in TF's
   * words, and nothing is registered. */
  b = TF_NewOpDefinitionBuilder("OcBadSpec");
  TF_OpDefinitionBuilderAddAttr(b, "T: notatype");
  TF_OpDefinitionBuilderAddInput(b, "x: T");
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "OcBadSpec");
  CHECK_EQ_INT(TF_OpIsStateful("OcBadSpec", s), 0);
  CHECK_CODE(s, TF_NOT_FOUND);

  /* An arg that refers to a missing attr fails at registration. */
  b = TF_NewOpDefinitionBuilder("OcMissingAttr");
  TF_OpDefinitionBuilderAddInput(b, "x: T");
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  /* NULL handling. */
  CHECK(TF_NewOpDefinitionBuilder(NULL) == NULL);
  TF_RegisterOpDefinition(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteOpDefinitionBuilder(NULL);
  TF_OpDefinitionBuilderAddInput(NULL, "x: float");
  b = TF_NewOpDefinitionBuilder("OcNullSpec");
  TF_OpDefinitionBuilderAddOutput(b, NULL);
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* Deleting instead of registering. */
  b = TF_NewOpDefinitionBuilder("OcDeleted");
  TF_OpDefinitionBuilderAddInput(b, "x: float");
  TF_DeleteOpDefinitionBuilder(b);
  CHECK_EQ_INT(TF_OpIsStateful("OcDeleted", s), 0);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_EQ_INT(TF_OpIsStateful(NULL, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteStatus(s);
}

TEST(all_op_list_and_stateful_flags) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* all = TF_GetAllOpList();
  TF_OpDefinitionBuilder* b;
  CHECK(all != NULL);
  CHECK(walk(all->data, all->length, NULL, NULL) > 100);
  CHECK(contains_bytes(all->data, all->length, "MatMul"));
  CHECK(contains_bytes(all->data, all->length, "transpose_a"));
  TF_DeleteBuffer(all);
  CHECK_EQ_INT(TF_OpIsStateful("VarHandleOp", s), 1);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_OpIsStateful("AddV2", s), 0);
  b = TF_NewOpDefinitionBuilder("OcStateful");
  TF_OpDefinitionBuilderSetIsStateful(b, true);
  TF_OpDefinitionBuilderDeprecated(b, 12, "gone");
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_OpIsStateful("OcStateful", s), 1);
  all = TF_GetAllOpList();
  CHECK(contains_bytes(all->data, all->length, "OcStateful"));
  CHECK(contains_bytes(all->data, all->length, "gone"));
  TF_DeleteBuffer(all);
  TF_DeleteStatus(s);
}

TEST(registered_kernels_for_op) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* k = TF_GetRegisteredKernelsForOp("MatMul", s);
  CHECK_CODE(s, TF_OK);
  CHECK(walk(k->data, k->length, NULL, NULL) >= 1);
  CHECK(contains_bytes(k->data, k->length, "MatMul"));
  CHECK(contains_bytes(k->data, k->length, "CPU"));
  TF_DeleteBuffer(k);
  k = TF_GetRegisteredKernelsForOp("NoSuchOpAnywhere", s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(k->length, 0);
  TF_DeleteBuffer(k);
  CHECK(TF_GetRegisteredKernelsForOp(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  k = TF_GetAllRegisteredKernels(s);
  CHECK_CODE(s, TF_OK);
  CHECK(walk(k->data, k->length, NULL, NULL) > 100);
  TF_DeleteBuffer(k);
  /* A plugin's kernels show their device type. */
  load_test_device();
  k = TF_GetRegisteredKernelsForOp("Relu", s);
  CHECK(contains_bytes(k->data, k->length, "MY_DEVICE"));
  TF_DeleteBuffer(k);
  TF_DeleteStatus(s);
}

/* ---- the shape-inference context, function by function ---- */

static int g_checks;

static void probe_shape_fn(TF_ShapeInferenceContext* ctx, TF_Status* status) {
  TF_ShapeHandle* in = TF_NewShapeHandle();
  TF_ShapeHandle* r = TF_NewShapeHandle();
  TF_ShapeHandle* scalar = TF_ShapeInferenceContextScalar(ctx);
  TF_ShapeHandle* vec = TF_ShapeInferenceContextVectorFromSize(ctx, 7);
  TF_DimensionHandle* d = TF_NewDimensionHandle();
  TF_DataType t;
  TF_Status* st = TF_NewStatus();
  g_checks = 0;
  /* Inputs: x [2,3,4], unknown-size dims are not possible from eager
   * values, so the unknown cases use fresh handles. */
  if (TF_ShapeInferenceContextNumInputs(ctx) != 1) goto out;
  g_checks++;
  TF_ShapeInferenceContextGetInput(ctx, 0, in, st);
  if (TF_GetCode(st) != TF_OK || TF_ShapeInferenceContextRank(ctx, in) != 3) {
    goto out;
  }
  g_checks++;
  TF_ShapeInferenceContextGetInput(ctx, 5, in, st);
  if (TF_GetCode(st) != TF_INVALID_ARGUMENT) goto out;
  g_checks++;
  TF_ShapeInferenceContextGetInput(ctx, 0, in, st);
  TF_ShapeInferenceContext_GetAttrType(ctx, "T", &t, st);
  if (TF_GetCode(st) != TF_OK || t != TF_FLOAT) goto out;
  g_checks++;
  TF_ShapeInferenceContext_GetAttrType(ctx, "nope", &t, st);
  if (TF_GetCode(st) != TF_INVALID_ARGUMENT) goto out;
  g_checks++;
  /* Dims, including negative indices and out of range. */
  TF_ShapeInferenceContextDim(ctx, in, 1, d);
  if (!TF_DimensionHandleValueKnown(d) || TF_DimensionHandleValue(d) != 3) {
    goto out;
  }
  TF_ShapeInferenceContextDim(ctx, in, -1, d);
  if (TF_DimensionHandleValue(d) != 4) goto out;
  TF_ShapeInferenceContextDim(ctx, in, 9, d);
  if (TF_DimensionHandleValueKnown(d)) goto out;
  g_checks++;
  /* Rank assertions. */
  TF_ShapeInferenceContextWithRank(ctx, in, 3, r, st);
  if (TF_GetCode(st) != TF_OK || TF_ShapeInferenceContextRank(ctx, r) != 3) {
    goto out;
  }
  TF_ShapeInferenceContextWithRankAtMost(ctx, in, 2, r, st);
  if (TF_GetCode(st) != TF_INVALID_ARGUMENT) goto out;
  TF_ShapeInferenceContextWithRankAtLeast(ctx, in, 4, r, st);
  if (TF_GetCode(st) != TF_INVALID_ARGUMENT) goto out;
  {
    TF_ShapeHandle* unknown = TF_NewShapeHandle();
    if (TF_ShapeInferenceContextRankKnown(ctx, unknown)) goto out;
    TF_ShapeInferenceContextWithRank(ctx, unknown, 2, r, st);
    TF_DeleteShapeHandle(unknown);
    if (TF_GetCode(st) != TF_OK || TF_ShapeInferenceContextRank(ctx, r) != 2) {
      goto out;
    }
    TF_ShapeInferenceContextDim(ctx, r, 0, d);
    if (TF_DimensionHandleValueKnown(d)) goto out;
  }
  g_checks++;
  /* Subshape with clamping and negative indices; concatenation. */
  TF_ShapeInferenceContextSubshape(ctx, in, 1, 100, r, st);
  if (TF_GetCode(st) != TF_OK || TF_ShapeInferenceContextRank(ctx, r) != 2) {
    goto out;
  }
  TF_ShapeInferenceContextSubshape(ctx, in, -2, -1, r, st);
  TF_ShapeInferenceContextDim(ctx, r, 0, d);
  if (TF_GetCode(st) != TF_OK || TF_DimensionHandleValue(d) != 3) goto out;
  TF_ShapeInferenceContextSubshape(ctx, in, 2, 1, r, st);
  if (TF_GetCode(st) != TF_INVALID_ARGUMENT) goto out;
  TF_ShapeInferenceContextConcatenateShapes(ctx, in, vec, r, st);
  TF_ShapeInferenceContextDim(ctx, r, 3, d);
  if (TF_GetCode(st) != TF_OK || TF_ShapeInferenceContextRank(ctx, r) != 4 ||
      TF_DimensionHandleValue(d) != 7) {
    goto out;
  }
  if (TF_ShapeInferenceContextRank(ctx, scalar) != 0) goto out;
  g_checks++;
  /* Outputs: out-of-range, then the real one. */
  TF_ShapeInferenceContextSetOutput(ctx, 3, r, st);
  if (TF_GetCode(st) != TF_INVALID_ARGUMENT) goto out;
  TF_ShapeInferenceContextSetUnknownShape(ctx, st);
  TF_ShapeInferenceContextSetOutput(ctx, 0, r, status);
  g_checks++;
out:
  TF_DeleteShapeHandle(in);
  TF_DeleteShapeHandle(r);
  TF_DeleteShapeHandle(scalar);
  TF_DeleteShapeHandle(vec);
  TF_DeleteDimensionHandle(d);
  TF_DeleteStatus(st);
}

TEST(shape_inference_context_functions) {
  TF_Status* s = TF_NewStatus();
  TF_OpDefinitionBuilder* b = TF_NewOpDefinitionBuilder("OcProbe");
  TFE_Context* ctx;
  TFE_Op* op;
  TFE_TensorHandle* x;
  float data[24] = {0};
  int64_t d234[3] = {2, 3, 4}, dims[8];
  TF_OpDefinitionBuilderAddInput(b, "x: T");
  TF_OpDefinitionBuilderAddOutput(b, "y: float");
  TF_OpDefinitionBuilderAddAttr(b, "T: type");
  TF_OpDefinitionBuilderSetShapeInferenceFunction(b, probe_shape_fn);
  TF_RegisterOpDefinition(b, s);
  CHECK_CODE(s, TF_OK);
  ctx = new_ctx(s);
  x = f32_handle(d234, 3, data, s);
  op = TFE_NewOp(ctx, "OcProbe", s);
  TFE_OpAddInput(op, x, s);
  CHECK_EQ_INT(TFE_OpInferOutputShape(op, 0, dims, 8, s), 4);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(g_checks, 9);
  CHECK(dims[0] == 2 && dims[1] == 3 && dims[2] == 4 && dims[3] == 7);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  /* Handles accept NULL. */
  TF_DeleteShapeHandle(NULL);
  TF_DeleteDimensionHandle(NULL);
  CHECK_EQ_INT(TF_DimensionHandleValue(NULL), -1);
  CHECK_EQ_INT(TF_DimensionHandleValueKnown(NULL), 0);
  CHECK_EQ_INT(TF_ShapeInferenceContextNumInputs(NULL), 0);
  TF_DeleteStatus(s);
}

TEST(tensor_from_proto) {
  TF_Status* s = TF_NewStatus();
  /* TensorProto{dtype: DT_FLOAT, tensor_shape{dim{size:2}},
   *             float_val: 1.5, float_val: -2} */
  static const unsigned char proto[] = {
      0x08, 0x01,                         /* dtype 1 */
      0x12, 0x04, 0x12, 0x02, 0x08, 0x02, /* shape [2] */
      0x2a, 0x08, 0x00, 0x00, 0xc0, 0x3f, 0x00, 0x00, 0x00, 0xc0};
  TF_Buffer* b = TF_NewBufferFromString(proto, sizeof proto);
  int64_t one = 1;
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, &one, 1, 4);
  float v[2];
  TF_TensorFromProto(b, t, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_TensorType(t) == TF_FLOAT);
  CHECK_EQ_INT(TF_NumDims(t), 1);
  CHECK_EQ_INT(TF_Dim(t, 0), 2);
  memcpy(v, TF_TensorData(t), sizeof v);
  CHECK(v[0] == 1.5f && v[1] == -2.0f);
  TF_DeleteBuffer(b);
  b = TF_NewBufferFromString("\xff\xff", 2);
  TF_TensorFromProto(b, t, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_TensorFromProto(NULL, t, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_TensorFromProto(b, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(b);
  TF_DeleteTensor(t);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
