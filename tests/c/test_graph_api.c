/* The graph and session API of tensorflow/c/c_api.h: session options,
 * import options and results, NULL deletes, and the stubs that remain
 * (graph building itself is tested in test_graph_build.c), each of which must report TF_UNIMPLEMENTED
 * naming itself (or, without a status, return its neutral value) and never
 * crash. */
#include <stdint.h>
#include <string.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/eager/c_api.h"
#include "tfe/tfe.h"
#include "tfe_test.h"

#define CHECK_UNIMPLEMENTED(s, name)                                  \
  do {                                                                \
    CHECK_CODE(s, TF_UNIMPLEMENTED);                                  \
    CHECK_STR_CONTAINS(TF_Message(s), name " is not implemented");    \
    TF_SetStatus(s, TF_OK, "");                                       \
  } while (0)

/* ------------------------------------------------------------------------
 * Session options. */

/* ConfigProto { device_count { key: "CPU" value: 2 }
 *               intra_op_parallelism_threads: 4 }, serialized. */
static const unsigned char kConfig[] = {0x0a, 0x07, 0x0a, 0x03, 'C', 'P',
                                        'U',  0x10, 0x02, 0x10, 0x04};

TEST(session_options_lifecycle) {
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Status* s = TF_NewStatus();
  CHECK(o != NULL);
  TF_SetTarget(o, "");
  TF_SetTarget(o, "local");
  TF_SetTarget(o, "grpc://localhost:2222,host:1");
  TF_SetTarget(o, NULL); /* counts as "" */
  TF_SetConfig(o, kConfig, sizeof(kConfig), s);
  CHECK_CODE(s, TF_OK);
  TF_SetConfig(o, kConfig, sizeof(kConfig), s); /* replaces, no leak */
  CHECK_CODE(s, TF_OK);
  TF_SetConfig(o, NULL, 0, s); /* empty ConfigProto */
  CHECK_CODE(s, TF_OK);
  TF_SetConfig(o, "", 0, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSessionOptions(o);
  TF_DeleteSessionOptions(NULL);
  TF_SetTarget(NULL, "local"); /* no-op */
  TF_DeleteStatus(s);
}

TEST(set_config_accepts_every_wire_type) {
  /* field 3 varint, field 4 fixed64, field 5 fixed32, field 6 bytes,
   * field 7 group holding field 1 varint, then field 536870911 varint
   * (the largest field number). */
  static const unsigned char msg[] = {
      0x18, 0x96, 0x01,                                      /* 3: 150 */
      0x21, 1,    2,    3,    4,    5,    6,    7,    8,     /* 4: fixed64 */
      0x2d, 1,    2,    3,    4,                             /* 5: fixed32 */
      0x32, 0x02, 'h',  'i',                                 /* 6: "hi" */
      0x3b, 0x08, 0x01, 0x3c,                                /* 7: group */
      0xf8, 0xff, 0xff, 0xff, 0x0f, 0x01,                    /* max field */
      0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Status* s = TF_NewStatus();
  TF_SetConfig(o, msg, sizeof(msg), s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSessionOptions(o);
  TF_DeleteStatus(s);
}

TEST(set_config_rejects_malformed_bytes) {
  static const unsigned char truncated_varint[] = {0x10, 0x80};
  static const unsigned char field_zero[] = {0x00, 0x01};
  static const unsigned char wire_type_6[] = {0x0e, 0x01};
  static const unsigned char wire_type_7[] = {0x0f};
  static const unsigned char length_too_long[] = {0x0a, 0x05, 'a', 'b'};
  static const unsigned char short_fixed64[] = {0x09, 1, 2, 3};
  static const unsigned char short_fixed32[] = {0x0d, 1, 2};
  static const unsigned char stray_end_group[] = {0x0c};
  static const unsigned char open_group[] = {0x0b, 0x08, 0x01};
  static const unsigned char wrong_end_group[] = {0x0b, 0x14};
  static const unsigned char varint_11_bytes[] = {
      0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  static const unsigned char varint_overflow[] = {
      0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  static const unsigned char tag_too_big[] = {0xf8, 0xff, 0xff, 0xff,
                                              0xff, 0x01, 0x00};
  const struct {
    const unsigned char* data;
    size_t len;
  } bad[] = {
      {truncated_varint, sizeof(truncated_varint)},
      {field_zero, sizeof(field_zero)},
      {wire_type_6, sizeof(wire_type_6)},
      {wire_type_7, sizeof(wire_type_7)},
      {length_too_long, sizeof(length_too_long)},
      {short_fixed64, sizeof(short_fixed64)},
      {short_fixed32, sizeof(short_fixed32)},
      {stray_end_group, sizeof(stray_end_group)},
      {open_group, sizeof(open_group)},
      {wrong_end_group, sizeof(wrong_end_group)},
      {varint_11_bytes, sizeof(varint_11_bytes)},
      {varint_overflow, sizeof(varint_overflow)},
      {tag_too_big, sizeof(tag_too_big)},
  };
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Status* s = TF_NewStatus();
  size_t i;
  for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    TF_SetConfig(o, bad[i].data, bad[i].len, s);
    if (TF_GetCode(s) != TF_INVALID_ARGUMENT) {
      TFE_FAIL("case %zu: code %d (%s)", i, (int)TF_GetCode(s), TF_Message(s));
    }
    CHECK_STR_CONTAINS(TF_Message(s), "ConfigProto");
  }
  TF_DeleteSessionOptions(o);
  TF_DeleteStatus(s);
}

TEST(set_config_deeply_nested_groups) {
  /* 64 nested groups are accepted, 65 are not. */
  unsigned char msg[2 * 65];
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Status* s = TF_NewStatus();
  int depth;
  for (depth = 64; depth <= 65; depth++) {
    int i;
    for (i = 0; i < depth; i++) {
      msg[i] = 0x0b;             /* field 1, start group */
      msg[2 * depth - 1 - i] = 0x0c; /* field 1, end group */
    }
    TF_SetConfig(o, msg, (size_t)(2 * depth), s);
    CHECK_CODE(s, depth == 64 ? TF_OK : TF_INVALID_ARGUMENT);
  }
  TF_DeleteSessionOptions(o);
  TF_DeleteStatus(s);
}

TEST(set_config_argument_errors) {
  TF_SessionOptions* o = TF_NewSessionOptions();
  TF_Status* s = TF_NewStatus();
  TF_SetConfig(NULL, kConfig, sizeof(kConfig), s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(TF_Message(s), "options");
  TF_SetConfig(o, NULL, 3, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteSessionOptions(o);
  TF_DeleteStatus(s);
}

TEST(session_options_out_of_memory) {
  TF_Status* s = TF_NewStatus();
  TF_SessionOptions* o;
  TFE_TestFailAllocationsAfter(0);
  CHECK(TF_NewSessionOptions() == NULL);
  TFE_TestFailAllocationsAfter(1); /* the struct succeeds, its target copy fails */
  CHECK(TF_NewSessionOptions() == NULL);
  TFE_TestFailAllocationsAfter(-1);
  o = TF_NewSessionOptions();
  CHECK(o != NULL);
  TF_SetConfig(o, kConfig, sizeof(kConfig), s);
  CHECK_CODE(s, TF_OK);
  TFE_TestFailAllocationsAfter(0);
  TF_SetConfig(o, kConfig, sizeof(kConfig), s);
  CHECK_CODE(s, TF_RESOURCE_EXHAUSTED);
  TF_SetTarget(o, "host:1"); /* keeps the old target */
  TFE_TestFailAllocationsAfter(-1);
  TF_DeleteSessionOptions(o); /* ASan: nothing leaked */
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Graphs. */

TEST(graph_create_and_delete) {
  TF_Graph* g = TF_NewGraph();
  TF_Graph* g2 = TF_NewGraph();
  CHECK(g != NULL && g2 != NULL && g != g2);
  TF_DeleteGraph(g);
  TF_DeleteGraph(g2);
  TF_DeleteGraph(NULL);
  TFE_TestFailAllocationsAfter(0);
  CHECK(TF_NewGraph() == NULL);
  TFE_TestFailAllocationsAfter(-1);
}

/* ------------------------------------------------------------------------
 * Import options and results. */

TEST(import_options_record_requests) {
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_Output none = {NULL, 0};
  CHECK(o != NULL);
  CHECK_EQ_INT(TF_ImportGraphDefOptionsNumReturnOutputs(o), 0);
  CHECK_EQ_INT(TF_ImportGraphDefOptionsNumReturnOperations(o), 0);
  TF_ImportGraphDefOptionsSetPrefix(o, "imported");
  TF_ImportGraphDefOptionsSetPrefix(o, "again"); /* replaces */
  TF_ImportGraphDefOptionsSetPrefix(o, NULL);    /* clears */
  TF_ImportGraphDefOptionsSetPrefix(o, "final");
  TF_ImportGraphDefOptionsSetDefaultDevice(o, "/device:CPU:0");
  TF_ImportGraphDefOptionsSetDefaultDevice(o, NULL);
  TF_ImportGraphDefOptionsSetDefaultDevice(o, "/device:CPU:0");
  TF_ImportGraphDefOptionsSetUniquifyNames(o, 1);
  TF_ImportGraphDefOptionsSetUniquifyPrefix(o, 1);
  TF_ImportGraphDefOptionsAddInputMapping(o, "x", 0, none);
  TF_ImportGraphDefOptionsAddInputMapping(o, NULL, 0, none); /* ignored */
  TF_ImportGraphDefOptionsRemapControlDependency(o, "init", NULL);
  TF_ImportGraphDefOptionsRemapControlDependency(o, NULL, NULL);
  TF_ImportGraphDefOptionsAddControlDependency(o, NULL);
  TF_ImportGraphDefOptionsAddReturnOutput(o, "y", 0);
  TF_ImportGraphDefOptionsAddReturnOutput(o, "y", 1);
  TF_ImportGraphDefOptionsAddReturnOutput(o, NULL, 2); /* ignored */
  TF_ImportGraphDefOptionsAddReturnOperation(o, "train");
  CHECK_EQ_INT(TF_ImportGraphDefOptionsNumReturnOutputs(o), 2);
  CHECK_EQ_INT(TF_ImportGraphDefOptionsNumReturnOperations(o), 1);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteImportGraphDefOptions(NULL);
}

TEST(import_options_grow_past_initial_capacity) {
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_Output none = {NULL, 3};
  char name[16];
  int i;
  for (i = 0; i < 100; i++) {
    snprintf(name, sizeof(name), "op%d", i);
    TF_ImportGraphDefOptionsAddReturnOutput(o, name, i);
    TF_ImportGraphDefOptionsAddReturnOperation(o, name);
    TF_ImportGraphDefOptionsAddInputMapping(o, name, i, none);
    TF_ImportGraphDefOptionsRemapControlDependency(o, name, NULL);
    TF_ImportGraphDefOptionsAddControlDependency(o, NULL);
  }
  CHECK_EQ_INT(TF_ImportGraphDefOptionsNumReturnOutputs(o), 100);
  CHECK_EQ_INT(TF_ImportGraphDefOptionsNumReturnOperations(o), 100);
  TF_DeleteImportGraphDefOptions(o); /* ASan: every copy released */
}

TEST(import_options_null_and_out_of_memory) {
  TF_ImportGraphDefOptions* o;
  TF_Output none = {NULL, 0};
  /* NULL options: setters do nothing, counters are 0. */
  TF_ImportGraphDefOptionsSetPrefix(NULL, "p");
  TF_ImportGraphDefOptionsSetDefaultDevice(NULL, "d");
  TF_ImportGraphDefOptionsSetUniquifyNames(NULL, 1);
  TF_ImportGraphDefOptionsSetUniquifyPrefix(NULL, 1);
  TF_ImportGraphDefOptionsAddInputMapping(NULL, "x", 0, none);
  TF_ImportGraphDefOptionsRemapControlDependency(NULL, "x", NULL);
  TF_ImportGraphDefOptionsAddControlDependency(NULL, NULL);
  TF_ImportGraphDefOptionsAddReturnOutput(NULL, "x", 0);
  TF_ImportGraphDefOptionsAddReturnOperation(NULL, "x");
  CHECK_EQ_INT(TF_ImportGraphDefOptionsNumReturnOutputs(NULL), 0);
  CHECK_EQ_INT(TF_ImportGraphDefOptionsNumReturnOperations(NULL), 0);

  TFE_TestFailAllocationsAfter(0);
  CHECK(TF_NewImportGraphDefOptions() == NULL);
  TFE_TestFailAllocationsAfter(-1);

  o = TF_NewImportGraphDefOptions();
  TF_ImportGraphDefOptionsAddReturnOutput(o, "kept", 0);
  /* A failed copy leaves the options as they were. */
  TFE_TestFailAllocationsAfter(0);
  TF_ImportGraphDefOptionsAddReturnOutput(o, "lost", 0);
  TF_ImportGraphDefOptionsAddReturnOperation(o, "lost");
  TF_ImportGraphDefOptionsSetPrefix(o, "lost");
  TFE_TestFailAllocationsAfter(-1);
  CHECK_EQ_INT(TF_ImportGraphDefOptionsNumReturnOutputs(o), 1);
  CHECK_EQ_INT(TF_ImportGraphDefOptionsNumReturnOperations(o), 0);
  /* The name copy succeeds but growing the array fails: no leak. */
  TF_ImportGraphDefOptionsAddReturnOperation(o, "first");
  TF_ImportGraphDefOptionsAddReturnOperation(o, "second");
  TF_ImportGraphDefOptionsAddReturnOperation(o, "third");
  TF_ImportGraphDefOptionsAddReturnOperation(o, "fourth");
  TFE_TestFailAllocationsAfter(1);
  TF_ImportGraphDefOptionsAddReturnOperation(o, "fifth");
  TFE_TestFailAllocationsAfter(-1);
  CHECK_EQ_INT(TF_ImportGraphDefOptionsNumReturnOperations(o), 4);
  TF_DeleteImportGraphDefOptions(o);
}

TEST(import_results_accessors_on_null) {
  int n = 7;
  TF_Output* outs = (TF_Output*)&n;
  TF_Operation** opers = (TF_Operation**)&n;
  const char** names = (const char**)&n;
  int* indexes = &n;
  TF_ImportGraphDefResultsReturnOutputs(NULL, &n, &outs);
  CHECK_EQ_INT(n, 0);
  CHECK(outs == NULL);
  n = 7;
  TF_ImportGraphDefResultsReturnOperations(NULL, &n, &opers);
  CHECK_EQ_INT(n, 0);
  CHECK(opers == NULL);
  n = 7;
  TF_ImportGraphDefResultsMissingUnusedInputMappings(NULL, &n, &names,
                                                     &indexes);
  CHECK_EQ_INT(n, 0);
  CHECK(names == NULL && indexes == NULL);
  /* NULL out-pointers are tolerated too. */
  TF_ImportGraphDefResultsReturnOutputs(NULL, NULL, NULL);
  TF_ImportGraphDefResultsReturnOperations(NULL, NULL, NULL);
  TF_ImportGraphDefResultsMissingUnusedInputMappings(NULL, NULL, NULL, NULL);
  TF_DeleteImportGraphDefResults(NULL);
}

/* ------------------------------------------------------------------------
 * NULL deletes of objects tfe never creates. */

TEST(null_deletes) {
  TF_Status* s = TF_NewStatus();
  TF_SetStatus(s, TF_INTERNAL, "stale");
  TF_DeleteSession(NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_SetStatus(s, TF_INTERNAL, "stale");
  TF_DeleteDeprecatedSession(NULL, s);
  CHECK_CODE(s, TF_OK);
  TF_DeleteSession(NULL, NULL);
  TF_DeleteDeprecatedSession(NULL, NULL);
  TF_DeleteFunction(NULL);
  TF_DeletePRunHandle(NULL);
  TF_DeleteApiDefMap(NULL);
  TF_DeleteServer(NULL);
  TF_DeleteDeviceList(NULL);
  TF_DeleteGraph(NULL);
  TF_DeleteSessionOptions(NULL);
  TF_DeleteImportGraphDefOptions(NULL);
  TF_DeleteImportGraphDefResults(NULL);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Stubs with a status. */

TEST(import_and_function_stubs_report_unimplemented) {
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_ImportGraphDefOptions* o = TF_NewImportGraphDefOptions();
  TF_Buffer* def = TF_NewBufferFromString("", 0);
  TF_Buffer* out_buf = TF_NewBuffer();
  TF_Output outs[2] = {{NULL, 0}, {NULL, 1}};
  TF_Function* funcs[2] = {NULL, NULL};

  /* The import itself works (tests/c/test_graph_import.c); only the
   * variant taking a C++ GraphDef object is unavailable. */
  CHECK(TF_GraphImportGraphDefWithResultsNoSerialization(g, def, o, s) ==
        NULL);
  CHECK_UNIMPLEMENTED(s, "TF_GraphImportGraphDefWithResultsNoSerialization");

  /* Functions work (tests/c/test_functions.c); NULL arguments are
   * errors, never crashes. */
  TF_GraphCopyFunction(g, NULL, NULL, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK_EQ_INT(TF_GraphGetFunctions(g, funcs, 2, s), 0);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_GraphToFunction(NULL, "f", 0, -1, NULL, 0, NULL, 0, NULL, NULL,
                           NULL, NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_GraphToFunctionWithControlOutputs(g, NULL, 0, -1, NULL, 0, NULL, 0,
                                             NULL, NULL, 0, NULL, NULL, NULL,
                                             NULL, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_FunctionToFunctionDef(NULL, out_buf, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  CHECK(TF_FunctionImportFunctionDef("\xff", 1, s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_FunctionSetAttrValueProto(NULL, "a", "", 0, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_FunctionGetAttrValueProto(NULL, "a", out_buf, s);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  {
    /* The while-loop builder works (tests/c/test_while_builder.c); inputs
     * that are not outputs of the graph are refused. */
    const TF_WhileParams wp = TF_NewWhile(g, outs, 2, s);
    CHECK_CODE(s, TF_INVALID_ARGUMENT);
    CHECK(wp.cond_graph == NULL && wp.body_graph == NULL);
  }
  /* Gradients work (tests/c/test_graph_gradients.c); outputs that are not
   * outputs of the graph are refused. */
  TF_AddGradients(g, outs, 1, outs + 1, 1, NULL, s, outs);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_AddGradientsWithPrefix(g, "grads", outs, 1, outs + 1, 1, NULL, s, outs);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);

  TF_DeleteBuffer(out_buf);
  TF_DeleteBuffer(def);
  TF_DeleteImportGraphDefOptions(o);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(saved_model_load_of_a_missing_dir_is_not_found) {
  /* Loading works (test_saved_model.c); here only that a directory with
   * no SavedModel gives TF's NOT_FOUND and leaves the graph empty. */
  TF_Status* s = TF_NewStatus();
  TF_Graph* g = TF_NewGraph();
  TF_SessionOptions* opts = TF_NewSessionOptions();
  const char* tags[1] = {"serve"};
  size_t pos = 0;
  CHECK(TF_LoadSessionFromSavedModel(opts, NULL, "/nonexistent", tags, 1, g,
                                     NULL, s) == NULL);
  CHECK_CODE(s, TF_NOT_FOUND);
  CHECK(TF_GraphNextOperation(g, &pos) == NULL);
  TF_DeleteSessionOptions(opts);
  TF_DeleteGraph(g);
  TF_DeleteStatus(s);
}

TEST(server_and_api_def_stubs_report_unimplemented) {
  TF_Status* s = TF_NewStatus();
  TF_Buffer* ops = TF_NewBufferFromString("", 0);
  CHECK(TF_NewServer("", 0, s) == NULL);
  CHECK_UNIMPLEMENTED(s, "TF_NewServer");
  TF_ServerStart(NULL, s);
  CHECK_UNIMPLEMENTED(s, "TF_ServerStart");
  TF_ServerStop(NULL, s);
  CHECK_UNIMPLEMENTED(s, "TF_ServerStop");
  TF_ServerJoin(NULL, s);
  CHECK_UNIMPLEMENTED(s, "TF_ServerJoin");
  CHECK(TF_ServerTarget(NULL) == NULL);
  CHECK(TF_NewApiDefMap(ops, s) == NULL);
  CHECK_UNIMPLEMENTED(s, "TF_NewApiDefMap");
  TF_ApiDefMapPut(NULL, "", 0, s);
  CHECK_UNIMPLEMENTED(s, "TF_ApiDefMapPut");
  CHECK(TF_ApiDefMapGet(NULL, "AddV2", 5, s) == NULL);
  CHECK_UNIMPLEMENTED(s, "TF_ApiDefMapGet");
  TF_DeleteBuffer(ops);
  TF_DeleteStatus(s);
}

/* ------------------------------------------------------------------------
 * Stubs without a status: neutral values, nothing else. */

static void listener(const char* msg) { (void)msg; }

TEST(statusless_stubs_return_neutral_values) {
  /* Graph building and operation queries work (test_graph_build.c). */
  TF_Graph* g = TF_NewGraph();
  TF_Output out = {NULL, 0};
  CHECK_EQ_INT(TF_GraphNumFunctions(g), 0);
  CHECK(TF_FunctionName(NULL) == NULL);
  TF_AbortWhile(NULL);
  CHECK(TF_GetHandleShapeAndType(g, out) == NULL);
  TF_RegisterLogListener(listener);
  TF_RegisterLogListener(NULL);
  TF_DeleteGraph(g);
}

TEST(graph_and_eager_device_lists_are_one_api) {
  /* TF_DeviceList functions declared in c_api.h work on lists from the
   * eager context. */
  TF_Status* s = TF_NewStatus();
  TFE_ContextOptions* o = TFE_NewContextOptions();
  TFE_Context* ctx = TFE_NewContext(o, s);
  TF_DeviceList* l;
  CHECK_CODE(s, TF_OK);
  l = TFE_ContextListDevices(ctx, s);
  CHECK_CODE(s, TF_OK);
  CHECK(TF_DeviceListCount(l) >= 1);
  CHECK_STR_EQ(TF_DeviceListType(l, 0, s), "CPU");
  CHECK(TF_DeviceListName(l, TF_DeviceListCount(l), s) == NULL);
  CHECK_CODE(s, TF_INVALID_ARGUMENT);
  TF_DeleteDeviceList(l);
  TFE_DeleteContext(ctx);
  TFE_DeleteContextOptions(o);
  TF_DeleteStatus(s);
}

TFE_TEST_MAIN
