/* Broken device plugin for the StreamExecutor loader tests: gives a device type with a colon. */
#define SE_DEVICE_TYPE "GPU:1"
#include "se_broken_common.h"
