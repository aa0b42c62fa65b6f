/* Broken device plugin for the StreamExecutor loader tests: reuses the test device's platform name. */
#define SE_PLATFORM_NAME "TFE_TEST_PLATFORM"
#define SE_DEVICE_TYPE "OTHER_DEVICE"
#include "se_broken_common.h"
