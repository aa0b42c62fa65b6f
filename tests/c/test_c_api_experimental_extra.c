/* Tests for the non-plugin part of c_api_experimental.h
 * (csrc/graph/c_api_experimental_extra.c) and the coordination-service /
 * PJRT additions of next_pluggable_device/c_api.h. Public API only. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_experimental.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/experimental/next_pluggable_device/c_api.h"
#include "tfe_test.h"

static void check_unimplemented(TF_Status* s, const char* name) {
  CHECK_CODE(s, TF_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(TF_Message(s), name);
  TF_SetStatus(s, TF_OK, "");
}

TEST(make_internal_error_status) {
  TF_Status* s = TF_NewStatus();
  TF_MakeInternalErrorStatus(s, "disk on fire");
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_EQ(TF_Message(s), "disk on fire");
  TF_MakeInternalErrorStatus(s, NULL);
  CHECK_CODE(s, TF_INTERNAL);
  CHECK_STR_EQ(TF_Message(s), "");
  TF_MakeInternalErrorStatus(NULL, "ignored");
  TF_DeleteStatus(s);
}

TEST(enable_xla_compilation_is_accepted) {
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_EnableXLACompilation(opts, 1);
  TF_EnableXLACompilation(opts, 1);
  TF_EnableXLACompilation(opts, 0);
  TF_EnableXLACompilation(NULL, 1);
  TF_DeleteSessionOptions(opts);
}

static int bytes_eq(const TF_Buffer* b, const unsigned char* want, size_t n) {
  return b != NULL && b->length == n && memcmp(b->data, want, n) == 0;
}

TEST(create_config_encodes_config_proto) {
  /* device_count {"CPU": 2}, gpu_options {allow_growth: true},
   * graph_options {optimizer_options {global_jit_level: ON_1}}. */
  static const unsigned char on[] = {0x0a, 0x07, 0x0a, 0x03, 'C',  'P',
                                     'U',  0x10, 0x02, 0x32, 0x02, 0x20,
                                     0x01, 0x52, 0x04, 0x1a, 0x02, 0x28,
                                     0x01};
  /* device_count {"CPU": 0}, gpu_options {}, global_jit_level: OFF (-1). */
  static const unsigned char off[] = {
      0x0a, 0x05, 0x0a, 0x03, 'C',  'P',  'U',  0x32, 0x00, 0x52, 0x0d,
      0x1a, 0x0b, 0x28, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0x01};
  TF_Buffer* b = TF_CreateConfig(1, 1, 2);
  CHECK(bytes_eq(b, on, sizeof(on)));
  TF_DeleteBuffer(b);
  b = TF_CreateConfig(0, 0, 0);
  CHECK(bytes_eq(b, off, sizeof(off)));
  TF_DeleteBuffer(b);
}

TEST(create_config_is_accepted_by_session_options) {
  TF_Status* s = TF_NewStatus();
  TF_SessionOptions* opts = TF_NewSessionOptions();
  TF_Buffer* b = TF_CreateConfig(0, 1, 1);
  CHECK(b != NULL);
  TF_SetConfig(opts, b->data, b->length, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteBuffer(b);
  TF_DeleteSessionOptions(opts);
  TF_DeleteStatus(s);
}

TEST(create_run_options) {
  static const unsigned char full[] = {0x08, 0x03};
  TF_Buffer* b = TF_CreateRunOptions(1);
  CHECK(bytes_eq(b, full, sizeof(full)));
  TF_DeleteBuffer(b);
  b = TF_CreateRunOptions(0);
  CHECK(b != NULL);
  CHECK_EQ_SIZE(b->length, 0);
  TF_DeleteBuffer(b);
}

TEST(new_tensor_handle_from_scalar) {
  TF_Status* s = TF_NewStatus();
  float x = 2.5f;
  int64_t y = -7;
  TFE_TensorHandle* h =
      TFE_NewTensorHandleFromScalar(TF_FLOAT, &x, sizeof(x), s);
  TF_Tensor* t;
  CHECK_CODE(s, TF_OK);
  CHECK(h != NULL);
  CHECK_EQ_INT(TFE_TensorHandleDataType(h), TF_FLOAT);
  CHECK_EQ_INT(TFE_TensorHandleNumDims(h, s), 0);
  t = TFE_TensorHandleResolve(h, s);
  CHECK_CODE(s, TF_OK);
  CHECK_EQ_SIZE(TF_TensorByteSize(t), sizeof(float));
  CHECK(*(const float*)TF_TensorData(t) == 2.5f);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(h);

  h = TFE_NewTensorHandleFromScalar(TF_INT64, &y, sizeof(y), s);
  CHECK_CODE(s, TF_OK);
  t = TFE_TensorHandleResolve(h, s);
  CHECK(*(const int64_t*)TF_TensorData(t) == -7);
  TF_DeleteTensor(t);
  TFE_DeleteTensorHandle(h);
  TF_DeleteStatus(s);
}

TEST(new_tensor_handle_from_scalar_errors) {
  TF_Status* s = TF_NewStatus();
  float x = 1.0f;
  CHECK(TFE_NewTensorHandleFromScalar(TF_FLOAT, &x, 8, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "len");
  CHECK(TFE_NewTensorHandleFromScalar(TF_FLOAT, NULL, 4, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TFE_NewTensorHandleFromScalar(TF_STRING, &x, 4, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteStatus(s);
}

TEST(shape_and_type_list) {
  static const int64_t dims[] = {2, -1, 3};
  TF_ShapeAndTypeList* l = TF_NewShapeAndTypeList(3);
  CHECK(l != NULL);
  CHECK_EQ_INT(l->num_items, 3);
  CHECK(l->items != NULL);
  CHECK_EQ_INT(l->items[0].num_dims, 0);
  CHECK(l->items[0].dims == NULL);
  CHECK_EQ_INT(l->items[0].dtype, 0);

  TF_ShapeAndTypeListSetShape(l, 0, dims, 3);
  CHECK_EQ_INT(l->items[0].num_dims, 3);
  CHECK(l->items[0].dims != dims);
  CHECK_EQ_INT(l->items[0].dims[0], 2);
  CHECK_EQ_INT(l->items[0].dims[1], -1);
  CHECK_EQ_INT(l->items[0].dims[2], 3);
  /* Replacing a shape frees the old one (checked by ASan builds). */
  TF_ShapeAndTypeListSetShape(l, 0, dims, 1);
  CHECK_EQ_INT(l->items[0].num_dims, 1);

  TF_ShapeAndTypeListSetShape(l, 1, dims, 2);
  TF_ShapeAndTypeListSetUnknownShape(l, 1);
  CHECK_EQ_INT(l->items[1].num_dims, -1);
  CHECK(l->items[1].dims == NULL);

  TF_ShapeAndTypeListSetShape(l, 2, NULL, 0);
  CHECK_EQ_INT(l->items[2].num_dims, 0);
  TF_ShapeAndTypeListSetDtype(l, 2, TF_INT32);
  CHECK_EQ_INT(l->items[2].dtype, TF_INT32);

  /* Out-of-range or malformed calls change nothing. */
  TF_ShapeAndTypeListSetShape(l, 3, dims, 3);
  TF_ShapeAndTypeListSetShape(l, -1, dims, 3);
  TF_ShapeAndTypeListSetShape(l, 2, NULL, 2);
  TF_ShapeAndTypeListSetShape(l, 2, dims, -1);
  CHECK_EQ_INT(l->items[2].num_dims, 0);
  TF_ShapeAndTypeListSetUnknownShape(l, 5);
  TF_ShapeAndTypeListSetDtype(l, 5, TF_FLOAT);
  TF_ShapeAndTypeListSetShape(NULL, 0, dims, 3);
  TF_ShapeAndTypeListSetUnknownShape(NULL, 0);
  TF_ShapeAndTypeListSetDtype(NULL, 0, TF_FLOAT);
  TF_DeleteShapeAndTypeList(l);

  l = TF_NewShapeAndTypeList(0);
  CHECK(l != NULL);
  CHECK_EQ_INT(l->num_items, 0);
  CHECK(l->items == NULL);
  TF_DeleteShapeAndTypeList(l);
  CHECK(TF_NewShapeAndTypeList(-1) == NULL);
  TF_DeleteShapeAndTypeList(NULL);
}

TEST(shape_and_type_list_array) {
  static const int64_t dims[] = {4};
  TF_ShapeAndTypeList** arr =
      (TF_ShapeAndTypeList**)malloc(3 * sizeof(TF_ShapeAndTypeList*));
  CHECK(arr != NULL);
  arr[0] = TF_NewShapeAndTypeList(1);
  TF_ShapeAndTypeListSetShape(arr[0], 0, dims, 1);
  arr[1] = NULL;
  arr[2] = TF_NewShapeAndTypeList(2);
  TF_DeleteShapeAndTypeListArray(arr, 3);
  TF_DeleteShapeAndTypeListArray(NULL, 4);
}

TEST(attr_builder_can_run_on_cpu) {
  TF_Status* s = TF_NewStatus();
  TF_AttrBuilder* b = TF_NewAttrBuilder("AddV2");
  CHECK(b != NULL);
  TF_AttrBuilderSetType(b, "T", TF_FLOAT);
  TF_AttrBuilderCheckCanRunOnDevice(b, "CPU", s);
  CHECK_CODE(s, TF_OK);
  /* No kernel for a device type that does not exist. */
  TF_AttrBuilderCheckCanRunOnDevice(b, "NO_SUCH_DEVICE", s);
  CHECK_CODE(s, TF_NOT_FOUND);
  /* A type the op definition rejects. */
  TF_AttrBuilderSetType(b, "T", TF_RESOURCE);
  TF_AttrBuilderCheckCanRunOnDevice(b, "CPU", s);
  CHECK(TF_GetCode(s) == TF_INVALID_ARGUMENT);
  TF_DeleteAttrBuilder(b);

  /* Missing type attr: NOT_FOUND, as in TF eager. */
  b = TF_NewAttrBuilder("AddV2");
  TF_AttrBuilderCheckCanRunOnDevice(b, "CPU", s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "'T'");
  TF_DeleteAttrBuilder(b);
  TF_DeleteStatus(s);
}

TEST(attr_builder_type_list) {
  TF_Status* s = TF_NewStatus();
  const TF_DataType types[] = {TF_FLOAT, TF_INT32};
  /* IdentityN takes T: list(type). */
  TF_AttrBuilder* b = TF_NewAttrBuilder("IdentityN");
  CHECK(b != NULL);
  TF_AttrBuilderSetTypeList(b, "T", types, 2);
  TF_AttrBuilderSetTypeList(b, "ignored", NULL, 3); /* ignored */
  TF_AttrBuilderSetTypeList(b, "ignored", types, -1);
  TF_AttrBuilderCheckCanRunOnDevice(b, "CPU", s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteAttrBuilder(b);
  TF_DeleteStatus(s);
}

TEST(attr_builder_errors_and_nulls) {
  TF_Status* s = TF_NewStatus();
  TF_AttrBuilder* b = TF_NewAttrBuilder("NoSuchOpAnywhere");
  CHECK(b != NULL);
  TF_AttrBuilderCheckCanRunOnDevice(b, "CPU", s);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "NoSuchOpAnywhere");
  TF_AttrBuilderCheckCanRunOnDevice(b, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_AttrBuilderCheckCanRunOnDevice(NULL, "CPU", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_AttrBuilderSetType(NULL, "T", TF_FLOAT);
  TF_AttrBuilderSetType(b, NULL, TF_FLOAT);
  TF_AttrBuilderSetTypeList(NULL, "T", NULL, 0);
  TF_DeleteAttrBuilder(b);
  CHECK(TF_NewAttrBuilder(NULL) == NULL);
  TF_DeleteAttrBuilder(NULL);
  TF_DeleteStatus(s);
}

TEST(number_attr_for_op_list_input) {
  TF_Status* s = TF_NewStatus();
  /* AddN: inputs: N * T. */
  const char* n = TF_GetNumberAttrForOpListInput("AddN", 0, s);
  CHECK_CODE(s, TF_OK);
  CHECK_STR_EQ(n, "N");
  /* Out of range. */
  CHECK(TF_GetNumberAttrForOpListInput("AddN", 1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_GetNumberAttrForOpListInput("AddN", -1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  /* A plain input has no number attr. */
  CHECK(TF_GetNumberAttrForOpListInput("AddV2", 0, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK_STR_CONTAINS(TF_Message(s), "number_attr");
  CHECK(TF_GetNumberAttrForOpListInput("NoSuchOpAnywhere", 0, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK(TF_GetNumberAttrForOpListInput(NULL, 0, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteStatus(s);
}

TEST(stubs_with_status_report_unimplemented) {
  TF_Status* s = TF_NewStatus();
  TF_ShapeAndTypeList* out = (TF_ShapeAndTypeList*)1;
  TF_ShapeAndTypeList** out_res = (TF_ShapeAndTypeList**)1;

  /* Implemented (test_session_threads.c); a NULL session is an error. */
  CHECK(TF_DequeueNamedTensor(NULL, 0, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_EnqueueNamedTensor(NULL, 0, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TFE_EnableCollectiveOps(NULL, NULL, 0, s);
  check_unimplemented(s, "TFE_EnableCollectiveOps");
  /* Implemented (test_parallel_collectives_threads.c); its status is an
   * input, and a NULL context does nothing. */
  TF_SetStatus(s, TF_OK, "");
  TFE_AbortCollectiveOps(NULL, s);
  CHECK_CODE(s, TF_OK);
  TFE_CollectiveOpsCheckPeerHealth(NULL, "/job:w/replica:0/task:0", 10, s);
  check_unimplemented(s, "TFE_CollectiveOpsCheckPeerHealth");
  /* TFE_InferShapes works (test_internal_shape_infer.c); a NULL op is an
   * error that leaves the outputs NULL. */
  TFE_InferShapes(NULL, NULL, NULL, NULL, NULL, &out, &out_res, s);
  CHECK(out == NULL);
  CHECK(out_res == NULL);
  CHECK(TF_GetCode(s) != TF_OK && TF_GetCode(s) != TF_UNIMPLEMENTED);
  /* TF_GraphRemoveFunction works (test_functions.c); NULL is an error. */
  TF_GraphRemoveFunction(NULL, "f", s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteStatus(s);
}

TEST(stubs_without_status_return_neutral_values) {
  size_t len = 99;
  TF_Graph* g = TF_NewGraph();
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  /* TF_GraphDebugString works (test_graph_build.c); NULL gives NULL. */
  len = 99;
  CHECK(TF_FunctionDebugString(NULL, &len) == NULL);
  CHECK_EQ_SIZE(len, 0);
  CHECK(TF_GraphDebugString(NULL, NULL) == NULL);
  TF_ImportGraphDefOptionsSetValidateColocationConstraints(o, 1);
  TF_ImportGraphDefOptionsSetValidateColocationConstraints(NULL, 0);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteGraph(g);
}

TEST(coordination_service_reads_without_service) {
  TF_Status* s = TF_NewStatus();
  CHECK(TF_CoordinationServiceGetKeyValueWithTimeout("k", 1, 5, NULL, s) ==
        NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK_STR_CONTAINS(TF_Message(s),
                     "TF_CoordinationServiceGetKeyValueWithTimeout");
  CHECK(TF_CoordinationServiceTryGetKeyValue("k", 1, NULL, s) == NULL);
  CHECK_CODE(s, TF_FAILED_PRECONDITION);
  CHECK_STR_CONTAINS(TF_Message(s), "TF_CoordinationServiceTryGetKeyValue");
  TF_ResetPjRtCClient("CPU", s);
  check_unimplemented(s, "TF_ResetPjRtCClient");
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
