/* Fault injection, SQLite style: a representative workload is run over and
 * over, the n-th allocation the core makes failing in run n (and every
 * allocation after it, TFE_TestFailAllocationsAfter's contract), for
 * n = 0, 1, 2, ... until the workload completes without hitting the
 * injected failure. Every run must end cleanly: the workload reports
 * TF_RESOURCE_EXHAUSTED (or a NULL from a function documented to return
 * NULL when memory runs out) or succeeds with correct values; nothing
 * crashes (under ASan nothing touches freed or unallocated memory); and
 * the live-object counts are back at their baseline after every run.
 *
 * The workload: a context; eager ops with several kernels (AddV2, MatMul,
 * Sum, ConcatV2 with a list input, Unpack with two outputs, Cast, AsString
 * with string outputs); a custom device that forwards to the CPU (a copy
 * to it, an op on it, a copy back); a round trip through ram:// (mkdir,
 * write, stat, list, read back, delete); and loading the test op library
 * build/plugins/op_lib_test.so and running its op.
 *
 * Tests: `sweep_cold` starts from a fresh process, so one-time
 * initialisation (registries, the filesystem table, the plugin load
 * itself) is swept too; `sweep_warm` runs the workload once first and
 * then sweeps the steady state. Each prints how many allocation points it
 * covered. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"
#include "tensorflow/c/env.h"
#include "tensorflow/c/tf_tstring.h"
#include "tfe/filesystem.h"

#define CPU0 FULL_CPU(0)
#define DEV "/job:localhost/replica:0/task:0/device:CUSTOM:0"
#define PLUGIN TFE_TEST_PLUGIN_DIR "/op_lib_test.so"
#define MAX_POINTS 20000
/* The workload counts as complete once this many consecutive runs
 * succeed (the first success may come from a failure that was handled by
 * a fallback, the rest confirm that no injected failure was reached). */
#define CONFIRM_RUNS 3

/* ---------------------------------------------------------------------
 * Outcome of one run. A step that fails records what failed and why; the
 * run then cleans up and returns. */

typedef struct outcome {
  TF_Code code;      /* first error's code, TF_OK if none */
  const char* step;  /* the step that failed */
  char msg[256];     /* its message */
  int values_checked;
} outcome;

static int failed(outcome* o, const char* step, TF_Status* s) {
  if (TF_GetCode(s) == TF_OK) return 0;
  o->code = TF_GetCode(s);
  o->step = step;
  snprintf(o->msg, sizeof(o->msg), "%s", TF_Message(s));
  return 1;
}

/* A NULL result from a function that reports no status (documented as
 * NULL when memory runs out) counts as RESOURCE_EXHAUSTED. */
static int null_result(outcome* o, const char* step, const void* p) {
  if (p != NULL) return 0;
  o->code = TF_RESOURCE_EXHAUSTED;
  o->step = step;
  snprintf(o->msg, sizeof(o->msg), "NULL result");
  return 1;
}

static void wrong_value(const char* what) {
  TFE_TestFailAllocationsAfter(-1);
  TFE_FAIL("wrong value from %s while the run reported success", what);
}

/* ---------------------------------------------------------------------
 * The custom device: wraps CPU handles and runs every op on CPU:0. Its
 * own bookkeeping uses plain malloc (not the core's allocator). */

typedef struct wrapped {
  TFE_TensorHandle* inner;
} wrapped;

static int w_num_dims(void* data, TF_Status* s) {
  return TFE_TensorHandleNumDims(((wrapped*)data)->inner, s);
}
static int64_t w_dim(void* data, int i, TF_Status* s) {
  return TFE_TensorHandleDim(((wrapped*)data)->inner, i, s);
}
static void w_dealloc(void* data) {
  wrapped* w = (wrapped*)data;
  TFE_DeleteTensorHandle(w->inner);
  free(w);
}

/* Wraps `inner` (adopted; released on failure too). */
static TFE_TensorHandle* wrap(TFE_Context* ctx, TFE_TensorHandle* inner,
                              TF_Status* s) {
  TFE_CustomDeviceTensorHandle m;
  wrapped* w;
  if (inner == NULL) return NULL;
  w = (wrapped*)malloc(sizeof(*w));
  if (w == NULL) {
    TFE_DeleteTensorHandle(inner);
    TF_SetStatus(s, TF_RESOURCE_EXHAUSTED, "test device: out of memory");
    return NULL;
  }
  w->inner = inner;
  memset(&m, 0, sizeof(m));
  m.version = TFE_CUSTOM_DEVICE_VERSION;
  m.num_dims = w_num_dims;
  m.dim = w_dim;
  m.deallocator = w_dealloc;
  /* On failure the deallocator has run (it frees w and inner). */
  return TFE_NewCustomDeviceTensorHandle(ctx, DEV,
                                         TFE_TensorHandleDataType(inner), w,
                                         m, s);
}

static TFE_TensorHandle* dev_copy_to(TFE_Context* ctx, TFE_TensorHandle* t,
                                     TF_Status* s, void* info) {
  TFE_TensorHandle* inner = TFE_TensorHandleCopyToDevice(t, ctx, CPU0, s);
  (void)info;
  if (TF_GetCode(s) != TF_OK) {
    TFE_DeleteTensorHandle(inner);
    return NULL;
  }
  return wrap(ctx, inner, s);
}

static TFE_TensorHandle* dev_copy_from(TFE_Context* ctx, TFE_TensorHandle* t,
                                       const char* target, TF_Status* s,
                                       void* info) {
  wrapped* w = (wrapped*)TFE_TensorHandleDevicePointer(t, s);
  (void)info;
  if (w == NULL) return NULL;
  return TFE_TensorHandleCopyToDevice(w->inner, ctx, target, s);
}

static void dev_execute(const TFE_Op* op, int* num_outputs,
                        TFE_TensorHandle** outputs, TF_Status* s,
                        void* info) {
  TFE_Context* ctx = TFE_OpGetContext(op, s);
  const char* name = TFE_OpGetName(op, s);
  int i, n, m = *num_outputs;
  TFE_TensorHandle* tmp[8];
  TFE_Op* fwd;
  (void)info;
  if (TF_GetCode(s) != TF_OK) return;
  n = TFE_OpGetFlatInputCount(op, s);
  if (TF_GetCode(s) != TF_OK) return;
  fwd = TFE_NewOp(ctx, name, s);
  if (TF_GetCode(s) != TF_OK) return;
  TFE_OpAddAttrs(fwd, TFE_OpGetAttrs(op));
  TFE_OpSetDevice(fwd, CPU0, s);
  for (i = 0; i < n && TF_GetCode(s) == TF_OK; i++) {
    TFE_TensorHandle* h = TFE_OpGetFlatInput(op, i, s);
    wrapped* w;
    if (TF_GetCode(s) != TF_OK) break;
    if (strcmp(TFE_TensorHandleDeviceName(h, s), DEV) == 0) {
      w = (wrapped*)TFE_TensorHandleDevicePointer(h, s);
      if (w == NULL) break;
      h = w->inner;
    }
    TFE_OpAddInput(fwd, h, s);
  }
  if (TF_GetCode(s) != TF_OK) {
    TFE_DeleteOp(fwd);
    return;
  }
  if (m > 8) m = 8;
  TFE_Execute(fwd, tmp, &m, s);
  TFE_DeleteOp(fwd);
  if (TF_GetCode(s) != TF_OK) return;
  for (i = 0; i < m; i++) {
    outputs[i] = TF_GetCode(s) == TF_OK ? wrap(ctx, tmp[i], s) : NULL;
    if (outputs[i] == NULL && TF_GetCode(s) == TF_OK) {
      TF_SetStatus(s, TF_INTERNAL, "test device: wrap failed");
    }
    if (TF_GetCode(s) != TF_OK && outputs[i] == NULL) {
      /* wrap released tmp[i]; release the rest not yet wrapped. */
      int j;
      for (j = i + 1; j < m; j++) TFE_DeleteTensorHandle(tmp[j]);
      for (j = 0; j < i; j++) {
        TFE_DeleteTensorHandle(outputs[j]);
        outputs[j] = NULL;
      }
      return;
    }
  }
  *num_outputs = m;
}

static void dev_delete(void* info) { (void)info; }

static TFE_CustomDevice test_device(void) {
  TFE_CustomDevice c;
  memset(&c, 0, sizeof(c));
  c.version = TFE_CUSTOM_DEVICE_VERSION;
  c.copy_tensor_to_device = dev_copy_to;
  c.copy_tensor_from_device = dev_copy_from;
  c.execute = dev_execute;
  c.delete_device = dev_delete;
  return c;
}

/* ---------------------------------------------------------------------
 * Helpers that report failure through the outcome. */

static TFE_TensorHandle* new_f32(outcome* o, const int64_t* dims, int nd,
                                 const float* v, size_t n, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, nd, n * sizeof(float));
  TFE_TensorHandle* h;
  if (null_result(o, "TF_AllocateTensor", t)) return NULL;
  memcpy(TF_TensorData(t), v, n * sizeof(float));
  h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  if (failed(o, "TFE_NewTensorHandle", s)) {
    TFE_DeleteTensorHandle(h);
    return NULL;
  }
  return h;
}

static TFE_TensorHandle* new_i32(outcome* o, int32_t v, TF_Status* s) {
  TF_Tensor* t = TF_AllocateTensor(TF_INT32, NULL, 0, sizeof(v));
  TFE_TensorHandle* h;
  if (null_result(o, "TF_AllocateTensor", t)) return NULL;
  memcpy(TF_TensorData(t), &v, sizeof(v));
  h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  if (failed(o, "TFE_NewTensorHandle", s)) {
    TFE_DeleteTensorHandle(h);
    return NULL;
  }
  return h;
}

/* Runs op `name` on `inputs` (a NULL entry ends the list; a list input is
 * given as `list`/`nlist` before the plain inputs), with at most `room`
 * outputs placed in `out`; returns the number of outputs or -1. */
static int run(outcome* o, TFE_Context* ctx, const char* name,
               const char* device, TFE_TensorHandle** list, int nlist,
               TFE_TensorHandle* a, TFE_TensorHandle* b,
               void (*attrs)(TFE_Op*), TFE_TensorHandle** out, int room,
               TF_Status* s) {
  TFE_Op* op = TFE_NewOp(ctx, name, s);
  int n = room, i;
  if (failed(o, name, s)) {
    TFE_DeleteOp(op);
    return -1;
  }
  if (device != NULL) TFE_OpSetDevice(op, device, s);
  if (TF_GetCode(s) == TF_OK && list != NULL) TFE_OpAddInputList(op, list, nlist, s);
  if (TF_GetCode(s) == TF_OK && a != NULL) TFE_OpAddInput(op, a, s);
  if (TF_GetCode(s) == TF_OK && b != NULL) TFE_OpAddInput(op, b, s);
  if (TF_GetCode(s) == TF_OK && attrs != NULL) attrs(op);
  for (i = 0; i < room; i++) out[i] = NULL;
  if (TF_GetCode(s) == TF_OK) TFE_Execute(op, out, &n, s);
  TFE_DeleteOp(op);
  if (failed(o, name, s)) return -1;
  return n;
}

/* Reads a float handle's values (n of them) into v. */
static int read_f32s(outcome* o, TFE_TensorHandle* h, float* v, int n,
                     TF_Status* s) {
  TF_Tensor* t = TFE_TensorHandleResolve(h, s);
  if (failed(o, "TFE_TensorHandleResolve", s)) {
    TF_DeleteTensor(t);
    return 0;
  }
  if (TF_TensorType(t) != TF_FLOAT || TF_TensorElementCount(t) != n) {
    TF_DeleteTensor(t);
    wrong_value("resolve (dtype or size)");
  }
  memcpy(v, TF_TensorData(t), sizeof(float) * (size_t)n);
  TF_DeleteTensor(t);
  return 1;
}

static void expect_f32s(outcome* o, TFE_TensorHandle* h, const float* want,
                        int n, const char* what, TF_Status* s) {
  float got[16];
  int i;
  if (!read_f32s(o, h, got, n, s)) return;
  for (i = 0; i < n; i++) {
    if (got[i] != want[i]) wrong_value(what);
  }
  o->values_checked++;
}

static void attrs_unpack(TFE_Op* op) {
  TFE_OpSetAttrInt(op, "num", 2);
  TFE_OpSetAttrInt(op, "axis", 0);
}
static void attrs_cast(TFE_Op* op) { TFE_OpSetAttrType(op, "DstT", TF_INT32); }
static void attrs_scale(TFE_Op* op) { TFE_OpSetAttrFloat(op, "scale", 3.0f); }

/* ---------------------------------------------------------------------
 * The workload. */

static void ops_part(outcome* o, TFE_Context* ctx, TFE_TensorHandle* a,
                     TFE_TensorHandle* b, TF_Status* s) {
  TFE_TensorHandle* out[4] = {NULL, NULL, NULL, NULL};
  TFE_TensorHandle* ax = NULL;
  TFE_TensorHandle* pair[2];
  int n;

  if (run(o, ctx, "AddV2", NULL, NULL, 0, a, b, NULL, out, 1, s) == 1) {
    const float want[4] = {11, 22, 33, 44};
    expect_f32s(o, out[0], want, 4, "AddV2", s);
  }
  TFE_DeleteTensorHandle(out[0]);
  out[0] = NULL;
  if (o->code != TF_OK) return;

  if (run(o, ctx, "MatMul", NULL, NULL, 0, a, b, NULL, out, 1, s) == 1) {
    const float want[4] = {70, 100, 150, 220};
    expect_f32s(o, out[0], want, 4, "MatMul", s);
  }
  TFE_DeleteTensorHandle(out[0]);
  out[0] = NULL;
  if (o->code != TF_OK) return;

  ax = new_i32(o, 0, s);
  if (ax == NULL) return;
  if (run(o, ctx, "Sum", NULL, NULL, 0, a, ax, NULL, out, 1, s) == 1) {
    const float want[2] = {4, 6};
    expect_f32s(o, out[0], want, 2, "Sum", s);
  }
  TFE_DeleteTensorHandle(out[0]);
  out[0] = NULL;
  if (o->code == TF_OK) {
    pair[0] = a;
    pair[1] = b;
    if (run(o, ctx, "ConcatV2", NULL, pair, 2, ax, NULL, NULL, out, 1, s) == 1) {
      const float want[8] = {1, 2, 3, 4, 10, 20, 30, 40};
      expect_f32s(o, out[0], want, 8, "ConcatV2", s);
    }
    TFE_DeleteTensorHandle(out[0]);
    out[0] = NULL;
  }
  TFE_DeleteTensorHandle(ax);
  if (o->code != TF_OK) return;

  n = run(o, ctx, "Unpack", NULL, NULL, 0, a, NULL, attrs_unpack, out, 4, s);
  if (n >= 0) {
    const float row1[2] = {3, 4};
    if (n != 2) wrong_value("Unpack (output count)");
    expect_f32s(o, out[1], row1, 2, "Unpack", s);
  }
  TFE_DeleteTensorHandle(out[0]);
  TFE_DeleteTensorHandle(out[1]);
  out[0] = out[1] = NULL;
  if (o->code != TF_OK) return;

  if (run(o, ctx, "Cast", NULL, NULL, 0, a, NULL, attrs_cast, out, 1, s) == 1) {
    TF_Tensor* t = TFE_TensorHandleResolve(out[0], s);
    if (!failed(o, "resolve Cast", s)) {
      const int32_t* v = (const int32_t*)TF_TensorData(t);
      if (TF_TensorType(t) != TF_INT32 || v[3] != 4) wrong_value("Cast");
      o->values_checked++;
    }
    TF_DeleteTensor(t);
  }
  TFE_DeleteTensorHandle(out[0]);
  out[0] = NULL;
  if (o->code != TF_OK) return;

  if (run(o, ctx, "AsString", NULL, NULL, 0, a, NULL, NULL, out, 1, s) == 1) {
    TF_Tensor* t = TFE_TensorHandleResolve(out[0], s);
    if (!failed(o, "resolve AsString", s)) {
      const TF_TString* v = (const TF_TString*)TF_TensorData(t);
      if (TF_TensorType(t) != TF_STRING || TF_TString_GetSize(&v[1]) < 1 ||
          TF_TString_GetDataPointer(&v[1])[0] != '2') {
        TF_DeleteTensor(t);
        wrong_value("AsString");
      }
      o->values_checked++;
    }
    TF_DeleteTensor(t);
  }
  TFE_DeleteTensorHandle(out[0]);
}

static void device_part(outcome* o, TFE_Context* ctx, TFE_TensorHandle* a,
                        TF_Status* s) {
  TFE_TensorHandle *on_dev = NULL, *sum = NULL, *back = NULL;
  TFE_RegisterCustomDevice(ctx, test_device(), DEV, NULL, s);
  if (failed(o, "TFE_RegisterCustomDevice", s)) return;
  on_dev = TFE_TensorHandleCopyToDevice(a, ctx, DEV, s);
  if (failed(o, "copy to the custom device", s)) goto done;
  if (run(o, ctx, "AddV2", NULL, NULL, 0, on_dev, on_dev, NULL, &sum, 1, s) != 1) {
    goto done;
  }
  if (strcmp(TFE_TensorHandleDeviceName(sum, s), DEV) != 0) {
    wrong_value("AddV2 on the custom device (placement)");
  }
  back = TFE_TensorHandleCopyToDevice(sum, ctx, CPU0, s);
  if (failed(o, "copy from the custom device", s)) goto done;
  {
    const float want[4] = {2, 4, 6, 8};
    expect_f32s(o, back, want, 4, "AddV2 on the custom device", s);
  }
done:
  TFE_DeleteTensorHandle(back);
  TFE_DeleteTensorHandle(sum);
  TFE_DeleteTensorHandle(on_dev);
}

static void fs_part(outcome* o, TF_Status* s) {
  static const char kData[] = "tfe fault injection round trip";
  const size_t len = sizeof(kData) - 1;
  TF_WritableFileHandle* w = NULL;
  TFE_RandomAccessFile* r = NULL;
  TF_StringStream* kids = NULL;
  TF_FileStatistics st;
  char buf[64];
  const char* kid;
  int found = 0;
  int64_t got;

  TFE_RecursivelyCreateDir("ram://fault/dir", s);
  if (failed(o, "TFE_RecursivelyCreateDir", s)) return;
  TF_NewWritableFile("ram://fault/dir/file", &w, s);
  if (failed(o, "TF_NewWritableFile", s)) goto done;
  TF_AppendWritableFile(w, kData, len, s);
  if (failed(o, "TF_AppendWritableFile", s)) goto done;
  TF_CloseWritableFile(w, s);
  w = NULL;
  if (failed(o, "TF_CloseWritableFile", s)) goto done;
  TF_FileStat("ram://fault/dir/file", &st, s);
  if (failed(o, "TF_FileStat", s)) goto done;
  if (st.length != (int64_t)len || st.is_directory) wrong_value("TF_FileStat");
  kids = TF_GetChildren("ram://fault/dir", s);
  if (failed(o, "TF_GetChildren", s)) goto done;
  while (TF_StringStreamNext(kids, &kid)) found += strcmp(kid, "file") == 0;
  if (found != 1) wrong_value("TF_GetChildren");
  r = TFE_NewRandomAccessFile("ram://fault/dir/file", s);
  if (failed(o, "TFE_NewRandomAccessFile", s)) goto done;
  got = TFE_ReadRandomAccessFile(r, 0, len, buf, s);
  if (failed(o, "TFE_ReadRandomAccessFile", s)) goto done;
  if (got != (int64_t)len || memcmp(buf, kData, len) != 0) {
    wrong_value("TFE_ReadRandomAccessFile");
  }
  o->values_checked++;
done:
  TFE_DeleteRandomAccessFile(r);
  TF_StringStreamDone(kids);
  if (w != NULL) {
    TF_Status* s2 = TF_NewStatus();
    if (s2 != NULL) {
      TF_CloseWritableFile(w, s2);
      TF_DeleteStatus(s2);
    }
  }
}

/* Removes what fs_part left behind (with injection off). */
static void fs_cleanup(void) {
  TF_Status* s = TF_NewStatus();
  TF_DeleteRecursively("ram://fault", NULL, NULL, s);
  TF_DeleteStatus(s);
}

static void plugin_part(outcome* o, TFE_Context* ctx, TFE_TensorHandle* a,
                        TF_Status* s) {
  TF_Library* lib = TF_LoadLibrary(PLUGIN, s);
  TFE_TensorHandle* out = NULL;
  if (failed(o, "TF_LoadLibrary", s)) {
    TF_DeleteLibraryHandle(lib);
    return;
  }
  if (run(o, ctx, "TfeTestScaleAdd", NULL, NULL, 0, a, a, attrs_scale, &out, 1,
          s) == 1) {
    const float want[4] = {4, 8, 12, 16};
    expect_f32s(o, out, want, 4, "TfeTestScaleAdd", s);
  }
  TFE_DeleteTensorHandle(out);
  TF_DeleteLibraryHandle(lib);
}

static void workload(outcome* o, TF_Status* s) {
  static const int64_t dims[2] = {2, 2};
  static const float av[4] = {1, 2, 3, 4};
  static const float bv[4] = {10, 20, 30, 40};
  TFE_ContextOptions* opts;
  TFE_Context* ctx = NULL;
  TFE_TensorHandle *a = NULL, *b = NULL;

  memset(o, 0, sizeof(*o));
  o->code = TF_OK;
  TF_SetStatus(s, TF_OK, "");
  opts = TFE_NewContextOptions();
  if (null_result(o, "TFE_NewContextOptions", opts)) return;
  ctx = TFE_NewContext(opts, s);
  TFE_DeleteContextOptions(opts);
  if (failed(o, "TFE_NewContext", s)) goto done;
  if (null_result(o, "TFE_NewContext", ctx)) goto done;
  a = new_f32(o, dims, 2, av, 4, s);
  if (a == NULL) goto done;
  b = new_f32(o, dims, 2, bv, 4, s);
  if (b == NULL) goto done;
  ops_part(o, ctx, a, b, s);
  if (o->code != TF_OK) goto done;
  device_part(o, ctx, a, s);
  if (o->code != TF_OK) goto done;
  fs_part(o, s);
  if (o->code != TF_OK) goto done;
  plugin_part(o, ctx, a, s);
done:
  TFE_DeleteTensorHandle(b);
  TFE_DeleteTensorHandle(a);
  TFE_DeleteContext(ctx);
}

/* ---------------------------------------------------------------------
 * The sweep. */

typedef struct fi_counts {
  int64_t n[TFE_OBJ_KIND_COUNT];
} fi_counts;

static fi_counts fi_live(void) {
  fi_counts c;
  int k;
  for (k = 0; k < TFE_OBJ_KIND_COUNT; k++) {
    c.n[k] = TFE_LiveObjectCount((TFE_ObjectKind)k);
  }
  return c;
}

static void check_counts(const fi_counts* before, long point) {
  fi_counts now = fi_live();
  int k;
  for (k = 0; k < TFE_OBJ_KIND_COUNT; k++) {
    if (now.n[k] != before->n[k]) {
      TFE_FAIL("failing allocation %ld: live objects of kind %d: %lld, "
               "expected %lld", point, k, (long long)now.n[k],
               (long long)before->n[k]);
    }
  }
}

static void sweep(int warm_first) {
  TF_Status* s = TF_NewStatus();
  outcome o;
  fi_counts base;
  long n, points = -1, exhausted = 0, nulls = 0;
  int ok_streak = 0;
  CHECK(s != NULL);
  if (warm_first) {
    workload(&o, s);
    if (o.code != TF_OK) {
      TFE_FAIL("workload without injection failed in %s: %s", o.step, o.msg);
    }
    fs_cleanup();
  }
  /* Plugin libraries stay loaded once they are (as in TF): their handles
   * are released, but the library record may stay. */
  base = fi_live();
  for (n = 0; n < MAX_POINTS; n++) {
    TFE_TestFailAllocationsAfter(n);
    workload(&o, s);
    TFE_TestFailAllocationsAfter(-1);
    fs_cleanup();
    if (o.code == TF_OK) {
      if (points < 0) points = n;
      if (++ok_streak >= CONFIRM_RUNS) break;
    } else {
      if (o.code != TF_RESOURCE_EXHAUSTED) {
        TFE_FAIL("failing allocation %ld: %s ended with code %d (%s), not "
                 "RESOURCE_EXHAUSTED: %s", n, o.step, (int)o.code,
                 TFE_CodeName(o.code), o.msg);
      }
      if (strcmp(o.msg, "NULL result") == 0) nulls++;
      else exhausted++;
      points = -1;
      ok_streak = 0;
    }
    check_counts(&base, n);
  }
  if (points < 0) {
    TFE_FAIL("the workload never completed within %d failing allocations; "
             "last failure in %s: %s", MAX_POINTS, o.step, o.msg);
  }
  printf("fault injection (%s): %ld allocation points, %ld runs ended in "
         "RESOURCE_EXHAUSTED, %ld in a NULL result, then %d clean runs; "
         "%d values checked in the last run\n",
         warm_first ? "warm" : "cold",
         points, exhausted, nulls, CONFIRM_RUNS,
         o.values_checked);
  CHECK(o.values_checked >= 10);
  TF_DeleteStatus(s);
}

TEST(sweep_cold) { sweep(0); }

TEST(sweep_warm) { sweep(1); }

TFE_TEST_MAIN
