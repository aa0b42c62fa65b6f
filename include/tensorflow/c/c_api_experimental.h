/* tfe: TensorFlow's experimental C API.
 *
 * Functions here may change between releases, as in TensorFlow. The header
 * is organised in sections, one per area; each area's functions are
 * declared as tfe implements them (docs/COVERAGE.md lists the rest). */
#ifndef TENSORFLOW_C_C_API_EXPERIMENTAL_H_
#define TENSORFLOW_C_C_API_EXPERIMENTAL_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Filesystem plugins.
 *
 * TensorFlow 2.21 declares TF_RegisterFilesystemPlugin in
 * tensorflow/c/c_api.h; tfe declares it here until c_api.h carries it, so
 * include either header (c_api.h is included above). */

#ifndef TFE_REGISTER_FILESYSTEM_PLUGIN_DECLARED
#define TFE_REGISTER_FILESYSTEM_PLUGIN_DECLARED
/* Loads the filesystem plugin `plugin_filename` (a shared library that
 * exports TF_InitPlugin, see
 * tensorflow/c/experimental/filesystem/filesystem_interface.h) and
 * registers every URI scheme it declares, or none of them if anything is
 * wrong. On success `status` is TF_OK and the schemes work in every path
 * argument of env.h and tfe/filesystem.h. Errors, with messages naming the
 * plugin, the scheme, the table and the field: TF_NOT_FOUND (library
 * missing or not loadable, an empty plugin_filename, no TF_InitPlugin),
 * TF_FAILED_PRECONDITION (ABI mismatch, table too small, required
 * operation missing, schemes declared without an ops array),
 * TF_INVALID_ARGUMENT (NULL or malformed scheme, NULL plugin_filename),
 * TF_ALREADY_EXISTS (scheme taken), or whatever the filesystem's own init
 * reported. A plugin that declares no scheme loads with TF_OK and
 * registers nothing, as in TensorFlow. The library is never unloaded once
 * its TF_InitPlugin ran. */
TF_CAPI_EXPORT extern void TF_RegisterFilesystemPlugin(
    const char* plugin_filename, TF_Status* status);
#endif

/* ------------------------------------------------------------------------
 * PluggableDevice libraries and op queries. */

/* Loads a PluggableDevice plugin (see
 * tensorflow/c/experimental/stream_executor/stream_executor.h): opens the
 * library, calls its SE_InitPlugin and checks what it registered, then
 * calls TF_InitKernel (kernels.h), TF_InitGraph (grappler.h) and
 * TF_InitProfiler (pluggable_profiler.h) when the library exports them.
 * The platform's devices appear as
 * /job:localhost/replica:0/task:0/device:<type>:<n> in contexts created
 * afterwards. Returns a handle the caller releases with
 * TF_DeletePluggableDeviceLibraryHandle; TF_GetOpList works on it. On
 * failure returns NULL and nothing is registered (kernels and ops the
 * library registered before a later step failed are taken back). A library
 * already loaded (any path dlopen resolves to it) is not initialised
 * again: the call returns TF_OK and the handle returned before (one more
 * reference; each TF_DeletePluggableDeviceLibraryHandle drops one), or a
 * new handle once all were released. Errors, with messages naming the
 * library, the struct and the field (docs/PLUGINS.md): TF_NOT_FOUND (library
 * missing or not loadable, no SE_InitPlugin), TF_FAILED_PRECONDITION
 * (struct sizes, versions, required fields, names), TF_ALREADY_EXISTS (the
 * platform or device type is taken by another library or device kind),
 * TF_INVALID_ARGUMENT (NULL or empty name), or the status an init function
 * reported, unchanged. The library is never unloaded. */
TF_CAPI_EXPORT extern TF_Library* TF_LoadPluggableDeviceLibrary(
    const char* library_filename, TF_Status* status);

/* Drops one reference to the handle and frees it with the last; the
 * plugin stays loaded and its devices stay registered. NULL is a harmless
 * no-op. */
TF_CAPI_EXPORT extern void TF_DeletePluggableDeviceLibraryHandle(
    TF_Library* lib_handle);

/* 1 when op `op_type` is stateful, 0 when not; NOT_FOUND (and 0) for an
 * unknown op, INVALID_ARGUMENT for NULL. */
TF_CAPI_EXPORT extern int TF_OpIsStateful(const char* op_type,
                                          TF_Status* status);

/* ------------------------------------------------------------------------
 * The rest of TensorFlow 2.21's c_api_experimental.h.
 *
 * Implemented (mostly in csrc/graph/). The exceptions are the cross-task
 * collective functions TFE_EnableCollectiveOps and
 * TFE_CollectiveOpsCheckPeerHealth, deliberate stubs that report
 * TF_UNIMPLEMENTED naming themselves; XLA flags are only recorded. */

/* XLA flags. tfe has no XLA: these functions only record the values they
 * are given (process-wide, thread-safe) so that programs which set and read
 * them behave as with TensorFlow; nothing in tfe acts on them. The starting
 * values are TensorFlow's defaults: lazy compilation on, CPU global jit
 * off, auto-jit off (level 0), minimum cluster size 4, constant folding not
 * disabled; as in TensorFlow, TF_XLA_FLAGS in the environment (read once,
 * at the first call) can change them: --tf_xla_auto_jit=,
 * --tf_xla_min_cluster_size=, --tf_xla_cpu_global_jit,
 * --tf_xla_enable_lazy_compilation=, --tf_xla_disable_constant_folding=
 * (booleans: true/false/1/0, a bare flag is true). tfe ignores the other
 * flags TF_XLA_FLAGS may hold, and logs invalid values of these. */

/* Sets the "lazy compilation" flag to `enable` (non-zero: on) and returns
 * its previous value (1 or 0). */
TF_CAPI_EXPORT extern unsigned char TF_SetXlaEnableLazyCompilation(
    unsigned char enable);
/* Sets the "CPU global jit" flag and returns its previous value. */
TF_CAPI_EXPORT extern unsigned char TF_SetTfXlaCpuGlobalJit(
    unsigned char enable);
/* Sets the auto-jit level from a --tf_xla_auto_jit value: an integer N
 * (both the single-GPU and the general level become N), "single-gpu(N)"
 * (only the single-GPU level) or "fusible" (both 1). Anything else, NULL
 * included, changes nothing and is logged at TF_ERROR, as in TensorFlow. */
TF_CAPI_EXPORT extern void TF_SetXlaAutoJitMode(const char* mode);
/* 1 when either auto-jit level is above 0, else 0. */
TF_CAPI_EXPORT extern unsigned char TF_GetXlaAutoJitEnabled(void);
/* Records the minimum cluster size (any value is kept as given). */
TF_CAPI_EXPORT extern void TF_SetXlaMinClusterSize(int size);
/* Reads / sets the "disable constant folding" flag (non-zero: disabled). */
TF_CAPI_EXPORT extern unsigned char TF_GetXlaConstantFoldingDisabled(void);
TF_CAPI_EXPORT extern void TF_SetXlaConstantFoldingDisabled(
    unsigned char should_enable);

/* tfe has no XLA: accepts any `options` (NULL included) and `enable`,
 * changes nothing and logs once at TF_INFO that XLA is not available. */
TF_CAPI_EXPORT extern void TF_EnableXLACompilation(TF_SessionOptions* options,
                                                   unsigned char enable);

/* A new TF_Buffer holding a serialized tensorflow.ConfigProto with
 * device_count {"CPU": num_cpu_devices}, gpu_options.allow_growth =
 * gpu_memory_allow_growth and graph_options.optimizer_options.
 * global_jit_level = ON_1 when enable_xla_compilation is non-zero, else
 * OFF. The caller owns the buffer (TF_DeleteBuffer). NULL only when memory
 * runs out. */
TF_CAPI_EXPORT extern TF_Buffer* TF_CreateConfig(
    unsigned char enable_xla_compilation, unsigned char gpu_memory_allow_growth,
    unsigned int num_cpu_devices);

/* A new TF_Buffer holding a serialized tensorflow.RunOptions whose
 * trace_level is FULL_TRACE when enable_full_trace is non-zero, NO_TRACE
 * (an empty message) otherwise. Caller owns it (TF_DeleteBuffer). NULL
 * only when memory runs out. */
TF_CAPI_EXPORT extern TF_Buffer* TF_CreateRunOptions(
    unsigned char enable_full_trace);

/* Human-readable text of a graph (its GraphDef) or a function, NUL
 * terminated, with its length in *len when len is not NULL. The caller
 * frees the text with free(). NULL (and *len 0) for a NULL argument or when
 * memory runs out. */
TF_CAPI_EXPORT extern const char* TF_GraphDebugString(TF_Graph* graph,
                                                      size_t* len);
TF_CAPI_EXPORT extern char* TF_FunctionDebugString(TF_Function* func,
                                                   size_t* len);

/* Queue-backed tensor transfer through a session whose graph holds the
 * fifo_queue_enqueue_<id>/fifo_queue_dequeue_<id> nodes (TF_INTERNAL when
 * they are missing). Dequeue returns a new tensor the caller owns, or NULL;
 * the enqueued `tensor` stays the caller's. */
TF_CAPI_EXPORT extern TF_Tensor* TF_DequeueNamedTensor(TF_Session* session,
                                                       int tensor_id,
                                                       TF_Status* status);
TF_CAPI_EXPORT extern void TF_EnqueueNamedTensor(TF_Session* session,
                                                 int tensor_id,
                                                 TF_Tensor* tensor,
                                                 TF_Status* status);

/* Parses `text_proto`, a tensorflow.ServerDef in protobuf text format, and
 * returns it serialized (binary) in a new buffer the caller owns
 * (TF_DeleteBuffer); `status` is TF_OK. tfe has no distributed runtime but
 * builds the message as TensorFlow does. Supported fields: cluster (job
 * entries with name and tasks {key, value}), job_name, task_index,
 * protocol, port and replica, with the text format's comments, optional
 * separators, '{}' or '<>' delimiters and quoted strings with escapes.
 * Errors (NULL result): TF_INTERNAL "Invalid text proto for ServerDef:
 * <text>" for text that is not a valid ServerDef (unknown field, syntax
 * error, a singular field given twice, a value out of range), as in
 * TensorFlow; TF_UNIMPLEMENTED naming the field for default_session_config
 * and cluster_device_filters, which tfe cannot encode; TF_INVALID_ARGUMENT
 * for a NULL text_proto; TF_RESOURCE_EXHAUSTED when memory runs out. */
TF_CAPI_EXPORT extern TF_Buffer* TFE_GetServerDef(const char* text_proto,
                                                  TF_Status* status);

/* Sets `status` to TF_INTERNAL with message `errMsg` (NULL reads as "").
 * A NULL status is ignored. */
TF_CAPI_EXPORT extern void TF_MakeInternalErrorStatus(TF_Status* status,
                                                      const char* errMsg);

/* Reading TensorFlow V2 checkpoints (`<prefix>.index` plus
 * `<prefix>.data-NNNNN-of-MMMMM`, through the filesystem layer, so any
 * registered scheme works). See docs/CHECKPOINTS.md.
 *
 * TF_NewCheckpointReader opens the checkpoint with prefix `filename` and
 * reads its whole index; it returns a reader the caller frees with
 * TF_DeleteCheckpointReader (NULL is a no-op), or NULL with `status` set:
 * TF_NOT_FOUND when nothing matches the prefix, TF_DATA_LOSS for a
 * corrupt or truncated index, TF_UNIMPLEMENTED for a V1 or big-endian
 * checkpoint, TF_INVALID_ARGUMENT for a NULL filename. A NULL status makes
 * it return NULL. A reader may be used from several threads.
 *
 * TF_CheckpointReaderHasTensor: 1 when `name` is a key of the index (as
 * in TensorFlow, this includes the header's key ""), else 0 (also for NULL
 * arguments).
 * TF_CheckpointReaderSize / TF_CheckpointReaderGetVariable: the number of
 * stored tensors and the name at `index` in byte-wise sorted order. The
 * name is owned by the reader and valid until it is deleted; NULL for an
 * index out of range or a NULL reader (TensorFlow does not check).
 * TF_CheckpointReaderGetVariableDataType: the dtype of tensor `name`, or
 * 0 (not a valid TF_DataType) when there is no such tensor.
 * TF_CheckpointReaderGetVariableNumDims: its rank, or -1 when there is no
 * such tensor (TensorFlow throws for unknown names in these three).
 * TF_CheckpointReaderGetVariableShape writes its `num_dims` dimensions to
 * `dims`; TF_INVALID_ARGUMENT when `num_dims` is not the rank or for NULL
 * arguments, TF_NOT_FOUND for an unknown name.
 * TF_CheckpointReaderGetTensor reads tensor `name`, verifying its CRC-32C,
 * and returns a new tensor the caller deletes with TF_DeleteTensor, or
 * NULL with `status` set: TF_NOT_FOUND ("Key <name> not found in
 * checkpoint"), TF_DATA_LOSS when the data does not match its checksum or
 * entry, the filesystem's error for a missing or short data file,
 * TF_UNIMPLEMENTED for partitioned (sliced) and variant tensors. */
typedef struct TF_CheckpointReader TF_CheckpointReader;
TF_CAPI_EXPORT extern TF_CheckpointReader* TF_NewCheckpointReader(
    const char* filename, TF_Status* status);
TF_CAPI_EXPORT extern void TF_DeleteCheckpointReader(
    TF_CheckpointReader* reader);
TF_CAPI_EXPORT extern int TF_CheckpointReaderHasTensor(
    TF_CheckpointReader* reader, const char* name);
TF_CAPI_EXPORT extern const char* TF_CheckpointReaderGetVariable(
    TF_CheckpointReader* reader, int index);
TF_CAPI_EXPORT extern int TF_CheckpointReaderSize(TF_CheckpointReader* reader);
TF_CAPI_EXPORT extern TF_DataType TF_CheckpointReaderGetVariableDataType(
    TF_CheckpointReader* reader, const char* name);
TF_CAPI_EXPORT extern void TF_CheckpointReaderGetVariableShape(
    TF_CheckpointReader* reader, const char* name, int64_t* dims, int num_dims,
    TF_Status* status);
TF_CAPI_EXPORT extern int TF_CheckpointReaderGetVariableNumDims(
    TF_CheckpointReader* reader, const char* name);
TF_CAPI_EXPORT extern TF_Tensor* TF_CheckpointReaderGetTensor(
    TF_CheckpointReader* reader, const char* name, TF_Status* status);

/* An op name plus type attrs, used to ask whether a kernel exists.
 * TF_NewAttrBuilder copies `op_name` and returns a builder the caller
 * frees with TF_DeleteAttrBuilder (NULL is a no-op); it returns NULL for a
 * NULL op_name or when memory runs out. The setters copy their arguments,
 * replace an earlier value of the same attr, and ignore NULL builder or
 * attr_name (and, for the list, NULL values with num_values > 0 or a
 * negative num_values). */
typedef struct TF_AttrBuilder TF_AttrBuilder;
TF_CAPI_EXPORT extern TF_AttrBuilder* TF_NewAttrBuilder(const char* op_name);
TF_CAPI_EXPORT extern void TF_DeleteAttrBuilder(TF_AttrBuilder* builder);
TF_CAPI_EXPORT extern void TF_AttrBuilderSetType(TF_AttrBuilder* builder,
                                                 const char* attr_name,
                                                 TF_DataType value);
TF_CAPI_EXPORT extern void TF_AttrBuilderSetTypeList(TF_AttrBuilder* builder,
                                                     const char* attr_name,
                                                     const TF_DataType* values,
                                                     int num_values);

/* TF_OK when a kernel is registered for the builder's op on device type
 * `device_type` (e.g. "CPU") with the attrs set so far plus the op's
 * defaults. Errors: TF_INVALID_ARGUMENT (NULL builder or device_type, or
 * attrs the op definition rejects), TF_NOT_FOUND (unknown op, an attr the
 * kernel choice needs is missing, or no matching kernel). */
TF_CAPI_EXPORT extern void TF_AttrBuilderCheckCanRunOnDevice(
    TF_AttrBuilder* builder, const char* device_type, TF_Status* status);

/* The name of the number attr ("N" in "values: N * T") of input
 * `input_index` of op `op_name`. The string belongs to the op registry and
 * lives as long as the process. NULL with: TF_NOT_FOUND (unknown op, or
 * the input is not a "N * T" list), TF_INVALID_ARGUMENT (input_index out
 * of range, NULL op_name). */
TF_CAPI_EXPORT extern const char* TF_GetNumberAttrForOpListInput(
    const char* op_name, int input_index, TF_Status* status);

/* TensorFlow's platform initialisation. On Linux TensorFlow does nothing
 * here, and neither does tfe: `usage`, *argc and *argv are left as they are
 * (any of them may be NULL). */
TF_CAPI_EXPORT extern void TF_InitMain(const char* usage, int* argc,
                                       char*** argv);

/* Returns a TCP port on 127.0.0.1 that is free right now (the system picks
 * it: bind to port 0), also free for UDP, and not returned before by this
 * process. Meant for tests, as in TensorFlow: the port is not reserved, so
 * another process may take it before the caller binds it. When no port
 * can be found TensorFlow aborts the process; tfe logs an error and
 * returns -1 instead. */
TF_CAPI_EXPORT extern int TF_PickUnusedPortOrDie(void);

/* A new host tensor handle holding the scalar at `data` (copied; `len`
 * bytes, which must equal TF_DataTypeSize(data_type)). The caller owns the
 * handle (TFE_DeleteTensorHandle). NULL with TF_INVALID_ARGUMENT for NULL
 * data, a variable-size dtype (string, resource, variant) or a wrong len. */
TF_CAPI_EXPORT extern TFE_TensorHandle* TFE_NewTensorHandleFromScalar(
    TF_DataType data_type, void* data, size_t len, TF_Status* status);

/* Collectives across tasks: a deliberate tfe stub, TF_UNIMPLEMENTED
 * (in-process collectives need no setup). */
TF_CAPI_EXPORT extern void TFE_EnableCollectiveOps(TFE_Context* ctx,
                                                   const void* proto,
                                                   size_t proto_len,
                                                   TF_Status* status);
/* Aborts the in-process collectives of `ctx` (the collective ops that run
 * across the components of a parallel device): members waiting now, and
 * collectives started later in this context, fail with a copy of `status`,
 * which is an input here (the abort reason) and is not modified. A NULL
 * context or an OK status does nothing. */
TF_CAPI_EXPORT extern void TFE_AbortCollectiveOps(TFE_Context* ctx,
                                                  TF_Status* status);
TF_CAPI_EXPORT extern void TFE_CollectiveOpsCheckPeerHealth(
    TFE_Context* ctx, const char* task, int64_t timeout_in_ms,
    TF_Status* status);

/* The shape and dtype of one tensor. num_dims is -1 for unknown rank (dims
 * then NULL); a dim of -1 is unknown; dtype 0 means not set. Layout as in
 * TensorFlow. */
struct TF_ShapeAndType {
  int num_dims;
  int64_t* dims;
  TF_DataType dtype;
};
typedef struct TF_ShapeAndType TF_ShapeAndType;

/* `num_items` entries; items is NULL when num_items is 0. */
struct TF_ShapeAndTypeList {
  int num_items;
  TF_ShapeAndType* items;
};
typedef struct TF_ShapeAndTypeList TF_ShapeAndTypeList;

/* A new list of `num_shapes` entries, each with num_dims 0, dims NULL and
 * dtype 0. The caller owns it and frees it with TF_DeleteShapeAndTypeList.
 * NULL for a negative count or when memory runs out. */
TF_CAPI_EXPORT extern TF_ShapeAndTypeList* TF_NewShapeAndTypeList(
    int num_shapes);
/* Entry `index` gets a copy of dims[0..num_dims) (replacing any earlier
 * shape). Ignored for a NULL list, an index out of range, a negative
 * num_dims, NULL dims with num_dims > 0, or when memory runs out. */
TF_CAPI_EXPORT extern void TF_ShapeAndTypeListSetShape(
    TF_ShapeAndTypeList* shape_list, int index, const int64_t* dims,
    int num_dims);
/* Entry `index` becomes unknown rank (num_dims -1, dims NULL). Ignored for
 * a NULL list or an index out of range. */
TF_CAPI_EXPORT extern void TF_ShapeAndTypeListSetUnknownShape(
    TF_ShapeAndTypeList* shape_list, int index);
/* Sets the dtype of entry `index`; same rules as above. */
TF_CAPI_EXPORT extern void TF_ShapeAndTypeListSetDtype(
    TF_ShapeAndTypeList* shape_list, int index, TF_DataType dtype);
/* Frees the list and every dims array. NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteShapeAndTypeList(
    TF_ShapeAndTypeList* shape_list);
/* Frees each of the `num_items` lists (NULL entries skipped) and then the
 * array itself with free(): in TensorFlow the array comes from the
 * library; pass an array from malloc or NULL (a no-op). */
TF_CAPI_EXPORT extern void TF_DeleteShapeAndTypeListArray(
    TF_ShapeAndTypeList** shape_list_array, int num_items);

/* Runs the shape function of `op`'s op type on the given input shapes
 * (and constant input tensors / tensors-as-shapes when given). The new
 * lists in *output_shapes (and *output_resource_shapes_and_types) belong
 * to the caller (TF_DeleteShapeAndTypeList / ...Array); they are NULL on
 * failure. The inputs stay the caller's. */
TF_CAPI_EXPORT extern void TFE_InferShapes(
    TFE_Op* op, TF_ShapeAndTypeList* input_shapes, TF_Tensor** input_tensors,
    TF_ShapeAndTypeList* input_tensor_as_shapes,
    TF_ShapeAndTypeList** input_resource_shapes_and_types,
    TF_ShapeAndTypeList** output_shapes,
    TF_ShapeAndTypeList*** output_resource_shapes_and_types, TF_Status* status);

/* Whether TF_GraphImportGraphDef checks colocation constraints (stored
 * in the options; NULL options: no effect). */
TF_CAPI_EXPORT extern void
TF_ImportGraphDefOptionsSetValidateColocationConstraints(
    TF_ImportGraphDefOptions* opts, unsigned char enable);

/* Removes function `func_name` from `g`'s library; an unknown name gives
 * an error and leaves the graph unchanged. */
TF_CAPI_EXPORT extern void TF_GraphRemoveFunction(TF_Graph* g,
                                                  const char* func_name,
                                                  TF_Status* status);

#ifdef __cplusplus
}
#endif

#endif /* TENSORFLOW_C_C_API_EXPERIMENTAL_H_ */
