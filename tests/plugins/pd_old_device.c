/* The test PluggableDevice as a plugin built for an older TensorFlow would
 * be: smaller SP_Platform and SP_StreamExecutor, no mem_zero, memset or
 * memset32 (tfe must emulate them), no graph or profiler entry points.
 * Device type OLD_DEVICE. */
#define PD_OLD 1
#define PD_PLATFORM_NAME "OLD_PLATFORM"
#define PD_DEVICE_TYPE "OLD_DEVICE"
#define PD_NUM_DEVICES 1
#include "../../tfe_py/examples/example_device.h"
