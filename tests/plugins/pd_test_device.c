/* The test PluggableDevice: platform TFE_TEST_PLATFORM, device type
 * MY_DEVICE, two arena devices, stream worker threads (pd_device_impl.h).
 * Also the example plugin `python -m tfe_py doctor` checks. */
#include "pd_device_impl.h"
