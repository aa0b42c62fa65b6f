/* PluggableDevice platforms and devices: what a loaded StreamExecutor plugin
 * becomes inside tfe.
 *
 * A tfe_platform holds the core-owned copies of the plugin's tables
 * (SP_Platform, SP_PlatformFns, SP_DeviceFns, SP_StreamExecutor,
 * SP_TimerFns) and one tfe_pdev per device the plugin created. The loader
 * (csrc/plugins/se_loader.c) builds and validates a platform; publishing it
 * registers a device kind whose devices appear in contexts created
 * afterwards.
 *
 * Device memory. A tensor in a plugin device's memory is an ordinary
 * TF_Tensor whose buffer `data` is the block's SP_DeviceMemoryBase.opaque:
 * the core never dereferences it. Such buffers are recognised by their
 * deallocator (tfe_pdev_tensor_device). Blocks come from a caching
 * allocator per device, so steady-state execution does not call the
 * plugin's allocate/deallocate per tensor.
 *
 * Streams and ordering. Each device has a compute stream (kernels), a
 * host-to-device stream and a device-to-host stream, created on first use.
 * A block written by a host-to-device copy carries an event recorded after
 * the copy; the first consumer on another stream orders itself after the
 * copy (stream dependency) and the event is retired once it completed.
 * Device-to-host copies first make the d2h stream depend on the streams
 * that wrote the block, then block the host on an event recorded after the
 * copy. A freed block that compute touched is reused by compute directly
 * (stream order) and by the h2d stream only after a dependency on compute.
 * Blocks go back to the plugin (deallocate) only after the streams that
 * touched them are idle: when the cache grows too large, on request
 * (TFE_PluggableDeviceReleaseCachedMemory), and when the last context
 * using the device is freed; while no context uses it, a freed block goes
 * back at once. A copy between two devices of one platform uses the
 * plugin's memcpy_dtod on the source device's stream (through the host
 * when the plugin has none).
 *
 * Locking: each device has an execution lock (kernels, transfers, stream
 * creation) and an allocator lock; the allocator lock is never held while
 * calling into the plugin's stream functions. The platform registry is
 * guarded by a global mutex. */
#ifndef TFE_DEVICES_PLUGGABLE_DEVICE_H_
#define TFE_DEVICES_PLUGGABLE_DEVICE_H_

#include <pthread.h>
#include <stdint.h>

#include "devices/device.h"
#include "tensorflow/c/experimental/grappler/grappler.h"
#include "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"
#include "tensorflow/c/experimental/stream_executor/stream_executor.h"
#include "tensorflow/c/tf_tensor.h"

typedef struct tfe_platform tfe_platform;
typedef struct tfe_pdev tfe_pdev;
typedef struct tfe_pmem tfe_pmem;

/* Fill functions an older plugin lacks; tfe emulates them. */
#define TFE_PD_EMULATE_MEM_ZERO 1u
#define TFE_PD_EMULATE_MEMSET 2u
#define TFE_PD_EMULATE_MEMSET32 4u

/* Cleanup steps done so far (destroyed in reverse order). */
#define TFE_PD_HAVE_PLATFORM 1u
#define TFE_PD_HAVE_PLATFORM_FNS 2u
#define TFE_PD_HAVE_DEVICE_FNS 4u
#define TFE_PD_HAVE_SE 8u
#define TFE_PD_HAVE_TIMER_FNS 16u

#define TFE_PD_MAX_WARNINGS 16

struct tfe_pdev {
  tfe_platform* plat;
  int ordinal;
  int created; /* create_device succeeded: destroy_device is owed */
  /* The plugin's device (core-owned; the address stays fixed). The slack
   * absorbs a plugin built against a newer, larger SP_Device. */
  SP_Device dev;
  unsigned char dev_slack[256];

  /* Execution lock: serialises kernels and transfers on this device. */
  pthread_mutex_t mu;
  int streams_ready;
  SP_Stream compute, h2d, d2h;

  /* Allocator (guarded by amu). */
  pthread_mutex_t amu;
  tfe_pmem* cache;         /* free blocks, most recently freed first */
  int64_t cached_bytes;    /* bytes in `cache` */
  int64_t in_use_bytes;    /* bytes of live blocks */
  int64_t peak_in_use_bytes;
  int64_t live_blocks;
  int64_t plugin_allocs;   /* calls of the plugin's allocate */
  int64_t plugin_frees;    /* calls of the plugin's deallocate */
  int64_t cache_hits;
  /* Context devices that stand for this device (tfe_device_init /
   * tfe_device_fini). While it is 0, freed blocks go straight back to the
   * plugin, and reaching 0 returns the cache. */
  int64_t ctx_users;
};

struct tfe_platform {
  char* path; /* library path, or a test's label */
  void* dl;   /* dlopen handle (kept for the life of the process) */
  char name[TFE_DEVICE_TYPE_MAX];
  char type[TFE_DEVICE_TYPE_MAX];

  /* Core-owned copies of the plugin's tables. */
  SP_Platform platform;
  SP_PlatformFns fns;
  SP_DeviceFns device_fns;
  SP_StreamExecutor se;
  SP_TimerFns timer_fns;
  void (*destroy_platform)(SP_Platform*);
  void (*destroy_platform_fns)(SP_PlatformFns*);
  unsigned have; /* TFE_PD_HAVE_* */

  /* What the plugin declared (for `doctor`). */
  int32_t plugin_major, plugin_minor, plugin_patch;
  size_t platform_size, platform_fns_size, device_fns_size, se_size,
      timer_fns_size, params_size;
  unsigned emulated_fills; /* TFE_PD_EMULATE_* */

  int num_devices;
  tfe_pdev** devices;

  /* Graph optimizer (TF_InitGraph), recorded only. */
  int has_optimizer;
  char optimizer_device_type[TFE_DEVICE_TYPE_MAX];
  TP_Optimizer optimizer;
  TP_OptimizerConfigs optimizer_configs;
  void* optimizer_object; /* from create_func, released at cleanup */

  /* Profiler (TF_InitProfiler), recorded only. */
  int has_profiler;
  char profiler_type[TFE_DEVICE_TYPE_MAX];
  TP_Profiler profiler;
  TP_ProfilerFns profiler_fns;
  void (*destroy_profiler)(TP_Profiler*);
  void (*destroy_profiler_fns)(TP_ProfilerFns*);

  /* Kernels registered by TF_InitKernel (registry indices [first, end)). */
  int has_init_kernel;
  int kernels_first, kernels_end;
  unsigned kernels_tag; /* tfe_kernels_mark_begin's tag for them */

  char* warnings[TFE_PD_MAX_WARNINGS];
  int num_warnings;

  int published; /* registered as a device kind */
  int dead;      /* torn down at exit: every later call is a no-op */
  tfe_platform* next_load; /* load order, newest first */
};

/* ---- platforms ---- */

/* Records a warning about the plugin (logged and kept for `doctor`). */
void tfe_platform_warn(tfe_platform* p, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ALREADY_EXISTS when a published platform has that name or type, or when
 * the device type is taken by another device kind (CPU, ...). */
int tfe_platform_check_unique(const char* path, const char* name,
                              const char* type, TF_Status* s);

/* Registers the platform's device kind and makes it visible (contexts
 * created afterwards get its devices). Takes ownership of p. On failure p
 * is left to the caller (still unpublished). */
int tfe_platform_publish(tfe_platform* p, TF_Status* s);

/* Releases everything a never-published platform holds, in reverse order
 * of creation, with the plugin's destroy functions. NULL is a no-op. */
void tfe_platform_destroy(tfe_platform* p);

/* Published platforms, in load order; entries live for the process. */
int tfe_platform_count(void);
tfe_platform* tfe_platform_at(int i);
tfe_platform* tfe_platform_by_type(const char* type);

/* ---- devices ---- */

/* Device `ordinal` of the platform of device type `type`, or NULL. */
tfe_pdev* tfe_pdev_find(const char* type, int ordinal);
/* Device named by a full or local device name (".../device:TYPE:N"), or
 * NULL when the name is not a PluggableDevice's. */
tfe_pdev* tfe_pdev_from_name(const char* name);
/* The device of a context device, or NULL when d is not a PluggableDevice. */
tfe_pdev* tfe_pdev_of_device(const tfe_device* d);

/* The compute stream (streams are created on first use). NULL with the
 * plugin's status when creating them fails. Call with d->mu held. */
SP_Stream tfe_pdev_compute_stream_locked(tfe_pdev* d, TF_Status* s);

void tfe_pdev_lock(tfe_pdev* d);
void tfe_pdev_unlock(tfe_pdev* d);

/* ---- memory ---- */

/* A new tensor whose buffer is a block of d's memory (contents
 * unspecified). `for_compute` marks the block as written by the compute
 * stream. NULL with RESOURCE_EXHAUSTED / INVALID_ARGUMENT. */
TF_Tensor* tfe_pdev_alloc_tensor(tfe_pdev* d, TF_DataType dtype,
                                 const int64_t* dims, int num_dims,
                                 int for_compute, TF_Status* s);

/* A tensor over memory the caller allocated on d (data is the plugin's
 * opaque pointer, len its size in bytes); deallocator(data, len, arg) runs
 * when the last tensor sharing it goes, and also when this fails. */
TF_Tensor* tfe_pdev_wrap_memory(tfe_pdev* d, TF_DataType dtype,
                                const int64_t* dims, int num_dims, void* data,
                                size_t len,
                                void (*deallocator)(void*, size_t, void*),
                                void* deallocator_arg, TF_Status* s);

/* The device whose memory holds t's buffer, or NULL for host memory. */
tfe_pdev* tfe_pdev_tensor_device(const TF_Tensor* t);

/* The block of a device tensor as the plugin sees it (zeroed struct for a
 * host tensor). */
SP_DeviceMemoryBase tfe_pdev_tensor_memory(const TF_Tensor* t);

/* Before a kernel runs on d's compute stream (d->mu held): orders the
 * compute stream after pending copies into the device inputs, and marks
 * them as used by compute. */
int tfe_pdev_prepare_inputs_locked(tfe_pdev* d, TF_Tensor* const* ins, int n,
                                   TF_Status* s);
/* After a kernel ran: marks device tensors as touched by compute. */
void tfe_pdev_mark_compute(const TF_Tensor* t);

/* Copies (each returns a new tensor the caller owns, or NULL + status):
 * host tensor -> device d; device tensor -> host; device tensor -> d. */
TF_Tensor* tfe_pdev_copy_from_host(tfe_pdev* d, const TF_Tensor* host,
                                   TF_Status* s);
TF_Tensor* tfe_pdev_copy_to_host(const TF_Tensor* t, TF_Status* s);
TF_Tensor* tfe_pdev_copy_device_to_device(tfe_pdev* dst, const TF_Tensor* t,
                                          TF_Status* s);

/* Fills bytes of a device tensor through the plugin (mem_zero, memset or
 * memset32, emulated with memcpy_htod when an older plugin lacks them) and
 * waits for it. which: 0 zero, 1 memset (pattern & 0xff), 2 memset32. */
int tfe_pdev_fill(const TF_Tensor* t, int which, uint32_t pattern,
                  TF_Status* s);

/* Waits until everything enqueued on d's streams is done. */
int tfe_pdev_synchronize(tfe_pdev* d, TF_Status* s);

/* Returns every cached block to the plugin (after the streams are idle).
 * Returns the bytes released. */
int64_t tfe_pdev_release_cache(tfe_pdev* d);

/* The memory hooks device kinds of PluggableDevices register with. */
extern const tfe_device_memory_ops tfe_pluggable_memory_ops;

#endif /* TFE_DEVICES_PLUGGABLE_DEVICE_H_ */
