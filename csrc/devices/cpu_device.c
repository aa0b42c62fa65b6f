/* The CPU device kind, registered through the same factory registry that
 * pluggable devices use. */
#include <pthread.h>

#include "devices/device.h"
#include "tensorflow/c/tf_status.h"

/* What TF reports as a CPU device's memory limit (256 MiB). */
#define CPU_MEMORY_BYTES (256ll * 1024 * 1024)

static int cpu_count(int requested, void* user_data) {
  (void)user_data;
  /* A ConfigProto asking for 0 CPUs still gets the host CPU, as in TF. */
  if (requested < 1) return 1;
  return requested;
}

static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void register_builtins(void) {
  tfe_device_factory f = {0};
  f.type = "CPU";
  f.is_host = 1;
  /* TF's ThreadPoolDeviceFactory priority. */
  f.priority = 60;
  f.memory_bytes = CPU_MEMORY_BYTES;
  f.count = cpu_count;
  /* Registration of a constant, valid table on an empty registry cannot
   * fail; the status is not needed. */
  tfe_device_factory_register(&f, NULL);
}

void tfe_devices_ensure_builtins(void) { pthread_once(&g_once, register_builtins); }
