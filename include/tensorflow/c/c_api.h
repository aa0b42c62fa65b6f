/* tfe: the main TensorFlow C API header.
 *
 * It brings in the core types (status, tensors, buffers, strings, data and
 * attribute types) and declares the library-level functions and the whole
 * of TensorFlow's graph and session API. tfe implements that API (graphs,
 * sessions, functions, while loops, gradients, GraphDef import/export);
 * the few deliberate TF_UNIMPLEMENTED stubs are noted where they are
 * declared, and docs/COVERAGE.md lists every function's status. */
#ifndef TENSORFLOW_C_C_API_H_
#define TENSORFLOW_C_C_API_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_attrtype.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_datatype.h"
#include "tensorflow/c/tf_status.h"
#include "tensorflow/c/tf_tensor.h"
#include "tensorflow/c/tf_tstring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The TensorFlow release whose C API this library implements, e.g.
 * "2.21.0". Static storage; never free it. */
TF_CAPI_EXPORT extern const char* TF_Version(void);

/* ========================================================================
 * Graph and session API (TensorFlow 1.x style graph construction).
 *
 * Declared with TensorFlow's exact names, signatures and struct layouts.
 * tfe builds, imports, exports, differentiates and runs graphs in-process
 * (local target only). Failures are reported through TF_Status with TF's
 * codes; functions without a status return NULL/0/-1 for bad arguments.
 * Every Delete function accepts NULL. The deliberate stubs in this header
 * (ApiDef maps, servers, TF_RegisterLogListener and
 * TF_GraphImportGraphDefWithResultsNoSerialization) report
 * TF_UNIMPLEMENTED naming themselves, or log a warning once when they
 * have no status.
 * ======================================================================== */

/* ------------------------------------------------------------------------
 * Session options. */

/* Settings for creating a session: a target string and a serialized
 * tensorflow.ConfigProto. */
typedef struct TF_SessionOptions TF_SessionOptions;

/* New options with an empty target and an empty config. The caller owns
 * the result and releases it with TF_DeleteSessionOptions. NULL only when
 * memory runs out. */
TF_CAPI_EXPORT extern TF_SessionOptions* TF_NewSessionOptions(void);

/* Stores a copy of `target` ("" or "local" for in-process, otherwise
 * "host:port" entries separated by commas; a NULL target counts as "").
 * The caller keeps `target`. NULL options: nothing happens. If the copy
 * cannot be allocated the previous target is kept. */
TF_CAPI_EXPORT extern void TF_SetTarget(TF_SessionOptions* options,
                                        const char* target);

/* Stores a copy of `proto_len` bytes at `proto`, a serialized
 * tensorflow.ConfigProto; the caller keeps the bytes. The bytes are checked
 * to be well-formed protobuf wire format: anything else (truncated fields,
 * field number 0, bad wire types) gives TF_INVALID_ARGUMENT and leaves the
 * options unchanged. NULL options, or NULL proto with a non-zero length:
 * TF_INVALID_ARGUMENT. Out of memory: TF_RESOURCE_EXHAUSTED. */
TF_CAPI_EXPORT extern void TF_SetConfig(TF_SessionOptions* options,
                                        const void* proto, size_t proto_len,
                                        TF_Status* status);

/* Releases options created by TF_NewSessionOptions. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteSessionOptions(TF_SessionOptions*);

/* ------------------------------------------------------------------------
 * Graphs and operations. */

/* A computation graph. It owns its operations and the functions copied
 * into it; sessions keep a reference to it. */
typedef struct TF_Graph TF_Graph;

/* New empty graph, owned by the caller (release with TF_DeleteGraph). NULL
 * only when memory runs out. */
TF_CAPI_EXPORT extern TF_Graph* TF_NewGraph(void);

/* Releases a graph. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteGraph(TF_Graph*);

/* An operation under construction (between TF_NewOperation and
 * TF_FinishOperation). */
typedef struct TF_OperationDescription TF_OperationDescription;

/* An operation of a graph; in TF it lives as long as its graph. */
typedef struct TF_Operation TF_Operation;

/* One input of an operation: the operation and the input's position. */
typedef struct TF_Input {
  TF_Operation* oper;
  int index;
} TF_Input;

/* One output of an operation: the operation and the output's position. */
typedef struct TF_Output {
  TF_Operation* oper;
  int index;
} TF_Output;

#ifndef TFE_TYPEDEF_TF_FUNCTION
#define TFE_TYPEDEF_TF_FUNCTION
/* A graph function: a named subgraph with declared inputs and outputs. */
typedef struct TF_Function TF_Function;
#endif

/* Options for building a function (TF defines no fields either). */
typedef struct TF_FunctionOptions TF_FunctionOptions;

/* Shape of a graph tensor. Setting merges with the inferred shape
 * (incompatible shapes give TF_INVALID_ARGUMENT); reading gives -1 dims
 * (or -1 entries) where the shape is unknown. The caller owns `dims`. */
TF_CAPI_EXPORT extern void TF_GraphSetTensorShape(TF_Graph* graph,
                                                  TF_Output output,
                                                  const int64_t* dims,
                                                  const int num_dims,
                                                  TF_Status* status);
TF_CAPI_EXPORT extern int TF_GraphGetTensorNumDims(TF_Graph* graph,
                                                   TF_Output output,
                                                   TF_Status* status);
TF_CAPI_EXPORT extern void TF_GraphGetTensorShape(TF_Graph* graph,
                                                  TF_Output output,
                                                  int64_t* dims, int num_dims,
                                                  TF_Status* status);

/* Start describing a new operation of type `op_type` named `oper_name`
 * (the Locked variant expects the caller to hold the graph's lock). In TF
 * the description is consumed by TF_FinishOperation, which must be called
 * exactly once for it; every setter below ignores a NULL description. */
TF_CAPI_EXPORT extern TF_OperationDescription* TF_NewOperationLocked(
    TF_Graph* graph, const char* op_type, const char* oper_name);
TF_CAPI_EXPORT extern TF_OperationDescription* TF_NewOperation(
    TF_Graph* graph, const char* op_type, const char* oper_name);

/* Description setters: device, inputs (single tensors with TF_AddInput,
 * list arguments with TF_AddInputList), control inputs and colocation.
 * The caller keeps every argument. */
TF_CAPI_EXPORT extern void TF_SetDevice(TF_OperationDescription* desc,
                                        const char* device);
TF_CAPI_EXPORT extern void TF_AddInput(TF_OperationDescription* desc,
                                       TF_Output input);
TF_CAPI_EXPORT extern void TF_AddInputList(TF_OperationDescription* desc,
                                           const TF_Output* inputs,
                                           int num_inputs);
TF_CAPI_EXPORT extern void TF_AddControlInput(TF_OperationDescription* desc,
                                              TF_Operation* input);
TF_CAPI_EXPORT extern void TF_ColocateWith(TF_OperationDescription* desc,
                                           TF_Operation* op);

/* Attribute setters of a description. Strings are given as pointer plus
 * length; shapes as rank plus dims (rank -1: unknown, dim -1: unknown);
 * the caller keeps every argument. Errors in a value (bad proto, wrong
 * kind) are reported by the setter's status or by TF_FinishOperation. */
TF_CAPI_EXPORT extern void TF_SetAttrString(TF_OperationDescription* desc,
                                            const char* attr_name,
                                            const void* value, size_t length);
TF_CAPI_EXPORT extern void TF_SetAttrStringList(TF_OperationDescription* desc,
                                                const char* attr_name,
                                                const void* const* values,
                                                const size_t* lengths,
                                                int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrInt(TF_OperationDescription* desc,
                                         const char* attr_name, int64_t value);
TF_CAPI_EXPORT extern void TF_SetAttrIntList(TF_OperationDescription* desc,
                                             const char* attr_name,
                                             const int64_t* values,
                                             int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrFloat(TF_OperationDescription* desc,
                                           const char* attr_name, float value);
TF_CAPI_EXPORT extern void TF_SetAttrFloatList(TF_OperationDescription* desc,
                                               const char* attr_name,
                                               const float* values,
                                               int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrBool(TF_OperationDescription* desc,
                                          const char* attr_name,
                                          unsigned char value);
TF_CAPI_EXPORT extern void TF_SetAttrBoolList(TF_OperationDescription* desc,
                                              const char* attr_name,
                                              const unsigned char* values,
                                              int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrType(TF_OperationDescription* desc,
                                          const char* attr_name,
                                          TF_DataType value);
TF_CAPI_EXPORT extern void TF_SetAttrTypeList(TF_OperationDescription* desc,
                                              const char* attr_name,
                                              const TF_DataType* values,
                                              int num_values);
TF_CAPI_EXPORT extern void TF_SetAttrPlaceholder(TF_OperationDescription* desc,
                                                 const char* attr_name,
                                                 const char* placeholder);
TF_CAPI_EXPORT extern void TF_SetAttrFuncName(TF_OperationDescription* desc,
                                              const char* attr_name,
                                              const char* value, size_t length);
TF_CAPI_EXPORT extern void TF_SetAttrShape(TF_OperationDescription* desc,
                                           const char* attr_name,
                                           const int64_t* dims, int num_dims);
TF_CAPI_EXPORT extern void TF_SetAttrShapeList(TF_OperationDescription* desc,
                                               const char* attr_name,
                                               const int64_t* const* dims,
                                               const int* num_dims,
                                               int num_shapes);
TF_CAPI_EXPORT extern void TF_SetAttrTensorShapeProto(
    TF_OperationDescription* desc, const char* attr_name, const void* proto,
    size_t proto_len, TF_Status* status);
TF_CAPI_EXPORT extern void TF_SetAttrTensorShapeProtoList(
    TF_OperationDescription* desc, const char* attr_name,
    const void* const* protos, const size_t* proto_lens, int num_shapes,
    TF_Status* status);
TF_CAPI_EXPORT extern void TF_SetAttrTensor(TF_OperationDescription* desc,
                                            const char* attr_name,
                                            TF_Tensor* value,
                                            TF_Status* status);
TF_CAPI_EXPORT extern void TF_SetAttrTensorList(TF_OperationDescription* desc,
                                                const char* attr_name,
                                                TF_Tensor* const* values,
                                                int num_values,
                                                TF_Status* status);
TF_CAPI_EXPORT extern void TF_SetAttrValueProto(TF_OperationDescription* desc,
                                                const char* attr_name,
                                                const void* proto,
                                                size_t proto_len,
                                                TF_Status* status);

/* Adds the described operation to its graph and consumes the description
 * (the Locked variant expects the graph's lock held), also on failure.
 * Returns the new operation, owned by the graph, or NULL with the error
 * (unknown op, bad inputs or attrs, shape-inference failure). */
TF_CAPI_EXPORT extern TF_Operation* TF_FinishOperationLocked(
    TF_OperationDescription* desc, TF_Status* status);
TF_CAPI_EXPORT extern TF_Operation* TF_FinishOperation(
    TF_OperationDescription* desc, TF_Status* status);

/* Operation queries. Returned strings and operations belong to the graph
 * and live as long as it; arrays are provided by the caller. Functions
 * without a status return NULL, 0 (counts) or -1 (lengths) for NULL or
 * out-of-range arguments. */
TF_CAPI_EXPORT extern const char* TF_OperationName(TF_Operation* oper);
TF_CAPI_EXPORT extern const char* TF_OperationOpType(TF_Operation* oper);
TF_CAPI_EXPORT extern const char* TF_OperationDevice(TF_Operation* oper);

TF_CAPI_EXPORT extern int TF_OperationNumOutputs(TF_Operation* oper);
TF_CAPI_EXPORT extern TF_DataType TF_OperationOutputType(TF_Output oper_out);
TF_CAPI_EXPORT extern int TF_OperationOutputListLength(TF_Operation* oper,
                                                       const char* arg_name,
                                                       TF_Status* status);

TF_CAPI_EXPORT extern int TF_OperationNumInputs(TF_Operation* oper);
TF_CAPI_EXPORT extern TF_DataType TF_OperationInputType(TF_Input oper_in);
TF_CAPI_EXPORT extern int TF_OperationInputListLength(TF_Operation* oper,
                                                      const char* arg_name,
                                                      TF_Status* status);

/* The output feeding input `oper_in`. */
TF_CAPI_EXPORT extern TF_Output TF_OperationInput(TF_Input oper_in);

/* Fills inputs[0..max_inputs) with the producers of oper's inputs. */
TF_CAPI_EXPORT extern void TF_OperationAllInputs(TF_Operation* oper,
                                                 TF_Output* inputs,
                                                 int max_inputs);

/* Consumers of an output; the second fills consumers[0..max_consumers) and
 * returns the total number of consumers. */
TF_CAPI_EXPORT extern int TF_OperationOutputNumConsumers(TF_Output oper_out);
TF_CAPI_EXPORT extern int TF_OperationOutputConsumers(TF_Output oper_out,
                                                      TF_Input* consumers,
                                                      int max_consumers);

/* Control edges into and out of an operation; the Get variants fill an
 * array the caller provides and return the total count. */
TF_CAPI_EXPORT extern int TF_OperationNumControlInputs(TF_Operation* oper);
TF_CAPI_EXPORT extern int TF_OperationGetControlInputs(
    TF_Operation* oper, TF_Operation** control_inputs, int max_control_inputs);
TF_CAPI_EXPORT extern int TF_OperationNumControlOutputs(TF_Operation* oper);
TF_CAPI_EXPORT extern int TF_OperationGetControlOutputs(
    TF_Operation* oper, TF_Operation** control_outputs,
    int max_control_outputs);

/* What an attribute of an operation holds, so callers can size the
 * buffers of the TF_OperationGetAttr* functions. */
typedef struct TF_AttrMetadata {
  /* 1 when the value is a list, 0 for a single value. */
  unsigned char is_list;
  /* Number of list elements (meaningful only when is_list is 1). */
  int64_t list_size;
  /* Type of the value, or of the list's elements. */
  TF_AttrType type;
  /* For strings: total bytes (of all strings when a list). For shapes:
   * the rank, -1 when unknown (the sum of ranks when a list). Otherwise
   * not meaningful. */
  int64_t total_size;
} TF_AttrMetadata;

/* Attribute readers of an operation. Output arrays are provided by the
 * caller, sized from TF_OperationGetAttrMetadata; tensors returned by the
 * Tensor variants and buffers filled by the proto variants belong to the
 * caller. An attribute the operation lacks gives TF_INVALID_ARGUMENT. */
TF_CAPI_EXPORT extern TF_AttrMetadata TF_OperationGetAttrMetadata(
    TF_Operation* oper, const char* attr_name, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrString(TF_Operation* oper,
                                                     const char* attr_name,
                                                     void* value,
                                                     size_t max_length,
                                                     TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrStringList(
    TF_Operation* oper, const char* attr_name, void** values, size_t* lengths,
    int max_values, void* storage, size_t storage_size, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrInt(TF_Operation* oper,
                                                  const char* attr_name,
                                                  int64_t* value,
                                                  TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrIntList(TF_Operation* oper,
                                                      const char* attr_name,
                                                      int64_t* values,
                                                      int max_values,
                                                      TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrFloat(TF_Operation* oper,
                                                    const char* attr_name,
                                                    float* value,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrFloatList(TF_Operation* oper,
                                                        const char* attr_name,
                                                        float* values,
                                                        int max_values,
                                                        TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrBool(TF_Operation* oper,
                                                   const char* attr_name,
                                                   unsigned char* value,
                                                   TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrBoolList(TF_Operation* oper,
                                                       const char* attr_name,
                                                       unsigned char* values,
                                                       int max_values,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrType(TF_Operation* oper,
                                                   const char* attr_name,
                                                   TF_DataType* value,
                                                   TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTypeList(TF_Operation* oper,
                                                       const char* attr_name,
                                                       TF_DataType* values,
                                                       int max_values,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrShape(TF_Operation* oper,
                                                    const char* attr_name,
                                                    int64_t* value,
                                                    int num_dims,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrShapeList(
    TF_Operation* oper, const char* attr_name, int64_t** dims, int* num_dims,
    int num_shapes, int64_t* storage, int storage_size, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorShapeProto(
    TF_Operation* oper, const char* attr_name, TF_Buffer* value,
    TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorShapeProtoList(
    TF_Operation* oper, const char* attr_name, TF_Buffer** values,
    int max_values, TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensor(TF_Operation* oper,
                                                     const char* attr_name,
                                                     TF_Tensor** value,
                                                     TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrTensorList(TF_Operation* oper,
                                                         const char* attr_name,
                                                         TF_Tensor** values,
                                                         int max_values,
                                                         TF_Status* status);
TF_CAPI_EXPORT extern void TF_OperationGetAttrValueProto(
    TF_Operation* oper, const char* attr_name, TF_Buffer* output_attr_value,
    TF_Status* status);

/* Attribute names of an operation by position (-1 length for a bad
 * index); TF_OperationGetAttrName copies into a caller buffer of at least
 * TF_OperationGetAttrNameLength + 1 bytes. */
TF_CAPI_EXPORT extern int TF_OperationGetNumAttrs(TF_Operation* oper);
TF_CAPI_EXPORT extern int TF_OperationGetAttrNameLength(TF_Operation* oper,
                                                        int i);
TF_CAPI_EXPORT extern void TF_OperationGetAttrName(TF_Operation* oper, int i,
                                                   char* output,
                                                   TF_Status* status);

/* Finding and walking a graph's operations (NULL when there is none;
 * `*pos` is the caller's cursor, start it at 0). */
TF_CAPI_EXPORT extern TF_Operation* TF_GraphOperationByName(
    TF_Graph* graph, const char* oper_name);
TF_CAPI_EXPORT extern TF_Operation* TF_GraphNextOperation(TF_Graph* graph,
                                                          size_t* pos);

/* Serialized GraphDef, OpDef and VersionDef of a graph, written into a
 * buffer the caller allocated with TF_NewBuffer (and later releases with
 * TF_DeleteBuffer); any previous contents of the buffer are replaced. */
TF_CAPI_EXPORT extern void TF_GraphToGraphDef(TF_Graph* graph,
                                              TF_Buffer* output_graph_def,
                                              TF_Status* status);
TF_CAPI_EXPORT extern void TF_GraphGetOpDef(TF_Graph* graph,
                                            const char* op_name,
                                            TF_Buffer* output_op_def,
                                            TF_Status* status);
TF_CAPI_EXPORT extern void TF_GraphVersions(TF_Graph* graph,
                                            TF_Buffer* output_version_def,
                                            TF_Status* status);

/* ------------------------------------------------------------------------
 * Importing serialized graphs. */

/* Options for TF_GraphImportGraphDef and friends. These work in tfe: the
 * setters copy their strings (the caller keeps its own), and the counters
 * report what was added. A NULL `opts` makes every setter a no-op and
 * every counter return 0; a NULL name is ignored. */
typedef struct TF_ImportGraphDefOptions TF_ImportGraphDefOptions;

/* New options (no prefix, no default device, no mappings), owned by the
 * caller; release with TF_DeleteImportGraphDefOptions. NULL only when
 * memory runs out. */
TF_CAPI_EXPORT extern TF_ImportGraphDefOptions* TF_NewImportGraphDefOptions(
    void);
/* Releases options and every string they copied. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteImportGraphDefOptions(
    TF_ImportGraphDefOptions* opts);

/* Prefix for the names of imported operations (NULL clears it). */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetPrefix(
    TF_ImportGraphDefOptions* opts, const char* prefix);

/* Device for imported operations that do not name one (NULL clears it). */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetDefaultDevice(
    TF_ImportGraphDefOptions* opts, const char* device);

/* Whether clashing imported names are made unique (otherwise an error).
 * Default 0. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetUniquifyNames(
    TF_ImportGraphDefOptions* opts, unsigned char uniquify_names);

/* Whether a prefix already used in the graph is made unique (otherwise an
 * error). Default 0. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsSetUniquifyPrefix(
    TF_ImportGraphDefOptions* opts, unsigned char uniquify_prefix);

/* Replace imported uses of `src_name:src_index` by the existing `dst`. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddInputMapping(
    TF_ImportGraphDefOptions* opts, const char* src_name, int src_index,
    TF_Output dst);

/* Replace imported control inputs on `src_name` by the existing `dst`. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsRemapControlDependency(
    TF_ImportGraphDefOptions* opts, const char* src_name, TF_Operation* dst);

/* Make every imported operation depend on the existing `oper`. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddControlDependency(
    TF_ImportGraphDefOptions* opts, TF_Operation* oper);

/* Ask for output `oper_name:index` of the imported graph to be returned. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddReturnOutput(
    TF_ImportGraphDefOptions* opts, const char* oper_name, int index);

/* Number of outputs requested with TF_ImportGraphDefOptionsAddReturnOutput. */
TF_CAPI_EXPORT extern int TF_ImportGraphDefOptionsNumReturnOutputs(
    const TF_ImportGraphDefOptions* opts);

/* Ask for the imported operation `oper_name` to be returned. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefOptionsAddReturnOperation(
    TF_ImportGraphDefOptions* opts, const char* oper_name);

/* Number of operations requested with
 * TF_ImportGraphDefOptionsAddReturnOperation. */
TF_CAPI_EXPORT extern int TF_ImportGraphDefOptionsNumReturnOperations(
    const TF_ImportGraphDefOptions* opts);

/* What an import returned (returned outputs/operations and unused input
 * mappings). Created by the WithResults import functions; the caller owns
 * it. */
typedef struct TF_ImportGraphDefResults TF_ImportGraphDefResults;

/* Accessors for import results. Every array they hand out belongs to
 * `results` and lives as long as it. For NULL results they report zero
 * entries and NULL arrays. */
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsReturnOutputs(
    TF_ImportGraphDefResults* results, int* num_outputs, TF_Output** outputs);
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsReturnOperations(
    TF_ImportGraphDefResults* results, int* num_opers, TF_Operation*** opers);
TF_CAPI_EXPORT extern void TF_ImportGraphDefResultsMissingUnusedInputMappings(
    TF_ImportGraphDefResults* results, int* num_missing_unused_input_mappings,
    const char*** src_names, int** src_indexes);

/* Releases import results. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteImportGraphDefResults(
    TF_ImportGraphDefResults* results);

/* Import a serialized GraphDef into `graph`. The WithResults variants
 * return results owned by the caller (TF_DeleteImportGraphDefResults).
 * On failure the graph is unchanged and NULL is returned.
 * TF_GraphImportGraphDefWithResultsNoSerialization is a deliberate tfe stub
 * (TF_UNIMPLEMENTED); use TF_GraphImportGraphDefWithResults. */
TF_CAPI_EXPORT extern TF_ImportGraphDefResults*
TF_GraphImportGraphDefWithResults(TF_Graph* graph, const TF_Buffer* graph_def,
                                  const TF_ImportGraphDefOptions* options,
                                  TF_Status* status);
TF_CAPI_EXPORT extern TF_ImportGraphDefResults*
TF_GraphImportGraphDefWithResultsNoSerialization(
    TF_Graph* graph, const TF_Buffer* graph_def,
    const TF_ImportGraphDefOptions* options, TF_Status* status);
TF_CAPI_EXPORT extern void TF_GraphImportGraphDefWithReturnOutputs(
    TF_Graph* graph, const TF_Buffer* graph_def,
    const TF_ImportGraphDefOptions* options, TF_Output* return_outputs,
    int num_return_outputs, TF_Status* status);
TF_CAPI_EXPORT extern void TF_GraphImportGraphDef(
    TF_Graph* graph, const TF_Buffer* graph_def,
    const TF_ImportGraphDefOptions* options, TF_Status* status);

/* ------------------------------------------------------------------------
 * Functions, while loops and gradients in graphs. */

/* Copy `func` (and optionally its gradient `grad`) into `g`; the caller
 * keeps both (the graph stores its own copies). */
TF_CAPI_EXPORT extern void TF_GraphCopyFunction(TF_Graph* g,
                                                const TF_Function* func,
                                                const TF_Function* grad,
                                                TF_Status* status);

/* Number of functions in `g`'s library (0 for NULL). */
TF_CAPI_EXPORT extern int TF_GraphNumFunctions(TF_Graph* g);

/* Fills funcs[0..max_func) with new TF_Function objects the caller owns
 * (TF_DeleteFunction each) and returns how many. */
TF_CAPI_EXPORT extern int TF_GraphGetFunctions(TF_Graph* g, TF_Function** funcs,
                                               int max_func, TF_Status* status);

/* Serialized NodeDef of an operation into a caller-owned buffer. */
TF_CAPI_EXPORT extern void TF_OperationToNodeDef(TF_Operation* oper,
                                                 TF_Buffer* output_node_def,
                                                 TF_Status* status);

/* Parameters of a while loop under construction (see TF_NewWhile). The
 * layout, const members included, is TensorFlow's. */
typedef struct TF_WhileParams {
  /* Number of loop variables: the length of every array below. */
  const int ninputs;

  /* Condition subgraph: its inputs are the loop variables, its output a
   * scalar bool the caller stores in cond_output. */
  TF_Graph* const cond_graph;
  const TF_Output* const cond_inputs;
  TF_Output cond_output;

  /* Body subgraph: inputs are the loop variables, the caller stores the
   * updated values in body_outputs (an array owned by the params). */
  TF_Graph* const body_graph;
  const TF_Output* const body_inputs;
  TF_Output* const body_outputs;

  /* Unique name, used as the prefix of the loop's operations. */
  const char* name;
} TF_WhileParams;

/* Starts a while loop over `inputs` in `g`. On success the caller must
 * finish it with TF_FinishWhile or drop it with TF_AbortWhile (both free
 * the params' subgraphs and arrays). On failure the params are all zero
 * and must not be passed to either. */
#ifndef TFE_CFFI_CDEF /* cffi cannot return a struct with const members */
TF_CAPI_EXPORT extern TF_WhileParams TF_NewWhile(TF_Graph* g, TF_Output* inputs,
                                                 int ninputs,
                                                 TF_Status* status);
#endif

/* Builds the loop into the outer graph and writes params->ninputs outputs
 * into the caller's `outputs`; the params are released either way. */
TF_CAPI_EXPORT extern void TF_FinishWhile(const TF_WhileParams* params,
                                          TF_Status* status,
                                          TF_Output* outputs);

/* Releases what TF_NewWhile allocated without building the loop. */
TF_CAPI_EXPORT extern void TF_AbortWhile(const TF_WhileParams* params);

/* Adds the operations that compute d(sum of y)/dx for each x, writing nx
 * outputs into `dy`; `dx` (NULL or ny entries) seeds the gradients, and
 * `prefix` (NULL: "gradients") names the new operations. An op without a
 * registered gradient gives an error naming it. TF declares these two
 * without `extern`. */
TF_CAPI_EXPORT extern void TF_AddGradients(TF_Graph* g, TF_Output* y, int ny,
                                           TF_Output* x, int nx, TF_Output* dx,
                                           TF_Status* status, TF_Output* dy);
TF_CAPI_EXPORT extern void TF_AddGradientsWithPrefix(
    TF_Graph* g, const char* prefix, TF_Output* y, int ny, TF_Output* x,
    int nx, TF_Output* dx, TF_Status* status, TF_Output* dy);

/* Turns (part of) a graph into a function owned by the caller
 * (TF_DeleteFunction); NULL with the error on failure. */
TF_CAPI_EXPORT extern TF_Function* TF_GraphToFunction(
    const TF_Graph* fn_body, const char* fn_name,
    unsigned char append_hash_to_fn_name, int num_opers,
    const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    const TF_FunctionOptions* opts, const char* description, TF_Status* status);
TF_CAPI_EXPORT extern TF_Function* TF_GraphToFunctionWithControlOutputs(
    const TF_Graph* fn_body, const char* fn_name,
    unsigned char append_hash_to_fn_name, int num_opers,
    const TF_Operation* const* opers, int ninputs, const TF_Output* inputs,
    int noutputs, const TF_Output* outputs, const char* const* output_names,
    int ncontrol_outputs, const TF_Operation* const* control_outputs,
    const char* const* control_output_names, const TF_FunctionOptions* opts,
    const char* description, TF_Status* status);

/* Name of a function, owned by it (NULL for NULL). */
TF_CAPI_EXPORT extern const char* TF_FunctionName(TF_Function* func);

/* Serialized FunctionDef into a caller-owned buffer. */
TF_CAPI_EXPORT extern void TF_FunctionToFunctionDef(TF_Function* func,
                                                    TF_Buffer* output_func_def,
                                                    TF_Status* status);

/* A new function (owned by the caller) from a serialized FunctionDef.
 * The caller keeps the bytes; NULL with the error for a malformed proto. */
TF_CAPI_EXPORT extern TF_Function* TF_FunctionImportFunctionDef(
    const void* proto, size_t proto_len, TF_Status* status);

/* Set or read a function attribute as a serialized AttrValue (the caller
 * keeps the input bytes and owns the output buffer). */
TF_CAPI_EXPORT extern void TF_FunctionSetAttrValueProto(TF_Function* func,
                                                        const char* attr_name,
                                                        const void* proto,
                                                        size_t proto_len,
                                                        TF_Status* status);
TF_CAPI_EXPORT extern void TF_FunctionGetAttrValueProto(
    TF_Function* func, const char* attr_name, TF_Buffer* output_attr_value,
    TF_Status* status);

/* Releases a function. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteFunction(TF_Function* func);

/* Tries to compute `output` without running a session; on success returns
 * 1 and a tensor the caller owns in *result. Returns 0 (and leaves
 * *result alone) when the value depends on feeds or stateful ops. */
TF_CAPI_EXPORT extern unsigned char TF_TryEvaluateConstant(TF_Graph* graph,
                                                           TF_Output output,
                                                           TF_Tensor** result,
                                                           TF_Status* status);

/* ------------------------------------------------------------------------
 * Sessions. */

/* Runs a graph in-process; holds a reference to the graph. */
typedef struct TF_Session TF_Session;

/* New session over `graph` (the caller keeps graph and options), owned by
 * the caller (TF_CloseSession, then TF_DeleteSession). Only a local target
 * is supported. */
TF_CAPI_EXPORT extern TF_Session* TF_NewSession(TF_Graph* graph,
                                                const TF_SessionOptions* opts,
                                                TF_Status* status);

/* New session loaded from the SavedModel at `export_dir` (graph filled in,
 * MetaGraphDef written to `meta_graph_def` when not NULL), owned by the
 * caller; NULL with the error on failure. */
TF_CAPI_EXPORT extern TF_Session* TF_LoadSessionFromSavedModel(
    const TF_SessionOptions* session_options, const TF_Buffer* run_options,
    const char* export_dir, const char* const* tags, int tags_len,
    TF_Graph* graph, TF_Buffer* meta_graph_def, TF_Status* status);

/* Closes a session; later runs fail. */
TF_CAPI_EXPORT extern void TF_CloseSession(TF_Session*, TF_Status* status);

/* Releases a session. NULL is a no-op and leaves `status` TF_OK. */
TF_CAPI_EXPORT extern void TF_DeleteSession(TF_Session*, TF_Status* status);

/* Runs the graph: feeds inputs[i] with input_values[i] (the caller keeps
 * them), computes `outputs` into output_values (new tensors the caller
 * owns; NULL entries on failure) and runs `target_opers`. */
TF_CAPI_EXPORT extern void TF_SessionRun(
    TF_Session* session, const TF_Buffer* run_options,
    const TF_Output* inputs, TF_Tensor* const* input_values, int ninputs,
    const TF_Output* outputs, TF_Tensor** output_values, int noutputs,
    const TF_Operation* const* target_opers, int ntargets,
    TF_Buffer* run_metadata, TF_Status*);

/* Partial runs: setup returns a handle string (released with
 * TF_DeletePRunHandle) for a series of TF_SessionPRun calls; each
 * TF_SessionPRun returns new tensors the caller owns. On failure *handle
 * and the outputs are NULL. */
TF_CAPI_EXPORT extern void TF_SessionPRunSetup(
    TF_Session*, const TF_Output* inputs, int ninputs,
    const TF_Output* outputs, int noutputs,
    const TF_Operation* const* target_opers, int ntargets, const char** handle,
    TF_Status*);
TF_CAPI_EXPORT extern void TF_SessionPRun(
    TF_Session*, const char* handle, const TF_Output* inputs,
    TF_Tensor* const* input_values, int ninputs, const TF_Output* outputs,
    TF_Tensor** output_values, int noutputs,
    const TF_Operation* const* target_opers, int ntargets, TF_Status*);

/* Releases a partial-run handle. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeletePRunHandle(const char* handle);

/* ------------------------------------------------------------------------
 * The deprecated session API (graphs given as serialized GraphDefs). */

typedef struct TF_DeprecatedSession TF_DeprecatedSession;

/* New deprecated session with an empty graph, owned by the caller. */
TF_CAPI_EXPORT extern TF_DeprecatedSession* TF_NewDeprecatedSession(
    const TF_SessionOptions*, TF_Status* status);
/* Closes a deprecated session; later runs fail. */
TF_CAPI_EXPORT extern void TF_CloseDeprecatedSession(TF_DeprecatedSession*,
                                                     TF_Status* status);
/* Releases a deprecated session. NULL is a no-op and leaves `status`
 * TF_OK. */
TF_CAPI_EXPORT extern void TF_DeleteDeprecatedSession(TF_DeprecatedSession*,
                                                      TF_Status* status);
/* Clears the resource containers named in containers[0..ncontainers) (all
 * of them when ncontainers is 0) on the target of `opt` (the local
 * in-process target). */
TF_CAPI_EXPORT extern void TF_Reset(const TF_SessionOptions* opt,
                                    const char** containers, int ncontainers,
                                    TF_Status* status);
/* Adds the nodes of a serialized GraphDef to the session's graph (the
 * caller keeps the bytes). */
TF_CAPI_EXPORT extern void TF_ExtendGraph(TF_DeprecatedSession*,
                                          const void* proto, size_t proto_len,
                                          TF_Status*);
/* Name-based TF_SessionRun/TF_SessionPRunSetup/TF_SessionPRun; output
 * tensors and the handle belong to the caller, NULL on failure. */
TF_CAPI_EXPORT extern void TF_Run(TF_DeprecatedSession*,
                                  const TF_Buffer* run_options,
                                  const char** input_names, TF_Tensor** inputs,
                                  int ninputs, const char** output_names,
                                  TF_Tensor** outputs, int noutputs,
                                  const char** target_oper_names, int ntargets,
                                  TF_Buffer* run_metadata, TF_Status*);
TF_CAPI_EXPORT extern void TF_PRunSetup(TF_DeprecatedSession*,
                                        const char** input_names, int ninputs,
                                        const char** output_names, int noutputs,
                                        const char** target_oper_names,
                                        int ntargets, const char** handle,
                                        TF_Status*);
TF_CAPI_EXPORT extern void TF_PRun(TF_DeprecatedSession*, const char* handle,
                                   const char** input_names, TF_Tensor** inputs,
                                   int ninputs, const char** output_names,
                                   TF_Tensor** outputs, int noutputs,
                                   const char** target_oper_names, int ntargets,
                                   TF_Status*);

/* ------------------------------------------------------------------------
 * Device lists (TFE_ContextListDevices in tensorflow/c/eager/c_api.h makes
 * them; implemented in csrc/eager). */

#ifndef TFE_TYPEDEF_TF_DEVICE_LIST
#define TFE_TYPEDEF_TF_DEVICE_LIST
/* A snapshot list of devices, owned by whoever received it. */
typedef struct TF_DeviceList TF_DeviceList;
#endif

/* Devices of a session (a new list the caller owns, TF_DeleteDeviceList);
 * NULL with the error for a NULL session. */
TF_CAPI_EXPORT extern TF_DeviceList* TF_SessionListDevices(TF_Session* session,
                                                           TF_Status* status);
TF_CAPI_EXPORT extern TF_DeviceList* TF_DeprecatedSessionListDevices(
    TF_DeprecatedSession* session, TF_Status* status);

/* Releases a list and the strings read from it. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteDeviceList(TF_DeviceList* list);
/* Number of entries; -1 for NULL. */
TF_CAPI_EXPORT extern int TF_DeviceListCount(const TF_DeviceList* list);
/* Full name / type of entry `index`, borrowed until the list is deleted;
 * NULL and TF_INVALID_ARGUMENT for a bad index. */
TF_CAPI_EXPORT extern const char* TF_DeviceListName(const TF_DeviceList* list,
                                                    int index,
                                                    TF_Status* status);
TF_CAPI_EXPORT extern const char* TF_DeviceListType(const TF_DeviceList* list,
                                                    int index,
                                                    TF_Status* status);
/* Memory of entry `index` in bytes; -1 and TF_INVALID_ARGUMENT for a bad
 * index. */
TF_CAPI_EXPORT extern int64_t TF_DeviceListMemoryBytes(
    const TF_DeviceList* list, int index, TF_Status* status);
/* Incarnation number of entry `index`; 0 and TF_INVALID_ARGUMENT for a bad
 * index. */
TF_CAPI_EXPORT extern uint64_t TF_DeviceListIncarnation(
    const TF_DeviceList* list, int index, TF_Status* status);

/* ========================================================================
 * End of the graph and session API (continued after the library and
 * registry sections: API definitions, servers, graph mutation).
 * ======================================================================== */

/* ------------------------------------------------------------------------
 * Loading libraries of ops and kernels. */

/* Handle to a shared library loaded with TF_LoadLibrary. */
typedef struct TF_Library TF_Library;

/* Loads the shared library at library_filename and runs its initialisers,
 * which may register ops and kernels with the runtime. Before the library is
 * opened, libtfe makes its own TF_* symbols visible to it, so the library
 * links against this very runtime. On success returns a handle the caller
 * owns (release it with TF_DeleteLibraryHandle); on failure returns NULL
 * with *status NOT_FOUND (file missing or not loadable) or INVALID_ARGUMENT
 * (NULL or empty name, or, as in TensorFlow, an op the library could not
 * register: the registration's message). A library that fails that way
 * keeps nothing registered (tfe takes back its ops and kernels) and fails
 * the same way when loaded again. */
TF_CAPI_EXPORT extern TF_Library* TF_LoadLibrary(const char* library_filename,
                                                 TF_Status* status);

/* The serialized OpList of the ops that the library registered. The buffer
 * belongs to the handle and lives as long as it. */
TF_CAPI_EXPORT extern TF_Buffer TF_GetOpList(TF_Library* lib_handle);

/* Releases the handle (a handle TF_LoadPluggableDeviceLibrary returned more
 * than once loses one reference; the last frees it). The library itself
 * stays loaded for the life of the process, because ops and kernels it
 * registered point into its code (TF behaves the same way). NULL is a
 * harmless no-op. */
TF_CAPI_EXPORT extern void TF_DeleteLibraryHandle(TF_Library* lib_handle);

/* ------------------------------------------------------------------------
 * Op and kernel registries, tensor protos (added with the plugin APIs). */

/* A borrowed string: `len` bytes at `data`, not necessarily NUL-terminated.
 * The receiver does not own the bytes; each function returning one says
 * how long they stay valid. */
#ifndef TFE_TF_STRING_VIEW_DEFINED
#define TFE_TF_STRING_VIEW_DEFINED
typedef struct TF_StringView {
  const char* data;
  size_t len;
} TF_StringView;
#endif

/* Parses a serialized TensorProto (dtype, tensor_shape, and tensor_content
 * or the typed *_val fields) into `to`, replacing its dtype, shape and
 * contents (other tensors sharing `to`'s old buffer keep it).
 * INVALID_ARGUMENT for NULL arguments or malformed bytes. */
TF_CAPI_EXPORT extern void TF_TensorFromProto(const TF_Buffer* from,
                                              TF_Tensor* to,
                                              TF_Status* status);

/* Every op definition registered in this process (built-in ops and those
 * of loaded libraries) as a serialized OpList, in a new buffer the caller
 * releases with TF_DeleteBuffer. NULL when memory runs out. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllOpList(void);

/* Serialized KernelList of the kernels registered for op `name` (every
 * device type; an unknown op gives an empty list), in a new buffer the
 * caller releases with TF_DeleteBuffer. INVALID_ARGUMENT for a NULL name. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetRegisteredKernelsForOp(
    const char* name, TF_Status* status);

/* Serialized KernelList of every registered kernel; the caller releases
 * the buffer with TF_DeleteBuffer. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetAllRegisteredKernels(TF_Status* status);

/* ========================================================================
 * Graph and session API, continued (see the note where it starts).
 * ======================================================================== */

/* ------------------------------------------------------------------------
 * API definitions (ApiDef protos used by binding generators). */

/* Per-op API definitions built from an OpList. A deliberate tfe stub:
 * TF_NewApiDefMap never creates one. */
typedef struct TF_ApiDefMap TF_ApiDefMap;

/* New map from a serialized OpList (the caller keeps the buffer), owned by
 * the caller (TF_DeleteApiDefMap). tfe: NULL and TF_UNIMPLEMENTED. */
TF_CAPI_EXPORT extern TF_ApiDefMap* TF_NewApiDefMap(TF_Buffer* op_list_buffer,
                                                    TF_Status* status);

/* Releases a map. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteApiDefMap(TF_ApiDefMap* apimap);

/* Merges ApiDefs given in protobuf text format into the map. tfe:
 * TF_UNIMPLEMENTED. */
TF_CAPI_EXPORT extern void TF_ApiDefMapPut(TF_ApiDefMap* api_def_map,
                                           const char* text, size_t text_len,
                                           TF_Status* status);

/* Serialized ApiDef of op `name` in a new buffer the caller owns
 * (TF_DeleteBuffer). tfe: NULL and TF_UNIMPLEMENTED. */
TF_CAPI_EXPORT extern TF_Buffer* TF_ApiDefMapGet(TF_ApiDefMap* api_def_map,
                                                 const char* name,
                                                 size_t name_len,
                                                 TF_Status* status);

/* ------------------------------------------------------------------------
 * Graph mutation. */

/* Rewires input `dst` to read from `new_src` (types must match). */
TF_CAPI_EXPORT extern void TF_UpdateEdge(TF_Graph* graph, TF_Output new_src,
                                         TF_Input dst, TF_Status* status);

/* ------------------------------------------------------------------------
 * In-process servers for distributed execution. */

/* A server for one task of a cluster. A deliberate tfe stub: distributed
 * execution is out of scope, so TF_NewServer never creates one. */
typedef struct TF_Server TF_Server;

/* New server from a serialized ServerDef (the caller keeps the bytes),
 * owned by the caller (TF_DeleteServer). tfe: NULL and TF_UNIMPLEMENTED. */
TF_CAPI_EXPORT extern TF_Server* TF_NewServer(const void* proto,
                                              size_t proto_len,
                                              TF_Status* status);

/* Start, stop, and wait for a stopped server. tfe: TF_UNIMPLEMENTED. */
TF_CAPI_EXPORT extern void TF_ServerStart(TF_Server* server, TF_Status* status);
TF_CAPI_EXPORT extern void TF_ServerStop(TF_Server* server, TF_Status* status);
TF_CAPI_EXPORT extern void TF_ServerJoin(TF_Server* server, TF_Status* status);

/* Target string to pass to TF_SetTarget, owned by the server. tfe: NULL. */
TF_CAPI_EXPORT extern const char* TF_ServerTarget(TF_Server* server);

/* Stops (if needed) and releases a server. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteServer(TF_Server* server);

/* ------------------------------------------------------------------------
 * Print listeners and filesystem plugins. */

/* Registers a function that receives the text printed by TF's printing
 * ops instead of the log. A deliberate tfe stub: the listener is not
 * kept (Print/PrintV2 write to their own output streams), the call does
 * nothing and logs a warning once. */
TF_CAPI_EXPORT extern void TF_RegisterLogListener(
    void (*listener)(const char*));

#ifndef TFE_REGISTER_FILESYSTEM_PLUGIN_DECLARED
#define TFE_REGISTER_FILESYSTEM_PLUGIN_DECLARED
/* Loads a filesystem plugin and registers its URI schemes. Implemented;
 * tensorflow/c/c_api_experimental.h documents the rules and errors. */
TF_CAPI_EXPORT extern void TF_RegisterFilesystemPlugin(
    const char* plugin_filename, TF_Status* status);
#endif

/* ------------------------------------------------------------------------
 * Graph edits used by TF's Python layer. They change the graph in place;
 * errors go to the status where there is one, and functions without a
 * status ignore NULL or unknown arguments. */

/* Adds a control edge from `input` to `op`. */
TF_CAPI_EXPORT extern void TF_AddOperationControlInput(TF_Graph* graph,
                                                       TF_Operation* op,
                                                       TF_Operation* input);
/* Sets attr `attr_name` of `op` from a serialized AttrValue. */
TF_CAPI_EXPORT extern void TF_SetAttr(TF_Graph* graph, TF_Operation* op,
                                      const char* attr_name,
                                      TF_Buffer* attr_value_proto,
                                      TF_Status* status);
/* Removes attr `attr_name` from `op`. */
TF_CAPI_EXPORT extern void TF_ClearAttr(TF_Graph* graph, TF_Operation* op,
                                        const char* attr_name,
                                        TF_Status* status);
/* Sets the full type of `op` from a serialized FullTypeDef. */
TF_CAPI_EXPORT extern void TF_SetFullType(TF_Graph* graph, TF_Operation* op,
                                          const TF_Buffer* full_type_proto);
/* Sets the device `op` asks for. */
TF_CAPI_EXPORT extern void TF_SetRequestedDevice(TF_Graph* graph,
                                                 TF_Operation* op,
                                                 const char* device);
/* Drops every control input of `op`. */
TF_CAPI_EXPORT extern void TF_RemoveAllControlInputs(TF_Graph* graph,
                                                     TF_Operation* op);
/* Whether ops added to `graph` must have shape functions. */
TF_CAPI_EXPORT extern void TF_SetRequireShapeInferenceFns(TF_Graph* graph,
                                                          bool require);
/* Makes a session pick up operations added to its graph since it ran. */
TF_CAPI_EXPORT extern void TF_ExtendSession(TF_Session* session,
                                            TF_Status* status);
/* Serialized shape-and-type data of a resource output, in a new buffer
 * the caller owns (TF_DeleteBuffer); NULL when there is none. */
TF_CAPI_EXPORT extern TF_Buffer* TF_GetHandleShapeAndType(TF_Graph* graph,
                                                          TF_Output output);
/* Sets that data from a serialized proto (the caller keeps the bytes). */
TF_CAPI_EXPORT extern void TF_SetHandleShapeAndType(TF_Graph* graph,
                                                    TF_Output output,
                                                    const void* proto,
                                                    size_t proto_len,
                                                    TF_Status* status);
/* Adds `new_src` as an extra input of the while-loop operation `dst`. */
TF_CAPI_EXPORT extern void TF_AddWhileInputHack(TF_Graph* graph,
                                                TF_Output new_src,
                                                TF_Operation* dst,
                                                TF_Status* status);

/* ========================================================================
 * End of the graph and session API.
 * ======================================================================== */

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_C_API_H_ */
