/* tfe extensions for device plugins and op libraries: introspection and
 * self-tests used by `python -m tfe_py doctor`, memory statistics, and
 * running an op's shape function. None of this exists in TensorFlow.
 *
 * Device names below are full or local names of PluggableDevice devices
 * ("/job:localhost/replica:0/task:0/device:MY_DEVICE:0" or "MY_DEVICE:0");
 * a name that is not one gives TF_INVALID_ARGUMENT. */
#ifndef TFE_PLUGINS_H_
#define TFE_PLUGINS_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/eager/c_api.h"
#include "tensorflow/c/tf_buffer.h"
#include "tensorflow/c/tf_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every loaded PluggableDevice platform as UTF-8 JSON in a new buffer the
 * caller releases with TF_DeleteBuffer: a list of objects with the
 * library path, platform name and type, the plugin's API version, the
 * struct sizes it declared, flags, each device (ordinal, hardware name,
 * vendor, PCI bus id, NUMA node, memory bandwidth, gflops, total and free
 * memory), the fill functions tfe emulates, the kernels its TF_InitKernel
 * registered, the recorded graph optimizer and profiler, and the warnings
 * the loader logged. */
TF_CAPI_EXPORT extern TF_Buffer* TFE_DescribePluggableDevices(
    TF_Status* status);

/* The kernels registered for `device_type` (every device type when NULL
 * or "") as JSON in a new buffer (caller releases it): a list of
 * {"op", "device", "constraints": {attr: [dtype names]}, "host_memory",
 * "priority", "label"}. */
TF_CAPI_EXPORT extern TF_Buffer* TFE_DescribeKernels(const char* device_type,
                                                     TF_Status* status);

/* tfe's caching allocator of a device: bytes held by live tensors, bytes
 * cached for reuse, and how often it called the plugin's allocate and
 * deallocate. Any output pointer may be NULL. */
TF_CAPI_EXPORT extern void TFE_PluggableDeviceMemoryStats(
    const char* device_name, int64_t* bytes_in_use, int64_t* bytes_cached,
    int64_t* plugin_allocs, int64_t* plugin_frees, TF_Status* status);

/* The plugin's own statistics (its get_allocator_stats): returns 1 and
 * fills the outputs when it has some, 0 when it reports none. */
TF_CAPI_EXPORT extern int TFE_PluggableDevicePluginMemoryStats(
    const char* device_name, int64_t* bytes_in_use, int64_t* num_allocs,
    TF_Status* status);

/* Waits for the device's streams, then returns every cached block to the
 * plugin. Returns the number of bytes released. */
TF_CAPI_EXPORT extern int64_t TFE_PluggableDeviceReleaseCachedMemory(
    const char* device_name, TF_Status* status);

/* Waits until all work queued on the device's streams has finished. */
TF_CAPI_EXPORT extern void TFE_PluggableDeviceSynchronize(
    const char* device_name, TF_Status* status);

/* Fills the device memory of handle h through the plugin: which = 0 zeroes
 * it (mem_zero), 1 sets every byte to pattern (memset), 2 sets every
 * 32-bit word to pattern (memset32). Older plugins without these get them
 * emulated with a host-to-device copy. INVALID_ARGUMENT when h is not in a
 * PluggableDevice's memory. */
TF_CAPI_EXPORT extern void TFE_PluggableDeviceFill(TFE_TensorHandle* h,
                                                   int which, uint32_t pattern,
                                                   TF_Status* status);

/* Runs the device's stream-executor self-test (allocation and copy round
 * trips of several sizes on each stream, host-to-device / device-to-host
 * ordering through events and stream dependencies, fills, timers, host
 * callbacks) and returns a JSON report in a new buffer the caller releases:
 * {"checks": [{"name", "ok", "detail"}...], "ok": true|false}. The status
 * is OK whenever the report could be made; failed checks are in the
 * report. */
TF_CAPI_EXPORT extern TF_Buffer* TFE_PluggableDeviceSelfTest(
    const char* device_name, TF_Status* status);

/* Runs the shape function of op's type (registered with
 * TF_OpDefinitionBuilderSetShapeInferenceFunction) for op's attrs and the
 * shapes of its inputs (which must be ready). Returns the rank of output
 * `output_index`, -1 when the function leaves it unknown, and writes up to
 * max_dims dims into `dims` (-1 for unknown sizes). On error returns -1
 * with the status set: FAILED_PRECONDITION when the op has no shape
 * function, INVALID_ARGUMENT for a bad index, or the function's own
 * error. */
TF_CAPI_EXPORT extern int TFE_OpInferOutputShape(TFE_Op* op, int output_index,
                                                 int64_t* dims, int max_dims,
                                                 TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TFE_PLUGINS_H_ */
