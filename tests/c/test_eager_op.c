/* Ops: creation errors, metadata and device requests, attr types, TF's
 * attr inference (first value wins), list inputs and lengths, TFE_OpReset,
 * attr snapshots and their wire format, setters' argument checks, and
 * allocation failures. */
#include <string.h>

#include "eager_test_util.h"

TEST(new_op_errors) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  CHECK(TFE_NewOp(ctx, "NoSuchOpForTests", s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "Op type not registered 'NoSuchOpForTests'");
  CHECK(TFE_NewOp(ctx, "", s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK(TFE_NewOp(ctx, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_NewOp(NULL, "AddV2", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteOp(NULL);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(op_metadata_and_device_names) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_Op* op = TFE_NewOp(ctx, "AddV2", s);
  /* Accepted names and TF's canonical form of each (what TFE_OpGetDevice
   * returns: DeviceNameUtils::ParsedNameToString of the parsed name). */
  static const char* good[][2] = {
      {FULL_CPU(0), FULL_CPU(0)},
      {"/device:CPU:0", "/device:CPU:0"},
      {"CPU:0", "/device:CPU:0"},
      {"cpu:0", "/device:CPU:0"},
      {"/cpu:0", "/device:CPU:0"},
      {"/CPU:1", "/device:CPU:1"},
      {"/gpu:1", "/device:GPU:1"},
      {"/job:localhost/device:CPU:1", "/job:localhost/device:CPU:1"},
      {"/job:localhost", "/job:localhost"},
      {"/device:GPU:3", "/device:GPU:3"},
      {"/device:CPU:*", "/device:CPU:*"},
      {"/device:CPU", "/device:CPU:*"},
      {"/replica:0/task:0/device:FOO:2", "/replica:0/task:0/device:FOO:2"},
      /* any order, TF's order on output; a repeated component wins */
      {"/device:CPU:0/job:localhost", "/job:localhost/device:CPU:0"},
      {"/task:0/replica:0/cpu:0", "/replica:0/task:0/device:CPU:0"},
      {"/device:CPU:0/device:CPU:1", "/device:CPU:1"},
      {"/job:a/job:b", "/job:b"},
      /* wildcards leave a component out */
      {"/job:*/replica:*/task:*/device:*", ""},
      {"/job:localhost/replica:*", "/job:localhost"},
      {"/", ""},
      {"", ""}};
  static const char* bad[] = {"not a device name", "garbage::", "CPU",
                              "/job:", "/replica:x", "/device:CPU:-1",
                              "CPU:0 ", "/job:localhost/", "/MY_DEVICE:0",
                              "device:CPU:0", "CPU:*", "/device:CPU:",
                              "/job:local-host", "//device:CPU:0"};
  size_t i;
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_OpGetName(op, s), "AddV2");
  CHECK(TFE_OpGetContext(op, s) == ctx);
  CHECK_STR_EQ(TFE_OpGetDevice(op, s), "");
  for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
    TFE_OpSetDevice(op, good[i][0], s);
    if (TF_GetCode(s) != TF_OK) TFE_FAIL("'%s' rejected", good[i][0]);
    if (strcmp(TFE_OpGetDevice(op, s), good[i][1]) != 0) {
      TFE_FAIL("'%s' read back as '%s', expected '%s'", good[i][0],
               TFE_OpGetDevice(op, s), good[i][1]);
    }
  }
  TFE_OpSetDevice(op, "CPU:0", s);
  for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    TFE_OpSetDevice(op, bad[i], s);
    if (TF_GetCode(s) != TF_INVALID_ARGUMENT) TFE_FAIL("'%s' accepted", bad[i]);
    CHECK_STR_CONTAINS(TF_Message(s), "Malformed device specification");
    /* unchanged */
    CHECK_STR_EQ(TFE_OpGetDevice(op, s), "/device:CPU:0");
  }
  /* NULL clears the request, as in TF. */
  TFE_OpSetDevice(op, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_OpGetDevice(op, s), "");
  TFE_OpSetDevice(NULL, "CPU:0", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_OpGetDevice(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_OpGetName(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_OpGetContext(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteOp(op);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(attr_types) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_Op* op = TFE_NewOp(ctx, "MatMul", s);
  unsigned char is_list = 7;
  CHECK_EQ_INT(TFE_OpGetAttrType(op, "T", &is_list, s), TF_ATTR_TYPE);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(is_list, 0);
  CHECK_EQ_INT(TFE_OpGetAttrType(op, "transpose_a", &is_list, s), TF_ATTR_BOOL);
  TFE_OpGetAttrType(op, "nonexistent", &is_list, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpGetAttrType(op, NULL, &is_list, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpGetAttrType(NULL, "T", &is_list, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteOp(op);
  CHECK_EQ_INT(TFE_OpNameGetAttrType(ctx, "IdentityN", "T", &is_list, s),
               TF_ATTR_TYPE);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(is_list, 1);
  CHECK_EQ_INT(TFE_OpNameGetAttrType(ctx, "ConcatV2", "N", &is_list, s),
               TF_ATTR_INT);
  CHECK_EQ_INT(is_list, 0);
  TFE_OpNameGetAttrType(ctx, "NoSuchOpXyz", "T", &is_list, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  TFE_OpNameGetAttrType(ctx, NULL, "T", &is_list, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpNameGetAttrType(NULL, "AddV2", "T", &is_list, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(inference_and_first_value_wins) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* f = scalar_f32(2, s);
  TFE_TensorHandle* out[1];
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, "AddV2", s);
  TFE_OpAddInput(op, f, s);
  TFE_OpAddInput(op, f, s);
  /* T was inferred (float) from the first input; setting it again,
   * even to another type, keeps the first value, as in TF. */
  TFE_OpSetAttrType(op, "T", TF_INT32);
  TFE_OpSetAttrInt(op, "T", 5);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(out[0], s) == 4.0f);
  TFE_DeleteTensorHandle(out[0]);
  /* The same op can run again. */
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK(read_f32(out[0], s) == 4.0f);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteOp(op);

  /* A value set before the inputs is not overridden by inference. */
  op = TFE_NewOp(ctx, "AddV2", s);
  TFE_OpSetAttrType(op, "T", TF_INT32);
  TFE_OpAddInput(op, f, s);
  TFE_OpAddInput(op, f, s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "input #0");
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(f);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(list_inputs_lengths_and_flat_inputs) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  float v[2] = {1, 2};
  int64_t d[1] = {2};
  TFE_TensorHandle* a = make_handle(TF_FLOAT, d, 1, v, sizeof(v), s);
  TFE_TensorHandle* ax = scalar_i32(0, s);
  TFE_TensorHandle* l[3] = {a, a, a};
  TFE_TensorHandle* out[4];
  int n = 4;
  TFE_Op* op = TFE_NewOp(ctx, "ConcatV2", s);
  CHECK_EQ_INT(TFE_OpGetFlatInputCount(op, s), 0);
  TFE_OpAddInputList(op, l, 3, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, ax, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_OpGetInputLength(op, "values", s), 3);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_OpGetInputLength(op, "axis", s), 1);
  CHECK_EQ_INT(TFE_OpGetInputLength(op, "bogus", s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_OpGetOutputLength(op, "output", s), 1);
  CHECK_EQ_INT(TFE_OpGetOutputLength(op, "bogus", s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_OpGetInputLength(op, NULL, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_OpGetFlatInputCount(op, s), 4);
  CHECK(TFE_OpGetFlatInput(op, 0, s) == a);
  CHECK(TFE_OpGetFlatInput(op, 3, s) == ax);
  CHECK(TFE_OpGetFlatInput(op, 4, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_OpGetFlatInput(op, -1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 1);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(out[0], s), 6);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteOp(op);

  /* list(type) inference: IdentityN. */
  {
    TFE_TensorHandle* mixed[2] = {a, ax};
    op = TFE_NewOp(ctx, "IdentityN", s);
    TFE_OpAddInputList(op, mixed, 2, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(TFE_OpGetInputLength(op, "input", s), 2);
    CHECK_EQ_INT(TFE_OpGetOutputLength(op, "output", s), 2);
    n = 4;
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_OK);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(TFE_TensorHandleDataType(out[0]), TF_FLOAT);
    CHECK_EQ_INT(TFE_TensorHandleDataType(out[1]), TF_INT32);
    TFE_DeleteTensorHandle(out[0]);
    TFE_DeleteTensorHandle(out[1]);
    TFE_DeleteOp(op);
  }
  /* A list for a single-tensor argument is rejected (inputs still added). */
  op = TFE_NewOp(ctx, "AddV2", s);
  TFE_OpAddInputList(op, l, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_OpGetFlatInputCount(op, s), 2);
  TFE_OpAddInputList(op, NULL, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpAddInputList(op, l, -1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpAddInputList(NULL, l, 1, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpAddInput(op, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpAddInput(NULL, a, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_OpGetFlatInputCount(NULL, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteOp(op);

  /* Many inputs (beyond the inline array) and a third input to AddV2 (TF
   * crashes there): reported at execution. */
  op = TFE_NewOp(ctx, "AddV2", s);
  {
    int i;
    for (i = 0; i < 20; i++) {
      TFE_OpAddInput(op, a, s);
      CHECK_CODE(s, TF_OK);
    }
  }
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "expected 2 inputs, got 20");
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(ax);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(op_reset) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* a = scalar_f32(3, s);
  TFE_TensorHandle* b = scalar_f32(4, s);
  TFE_TensorHandle* out[1];
  int n = 1;
  TFE_Op* op = TFE_NewOp(ctx, "AddV2", s);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, b, s);
  TFE_Execute(op, out, &n, s);
  CHECK(read_f32(out[0], s) == 7.0f);
  TFE_DeleteTensorHandle(out[0]);
  TFE_OpReset(op, "Mul", NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_OpGetName(op, s), "Mul");
  CHECK_EQ_INT(TFE_OpGetFlatInputCount(op, s), 0);
  TFE_OpAddInput(op, a, s);
  TFE_OpAddInput(op, b, s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK(read_f32(out[0], s) == 12.0f);
  TFE_DeleteTensorHandle(out[0]);
  TFE_OpReset(op, "Sub", FULL_CPU(0), s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_OpGetDevice(op, s), FULL_CPU(0));
  TFE_OpAddInput(op, b, s);
  TFE_OpAddInput(op, a, s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK(read_f32(out[0], s) == 1.0f);
  TFE_DeleteTensorHandle(out[0]);
  TFE_OpReset(op, "Sub", "", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_OpGetDevice(op, s), "");
  /* Failures leave an op without type: only reset or delete help. */
  TFE_OpReset(op, "NoSuchOp", NULL, s);
  CHECK_CODE(s, TF_NOT_FOUND);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  {
    unsigned char il;
    TFE_OpGetAttrType(op, "T", &il, s);
    CHECK_CODE(s, TF_FAILED_PRECONDITION);
    CHECK_EQ_INT(TFE_OpGetInputLength(op, "x", s), -1);
    CHECK_CODE(s, TF_FAILED_PRECONDITION);
  }
  TFE_OpReset(op, "AddV2", "not a device", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpReset(op, NULL, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpReset(NULL, "AddV2", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteOp(op);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteTensorHandle(b);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

/* MatMul of [[1,2],[3,4]] with itself under the op's attrs; returns the
 * first element of the product. */
static float matmul_first(TFE_Context* ctx, TFE_Op* op, TF_Status* s) {
  float v[4] = {1, 2, 3, 4};
  int64_t d[2] = {2, 2};
  TFE_TensorHandle* m = make_handle(TF_FLOAT, d, 2, v, sizeof(v), s);
  TFE_TensorHandle* out[1];
  int n = 1;
  TF_Tensor* t;
  float r;
  (void)ctx;
  TFE_OpAddInput(op, m, s);
  TFE_OpAddInput(op, m, s);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(out[0], s);
  r = ((float*)TF_TensorData(t))[0];
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(m);
  return r;
}

TEST(attr_snapshots_and_wire_format) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_Op* src = TFE_NewOp(ctx, "MatMul", s);
  TFE_Op* dst;
  TF_Buffer* buf = TF_NewBuffer();
  TFE_OpSetAttrBool(src, "transpose_a", 1);
  TFE_OpSetAttrType(src, "T", TF_FLOAT);
  TFE_OpSetAttrInt(src, "not_in_def", 3);
  CHECK(TFE_OpGetAttrs(NULL) == NULL);
  /* Copy into an empty op: transpose_a=1 gives 1*1+3*3 = 10. */
  dst = TFE_NewOp(ctx, "MatMul", s);
  TFE_OpAddAttrs(dst, TFE_OpGetAttrs(src));
  CHECK(matmul_first(ctx, dst, s) == 10.0f);
  TFE_DeleteOp(dst);
  /* Existing values are kept. */
  dst = TFE_NewOp(ctx, "MatMul", s);
  TFE_OpSetAttrBool(dst, "transpose_a", 0);
  TFE_OpAddAttrs(dst, TFE_OpGetAttrs(src));
  CHECK(matmul_first(ctx, dst, s) == 7.0f);
  TFE_OpAddAttrs(dst, NULL);
  TFE_OpAddAttrs(NULL, TFE_OpGetAttrs(src));
  TFE_DeleteOp(dst);

  /* NameAttrList: name "MatMul" first, then the attrs. */
  TFE_OpAttrsSerialize(TFE_OpGetAttrs(src), buf, s);
  CHECK_CODE(s, TF_OK);
  CHECK(buf->length > 8);
  CHECK(memcmp(buf->data, "\x0a\x06MatMul", 8) == 0);
  {
    /* "transpose_a" with AttrValue{b: true} appears as a map entry. */
    const char entry[] = "\x0a\x0btranspose_a\x12\x02\x28\x01";
    size_t i, found = 0;
    for (i = 0; i + sizeof(entry) - 1 <= buf->length; i++) {
      if (memcmp((const char*)buf->data + i, entry, sizeof(entry) - 1) == 0) {
        found = 1;
      }
    }
    CHECK(found);
  }
  TFE_OpAttrsSerialize(TFE_OpGetAttrs(src), buf, s); /* replaces contents */
  CHECK_CODE(s, TF_OK);
  TFE_OpAttrsSerialize(NULL, buf, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpAttrsSerialize(TFE_OpGetAttrs(src), NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  /* AttrValue protos: b = true (field 5), type = DT_FLOAT (field 6). */
  dst = TFE_NewOp(ctx, "MatMul", s);
  TFE_OpSetAttrValueProto(dst, "transpose_b", "\x28\x01", 2, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrValueProto(dst, "T", "\x30\x01", 2, s);
  CHECK_CODE(s, TF_OK);
  /* transpose_b: 1*1 + 2*2 = 5. */
  CHECK(matmul_first(ctx, dst, s) == 5.0f);
  TFE_DeleteOp(dst);
  {
    /* Every supported kind decodes; the malformed ones are refused. */
    static const struct {
      const char* p;
      size_t n;
      int code;
    } cases[] = {
        {"\x12\x03" "abc", 5, TF_OK},                 /* s */
        {"\x18\x7f", 2, TF_OK},                       /* i */
        {"\x25\x00\x00\x80\x3f", 5, TF_OK},           /* f = 1.0 */
        {"\x3a\x08\x12\x02\x08\x02\x12\x02\x08\x03", 10, TF_OK}, /* shape */
        {"\x3a\x02\x18\x01", 4, TF_OK},               /* unknown rank */
        {"\x52\x03\x0a\x01" "f", 5, TF_OK},           /* func */
        {"\x0a\x03\x1a\x01\x05", 5, TF_OK},           /* list(int) packed */
        {"\x0a\x04\x30\x01\x30\x03", 6, TF_OK},       /* list(type) */
        {"\x0a\x05\x12\x01" "a" "\x12\x00", 7, TF_OK}, /* list(string) */
        {"\x0a\x04\x2a\x02\x01\x00", 6, TF_OK},        /* list(bool) */
        {"\x0a\x06\x22\x04\x00\x00\x80\x3f", 8, TF_OK}, /* list(float) */
        {"\x0a\x00", 2, TF_OK},                       /* empty list */
        /* tensor: int32 [2] with tensor_content */
        {"\x42\x12\x08\x03\x12\x04\x12\x02\x08\x02\x22\x08\x01\x00\x00\x00"
         "\x02\x00\x00\x00",
         20, TF_OK},
        /* tensor: float scalar with float_val */
        {"\x42\x07\x08\x01\x2d\x00\x00\x80\x3f", 9, TF_OK},
        {"", 0, TF_INVALID_ARGUMENT},                 /* no value */
        {"\x12\x09" "abc", 5, TF_INVALID_ARGUMENT},   /* truncated */
        {"\xff", 1, TF_INVALID_ARGUMENT},
        {"\x0a\x05\x1a\x01\x05\x12\x00", 7, TF_INVALID_ARGUMENT},
        {"\x0a\x04\x1a\x01\x05\x30", 6, TF_INVALID_ARGUMENT},
        /* tensor content size does not match the shape */
        {"\x42\x0c\x08\x03\x12\x04\x12\x02\x08\x02\x22\x02\x01\x00", 14,
         TF_INVALID_ARGUMENT},
    };
    size_t i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      TFE_Op* o = TFE_NewOp(ctx, "MatMul", s);
      TFE_OpSetAttrValueProto(o, "x", cases[i].p, cases[i].n, s);
      if ((int)TF_GetCode(s) != cases[i].code) {
        TFE_FAIL("case %zu: code %d (%s)", i, (int)TF_GetCode(s),
                 TF_Message(s));
      }
      if (cases[i].code == TF_OK) {
        /* Round trip through the serializer. */
        TFE_OpAttrsSerialize(TFE_OpGetAttrs(o), buf, s);
        CHECK_CODE(s, TF_OK);
      }
      TFE_DeleteOp(o);
    }
  }
  TFE_OpSetAttrValueProto(NULL, "T", "\x30\x01", 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpSetAttrValueProto(src, NULL, "\x30\x01", 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpSetAttrValueProto(src, "T", NULL, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteBuffer(buf);
  TFE_DeleteOp(src);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(every_setter_and_bad_arguments) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_Op* op = TFE_NewOp(ctx, "MatMul", s);
  TFE_Op* fn = TFE_NewOp(ctx, "AddV2", s);
  const void* strs[2] = {"ab", "c"};
  size_t lens[2] = {2, 1};
  int64_t i64[2] = {1, 2};
  float f32[2] = {0.5f, 1.5f};
  unsigned char b8[2] = {1, 0};
  TF_DataType types[2] = {TF_FLOAT, TF_INT32};
  int64_t dims[2] = {2, -1};
  const int64_t* shapes[2] = {dims, NULL};
  int ranks[2] = {2, -1};
  const TFE_Op* fns[1] = {fn};
  int64_t huge[300];
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, dims, 1, 8);
  TF_Buffer* buf = TF_NewBuffer();
  memset(huge, 0, sizeof(huge));
  TFE_OpSetAttrString(op, "a_string", "xyz", 3);
  TFE_OpSetAttrInt(op, "an_int", 3);
  TFE_OpSetAttrFloat(op, "a_float", 1.5f);
  TFE_OpSetAttrBool(op, "a_bool", 1);
  TFE_OpSetAttrType(op, "a_type", TF_INT64);
  TFE_OpSetAttrShape(op, "a_shape", dims, 2, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrShape(op, "unknown_rank", NULL, -1, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrFunction(op, "a_func", fn);
  TFE_OpSetAttrFunctionName(op, "a_func_name", "AddV2", 5);
  TFE_OpSetAttrTensor(op, "a_tensor", t, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrStringList(op, "strings", strs, lens, 2);
  TFE_OpSetAttrIntList(op, "ints", i64, 2);
  TFE_OpSetAttrFloatList(op, "floats", f32, 2);
  TFE_OpSetAttrBoolList(op, "bools", b8, 2);
  TFE_OpSetAttrTypeList(op, "types", types, 2);
  TFE_OpSetAttrShapeList(op, "shapes", shapes, ranks, 2, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetAttrFunctionList(op, "funcs", fns, 1);
  /* Everything serializes. */
  TFE_OpAttrsSerialize(TFE_OpGetAttrs(op), buf, s);
  CHECK_CODE(s, TF_OK);
  CHECK(buf->length > 100);
  /* Errors with a status. */
  TFE_OpSetAttrShape(op, "too_many", huge, 300, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "over the limit");
  TFE_OpSetAttrShape(op, "bad", NULL, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpSetAttrShape(NULL, "x", dims, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpSetAttrShape(op, NULL, dims, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  {
    /* TF refuses dims below -1 (-1 means unknown) instead of reading them
       as unknown. */
    const int64_t below[3] = {2, -1, -2};
    const int64_t* below_list[1] = {below};
    int below_rank[1] = {3};
    TFE_OpSetAttrShape(op, "below", below, 3, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "Shape [2,?,-2] has dimensions");
    TFE_OpSetAttrShapeList(op, "below_list", below_list, below_rank, 1, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "below -1");
  }
  TFE_OpSetAttrTensor(op, "t", NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpSetAttrTensor(NULL, "t", t, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpSetAttrShapeList(op, "sl", NULL, ranks, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  ranks[0] = 300;
  TFE_OpSetAttrShapeList(op, "sl", shapes, ranks, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_OpSetAttrShapeList(NULL, "sl", shapes, ranks, 2, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* Setters without status ignore bad arguments without crashing. */
  TFE_OpSetAttrString(NULL, "a", "x", 1);
  TFE_OpSetAttrString(op, NULL, "x", 1);
  TFE_OpSetAttrString(op, "a", NULL, 1);
  TFE_OpSetAttrInt(NULL, "a", 1);
  TFE_OpSetAttrFloat(NULL, "a", 1);
  TFE_OpSetAttrBool(NULL, "a", 1);
  TFE_OpSetAttrType(NULL, "a", TF_FLOAT);
  TFE_OpSetAttrType(op, NULL, TF_FLOAT);
  TFE_OpSetAttrFunction(op, "f", NULL);
  TFE_OpSetAttrFunction(NULL, "f", fn);
  TFE_OpSetAttrFunctionName(op, "f", NULL, 3);
  TFE_OpSetAttrStringList(op, "l", NULL, lens, 2);
  TFE_OpSetAttrStringList(op, "l", strs, lens, -1);
  TFE_OpSetAttrIntList(op, "l", NULL, 2);
  TFE_OpSetAttrFloatList(op, "l", NULL, 2);
  TFE_OpSetAttrBoolList(op, "l", NULL, 2);
  TFE_OpSetAttrTypeList(op, "l", NULL, 2);
  TFE_OpSetAttrFunctionList(op, "l", NULL, 1);
  TFE_OpSetAttrIntList(NULL, "l", i64, 2);
  TF_DeleteTensor(t);
  TF_DeleteBuffer(buf);
  TFE_DeleteOp(op);
  TFE_DeleteOp(fn);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(op_out_of_memory) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* a = scalar_f32(1, s);
  TFE_TensorHandle* l[20];
  live_counts before;
  int k, i;
  for (i = 0; i < 20; i++) l[i] = a;
  TFE_DeleteOp(TFE_NewOp(ctx, "AddV2", s));
  before = live_now();
  for (k = 0; k < 8; k++) {
    TFE_Op* op;
    TFE_TestFailAllocationsAfter(k);
    op = TFE_NewOp(ctx, "ConcatV2", s);
    if (op != NULL) {
      TFE_OpAddInputList(op, l, 20, s); /* grows the input array */
      TFE_OpSetDevice(op, "/job:localhost/replica:0/task:0/device:CPU:0", s);
      TFE_OpSetAttrString(op, "s", "abc", 3);
      TFE_OpSetAttrIntList(op, "il", (const int64_t[]){1, 2}, 2);
    } else {
      CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    }
    TFE_TestFailAllocationsAfter(-1);
    TFE_DeleteOp(op);
    CHECK_LIVE_EQ(live_now(), before);
  }
  TFE_DeleteTensorHandle(a);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
