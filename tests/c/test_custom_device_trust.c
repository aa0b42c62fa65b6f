/* The custom-device boundary does not trust the device: a device that
 * misbehaves (too few outputs with an OK status, an input handed back as an
 * output, the same output twice, a handle returned together with an error,
 * a summary buffer that cannot exist) gets a clean error naming it, and
 * nothing leaks or is released twice. Issue 13, defect 7. Only the public
 * API is used; live-object counts prove the absence of leaks (the
 * sanitizer build proves the absence of double frees). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"
#include "tfe/custom_device.h"

#define DEV "/job:localhost/replica:0/task:0/device:CUSTOM:0"
#define CPU0 FULL_CPU(0)

/* How each callback misbehaves (0: it behaves). */
enum {
  OK_ = 0,
  ZERO_OUTPUTS,    /* execute: OK status, *num_outputs = 0 */
  ONE_FEWER,       /* execute: OK status, one output fewer than the op's */
  RETURN_INPUT,    /* returns a handle it was given instead of a new one */
  SAME_TWICE,      /* execute: the same new handle as outputs 0 and 1 */
  ERROR_WITH_COPY, /* sets an error but still returns a new handle */
  HUGE_SUMMARY     /* summarize: a buffer claiming SIZE_MAX bytes */
};

typedef struct trustdev {
  int execute_mode;
  int copy_to_mode;
  int copy_from_mode;
  int pack_mode;
  int summary_mode;
} trustdev;

static trustdev g_dev;

/* Handles on the device wrap a CPU handle they own. */
static int w_num_dims(void* data, TF_Status* s) {
  return TFE_TensorHandleNumDims((TFE_TensorHandle*)data, s);
}
static int64_t w_dim(void* data, int i, TF_Status* s) {
  return TFE_TensorHandleDim((TFE_TensorHandle*)data, i, s);
}
static void w_dealloc(void* data) {
  TFE_DeleteTensorHandle((TFE_TensorHandle*)data);
}
static void free_huge(void* data, size_t len) {
  (void)data;
  (void)len;
}
static TF_Buffer* w_summarize(void* data, TF_Status* s) {
  static const char text[] = "wrapped";
  TF_Buffer* b = TF_NewBuffer();
  (void)data;
  (void)s;
  b->data = text;
  b->length = g_dev.summary_mode == HUGE_SUMMARY ? SIZE_MAX : 7;
  b->data_deallocator = free_huge;
  return b;
}

static TFE_TensorHandle* wrap(TFE_Context* ctx, TFE_TensorHandle* inner,
                              TF_Status* s) {
  TFE_CustomDeviceTensorHandle m;
  memset(&m, 0, sizeof(m));
  m.version = TFE_CUSTOM_DEVICE_VERSION;
  m.num_dims = w_num_dims;
  m.dim = w_dim;
  m.deallocator = w_dealloc;
  m.summarize = w_summarize;
  return TFE_NewCustomDeviceTensorHandle(
      ctx, DEV, TFE_TensorHandleDataType(inner), inner, m, s);
}

static TFE_TensorHandle* inner_of(TFE_TensorHandle* h, TF_Status* s) {
  return (TFE_TensorHandle*)TFE_TensorHandleDevicePointer(h, s);
}

static TFE_TensorHandle* copy_to(TFE_Context* ctx, TFE_TensorHandle* t,
                                 TF_Status* s, void* info) {
  TFE_TensorHandle* inner;
  TFE_TensorHandle* r;
  (void)info;
  if (g_dev.copy_to_mode == RETURN_INPUT) return t;
  inner = TFE_TensorHandleCopySharingTensor(t, s);
  if (inner == NULL) return NULL;
  r = wrap(ctx, inner, s);
  if (g_dev.copy_to_mode == ERROR_WITH_COPY) {
    TF_SetStatus(s, TF_ABORTED, "trustdev: copy_to fails after copying");
  }
  return r;
}

static TFE_TensorHandle* copy_from(TFE_Context* ctx, TFE_TensorHandle* t,
                                   const char* target, TF_Status* s,
                                   void* info) {
  TFE_TensorHandle* inner;
  TFE_TensorHandle* r;
  (void)info;
  if (g_dev.copy_from_mode == RETURN_INPUT) return t;
  inner = inner_of(t, s);
  if (inner == NULL) return NULL;
  r = TFE_TensorHandleCopyToDevice(inner, ctx, target, s);
  if (g_dev.copy_from_mode == ERROR_WITH_COPY) {
    TF_SetStatus(s, TF_ABORTED, "trustdev: copy_from fails after copying");
  }
  return r;
}

/* Runs the op on the CPU with unwrapped inputs and wraps the outputs. */
static void execute(const TFE_Op* op, int* num_outputs,
                    TFE_TensorHandle** outputs, TF_Status* s, void* info) {
  TFE_Context* ctx = TFE_OpGetContext(op, s);
  TFE_Op* fwd = TFE_NewOp(ctx, TFE_OpGetName(op, s), s);
  TFE_TensorHandle* tmp[8];
  int i, m = *num_outputs < 8 ? *num_outputs : 8;
  int n = TFE_OpGetFlatInputCount(op, s);
  (void)info;
  if (g_dev.execute_mode == RETURN_INPUT) {
    TFE_DeleteOp(fwd);
    outputs[0] = TFE_OpGetFlatInput(op, 0, s);
    *num_outputs = 1;
    return;
  }
  TFE_OpAddAttrs(fwd, TFE_OpGetAttrs(op));
  TFE_OpSetDevice(fwd, CPU0, s);
  for (i = 0; i < n; i++) {
    TFE_TensorHandle* h = TFE_OpGetFlatInput(op, i, s);
    const char* dev = TFE_TensorHandleDeviceName(h, s);
    TFE_OpAddInput(fwd, strcmp(dev, DEV) == 0 ? inner_of(h, s) : h, s);
  }
  TFE_Execute(fwd, tmp, &m, s);
  TFE_DeleteOp(fwd);
  if (TF_GetCode(s) != TF_OK) return;
  for (i = 0; i < m; i++) outputs[i] = wrap(ctx, tmp[i], s);
  *num_outputs = m;
  if (g_dev.execute_mode == ZERO_OUTPUTS) {
    for (i = 0; i < m; i++) TFE_DeleteTensorHandle(outputs[i]);
    *num_outputs = 0;
  } else if (g_dev.execute_mode == ONE_FEWER) {
    /* The last one is released but its (dangling) pointer stays in the
     * room: slots past *num_outputs must not be touched. */
    TFE_DeleteTensorHandle(outputs[m - 1]);
    *num_outputs = m - 1;
  } else if (g_dev.execute_mode == SAME_TWICE && m >= 2) {
    TFE_DeleteTensorHandle(outputs[1]);
    outputs[1] = outputs[0];
  }
}

static TFE_TensorHandle* pack(TFE_Context* ctx, TFE_TensorHandle** hs,
                              int n, TF_Status* s, void* info) {
  TFE_TensorHandle* r;
  (void)ctx;
  (void)n;
  (void)info;
  if (g_dev.pack_mode == RETURN_INPUT) return hs[0];
  r = TFE_TensorHandleCopySharingTensor(hs[0], s);
  if (g_dev.pack_mode == ERROR_WITH_COPY) {
    TF_SetStatus(s, TF_ABORTED, "trustdev: pack fails after packing");
  }
  return r;
}

static void delete_device(void* info) { (void)info; }

/* A context with the device registered. */
static TFE_Context* setup(TF_Status* s) {
  TFE_Context* ctx = new_ctx(s);
  TFE_CustomDevice c;
  memset(&g_dev, 0, sizeof(g_dev));
  memset(&c, 0, sizeof(c));
  c.version = TFE_CUSTOM_DEVICE_VERSION;
  c.copy_tensor_to_device = copy_to;
  c.copy_tensor_from_device = copy_from;
  c.execute = execute;
  c.delete_device = delete_device;
  c.pack = pack;
  TFE_RegisterCustomDevice(ctx, c, DEV, NULL, s);
  CHECK_CODE(s, TF_OK);
  return ctx;
}

static TFE_Op* op_on_dev(TFE_Context* ctx, const char* name,
                         TFE_TensorHandle* in, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpSetDevice(op, DEV, s);
  CHECK_CODE(s, TF_OK);
  TFE_OpAddInput(op, in, s);
  CHECK_CODE(s, TF_OK);
  return op;
}

/* The defect: 0 outputs for a 1-output op came back as OK with
 * *num_retvals == 0. */
TEST(zero_outputs_with_ok_status_is_internal) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = setup(s);
  TFE_TensorHandle* x = scalar_f32(4, s);
  TFE_TensorHandle* xd = TFE_TensorHandleCopyToDevice(x, ctx, DEV, s);
  TFE_TensorHandle* out[2] = {NULL, NULL};
  TFE_Op* op;
  live_counts mid;
  int n;
  CHECK_CODE(s, TF_OK);

  /* A well-behaved run first. */
  op = op_on_dev(ctx, "Sqrt", xd, s);
  n = 2;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 1);
  TFE_DeleteTensorHandle(out[0]);
  out[0] = NULL;
  mid = live_now();

  g_dev.execute_mode = ZERO_OUTPUTS;
  n = 2;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_CONTAINS(TF_Message(s), DEV);
  CHECK_STR_CONTAINS(TF_Message(s), "execute of Sqrt reported 0 outputs");
  CHECK_STR_CONTAINS(TF_Message(s), "Sqrt has 1 outputs");
  CHECK(out[0] == NULL);
  CHECK_LIVE_EQ(live_now(), mid);

  /* One fewer than the op has, for a 2-output op: the one reported is
   * released. */
  TFE_DeleteOp(op);
  {
    const int64_t dims[1] = {2};
    const float v[2] = {1, 2};
    TFE_TensorHandle* p = make_handle(TF_FLOAT, dims, 1, v, sizeof(v), s);
    TFE_TensorHandle* pd = TFE_TensorHandleCopyToDevice(p, ctx, DEV, s);
    CHECK_CODE(s, TF_OK);
    op = op_on_dev(ctx, "Unpack", pd, s);
    TFE_OpSetAttrInt(op, "num", 2);
    mid = live_now();
    g_dev.execute_mode = ONE_FEWER;
    n = 2;
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_INTERNAL);
    CHECK_STR_CONTAINS(TF_Message(s), "reported 1 outputs");
    CHECK_STR_CONTAINS(TF_Message(s), "Unpack has 2 outputs");
    CHECK_LIVE_EQ(live_now(), mid);

    /* The same handle twice: INTERNAL, released once. */
    g_dev.execute_mode = SAME_TWICE;
    n = 2;
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_INTERNAL);
    CHECK_STR_CONTAINS(TF_Message(s), "same handle as outputs 0 and 1");
    CHECK_LIVE_EQ(live_now(), mid);
    TFE_DeleteOp(op);
    TFE_DeleteTensorHandle(pd);
    TFE_DeleteTensorHandle(p);
  }

  TFE_DeleteTensorHandle(xd);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* An input handed back as an output would be released twice by the
 * caller (once as the input it owns, once as the output). */
TEST(input_returned_as_output_is_internal_and_not_released) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = setup(s);
  TFE_TensorHandle* x = scalar_f32(9, s);
  TFE_TensorHandle* xd = TFE_TensorHandleCopyToDevice(x, ctx, DEV, s);
  TFE_TensorHandle* out[1] = {NULL};
  TFE_Op* op;
  int n = 1;
  CHECK_CODE(s, TF_OK);
  g_dev.execute_mode = RETURN_INPUT;
  op = op_on_dev(ctx, "Identity", xd, s);
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_CONTAINS(TF_Message(s), "execute returned a handle it was given");
  TFE_DeleteOp(op);
  /* xd is still alive and usable. */
  g_dev.execute_mode = OK_;
  CHECK_EQ_INT((int)read_f32(xd, s), 9);

  /* The same for copies and packing. */
  g_dev.copy_from_mode = RETURN_INPUT;
  CHECK(TFE_TensorHandleCopyToDevice(xd, ctx, CPU0, s) == NULL);
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_CONTAINS(TF_Message(s), "copy_tensor_from_device returned a "
                                    "handle it was given");
  CHECK(TFE_TensorHandleResolve(xd, s) == NULL);
  CHECK_CODE(s, TF_INTERNAL);
  g_dev.copy_from_mode = OK_;
  g_dev.copy_to_mode = RETURN_INPUT;
  CHECK(TFE_TensorHandleCopyToDevice(x, ctx, DEV, s) == NULL);
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_CONTAINS(TF_Message(s), DEV);
  g_dev.copy_to_mode = OK_;
  g_dev.pack_mode = RETURN_INPUT;
  {
    TFE_TensorHandle* hs[1] = {xd};
    int nh = 1;
    CHECK(TFE_CreatePackedTensorHandle(ctx, hs, &nh, s) == NULL);
    CHECK_CODE(s, TF_INTERNAL);
    CHECK_STR_CONTAINS(TF_Message(s), "pack returned a handle it was given");
  }
  g_dev.pack_mode = OK_;
  CHECK_EQ_INT((int)read_f32(xd, s), 9);

  TFE_DeleteTensorHandle(xd);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* The defect: a handle returned together with an error status leaked. */
TEST(handle_returned_with_an_error_is_released) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = setup(s);
  TFE_TensorHandle* x = scalar_f32(3, s);
  TFE_TensorHandle* xd = TFE_TensorHandleCopyToDevice(x, ctx, DEV, s);
  live_counts mid;
  CHECK_CODE(s, TF_OK);
  mid = live_now();

  g_dev.copy_to_mode = ERROR_WITH_COPY;
  CHECK(TFE_TensorHandleCopyToDevice(x, ctx, DEV, s) == NULL);
  CHECK_CODE(s, TF_ABORTED);
  CHECK_STR_EQ(TF_Message(s), "trustdev: copy_to fails after copying");
  CHECK_LIVE_EQ(live_now(), mid);
  g_dev.copy_to_mode = OK_;

  g_dev.copy_from_mode = ERROR_WITH_COPY;
  CHECK(TFE_TensorHandleCopyToDevice(xd, ctx, CPU0, s) == NULL);
  CHECK_CODE(s, TF_ABORTED);
  CHECK_LIVE_EQ(live_now(), mid);
  CHECK(TFE_TensorHandleResolve(xd, s) == NULL);
  CHECK_CODE(s, TF_ABORTED);
  CHECK_LIVE_EQ(live_now(), mid);
  {
    /* An op on a physical device copies its input off the device. */
    TFE_TensorHandle* out[1] = {NULL};
    int n = 1;
    TFE_Op* op = TFE_NewOp(ctx, "Neg", s);
    TFE_OpSetDevice(op, CPU0, s);
    TFE_OpAddInput(op, xd, s);
    CHECK_CODE(s, TF_OK);
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_ABORTED);
    TFE_DeleteOp(op);
    CHECK_LIVE_EQ(live_now(), mid);
  }
  g_dev.copy_from_mode = OK_;

  g_dev.pack_mode = ERROR_WITH_COPY;
  {
    TFE_TensorHandle* hs[2] = {xd, xd};
    int nh = 2;
    CHECK(TFE_CreatePackedTensorHandle(ctx, hs, &nh, s) == NULL);
    CHECK_CODE(s, TF_ABORTED);
    CHECK_LIVE_EQ(live_now(), mid);
  }
  g_dev.pack_mode = OK_;

  TFE_DeleteTensorHandle(xd);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* A summary whose length cannot be copied (length + 1 wraps) is INTERNAL,
 * not a heap overflow. */
TEST(summary_of_impossible_length_is_internal) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = setup(s);
  TFE_TensorHandle* x = scalar_f32(1, s);
  TFE_TensorHandle* xd = TFE_TensorHandleCopyToDevice(x, ctx, DEV, s);
  TF_Buffer* b = TF_NewBuffer();
  CHECK_CODE(s, TF_OK);
  TFE_CustomDeviceTensorHandleSummarize(xd, b, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(b->length, 7);
  CHECK(memcmp(b->data, "wrapped", 7) == 0);
  g_dev.summary_mode = HUGE_SUMMARY;
  TFE_CustomDeviceTensorHandleSummarize(xd, b, s);
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_CONTAINS(TF_Message(s), DEV);
  CHECK_EQ_SIZE(b->length, 7); /* left as it was */
  TF_DeleteBuffer(b);
  TFE_DeleteTensorHandle(xd);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
