/* The test PluggableDevice: tfe's example device plugin
 * (tfe_py/examples/example_device.h) as is: platform TFE_TEST_PLATFORM,
 * device type MY_DEVICE, two arena devices, stream worker threads. */
#include "../../tfe_py/examples/example_device.h"
