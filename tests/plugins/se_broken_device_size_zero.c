/* Broken device plugin for the StreamExecutor loader tests: create_device leaves SP_Device.struct_size at 0. */
#define SE_BREAK_DEVICE(params, status) (params)->device->struct_size = 0;
#include "se_broken_common.h"
