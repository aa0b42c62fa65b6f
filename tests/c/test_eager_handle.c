/* Tensor handles: creation, reference counting (with TF_NewTensor
 * deallocator counts), queries, zero-copy resolve, sharing copies, copies
 * between logical CPUs, device memory, host tensors, NULL arguments and
 * allocation failures. */
#include <stdlib.h>
#include <string.h>

#include "eager_test_util.h"

static int g_deallocs;
static void count_dealloc(void* data, size_t len, void* arg) {
  (void)data;
  (void)len;
  (void)arg;
  g_deallocs++;
}

static float g_buf[4] __attribute__((aligned(64))) = {1, 2, 3, 4};

TEST(handle_shares_tensor_buffer_and_refcounts) {
  TF_Status* s = TF_NewStatus();
  live_counts before = live_now();
  int64_t dims[1] = {4};
  TF_Tensor* t;
  TFE_TensorHandle *h, *c;
  TF_Tensor *r1, *r2;
  g_deallocs = 0;
  t = TF_NewTensor(TF_FLOAT, dims, 1, g_buf, sizeof(g_buf), count_dealloc,
                   NULL);
  h = TFE_NewTensorHandle(t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  CHECK_EQ_INT(g_deallocs, 0);
  c = TFE_TensorHandleCopySharingTensor(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK(c != h);
  r1 = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  r2 = TFE_TensorHandleResolve(c, s);
  CHECK(r1 != r2);
  CHECK(TF_TensorData(r1) == (void*)g_buf); /* zero copy */
  CHECK(TF_TensorData(r2) == (void*)g_buf);
  CHECK(TFE_TensorHandleDevicePointer(h, s) == (void*)g_buf);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(TFE_TensorHandleDeviceMemorySize(h, s), sizeof(g_buf));
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(c);
  TF_DeleteTensor(r1);
  CHECK_EQ_INT(g_deallocs, 0);
  TF_DeleteTensor(r2); /* the last user of the memory */
  CHECK_EQ_INT(g_deallocs, 1);
  CHECK_LIVE_EQ(live_now(), before);
  TF_DeleteStatus(s);
}

TEST(handle_metadata) {
  TF_Status* s = TF_NewStatus();
  int64_t dims[3] = {2, 0, 3};
  int64_t big[8] = {1, 1, 1, 1, 1, 1, 1, 2};
  double vals[2] = {1, 2};
  TFE_TensorHandle* h = make_handle(TF_INT64, dims, 3, NULL, 0, s);
  TFE_TensorHandle* hb = make_handle(TF_DOUBLE, big, 8, vals, sizeof(vals), s);
  TFE_TensorDebugInfo* dbg;
  CHECK_EQ_INT(TFE_TensorHandleDataType(h), TF_INT64);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(h, s), 3);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorHandleDim(h, 2, s), 3);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(h, s), 0);
  CHECK_EQ_INT(TFE_TensorHandleDim(h, 3, s), -1); /* TF aborts; tfe reports */
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_TensorHandleDim(h, -1, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(h, s), FULL_CPU(0));
  CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(h, s), FULL_CPU(0));
  CHECK_STR_EQ(TFE_TensorHandleDeviceType(h, s), "CPU");
  CHECK_EQ_INT(TFE_TensorHandleDeviceID(h, s), 0);
  TFE_TensorHandleGetStatus(h, s);
  CHECK_CODE(s, TF_OK);
  /* More dims than a tensor stores inline. */
  CHECK_EQ_INT(TFE_TensorHandleNumDims(hb, s), 8);
  CHECK_EQ_INT(TFE_TensorHandleDim(hb, 7, s), 2);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(hb, s), 2);
  dbg = TFE_TensorHandleTensorDebugInfo(hb, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TFE_TensorDebugInfoOnDeviceNumDims(dbg), 8);
  CHECK_EQ_INT(TFE_TensorDebugInfoOnDeviceDim(dbg, 7), 2);
  CHECK_EQ_INT(TFE_TensorDebugInfoOnDeviceDim(dbg, 8), -1);
  TFE_DeleteTensorDebugInfo(dbg);
  TFE_DeleteTensorDebugInfo(NULL);
  CHECK_EQ_INT(TFE_TensorDebugInfoOnDeviceNumDims(NULL), -1);
  CHECK_EQ_INT(TFE_TensorDebugInfoOnDeviceDim(NULL, 0), -1);
  {
    TFE_TensorHandle* c = TFE_TensorHandleCopySharingTensor(hb, s);
    CHECK_EQ_INT(TFE_TensorHandleDim(c, 7, s), 2);
    TFE_DeleteTensorHandle(c);
  }
  TFE_DeleteTensorHandle(h);
  TFE_DeleteTensorHandle(hb);
  TF_DeleteStatus(s);
}

TEST(handle_null_arguments) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_DeleteTensorHandle(NULL);
  CHECK(TFE_NewTensorHandle(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_TensorHandleDataType(NULL), 0);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(NULL, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_TensorHandleNumElements(NULL, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_TensorHandleDim(NULL, 0, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleDeviceName(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleBackingDeviceName(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleDeviceType(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TFE_TensorHandleDeviceID(NULL, s), -1);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_TensorHandleGetStatus(NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleResolve(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleCopySharingTensor(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleCopyToDevice(NULL, ctx, "CPU:0", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleDevicePointer(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_SIZE(TFE_TensorHandleDeviceMemorySize(NULL, s), 0);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleTensorDebugInfo(NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_NewTensorHandleFromTensor(ctx, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_NewTensorHandleFromTensor(NULL, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_AllocateHostTensor(NULL, TF_FLOAT, NULL, 0, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(string_handle_outlives_tensor) {
  TF_Status* s = TF_NewStatus();
  TF_Tensor* t = TF_AllocateTensor(TF_STRING, NULL, 0, sizeof(TF_TString));
  TF_TString* d = (TF_TString*)TF_TensorData(t);
  const char* text = "a string long enough to live on the heap, surely";
  TFE_TensorHandle* h;
  TF_Tensor* r;
  TF_StringInit(d);
  TF_StringCopy(d, text, strlen(text));
  h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  r = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_SIZE(TF_StringGetSize((TF_TString*)TF_TensorData(r)), strlen(text));
  CHECK(memcmp(TF_StringGetDataPointer((TF_TString*)TF_TensorData(r)), text,
               strlen(text)) == 0);
  TF_DeleteTensor(r);
  TF_DeleteStatus(s);
}

TEST(copy_to_device_between_logical_cpus) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* h = scalar_f32(7, s);
  TFE_TensorHandle* c;
  static const char* names[] = {"CPU:1", "/device:CPU:1", "/cpu:1",
                                "/job:localhost/device:CPU:1", FULL_CPU(1),
                                "cpu:1", "/job:localhost/replica:0/task:0/cpu:1"};
  size_t i;
  TFE_SetLogicalCpuDevices(ctx, 2, NULL, s);
  CHECK_CODE(s, TF_OK);
  for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    c = TFE_TensorHandleCopyToDevice(h, ctx, names[i], s);
    CHECK_CODE(s, TF_OK);
    CHECK_STR_EQ(TFE_TensorHandleDeviceName(c, s), FULL_CPU(1));
    CHECK_STR_EQ(TFE_TensorHandleBackingDeviceName(c, s), FULL_CPU(1));
    CHECK_EQ_INT(TFE_TensorHandleDeviceID(c, s), 1);
    /* Host devices share memory. */
    CHECK(TFE_TensorHandleDevicePointer(c, s) ==
          TFE_TensorHandleDevicePointer(h, s));
    CHECK(read_f32(c, s) == 7.0f);
    TFE_DeleteTensorHandle(c);
  }
  c = TFE_TensorHandleCopyToDevice(h, ctx, "CPU:0", s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(c, s), FULL_CPU(0));
  TFE_DeleteTensorHandle(c);
  /* Errors. */
  CHECK(TFE_TensorHandleCopyToDevice(h, ctx, "/device:CPU:9", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleCopyToDevice(h, ctx, "garbage::", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleCopyToDevice(h, ctx, "/device:GPU:0", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_TensorHandleCopyToDevice(h, ctx, "/job:other/device:CPU:0", s) ==
        NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "/job:other/device:CPU:0 unknown device.");
  /* No name is the host CPU, as in TF. */
  c = TFE_TensorHandleCopyToDevice(h, ctx, NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(c, s), FULL_CPU(0));
  TFE_DeleteTensorHandle(c);
  CHECK(TFE_TensorHandleCopyToDevice(h, NULL, "CPU:0", s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteTensorHandle(h);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(handle_from_device_memory) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  live_counts before = live_now();
  int64_t dims[2] = {2, 2};
  float* mem = (float*)malloc(4 * sizeof(float));
  TFE_TensorHandle* h;
  mem[0] = 1;
  mem[1] = 2;
  mem[2] = 3;
  mem[3] = 4;
  g_deallocs = 0;
  h = TFE_NewTensorHandleFromDeviceMemory(ctx, "CPU:0", TF_FLOAT, dims, 2, mem,
                                          4 * sizeof(float), count_dealloc,
                                          NULL, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TFE_TensorHandleDevicePointer(h, s) == mem); /* no copy */
  CHECK_EQ_INT(TFE_TensorHandleNumElements(h, s), 4);
  CHECK_EQ_INT(g_deallocs, 0);
  TFE_DeleteTensorHandle(h);
  CHECK_EQ_INT(g_deallocs, 1);
  /* Failures still hand the memory back through the deallocator. */
  h = TFE_NewTensorHandleFromDeviceMemory(ctx, "CPU:5", TF_FLOAT, dims, 2, mem,
                                          16, count_dealloc, NULL, s);
  CHECK(h == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_deallocs, 2);
  h = TFE_NewTensorHandleFromDeviceMemory(ctx, "CPU:0", TF_FLOAT, dims, 2, mem,
                                          8, count_dealloc, NULL, s);
  CHECK(h == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_deallocs, 3);
  h = TFE_NewTensorHandleFromDeviceMemory(ctx, "CPU:0", TF_FLOAT, dims, -2, mem,
                                          16, count_dealloc, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_deallocs, 4);
  h = TFE_NewTensorHandleFromDeviceMemory(NULL, "CPU:0", TF_FLOAT, dims, 2, mem,
                                          16, count_dealloc, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(g_deallocs, 5);
  /* Allocation failures too. */
  {
    int k, ok = 0;
    for (k = 0; k < 10 && !ok; k++) {
      int before_d = g_deallocs;
      TFE_TestFailAllocationsAfter(k);
      h = TFE_NewTensorHandleFromDeviceMemory(ctx, "CPU:0", TF_FLOAT, dims, 2,
                                              mem, 16, count_dealloc, NULL, s);
      TFE_TestFailAllocationsAfter(-1);
      if (h == NULL) {
        CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
        CHECK_EQ_INT(g_deallocs, before_d + 1);
      } else {
        ok = 1;
        TFE_DeleteTensorHandle(h);
      }
    }
    CHECK(ok);
  }
  free(mem);
  CHECK_LIVE_EQ(live_now(), before);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(allocate_host_tensor_and_handle_from_tensor) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  int64_t dims[2] = {3, 2};
  int64_t bad[1] = {-4};
  TF_Tensor* t = TFE_AllocateHostTensor(ctx, TF_INT32, dims, 2, s);
  TFE_TensorHandle* h;
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_INT(TF_NumDims(t), 2);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), 24);
  ((int32_t*)TF_TensorData(t))[0] = 42;
  h = TFE_NewTensorHandleFromTensor(ctx, t, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  CHECK(read_i32(h, s) == 42);
  CHECK_STR_EQ(TFE_TensorHandleDeviceName(h, s), FULL_CPU(0));
  TFE_DeleteTensorHandle(h);
  t = TFE_AllocateHostTensor(ctx, TF_STRING, dims, 2, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteTensor(t);
  CHECK(TFE_AllocateHostTensor(ctx, TF_FLOAT, bad, 1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_AllocateHostTensor(ctx, TF_FLOAT, NULL, 2, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_AllocateHostTensor(ctx, (TF_DataType)99, dims, 2, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TEST(handle_creation_out_of_memory) {
  TF_Status* s = TF_NewStatus();
  TFE_Context* ctx = new_ctx(s);
  TFE_TensorHandle* src = scalar_f32(1, s);
  int64_t big[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  float one = 1;
  TF_Tensor* t9 = TF_AllocateTensor(TF_FLOAT, big, 9, sizeof(float));
  live_counts before;
  int k;
  memcpy(TF_TensorData(t9), &one, sizeof(one));
  before = live_now();
  for (k = 0; k < 6; k++) {
    TFE_TensorHandle* h;
    TF_Tensor* r;
    TFE_TestFailAllocationsAfter(k);
    h = TFE_NewTensorHandle(t9, s); /* needs a dims array too */
    TFE_TestFailAllocationsAfter(-1);
    if (h == NULL) CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    TFE_DeleteTensorHandle(h);
    TFE_TestFailAllocationsAfter(k);
    h = TFE_TensorHandleCopySharingTensor(src, s);
    TFE_TestFailAllocationsAfter(-1);
    if (h == NULL) CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    TFE_DeleteTensorHandle(h);
    TFE_TestFailAllocationsAfter(k);
    h = TFE_TensorHandleCopyToDevice(src, ctx, "CPU:0", s);
    TFE_TestFailAllocationsAfter(-1);
    if (h == NULL) CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    TFE_DeleteTensorHandle(h);
    TFE_TestFailAllocationsAfter(k);
    r = TFE_TensorHandleResolve(src, s);
    TFE_TestFailAllocationsAfter(-1);
    if (r == NULL) CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
    TF_DeleteTensor(r);
    CHECK_LIVE_EQ(live_now(), before);
  }
  TF_DeleteTensor(t9);
  TFE_DeleteTensorHandle(src);
  TFE_DeleteContext(ctx);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
