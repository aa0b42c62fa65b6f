/* Broken device plugin for the StreamExecutor loader tests: uses the device type CPU, which is taken. */
#define SE_DEVICE_TYPE "CPU"
#include "se_broken_common.h"
