/* tfe: the StreamExecutor C API, the interface a PluggableDevice plugin
 * implements so that the runtime can drive its devices (TensorFlow 2.21
 * layout, versions and struct sizes).
 *
 * How a device plugin is loaded (TF_LoadPluggableDeviceLibrary in
 * tensorflow/c/c_api_experimental.h):
 *   1. the runtime dlopen()s the library and looks up SE_InitPlugin;
 *   2. it zeroes an SE_PlatformRegistrationParams, an SP_Platform and an
 *      SP_PlatformFns that it owns, fills their struct_size fields and the
 *      version numbers below, and calls SE_InitPlugin;
 *   3. it checks what the plugin filled in, creates the device functions,
 *      the stream executor and the timer functions the same way, and copies
 *      every table into memory it owns. docs/PLUGINS.md lists the checks
 *      and their messages.
 *
 * Naming: SE_* structs are filled by the runtime, SP_* structs by the
 * plugin. Both sides set struct_size: the runtime before the call, to the
 * size it knows; the plugin to the *_STRUCT_SIZE constant of the header it
 * was compiled against, so that a runtime can tell which fields an older or
 * newer plugin knows about. `ext` fields are free for the plugin (SP_*) or
 * reserved (SE_*).
 *
 * Memory: strings and tables a plugin hands over (platform name and type,
 * device names) must stay valid until the matching destroy_* function runs;
 * the runtime copies the function tables right after the call that filled
 * them, so the plugin may reuse those structs afterwards. */
#ifndef TENSORFLOW_C_EXPERIMENTAL_STREAM_EXECUTOR_STREAM_EXECUTOR_H_
#define TENSORFLOW_C_EXPERIMENTAL_STREAM_EXECUTOR_STREAM_EXECUTOR_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/c_api_macros.h"
#include "tensorflow/c/tf_status.h"

/* Version of this API. A plugin built for another major version cannot be
 * loaded; another minor or patch version loads with a warning. */
#define SE_MAJOR 0
#define SE_MINOR 0
#define SE_PATCH 1

#ifdef __cplusplus
extern "C" {
#endif

/* Plugin-defined handles: the runtime only stores and passes them back. */
typedef struct SP_Stream_st* SP_Stream;
typedef struct SP_Event_st* SP_Event;
typedef struct SP_Timer_st* SP_Timer;

/* Host function a stream runs for host_callback: called with the
 * `callback_arg` given there and a status the callee fills. */
typedef void (*SE_StatusCallbackFn)(void* const, TF_Status* const);

/* Timer functions (filled by the plugin's create_timer_fns). */
typedef struct SP_TimerFns {
  size_t struct_size;
  void* ext;
  /* Nanoseconds between the timer's start and stop events. Required. */
  uint64_t (*nanoseconds)(SP_Timer timer);
} SP_TimerFns;

#define SP_TIMER_FNS_STRUCT_SIZE TF_OFFSET_OF_END(SP_TimerFns, nanoseconds)

/* Allocator statistics a plugin may report (get_allocator_stats). */
typedef struct SP_AllocatorStats {
  size_t struct_size;
  int64_t num_allocs;
  int64_t bytes_in_use;
  int64_t peak_bytes_in_use;
  int64_t largest_alloc_size;

  int8_t has_bytes_limit;
  int64_t bytes_limit;

  int64_t bytes_reserved;
  int64_t peak_bytes_reserved;

  int8_t has_bytes_reservable_limit;
  int64_t bytes_reservable_limit;

  int64_t largest_free_block_bytes;
} SP_AllocatorStats;

#define SP_ALLOCATORSTATS_STRUCT_SIZE \
  TF_OFFSET_OF_END(SP_AllocatorStats, largest_free_block_bytes)

/* State of an event as get_event_status reports it. Anything but PENDING
 * and COMPLETE is an error; UNKNOWN is a bad state. */
typedef enum SE_EventStatus {
  SE_EVENT_UNKNOWN,
  SE_EVENT_ERROR,
  SE_EVENT_PENDING,
  SE_EVENT_COMPLETE,
} SE_EventStatus;

/* One block of device memory. `opaque` is whatever the plugin uses to name
 * the block (it need not be an address the host can dereference, and the
 * runtime never dereferences it); `size` is its length in bytes; `payload`
 * is the plugin's own. */
typedef struct SP_DeviceMemoryBase {
  size_t struct_size;
  void* ext;
  void* opaque;
  uint64_t size;
  uint64_t payload;
} SP_DeviceMemoryBase;

#define SP_DEVICE_MEMORY_BASE_STRUCT_SIZE \
  TF_OFFSET_OF_END(SP_DeviceMemoryBase, payload)

/* One device, filled by the plugin's create_device. */
typedef struct SP_Device {
  size_t struct_size;
  void* ext;
  int32_t ordinal; /* index of the device, 0 .. device count - 1 */

  /* The plugin's own handle for the device. */
  void* device_handle;

  /* Optional, NUL-terminated, for display: hardware and vendor names and
   * the PCI bus id ("0000:00:02.1"). */
  const char* hardware_name;
  const char* device_vendor;
  const char* pci_bus_id;
} SP_Device;

#define SP_DEVICE_STRUCT_SIZE TF_OFFSET_OF_END(SP_Device, pci_bus_id)

/* Arguments of create_device. `device` points at a zeroed SP_Device owned
 * by the runtime, with struct_size set; the plugin fills all of it. */
typedef struct SE_CreateDeviceParams {
  size_t struct_size;
  void* ext;
  int32_t ordinal;

  SP_Device* device;
} SE_CreateDeviceParams;

#define SE_CREATE_DEVICE_PARAMS_STRUCT_SIZE \
  TF_OFFSET_OF_END(SE_CreateDeviceParams, device)

/* Per-device queries; every function is optional. Negative results mean
 * "not known". */
typedef struct SP_DeviceFns {
  size_t struct_size;
  void* ext;

  /* NUMA node of the device. */
  int32_t (*get_numa_node)(const SP_Device* device);

  /* Bandwidth of the device's own memory, bytes per second. */
  int64_t (*get_memory_bandwidth)(const SP_Device* device);

  /* Estimated speed, in units of 10^9 floating-point operations per
   * second. */
  double (*get_gflops)(const SP_Device* device);
} SP_DeviceFns;

#define SP_DEVICE_FNS_STRUCT_SIZE TF_OFFSET_OF_END(SP_DeviceFns, get_gflops)

/* Arguments of create_device_fns: the plugin fills *device_fns. */
typedef struct SE_CreateDeviceFnsParams {
  size_t struct_size;
  void* ext;

  SP_DeviceFns* device_fns;
} SE_CreateDeviceFnsParams;

#define SE_CREATE_DEVICE_FNS_PARAMS_STRUCT_SIZE \
  TF_OFFSET_OF_END(SE_CreateDeviceFnsParams, device_fns)

/* What the runtime calls to use a device. Unless marked optional a field
 * is required. Functions named "enqueue" return once the work is queued on
 * the stream; streams run their work in order. */
typedef struct SP_StreamExecutor {
  size_t struct_size;
  void* ext;

  /* ---- memory ---- */

  /* Allocates `size` bytes of device memory and describes the block in
   * *mem (mem->opaque NULL on failure). memory_space is 0. */
  void (*allocate)(const SP_Device* device, uint64_t size, int64_t memory_space,
                   SP_DeviceMemoryBase* mem);

  /* Releases a block from allocate (a NULL block is accepted). */
  void (*deallocate)(const SP_Device* device, SP_DeviceMemoryBase* memory);

  /* Host memory registered with the device, for asynchronous copies. */
  void* (*host_memory_allocate)(const SP_Device* device, uint64_t size);
  void (*host_memory_deallocate)(const SP_Device* device, void* mem);

  /* Unified memory; required only when SP_Platform.supports_unified_memory
   * is set. */
  void* (*unified_memory_allocate)(const SP_Device* device, uint64_t bytes);
  void (*unified_memory_deallocate)(const SP_Device* device, void* location);

  /* Fills *stats and returns 1, or returns 0 when there are no stats. */
  TF_Bool (*get_allocator_stats)(const SP_Device* device,
                                 SP_AllocatorStats* stats);
  /* Free and total device memory; returns 0 when not known. */
  TF_Bool (*device_memory_usage)(const SP_Device* device, int64_t* free,
                                 int64_t* total);

  /* ---- streams ---- */

  void (*create_stream)(const SP_Device* device, SP_Stream* stream,
                        TF_Status* status);
  void (*destroy_stream)(const SP_Device* device, SP_Stream stream);

  /* Work enqueued on `dependent` from now on starts only after the work
   * enqueued on `other` so far has finished. */
  void (*create_stream_dependency)(const SP_Device* device, SP_Stream dependent,
                                   SP_Stream other, TF_Status* status);

  /* The stream's error state, without blocking. */
  void (*get_stream_status)(const SP_Device* device, SP_Stream stream,
                            TF_Status* status);

  /* ---- events ---- */

  void (*create_event)(const SP_Device* device, SP_Event* event,
                       TF_Status* status);
  void (*destroy_event)(const SP_Device* device, SP_Event event);
  SE_EventStatus (*get_event_status)(const SP_Device* device, SP_Event event);
  /* Enqueues: the event completes when the work enqueued before it has. */
  void (*record_event)(const SP_Device* device, SP_Stream stream,
                       SP_Event event, TF_Status* status);
  /* Enqueues: later work on the stream waits for the event. */
  void (*wait_for_event)(const SP_Device* const device, SP_Stream stream,
                         SP_Event event, TF_Status* const status);

  /* ---- timers ---- */

  void (*create_timer)(const SP_Device* device, SP_Timer* timer,
                       TF_Status* status);
  void (*destroy_timer)(const SP_Device* device, SP_Timer timer);
  /* Enqueue the start and the stop of an interval. */
  void (*start_timer)(const SP_Device* device, SP_Stream stream, SP_Timer timer,
                      TF_Status* status);
  void (*stop_timer)(const SP_Device* device, SP_Stream stream, SP_Timer timer,
                     TF_Status* status);

  /* ---- copies ---- */

  /* Enqueue a copy of `size` bytes: device to host, host to device, device
   * to device. The host buffer must stay valid until the copy is done. */
  void (*memcpy_dtoh)(const SP_Device* device, SP_Stream stream, void* host_dst,
                      const SP_DeviceMemoryBase* device_src, uint64_t size,
                      TF_Status* status);
  void (*memcpy_htod)(const SP_Device* device, SP_Stream stream,
                      SP_DeviceMemoryBase* device_dst, const void* host_src,
                      uint64_t size, TF_Status* status);
  /* Optional. */
  void (*memcpy_dtod)(const SP_Device* device, SP_Stream stream,
                      SP_DeviceMemoryBase* device_dst,
                      const SP_DeviceMemoryBase* device_src, uint64_t size,
                      TF_Status* status);

  /* The same copies, returning once they are done. dtod is optional. */
  void (*sync_memcpy_dtoh)(const SP_Device* device, void* host_dst,
                           const SP_DeviceMemoryBase* device_src, uint64_t size,
                           TF_Status* status);
  void (*sync_memcpy_htod)(const SP_Device* device,
                           SP_DeviceMemoryBase* device_dst,
                           const void* host_src, uint64_t size,
                           TF_Status* status);
  void (*sync_memcpy_dtod)(const SP_Device* device,
                           SP_DeviceMemoryBase* device_dst,
                           const SP_DeviceMemoryBase* device_src, uint64_t size,
                           TF_Status* status);

  /* ---- waiting ---- */

  /* Blocks the calling thread until the event completes. */
  void (*block_host_for_event)(const SP_Device* device, SP_Event event,
                               TF_Status* status);

  /* Optional: blocks until everything enqueued on the stream is done. When
   * NULL the runtime records an event and uses block_host_for_event. */
  void (*block_host_until_done)(const SP_Device* device, SP_Stream stream,
                                TF_Status* status);

  /* Blocks until all work on the device is done. */
  void (*synchronize_all_activity)(const SP_Device* device, TF_Status* status);

  /* ---- fills (enqueue) ---- */

  /* Sets `size` bytes at `location` to zero. */
  void (*mem_zero)(const SP_Device* device, SP_Stream stream,
                   SP_DeviceMemoryBase* location, uint64_t size,
                   TF_Status* status);

  /* Sets `size` bytes at `location` to `pattern`. */
  void (*memset)(const SP_Device* device, SP_Stream stream,
                 SP_DeviceMemoryBase* location, uint8_t pattern, uint64_t size,
                 TF_Status* status);

  /* Sets the `size` bytes at `location` (a multiple of 4) to copies of the
   * 32-bit `pattern`. */
  void (*memset32)(const SP_Device* device, SP_Stream stream,
                   SP_DeviceMemoryBase* location, uint32_t pattern,
                   uint64_t size, TF_Status* status);

  /* ---- host callbacks (enqueue) ---- */

  /* Enqueues a call of callback_fn(callback_arg, status) on the host, after
   * the work enqueued before it. Returns 0 when it could not be enqueued.
   * TensorFlow 2.21 puts it last, after the fills; plugins built with
   * headers older than the fills have it at the fills' first slot and a
   * struct_size of TF_OFFSET_OF_END(SP_StreamExecutor, mem_zero): tfe
   * recognises that size and reads it from there. */
  TF_Bool (*host_callback)(const SP_Device* device, SP_Stream stream,
                           SE_StatusCallbackFn callback_fn, void* callback_arg);
} SP_StreamExecutor;

#define SP_STREAMEXECUTOR_STRUCT_SIZE \
  TF_OFFSET_OF_END(SP_StreamExecutor, host_callback)

/* Arguments of create_stream_executor: the plugin fills *stream_executor
 * (a zeroed table owned by the runtime). */
typedef struct SE_CreateStreamExecutorParams {
  size_t struct_size;
  void* ext;

  SP_StreamExecutor* stream_executor;
} SE_CreateStreamExecutorParams;

#define SE_CREATE_STREAM_EXECUTOR_PARAMS_STRUCT_SIZE \
  TF_OFFSET_OF_END(SE_CreateStreamExecutorParams, stream_executor)

/* The platform, filled by SE_InitPlugin. */
typedef struct SP_Platform {
  size_t struct_size;

  void* ext;

  /* Platform name (subtype), e.g. "MY_DEVICE", and device type, e.g.
   * "GPU". Both NUL-terminated and matching [A-Z][A-Z_]*. Devices appear
   * as /job:localhost/replica:0/task:0/device:<type>:<n>. */
  const char* name;
  const char* type;

  /* 1 when the unified_memory_* functions are provided. */
  TF_Bool supports_unified_memory;

  /* 1 when the runtime should put a caching (best-fit with coalescing)
   * allocator in front of the plugin's allocate. tfe always caches. */
  TF_Bool use_bfc_allocator;

  /* 1 when memory should be taken from the plugin as needed rather than
   * reserved up front. */
  TF_Bool force_memory_growth;
} SP_Platform;

#define SP_PLATFORM_STRUCT_SIZE \
  TF_OFFSET_OF_END(SP_Platform, force_memory_growth)

/* Platform-wide functions, filled by SE_InitPlugin. Every field is
 * required. Each destroy_* function releases what the plugin allocated
 * inside the struct; the struct itself belongs to the runtime. */
typedef struct SP_PlatformFns {
  size_t struct_size;

  void* ext;

  void (*get_device_count)(const SP_Platform* platform, int* device_count,
                           TF_Status* status);
  void (*create_device)(const SP_Platform* platform,
                        SE_CreateDeviceParams* params, TF_Status* status);
  void (*destroy_device)(const SP_Platform* platform, SP_Device* device);

  void (*create_device_fns)(const SP_Platform* platform,
                            SE_CreateDeviceFnsParams* params,
                            TF_Status* status);
  void (*destroy_device_fns)(const SP_Platform* platform,
                             SP_DeviceFns* device_fns);

  void (*create_stream_executor)(const SP_Platform* platform,
                                 SE_CreateStreamExecutorParams* params,
                                 TF_Status* status);
  void (*destroy_stream_executor)(const SP_Platform* platform,
                                  SP_StreamExecutor* stream_executor);

  void (*create_timer_fns)(const SP_Platform* platform, SP_TimerFns* timer,
                           TF_Status* status);
  void (*destroy_timer_fns)(const SP_Platform* platform,
                            SP_TimerFns* timer_fns);
} SP_PlatformFns;

#define SP_PLATFORM_FNS_STRUCT_SIZE \
  TF_OFFSET_OF_END(SP_PlatformFns, destroy_timer_fns)

/* SE_InitPlugin's argument. The runtime sets struct_size, the versions and
 * the two pointers (to zeroed structs it owns); the plugin fills *platform,
 * *platform_fns and the two destroy functions (both required). */
typedef struct SE_PlatformRegistrationParams {
  size_t struct_size;
  void* ext;

  /* Version of this API the runtime implements (SE_MAJOR, ...). */
  int32_t major_version;
  int32_t minor_version;
  int32_t patch_version;

  SP_Platform* platform;
  SP_PlatformFns* platform_fns;
  /* Release what the plugin allocated inside *platform / *platform_fns. */
  void (*destroy_platform)(SP_Platform* platform);
  void (*destroy_platform_fns)(SP_PlatformFns* platform_fns);
} SE_PlatformRegistrationParams;

#define SE_PLATFORM_REGISTRATION_PARAMS_STRUCT_SIZE \
  TF_OFFSET_OF_END(SE_PlatformRegistrationParams, destroy_platform_fns)

/* The entry point a device plugin defines (the runtime does not). On
 * failure it sets `status`, and the runtime reports that status unchanged
 * and registers nothing. */
void SE_InitPlugin(SE_PlatformRegistrationParams* params, TF_Status* status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_EXPERIMENTAL_STREAM_EXECUTOR_STREAM_EXECUTOR_H_ */
