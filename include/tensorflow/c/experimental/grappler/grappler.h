/* tfe: graph optimizer plugins (TensorFlow 2.21's
 * tensorflow/c/experimental/grappler/grappler.h).
 *
 * A PluggableDevice library may export TF_InitGraph to register a graph
 * optimizer for its device type. TF_LoadPluggableDeviceLibrary calls it
 * after SE_InitPlugin (and TF_InitKernel), checks what it filled in and
 * records the optimizer and its configuration (`python -m tfe_py doctor`
 * lists them).
 *
 * A recorded optimizer runs on a session's graph before it executes: the
 * graph goes to optimize_func as a serialized GraphDef and the GraphDef it
 * returns is imported and run instead. The helpers below describe the
 * TF_GrapplerItem optimize_func was given; the item belongs to the runtime
 * and is valid only during that call. */
#ifndef TENSORFLOW_C_EXPERIMENTAL_GRAPPLER_GRAPPLER_H_
#define TENSORFLOW_C_EXPERIMENTAL_GRAPPLER_GRAPPLER_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api.h"
#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_status.h"

#define GO_MAJOR 0
#define GO_MINOR 0
#define GO_PATCH 1

#ifdef __cplusplus
extern "C" {
#endif

/* Tri-state switch: keep the user's setting, force off, force on. */
typedef enum TF_TriState {
  TF_TriState_Default = 0,
  TF_TriState_Off,
  TF_TriState_On,
} TF_TriState;

/* The graph being optimized, with its fetch and feed nodes (opaque). */
typedef struct TF_GrapplerItem TF_GrapplerItem;

/* Which of the runtime's own optimizers the plugin wants on or off.
 * TensorFlow inserted auto_mixed_precision_onednn_bfloat16 in the middle;
 * a plugin built with the headers before it declares a struct_size of
 * TF_OFFSET_OF_END(TP_OptimizerConfigs, memory_optimization) (a size no
 * header ends at), and tfe reads its fields at their old offsets. */
typedef struct TP_OptimizerConfigs {
  size_t struct_size;
  void* ext;
  TF_TriState disable_model_pruning;
  TF_TriState implementation_selector;
  TF_TriState function_optimization;
  TF_TriState common_subgraph_elimination;
  TF_TriState arithmetic_optimization;
  TF_TriState debug_stripper;
  TF_TriState constant_folding;
  TF_TriState shape_optimization;
  TF_TriState auto_mixed_precision;
  TF_TriState auto_mixed_precision_onednn_bfloat16;
  TF_TriState auto_mixed_precision_mkl;
  TF_TriState pin_to_host_optimization;
  TF_TriState layout_optimizer;
  TF_TriState remapping;
  TF_TriState loop_optimization;
  TF_TriState dependency_optimization;
  TF_TriState auto_parallel;
  TF_TriState memory_optimization;
  TF_TriState scoped_allocator_optimization;
} TP_OptimizerConfigs;

#define TP_OPTIMIZER_CONFIGS_STRUCT_SIZE \
  TF_OFFSET_OF_END(TP_OptimizerConfigs, scoped_allocator_optimization)

/* The optimizer: optimize_func is required; create_func is optional, and
 * when it is given destroy_func is required too. */
typedef struct TP_Optimizer {
  size_t struct_size;
  void* ext;

  /* Returns the optimizer object passed to the other two. */
  void* (*create_func)(void);

  /* (optimizer, serialized input GraphDef, item, output GraphDef buffer to
   * fill, status). */
  void (*optimize_func)(void*, const TF_Buffer*, const TF_GrapplerItem*,
                        TF_Buffer*, TF_Status*);

  void (*destroy_func)(void*);
} TP_Optimizer;

#define TP_OPTIMIZER_STRUCT_SIZE TF_OFFSET_OF_END(TP_Optimizer, destroy_func)

/* TF_InitGraph's argument: the runtime sets struct_size, the versions and
 * the two pointers (zeroed structs it owns); the plugin sets device_type
 * (which must name a registered device type) and fills the two structs. */
typedef struct TP_OptimizerRegistrationParams {
  size_t struct_size;
  void* ext;

  int32_t major_version;
  int32_t minor_version;
  int32_t patch_version;

  const char* device_type;
  TP_OptimizerConfigs* optimizer_configs;
  TP_Optimizer* optimizer;
} TP_OptimizerRegistrationParams;

#define TP_OPTIMIZER_REGISTRATION_PARAMS_STRUCT_SIZE \
  TF_OFFSET_OF_END(TP_OptimizerRegistrationParams, optimizer)

/* The entry point a plugin defines to register its optimizer (the runtime
 * does not define it). */
void TF_InitGraph(TP_OptimizerRegistrationParams* params, TF_Status* status);

/* ---- helpers for optimize_func (errors: TF_INVALID_ARGUMENT for NULL
 * or too-small arguments) ---- */

/* Count and total byte size of the names of the nodes that must be
 * preserved / of the fetch nodes. */
TF_CAPI_EXPORT extern void TF_GetNodesToPreserveListSize(
    const TF_GrapplerItem* item, int* num_values, size_t* storage_size,
    TF_Status* status);

/* Those names, copied without NUL terminators into the caller's
 * `storage`: values[k] points into it, lengths[k] is its length. The
 * caller owns values, lengths and storage. */
TF_CAPI_EXPORT extern void TF_GetNodesToPreserveList(
    const TF_GrapplerItem* item, char** values, size_t* lengths, int num_values,
    void* storage, size_t storage_size, TF_Status* status);

TF_CAPI_EXPORT extern void TF_GetFetchNodesListSize(const TF_GrapplerItem* item,
                                                    int* num_values,
                                                    size_t* storage_size,
                                                    TF_Status* status);

TF_CAPI_EXPORT extern void TF_GetFetchNodesList(const TF_GrapplerItem* item,
                                                char** values, size_t* lengths,
                                                int num_values, void* storage,
                                                size_t storage_size,
                                                TF_Status* status);

/* Static shape and dtype information about a graph's tensors. */
typedef struct TF_GraphProperties TF_GraphProperties;

/* Properties of `item`'s graph, owned by the caller
 * (TF_DeleteGraphProperties); NULL for a NULL item. It must not outlive
 * the item. TF_InferStatically records which constant values to include;
 * the list functions fill the caller's TF_Buffers (each must exist; its
 * old contents are released) with serialized TensorProperties of the
 * named node's inputs or outputs. */
TF_CAPI_EXPORT extern TF_GraphProperties* TF_NewGraphProperties(
    const TF_GrapplerItem* item);

/* NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteGraphProperties(
    TF_GraphProperties* graph_properties);

TF_CAPI_EXPORT extern void TF_InferStatically(
    TF_GraphProperties* graph_properties, TF_Bool assume_valid_feeds,
    TF_Bool aggressive_shape_inference, TF_Bool include_input_tensor_values,
    TF_Bool include_output_tensor_values, TF_Status* s);

TF_CAPI_EXPORT extern void TF_GetInputPropertiesListSize(
    TF_GraphProperties* graph_properties, const char* name, int* num_values,
    TF_Status* status);

TF_CAPI_EXPORT extern void TF_GetOutputPropertiesListSize(
    TF_GraphProperties* graph_properties, const char* name, int* num_values,
    TF_Status* status);

TF_CAPI_EXPORT extern void TF_GetInputPropertiesList(
    TF_GraphProperties* graph_properties, const char* name,
    TF_Buffer** properties, int num_values, TF_Status* status);

TF_CAPI_EXPORT extern void TF_GetOutputPropertiesList(
    TF_GraphProperties* graph_properties, const char* name,
    TF_Buffer** properties, int num_values, TF_Status* status);

/* Functions of a graph, by name. */
typedef struct TF_FunctionLibraryDefinition TF_FunctionLibraryDefinition;

/* The function library of a serialized GraphDef (the caller keeps the
 * bytes), owned by the caller (TF_DeleteFunctionLibraryDefinition); NULL
 * with TF_INVALID_ARGUMENT for a malformed GraphDef. TF_LookUpOpDef writes
 * the serialized OpDef of an op or function `name` into the caller's
 * buffer (TF_NOT_FOUND when unknown). */
TF_CAPI_EXPORT extern TF_FunctionLibraryDefinition*
TF_NewFunctionLibraryDefinition(const TF_Buffer* graph_buf,
                                TF_Status* status);

/* NULL is a no-op. */
TF_CAPI_EXPORT extern void TF_DeleteFunctionLibraryDefinition(
    TF_FunctionLibraryDefinition* fn_lib);

TF_CAPI_EXPORT extern void TF_LookUpOpDef(TF_FunctionLibraryDefinition* fn_lib,
                                          const char* name, TF_Buffer* buf,
                                          TF_Status* s);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_EXPERIMENTAL_GRAPPLER_GRAPPLER_H_ */
