/* The test PluggableDevice without memcpy_dtod: copies between its two
 * devices must go through the host. Platform NODTOD_PLATFORM, device type
 * NODTOD_DEVICE. */
#define PD_NO_DTOD 1
#define PD_PLATFORM_NAME "NODTOD_PLATFORM"
#define PD_DEVICE_TYPE "NODTOD_DEVICE"
#define PD_NUM_DEVICES 2
#include "../../tfe_py/examples/example_device.h"
