/* Custom devices through the public API: a logging device whose callback
 * transcript is asserted, custom-device tensor handles (methods,
 * deallocator count, sharing, summaries), placement rules, copies,
 * resolve, packing, and every error path (registration, handle creation,
 * execute failures), with live-object counts to show nothing leaks. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"
#include "tfe/custom_device.h"

#define DEV "/job:localhost/replica:0/task:0/device:CUSTOM:0"
#define DEV1 "/job:localhost/replica:0/task:0/device:CUSTOM:1"
#define CPU0 FULL_CPU(0)
#define CPU1 FULL_CPU(1)

/* ------------------------------------------------------------------------
 * A logging device: wraps CPU handles and forwards every op to CPU:0,
 * writing one line per callback into `log`. */

typedef struct logdev {
  char log[8192];
  size_t len;
  int deletes;
  int executes;
  /* Behaviour switches. */
  int fail_execute;        /* execute sets this code (0: off) */
  int too_many_outputs;    /* execute reports one output more than room */
  int null_output;         /* execute returns a NULL first output */
  int pin;                 /* shall_pin answer: -1 no callback, 0/1 */
  int pin_error;           /* shall_pin sets an error */
  int fail_copy_from;      /* copy_tensor_from_device fails */
  int packs;
} logdev;

typedef struct wrapped {
  TFE_TensorHandle* inner;
  int* deallocs;
} wrapped;

static int g_wrapped_deallocs;

static void logf_(logdev* d, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (d->len < sizeof(d->log)) {
    int n = vsnprintf(d->log + d->len, sizeof(d->log) - d->len, fmt, ap);
    if (n > 0) d->len += (size_t)n;
    if (d->len >= sizeof(d->log)) d->len = sizeof(d->log) - 1;
  }
  va_end(ap);
}

static void clear_log(logdev* d) {
  d->len = 0;
  d->log[0] = '\0';
}

static int w_num_dims(void* data, TF_Status* s) {
  return TFE_TensorHandleNumDims(((wrapped*)data)->inner, s);
}
static int64_t w_dim(void* data, int i, TF_Status* s) {
  return TFE_TensorHandleDim(((wrapped*)data)->inner, i, s);
}
static void w_dealloc(void* data) {
  wrapped* w = (wrapped*)data;
  TFE_DeleteTensorHandle(w->inner);
  g_wrapped_deallocs++;
  free(w);
}

/* Wraps `inner` (adopted) as a handle on `device`. */
static TFE_TensorHandle* wrap(TFE_Context* ctx, const char* device,
                              TFE_TensorHandle* inner, TF_Status* s) {
  TFE_CustomDeviceTensorHandle m;
  wrapped* w = (wrapped*)malloc(sizeof(*w));
  w->inner = inner;
  memset(&m, 0, sizeof(m));
  m.version = TFE_CUSTOM_DEVICE_VERSION;
  m.num_dims = w_num_dims;
  m.dim = w_dim;
  m.deallocator = w_dealloc;
  return TFE_NewCustomDeviceTensorHandle(ctx, device,
                                         TFE_TensorHandleDataType(inner), w,
                                         m, s);
}

static TFE_TensorHandle* unwrap(TFE_TensorHandle* h, TF_Status* s) {
  wrapped* w = (wrapped*)TFE_TensorHandleDevicePointer(h, s);
  return w != NULL ? w->inner : NULL;
}

/* Short device names in the log. */
static const char* short_name(const char* full) {
  const char* p = strstr(full, "/device:");
  return p != NULL ? p + 8 : full;
}

static TFE_TensorHandle* log_copy_to(TFE_Context* ctx, TFE_TensorHandle* t,
                                     TF_Status* s, void* info) {
  logdev* d = (logdev*)info;
  TFE_TensorHandle* inner;
  logf_(d, "copy_to from=%s\n", short_name(TFE_TensorHandleDeviceName(t, s)));
  inner = TFE_TensorHandleCopyToDevice(t, ctx, CPU0, s);
  if (TF_GetCode(s) != TF_OK) return NULL;
  return wrap(ctx, DEV, inner, s);
}

static TFE_TensorHandle* log_copy_from(TFE_Context* ctx, TFE_TensorHandle* t,
                                       const char* target, TF_Status* s,
                                       void* info) {
  logdev* d = (logdev*)info;
  TFE_TensorHandle* inner;
  logf_(d, "copy_from to=%s\n", short_name(target));
  if (d->fail_copy_from) {
    TF_SetStatus(s, TF_UNIMPLEMENTED, "logdev: no copies off this device");
    return NULL;
  }
  inner = unwrap(t, s);
  if (inner == NULL) return NULL;
  return TFE_TensorHandleCopyToDevice(inner, ctx, target, s);
}

static void log_execute(const TFE_Op* op, int* num_outputs,
                        TFE_TensorHandle** outputs, TF_Status* s,
                        void* info) {
  logdev* d = (logdev*)info;
  TFE_Context* ctx = TFE_OpGetContext(op, s);
  const char* name = TFE_OpGetName(op, s);
  const char* opdev = TFE_OpGetDevice(op, s);
  int i, n = TFE_OpGetFlatInputCount(op, s), m = *num_outputs;
  TFE_TensorHandle* tmp[16];
  TFE_Op* fwd;
  d->executes++;
  logf_(d, "execute %s dev=\"%s\" inputs=%d room=%d\n", name,
        short_name(opdev), n, *num_outputs);
  if (d->fail_execute) {
    TF_SetStatus(s, (TF_Code)d->fail_execute, "logdev refuses this op");
    return;
  }
  fwd = TFE_NewOp(ctx, name, s);
  if (TF_GetCode(s) != TF_OK) return;
  TFE_OpAddAttrs(fwd, TFE_OpGetAttrs(op));
  TFE_OpSetDevice(fwd, CPU0, s);
  for (i = 0; i < n; i++) {
    TFE_TensorHandle* h = TFE_OpGetFlatInput(op, i, s);
    const char* hd = TFE_TensorHandleDeviceName(h, s);
    int mine = strcmp(hd, DEV) == 0;
    logf_(d, "  input %d %s\n", i, mine ? "custom" : short_name(hd));
    TFE_OpAddInput(fwd, mine ? unwrap(h, s) : h, s);
  }
  if (m > 16) m = 16;
  TFE_Execute(fwd, tmp, &m, s);
  TFE_DeleteOp(fwd);
  if (TF_GetCode(s) != TF_OK) return;
  for (i = 0; i < m; i++) outputs[i] = wrap(ctx, DEV, tmp[i], s);
  *num_outputs = m;
  if (d->too_many_outputs) *num_outputs = 17;
  if (d->null_output) {
    TFE_DeleteTensorHandle(outputs[0]);
    outputs[0] = NULL;
  }
}

static void log_delete(void* info) {
  logdev* d = (logdev*)info;
  d->deletes++;
  logf_(d, "delete_device\n");
}

/* shall_pin_to_this_device gets no device_info: the test's device is
 * reached through a global. */
static logdev* g_pin_dev;
static bool log_pin_dispatch(const TFE_Op* op, TF_Status* s) {
  logdev* d = g_pin_dev;
  logf_(d, "shall_pin %s\n", TFE_OpGetName(op, s));
  if (d->pin_error) {
    TF_SetStatus(s, TF_FAILED_PRECONDITION, "logdev cannot decide");
    return false;
  }
  return d->pin != 0;
}

static TFE_TensorHandle* log_pack(TFE_Context* ctx, TFE_TensorHandle** hs,
                                  int n, TF_Status* s, void* info) {
  logdev* d = (logdev*)info;
  d->packs++;
  logf_(d, "pack n=%d\n", n);
  return TFE_TensorHandleCopySharingTensor(hs[0], s);
  (void)ctx;
}

static TFE_CustomDevice log_device(void) {
  TFE_CustomDevice c;
  memset(&c, 0, sizeof(c));
  c.version = TFE_CUSTOM_DEVICE_VERSION;
  c.copy_tensor_to_device = log_copy_to;
  c.copy_tensor_from_device = log_copy_from;
  c.execute = log_execute;
  c.delete_device = log_delete;
  return c;
}

static logdev* new_logdev(void) {
  logdev* d = (logdev*)calloc(1, sizeof(*d));
  d->pin = -1;
  return d;
}

static TFE_Context* ctx_with_cpus(int n, TF_Status* s) {
  TFE_Context* ctx = new_ctx(s);
  if (n > 1) {
    TFE_SetLogicalCpuDevices(ctx, n, "/job:localhost/replica:0/task:0", s);
    CHECK_CODE(s, TF_OK);
  }
  return ctx;
}

static TFE_TensorHandle* f32_2x2(float a, float b, float c, float d,
                                 TF_Status* s) {
  const int64_t dims[2] = {2, 2};
  const float v[4] = {a, b, c, d};
  return make_handle(TF_FLOAT, dims, 2, v, sizeof(v), s);
}

/* Values of a (CPU) float handle. */
static void read_floats(TFE_TensorHandle* h, float* out, int n,
                        TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_TensorElementCount(t), n);
  memcpy(out, TF_TensorData(t), sizeof(float) * (size_t)n);
  TF_DeleteTensor(t);
}

/* Executes a single-output op; returns its output or NULL. */
static TFE_TensorHandle* exec1(TFE_Op* op, TF_Status* s) {
  TFE_TensorHandle* out[1] = {NULL};
  int n = 1;
  TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  if (TF_GetCode(s) != TF_OK) return NULL;
  CHECK_EQ_INT(n, 1);
  return out[0];
}

static TFE_Op* new_op(TFE_Context* ctx, const char* name, const char* device,
                      TFE_TensorHandle* a, TFE_TensorHandle* b, TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  CHECK_CODE(s, TF_OK);
  if (device != NULL) {
    TFE_OpSetDevice(op, device, s);
    CHECK_CODE(s, TF_OK);
  }
  if (a != NULL) {
    TFE_OpAddInput(op, a, s);
    CHECK_CODE(s, TF_OK);
  }
  if (b != NULL) {
    TFE_OpAddInput(op, b, s);
    CHECK_CODE(s, TF_OK);
  }
  return op;
}

/* ------------------------------------------------------------------------
 * The logging device end to end. */

TEST(logging_device_transcript) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = ctx_with_cpus(2, s);
  logdev* d = new_logdev();
  TFE_TensorHandle *x, *y, *xd, *r, *c;
  TFE_Op* op;
  float v[4];
  TFE_TensorHandle* outs[2];
  int n;

  g_wrapped_deallocs = 0;
  CHECK(!TFE_IsCustomDevice(ctx, DEV));
  TFE_RegisterCustomDevice(ctx, log_device(), DEV, d, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_IsCustomDevice(ctx, DEV));
  CHECK(TFE_IsCustomDevice(ctx, "CUSTOM:0"));
  CHECK(TFE_IsCustomDevice(ctx, "/device:CUSTOM:0"));
  CHECK(!TFE_IsCustomDevice(ctx, DEV1));
  CHECK(!TFE_IsCustomDevice(ctx, CPU0));
  CHECK(!TFE_IsCustomDevice(ctx, NULL));
  CHECK(!TFE_IsCustomDevice(NULL, DEV));
  /* Custom devices are not listed with the physical ones (as in TF). */
  {
    TF_DeviceList* l = TFE_ContextListDevices(ctx, s);
    CHECK_EQ_INT(TF_DeviceListCount(l), 2);
    TF_DeleteDeviceList(l);
  }

  x = f32_2x2(1, 2, 3, 4, s);
  y = f32_2x2(10, 20, 30, 40, s);

  /* Copy onto the device. */
  xd = TFE_TensorHandleCopyToDevice(x, ctx, DEV, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(xd, s), DEV);
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(xd, s), DEV);
  CHECK_STR_EQ(TFE_TensorHandleDeviceType(xd, s), "CUSTOM");
  CHECK_EQ_INT(TFE_TensorHandleDeviceID(xd, s), 0);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(xd, s), 2);
  CHECK_EQ_INT(TFE_TensorHandleDim(xd, 1, s), 2);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(xd, s), 4);
  CHECK_EQ_INT(TFE_TensorHandleDataType(xd), TF_FLOAT);

  /* Implicit placement: an input on the device. */
  r = exec1(new_op(ctx, "AddV2", NULL, xd, xd, s), s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(r, s), DEV);
  c = TFE_TensorHandleCopyToDevice(r, ctx, CPU0, s);
  CHECK_CODE(s, TF_OK);
  read_floats(c, v, 4, s);
  CHECK(v[0] == 2 && v[1] == 4 && v[2] == 6 && v[3] == 8);
  TFE_DeleteTensorHandle(c);
  TFE_DeleteTensorHandle(r);

  /* Mixed inputs, then explicit placement with CPU inputs. */
  r = exec1(new_op(ctx, "Mul", NULL, y, xd, s), s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(r);
  r = exec1(new_op(ctx, "Sub", DEV, y, x, s), s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(r, s), DEV);
  /* Resolve copies off the device to the host CPU. */
  {
    TF_Tensor* t = TFE_TensorHandleResolve(r, s);
    CHECK_CODE(s, TF_OK);
    memcpy(v, TF_TensorData(t), sizeof(v));
    CHECK(v[0] == 9 && v[3] == 36);
    TF_DeleteTensor(t);
  }
  TFE_DeleteTensorHandle(r);

  /* Attributes reach the device (LeakyRelu's alpha). */
  op = new_op(ctx, "LeakyRelu", DEV, NULL, NULL, s);
  {
    TFE_TensorHandle* neg = f32_2x2(-4, 4, -8, 8, s);
    TFE_OpAddInput(op, neg, s);
    TFE_OpSetAttrFloat(op, "alpha", 0.25f);
    r = exec1(op, s);
    CHECK_CODE(s, TF_OK);
    TFE_DeleteTensorHandle(neg);
  }
  c = TFE_TensorHandleCopyToDevice(r, ctx, "CPU:1", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(c, s), CPU1);
  read_floats(c, v, 4, s);
  CHECK(v[0] == -1 && v[1] == 4 && v[2] == -2 && v[3] == 8);
  TFE_DeleteTensorHandle(c);
  TFE_DeleteTensorHandle(r);

  /* Several outputs. */
  op = new_op(ctx, "Unpack", NULL, xd, NULL, s);
  TFE_OpSetAttrInt(op, "num", 2);
  n = 2;
  TFE_Execute(op, outs, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(n, 2);
  TFE_DeleteOp(op);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(outs[1], s), DEV);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(outs[1], s), 1);
  TFE_DeleteTensorHandle(outs[0]);
  TFE_DeleteTensorHandle(outs[1]);

  /* An op placed on a physical device copies its custom inputs there. */
  r = exec1(new_op(ctx, "Neg", "CPU:1", xd, NULL, s), s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(r, s), CPU1);
  read_floats(r, v, 4, s);
  CHECK(v[0] == -1 && v[3] == -4);
  TFE_DeleteTensorHandle(r);

  TFE_DeleteTensorHandle(xd);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteTensorHandle(y);
  CHECK_EQ_INT(d->deletes, 0);
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(d->deletes, 1);

  CHECK_STR_EQ(d->log,
               "copy_to from=CPU:0\n"
               "execute AddV2 dev=\"\" inputs=2 room=1\n"
               "  input 0 custom\n"
               "  input 1 custom\n"
               "copy_from to=CPU:0\n"
               "execute Mul dev=\"\" inputs=2 room=1\n"
               "  input 0 CPU:0\n"
               "  input 1 custom\n"
               "execute Sub dev=\"CUSTOM:0\" inputs=2 room=1\n"
               "  input 0 CPU:0\n"
               "  input 1 CPU:0\n"
               "copy_from to=CPU:0\n"
               "execute LeakyRelu dev=\"CUSTOM:0\" inputs=1 room=1\n"
               "  input 0 CPU:0\n"
               "copy_from to=CPU:1\n"
               "execute Unpack dev=\"\" inputs=1 room=2\n"
               "  input 0 custom\n"
               "copy_from to=CPU:1\n"
               "delete_device\n");
  CHECK_EQ_INT(d->executes, 5);
  /* xd, AddV2, Mul, Sub, LeakyRelu and Unpack's two outputs. */
  CHECK_EQ_INT(g_wrapped_deallocs, 7);
  free(d);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* ------------------------------------------------------------------------
 * Handles made with TFE_NewCustomDeviceTensorHandle. */

typedef struct user_data {
  int deallocs;
  int rank;
  int64_t dims[4];
  int fail_num_dims;
  const char* summary;
} user_data;

static int u_num_dims(void* data, TF_Status* s) {
  user_data* u = (user_data*)data;
  if (u->fail_num_dims) {
    TF_SetStatus(s, TF_DATA_LOSS, "u_num_dims fails");
    return -1;
  }
  return u->rank;
}
static int64_t u_dim(void* data, int i, TF_Status* s) {
  (void)s;
  return ((user_data*)data)->dims[i];
}
static void u_dealloc(void* data) { ((user_data*)data)->deallocs++; }
static TF_Buffer* u_summarize(void* data, TF_Status* s) {
  user_data* u = (user_data*)data;
  if (u->summary == NULL) {
    TF_SetStatus(s, TF_ABORTED, "no summary today");
    return NULL;
  }
  return TF_NewBufferFromString(u->summary, strlen(u->summary));
}

static TFE_CustomDeviceTensorHandle user_methods(void) {
  TFE_CustomDeviceTensorHandle m;
  memset(&m, 0, sizeof(m));
  m.version = TFE_CUSTOM_DEVICE_VERSION;
  m.num_dims = u_num_dims;
  m.dim = u_dim;
  m.deallocator = u_dealloc;
  return m;
}

TEST(custom_handle_methods_and_deallocator_count) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  logdev* d = new_logdev();
  user_data u;
  TFE_CustomDeviceTensorHandle m = user_methods();
  TFE_TensorHandle *h, *h2, *h3;
  TF_Buffer* buf = TF_NewBuffer();

  memset(&u, 0, sizeof(u));
  u.rank = 2;
  u.dims[0] = 3;
  u.dims[1] = 5;
  TFE_RegisterCustomDevice(ctx, log_device(), DEV, d, s);
  CHECK_CODE(s, TF_OK);

  h = TFE_NewCustomDeviceTensorHandle(ctx, "CUSTOM:0", TF_INT64, &u, m, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(h, s), DEV);
  CHECK_EQ_INT(TFE_TensorHandleDataType(h), TF_INT64);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(h, s), 2);
  CHECK_EQ_INT(TFE_TensorHandleDim(h, 0, s), 3);
  CHECK_EQ_INT(TFE_TensorHandleDim(h, 1, s), 5);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(h, s), 15);
  CHECK(TFE_TensorHandleDevicePointer(h, s) == (void*)&u);
  CHECK_CODE(s, TF_OK);
  TFE_TensorHandleGetStatus(h, s);
  CHECK_CODE(s, TF_OK);

  /* Bad indices never reach the device. */
  CHECK_EQ_INT(TFE_TensorHandleDim(h, 2, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_TensorHandleDim(h, -1, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* No device memory to size or describe. */
  CHECK_EQ_INT(TFE_TensorHandleDeviceMemorySize(h, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleTensorDebugInfo(h, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  /* Unknown dims: no element count (TF's rule). */
  u.dims[1] = -1;
  CHECK_EQ_INT(TFE_TensorHandleDim(h, 1, s), -1);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(h, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "varying shapes");
  u.dims[1] = 5;

  /* A method's error reaches the caller. */
  u.fail_num_dims = 1;
  CHECK_EQ_INT(TFE_TensorHandleNumDims(h, s), -1);
  CHECK_CODE(s, TF_DATA_LOSS);
  CHECK_STR_EQ(TF_Message(s), "u_num_dims fails");
  CHECK_EQ_INT(TFE_TensorHandleNumElements(h, s), -1);
  CHECK_CODE(s, TF_DATA_LOSS);
  /* NULL statuses are tolerated. */
  CHECK_EQ_INT(TFE_TensorHandleNumDims(h, NULL), -1);
  u.fail_num_dims = 0;
  CHECK_EQ_INT(TFE_TensorHandleNumDims(h, NULL), 2);

  /* No summarize method. */
  TFE_CustomDeviceTensorHandleSummarize(h, buf, s);
  CHECK_CODE(s, TF_UNIMPLEMENTED);

  /* Sharing: the data is released once, with the last handle. */
  h2 = TFE_TensorHandleCopySharingTensor(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_TensorHandleDevicePointer(h2, s) == (void*)&u);
  h3 = TFE_TensorHandleCopySharingTensor(h2, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(h3);
  CHECK_EQ_INT(u.deallocs, 0);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(h2, s), 15);
  TFE_DeleteTensorHandle(h2);
  CHECK_EQ_INT(u.deallocs, 1);

  /* Summaries. */
  m.summarize = u_summarize;
  u.summary = "three by five";
  h = TFE_NewCustomDeviceTensorHandle(ctx, DEV, TF_FLOAT, &u, m, s);
  CHECK_CODE(s, TF_OK);
  TFE_CustomDeviceTensorHandleSummarize(h, buf, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(buf->length, strlen("three by five"));
  CHECK_STR_EQ((const char*)buf->data, "three by five");
  u.summary = NULL;
  TFE_CustomDeviceTensorHandleSummarize(h, buf, s);
  CHECK_CODE(s, TF_ABORTED);
  CHECK_STR_EQ((const char*)buf->data, "three by five"); /* untouched */
  TFE_CustomDeviceTensorHandleSummarize(h, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_CustomDeviceTensorHandleSummarize(NULL, buf, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  {
    TFE_TensorHandle* cpu = scalar_f32(1, s);
    TFE_CustomDeviceTensorHandleSummarize(cpu, buf, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    TFE_DeleteTensorHandle(cpu);
  }
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_INT(u.deallocs, 2);

  TF_DeleteBuffer(buf);
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(d->deletes, 1);
  free(d);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(new_custom_handle_errors_release_the_data) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  logdev* d = new_logdev();
  user_data u;
  TFE_CustomDeviceTensorHandle m;

  memset(&u, 0, sizeof(u));
  TFE_RegisterCustomDevice(ctx, log_device(), DEV, d, s);
  CHECK_CODE(s, TF_OK);

  m = user_methods();
  CHECK(TFE_NewCustomDeviceTensorHandle(ctx, DEV1, TF_FLOAT, &u, m, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "unknown device");
  CHECK_EQ_INT(u.deallocs, 1);
  CHECK(TFE_NewCustomDeviceTensorHandle(ctx, CPU0, TF_FLOAT, &u, m, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(u.deallocs, 2);
  CHECK(TFE_NewCustomDeviceTensorHandle(ctx, NULL, TF_FLOAT, &u, m, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(u.deallocs, 3);
  CHECK(TFE_NewCustomDeviceTensorHandle(ctx, DEV, (TF_DataType)0, &u, m, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "dtype");
  CHECK_EQ_INT(u.deallocs, 4);
  CHECK(TFE_NewCustomDeviceTensorHandle(NULL, DEV, TF_FLOAT, &u, m, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(u.deallocs, 5);

  m.version = 3;
  CHECK(TFE_NewCustomDeviceTensorHandle(ctx, DEV, TF_FLOAT, &u, m, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "version 3");
  CHECK_EQ_INT(u.deallocs, 6);

  m = user_methods();
  m.num_dims = NULL;
  CHECK(TFE_NewCustomDeviceTensorHandle(ctx, DEV, TF_FLOAT, &u, m, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "num_dims");
  CHECK_EQ_INT(u.deallocs, 7);
  m = user_methods();
  m.dim = NULL;
  CHECK(TFE_NewCustomDeviceTensorHandle(ctx, DEV, TF_FLOAT, &u, m, s) ==
        NULL);
  CHECK_STR_CONTAINS(TF_Message(s), ".dim is NULL");
  CHECK_EQ_INT(u.deallocs, 8);
  m = user_methods();
  m.deallocator = NULL; /* nothing to call: the data stays the caller's */
  CHECK(TFE_NewCustomDeviceTensorHandle(ctx, DEV, TF_FLOAT, &u, m, s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "deallocator");
  CHECK_EQ_INT(u.deallocs, 8);

  /* Out of memory: RESOURCE_EXHAUSTED, and the data is still released. */
  m = user_methods();
  TFE_TestFailAllocationsAfter(0);
  CHECK(TFE_NewCustomDeviceTensorHandle(ctx, DEV, TF_FLOAT, &u, m, s) ==
        NULL);
  TFE_TestFailAllocationsAfter(-1);
  CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
  CHECK_EQ_INT(u.deallocs, 9);
  TFE_TestFailAllocationsAfter(1);
  CHECK(TFE_NewCustomDeviceTensorHandle(ctx, DEV, TF_FLOAT, &u, m, s) ==
        NULL);
  TFE_TestFailAllocationsAfter(-1);
  CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
  CHECK_EQ_INT(u.deallocs, 10);

  TFE_DeleteContext(ctx);
  free(d);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* ------------------------------------------------------------------------
 * Registration errors. Every failure still runs delete_device once. */

static void expect_register_error(TFE_Context* ctx, TFE_CustomDevice dev,
                                  const char* name, TF_Code code,
                                  const char* mention, int deletes_after) {
  TF_Status* s = TF_NewStatus();
  logdev* d = new_logdev();
  TFE_RegisterCustomDevice(ctx, dev, name, d, s);
  CHECK_CODE(s, code);
  CHECK_STR_CONTAINS(TF_Message(s), mention);
  CHECK_EQ_INT(d->deletes, deletes_after);
  free(d);
  TF_DeleteStatus(s);
}

TEST(registration_errors) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = ctx_with_cpus(2, s);
  logdev* d = new_logdev();
  TFE_CustomDevice dev = log_device();

  TFE_RegisterCustomDevice(ctx, dev, DEV, d, s);
  CHECK_CODE(s, TF_OK);

  /* A second device of the same name. */
  expect_register_error(ctx, dev, DEV, TF_ALREADY_EXISTS,
                        "already registered as a custom device", 1);
  /* Physical device names, full or local. */
  expect_register_error(ctx, dev, CPU1, TF_ALREADY_EXISTS,
                        "already registered as a physical device", 1);
  expect_register_error(ctx, dev, "CPU:0", TF_ALREADY_EXISTS, "physical", 1);
  /* Names that are not full device names. */
  expect_register_error(ctx, dev, "CUSTOM:3", TF_INVALID_ARGUMENT,
                        "could not be parsed as a device name", 1);
  expect_register_error(ctx, dev, "/device:CUSTOM:3", TF_INVALID_ARGUMENT,
                        "/job:<name>/replica:<replica>", 1);
  expect_register_error(ctx, dev, "not a device", TF_INVALID_ARGUMENT,
                        "could not be parsed", 1);
  expect_register_error(ctx, dev, NULL, TF_INVALID_ARGUMENT, "NULL", 1);

  /* An unknown version: named in the message. */
  dev.version = 3;
  expect_register_error(ctx, dev, DEV1, TF_INVALID_ARGUMENT, "version 3", 1);
  dev.version = 99;
  expect_register_error(ctx, dev, DEV1, TF_INVALID_ARGUMENT, "version 99", 1);

  /* Missing callbacks: named in the message. */
  dev = log_device();
  dev.copy_tensor_to_device = NULL;
  expect_register_error(ctx, dev, DEV1, TF_INVALID_ARGUMENT,
                        "TFE_CustomDevice.copy_tensor_to_device", 1);
  dev = log_device();
  dev.copy_tensor_from_device = NULL;
  expect_register_error(ctx, dev, DEV1, TF_INVALID_ARGUMENT,
                        "TFE_CustomDevice.copy_tensor_from_device", 1);
  dev = log_device();
  dev.execute = NULL;
  expect_register_error(ctx, dev, DEV1, TF_INVALID_ARGUMENT,
                        "TFE_CustomDevice.execute", 1);
  dev = log_device();
  dev.delete_device = NULL;
  expect_register_error(ctx, dev, DEV1, TF_INVALID_ARGUMENT,
                        "TFE_CustomDevice.delete_device", 0);

  /* Nothing was registered by the failures. */
  CHECK(!TFE_IsCustomDevice(ctx, DEV1));
  CHECK(!TFE_IsCustomDevice(ctx, "CUSTOM:3"));

  /* NULL context. */
  expect_register_error(NULL, log_device(), DEV1, TF_INVALID_ARGUMENT,
                        "context", 1);

  /* Out of memory while registering. */
  {
    logdev* d2 = new_logdev();
    TFE_TestFailAllocationsAfter(0);
    TFE_RegisterCustomDevice(ctx, log_device(), DEV1, d2, s);
    TFE_TestFailAllocationsAfter(-1);
    CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    CHECK_EQ_INT(d2->deletes, 1);
    CHECK(!TFE_IsCustomDevice(ctx, DEV1));
    free(d2);
  }

  /* Another job's name is a custom device name like any other. */
  {
    logdev* d3 = new_logdev();
    TFE_RegisterCustomDevice(ctx, log_device(),
                             "/job:other/replica:0/task:0/device:CPU:0", d3,
                             s);
    CHECK_CODE(s, TF_OK);
    CHECK(TFE_IsCustomDevice(ctx, "/job:other/replica:0/task:0/device:CPU:0"));
    CHECK(!TFE_IsCustomDevice(ctx, CPU0));
    TFE_DeleteContext(ctx);
    CHECK_EQ_INT(d3->deletes, 1);
    free(d3);
  }
  CHECK_EQ_INT(d->deletes, 1);

  /* A deleted context takes no registrations (nor does a zombie). */
  ctx = new_ctx(s);
  {
    TFE_TensorHandle* keep = NULL;
    TFE_Op* op = TFE_NewOp(ctx, "AddV2", s); /* keeps ctx alive */
    TFE_DeleteContext(ctx);
    (void)keep;
    expect_register_error(ctx, log_device(), DEV, TF_FAILED_PRECONDITION,
                          "deleted", 1);
    TFE_DeleteOp(op);
  }

  free(d);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

/* ------------------------------------------------------------------------
 * Execute errors. */

TEST(execute_error_reaches_the_caller_without_leaks) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  logdev* d = new_logdev();
  TFE_TensorHandle *x, *xd;
  TFE_TensorHandle* out[2] = {(TFE_TensorHandle*)&out, NULL};
  TFE_Op* op;
  live_counts mid;
  int n;

  TFE_RegisterCustomDevice(ctx, log_device(), DEV, d, s);
  x = scalar_f32(2, s);
  xd = TFE_TensorHandleCopyToDevice(x, ctx, DEV, s);
  CHECK_CODE(s, TF_OK);
  mid = live_now();

  d->fail_execute = TF_DATA_LOSS;
  op = new_op(ctx, "Sqrt", NULL, xd, NULL, s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_DATA_LOSS);
  CHECK_STR_EQ(TF_Message(s), "logdev refuses this op");
  CHECK(out[0] == (TFE_TensorHandle*)&out); /* retvals untouched */
  CHECK_EQ_INT(n, 1);
  TFE_DeleteOp(op);
  CHECK_LIVE_EQ(live_now(), mid);

  /* More outputs than there is room for: INTERNAL, outputs released. */
  d->fail_execute = 0;
  d->too_many_outputs = 1;
  op = new_op(ctx, "Sqrt", NULL, xd, NULL, s);
  n = 1;
  TFE_Execute(op, out, &n, s);
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_CONTAINS(TF_Message(s), "reported 17 outputs");
  TFE_DeleteOp(op);
  CHECK_LIVE_EQ(live_now(), mid);

  /* A NULL output with an OK status: INTERNAL, the others released. */
  d->too_many_outputs = 0;
  d->null_output = 1;
  op = new_op(ctx, "Unpack", NULL, NULL, NULL, s);
  {
    TFE_TensorHandle* v = f32_2x2(1, 2, 3, 4, s);
    TFE_TensorHandle* vd = TFE_TensorHandleCopyToDevice(v, ctx, DEV, s);
    live_counts mid2;
    CHECK_CODE(s, TF_OK);
    TFE_OpAddInput(op, vd, s);
    TFE_OpSetAttrInt(op, "num", 2);
    mid2 = live_now();
    n = 2;
    TFE_Execute(op, out, &n, s);
    CHECK_CODE(s, TF_INTERNAL);
    CHECK_STR_CONTAINS(TF_Message(s), "execute returned NULL");
    CHECK_LIVE_EQ(live_now(), mid2);
    TFE_DeleteOp(op);
    TFE_DeleteTensorHandle(vd);
    TFE_DeleteTensorHandle(v);
  }
  d->null_output = 0;

  TFE_DeleteTensorHandle(xd);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  free(d);
  TF_DeleteStatus(s);
}

TEST(inputs_on_two_custom_devices_are_rejected) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  logdev* a = new_logdev();
  logdev* b = new_logdev();
  TFE_TensorHandle *x, *xa, *xb;
  TFE_CustomDevice other = log_device();

  TFE_RegisterCustomDevice(ctx, log_device(), DEV, a, s);
  CHECK_CODE(s, TF_OK);
  TFE_RegisterCustomDevice(ctx, other, DEV1, b, s);
  CHECK_CODE(s, TF_OK);
  x = scalar_f32(3, s);
  xa = TFE_TensorHandleCopyToDevice(x, ctx, DEV, s);
  CHECK_CODE(s, TF_OK);
  /* log_copy_to always wraps for DEV; make a DEV1 handle directly. */
  {
    user_data u;
    memset(&u, 0, sizeof(u));
    xb = TFE_NewCustomDeviceTensorHandle(ctx, DEV1, TF_FLOAT, &u,
                                         user_methods(), s);
    CHECK_CODE(s, TF_OK);
    CHECK(exec1(new_op(ctx, "AddV2", NULL, xa, xb, s), s) == NULL);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(TF_Message(s), "at least one input in a different "
                                      "custom device");
    CHECK_EQ_INT(a->executes + b->executes, 0);
    TFE_DeleteTensorHandle(xb);
  }
  TFE_DeleteTensorHandle(xa);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(a->deletes, 1);
  CHECK_EQ_INT(b->deletes, 1);
  free(a);
  free(b);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Placement rules: shall_pin_to_this_device and resource inputs. */

TEST(shall_pin_to_this_device_decides) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  logdev* d = new_logdev();
  TFE_CustomDevice dev = log_device();
  TFE_TensorHandle *x, *xd, *r;
  float v[4];

  dev.shall_pin_to_this_device = log_pin_dispatch;
  g_pin_dev = d;
  TFE_RegisterCustomDevice(ctx, dev, DEV, d, s);
  CHECK_CODE(s, TF_OK);
  x = f32_2x2(1, 2, 3, 4, s);
  xd = TFE_TensorHandleCopyToDevice(x, ctx, DEV, s);
  CHECK_CODE(s, TF_OK);

  /* "No": the op runs on the host CPU after copying the input off. */
  d->pin = 0;
  clear_log(d);
  r = exec1(new_op(ctx, "Neg", NULL, xd, NULL, s), s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(r, s), CPU0);
  read_floats(r, v, 4, s);
  CHECK(v[0] == -1 && v[3] == -4);
  TFE_DeleteTensorHandle(r);
  CHECK_STR_EQ(d->log, "shall_pin Neg\ncopy_from to=CPU:0\n");

  /* "Yes" wins over an explicit physical placement. */
  d->pin = 1;
  clear_log(d);
  r = exec1(new_op(ctx, "Neg", CPU0, xd, NULL, s), s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(r, s), DEV);
  TFE_DeleteTensorHandle(r);
  CHECK_STR_EQ(d->log,
               "shall_pin Neg\n"
               "execute Neg dev=\"CPU:0\" inputs=1 room=1\n"
               "  input 0 custom\n");

  /* Its error is reported (TF would ignore it). */
  d->pin_error = 1;
  CHECK(exec1(new_op(ctx, "Neg", NULL, xd, NULL, s), s) == NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK_STR_EQ(TF_Message(s), "logdev cannot decide");
  d->pin_error = 0;

  TFE_DeleteTensorHandle(xd);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  free(d);
  TF_DeleteStatus(s);
}

TEST(resource_input_on_custom_device_pins_the_op) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  logdev* d = new_logdev();
  user_data u;
  TFE_TensorHandle *res, *r;

  memset(&u, 0, sizeof(u));
  TFE_RegisterCustomDevice(ctx, log_device(), DEV, d, s);
  CHECK_CODE(s, TF_OK);
  res = TFE_NewCustomDeviceTensorHandle(ctx, DEV, TF_RESOURCE, &u,
                                        user_methods(), s);
  CHECK_CODE(s, TF_OK);
  d->fail_execute = TF_ABORTED; /* only to see where the op went */
  r = exec1(new_op(ctx, "Identity", CPU0, res, NULL, s), s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_ABORTED);
  CHECK_STR_EQ(d->log, "execute Identity dev=\"CPU:0\" inputs=1 room=1\n");
  TFE_DeleteTensorHandle(res);
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(u.deallocs, 1);
  free(d);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Copies, resolve and context deletion. */

TEST(copy_and_resolve_errors_come_from_the_device) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  logdev* d = new_logdev();
  TFE_TensorHandle *x, *xd, *r;

  TFE_RegisterCustomDevice(ctx, log_device(), DEV, d, s);
  x = scalar_f32(5, s);
  xd = TFE_TensorHandleCopyToDevice(x, ctx, "CUSTOM:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT((int)(read_f32(xd, s) * 10), 50); /* resolve: copied off */

  d->fail_copy_from = 1;
  CHECK(TFE_TensorHandleResolve(xd, s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_EQ(TF_Message(s), "logdev: no copies off this device");
  CHECK(TFE_TensorHandleCopyToDevice(xd, ctx, CPU0, s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  /* An op on a physical device needs the copy too. */
  r = exec1(new_op(ctx, "Neg", CPU0, xd, NULL, s), s);
  CHECK(r == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  d->fail_copy_from = 0;

  /* Copying a custom handle to its own device asks copy_tensor_to_device
   * again (TF does the same). */
  clear_log(d);
  r = TFE_TensorHandleCopyToDevice(xd, ctx, DEV, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(d->log, "copy_to from=CUSTOM:0\ncopy_from to=CPU:0\n");
  TFE_DeleteTensorHandle(r);

  /* Unknown devices are still errors. */
  CHECK(TFE_TensorHandleCopyToDevice(x, ctx, DEV1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  TFE_DeleteTensorHandle(xd);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  free(d);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(delete_device_runs_once_at_context_deletion) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  TFE_Context* ctx = new_ctx(s);
  logdev* d = new_logdev();
  user_data u;
  TFE_TensorHandle *h, *x;

  memset(&u, 0, sizeof(u));
  u.rank = 1;
  u.dims[0] = 7;
  TFE_RegisterCustomDevice(ctx, log_device(), DEV, d, s);
  CHECK_CODE(s, TF_OK);
  h = TFE_NewCustomDeviceTensorHandle(ctx, DEV, TF_FLOAT, &u, user_methods(),
                                      s);
  CHECK_CODE(s, TF_OK);
  x = scalar_f32(1, s);

  /* The handle keeps the context alive, but the device is deleted now. */
  TFE_DeleteContext(ctx);
  CHECK_EQ_INT(d->deletes, 1);
  CHECK_EQ_INT(TFE_LiveObjectCount(TFE_OBJ_CONTEXT), before.ctx + 1);
  /* The handle's own methods still work... */
  CHECK_EQ_INT(TFE_TensorHandleDim(h, 0, s), 7);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(h, s), DEV);
  /* ...but the device's callbacks never run again. */
  CHECK(TFE_TensorHandleResolve(h, s) == NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK_EQ_INT(u.deallocs, 0);
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_INT(u.deallocs, 1);
  CHECK_EQ_INT(d->deletes, 1);
  TFE_DeleteTensorHandle(x);
  free(d);
  TF_DeleteStatus(s);
  CHECK_LIVE_EQ(live_now(), before);
}

TEST(handle_of_another_contexts_device_is_rejected) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* a = new_ctx(s);
  TFE_Context* b = new_ctx(s);
  logdev* d = new_logdev();
  TFE_TensorHandle *x, *xd;

  TFE_RegisterCustomDevice(a, log_device(), DEV, d, s);
  x = scalar_f32(1, s);
  xd = TFE_TensorHandleCopyToDevice(x, a, DEV, s);
  CHECK_CODE(s, TF_OK);
  CHECK(exec1(new_op(b, "Neg", NULL, xd, NULL, s), s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "not registered in this context");
  TFE_DeleteTensorHandle(xd);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(a);
  TFE_DeleteContext(b);
  free(d);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Packing through TFE_CreatePackedTensorHandle. */

TEST(packed_handles_go_to_the_custom_device) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  logdev* d = new_logdev();
  logdev* d2 = new_logdev();
  TFE_CustomDevice dev = log_device();
  TFE_TensorHandle *x, *xd, *p;
  TFE_TensorHandle* hs[2];
  int n = 2;

  dev.pack = log_pack;
  TFE_RegisterCustomDevice(ctx, dev, DEV, d, s);
  CHECK_CODE(s, TF_OK);
  x = scalar_f32(1, s);
  xd = TFE_TensorHandleCopyToDevice(x, ctx, DEV, s);
  CHECK_CODE(s, TF_OK);
  hs[0] = x;
  hs[1] = xd;
  p = TFE_CreatePackedTensorHandle(ctx, hs, &n, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(d->packs, 1);
  TFE_DeleteTensorHandle(p);

  /* No custom handle among them: not supported in tfe. */
  hs[1] = x;
  CHECK(TFE_CreatePackedTensorHandle(ctx, hs, &n, s) == NULL);
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), "TFE_CreatePackedTensorHandle");
  n = 0;
  CHECK(TFE_CreatePackedTensorHandle(ctx, hs, &n, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_CreatePackedTensorHandle(ctx, NULL, &n, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  /* A device without pack: TF's message. */
  TFE_RegisterCustomDevice(ctx, log_device(), DEV1, d2, s);
  CHECK_CODE(s, TF_OK);
  {
    user_data u;
    TFE_TensorHandle* other;
    memset(&u, 0, sizeof(u));
    other = TFE_NewCustomDeviceTensorHandle(ctx, DEV1, TF_FLOAT, &u,
                                            user_methods(), s);
    hs[0] = other;
    n = 2;
    CHECK(TFE_CreatePackedTensorHandle(ctx, hs, &n, s) == NULL);
    CHECK_CODE(s, TF_UNIMPLEMENTED);
    CHECK_STR_EQ(TF_Message(s),
                 "This custom device does not support packing tensors.");
    TFE_DeleteTensorHandle(other);
  }

  TFE_DeleteTensorHandle(xd);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  free(d);
  free(d2);
  TF_DeleteStatus(s);
}

TEST(log_placement_records_custom_device_ops) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  logdev* d = new_logdev();
  TFE_TensorHandle *x, *r;
  TF_Buffer* buf = TF_NewBuffer();

  TFE_RegisterCustomDevice(ctx, log_device(), DEV, d, s);
  TFE_ContextSetLogDevicePlacement(ctx, 1, s);
  x = scalar_f32(4, s);
  r = exec1(new_op(ctx, "Sqrt", DEV, x, NULL, s), s);
  CHECK_CODE(s, TF_OK);
  TFE_GetExecutedOpNames(ctx, buf, s);
  CHECK_CODE(s, TF_OK);
  /* Once on the custom device, once where the device forwarded it. */
  CHECK_STR_EQ((const char*)buf->data, "Sqrt, Sqrt, ");
  TF_DeleteBuffer(buf);
  TFE_DeleteTensorHandle(r);
  TFE_DeleteTensorHandle(x);
  TFE_DeleteContext(ctx);
  free(d);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
