/* Test plugin for the StreamExecutor loader tests: claims version 0.3.0: loads with a warning. */
#define SE_PLATFORM_NAME "MINOR_PLATFORM"
#define SE_DEVICE_TYPE "MINOR_DEVICE"
#define SE_BREAK_INIT(params) (params)->minor_version = 3;
#include "se_broken_common.h"
