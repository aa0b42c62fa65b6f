/* A C program written the way TensorFlow's graph/session C API is used:
 * build y = x + 2 in a graph, open a session, feed x and fetch y, then
 * export the graph and import it again. Nothing here is tfe-specific; it
 * must compile unchanged against tfe's include/ (as against TF's).
 *
 * It prints one line per step, "<step>: <code>", and continues after
 * failures so that every call runs. Every code is 0, against TensorFlow
 * and against tfe. The exit code is 0 unless a result contradicts its
 * status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/c/c_api.h"

static int failures = 0;

static void report(const char* step, const TF_Status* status) {
  printf("%s: %d\n", step, (int)TF_GetCode(status));
  if (TF_GetCode(status) != TF_OK) {
    fprintf(stderr, "%s: %s\n", step, TF_Message(status));
  }
}

static TF_Operation* placeholder(TF_Graph* graph, TF_Status* status) {
  TF_OperationDescription* desc = TF_NewOperation(graph, "Placeholder", "x");
  int64_t dims[1] = {-1};
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  TF_SetAttrShape(desc, "shape", dims, 1);
  return TF_FinishOperation(desc, status);
}

static TF_Operation* constant(TF_Graph* graph, float value,
                              TF_Status* status) {
  TF_Tensor* t = TF_AllocateTensor(TF_FLOAT, NULL, 0, sizeof(float));
  TF_OperationDescription* desc = TF_NewOperation(graph, "Const", "two");
  TF_Operation* op;
  memcpy(TF_TensorData(t), &value, sizeof(value));
  TF_SetAttrTensor(desc, "value", t, status);
  report("set_attr_tensor", status);
  TF_SetAttrType(desc, "dtype", TF_FLOAT);
  op = TF_FinishOperation(desc, status);
  TF_DeleteTensor(t);
  return op;
}

static TF_Operation* add(TF_Graph* graph, TF_Operation* a, TF_Operation* b,
                         TF_Status* status) {
  TF_OperationDescription* desc = TF_NewOperation(graph, "AddV2", "y");
  TF_Output lhs = {a, 0};
  TF_AddInput(desc, lhs);
  TF_AddInput(desc, (TF_Output){b, 0});
  TF_SetDevice(desc, "/device:CPU:0");
  return TF_FinishOperation(desc, status);
}

int main(void) {
  TF_Status* status = TF_NewStatus();
  TF_Graph* graph = TF_NewGraph();
  TF_SessionOptions* options = TF_NewSessionOptions();
  TF_Operation *x, *two, *y;
  TF_Session* session;
  static const unsigned char config[] = {0x10, 0x01, 0x28, 0x01};

  printf("version: %s\n", TF_Version() != NULL ? "yes" : "no");

  x = placeholder(graph, status);
  report("placeholder", status);
  two = constant(graph, 2.0f, status);
  report("const", status);
  y = add(graph, x, two, status);
  report("add", status);
  if ((y != NULL) != (TF_GetCode(status) == TF_OK)) failures++;
  if (y != NULL) {
    printf("y.op_type: %s\n", TF_OperationOpType(y));
    printf("y.num_inputs: %d\n", TF_OperationNumInputs(y));
    printf("y.output_type: %d\n",
           (int)TF_OperationOutputType((TF_Output){y, 0}));
  }

  TF_SetTarget(options, "");
  TF_SetConfig(options, config, sizeof(config), status);
  report("set_config", status);
  session = TF_NewSession(graph, options, status);
  report("new_session", status);
  if ((session != NULL) != (TF_GetCode(status) == TF_OK)) failures++;

  if (session != NULL && x != NULL && y != NULL) {
    int64_t dims[1] = {3};
    float in[3] = {1, 2, 3};
    TF_Tensor* feed = TF_AllocateTensor(TF_FLOAT, dims, 1, sizeof(in));
    TF_Output inputs[1] = {{x, 0}};
    TF_Output outputs[1] = {{y, 0}};
    TF_Tensor* fetched[1] = {NULL};
    memcpy(TF_TensorData(feed), in, sizeof(in));
    TF_SessionRun(session, NULL, inputs, &feed, 1, outputs, fetched, 1, NULL,
                  0, NULL, status);
    report("session_run", status);
    if (fetched[0] != NULL) {
      const float* out = (const float*)TF_TensorData(fetched[0]);
      printf("y: %g %g %g\n", out[0], out[1], out[2]);
      TF_DeleteTensor(fetched[0]);
    }
    TF_DeleteTensor(feed);
  }

  {
    TF_Buffer* graph_def = TF_NewBuffer();
    TF_Graph* copy = TF_NewGraph();
    TF_ImportGraphDefOptions* import_opts = TF_NewImportGraphDefOptions();
    TF_ImportGraphDefResults* results;
    TF_GraphToGraphDef(graph, graph_def, status);
    report("graph_to_graph_def", status);
    TF_ImportGraphDefOptionsSetPrefix(import_opts, "imported");
    TF_ImportGraphDefOptionsAddReturnOutput(import_opts, "y", 0);
    printf("return_outputs: %d\n",
           TF_ImportGraphDefOptionsNumReturnOutputs(import_opts));
    results = TF_GraphImportGraphDefWithResults(copy, graph_def, import_opts,
                                                status);
    report("import", status);
    if (results != NULL) {
      int n = 0;
      TF_Output* outs = NULL;
      TF_ImportGraphDefResultsReturnOutputs(results, &n, &outs);
      printf("imported_outputs: %d\n", n);
      TF_DeleteImportGraphDefResults(results);
    }
    TF_DeleteImportGraphDefOptions(import_opts);
    TF_DeleteGraph(copy);
    TF_DeleteBuffer(graph_def);
  }

  {
    size_t pos = 0;
    int count = 0;
    while (TF_GraphNextOperation(graph, &pos) != NULL) count++;
    printf("operations: %d\n", count);
  }

  if (session != NULL) {
    TF_CloseSession(session, status);
    report("close_session", status);
  }
  TF_DeleteSession(session, status);
  report("delete_session", status);
  TF_DeleteSessionOptions(options);
  TF_DeleteGraph(graph);
  TF_DeleteStatus(status);
  return failures == 0 ? 0 : 1;
}
