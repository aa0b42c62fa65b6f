/* tfe: profiler plugins (TensorFlow 2.21's
 * tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h).
 *
 * A PluggableDevice library may export TF_InitProfiler. After the device,
 * kernel and graph entry points, TF_LoadPluggableDeviceLibrary calls it
 * with structs the runtime owns, checks what the plugin filled in and
 * records the profiler (`python -m tfe_py doctor` lists it and exercises
 * start, stop and collection). tfe has no profiling session of its own, so
 * it never starts a recorded profiler by itself.
 *
 * Naming as in stream_executor.h: TF_* structs are filled by the runtime,
 * TP_* structs by the plugin; both set struct_size. */
#ifndef TENSORFLOW_C_EXPERIMENTAL_PLUGGABLE_PROFILER_PLUGGABLE_PROFILER_H_
#define TENSORFLOW_C_EXPERIMENTAL_PLUGGABLE_PROFILER_PLUGGABLE_PROFILER_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_status.h"

#define TP_MAJOR 0
#define TP_MINOR 0
#define TP_PATCH 1

#ifdef __cplusplus
extern "C" {
#endif

/* The profiler: `device_type` names the device type it profiles
 * (required). */
typedef struct TP_Profiler {
  size_t struct_size;
  void* ext;
  const char* device_type;
} TP_Profiler;

#define TP_PROFILER_STRUCT_SIZE TF_OFFSET_OF_END(TP_Profiler, device_type)

/* The profiler's functions, all required. */
typedef struct TP_ProfilerFns {
  size_t struct_size;

  void* ext;
  void (*start)(const TP_Profiler* profiler, TF_Status* status);
  void (*stop)(const TP_Profiler* profiler, TF_Status* status);

  /* Serializes the collected data as an XSpace. Called first with a NULL
   * buffer to learn the size (*size_in_bytes), then with a buffer of that
   * size. */
  void (*collect_data_xspace)(const TP_Profiler* profiler, uint8_t* buffer,
                              size_t* size_in_bytes, TF_Status* status);
} TP_ProfilerFns;

#define TP_PROFILER_FNS_STRUCT_SIZE \
  TF_OFFSET_OF_END(TP_ProfilerFns, collect_data_xspace)

/* TF_InitProfiler's argument. The runtime owns the two structs the
 * pointers refer to; the plugin fills them and sets the two destroy
 * functions (required), which release what the plugin allocated inside
 * them. */
typedef struct TF_ProfilerRegistrationParams {
  size_t struct_size;
  void* ext;

  int32_t major_version;
  int32_t minor_version;
  int32_t patch_version;

  TP_Profiler* profiler;
  TP_ProfilerFns* profiler_fns;
  void (*destroy_profiler)(TP_Profiler* profiler);
  void (*destroy_profiler_fns)(TP_ProfilerFns* profiler_fns);
} TF_ProfilerRegistrationParams;

#define TF_PROFILER_REGISTRATION_PARAMS_STRUCT_SIZE \
  TF_OFFSET_OF_END(TF_ProfilerRegistrationParams, destroy_profiler_fns)

/* The entry point a plugin defines (the runtime does not). */
void TF_InitProfiler(TF_ProfilerRegistrationParams* params, TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_EXPERIMENTAL_PLUGGABLE_PROFILER_PLUGGABLE_PROFILER_H_ */
