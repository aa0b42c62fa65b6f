/* Devices: the registry of device kinds (factories), device objects, and
 * TF device-name parsing.
 *
 * A device kind ("CPU", later a pluggable device's type) registers a
 * factory once per process. Every new eager context asks each factory how
 * many devices of its kind it gets and builds them; the CPU kind registers
 * through exactly this path (csrc/devices/cpu_device.c), so pluggable
 * devices use the same mechanism.
 *
 * Implementation: device.c (registry, devices), device_name.c (parsing),
 * cpu_device.c (the CPU kind), device_list.c (TF_DeviceList). */
#ifndef TFE_DEVICES_DEVICE_H_
#define TFE_DEVICES_DEVICE_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/c/tf_status.h"

/* Address space of every local device. */
#define TFE_LOCAL_ADDRESS_SPACE "/job:localhost/replica:0/task:0"
/* Longest full device name tfe builds (address space + "/device:" + type +
 * ":" + id). */
#define TFE_DEVICE_NAME_MAX 128
/* Longest device type accepted ("CPU", "GPU", a plugin's type). */
#define TFE_DEVICE_TYPE_MAX 48
/* Most devices one context can hold. */
#define TFE_MAX_CONTEXT_DEVICES 1100

struct tfe_device;
struct TF_Tensor;

/* How the core moves tensors in and out of a device kind whose memory is
 * not host memory (is_host == 0): the PluggableDevice kinds
 * (csrc/devices/pluggable_device.c). Each copy returns a new tensor the
 * caller owns, or NULL with the status set. Use the generic wrappers
 * tfe_device_copy_tensor / tfe_device_can_copy below. */
typedef struct tfe_device_memory_ops {
  /* Host tensor -> memory of device dst. */
  struct TF_Tensor* (*copy_from_host)(const struct tfe_device* dst,
                                      const struct TF_Tensor* host,
                                      TF_Status* s);
  /* Tensor in the memory of device src -> new host tensor. */
  struct TF_Tensor* (*copy_to_host)(const struct tfe_device* src,
                                    const struct TF_Tensor* t, TF_Status* s);
  /* Tensor in the memory of src -> memory of dst (both kinds use these
   * hooks; they may be different kinds). */
  struct TF_Tensor* (*copy_between)(const struct tfe_device* dst,
                                    const struct tfe_device* src,
                                    const struct TF_Tensor* t, TF_Status* s);
  /* A context device of this kind was created (tfe_device_init) or freed
   * (tfe_device_fini); either may be NULL. */
  void (*context_acquire)(const struct tfe_device* d);
  void (*context_release)(const struct tfe_device* d);
} tfe_device_memory_ops;

typedef struct tfe_device_factory {
  /* Device type, [A-Z][A-Z0-9_]* ; copied by the registry. */
  const char* type;
  /* 1 when the device's memory is host memory (handles share buffers and
   * resolve without copies). */
  int is_host;
  /* Higher is preferred when nothing else decides the placement (TF's
   * device factory priority: CPU 60, PluggableDevice kinds 220). */
  int priority;
  /* Memory the devices report in device lists, in bytes. */
  int64_t memory_bytes;
  /* Number of devices a new context gets; `requested` is the ConfigProto's
   * device_count for this type, or -1 when it gave none. NULL means
   * "requested, or 1 when not given". */
  int (*count)(int requested, void* user_data);
  void* user_data;
  /* Memory hooks for is_host == 0 kinds; NULL for host kinds. */
  const tfe_device_memory_ops* memory_ops;
} tfe_device_factory;

/* Copies *f into the registry (thread-safe). INVALID_ARGUMENT for a bad
 * type name, ALREADY_EXISTS for a type registered before. */
int tfe_device_factory_register(const tfe_device_factory* f, TF_Status* s);
/* Registers the built-in kinds (CPU) once; safe to call often. */
void tfe_devices_ensure_builtins(void);
/* Snapshot listing in registration order; entries live for the process. */
int tfe_device_factory_count(void);
const tfe_device_factory* tfe_device_factory_at(int i);
/* Kind by type name, or NULL. */
const tfe_device_factory* tfe_device_factory_find(const char* type);

/* One device of a context. */
typedef struct tfe_device {
  char name[TFE_DEVICE_NAME_MAX]; /* full TF name */
  const tfe_device_factory* factory;
  const char* type; /* == factory->type */
  int id;
  int is_host;
  uint64_t incarnation;
} tfe_device;

/* Fills *d as device `id` of kind f in the local address space, for a
 * context: the kind learns that one more context holds the device (a
 * PluggableDevice keeps its memory cache while some context does). Pair
 * every call with tfe_device_fini before freeing d. */
void tfe_device_init(tfe_device* d, const tfe_device_factory* f, int id);
/* The context holding d lets go of it (NULL is a no-op). */
void tfe_device_fini(tfe_device* d);

/* The host CPU:0 device used by handles that belong to no context
 * (TFE_NewTensorHandle). Static storage. */
const tfe_device* tfe_host_cpu_device(void);

/* Same physical device (devices of different contexts compare by kind and
 * id: all are local). */
static inline int tfe_device_same(const tfe_device* a, const tfe_device* b) {
  return a == b ||
         (a != 0 && b != 0 && a->factory == b->factory && a->id == b->id);
}

/* ---- device names (device_name.c) ----
 * Accepted forms (TF's DeviceNameUtils rules): full or partial names made
 * of "/job:NAME", "/replica:N", "/task:N", "/device:TYPE[:ID]" (any N or
 * ID may be "*"), legacy "/cpu:N" and "/gpu:N"; local names "TYPE:ID"
 * ("CPU:0", "cpu:0"); "" (no constraint). */
typedef struct tfe_device_spec {
  int has_job;
  char job[64];
  int has_replica;
  int replica;
  int has_task;
  int task;
  int has_type;
  char type[TFE_DEVICE_TYPE_MAX];
  int has_id;
  int id;
} tfe_device_spec;

/* Parses `name`; returns 1 on success (out filled), 0 for a malformed
 * name. */
int tfe_device_spec_parse(const char* name, tfe_device_spec* out);
/* 1 when device d satisfies every component the spec gives. */
int tfe_device_spec_matches(const tfe_device_spec* spec, const tfe_device* d);
/* 1 when the spec gives no component at all. */
int tfe_device_spec_is_empty(const tfe_device_spec* spec);
/* Writes TF's canonical form of the spec into buf (TF's
 * DeviceNameUtils::ParsedNameToString): the components that are set, in
 * the order job, replica, task, device, with "/device:TYPE:*" for a type
 * without index ("/cpu:0" -> "/device:CPU:0", "" -> ""). Returns the
 * length, or -1 when buf (cap bytes) is too small. */
int tfe_device_spec_format(const tfe_device_spec* spec, char* buf,
                           size_t cap);

/* ---- moving tensors between devices (device_copy.c) ----
 * A tensor "held by" a device lives in that device's memory: host memory
 * for host kinds, the device's own memory otherwise. */

/* 1 when tfe can move tensors held by `from` into the memory of `to`. */
int tfe_device_can_copy(const tfe_device* from, const tfe_device* to);
/* A new tensor with t's value in the memory of `to` (t is held by `from`).
 * Between host devices the new tensor shares t's buffer. NULL with the
 * status set (UNIMPLEMENTED when no copy path exists). */
struct TF_Tensor* tfe_device_copy_tensor(const struct TF_Tensor* t,
                                         const tfe_device* from,
                                         const tfe_device* to, TF_Status* s);
/* 1 when t's buffer is host memory (0 for device memory of a non-host
 * kind, whatever device the handle claims). */
int tfe_tensor_in_host_memory(const struct TF_Tensor* t);

#endif /* TFE_DEVICES_DEVICE_H_ */
