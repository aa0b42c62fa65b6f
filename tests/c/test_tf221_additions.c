/* Functions and types TensorFlow 2.21's headers declare that tfe gained
 * with the exact-ABI work: TF_GetRendezvous without a kernel context (the
 * rendezvous itself: test_rendezvous.c), TF_ForEachPayload taking a TSL_PayloadVisitor (and
 * TF_PayloadVisitor naming the same type), the C++ names of the dlpack.h
 * functions exported by libtfe (looked up with dlsym and called), and
 * TFE_MonitoringStringGaugeCellValue. */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/eager/c_api_experimental.h"
#include "tensorflow/c/kernels.h"
#include "tensorflow/c/tf_status.h"
#include "tfe_test.h"

TEST(get_rendezvous_without_a_kernel_context_is_empty) {
  TF_RendezvousThunk t = TF_GetRendezvous(NULL);
  CHECK(t.rendezvous == NULL);
  CHECK(t.send_func == NULL);
  CHECK(t.async_recv_func == NULL);
  CHECK(t.start_abort_func == NULL);
  CHECK_EQ_SIZE(sizeof(TF_RendezvousThunk), 32);
}

typedef struct {
  int calls;
  char seen[64];
} payload_log;

static void visit(const char* key, const char* value, void* capture) {
  payload_log* log = (payload_log*)capture;
  log->calls++;
  snprintf(log->seen, sizeof log->seen, "%s=%s", key, value);
}

TEST(for_each_payload_takes_a_tsl_payload_visitor) {
  TF_Status* s = TF_NewStatus();
  payload_log log;
  TSL_PayloadVisitor v = visit;
  TF_PayloadVisitor same = v; /* the same type under TF's other name */
  memset(&log, 0, sizeof log);
  TF_SetStatus(s, TF_ABORTED, "stop");
  TF_SetPayload(s, "where", "here");
  TF_ForEachPayload(s, same, &log);
  CHECK_EQ_INT(log.calls, 1);
  CHECK_STR_EQ(log.seen, "where=here");
  TF_DeleteStatus(s);
}

/* A host float tensor handle holding {v, 2v}. */
static TFE_TensorHandle* handle_of(float v, TF_Status* s) {
  int64_t dims[1] = {2};
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, dims, 1, 2 * sizeof(float));
  TFE_TensorHandle* h;
  ((float*)TF_TensorData(t))[0] = v;
  ((float*)TF_TensorData(t))[1] = 2 * v;
  h = TFE_NewTensorHandle(t, s);
  TF_DeleteTensor(t);
  return h;
}

TEST(dlpack_cxx_names_are_exported_and_work) {
  void* (*to_dlpack)(TFE_TensorHandle*, TF_Status*);
  TFE_TensorHandle* (*from_dlpack)(void*, TF_Status*, TFE_Context*);
  void (*deleter)(void*);
  void* (*get_device)(TFE_TensorHandle*, TF_Status*);
  TF_Status* s = TF_NewStatus();
  TFE_TensorHandle *h, *back;
  TF_Tensor* t;
  void *dlm, *dev;
  *(void**)&to_dlpack = dlsym(
      RTLD_DEFAULT,
      "_ZN10tensorflow18TFE_HandleToDLPackEP16TFE_TensorHandleP10TSL_Status");
  *(void**)&from_dlpack = dlsym(
      RTLD_DEFAULT,
      "_ZN10tensorflow20TFE_HandleFromDLPackEPvP10TSL_StatusP11TFE_Context");
  *(void**)&deleter =
      dlsym(RTLD_DEFAULT, "_ZN10tensorflow30TFE_CallDLManagedTensorDeleterEPv");
  *(void**)&get_device = dlsym(
      RTLD_DEFAULT,
      "_ZN10tensorflow15TFE_GetDLDeviceEP16TFE_TensorHandleP10TSL_Status");
  CHECK(to_dlpack != NULL && from_dlpack != NULL && deleter != NULL &&
        get_device != NULL);
  /* Aliases: the very same functions as the C names. */
  CHECK((void*)to_dlpack == dlsym(RTLD_DEFAULT, "TFE_HandleToDLPack"));
  CHECK((void*)deleter ==
        dlsym(RTLD_DEFAULT, "TFE_CallDLManagedTensorDeleter"));
  h = handle_of(1.25f, s);
  CHECK_CODE(s, TF_OK);
  dev = get_device(h, s);
  CHECK_CODE(s, TF_OK);
  free(dev);
  dlm = to_dlpack(h, s);
  CHECK_CODE(s, TF_OK);
  back = from_dlpack(dlm, s, NULL);
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(back, s);
  CHECK_CODE(s, TF_OK);
  CHECK(((const float*)TF_TensorData(t))[1] == 2.5f);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(back);
  dlm = to_dlpack(h, s);
  CHECK_CODE(s, TF_OK);
  deleter(dlm);
  deleter(NULL);
  TFE_DeleteTensorHandle(h);
  TF_DeleteStatus(s);
}

TEST(string_gauge_cell_value_fills_the_buffer) {
  TF_Status* s = TF_NewStatus();
  TFE_MonitoringStringGauge0* g = TFE_MonitoringNewStringGauge0(
      "/tfe/test/tf221_additions/gauge", s, "a test gauge");
  TFE_MonitoringStringGaugeCell* cell;
  TF_Buffer* buf = TF_NewBuffer();
  CHECK_CODE(s, TF_OK);
  cell = TFE_MonitoringGetCellStringGauge0(g);
  TFE_MonitoringStringGaugeCellSet(cell, "value");
  TFE_MonitoringStringGaugeCellValue(cell, buf);
  CHECK_EQ_SIZE(buf->length, 5);
  CHECK(memcmp(buf->data, "value", 5) == 0);
  TF_DeleteBuffer(buf);
  TFE_MonitoringDeleteStringGauge0(g);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
