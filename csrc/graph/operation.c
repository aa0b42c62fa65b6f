/* Building and inspecting graph operations: all TF_UNIMPLEMENTED stubs.
 * TF_NewOperation cannot report an error, so it returns NULL and the
 * setters ignore their (necessarily NULL) description; the failure
 * surfaces in TF_FinishOperation. */
#include <stddef.h>
#include <string.h>

#include "graph/graph_internal.h"

/* ------------------------------------------------------------------------
 * Descriptions. */

TF_OperationDescription* TF_NewOperationLocked(TF_Graph* graph,
                                               const char* op_type,
                                               const char* oper_name) {
  (void)graph, (void)op_type, (void)oper_name;
  /* TFE_UNIMPLEMENTED: TF_NewOperationLocked */
  TFE_GRAPH_WARN_ONCE("TF_NewOperationLocked");
  return NULL;
}

TF_OperationDescription* TF_NewOperation(TF_Graph* graph, const char* op_type,
                                         const char* oper_name) {
  (void)graph, (void)op_type, (void)oper_name;
  /* TFE_UNIMPLEMENTED: TF_NewOperation */
  TFE_GRAPH_WARN_ONCE("TF_NewOperation");
  return NULL;
}

void TF_SetDevice(TF_OperationDescription* desc, const char* device) {
  (void)desc, (void)device;
  /* TFE_UNIMPLEMENTED: TF_SetDevice */
}

void TF_AddInput(TF_OperationDescription* desc, TF_Output input) {
  (void)desc, (void)input;
  /* TFE_UNIMPLEMENTED: TF_AddInput */
}

void TF_AddInputList(TF_OperationDescription* desc, const TF_Output* inputs,
                     int num_inputs) {
  (void)desc, (void)inputs, (void)num_inputs;
  /* TFE_UNIMPLEMENTED: TF_AddInputList */
}

void TF_AddControlInput(TF_OperationDescription* desc, TF_Operation* input) {
  (void)desc, (void)input;
  /* TFE_UNIMPLEMENTED: TF_AddControlInput */
}

void TF_ColocateWith(TF_OperationDescription* desc, TF_Operation* op) {
  (void)desc, (void)op;
  /* TFE_UNIMPLEMENTED: TF_ColocateWith */
}

void TF_SetAttrString(TF_OperationDescription* desc, const char* attr_name,
                      const void* value, size_t length) {
  (void)desc, (void)attr_name, (void)value, (void)length;
  /* TFE_UNIMPLEMENTED: TF_SetAttrString */
}

void TF_SetAttrStringList(TF_OperationDescription* desc, const char* attr_name,
                          const void* const* values, const size_t* lengths,
                          int num_values) {
  (void)desc, (void)attr_name, (void)values, (void)lengths, (void)num_values;
  /* TFE_UNIMPLEMENTED: TF_SetAttrStringList */
}

void TF_SetAttrInt(TF_OperationDescription* desc, const char* attr_name,
                   int64_t value) {
  (void)desc, (void)attr_name, (void)value;
  /* TFE_UNIMPLEMENTED: TF_SetAttrInt */
}

void TF_SetAttrIntList(TF_OperationDescription* desc, const char* attr_name,
                       const int64_t* values, int num_values) {
  (void)desc, (void)attr_name, (void)values, (void)num_values;
  /* TFE_UNIMPLEMENTED: TF_SetAttrIntList */
}

void TF_SetAttrFloat(TF_OperationDescription* desc, const char* attr_name,
                     float value) {
  (void)desc, (void)attr_name, (void)value;
  /* TFE_UNIMPLEMENTED: TF_SetAttrFloat */
}

void TF_SetAttrFloatList(TF_OperationDescription* desc, const char* attr_name,
                         const float* values, int num_values) {
  (void)desc, (void)attr_name, (void)values, (void)num_values;
  /* TFE_UNIMPLEMENTED: TF_SetAttrFloatList */
}

void TF_SetAttrBool(TF_OperationDescription* desc, const char* attr_name,
                    unsigned char value) {
  (void)desc, (void)attr_name, (void)value;
  /* TFE_UNIMPLEMENTED: TF_SetAttrBool */
}

void TF_SetAttrBoolList(TF_OperationDescription* desc, const char* attr_name,
                        const unsigned char* values, int num_values) {
  (void)desc, (void)attr_name, (void)values, (void)num_values;
  /* TFE_UNIMPLEMENTED: TF_SetAttrBoolList */
}

void TF_SetAttrType(TF_OperationDescription* desc, const char* attr_name,
                    TF_DataType value) {
  (void)desc, (void)attr_name, (void)value;
  /* TFE_UNIMPLEMENTED: TF_SetAttrType */
}

void TF_SetAttrTypeList(TF_OperationDescription* desc, const char* attr_name,
                        const TF_DataType* values, int num_values) {
  (void)desc, (void)attr_name, (void)values, (void)num_values;
  /* TFE_UNIMPLEMENTED: TF_SetAttrTypeList */
}

void TF_SetAttrPlaceholder(TF_OperationDescription* desc, const char* attr_name,
                           const char* placeholder) {
  (void)desc, (void)attr_name, (void)placeholder;
  /* TFE_UNIMPLEMENTED: TF_SetAttrPlaceholder */
}

void TF_SetAttrFuncName(TF_OperationDescription* desc, const char* attr_name,
                        const char* value, size_t length) {
  (void)desc, (void)attr_name, (void)value, (void)length;
  /* TFE_UNIMPLEMENTED: TF_SetAttrFuncName */
}

void TF_SetAttrShape(TF_OperationDescription* desc, const char* attr_name,
                     const int64_t* dims, int num_dims) {
  (void)desc, (void)attr_name, (void)dims, (void)num_dims;
  /* TFE_UNIMPLEMENTED: TF_SetAttrShape */
}

void TF_SetAttrShapeList(TF_OperationDescription* desc, const char* attr_name,
                         const int64_t* const* dims, const int* num_dims,
                         int num_shapes) {
  (void)desc, (void)attr_name, (void)dims, (void)num_dims, (void)num_shapes;
  /* TFE_UNIMPLEMENTED: TF_SetAttrShapeList */
}

void TF_SetAttrTensorShapeProto(TF_OperationDescription* desc,
                                const char* attr_name, const void* proto,
                                size_t proto_len, TF_Status* status) {
  (void)desc, (void)attr_name, (void)proto, (void)proto_len;
  TFE_UNIMPLEMENTED(status, "TF_SetAttrTensorShapeProto");
}

void TF_SetAttrTensorShapeProtoList(TF_OperationDescription* desc,
                                    const char* attr_name,
                                    const void* const* protos,
                                    const size_t* proto_lens, int num_shapes,
                                    TF_Status* status) {
  (void)desc, (void)attr_name, (void)protos, (void)proto_lens,
      (void)num_shapes;
  TFE_UNIMPLEMENTED(status, "TF_SetAttrTensorShapeProtoList");
}

void TF_SetAttrTensor(TF_OperationDescription* desc, const char* attr_name,
                      TF_Tensor* value, TF_Status* status) {
  (void)desc, (void)attr_name, (void)value;
  TFE_UNIMPLEMENTED(status, "TF_SetAttrTensor");
}

void TF_SetAttrTensorList(TF_OperationDescription* desc, const char* attr_name,
                          TF_Tensor* const* values, int num_values,
                          TF_Status* status) {
  (void)desc, (void)attr_name, (void)values, (void)num_values;
  TFE_UNIMPLEMENTED(status, "TF_SetAttrTensorList");
}

void TF_SetAttrValueProto(TF_OperationDescription* desc, const char* attr_name,
                          const void* proto, size_t proto_len,
                          TF_Status* status) {
  (void)desc, (void)attr_name, (void)proto, (void)proto_len;
  TFE_UNIMPLEMENTED(status, "TF_SetAttrValueProto");
}

TF_Operation* TF_FinishOperationLocked(TF_OperationDescription* desc,
                                       TF_Status* status) {
  (void)desc;
  TFE_UNIMPLEMENTED(status, "TF_FinishOperationLocked");
  return NULL;
}

TF_Operation* TF_FinishOperation(TF_OperationDescription* desc,
                                 TF_Status* status) {
  (void)desc;
  TFE_UNIMPLEMENTED(status, "TF_FinishOperation");
  return NULL;
}

/* ------------------------------------------------------------------------
 * Queries. */

const char* TF_OperationName(TF_Operation* oper) {
  (void)oper;
  /* TFE_UNIMPLEMENTED: TF_OperationName */
  TFE_GRAPH_WARN_ONCE("TF_OperationName");
  return NULL;
}

const char* TF_OperationOpType(TF_Operation* oper) {
  (void)oper;
  /* TFE_UNIMPLEMENTED: TF_OperationOpType */
  TFE_GRAPH_WARN_ONCE("TF_OperationOpType");
  return NULL;
}

const char* TF_OperationDevice(TF_Operation* oper) {
  (void)oper;
  /* TFE_UNIMPLEMENTED: TF_OperationDevice */
  TFE_GRAPH_WARN_ONCE("TF_OperationDevice");
  return NULL;
}

int TF_OperationNumOutputs(TF_Operation* oper) {
  (void)oper;
  /* TFE_UNIMPLEMENTED: TF_OperationNumOutputs */
  TFE_GRAPH_WARN_ONCE("TF_OperationNumOutputs");
  return 0;
}

TF_DataType TF_OperationOutputType(TF_Output oper_out) {
  (void)oper_out;
  /* TFE_UNIMPLEMENTED: TF_OperationOutputType */
  TFE_GRAPH_WARN_ONCE("TF_OperationOutputType");
  return (TF_DataType)0;
}

int TF_OperationOutputListLength(TF_Operation* oper, const char* arg_name,
                                 TF_Status* status) {
  (void)oper, (void)arg_name;
  TFE_UNIMPLEMENTED(status, "TF_OperationOutputListLength");
  return -1;
}

int TF_OperationNumInputs(TF_Operation* oper) {
  (void)oper;
  /* TFE_UNIMPLEMENTED: TF_OperationNumInputs */
  TFE_GRAPH_WARN_ONCE("TF_OperationNumInputs");
  return 0;
}

TF_DataType TF_OperationInputType(TF_Input oper_in) {
  (void)oper_in;
  /* TFE_UNIMPLEMENTED: TF_OperationInputType */
  TFE_GRAPH_WARN_ONCE("TF_OperationInputType");
  return (TF_DataType)0;
}

int TF_OperationInputListLength(TF_Operation* oper, const char* arg_name,
                                TF_Status* status) {
  (void)oper, (void)arg_name;
  TFE_UNIMPLEMENTED(status, "TF_OperationInputListLength");
  return -1;
}

TF_Output TF_OperationInput(TF_Input oper_in) {
  TF_Output none = {NULL, 0};
  (void)oper_in;
  /* TFE_UNIMPLEMENTED: TF_OperationInput */
  TFE_GRAPH_WARN_ONCE("TF_OperationInput");
  return none;
}

void TF_OperationAllInputs(TF_Operation* oper, TF_Output* inputs,
                           int max_inputs) {
  (void)oper, (void)inputs, (void)max_inputs;
  /* TFE_UNIMPLEMENTED: TF_OperationAllInputs */
  TFE_GRAPH_WARN_ONCE("TF_OperationAllInputs");
}

int TF_OperationOutputNumConsumers(TF_Output oper_out) {
  (void)oper_out;
  /* TFE_UNIMPLEMENTED: TF_OperationOutputNumConsumers */
  TFE_GRAPH_WARN_ONCE("TF_OperationOutputNumConsumers");
  return 0;
}

int TF_OperationOutputConsumers(TF_Output oper_out, TF_Input* consumers,
                                int max_consumers) {
  (void)oper_out, (void)consumers, (void)max_consumers;
  /* TFE_UNIMPLEMENTED: TF_OperationOutputConsumers */
  TFE_GRAPH_WARN_ONCE("TF_OperationOutputConsumers");
  return 0;
}

int TF_OperationNumControlInputs(TF_Operation* oper) {
  (void)oper;
  /* TFE_UNIMPLEMENTED: TF_OperationNumControlInputs */
  TFE_GRAPH_WARN_ONCE("TF_OperationNumControlInputs");
  return 0;
}

int TF_OperationGetControlInputs(TF_Operation* oper,
                                 TF_Operation** control_inputs,
                                 int max_control_inputs) {
  (void)oper, (void)control_inputs, (void)max_control_inputs;
  /* TFE_UNIMPLEMENTED: TF_OperationGetControlInputs */
  TFE_GRAPH_WARN_ONCE("TF_OperationGetControlInputs");
  return 0;
}

int TF_OperationNumControlOutputs(TF_Operation* oper) {
  (void)oper;
  /* TFE_UNIMPLEMENTED: TF_OperationNumControlOutputs */
  TFE_GRAPH_WARN_ONCE("TF_OperationNumControlOutputs");
  return 0;
}

int TF_OperationGetControlOutputs(TF_Operation* oper,
                                  TF_Operation** control_outputs,
                                  int max_control_outputs) {
  (void)oper, (void)control_outputs, (void)max_control_outputs;
  /* TFE_UNIMPLEMENTED: TF_OperationGetControlOutputs */
  TFE_GRAPH_WARN_ONCE("TF_OperationGetControlOutputs");
  return 0;
}

/* ------------------------------------------------------------------------
 * Attribute readers. */

TF_AttrMetadata TF_OperationGetAttrMetadata(TF_Operation* oper,
                                            const char* attr_name,
                                            TF_Status* status) {
  TF_AttrMetadata m;
  (void)oper, (void)attr_name;
  memset(&m, 0, sizeof(m));
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrMetadata");
  return m;
}

void TF_OperationGetAttrString(TF_Operation* oper, const char* attr_name,
                               void* value, size_t max_length,
                               TF_Status* status) {
  (void)oper, (void)attr_name, (void)value, (void)max_length;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrString");
}

void TF_OperationGetAttrStringList(TF_Operation* oper, const char* attr_name,
                                   void** values, size_t* lengths,
                                   int max_values, void* storage,
                                   size_t storage_size, TF_Status* status) {
  (void)oper, (void)attr_name, (void)values, (void)lengths, (void)max_values,
      (void)storage, (void)storage_size;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrStringList");
}

void TF_OperationGetAttrInt(TF_Operation* oper, const char* attr_name,
                            int64_t* value, TF_Status* status) {
  (void)oper, (void)attr_name, (void)value;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrInt");
}

void TF_OperationGetAttrIntList(TF_Operation* oper, const char* attr_name,
                                int64_t* values, int max_values,
                                TF_Status* status) {
  (void)oper, (void)attr_name, (void)values, (void)max_values;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrIntList");
}

void TF_OperationGetAttrFloat(TF_Operation* oper, const char* attr_name,
                              float* value, TF_Status* status) {
  (void)oper, (void)attr_name, (void)value;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrFloat");
}

void TF_OperationGetAttrFloatList(TF_Operation* oper, const char* attr_name,
                                  float* values, int max_values,
                                  TF_Status* status) {
  (void)oper, (void)attr_name, (void)values, (void)max_values;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrFloatList");
}

void TF_OperationGetAttrBool(TF_Operation* oper, const char* attr_name,
                             unsigned char* value, TF_Status* status) {
  (void)oper, (void)attr_name, (void)value;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrBool");
}

void TF_OperationGetAttrBoolList(TF_Operation* oper, const char* attr_name,
                                 unsigned char* values, int max_values,
                                 TF_Status* status) {
  (void)oper, (void)attr_name, (void)values, (void)max_values;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrBoolList");
}

void TF_OperationGetAttrType(TF_Operation* oper, const char* attr_name,
                             TF_DataType* value, TF_Status* status) {
  (void)oper, (void)attr_name, (void)value;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrType");
}

void TF_OperationGetAttrTypeList(TF_Operation* oper, const char* attr_name,
                                 TF_DataType* values, int max_values,
                                 TF_Status* status) {
  (void)oper, (void)attr_name, (void)values, (void)max_values;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrTypeList");
}

void TF_OperationGetAttrShape(TF_Operation* oper, const char* attr_name,
                              int64_t* value, int num_dims,
                              TF_Status* status) {
  (void)oper, (void)attr_name, (void)value, (void)num_dims;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrShape");
}

void TF_OperationGetAttrShapeList(TF_Operation* oper, const char* attr_name,
                                  int64_t** dims, int* num_dims,
                                  int num_shapes, int64_t* storage,
                                  int storage_size, TF_Status* status) {
  (void)oper, (void)attr_name, (void)dims, (void)num_dims, (void)num_shapes,
      (void)storage, (void)storage_size;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrShapeList");
}

void TF_OperationGetAttrTensorShapeProto(TF_Operation* oper,
                                         const char* attr_name,
                                         TF_Buffer* value, TF_Status* status) {
  (void)oper, (void)attr_name, (void)value;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrTensorShapeProto");
}

void TF_OperationGetAttrTensorShapeProtoList(TF_Operation* oper,
                                             const char* attr_name,
                                             TF_Buffer** values,
                                             int max_values,
                                             TF_Status* status) {
  (void)oper, (void)attr_name, (void)values, (void)max_values;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrTensorShapeProtoList");
}

void TF_OperationGetAttrTensor(TF_Operation* oper, const char* attr_name,
                               TF_Tensor** value, TF_Status* status) {
  (void)oper, (void)attr_name, (void)value;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrTensor");
}

void TF_OperationGetAttrTensorList(TF_Operation* oper, const char* attr_name,
                                   TF_Tensor** values, int max_values,
                                   TF_Status* status) {
  (void)oper, (void)attr_name, (void)values, (void)max_values;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrTensorList");
}

void TF_OperationGetAttrValueProto(TF_Operation* oper, const char* attr_name,
                                   TF_Buffer* output_attr_value,
                                   TF_Status* status) {
  (void)oper, (void)attr_name, (void)output_attr_value;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrValueProto");
}

int TF_OperationGetNumAttrs(TF_Operation* oper) {
  (void)oper;
  /* TFE_UNIMPLEMENTED: TF_OperationGetNumAttrs */
  TFE_GRAPH_WARN_ONCE("TF_OperationGetNumAttrs");
  return 0;
}

int TF_OperationGetAttrNameLength(TF_Operation* oper, int i) {
  (void)oper, (void)i;
  /* TFE_UNIMPLEMENTED: TF_OperationGetAttrNameLength */
  TFE_GRAPH_WARN_ONCE("TF_OperationGetAttrNameLength");
  return -1;
}

void TF_OperationGetAttrName(TF_Operation* oper, int i, char* output,
                             TF_Status* status) {
  (void)oper, (void)i, (void)output;
  TFE_UNIMPLEMENTED(status, "TF_OperationGetAttrName");
}

void TF_OperationToNodeDef(TF_Operation* oper, TF_Buffer* output_node_def,
                           TF_Status* status) {
  (void)oper, (void)output_node_def;
  TFE_UNIMPLEMENTED(status, "TF_OperationToNodeDef");
}
